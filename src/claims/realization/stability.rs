//! Suite-added (001 is silent): stability of B'MOJO-F's input-varying companion recursion
//! `s_{t+1} = Σ_{i=1}^{N} a_i(u_t) s_{t−N+i}` (zero input after the start).
//!
//! * `001.stability.printed` (Erratum, reading): "every frozen companion matrix is stable ⇒ the
//!   recursion is stable" is false — two companions of spectral radius < 0.9, alternated, grow.
//! * `001.stability` (Theorem): `Σ_i |a_i(u)| ≤ γ < 1` for every u gives
//!   `|s_t| ≤ γ^{⌊t/N⌋}·max_{j<N}|s_j|`.

use crate::claim::{property, Claim, ErrorKind, Eval, Rounding};
use crate::claims::PAPER_001;
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

/// Two symbols alternating for 200 steps, order 2 or 3, coefficients on a 1/64 grid in [−2, 2].
fn alternating() -> impl Strategy<Value = Switched> + Clone {
    (2usize..=3).prop_flat_map(|n| prop::collection::vec(grid_vec(n, -2.0, 2.0, 1.0 / 64.0), 2)).prop_map(|rows| {
        let n = rows[0].len();
        Switched { rows, symbols: (0..200).map(|t| t % 2).collect(), start: vec![1.0; n] }
    })
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
        worst = worst.min(Eval::le_by(v.abs(), bound, bound.max(f64::MIN_POSITIVE) + tol, tol));
    }
    worst
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.stability.printed` (erratum): Sec. 3.1 (the paper does not discuss stability).
fn claim_stability_printed() -> Claim {
    Claim::erratum(
            "001.stability.printed",
            super::FAMILY,
            "B'MOJO-F's input-varying companion recursion is stable when every frozen companion matrix is: two companions of order 2 or 3 (last rows on \
             a 1/64 grid in [−2, 2]) with spectral radius < 0.9 each, alternated for 200 steps from s = 1, do not grow: |s_{N−1+200}| ≤ 1.",
            property(CASES, alternating(), |s: &Switched| {
                let traj = s.run();
                let last = traj.last().map_or(0.0, |v| v.abs());
                let peak = traj.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                Eval::le_by(last, 1.0, last.max(1.0), Rounding::gamma(4 * 200) * peak)
            })
            .given("every frozen spectral radius < 0.9", |s| 0.9 - s.frozen_radius())
            .sides("|s_t| after 200 alternating steps", "1")
            .expand(|s| serde_json::json!({ "frozen_spectral_radii": (0..2).map(|k| spectral_radius(&s.matrix(k))).collect::<Vec<_>>(), "s_200": s.run().last() })),
        )
        .source(PAPER_001, "Sec. 3.1 (the paper does not discuss stability)", "A_B'MOJO(u_t) = [0 I …; …; a_1(u_t) a_2(u_t) … a_N(u_t)] … B'MOJO-F uses a fixed computational budget to capture long-range dependencies far beyond the span of Attention thanks to the last rows in the state transition matrix.")
        .correction("A sufficient condition that is input-uniform: Σ_i |a_i(u)| ≤ γ < 1 for every u (001.stability).")
        .error(
            ErrorKind::Reading,
            "The paper leaves the input-dependent last row a_i(u_t) unconstrained and says nothing about stability, only that 'B'MOJO-F uses a fixed computational budget to capture long-range dependencies far beyond the span of Attention thanks to the last rows in the state transition matrix'; the tempting reading 'each frozen A(u) is stable, so the system is' is false for input-varying systems: the product of two stable companion matrices can have spectral radius above 1, and alternating them makes the state grow geometrically. Reading checked: the input-uniform condition Σ_i |a_i(u)| ≤ γ < 1 does give a contraction (001.stability).",
        )
        .holds_instead(&["001.stability"])
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
    .source(PAPER_001, "Sec. 3.1 (suite-added sufficient condition)", "A_B'MOJO(u_t) = [0 I …; …; a_1(u_t) a_2(u_t) … a_N(u_t)]")
    .control("the exponent ⌊t/N⌋ + 1", property(CASES, contracting(), |c: &(Switched, f64)| contraction(c, 1)))
}

/// Registers the stability claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_stability_printed());
    r.add(claim_stability());
}
