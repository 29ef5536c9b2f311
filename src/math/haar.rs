//! Haar wavelets and the continuous-time basis functions of 000 §4.1 on [0, 1]:
//! `ψ_{j,k}(s) = 2^{j/2} ψ(2^j s − k)`, the Mamba basis `g(s) = B e^{−λ∫_s^1 Δ(r) dr}` with
//! `Δ(r) = softplus(W(t̂ − r))` (a smoothed Heaviside at t̂), and L² norms on [0, 1] by quadrature
//! split at the jumps and across the transition layers.

use super::dilog::li2_neg_exp;
use super::quadrature::adaptive_simpson;

/// The Haar wavelet ψ_{j,k}: +2^{j/2} on [2^{−j}k, 2^{−j}k + 2^{−j−1}), −2^{j/2} on the
/// second half of [2^{−j}k, 2^{−j}(k+1)), 0 elsewhere.
pub fn haar(j: u32, k: u64, s: f64) -> f64 {
    let (a, h) = (k as f64 / 2f64.powi(j as i32), 1.0 / 2f64.powi(j as i32 + 1));
    let amp = 2f64.powf(j as f64 / 2.0);
    if s >= a && s < a + h {
        amp
    } else if s >= a + h && s < a + 2.0 * h {
        -amp
    } else {
        0.0
    }
}

/// The three jump points (a, m, b) of ψ_{j,k}.
pub fn haar_jumps(j: u32, k: u64) -> [f64; 3] {
    let w = 1.0 / 2f64.powi(j as i32);
    [k as f64 * w, (k as f64 + 0.5) * w, (k as f64 + 1.0) * w]
}

/// `∫_s^1 softplus(W(t̂ − r)) dr = [Li₂(−e^{W(t̂−1)}) − Li₂(−e^{W(t̂−s)})]/W` (exact).
pub fn integrated_softplus(s: f64, threshold: f64, w: f64) -> f64 {
    integrated_softplus_to(s, 1.0, threshold, w)
}

/// `∫_s^t softplus(W(t̂ − r)) dr = [Li₂(−e^{W(t̂−t)}) − Li₂(−e^{W(t̂−s)})]/W` (exact), for a
/// horizon t other than 1.
pub fn integrated_softplus_to(s: f64, t: f64, threshold: f64, w: f64) -> f64 {
    (li2_neg_exp(w * (threshold - t)) - li2_neg_exp(w * (threshold - s))) / w
}

/// The Mamba basis function at t = 1 with time-PE input, λ = `lambda`, B = `b`:
/// `g(s) = b·exp(−λ ∫_s^1 softplus(W(t̂ − r)) dr)`, which tends to `b·H(s − t̂)` as W → ∞.
pub fn mamba_basis(s: f64, threshold: f64, w: f64, lambda: f64, b: f64) -> f64 {
    b * (-lambda * integrated_softplus(s, threshold, w)).exp()
}

/// Theorem 1's combination `g_{M1} + g_{M3} − 2g_{M2}` for ψ_{j,k} (λ = 1, B = 2^{j/2},
/// thresholds at the three jumps).
pub fn haar_from_mamba(j: u32, k: u64, w: f64, s: f64) -> f64 {
    let [a, m, b] = haar_jumps(j, k);
    let amp = 2f64.powf(j as f64 / 2.0);
    mamba_basis(s, a, w, 1.0, amp) + mamba_basis(s, b, w, 1.0, amp) - 2.0 * mamba_basis(s, m, w, 1.0, amp)
}

/// `sup_{s∈[0,1]} |f(s)|`, evaluated on a uniform grid of `n + 1` points and at both one-sided
/// limits (±1e−13) of every jump, where a piecewise-continuous f attains or approaches its sup.
pub fn sup_norm(f: impl Fn(f64) -> f64, jumps: &[f64], n: usize) -> f64 {
    let grid = (0..=n).map(|i| i as f64 / n as f64);
    let limits = jumps.iter().flat_map(|&x| [x - 1e-13, x + 1e-13]).filter(|s| (0.0..=1.0).contains(s));
    grid.chain(limits).map(|s| f(s).abs()).fold(0.0, f64::max)
}

/// The S4D basis function of 000 eq (9) at t = 1 for a real mode λ: `g(s) = B e^{−λ(1 − s)}`.
pub fn s4d_basis(s: f64, lambda: f64, b: f64) -> f64 {
    b * (-lambda * (1.0 - s)).exp()
}

/// Best L² approximation of `target` on [0, 1] in the span of `bases`: the Gram system
/// `⟨g_i, g_j⟩ c = ⟨g_i, ρ⟩` assembled by quadrature (same breakpoints as [`l2_norm_squared`]) and
/// solved by SVD (robust to nearly dependent bases). Returns the coefficients and the squared
/// error `‖ρ − Σ c_i g_i‖²`.
pub fn best_l2_approximation(target: &dyn Fn(f64) -> f64, bases: &[&dyn Fn(f64) -> f64], jumps: &[f64], scale: f64) -> (Vec<f64>, f64) {
    let n = bases.len();
    let ip = |f: &dyn Fn(f64) -> f64, g: &dyn Fn(f64) -> f64| {
        // ⟨f, g⟩ by polarisation, so every integral goes through the same split quadrature.
        0.25 * (l2_norm_squared(|s| f(s) + g(s), jumps, scale) - l2_norm_squared(|s| f(s) - g(s), jumps, scale))
    };
    let gram = nalgebra::DMatrix::from_fn(n, n, |i, j| ip(bases[i], bases[j]));
    let rhs = nalgebra::DVector::from_fn(n, |i, _| ip(bases[i], target));
    let c = crate::math::linalg::svd(&gram).ok().and_then(|svd| svd.solve(&rhs, 1e-13).ok()).unwrap_or_else(|| nalgebra::DVector::zeros(n));
    let err2 = l2_norm_squared(|s| target(s) - (0..n).map(|i| c[i] * bases[i](s)).sum::<f64>(), jumps, scale);
    (c.iter().copied().collect(), err2)
}

/// `∫_0^1 f²` with breakpoints at `jumps` and at distances {1, 3, 10, 30}·`scale` around each
/// (so transition layers of width ~`scale` are resolved).
pub fn l2_norm_squared(f: impl Fn(f64) -> f64, jumps: &[f64], scale: f64) -> f64 {
    let mut pts = vec![0.0, 1.0];
    for &x in jumps {
        pts.push(x);
        for m in [1.0, 3.0, 10.0, 30.0] {
            pts.push(x - m * scale);
            pts.push(x + m * scale);
        }
    }
    pts.retain(|p| (0.0..=1.0).contains(p));
    pts.sort_by(f64::total_cmp);
    pts.dedup();
    let g = |s: f64| f(s).powi(2);
    pts.windows(2).map(|w| adaptive_simpson(&g, w[0], w[1], 1e-15)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn haar_is_orthonormal_and_matches_the_heaviside_form() {
        let jumps = [0.25, 0.375, 0.5, 0.625, 0.75];
        let n = l2_norm_squared(|s| haar(2, 1, s), &jumps, 1e-3);
        assert!((n - 1.0).abs() < 1e-12);
        let ip = l2_norm_squared(|s| haar(2, 1, s) + haar(1, 0, s), &jumps, 1e-3);
        assert!((ip - 2.0).abs() < 1e-12); // ⟨ψ_{2,1}, ψ_{1,0}⟩ = 0
                                           // eq (18): ψ = 2^{j/2}(H(s−a) − 2H(s−m) + H(s−b)) off the jumps.
        let [a, m, b] = haar_jumps(2, 1);
        for &s in &[0.1, 0.3, 0.4, 0.6, 0.9] {
            let hv = |x: f64| if x > 0.0 { 1.0 } else { 0.0 };
            assert_eq!(haar(2, 1, s), 2.0 * (hv(s - a) - 2.0 * hv(s - m) + hv(s - b)));
        }
    }

    #[test]
    fn sup_norm_sees_one_sided_limits() {
        // |ψ_{1,0}| = √2 everywhere on [0, 1/2); the grid alone would miss nothing here, but a
        // function that peaks only at a jump is caught by the one-sided limits.
        assert!((sup_norm(|s| haar(1, 0, s), &haar_jumps(1, 0), 10) - 2f64.sqrt()).abs() < 1e-15);
        let spike = |s: f64| if s > 0.3 && s < 0.3 + 1e-12 { 5.0 } else { 0.0 };
        assert_eq!(sup_norm(spike, &[0.3], 100), 5.0);
    }

    #[test]
    fn least_squares_recovers_a_span_member_and_projects_orthogonally() {
        // ρ = 2·s4d(λ=1) − 0.5·s4d(λ=3) lies in the span: zero error, exact coefficients.
        let (g1, g2) = (|s: f64| s4d_basis(s, 1.0, 1.0), |s: f64| s4d_basis(s, 3.0, 1.0));
        let rho = |s: f64| 2.0 * g1(s) - 0.5 * g2(s);
        let (c, e2) = best_l2_approximation(&rho, &[&g1, &g2], &[], 0.1);
        assert!((c[0] - 2.0).abs() < 1e-8 && (c[1] + 0.5).abs() < 1e-8 && e2 < 1e-16);
        // ψ_{0,0} onto the constant: coefficient 0, error ‖ψ‖² = 1.
        let (c, e2) = best_l2_approximation(&|s| haar(0, 0, s), &[&|_| 1.0], &[0.5], 0.1);
        assert!(c[0].abs() < 1e-12 && (e2 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn mamba_basis_matches_quadrature_and_tends_to_a_step() {
        let (t, w) = (0.4, 50.0);
        let quad = adaptive_simpson(&|r: f64| crate::math::softplus::softplus(w * (t - r)), 0.3, 1.0, 1e-14);
        assert!((integrated_softplus(0.3, t, w) - quad).abs() < 1e-11);
        // g(t̂) = B e^{−π²/(12W)} at the jump (proofs/haar.md).
        let at = mamba_basis(t, t, 1e6, 1.0, 1.0);
        assert!((at - (-std::f64::consts::PI.powi(2) / 12e6).exp()).abs() < 1e-9);
        assert!(mamba_basis(0.3, t, 1e6, 1.0, 1.0) < 1e-300 && (mamba_basis(0.5, t, 1e6, 1.0, 1.0) - 1.0).abs() < 1e-9);
    }
}
