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
use std::ops::Range;

/// The rayon backend. Deterministic: each path is computed sequentially from its own stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        self.diagonal_lrd_range(job, 0..job.paths, progress)
    }

    fn tail_sums(&self, job: &TailSumJob, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        self.tail_sums_range(job, 0..job.samples, progress)
    }

    fn tilted_tail_sums(&self, job: &TiltedTailJob, progress: &dyn Progress) -> Result<Vec<f64>> {
        self.tilted_tail_sums_range(job, 0..job.samples, progress)
    }

    fn scalar_ar(&self, job: &ScalarArJob, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        self.scalar_ar_range(job, 0..job.paths, progress)
    }

    fn needle(&self, job: &NeedleJob, progress: &dyn Progress) -> Result<Vec<Vec<bool>>> {
        self.needle_range(job, 0..job.paths, progress)
    }

    fn interaction(&self, job: &InteractionJob, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        self.interaction_range(job, 0..job.paths, progress)
    }

    fn diagonal_lrd_range(&self, job: &DiagonalLrdJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        Ok(per_path(range, progress, |p| diagonal_lrd_path(job, &marks, Stream::new(job.key, p))))
    }

    fn tail_sums_range(&self, job: &TailSumJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        job.validate()?;
        Ok(chunked(range, progress, |s| tail_sum_sample(job, Stream::new(job.key, s))))
    }

    fn tilted_tail_sums_range(&self, job: &TiltedTailJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<f64>> {
        job.validate()?;
        let ticks = (range.end - range.start).div_ceil(1024);
        // Few samples of long, uneven work (rejection): one rayon task per sample.
        let out = range.into_par_iter().map(|s| tilted_tail_sample(job, Stream::new(job.key, s), Stream::new(job.accept_key, s))).collect();
        progress.advance(ticks);
        Ok(out)
    }

    fn scalar_ar_range(&self, job: &ScalarArJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        job.validate()?;
        let ticks = (range.end - range.start).div_ceil(1024);
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups = chunked(lockstep_groups(&range), &Silent, |g| scalar_ar_paths(job, lockstep_group(&range, g).map(|p| Stream::new(job.key, p)).collect()));
        progress.advance(ticks);
        Ok(groups.into_iter().flatten().collect())
    }

    fn needle_range(&self, job: &NeedleJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<Vec<bool>>> {
        job.validate()?;
        Ok(per_path(range, progress, |p| needle_path(job, Stream::new(job.key, p))))
    }

    fn interaction_range(&self, job: &InteractionJob, range: Range<u64>, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        // Groups of LOCKSTEP paths advance together; each path's numbers are those of a lone path.
        let groups = per_path(lockstep_groups(&range), &Silent, |g| {
            let paths: Vec<u64> = lockstep_group(&range, g).collect();
            let out = interaction_paths(&vec![job; paths.len()], &marks, paths.iter().map(|&p| Stream::new(job.key, p)).collect());
            progress.advance(paths.len() as u64);
            out
        });
        Ok(groups.into_iter().flatten().collect())
    }
}

/// The indices of the lockstep groups that cover `range`.
fn lockstep_groups(range: &Range<u64>) -> Range<u64> {
    0..(range.end - range.start).div_ceil(LOCKSTEP as u64)
}

/// The paths of lockstep group `g` of `range`.
fn lockstep_group(range: &Range<u64>, g: u64) -> Range<u64> {
    range.start + g * LOCKSTEP as u64..(range.start + (g + 1) * LOCKSTEP as u64).min(range.end)
}

/// Runs `f` on each index of `paths` in parallel, one progress tick per item, in index order (long paths).
pub fn per_path<T: Send>(paths: Range<u64>, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    paths
        .into_par_iter()
        .map(|p| {
            let out = f(p);
            progress.advance(1);
            out
        })
        .collect()
}

/// Runs `f` on each index of `samples` in parallel in chunks of 1024 (one progress tick each), in index order
/// (many short samples).
pub fn chunked<T: Send>(samples: Range<u64>, progress: &dyn Progress, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    const CHUNK: u64 = 1024;
    let (start, end) = (samples.start, samples.end);
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
