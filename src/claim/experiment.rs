//! The experiment judge: a paper's trained-model experiment rerun with **the seed as the unit of
//! replication**.
//!
//! A configuration (model, task, loss, sizes) is trained once per seed; each seed's runs give one
//! value of every metric (a statistic of its held-out data, whose own sampling error is small
//! beside the spread between seeds). A [`Criterion`] — fixed before the first run, and derived
//! from the paper's printed numbers or words (its `derivation` says how) — names the side of a
//! threshold on which a metric's mean (or median) over seeds must lie. [`judge`] puts an interval
//! over the seeds on every criterion's mean (Student t) or median (order statistics), at two-sided level [`EXPERIMENT_ALPHA`] with a
//! Bonferroni correction over the criteria, and decides:
//!
//! * **reproduced** ([`Verdict::Holds`]) when every interval lies wholly on its criterion's side
//!   and the positive control (a configuration known to have the effect, judged by the same
//!   criteria) is reproduced too;
//! * **not reproduced** ([`Verdict::Refuted`]) when some interval lies wholly on the wrong side
//!   (the farthest one is reported, both sides named);
//! * **inconclusive** otherwise, or when the positive control is not reproduced (the setting could
//!   not have shown the effect).
//!
//! The negative control (a configuration without the effect) is the claim's
//! [`control`](super::Claim::control): the same check on it must come out *not reproduced*.
//! Every seed's metrics, the intervals, the paper's numbers and both controls go into the JSON as
//! one typed [`ExperimentRecord`].

use super::comparison::{Comparison, Relation};
use super::verdict::{Outcome, Verdict};
use crate::stats::ConfidenceInterval;
use serde::Serialize;

/// The two-sided level of an experiment's intervals over seeds, before the Bonferroni correction
/// over its criteria. An experiment's verdict says whether a published result replicates over
/// seeds, at the level replication studies use; the suite's theorems keep the stricter
/// [`ALPHA`](super::ALPHA) (a level of 10⁻⁴ would need a t quantile of 22 at five seeds).
pub const EXPERIMENT_ALPHA: f64 = 0.05;

/// Which side of its threshold a metric's mean over seeds must lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Direction {
    /// At least the threshold (`mean ≥ threshold`).
    AtLeast,
    /// At most the threshold.
    AtMost,
    /// Strictly above (an effect that must exist: `mean > threshold`).
    Above,
    /// Strictly below.
    Below,
}

impl Direction {
    fn relation(self) -> Relation {
        match self {
            Direction::AtLeast => Relation::AtLeast,
            Direction::AtMost => Relation::AtMost,
            Direction::Above => Relation::Above,
            Direction::Below => Relation::Below,
        }
    }
    /// The signed distance of the interval from the threshold: positive when the whole
    /// interval lies on the criterion's side, negative when some of it lies on the other.
    fn margin(self, ci: &ConfidenceInterval, threshold: f64) -> f64 {
        match self {
            Direction::AtLeast | Direction::Above => ci.lo - threshold,
            Direction::AtMost | Direction::Below => threshold - ci.hi,
        }
    }
    /// The signed distance of the interval's far end: negative when the whole interval lies on
    /// the wrong side.
    fn far_margin(self, ci: &ConfidenceInterval, threshold: f64) -> f64 {
        match self {
            Direction::AtLeast | Direction::Above => ci.hi - threshold,
            Direction::AtMost | Direction::Below => threshold - ci.lo,
        }
    }
    /// The side as a relation symbol (≥, ≤, >, <).
    pub fn symbol(self) -> &'static str {
        match self {
            Direction::AtLeast => "≥",
            Direction::AtMost => "≤",
            Direction::Above => ">",
            Direction::Below => "<",
        }
    }
    fn strict(self) -> bool {
        matches!(self, Direction::Above | Direction::Below)
    }
}

/// What a criterion's interval over seeds is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Estimator {
    /// The mean: a Student-t interval (a metric roughly normal over seeds).
    Mean,
    /// The median: the order-statistic interval (the sign test inverted), for a metric with heavy
    /// tails over seeds, where one seed can move the mean and widen a t interval past use.
    Median,
}

impl Estimator {
    /// The location's name, as the summaries print it.
    pub fn name(self) -> &'static str {
        match self {
            Estimator::Mean => "mean",
            Estimator::Median => "median",
        }
    }
}

/// One criterion of an experiment: a metric's mean (or median) over seeds against a threshold.
#[derive(Clone, Debug, Serialize)]
pub struct Criterion {
    /// The metric, as [`Replicates`] names it.
    pub metric: &'static str,
    /// The location over seeds the criterion is about.
    pub estimator: Estimator,
    /// The side the mean must lie on.
    pub side: Direction,
    /// The threshold.
    pub threshold: f64,
    /// How the threshold follows from the paper's numbers or words (fixed before the first run).
    pub derivation: String,
}

impl Criterion {
    /// A criterion on the mean of `metric` over seeds.
    pub fn new(metric: &'static str, side: Direction, threshold: f64, derivation: impl Into<String>) -> Criterion {
        Criterion { metric, estimator: Estimator::Mean, side, threshold, derivation: derivation.into() }
    }
    /// The same criterion on the median over seeds.
    pub fn median(self) -> Criterion {
        Criterion { estimator: Estimator::Median, ..self }
    }
}

/// A number the paper prints (or a statement it makes), set beside the measurement.
#[derive(Clone, Debug, Serialize)]
pub struct PaperNumber {
    /// What it is.
    pub what: String,
    /// Its value (None for a statement without a number).
    pub value: Option<f64>,
    /// Where the paper prints it.
    pub source: String,
}

impl PaperNumber {
    /// A printed value.
    pub fn value(what: impl Into<String>, value: f64, source: impl Into<String>) -> PaperNumber {
        PaperNumber { what: what.into(), value: Some(value), source: source.into() }
    }
    /// A statement without a number (a figure that prints none).
    pub fn words(what: impl Into<String>, source: impl Into<String>) -> PaperNumber {
        PaperNumber { what: what.into(), value: None, source: source.into() }
    }
}

/// The per-seed metrics of one configuration: for each seed, one value of every metric.
#[derive(Clone, Debug, Serialize)]
pub struct Replicates {
    /// What was trained (model, task, sizes), in words.
    pub configuration: String,
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Each metric's name and its value at every seed (same order as `seeds`).
    pub metrics: Vec<(&'static str, Vec<f64>)>,
}

impl Replicates {
    /// An empty set of replicates of `configuration`.
    pub fn new(configuration: impl Into<String>) -> Replicates {
        Replicates { configuration: configuration.into(), seeds: Vec::new(), metrics: Vec::new() }
    }
    /// Adds one seed's metrics (every seed must give the same metrics, in the same order).
    pub fn push(&mut self, seed: u64, metrics: &[(&'static str, f64)]) {
        if self.metrics.is_empty() {
            self.metrics = metrics.iter().map(|&(name, _)| (name, Vec::new())).collect();
        }
        assert_eq!(self.metrics.len(), metrics.len(), "every seed gives the same metrics");
        for ((name, values), &(given, v)) in self.metrics.iter_mut().zip(metrics) {
            assert_eq!(*name, given, "every seed gives the same metrics, in the same order");
            values.push(v);
        }
        self.seeds.push(seed);
    }
    /// The values of `metric` over the seeds.
    pub fn values(&self, metric: &str) -> &[f64] {
        self.metrics.iter().find(|(name, _)| *name == metric).map(|(_, v)| v.as_slice()).unwrap_or_else(|| panic!("no metric '{metric}'"))
    }
}

/// Where one criterion stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Resolution {
    /// The interval over seeds lies wholly on the criterion's side.
    Met,
    /// The interval lies wholly on the other side.
    Failed,
    /// The interval contains the threshold.
    Unresolved,
}

/// One criterion judged: the interval over seeds and where it stands.
#[derive(Clone, Debug, Serialize)]
pub struct CriterionResult {
    /// The criterion.
    pub criterion: Criterion,
    /// The interval over the seeds for the metric's mean (Student t) or median (order
    /// statistics), at the Bonferroni-corrected level.
    pub interval: ConfidenceInterval,
    /// The metric at every seed.
    pub per_seed: Vec<f64>,
    /// Where it stands.
    pub standing: Resolution,
    /// Signed distance of the interval from the threshold (positive: met with that room).
    pub margin: f64,
}

/// The judgement of one configuration against the criteria.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    /// What was trained.
    pub configuration: String,
    /// The seeds.
    pub seeds: Vec<u64>,
    /// Every criterion, judged.
    pub criteria: Vec<CriterionResult>,
}

impl Judgement {
    /// Whether every criterion is met.
    pub fn reproduced(&self) -> bool {
        self.criteria.iter().all(|c| c.standing == Resolution::Met)
    }
    /// The failed criterion farthest on the wrong side, if any.
    fn worst_failure(&self) -> Option<&CriterionResult> {
        self.criteria.iter().filter(|c| c.standing == Resolution::Failed).min_by(|a, b| far(a).total_cmp(&far(b)))
    }
    /// The smallest margin over the criteria.
    pub fn margin(&self) -> f64 {
        self.criteria.iter().map(|c| c.margin).fold(f64::INFINITY, f64::min)
    }
    /// One line per criterion: the mean, the interval and the threshold.
    pub fn summary(&self) -> String {
        self.criteria
            .iter()
            .map(|c| {
                format!(
                    "{} ({}) {:.4} [{:.4}, {:.4}] {} {} ({:?})",
                    c.criterion.metric,
                    c.criterion.estimator.name(),
                    c.interval.estimate,
                    c.interval.lo,
                    c.interval.hi,
                    c.criterion.side.symbol(),
                    c.criterion.threshold,
                    c.standing
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn far(c: &CriterionResult) -> f64 {
    c.criterion.side.far_margin(&c.interval, c.criterion.threshold)
}

/// Judges `runs` against `criteria`: an interval over the seeds for each metric's mean (Student t)
/// or median (order statistics) at two-sided level [`EXPERIMENT_ALPHA`], Bonferroni over the
/// criteria. With one seed the
/// interval is the whole line (nothing is decided); with identical values at every seed it is
/// that value ([`mean_interval`](crate::stats::mean_interval),
/// [`median_interval`](crate::stats::median_interval)).
pub fn judge(runs: &Replicates, criteria: &[Criterion]) -> Judgement {
    let confidence = 1.0 - EXPERIMENT_ALPHA / criteria.len().max(1) as f64;
    let criteria = criteria
        .iter()
        .map(|c| {
            let per_seed = runs.values(c.metric).to_vec();
            let interval = match c.estimator {
                Estimator::Mean => crate::stats::mean_interval(&per_seed, confidence),
                Estimator::Median => crate::stats::median_interval(&per_seed, confidence),
            };
            let (margin, far) = (c.side.margin(&interval, c.threshold), c.side.far_margin(&interval, c.threshold));
            // A strict criterion is not met by an interval that touches its threshold.
            let standing = if margin > 0.0 || (margin == 0.0 && !c.side.strict()) {
                Resolution::Met
            } else if far < 0.0 || (far == 0.0 && c.side.strict()) {
                Resolution::Failed
            } else {
                Resolution::Unresolved
            };
            CriterionResult { criterion: c.clone(), interval, per_seed, standing, margin }
        })
        .collect();
    Judgement { configuration: runs.configuration.clone(), seeds: runs.seeds.clone(), criteria }
}

/// What an experiment records in the JSON (the `experiment` detail).
#[derive(Clone, Debug, Serialize)]
pub struct ExperimentRecord {
    /// The configuration the paper's claim is judged on.
    pub judged: Judgement,
    /// The positive control: a configuration known to have the effect, by the same criteria.
    pub positive_control: Option<ControlRun>,
    /// The paper's numbers and words the criteria are derived from.
    pub paper: Vec<PaperNumber>,
    /// The level of the intervals over seeds: two-sided [`EXPERIMENT_ALPHA`], Bonferroni over
    /// the criteria.
    pub alpha: f64,
    /// The correction, in words.
    pub correction: String,
    /// The power, in words: the smallest mean effect each interval resolves.
    pub power: String,
}

/// A control configuration and its judgement.
#[derive(Clone, Debug, Serialize)]
pub struct ControlRun {
    /// What the control is and why it is known to have (positive) or lack (negative) the effect.
    pub what: String,
    /// Its judgement by the experiment's criteria.
    pub judgement: Judgement,
}

/// An experiment's decision: the judged configuration and its positive control, with the paper's
/// numbers, turned into an [`Outcome`] whose `experiment` detail is the [`ExperimentRecord`].
/// `cases` is the number of trained runs (or evaluated sequences) the outcome counts.
pub fn decide(judged: Judgement, positive: Option<ControlRun>, paper: Vec<PaperNumber>, cases: u64) -> Outcome {
    let power = judged
        .criteria
        .iter()
        .map(|c| format!("{}: ± {:.4} over {} seeds", c.criterion.metric, 0.5 * (c.interval.hi - c.interval.lo), c.per_seed.len()))
        .collect::<Vec<_>>()
        .join("; ");
    let summary = judged.summary();
    let positive_failed = positive.as_ref().filter(|p| !p.judgement.reproduced());
    let verdict = match judged.worst_failure() {
        Some(c) => {
            let (lhs, lhs_is) = match c.criterion.side {
                Direction::AtLeast | Direction::Above => (c.interval.hi, "upper limit over seeds"),
                Direction::AtMost | Direction::Below => (c.interval.lo, "lower limit over seeds"),
            };
            let violation =
                Comparison::custom(lhs, c.criterion.threshold, c.criterion.side.relation(), far(c), "interval's far end − threshold (signed by the side)")
                    .named(&format!("{} ({lhs_is}, {} {:.4})", c.criterion.metric, c.criterion.estimator.name(), c.interval.estimate), &c.criterion.derivation);
            let counterexample = serde_json::json!({ "configuration": judged.configuration, "seeds": judged.seeds, "metric": c.criterion.metric, "per_seed": c.per_seed, "interval": c.interval });
            Verdict::Refuted { counterexample, violation, margin: far(c), summary: format!("not reproduced: {summary}") }
        }
        None if judged.reproduced() => match positive_failed {
            Some(p) => Verdict::Inconclusive { why: format!("the positive control ({}) is not reproduced: {}; {summary}", p.what, p.judgement.summary()) },
            None => Verdict::Holds { evidence: format!("reproduced: {summary}") },
        },
        None => Verdict::Inconclusive { why: format!("an interval over seeds contains its threshold: {summary}") },
    };
    let margin = judged.margin();
    let alpha = EXPERIMENT_ALPHA;
    let correction =
        format!("Bonferroni over {} criteria: each interval at two-sided {:.4}", judged.criteria.len(), 1.0 - alpha / judged.criteria.len().max(1) as f64);
    let record = ExperimentRecord { judged, positive_control: positive, paper, alpha, correction, power };
    Outcome::new(verdict, cases, Some(margin)).detail("experiment", record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(values: &[f64]) -> Replicates {
        let mut r = Replicates::new("test");
        for (s, &v) in values.iter().enumerate() {
            r.push(s as u64, &[("m", v)]);
        }
        r
    }

    /// Identical values at every seed give a point; one seed decides nothing.
    #[test]
    fn the_interval_over_seeds_is_a_point_for_identical_seeds_and_the_line_for_one() {
        let at = |values: &[f64]| judge(&runs(values), &[Criterion::new("m", Direction::AtLeast, 0.5, "test")]).criteria[0].interval;
        let point = at(&[0.7; 5]);
        assert_eq!((point.lo, point.hi), (0.7, 0.7));
        assert!(at(&[0.7]).lo.is_infinite());
        let median = judge(&runs(&[0.7; 20]), &[Criterion::new("m", Direction::AtLeast, 0.5, "test").median()]).criteria[0].interval;
        assert_eq!((median.lo, median.hi), (0.7, 0.7));
    }

    #[test]
    fn each_side_meets_fails_or_leaves_unresolved() {
        let c = |side, t| [Criterion::new("m", side, t, "test")];
        let at = |values: &[f64], side, t| judge(&runs(values), &c(side, t)).criteria[0].standing;
        assert_eq!(at(&[0.95, 0.97, 0.99], Direction::AtLeast, 0.9), Resolution::Met);
        assert_eq!(at(&[0.1, 0.12, 0.11], Direction::AtLeast, 0.9), Resolution::Failed);
        assert_eq!(at(&[0.5, 0.99, 0.95], Direction::AtLeast, 0.9), Resolution::Unresolved);
        assert_eq!(at(&[0.1, 0.12, 0.11], Direction::AtMost, 0.5), Resolution::Met);
        // A strict criterion: identical zeros neither exceed 0 nor leave it undecided.
        assert_eq!(at(&[0.0, 0.0, 0.0], Direction::Above, 0.0), Resolution::Failed);
        assert_eq!(at(&[0.0, 0.0, 0.0], Direction::AtLeast, 0.0), Resolution::Met);
        assert_eq!(at(&[0.3, 0.35, 0.4], Direction::Above, 0.0), Resolution::Met);
    }

    #[test]
    fn the_decision_needs_every_criterion_and_the_positive_control() {
        let criteria = [Criterion::new("m", Direction::Above, 0.0, "the paper: an effect")];
        let good = judge(&runs(&[0.3, 0.35, 0.4]), &criteria);
        let null = judge(&runs(&[0.0, 0.0, 0.0]), &criteria);
        let unsure = judge(&runs(&[-0.2, 0.3, 0.1]), &criteria);
        let control = |j: &Judgement| Some(ControlRun { what: "planted".into(), judgement: j.clone() });
        assert!(matches!(decide(good.clone(), control(&good), vec![], 3).verdict, Verdict::Holds { .. }));
        assert!(matches!(decide(good.clone(), control(&null), vec![], 3).verdict, Verdict::Inconclusive { .. }), "a failed positive control");
        assert!(matches!(decide(null.clone(), control(&good), vec![], 3).verdict, Verdict::Refuted { .. }));
        assert!(matches!(decide(unsure, control(&good), vec![], 3).verdict, Verdict::Inconclusive { .. }));
        // The record keeps every seed's value.
        let out = decide(good.clone(), None, vec![PaperNumber::words("an effect", "§1")], 3);
        let record = &out.details["experiment"];
        assert_eq!(record["judged"]["criteria"][0]["per_seed"], serde_json::json!([0.3, 0.35, 0.4]));
        assert_eq!(record["paper"][0]["source"], "§1");
    }
}
