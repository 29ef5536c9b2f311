//! Strategies for the field's models ([`crate::model`]'s [`Lru`](crate::model::Lru),
//! [`Dplr`](crate::model::Dplr), [`Ssd`](crate::model::Ssd), [`DeltaNet`](crate::model::DeltaNet)):
//! unit vectors (keys), positive vectors (step sizes, rates), and complex eigenvalues in the
//! unit disc, with or without conjugate pairs.

use super::{edge_biased, log_uniform, real};
use crate::math::Complex;
use proptest::collection::vec;
use proptest::prelude::*;

/// A unit vector in ℝⁿ (Euclidean norm 1 to rounding): a draw of [`real`] entries in [−1, 1]
/// normalised; the zero draw (what shrinking reaches) maps to e₁.
pub fn unit_vector(n: usize) -> impl Strategy<Value = Vec<f64>> + Clone {
    assert!(n >= 1, "unit_vector needs n ≥ 1");
    vec(real(-1.0, 1.0), n).prop_map(|v| {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm == 0.0 {
            (0..v.len()).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect()
        } else {
            v.iter().map(|x| x / norm).collect()
        }
    })
}

/// A vector of `n` positive values log-uniform in `[lo, hi]` ([`log_uniform`]).
pub fn positive_vec(n: usize, lo: f64, hi: f64) -> impl Strategy<Value = Vec<f64>> + Clone {
    vec(log_uniform(lo, hi), n)
}

/// `n` complex numbers `r·e^{iθ}` in the disc |z| ≤ `r_max`: the modulus [`edge_biased`] on
/// `[0, r_max]` (so moduli at and just below `r_max`, where memory is longest, are drawn often;
/// `r_max < 1` for the open unit disc), the phase in (−π, π]. With `conjugate_pairs` the values
/// come as `z, z̄` pairs (phases in [0, π]; for odd n the last is real), as the eigenvalues of a
/// real matrix do.
pub fn disc_eigenvalues(n: usize, r_max: f64, conjugate_pairs: bool) -> impl Strategy<Value = Vec<Complex<f64>>> + Clone {
    assert!(r_max > 0.0, "disc_eigenvalues needs r_max > 0");
    let pi = std::f64::consts::PI;
    let count = if conjugate_pairs { n.div_ceil(2) } else { n };
    let phase = if conjugate_pairs { real(0.0, pi).sboxed() } else { real(-pi, pi).sboxed() };
    vec((edge_biased(0.0, r_max), phase), count).prop_map(move |polar| {
        let mut out = Vec::with_capacity(n);
        for (k, &(r, theta)) in polar.iter().enumerate() {
            let z = Complex::polar(r, theta);
            if conjugate_pairs && !(n % 2 == 1 && k == count - 1) {
                out.extend([z, z.conj()]);
            } else if conjugate_pairs {
                out.push(Complex::new(if theta <= pi / 2.0 { r } else { -r }, 0.0));
            } else {
                out.push(z);
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn draws<S: Strategy>(s: &S, k: usize) -> Vec<S::Value> {
        let mut runner = TestRunner::deterministic();
        (0..k).map(|_| s.new_tree(&mut runner).unwrap().current()).collect()
    }

    #[test]
    fn unit_vectors_have_norm_one_and_positive_vectors_their_range() {
        for v in draws(&unit_vector(5), 200) {
            assert!((v.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-15, "{v:?}");
        }
        for v in draws(&positive_vec(4, 1e-3, 10.0), 200) {
            assert!(v.iter().all(|&x| (1e-3..=10.0).contains(&x)));
        }
    }

    /// Every value lies in the disc; pairs are conjugate; moduli at r_max itself and within
    /// 10⁻⁶ of it are drawn (the edge the bias is for), which a uniform modulus would reach
    /// in about one draw in 10⁶.
    #[test]
    fn disc_eigenvalues_lie_in_the_disc_come_in_pairs_and_reach_the_edge() {
        let (mut at_edge, mut near_edge) = (0, 0);
        for zs in draws(&disc_eigenvalues(5, 0.999, true), 300) {
            assert_eq!(zs.len(), 5);
            for pair in zs[..4].chunks(2) {
                assert_eq!(pair[1], pair[0].conj());
            }
            assert_eq!(zs[4].im, 0.0);
            for z in &zs {
                assert!(z.abs() <= 0.999 * (1.0 + 1e-15));
                at_edge += usize::from(z.abs() == 0.999 || (z.abs() - 0.999).abs() < 1e-15);
                near_edge += usize::from(0.999 - z.abs() < 1e-6);
            }
        }
        assert!(at_edge > 10 && near_edge > at_edge, "{at_edge} at the edge, {near_edge} near it");
        for zs in draws(&disc_eigenvalues(3, 1.0, false), 100) {
            assert!(zs.len() == 3 && zs.iter().all(|z| z.abs() <= 1.0 + 1e-15));
        }
    }
}
