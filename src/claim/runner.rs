//! Runs claims (and their negative controls) and collects [`RunResults`].

use super::budget::{Budget, Context};
use super::check::Check;
use super::meta::{Claim, Status};
use super::results::{CheckResult, ClaimResult, ControlResult, RunResults};
use super::verdict::{Outcome, Verdict};
use crate::mc::Backend;
use crate::progress::observer;
use rayon::prelude::*;

/// How to run.
pub struct RunConfig<'a> {
    /// Seed.
    pub seed: u64,
    /// Budget.
    pub budget: Budget,
    /// Monte Carlo backend.
    pub backend: &'a dyn Backend,
    /// Show progress bars (only drawn on a terminal).
    pub progress: bool,
    /// Run claims concurrently (results are identical either way).
    pub parallel: bool,
}

fn execute(check: &dyn Check, ctx: &Context) -> Outcome {
    check.run(ctx).unwrap_or_else(|e| Outcome::new(Verdict::Inconclusive { why: format!("check failed: {e}") }, 0, None))
}

fn agreement(status: Status, verdict: &Verdict, control: Option<&ControlResult>) -> Option<String> {
    match (status, verdict) {
        (Status::Conjecture, _) | (_, Verdict::Skipped { .. }) => None,
        (Status::Erratum, Verdict::Refuted { .. }) => None,
        (Status::Erratum, v) => Some(format!("the printed statement was not refuted by the search ({})", v.tag())),
        (Status::Theorem, Verdict::Holds { .. }) => match control {
            None => Some("theorem without a negative control".into()),
            Some(c) if !c.detected => Some(format!("negative control '{}' not refuted ({}): the check may be unable to fail", c.mutation, c.result.verdict)),
            Some(_) => None,
        },
        (Status::Theorem, v) => Some(format!("theorem not confirmed: {}", v.tag())),
    }
}

/// Runs one claim and its control (each with its own progress observer).
pub fn run_claim(claim: &Claim, cfg: &RunConfig) -> ClaimResult {
    let id = claim.meta.id.as_str();
    let run = |check: &dyn Check| {
        let progress = observer(id, cfg.progress);
        let ctx = Context { seed: cfg.seed, budget: cfg.budget, backend: cfg.backend, stream_label: id, progress: progress.as_ref() };
        execute(check, &ctx)
    };
    let out = run(claim.check.as_ref());
    let control = claim.control.as_ref().map(|c| {
        let result = CheckResult::of(&run(c.check.as_ref()));
        ControlResult { mutation: c.mutation.clone(), detected: result.is_refuted(), result }
    });
    let disagreement = agreement(claim.meta.status, &out.verdict, control.as_ref());
    ClaimResult {
        meta: claim.meta.clone(),
        result: CheckResult::of(&out),
        agrees: disagreement.is_none(),
        disagreement,
        control,
        details: out.details,
        figures: out.figures,
    }
}

/// Runs claims in order (concurrently when `cfg.parallel`; the results do not depend on it).
pub fn run_claims(claims: &[&Claim], cfg: &RunConfig) -> RunResults {
    let results = if cfg.parallel { claims.par_iter().map(|c| run_claim(c, cfg)).collect() } else { claims.iter().map(|c| run_claim(c, cfg)).collect() };
    RunResults {
        tool: "ssmcheck".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        seed: cfg.seed,
        budget: cfg.budget,
        backend: cfg.backend.name().into(),
        claims: results,
    }
}
