//! What several modules share: the `ssmcheck` binary, results compared without their times, the
//! recomputation of errata's counterexamples, and the benchmarks' seeds.

use serde_json::Value;
use ssmcheck::claim::{run_claims, Budget, RunConfig};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;
use std::process::{Command, Output};

/// The benchmarks' seeds 1..=n, n from `SSMCHECK_BENCH_SEEDS`: 3 in a plain `cargo test` (the
/// newcomer's wait), 10 in CI (`.ci/run`), the benchmarks' stated size.
pub fn bench_seeds() -> std::ops::RangeInclusive<u64> {
    let n = std::env::var("SSMCHECK_BENCH_SEEDS").ok().map(|v| v.parse().expect("SSMCHECK_BENCH_SEEDS must be a positive integer")).unwrap_or(3);
    1..=n
}

/// Runs the `ssmcheck` binary with `args`.
pub fn ssmcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssmcheck")).args(args).output().expect("runs")
}

/// A results file's text without its claims' times (a measurement, not a result): what two runs
/// that must agree are compared on.
pub fn without_times(json: &[u8]) -> String {
    let results: ssmcheck::claim::RunResults = serde_json::from_slice(json).expect("a results file");
    assert!(results.claims.iter().all(|c| c.seconds.is_some()), "every claim that ran has a time");
    serde_json::to_string_pretty(&results.without_times()).expect("serialises")
}

/// Runs the errata `ids` at the quick budget (seed 1) and asserts that each one is refuted and
/// that `violated(id, counterexample)`, an independent recomputation from the JSON, finds the
/// violation.
pub fn assert_counterexamples_recompute(ids: &[&str], violated: impl Fn(&str, &Value) -> bool) {
    let registry = ssmcheck::claims::registry();
    let claims: Vec<&Claim> = ids.iter().map(|id| registry.get(id).unwrap()).collect();
    let cfg = RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true };
    for c in run_claims(&claims, &cfg).claims {
        let cx = c.result.counterexample.as_ref().unwrap_or_else(|| panic!("{}: not refuted", c.meta.id));
        assert!(violated(&c.meta.id, cx), "{}: counterexample does not recompute to a violation: {cx}", c.meta.id);
    }
}
