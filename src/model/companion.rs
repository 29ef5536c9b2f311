//! Single-input single-output LTI systems in two coordinates, generic over the scalar so the
//! same code runs in `f64` and in exact rationals ([`Exact`]):
//!
//! * [`DiagonalLti`]: `x_{t+1} = Λx_t + b u_t`, `y_t = cᵀx_t + D u_t` (a frozen Mamba channel);
//! * [`Companion`]: the controllable canonical form of 001 App. C.3 eq (20),
//!   `X_{t+1} = A_c X_t + e_n u_t`, `y_t = βᵀX_t + D u_t`, where `A_c` has ones on the
//!   super-diagonal and last row `[−α_0, …, −α_{n−1}]`, realizing
//!   `W(z) = β(z)/α(z) + D` with `α(z) = z^n + Σα_i z^i` (eq 19).
//!
//! [`Companion::from_diagonal`] is the conversion the paper describes ("picking the coefficients
//! of the characteristic polynomial such that its poles are the same as the diagonal entries"):
//! `α = Π(z − λ_i)`, `β(z) = Σ c_i b_i Π_{j≠i}(z − λ_j)`. The conversion is ill-conditioned in
//! `f64` (Vandermonde-like growth of the coefficients), so the claims check it in [`Exact`]
//! arithmetic, where it is an identity, and report the `f64` error against the order.

use num_traits::{Num, One};
use serde::{Deserialize, Serialize};

pub use crate::math::exact::{exact, rank, to_f64, Exact};

/// The scalar of a generic system: `f64` or [`Exact`].
pub trait Field: Num + Clone + std::fmt::Debug {}
impl<T: Num + Clone + std::fmt::Debug> Field for T {}

/// The coefficients `[α_0, …, α_{n−1}]` of the monic `Π_i (z − r_i)` (ascending powers; the
/// leading 1 is left out).
pub fn poly_from_roots<S: Field>(roots: &[S]) -> Vec<S> {
    let mut p = vec![S::one()];
    for r in roots {
        // p(z)·(z − r): shift up and subtract r·p.
        let mut q = vec![S::zero(); p.len() + 1];
        for (i, c) in p.iter().enumerate() {
            q[i + 1] = q[i + 1].clone() + c.clone();
            q[i] = q[i].clone() - r.clone() * c.clone();
        }
        p = q;
    }
    p.pop();
    p
}

/// A diagonal SISO system `x_{t+1} = Λx_t + b u_t`, `y_t = cᵀx_t + D u_t`, zero initial state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagonalLti<S> {
    /// The poles λ_i.
    pub lambda: Vec<S>,
    /// b.
    pub b: Vec<S>,
    /// c.
    pub c: Vec<S>,
    /// The feedthrough D.
    pub d: S,
}

impl<S: Field> DiagonalLti<S> {
    /// The outputs for the inputs `u`.
    pub fn simulate(&self, u: &[S]) -> Vec<S> {
        let mut x = vec![S::zero(); self.lambda.len()];
        u.iter()
            .map(|ut| {
                let y = x.iter().zip(&self.c).fold(self.d.clone() * ut.clone(), |s, (xi, ci)| s + ci.clone() * xi.clone());
                for ((xi, li), bi) in x.iter_mut().zip(&self.lambda).zip(&self.b) {
                    *xi = li.clone() * xi.clone() + bi.clone() * ut.clone();
                }
                y
            })
            .collect()
    }
    /// The impulse response `h_0 = D`, `h_j = Σ c_i b_i λ_i^{j−1}` for `j < len`.
    pub fn impulse(&self, len: usize) -> Vec<S> {
        self.simulate(&impulse_input(len))
    }
}

/// `[1, 0, 0, …]` of length `len`.
pub fn impulse_input<S: Field>(len: usize) -> Vec<S> {
    (0..len).map(|t| if t == 0 { S::one() } else { S::zero() }).collect()
}

/// The controllable canonical form (001 eq 20): state `X ∈ S^n`, zero initial state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Companion<S> {
    /// `[α_0, …, α_{n−1}]`: the characteristic polynomial `z^n + Σ α_i z^i`.
    pub alpha: Vec<S>,
    /// `[β_0, …, β_{n−1}]`: the read-out, the numerator `Σ β_i z^i`.
    pub beta: Vec<S>,
    /// The feedthrough D.
    pub d: S,
}

impl<S: Field> Companion<S> {
    /// The order n.
    pub fn order(&self) -> usize {
        self.alpha.len()
    }

    /// The paper's conversion of a diagonal system: `α = Π(z − λ_i)`,
    /// `β(z) = Σ_i c_i b_i Π_{j≠i}(z − λ_j)`, the same D.
    pub fn from_diagonal(sys: &DiagonalLti<S>) -> Companion<S> {
        let n = sys.lambda.len();
        let mut beta = vec![S::zero(); n];
        for i in 0..n {
            let others: Vec<S> = sys.lambda.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, l)| l.clone()).collect();
            let mut p = poly_from_roots(&others);
            p.push(S::one());
            let w = sys.c[i].clone() * sys.b[i].clone();
            for (bk, pk) in beta.iter_mut().zip(p) {
                *bk = bk.clone() + w.clone() * pk;
            }
        }
        Companion { alpha: poly_from_roots(&sys.lambda), beta, d: sys.d.clone() }
    }

    /// `A_c` as rows.
    pub fn matrix(&self) -> Vec<Vec<S>> {
        let n = self.order();
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        if r + 1 == n {
                            S::zero() - self.alpha[c].clone()
                        } else if c == r + 1 {
                            S::one()
                        } else {
                            S::zero()
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// One step `X ← A_c X + e_n u`, returning the output `βᵀX + D u` read before the step.
    pub fn step(&self, x: &mut Vec<S>, u: S) -> S {
        let y = x.iter().zip(&self.beta).fold(self.d.clone() * u.clone(), |s, (xi, bi)| s + bi.clone() * xi.clone());
        if !x.is_empty() {
            let last = x.iter().zip(&self.alpha).fold(u, |s, (xi, ai)| s - ai.clone() * xi.clone());
            x.remove(0);
            x.push(last);
        }
        y
    }

    /// The outputs for the inputs `u`.
    pub fn simulate(&self, u: &[S]) -> Vec<S> {
        let mut x = vec![S::zero(); self.order()];
        u.iter().map(|ut| self.step(&mut x, ut.clone())).collect()
    }

    /// The impulse response `h_0 = D`, `h_j = βᵀA_c^{j−1}e_n`, for `j < len`.
    pub fn impulse(&self, len: usize) -> Vec<S> {
        self.simulate(&impulse_input(len))
    }

    /// The first `len` coefficients of the power series of `β(z)/α(z) + D` in `z^{−1}`, by long
    /// division (eq 19 expanded at infinity): the Markov parameters without a state.
    pub fn series(&self, len: usize) -> Vec<S> {
        // β/α = Σ_{j≥1} h_j z^{−j} ⇔ β(z) = α(z)·Σ h_j z^{−j}: matching z^{n−j} gives
        // h_j = β_{n−j} − Σ_{i=1}^{j−1} α_{n−i}·h_{j−i} (with β_k = 0 for k < 0, α_n = 1).
        let n = self.order();
        let mut h = vec![self.d.clone()];
        for j in 1..len {
            let mut v = if j <= n { self.beta[n - j].clone() } else { S::zero() };
            for i in 1..j.min(n + 1) {
                v = v - self.alpha[n - i].clone() * h[j - i].clone();
            }
            h.push(v);
        }
        h.truncate(len);
        h
    }

    /// The observability matrix `[βᵀ; βᵀA_c; …; βᵀA_c^{n−1}]`.
    pub fn observability(&self) -> Vec<Vec<S>> {
        let a = self.matrix();
        let mut row = self.beta.clone();
        let mut rows = Vec::new();
        for _ in 0..self.order() {
            rows.push(row.clone());
            row = (0..self.order()).map(|c| row.iter().zip(&a).fold(S::zero(), |s, (r, arow)| s + r.clone() * arow[c].clone())).collect();
        }
        rows
    }

    /// The controllability matrix `[e_n, A_c e_n, …, A_c^{n−1}e_n]` (as columns, stored as rows
    /// of its transpose).
    pub fn controllability(&self) -> Vec<Vec<S>> {
        let a = self.matrix();
        let n = self.order();
        let mut col: Vec<S> = (0..n).map(|i| if i + 1 == n { S::one() } else { S::zero() }).collect();
        let mut cols = Vec::new();
        for _ in 0..n {
            cols.push(col.clone());
            col = a.iter().map(|r| r.iter().zip(&col).fold(S::zero(), |s, (x, y)| s + x.clone() * y.clone())).collect();
        }
        cols
    }
}

/// `Π_{j≠i}(λ_i − λ_j)`, `α′(λ_i)`: the residue denominator of a simple pole.
pub fn derivative_at_root<S: Field>(roots: &[S], i: usize) -> S {
    roots.iter().enumerate().filter(|(j, _)| *j != i).fold(S::one(), |p, (_, l)| p * (roots[i].clone() - l.clone()))
}

/// `p(z)` for ascending coefficients `p` (Horner).
pub fn eval_poly<S: Field>(p: &[S], z: &S) -> S {
    p.iter().rev().fold(S::zero(), |acc, c| acc * z.clone() + c.clone())
}

impl Companion<Exact> {
    /// The inverse conversion for distinct poles `λ`: partial fractions,
    /// `β(z)/α(z) = Σ_i r_i/(z − λ_i)` with `r_i = β(λ_i)/α′(λ_i)`: the diagonal system with
    /// `b_i = 1`, `c_i = r_i`.
    pub fn to_diagonal(&self, lambda: &[Exact]) -> DiagonalLti<Exact> {
        let c = (0..lambda.len()).map(|i| eval_poly(&self.beta, &lambda[i]) / derivative_at_root(lambda, i)).collect();
        DiagonalLti { lambda: lambda.to_vec(), b: vec![Exact::one(); lambda.len()], c, d: self.d.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_order_example_by_hand() {
        // λ = (1/2, 1/4), b = (1, 1), c = (1, 2): W(z) = 1/(z − 1/2) + 2/(z − 1/4)
        // = (3z − 5/4)/(z² − 3z/4 + 1/8).
        let sys = DiagonalLti { lambda: vec![0.5, 0.25], b: vec![1.0, 1.0], c: vec![1.0, 2.0], d: 0.0 };
        let comp = Companion::from_diagonal(&sys);
        assert_eq!(comp.alpha, vec![0.125, -0.75]);
        assert_eq!(comp.beta, vec![-1.25, 3.0]);
        assert_eq!(comp.impulse(6), sys.impulse(6));
        assert_eq!(comp.series(6), sys.impulse(6));
    }

    #[test]
    fn exact_round_trip_and_f64_conversion() {
        let x = exact(0.1);
        assert_eq!(to_f64(&x), 0.1);
        assert_eq!(to_f64(&exact(-3.5e-9)), -3.5e-9);
        let lambda: Vec<Exact> = [0.5, -0.25, 0.75].iter().map(|v| exact(*v)).collect();
        let sys = DiagonalLti { lambda: lambda.clone(), b: vec![exact(1.0); 3], c: [1.0, -2.0, 0.5].iter().map(|v| exact(*v)).collect(), d: exact(0.0) };
        let back = Companion::from_diagonal(&sys).to_diagonal(&lambda);
        assert_eq!(back.c, sys.c);
        assert_eq!(rank(&Companion::from_diagonal(&sys).observability()), 3);
    }
}
