//! One-dimensional quadrature: adaptive Simpson on an interval, and expectations under the
//! standard normal law split at breakpoints so that narrow features are resolved.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// `∫_a^b f` by adaptive Simpson to absolute tolerance `tol`, never asking for more than
/// rounding allows (a relative floor of a few ulps of the local estimate), depth-limited.
pub fn adaptive_simpson<F: Fn(f64) -> f64>(f: &F, a: f64, b: f64, tol: f64) -> f64 {
    let m = 0.5 * (a + b);
    let (fa, fm, fb) = (f(a), f(m), f(b));
    let whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb);
    simpson_step(f, a, b, fa, fm, fb, whole, tol, 40)
}

#[allow(clippy::too_many_arguments)]
fn simpson_step<F: Fn(f64) -> f64>(f: &F, a: f64, b: f64, fa: f64, fm: f64, fb: f64, whole: f64, tol: f64, depth: u32) -> f64 {
    let m = 0.5 * (a + b);
    let (lm, rm) = (0.5 * (a + m), 0.5 * (m + b));
    let (flm, frm) = (f(lm), f(rm));
    let left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
    let right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
    let diff = left + right - whole;
    let floor = 8.0 * f64::EPSILON * (left.abs() + right.abs());
    if depth == 0 || diff.abs() <= 15.0 * tol.max(floor) {
        return left + right + diff / 15.0;
    }
    simpson_step(f, a, m, fa, flm, fm, left, tol / 2.0, depth - 1) + simpson_step(f, m, b, fm, frm, fb, right, tol / 2.0, depth - 1)
}

/// The Euler–Mascheroni constant γ_E = 0.5772156649015329 (the f64 nearest to it), as in
/// E ln X² = −γ_E − ln 2 for X ~ N(0, 1).
pub const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// Standard normal density.
pub fn normal_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// `E f(X)` for `X ~ N(0,1)`, integrating `f·φ` over [−12, 12] (the mass outside is
/// below 1e−32) in pieces split at the standard points and at `extra` breakpoints (put one
/// where `f` changes on a small scale, e.g. at √(c/γ) for `ln(c + γx²)`).
pub fn normal_expectation<F: Fn(f64) -> f64>(f: F, extra: &[f64], tol: f64) -> f64 {
    let mut pts: Vec<f64> = vec![-12.0, -6.0, -3.0, -1.0, 0.0, 1.0, 3.0, 6.0, 12.0];
    for &e in extra {
        if e.is_finite() && e.abs() < 12.0 {
            pts.push(e);
            pts.push(-e);
        }
    }
    pts.sort_by(f64::total_cmp);
    pts.dedup();
    let g = |x: f64| f(x) * normal_pdf(x);
    pts.windows(2).map(|w| adaptive_simpson(&g, w[0], w[1], tol / pts.len() as f64)).sum()
}

/// `μ(c, γ) = E ln(c + γX²)` for `X ~ N(0,1)`, c > 0, γ ≥ 0 (the log-growth rate of the
/// interaction model's special case, 004 §4.2), by quadrature split at `±√(c/γ)`.
///
/// One quadrature takes about 0.1 s (adaptive Simpson to 10⁻¹³), and the stability checks ask
/// for the same cells again (a claim and its control, each shard of a split run, a bisection of
/// the boundary), so the first [`MEMO_CELLS`] distinct (c, γ) of a process are remembered. The
/// value is the same either way.
pub fn expected_log_c_plus_gamma_x2(c: f64, gamma: f64) -> f64 {
    if gamma == 0.0 {
        return c.ln();
    }
    static MEMO: Mutex<BTreeMap<(u64, u64), f64>> = Mutex::new(BTreeMap::new());
    let key = (c.to_bits(), gamma.to_bits());
    if let Some(&mu) = MEMO.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return mu;
    }
    let knee = (c / gamma).sqrt();
    let mu = normal_expectation(|x| (c + gamma * x * x).ln(), &[knee, 0.1 * knee, 10.0 * knee], 1e-13);
    let mut memo = MEMO.lock().unwrap_or_else(|e| e.into_inner());
    if memo.len() < MEMO_CELLS {
        memo.insert(key, mu);
    }
    mu
}

/// How many (c, γ) [`expected_log_c_plus_gamma_x2`] remembers (a property drawing random
/// cells would otherwise grow the memo without bound).
pub const MEMO_CELLS: usize = 4096;

/// The same `μ(c, γ)` by an independent route (proofs/stability.md): from
/// d/ds E ln(X² + s) = E 1/(X² + s) = √(π/(2s)) e^{s/2} erfc(√(s/2)) and E ln X² = −γ_E − ln 2,
/// `E ln(c + γX²) = ln γ − γ_E − ln 2 + 2√π ∫_0^{√(c/(2γ))} erfcx(v) dv`, erfcx(v) = e^{v²} erfc(v).
/// A cross-check of [`expected_log_c_plus_gamma_x2`] that shares no quadrature with it, good
/// to about 10⁻¹⁰ (statrs' erfc and the Simpson tolerance): the enclosure
/// [`LogChi2::mean_enclosure`](super::subexp::LogChi2::mean_enclosure) puts it 1.1·10⁻¹⁰ off at
/// (c, γ) = (2, 1/16), where the normal-form quadrature is within 10⁻¹³.
pub fn expected_log_erfcx_form(c: f64, gamma: f64) -> f64 {
    let erfcx = |v: f64| statrs::function::erf::erfc(v) * (v * v).exp();
    let integral = adaptive_simpson(&erfcx, 0.0, (c / (2.0 * gamma)).sqrt(), 1e-14);
    gamma.ln() - EULER_GAMMA - std::f64::consts::LN_2 + 2.0 * std::f64::consts::PI.sqrt() * integral
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_log_matches_the_reference_values_and_the_erfcx_form() {
        // Reference values: proofs/stability.md tables (an independent numpy recomputation, 6 decimals).
        for &(c, g, mu) in &[(0.9, 0.099, -0.009105), (0.5, 0.499, -0.160383), (0.5, 0.6, -0.094314), (0.9, 0.2, 0.070597), (0.05, 1.5, -0.438216)] {
            let got = expected_log_c_plus_gamma_x2(c, g);
            assert!((got - mu).abs() < 1e-6, "({c}, {g}): {got} vs {mu}");
            let closed = expected_log_erfcx_form(c, g);
            assert!((got - closed).abs() < 1e-10, "({c}, {g}): {got} vs {closed}");
        }
    }

    #[test]
    fn a_remembered_cell_gives_the_computed_value() {
        let (c, g): (f64, f64) = (0.7, 0.31);
        let knee = (c / g).sqrt();
        let direct = normal_expectation(|x| (c + g * x * x).ln(), &[knee, 0.1 * knee, 10.0 * knee], 1e-13);
        for _ in 0..2 {
            assert_eq!(expected_log_c_plus_gamma_x2(c, g).to_bits(), direct.to_bits());
        }
    }

    #[test]
    fn gaussian_moments_are_exact() {
        assert!((normal_expectation(|_| 1.0, &[], 1e-13) - 1.0).abs() < 1e-12);
        assert!((normal_expectation(|x| x * x, &[], 1e-13) - 1.0).abs() < 1e-12);
        assert!((normal_expectation(|x| x.powi(4), &[], 1e-13) - 3.0).abs() < 1e-11);
    }

    #[test]
    fn expected_log_chi_square_matches_closed_form() {
        // E ln X² = ψ(1/2) + ln 2 = −γ_E − ln 2 (reference: standard identity for χ²₁).
        let reference = -0.577_215_664_901_532_9 - std::f64::consts::LN_2;
        // ln(1e-300 + x²) ≈ ln x² except at a set of negligible mass.
        let got = normal_expectation(|x| (x * x + 1e-300).ln(), &[1e-6, 1e-3], 1e-12);
        assert!((got - reference).abs() < 1e-6, "{got} vs {reference}");
    }
}
