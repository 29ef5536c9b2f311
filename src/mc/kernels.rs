//! The CUDA sources of `kernels/`, embedded as strings (compiled by NVRTC at run time on a GPU
//! machine; compiled as C++ through a shim for the CPU, see [`super::shim`]), and their calling
//! convention: size limits and the layout of their output buffers, shared by every backend that
//! launches them.

use super::jobs::{DiagonalLrdPath, InteractionJob, InteractionPath, Start};
use crate::error::{Error, Result};

/// The CUDA prelude: qualifiers and constants (the CPU side is `kernels/cpu_shim.h`).
pub const PRELUDE: (&str, &str) = ("cuda_prelude.cuh", include_str!("../../kernels/cuda_prelude.cuh"));
/// The branch-free exp/ln/softplus/Box–Muller of [`crate::math::vecmath`], for the kernels.
pub const VECMATH: (&str, &str) = ("vecmath.cuh", include_str!("../../kernels/vecmath.cuh"));
/// Philox4x32-10, keyed streams and Box–Muller, shared by every kernel.
pub const PHILOX: (&str, &str) = ("philox.cuh", include_str!("../../kernels/philox.cuh"));

/// NVRTC options of every kernel. `--fmad=false`: no contraction of `a*b + c` into a fused
/// multiply-add beyond the explicit `fma()` calls, so the GPU computes what the CPU computes.
pub const NVRTC_OPTIONS: [&str; 3] = ["--gpu-architecture=compute_70", "--std=c++14", "--fmad=false"];

/// A kernel: its entry point and its source file.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// The `extern "C" __global__` entry point.
    pub entry: &'static str,
    /// File name.
    pub file: &'static str,
    /// Source.
    pub source: &'static str,
}

/// Every kernel.
pub const KERNELS: [Kernel; 3] = [
    Kernel { entry: "diagonal_lrd", file: "diagonal_lrd.cu", source: include_str!("../../kernels/diagonal_lrd.cu") },
    Kernel { entry: "tail_sums", file: "tail_sums.cu", source: include_str!("../../kernels/tail_sums.cu") },
    Kernel { entry: "interaction", file: "interaction.cu", source: include_str!("../../kernels/interaction.cu") },
];

/// The single source NVRTC compiles for `kernel`: the prelude, the vecmath and Philox headers
/// and the kernel, with their `#include`s resolved in place.
pub fn nvrtc_program(kernel: &Kernel) -> String {
    let strip = |src: &str| -> String { src.lines().filter(|l| !l.trim_start().starts_with("#include")).map(|l| format!("{l}\n")).collect() };
    format!("{}\n{}\n{}\n{}", PRELUDE.1, strip(VECMATH.1), strip(PHILOX.1), strip(kernel.source))
}

/// Largest state size the LRD kernel accepts (its per-thread arrays).
pub const MAX_MODES: usize = 64;
/// Largest state size the interaction kernel accepts.
pub const MAX_STATE: usize = 32;

/// Rejects a state size above a kernel's limit (its per-thread arrays).
pub fn ensure_fits(size: usize, limit: usize, kernel: &str) -> Result<()> {
    if size > limit {
        return Err(Error::InvalidParameter(format!("the {kernel} kernel takes a state of at most {limit}, not {size}")));
    }
    Ok(())
}

/// Values per path in a kernel's two output buffers: the summary, and each of the m trace rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLayout {
    /// Summary values per path.
    pub summary: usize,
    /// Values per trace row (m rows per path).
    pub trace_row: usize,
}

impl OutputLayout {
    /// Buffer lengths `(summary, trace)` for `paths` paths and `marks` trace rows each.
    pub fn lengths(self, paths: usize, marks: usize) -> (usize, usize) {
        (self.summary * paths, self.trace_row * paths * marks)
    }
}

/// `diagonal_lrd`: [log‖B̄‖, min margin, argmin k, S_K, log‖LRD_K‖, Σ_k log‖LRD_k‖] and (k, S_k, log‖LRD_k‖).
pub const DIAGONAL_OUTPUT: OutputLayout = OutputLayout { summary: 6, trace_row: 3 };
/// `interaction`: [log‖v₀‖, log growth, log growth after burn-in, increases] and (k, log‖Φ(k)v₀‖).
pub const INTERACTION_OUTPUT: OutputLayout = OutputLayout { summary: 4, trace_row: 2 };

/// Paths from the LRD kernel's outputs ([`DIAGONAL_OUTPUT`]).
pub fn diagonal_paths(summary: &[f64], trace: &[f64], n: usize, m: usize) -> Vec<DiagonalLrdPath> {
    (0..n)
        .map(|p| {
            let (ns, nt) = (DIAGONAL_OUTPUT.summary, DIAGONAL_OUTPUT.trace_row);
            let v = &summary[ns * p..ns * (p + 1)];
            let tr = (0..m).map(|i| { let r = &trace[nt * (p * m + i)..nt * (p * m + i + 1)]; (r[0] as u64, r[1], r[2]) }).collect();
            DiagonalLrdPath { log_bbar: v[0], min_margin: v[1], argmin_k: v[2] as u64, s_final: v[3], log_lrd_final: v[4], sum_log_lrd: v[5], trace: tr }
        })
        .collect()
}

/// The interaction kernel's `(start, t)` arguments for a job.
pub fn interaction_start(job: &InteractionJob) -> (i32, u64) {
    match job.start {
        Start::Lrd { t } => (0, t),
        Start::Random => (1, 0),
        Start::Ones => (2, 0),
    }
}

/// Paths from the interaction kernel's outputs ([`INTERACTION_OUTPUT`]).
pub fn interaction_paths(summary: &[f64], trace: &[f64], n: usize, m: usize) -> Vec<InteractionPath> {
    (0..n)
        .map(|p| {
            let (ns, nt) = (INTERACTION_OUTPUT.summary, INTERACTION_OUTPUT.trace_row);
            let v = &summary[ns * p..ns * (p + 1)];
            let tr = (0..m).map(|i| (trace[nt * (p * m + i)] as u64, trace[nt * (p * m + i) + 1])).collect();
            InteractionPath { log_v0: v[0], log_growth: v[1], log_growth_after_burn_in: v[2], increases: v[3] as u64, trace: tr }
        })
        .collect()
}

/// Rows of the tail-sum kernel's output (`n_times` values per sample).
pub fn tail_rows(out: &[f64], n_times: usize) -> Vec<Vec<f64>> {
    out.chunks(n_times).map(<[f64]>::to_vec).collect()
}
