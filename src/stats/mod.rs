//! Statistics with stated confidence: exact binomial intervals (Clopper–Pearson, Wilson as a
//! cross-check), Bonferroni correction, Student-t intervals for means and least-squares slopes, the Ljung–Box test of whiteness, the median and Hoeffding's interval,
//! and a betting interval for the mean of bounded variables (exact coverage, variance-adaptive).
//!
//! Every interval is a typed, serialisable [`ConfidenceInterval`] carrying its confidence level, so a
//! verdict can say exactly what was claimed at what level.

pub mod betting;
pub mod binomial;
pub mod interval;
pub mod ks;
pub mod ljung_box;
pub mod regression;
pub mod summary;

pub use betting::betting_interval;
pub use binomial::{binomial_upper_tail, clopper_pearson, refutation_power, refuting_count, wilson};
pub use interval::{mean_interval, ConfidenceInterval};
pub use ks::ks_two_sample;
pub use ljung_box::{ljung_box, LjungBox};
pub use regression::{ols, LinearFit};
pub use summary::{hoeffding_half_width, median, median_interval};

/// Per-comparison significance level after a Bonferroni correction over `m` comparisons
/// at family-wise level `alpha`.
pub fn bonferroni(alpha: f64, m: usize) -> f64 {
    alpha / m.max(1) as f64
}

#[cfg(test)]
mod tests {
    #[test]
    fn bonferroni_divides_the_level() {
        assert_eq!(super::bonferroni(0.05, 10), 0.005);
        assert_eq!(super::bonferroni(0.05, 0), 0.05);
    }
}
