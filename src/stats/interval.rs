//! Confidence intervals as values.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// A two-sided confidence interval for one quantity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceInterval {
    /// Point estimate.
    pub estimate: f64,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Confidence level of the interval, e.g. 0.99 (already Bonferroni-corrected if stated so).
    pub confidence: f64,
}

impl ConfidenceInterval {
    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
    /// The interval widened by `slack` on both sides (a stated deterministic allowance, such as
    /// a bias bound, added to the statistical one).
    pub fn widened(&self, slack: f64) -> ConfidenceInterval {
        ConfidenceInterval { lo: self.lo - slack, hi: self.hi + slack, ..*self }
    }
}

/// Student-t interval for the mean of independent samples at the given two-sided confidence.
///
/// With fewer than two samples the interval is the whole real line.
pub fn mean_interval(xs: &[f64], confidence: f64) -> ConfidenceInterval {
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n.max(1) as f64;
    if n < 2 {
        return ConfidenceInterval { estimate: mean, lo: f64::NEG_INFINITY, hi: f64::INFINITY, confidence };
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    let q = student_t_quantile(1.0 - (1.0 - confidence) / 2.0, (n - 1) as f64);
    ConfidenceInterval { estimate: mean, lo: mean - q * se, hi: mean + q * se, confidence }
}

/// Quantile of Student's t with `dof` degrees of freedom.
pub fn student_t_quantile(p: f64, dof: f64) -> f64 {
    StudentsT::new(0.0, 1.0, dof).expect("dof > 0").inverse_cdf(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_interval_uses_student_t() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        let ci = mean_interval(&xs, 0.95);
        // mean 2.5, sd = 1.2910, se = 0.6455, t_{0.975,3} = 3.1824 (reference: t tables)
        assert!((ci.estimate - 2.5).abs() < 1e-15);
        assert!((ci.hi - (2.5 + 3.182_446 * 0.645_497)).abs() < 1e-4);
        assert!(ci.contains(2.5) && !ci.contains(6.0));
        // Both ends exactly (t_{0.975,3} = 3.1824463053, computed independently in Python).
        assert!((ci.lo - 0.445_739_743_2).abs() < 1e-9 && (ci.hi - 4.554_260_256_8).abs() < 1e-9, "{ci:?}");
        // Two samples already give a finite interval (t_{0.975,1} = 12.7062047).
        let two = mean_interval(&[1.0, 3.0], 0.95);
        assert!((two.lo + 10.706_204_736).abs() < 1e-8 && (two.hi - 14.706_204_736).abs() < 1e-8, "{two:?}");
        // One sample: the whole line.
        assert_eq!(mean_interval(&[1.0], 0.95).lo, f64::NEG_INFINITY);
    }

    #[test]
    fn widening_adds_the_slack_on_both_sides() {
        let w = ConfidenceInterval { estimate: 1.0, lo: 0.5, hi: 1.5, confidence: 0.9 }.widened(0.25);
        assert_eq!((w.estimate, w.lo, w.hi, w.confidence), (1.0, 0.25, 1.75, 0.9));
    }
}
