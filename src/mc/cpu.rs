//! The CPU backend: one rayon task per path (interaction paths: per lockstep group of four),
//! results collected in path order. The loops themselves are in [`super::paths`].

use super::backend::Backend;
use super::jobs::{
    log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, ScalarArJob, ScalarArPath, TailSumJob, TiltedTailJob,
};
use super::paths::{diagonal_lrd_path, interaction_paths, needle_path, scalar_ar_paths, tail_sum_sample, tilted_tail_sample, LOCKSTEP};
use super::stream::Stream;
use crate::error::Result;
use crate::progress::{Progress, Silent};
use rayon::prelude::*;

/// The rayon backend. Deterministic: each path is computed sequentially from its own stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        Ok(per_path(job.paths, progress, |p| diagonal_lrd_path(job, &marks, Stream::new(job.key, p))))
    }

    fn tail_sums(&self, job: &TailSumJob, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        job.validate()?;
        Ok(chunked(job.samples, progress, |s| tail_sum_sample(job, Stream::new(job.key, s))))
    }

    fn tilted_tail_sums(&self, job: &TiltedTailJob, progress: &dyn Progress) -> Result<Vec<f64>> {
        job.validate()?;
        // Few samples of long, uneven work (rejection): one rayon task per sample.
        let out = (0..job.samples).into_par_iter().map(|s| tilted_tail_sample(job, Stream::new(job.key, s), Stream::new(job.accept_key, s))).collect();
        progress.advance(job.samples.div_ceil(1024));
        Ok(out)
    }

    fn scalar_ar(&self, job: &ScalarArJob, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        job.validate()?;
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups = chunked(job.paths.div_ceil(LOCKSTEP as u64), &Silent, |g| {
            let paths = g * LOCKSTEP as u64..((g + 1) * LOCKSTEP as u64).min(job.paths);
            scalar_ar_paths(job, paths.map(|p| Stream::new(job.key, p)).collect())
        });
        progress.advance(job.paths.div_ceil(1024));
        Ok(groups.into_iter().flatten().collect())
    }

    fn needle(&self, job: &NeedleJob, progress: &dyn Progress) -> Result<Vec<Vec<bool>>> {
        job.validate()?;
        Ok(per_path(job.paths, progress, |p| needle_path(job, Stream::new(job.key, p))))
    }

    fn interaction(&self, job: &InteractionJob, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups = per_path(job.paths.div_ceil(LOCKSTEP as u64), &Silent, |g| {
            let paths: Vec<u64> = (g * LOCKSTEP as u64..((g + 1) * LOCKSTEP as u64).min(job.paths)).collect();
            let out = interaction_paths(&vec![job; paths.len()], &marks, paths.iter().map(|&p| Stream::new(job.key, p)).collect());
            progress.advance(paths.len() as u64);
            out
        });
        Ok(groups.into_iter().flatten().collect())
    }
}

/// Runs `f(0..n)` in parallel, one progress tick per item, in index order (long paths).
pub fn per_path<T: Send>(n: u64, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    (0..n)
        .into_par_iter()
        .map(|p| {
            let out = f(p);
            progress.advance(1);
            out
        })
        .collect()
}

/// Runs `f(0..n)` in parallel in chunks of 1024 (one progress tick each), in index order
/// (many short samples).
pub fn chunked<T: Send>(n: u64, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    const CHUNK: u64 = 1024;
    let chunks: Vec<Vec<T>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let out = (c * CHUNK..((c + 1) * CHUNK).min(n)).map(&f).collect();
            progress.advance(1);
            out
        })
        .collect();
    chunks.into_iter().flatten().collect()
}
