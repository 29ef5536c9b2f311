//! Running claims from Python: the shipped registry plus the caller's conjectures, selected,
//! run, replayed and reported as the command line does, with the results as the JSON the
//! command line writes. A run releases the interpreter and polls for Ctrl-C: on an interrupt no
//! new claim starts, the claims in flight finish, and `KeyboardInterrupt` is raised.

use crate::conjecture::conjecture_claim;
use crate::value_error;
use pyo3::prelude::*;
use rayon::prelude::*;
use ssmcheck::claim::replay::replay_document;
use ssmcheck::claim::{run_claim, Budget, Claim, ClaimResult, Family, Registry, Replay, RunConfig, RunResults};
use ssmcheck::mc::{Backend, BackendChoice};
use ssmcheck::report::{report_all, HtmlReport, JsonFile, Reporter};
use ssmcheck::shard::{run_shard, Shard};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The shipped claims and the caller's conjectures (Python `Conjecture` objects).
fn registry(conjectures: &[Bound<'_, PyAny>]) -> PyResult<Registry> {
    let mut registry = ssmcheck::claims::registry();
    for c in conjectures {
        registry.add(conjecture_claim(c)?);
    }
    Ok(registry)
}

fn select<'r>(registry: &'r Registry, ids: &[String], family: Option<&str>) -> PyResult<Vec<&'r Claim>> {
    let family: Option<Family> = family.map(str::parse).transpose().map_err(value_error)?;
    let claims = registry.select(ids, family.as_ref()).map_err(value_error)?;
    if claims.is_empty() {
        return Err(value_error("no claim matches the selection"));
    }
    Ok(claims)
}

/// The budget and the opened backend named by a run's arguments.
fn budget_and_backend(budget: &str, backend: &str) -> PyResult<(Budget, Box<dyn Backend>)> {
    let budget: Budget = budget.parse().map_err(value_error)?;
    let backend = backend.parse::<BackendChoice>().map_err(value_error)?.open().map_err(value_error)?;
    Ok((budget, backend))
}

/// Every selected claim's metadata (id, family, status, kind, source, statement, correction,
/// error, the negative control's mutation) as a JSON list.
#[pyfunction]
#[pyo3(signature = (ids, family, conjectures))]
pub fn claims(ids: Vec<String>, family: Option<String>, conjectures: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
    let registry = registry(&conjectures)?;
    let claims = select(&registry, &ids, family.as_deref())?;
    let metas: Vec<serde_json::Value> = claims
        .iter()
        .map(|c| {
            let mut meta = serde_json::to_value(&c.meta).map_err(value_error)?;
            meta["control"] = serde_json::json!(c.control.as_ref().map(|k| k.mutation.clone()));
            Ok(meta)
        })
        .collect::<PyResult<_>>()?;
    serde_json::to_string(&metas).map_err(value_error)
}

/// Runs `work` on its own thread with the interpreter released, polling for signals every
/// 50 ms. On a signal it sets `stop` (which `work` may read to start nothing new), waits for
/// `work` to return, and raises the signal's exception.
fn interruptibly<T: Send>(py: Python<'_>, stop: &AtomicBool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        while !worker.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(50)));
            if let Err(interrupt) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                // The claims in flight finish (a check has no cancellation point); nothing is written.
                py.detach(|| worker.join()).ok();
                return Err(interrupt);
            }
        }
        worker.join().map_err(|_| value_error("a check panicked"))
    })
}

/// Runs `claims` on `cfg`, each claim a task of the thread pool; after an interrupt no new claim
/// starts.
fn run_interruptibly(py: Python<'_>, claims: &[&Claim], cfg: &RunConfig<'_>) -> PyResult<RunResults> {
    let stop = AtomicBool::new(false);
    let run = |c: &&Claim| (!stop.load(Ordering::Relaxed)).then(|| run_claim(c, cfg));
    let results: Vec<Option<ClaimResult>> = interruptibly(py, &stop, || claims.par_iter().map(run).collect())?;
    Ok(RunResults::new(cfg.seed, cfg.budget, cfg.backend.name(), results.into_iter().flatten().collect()))
}

/// Checks the selected claims; returns the results JSON (`ssmcheck check --json`'s) and, when
/// `json` is given, writes it there too (atomically). With `shard` ("I/N") it runs that shard
/// only (`ssmcheck check --shard`), writes its part to `json` (required) for `ssmcheck merge`,
/// and returns the part.
#[pyfunction]
#[pyo3(signature = (ids, family, budget, seed, backend, progress, json, shard, conjectures))]
#[allow(clippy::too_many_arguments)]
pub fn check(
    py: Python<'_>,
    ids: Vec<String>,
    family: Option<String>,
    budget: &str,
    seed: u64,
    backend: &str,
    progress: bool,
    json: Option<std::path::PathBuf>,
    shard: Option<String>,
    conjectures: Vec<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let registry = registry(&conjectures)?;
    let claims = select(&registry, &ids, family.as_deref())?;
    let shard: Option<Shard> = shard.map(|s| s.parse()).transpose().map_err(value_error)?;
    if shard.is_some() && json.is_none() {
        return Err(value_error("a shard writes its part to a file: give json_path"));
    }
    let (budget, backend) = budget_and_backend(budget, backend)?;
    let json = json.map(JsonFile);
    if let Some(j) = &json {
        j.preflight().map_err(value_error)?;
    }
    let cfg = RunConfig { seed, budget, backend: backend.as_ref(), progress, parallel: true };
    if let (Some(shard), Some(JsonFile(path))) = (shard, &json) {
        let part = interruptibly(py, &AtomicBool::new(false), || run_shard(&claims, &cfg, shard))?;
        let text = serde_json::to_string_pretty(&part).map_err(value_error)?;
        ssmcheck::report::write_atomically(path, text.as_bytes()).map_err(value_error)?;
        return Ok(text);
    }
    let results = run_interruptibly(py, &claims, &cfg)?;
    if let Some(j) = &json {
        j.report(&results).map_err(value_error)?;
    }
    serde_json::to_string(&results).map_err(value_error)
}

/// Runs every claim (or reads `from`, results JSON files to merge) and writes the evidence
/// report (HTML, SVG, results.json) into `out`; returns the results JSON.
#[pyfunction]
#[pyo3(signature = (out, budget, seed, backend, progress, from_files, conjectures))]
#[allow(clippy::too_many_arguments)]
pub fn report(
    py: Python<'_>,
    out: std::path::PathBuf,
    budget: &str,
    seed: u64,
    backend: &str,
    progress: bool,
    from_files: Vec<std::path::PathBuf>,
    conjectures: Vec<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let html = HtmlReport(out);
    html.preflight().map_err(value_error)?;
    let results = if from_files.is_empty() {
        let registry = registry(&conjectures)?;
        let claims = select(&registry, &[], None)?;
        let (budget, backend) = budget_and_backend(budget, backend)?;
        let cfg = RunConfig { seed, budget, backend: backend.as_ref(), progress, parallel: true };
        run_interruptibly(py, &claims, &cfg)?
    } else {
        ssmcheck::report::read_merged(&from_files).map_err(value_error)?
    };
    report_all(&results, &[&html]).map_err(value_error)?;
    serde_json::to_string(&results).map_err(value_error)
}

/// Re-evaluates `instance` (a JSON document: a results JSON or the instance itself) through the
/// claim's check, or its negative control; returns `{"violation": …, "holds": …,
/// "certificate": …}` or `{"rejected": why}` as JSON.
#[pyfunction]
#[pyo3(signature = (id, instance, control, conjectures))]
pub fn replay(id: &str, instance: &str, control: bool, conjectures: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
    let registry = registry(&conjectures)?;
    let claim = registry.get(id).map_err(value_error)?;
    let json: serde_json::Value = serde_json::from_str(instance).map_err(value_error)?;
    let out = match replay_document(claim, &json, control).map_err(value_error)? {
        Replay::Rejected(why) => serde_json::json!({ "rejected": why }),
        Replay::Evaluated(v) => {
            let holds = !v.refutes();
            let certificate = (!holds && !control).then(|| ssmcheck::claim::Certificate::of(claim.meta.kind, Some(&v), claim.uncertified.as_ref()));
            serde_json::json!({ "violation": v, "holds": holds, "certificate": certificate })
        }
        other => return Err(value_error(format!("a replay outcome this binding does not know: {other:?}"))),
    };
    serde_json::to_string(&out).map_err(value_error)
}
