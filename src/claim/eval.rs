//! The evaluation of one instance of a property: a comparison with a signed margin, a bare
//! margin, or a rejection — and the helpers that state a relation with an honest margin.
//!
//! Which helper:
//! - `lhs ≤ rhs` between quantities of the same size: [`Eval::le`] (relative margin, with
//!   relative and absolute tolerance) — or [`Eval::le_by`] when one side can be 0 and the
//!   margin should keep measuring the gap (a relative margin is ±1 there, which gives a search
//!   nothing to climb).
//! - an equality: [`Eval::close`].
//! - a strict inequality `lhs < rhs` / `lhs > rhs`: [`Eval::lt`] / [`Eval::gt`], with the
//!   rounding the computed gap can carry; equality within it is a *tie*, counted apart.
//! - positivity `x > 0`: [`Eval::positive`] with the scale of `x`.
//! - the rounding to allow: [`Rounding`](super::Rounding), as a typed [`Tolerance`] (relative
//!   or absolute) and the margin's [`Scale`] — or none at all, when the sides are computed as
//!   [`Interval`] enclosures: then a relation is violated only when the
//!   enclosures are separated, so the violation holds in exact arithmetic (a certificate), and
//!   overlapping enclosures are a tie.

use super::comparison::{Comparison, Relation, Side, Standing};
use super::tolerance::{Scale, Tolerance};
use crate::math::Interval;

/// The evaluation of one instance.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Eval {
    /// A comparison of two sides with its signed margin (≥ 0 satisfies the claim, < 0
    /// violates it): what the helpers give, and what a refutation records.
    Compared(Comparison),
    /// A bare signed margin, for a claim whose sides cannot be named (prefer a comparison: a
    /// refutation then records only the margin).
    Margin(f64),
    /// The instance does not meet the claim's assumptions.
    Reject(&'static str),
}

impl Eval {
    /// The margin of `lhs ≤ rhs` on a relative scale with the tolerance taken at the larger
    /// side: `(rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol)`
    /// ([`Comparison::at_most`]). Sides may be `f64` or [`Interval`]
    /// enclosures ([`Side`]).
    pub fn le(lhs: impl Into<Side>, rhs: impl Into<Side>, tol: Tolerance) -> Eval {
        Eval::Compared(Comparison::at_most(lhs, rhs, tol))
    }
    /// `lhs ≤ rhs` with a margin linear in the gap: `(rhs − lhs + tolerance)/scale`. Use it when
    /// a side can be 0 (where [`Eval::le`]'s relative margin is ±1 whatever the gap), with
    /// `scale` the size of the quantities and `tol` their rounding.
    pub fn le_by(lhs: impl Into<Side>, rhs: impl Into<Side>, scale: Scale, tol: Tolerance) -> Eval {
        Eval::Compared(Comparison::linear(lhs, rhs, Relation::AtMost, scale, tol))
    }
    /// `lhs ≥ rhs` with a margin linear in the gap ([`Eval::le_by`] mirrored).
    pub fn ge_by(lhs: impl Into<Side>, rhs: impl Into<Side>, scale: Scale, tol: Tolerance) -> Eval {
        Eval::Compared(Comparison::linear(lhs, rhs, Relation::AtLeast, scale, tol))
    }
    /// The margin of `|got − want| ≤ rtol·scale + atol`: `1 − err/(rtol·scale + atol)`
    /// ([`Comparison::within`]).
    pub fn close(err: impl Into<Side>, scale: Scale, tol: Tolerance) -> Eval {
        Eval::Compared(Comparison::within(err, scale, tol))
    }
    /// The strict inequality `lhs < rhs`, margin `(rhs − lhs)/scale`. `rounding` is the error
    /// the computed gap can carry ([`Tolerance::NONE`] when both sides are exact, e.g. integers
    /// or short dyadics, or enclosed): equality within it is a tie, reported apart; an exact tie
    /// refutes, since equality violates `<`.
    pub fn lt(lhs: impl Into<Side>, rhs: impl Into<Side>, scale: Scale, rounding: Tolerance) -> Eval {
        Eval::Compared(Comparison::strict(lhs, rhs, Relation::Below, scale, rounding))
    }
    /// The strict inequality `lhs > rhs` ([`Eval::lt`] mirrored).
    pub fn gt(lhs: impl Into<Side>, rhs: impl Into<Side>, scale: Scale, rounding: Tolerance) -> Eval {
        Eval::Compared(Comparison::strict(lhs, rhs, Relation::Above, scale, rounding))
    }
    /// Positivity `x > 0` with the scale of `x`: margin `x/scale`, so a search can climb toward
    /// 0 (exact: `x = 0` refutes).
    pub fn positive(x: impl Into<Side>, scale: Scale) -> Eval {
        Eval::gt(x, 0.0, scale, Tolerance::NONE)
    }
    /// A condition decided exactly (integer arithmetic, comparisons of values taken as exact), as
    /// a relation between exact sides (`1 ≥ 1` or `0 ≥ 1`): the enclosed form of a hypothesis
    /// such as `p % 4 == 1` ([`Property::certify_given`](super::Property::certify_given)). A
    /// condition on rounded floats is not exact: enclose its sides instead.
    pub fn holds_exactly(condition: bool) -> Eval {
        let one = Interval::exact(1.0);
        Eval::ge_by(if condition { one } else { Interval::exact(0.0) }, one, Scale(1.0), Tolerance::NONE)
    }
    /// The signed margin (`None` for a rejected instance).
    pub fn margin(&self) -> Option<f64> {
        match self {
            Eval::Compared(c) => Some(c.margin),
            Eval::Margin(m) => Some(*m),
            Eval::Reject(_) => None,
        }
    }
    /// Where the evaluation stands (`None` for a rejected instance).
    pub fn standing(&self) -> Option<Standing> {
        self.comparison().map(|c| c.standing())
    }
    /// Whether the evaluation refutes the claim: a violation, or an exact tie of a strict
    /// relation.
    pub fn refutes(&self) -> bool {
        self.comparison().is_some_and(|c| c.refutes())
    }
    /// The smaller of two evaluations by margin (a reject wins; a NaN margin loses to a number).
    pub fn min(self, other: Eval) -> Eval {
        match (self.margin(), other.margin()) {
            (Some(a), Some(b)) => {
                if a.min(b) == a || (a.is_nan() && b.is_nan()) {
                    self
                } else {
                    other
                }
            }
            (None, _) => self,
            (_, None) => other,
        }
    }
    /// Both conditions, for a hypothesis of several parts: the first part that does not hold
    /// (a reject, a tie, a violation, a NaN), else the one with the smaller margin. Unlike
    /// [`Eval::min`], an enclosed part that its enclosures leave undecided is never hidden
    /// behind another part's smaller margin, so the conjunction of enclosed parts holds only
    /// when every part is decided ([`Property::certify_given`](super::Property::certify_given)).
    pub fn and(self, other: Eval) -> Eval {
        let holds = |e: &Eval| e.standing() == Some(Standing::Holds);
        match (holds(&self), holds(&other)) {
            (true, true) => self.min(other),
            (false, _) => self,
            (true, false) => other,
        }
    }
    /// The comparison behind this evaluation; a bare margin `m` becomes `m ≥ 0`.
    pub fn comparison(&self) -> Option<Comparison> {
        match *self {
            Eval::Compared(c) => Some(c),
            Eval::Margin(m) => Some(Comparison::custom(m, 0.0, Relation::AtLeast, m, "the claim's own signed margin (lhs), which must be ≥ 0")),
            Eval::Reject(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_keeps_the_smaller_margin_a_reject_and_a_number_over_nan() {
        let m = |e: Eval| e.margin();
        assert_eq!(m(Eval::Margin(1.0).min(Eval::Margin(-2.0))), Some(-2.0));
        assert_eq!(m(Eval::Margin(-2.0).min(Eval::Margin(1.0))), Some(-2.0));
        assert_eq!(m(Eval::Margin(f64::NAN).min(Eval::Margin(0.5))), Some(0.5));
        assert_eq!(m(Eval::Margin(0.5).min(Eval::Margin(f64::NAN))), Some(0.5));
        assert!(m(Eval::Margin(f64::NAN).min(Eval::Margin(f64::NAN))).unwrap().is_nan());
        assert_eq!(m(Eval::Margin(1.0).min(Eval::Reject("no"))), None);
        assert_eq!(m(Eval::Reject("no").min(Eval::Margin(1.0))), None);
    }

    #[test]
    fn gap_margins_keep_measuring_where_a_side_is_zero() {
        // le(0, x) is ±1 whatever x; le_by and positive are linear in the gap.
        assert_eq!(Eval::le(0.0, 1e-9, Tolerance::NONE).margin(), Some(1.0));
        assert_eq!(Eval::le_by(0.0, 1e-9, Scale(1e-6), Tolerance::NONE).margin(), Some(1e-3));
        assert_eq!(Eval::le_by(2e-6, 1e-6, Scale(1e-6), Tolerance::NONE).margin(), Some(-1.0));
        assert_eq!(Eval::ge_by(1.0, 3.0, Scale(2.0), Tolerance::NONE).margin(), Some(-1.0));
        assert_eq!(Eval::positive(-0.5, Scale(2.0)).margin(), Some(-0.25));
        assert!(Eval::positive(0.0, Scale(1.0)).refutes(), "0 > 0 is false");
        assert!(!Eval::positive(1e-300, Scale(1.0)).refutes());
    }

    #[test]
    fn strict_ties_are_told_apart_from_violations() {
        assert_eq!(Eval::lt(1.0, 1.0, Scale(1.0), Tolerance::absolute(1e-12)).standing(), Some(Standing::Tie));
        assert!(!Eval::lt(1.0, 1.0, Scale(1.0), Tolerance::absolute(1e-12)).refutes());
        assert!(Eval::lt(1.0, 1.0, Scale(1.0), Tolerance::NONE).refutes());
        assert!(Eval::gt(1.0, 2.0, Scale(1.0), Tolerance::absolute(1e-12)).refutes());
        assert_eq!(Eval::Reject("no").standing(), None);
        assert_eq!(Eval::Margin(-1.0).standing(), Some(Standing::Violated));
    }

    #[test]
    fn a_conjunction_never_hides_an_undecided_part_behind_a_smaller_margin() {
        let holds = Eval::le_by(Interval::exact(0.0), Interval::exact(1.0), Scale(1.0), Tolerance::NONE);
        let tight = Eval::le_by(Interval::exact(0.9), Interval::exact(1.0), Scale(1.0), Tolerance::NONE);
        // Undecided: [−1.5, 1.5] ≤ 1 neither holds nor fails for every value, though its f64 margin is larger.
        let undecided = Eval::le_by(Interval::new(-1.5, 1.5), Interval::exact(1.0), Scale(1.0), Tolerance::NONE);
        assert_eq!(holds.and(tight), tight);
        assert_eq!(tight.and(holds), tight);
        assert_eq!(tight.and(undecided).standing(), Some(Standing::Tie));
        assert_eq!(undecided.and(tight).standing(), Some(Standing::Tie));
        assert_eq!(tight.min(undecided), tight, "min would hide it");
        assert!(holds.and(Eval::Reject("no")).margin().is_none());
    }
}
