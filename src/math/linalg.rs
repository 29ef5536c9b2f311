//! Dense linear algebra on `nalgebra::DMatrix<f64>`: the matrix exponential, spectral
//! abscissa, logarithmic norm μ₂, spectral norm, condition number and a non-normality index.
//!
//! Every iterative decomposition here (Schur, SVD, symmetric eigen) runs with an iteration cap
//! ([`max_iterations`]) and reports non-convergence as a typed [`NotConverged`]: nalgebra's own
//! `complex_eigenvalues`, `singular_values` and `symmetric_eigenvalues` iterate without a limit
//! and loop forever on some matrices (a NaN entry, and a few finite ones: nalgebra issues 611, 764,
//! 1291, 1528). The scalar summaries ([`spectral_abscissa`] …) return NaN when their
//! decomposition does not converge, which a property's judge counts as a numerical failure
//! (an *inconclusive* verdict), never as a violation.

use nalgebra::{Complex, DMatrix, SymmetricEigen, SVD};

/// Dense real matrix.
pub type Mat = DMatrix<f64>;
/// Dense real column vector.
pub type Vector = nalgebra::DVector<f64>;

/// Matrix exponential `e^A` (nalgebra's scaling-and-squaring Padé approximant).
pub fn expm(a: &Mat) -> Mat {
    a.clone().exp()
}

/// Which iterative decomposition did not converge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decomposition {
    /// The real Schur form (eigenvalues of a general matrix).
    Schur,
    /// The singular value decomposition.
    Svd,
    /// The eigen-decomposition of a symmetric matrix.
    SymmetricEigen,
}

impl std::fmt::Display for Decomposition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Decomposition::Schur => "the Schur decomposition",
            Decomposition::Svd => "the singular value decomposition",
            Decomposition::SymmetricEigen => "the symmetric eigen-decomposition",
        })
    }
}

/// An iterative decomposition that did not converge within [`max_iterations`] (or met a
/// non-finite entry, on which it cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{routine} of a {rows}×{cols} matrix did not converge within {max_iterations} iterations{}", if *.finite { "" } else { " (it has a non-finite entry)" })]
pub struct NotConverged {
    /// The decomposition.
    pub routine: Decomposition,
    /// The matrix's rows.
    pub rows: usize,
    /// The matrix's columns.
    pub cols: usize,
    /// The cap it ran under.
    pub max_iterations: usize,
    /// Whether every entry was finite.
    pub finite: bool,
}

/// The iteration cap of the decompositions for a matrix of order `n`: `1000·max(n, 10)` sweeps.
/// LAPACK's `dhseqr` allows 30 per eigenvalue; a cap 30 times wider never cuts short a
/// decomposition that converges, and bounds one that does not to milliseconds at the orders
/// the suite uses (each sweep is O(n²)).
pub fn max_iterations(n: usize) -> usize {
    1000 * n.max(10)
}

/// The SVD's convergence threshold: nalgebra's own (`SVD::new` uses 5·ε), so results agree with
/// its uncapped routine bit for bit.
const SVD_EPS: f64 = 5.0 * f64::EPSILON;

fn not_converged(routine: Decomposition, a: &Mat) -> NotConverged {
    NotConverged {
        routine,
        rows: a.nrows(),
        cols: a.ncols(),
        max_iterations: max_iterations(a.nrows().max(a.ncols())),
        finite: a.iter().all(|x| x.is_finite()),
    }
}

/// Runs `decompose` on `a` with its iteration cap, refusing a non-finite entry up front.
fn capped<T>(routine: Decomposition, a: &Mat, decompose: impl FnOnce(Mat, usize) -> Option<T>) -> Result<T, NotConverged> {
    if a.iter().any(|x| !x.is_finite()) {
        return Err(not_converged(routine, a));
    }
    decompose(a.clone(), max_iterations(a.nrows().max(a.ncols()))).ok_or_else(|| not_converged(routine, a))
}

/// The eigenvalues of a square matrix, from its real Schur form under an iteration cap.
pub fn eigenvalues(a: &Mat) -> Result<Vec<Complex<f64>>, NotConverged> {
    capped(Decomposition::Schur, a, |m, cap| nalgebra::Schur::try_new(m, f64::EPSILON, cap).map(|s| s.complex_eigenvalues().iter().copied().collect()))
}

/// The eigenvalues of a symmetric matrix (its lower triangle is read), under an iteration cap.
pub fn symmetric_eigenvalues(a: &Mat) -> Result<Vec<f64>, NotConverged> {
    capped(Decomposition::SymmetricEigen, a, |m, cap| SymmetricEigen::try_new(m, f64::EPSILON, cap).map(|e| e.eigenvalues.iter().copied().collect()))
}

/// The singular value decomposition (with U and Vᵀ), under an iteration cap.
pub fn svd(a: &Mat) -> Result<SVD<f64, nalgebra::Dyn, nalgebra::Dyn>, NotConverged> {
    capped(Decomposition::Svd, a, |m, cap| SVD::try_new(m, true, true, SVD_EPS, cap))
}

/// The singular values, under an iteration cap.
pub fn singular_values(a: &Mat) -> Result<Vec<f64>, NotConverged> {
    capped(Decomposition::Svd, a, |m, cap| SVD::try_new(m, false, false, SVD_EPS, cap).map(|s| s.singular_values.iter().copied().collect()))
}

/// Spectral abscissa `max Re λ(A)`: the "largest eigenvalue" of the papers for a real or
/// complex spectrum (NaN when the Schur iteration does not converge: see [`eigenvalues`]).
pub fn spectral_abscissa(a: &Mat) -> f64 {
    eigenvalues(a).map_or(f64::NAN, |l| l.iter().map(|z| z.re).fold(f64::NEG_INFINITY, f64::max))
}

/// Spectral radius `max |λ(A)|` (NaN when the Schur iteration does not converge).
pub fn spectral_radius(a: &Mat) -> f64 {
    eigenvalues(a).map_or(f64::NAN, |l| l.iter().map(|z| z.norm()).fold(0.0, f64::max))
}

/// Logarithmic 2-norm `μ₂(A) = λ_max((A + Aᵀ)/2)`, so that `‖e^{tA}‖₂ ≤ e^{t μ₂(A)}` for t ≥ 0
/// (NaN when the eigen-decomposition does not converge).
pub fn log_norm2(a: &Mat) -> f64 {
    let s = (a + a.transpose()) * 0.5;
    symmetric_eigenvalues(&s).map_or(f64::NAN, |l| l.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

/// Spectral norm `‖A‖₂` (largest singular value; NaN when the SVD does not converge).
pub fn spectral_norm(a: &Mat) -> f64 {
    singular_values(a).map_or(f64::NAN, |s| s.iter().copied().fold(0.0, f64::max))
}

/// Smallest singular value `σ_min(A)` (σ_d for a tall H×d matrix of full column rank; NaN when
/// the SVD does not converge).
pub fn smallest_singular_value(a: &Mat) -> f64 {
    singular_values(a).map_or(f64::NAN, |s| s.iter().copied().fold(f64::INFINITY, f64::min))
}

/// 2-norm condition number `κ₂(V) = σ_max/σ_min`; infinite for a singular matrix, NaN when
/// the SVD does not converge.
pub fn cond2(v: &Mat) -> f64 {
    let Ok(s) = singular_values(v) else { return f64::NAN };
    let max = s.iter().copied().fold(0.0, f64::max);
    let min = s.iter().copied().fold(f64::INFINITY, f64::min);
    if min == 0.0 {
        f64::INFINITY
    } else {
        max / min
    }
}

/// Departure from normality, `‖AAᵀ − AᵀA‖_F / ‖A‖_F²` (0 exactly for a normal matrix).
pub fn nonnormality(a: &Mat) -> f64 {
    let n2 = a.norm_squared();
    if n2 == 0.0 {
        return 0.0;
    }
    (a * a.transpose() - a.transpose() * a).norm() / n2
}

/// The coherence of a set of codes: max_{i≠j} |⟨cᵢ, cⱼ⟩| (0 for fewer than two codes).
pub fn coherence(codes: &[nalgebra::DVector<f64>]) -> f64 {
    (0..codes.len()).flat_map(|i| (0..i).map(move |j| (i, j))).map(|(i, j)| codes[i].dot(&codes[j]).abs()).fold(0.0, f64::max)
}

/// The 2-norm of a vector.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The 2-norm of the difference of two vectors.
pub fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

/// A matrix from row-major nested rows (the JSON layout of counterexamples).
pub fn mat_from_rows(rows: &[Vec<f64>]) -> Mat {
    let n = rows.len();
    let m = rows.first().map_or(0, Vec::len);
    Mat::from_fn(n, m, |i, j| rows[i][j])
}

/// Row-major nested rows of a matrix (the JSON layout of counterexamples).
pub fn mat_to_rows(a: &Mat) -> Vec<Vec<f64>> {
    (0..a.nrows()).map(|i| (0..a.ncols()).map(|j| a[(i, j)]).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coherence_is_the_largest_off_diagonal_inner_product() {
        use nalgebra::DVector;
        let codes = [DVector::from_vec(vec![1.0, 0.0]), DVector::from_vec(vec![0.6, -0.8]), DVector::from_vec(vec![0.0, 1.0])];
        assert_eq!(coherence(&codes), 0.8);
        assert_eq!(coherence(&codes[..1]), 0.0);
    }

    #[test]
    fn capped_decompositions_agree_with_nalgebra_bit_for_bit_and_refuse_nan() {
        // The cap changes nothing where nalgebra converges: same eigenvalues, same singular
        // values, to the last bit, over random non-normal matrices of orders 1–12.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 6.0 - 3.0
        };
        for n in 1..=12 {
            let a = Mat::from_fn(n, n, |_, _| next());
            let ours: Vec<_> = eigenvalues(&a).unwrap();
            let theirs: Vec<_> = a.complex_eigenvalues().iter().copied().collect();
            assert_eq!(ours, theirs, "order {n}");
            assert_eq!(singular_values(&a).unwrap(), a.singular_values().iter().copied().collect::<Vec<_>>());
            let s = (&a + a.transpose()) * 0.5;
            assert_eq!(symmetric_eigenvalues(&s).unwrap(), s.symmetric_eigenvalues().iter().copied().collect::<Vec<_>>());
        }
        // nalgebra's own routines never return on a NaN entry; these say why they cannot.
        let mut bad = Mat::identity(3, 3);
        bad[(1, 2)] = f64::NAN;
        let e = eigenvalues(&bad).unwrap_err();
        assert_eq!((e.routine, e.rows, e.finite), (Decomposition::Schur, 3, false));
        assert!(e.to_string().contains("non-finite"), "{e}");
        assert!(spectral_abscissa(&bad).is_nan() && spectral_norm(&bad).is_nan() && log_norm2(&bad).is_nan());
        assert!(svd(&bad).is_err() && symmetric_eigenvalues(&bad).is_err());
    }

    #[test]
    fn jordan_block_has_log_norm_above_its_abscissa() {
        let a = mat_from_rows(&[vec![-1.0, 10.0], vec![0.0, -1.0]]);
        assert!((spectral_abscissa(&a) + 1.0).abs() < 1e-12);
        // (A+Aᵀ)/2 = [[-1,5],[5,-1]] has eigenvalues -1 ± 5.
        assert!((log_norm2(&a) - 4.0).abs() < 1e-12);
        assert!(nonnormality(&a) > 0.1);
        // e^{A} = e^{-1} [[1, 10],[0, 1]].
        let e = expm(&a);
        let em1 = (-1f64).exp();
        assert!((e[(0, 0)] - em1).abs() < 1e-13 && (e[(0, 1)] - 10.0 * em1).abs() < 1e-12);
    }

    #[test]
    fn symmetric_matrix_is_normal_and_well_conditioned_identity() {
        let s = mat_from_rows(&[vec![-2.0, 0.5], vec![0.5, -1.0]]);
        assert!(nonnormality(&s) < 1e-15);
        assert!((log_norm2(&s) - spectral_abscissa(&s)).abs() < 1e-12);
        assert!((cond2(&Mat::identity(3, 3)) - 1.0).abs() < 1e-15);
        assert_eq!(mat_to_rows(&s), vec![vec![-2.0, 0.5], vec![0.5, -1.0]]);
    }
}
