//! The property judge on small statements with known answers.

use super::*;
use crate::claim::budget::{Budget, Context};
use crate::claim::verdict::Verdict;
use crate::claim::{Scale, Tolerance};
use crate::mc::CpuBackend;
use crate::progress::Silent;
use proptest::strategy::Strategy;

const BAR: Silent = Silent;

fn ctx() -> Context<'static> {
    Context::new(1, Budget::Quick, &CpuBackend, "test", &BAR)
}

fn run<C: Check>(c: &C, seed: u64) -> Outcome {
    let bar = Silent;
    let ctx = Context::new(seed, Budget::Quick, &CpuBackend, "test", &bar);
    c.run(&ctx).unwrap()
}

#[test]
fn a_false_property_is_refuted_and_shrunk_to_the_boundary() {
    // "x² ≤ 50 for x = i/100, i in [0, 10000)": false; the minimal counterexample is 7.08.
    // (Integers shrink well; proptest does not shrink f64 ranges, so instances use grids.)
    let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, Tolerance::NONE));
    let out = run(&p, 1);
    let Verdict::Refuted { counterexample, margin, .. } = &out.verdict else { panic!("{:?}", out.verdict) };
    let x = counterexample.as_f64().unwrap();
    assert_eq!(x, 7.08, "shrunk to {x}");
    assert!(*margin < 0.0);
}

#[test]
fn a_true_property_holds_with_its_closest_instance() {
    let p = property([100, 100, 100], -5.0..5.0f64, |&x| Eval::le(0.0, x * x, Tolerance::absolute(1e-12)));
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
fn a_zero_margin_holds() {
    // Margin exactly 0 is the boundary of the relation: satisfied, not violated.
    let p = property([20, 20, 20], 0.0..1.0f64, |_| Eval::Margin(0.0));
    assert_eq!(run(&p, 4).verdict.tag(), crate::claim::VerdictKind::Holds);
}

#[test]
fn shrinking_takes_steps_and_says_how_many() {
    let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, Tolerance::NONE));
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
    assert!(matches!(c.replay(&serde_json::json!(0.25), &ctx()).unwrap(), Replay::Rejected("below a half")));
    assert!(matches!(c.replay(&serde_json::json!(0.75), &ctx()).unwrap(), Replay::Evaluated(_)));
}

#[test]
fn replay_refuses_an_expansion_its_parameters_do_not_generate() {
    let p = property([10, 10, 10], 0i64..10, |&x| Eval::le(x as f64, 5.0, Tolerance::NONE)).expand(|&x| serde_json::json!({ "square": x * x }));
    let ok = serde_json::json!({ "drawn": 3, "instance": { "square": 9 } });
    assert!(p.replay(&ok, &ctx()).is_ok());
    let tampered = serde_json::json!({ "drawn": 3, "instance": { "square": 10 } });
    assert!(p.replay(&tampered, &ctx()).is_err());
}

fn run_at(c: &impl Check, seed: u64, budget: Budget) -> Outcome {
    let bar = Silent;
    c.run(&Context::new(seed, budget, &CpuBackend, "test", &bar)).unwrap()
}

/// The strategy shapes that once made the search spin forever (a replay of a forking draw
/// reads zeros, which a rejection sampler never accepts) finish at every budget: a vector
/// of proptest unions (nested, with a range whose size is not a power of two), a filter,
/// and a size drawn by `prop_flat_map`.
#[test]
fn forking_strategies_finish_at_every_budget_and_say_why_the_search_is_off() {
    let inner = proptest::prop_oneof![4 => 0i64..1000, 1 => proptest::strategy::Just(0i64), 1 => (0i64..999).prop_map(|i| 999 - i)];
    let nested = proptest::prop_oneof![inner.clone(), inner.prop_map(|x| x / 3)];
    let strategy =
        (2usize..=24).prop_flat_map(move |n| proptest::collection::vec(nested.clone(), n)).prop_filter("not all zero", |v| v.iter().any(|&x| x != 0));
    let p = property([60, 60, 60], strategy, |v: &Vec<i64>| Eval::le(v.iter().sum::<i64>() as f64, 24_000.0, Tolerance::NONE));
    for budget in [Budget::Quick, Budget::Standard, Budget::Deep] {
        let out = run_at(&p, 1, budget);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Holds, "{budget:?}: {:?}", out.verdict);
        if budget != Budget::Quick {
            let why = out.details["search"]["unavailable"].as_str().unwrap_or_default();
            assert!(why.contains("forked its RNG") && why.contains("one_of"), "{why}");
        }
    }
    // Over the suite's fork-free union the same shape is searched: every evaluation the
    // budget gives it is made.
    let corner = crate::strategy::edge_biased(0.0, 1.0);
    let p = property([200, 200, 200], proptest::collection::vec(corner, 24), |v: &Vec<f64>| Eval::le(v.iter().sum::<f64>(), 24.0, Tolerance::NONE));
    let out = run_at(&p, 1, Budget::Standard);
    assert!(out.details["search"].get("unavailable").is_none(), "{}", out.details["search"]);
    assert_eq!(out.details["search"]["evaluations"], 100, "{}", out.details["search"]);
}

#[test]
fn a_property_past_its_time_limit_ends_inconclusive_and_names_its_strategy() {
    let slow = property([1000, 1000, 1000], 0i64..10, |&x| {
        std::thread::sleep(std::time::Duration::from_millis(2));
        Eval::le(x as f64, 100.0, Tolerance::NONE)
    });
    let bar = Silent;
    let ctx = Context::new(1, Budget::Standard, &CpuBackend, "test", &bar).with_time_limit(std::time::Duration::from_millis(100));
    let out = slow.run(&ctx).unwrap();
    let Verdict::Inconclusive { why } = &out.verdict else { panic!("{:?}", out.verdict) };
    assert!(why.contains("time limit") && why.contains("Range<i64>"), "{why}");
    assert!(out.cases < 1000);
    // A refutation found before the limit stands.
    let false_and_slow = property([1000, 1000, 1000], 0i64..10, |&x| {
        std::thread::sleep(std::time::Duration::from_millis(2));
        Eval::le(x as f64, -1.0, Tolerance::NONE)
    });
    let ctx = Context::new(1, Budget::Standard, &CpuBackend, "test", &bar).with_time_limit(std::time::Duration::from_millis(100));
    assert_eq!(false_and_slow.run(&ctx).unwrap().verdict.tag(), crate::claim::VerdictKind::Refuted);
}

#[test]
fn the_search_finds_a_thin_corner_and_says_how() {
    // "x ≤ 1 − 10⁻⁵ on [0, 1]": violated on 10⁻⁵ of the grid; 200 random draws miss it.
    let p = property([200, 200, 200], crate::strategy::real(0.0, 1.0), |x| Eval::le_by(*x, 1.0 - 1e-5, Scale(1.0), Tolerance::NONE));
    assert_eq!(run(&p, 1).verdict.tag(), crate::claim::VerdictKind::Holds, "quick: random only");
    let out = run_at(&p, 1, Budget::Standard);
    assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Refuted, "{:?}", out.verdict);
    assert_ne!(out.details["found_by"], serde_json::json!("random"));
    assert!(out.details["search"]["evaluations"].as_u64().unwrap() <= 100);
    // Off: random instances only, at any budget.
    let off = property([200, 200, 200], crate::strategy::real(0.0, 1.0), |x| Eval::le_by(*x, 1.0 - 1e-5, Scale(1.0), Tolerance::NONE)).search(Search::Off);
    assert_eq!(run_at(&off, 1, Budget::Standard).verdict.tag(), crate::claim::VerdictKind::Holds);
}

#[test]
fn ties_are_counted_apart_and_the_worst_strict_violation_is_shown() {
    // x < 5 on the integers 0..10 with a rounding band of 0.5: x = 5 ties (not a refutation),
    // x > 5 violates; the counterexample shrinks within the strict violations to 6.
    let p = property([300, 300, 300], 0i64..10, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::absolute(0.5)));
    let out = run(&p, 2);
    assert!(out.details["ties"].as_u64().unwrap() > 0 && out.details["violations"].as_u64().unwrap() > 0);
    let Verdict::Refuted { counterexample, violation, .. } = &out.verdict else { panic!("{:?}", out.verdict) };
    assert_eq!((counterexample.as_i64(), violation.lhs), (Some(6), 6.0));
    // Ties alone do not refute a relation computed with rounding.
    let ties_only = property([100, 100, 100], 0i64..6, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::absolute(0.5)));
    assert_eq!(run(&ties_only, 2).verdict.tag(), crate::claim::VerdictKind::Holds);
    // An exactly computed strict relation is refuted by equality, shown as a tie.
    let exact = property([100, 100, 100], 0i64..6, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::NONE));
    assert!(run(&exact, 2).verdict.summary().contains("exact tie"));
}

#[test]
fn a_hypothesis_is_counted_apart_and_its_edge_is_searched() {
    // "if x + y ≤ 1 then x·y < 0.249" on [0, 1]²: false only where x + y ≥ 0.998 and
    // |x − y| ≤ 0.063, a sliver of area ~10⁻⁴ at the hypothesis's edge.
    let p = property([1000, 1000, 1000], (crate::strategy::real(0.0, 1.0), crate::strategy::real(0.0, 1.0)), |(x, y)| {
        Eval::lt(x * y, 0.249, Scale(1.0), Tolerance::NONE)
    })
    .given("x + y ≤ 1", |(x, y)| 1.0 - x - y);
    let out = run_at(&p, 3, Budget::Standard);
    assert!(out.details["outside_hypothesis"].as_u64().unwrap() > 300);
    assert_eq!(out.details["hypothesis"], serde_json::json!("x + y ≤ 1"));
    assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Refuted, "{:?}", out.verdict);
    assert!(matches!(p.replay(&serde_json::json!([0.9, 0.9]), &ctx()).unwrap(), Replay::Rejected(_)));
}

#[test]
fn a_certificate_of_a_conditional_statement_needs_its_hypothesis_enclosed() {
    use crate::claim::{Certificate, Uncertified};
    use crate::math::Interval;
    // "if n is odd then n < 5" on 0..10, both sides exact: the conclusion's violation is
    // certified, the statement's refutation only when the hypothesis is too.
    let statement =
        || {
            property([200, 200, 200], 0i64..10, |&n| Eval::lt(Interval::exact(n as f64), Interval::exact(5.0), Scale(1.0), Tolerance::NONE))
                .given("n odd", |&n| if n % 2 == 1 { 1.0 } else { -1.0 })
        };
    let certificate = |p: &Property<_, _>| {
        let Verdict::Refuted { violation, .. } = run(p, 1).verdict else { panic!("not refuted") };
        Certificate::of(crate::claim::Kind::Property, Some(&violation), None)
    };
    let floats = certificate(&statement());
    assert!(matches!(&floats, Certificate::NotCertified { reason: Uncertified::Hypothesis, .. }), "{floats}");
    assert!(floats.to_string().contains("\"n odd\" was judged in floating point"), "{floats}");
    let exact = certificate(&statement().certify_given(|&n| Eval::holds_exactly(n % 2 == 1)));
    assert!(exact.is_certified(), "{exact}");
    // An enclosed hypothesis that does not hold certainly (an overlap) does not certify.
    let overlapping = certificate(&statement().certify_given(|_| Eval::ge_by(Interval::new(-1.0, 1.0), Interval::exact(0.0), Scale(1.0), Tolerance::NONE)));
    assert!(matches!(overlapping, Certificate::NotCertified { reason: Uncertified::Hypothesis, .. }), "{overlapping}");
}

#[test]
fn same_seed_same_outcome() {
    let p = property([100, 100, 100], 0.0..100.0f64, |&x| Eval::le(x, 90.0, Tolerance::NONE));
    assert_eq!(run(&p, 9), run(&p, 9));
}
