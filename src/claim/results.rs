//! Results as data: what `check --json` writes and what the report renders from.

use super::certificate::Certificate;
use super::comparison::Violation;
use super::evidence::Figure;
use super::meta::ClaimMeta;
use super::verdict::{Outcome, VerdictKind, Witness};
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
    /// Whether a refutation holds in exact arithmetic, and if not why (set by the runner for a
    /// claim's refutation; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
    /// For a shrunk refutation, the most violating instance seen before shrinking, when it
    /// violates by more than the counterexample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub most_violating: Option<Witness>,
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
            certificate: None,
            most_violating: outcome.most_violating.clone(),
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
    /// What the check's budget-dependent sizes are at quick, standard and deep (the sizes it
    /// asked for through [`Context::size`](super::Context::size)); empty for a check whose size
    /// does not depend on the budget.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<super::budget::SizeRow>,
    /// Wall-clock seconds the check and its negative control took, on the machine that ran them
    /// (for a claim split over shards, the sum of the shards' shares). A measurement of the run,
    /// not a result: two runs agree when everything else does ([`ClaimResult::without_time`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

impl ClaimResult {
    /// The result without its time: what must be the same for the same seed and budget whatever
    /// the thread count, backend or shard split.
    pub fn without_time(self) -> ClaimResult {
        ClaimResult { seconds: None, ..self }
    }
    /// Panics with the result unless the claim holds (a theorem's control must be refuted
    /// too): the assertion of a conjecture believed true, in a user's test.
    #[track_caller]
    pub fn assert_holds(&self) {
        let control_ok = self.control.as_ref().is_none_or(|c| c.detected);
        assert!(self.result.verdict == VerdictKind::Holds && control_ok, "expected {} to hold:\n{self}", self.meta.id);
    }
    /// Panics with the result unless the claim is refuted: the assertion of a conjecture
    /// believed false (its counterexample is in the message when it is).
    #[track_caller]
    pub fn assert_refuted(&self) {
        assert!(self.result.is_refuted(), "expected {} to be refuted:\n{self}", self.meta.id);
    }
    /// Panics unless the verdict agrees with the claim's status (what `cargo test` checks of
    /// every shipped claim).
    #[track_caller]
    pub fn assert_agrees(&self) {
        assert!(self.agrees, "{} contradicts its status ({}):\n{self}", self.meta.id, self.disagreement.as_deref().unwrap_or(""));
    }
}

/// The verdict, its evidence, and for a refutation the counterexample and both sides of the
/// violated relation, as `cargo test` prints them.
impl std::fmt::Display for ClaimResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.result;
        let certified = r.certificate.as_ref().map(|c| if c.is_certified() { " (certified)" } else { " (NOT certified)" }).unwrap_or_default();
        writeln!(f, "{} [{} · {}]: {}{certified} — {}", self.meta.id, self.meta.status, self.meta.kind, r.verdict, r.summary)?;
        writeln!(f, "  statement: {}", self.meta.statement)?;
        if let Some(v) = &r.violation {
            writeln!(f, "  violated:  {} with lhs = {:e} ({}), rhs = {:e} ({}), margin {:e}", v.relation, v.lhs, v.lhs_is, v.rhs, v.rhs_is, v.margin)?;
        }
        if let Some(c) = &r.counterexample {
            writeln!(f, "  counterexample: {c}")?;
        }
        if let Some(c) = &r.certificate {
            writeln!(f, "  certificate: {c}")?;
        }
        if let Some(w) = &r.most_violating {
            let v = &w.violation;
            writeln!(f, "  most violating seen: {} with lhs = {:e}, rhs = {:e}, margin {:e}, at {}", v.relation, v.lhs, v.rhs, v.margin, w.instance)?;
        }
        if let Some(c) = &self.control {
            writeln!(f, "  negative control ({}): {}{}", c.mutation, c.result.verdict, if c.detected { "" } else { " — NOT detected" })?;
        }
        if let Some(d) = &self.disagreement {
            writeln!(f, "  disagreement: {d}")?;
        }
        Ok(())
    }
}

/// The backends that ran a run's Monte Carlo jobs, by [`Backend::name`](crate::mc::Backend::name),
/// in order of first use: one for a single process, several when parts or results files from
/// different backends are merged. The JSON holds them joined by " + " ("cpu", "cuda + cpu").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunBackends(Vec<String>);

impl RunBackends {
    /// A run on one backend.
    pub fn one(name: &str) -> RunBackends {
        RunBackends(vec![name.to_string()])
    }
    /// The backends of a run merged from runs on `self` and on `other`.
    pub fn merge(&mut self, other: &RunBackends) {
        for name in &other.0 {
            if !self.0.contains(name) {
                self.0.push(name.clone());
            }
        }
    }
    /// Their names, in order of first use.
    pub fn names(&self) -> &[String] {
        &self.0
    }
}

impl std::fmt::Display for RunBackends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.0.join(" + "))
    }
}

impl Serialize for RunBackends {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RunBackends {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RunBackends, D::Error> {
        let text = String::deserialize(d)?;
        Ok(RunBackends(text.split(" + ").map(str::to_string).collect()))
    }
}

/// The version of the results JSON's layout, `MAJOR.MINOR` (`schema/results.schema.json`): the
/// minor number grows when fields are added, the major when a field changes meaning or goes. A
/// reader refuses a file of a newer major version ([`RunResults::check_schema`]).
pub const SCHEMA_VERSION: &str = "1.1";

/// The schema version of a results file written before the field existed.
fn first_schema() -> String {
    "1.0".into()
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// The layout's version ([`SCHEMA_VERSION`] when written by this crate).
    #[serde(default = "first_schema")]
    pub schema_version: String,
    /// Always "ssmcheck".
    pub tool: String,
    /// Crate version.
    pub version: String,
    /// Seed.
    pub seed: u64,
    /// Budget.
    pub budget: super::Budget,
    /// The backends that ran the Monte Carlo jobs.
    pub backend: RunBackends,
    /// Per-claim results, in registry order (in a shard's part: the claims it ran whole).
    pub claims: Vec<ClaimResult>,
}

impl RunResults {
    /// The results of a whole run of this version at `seed` and `budget` on `backend`.
    pub fn new(seed: u64, budget: super::Budget, backend: &str, claims: Vec<ClaimResult>) -> RunResults {
        RunResults {
            schema_version: SCHEMA_VERSION.into(),
            tool: "ssmcheck".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed,
            budget,
            backend: RunBackends::one(backend),
            claims,
        }
    }
    /// `Err` with one line when the file's layout is of a newer major version than this crate
    /// reads (or not a `MAJOR.MINOR` version at all).
    pub fn check_schema(version: &str) -> std::result::Result<(), String> {
        let major = |v: &str| v.split_once('.').and_then(|(m, n)| n.parse::<u32>().ok().and(m.parse::<u32>().ok()));
        match (major(version), major(SCHEMA_VERSION)) {
            (Some(theirs), Some(ours)) if theirs <= ours => Ok(()),
            (Some(_), _) => Err(format!(
                "its schema version is {version}, newer than the {SCHEMA_VERSION} this ssmcheck {} reads: upgrade ssmcheck",
                env!("CARGO_PKG_VERSION")
            )),
            (None, _) => Err(format!("its schema version '{version}' is not MAJOR.MINOR")),
        }
    }
    /// Claims whose verdict contradicts their status.
    pub fn disagreements(&self) -> Vec<&ClaimResult> {
        self.claims.iter().filter(|c| !c.agrees).collect()
    }
    /// The result of the claim with this id.
    pub fn claim(&self, id: &str) -> Option<&ClaimResult> {
        self.claims.iter().find(|c| c.meta.id == id)
    }
    /// The run without its claims' times ([`ClaimResult::without_time`]): what two runs at the
    /// same seed and budget must agree on byte for byte.
    pub fn without_times(self) -> RunResults {
        RunResults { claims: self.claims.into_iter().map(ClaimResult::without_time).collect(), ..self }
    }
    /// The sum of the claims' times, seconds (claims without one count nothing).
    pub fn seconds(&self) -> f64 {
        // A fold from +0.0: `Iterator::sum` of no f64 is −0.0, which prints as "-0.0".
        self.claims.iter().filter_map(|c| c.seconds).fold(0.0, |total, s| total + s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_backends_keep_their_first_use_order_and_read_back_from_the_json() {
        let mut b = RunBackends::one("cuda");
        b.merge(&RunBackends::one("cpu"));
        b.merge(&RunBackends::one("cuda"));
        assert_eq!(b.names(), ["cuda", "cpu"]);
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json, "cuda + cpu");
        assert_eq!(serde_json::from_value::<RunBackends>(json).unwrap(), b);
        assert_eq!(serde_json::to_value(RunBackends::one("cpu")).unwrap(), "cpu");
    }
}
