//! The SSM with a dense state matrix A on one scalar input channel, with a step size Δ_t that
//! may vary per step (given, not input-dependent): `h_t = Ā(Δ_t) h_{t−1} + B̄(Δ_t) x_t`.

use super::discretize::{dense as disc, Discretization};
use crate::math::linalg::{Mat, Vector};
use crate::math::{interval, Interval, Real};

/// `M·v` for a constant matrix and a generic vector.
pub fn matvec<R: Real>(m: &Mat, v: &[R]) -> Vec<R> {
    (0..m.nrows()).map(|i| (0..m.ncols()).fold(R::zero(), |acc, j| acc + v[j] * m[(i, j)])).collect()
}

/// A dense-A SSM.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseSsm {
    /// State matrix A (H×H).
    pub a: Mat,
    /// Input vector B (H).
    pub b: Vector,
    /// Discretisation of B.
    pub disc: Discretization,
}

impl DenseSsm {
    /// `(Ā, B̄)` at step Δ.
    pub fn discretize(&self, delta: f64) -> (Mat, Vector) {
        disc(&self.a, &self.b, delta, self.disc)
    }

    /// States h_1..h_T from h_0 = 0 with steps `deltas[t-1]` = Δ_t.
    pub fn states<R: Real>(&self, deltas: &[f64], x: &[R]) -> Vec<Vec<R>> {
        let mut h = vec![R::zero(); self.a.nrows()];
        deltas
            .iter()
            .zip(x)
            .map(|(&d, &xt)| {
                let (abar, bbar) = self.discretize(d);
                h = matvec(&abar, &h);
                h.iter_mut().zip(bbar.iter()).for_each(|(hn, &bn)| *hn += xt * bn);
                h.clone()
            })
            .collect()
    }

    /// The LRD sequence of 004 eq (10): `v_0 = B̄_t`, `v_j = Ā_{t+j} v_{j−1}`, j = 0..=k
    /// (1-based t; `deltas[t-1]` = Δ_t).
    pub fn lrd_eq10_path(&self, deltas: &[f64], t: usize, k: usize) -> Vec<Vector> {
        let (_, mut v) = self.discretize(deltas[t - 1]);
        let mut out = vec![v.clone()];
        for j in t + 1..=t + k {
            v = self.discretize(deltas[j - 1]).0 * v;
            out.push(v.clone());
        }
        out
    }

    /// [`DenseSsm::lrd_eq10_path`] enclosed, for ZOH (the discretisation of 004): `v_0 = B̄_t`
    /// as the last column of the interval exponential of `[[Δ_t A, Δ_t B], [0, 0]]` (its top-right
    /// block is φ₁(Δ_t A)Δ_t B = A⁻¹(e^{Δ_t A} − I)B, with no inverse of A needed), then `v_j =
    /// e^{Δ_{t+j} A} v_{j−1}` by [`interval::expm`] and interval products. A and B are taken as
    /// exact; None when a product Δ·a is not exact in f64 (scale the steps to dyadics) or the
    /// model is not ZOH. Widths grow with the products (interval matrix–vector products do not
    /// cancel), so long paths of rotating states widen.
    pub fn lrd_eq10_path_enclosure(&self, deltas: &[f64], t: usize, k: usize) -> Option<Vec<Vec<Interval>>> {
        if self.disc != Discretization::Zoh {
            return None;
        }
        let h = self.a.nrows();
        let scaled = |d: f64, m: &Mat| -> Option<Vec<Vec<f64>>> {
            (0..m.nrows())
                .map(|i| (0..m.ncols()).map(|j| ((Interval::exact(d) * Interval::exact(m[(i, j)])).width() == 0.0).then_some(d * m[(i, j)])).collect())
                .collect()
        };
        let mut augmented = Mat::zeros(h + 1, h + 1);
        augmented.view_mut((0, 0), (h, h)).copy_from(&self.a);
        augmented.view_mut((0, h), (h, 1)).copy_from(&self.b);
        let first = interval::expm(&scaled(deltas[t - 1], &augmented)?);
        let mut v: Vec<Interval> = first[..h].iter().map(|r| r[h]).collect();
        let mut out = vec![v.clone()];
        for &d in &deltas[t..t + k] {
            v = interval::matvec(&interval::expm(&scaled(d, &self.a)?), &v);
            out.push(v.clone());
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enclosed_lrd_path_contains_the_float_path_and_is_narrow() {
        let m = DenseSsm { a: Mat::from_row_slice(2, 2, &[-0.25, 1.0, -0.5, -0.75]), b: Vector::from_vec(vec![0.5, -0.25]), disc: Discretization::Zoh };
        let deltas = [0.0625, 0.5, 1.25, 2.0, 0.125];
        let float = m.lrd_eq10_path(&deltas, 1, 4);
        let enclosed = m.lrd_eq10_path_enclosure(&deltas, 1, 4).expect("dyadic steps");
        for (f, e) in float.iter().zip(&enclosed) {
            for (x, i) in f.iter().zip(e) {
                // The float path (nalgebra's Padé exponential, A⁻¹ solve) is within ~10⁻¹⁵ of the
                // exact one, which the enclosure holds; a band of 10⁻¹³ covers both.
                assert!((Interval::exact(*x) - *i).mag() < 1e-13, "{x} vs {i}");
                assert!(i.width() < 1e-13, "{i}");
            }
        }
        // A step whose products with A are not exact in f64 (0.1 × −0.75) gives no enclosure
        // rather than a wrong one.
        assert!(m.lrd_eq10_path_enclosure(&[0.1, 0.5], 1, 1).is_none());
    }
}
