//! 004 Theorem 4: `P(∏_{i≤t}(λ_H + γx_i²) ≥ e^z(λ_H + γ)^t) ≤ B(t, z; ν, b)` for some (ν, b).
//!
//! Both events are thresholds on Y_t = Σ_{i≤t} ln(λ_H + γx_i²). Every (t, z) cell's probability
//! is estimated by importance sampling at the event's saddle point ([`crate::estimate::RareTail`]
//! machinery: exact tilted sampling, weights bounded on the event, an betting interval
//! in log10), so the bound is judged where P is 10⁻⁵⁰ or 10⁻⁹⁰⁰ as well as where plain Monte
//! Carlo sees it; plain Monte Carlo stays as a cross-check where P̂ ≥ 10⁻³, and the two intervals
//! must meet. Cells are Bonferroni-corrected over the cells whose bound is below 1.
//!
//! * `004.thm4` (Theorem): the main-text bound with computed ν(b)² (×1.02).
//! * `004.thm4.appendix` (Erratum): the appendix's second branch e^{−t/(2b)}.
//! * `004.thm4.appendix.enlarged` (Theorem): the same branch with ν² = max(ν(b)², b), where it
//!   follows from the corrected one. Control: the minimal ν(b).
//! * `004.thm4.intermediate` (Theorem): `P(Y_t ≥ tμ + z) ≤ B(t, z; ν, b)` — the informative
//!   test at large t (CLT regime).
//! * `004.thm4.sharp` (Theorem, in [`super::sharp`]): the estimates agree with Bahadur–Rao.
//!
//! Control of both theorems: an inadmissible ν² = Var(Y)/2 with b = 10⁻³.

use crate::claim::custom;
use crate::claim::statistical::{judge_rare_tail_bounds, RareCell};
use crate::claim::{Check, Claim, Context, ErrorKind, Figure, Kind, Paper, Series, Sizes, Style, Verdict, ALPHA};
use crate::claims::{memo, Memo};
use crate::error::Result;
use crate::estimate::{tilted_draws, RareTail, TiltedDraws};
use crate::math::large_deviation::Threshold;
use crate::math::subexp::{ln_appendix_tail_bound, ln_subexp_tail_bound, LogChi2, SAFETY};
use crate::mc::jobs::TailSumJob;
use crate::mc::RunJob;
use crate::mc::StreamKey;
use crate::stats::{bonferroni, clopper_pearson};
use std::collections::HashMap;
use std::f64::consts::LN_10;
use std::sync::{Arc, OnceLock};

/// The (λ_H, γ) grid: both Figure 2 settings, one with λ_H + γ > 1 (still a.s. stable) and one
/// with a small λ_H.
pub const CELLS: [(f64, f64); 4] = [(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)];
const BS: [f64; 3] = [0.1, 1.0, 10.0];
const Z_ABS: [f64; 4] = [0.0, 1.0, 3.0, 10.0];
const Z_SIGMA: [f64; 4] = [1.0, 2.0, 2.5, 3.0];
/// The third scale of z: this factor past the branch point tν(b)²/b.
const BRANCH_FACTOR: f64 = 1.1;
/// Plain Monte Carlo cross-checks the importance-sampling estimate where its own estimate is at
/// least this.
const CROSS_CHECK_FROM: f64 = 1e-3;

/// The times t of a budget: 1 … 10³ (quick), 10⁴ (standard), 10⁶ (deep).
pub(super) fn times(ctx: &Context) -> Vec<u64> {
    ctx.size("times", Sizes::new(vec![1, 10, 100, 1000], vec![1, 10, 100, 1000, 10_000], vec![1, 10, 100, 1000, 10_000, 100_000, 1_000_000]))
}

/// Importance samples per event: 500 / 1000 / 4000.
fn tilted_samples(ctx: &Context) -> u64 {
    ctx.size("tilted samples", Sizes::new(500, 1000, 4000))
}

/// Plain Monte Carlo sequences per (λ_H, γ) (the cross-check): 4000 / 10000 / 100000.
fn plain_samples(ctx: &Context) -> u64 {
    ctx.size("plain samples", Sizes::new(4000, 10_000, 100_000))
}

/// The two events of the theorem, as thresholds on Y_t.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// `∏(λ_H + γx²) ≥ e^z(λ_H + γ)^t`, i.e. `Y_t ≥ z + t ln(λ_H + γ)`.
    Product,
    /// `Y_t ≥ tμ + z` (the proof's intermediate form).
    Centred,
}

/// One (λ_H, γ) with the moments and constants every threshold needs.
pub(super) struct Setting {
    /// The law of one term.
    pub law: LogChi2,
    /// μ = E Y.
    pub mu: f64,
    /// Var Y.
    pub var: f64,
    /// ν(b)²·[`SAFETY`] for each b of [`BS`].
    pub nu2: [f64; 3],
}

impl Setting {
    /// The setting (λ_H, γ), computed once per process (ν(b) takes hundreds of quadratures).
    pub fn new(c: f64, gamma: f64) -> Arc<Setting> {
        static CACHE: Memo<Setting> = OnceLock::new();
        memo(&CACHE, format!("{c}/{gamma}"), || {
            let law = LogChi2::new(c, gamma).expect("positive");
            Ok(Setting { law, mu: law.mean(), var: law.variance(), nu2: BS.map(|b| SAFETY * law.nu2(b)) })
        })
        .expect("infallible")
    }
    /// The deviations z at time t, on three scales: absolute {0, 1, 3, 10}, the CLT's
    /// {1, 2, 2.5, 3}·σ√t, and just past each branch point of the bound, 1.1·tν(b)²/b for
    /// b ∈ {0.1, 1, 10} (where the appendix's branch e^{−t/(2b)} takes over) when that is at most
    /// t (a deviation of at most 1 per step: beyond it the tilt θ runs to 10⁵ and more, the
    /// sampler's acceptance falls like θ^{−½}, and P is below 10^{−10⁴t}).
    pub fn deviations(&self, t: u64) -> Vec<f64> {
        let tf = t as f64;
        let sd = (tf * self.var).sqrt();
        let branch = self.nu2.iter().zip(BS).map(|(nu2, b)| BRANCH_FACTOR * tf * nu2 / b).filter(|&z| z <= tf);
        Z_ABS.iter().copied().chain(Z_SIGMA.iter().map(|s| s * sd)).chain(branch).collect()
    }
    /// The threshold s on Y_t of `event` at (t, z).
    pub fn threshold(&self, event: Event, t: u64, z: f64) -> f64 {
        match event {
            Event::Product => z + t as f64 * (self.law.c + self.law.gamma).ln(),
            Event::Centred => t as f64 * self.mu + z,
        }
    }
}

/// Plain Monte Carlo: Y_t at `times` for every sequence of one (λ_H, γ).
fn plain_sums(ctx: &Context, c: f64, gamma: f64, times: &[u64]) -> Result<Arc<Vec<Vec<f64>>>> {
    static CACHE: Memo<Vec<Vec<f64>>> = OnceLock::new();
    let samples = plain_samples(ctx);
    let id = format!("{}/{}/{}/{c}/{gamma}/{times:?}/{samples}", ctx.seed, ctx.budget.name(), ctx.backend.name());
    memo(&CACHE, id, || {
        let job = TailSumJob { c, gamma, times: times.to_vec(), samples, key: StreamKey::new(ctx.seed, &format!("004.thm4/{c}/{gamma}")) };
        ctx.progress.expect(samples.div_ceil(1024));
        ctx.backend.run(&job, ctx.progress)
    })
}

/// Importance-sampling draws for `Y_t ≥ s` under (λ_H, γ): streams keyed by the event, so every
/// claim that judges the same event reads the same numbers.
pub(super) fn tilted(ctx: &Context, setting: &Setting, t: u64, s: f64) -> Result<Arc<TiltedDraws>> {
    static CACHE: Memo<TiltedDraws> = OnceLock::new();
    let (c, gamma) = (setting.law.c, setting.law.gamma);
    let samples = tilted_samples(ctx);
    let label = format!("004.thm4.is/{c}/{gamma}/{t}/{:016x}", s.to_bits());
    let id = format!("{}/{}/{}/{label}/{samples}", ctx.seed, ctx.budget.name(), ctx.backend.name());
    memo(&CACHE, id, || {
        ctx.progress.expect(samples.div_ceil(1024));
        let key = StreamKey::new(ctx.seed, &label);
        let accept = StreamKey::new(ctx.seed, &format!("{label}/accept"));
        tilted_draws(ctx.backend, &setting.law, Threshold::new(&setting.law, t, s), samples, key, accept, ctx.progress)
    })
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

impl Form {
    fn event(self) -> Event {
        if self == Form::Intermediate {
            Event::Centred
        } else {
            Event::Product
        }
    }
    /// ln of the judged bound.
    fn ln_bound(self, t: f64, z: f64, nu2: f64, b: f64) -> f64 {
        match self {
            Form::Appendix => ln_appendix_tail_bound(t, z, nu2, b),
            _ => ln_subexp_tail_bound(t, z, nu2, b),
        }
    }
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

impl Constants {
    fn of(self, s: &Setting) -> Vec<(f64, f64)> {
        match self {
            Constants::Minimal => s.nu2.iter().copied().zip(BS).collect(),
            Constants::AtLeastB => s.nu2.iter().zip(BS).map(|(&nu2, b)| (nu2.max(b), b)).collect(),
            Constants::Inadmissible => vec![(0.5 * s.var, 1e-3)],
        }
    }
}

/// A cell before its interval is computed (the level depends on how many cells there are).
struct Pending {
    label: String,
    draws: Arc<TiltedDraws>,
    log10_bound: f64,
}

/// The interval of the importance-sampling estimate closest to each of these log10 P.
const PRECISION_AT: [f64; 5] = [-3.0, -12.0, -50.0, -300.0, -900.0];

fn thm4_check(form: Form, constants_rule: Constants) -> impl Check {
    custom(Kind::Statistical, move |ctx| {
        let times = times(ctx);
        let mut pending = vec![];
        let mut cross = vec![];
        let mut figures = vec![];
        let mut events = vec![];
        for &(c, gamma) in &CELLS {
            let setting = Setting::new(c, gamma);
            let constants = constants_rule.of(&setting);
            let plain = plain_sums(ctx, c, gamma, &times)?;
            for (ti, &t) in times.iter().enumerate() {
                for z in setting.deviations(t) {
                    let s = setting.threshold(form.event(), t, z);
                    let draws = tilted(ctx, &setting, t, s)?;
                    events.push(draws.clone());
                    let hits = plain.iter().filter(|y| y[ti] >= s).count() as u64;
                    let cell = format!("λ_H={c}, γ={gamma}, t={t}, z={z:.4}");
                    if hits as f64 >= CROSS_CHECK_FROM * plain.len() as f64 {
                        cross.push((cell.clone(), draws.clone(), hits, plain.len() as u64));
                    }
                    for &(nu2, b) in &constants {
                        let ln_bound = form.ln_bound(t as f64, z, nu2, b);
                        if ln_bound < 0.0 {
                            pending.push(Pending { label: format!("{cell}, ν²={nu2:.5}, b={b}"), draws: draws.clone(), log10_bound: ln_bound / LN_10 });
                        }
                    }
                }
            }
            if constants_rule == Constants::Minimal && (c, gamma) != (0.5, 0.6) && (c, gamma) != (0.05, 1.5) {
                let rows = figure_rows(ctx, form, &setting, &times, &plain, &constants)?;
                figures.push(tail_figure(form, c, gamma, &rows));
                figures.push(looseness_figure(form, c, gamma, &rows));
            }
        }
        let confidence = 1.0 - 2.0 * bonferroni(ALPHA, pending.len());
        // One estimate per event (its cells differ only in b).
        let estimates: HashMap<*const TiltedDraws, RareTail> = events.iter().map(|d| (Arc::as_ptr(d), RareTail::new(d, confidence))).collect();
        let cells: Vec<RareCell> =
            pending.into_iter().map(|p| RareCell { label: p.label, estimate: estimates[&Arc::as_ptr(&p.draws)].clone(), log10_bound: p.log10_bound }).collect();
        let precision = precision_table(estimates.values());
        let smallest_refuted = cells.iter().filter(|c| c.refuted()).filter_map(|c| c.estimate.log10_p).fold(f64::INFINITY, f64::min);
        let smallest = cells.iter().filter_map(|c| c.estimate.log10_p).fold(f64::INFINITY, f64::min);
        let disagreement = cross_check(&cross);
        let mut out = judge_rare_tail_bounds(cells, ALPHA);
        if let Some(why) = disagreement {
            out.verdict = Verdict::Inconclusive { why };
        }
        // Cases: the importance samples drawn (the same events for a claim and its control).
        out.cases = events.len() as u64 * tilted_samples(ctx);
        Ok(out
            .detail("importance_samples_per_event", tilted_samples(ctx))
            .detail("plain_samples_per_setting", plain_samples(ctx))
            .detail("times", &times)
            .detail("cross_checked_events", cross.len())
            .detail("smallest_log10_p", smallest)
            .detail("smallest_log10_p_refuted", (smallest_refuted < f64::INFINITY).then_some(smallest_refuted))
            .detail("relative_half_width_near", precision)
            .figures(figures))
    })
}

/// For each of [`PRECISION_AT`], the event whose estimate (at the claim's level) is closest to
/// it in log10: its t, threshold, log10 P̂, relative half-width and variance reduction against plain
/// Monte Carlo.
fn precision_table<'a>(estimates: impl Iterator<Item = &'a RareTail>) -> Vec<serde_json::Value> {
    let mut estimates: Vec<&RareTail> = estimates.filter(|e| e.log10_p.is_some()).collect();
    // A fixed order, so that ties pick the same event in every run.
    estimates.sort_by(|a, b| (a.t, a.threshold).partial_cmp(&(b.t, b.threshold)).expect("finite"));
    PRECISION_AT
        .iter()
        .filter_map(|&target| {
            let d = |e: &RareTail| (e.log10_p.unwrap_or(0.0) - target).abs();
            let best = estimates.iter().min_by(|a, b| d(a).total_cmp(&d(b)))?;
            Some(serde_json::json!({"target_log10_p": target, "t": best.t, "threshold": best.threshold, "log10_p": best.log10_p, "relative_half_width": best.relative_half_width(), "variance_reduction_vs_plain": best.variance_reduction()}))
        })
        .collect()
}

/// Plain Monte Carlo against importance sampling where P̂ ≥ 10⁻³: their intervals at family-wise
/// α (Bonferroni over the events, each interval at 1 − α/m) must meet. The first event where
/// they do not, or None.
fn cross_check(cross: &[(String, Arc<TiltedDraws>, u64, u64)]) -> Option<String> {
    let conf = 1.0 - bonferroni(ALPHA, cross.len());
    cross.iter().find_map(|(label, draws, hits, n)| {
        let plain = clopper_pearson(*hits, *n, conf);
        let is = RareTail::new(draws, conf);
        let lo = is.log10_lo.map_or(0.0, |l| 10f64.powf(l));
        let hi = 10f64.powf(is.log10_hi);
        (plain.hi < lo || plain.lo > hi).then(|| {
            format!("plain Monte Carlo [{:.4e}, {:.4e}] and importance sampling [{lo:.4e}, {hi:.4e}] disagree at {label} (each at {conf})", plain.lo, plain.hi)
        })
    })
}

/// One time of the figures at z = σ√t: log10 of the estimates and of every bound.
struct Row {
    t: f64,
    estimate: RareTail,
    plain: Option<f64>,
    paper: f64,
    markov: f64,
    chernoff: f64,
    gap: Option<f64>,
}

fn figure_rows(ctx: &Context, form: Form, setting: &Setting, times: &[u64], plain: &[Vec<f64>], constants: &[(f64, f64)]) -> Result<Vec<Row>> {
    let (c, gamma) = (setting.law.c, setting.law.gamma);
    let delta = (c + gamma).ln() - setting.mu;
    let log_mgf_1 = (c + gamma).ln();
    times
        .iter()
        .enumerate()
        .map(|(ti, &t)| {
            let tf = t as f64;
            let z = (tf * setting.var).sqrt();
            let s = setting.threshold(form.event(), t, z);
            let draws = tilted(ctx, setting, t, s)?;
            let hits = plain.iter().filter(|y| y[ti] >= s).count();
            let best = |zz: f64, f: Form| constants.iter().map(|&(nu2, b)| f.ln_bound(tf, zz, nu2, b)).fold(0.0, f64::min) / LN_10;
            Ok(Row {
                t: tf,
                estimate: RareTail::new(&draws, 0.95),
                plain: (hits > 0).then(|| (hits as f64 / plain.len() as f64).log10()),
                paper: best(z, form),
                markov: (tf * log_mgf_1 - s).min(0.0) / LN_10,
                chernoff: draws.event.log_weight_bound() / LN_10,
                gap: (form.event() == Event::Product).then(|| best(z + tf * delta, Form::Main)),
            })
        })
        .collect()
}

fn title(form: Form) -> (&'static str, &'static str) {
    match form {
        Form::Intermediate => ("P(Y_t ≥ tμ + σ√t)", "intermediate"),
        Form::Appendix => ("P(∏ ≥ e^{σ√t}(λ_H+γ)^t), appendix bound", "appendix"),
        Form::Main => ("P(∏(λ_H+γx²) ≥ e^{σ√t}(λ_H+γ)^t)", "main"),
    }
}

/// Probability against t at z = σ√t (log10): the importance-sampling estimate with its 95%
/// betting interval, plain Monte Carlo, Bahadur–Rao, the judged bound (best b),
/// Markov, Cramér–Chernoff and (product forms) the Jensen-gap bound.
fn tail_figure(form: Form, c: f64, gamma: f64, rows: &[Row]) -> Figure {
    let (name, which) = title(form);
    let pts = |f: Pick| rows.iter().filter_map(|r| f(r).map(|v| [r.t, v])).collect::<Vec<_>>();
    let fig = Figure::new(&format!("tail-{which}-{c}-{gamma}"), &format!("{name}, λ_H = {c}, γ = {gamma}"), "t", "log10 probability")
        .log_x()
        .with(Series::new("importance sampling", Style::Points, pts(|r| r.estimate.log10_p)).color(0))
        .with(Series::new("betting interval 95%, upper end", Style::Line, pts(|r| Some(r.estimate.log10_hi))).color(0))
        .with(Series::new("betting interval 95%, lower end", Style::Line, pts(|r| r.estimate.log10_lo)).color(0))
        .with(Series::new("plain Monte Carlo", Style::Points, pts(|r| r.plain)).color(5))
        .with(Series::new("Bahadur–Rao", Style::Dashed, pts(|r| r.estimate.log10_bahadur_rao)).color(6));
    with_bounds(fig, form, Style::Dashed, pts).caption("z = σ√t (σ² = Var ln(λ_H + γX²)). Importance sampling at the event's saddle point (exact tilted sampling, bounded weights) sees P far below plain Monte Carlo's reach; the paper's bound is t-invariant on this scale while the probability falls exponentially in t (the Jensen gap tδ).")
}

/// How loose each bound is: log10(bound/P̂) against t at z = σ√t.
fn looseness_figure(form: Form, c: f64, gamma: f64, rows: &[Row]) -> Figure {
    let (name, which) = title(form);
    let pts = |f: Pick| rows.iter().filter_map(|r| Some([r.t, f(r)? - r.estimate.log10_p?])).collect::<Vec<_>>();
    let fig =
        Figure::new(&format!("looseness-{which}-{c}-{gamma}"), &format!("Looseness of the bounds on {name}, λ_H = {c}, γ = {gamma}"), "t", "log10(bound / P)")
            .log_x();
    with_bounds(fig, form, Style::Line, pts).caption("P is the importance-sampling estimate. Chernoff's looseness grows like log10(θσ√(2πt)) (Bahadur–Rao); the paper's bound's grows linearly in t on the product event. A negative value would be a violated bound.")
}

/// Picks one value of a figure row.
type Pick = fn(&Row) -> Option<f64>;

/// `fig` with the judged bound, Markov, Cramér–Chernoff and (product event) the Jensen-gap bound
/// B(t, z + tδ), each as the points `pts` makes of it.
fn with_bounds(fig: Figure, form: Form, style: Style, pts: impl Fn(Pick) -> Vec<[f64; 2]>) -> Figure {
    let judged = if form == Form::Appendix { "appendix bound (best b)" } else { "paper's bound (best b)" };
    let fig = fig
        .with(Series::new(judged, style, pts(|r| Some(r.paper))).color(1))
        .with(Series::new("Markov", style, pts(|r| Some(r.markov))).color(2))
        .with(Series::new("Cramér–Chernoff", style, pts(|r| Some(r.chernoff))).color(3));
    if form.event() == Event::Product {
        fig.with(Series::new("Jensen-gap bound B(t, z + tδ)", style, pts(|r| r.gap)).color(4))
    } else {
        fig
    }
}

const PRINTED: &str = "There exist (ν, b) such that P(∏_{i=1}^t(λ_H + γx_i²) ≥ e^z(λ_H+γ)^t) ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−z/(2b)} if z > tν²/b.";
const GRID: &str = "(λ_H, γ) ∈ {(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)}, t ∈ {1, 10, 10², 10³} (quick) / up to 10⁴ \
    (standard) / 10⁶ (deep), z ∈ {0, 1, 3, 10} ∪ {1, 2, 2.5, 3}·σ√t ∪ {1.1·tν(b)²/b where ≤ t} (just past each branch point), b ∈ {0.1, 1, 10} with ν(b)² computed by quadrature (×1.02); \
    P estimated for every cell by importance sampling at the event's saddle point (500 / 1000 / 4000 exact tilted samples, \
    weights bounded on the event), with plain Monte Carlo (4000 / 10000 / 100000 sequences) as a cross-check where P̂ ≥ 10⁻³; \
    a cell is refuted when its one-sided betting lower end exceeds the bound at α = 10⁻⁴, Bonferroni over the cells \
    whose bound is below 1.";

/// `004.thm4` (theorem): Theorem 4, Eq. (19).
fn claim_thm4() -> Claim {
    Claim::theorem("004.thm4", super::FAMILY, &format!("The main-text bound (19) on {GRID}"), thm4_check(Form::Main, Constants::Minimal))
            .source(Paper::RethinkingLrd, "Theorem 4, Eq. (19)", PRINTED)
            .correction("True with the centred Lemma 1 and computed (ν(b), b); loose: never better than Markov for b ≥ 1/2, and t-invariant at z = sσ√t while the probability falls exponentially in t.")
            .control("an inadmissible constant ν² = Var(Y)/2 with b = 1e−3", thm4_check(Form::Main, Constants::Inadmissible))
}

/// `004.thm4.appendix` (erratum): Theorem 4, appendix Eq. (25)/(28).
fn claim_thm4_appendix() -> Claim {
    Claim::erratum(
            "004.thm4.appendix",
            super::FAMILY,
            &format!("The appendix's form (25)/(28), second branch e^{{−t/(2b)}}, on {GRID}"),
            thm4_check(Form::Appendix, Constants::Minimal),
        )
        .source(Paper::RethinkingLrd, "Theorem 4, appendix Eq. (25)/(28)", "… ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−t/(2b)} if z > tν²/b.")
        .correction(
            "The branch should read e^{−z/(2b)}: just above z = tν²/b the valid bound e^{−z/(2b)} can exceed e^{−t/(2b)} by orders of magnitude, so with the minimal ν(b) the printed branch is below the true probability. Corrected: 004.thm4.",
        )
        .error(ErrorKind::ProofStep, "The appendix's second branch e^{−t/(2b)} of (25)/(28) fails with the minimal ν(b) the proof computes (the search finds cells where the importance-sampling lower limit of the probability is far above it, down to P ≈ 10⁻²⁰⁶ at the standard budget). The theorem survives: with the branch e^{−z/(2b)} it holds in every cell (004.thm4), and (25)/(28) are existential in (ν, b), so the printed branch also holds for ν² ≥ b: then z > tν²/b ≥ t and e^{−z/(2b)} ≤ e^{−t/(2b)} (004.thm4.appendix.enlarged).")
        .holds_instead(&["004.thm4", "004.thm4.appendix.enlarged"]).survives(true)
}

/// `004.thm4.appendix.enlarged` (theorem): Theorem 4, appendix Eq. (25)/(28).
fn claim_thm4_appendix_enlarged() -> Claim {
    Claim::theorem(
            "004.thm4.appendix.enlarged",
            super::FAMILY,
            &format!("The appendix's form (25)/(28) with its printed branch e^{{−t/(2b)}} and ν² = max(ν(b)²·1.02, b) (an admissible, larger ν), on {GRID}"),
            thm4_check(Form::Appendix, Constants::AtLeastB),
        )
        .source(Paper::RethinkingLrd, "Theorem 4, appendix Eq. (25)/(28)", "… ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−t/(2b)} if z > tν²/b.")
        .correction("(25)/(28) are existential in (ν, b): any ν ≥ ν(b) is admissible, and with ν² ≥ b the second branch starts at z > tν²/b ≥ t, where e^{−t/(2b)} ≥ e^{−z/(2b)}, so the printed form follows from 004.thm4.")
        .control("the proof's minimal ν(b) (the erratum's cells)", thm4_check(Form::Appendix, Constants::Minimal))
}

/// `004.thm4.intermediate` (theorem): Theorem 4, proof, Eq. (25).
fn claim_thm4_intermediate() -> Claim {
    Claim::theorem(
        "004.thm4.intermediate",
        super::FAMILY,
        &format!("The intermediate bound P(Y_t ≥ tμ + z) ≤ B(t, z; ν(b), b), μ = E ln(λ_H + γX²) by quadrature, on {GRID}"),
        thm4_check(Form::Intermediate, Constants::Minimal),
    )
    .source(
        Paper::RethinkingLrd,
        "Theorem 4, proof, Eq. (25)",
        "P(Y ≥ EY + z) ≤ e^{−z²/(2tν²)} if 0 ≤ z ≤ tν²/b, and e^{−z/(2b)} otherwise, Y = Σ_{i≤t} log(λ_H + γx_i²).",
    )
    .correction("Wainwright's tail bound for a sum of t iid sub-exp(ν, b) variables (with the centred Lemma 1).")
    .control("an inadmissible constant ν² = Var(Y)/2 with b = 1e−3", thm4_check(Form::Intermediate, Constants::Inadmissible))
}

/// Registers the Theorem 4 claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm4());
    r.add(claim_thm4_appendix());
    r.add(claim_thm4_appendix_enlarged());
    r.add(claim_thm4_intermediate());
}
