//! The one-layer softmax-attention baseline that 000 Table 1 and 002 Table 1 set beside their
//! SSMs: an input embedding → one causal softmax-attention head → linear read-out. No MLP, no
//! residual, no layer norm: the smallest model in which attention alone does the work, as the
//! SSM classifiers are the smallest in which the scan does. The input embedding is one of
//! [`AttentionInput`]: the token plus a learned position embedding (000's Transformer, which
//! solves Keep Fifth), or the pair (previous, current token) without any position (002's
//! "1-layer TF" with a convolution and no positional encoding, which the paper reports
//! struggling on its MQAR). Written once in candle tensors for training;
//! [`AttentionClassifier::to_model`] gives the same weights as the suite's
//! [`Attention`] (004 eq (5)–(6)) and [`Readout`], which must compute the same logits (a test).
//!
//! With x_t ∈ ℝ^d (E(token_t) + P(t), or E′(token_{t−1}) + E(token_t)), the head computes
//! `h_τ = Σ_{i ≤ τ} softmax_i(β ⟨W_K x_i, W_Q x_τ⟩) W_V x_i` with β = 1/√d, and the logits
//! `W_o h_τ + b_o`. In 004's convention the *query* matrix acts on the attended position x_i
//! and the *key* matrix on the current x_τ, so the suite's `Attention` has `wq = W_K`,
//! `wk = W_Q` (the scores are the same bilinear form).
//!
//! For Keep Fifth a position *embedding* is needed: a single position coordinate (the SSMs'
//! "+PE") enters the bilinear score as a product t_i·t_τ, monotone in t_i, so attention could
//! prefer only the first or the last position, never the fifth.

use super::causal_softmax::causal_softmax;
use super::fit::Classifier;
use super::var;
use crate::error::{Error, Result};
use crate::math::linalg::Mat;
use crate::mc::{Stream, StreamKey};
use crate::model::attention::Attention;
use crate::model::mixer::Readout;
use candle_core::{Device, Tensor, Var};
use nalgebra::DVector;

/// What the attention head sees at position t.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AttentionInput {
    /// x_t = E(token_t) + P(t): a learned position embedding of `max_len` rows.
    Position {
        /// The longest sequence.
        max_len: usize,
    },
    /// x_t = E′(token_{t−1}) + E(token_t) (E′ term absent at t = 0): a learned kernel-2
    /// convolution of one-hot tokens, the pair x̂_t of 002's simplified Mamba, and no position.
    Pair,
}

/// The architecture of an [`AttentionClassifier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionShape {
    /// |V|.
    pub vocab: usize,
    /// d (the embedding width, also the query, key and value width).
    pub d: usize,
    /// What the head sees.
    pub input: AttentionInput,
}

/// A one-layer causal softmax-attention classifier with trainable weights (f64, CPU).
#[derive(Clone, Debug)]
pub struct AttentionClassifier {
    /// The architecture.
    pub shape: AttentionShape,
    embedding: Var,
    /// P (max_len × d) or E′ (|V| × d), as [`AttentionShape::input`] says.
    context: Var,
    w_q: Var,
    w_k: Var,
    w_v: Var,
    w_o: Var,
    b_o: Var,
}

impl AttentionClassifier {
    /// Fresh weights from `key`: the embeddings (E, and P or E′) N(0, 1), W_Q, W_K, W_V and W_o
    /// N(0, 1/d), read-out bias 0.
    pub fn init(shape: AttentionShape, key: StreamKey) -> Result<Self> {
        let AttentionShape { vocab, d, input } = shape;
        let context_rows = match input {
            AttentionInput::Position { max_len } => max_len,
            AttentionInput::Pair => vocab,
        };
        if d == 0 || vocab < 2 || context_rows == 0 {
            return Err(Error::InvalidParameter(format!(
                "an attention classifier needs d ≥ 1, |V| ≥ 2 and a maximal length ≥ 1 (got d = {d}, |V| = {vocab}, {input:?})"
            )));
        }
        let mut s = Stream::new(key, 0);
        let mut normal = |rows: usize, cols: usize, scale: f64| -> Result<Var> { var((0..rows * cols).map(|_| scale * s.normal()).collect(), rows, cols) };
        let inv_sqrt_d = 1.0 / (d as f64).sqrt();
        Ok(AttentionClassifier {
            shape,
            embedding: normal(vocab, d, 1.0)?,
            context: normal(context_rows, d, 1.0)?,
            w_q: normal(d, d, inv_sqrt_d)?,
            w_k: normal(d, d, inv_sqrt_d)?,
            w_v: normal(d, d, inv_sqrt_d)?,
            w_o: normal(vocab, d, inv_sqrt_d)?,
            b_o: var(vec![0.0; vocab], vocab, 1)?,
        })
    }

    /// The number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.vars().iter().map(|v| v.elem_count()).sum()
    }

    /// The score scale β = 1/√d.
    pub fn beta(&self) -> f64 {
        1.0 / (self.shape.d as f64).sqrt()
    }

    /// The inputs x_t (batch × T × d): E(token_t) + P(t), or E′(token_{t−1}) + E(token_t).
    fn inputs(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let (batch, len, d) = (tokens.len(), tokens.first().map_or(0, Vec::len), self.shape.d);
        let ids: Vec<u32> = tokens.iter().flatten().map(|&t| t as u32).collect();
        let x = self.embedding.embedding(&Tensor::from_vec(ids, batch * len, &Device::Cpu)?)?.reshape((batch, len, d))?;
        match self.shape.input {
            AttentionInput::Position { max_len } => {
                if len > max_len {
                    candle_core::bail!("a sequence of length {len} is longer than the position embedding ({max_len})");
                }
                x.broadcast_add(&self.context.as_tensor().narrow(0, 0, len)?.unsqueeze(0)?)
            }
            AttentionInput::Pair => {
                // E′(token_{t−1}): the previous tokens' rows, a zero row at t = 0.
                let previous: Vec<u32> = tokens.iter().flat_map(|seq| seq[..len.saturating_sub(1)].iter().map(|&t| t as u32)).collect();
                let shifted = self.context.embedding(&Tensor::from_vec(previous, batch * len.saturating_sub(1), &Device::Cpu)?)?.reshape((
                    batch,
                    len.saturating_sub(1),
                    d,
                ))?;
                let shifted = Tensor::cat(&[Tensor::zeros((batch, 1, d), x.dtype(), &Device::Cpu)?, shifted], 1)?;
                x + shifted
            }
        }
    }
}

impl Classifier for AttentionClassifier {
    fn vars(&self) -> Vec<Var> {
        [&self.embedding, &self.context, &self.w_q, &self.w_k, &self.w_v, &self.w_o, &self.b_o].map(Var::clone).to_vec()
    }

    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let x = self.inputs(tokens)?;
        let (batch, len, d) = x.dims3()?;
        let project = |w: &Var| x.reshape((batch * len, d))?.matmul(&w.as_tensor().t()?)?.reshape((batch, len, d));
        let (q, k, v) = (project(&self.w_q)?, project(&self.w_k)?, project(&self.w_v)?);
        // scores[b, τ, i] = ⟨W_K x_i, β W_Q x_τ⟩ (β on the T × d queries rather than the T × T
        // scores); the weights vanish for i > τ (causal).
        let scores = (q * self.beta())?.matmul(&k.t()?.contiguous()?)?;
        let weights = causal_softmax(&scores)?;
        let h = weights.matmul(&v)?;
        let z = h.reshape((batch * len, d))?.matmul(&self.w_o.as_tensor().t()?)?.broadcast_add(&self.b_o.as_tensor().t()?)?;
        z.reshape((batch, len, self.shape.vocab))
    }
}

impl AttentionClassifier {
    /// The same weights as the suite's causal [`Attention`] (with `wq = W_K`, `wk = W_Q`, the
    /// paper's convention) and [`Readout`], with the inputs x_t of a token sequence.
    pub fn to_model(&self, tokens: &[usize]) -> Result<(Attention, Readout, Vec<Vec<f64>>)> {
        let err = |e| super::candle_error("reading the weights", e);
        let matrix = super::var_matrix;
        let attention = Attention { wq: matrix(&self.w_k)?, wk: matrix(&self.w_q)?, wv: matrix(&self.w_v)?, beta: self.beta(), causal: true };
        let readout = Readout { w: matrix(&self.w_o)?, b: DVector::from_column_slice(matrix(&self.b_o)?.as_slice()) };
        let x = self.inputs(&[tokens.to_vec()]).and_then(|x| x.squeeze(0)).map_err(err)?;
        let x: Mat = matrix(&Var::from_tensor(&x).map_err(err)?)?;
        Ok((attention, readout, x.row_iter().map(|r| r.iter().copied().collect()).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mixer::argmax_margin;

    /// The trained model and the suite's attention give the same logits on the same weights.
    /// They differ in the order of sums (d terms per score and projection, τ terms per softmax
    /// and value sum) and in where the maximum is subtracted, so with O(1) logits over 9
    /// positions they agree to a few hundred roundings: 10⁻¹² leaves a factor 10 to spare.
    #[test]
    fn the_trained_model_is_the_suites_attention() {
        for input in [AttentionInput::Position { max_len: 12 }, AttentionInput::Pair] {
            let m = AttentionClassifier::init(AttentionShape { vocab: 7, d: 5, input }, StreamKey::new(4, "test")).unwrap();
            let tokens = vec![3, 1, 4, 1, 5, 6, 2, 6, 5];
            let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let (attention, readout, xs) = m.to_model(&tokens).unwrap();
            for (t, row) in logits.iter().enumerate() {
                let z = readout.logits(&DVector::from_vec(attention.hidden(&xs, t + 1)));
                for (a, b) in row.iter().zip(z.iter()) {
                    assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{input:?} t {t}: {a} vs {b}");
                }
                let best = row.iter().enumerate().fold(0, |k, (j, &v)| if v > row[k] { j } else { k });
                assert_eq!(best, argmax_margin(&z).0);
            }
        }
    }

    /// Without a position, the pair input sees only (previous, current): two positions with the
    /// same pair have the same x_t, and x_0 is E[token_0] alone.
    #[test]
    fn the_pair_input_is_the_previous_and_current_token() {
        let m = AttentionClassifier::init(AttentionShape { vocab: 7, d: 5, input: AttentionInput::Pair }, StreamKey::new(6, "test")).unwrap();
        let (_, _, xs) = m.to_model(&[2, 3, 1, 2, 3]).unwrap();
        assert_eq!(xs[1], xs[4]);
        let (_, _, alone) = m.to_model(&[2]).unwrap();
        assert_eq!(xs[0], alone[0]);
        assert_ne!(xs[0], xs[3]);
    }

    /// Causality: changing a later token leaves the earlier logits bit for bit unchanged (the
    /// masked scores are −∞, their weights exactly 0), and changes the logits from there on.
    #[test]
    fn a_later_token_does_not_change_earlier_logits() {
        let m = AttentionClassifier::init(AttentionShape { vocab: 7, d: 5, input: AttentionInput::Pair }, StreamKey::new(5, "test")).unwrap();
        let (a, b) = (vec![3, 1, 4, 1, 5, 6], vec![3, 1, 4, 2, 5, 6]);
        let z = m.logits(&[a, b]).unwrap().to_vec3::<f64>().unwrap();
        assert_eq!(z[0][..3], z[1][..3]);
        assert!(z[0][3..].iter().zip(&z[1][3..]).all(|(x, y)| x != y));
    }

    #[test]
    fn parameter_counts() {
        let count = |vocab, d, input| AttentionClassifier::init(AttentionShape { vocab, d, input }, StreamKey::new(0, "t")).unwrap().parameters();
        // 000.table1's Transformer: E 16·8 + P 20·8 + W_Q, W_K, W_V 3·8·8 + W_o 16·8 + b_o 16.
        assert_eq!(count(16, 8, AttentionInput::Position { max_len: 20 }), 128 + 160 + 192 + 128 + 16);
        // 002.table1's TF at κ = 4: E, E′ 2·12·24 + 3·24·24 + 12·24 + 12.
        assert_eq!(count(12, 24, AttentionInput::Pair), 576 + 1728 + 288 + 12);
    }

    #[test]
    fn bad_shapes_and_long_sequences_are_errors() {
        let position = |max_len| AttentionInput::Position { max_len };
        assert!(AttentionClassifier::init(AttentionShape { vocab: 1, d: 4, input: position(8) }, StreamKey::new(0, "t"))
            .unwrap_err()
            .to_string()
            .contains("|V| ≥ 2"));
        let m = AttentionClassifier::init(AttentionShape { vocab: 4, d: 4, input: position(3) }, StreamKey::new(0, "t")).unwrap();
        assert!(m.logits(&[vec![0, 1, 2, 3]]).unwrap_err().to_string().contains("longer than the position embedding"));
    }
}
