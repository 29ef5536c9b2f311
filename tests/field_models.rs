//! Statements about the field's models beyond the five papers (LRU, Mamba-2's SSD, S4's DPLR
//! and S4D, the delta rule), as a user writes them: through the public API, each at most 15
//! lines. The README's "Statements about the field's models" shows them.

use ssmcheck::model::{DeltaNet, Dplr, Lru, S4Discretization, S4dInit, Ssd};
use ssmcheck::prelude::*;

ssmcheck::conjecture! {
    /// LRU's normalisation (Orvieto et al. 2023, §3.3): with γ = √(1 − |λ|²), a unit impulse puts energy Σ_{t≤T} |h_t|² = 1 − |λ|^{2T} ≤ 1 into a mode, for |λ| = exp(−e^ν), ν ∈ [−7, 2], any phase e^θ, T ≤ 64. Enclosed: no tolerance (where |λ|^{2T} is below the rounding of 1 the sides tie).
    #[with(control = ("without γ", {
        let l = Lru { gamma_log: vec![Interval::exact(0.0)], ..Lru::siso(vec![Interval::exact(*nu)], vec![Interval::exact(*theta)]) };
        let impulse: Vec<Vec<Interval>> = (0..*t).map(|k| vec![Interval::exact(f64::from(k == 0))]).collect();
        Eval::le(l.states(&impulse).iter().fold(Interval::exact(0.0), |s, h| s + h[0].norm_sqr()), Interval::exact(1.0), Tolerance::NONE)
    }))]
    fn lru_impulse_energy_is_at_most_one(nu in strategy::real(-7.0, 2.0), theta in strategy::real(-5.0, 1.1), t in 1usize..=64) {
        let l = Lru::siso(vec![Interval::exact(*nu)], vec![Interval::exact(*theta)]);
        let impulse: Vec<Vec<Interval>> = (0..*t).map(|k| vec![Interval::exact(f64::from(k == 0))]).collect();
        Eval::le(l.states(&impulse).iter().fold(Interval::exact(0.0), |s, h| s + h[0].norm_sqr()), Interval::exact(1.0), Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// Mamba-2's chunked SSD algorithm (Dao & Gu 2024, §6) computes the recurrence: for T ≤ 12 steps, N ≤ 4, P ≤ 3, log-decays in [−2, 0], |x|, |B|, |C| ≤ 1 and any chunk size Q ≤ 13, the outputs agree to rounding. Tolerance: each output is a sum of terms C_ti·B_si·x_s·e^{Σa}, whose decays carry a relative error up to 2T·u·T (T factors, |Σa| ≤ 2T) and sums (N + P + T) ulps, so 4T² + 4(N + P) ulps of the same head's output on |x|, |B|, |C| (the sum of the terms' sizes, which no cancellation shrinks).
    #[with(control = ("the chunked form without decays", chunked_against_scan(x, &[0.0; 12], a, bc, *q)))]
    fn ssd_chunked_equals_the_scan(x in strategy::matrix_of(1..=12, 1..=3, strategy::real(-1.0, 1.0)), bc in strategy::matrix_of(24..=24, 1..=4, strategy::real(-1.0, 1.0)), a in strategy::vec_of(12..=12, strategy::real(-2.0, 0.0)), q in 1usize..=13) {
        chunked_against_scan(x, a, a, bc, *q)
    }
}

ssmcheck::conjecture! {
    /// S4's bilinear transform keeps S4D-Inv stable (Gu et al. 2022): for N ≤ 16 and Δ ∈ [10⁻³, 10], every |Ā_n| = |1 + Δλ_n/2| / |1 − Δλ_n/2| < 1 (Re λ_n = −½). Enclosed: certified either way.
    #[with(control = ("the bound 1 lowered to 0.99", s4d_inv_moduli_below(*half_n, *delta, 0.99)))]
    fn s4d_inv_bilinear_is_stable(half_n in 1usize..=8, delta in strategy::log_uniform(1e-3, 10.0)) {
        s4d_inv_moduli_below(*half_n, *delta, 1.0)
    }
}

ssmcheck::conjecture! {
    /// False: S4D-Lin's bilinear Ā contracts at least as much as ZOH's, |1 + Δλ/2|/|1 − Δλ/2| ≤ e^{Δ Re λ}, for every mode λ_n = −½ + iπn, n < 4, Δ ∈ [10⁻³, 1] (true at n = 0; at high frequency the bilinear modulus tends to 1). Enclosed: the refutation is certified.
    #[with(expect = VerdictKind::Refuted)]
    fn s4d_lin_bilinear_contracts_like_zoh(n in 0usize..4, delta in strategy::log_uniform(1e-3, 1.0)) {
        let s = Dplr::<Interval>::s4d(S4dInit::Lin, 8);
        let [bil, zoh] = [S4Discretization::Bilinear, S4Discretization::Zoh].map(|r| s.discretize(Interval::exact(*delta), r).expect("stable modes"));
        Eval::le(bil.abar[*n][*n].abs(), zoh.abar[*n][*n].abs(), Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// The delta rule's state stays bounded by what was written (Yang et al. 2024): with unit keys, β_t ∈ [0, 1] and gates α_t ∈ [0, 1], ‖S_T‖_F ≤ Σ_t β_t‖v_t‖ (each step multiplies by α(I − βkkᵀ), of norm ≤ 1). Tolerance: the Frobenius norms' rounding, (d_k + 2T)·u relative.
    #[with(control = ("the bound halved", Eval::le(frobenius(&net(k, v, b, g).states()[k.len() - 1]), 0.5 * written(k.len(), v, b), Tolerance::relative((4 + 2 * k.len()) as f64 * Rounding::UNIT))))]
    fn delta_rule_state_is_bounded(k in strategy::vec_of(1..=10, strategy::unit_vector(4)), v in strategy::matrix_of(10..=10, 3..=3, strategy::real(-1.0, 1.0)), b in strategy::vec_of(10..=10, strategy::edge_biased(0.0, 1.0)), g in strategy::vec_of(10..=10, strategy::edge_biased(0.0, 1.0))) {
        Eval::le(frobenius(&net(k, v, b, g).states()[k.len() - 1]), written(k.len(), v, b), Tolerance::relative((4 + 2 * k.len()) as f64 * Rounding::UNIT))
    }
}

/// `s4d_inv_bilinear_is_stable`: every bilinear |Ā_n| of S4D-Inv (N = 2·half_n) below `bound`, on enclosures.
fn s4d_inv_moduli_below(half_n: usize, delta: f64, bound: f64) -> Eval {
    let s = Dplr::<Interval>::s4d(S4dInit::Inv, 2 * half_n);
    let d = s.discretize(Interval::exact(delta), S4Discretization::Bilinear).expect("I − ΔA/2 is invertible for Re λ < 0");
    (0..half_n).map(|n| Eval::lt(d.abar[n][n].abs(), Interval::exact(bound), Scale(1.0), Tolerance::NONE)).fold(Eval::Margin(1.0), Eval::min)
}

/// `ssd_chunked_equals_the_scan`: the chunked outputs with log-decays `ac` against the scan's with
/// `a` (the first T rows of `bc` are B, rows 12 to 12 + T are C).
fn chunked_against_scan(x: &[Vec<f64>], ac: &[f64], a: &[f64], bc: &[Vec<f64>], q: usize) -> Eval {
    let t = x.len();
    let head = |x: &[Vec<f64>], a: &[f64], bc: &[Vec<f64>]| Ssd::new(x.to_vec(), a[..t].to_vec(), bc[..t].to_vec(), bc[12..12 + t].to_vec());
    let abs = |m: &[Vec<f64>]| m.iter().map(|r| r.iter().map(|v| v.abs()).collect()).collect::<Vec<Vec<f64>>>();
    let scale = head(&abs(x), a, &abs(bc)).scan().iter().flatten().fold(1e-300f64, |m, y| m.max(*y));
    let err = head(x, a, bc).scan().iter().flatten().zip(head(x, ac, bc).chunked(q).iter().flatten()).fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
    Eval::close(err, Scale(scale), Tolerance::relative((4 * t * t + 4 * (bc[0].len() + x[0].len())) as f64 * Rounding::UNIT))
}

/// The head of `delta_rule_state_is_bounded`: keys, values, queries (the keys), β and α cut to T.
fn net(k: &[Vec<f64>], v: &[Vec<f64>], b: &[f64], g: &[f64]) -> DeltaNet<f64> {
    let t = k.len();
    DeltaNet::new(k.to_vec(), v[..t].to_vec(), k.to_vec(), b[..t].to_vec(), g[..t].to_vec())
}

/// ‖S‖_F.
fn frobenius(s: &[Vec<f64>]) -> f64 {
    s.iter().flatten().map(|x| x * x).sum::<f64>().sqrt()
}

/// Σ_{t≤T} β_t‖v_t‖ over the T steps the head runs.
fn written(t: usize, v: &[Vec<f64>], b: &[f64]) -> f64 {
    v[..t].iter().zip(b).map(|(vt, bt)| bt * vt.iter().map(|x| x * x).sum::<f64>().sqrt()).sum()
}

fn main() -> std::process::ExitCode {
    ssmcheck::harness::main(vec![
        lru_impulse_energy_is_at_most_one().expect(VerdictKind::Holds),
        ssd_chunked_equals_the_scan().expect(VerdictKind::Holds),
        s4d_inv_bilinear_is_stable().expect(VerdictKind::Holds),
        s4d_lin_bilinear_contracts_like_zoh(),
        delta_rule_state_is_bounded().expect(VerdictKind::Holds),
    ])
}
