//! The `ssmcheck` command line: list, check, explain and report.

use clap::{Parser, Subcommand};
use ssmcheck::claim::{run_claims, Budget, Registry, RunConfig, RunResults};
use ssmcheck::error::{Error, Result};
use ssmcheck::mc::backend_by_name;
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
    backend: String,
}

#[derive(Subcommand)]
enum Command {
    /// List the registered claims.
    List {
        /// Only this family.
        #[arg(long)]
        family: Option<String>,
    },
    /// Check claims and print a verdict table; exits non-zero when a verdict contradicts its status.
    Check {
        /// Claim ids (all when none).
        ids: Vec<String>,
        /// Only this family.
        #[arg(long)]
        family: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        /// Write the results as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Run every claim and write the evidence report (HTML + SVG + results.json).
    Report {
        /// Output directory.
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        #[command(flatten)]
        run: RunArgs,
        /// Render from an existing results JSON instead of running the checks.
        #[arg(long)]
        from: Option<PathBuf>,
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
    /// Time the reference Monte Carlo workloads (../shared/perf W1–W4) through the engine's
    /// loops on the portable generator; one JSON line per workload on stdout (the format of
    /// `run_all.sh --extra`), a table on a terminal.
    Bench {
        /// w1 (decay), w2 (tail), w3 (lyapunov), w4 (scan) or all.
        #[arg(default_value = "all")]
        workload: String,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Backend: only cpu runs the portable generator of the reference workloads.
        #[arg(long, default_value = "cpu")]
        backend: String,
        /// Small sizes (a smoke run; summaries are then not comparable with the references).
        #[arg(long)]
        quick: bool,
    },
}

fn run(registry: &Registry, ids: &[String], family: Option<&str>, args: &RunArgs) -> Result<RunResults> {
    let claims = registry.select(ids, family)?;
    if claims.is_empty() {
        return Err(Error::InvalidParameter("no claim matches the selection".into()));
    }
    let backend = backend_by_name(&args.backend)?;
    let progress = std::io::stderr().is_terminal();
    let cfg = RunConfig { seed: args.seed, budget: args.budget, backend: backend.as_ref(), progress, parallel: false };
    Ok(run_claims(&claims, &cfg))
}

fn print_table(results: &RunResults) {
    println!("{:<24} {:<10} {:<11} {:<12} {:>9} {:>11}  agrees", "claim", "status", "kind", "verdict", "cases", "margin");
    for c in &results.claims {
        let status = serde_json::to_value(c.meta.status).unwrap();
        let kind = serde_json::to_value(c.meta.kind).unwrap();
        let margin = c.margin.map_or("-".into(), |m| format!("{m:.3e}"));
        println!(
            "{:<24} {:<10} {:<11} {:<12} {:>9} {:>11}  {}",
            c.meta.id,
            status.as_str().unwrap_or(""),
            kind.as_str().unwrap_or(""),
            c.verdict,
            c.cases,
            margin,
            if c.agrees { "yes" } else { "NO" }
        );
        if let Some(why) = &c.disagreement {
            println!("    ! {why}");
        }
    }
    let bad = results.disagreements().len();
    println!(
        "\n{} claims, {} agree, {} disagree (seed {}, budget {}, backend {})",
        results.claims.len(),
        results.claims.len() - bad,
        bad,
        results.seed,
        results.budget,
        results.backend
    );
}

fn bench(workload: &str, threads: Option<usize>, backend: &str, quick: bool) -> Result<()> {
    use ssmcheck::bench::{run, si, BenchSizes, Workload};
    if backend != "cpu" {
        backend_by_name(backend)?; // an unknown name gets the usual message
        return Err(Error::InvalidParameter(format!(
            "the benchmark workloads use the portable generator of ../shared/perf, which only the cpu backend implements (not '{backend}')"
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
        let line = run(w, &sizes, threads)?;
        println!("{}", serde_json::to_string(&line)?);
        if table {
            eprintln!("{:<10} {:>7} {:>10.4} {:>16}  {}", line.workload, threads, line.wall_s, format!("{}{}", si(line.throughput), line.throughput_unit), line.summary);
        }
    }
    Ok(())
}

fn write_json(path: &std::path::Path, results: &RunResults) -> Result<()> {
    let text = serde_json::to_string_pretty(results)?;
    ssmcheck::report::write_atomically(path, text.as_bytes())
}

fn main_inner(cli: Cli) -> Result<bool> {
    let registry = Registry::all();
    match cli.command {
        Command::List { family } => {
            for c in registry.select(&[], family.as_deref())? {
                let status = serde_json::to_value(c.meta.status)?;
                println!("{:<24} {:<11} {:<10} {}", c.meta.id, c.meta.family.name(), status.as_str().unwrap_or(""), c.meta.source.locus);
            }
            Ok(true)
        }
        Command::Check { ids, family, run: args, json } => {
            if let Some(path) = &json {
                ssmcheck::report::ensure_writable(path)?;
            }
            let results = run(&registry, &ids, family.as_deref(), &args)?;
            print_table(&results);
            if let Some(path) = json {
                write_json(&path, &results)?;
            }
            Ok(results.disagreements().is_empty())
        }
        Command::Report { out, run: args, from } => {
            ssmcheck::report::ensure_writable_dir(&out)?;
            let results = match from {
                Some(path) => ssmcheck::report::read_results(&path)?,
                None => run(&registry, &[], None, &args)?,
            };
            let index = ssmcheck::report::write_report(&results, &out)?;
            print_table(&results);
            println!("report: {}", index.display());
            Ok(results.disagreements().is_empty())
        }
        Command::Export { keys, values, len, count, vocab, seed, out } => {
            ssmcheck::report::ensure_writable(&out)?;
            let spec = ssmcheck::tasks::mqar::MqarSpec { keys, values, len, placement: ssmcheck::tasks::mqar::QueryPlacement::Separated };
            let key = ssmcheck::mc::StreamKey::new(seed, "export/mqar");
            let mut text = String::new();
            for i in 0..count {
                let inst = spec.sample(&mut ssmcheck::mc::Stream::new(key, i))?;
                text.push_str(&serde_json::to_string(&inst.to_zoology(vocab)?)?);
                text.push('\n');
            }
            ssmcheck::report::write_atomically(&out, text.as_bytes())?;
            println!("wrote {count} MQAR sequences (κ = {keys}, |V| = {values}, T = {len}, Zoology vocabulary {vocab}) to {}", out.display());
            Ok(true)
        }
        Command::Bench { workload, threads, backend, quick } => {
            bench(&workload, threads, &backend, quick)?;
            Ok(true)
        }
        Command::Explain { id } => {
            let c = registry.get(&id)?;
            let m = &c.meta;
            println!("{}  [{} · {:?} · {:?}]", m.id, m.family, m.status, m.kind);
            println!("source:    {} — {}", m.source.paper, m.source.locus);
            println!("printed:   {}", m.source.printed);
            println!("checked:   {}", m.statement);
            if let Some(corr) = &m.correction {
                println!("correction: {corr}");
            }
            if let Some(ctrl) = &c.control {
                println!("negative control: {}", ctrl.mutation);
            }
            Ok(true)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{first} (see `ssmcheck --help`)");
            return ExitCode::from(2);
        }
    };
    match main_inner(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
