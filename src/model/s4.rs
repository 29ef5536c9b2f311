//! S4's diagonal-plus-low-rank (DPLR) state matrix `A = Λ − P P*` (Gu, Goel & Ré 2022,
//! "Efficiently Modeling Long Sequences with Structured State Spaces", §3), its discretisations,
//! and the diagonal initialisations of S4D (Gu, Gupta, Goel & Ré 2022, "On the Parameterization
//! and Initialization of Diagonal State Space Models", §4):
//!
//! - **S4D-Lin**: `λ_n = −½ + iπn`;
//! - **S4D-Inv**: `λ_n = −½ + i(N/π)(N/(2n + 1) − 1)`;
//!
//! for n = 0 … N/2 − 1: S4D keeps one mode of each conjugate pair and its real kernel is
//! `2·Re(C Ā^k B̄)`, so a state of size N stores N/2 complex modes ([`Dplr::s4d`]).
//!
//! Discretisations ([`S4Discretization`]): bilinear, `Ā = (I − ΔA/2)⁻¹(I + ΔA/2)`,
//! `B̄ = (I − ΔA/2)⁻¹ΔB`, for any DPLR A by a complex linear solve ([`solve`]); and zero-order
//! hold, `Ā = e^{ΔΛ}`, `B̄ = (e^{ΔΛ} − 1)/Λ·B`, for a diagonal A (P empty; the dense ZOH of a
//! complex matrix is not written over [`Real`]). Everything is generic over `Real`, so the
//! kernels run on enclosures ([`ComplexInterval`](crate::math::ComplexInterval)).

use crate::math::field::{matmul, solve};
use crate::math::{Complex, Real};

/// How S4 discretises its continuous system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum S4Discretization {
    /// Tustin's bilinear transform (S4's choice).
    Bilinear,
    /// Zero-order hold (S4D's default), for a diagonal A.
    Zoh,
}

/// S4D's diagonal initialisations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum S4dInit {
    /// λ_n = −½ + iπn.
    Lin,
    /// λ_n = −½ + i(N/π)(N/(2n + 1) − 1).
    Inv,
}

/// A single-input single-output continuous system with `A = Λ − P P*`: N complex modes and a
/// low-rank part of rank r (P is N × r; r = 0 is S4D).
#[derive(Clone, Debug, PartialEq)]
pub struct Dplr<R> {
    /// The diagonal Λ.
    pub lambda: Vec<Complex<R>>,
    /// The low-rank factor P (N rows of r entries).
    pub p: Vec<Vec<Complex<R>>>,
    /// The input vector B.
    pub b: Vec<Complex<R>>,
    /// The output vector C.
    pub c: Vec<Complex<R>>,
}

/// A discretised system: `h_k = Ā h_{k−1} + B̄ x_k`, `y_k = C h_k`.
#[derive(Clone, Debug, PartialEq)]
pub struct Discrete<R> {
    /// Ā (N × N, by rows).
    pub abar: Vec<Vec<Complex<R>>>,
    /// B̄.
    pub bbar: Vec<Complex<R>>,
    /// C.
    pub c: Vec<Complex<R>>,
}

impl<R: Real> Dplr<R> {
    /// S4D with `state_size / 2` modes of the given initialisation, B = C = 1 (set `c` to the
    /// output weights: `Dplr { c, ..Dplr::s4d(…) }`); panics unless `state_size` is even.
    pub fn s4d(init: S4dInit, state_size: usize) -> Dplr<R> {
        assert!(state_size.is_multiple_of(2), "Dplr::s4d: an even state size N (got {state_size})");
        let big_n = R::cst(state_size as f64);
        let pi = R::cst(std::f64::consts::PI);
        let lambda = (0..state_size / 2)
            .map(|n| {
                let im = match init {
                    S4dInit::Lin => pi * n as f64,
                    S4dInit::Inv => big_n / pi * (big_n / R::cst(2.0 * n as f64 + 1.0) + -1.0),
                };
                Complex::new(R::cst(-0.5), im)
            })
            .collect();
        Dplr { lambda, p: vec![Vec::new(); state_size / 2], b: vec![Complex::one(); state_size / 2], c: vec![Complex::one(); state_size / 2] }
    }
    /// The number of complex modes N.
    pub fn size(&self) -> usize {
        self.lambda.len()
    }
    /// A = Λ − P P* as a dense matrix (by rows).
    pub fn matrix(&self) -> Vec<Vec<Complex<R>>> {
        let n = self.size();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let low = self.p[i].iter().zip(&self.p[j]).fold(Complex::zero(), |s, (&a, &b)| s + a * b.conj());
                        if i == j {
                            self.lambda[i] - low
                        } else {
                            -low
                        }
                    })
                    .collect()
            })
            .collect()
    }
    /// The system discretised with step Δ. `None` when the bilinear transform's `I − ΔA/2` is
    /// singular (on enclosures: may be), or for ZOH when P is not empty (dense complex ZOH is
    /// not provided) or a λ may be 0.
    pub fn discretize(&self, delta: R, rule: S4Discretization) -> Option<Discrete<R>> {
        let n = self.size();
        let d = Complex::real(delta);
        match rule {
            S4Discretization::Bilinear => {
                let a = self.matrix();
                let half = Complex::cst(0.5, 0.0) * d;
                let (minus, plus): (Vec<Vec<_>>, Vec<Vec<_>>) = (0..n)
                    .map(|i| {
                        (0..n)
                            .map(|j| {
                                let id = if i == j { Complex::one() } else { Complex::zero() };
                                (id - half * a[i][j], id + half * a[i][j])
                            })
                            .unzip()
                    })
                    .unzip();
                let rhs: Vec<Vec<Complex<R>>> = plus
                    .into_iter()
                    .zip(&self.b)
                    .map(|(mut row, &b)| {
                        row.push(d * b);
                        row
                    })
                    .collect();
                let x = solve(&minus, &rhs)?;
                Some(Discrete { abar: x.iter().map(|r| r[..n].to_vec()).collect(), bbar: x.iter().map(|r| r[n]).collect(), c: self.c.clone() })
            }
            S4Discretization::Zoh => {
                if self.p.iter().any(|r| !r.is_empty()) || self.lambda.iter().any(|l| l.re.may_be_zero() && l.im.may_be_zero()) {
                    return None;
                }
                let e: Vec<Complex<R>> = self.lambda.iter().map(|&l| (l * d).exp()).collect();
                let abar = (0..n).map(|i| (0..n).map(|j| if i == j { e[i] } else { Complex::zero() }).collect()).collect();
                let bbar = (0..n).map(|i| (e[i] - Complex::one()) / self.lambda[i] * self.b[i]).collect();
                Some(Discrete { abar, bbar, c: self.c.clone() })
            }
        }
    }
}

impl<R: Real> Discrete<R> {
    /// The convolution kernel `K_k = C Ā^k B̄`, k = 0 … len − 1 (S4D's real kernel is 2·Re K).
    pub fn kernel(&self, len: usize) -> Vec<Complex<R>> {
        let mut v: Vec<Vec<Complex<R>>> = self.bbar.iter().map(|&b| vec![b]).collect();
        (0..len)
            .map(|k| {
                if k > 0 {
                    v = matmul(&self.abar, &v);
                }
                self.c.iter().zip(&v).fold(Complex::zero(), |s, (&c, r)| s + c * r[0])
            })
            .collect()
    }
    /// The outputs `y_k = C h_k` of the recurrence on a real input.
    pub fn outputs(&self, x: &[R]) -> Vec<Complex<R>> {
        let mut h: Vec<Vec<Complex<R>>> = vec![vec![Complex::zero()]; self.bbar.len()];
        x.iter()
            .map(|&xk| {
                h = matmul(&self.abar, &h).into_iter().zip(&self.bbar).map(|(r, &b)| vec![r[0] + b * xk]).collect();
                self.c.iter().zip(&h).fold(Complex::zero(), |s, (&c, r)| s + c * r[0])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{ComplexInterval, Interval};
    use nalgebra::{Complex as NComplex, DMatrix, DVector};

    fn dplr() -> Dplr<f64> {
        let mut s = Dplr { c: (0..4).map(|n| Complex::new(0.3 * n as f64 - 0.4, 0.2)).collect(), ..Dplr::s4d(S4dInit::Inv, 8) };
        s.p = (0..4).map(|n| vec![Complex::new((n as f64 + 0.5).sqrt(), 0.0)]).collect();
        s
    }

    fn na(m: &[Vec<Complex<f64>>]) -> DMatrix<NComplex<f64>> {
        DMatrix::from_fn(m.len(), m.len(), |i, j| NComplex::new(m[i][j].re, m[i][j].im))
    }

    /// The initialisations as S4D's paper prints them (n = 0, 1, 2 at N = 8), and A = Λ − PP*.
    #[test]
    fn s4d_initialisations_and_the_dplr_matrix() {
        let lin = Dplr::<f64>::s4d(S4dInit::Lin, 8);
        assert_eq!(lin.lambda[2], Complex::new(-0.5, 2.0 * std::f64::consts::PI));
        let inv = Dplr::<f64>::s4d(S4dInit::Inv, 8);
        let want = |n: f64| 8.0 / std::f64::consts::PI * (8.0 / (2.0 * n + 1.0) - 1.0);
        assert!((0..4).all(|n| (inv.lambda[n].im - want(n as f64)).abs() < 1e-14 && inv.lambda[n].re == -0.5));
        let s = dplr();
        let a = s.matrix();
        assert!((a[1][2].re + (1.5f64 * 2.5).sqrt()).abs() < 1e-15 && (a[0][0].re - (-0.5 - 0.5)).abs() < 1e-15);
    }

    /// Bilinear against nalgebra's dense complex LU and inverse (an independent computation), and
    /// its enclosure; ZOH of S4D against nalgebra's complex matrix exponential of diag(ΔΛ) and
    /// the series Σ_k (ΔΛ)^k Δ/(k + 1)! for B̄.
    #[test]
    fn discretisations_agree_with_dense_complex_linear_algebra() {
        let s = dplr();
        let delta = 0.1;
        let got = s.discretize(delta, S4Discretization::Bilinear).unwrap();
        let a = na(&s.matrix());
        let id = DMatrix::<NComplex<f64>>::identity(4, 4);
        let half = a.map(|z| z * (delta / 2.0));
        let inv = (&id - &half).try_inverse().unwrap();
        let abar = &inv * (&id + &half);
        let bbar = &inv * DVector::from_fn(4, |i, _| NComplex::new(s.b[i].re * delta, s.b[i].im * delta));
        for i in 0..4 {
            assert!((NComplex::new(got.bbar[i].re, got.bbar[i].im) - bbar[i]).norm() < 1e-14);
            for j in 0..4 {
                assert!((NComplex::new(got.abar[i][j].re, got.abar[i][j].im) - abar[(i, j)]).norm() < 1e-14, "Ā[{i}][{j}]");
            }
        }
        let iv = |z: &Complex<f64>| ComplexInterval::exact(z.re, z.im);
        let si = Dplr {
            lambda: s.lambda.iter().map(iv).collect(),
            p: s.p.iter().map(|r| r.iter().map(iv).collect()).collect(),
            b: s.b.iter().map(iv).collect(),
            c: s.c.iter().map(iv).collect(),
        };
        let enclosed = si.discretize(Interval::exact(delta), S4Discretization::Bilinear).unwrap();
        assert!(enclosed.abar.iter().flatten().zip(got.abar.iter().flatten()).all(|(e, g)| e.re.width() < 1e-13 && (e.value() - *g).abs() < 1e-13));
        // ZOH of the diagonal part.
        let mut diag = s.clone();
        diag.p = vec![Vec::new(); 4];
        assert!(s.discretize(delta, S4Discretization::Zoh).is_none(), "dense complex ZOH is refused");
        let zoh = diag.discretize(delta, S4Discretization::Zoh).unwrap();
        let e = DMatrix::from_diagonal(&DVector::from_fn(4, |i, _| NComplex::new(s.lambda[i].re * delta, s.lambda[i].im * delta))).exp();
        for i in 0..4 {
            assert!((NComplex::new(zoh.abar[i][i].re, zoh.abar[i][i].im) - e[(i, i)]).norm() < 1e-14);
            let z = s.lambda[i] * Complex::cst(delta, 0.0);
            let (mut term, mut sum, mut fact) = (Complex::cst(delta, 0.0), Complex::zero(), 1.0);
            for k in 0..30 {
                fact *= (k + 1) as f64;
                sum += term * Complex::cst(1.0 / fact, 0.0);
                term *= z;
            }
            assert!((zoh.bbar[i] - sum).abs() < 1e-14, "B̄ by its series");
        }
    }

    /// The kernel K_k = C Ā^k B̄ equals the recurrence's impulse response, and for S4D it equals the
    /// Vandermonde sum Σ_n C_n Ā_n^k B̄_n (powers by squaring); a kernel with one mode's B̄ dropped
    /// (the control) does not.
    #[test]
    fn the_kernel_is_the_impulse_response_and_the_vandermonde_sum() {
        let s = dplr();
        let d = s.discretize(0.05, S4Discretization::Bilinear).unwrap();
        let mut impulse = vec![0.0; 20];
        impulse[0] = 1.0;
        let (k, y) = (d.kernel(20), d.outputs(&impulse));
        assert!(k.iter().zip(&y).all(|(a, b)| (*a - *b).abs() < 1e-13));
        let mut diag = s.clone();
        diag.p = vec![Vec::new(); 4];
        let dz = diag.discretize(0.05, S4Discretization::Zoh).unwrap();
        let kz = dz.kernel(20);
        let dz = &dz;
        let vander = |skip: Option<usize>| {
            (0..20)
                .map(move |k| (0..4).filter(|&n| Some(n) != skip).fold(Complex::zero(), |acc, n| acc + dz.c[n] * dz.abar[n][n].powi(k as u32) * dz.bbar[n]))
                .collect::<Vec<_>>()
        };
        assert!(kz.iter().zip(vander(None)).all(|(a, b)| (*a - b).abs() < 1e-13));
        assert!(kz.iter().zip(vander(Some(2))).any(|(a, b)| (*a - b).abs() > 1e-3));
    }
}
