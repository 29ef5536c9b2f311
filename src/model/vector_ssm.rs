//! The vector-input selective SSM of 003 eq (1), its unrolled (linear-attention) form, eqs
//! (4)–(6), and the Mamba block of eqs (2)–(3):
//!
//! ```text
//! H_i = Ã_i ⊙ H_{i−1} + b_i (Δ_i ⊙ x_i)ᵀ,   y_i = H_iᵀ c_i + d ⊙ x_i                   (1)
//! Ã_i\[n,k\] = exp(Δ_i\[k\]·A\[n,k\]),  b_i = W_b x_i,  c_i = W_c x_i,  Δ_i = softplus(W_Δ x_i)
//! y_i\[k\] = Σ_{j≤i} Σ_n c_i\[n\]·exp(Σ_{t=j+1}^{i} Δ_t\[k\]A\[n,k\])·b_j\[n\]·Δ_j\[k\]x_j\[k\] + d\[k\]x_i\[k\]   (5), with Π_jᵀ
//! f(X) = W_3·[SSM(W_1 X + b_1) ⊙ SiLU(W_2 X + b_2)]                                     (3)
//! ```
//!
//! with H_0 = 0, x_i ∈ ℝ^d, H_i ∈ ℝ^{d_h×d}. The unrolled form accumulates decays in the log
//! domain, so positions up to 10⁶ neither underflow nor overflow. The precedence of (3) is
//! W_3 applied after the gate (the only reading under which the proofs' degenerate blocks work).

pub use crate::math::softplus::silu;
use crate::math::softplus::softplus;

/// The gate constant `k = 1 + W₀(1/e)` with `SiLU(k) = 1`: a gate branch `W_2 = 0, b_2 = k·1`
/// switches the gate off (003 Thm 1–2). In f64, `SiLU(k) = 1 + 2⁻⁵²`.
pub const GATE_OFF: f64 = 1.278_464_542_761_074;

/// One step of eq (1) with its input-dependent quantities computed: what the recurrence and the
/// unrolled form both consume.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Δ_i ∈ ℝ^d (positive).
    pub delta: Vec<f64>,
    /// The SSM input x_i ∈ ℝ^d.
    pub x: Vec<f64>,
    /// The key b_i ∈ ℝ^{d_h}.
    pub b: Vec<f64>,
    /// The query c_i ∈ ℝ^{d_h}.
    pub c: Vec<f64>,
}

impl Step {
    /// The historical record `v_i = Δ_i ⊙ x_i` (Definition 1).
    pub fn value(&self) -> Vec<f64> {
        self.delta.iter().zip(&self.x).map(|(d, x)| d * x).collect()
    }
}

/// The weights of eq (1): A ≤ 0 (d_h × d), W_b and W_c (d_h × d), the product W_Δ = W_Δ²W_Δ¹
/// (d × d, no bias) and the skip d.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VectorSsm {
    /// A\[n\]\[k\] ≤ 0.
    pub a: Vec<Vec<f64>>,
    /// W_b\[n\]\[m\].
    pub w_b: Vec<Vec<f64>>,
    /// W_c\[n\]\[m\].
    pub w_c: Vec<Vec<f64>>,
    /// W_Δ\[k\]\[m\] (the low-rank product).
    pub w_delta: Vec<Vec<f64>>,
    /// The skip d ∈ ℝ^d.
    pub skip: Vec<f64>,
}

fn matvec(m: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    m.iter().map(|row| row.iter().zip(x).map(|(w, v)| w * v).sum()).collect()
}

impl VectorSsm {
    /// The state size d_h.
    pub fn state(&self) -> usize {
        self.a.len()
    }
    /// The channel count d.
    pub fn channels(&self) -> usize {
        self.skip.len()
    }
    /// b_i, c_i and Δ_i of input x_i.
    pub fn step(&self, x: &[f64]) -> Step {
        Step { delta: matvec(&self.w_delta, x).into_iter().map(softplus).collect(), x: x.to_vec(), b: matvec(&self.w_b, x), c: matvec(&self.w_c, x) }
    }
    /// The outputs y_1..y_N by the recurrence (1).
    pub fn recurrence(&self, xs: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let steps: Vec<Step> = xs.iter().map(|x| self.step(x)).collect();
        dense_scan(&self.a, &self.skip, &steps)
    }
}

/// The state H of eq (1), dense: every entry is decayed and written at every step, whatever the
/// sparsity of b and c.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseState {
    /// H\[n\]\[k\].
    pub h: Vec<Vec<f64>>,
}

impl DenseState {
    /// H_0 = 0 with d_h rows and d channels.
    pub fn new(dh: usize, d: usize) -> Self {
        DenseState { h: vec![vec![0.0; d]; dh] }
    }
    /// One step of (1) with A (d_h × d) and skip d: updates H and returns y_i.
    pub fn advance(&mut self, a: &[Vec<f64>], skip: &[f64], s: &Step) -> Vec<f64> {
        let d = skip.len();
        for (n, row) in self.h.iter_mut().enumerate() {
            for k in 0..d {
                row[k] = (s.delta[k] * a[n][k]).exp() * row[k] + s.b[n] * (s.delta[k] * s.x[k]);
            }
        }
        (0..d).map(|k| self.h.iter().zip(&s.c).map(|(row, c)| row[k] * c).sum::<f64>() + skip[k] * s.x[k]).collect()
    }
}

/// The recurrence (1) over precomputed steps with a [`DenseState`].
pub fn dense_scan(a: &[Vec<f64>], skip: &[f64], steps: &[Step]) -> Vec<Vec<f64>> {
    let mut state = DenseState::new(a.len(), skip.len());
    steps.iter().map(|s| state.advance(a, skip, s)).collect()
}

/// The state of eq (1) with one shared entry `A[n][k] = a` and sparse keys and queries, stored
/// row by row with the decay applied lazily: row n keeps the cumulative Δ of each channel at its
/// last write, and is brought forward by `exp(a·(ΣΔ_now − ΣΔ_then))` when read or written. A
/// step costs O(nnz(b) + nnz(c)) instead of O(d_h), so d_h = 10⁶ positional slots fit. Rows are
/// kept in flat arrays indexed by n (grown on the first write to a row), not one allocation each.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseState {
    a: f64,
    cum: Vec<f64>,
    /// Row n's entries at its last write: `values[n·d..(n+1)·d]`.
    values: Vec<f64>,
    /// Row n's cumulative Δ per channel at its last write.
    stamps: Vec<f64>,
    /// Whether row n has been written.
    written: Vec<bool>,
}

impl SparseState {
    /// H_0 = 0 with d channels and the shared entry `a ≤ 0` of A.
    pub fn new(a: f64, d: usize) -> Self {
        SparseState { a, cum: vec![0.0; d], values: Vec::new(), stamps: Vec::new(), written: Vec::new() }
    }
    /// One step with Δ_i, x_i, sparse b_i and c_i as (index, value) pairs, no skip: updates H
    /// and returns y_i.
    pub fn advance(&mut self, delta: &[f64], x: &[f64], b: &[(usize, f64)], c: &[(usize, f64)]) -> Vec<f64> {
        let d = x.len();
        for (c, dk) in self.cum.iter_mut().zip(delta) {
            *c += dk;
        }
        let (a, cum) = (self.a, &self.cum);
        for &(n, bn) in b {
            if n >= self.written.len() {
                self.written.resize(n + 1, false);
                self.values.resize((n + 1) * d, 0.0);
                self.stamps.resize((n + 1) * d, 0.0);
            }
            let (row, stamp) = (&mut self.values[n * d..(n + 1) * d], &mut self.stamps[n * d..(n + 1) * d]);
            if !self.written[n] {
                self.written[n] = true;
                stamp.copy_from_slice(cum);
            }
            for k in 0..d {
                row[k] = (a * (cum[k] - stamp[k])).exp() * row[k] + bn * (delta[k] * x[k]);
                stamp[k] = cum[k];
            }
        }
        let current = |n: usize, k: usize| (a * (cum[k] - self.stamps[n * d + k])).exp() * self.values[n * d + k];
        (0..d).map(|k| c.iter().filter(|&&(n, _)| self.written.get(n) == Some(&true)).map(|&(n, cn)| current(n, k) * cn).sum()).collect()
    }
    /// The stored (possibly nonzero) entries.
    pub fn stored(&self) -> usize {
        self.written.iter().filter(|&&w| w).count() * self.cum.len()
    }
}

/// Which decays the unrolled form multiplies term j by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Products {
    /// Π_j = Ã_i ⊙ … ⊙ Ã_{j+1}, as in (5).
    FromNext,
    /// Π_j from Ã_j on (an off-by-one misreading, for negative controls).
    FromOwn,
}

/// The unrolled form (5) (with Π_jᵀ) at position `i` (0-based) of precomputed steps: the output
/// y_i, and `Σ|terms|` per channel (the scale of its rounding). Decay products are summed in the
/// log domain, from `i` backwards.
pub fn unrolled_at(a: &[Vec<f64>], skip: &[f64], steps: &[Step], i: usize, products: Products) -> (Vec<f64>, Vec<f64>) {
    let (d, dh) = (skip.len(), a.len());
    let mut log_pi = vec![vec![0.0f64; d]; dh];
    let (mut y, mut abs) = (vec![0.0; d], vec![0.0; d]);
    for k in 0..d {
        y[k] = skip[k] * steps[i].x[k];
        abs[k] = y[k].abs();
    }
    for j in (0..=i).rev() {
        let sj = &steps[j];
        if products == Products::FromOwn {
            for n in 0..dh {
                for k in 0..d {
                    log_pi[n][k] += sj.delta[k] * a[n][k];
                }
            }
        }
        for n in 0..dh {
            for k in 0..d {
                let term = steps[i].c[n] * log_pi[n][k].exp() * sj.b[n] * (sj.delta[k] * sj.x[k]);
                y[k] += term;
                abs[k] += term.abs();
                // Π for the next (older) j includes Ã_j.
                if products == Products::FromNext {
                    log_pi[n][k] += sj.delta[k] * a[n][k];
                }
            }
        }
    }
    (y, abs)
}

/// The scalar-decay form (6), Mamba as linear attention: `y_i = Σ_{j≤i} α_j (c_iᵀb_j) v_j` with
/// `α_j = ∏_{k=j+1}^{i} a_k`, from log decays `ln a_k` (`log_decays[0]`, i.e. a_1, never
/// matters), keys b_j, the query c_i and values v_j. Returns y_i.
pub fn linear_attention(log_decays: &[f64], keys: &[Vec<f64>], query: &[f64], values: &[Vec<f64>]) -> Vec<f64> {
    let i = values.len() - 1;
    let mut y = vec![0.0; values[0].len()];
    let mut log_alpha = 0.0f64;
    for j in (0..=i).rev() {
        let w = log_alpha.exp() * keys[j].iter().zip(query).map(|(b, c)| b * c).sum::<f64>();
        for (yk, vk) in y.iter_mut().zip(&values[j]) {
            *yk += w * vk;
        }
        log_alpha += log_decays[j];
    }
    y
}

/// The Mamba block of eqs (2)–(3) with a vector SSM: `f(x) = W_3·[SSM(W_1 x + b_1) ⊙
/// SiLU(W_2 x + b_2)]` (W_3 after the gate), without the residual.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MambaBlock {
    /// W_1 (d_inner × d_model) and b_1.
    pub w1: Vec<Vec<f64>>,
    /// b_1 ∈ ℝ^{d_inner}.
    pub b1: Vec<f64>,
    /// W_2 (d_inner × d_model).
    pub w2: Vec<Vec<f64>>,
    /// b_2 ∈ ℝ^{d_inner}.
    pub b2: Vec<f64>,
    /// W_3 (d_out × d_inner).
    pub w3: Vec<Vec<f64>>,
    /// The SSM on d_inner channels.
    pub ssm: VectorSsm,
}

impl MambaBlock {
    /// f(x_1..x_N).
    pub fn forward(&self, xs: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let inner: Vec<Vec<f64>> = xs.iter().map(|x| matvec(&self.w1, x).iter().zip(&self.b1).map(|(u, b)| u + b).collect()).collect();
        let ssm = self.ssm.recurrence(&inner);
        xs.iter()
            .zip(ssm)
            .map(|(x, s)| {
                let gated: Vec<f64> = matvec(&self.w2, x).iter().zip(&self.b2).zip(s).map(|((g, b), s)| s * silu(g + b)).collect();
                matvec(&self.w3, &gated)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> VectorSsm {
        VectorSsm {
            a: vec![vec![-0.5, -1.0], vec![-2.0, -0.1], vec![0.0, -0.3]],
            w_b: vec![vec![0.3, -0.2], vec![1.0, 0.5], vec![-0.7, 0.1]],
            w_c: vec![vec![0.2, 0.4], vec![-0.3, 0.9], vec![0.5, -0.5]],
            w_delta: vec![vec![0.5, -0.2], vec![0.1, 0.3]],
            skip: vec![0.25, -1.0],
        }
    }

    #[test]
    fn the_gate_constant_makes_silu_one() {
        assert!((silu(GATE_OFF) - 1.0).abs() <= f64::EPSILON);
    }

    #[test]
    fn unrolled_equals_recurrence_on_a_small_model() {
        let m = model();
        let xs: Vec<Vec<f64>> = (0..40).map(|t| vec![(t as f64 * 0.7).sin(), (t as f64 * 0.3).cos()]).collect();
        let y = m.recurrence(&xs);
        let steps: Vec<Step> = xs.iter().map(|x| m.step(x)).collect();
        for i in [0, 1, 17, 39] {
            let (u, abs) = unrolled_at(&m.a, &m.skip, &steps, i, Products::FromNext);
            for k in 0..2 {
                assert!((u[k] - y[i][k]).abs() <= 1e-13 * abs[k].max(1e-300), "i={i} k={k}: {} vs {}", u[k], y[i][k]);
            }
        }
    }

    #[test]
    fn scalar_decays_give_the_linear_attention_form() {
        // Ã_i with all entries a_i = exp(Δ A) for a single shared A and Δ per step: form (6).
        let log_a = [-0.1, -0.5, -0.2, -0.05];
        let keys = vec![vec![1.0, 0.0], vec![0.5, 0.5], vec![0.0, 2.0], vec![1.0, -1.0]];
        let values = vec![vec![1.0], vec![-2.0], vec![0.5], vec![3.0]];
        let q = [0.3, -0.4];
        let y = linear_attention(&log_a, &keys, &q, &values);
        let mut h = [0.0f64; 2];
        for j in 0..4 {
            for n in 0..2 {
                h[n] = log_a[j].exp() * h[n] + keys[j][n] * values[j][0];
            }
        }
        let want = h[0] * q[0] + h[1] * q[1];
        assert!((y[0] - want).abs() < 1e-14, "{} vs {want}", y[0]);
    }
}
