//! The property judge: a thin layer over proptest strategies and value trees.
//!
//! A property maps an instance to a comparison of two sides with a signed, scale-aware margin
//! ([`Eval::Compared`], from [`Eval::le`] or [`Eval::close`]; negative means the claim is
//! violated), a bare margin ([`Eval::Margin`]), or a rejection ([`Eval::Reject`], assumptions
//! not met — distinct from failure). The judge samples instances from proptest's ChaCha RNG
//! seeded by (seed, claim id), counts every violation (so the violation rate is reported, with a
//! Clopper–Pearson interval), shrinks the first one with proptest's simplify/complicate
//! protocol and records it with both sides of its relation, and keeps the instance closest to the
//! boundary when nothing fails. [`construction`] is the same judge for a proof's explicit
//! weights, reported as an accuracy.

use super::budget::Context;
use super::check::{Check, Kind};
use super::comparison::{Comparison, Relation, Violation};
use super::evidence::Figure;
use super::replay::Replay;
use super::verdict::{Outcome, Verdict};
use crate::error::Result;
use crate::stats::clopper_pearson;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// The evaluation of one instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// A comparison of two sides with its signed margin (≥ 0 satisfies the claim, < 0
    /// violates it): what [`Eval::le`] and [`Eval::close`] give, and what a refutation records.
    Compared(Comparison),
    /// A bare signed margin, for a claim whose sides cannot be named (prefer a comparison: a
    /// refutation then records only the margin).
    Margin(f64),
    /// The instance does not meet the claim's assumptions.
    Reject(&'static str),
}

impl Eval {
    /// The margin of `lhs ≤ rhs` on a relative scale with absolute and relative tolerance:
    /// `(rhs − lhs + atol + rtol·scale) / (|lhs| + |rhs| + atol)` ([`Comparison::at_most`]).
    pub fn le(lhs: f64, rhs: f64, rtol: f64, atol: f64) -> Eval {
        Eval::Compared(Comparison::at_most(lhs, rhs, rtol, atol))
    }
    /// The margin of `|got − want| ≤ rtol·scale + atol`: `1 − err/(rtol·scale + atol)`
    /// ([`Comparison::within`]).
    pub fn close(err: f64, scale: f64, rtol: f64, atol: f64) -> Eval {
        Eval::Compared(Comparison::within(err, scale, rtol, atol))
    }
    /// The signed margin (`None` for a rejected instance).
    pub fn margin(&self) -> Option<f64> {
        match self {
            Eval::Compared(c) => Some(c.margin),
            Eval::Margin(m) => Some(*m),
            Eval::Reject(_) => None,
        }
    }
    /// The smaller of two evaluations by margin (a reject wins; a NaN margin loses to a number).
    pub fn min(self, other: Eval) -> Eval {
        match (self.margin(), other.margin()) {
            (Some(a), Some(b)) => {
                if a.min(b) == a || (a.is_nan() && b.is_nan()) {
                    self
                } else {
                    other
                }
            }
            (None, _) => self,
            (_, None) => other,
        }
    }
    /// The comparison behind this evaluation; a bare margin `m` becomes `m ≥ 0`.
    fn comparison(&self) -> Option<Comparison> {
        match *self {
            Eval::Compared(c) => Some(c),
            Eval::Margin(m) => Some(Comparison::custom(m, 0.0, Relation::AtLeast, m, "the claim's own signed margin (lhs), which must be ≥ 0")),
            Eval::Reject(_) => None,
        }
    }
}

type Illustrate<V> = Box<dyn Fn(&V) -> Vec<Figure> + Send + Sync>;
type Expand<V> = Box<dyn Fn(&V) -> serde_json::Value + Send + Sync>;

/// A property check over instances drawn from a proptest strategy.
pub struct Property<S: Strategy, F> {
    cases: [u64; 3],
    strategy: S,
    eval: F,
    max_shrink_iters: u32,
    illustrate: Option<Illustrate<S::Value>>,
    expand: Option<Expand<S::Value>>,
    sides: Option<(String, String)>,
    kind: Kind,
}

/// A property check: `cases` instances at the quick, standard and deep budgets, drawn from
/// `strategy` and judged by `eval`.
pub fn property<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    Property { cases, strategy, eval, max_shrink_iters: 2048, illustrate: None, expand: None, sides: None, kind: Kind::Property }
}

/// A construction check: the explicit weights of a proof, built and run on random task instances
/// drawn from `strategy`; `eval` gives an instance's worst answer margin (target against the best
/// other output, a tie counting as wrong). Judged by exact accuracy: the construction must answer
/// every instance, the accuracy is reported with its exact (Clopper–Pearson) interval, and a
/// wrong answer is shrunk to the smallest failing instance like a property's counterexample.
pub fn construction<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    Property { kind: Kind::Construction, ..property(cases, strategy, eval) }
}

impl<S: Strategy, F> Property<S, F> {
    /// Figures drawn from the counterexample (or, when the claim holds, from the instance
    /// closest to violating it).
    pub fn illustrate(mut self, f: impl Fn(&S::Value) -> Vec<Figure> + Send + Sync + 'static) -> Self {
        self.illustrate = Some(Box::new(f));
        self
    }
    /// Names the two sides of the compared relation (what `lhs` and `rhs` of [`Eval::le`] or
    /// the error and tolerance of [`Eval::close`] are), for the refutation's record.
    pub fn sides(mut self, lhs_is: &str, rhs_is: &str) -> Self {
        self.sides = Some((lhs_is.into(), rhs_is.into()));
        self
    }
    /// The concrete instance behind a drawn value, for values that only parametrise it (a
    /// generator seed, sizes): `f` returns a JSON object whose fields are added to the
    /// counterexample (the instance's keys, codes, tokens...), so it can be recomputed without
    /// the generator.
    pub fn expand(mut self, f: impl Fn(&S::Value) -> serde_json::Value + Send + Sync + 'static) -> Self {
        self.expand = Some(Box::new(f));
        self
    }
}

fn violated(e: Eval) -> Option<Eval> {
    e.margin().is_some_and(|m| m < 0.0).then_some(e)
}

impl<S, F> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    /// Shrinks a failing value tree; returns the simplest failing value, its evaluation and
    /// the number of shrink steps taken.
    fn shrink(&self, mut tree: S::Tree, mut best: S::Value, mut best_m: Eval) -> (S::Value, Eval, u32) {
        let mut steps = 0;
        if !tree.simplify() {
            return (best, best_m, steps);
        }
        while steps < self.max_shrink_iters {
            steps += 1;
            let candidate = tree.current();
            if let Some(e) = violated((self.eval)(&candidate)) {
                best = candidate;
                best_m = e;
                if !tree.simplify() {
                    break;
                }
            } else if !tree.complicate() {
                break;
            }
        }
        (best, best_m, steps)
    }
}

impl<S, F> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    /// The evaluation's comparison with its sides named: by [`Property::sides`], else by what
    /// the relation makes them.
    fn violation(&self, eval: &Eval) -> Violation {
        let c = eval.comparison().expect("an evaluated instance has a comparison");
        let (lhs, rhs) = match (&self.sides, c.relation) {
            (Some((l, r)), _) => (l.as_str(), r.as_str()),
            (None, Relation::Within) => ("the error |got − want|", "the tolerance rtol·scale + atol"),
            (None, _) => ("left side of the inequality in the statement", "right side of the inequality in the statement"),
        };
        c.named(lhs, rhs)
    }

    /// The drawn value as JSON, with the fields of its expansion added.
    fn counterexample(&self, value: &S::Value) -> Result<serde_json::Value> {
        let mut json = serde_json::to_value(value)?;
        if let Some(expand) = &self.expand {
            match (&mut json, expand(value)) {
                (serde_json::Value::Object(into), serde_json::Value::Object(extra)) => into.extend(extra),
                (_, extra) => json = serde_json::json!({ "drawn": json, "instance": extra }),
            }
        }
        Ok(json)
    }
}

impl<S, F> Check for Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    fn kind(&self) -> Kind {
        self.kind
    }

    fn replay(&self, instance: &serde_json::Value) -> Result<Replay> {
        // An expanded counterexample that is not an object wraps the drawn value.
        let drawn = instance.get("drawn").filter(|_| self.expand.is_some()).unwrap_or(instance);
        let value: S::Value = serde_json::from_value(drawn.clone())?;
        // The instance is rebuilt from the drawn parameters: a recorded expansion (tokens,
        // codes) must be what they generate, or the replay would silently judge another one.
        if let Some(expand) = &self.expand {
            let generated = expand(&value);
            let recorded = instance.get("instance").unwrap_or(instance);
            if let (Some(g), Some(r)) = (generated.as_object(), recorded.as_object()) {
                if let Some(field) = g.keys().find(|k| r.get(*k).is_some_and(|v| v != &g[*k])) {
                    return Err(crate::error::Error::InvalidParameter(format!(
                        "the counterexample's '{field}' differs from what its drawn parameters generate; this claim rebuilds its instance from them (edit those instead)"
                    )));
                }
            }
        }
        let eval = (self.eval)(&value);
        Ok(match eval {
            Eval::Reject(why) => Replay::Rejected(why),
            _ => Replay::Evaluated(self.violation(&eval)),
        })
    }

    fn run(&self, ctx: &Context) -> Result<Outcome> {
        let n = ctx.budget.pick(self.cases[0], self.cases[1], self.cases[2]);
        let config = Config { cases: n as u32, failure_persistence: None, ..Config::default() };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &ctx.proptest_seed());
        let mut runner = TestRunner::new_with_rng(config, rng);
        ctx.progress.expect(n);
        let max_rejects = 20 * n + 1000;
        let (mut cases, mut rejected, mut violations, mut nan) = (0u64, 0u64, 0u64, 0u64);
        let mut closest: Option<(S::Value, f64)> = None;
        let mut first: Option<(S::Value, Eval, u32, u64)> = None;
        while cases < n && rejected <= max_rejects {
            let Ok(tree) = self.strategy.new_tree(&mut runner) else {
                rejected += 1;
                continue;
            };
            let value = tree.current();
            let eval = (self.eval)(&value);
            match eval.margin() {
                None => rejected += 1,
                Some(m) => {
                    cases += 1;
                    ctx.progress.advance(1);
                    if m.is_nan() {
                        nan += 1;
                    } else if m < 0.0 {
                        violations += 1;
                        if first.is_none() {
                            let (v, e, steps) = self.shrink(tree, value, eval);
                            first = Some((v, e, steps, cases));
                        }
                    } else if closest.as_ref().is_none_or(|(_, c)| m < *c) {
                        closest = Some((value, m));
                    }
                }
            }
        }
        let rate = (cases > 0).then(|| clopper_pearson(violations, cases, 0.95));
        let construction = self.kind == Kind::Construction;
        let base = |verdict, margin| {
            let out = Outcome::new(verdict, cases, margin)
                .detail("cases", cases)
                .detail("rejected", rejected)
                .detail("violations", violations)
                .detail("violation_rate_95", rate);
            // A construction's accuracy: instances answered exactly, with its 95% interval.
            if construction && cases > 0 {
                out.detail("instances_answered", cases - violations).detail("accuracy_95", clopper_pearson(cases - violations, cases, 0.95))
            } else {
                out
            }
        };
        if let Some((value, eval, steps, found_at)) = first {
            let figures = self.illustrate.as_ref().map(|f| f(&value)).unwrap_or_default();
            let violation = self.violation(&eval);
            let margin = violation.margin;
            let summary = format!("violated by {violations} of {cases} instances (first at #{found_at}); shrunk in {steps} steps to margin {margin:.3e}");
            let verdict = Verdict::Refuted { counterexample: self.counterexample(&value)?, violation, margin, summary };
            return Ok(base(verdict, Some(margin)).detail("shrink_steps", steps).figures(figures));
        }
        if nan > 0 {
            let why = format!("{nan} of {cases} instances gave a NaN margin (numerical failure)");
            return Ok(base(Verdict::Inconclusive { why }, None));
        }
        if cases == 0 {
            return Ok(base(Verdict::Vacuous { rejected }, None));
        }
        if cases < n {
            let why = format!("only {cases} of {n} instances met the assumptions ({rejected} rejected)");
            return Ok(base(Verdict::Inconclusive { why }, closest.as_ref().map(|c| c.1)));
        }
        let (value, m) = closest.expect("cases > 0 and no violation");
        let figures = self.illustrate.as_ref().map(|f| f(&value)).unwrap_or_default();
        let evidence = if construction {
            format!("answered all {cases} task instances exactly; smallest answer margin {m:.3e}")
        } else {
            format!("{cases} instances, none violated; smallest margin {m:.3e}")
        };
        Ok(base(Verdict::Holds { evidence }, Some(m)).detail("closest_instance", &value).figures(figures))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Budget;
    use crate::mc::CpuBackend;
    use crate::progress::Silent;
    use proptest::strategy::Strategy;

    fn run<C: Check>(c: &C, seed: u64) -> Outcome {
        let bar = Silent;
        let ctx = Context { seed, budget: Budget::Quick, backend: &CpuBackend, stream_label: "test", progress: &bar };
        c.run(&ctx).unwrap()
    }

    #[test]
    fn a_false_property_is_refuted_and_shrunk_to_the_boundary() {
        // "x² ≤ 50 for x = i/100, i in [0, 10000)": false; the minimal counterexample is 7.08.
        // (Integers shrink well; proptest does not shrink f64 ranges, so instances use grids.)
        let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, 0.0, 0.0));
        let out = run(&p, 1);
        let Verdict::Refuted { counterexample, margin, .. } = &out.verdict else { panic!("{:?}", out.verdict) };
        let x = counterexample.as_f64().unwrap();
        assert_eq!(x, 7.08, "shrunk to {x}");
        assert!(*margin < 0.0);
    }

    #[test]
    fn a_true_property_holds_with_its_closest_instance() {
        let p = property([100, 100, 100], -5.0..5.0f64, |&x| Eval::le(0.0, x * x, 0.0, 1e-12));
        let out = run(&p, 2);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Holds);
        assert_eq!(out.cases, 100);
    }

    #[test]
    fn rejections_are_not_failures_and_all_rejected_is_vacuous() {
        let p = property([50, 50, 50], 0.0..1.0f64, |_| Eval::Reject("never applies"));
        assert_eq!(run(&p, 3).verdict.tag(), crate::claim::VerdictKind::Vacuous);
    }

    #[test]
    fn min_keeps_the_smaller_margin_a_reject_and_a_number_over_nan() {
        let m = |e: Eval| e.margin();
        assert_eq!(m(Eval::Margin(1.0).min(Eval::Margin(-2.0))), Some(-2.0));
        assert_eq!(m(Eval::Margin(-2.0).min(Eval::Margin(1.0))), Some(-2.0));
        assert_eq!(m(Eval::Margin(f64::NAN).min(Eval::Margin(0.5))), Some(0.5));
        assert_eq!(m(Eval::Margin(0.5).min(Eval::Margin(f64::NAN))), Some(0.5));
        assert!(m(Eval::Margin(f64::NAN).min(Eval::Margin(f64::NAN))).unwrap().is_nan());
        assert_eq!(m(Eval::Margin(1.0).min(Eval::Reject("no"))), None);
        assert_eq!(m(Eval::Reject("no").min(Eval::Margin(1.0))), None);
    }

    #[test]
    fn a_zero_margin_holds() {
        // Margin exactly 0 is the boundary of the relation: satisfied, not violated.
        let p = property([20, 20, 20], 0.0..1.0f64, |_| Eval::Margin(0.0));
        assert_eq!(run(&p, 4).verdict.tag(), crate::claim::VerdictKind::Holds);
    }

    #[test]
    fn shrinking_takes_steps_and_says_how_many() {
        let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, 0.0, 0.0));
        let summary = run(&p, 1).verdict.summary();
        let steps: u32 = summary.split("shrunk in ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).expect("steps in the summary");
        assert!(steps > 1 && steps <= 2048, "{summary}");
    }

    #[test]
    fn rejections_are_counted_up_to_the_limit() {
        // n = 50 cases: the run gives up after 20n + 1000 rejections, recording 20n + 1001.
        let p = property([50, 50, 50], 0.0..1.0f64, |_| Eval::Reject("never applies"));
        assert_eq!(run(&p, 3).details["rejected"], serde_json::json!(2001));
        // A strategy that cannot produce a value counts as rejections too.
        let p = property([50, 50, 50], (0i64..10).prop_filter("never", |_| false), |_| Eval::Margin(1.0));
        let out = run(&p, 3);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Vacuous);
        assert_eq!(out.details["rejected"], serde_json::json!(2001));
    }

    #[test]
    fn construction_is_a_construction_and_replay_reports_rejections() {
        let c = construction([10, 10, 10], 0.0..1.0f64, |&x| if x < 0.5 { Eval::Reject("below a half") } else { Eval::Margin(1.0) });
        assert_eq!(c.kind(), Kind::Construction);
        assert_eq!(property([10, 10, 10], 0.0..1.0f64, |_| Eval::Margin(1.0)).kind(), Kind::Property);
        assert!(matches!(c.replay(&serde_json::json!(0.25)).unwrap(), Replay::Rejected("below a half")));
        assert!(matches!(c.replay(&serde_json::json!(0.75)).unwrap(), Replay::Evaluated(_)));
    }

    #[test]
    fn replay_refuses_an_expansion_its_parameters_do_not_generate() {
        let p = property([10, 10, 10], 0i64..10, |&x| Eval::le(x as f64, 5.0, 0.0, 0.0)).expand(|&x| serde_json::json!({ "square": x * x }));
        let ok = serde_json::json!({ "drawn": 3, "instance": { "square": 9 } });
        assert!(p.replay(&ok).is_ok());
        let tampered = serde_json::json!({ "drawn": 3, "instance": { "square": 10 } });
        assert!(p.replay(&tampered).is_err());
    }

    #[test]
    fn same_seed_same_outcome() {
        let p = property([100, 100, 100], 0.0..100.0f64, |&x| Eval::le(x, 90.0, 0.0, 0.0));
        assert_eq!(run(&p, 9), run(&p, 9));
    }
}
