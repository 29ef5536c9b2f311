//! The explicit weights of 003 Theorem 2 / Theorem 6 (App. A.2): exact COPY with state size N,
//! as a Mamba block of [`model::vector_ssm`](crate::model::vector_ssm) ([`ExactCopy`]).
//!
//! Input x̃_i = [x_i; e_i; e_pos(i)] ∈ ℝ^{d+2N}, gate off (W_2 = 0, b_2 = k·1 with SiLU(k) = 1,
//! W_1 = W_3 = I), d_h = N, A = 0, W_b = \[0, I, 0\] (b_i = e_i), W_c = \[0, 0, I\]
//! (c_i = e_pos(i)), W_Δ = ln(e − 1) on the e_i columns (Δ = softplus(ln(e−1)) = 1; the f64
//! nearest ln(e−1) whose softplus is exactly 1), skip 0. Then H_i = Σ_{j≤i} e_j v_jᵀ and
//! y_i = v_pos(i).

use crate::math::softplus::softplus;
use crate::mc::{Stream, StreamKey};
use crate::model::vector_ssm::{silu, DenseState, MambaBlock, SparseState, Step, VectorSsm, GATE_OFF};
use crate::tasks::copy::CopyTask;
use crate::tasks::uniform_index;
use serde::{Deserialize, Serialize};

/// Where the values come from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum CopyValues {
    /// The string-copying task (one-hot tokens, its own pos).
    Task {
        /// Alphabet size.
        alphabet: usize,
    },
    /// Reals in [−M, M] with one entry in ten special (±M, ±0, subnormal), pos(i) uniform on
    /// 1..=i (one in ten each: i, 1, i − 1).
    Random {
        /// Channels d.
        channels: usize,
        /// M.
        amplitude: f64,
    },
}

/// One run of the construction: the length N, the values, their Philox stream and the shared
/// entry of A (0 in the construction; the control's forgetting A < 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExactCopy {
    /// N (the copy task rounds it down to an even length 2n + 2 ≥ 4: `<BOS>`, n symbols,
    /// `<SEP>`, n symbols).
    pub len: usize,
    /// The values.
    pub values: CopyValues,
    /// The stream the values and positions are drawn from (`StreamKey::new(values_seed, "003.thm2")`).
    pub values_seed: u64,
    /// A\[n\]\[k\] for every n, k.
    pub a: f64,
}

/// The largest N run through the full block (state N × (d + 2N)).
pub const FULL_BLOCK_MAX: usize = 48;
/// The largest N run with the dense state (content channels: N × d)…
pub const DENSE_MAX: usize = 4096;
/// … when its N²d updates fit in this budget (the sparse state beyond).
pub const DENSE_WORK: usize = 100_000_000;

/// The construction's W_Δ entry: the f64 nearest ln(e − 1) whose softplus is exactly 1 (within a
/// few ulps of ln(e − 1); the suite's softplus of ln(e − 1) itself is not exactly 1).
pub fn delta_weight() -> f64 {
    let w = (std::f64::consts::E - 1.0).ln();
    (0..16u64).flat_map(|k| [f64::from_bits(w.to_bits() + k), f64::from_bits(w.to_bits() - k)]).find(|&z| softplus(z) == 1.0).unwrap_or(w)
}

/// Δ of the construction: softplus of [`delta_weight`], exactly 1.
pub fn unit_delta() -> f64 {
    softplus(delta_weight())
}

/// The outputs of one run: the COPY targets v_pos(i), the SSM outputs and the block outputs.
pub struct CopyRun {
    /// v_pos(i).
    pub target: Vec<Vec<f64>>,
    /// H_iᵀ c_i.
    pub ssm: Vec<Vec<f64>>,
    /// W_3(SSM ⊙ SiLU(k)).
    pub block: Vec<Vec<f64>>,
    /// pos(i), 0-based.
    pub pos: Vec<usize>,
}

impl ExactCopy {
    /// The inputs x_1..x_N and pos (0-based).
    pub fn inputs(&self) -> (Vec<Vec<f64>>, Vec<usize>) {
        let mut s = Stream::new(StreamKey::new(self.values_seed, "003.thm2"), 0);
        match self.values {
            CopyValues::Task { alphabet } => {
                let task = CopyTask { alphabet, min_len: (self.len.saturating_sub(2)) / 2, max_len: (self.len.saturating_sub(2)) / 2 };
                let inst = task.sample(&mut s);
                (inst.tokens.iter().map(|&t| task.embed(t)).collect(), inst.pos)
            }
            CopyValues::Random { channels, amplitude } => {
                let special = [amplitude, -amplitude, 0.0, -0.0, 4.9e-324, -2.0e-310, 1e-300];
                let xs = (0..self.len)
                    .map(|_| {
                        (0..channels)
                            .map(|_| if s.uniform() < 0.1 { special[uniform_index(&mut s, special.len())] } else { amplitude * (2.0 * s.uniform() - 1.0) })
                            .collect()
                    })
                    .collect();
                let pos = (0..self.len)
                    .map(|i| match uniform_index(&mut s, 10) {
                        0 => i,
                        1 => 0,
                        2 => i.saturating_sub(1),
                        _ => uniform_index(&mut s, i + 1),
                    })
                    .collect();
                (xs, pos)
            }
        }
    }

    /// The construction's block for N positions and d channels (dense weights).
    pub fn block(&self, n: usize, d: usize) -> MambaBlock {
        let w = d + 2 * n;
        let eye = |r: usize, c: usize| (0..r).map(|i| (0..c).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect::<Vec<Vec<f64>>>();
        let select = |offset: usize| (0..n).map(|i| (0..w).map(|j| if j == offset + i { 1.0 } else { 0.0 }).collect()).collect::<Vec<Vec<f64>>>();
        let ln_e1 = delta_weight();
        let w_delta = (0..w).map(|_| (0..w).map(|j| if (d..d + n).contains(&j) { ln_e1 } else { 0.0 }).collect()).collect();
        MambaBlock {
            w1: eye(w, w),
            b1: vec![0.0; w],
            w2: vec![vec![0.0; w]; w],
            b2: vec![GATE_OFF; w],
            w3: eye(w, w),
            ssm: VectorSsm { a: vec![vec![self.a; w]; n], w_b: select(d), w_c: select(d + n), w_delta, skip: vec![0.0; w] },
        }
    }

    /// Runs the construction: the full block (N ≤ 48), the dense state's content channels
    /// (N ≤ 4096) or the sparse state.
    pub fn run(&self) -> CopyRun {
        let (xs, pos) = self.inputs();
        let (n, d) = (xs.len(), xs[0].len());
        let delta = unit_delta();
        let target: Vec<Vec<f64>> = pos.iter().map(|&p| xs[p].iter().map(|x| delta * x).collect()).collect();
        let gate = silu(GATE_OFF);
        let (ssm, block) = if n <= FULL_BLOCK_MAX {
            let block = self.block(n, d);
            let tilde = augmented(&xs, &pos);
            let ssm = block.ssm.recurrence(&tilde).into_iter().map(|y| y[..d].to_vec()).collect();
            let out = block.forward(&tilde).into_iter().map(|y| y[..d].to_vec()).collect();
            (ssm, out)
        } else {
            let ssm: Vec<Vec<f64>> = if n <= DENSE_MAX && n * n * d <= DENSE_WORK {
                let a = vec![vec![self.a; d]; n];
                let mut state = DenseState::new(n, d);
                (0..n)
                    .map(|i| {
                        let e = |m: usize| (0..n).map(|j| if j == m { 1.0 } else { 0.0 }).collect();
                        state.advance(&a, &vec![0.0; d], &Step { delta: vec![delta; d], x: xs[i].clone(), b: e(i), c: e(pos[i]) })
                    })
                    .collect()
            } else {
                let (mut state, deltas) = (SparseState::new(self.a, d), vec![delta; d]);
                (0..n).map(|i| state.advance(&deltas, &xs[i], &[(i, 1.0)], &[(pos[i], 1.0)])).collect()
            };
            let block = ssm.iter().map(|y| y.iter().map(|v| v * gate).collect()).collect();
            (ssm, block)
        };
        CopyRun { target, ssm, block, pos }
    }
}

/// Theorem 2's input x̃_i = [x_i; e_i; e_pos(i)] ∈ ℝ^{d+2N} (pos 0-based).
pub fn augmented(xs: &[Vec<f64>], pos: &[usize]) -> Vec<Vec<f64>> {
    let n = xs.len();
    let onehot = |i: usize| (0..n).map(move |j| if j == i { 1.0 } else { 0.0 });
    xs.iter().enumerate().map(|(i, x)| x.iter().copied().chain(onehot(i)).chain(onehot(pos[i])).collect()).collect()
}

/// The gate's bound: SiLU(k) = 1 + 2⁻⁵² in f64, so y = v(1 + 2⁻⁵²) rounded: |y − v| ≤ 2⁻⁵²|v| +
/// ½ulp(v) ≤ 1.5·2⁻⁵²|v|, plus half the smallest subnormal.
pub fn gate_band(v: f64) -> f64 {
    1.5 * f64::EPSILON * v.abs() + 0.5 * f64::from_bits(1)
}
