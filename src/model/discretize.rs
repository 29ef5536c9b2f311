//! Discretisation of `ḣ = A h + B x` with step Δ.
//!
//! * ZOH: `Ā = e^{ΔA}`, `B̄ = (ΔA)^{-1}(e^{ΔA} − I)ΔB`, computed for dense A from the augmented
//!   exponential `exp([[ΔA, ΔB], [0, 0]]) = [[Ā, B̄], [0, 1]]`, which is valid for singular A.
//! * Euler (Mamba's choice for B): `Ā = e^{ΔA}`, `B̄ = ΔB`.
//! * Bilinear (S4's and S4D's, Tustin's transform): `Ā = (I − ΔA/2)^{-1}(I + ΔA/2)`,
//!   `B̄ = (I − ΔA/2)^{-1}ΔB` ([`bilinear`], [`bilinear_diagonal`]). It changes Ā too, so it is not a
//!   [`Discretization`] (which chooses B̄ for models whose Ā is the exact exponential): a model
//!   discretised bilinearly takes these Ā and B̄ as given.

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

/// The bilinear (Tustin) discretisation of a dense `(A, B)` with step `delta`: `Ā = (I − ΔA/2)^{-1}(I + ΔA/2)`,
/// `B̄ = (I − ΔA/2)^{-1}ΔB`, by one LU solve. `None` when `I − ΔA/2` is singular (an eigenvalue of
/// A at 2/Δ). It maps the open left half-plane onto the open unit disc (|λ(Ā)| < 1 exactly when
/// Re λ(A) < 0) and agrees with ZOH to second order in Δ.
pub fn bilinear(a: &Mat, b: &Vector, delta: f64) -> Option<(Mat, Vector)> {
    let n = a.nrows();
    let half = a * (delta / 2.0);
    let lu = (Mat::identity(n, n) - &half).lu();
    let abar = lu.solve(&(Mat::identity(n, n) + &half))?;
    let bbar = lu.solve(&(b * delta))?;
    Some((abar, bbar))
}

/// The bilinear discretisation of one real mode `a` with input weight `b` (the step and the
/// weight over any [`Real`], so it runs on enclosures and carries derivatives): `((1 + Δa/2)/(1 − Δa/2), Δb/(1 − Δa/2))`.
pub fn bilinear_diagonal<R: Real>(a: f64, b: R, delta: R) -> (R, R) {
    let half = delta * (a / 2.0);
    let denominator = -half + 1.0;
    ((half + 1.0) / denominator, delta * b / denominator)
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

    #[test]
    fn bilinear_agrees_with_its_diagonal_form_with_zoh_to_second_order_and_maps_stable_to_the_disc() {
        let a = Mat::from_diagonal(&Vector::from_vec(vec![-0.5, -3.0, 0.25]));
        let b = Vector::from_vec(vec![1.0, -2.0, 0.5]);
        let (abar, bbar) = bilinear(&a, &b, 0.3).expect("regular");
        for (n, &an) in [-0.5, -3.0, 0.25].iter().enumerate() {
            let (ad, bd) = bilinear_diagonal(an, b[n], 0.3);
            assert!((abar[(n, n)] - ad).abs() < 1e-15 && (bbar[n] - bd).abs() < 1e-15, "mode {n}");
        }
        // (1 + x/2)/(1 − x/2) = e^x + O(x³): the gap to ZOH shrinks eightfold when Δ halves.
        let jordan = mat_from_rows(&[vec![-1.0, 10.0], vec![0.0, -1.0]]);
        let gap = |d: f64| {
            let (zoh, _) = dense(&jordan, &Vector::from_vec(vec![0.0, 1.0]), d, Discretization::Zoh);
            (bilinear(&jordan, &Vector::from_vec(vec![0.0, 1.0]), d).expect("regular").0 - zoh).norm()
        };
        let ratio = gap(0.02) / gap(0.01);
        assert!((7.5..8.5).contains(&ratio), "third-order local error: ratio {ratio}");
        // The control: Euler's Ā = I + ΔA is only first-order accurate (ratio 4 on Ā).
        let euler = |d: f64| (Mat::identity(2, 2) + &jordan * d - expm(&(&jordan * d))).norm();
        assert!((3.5..4.5).contains(&(euler(0.02) / euler(0.01))));
        // Stable to the disc, unstable outside it; singular at an eigenvalue 2/Δ.
        assert!(bilinear_diagonal(-100.0, 1.0, 0.5).0.abs() < 1.0 && bilinear_diagonal(0.1, 1.0, 0.5).0.abs() > 1.0);
        assert!(bilinear(&Mat::from_diagonal(&Vector::from_vec(vec![4.0])), &Vector::from_vec(vec![1.0]), 0.5).is_none());
    }
}
