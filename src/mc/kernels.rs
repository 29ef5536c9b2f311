//! The CUDA sources of `kernels/`, embedded as strings (compiled by NVRTC at run time on a GPU
//! machine; compiled as C++ through a shim for the CPU, see [`super::shim`]).

/// The CUDA prelude: qualifiers and constants (the CPU side is `kernels/cpu_shim.h`).
pub const PRELUDE: (&str, &str) = ("cuda_prelude.cuh", include_str!("../../kernels/cuda_prelude.cuh"));
/// Philox4x32-10, keyed streams and Box–Muller, shared by every kernel.
pub const PHILOX: (&str, &str) = ("philox.cuh", include_str!("../../kernels/philox.cuh"));

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

/// The single source NVRTC compiles for `kernel`: the prelude, the Philox header and the
/// kernel, with the kernel's `#include "philox.cuh"` resolved in place.
pub fn nvrtc_program(kernel: &Kernel) -> String {
    let body: String = kernel.source.lines().filter(|l| !l.trim_start().starts_with("#include")).map(|l| format!("{l}\n")).collect();
    format!("{}\n{}\n{}", PRELUDE.1, PHILOX.1, body)
}
