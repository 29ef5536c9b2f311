//! What copying across a distance D costs: the score, the bits, and how far bounded scores reach.
//!
//! * `003.thm1.score` (Theorem, rate): at constant decay a, the least score s_pos with E_wc ≤ ε
//!   grows like a^{−D}: the slope of ln s_min on D is ln(1/a).
//! * `003.lb.score` (Theorem, derived LB-1): E_wc ≤ ε forces s_pos ∈ [(1−ε′)/α_pos, (1+ε′)/α_pos].
//! * `003.lb.distance` (Theorem, derived LB-2): with |s_j| ≤ R and decays after pos at most
//!   a_max < 1, E_wc ≤ ε forces D = i − pos ≤ ln(R/(1−ε′))/ln(1/a_max).
//! * `003.shift` (Theorem): a constant state of s + 1 slots copies the fixed shift s with
//!   worst-case error V·a^{s+1}/(1 − a^{s+1}) at every length.

use super::theorem1::{required_score, AMax, Form};
use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{custom, property, Claim, Eval, Figure, Kind, Paper, Rounding, Series, Sizes, Style, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::model::vector_ssm::{DenseState, Step};
use crate::stats::{bonferroni, ols};
use crate::strategy::{log_uniform, real};
use crate::tasks::copy::CopyQuery;
use proptest::prelude::*;

/// The least target score with E_wc ≤ ε, by bisection on the E_wc oracle (E_wc is convex in
/// s_pos with its minimum at 1/α_pos).
pub fn least_admissible_score(q: &CopyQuery) -> Option<f64> {
    let p = q.pos - q.prefix_len - 1;
    let at = |s: f64| {
        let mut t = q.clone();
        t.scores[p] = s;
        t.worst_case_error().0
    };
    let hi = (-q.log_alpha_pos()).exp();
    if at(hi) > q.eps {
        return None;
    }
    let (mut lo, mut hi) = (0.0, hi);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if at(mid) <= q.eps {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// A copy at distance D under constant decay a: the query is position D + 1 + before, the
/// target D positions back, off-target scores ±frac·δ from a fixed pattern.
fn distance_query(a: f64, d: usize, eps: f64, delta: f64) -> CopyQuery {
    let before = 5;
    let k = before + d + 1;
    let scores = (0..k).map(|m| delta * (0.5 + 0.45 * ((m * 7919 % 13) as f64 / 12.0)) * if m % 3 == 0 { -1.0 } else { 1.0 }).collect();
    CopyQuery { eps, v_bound: 1.0, delta, window: d + 1, pos: before + 1, prefix_len: 0, prefix_decay: a, prefix_score: 0.0, decays: vec![a; k], scores }
}

fn score_rate_check(slope_factor: f64) -> impl crate::claim::Check {
    custom(Kind::Rate, move |ctx| {
        let decays: Vec<f64> = ctx.size("decay rates a", Sizes::new(vec![0.5, 0.9], vec![0.5, 0.8, 0.9, 0.99], vec![0.3, 0.5, 0.8, 0.9, 0.95, 0.99]));
        let (eps, dmax) = (0.01, ctx.size("largest distance D", Sizes::new(40usize, 80, 160)));
        let level = bonferroni(ALPHA, decays.len());
        ctx.progress.expect(decays.len() as u64);
        let mut cells = vec![];
        let mut fig = Figure::new("score-vs-distance", "The score a copy across distance D needs (ε′ = 0.01)", "copy distance D", "log10 score");
        let mut bits = Figure::new("bits-vs-distance", "The bits that score needs: log2(s/ε′) (magnitude and resolution)", "copy distance D", "bits");
        for (c, &a) in decays.iter().enumerate() {
            // δ small enough that the off-target mass (≤ δ/(1−a) relative to α_pos) stays below ε′/10.
            let delta = 0.1 * eps * (1.0 - a);
            let ds: Vec<usize> = (0..=dmax).step_by(dmax / 20).filter(|&d| (d as f64) * -a.ln() < 600.0).collect();
            let mut pts = vec![];
            let mut suff = vec![];
            let mut lb = vec![];
            for &d in &ds {
                let q = distance_query(a, d, eps, delta);
                let s = least_admissible_score(&q).expect("1/α_pos is admissible when the off-target mass is below ε′");
                pts.push([d as f64, s.ln()]);
                suff.push([d as f64, required_score(&q, AMax::Corrected, Form::MainText).log10()]);
                lb.push([d as f64, ((1.0 - eps) * (-q.log_alpha_pos()).exp()).log10()]);
            }
            let (x, y): (Vec<f64>, Vec<f64>) = pts.iter().map(|p| (p[0], p[1])).unzip();
            let fit = ols(&x, &y, 1.0 - level).expect("distinct distances");
            // The intercept ln(1 − ε′ + off) drifts by at most ln((1 − ε′ + δ/(1−a))/(1 − ε′)) over
            // the range of D: that bounds the slope's bias.
            let slack = ((1.0 - eps + delta / (1.0 - a)) / (1.0 - eps)).ln() / (x[x.len() - 1] - x[0]);
            cells.push(RateCell {
                label: format!("slope of ln s_min on D, a = {a}"),
                measured: fit.slope,
                predicted: slope_factor * -a.ln(),
                slack,
                at_most: false,
            });
            fig = fig
                .with(
                    Series::new(
                        format!("least admissible score (bisection on E_wc), a = {a}"),
                        Style::Points,
                        pts.iter().map(|p| [p[0], p[1] / std::f64::consts::LN_10]).collect(),
                    )
                    .color(c),
                )
                .with(Series::new(format!("Theorem 1 (corrected) sufficient score, a = {a}"), Style::Dashed, suff).color(c))
                .with(Series::new(format!("LB-1 lower end (1 − ε′)/α_pos, a = {a}"), Style::Line, lb).color(c));
            bits = bits.with(
                Series::new(format!("a = {a}"), Style::Points, pts.iter().map(|p| [p[0], (p[1] - eps.ln()) / std::f64::consts::LN_2]).collect()).color(c),
            );
            ctx.progress.advance(1);
        }
        let fig = fig.caption("The least score grows like a^{−D} (slope log10(1/a)); Theorem 1's sufficient score and LB-1's necessary score bracket it. Copying anywhere in a length-N sequence at fixed decay needs Θ(N) bits.");
        let bits = bits.caption("Bits to represent the least admissible score to relative precision ε′: log2(s_min/ε′), linear in D with slope log2(1/a).");
        Ok(judge_rates(
            cells,
            &format!(
                "least-squares slope intervals at 1 − α/m, α = {ALPHA}, Bonferroni over {} decays; slack = the intercept's drift over the range of D",
                decays.len()
            ),
        )
        .figures([fig, bits]))
    })
}

/// Queries for the lower bounds: 1–16 explicit positions after a prefix of 0–1000, decays in
/// [0.2, 0.999], off-target scores in [−R₀, R₀] with R₀ log-uniform, and s_pos = (1 + w·ε′)/α_pos
/// with w ∈ [−1.5, 1.5] (around the admissible interval).
pub fn any_queries() -> impl Strategy<Value = CopyQuery> + Clone {
    (
        1usize..=16,
        prop_oneof![Just(0usize), 1usize..1000],
        prop::collection::vec(real(0.2, 0.999), 16),
        prop::collection::vec(real(-1.0, 1.0), 16),
        log_uniform(1e-6, 1e-1),
        log_uniform(1e-4, 0.1),
        real(0.5, 4.0),
        real(-1.5, 1.5),
        real(0.0, 1.0),
    )
        .prop_map(|(k, prefix_len, mut decays, mut scores, r0, eps, v_bound, w, up)| {
            decays.truncate(k);
            scores.truncate(k);
            for s in &mut scores {
                *s *= r0;
            }
            let i = prefix_len + k;
            let pos = i - ((up * k as f64) as usize).min(k - 1);
            let mut q = CopyQuery { eps, v_bound, delta: r0, window: k, pos, prefix_len, prefix_decay: 0.5, prefix_score: r0 / 2.0, decays, scores };
            let p = pos - prefix_len - 1;
            q.scores[p] = (1.0 + w * q.eps_rel()) * (-q.log_alpha_pos()).exp();
            q
        })
}

/// E_wc ≤ ε as a hypothesis (with its rounding, so that a computed E_wc just above ε does not
/// count as admissible).
fn admissible(q: &CopyQuery) -> f64 {
    let (e, scale) = q.worst_case_error();
    (q.eps - e - Rounding::gamma(2 * q.len() + 8) * scale) / q.eps
}

fn score_interval(q: &CopyQuery, width: f64) -> Eval {
    let x = (q.log_alpha_pos()).exp() * q.score(q.pos);
    let tol = Rounding::gamma(q.len() + 8) * x;
    Eval::ge_by(x, 1.0 - width * q.eps_rel(), Scale(q.eps_rel()), Tolerance::absolute(tol)).min(Eval::le_by(
        x,
        1.0 + width * q.eps_rel(),
        Scale(q.eps_rel()),
        Tolerance::absolute(tol),
    ))
}

/// LB-2's distance bound ln(R/(1−ε′))/ln(1/a_max) with R = max_j|s_j| and a_max the largest
/// decay after pos (None when pos = i).
pub fn distance_bound(q: &CopyQuery) -> Option<f64> {
    let mut r = 0.0f64;
    q.for_each_term(|_, _, s| r = r.max(s.abs()));
    let a_max = (q.pos + 1..=q.len()).map(|k| q.decay(k)).reduce(f64::max)?;
    Some((r / (1.0 - q.eps_rel())).ln() / -a_max.ln())
}

fn within_distance(q: &CopyQuery, factor: f64) -> Eval {
    let d = (q.len() - q.pos) as f64;
    match distance_bound(q) {
        None => Eval::Reject("pos = i: distance 0"),
        // The bound is a ratio of two logarithms of rounded values: 4 roundings relative.
        Some(b) => Eval::le_by(d, factor * b, Scale(b.abs().max(1.0)), Tolerance::absolute(Rounding::gamma(q.len() + 8) * b.abs())),
    }
}

/// How far a copy can reach with scores bounded by R = N^k at decay a_max = 0.9: O(log N).
fn reach_figure() -> Figure {
    let ns: Vec<f64> = (1..=24).map(|e| 2f64.powi(e)).collect();
    let mut fig = Figure::new("reach", "LB-2: the farthest copy with scores |s| ≤ R = N^k (a_max = 0.9, ε′ = 0.01)", "log2 N", "distance")
        .caption("Under log precision (R = poly(N)) a constant-state copy reaches O(log N) positions back; copying across the whole sequence needs scores exponential in N.");
    for (c, k) in [1.0, 2.0, 4.0].iter().enumerate() {
        fig = fig
            .with(Series::new(format!("R = N^{k}"), Style::Line, ns.iter().map(|&n| [n.log2(), (n.powf(*k) / 0.99).ln() / -(0.9f64).ln()]).collect()).color(c));
    }
    fig.with(Series::new("D = N (copy anywhere)", Style::Dashed, ns.iter().filter(|&&n| n <= 1024.0).map(|&n| [n.log2(), n]).collect()).color(3))
}

/// A fixed shift s with constant state: d_h = s + 1 slots, keys b_j = e_{j mod (s+1)}, query
/// c_i = a^{−s}e_{(i−s) mod (s+1)}, constant decay a.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShiftCopy {
    /// The shift s.
    pub shift: usize,
    /// The decay a.
    pub decay: f64,
    /// The sequence length N.
    pub len: usize,
    /// The value bound V (every value is +V, which is the worst case at every position: all
    /// coefficients are ≥ 0).
    pub v_bound: f64,
}

impl ShiftCopy {
    /// The bound V·a^{s+1}/(1 − a^{s+1}).
    pub fn bound(&self) -> f64 {
        let r = self.decay.powi(self.shift as i32 + 1);
        self.v_bound * r / (1.0 - r)
    }
    /// The exact worst-case error at position i (1-based, i > s): the aliases j = i − s − m(s+1)
    /// contribute V·a^{m(s+1)}, so V·r(1 − r^M)/(1 − r) with M = ⌊(i − s − 1)/(s + 1)⌋.
    pub fn error_at(&self, i: usize) -> f64 {
        let r = self.decay.powi(self.shift as i32 + 1);
        let m = (i - self.shift - 1) / (self.shift + 1);
        self.v_bound * r * -(m as f64 * r.ln()).exp_m1() / (1.0 - r)
    }
    /// Runs the recurrence (1) (A = −1, Δ = −ln a, x = V/Δ) and returns the largest error over
    /// positions i > s and the error at i = N.
    pub fn run(&self) -> (f64, f64) {
        let (s, a) = (self.shift, self.decay);
        let slots = s + 1;
        let delta = -a.ln();
        let amat = vec![vec![-1.0]; slots];
        let mut state = DenseState::new(slots, 1);
        let read = a.powi(-(s as i32));
        let (mut worst, mut last) = (0.0f64, 0.0);
        let mut values = std::collections::VecDeque::with_capacity(slots);
        // One step, its one-hot b and c moved along (no allocation per step: len reaches 10⁶).
        let mut step = Step { delta: vec![delta], x: vec![self.v_bound / delta], b: vec![0.0; slots], c: vec![0.0; slots] };
        for i in 1..=self.len {
            step.b.fill(0.0);
            step.b[i % slots] = 1.0;
            step.c.fill(0.0);
            if i > s {
                step.c[(i - s) % slots] = read;
            }
            values.push_back(step.value()[0]);
            let y = state.advance(&amat, &[0.0], &step)[0];
            if values.len() > slots {
                values.pop_front();
            }
            if i > s {
                last = (y - values[0]).abs();
                worst = worst.max(last);
            }
        }
        (worst, last)
    }
}

fn shifts() -> impl Strategy<Value = ShiftCopy> + Clone {
    (1usize..=8, real(0.05, 0.9), log_uniform(1.0, 1e6), real(0.5, 4.0)).prop_map(|(shift, decay, n, v_bound)| ShiftCopy {
        shift,
        decay,
        len: shift + 1 + n as usize,
        v_bound,
    })
}

fn shift_eval(c: &ShiftCopy, geometric: bool) -> Eval {
    let (worst, last) = c.run();
    let r = c.decay.powi(c.shift as i32 + 1);
    // Rounding: every slot is multiplied by exp(Δ·A) = a(1 + η), |η| ≤ 3u, once per step and written
    // once per cycle; an alias m cycles back carries (s+1)m such factors, so the error of the sum is
    // ≤ 3u(s+1)·V·Σ m r^m = 3u(s+1)V r/(1−r)²; the read-out a^{−s} (s roundings) and the subtraction
    // of v add γ_{s+4} of V/(1−r).
    let tol = 3.0 * Rounding::UNIT * (c.shift as f64 + 1.0) * c.v_bound / (1.0 - r).powi(2) + Rounding::gamma(c.shift + 4) * c.v_bound / (1.0 - r);
    let bound = if geometric { c.bound() } else { c.v_bound * r };
    Eval::le_by(worst, bound, Scale(c.v_bound), Tolerance::absolute(tol)).min(Eval::close(
        (last - c.error_at(c.len)).abs(),
        Scale(c.v_bound),
        Tolerance::absolute(tol),
    ))
}

/// `003.thm1.score` (theorem): Theorem 1 and its discussion ('ρ = Ω((1/a_min,>)^L)'), read as the score's growth with the copy distance (proofs/copy.md).
fn claim_thm1_score() -> Claim {
    Claim::theorem(
        "003.thm1.score",
        super::FAMILY,
        "At constant decay a, the least target score with E_wc ≤ ε (bisection on the exact worst case, ε′ = 0.01, \
             off-target scores below δ = 0.1ε′(1−a)) grows like a^{−D} with the copy distance D: the least-squares slope of \
             ln s_min on D (D = 0…40 quick, 80 standard, 160 deep) is ln(1/a), interval at α = 10⁻⁴ Bonferroni over the decays.",
        score_rate_check(1.0),
    )
    .source(
        Paper::FreeLunch,
        "Theorem 1 and its discussion ('ρ = Ω((1/a_min,>)^L)'), read as the score's growth with the copy distance (proofs/copy.md)",
        "… the score ρ … grows exponentially with L …",
    )
    .correction(
        "The driver is 1/α_pos(i), exponential in the copy distance i − pos(i) (between (1/a_max,>)^{i−pos} and (1/a_min,>)^{i−pos}), not Ω((1/a_min,>)^L).",
    )
    .control("slope ln(1/a)/2 (a score growing like a^{−D/2})", score_rate_check(0.5))
}

/// `003.lb.score` (theorem): proofs/copy.md, LB-1.
fn claim_lb_score() -> Claim {
    Claim::theorem(
        "003.lb.score",
        super::FAMILY,
        "LB-1 (derived): E_wc ≤ ε forces the target score into [(1 − ε′)/α_pos, (1 + ε′)/α_pos], on any query \
             (no Assumption 1; prefix up to 1000, 1–16 explicit positions).",
        property([300, 3000, 30000], any_queries(), |q: &CopyQuery| score_interval(q, 1.0))
            .given("E_wc ≤ ε (less its rounding)", admissible)
            .sides("α_pos·s_pos", "1 ∓ ε′"),
    )
    .source(crate::claim::Origin::Derived(Paper::FreeLunch), "proofs/copy.md, LB-1", "—")
    .control(
        "the interval halved: [(1 − ε′/2)/α_pos, (1 + ε′/2)/α_pos]",
        property([300, 3000, 30000], any_queries(), |q: &CopyQuery| score_interval(q, 0.5)).given("E_wc ≤ ε (less its rounding)", admissible),
    )
}

/// `003.lb.distance` (theorem): proofs/copy.md, LB-2.
fn claim_lb_distance() -> Claim {
    Claim::theorem(
        "003.lb.distance",
        super::FAMILY,
        "LB-2 (derived): with scores |s_j| ≤ R and every decay after pos at most a_max < 1, E_wc ≤ ε forces the copy distance \
             i − pos ≤ ln(R/(1 − ε′))/ln(1/a_max) (R = the largest |s_j|, a_max the largest decay after pos): under log precision, \
             R = poly(N), a constant-state copy reaches O(log N) positions.",
        property([300, 3000, 30000], any_queries(), |q: &CopyQuery| within_distance(q, 1.0))
            .given("E_wc ≤ ε (less its rounding)", admissible)
            .sides("i − pos", "ln(R/(1 − ε′))/ln(1/a_max)")
            .illustrate(|_| vec![reach_figure()]),
    )
    .source(crate::claim::Origin::Derived(Paper::FreeLunch), "proofs/copy.md, LB-2", "—")
    .control(
        "half the distance bound",
        property([300, 3000, 30000], any_queries(), |q: &CopyQuery| within_distance(q, 0.5)).given("E_wc ≤ ε (less its rounding)", admissible),
    )
}

/// `003.shift` (theorem): derived: proofs/copy.md, shifted copies (the setting of §4.1).
fn claim_shift() -> Claim {
    Claim::theorem(
        "003.shift",
        super::FAMILY,
        "A constant state of s + 1 slots copies the fixed shift o_i = v_{i−s} (keys e_{j mod (s+1)}, query a^{−s}e_{(i−s) mod (s+1)}, \
             constant decay a) with worst-case error at most V·a^{s+1}/(1 − a^{s+1}) at every position, and exactly \
             V·r(1 − r^M)/(1 − r) (r = a^{s+1}, M = ⌊(i−s−1)/(s+1)⌋) at i = N, by the recurrence (1); s ≤ 8, N up to 10⁶.",
        property([20, 200, 2000], shifts(), |c: &ShiftCopy| shift_eval(c, true)),
    )
    .source(crate::claim::Origin::Derived(Paper::FreeLunch), "proofs/copy.md, shifted copies (the setting of §4.1: constant size copies local patterns)", "—")
    .control("the error V·a^{s+1} (the first alias only)", property([20, 200, 2000], shifts(), |c: &ShiftCopy| shift_eval(c, false)))
}

/// Registers the distance claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm1_score());
    r.add(claim_lb_score());
    r.add(claim_lb_distance());
    r.add(claim_shift());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_errors_match_the_closed_form() {
        // proofs/copy.md (003.shift): the worst error is at i = N, V·r(1 − r^M)/(1 − r) with
        // r = a^{s+1}, M = ⌊(N − s − 1)/(s + 1)⌋ (≈ 2.506·10⁻³, 1.603·10⁻³, 7.295·10⁻⁴ here), up to
        // the proof's rounding 3u(s+1)V·r/(1 − r)² + γ_{s+4}V/(1 − r).
        for (s, a) in [(1usize, 0.05f64), (3, 0.2), (5, 0.3)] {
            let c = ShiftCopy { shift: s, decay: a, len: 2000, v_bound: 1.0 };
            let (worst, last) = c.run();
            let r = a.powi(s as i32 + 1);
            let m = (2000 - s - 1) / (s + 1);
            let want = r * (1.0 - r.powi(m as i32)) / (1.0 - r);
            let tol = 3.0 * Rounding::UNIT * (s + 1) as f64 * r / (1.0 - r).powi(2) + Rounding::gamma(s + 4) / (1.0 - r);
            assert!((worst - want).abs() <= tol && (last - c.error_at(2000)).abs() < 1e-12, "s={s}: {worst} vs {want}");
        }
    }

    #[test]
    fn the_least_score_matches_lb1s_closed_form() {
        let q = distance_query(0.9, 20, 0.01, 1e-4);
        let s = least_admissible_score(&q).unwrap();
        let mut off = 0.0;
        q.for_each_term(|j, la, sj| {
            if j != q.pos {
                off += la.exp() * sj.abs()
            }
        });
        let want = (1.0 - 0.01 + off) * (-q.log_alpha_pos()).exp();
        assert!((s / want - 1.0).abs() < 1e-12, "{s} vs {want}");
    }
}
