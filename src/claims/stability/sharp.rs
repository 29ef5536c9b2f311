//! `004.thm4.sharp` (Theorem, the suite's own reference for 004 Theorem 4): wherever t·I ≥ 20,
//! the importance-sampling estimate of `P(Y_t ≥ s)` agrees with the exact large-deviation
//! asymptotics of Bahadur and Rao, `P ≈ e^{−tI(a)}/(θ_a σ_a √(2πt))`, a = s/t, to within the
//! asymptotics' stated relative error. Two independent routes to the same tail (simulation
//! under a tilted law; quadrature of the log-MGF and its Legendre transform), so the probabilities
//! the Theorem 4 claims are judged against can be trusted where no plain Monte Carlo reaches.
//!
//! Stated relative error: `P = BR·(1 + b₁/t + O(t⁻²))` with the explicit b₁ of
//! [`Threshold::bahadur_rao_b1`](crate::math::large_deviation::Threshold::bahadur_rao_b1); the allowance is `ε = 2|b₁|/t` (the first-order term, doubled
//! to cover the O(t⁻²) rest), as the ratio band [BR/(1 + ε), BR·(1 + ε)], which the cell's
//! betting interval (Bonferroni over the cells at α = 10⁻⁴) must meet.
//! Control: the rate function off by 2% (I·0.98).

use super::theorem4::{tilted, times, Event, Setting, CELLS};
use crate::claim::custom;
use crate::claim::statistical::log10_gap_margin;
use crate::claim::{Check, Claim, Comparison, Figure, Kind, Outcome, Paper, Relation, Series, Style, Verdict, ALPHA};
use crate::estimate::RareTail;
use crate::stats::bonferroni;
use serde::Serialize;
use std::f64::consts::LN_10;

/// Events with t·I at least this are compared (below it the asymptotics are not meant to hold).
pub const MIN_RATE: f64 = 20.0;

/// One compared event.
#[derive(Clone, Debug, Serialize)]
struct SharpCell {
    label: String,
    /// t·I(s/t).
    t_rate: f64,
    estimate: RareTail,
    /// log10 of the Bahadur–Rao value compared (with the control's rate factor applied).
    log10_reference: f64,
    /// ε = 2|b₁|/t.
    allowed_relative_error: f64,
}

impl SharpCell {
    /// The band's ends in log10.
    fn band(&self) -> (f64, f64) {
        let tol = (1.0 + self.allowed_relative_error).log10();
        (self.log10_reference - tol, self.log10_reference + tol)
    }
    /// The smallest log10 gap between the interval and the band (negative: they do not meet).
    fn gap(&self) -> f64 {
        let (lo, hi) = self.band();
        let is_lo = self.estimate.log10_lo.unwrap_or(f64::NEG_INFINITY);
        (self.estimate.log10_hi - lo).min(hi - is_lo)
    }
    fn margin(&self) -> f64 {
        log10_gap_margin(self.gap())
    }
}

fn sharp_check(rate_factor: f64) -> impl Check {
    custom(Kind::Statistical, move |ctx| {
        let mut pending = vec![];
        for &(c, gamma) in &CELLS {
            let setting = Setting::new(c, gamma);
            for &t in &times(ctx) {
                for event in [Event::Product, Event::Centred] {
                    for z in setting.deviations(t) {
                        let s = setting.threshold(event, t, z);
                        let draws = tilted(ctx, &setting, t, s)?;
                        if draws.event.t_rate() >= MIN_RATE {
                            pending.push((format!("λ_H={c}, γ={gamma}, t={t}, {event:?} event, z={z:.4}, s={s:.6}"), draws));
                        }
                    }
                }
            }
        }
        let confidence = 1.0 - 2.0 * bonferroni(ALPHA, pending.len());
        let cells: Vec<SharpCell> = pending
            .into_iter()
            .map(|(label, draws)| {
                let estimate = RareTail::new(&draws, confidence);
                let ev = &draws.event;
                let shift = (1.0 - rate_factor) * ev.t_rate() / LN_10;
                SharpCell {
                    label,
                    t_rate: ev.t_rate(),
                    log10_reference: estimate.log10_bahadur_rao.expect("θ > 0 where t·I > 0") + shift,
                    allowed_relative_error: 2.0 * estimate.bahadur_rao_b1.abs() / ev.t as f64,
                    estimate,
                }
            })
            .collect();
        let margin = cells.iter().map(SharpCell::margin).min_by(f64::total_cmp);
        let samples: u64 = cells.iter().map(|c| c.estimate.samples).sum();
        let verdict = match cells.iter().filter(|c| c.gap() < 0.0).min_by(|a, b| a.margin().total_cmp(&b.margin())) {
            Some(c) => {
                let (lo, hi) = c.band();
                let above = c.estimate.log10_lo.is_some_and(|l| l > hi);
                let (lhs, rhs, lhs_is, rhs_is) = if above {
                    (c.estimate.log10_lo.unwrap_or(f64::NEG_INFINITY), hi, "log10 of the interval's lower end", "log10 of BR·(1 + ε)")
                } else {
                    (lo, c.estimate.log10_hi, "log10 of BR/(1 + ε)", "log10 of the interval's upper end")
                };
                Verdict::Refuted {
                    counterexample: serde_json::to_value(c).unwrap_or_default(),
                    violation: Comparison::custom(
                        lhs,
                        rhs,
                        Relation::AtMost,
                        c.margin(),
                        "1 − 10^{−gap} (10^{gap} − 1 when negative), gap = the smallest log10 distance from the interval to the band's far side",
                    )
                    .named(lhs_is, rhs_is),
                    margin: c.margin(),
                    summary: format!(
                        "{}: t·I = {:.1}, importance sampling log10 P ∈ [{:.3}, {:.3}], Bahadur–Rao band [{lo:.3}, {hi:.3}]",
                        c.label,
                        c.t_rate,
                        c.estimate.log10_lo.unwrap_or(f64::NEG_INFINITY),
                        c.estimate.log10_hi
                    ),
                }
            }
            None => Verdict::Holds {
                evidence: format!("{} events with t·I ≥ {MIN_RATE}: every interval meets its Bahadur–Rao band at family-wise α = {ALPHA}", cells.len()),
            },
        };
        let figure = agreement_figure(&cells);
        Ok(Outcome::new(verdict, samples, margin)
            .detail("alpha", ALPHA)
            .detail("correction", format!("Bonferroni over {} events", cells.len()))
            .detail("rate_factor", rate_factor)
            .detail("cells", &cells)
            .figures([figure]))
    })
}

/// log10(P̂/BR) with its interval against t·I, and the allowed band.
fn agreement_figure(cells: &[SharpCell]) -> Figure {
    let rel = |v: Option<f64>, c: &SharpCell| v.map(|v| [c.t_rate, v - c.log10_reference]);
    Figure::new("sharp-agreement", "Importance sampling against Bahadur–Rao", "t·I", "log10(P / BR)")
        .log_x()
        .with(Series::new("estimate", Style::Points, cells.iter().filter_map(|c| rel(c.estimate.log10_p, c)).collect()).color(0))
        .with(Series::new("interval upper end", Style::Points, cells.iter().filter_map(|c| rel(Some(c.estimate.log10_hi), c)).collect()).color(1))
        .with(Series::new("interval lower end", Style::Points, cells.iter().filter_map(|c| rel(c.estimate.log10_lo, c)).collect()).color(2))
        .with(Series::new("allowed band, upper", Style::Points, cells.iter().map(|c| [c.t_rate, c.band().1 - c.log10_reference]).collect()).color(3))
        .caption("Each event with t·I ≥ 20 over the Theorem 4 grid (both events, every z). The intervals are at the claim's corrected level; the band is ±log10(1 + 2|b₁|/t).")
}

/// `004.thm4.sharp` (theorem): derived: proofs/stability.md, Rare events (the probability Theorem 4 bounds).
fn claim_thm4_sharp() -> Claim {
    Claim::theorem(
        "004.thm4.sharp",
        super::FAMILY,
        "For Y_t = Σ_{i≤t} ln(λ_H + γx_i²) and every threshold of the Theorem 4 grid (both events, every (λ_H, γ), t and z) with \
             t·I(s/t) ≥ 20: the importance-sampling interval for P(Y_t ≥ s) meets [BR/(1 + ε), BR(1 + ε)], BR = e^{−tI}/(θσ√(2πt)) the \
             Bahadur–Rao value (I, θ, σ from the log-MGF by quadrature), ε = 2|b₁|/t; betting intervals at α = 10⁻⁴, \
             Bonferroni over the events.",
        sharp_check(1.0),
    )
    .source(
        crate::claim::Origin::Derived(Paper::RethinkingLrd),
        "proofs/stability.md, Rare events (the probability Theorem 4 bounds)",
        "P(∏_{i=1}^t(λ_H + γx_i²) ≥ e^z(λ_H+γ)^t)",
    )
    .correction("The suite's own reference: Bahadur & Rao (1960) for a non-lattice sum, with its first correction b₁ (proofs/stability.md, \"Rare events\").")
    .control("the rate function off by 2% (I·0.98)", sharp_check(0.98))
}

/// Registers `004.thm4.sharp`.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm4_sharp());
}
