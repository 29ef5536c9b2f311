//! Ordinary least squares for a straight line, with a Student-t interval on the slope.

use super::interval::{student_t_quantile, ConfidenceInterval};
use serde::{Deserialize, Serialize};

/// A fitted line `y ≈ intercept + slope·x` with an interval on the slope.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct LinearFit {
    /// Intercept.
    pub intercept: f64,
    /// Slope with its confidence interval (assumes independent, homoscedastic residuals).
    pub slope: ConfidenceInterval,
    /// Number of points.
    pub n: usize,
}

/// Least-squares line through `(x_i, y_i)`; needs at least three points with distinct x.
pub fn ols(x: &[f64], y: &[f64], confidence: f64) -> Option<LinearFit> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let rss: f64 = x.iter().zip(y).map(|(a, b)| (b - intercept - slope * a).powi(2)).sum();
    let se = (rss / (n - 2) as f64 / sxx).sqrt();
    let q = student_t_quantile(1.0 - (1.0 - confidence) / 2.0, (n - 2) as f64);
    Some(LinearFit { intercept, slope: ConfidenceInterval { estimate: slope, lo: slope - q * se, hi: slope + q * se, confidence }, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_interval_matches_a_hand_computation() {
        // Reference (computed independently in Python): slope 1.99, intercept 0.05, standard
        // error 0.0597216, t_{0.975, 3} = 3.1824463 → [1.7999393, 2.1800607].
        let fit = ols(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.1, 3.9, 6.2, 7.8, 10.1], 0.95).unwrap();
        assert!((fit.slope.estimate - 1.99).abs() < 1e-12 && (fit.intercept - 0.05).abs() < 1e-12);
        assert!((fit.slope.lo - 1.799_939_290_4).abs() < 1e-8 && (fit.slope.hi - 2.180_060_709_6).abs() < 1e-8, "{:?}", fit.slope);
        assert_eq!((fit.n, fit.slope.confidence), (5, 0.95));
        // Three points are enough (one degree of freedom); two are not, nor mismatched lengths.
        assert!(ols(&[1.0, 2.0, 3.0], &[1.0, 2.5, 2.9], 0.95).is_some());
        assert!(ols(&[1.0, 2.0], &[1.0, 2.0], 0.95).is_none());
        assert!(ols(&[1.0, 2.0, 3.0], &[1.0, 2.0], 0.95).is_none());
    }

    #[test]
    fn exact_line_has_degenerate_interval() {
        let x = [1.0, 2.0, 3.0, 4.0];
        let y: Vec<f64> = x.iter().map(|a| 3.0 - 2.0 * a).collect();
        let fit = ols(&x, &y, 0.95).unwrap();
        assert!((fit.slope.estimate + 2.0).abs() < 1e-14 && (fit.intercept - 3.0).abs() < 1e-13);
        assert!(fit.slope.hi - fit.slope.lo < 1e-12);
        assert!(ols(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0], 0.95).is_none());
    }
}
