//! 001 Sec. 3.1, 3.3 and App. B.2, C.1–C.3: attention as a realization.
//!
//! * `001.c6` (Theorem) / `001.c6.unmasked` (Erratum, reading) / `001.c6.window` /
//!   `001.c6.deadbeat`: softmax attention is the nilpotent system of eq (9) — with a validity
//!   mask, in Algorithm 1's convention (window N), or Eq (1)'s (window N + 1); deadbeat in N steps.
//! * `001.c7.linear` (Erratum, false statement): linear attention's state does not grow with t.
//! * `001.c8`, `001.c9` (Theorems): linear attention as a recurrence; the local–global identity.
//! * `001.c10.printed` (Erratum, construction), `001.c10` (Theorem): realization (18) and its
//!   corrected read-out; `001.c10.window.printed` (Erratum, typo), `001.c10.window` (Theorem):
//!   realization (13) with K + 1 slots and with K − 1.
//! * `001.c14` (Theorem): B'MOJO-F with a zero last row is attention.
//! * `001.c15` (Theorem) and `001.c15.jamba` (Conjecture): hybrid stacks.
//! * `001.c20` (Theorem): the chunked interleaved window is uniform.
//! * `001.perm` (Theorem): no positional encodings — the read-out is invariant to the order of
//!   the memory tokens.

use super::canonical::{diagonal_of_order, DiagonalCase};
use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Rounding};
use crate::claim::{Scale, Tolerance};
use crate::math::linalg::mat_from_rows;
use crate::math::{interval, Interval};
use crate::model::bmojo::{
    attend, attention_matrix, interleaved, matvec, sliding_window_attention, uniform_visible, window_of, BmojoF, Convention, KvProjection, Slot,
};
use crate::model::companion::{exact, to_f64, Companion};
use crate::model::linear_attention::{LinearAttention, Readout, ShiftRegister};
use crate::strategy::grid_matrix;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Projections (d ≤ 4 inputs, d_k, d_v ≤ 3, entries on a 1/8 grid in [−1, 1]), an order N ≤ 8
/// and inputs (T ≤ 24, entries on a 1/16 grid in [−2, 2]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttnCase {
    /// W_Q, W_K, W_V.
    pub proj: KvProjection,
    /// N (the window, or K for linear attention).
    pub order: usize,
    /// u_0..u_{T−1}.
    pub u: Vec<Vec<f64>>,
}

/// [`AttnCase`]s with `T ≤ max_len`.
pub fn attn_cases(max_len: usize) -> impl Strategy<Value = AttnCase> + Clone {
    (1usize..=4, 1usize..=3, 1usize..=3, 1usize..=8, 1..=max_len)
        .prop_flat_map(|(d, dk, dv, n, t)| {
            (
                grid_matrix(dk, d, -1.0, 1.0, 0.125),
                grid_matrix(dk, d, -1.0, 1.0, 0.125),
                grid_matrix(dv, d, -1.0, 1.0, 0.125),
                Just(n),
                grid_matrix(t, d, -2.0, 2.0, 0.0625),
            )
        })
        .prop_map(|(wq, wk, wv, order, u)| AttnCase { proj: KvProjection { wq, wk, wv }, order, u })
}

impl AttnCase {
    fn vmax(&self) -> f64 {
        self.u.iter().flat_map(|x| matvec(&self.proj.wv, x)).fold(0.0, |m, v| m.max(v.abs()))
    }
    /// Two evaluations of a softmax average of at most `terms` values, each within γ_{terms+d_k+2}
    /// of the exact average (scores, exponentials, sums, division), differ by at most twice that
    /// times max|v|.
    fn softmax_tol(&self, terms: usize) -> f64 {
        2.0 * Rounding::gamma(terms + self.proj.dk() + self.u[0].len() + 4) * self.vmax()
    }
}

/// The largest entrywise gap of two output sequences.
fn gap(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter().zip(b).flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs())).fold(0.0, f64::max)
}

/// Eq (9) written with the matrix: `x_t = A_ATT x_{t−1} + [0; …; 0; b(u_t)]` (Algorithm 1's
/// convention), softmax over the blocks (only the written ones when `masked`).
fn nilpotent_system(c: &AttnCase, masked: bool) -> Vec<Vec<f64>> {
    let w = c.proj.dk() + c.proj.wv.len();
    let a = attention_matrix(c.order, w);
    let mut x = vec![0.0; c.order * w];
    c.u.iter()
        .enumerate()
        .map(|(t, ut)| {
            x = matvec(&a, &x);
            let n = x.len();
            x[n - w..].copy_from_slice(&c.proj.kv(ut));
            let valid = if masked { (t + 1).min(c.order) } else { c.order };
            let blocks: Vec<&[f64]> = x.chunks(w).skip(c.order - valid).collect();
            c.proj.read(ut, &blocks)
        })
        .collect()
}

fn attention_reduction(masked: bool, window_shift: isize) -> impl Fn(&AttnCase) -> Eval + Clone {
    move |c: &AttnCase| {
        let window = (c.order as isize + window_shift).max(1) as usize;
        Eval::le_by(
            gap(&nilpotent_system(c, masked), &sliding_window_attention(&c.proj, &c.u, window)),
            0.0,
            Scale(c.vmax()),
            Tolerance::absolute(c.softmax_tol(c.order)),
        )
    }
}

fn strictly_causal(window_shift: usize) -> impl Fn(&AttnCase) -> Eval + Clone {
    move |c: &AttnCase| {
        let sys = BmojoF::attention(c.proj.clone(), c.order, Convention::StrictlyCausal, true);
        Eval::le_by(
            gap(&sys.run(&c.u), &sliding_window_attention(&c.proj, &c.u, c.order + window_shift)),
            0.0,
            Scale(c.vmax()),
            Tolerance::absolute(c.softmax_tol(c.order + 1)),
        )
    }
}

/// `001.c6.deadbeat`: `A_ATT^N = 0`, `A_ATT^{N−1} ≠ 0` (0/1 entries: exact), and changing `u_s`
/// leaves every `y_t` with `t − s ≥ N − early` unchanged, bit for bit.
fn deadbeat(early: usize) -> impl Fn(&(AttnCase, usize)) -> Eval + Clone {
    move |(c, s): &(AttnCase, usize)| {
        let w = c.proj.dk() + c.proj.wv.len();
        let a = mat_from_rows(&attention_matrix(c.order, w));
        let nilpotent = a.pow(c.order as u32).iter().all(|v| *v == 0.0) && a.pow(c.order as u32 - 1).iter().any(|v| *v != 0.0);
        let s = s % c.u.len();
        let mut moved = c.clone();
        moved.u[s].iter_mut().for_each(|v| *v += 1.0);
        let (y, y2) = (nilpotent_system(c, true), nilpotent_system(&moved, true));
        let from = (s + c.order).saturating_sub(early);
        let change = gap(&y[from.min(y.len())..], &y2[from.min(y.len())..]);
        Eval::le_by(change + f64::from(u8::from(!nilpotent)), 0.0, Scale(c.vmax().max(1.0)), Tolerance::NONE)
    }
}

/// A linear-attention case: the projections, a window K ≤ 8 and inputs.
fn linear(c: &AttnCase) -> LinearAttention {
    LinearAttention { proj: c.proj.clone() }
}

/// Two evaluations of a linear-attention average over `terms` positive weights: numerator and
/// denominator each within γ_{terms+d_k+2} of their sums of absolute terms, so the outputs
/// differ by at most 4γ_{terms+d_k+3}·max|v|.
fn linear_tol(c: &AttnCase, terms: usize) -> f64 {
    4.0 * Rounding::gamma(terms + c.proj.dk() + c.u[0].len() + 4) * c.vmax()
}

fn register_with(c: &AttnCase, reg: ShiftRegister, window: Option<usize>) -> Eval {
    let la = linear(c);
    let terms = window.unwrap_or(c.u.len()) + reg.slots;
    Eval::le_by(gap(&la.shift_register(&c.u, reg), &la.direct(&c.u, window)), 0.0, Scale(c.vmax()), Tolerance::absolute(linear_tol(c, terms)))
}

/// [`register_with`]'s relation on enclosures with no rounding allowance: the realization's
/// outputs equal eq (11)'s exactly (the model on [`Interval`]s; weights and inputs exact).
fn register_enclosed(c: &AttnCase, reg: ShiftRegister, window: Option<usize>) -> Eval {
    let la = linear(c);
    let (realized, direct) = (la.shift_register::<Interval>(&c.u, reg), la.direct::<Interval>(&c.u, window));
    let gap = realized.iter().flatten().zip(direct.iter().flatten()).map(|(&a, &b)| (a - b).abs()).fold(Interval::exact(0.0), Interval::max);
    Eval::le_by(gap, Interval::exact(0.0), Scale(c.vmax()), Tolerance::NONE)
}

/// Realization (13) as printed: K + 1 slots, no integrator, all slots read.
fn printed13(c: &AttnCase) -> ShiftRegister {
    ShiftRegister { slots: c.order + 1, integrator: false, readout: Readout::AllSlots }
}

/// `001.c9`: `P_t = P_{t−K} + Σ_{i=0}^{K−1} φ(k_{t−i})v_{t−i}ᵀ` (and the normaliser column) for
/// every t ≥ K, with `terms` window terms (K for the claim); both sides within γ_{t+1} of the
/// sum of absolute terms.
fn local_global(c: &AttnCase, terms: usize) -> Eval {
    let la = linear(c);
    let tv = la.terms::<f64>(&c.u);
    let k = c.order;
    let prefix = |t: usize| {
        tv[..=t].iter().fold(vec![0.0; tv[0].len()], |mut acc, x| {
            acc.iter_mut().zip(x).for_each(|(a, b)| *a += b);
            acc
        })
    };
    let mut worst = Eval::Margin(f64::INFINITY);
    for t in k..tv.len() {
        let mut rhs = prefix(t - k);
        for x in &tv[t + 1 - terms..=t] {
            rhs.iter_mut().zip(x).for_each(|(a, b)| *a += b);
        }
        let lhs = prefix(t);
        let abs: f64 = tv[..=t].iter().flatten().map(|v| v.abs()).sum();
        let err = lhs.iter().zip(&rhs).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        worst = worst.min(Eval::le_by(err, 0.0, Scale(abs), Tolerance::absolute(2.0 * Rounding::gamma(t + 2) * abs)));
    }
    worst
}

/// `001.c15`: a two-layer hybrid — an LTI diagonal (frozen Mamba) layer on a scalar channel,
/// then softmax attention with window N on `[u_t, y_t]` — against its B'MOJO reductions: the
/// companion form of the first layer (exact) and B'MOJO-F with a zero last row for the second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridCase {
    /// The Mamba-reduced layer (its input `u` is the scalar channel).
    pub ssm: DiagonalCase,
    /// The attention layer (input width 2: the token and the SSM output).
    pub attn: AttnCase,
}

fn hybrid_cases() -> impl Strategy<Value = HybridCase> + Clone {
    ((1usize..=6).prop_flat_map(|n| diagonal_of_order(n, -0.95, 0.95, false)), 1usize..=3, 1usize..=3, 1usize..=8)
        .prop_flat_map(|(ssm, dk, dv, n)| {
            (Just(ssm), grid_matrix(dk, 2, -1.0, 1.0, 0.125), grid_matrix(dk, 2, -1.0, 1.0, 0.125), grid_matrix(dv, 2, -1.0, 1.0, 0.125), Just(n))
        })
        .prop_map(|(ssm, wq, wk, wv, order)| {
            let u = ssm.u.iter().map(|v| vec![*v, 0.0]).collect();
            HybridCase { ssm, attn: AttnCase { proj: KvProjection { wq, wk, wv }, order, u } }
        })
}

fn hybrid(c: &HybridCase, flip: bool) -> Eval {
    let sys = c.ssm.exact();
    let mut comp = Companion::from_diagonal(&sys);
    if flip {
        comp.alpha[0] = -comp.alpha[0].clone() + exact(0.125);
    }
    let u: Vec<_> = c.ssm.u.iter().map(|v| exact(*v)).collect();
    let layer = |y: Vec<num_rational::BigRational>| -> AttnCase {
        let u = c.ssm.u.iter().zip(&y).map(|(a, b)| vec![*a, to_f64(b)]).collect();
        AttnCase { u, ..c.attn.clone() }
    };
    let (reference, reduced) = (layer(sys.simulate(&u)), layer(comp.simulate(&u)));
    let bmojo = BmojoF::attention(c.attn.proj.clone(), c.attn.order, Convention::Inclusive, true);
    let scale = reference.vmax().max(reduced.vmax());
    Eval::le_by(
        gap(&bmojo.run(&reduced.u), &sliding_window_attention(&reference.proj, &reference.u, c.attn.order)),
        0.0,
        Scale(scale),
        Tolerance::absolute(2.0 * reference.softmax_tol(c.attn.order).max(reduced.softmax_tol(c.attn.order))),
    )
}

/// `001.c20`: for w ≤ 8, m ≤ 4 memory tokens per chunk and len ≤ 40 raw tokens, a causal window
/// of `w + m − short` positions over the interleaved sequence shows every raw token exactly the
/// last w raw tokens and its own chunk's memory; and the attention output over the window equals
/// masked attention over that set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChunkCase {
    /// Chunk length w.
    pub w: usize,
    /// Memory tokens per chunk m = m_f + m_e.
    pub m: usize,
    /// Raw tokens.
    pub len: usize,
    /// The projections and the token vectors: raw tokens first, then the memory tokens chunk by
    /// chunk (in `attn.u`).
    pub attn: AttnCase,
}

fn chunk_cases() -> impl Strategy<Value = ChunkCase> + Clone {
    (1usize..=8, 0usize..=4, 1usize..=40, 1usize..=3, 1usize..=3)
        .prop_flat_map(|(w, m, len, dk, dv)| {
            let tokens = len + m * len.div_ceil(w);
            (
                Just((w, m, len)),
                grid_matrix(dk, 2, -1.0, 1.0, 0.125),
                grid_matrix(dk, 2, -1.0, 1.0, 0.125),
                grid_matrix(dv, 2, -1.0, 1.0, 0.125),
                grid_matrix(tokens, 2, -2.0, 2.0, 0.0625),
            )
        })
        .prop_map(|((w, m, len), wq, wk, wv, u)| ChunkCase { w, m, len, attn: AttnCase { proj: KvProjection { wq, wk, wv }, order: w + m, u } })
}

impl ChunkCase {
    fn vector(&self, s: &Slot) -> &[f64] {
        match *s {
            Slot::Token(g) => &self.attn.u[g],
            Slot::Memory { chunk, j } => &self.attn.u[self.len + chunk * self.m + j],
        }
    }
}

fn chunk_uniform(c: &ChunkCase, short: usize) -> Eval {
    let window = (c.w + c.m).saturating_sub(short).max(1);
    let seq = interleaved(c.len, c.w, c.m);
    let mut wrong = 0usize;
    let mut out_gap = 0.0f64;
    for g in 0..c.len {
        let in_order = window_of(&seq, g, window);
        let mut seen = in_order.to_vec();
        seen.sort();
        let want = uniform_visible(c.w, c.m, g);
        if seen != want {
            wrong += 1;
            continue;
        }
        // The interleaved window's own order, against the sorted set.
        let in_window: Vec<Vec<f64>> = in_order.iter().map(|s| c.vector(s).to_vec()).collect();
        let sorted: Vec<Vec<f64>> = want.iter().map(|s| c.vector(s).to_vec()).collect();
        let q = c.vector(&Slot::Token(g));
        out_gap = out_gap.max(gap(&[attend(&c.attn.proj, q, &in_window)], &[attend(&c.attn.proj, q, &sorted)]));
    }
    let tol = c.attn.softmax_tol(c.w + c.m);
    Eval::le_by(wrong as f64 + out_gap, 0.0, Scale(c.attn.vmax().max(1.0)), Tolerance::absolute(tol))
}

/// `001.perm`: B'MOJO's read-out over window, fading and memory tokens, against the same with
/// the memory tokens permuted (a rotation by `shift`); `positional` adds `i/8` to the first
/// coordinate of token i before projecting (the control).
fn permutation(c: &(AttnCase, usize), positional: bool) -> Eval {
    let (a, shift) = c;
    let n = a.u.len();
    let split = n / 2;
    let encode = |toks: &[Vec<f64>]| -> Vec<Vec<f64>> {
        toks.iter()
            .enumerate()
            .map(|(i, t)| {
                let mut t = t.clone();
                if positional {
                    t[0] += i as f64 / 8.0;
                }
                t
            })
            .collect()
    };
    let mut permuted = a.u.clone();
    permuted[split..].rotate_left(shift % (n - split).max(1));
    let q = &a.u[0];
    let (y, y2) = (attend(&a.proj, q, &encode(&a.u)), attend(&a.proj, q, &encode(&permuted)));
    let vmax = a.vmax() + if positional { n as f64 } else { 0.0 };
    Eval::le_by(gap(&[y], &[y2]), 0.0, Scale(vmax.max(1.0)), Tolerance::absolute(a.softmax_tol(n) + 2.0 * Rounding::gamma(n + 8) * vmax))
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.c6` (theorem): Sec. 3.1, eq (9); App. C.
fn claim_c6() -> Claim {
    Claim::theorem(
            "001.c6",
            super::FAMILY,
            "Causal softmax attention with window N (the current token and the N − 1 before it) is the nilpotent system of eq (9): \
             x_t = A_ATT x_{t−1} + [0; …; 0; (k_t, v_t)], y_t = softmax(q_tᵀK_t)V_t over the written blocks of the state (N ≤ 8, d ≤ 4, \
             d_k, d_v ≤ 3, T ≤ 24), up to the two evaluations' rounding 2γ_{N+d_k+d+4}·max|v|.",
            property(CASES, attn_cases(24), attention_reduction(true, 0)).sides("max_t ‖y_t(eq 9) − y_t(attention)‖∞", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "Sec. 3.1, eq (9); App. C", "A_ATT … B(u_t) = b_ATT(u_t) = [0; …; 0; b(u_t)] … 2V is the embedding dimension of the KV cache and N is the length of the Attention window.")
        .correction("Needs a validity mask over the blocks not yet written (or t ≥ N − 1) and Algorithm 1's time convention (window N including t); under Eq (1)'s convention the window is N + 1 (001.c6.window).")
        .control("window N − 1", property(CASES, attn_cases(24), attention_reduction(true, -1)))
}

/// `001.c6.unmasked` (erratum): Sec. 3.1, eqs (1) and (9).
fn claim_c6_unmasked() -> Claim {
    Claim::erratum(
            "001.c6.unmasked",
            super::FAMILY,
            "Attention is eq (9)'s nilpotent system read literally: zero initial state, softmax over all N blocks (no mask), equal to causal \
             window-N attention at every t.",
            property(CASES, attn_cases(24), attention_reduction(false, 0)).sides("max_t ‖y_t(eq 9, unmasked) − y_t(attention)‖∞", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "Sec. 3.1, eqs (1) and (9)", "x_{t+1} = A(u_t)x_t + B(u_t); y_t = ρ(u_t, x_t) (1) […] A(u_t) = A_ATT … (9) […] A Transformer has only short-term eidetic memory that is deadbeat in N steps: what slides “out of context” is permanently removed.")
        .correction("With a validity mask over the written blocks (or only for t ≥ N − 1) the identity is exact: 001.c6.")
        .error(
            ErrorKind::Reading,
            "Eq (9) defines the state ('A Transformer has only short-term eidetic memory that is deadbeat in N steps'), not its start or which blocks ρ reads. Read with the usual zero initial state and ρ = softmax over the whole state, the blocks not yet written are keys 0 (weight e⁰ = 1 against e^{qᵀk}) with values 0, which dilute every output for t < N − 1. Reading checked: with a validity mask (or from t ≥ N − 1) it is exact (001.c6).",
        )
        .holds_instead(&["001.c6"])
    .uncertified(crate::claim::Uncertified::FloatingPoint, "both outputs are computed in f64 (softmax attention and eq (9)'s system on nalgebra matrices, not written over Real); the violation is the weight of the unwritten blocks (keys 0, weight e⁰ = 1, values 0) diluting an output, of the order of the values, far above the derived rounding tolerance")
}

/// `001.c6.window` (theorem): Sec. 3.1, eq (1) and Algorithm 1.
fn claim_c6_window() -> Claim {
    Claim::theorem(
        "001.c6.window",
        super::FAMILY,
        "Under Eq (1)'s convention, x_{t+1} = A_ATT x_t + b(u_t) with ρ(u_t, x_t) adding the current (k_t, v_t), the nilpotent system of order N \
             (masked) is causal attention with window N + 1, up to the rounding 2γ_{N+d_k+d+5}·max|v|.",
        property(CASES, attn_cases(24), strictly_causal(1)).sides("max_t ‖y_t(Eq 1) − y_t(attention, window N + 1)‖∞", "0, plus the rounding"),
    )
    .source(Paper::Bmojo, "Sec. 3.1, eq (1) and Algorithm 1", "x_{t+1} = A(u_t)x_t + B(u_t); y_t = ρ(u_t, x_t) … (Algorithm 1) x_t ← A(u_t)x_{t−1} + b(u_t).")
    .control("window N", property(CASES, attn_cases(24), strictly_causal(0)))
}

/// `001.c6.deadbeat` (theorem): Sec. 3.1.
fn claim_c6_deadbeat() -> Claim {
    Claim::theorem(
        "001.c6.deadbeat",
        super::FAMILY,
        "Attention is deadbeat in N steps: A_ATT^N = 0 while A_ATT^{N−1} ≠ 0 (exact, 0/1 entries), and changing u_s changes no output y_t with \
             t − s ≥ N, bit for bit.",
        property(CASES, (attn_cases(24), 0usize..24), deadbeat(0)).sides("max_{t ≥ s+N} ‖Δy_t‖∞ + [A^N ≠ 0 or A^{N−1} = 0]", "0"),
    )
    .source(
        Paper::Bmojo,
        "Sec. 3.1",
        "A Transformer has only short-term eidetic memory that is deadbeat in N steps: what slides 'out of context' is permanently removed.",
    )
    .control("unchanged from lag N − 1", property(CASES, (attn_cases(24), 0usize..24), deadbeat(1)))
}

/// `001.c7.linear` (erratum): App. C.1.
fn claim_c7_linear() -> Claim {
    Claim::erratum(
            "001.c7.linear",
            super::FAMILY,
            "The state of linear attention's realization (12) 'is t': reproducing x_t = Σ_{i≤t} φ(k_i)v_iᵀ, y_t = φ(q_t)x_t (normalised, eq 11) over \
             t steps takes at least t numbers of state.",
            property(CASES, attn_cases(48), |c: &AttnCase| {
                let la = linear(c);
                let err = gap(&la.recurrent(&c.u), &la.direct(&c.u, None));
                let tol = linear_tol(c, c.u.len());
                if err > tol {
                    return Eval::Margin(1.0);
                }
                // Counts: exact, so a refutation is certified.
                Eval::ge_by(Interval::exact(la.recurrent_state_size() as f64), Interval::exact(c.u.len() as f64), Scale(c.u.len() as f64), Tolerance::NONE)
            })
            .sides("numbers in the recurrence's state, which reproduces (11) within the rounding", "t")
            // The outputs are all 0 exactly when every value is (the weights φ(q)ᵀφ(k) are
            // positive: y_1 = v_1, and inductively), so the hypothesis is decided on the values,
            // which are exact (grid entries, multiples of 1/128).
            .given("the outputs are not all 0, i.e. some value v_t = W_V u_t ≠ 0 (a shrunk instance keeps a value to carry)", |c: &AttnCase| {
                c.vmax().min(1.0) - 1e-6
            })
            .certify_given(|c: &AttnCase| {
                let wv = interval::exact_rows(&c.proj.wv);
                let value = |x: &Vec<f64>| interval::matvec(&wv, &x.iter().map(|&u| Interval::exact(u)).collect::<Vec<_>>());
                let largest = c.u.iter().flat_map(value).map(Interval::abs).fold(Interval::exact(0.0), Interval::max);
                Eval::gt(largest, Interval::exact(0.0), Scale(1.0), Tolerance::NONE)
            })
            .expand(|c: &AttnCase| {
                let la = linear(c);
                let (rec, direct) = (la.recurrent::<f64>(&c.u), la.direct::<f64>(&c.u, None));
                let cols = c.proj.wv.len() + 1;
                let z = la.terms::<f64>(&c.u).into_iter().reduce(|a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect()).unwrap_or_default();
                serde_json::json!({
                    "t": c.u.len(),
                    "state_numbers": la.recurrent_state_size(),
                    "state_at_t": z.chunks(cols).collect::<Vec<_>>(),
                    "y_t_from_the_state": rec.last(),
                    "y_t_eq11": direct.last(),
                    "legend": {
                        "state_at_t": "Z_t = Σ_{i≤t} [φ(k_i)v_iᵀ | φ(k_i)], d_k rows of d_v + 1 numbers: all (12) keeps after t steps",
                        "y_t_from_the_state": "φ(q_t)ᵀZ_t, the first d_v columns over the last",
                        "y_t_eq11": "eq (11) evaluated term by term over all t tokens",
                    },
                })
            }),
        )
        .source(Paper::Bmojo, "App. C.1", "It is worth noticing that the state of this system is t, and it always increases over time, usually up to a design parameter specified by the system design which is dictated by the available compute and memory (typical values are set to 2k).")
        .correction("(12) is an integrator, x_t = x_{t−1} + φ(k_t)v_tᵀ: a constant state of d_k(d_v + 1) numbers (001.c8). The growing state belongs to softmax attention, which needs the unsummed shift register.")
        .error(
            ErrorKind::Reading,
            "Reading checked: the unwindowed (12) as written. App. C.1 calls (12) 'a Finite-Impulse Response dynamical system' whose 'state … is t, and it always increases over time'. The sum x_t = Σ_{i≤t} φ(k_i)v_i is updated by x_t = x_{t−1} + φ(k_t)v_t: an IIR integrator (pole at z = 1) with a state of d_k·d_v numbers (plus d_k for the normaliser) whatever t. The Remark's 'non-linear read-out (the exp) in place of the identity' works only on the unsummed shift-register state, which is what grows. Read as 'one realization of (12) is a shift register of t terms' the sentence is true but says nothing about (12): by the paper's own definition (Sec. 2) a state is a statistic sufficient for prediction, and x_t is one of constant size. The recurrence is exact: 001.c8. The other reading, a finite window: the sentence goes on 'usually up to a design parameter … (typical values are set to 2k)', and with a window of K tokens the shift-register realization (13) does fill up over time to K − 1 slots and reproduces sliding-window linear attention (001.c10.window); under it the sentence is true, and only the word 'FIR' for (12) as written is wrong.",
        )
        .holds_instead(&["001.c8", "001.c10.window"])
}

/// `001.c8` (theorem): App. C.1, eqs (11)–(12).
fn claim_c8() -> Claim {
    Claim::theorem(
        "001.c8",
        super::FAMILY,
        "Linear attention (eq 11, φ = elu + 1) is the linear recurrence S_t = S_{t−1} + φ(k_t)v_tᵀ, z_t = z_{t−1} + φ(k_t), \
             y_t = φ(q_t)ᵀS_t / φ(q_t)ᵀz_t (eq 12, the normaliser with v ≡ 1), for T ≤ 48, up to 4γ_{T+d_k+d+4}·max|v|.",
        property(CASES, attn_cases(48), |c: &AttnCase| {
            let la = linear(c);
            Eval::le_by(gap(&la.recurrent(&c.u), &la.direct(&c.u, None)), 0.0, Scale(c.vmax()), Tolerance::absolute(linear_tol(c, c.u.len())))
        })
        .sides("max_t ‖y_t(recurrence) − y_t(eq 11)‖∞", "0, plus the rounding"),
    )
    .source(
        Paper::Bmojo,
        "App. C.1, eqs (11)–(12)",
        "the denominator can be obtained by fixing the input v_i = 1 ∀i … x_t = Σ_{i=1}^{t} φ(k_i)v_i, y_t = φ(q_t)x_t.",
    )
    .control(
        "the read-out without the normaliser, φ(q_t)ᵀS_t",
        property(CASES, attn_cases(48), |c: &AttnCase| {
            let la = linear(c);
            let unnormalised: Vec<Vec<f64>> =
                c.u.iter()
                    .enumerate()
                    .map(|(t, x)| {
                        let q: Vec<f64> = matvec(&c.proj.wq, x).into_iter().map(crate::model::linear_attention::elu1).collect();
                        let s = la.terms(&c.u[..=t]).iter().fold(vec![0.0; la.recurrent_state_size()], |mut acc, v| {
                            acc.iter_mut().zip(v).for_each(|(a, b)| *a += b);
                            acc
                        });
                        let cols = c.proj.wv.len() + 1;
                        (0..cols - 1).map(|j| q.iter().enumerate().map(|(r, qr)| qr * s[r * cols + j]).sum()).collect()
                    })
                    .collect();
            Eval::le_by(gap(&unnormalised, &la.direct(&c.u, None)), 0.0, Scale(c.vmax()), Tolerance::absolute(linear_tol(c, c.u.len())))
        }),
    )
}

/// `001.c9` (theorem): App. C.2.1, eqs (15)–(17).
fn claim_c9() -> Claim {
    Claim::theorem(
        "001.c9",
        super::FAMILY,
        "The local–global factorisation of linear attention: for every t ≥ K, Σ_{i≤t} φ(k_i)v_iᵀ = Σ_{i≤t−K} φ(k_i)v_iᵀ + Σ_{i=0}^{K−1} \
             φ(k_{t−i})v_{t−i}ᵀ (and the normaliser column), i.e. x_t = x_{t−K} + the window sum (eq 17), up to 2γ_{t+2} of the absolute sum.",
        property(CASES, attn_cases(48), |c: &AttnCase| local_global(c, c.order)).sides("‖x_t − x_{t−K} − window sum‖∞", "0, plus the rounding"),
    )
    .source(
        Paper::Bmojo,
        "App. C.2.1, eqs (15)–(17)",
        "y_t = φ(q_t)ᵀ(Σ_{i=0}^{K−1} φ(k_{t−i})v_{t−i} + Σ_{i=1}^{t−K} φ(k_i)v_i) … x_t = x_{t−K} + Σ_{i=0}^{K−1} φ(k_{t−i})v_{t−i}.",
    )
    .control("a window of K − 1 terms", property(CASES, attn_cases(48).prop_filter("K ≥ 2", |c| c.order >= 2), |c: &AttnCase| local_global(c, c.order - 1)))
}

/// `001.c10.printed` (erratum): App. C.2.1, eq (18).
fn claim_c10_printed() -> Claim {
    let printed18 = |c: &AttnCase| ShiftRegister { slots: c.order + 1, integrator: true, readout: Readout::AllSlots };
    Claim::erratum(
            "001.c10.printed",
            super::FAMILY,
            "Realization (18) as printed — K + 1 slots, last row [0 … 0 1] (an integrator in the last slot), read-out [1 … 1]Z_t + φ(k_t)v_t — \
             realizes the local + global form (17), i.e. full linear attention.",
            property(CASES, attn_cases(48), move |c: &AttnCase| register_with(c, printed18(c), None))
                .sides("max_t ‖y_t(18 as printed) − y_t(eq 11)‖∞", "0, plus the rounding")
                .certify(move |c: &AttnCase| register_enclosed(c, printed18(c), None)),
        )
        .source(Paper::Bmojo, "App. C.2.1, eq (18)", "Z_{t+1} = [0 1 …; …; 0 0 … 1] Z_t + [0; …; 1]φ(k_t)v_t, Z̄_t = [1 … 1]Z_t + φ(k_t)v_t, y_t = φ(q_t)Z̄_t.")
        .correction("With the read-out e_lastᵀZ_t + φ(k_t)v_t (the integrator's slot only) the realization is exact: 001.c10.")
        .error(
            ErrorKind::Construction,
            "App. C.2.1 says the local–global form (17) 'can be written as' x_t = x_{t−K} + Σ φ(k_{t−i})v_{t−i} 'and canonically realized as' (18). With the last row [0 … 0 1] the last slot integrates, z_{t+1} = z_t + φ(k_t)v_t, so the slots hold the lagged prefix sums P_{t−K−1}, …, P_{t−1}; the printed all-ones read-out returns Σ_j P_{t−j} + φ(k_t)v_t, a sum of K + 1 overlapping prefixes, not the local + global sum P_t of (17). Reading only the last slot (plus the feedthrough) gives P_t exactly (001.c10), so the existence of a canonical realization of (17) survives.",
        )
        .holds_instead(&["001.c10"])
}

/// `001.c10` (theorem): App. C.2.1, eqs (17)–(18).
fn claim_c10() -> Claim {
    Claim::theorem(
        "001.c10",
        super::FAMILY,
        "Realization (18) with the read-out corrected to e_lastᵀZ_t + φ(k_t)v_t (any number of slots ≥ 1) is full linear attention (eq 11), up to \
             4γ_{T+K+d_k+d+5}·max|v|.",
        property(CASES, attn_cases(48), |c: &AttnCase| register_with(c, ShiftRegister { slots: c.order, integrator: true, readout: Readout::LastSlot }, None))
            .sides("max_t ‖y_t(18 corrected) − y_t(eq 11)‖∞", "0, plus the rounding"),
    )
    .source(Paper::Bmojo, "App. C.2.1, eqs (17)–(18)", "x_t = x_{t−K} + Σ_{i=0}^{K−1} φ(k_{t−i})v_{t−i}, y_t = φ(q_t)ᵀx_t (17).")
    .control(
        "the last row [0 … 0] (no integrator)",
        property(CASES, attn_cases(48), |c: &AttnCase| register_with(c, ShiftRegister { slots: c.order, integrator: false, readout: Readout::LastSlot }, None)),
    )
}

/// `001.c10.window.printed` (erratum): App. C.1, eq (13).
fn claim_c10_window_printed() -> Claim {
    Claim::erratum(
            "001.c10.window.printed",
            super::FAMILY,
            "Realization (13) as printed — the state [z^{t−K}; …; z^t] (K + 1 slots), read-out [1 … 1]Z_t + φ(k_t)v_t — is sliding-window linear \
             attention over K tokens.",
            property(CASES, attn_cases(48), |c: &AttnCase| register_with(c, printed13(c), Some(c.order)))
                .sides("max_t ‖y_t(13 as printed) − y_t(window K)‖∞", "0, plus the rounding")
                .certify(|c: &AttnCase| register_enclosed(c, printed13(c), Some(c.order))),
        )
        .source(Paper::Bmojo, "App. C.1, eq (13)", "we shall assume that the attention is computed on a sliding window of size K. A canonical realization of the FIR described above is: Z_{t+1} := [z^{t−K+1}; …; z^{t+1}] = S[z^{t−K}; …; z^t] + [0; …; 1]φ(k_t)v_t, Z̄_t = [1 … 1]Z_t + φ(k_t)v_t.")
        .correction("K − 1 slots plus the current term's feedthrough give exactly the window of K tokens: 001.c10.window.")
        .error(
            ErrorKind::Typo,
            "App. C.1 assumes 'the attention is computed on a sliding window of size K' and gives (13) as 'a canonical realization of the FIR described above', but its state [z^{t−K}; …; z^t] lists K + 1 slots and the read-out adds the current φ(k_t)v_t, so Z̄_t sums K + 2 terms: the realization is a window of K + 2 tokens, not K. The indices should run over K − 1 slots, z^{t−K+1} … z^{t−1}; so corrected the realization is exact (001.c10.window).",
        )
        .holds_instead(&["001.c10.window"])
}

/// `001.c10.window` (theorem): App. C.1, eq (13).
fn claim_c10_window() -> Claim {
    Claim::theorem(
        "001.c10.window",
        super::FAMILY,
        "Realization (13) with K − 1 slots (last row 0, read-out [1 … 1]Z_t + φ(k_t)v_t) is sliding-window linear attention over the K most \
             recent tokens, up to 4γ_{2K+d_k+d+3}·max|v|.",
        property(CASES, attn_cases(48), |c: &AttnCase| {
            register_with(c, ShiftRegister { slots: c.order - 1, integrator: false, readout: Readout::AllSlots }, Some(c.order))
        })
        .sides("max_t ‖y_t(13, K − 1 slots) − y_t(window K)‖∞", "0, plus the rounding"),
    )
    .source(Paper::Bmojo, "App. C.1, eq (13)", "… a sliding window of size K. A canonical realization of the FIR described above is …")
    .control(
        "K slots",
        property(CASES, attn_cases(48), |c: &AttnCase| {
            register_with(c, ShiftRegister { slots: c.order, integrator: false, readout: Readout::AllSlots }, Some(c.order))
        }),
    )
}

/// `001.c14` (theorem): App. C.3.
fn claim_c14() -> Claim {
    let c14 = |a_last: f64| {
        property(CASES, attn_cases(24), move |c: &AttnCase| {
            let mut sys = BmojoF::attention(c.proj.clone(), c.order, Convention::Inclusive, true);
            sys.coeffs[c.order - 1].iter_mut().for_each(|a| *a = a_last);
            Eval::le_by(
                gap(&sys.run(&c.u), &sliding_window_attention(&c.proj, &c.u, c.order)),
                0.0,
                Scale(c.vmax()),
                Tolerance::absolute(c.softmax_tol(c.order)),
            )
        })
    };
    Claim::theorem(
            "001.c14",
            super::FAMILY,
            "B'MOJO-F with every coefficient of the companion matrix's last row set to zero (a_i ≡ 0; block recursion s_{t} = Σ a_i ⊙ x^{(i)} + \
             b(u_t), softmax read-out over the written blocks) is causal window-N attention, up to 2γ_{N+d_k+d+4}·max|v|.",
            c14(0.0).sides("max_t ‖y_t(B'MOJO-F, a = 0) − y_t(attention)‖∞", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "App. C.3", "when setting all the coefficients on the last row of the state transition matrix to zero we get back the same nilpotent dynamical system that represents the attention mechanism (note that, differently from the linear attention case, the read-out function is non-linear).")
        .correction("As for 001.c6: a validity mask and Algorithm 1's convention (window N).")
        .control("a_N = 1/8 on every channel", c14(0.125))
}

/// `001.c15` (theorem): Abstract; Sec. 1.1.
fn claim_c15() -> Claim {
    Claim::theorem(
        "001.c15",
        super::FAMILY,
        "A hybrid stack is a stack of B'MOJO realizations: an LTI diagonal (frozen Mamba) layer of order ≤ 6 followed by window-N softmax attention \
             on [u_t, y_t] equals the stack of its companion realization (exact) and B'MOJO-F with a zero last row, up to the attention's rounding.",
        property([200, 2000, 10000], hybrid_cases(), |c: &HybridCase| hybrid(c, false))
            .sides("max_t ‖out_t(B'MOJO stack) − out_t(hybrid)‖∞", "0, plus the rounding"),
    )
    .source(
        Paper::Bmojo,
        "Abstract; Sec. 1.1",
        "Transformers, existing SSMs such as Mamba, and hybrid architectures such as Jamba are special cases of B'MOJO.",
    )
    .correction("Layer by layer, where 001.c12 (LTI) and 001.c14 (attention) are exact; selective Mamba layers are not companion realizations (001.c13).")
    .control("the companion's α_0 perturbed by 1/8", property([200, 2000, 10000], hybrid_cases(), |c: &HybridCase| hybrid(c, true)))
}

/// `001.c15.jamba` (conjecture): Abstract; Sec. 1.1.
fn claim_c15_jamba() -> Claim {
    Claim::conjecture(
        "001.c15.jamba",
        super::FAMILY,
        "Jamba is a special case of B'MOJO. What the suite can check: Jamba's global attention layers are B'MOJO-F with N ≥ T (here N = T, \
             T ≤ 24, exact up to the rounding); its Mamba layers are selective, which B'MOJO contains only as its own SSM, not as a companion \
             realization (001.c13); its MoE MLPs and norms are outside the realization.",
        property(CASES, attn_cases(24), |c: &AttnCase| {
            let full = AttnCase { order: c.u.len(), ..c.clone() };
            let sys = BmojoF::attention(full.proj.clone(), full.order, Convention::Inclusive, true);
            Eval::le_by(
                gap(&sys.run(&full.u), &sliding_window_attention(&full.proj, &full.u, full.u.len())),
                0.0,
                Scale(full.vmax()),
                Tolerance::absolute(full.softmax_tol(full.order)),
            )
        })
        .sides("max_t ‖y_t(B'MOJO-F, N = T) − y_t(global causal attention)‖∞", "0, plus the rounding"),
    )
    .source(Paper::Bmojo, "Abstract; Sec. 1.1", "… hybrid architectures such as Jamba are special cases of B'MOJO.")
}

/// `001.c20` (theorem): Sec. 3.3; App. B.2.
fn claim_c20() -> Claim {
    Claim::theorem(
            "001.c20",
            super::FAMILY,
            "The chunked implementation is uniform: over the interleaved sequence [F_0E_0C_0 F_1E_1C_1 …] (chunks of w ≤ 8 raw tokens, m ≤ 4 memory \
             tokens per chunk), a causal window of K = w + m positions shows every raw token g exactly the raw tokens g − w + 1 … g and the memory \
             tokens of its own chunk, and attention over the window equals attention over that set, up to the rounding.",
            property(CASES, chunk_cases(), |c: &ChunkCase| chunk_uniform(c, 0)).sides("tokens with another visible set + output gap", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "Sec. 3.3; App. B.2", "we use chunks of length w […] we use a sliding window over the interleaved concatenation of input chunks and their respective memory tokens […] (App. B.2) To make sure that every token is computed uniformly we pick the size of the sliding window to be K := w + m_f + m_e")
        .correction("Uniform in this sense. The fading token's lag is then g − jw + 1 ∈ [1, w], not exactly w as in Algorithm 1's y_{t−w}.")
        .control("K = w + m − 1", property(CASES, chunk_cases().prop_filter("w + m ≥ 2", |c| c.w + c.m >= 2), |c: &ChunkCase| chunk_uniform(c, 1)))
}

/// `001.perm` (theorem): App. B.1.
fn claim_perm() -> Claim {
    let perm = |positional: bool| {
        property(CASES, (attn_cases(24).prop_filter("T ≥ 3", |c| c.u.len() >= 3), 1usize..12), move |c: &(AttnCase, usize)| permutation(c, positional))
    };
    Claim::theorem(
        "001.perm",
        super::FAMILY,
        "B'MOJO uses no positional encodings, so its read-out softmax(q_tᵀK)V over window, fading and eidetic tokens is invariant to the order of \
             the memory tokens: rotating the second half of the token set leaves the output unchanged up to the rounding.",
        perm(false).sides("‖out(permuted) − out‖∞", "0, plus the rounding"),
    )
    .source(Paper::Bmojo, "App. B.1", "B'MOJO and B'MOJO-F do not use positional encodings.")
    .control("positions i/8 added to each token before projecting", perm(true))
}

/// Registers the attention-side claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c6());
    r.add(claim_c6_unmasked());
    r.add(claim_c6_window());
    r.add(claim_c6_deadbeat());
    r.add(claim_c7_linear());
    r.add(claim_c8());
    r.add(claim_c9());
    r.add(claim_c10_printed());
    r.add(claim_c10());
    r.add(claim_c10_window_printed());
    r.add(claim_c10_window());
    r.add(claim_c14());
    r.add(claim_c15());
    r.add(claim_c15_jamba());
    r.add(claim_c20());
    r.add(claim_perm());
}
