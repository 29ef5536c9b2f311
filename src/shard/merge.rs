//! Merging the parts of a sharded run into the results the single process gives.

use super::plan::{Assignment, Plan};
use super::record::Playback;
use super::run::Part;
use crate::claim::{run_claim_on, Claim, ClaimResult, Registry, RunConfig, RunResults};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Reads the results files of shard parts.
pub fn read_parts(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Part)>> {
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|source| Error::Io { action: "read", path: p.clone(), source })?;
            let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| Error::Merge(format!("{}: not a results JSON ({e})", p.display())))?;
            if value.get("shard").is_none() {
                return Err(Error::Merge(format!("{} is the results of a whole run, not a shard's part (written by `check --shard I/N`)", p.display())));
            }
            let part: Part = serde_json::from_value(value).map_err(|e| Error::Merge(format!("{}: not a shard's part ({e})", p.display())))?;
            Ok((p.clone(), part))
        })
        .collect()
}

/// Merges the parts of one sharded run (any order) into the results of the whole run: each
/// whole claim from the shard that ran it, each split claim judged again by its check on the
/// paths of all shards. Every part must come from the same run (tool, version, seed, budget,
/// shard count, selection) and every shard must appear exactly once; otherwise the error names
/// the part at fault.
pub fn merge(registry: &Registry, parts: &[(PathBuf, Part)]) -> Result<RunResults> {
    let (first_path, first) = parts.first().ok_or_else(|| Error::Merge("no part given".into()))?;
    if first.results.version != env!("CARGO_PKG_VERSION") {
        return Err(Error::Merge(format!(
            "{} was written by ssmcheck {}, this is {}: merge with the version that ran the shards",
            first_path.display(),
            first.results.version,
            env!("CARGO_PKG_VERSION")
        )));
    }
    let count = first.shard.shard.count;
    let same = |p: &Path, what: &str, a: String, b: String| {
        if a == b {
            Ok(())
        } else {
            Err(Error::Merge(format!("{} has {what} {b}, {} has {a}: the parts are not of one run", p.display(), first_path.display())))
        }
    };
    let mut by_shard: Vec<Option<&(PathBuf, Part)>> = vec![None; count as usize];
    for part @ (path, r) in parts {
        same(path, "tool", first.results.tool.clone(), r.results.tool.clone())?;
        same(path, "version", first.results.version.clone(), r.results.version.clone())?;
        same(path, "seed", first.results.seed.to_string(), r.results.seed.to_string())?;
        same(path, "budget", first.results.budget.to_string(), r.results.budget.to_string())?;
        same(path, "shard count", count.to_string(), r.shard.shard.count.to_string())?;
        if r.shard.selection != first.shard.selection {
            return Err(Error::Merge(format!(
                "{} ran another selection of claims than {}: the parts are not of one run",
                path.display(),
                first_path.display()
            )));
        }
        let Some(slot) = by_shard.get_mut(r.shard.shard.index as usize) else {
            return Err(Error::Merge(format!("{} claims to be shard {}, outside 0..{count}", path.display(), r.shard.shard)));
        };
        if let Some((other, _)) = slot {
            return Err(Error::Merge(format!("{} and {} are both shard {}", other.display(), path.display(), r.shard.shard)));
        }
        *slot = Some(part);
    }
    let missing: Vec<u32> = (0..count).filter(|&i| by_shard[i as usize].is_none()).collect();
    if !missing.is_empty() {
        let list = |sep: &str, suffix: &str| missing.iter().map(|i| format!("{i}{suffix}")).collect::<Vec<_>>().join(sep);
        return Err(Error::Merge(format!("no part for shard {} (rerun it: `sbatch --array={}` …)", list(", ", &format!("/{count}")), list(",", ""))));
    }
    let by_shard: Vec<&(PathBuf, Part)> = by_shard.into_iter().flatten().collect();

    let claims: Vec<&Claim> = first.shard.selection.iter().map(|id| registry.get(id)).collect::<Result<_>>()?;
    let plan = Plan::new(&claims, first.results.budget, count);
    for (path, r) in &by_shard {
        if let Some(c) = r.results.claims.iter().find(|c| plan.of(&c.meta.id) != Some(Assignment::Whole(r.shard.shard.index))) {
            return Err(Error::Merge(format!(
                "{} holds claim {}, which the plan does not give to shard {} (another version of the plan?)",
                path.display(),
                c.meta.id,
                r.shard.shard
            )));
        }
    }
    let cfg = RunConfig { seed: first.results.seed, budget: first.results.budget, backend: &crate::mc::CpuBackend, progress: false, parallel: false };
    let mut results: Vec<ClaimResult> = Vec::with_capacity(claims.len());
    for (claim, assignment) in claims.iter().zip(&plan.assignments) {
        let id = &claim.meta.id;
        results.push(match assignment {
            Assignment::Whole(s) => {
                let (path, r) = by_shard[*s as usize];
                r.results
                    .claims
                    .iter()
                    .find(|c| &c.meta.id == id)
                    .cloned()
                    .ok_or_else(|| Error::Merge(format!("{} (shard {s}/{count}) lacks claim {id}", path.display())))?
            }
            Assignment::Split => {
                let (mut shares, mut seconds) = ((vec![], vec![]), 0.0);
                for (path, r) in &by_shard {
                    let share = r
                        .shard
                        .split
                        .iter()
                        .find(|s| &s.id == id)
                        .ok_or_else(|| Error::Merge(format!("{} lacks its share of split claim {id}", path.display())))?;
                    shares.0.push((r.shard.shard.index, share.claim.clone()));
                    shares.1.push((r.shard.shard.index, share.control.clone()));
                    seconds += share.seconds;
                }
                let (check, control) = (Playback::new(shares.0), Playback::new(shares.1));
                let mut result = run_claim_on(claim, &cfg, &check, &control);
                // The shards' time and the merge's (which plays their jobs back and judges).
                result.seconds = Some(crate::claim::milliseconds(seconds + result.seconds.unwrap_or(0.0)));
                if let Some(problem) = check.problems().into_iter().chain(control.problems()).next() {
                    return Err(Error::Merge(format!("split claim {id}: {problem}")));
                }
                result
            }
        });
    }
    // In shard order.
    let mut backends = by_shard[0].1.results.backend.clone();
    for (_, r) in &by_shard[1..] {
        backends.merge(&r.results.backend);
    }
    Ok(RunResults { backend: backends, ..RunResults::new(first.results.seed, first.results.budget, "", results) })
}
