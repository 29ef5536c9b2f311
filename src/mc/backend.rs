//! The backend seam: one method per Monte Carlo job, so a GPU backend can implement the same
//! jobs with kernels (as candle does per op) and fall back to the CPU shape.

use super::cpu::CpuBackend;
use super::jobs::{DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, ScalarArJob, ScalarArPath, TailSumJob};
use crate::error::{Error, Result};
use indicatif::ProgressBar;

/// Something that runs Monte Carlo jobs. Results come back in path order; a backend must give
/// the same numbers for the same job whatever its parallelism (bit-identical on the CPU, within
/// a stated tolerance across backends).
pub trait Backend: Send + Sync {
    /// Short name recorded in results ("cpu", "cuda").
    fn name(&self) -> &'static str;
    /// Runs a [`DiagonalLrdJob`]; `progress` advances by one per finished path.
    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &ProgressBar) -> Result<Vec<DiagonalLrdPath>>;
    /// Runs an [`InteractionJob`]; `progress` advances by one per finished path.
    fn interaction(&self, job: &InteractionJob, progress: &ProgressBar) -> Result<Vec<InteractionPath>>;
    /// Runs a [`TailSumJob`]: one vector of Y_t (at the job's times) per sample; `progress`
    /// advances by one per 1024 samples.
    fn tail_sums(&self, job: &TailSumJob, progress: &ProgressBar) -> Result<Vec<Vec<f64>>>;
    /// Runs a [`ScalarArJob`]; `progress` advances by one per 1024 paths.
    fn scalar_ar(&self, job: &ScalarArJob, progress: &ProgressBar) -> Result<Vec<ScalarArPath>>;
}

/// The backend for a CLI name: `cpu`, `auto` (a GPU when one answers, else the CPU), `cuda`,
/// or `shim` (the CUDA kernels run on the CPU, to verify them without a device).
pub fn backend_by_name(name: &str) -> Result<Box<dyn Backend>> {
    match name {
        "cpu" => Ok(Box::new(CpuBackend)),
        "shim" => Ok(Box::new(super::shim::ShimBackend::new())),
        "cuda" => cuda(),
        // A GPU when one answers, else the CPU; the backend's name is recorded in the results.
        "auto" => Ok(cuda().unwrap_or_else(|_| Box::new(CpuBackend))),
        other => Err(Error::InvalidParameter(format!("unknown backend '{other}' (expected auto, cpu, cuda or shim)"))),
    }
}

#[cfg(feature = "cuda")]
fn cuda() -> Result<Box<dyn Backend>> {
    Ok(Box::new(super::cuda::CudaBackend::new()?))
}

#[cfg(not(feature = "cuda"))]
fn cuda() -> Result<Box<dyn Backend>> {
    Err(Error::BackendUnavailable("cuda".into(), "this build has no CUDA support (rebuild with --features cuda)".into()))
}
