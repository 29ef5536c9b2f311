//! Multi-input multi-output linear systems in `f64`, constant or varying per step (an
//! input-varying system is a sequence of matrices chosen by the input), in the two causal
//! conventions of 001 App. C.3:
//!
//! * non-strictly causal (eq 21, Mamba's scan): `x_t = A_t x_{t−1} + B_t u_t`,
//!   `y_t = C_t x_t + D_t u_t`;
//! * strictly causal (eq 20): `x_{t+1} = A_t x_t + B_t u_t`, `y_t = C_t x_t + D_t u_t`.
//!
//! [`Step::strictly_causal`] is the conversion `(A, B, C, D) ↦ (A, B, CA, CB + D)` with
//! `x̂_t = x_{t−1}` (the general form of eqs 22–24). [`kalman_predictor`] is the steady-state
//! one-step predictor of `x_{t+1} = Ax_t + w_t`, `y_t = Cx_t + v_t` (001 §2's innovations).

use crate::math::linalg::{Mat, Vector};

/// The matrices of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// A (n×n).
    pub a: Mat,
    /// B (n×m).
    pub b: Mat,
    /// C (p×n).
    pub c: Mat,
    /// D (p×m).
    pub d: Mat,
}

impl Step {
    /// The strictly causal form of a non-strictly causal step: `(A, B, CA, CB + D)`.
    pub fn strictly_causal(&self) -> Step {
        Step { a: self.a.clone(), b: self.b.clone(), c: &self.c * &self.a, d: &self.c * &self.b + &self.d }
    }
}

/// The outputs of the non-strictly causal system (zero initial state); step `t` uses
/// `steps[t % steps.len()]`.
pub fn simulate_nonstrict(steps: &[Step], u: &[Vector]) -> Vec<Vector> {
    let mut x = Vector::zeros(steps[0].a.nrows());
    u.iter()
        .enumerate()
        .map(|(t, ut)| {
            let s = &steps[t % steps.len()];
            x = &s.a * &x + &s.b * ut;
            &s.c * &x + &s.d * ut
        })
        .collect()
}

/// The outputs of the strictly causal system (zero initial state); step `t` uses
/// `steps[t % steps.len()]`.
pub fn simulate_strict(steps: &[Step], u: &[Vector]) -> Vec<Vector> {
    let mut x = Vector::zeros(steps[0].a.nrows());
    u.iter()
        .enumerate()
        .map(|(t, ut)| {
            let s = &steps[t % steps.len()];
            let y = &s.c * &x + &s.d * ut;
            x = &s.a * &x + &s.b * ut;
            y
        })
        .collect()
}

/// The steady-state Kalman one-step predictor of `x_{t+1} = Ax_t + w_t`, `y_t = Cx_t + v_t`.
#[derive(Clone, Debug, PartialEq)]
pub struct Kalman {
    /// The gain `K = APCᵀ(CPCᵀ + R)⁻¹` of `x̂_{t+1} = A x̂_t + K(y_t − C x̂_t)`.
    pub gain: Mat,
    /// `P`, the steady-state covariance of the prediction error `x_t − x̂_t`.
    pub error_cov: Mat,
}

/// The steady-state Kalman predictor of `x_{t+1} = Ax_t + w_t`, `y_t = Cx_t + v_t`
/// (`w ~ N(0, Q)`, `v ~ N(0, R)`), with `P` the fixed point of the Riccati recursion
/// `P ← APAᵀ + Q − K(CPCᵀ + R)Kᵀ`, iterated from `P = Q` until it moves by less than 10⁻¹⁴
/// relative (at most 10⁵ steps). `None` when the recursion does not settle.
pub fn kalman_predictor(a: &Mat, c: &Mat, q: &Mat, r: &Mat) -> Option<Kalman> {
    let mut p = q.clone();
    for _ in 0..100_000 {
        let s = c * &p * c.transpose() + r;
        let k = a * &p * c.transpose() * s.clone().try_inverse()?;
        let next = a * &p * a.transpose() + q - &k * s * k.transpose();
        let moved = (&next - &p).amax();
        p = next;
        if moved <= 1e-14 * p.amax() {
            let s = c * &p * c.transpose() + r;
            return Some(Kalman { gain: a * &p * c.transpose() * s.try_inverse()?, error_cov: p });
        }
    }
    None
}

/// The innovations `e_t = y_t − C x̂_t` of the predictor `x̂_{t+1} = A x̂_t + K e_t`
/// (`x̂_0 = 0`) run on the outputs `y`.
pub fn innovations(a: &Mat, c: &Mat, gain: &Mat, y: &[Vector]) -> Vec<Vector> {
    let mut xh = Vector::zeros(a.nrows());
    y.iter()
        .map(|yt| {
            let e = yt - c * &xh;
            xh = a * &xh + gain * &e;
            e
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_strict_form_matches() {
        let s = Step { a: Mat::from_element(1, 1, 0.5), b: Mat::from_element(1, 1, 2.0), c: Mat::from_element(1, 1, 3.0), d: Mat::from_element(1, 1, 1.0) };
        let u: Vec<Vector> = [1.0, -1.0, 0.5].iter().map(|v| Vector::from_element(1, *v)).collect();
        let a = simulate_nonstrict(std::slice::from_ref(&s), &u);
        let b = simulate_strict(&[s.strictly_causal()], &u);
        // y_0 = 3·2 + 1 = 7; y_1 = 3(0.5·2 − 2) − 1 = −4.
        assert_eq!(a[0][0], 7.0);
        assert_eq!(a[1][0], -4.0);
        assert_eq!(a, b);
    }

    #[test]
    fn scalar_kalman_gain_is_the_riccati_fixed_point() {
        // a = 0.9, c = q = r = 1: k = ap/(p + 1), so p = k/(a − k) must solve the scalar Riccati
        // equation p = a²p + 1 − a²p²/(p + 1).
        let one = Mat::from_element(1, 1, 1.0);
        let kalman = kalman_predictor(&Mat::from_element(1, 1, 0.9), &one, &one, &one).unwrap();
        let k = kalman.gain[(0, 0)];
        let p = k / (0.9 - k);
        assert!((kalman.error_cov[(0, 0)] - p).abs() < 1e-12);
        let residual = 0.81 * p + 1.0 - 0.81 * p * p / (p + 1.0) - p;
        assert!(residual.abs() < 1e-12, "{residual}");
    }
}
