//! Strategies for the field's models ([`crate::model`]'s [`Lru`](crate::model::Lru),
//! [`Dplr`](crate::model::Dplr), [`Ssd`](crate::model::Ssd), [`DeltaNet`](crate::model::DeltaNet)):
//! standard normals, unit vectors uniform on the sphere (keys), positive vectors (step sizes, rates), and complex eigenvalues in the
//! unit disc, with or without conjugate pairs.

use super::{edge_biased, log_uniform, real};
use crate::math::Complex;
use proptest::collection::vec;
use proptest::prelude::*;

/// A standard normal value: Φ⁻¹ of a uniform grid of 2²¹ + 1 probabilities,
/// `Φ⁻¹((i + 2²⁰ + ½)/(2²¹ + 1))` for `i` in −2²⁰..=2²⁰, so it lies in ±5.035 (the grid's
/// outermost points; a true normal exceeds them with probability 4.8·10⁻⁷). The map from the drawn
/// integer to the value is monotone, so the search's nudges move the value continuously, and it
/// shrinks toward `i = 0`, which is exactly 0.
pub fn standard_normal() -> impl Strategy<Value = f64> + Clone {
    const HALF: i64 = 1 << 20;
    let law = statrs::distribution::Normal::new(0.0, 1.0).expect("the standard normal");
    (-HALF..=HALF).prop_map(move |i| {
        use statrs::distribution::ContinuousCDF;
        if i == 0 {
            0.0
        } else {
            law.inverse_cdf((i + HALF) as f64 / (2 * HALF + 1) as f64 + 0.5 / (2 * HALF + 1) as f64)
        }
    })
}

/// A unit vector in ℝⁿ, uniform on the sphere Sⁿ⁻¹ (to the resolution of its
/// [`standard_normal`] coordinates): `n` standard normals normalised (Euclidean norm 1 to
/// rounding), so the probability of a cap {u : ⟨u, k⟩ > t} is the same for every direction `k`
/// (`½·I_{1−t²}((n−1)/2, ½)` for t ≥ 0). The zero draw (what shrinking reaches) maps to e₁.
pub fn unit_vector(n: usize) -> impl Strategy<Value = Vec<f64>> + Clone {
    assert!(n >= 1, "unit_vector needs n ≥ 1");
    vec(standard_normal(), n).prop_map(|v| {
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

    /// Standard normals: the grid's map is monotone (so the search's nudges move the value
    /// continuously), symmetric, 0 at the middle, and its ends at Φ⁻¹(½/(2²¹ + 1)) = −5.035.
    #[test]
    fn standard_normal_is_monotone_symmetric_and_bounded() {
        let law = statrs::distribution::Normal::new(0.0, 1.0).unwrap();
        let value = |i: i64| {
            use statrs::distribution::ContinuousCDF;
            law.inverse_cdf((i + (1 << 20)) as f64 / ((1 << 21) + 1) as f64 + 0.5 / ((1 << 21) + 1) as f64)
        };
        assert!(value(1) > 0.0 && value(-1) < 0.0 && (value(1) + value(-1)).abs() < 1e-12);
        assert!((value(-(1 << 20)) + 5.035).abs() < 0.001, "{}", value(-(1 << 20)));
        let mut last = f64::NEG_INFINITY;
        for i in (-(1i64 << 20)..=(1 << 20)).step_by(997) {
            assert!(value(i) > last);
            last = value(i);
        }
        let xs = draws(&standard_normal(), 20_000);
        let below_one = xs.iter().filter(|&&x| x < 1.0).count() as f64 / 20_000.0;
        // Φ(1) = 0.841345; 5 SE of a proportion near 0.84 over 20 000 draws is 0.013.
        assert!((below_one - 0.841345).abs() < 0.013, "{below_one}");
    }

    /// Uniform on the sphere: the cap {⟨u, k⟩ > ½} of S² has probability exactly ¼ (Archimedes:
    /// the cap's area is 2π(1 − ½) of 4π) for the axis and for the diagonal alike; each
    /// estimate over 20 000 draws lies within 4.5 SE (0.014) of ¼ (two tests, each at
    /// 7·10⁻⁶). Control: the normalised uniform cube, the previous construction, gives 0.279 on
    /// the axis (9 SE away), so the same test refutes it.
    #[test]
    fn unit_vectors_are_uniform_on_the_sphere() {
        let cap = |us: &[Vec<f64>], k: &[f64]| us.iter().filter(|u| u.iter().zip(k).map(|(a, b)| a * b).sum::<f64>() > 0.5).count() as f64 / us.len() as f64;
        let axis = [1.0, 0.0, 0.0];
        let diagonal = [3f64.sqrt().recip(); 3];
        let sphere = draws(&unit_vector(3), 20_000);
        for k in [&axis[..], &diagonal[..]] {
            assert!((cap(&sphere, k) - 0.25).abs() < 0.014, "{k:?}: {}", cap(&sphere, k));
        }
        let cube = draws(&vec(crate::strategy::real(-1.0, 1.0), 3), 20_000);
        let cube: Vec<Vec<f64>> = cube.iter().map(|v| v.iter().map(|x| x / v.iter().map(|y| y * y).sum::<f64>().sqrt()).collect()).collect();
        assert!((cap(&cube, &axis) - 0.25).abs() > 0.014, "the control: {}", cap(&cube, &axis));
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
