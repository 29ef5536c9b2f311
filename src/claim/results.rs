//! Results as data: what `check --json` writes and what the report renders from.

use super::comparison::Violation;
use super::evidence::Figure;
use super::meta::ClaimMeta;
use super::verdict::{Outcome, VerdictKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What one check (a claim's, or its negative control's) concluded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The verdict.
    pub verdict: VerdictKind,
    /// One-line evidence, violation summary or reason.
    pub summary: String,
    /// Instances, paths or cells examined.
    pub cases: u64,
    /// Smallest signed margin (negative = violated).
    pub margin: Option<f64>,
    /// The counterexample, when refuted: the concrete instance with named fields (matrices as
    /// nested rows, sequences as arrays, every code and token), enough to recompute it.
    pub counterexample: Option<Value>,
    /// The violated relation, when refuted: both sides as numbers, the margin and its formula.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<Violation>,
}

impl CheckResult {
    /// The result of an outcome (its details and figures are the caller's).
    pub fn of(outcome: &Outcome) -> CheckResult {
        let (counterexample, violation) = outcome.verdict.clone().into_counterexample().unzip();
        CheckResult {
            verdict: outcome.verdict.tag(),
            summary: outcome.verdict.summary(),
            cases: outcome.cases,
            margin: outcome.margin,
            counterexample,
            violation,
        }
    }
    /// Whether the check refuted its statement.
    pub fn is_refuted(&self) -> bool {
        self.verdict == VerdictKind::Refuted
    }
}

/// The outcome of a claim's negative control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ControlResult {
    /// What was mutated.
    pub mutation: String,
    /// What the same check concluded on the mutant (the same sample size as the claim).
    #[serde(flatten)]
    pub result: CheckResult,
    /// Whether the mutant was refuted (the check can fail).
    pub detected: bool,
}

/// One claim's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// The claim's metadata (id, family, status, kind, source, statement, correction), flattened
    /// into the result's JSON object.
    #[serde(flatten)]
    pub meta: ClaimMeta,
    /// What the claim's check concluded.
    #[serde(flatten)]
    pub result: CheckResult,
    /// Whether the verdict fits the status (and, for a theorem, its control was detected).
    pub agrees: bool,
    /// Why not, when it does not agree.
    pub disagreement: Option<String>,
    /// The negative control's result.
    pub control: Option<ControlResult>,
    /// Statistics behind the verdict.
    pub details: serde_json::Map<String, Value>,
    /// Figures for the report.
    pub figures: Vec<Figure>,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// Always "ssmcheck".
    pub tool: String,
    /// Crate version.
    pub version: String,
    /// Seed.
    pub seed: u64,
    /// Budget.
    pub budget: super::Budget,
    /// Backend that ran the Monte Carlo jobs.
    pub backend: String,
    /// Per-claim results, in registry order.
    pub claims: Vec<ClaimResult>,
}

impl RunResults {
    /// Claims whose verdict contradicts their status.
    pub fn disagreements(&self) -> Vec<&ClaimResult> {
        self.claims.iter().filter(|c| !c.agrees).collect()
    }
    /// The result of the claim with this id.
    pub fn claim(&self, id: &str) -> Option<&ClaimResult> {
        self.claims.iter().find(|c| c.meta.id == id)
    }
}
