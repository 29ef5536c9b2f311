//! The backend seam: one object-safe entry that runs any [`Job`] over a range of its paths, so a
//! GPU backend implements every job at once with kernels (as candle does per op) and falls back
//! to the CPU for a job without one.

use super::job::{AnyJob, Job, Paths};
use super::kernels::Launch;
use crate::error::Result;
use crate::progress::Progress;
use std::ops::Range;

/// Something that runs Monte Carlo jobs. Results come back in path order; a backend must give
/// the same numbers for the same job whatever its parallelism (bit-identical on the CPU, within
/// a stated tolerance across backends), and a range of paths must give those paths of the whole
/// job (each path draws from its own keyed stream).
pub trait Backend: Send + Sync {
    /// Short name recorded in results ("cpu", "cuda").
    fn name(&self) -> &'static str;
    /// Paths `range` of `job` (`Vec<J::Output>` inside); `progress` advances by the job's
    /// [`ticks`](Job::ticks).
    fn run_range(&self, job: &dyn AnyJob, range: Range<u64>, progress: &dyn Progress) -> Result<Paths>;
}

/// The typed way to run a job on any backend (`&dyn Backend` included): `Vec<J::Output>` back.
pub trait RunJob {
    /// Runs the whole of `job`: its paths in order.
    fn run<J: Job>(&self, job: &J, progress: &dyn Progress) -> Result<Vec<J::Output>>;
    /// Runs paths `range` of `job`.
    fn run_paths<J: Job>(&self, job: &J, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<J::Output>>;
}

impl<B: Backend + ?Sized> RunJob for B {
    fn run<J: Job>(&self, job: &J, progress: &dyn Progress) -> Result<Vec<J::Output>> {
        self.run_paths(job, 0..job.paths(), progress)
    }
    fn run_paths<J: Job>(&self, job: &J, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<J::Output>> {
        let paths = self.run_range(job, range, progress)?;
        Ok(*paths.downcast::<Vec<J::Output>>().expect("a backend answers a job with paths of its output type"))
    }
}

/// Runs launches: the only part of a kernel backend that differs between the GPU and the shim.
/// Every `Launcher` is a [`Backend`]: a job becomes a launch of its kernel, and a job without
/// one (the scalar AR(1)) runs on the CPU.
pub trait Launcher: Send + Sync {
    /// Short name recorded in results.
    fn name(&self) -> &'static str;
    /// Runs `launch` and returns its output buffers, in parameter order.
    fn launch(&self, launch: &Launch) -> Result<Vec<Vec<f64>>>;
}

impl<L: Launcher> Backend for L {
    fn name(&self) -> &'static str {
        Launcher::name(self)
    }
    fn run_range(&self, job: &dyn AnyJob, range: Range<u64>, progress: &dyn Progress) -> Result<Paths> {
        job.run_kernel(range, progress, &|l| self.launch(l))
    }
}
