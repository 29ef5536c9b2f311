//! Results as data: what `check --json` writes and what the report renders from.

use super::evidence::Figure;
use super::meta::ClaimMeta;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The outcome of a claim's negative control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ControlResult {
    /// What was mutated.
    pub mutation: String,
    /// The control's verdict tag.
    pub verdict: String,
    /// The control's summary line.
    pub summary: String,
    /// Cases the control examined (the same sample size as the claim).
    pub cases: u64,
    /// The control's margin.
    pub margin: Option<f64>,
    /// Whether the mutant was refuted (the check can fail).
    pub detected: bool,
    /// The mutant's counterexample, when refuted.
    pub counterexample: Option<Value>,
}

/// One claim's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// The claim's metadata (id, family, status, kind, source, statement, correction), flattened
    /// into the result's JSON object.
    #[serde(flatten)]
    pub meta: ClaimMeta,
    /// `holds`, `refuted`, `vacuous`, `inconclusive` or `skipped`.
    pub verdict: String,
    /// One-line evidence, violation summary or reason.
    pub summary: String,
    /// Instances, paths or cells examined.
    pub cases: u64,
    /// Smallest signed margin (negative = violated).
    pub margin: Option<f64>,
    /// Whether the verdict fits the status (and, for a theorem, its control was detected).
    pub agrees: bool,
    /// Why not, when it does not agree.
    pub disagreement: Option<String>,
    /// The counterexample (every parameter needed to recompute it), when refuted.
    pub counterexample: Option<Value>,
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
    /// Budget name.
    pub budget: String,
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
}
