//! Suite-added (001 is silent): stability of B'MOJO-F's input-varying companion recursion
//! `s_{t+1} = Σ_{i=1}^{N} a_i(u_t) s_{t−N+i}` (zero input after the start).
//!
//! * `001.stability.switching` (Theorem, derived): frozen stability is not enough — two
//!   companions of spectral radius < 0.9, alternated, grow (their product's radius exceeds 1).
//! * `001.stability` (Theorem): `Σ_i |a_i(u)| ≤ γ < 1` for every u gives
//!   `|s_t| ≤ γ^{⌊t/N⌋}·max_{j<N}|s_j|`.

use crate::claim::{property, Claim, Eval, Figure, Origin, Paper, Rounding, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::math::linalg::{spectral_radius, Mat};
use crate::strategy::{grid, grid_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A switched companion recursion: the last rows `a(u)` for each input symbol, the symbol
/// sequence and the start `s_0..s_{N−1}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Switched {
    /// `[a_1, …, a_N]` per symbol (a_1 multiplies the oldest entry).
    pub rows: Vec<Vec<f64>>,
    /// The symbol of each step.
    pub symbols: Vec<usize>,
    /// s_0 … s_{N−1}.
    pub start: Vec<f64>,
}

impl Switched {
    /// The companion matrix of symbol `k` (ones on the super-diagonal, last row `rows[k]`).
    pub fn matrix(&self, k: usize) -> Mat {
        let n = self.start.len();
        Mat::from_fn(n, n, |r, c| if r + 1 == n { self.rows[k][c] } else { f64::from(u8::from(c == r + 1)) })
    }
    /// The largest spectral radius of the frozen matrices.
    #[cfg(test)]
    pub fn frozen_radius(&self) -> f64 {
        (0..self.rows.len()).map(|k| spectral_radius(&self.matrix(k))).fold(0.0, f64::max)
    }
    /// `s_0, s_1, …, s_{N−1+T}`.
    pub fn run(&self) -> Vec<f64> {
        let n = self.start.len();
        let mut s = self.start.clone();
        for &k in &self.symbols {
            let next = self.rows[k].iter().zip(&s[s.len() - n..]).fold(0.0, |acc, (a, x)| acc + a * x);
            s.push(next);
        }
        s
    }
}

/// The two order-2 companions of `001.stability.switching`, perturbed: last rows
/// (−15/32, 3/32) and (−25/32, −11/8) with each coefficient moved by δ ∈ [−1/256, 1/256] on a
/// 1/2048 grid, times `scale` (1 for the claim).
fn switching_pairs(scale: f64) -> impl Strategy<Value = Switched> + Clone {
    prop::collection::vec(grid(-1.0 / 256.0, 1.0 / 256.0, 1.0 / 2048.0), 4).prop_map(move |d| alternating(&[[d[0], d[1]], [d[2], d[3]]], scale))
}

/// The last rows of `001.stability.switching`'s two companions at δ = 0.
const SWITCHING_ROWS: [[f64; 2]; 2] = [[-15.0 / 32.0, 3.0 / 32.0], [-25.0 / 32.0, -11.0 / 8.0]];

/// [`SWITCHING_ROWS`] moved by `delta` and scaled by `scale`, alternated for 400 steps from (1, 1).
fn alternating(delta: &[[f64; 2]; 2], scale: f64) -> Switched {
    let rows = SWITCHING_ROWS.iter().zip(delta).map(|(r, d)| r.iter().zip(d).map(|(a, e)| (a + e) * scale).collect()).collect();
    Switched { rows, symbols: (0..400).map(|t| t % 2).collect(), start: vec![1.0, 1.0] }
}

/// Both frozen radii below 0.9 and the two-step product's above 1: the margin is the least of
/// 0.9 − ρ(A₁), 0.9 − ρ(A₂) and ρ(A₂A₁) − 1. Each radius of a 2 × 2 matrix with entries below 3
/// is computed to within γ₃₂·6 (the product's entries carry γ₂ each; the eigen-solver is
/// backward stable), far below the margins the instances have (≥ 6·10⁻³).
fn switching_margin(s: &Switched) -> Eval {
    let tol = Rounding::gamma(32) * 6.0;
    let product = s.matrix(1) * s.matrix(0);
    let frozen =
        (0..2).map(|k| Eval::le_by(spectral_radius(&s.matrix(k)), 0.9, Scale(0.9), Tolerance::absolute(tol))).fold(Eval::Margin(f64::INFINITY), Eval::min);
    frozen.min(Eval::ge_by(spectral_radius(&product), 1.0, Scale(1.0), Tolerance::absolute(tol)))
}

/// Rows with Σ|a_i| ≤ γ (γ on a 1/64 grid in [1/64, 63/64]), one draw in four a single extreme
/// coefficient ±γ on the oldest entry; random symbols, T ≤ 200, start on a 1/8 grid.
fn contracting() -> impl Strategy<Value = (Switched, f64)> + Clone {
    (1usize..=4, 1usize..=3, 1usize..=200, grid(1.0 / 64.0, 63.0 / 64.0, 1.0 / 64.0))
        .prop_flat_map(|(n, k, t, gamma)| {
            let row = prop_oneof![3 => grid_vec(n, -1.0, 1.0, 1.0 / 64.0), 1 => any::<bool>().prop_map(move |neg| { let mut r = vec![0.0; n]; r[0] = if neg { -1.0 } else { 1.0 }; r })];
            (prop::collection::vec(row, k), prop::collection::vec(0..k, t), prop_oneof![grid_vec(n, -1.0, 1.0, 0.125), Just(vec![1.0; n])], Just(gamma))
        })
        .prop_map(|(rows, symbols, start, gamma)| {
            // Scale each row to Σ|a_i| = γ exactly where possible (γ/Σ|a| is applied, then the sum is at most γ up to one rounding).
            let rows = rows.into_iter().map(|r| {
                let l1: f64 = r.iter().map(|a| a.abs()).sum();
                if l1 == 0.0 { r } else { r.into_iter().map(|a| a * gamma / l1).collect() }
            }).collect();
            (Switched { rows, symbols, start }, gamma)
        })
}

/// `|s_t| ≤ γ^{⌊t/N⌋ + extra}·max|s_{0..N−1}|` for every t, plus the rounding: each step is a
/// dot product of N terms (γ_N) of entries already within their own bound, so
/// γ_{(N+1)(t+1)} of γ^{⌊t/N⌋}·max|s_j| (and γ_{N+1} of the coefficients' scaling).
fn contraction(c: &(Switched, f64), extra: i32) -> Eval {
    let (s, gamma) = c;
    let n = s.start.len();
    let m = s.start.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let traj = s.run();
    let mut worst = Eval::Margin(f64::INFINITY);
    for (t, v) in traj.iter().enumerate() {
        let bound = gamma.powi((t / n) as i32 + extra) * m;
        let tol = Rounding::gamma((n + 1) * (t + 2)) * gamma.powi((t / n) as i32) * m;
        worst = worst.min(Eval::le_by(v.abs(), bound, Scale(bound.max(f64::MIN_POSITIVE) + tol), Tolerance::absolute(tol)));
    }
    worst
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.stability.switching` (theorem, derived): frozen stability does not make the switched
/// companion recursion stable.
fn claim_stability_switching() -> Claim {
    Claim::theorem(
        "001.stability.switching",
        super::FAMILY,
        "Frozen stability does not make B'MOJO-F's input-varying companion recursion stable: the order-2 companions A₁, A₂ with last rows \
         (−15/32 + δ₁, 3/32 + δ₂) and (−25/32 + δ₃, −11/8 + δ₄), every |δ_i| ≤ 1/256 (1/2048 grid), have frozen spectral radii < 0.9 \
         (0.685 and 0.884 at δ = 0) while their two-step product A₂A₁ has spectral radius > 1 (1.0198 at δ = 0), so alternating them \
         grows geometrically from almost every start; within γ₃₂·6 of each radius.",
        property(CASES, switching_pairs(1.0), switching_margin)
            .sides("0.9 − frozen radius, or ρ(A₂A₁) − 1 (the least)", "0")
            .illustrate(|_| vec![growth_figure()]),
    )
    .source(
        Origin::Derived(Paper::Bmojo),
        "proofs/realization.md, switched companions (the paper leaves the input-dependent last row unconstrained, Sec. 3.1)",
        "—",
    )
    .correction("Why an input-uniform condition is needed: stability of every frozen A(u) is not enough; Σ_i |a_i(u)| ≤ γ < 1 for every u is (001.stability).")
    .control("both companions scaled by 31/32 (the product's radius drops below 1)", property(CASES, switching_pairs(31.0 / 32.0), switching_margin))
}

/// |s_t| over 400 alternating steps of the unperturbed pair (δ = 0), on a log axis.
fn growth_figure() -> Figure {
    let pts: Vec<[f64; 2]> =
        alternating(&[[0.0; 2]; 2], 1.0).run().iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(t, v)| [t as f64, v.abs().log10()]).collect();
    Figure::new("switching_growth", "Alternating two stable companions (frozen radii < 0.9) from s = (1, 1)", "t", "log10 |s_t|")
        .with(Series::new("|s_t|", Style::Line, pts).color(0))
        .caption("The two-step product's spectral radius, not the frozen ones, sets the rate: |s_{2T}| grows like ρ(A₂A₁)^T.")
}

/// `001.stability` (theorem): Sec. 3.1 (suite-added sufficient condition).
fn claim_stability() -> Claim {
    Claim::theorem(
        "001.stability",
        super::FAMILY,
        "If Σ_i |a_i(u)| ≤ γ < 1 for every input symbol, the companion recursion contracts: |s_t| ≤ γ^{⌊t/N⌋}·max_{j<N}|s_j| for all t (N ≤ 4, up \
             to 3 symbols switching at random, T ≤ 200), plus γ_{(N+1)(t+2)} of the bound.",
        property(CASES, contracting(), |c: &(Switched, f64)| contraction(c, 0)).sides("|s_t|", "γ^{⌊t/N⌋}·max_{j<N}|s_j|"),
    )
    .source(Paper::Bmojo, "Sec. 3.1 (suite-added sufficient condition)", "A_B'MOJO(u_t) = [0 I …; …; a_1(u_t) a_2(u_t) … a_N(u_t)]")
    .control("the exponent ⌊t/N⌋ + 1", property(CASES, contracting(), |c: &(Switched, f64)| contraction(c, 1)))
}

/// Registers the stability claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_stability_switching());
    r.add(claim_stability());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternating_stable_companions_can_grow() {
        // Rows (a_1, a_2) = (−0.8, 1.2) and (−0.8, −1.2): each frozen companion has |λ|² = 0.8
        // (radius 0.894 < 0.9); their product [[−0.8, −1.2], [−0.96, −2.24]] has trace −3.04 and
        // determinant 0.64, an eigenvalue of modulus 2.81, so 200 alternating steps grow like 2.81¹⁰⁰.
        let s = Switched { rows: vec![vec![-0.8, 1.2], vec![-0.8, -1.2]], symbols: (0..200).map(|t| t % 2).collect(), start: vec![1.0, 1.0] };
        assert!(s.frozen_radius() < 0.9, "{}", s.frozen_radius());
        let run = s.run();
        assert!(run.last().unwrap().abs() > 1e40, "{}", run.last().unwrap());
        // The sufficient condition Σ|a_i| ≤ γ < 1 fails here (2.0), as it must.
        assert!(s.rows.iter().all(|r| r.iter().map(|a| a.abs()).sum::<f64>() > 1.0));
    }
}
