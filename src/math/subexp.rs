//! The law of `Y = ln(c + γX²)`, X ~ N(0,1), c > 0, γ > 0: the log-eigenvalue of the
//! interaction model's special case (004 §4.2, Lemma 1, Theorem 4). Moments, the log-MGF in log
//! space, sub-exponential constants (ν(b), b), exact one-sided tails, the Kesten index and the
//! Cramér–Chernoff bound, all by 1-D quadrature (no Monte Carlo).

use super::golden_section_max;
use super::quadrature::{adaptive_simpson, expected_log_c_plus_gamma_x2, normal_expectation};
use super::taylor::{graded_breakpoints, normal_expectation_enclosure, Growth};
use super::{Interval, Real};
use statrs::function::erf::{erf, erfc};

/// `Y = ln(c + γX²)` with X ~ N(0,1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogChi2 {
    /// c > 0 (λ_H in 004).
    pub c: f64,
    /// γ > 0.
    pub gamma: f64,
}

impl LogChi2 {
    /// `Y = ln(c + γX²)`; None unless c > 0, γ > 0 and both finite.
    pub fn new(c: f64, gamma: f64) -> Option<Self> {
        (c.is_finite() && gamma.is_finite() && c > 0.0 && gamma > 0.0).then_some(LogChi2 { c, gamma })
    }

    /// `μ = E Y`.
    pub fn mean(&self) -> f64 {
        expected_log_c_plus_gamma_x2(self.c, self.gamma)
    }

    /// An enclosure of `μ = E Y` ([`normal_expectation_enclosure`]; width about 10⁻¹³ for
    /// c, γ of order one). Tails: |ln(c + γx²)| ≤ |ln c| + |ln(c + γ)| + 2 ln|x| ≤ (that sum/144 +
    /// 1)·x² for |x| ≥ 12.
    pub fn mean_enclosure(&self) -> Interval {
        let (c, gamma) = (self.c, self.gamma);
        let scale = self.centred_growth(0.0) * (1.0 + 1e-9);
        let knee = (c / gamma).sqrt();
        normal_expectation_enclosure(|x| (x * x * gamma + c).ln(), Growth { scale, power: 2.0 }, &graded_breakpoints(0.1 * knee), 1e-13)
    }

    /// An enclosure of `Λ(λ) = ln E (c + γX²)^λ` ([`normal_expectation_enclosure`] of
    /// `exp(λ ln(c + γX²))`, to a width of about 10⁻¹² relative). Tails: `(c + γx²)^λ ≤
    /// ((c/144 + γ)x²)^λ` for λ ≥ 0 and `≤ c^λ` for λ < 0, when |x| ≥ 12; the entire line for
    /// λ > 36, where the tail bound does not apply.
    pub fn log_mgf_enclosure(&self, lambda: f64) -> Interval {
        let (c, gamma) = (self.c, self.gamma);
        let growth = if lambda >= 0.0 {
            Growth { scale: (c / 144.0 + gamma).powf(lambda) * (1.0 + 1e-9), power: 2.0 * lambda }
        } else {
            Growth { scale: c.powf(lambda) * (1.0 + 1e-9), power: 0.0 }
        };
        let knee = (c / gamma).sqrt();
        let estimate = self.log_mgf(lambda).exp();
        let peak = if lambda * gamma > 0.5 * c { (2.0 * lambda - c / gamma).sqrt() } else { 0.0 };
        let mut breaks = graded_breakpoints(0.1 * knee);
        breaks.push(peak);
        let e = normal_expectation_enclosure(|x| ((x * x * gamma + c).ln() * lambda).exp(), growth, &breaks, 1e-12 * estimate);
        e.ln()
    }

    /// `Var Y`.
    pub fn variance(&self) -> f64 {
        let mu = self.mean();
        let knee = (self.c / self.gamma).sqrt();
        normal_expectation(|x| ((self.c + self.gamma * x * x).ln() - mu).powi(2), &[knee, 0.1 * knee, 10.0 * knee], 1e-13)
    }

    /// An enclosure of `Var Y`: `E(Y − m)² − (μ − m)²` with m the floating-point μ, both terms
    /// enclosed ([`normal_expectation_enclosure`]; tails `(Y − m)² ≤ K²x⁴` for |x| ≥ 12,
    /// K = `LogChi2::centred_growth`). Width about 10⁻¹³ for c, γ of order one.
    pub fn variance_enclosure(&self) -> Interval {
        let (c, gamma) = (self.c, self.gamma);
        let m = self.mean();
        let k = self.centred_growth(m);
        let knee = (c / gamma).sqrt();
        let second = normal_expectation_enclosure(
            |x| {
                let d = (x * x * gamma + c).ln() + (-m);
                d * d
            },
            Growth { scale: k * k * (1.0 + 1e-9), power: 4.0 },
            &graded_breakpoints(0.1 * knee),
            1e-13,
        );
        let delta = self.mean_enclosure() + (-m);
        second - delta.square()
    }

    /// K with `|ln(c + γx²) − m| ≤ Kx²` for every |x| ≥ 12: `|ln(c + γx²)| ≤ ((|ln c| +
    /// |ln(c + γ)|)/144 + 1)x²` there (the bound of [`LogChi2::mean_enclosure`]) and
    /// `|m| ≤ |m|x²/144`.
    pub(crate) fn centred_growth(&self, m: f64) -> f64 {
        (self.c.ln().abs() + (self.c + self.gamma).ln().abs() + m.abs()) / 144.0 + 1.0
    }

    /// `Λ(λ) = ln E e^{λY} = ln E (c + γX²)^λ`, computed in log space: the integrand
    /// `exp(λ ln(c+γx²) − x²/2)` is scaled by its maximum and integrated on pieces around its peak.
    pub fn log_mgf(&self, lambda: f64) -> f64 {
        let (gmax, integral) = self.tilted_integral(lambda, |_| 1.0);
        // E = 2 ∫_0^∞ e^{g} dx / √(2π)
        gmax + (2.0 * integral / (2.0 * std::f64::consts::PI).sqrt()).ln()
    }

    /// `(g_max, ∫_0^∞ h(y(x)) e^{g(x) − g_max} dx)` with `g(x) = λ ln(c+γx²) − x²/2` and
    /// `y(x) = ln(c+γx²)`: the integrand is scaled by its maximum and integrated on pieces around
    /// its peak (adaptive Simpson; the scaled weight peaks at 1, so its integral is ≥ O(1e−2)).
    /// The absolute tolerance is 1e−13, or 100× the rounding noise of `g − g_max` where that is
    /// larger: g is a difference of terms of size `G = |λ ln(c + γx²)| + x²/2` at the peak, so
    /// `e^{g − g_max}` carries a relative noise of ~G·2⁻⁵³ that no refinement removes (at λ = 10⁴,
    /// G ≈ 10⁵ and the tolerance is ~1e−9).
    fn tilted_integral(&self, lambda: f64, h: impl Fn(f64) -> f64) -> (f64, f64) {
        let log_m = |x: f64| (self.c + self.gamma * x * x).ln();
        let g = |x: f64| lambda * log_m(x) - 0.5 * x * x;
        // The peak of g on x ≥ 0: x = 0, or x² = 2λ − c/γ when λ > c/(2γ).
        let peak = if lambda * self.gamma > 0.5 * self.c { (2.0 * lambda - self.c / self.gamma).sqrt() } else { 0.0 };
        let gmax = g(peak);
        // Far enough that g − gmax < −60 (e^{−60} ≈ 1e−26 relative).
        let mut hi = peak + 12.0;
        while g(hi) - gmax > -60.0 {
            hi *= 1.5;
        }
        let knee = (self.c / self.gamma).sqrt();
        let mut pts = vec![0.0, hi, peak, (peak - 3.0).max(0.0), peak + 3.0, knee, 0.1 * knee, 10.0 * knee];
        pts.retain(|p| (0.0..=hi).contains(p));
        pts.sort_by(f64::total_cmp);
        pts.dedup();
        let noise = (lambda * log_m(peak)).abs() + 0.5 * peak * peak;
        let tol = (100.0 * f64::EPSILON * noise).max(1e-13);
        let f = |x: f64| h(log_m(x)) * (g(x) - gmax).exp();
        (gmax, pts.windows(2).map(|w| adaptive_simpson(&f, w[0], w[1], tol)).sum())
    }

    /// The law of one term tilted by `e^{θY}` (density ∝ (c + γx²)^θ φ(x)): its log-MGF `Λ(θ)`
    /// and the mean, variance and standardised third and fourth cumulants of Y under it
    /// (`Λ'(θ)`, `Λ''(θ)`, `Λ'''/Λ''^{3/2}`, `Λ''''/Λ''²`), by the quadrature of [`LogChi2::log_mgf`].
    pub fn tilted(&self, theta: f64) -> Tilted {
        let (gmax, z) = self.tilted_integral(theta, |_| 1.0);
        let mean = self.tilted_integral(theta, |y| y).1 / z;
        // Standardised moments E((Y − mean)/s)^k with s from a first pass, so that every integrand
        // is O(1) and the quadrature's absolute tolerance is a relative one (at large θ the
        // variance is ~1/θ).
        let central = |s: f64, k: i32| self.tilted_integral(theta, |y| ((y - mean) / s).powi(k)).1 / z;
        let s = central(1.0, 2).sqrt();
        let (m2, m3, m4) = (central(s, 2), central(s, 3), central(s, 4));
        Tilted {
            theta,
            log_mgf: gmax + (2.0 * z / (2.0 * std::f64::consts::PI).sqrt()).ln(),
            mean,
            variance: m2 * s * s,
            skewness: m3 / m2.powf(1.5),
            excess_kurtosis: m4 / (m2 * m2) - 3.0,
        }
    }

    /// The centred log-MGF `ψ(λ) = Λ(λ) − λμ ≥ 0`.
    pub fn psi(&self, lambda: f64) -> f64 {
        self.log_mgf(lambda) - lambda * self.mean()
    }

    /// `ν²(b) = sup_{0<|λ|<1/b} 2ψ(λ)/λ²`: the best of 81 log-spaced |λ| ∈ [1e−3, λ_max] of
    /// each sign, refined by golden-section search between its neighbours, with
    /// `λ_max = min(1/b, 200)·(1 − 1e−9)` (the sup is often the limit at the open end; b → 0 gives
    /// the sub-Gaussian proxy). No safety factor: callers that need an admissible constant
    /// multiply by [`SAFETY`]. [`LogChi2::nu2_enclosure`] bounds the sup rigorously (both ends).
    pub fn nu2(&self, b: f64) -> f64 {
        let lmax = (1.0 / b).min(200.0) * (1.0 - 1e-9);
        let mu = self.mean();
        let ratio = |l: f64| 2.0 * (self.log_mgf(l) - l * mu) / (l * l);
        let n = 80;
        let at = |i: usize| (1e-3f64.ln() + (lmax.ln() - 1e-3f64.ln()) * i as f64 / n as f64).exp();
        let mut best = 0.0f64;
        for sign in [1.0, -1.0] {
            let values: Vec<f64> = (0..=n).map(|i| ratio(sign * at(i))).collect();
            let k = (0..=n).max_by(|&a, &b| values[a].total_cmp(&values[b])).unwrap();
            let refined = golden_section_max(|l| ratio(sign * l), at(k.saturating_sub(1)), at((k + 1).min(n)), 40);
            best = best.max(values[k]).max(ratio(sign * refined));
        }
        best
    }

    /// `Λ(λ) = ln E (c + γX²)^λ` by a route independent of [`LogChi2::log_mgf`]: X² = 2U with
    /// U ~ Gamma(½, 1), so `E (c + γX²)^λ = π^{−½} ∫_0^∞ u^{−½} e^{−u} (c + 2γu)^λ du`, integrated by
    /// the exp-sinh rule (u = e^{(π/2) sinh τ}, trapezoid of step 1/64 on τ ∈ [−5, 5], summed in log
    /// space). The rule converges double-exponentially for this analytic integrand, so its error is
    /// at rounding level (~1e−14 relative): a cross-check that shares neither variable, nor
    /// quadrature, nor breakpoints with the adaptive Simpson of `log_mgf`.
    pub fn log_mgf_exp_sinh(&self, lambda: f64) -> f64 {
        let (c, gamma) = (self.c, self.gamma);
        let h = 1.0 / 64.0;
        let half_pi = 0.5 * std::f64::consts::PI;
        let terms: Vec<f64> = (-320..=320)
            .map(|i| {
                let tau = i as f64 * h;
                let ln_u = half_pi * tau.sinh();
                let u = ln_u.exp();
                // ln[f(u) du/dτ] with f(u) = u^{−½} e^{−u}(c + 2γu)^λ and du/dτ = u (π/2) cosh τ.
                0.5 * ln_u - u + lambda * (c + 2.0 * gamma * u).ln() + (half_pi * tau.cosh()).ln()
            })
            .filter(|v| v.is_finite())
            .collect();
        let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        top + (terms.iter().map(|v| (v - top).exp()).sum::<f64>() * h).ln() - 0.5 * std::f64::consts::PI.ln()
    }

    /// Exact upper tail `P(Y − μ ≥ s) = erfc(√((e^{μ+s} − c)/(2γ)))` (proofs/stability.md).
    pub fn upper_tail(&self, s: f64) -> f64 {
        let u = ((self.mean() + s).exp() - self.c) / self.gamma;
        if u <= 0.0 {
            1.0
        } else {
            erfc((u / 2.0).sqrt())
        }
    }

    /// Exact lower tail `P(Y − μ ≤ −s) = erf(√((e^{μ−s} − c)/(2γ)))`, 0 when `e^{μ−s} ≤ c`.
    pub fn lower_tail(&self, s: f64) -> f64 {
        let u = ((self.mean() - s).exp() - self.c) / self.gamma;
        if u <= 0.0 {
            0.0
        } else {
            erf((u / 2.0).sqrt())
        }
    }

    /// The Kesten index κ > 0 with `E (c + γX²)^κ = 1` (Λ(κ) = 0), when μ < 0 and a root exists
    /// below 50; found by bisection.
    pub fn kesten_index(&self) -> Option<f64> {
        if self.mean() >= 0.0 {
            return None;
        }
        let (mut lo, mut hi) = (1e-9, 1.0);
        while self.log_mgf(hi) < 0.0 {
            hi *= 2.0;
            if hi > 50.0 {
                return None;
            }
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if self.log_mgf(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(0.5 * (lo + hi))
    }

    /// An enclosure of the Kesten index: `[κ₁, κ₂]` with `Λ(κ₁) < 0 < Λ(κ₂)` certified on
    /// [`LogChi2::log_mgf_enclosure`]. Λ is convex with Λ(0) = 0, so once some Λ(κ₁) < 0 the
    /// positive root is unique and lies between. Found by widening `κ ± h` around
    /// [`LogChi2::kesten_index`] from h = 10⁻¹²κ; None when μ < 0 is not certain or no root was
    /// bracketed below λ = 36 (the enclosed Λ's reach). Width about 10⁻¹¹ relative.
    pub fn kesten_index_enclosure(&self) -> Option<Interval> {
        if self.mean_enclosure().hi >= 0.0 {
            return None;
        }
        let kappa = self.kesten_index()?;
        let mut h = 1e-12 * kappa;
        while kappa + h <= 36.0 && h < kappa {
            let (below, above) = (kappa - h, kappa + h);
            if self.log_mgf_enclosure(below).hi < 0.0 && self.log_mgf_enclosure(above).lo > 0.0 {
                return Some(Interval::new(below, above));
            }
            h *= 4.0;
        }
        None
    }

    /// Cramér–Chernoff bound on `ln P(Σ_{i≤t} Y_i ≥ a)`: `inf_{λ ≥ 0} t Λ(λ) − λ a`, by golden-section
    /// search on λ ∈ [0, 50] (the objective is convex).
    pub fn chernoff_log_bound(&self, t: f64, a: f64) -> f64 {
        let obj = |l: f64| t * self.log_mgf(l) - l * a;
        obj(golden_section_max(|l| -obj(l), 0.0, 50.0, 120)).min(0.0)
    }
}

/// One term of Y under the exponential tilt `e^{θY}` ([`LogChi2::tilted`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tilted {
    /// θ.
    pub theta: f64,
    /// `Λ(θ) = ln E e^{θY}`.
    pub log_mgf: f64,
    /// `Λ'(θ)`: the tilted mean.
    pub mean: f64,
    /// `Λ''(θ)`: the tilted variance.
    pub variance: f64,
    /// `Λ'''(θ)/Λ''(θ)^{3/2}`.
    pub skewness: f64,
    /// `Λ''''(θ)/Λ''(θ)²`.
    pub excess_kurtosis: f64,
}

/// The safety factor applied to the computed ν²(b) before it is used as an admissible constant
/// (proofs/stability.md: the sup is taken on a grid).
pub const SAFETY: f64 = 1.02;

/// Wainwright's sub-exponential tail bound for a sum of t iid sub-exp(ν, b) variables at
/// deviation z ≥ 0, in log space (it reaches e^{−10⁴} and below): `−z²/(2tν²)` for z ≤ tν²/b,
/// else `−z/(2b)` (004 Eq 19 / 25).
pub fn ln_subexp_tail_bound(t: f64, z: f64, nu2: f64, b: f64) -> f64 {
    if z <= t * nu2 / b {
        -z * z / (2.0 * t * nu2)
    } else {
        -z / (2.0 * b)
    }
}

/// The appendix's version (004 Eq 25/28), in log space: the second branch printed as `e^{−t/(2b)}`.
pub fn ln_appendix_tail_bound(t: f64, z: f64, nu2: f64, b: f64) -> f64 {
    if z <= t * nu2 / b {
        -z * z / (2.0 * t * nu2)
    } else {
        -t / (2.0 * b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(c: f64, g: f64) -> LogChi2 {
        LogChi2::new(c, g).unwrap()
    }

    #[test]
    fn moments_match_the_reference_values() {
        // Reference: proofs/stability.md tables (an independent numpy/scipy recomputation).
        for &(c, g, mu, var) in &[(0.9, 0.099, -0.009105, 0.014838), (0.5, 0.499, -0.160383, 0.267805), (0.05, 1.5, -0.438216, 2.089295)] {
            let y = l(c, g);
            assert!((y.mean() - mu).abs() < 2e-6, "μ({c},{g}) = {}", y.mean());
            assert!((y.variance() - var).abs() < 2e-6 * var.max(1.0), "Var({c},{g}) = {}", y.variance());
        }
    }

    #[test]
    fn log_mgf_is_exact_at_integer_orders() {
        // E(c + γX²) = c + γ and E(c + γX²)² = c² + 2cγ + 3γ².
        let y = l(0.5, 0.499);
        assert!((y.log_mgf(1.0) - 0.999f64.ln()).abs() < 1e-12);
        let m2 = 0.25 + 2.0 * 0.5 * 0.499 + 3.0 * 0.499 * 0.499;
        assert!((y.log_mgf(2.0) - f64::ln(m2)).abs() < 1e-12);
        assert!(y.log_mgf(0.0).abs() < 1e-12);
        // Large and negative orders stay finite in log space.
        assert!(y.log_mgf(150.0).is_finite() && y.log_mgf(-150.0).is_finite());
    }

    /// The enclosures contain the exact values where they are known (Λ(1) = ln(c + γ),
    /// Λ(2) = ln(c² + 2cγ + 3γ²)), agree with the two floating-point routes, and are narrow.
    #[test]
    fn enclosures_contain_the_exact_values() {
        for &(c, g) in &[(0.5, 0.499), (0.05, 1.5), (2.0, 0.0625), (0.0625, 2.0)] {
            let y = l(c, g);
            // Two enclosures of the same real must overlap.
            let overlap = |a: Interval, b: Interval| a.lo <= b.hi && b.lo <= a.hi;
            let (ci, gi) = (Interval::exact(c), Interval::exact(g));
            let one = y.log_mgf_enclosure(1.0);
            assert!(overlap(one, (ci + gi).ln()) && one.width() < 1e-12, "Λ(1) at ({c}, {g}): {one}");
            let two = y.log_mgf_enclosure(2.0);
            let m2 = (ci * ci + ci * gi * 2.0 + gi * gi * 3.0).ln();
            assert!(overlap(two, m2) && two.width() < 1e-12, "Λ(2) at ({c}, {g}): {two} against {m2}");
            for lambda in [-3.0, -0.5, 0.7, 4.0, 8.0] {
                let e = y.log_mgf_enclosure(lambda);
                let f = y.log_mgf_exp_sinh(lambda);
                assert!(e.width() < 1e-10 * f.abs().max(1.0) && (e.mid() - f).abs() < 1e-10 * f.abs().max(1.0), "Λ({lambda}) at ({c}, {g}): {e} vs {f}");
            }
            let mu = y.mean_enclosure();
            // Simpson's estimate within its 1e−13 target. (The erfcx form of
            // quadrature::expected_log_erfcx_form is off by up to 1.1·10⁻¹⁰ here, at (2, 1/16):
            // its own quadrature and erfc; this enclosure is what shows it.)
            assert!(mu.width() < 1e-12 && (mu.mid() - y.mean()).abs() < 1e-13, "μ at ({c}, {g}): {mu}, Simpson {}", y.mean());
        }
    }

    #[test]
    fn the_two_log_mgf_routes_agree() {
        // Adaptive Simpson on the normal form against exp-sinh on the Gamma(½) form, over the
        // λ range the claims use (|λ| ≤ 64) and beyond: agreement to 1e−10 (absolute, Λ is O(1–100)).
        for &(c, g) in &[(0.9, 0.099), (0.5, 0.499), (0.05, 1.5), (2.0, 0.0625), (0.0625, 2.0)] {
            for &lambda in &[-64.0, -10.0, -1.0, -1e-3, 1e-3, 0.5, 1.0, 3.0, 24.4, 64.0, 150.0] {
                let (a, b) = (l(c, g).log_mgf(lambda), l(c, g).log_mgf_exp_sinh(lambda));
                assert!((a - b).abs() < 1e-10 * a.abs().max(1.0), "Λ({lambda}) at ({c}, {g}): {a} vs {b}");
            }
        }
    }

    #[test]
    fn nu2_matches_the_reference_table() {
        // Reference: proofs/stability.md, "ν²(b) by b" (no safety factor), 4 significant digits.
        // Where the sup is at the open end |λ| → 1/b the reference's grid stopped slightly short,
        // so its values there are up to ~1e−3 low: relative tolerance 1e−3.
        let y = l(0.9, 0.099);
        for &(b, want) in &[(0.01, 0.06467), (0.1, 0.04356), (1.0, 0.01621), (10.0, 0.01497)] {
            let got = y.nu2(b);
            assert!((got - want).abs() < 1e-3 * want, "ν²({b}) = {got} vs {want}");
        }
        let y = l(0.5, 0.499);
        for &(b, want) in &[(0.25, 0.38796), (0.5, 0.36172), (2.0, 0.29322), (10.0, 0.27280)] {
            let got = y.nu2(b);
            assert!((got - want).abs() < 1e-3 * want, "ν²({b}) = {got} vs {want}");
        }
    }

    /// The variance and Kesten enclosures hold the floating-point values (Simpson to 10⁻¹³ and
    /// bisection to its last bits) and are narrow; no Kesten index when μ ≥ 0.
    #[test]
    fn variance_and_kesten_enclosures_hold_the_values() {
        for &(c, g) in &[(0.9, 0.099), (0.5, 0.499), (0.5, 0.6), (0.05, 1.5)] {
            let y = l(c, g);
            let v = y.variance_enclosure();
            assert!(v.width() < 1e-11 * v.mid() && (v.mid() - y.variance()).abs() < 1e-12 * v.mid().max(1.0), "Var at ({c}, {g}): {v} vs {}", y.variance());
            if let Some(k) = y.kesten_index_enclosure() {
                let f = y.kesten_index().unwrap();
                assert!(k.contains(f) && k.width() < 1e-9 * f, "κ at ({c}, {g}): {k} vs {f}");
                // Λ certainly changes sign across it, so values 10⁻⁶ off are excluded.
                assert!(!k.contains(f * (1.0 + 1e-6)) && !k.contains(f * (1.0 - 1e-6)));
            }
        }
        assert!(l(0.9, 0.2).kesten_index_enclosure().is_none());
        assert!(l(0.5, 0.499).kesten_index_enclosure().is_some());
    }

    #[test]
    fn kesten_index_matches_the_reference_values() {
        // Reference: proofs/stability.md (κ ≈ 1.1119 and 1.0054; 0.536 for (0.5, 0.6)).
        assert!((l(0.9, 0.099).kesten_index().unwrap() - 1.1119).abs() < 2e-4);
        assert!((l(0.5, 0.499).kesten_index().unwrap() - 1.0054).abs() < 2e-4);
        assert!((l(0.5, 0.6).kesten_index().unwrap() - 0.536).abs() < 2e-3);
        assert!(l(0.9, 0.2).kesten_index().is_none());
    }

    #[test]
    fn exact_tails_are_probabilities_and_monotone() {
        let y = l(0.5, 0.499);
        let (mut up, mut down) = (1.0, 1.0);
        for i in 0..20 {
            let s = 0.2 * i as f64;
            let (u, d) = (y.upper_tail(s), y.lower_tail(s));
            assert!((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&d) && u <= up && d <= down);
            up = u;
            down = d;
        }
    }

    #[test]
    fn chernoff_is_below_markov() {
        // λ = 1 is Markov: ln P(Σ Y ≥ a) ≤ tΛ(1) − a.
        let y = l(0.9, 0.099);
        let (t, a) = (100.0, 100.0 * 0.999f64.ln());
        assert!(y.chernoff_log_bound(t, a) <= t * y.log_mgf(1.0) - a + 1e-12);
        // Rate at z = 0 (proofs/stability.md: I = 0.002116 per step for (0.9, 0.099)).
        assert!((y.chernoff_log_bound(1.0, 0.999f64.ln()) + 0.002116).abs() < 2e-6);
    }
}
