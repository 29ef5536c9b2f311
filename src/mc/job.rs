//! What a Monte Carlo job is: a [`Job`] knows its number of paths, its fingerprint, how the CPU
//! computes any range of its paths, and (when it has a kernel) the launch of that range and the
//! decoding of the kernel's outputs. Backends run any job through one object-safe entry,
//! [`Backend::run_range`](super::Backend::run_range), which sees the job as an [`AnyJob`];
//! callers use the typed [`run`](super::RunJob::run) and get `Vec<J::Output>` back.
//!
//! A new job is its parameters ([`super::jobs`]), its path loop ([`super::paths`]), its kernel
//! (`kernels/*.cu` and its parameter table in [`super::kernels`]) and its `impl Job` here: the
//! CPU backend, the kernel backends, sharding's recorder and playback, and the CUDA shim's build
//! need nothing more.

use super::jobs::{
    log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, ScalarArJob, ScalarArPath, TailSumJob, TiltedTailJob,
};
use super::kernels::{
    decode_diagonal, decode_interaction, decode_needle, decode_tail, diagonal_launch, interaction_launch, needle_launch, range_len, tail_launch,
    tilted_tail_launch, Launch,
};
use super::paths::{diagonal_lrd_path, interaction_paths, needle_path, scalar_ar_paths, tail_sum_sample, tilted_tail_sample, LOCKSTEP};
use super::Stream;
use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt::Debug;
use std::ops::Range;

/// The kinds of Monte Carlo job, as shard records name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum JobKind {
    /// [`DiagonalLrdJob`].
    DiagonalLrd,
    /// [`InteractionJob`].
    Interaction,
    /// [`TailSumJob`].
    TailSums,
    /// [`TiltedTailJob`].
    TiltedTailSums,
    /// [`ScalarArJob`].
    ScalarAr,
    /// [`NeedleJob`].
    Needle,
}

/// A Monte Carlo job: many independent paths (or samples), each drawn from its own keyed stream,
/// so any range of them can be computed alone and gives the numbers of the whole job's run.
pub trait Job: Debug + Sync {
    /// The output of one path.
    type Output: Clone + Send + Serialize + DeserializeOwned + 'static;
    /// Its kind.
    const KIND: JobKind;
    /// Its number of paths.
    fn paths(&self) -> u64;
    /// Paths `range` on the CPU, in path order (bit-identical whatever the thread count).
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Self::Output>>;
    /// The kernel launch of paths `range`; `None` when the job has no kernel (a kernel backend
    /// then runs it on the CPU).
    fn launch(&self, _range: Range<u64>) -> Option<Result<Launch>> {
        None
    }
    /// The paths of a launch from its output buffers (in parameter order).
    fn decode(&self, _outputs: &[Vec<f64>], _launch: &Launch) -> Vec<Self::Output> {
        unreachable!("{:?} has no kernel", Self::KIND)
    }
    /// Progress ticks for `n` paths done (one per path, or one per 1024 samples).
    fn ticks(&self, n: u64) -> u64 {
        n
    }
    /// FNV-1a of the job's kind and full description (every parameter and its stream key), hex:
    /// a merge answers a job only with records of the same fingerprint.
    fn fingerprint(&self) -> String {
        format!("{:016x}", super::fnv1a64(&format!("{:?}/{self:?}", Self::KIND)))
    }
}

/// The paths of a range of some job, type-erased (`Vec<J::Output>` inside); [`AnyJob`] reads
/// them, and [`RunJob::run`](super::RunJob::run) gives them back typed.
pub type Paths = Box<dyn Any + Send>;

/// A [`Job`] seen through a trait object, as [`Backend::run_range`](super::Backend::run_range)
/// takes it. Implemented for every `Job`; not meant to be implemented by hand.
pub trait AnyJob: Sync {
    /// Its kind.
    fn kind(&self) -> JobKind;
    /// Its number of paths.
    fn paths(&self) -> u64;
    /// Its fingerprint ([`Job::fingerprint`]).
    fn fingerprint(&self) -> String;
    /// Paths `range` on the CPU.
    fn run_cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Paths>;
    /// Paths `range` through `launch` (a kernel backend's launcher); on the CPU when the job has
    /// no kernel.
    fn run_kernel(&self, range: Range<u64>, progress: &dyn Progress, launch: &dyn Fn(&Launch) -> Result<Vec<Vec<f64>>>) -> Result<Paths>;
    /// How many paths `paths` holds.
    fn count(&self, paths: &Paths) -> usize;
    /// `paths`, exactly (floats bit for bit): bincode.
    fn encode(&self, paths: &Paths) -> Result<Vec<u8>>;
    /// Paths from [`AnyJob::encode`]'s bytes.
    fn decode_bytes(&self, bytes: &[u8]) -> Result<Paths>;
    /// The parts' paths, one after the other.
    fn concat(&self, parts: Vec<Paths>) -> Paths;
    /// All the job's paths: those of `range` from `mine`, every other one a copy of the first
    /// path of `stand_in` (of `mine` when `None`); a shard's check goes on with them, and its
    /// verdict is discarded.
    fn pad(&self, mine: Paths, range: Range<u64>, stand_in: Option<&Paths>) -> Paths;
}

/// The typed paths inside `paths` (a job's own output type, by construction).
fn typed<O: 'static>(paths: &Paths) -> &Vec<O> {
    paths.downcast_ref().expect("the paths of this job's output type")
}

impl<J: Job> AnyJob for J {
    fn kind(&self) -> JobKind {
        J::KIND
    }
    fn paths(&self) -> u64 {
        Job::paths(self)
    }
    fn fingerprint(&self) -> String {
        Job::fingerprint(self)
    }
    fn run_cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Paths> {
        Ok(Box::new(self.cpu(range, progress)?))
    }
    fn run_kernel(&self, range: Range<u64>, progress: &dyn Progress, launch: &dyn Fn(&Launch) -> Result<Vec<Vec<f64>>>) -> Result<Paths> {
        let Some(l) = self.launch(range.clone()) else { return self.run_cpu(range, progress) };
        let l = l?;
        if l.threads == 0 {
            // An empty range of a split job: no launch, no path.
            return Ok(Box::new(Vec::<J::Output>::new()));
        }
        let out = launch(&l)?;
        progress.advance(self.ticks(l.threads));
        Ok(Box::new(self.decode(&out, &l)))
    }
    fn count(&self, paths: &Paths) -> usize {
        typed::<J::Output>(paths).len()
    }
    fn encode(&self, paths: &Paths) -> Result<Vec<u8>> {
        bincode::serialize(typed::<J::Output>(paths)).map_err(|e| Error::InvalidParameter(format!("cannot encode a {:?} job's paths: {e}", J::KIND)))
    }
    fn decode_bytes(&self, bytes: &[u8]) -> Result<Paths> {
        let paths: Vec<J::Output> =
            bincode::deserialize(bytes).map_err(|e| Error::InvalidParameter(format!("a {:?} job's paths do not decode: {e}", J::KIND)))?;
        Ok(Box::new(paths))
    }
    fn concat(&self, parts: Vec<Paths>) -> Paths {
        let mut all: Vec<J::Output> = vec![];
        for p in parts {
            all.extend(p.downcast::<Vec<J::Output>>().map(|v| *v).expect("the paths of this job's output type"));
        }
        Box::new(all)
    }
    fn pad(&self, mine: Paths, range: Range<u64>, stand_in: Option<&Paths>) -> Paths {
        let filler = typed::<J::Output>(stand_in.unwrap_or(&mine)).first();
        let mine = typed::<J::Output>(&mine);
        let all: Vec<J::Output> =
            (0..Job::paths(self)).filter_map(|p| if range.contains(&p) { Some(mine[(p - range.start) as usize].clone()) } else { filler.cloned() }).collect();
        Box::new(all)
    }
}

/// Runs `f` on each index of `paths` in parallel, one progress tick per item, in index order
/// (long paths).
pub fn per_path<T: Send>(paths: Range<u64>, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    crate::parallel::enter();
    paths
        .into_par_iter()
        .map(|p| {
            let out = f(p);
            progress.advance(1);
            out
        })
        .collect()
}

/// Runs `f` on each index of `samples` in parallel in chunks of 1024 (one progress tick each),
/// in index order (many short samples).
pub fn chunked<T: Send>(samples: Range<u64>, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    const CHUNK: u64 = 1024;
    let (start, end) = (samples.start, samples.end);
    crate::parallel::enter();
    let chunks: Vec<Vec<T>> = (0..(end - start).div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let out = (start + c * CHUNK..(start + (c + 1) * CHUNK).min(end)).map(&f).collect();
            progress.advance(1);
            out
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// The indices of the lockstep groups that cover `range`.
fn lockstep_groups(range: &Range<u64>) -> Range<u64> {
    0..(range.end - range.start).div_ceil(LOCKSTEP as u64)
}

/// The paths of lockstep group `g` of `range`.
fn lockstep_group(range: &Range<u64>, g: u64) -> Range<u64> {
    range.start + g * LOCKSTEP as u64..(range.start + (g + 1) * LOCKSTEP as u64).min(range.end)
}

impl Job for DiagonalLrdJob {
    type Output = DiagonalLrdPath;
    const KIND: JobKind = JobKind::DiagonalLrd;
    fn paths(&self) -> u64 {
        self.paths
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        self.validate()?;
        range_len(&range, self.paths)?;
        let marks = log_checkpoints(self.horizon, self.checkpoints);
        Ok(per_path(range, progress, |p| diagonal_lrd_path(self, &marks, Stream::new(self.key, p))))
    }
    fn launch(&self, range: Range<u64>) -> Option<Result<Launch>> {
        Some(diagonal_launch(self, range).map(|(l, _)| l))
    }
    fn decode(&self, outputs: &[Vec<f64>], launch: &Launch) -> Vec<DiagonalLrdPath> {
        let marks = log_checkpoints(self.horizon, self.checkpoints).len();
        decode_diagonal(&outputs[0], &outputs[1], launch.threads as usize, marks)
    }
}

impl Job for InteractionJob {
    type Output = InteractionPath;
    const KIND: JobKind = JobKind::Interaction;
    fn paths(&self) -> u64 {
        self.paths
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        self.validate()?;
        range_len(&range, self.paths)?;
        let marks = log_checkpoints(self.horizon, self.checkpoints);
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups = per_path(lockstep_groups(&range), &Silent, |g| {
            let paths: Vec<u64> = lockstep_group(&range, g).collect();
            let out = interaction_paths(&vec![self; paths.len()], &marks, paths.iter().map(|&p| Stream::new(self.key, p)).collect());
            progress.advance(paths.len() as u64);
            out
        });
        Ok(groups.into_iter().flatten().collect())
    }
    fn launch(&self, range: Range<u64>) -> Option<Result<Launch>> {
        Some(interaction_launch(self, range).map(|(l, _)| l))
    }
    fn decode(&self, outputs: &[Vec<f64>], launch: &Launch) -> Vec<InteractionPath> {
        let marks = log_checkpoints(self.horizon, self.checkpoints).len();
        decode_interaction(&outputs[0], &outputs[1], launch.threads as usize, marks)
    }
}

impl Job for TailSumJob {
    type Output = Vec<f64>;
    const KIND: JobKind = JobKind::TailSums;
    fn paths(&self) -> u64 {
        self.samples
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        self.validate()?;
        range_len(&range, self.samples)?;
        Ok(chunked(range, progress, |s| tail_sum_sample(self, Stream::new(self.key, s))))
    }
    fn launch(&self, range: Range<u64>) -> Option<Result<Launch>> {
        Some(tail_launch(self, range))
    }
    fn decode(&self, outputs: &[Vec<f64>], _launch: &Launch) -> Vec<Vec<f64>> {
        decode_tail(&outputs[0], self.times.len())
    }
    fn ticks(&self, n: u64) -> u64 {
        n.div_ceil(1024)
    }
}

impl Job for TiltedTailJob {
    type Output = f64;
    const KIND: JobKind = JobKind::TiltedTailSums;
    fn paths(&self) -> u64 {
        self.samples
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<f64>> {
        self.validate()?;
        range_len(&range, self.samples)?;
        let ticks = self.ticks(range.end - range.start);
        // Few samples of long, uneven work (rejection): one rayon task per sample.
        crate::parallel::enter();
        let out = range.into_par_iter().map(|s| tilted_tail_sample(self, Stream::new(self.key, s), Stream::new(self.accept_key, s))).collect();
        progress.advance(ticks);
        Ok(out)
    }
    fn launch(&self, range: Range<u64>) -> Option<Result<Launch>> {
        Some(tilted_tail_launch(self, range))
    }
    fn decode(&self, outputs: &[Vec<f64>], _launch: &Launch) -> Vec<f64> {
        outputs[0].clone()
    }
    fn ticks(&self, n: u64) -> u64 {
        n.div_ceil(1024)
    }
}

impl Job for ScalarArJob {
    type Output = ScalarArPath;
    const KIND: JobKind = JobKind::ScalarAr;
    fn paths(&self) -> u64 {
        self.paths
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        self.validate()?;
        range_len(&range, self.paths)?;
        let ticks = self.ticks(range.end - range.start);
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups =
            chunked(lockstep_groups(&range), &Silent, |g| scalar_ar_paths(self, lockstep_group(&range, g).map(|p| Stream::new(self.key, p)).collect()));
        progress.advance(ticks);
        Ok(groups.into_iter().flatten().collect())
    }
    fn ticks(&self, n: u64) -> u64 {
        n.div_ceil(1024)
    }
}

impl Job for NeedleJob {
    type Output = Vec<bool>;
    const KIND: JobKind = JobKind::Needle;
    fn paths(&self) -> u64 {
        self.paths
    }
    fn cpu(&self, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<bool>>> {
        self.validate()?;
        range_len(&range, self.paths)?;
        Ok(per_path(range, progress, |p| needle_path(self, Stream::new(self.key, p))))
    }
    fn launch(&self, range: Range<u64>) -> Option<Result<Launch>> {
        Some(needle_launch(self, range))
    }
    fn decode(&self, outputs: &[Vec<f64>], _launch: &Launch) -> Vec<Vec<bool>> {
        decode_needle(&outputs[0], self.lags.len())
    }
}
