//! W3 "lyapunov": the top Lyapunov exponent of `M_t = Ā + x_t² G Wᵀ` (004 eq 14's transition)
//! for 8 random instances, H = 16, over k = 10⁶ products from v₀ = (1,…,1)/√H. Instance m, with
//! `s = derive(seed, m)`: `Ā = Q diag(e^{−u}) Qᵀ`, Q the QR factor (sign(R_jj) > 0) of
//! `Z_ij = normal(derive(s,0), 16i+j)`, `u_n = 0.5 + 1.5 uniform(derive(s,1), n)`,
//! `G_n, W_n = 0.1/√H · normal(derive(s, 2 | 3), n)`, `x_t = normal(derive(s,4), t)`.
//! Summary: the exponents `(1/k) Σ_t ln‖M_t v_{t−1}‖`.

use super::Measured;
use crate::error::Result;
use crate::mc::jobs::{InteractionJob, Start};
use crate::mc::normals::Normals;
use crate::mc::paths::{interaction_paths, LOCKSTEP};
use crate::mc::portable::{derive, uniform, PortableNormals};
use crate::mc::StreamKey;
use nalgebra::DMatrix;
use rayon::prelude::*;
use serde_json::json;

/// Sizes of W3.
#[derive(Clone, Debug)]
pub struct LyapunovParams {
    /// Instances.
    pub instances: u64,
    /// Products k.
    pub steps: u64,
    /// State size H.
    pub states: usize,
    /// Seed of the portable generator.
    pub seed: u64,
}

impl LyapunovParams {
    /// 8 instances, k = 10⁶, H = 16, seed 20240603.
    pub fn reference() -> Self {
        LyapunovParams { instances: 8, steps: 1_000_000, states: 16, seed: 20_240_603 }
    }
}

/// Instance m as an interaction job of one path.
fn instance(p: &LyapunovParams, m: u64) -> InteractionJob {
    let h = p.states;
    let s = derive(p.seed, m);
    let normals = |tag: u64, n: usize| {
        let mut v = vec![0.0; n];
        PortableNormals::new(derive(s, tag), 0).fill(&mut v);
        v
    };
    let z = DMatrix::from_row_slice(h, h, &normals(0, h * h));
    let qr = z.qr();
    let (mut q, r) = (qr.q(), qr.r());
    for j in 0..h {
        if r[(j, j)] < 0.0 {
            q.column_mut(j).neg_mut();
        }
    }
    let decay: Vec<f64> = (0..h).map(|n| (-(0.5 + 1.5 * uniform(derive(s, 1), n as u64))).exp()).collect();
    let abar = (0..h).map(|i| (0..h).map(|j| (0..h).map(|k| q[(i, k)] * decay[k] * q[(j, k)]).sum()).collect()).collect();
    let scale = 0.1 / (h as f64).sqrt();
    let scaled = |tag| normals(tag, h).into_iter().map(|x| x * scale).collect();
    InteractionJob {
        abar,
        bbar: vec![0.0; h],
        g: scaled(2),
        w: scaled(3),
        start: Start::Ones,
        horizon: p.steps,
        burn_in: 0,
        paths: 1,
        checkpoints: 0,
        key: StreamKey([0, 0]), // unused: the inputs are the portable generator's
    }
}

pub(super) fn run(p: &LyapunovParams) -> Result<Measured> {
    let jobs: Vec<InteractionJob> = (0..p.instances).into_par_iter().map(|m| instance(p, m)).collect();
    for job in &jobs {
        job.validate()?;
    }
    // Groups of LOCKSTEP instances advance together (independent chains overlap in the core).
    let groups: Vec<(usize, &[InteractionJob])> = jobs.chunks(LOCKSTEP).enumerate().collect();
    let exponents: Vec<f64> = groups
        .into_par_iter()
        .flat_map_iter(|(g, group)| {
            let refs: Vec<&InteractionJob> = group.iter().collect();
            let sources = (0..group.len()).map(|q| PortableNormals::new(derive(derive(p.seed, (g * LOCKSTEP + q) as u64), 4), 0)).collect();
            interaction_paths(&refs, &[], sources).into_iter().map(|path| path.log_growth / p.steps as f64)
        })
        .collect();
    Ok(Measured {
        params: json!({"instances": p.instances, "k": p.steps, "H": p.states, "seed": p.seed}),
        unit: "H^2-steps/s",
        work: (p.instances * p.steps) as f64 * (p.states * p.states) as f64,
        checksum: json!({"sum_exponents": exponents.iter().sum::<f64>()}),
        summary: json!({"exponents": exponents}),
        wall_s: None,
    })
}
