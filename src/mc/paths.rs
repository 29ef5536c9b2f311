//! One path (or sample) of each Monte Carlo job: the engine's inner loops, shared by the rayon
//! backend (on Philox streams), the benchmark workloads (on the portable generator) and, line
//! for line, the CUDA kernels of `kernels/`.
//!
//! The loops work a block of steps at a time: normals are drawn [`STEP_BLOCK`] at a time, the
//! per-step functions (softplus, exp, ln) run as vectorised passes over the block, and only the
//! truly sequential parts (running sums, the matrix–vector chain) stay scalar. Each element goes
//! through the same operations in the same order as in the one-step-at-a-time kernels, so the
//! blocking changes no bit of the results. Nothing is allocated per step, and nothing grows with
//! the horizon except the checkpoint traces.

use super::jobs::{
    DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, NeedleJob, ScalarArJob, ScalarArPath, Start, TailSumJob, TiltedTailJob,
    MAX_INTERACTION_STATE,
};
#[cfg(target_arch = "x86_64")]
use super::lanes::{dot, split, split_u64, LaneTransitions, Lanes, GROUP};
use super::normals::{Buffered, Normals};
use super::transition::{dot_fixed, padded, PortableProduct, Product, Transition};
#[cfg(target_arch = "x86_64")]
use super::transition::{Avx2Product, Avx512Product};
use super::Stream;
use crate::math::isa::{Isa, Kernel};
use crate::math::vecmath::{exp, expm1, ln, ln_normal, softplus, EXP_ZERO_BELOW, LN2_HI, LN2_LO};
use crate::model::eidetic::TopMemory;
use crate::model::log_lrd_norm;
use crate::model::Discretization;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Steps per block (8 KiB per f64 buffer: the working set stays in L1/L2).
pub const STEP_BLOCK: usize = 1024;

/// Lanes of the partial sums in [`tail_sum_sample`]: independent accumulators break the add
/// latency chain (and map onto vector registers); lane `l` sums the terms with index ≡ l
/// (mod LANES), in index order.
pub const LANES: usize = 4;

/// `((l₀ + l₁) + (l₂ + l₃))`: the fixed combination of the lane sums.
#[inline(always)]
fn combine(l: &[f64; LANES]) -> f64 {
    (l[0] + l[1]) + (l[2] + l[3])
}

pub use super::transition::DOT_LANES;

/// B̄ of one mode for the path's step Δ: the rule of [`crate::model::discretize::diagonal`] with
/// the engine's own [`expm1`] instead of libm's, so that the CUDA kernel (`ssm_expm1`) computes
/// the same bits.
fn input_gain(a: f64, b: f64, dt: f64, rule: Discretization) -> f64 {
    match rule {
        Discretization::Zoh if a != 0.0 => expm1(dt * a) * (1.0 / a) * b,
        _ => dt * b,
    }
}

/// One path of the diagonal LRD job.
///
/// Per step k: `Δ_k = softplus(w x_k + b)`, `S_k` by Neumaier-compensated summation,
/// `log‖LRD‖ = ½(m + ln Σ_n e^{2(a_n S_k + ln|B̄_n|) − m})` with `m` the largest term, and the
/// margin `(r S_k + ln‖B̄‖ − log‖LRD‖)/(1 + |r S_k|)`.
///
/// Runs a clone compiled for [`Isa::active`]'s instruction set: the same bits on each.
pub fn diagonal_lrd_path(job: &DiagonalLrdJob, marks: &[u64], normals: impl Normals) -> DiagonalLrdPath {
    Isa::active().run(LrdPath { job, marks, normals })
}

/// [`diagonal_lrd_path`] as a [`Kernel`].
struct LrdPath<'a, N> {
    job: &'a DiagonalLrdJob,
    marks: &'a [u64],
    normals: N,
}

impl<N: Normals> Kernel for LrdPath<'_, N> {
    type Output = DiagonalLrdPath;

    #[inline(always)]
    fn run(self) -> DiagonalLrdPath {
        lrd_path_here(self.job, self.marks, self.normals)
    }
}

/// [`diagonal_lrd_path`], compiled as the caller is.
#[inline(always)]
fn lrd_path_here(job: &DiagonalLrdJob, marks: &[u64], mut normals: impl Normals) -> DiagonalLrdPath {
    let h = job.a.len();
    let dt = softplus(job.w * normals.next_normal() + job.bias);
    let log_b: Vec<f64> = job.a.iter().zip(&job.b).map(|(&a, &b)| ln(input_gain(a, b, dt, job.disc).abs())).collect();
    let log_bbar = log_lrd_norm(&job.a, &log_b, 0.0, &mut vec![0.0; h]);
    let mut x = vec![0.0; STEP_BLOCK];
    let mut s = vec![0.0; STEP_BLOCK];
    let mut mx = vec![0.0; STEP_BLOCK];
    let mut tot = vec![0.0; STEP_BLOCK];
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    let (mut min_margin, mut argmin_k) = (f64::INFINITY, 0);
    let mut sum_log_lrd = 0.0;
    let mut trace = Vec::with_capacity(marks.len());
    let mut next_mark = 0;
    let mut k0 = 1u64;
    while k0 <= job.horizon {
        let nb = STEP_BLOCK.min((job.horizon - k0 + 1) as usize);
        let (x, s, mx, tot) = (&mut x[..nb], &mut s[..nb], &mut mx[..nb], &mut tot[..nb]);
        normals.fill(x);
        for xi in x.iter_mut() {
            *xi = softplus(job.w * *xi + job.bias);
        }
        for (si, &d) in s.iter_mut().zip(x.iter()) {
            let t = sum + d;
            comp += if sum.abs() >= d.abs() { (sum - t) + d } else { (d - t) + sum };
            sum = t;
            *si = sum + comp;
        }
        mx.fill(f64::NEG_INFINITY);
        tot.fill(0.0);
        for (&a, &lb) in job.a.iter().zip(&log_b) {
            for (m, &sk) in mx.iter_mut().zip(s.iter()) {
                // `max`, not `if term > m { term } else { m }`: the compiler turns that select into
                // a conditional store, a masked vector store that AMD's cores microcode (a fifth
                // of W1's time on a Zen 2). The same value: m starts at −∞ and is never NaN, and
                // `max` ignores a NaN term as the select did.
                *m = m.max(2.0 * (a * sk + lb));
            }
        }
        for (&a, &lb) in job.a.iter().zip(&log_b) {
            // A mode more than 745.2 nats below the largest term at every step of the block
            // adds exactly 0 (`exp` returns 0.0 there): skipping it changes no bit, and after a
            // few thousand steps that is every mode but the slowest.
            let live = mx.iter().zip(s.iter()).fold(false, |live, (&m, &sk)| live | (2.0 * (a * sk + lb) - m >= EXP_ZERO_BELOW));
            if !live {
                continue;
            }
            for ((t, &m), &sk) in tot.iter_mut().zip(mx.iter()).zip(s.iter()) {
                *t += exp(2.0 * (a * sk + lb) - m);
            }
        }
        // x now holds log‖LRD‖ and mx the margins.
        for (((l, marg), &t), &sk) in x.iter_mut().zip(mx.iter_mut()).zip(tot.iter()).zip(s.iter()) {
            let log_lrd = if *marg == f64::NEG_INFINITY { *marg } else { 0.5 * (*marg + ln(t)) };
            *marg = (job.claimed_rate * sk + log_bbar - log_lrd) / (1.0 + (job.claimed_rate * sk).abs());
            *l = log_lrd;
        }
        for i in 0..nb {
            let k = k0 + i as u64;
            if mx[i] < min_margin {
                min_margin = mx[i];
                argmin_k = k;
            }
            sum_log_lrd += x[i];
            if next_mark < marks.len() && marks[next_mark] == k {
                trace.push((k, s[i], x[i]));
                next_mark += 1;
            }
        }
        k0 += nb as u64;
    }
    let (s_final, log_lrd_final) = trace.last().map_or((0.0, log_bbar), |&(_, s, l)| (s, l));
    DiagonalLrdPath { log_bbar, min_margin, argmin_k, s_final, log_lrd_final, sum_log_lrd, trace }
}

/// Rows of [`LANES`] terms whose factors a lane multiplies before it takes one logarithm in
/// [`tail_sum_sample`]: a lane's mantissa product of `TAIL_GROUP` factors in [1, 2) stays in
/// [1, 2^TAIL_GROUP), far from overflow.
pub const TAIL_GROUP: u64 = 8;

/// The running state of one tail sum `Y = Σ_i ln y_i` (`y_i = c + γ x_i²`), kept as logarithms
/// of products: a normal, finite y_i = m_i·2^{e_i} (m_i ∈ [1, 2)) multiplies its mantissa into
/// lane i mod [`LANES`]'s product and adds e_i to one exact integer exponent sum; every
/// [`TAIL_GROUP`] rows a lane adds the logarithm of its product to its sum and restarts the
/// product at one. A y_i that is not normal and finite (subnormal, zero, ∞, NaN) adds ln y_i to
/// its lane directly. Then
/// `Y = ((s₀ + ln p₀) + (s₁ + ln p₁)) + ((s₂ + ln p₂) + (s₃ + ln p₃)) + (E·ln2_hi + E·ln2_lo)`,
/// which reads the open products without closing them, so recording Y at a time changes
/// nothing after it.
///
/// One logarithm per `TAIL_GROUP` terms instead of one per term: the product of k factors is
/// within (k − 1)u (relative) of the exact product, so each group's logarithm is within
/// (k − 1)u + 2u·ln(2^k) of the exact sum of its terms' logarithms, about what the k logarithms
/// rounded one by one (each within an ulp of |ln y_i|) and added give.
struct TailSum {
    sums: [f64; LANES],
    products: [f64; LANES],
    /// Σ e_i (|e_i| ≤ 1023).
    exponent: i64,
}

/// The mantissa in [1, 2) of a normal positive f64's bits.
#[inline(always)]
fn mantissa(bits: u64) -> f64 {
    f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
}

/// The unbiased exponent of a normal positive f64's bits.
#[inline(always)]
fn exponent(bits: u64) -> i64 {
    (bits >> 52) as i64 - 1023
}

impl TailSum {
    fn new() -> Self {
        TailSum { sums: [0.0; LANES], products: [1.0; LANES], exponent: 0 }
    }

    /// Term `i` (0-based), one at a time.
    #[inline(always)]
    fn push(&mut self, i: u64, y: f64) {
        let l = (i % LANES as u64) as usize;
        if (f64::MIN_POSITIVE..f64::INFINITY).contains(&y) {
            self.products[l] *= mantissa(y.to_bits());
            self.exponent += exponent(y.to_bits());
        } else {
            self.sums[l] += ln(y);
        }
        if (i / LANES as u64) % TAIL_GROUP == TAIL_GROUP - 1 {
            self.close(l);
        }
    }

    /// Closes lane `l`'s product into its sum.
    #[inline(always)]
    fn close(&mut self, l: usize) {
        self.sums[l] += ln_normal(self.products[l]);
        self.products[l] = 1.0;
    }

    /// Terms `first..first + y.len()`, each normal and finite, `first` a multiple of [`LANES`]:
    /// whole rows, vectorised, with the same operations per lane as [`TailSum::push`]. Rows up
    /// to the next group boundary extend the open products; each whole group's products are
    /// formed row by row into a buffer whose logarithms are taken in one pass; the rows after
    /// the last whole group open the next products.
    #[inline(always)]
    fn push_normal_rows(&mut self, first: u64, y: &mut [f64]) {
        const GROUP: usize = TAIL_GROUP as usize;
        const BATCH: usize = 32;
        debug_assert!((y.is_empty() || first.is_multiple_of(LANES as u64)) && y.len().is_multiple_of(LANES));
        self.exponent += y.iter().map(|v| exponent(v.to_bits())).sum::<i64>();
        y.iter_mut().for_each(|v| *v = mantissa(v.to_bits()));
        let rows = y.len() / LANES;
        let row = |r: usize| -> [f64; LANES] { y[r * LANES..(r + 1) * LANES].try_into().expect("a row of LANES") };
        let lead = ((GROUP as u64 - (first / LANES as u64) % TAIL_GROUP) % TAIL_GROUP) as usize;
        let lead = lead.min(rows);
        let extend = |products: &mut [f64; LANES], r: usize| {
            let m = row(r);
            *products = std::array::from_fn(|l| products[l] * m[l]);
        };
        (0..lead).for_each(|r| extend(&mut self.products, r));
        if lead > 0 && (first / LANES as u64 + lead as u64).is_multiple_of(TAIL_GROUP) {
            (0..LANES).for_each(|l| self.close(l));
        }
        let groups = (rows - lead) / GROUP;
        let mut logs = [0.0; BATCH * LANES];
        for batch in (0..groups).step_by(BATCH) {
            let n = BATCH.min(groups - batch);
            for g in 0..n {
                let r0 = lead + (batch + g) * GROUP;
                let mut p = row(r0);
                (r0 + 1..r0 + GROUP).for_each(|r| extend(&mut p, r));
                logs[g * LANES..(g + 1) * LANES].copy_from_slice(&p);
            }
            let logs = &mut logs[..n * LANES];
            logs.iter_mut().for_each(|v| *v = ln_normal(*v));
            for g in logs.chunks_exact(LANES) {
                self.sums = std::array::from_fn(|l| self.sums[l] + g[l]);
            }
        }
        (lead + groups * GROUP..rows).for_each(|r| extend(&mut self.products, r));
    }

    /// Y over the terms pushed so far.
    fn value(&self) -> f64 {
        let lane = |l: usize| self.sums[l] + ln_normal(self.products[l]);
        // E as f64 is exact (|E| < 2^53 for any horizon this engine runs).
        let e = self.exponent as f64;
        ((lane(0) + lane(1)) + (lane(2) + lane(3))) + (e * LN2_HI + e * LN2_LO)
    }
}

/// One sample of the tail-sum job: `Y_t = Σ_{i≤t} ln(c + γ x_i²)`, accumulated as logarithms
/// of products (mantissas multiplied per lane, one logarithm per eight rows, exponents summed
/// exactly; the private `TailSum` states the order of every operation) and read at each record
/// time. Runs a clone compiled for [`Isa::active`]'s instruction set: the same bits on each.
pub fn tail_sum_sample(job: &TailSumJob, normals: impl Normals) -> Vec<f64> {
    Isa::active().run(TailSample { job, normals })
}

/// [`tail_sum_sample`] as a [`Kernel`].
struct TailSample<'a, N> {
    job: &'a TailSumJob,
    normals: N,
}

impl<N: Normals> Kernel for TailSample<'_, N> {
    type Output = Vec<f64>;

    #[inline(always)]
    fn run(self) -> Vec<f64> {
        tail_sum_here(self.job, self.normals)
    }
}

/// [`tail_sum_sample`], compiled as the caller is.
#[inline(always)]
fn tail_sum_here(job: &TailSumJob, mut normals: impl Normals) -> Vec<f64> {
    let mut x = vec![0.0; STEP_BLOCK];
    let mut sum = TailSum::new();
    let mut done = 0u64;
    // A loop, not `map(…).collect()`: the closure of an iterator adapter is a function of its own
    // that the compiler need not inline into the [`Kernel`]'s clone.
    let mut values = Vec::with_capacity(job.times.len());
    for &until in &job.times {
        while done < until {
            let nb = STEP_BLOCK.min((until - done) as usize);
            let x = &mut x[..nb];
            normals.fill(x);
            x.iter_mut().for_each(|xi| *xi = job.c + job.gamma * *xi * *xi);
            // Normal and finite terms (always, for c ≥ 2^−1022 and the generators' normals)
            // go by whole rows: a scalar head up to the next row boundary, the rows, a tail.
            let normal = x.iter().fold(true, |ok, a| ok & (f64::MIN_POSITIVE..f64::INFINITY).contains(a));
            let head = if normal { ((LANES as u64 - done % LANES as u64) % LANES as u64) as usize } else { nb };
            let head = head.min(nb);
            let rows = (nb - head) / LANES * LANES;
            for (i, &y) in x[..head].iter().enumerate() {
                sum.push(done + i as u64, y);
            }
            sum.push_normal_rows(done + head as u64, &mut x[head..head + rows]);
            for (i, &y) in x[head + rows..].iter().enumerate() {
                sum.push(done + (head + rows + i) as u64, y);
            }
            done += nb as u64;
        }
        values.push(sum.value());
    }
    values
}

/// One sample of the tilted tail-sum job: `Y_t` over the first t accepted proposals. Proposals
/// are drawn and tested in blocks (up to [`STEP_BLOCK`], about twice the terms still missing) as
/// vectorised passes; the accepted terms are then summed in order (term i to lane i mod
/// [`LANES`]). Neither the block sizes nor drawing past the t-th acceptance change anything: each
/// proposal has its own counter. Runs a clone compiled for [`Isa::active`]'s instruction set:
/// the same bits on each.
pub fn tilted_tail_sample(job: &TiltedTailJob, normals: impl Normals, uniforms: Stream) -> f64 {
    Isa::active().run(TiltedSample { job, normals, uniforms })
}

/// [`tilted_tail_sample`] as a [`Kernel`].
struct TiltedSample<'a, N> {
    job: &'a TiltedTailJob,
    normals: N,
    uniforms: Stream,
}

impl<N: Normals> Kernel for TiltedSample<'_, N> {
    type Output = f64;

    #[inline(always)]
    fn run(self) -> f64 {
        tilted_tail_here(self.job, self.normals, self.uniforms)
    }
}

/// [`tilted_tail_sample`], compiled as the caller is.
#[inline(always)]
fn tilted_tail_here(job: &TiltedTailJob, mut normals: impl Normals, mut uniforms: Stream) -> f64 {
    let mut z = vec![0.0; STEP_BLOCK];
    let mut v = vec![0.0; STEP_BLOCK];
    let mut lanes = [0.0; LANES];
    let mut accepted = 0u64;
    while accepted < job.t {
        // Even, so the uniforms stay aligned to their blocks.
        let nb = (2 * (job.t - accepted)).clamp(16, STEP_BLOCK as u64) as usize;
        let (z, v) = (&mut z[..nb], &mut v[..nb]);
        normals.fill(z);
        uniforms.fill_uniform_pairs(v);
        for (zj, vj) in z.iter_mut().zip(v.iter_mut()) {
            let u = (*zj * *zj) * job.scale;
            let y = ln(job.c + job.gamma * u);
            let log_ratio = (job.theta * y - job.eta * u) - job.log_bound;
            *zj = y;
            *vj = if ln(*vj) <= log_ratio { 1.0 } else { 0.0 };
        }
        // Branch-free (acceptance is a coin flip the predictor cannot learn): a rejected or
        // surplus proposal adds +0.0, which leaves a lane unchanged (lanes are never −0.0).
        for (&y, &ok) in z.iter().zip(v.iter()) {
            let take = ok == 1.0 && accepted < job.t;
            lanes[(accepted % LANES as u64) as usize] += if take { y } else { 0.0 };
            accepted += u64::from(take);
        }
    }
    combine(&lanes)
}

/// One path of the scalar AR(1) job, tracked as `z·e^{scale}` with rescaling.
pub fn scalar_ar_path(job: &ScalarArJob, normals: impl Normals) -> ScalarArPath {
    scalar_ar_paths(job, vec![normals]).pop().expect("one path")
}

/// Paths of the scalar AR(1) job advanced in lockstep, one per source of normals: the
/// recurrence is a latency-bound chain, so independent paths interleaved step by step keep the
/// floating-point units busy. Each path's numbers are exactly those of a lone path.
pub fn scalar_ar_paths<N: Normals>(job: &ScalarArJob, sources: Vec<N>) -> Vec<ScalarArPath> {
    const LIMIT: f64 = 1e150;
    let n = sources.len();
    let mut normals: Vec<Buffered<N>> = sources.into_iter().map(Buffered::new).collect();
    // z_t = z·e^{scale}; the input term is damped by e^{−scale} once the path is rescaled.
    let (mut z, mut scale, mut damp) = (vec![0.0f64; n], vec![0.0f64; n], vec![1.0f64; n]);
    let mut out: Vec<ScalarArPath> =
        (0..n).map(|_| ScalarArPath { log_abs: Vec::with_capacity(job.times.len()), value: Vec::with_capacity(job.times.len()) }).collect();
    let mut t = 0u64;
    for &until in &job.times {
        while t < until {
            for k in 0..n {
                let x = normals[k].draw();
                z[k] = (job.c + job.gamma * x * x) * z[k] + job.q * x * damp[k];
                if z[k].abs() > LIMIT {
                    z[k] /= LIMIT;
                    scale[k] += LIMIT.ln();
                    damp[k] = (-scale[k]).exp();
                }
            }
            t += 1;
        }
        for k in 0..n {
            out[k].log_abs.push(z[k].abs().ln() + scale[k]);
            out[k].value.push(if scale[k] == 0.0 { z[k] } else { z[k].signum() * f64::INFINITY });
        }
    }
    out
}

/// One path of a [`NeedleJob`]: whether the needle is held at each of the job's lags. The
/// amplitudes are drawn as their spikes arrive (the same uniforms, in the same order, as
/// drawing them all first).
pub fn needle_path(job: &NeedleJob, mut stream: Stream) -> Vec<bool> {
    let mut memory = TopMemory::new(job.capacity);
    let (mut y, mut next, mut rec) = (0.0f64, 1u64, 0usize);
    let mut held = Vec::with_capacity(job.lags.len());
    for t in 0..=job.horizon {
        let u = if t == 0 || (next <= job.distractors && job.position(next) == t) {
            next += u64::from(t > 0);
            1.0 + 0.5 * stream.uniform()
        } else {
            0.0
        };
        let prev = y;
        y = job.abar * y + (1.0 - job.abar) * u;
        memory.offer(t as usize, (y - prev) * (y - prev));
        while rec < job.lags.len() && job.lags[rec] == t {
            held.push(memory.entries.iter().any(|e| e.pos == 0));
            rec += 1;
        }
    }
    held
}

/// Squared norms outside [2^−400, 2^400] trigger an exact rescaling by a power of two.
const RESCALE_BELOW: f64 = 3.872_591_914_849_318e-121; // 2^-400
const RESCALE_ABOVE: f64 = 2.582_249_878_086_908_6e120; // 2^400

/// Paths advanced in lockstep by [`interaction_paths`]: independent dependency chains the core
/// overlaps, as the C reference interleaves its instances.
pub const LOCKSTEP: usize = 4;

/// One path of the interaction job (H ≤ [`MAX_INTERACTION_STATE`]): `v_k = M_k v_{k−1}`, kept
/// unnormalised and rescaled by exact powers of two (`v = ṽ·2^E`) only when its squared norm
/// `q_k = ‖ṽ_k‖²` leaves [2^−400, 2^400]. Then `log‖Φ(k) v₀‖ = ½ ln q_k + E ln 2`, the per-step
/// growth `‖v_k‖/‖v_{k−1}‖` exceeds 1 iff `q_k > q_{k−1}`, and no norm, square root, division or
/// logarithm sits on the step-to-step dependency chain (which is only the matrix–vector product).
pub fn interaction_path<N: Normals>(job: &InteractionJob, marks: &[u64], normals: N) -> InteractionPath {
    interaction_paths(&[job], marks, vec![normals]).pop().expect("one path")
}

/// Several interaction paths (of jobs with the same state size and horizon), advanced
/// [`LOCKSTEP`] at a time; each path's numbers are exactly those of [`interaction_path`].
///
/// # Panics
/// If `jobs` and `normals` differ in length or the jobs differ in H or horizon (a caller's
/// bug: the backends group paths of one validated job).
pub fn interaction_paths<N: Normals>(jobs: &[&InteractionJob], marks: &[u64], normals: Vec<N>) -> Vec<InteractionPath> {
    interaction_paths_on(Isa::active(), jobs, marks, normals)
}

/// [`interaction_paths`] on a given instruction set (one the CPU supports): the same bits on
/// each.
///
/// # Panics
/// As [`interaction_paths`], and if the CPU does not support `isa`.
pub fn interaction_paths_on<N: Normals>(isa: Isa, jobs: &[&InteractionJob], marks: &[u64], normals: Vec<N>) -> Vec<InteractionPath> {
    assert_eq!(jobs.len(), normals.len(), "one normal source per path");
    assert!(jobs.windows(2).all(|w| w[0].bbar.len() == w[1].bbar.len() && w[0].horizon == w[1].horizon), "lockstep paths share H and the horizon");
    assert!(isa.supported(), "this CPU does not support {isa}");
    let h = jobs.first().map_or(0, |j| j.bbar.len());
    match h {
        0..=4 => lockstep_groups::<4, N>(isa, jobs, marks, normals),
        5..=8 => lockstep_groups::<8, N>(isa, jobs, marks, normals),
        9..=16 => lockstep_groups::<16, N>(isa, jobs, marks, normals),
        17..=32 => lockstep_groups::<32, N>(isa, jobs, marks, normals),
        _ => lockstep_groups::<MAX_INTERACTION_STATE, N>(isa, jobs, marks, normals),
    }
}

fn lockstep_groups<const P: usize, N: Normals>(isa: Isa, jobs: &[&InteractionJob], marks: &[u64], normals: Vec<N>) -> Vec<InteractionPath> {
    let mut out = Vec::with_capacity(jobs.len());
    let mut sources = normals.into_iter();
    for group in jobs.chunks(LOCKSTEP) {
        let walkers: Vec<Walker<'_, P, N>> = group.iter().map(|&job| Walker::start(job, sources.next().expect("one source per path"))).collect();
        match <[Walker<'_, P, N>; LOCKSTEP]>::try_from(walkers) {
            Ok(full) => out.extend(full_group_on(isa, full, marks)),
            Err(partial) => out.extend(partial.into_iter().flat_map(|w| lockstep_on(isa, [w], marks))),
        }
    }
    out
}

/// A full group of [`LOCKSTEP`] paths: in the lanes of one vector ([`lanes_lockstep`]) where
/// the CPU has AVX2, else [`lockstep`]; the same bits either way.
fn full_group_on<const P: usize, N: Normals>(isa: Isa, walkers: [Walker<'_, P, N>; LOCKSTEP], marks: &[u64]) -> [InteractionPath; LOCKSTEP] {
    /// AVX2 + FMA: rows two at a time (4 × 2 accumulators in sixteen registers).
    ///
    /// # Safety
    /// The CPU must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx2<const P: usize, N: Normals>(walkers: [Walker<'_, P, N>; LOCKSTEP], marks: &[u64]) -> [InteractionPath; LOCKSTEP] {
        // SAFETY: AVX2 and FMA are enabled here.
        unsafe { lanes_lockstep::<P, N, 2>(walkers, marks) }
    }
    /// AVX-512 (VL: 32 vector registers): rows four at a time.
    ///
    /// # Safety
    /// The CPU must support AVX-512 (F, DQ, VL, BW).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
    unsafe fn avx512<const P: usize, N: Normals>(walkers: [Walker<'_, P, N>; LOCKSTEP], marks: &[u64]) -> [InteractionPath; LOCKSTEP] {
        // SAFETY: AVX-512, AVX2 and FMA are enabled here.
        unsafe { lanes_lockstep::<P, N, 4>(walkers, marks) }
    }
    match isa {
        // SAFETY: `interaction_paths_on` checked that the CPU supports `isa`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2(walkers, marks) },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512(walkers, marks) },
        _ => lockstep_on(isa, walkers, marks),
    }
}

/// Advances [`LOCKSTEP`] walkers over the horizon with their vectors in the lanes of one
/// 256-bit vector ([`LaneTransitions`]): each step is one product for all four, then the
/// bookkeeping on the lanes' squared norms — on the vectors when every lane is in range and the
/// step is no checkpoint or burn-in, else each walker's own [`Walker::record`], with a lane
/// rescaled by the power of two that returns. The same numbers as [`lockstep`], bit for bit.
///
/// # Safety
/// AVX2 and FMA must be enabled.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn lanes_lockstep<const P: usize, N: Normals, const R: usize>(mut walkers: [Walker<'_, P, N>; LOCKSTEP], marks: &[u64]) -> [InteractionPath; LOCKSTEP] {
    const { assert!(LOCKSTEP == GROUP) };
    let horizon = walkers[0].job.horizon;
    let m = LaneTransitions::new(std::array::from_fn(|p| &walkers[p].m));
    // Two buffers in turn: the product reads one and writes the other (a copy back each step was
    // compiled as wide loads of narrower stores just made, which the core cannot forward).
    let mut v: [Lanes; P] = std::array::from_fn(|i| Lanes(std::array::from_fn(|p| walkers[p].v[i])));
    let mut next = [Lanes::default(); P];
    let (mut v, mut next) = (&mut v, &mut next);
    let (below, above) = (_mm256_set1_pd(RESCALE_BELOW), _mm256_set1_pd(RESCALE_ABOVE));
    let (mut increases, mut q_prev) = (gather_u64(&walkers, |w| w.increases), gather(&walkers, |w| w.q_prev));
    let mut next_special = special_after(&walkers, 0, marks);
    let mut x = vec![[0.0; STEP_BLOCK]; GROUP];
    let mut k0 = 1u64;
    while k0 <= horizon {
        let nb = STEP_BLOCK.min((horizon - k0 + 1) as usize);
        for (w, xg) in walkers.iter_mut().zip(x.iter_mut()) {
            w.normals.fill(&mut xg[..nb]);
        }
        // Step i reads entry i of each walker's block of inputs: an index, not an iterator.
        #[allow(clippy::needless_range_loop)]
        for i in 0..nb {
            let k = k0 + i as u64;
            m.apply::<R>(_mm256_set_pd(x[3][i], x[2][i], x[1][i], x[0][i]), v, next);
            std::mem::swap(&mut v, &mut next);
            let q = dot(v, v);
            // Most steps: every lane in range, no checkpoint and no burn-in, so the bookkeeping
            // is `increases += q > q_prev; q_prev = q` in each lane, done on the vectors.
            let in_range = _mm256_and_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(q, below), _mm256_cmp_pd::<_CMP_LT_OQ>(q, above));
            if _mm256_movemask_pd(in_range) == 0b1111 && k != next_special {
                increases = _mm256_sub_epi64(increases, _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_GT_OQ>(q, q_prev)));
                q_prev = q;
                continue;
            }
            // Otherwise each walker's own bookkeeping, on its counts brought up to date.
            let (counts, previous, q) = (split_u64(increases), split(q_prev), split(q));
            for (p, w) in walkers.iter_mut().enumerate() {
                (w.increases, w.q_prev) = (counts[p], previous[p]);
                let down = w.record(q[p], k, marks);
                if down != 1.0 {
                    v.iter_mut().for_each(|vi| vi.0[p] *= down);
                }
            }
            (increases, q_prev) = (gather_u64(&walkers, |w| w.increases), gather(&walkers, |w| w.q_prev));
            next_special = special_after(&walkers, k, marks);
        }
        k0 += nb as u64;
    }
    let (counts, previous) = (split_u64(increases), split(q_prev));
    for (p, w) in walkers.iter_mut().enumerate() {
        (w.increases, w.q_prev) = (counts[p], previous[p]);
    }
    walkers.map(Walker::finish)
}

/// The first step after k at which some walker records more than its count (a checkpoint or
/// a burn-in); `u64::MAX` when none is left.
#[cfg(target_arch = "x86_64")]
fn special_after<const P: usize, N: Normals>(walkers: &[Walker<'_, P, N>; LOCKSTEP], k: u64, marks: &[u64]) -> u64 {
    let mark = walkers.iter().filter_map(|w| marks.get(w.next_mark).copied()).min().unwrap_or(u64::MAX);
    walkers.iter().map(|w| w.job.burn_in).filter(|&b| b > k).fold(mark, u64::min)
}

/// A field of each walker, lane by lane.
///
/// # Safety
/// AVX2 must be enabled.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn gather<const P: usize, N: Normals>(walkers: &[Walker<'_, P, N>; LOCKSTEP], field: impl Fn(&Walker<'_, P, N>) -> f64) -> __m256d {
    _mm256_set_pd(field(&walkers[3]), field(&walkers[2]), field(&walkers[1]), field(&walkers[0]))
}

/// [`gather`] of a count.
///
/// # Safety
/// AVX2 must be enabled.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn gather_u64<const P: usize, N: Normals>(walkers: &[Walker<'_, P, N>; LOCKSTEP], field: impl Fn(&Walker<'_, P, N>) -> u64) -> __m256i {
    _mm256_set_epi64x(field(&walkers[3]) as i64, field(&walkers[2]) as i64, field(&walkers[1]) as i64, field(&walkers[0]) as i64)
}

/// [`lockstep`] with the product of `isa`, compiled for it.
fn lockstep_on<const P: usize, const G: usize, N: Normals>(isa: Isa, walkers: [Walker<'_, P, N>; G], marks: &[u64]) -> [InteractionPath; G] {
    /// AVX2 + FMA intrinsics.
    ///
    /// # Safety
    /// The CPU must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx2<const P: usize, const G: usize, N: Normals>(walkers: [Walker<'_, P, N>; G], marks: &[u64]) -> [InteractionPath; G] {
        // SAFETY: AVX2 and FMA are enabled here.
        unsafe { lockstep::<P, G, N, Avx2Product>(walkers, marks) }
    }
    /// AVX-512 F intrinsics.
    ///
    /// # Safety
    /// The CPU must support AVX-512 (F, DQ, VL, BW).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
    unsafe fn avx512<const P: usize, const G: usize, N: Normals>(walkers: [Walker<'_, P, N>; G], marks: &[u64]) -> [InteractionPath; G] {
        // SAFETY: AVX-512 F, AVX2 and FMA are enabled here.
        unsafe { lockstep::<P, G, N, Avx512Product>(walkers, marks) }
    }
    match isa {
        // SAFETY: `interaction_paths_on` checked that the CPU supports `isa`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2(walkers, marks) },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512(walkers, marks) },
        // SAFETY: as above.
        _ => unsafe { lockstep::<P, G, N, PortableProduct>(walkers, marks) },
    }
}

/// Advances G walkers over the horizon, step by step in turn.
///
/// # Safety
/// The instruction set `M` needs must be enabled ([`Product`]).
#[inline(always)]
unsafe fn lockstep<const P: usize, const G: usize, N: Normals, M: Product>(mut walkers: [Walker<'_, P, N>; G], marks: &[u64]) -> [InteractionPath; G] {
    let horizon = walkers[0].job.horizon;
    let mut x = vec![[0.0; STEP_BLOCK]; G];
    let mut k0 = 1u64;
    while k0 <= horizon {
        let nb = STEP_BLOCK.min((horizon - k0 + 1) as usize);
        for (w, xg) in walkers.iter_mut().zip(x.iter_mut()) {
            w.normals.fill(&mut xg[..nb]);
        }
        for i in 0..nb {
            for (w, xg) in walkers.iter_mut().zip(x.iter()) {
                w.step::<M>(xg[i], k0 + i as u64, marks);
            }
        }
        k0 += nb as u64;
    }
    walkers.map(Walker::finish)
}

/// The state of one interaction path.
struct Walker<'a, const P: usize, N: Normals> {
    job: &'a InteractionJob,
    m: Transition<P>,
    normals: N,
    v: [f64; P],
    log_v0: f64,
    q0: f64,
    q_prev: f64,
    e: i64,
    increases: u64,
    log_at_burn_in: f64,
    trace: Vec<(u64, f64)>,
    next_mark: usize,
}

impl<'a, const P: usize, N: Normals> Walker<'a, P, N> {
    /// The start vector (after the LRD prefix for `Start::Lrd`), normalised.
    fn start(job: &'a InteractionJob, mut normals: N) -> Self {
        let h = job.bbar.len();
        let m = Transition::<P>::new(job);
        let bbar: [f64; P] = padded(&job.bbar);
        let mut v = [0.0; P];
        match job.start {
            Start::Lrd { t } => {
                // h_{t−1} by eq (14) from h_0 = 0, then v_0 = B̄ + 2 x_t (W·h_{t−1}) G.
                for _ in 1..t {
                    let x = normals.next_normal();
                    let mv = m.apply(x, &v);
                    v = std::array::from_fn(|i| mv[i] + bbar[i] * x);
                }
                let c = 2.0 * normals.next_normal() * dot_fixed(&m.w, &v);
                v = std::array::from_fn(|i| bbar[i] + c * m.g[i]);
            }
            Start::Random => normals.fill(&mut v[..h]),
            Start::Ones => v[..h].fill(1.0),
        }
        let n0 = dot_fixed(&v, &v).sqrt();
        v.iter_mut().for_each(|vi| *vi /= n0);
        let q0 = dot_fixed(&v, &v);
        Walker { job, m, normals, v, log_v0: ln(n0), q0, q_prev: q0, e: 0, increases: 0, log_at_burn_in: 0.0, trace: vec![], next_mark: 0 }
    }

    /// `log‖Φ(k)v₀‖ − log‖v₀‖ = ½(ln q_k − ln q₀) + E ln 2`.
    fn log_growth(&self, q: f64) -> f64 {
        0.5 * (ln(q) - ln(self.q0)) + self.e as f64 * std::f64::consts::LN_2
    }

    /// Step k with input x.
    ///
    /// # Safety
    /// The instruction set `M` needs must be enabled ([`Product`]).
    #[inline(always)]
    unsafe fn step<M: Product>(&mut self, x: f64, k: u64, marks: &[u64]) {
        self.v = M::apply(&self.m, x, &self.v);
        let down = self.record(M::norm2(&self.v), k, marks);
        if down != 1.0 {
            self.v.iter_mut().for_each(|vi| *vi *= down);
        }
    }

    /// The bookkeeping of step k on `q = ‖ṽ_k‖²`; returns the power of two by which ṽ_k must
    /// then be multiplied (1 unless q left [2^−400, 2^400]).
    #[inline(always)]
    fn record(&mut self, mut q: f64, k: u64, marks: &[u64]) -> f64 {
        let mut down = 1.0;
        if !(q > RESCALE_BELOW && q < RESCALE_ABOVE) && q > 0.0 && q.is_finite() {
            // ṽ ← ṽ·2^−s with s = ⌊log₂ q⌋/2 (|s| ≥ 200): exact, as is q ← q·4^−s.
            let s = (((q.to_bits() >> 52) & 0x7ff) as i64 - 1023) / 2;
            let down2 = f64::from_bits(((1023 - 2 * s) as u64) << 52);
            down = f64::from_bits(((1023 - s) as u64) << 52);
            q *= down2;
            self.q_prev *= down2;
            self.e += s;
        }
        self.increases += u64::from(q > self.q_prev);
        self.q_prev = q;
        if k == self.job.burn_in {
            self.log_at_burn_in = self.log_growth(q);
        }
        if self.next_mark < marks.len() && marks[self.next_mark] == k {
            self.trace.push((k, self.log_v0 + self.log_growth(q)));
            self.next_mark += 1;
        }
        down
    }

    fn finish(self) -> InteractionPath {
        let total = self.log_growth(self.q_prev);
        InteractionPath {
            log_v0: self.log_v0,
            log_growth: total,
            log_growth_after_burn_in: total - self.log_at_burn_in,
            increases: self.increases,
            trace: self.trace,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};

    /// Terms for [`TailSum`]: logarithms spread over [−30, 30] (so exponents of both signs),
    /// and, when `odd` is set, a subnormal, a zero and an ∞ among them (the one-at-a-time path).
    fn tail_terms(n: usize, odd: bool) -> Vec<f64> {
        let mut s = Stream::new(StreamKey::new(11, "tail-terms"), 0);
        let mut y: Vec<f64> = (0..n).map(|_| (30.0 * s.normal().tanh()).exp()).collect();
        if odd {
            y[n / 3] = 1e-310;
            y[n / 2] = 0.0;
            y[n - 5] = f64::INFINITY;
        }
        y
    }

    /// The vectorised rows give the bits of the one-term-at-a-time definition, for blocks that
    /// start and end anywhere in a row or a group, and a value read mid-group closes nothing.
    #[test]
    fn tail_sum_rows_equal_the_term_by_term_definition() {
        for odd in [false, true] {
            let y = tail_terms(3000, odd);
            let mut one = TailSum::new();
            let mut reads = Vec::new();
            for (i, &v) in y.iter().enumerate() {
                one.push(i as u64, v);
                if [0, 7, 31, 32, 33, 1000, 2047].contains(&i) {
                    reads.push(one.value());
                }
            }
            for cuts in [vec![3000], vec![1, 32, 33, 2048, 3000], vec![5, 6, 37, 101, 1030, 2999, 3000], vec![8, 1000, 1001, 3000]] {
                let mut rows = TailSum::new();
                let mut start = 0;
                for &end in &cuts {
                    // Each block as tail_sum_sample splits it: a head to the row boundary, rows, a tail.
                    let block = &y[start..end];
                    let normal = block.iter().all(|a| (f64::MIN_POSITIVE..f64::INFINITY).contains(a));
                    let head = if normal { (LANES - start % LANES) % LANES } else { block.len() }.min(block.len());
                    let whole = (block.len() - head) / LANES * LANES;
                    for (i, &v) in block[..head].iter().enumerate() {
                        rows.push((start + i) as u64, v);
                    }
                    rows.push_normal_rows((start + head) as u64, &mut block[head..head + whole].to_vec());
                    for (i, &v) in block[head + whole..].iter().enumerate() {
                        rows.push((start + head + whole + i) as u64, v);
                    }
                    start = end;
                }
                assert_eq!(rows.value().to_bits(), one.value().to_bits(), "cuts {cuts:?}, odd terms {odd}");
            }
            let mut again = TailSum::new();
            y.iter().enumerate().for_each(|(i, &v)| again.push(i as u64, v));
            assert_eq!(again.value().to_bits(), one.value().to_bits(), "reading closes nothing");
            assert_eq!(reads.len(), 7);
            if !odd {
                assert!(one.value().is_finite());
            } else {
                assert!(one.value().is_nan(), "ln 0 + ln ∞ = −∞ + ∞");
            }
        }
    }

    /// Y is within its derived rounding bound of Σ ln y_i (each logarithm by the platform's
    /// libm, summed with Neumaier's compensation). The bound, u = 2⁻⁵³: a group's product of
    /// k ≤ 8 mantissas is within γ_{k−1} of the exact product, so its logarithm moves by at
    /// most (k − 1)u(1 + u); `ln_normal` is within 2u·|ln p| ≤ 2u·k·ln 2; a lane's recursive
    /// sum of its n group logarithms is within γ_n·Σ|terms|; E·ln2_lo rounds by u·|E·ln2_lo|;
    /// the final four additions by 4u·(Σ|lanes| + |E| ln 2). The reference's own error is at
    /// most 2u per logarithm plus the compensated sum's 2u·|Σ|.
    #[test]
    fn tail_sum_is_within_its_rounding_bound() {
        let u = f64::EPSILON / 2.0;
        let y = tail_terms(5000, false);
        let mut sum = TailSum::new();
        y.iter().enumerate().for_each(|(i, &v)| sum.push(i as u64, v));
        let (mut s, mut comp, mut abs_ref) = (0.0f64, 0.0f64, 0.0f64);
        for &v in &y {
            let l = v.ln();
            abs_ref += l.abs();
            let t = s + l;
            comp += if s.abs() >= l.abs() { (s - t) + l } else { (l - t) + s };
            s = t;
        }
        let reference = s + comp;
        let k = TAIL_GROUP as f64;
        // Group logarithms per lane (the open product's included), each in [0, k ln 2).
        let per_lane = (y.len() / LANES) as f64 / k + 1.0;
        let lanes_abs = LANES as f64 * per_lane * k * std::f64::consts::LN_2;
        let e = sum.exponent as f64;
        let bound = u * y.len() as f64 * (1.0 + 2.0 * std::f64::consts::LN_2) * (1.0 + u)
            + per_lane * u / (1.0 - per_lane * u) * lanes_abs
            + u * (e * LN2_LO).abs()
            + 4.0 * u * (lanes_abs + e.abs() * std::f64::consts::LN_2)
            + 2.0 * u * abs_ref
            + 2.0 * u * reference.abs();
        let err = (sum.value() - reference).abs();
        assert!(err <= bound, "|Y − Σ ln y| = {err:e} > bound {bound:e}");
        // The bound can fail: ln 2 rounded to f64 for the exponents (E·ln2_lo dropped) is caught.
        let mutant = (sum.value() - e * LN2_LO - reference).abs();
        assert!(mutant > bound, "the mutant's error {mutant:e} is within the bound {bound:e}");
        assert!(bound < 1e-9 * abs_ref, "the bound is informative: {bound:e} against Σ|ln y| = {abs_ref:e}");
    }

    /// An interaction job of H = h with `diag` on Ā's diagonal, 6 paths from the LRD start,
    /// burn-in and checkpoints.
    fn interaction_job(h: usize, diag: f64, key: &str) -> InteractionJob {
        InteractionJob {
            abar: (0..h).map(|i| (0..h).map(|j| if i == j { diag } else { 0.05 * (i as f64 - j as f64) }).collect()).collect(),
            bbar: vec![0.3; h],
            g: vec![0.2; h],
            w: vec![-0.1; h],
            start: Start::Lrd { t: 3 },
            horizon: 3000,
            burn_in: 10,
            paths: 6,
            checkpoints: 5,
            key: StreamKey::new(4, key),
        }
    }

    #[test]
    fn paths_in_vector_lanes_equal_lone_paths_on_every_instruction_set() {
        // Four different transitions in one group, so a lane mixed up with another shows: the
        // diagonals 1.9 … 0.6 make the lanes grow or decay at different rates (1.9 past 2^400,
        // so one lane is rescaled while the others are not); the burn-in and checkpoints fall
        // inside the step blocks; H = 5 and 20 are padded (to 8 and 32). A swap of two lanes'
        // inputs, or a step loop that skips the checkpoints, fails it.
        for h in [5, 16, 20] {
            let jobs: Vec<InteractionJob> = [1.9, 0.6, 1.3, 0.8]
                .iter()
                .enumerate()
                .map(|(p, &diag)| InteractionJob { burn_in: 1500, horizon: 2500, ..interaction_job(h, diag, &format!("lane {p}")) })
                .collect();
            let refs: Vec<&InteractionJob> = jobs.iter().collect();
            let marks = crate::mc::jobs::log_checkpoints(2500, 7);
            let lone: Vec<InteractionPath> = jobs
                .iter()
                .enumerate()
                .map(|(p, job)| interaction_paths_on(Isa::Portable, &[job], &marks, vec![Stream::new(job.key, p as u64)]).remove(0))
                .collect();
            assert!(lone.iter().all(|p| p.log_growth.is_finite() && p.trace.len() == marks.len()));
            for isa in Isa::available() {
                let group = interaction_paths_on(isa, &refs, &marks, jobs.iter().enumerate().map(|(p, job)| Stream::new(job.key, p as u64)).collect());
                assert_eq!(group, lone, "{isa} at H = {h}");
            }
        }
    }

    #[test]
    fn lockstep_paths_equal_lone_paths_bit_for_bit() {
        let job = interaction_job(5, 0.6, "lockstep");
        let marks = crate::mc::jobs::log_checkpoints(job.horizon, job.checkpoints);
        let lone: Vec<InteractionPath> = (0..6).map(|p| interaction_path(&job, &marks, Stream::new(job.key, p))).collect();
        let grouped = interaction_paths(&[&job; 6], &marks, (0..6).map(|p| Stream::new(job.key, p)).collect());
        assert_eq!(lone, grouped);
    }

    /// The [`Kernel`]s of this module on every instruction set the CPU offers, against the
    /// portable build, on both generators (whose fills are kernels too), to the bit (`{:?}`
    /// tells −0.0 from 0.0 and prints NaN).
    #[test]
    fn every_instruction_set_gives_the_same_samples() {
        use crate::mc::portable::PortableNormals;
        let key = StreamKey::new(5, "kernels");
        // Horizons that are not multiples of the block, and an odd start of the portable stream.
        let lrd = DiagonalLrdJob {
            a: (0..16).map(|n| -((n + 1) as f64) / 8.0).collect(),
            b: vec![1.0; 16],
            w: 0.5,
            bias: -2.0,
            disc: crate::model::Discretization::Zoh,
            horizon: 2500,
            paths: 1,
            claimed_rate: -0.1,
            checkpoints: 4,
            key,
        };
        let marks = crate::mc::jobs::log_checkpoints(lrd.horizon, lrd.checkpoints);
        let tail = TailSumJob { c: 0.3, gamma: 1.7, times: vec![7, 1030, 3001], samples: 1, key };
        let tilted = TiltedTailJob {
            c: 0.3,
            gamma: 1.7,
            theta: 0.4,
            eta: 0.25,
            scale: 2.0,
            log_bound: 3.0,
            t: 777,
            samples: 1,
            key,
            accept_key: StreamKey::new(6, "accept"),
        };
        let run = |isa: Isa| {
            format!(
                "{:?} {:?} {:?} {:?} {:?}",
                isa.run(LrdPath { job: &lrd, marks: &marks, normals: Stream::new(key, 1) }),
                isa.run(LrdPath { job: &lrd, marks: &marks, normals: PortableNormals::new(3, 1) }),
                isa.run(TailSample { job: &tail, normals: Stream::new(key, 2) }),
                isa.run(TailSample { job: &tail, normals: PortableNormals::new(4, 7) }),
                isa.run(TiltedSample { job: &tilted, normals: Stream::new(key, 3), uniforms: Stream::new(tilted.accept_key, 3) }),
            )
        };
        let portable = run(Isa::Portable);
        for isa in Isa::available() {
            assert_eq!(run(isa), portable, "{isa} differs from the portable loops");
        }
    }

    #[test]
    fn every_instruction_set_gives_the_same_paths() {
        // H from 3 to 40 covers every padded size; the 1.9 diagonal makes the paths grow past
        // 2^400, so the rescaling branch runs too; 6 paths make one full lockstep group and one
        // partial group.
        for (h, diag) in [(3, 0.6), (5, 1.9), (16, 0.6), (20, 1.9), (40, 0.6)] {
            let job = InteractionJob { g: (0..h).map(|i| 0.2 - 0.01 * i as f64).collect(), horizon: 2500, ..interaction_job(h, diag, "isa") };
            let marks = crate::mc::jobs::log_checkpoints(job.horizon, job.checkpoints);
            let run = |isa| interaction_paths_on(isa, &[&job; 6], &marks, (0..6).map(|p| Stream::new(job.key, p)).collect());
            let portable = run(Isa::Portable);
            assert!(portable.iter().all(|p| p.log_growth.is_finite()));
            for isa in Isa::available() {
                assert_eq!(run(isa), portable, "{isa} differs from the portable loops at H = {h}");
            }
        }
    }

    #[test]
    fn scalar_ar_paths_in_lockstep_equal_lone_paths() {
        // (0.3, 1.6) explodes (μ > 0), so the rescaling branch runs too.
        for (c, gamma) in [(0.5, 0.499), (0.3, 1.6)] {
            let job = ScalarArJob { c, gamma, q: 1.0, times: vec![10, 3000], paths: 3, key: StreamKey::new(4, "ar") };
            let group = scalar_ar_paths(&job, (0..3).map(|p| Stream::new(job.key, p)).collect());
            for (p, path) in group.iter().enumerate() {
                let lone = scalar_ar_path(&job, Stream::new(job.key, p as u64));
                assert_eq!(path.log_abs, lone.log_abs);
                assert_eq!(path.value.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), lone.value.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn tail_sums_split_at_record_times_equal_one_pass() {
        let job = TailSumJob { c: 0.5, gamma: 0.4, times: vec![3, 1030, 5000], samples: 1, key: StreamKey::new(4, "tail") };
        let split = tail_sum_sample(&job, Stream::new(job.key, 0));
        let one = tail_sum_sample(&TailSumJob { times: vec![5000], ..job.clone() }, Stream::new(job.key, 0));
        assert_eq!(split[2], one[0]);
        let mut s = Stream::new(job.key, 0);
        let direct: f64 = (0..3).map(|_| (0.5 + 0.4 * s.normal().powi(2)).ln()).sum();
        assert!((split[0] - direct).abs() < 1e-14);
    }
}
