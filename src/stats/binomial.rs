//! Exact (Clopper–Pearson) and Wilson score intervals for a binomial proportion.

use super::ConfidenceInterval;
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
pub fn clopper_pearson(k: u64, n: u64, confidence: f64) -> ConfidenceInterval {
    assert!(k <= n && n > 0, "clopper_pearson needs 0 ≤ k ≤ n, n > 0");
    let a = (1.0 - confidence) / 2.0;
    let (kf, nf) = (k as f64, n as f64);
    let lo = if k == 0 { 0.0 } else { beta_quantile(kf, nf - kf + 1.0, a) };
    let hi = if k == n { 1.0 } else { beta_quantile(kf + 1.0, nf - kf, 1.0 - a) };
    ConfidenceInterval { estimate: kf / nf, lo, hi, confidence }
}

/// `P(Bin(n, p) ≥ k)`, exactly, as the regularised incomplete beta `I_p(k, n − k + 1)` (1 when
/// k = 0, 0 when k > n).
pub fn binomial_upper_tail(n: u64, k: u64, p: f64) -> f64 {
    match k {
        0 => 1.0,
        k if k > n => 0.0,
        k => beta_reg(k as f64, (n - k + 1) as f64, p),
    }
}

/// The fewest exceedances out of `n` at which the one-sided Clopper–Pearson lower end at
/// `level` exceeds `bound`: the smallest k with `P(Bin(n, bound) ≥ k) < level` (the lower end
/// `beta_quantile(k, n − k + 1, level)` exceeds `bound` exactly then). None when even k = n does
/// not.
pub fn refuting_count(n: u64, bound: f64, level: f64) -> Option<u64> {
    if binomial_upper_tail(n, n, bound) >= level {
        return None;
    }
    // The tail falls as k grows: bisect for the first k below `level`.
    let (mut lo, mut hi) = (0u64, n);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if binomial_upper_tail(n, mid, bound) < level {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The power of the exact one-sided test "the rate exceeds `bound`" (refute when the
/// Clopper–Pearson lower end at `level` exceeds it) with `n` trials when the true rate is `p`:
/// `P(Bin(n, p) ≥ k*)` with k* = [`refuting_count`] (0 when no count refutes).
pub fn refutation_power(n: u64, bound: f64, level: f64, p: f64) -> f64 {
    refuting_count(n, bound, level).map_or(0.0, |k| binomial_upper_tail(n, k, p))
}

/// Wilson score interval (approximate; used as a cross-check of Clopper–Pearson).
pub fn wilson(k: u64, n: u64, confidence: f64) -> ConfidenceInterval {
    assert!(k <= n && n > 0, "wilson needs 0 ≤ k ≤ n, n > 0");
    let z = Normal::new(0.0, 1.0).unwrap().inverse_cdf(1.0 - (1.0 - confidence) / 2.0);
    let (p, nf) = (k as f64 / n as f64, n as f64);
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    ConfidenceInterval { estimate: p, lo: (centre - half).max(0.0), hi: (centre + half).min(1.0), confidence }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refuting_count_is_where_the_lower_end_crosses_the_bound() {
        for &(n, bound, level) in &[(1000u64, 0.01, 2.5e-5), (400, 0.01, 1e-3), (20, 0.3, 0.05), (100_000, 1e-4, 1e-6)] {
            let k = refuting_count(n, bound, level).expect("some count refutes");
            let lower = |k: u64| clopper_pearson(k, n, 1.0 - 2.0 * level).lo;
            assert!(lower(k) > bound && lower(k - 1) <= bound, "n={n}: k*={k}, lower ends {} and {}", lower(k - 1), lower(k));
        }
        // A bound of 1 is never exceeded.
        assert_eq!(refuting_count(50, 1.0, 0.05), None);
    }

    #[test]
    fn power_matches_the_binomial_tail() {
        // Under the null rate itself the power is at most the level (exact test).
        assert!(refutation_power(2000, 0.01, 1e-3, 0.01) <= 1e-3);
        // It grows with the true rate and the sample size.
        let (p2, p3) = (refutation_power(2000, 0.01, 1e-3, 0.02), refutation_power(2000, 0.01, 1e-3, 0.03));
        assert!(p2 < p3 && p3 < refutation_power(8000, 0.01, 1e-3, 0.03));
        // Exact values: P(Bin(10, 0.5) ≥ 9) = 11/1024; P(Bin(10, 0.2) ≥ 7) = 8.64e−4 and
        // P(Bin(10, 0.2) ≥ 8) = 7.79e−5, so at level 1e−4 the refuting count is 8.
        assert!((binomial_upper_tail(10, 9, 0.5) - 11.0 / 1024.0).abs() < 1e-15);
        assert!((binomial_upper_tail(10, 8, 0.2) - 7.79264e-5).abs() < 1e-15);
        assert_eq!(refuting_count(10, 0.2, 1e-4), Some(8));
        assert_eq!(binomial_upper_tail(10, 0, 0.3), 1.0);
        assert_eq!(binomial_upper_tail(10, 11, 0.3), 0.0);
    }

    #[test]
    fn clopper_pearson_reference_values() {
        // k = 0: the upper end is 1 − (α/2)^{1/n} exactly.
        let ci = clopper_pearson(0, 100, 0.95);
        assert_eq!(ci.lo, 0.0);
        assert!((ci.hi - (1.0 - 0.025f64.powf(0.01))).abs() < 1e-10);
        // k = 5, n = 20, 95%: (0.0866, 0.4910) (reference: R binom.test(5, 20)).
        let ci = clopper_pearson(5, 20, 0.95);
        assert!((ci.lo - 0.086_571_5).abs() < 1e-6 && (ci.hi - 0.491_046_1).abs() < 1e-6, "{ci:?}");
        assert_eq!((ci.estimate, ci.confidence), (0.25, 0.95));
    }

    #[test]
    fn wilson_reference_values() {
        // k = 5, n = 20, 95%: (0.111862, 0.468701) (reference: the score formula evaluated independently
        // in Python with statistics.NormalDist).
        let w = wilson(5, 20, 0.95);
        assert!((w.lo - 0.111_861_7).abs() < 1e-6 && (w.hi - 0.468_700_9).abs() < 1e-6, "{w:?}");
        assert_eq!(w.estimate, 0.25);
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
