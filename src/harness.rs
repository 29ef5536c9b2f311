//! `cargo test` with one test per claim: a custom test harness (libtest-mimic) over a list of
//! claims, so `cargo test -- 004.cor1` runs one claim, `cargo test -- --list` lists them, and
//! the output ends with every claim's verdict.
//!
//! A test target with `harness = false` in `Cargo.toml` and this `main`:
//!
//! ```no_run
//! fn main() -> std::process::ExitCode {
//!     ssmcheck::harness::main(ssmcheck::claims::registry().into_claims())
//! }
//! ```
//!
//! Each claim passes when its verdict agrees with its status (a theorem holds and its control is
//! refuted, an erratum is refuted, a conjecture has the verdict it [expects](crate::claim::Claim::expect),
//! if any). The seed and budget come from `SSMCHECK_SEED` and `SSMCHECK_BUDGET` (default 1,
//! quick); `SSMCHECK_RESULTS=FILE` also writes the results JSON, which
//! `ssmcheck report --from FILE` renders (beside the shipped claims' results, if given both).

use crate::claim::{run_claim, Claim, ClaimResult, RunConfig, RunResults, RunSettings};
use crate::report::{JsonFile, Reporter, TerminalTable};
use libtest_mimic::{Arguments, Failed, Trial};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Runs `claims` as tests (libtest's command-line arguments apply: filters, `--list`,
/// `--exact`, `--test-threads`) and returns the exit code.
pub fn main(claims: Vec<Claim>) -> ExitCode {
    let args = Arguments::from_args();
    let settings = match RunSettings::from_env() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let done: Arc<Mutex<Vec<(usize, ClaimResult)>>> = Arc::default();
    let trials: Vec<Trial> = claims
        .into_iter()
        .enumerate()
        .map(|(i, claim)| {
            let (name, family) = (claim.meta.id.clone(), claim.meta.family.name().to_string());
            let done = Arc::clone(&done);
            Trial::test(name, move || {
                let cfg = RunConfig { seed: settings.seed, budget: settings.budget, backend: &crate::mc::CpuBackend, progress: false, parallel: false };
                let result = run_claim(&claim, &cfg);
                let failure = (!result.agrees).then(|| result.to_string());
                done.lock().expect("no test panicked holding the lock").push((i, result));
                failure.map_or(Ok(()), |f| Err(Failed::from(f)))
            })
            .with_kind(family)
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    let mut results: Vec<(usize, ClaimResult)> = std::mem::take(&mut *done.lock().expect("the tests are over"));
    results.sort_by_key(|(i, _)| *i);
    let run = RunResults::new(settings.seed, settings.budget, "cpu", results.into_iter().map(|(_, r)| r).collect());
    let json = std::env::var("SSMCHECK_RESULTS").ok().map(|p| JsonFile(p.into()));
    if !run.claims.is_empty() {
        println!();
        let _ = TerminalTable.report(&run);
    }
    if let Err(e) = json.map_or(Ok(()), |j| j.report(&run)) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    conclusion.exit_code()
}
