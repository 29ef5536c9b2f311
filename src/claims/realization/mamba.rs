//! 001 Sec. 3.1, App. B.2, C.2–C.3, E: Mamba's selective scan as a realization.
//!
//! * `001.c18` (Theorem): with bounded inputs the influence of u_s on the state decays at least
//!   like ā^{t−s}, ā from the smallest Δ the inputs allow; `001.c18.integrator` (Theorem,
//!   statistical): a marginal pole a = 1 accumulates variance linearly, a < 1 saturates.
//! * `001.c23` (Theorem): the scan step is exactly bilinear — affine in the state with
//!   coefficients that are functions of the input; `001.c23.taylor`: the first-order Taylor
//!   step's error is at most (ΔA)²/2.
//! * `001.c24` / `001.c24.coupled` (Theorems): channels are independent with Δ, B, C given, and
//!   coupled through Δ, B, C computed from all channels.
//! * `001.c25` (Theorem): the BPTT state loader (h prepended tokens) reproduces a scan started
//!   from x′₀, when the loader's per-step Ā, B̄ are overridden.

use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{custom, property, Claim, Eval, Figure, Kind, Outcome, Paper, Rounding, Series, Sizes, Style, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::math::softplus::softplus;
use crate::math::{Dual, Real};
use crate::mc::Stream;
use crate::model::{selective_scan, ScanInputs};
use crate::stats::{bonferroni, ConfidenceInterval};
use crate::strategy::{grid, grid_matrix, grid_vec};
use proptest::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// One selective channel with N states: `Δ_t = softplus(w u_t + β)`, `a_t[n] = e^{Δ_t A_n}`,
/// `x_t[n] = a_t[n] x_{t−1}[n] + Δ_t b_n u_t`, inputs |u_t| ≤ R.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensitivityCase {
    /// A_n < 0.
    pub a: Vec<f64>,
    /// b_n.
    pub b: Vec<f64>,
    /// w.
    pub w: f64,
    /// β (Δ bias).
    pub beta: f64,
    /// The input bound R.
    pub radius: f64,
    /// u_t, |u_t| ≤ R.
    pub u: Vec<f64>,
    /// The differentiated step s.
    pub s: usize,
}

fn sensitivity_cases() -> impl Strategy<Value = SensitivityCase> + Clone {
    (1usize..=4, 2usize..=64, grid(0.25, 4.0, 0.25))
        .prop_flat_map(|(n, t, radius)| {
            (
                grid_vec(n, -2.0, -0.0625, 0.0625),
                grid_vec(n, -1.0, 1.0, 0.125),
                grid(-2.0, 2.0, 0.125),
                grid(-3.0, 3.0, 0.125),
                Just(radius),
                grid_vec(t, -1.0, 1.0, 1.0 / 64.0),
                0..t,
            )
        })
        .prop_map(|(a, b, w, beta, radius, u, s)| SensitivityCase { a, b, w, beta, radius, u: u.into_iter().map(|v| v * radius).collect(), s })
}

impl SensitivityCase {
    /// ā = max_n e^{Δ_min A_n}, Δ_min = softplus(β − |w|R): the slowest decay bounded inputs allow.
    pub fn abar(&self) -> f64 {
        let dmin = softplus(self.beta - self.w.abs() * self.radius);
        self.a.iter().map(|a| (dmin * a).exp()).fold(0.0, f64::max)
    }
    /// `|∂x_t[n]/∂u_s|` for t ≥ s (forward-mode through the recurrence), per t then n.
    pub fn sensitivities(&self) -> Vec<Vec<f64>> {
        let mut x = vec![Dual::constant(0.0); self.a.len()];
        let mut out = Vec::new();
        for (t, &u) in self.u.iter().enumerate() {
            let ut = if t == self.s { Dual::var(u) } else { Dual::constant(u) };
            let delta = softplus(ut * self.w + self.beta);
            for ((xn, an), bn) in x.iter_mut().zip(&self.a).zip(&self.b) {
                *xn = (delta * *an).exp() * *xn + delta * ut * *bn;
            }
            if t >= self.s {
                out.push(x.iter().map(|v| v.d.abs()).collect());
            }
        }
        out
    }
}

/// `|∂x_t/∂u_s| ≤ rate^{t−s}·|∂x_s/∂u_s|` with `rate = ā` (or the control's), plus the products'
/// rounding: each step multiplies by a computed e^{ΔA} (within γ₄ of a_t), so γ_{4(t−s)+4} of
/// the bound.
fn decay_bound(c: &SensitivityCase, rate: f64) -> Eval {
    let sens = c.sensitivities();
    let mut worst = Eval::Margin(f64::INFINITY);
    for (lag, row) in sens.iter().enumerate() {
        for (n, v) in row.iter().enumerate() {
            let bound = rate.powi(lag as i32) * sens[0][n];
            let tol = Rounding::gamma(4 * lag + 4) * bound;
            worst = worst.min(Eval::le_by(*v, bound, Scale(bound.max(f64::MIN_POSITIVE) + tol), Tolerance::absolute(tol)));
        }
    }
    worst
}

/// Log₁₀ sensitivity of the output to the token at lag L for the three mechanisms, from their
/// formulas: attention's window (uniform weights 1/N inside it, none outside), Mamba's ā^L, and
/// B'MOJO's retained token (softmax weight e^g/(e^g + n − 1) with logit gap g = 8 over n = 24
/// tokens, whatever the lag).
fn sensitivity_figure() -> Figure {
    let (n_window, abar, g, n_tokens) = (16usize, 0.9f64, 8.0f64, 24.0f64);
    let lags: Vec<usize> = (0..=64).collect();
    Figure::new("log_sensitivity_by_lag", "Sensitivity of the output at t to the token at t − L", "lag L", "log₁₀ |∂out_t/∂v_{t−L}|")
        .with(Series::new("attention, window N = 16 (zero beyond: not drawn)", Style::Line, lags.iter().filter(|l| **l < n_window).map(|l| [*l as f64, -(n_window as f64).log10()]).collect()))
        .with(Series::new("Mamba, ā = 0.9: slope log₁₀ ā", Style::Line, lags.iter().map(|l| [*l as f64, *l as f64 * abar.log10()]).collect()))
        .with(Series::new("B'MOJO, token kept in the eidetic memory", Style::Dashed, lags.iter().map(|l| [*l as f64, (g.exp() / (g.exp() + n_tokens - 1.0)).log10()]).collect()))
        .caption("From the models' formulas: attention is deadbeat after N steps (001.c6.deadbeat), Mamba's influence decays like ā^L (001.c18), a token held in the eidetic memory keeps its weight at any lag (001.c21).")
}

/// The variance of `x_t = a x_{t−1} + ε_t`, ε ~ N(0, 1), x_0 = 0: `t` for a = 1,
/// `(1 − a^{2t})/(1 − a²)` otherwise.
fn ar_variance(a: f64, t: u64) -> f64 {
    if a == 1.0 {
        t as f64
    } else {
        (1.0 - a.powi(2 * t as i32)) / (1.0 - a * a)
    }
}

/// `001.c18.integrator`: for a ∈ {1, 0.9} and t ∈ {10, 100, 1000}, the mean of x_t² over P paths
/// divided by the predicted variance (`linear` predicts t for every a: the control), with the
/// exact χ²_P interval (x_t is Gaussian with mean 0), Bonferroni over the six cells.
fn integrator_check(linear: bool) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let paths: u64 = ctx.size("paths", Sizes::new(2000, 20_000, 200_000));
        let times = [10u64, 100, 1000];
        let poles = [1.0, 0.9];
        let alpha = bonferroni(ALPHA, poles.len() * times.len());
        let chi = ChiSquared::new(paths as f64).expect("P > 0");
        let (lo_q, hi_q) = (chi.inverse_cdf(alpha / 2.0) / paths as f64, chi.inverse_cdf(1.0 - alpha / 2.0) / paths as f64);
        let mut cells = Vec::new();
        let mut figure =
            Figure::new("integrator_variance", "Var x_t for a marginal pole (a = 1) and a stable one (a = 0.9)", "t", "mean of x_t² over paths").log_x();
        for (i, &a) in poles.iter().enumerate() {
            let key = ctx.key(&format!("integrator/{a}"));
            crate::parallel::enter();
            let sums: Vec<[f64; 3]> = (0..paths)
                .into_par_iter()
                .map(|p| {
                    let mut s = Stream::new(key, p);
                    let (mut x, mut out, mut k) = (0.0, [0.0; 3], 0);
                    for t in 1..=times[2] {
                        x = a * x + s.normal();
                        if t == times[k] {
                            out[k] = x * x;
                            k += 1;
                        }
                    }
                    out
                })
                .collect();
            let mut measured = Vec::new();
            for (k, &t) in times.iter().enumerate() {
                let mean = sums.iter().map(|v| v[k]).sum::<f64>() / paths as f64;
                let predicted = if linear { t as f64 } else { ar_variance(a, t) };
                let ratio = mean / predicted;
                cells.push(RateCell {
                    label: format!("a = {a}, t = {t}"),
                    measured: ConfidenceInterval { estimate: ratio, lo: ratio / hi_q, hi: ratio / lo_q, confidence: 1.0 - alpha },
                    predicted: 1.0,
                    slack: 0.0,
                    at_most: false,
                });
                measured.push([t as f64, mean]);
            }
            figure = figure.with(Series::new(format!("measured, a = {a}"), Style::Points, measured).color(i)).with(
                Series::new(
                    format!("{}, a = {a}", if a == 1.0 { "t" } else { "(1 − a^{2t})/(1 − a²)" }),
                    Style::Dashed,
                    times.iter().map(|&t| [t as f64, ar_variance(a, t)]).collect(),
                )
                .color(i),
            );
        }
        let outcome: Outcome =
            judge_rates(cells, &format!("exact χ²_P intervals of mean x_t²/predicted, P = {paths}, Bonferroni over 6 cells (each at 1 − {alpha:.2e})"));
        Ok(outcome.figures([figure]))
    })
}

/// A Mamba layer's inputs for the channel claims: d ≤ 4 channels, N ≤ 3 states, T ≤ 12 steps,
/// Δ = softplus(P_Δu + b_Δ), B = P_Bu, C = P_Cu computed from every channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelCase {
    /// u (T × d).
    pub u: Vec<Vec<f64>>,
    /// P_Δ (d × d).
    pub p_delta: Vec<Vec<f64>>,
    /// b_Δ (d).
    pub b_delta: Vec<f64>,
    /// P_B (N × d).
    pub p_b: Vec<Vec<f64>>,
    /// P_C (N × d).
    pub p_c: Vec<Vec<f64>>,
    /// A (N × d), negative.
    pub a: Vec<Vec<f64>>,
    /// The perturbed step and channel.
    pub at: (usize, usize),
}

fn channel_cases() -> impl Strategy<Value = ChannelCase> + Clone {
    (2usize..=4, 1usize..=3, 1usize..=12)
        .prop_flat_map(|(d, n, t)| {
            let nz = move |r, c| grid_matrix(r, c, 0.125, 1.0, 0.125);
            (
                grid_matrix(t, d, -1.0, 1.0, 0.0625),
                nz(d, d),
                grid_vec(d, -1.0, 1.0, 0.125),
                nz(n, d),
                nz(n, d),
                grid_matrix(n, d, -2.0, -0.125, 0.125),
                (0..t, 0..d),
            )
        })
        .prop_map(|(u, p_delta, b_delta, p_b, p_c, a, at)| ChannelCase { u, p_delta, b_delta, p_b, p_c, a, at })
}

impl ChannelCase {
    /// (δ, B, C) computed from `u`: δ (T × d) pre-activations, B and C (T × N).
    fn projections(&self, u: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let mv = |w: &[Vec<f64>], x: &[f64]| -> Vec<f64> { crate::model::bmojo::matvec(w, x) };
        let delta = u.iter().flat_map(|x| mv(&self.p_delta, x).into_iter().zip(&self.b_delta).map(|(v, b)| v + b).collect::<Vec<_>>()).collect();
        (delta, u.iter().flat_map(|x| mv(&self.p_b, x)).collect(), u.iter().flat_map(|x| mv(&self.p_c, x)).collect())
    }
    /// The outputs (T × d) on `u`, with δ, B, C from `frozen` (the unperturbed input) or from
    /// `u` itself.
    fn scan(&self, u: &[Vec<f64>], frozen: Option<&[Vec<f64>]>) -> Vec<f64> {
        let (d, n, len) = (u[0].len(), self.a.len(), u.len());
        let (delta, b, c) = self.projections(frozen.unwrap_or(u));
        let a: Vec<f64> = self.a.iter().flatten().copied().collect();
        let flat: Vec<f64> = u.iter().flatten().copied().collect();
        let mut y = vec![0.0; len * d];
        selective_scan(&ScanInputs { d, n, len, delta: &delta, delta_softplus: true, a: &a, b: &b, c: &c, u: &flat }, &mut y).expect("consistent shapes");
        y
    }
    /// The largest change of another channel's output when u[at] moves by 1/2.
    fn cross_talk(&self, frozen: bool) -> f64 {
        let mut moved = self.u.clone();
        moved[self.at.0][self.at.1] += 0.5;
        let d = self.u[0].len();
        let (y0, y1) = (self.scan(&self.u, frozen.then_some(self.u.as_slice())), self.scan(&moved, frozen.then_some(self.u.as_slice())));
        y0.iter().zip(&y1).enumerate().filter(|(i, _)| i % d != self.at.1).map(|(_, (a, b))| (a - b).abs()).fold(0.0, f64::max)
    }
}

/// [`channel_cases`] with every input entry nonzero (0 becomes 1/16).
fn nonzero_inputs() -> impl Strategy<Value = ChannelCase> + Clone {
    channel_cases().prop_map(|mut c| {
        c.u.iter_mut().flatten().filter(|v| **v == 0.0).for_each(|v| *v = 0.0625);
        c
    })
}

/// `001.c25`: a state x′₀ (N × d), the scan's per-step (Δ, B, C) and inputs (T × d).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoaderCase {
    /// x′₀ (N × d).
    pub x0: Vec<Vec<f64>>,
    /// The channel case supplying Δ, B, C, A and u.
    pub scan: ChannelCase,
}

/// Per step (Ā[n][c], B̄[n][c], C[n]) and the input row: x[n][c] ← Ā x + B̄ u[c],
/// y[c] = Σ_n C[n] x[n][c].
type ScanStep = (Vec<Vec<f64>>, Vec<Vec<f64>>, Vec<f64>, Vec<f64>);

fn run_steps(x0: &[Vec<f64>], steps: &[ScanStep]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut x = x0.to_vec();
    let mut ys = Vec::new();
    for (abar, bbar, c, u) in steps {
        for n in 0..x.len() {
            for ch in 0..x[n].len() {
                x[n][ch] = abar[n][ch] * x[n][ch] + bbar[n][ch] * u[ch];
            }
        }
        ys.push((0..u.len()).map(|ch| (0..x.len()).fold(0.0, |s, n| s + c[n] * x[n][ch])).collect());
    }
    (x, ys)
}

fn loader_gap(l: &LoaderCase, override_steps: bool) -> Eval {
    let s = &l.scan;
    let (n, d) = (s.a.len(), s.u[0].len());
    let (delta, b, c) = s.projections(&s.u);
    let steps: Vec<ScanStep> = (0..s.u.len())
        .map(|t| {
            let dl: Vec<f64> = (0..d).map(|ch| softplus(delta[t * d + ch])).collect();
            let abar = (0..n).map(|k| (0..d).map(|ch| (dl[ch] * s.a[k][ch]).exp()).collect()).collect();
            let bbar = (0..n).map(|k| (0..d).map(|ch| dl[ch] * b[t * n + k]).collect()).collect();
            (abar, bbar, c[t * n..(t + 1) * n].to_vec(), s.u[t].clone())
        })
        .collect();
    // The loader: step j writes column j of x′₀ through B̄ = e_j (Ā = 1), or — the control —
    // Mamba's own discretisation at a small Δ_L = 10⁻³ (Ā = e^{Δ_L A}, B̄ = Δ_L e_j).
    let dl = 1e-3;
    let loader: Vec<ScanStep> = (0..n)
        .map(|j| {
            let e = |k: usize| f64::from(u8::from(k == j));
            if override_steps {
                (vec![vec![1.0; d]; n], (0..n).map(|k| vec![e(k); d]).collect(), vec![0.0; n], l.x0[j].clone())
            } else {
                (
                    (0..n).map(|k| (0..d).map(|ch| (dl * s.a[k][ch]).exp()).collect()).collect(),
                    (0..n).map(|k| vec![dl * e(k); d]).collect(),
                    vec![0.0; n],
                    l.x0[j].clone(),
                )
            }
        })
        .collect();
    let (_, direct) = run_steps(&l.x0, &steps);
    let (_, loaded) = run_steps(&vec![vec![0.0; d]; n], &[loader, steps].concat());
    let gap = direct.iter().flatten().zip(loaded[n..].iter().flatten()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    let scale = direct.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    Eval::le_by(gap, 0.0, Scale(scale), Tolerance::NONE)
}

fn loader_cases() -> impl Strategy<Value = LoaderCase> + Clone {
    channel_cases()
        .prop_flat_map(|scan| (grid_matrix(scan.a.len(), scan.u[0].len(), -1.0, 1.0, 0.125), Just(scan)))
        .prop_map(|(x0, scan)| LoaderCase { x0, scan })
}

/// `001.c23`: one scan step `f_u(x) = e^{Δ(u)A} ⊙ x + Δ(u)B(u)u` is affine in x:
/// `f(x + y) − f(x) − f(y) + f(0) = 0` up to γ₄ of `|ā|(|x| + |y|) + |b̄u|`, per entry. The
/// control lets Δ depend on the state (Δ(u + x₁)): no longer bilinear.
fn bilinear(c: &(ChannelCase, Vec<f64>, Vec<f64>), state_dependent: bool) -> Eval {
    let (s, x, y) = c;
    let (d, n) = (s.u[0].len(), s.a.len());
    let (delta, b, _) = s.projections(&s.u);
    let step = |state: &[f64]| -> Vec<f64> {
        (0..n * d)
            .map(|i| {
                let (k, ch) = (i / d, i % d);
                let pre = delta[ch] + if state_dependent { state[ch] } else { 0.0 };
                let dl = softplus(pre);
                (dl * s.a[k][ch]).exp() * state[i] + dl * b[k] * s.u[0][ch]
            })
            .collect()
    };
    let xy: Vec<f64> = x.iter().zip(y).map(|(a, b)| a + b).collect();
    let zero = vec![0.0; n * d];
    let (fxy, fx, fy, f0) = (step(&xy), step(x), step(y), step(&zero));
    let mut worst = Eval::Margin(f64::INFINITY);
    for i in 0..n * d {
        let r = fxy[i] - fx[i] - fy[i] + f0[i];
        let scale = 2.0 * (x[i].abs() + y[i].abs()) + 4.0 * f0[i].abs();
        worst = worst.min(Eval::le_by(r.abs(), 0.0, Scale(scale.max(1.0)), Tolerance::absolute(Rounding::gamma(6) * scale)));
    }
    worst
}

/// `001.c23.taylor`: |e^{x} − (1 + x)| ≤ x²/(2·shrink) for x = ΔA ≤ 0, plus γ₃ of e^x + 1 + |x|.
fn taylor(x: f64, shrink: f64) -> Eval {
    let err = (x.exp() - (1.0 + x)).abs();
    let bound = x * x / (2.0 * shrink);
    let tol = Rounding::gamma(3) * (x.exp() + 1.0 + x.abs());
    Eval::le_by(err, bound, Scale(bound + tol), Tolerance::absolute(tol))
}

fn taylor_figure() -> Figure {
    let pts: Vec<f64> = (0..=60).map(|i| 10f64.powf(-3.0 + i as f64 * 0.075)).collect();
    Figure::new("taylor_step_error", "First-order Taylor step of App. E.1: e^{ΔA} against 1 + ΔA (A = −1)", "Δ|A|", "error")
        .log_x()
        .with(Series::new("|e^{ΔA} − (1 + ΔA)|", Style::Line, pts.iter().map(|x| [*x, ((-x).exp() - (1.0 - x)).abs()]).collect()))
        .with(Series::new("(ΔA)²/2", Style::Dashed, pts.iter().map(|x| [*x, x * x / 2.0]).collect()))
        .caption("The bound holds for every ΔA ≤ 0 but is small only for Δ|A| ≪ 1; Mamba's Δ|A| is often O(1), where the linearised 'bilinear Mamba' of eq (26) is not the scan.")
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.c18` (theorem): Sec. 3.1; App. C.3.
fn claim_c18() -> Claim {
    Claim::theorem(
            "001.c18",
            super::FAMILY,
            "Mamba's fading memory with bounded inputs: for one selective channel (N ≤ 4 states, A_n ∈ [−2, −1/16], Δ_t = softplus(w u_t + β), \
             |u_t| ≤ R ≤ 4), |∂x_t[n]/∂u_s| ≤ ā^{t−s}|∂x_s[n]/∂u_s| with ā = max_n exp(softplus(β − |w|R)·A_n) < 1 (forward-mode derivatives \
             through the recurrence), plus γ_{4(t−s)+4} of the bound.",
            property(CASES, sensitivity_cases(), |c: &SensitivityCase| decay_bound(c, c.abar())).sides("|∂x_t[n]/∂u_s|", "ā^{t−s}·|∂x_s[n]/∂u_s|").illustrate(|_| vec![sensitivity_figure()]),
        )
        .source(Paper::Bmojo, "Sec. 3.1; App. C.3", "… so long as it is stable (which is always the case thanks to Mamba's parametrization), it is guaranteed to remain bounded and decay to zero exponentially fast.")
        .correction("A uniform exponential rate needs inf Δ > 0, which holds on bounded inputs (Δ ≥ softplus(β − |w|R)); softplus(·) → 0 lets a → 1 for unbounded inputs.")
        .control("the rate at u = 0, exp(softplus(β)·max A_n), instead of ā", property(CASES, sensitivity_cases(), |c: &SensitivityCase| {
            let rate = c.a.iter().map(|a| (softplus(c.beta) * a).exp()).fold(0.0, f64::max);
            decay_bound(c, rate)
        }))
}

/// `001.c18.integrator` (theorem): Sec. 3.1.
fn claim_c18_integrator() -> Claim {
    Claim::theorem(
        "001.c18.integrator",
        super::FAMILY,
        "A marginally stable pole is permanent memory at unbounded cost: x_t = a x_{t−1} + ε_t (ε iid N(0, 1)) has Var x_t = t for a = 1 (linear \
             growth) and (1 − a^{2t})/(1 − a²) → 1/(1 − a²) for a = 0.9, at t = 10, 100, 1000.",
        integrator_check(false),
    )
    .source(Paper::Bmojo, "Sec. 3.1", "A marginally stable pole (a_i = 1) can be used as permanent memory but at an unbounded cost …")
    .control("Var x_t = t for a = 0.9 too (no saturation)", integrator_check(true))
}

/// `001.c23` (theorem): §3.1 (the first sentence) and App. E.1, eq (26).
fn claim_c23() -> Claim {
    Claim::theorem(
            "001.c23",
            super::FAMILY,
            "Mamba's selective step is exactly a bilinear system: x_{t+1} = z¹_t ⊙ x_t + z²_t with the features z¹ = e^{Δ(u)A}, z² = Δ(u)B(u)u of the \
             input alone, so the step is affine in the state: f(x + y) − f(x) − f(y) + f(0) = 0 (d ≤ 4, N ≤ 3), up to γ₆ of the terms.",
            property(CASES, channel_cases().prop_flat_map(|c| { let k = c.a.len() * c.u[0].len(); (Just(c), grid_vec(k, -2.0, 2.0, 0.0625), grid_vec(k, -2.0, 2.0, 0.0625)) }), |c: &(ChannelCase, Vec<f64>, Vec<f64>)| bilinear(c, false))
                .sides("|f(x + y) − f(x) − f(y) + f(0)|", "0, plus the rounding"),
        )
        .source(Paper::Bmojo, "§3.1 (the first sentence) and App. E.1, eq (26)", "[17] emphasizes the use of 'selective state space,' which is simply a bilinear realization … x̃_{t+1} = Ãz_t ∗ x̃_t + z_t P̃_B, y_t = x̃_t P̃_Cᵀ z_t + D (26).")
        .correction("The conclusion holds exactly with the feature map z_t = (e^{Δ_tA}, Δ_t B_t u_t); the printed derivation (Taylor step, softplus ≈ ReLU, pseudo-inverses) is not needed, and its ReLU/pseudo-inverse substitution is not valid (proofs/realization.md).")
        .control("Δ depending on the state, Δ(u, x)", property(CASES, channel_cases().prop_flat_map(|c| { let k = c.a.len() * c.u[0].len(); (Just(c), grid_vec(k, -2.0, 2.0, 0.0625), grid_vec(k, -2.0, 2.0, 0.0625)) }), |c: &(ChannelCase, Vec<f64>, Vec<f64>)| bilinear(c, true)))
}

/// `001.c23.taylor` (theorem): App. E.1.
fn claim_c23_taylor() -> Claim {
    Claim::theorem(
        "001.c23.taylor",
        super::FAMILY,
        "The first-order Taylor step of App. E.1, e^{ΔA} ≈ 1 + ΔA, errs by at most (ΔA)²/2 for every ΔA ∈ [−20, 0] — small only when Δ|A| ≪ 1.",
        property(CASES, grid(-20.0, 0.0, 1.0 / 1024.0), |x: &f64| taylor(*x, 1.0))
            .sides("|e^{ΔA} − (1 + ΔA)|", "(ΔA)²/2")
            .illustrate(|_| vec![taylor_figure()]),
    )
    .source(Paper::Bmojo, "App. E.1", "With some approximations, we can further show that Mamba can be written as a bilinear system on an augmented input space. Using the first order Taylor Series, we have exp(Diag(Δ_t)A)x_t ≈ (Diag(Δ_t)A + 11ᵀ)x_t")
    .control("(ΔA)²/4", property(CASES, grid(-20.0, 0.0, 1.0 / 1024.0), |x: &f64| taylor(*x, 2.0)))
}

/// `001.c24` (theorem): App. C.2, Remark.
fn claim_c24() -> Claim {
    Claim::theorem(
            "001.c24",
            super::FAMILY,
            "Mamba's channels are independent given Δ, B, C: with (Δ_t, B_t, C_t) held fixed, changing u_t[d′] changes no other channel's output \
             (d ≤ 4 channels, N ≤ 3, T ≤ 12), bit for bit.",
            property(CASES, channel_cases(), |c: &ChannelCase| Eval::le_by(c.cross_talk(true), 0.0, Scale(1.0), Tolerance::NONE)).sides("max change of y[d], d ≠ d′", "0"),
        )
        .source(Paper::Bmojo, "App. C.2, Remark", "Every single channel in a Mamba block is independent from each other and unnormalized, Mamba reduces the variability across channels with a coupling in the lower dimensional projections of the gating parameter Δ.")
        .control("Δ, B, C computed from the perturbed input", property(CASES, channel_cases(), |c: &ChannelCase| Eval::le_by(c.cross_talk(false), 0.0, Scale(1.0), Tolerance::NONE)))
}

/// `001.c24.coupled` (theorem): App. C.2, Remark.
fn claim_c24_coupled() -> Claim {
    Claim::theorem(
            "001.c24.coupled",
            super::FAMILY,
            "… and coupled through them: with Δ = softplus(P_Δu + b_Δ), B = P_Bu, C = P_Cu computed from every channel (projections with entries in \
             [1/8, 1]), changing u_t[d′] by 1/2 changes another channel's output (every input entry nonzero: a channel whose inputs are all 0 has state 0 and output 0 whatever Δ, B, C).",
            property(CASES, nonzero_inputs(), |c: &ChannelCase| Eval::gt(c.cross_talk(false), 0.0, Scale(1.0), Tolerance::NONE))
                .sides("max change of y[d], d ≠ d′", "0 (strictly above)"),
        )
        .source(
            Paper::Bmojo,
            "App. C.2, Remark",
            "… Mamba reduces the variability across channels with a coupling in the lower dimensional projections of the gating parameter Δ.",
        )
        .control("Δ, B, C held at the unperturbed input's", property(CASES, nonzero_inputs(), |c: &ChannelCase| Eval::gt(c.cross_talk(true), 0.0, Scale(1.0), Tolerance::NONE)))
}

/// `001.c25` (theorem): App. B.2.
fn claim_c25() -> Claim {
    Claim::theorem(
            "001.c25",
            super::FAMILY,
            "BPTT state loading: prepending N loader tokens — step j with Ā = 1, B̄ = e_j and the j-th row of x′₀ as input — brings a zero state to \
             x′₀, and every later output equals the scan started from x′₀, bit for bit (N ≤ 3, d ≤ 4, T ≤ 12).",
            property(CASES, loader_cases(), |c: &LoaderCase| loader_gap(c, true)).sides("max_t ‖y_t(loaded) − y_t(from x′₀)‖∞", "0"),
        )
        .source(Paper::Bmojo, "App. B.2", "… to enable processing non-zero initial hidden states (or caching) we need to process chunks of size T + h […] for t ∈ [0, h]: x_{t+1} = x_t + B′_t ⊙ x′_{0,t} […] B′_t is one-hot with 1 in dimension t, and acts a shifting operation which ensures that the tokenized previous hidden state is correctly loaded. Thus after h time-steps the hidden state x_h […]")
        .correction("Exact with the loader's Ā and B̄ set directly: in Mamba's parametrisation Ā = 1 needs Δ = 0, which also zeroes B̄ = ΔB, so the kernel's per-step (Ā, B̄) must be overridden. 't ∈ [0, h]' is h + 1 steps; the loader needs h.")
        .control("the loader through Mamba's discretisation at Δ = 10⁻³", property(CASES, loader_cases(), |c: &LoaderCase| loader_gap(c, false)))
}

/// Registers the Mamba-side claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c18());
    r.add(claim_c18_integrator());
    r.add(claim_c23());
    r.add(claim_c23_taylor());
    r.add(claim_c24());
    r.add(claim_c24_coupled());
    r.add(claim_c25());
}
