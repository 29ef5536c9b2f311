//! The rate judge (first form): a measured quantity (a rate, a mean, a tail index) with its
//! confidence interval against the predicted value, over a grid of cells. A cell agrees when
//! the prediction lies inside the interval widened by a stated deterministic slack (e.g. a
//! bias bound of order 1/k).

use super::comparison::{Comparison, Relation, Violation};
use super::verdict::{Outcome, Verdict};
use crate::stats::ConfidenceInterval;
use serde::{Deserialize, Serialize};

/// One cell: a measured rate interval and the predicted rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RateCell {
    /// Which cell (parameters).
    pub label: String,
    /// Measured rate with its (already corrected) interval.
    pub measured: ConfidenceInterval,
    /// Predicted rate.
    pub predicted: f64,
    /// Deterministic allowance added on both sides of the interval.
    pub slack: f64,
    /// One-sided: the claim is only that the true value is at most `predicted` (e.g. an error
    /// that decays *at least* as fast as predicted); refuted only when the interval's lower end
    /// exceeds `predicted + slack`.
    #[serde(default)]
    pub at_most: bool,
}

impl RateCell {
    /// The violated (or nearest) side: the prediction against the nearer end of the widened
    /// interval (one-sided: the interval's lower end against the prediction).
    pub fn comparison(&self) -> Comparison {
        let w = self.measured.widened(self.slack);
        let m = self.margin();
        if self.at_most {
            return Comparison::custom(w.lo, self.predicted, Relation::AtMost, m, RATE_MARGIN_FORMULA);
        }
        if self.predicted > 0.5 * (w.lo + w.hi) {
            Comparison::custom(self.predicted, w.hi, Relation::AtMost, m, RATE_MARGIN_FORMULA)
        } else {
            Comparison::custom(self.predicted, w.lo, Relation::AtLeast, m, RATE_MARGIN_FORMULA)
        }
    }
    /// The compared sides, named.
    pub fn violation(&self) -> Violation {
        if self.at_most {
            self.comparison().named("lower end of the measured interval, less the slack", "the predicted value")
        } else {
            self.comparison().named("the predicted value", "nearer end of the measured interval, widened by the slack")
        }
    }
    /// Signed margin: how far inside (positive) or outside (negative) the widened interval the
    /// prediction lies, in units of the widened half-width.
    pub fn margin(&self) -> f64 {
        let w = self.measured.widened(self.slack);
        let half = 0.5 * (w.hi - w.lo);
        if self.at_most {
            return if half > 0.0 { (self.predicted - w.lo) / half } else { f64::MIN };
        }
        let centre = 0.5 * (w.hi + w.lo);
        if half > 0.0 {
            1.0 - (self.predicted - centre).abs() / half
        } else {
            f64::NEG_INFINITY
        }
    }
}

/// How [`RateCell::margin`] is computed.
pub const RATE_MARGIN_FORMULA: &str =
    "two-sided: 1 − |predicted − centre|/half-width of [lo − slack, hi + slack]; one-sided (at most): (predicted − (lo − slack))/half-width";

/// Judges every cell: refuted when some predicted rate lies outside its widened interval.
/// `correction` states how the intervals' confidence was corrected for the number of cells.
pub fn judge_rates(cells: Vec<RateCell>, correction: &str) -> Outcome {
    let worst = cells.iter().min_by(|a, b| a.margin().total_cmp(&b.margin()));
    let margin = worst.map(RateCell::margin);
    let verdict = match worst.filter(|c| c.margin() < 0.0) {
        Some(c) => Verdict::Refuted {
            counterexample: serde_json::to_value(c).unwrap_or_default(),
            violation: c.violation(),
            margin: c.margin(),
            summary: format!("{}: predicted {:.5} outside measured [{:.5}, {:.5}] ± {:.1e}", c.label, c.predicted, c.measured.lo, c.measured.hi, c.slack),
        },
        None => Verdict::Holds { evidence: format!("{} cells, every predicted value inside its measured interval", cells.len()) },
    };
    Outcome::new(verdict, cells.len() as u64, margin).detail("correction", correction).detail("cells", &cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(lo: f64, hi: f64, predicted: f64) -> RateCell {
        let measured = ConfidenceInterval { estimate: 0.5 * (lo + hi), lo, hi, confidence: 0.99 };
        RateCell { label: "c".into(), measured, predicted, slack: 0.0, at_most: false }
    }

    #[test]
    fn prediction_inside_holds_outside_refutes() {
        assert_eq!(judge_rates(vec![cell(-0.2, -0.1, -0.15)], "none").verdict.tag(), crate::claim::VerdictKind::Holds);
        assert_eq!(judge_rates(vec![cell(-0.2, -0.1, -0.3)], "none").verdict.tag(), crate::claim::VerdictKind::Refuted);
        assert!(cell(-0.2, -0.1, -0.15).margin() > 0.99);
    }

    #[test]
    fn the_recorded_side_is_the_nearer_end_and_margins_are_in_half_widths() {
        // Above the centre: the prediction against the upper end; below: against the lower end.
        let above = RateCell { slack: 0.05, ..cell(-0.2, -0.1, -0.02) };
        let c = above.comparison();
        assert_eq!((c.relation, c.lhs), (Relation::AtMost, -0.02));
        assert!((c.rhs - (-0.05)).abs() < 1e-15);
        let below = RateCell { slack: 0.05, ..cell(-0.2, -0.1, -0.28) };
        let c = below.comparison();
        assert_eq!((c.relation, c.lhs), (Relation::AtLeast, -0.28));
        assert!((c.rhs - (-0.25)).abs() < 1e-15);
        // Positive values: 1.4 lies below the centre 1.5 of [1, 2], so the lower end is recorded.
        let c = cell(1.0, 2.0, 1.4).comparison();
        assert_eq!((c.relation, c.rhs), (Relation::AtLeast, 1.0));
        // Margin: 1 − |predicted − centre|/half-width of the widened interval [−0.25, −0.05].
        assert!((above.margin() - (1.0 - 0.13 / 0.1)).abs() < 1e-12);
        assert!((below.margin() - (1.0 - 0.13 / 0.1)).abs() < 1e-12);
        // One-sided: (predicted − widened lower end)/half-width; at the lower end exactly, 0.
        let one = RateCell { at_most: true, slack: 0.05, ..cell(-0.2, -0.1, -0.25) };
        assert!(one.margin().abs() < 1e-12);
        assert!((RateCell { at_most: true, ..cell(-0.2, -0.1, -0.1) }.margin() - 2.0).abs() < 1e-12);
        // A degenerate interval cannot contain a different prediction.
        assert_eq!(cell(0.1, 0.1, 0.2).margin(), f64::NEG_INFINITY);
        assert_eq!(RateCell { at_most: true, ..cell(0.1, 0.1, 0.2) }.margin(), f64::MIN);
    }

    #[test]
    fn one_sided_cells_refute_only_a_slower_decay() {
        let faster = RateCell { at_most: true, ..cell(-0.5, -0.4, -0.3) };
        let slower = RateCell { at_most: true, ..cell(-0.2, -0.1, -0.3) };
        assert_eq!(judge_rates(vec![faster], "none").verdict.tag(), crate::claim::VerdictKind::Holds);
        assert_eq!(judge_rates(vec![slower], "none").verdict.tag(), crate::claim::VerdictKind::Refuted);
    }
}
