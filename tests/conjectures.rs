//! Your own conjectures, as a user writes them: in a test file of your crate, through the public
//! API, with no change to `src/`. Each appears in `cargo test` as its own test with its verdict
//! (this file has `harness = false` in `Cargo.toml`); `SSMCHECK_RESULTS=mine.json cargo test
//! --test conjectures` also writes their results for `ssmcheck report --from`.

use ssmcheck::model::{DeltaRule, DiagonalSsm, Discretization};
use ssmcheck::prelude::*;

ssmcheck::conjecture! {
    /// For S6 with one stable mode a < 0, B = 1, Δ = softplus(x): |LRD(1+k, 1)| is non-increasing in k ≤ 19.
    fn s6_lrd_is_monotone(a in strategy::log_uniform(1e-3, 4.0), x in strategy::inputs(20, 3.0)) {
        let m = DiagonalSsm { a: vec![-a], b_bias: vec![1.0], b_weight: vec![0.0], delta: DeltaRule::Selective { w: 1.0, b: 0.0 }, disc: Discretization::Zoh };
        let lrd: Vec<f64> = (0..20).map(|k| m.lrd_eq10(x, 1, k)[0].abs()).collect();
        lrd.windows(2).map(|p| Eval::le(p[1], p[0], Tolerance::relative(4.0 * Rounding::UNIT))).fold(Eval::Margin(1.0), Eval::min)
    }
}

ssmcheck::conjecture! {
    /// One ZOH step of a stable S4D mode keeps less than the whole state: e^{aΔ} < 1 for a ∈ [−4, −10⁻³], Δ ∈ [10⁻³, 10].
    fn zoh_step_contracts(a in strategy::log_uniform(1e-3, 4.0), delta in strategy::selective_deltas(1)) {
        Eval::lt((-a * delta[0]).exp(), 1.0, Scale(1.0), Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// If the scalar interaction model h_t = (λ + γx_t²)h_{t−1} is mean-square stable (λ² + 2λγ + 3γ² < 1), its sample second moment after 50 steps from h₀ = 1 is below 1 + 4 standard errors.
    #[with(given = ("λ² + 2λγ + 3γ² < 1", l * l + 2.0 * l * g + 3.0 * g * g < 1.0), cases = [20, 100, 1000])]
    fn interaction_second_moment(trial: &Trial, l in strategy::real(0.0, 1.0), g in strategy::real(0.0, 0.5)) {
        // The draws come from the trial's streams, keyed by (seed, claim, instance): shrinking and replay redraw them.
        let paths = trial.size("paths", Sizes::new(200, 1000, 10000));
        let squares: Vec<f64> = (0..paths).map(|i| {
            let mut s = trial.stream("x", i);
            (0..50).fold(1.0, |h: f64, _| h * (l + g * s.normal().powi(2))).powi(2)
        }).collect();
        let mean = squares.iter().sum::<f64>() / paths as f64;
        let se = (squares.iter().map(|q| (q - mean).powi(2)).sum::<f64>() / (paths as f64 - 1.0) / paths as f64).sqrt();
        Eval::le(mean, 1.0 + 4.0 * se, Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// e^{tA} of a stable Jordan block A = [[−1, 10], [0, −1]] has its corner entry 10t·e^{−t} at most 10/e, for t ∈ [0, 60]: with enclosures of e^{tA}, no tolerance is needed, and ties (t = 1) are not refutations.
    #[with(sides = ("(e^{tA})₁₂, enclosed", "10/e, enclosed"), control = ("the bound 10/e lowered to 1", {
        // Violated for t in about [0.11, 3.6], 6% of the draws: 200 miss it with probability 10⁻⁵.
        let e = ssmcheck::math::interval::expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
        Eval::le(e[0][1], Interval::exact(1.0), Tolerance::NONE)
    }))]
    fn jordan_corner_is_bounded(t in strategy::real(0.0, 60.0)) {
        let e = ssmcheck::math::interval::expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
        Eval::le(e[0][1], Interval::exact(10.0) / Interval::exact(1.0).exp(), Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// False (10/e ≈ 3.679 is attained at t = 1): the corner entry of e^{tA} above is at most 3.6 for t ∈ [0, 6]. Its refutation is certified: the enclosures of both sides are disjoint at the counterexample. (It fails for t in about [0.81, 1.22], 7% of [0, 6]: 200 random draws miss it with probability 10⁻⁶; over [0, 60] they would miss it one time in four, and only the search of the standard budget would find it.)
    #[with(expect = VerdictKind::Refuted)]
    fn jordan_corner_below_3_6(t in strategy::real(0.0, 6.0)) {
        let e = ssmcheck::math::interval::expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
        Eval::le(e[0][1], Interval::exact(3.6), Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// False, a conditional statement with an exactly decided hypothesis: if k ≡ 0 (mod 4), the corner entry of e^{tA} above at t = k/4 is at most 3.6 (k = 4 gives t = 1, 10/e). `given_exact` declares the hypothesis exact (integers), so the refutation is certified; with a plain `given` it would say that its hypothesis was judged in floating point.
    #[with(given_exact = ("k ≡ 0 (mod 4)", k % 4 == 0), expect = VerdictKind::Refuted)]
    fn jordan_corner_at_whole_times(k in 0u32..=240) {
        let t = f64::from(*k) / 4.0;
        let e = ssmcheck::math::interval::expm(&[vec![-t, 10.0 * t], vec![0.0, -t]]);
        Eval::le(e[0][1], Interval::exact(3.6), Tolerance::NONE)
    }
}

fn main() -> std::process::ExitCode {
    ssmcheck::harness::main(vec![
        s6_lrd_is_monotone().expect(VerdictKind::Holds),
        zoh_step_contracts().expect(VerdictKind::Holds),
        interaction_second_moment().expect(VerdictKind::Holds),
        jordan_corner_is_bounded().expect(VerdictKind::Holds),
        jordan_corner_below_3_6(),
        jordan_corner_at_whole_times(),
    ])
}
