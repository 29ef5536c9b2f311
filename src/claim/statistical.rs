//! The statistical judge (first form): Monte Carlo exceedance counts against claimed upper
//! bounds on probabilities, with exact Clopper–Pearson intervals, Bonferroni-corrected over the
//! grid of cells tested. A bound is refuted only when the lower end of a cell's one-sided
//! interval lies above it at the corrected level. [`judge_rare_tail_bounds`] does the same in
//! log10 for importance-sampling estimates ([`RareTail`]), whose probabilities can be far below
//! the smallest f64.

use super::comparison::{Comparison, Relation, Violation};
use super::verdict::{Outcome, Verdict};
use crate::estimate::RareTail;
use crate::stats::{bonferroni, clopper_pearson, refutation_power, ConfidenceInterval};
use serde::{Deserialize, Serialize};

/// One grid cell: `exceedances` of `trials` against a claimed `P ≤ bound`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TailCell {
    /// Which cell (parameters).
    pub label: String,
    /// Observed exceedances.
    pub exceedances: u64,
    /// Trials.
    pub trials: u64,
    /// The claimed upper bound on the probability.
    pub bound: f64,
}

/// A cell with its interval and decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TailCellReport {
    /// The cell.
    pub cell: TailCell,
    /// Two-sided Clopper–Pearson interval at confidence `1 − 2α/m` (its lower end is the
    /// one-sided `α/m` bound).
    pub interval: ConfidenceInterval,
    /// Whether the lower end exceeds the bound.
    pub refuted: bool,
    /// The probability that this cell would be refuted if the true rate were twice the bound
    /// (capped at 1): what the cell's sample size can detect.
    #[serde(default)]
    pub power_at_twice_the_bound: f64,
}

/// One cell judged with a two-sided Clopper–Pearson interval at `confidence` (its lower end is
/// the one-sided `(1 − confidence)/2` bound).
pub fn judge_cell(cell: TailCell, confidence: f64) -> TailCellReport {
    let interval = clopper_pearson(cell.exceedances, cell.trials, confidence);
    let refuted = interval.lo > cell.bound;
    let power_at_twice_the_bound = refutation_power(cell.trials, cell.bound, (1.0 - confidence) / 2.0, (2.0 * cell.bound).min(1.0));
    TailCellReport { cell, interval, refuted, power_at_twice_the_bound }
}

impl TailCellReport {
    /// Scale-aware margin in [−1, 1]: (bound − lower end)/max(bound, lower end), negative when
    /// refuted.
    pub fn margin(&self) -> f64 {
        (self.cell.bound - self.interval.lo) / self.cell.bound.max(self.interval.lo)
    }
    /// The compared sides: the interval's lower end against the bound.
    pub fn violation(&self) -> Violation {
        Comparison::custom(self.interval.lo, self.cell.bound, Relation::AtMost, self.margin(), TAIL_MARGIN_FORMULA)
            .named("one-sided Clopper–Pearson lower limit of P at level α/m", "the claimed bound on P")
    }
}

/// How [`judge_tail_bounds`] scales its margin.
pub const TAIL_MARGIN_FORMULA: &str = "(bound − lower)/max(bound, lower), lower = the one-sided α/m Clopper–Pearson lower limit of the exceedance probability";

/// Judges every cell at family-wise level `alpha` (Bonferroni over the cells). The outcome's
/// cases are the trials summed over cells; the margin is the smallest
/// `(bound − lower)/max(bound, lower)` ∈ [−1, 1]
/// and a refutation reports the most violated cell.
pub fn judge_tail_bounds(cells: Vec<TailCell>, alpha: f64) -> Outcome {
    let m = cells.len();
    let per_cell = bonferroni(alpha, m);
    let reports: Vec<TailCellReport> = cells.into_iter().map(|cell| judge_cell(cell, 1.0 - 2.0 * per_cell)).collect();
    let trials: u64 = reports.iter().map(|r| r.cell.trials).sum();
    let rel = TailCellReport::margin;
    let margin = reports.iter().map(rel).min_by(f64::total_cmp);
    let verdict = match reports.iter().filter(|r| r.refuted).min_by(|a, b| rel(a).total_cmp(&rel(b))) {
        Some(r) => Verdict::Refuted {
            counterexample: serde_json::to_value(r).unwrap_or_default(),
            violation: r.violation(),
            margin: rel(r),
            summary: format!(
                "{}: P̂ = {:.4e}, one-sided lower {:.4e} > bound {:.4e} at level α/m = {:.2e}",
                r.cell.label, r.interval.estimate, r.interval.lo, r.cell.bound, per_cell
            ),
        },
        None => Verdict::Holds { evidence: format!("{m} cells ({trials} cell-trials), no bound exceeded at family-wise α = {alpha}") },
    };
    Outcome::new(verdict, trials, margin).detail("alpha", alpha).detail("correction", format!("Bonferroni over {m} cells")).detail("cells", &reports)
}

/// One cell judged in log10: an importance-sampling estimate of P against a claimed `P ≤ bound`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RareCell {
    /// Which cell (parameters).
    pub label: String,
    /// The estimate, with its interval at confidence 1 − 2α/m.
    pub estimate: RareTail,
    /// log10 of the claimed bound.
    pub log10_bound: f64,
}

impl RareCell {
    /// Whether the interval's lower end is above the bound.
    pub fn refuted(&self) -> bool {
        self.estimate.log10_lo.is_some_and(|lo| lo > self.log10_bound)
    }
    /// `(bound − lower)/max(bound, lower)` computed from the log10 gap, so it is exact where both
    /// underflow; 1 when the lower end is 0.
    pub fn margin(&self) -> f64 {
        self.estimate.log10_lo.map_or(1.0, |lo| log10_gap_margin(self.log10_bound - lo))
    }
}

/// The scale-aware margin `(b − a)/max(a, b)` of `a ≤ b` from the gap `log10 b − log10 a`, exact
/// where a and b themselves underflow: `1 − 10^{−gap}` when the relation holds, `10^{gap} − 1`
/// (negative) when it does not.
pub fn log10_gap_margin(gap: f64) -> f64 {
    if gap >= 0.0 {
        1.0 - 10f64.powf(-gap)
    } else {
        10f64.powf(gap) - 1.0
    }
}

/// Judges importance-sampling cells at family-wise level `alpha`: each estimate's interval must
/// have been computed at `1 − 2α/m` (Bonferroni over the m cells; its lower end is the one-sided
/// α/m bound), which is checked. The cases are the samples summed over cells.
pub fn judge_rare_tail_bounds(cells: Vec<RareCell>, alpha: f64) -> Outcome {
    let m = cells.len();
    let per_cell = bonferroni(alpha, m);
    assert!(cells.iter().all(|c| (c.estimate.confidence - (1.0 - 2.0 * per_cell)).abs() < 1e-15), "estimates must be at the corrected level");
    let samples: u64 = cells.iter().map(|c| c.estimate.samples).sum();
    let margin = cells.iter().map(RareCell::margin).min_by(f64::total_cmp);
    let verdict = match cells.iter().filter(|c| c.refuted()).min_by(|a, b| a.margin().total_cmp(&b.margin())) {
        Some(c) => {
            let lo = c.estimate.log10_lo.unwrap_or(f64::NEG_INFINITY);
            Verdict::Refuted {
                counterexample: serde_json::to_value(c).unwrap_or_default(),
                violation: Comparison::custom(lo, c.log10_bound, Relation::AtMost, c.margin(), RARE_MARGIN_FORMULA)
                    .named("log10 of the one-sided betting lower limit of P at level α/m", "log10 of the claimed bound on P"),
                margin: c.margin(),
                summary: format!(
                    "{}: log10 P̂ = {:.3}, one-sided lower log10 {:.3} > log10 bound {:.3} at level α/m = {:.2e}",
                    c.label,
                    c.estimate.log10_p.unwrap_or(f64::NEG_INFINITY),
                    lo,
                    c.log10_bound,
                    per_cell
                ),
            }
        }
        None => Verdict::Holds { evidence: format!("{m} cells ({samples} importance samples), no bound exceeded at family-wise α = {alpha}") },
    };
    Outcome::new(verdict, samples, margin).detail("alpha", alpha).detail("correction", format!("Bonferroni over {m} cells")).detail("cells", &cells)
}

/// How [`judge_rare_tail_bounds`] scales its margin.
pub const RARE_MARGIN_FORMULA: &str =
    "(bound − lower)/max(bound, lower) from the log10 gap, lower = the one-sided α/m betting lower limit of P (importance sampling)";

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(k: u64, n: u64, bound: f64) -> TailCell {
        TailCell { label: format!("k={k}"), exceedances: k, trials: n, bound }
    }

    #[test]
    fn refutes_only_beyond_the_corrected_interval() {
        // 60/1000 against a bound of 0.05: the lower end (~0.044) is below → not refuted.
        assert_eq!(judge_tail_bounds(vec![cell(60, 1000, 0.05)], 0.01).verdict.tag(), crate::claim::VerdictKind::Holds);
        // 120/1000 against 0.05 is far beyond.
        assert_eq!(judge_tail_bounds(vec![cell(120, 1000, 0.05)], 0.01).verdict.tag(), crate::claim::VerdictKind::Refuted);
    }

    #[test]
    fn cells_report_their_margin_and_power() {
        // Margin (bound − lower end)/max(bound, lower end), exactly.
        let held = judge_cell(cell(60, 1000, 0.05), 0.99);
        assert!((held.margin() - (0.05 - held.interval.lo) / 0.05).abs() < 1e-15 && held.margin() > 0.0);
        let refuted = judge_cell(cell(120, 1000, 0.05), 0.99);
        assert!((refuted.margin() - (0.05 - refuted.interval.lo) / refuted.interval.lo).abs() < 1e-15 && refuted.margin() < 0.0);
        // Power at twice the bound: 4000 trials, bound 1%, one-sided level 2.5e−5 → 0.9054
        // (recomputed with exact binomial sums outside this crate, proofs/recall.md).
        let four = judge_cell(cell(0, 4000, 0.01), 1.0 - 5e-5);
        assert!((four.power_at_twice_the_bound - 0.9054).abs() < 5e-4, "{}", four.power_at_twice_the_bound);
        // It is reported for every cell of the judge.
        let out = judge_tail_bounds(vec![cell(0, 4000, 0.01)], 2.5e-5);
        assert!((out.details["cells"][0]["power_at_twice_the_bound"].as_f64().unwrap() - 0.9054).abs() < 5e-4);
    }

    fn rare(lo: Option<f64>, confidence: f64) -> RareTail {
        RareTail {
            t: 100,
            threshold: 50.0,
            theta: 3.0,
            log10_p: Some(-200.0),
            log10_lo: lo,
            log10_hi: -199.5,
            log10_weight_bound: -198.0,
            log10_bahadur_rao: Some(-200.1),
            bahadur_rao_b1: -0.1,
            samples: 1000,
            hits: 500,
            confidence,
            acceptance: 0.5,
            relative_variance: Some(100.0),
        }
    }

    #[test]
    fn rare_cells_are_judged_in_log10_below_the_smallest_f64() {
        // m = 2 cells at α = 1e−4: each interval must be at 1 − 1e−4.
        let conf = 1.0 - 2.0 * bonferroni(1e-4, 2);
        let cell = |lo: Option<f64>, bound: f64| RareCell { label: format!("{lo:?} vs {bound}"), estimate: rare(lo, conf), log10_bound: bound };
        // Lower end 10^−200.3 against a bound of 10^−217: refuted, margin 10^{−16.7} − 1.
        let out = judge_rare_tail_bounds(vec![cell(Some(-200.3), -217.0), cell(None, -300.0)], 1e-4);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Refuted);
        assert!((out.margin.unwrap() - (10f64.powf(-16.7) - 1.0)).abs() < 1e-12);
        // Against 10^−190 it holds with margin 1 − 10^{−9.7}; a lower end of 0 never refutes.
        let out = judge_rare_tail_bounds(vec![cell(Some(-200.3), -190.0), cell(None, -300.0)], 1e-4);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Holds);
        assert!((out.margin.unwrap() - (1.0 - 10f64.powf(-10.3))).abs() < 1e-12);
        assert_eq!(log10_gap_margin(0.0), 0.0);
    }

    #[test]
    fn correction_makes_each_cell_stricter() {
        // 75/1000 vs 0.05: refuted alone at α = 0.01, but not among 1000 cells.
        let alone = judge_tail_bounds(vec![cell(75, 1000, 0.05)], 0.01);
        let mut many = vec![cell(75, 1000, 0.05)];
        many.extend((0..999).map(|_| cell(0, 1000, 0.05)));
        assert_eq!(alone.verdict.tag(), crate::claim::VerdictKind::Refuted);
        assert_eq!(judge_tail_bounds(many, 0.01).verdict.tag(), crate::claim::VerdictKind::Holds);
    }
}
