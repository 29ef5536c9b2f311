//! The objects the theorems talk about, written once, in f64, with no I/O.
//!
//! Models that are differentiated are generic over [`Real`](crate::math::Real), so the same
//! code runs on values and on dual numbers (exact derivatives).
//!
//! | model | type | papers |
//! |---|---|---|
//! | ZOH / Euler discretisation | [`discretize`] | 004 §2.1, 000 eq 5 |
//! | diagonal SSM: S4D (fixed Δ) and S6 (Δ = softplus(w x + b), input-dependent B) | [`DiagonalSsm`] | 000 eq 6–7, 004 eq 9–10 |
//! | dense-A SSM | [`DenseSsm`] | 004 eq 2, Corollary 1 |
//! | softmax attention, causal and full, 004's Q/K convention | [`Attention`] | 004 eq 5–6, 000 App. B |
//! | interaction-term SSM | [`InteractionSsm`] | 004 eq 13–16 |
//! | Mamba S6 selective scan over d channels (forward) | [`selective_scan()`] | 000 eq 6–7 |
//! | one-layer mixers of 000 Table 2: Mamba, Mamba-2, S4D, Mamba-Δᵀ, gate, readout | [`mixer`] | 000 eq 14–15 |
//! | 003's vector-input selective SSM (eq 1), its unrolled form (eqs 4–6) and the Mamba block (eqs 2–3) | [`vector_ssm`] | 003 §3 |
//! | 002's simplified Mamba (theory model) and its exact gradients | [`recall_toy`] | 002 Sec. 4, App. D |
//! | 003's SiLU gadgets: multiplier, ReLU-MLP blocks, linear map, select, indicators; p-bit precision | [`gadgets`] | 003 App. A.3, Lemmas 1–5 |
//! | 003's dynamic programs (LCS, edit distance, m-local recurrences) and their chain-of-thought layout, in integers | [`dp`] | 003 §5, Assumption 2 |
//! | 003's chain-of-thought machine for two-string DPs (Theorem 3, repaired) | [`cot_machine`] | 003 §5, App. A.3 |
//! | 003's windowed machine for m-local DPs (Theorem 4) | [`windowed`] | 003 §5, App. A.4 |
//! | SISO diagonal and companion (controllable canonical) forms, exact or f64 | [`companion`] | 001 App. C.3 eqs 19–20 |
//! | MIMO linear systems, both causal conventions, Kalman predictor | [`lti`] | 001 §2, App. C.3 eqs 21–24 |
//! | attention as a nilpotent system, B'MOJO-F, the interleaved window | [`bmojo`] | 001 Sec. 3.1, 3.3, eq 9, App. B.2 |
//! | linear attention and its realizations (12), (13), (18) | [`linear_attention`] | 001 App. C.1–C.2.1 |
//! | innovation selection and the eidetic memory | [`eidetic`] | 001 Sec. 3, Algorithm 1 |
//!
//! The field's models beyond the five papers, each over [`Real`](crate::math::Real) (so they run
//! on enclosures and carry derivatives) and tested against an independent computation:
//!
//! | model | type | source |
//! |---|---|---|
//! | diagonal scan with given per-step decays, real or complex, and its unrolled sum | [`diagonal_scan`] | the loop of every gated linear RNN |
//! | Mamba-2's SSD: recurrence, semiseparable matrix, chunked algorithm | [`Ssd`] | Dao & Gu 2024, §§3–6 |
//! | S4's DPLR matrix Λ − PP*, S4D-Lin / S4D-Inv, bilinear and ZOH, kernels | [`Dplr`] | Gu et al. 2022 (S4 §3; S4D §4) |
//! | LRU: exponential parameterisation, γ-normalisation, ring initialisation | [`Lru`] | Orvieto et al. 2023, §3 |
//! | the (gated) delta rule | [`DeltaNet`] | Schlag et al. 2021; Yang et al. 2024, 2025 |

#[cfg(feature = "quickcheck")]
mod arbitrary;
pub mod attention;
pub mod bmojo;
pub mod companion;
pub mod cot_machine;
pub mod delta_net;
pub mod dense;
pub mod diagonal;
pub mod discretize;
pub mod dp;
pub mod eidetic;
pub mod gadgets;
pub mod interaction;
pub mod linear_attention;
pub mod lru;
pub mod lti;
pub mod mixer;
pub mod recall_toy;
pub mod s4;
pub mod scan;
pub mod selective_scan;
pub mod ssd;
pub mod vector_ssm;
pub mod windowed;

pub use attention::Attention;
pub use delta_net::DeltaNet;
pub use dense::DenseSsm;
pub use diagonal::{log_lrd_norm, DeltaRule, DiagonalSsm};
pub use discretize::Discretization;
pub use interaction::{InteractionSequence, InteractionSsm, StepRule};
pub use lru::Lru;
pub use s4::{Discrete, Dplr, S4Discretization, S4dInit};
pub use scan::{diagonal_scan, diagonal_scan_unrolled};
pub use selective_scan::{selective_scan, ScanInputs};
pub use ssd::Ssd;
