//! The dilogarithm Li₂ on the negative axis, as needed for the integrated softplus:
//! `∫ ln(1 + e^u) du = −Li₂(−e^u)`.

use std::f64::consts::PI;

/// `Li₂(w) = Σ_{k≥1} w^k/k²` for 0 ≤ w ≤ 1/2 (the series converges like 2^{−k}).
fn li2_series(w: f64) -> f64 {
    let (mut term, mut sum) = (1.0, 0.0);
    for k in 1..=80 {
        term *= w;
        sum += term / (k * k) as f64;
        if term < 1e-18 * sum.abs().max(1e-300) {
            break;
        }
    }
    sum
}

/// `Li₂(−e^u)` for every real u, without overflow:
/// * u ≤ 0: Landen's identity `Li₂(z) = −Li₂(z/(z−1)) − ½ ln²(1−z)` maps z = −e^u ∈ [−1, 0) to
///   w = e^u/(1+e^u) ∈ (0, 1/2], where the series converges fast;
/// * u > 0: the inversion `Li₂(−e^u) = −π²/6 − u²/2 − Li₂(−e^{−u})`.
pub fn li2_neg_exp(u: f64) -> f64 {
    if u > 0.0 {
        return -PI * PI / 6.0 - 0.5 * u * u - li2_neg_exp(-u);
    }
    let e = u.exp();
    let w = e / (1.0 + e);
    let ln1mz = e.ln_1p(); // ln(1 − z) = ln(1 + e^u)
    -li2_series(w) - 0.5 * ln1mz * ln1mz
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::quadrature::adaptive_simpson;
    use crate::math::softplus::softplus;

    #[test]
    fn reference_values() {
        // Li₂(−1) = −π²/12; Li₂(−e^u) → −e^u as u → −∞; Li₂(0) = 0.
        assert!((li2_neg_exp(0.0) + PI * PI / 12.0).abs() < 1e-15);
        assert!((li2_neg_exp(-40.0) + (-40f64).exp()).abs() < 1e-30);
        // Li₂(−1/e) by its own alternating series Σ (−1/e)^k/k², independent of Landen's identity.
        let direct: f64 = (1..60).map(|k| (-(-1f64).exp()).powi(k) / (k * k) as f64).sum();
        assert!((li2_neg_exp(-1.0) - direct).abs() < 1e-15);
    }

    #[test]
    fn integrates_softplus() {
        for &(a, b) in &[(-5.0, 3.0), (-0.5, 0.5), (2.0, 30.0), (-60.0, -1.0)] {
            let quad = adaptive_simpson(&|u: f64| softplus(u), a, b, 1e-13);
            let closed = -li2_neg_exp(b) + li2_neg_exp(a);
            assert!((quad - closed).abs() < 1e-10 * (1.0 + quad.abs()), "[{a}, {b}]: {quad} vs {closed}");
        }
    }
}
