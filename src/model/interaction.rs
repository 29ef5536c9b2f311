//! The interaction-term SSM of 004 §4 with scalar inputs and a fixed step (the paper's setting):
//!
//! * eq (13): `h_t = Ā h_{t−1} + B̄ x_t + (h_{t−1}ᵀ W x_t)(G x_t)`
//! * eq (14): `h_t = M_t h_{t−1} + B̄ x_t` with `M_t = Ā + x_t² G Wᵀ` (a rank-one update)
//!
//! and the three LRD formulas of Theorem 3: as printed (second sum to t), with the sum to
//! t−1, and the compact form `Φ(t+k,t)[B̄_t + 2x_t (Wᵀh_{t−1}) G]`.

use super::dense::matvec;
use super::discretize::{dense as disc, Discretization};
use crate::math::linalg::{Mat, Vector};
use crate::math::Real;

/// The interaction-term SSM with constant `Ā`, `B̄` and vectors `G`, `W`.
#[derive(Clone, Debug, PartialEq)]
pub struct InteractionSsm {
    /// Discrete transition Ā (H×H).
    pub abar: Mat,
    /// Discrete input vector B̄.
    pub bbar: Vector,
    /// Direction G of the interaction term.
    pub g: Vector,
    /// Projection W of the interaction strength.
    pub w: Vector,
    /// Initial state h_0.
    pub h0: Vector,
}

impl InteractionSsm {
    /// From continuous `(A, B)` at fixed step Δ (ZOH), with `h_0 = 0`.
    pub fn from_continuous(a: &Mat, b: &Vector, delta: f64, g: Vector, w: Vector) -> Self {
        let (abar, bbar) = disc(a, b, delta, Discretization::Zoh);
        let h0 = Vector::zeros(abar.nrows());
        InteractionSsm { abar, bbar, g, w, h0 }
    }

    /// State size H.
    pub fn size(&self) -> usize {
        self.abar.nrows()
    }

    /// The transition `M_t = Ā + x² G Wᵀ`.
    pub fn transition(&self, x: f64) -> Mat {
        &self.abar + (&self.g * self.w.transpose()) * (x * x)
    }

    /// States h_1..h_T by eq (13).
    pub fn states<R: Real>(&self, x: &[R]) -> Vec<Vec<R>> {
        let mut h: Vec<R> = self.h0.iter().map(|&v| R::cst(v)).collect();
        x.iter()
            .map(|&xt| {
                let strength = h.iter().zip(self.w.iter()).fold(R::zero(), |s, (&hn, &wn)| s + hn * wn) * xt;
                let mut next = matvec(&self.abar, &h);
                for ((nx, &b), &g) in next.iter_mut().zip(self.bbar.iter()).zip(self.g.iter()) {
                    *nx += xt * b + strength * xt * g;
                }
                h = next;
                h.clone()
            })
            .collect()
    }

    /// States h_1..h_T by eq (14), `h_t = M_t h_{t−1} + B̄ x_t` (f64).
    pub fn states_eq14(&self, x: &[f64]) -> Vec<Vector> {
        let mut h = self.h0.clone();
        x.iter()
            .map(|&xt| {
                h = self.transition(xt) * &h + &self.bbar * xt;
                h.clone()
            })
            .collect()
    }

    /// `Φ(t+k, t) v = M_{t+k} ⋯ M_{t+1} v` (1-based t).
    pub fn propagate(&self, x: &[f64], t: usize, k: usize, mut v: Vector) -> Vector {
        for j in t + 1..=t + k {
            v = self.transition(x[j - 1]) * v;
        }
        v
    }

    /// `(∏_{j=from}^{to} M_j) v`, the empty product being I.
    fn product_apply(&self, x: &[f64], from: usize, to: usize, mut v: Vector) -> Vector {
        for j in from..=to {
            v = self.transition(x[j - 1]) * v;
        }
        v
    }

    /// 004 eq (16) with the second sum running to `upper` (the paper prints `t`; the correct
    /// limit is `t − 1`), evaluated term by term as printed.
    pub fn lrd_eq16(&self, x: &[f64], t: usize, k: usize, upper: usize) -> Vector {
        let xt = x[t - 1];
        let gw = |u: &Vector| &self.g * (2.0 * xt * self.w.dot(u));
        let mut inner = self.product_apply(x, 1, t.saturating_sub(1), self.h0.clone());
        for i in 1..=upper {
            let from_i = self.product_apply(x, i + 1, t.saturating_sub(1), &self.bbar * x[i - 1]);
            inner += from_i;
        }
        let v = gw(&inner) + &self.bbar;
        self.propagate(x, t, k, v)
    }

    /// The compact corrected form `Φ(t+k,t)[B̄_t + 2x_t (Wᵀh_{t−1}) G]` (claims/004 §2.5).
    pub fn lrd_compact(&self, x: &[f64], t: usize, k: usize) -> Vector {
        self.propagate(x, t, k, self.lrd_initial(x, t))
    }

    /// The LRD at k = 0: `v_0 = B̄ + 2x_t (Wᵀh_{t−1}) G`.
    pub fn lrd_initial(&self, x: &[f64], t: usize) -> Vector {
        let h_prev = if t >= 2 { self.states_eq14(&x[..t - 1]).pop().unwrap() } else { self.h0.clone() };
        &self.bbar + &self.g * (2.0 * x[t - 1] * self.w.dot(&h_prev))
    }
}
