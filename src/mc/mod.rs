//! The Monte Carlo engine: a counter-based RNG (Philox4x32-10) keyed by
//! (seed, stream label, instance index), a Box–Muller normal transform, and the [`Backend`]
//! seam that runs whole jobs (many independent sample paths) on the CPU with rayon, and on a
//! GPU in a later backend, on the same streams.
//!
//! Determinism: every path draws only from its own counter range and results are returned in
//! path order, so the same seed gives bit-identical results whatever the thread count.

pub mod backend;
pub mod choice;
pub mod cpu;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod job;
pub mod jobs;
pub mod kernels;
mod lanes;
pub mod normals;
pub mod paths;
pub mod philox;
pub mod portable;
pub mod shim;
pub mod stream;
mod transition;

pub use backend::{Backend, Launcher, RunJob};
pub use choice::BackendChoice;
pub use cpu::CpuBackend;
pub use job::{AnyJob, Job, JobKind};
pub use shim::ShimBackend;
pub use stream::{fnv1a64, Stream, StreamKey};
