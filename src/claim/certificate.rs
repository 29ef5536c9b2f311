//! Certificates of refutations: whether a refutation holds in exact arithmetic, so a referee can
//! trust it without recomputing it.
//!
//! A deterministic refutation is *certified* when the violated relation was decided on
//! enclosures of its two sides ([`Interval`]): the gap of the relation is below zero for every
//! real value in them, so the statement is false at the counterexample in exact arithmetic (sides
//! known exactly are degenerate intervals, [`Interval::exact`]). A check evaluates with
//! enclosures itself, or re-evaluates the shrunk counterexample with them
//! ([`Property::certify`](super::Property::certify)). A conditional statement's refutation also
//! needs its hypothesis shown to hold at the instance on enclosures
//! ([`Property::certify_given`](super::Property::certify_given), recorded as a
//! [`HypothesisStanding`]). Otherwise the refutation is *not
//! certified*, with the reason ([`Uncertified`]). A statistical refutation is certified by its
//! exact confidence interval at the suite's family-wise level.

use super::comparison::{HypothesisStanding, Violation};
use super::kind::Kind;
use crate::math::Interval;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a refutation is not certified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Uncertified {
    /// Both sides were computed in floating point without enclosures: the violation is what
    /// f64 arithmetic gives, within the claim's stated tolerance.
    FloatingPoint,
    /// Only one side carries an enclosure; the other is a float taken as exact.
    OneSide,
    /// Re-evaluated with enclosures, the sides overlap: the enclosure is too wide to decide.
    EnclosureTooWide,
    /// The check relies on a routine that has no enclosure (eigenvalues, a quadrature, …).
    NoEnclosure,
    /// The erratum is about floating-point behaviour itself: its violation is a fact of f64
    /// arithmetic, not of the reals.
    Precision,
    /// The check judges a whole sweep or a bare margin, not two sides at one instance.
    NoSides,
    /// The violated relation is certified, but the statement's hypothesis was not shown to hold
    /// at the instance in exact arithmetic.
    Hypothesis,
}

impl Uncertified {
    /// What the reason means, in a phrase.
    pub fn meaning(self) -> &'static str {
        match self {
            Uncertified::FloatingPoint => "both sides computed in floating point, without enclosures",
            Uncertified::OneSide => "only one side computed as an enclosure",
            Uncertified::EnclosureTooWide => "the enclosures of the two sides overlap",
            Uncertified::NoEnclosure => "a routine the check relies on has no enclosure",
            Uncertified::Precision => "the statement is about floating-point behaviour",
            Uncertified::NoSides => "the check judges a sweep or a bare margin, not two sides",
            Uncertified::Hypothesis => "the conclusion's violation is certified, the hypothesis is not",
        }
    }
}

/// The certificate of one refutation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Certificate {
    /// The relation is violated for every real value in the sides' enclosures: the statement is
    /// false at this instance in exact arithmetic.
    Certified {
        /// The left side's enclosure.
        lhs: Interval,
        /// The right side's enclosure.
        rhs: Interval,
        /// The relation's exact gap (`rhs − lhs` for `≤`, `lhs − rhs` for `≥`): with the
        /// tolerance added, entirely on the violating side (below 0; at most 0 for a strict
        /// relation).
        gap: Interval,
        /// The tolerance the relation allows beyond the gap; left out when it allows none.
        #[serde(default = "super::comparison::no_tolerance", skip_serializing_if = "super::comparison::is_no_tolerance")]
        tolerance: Interval,
    },
    /// A statistical refutation: its exact confidence interval at the family-wise level
    /// excludes what the statement asserts (the check's own record).
    Statistical {
        /// The family-wise significance level.
        level: f64,
    },
    /// Not certified, and why.
    NotCertified {
        /// The reason.
        reason: Uncertified,
        /// The particulars (which routine, which side, the enclosures that overlapped).
        detail: String,
    },
}

impl Certificate {
    /// The certificate of a refutation by a check of `kind` whose violated relation is
    /// `violation` (`None`: the check recorded none), with the claim's declared reason for
    /// being uncertified, if any.
    pub fn of(kind: Kind, violation: Option<&Violation>, declared: Option<&(Uncertified, String)>) -> Certificate {
        if matches!(kind, Kind::Statistical | Kind::Rate | Kind::Training) {
            return Certificate::Statistical { level: super::ALPHA };
        }
        let not = |reason, detail: String| Certificate::NotCertified { reason, detail };
        let Some(v) = violation else {
            return declared.map_or_else(|| not(Uncertified::NoSides, "the check records no violated relation".into()), |(r, d)| not(*r, d.clone()));
        };
        match v.enclosure.as_deref().copied() {
            Some(e) if e.both_sides() => match (e.decide(v.relation), v.hypothesis.as_deref()) {
                (super::comparison::Standing::Violated, Some(HypothesisStanding::NotCertified { detail })) => {
                    not(Uncertified::Hypothesis, format!("the violated relation is certified ({e}), but {detail}"))
                }
                (super::comparison::Standing::Violated, _) => {
                    Certificate::Certified { lhs: e.lhs.unwrap(), rhs: e.rhs.unwrap(), gap: e.gap, tolerance: e.tolerance }
                }
                _ => not(Uncertified::EnclosureTooWide, e.to_string()),
            },
            Some(e) => {
                let (has, lacks) = if e.lhs.is_some() { ("left", "right") } else { ("right", "left") };
                not(
                    Uncertified::OneSide,
                    format!(
                        "the {has} side is enclosed, the {lacks} side ({}) is a float (wrap it in Interval::exact if it is exact)",
                        if e.lhs.is_some() { &v.rhs_is } else { &v.lhs_is }
                    ),
                )
            }
            None => declared.map_or_else(|| not(Uncertified::FloatingPoint, "no enclosure was computed for this check".into()), |(r, d)| not(*r, d.clone())),
        }
    }
    /// Whether the refutation holds in exact arithmetic (or, for a statistical one, at its
    /// stated level).
    pub fn is_certified(&self) -> bool {
        !matches!(self, Certificate::NotCertified { .. })
    }
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Certificate::Certified { lhs, rhs, gap, tolerance } => {
                write!(f, "certified: lhs ∈ {lhs}, rhs ∈ {rhs}, gap ∈ {gap}")?;
                if !super::comparison::is_no_tolerance(tolerance) {
                    write!(f, ", tolerance ∈ {tolerance}")?;
                }
                write!(f, ": violated for every real value in the enclosures")
            }
            Certificate::Statistical { level } => write!(f, "certified statistically: exact interval at family-wise level {level:e}"),
            Certificate::NotCertified { reason, detail } => write!(f, "NOT certified ({}): {detail}", reason.meaning()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{Comparison, Tolerance};

    #[test]
    fn enclosed_violations_are_certified_and_floats_say_why_not() {
        let two = Interval::exact(2.0);
        let v = Comparison::at_most(two, Interval::exact(1.0), Tolerance::NONE).named("a", "b");
        assert!(matches!(Certificate::of(Kind::Property, Some(&v), None), Certificate::Certified { .. }));
        let float = Comparison::at_most(2.0, 1.0, Tolerance::NONE).named("a", "b");
        let c = Certificate::of(Kind::Property, Some(&float), None);
        assert!(!c.is_certified());
        assert!(c.to_string().starts_with("NOT certified (both sides computed in floating point"), "{c}");
        let declared = (Uncertified::Precision, "f64 rounding is the point".to_string());
        assert_eq!(
            Certificate::of(Kind::Property, Some(&float), Some(&declared)),
            Certificate::NotCertified { reason: Uncertified::Precision, detail: declared.1.clone() }
        );
        let one = Comparison::at_most(two, 1.0, Tolerance::NONE).named("a", "the bound");
        assert!(Certificate::of(Kind::Property, Some(&one), None).to_string().contains("the bound"));
        assert!(Certificate::of(Kind::Statistical, None, None).is_certified());
    }

    #[test]
    fn overlapping_enclosures_tie_and_never_refute() {
        // e^{ln 2} vs 2: the enclosures overlap, so ≤ and ≥ are ties, not violations.
        let e = Interval::exact(2.0).ln().exp();
        let c = Comparison::at_most(e, Interval::exact(2.0), Tolerance::NONE);
        assert_eq!(c.standing(), crate::claim::Standing::Tie);
        assert!(!c.refutes());
        let strict = Comparison::strict(Interval::exact(1.0), Interval::exact(1.0), crate::claim::Relation::Below, crate::claim::Scale(1.0), Tolerance::NONE);
        assert!(strict.refutes(), "exact equality violates <, and is certified");
        assert!(matches!(Certificate::of(Kind::Property, Some(&strict.named("a", "b")), None), Certificate::Certified { .. }));
    }
}
