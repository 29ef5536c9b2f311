//! Softplus, its derivative (the logistic function) and its inverse: the step size of the
//! selective SSM, Δ = softplus(w·x + b).

use super::Real;

/// `softplus(z) = ln(1 + e^z)`, stable for large |z| (as `logaddexp(0, z)`).
pub fn softplus<R: Real>(z: R) -> R {
    if z.value() > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

/// The logistic function `σ(z) = 1/(1+e^{-z})`, the derivative of softplus.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `SiLU(z) = z·σ(z)`, Mamba's activation and gate.
pub fn silu(z: f64) -> f64 {
    z * sigmoid(z)
}

/// The inverse of softplus on (0, ∞): `ln(e^y − 1)`, accurate for tiny and large y. Generic
/// over [`Real`], so it encloses on [`Interval`](super::Interval)s (both branches are exact
/// identities; the choice by value is only for accuracy).
///
/// Returns NaN for `y ≤ 0`, which is outside softplus' range.
pub fn softplus_inv<R: Real>(y: R) -> R {
    if y.value() <= 0.0 {
        return R::cst(f64::NAN);
    }
    if y.value() > 30.0 {
        y + (-(-y).exp()).ln_1p()
    } else {
        y.exp_m1().ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Dual;

    #[test]
    fn softplus_is_stable_and_invertible() {
        assert!((softplus(0.0) - 2f64.ln()).abs() < 1e-15);
        assert!((softplus(800.0) - 800.0).abs() < 1e-12);
        assert!(softplus(-800.0) >= 0.0);
        for &y in &[1e-12, 1e-3, 0.7, 5.0, 40.0] {
            let z = softplus_inv(y);
            assert!((softplus(z) - y).abs() <= 1e-12 * y.max(1e-300) + 1e-300, "y={y}");
        }
        assert!(softplus_inv(0.0).is_nan());
    }

    #[test]
    fn softplus_derivative_is_sigmoid() {
        for &z in &[-30.0, -1.0, 0.0, 2.5, 30.0] {
            assert!((softplus(Dual::var(z)).d - sigmoid(z)).abs() < 1e-15);
        }
    }
}
