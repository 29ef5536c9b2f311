//! 004 Figure 2: histograms of 10⁴ samples of ln ∏_{i≤t}(λ_H + γx_i²) at t = 10⁴ for
//! (λ_H, γ) = (0.9, 0.099) and (0.5, 0.499).
//!
//! * `004.fig2` (Theorem): the sample mean and standard deviation agree with tμ and √(t Var) from
//!   quadrature (the quadrature reference in proofs/stability.md predicts −91.05 ± 12.18 and −1603.8 ± 51.75). Control: the mean
//!   t ln(λ_H + γ) that the text's "(λ_H + γ)^t" suggests.

use crate::claim::custom;
use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{Check, Claim, Figure, Kind, Paper, Series, Sizes, Style, ALPHA};
use crate::math::subexp::LogChi2;
use crate::mc::jobs::TailSumJob;
use crate::mc::RunJob;
use crate::stats::{bonferroni, mean_interval, ConfidenceInterval};
use statrs::distribution::{ContinuousCDF, Normal};

const SETTINGS: [(f64, f64); 2] = [(0.9, 0.099), (0.5, 0.499)];
const T: u64 = 10_000;
/// The predicted (mean, sd) of the two histograms (proofs/stability.md).
pub const REFERENCE: [(f64, f64); 2] = [(-91.05, 12.18), (-1603.8, 51.75)];

fn fig2_check(paper_mean: bool) -> impl Check {
    custom(Kind::Statistical, move |ctx| {
        let samples: u64 = ctx.size("samples", Sizes::new(2000, 10_000, 10_000));
        let level = bonferroni(ALPHA, 2 * SETTINGS.len());
        let zq = Normal::new(0.0, 1.0).unwrap().inverse_cdf(1.0 - level / 2.0);
        let (mut cells, mut figs, mut reference) = (vec![], vec![], vec![]);
        ctx.progress.expect(SETTINGS.len() as u64 * samples.div_ceil(1024));
        for (i, &(c, gamma)) in SETTINGS.iter().enumerate() {
            let law = LogChi2::new(c, gamma).expect("positive");
            let (mean, sd) = (T as f64 * law.mean(), (T as f64 * law.variance()).sqrt());
            let job = TailSumJob { c, gamma, times: vec![T], samples, key: ctx.key(&format!("fig2-{i}")) };
            let ys: Vec<f64> = ctx.backend.run(&job, ctx.progress)?.into_iter().map(|y| y[0]).collect();
            let m = mean_interval(&ys, 1.0 - level);
            let s = (ys.iter().map(|y| (y - m.estimate).powi(2)).sum::<f64>() / (ys.len() - 1) as f64).sqrt();
            // Large-sample interval for a standard deviation: s(1 ± z/√(2(n−1))).
            let half = zq * s / (2.0 * (ys.len() - 1) as f64).sqrt();
            let sd_ci = ConfidenceInterval { estimate: s, lo: s - half, hi: s + half, confidence: 1.0 - level };
            let predicted_mean = if paper_mean { T as f64 * (c + gamma).ln() } else { mean };
            cells.push(RateCell { label: format!("mean of ln ∏, λ_H={c}, γ={gamma}"), measured: m, predicted: predicted_mean, slack: 0.0, at_most: false });
            cells.push(RateCell { label: format!("sd of ln ∏, λ_H={c}, γ={gamma}"), measured: sd_ci, predicted: sd, slack: 0.0, at_most: false });
            reference.push(serde_json::json!({ "lambda_h": c, "gamma": gamma, "quadrature": { "mean": mean, "sd": sd },
                "reference": { "mean": REFERENCE[i].0, "sd": REFERENCE[i].1 }, "monte_carlo": { "mean": m.estimate, "sd": s },
                "paper_reference_t_ln_sum": T as f64 * (c + gamma).ln() }));
            figs.push(histogram(&ys, c, gamma, mean, sd));
        }
        let mut out = judge_rates(cells, &format!("Bonferroni over {} statistics at α = {ALPHA}", 2 * SETTINGS.len()));
        out.cases = samples * SETTINGS.len() as u64;
        Ok(out.detail("samples", samples).detail("t", T).detail("reference_values", reference).figures(figs))
    })
}

fn histogram(ys: &[f64], c: f64, gamma: f64, mean: f64, sd: f64) -> Figure {
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bins = 40;
    let w = (hi - lo) / bins as f64;
    let mut counts = vec![0u64; bins];
    for y in ys {
        counts[(((y - lo) / w) as usize).min(bins - 1)] += 1;
    }
    let mut steps = vec![];
    for (b, &n) in counts.iter().enumerate() {
        steps.push([lo + b as f64 * w, n as f64]);
        steps.push([lo + (b + 1) as f64 * w, n as f64]);
    }
    let n = ys.len() as f64;
    let density: Vec<[f64; 2]> = (0..=200)
        .map(|i| {
            let x = lo + (hi - lo) * i as f64 / 200.0;
            [x, n * w * (-0.5 * ((x - mean) / sd).powi(2)).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())]
        })
        .collect();
    let top = counts.iter().copied().max().unwrap_or(1) as f64;
    let reference = T as f64 * (c + gamma).ln();
    Figure::new(&format!("histogram-{c}-{gamma}"), &format!("Figure 2: ln ∏_{{i≤10⁴}}(λ_H + γx_i²), λ_H = {c}, γ = {gamma}"), "ln ∏ (λ_H + γx_i²)", "count")
        .with(Series::new(format!("{} samples", ys.len()), Style::Line, steps).color(0))
        .with(Series::new(format!("N(tμ, t·Var) = N({mean:.2}, {sd:.2}²)"), Style::Dashed, density).color(2))
        .with(Series::new(format!("t ln(λ_H + γ) = {reference:.2}"), Style::Dashed, vec![[reference, 0.0], [reference, top]]).color(1))
        .caption("The paper's reference (λ_H + γ)^t sits many standard deviations above the sample: the Jensen gap t(ln(λ_H + γ) − μ).")
}

/// `004.fig2` (theorem): Figure 2.
fn claim_fig2() -> Claim {
    Claim::theorem(
            "004.fig2",
            super::FAMILY,
            "Figure 2's setting (t = 10⁴, λ_H + γ = 0.999): the mean and standard deviation of ln ∏_{i≤t}(λ_H + γx_i²) over \
             2000 / 10000 samples equal tμ and √(t·Var) from quadrature (Student-t interval for the mean, s(1 ± z/√(2(n−1))) for the \
             sd, α = 10⁻⁴ Bonferroni over the four statistics). Reference values (proofs/stability.md): −91.05 ± 12.18 and −1603.8 ± 51.75.",
            fig2_check(false),
        )
        .split_samples()
        .source(Paper::RethinkingLrd, "§4.2 and Figure 2", "The sums of log-transformed values are very negative for two settings of (λ_H, γ) pair (Figure 2) […] Figure 2: Histogram of 10000 samples of log(∏_{i=1}^t(λ_H+γx_i²)). (Left) λ_H=0.9, γ=0.099, t=10000. (Right) λ_H=0.5, γ=0.499, t=10000.")
        .correction("The paper shows the histograms without their centre: Y_t ≈ N(tμ, t·Var), far below t ln(λ_H + γ).")
        .control("the mean t ln(λ_H + γ) suggested by the text's reference (λ_H + γ)^t", fig2_check(true))
}

/// Registers the Figure 2 reproduction.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_fig2());
}
