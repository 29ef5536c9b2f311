//! The suite's S6 scan against the field's reference code: state-spaces/mamba's
//! `selective_scan_ref` (float32) and `ssd_minimal_discrete` (float64), on the committed fixture
//! `tests/fixtures/mamba_reference.json` (made by `scripts/reference_fixtures.sh`, which says
//! how the reference functions are run without their CUDA kernels).
//!
//! Conventions of the reference that the comparison pins down: Δ = softplus(δ + delta_bias) with
//! torch's softplus, which returns x itself above 20 (the fixture has δ = 25: the difference,
//! ln(1 + e^{−25}) ≈ 10⁻¹¹, is below float32's resolution there); Ā = e^{ΔA} (zero-order hold)
//! but B̄u = ΔBu (Euler); y_t = Σ_n C_{t,n} h_{t,n}, then + D u and ⊙ silu(z). Complex A (whose
//! output the reference returns as twice the real part) is not a mode of the suite's scan.
//!
//! Tolerances are bounds on the reference's own rounding, computed per output from the data
//! (the suite's scan runs in f64 on the same inputs, 10⁸ times more precise than float32):
//! with unit roundoff u, Δ carries ≤ 3u (bias, softplus), Ā = e^{ΔA} ≤ (2 + 4|ΔA|)u (the product's
//! rounding amplified by the exponent, and exp's own), ΔBu ≤ 5u, and each update h ← Āh + ΔBu
//! two more, so the state's error obeys e_t = Ā e_{t−1} + u((4 + 4|ΔA|)Ā|h_{t−1}| + 6|ΔBu|); the
//! read-out adds N·u·Σ_n|C_n h_n| (a sum of N products) and Σ_n |C_n| e_n. Twice that bound
//! covers second-order terms.

use serde_json::Value;
use ssmcheck::math::softplus::silu;
use ssmcheck::model::{selective_scan, ScanInputs};

pub(crate) fn fixture() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mamba_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the committed fixture")).expect("valid JSON")
}

pub(crate) fn floats(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

pub(crate) fn size(case: &Value, key: &str) -> usize {
    case[key].as_u64().unwrap_or_else(|| panic!("{key}")) as usize
}

/// One sequence in the engine's layouts, from the reference's (batch, dim, L), (dim, N) and
/// (batch, N, L) arrays: u and δ (+ bias) L × d, A N × d, B and C L × N.
pub(crate) struct Sequence {
    pub(crate) u: Vec<f64>,
    pub(crate) delta: Vec<f64>,
    pub(crate) a: Vec<f64>,
    pub(crate) b: Vec<f64>,
    pub(crate) c: Vec<f64>,
}

fn sequence(case: &Value, i: usize) -> Sequence {
    let (dim, n, len) = (size(case, "dim"), size(case, "dstate"), size(case, "length"));
    let bias = case.get("delta_bias").map_or(vec![0.0; dim], floats);
    let (u, delta, a, b, c) = (floats(&case["u"]), floats(&case["delta"]), floats(&case["A"]), floats(&case["B"]), floats(&case["C"]));
    let by_time = |x: &[f64], rows: usize, add: &[f64]| -> Vec<f64> {
        (0..len).flat_map(|t| (0..rows).map(move |r| (t, r))).map(|(t, r)| x[(i * rows + r) * len + t] + add[r]).collect()
    };
    Sequence {
        u: by_time(&u, dim, &vec![0.0; dim]),
        delta: by_time(&delta, dim, &bias),
        a: (0..n * dim).map(|j| a[(j % dim) * n + j / dim]).collect(),
        b: by_time(&b, n, &vec![0.0; n]),
        c: by_time(&c, n, &vec![0.0; n]),
    }
}

/// The float32 reference's rounding bound on y (L × d), from the recurrence above.
pub(crate) fn rounding_bound(s: &Sequence, d: usize, n: usize, len: usize, softplus: bool, unit: f64) -> Vec<f64> {
    let mut bound = vec![0.0; len * d];
    for ch in 0..d {
        for k in 0..n {
            let (mut h, mut e) = (0.0f64, 0.0f64);
            for t in 0..len {
                let r = s.delta[t * d + ch];
                let dl = if softplus { ssmcheck::math::softplus::softplus(r) } else { r };
                let da_arg = dl * s.a[k * d + ch];
                let (abar, dbu) = (da_arg.exp(), dl * s.b[t * n + k] * s.u[t * d + ch]);
                e = abar * e + unit * ((4.0 + 4.0 * da_arg.abs()) * abar * h.abs() + 6.0 * dbu.abs());
                h = abar * h + dbu;
                let ck = s.c[t * n + k].abs();
                bound[t * d + ch] += ck * e + n as f64 * unit * ck * h.abs();
            }
        }
    }
    bound
}

/// The engine's scan on one sequence.
pub(crate) fn scan(s: &Sequence, d: usize, n: usize, len: usize, softplus: bool) -> Vec<f64> {
    let inp = ScanInputs { d, n, len, delta: &s.delta, delta_softplus: softplus, a: &s.a, b: &s.b, c: &s.c, u: &s.u };
    let mut y = vec![0.0; len * d];
    selective_scan(&inp, &mut y).expect("valid inputs");
    y
}

/// The scan's output y (with tolerance `tol`) after the reference's skip `+ D u` and gate
/// `⊙ silu(z)`, and its tolerance: the skip's sum adds ≤ 2u of both terms, the gate's product and
/// silu's exponential, sum and quotient ≤ 8u of the result.
pub(crate) fn skip_and_gate(y: f64, tol: f64, skip_term: Option<f64>, z: Option<f64>, unit: f64) -> (f64, f64) {
    let (mut ours, mut tol) = (y, tol);
    if let Some(term) = skip_term {
        tol += 2.0 * unit * (ours.abs() + term.abs());
        ours += term;
    }
    if let Some(z) = z {
        let g = silu(z);
        tol = tol * g.abs() + 8.0 * unit * (ours * g).abs();
        ours *= g;
    }
    (ours, tol)
}

/// Largest |ours − reference| / tolerance over a case (≤ 1 passes); `flip_softplus` runs the
/// engine with the wrong Δ convention (the negative control).
fn s6_worst_ratio(case: &Value, flip_softplus: bool) -> f64 {
    let (batch, d, n, len) = (size(case, "batch"), size(case, "dim"), size(case, "dstate"), size(case, "length"));
    let softplus = case["delta_softplus"].as_bool().unwrap();
    let (out, unit) = (floats(&case["out"]), f64::from(f32::EPSILON) / 2.0);
    let skip = case.get("D").map(floats);
    let gate = case.get("z").map(floats);
    let mut worst = 0.0f64;
    for i in 0..batch {
        let s = sequence(case, i);
        let y = scan(&s, d, n, len, softplus != flip_softplus);
        let bound = rounding_bound(&s, d, n, len, softplus, unit);
        for t in 0..len {
            for ch in 0..d {
                let skip_term = skip.as_ref().map(|dd| s.u[t * d + ch] * dd[ch]);
                let z = gate.as_ref().map(|z| z[(i * d + ch) * len + t]);
                let (ours, tol) = skip_and_gate(y[t * d + ch], 2.0 * bound[t * d + ch], skip_term, z, unit);
                let reference = out[(i * d + ch) * len + t];
                worst = worst.max((ours - reference).abs() / tol.max(f64::MIN_POSITIVE));
            }
        }
    }
    worst
}

#[test]
fn the_s6_scan_is_mambas_selective_scan_ref() {
    let f = fixture();
    let cases = f["selective_scan_ref"].as_array().expect("cases");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let worst = s6_worst_ratio(case, false);
        assert!(worst <= 1.0, "{}: |ours − reference| reaches {worst:.3} × the float32 rounding bound", case["name"]);
    }
}

#[test]
fn the_comparison_catches_the_wrong_step_size_convention() {
    // Δ = δ + bias instead of softplus(δ + bias): far outside the rounding bound.
    let f = fixture();
    let case = f["selective_scan_ref"].as_array().unwrap().iter().find(|c| c["delta_softplus"].as_bool() == Some(true)).expect("a softplus case");
    assert!(s6_worst_ratio(case, true) > 1e3);
}

/// Mamba-2's SSD as the engine's scan: per head, d = head_dim channels sharing B_t, C_t and the
/// scalar a, with Δ_t = dt_t in every channel (h ← e^{a·dt} h + dt·x·B, as SSD with X = x·dt and
/// A = a·dt). The reference is float64 and chunked (segment sums of a·dt within blocks, decays
/// as exponentials of their differences); its rounding is bounded per output by
/// u·(N + 2L + 8 + 2L·Σ|a·dt|)·Σ_{s≤t} Σ_n |C_t B_s X_s| (every term's products and sums, the
/// exponent's cumulative sums, decays ≤ 1), and doubled.
fn ssd_worst_ratio(case: &Value, shift_dt: bool) -> f64 {
    let (batch, len, heads, p, n) = (size(case, "batch"), size(case, "length"), size(case, "heads"), size(case, "head_dim"), size(case, "dstate"));
    let (x, dt, a, b, c, y) = (floats(&case["x"]), floats(&case["dt"]), floats(&case["a"]), floats(&case["B"]), floats(&case["C"]), floats(&case["y"]));
    let unit = f64::EPSILON / 2.0;
    let mut worst = 0.0f64;
    for i in 0..batch {
        for h in 0..heads {
            let dt_at = |t: usize| dt[(i * len + t) * heads + h];
            let s = Sequence {
                u: (0..len * p).map(|j| x[((i * len + j / p) * heads + h) * p + j % p]).collect(),
                // The control: Δ one step late (Δ_{t−1} at step t).
                delta: (0..len * p).map(|j| dt_at(if shift_dt { (j / p).saturating_sub(1) } else { j / p })).collect(),
                a: vec![a[h]; n * p],
                b: (0..len * n).map(|j| b[((i * len + j / n) * heads + h) * n + j % n]).collect(),
                c: (0..len * n).map(|j| c[((i * len + j / n) * heads + h) * n + j % n]).collect(),
            };
            let ours = scan(&s, p, n, len, false);
            let exponent: f64 = (0..len).map(|t| (a[h] * dt_at(t)).abs()).sum();
            let factor = unit * (n as f64 + 2.0 * len as f64 + 8.0 + 2.0 * len as f64 * exponent);
            for t in 0..len {
                for ch in 0..p {
                    let scale: f64 =
                        (0..=t).map(|r| (0..n).map(|k| (s.c[t * n + k] * s.b[r * n + k]).abs()).sum::<f64>() * (s.u[r * p + ch] * dt_at(r)).abs()).sum();
                    let reference = y[((i * len + t) * heads + h) * p + ch];
                    worst = worst.max((ours[t * p + ch] - reference).abs() / (2.0 * factor * scale).max(f64::MIN_POSITIVE));
                }
            }
        }
    }
    worst
}

#[test]
fn the_scan_with_a_scalar_decay_is_mamba2s_ssd() {
    let f = fixture();
    for case in f["ssd_minimal_discrete"].as_array().expect("cases") {
        let worst = ssd_worst_ratio(case, false);
        assert!(worst <= 1.0, "{}: |ours − reference| reaches {worst:.3} × the float64 rounding bound", case["name"]);
    }
}

#[test]
fn the_ssd_comparison_catches_a_step_size_one_step_late() {
    let f = fixture();
    let case = &f["ssd_minimal_discrete"][0];
    assert!(ssd_worst_ratio(case, true) > 1e3);
}

#[test]
fn the_fixture_names_its_source() {
    let f = fixture();
    assert_eq!(f["mamba_ssm"], "2.3.2.post1");
    assert!(f["sources_sha256"]["ops/selective_scan_interface.py"].as_str().is_some_and(|h| h.len() == 64));
}
