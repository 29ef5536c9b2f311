//! The copy family's errata: the counterexamples the search records, recomputed from the JSON
//! with plain loops (no `CopyQuery` method). The pinned witnesses of 003 Theorem 1 are unit
//! tests of `claims/copy/theorem1.rs`, beside the helpers they use.

use serde_json::Value;
use ssmcheck::claim::{run_claim, Budget, RunConfig};
use ssmcheck::mc::CpuBackend;

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
