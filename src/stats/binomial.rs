//! Exact (Clopper–Pearson) and Wilson score intervals for a binomial proportion.

use super::Interval;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::beta::beta_reg;

/// Quantile of the Beta(a, b) law by bisection on the regularised incomplete beta function
/// (statrs' own `inverse_cdf` is accurate to about 1e−5 only, too coarse for exact intervals).
pub fn beta_quantile(a: f64, b: f64, p: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if beta_reg(a, b, mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Clopper–Pearson exact two-sided interval for `k` successes in `n` trials at `confidence`.
///
/// Coverage is at least `confidence` for every true p (conservative).
pub fn clopper_pearson(k: u64, n: u64, confidence: f64) -> Interval {
    assert!(k <= n && n > 0, "clopper_pearson needs 0 ≤ k ≤ n, n > 0");
    let a = (1.0 - confidence) / 2.0;
    let (kf, nf) = (k as f64, n as f64);
    let lo = if k == 0 { 0.0 } else { beta_quantile(kf, nf - kf + 1.0, a) };
    let hi = if k == n { 1.0 } else { beta_quantile(kf + 1.0, nf - kf, 1.0 - a) };
    Interval { estimate: kf / nf, lo, hi, confidence }
}

/// Wilson score interval (approximate; used as a cross-check of Clopper–Pearson).
pub fn wilson(k: u64, n: u64, confidence: f64) -> Interval {
    assert!(k <= n && n > 0, "wilson needs 0 ≤ k ≤ n, n > 0");
    let z = Normal::new(0.0, 1.0).unwrap().inverse_cdf(1.0 - (1.0 - confidence) / 2.0);
    let (p, nf) = (k as f64 / n as f64, n as f64);
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    Interval { estimate: p, lo: (centre - half).max(0.0), hi: (centre + half).min(1.0), confidence }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clopper_pearson_reference_values() {
        // k = 0: the upper end is 1 − (α/2)^{1/n} exactly.
        let ci = clopper_pearson(0, 100, 0.95);
        assert_eq!(ci.lo, 0.0);
        assert!((ci.hi - (1.0 - 0.025f64.powf(0.01))).abs() < 1e-10);
        // k = 5, n = 20, 95%: (0.0866, 0.4910) (reference: R binom.test(5, 20)).
        let ci = clopper_pearson(5, 20, 0.95);
        assert!((ci.lo - 0.086_571_5).abs() < 1e-6 && (ci.hi - 0.491_046_1).abs() < 1e-6, "{ci:?}");
    }

    #[test]
    fn wilson_is_narrower_than_clopper_pearson_and_close_to_it() {
        for &(k, n) in &[(5u64, 20u64), (50, 1000), (200, 1000)] {
            let cp = clopper_pearson(k, n, 0.99);
            let w = wilson(k, n, 0.99);
            assert!(w.hi - w.lo <= cp.hi - cp.lo, "k={k} n={n}");
            assert!((w.lo - cp.lo).abs() < 0.2 * (cp.hi - cp.lo) && (w.hi - cp.hi).abs() < 0.2 * (cp.hi - cp.lo));
        }
    }
}
