//! Verdicts, the outcome of one check, and the [`Check`] trait.

use super::budget::Context;
use super::evidence::Figure;
use super::meta::Kind;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The judgement of one check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// No violation over the cases tried (property), or the statistic is consistent with the
    /// claim at the stated level (statistical, rate).
    Holds {
        /// A one-line summary of the evidence.
        evidence: String,
    },
    /// A violation: the (shrunk) counterexample with every parameter needed to recompute it.
    Refuted {
        /// The counterexample as JSON (matrices as nested rows, sequences as arrays).
        counterexample: Value,
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
    /// The lowercase tag used in JSON and tables.
    pub fn tag(&self) -> &'static str {
        match self {
            Verdict::Holds { .. } => "holds",
            Verdict::Refuted { .. } => "refuted",
            Verdict::Vacuous { .. } => "vacuous",
            Verdict::Inconclusive { .. } => "inconclusive",
            Verdict::Skipped { .. } => "skipped",
        }
    }
    /// Whether this is a refutation.
    pub fn is_refuted(&self) -> bool {
        matches!(self, Verdict::Refuted { .. })
    }
    /// The counterexample of a refutation.
    pub fn into_counterexample(self) -> Option<Value> {
        match self {
            Verdict::Refuted { counterexample, .. } => Some(counterexample),
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
}

impl Outcome {
    /// An outcome with no details or figures.
    pub fn new(verdict: Verdict, cases: u64, margin: Option<f64>) -> Self {
        Outcome { verdict, cases, margin, details: Default::default(), figures: vec![] }
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

/// A check: runs in a [`Context`] and returns an [`Outcome`].
pub trait Check: Send + Sync {
    /// The kind of check (property, statistical, rate, construction).
    fn kind(&self) -> Kind;
    /// Runs the check.
    fn run(&self, ctx: &Context) -> Result<Outcome>;
}

/// A check written as a closure, with its kind.
pub struct FnCheck<F> {
    kind: Kind,
    f: F,
}

/// Wraps a closure as a [`Check`] of the given kind.
pub fn custom<F>(kind: Kind, f: F) -> FnCheck<F>
where
    F: Fn(&Context) -> Result<Outcome> + Send + Sync,
{
    FnCheck { kind, f }
}

impl<F> Check for FnCheck<F>
where
    F: Fn(&Context) -> Result<Outcome> + Send + Sync,
{
    fn kind(&self) -> Kind {
        self.kind
    }
    fn run(&self, ctx: &Context) -> Result<Outcome> {
        (self.f)(ctx)
    }
}
