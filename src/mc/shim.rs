//! The CUDA kernels of `kernels/` run on the CPU through a shim (a grid loop over
//! blockIdx/threadIdx; compiled as C++ by `build.rs`), so they can be verified without a GPU: on
//! the same streams their results must match the rayon backend.
//!
//! Kernels: the diagonal LRD trajectory, the tail sums and the interaction products (top
//! Lyapunov exponent). The scalar AR(1) has no kernel yet; this backend runs it on the rayon
//! backend.

use super::backend::Backend;
use super::cpu::CpuBackend;
use super::jobs::{log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, ScalarArJob, ScalarArPath, TailSumJob};
use super::kernels::{diagonal_paths, ensure_fits, interaction_paths, interaction_start, tail_rows, DIAGONAL_OUTPUT, INTERACTION_OUTPUT, MAX_MODES, MAX_STATE};
use crate::error::Result;
use crate::model::Discretization;
use crate::progress::Progress;

type DiagonalFn = unsafe extern "C" fn(
    *const f64, *const f64, i32, f64, f64, i32, u64, u64, f64, u32, u32, *const u64, i32, *mut f64, *mut f64,
);
type TailFn = unsafe extern "C" fn(f64, f64, *const u64, i32, u64, u32, u32, *mut f64);
type InteractionFn = unsafe extern "C" fn(
    *const f64, *const f64, *const f64, *const f64, i32, i32, u64, u64, u64, u64, u32, u32, *const u64, i32, *mut f64, *mut f64,
);

extern "C" {
    fn ssm_cpu_diagonal_lrd(a: *const f64, b: *const f64, h: i32, w: f64, bias: f64, zoh: i32, horizon: u64, paths: u64, claimed_rate: f64, k0: u32, k1: u32, marks: *const u64, n_marks: i32, summary: *mut f64, trace: *mut f64);
    fn ssm_cpu_tail_sums(c: f64, gamma: f64, times: *const u64, n_times: i32, samples: u64, k0: u32, k1: u32, out: *mut f64);
    fn ssm_planted_diagonal_lrd(a: *const f64, b: *const f64, h: i32, w: f64, bias: f64, zoh: i32, horizon: u64, paths: u64, claimed_rate: f64, k0: u32, k1: u32, marks: *const u64, n_marks: i32, summary: *mut f64, trace: *mut f64);
    fn ssm_cpu_interaction(abar: *const f64, bbar: *const f64, g: *const f64, w: *const f64, h: i32, start: i32, t: u64, horizon: u64, burn_in: u64, paths: u64, k0: u32, k1: u32, marks: *const u64, n_marks: i32, summary: *mut f64, trace: *mut f64);
    fn ssm_planted_interaction(abar: *const f64, bbar: *const f64, g: *const f64, w: *const f64, h: i32, start: i32, t: u64, horizon: u64, burn_in: u64, paths: u64, k0: u32, k1: u32, marks: *const u64, n_marks: i32, summary: *mut f64, trace: *mut f64);
    fn ssm_planted_tail_sums(c: f64, gamma: f64, times: *const u64, n_times: i32, samples: u64, k0: u32, k1: u32, out: *mut f64);
}

/// The kernels on the CPU (single-threaded, like one GPU thread after another).
#[derive(Clone, Copy, Debug)]
pub struct ShimBackend {
    diagonal: DiagonalFn,
    tail: TailFn,
    interaction: InteractionFn,
}

impl Default for ShimBackend {
    fn default() -> Self {
        ShimBackend { diagonal: ssm_cpu_diagonal_lrd, tail: ssm_cpu_tail_sums, interaction: ssm_cpu_interaction }
    }
}

impl ShimBackend {
    /// The kernels as built for production.
    pub fn new() -> Self {
        Self::default()
    }
    /// The kernels with a planted off-by-one in the step loop of the LRD kernel: the negative
    /// control of the agreement test (never use it for results).
    #[doc(hidden)]
    pub fn with_planted_bug() -> Self {
        ShimBackend { diagonal: ssm_planted_diagonal_lrd, tail: ssm_planted_tail_sums, interaction: ssm_planted_interaction }
    }
}

impl Backend for ShimBackend {
    fn name(&self) -> &'static str {
        "cuda-kernels-on-cpu"
    }

    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        job.validate()?;
        ensure_fits(job.a.len(), MAX_MODES, "LRD")?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        let n = job.paths as usize;
        let (ns, nt) = DIAGONAL_OUTPUT.lengths(n, marks.len());
        let (mut summary, mut trace) = (vec![0.0; ns], vec![0.0; nt]);
        // SAFETY: the kernel reads `h` = a.len() = b.len() modes, `n_marks` = marks.len() marks,
        // and writes DIAGONAL_OUTPUT's summary and trace lengths; all buffers have exactly
        // those lengths and outlive the call, which does not retain them.
        unsafe {
            (self.diagonal)(
                job.a.as_ptr(),
                job.b.as_ptr(),
                job.a.len() as i32,
                job.w,
                job.bias,
                i32::from(job.disc == Discretization::Zoh),
                job.horizon,
                job.paths,
                job.claimed_rate,
                job.key.0[0],
                job.key.0[1],
                marks.as_ptr(),
                marks.len() as i32,
                summary.as_mut_ptr(),
                trace.as_mut_ptr(),
            )
        };
        progress.advance(job.paths);
        Ok(diagonal_paths(&summary, &trace, n, marks.len()))
    }

    fn tail_sums(&self, job: &TailSumJob, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        job.validate()?;
        let (n, k) = (job.samples as usize, job.times.len());
        let mut out = vec![0.0; n * k];
        // SAFETY: the kernel reads `n_times` = times.len() times and writes samples·n_times
        // values into `out`, which has exactly that length and outlives the call.
        unsafe { (self.tail)(job.c, job.gamma, job.times.as_ptr(), k as i32, job.samples, job.key.0[0], job.key.0[1], out.as_mut_ptr()) };
        progress.advance(job.samples.div_ceil(1024));
        Ok(tail_rows(&out, k))
    }

    fn interaction(&self, job: &InteractionJob, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        job.validate()?;
        let h = job.bbar.len();
        ensure_fits(h, MAX_STATE, "interaction")?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        let (n, m) = (job.paths as usize, marks.len());
        let abar: Vec<f64> = job.abar.concat();
        let (start, t) = interaction_start(job);
        let (ns, nt) = INTERACTION_OUTPUT.lengths(n, m);
        let (mut summary, mut trace) = (vec![0.0; ns], vec![0.0; nt]);
        // SAFETY: the kernel reads an h×h Ā (row-major), h-vectors B̄, G, W and m marks, and writes
        // INTERACTION_OUTPUT's summary and trace lengths; every buffer has exactly that length and
        // outlives the call.
        unsafe {
            (self.interaction)(
                abar.as_ptr(), job.bbar.as_ptr(), job.g.as_ptr(), job.w.as_ptr(), h as i32, start, t, job.horizon, job.burn_in,
                job.paths, job.key.0[0], job.key.0[1], marks.as_ptr(), m as i32, summary.as_mut_ptr(), trace.as_mut_ptr(),
            )
        };
        progress.advance(job.paths);
        Ok(interaction_paths(&summary, &trace, n, m))
    }

    fn scalar_ar(&self, job: &ScalarArJob, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        CpuBackend.scalar_ar(job, progress)
    }
}
