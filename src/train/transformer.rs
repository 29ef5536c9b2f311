//! The Transformer the papers set beside their SSMs where depth and position matter: 002 App. A
//! Table 1's two-layer rows ("2-layer TF" without a convolution and without positions, "2-layer
//! TF w/ RoPE" with both) and 003 §4.3's TF (RoPE, App. A.5). A language model of L pre-norm
//! residual layers, trainable by candle, in the layout of GPT-NeoX / Llama-style models:
//!
//! 1. embedding E (|V| × d_model), no position embedding;
//! 2. per layer, `h ← h + Attn(RMSNorm(h))` then `h ← h + MLP(RMSNorm(h))`, where
//!    - Attn: optionally a causal depthwise convolution of width k over the normalised input
//!      ([`TransformerShape::conv_width`], the "Conv." column of 002's Table 1: the short
//!      convolution of H3 and Zoology's attention baselines, without an activation), then H
//!      causal softmax heads of width d_h = d_model / H, `softmax(q_τ·k_i/√d_h)` over i ≤ τ, with
//!      q and k rotated by RoPE ([`Position::Rope`], Su et al.: the pair (j, j + d_h/2) of a
//!      head's coordinates at position t turned by the angle t·10000^{−2j/d_h}, the "rotate half"
//!      convention of GPT-NeoX and Llama) or not at all ([`Position::None`]); the heads'
//!      outputs concatenated and projected by W_o;
//!    - MLP: `W_2 GELU(W_1 x)` with hidden width `mlp_ratio`·d_model (GPT's 4), the tanh
//!      approximation of GELU (GPT-2's);
//! 3. a final RMSNorm and a linear read-out (|V| × d_model, untied).
//!
//! Initialisation as PyTorch's `Linear` (uniform on ±1/√fan_in), W_o and W_2 divided by √(2L)
//! (GPT-2's rescaling of the residual branches), the embedding N(0, 0.02²), RMSNorm's weights 1,
//! the convolution's weights and bias uniform on ±1/√k. No biases in the projections. Every
//! weight is f64 on the CPU; a run is seeded by its [`StreamKey`].
//!
//! Tested: RoPE makes every score a function of the relative position only (and keeps norms);
//! the model is causal; every gradient agrees with central differences (the shared derived
//! tolerance, with a control); the parameter count is the architecture's.

use super::causal_conv::causal_conv;
use super::causal_softmax::causal_softmax;
use super::gelu::gelu;
use super::mamba_block::rms_norm;
use super::rope::{rope_tables, rotate};
use super::{uniform, var};
use crate::error::{Error, Result};
use crate::mc::{Stream, StreamKey};
use candle_core::{Device, Tensor, Var};

/// How attention knows where a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Position {
    /// Nowhere: no position embedding and no rotation (002's "2-layer TF" without RoPE; only
    /// the causal mask, and the convolution when there is one, break the symmetry).
    None,
    /// Rotary position embedding of queries and keys (base 10000).
    Rope,
}

/// The sizes of a [`TransformerLm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransformerShape {
    /// d_model, the residual stream's width.
    pub d_model: usize,
    /// H, the attention heads per layer (d_model must be a multiple of H; with RoPE, of 2H).
    pub heads: usize,
    /// The MLP's hidden width over d_model (GPT's 4).
    pub mlp_ratio: usize,
    /// Positions: RoPE or none.
    pub position: Position,
    /// The width k of the short causal convolution before attention, or `None` for no
    /// convolution.
    pub conv_width: Option<usize>,
}

impl TransformerShape {
    /// d_h = d_model / H.
    pub fn head_dim(&self) -> usize {
        self.d_model / self.heads.max(1)
    }

    fn check(&self) -> Result<()> {
        let bad = |why: String| Err(Error::InvalidParameter(format!("a Transformer needs {why} (got {self:?})")));
        if self.d_model == 0 || self.heads == 0 || self.mlp_ratio == 0 || self.conv_width == Some(0) {
            return bad("d_model, H, the MLP ratio and a convolution's width all ≥ 1".into());
        }
        if !self.d_model.is_multiple_of(self.heads) {
            return bad(format!("d_model a multiple of the {} heads", self.heads));
        }
        if self.position == Position::Rope && !self.head_dim().is_multiple_of(2) {
            return bad(format!("an even head width d_h for RoPE (d_h = {})", self.head_dim()));
        }
        Ok(())
    }
}

/// One pre-norm layer's weights (PyTorch's `Linear` layout: out × in).
#[derive(Clone, Debug)]
struct Layer {
    /// RMSNorm weights before attention and before the MLP (1 × d_model each).
    norm_attn: Var,
    norm_mlp: Var,
    /// The convolution's weights (d_model × k) and bias (1 × d_model), when there is one.
    conv: Option<(Var, Var)>,
    /// W_q, W_k, W_v, W_o (d_model × d_model each).
    w_q: Var,
    w_k: Var,
    w_v: Var,
    w_o: Var,
    /// W_1 (hidden × d_model), W_2 (d_model × hidden).
    w_1: Var,
    w_2: Var,
}

impl Layer {
    fn init(shape: TransformerShape, layers: usize, s: &mut Stream) -> Result<Layer> {
        let (dm, hidden) = (shape.d_model, shape.mlp_ratio * shape.d_model);
        let branch = 1.0 / ((2 * layers) as f64).sqrt();
        let ones = || var(vec![1.0; dm], 1, dm);
        let conv = match shape.conv_width {
            Some(k) => {
                let bound = 1.0 / (k as f64).sqrt();
                Some((uniform(s, dm, k, bound)?, uniform(s, 1, dm, bound)?))
            }
            None => None,
        };
        let fan = |n: usize| 1.0 / (n as f64).sqrt();
        Ok(Layer {
            norm_attn: ones()?,
            norm_mlp: ones()?,
            conv,
            w_q: uniform(s, dm, dm, fan(dm))?,
            w_k: uniform(s, dm, dm, fan(dm))?,
            w_v: uniform(s, dm, dm, fan(dm))?,
            w_o: uniform(s, dm, dm, fan(dm) * branch)?,
            w_1: uniform(s, hidden, dm, fan(dm))?,
            w_2: uniform(s, dm, hidden, fan(hidden) * branch)?,
        })
    }

    fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.norm_attn.clone(), self.norm_mlp.clone()];
        if let Some((w, b)) = &self.conv {
            v.extend([w.clone(), b.clone()]);
        }
        v.extend([&self.w_q, &self.w_k, &self.w_v, &self.w_o, &self.w_1, &self.w_2].map(Var::clone));
        v
    }
}

/// `x W^T` for x of shape (batch × T × d_in) and W (d_out × d_in): one matrix product over the
/// batch·T rows. (`broadcast_matmul` would expand W over the batch, and its backward pass sum
/// the batch's copies of W's gradient back, a reduction that was a tenth of a training step.)
fn linear(x: &Tensor, w: &Var) -> candle_core::Result<Tensor> {
    let (batch, len, d_in) = x.dims3()?;
    let d_out = w.as_tensor().dim(0)?;
    x.reshape((batch * len, d_in))?.matmul(&w.as_tensor().t()?)?.reshape((batch, len, d_out))
}

/// A language model of L pre-norm Transformer layers (module doc), trainable.
#[derive(Clone, Debug)]
pub struct TransformerLm {
    /// The architecture.
    pub shape: TransformerShape,
    /// The vocabulary |V|.
    pub vocab: usize,
    embedding: Var,
    layers: Vec<Layer>,
    /// The final RMSNorm's weight (1 × d_model).
    norm: Var,
    /// The read-out (|V| × d_model), no bias.
    head: Var,
}

impl TransformerLm {
    /// Fresh weights: `layers` layers of `shape` over a vocabulary of `vocab` tokens.
    pub fn init(shape: TransformerShape, layers: usize, vocab: usize, key: StreamKey) -> Result<TransformerLm> {
        shape.check()?;
        if layers == 0 || vocab < 2 {
            return Err(Error::InvalidParameter(format!("a Transformer language model needs at least one layer and |V| ≥ 2 (got {layers} and {vocab})")));
        }
        let dm = shape.d_model;
        let mut s = Stream::new(key, 0);
        let embedding = var((0..vocab * dm).map(|_| 0.02 * s.normal()).collect(), vocab, dm)?;
        let stack = (0..layers)
            .map(|l| Layer::init(shape, layers, &mut Stream::new(StreamKey::new(key.as_u64(), &format!("layer {l}")), 0)))
            .collect::<Result<Vec<_>>>()?;
        let norm = var(vec![1.0; dm], 1, dm)?;
        let head = uniform(&mut s, vocab, dm, 1.0 / (dm as f64).sqrt())?;
        Ok(TransformerLm { shape, vocab, embedding, layers: stack, norm, head })
    }

    /// Every trainable variable.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.embedding.clone(), self.head.clone(), self.norm.clone()];
        v.extend(self.layers.iter().flat_map(Layer::vars));
        v
    }

    /// The number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.vars().iter().map(|v| v.elem_count()).sum()
    }

    /// Causal multi-head attention on a normalised input x (batch × T × d_model).
    fn attention(&self, layer: &Layer, x: &Tensor, rope: Option<&(Tensor, Tensor)>) -> candle_core::Result<Tensor> {
        let (batch, len, dm) = x.dims3()?;
        let (heads, dh) = (self.shape.heads, self.shape.head_dim());
        let x = match &layer.conv {
            Some((w, b)) => causal_conv(x, w.as_tensor(), b.as_tensor())?,
            None => x.clone(),
        };
        // (batch · H) × T × d_h per projection.
        let split =
            |w: &Var| -> candle_core::Result<Tensor> { linear(&x, w)?.reshape((batch, len, heads, dh))?.transpose(1, 2)?.reshape((batch * heads, len, dh)) };
        let (mut q, mut k, v) = (split(&layer.w_q)?, split(&layer.w_k)?, split(&layer.w_v)?);
        if let Some((cos, sin)) = rope {
            (q, k) = (rotate(&q, cos, sin)?, rotate(&k, cos, sin)?);
        }
        let scores = (q * (1.0 / (dh as f64).sqrt()))?.matmul(&k.t()?.contiguous()?)?;
        let mixed = causal_softmax(&scores.contiguous()?)?.matmul(&v.contiguous()?)?;
        let joined = mixed.reshape((batch, heads, len, dh))?.transpose(1, 2)?.reshape((batch, len, dm))?;
        linear(&joined, &layer.w_o)
    }

    /// The logits (batch × T × |V|) of a batch of token sequences of one length.
    pub fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let (batch, len) = (tokens.len(), tokens.first().map_or(0, Vec::len));
        let ids: Vec<u32> = tokens.iter().flatten().map(|&t| t as u32).collect();
        let mut h = self.embedding.embedding(&Tensor::from_vec(ids, batch * len, &Device::Cpu)?)?.reshape((batch, len, self.shape.d_model))?;
        let rope = match self.shape.position {
            Position::Rope => Some(rope_tables(len, self.shape.head_dim())?),
            Position::None => None,
        };
        for layer in &self.layers {
            h = (&h + self.attention(layer, &rms_norm(&h, layer.norm_attn.as_tensor())?, rope.as_ref())?)?;
            let hidden = gelu(&linear(&rms_norm(&h, layer.norm_mlp.as_tensor())?, &layer.w_1)?)?;
            h = (&h + linear(&hidden, &layer.w_2)?)?;
        }
        linear(&rms_norm(&h, self.norm.as_tensor())?, &self.head)
    }
}

impl super::fit::Classifier for TransformerLm {
    fn vars(&self) -> Vec<Var> {
        TransformerLm::vars(self)
    }
    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        TransformerLm::logits(self, tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(position: Position, conv_width: Option<usize>) -> TransformerShape {
        TransformerShape { d_model: 8, heads: 2, mlp_ratio: 2, position, conv_width }
    }

    /// The model is causal with every option: the logits up to t do not depend on later tokens,
    /// and the token at t matters at t.
    #[test]
    fn the_language_model_is_causal() {
        for (position, conv) in [(Position::Rope, Some(3)), (Position::None, None), (Position::Rope, None)] {
            let lm = TransformerLm::init(shape(position, conv), 2, 6, StreamKey::new(3, "t")).unwrap();
            let a = lm.logits(&[vec![1, 2, 3, 4, 5, 0]]).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let b = lm.logits(&[vec![1, 2, 3, 4, 0, 5]]).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            assert_eq!(a[..4], b[..4], "{position:?} {conv:?}");
            assert_ne!(a[4], b[4], "{position:?} {conv:?}: the token at step 4 must matter there");
        }
    }

    /// Without positions or a convolution, the last position's logits do not depend on the order
    /// of the tokens before it (attention over a set); RoPE or the convolution makes them depend
    /// on it.
    #[test]
    fn without_positions_attention_sees_a_set() {
        let last = |position, conv, tokens: Vec<usize>| {
            let lm = TransformerLm::init(shape(position, conv), 1, 6, StreamKey::new(4, "t")).unwrap();
            lm.logits(&[tokens]).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap().pop().unwrap()
        };
        let (a, b) = (vec![1, 2, 3, 4, 5], vec![3, 1, 4, 2, 5]);
        let (x, y) = (last(Position::None, None, a.clone()), last(Position::None, None, b.clone()));
        // The same sums in another order: a few ulps of logits of order one.
        assert!(x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 1e-14), "{x:?} vs {y:?}");
        assert_ne!(last(Position::Rope, None, a.clone()), last(Position::Rope, None, b.clone()));
        assert_ne!(last(Position::None, Some(2), a), last(Position::None, Some(2), b));
    }

    #[test]
    fn every_gradient_is_the_central_difference() {
        let tokens = vec![vec![1, 4, 2, 0, 3, 5, 1], vec![2, 2, 5, 4, 0, 1, 3]];
        for (position, conv) in [(Position::Rope, Some(3)), (Position::None, None)] {
            let lm = || TransformerLm::init(shape(position, conv), 2, 6, StreamKey::new(7, "fd")).unwrap();
            super::super::gradient_check::assert_gradients_are_central_differences(&lm(), &lm(), &tokens, 6, &format!("{position:?}, conv {conv:?}"));
        }
    }

    /// E and the read-out |V|·d each, the final norm d; per layer two norms 2d, W_q, W_k, W_v, W_o
    /// 4d², the MLP 2·r·d², the convolution d·k + d.
    #[test]
    fn parameter_counts_are_the_architectures() {
        let (v, d, r, k, l) = (6, 8, 2, 3, 2);
        let per_layer = 2 * d + 4 * d * d + 2 * r * d * d;
        let count = |conv| TransformerLm::init(shape(Position::Rope, conv), l, v, StreamKey::new(0, "t")).unwrap().parameters();
        assert_eq!(count(None), 2 * v * d + d + l * per_layer);
        assert_eq!(count(Some(k)), 2 * v * d + d + l * (per_layer + d * k + d));
    }

    #[test]
    fn bad_shapes_are_one_clear_error() {
        let err = |s: TransformerShape| TransformerLm::init(s, 1, 5, StreamKey::new(0, "t")).unwrap_err().to_string();
        assert!(err(TransformerShape { heads: 3, ..shape(Position::None, None) }).contains("multiple of the 3 heads"));
        assert!(err(TransformerShape { d_model: 6, heads: 2, ..shape(Position::Rope, None) }).contains("even head width"));
        assert!(err(TransformerShape { conv_width: Some(0), ..shape(Position::None, None) }).contains("≥ 1"));
        assert!(TransformerLm::init(shape(Position::None, None), 0, 5, StreamKey::new(0, "t")).is_err());
    }
}
