//! The realization family's (001, B'MOJO) errata as pinned regression witnesses, each with the
//! corrected statement holding on the same instance, built through the public models. The
//! search must find violations itself (`tests/claims.rs`, every seed); these fix one small
//! instance per erratum, worked by hand in the comments. The JSON counterexamples are recomputed
//! independently by `scripts/recompute_errata.py` (`tests/recompute_script.rs`).

use ssmcheck::model::bmojo::{sliding_window_attention, BmojoF, Convention, KvProjection};
use ssmcheck::model::companion::{exact, rank, Companion, DiagonalLti};
use ssmcheck::model::eidetic::{LiteralMemory, TopMemory};
use ssmcheck::model::linear_attention::{LinearAttention, Readout, ShiftRegister};

/// The scalar projection q = k = v = u.
fn identity_projection() -> KvProjection {
    KvProjection { wq: vec![vec![1.0]], wk: vec![vec![1.0]], wv: vec![vec![1.0]] }
}

fn tokens(xs: &[f64]) -> Vec<Vec<f64>> {
    xs.iter().map(|x| vec![*x]).collect()
}

fn max_gap(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter().flatten().zip(b.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

#[test]
fn c6_unmasked_attention_reads_the_empty_blocks() {
    // N = 3, u_0 = 1: the unmasked eq (9) reads two zero blocks (score 0, value 0) beside the
    // token (score 1, value 1): y_0 = e/(2 + e) = 0.5761; sliding-window attention gives 1.
    let u = tokens(&[1.0, -0.5, 0.25, 2.0]);
    let reference = sliding_window_attention(&identity_projection(), &u, 3);
    let unmasked = BmojoF::attention(identity_projection(), 3, Convention::Inclusive, false).run(&u);
    let e = std::f64::consts::E;
    assert!((unmasked[0][0] - e / (2.0 + e)).abs() < 1e-15, "{}", unmasked[0][0]);
    assert_eq!(reference[0][0], 1.0);
    // From t = N − 1 on every block is written and the two agree (up to rounding).
    assert!(max_gap(&unmasked[2..], &reference[2..]) < 1e-15);
    let masked = BmojoF::attention(identity_projection(), 3, Convention::Inclusive, true).run(&u);
    assert!(max_gap(&masked, &reference) < 1e-15, "the masked reading is exact");
}

#[test]
fn c7_linear_attention_has_a_constant_state() {
    // Eq (12) as a recurrence: d_k(d_v + 1) = 2 numbers whatever t, and the same outputs as the
    // growing sum (11).
    let la = LinearAttention { proj: identity_projection() };
    let u = tokens(&(0..64).map(|t| ((t * 37 % 17) as f64 - 8.0) / 4.0).collect::<Vec<_>>());
    assert_eq!(la.recurrent_state_size(), 2);
    assert!(max_gap(&la.recurrent(&u), &la.direct(&u, None)) < 1e-12);
}

#[test]
fn c10_printed_readout_counts_the_integrator_twice() {
    // K = 3, tokens (1, 2, −1, 0.5): (18) as printed reads every slot plus the integrator, so its
    // output differs from eq (11); reading the integrator's slot only is exact.
    let la = LinearAttention { proj: identity_projection() };
    let u = tokens(&[1.0, 2.0, -1.0, 0.5, 1.5]);
    let full = la.direct(&u, None);
    let printed = la.shift_register(&u, ShiftRegister { slots: 4, integrator: true, readout: Readout::AllSlots });
    let corrected = la.shift_register(&u, ShiftRegister { slots: 3, integrator: true, readout: Readout::LastSlot });
    assert!(max_gap(&printed, &full) > 0.1, "{}", max_gap(&printed, &full));
    assert!(max_gap(&corrected, &full) < 1e-12);
}

#[test]
fn c10_window_printed_has_two_slots_too_many() {
    // A window of K = 3 tokens is the current token plus K − 1 = 2 slots; (13) prints K + 1.
    let la = LinearAttention { proj: identity_projection() };
    let u = tokens(&[1.0, 2.0, -1.0, 0.5, 1.5, -2.0]);
    let windowed = la.direct(&u, Some(3));
    let printed = la.shift_register(&u, ShiftRegister { slots: 4, integrator: false, readout: Readout::AllSlots });
    let corrected = la.shift_register(&u, ShiftRegister { slots: 2, integrator: false, readout: Readout::AllSlots });
    assert!(max_gap(&printed, &windowed) > 0.1);
    assert!(max_gap(&corrected, &windowed) < 1e-12);
}

#[test]
fn c16_printed_a_cancelled_mode_is_unobservable() {
    // λ = (1/2, 1/4), b = (1, 1), c = (1, 0): the mode 1/4 never reaches the output, so the
    // 2-state companion realization has observability rank 1 — not minimal.
    let sys = DiagonalLti { lambda: vec![exact(0.5), exact(0.25)], b: vec![exact(1.0); 2], c: vec![exact(1.0), exact(0.0)], d: exact(0.0) };
    let companion = Companion::from_diagonal(&sys);
    assert_eq!(rank(&companion.observability()), 1);
    assert_eq!(rank(&companion.controllability()), 2);
    // With c = (1, 1) both modes reach the output: minimal.
    let full = DiagonalLti { c: vec![exact(1.0); 2], ..sys };
    assert_eq!(rank(&Companion::from_diagonal(&full).observability()), 2);
}

#[test]
fn c17_printed_index_delays_the_input_twice() {
    // a = b = c = 1, d = 0, u = (1, 0, 0): x_t = 1 for all t, so y = (1, 1, 1). Eq (24) as printed,
    // x̂_{t+1} = a x̂_t + u_{t−1}: x̂ = (0, 0, 1), y_t = cab x̂_t + (cb + d)u_t = (1, 0, 1).
    let u = [1.0, 0.0, 0.0];
    let (mut printed, mut corrected) = (Vec::new(), Vec::new());
    let (mut xp, mut xc) = (0.0, 0.0);
    for t in 0..3 {
        printed.push(xp + u[t]);
        corrected.push(xc + u[t]);
        xp += if t >= 1 { u[t - 1] } else { 0.0 };
        xc += u[t];
    }
    assert_eq!(printed, vec![1.0, 0.0, 1.0]);
    assert_eq!(corrected, vec![1.0, 1.0, 1.0]);
}

#[test]
fn c21_literal_rule_never_evicts() {
    // Rising innovations 1, 2, …, 20: each exceeds the smallest held (the first), so the printed
    // rule keeps all 20 tokens; the bounded reading keeps the top 8 (13–20).
    let (mut literal, mut top) = (LiteralMemory::default(), TopMemory::new(8));
    for t in 0..20 {
        literal.offer(t, (t + 1) as f64);
        top.offer(t, (t + 1) as f64);
    }
    assert_eq!(literal.entries.len(), 20);
    assert_eq!(top.positions(), (12..20).collect::<Vec<_>>());
}

#[test]
fn the_causal_realization_holds_where_a_wrong_rounding_scale_refuted_it() {
    // 001.c17 (a theorem) was refuted at the standard budget, seed 11, with margin −2.3·10⁻¹¹:
    // its tolerance took the absolute terms at |A|x_abs| + B u| instead of |x_{t−1}|. At that
    // instance (n = 4, m = 2, p = 2, constant matrices) the theorem holds with the right scale.
    let registry = ssmcheck::claims::registry();
    let claim = registry.get("001.c17").unwrap();
    let bar = ssmcheck::progress::Silent;
    let ctx = ssmcheck::claim::Context::new(11, ssmcheck::claim::Budget::Standard, &ssmcheck::mc::CpuBackend, "001.c17", &bar);
    let instance = serde_json::json!({
        "steps": [[
            [[-0.1875, -0.3125, 0.4375, -0.5], [0.375, -0.5, 0.1875, -0.5], [0.5, 0.0, -0.375, 0.375], [-0.375, 0.0625, 0.5, -0.5]],
            [[0.625, -0.375], [0.875, 0.0], [0.625, 0.875], [-1.0, -1.0]],
            [[-1.0, 0.0, 0.0, -0.25], [0.0, 0.0, 0.0, 0.0]],
            [[0.0, 0.0], [0.0, 0.0]]
        ]],
        "u": [[0.4375, -1.0], [0.875, -0.125], [-0.9375, 0.25], [0.5, -0.0625], [-0.25, 0.1875], [0.0, 0.5], [0.0, -0.3125], [0.9375, 0.0],
              [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    });
    let margin = |check: &dyn ssmcheck::claim::Check| match check.replay(&instance, &ctx).unwrap() {
        ssmcheck::claim::Replay::Evaluated(v) => v.margin,
        other => panic!("{other:?}"),
    };
    assert!(margin(claim.check.as_ref()) >= 0.0);
    // Its control (C x̂ read where C A x̂ belongs) is violated at the same instance.
    assert!(margin(claim.control.as_ref().unwrap().check.as_ref()) < 0.0);
}
