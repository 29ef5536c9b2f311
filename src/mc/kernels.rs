//! The CUDA kernels of `kernels/` and their calling convention, written once: the sources
//! (embedded as strings; compiled by NVRTC on a GPU machine and as C++ through the shim for the
//! CPU, see [`super::shim`]), a typed table of each kernel's parameters, the [`Launch`] a job
//! becomes (its arguments in order, the threads, the output buffers), and the decoders of the
//! outputs. The CUDA launcher, the shim and the NVRTC test all read this table; the NVRTC test
//! checks it against the PTX's entry parameters, and a unit test against the `.cu` signatures.

use super::jobs::{log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, Start, TailSumJob, TiltedTailJob};
use crate::error::{Error, Result};
use crate::model::Discretization;
use std::ops::Range;

/// The CUDA prelude: qualifiers and constants (the CPU side is `kernels/cpu_shim.h`).
pub const PRELUDE: (&str, &str) = ("cuda_prelude.cuh", include_str!("../../kernels/cuda_prelude.cuh"));
/// The branch-free exp/ln/softplus/Box–Muller of [`crate::math::vecmath`], for the kernels.
pub const VECMATH: (&str, &str) = ("vecmath.cuh", include_str!("../../kernels/vecmath.cuh"));
/// Philox4x32-10, keyed streams and Box–Muller, shared by every kernel.
pub const PHILOX: (&str, &str) = ("philox.cuh", include_str!("../../kernels/philox.cuh"));

/// NVRTC options of every kernel besides the architecture ([`ptx_arch`]). `--fmad=false`: no
/// contraction of `a*b + c` into a fused multiply-add beyond the explicit `fma()` calls, so the
/// GPU computes what the CPU computes.
pub const NVRTC_OPTIONS: [&str; 2] = ["--std=c++14", "--fmad=false"];

/// The oldest virtual architecture the kernels target (compute capability 7.0, Volta: they need
/// nothing newer, and PTX for an old target runs on every newer GPU).
pub const OLDEST_ARCH: i32 = 70;

/// The virtual architecture to compile for, given the ones the loaded NVRTC supports
/// (`nvrtcGetSupportedArchs`): the oldest at or above [`OLDEST_ARCH`]. NVRTC 12 supports
/// compute_70; NVRTC 13 dropped everything below compute_75, so it gets compute_75. The PTX
/// differs only in its target line: the kernels use no instruction that depends on it, and with
/// `--fmad=false` every arithmetic operation is the same IEEE operation on either target.
/// `None` when the NVRTC supports none of them.
pub fn ptx_arch(supported: &[i32]) -> Option<i32> {
    supported.iter().copied().filter(|&a| a >= OLDEST_ARCH).min()
}

/// The C type of one kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamType {
    /// `const double*`: an input buffer.
    InF64,
    /// `const ssm_u64*`: an input buffer of 64-bit integers.
    InU64,
    /// `double*`: an output buffer.
    OutF64,
    /// `int`.
    I32,
    /// `ssm_u32` (unsigned int).
    U32,
    /// `ssm_u64` (unsigned long long).
    U64,
    /// `double`.
    F64,
}

impl ParamType {
    /// The type as the kernel's signature spells it.
    pub fn c_type(self) -> &'static str {
        match self {
            ParamType::InF64 => "const double*",
            ParamType::InU64 => "const ssm_u64*",
            ParamType::OutF64 => "double*",
            ParamType::I32 => "int",
            ParamType::U32 => "ssm_u32",
            ParamType::U64 => "ssm_u64",
            ParamType::F64 => "double",
        }
    }
    /// The type of the parameter in the PTX entry (`.param .u64` for pointers).
    pub fn ptx_type(self) -> &'static str {
        match self {
            ParamType::InF64 | ParamType::InU64 | ParamType::OutF64 | ParamType::U64 => ".u64",
            ParamType::I32 | ParamType::U32 => ".u32",
            ParamType::F64 => ".f64",
        }
    }
}

/// One kernel parameter: its name and type, in signature order.
pub type Param = (&'static str, ParamType);

/// A kernel: its entry point, source, parameters and threads per block.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// The `extern "C" __global__` entry point (and, with a prefix, the shim's export).
    pub entry: &'static str,
    /// File name.
    pub file: &'static str,
    /// Source.
    pub source: &'static str,
    /// The parameters, in the order of the signature.
    pub params: &'static [Param],
    /// Threads per block (one thread per path or sample).
    pub block: u32,
}

use ParamType::{InF64, InU64, OutF64, F64, I32, U32, U64};

/// `diagonal_lrd`: one thread per path of a [`DiagonalLrdJob`].
pub const DIAGONAL_LRD: Kernel = Kernel {
    entry: "diagonal_lrd",
    file: "diagonal_lrd.cu",
    source: include_str!("../../kernels/diagonal_lrd.cu"),
    params: &[
        ("a", InF64),
        ("b", InF64),
        ("h", I32),
        ("w", F64),
        ("bias", F64),
        ("zoh", I32),
        ("horizon", U64),
        ("paths", U64),
        ("first", U64),
        ("claimed_rate", F64),
        ("k0", U32),
        ("k1", U32),
        ("marks", InU64),
        ("n_marks", I32),
        ("summary", OutF64),
        ("trace", OutF64),
    ],
    block: 64,
};

/// `tail_sums`: one thread per sample of a [`TailSumJob`].
pub const TAIL_SUMS: Kernel = Kernel {
    entry: "tail_sums",
    file: "tail_sums.cu",
    source: include_str!("../../kernels/tail_sums.cu"),
    params: &[("c", F64), ("gamma", F64), ("times", InU64), ("n_times", I32), ("samples", U64), ("first", U64), ("k0", U32), ("k1", U32), ("out", OutF64)],
    block: 256,
};

/// `interaction`: one thread per path of an [`InteractionJob`].
pub const INTERACTION: Kernel = Kernel {
    entry: "interaction",
    file: "interaction.cu",
    source: include_str!("../../kernels/interaction.cu"),
    params: &[
        ("abar", InF64),
        ("bbar", InF64),
        ("g", InF64),
        ("w", InF64),
        ("h", I32),
        ("start", I32),
        ("t", U64),
        ("horizon", U64),
        ("burn_in", U64),
        ("paths", U64),
        ("first", U64),
        ("k0", U32),
        ("k1", U32),
        ("marks", InU64),
        ("n_marks", I32),
        ("summary", OutF64),
        ("trace", OutF64),
    ],
    block: 64,
};

/// `needle`: one thread per path of a [`NeedleJob`].
pub const NEEDLE: Kernel = Kernel {
    entry: "needle",
    file: "needle.cu",
    source: include_str!("../../kernels/needle.cu"),
    params: &[
        ("abar", F64),
        ("capacity", I32),
        ("distractors", U64),
        ("horizon", U64),
        ("lags", InU64),
        ("n_lags", I32),
        ("paths", U64),
        ("first", U64),
        ("k0", U32),
        ("k1", U32),
        ("held", OutF64),
    ],
    block: 64,
};

/// `tilted_tail_sums`: one thread per sample of a [`TiltedTailJob`].
pub const TILTED_TAIL_SUMS: Kernel = Kernel {
    entry: "tilted_tail_sums",
    file: "tilted_tail_sums.cu",
    source: include_str!("../../kernels/tilted_tail_sums.cu"),
    params: &[
        ("c", F64),
        ("gamma", F64),
        ("theta", F64),
        ("eta", F64),
        ("scale", F64),
        ("log_bound", F64),
        ("t", U64),
        ("samples", U64),
        ("first", U64),
        ("k0", U32),
        ("k1", U32),
        ("a0", U32),
        ("a1", U32),
        ("out", OutF64),
    ],
    block: 256,
};

/// Every kernel.
pub const KERNELS: [Kernel; 5] = [DIAGONAL_LRD, TAIL_SUMS, INTERACTION, NEEDLE, TILTED_TAIL_SUMS];

/// The single source NVRTC compiles for `kernel`: the prelude, the vecmath and Philox headers
/// and the kernel, with their `#include`s resolved in place.
pub fn nvrtc_program(kernel: &Kernel) -> String {
    let strip = |src: &str| -> String { src.lines().filter(|l| !l.trim_start().starts_with("#include")).map(|l| format!("{l}\n")).collect() };
    format!("{}\n{}\n{}\n{}", PRELUDE.1, strip(VECMATH.1), strip(PHILOX.1), strip(kernel.source))
}

/// Largest state size the LRD kernel accepts (its per-thread arrays).
pub const MAX_MODES: usize = 64;
/// Largest state size the interaction kernel accepts.
pub const MAX_STATE: usize = 32;

/// Rejects a state size above a kernel's limit (its per-thread arrays).
fn ensure_fits(size: usize, limit: usize, kernel: &str) -> Result<()> {
    if size > limit {
        return Err(Error::InvalidParameter(format!("the {kernel} kernel takes a state of at most {limit}, not {size}")));
    }
    Ok(())
}

/// One argument value, in the order of the kernel's [`Kernel::params`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Arg {
    /// An input buffer of doubles.
    InF64(Vec<f64>),
    /// An input buffer of 64-bit integers.
    InU64(Vec<u64>),
    /// An output buffer of this many doubles (zeroed before the launch).
    OutF64(usize),
    /// `int`.
    I32(i32),
    /// `ssm_u32`.
    U32(u32),
    /// `ssm_u64`.
    U64(u64),
    /// `double`.
    F64(f64),
}

impl Arg {
    /// Its parameter type.
    pub fn param_type(&self) -> ParamType {
        match self {
            Arg::InF64(_) => InF64,
            Arg::InU64(_) => InU64,
            Arg::OutF64(_) => OutF64,
            Arg::I32(_) => I32,
            Arg::U32(_) => U32,
            Arg::U64(_) => U64,
            Arg::F64(_) => F64,
        }
    }
}

/// A kernel launch: the kernel, one thread per item, and the arguments in signature order.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The kernel.
    pub kernel: &'static Kernel,
    /// Threads needed (paths or samples); the grid is `⌈threads / block⌉` blocks.
    pub threads: u64,
    /// Arguments, one per parameter.
    pub args: Vec<Arg>,
}

impl Launch {
    fn new(kernel: &'static Kernel, threads: u64, args: Vec<Arg>) -> Launch {
        debug_assert!(
            kernel.params.len() == args.len() && kernel.params.iter().zip(&args).all(|(p, a)| p.1 == a.param_type()),
            "arguments of {} do not match its parameter table",
            kernel.entry
        );
        Launch { kernel, threads, args }
    }
    /// Blocks of the 1-D grid.
    pub fn grid(&self) -> u32 {
        self.threads.div_ceil(u64::from(self.kernel.block)) as u32
    }
}

/// Checks that `range` lies within a job's `total` paths and returns its length.
pub(super) fn range_len(range: &Range<u64>, total: u64) -> Result<u64> {
    if range.start > range.end || range.end > total {
        return Err(Error::InvalidParameter(format!("paths {}..{} are not within the job's {total}", range.start, range.end)));
    }
    Ok(range.end - range.start)
}

/// Values per path in a kernel's two output buffers: the summary, and each of the m trace rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLayout {
    /// Summary values per path.
    pub summary: usize,
    /// Values per trace row (m rows per path).
    pub trace_row: usize,
}

impl OutputLayout {
    /// Buffer lengths `(summary, trace)` for `paths` paths and `marks` trace rows each.
    pub fn lengths(self, paths: usize, marks: usize) -> (usize, usize) {
        (self.summary * paths, self.trace_row * paths * marks)
    }
}

/// `diagonal_lrd`: [log‖B̄‖, min margin, argmin k, S_K, log‖LRD_K‖, Σ_k log‖LRD_k‖] and (k, S_k, log‖LRD_k‖).
pub const DIAGONAL_OUTPUT: OutputLayout = OutputLayout { summary: 6, trace_row: 3 };
/// `interaction`: [log‖v₀‖, log growth, log growth after burn-in, increases] and (k, log‖Φ(k)v₀‖).
pub const INTERACTION_OUTPUT: OutputLayout = OutputLayout { summary: 4, trace_row: 2 };

/// The arguments the two path kernels end with: the stream key (k0, k1), the trace marks and
/// their count, and the summary and trace output buffers.
fn path_tail(key: super::StreamKey, marks: Vec<u64>, summary: usize, trace: usize) -> [Arg; 6] {
    let n = marks.len() as i32;
    [Arg::U32(key.0[0]), Arg::U32(key.0[1]), Arg::InU64(marks), Arg::I32(n), Arg::OutF64(summary), Arg::OutF64(trace)]
}

/// The launch of paths `range` of a [`DiagonalLrdJob`] and its number of trace marks.
pub fn diagonal_launch(job: &DiagonalLrdJob, range: Range<u64>) -> Result<(Launch, usize)> {
    job.validate()?;
    ensure_fits(job.a.len(), MAX_MODES, "LRD")?;
    let n = range_len(&range, job.paths)?;
    let marks = log_checkpoints(job.horizon, job.checkpoints);
    let m = marks.len();
    let (ns, nt) = DIAGONAL_OUTPUT.lengths(n as usize, m);
    let mut args = vec![
        Arg::InF64(job.a.clone()),
        Arg::InF64(job.b.clone()),
        Arg::I32(job.a.len() as i32),
        Arg::F64(job.w),
        Arg::F64(job.bias),
        Arg::I32(i32::from(job.disc == Discretization::Zoh)),
        Arg::U64(job.horizon),
        Arg::U64(n),
        Arg::U64(range.start),
        Arg::F64(job.claimed_rate),
    ];
    args.extend(path_tail(job.key, marks, ns, nt));
    Ok((Launch::new(&DIAGONAL_LRD, n, args), m))
}

/// The arguments the two recording kernels end with: the record times and their count, the
/// number of items (samples or paths) and the first one's index, the stream key, and an output
/// of one value per item and time.
fn record_tail(times: &[u64], items: Range<u64>, key: super::StreamKey) -> [Arg; 7] {
    let (n, count) = (times.len(), items.end - items.start);
    [
        Arg::InU64(times.to_vec()),
        Arg::I32(n as i32),
        Arg::U64(count),
        Arg::U64(items.start),
        Arg::U32(key.0[0]),
        Arg::U32(key.0[1]),
        Arg::OutF64(count as usize * n),
    ]
}

/// The launch of samples `range` of a [`TailSumJob`].
pub fn tail_launch(job: &TailSumJob, range: Range<u64>) -> Result<Launch> {
    job.validate()?;
    let n = range_len(&range, job.samples)?;
    let mut args = vec![Arg::F64(job.c), Arg::F64(job.gamma)];
    args.extend(record_tail(&job.times, range, job.key));
    Ok(Launch::new(&TAIL_SUMS, n, args))
}

/// The launch of samples `range` of a [`TiltedTailJob`]: one output value (Y_t) per sample.
pub fn tilted_tail_launch(job: &TiltedTailJob, range: Range<u64>) -> Result<Launch> {
    job.validate()?;
    let n = range_len(&range, job.samples)?;
    let args = vec![
        Arg::F64(job.c),
        Arg::F64(job.gamma),
        Arg::F64(job.theta),
        Arg::F64(job.eta),
        Arg::F64(job.scale),
        Arg::F64(job.log_bound),
        Arg::U64(job.t),
        Arg::U64(n),
        Arg::U64(range.start),
        Arg::U32(job.key.0[0]),
        Arg::U32(job.key.0[1]),
        Arg::U32(job.accept_key.0[0]),
        Arg::U32(job.accept_key.0[1]),
        Arg::OutF64(n as usize),
    ];
    Ok(Launch::new(&TILTED_TAIL_SUMS, n, args))
}

/// The launch of paths `range` of an [`InteractionJob`] and its number of trace marks.
pub fn interaction_launch(job: &InteractionJob, range: Range<u64>) -> Result<(Launch, usize)> {
    job.validate()?;
    ensure_fits(job.bbar.len(), MAX_STATE, "interaction")?;
    let n = range_len(&range, job.paths)?;
    let marks = log_checkpoints(job.horizon, job.checkpoints);
    let m = marks.len();
    let (start, t) = match job.start {
        Start::Lrd { t } => (0, t),
        Start::Random => (1, 0),
        Start::Ones => (2, 0),
    };
    let (ns, nt) = INTERACTION_OUTPUT.lengths(n as usize, m);
    let mut args = vec![
        Arg::InF64(job.abar.concat()),
        Arg::InF64(job.bbar.clone()),
        Arg::InF64(job.g.clone()),
        Arg::InF64(job.w.clone()),
        Arg::I32(job.bbar.len() as i32),
        Arg::I32(start),
        Arg::U64(t),
        Arg::U64(job.horizon),
        Arg::U64(job.burn_in),
        Arg::U64(n),
        Arg::U64(range.start),
    ];
    args.extend(path_tail(job.key, marks, ns, nt));
    Ok((Launch::new(&INTERACTION, n, args), m))
}

/// The launch of paths `range` of a [`NeedleJob`].
pub fn needle_launch(job: &NeedleJob, range: Range<u64>) -> Result<Launch> {
    job.validate()?;
    let n = range_len(&range, job.paths)?;
    let mut args = vec![Arg::F64(job.abar), Arg::I32(job.capacity as i32), Arg::U64(job.distractors), Arg::U64(job.horizon)];
    args.extend(record_tail(&job.lags, range, job.key));
    Ok(Launch::new(&NEEDLE, n, args))
}

/// Paths from the LRD kernel's outputs ([`DIAGONAL_OUTPUT`]).
pub fn decode_diagonal(summary: &[f64], trace: &[f64], n: usize, m: usize) -> Vec<DiagonalLrdPath> {
    let (ns, nt) = (DIAGONAL_OUTPUT.summary, DIAGONAL_OUTPUT.trace_row);
    (0..n)
        .map(|p| {
            let v = &summary[ns * p..ns * (p + 1)];
            let row = |i: usize| &trace[nt * (p * m + i)..nt * (p * m + i + 1)];
            let tr = (0..m).map(|i| (row(i)[0] as u64, row(i)[1], row(i)[2])).collect();
            DiagonalLrdPath { log_bbar: v[0], min_margin: v[1], argmin_k: v[2] as u64, s_final: v[3], log_lrd_final: v[4], sum_log_lrd: v[5], trace: tr }
        })
        .collect()
}

/// Paths from the interaction kernel's outputs ([`INTERACTION_OUTPUT`]).
pub fn decode_interaction(summary: &[f64], trace: &[f64], n: usize, m: usize) -> Vec<InteractionPath> {
    let (ns, nt) = (INTERACTION_OUTPUT.summary, INTERACTION_OUTPUT.trace_row);
    (0..n)
        .map(|p| {
            let v = &summary[ns * p..ns * (p + 1)];
            let tr = (0..m).map(|i| (trace[nt * (p * m + i)] as u64, trace[nt * (p * m + i) + 1])).collect();
            InteractionPath { log_v0: v[0], log_growth: v[1], log_growth_after_burn_in: v[2], increases: v[3] as u64, trace: tr }
        })
        .collect()
}

/// Rows of the tail-sum kernel's output (`n_times` values per sample).
pub fn decode_tail(out: &[f64], n_times: usize) -> Vec<Vec<f64>> {
    out.chunks(n_times).map(<[f64]>::to_vec).collect()
}

/// Rows of the needle kernel's output: held (1) or not (0) at each of `n_lags` lags.
pub fn decode_needle(out: &[f64], n_lags: usize) -> Vec<Vec<bool>> {
    out.chunks(n_lags).map(|row| row.iter().map(|h| *h != 0.0).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameter list between the entry's parentheses in a kernel source, as (type, name).
    fn signature(kernel: &Kernel) -> Vec<(String, String)> {
        let head = format!("void {}(", kernel.entry);
        let start = kernel.source.find(&head).expect("entry in source") + head.len();
        let end = start + kernel.source[start..].find(')').expect("closing parenthesis");
        kernel.source[start..end]
            .split(',')
            .map(|p| {
                let p = p.split_whitespace().collect::<Vec<_>>().join(" ");
                let (ty, name) = p.rsplit_once(' ').expect("type and name");
                let (ty, name) = match name.strip_prefix('*') {
                    Some(n) => (format!("{ty}*"), n.to_string()),
                    None => (ty.to_string(), name.to_string()),
                };
                (ty, name)
            })
            .collect()
    }

    #[test]
    fn the_oldest_supported_arch_is_chosen() {
        // The lists NVRTC 12.9 and 13.0 report (nvrtcGetSupportedArchs).
        let nvrtc12 = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 120, 121];
        let nvrtc13 = [75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121];
        assert_eq!(ptx_arch(&nvrtc12), Some(70));
        assert_eq!(ptx_arch(&nvrtc13), Some(75));
        assert_eq!(ptx_arch(&[50, 60]), None);
    }

    #[test]
    fn the_parameter_tables_match_the_kernel_sources() {
        for k in &KERNELS {
            let from_source = signature(k);
            let table: Vec<(String, String)> = k.params.iter().map(|(n, t)| (t.c_type().to_string(), n.to_string())).collect();
            assert_eq!(from_source, table, "{}: the table differs from the signature in {}", k.entry, k.file);
        }
    }

    #[test]
    fn launches_follow_the_tables() {
        use crate::mc::StreamKey;
        let d = DiagonalLrdJob {
            a: vec![-1.0],
            b: vec![1.0],
            w: 1.0,
            bias: 0.0,
            disc: Discretization::Zoh,
            horizon: 10,
            paths: 3,
            claimed_rate: -1.0,
            checkpoints: 2,
            key: StreamKey([1, 2]),
        };
        let (l, _) = diagonal_launch(&d, 0..3).unwrap();
        assert!(l.kernel.params.iter().zip(&l.args).all(|(p, a)| p.1 == a.param_type()));
        assert_eq!(l.grid(), 1);
        let t = TailSumJob { c: 0.5, gamma: 0.5, times: vec![1, 2], samples: 300, key: StreamKey([1, 2]) };
        assert_eq!(tail_launch(&t, 0..300).unwrap().grid(), 2);
        assert_eq!(tail_launch(&t, 290..300).unwrap().grid(), 1);
        assert!(tail_launch(&t, 290..301).is_err(), "a range past the job's samples");
        let too_big = DiagonalLrdJob { a: vec![-1.0; MAX_MODES + 1], b: vec![1.0; MAX_MODES + 1], ..d };
        assert!(diagonal_launch(&too_big, 0..3).is_err());
    }
}
