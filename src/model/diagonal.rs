//! The diagonal SSM with a scalar input channel: S4D (fixed Δ) and S6 / Mamba (selective Δ).
//!
//! Per mode n: `h_{t,n} = e^{Δ_t a_n} h_{t−1,n} + B̄_{t,n} x_t`, with
//! `Δ_t = softplus(w x_t + b)` (selective) or a constant (S4D), and an input-dependent
//! `B_{t,n} = b_bias_n + b_weight_n x_t` (S6; `b_weight = 0` gives a fixed B).

use super::discretize::{diagonal as disc, Discretization};
use crate::math::softplus::{sigmoid, softplus};
use crate::math::Real;
use serde::{Deserialize, Serialize};

/// How the step size Δ_t is produced.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "lowercase")]
#[non_exhaustive]
pub enum DeltaRule {
    /// A constant step (LTI: S4, S4D).
    Fixed {
        /// The step.
        delta: f64,
    },
    /// Δ_t = softplus(w·x_t + b) (S6 / Mamba).
    Selective {
        /// Weight w.
        w: f64,
        /// Bias b.
        b: f64,
    },
}

impl DeltaRule {
    /// Δ at input x (generic, so that Δ carries dΔ/dx on dual numbers).
    pub fn delta<R: Real>(&self, x: R) -> R {
        match *self {
            DeltaRule::Fixed { delta } => R::cst(delta),
            DeltaRule::Selective { w, b } => softplus(x * w + b),
        }
    }
    /// dΔ/dx at input x.
    pub fn delta_prime(&self, x: f64) -> f64 {
        match *self {
            DeltaRule::Fixed { .. } => 0.0,
            DeltaRule::Selective { w, b } => w * sigmoid(w * x + b),
        }
    }
}

/// A diagonal SSM on one scalar input channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagonalSsm {
    /// Continuous-time modes a_n (real; stable when negative).
    pub a: Vec<f64>,
    /// Input-independent part of B.
    pub b_bias: Vec<f64>,
    /// Input-dependent part of B (zero for S4D).
    pub b_weight: Vec<f64>,
    /// Step-size rule.
    pub delta: DeltaRule,
    /// Discretisation of B.
    pub disc: Discretization,
}

impl DiagonalSsm {
    /// State size.
    pub fn size(&self) -> usize {
        self.a.len()
    }

    /// `(Ā_t, B̄_t)` per mode at input x.
    pub fn step_coefficients<R: Real>(&self, x: R) -> (Vec<R>, Vec<R>) {
        let d = self.delta.delta(x);
        (0..self.size()).map(|n| disc(self.a[n], x * self.b_weight[n] + self.b_bias[n], d, self.disc)).unzip()
    }

    /// States h_1..h_T from h_0 = 0 (row t−1 is h_t).
    pub fn states<R: Real>(&self, x: &[R]) -> Vec<Vec<R>> {
        let mut h = vec![R::zero(); self.size()];
        x.iter()
            .map(|&xt| {
                let (abar, bbar) = self.step_coefficients(xt);
                for n in 0..h.len() {
                    h[n] = abar[n] * h[n] + bbar[n] * xt;
                }
                h.clone()
            })
            .collect()
    }

    /// States h_1..h_T from h_0 = 0 with step sizes given from outside (e.g. read from a
    /// time positional encoding, 000 Theorem 1 / Corollary 2): `deltas[t-1]` = Δ_t.
    pub fn states_given_delta(&self, x: &[f64], deltas: &[f64]) -> Vec<Vec<f64>> {
        let mut h = vec![0.0; self.size()];
        x.iter()
            .zip(deltas)
            .map(|(&xt, &d)| {
                for (n, hn) in h.iter_mut().enumerate() {
                    let (abar, bbar) = disc(self.a[n], self.b_bias[n] + self.b_weight[n] * xt, d, self.disc);
                    *hn = abar * *hn + bbar * xt;
                }
                h.clone()
            })
            .collect()
    }

    /// Step sizes Δ_1..Δ_T.
    pub fn deltas(&self, x: &[f64]) -> Vec<f64> {
        x.iter().map(|&xt| self.delta.delta(xt)).collect()
    }

    /// 004 eq (10): `LRD(t+k, t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t`, with Δ and B treated as
    /// constants (stop-gradient). Times are 1-based, `x[t-1]` is x_t.
    pub fn lrd_eq10<R: Real>(&self, x: &[R], t: usize, k: usize) -> Vec<R> {
        let (_, mut v) = self.step_coefficients(x[t - 1]);
        for j in t + 1..=t + k {
            let (abar, _) = self.step_coefficients(x[j - 1]);
            v.iter_mut().zip(&abar).for_each(|(vn, &an)| *vn *= an);
        }
        v
    }

    /// The full derivative `dh_{t+k}/dx_t = Φ(t+k,t)[B̄_t + ∂Ā_t/∂x_t h_{t−1} + ∂B̄_t/∂x_t x_t]`
    /// (proofs/decay.md), written out analytically for diagonal A.
    pub fn lrd_full(&self, x: &[f64], t: usize, k: usize) -> Vec<f64> {
        let xt = x[t - 1];
        let h_prev = if t >= 2 { self.states(&x[..t - 1]).pop().unwrap() } else { vec![0.0; self.size()] };
        let d = self.delta.delta(xt);
        let dp = self.delta.delta_prime(xt);
        let (abar, bbar) = self.step_coefficients(xt);
        let mut v: Vec<f64> = (0..self.size())
            .map(|n| {
                let a = self.a[n];
                let bn = self.b_bias[n] + self.b_weight[n] * xt;
                let dabar = a * abar[n] * dp;
                // ∂B̄/∂x = ∂B̄/∂Δ·Δ' + ∂B̄/∂B·B'.
                let (dbar_ddelta, dbar_db) = match self.disc {
                    Discretization::Zoh if a != 0.0 => (abar[n] * bn, (d * a).exp_m1() / a),
                    _ => (bn, d),
                };
                let dbbar = dbar_ddelta * dp + dbar_db * self.b_weight[n];
                bbar[n] + dabar * h_prev[n] + dbbar * xt
            })
            .collect();
        for j in t + 1..=t + k {
            let (abar, _) = self.step_coefficients(x[j - 1]);
            v.iter_mut().zip(&abar).for_each(|(vn, an)| *vn *= an);
        }
        v
    }
}

/// `ln ‖LRD(t+k, t)‖₂ = ½ logsumexp_n 2(a_n S + ln|B̄_{t,n}|)` for diagonal A (004 eq 10 with
/// S = Σ_{j=t+1}^{t+k} Δ_j), in log space so that it survives |a|S ≫ 745; S = 0 gives ln‖B̄_t‖₂.
/// `scratch` (the length of `a`) keeps the hot loops free of allocation.
///
/// Evaluated as the Monte Carlo engine and its kernels do (largest term m first, then
/// `½(m + ln Σ e^{term − m})` with [`crate::math::vecmath`]), so that it agrees with them bit for bit.
pub fn log_lrd_norm(a: &[f64], log_abs_bbar: &[f64], s: f64, scratch: &mut [f64]) -> f64 {
    use crate::math::vecmath::{exp, ln};
    let mut m = f64::NEG_INFINITY;
    for (term, (&an, &lb)) in scratch.iter_mut().zip(a.iter().zip(log_abs_bbar)) {
        *term = 2.0 * (an * s + lb);
        m = if *term > m { *term } else { m };
    }
    if m == f64::NEG_INFINITY {
        return m;
    }
    0.5 * (m + ln(scratch.iter().fold(0.0, |acc, t| acc + exp(t - m))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lrd_norm_matches_the_direct_norm_and_survives_underflow() {
        let (a, lb) = ([-0.5, -2.0], [0.3f64.ln(), 1.7f64.ln()]);
        let mut scratch = [0.0; 2];
        let direct = ((0.3 * (-0.5f64 * 3.0).exp()).powi(2) + (1.7 * (-2.0f64 * 3.0).exp()).powi(2)).sqrt().ln();
        assert!((log_lrd_norm(&a, &lb, 3.0, &mut scratch) - direct).abs() < 1e-14);
        // At S = 10⁶ the norm underflows in f64 but its log is λ₁S + ln|B̄₁|.
        assert!((log_lrd_norm(&a, &lb, 1e6, &mut scratch) - (-0.5e6 + 0.3f64.ln())).abs() < 1e-9);
    }

    #[test]
    fn fixed_delta_s4d_has_lti_coefficients() {
        let m = DiagonalSsm {
            a: vec![-1.0, -2.0],
            b_bias: vec![1.0, 1.0],
            b_weight: vec![0.0, 0.0],
            delta: DeltaRule::Fixed { delta: 0.5 },
            disc: Discretization::Zoh,
        };
        let (a1, b1) = m.step_coefficients(3.0);
        let (a2, b2) = m.step_coefficients(-1.0);
        assert_eq!((a1, b1), (a2, b2));
        let h = m.states(&[1.0, 0.0]);
        assert!((h[1][0] - (-0.5f64).exp() * (1.0 - (-0.5f64).exp())).abs() < 1e-15);
    }
}
