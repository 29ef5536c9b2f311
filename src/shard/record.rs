//! What a shard computes of a split claim, and how the merge gives it back to the claim's check.
//!
//! On a shard, the check of a split claim runs against a [`Recorder`]: every Monte Carlo job it
//! asks for is computed on the shard's range of paths only ([`Shard::range`]) and recorded as a
//! [`JobRecord`] (the job's fingerprint, its range, and the paths' outputs, exactly, as bincode in
//! base64). The check itself goes on with the other paths filled in by copies of a computed one;
//! its verdict is discarded. At the merge, the same check runs against a [`Playback`], which answers
//! each job with the outputs of all shards' records, concatenated in path order: the check sees
//! exactly the paths the single run computes, and judges them the same way.

use super::Shard;
use crate::error::{Error, Result};
use crate::mc::job::Paths;
use crate::mc::{AnyJob, Backend, JobKind};
use crate::progress::Progress;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Mutex;

/// One shard's share of one Monte Carlo job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// The kind of job.
    pub kind: JobKind,
    /// FNV-1a of the job's full description (every parameter and its stream key), hex: the
    /// merge answers a job only with records of the same fingerprint.
    pub fingerprint: String,
    /// The job's number of paths (samples).
    pub paths: u64,
    /// The first path of this shard's range.
    pub first: u64,
    /// The number of paths in the range.
    pub len: u64,
    /// The range's outputs, in path order: bincode (bit-exact floats), base64.
    pub data: String,
}

/// The backend a shard runs a split claim's check against: it computes the shard's range of
/// each job on `inner` and records it.
pub struct Recorder<'a> {
    inner: &'a dyn Backend,
    shard: Shard,
    records: Mutex<BTreeMap<String, JobRecord>>,
}

impl<'a> Recorder<'a> {
    /// A recorder for `shard`, computing on `inner`.
    pub fn new(inner: &'a dyn Backend, shard: Shard) -> Recorder<'a> {
        Recorder { inner, shard, records: Mutex::new(BTreeMap::new()) }
    }

    /// The records, one per distinct job, ordered by fingerprint (a check may ask for its jobs
    /// from parallel tasks, in any order).
    pub fn into_records(self) -> Vec<JobRecord> {
        self.records.into_inner().unwrap_or_else(|e| e.into_inner()).into_values().collect()
    }

    fn handle(&self, job: &dyn AnyJob, progress: &dyn Progress) -> Result<Paths> {
        let paths = job.paths();
        let range = self.shard.range(paths);
        let mine = self.inner.run_range(job, range.clone(), progress)?;
        let record = JobRecord {
            kind: job.kind(),
            fingerprint: job.fingerprint(),
            paths,
            first: range.start,
            len: range.end - range.start,
            data: base64::engine::general_purpose::STANDARD.encode(job.encode(&mine)?),
        };
        self.records.lock().unwrap_or_else(|e| e.into_inner()).insert(record.fingerprint.clone(), record);
        // Stand-ins for the other shards' paths, so the check can go on (its verdict is discarded).
        if paths == 0 || range.end - range.start == paths {
            return Ok(mine);
        }
        let stand_in = if range.is_empty() { Some(self.inner.run_range(job, 0..1, progress)?) } else { None };
        if stand_in.as_ref().is_some_and(|s| job.count(s) == 0) {
            return Err(Error::InvalidParameter(format!("a {:?} job gave no path 0", job.kind())));
        }
        Ok(job.pad(mine, range, stand_in.as_ref()))
    }
}

/// The backend the merge runs a split claim's check against: every job is answered from the
/// shards' records.
pub struct Playback {
    jobs: BTreeMap<String, Vec<(u32, JobRecord)>>,
    problems: Mutex<Vec<String>>,
}

impl Playback {
    /// A replay of the records of each shard (`(shard index, records)`).
    pub fn new(parts: Vec<(u32, Vec<JobRecord>)>) -> Playback {
        let mut jobs: BTreeMap<String, Vec<(u32, JobRecord)>> = BTreeMap::new();
        for (shard, records) in parts {
            for r in records {
                jobs.entry(r.fingerprint.clone()).or_default().push((shard, r));
            }
        }
        Playback { jobs, problems: Mutex::new(vec![]) }
    }

    /// What went wrong while answering the check (a job no shard computed, or records that do
    /// not tile its paths); empty when every job was answered.
    pub fn problems(&self) -> Vec<String> {
        self.problems.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn handle(&self, job: &dyn AnyJob) -> Result<Paths> {
        self.answer(job).map_err(|why| {
            self.problems.lock().unwrap_or_else(|e| e.into_inner()).push(why.clone());
            Error::InvalidParameter(why)
        })
    }

    fn answer(&self, job: &dyn AnyJob) -> std::result::Result<Paths, String> {
        const ADAPTIVE: &str = "the check's jobs depend on earlier jobs' results, so it cannot be split";
        let fingerprint = job.fingerprint();
        let bad = |why: String| format!("{:?} job {fingerprint}: {why}", job.kind());
        let mut records = self.jobs.get(&fingerprint).cloned().ok_or_else(|| bad(format!("no shard computed it ({ADAPTIVE})")))?;
        records.sort_by_key(|(_, r)| (r.first, r.len)); // empty ranges first
        let (mut parts, mut count) = (vec![], 0u64);
        for (shard, r) in records {
            if r.kind != job.kind() || r.paths != job.paths() || r.first != count {
                return Err(bad(format!(
                    "shard {shard}'s record (paths {}..{} of {}) does not continue paths 0..{}",
                    r.first,
                    r.first + r.len,
                    r.paths,
                    count
                )));
            }
            let bytes = base64::engine::general_purpose::STANDARD.decode(&r.data).map_err(|e| bad(format!("shard {shard}'s data is not base64: {e}")))?;
            let paths = job.decode_bytes(&bytes).map_err(|e| bad(format!("shard {shard}'s data does not decode: {e}")))?;
            if job.count(&paths) as u64 != r.len {
                return Err(bad(format!("shard {shard}'s data holds {} paths, its record says {}", job.count(&paths), r.len)));
            }
            count += r.len;
            parts.push(paths);
        }
        if count != job.paths() {
            let shards: Vec<String> = self.jobs[&fingerprint].iter().map(|(s, _)| s.to_string()).collect();
            return Err(bad(format!(
                "the records of shards {} cover paths 0..{} of {} (if the other shards' parts are complete, {ADAPTIVE})",
                shards.join(", "),
                count,
                job.paths()
            )));
        }
        Ok(job.concat(parts))
    }
}

impl Backend for Recorder<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn run_range(&self, job: &dyn AnyJob, range: Range<u64>, progress: &dyn Progress) -> Result<Paths> {
        whole(job, &range)?;
        self.handle(job, progress)
    }
}

impl Backend for Playback {
    fn name(&self) -> &'static str {
        "playback"
    }
    fn run_range(&self, job: &dyn AnyJob, range: Range<u64>, _progress: &dyn Progress) -> Result<Paths> {
        whole(job, &range)?;
        self.handle(job)
    }
}

/// Split claims ask for whole jobs: a recorder or a playback answers nothing else.
fn whole(job: &dyn AnyJob, range: &Range<u64>) -> Result<()> {
    if *range != (0..job.paths()) {
        return Err(Error::InvalidParameter(format!("a sharded run answers whole jobs, not paths {}..{} of a {:?} job", range.start, range.end, job.kind())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::jobs::TailSumJob;
    use crate::mc::{CpuBackend, Job, RunJob, StreamKey};
    use crate::progress::Silent;
    use proptest::prelude::*;

    fn job(samples: u64) -> TailSumJob {
        TailSumJob { c: 0.3, gamma: 0.5, times: vec![1, 7], samples, key: StreamKey::new(9, "record-test") }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// Any cut of a job's paths into contiguous records, given in any order, plays back as
        /// the whole job, bit for bit.
        #[test]
        fn any_cut_of_the_paths_plays_back_the_whole_job(samples in 1u64..300, cuts in prop::collection::vec(0u64..300, 0..6), rotate in 0usize..8) {
            let whole = CpuBackend.run(&job(samples), &Silent).unwrap();
            let mut points: Vec<u64> = cuts.into_iter().map(|c| c.min(samples)).chain([0, samples]).collect();
            points.sort_unstable();
            let mut parts: Vec<(u32, Vec<JobRecord>)> = points
                .windows(2)
                .enumerate()
                .map(|(i, w)| {
                    let paths = CpuBackend.run_paths(&job(samples), w[0]..w[1], &Silent).unwrap();
                    let record = JobRecord {
                        kind: JobKind::TailSums,
                        fingerprint: Job::fingerprint(&job(samples)),
                        paths: samples,
                        first: w[0],
                        len: w[1] - w[0],
                        data: base64::engine::general_purpose::STANDARD.encode(bincode::serialize(&paths).unwrap()),
                    };
                    (i as u32, vec![record])
                })
                .collect();
            let n = parts.len();
            parts.rotate_left(rotate % n);
            let playback = Playback::new(parts);
            let played = playback.run(&job(samples), &Silent).unwrap();
            prop_assert_eq!(played.len(), whole.len());
            for (a, b) in played.iter().zip(&whole) {
                prop_assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()));
            }
            prop_assert!(playback.problems().is_empty());
        }
    }

    #[test]
    fn a_recorder_computes_its_range_and_records_it_exactly() {
        let j = job(10);
        let whole = CpuBackend.run(&j, &Silent).unwrap();
        let parts: Vec<(u32, Vec<JobRecord>)> = (0..3)
            .map(|i| {
                let r = Recorder::new(&CpuBackend, Shard::new(i, 3).unwrap());
                let seen = r.run(&j, &Silent).unwrap();
                let range = Shard::new(i, 3).unwrap().range(10);
                assert_eq!(seen.len(), 10);
                assert_eq!(seen[range.start as usize..range.end as usize], whole[range.start as usize..range.end as usize]);
                (i, r.into_records())
            })
            .collect();
        assert_eq!(Playback::new(parts.clone()).run(&j, &Silent).unwrap(), whole);
        // A missing shard, or another job, is a problem the merge reports.
        let short = Playback::new(parts[..2].to_vec());
        assert!(short.run(&j, &Silent).is_err());
        assert!(short.problems()[0].contains("cover paths 0..6 of 10"), "{:?}", short.problems());
        let other = Playback::new(parts);
        assert!(other.run(&job(11), &Silent).is_err());
        assert!(other.problems()[0].contains("no shard computed it"));
    }
}
