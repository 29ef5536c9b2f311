//! One shard's run: the whole claims the [`Plan`] gives it, and its range of every split claim's
//! paths, written as a part ([`ShardPart`] inside the usual [`RunResults`]).

use super::plan::{Assignment, Plan};
use super::record::{JobRecord, Recorder};
use super::Shard;
use crate::claim::{run_claim, run_claim_on, Claim, ClaimResult, RunConfig, RunResults};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// One shard's part of a sharded run, as `check --shard I/N --json` writes it: the results of
/// the claims it ran whole, with the shard's particulars beside them (one JSON object: the
/// results' fields and `shard`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The claims this shard ran whole (their results are final).
    #[serde(flatten)]
    pub results: RunResults,
    /// Which shard, the run's selection, and the shard's share of the split claims.
    pub shard: ShardPart,
}

/// What makes a results file one shard's part of a sharded run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardPart {
    /// Which shard.
    pub shard: Shard,
    /// The ids of the whole run's claims, in order (every shard of a run has the same).
    pub selection: Vec<String>,
    /// This shard's share of each split claim.
    pub split: Vec<SplitPart>,
}

/// One shard's share of a split claim: the records of the jobs its check and its control asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitPart {
    /// The claim id.
    pub id: String,
    /// The claim's check's jobs.
    pub claim: Vec<JobRecord>,
    /// The negative control's jobs.
    pub control: Vec<JobRecord>,
    /// Wall-clock seconds this shard spent on its share (claim and control).
    #[serde(default)]
    pub seconds: f64,
}

/// Runs shard `shard` of the run of `claims` (the whole selection, in order) under `cfg`.
pub fn run_shard(claims: &[&Claim], cfg: &RunConfig, shard: Shard) -> Part {
    let plan = Plan::new(claims, cfg.budget, shard.count);
    let work = |(claim, assignment): (&&Claim, &Assignment)| match assignment {
        Assignment::Whole(s) if *s == shard.index => Some(Work::Whole(Box::new(run_claim(claim, cfg)))),
        Assignment::Whole(_) => None,
        Assignment::Split => {
            let (check, control) = (Recorder::new(cfg.backend, shard), Recorder::new(cfg.backend, shard));
            let seconds = run_claim_on(claim, cfg, &check, &control).seconds.unwrap_or(0.0);
            Some(Work::Split(SplitPart { id: claim.meta.id.clone(), claim: check.into_records(), control: control.into_records(), seconds }))
        }
    };
    // In selection order either way (rayon's indexed collect keeps it).
    let done: Vec<Work> = if cfg.parallel {
        claims.par_iter().zip(plan.assignments.par_iter()).filter_map(work).collect()
    } else {
        claims.iter().zip(&plan.assignments).filter_map(work).collect()
    };
    let (mut owned, mut split) = (vec![], vec![]);
    for w in done {
        match w {
            Work::Whole(result) => owned.push(*result),
            Work::Split(part) => split.push(part),
        }
    }
    Part { results: RunResults::new(cfg.seed, cfg.budget, cfg.backend.name(), owned), shard: ShardPart { shard, selection: plan.ids, split } }
}

/// One piece of a shard's work: a claim it runs whole, or its share of a split claim.
enum Work {
    Whole(Box<ClaimResult>),
    Split(SplitPart),
}
