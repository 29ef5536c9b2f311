//! What several modules share: the `ssmcheck` binary, the whole quick budget at seed 42 run
//! once per test binary (the determinism test compares it with a one-thread run, the report
//! test reads its pages, the recomputation script its errata), the errata at two more seeds run
//! once (the search must refute them there; the script recomputes them), and the recomputation
//! of errata's counterexamples.

use serde_json::Value;
use ssmcheck::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Runs the `ssmcheck` binary with `args`.
pub fn ssmcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssmcheck")).args(args).output().expect("runs")
}

/// The seed of the shared quick run.
pub const SEED: &str = "42";

/// `ssmcheck report --budget quick --seed 42` on two threads, run by the first test that asks:
/// its output folder (`index.html`, `svg/`, `results.json`).
pub fn quick_report() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quick-report-seed42");
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new(env!("CARGO_BIN_EXE_ssmcheck"))
            .args(["report", "--budget", "quick", "--seed", SEED, "--out", dir.to_str().unwrap()])
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// The seeds besides [`SEED`] at which every erratum is run at the quick budget.
pub const ERRATA_SEEDS: [u64; 2] = [7, 1234];

/// Every erratum at the quick budget at `seed` (one of [`ERRATA_SEEDS`]), run by the first test
/// that asks and shared with the others.
pub fn quick_errata(seed: u64) -> &'static RunResults {
    static RUNS: [OnceLock<RunResults>; 2] = [OnceLock::new(), OnceLock::new()];
    let which = ERRATA_SEEDS.iter().position(|&s| s == seed).expect("one of ERRATA_SEEDS");
    RUNS[which].get_or_init(|| {
        let registry = ssmcheck::claims::registry();
        let errata: Vec<&Claim> = registry.iter().filter(|c| c.meta.status == Status::Erratum).collect();
        run_claims(&errata, &RunConfig { seed, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true })
    })
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
