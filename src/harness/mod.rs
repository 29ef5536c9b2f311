//! `cargo test` with one test per claim: a custom test harness ([`libtest`]: libtest's command
//! line and output) over a list of
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
//! if any), and, when it ran parallel code, when a second run on one thread gives the same
//! results JSON — except a trained experiment ([`Kind::Training`]), whose rerun would double the
//! quick budget's longest claims: its runs are independent jobs collected in order, and the
//! trainers' own tests (`src/train/`) and the command line's (`tests/integration/determinism.rs`,
//! with `000.figA3`) check that training gives the same bits on one thread. The seed and budget
//! come from `SSMCHECK_SEED` and `SSMCHECK_BUDGET` (default 1, quick); `SSMCHECK_THREAD_CHECK=0`
//! leaves out the one-thread reruns (a second seed after a run that checked thread independence);
//! `SSMCHECK_RESULTS=FILE` also writes the results JSON, which
//! `ssmcheck report --from FILE` renders (beside the shipped claims' results, if given both).
//! [`run`] is `main` returning the results too, for a target that then checks the run as a
//! whole (the suite's own `tests/each_claim/` renders its report and recomputes its errata).
//! Claims start longest first (by the shard planner's cost estimates, a claim it does not know
//! costing the median) and report as they finish; the final table is in the order given.

pub mod libtest;

use crate::claim::{run_claim, Claim, ClaimResult, Kind, RunConfig, RunResults, RunSettings};
use crate::report::{JsonFile, Reporter, TerminalTable};
use libtest::{Arguments, Test};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Runs one claim as a test: its result, and why the test fails (its verdict does not agree
/// with its status, or it ran parallel code and its results differ on one thread — trained
/// experiments aside, see the module's doc), if it does.
pub fn run_as_test(claim: &Claim, cfg: &RunConfig) -> (ClaimResult, Option<String>) {
    run_as_test_checking(claim, cfg, true)
}

/// [`run_as_test`], with the one-thread rerun only when `thread_check` (`SSMCHECK_THREAD_CHECK`).
fn run_as_test_checking(claim: &Claim, cfg: &RunConfig, thread_check: bool) -> (ClaimResult, Option<String>) {
    let before = crate::parallel::sections();
    let result = run_claim(claim, cfg);
    let mut failure = (!result.agrees).then(|| result.to_string());
    if thread_check && failure.is_none() && claim.meta.kind != Kind::Training && crate::parallel::sections() > before {
        failure = differs_on_one_thread(claim, cfg, &result);
    }
    (result, failure)
}

/// Same seed, same results, whatever the thread count: a claim that ran parallel code
/// ([`crate::parallel`]) is run again on a pool of one thread; the failure message when its
/// results JSON differs from the first run's.
fn differs_on_one_thread(claim: &Claim, cfg: &RunConfig, result: &ClaimResult) -> Option<String> {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool,
        Err(e) => return Some(format!("cannot start a one-thread pool to check thread independence: {e}")),
    };
    let again = pool.install(|| run_claim(claim, cfg));
    let json = |r: &ClaimResult| serde_json::to_string_pretty(&r.clone().without_time()).unwrap_or_default();
    let (many, one) = (json(result), json(&again));
    let threads = rayon::current_num_threads();
    (many != one).then(|| {
        let line = many.lines().zip(one.lines()).position(|(a, b)| a != b).unwrap_or(0);
        format!(
            "{}: the results differ between {threads} threads and 1 (first difference at line {} of its JSON: {:?} vs {:?})",
            claim.meta.id,
            line + 1,
            many.lines().nth(line).unwrap_or(""),
            one.lines().nth(line).unwrap_or("")
        )
    })
}

/// Runs `claims` as tests (libtest's command-line arguments apply: filters, `--list`,
/// `--exact`, `--test-threads`) and returns the exit code.
pub fn main(claims: Vec<Claim>) -> ExitCode {
    run(claims).exit_code()
}

/// What a run of the harness leaves: the results of the claims that ran (in the order given;
/// empty when none ran: a filter, `--list`, or a bad setting) and whether it passed. A test target that checks
/// the run as a whole (its report, its errata recomputed) reads `results`.
pub struct Finished {
    /// The results of the claims that ran, at the run's seed and budget.
    pub results: RunResults,
    /// Whether a test failed (libtest has printed which).
    pub tests_failed: bool,
    /// A bad setting in the environment or an unwritable results file (printed as one line).
    pub error: Option<String>,
}

impl Finished {
    /// 2 for an error, 101 (libtest's code) when a test failed, otherwise 0.
    pub fn exit_code(&self) -> ExitCode {
        match (&self.error, self.tests_failed) {
            (Some(_), _) => ExitCode::from(2),
            (None, true) => ExitCode::from(101),
            (None, false) => ExitCode::SUCCESS,
        }
    }

    /// A run that cannot pass for `why`, printed as one error line.
    fn error(results: RunResults, why: String) -> Self {
        eprintln!("error: {why}");
        Finished { results, tests_failed: false, error: Some(why) }
    }
}

/// Whether to rerun a claim that ran parallel code on one thread, from `SSMCHECK_THREAD_CHECK`'s
/// value: unset or `1` yes, `0` no, anything else an error naming the variable.
fn thread_check(value: Option<&str>) -> Result<bool, String> {
    match value.map(str::trim) {
        None | Some("1") => Ok(true),
        Some("0") => Ok(false),
        Some(other) => Err(format!("SSMCHECK_THREAD_CHECK='{other}' is neither 0 (no one-thread reruns) nor 1 (the default)")),
    }
}

/// [`main`], returning the results instead of only the exit code; a bad setting or an
/// unwritable results file is printed as one error line.
pub fn run(claims: Vec<Claim>) -> Finished {
    // Before any thread allocates: training keeps its freed memory per arena.
    #[cfg(feature = "train")]
    crate::train::allocator::cap_arenas();
    let nothing = || RunResults::new(1, crate::claim::Budget::Quick, "cpu", Vec::new());
    let args = match Arguments::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(why) => return Finished::error(nothing(), why),
    };
    let settings = match RunSettings::from_env() {
        Ok(s) => s,
        Err(e) => return Finished::error(nothing(), e.to_string()),
    };
    let thread_check = match thread_check(std::env::var("SSMCHECK_THREAD_CHECK").ok().as_deref()) {
        Ok(on) => on,
        Err(why) => return Finished::error(nothing(), why),
    };
    let done: Arc<Mutex<Vec<(usize, ClaimResult)>>> = Arc::default();
    let mut claims: Vec<(usize, Claim)> = claims.into_iter().enumerate().collect();
    if !args.list {
        // The longest first (the shard planner's estimates), so that the run does not end on one
        // long claim with the other threads idle; results and the table keep the given order.
        let cost = |c: &Claim| crate::shard::plan::estimated_cost(&c.meta.id, settings.budget);
        claims.sort_by(|(i, a), (j, b)| cost(b).total_cmp(&cost(a)).then(i.cmp(j)));
    }
    let tests: Vec<Test> = claims
        .into_iter()
        .map(|(i, claim)| {
            let (name, kind) = (claim.meta.id.clone(), claim.meta.family.name().to_string());
            let done = Arc::clone(&done);
            let run = Box::new(move || {
                let cfg = RunConfig { seed: settings.seed, budget: settings.budget, backend: &crate::mc::CpuBackend, progress: false, parallel: false };
                let (result, failure) = run_as_test_checking(&claim, &cfg, thread_check);
                done.lock().expect("no test panicked holding the lock").push((i, result));
                failure.map_or(Ok(()), Err)
            });
            Test { name, kind, run }
        })
        .collect();
    let conclusion = libtest::run(&args, tests);
    let mut results: Vec<(usize, ClaimResult)> = std::mem::take(&mut *done.lock().expect("the tests are over"));
    results.sort_by_key(|(i, _)| *i);
    let run = RunResults::new(settings.seed, settings.budget, "cpu", results.into_iter().map(|(_, r)| r).collect());
    if !run.claims.is_empty() {
        println!();
        let _ = TerminalTable.report(&run);
    }
    let json = std::env::var("SSMCHECK_RESULTS").ok().map(|p| JsonFile(p.into()));
    if let Err(e) = json.map_or(Ok(()), |j| j.report(&run)) {
        return Finished::error(run, e.to_string());
    }
    Finished { results: run, tests_failed: conclusion.has_failed(), error: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{custom, Family, Kind, Outcome, Verdict};
    use crate::mc::CpuBackend;

    #[test]
    fn the_thread_check_is_on_unless_turned_off() {
        assert_eq!(thread_check(None), Ok(true));
        assert_eq!(thread_check(Some("1")), Ok(true));
        assert_eq!(thread_check(Some(" 0 ")), Ok(false));
        assert!(thread_check(Some("no")).unwrap_err().contains("SSMCHECK_THREAD_CHECK='no'"));
    }

    fn cfg() -> RunConfig<'static> {
        RunConfig { seed: 1, budget: crate::claim::Budget::Quick, backend: &CpuBackend, progress: false, parallel: false }
    }

    /// A conjecture whose evidence reports the thread count of the parallel code it runs.
    fn reporting_threads(id: &str, parallel: bool) -> Claim {
        let check = custom(Kind::Property, move |_| {
            if parallel {
                crate::parallel::enter();
            }
            let threads = rayon::current_num_threads();
            Ok(Outcome::new(Verdict::Holds { evidence: "counted".into() }, 1, Some(1.0)).detail("threads", threads))
        });
        Claim::conjecture(id, Family::USER, "the thread count does not matter", check)
    }

    #[test]
    fn a_result_that_depends_on_the_thread_count_fails_its_test() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        // On two threads, a claim whose parallel code reports the thread count differs on one.
        let (_, failure) = pool.install(|| run_as_test(&reporting_threads("user.threads", true), &cfg()));
        let failure = failure.expect("the difference is caught");
        assert!(failure.contains("differ between 2 threads and 1") && failure.contains("threads"), "{failure}");
        // A claim that ran no parallel code is not run again.
        let (result, failure) = pool.install(|| run_as_test(&reporting_threads("user.serial", false), &cfg()));
        assert!(failure.is_none() && result.agrees);
    }
}
