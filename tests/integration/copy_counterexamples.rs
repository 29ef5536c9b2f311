//! The copy family's errata: the regression witnesses of 003 Theorem 1 (pinned instances, on
//! top of the search that must find violations itself), and the counterexamples the search
//! records, recomputed from the JSON with plain loops (no `CopyQuery` method).

use serde_json::Value;
use ssmcheck::claim::{run_claim, Budget, RunConfig};
use ssmcheck::claims::copy::theorem1::{hypothesis, least_feasible_delta, within_eps, AMax, Form};
use ssmcheck::mc::CpuBackend;
use ssmcheck::tasks::copy::CopyQuery;

fn query(decays: Vec<f64>, scores: Vec<f64>, window: usize, pos: usize, delta: f64, eps: f64) -> CopyQuery {
    CopyQuery { eps, v_bound: 1.0, delta, window, pos, prefix_len: 0, prefix_decay: 0.5, prefix_score: 0.0, decays, scores }
}

#[test]
fn the_index_slip_witnesses_violate_the_printed_theorem_only() {
    // i = 2, L = 1, pos = 2, a = (0.01, 0.99), δ = ε = 1e-3, s_1 = 0.999e-3 outside the window,
    // s_2 = RHS(7) as printed = 0.9995 + 0.0005·(0.01/0.99): E_wc = 1.484e-3 > ε.
    let q = query(vec![0.01, 0.99], vec![0.999e-3, 0.9995 + 0.0005 * (0.01 / 0.99)], 1, 2, 1e-3, 1e-3);
    assert!(hypothesis(&q, AMax::Printed, Form::MainText) >= -1e-12);
    assert!(within_eps(&q).refutes());
    assert!(hypothesis(&q, AMax::Corrected, Form::MainText) < 0.0, "the corrected (7) asks for more");
    // The L = 2 variant: i = 3, pos = 2, a = (0.01, 0.99, 0.99), δ = 0.9ε: E_wc ≈ 1.83e-3.
    let mut q = query(vec![0.01, 0.99, 0.99], vec![0.899e-3, 0.0, 0.899e-3], 2, 2, 0.9e-3, 1e-3);
    // s_2 just inside (7) (10⁻⁹ relative), beyond the hypothesis's rounding.
    q.scores[1] = ssmcheck::claims::copy::theorem1::required_score(&q, AMax::Printed, Form::MainText) * (1.0 + 1e-9);
    assert!(hypothesis(&q, AMax::Printed, Form::MainText) >= 0.0);
    let (e, _) = q.worst_case_error();
    assert!(e > 1.8e-3 && within_eps(&q).refutes(), "E_wc = {e}");
}

#[test]
fn the_moreover_witness_needs_a_delta_above_the_printed_bound() {
    // i = 3, L = 3, pos = 1, a_2 = a_3 = 0.5 (α_pos = 1/4, G = 6), δ = 0.6ε′, off-target scores
    // 0.59ε′, ρ = RHS·(1 + 10⁻⁹): Assumption 1 holds, the error is below ε, yet every admissible δ′ exceeds
    // ε′/2 = ε′/(L−1).
    let eps = 1e-3;
    let mut q = query(vec![0.5, 0.5, 0.5], vec![0.0, 0.59 * eps, -0.59 * eps], 3, 1, 0.6 * eps, eps);
    q.scores[0] = ssmcheck::claims::copy::theorem1::required_score(&q, AMax::Corrected, Form::MainText) * (1.0 + 1e-9);
    assert!(hypothesis(&q, AMax::Corrected, Form::MainText) >= 0.0);
    assert!(!within_eps(&q).refutes());
    assert!(least_feasible_delta(&q) > eps / 2.0, "{}", least_feasible_delta(&q));
}

/// E_wc from the recorded fields, with plain loops.
fn recomputed_error(cx: &Value) -> f64 {
    let f = |k: &str| cx[k].as_f64().unwrap();
    let p_len = cx["prefix_len"].as_u64().unwrap() as usize;
    let decays: Vec<f64> = serde_json::from_value(cx["decays"].clone()).unwrap();
    let scores: Vec<f64> = serde_json::from_value(cx["scores"].clone()).unwrap();
    let i = p_len + decays.len();
    let pos = cx["pos"].as_u64().unwrap() as usize;
    let (mut alpha, mut total) = (1.0f64, 0.0);
    for j in (1..=i).rev() {
        let s = if j <= p_len { f("prefix_score") * if j % 2 == 1 { 1.0 } else { -1.0 } } else { scores[j - p_len - 1] };
        total += if j == pos { (alpha * s - 1.0).abs() } else { (alpha * s).abs() };
        alpha *= if j <= p_len { f("prefix_decay") } else { decays[j - p_len - 1] };
    }
    f("v_bound") * total
}

#[test]
fn the_recorded_counterexamples_recompute() {
    let registry = ssmcheck::claims::registry();
    for seed in [1, 42] {
        let claim = registry.get("003.thm1.printed").unwrap();
        let r = run_claim(claim, &RunConfig { seed, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true });
        let json = serde_json::to_value(&r).unwrap();
        let cx = &json["counterexample"];
        let e = recomputed_error(cx);
        assert!(e > cx["eps"].as_f64().unwrap(), "seed {seed}: {e}");
        assert!((e / json["violation"]["lhs"].as_f64().unwrap() - 1.0).abs() < 1e-9, "seed {seed}: the recorded side agrees");
    }
}
