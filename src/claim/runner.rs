//! Runs claims (and their negative controls) and collects [`RunResults`].

use super::budget::{Budget, Context};
use super::certificate::Certificate;
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

fn agreement(claim: &Claim, verdict: &Verdict, cases: u64, control: Option<&ControlResult>) -> Option<String> {
    match (claim.meta.status, verdict) {
        (_, Verdict::Skipped { .. }) => None,
        // A conjecture's control, when it has one, is judged as a theorem's when it holds.
        (Status::Conjecture, v) => claim
            .expected
            .filter(|e| *e != v.tag())
            .map(|e| format!("the conjecture was expected to be {e}, and is {}", v.tag()))
            .or_else(|| if matches!(v, Verdict::Holds { .. }) { control.and_then(|c| undetected(c, cases)) } else { None }),
        (Status::Erratum, Verdict::Refuted { .. }) => None,
        (Status::Erratum, v) => Some(format!("the printed statement was not refuted by the search ({})", v.tag())),
        (Status::Theorem, Verdict::Holds { .. }) => match control {
            None => Some("theorem without a negative control".into()),
            Some(c) => undetected(c, cases),
        },
        (Status::Theorem, v) => Some(format!("theorem not confirmed: {}", v.tag())),
        // Either outcome of an experiment is a finding; a control that is not detected or a run
        // that cannot decide is not.
        (Status::Experiment, Verdict::Holds { .. } | Verdict::Refuted { .. }) => match control {
            None => Some("experiment without a negative control".into()),
            Some(c) if !c.detected => {
                Some(format!("negative control '{}' not detected ({}): the experiment may be unable to fail", c.mutation, c.result.verdict))
            }
            Some(_) => None,
        },
        (Status::Experiment, v) => Some(format!("experiment not decided: {}", v.tag())),
    }
}

/// Why a negative control does not show that the check of a claim that holds on `cases` cases can
/// fail: it was not refuted, or it ran at another sample size.
fn undetected(c: &ControlResult, cases: u64) -> Option<String> {
    if !c.detected {
        Some(format!("negative control '{}' not refuted ({}): the check may be unable to fail", c.mutation, c.result.verdict))
    } else if c.result.cases != cases {
        Some(format!("negative control '{}' ran on {} cases, the claim on {cases}: it must run at the same sample size", c.mutation, c.result.cases))
    } else {
        None
    }
}

/// `seconds` rounded to the millisecond (a wall-clock time has no more digits worth writing).
pub(crate) fn milliseconds(seconds: f64) -> f64 {
    (seconds * 1e3).round() / 1e3
}

/// Runs one claim and its control (each with its own progress observer).
pub fn run_claim(claim: &Claim, cfg: &RunConfig) -> ClaimResult {
    run_claim_on(claim, cfg, cfg.backend, cfg.backend)
}

/// Runs one claim on `backend` and its control on `control_backend` (a sharded run gives each
/// its own recorder; `cfg.backend` is not used).
pub fn run_claim_on(claim: &Claim, cfg: &RunConfig, backend: &dyn Backend, control_backend: &dyn Backend) -> ClaimResult {
    let id = claim.meta.id.as_str();
    let started = std::time::Instant::now();
    let run = |check: &dyn Check, backend: &dyn Backend| {
        let progress = observer(id, cfg.progress);
        let ctx = Context::new(cfg.seed, cfg.budget, backend, id, progress.as_ref());
        (execute(check, &ctx), ctx.sizes())
    };
    let (out, sizes) = run(claim.check.as_ref(), backend);
    let control = claim.control.as_ref().map(|c| {
        let result = CheckResult::of(&run(c.check.as_ref(), control_backend).0);
        ControlResult { mutation: c.mutation.clone(), detected: result.is_refuted(), result }
    });
    let disagreement = agreement(claim, &out.verdict, out.cases, control.as_ref());
    let mut result = CheckResult::of(&out);
    if result.is_refuted() {
        let certify = |v: Option<&super::comparison::Violation>| Some(Certificate::of(claim.meta.kind, v, claim.uncertified.as_ref()));
        result.certificate = certify(result.violation.as_ref());
        if let Some(w) = result.most_violating.as_mut() {
            w.certificate = certify(Some(&w.violation));
        }
    }
    let seconds = Some(milliseconds(started.elapsed().as_secs_f64()));
    ClaimResult {
        meta: claim.meta.clone(),
        result,
        agrees: disagreement.is_none(),
        disagreement,
        control,
        details: out.details,
        figures: out.figures,
        sizes,
        seconds,
    }
}

/// Runs one claim (and its control) the way a user's test does: on the CPU, at the seed and
/// budget of the environment ([`RunSettings::from_env`]: `SSMCHECK_SEED`, default 1;
/// `SSMCHECK_BUDGET`, default `quick`). Panics with one clear line on a malformed variable.
///
/// ```no_run
/// let claim = ssmcheck::claims::registry().into_claims().remove(0); // or a conjecture of yours
/// ssmcheck::claim::check(&claim).assert_agrees();
/// ```
pub fn check(claim: &Claim) -> ClaimResult {
    let settings = RunSettings::from_env().unwrap_or_else(|e| panic!("{e}"));
    let cfg = RunConfig { seed: settings.seed, budget: settings.budget, backend: &crate::mc::CpuBackend, progress: false, parallel: false };
    run_claim(claim, &cfg)
}

/// The seed and budget of a run started from a test, read from the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSettings {
    /// `SSMCHECK_SEED` (default 1).
    pub seed: u64,
    /// `SSMCHECK_BUDGET` (`quick`, `standard` or `deep`; default `quick`).
    pub budget: Budget,
}

impl RunSettings {
    /// Reads `SSMCHECK_SEED` and `SSMCHECK_BUDGET`; an unset variable takes its default, a
    /// malformed one is an error naming it.
    pub fn from_env() -> crate::error::Result<RunSettings> {
        Self::from_vars(std::env::var("SSMCHECK_SEED").ok().as_deref(), std::env::var("SSMCHECK_BUDGET").ok().as_deref())
    }
    /// The settings these variable values give (`None`: unset).
    pub fn from_vars(seed: Option<&str>, budget: Option<&str>) -> crate::error::Result<RunSettings> {
        let seed = match seed {
            None => 1,
            Some(s) => s.trim().parse().map_err(|_| crate::error::Error::InvalidParameter(format!("SSMCHECK_SEED='{s}' is not a non-negative integer")))?,
        };
        let budget = match budget {
            None => Budget::Quick,
            Some(b) => b.trim().parse().map_err(|e| crate::error::Error::InvalidParameter(format!("SSMCHECK_BUDGET: {e}")))?,
        };
        Ok(RunSettings { seed, budget })
    }
}

/// Runs claims in order (concurrently when `cfg.parallel`; the results do not depend on it).
pub fn run_claims(claims: &[&Claim], cfg: &RunConfig) -> RunResults {
    let results = if cfg.parallel { claims.par_iter().map(|c| run_claim(c, cfg)).collect() } else { claims.iter().map(|c| run_claim(c, cfg)).collect() };
    RunResults::new(cfg.seed, cfg.budget, cfg.backend.name(), results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_and_reject_malformed_values() {
        assert_eq!(RunSettings::from_vars(None, None).unwrap(), RunSettings { seed: 1, budget: Budget::Quick });
        assert_eq!(RunSettings::from_vars(Some("42"), Some("standard")).unwrap(), RunSettings { seed: 42, budget: Budget::Standard });
        assert!(RunSettings::from_vars(Some("-1"), None).unwrap_err().to_string().contains("SSMCHECK_SEED"));
        assert!(RunSettings::from_vars(None, Some("huge")).unwrap_err().to_string().contains("SSMCHECK_BUDGET"));
    }
}
