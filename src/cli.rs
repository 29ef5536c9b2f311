//! The `ssmcheck` command line: list, check (whole or one shard), merge, explain, replay, report,
//! bench and export — over any registry. `ssmcheck`'s own binary passes the shipped claims; a
//! user's binary can pass its own (see [`main_with`]).

use crate::claim::{run_claims, Budget, Family, Registry, RunConfig, RunResults};
use crate::error::{Error, Result};
use crate::mc::BackendChoice;
use crate::report::{report_all, HtmlReport, JsonFile, Reporter, TerminalTable};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "ssmcheck", version, about = "Property-based verification of the theory of Mamba and state-space models")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Budget: quick (seconds per family), standard (minutes in all), deep (long horizons).
    #[arg(long, default_value = "standard")]
    budget: Budget,
    /// Seed of every random stream (same seed, same results).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Monte Carlo backend: auto, cpu, cuda, or shim (the CUDA kernels run on the CPU).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
}

#[derive(Subcommand)]
enum Command {
    /// List the registered claims.
    List {
        /// Only this family (`list` shows each claim's; shipped: decay, stability, haar, recall, copy, cot, realization).
        #[arg(long)]
        family: Option<Family>,
        /// Print each claim's metadata (id, family, status, kind, source, statement, correction,
        /// error) as one JSON object per line, as the results JSON records it.
        #[arg(long)]
        json: bool,
    },
    /// Check claims and print a verdict table; exits non-zero when a verdict contradicts its status.
    Check {
        /// Claim ids (all when none).
        ids: Vec<String>,
        /// Only this family (`list` shows each claim's; shipped: decay, stability, haar, recall, copy, cot, realization).
        #[arg(long)]
        family: Option<Family>,
        #[command(flatten)]
        run: RunArgs,
        /// Write the results as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Run only shard I of N of this selection (0 ≤ I < N, e.g. `$SLURM_ARRAY_TASK_ID/8`)
        /// and write its part to `--json`; `ssmcheck merge` combines the N parts.
        #[arg(long, value_name = "I/N", requires = "json")]
        shard: Option<crate::shard::Shard>,
    },
    /// Merge the parts of a sharded run (`check --shard I/N --json part-I.json`) into the
    /// results the single process gives; exits non-zero when a verdict contradicts its status.
    Merge {
        /// The N parts, in any order.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// Write the merged results to this file (only when every part fits).
        #[arg(long)]
        json: PathBuf,
    },
    /// Run every claim and write the evidence report (HTML + SVG + results.json).
    Report {
        /// Output directory.
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        #[command(flatten)]
        run: RunArgs,
        /// Render from existing results JSON instead of running the checks; several files (e.g.
        /// the shipped claims' and your conjectures' from `SSMCHECK_RESULTS`) are merged, and
        /// must share seed and budget.
        #[arg(long, num_args = 1..)]
        from: Vec<PathBuf>,
    },
    /// Re-evaluate one instance through a claim's check and print both sides of its relation
    /// and the margin: a counterexample from results JSON, or a candidate of your own.
    Replay {
        /// Claim id.
        id: String,
        /// A JSON file holding the instance, or a results JSON (the claim's counterexample is
        /// taken from it; `--control` takes its negative control's).
        #[arg(long)]
        counterexample: PathBuf,
        /// Replay through the claim's negative control (the mutant) instead of the claim.
        #[arg(long)]
        control: bool,
    },
    /// Check (or with `--write` rewrite) the claim tables generated from the registry in
    /// documents: the blocks between `<!-- generated: status FAMILY -->` (or `errata FAMILY`,
    /// `counts`) and `<!-- end generated -->`; exits non-zero naming each stale file.
    Tables {
        /// The documents (the suite's: README.md proofs/*.md).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rewrite the stale blocks in place.
        #[arg(long)]
        write: bool,
    },
    /// Show a claim's statement, source, correction and check.
    Explain {
        /// Claim id.
        id: String,
    },
    /// Write MQAR instances as JSON lines in the Zoology layout ({"inputs": [...], "labels": [...]},
    /// labels −100 off the queries), to feed the same data to other models.
    Export {
        /// Keys κ.
        #[arg(long, default_value_t = 8)]
        keys: usize,
        /// Values |V|.
        #[arg(long, default_value_t = 128)]
        values: usize,
        /// Sequence length T (≥ 4κ).
        #[arg(long, default_value_t = 100)]
        len: usize,
        /// Number of sequences.
        #[arg(long, default_value_t = 1000)]
        count: u64,
        /// Zoology vocabulary size (keys take ids 1..vocab/2, values vocab/2..vocab).
        #[arg(long, default_value_t = 8192)]
        vocab: usize,
        /// Seed (instance i is stream i of this seed).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Time the reference Monte Carlo workloads W1–W4 (benches/reference) through the engine's
    /// loops on the portable generator; one JSON line per workload on stdout (the format of
    /// `benches/reference/reference.py` and `reference.c`), a table on a terminal.
    Bench {
        /// w1 (decay), w2 (tail), w3 (lyapunov), w4 (scan) or all.
        #[arg(default_value = "all")]
        workload: String,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Backend: only cpu runs the portable generator of the reference workloads.
        #[arg(long, default_value = "cpu")]
        backend: BackendChoice,
        /// Small sizes (a smoke run; summaries are then not comparable with the references).
        #[arg(long)]
        quick: bool,
        /// Runs each workload this many times (1–64) and reports the median time, with the
        /// fastest and slowest in `params` (as `reference.c --repeat`), so that a workload of
        /// a fraction of a second gives a time that holds still.
        #[arg(long, default_value_t = 1)]
        repeat: usize,
    },
}

/// The claims of a selection and the backend to run them on.
fn selection<'r>(
    registry: &'r Registry,
    ids: &[String],
    family: Option<&Family>,
    args: &RunArgs,
) -> Result<(Vec<&'r crate::claim::Claim>, Box<dyn crate::mc::Backend>)> {
    let claims = registry.select(ids, family)?;
    if claims.is_empty() {
        return Err(Error::InvalidParameter("no claim matches the selection".into()));
    }
    Ok((claims, args.backend.open()?))
}

/// The run's configuration on `backend`. Claims run concurrently (results do not depend on it):
/// most checks are serial searches, and a family's Monte Carlo claims leave cores idle between
/// their jobs.
fn config<'b>(args: &RunArgs, backend: &'b dyn crate::mc::Backend) -> RunConfig<'b> {
    RunConfig { seed: args.seed, budget: args.budget, backend, progress: std::io::stderr().is_terminal(), parallel: true }
}

fn run(registry: &Registry, ids: &[String], family: Option<&Family>, args: &RunArgs) -> Result<RunResults> {
    let (claims, backend) = selection(registry, ids, family, args)?;
    Ok(run_claims(&claims, &config(args, backend.as_ref())))
}

fn run_part(registry: &Registry, ids: &[String], family: Option<&Family>, args: &RunArgs, shard: crate::shard::Shard) -> Result<crate::shard::Part> {
    let (claims, backend) = selection(registry, ids, family, args)?;
    Ok(crate::shard::run_shard(&claims, &config(args, backend.as_ref()), shard))
}

fn bench(workload: &str, threads: Option<usize>, backend: BackendChoice, quick: bool, repeat: usize) -> Result<()> {
    use crate::bench::{run, si, BenchSizes, Workload};
    if backend != BackendChoice::Cpu {
        return Err(Error::InvalidParameter(format!(
            "the benchmark workloads use the portable generator of benches/reference, which only the cpu backend implements (not '{backend}')"
        )));
    }
    let workloads = Workload::parse(workload)?;
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let sizes = if quick { BenchSizes::quick() } else { BenchSizes::reference() };
    let table = std::io::stderr().is_terminal();
    if table {
        eprintln!("{:<10} {:>7} {:>10} {:>16}  summary", "workload", "threads", "wall s", "throughput");
    }
    for w in workloads {
        let line = run(w, &sizes, threads, repeat)?;
        println!("{}", serde_json::to_string(&line)?);
        if table {
            eprintln!(
                "{:<10} {:>7} {:>10.4} {:>16}  {}",
                line.workload,
                threads,
                line.wall_s,
                format!("{}{}", si(line.throughput), line.throughput_unit),
                line.summary
            );
        }
    }
    Ok(())
}

/// `ssmcheck replay`: the instance (from a results JSON or a file of its own) through the
/// claim's check or its control; prints both sides and the margin; true when it satisfies it.
fn replay(registry: &Registry, id: &str, path: &std::path::Path, control: bool) -> Result<bool> {
    use crate::claim::Replay;
    let claim = registry.get(id)?;
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { action: "read", path: path.into(), source })?;
    let json: serde_json::Value = serde_json::from_str(&text)?;
    match crate::claim::replay::replay_document(claim, &json, control)? {
        Replay::Rejected(why) => {
            println!("{id}: the instance does not meet the claim's assumptions ({why})");
            Ok(false)
        }
        Replay::Evaluated(v) => {
            println!("{id}{}: {}", if control { " (negative control)" } else { "" }, v.relation);
            println!("  lhs = {:.17e}  ({})", v.lhs, v.lhs_is);
            println!("  rhs = {:.17e}  ({})", v.rhs, v.rhs_is);
            println!("  margin = {:.6e}  [{}]", v.margin, v.margin_formula);
            if let Some(e) = &v.enclosure {
                println!("  enclosures: {e}");
            }
            let holds = !v.refutes();
            println!("  {}", if holds { "satisfied" } else { "VIOLATED" });
            if !holds && !control {
                println!("  {}", crate::claim::Certificate::of(claim.meta.kind, Some(&v), claim.uncertified.as_ref()));
            }
            Ok(holds)
        }
    }
}

fn main_inner(cli: Cli, registry: &Registry) -> Result<bool> {
    match cli.command {
        Command::List { family, json } => {
            let claims = registry.select(&[], family.as_ref())?;
            if json {
                for c in claims {
                    println!("{}", serde_json::to_string(&c.meta)?);
                }
                return Ok(true);
            }
            let width = claims.iter().map(|c| c.meta.id.chars().count()).max().unwrap_or(0);
            for c in claims {
                println!("{:<width$} {:<11} {:<10} {}", c.meta.id, c.meta.family, c.meta.status, c.meta.source.locus);
            }
            Ok(true)
        }
        Command::Check { ids, family, run: args, json, shard } => {
            let json = json.map(JsonFile);
            if let Some(j) = &json {
                j.preflight()?;
            }
            match shard {
                None => {
                    let results = run(registry, &ids, family.as_ref(), &args)?;
                    let mut outputs: Vec<&dyn Reporter> = vec![&TerminalTable];
                    outputs.extend(json.as_ref().map(|j| j as &dyn Reporter));
                    report_all(&results, &outputs)?;
                    Ok(results.disagreements().is_empty())
                }
                // A part's verdicts are not the run's yet: the merge judges the split claims and exits accordingly.
                Some(shard) => {
                    let part = run_part(registry, &ids, family.as_ref(), &args, shard)?;
                    TerminalTable.report(&part.results)?;
                    if let Some(JsonFile(path)) = json {
                        crate::report::write_atomically(&path, serde_json::to_string_pretty(&part)?.as_bytes())?;
                    }
                    let jobs: usize = part.shard.split.iter().map(|s| s.claim.len() + s.control.len()).sum();
                    println!(
                        "shard {}: {} whole claims, its block of the paths of {jobs} jobs of {} split claims",
                        part.shard.shard,
                        part.results.claims.len(),
                        part.shard.split.len()
                    );
                    Ok(true)
                }
            }
        }
        Command::Merge { parts, json } => {
            let out = JsonFile(json);
            out.preflight()?;
            let results = crate::shard::merge(registry, &crate::shard::read_parts(&parts)?)?;
            report_all(&results, &[&out, &TerminalTable])?;
            println!("merged {} parts into {}", parts.len(), out.0.display());
            Ok(results.disagreements().is_empty())
        }
        Command::Report { out, run: args, from } => {
            let html = HtmlReport(out);
            html.preflight()?;
            let results = if from.is_empty() { run(registry, &[], None, &args)? } else { crate::report::read_merged(&from)? };
            report_all(&results, &[&TerminalTable, &html])?;
            Ok(results.disagreements().is_empty())
        }
        Command::Export { keys, values, len, count, vocab, seed, out } => {
            crate::report::ensure_writable(&out)?;
            let spec = crate::tasks::mqar::MqarSpec { keys, values, len, placement: crate::tasks::mqar::QueryPlacement::Separated };
            let key = crate::mc::StreamKey::new(seed, "export/mqar");
            let mut text = String::new();
            for i in 0..count {
                let inst = spec.sample(&mut crate::mc::Stream::new(key, i))?;
                text.push_str(&serde_json::to_string(&inst.to_zoology(vocab)?)?);
                text.push('\n');
            }
            crate::report::write_atomically(&out, text.as_bytes())?;
            println!("wrote {count} MQAR sequences (κ = {keys}, |V| = {values}, T = {len}, Zoology vocabulary {vocab}) to {}", out.display());
            Ok(true)
        }
        Command::Bench { workload, threads, backend, quick, repeat } => {
            bench(&workload, threads, backend, quick, repeat)?;
            Ok(true)
        }
        Command::Replay { id, counterexample, control } => replay(registry, &id, &counterexample, control),
        Command::Tables { files, write } => tables(registry, &files, write),
        Command::Explain { id } => {
            let c = registry.get(&id)?;
            let m = &c.meta;
            println!("{}  [{} · {} · {}]", m.id, m.family, m.status, m.kind);
            println!("source:    {} — {}", m.source.origin, m.source.locus);
            println!("printed:   {}", m.source.printed);
            println!("checked:   {}", m.statement);
            if let Some(corr) = &m.correction {
                println!("correction: {corr}");
            }
            if let Some(e) = &m.error {
                println!("error:     {} ({})", e.kind, e.kind.meaning());
                for line in e.particulars() {
                    println!("           {line}");
                }
                println!("           {}", e.detail);
            }
            if let Some(ctrl) = &c.control {
                println!("negative control: {}", ctrl.mutation);
            }
            Ok(true)
        }
    }
}

/// Runs the command line (`std::env::args`) over `registry` and returns the process's exit
/// code: 0 when every verdict agrees with its status, 1 when one does not, 2 on bad input.
/// A crate with conjectures of its own gets the whole CLI — `list`, `check`, `report`,
/// `replay`, `explain` — over its claims with a two-line binary:
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     let mut registry = ssmcheck::claims::registry(); // or Registry::new() for yours alone
///     // registry.add(my_conjecture());
///     ssmcheck::cli::main_with(registry)
/// }
/// ```
pub fn main_with(registry: Registry) -> ExitCode {
    // Rust ignores SIGPIPE, so a closed pipe (`ssmcheck list | head`) would make println! panic;
    // the default action ends the process quietly instead, as for other Unix tools. Files are
    // written atomically, so nothing half-written is left behind.
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Before any thread allocates: training keeps its freed memory per arena.
    #[cfg(feature = "train")]
    crate::train::allocator::cap_arenas();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line: clap's message (some list the missing arguments on lines of their own), without its usage.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .filter(|l| !l.is_empty())
                .collect();
            let message = if message.is_empty() { "invalid arguments".to_string() } else { message.join(" ") };
            eprintln!("{message} (see `ssmcheck --help`)");
            return ExitCode::from(2);
        }
    };
    // An instruction set named in SSMCHECK_ISA that is unknown or beyond this CPU is refused
    // before any work starts.
    match crate::math::isa::Isa::from_env().and_then(|_| main_inner(cli, &registry)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ssmcheck tables`: every file's generated blocks against the registry; with `write`, stale
/// ones are rewritten (atomically). `Ok(false)` when a file is stale and not rewritten.
fn tables(registry: &Registry, files: &[PathBuf], write: bool) -> Result<bool> {
    let mut fresh = true;
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { action: "read", path: path.clone(), source })?;
        let new = crate::claim::tables::regenerate(&text, registry).map_err(|e| Error::InvalidParameter(format!("{}: {e}", path.display())))?;
        if new == text {
            continue;
        }
        if write {
            crate::report::write_atomically(path, new.as_bytes())?;
            println!("updated {}", path.display());
        } else {
            eprintln!("{}: its generated claim tables differ from the registry (`ssmcheck tables --write {}`)", path.display(), path.display());
            fresh = false;
        }
    }
    Ok(fresh)
}
