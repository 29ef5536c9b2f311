//! The engine's integration tests, one module per subject, in one test crate: one build and
//! one link of the library for all of them, where a binary per file linked it sixteen times.
//! `cargo test --test integration shard::` runs one module. (The claims' own verdicts are
//! `tests/each_claim/main.rs`, and the example conjectures `tests/conjectures.rs`: both have
//! harnesses of their own.)

#[cfg(feature = "train")]
mod block_reference;
mod claims;
mod cli;
mod common;
mod conjecture_controls;
mod copy_counterexamples;
mod cot_counterexamples;
mod counterexamples;
mod determinism;
mod falsification;
mod haar_counterexamples;
mod kernels;
#[cfg(feature = "train")]
mod mamba2_reference;
mod never_hangs;
mod nvrtc;
#[cfg(feature = "quickcheck")]
mod quickcheck_interop;
mod realization_counterexamples;
mod recall_counterexamples;
mod reference;
mod schema;
mod shard;
mod stability_counterexamples;
mod thin_corners;
mod witnesses;
