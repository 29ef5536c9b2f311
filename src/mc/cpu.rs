//! The CPU backend: one rayon task per path, results collected in path order.

use super::backend::Backend;
use super::jobs::{
    log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, InteractionPath, ScalarArJob, ScalarArPath, Start,
    TailSumJob,
};
use super::stream::Stream;
use crate::error::Result;
use crate::math::softplus::softplus;
use crate::model::discretize::diagonal;
use crate::model::log_lrd_norm;
use indicatif::ProgressBar;
use rayon::prelude::*;

/// The rayon backend. Deterministic: each path is computed sequentially from its own stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn diagonal_lrd(&self, job: &DiagonalLrdJob, progress: &ProgressBar) -> Result<Vec<DiagonalLrdPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        Ok(per_path(job.paths, progress, |p| diagonal_lrd_path(job, &marks, p)))
    }

    fn tail_sums(&self, job: &TailSumJob, progress: &ProgressBar) -> Result<Vec<Vec<f64>>> {
        job.validate()?;
        Ok(chunked(job.samples, progress, |s| tail_sum_sample(job, s)))
    }

    fn scalar_ar(&self, job: &ScalarArJob, progress: &ProgressBar) -> Result<Vec<ScalarArPath>> {
        job.validate()?;
        Ok(chunked(job.paths, progress, |p| scalar_ar_path(job, p)))
    }

    fn interaction(&self, job: &InteractionJob, progress: &ProgressBar) -> Result<Vec<InteractionPath>> {
        job.validate()?;
        let marks = log_checkpoints(job.horizon, job.checkpoints);
        Ok(per_path(job.paths, progress, |p| interaction_path(job, &marks, p)))
    }
}

/// Runs `f(0..n)` in parallel, one progress tick per path, in index order (long paths).
fn per_path<T: Send>(n: u64, progress: &ProgressBar, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    (0..n)
        .into_par_iter()
        .map(|p| {
            let out = f(p);
            progress.inc(1);
            out
        })
        .collect()
}

/// Runs `f(0..n)` in parallel in chunks of 1024 (one progress tick each), in index order
/// (many short samples).
fn chunked<T: Send>(n: u64, progress: &ProgressBar, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    const CHUNK: u64 = 1024;
    let chunks: Vec<Vec<T>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let out = (c * CHUNK..((c + 1) * CHUNK).min(n)).map(&f).collect();
            progress.inc(1);
            out
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// One sample of the tail-sum job (the reference implementation for every backend).
pub fn tail_sum_sample(job: &TailSumJob, sample: u64) -> Vec<f64> {
    let mut s = Stream::new(job.key, sample);
    let (mut y, mut t) = (0.0f64, 0u64);
    job.times
        .iter()
        .map(|&until| {
            while t < until {
                let x = s.normal();
                y += (job.c + job.gamma * x * x).ln();
                t += 1;
            }
            y
        })
        .collect()
}

/// One path of the scalar AR(1) job (the reference implementation for every backend).
pub fn scalar_ar_path(job: &ScalarArJob, path: u64) -> ScalarArPath {
    const LIMIT: f64 = 1e150;
    let mut s = Stream::new(job.key, path);
    // z_t = z·e^{scale}; the input term is damped by e^{−scale} once the path is rescaled.
    let (mut z, mut scale, mut damp, mut t) = (0.0f64, 0.0f64, 1.0f64, 0u64);
    let mut out = ScalarArPath { log_abs: Vec::with_capacity(job.times.len()), value: Vec::with_capacity(job.times.len()) };
    for &until in &job.times {
        while t < until {
            let x = s.normal();
            z = (job.c + job.gamma * x * x) * z + job.q * x * damp;
            if z.abs() > LIMIT {
                z /= LIMIT;
                scale += LIMIT.ln();
                damp = (-scale).exp();
            }
            t += 1;
        }
        out.log_abs.push(z.abs().ln() + scale);
        out.value.push(if scale == 0.0 { z } else { z.signum() * f64::INFINITY });
    }
    out
}

/// One path of the diagonal LRD job (the reference implementation for every backend).
pub fn diagonal_lrd_path(job: &DiagonalLrdJob, marks: &[u64], path: u64) -> DiagonalLrdPath {
    let mut s = Stream::new(job.key, path);
    let xt = s.normal();
    let dt = softplus(job.w * xt + job.bias);
    let log_b: Vec<f64> = job
        .a
        .iter()
        .zip(&job.b)
        .map(|(&a, &b)| diagonal(a, b, dt, job.disc).1.abs().ln())
        .collect();
    let mut terms = vec![0.0; job.a.len()];
    let log_bbar = log_lrd_norm(&job.a, &log_b, 0.0, &mut terms);
    // Neumaier-compensated running sum S_k.
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    let (mut min_margin, mut argmin_k) = (f64::INFINITY, 0);
    let mut trace = Vec::with_capacity(marks.len());
    let mut next_mark = 0;
    for k in 1..=job.horizon {
        let d = softplus(job.w * s.normal() + job.bias);
        let t = sum + d;
        comp += if sum.abs() >= d.abs() { (sum - t) + d } else { (d - t) + sum };
        sum = t;
        let sk = sum + comp;
        let log_lrd = log_lrd_norm(&job.a, &log_b, sk, &mut terms);
        let bound = job.claimed_rate * sk + log_bbar;
        let margin = (bound - log_lrd) / (1.0 + (job.claimed_rate * sk).abs());
        if margin < min_margin {
            min_margin = margin;
            argmin_k = k;
        }
        if next_mark < marks.len() && marks[next_mark] == k {
            trace.push((k, sk, log_lrd));
            next_mark += 1;
        }
    }
    let (s_final, log_lrd_final) = trace.last().map_or((0.0, log_bbar), |&(_, s, l)| (s, l));
    DiagonalLrdPath { log_bbar, min_margin, argmin_k, s_final, log_lrd_final, trace }
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// One path of the interaction job (the reference implementation for every backend).
pub fn interaction_path(job: &InteractionJob, marks: &[u64], path: u64) -> InteractionPath {
    let h = job.bbar.len();
    let mut s = Stream::new(job.key, path);
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    // M v = Ā v + x² G (W·v), written into `out`.
    let apply = |x: f64, v: &[f64], out: &mut [f64]| {
        let c = x * x * dot(&job.w, v);
        for (i, o) in out.iter_mut().enumerate() {
            *o = dot(&job.abar[i], v) + c * job.g[i];
        }
    };
    let mut v = vec![0.0; h];
    let mut tmp = vec![0.0; h];
    match job.start {
        Start::Lrd { t } => {
            // h_{t−1} by eq (14) from h_0 = 0, then v_0 = B̄ + 2 x_t (W·h_{t−1}) G.
            for _ in 1..t {
                let x = s.normal();
                apply(x, &v, &mut tmp);
                for i in 0..h {
                    v[i] = tmp[i] + job.bbar[i] * x;
                }
            }
            let xt = s.normal();
            let c = 2.0 * xt * dot(&job.w, &v);
            for ((vi, bi), gi) in v.iter_mut().zip(&job.bbar).zip(&job.g) {
                *vi = bi + c * gi;
            }
        }
        Start::Random => v.iter_mut().for_each(|vi| *vi = s.normal()),
    }
    let n0 = norm(&v);
    let log_v0 = n0.ln();
    v.iter_mut().for_each(|vi| *vi /= n0);
    let mut log_acc = 0.0;
    let mut log_at_burn_in = 0.0;
    let mut increases = 0;
    let mut trace = Vec::with_capacity(marks.len());
    let mut next_mark = 0;
    for k in 1..=job.horizon {
        apply(s.normal(), &v, &mut tmp);
        let n = norm(&tmp);
        if n > 1.0 {
            increases += 1;
        }
        log_acc += n.ln();
        for i in 0..h {
            v[i] = tmp[i] / n;
        }
        if k == job.burn_in {
            log_at_burn_in = log_acc;
        }
        if next_mark < marks.len() && marks[next_mark] == k {
            trace.push((k, log_v0 + log_acc));
            next_mark += 1;
        }
    }
    InteractionPath { log_v0, log_growth: log_acc, log_growth_after_burn_in: log_acc - log_at_burn_in, increases, trace }
}
