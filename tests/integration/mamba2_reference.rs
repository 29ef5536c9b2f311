//! The trainable Mamba-2 block (`ssmcheck::train::mamba_block`, [`BlockMixer::ScalarDecay`] with
//! the gate) against state-spaces/mamba's `Mamba2.step` (float32, one head, `rmsnorm=False`, its
//! pure-torch path token by token), stage by stage, on the committed fixture
//! `tests/fixtures/mamba_reference.json` (`scripts/reference_fixtures.sh` records W_in's output,
//! the convolution's SiLU, the softplus that makes Δ, the out-projection's input y and the
//! block's output).
//!
//! Mamba2 orders W_in's rows [z | x | B | C | dt]; the suite's block orders them
//! [x | B | C | δ | z] (the order of its other mixers, z last): the fixture's W_in is loaded with
//! its rows permuted, and the in-projection's outputs compared column for column under the same
//! permutation. The convolution's channels, x then B then C, are in the same order in both.
//!
//! Each stage runs in f64 on the reference's own (float32) input to that stage and must meet
//! the reference's output within that stage's float32 rounding bound (`block_reference`'s, u =
//! 2⁻²⁴, γ_k = ku/(1 − ku), doubled):
//!
//! * the in- and out-projections: γ_k Σ|a_i w_i|;
//! * the convolution over x, B and C with its SiLU: `block_reference::conv_bound`;
//! * Δ = softplus(dt + b_dt), one per step: the float32 sum (u|dt + b_dt|, times softplus' = σ)
//!   and softplus (4uΔ), plus 8u₆₄(1 + Δ) for the f64 softplus;
//! * the scan on the reference's x, Δ, B, C with the skip D·x and the gate SiLU(z): the S6 bound
//!   of `reference.rs` (the step's e^{ΔA} and Δ·B·x are the S6 recurrence's, with one decay for
//!   every channel and state) with u·1.5 for A = −exp(A_log) in float32, and its skip and gate
//!   terms.
//!
//! Each stage has a negative control: the same comparison on a block with one convention
//! changed (W_in in Mamba2's row order, the convolution's taps reversed, Δ without b_dt, the
//! skip dropped, the output rows reversed), which it must reject by a factor > 100.

use crate::block_reference::{
    assert_controls_rejected, assert_within_bounds, conv_bound, dot_bound, reversed_taps, rows, time_major, values3, weight, worst, Sizes, UNIT,
};
use crate::reference::{fixture, floats, rounding_bound, scan, size, skip_and_gate, Sequence};
use candle_core::{Device, Tensor};
use serde_json::Value;
use ssmcheck::math::softplus::{sigmoid, softplus};
use ssmcheck::mc::StreamKey;
use ssmcheck::train::mamba_block::{BlockMixer, BlockShape, MambaBlock};

fn sizes(case: &Value) -> Sizes {
    Sizes {
        batch: size(case, "batch"),
        dm: size(case, "d_model"),
        di: size(case, "d_inner"),
        n: size(case, "dstate"),
        r: 0,
        k: size(case, "conv_width"),
        len: size(case, "length"),
    }
}

/// The suite's W_in row `i` is Mamba2's row `mamba2_row(i)`: [x | B | C | δ] are Mamba2's rows
/// after its z, and the suite's z (last) is Mamba2's first d_inner rows.
fn mamba2_row(z: &Sizes, i: usize) -> usize {
    let ssm = z.di + 2 * z.n + 1;
    if i < ssm {
        z.di + i
    } else {
        i - ssm
    }
}

/// The suite's block (the scalar-decay mixer, the gate on) with the case's weights.
fn block(case: &Value) -> MambaBlock {
    let z = sizes(case);
    let shape = BlockShape { d_model: z.dm, expand: z.di / z.dm, n: z.n, conv_width: z.k, mixer: BlockMixer::ScalarDecay, gate: true };
    let b = MambaBlock::init(shape, 1, StreamKey::new(0, "fixture")).unwrap();
    let w_in = weight(case, "in_proj.weight");
    b.set_weight("in_proj.weight", &rows(&w_in, z.dm, &|i| mamba2_row(&z, i))).unwrap();
    for (ours, theirs) in [
        ("conv1d.weight", "conv1d.weight"),
        ("conv1d.bias", "conv1d.bias"),
        ("dt_proj.bias", "dt_bias"),
        ("A_log", "A_log"),
        ("D", "D"),
        ("out_proj.weight", "out_proj.weight"),
    ] {
        b.set_weight(ours, &weight(case, theirs)).unwrap_or_else(|e| panic!("{ours}: {e}"));
    }
    b
}

/// A (batch, L, width) tensor from nested vectors [b][t][column].
fn tensor(nested: &[Vec<Vec<f64>>]) -> Tensor {
    let (batch, len, width) = (nested.len(), nested[0].len(), nested[0][0].len());
    Tensor::from_vec(nested.iter().flatten().flatten().copied().collect::<Vec<f64>>(), (batch, len, width), &Device::Cpu).unwrap()
}

/// Columns `from..from + count` of nested vectors [b][t][column].
fn columns(nested: &[Vec<Vec<f64>>], from: usize, count: usize) -> Vec<Vec<Vec<f64>>> {
    nested.iter().map(|s| s.iter().map(|row| row[from..from + count].to_vec()).collect()).collect()
}

const STAGES: [&str; 5] = ["in-projection", "convolution of x, B, C", "Δ", "scan, skip and gate", "out-projection"];

/// The five stages' worst ratios.
fn stage_ratios(case: &Value, blk: &MambaBlock) -> [f64; 5] {
    let z = sizes(case);
    let (di, n) = (z.di, z.n);
    let width = 2 * di + 2 * n + 1;
    // 1. W_in's output, ours [x | B | C | δ | z] against Mamba2's [z | x | B | C | dt].
    let hidden = floats(&case["hidden"]);
    let h = time_major(&hidden, &z, z.dm);
    let reference = time_major(&floats(&case["zxbcdt"]), &z, width);
    let in_ours_order: Vec<Vec<Vec<f64>>> =
        reference.iter().map(|s| s.iter().map(|row| (0..width).map(|i| row[mamba2_row(&z, i)]).collect()).collect()).collect();
    let w_in = weight(case, "in_proj.weight");
    let s1 = worst(&values3(&blk.project_in(&tensor(&h)).unwrap()), &in_ours_order, |b, t, j| dot_bound(&h[b][t], &w_in[mamba2_row(&z, j) * z.dm..][..z.dm]));
    // 2 and 3. From the reference's W_in output: the convolved x, B, C, and Δ.
    let (x_ours, [delta_ours, b_ours, c_ours], _) = blk.ssm_inputs(&tensor(&in_ours_order)).unwrap();
    let xbc_ref = time_major(&floats(&case["xBC"]), &z, di + 2 * n);
    let (cw, cb) = (weight(case, "conv1d.weight"), weight(case, "conv1d.bias"));
    let xbc_in = columns(&in_ours_order, 0, di + 2 * n);
    let conv = |b: usize, t: usize, c: usize| conv_bound(&cw, &cb, z.k, &xbc_in[b], t, c);
    let s2 = [(&x_ours, 0, di), (&b_ours, di, n), (&c_ours, di + n, n)]
        .map(|(ours, from, count)| worst(&values3(ours), &columns(&xbc_ref, from, count), |b, t, c| conv(b, t, from + c)))
        .into_iter()
        .fold(0.0, f64::max);
    let bias = weight(case, "dt_bias")[0];
    let delta_ref = time_major(&floats(&case["delta"]), &z, 1);
    let pre = |b: usize, t: usize| in_ours_order[b][t][di + 2 * n] + bias;
    let delta_bound = |b: usize, t: usize, _: usize| {
        let d = softplus(pre(b, t));
        2.0 * (sigmoid(pre(b, t)) * UNIT * pre(b, t).abs() + 4.0 * UNIT * d) + 8.0 * (f64::EPSILON / 2.0) * (1.0 + d)
    };
    let s3 = worst(&columns(&values3(&delta_ours), 0, 1), &delta_ref, delta_bound);
    // 4. The scan on the reference's x, Δ (one per step, every channel), B, C, with D and the
    // gate SiLU(z).
    let x_ref = columns(&xbc_ref, 0, di);
    let (b_ref, c_ref) = (columns(&xbc_ref, di, n), columns(&xbc_ref, di + n, n));
    let z_ref = columns(&in_ours_order, di + 2 * n + 1, di);
    let delta_wide: Vec<Vec<Vec<f64>>> = delta_ref.iter().map(|s| s.iter().map(|row| vec![row[0]; di]).collect()).collect();
    let y_ours = values3(&blk.mix(&tensor(&x_ref), &[tensor(&delta_wide), tensor(&b_ref), tensor(&c_ref)], Some(&tensor(&z_ref))).unwrap());
    let y_ref = time_major(&floats(&case["y"]), &z, di);
    let a = -weight(case, "A_log")[0].exp();
    let skip = weight(case, "D")[0];
    let mut s4 = 0.0f64;
    for b in 0..z.batch {
        let seq = Sequence {
            u: x_ref[b].iter().flatten().copied().collect(),
            delta: delta_wide[b].iter().flatten().copied().collect(),
            a: vec![a; n * di],
            b: b_ref[b].iter().flatten().copied().collect(),
            c: c_ref[b].iter().flatten().copied().collect(),
        };
        let (engine, bound) = (scan(&seq, di, n, z.len, false), rounding_bound(&seq, di, n, z.len, false, 1.5 * UNIT));
        s4 = s4.max(worst(&y_ours[b..=b], &y_ref[b..=b], |_, t, c| {
            skip_and_gate(engine[t * di + c], 2.0 * bound[t * di + c], Some(x_ref[b][t][c] * skip), Some(z_ref[b][t][c]), UNIT).1
        }));
    }
    // 5. y W_outᵀ on the reference's y.
    let w_out = weight(case, "out_proj.weight");
    let out_ref = time_major(&floats(&case["out"]), &z, z.dm);
    let s5 = worst(&values3(&blk.project_out(&tensor(&y_ref)).unwrap()), &out_ref, |b, t, j| dot_bound(&y_ref[b][t], &w_out[j * di..][..di]));
    [s1, s2, s3, s4, s5]
}

#[test]
fn the_mamba2_block_is_mamba2s_step_stage_by_stage() {
    let f = fixture();
    let cases = f["mamba2_step"].as_array().expect("the Mamba-2 cases");
    assert_eq!(cases.len(), 2);
    assert!(f["sources_sha256"]["modules/mamba2.py"].as_str().is_some_and(|h| h.len() == 64));
    assert_within_bounds(cases, &STAGES, |case| stage_ratios(case, &block(case)));
}

/// The block's forward is its stages composed, bit for bit (so the stage comparisons above are
/// comparisons of the forward).
#[test]
fn the_mamba2_blocks_forward_is_its_stages_composed() {
    let f = fixture();
    let case = &f["mamba2_step"][0];
    let (z, blk) = (sizes(case), block(case));
    let h = Tensor::from_vec(floats(&case["hidden"]), (z.batch, z.len, z.dm), &Device::Cpu).unwrap();
    let (x, inputs, gate) = blk.ssm_inputs(&blk.project_in(&h).unwrap()).unwrap();
    let by_stages = blk.project_out(&blk.mix(&x, &inputs, gate.as_ref()).unwrap()).unwrap();
    assert_eq!(values3(&blk.forward(&h).unwrap()), values3(&by_stages));
}

/// Each stage's comparison rejects a block with that stage's convention changed.
#[test]
fn each_mamba2_stages_comparison_rejects_a_changed_convention() {
    let f = fixture();
    let case = &f["mamba2_step"][0];
    let z = sizes(case);
    let mutate = |name: &str, values: Vec<f64>| {
        let blk = block(case);
        blk.set_weight(name, &values).unwrap();
        blk
    };
    let mutants: [MambaBlock; 5] = [
        mutate("in_proj.weight", weight(case, "in_proj.weight")),
        mutate("conv1d.weight", reversed_taps(&weight(case, "conv1d.weight"), z.k)),
        mutate("dt_proj.bias", vec![0.0]),
        mutate("D", vec![0.0]),
        mutate("out_proj.weight", rows(&weight(case, "out_proj.weight"), z.di, &|i| z.dm - 1 - i)),
    ];
    assert_controls_rejected(&STAGES, |stage| stage_ratios(case, &mutants[stage])[stage]);
}
