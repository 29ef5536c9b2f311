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

    /// The compact corrected form `Φ(t+k,t)[B̄_t + 2x_t (Wᵀh_{t−1}) G]` (proofs/decay.md).
    pub fn lrd_compact(&self, x: &[f64], t: usize, k: usize) -> Vector {
        self.propagate(x, t, k, self.lrd_initial(x, t))
    }

    /// The LRD at k = 0: `v_0 = B̄ + 2x_t (Wᵀh_{t−1}) G`.
    pub fn lrd_initial(&self, x: &[f64], t: usize) -> Vector {
        let h_prev = if t >= 2 { self.states_eq14(&x[..t - 1]).pop().unwrap() } else { self.h0.clone() };
        &self.bbar + &self.g * (2.0 * x[t - 1] * self.w.dot(&h_prev))
    }
}

/// How the step size of an [`InteractionSequence`] is produced.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepRule {
    /// A constant Δ.
    Fixed(f64),
    /// Δ_t = softplus(w·x_t + b).
    Selective {
        /// Weights w (length d).
        w: Vec<f64>,
        /// Bias b.
        b: f64,
    },
}

/// The interaction model of 004 Eq (13)–(15) in full generality: vector inputs x_t ∈ ℝ^d,
/// `W, G, B ∈ ℝ^{H×d}`, and a step Δ_t that may depend on x_t (so Ā_t, B̄_t vary in time):
/// `h_t = Ā_t h_{t−1} + B̄_t x_t + (h_{t−1}ᵀ W x_t)(G x_t)`.
#[derive(Clone, Debug, PartialEq)]
pub struct InteractionSequence {
    /// Continuous A (H×H).
    pub a: Mat,
    /// Continuous B (H×d).
    pub b: Mat,
    /// G (H×d).
    pub g: Mat,
    /// W (H×d).
    pub w: Mat,
    /// Step rule.
    pub step: StepRule,
    /// h_0.
    pub h0: Vector,
}

impl InteractionSequence {
    /// `(Ā_t, B̄_t)` at input x: ZOH of A and of every column of B with the step Δ(x), from
    /// the augmented exponential.
    pub fn discretize(&self, x: &[f64]) -> (Mat, Mat) {
        let delta = match &self.step {
            StepRule::Fixed(d) => *d,
            StepRule::Selective { w, b } => crate::math::softplus::softplus(w.iter().zip(x).map(|(p, q)| p * q).sum::<f64>() + b),
        };
        let (h, d) = (self.a.nrows(), self.b.ncols());
        let mut aug = Mat::zeros(h + d, h + d);
        aug.view_mut((0, 0), (h, h)).copy_from(&(&self.a * delta));
        aug.view_mut((0, h), (h, d)).copy_from(&(&self.b * delta));
        let e = crate::math::linalg::expm(&aug);
        (e.view((0, 0), (h, h)).into_owned(), e.view((0, h), (h, d)).into_owned())
    }

    /// The transition of eq (14), `M_t = Ā_t + G x_t x_tᵀ Wᵀ`.
    pub fn transition(&self, x: &[f64]) -> Mat {
        let xv = Vector::from_column_slice(x);
        self.discretize(x).0 + (&self.g * &xv) * (&self.w * &xv).transpose()
    }

    /// States h_1..h_T by eq (13).
    pub fn states_eq13(&self, xs: &[Vec<f64>]) -> Vec<Vector> {
        let mut h = self.h0.clone();
        xs.iter()
            .map(|x| {
                let xv = Vector::from_column_slice(x);
                let (abar, bbar) = self.discretize(x);
                let strength = h.dot(&(&self.w * &xv));
                h = &abar * &h + &bbar * &xv + (&self.g * &xv) * strength;
                h.clone()
            })
            .collect()
    }

    /// States h_1..h_T by eq (14).
    pub fn states_eq14(&self, xs: &[Vec<f64>]) -> Vec<Vector> {
        let mut h = self.h0.clone();
        xs.iter()
            .map(|x| {
                h = self.transition(x) * &h + self.discretize(x).1 * Vector::from_column_slice(x);
                h.clone()
            })
            .collect()
    }

    /// h_1..h_T by the unrolled eq (15), `h_t = (∏_{i=1}^t M_i) h_0 + Σ_{i=1}^t (∏_{j=i+1}^t M_j) B̄_i x_i`,
    /// every product formed explicitly, in the order `∏_{j=a}^{b} M_j = M_b ⋯ M_a`
    /// (`reversed = false`, the paper's convention) or `M_a ⋯ M_b` (`reversed = true`).
    pub fn states_eq15(&self, xs: &[Vec<f64>], reversed: bool) -> Vec<Vector> {
        let ms: Vec<Mat> = xs.iter().map(|x| self.transition(x)).collect();
        let inputs: Vec<Vector> = xs.iter().map(|x| self.discretize(x).1 * Vector::from_column_slice(x)).collect();
        let n = self.a.nrows();
        let product = |from: usize, to: usize| (from..=to).fold(Mat::identity(n, n), |acc, j| if reversed { acc * &ms[j - 1] } else { &ms[j - 1] * acc });
        (1..=xs.len())
            .map(|t| {
                let mut h = product(1, t) * &self.h0;
                for (i, input) in inputs.iter().enumerate().take(t) {
                    h += product(i + 2, t) * input;
                }
                h
            })
            .collect()
    }
}
