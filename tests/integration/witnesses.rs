//! Fixed witnesses (proofs/decay.md, "Reference values"), kept as regression cases beside the search (the search
//! refutes each erratum on its own; these pin reference values with their source).

use ssmcheck::math::linalg::{expm, log_norm2, mat_from_rows, spectral_abscissa, spectral_norm, Vector};
use ssmcheck::model::{DenseSsm, Discretization};
use ssmcheck::strategy::hippo_legs;

#[test]
fn jordan_witness_of_corollary1() {
    // proofs/decay.md: A = [[−1,10],[0,−1]], B = (0,1), Δ = 1: B̄ = (2.6424, 0.6321),
    // ‖LRD(t,t)‖ = 2.7170, ‖LRD(t+1,t)‖ = 3.3057 against the claimed e^{−1}·2.7170 = 0.9995.
    let m = DenseSsm { a: mat_from_rows(&[vec![-1.0, 10.0], vec![0.0, -1.0]]), b: Vector::from_vec(vec![0.0, 1.0]), disc: Discretization::Zoh };
    let path = m.lrd_eq10_path(&[1.0, 1.0], 1, 1);
    assert!((path[0].norm() - 2.7170).abs() < 1e-4);
    assert!((path[1].norm() - 3.3057).abs() < 1e-4);
    assert!(path[1].norm() > (spectral_abscissa(&m.a) * 1.0).exp() * path[0].norm());
}

#[test]
fn hippo_legs_witness_of_corollary1() {
    // proofs/decay.md: LegS N = 4, Δ = 0.1: λ₁ = −1, μ₂ = −1/2 exactly, ‖e^{ΔA}‖₂ ≈ 0.9512,
    // max per-step ratio 0.95110 against e^{λ₁Δ} = 0.90484, 190 of the first 200 steps violate.
    let (a, b) = hippo_legs(4);
    assert!((spectral_abscissa(&a) + 1.0).abs() < 1e-9);
    assert!((log_norm2(&a) + 0.5).abs() < 1e-12);
    assert!((spectral_norm(&expm(&(&a * 0.1))) - 0.9512).abs() < 1e-4);
    let m = DenseSsm { a, b: Vector::from_vec(b), disc: Discretization::Zoh };
    let path = m.lrd_eq10_path(&[0.1; 201], 1, 200);
    let bound = (-0.1f64).exp();
    let ratios: Vec<f64> = path.windows(2).map(|p| p[1].norm() / p[0].norm()).collect();
    let max = ratios.iter().copied().fold(0.0, f64::max);
    assert!((max - 0.95110).abs() < 5e-5, "max ratio {max}");
    let violating = ratios.iter().filter(|&&r| r > bound * (1.0 + 1e-12)).count();
    assert!((185..=195).contains(&violating), "{violating} violating steps (reference: 190)");
}
