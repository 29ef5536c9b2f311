//! The explicit layer of 000 Lemma 3: one-layer Mamba-Δᵀ (Δ per state slot, eq 15/117) without
//! gate, d = 2|V| and N = |V|, for induction heads; built from the mixers of
//! [`model::mixer`](crate::model::mixer). `shift` = 0 is the printed Δ = softplus(w [I|0] x̂),
//! `shift` = ½ the corrected one (`proofs/recall.md`).

use crate::model::mixer::{Activation, Mixer, MixerKind, Projection, Readout, ShortConv, StepSize};
use nalgebra::{DMatrix, DVector};

/// Lemma 3's layer with `slots` state slots, Δ = softplus(w([I|0]x̂ − shift)).
pub fn lemma3(vocab: usize, slots: usize, w: f64, shift: f64) -> (Mixer, Readout) {
    let d = 2 * vocab;
    let prev_block = DMatrix::from_fn(slots, d, |i, a| f64::from(a == i));
    let cur_block = DMatrix::from_fn(slots, d, |i, a| f64::from(a == vocab + i));
    let mixer = Mixer {
        kind: MixerKind::DeltaT,
        conv: ShortConv {
            c0: DVector::from_fn(d, |a, _| f64::from(a < vocab)),
            c1: DVector::from_fn(d, |a, _| f64::from(a >= vocab)),
            bias: DVector::zeros(d),
            act: Activation::Identity,
        },
        conv_bc: None,
        lambda: DMatrix::from_element(d, slots, -1.0),
        delta: StepSize::Softplus { w: &prev_block * w, b: DVector::from_element(slots, -w * shift) },
        b: Projection::Linear(prev_block),
        c: Projection::Linear(cur_block),
        skip: None,
        gate: None,
    };
    let readout = Readout { w: DMatrix::from_fn(vocab, d, |l, a| f64::from(a == vocab + l)), b: DVector::zeros(vocab) };
    (mixer, readout)
}
