//! Sharded runs: one run split over the tasks of a job array (Slurm's `--array`), with no
//! coordinator, and merged back into exactly the results the single process gives.
//!
//! Shard `I` of `N` ([`Shard`]) does a fixed share of the work, decided by the [`Plan`] from the
//! selection, the budget and `N` alone, so every task and the merge agree on it without talking:
//!
//! * **whole claims** are spread over the shards by estimated cost ([`plan`]: longest first,
//!   each to the least-loaded shard);
//! * **split claims** (the large Monte Carlo claims, [`Claim::split`](crate::claim::Claim::split))
//!   run on every shard, and each shard computes only its range of every Monte Carlo job's paths
//!   ([`Shard::range`]). A path's draws are keyed by (seed, claim, job, path index), so a shard
//!   draws exactly the numbers the single run would; it records them ([`record`]) instead of
//!   judging them.
//!
//! [`merge()`] checks that the parts make one run (same seed, budget, version, shard count and
//! selection; every shard exactly once), takes each whole claim from its shard, and re-runs each
//! split claim's check on the merged paths ([`record::Playback`]): counts, intervals and verdicts
//! are computed from all paths, as in the single run. The merged JSON is byte-identical to the
//! single process's for the same seed and budget, but for each claim's time
//! ([`RunResults::without_times`](crate::claim::RunResults::without_times)): a split claim's is
//! the sum of its shares' and the merge's.

pub mod merge;
pub mod plan;
pub mod record;
pub mod run;

pub use merge::{merge, read_parts};
pub use plan::{Assignment, Plan};
pub use record::{JobRecord, Playback, Recorder};
pub use run::{run_shard, Part, ShardPart, SplitPart};

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Shard `index` of `count` (written `I/N`, 0 ≤ I < N, as Slurm numbers array tasks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's index I.
    pub index: u32,
    /// The number of shards N.
    pub count: u32,
}

impl Shard {
    /// Shard `index` of `count`; an error unless `index < count`.
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if count == 0 || index >= count {
            return Err(Error::InvalidParameter(format!("shard {index}/{count}: expected I/N with 0 ≤ I < N (N ≥ 1)")));
        }
        Ok(Shard { index, count })
    }

    /// This shard's range of `total` paths: the contiguous block [⌊total·I/N⌋, ⌊total·(I+1)/N⌋).
    /// The blocks of the N shards cover 0..total exactly once and differ in size by at most one.
    pub fn range(&self, total: u64) -> Range<u64> {
        let at = |i: u32| (u128::from(total) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shard> {
        let bad = || Error::InvalidParameter(format!("--shard '{s}': expected I/N with 0 ≤ I < N, e.g. 3/8"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        Shard::new(i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_path_once() {
        for count in 1..=7u32 {
            for total in [0u64, 1, 5, 7, 8, 1000, 1 << 40] {
                let ranges: Vec<Range<u64>> = (0..count).map(|i| Shard::new(i, count).unwrap().range(total)).collect();
                assert_eq!(ranges[0].start, 0);
                assert_eq!(ranges.last().unwrap().end, total);
                for w in ranges.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                }
                let sizes: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
                assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "{sizes:?}");
            }
        }
    }

    #[test]
    fn parses_i_of_n_and_rejects_the_rest() {
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard { index: 3, count: 8 });
        for bad in ["8/8", "1/0", "3", "a/4", "-1/4", "1/2/3"] {
            assert!(bad.parse::<Shard>().unwrap_err().to_string().contains("I/N"), "{bad}");
        }
    }
}
