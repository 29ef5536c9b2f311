//! Instance generators: the proptest strategies every family draws from, public so that a
//! conjecture in a user's own `tests/` draws from the same domains.
//!
//! Scalars are drawn on dyadic grids of integers (`i·step`): integers shrink well in proptest
//! (its `f64` ranges do not shrink), and counterexamples come out as short exact numbers a
//! reader can type into another tool. [`log_uniform`] and [`edge_biased`] put mass where a
//! uniform grid puts almost none (small scales, the ends of a range); the property judge's
//! search adds boundary draws to any strategy on top of that.
//!
//! | what | generator |
//! |---|---|
//! | scalars | [`grid`], [`real`], [`log_uniform`], [`edge_biased`] |
//! | unions | [`one_of`] (a weighted union that the search can replay) |
//! | vectors, inputs | [`grid_vec`], [`inputs`] |
//! | matrices | [`grid_matrix`], [`stable_matrix`], [`normal_matrix`], [`symmetric_matrix`], [`hippo_legs`] |
//! | diagonal SSMs | [`real_diagonal`], [`complex_diagonal`], [`s6`], [`selective_deltas`] |
//! | the 004 interaction model | [`interaction_model`] |
//! | codes | [`rademacher`], [`one_hot`] |
//! | tasks | [`mqar`] |
//! | drawn sizes (shrinking the size first) | [`vec_of`], [`matrix_of`] |
//! | the field's models | [`standard_normal`], [`unit_vector`], [`positive_vec`], [`disc_eigenvalues`] |

mod field;
mod sized;

pub use field::{disc_eigenvalues, positive_vec, standard_normal, unit_vector};
pub use sized::{matrix_of, vec_of, MatrixOf, MatrixTree};

use crate::math::linalg::{mat_from_rows, mat_to_rows, spectral_abscissa, Mat};
use crate::model::{DeltaRule, DiagonalSsm, Discretization};
use crate::tasks::mqar::{MqarInstance, MqarSpec};
use proptest::collection::vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A value `i·step` with `lo ≤ i·step ≤ hi`, shrinking toward the grid point nearest zero.
pub fn grid(lo: f64, hi: f64, step: f64) -> impl Strategy<Value = f64> + Clone {
    let (a, b) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (a..=b).prop_map(move |i| i as f64 * step)
}

/// A vector of `n` grid values.
pub fn grid_vec(n: usize, lo: f64, hi: f64, step: f64) -> impl Strategy<Value = Vec<f64>> + Clone {
    vec(grid(lo, hi, step), n)
}

/// An `n×m` matrix of grid values, as rows.
pub fn grid_matrix(n: usize, m: usize, lo: f64, hi: f64, step: f64) -> impl Strategy<Value = Vec<Vec<f64>>> + Clone {
    vec(grid_vec(m, lo, hi, step), n)
}

/// A value in `[lo, hi]` on a dyadic grid of about 2²⁰ points (the step is a power of two), so
/// it is a short exact number and shrinks.
pub fn real(lo: f64, hi: f64) -> impl Strategy<Value = f64> + Clone {
    assert!(hi > lo, "real(lo, hi) needs lo < hi");
    let step = 2f64.powi((hi - lo).log2().floor() as i32 - 20);
    grid(lo, hi, step)
}

/// A positive value log-uniform in `[lo, hi]` (2¹⁶ points per range, `lo·(hi/lo)^{i/2¹⁶}`):
/// each decade is as likely as any other, so a parameter that matters only below 10⁻⁴ is drawn
/// as often as one above 0.1. Shrinks toward `lo`.
pub fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> + Clone {
    assert!(lo > 0.0 && hi > lo, "log_uniform(lo, hi) needs 0 < lo < hi");
    const K: i64 = 1 << 16;
    let ratio = (hi / lo).ln();
    (0..=K).prop_map(move |i| if i == K { hi } else { lo * (ratio * i as f64 / K as f64).exp() })
}

/// A value in `[lo, hi]` biased to its ends: half the draws on [`real`]'s grid, the rest
/// exactly at an end or at a log-uniform distance (down to `(hi − lo)·10⁻¹²`) from one.
/// A [`one_of`], so a vector of them can be searched and shrunk like any other strategy.
pub fn edge_biased(lo: f64, hi: f64) -> OneOf<f64> {
    let w = hi - lo;
    one_of(vec![
        (4, real(lo, hi).sboxed()),
        (1, Just(lo).sboxed()),
        (1, Just(hi).sboxed()),
        (1, log_uniform(w * 1e-12, w).prop_map(move |d| lo + d).sboxed()),
        (1, log_uniform(w * 1e-12, w).prop_map(move |d| hi - d).sboxed()),
    ])
}

/// A weighted union of strategies that reads one word to pick its arm and never forks
/// proptest's RNG (see [`one_of`]).
#[derive(Clone)]
pub struct OneOf<T> {
    arms: Vec<(u32, SBoxedStrategy<T>)>,
    total: u64,
}

impl<T> std::fmt::Debug for OneOf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OneOf").field("weights", &self.arms.iter().map(|a| a.0).collect::<Vec<_>>()).finish()
    }
}

/// A weighted union: arm `k` is drawn with probability `weight_k / Σ weights`, picked by one
/// 32-bit word (`⌊word·Σ/2³²⌋` against the cumulative weights, monotone in the word, so the
/// search moves between neighbouring arms by nudging it and reaches the first and last arms at
/// the word's ends).
///
/// Use it instead of `prop_oneof!` inside a vector or any strategy drawn many times: proptest's
/// union forks its RNG once for each arm before the one it picks (to build them lazily when
/// shrinking), and each fork halves the bytes a replay of the draw can read, so the targeted
/// search cannot replay a vector of twenty unions (it says so and stays off). `one_of` shrinks
/// within the arm it drew (`prop_oneof!` also tries the earlier arms).
///
/// # Panics
/// When `arms` is empty or every weight is 0.
pub fn one_of<T: Debug + 'static>(arms: Vec<(u32, SBoxedStrategy<T>)>) -> OneOf<T> {
    let total: u64 = arms.iter().map(|a| u64::from(a.0)).sum();
    assert!(total > 0, "one_of needs at least one arm of positive weight");
    OneOf { arms, total }
}

impl<T: Debug + 'static> Strategy for OneOf<T> {
    type Tree = Box<dyn proptest::strategy::ValueTree<Value = T>>;
    type Value = T;

    fn new_tree(&self, runner: &mut proptest::test_runner::TestRunner) -> proptest::strategy::NewTree<Self> {
        let word = u64::from(runner.rng().next_u32());
        let mut at = (word * self.total) >> 32;
        let arm = self
            .arms
            .iter()
            .find(|(w, _)| {
                let inside = at < u64::from(*w);
                at = at.saturating_sub(u64::from(*w));
                inside
            })
            .unwrap_or(&self.arms[self.arms.len() - 1]);
        arm.1.new_tree(runner)
    }
}

/// An input sequence of length `len` with entries on a 1/16 grid in `[−amplitude, amplitude]`.
pub fn inputs(len: usize, amplitude: f64) -> impl Strategy<Value = Vec<f64>> + Clone {
    grid_vec(len, -amplitude, amplitude, 0.0625)
}

/// A stable (Hurwitz) `n×n` matrix: a grid matrix `M` (entries on a 1/4 grid in `[−3, 3]`)
/// shifted to `M − (α(M) + s)·I` with `s` on a 1/16 grid in `[1/16, 2]`, so its spectral
/// abscissa is `−s` (to the eigen-solver's rounding) — stable without rejection, as near to
/// the boundary as `s` allows, and non-normal in general.
pub fn stable_matrix(n: usize) -> impl Strategy<Value = Vec<Vec<f64>>> + Clone {
    (grid_matrix(n, n, -3.0, 3.0, 0.25), grid(0.0625, 2.0, 0.0625)).prop_map(|(m, s)| {
        let mut a = mat_from_rows(&m);
        let shift = spectral_abscissa(&a) + s;
        for i in 0..a.nrows() {
            a[(i, i)] -= shift;
        }
        mat_to_rows(&a)
    })
}

/// A normal matrix with its exact spectral abscissa.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NormalMatrix {
    /// The matrix, as rows.
    pub a: Vec<Vec<f64>>,
    /// λ₁ = max Re λ(A), exact from the block-diagonal construction (not from an eigen-solver).
    pub lambda1: f64,
}

/// A stable normal `n×n` matrix `Q·blockdiag(real −λ or 2×2 [[α, −β], [β, α]])·Qᵀ`: real parts on
/// a 1/16 grid in `[−2, −1/16]`, imaginary parts on a 1/4 grid in `[−2, 2]`, `Q` orthogonal
/// from the QR of a grid matrix (+3I), with its exact spectral abscissa.
pub fn normal_matrix(n: usize) -> impl Strategy<Value = NormalMatrix> + Clone {
    (grid_matrix(n, n, -2.0, 2.0, 0.25), grid_vec(n, -2.0, -0.0625, 0.0625), grid_vec(n, -2.0, 2.0, 0.25), any::<bool>()).prop_map(|(q, re, im, complex)| {
        let h = re.len();
        let mut d = Mat::zeros(h, h);
        let mut k = 0;
        while k < h {
            d[(k, k)] = re[k];
            if complex && k + 1 < h {
                d[(k + 1, k + 1)] = re[k];
                d[(k, k + 1)] = -im[k];
                d[(k + 1, k)] = im[k];
                k += 2;
            } else {
                k += 1;
            }
        }
        let lambda1 = (0..h).map(|i| d[(i, i)]).fold(f64::NEG_INFINITY, f64::max);
        let qq = (mat_from_rows(&q) + Mat::identity(h, h) * 3.0).qr().q();
        NormalMatrix { a: mat_to_rows(&(&qq * d * qq.transpose())), lambda1 }
    })
}

/// A symmetric `n×n` matrix with entries on a 1/8 grid in `[lo, hi]`.
pub fn symmetric_matrix(n: usize, lo: f64, hi: f64) -> impl Strategy<Value = Vec<Vec<f64>>> + Clone {
    grid_matrix(n, n, lo, hi, 0.125).prop_map(|m| {
        let n = m.len();
        (0..n).map(|i| (0..n).map(|j| if j >= i { m[i][j] } else { m[j][i] }).collect()).collect()
    })
}

/// The HiPPO-LegS matrix of order `n` and its `B`: `A_{ij} = −√(2i+1)√(2j+1)` below the
/// diagonal, `−(i+1)` on it, 0 above; `B_i = √(2i+1)` (Gu et al., 2020).
pub fn hippo_legs(n: usize) -> (Mat, Vec<f64>) {
    let a = Mat::from_fn(n, n, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Greater => -((2 * i + 1) as f64).sqrt() * ((2 * j + 1) as f64).sqrt(),
        std::cmp::Ordering::Equal => -((i + 1) as f64),
        std::cmp::Ordering::Less => 0.0,
    });
    (a, (0..n).map(|i| ((2 * i + 1) as f64).sqrt()).collect())
}

/// `n` real diagonal entries of a stable S4D/S6 `A`, log-uniform in `[−4, −10⁻³]` (the slow
/// modes that carry long memory are drawn as often as fast ones).
pub fn real_diagonal(n: usize) -> impl Strategy<Value = Vec<f64>> + Clone {
    vec(log_uniform(1e-3, 4.0).prop_map(|x| -x), n)
}

/// `n` complex diagonal entries `(re, im)` of a stable S4D `A`: `re` as in [`real_diagonal`],
/// `im` on a 1/4 grid in `[−8, 8]` (S4D-Lin uses `im = πk`).
pub fn complex_diagonal(n: usize) -> impl Strategy<Value = Vec<(f64, f64)>> + Clone {
    vec((log_uniform(1e-3, 4.0).prop_map(|x| -x), grid(-8.0, 8.0, 0.25)), n)
}

/// An S6 layer with `n` real modes ([`real_diagonal`]), `B = b_bias + b_weight·x` with both on a
/// 1/8 grid in `[−2, 2]`, `Δ = softplus(w·x + b)` with `w ∈ [−2, 2]`, `b ∈ [−4, 2]`, and ZOH —
/// the ranges of Mamba's initialisation (Gu and Dao, 2023: `Δ` from 10⁻³ to 10⁻¹ at init).
pub fn s6(n: usize) -> impl Strategy<Value = DiagonalSsm> + Clone {
    (real_diagonal(n), grid_vec(n, -2.0, 2.0, 0.125), grid_vec(n, -2.0, 2.0, 0.125), grid(-2.0, 2.0, 0.125), grid(-4.0, 2.0, 0.125))
        .prop_map(|(a, b_bias, b_weight, w, b)| DiagonalSsm { a, b_bias, b_weight, delta: DeltaRule::Selective { w, b }, disc: Discretization::Zoh })
}

/// A sequence of `len` step sizes `Δ_t`, log-uniform in `[10⁻³, 10]`.
pub fn selective_deltas(len: usize) -> impl Strategy<Value = Vec<f64>> + Clone {
    vec(log_uniform(1e-3, 10.0), len)
}

/// The 004 interaction model `h_t = (Ā + G Wᵀ x_t) h_{t−1} + B̄ x_t` in continuous form:
/// `A` from [`stable_matrix`], `B`, `G`, `W` on 1/8 grids, `Δ ∈ [1/16, 1]`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InteractionParams {
    /// Continuous `A` (stable), rows.
    pub a: Vec<Vec<f64>>,
    /// `B`.
    pub b: Vec<f64>,
    /// The step size Δ.
    pub delta: f64,
    /// `G`.
    pub g: Vec<f64>,
    /// `W`.
    pub w: Vec<f64>,
}

impl InteractionParams {
    /// The discretised model (ZOH `Ā`, `B̄`).
    pub fn model(&self) -> crate::model::InteractionSsm {
        use crate::math::linalg::Vector;
        crate::model::InteractionSsm::from_continuous(
            &mat_from_rows(&self.a),
            &Vector::from_vec(self.b.clone()),
            self.delta,
            Vector::from_vec(self.g.clone()),
            Vector::from_vec(self.w.clone()),
        )
    }
}

/// An interaction model of state size `h` ([`InteractionParams`]).
pub fn interaction_model(h: usize) -> impl Strategy<Value = InteractionParams> + Clone {
    (stable_matrix(h), grid_vec(h, -2.0, 2.0, 0.125), grid(0.0625, 1.0, 0.0625), grid_vec(h, -1.0, 1.0, 0.125), grid_vec(h, -1.0, 1.0, 0.125))
        .prop_map(|(a, b, delta, g, w)| InteractionParams { a, b, delta, g, w })
}

/// `count` Rademacher codes of width `p`: entries `±1/√p`, so each code has unit norm. As
/// numbers; [`rademacher_signs`] draws the same codes (same choices, same shrinking) as they are
/// built, so a counterexample prints their signs.
pub fn rademacher(count: usize, p: usize) -> impl Strategy<Value = Vec<Vec<f64>>> + Clone {
    rademacher_signs(count, p).prop_map(|c| c.entries())
}

/// Sign codes as they are built: `signs[i]` is code i as a string of `+` and `−` (ASCII `-`),
/// each entry `±1/√width`. A counterexample prints them so (`{"width": 18, "signs": ["+-+…", …]}`)
/// instead of as floats such as `0.23570226039551584`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignCodes {
    /// The width p of every code.
    pub width: usize,
    /// Each code's signs, `+` or `-`.
    pub signs: Vec<String>,
}

impl SignCodes {
    /// The magnitude of every entry, `1/√width` (rounded once, as the entries are).
    pub fn entry(&self) -> f64 {
        1.0 / (self.width as f64).sqrt()
    }
    /// The codes as numbers, `±1/√width`.
    pub fn entries(&self) -> Vec<Vec<f64>> {
        let v = self.entry();
        self.signs.iter().map(|code| code.chars().map(|c| if c == '+' { v } else { -v }).collect()).collect()
    }
}

/// `count` Rademacher codes of width `p` as [`SignCodes`] (the values of [`rademacher`]).
pub fn rademacher_signs(count: usize, p: usize) -> impl Strategy<Value = SignCodes> + Clone {
    vec(vec(any::<bool>(), p), count).prop_map(move |codes| SignCodes {
        width: p,
        signs: codes.into_iter().map(|code| code.into_iter().map(|s| if s { '+' } else { '-' }).collect()).collect(),
    })
}

/// The `n` one-hot codes of width `n` (the identity's rows).
pub fn one_hot(n: usize) -> Vec<Vec<f64>> {
    (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect()
}

/// An MQAR instance (Arora et al., 2024; 000 §4): `keys` key–value pairs over `values` values in
/// a sequence of length `len`, every key queried once, each query after a noise value. Built
/// field by field from the choice sequence (the key order, each pair's value, the query slots,
/// the query order, each noise value), so the search and shrinking can move any of them:
/// align values, set noise equal to a value, reorder the queries. The instance is the value
/// (tokens, pairs, queries). Every instance is rejected when the sizes cannot hold the pairs and
/// separated queries (`MqarSpec::validate`).
pub fn mqar(keys: usize, values: usize, len: usize) -> impl Strategy<Value = MqarInstance> + Clone {
    let spec = MqarSpec { keys, values, len, placement: crate::tasks::mqar::QueryPlacement::Separated };
    let region = len.saturating_sub(2 * keys);
    let indices = |n: usize| Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
    let value_range = 0..values.max(1);
    (
        indices(keys),
        proptest::collection::vec(value_range.clone(), keys),
        indices(region / 2),
        indices(keys),
        proptest::collection::vec(value_range, region.saturating_sub(keys)),
    )
        .prop_filter_map("a valid MQAR layout", move |(k, v, pairs, order, noise)| {
            let slots: Vec<usize> = pairs.iter().take(keys).map(|p| 2 * p + 1).collect();
            spec.assemble(&k, &v, &slots, &order, &noise).ok()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn draw<S: Strategy>(s: &S, runner: &mut TestRunner) -> S::Value {
        s.new_tree(runner).unwrap().current()
    }

    #[test]
    fn one_of_picks_by_weight_from_one_word_and_reaches_its_ends() {
        // Weights 4:1:1:1:1 over 8000 draws: each arm within 4.5 standard deviations of its share.
        let mut runner = TestRunner::deterministic();
        let mut counts = [0usize; 3];
        for _ in 0..8000 {
            let v = draw(&edge_biased(0.0, 1.0), &mut runner);
            counts[if v == 0.0 {
                0
            } else if v == 1.0 {
                2
            } else {
                1
            }] += 1;
        }
        // P(exactly 0) = 1/8 (plus real's grid point 0: 2⁻²⁰/2), P(exactly 1) = 1/8 (plus the same).
        for c in [counts[0], counts[2]] {
            assert!((c as f64 - 1000.0).abs() < 4.5 * (8000.0f64 * 0.125 * 0.875).sqrt(), "{counts:?}");
        }
        // The pick is monotone in its word: word 0 is the first arm, the largest word the last.
        let arms = || one_of(vec![(1, Just(0u8).sboxed()), (2, Just(1u8).sboxed()), (1, Just(2u8).sboxed())]);
        for (word, arm) in [(0u32, 0u8), (u32::MAX / 4 - 1, 0), (u32::MAX / 4 + 1, 1), (0xC000_0000, 2), (0xBFFF_FFFF, 1), (u32::MAX, 2)] {
            let bytes = word.to_le_bytes();
            let mut runner = TestRunner::new_with_rng(
                Default::default(),
                proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::PassThrough, &bytes),
            );
            assert_eq!(draw(&arms(), &mut runner), arm, "word {word:#x}");
        }
    }

    #[test]
    fn sign_codes_are_the_rademacher_codes_as_built() {
        let (mut a, mut b) = (TestRunner::deterministic(), TestRunner::deterministic());
        for _ in 0..20 {
            let (numbers, signs) = (draw(&rademacher(5, 7), &mut a), draw(&rademacher_signs(5, 7), &mut b));
            assert_eq!(numbers, signs.entries());
            assert!(signs.signs.iter().all(|c| c.len() == 7 && c.chars().all(|ch| ch == '+' || ch == '-')));
        }
        let codes = SignCodes { width: 4, signs: vec!["+--+".into()] };
        assert_eq!(serde_json::to_value(&codes).unwrap(), serde_json::json!({ "width": 4, "signs": ["+--+"] }));
        assert_eq!(codes.entries(), vec![vec![0.5, -0.5, -0.5, 0.5]]);
    }

    #[test]
    fn grid_values_lie_on_the_grid_and_in_range() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..100 {
            let v = draw(&grid(-1.0, 2.0, 0.125), &mut runner);
            assert!((-1.0..=2.0).contains(&v) && (v * 8.0).fract() == 0.0);
            let r = draw(&real(0.0, 1.0), &mut runner);
            assert!((0.0..=1.0).contains(&r) && (r * 2f64.powi(20)).fract() == 0.0);
        }
    }

    #[test]
    fn log_uniform_spreads_over_decades_and_edges_are_hit() {
        let mut runner = TestRunner::deterministic();
        let xs: Vec<f64> = (0..2000).map(|_| draw(&log_uniform(1e-6, 1.0), &mut runner)).collect();
        assert!(xs.iter().all(|&x| (1e-6..=1.0).contains(&x)));
        let below = xs.iter().filter(|&&x| x < 1e-3).count();
        assert!((800..1200).contains(&below), "half the mass below 10⁻³: {below}");
        let es: Vec<f64> = (0..2000).map(|_| draw(&edge_biased(0.0, 1.0), &mut runner)).collect();
        assert!(es.iter().filter(|&&x| x < 1e-6 && x > 0.0).count() > 20 && es.contains(&1.0));
    }

    #[test]
    fn matrices_have_their_structure() {
        let mut runner = TestRunner::deterministic();
        for n in 1..=4 {
            let a = mat_from_rows(&draw(&stable_matrix(n), &mut runner));
            assert!(spectral_abscissa(&a) < -0.06, "stable with margin");
            let nm = draw(&normal_matrix(n), &mut runner);
            let a = mat_from_rows(&nm.a);
            assert!((&a * a.transpose() - a.transpose() * &a).norm() < 1e-9 && (spectral_abscissa(&a) - nm.lambda1).abs() < 1e-9);
            let s = draw(&symmetric_matrix(n, -1.0, 1.0), &mut runner);
            assert!((0..n).all(|i| (0..n).all(|j| s[i][j] == s[j][i])));
            let r = draw(&rademacher(3, 16), &mut runner);
            assert!(r.iter().all(|c| (c.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-12));
        }
        assert_eq!(one_hot(3)[1], vec![0.0, 1.0, 0.0]);
        assert_eq!(hippo_legs(2).0[(1, 0)], -(3f64).sqrt());
        let m = draw(&mqar(4, 8, 32), &mut runner);
        assert!(m.spec.validate().is_ok() && m.tokens.len() == 32);
    }

    #[test]
    fn mqar_instances_are_built_field_by_field_and_valid() {
        use crate::tasks::mqar::Token;
        let mut runner = TestRunner::deterministic();
        let mut noise_matches_next_target = 0;
        for _ in 0..300 {
            let inst = draw(&mqar(3, 4, 16), &mut runner);
            assert_eq!(inst.tokens.len(), 16);
            let queries: Vec<(usize, usize)> = inst.queries().collect();
            assert_eq!(queries.len(), 3, "every key queried once");
            for &(t, v) in &queries {
                // A query is a key after a noise value, and its target is that key's value.
                let Token::Key(k) = inst.tokens[t] else { panic!("a query is a key") };
                assert!(matches!(inst.tokens[t - 1], Token::Value(_)));
                let pair = (0..3).find(|&i| inst.tokens[2 * i] == Token::Key(k)).unwrap();
                assert_eq!(inst.tokens[2 * pair + 1], Token::Value(v));
                noise_matches_next_target += usize::from(inst.tokens[t - 1] == Token::Value(v));
            }
        }
        // The fields vary independently: a noise value equal to the next query's answer (a
        // distractor) appears at about 1/|V| of queries.
        assert!((100..350).contains(&noise_matches_next_target), "{noise_matches_next_target}");
        // Field by field: a spec the fields do not fit is refused with the reason.
        let spec = MqarSpec { keys: 1, values: 2, len: 4, placement: crate::tasks::mqar::QueryPlacement::Separated };
        assert!(spec.assemble(&[0], &[1], &[0], &[0], &[1]).unwrap_err().to_string().contains("not after a noise value"));
        assert!(spec.assemble(&[0], &[1], &[1], &[0], &[0]).is_ok());
    }
}
