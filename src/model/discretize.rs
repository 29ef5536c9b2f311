//! Discretisation of `ḣ = A h + B x` with step Δ.
//!
//! * ZOH: `Ā = e^{ΔA}`, `B̄ = (ΔA)^{-1}(e^{ΔA} − I)ΔB`, computed for dense A from the augmented
//!   exponential `exp([[ΔA, ΔB], [0, 0]]) = [[Ā, B̄], [0, 1]]`, which is valid for singular A.
//! * Euler (Mamba's choice for B): `Ā = e^{ΔA}`, `B̄ = ΔB`.

use crate::math::linalg::{expm, Mat, Vector};
use crate::math::Real;
use serde::{Deserialize, Serialize};

/// How B is discretised (A always uses the exact exponential).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Discretization {
    /// Zero-order hold: `B̄ = (ΔA)^{-1}(e^{ΔA} − I)ΔB`.
    Zoh,
    /// Mamba's simplified rule: `B̄ = ΔB`.
    Euler,
}

/// Dense discretisation `(Ā, B̄)` of `(A, B)` with step `delta`.
pub fn dense(a: &Mat, b: &Vector, delta: f64, rule: Discretization) -> (Mat, Vector) {
    let n = a.nrows();
    match rule {
        Discretization::Zoh => {
            let mut aug = Mat::zeros(n + 1, n + 1);
            aug.view_mut((0, 0), (n, n)).copy_from(&(a * delta));
            aug.view_mut((0, n), (n, 1)).copy_from(&(b * delta));
            let e = expm(&aug);
            (e.view((0, 0), (n, n)).into_owned(), e.view((0, n), (n, 1)).column(0).into_owned())
        }
        Discretization::Euler => (expm(&(a * delta)), b * delta),
    }
}

/// Diagonal discretisation of one mode `a` with input weight `b` at step `delta` (generic so
/// that Δ may carry a derivative): `(e^{Δa}, B̄)`.
///
/// ZOH uses `expm1(Δa)/a · b`, whose limit `Δ·b` is taken for `a = 0`.
pub fn diagonal<R: Real>(a: f64, b: R, delta: R, rule: Discretization) -> (R, R) {
    let abar = (delta * a).exp();
    let bbar = match rule {
        Discretization::Zoh if a != 0.0 => (delta * a).exp_m1() * (1.0 / a) * b,
        _ => delta * b,
    };
    (abar, bbar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::linalg::mat_from_rows;

    #[test]
    fn zoh_matches_the_jordan_reference() {
        // Reference (proofs/decay.md): A = [[-1,10],[0,-1]], B = (0,1), Δ = 1 gives B̄ = (2.6424, 0.6321).
        let a = mat_from_rows(&[vec![-1.0, 10.0], vec![0.0, -1.0]]);
        let (_, bbar) = dense(&a, &Vector::from_vec(vec![0.0, 1.0]), 1.0, Discretization::Zoh);
        assert!((bbar[0] - 2.6424).abs() < 1e-4 && (bbar[1] - 0.6321).abs() < 1e-4);
    }

    #[test]
    fn dense_zoh_agrees_with_diagonal_and_handles_singular_a() {
        let a = Mat::from_diagonal(&Vector::from_vec(vec![-0.5, 0.0]));
        let b = Vector::from_vec(vec![1.0, 2.0]);
        let (abar, bbar) = dense(&a, &b, 0.3, Discretization::Zoh);
        for (n, &an) in [-0.5, 0.0].iter().enumerate() {
            let (ad, bd) = diagonal(an, b[n], 0.3, Discretization::Zoh);
            assert!((abar[(n, n)] - ad).abs() < 1e-14 && (bbar[n] - bd).abs() < 1e-14);
        }
    }
}
