//! 000 Proposition 1 (absolute time from all-ones input) and Corollary 2 (S6 with time PE solves
//! Keep n-th: y_t = x_n for t ≥ n), in the discrete Mamba recurrence.
//!
//! * `000.prop1` (Theorem): λ = 0, x ≡ 1 gives h_t = tΔB exactly. Control: λ = 10⁻³.
//! * `000.cor2.printed` (Erratum): the paper's two-channel construction (Δ₁ = softplus(W(n − t)),
//!   Δ₂ = softplus(W(n − 1 − t)), output h₂ − h₁) in discrete Mamba (ZOH or Euler B̄).
//! * `000.cor2.corrected` (Theorem): one channel with Δ_t = softplus(W(n + ½ − t)), λ = 1, B = 1,
//!   ZOH, W = 40: |h_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n, whatever T. Control: W = 5.
//! * `000.cor2.continuous` (Theorem): the printed construction in eq (8)'s own continuous model
//!   converges, y(t) − x_n = (x_{n−1} − x_n)·√(π/(2W)) + O(W^{−3/2}): the erratum is one of
//!   construction (discretisation), not of the corollary. Control: the layer constant √(π/W).

use crate::claim::{construction, property, Claim, ErrorKind, Eval, Figure, Paper, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::math::haar::integrated_softplus_to;
use crate::math::quadrature::adaptive_simpson;
use crate::math::softplus::softplus;
use crate::math::Interval;
use crate::model::{DeltaRule, DiagonalSsm, Discretization};
use crate::strategy::grid;
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
            Eval::close((h[0] - want).abs(), Scale(want.abs()), Tolerance::relative(4.0 * f64::EPSILON * (i + 1) as f64).plus_absolute(1e-300))
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

/// T ≤ 1000, and one draw in ten up to T = 10⁵ (the error must not grow with T).
fn keep_instances(w: f64) -> impl Strategy<Value = KeepNth> {
    let tokens = || grid(-128.0, 128.0, 0.0625);
    let x = prop_oneof![9 => proptest::collection::vec(tokens(), 1..=1000), 1 => proptest::collection::vec(tokens(), 1000..=100_000)];
    (x, any::<bool>())
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

/// [`printed_output`] on enclosures: each channel's recurrence h_t = Āh_{t−1} + B̄x_t with
/// Δ = softplus(W(θ − t)) (θ = n, n − 1), Ā = e^{−Δ}, and B̄ = A⁻¹(e^{ΔA} − 1)B = 1 − e^{−Δ} (ZOH,
/// A = −1, B = 1) or ΔB (Euler), every operation on intervals.
fn printed_output_enclosed(p: &KeepNth) -> Vec<Interval> {
    let channel = |theta: f64| {
        let mut h = Interval::exact(0.0);
        (1..=p.x.len())
            .map(|t| {
                let delta = softplus(Interval::exact(p.w) * Interval::exact(theta - t as f64));
                let decay = (-delta).exp();
                let write = if p.euler { delta } else { Interval::exact(1.0) - decay };
                h = decay * h + write * Interval::exact(p.x[t - 1]);
                h
            })
            .collect::<Vec<_>>()
    };
    channel(p.n as f64 - 1.0).into_iter().zip(channel(p.n as f64)).map(|(h2, h1)| h2 - h1).collect()
}

/// [`keep_margin`]'s relation on enclosures of the outputs (the statement's 10⁻⁶ is its own
/// tolerance, not rounding).
fn keep_margin_enclosed(p: &KeepNth, out: &[Interval]) -> Eval {
    let scale = p.x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let target = Interval::exact(p.x[p.n - 1]);
    let err = out[p.n - 1..].iter().map(|&y| (y - target).abs()).fold(Interval::exact(0.0), Interval::max);
    Eval::close(err, Scale(scale), Tolerance::relative(1e-6))
}

/// The corrected one-channel output (ZOH).
fn corrected_output(p: &KeepNth) -> Vec<f64> {
    let d: Vec<f64> = (1..=p.x.len()).map(|t| softplus(p.w * (p.n as f64 + 0.5 - t as f64))).collect();
    channel(false).states_given_delta(&p.x, &d).into_iter().map(|h| h[0]).collect()
}

/// A Keep n-th instance in eq (8)'s continuous model, read out at time t.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeepNthContinuous {
    /// Inputs: x(s) = x_k on [k − 1, k), k = 1..=len.
    pub x: Vec<f64>,
    /// The kept position n (1-based).
    pub n: usize,
    /// The read-out time t ∈ {n, …, len} (an integer).
    pub t: usize,
    /// Steepness W = −w_Δ.
    pub w: f64,
}

/// The printed two-channel construction in eq (8)'s continuous model (Δ only in the decay, B = 1,
/// λ = 1): `y(t) = ∫_0^t (g₂ − g₁)(s) x(s) ds` with `g_i(s) = exp(−∫_s^t softplus(W(θ_i − r)) dr)`,
/// θ₁ = n, θ₂ = n − 1. The thresholds are integers, so each unit piece of x is integrated
/// separately; the transition layers (width ~W^{−1/2}) sit at piece ends, where adaptive Simpson
/// refines (absolute tolerance 10⁻¹³ per piece).
pub fn continuous_output(x: &[f64], n: usize, t: usize, w: f64) -> f64 {
    let (tf, nf) = (t as f64, n as f64);
    let g = |s: f64, theta: f64| (-integrated_softplus_to(s, tf, theta, w)).exp();
    let kernel = |s: f64| g(s, nf - 1.0) - g(s, nf);
    x[..t].iter().enumerate().map(|(k, xk)| xk * adaptive_simpson(&kernel, k as f64, k as f64 + 1.0, 1e-13)).sum()
}

/// The leading error of the continuous construction, `(x_{n−1} − x_n)·√(π/(2W))·factor` (x₀ = 0):
/// each Gaussian layer `g ≈ e^{−Wδ²/2}` left of a threshold carries the mass `√(π/(2W))`
/// (`factor` = 1; the control's `factor` = √2 is the layer constant of ∫e^{−Wδ²}).
fn continuous_lead(p: &KeepNthContinuous, factor: f64) -> f64 {
    let before = if p.n >= 2 { p.x[p.n - 2] } else { 0.0 };
    (before - p.x[p.n - 1]) * (std::f64::consts::PI / (2.0 * p.w)).sqrt() * factor
}

/// `|y(t) − x_n − lead| ≤ K·max(1, max|x|)·W^{−3/2}`. K: left of θ the exponent is
/// Wδ²/2 + c/W with 0 ≤ c ≤ π²/6 (the softplus tail on both sides of θ, Li₂), so each layer's
/// mass is √(π/(2W))·e^{−c/W} and differs from √(π/(2W)) by at most √(π/2)·(π²/6)·W^{−3/2} ≈
/// 2.06·W^{−3/2}; two layers give 4.13. The right-hand layers (g ≈ 1 − e^{−Wδ}/W) and the Li₂
/// window at δ < 1/W add O(W^{−2}) per piece, at most 1·W^{−3/2} for W ≥ 100 and t − n ≤ 3.
/// K = 5.2.
fn continuous_margin(p: &KeepNthContinuous, factor: f64) -> Eval {
    let scale = p.x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let y = continuous_output(&p.x, p.n, p.t, p.w);
    let err = (y - p.x[p.n - 1] - continuous_lead(p, factor)).abs();
    Eval::close(err, Scale(scale), Tolerance::relative(5.2 * p.w.powf(-1.5)))
}

fn continuous_instances() -> impl Strategy<Value = KeepNthContinuous> {
    (1usize..=8, 0usize..=3, 2.0f64..6.0)
        .prop_flat_map(|(n, extra, log_w)| (proptest::collection::vec(grid(-128.0, 128.0, 0.0625), n + extra), Just((n, extra, log_w))))
        .prop_map(|(x, (n, extra, log_w))| KeepNthContinuous { x, n, t: n + extra, w: 10f64.powf(log_w) })
}

/// Error against W in the continuous model (x = (0, 1/16), n = t = 2, the discrete
/// counterexample's input) with the predicted √(π/(2W)) law, and the discrete outputs.
fn continuous_figure(_: &KeepNthContinuous) -> Vec<Figure> {
    let x = [0.0, 0.0625];
    let ws: Vec<f64> = (0..=16).map(|i| 10f64.powf(1.0 + 0.25 * i as f64)).collect();
    let continuous: Vec<[f64; 2]> = ws.iter().map(|&w| [w, (continuous_output(&x, 2, 2, w) - x[1]).abs().log10()]).collect();
    let predicted: Vec<[f64; 2]> = ws.iter().map(|&w| [w, (x[1] * (std::f64::consts::PI / (2.0 * w)).sqrt()).log10()]).collect();
    let discrete = |euler: bool| -> Vec<[f64; 2]> {
        ws.iter()
            .map(|&w| {
                let out = printed_output(&KeepNth { x: x.to_vec(), n: 2, w, euler });
                [w, (out[1] - x[1]).abs().max(1e-300).log10()]
            })
            .collect()
    };
    vec![Figure::new("keep-nth-continuous", "Corollary 2's construction: error |y − x_n| against W (x = (0, 1/16), n = t = 2)", "W", "log10 |y − x_n|")
        .log_x()
        .with(Series::new("eq (8) continuous model (quadrature)", Style::Points, continuous).color(0))
        .with(Series::new("predicted |x_{n−1} − x_n|·√(π/(2W))", Style::Dashed, predicted).color(0))
        .with(Series::new("discrete Mamba, ZOH", Style::Line, discrete(false)).color(1))
        .with(Series::new("discrete Mamba, Euler", Style::Line, discrete(true)).color(2))
        .caption(format!(
            "In the paper's own continuous model (Δ only in the decay, eq 8) the construction converges like W^{{−1/2}}: y = {:.4}, {:.4}, {:.4} at W = 25, 400, 10⁴ against x_n = 0.0625. Discretised, the error does not fall with W.",
            continuous_output(&x, 2, 2, 25.0),
            continuous_output(&x, 2, 2, 400.0),
            continuous_output(&x, 2, 2, 1e4)
        ))]
}

fn keep_margin(p: &KeepNth, out: &[f64]) -> Eval {
    let scale = p.x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let target = p.x[p.n - 1];
    let err = out[p.n - 1..].iter().map(|y| (y - target).abs()).fold(0.0, f64::max);
    Eval::close(err, Scale(scale), Tolerance::relative(1e-6))
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

/// All-ones inputs: w, b, b_in on grids, length ≤ 20 000, Euler or ZOH.
fn all_ones() -> impl Strategy<Value = AllOnes> {
    (grid(-2.0, 2.0, 0.125), grid(-3.0, 3.0, 0.125), grid(-4.0, 4.0, 0.125), 1usize..=20_000, any::<bool>()).prop_map(|(w, b, b_in, len, euler)| AllOnes {
        w,
        b,
        b_in,
        len,
        euler,
    })
}

/// `000.prop1` (theorem): Proposition 1, eq (24).
fn claim_prop1() -> Claim {
    Claim::theorem(
        "000.prop1",
        super::FAMILY,
        "A one-layer S6 with λ = 0 (A = 0) on the all-ones input has h_t = t·Δ·B exactly, Δ = softplus(w + b), for every t ≤ T ≤ \
             2·10⁴ (ZOH and Euler; relative tolerance 4ε·t for the summation), so with Δ = 1 (b = ln(e − 1), w = 0) it outputs absolute time.",
        property([100, 500, 5000], all_ones(), |p: &AllOnes| prop1_margin(p, 0.0)),
    )
    .source(
        Paper::InputSelectivity,
        "Proposition 1, eq (24)",
        "A 1-layer Mamba can recover absolute time, given an all-ones input. Proof. The proof follows by considering a Mamba layer Equation 8 with B ≡ 1, λ ≡ 0 … h^M(t) = ∫_0^t x(s) ds = t. (24)",
    )
    .correction("Discrete form: h_t = tΔB (Δ = 1 needs the softplus bias ln(e − 1) ≈ 0.5413).")
    .control("a decaying mode, λ = 10⁻³", property([100, 500, 5000], all_ones(), |p: &AllOnes| prop1_margin(p, 1e-3)))
}

/// `000.cor2.printed` (erratum): Corollary 2 (§4.1; proof App. A.3, eq 32–33).
fn claim_cor2_printed() -> Claim {
    Claim::erratum(
            "000.cor2.printed",
            super::FAMILY,
            "The paper's construction in discrete Mamba: two channels with λ = 1, B = 1, Δ₁ = softplus(W(n − t)), \
             Δ₂ = softplus(W(n − 1 − t)) from the time PE, output h₂ − h₁, ZOH or Euler B̄; for W ∈ [20, 60] (sharp thresholds), T ≤ 200, tokens in \
             [−128, 128]: |y_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n.",
            construction([200, 2000, 20000], printed_instances(), |p: &KeepNth| keep_margin(p, &printed_output(p)))
                .certify(|p: &KeepNth| keep_margin_enclosed(p, &printed_output_enclosed(p)))
                .illustrate(keep_figure),
        )
        .source(Paper::InputSelectivity, "Corollary 2 (§4.1; proof App. A.3, eq 32–33)", "There exists an S6 layer that solves Keep n-th on input augmented with time Positional Encoding. […] (App. A.3) it suffices to represent two Heaviside functions h₁ = H(s − n), h₂ = H(s − (n − 1)) […] Δ₁ = SoftPlus(w_Δ t − w_Δ n), Δ₂ = SoftPlus(w_Δ t − w_Δ(n−1)) […] Suppose λ ≡ 1, B = 1 in the Mamba basis function Equation 8.")
        .correction(
            "The continuous-time argument does not survive discretisation: B̄ = ΔB (Euler) or (1 − e^{−Δ})B (ZOH) switches the input \
             off with Δ, integer thresholds give softplus(0) = ln 2, and a discrete reset keeps x_r. Also h₂ − h₁ (not h₁ − h₂) \
             is +1 on [n−1, n). Corrected: 000.cor2.corrected.",
        )
        .error(ErrorKind::Construction, "Corollary 2 is existential and true: an S6 layer does solve Keep n-th (000.cor2.corrected, a half-integer threshold in one ZOH channel). What fails is App. A.3's continuous-time construction moved to discrete Mamba: B̄ = ΔB (Euler) or (1 − e^{−Δ})B (ZOH) switches the input off with Δ, integer thresholds give softplus(0) = ln 2, and a discrete reset keeps x_r. In the paper's own eq (8) model (Δ only in the decay) the construction converges, y − x_n = (x_{n−1} − x_n)√(π/(2W)) + O(W^{−3/2}) (000.cor2.continuous): for x = (0, 1/16), n = 2 it gives 0.0472, 0.0586, 0.0617 at W = 25, 400, 10⁴ against 0.0625.")
        .holds_instead(&["000.cor2.corrected", "000.cor2.continuous"])
}

/// `000.cor2.corrected` (theorem): Corollary 2, corrected (proofs/haar.md).
fn claim_cor2_corrected() -> Claim {
    Claim::theorem(
        "000.cor2.corrected",
        super::FAMILY,
        "One S6 channel with λ = 1, B = 1, ZOH and Δ_t = softplus(W(n + ½ − t)) from the time PE, W = 40: for tokens in \
             [−128, 128], T ≤ 1000 (one draw in ten up to 10⁵) and any n ≤ T, |h_t − x_n| ≤ 10⁻⁶·max(1, max|x|) for every t ≥ n — an error independent of T \
             (the retention after n is e^{−Σ_{r>n}Δ_r} with a geometric sum, Lemma 2's freezing time).",
        construction([200, 1000, 10000], keep_instances(40.0), |p: &KeepNth| keep_margin(p, &corrected_output(p))).illustrate(keep_figure),
    )
    .source(
        Paper::InputSelectivity,
        "Corollary 2, corrected (proofs/haar.md)",
        "There exists an S6 layer that solves Keep n-th on input augmented with time Positional Encoding.",
    )
    .correction("A half-integer threshold in a single ZOH channel (max error 7e−9 at W = 40, proofs/haar.md).")
    .control("a soft threshold, W = 5", construction([200, 1000, 10000], keep_instances(5.0), |p: &KeepNth| keep_margin(p, &corrected_output(p))))
}

/// `000.cor2.continuous` (theorem): Corollary 2 (App. A.3, eq 32–33) in the model of eq (8).
fn claim_cor2_continuous() -> Claim {
    Claim::theorem(
            "000.cor2.continuous",
            super::FAMILY,
            "The printed two-channel construction in eq (8)'s continuous model (h = ∫ g x, g_i(s) = exp(−∫_s^t softplus(W(θ_i − r)) dr), \
             θ₁ = n, θ₂ = n − 1, λ = 1, B = 1, output h₂ − h₁) converges to x_n: for n ≤ 8, integer t ∈ [n, n + 3], piecewise-constant \
             x with values in [−128, 128] and W ∈ [10², 10⁶], |y(t) − x_n − (x_{n−1} − x_n)√(π/(2W))| ≤ 5.2·max(1, max|x|)·W^{−3/2} \
             (x₀ = 0; the constant is derived in proofs/haar.md).",
            property([50, 200, 1000], continuous_instances(), |p: &KeepNthContinuous| continuous_margin(p, 1.0))
                .sides("|y(t) − x_n − (x_{n−1} − x_n)√(π/(2W))|", "5.2·max(1, max|x|)·W^{−3/2}")
                .illustrate(continuous_figure),
        )
        .source(Paper::InputSelectivity, "Corollary 2 (App. A.3, eq 32–33) in the model of eq (8)", "h^M_n(t) = ∫_0^t g^M_n(s; t, x) x(s) ds, g^M_n = e^{−λ_n ∫_s^t Δ(x_r) dr} B_n; h₁ = H(s − n), h₂ = H(s − (n − 1)) as w_Δ → −∞.")
        .correction("The construction is right where the paper states it (continuous time, Δ only in the decay); its rate is W^{−1/2}, from the Gaussian layer e^{−Wδ²/2} left of each threshold.")
        .control("the layer mass √(π/W) (the ∫e^{−Wδ²} of Theorem 1's squared error)", property([50, 200, 1000], continuous_instances(), |p: &KeepNthContinuous| continuous_margin(p, std::f64::consts::SQRT_2)))
}

/// Registers Proposition 1 and Corollary 2.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_prop1());
    r.add(claim_cor2_printed());
    r.add(claim_cor2_corrected());
    r.add(claim_cor2_continuous());
}
