//! Scalars with the four operations, real or complex, and what is written once over them: the
//! diagonal scan's elements and a linear solve by Gaussian elimination.
//!
//! [`Field`] is implemented by every [`Real`] (`f64`, [`Dual`](super::Dual), [`Interval`] …)
//! and by [`Complex`] over each, so one routine runs on values, derivatives and enclosures,
//! real or complex.

use super::complex::Complex;
use super::interval::Interval;
use super::Real;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A real or complex scalar.
pub trait Field: Copy + Debug + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> + Neg<Output = Self> {
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// The real number `x`.
    fn from_f64(x: f64) -> Self;
    /// `|x|` of the value part as an `f64`: what Gaussian elimination pivots on.
    fn magnitude(self) -> f64;
    /// Whether it may be 0 ([`Real::may_be_zero`]; a complex number when both parts may be).
    fn may_be_zero(self) -> bool;
}

impl<R: Real> Field for R {
    fn zero() -> Self {
        R::cst(0.0)
    }
    fn one() -> Self {
        R::cst(1.0)
    }
    fn from_f64(x: f64) -> Self {
        R::cst(x)
    }
    fn magnitude(self) -> f64 {
        self.value().abs()
    }
    fn may_be_zero(self) -> bool {
        Real::may_be_zero(self)
    }
}

impl<R: Real> Field for Complex<R> {
    fn zero() -> Self {
        Complex::zero()
    }
    fn one() -> Self {
        Complex::one()
    }
    fn from_f64(x: f64) -> Self {
        Complex::cst(x, 0.0)
    }
    fn magnitude(self) -> f64 {
        self.value().re.hypot(self.value().im)
    }
    fn may_be_zero(self) -> bool {
        self.re.may_be_zero() && self.im.may_be_zero()
    }
}

/// The solution X of `A X = B` (A square, given by rows; B with any number of columns), by
/// Gaussian elimination with partial pivoting on the value parts' magnitudes. `None` when a pivot
/// is 0 (A singular in floating point).
///
/// Over [`Interval`] or [`ComplexInterval`](super::ComplexInterval) entries it is interval
/// Gaussian elimination: every operation encloses, so the result encloses the exact solution of
/// the exact system (the entries taken as exact reals) whenever no pivot's enclosure holds 0 (it
/// returns `None` when one does: the system may be singular). Its width grows with the condition
/// of A and with n (the wrapping effect): about n·κ(A)·u relative for small well-conditioned
/// systems. Over `f64` its error is that of LU with partial pivoting: about n·u·κ(A)·‖X‖.
pub fn solve<T: Field>(a: &[Vec<T>], b: &[Vec<T>]) -> Option<Vec<Vec<T>>> {
    let n = a.len();
    assert!(a.iter().all(|r| r.len() == n) && b.len() == n, "solve needs a square A ({n} rows) and B with as many rows");
    let mut m: Vec<Vec<T>> = a.iter().zip(b).map(|(ra, rb)| ra.iter().chain(rb).copied().collect()).collect();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| m[i][k].magnitude().total_cmp(&m[j][k].magnitude()))?;
        m.swap(k, p);
        let pivot = m[k][k];
        if pivot.may_be_zero() {
            return None;
        }
        for i in k + 1..n {
            let f = m[i][k] / pivot;
            let (top, bottom) = m.split_at_mut(i);
            for (x, &y) in bottom[0][k..].iter_mut().zip(&top[k][k..]) {
                *x = *x - f * y;
            }
        }
    }
    let cols = m[0].len() - n;
    let mut x = vec![vec![T::zero(); cols]; n];
    for i in (0..n).rev() {
        for c in 0..cols {
            let s = (i + 1..n).fold(m[i][n + c], |s, j| s - m[i][j] * x[j][c]);
            x[i][c] = s / m[i][i];
        }
    }
    Some(x)
}

/// The inverse of a square matrix given by rows ([`solve`] against the identity); `None` when
/// singular (or, on enclosures, possibly singular).
pub fn inverse<T: Field>(a: &[Vec<T>]) -> Option<Vec<Vec<T>>> {
    let n = a.len();
    let id: Vec<Vec<T>> = (0..n).map(|i| (0..n).map(|j| if i == j { T::one() } else { T::zero() }).collect()).collect();
    solve(a, &id)
}

/// `A·B` for matrices given by rows.
pub fn matmul<T: Field>(a: &[Vec<T>], b: &[Vec<T>]) -> Vec<Vec<T>> {
    let cols = b.first().map_or(0, Vec::len);
    a.iter().map(|r| (0..cols).map(|j| r.iter().zip(b).fold(T::zero(), |s, (&x, rb)| s + x * rb[j])).collect()).collect()
}

/// An enclosure of the solution of `A x = b` for `f64` data (the entries taken as exact): [`solve`]
/// on point intervals. `None` when elimination meets a pivot whose enclosure holds 0.
pub fn solve_enclosed(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<Interval>> {
    let ai: Vec<Vec<Interval>> = a.iter().map(|r| r.iter().map(|&x| Interval::exact(x)).collect()).collect();
    let bi: Vec<Vec<Interval>> = b.iter().map(|&x| vec![Interval::exact(x)]).collect();
    solve(&ai, &bi).map(|x| x.into_iter().map(|r| r[0]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::linalg::Mat;
    use crate::math::ComplexInterval;
    use nalgebra::{Complex as NComplex, DMatrix};

    /// A fixed, well-conditioned test system: a random-looking matrix plus 4·I.
    fn system(n: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut z = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let a = (0..n).map(|i| (0..n).map(|j| next() + if i == j { 4.0 } else { 0.0 }).collect()).collect();
        let b = (0..n).map(|_| next()).collect();
        (a, b)
    }

    #[test]
    fn the_solve_agrees_with_nalgebras_lu_and_the_enclosure_holds_it() {
        for n in [1, 2, 5, 12] {
            let (a, b) = (system(n).0, system(n).1);
            let na = Mat::from_fn(n, n, |i, j| a[i][j]);
            let want = na.clone().lu().solve(&nalgebra::DVector::from_vec(b.clone())).unwrap();
            let bf: Vec<Vec<f64>> = b.iter().map(|&x| vec![x]).collect();
            let got = solve(&a, &bf).unwrap();
            let enclosed = solve_enclosed(&a, &b).unwrap();
            for i in 0..n {
                // Both are LU with partial pivoting on a matrix with κ < 10: they agree to ~n·κ·u.
                assert!((got[i][0] - want[i]).abs() < 1e-13, "n={n}: {} vs {}", got[i][0], want[i]);
                // The exact solution is within one f64 solve's error of nalgebra's; the enclosure
                // is narrow and meets it.
                assert!(enclosed[i].width() < 1e-12 && (enclosed[i].mid() - want[i]).abs() < 1e-12, "n={n}: {}", enclosed[i]);
            }
            // The residual of the enclosure holds 0 (A x − b over intervals).
            let ai: Vec<Vec<Interval>> = a.iter().map(|r| r.iter().map(|&x| Interval::exact(x)).collect()).collect();
            let ax = matmul(&ai, &enclosed.iter().map(|&x| vec![x]).collect::<Vec<_>>());
            assert!(ax.iter().zip(&b).all(|(r, &bi)| (r[0] - Interval::exact(bi)).contains(0.0)));
            // Control: a right-hand side moved by 10⁻⁹ gives an enclosure that misses the solution.
            let moved: Vec<f64> = b.iter().map(|x| x + 1e-9).collect();
            let off = solve_enclosed(&a, &moved).unwrap();
            assert!((0..n).any(|i| !off[i].contains(want[i])));
        }
    }

    #[test]
    fn a_complex_solve_and_inverse_agree_with_nalgebra_and_a_singular_matrix_is_refused() {
        let a = [[(1.0, 2.0), (0.5, -1.0)], [(-0.25, 0.0), (3.0, 1.0)]];
        let ac: Vec<Vec<Complex<f64>>> = a.iter().map(|r| r.iter().map(|&(x, y)| Complex::new(x, y)).collect()).collect();
        let inv = inverse(&ac).unwrap();
        let na = DMatrix::from_fn(2, 2, |i, j| NComplex::new(a[i][j].0, a[i][j].1));
        let want = na.try_inverse().unwrap();
        for i in 0..2 {
            for j in 0..2 {
                assert!((inv[i][j].re - want[(i, j)].re).abs() < 1e-15 && (inv[i][j].im - want[(i, j)].im).abs() < 1e-15);
            }
        }
        let ai: Vec<Vec<ComplexInterval>> = a.iter().map(|r| r.iter().map(|&(x, y)| ComplexInterval::exact(x, y)).collect()).collect();
        let enclosed = inverse(&ai).unwrap();
        assert!(enclosed[1][0].contains(want[(1, 0)].re, want[(1, 0)].im) || (enclosed[1][0].value().re - want[(1, 0)].re).abs() < 1e-16);
        assert!(enclosed[1][0].re.width() < 1e-14);
        let singular = vec![vec![1.0, 2.0], vec![2.0, 4.0]];
        assert!(inverse(&singular).is_none());
        assert!(solve_enclosed(&singular, &[1.0, 1.0]).is_none(), "an enclosed pivot holding 0 is refused");
    }
}
