//! Verdicts and the outcome of one check.

use super::comparison::Violation;
use super::evidence::Figure;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Which verdict a check reached, without its payload: the `verdict` field of the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum VerdictKind {
    /// See [`Verdict::Holds`].
    Holds,
    /// See [`Verdict::Refuted`].
    Refuted,
    /// See [`Verdict::Vacuous`].
    Vacuous,
    /// See [`Verdict::Inconclusive`].
    Inconclusive,
    /// See [`Verdict::Skipped`].
    Skipped,
}

impl VerdictKind {
    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Holds => "holds",
            VerdictKind::Refuted => "refuted",
            VerdictKind::Vacuous => "vacuous",
            VerdictKind::Inconclusive => "inconclusive",
            VerdictKind::Skipped => "skipped",
        }
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The judgement of one check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Verdict {
    /// No violation over the cases tried (property), or the statistic is consistent with the
    /// claim at the stated level (statistical, rate).
    Holds {
        /// A one-line summary of the evidence.
        evidence: String,
    },
    /// A violation: the (shrunk) counterexample with every parameter needed to recompute it.
    Refuted {
        /// The counterexample as JSON (named fields; matrices as nested rows, sequences as
        /// arrays, every code and token).
        counterexample: Value,
        /// The violated relation: both sides as numbers, the margin and its formula.
        violation: Violation,
        /// Its signed margin (negative: how far it violates the claim, scale-aware).
        margin: f64,
        /// A one-line description of the violation.
        summary: String,
    },
    /// The assumptions were never met.
    Vacuous {
        /// Instances rejected by the assumptions.
        rejected: u64,
    },
    /// Too little power to decide.
    Inconclusive {
        /// Why.
        why: String,
    },
    /// Not run (e.g. needs a GPU).
    Skipped {
        /// Why.
        why: String,
    },
}

impl Verdict {
    /// Which verdict this is.
    pub fn tag(&self) -> VerdictKind {
        match self {
            Verdict::Holds { .. } => VerdictKind::Holds,
            Verdict::Refuted { .. } => VerdictKind::Refuted,
            Verdict::Vacuous { .. } => VerdictKind::Vacuous,
            Verdict::Inconclusive { .. } => VerdictKind::Inconclusive,
            Verdict::Skipped { .. } => VerdictKind::Skipped,
        }
    }
    /// The one-line summary: the evidence, the violation, or the reason.
    pub fn summary(&self) -> String {
        match self {
            Verdict::Holds { evidence } => evidence.clone(),
            Verdict::Refuted { summary, .. } => summary.clone(),
            Verdict::Vacuous { rejected } => format!("assumptions never met ({rejected} rejected)"),
            Verdict::Inconclusive { why } | Verdict::Skipped { why } => why.clone(),
        }
    }
    /// Whether this is a refutation.
    pub fn is_refuted(&self) -> bool {
        matches!(self, Verdict::Refuted { .. })
    }
    /// The counterexample and violated relation of a refutation.
    pub fn into_counterexample(self) -> Option<(Value, Violation)> {
        match self {
            Verdict::Refuted { counterexample, violation, .. } => Some((counterexample, violation)),
            _ => None,
        }
    }
}

/// Everything one check produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// Instances (or sample paths, or cells) examined.
    pub cases: u64,
    /// The smallest signed margin seen (negative = violated), when the check has one.
    pub margin: Option<f64>,
    /// Statistics behind the verdict: sample sizes, intervals, confidence, correction, rates.
    pub details: serde_json::Map<String, Value>,
    /// Figures for the report.
    pub figures: Vec<Figure>,
    /// For a refutation whose counterexample was shrunk: the most violating instance the check
    /// saw before shrinking (shrinking moves toward the edge of the violated region, so the
    /// shrunk witness can violate by a hair where this one violates by much).
    pub most_violating: Option<Witness>,
}

/// A refuting instance with its violated relation: replayable (`ssmcheck replay` takes the
/// instance) and certified like the counterexample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Witness {
    /// The instance, as the counterexample is recorded.
    pub instance: Value,
    /// The violated relation with both sides.
    pub violation: Violation,
    /// Its certificate (set by the runner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<super::certificate::Certificate>,
}

impl Outcome {
    /// An outcome with no details or figures.
    pub fn new(verdict: Verdict, cases: u64, margin: Option<f64>) -> Self {
        Outcome { verdict, cases, margin, details: Default::default(), figures: vec![], most_violating: None }
    }
    /// Adds a detail.
    pub fn detail(mut self, key: &str, value: impl Serialize) -> Self {
        self.details.insert(key.into(), serde_json::to_value(value).unwrap_or(Value::Null));
        self
    }
    /// Adds figures.
    pub fn figures(mut self, figs: impl IntoIterator<Item = Figure>) -> Self {
        self.figures.extend(figs);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuted() -> Verdict {
        let violation = crate::claim::Comparison::at_most(2.0, 1.0, crate::claim::Tolerance::NONE).named("lhs", "rhs");
        Verdict::Refuted { counterexample: serde_json::json!({ "x": 2 }), violation, margin: -1.0 / 3.0, summary: "x = 2 > 1".into() }
    }

    #[test]
    fn names_print_padded_and_summaries_say_what_happened() {
        let names: Vec<&str> =
            [VerdictKind::Holds, VerdictKind::Refuted, VerdictKind::Vacuous, VerdictKind::Inconclusive, VerdictKind::Skipped].map(VerdictKind::name).to_vec();
        assert_eq!(names, ["holds", "refuted", "vacuous", "inconclusive", "skipped"]);
        assert_eq!(format!("{:<9}|", VerdictKind::Holds), "holds    |");
        assert_eq!(Verdict::Holds { evidence: "e".into() }.summary(), "e");
        assert_eq!(refuted().summary(), "x = 2 > 1");
        assert_eq!(Verdict::Vacuous { rejected: 3 }.summary(), "assumptions never met (3 rejected)");
        assert_eq!(Verdict::Skipped { why: "no GPU".into() }.summary(), "no GPU");
    }

    #[test]
    fn only_a_refutation_has_a_counterexample() {
        assert!(refuted().is_refuted() && !Verdict::Holds { evidence: String::new() }.is_refuted());
        let (instance, violation) = refuted().into_counterexample().expect("refuted");
        assert_eq!((instance["x"].as_i64(), violation.lhs, violation.rhs), (Some(2), 2.0, 1.0));
        assert!(Verdict::Inconclusive { why: String::new() }.into_counterexample().is_none());
        assert_eq!(refuted().tag(), VerdictKind::Refuted);
    }
}
