//! Distribution-free summaries: the median and its order-statistic interval, and Hoeffding's
//! interval for the mean of bounded variables.

use super::ConfidenceInterval;

/// The median of `values` (the mean of the two middle values for an even count; NaN for none).
/// NaNs sort last ([`f64::total_cmp`]).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    sorted_median(&v)
}

/// The median of values already sorted.
fn sorted_median(v: &[f64]) -> f64 {
    match v.len() {
        0 => f64::NAN,
        m => 0.5 * (v[(m - 1) / 2] + v[m / 2]),
    }
}

/// The distribution-free interval for the median of independent draws of a continuous variable:
/// `[x₍ₖ₎, x₍ₙ₊₁₋ₖ₎]` (order statistics) with the largest k whose coverage
/// `1 − 2·P(Bin(n, ½) ≤ k − 1)` is at least `confidence` (the sign test inverted); the whole line
/// when even k = 1 does not reach it (n = 5 reaches 0.9375 at most).
pub fn median_interval(values: &[f64], confidence: f64) -> ConfidenceInterval {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    // P(Bin(n, ½) ≤ j), summed exactly in f64 (n is a number of seeds: small).
    let below = |j: usize| (0..=j).map(|i| binomial(n, i)).sum::<f64>() / 2f64.powi(n as i32);
    let k = (1..=n / 2).take_while(|&k| 1.0 - 2.0 * below(k - 1) >= confidence).last();
    let estimate = sorted_median(&v);
    match k {
        Some(k) => ConfidenceInterval { estimate, lo: v[k - 1], hi: v[n - k], confidence },
        None => ConfidenceInterval { estimate, lo: f64::NEG_INFINITY, hi: f64::INFINITY, confidence },
    }
}

/// The binomial coefficient C(n, k) as an f64 (exact below 2⁵³).
fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// The half-width of a two-sided Hoeffding interval for the mean of `m` independent values in
/// an interval of length `range`, at level `alpha`: `range·√(ln(2/α)/(2m))`. Exact coverage
/// (at least 1 − α) for any distribution on that range, whatever `m`.
pub fn hoeffding_half_width(m: usize, range: f64, alpha: f64) -> f64 {
    range * ((2.0 / alpha).ln() / (2.0 * m as f64)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    /// n = 20 at 0.975: P(Bin(20, ½) ≤ 4) = 6 196/1 048 576 = 0.0059 (coverage 0.988) and
    /// P(≤ 5) = 21 700/1 048 576 = 0.0207 (0.959): k = 5, the 5th and 16th values. n = 5 never
    /// reaches 0.95 (k = 1 covers 1 − 2/32).
    #[test]
    fn the_median_interval_inverts_the_sign_test() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        let ci = median_interval(&v, 0.975);
        assert_eq!((ci.lo, ci.hi, ci.estimate), (5.0, 16.0, 10.5));
        assert!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.95).hi.is_infinite());
        let five = median_interval(&[5.0, 1.0, 3.0, 2.0, 4.0], 0.9);
        assert_eq!((five.lo, five.hi), (1.0, 5.0));
    }

    /// m = 1000, α = 0.05: √(ln 40 / 2000) = 0.042 946 …; a range of 2 doubles it.
    #[test]
    fn hoeffding_scales_with_the_range_and_the_sample() {
        let h = hoeffding_half_width(1000, 1.0, 0.05);
        assert!((h - (40f64.ln() / 2000.0).sqrt()).abs() < 1e-15);
        assert_eq!(hoeffding_half_width(1000, 2.0, 0.05), 2.0 * h);
        assert!(hoeffding_half_width(4000, 1.0, 0.05) < h);
    }
}
