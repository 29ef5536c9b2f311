//! Ordinary least squares for a straight line, with a Student-t interval on the slope.

use super::interval::{student_t_quantile, Interval};
use serde::{Deserialize, Serialize};

/// A fitted line `y ≈ intercept + slope·x` with an interval on the slope.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct LinearFit {
    /// Intercept.
    pub intercept: f64,
    /// Slope with its confidence interval (assumes independent, homoscedastic residuals).
    pub slope: Interval,
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
    Some(LinearFit { intercept, slope: Interval { estimate: slope, lo: slope - q * se, hi: slope + q * se, confidence }, n })
}

#[cfg(test)]
mod tests {
    use super::*;

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
