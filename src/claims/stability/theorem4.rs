//! 004 Theorem 4: `P(∏_{i≤t}(λ_H + γx_i²) ≥ e^z(λ_H + γ)^t) ≤ B(t, z; ν, b)` for some (ν, b).
//!
//! Y_t = Σ_{i≤t} ln(λ_H + γx_i²) is simulated once per (λ_H, γ) (Monte Carlo, shared by the
//! three claims and their controls) and every (t, z, b) cell is judged with an exact
//! Clopper–Pearson interval, Bonferroni-corrected over the cells that can be refuted.
//!
//! * `004.thm4` (Theorem): the main-text bound with computed ν(b)² (×1.02).
//! * `004.thm4.appendix` (Erratum): the appendix's second branch e^{−t/(2b)}.
//! * `004.thm4.appendix.enlarged` (Theorem): the same branch with ν² = max(ν(b)², b), where it
//!   follows from the corrected one. Control: the minimal ν(b).
//! * `004.thm4.intermediate` (Theorem): `P(Y_t ≥ tμ + z) ≤ B(t, z; ν, b)` — the informative
//!   test at large t (CLT regime).
//!
//! Control of both theorems: an inadmissible ν² = Var(Y)/2 with b = 10⁻³.

use crate::claim::custom;
use crate::claim::statistical::{judge_tail_bounds, TailCell};
use crate::claim::{Check, Claim, Context, ErrorKind, Family, Figure, Kind, Series, Style, ALPHA};
use crate::claims::PAPER_004;
use crate::error::Result;
use crate::math::subexp::{appendix_tail_bound, subexp_tail_bound, LogChi2, SAFETY};
use crate::mc::jobs::TailSumJob;
use crate::mc::StreamKey;
use crate::stats::clopper_pearson;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The (λ_H, γ) grid: both Figure 2 settings, one with λ_H + γ > 1 (still a.s. stable) and one
/// with a small λ_H.
pub const CELLS: [(f64, f64); 4] = [(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)];
const BS: [f64; 3] = [0.1, 1.0, 10.0];
const Z_ABS: [f64; 4] = [0.0, 1.0, 3.0, 10.0];
const Z_SIGMA: [f64; 5] = [0.0, 1.0, 2.0, 2.5, 3.0];

type Samples = Arc<Vec<Vec<f64>>>;

/// Y_t at `times` for every sample, memoised per (seed, budget, backend, λ_H, γ): the three
/// claims and their controls judge the same draws.
fn tail_sums(ctx: &Context, c: f64, gamma: f64, times: &[u64], samples: u64) -> Result<Samples> {
    static CACHE: OnceLock<Mutex<HashMap<String, Samples>>> = OnceLock::new();
    let id = format!("{}/{}/{}/{c}/{gamma}/{times:?}/{samples}", ctx.seed, ctx.budget.name(), ctx.backend.name());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().expect("cache lock").get(&id) {
        return Ok(hit.clone());
    }
    let job = TailSumJob { c, gamma, times: times.to_vec(), samples, key: StreamKey::new(ctx.seed, &format!("004.thm4/{c}/{gamma}")) };
    ctx.progress.expect(samples.div_ceil(1024));
    let out = Arc::new(ctx.backend.tail_sums(&job, ctx.progress)?);
    cache.lock().expect("cache lock").insert(id, out.clone());
    Ok(out)
}

/// Which statement is judged.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// Main text: product event, bound B(t, z; ν(b), b).
    Main,
    /// Appendix: product event, second branch e^{−t/(2b)}.
    Appendix,
    /// Intermediate (25): P(Y_t ≥ tμ + z) ≤ B(t, z; ν(b), b).
    Intermediate,
}

/// Which sub-exponential constants (ν², b) a cell is judged with.
#[derive(Clone, Copy, PartialEq)]
enum Constants {
    /// ν(b)² computed by quadrature (×[`SAFETY`]) for each b ∈ {0.1, 1, 10}: the proof's minimal ν.
    Minimal,
    /// ν² = max(ν(b)²·SAFETY, b) for each b: admissible (a larger ν is still a sub-exponential
    /// parameter), and with ν² ≥ b the appendix branch e^{−t/(2b)} is at least e^{−z/(2b)}.
    AtLeastB,
    /// The control's inadmissible ν² = Var(Y)/2 with b = 10⁻³.
    Inadmissible,
}

fn thm4_check(form: Form, constants_rule: Constants) -> impl Check {
    custom(Kind::Statistical, move |ctx| {
        let times: Vec<u64> = ctx.budget.pick(vec![1, 10, 100, 1000], vec![1, 10, 100, 1000, 10_000], vec![1, 10, 100, 1000, 10_000, 100_000, 1_000_000]);
        let samples = ctx.budget.pick(4000, 20_000, 100_000);
        let mut cells = vec![];
        let mut figures = vec![];
        for &(c, gamma) in &CELLS {
            let law = LogChi2::new(c, gamma).expect("positive");
            let (mu, var) = (law.mean(), law.variance());
            let constants: Vec<(f64, f64)> = match constants_rule {
                Constants::Minimal => BS.iter().map(|&b| (SAFETY * law.nu2(b), b)).collect(),
                Constants::AtLeastB => BS.iter().map(|&b| ((SAFETY * law.nu2(b)).max(b), b)).collect(),
                Constants::Inadmissible => vec![(0.5 * var, 1e-3)],
            };
            let ys = tail_sums(ctx, c, gamma, &times, samples)?;
            for (ti, &t) in times.iter().enumerate() {
                let tf = t as f64;
                let zs = Z_ABS.iter().copied().chain(Z_SIGMA.iter().map(|s| s * (tf * var).sqrt()));
                for z in zs {
                    let threshold = match form {
                        Form::Main | Form::Appendix => z + tf * (c + gamma).ln(),
                        Form::Intermediate => tf * mu + z,
                    };
                    let hits = ys.iter().filter(|y| y[ti] >= threshold).count() as u64;
                    for &(nu2, b) in &constants {
                        let bound = match form {
                            Form::Appendix => appendix_tail_bound(tf, z, nu2, b),
                            _ => subexp_tail_bound(tf, z, nu2, b),
                        };
                        if bound < 1.0 {
                            cells.push(TailCell {
                                label: format!("λ_H={c}, γ={gamma}, t={t}, z={z:.4}, ν²={nu2:.5}, b={b}"),
                                exceedances: hits,
                                trials: samples,
                                bound,
                            });
                        }
                    }
                }
            }
            if constants_rule == Constants::Minimal && (c, gamma) != (0.5, 0.6) && (c, gamma) != (0.05, 1.5) {
                figures.push(tail_figure(form, &law, c, gamma, &times, &ys, &constants));
            }
        }
        // Looseness among cells with enough exceedances for the estimate to mean something.
        let worst_looseness = cells.iter().filter(|c| c.exceedances >= 10).map(|c| c.bound / (c.exceedances as f64 / c.trials as f64)).fold(0.0, f64::max);
        let mut out = judge_tail_bounds(cells, ALPHA);
        // Cases: the simulated sequences (the same for a claim and its control).
        out.cases = samples * CELLS.len() as u64;
        Ok(out.detail("samples_per_cell", samples).detail("times", &times).detail("largest_bound_over_estimate_10_hits", worst_looseness).figures(figures))
    })
}

/// Probability against t at z = σ√t (log10 scale): the estimate with its 95% interval, the
/// judged bound (best b), Markov, Cramér–Chernoff, and (product forms) the Jensen-gap bound.
fn tail_figure(form: Form, law: &LogChi2, c: f64, gamma: f64, times: &[u64], ys: &[Vec<f64>], constants: &[(f64, f64)]) -> Figure {
    let (mu, var) = (law.mean(), law.variance());
    let delta = (c + gamma).ln() - mu;
    let lg = |p: f64| p.log10();
    let (mut est, mut upper, mut paper, mut markov, mut chernoff, mut gap) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (ti, &t) in times.iter().enumerate() {
        let tf = t as f64;
        let z = (tf * var).sqrt();
        let product = form != Form::Intermediate;
        let threshold = if product { z + tf * (c + gamma).ln() } else { tf * mu + z };
        let hits = ys.iter().filter(|y| y[ti] >= threshold).count() as u64;
        let ci = clopper_pearson(hits, ys.len() as u64, 0.95);
        if hits > 0 {
            est.push([tf, lg(ci.estimate)]);
        }
        upper.push([tf, lg(ci.hi)]);
        let best = |zz: f64| constants.iter().map(|&(nu2, b)| subexp_tail_bound(tf, zz, nu2, b)).fold(1.0, f64::min);
        let judged = if form == Form::Appendix { constants.iter().map(|&(nu2, b)| appendix_tail_bound(tf, z, nu2, b)).fold(1.0, f64::min) } else { best(z) };
        paper.push([tf, lg(judged)]);
        // Markov and Chernoff for the event Y_t ≥ threshold.
        markov.push([tf, ((tf * law.log_mgf(1.0) - threshold).min(0.0)) / std::f64::consts::LN_10]);
        chernoff.push([tf, law.chernoff_log_bound(tf, threshold) / std::f64::consts::LN_10]);
        if product {
            gap.push([tf, lg(best(z + tf * delta))]);
        }
    }
    let (title, which) = match form {
        Form::Intermediate => ("P(Y_t ≥ tμ + σ√t)", "intermediate"),
        Form::Appendix => ("P(∏ ≥ e^{σ√t}(λ_H+γ)^t), appendix bound", "appendix"),
        Form::Main => ("P(∏(λ_H+γx²) ≥ e^{σ√t}(λ_H+γ)^t)", "main"),
    };
    let mut fig = Figure::new(&format!("tail-{which}-{c}-{gamma}"), &format!("{title}, λ_H = {c}, γ = {gamma}"), "t", "log10 probability")
        .log_x()
        .with(Series::new("Monte Carlo estimate", Style::Points, est).color(0))
        .with(Series::new("Clopper–Pearson 95% upper end", Style::Line, upper).color(0))
        .with(Series::new(if form == Form::Appendix { "appendix bound (best b)" } else { "paper's bound (best b)" }, Style::Dashed, paper).color(1))
        .with(Series::new("Markov", Style::Dashed, markov).color(2))
        .with(Series::new("Cramér–Chernoff", Style::Dashed, chernoff).color(3));
    if !gap.is_empty() {
        fig = fig.with(Series::new("Jensen-gap bound B(t, z + tδ)", Style::Dashed, gap).color(4));
    }
    fig.caption("z = σ√t (σ² = Var ln(λ_H + γX²)). The paper's bound is t-invariant on this scale while the product's probability falls exponentially in t (the Jensen gap tδ).")
}

/// Registers the Theorem 4 claims.
pub fn register(r: &mut crate::claim::Registry) {
    const PRINTED: &str =
        "There exist (ν, b) such that P(∏_{i=1}^t(λ_H + γx_i²) ≥ e^z(λ_H+γ)^t) ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−z/(2b)} if z > tν²/b.";
    const GRID: &str = "(λ_H, γ) ∈ {(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)}, t ∈ {1, 10, 10², 10³} (quick) / up to 10⁴ \
        (standard) / 10⁶ (deep), z ∈ {0, 1, 3, 10} ∪ {0, 1, 2, 2.5, 3}·σ√t, b ∈ {0.1, 1, 10} with ν(b)² computed by quadrature (×1.02); \
        4000 / 20000 / 100000 sequences per (λ_H, γ); a cell is refuted when its one-sided Clopper–Pearson lower end exceeds the bound \
        at α = 10⁻⁴, Bonferroni over the cells whose bound is below 1.";
    r.add(
        Claim::theorem("004.thm4", Family::Stability, &format!("The main-text bound (19) on {GRID}"), thm4_check(Form::Main, Constants::Minimal))
            .source(PAPER_004, "Theorem 4, Eq. (19)", PRINTED)
            .correction("True with the centred Lemma 1 and computed (ν(b), b); loose: never better than Markov for b ≥ 1/2, and t-invariant at z = sσ√t while the probability falls exponentially in t.")
            .control("an inadmissible constant ν² = Var(Y)/2 with b = 1e−3", thm4_check(Form::Main, Constants::Inadmissible)),
    );
    r.add(
        Claim::erratum(
            "004.thm4.appendix",
            Family::Stability,
            &format!("The appendix's form (25)/(28), second branch e^{{−t/(2b)}}, on {GRID}"),
            thm4_check(Form::Appendix, Constants::Minimal),
        )
        .source(PAPER_004, "Theorem 4, appendix Eq. (25)/(28)", "… ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−t/(2b)} if z > tν²/b.")
        .correction(
            "The branch should read e^{−z/(2b)}: just above z = tν²/b the valid bound e^{−z/(2b)} can exceed e^{−t/(2b)} by orders of magnitude, so with the minimal ν(b) the printed branch is below the true probability. Corrected: 004.thm4.",
        )
        .error(ErrorKind::ProofStep, "The appendix's second branch e^{−t/(2b)} of (25)/(28) fails with the minimal ν(b) the proof computes (the search finds cells where the exceedance frequency is far above it). The theorem survives: with the branch e^{−z/(2b)} it holds in every cell (004.thm4), and (25)/(28) are existential in (ν, b), so the printed branch also holds for ν² ≥ b: then z > tν²/b ≥ t and e^{−z/(2b)} ≤ e^{−t/(2b)} (004.thm4.appendix.enlarged)."),
    );
    r.add(
        Claim::theorem(
            "004.thm4.appendix.enlarged",
            Family::Stability,
            &format!("The appendix's form (25)/(28) with its printed branch e^{{−t/(2b)}} and ν² = max(ν(b)²·1.02, b) (an admissible, larger ν), on {GRID}"),
            thm4_check(Form::Appendix, Constants::AtLeastB),
        )
        .source(PAPER_004, "Theorem 4, appendix Eq. (25)/(28)", "… ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−t/(2b)} if z > tν²/b.")
        .correction("(25)/(28) are existential in (ν, b): any ν ≥ ν(b) is admissible, and with ν² ≥ b the second branch starts at z > tν²/b ≥ t, where e^{−t/(2b)} ≥ e^{−z/(2b)}, so the printed form follows from 004.thm4.")
        .control("the proof's minimal ν(b) (the erratum's cells)", thm4_check(Form::Appendix, Constants::Minimal)),
    );
    r.add(
        Claim::theorem(
            "004.thm4.intermediate",
            Family::Stability,
            &format!("The intermediate bound P(Y_t ≥ tμ + z) ≤ B(t, z; ν(b), b), μ = E ln(λ_H + γX²) by quadrature, on {GRID}"),
            thm4_check(Form::Intermediate, Constants::Minimal),
        )
        .source(
            PAPER_004,
            "Theorem 4, proof, Eq. (25)",
            "P(Y ≥ EY + z) ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−z/(2b)} otherwise, Y = Σ_{i≤t} log(λ_H + γx_i²).",
        )
        .correction("Wainwright's tail bound for a sum of t iid sub-exp(ν, b) variables (with the centred Lemma 1).")
        .control("an inadmissible constant ν² = Var(Y)/2 with b = 1e−3", thm4_check(Form::Intermediate, Constants::Inadmissible)),
    );
}
