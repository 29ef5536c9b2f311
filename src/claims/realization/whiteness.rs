//! 001 Sec. 2: an optimal predictor's innovations are white.
//!
//! * `001.c2` (Theorem, statistical): the steady-state Kalman predictor's innovations pass the
//!   Ljung–Box test at its nominal size: over many random stable systems the rejection rate at
//!   α = 0.05 is 0.05 (exact binomial intervals); a predictor built on 0.5A is rejected far
//!   more often (the control).

use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{custom, Claim, Figure, Paper, Series, Sizes, Style, ALPHA};
use crate::math::linalg::{spectral_radius, Mat, Vector};
use crate::mc::{Stream, StreamKey};
use crate::model::lti::{innovations, kalman_predictor};
use crate::stats::{bonferroni, clopper_pearson, ljung_box, refutation_power};
use rayon::prelude::*;

/// Length of each simulated output series.
pub const SERIES_LENGTH: usize = 1000;
/// Ljung–Box lags h.
pub const LAGS: usize = 20;
/// The test's nominal size.
pub const SIZE: f64 = 0.05;

/// The state dimensions of the random systems (one cell each); 0 is the reference cell, an iid
/// N(0, 1) series tested the same way (the test's own size at T = 1000, h = 20).
const STATES: [usize; 4] = [0, 1, 2, 4];

/// One run: the Ljung–Box p-value of the innovations of a random system with `states` states
/// (`x_{t+1} = Ax_t + w_t`, `y_t = Cx_t + v_t`; A = ρG/ρ(G) with G iid N(0, 1) and ρ ~ U[0.5,
/// 0.95], C iid N(0, 1), w ~ N(0, I), v ~ N(0, r) with log r ~ U[ln ¼, ln 4]) under the
/// steady-state Kalman predictor built on `shrink`·A. The state starts at x₀ ~ N(0, P) with P
/// the predictor's error covariance and x̂₀ = 0, so with `shrink` = 1 the innovations are
/// exactly the stationary ones (iid N(0, CPCᵀ + r)) from t = 0.
fn run_p_value(key: StreamKey, run: u64, states: usize, shrink: f64) -> f64 {
    let mut s = Stream::new(key, run);
    if states == 0 {
        let e: Vec<f64> = (0..SERIES_LENGTH).map(|_| s.normal()).collect();
        return ljung_box(&e, LAGS).p_value;
    }
    let rho = 0.5 + 0.45 * s.uniform();
    let g = Mat::from_fn(states, states, |_, _| s.normal());
    let a = g.clone() * (rho / spectral_radius(&g));
    let c = Mat::from_fn(1, states, |_, _| s.normal());
    let r = (0.25f64.ln() + s.uniform() * 16f64.ln()).exp();
    let model = a.clone() * shrink;
    let Some(kalman) = kalman_predictor(&model, &c, &Mat::identity(states, states), &Mat::from_element(1, 1, r)) else {
        return f64::NAN;
    };
    let start = kalman.error_cov.clone().cholesky().map_or_else(|| Mat::zeros(states, states), |ch| ch.l());
    let mut x = start * Vector::from_fn(states, |_, _| s.normal());
    let noise = r.sqrt();
    let y: Vec<Vector> = (0..SERIES_LENGTH)
        .map(|_| {
            let out = &c * &x + Vector::from_element(1, noise * s.normal());
            x = &a * &x + Vector::from_fn(states, |_, _| s.normal());
            out
        })
        .collect();
    let e: Vec<f64> = innovations(&model, &c, &kalman.gain, &y).iter().map(|v| v[0]).collect();
    ljung_box(&e, LAGS).p_value
}

/// The p-values of `runs` runs per cell.
fn p_values(key_of: impl Fn(usize) -> StreamKey, runs: u64, shrink: f64) -> Vec<Vec<f64>> {
    STATES
        .iter()
        .map(|&n| {
            let key = key_of(n);
            crate::parallel::enter();
            (0..runs).into_par_iter().map(|i| run_p_value(key, i, n, shrink)).collect()
        })
        .collect()
}

/// The density of p-values in 20 equal bins of [0, 1] (1 everywhere for uniform p-values).
fn histogram(p: &[f64]) -> Vec<[f64; 2]> {
    let mut bins = [0u64; 20];
    for v in p.iter().filter(|v| v.is_finite()) {
        bins[((v * 20.0) as usize).min(19)] += 1;
    }
    bins.iter().enumerate().map(|(i, b)| [(i as f64 + 0.5) / 20.0, *b as f64 * 20.0 / p.len() as f64]).collect()
}

/// `001.c2`: the rejection rate of Ljung–Box at [`SIZE`] in each cell against [`SIZE`], with
/// the predictor built on `shrink`·A (1: the claim; 0.5: the control). The figure shows both
/// predictors' p-value densities (the other one on the first 500 runs).
fn whiteness_check(shrink: f64) -> impl crate::claim::Check {
    custom(crate::claim::Kind::Statistical, move |ctx| {
        let runs: u64 = ctx.size("runs", Sizes::new(500, 2000, 20_000));
        let key_of = |n: usize| ctx.key(&format!("whiteness/{n}"));
        let alpha = bonferroni(ALPHA, STATES.len());
        let judged = p_values(key_of, runs, shrink);
        let other_shrink = if shrink == 1.0 { 0.5 } else { 1.0 };
        let other = p_values(key_of, runs.min(500), other_shrink);
        let cells: Vec<RateCell> = STATES
            .iter()
            .zip(&judged)
            .map(|(&n, p)| {
                let rejected = p.iter().filter(|v| v.is_nan() || **v < SIZE).count() as u64; // a predictor that fails to settle counts as a rejection
                RateCell {
                    label: if n == 0 { "reference: iid N(0, 1) series".into() } else { format!("{n}-state systems") },
                    measured: clopper_pearson(rejected, runs, 1.0 - alpha),
                    predicted: SIZE,
                    slack: 0.0,
                    at_most: false,
                }
            })
            .collect();
        let power = refutation_power(runs, SIZE, alpha / 2.0, 2.0 * SIZE);
        let name = |k: f64| if k == 1.0 { "predictor on A (the claim)" } else { "predictor on 0.5A (the control)" };
        let pooled = |sets: &[Vec<f64>]| sets[1..].concat();
        let (claim_p, control_p) = if shrink == 1.0 { (pooled(&judged), pooled(&other)) } else { (pooled(&other), pooled(&judged)) };
        let figure = Figure::new("ljung_box_p_values", "Ljung–Box p-values of the Kalman innovations (T = 1000, h = 20)", "p-value", "density")
            .with(Series::new(name(1.0), Style::Points, histogram(&claim_p)).color(0))
            .with(Series::new(name(0.5), Style::Points, histogram(&control_p)).color(1))
            .with(Series::new("uniform (white innovations)", Style::Dashed, vec![[0.0, 1.0], [1.0, 1.0]]).color(2))
            .caption("Pooled over 1-, 2- and 4-state systems. White innovations give uniform p-values; the mis-specified predictor's pile up at 0.");
        let outcome = judge_rates(
            cells,
            &format!(
                "Clopper–Pearson intervals of the rejection rate at α = {SIZE} over {runs} runs per cell, Bonferroni over {} cells (each at 1 − {alpha:.2e}); \
                 power against a true rate of {:.2}: {power:.3}",
                STATES.len(),
                2.0 * SIZE
            ),
        );
        Ok(outcome.detail("power_against_twice_the_size", power).figures([figure]))
    })
}

/// `001.c2` (theorem): Sec. 2 (and its ref. \[28\], Ljung & Box 1978).
fn claim_c2() -> Claim {
    Claim::theorem(
            "001.c2",
            super::FAMILY,
            "An optimal predictor's innovations are white: for random stable systems x_{t+1} = Ax_t + w_t, y_t = Cx_t + v_t (1, 2 or 4 states, \
             spectral radius in [0.5, 0.95], scalar output) the steady-state Kalman predictor's innovations over T = 1000 steps are rejected by the \
             Ljung–Box test (h = 20, α = 0.05) at rate 0.05, as an iid Gaussian series is.",
            whiteness_check(1.0),
        )
        .source(Paper::Bmojo, "Sec. 2 (and its ref. [28], Ljung & Box 1978)", "… yields a residual ϵ_{t+1} = u_{t+1} − û_{t+1} ('innovation process') that is as close as possible to independent and identically distributed samples (IID). In a nutshell, an optimal predictor is one that makes the prediction error unpredictable.")
        .control("the predictor built on 0.5A (a mis-specified model)", whiteness_check(0.5))
}

/// Registers the whiteness claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c2());
}
