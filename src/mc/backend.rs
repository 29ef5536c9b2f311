//! The backend seam: one method per Monte Carlo job, so a GPU backend can implement the same
//! jobs with kernels (as candle does per op) and fall back to the CPU shape.

use super::jobs::{DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, ScalarArJob, ScalarArPath, TailSumJob, TiltedTailJob};
use crate::error::Result;
use crate::progress::Progress;
use std::ops::Range;

/// Something that runs Monte Carlo jobs. Results come back in path order; a backend must give
/// the same numbers for the same job whatever its parallelism (bit-identical on the CPU, within
/// a stated tolerance across backends).
pub trait Backend: Send + Sync {
    /// Short name recorded in results ("cpu", "cuda").
    fn name(&self) -> &'static str;
    /// Runs a [`DiagonalLrdJob`]; `progress` advances by one per finished path.
    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>>;
    /// Runs an [`InteractionJob`]; `progress` advances by one per finished path.
    fn interaction(&self, job: &InteractionJob, progress: &dyn Progress) -> Result<Vec<InteractionPath>>;
    /// Runs a [`TailSumJob`]: one vector of Y_t (at the job's times) per sample; `progress`
    /// advances by one per 1024 samples.
    fn tail_sums(&self, job: &TailSumJob, progress: &dyn Progress) -> Result<Vec<Vec<f64>>>;
    /// Runs a [`TiltedTailJob`]: Y_t of each sample under the tilted law; `progress` advances by
    /// one per 1024 samples.
    fn tilted_tail_sums(&self, job: &TiltedTailJob, progress: &dyn Progress) -> Result<Vec<f64>>;
    /// Runs a [`ScalarArJob`]; `progress` advances by one per 1024 paths.
    fn scalar_ar(&self, job: &ScalarArJob, progress: &dyn Progress) -> Result<Vec<ScalarArPath>>;
    /// Runs a [`NeedleJob`]: whether the needle is held at each lag, one vector per path;
    /// `progress` advances by one per finished path.
    fn needle(&self, job: &NeedleJob, progress: &dyn Progress) -> Result<Vec<Vec<bool>>>;

    // A range of a job's paths (samples), for a shard of a split claim: the same numbers as
    // those paths of the whole job (each path draws from its own keyed stream). The defaults
    // run the whole job and keep the range; a backend that can start at any path overrides them.

    /// Paths `range` of a [`DiagonalLrdJob`].
    fn diagonal_lrd_range(&self, job: &DiagonalLrdJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        Ok(keep(self.diagonal_lrd(job, progress)?, range))
    }
    /// Paths `range` of an [`InteractionJob`].
    fn interaction_range(&self, job: &InteractionJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        Ok(keep(self.interaction(job, progress)?, range))
    }
    /// Samples `range` of a [`TailSumJob`].
    fn tail_sums_range(&self, job: &TailSumJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        Ok(keep(self.tail_sums(job, progress)?, range))
    }
    /// Samples `range` of a [`TiltedTailJob`].
    fn tilted_tail_sums_range(&self, job: &TiltedTailJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<f64>> {
        Ok(keep(self.tilted_tail_sums(job, progress)?, range))
    }
    /// Paths `range` of a [`ScalarArJob`].
    fn scalar_ar_range(&self, job: &ScalarArJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        Ok(keep(self.scalar_ar(job, progress)?, range))
    }
    /// Paths `range` of a [`NeedleJob`].
    fn needle_range(&self, job: &NeedleJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<bool>>> {
        Ok(keep(self.needle(job, progress)?, range))
    }
}

/// The elements `range` of `all`.
fn keep<T>(all: Vec<T>, range: Range<u64>) -> Vec<T> {
    all.into_iter().skip(range.start as usize).take((range.end - range.start) as usize).collect()
}
