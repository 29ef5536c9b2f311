//! 000 Remark 6 (App. A.2): Corollary 1 for a continuous target on piecewise-constant inputs.
//!
//! The output of a convolution with target ρ on an input x that is constant on cells,
//! `∫₀¹ ρ(s)x(s) ds = Σ_i x_i ∫_{cell i} ρ`, sees ρ only through its cell averages. The intermediate
//! value theorem makes each average a value ρ(ξ_i) of ρ in its cell, so the piecewise-constant
//! ρ̄ = Σ_i ρ(ξ_i)·1_{cell i}, with at most T − 1 discontinuities, gives every output exactly, and
//! Corollary 1 applies to ρ̄: on T = 2^J dyadic cells its Haar expansion has T terms.
//!
//! * `000.rem6` (Theorem): ξ_i found by bisection (the IVT, constructively), ρ̄ expanded in the
//!   scaling function and the T − 1 Haar wavelets of levels < J and resynthesised, reproduces
//!   ∫ρx within the rounding. Control: ρ̄ taken at the cells' midpoints (a fixed point, not the
//!   IVT's ξ_i).

use crate::claim::{property, Claim, Eval, Paper, Rounding, Scale, Tolerance};
use crate::strategy::grid_vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A cubic target ρ(s) = Σ_k c_k s^k on [0, 1] and an input constant on T = 2^J dyadic cells.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CellInput {
    /// c_0..c_3.
    pub coef: [f64; 4],
    /// x_i on cell i = [i/T, (i+1)/T), T = 2^J.
    pub x: Vec<f64>,
}

/// Where the cell values of ρ̄ are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellValue {
    /// At ξ_i with ρ(ξ_i) = the cell average (the intermediate value theorem).
    Intermediate,
    /// At the cell's midpoint.
    Midpoint,
}

impl CellInput {
    fn rho(&self, s: f64) -> f64 {
        self.coef.iter().rev().fold(0.0, |acc, &c| acc * s + c)
    }
    /// The antiderivative Σ c_k s^{k+1}/(k+1).
    fn antiderivative(&self, s: f64) -> f64 {
        self.coef.iter().enumerate().rev().fold(0.0, |acc, (k, &c)| acc * s + c / (k + 1) as f64) * s
    }
    /// T.
    pub fn cells(&self) -> usize {
        self.x.len()
    }
    fn cell(&self, i: usize) -> (f64, f64) {
        let t = self.cells() as f64;
        (i as f64 / t, (i + 1) as f64 / t)
    }
    /// The output ∫₀¹ ρx = Σ_i x_i ∫_{cell i} ρ, from the antiderivative.
    pub fn output(&self) -> f64 {
        (0..self.cells()).map(|i| self.x[i] * self.cell_integral(i)).sum()
    }
    fn cell_integral(&self, i: usize) -> f64 {
        let (a, b) = self.cell(i);
        self.antiderivative(b) - self.antiderivative(a)
    }
    /// ξ_i in cell i with ρ(ξ_i) = the cell average: bisection between the cell's two
    /// Gauss–Legendre nodes, where a cubic's average lies between the two values (the two-point
    /// rule is exact for cubics: the average is their mean).
    pub fn intermediate_point(&self, i: usize) -> f64 {
        let (a, b) = self.cell(i);
        let avg = self.cell_integral(i) * self.cells() as f64;
        let half = (b - a) / (2.0 * 3f64.sqrt());
        let (mut lo, mut hi) = ((a + b) / 2.0 - half, (a + b) / 2.0 + half);
        let rising = self.rho(hi) >= self.rho(lo);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if (self.rho(mid) < avg) == rising {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
    /// ρ̄'s cell values.
    pub fn cell_values(&self, at: CellValue) -> Vec<f64> {
        (0..self.cells())
            .map(|i| match at {
                CellValue::Intermediate => self.rho(self.intermediate_point(i)),
                CellValue::Midpoint => {
                    let (a, b) = self.cell(i);
                    self.rho((a + b) / 2.0)
                }
            })
            .collect()
    }
    /// ⟨g, x⟩ for g the T-term Haar expansion of ρ̄ (scaling function and wavelets of levels
    /// < J, coefficients by the fast Haar transform), resynthesised on the cells.
    pub fn haar_output(&self, at: CellValue) -> f64 {
        let g = haar_synthesis(&haar_analysis(&self.cell_values(at)));
        g.iter().zip(&self.x).map(|(g, x)| g * x).sum::<f64>() / self.cells() as f64
    }
    /// The rounding of |∫ρx − ⟨g, x⟩|: each cell average is T times a difference of two
    /// antiderivatives (Horner, γ₈ of C = Σ|c_k| each), so within 2Tγ₈C; ρ(ξ_i) meets it within
    /// the bisection's last step (ρ′ ≤ C′ = Σ k|c_k| times 2 ulps of 1) and ρ's own rounding
    /// (γ₈C); the transform's J levels of halved sums and the final sum add γ_{2J+T+4} of
    /// max|ρ̄|·Σ|x_i|/T.
    fn rounding(&self) -> f64 {
        let c: f64 = self.coef.iter().map(|c| c.abs()).sum();
        let slope: f64 = self.coef.iter().enumerate().map(|(k, c)| k as f64 * c.abs()).sum();
        let t = self.cells();
        let j = t.trailing_zeros() as usize;
        let mass = self.x.iter().map(|x| x.abs()).sum::<f64>() / t as f64;
        let values = c.max(f64::MIN_POSITIVE);
        mass * ((2 * t + 2) as f64 * Rounding::gamma(8) * c + slope * 2.0 * f64::EPSILON + Rounding::gamma(2 * j + t + 4) * values)
    }
}

/// The orthonormal fast Haar transform of T = 2^J cell values: [scaling, level 0, level 1 (2), …].
fn haar_analysis(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    let mut out = vec![0.0; v.len()];
    let mut n = v.len();
    while n > 1 {
        let half = n / 2;
        let avg: Vec<f64> = (0..half).map(|k| 0.5 * (v[2 * k] + v[2 * k + 1])).collect();
        for k in 0..half {
            out[half + k] = 0.5 * (v[2 * k] - v[2 * k + 1]);
        }
        v = avg;
        n = half;
    }
    out[0] = v[0];
    out
}

/// The inverse of [`haar_analysis`].
fn haar_synthesis(coef: &[f64]) -> Vec<f64> {
    let mut v = vec![coef[0]];
    while v.len() < coef.len() {
        let n = v.len();
        v = (0..2 * n).map(|m| v[m / 2] + if m % 2 == 0 { coef[n + m / 2] } else { -coef[n + m / 2] }).collect();
    }
    v
}

/// |∫ρx − ⟨g, x⟩| within the rounding.
fn reproduces(c: &CellInput, at: CellValue) -> Eval {
    let tol = c.rounding();
    Eval::close((c.output() - c.haar_output(at)).abs(), Scale(tol.max(f64::MIN_POSITIVE)), Tolerance::absolute(tol))
}

/// Cubics with coefficients on a 1/8 grid in [−2, 2]; T = 2^J cells, J ∈ 1..=4; x_i on a 1/16
/// grid in [−1, 1].
fn cell_inputs() -> impl Strategy<Value = CellInput> + Clone {
    (grid_vec(4, -2.0, 2.0, 0.125), 1..=4u32).prop_flat_map(|(c, j)| {
        let coef = [c[0], c[1], c[2], c[3]];
        grid_vec(1 << j, -1.0, 1.0, 0.0625).prop_map(move |x| CellInput { coef, x })
    })
}

/// `000.rem6` (theorem): Remark 6 (App. A.2).
fn claim_rem6() -> Claim {
    Claim::theorem(
        "000.rem6",
        super::FAMILY,
        "For a continuous target ρ (a cubic, coefficients on a 1/8 grid in [−2, 2]) and an input constant on T = 2^J dyadic cells \
         (J ≤ 4), the piecewise-constant ρ̄ = Σ_i ρ(ξ_i)1_{cell i}, ξ_i a point of cell i where ρ takes its cell average (the \
         intermediate value theorem), has at most T − 1 discontinuities and gives the output exactly: its T-term Haar expansion \
         (scaling function and the wavelets of levels < J) reproduces ∫ρx within the rounding.",
        property([200, 2000, 20000], cell_inputs(), |c: &CellInput| reproduces(c, CellValue::Intermediate))
            .sides("|∫₀¹ρx − ⟨Haar expansion of ρ̄, x⟩|", "the rounding (proofs/haar.md)"),
    )
    .source(
        Paper::InputSelectivity,
        "Remark 6 (App. A.2)",
        "While the assumption of a piecewise-constant target function seems restrictive in Cor. 1, we note that this can be relaxed to a continuous target function ρ by additionally assuming the input signals x are piecewise-constant. The equivalence is due to the intermediate value theorem.",
    )
    .control(
        "ρ̄ taken at each cell's midpoint instead of the intermediate point ξ_i",
        property([200, 2000, 20000], cell_inputs(), |c: &CellInput| reproduces(c, CellValue::Midpoint)),
    )
}

/// Registers the Remark 6 claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_rem6());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_intermediate_point_takes_the_cell_average_and_the_midpoint_does_not() {
        // ρ(s) = s² on 2 cells: averages 1/12 and 7/12, taken at ξ = 1/√12 and √(7/12);
        // the midpoints give 1/16 and 9/16.
        let c = CellInput { coef: [0.0, 0.0, 1.0, 0.0], x: vec![1.0, -0.5] };
        assert!((c.intermediate_point(0) - (1.0f64 / 12.0).sqrt()).abs() < 1e-15);
        assert!((c.intermediate_point(1) - (7.0f64 / 12.0).sqrt()).abs() < 1e-15);
        assert!((c.output() - (1.0 / 24.0 - 0.5 * 7.0 / 24.0)).abs() < 1e-16);
        assert!(!reproduces(&c, CellValue::Intermediate).refutes());
        assert!(reproduces(&c, CellValue::Midpoint).refutes());
        assert_eq!(haar_synthesis(&haar_analysis(&[1.0, 2.0, -3.0, 0.5])), vec![1.0, 2.0, -3.0, 0.5]);
    }
}
