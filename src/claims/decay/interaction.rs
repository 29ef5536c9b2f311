//! The interaction-term model of 004 §4: Theorem 3 (its LRD) and §4.1 (does it still decay?).
//!
//! * `004.thm3.printed` (Erratum): Eq (16) with the second sum running to t.
//! * `004.thm3.corrected` (Theorem): the sum to t−1, and the compact form
//!   `Φ(t+k,t)[B̄_t + 2x_t (Wᵀh_{t−1}) G]`, equal the derivative. Control: x_t in place of 2x_t.
//! * `004.sec41` (Theorem, rate): when the model is stable (top Lyapunov exponent λ_top < 0),
//!   LRD still decays exponentially, at rate λ_top; in the special case of §4.2 the rate is
//!   exactly μ = E ln(λ_H + γX²). Control: the SSM's rate ln ρ(Ā), ignoring the interaction.

use crate::claim::custom;
use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::Uncertified;
use crate::claim::{property, Check, Claim, Context, ErrorKind, Eval, Figure, Kind, Outcome, Paper, Rounding, Series, Sizes, Style, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::error::Result;
use crate::math::derivative;
use crate::math::linalg::{dist, norm};
use crate::math::linalg::{expm, mat_from_rows, mat_to_rows, spectral_radius, Mat, Vector};
use crate::math::quadrature::expected_log_c_plus_gamma_x2;
use crate::mc::jobs::{InteractionJob, InteractionPath, Start};
use crate::mc::RunJob;
use crate::mc::Stream;
use crate::model::InteractionSsm;
use crate::stats::{bonferroni, mean_interval, ConfidenceInterval};
use crate::strategy::{grid, grid_matrix, grid_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// An interaction-model instance with scalar inputs and fixed Δ.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InteractionInstance {
    /// Continuous A (H×H), rows.
    pub a: Vec<Vec<f64>>,
    /// Continuous B.
    pub b: Vec<f64>,
    /// Fixed step Δ (ZOH).
    pub delta: f64,
    /// G.
    pub g: Vec<f64>,
    /// W.
    pub w: Vec<f64>,
    /// Initial state h_0.
    pub h0: Vec<f64>,
    /// Inputs x_1..x_T.
    pub x: Vec<f64>,
    /// Differentiated time t.
    pub t: usize,
    /// Lag k.
    pub k: usize,
}

impl InteractionInstance {
    fn model(&self) -> InteractionSsm {
        let mut m = InteractionSsm::from_continuous(
            &mat_from_rows(&self.a),
            &Vector::from_vec(self.b.clone()),
            self.delta,
            Vector::from_vec(self.g.clone()),
            Vector::from_vec(self.w.clone()),
        );
        m.h0 = Vector::from_vec(self.h0.clone());
        m
    }
}

fn instances() -> impl Strategy<Value = InteractionInstance> {
    (1usize..=4, 1usize..=10, 0usize..=10)
        .prop_flat_map(|(h, t, k)| {
            (
                grid_matrix(h, h, -2.0, 2.0, 0.125),
                grid_vec(h, -2.0, 2.0, 0.125),
                grid(0.0625, 1.0, 0.0625),
                grid_vec(h, -1.0, 1.0, 0.125),
                grid_vec(h, -1.0, 1.0, 0.125),
                grid_vec(h, -1.0, 1.0, 0.125),
                grid_vec(t + k, -2.0, 2.0, 0.0625),
                Just((t, k)),
            )
        })
        .prop_map(|(a, b, delta, g, w, h0, x, (t, k))| InteractionInstance { a, b, delta, g, w, h0, x, t, k })
}

#[derive(Clone, Copy)]
enum Formula {
    Printed,
    Corrected,
    HalfInteraction,
}

/// The rounding scale of Theorem 3's three computations: each is a sum of products of up to
/// t+k+1 transition matrices and inputs, whose rounding error is at most γ_N times the same
/// computation on entrywise absolute values (Higham, Accuracy and Stability, §3.5: |fl(AB) − AB|
/// ≤ γ_n|A||B|). The absolute model (|Ā|, |G|, |W|, |B̄|, |h₀|, inputs |x|) evaluates it
/// exactly, with no cancellation: the derivative by dual numbers, Eq (16) and the compact form.
/// A fixed relative tolerance (1e−9 of the result, as before) is refuted by rounding where the
/// terms cancel — an unstable Ā of growth ~10 per step, found by the targeted search.
fn theorem3_rounding_scale(inst: &InteractionInstance, t: usize, k: usize) -> f64 {
    let m = inst.model();
    let abs = InteractionSsm { abar: m.abar.abs(), bbar: m.bbar.abs(), g: m.g.abs(), w: m.w.abs(), h0: m.h0.abs() };
    let x: Vec<f64> = inst.x.iter().map(|v| v.abs()).collect();
    let derivative_abs = derivative(&x, t - 1, |x| abs.states(x).pop().unwrap());
    norm(&derivative_abs) + abs.lrd_eq16(&x, t, k, t).norm() + abs.lrd_compact(&x, t, k).norm()
}

fn theorem3_margin(inst: &InteractionInstance, f: Formula) -> Eval {
    let m = inst.model();
    let (t, k) = (inst.t, inst.k);
    let exact = derivative(&inst.x, t - 1, |x| m.states(x).pop().unwrap());
    // γ_N with N = 4·(t+k+2)·H operations along the longest chain (a product of t+k+1 H×H
    // matrices, the input terms and the sums), times the absolute computation's size.
    let n_ops = 4 * (t + k + 2) * m.size();
    let tolerance = Rounding::gamma(n_ops) * theorem3_rounding_scale(inst, t, k);
    let check = |v: Vector| {
        let got: Vec<f64> = v.iter().copied().collect();
        Eval::close(dist(&got, &exact), Scale(norm(&exact) + norm(&got) + 1e-300), Tolerance::relative(1e-9).plus_absolute(tolerance))
    };
    match f {
        Formula::Printed => check(m.lrd_eq16(&inst.x, t, k, t)),
        Formula::Corrected => check(m.lrd_eq16(&inst.x, t, k, t - 1)).min(check(m.lrd_compact(&inst.x, t, k))),
        Formula::HalfInteraction => {
            let plain = m.propagate(&inst.x, t, k, m.bbar.clone());
            check((m.lrd_compact(&inst.x, t, k) + plain) * 0.5)
        }
    }
}

/// One rate cell of §4.1: an interaction model, the measured LRD rate, the predicted rate.
struct Sec41Cell {
    label: String,
    model: InteractionSsm,
    predicted: f64,
    predicted_slack: f64,
    ssm_rate: f64,
}

fn job(m: &InteractionSsm, start: Start, horizon: u64, paths: u64, key: crate::mc::StreamKey) -> InteractionJob {
    InteractionJob {
        abar: mat_to_rows(&m.abar),
        bbar: m.bbar.iter().copied().collect(),
        g: m.g.iter().copied().collect(),
        w: m.w.iter().copied().collect(),
        start,
        horizon,
        burn_in: crate::estimate::lyapunov_burn_in(horizon),
        paths,
        checkpoints: 30,
        key,
    }
}

fn rates(paths: &[InteractionPath], horizon: u64) -> Vec<f64> {
    let n = (horizon - crate::estimate::lyapunov_burn_in(horizon)) as f64;
    paths.iter().map(|p| p.log_growth_after_burn_in / n).collect()
}

/// A random orthogonal H×H matrix from `stream`.
fn orthogonal(stream: &mut Stream, h: usize) -> Mat {
    Mat::from_fn(h, h, |_, _| stream.normal()).qr().q()
}

/// A general §4.1 model: Ā = expm(−Q diag(U(0.1, 1)) Qᵀ) (Q random orthogonal), G, W ~ N(0, 0.3²),
/// B̄ ~ N(0, 1), h_0 = 0.
fn general_model(stream: &mut Stream, h: usize) -> InteractionSsm {
    let q = orthogonal(stream, h);
    let d = Vector::from_fn(h, |_, _| -(0.1 + 0.9 * stream.uniform()));
    let abar = expm(&(&q * Mat::from_diagonal(&d) * q.transpose()));
    let g = Vector::from_fn(h, |_, _| 0.3 * stream.normal());
    let w = Vector::from_fn(h, |_, _| 0.3 * stream.normal());
    let bbar = Vector::from_fn(h, |_, _| stream.normal());
    InteractionSsm { abar, bbar, g, w, h0: Vector::zeros(h) }
}

/// A general §4.1 model drawn and rejected because its λ_top was not shown to be negative.
#[derive(Serialize)]
struct RejectedDraw {
    draw: usize,
    lambda_top: ConfidenceInterval,
    reason: &'static str,
}

/// The §4.1 cells: the special case of §4.2 (four (λ_H, γ), predicted rate μ by quadrature) and
/// [`SEC41_GENERAL`] general random models whose top Lyapunov exponent, estimated by
/// [`lambda_top`](crate::estimate::lambda_top), has its whole interval below 0. Draws that fail that are rejected and
/// returned (at most [`SEC41_MAX_DRAWS`] draws).
fn sec41_cells(ctx: &Context, horizon: u64, paths: u64, conf: f64) -> Result<(Vec<Sec41Cell>, Vec<RejectedDraw>)> {
    let h = 4;
    let mut stream = Stream::new(ctx.key("instances"), 0);
    let mut cells = vec![];
    // The special case of §4.2: Ā = P diag(λ) Pᵀ, G = W = √γ p_H, other modes slower than λ_H.
    for &(lh, gamma) in &SEC41_SPECIAL {
        let p = orthogonal(&mut stream, h);
        let lam = Vector::from_vec(vec![0.5 * lh, 0.7 * lh, 0.9 * lh, lh]);
        let abar = &p * Mat::from_diagonal(&lam) * p.transpose();
        let ph = p.column(h - 1).into_owned() * gamma.sqrt();
        let bbar = &p * Vector::from_element(h, 1.0);
        let model = InteractionSsm { abar, bbar, g: ph.clone(), w: ph, h0: Vector::zeros(h) };
        let mu = expected_log_c_plus_gamma_x2(lh, gamma);
        cells.push(Sec41Cell { label: format!("special λ_H={lh}, γ={gamma}"), model, predicted: mu, predicted_slack: 1e-9, ssm_rate: lh.ln() });
    }
    // General instances (see `general_model`).
    let mut rejected = vec![];
    for draw in 0..SEC41_MAX_DRAWS {
        if cells.len() == SEC41_SPECIAL.len() + SEC41_GENERAL {
            break;
        }
        let model = general_model(&mut stream, h);
        let top = crate::estimate::lambda_top(&model, horizon, paths, ctx.key(&format!("lyapunov-matrix{draw}")), conf);
        if top.hi < 0.0 {
            let ssm_rate = spectral_radius(&model.abar).ln();
            cells.push(Sec41Cell {
                label: format!("general #{draw} (λ_top ∈ [{:.4}, {:.4}])", top.lo, top.hi),
                model,
                predicted: top.estimate,
                predicted_slack: 0.5 * (top.hi - top.lo),
                ssm_rate,
            });
        } else {
            let reason = if top.lo > 0.0 {
                "unstable: λ_top > 0 (the model diverges; §4.1 is about stable models)"
            } else {
                "undecided: λ_top's interval contains 0"
            };
            rejected.push(RejectedDraw { draw, lambda_top: top, reason });
        }
    }
    if cells.len() < SEC41_SPECIAL.len() + SEC41_GENERAL {
        return Err(crate::error::Error::InvalidParameter(format!("§4.1: fewer than {SEC41_GENERAL} stable general models in {SEC41_MAX_DRAWS} draws")));
    }
    Ok((cells, rejected))
}

/// What the LRD paths of one cell gave.
struct Sec41Measurement {
    /// The measured decay rate with its interval.
    rate: ConfidenceInterval,
    /// Fraction of steps at which ‖LRD‖ increased.
    increases: f64,
    /// Path 0, for the figure.
    first: InteractionPath,
}

/// Runs the LRD paths of every cell (started at t = 20) and measures their decay rate.
fn sec41_measure(ctx: &Context, cells: &[Sec41Cell], horizon: u64, paths: u64, conf: f64) -> Result<Vec<Sec41Measurement>> {
    ctx.progress.expect(cells.len() as u64 * paths);
    cells
        .iter()
        .enumerate()
        .map(|(ci, cell)| {
            let j = job(&cell.model, Start::Lrd { t: 20 }, horizon, paths, ctx.key(&format!("lrd{ci}")));
            let out = ctx.backend.run(&j, ctx.progress)?;
            let increases = out.iter().map(|p| p.increases).sum::<u64>() as f64 / (paths * horizon) as f64;
            Ok(Sec41Measurement { rate: mean_interval(&rates(&out, horizon), conf), increases, first: out[0].clone() })
        })
        .collect()
}

/// The rate cells: each measured rate against μ / λ_top (or, for the control, the SSM's ln ρ(Ā)).
fn sec41_judge(cells: &[Sec41Cell], measured: &[Sec41Measurement], use_ssm_rate: bool, correction: &str) -> Outcome {
    let rate_cells = cells
        .iter()
        .zip(measured)
        .map(|(cell, m)| RateCell {
            label: cell.label.clone(),
            measured: m.rate,
            predicted: if use_ssm_rate { cell.ssm_rate } else { cell.predicted },
            slack: cell.predicted_slack + 1e-6,
            at_most: false,
        })
        .collect();
    judge_rates(rate_cells, correction)
}

/// Path 0 of the first special cell against both slopes, and measured against predicted rates.
fn sec41_figures(cells: &[Sec41Cell], measured: &[Sec41Measurement]) -> Vec<Figure> {
    let (cell, p0) = (&cells[0], &measured[0].first);
    let slope = |rate: f64| p0.trace.iter().map(|&(k, _)| [k as f64, p0.log_v0 + rate * k as f64]).collect();
    let paths = Figure::new("lrd-paths", "Interaction-model LRD: non-monotone, still exponential", "k", "ln ‖LRD(t+k,t)‖₂")
        .with(Series::new("path 0 (λ_H = 0.5, γ = 0.3)", Style::Line, p0.trace.iter().map(|&(k, l)| [k as f64, l]).collect()))
        .with(Series::new(format!("slope μ = E ln(λ_H + γX²) = {:.4}", cell.predicted), Style::Dashed, slope(cell.predicted)))
        .with(Series::new(format!("SSM slope ln λ_H = {:.4}", cell.ssm_rate), Style::Dashed, slope(cell.ssm_rate)))
        .caption("Renormalised products in log space; the LRD rises at some steps but its slope is μ, above the SSM's ln λ_H.");
    let scatter: Vec<[f64; 2]> = cells.iter().zip(measured).map(|(c, m)| [c.predicted, m.rate.estimate]).collect();
    let lo = scatter.iter().map(|p| p[0].min(p[1])).fold(f64::INFINITY, f64::min);
    let hi = scatter.iter().map(|p| p[0].max(p[1])).fold(f64::NEG_INFINITY, f64::max);
    let rates = Figure::new("rates", "Measured LRD decay rate against the predicted rate", "predicted rate (μ or λ_top)", "measured rate")
        .with(Series::new("cells", Style::Points, scatter))
        .with(Series::new("measured = predicted", Style::Dashed, vec![[lo, lo], [hi, hi]]))
        .caption("Every stable cell decays exponentially at its predicted rate: special cells against μ by quadrature, general cells against λ_top from the matrix-product estimator (other code, other streams).");
    vec![paths, rates]
}

/// The (λ_H, γ) of §4.1's special cells.
const SEC41_SPECIAL: [(f64, f64); 4] = [(0.5, 0.3), (0.6, 0.2), (0.3, 0.6), (0.8, 0.1)];
/// Stable general random models judged for §4.1.
const SEC41_GENERAL: usize = 3;
/// At most this many general models are drawn to find [`SEC41_GENERAL`] stable ones.
const SEC41_MAX_DRAWS: usize = 20;

/// §4.1: measure → judge → figures.
fn sec41_check(use_ssm_rate: bool) -> impl Check {
    custom(Kind::Rate, move |ctx| {
        let horizon = ctx.size("horizon", Sizes::new(2_000, 20_000, 200_000));
        let paths = ctx.size("paths", Sizes::new(48, 96, 256));
        let m_total = SEC41_SPECIAL.len() + SEC41_GENERAL;
        let conf = 1.0 - bonferroni(ALPHA, m_total);
        let (cells, rejected) = sec41_cells(ctx, horizon, paths, conf)?;
        let measured = sec41_measure(ctx, &cells, horizon, paths, conf)?;
        let correction = format!("Bonferroni over {m_total} cells, each interval at {conf:.5}");
        Ok(sec41_judge(&cells, &measured, use_ssm_rate, &correction)
            .detail("horizon", horizon)
            .detail("paths_per_cell", paths)
            .detail("burn_in", crate::estimate::lyapunov_burn_in(horizon))
            .detail("general_draws", SEC41_GENERAL + rejected.len())
            .detail("general_draws_rejected", &rejected)
            .detail("fraction_of_steps_with_increase", measured.iter().map(|m| m.increases).collect::<Vec<_>>())
            .figures(sec41_figures(&cells, &measured)))
    })
}

/// §4.1 in the mean: the x_j (j > t) are iid with E x² = 1 and independent of v_0 (which depends
/// on x_{≤t} only), so E[LRD(t+k,t) | x_{≤t}] = E[M]^k v_0 = (Ā + GWᵀ)^k v_0. `interaction = false`
/// is the control: the SSM's Ā^k v_0. Models as §4.1's general cells, v_0 = B̄; each coordinate's
/// Monte Carlo mean (Student-t, Bonferroni over all cells) must contain the exact value.
fn mean_check(interaction: bool) -> impl Check {
    custom(Kind::Statistical, move |ctx| {
        let replicates = ctx.size("replicates", Sizes::new(2_000, 20_000, 200_000));
        let (h, models, ks) = (4, 6, [1usize, 5, 20]);
        let m_total = models * ks.len() * h;
        let conf = 1.0 - bonferroni(ALPHA, m_total);
        let mut stream = Stream::new(ctx.key("models"), 0);
        let mut cells = vec![];
        for model_index in 0..models {
            let model = general_model(&mut stream, h);
            let mean_m = if interaction { &model.abar + &model.g * model.w.transpose() } else { model.abar.clone() };
            let bbar = model.bbar.clone();
            for &k in &ks {
                let mut draws = Stream::new(ctx.key(&format!("draws{model_index}/{k}")), 0);
                let samples: Vec<Vector> = (0..replicates)
                    .map(|_| {
                        let x: Vec<f64> = (0..k).map(|_| draws.normal()).collect();
                        model.propagate(&x, 0, k, bbar.clone())
                    })
                    .collect();
                let exact = mean_m.pow(k as u32) * &bbar;
                for i in 0..h {
                    let coordinate: Vec<f64> = samples.iter().map(|v| v[i]).collect();
                    cells.push(RateCell {
                        label: format!("model {model_index}, k = {k}, coordinate {i}"),
                        measured: mean_interval(&coordinate, conf),
                        predicted: exact[i],
                        slack: 1e-12 * exact[i].abs().max(1.0),
                        at_most: false,
                    });
                }
            }
        }
        let mut out = judge_rates(cells, &format!("Bonferroni over {m_total} coordinates, each Student-t interval at {conf:.7}"));
        out.cases = replicates * (models * ks.len()) as u64;
        Ok(out.detail("replicates_per_cell", replicates).detail("models", models).detail("k", ks))
    })
}

const CASES: [u64; 3] = [300, 2000, 20000];
const PRINTED: &str = "LRD(t+k,t) = (∏_{i=t+1}^{t+k} M_i)(2x_t GWᵀ)(∏_{i=1}^{t−1} M_i) h_0 + Σ_{i=1}^{t} (∏_{j=t+1}^{t+k} M_j (2x_t GWᵀ) ∏_{j=i+1}^{t−1} M_j) B̄_i x_i + (∏_{j=t+1}^{t+k} M_j) B̄_t, with M_i = Ā_i + G x_i x_iᵀ Wᵀ.";

/// `004.thm3.printed` (erratum): Theorem 3, Eq. (16).
fn claim_thm3_printed() -> Claim {
    Claim::erratum(
            "004.thm3.printed",
            super::FAMILY,
            "Eq (16) as printed (second sum to t, empty product = I) equals dh_{t+k}/dx_t of the interaction model \
             (scalar x, fixed Δ, ZOH, H ≤ 4, t ≤ 10, k ≤ 10, any h_0; dual numbers, relative 1e−9).",
            property(CASES, instances(), |i: &InteractionInstance| theorem3_margin(i, Formula::Printed)),
        )
        .source(Paper::RethinkingLrd, "Theorem 3, Eq. (16)", PRINTED)
        .correction(
            "The i = t summand does not exist (only i ≤ t−1 contain x_t through h_{t−1}); it adds the spurious \
             2x_t² Φ(t+k,t) G (Wᵀ B̄_t). Corrected: 004.thm3.corrected.",
        )
        .error(ErrorKind::Typo, "The second sum's upper limit: 'Σ_{i=1}^{t}' should read Σ_{i=1}^{t−1} (only B̄_i x_i with i ≤ t−1 reach h_{t−1}); with the empty-product convention the printed i = t term adds a spurious 2x_t² Φ(t+k,t) G (Wᵀ B̄_t). With the evident intended limit the formula is exact: 004.thm3.corrected.")
        .holds_instead(&["004.thm3.corrected"])
    .uncertified(Uncertified::NoEnclosure, "Eq (16)'s side uses f64 matrix exponentials and products (nalgebra), which have no enclosure; the Jacobian side alone could be enclosed (dual numbers over intervals, math::Dual<Interval>)")
}

/// `004.thm3.corrected` (theorem): Theorem 3, corrected (proofs/decay.md).
fn claim_thm3_corrected() -> Claim {
    Claim::theorem(
        "004.thm3.corrected",
        super::FAMILY,
        "Eq (16) with the second sum to t−1, and the compact form Φ(t+k,t)[B̄_t + 2x_t (Wᵀh_{t−1}) G], both equal \
             dh_{t+k}/dx_t (same instances as 004.thm3.printed; dual numbers, relative 1e−9).",
        property(CASES, instances(), |i: &InteractionInstance| theorem3_margin(i, Formula::Corrected)),
    )
    .source(Paper::RethinkingLrd, "Theorem 3, corrected (proofs/decay.md)", PRINTED)
    .correction("Second sum to t−1; compact form derived from h_t = M_t h_{t−1} + B̄_t x_t.")
    .control(
        "x_t in place of 2x_t in the interaction term",
        property(CASES, instances(), |i: &InteractionInstance| theorem3_margin(i, Formula::HalfInteraction)),
    )
}

/// `004.sec41` (theorem): §4.1 and Fig. 1.
fn claim_sec41() -> Claim {
    Claim::theorem(
            "004.sec41",
            super::FAMILY,
            "For a stable interaction model with x iid N(0,1), (1/k) ln ‖LRD(t+k,t)‖₂ → λ_top < 0: exponential decay. \
             Special case of §4.2 (Ā = P diag(λ)Pᵀ, G = W = √γ p_H, four (λ_H, γ) with μ < 0): the rate equals \
             μ = E ln(λ_H + γX²) (quadrature). Three random instances (H = 4, G, W ~ N(0, 0.09)) with λ_top < 0: the rate \
             equals λ_top estimated from the Frobenius norm of the matrix product on independent streams. Rates measured after a \
             burn-in of half the horizon over 48 / 96 / 256 paths of 2·10³ / 2·10⁴ / 2·10⁵ steps; Student-t intervals, Bonferroni over the cells \
             at α = 10⁻⁴.",
            sec41_check(false),
        )
        .split_samples()
        .source(Paper::RethinkingLrd, "§4.1 and Fig. 1", "… why the new formula does not follow the exponential decaying constaints [sic] as SSM/Mamba. […] the dependency is the sum between exp(λ₁Δ) and the other term, breaking the exponential decay property.")
        .correction(
            "Read as \"not exponentially decaying\", the claim is false whenever the model is stable: the LRD is a product of \
             iid random matrices applied to v_0, so it decays at the top Lyapunov exponent (Furstenberg–Kesten); only the \
             monotonicity is lost.",
        )
        .control("the SSM's rate ln ρ(Ā), ignoring the interaction term", sec41_check(true))
}

/// `004.sec41.mean` (theorem): §4.1, eq (16) (the interaction model's LRD, in mean), and §4.2, eq (17).
fn claim_sec41_mean() -> Claim {
    Claim::theorem(
            "004.sec41.mean",
            super::FAMILY,
            "§4.1 in the mean: with x_j iid N(0, 1) after t, E[LRD(t+k,t) | x_{≤t}] = (Ā + GWᵀ)^k v_0 (E x² = 1; v_0 depends on x_{≤t} only). \
             Six random models (Ā = expm(−Q diag(U(0.1, 1)) Qᵀ), G, W ~ N(0, 0.3²), H = 4), v_0 = B̄, k ∈ {1, 5, 20}: every coordinate's \
             Monte Carlo mean over 2000 / 20000 / 200000 draws contains the exact value (Student-t, Bonferroni over the 72 coordinates at α = 10⁻⁴).",
            mean_check(true),
        )
        .source(Paper::RethinkingLrd, "§4.1, eq (16) (the interaction model's LRD, in mean), and §4.2, eq (17)", "… why the new formula does not follow the exponential decaying constaints [sic] as SSM/Mamba.")
        .correction("In the mean the interaction model is an ordinary linear recurrence with transition Ā + GWᵀ: its mean LRD decays exponentially at rate ln ρ(Ā + GWᵀ) (whereas typical paths decay at λ_top, 004.sec41).")
        .control("the SSM's mean Ā^k v_0 (the interaction term's mean dropped)", mean_check(false))
}

/// Registers the interaction-model claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm3_printed());
    r.add(claim_thm3_corrected());
    r.add(claim_sec41());
    r.add(claim_sec41_mean());
}
