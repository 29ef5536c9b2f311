//! The CPU backend: each job's own CPU loops ([`Job::cpu`](super::Job::cpu): one rayon task per
//! path, per lockstep group or per chunk of samples), results collected in path order. The loops
//! themselves are in [`super::paths`].

use super::backend::Backend;
use super::job::{AnyJob, Paths};
use crate::error::Result;
use crate::progress::Progress;
use std::ops::Range;

/// The rayon backend. Deterministic: each path is computed sequentially from its own stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }
    fn run_range(&self, job: &dyn AnyJob, range: Range<u64>, progress: &dyn Progress) -> Result<Paths> {
        job.run_cpu(range, progress)
    }
}
