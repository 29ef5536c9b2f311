//! The explicit weights of 000 Theorems 2–4 (App. C.1), built as in the proofs from the mixers
//! of [`model::mixer`](crate::model::mixer): an embedding, one mixer and a readout that answer
//! every query of an MQAR instance ([`Construction`]).

use crate::mc::{Stream, StreamKey};
use crate::model::mixer::{Activation, Gate, GateWeights, Mixer, MixerKind, Projection, Readout, ShortConv, StepSize};
use crate::tasks::mqar::{MqarInstance, MqarSpec, Token};
use nalgebra::{DMatrix, DVector};

/// A built construction: embedding, mixer, readout.
pub struct Construction {
    /// Token → x_t.
    pub embed: Box<dyn Fn(Token) -> DVector<f64>>,
    /// The layer.
    pub mixer: Mixer,
    /// The output layer.
    pub readout: Readout,
}

impl Construction {
    /// The logits at every query, with its target.
    pub fn query_logits(&self, inst: &MqarInstance) -> Vec<(DVector<f64>, usize)> {
        let xs: Vec<DVector<f64>> = inst.tokens.iter().map(|&t| (self.embed)(t)).collect();
        let ys = self.mixer.forward(&xs);
        inst.queries().map(|(t, v)| (self.readout.logits(&ys[t]), v)).collect()
    }

    /// Fraction of queries answered correctly.
    pub fn accuracy(&self, inst: &MqarInstance) -> (u64, u64) {
        let q = self.query_logits(inst);
        (q.iter().filter(|(z, v)| correct_margin(z, *v) > 0.0).count() as u64, q.len() as u64)
    }

    /// The fraction of the MQAR sequences `0..count` of `spec` drawn from `key` whose every
    /// query it answers correctly.
    pub fn exactness(&self, spec: &MqarSpec, key: StreamKey, count: u64) -> crate::error::Result<f64> {
        let mut exact = 0;
        for i in 0..count {
            let (right, all) = self.accuracy(&spec.sample(&mut Stream::new(key, i))?);
            exact += u64::from(right == all);
        }
        Ok(exact as f64 / count as f64)
    }
}

/// `z_v − max_{l≠v} z_l`.
pub fn correct_margin(z: &DVector<f64>, v: usize) -> f64 {
    let other = z.iter().enumerate().filter(|&(l, _)| l != v).map(|(_, &x)| x).fold(f64::NEG_INFINITY, f64::max);
    z[v] - other
}

/// `[I_rows | 0]` (rows × d).
fn select_first(rows: usize, d: usize) -> DMatrix<f64> {
    DMatrix::from_fn(rows, d, |i, j| if i == j { 1.0 } else { 0.0 })
}

/// The MQAR proofs' SSM: Λ = 0 (no forgetting), Δ = 1, B = C = the first `slots` coordinates of
/// x̂, no gate; `conv_bc` only for Mamba-2.
fn no_forgetting(kind: MixerKind, conv: ShortConv, conv_bc: Option<(ShortConv, ShortConv)>, slots: usize) -> Mixer {
    let d = conv.c0.len();
    Mixer {
        kind,
        conv,
        conv_bc,
        lambda: DMatrix::zeros(d, slots),
        delta: StepSize::Constant(1.0),
        b: Projection::Linear(select_first(slots, d)),
        c: Projection::Linear(select_first(slots, d)),
        skip: None,
        gate: None,
    }
}

/// Theorem 2, step 1: one-hot, d = κ + |V|, N = `slots` (κ in the proof).
pub fn thm2_onehot(keys: usize, values: usize, slots: usize) -> Construction {
    let d = keys + values;
    let (k, v) = (2.0, 1.0);
    let mixer = no_forgetting(MixerKind::Mamba, ShortConv::uniform(d, 1.0, 2.0, 1.0, Activation::Relu), None, slots);
    let readout = Readout { w: DMatrix::from_fn(values, d, |l, a| if a == keys + l { v } else { 0.0 }), b: DVector::zeros(values) };
    let embed = move |t: Token| match t {
        Token::Key(i) => DVector::from_fn(d, |a, _| if a == i { k } else { 0.0 }),
        Token::Value(j) => DVector::from_fn(d, |a, _| if a == keys + j { v } else { 0.0 }),
    };
    Construction { embed: Box::new(embed), mixer, readout }
}

/// How the reduced-width constructions' output bias is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Bias {
    /// None (balanced codes need none; Theorem 4 as printed has none).
    None,
    /// Theorem 2's printed `b_o = −(c₀k − b) W_o s`.
    Printed,
}

/// Theorem 2, step 2: keys k e_i, values `[0; v̄_j + β1]` with codes v̄_j ∈ ℝ^p; d = κ + p.
pub fn thm2_reduced(keys: usize, codes: &[DVector<f64>], bias: Bias) -> Construction {
    let p = codes[0].len();
    let d = keys + p;
    let (k, beta, c0, c1, b) = (10.0, 2.0, 1.0, 10.0, 3.0);
    let mixer = no_forgetting(MixerKind::Mamba, ShortConv::uniform(d, c0, c1, b, Activation::Relu), None, keys);
    let w = DMatrix::from_fn(codes.len(), d, |l, a| if a >= keys { codes[l][a - keys] } else { 0.0 });
    // s = (c₁β − b)[0 | 1_p]; the paper's bias removes (c₀k − b) W_o s.
    let s = DVector::from_fn(d, |a, _| if a >= keys { c1 * beta - b } else { 0.0 });
    let bo = match bias {
        Bias::None => DVector::zeros(codes.len()),
        Bias::Printed => -(c0 * k - b) * (&w * &s),
    };
    let codes = codes.to_vec();
    let embed = move |t: Token| match t {
        Token::Key(i) => DVector::from_fn(d, |a, _| if a == i { k } else { 0.0 }),
        Token::Value(j) => DVector::from_fn(d, |a, _| if a >= keys { codes[j][a - keys] + beta } else { 0.0 }),
    };
    Construction { embed: Box::new(embed), mixer, readout: Readout { w, b: bo } }
}

/// Theorem 3, step 1 (Mamba-2): one-hot, d = κ + |V|, N = `slots`; conv_B a shift, conv_u = conv_C
/// the identity (through σ), λ = 0, Δ = 1, B = C = [I | 0].
pub fn thm3_onehot(keys: usize, values: usize, slots: usize, act: Activation) -> Construction {
    let mut c = thm3_codes(&one_hot_codes(keys), &one_hot_codes(values), act);
    c.mixer = no_forgetting(MixerKind::Mamba2, c.mixer.conv, c.mixer.conv_bc, slots);
    c
}

/// Theorem 3 with key codes (ℝ^{p_k}) and value codes (ℝ^{p_v}): d = p_k + p_v, N = p_k.
pub fn thm3_codes(codes_k: &[DVector<f64>], codes_v: &[DVector<f64>], act: Activation) -> Construction {
    let (pk, pv) = (codes_k[0].len(), codes_v[0].len());
    let d = pk + pv;
    let convs = (ShortConv::uniform(d, 1.0, 0.0, 0.0, act), ShortConv::uniform(d, 0.0, 1.0, 0.0, act));
    let mixer = no_forgetting(MixerKind::Mamba2, ShortConv::uniform(d, 0.0, 1.0, 0.0, act), Some(convs), pk);
    let w = DMatrix::from_fn(codes_v.len(), d, |l, a| if a >= pk { codes_v[l][a - pk] } else { 0.0 });
    let (ck, cv) = (codes_k.to_vec(), codes_v.to_vec());
    let embed = move |t: Token| match t {
        Token::Key(i) => DVector::from_fn(d, |a, _| if a < pk { ck[i][a] } else { 0.0 }),
        Token::Value(j) => DVector::from_fn(d, |a, _| if a >= pk { cv[j][a - pk] } else { 0.0 }),
    };
    Construction { embed: Box::new(embed), mixer, readout: Readout { w, b: DVector::zeros(codes_v.len()) } }
}

/// Theorem 4, step 1/2 (gated S4D block): block codes, d = κ·p; `codes` are the value codes
/// (one-hot e_j in ℝ^{|V|} for step 1, with β = 0; codes M e_j with β = 1 for step 2).
pub fn thm4(keys: usize, codes: &[DVector<f64>], beta: f64, gated: bool) -> Construction {
    let p = codes[0].len();
    let d = keys * p;
    let (k, c0, c1) = (10.0, 10.0, 1.0);
    let mixer = Mixer {
        kind: MixerKind::S4d,
        conv: ShortConv::uniform(d, c0, c1, k * c0, Activation::Relu),
        conv_bc: None,
        lambda: DMatrix::zeros(d, 1),
        delta: StepSize::Constant(1.0),
        b: Projection::Constant(DVector::from_element(1, 1.0)),
        c: Projection::Constant(DVector::from_element(1, 1.0)),
        skip: None,
        gate: gated.then_some(Gate { w: GateWeights::Identity, act: Activation::Relu }),
    };
    let w = DMatrix::from_fn(codes.len(), d, |l, a| codes[l][a % p]);
    let readout = Readout { w, b: DVector::zeros(codes.len()) };
    let codes = codes.to_vec();
    let embed = move |t: Token| match t {
        Token::Key(i) => DVector::from_fn(d, |a, _| if a / p == i { k } else { 0.0 }),
        Token::Value(j) => DVector::from_fn(d, |a, _| codes[j][a % p] + beta),
    };
    Construction { embed: Box::new(embed), mixer, readout }
}

/// The public [`one_hot`](crate::strategy::one_hot) codes as vectors.
pub fn one_hot_codes(n: usize) -> Vec<DVector<f64>> {
    crate::strategy::one_hot(n).into_iter().map(DVector::from_vec).collect()
}
