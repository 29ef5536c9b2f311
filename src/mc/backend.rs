//! The backend seam: one method per Monte Carlo job, so a GPU backend can implement the same
//! jobs with kernels (as candle does per op) and fall back to the CPU shape.

use super::jobs::{DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, ScalarArJob, ScalarArPath, TailSumJob, TiltedTailJob};
use crate::error::Result;
use crate::progress::Progress;

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
}
