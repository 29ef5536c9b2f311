//! The CUDA device backend (feature `cuda`): the kernels of `kernels/` compiled by NVRTC when the
//! backend starts, launched with cudarc (which loads the driver at run time, so this builds
//! without a CUDA toolkit). The scalar AR(1), which has no kernel yet, runs on the rayon backend.
//!
//! Results agree with the CPU backends to rounding (the device's libm differs from glibc by a
//! few ulps); the kernels' logic is verified bit-exactly on the CPU through [`super::shim`].

use super::backend::Backend;
use super::cpu::CpuBackend;
use super::jobs::{log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, ScalarArJob, ScalarArPath, TailSumJob};
use super::kernels::{diagonal_paths, ensure_fits, interaction_paths, interaction_start, nvrtc_program, tail_rows, DIAGONAL_OUTPUT, INTERACTION_OUTPUT, KERNELS, MAX_MODES, MAX_STATE};
use crate::error::{Error, Result};
use crate::model::Discretization;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions};
use crate::progress::{Progress, Silent};
use std::sync::Arc;

/// The CUDA backend on device 0.
pub struct CudaBackend {
    stream: Arc<CudaStream>,
    diagonal: CudaFunction,
    tail: CudaFunction,
    interaction: CudaFunction,
}

/// Runs `f`, turning a panic (cudarc panics when a library cannot be loaded) into `None`
/// without printing it: the caller reports one clear line instead.
fn quietly<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(f).ok();
    std::panic::set_hook(hook);
    out
}

fn unavailable(why: impl std::fmt::Display) -> Error {
    Error::BackendUnavailable("cuda".into(), why.to_string())
}

fn device(e: impl std::fmt::Display) -> Error {
    Error::InvalidParameter(format!("CUDA launch failed: {e}"))
}

impl CudaBackend {
    /// Opens device 0 and compiles every kernel; a clear error when no driver or device answers.
    pub fn new() -> Result<Self> {
        let ctx = quietly(|| CudaContext::new(0))
            .ok_or_else(|| unavailable("the CUDA driver library could not be loaded (no GPU driver on this machine)"))?
            .map_err(|e| unavailable(format!("no CUDA device answers ({e})")))?;
        let stream = ctx.default_stream();
        let mut functions = vec![];
        for k in &KERNELS {
            // The same options as NVRTC_OPTIONS (the arch is a separate field in cudarc).
            let opts = CompileOptions { arch: Some("compute_70"), name: Some(k.file.into()), fmad: Some(false), options: vec!["--std=c++14".into()], ..Default::default() };
            let ptx = quietly(|| compile_ptx_with_opts(nvrtc_program(k), opts))
                .ok_or_else(|| unavailable("NVRTC could not be loaded"))?
                .map_err(|e| unavailable(format!("{} does not compile: {e:?}", k.file)))?;
            let module = ctx.load_module(ptx).map_err(|e| unavailable(format!("{}: {e}", k.file)))?;
            functions.push(module.load_function(k.entry).map_err(|e| unavailable(format!("{}: {e}", k.entry)))?);
        }
        let interaction = functions.pop().expect("three kernels");
        let tail = functions.pop().expect("three kernels");
        let diagonal = functions.pop().expect("three kernels");
        Ok(CudaBackend { stream, diagonal, tail, interaction })
    }
}

fn config(n: u64, block: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (n.div_ceil(u64::from(block)) as u32, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

impl Backend for CudaBackend {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &dyn Progress) -> Result<Vec<DiagonalLrdPath>> {
        job.validate()?;
        ensure_fits(job.a.len(), MAX_MODES, "LRD")?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        let (n, m) = (job.paths as usize, marks.len());
        let s = &self.stream;
        let a = s.clone_htod(&job.a).map_err(device)?;
        let b = s.clone_htod(&job.b).map_err(device)?;
        let dmarks = s.clone_htod(&marks).map_err(device)?;
        let (ns, nt) = DIAGONAL_OUTPUT.lengths(n, m);
        let mut summary = s.alloc_zeros::<f64>(ns).map_err(device)?;
        let mut trace = s.alloc_zeros::<f64>(nt).map_err(device)?;
        let (h, zoh, nm) = (job.a.len() as i32, i32::from(job.disc == Discretization::Zoh), m as i32);
        let mut launch = s.launch_builder(&self.diagonal);
        launch
            .arg(&a)
            .arg(&b)
            .arg(&h)
            .arg(&job.w)
            .arg(&job.bias)
            .arg(&zoh)
            .arg(&job.horizon)
            .arg(&job.paths)
            .arg(&job.claimed_rate)
            .arg(&job.key.0[0])
            .arg(&job.key.0[1])
            .arg(&dmarks)
            .arg(&nm)
            .arg(&mut summary)
            .arg(&mut trace);
        // SAFETY: the arguments match the kernel's signature in kernels/diagonal_lrd.cu type for
        // type and in order; the device buffers hold h modes, m marks and the summary and
        // trace lengths of DIAGONAL_OUTPUT, and each thread writes only its own path's entries.
        unsafe { launch.launch(config(job.paths, 64)) }.map_err(device)?;
        let summary = s.clone_dtoh(&summary).map_err(device)?;
        let trace = s.clone_dtoh(&trace).map_err(device)?;
        progress.advance(job.paths);
        Ok(diagonal_paths(&summary, &trace, n, m))
    }

    fn tail_sums(&self, job: &TailSumJob, progress: &dyn Progress) -> Result<Vec<Vec<f64>>> {
        job.validate()?;
        let k = job.times.len();
        let s = &self.stream;
        let times = s.clone_htod(&job.times).map_err(device)?;
        let mut out = s.alloc_zeros::<f64>(job.samples as usize * k).map_err(device)?;
        let nt = k as i32;
        let mut launch = s.launch_builder(&self.tail);
        launch.arg(&job.c).arg(&job.gamma).arg(&times).arg(&nt).arg(&job.samples).arg(&job.key.0[0]).arg(&job.key.0[1]).arg(&mut out);
        // SAFETY: the arguments match kernels/tail_sums.cu's signature type for type and in
        // order; `out` holds samples·n_times values and each thread writes only its own row.
        unsafe { launch.launch(config(job.samples, 256)) }.map_err(device)?;
        let out = s.clone_dtoh(&out).map_err(device)?;
        progress.advance(job.samples.div_ceil(1024));
        Ok(tail_rows(&out, k))
    }

    fn interaction(&self, job: &InteractionJob, progress: &dyn Progress) -> Result<Vec<InteractionPath>> {
        job.validate()?;
        let h = job.bbar.len();
        ensure_fits(h, MAX_STATE, "interaction")?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        let (n, m) = (job.paths as usize, marks.len());
        let (start, t) = interaction_start(job);
        let s = &self.stream;
        let abar = s.clone_htod(&job.abar.concat()).map_err(device)?;
        let (bbar, g, w) = (s.clone_htod(&job.bbar).map_err(device)?, s.clone_htod(&job.g).map_err(device)?, s.clone_htod(&job.w).map_err(device)?);
        let dmarks = s.clone_htod(&marks).map_err(device)?;
        let (ns, nt) = INTERACTION_OUTPUT.lengths(n, m);
        let mut summary = s.alloc_zeros::<f64>(ns).map_err(device)?;
        let mut trace = s.alloc_zeros::<f64>(nt).map_err(device)?;
        let (hi, nm) = (h as i32, m as i32);
        let mut launch = s.launch_builder(&self.interaction);
        launch
            .arg(&abar)
            .arg(&bbar)
            .arg(&g)
            .arg(&w)
            .arg(&hi)
            .arg(&start)
            .arg(&t)
            .arg(&job.horizon)
            .arg(&job.burn_in)
            .arg(&job.paths)
            .arg(&job.key.0[0])
            .arg(&job.key.0[1])
            .arg(&dmarks)
            .arg(&nm)
            .arg(&mut summary)
            .arg(&mut trace);
        // SAFETY: the arguments match kernels/interaction.cu's signature type for type and in
        // order; the buffers hold h×h, h, h, h and m values and INTERACTION_OUTPUT's lengths, and each thread
        // writes only its own path's entries.
        unsafe { launch.launch(config(job.paths, 64)) }.map_err(device)?;
        let (summary, trace) = (s.clone_dtoh(&summary).map_err(device)?, s.clone_dtoh(&trace).map_err(device)?);
        progress.advance(job.paths);
        Ok(interaction_paths(&summary, &trace, n, m))
    }

    fn scalar_ar(&self, job: &ScalarArJob, progress: &dyn Progress) -> Result<Vec<ScalarArPath>> {
        CpuBackend.scalar_ar(job, progress)
    }
}
