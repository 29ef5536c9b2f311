//! An enclosure of the sub-exponential constant `ν²(b) = sup_{0<|λ|<1/b} 2ψ(λ)/λ²` of
//! `Y = ln(c + γX²)`, `ψ(λ) = Λ(λ) − λμ` ([`LogChi2::nu2`] finds the sup by search; this bounds
//! it from both sides, in interval arithmetic on the enclosed `Λ` and `μ`).
//!
//! Write `r(λ) = 2ψ(λ)/λ²` and treat each sign of λ apart (`t ↦ ψ(±t)` is convex on t ≥ 0 with
//! value and slope 0 at 0).
//! - **Lower end**: the largest enclosed `r(λ)` at the points λ evaluated inside the domain.
//! - **Upper end**: a cover of `[0, 1/b]` by cells. On a cell `[a, b]`, 0 < a, ψ lies below its
//!   chord `α + βλ` through the upper ends of `ψ(a)` and `ψ(b)` (convexity; the chord only rises
//!   with its end values), so `r ≤ max_{[a,b]} 2(α + βλ)/λ²`, which is at a, at b, or at the
//!   critical point `λ* = −2α/β` with the value `−β²/(2α)`. On the cell `[0, a₀]`, Taylor's
//!   theorem with ψ(0) = ψ′(0) = 0 gives `r(λ) = 2∫₀¹(1 − s)Λ″(sλ)ds ≤ sup_{|θ|≤a₀} Λ″(θ)`, and
//!   `Λ″(θ) = Var_θ Y ≤ E_θ(Y − m)² = E[(Y − m)²e^{θY}] / E[e^{θY}]` for any m; both expectations
//!   are enclosed for every θ of `[0, ±a₀]` at once (θ enters the Taylor arithmetic of
//!   [`normal_expectation_enclosure`] as an interval).
//! - **Refinement**: the cell with the largest bound is halved (geometrically; the first cell is
//!   cut to a quarter) while that bound exceeds the lower end by more than [`NU2_RTOL`] and
//!   splitting can still lower it (the bound is not already r's upper ends at the cell's ends,
//!   i.e. the width of ψ's enclosures), up to [`NU2_EVALUATIONS`] enclosed evaluations. The chord's excess over a cell of ratio q is about
//!   (q − 1)²/4 of r, so only the cells near the sup are refined. The result is an enclosure
//!   whatever the budget; the budget only limits its width.
//!
//! ψ is enclosed directly (`E[e^{λ(Y−m)} − 1 − λ(Y − m)]` by quadrature), not as `Λ(λ) − λμ`,
//! whose ~10⁻¹² absolute error would swamp `ψ ≈ λ²Var Y/2` at small λ; for |λ| ≤ 36 (the tail
//! bound's reach): for b < 1/36 the cover stops at 36 and the upper end is +∞.

use super::subexp::LogChi2;
use super::taylor::{graded_breakpoints, normal_expectation_enclosure, Growth, Taylor};
use super::{Interval, Real};

/// The relative gap between the ends at which [`LogChi2::nu2_enclosure`] stops refining.
pub const NU2_RTOL: f64 = 1e-8;

/// The most enclosed evaluations of ψ (a quadrature each) one [`LogChi2::nu2_enclosure`] makes.
pub const NU2_EVALUATIONS: usize = 400;

/// Largest |λ| at which ψ(λ) is enclosed: the tail bound's power 2λ must stay ≤ 72.
const LAMBDA_ENCLOSED: f64 = 36.0;

/// Where the first chord cell starts, as a fraction of the cover's end: the cell `[0, a₀]` below
/// it is bounded through `Λ″`.
const FIRST_CELL: f64 = 1.0 / 65536.0;

/// One cell `[a, b]` (|λ|, one sign) of the cover with the upper ends of ψ at its ends, or the
/// cell `[0, b]` (a = 0) bounded through `Λ″`; `bound` is its upper bound on r.
#[derive(Clone, Copy, Debug)]
struct Cell {
    a: f64,
    b: f64,
    psi_a: f64,
    psi_b: f64,
    /// The bound's floor: r's upper ends at a and b, which no split lowers.
    ends: f64,
    bound: f64,
}

impl LogChi2 {
    /// An enclosure of `ν²(b) = sup_{0<|λ|<1/b} 2ψ(λ)/λ²` (module doc: chords of the convex ψ,
    /// a `Λ″` bound next to 0, refinement near the sup). Width 10⁻¹⁰ to 10⁻⁸ relative for the
    /// claims' (c, γ) and b ≥ 1/36; upper end +∞ for b < 1/36; the entire line for b ≤ 0 or
    /// NaN. Cost: up to [`NU2_EVALUATIONS`] enclosed quadratures (measured 58–374: 0.8–17 s on
    /// two Zen 4 cores; the most where the sup is barely above Var Y = Λ″(0), so that the cells
    /// next to λ = 0 need fine chords).
    pub fn nu2_enclosure(&self, b: f64) -> Interval {
        if b.is_nan() || b <= 0.0 {
            return Interval::ENTIRE;
        }
        // The lower end takes only points t ≤ 1/b (r is continuous up to 1/b, so the sup is at
        // least its value there); the cover ends at the first f64 at or past 1/b (an upper bound
        // over a superset is still one). `t·b − 1` in one rounding (fma) decides the side.
        let inside = |t: f64| t.mul_add(b, -1.0) <= 0.0;
        let end = 1.0 / b;
        let end = if inside(end) { end } else { f64::from_bits(end.to_bits() - 1) };
        let past = if end.mul_add(b, -1.0) == 0.0 { end } else { f64::from_bits(end.to_bits() + 1) };
        let top = past.min(LAMBDA_ENCLOSED);
        let m = self.mean();
        let delta = self.mean_enclosure() + (-m);
        let psi = |l: f64| self.psi_enclosure(l, m, delta);
        let mut lower = 0.0f64;
        let mut cells = Vec::new();
        let mut evaluations = 0;
        for sign in [1.0, -1.0] {
            let mut eval = |t: f64| {
                let p = psi(sign * t);
                evaluations += 1;
                if inside(t) {
                    lower = lower.max(ratio(p, t).lo);
                }
                p.hi.max(0.0)
            };
            let a0 = top * FIRST_CELL;
            let mut points = vec![a0];
            while points[points.len() - 1] * 2.0 < top {
                points.push(points[points.len() - 1] * 2.0);
            }
            if end < top {
                points.push(end);
            }
            points.push(top);
            let psis: Vec<f64> = points.iter().map(|&t| eval(t)).collect();
            cells.push((sign, self.second_derivative_cell(sign, a0)));
            evaluations += 2;
            for i in 0..points.len() - 1 {
                cells.push((sign, chord_cell(points[i], points[i + 1], psis[i], psis[i + 1])));
            }
        }
        while evaluations < NU2_EVALUATIONS {
            let (k, &(sign, worst)) = cells.iter().enumerate().max_by(|x, y| x.1 .1.bound.total_cmp(&y.1 .1.bound)).unwrap();
            // Done, or the worst cell's bound is its ends' (the enclosures' width, not the chord).
            if worst.bound <= lower * (1.0 + NU2_RTOL) || worst.bound - worst.ends <= 0.5 * NU2_RTOL * lower {
                break;
            }
            let (a, cb) = (worst.a, worst.b);
            let cut = if a == 0.0 { cb / 4.0 } else { (a * cb).sqrt() };
            if cut <= a || cut >= cb {
                break; // the cell cannot be split further in f64
            }
            let p = psi(sign * cut);
            evaluations += 1;
            if inside(cut) {
                lower = lower.max(ratio(p, cut).lo);
            }
            let pc = p.hi.max(0.0);
            let left = if a == 0.0 {
                evaluations += 2;
                self.second_derivative_cell(sign, cut)
            } else {
                chord_cell(a, cut, worst.psi_a, pc)
            };
            cells[k] = (sign, left);
            cells.push((sign, chord_cell(cut, cb, pc, worst.psi_b)));
        }
        let upper = cells.iter().map(|c| c.1.bound).fold(lower, f64::max);
        let upper = if past > LAMBDA_ENCLOSED { f64::INFINITY } else { upper };
        Interval::new(lower, upper)
    }

    /// `ψ(λ)` enclosed without the cancellation of `Λ(λ) − λμ` (whose absolute error, ~10⁻¹²,
    /// would swamp `ψ ≈ λ²Var/2` at small λ): with `m` the floating-point μ, `δ = μ − m`
    /// enclosed and `F = E φ₂(λ(Y − m))`, `φ₂(z) = eᶻ − 1 − z` (enclosed by quadrature),
    /// `E e^{λ(Y−m)} = 1 + λδ + F`, so `ψ = ln(1 + λδ + F) − λδ`, and `ψ ≤ F` since
    /// `ln(1 + x) ≤ x`; the upper end is the better of the two. Tails for |x| ≥ 12:
    /// `0 ≤ φ₂(z) ≤ eᶻ + z²/2`, with `z² ≤ λ²K²x⁴` (`|Y − m| ≤ Kx²`, `LogChi2::centred_growth`) and
    /// `e^z = (c + γx²)^λ e^{−λm} ≤ e^{−λm}(c/144 + γ)^λ x^{2λ}` for λ > 0,
    /// `≤ e^{|λ|max(m − ln c, 0)}` for λ < 0 (Y ≥ ln c); so power max(2λ, 4).
    ///
    /// [`second_derivative_cell`]: LogChi2::second_derivative_cell
    fn psi_enclosure(&self, l: f64, m: f64, delta: Interval) -> Interval {
        let (c, gamma) = (self.c, self.gamma);
        let k = self.centred_growth(m);
        let (peak, power) =
            if l > 0.0 { ((-l * m).exp() * (c / 144.0 + gamma).powf(l), (2.0 * l).max(4.0)) } else { ((-l * (m - c.ln()).max(0.0)).exp(), 4.0) };
        let growth = Growth { scale: (peak + 0.5 * l * l * k * k) * (1.0 + 1e-9), power };
        // As in log_mgf_enclosure: graded breakpoints near 0 and one at the peak of
        // (c + γx²)^λ φ(x); the target relative to F's size (estimated in floating point).
        let mut breaks = graded_breakpoints(0.1 * (c / gamma).sqrt());
        if l * gamma > 0.5 * c {
            breaks.push((2.0 * l - c / gamma).sqrt());
        }
        let estimate = (self.log_mgf(l) - l * m).exp_m1().abs().max(0.5 * l * l * self.variance());
        let target = 1e-10 * estimate;
        let f = normal_expectation_enclosure(
            |x| {
                let z = ((x * x * gamma + c).ln() + (-m)) * l;
                z.exp_m1() - z
            },
            growth,
            &breaks,
            target,
        );
        let ld = delta * Interval::exact(l);
        let psi = (ld + f).ln_1p() - ld;
        Interval::new(psi.lo, psi.hi.min(f.hi))
    }

    /// The cell `[0, a₀]` (one sign): `sup r ≤ sup_θ E[(Y − m)²e^{θY}] / inf_θ E[e^{θY}]` over
    /// θ between 0 and `sign·a₀`, m the floating-point μ. Tails for |x| ≥ 12: |Y| ≤ K₀x² with
    /// `K₀ = (|ln c| + |ln(c + γ)|)/144 + 1` (as in [`LogChi2::mean_enclosure`]), so
    /// `(Y − m)² ≤ ((K₀ − 1) + |m|/144 + 1)²x⁴`, and `e^{θY} = (c + γx²)^θ ≤ max(1, c/144 + γ)^{a₀}
    /// x^{2a₀}` for θ ≥ 0, `≤ max(1, c^{−a₀})` for θ ≤ 0.
    fn second_derivative_cell(&self, sign: f64, a0: f64) -> Cell {
        let (c, gamma) = (self.c, self.gamma);
        let m = self.mean();
        let theta = if sign > 0.0 { Interval::new(0.0, a0) } else { Interval::new(-a0, 0.0) };
        let k = self.centred_growth(m);
        let (tilt, power) = if sign > 0.0 { ((c / 144.0 + gamma).max(1.0).powf(a0), 2.0 * a0) } else { (c.powf(-a0).max(1.0), 0.0) };
        let slack = 1.0 + 1e-9;
        let knee = (c / gamma).sqrt();
        let breaks = graded_breakpoints(0.1 * knee);
        let y = |x: Taylor| (x * x * gamma + c).ln();
        let weight = |x: Taylor| (y(x) * Taylor::constant(theta)).exp();
        let var = self.variance().max(1e-300);
        let num = normal_expectation_enclosure(
            |x| {
                let d = y(x) + (-m);
                d * d * weight(x)
            },
            Growth { scale: k * k * tilt * slack, power: 4.0 + power },
            &breaks,
            1e-12 * var,
        );
        let den = normal_expectation_enclosure(weight, Growth { scale: tilt * slack, power }, &breaks, 1e-12);
        let bound = if den.lo > 0.0 && num.hi.is_finite() { (Interval::exact(num.hi) / Interval::exact(den.lo)).hi } else { f64::INFINITY };
        Cell { a: 0.0, b: a0, psi_a: 0.0, psi_b: f64::NAN, ends: 0.0, bound }
    }
}

/// `r(λ) = 2ψ/λ²` enclosed.
fn ratio(psi: Interval, l: f64) -> Interval {
    psi * Interval::exact(2.0) / Interval::exact(l).square()
}

/// The chord cell `[a, b]` (0 < a < b) with ψ's upper ends `pa`, `pb` at its ends: the bound is
/// the largest of `2(α + βλ)/λ²` at a, at b and at `λ* = −2α/β` when that can lie in the cell;
/// `2·max(pa, pb)/a²` (the chord's top over the cell's smallest λ²) when α or β is too close to 0
/// to place λ*.
fn chord_cell(a: f64, b: f64, pa: f64, pb: f64) -> Cell {
    let (ai, bi, pai, pbi) = (Interval::exact(a), Interval::exact(b), Interval::exact(pa), Interval::exact(pb));
    let ends = ratio(pai, a).hi.max(ratio(pbi, b).hi);
    let beta = (pbi - pai) / (bi - ai);
    let alpha = pai - beta * ai;
    let crude = ratio(Interval::exact(pa.max(pb)), a).hi;
    let bound = if alpha.lo > 0.0 || alpha.hi < 0.0 {
        if beta.lo > 0.0 || beta.hi < 0.0 {
            let critical = -(alpha * 2.0) / beta;
            if critical.hi < a || critical.lo > b {
                ends
            } else {
                let peak = -(beta.square()) / (alpha * 2.0);
                ends.max(peak.hi).min(crude)
            }
        } else {
            crude
        }
    } else {
        crude
    };
    Cell { a, b, psi_a: pa, psi_b: pb, ends, bound: bound.max(ends) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::subexp::SAFETY;

    fn l(c: f64, g: f64) -> LogChi2 {
        LogChi2::new(c, g).unwrap()
    }

    /// The enclosure holds the search's ν²(b) and is narrow; it excludes values 10⁻⁶ off. The
    /// search evaluates `2(Λ(λ) − λμ)/λ²` in floating point at points of the domain, so it is
    /// below the sup up to its own error: Λ and μ each to ~10⁻¹³ absolute (their quadratures'
    /// tolerance), hence r to about 2·2·10⁻¹³/λ², at most 4·10⁻¹³·b² where the sup is at the
    /// end |λ| = 1/b < 1 (b = 10: 4·10⁻¹¹, about 3·10⁻⁹ relative, which the enclosure shows).
    /// And the safety factor the Theorem 4 claims put on the search covers the sup. Cases: a sup
    /// at the open end (b = 10, 0.25), inside (b = 2), and one barely above Var Y = Λ″(0), where
    /// the cells next to λ = 0 need the most refinement ((0.05, 1.5), b = 1: ~350 quadratures).
    #[test]
    fn the_enclosure_holds_the_searched_sup_and_is_narrow() {
        for &(c, g, b) in &[(0.9, 0.099, 10.0), (0.5, 0.499, 0.25), (0.5, 0.499, 2.0), (0.05, 1.5, 1.0)] {
            check_cell(c, g, b);
        }
    }

    fn check_cell(c: f64, g: f64, b: f64) -> Interval {
        let y = l(c, g);
        let e = y.nu2_enclosure(b);
        let searched = y.nu2(b);
        let slack = 4e-13 * b.max(1.0).powi(2);
        // Above the sup only by its error; below it also by its grid (it stops at
        // (1 − 10⁻⁹)/b, short of a sup at the open end): 10⁻⁷ relative covers both.
        assert!(searched <= e.hi + slack && e.lo <= searched * (1.0 + 1e-7) + slack, "ν²({b}) at ({c}, {g}): {e}, search {searched}");
        assert!(e.width() < 1e-6 * e.hi, "ν²({b}) at ({c}, {g}): {e} is wide");
        assert!(!e.contains(searched * (1.0 + 1e-6)) && !e.contains(searched * (1.0 - 1e-6)));
        assert!(SAFETY * searched >= e.hi, "ν²({b}) at ({c}, {g}): {e} above {SAFETY} × the search");
        e
    }

    /// Every cell of the Theorem 4 claims (4 (λ_H, γ) × 3 b, about a minute): the claims'
    /// ν(b)²·SAFETY is an admissible constant, i.e. at least the enclosed sup. The values are
    /// in proofs/stability.md.
    // Ignored because 12 enclosures take 45 s on two cores, too long for `cargo test` and CI
    // (CI runs no ignored test); four of the cells, the hard one included, run above in
    // `the_enclosure_holds_the_searched_sup_and_is_narrow` with the same assertions, and this
    // test's output is the table in proofs/stability.md (rerun it when ν² or SAFETY changes).
    #[test]
    #[ignore = "about a minute; cargo test --release --lib -- --ignored theorem4_cells"]
    fn theorem4_cells_have_admissible_constants() {
        for &(c, g) in &[(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)] {
            for b in [0.1, 1.0, 10.0] {
                let e = check_cell(c, g, b);
                println!("({c}, {g}) b = {b}: ν² ∈ {e}");
            }
        }
    }

    /// Beyond the λ range of the enclosed Λ the upper end is +∞, the lower end still a value.
    #[test]
    fn small_b_has_no_finite_upper_end() {
        let e = l(0.9, 0.099).nu2_enclosure(0.01);
        assert!(e.hi == f64::INFINITY && e.lo > 0.0);
        assert_eq!(l(0.9, 0.099).nu2_enclosure(0.0), Interval::ENTIRE);
    }

    /// The chord cell's bound is above 2ψ/λ² of a convex ψ through its ends (here ψ = λ⁴ + λ²,
    /// r = 2λ² + 2, whose sup over the cell is at the right end) and of ψ = λ² (r = 2 flat).
    #[test]
    fn chord_cells_bound_convex_functions() {
        for &(a, b) in &[(0.1, 0.2), (1.0, 3.0), (0.5, 0.51)] {
            let f = |x: f64| x.powi(4) + x * x;
            let cell = chord_cell(a, b, f(a), f(b));
            for i in 0..=100 {
                let x = a + (b - a) * i as f64 / 100.0;
                assert!(2.0 * f(x) / (x * x) <= cell.bound * (1.0 + 1e-12), "[{a}, {b}] at {x}: {}", cell.bound);
            }
            let flat = chord_cell(a, b, a * a, b * b);
            assert!(flat.bound >= 2.0 && flat.bound < 2.0 * (1.0 + (b / a - 1.0).powi(2)), "{}", flat.bound);
        }
    }
}
