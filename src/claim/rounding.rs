//! Rounding-aware tolerances, derived from the standard model of floating-point arithmetic:
//! every operation returns `(a ∘ b)(1 + δ)` with `|δ| ≤ u = 2⁻⁵³` (f64). A tolerance built here
//! says where its rounding comes from and how it scales, instead of a guessed `1e-12`.

/// Bounds on the rounding error of common computations, as absolute tolerances.
pub struct Rounding;

impl Rounding {
    /// The unit roundoff of f64, `u = 2⁻⁵³`.
    pub const UNIT: f64 = f64::EPSILON / 2.0;

    /// `γ_n = n·u / (1 − n·u)`: the relative error bound of `n` successive roundings (Higham,
    /// *Accuracy and Stability of Numerical Algorithms*, Lemma 3.1).
    pub fn gamma(n: usize) -> f64 {
        let nu = n as f64 * Self::UNIT;
        nu / (1.0 - nu)
    }
    /// A sum of `n` terms accumulated in order: `|error| ≤ γ_{n−1}·Σ|xᵢ|`.
    pub fn sum(n: usize, sum_abs: f64) -> f64 {
        Self::gamma(n.saturating_sub(1)) * sum_abs
    }
    /// A dot product of length `n`: `|error| ≤ γ_n·Σ|xᵢyᵢ|`.
    pub fn dot(n: usize, sum_abs_products: f64) -> f64 {
        Self::gamma(n) * sum_abs_products
    }
    /// The absolute error a product, quotient or elementary function may add when its result
    /// is subnormal: the standard model with gradual underflow is `(a ∘ b)(1 + δ) + η` with
    /// `|η| ≤ 2⁻¹⁰⁷⁵` (Higham, §2.2; sums and differences are exact there). 2⁻¹⁰⁷⁵ is not an f64,
    /// so this is the next one up, the smallest subnormal 2⁻¹⁰⁷⁴.
    pub const UNDERFLOW: f64 = f64::from_bits(1);

    /// The absolute underflow term of `n` such operations, `n·2⁻¹⁰⁷⁴`: what a purely relative
    /// bound (`γ_n·|x|`) misses when an intermediate result is subnormal (it adds nothing
    /// measurable otherwise). Later operations that multiply by factors of size at most `c`
    /// scale it by `c`; that is the caller's to add.
    pub fn underflow(n: usize) -> f64 {
        n as f64 * Self::UNDERFLOW
    }
    /// A value of size `abs` computed with a relative error of at most `ulps` units of roundoff
    /// (a libm `exp` or `ln` is within 1–2 ulps).
    pub fn value(abs: f64, ulps: f64) -> f64 {
        ulps * Self::UNIT * abs
    }
    /// The forward difference quotient `(f(x+h) − f(x))/h` of a function of size `f_abs`
    /// computed to `ulps` units of roundoff: the two values carry `2·ulps·u·f_abs`, which the
    /// division by `h` amplifies, plus one rounding of the quotient `q`:
    /// `2·ulps·u·f_abs/h + u·|q|`. (Truncation, `|f''|·h/2`, is the claim's to add.)
    pub fn difference_quotient(f_abs: f64, h: f64, ulps: f64, q_abs: f64) -> f64 {
        2.0 * ulps * Self::UNIT * f_abs / h.abs() + Self::UNIT * q_abs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_standard_model() {
        assert_eq!(Rounding::gamma(0), 0.0);
        assert!((Rounding::gamma(10) / (10.0 * Rounding::UNIT) - 1.0).abs() < 1e-14);
        assert_eq!(Rounding::sum(1, 5.0), 0.0);
        // 1 + 2⁻⁵³ + 2⁻⁵³ rounds to 1 twice (ties to even): error 2⁻⁵², exactly γ₂·Σ|x| to first
        // order — the bound is attained.
        let tiny = Rounding::UNIT;
        let computed = 1.0 + tiny + tiny;
        let err = 2.0 * tiny - (computed - 1.0);
        assert_eq!(err, 2.0 * tiny);
        assert!(err <= Rounding::sum(3, 1.0 + 2.0 * tiny));
        assert_eq!(Rounding::dot(4, 2.0), Rounding::gamma(4) * 2.0);
    }

    #[test]
    fn a_subnormal_product_needs_the_underflow_term() {
        assert_eq!(Rounding::UNDERFLOW, f64::from_bits(1));
        // 3·2⁻¹⁰⁷⁴ × ½ = 1.5·2⁻¹⁰⁷⁴ rounds to 2·2⁻¹⁰⁷⁴: an error of 2⁻¹⁰⁷⁵, which no relative
        // bound of the result's size covers at γ₁ but the underflow term does.
        // Counted in units of 2⁻¹⁰⁷⁴ (1.5 units is not an f64): the exact product is 1.5 units,
        // the rounded one 2, so the error is half a unit.
        let half = (3.0 * Rounding::UNDERFLOW) * 0.5;
        assert_eq!(half / Rounding::UNDERFLOW, 2.0);
        let err_units = 0.5;
        assert!(err_units > Rounding::gamma(1) * 2.0);
        assert!(err_units <= (Rounding::gamma(1) * half + Rounding::underflow(1)) / Rounding::UNDERFLOW);
    }

    #[test]
    fn a_difference_quotient_over_a_small_step_is_covered() {
        // d/dx exp(x) at 1 by (e^{1+h} − e)/h with h = 1e-6: the rounding bound covers the
        // quotient's deviation beyond its truncation error e·h/2.
        let (x, h) = (1.0f64, 1e-6);
        let q = ((x + h).exp() - x.exp()) / h;
        let truncation = x.exp() * h / 2.0 * 1.01;
        let rounding = Rounding::difference_quotient(x.exp(), h, 1.0, q) + x.exp() * Rounding::UNIT * 2.0 / h;
        assert!((q - x.exp()).abs() <= truncation + rounding);
        // The rounding term alone is ~1e-10 relative: what a 1e-12 tolerance missed.
        assert!(rounding > 1e-11);
    }
}
