//! The trainable Mamba block (`ssmcheck::train::mamba_block`) against state-spaces/mamba's
//! `mamba_inner_ref` (float32), stage by stage, on the committed fixture
//! `tests/fixtures/mamba_reference.json` (`scripts/reference_fixtures.sh`: the reference's
//! convolution `causal_conv1d_ref` and scan `selective_scan_ref` are wrapped to record what they
//! are given and return).
//!
//! Each of the block's stages — [`MambaBlock::project_in`], [`MambaBlock::convolve`],
//! [`MambaBlock::selection`], [`MambaBlock::mix`] and [`MambaBlock::project_out`], whose
//! composition is [`MambaBlock::forward`] — runs in f64 on the reference's own (float32) input to
//! that stage and must meet the reference's output within the float32 rounding bound of that
//! stage, computed per output from the data (unit roundoff u = 2⁻²⁴, γ_k = ku/(1 − ku)):
//!
//! * a product with k terms, `Σ_i a_i b_i`: γ_k Σ|a_i b_i| (the in- and out-projections, B, C);
//! * the convolution and SiLU: silu'(v) ≤ 1.1 times γ_{k+1}(Σ|w x| + |b|), plus 4u|silu(v)|
//!   (its exponential, sum, quotient and product);
//! * Δ = softplus(δ + b_dt) against the reference's δ = W_dt (x W_x)[:r]: δ's own rounding
//!   Σ_j |W_dt[c,j]| γ_{d_inner} Σ_i |x_i W_x[j,i]| + γ_r Σ_j |W_dt[c,j] (x W_x)_j|, times
//!   softplus' = σ ≤ 1, plus 8u₆₄(1 + Δ) for the f64 softplus on both sides;
//! * the scan with D and the gate: the S6 bound of `reference.rs` with u·1.5 (A = −exp(A_log)
//!   is float32 there, one more rounding of A whose effect on e^{ΔA} is that of ΔA's own product)
//!   and its skip and gate terms.
//!
//! Every bound is doubled (second-order terms). Each stage has a negative control: the same
//! comparison on a block with one convention changed, which it must reject by a factor > 100.

use crate::reference::{fixture, floats, rounding_bound, scan, size, skip_and_gate, Sequence};
use candle_core::{Device, Tensor};
use serde_json::Value;
use ssmcheck::math::softplus::{sigmoid, silu, softplus};
use ssmcheck::mc::StreamKey;
use ssmcheck::train::mamba_block::{BlockMixer, BlockShape, MambaBlock};

/// The float32 unit roundoff.
pub(crate) const UNIT: f64 = 1.0 / (1u64 << 24) as f64;

pub(crate) fn gamma(k: usize) -> f64 {
    k as f64 * UNIT / (1.0 - k as f64 * UNIT)
}

/// The case's sizes.
pub(crate) struct Sizes {
    pub(crate) batch: usize,
    pub(crate) dm: usize,
    pub(crate) di: usize,
    pub(crate) n: usize,
    pub(crate) r: usize,
    pub(crate) k: usize,
    pub(crate) len: usize,
}

fn sizes(case: &Value) -> Sizes {
    Sizes {
        batch: size(case, "batch"),
        dm: size(case, "d_model"),
        di: size(case, "d_inner"),
        n: size(case, "dstate"),
        r: size(case, "dt_rank"),
        k: size(case, "conv_width"),
        len: size(case, "length"),
    }
}

pub(crate) fn weight(case: &Value, name: &str) -> Vec<f64> {
    floats(&case["weights"][name])
}

/// The block with the case's weights.
fn block(case: &Value) -> MambaBlock {
    let z = sizes(case);
    let mixer = if case["mixer"] == "time_invariant" { BlockMixer::TimeInvariant } else { BlockMixer::Selective };
    let shape = BlockShape { d_model: z.dm, expand: z.di / z.dm, n: z.n, conv_width: z.k, mixer, gate: true };
    let b = MambaBlock::init(shape, 1, StreamKey::new(0, "fixture")).unwrap();
    for (name, values) in case["weights"].as_object().unwrap() {
        b.set_weight(name, &floats(values)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    b
}

/// The reference's (batch, rows, L) array, first `rows` rows of each batch's `all_rows`, as a
/// (batch, L, rows) tensor and as nested vectors [b][t][row].
fn by_time(values: &[f64], z: &Sizes, all_rows: usize, rows: usize) -> (Tensor, Vec<Vec<Vec<f64>>>) {
    let nested: Vec<Vec<Vec<f64>>> =
        (0..z.batch).map(|b| (0..z.len).map(|t| (0..rows).map(|r| values[(b * all_rows + r) * z.len + t]).collect()).collect()).collect();
    let flat: Vec<f64> = nested.iter().flatten().flatten().copied().collect();
    (Tensor::from_vec(flat, (z.batch, z.len, rows), &Device::Cpu).unwrap(), nested)
}

/// The reference's (batch, L, width) array as nested vectors [b][t][column].
pub(crate) fn time_major(values: &[f64], z: &Sizes, width: usize) -> Vec<Vec<Vec<f64>>> {
    (0..z.batch).map(|b| (0..z.len).map(|t| values[(b * z.len + t) * width..][..width].to_vec()).collect()).collect()
}

pub(crate) fn values3(t: &Tensor) -> Vec<Vec<Vec<f64>>> {
    t.to_vec3::<f64>().unwrap()
}

/// The rows of a (rows × cols) matrix `w` in the order `order` (row i of the result is row
/// `order(i)` of `w`).
pub(crate) fn rows(w: &[f64], cols: usize, order: &dyn Fn(usize) -> usize) -> Vec<f64> {
    (0..w.len() / cols).flat_map(|i| w[order(i) * cols..][..cols].to_vec()).collect()
}

/// A depthwise convolution's weights (channels × k) with each channel's taps reversed (w[0] on
/// the newest input): the convolution stage's control.
pub(crate) fn reversed_taps(w: &[f64], k: usize) -> Vec<f64> {
    rows(w, 1, &|i| (i / k) * k + (k - 1 - i % k))
}

/// The float32 rounding bound of `Σ_i a_i w_i` (k terms), doubled: 2γ_k Σ|a_i w_i|.
pub(crate) fn dot_bound(a: &[f64], w: &[f64]) -> f64 {
    2.0 * gamma(a.len()) * a.iter().zip(w).map(|(x, y)| (x * y).abs()).sum::<f64>()
}

/// The float32 rounding bound of `SiLU(b[c] + Σ_j w[c, j] x_{t+j−(k−1)}[c])` (weights w, C × k;
/// one sequence x[t][c]), doubled: silu' ≤ 1.1 times γ_{k+1}(Σ|w x| + |b|), plus 4u|SiLU(v)|.
pub(crate) fn conv_bound(w: &[f64], bias: &[f64], k: usize, x: &[Vec<f64>], t: usize, c: usize) -> f64 {
    let terms: Vec<f64> = (0..k).filter_map(|j| (t + j + 1).checked_sub(k).map(|s| w[c * k + j] * x[s][c])).collect();
    let v = terms.iter().sum::<f64>() + bias[c];
    let sum = terms.iter().map(|x| x.abs()).sum::<f64>() + bias[c].abs();
    2.0 * (1.1 * gamma(k + 1) * sum + 4.0 * UNIT * silu(v).abs())
}

/// Largest |ours − reference| / bound over one stage's outputs.
pub(crate) fn worst(ours: &[Vec<Vec<f64>>], reference: &[Vec<Vec<f64>>], bound: impl Fn(usize, usize, usize) -> f64) -> f64 {
    let mut w = 0.0f64;
    for (b, (o, r)) in ours.iter().zip(reference).enumerate() {
        for (t, (o, r)) in o.iter().zip(r).enumerate() {
            assert_eq!(o.len(), r.len());
            for (j, (o, r)) in o.iter().zip(r).enumerate() {
                w = w.max((o - r).abs() / bound(b, t, j).max(f64::MIN_POSITIVE));
            }
        }
    }
    w
}

/// The five stages' worst ratios: in-projection, convolution, selection (Δ, B, C), scan with
/// skip and gate, out-projection.
fn stage_ratios(case: &Value, blk: &MambaBlock) -> [f64; 5] {
    let z = sizes(case);
    let (di, n, r) = (z.di, z.n, z.r);
    // 1. [x | z] = h W_inᵀ.
    let hidden = floats(&case["hidden"]);
    let h = time_major(&hidden, &z, z.dm);
    let h_tensor = Tensor::from_vec(hidden.clone(), (z.batch, z.len, z.dm), &Device::Cpu).unwrap();
    let xz_all = floats(&case["xz"]);
    let (_, xz) = by_time(&xz_all, &z, 2 * di, 2 * di);
    let w_in = weight(case, "in_proj.weight");
    let s1 = worst(&values3(&blk.project_in(&h_tensor).unwrap()), &xz, |b, t, j| dot_bound(&h[b][t], &w_in[j * z.dm..][..z.dm]));
    // 2. SiLU(conv(x) + b), on the reference's x (the first d_inner rows of xz).
    let (x_tensor, x) = by_time(&xz_all, &z, 2 * di, di);
    let (cw, cb) = (weight(case, "conv1d.weight"), weight(case, "conv1d.bias"));
    let (conv_tensor, conv) = by_time(&floats(&case["conv_out"]), &z, di, di);
    let s2 = worst(&values3(&blk.convolve(&x_tensor).unwrap()), &conv, |b, t, c| conv_bound(&cw, &cb, z.k, &x[b], t, c));
    // 3. Δ, B, C from the reference's convolved x.
    let [delta, b_ours, c_ours] = blk.selection(&conv_tensor).unwrap();
    let bias = weight(case, "dt_proj.bias");
    let (_, pre) = by_time(&floats(&case["delta"]), &z, di, di);
    let (b_tensor, b_ref) = by_time(&floats(&case["B"]), &z, n, n);
    let (c_tensor, c_ref) = by_time(&floats(&case["C"]), &z, n, n);
    let target: Vec<Vec<Vec<f64>>> = pre.iter().map(|p| p.iter().map(|row| row.iter().zip(&bias).map(|(p, b)| softplus(p + b)).collect()).collect()).collect();
    let selective = case["mixer"] == "selective";
    let (wx, wdt) = if selective { (weight(case, "x_proj.weight"), weight(case, "dt_proj.weight")) } else { (vec![0.0; (r + 2 * n) * di], vec![0.0; di * r]) };
    let projected = |b: usize, t: usize, j: usize| -> (f64, f64) {
        let row = &wx[j * di..][..di];
        (conv[b][t].iter().zip(row).map(|(x, w)| x * w).sum(), dot_bound(&conv[b][t], row) / 2.0)
    };
    let delta_bound = |b: usize, t: usize, c: usize| {
        let (mut own, mut sum) = (0.0, 0.0);
        for j in 0..r {
            let (value, rounding) = projected(b, t, j);
            own += wdt[c * r + j].abs() * rounding;
            sum += (wdt[c * r + j] * value).abs();
        }
        let pre_error = own + gamma(r) * sum;
        2.0 * sigmoid(pre[b][t][c] + bias[c]) * pre_error + 8.0 * (f64::EPSILON / 2.0) * (1.0 + target[b][t][c])
    };
    let bc_bound = |offset: usize| move |b: usize, t: usize, j: usize| if selective { 2.0 * projected(b, t, offset + j).1 } else { 0.0 };
    let s3 =
        worst(&values3(&delta), &target, delta_bound).max(worst(&values3(&b_ours), &b_ref, bc_bound(r))).max(worst(&values3(&c_ours), &c_ref, bc_bound(r + n)));
    // 4. The scan on the reference's x, Δ, B, C, with D and the gate SiLU(z).
    let target_tensor = Tensor::from_vec(target.iter().flatten().flatten().copied().collect::<Vec<_>>(), (z.batch, z.len, di), &Device::Cpu).unwrap();
    let (z_tensor, gate) = by_time(&floats(&case["z"]), &z, di, di);
    let y_ours = values3(&blk.mix(&conv_tensor, &[target_tensor, b_tensor, c_tensor], Some(&z_tensor)).unwrap());
    let (y_tensor, y_ref) = by_time(&floats(&case["y"]), &z, di, di);
    let a: Vec<f64> = weight(case, "A_log").iter().map(|v| -v.exp()).collect();
    let skip = weight(case, "D");
    let mut s4 = 0.0f64;
    for b in 0..z.batch {
        let seq = Sequence {
            u: conv[b].iter().flatten().copied().collect(),
            delta: pre[b].iter().flat_map(|row| row.iter().zip(&bias).map(|(p, b)| p + b)).collect(),
            a: (0..n * di).map(|j| a[(j % di) * n + j / di]).collect(),
            b: b_ref[b].iter().flatten().copied().collect(),
            c: c_ref[b].iter().flatten().copied().collect(),
        };
        let (engine, bound) = (scan(&seq, di, n, z.len, true), rounding_bound(&seq, di, n, z.len, true, 1.5 * UNIT));
        s4 = s4.max(worst(&y_ours[b..=b], &y_ref[b..=b], |_, t, c| {
            skip_and_gate(engine[t * di + c], 2.0 * bound[t * di + c], Some(conv[b][t][c] * skip[c]), Some(gate[b][t][c]), UNIT).1
        }));
    }
    // 5. y W_outᵀ on the reference's y.
    let w_out = weight(case, "out_proj.weight");
    let out_ref = time_major(&floats(&case["out"]), &z, z.dm);
    let s5 = worst(&values3(&blk.project_out(&y_tensor).unwrap()), &out_ref, |b, t, j| dot_bound(&y_ref[b][t], &w_out[j * di..][..di]));
    [s1, s2, s3, s4, s5]
}

const STAGES: [&str; 5] = ["in-projection", "convolution", "selection (Δ, B, C)", "scan, skip and gate", "out-projection"];

#[test]
fn the_mamba_block_is_mambas_mamba_inner_ref_stage_by_stage() {
    let f = fixture();
    let cases = f["mamba_inner_ref"].as_array().expect("cases");
    assert_eq!(cases.len(), 3);
    assert!(cases.iter().any(|c| c["mixer"] == "time_invariant"));
    assert_within_bounds(cases, &STAGES, |case| stage_ratios(case, &block(case)));
}

/// Every stage of every case meets the reference within its bound (`ratios` of a case: the
/// stages' worst |ours − reference| / bound).
pub(crate) fn assert_within_bounds(cases: &[Value], stages: &[&str; 5], ratios: impl Fn(&Value) -> [f64; 5]) {
    for case in cases {
        for (stage, ratio) in stages.iter().zip(ratios(case)) {
            assert!(ratio <= 1.0, "{}, {stage}: |ours − reference| reaches {ratio:.3} × the float32 rounding bound", case["name"]);
        }
    }
}

/// Each stage's control — a block with that stage's convention changed, whose ratio at that
/// stage is `control_ratio(stage)` — is rejected by a factor > 100.
pub(crate) fn assert_controls_rejected(stages: &[&str; 5], control_ratio: impl Fn(usize) -> f64) {
    for (stage, name) in stages.iter().enumerate() {
        let ratio = control_ratio(stage);
        assert!(ratio > 100.0, "a changed convention passes the {name} comparison ({ratio:.3} × the bound)");
    }
}

/// The block's forward is its stages composed: on the fixture's input it equals the stages run
/// one after the other on its own intermediate values, bit for bit.
#[test]
fn the_blocks_forward_is_its_stages_composed() {
    let f = fixture();
    let case = &f["mamba_inner_ref"][0];
    let (z, blk) = (sizes(case), block(case));
    let h = Tensor::from_vec(floats(&case["hidden"]), (z.batch, z.len, z.dm), &Device::Cpu).unwrap();
    let xz = blk.project_in(&h).unwrap();
    let x = blk.convolve(&xz.narrow(2, 0, z.di).unwrap()).unwrap();
    let by_stages = blk.project_out(&blk.mix(&x, &blk.selection(&x).unwrap(), Some(&xz.narrow(2, z.di, z.di).unwrap())).unwrap()).unwrap();
    assert_eq!(values3(&blk.forward(&h).unwrap()), values3(&by_stages));
}

/// Each stage's comparison rejects a block with that stage's convention changed: the halves of
/// [x | z] exchanged, the convolution's taps reversed (w[0] on the newest input), B and C
/// exchanged, the skip D dropped, the output channels permuted.
#[test]
fn each_stages_comparison_rejects_a_changed_convention() {
    let f = fixture();
    let case = &f["mamba_inner_ref"][0];
    let z = sizes(case);
    let (di, n, r, k) = (z.di, z.n, z.r, z.k);
    let mutate = |name: &str, change: &dyn Fn(&[f64]) -> Vec<f64>| {
        let blk = block(case);
        blk.set_weight(name, &change(&weight(case, name))).unwrap();
        blk
    };
    let mutants: [MambaBlock; 5] = [
        mutate("in_proj.weight", &|w| rows(w, z.dm, &|i| (i + di) % (2 * di))),
        mutate("conv1d.weight", &|w| reversed_taps(w, k)),
        mutate("x_proj.weight", &|w| {
            rows(w, di, &|i| {
                if i < r {
                    i
                } else if i < r + n {
                    i + n
                } else {
                    i - n
                }
            })
        }),
        mutate("D", &|w| vec![0.0; w.len()]),
        mutate("out_proj.weight", &|w| rows(w, di, &|i| z.dm - 1 - i)),
    ];
    assert_controls_rejected(&STAGES, |stage| stage_ratios(case, &mutants[stage])[stage]);
}
