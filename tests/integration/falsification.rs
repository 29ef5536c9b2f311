//! The falsification benchmark: seventeen conjectures about ssmcheck's own models, written through
//! the public API as a user would, each with its ground truth established independently (a
//! proof, a closed form, or exact f64 reasoning, given beside it).
//!
//! - Six are **false**, and uniform sampling of the stated domain hits a violation with
//!   probability between 10⁻⁶ and 10⁻³ (computed exactly beside each): corners of a box, a
//!   parameter below 10⁻⁴, a sliver at a hypothesis's edge, aligned signs in a code matrix, an
//!   f64 tie.
//! - Eleven are **true** with zero margin or a rounding trap: equality is attained (often exactly
//!   where the search goes), ties, a difference quotient divided by h = 10⁻⁶, a product of
//!   exponentials against the exponential of the sum, the matrix exponential at ‖sA‖ up to 180
//!   and at its maximum compared on enclosures with no tolerance, a Monte Carlo mean at equality,
//!   a Gaussian expectation by quadrature in the limit where its integrand becomes singular, a
//!   spectral radius equal to the norm that bounds it.
//!
//! At the standard budget (2000 random instances + 1000 searched), every false conjecture must
//! be refuted at 10 seeds out of 10 and no true one at any of them (in CI, `.ci/run`;
//! `SSMCHECK_BENCH_SEEDS` sets the count, and a plain `cargo test` runs seeds 1–3); random sampling alone at the
//! same number of evaluations (3000) is measured beside it. `cargo test --test integration
//! falsification -- --nocapture` prints the table.

use ssmcheck::claim::{property_in, Budget, Check, RunConfig};
use ssmcheck::claim::{run_claim, Search};
use ssmcheck::math::softplus::{sigmoid, softplus};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;

/// Random instances at the standard budget; the search adds half as many evaluations.
const N: u64 = 2000;

/// Which sampler a run uses: the default (random + targeted search) or random alone at the
/// same number of evaluations.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Targeted,
    RandomOnly,
}

fn sized<S, E>(p: ssmcheck::claim::Property<S, E>, mode: Mode) -> ssmcheck::claim::Property<S, E>
where
    S: Strategy,
{
    match mode {
        Mode::Targeted => p.cases([200, N, 10 * N]),
        Mode::RandomOnly => p.cases([200, N + N / 2, 15 * N]).search(Search::Off),
    }
}

fn conjecture(id: &str, statement: &str, check: impl Check + 'static) -> Claim {
    Claim::conjecture(id, Family::USER, statement, check).source("tests/falsification", "benchmark", statement)
}

// ---------------------------------------------------------------------------------------------
// False conjectures (thin violations).

/// F1, a corner of Mamba's Δ box: "for a ∈ [−4, 0), w ∈ [0, 4], x ∈ [0, 3], one S6 step keeps
/// e^{aΔ} ≥ e^{−44} of the state, Δ = softplus(w·x)". False: |a|·softplus(wx) reaches
/// 4·softplus(12) = 48.00002. Violated iff |a|·softplus(wx) > 44; with u = |a|/4, v = w/4,
/// s = x/3 uniform, that is about u·v·s > 44/48 (softplus(z) − z < 1e−5 there), whose
/// probability is 1 − t(1 − ln t + ln²t/2) at t = 0.9167: 1.0e−4.
fn f1_corner(mode: Mode) -> Claim {
    let p = property([0; 3], (strategy::real(-4.0, -1.0 / 1024.0), strategy::real(0.0, 4.0), strategy::real(0.0, 3.0)), |(a, w, x)| {
        let retention_log = a * softplus(w * x);
        Eval::ge_by(retention_log, -44.0, Scale(44.0), Tolerance::NONE)
    });
    conjecture("bench.f1.s6_corner", "For a ∈ [−4, 0), w ∈ [0, 4], x ∈ [0, 3]: a·softplus(w·x) ≥ −44.", sized(p, mode))
}

/// The coherence max_{i≠j} |⟨cᵢ, cⱼ⟩| of ±1/√p codes, exactly: the sign agreements are counted
/// as integers (|Σ sgn·sgn| ≤ p), so the result is `count/p` with `count` exact.
fn coherence_count(codes: &[Vec<f64>]) -> i64 {
    let mut worst = 0;
    for i in 0..codes.len() {
        for j in 0..i {
            let agree: i64 = codes[i].iter().zip(&codes[j]).map(|(a, b)| if (a > &0.0) == (b > &0.0) { 1 } else { -1 }).sum();
            worst = worst.max(agree.abs());
        }
    }
    worst
}

/// F2, aligned signs in a code matrix: "8 Rademacher codes of width 18 have coherence
/// max_{i≠j} |⟨cᵢ, cⱼ⟩| < 1". False: two codes equal up to sign give exactly 1 (counted as
/// integers, so the tie is exact and refutes the strict inequality). Probability
/// 28·2·2⁻¹⁸ = 2.1e−4 (to first order; pairs are nearly independent).
fn f2_aligned_codes(mode: Mode) -> Claim {
    // Drawn as signs, so a counterexample prints the codes as built ("+-+…"), not as ±0.2357….
    let p = property([0; 3], strategy::rademacher_signs(8, 18), |codes| Eval::lt(coherence_count(&codes.entries()) as f64, 18.0, Scale(18.0), Tolerance::NONE));
    conjecture("bench.f2.aligned_codes", "8 Rademacher codes of width 18 have coherence < 1.", sized(p, mode))
}

/// F3, a parameter that must be tiny: "a stable mode a ∈ [−1, 0) forgets: e^{100a} < 0.99 after
/// 100 unit steps". False for |a| < ln(1/0.99)/100 = 1.005e−4: probability 1.005e−4.
fn f3_small_mode(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::real(-1.0, -1.0 / 1048576.0), |a| {
        Eval::lt((100.0 * a).exp(), 0.99, Scale(1.0), Tolerance::absolute(Rounding::value(1.0, 2.0)))
    });
    conjecture("bench.f3.small_mode", "For a ∈ [−1, 0): e^{100a} < 0.99.", sized(p, mode))
}

/// F4, a sliver at a hypothesis's edge: "if λ + γ < 1 (λ ∈ [0, 1), γ ∈ [0, 0.02]), the scalar
/// interaction model h_t = (λ + γx_t²)h_{t−1}, x ~ N(0, 1), is mean-square stable:
/// E(λ + γx²)² = λ² + 2λγ + 3γ² < 1". False in the sliver (λ+γ)² + 2γ² ≥ 1 below the line
/// λ + γ = 1, of width ≈ γ²: probability ∫₀^0.02 γ² dγ / 0.02 = 1.3e−4.
fn f4_hypothesis_edge(mode: Mode) -> Claim {
    let p = property([0; 3], (strategy::real(0.0, 1.0), strategy::real(0.0, 0.02)), |(l, g)| {
        let second = l * l + 2.0 * l * g + 3.0 * g * g;
        Eval::lt(second, 1.0, Scale(1.0), Tolerance::absolute(Rounding::sum(3, 1.0) + Rounding::value(1.0, 2.0)))
    })
    .given("λ + γ < 1", |(l, g)| 1.0 - l - g - 1e-12);
    conjecture("bench.f4.ms_stability", "If λ + γ < 1 (γ ≤ 0.02), then λ² + 2λγ + 3γ² < 1.", sized(p, mode))
}

/// F5, an f64 tie: "ssmcheck's softplus satisfies softplus(x) > x for x ∈ [−10⁴, 37]". True in
/// exact arithmetic, false in f64: for x ≥ 33.27, e^{−x} < ulp(x)/2 and x + log1p(e^{−x})
/// rounds to x exactly (an exact tie of a strict relation). Probability 3.73/10037 = 3.7e−4.
fn f5_softplus_tie(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::real(-10000.0, 37.0), |x| Eval::gt(softplus(*x), *x, Scale(1.0 + x.abs()), Tolerance::NONE));
    conjecture("bench.f5.softplus_tie", "In f64, softplus(x) > x for x ∈ [−10⁴, 37].", sized(p, mode))
}

/// F6, the corner of a 4-cube: "four Mamba-2 steps with Δᵢ ∈ [0, 1] and a = −1 keep
/// ∏ e^{−Δᵢ} ≥ e^{−3.7}". False iff ΣΔᵢ > 3.7: the Irwin–Hall tail 0.3⁴/4! = 3.4e−4.
fn f6_cube_corner(mode: Mode) -> Claim {
    let p = property([0; 3], proptest::collection::vec(strategy::real(0.0, 1.0), 4), |d| {
        let retention: f64 = d.iter().map(|x| (-x).exp()).product();
        Eval::ge_by(retention.ln(), -3.7, Scale(3.7), Tolerance::absolute(Rounding::value(4.0, 8.0)))
    });
    conjecture("bench.f6.cube_corner", "For Δ ∈ [0, 1]⁴: ∏ e^{−Δᵢ} ≥ e^{−3.7}.", sized(p, mode))
}

// ---------------------------------------------------------------------------------------------
// True conjectures (zero margin, ties, rounding traps).

/// T1, equality attained: "coherence ≤ 1" for the codes of F2 (Cauchy–Schwarz; equality when
/// two codes are equal up to sign, counted exactly).
fn t1_coherence_at_most_one(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::rademacher(8, 18), |codes| Eval::le_by(coherence_count(codes) as f64, 18.0, Scale(18.0), Tolerance::NONE));
    conjecture("bench.t1.coherence", "8 Rademacher codes of width 18 have coherence ≤ 1.", sized(p, mode))
}

/// T2, equality at the domain's edge: "e^{aΔ} ≤ 1 for a ∈ [−4, 0], Δ ∈ [0, 10]" (a ≤ 0, Δ ≥ 0;
/// equality at a = 0 or Δ = 0, exactly in f64: exp(−0) = 1 and exp of a negative rounds to ≤ 1).
fn t2_retention_at_most_one(mode: Mode) -> Claim {
    let p = property([0; 3], (strategy::real(-4.0, 0.0), strategy::real(0.0, 10.0)), |(a, d)| Eval::le_by((a * d).exp(), 1.0, Scale(1.0), Tolerance::NONE));
    conjecture("bench.t2.retention", "For a ∈ [−4, 0], Δ ∈ [0, 10]: e^{aΔ} ≤ 1.", sized(p, mode))
}

/// T3, a conditional whose conclusion is tight at the hypothesis's edge: "if
/// λ² + 2λγ + 3γ² ≤ 1 then λ + γ ≤ 1" (Jensen: (E Y)² ≤ E Y² for Y = λ + γx²; equality at
/// γ = 0, λ = 1). The rounding of λ + γ is one ulp of 1.
fn t3_ms_implies_mean(mode: Mode) -> Claim {
    let p = property([0; 3], (strategy::real(0.0, 1.5), strategy::real(0.0, 1.0)), |(l, g)| {
        Eval::le_by(l + g, 1.0, Scale(1.0), Tolerance::absolute(Rounding::value(1.0, 1.0)))
    })
    .given("λ² + 2λγ + 3γ² ≤ 1", |(l, g)| 1.0 - (l * l + 2.0 * l * g + 3.0 * g * g));
    conjecture("bench.t3.ms_implies_mean", "If λ² + 2λγ + 3γ² ≤ 1 (λ, γ ≥ 0), then λ + γ ≤ 1.", sized(p, mode))
}

/// T4, a difference quotient divided by h = 10⁻⁶: "(softplus(x+h) − softplus(x))/h = σ(x) within
/// truncation |f''|h/2 ≤ h/8 and rounding" (calculus: softplus' = σ, softplus'' = σ(1−σ) ≤ 1/4).
/// The rounding is `Rounding::difference_quotient` plus the rounding of x + h (|x|·u/h): about
/// 10⁻¹⁰ at |x| = 20 — a tolerance of 10⁻¹² "refutes" this true statement.
fn t4_difference_quotient(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::real(-20.0, 20.0), |x| {
        let h = 1e-6;
        let q = (softplus(x + h) - softplus(*x)) / h;
        let f_abs = softplus(x.abs() + h);
        let tol = h / 8.0 + Rounding::difference_quotient(f_abs, h, 2.0, q.abs()) + Rounding::value(x.abs() + h, 1.0) / h;
        Eval::close((q - sigmoid(*x)).abs(), Scale(1.0), Tolerance::absolute(tol))
    });
    conjecture("bench.t4.difference_quotient", "(softplus(x+h) − softplus(x))/h matches σ(x) within h/8 and rounding, h = 10⁻⁶.", sized(p, mode))
}

/// T5, equality at a corner with a rounding trap: "∏ e^{−Δᵢ} ≥ e^{−ΣΔᵢ}" for Δ ∈ [0, 1]⁴ (equal in
/// exact arithmetic; in f64 the product of four roundings of exp and three products can fall
/// below exp of the exact sum by γ₈ relative, so the tolerance is γ₈·e^{−ΣΔ}).
fn t5_product_of_exponentials(mode: Mode) -> Claim {
    let p = property([0; 3], proptest::collection::vec(strategy::real(0.0, 1.0), 4), |d| {
        let product: f64 = d.iter().map(|x| (-x).exp()).product();
        let exact = (-d.iter().sum::<f64>()).exp();
        Eval::le_by(exact, product, Scale(exact), Tolerance::absolute(Rounding::gamma(8) * exact))
    });
    conjecture("bench.t5.product_of_exponentials", "For Δ ∈ [0, 1]⁴: ∏ e^{−Δᵢ} ≥ e^{−ΣΔᵢ} (equal in exact arithmetic).", sized(p, mode))
}

/// T6, ties everywhere in a corner: "softplus(x) ≥ x in f64 for x ∈ [−10⁴, 37]" (the non-strict
/// F5: log1p(e^{−x}) ≥ 0 and rounding is monotone, so x + it rounds to ≥ x; ties on [33.27, 37]).
fn t6_softplus_at_least(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::real(-10000.0, 37.0), |x| Eval::ge_by(softplus(*x), *x, Scale(1.0 + x.abs()), Tolerance::NONE));
    conjecture("bench.t6.softplus_ge", "In f64, softplus(x) ≥ x for x ∈ [−10⁴, 37].", sized(p, mode))
}

/// The entries of a 3×3 non-normal generator scaled by `s`: A = [[−1, 8, 0], [0, −1, 8], [0, 0, −2]]
/// (‖A‖∞ = 9, so ‖sA‖ reaches 180 on s ∈ [0, 20]).
fn generator(s: f64) -> Vec<Vec<f64>> {
    [[-1.0, 8.0, 0.0], [0.0, -1.0, 8.0], [0.0, 0.0, -2.0]].iter().map(|r| r.iter().map(|x| x * s).collect()).collect()
}

/// T7, the matrix exponential at large ‖sA‖ with no tolerance of the user's own: "e^{sA}e^{tA} =
/// e^{(s+t)A}" entrywise, both sides enclosed (`kit::expm`), for s, t ∈ [0, 10]. True (A commutes
/// with itself); in f64 (`linalg::expm`) the two sides differ by up to 1.06·γ₆₄ times the largest
/// entry (measured 2026-11-25 on a 0.25 grid of s, t), and by much more relative to the small
/// entries: a tolerance from `Rounding::gamma` of the entries' size refutes this true statement,
/// as it did for a user. On enclosures (relative width ~1.5·10⁻¹² at s + t = 20) the sides
/// always overlap: ties, never a refutation.
fn t7_expm_semigroup(mode: Mode) -> Claim {
    semigroup(mode, 1.0)
}

/// e^{sA}e^{tA} against e^{stretch·(s+t)A} entrywise, on enclosures (stretch = 1: T7).
fn semigroup(mode: Mode, stretch: f64) -> Claim {
    let p = property([0; 3], (strategy::real(0.0, 10.0), strategy::real(0.0, 10.0)), move |(s, t)| {
        let product = ssmcheck::kit::matmul(&ssmcheck::kit::expm(&generator(*s)), &ssmcheck::kit::expm(&generator(*t)));
        let sum = ssmcheck::kit::expm(&generator(stretch * (s + t)));
        let mut worst = Eval::Margin(f64::INFINITY);
        for (prow, srow) in product.iter().zip(&sum) {
            for (&a, &b) in prow.iter().zip(srow) {
                let size = Scale(b.mag().max(f64::MIN_POSITIVE));
                worst = worst.min(Eval::le_by(a, b, size, Tolerance::NONE)).min(Eval::ge_by(a, b, size, Tolerance::NONE));
            }
        }
        worst
    });
    conjecture("bench.t7.expm_semigroup", "For s, t ∈ [0, 10]: e^{sA}e^{tA} = e^{(s+t)A} (A non-normal 3×3), on enclosures.", sized(p, mode))
}

/// T8, equality attained inside the domain, on enclosures: "(e^{tJ})₁₂ = 10t·e^{−t} ≤ 10/e" for the
/// Jordan block J = [[−1, 10], [0, −1]], t ∈ [0, 60] (calculus: the maximum is at t = 1, where the
/// search goes; there the enclosures overlap: a tie, not a refutation).
fn t8_jordan_corner(mode: Mode) -> Claim {
    let p = property([0; 3], strategy::real(0.0, 60.0), |t| {
        let e = ssmcheck::kit::expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
        Eval::le(e[0][1], Interval::exact(10.0) / Interval::exact(1.0).exp(), Tolerance::NONE)
    });
    conjecture("bench.t8.jordan_corner", "For t ∈ [0, 60]: (e^{tJ})₁₂ ≤ 10/e (equality at t = 1), on enclosures.", sized(p, mode))
}

/// T9, a Monte Carlo estimate at equality: "the mean of x² over 1000 normal draws is within 6
/// standard errors of E x² = 1" (true up to a failure probability per instance of about 2·10⁻⁹ by
/// the CLT, so about 6·10⁻⁵ over the 3000 instances × 10 seeds × 2 modes of this benchmark; the
/// skew of χ²₁ thickens the upper tail of the mean, which the 6 SE leave room for).
fn t9_monte_carlo_at_equality(mode: Mode) -> Claim {
    mean_of_squares(mode, 1.0)
}

/// The mean of x² over 1000 normal draws within 6 SE of `target` (1: T9).
fn mean_of_squares(mode: Mode, target: f64) -> Claim {
    let p = property_in([0; 3], strategy::real(0.0, 1.0), move |trial: &Trial, _: &f64| {
        let squares: Vec<f64> = (0..1000u64).map(|i| trial.stream("x", i).normal().powi(2)).collect();
        let mean = squares.iter().sum::<f64>() / 1000.0;
        let se = (squares.iter().map(|q| (q - mean).powi(2)).sum::<f64>() / 999.0 / 1000.0).sqrt();
        Eval::le_by((mean - target).abs(), 6.0 * se, Scale(se), Tolerance::NONE)
    });
    conjecture("bench.t9.mc_at_equality", "The mean of x² over 1000 N(0, 1) draws is within 6 SE of 1.", sized(p, mode))
}

/// T10, a quadrature near its singular end, on enclosures: "E ln(c + γX²) ≥ ln γ − γ_E − ln 2 =
/// E ln γX² for c ∈ [10⁻³⁰⁰, 10⁻⁴] (log-uniform), γ ∈ [½, 2]". True (the left side increases in c), with equality
/// in the limit c → 0, where ln(c + γx²) becomes singular at x = 0; the gap is √(2πc/γ) − c/γ +
/// o(c), down to 10⁻¹⁵ and below where the search drives c. The left side is
/// `LogChi2::mean_enclosure` (Taylor-model quadrature with its remainder enclosed), so a gap
/// below the enclosure's width is a tie, never a refutation; in f64 the adaptive Simpson's own
/// error (~10⁻¹⁴) exceeds the gap there.
fn t10_quadrature_near_its_singular_end(mode: Mode) -> Claim {
    quadrature_limit(mode, 0.0)
}

/// E ln(c + γX²) against E ln γX² + `excess`·√(c/γ), on enclosures (excess 0: T10).
fn quadrature_limit(mode: Mode, excess: f64) -> Claim {
    let p = property([0; 3], (strategy::log_uniform(1e-300, 1e-4), strategy::real(0.5, 2.0)), move |(c, gamma)| {
        let law = ssmcheck::math::subexp::LogChi2::new(*c, *gamma).expect("c, γ > 0");
        let limit = Interval::exact(*gamma).ln() - Interval::around(ssmcheck::kit::EULER_GAMMA, 1.0, 0.0) - Interval::exact(2.0).ln();
        let rhs = limit + Interval::exact(excess) * (Interval::exact(*c) / Interval::exact(*gamma)).sqrt();
        Eval::le(rhs, law.mean_enclosure(), Tolerance::NONE)
    });
    // Each enclosure takes 10–200 ms (Taylor series of 13 interval coefficients on a graded
    // mesh), so this statement runs 20 instances per seed (30 evaluations with the search),
    // not the benchmark's 3000.
    let p = sized(p, mode).cases([10, 20, 200]);
    conjecture("bench.t10.quadrature_limit", "For c ∈ [10⁻³⁰⁰, 10⁻⁴], γ ∈ [½, 2]: E ln(c + γX²) ≥ ln γ − γ_E − ln 2, on enclosures.", p)
}

/// T11, an eigenvalue at equality, with no tolerance of the user's own: "ρ(A) ≤ ‖A‖∞" for
/// nonnegative integer matrices (n ≤ 5, off-diagonal entries 0..4) whose diagonal makes every
/// row sum to S = 4n. True (any eigenvalue is at most any induced norm) with equality at every
/// instance: the all-ones vector is an eigenvector for S. The left side is `kit::spectral_radius`
/// (eigenvalue discs from a verified similarity transform), so the sides overlap: a tie, never a
/// refutation. In f64 (`linalg::spectral_radius`, QR iteration) ρ carries the iteration's
/// rounding, so the same statement without a tolerance is "refuted" wherever ρ rounds above S.
fn t11_spectral_radius_at_equality(mode: Mode) -> Claim {
    spectral_radius_bound(mode, 1.0)
}

/// ρ(A) against `factor`·‖A‖∞ on enclosures (factor 1: T11).
fn spectral_radius_bound(mode: Mode, factor: f64) -> Claim {
    let p = property([0; 3], (1usize..=5).prop_flat_map(|n| strategy::grid_matrix(n, n, 0.0, 4.0, 1.0)), move |m| {
        let n = m.len();
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                let off: f64 = (0..n).filter(|&j| j != i).map(|j| m[i][j]).sum();
                (0..n).map(|j| if i == j { 4.0 * n as f64 - off } else { m[i][j] }).collect()
            })
            .collect();
        Eval::le(ssmcheck::kit::spectral_radius(&rows), Interval::exact(factor * 4.0 * n as f64), Tolerance::NONE)
    });
    conjecture("bench.t11.spectral_radius", "For nonnegative integer A with every row sum S = 4n (n ≤ 5): ρ(A) ≤ ‖A‖∞, on enclosures.", sized(p, mode))
}

type Bench = fn(Mode) -> Claim;

const FALSE: [(Bench, f64); 6] = [
    (f1_corner, 1.0e-4),
    (f2_aligned_codes, 2.1e-4),
    (f3_small_mode, 1.005e-4),
    (f4_hypothesis_edge, 1.3e-4),
    (f5_softplus_tie, 3.7e-4),
    (f6_cube_corner, 3.4e-4),
];
const TRUE: [Bench; 11] = [
    t1_coherence_at_most_one,
    t2_retention_at_most_one,
    t3_ms_implies_mean,
    t4_difference_quotient,
    t5_product_of_exponentials,
    t6_softplus_at_least,
    t7_expm_semigroup,
    t8_jordan_corner,
    t9_monte_carlo_at_equality,
    t10_quadrature_near_its_singular_end,
    t11_spectral_radius_at_equality,
];

fn refuted(claim: &Claim, seed: u64) -> (bool, String) {
    let cfg = RunConfig { seed, budget: Budget::Standard, backend: &CpuBackend, progress: false, parallel: false };
    let r = run_claim(claim, &cfg);
    (r.result.is_refuted(), r.details.get("found_by").map(|f| f.to_string()).unwrap_or_default())
}

#[test]
fn every_false_conjecture_is_refuted_at_every_seed_and_random_alone_is_measured() {
    println!("{:<28} {:>9} {:>16} {:>20}  found by", "conjecture", "P(hit)", "targeted (10)", "random-only (10)");
    let mut missed = vec![];
    for (bench, p) in FALSE {
        let (targeted, random) = (bench(Mode::Targeted), bench(Mode::RandomOnly));
        let mut hits = [0; 2];
        let mut how = vec![];
        for seed in super::common::bench_seeds() {
            let (t, by) = refuted(&targeted, seed);
            hits[0] += usize::from(t);
            how.push(by);
            hits[1] += usize::from(refuted(&random, seed).0);
            if !t {
                missed.push(format!("{} at seed {seed}", targeted.meta.id));
            }
        }
        // What random sampling alone should give: 1 − (1 − p)^3000.
        let expected = 1.0 - (1.0 - p).powf((N + N / 2) as f64);
        let n = super::common::bench_seeds().count();
        println!("{:<28} {:>9.1e} {:>13}/{n} {:>11}/{n} ({:.0}%)  {}", targeted.meta.id, p, hits[0], hits[1], 100.0 * expected, how.join(" "));
    }
    assert!(missed.is_empty(), "false conjectures not refuted: {missed:?}");
}

#[test]
fn no_true_conjecture_is_refuted_at_any_seed() {
    let mut refutations = vec![];
    for bench in TRUE {
        for mode in [Mode::Targeted, Mode::RandomOnly] {
            let claim = bench(mode);
            for seed in super::common::bench_seeds() {
                let cfg = RunConfig { seed, budget: Budget::Standard, backend: &CpuBackend, progress: false, parallel: false };
                let r = run_claim(&claim, &cfg);
                if r.result.verdict != VerdictKind::Holds {
                    refutations.push(format!("{}", r));
                }
            }
        }
    }
    assert!(refutations.is_empty(), "true conjectures not confirmed:\n{}", refutations.join("\n"));
}

/// The checks of T7, T9, T10 and T11 can fail: on a mutant, the same check at the same budget
/// refutes it (e^{(s+t)A} replaced by e^{1.000001·(s+t)A}, off by ~10⁻⁶ relative against
/// enclosures ~10⁻¹² wide; the mean of x² against 1.5, 0.5 away where 6 SE ≈ 0.27; E ln γX² +
/// 3√(c/γ), above the true √(2π)·√(c/γ) − c/γ + o(c) wherever the gap exceeds the enclosure's
/// width; ρ(A) ≤ (1 − 10⁻⁹)‖A‖∞, 10⁻⁹ relative below the exact ρ = S against discs ~10⁻¹³ wide). T8's mutant, the bound 3.6
/// instead of 10/e, is `tests/conjectures.rs`'s refuted `jordan_corner_below_3_6`.
#[test]
fn the_enclosure_and_equality_checks_refute_their_mutants() {
    for seed in [1, 2] {
        for mutant in [
            semigroup(Mode::Targeted, 1.000_001),
            mean_of_squares(Mode::Targeted, 1.5),
            quadrature_limit(Mode::Targeted, 3.0),
            spectral_radius_bound(Mode::Targeted, 1.0 - 1e-9),
        ] {
            assert!(refuted(&mutant, seed).0, "{} (mutant) not refuted at seed {seed}", mutant.meta.id);
        }
    }
}
