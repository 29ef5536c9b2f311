//! 000 Proposition 1 (absolute time from all-ones input) and Corollary 2 (S6 with time PE solves
//! Keep n-th: y_t = x_n for t ≥ n), in the discrete Mamba recurrence.
//!
//! * `000.prop1` (Theorem): λ = 0, x ≡ 1 gives h_t = tΔB exactly. Control: λ = 10⁻³.
//! * `000.cor2.printed` (Erratum): the paper's two-channel construction (Δ₁ = softplus(W(n − t)),
//!   Δ₂ = softplus(W(n − 1 − t)), output h₂ − h₁) in discrete Mamba (ZOH or Euler B̄).
//! * `000.cor2.corrected` (Theorem): one channel with Δ_t = softplus(W(n + ½ − t)), λ = 1, B = 1,
//!   ZOH, W = 40: |h_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n, whatever T. Control: W = 5.

use crate::claim::{construction, property, Claim, ErrorKind, Eval, Family, Figure, Series, Style};
use crate::claims::strategies::grid;
use crate::claims::PAPER_000;
use crate::math::softplus::softplus;
use crate::model::{DeltaRule, DiagonalSsm, Discretization};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A Proposition 1 instance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AllOnes {
    /// Δ weight (on the all-ones input).
    pub w: f64,
    /// Δ bias.
    pub b: f64,
    /// B.
    pub b_in: f64,
    /// Sequence length.
    pub len: usize,
    /// Euler (else ZOH) for B̄.
    pub euler: bool,
}

fn prop1_margin(p: &AllOnes, lambda: f64) -> Eval {
    let m = DiagonalSsm {
        a: vec![-lambda],
        b_bias: vec![p.b_in],
        b_weight: vec![0.0],
        delta: DeltaRule::Selective { w: p.w, b: p.b },
        disc: if p.euler { Discretization::Euler } else { Discretization::Zoh },
    };
    let delta = softplus(p.w + p.b);
    let hs = m.states(&vec![1.0; p.len]);
    hs.iter()
        .enumerate()
        .map(|(i, h)| {
            let want = (i + 1) as f64 * delta * p.b_in;
            // Summation of t terms: rounding grows like t·ε.
            Eval::close((h[0] - want).abs(), want.abs(), 4.0 * f64::EPSILON * (i + 1) as f64, 1e-300)
        })
        .fold(Eval::Margin(1.0), Eval::min)
}

/// A Keep n-th instance: tokens x_1..x_T and the position n.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeepNth {
    /// Inputs x_1..x_T.
    pub x: Vec<f64>,
    /// The kept position n (1-based).
    pub n: usize,
    /// Steepness W = −w_Δ.
    pub w: f64,
    /// Euler (else ZOH) for B̄ (the printed construction is tried with both).
    pub euler: bool,
}

fn keep_instances(w: f64) -> impl Strategy<Value = KeepNth> {
    (proptest::collection::vec(grid(-128.0, 128.0, 0.0625), 1..=1000), any::<bool>())
        .prop_flat_map(move |(x, euler)| {
            let len = x.len();
            (Just(x), 1..=len, Just(euler))
        })
        .prop_map(move |(x, n, euler)| KeepNth { x, n, w, euler })
}

fn printed_instances() -> impl Strategy<Value = KeepNth> {
    (proptest::collection::vec(grid(-128.0, 128.0, 0.0625), 2..=200), grid(20.0, 60.0, 0.5), any::<bool>())
        .prop_flat_map(|(x, w, euler)| {
            let len = x.len();
            (Just(x), 1..=len, Just((w, euler)))
        })
        .prop_map(|(x, n, (w, euler))| KeepNth { x, n, w, euler })
}

fn channel(euler: bool) -> DiagonalSsm {
    DiagonalSsm {
        a: vec![-1.0],
        b_bias: vec![1.0],
        b_weight: vec![0.0],
        delta: DeltaRule::Fixed { delta: 1.0 },
        disc: if euler { Discretization::Euler } else { Discretization::Zoh },
    }
}

/// The printed two-channel output y_t = h₂(t) − h₁(t).
fn printed_output(p: &KeepNth) -> Vec<f64> {
    let times = 1..=p.x.len();
    let d1: Vec<f64> = times.clone().map(|t| softplus(p.w * (p.n as f64 - t as f64))).collect();
    let d2: Vec<f64> = times.map(|t| softplus(p.w * (p.n as f64 - 1.0 - t as f64))).collect();
    let m = channel(p.euler);
    let (h1, h2) = (m.states_given_delta(&p.x, &d1), m.states_given_delta(&p.x, &d2));
    h1.iter().zip(&h2).map(|(a, b)| b[0] - a[0]).collect()
}

/// The corrected one-channel output (ZOH).
fn corrected_output(p: &KeepNth) -> Vec<f64> {
    let d: Vec<f64> = (1..=p.x.len()).map(|t| softplus(p.w * (p.n as f64 + 0.5 - t as f64))).collect();
    channel(false).states_given_delta(&p.x, &d).into_iter().map(|h| h[0]).collect()
}

fn keep_margin(p: &KeepNth, out: &[f64]) -> Eval {
    let scale = p.x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let target = p.x[p.n - 1];
    let err = out[p.n - 1..].iter().map(|y| (y - target).abs()).fold(0.0, f64::max);
    Eval::close(err, scale, 1e-6, 0.0)
}

fn keep_figure(_: &KeepNth) -> Vec<Figure> {
    // A fixed readable example (40 tokens in 1..=20 from a fixed stream, n = 5), not the shrunk
    // counterexample, so that the three outputs can be compared by eye.
    let mut stream = crate::mc::Stream::new(crate::mc::StreamKey::new(0, "haar/keep-nth"), 0);
    let x: Vec<f64> = (0..40).map(|_| (1.0 + (stream.uniform() * 20.0).floor()).min(20.0)).collect();
    let ex = KeepNth { x, n: 5, w: 40.0, euler: false };
    let len = ex.x.len();
    let target = ex.x[ex.n - 1];
    let t: Vec<f64> = (1..=len).map(|i| i as f64).collect();
    let series = |ys: Vec<f64>| t.iter().zip(ys).map(|(a, b)| [*a, b]).collect::<Vec<_>>();
    let printed_zoh = printed_output(&ex);
    let printed_euler = printed_output(&KeepNth { euler: true, ..ex.clone() });
    vec![Figure::new("keep-nth", &format!("Keep n-th (n = {}) in discrete Mamba, W = 40", ex.n), "t", "output")
        .with(Series::new("inputs x_t", Style::Points, series(ex.x.clone())).color(3))
        .with(Series::new("target x_n (t ≥ n)", Style::Dashed, (ex.n..=len).map(|i| [i as f64, target]).collect()).color(2))
        .with(Series::new("printed two-channel, ZOH", Style::Line, series(printed_zoh)).color(1))
        .with(Series::new("corrected one channel, Δ_t = softplus(W(n + ½ − t)), ZOH", Style::Points, series(corrected_output(&ex))).color(0))
        .caption(format!(
            "In discrete time Δ ≈ 0 after the threshold also switches the input off (B̄ = ΔB or (1 − e^{{−λΔ}})B/λ), integer thresholds give softplus(0) = ln 2, and a reset keeps x_r: the printed construction (ZOH) misses x_n, and with Euler B̄ (not drawn) it is off by up to {:.0}; a half-integer threshold in one channel holds x_n.",
            printed_euler.iter().skip(ex.n - 1).map(|y| (y - target).abs()).fold(0.0, f64::max)
        ))]
}

/// Registers Proposition 1 and Corollary 2.
pub fn register(r: &mut crate::claim::Registry) {
    let ones = (grid(-2.0, 2.0, 0.125), grid(-3.0, 3.0, 0.125), grid(-4.0, 4.0, 0.125), 1usize..=20_000, any::<bool>())
        .prop_map(|(w, b, b_in, len, euler)| AllOnes { w, b, b_in, len, euler });
    r.add(
        Claim::theorem(
            "000.prop1",
            Family::Haar,
            "A one-layer S6 with λ = 0 (A = 0) on the all-ones input has h_t = t·Δ·B exactly, Δ = softplus(w + b), for every t ≤ T ≤ \
             2·10⁴ (ZOH and Euler; relative tolerance 4ε·t for the summation), so with Δ = 1 (b = ln(e − 1), w = 0) it outputs absolute time.",
            property([100, 500, 5000], ones.clone(), |p: &AllOnes| prop1_margin(p, 0.0)),
        )
        .source(
            PAPER_000,
            "Proposition 1, eq (24)",
            "A 1-layer Mamba can recover absolute time given an all-ones input: with B ≡ 1 and λ ≡ 0, h^M(t) = ∫_0^t x(s) ds = t.",
        )
        .correction("Discrete form: h_t = tΔB (Δ = 1 needs the softplus bias ln(e − 1) ≈ 0.5413).")
        .control("a decaying mode, λ = 10⁻³", property([100, 500, 5000], ones, |p: &AllOnes| prop1_margin(p, 1e-3))),
    );
    r.add(
        Claim::erratum(
            "000.cor2.printed",
            Family::Haar,
            "The paper's construction in discrete Mamba: two channels with λ = 1, B = 1, Δ₁ = softplus(W(n − t)), \
             Δ₂ = softplus(W(n − 1 − t)) from the time PE, output h₂ − h₁, ZOH or Euler B̄; for W ∈ [20, 60] (sharp thresholds), T ≤ 200, tokens in \
             [−128, 128]: |y_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n.",
            construction([200, 2000, 20000], printed_instances(), |p: &KeepNth| keep_margin(p, &printed_output(p))).illustrate(keep_figure),
        )
        .source(PAPER_000, "Corollary 2 (App. A.3, eq 32–33)", "There is an S6 layer that solves Keep n-th on input augmented with time PE: h₁ = H(s − n), h₂ = H(s − (n − 1)), with Δ₁ = SoftPlus(w_Δ t − w_Δ n), Δ₂ = SoftPlus(w_Δ t − w_Δ(n−1)), λ ≡ 1, B = 1, w_Δ → −∞.")
        .correction(
            "The continuous-time argument does not survive discretisation: B̄ = ΔB (Euler) or (1 − e^{−Δ})B (ZOH) switches the input \
             off with Δ, integer thresholds give softplus(0) = ln 2, and a discrete reset keeps x_r. Also h₂ − h₁ (not h₁ − h₂) \
             is +1 on [n−1, n). Corrected: 000.cor2.corrected.",
        )
        .error(ErrorKind::Construction, "Corollary 2 is existential and true: an S6 layer does solve Keep n-th (000.cor2.corrected, a half-integer threshold in one ZOH channel). What fails is App. A.3's continuous-time construction moved to discrete Mamba: B̄ = ΔB (Euler) or (1 − e^{−Δ})B (ZOH) switches the input off with Δ, integer thresholds give softplus(0) = ln 2, and a discrete reset keeps x_r."),
    );
    r.add(
        Claim::theorem(
            "000.cor2.corrected",
            Family::Haar,
            "One S6 channel with λ = 1, B = 1, ZOH and Δ_t = softplus(W(n + ½ − t)) from the time PE, W = 40: for tokens in \
             [−128, 128], T ≤ 1000 and any n ≤ T, |h_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n — an error independent of T \
             (the retention after n is e^{−Σ_{r>n}Δ_r} with a geometric sum, Lemma 2's freezing time).",
            construction([200, 1000, 10000], keep_instances(40.0), |p: &KeepNth| keep_margin(p, &corrected_output(p))).illustrate(keep_figure),
        )
        .source(PAPER_000, "Corollary 2, corrected (proofs/haar.md)", "There is an S6 layer that solves Keep n-th on input augmented with time PE.")
        .correction("A half-integer threshold in a single ZOH channel (max error 7e−9 at W = 40, proofs/haar.md).")
        .control("a soft threshold, W = 5", construction([200, 1000, 10000], keep_instances(5.0), |p: &KeepNth| keep_margin(p, &corrected_output(p)))),
    );
}
