//! W2 "tail": `D = Σ_{i<t} ln(c + γ x_i²) − t μ` for N = 10⁵ samples of t = 10⁴ steps, c = 0.5,
//! γ = 0.499 (004 Theorem 4's product of eigenvalues), with the exceedance frequencies
//! `P(D ≥ s √t σ)` for s = 0…3. Sample j reads `normal(derive(seed, 0), j·t + i)`. μ and σ² are
//! the exact moments of ln(c + γX²) ([`LogChi2`], adaptive quadrature; the references use the
//! trapezoid rule, which agrees to ~1e−14).

use super::Measured;
use crate::error::{Error, Result};
use crate::math::subexp::LogChi2;
use crate::mc::job::chunked;
use crate::mc::jobs::TailSumJob;
use crate::mc::paths::tail_sum_sample;
use crate::mc::portable::{derive, PortableNormals};
use crate::mc::StreamKey;
use crate::progress::Silent;
use serde_json::json;

/// Sizes of W2.
#[derive(Clone, Debug)]
pub struct TailParams {
    /// Samples N.
    pub samples: u64,
    /// Steps per sample t.
    pub t: u64,
    /// c.
    pub c: f64,
    /// γ.
    pub gamma: f64,
    /// Seed of the portable generator.
    pub seed: u64,
}

impl TailParams {
    /// N = 10⁵, t = 10⁴, c = 0.5, γ = 0.499, seed 20240602.
    pub fn reference() -> Self {
        TailParams { samples: 100_000, t: 10_000, c: 0.5, gamma: 0.499, seed: 20_240_602 }
    }
}

pub(super) fn run(p: &TailParams) -> Result<Measured> {
    let job = TailSumJob { c: p.c, gamma: p.gamma, times: vec![p.t], samples: p.samples, key: StreamKey([0, 0]) };
    job.validate()?;
    let law = LogChi2::new(p.c, p.gamma).ok_or_else(|| Error::InvalidParameter("W2 needs c > 0, γ > 0".into()))?;
    let (mu, var) = (law.mean(), law.variance());
    let stream = derive(p.seed, 0);
    let y = chunked(0..p.samples, &Silent, |j| tail_sum_sample(&job, PortableNormals::new(stream, j * p.t))[0]);
    let scale = (p.t as f64).sqrt() * var.sqrt();
    let mut counts = [0u64; 4];
    let mut sum_d = 0.0;
    for &yj in &y {
        let d = yj - p.t as f64 * mu;
        sum_d += d;
        for (s, n) in counts.iter_mut().enumerate() {
            *n += u64::from(d >= s as f64 * scale);
        }
    }
    let freq = |s: usize| counts[s] as f64 / p.samples as f64;
    Ok(Measured {
        params: json!({"N": p.samples, "t": p.t, "c": p.c, "gamma": p.gamma, "seed": p.seed}),
        unit: "samples/s",
        work: (p.samples * p.t) as f64,
        summary: json!({"P_s0": freq(0), "P_s1": freq(1), "P_s2": freq(2), "P_s3": freq(3)}),
        checksum: json!({"mu": mu, "sigma2": var, "sum_D": sum_d}),
        wall_s: None,
    })
}
