//! `ssmcheck bench`: the four reference Monte Carlo workloads of `benches/reference` (W1 decay,
//! W2 tail, W3 Lyapunov, W4 selective scan) run through the engine's own loops
//! ([`crate::mc::paths`], [`crate::model::selective_scan()`]) on the portable generator's inputs,
//! so that throughput and summaries can be compared with the numpy and C references in the same
//! rounds (`scripts/perf_compare.sh`).
//!
//! Each workload prints one JSON line in the references' format: `workload`, `impl`, `params`
//! (incl. `threads`, `rng`, and `isa`, the instruction set of the hand-vectorised loops),
//! `wall_s`, `throughput`, `throughput_unit`, `work`, `summary`, `checksum`.

mod w1_decay;
mod w2_tail;
mod w3_lyapunov;
mod w4_scan;

use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Instant;

pub use w1_decay::DecayParams;
pub use w2_tail::TailParams;
pub use w3_lyapunov::LyapunovParams;
pub use w4_scan::ScanParams;

/// One reference workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Workload {
    /// W1: log-LRD of a diagonal selective SSM, H = 16, T = 10⁶, 64 paths.
    Decay,
    /// W2: Σ ln(c + γx²) over t = 10⁴ steps, 10⁵ samples, tail frequencies.
    Tail,
    /// W3: top Lyapunov exponents of rank-one-perturbed products, H = 16, 10⁶ steps, 8 instances.
    Lyapunov,
    /// W4: the Mamba S6 selective scan forward, d = 64, N = 16, L = 4096.
    Scan,
}

impl Workload {
    /// Every workload, in order.
    pub const ALL: [Workload; 4] = [Workload::Decay, Workload::Tail, Workload::Lyapunov, Workload::Scan];

    /// The workload for `w1`…`w4` (or its name).
    pub fn parse(s: &str) -> Result<Vec<Workload>> {
        Ok(match s {
            "all" => Self::ALL.to_vec(),
            "w1" | "decay" => vec![Workload::Decay],
            "w2" | "tail" => vec![Workload::Tail],
            "w3" | "lyapunov" => vec![Workload::Lyapunov],
            "w4" | "scan" => vec![Workload::Scan],
            other => return Err(Error::InvalidParameter(format!("unknown workload '{other}' (expected w1, w2, w3, w4 or all)"))),
        })
    }

    /// The name in the references' JSON (`decay`, `tail`, `lyapunov`, `scan`).
    pub fn name(self) -> &'static str {
        match self {
            Workload::Decay => "decay",
            Workload::Tail => "tail",
            Workload::Lyapunov => "lyapunov",
            Workload::Scan => "scan",
        }
    }
}

/// Sizes of every workload: the references' defaults, or a small preset for tests.
#[derive(Clone, Debug)]
pub struct BenchSizes {
    /// W1.
    pub decay: DecayParams,
    /// W2.
    pub tail: TailParams,
    /// W3.
    pub lyapunov: LyapunovParams,
    /// W4.
    pub scan: ScanParams,
}

impl BenchSizes {
    /// The reference sizes (`benches/reference` runs the numpy and C versions at these).
    pub fn reference() -> Self {
        BenchSizes { decay: DecayParams::reference(), tail: TailParams::reference(), lyapunov: LyapunovParams::reference(), scan: ScanParams::reference() }
    }

    /// Sizes that run in well under a second (for tests and smoke runs); summaries are then not
    /// comparable with the reference runs.
    pub fn quick() -> Self {
        BenchSizes {
            decay: DecayParams { paths: 4, horizon: 20_000, ..DecayParams::reference() },
            tail: TailParams { samples: 2_000, t: 1_000, ..TailParams::reference() },
            lyapunov: LyapunovParams { instances: 2, steps: 20_000, ..LyapunovParams::reference() },
            scan: ScanParams { len: 512, reps: 3, ..ScanParams::reference() },
        }
    }
}

/// One measured run: the JSON line of the references' format.
#[derive(Clone, Debug, Serialize)]
pub struct BenchLine {
    /// `decay`, `tail`, `lyapunov` or `scan`.
    pub workload: &'static str,
    /// Always `rust`.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// Sizes, seed, `threads`, `rng`.
    pub params: Value,
    /// Seconds of the timed region (per forward for W4).
    pub wall_s: f64,
    /// `work / wall_s`.
    pub throughput: f64,
    /// Unit of `throughput`.
    pub throughput_unit: &'static str,
    /// Work units of one timed run.
    pub work: f64,
    /// The values compared with the references.
    pub summary: Value,
    /// Further values for exact comparison.
    pub checksum: Value,
}

/// What a workload returns: its params, unit, work, summary and checksum (timing is added by
/// [`run`]).
pub(crate) struct Measured {
    params: Value,
    unit: &'static str,
    work: f64,
    summary: Value,
    checksum: Value,
    /// Seconds of the timed region, when the workload times itself (W4 excludes input generation).
    wall_s: Option<f64>,
}

/// The most repetitions [`run`] takes (as `reference.c --repeat`).
pub const MAX_REPEAT: usize = 64;

/// Runs `workload` `repeat` times on a rayon pool of `threads` threads: `wall_s` is the median
/// of the timed regions, `params` records `repeat` and the fastest and slowest (the summaries
/// of every repetition are the same; the last one's are reported).
pub fn run(workload: Workload, sizes: &BenchSizes, threads: usize, repeat: usize) -> Result<BenchLine> {
    if threads == 0 {
        return Err(Error::InvalidParameter("--threads must be at least 1".into()));
    }
    if !(1..=MAX_REPEAT).contains(&repeat) {
        return Err(Error::InvalidParameter(format!("--repeat must be between 1 and {MAX_REPEAT}, not {repeat}")));
    }
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| Error::InvalidParameter(format!("cannot start {threads} threads: {e}")))?;
    let mut walls = Vec::with_capacity(repeat);
    let mut last = None;
    for _ in 0..repeat {
        let start = Instant::now();
        let m = pool.install(|| match workload {
            Workload::Decay => w1_decay::run(&sizes.decay),
            Workload::Tail => w2_tail::run(&sizes.tail),
            Workload::Lyapunov => w3_lyapunov::run(&sizes.lyapunov),
            Workload::Scan => w4_scan::run(&sizes.scan),
        })?;
        walls.push(m.wall_s.unwrap_or_else(|| start.elapsed().as_secs_f64()));
        last = Some(m);
    }
    let m = last.expect("repeat ≥ 1");
    let wall_s = crate::stats::median(&walls);
    let (fastest, slowest) = walls.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    let mut params = m.params;
    params["threads"] = json!(threads);
    params["rng"] = json!("portable");
    params["isa"] = json!(crate::math::isa::Isa::active().name());
    params["repeat"] = json!(repeat);
    params["wall_s_min"] = json!(fastest);
    params["wall_s_max"] = json!(slowest);
    Ok(BenchLine {
        workload: workload.name(),
        implementation: "rust",
        params,
        wall_s,
        throughput: m.work / wall_s,
        throughput_unit: m.unit,
        work: m.work,
        summary: m.summary,
        checksum: m.checksum,
    })
}

/// `1.49 G`-style rendering of a throughput for the terminal table.
pub fn si(x: f64) -> String {
    let (v, p) = if x >= 1e9 {
        (x / 1e9, "G")
    } else if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    format!("{v:.3} {p}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workload_names_parse_and_unknown_ones_are_rejected() {
        assert_eq!(Workload::parse("all").unwrap().len(), 4);
        assert_eq!(Workload::parse("w3").unwrap(), vec![Workload::Lyapunov]);
        assert!(Workload::parse("w5").is_err());
        assert_eq!(si(1.49e9), "1.490 G");
    }

    #[test]
    fn summaries_do_not_depend_on_the_thread_count() {
        let sizes = BenchSizes::quick();
        for w in Workload::ALL {
            let a = run(w, &sizes, 1, 1).unwrap();
            let b = run(w, &sizes, 2, 2).unwrap();
            assert_eq!((b.params["repeat"].as_u64(), b.params["wall_s_min"].as_f64() <= b.params["wall_s_max"].as_f64()), (Some(2), true));
            assert_eq!((&a.summary, &a.checksum), (&b.summary, &b.checksum), "{}", w.name());
        }
        assert!(run(Workload::Decay, &sizes, 0, 1).is_err());
        assert!(run(Workload::Decay, &sizes, 1, 0).is_err());
        assert!(run(Workload::Decay, &sizes, 1, MAX_REPEAT + 1).is_err());
    }
}
