//! The cot family's errata: pinned regression witnesses (on top of the search, which must find
//! violations itself) and the counterexamples the search records, recomputed from the JSON with
//! plain loops (no gadget code).

use serde_json::Value;
use ssmcheck::claim::{run_claim, Budget, Check, Context, RunConfig};
use ssmcheck::mc::CpuBackend;
use ssmcheck::model::gadgets::{Comparison, Indicator, Multiplier, Precision};

fn silu(z: f64) -> f64 {
    z / (1.0 + (-z).exp())
}

#[test]
fn lemma_5_at_equal_inputs_gives_a_half_and_three_quarters() {
    let printed = Indicator { shift: 0.0, alpha: 0.25, lambda: 1e3, multiplier: Multiplier::tight(1.0, 1e-6) };
    let gt = printed.eval(3.0, 3.0, Comparison::Greater, Precision::F64);
    let ne = printed.eval(3.0, 3.0, Comparison::NotEqual, Precision::F64);
    assert!((gt - 0.5).abs() < 1e-9 && (ne - 0.75).abs() < 1e-5, "{gt} {ne}");
    let shifted = Indicator { shift: 0.5, alpha: 0.5, ..printed };
    assert!(shifted.eval(3.0, 3.0, Comparison::NotEqual, Precision::F64).abs() < 1e-5);
}

#[test]
fn lemma_1_in_f32_misses_eps_and_the_tanh_form_does_not() {
    // M = 1, ε = 10⁻³: λ = 1.08·10⁵.
    let g = Multiplier::paper(1.0, 1e-3);
    let naive = (g.eval_f32(1.0, 1.0) as f64 - 1.0).abs().max((g.eval_f32(0.5, -0.75) as f64 + 0.375).abs());
    assert!(naive > 1e-3, "{naive}");
    assert!((g.stable_f32(1.0, 1.0) as f64 - 1.0).abs() < 1e-4 && (g.stable_f32(0.5, -0.75) as f64 + 0.375).abs() < 1e-4);
    assert!((g.eval(1.0, 1.0) - 1.0).abs() < 1e-6, "f64 resolves it");
}

/// Lemma 5's construction from the recorded fields, with plain loops.
fn recomputed_indicator(cx: &Value) -> f64 {
    let f = |v: &Value| v.as_f64().unwrap();
    let ind = &cx["indicator"];
    let (lambda, alpha, shift) = (f(&ind["lambda"]), f(&ind["alpha"]), f(&ind["shift"]));
    let (a, b) = (f(&cx["a"]), f(&cx["b"]));
    let select = |t: f64| {
        let k = 1.0 / alpha;
        let z = [1.0 + k * t, -1.0 + k * t, -k * t, -k * t];
        let w = [0.5, -0.5, 0.5, -0.5];
        (0..4).map(|u| w[u] * silu(lambda * z[u]) / lambda).sum::<f64>()
    };
    let (gt, lt) = (select(a - b - shift), select(b - a - shift));
    match cx["op"].as_str().unwrap() {
        "Greater" => (gt - f64::from(u8::from(a > b))).abs(),
        "Less" => (lt - f64::from(u8::from(a < b))).abs(),
        _ => {
            let l = f(&ind["multiplier"]["lambda"]);
            let (p, q) = (1.0 - gt, 1.0 - lt);
            let prod = l * l / 2.0 * (silu((p + q) / l) + silu(-(p + q) / l) - silu((p - q) / l) - silu((q - p) / l));
            (1.0 - prod - f64::from(u8::from(a != b))).abs()
        }
    }
}

/// Remark 1's state from the recorded fields: H ← e^{ΔA}H + Δ·(W_b·1).
fn recomputed_state(cx: &Value) -> f64 {
    let delta = cx["delta"].as_f64().unwrap();
    let a = cx["a"].as_f64().unwrap();
    let w_b: Vec<Vec<f64>> = serde_json::from_value(cx["w_b"].clone()).unwrap();
    let mut h = vec![0.0f64; w_b.len()];
    for _ in 0..cx["steps"].as_u64().unwrap() {
        for (hn, row) in h.iter_mut().zip(&w_b) {
            *hn = (delta * a).exp() * *hn + delta * row.iter().sum::<f64>();
        }
    }
    h.iter().fold(0.0, |m, v| m.max(v.abs()))
}

#[test]
fn the_recorded_counterexamples_recompute() {
    let registry = ssmcheck::claims::registry();
    for seed in [1, 42] {
        let cfg = RunConfig { seed, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true };
        let json = serde_json::to_value(run_claim(registry.get("003.lem5.printed").unwrap(), &cfg)).unwrap();
        let cx = &json["counterexample"];
        let err = recomputed_indicator(cx);
        assert!(err > cx["eps"].as_f64().unwrap(), "seed {seed}: {err}");
        assert!((err - json["violation"]["lhs"].as_f64().unwrap()).abs() <= 1e-9 * err.max(1.0), "seed {seed}: the recorded side agrees");
        let json = serde_json::to_value(run_claim(registry.get("003.rem1.printed").unwrap(), &cfg)).unwrap();
        let cx = &json["counterexample"];
        let norm = recomputed_state(cx);
        assert!(norm > 1e-3 && (cx["delta"].as_f64().unwrap() * cx["a"].as_f64().unwrap()).exp() <= 1e-3 * (1.0 + 1e-9), "seed {seed}: {norm}");
        assert!((norm / json["violation"]["lhs"].as_f64().unwrap() - 1.0).abs() < 1e-6, "seed {seed}: the recorded side agrees");
    }
}

#[test]
fn lemma_3_holds_at_a_subnormal_input() {
    // W = [[1]], x = 3·2⁻¹⁰⁷⁴: SiLU(±x) = ±x/2 rounds (an error of 2⁻¹⁰⁷⁵ each, which no
    // relative bound covers), so the derived tolerance needs the underflow term; with it the
    // theorem holds here, and its control (one SiLU branch) is still violated at x = 1.
    let registry = ssmcheck::claims::registry();
    let claim = registry.get("003.lem3").unwrap();
    let bar = ssmcheck::progress::Silent;
    let ctx = Context::new(1, Budget::Quick, &CpuBackend, "003.lem3", &bar);
    let margin = |check: &dyn Check, x: f64| match check.replay(&serde_json::json!({ "w": [[1.0]], "x": [x] }), &ctx).unwrap() {
        ssmcheck::claim::Replay::Evaluated(v) => v.margin,
        other => panic!("{other:?}"),
    };
    assert!(margin(claim.check.as_ref(), 3.0 * f64::from_bits(1)) >= 0.0);
    assert!(margin(claim.control.as_ref().unwrap().check.as_ref(), 1.0) < 0.0);
}
