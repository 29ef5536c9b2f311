//! 003 eqs (1), (5), (6): the selective SSM's recurrence equals its unrolled (linear-attention)
//! form, with the transpose the printed (5) omits.
//!
//! * `003.eq6` (Theorem): on random vector SSMs (d, d_h ≤ 4, A ≤ 0, N up to 10⁴), the recurrence
//!   and the unrolled sum `y_i[k] = Σ_{j≤i} Σ_n c_i[n]·(∏_{t=j+1}^{i} Ã_t[n,k])·b_j[n]·Δ_j[k]x_j[k] + d[k]x_i[k]`
//!   agree within their rounding. Control: products from Ã_j (off by one).
//! * `003.eq6.alpha.printed` (Erratum, typo) / `003.eq6.alpha` (Theorem): the weights of (6),
//!   α_j = ∏_{k=j+1}^{i} a_k with decays a_k ∈ (0, 1], satisfy α_{j−1} ≤ α_j ≤ α_i = 1, not the
//!   printed α_{j−1} ≥ α_j. Both are computed on enclosures (`math::Interval`), so a refutation
//!   is certified.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding};
use crate::claim::{Scale, Tolerance};
use crate::math::Interval;
use crate::mc::{Stream, StreamKey};
use crate::model::vector_ssm::{unrolled_at, DenseState, Products, VectorSsm};
use crate::strategy::{grid_matrix, grid_vec, log_uniform, real};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A random vector SSM and a length; the inputs x_i ∈ [−M, M]^d come from the Philox stream
/// `StreamKey::new(inputs_seed, "003.eq6")`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unrolled {
    /// The weights.
    pub ssm: VectorSsm,
    /// N.
    pub len: usize,
    /// M.
    pub amplitude: f64,
    /// The inputs' stream.
    pub inputs_seed: u64,
}

fn instances() -> impl Strategy<Value = Unrolled> + Clone {
    (1usize..=4, 1usize..=4)
        .prop_flat_map(|(d, dh)| {
            let a = grid_matrix(dh, d, -2.0, 0.0, 1.0 / 64.0);
            (
                a,
                grid_matrix(dh, d, -1.0, 1.0, 1.0 / 64.0),
                grid_matrix(dh, d, -1.0, 1.0, 1.0 / 64.0),
                grid_matrix(d, d, -1.0, 1.0, 1.0 / 64.0),
                grid_vec(d, -1.0, 1.0, 1.0 / 64.0),
            )
        })
        .prop_flat_map(|(a, w_b, w_c, w_delta, skip)| {
            let ssm = VectorSsm { a, w_b, w_c, w_delta, skip };
            (Just(ssm), log_uniform(1.0, 1e4), real(0.1, 10.0), any::<u64>())
        })
        .prop_map(|(ssm, n, amplitude, inputs_seed)| Unrolled { ssm, len: n as usize, amplitude, inputs_seed })
}

fn agrees(u: &Unrolled, products: Products) -> Eval {
    let d = u.ssm.channels();
    let mut s = Stream::new(StreamKey::new(u.inputs_seed, "003.eq6"), 0);
    let steps: Vec<_> = (0..u.len).map(|_| u.ssm.step(&(0..d).map(|_| u.amplitude * (2.0 * s.uniform() - 1.0)).collect::<Vec<_>>())).collect();
    let mut state = DenseState::new(u.ssm.state(), d);
    let ys: Vec<Vec<f64>> = steps.iter().map(|st| state.advance(&u.ssm.a, &u.ssm.skip, st)).collect();
    let n = u.len;
    let dh = u.ssm.state();
    let mut worst = Eval::Margin(f64::INFINITY);
    for i in [0, n / 3, n / 2, n - 1] {
        let (y, abs) = unrolled_at(&u.ssm.a, &u.ssm.skip, &steps, i, products);
        // Rounding (proofs/copy.md): term j passes i − j decays (exp and product, 2 roundings
        // each) and additions in the recurrence, and a log-domain sum of i − j exponents in the
        // unrolled form (error γ_{i−j}·|Σ ΔA| ≤ γ_i·|Σ ΔA|, and |L|e^{L} ≤ 1/e for L ≤ 0), then
        // two sums of (i+1)·d_h terms: γ_{3i + 2(i+1)d_h + 8}·Σ|terms| + γ_i/e per unit |term|.
        let rtol = Rounding::gamma(3 * i + 2 * (i + 1) * dh + 8) + Rounding::gamma(i + 1);
        for k in 0..d {
            worst = worst.min(Eval::close((y[k] - ys[i][k]).abs(), Scale(abs[k]), Tolerance::relative(rtol).plus_absolute(f64::MIN_POSITIVE)));
        }
    }
    worst
}

/// `003.eq6` (theorem): §3 eq (1) and §4.1 eqs (5), (6) (Π_jᵀ for the printed Π_j: proofs/copy.md).
fn claim_eq6() -> Claim {
    Claim::theorem(
            "003.eq6",
            super::FAMILY,
            "The recurrence (1) equals the unrolled form (5) read with Π_jᵀ, y_i[k] = Σ_{j≤i} Σ_n c_i[n]·exp(Σ_{t=j+1}^{i} Δ_t[k]A[n,k])·b_j[n]·Δ_j[k]x_j[k] + d[k]x_i[k], \
             within γ_{3i+2(i+1)d_h+8} + γ_{i+1} of Σ|terms| (decays in the log domain), on random SSMs with d, d_h ≤ 4, \
             A ∈ [−2, 0], weights in [−1, 1], x ∈ [−M, M]^d, N up to 10⁴, at four positions each.",
            property([100, 1000, 10000], instances(), |u: &Unrolled| agrees(u, Products::FromNext)),
        )
        .source(Paper::FreeLunch, "§3 eq (1) and §4.1 eqs (5), (6) (Π_jᵀ for the printed Π_j: proofs/copy.md)", "y_i = (Δ_i⊙x_i)b_iᵀc_i + Σ_{j=1}^{i−1}[Π_j ⊙ (Δ_j⊙x_j)b_jᵀ]c_i, Π_j = Ã_i ⊙ Ã_{i−1} ⊙ … ⊙ Ã_{j+1}.")
        .correction("Π_j ∈ ℝ^{d_h×d} but (Δ_j⊙x_j)b_jᵀ ∈ ℝ^{d×d_h}: read Π_jᵀ. With scalar decays this is (6); the text's 'α_{j−1} ≥ α_j' is reversed (α_{j−1} = a_j α_j ≤ α_j).")
        .control("products from Ã_j (off by one: ∏_{t=j}^{i})", property([100, 1000, 10000], instances(), |u: &Unrolled| agrees(u, Products::FromOwn)))
}

/// The decays a_1 … a_i of (6) and a position j (2 ≤ j ≤ i): `α_j = ∏_{k=j+1}^{i} a_k`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// a_1 … a_i (Mamba's scalar decays e^{Δ_k A}).
    pub decays: Vec<f64>,
    /// The position j compared with j − 1.
    pub j: usize,
}

impl Weights {
    /// α_j = ∏_{k=j+1}^{i} a_k (α_i = 1), enclosed.
    pub fn alpha(&self, j: usize) -> Interval {
        self.decays[j..].iter().fold(Interval::exact(1.0), |p, &a| p * Interval::exact(a))
    }
}

/// Decays on a 1/64 grid in [1/64, `top`] (63/64 for Mamba's decays in (0, 1); above 1 for the
/// control), i up to 16, and a position 2 ≤ j ≤ i.
fn weights(top: f64) -> impl Strategy<Value = Weights> + Clone {
    (2usize..=16).prop_flat_map(move |i| (grid_vec(i, 1.0 / 64.0, top, 1.0 / 64.0), 2..=i)).prop_map(|(decays, j)| Weights { decays, j })
}

/// "α_{j−1} ≥ α_j" (`printed`) or "α_{j−1} ≤ α_j ≤ 1", on enclosures.
fn alpha_order(w: &Weights, printed: bool) -> Eval {
    let (before, at) = (w.alpha(w.j - 1), w.alpha(w.j));
    if printed {
        Eval::ge_by(before, at, Scale(1.0), Tolerance::NONE)
    } else {
        Eval::le_by(before, at, Scale(1.0), Tolerance::NONE).min(Eval::le_by(at, Interval::exact(1.0), Scale(1.0), Tolerance::NONE))
    }
}

const ALPHA_SOURCE: &str = "where α_j = Π_{k=j+1}^{i} a_k for j ≤ i − 1 and α_i = 1 … Considering α_{j−1} ≥ α_j and α_j ∈ [0, 1] for all j ≤ i, the main difference is that each term in Eq (6) is weighted by a coefficient α_j to achieve the forgetting of inputs at longer distances";

/// `003.eq6.alpha.printed` (erratum): §4.1, after eq (6).
fn claim_eq6_alpha_printed() -> Claim {
    Claim::erratum(
        "003.eq6.alpha.printed",
        super::FAMILY,
        "The weights of (6), α_j = ∏_{k=j+1}^{i} a_k with decays a_k ∈ (0, 1) (a 1/64 grid, i ≤ 16), satisfy α_{j−1} ≥ α_j for 2 ≤ j ≤ i \
         (products enclosed in interval arithmetic).",
        property([200, 2000, 20000], weights(63.0 / 64.0), |w: &Weights| alpha_order(w, true)).sides("α_{j−1} (enclosed)", "α_j (enclosed)"),
    )
    .source(Paper::FreeLunch, "§4.1, after eq (6)", ALPHA_SOURCE)
    .correction("α_{j−1} = a_j α_j ≤ α_j ≤ α_i = 1 (003.eq6.alpha): older inputs get the smaller weights, which is the forgetting the sentence goes on to describe.")
    .error(
        ErrorKind::Typo,
        "§4.1 says 'Considering α_{j−1} ≥ α_j and α_j ∈ [0, 1] for all j ≤ i': with α_j = Π_{k=j+1}^{i} a_k and decays in (0, 1], α_{j−1} = a_j α_j ≤ α_j, so the inequality is reversed; the same sentence's 'forgetting of inputs at longer distances' needs the corrected direction (003.eq6.alpha). Every decay below 1 refutes the printed one.",
    )
    .holds_instead(&["003.eq6.alpha"])
}

/// `003.eq6.alpha` (theorem): §4.1, after eq (6), corrected.
fn claim_eq6_alpha() -> Claim {
    Claim::theorem(
        "003.eq6.alpha",
        super::FAMILY,
        "The weights of (6), α_j = ∏_{k=j+1}^{i} a_k with decays a_k ∈ (0, 1) (a 1/64 grid, i ≤ 16), satisfy α_{j−1} ≤ α_j ≤ 1 for 2 ≤ j ≤ i \
         (products enclosed in interval arithmetic).",
        property([200, 2000, 20000], weights(63.0 / 64.0), |w: &Weights| alpha_order(w, false)).sides("α_{j−1}, α_j (enclosed)", "α_j, 1"),
    )
    .source(Paper::FreeLunch, "§4.1, after eq (6) (the order corrected)", ALPHA_SOURCE)
    .control("decays up to 5/4 (an unstable A > 0)", property([200, 2000, 20000], weights(1.25), |w: &Weights| alpha_order(w, false)))
}

/// Registers 003.eq6, 003.eq6.alpha.printed and 003.eq6.alpha.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_eq6());
    r.add(claim_eq6_alpha_printed());
    r.add(claim_eq6_alpha());
}
