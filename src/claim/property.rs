//! The property judge: a thin layer over proptest strategies and value trees.
//!
//! A property maps an instance to a signed, scale-aware margin ([`Eval::Margin`]; negative
//! means the claim is violated) or rejects it ([`Eval::Reject`], assumptions not met — distinct
//! from failure). The judge samples instances from proptest's ChaCha RNG seeded by
//! (seed, claim id), counts every violation (so the violation rate is reported, with a
//! Clopper–Pearson interval), shrinks the first one with proptest's simplify/complicate
//! protocol, and keeps the instance closest to the boundary when nothing fails.

use super::budget::Context;
use super::evidence::Figure;
use super::meta::Kind;
use super::verdict::{Check, Outcome, Verdict};
use crate::error::Result;
use crate::stats::clopper_pearson;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::Serialize;
use std::fmt::Debug;

/// The evaluation of one instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// Signed margin: ≥ 0 satisfies the claim, < 0 violates it.
    Margin(f64),
    /// The instance does not meet the claim's assumptions.
    Reject(&'static str),
}

impl Eval {
    /// The margin of `lhs ≤ rhs` on a relative scale with absolute and relative tolerance:
    /// `(rhs − lhs + atol + rtol·scale) / (|lhs| + |rhs| + atol)`.
    pub fn le(lhs: f64, rhs: f64, rtol: f64, atol: f64) -> Eval {
        let scale = lhs.abs().max(rhs.abs());
        let denom = lhs.abs() + rhs.abs() + atol;
        if denom == 0.0 {
            return Eval::Margin(1.0); // 0 ≤ 0
        }
        Eval::Margin((rhs - lhs + atol + rtol * scale) / denom)
    }
    /// The margin of `|got − want| ≤ rtol·scale + atol`: `1 − err/(rtol·scale + atol)`.
    pub fn close(err: f64, scale: f64, rtol: f64, atol: f64) -> Eval {
        let tol = rtol * scale + atol;
        if tol == 0.0 {
            // Exact equality demanded: any error violates it (finite, so JSON can carry it).
            return Eval::Margin(if err == 0.0 { 1.0 } else { f64::MIN });
        }
        Eval::Margin(1.0 - err / tol)
    }
    /// The smaller of two margins (a reject wins).
    pub fn min(self, other: Eval) -> Eval {
        match (self, other) {
            (Eval::Margin(a), Eval::Margin(b)) => Eval::Margin(a.min(b)),
            (r @ Eval::Reject(_), _) | (_, r @ Eval::Reject(_)) => r,
        }
    }
}

type Illustrate<V> = Box<dyn Fn(&V) -> Vec<Figure> + Send + Sync>;

/// A property check over instances drawn from a proptest strategy.
pub struct Property<S: Strategy, F> {
    cases: [u64; 3],
    strategy: S,
    eval: F,
    max_shrink_iters: u32,
    illustrate: Option<Illustrate<S::Value>>,
}

/// A property check: `cases` instances at the quick, standard and deep budgets, drawn from
/// `strategy` and judged by `eval`.
pub fn property<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    Property { cases, strategy, eval, max_shrink_iters: 2048, illustrate: None }
}

impl<S: Strategy, F> Property<S, F> {
    /// Figures drawn from the counterexample (or, when the claim holds, from the instance
    /// closest to violating it).
    pub fn illustrate(mut self, f: impl Fn(&S::Value) -> Vec<Figure> + Send + Sync + 'static) -> Self {
        self.illustrate = Some(Box::new(f));
        self
    }
}

fn violated(e: Eval) -> Option<f64> {
    match e {
        Eval::Margin(m) if m < 0.0 => Some(m),
        _ => None,
    }
}

impl<S, F> Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    /// Shrinks a failing value tree; returns the simplest failing value, its margin and the
    /// number of shrink steps taken.
    fn shrink(&self, mut tree: S::Tree, mut best: S::Value, mut best_m: f64) -> (S::Value, f64, u32) {
        let mut steps = 0;
        if !tree.simplify() {
            return (best, best_m, steps);
        }
        while steps < self.max_shrink_iters {
            steps += 1;
            let candidate = tree.current();
            if let Some(m) = violated((self.eval)(&candidate)) {
                best = candidate;
                best_m = m;
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

impl<S, F> Check for Property<S, F>
where
    S: Strategy + Send + Sync,
    S::Value: Serialize + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync,
{
    fn kind(&self) -> Kind {
        Kind::Property
    }

    fn run(&self, ctx: &Context) -> Result<Outcome> {
        let n = ctx.budget.pick(self.cases[0], self.cases[1], self.cases[2]);
        let config = Config { cases: n as u32, failure_persistence: None, ..Config::default() };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &ctx.proptest_seed());
        let mut runner = TestRunner::new_with_rng(config, rng);
        ctx.progress.set_length(n);
        let max_rejects = 20 * n + 1000;
        let (mut cases, mut rejected, mut violations, mut nan) = (0u64, 0u64, 0u64, 0u64);
        let mut closest: Option<(S::Value, f64)> = None;
        let mut first: Option<(S::Value, f64, u32, u64)> = None;
        while cases < n && rejected <= max_rejects {
            let Ok(tree) = self.strategy.new_tree(&mut runner) else {
                rejected += 1;
                continue;
            };
            let value = tree.current();
            match (self.eval)(&value) {
                Eval::Reject(_) => rejected += 1,
                Eval::Margin(m) => {
                    cases += 1;
                    ctx.progress.inc(1);
                    if m.is_nan() {
                        nan += 1;
                    } else if m < 0.0 {
                        violations += 1;
                        if first.is_none() {
                            let (v, sm, steps) = self.shrink(tree, value, m);
                            first = Some((v, sm, steps, cases));
                        }
                    } else if closest.as_ref().is_none_or(|(_, c)| m < *c) {
                        closest = Some((value, m));
                    }
                }
            }
        }
        let rate = (cases > 0).then(|| clopper_pearson(violations, cases, 0.95));
        let base = |verdict, margin| {
            Outcome::new(verdict, cases, margin)
                .detail("cases", cases)
                .detail("rejected", rejected)
                .detail("violations", violations)
                .detail("violation_rate_95", rate)
        };
        if let Some((value, margin, steps, found_at)) = first {
            let figures = self.illustrate.as_ref().map(|f| f(&value)).unwrap_or_default();
            let summary = format!(
                "violated by {violations} of {cases} instances (first at #{found_at}); shrunk in {steps} steps to margin {margin:.3e}"
            );
            let verdict = Verdict::Refuted { counterexample: serde_json::to_value(&value)?, margin, summary };
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
        let evidence = format!("{cases} instances, none violated; smallest margin {m:.3e}");
        Ok(base(Verdict::Holds { evidence }, Some(m)).detail("closest_instance", &value).figures(figures))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Budget;
    use crate::mc::CpuBackend;
    use indicatif::ProgressBar;
    use proptest::strategy::Strategy;

    fn run<C: Check>(c: &C, seed: u64) -> Outcome {
        let bar = ProgressBar::hidden();
        let ctx = Context { seed, budget: Budget::Quick, backend: &CpuBackend, stream_label: "test", progress: &bar };
        c.run(&ctx).unwrap()
    }

    #[test]
    fn a_false_property_is_refuted_and_shrunk_to_the_boundary() {
        // "x² ≤ 50 for x = i/100, i in [0, 10000)": false; the minimal counterexample is 7.08.
        // (Integers shrink well; proptest does not shrink f64 ranges, so instances use grids.)
        let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| {
            Eval::le(x * x, 50.0, 0.0, 0.0)
        });
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
        assert_eq!(out.verdict.tag(), "holds");
        assert_eq!(out.cases, 100);
    }

    #[test]
    fn rejections_are_not_failures_and_all_rejected_is_vacuous() {
        let p = property([50, 50, 50], 0.0..1.0f64, |_| Eval::Reject("never applies"));
        assert_eq!(run(&p, 3).verdict.tag(), "vacuous");
    }

    #[test]
    fn same_seed_same_outcome() {
        let p = property([100, 100, 100], 0.0..100.0f64, |&x| Eval::le(x, 90.0, 0.0, 0.0));
        assert_eq!(run(&p, 9), run(&p, 9));
    }
}
