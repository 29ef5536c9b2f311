//! Runs claims (and their negative controls) and collects [`RunResults`].

use super::budget::{Budget, Context};
use super::meta::{Claim, Status};
use super::results::{ClaimResult, ControlResult, RunResults};
use super::verdict::{Check, Outcome, Verdict};
use crate::mc::Backend;
use indicatif::{ProgressBar, ProgressStyle};
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

fn summary_of(v: &Verdict) -> String {
    match v {
        Verdict::Holds { evidence } => evidence.clone(),
        Verdict::Refuted { summary, .. } => summary.clone(),
        Verdict::Vacuous { rejected } => format!("assumptions never met ({rejected} rejected)"),
        Verdict::Inconclusive { why } | Verdict::Skipped { why } => why.clone(),
    }
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
            Some(c) if !c.detected => {
                Some(format!("negative control '{}' not refuted ({}): the check may be unable to fail", c.mutation, c.verdict))
            }
            Some(_) => None,
        },
        (Status::Theorem, v) => Some(format!("theorem not confirmed: {}", v.tag())),
    }
}

fn progress_bar(id: &str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_prefix(id.to_string());
    bar.set_style(
        ProgressStyle::with_template("{prefix:>24} [{bar:30}] {pos}/{len} {elapsed}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// Runs one claim and its control.
pub fn run_claim(claim: &Claim, cfg: &RunConfig) -> ClaimResult {
    let id = claim.meta.id.as_str();
    let bar = progress_bar(id, cfg.progress);
    let ctx = Context { seed: cfg.seed, budget: cfg.budget, backend: cfg.backend, stream_label: id, progress: &bar };
    let out = execute(claim.check.as_ref(), &ctx);
    let control = claim.control.as_ref().map(|c| {
        bar.set_position(0);
        let o = execute(c.check.as_ref(), &ctx);
        ControlResult {
            mutation: c.mutation.clone(),
            verdict: o.verdict.tag().into(),
            summary: summary_of(&o.verdict),
            cases: o.cases,
            margin: o.margin,
            detected: o.verdict.is_refuted(),
            counterexample: o.verdict.into_counterexample(),
        }
    });
    bar.finish_and_clear();
    let disagreement = agreement(claim.meta.status, &out.verdict, control.as_ref());
    ClaimResult {
        meta: claim.meta.clone(),
        verdict: out.verdict.tag().into(),
        summary: summary_of(&out.verdict),
        cases: out.cases,
        margin: out.margin,
        agrees: disagreement.is_none(),
        disagreement,
        counterexample: out.verdict.into_counterexample(),
        control,
        details: out.details,
        figures: out.figures,
    }
}

/// Runs claims in order (concurrently when `cfg.parallel`; the results do not depend on it).
pub fn run_claims(claims: &[&Claim], cfg: &RunConfig) -> RunResults {
    let results = if cfg.parallel {
        claims.par_iter().map(|c| run_claim(c, cfg)).collect()
    } else {
        claims.iter().map(|c| run_claim(c, cfg)).collect()
    };
    RunResults {
        tool: "ssmcheck".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        seed: cfg.seed,
        budget: cfg.budget.name().into(),
        backend: cfg.backend.name().into(),
        claims: results,
    }
}
