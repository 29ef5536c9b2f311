//! 002's simplified Mamba (Sec. 2.2, Eq. (2), Fig. 3 right) with |K| ≥ 1 keys and N states:
//! N = |K| as trained for Figures 5 and 6 ("we use the original B(x̂_t), C(x̂_t) ∈ ℝ^N without
//! simplification"), other N for the state-size sweep of 000's Fig. A.3. Written once in candle tensors for training; [`RecallMamba::to_model`] gives
//! the same weights as the suite's [`Mixer`] and [`Readout`], which must compute the same logits
//! (a test).
//!
//! With n = |V| tokens and d = 2n channels:
//!
//! - fixed embedding and convolution: `x̂_t = [e_{x_{t−1}}; e_{x_t}]` (the "doubling trick", a
//!   kernel-2 convolution with weights `[1; 0]` on x_{t−1} and `[0; 1]` on x_t; x_{−1} = 0);
//! - learned: `Δ_t = softplus(W_Δ x̂_t + b_Δ)` ∈ ℝ^d, `Λ = −exp(θ)` (d × N, Mamba's
//!   parametrisation, S4D-real start `Λ[a,s] = −(s+1)`), `B_t = W_B x̂_t`, `C_t = W_C x̂_t` ∈ ℝ^N;
//! - the scan `h_t = e^{Λ ⊙ Δ_t} ⊙ h_{t−1} + (Δ_t ⊙ x̂_t) B_tᵀ`, `y_t = h_t C_t`;
//! - fixed read-out `W_o = [−I I]`: logits `z_t = y_t[n:] − y_t[:n]` (App. B's simplification;
//!   [`RecallMamba::learn_readout`] learns W_o instead, as the paper's Figure 7 did).
//!
//! [`RecallMamba::with_block_components`] gives back what App. B's simplification removed from
//! Mamba's block (Fig. 3 left) except what would undo the channels' token basis, in which
//! Figure 7's `(−I, I)` is written: a learned depthwise convolution (kernel 2, per-channel
//! weights and bias, SiLU) in place of the fixed pair, Mamba's skip `D ⊙ x̂_t`, and the SiLU
//! gate of the embedding, `ỹ_t = SiLU(W_g x_t) ⊙ (y_t + D ⊙ x̂_t)`. The embedding stays the
//! doubled one-hot `x_t = [e_v; e_v]`: every step is then channel-wise except W_Δ, B, C and the
//! gate's W_g, so channel a of y_t still belongs to token a mod n; the fixed pair's weights
//! (c₀ = [1; 0], c₁ = [0; 1], b = 0) give SiLU(1) ≈ 0.73 times App. B's x̂_t, a scale the
//! read-out absorbs.
//!
//! Initialisation (the paper gives none; Mamba's where it has one): W_Δ entries uniform on
//! [−0.25, 0.25], b_Δ so that softplus(b_Δ) is log-uniform on [10⁻³, 10⁻¹], W_B and W_C entries
//! N(0, 1/d), a learned W_o's entries N(0, 1/d); the block's components as PyTorch and Mamba
//! start them: the convolution's weights and bias uniform on ±1/√2 (a depthwise kernel of 2 has
//! fan-in 2), D = 1, W_g uniform on ±1/√d (the input projection's bound).

use super::adam::{Adam, AdamConfig};
use super::fit::{Classifier, RunKeys, Targets};
use super::scan_op::{forward_only, selective_scan};
use super::{silu, softplus, var};
use crate::error::{Error, Result};
use crate::math::softplus::softplus_inv;
use crate::mc::{Stream, StreamKey};
use crate::model::mixer::{Activation, Gate, GateWeights, Mixer, MixerKind, Projection, Readout, ShortConv, StepSize};
use crate::tasks::associative_recall::latest_association;
use crate::tasks::mqar::{MqarSpec, QueryPlacement, Token};
use candle_core::{DType, Device, Tensor, Var, D};
use nalgebra::{DMatrix, DVector};

/// The sizes of a [`RecallMamba`] and of its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecallShape {
    /// n = |V|: keys 0..|K|−1, values |K|..n−1.
    pub vocab: usize,
    /// |K|.
    pub keys: usize,
    /// The state size N (002's Figures 5 and 6 have N = |K|).
    pub states: usize,
}

impl RecallShape {
    /// d = 2n channels.
    pub fn channels(&self) -> usize {
        2 * self.vocab
    }
}

/// Which weights training changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trainable {
    /// W_Δ, b_Δ, Λ, W_B and W_C.
    All,
    /// W_B and W_C stay at their random initialisation (the negative control of Figures 5
    /// and 6: B and C cannot learn to select positions).
    FrozenProjections,
}

/// 002's simplified Mamba with trainable weights (f64, CPU).
#[derive(Clone, Debug)]
pub struct RecallMamba {
    /// The sizes.
    pub shape: RecallShape,
    /// What training changes.
    pub trainable: Trainable,
    w_delta: Var,
    b_delta: Var,
    log_neg_lambda: Var,
    w_b: Var,
    w_c: Var,
    /// A learned read-out W_o (n × d); `None` is the fixed [−I I].
    w_out: Option<Var>,
    /// Mamba's components around the scan; `None`: App. B's simplification.
    block: Option<BlockVars>,
}

/// The trainable components of Mamba's block ([`RecallMamba::with_block_components`]).
#[derive(Clone, Debug)]
struct BlockVars {
    /// The convolution's weight on x_{t−1}, on x_t, and its bias (subtracted), each 1 × d.
    conv_c0: Var,
    conv_c1: Var,
    conv_bias: Var,
    /// D (1 × d).
    skip: Var,
    /// W_g (d × d).
    w_gate: Var,
}

/// Mamba's components around the scan as [`RecallMamba::with_block_components`] learns them:
/// `x̂_t = SiLU(c₀ ⊙ x_{t−1} + c₁ ⊙ x_t − b)`, `ỹ_t = SiLU(W_g x_t) ⊙ (y_t + D ⊙ x̂_t)`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockComponents {
    /// c₀ (d): the convolution's weight on the previous embedding.
    pub conv_c0: DVector<f64>,
    /// c₁ (d): its weight on the current embedding.
    pub conv_c1: DVector<f64>,
    /// b (d): its bias, subtracted.
    pub conv_bias: DVector<f64>,
    /// D (d): the skip.
    pub skip: DVector<f64>,
    /// W_g (d × d): the gate's projection of the embedding.
    pub w_gate: DMatrix<f64>,
}

/// The weights of a [`RecallMamba`] as matrices (rows = output coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct RecallWeights {
    /// W_Δ (d × d).
    pub w_delta: DMatrix<f64>,
    /// b_Δ (d).
    pub b_delta: DVector<f64>,
    /// Λ (d × N).
    pub lambda: DMatrix<f64>,
    /// W_B (N × d).
    pub w_b: DMatrix<f64>,
    /// W_C (N × d).
    pub w_c: DMatrix<f64>,
    /// The read-out W_o (n × d): [`minus_identity_identity`] unless learned.
    pub readout: DMatrix<f64>,
    /// Mamba's components around the scan; `None`: App. B's fixed pair convolution, no skip,
    /// no gate.
    pub block: Option<BlockComponents>,
}

/// 002's fixed read-out `[−I I]` (n × 2n): logit k is `y[n + k] − y[k]`.
pub fn minus_identity_identity(n: usize) -> DMatrix<f64> {
    DMatrix::from_fn(n, 2 * n, |k, a| {
        if a == k {
            -1.0
        } else if a == n + k {
            1.0
        } else {
            0.0
        }
    })
}

/// `x̂ = [e_prev; e_cur]` (prev `None` at t = 0) over n tokens.
pub fn pair_input(n: usize, prev: Option<usize>, cur: usize) -> DVector<f64> {
    let mut x = DVector::zeros(2 * n);
    if let Some(p) = prev {
        x[p] = 1.0;
    }
    x[n + cur] = 1.0;
    x
}

/// `W x̂` for the pair x̂ = [e_prev; e_cur] (prev `None` at t = 0) over n tokens, W with 2n
/// columns (W_B or W_C): the sum of two columns, without forming x̂.
pub fn pair_projection(w: &DMatrix<f64>, n: usize, prev: Option<usize>, cur: usize) -> Vec<f64> {
    (0..w.nrows()).map(|s| prev.map_or(0.0, |p| w[(s, p)]) + w[(s, n + cur)]).collect()
}

impl RecallMamba {
    /// Fresh weights from `key` (see the module's initialisation).
    pub fn init(shape: RecallShape, key: StreamKey, trainable: Trainable) -> Result<Self> {
        let RecallShape { vocab, keys, states } = shape;
        if keys == 0 || keys >= vocab || states == 0 {
            return Err(Error::InvalidParameter(format!(
                "002's simplified Mamba needs 1 ≤ |K| < |V| and N ≥ 1 (got |K| = {keys}, |V| = {vocab}, N = {states})"
            )));
        }
        let (d, n) = (shape.channels(), states);
        let mut s = Stream::new(key, 0);
        let w_delta = var((0..d * d).map(|_| 0.5 * s.uniform() - 0.25).collect(), d, d)?;
        let log_uniform = |u: f64| softplus_inv((1e-3f64.ln() + u * (1e-1f64.ln() - 1e-3f64.ln())).exp());
        let b_delta = var((0..d).map(|_| log_uniform(s.uniform())).collect(), d, 1)?;
        let scale = 1.0 / (d as f64).sqrt();
        let w_b = var((0..n * d).map(|_| scale * s.normal()).collect(), n, d)?;
        let w_c = var((0..n * d).map(|_| scale * s.normal()).collect(), n, d)?;
        let log_neg_lambda = var((0..d * n).map(|i| ((i % n + 1) as f64).ln()).collect(), d, n)?;
        Ok(RecallMamba { shape, trainable, w_delta, b_delta, log_neg_lambda, w_b, w_c, w_out: None, block: None })
    }

    /// The same model with Mamba's block components around the scan (the module's
    /// [`with_block_components`](RecallMamba::with_block_components) paragraph), drawn from
    /// `key` in the order c₀, c₁, b, W_g (D = 1); they are trained whatever [`Trainable`] says.
    pub fn with_block_components(self, key: StreamKey) -> Result<Self> {
        let d = self.shape.channels();
        let mut s = Stream::new(key, 0);
        let conv_bound = 0.5f64.sqrt();
        let conv_c0 = super::uniform(&mut s, 1, d, conv_bound)?;
        let conv_c1 = super::uniform(&mut s, 1, d, conv_bound)?;
        let conv_bias = super::uniform(&mut s, 1, d, conv_bound)?;
        let w_gate = super::uniform(&mut s, d, d, 1.0 / (d as f64).sqrt())?;
        let skip = var(vec![1.0; d], 1, d)?;
        Ok(RecallMamba { block: Some(BlockVars { conv_c0, conv_c1, conv_bias, skip, w_gate }), ..self })
    }

    /// The same model with a learned read-out W_o (n × d, entries N(0, 1/d) from `key`) in
    /// place of the fixed [−I I]; it is trained whatever [`Trainable`] says.
    pub fn learn_readout(self, key: StreamKey) -> Result<Self> {
        let (n, d) = (self.shape.vocab, self.shape.channels());
        let mut s = Stream::new(key, 0);
        let scale = 1.0 / (d as f64).sqrt();
        let w_out = var((0..n * d).map(|_| scale * s.normal()).collect(), n, d)?;
        Ok(RecallMamba { w_out: Some(w_out), ..self })
    }

    /// The variables training changes.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.w_delta.clone(), self.b_delta.clone(), self.log_neg_lambda.clone()];
        if self.trainable == Trainable::All {
            v.extend([self.w_b.clone(), self.w_c.clone()]);
        }
        v.extend(self.w_out.clone());
        if let Some(b) = &self.block {
            v.extend([b.conv_c0.clone(), b.conv_c1.clone(), b.conv_bias.clone(), b.skip.clone(), b.w_gate.clone()]);
        }
        v
    }

    /// x̂_t for a batch of token sequences of one length (batch × T × d).
    fn inputs(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let (batch, len, n) = (tokens.len(), tokens.first().map_or(0, Vec::len), self.shape.vocab);
        let mut x = vec![0.0; batch * len * 2 * n];
        for (b, seq) in tokens.iter().enumerate() {
            for (t, &cur) in seq.iter().enumerate() {
                let row = &mut x[(b * len + t) * 2 * n..][..2 * n];
                if t > 0 {
                    row[seq[t - 1]] = 1.0;
                }
                row[n + cur] = 1.0;
            }
        }
        Tensor::from_vec(x, (batch, len, 2 * n), &Device::Cpu)
    }

    /// The doubled one-hot embeddings `[e_v; e_v]` of a batch of token sequences of one length
    /// (batch × T × d), and the same one step later (`x_{t−1}`, zero at t = 0).
    fn embeddings(&self, tokens: &[Vec<usize>]) -> candle_core::Result<(Tensor, Tensor)> {
        let (batch, len, n) = (tokens.len(), tokens.first().map_or(0, Vec::len), self.shape.vocab);
        let (mut cur, mut prev) = (vec![0.0; batch * len * 2 * n], vec![0.0; batch * len * 2 * n]);
        for (b, seq) in tokens.iter().enumerate() {
            for (t, &v) in seq.iter().enumerate() {
                let at = (b * len + t) * 2 * n;
                cur[at + v] = 1.0;
                cur[at + n + v] = 1.0;
                if t > 0 {
                    prev[at + seq[t - 1]] = 1.0;
                    prev[at + n + seq[t - 1]] = 1.0;
                }
            }
        }
        Ok((Tensor::from_vec(cur, (batch, len, 2 * n), &Device::Cpu)?, Tensor::from_vec(prev, (batch, len, 2 * n), &Device::Cpu)?))
    }

    /// The logits z_t (batch × T × n) of a batch of token sequences of one length.
    pub fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let embedded = match &self.block {
            None => None,
            Some(b) => {
                let (cur, prev) = self.embeddings(tokens)?;
                let mixed = (prev.broadcast_mul(b.conv_c0.as_tensor())? + cur.broadcast_mul(b.conv_c1.as_tensor())?)?;
                Some((silu(&mixed.broadcast_sub(b.conv_bias.as_tensor())?)?, cur))
            }
        };
        let x = match &embedded {
            None => self.inputs(tokens)?,
            Some((x, _)) => x.clone(),
        };
        let (batch, len, d) = x.dims3()?;
        let flat = x.reshape((batch * len, d))?;
        let pre = flat.matmul(&self.w_delta.as_tensor().t()?)?.broadcast_add(&self.b_delta.as_tensor().t()?)?;
        let delta = softplus(&pre)?.reshape((batch, len, d))?;
        let b = flat.matmul(&self.w_b.as_tensor().t()?)?.reshape((batch, len, self.shape.states))?;
        let c = flat.matmul(&self.w_c.as_tensor().t()?)?.reshape((batch, len, self.shape.states))?;
        let a = self.log_neg_lambda.as_tensor().exp()?.neg()?.t()?.contiguous()?;
        let mut y = selective_scan(&x, &delta, &a, &b, &c)?;
        if let (Some(block), Some((_, cur))) = (&self.block, &embedded) {
            let gate = silu(&cur.reshape((batch * len, d))?.matmul(&block.w_gate.as_tensor().t()?)?)?.reshape((batch, len, d))?;
            y = ((y + x.broadcast_mul(block.skip.as_tensor())?)? * gate)?;
        }
        let n = self.shape.vocab;
        match &self.w_out {
            None => y.narrow(D::Minus1, n, n)? - y.narrow(D::Minus1, 0, n)?,
            Some(w) => y.reshape((batch * len, d))?.matmul(&w.as_tensor().t()?)?.reshape((batch, len, n)),
        }
    }

    /// The weights as matrices.
    pub fn weights(&self) -> Result<RecallWeights> {
        let matrix = super::var_matrix;
        Ok(RecallWeights {
            w_delta: matrix(&self.w_delta)?,
            b_delta: DVector::from_column_slice(matrix(&self.b_delta)?.as_slice()),
            lambda: matrix(&self.log_neg_lambda)?.map(|v| -v.exp()),
            w_b: matrix(&self.w_b)?,
            w_c: matrix(&self.w_c)?,
            readout: self.w_out.as_ref().map_or_else(|| Ok(minus_identity_identity(self.shape.vocab)), matrix)?,
            block: match &self.block {
                None => None,
                Some(b) => {
                    let row = |v: &Var| matrix(v).map(|m| DVector::from_column_slice(m.as_slice()));
                    Some(BlockComponents {
                        conv_c0: row(&b.conv_c0)?,
                        conv_c1: row(&b.conv_c1)?,
                        conv_bias: row(&b.conv_bias)?,
                        skip: row(&b.skip)?,
                        w_gate: matrix(&b.w_gate)?,
                    })
                }
            },
        })
    }

    /// The same weights as the suite's mixer and read-out: embedding `[e_v; e_v]`, the pair
    /// convolution (or the block's learned one), Mamba's recurrence, the block's skip and gate
    /// when it has them, the read-out W_o. Returns the mixer, the read-out and the embeddings x_t
    /// of `tokens`.
    pub fn to_model(&self, tokens: &[usize]) -> Result<(Mixer, Readout, Vec<DVector<f64>>)> {
        let w = self.weights()?;
        let n = self.shape.vocab;
        let d = 2 * n;
        let half = |first: f64| DVector::from_fn(d, |a, _| if a < n { first } else { 1.0 - first });
        let (conv, skip, gate) = match w.block {
            None => (ShortConv { c0: half(1.0), c1: half(0.0), bias: DVector::zeros(d), act: Activation::Identity }, None, None),
            Some(b) => (
                ShortConv { c0: b.conv_c0, c1: b.conv_c1, bias: b.conv_bias, act: Activation::Silu },
                Some(b.skip),
                Some(Gate { w: GateWeights::Dense(b.w_gate), act: Activation::Silu }),
            ),
        };
        let mixer = Mixer {
            kind: MixerKind::Mamba,
            conv,
            conv_bc: None,
            lambda: w.lambda,
            delta: StepSize::Softplus { w: w.w_delta, b: w.b_delta },
            b: Projection::Linear(w.w_b),
            c: Projection::Linear(w.w_c),
            skip,
            gate,
        };
        let readout = Readout { w: w.readout, b: DVector::zeros(n) };
        let xs = tokens.iter().map(|&v| DVector::from_fn(d, |a, _| f64::from(a % n == v))).collect();
        Ok((mixer, readout, xs))
    }
}

impl RecallMamba {
    /// A model with the given weights, its read-out learned when `weights.readout` is not 002's
    /// fixed [−I I]. Errors when a matrix's size disagrees with `shape` or an entry of Λ is not
    /// negative (Λ = −exp(θ) has no other values).
    pub fn from_weights(shape: RecallShape, weights: &RecallWeights, trainable: Trainable) -> Result<Self> {
        let (d, n, v) = (shape.channels(), shape.states, shape.vocab);
        let sizes = [
            ("W_Δ", &weights.w_delta, d, d),
            ("Λ", &weights.lambda, d, n),
            ("W_B", &weights.w_b, n, d),
            ("W_C", &weights.w_c, n, d),
            ("W_o", &weights.readout, v, d),
        ];
        if let Some((name, m, r, c)) = sizes.iter().find(|(_, m, r, c)| m.shape() != (*r, *c)) {
            return Err(Error::InvalidParameter(format!("{name} is {} × {}, the shape needs {r} × {c}", m.nrows(), m.ncols())));
        }
        if weights.b_delta.len() != d {
            return Err(Error::InvalidParameter(format!("b_Δ has {} entries, the shape needs {d}", weights.b_delta.len())));
        }
        if let Some(l) = weights.lambda.iter().find(|&&l| l >= 0.0 || l.is_nan()) {
            return Err(Error::InvalidParameter(format!("every entry of Λ must be negative (Λ = −exp(θ)); got {l}")));
        }
        let row_major = |m: &DMatrix<f64>| var(m.transpose().as_slice().to_vec(), m.nrows(), m.ncols());
        let w_out = if weights.readout == minus_identity_identity(v) { None } else { Some(row_major(&weights.readout)?) };
        let block = match &weights.block {
            None => None,
            Some(b) => {
                let vectors = [("c₀", &b.conv_c0), ("c₁", &b.conv_c1), ("the convolution's bias", &b.conv_bias), ("D", &b.skip)];
                if let Some((name, x)) = vectors.iter().find(|(_, x)| x.len() != d) {
                    return Err(Error::InvalidParameter(format!("{name} has {} entries, the shape needs {d}", x.len())));
                }
                if b.w_gate.shape() != (d, d) {
                    return Err(Error::InvalidParameter(format!("W_g is {} × {}, the shape needs {d} × {d}", b.w_gate.nrows(), b.w_gate.ncols())));
                }
                let row = |x: &DVector<f64>| var(x.as_slice().to_vec(), 1, d);
                Some(BlockVars {
                    conv_c0: row(&b.conv_c0)?,
                    conv_c1: row(&b.conv_c1)?,
                    conv_bias: row(&b.conv_bias)?,
                    skip: row(&b.skip)?,
                    w_gate: row_major(&b.w_gate)?,
                })
            }
        };
        Ok(RecallMamba {
            shape,
            trainable,
            w_delta: row_major(&weights.w_delta)?,
            b_delta: var(weights.b_delta.as_slice().to_vec(), d, 1)?,
            log_neg_lambda: row_major(&weights.lambda.map(|l| (-l).ln()))?,
            w_b: row_major(&weights.w_b)?,
            w_c: row_major(&weights.w_c)?,
            w_out,
            block,
        })
    }
}

/// The per-write forgetting factor r = e^{ΛΔ} of [`slot_memory`]: every write multiplies what
/// the value channels hold by r, and r / (1 − r) < 1 keeps the latest write of a slot above the
/// sum of all its earlier ones.
pub const SLOT_MEMORY_FORGETTING: f64 = 0.4;

/// 002 Sec. 3's write / read / forget mechanism for |K| keys, built by hand with one state per
/// key (N = |K|, the setting of Figures 5 and 6): a solution of latest-association recall
/// ([`RecallData::Latest`]) with the spikes the paper describes.
///
/// - **Write** at a pair (key k, value v): B = W_B x̂ = e_k (column k of W_B, the previous token,
///   is e_k; every other column is 0), and Δ = 1 on the value channels n + v′ (W_Δ's entries from
///   the key columns, 60 + softplus⁻¹(1), against the bias −60) and Δ = 0 elsewhere
///   (softplus(−60) rounds to 0 in f64), so state k of channel n + v gains 1.
/// - **Forget**: Λ = ln r on every entry, so each write multiplies every state of the value
///   channels by r = [`SLOT_MEMORY_FORGETTING`]; nothing decays between writes (Δ = 0).
/// - **Read** at a key k: C = W_C x̂ = e_k (column n + k of W_C, the current token), so
///   y = h[:, k] and the logit of value v is h[n + v, k] − h[v, k] = h[n + v, k] (the first-half
///   channels receive nothing: their Δ is 0), which the latest value written to key k maximises.
///
/// Errors unless N = |K|.
pub fn slot_memory(shape: RecallShape) -> Result<RecallWeights> {
    let RecallShape { vocab: n, keys, states } = shape;
    if states != keys {
        return Err(Error::InvalidParameter(format!("the slot memory has one state per key: N = |K| (got N = {states}, |K| = {keys})")));
    }
    let d = 2 * n;
    const OFF: f64 = -60.0;
    let on = -OFF + softplus_inv(1.0);
    let value_channel = |a: usize| a >= n + keys;
    Ok(RecallWeights {
        w_delta: DMatrix::from_fn(d, d, |a, col| if value_channel(a) && col < keys { on } else { 0.0 }),
        b_delta: DVector::from_element(d, OFF),
        lambda: DMatrix::from_element(d, states, SLOT_MEMORY_FORGETTING.ln()),
        w_b: DMatrix::from_fn(states, d, |s, col| f64::from(u8::from(col == s))),
        w_c: DMatrix::from_fn(states, d, |s, col| f64::from(u8::from(col == n + s))),
        readout: minus_identity_identity(n),
        block: None,
    })
}

impl Classifier for RecallMamba {
    fn vars(&self) -> Vec<Var> {
        RecallMamba::vars(self)
    }

    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        RecallMamba::logits(self, tokens)
    }
}

/// The mean cross-entropy of `logits` (batch × T × n) over the positions with a target (the
/// queries), and how many there are.
pub fn query_cross_entropy(logits: &Tensor, targets: &[Vec<Option<usize>>]) -> candle_core::Result<(Tensor, usize)> {
    let (batch, len, v) = logits.dims3()?;
    let flat = logits.reshape((batch * len, v))?;
    let ids: Vec<u32> = targets.iter().flatten().map(|t| t.unwrap_or(0) as u32).collect();
    let mask: Vec<f64> = targets.iter().flatten().map(|t| f64::from(u8::from(t.is_some()))).collect();
    let queries = mask.iter().filter(|&&m| m > 0.0).count();
    let picked = flat.gather(&Tensor::from_vec(ids, (batch * len, 1), &Device::Cpu)?, 1)?.squeeze(1)?;
    let per = (flat.log_sum_exp(D::Minus1)? - picked)?;
    let loss = (per * Tensor::from_vec(mask, batch * len, &Device::Cpu)?)?.sum_all()?;
    Ok(((loss / queries.max(1) as f64)?, queries))
}

/// Per sequence: (queries answered right, queries), a query answered right when its target is
/// the strict argmax of the logits.
pub fn query_scores(logits: &Tensor, targets: &[Vec<Option<usize>>]) -> candle_core::Result<Vec<(usize, usize)>> {
    let z = logits.to_dtype(DType::F64)?.to_vec3::<f64>()?;
    Ok(z.iter()
        .zip(targets)
        .map(|(seq, want)| {
            seq.iter()
                .zip(want)
                .filter_map(|(zt, y)| y.map(|y| zt.iter().enumerate().all(|(k, &v)| k == y || v < zt[y])))
                .fold((0, 0), |(r, a), ok| (r + usize::from(ok), a + 1))
        })
        .collect())
}

/// Held-out sequences scored per forward pass (bounds the memory of a scoring pass).
const SCORING_CHUNK: usize = 500;

/// The query accuracy of `model` on `batch` (scored in chunks, which bounds the memory of a
/// forward pass), one value per sequence that has a query (the fraction of its queries
/// answered right), in order.
pub fn held_out_accuracies(model: &(impl Classifier + ?Sized), (tokens, targets): &RecallBatch) -> Result<Vec<f64>> {
    let mut accuracies = Vec::with_capacity(tokens.len());
    for (tokens, targets) in tokens.chunks(SCORING_CHUNK).zip(targets.chunks(SCORING_CHUNK)) {
        let scores = forward_only(|| model.logits(tokens)).and_then(|z| query_scores(&z, targets)).map_err(|e| super::candle_error("scoring", e))?;
        accuracies.extend(scores.iter().filter(|&&(_, all)| all > 0).map(|&(right, all)| right as f64 / all as f64));
    }
    Ok(accuracies)
}

/// The settings of a recall training run.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct RecallFit {
    /// Sequence length T.
    pub len: usize,
    /// What the sequences are.
    pub data: RecallData,
    /// Adam steps.
    pub steps: usize,
    /// Fresh sequences per step.
    pub batch: usize,
    /// Adam's settings (constant learning rate).
    pub adam: AdamConfig,
    /// What training predicts at the queries (held-out scoring always uses the task's own).
    pub targets: Targets,
    /// Where the loss is taken (held-out scoring is always at the queries).
    pub objective: Objective,
    /// Early stopping: training ends before `steps` once the mean loss of the last
    /// [`STOP_WINDOW`] steps is below this (None: every step runs). 000 App. D stops when the
    /// validation loss is below 10⁻⁶.
    pub stop_below: Option<f64>,
}

/// The steps whose mean training loss [`RecallFit::stop_below`] compares.
pub const STOP_WINDOW: usize = 20;

impl RecallFit {
    /// `steps` Adam steps (β's and ε at their defaults, a constant learning rate `lr`) on batches
    /// of 16 fresh sequences of `data` at length `len`, on the task's targets with the loss at the
    /// queries: the settings 002's figures train with; change a field for anything else.
    pub fn new(len: usize, data: RecallData, steps: usize, lr: f64) -> RecallFit {
        RecallFit {
            len,
            data,
            steps,
            batch: 16,
            adam: AdamConfig { lr, ..Default::default() },
            targets: Targets::Task,
            objective: Objective::Queries,
            stop_below: None,
        }
    }
}

/// Where a recall training run's loss is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Objective {
    /// At the queries only.
    Queries,
    /// At the queries, and at every other position the current token itself: 002 App. A's "we
    /// enforce the model to output identity on this position as it provides more interpretable
    /// results".
    IdentityElsewhere,
}

/// The sequences a [`RecallMamba`] is trained and scored on, over its vocabulary (keys
/// 0..|K|−1, values |K|..n−1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecallData {
    /// 002's Algorithm 1 with maximum noise length n_ε: the latest association of each queried
    /// key ([`latest_association`]).
    Latest {
        /// n_ε.
        max_noise: usize,
    },
    /// 000's MQAR ([`MqarSpec`]): κ = |K| pairs, then each key queried once; value j is token
    /// |K| + j.
    Mqar {
        /// Where the queries sit.
        placement: QueryPlacement,
    },
}

/// Token sequences and, per position, the query's target (None where nothing is asked).
pub type RecallBatch = (Vec<Vec<usize>>, Vec<Vec<Option<usize>>>);

/// The sequences `first..first + count` of the stream `key` ([`RecallFit::data`]): tokens and
/// targets.
pub fn recall_batch(shape: RecallShape, cfg: &RecallFit, key: StreamKey, first: u64, count: usize) -> Result<RecallBatch> {
    let (n, k) = (shape.vocab, shape.keys);
    (first..first + count as u64)
        .map(|i| {
            let s = &mut Stream::new(key, i);
            match cfg.data {
                RecallData::Latest { max_noise } => latest_association(s, n, k, max_noise, cfg.len),
                RecallData::Mqar { placement } => MqarSpec { keys: k, values: n - k, len: cfg.len, placement }.sample(s).map(|m| {
                    let token = |t: &Token| match *t {
                        Token::Key(i) => i,
                        Token::Value(j) => k + j,
                    };
                    (m.tokens.iter().map(token).collect(), m.targets.iter().map(|t| t.map(|j| k + j)).collect())
                }),
            }
        })
        .collect::<Result<Vec<_>>>()
        .map(|v| v.into_iter().unzip())
}

/// One optimiser step on a batch (forward, cross-entropy at the queries, backward, Adam): the
/// batch's loss before the update.
pub fn recall_train_step(model: &(impl Classifier + ?Sized), opt: &mut Adam, (tokens, targets): &RecallBatch) -> Result<f64> {
    let err = |e| super::candle_error("training", e);
    let (loss, _) = query_cross_entropy(&model.logits(tokens).map_err(err)?, targets).map_err(err)?;
    let value = loss.to_scalar::<f64>().map_err(err)?;
    opt.backward_step(&loss).map_err(err)?;
    Ok(value)
}

/// Trains `model` with the loss at the query positions on fresh batches of `shape`'s
/// vocabulary and keys from `keys.train` (step s uses sequences `s·batch..(s+1)·batch`): the
/// loss at every step, before its update. With [`Targets::Shuffled`] each query's target is an
/// independent uniform value token; with [`Objective::IdentityElsewhere`] every other position's
/// target is its own token. With [`RecallFit::stop_below`] the losses end at the step that
/// stopped training. The model is 002's simplified Mamba (`shape` its own) or
/// any other [`Classifier`] over the same vocabulary (the attention baseline of 002 Table 1).
pub fn fit_recall(model: &(impl Classifier + ?Sized), shape: RecallShape, cfg: &RecallFit, keys: &RunKeys) -> Result<Vec<f64>> {
    let mut opt = Adam::new(model.vars(), cfg.adam).map_err(|e| super::candle_error("training", e))?;
    let shuffled = StreamKey::new(keys.train.as_u64(), "shuffled targets");
    let RecallShape { vocab, keys: k, .. } = shape;
    let mut losses = Vec::with_capacity(cfg.steps);
    for step in 0..cfg.steps {
        let first = (step * cfg.batch) as u64;
        let (tokens, mut targets) = recall_batch(shape, cfg, keys.train, first, cfg.batch)?;
        if cfg.targets == Targets::Shuffled {
            for (i, seq) in targets.iter_mut().enumerate() {
                let mut s = Stream::new(shuffled, first + i as u64);
                for t in seq.iter_mut().flatten() {
                    *t = k + ((s.uniform() * (vocab - k) as f64) as usize).min(vocab - k - 1);
                }
            }
        }
        if cfg.objective == Objective::IdentityElsewhere {
            for (seq, want) in tokens.iter().zip(targets.iter_mut()) {
                for (&x, y) in seq.iter().zip(want.iter_mut()) {
                    y.get_or_insert(x);
                }
            }
        }
        losses.push(recall_train_step(model, &mut opt, &(tokens, targets))?);
        let recent = &losses[losses.len().saturating_sub(STOP_WINDOW)..];
        if cfg.stop_below.is_some_and(|floor| recent.len() == STOP_WINDOW && recent.iter().sum::<f64>() / (STOP_WINDOW as f64) < floor) {
            break;
        }
    }
    Ok(losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mixer::argmax_margin;

    /// Algorithm 1's data at length `len`, noise up to `max_noise`, `steps` Adam steps of
    /// `batch` sequences at the learning rate `lr`, the task's targets.
    fn latest(len: usize, max_noise: usize, steps: usize, batch: usize, lr: f64) -> RecallFit {
        RecallFit { batch, ..RecallFit::new(len, RecallData::Latest { max_noise }, steps, lr) }
    }

    fn model(keys: usize, trainable: Trainable) -> RecallMamba {
        RecallMamba::init(RecallShape { vocab: 6, keys, states: keys }, StreamKey::new(keys as u64, "test"), trainable).unwrap()
    }

    /// Early stopping ends training once a window's mean loss is below the floor and changes
    /// nothing before it: a floor of +∞ stops at the first full window, 0 never stops.
    #[test]
    fn early_stopping_ends_at_the_first_low_window() {
        let keys = RunKeys::new(9, "stop");
        let fit = |stop_below| {
            fit_recall(&model(1, Trainable::All), model(1, Trainable::All).shape, &RecallFit { stop_below, ..latest(8, 0, 30, 2, 0.01) }, &keys).unwrap()
        };
        let all = fit(None);
        assert_eq!(all.len(), 30);
        assert_eq!(fit(Some(0.0)), all);
        assert_eq!(fit(Some(f64::INFINITY)), all[..STOP_WINDOW]);
    }

    /// The trained model and the suite's mixer give the same logits on the same weights. Both
    /// run the engine's scan; they differ in softplus (≤ 2 ulp), in the order of the d-term sums
    /// of the projections and in the read-out's subtraction, so over T = 12 steps of O(1) logits
    /// they agree to a few hundred roundings: 10⁻¹² leaves a factor 10 to spare.
    #[test]
    fn the_trained_model_is_the_suites_mixer() {
        let learned = model(2, Trainable::All).learn_readout(StreamKey::new(2, "readout")).unwrap();
        let other_n = |states| RecallMamba::init(RecallShape { vocab: 6, keys: 2, states }, StreamKey::new(states as u64, "n"), Trainable::All).unwrap();
        for m in [model(1, Trainable::All), model(2, Trainable::All), model(3, Trainable::All), learned, other_n(1), other_n(5)] {
            let keys = m.shape.keys;
            let tokens = vec![0, 3, 4, 1, 5, 5, 0, 2, 3, 1, 0, 4];
            let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let (mixer, readout, xs) = m.to_model(&tokens).unwrap();
            mixer.validate().unwrap();
            for (t, y) in mixer.forward(&xs).iter().enumerate() {
                let z = readout.logits(y);
                assert!(
                    logits[t].iter().zip(z.iter()).all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1.0)),
                    "|K| = {keys}, t = {t}: {:?} vs {z}",
                    logits[t]
                );
                let best = logits[t].iter().enumerate().fold(0, |k, (j, &v)| if v > logits[t][k] { j } else { k });
                assert_eq!(best, argmax_margin(&z).0);
            }
        }
    }

    /// With Mamba's block components (learned convolution with SiLU, D skip, gate) the trained
    /// model is still the suite's mixer on the same weights. Beside the simplified model's
    /// roundings (above) each step adds candle's SiLU against [`crate::math::softplus::silu`]
    /// (a few ulp each, three per channel) and the gate's d-term sum in another order: still a
    /// few hundred roundings of O(1) values, so the same 10⁻¹². Control: the same weights
    /// without the skip (D = 0 in the mixer) give other logits.
    #[test]
    fn the_model_with_the_block_components_is_the_suites_mixer() {
        let with_block = |seed: u64| model(2, Trainable::All).with_block_components(StreamKey::new(seed, "block")).unwrap();
        let tokens = vec![0, 3, 4, 1, 5, 5, 0, 2, 3, 1, 0, 4];
        for m in [with_block(1), with_block(2).learn_readout(StreamKey::new(2, "readout")).unwrap()] {
            let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let (mixer, readout, xs) = m.to_model(&tokens).unwrap();
            mixer.validate().unwrap();
            assert!(mixer.gate.is_some() && mixer.skip.is_some() && mixer.conv.act == Activation::Silu);
            let close = |a: &[f64], b: &DVector<f64>| a.iter().zip(b.iter()).all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1.0));
            for (t, y) in mixer.forward(&xs).iter().enumerate() {
                let z = readout.logits(y);
                assert!(close(&logits[t], &z), "t = {t}: {:?} vs {z}", logits[t]);
            }
            let unskipped = Mixer { skip: Some(DVector::zeros(12)), ..mixer };
            assert!(unskipped.forward(&xs).iter().enumerate().any(|(t, y)| !close(&logits[t], &readout.logits(y))), "the skip is not in the logits");
            // The weights go through `from_weights` unchanged.
            let w = m.weights().unwrap();
            assert_eq!(RecallMamba::from_weights(m.shape, &w, Trainable::All).unwrap().weights().unwrap(), w);
        }
        let mut bad = with_block(3).weights().unwrap();
        bad.block.as_mut().unwrap().skip = DVector::zeros(5);
        assert!(RecallMamba::from_weights(model(2, Trainable::All).shape, &bad, Trainable::All).unwrap_err().to_string().contains("D has 5 entries"));
    }

    /// Every variable of the model with the block components and a learned read-out, frozen
    /// projections or not, has the gradient of central differences
    /// ([`assert_gradients_are_central_differences`](super::super::gradient_check::assert_gradients_are_central_differences):
    /// derived tolerance, a control that must be rejected).
    #[test]
    fn the_block_components_backward_is_central_differences() {
        for trainable in [Trainable::All, Trainable::FrozenProjections] {
            let m = || model(2, trainable).with_block_components(StreamKey::new(5, "block")).unwrap().learn_readout(StreamKey::new(5, "readout")).unwrap();
            let (a, twin) = (m(), m());
            assert_eq!(a.vars().len(), if trainable == Trainable::All { 11 } else { 9 });
            let tokens = vec![vec![0, 3, 4, 1, 5, 0], vec![2, 2, 5, 1, 0, 3]];
            super::super::gradient_check::assert_gradients_are_central_differences(&a, &twin, &tokens, 6, &format!("block components, {trainable:?}"));
        }
    }

    /// The convolution's input is the pair (previous, current), so a mixer step sees [`pair_input`].
    #[test]
    fn the_pair_input_is_the_convolution_of_the_doubled_embedding() {
        let (mixer, _, xs) = model(2, Trainable::All).to_model(&[3, 1]).unwrap();
        assert_eq!(mixer.conv.apply(&DVector::zeros(12), &xs[0]), pair_input(6, None, 3));
        assert_eq!(mixer.conv.apply(&xs[0], &xs[1]), pair_input(6, Some(3), 1));
    }

    /// The projection of a pair is the matrix times [`pair_input`].
    #[test]
    fn the_pair_projection_is_the_product_with_the_pair_input() {
        let w = model(3, Trainable::All).weights().unwrap().w_b;
        for (prev, cur) in [(None, 4), (Some(0), 5), (Some(5), 1)] {
            let want = &w * pair_input(6, prev, cur);
            assert_eq!(pair_projection(&w, 6, prev, cur), want.as_slice(), "{prev:?}, {cur}");
        }
    }

    /// The loss counts only the queries: a batch without one has none, and the loss of one
    /// query is its cross-entropy.
    #[test]
    fn the_loss_is_over_the_queries_only() {
        let m = model(2, Trainable::All);
        let tokens = vec![vec![0, 3, 1, 4, 0]];
        let logits = m.logits(&tokens).unwrap();
        let targets = vec![vec![None, None, None, None, Some(3)]];
        let (loss, queries) = query_cross_entropy(&logits, &targets).unwrap();
        let z = logits.squeeze(0).unwrap().to_vec2::<f64>().unwrap()[4].clone();
        let want = z.iter().map(|v| v.exp()).sum::<f64>().ln() - z[3];
        assert_eq!(queries, 1);
        assert!((loss.to_scalar::<f64>().unwrap() - want).abs() < 1e-12);
    }

    /// A learned read-out starts random, is one more variable, and moves in training; the
    /// fixed one is [−I I].
    #[test]
    fn a_learned_readout_is_trained() {
        assert_eq!(model(2, Trainable::All).weights().unwrap().readout, minus_identity_identity(6));
        let m = model(2, Trainable::FrozenProjections).learn_readout(StreamKey::new(3, "readout")).unwrap();
        assert_eq!(m.vars().len(), 4);
        let before = m.weights().unwrap().readout;
        assert_eq!(before.shape(), (6, 12));
        let cfg = latest(16, 2, 3, 2, 0.01);
        fit_recall(&m, m.shape, &cfg, &RunKeys::new(1, "readout")).unwrap();
        assert_ne!(m.weights().unwrap().readout, before);
    }

    /// Shuffled targets train on other values than the task's, and on nothing but values: the
    /// same steps from the same start end at other weights.
    #[test]
    fn shuffled_targets_change_what_is_learned() {
        let cfg = latest(16, 2, 5, 4, 0.01);
        let train = |targets: Targets| {
            let m = model(2, Trainable::All);
            let loss = fit_recall(&m, m.shape, &RecallFit { targets, ..cfg }, &RunKeys::new(4, "shuffle")).unwrap();
            (loss, m.weights().unwrap())
        };
        let (task, shuffled) = (train(Targets::Task), train(Targets::Shuffled));
        assert_ne!(task.0[0].to_bits(), shuffled.0[0].to_bits(), "the first batch's targets differ");
        assert_ne!(task.1, shuffled.1);
    }

    /// With B and C frozen the optimiser sees three variables, else five; the frozen ones do
    /// not move in a training step.
    #[test]
    fn frozen_projections_stay_put() {
        let m = model(2, Trainable::FrozenProjections);
        assert_eq!(m.vars().len(), 3);
        let before = m.weights().unwrap();
        let cfg = latest(16, 2, 3, 2, 0.01);
        fit_recall(&m, m.shape, &cfg, &RunKeys::new(1, "frozen")).unwrap();
        let after = m.weights().unwrap();
        assert_eq!((before.w_b, before.w_c), (after.w_b, after.w_c));
        assert_ne!(before.w_delta, after.w_delta);
        assert_eq!(model(2, Trainable::All).vars().len(), 5);
    }

    /// 300 steps of 16 sequences of length 32 (|V| = 6, |K| = 2; about a second): the loss at
    /// the queries falls by more than half a nat from about ln 6 ≈ 1.8.
    #[test]
    fn a_short_training_lowers_the_loss() {
        let m = RecallMamba::init(RecallShape { vocab: 6, keys: 2, states: 2 }, StreamKey::new(5, "short"), Trainable::All).unwrap();
        let cfg = latest(32, 3, 300, 16, 0.01);
        let loss = fit_recall(&m, m.shape, &cfg, &RunKeys::new(5, "short")).unwrap();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (first, last) = (mean(&loss[..30]), mean(&loss[loss.len() - 30..]));
        assert!(last < first - 0.5, "loss {first} -> {last}");
    }

    /// candle's products split their work by blocks of the output, so a run's weights do not
    /// depend on the thread count.
    #[test]
    fn the_same_seed_gives_the_same_weights_at_any_thread_count() {
        let train = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let m = RecallMamba::init(RecallShape { vocab: 8, keys: 2, states: 2 }, StreamKey::new(9, "threads"), Trainable::All).unwrap();
                let cfg = latest(32, 3, 20, 16, 0.02);
                let loss = fit_recall(&m, m.shape, &cfg, &RunKeys::new(9, "threads")).unwrap();
                (loss, m.weights().unwrap())
            })
        };
        assert_eq!(train(1), train(2));
    }

    /// MQAR sequences over the model's vocabulary: κ pairs (key, value token), then each key
    /// queried once with its pair's value as the target.
    #[test]
    fn mqar_sequences_pair_keys_with_value_tokens() {
        let shape = RecallShape { vocab: 7, keys: 3, states: 2 };
        let cfg = RecallFit { data: RecallData::Mqar { placement: QueryPlacement::Anywhere }, ..latest(14, 0, 1, 1, 0.01) };
        let (tokens, targets) = recall_batch(shape, &cfg, StreamKey::new(3, "mqar"), 0, 20).unwrap();
        for (x, y) in tokens.iter().zip(&targets) {
            assert_eq!(x.len(), 14);
            let mut keys: Vec<usize> = (0..3).map(|i| x[2 * i]).collect();
            keys.sort_unstable();
            assert_eq!(keys, [0, 1, 2]);
            assert!((0..3).all(|i| x[2 * i + 1] >= 3) && x[6..].iter().zip(&y[6..]).all(|(&t, q)| (t < 3) == q.is_some()));
            for (t, q) in y.iter().enumerate().filter_map(|(t, q)| q.map(|q| (t, q))) {
                let pair = (0..3).find(|&i| x[2 * i] == x[t]).unwrap();
                assert_eq!(q, x[2 * pair + 1], "the target is the queried key's value");
            }
        }
    }

    /// The hand-built slot memory answers every query of Algorithm 1 (|K| = 2 and 4, T = 128,
    /// where up to ~40 writes shrink the latest value's logit to r^40 ≈ 10⁻¹⁶, far above the
    /// exact zeros of the others); its weights survive the round trip through the variables
    /// (Λ through ln(−Λ) and back, a few ulps). Control: the reads addressed to the next key's
    /// state answer far fewer.
    #[test]
    fn the_slot_memory_recalls_every_latest_value() {
        for (vocab, keys) in [(8, 2), (12, 4)] {
            let shape = RecallShape { vocab, keys, states: keys };
            let weights = slot_memory(shape).unwrap();
            let built = RecallMamba::from_weights(shape, &weights, Trainable::All).unwrap();
            let back = built.weights().unwrap();
            assert_eq!((&back.w_delta, &back.w_b, &back.w_c, &back.readout), (&weights.w_delta, &weights.w_b, &weights.w_c, &weights.readout));
            assert!(back.lambda.iter().zip(weights.lambda.iter()).all(|(a, b)| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs()));
            let data = recall_batch(shape, &latest(128, 3, 0, 1, 0.0), StreamKey::new(keys as u64, "slots"), 0, 300).unwrap();
            let accuracies = held_out_accuracies(&built, &data).unwrap();
            assert!(accuracies.len() == 300 && accuracies.iter().all(|&a| a == 1.0), "|K| = {keys}: {accuracies:?}");
            let mut misread = weights.clone();
            misread.w_c = DMatrix::from_fn(keys, 2 * vocab, |s, col| weights.w_c[((s + 1) % keys, col)]);
            let wrong = RecallMamba::from_weights(shape, &misread, Trainable::All).unwrap();
            let mean = held_out_accuracies(&wrong, &data).unwrap().iter().sum::<f64>() / 300.0;
            assert!(mean < 0.5, "|K| = {keys}: the misread control answers {mean}");
        }
        let shape = RecallShape { vocab: 8, keys: 2, states: 3 };
        assert!(slot_memory(shape).is_err());
        let mut bad = slot_memory(RecallShape { states: 2, ..shape }).unwrap();
        bad.lambda[(0, 0)] = 0.0;
        assert!(RecallMamba::from_weights(RecallShape { states: 2, ..shape }, &bad, Trainable::All).is_err());
        assert!(RecallMamba::from_weights(shape, &slot_memory(RecallShape { states: 2, ..shape }).unwrap(), Trainable::All).is_err());
    }

    /// App. A's objective puts a target at every position: the first step's loss is an average
    /// over every position, not over the queries alone, and so differs; held-out scoring is
    /// unchanged (queries only).
    #[test]
    fn the_identity_objective_trains_every_position() {
        let m = || model(2, Trainable::All);
        let cfg = latest(32, 3, 1, 4, 0.01);
        let keys = RunKeys::new(9, "identity");
        let queries = fit_recall(&m(), m().shape, &cfg, &keys).unwrap();
        let every = fit_recall(&m(), m().shape, &RecallFit { objective: Objective::IdentityElsewhere, ..cfg }, &keys).unwrap();
        assert!(queries[0].is_finite() && every[0].is_finite() && queries[0] != every[0], "{queries:?} {every:?}");
    }

    #[test]
    fn keys_must_leave_room_for_values() {
        let e = RecallMamba::init(RecallShape { vocab: 4, keys: 4, states: 4 }, StreamKey::new(0, "t"), Trainable::All).unwrap_err();
        assert!(e.to_string().contains("1 ≤ |K| < |V|"), "{e}");
    }
}
