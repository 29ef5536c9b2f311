//! Statements about state-space models beyond ssmcheck's five papers — Mamba-2's state-space
//! duality, LRU, S4's DPLR and S4D, the (gated) delta rule — written as a user outside the suite
//! writes them: a crate that depends on `ssmcheck` with `default-features = false` and uses its
//! public API only (the models of `ssmcheck::model`, the strategies, `conjecture!`). They form
//! the family `field`; [`registry`] lists them for `ssmcheck::cli::main_with` (the binary, with
//! the `cli` feature) and its results render with `ssmcheck report --from`.

use ssmcheck::claim::Registry;
use ssmcheck::model::{DeltaNet, Dplr, Lru, S4Discretization, S4dInit, Ssd};
use ssmcheck::prelude::*;

/// The family of these statements.
pub const FIELD: Family = Family::new("field");

ssmcheck::conjecture! {
    /// Mamba-2's SSD (Dao & Gu 2024, §3): the semiseparable matrix M[t][s] = (C_t·B_s)·e^{a_{s+1}+…+a_t} times x is the recurrence's output, for T ≤ 10, N ≤ 3, P ≤ 2, a_t ∈ [−3, 0]. Enclosed: both forms on intervals hold the same exact value, so their enclosures meet entry by entry (each end of one at most the other end of the other).
    #[with(family = FIELD, control = ("the matrix's decay from s + 1 taken from s", gap(&Ssd::new(e(x), shifted(a, x.len()), e(&bc[..x.len()]), e(&bc[10..10 + x.len()])).by_matrix(), &head(x, a, bc).scan())))]
    fn ssd_matrix_is_the_scan(x in strategy::matrix_of(1..=10, 1..=2, strategy::real(-1.0, 1.0)), bc in strategy::matrix_of(20..=20, 1..=3, strategy::real(-1.0, 1.0)), a in strategy::vec_of(10..=10, strategy::real(-3.0, 0.0))) {
        let h = head(x, a, bc);
        gap(&h.by_matrix(), &h.scan())
    }
}

ssmcheck::conjecture! {
    /// Mamba-2's decay mask is a contraction of the attention scores (Dao & Gu 2024, §3): |M[t][s]| ≤ |C_t·B_s| for a_t ≤ 0. Enclosed.
    #[with(family = FIELD, control = ("the bound halved", mask_within(bc, a, 0.5)))]
    fn ssd_decay_mask_contracts(bc in strategy::matrix_of(20..=20, 1..=3, strategy::real(-1.0, 1.0)), a in strategy::vec_of(10..=10, strategy::real(-3.0, 0.0))) {
        mask_within(bc, a, 1.0)
    }
}

ssmcheck::conjecture! {
    /// LRU's ring initialisation (Orvieto et al. 2023, §3.2): λ from uniforms u₁, u₂ has r_min ≤ |λ| ≤ r_max and arg λ = max_phase·u₂, for 0 < r_min ≤ r_max < 1. Enclosed: |λ| recomputed on intervals from the drawn ν, θ.
    #[with(family = FIELD, control = ("the upper radius checked at r_min + w/2", on_ring(*u1, *u2, *r, *w, 0.5)))]
    fn lru_ring_initialisation_lies_on_the_ring(u1 in strategy::real(0.0, 1.0), u2 in strategy::real(1e-3, 1.0), r in strategy::real(0.05, 0.95), w in strategy::real(0.0, 0.04)) {
        on_ring(*u1, *u2, *r, *w, 1.0)
    }
}

ssmcheck::conjecture! {
    /// S4's bilinear transform is a contraction for a DPLR matrix with Re Λ = −½ (Gu, Goel & Ré 2022): A + A* = −I − 2PP* ≼ 0, so ‖Ā x‖ ≤ ‖x‖ for Ā = (I − ΔA/2)⁻¹(I + ΔA/2), rank-1 P, N = 4, Δ ∈ [10⁻³, 10]. Tolerance: the solve's rounding, 64·n·κ·u with κ ≤ 1 + 10Δ‖P‖².
    #[with(family = FIELD, control = ("Re Λ raised to +½", contraction(p, x, *delta, 0.5)))]
    fn s4_bilinear_dplr_contracts(p in strategy::grid_vec(8, -1.0, 1.0, 0.125), x in strategy::grid_vec(8, -1.0, 1.0, 0.125), delta in strategy::log_uniform(1e-3, 10.0)) {
        contraction(p, x, *delta, -0.5)
    }
}

ssmcheck::conjecture! {
    /// The delta rule writes exactly (Schlag et al. 2021; Yang et al. 2024): with β_t = α_t = 1 and unit keys, S_t k_t = v_t for every t ≤ 8 (d_k = 4, d_v = 3). Tolerance: a d_k-term dot product after t rank-one updates, 8·(d_k + 2t)·u·‖v‖.
    #[with(family = FIELD, control = ("a partial write, β = 0.9", recalls(k, v, 0.9)))]
    fn delta_rule_recalls_the_last_pair(k in strategy::vec_of(1..=8, strategy::unit_vector(4)), v in strategy::matrix_of(8..=8, 3..=3, strategy::real(-1.0, 1.0))) {
        recalls(k, v, 1.0)
    }
}

ssmcheck::conjecture! {
    /// False: with β = α = 1 and unit keys the delta rule keeps every pair it wrote, ‖S_T k_s − v_s‖ ≤ ½ for all s ≤ T ≤ 8 (a later key that overlaps k_s overwrites part of v_s; only orthogonal keys keep it).
    #[with(family = FIELD, expect = VerdictKind::Refuted)]
    fn delta_rule_keeps_every_pair(k in strategy::vec_of(1..=8, strategy::unit_vector(4)), v in strategy::matrix_of(8..=8, 3..=3, strategy::real(-1.0, 1.0))) {
        let t = k.len();
        let s = DeltaNet::new(k.clone(), v[..t].to_vec(), k.clone(), vec![1.0; t], vec![1.0; t]).states().pop().expect("T ≥ 1");
        (0..t).map(|i| {
            let err = (0..3).map(|j| (s[j].iter().zip(&k[i]).map(|(a, b)| a * b).sum::<f64>() - v[i][j]).powi(2)).sum::<f64>().sqrt();
            Eval::le(err, 0.5, Tolerance::NONE)
        }).fold(Eval::Margin(1.0), Eval::min)
    }
}

/// The six statements, for `ssmcheck::cli::main_with` or `ssmcheck::claim::check`.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    for claim in [
        ssd_matrix_is_the_scan().expect(VerdictKind::Holds),
        ssd_decay_mask_contracts().expect(VerdictKind::Holds),
        lru_ring_initialisation_lies_on_the_ring().expect(VerdictKind::Holds),
        s4_bilinear_dplr_contracts().expect(VerdictKind::Holds),
        delta_rule_recalls_the_last_pair().expect(VerdictKind::Holds),
        delta_rule_keeps_every_pair(),
    ] {
        r.add(claim);
    }
    r
}

/// r_min ≤ |λ| ≤ r_min + fraction·w for LRU's ring initialisation from u₁, u₂ with r_max =
/// r_min + w, |λ| on intervals from the drawn ν, θ (fraction 1: the statement).
fn on_ring(u1: f64, u2: f64, r: f64, w: f64, fraction: f64) -> Eval {
    let (nu, theta) = Lru::ring(&[u1], &[u2], r, r + w, std::f64::consts::PI);
    let lambda = Lru::siso(vec![Interval::exact(nu[0])], vec![Interval::exact(theta[0])]).lambda()[0].abs();
    // ν and θ are rounded once each (relative 2⁻⁵²): |λ| = e^{−e^ν} moves by e^ν·2⁻⁵² relative.
    let slack = Interval::exact(1.0 + 4.0 * f64::EPSILON);
    Eval::le(Interval::exact(r), lambda * slack, Tolerance::NONE).min(Eval::le(lambda, Interval::exact(r + fraction * w) * slack, Tolerance::NONE))
}

/// S_t k_t = v_t for every t of the delta rule with α = 1 and write strength β (β = 1: the
/// statement), within 8·(d_k + 2t)·u.
fn recalls(k: &[Vec<f64>], v: &[Vec<f64>], beta: f64) -> Eval {
    let t = k.len();
    let s = DeltaNet::new(k.to_vec(), v[..t].to_vec(), k.to_vec(), vec![beta; t], vec![1.0; t]).states();
    (0..t)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .map(|(i, j)| {
            let recalled: f64 = s[i][j].iter().zip(&k[i]).map(|(a, b)| a * b).sum();
            Eval::close((recalled - v[i][j]).abs(), Scale(1.0), Tolerance::absolute(8.0 * (4 + 2 * t) as f64 * Rounding::UNIT))
        })
        .fold(Eval::Margin(1.0), Eval::min)
}

/// |M[t][s]| ≤ factor·|C_t·B_s| for every s ≤ t of the SSD head with B = rows 0–9 of `bc`, C =
/// rows 10–19, log-decays `a`, on enclosures.
fn mask_within(bc: &[Vec<f64>], a: &[f64], factor: f64) -> Eval {
    let h = Ssd::new(vec![vec![Interval::exact(1.0)]; 10], a.iter().map(|&v| Interval::exact(v)).collect(), e(&bc[..10]), e(&bc[10..]));
    let m = h.matrix();
    (0..10)
        .flat_map(|t| (0..=t).map(move |s| (t, s)))
        .map(|(t, s)| {
            let cb = h.c[t].iter().zip(&h.b[s]).fold(Interval::exact(0.0), |acc, (&c, &b)| acc + c * b);
            Eval::le(m[t][s].abs(), cb.abs() * factor, Tolerance::NONE)
        })
        .fold(Eval::Margin(1.0), Eval::min)
}

/// A matrix of doubles as exact intervals.
fn e(m: &[impl AsRef<[f64]>]) -> Vec<Vec<Interval>> {
    m.iter().map(|r| r.as_ref().iter().map(|&x| Interval::exact(x)).collect()).collect()
}

/// The SSD head on intervals: x (T × P), a_t, B = the first T rows of `bc`, C = rows 10 … 10 + T.
fn head(x: &[Vec<f64>], a: &[f64], bc: &[Vec<f64>]) -> Ssd<Interval> {
    let t = x.len();
    Ssd::new(e(x), a[..t].iter().map(|&v| Interval::exact(v)).collect(), e(&bc[..t]), e(&bc[10..10 + t]))
}

/// The log-decays shifted one step earlier (the control's off-by-one), as intervals.
fn shifted(a: &[f64], t: usize) -> Vec<Interval> {
    (0..t).map(|i| Interval::exact(a[(i + 1) % t])).collect()
}

/// Two enclosures of the same outputs meet: `lo(u) ≤ hi(v)` and `lo(v) ≤ hi(u)` for every entry.
fn gap(u: &[Vec<Interval>], v: &[Vec<Interval>]) -> Eval {
    u.iter()
        .flatten()
        .zip(v.iter().flatten())
        .map(|(a, b)| Eval::le(a.lo, b.hi, Tolerance::NONE).min(Eval::le(b.lo, a.hi, Tolerance::NONE)))
        .fold(Eval::Margin(1.0), Eval::min)
}

/// ‖Āx‖ ≤ ‖x‖ for the bilinear Ā of Λ − PP*, Λ_n = re + iπn, P and x complex (re, im pairs).
fn contraction(p: &[f64], x: &[f64], delta: f64, re: f64) -> Eval {
    use ssmcheck::math::Complex;
    let c = |v: &[f64]| v.chunks(2).map(|z| Complex::new(z[0], z[1])).collect::<Vec<_>>();
    let lambda = (0..4).map(|n| Complex::new(re, std::f64::consts::PI * n as f64)).collect();
    let s = Dplr { lambda, p: c(p).into_iter().map(|z| vec![z]).collect(), ..Dplr::<f64>::s4d(S4dInit::Lin, 8) };
    let d = s.discretize(delta, S4Discretization::Bilinear).expect("I − ΔA/2 is invertible when Re Λ ≤ 0");
    let xs = c(x);
    let ax: f64 = d.abar.iter().map(|row| row.iter().zip(&xs).fold(Complex::zero(), |acc, (&a, &z)| acc + a * z).norm_sqr()).sum::<f64>().sqrt();
    let norm = xs.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
    let kappa = 1.0 + 10.0 * delta * p.iter().map(|v| v * v).sum::<f64>();
    Eval::le(ax, norm, Tolerance::relative(64.0 * 4.0 * kappa * Rounding::UNIT))
}
