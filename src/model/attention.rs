//! Softmax attention as in 004 eq (5)–(6): `h_τ = Σ_{i∈I_τ} w(i,τ) W_V x_i`,
//! `w(i,τ) ∝ exp{β (W_Q x_i)ᵀ(W_K x_τ)}` — the query is built from the attended position x_i
//! and the key from the current x_τ (the paper's convention, the reverse of the usual one).
//! `I_τ = {1..τ}` (causal) or `{1..T}` (full, eq 5 as written).

use super::dense::matvec;
use crate::math::linalg::Mat;
use crate::math::Real;

/// One softmax attention layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Attention {
    /// W_Q (d_k×d).
    pub wq: Mat,
    /// W_K (d_k×d).
    pub wk: Mat,
    /// W_V (H×d).
    pub wv: Mat,
    /// Score scale β.
    pub beta: f64,
    /// Causal (I_τ = 1..τ) or full (I_τ = 1..T).
    pub causal: bool,
}

fn dot<R: Real>(a: &[R], b: &[R]) -> R {
    a.iter().zip(b).fold(R::zero(), |s, (&x, &y)| s + x * y)
}

impl Attention {
    /// The 1-based index set I_τ for a sequence of length `len`.
    pub fn index_set(&self, tau: usize, len: usize) -> std::ops::RangeInclusive<usize> {
        1..=if self.causal { tau } else { len }
    }

    /// Attention weights w(i,τ) for i in I_τ (generic).
    pub fn weights<R: Real>(&self, xs: &[Vec<R>], tau: usize) -> Vec<R> {
        let key = matvec(&self.wk, &xs[tau - 1]);
        let scores: Vec<R> = self.index_set(tau, xs.len()).map(|i| dot(&matvec(&self.wq, &xs[i - 1]), &key) * self.beta).collect();
        let m = scores.iter().map(|s| s.value()).fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<R> = scores.iter().map(|&s| (s + (-m)).exp()).collect();
        let z = e.iter().fold(R::zero(), |a, &b| a + b);
        e.into_iter().map(|v| v / z).collect()
    }

    /// Hidden state h_τ (generic).
    pub fn hidden<R: Real>(&self, xs: &[Vec<R>], tau: usize) -> Vec<R> {
        let w = self.weights(xs, tau);
        let mut h = vec![R::zero(); self.wv.nrows()];
        for (wi, i) in w.iter().zip(self.index_set(tau, xs.len())) {
            for (hn, vn) in h.iter_mut().zip(matvec(&self.wv, &xs[i - 1])) {
                *hn += *wi * vn;
            }
        }
        h
    }

    /// `g_τ = β W_Qᵀ W_K x_τ`, the gradient of every score with respect to its query input.
    pub fn score_gradient(&self, x_tau: &[f64]) -> Vec<f64> {
        let key = matvec(&self.wk, x_tau);
        matvec(&self.wq.transpose(), &key).into_iter().map(|v| v * self.beta).collect()
    }

    /// 004 Theorem 1 with the sum over i = 1..=`upper`:
    /// `Σ_i (W_V x_i)(∂w(i,τ)/∂x_t)ᵀ + w(t,τ) W_V` with `∂w(i,τ)/∂x_t = w(i,τ)(δ_{it} − w(t,τ)) g_τ`
    /// (τ = t + k, k ≥ 1). The paper prints `upper = t+k−1`; the correct limit is the last
    /// element of I_τ.
    pub fn lrd_theorem1(&self, xs: &[Vec<f64>], t: usize, k: usize, upper: usize) -> Mat {
        let tau = t + k;
        let w = self.weights(xs, tau);
        let g = self.score_gradient(&xs[tau - 1]);
        let wt = w[t - 1];
        let mut j = &self.wv * wt;
        for i in 1..=upper.min(w.len()) {
            let coeff = w[i - 1] * (if i == t { 1.0 } else { 0.0 } - wt);
            let v = matvec(&self.wv, &xs[i - 1]);
            for r in 0..j.nrows() {
                for c in 0..j.ncols() {
                    j[(r, c)] += coeff * v[r] * g[c];
                }
            }
        }
        j
    }

    /// The closed form `w(t,τ) W_V [I + (x_t − x̄_τ) g_τᵀ]` (proofs/decay.md), τ = t + k, k ≥ 1.
    pub fn lrd_closed_form(&self, xs: &[Vec<f64>], t: usize, k: usize) -> Mat {
        let tau = t + k;
        let d = xs[0].len();
        let w = self.weights(xs, tau);
        let g = self.score_gradient(&xs[tau - 1]);
        let mut xbar = vec![0.0; d];
        for (wi, i) in w.iter().zip(self.index_set(tau, xs.len())) {
            xbar.iter_mut().zip(&xs[i - 1]).for_each(|(m, x)| *m += wi * x);
        }
        let mut inner = Mat::identity(d, d);
        for r in 0..d {
            for c in 0..d {
                inner[(r, c)] += (xs[t - 1][r] - xbar[r]) * g[c];
            }
        }
        &self.wv * inner * w[t - 1]
    }
}
