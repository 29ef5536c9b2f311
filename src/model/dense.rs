//! The SSM with a dense state matrix A on one scalar input channel, with a step size Δ_t that
//! may vary per step (given, not input-dependent): `h_t = Ā(Δ_t) h_{t−1} + B̄(Δ_t) x_t`.

use super::discretize::{dense as disc, Discretization};
use crate::math::linalg::{Mat, Vector};
use crate::math::Real;

/// `M·v` for a constant matrix and a generic vector.
pub fn matvec<R: Real>(m: &Mat, v: &[R]) -> Vec<R> {
    (0..m.nrows()).map(|i| (0..m.ncols()).fold(R::zero(), |acc, j| acc + v[j] * m[(i, j)])).collect()
}

/// A dense-A SSM.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseSsm {
    /// State matrix A (H×H).
    pub a: Mat,
    /// Input vector B (H).
    pub b: Vector,
    /// Discretisation of B.
    pub disc: Discretization,
}

impl DenseSsm {
    /// `(Ā, B̄)` at step Δ.
    pub fn discretize(&self, delta: f64) -> (Mat, Vector) {
        disc(&self.a, &self.b, delta, self.disc)
    }

    /// States h_1..h_T from h_0 = 0 with steps `deltas[t-1]` = Δ_t.
    pub fn states<R: Real>(&self, deltas: &[f64], x: &[R]) -> Vec<Vec<R>> {
        let mut h = vec![R::zero(); self.a.nrows()];
        deltas
            .iter()
            .zip(x)
            .map(|(&d, &xt)| {
                let (abar, bbar) = self.discretize(d);
                h = matvec(&abar, &h);
                h.iter_mut().zip(bbar.iter()).for_each(|(hn, &bn)| *hn += xt * bn);
                h.clone()
            })
            .collect()
    }

    /// The LRD sequence of 004 eq (10): `v_0 = B̄_t`, `v_j = Ā_{t+j} v_{j−1}`, j = 0..=k
    /// (1-based t; `deltas[t-1]` = Δ_t).
    pub fn lrd_eq10_path(&self, deltas: &[f64], t: usize, k: usize) -> Vec<Vector> {
        let (_, mut v) = self.discretize(deltas[t - 1]);
        let mut out = vec![v.clone()];
        for j in t + 1..=t + k {
            v = self.discretize(deltas[j - 1]).0 * v;
            out.push(v.clone());
        }
        out
    }
}
