//! The one-layer models of 000's Keep n-th experiment (§4.1, App. D.2): token embedding →
//! selective (Mamba, or a single Mamba-2 head) or time-invariant (S4D) SSM → linear read-out,
//! "no conv, no gate", with
//! the position optionally in the last embedding coordinate ("+PE"). Written once in candle
//! tensors for training; [`SsmClassifier::to_model`] gives the same weights as the suite's
//! [`Mixer`] and [`Readout`], which must compute the same logits (a test).
//!
//! Parameters (d channels, N states, vocabulary |V|):
//!
//! | | Mamba | Mamba-2 head | S4D | Mamba-Δᵀ (000 eq 15) |
//! |---|---|---|---|---|
//! | Λ (d × N) | `−exp(θ_Λ)`, S4D-real start `Λ[a,n] = −(n+1)` | one scalar `−exp(θ)` for every entry, start −U[1, 16] (Mamba-2's) | as Mamba | as Mamba |
//! | Δ | `softplus(W_Δ x̂ + b_Δ)` ∈ ℝ^d per step | `softplus(w_Δ·x + b_Δ)`, one scalar per step shared by the channels | `softplus(δ)`, one scalar | `softplus(W_Δ x̂ + b_Δ)` ∈ ℝ^N per step, one per state slot |
//! | B_t, C_t | `W_B x̂`, `W_C x̂` | same (B and C from x itself: Mamba-2's convolutions taken as the identity) | constant vectors b, c | as Mamba |
//! | input term | `Δ[a] x̂[a] B[n]` | `Δ x[a] B[n]` | `Δ x[a] B[n]` | `x̂[a] B[n]` (no Δ, as printed) |
//!
//! and the read-out `W_o y_t + b_o`. x̂ is x, or with [`ClassifierShape::conv`] Mamba's short
//! convolution of x (kernel 2, SiLU). With PE the embedding is |V| × (d − 1) and the last
//! coordinate of x_t is the position t = 1, 2, …, T itself. The paper does not say how the
//! position is scaled; t/T trains far slower (measured on Keep Fifth, T = 20, |V| = 16, d = N = 8,
//! 2000 Adam steps: Mamba + PE's held-out accuracy 0.45 with t/T, 1.00 with t, at every seed
//! tried).

use super::delta_t_scan::delta_t_scan;
use super::scan_op::selective_scan;
use super::{silu, softplus, var};
use crate::error::{Error, Result};
use crate::math::softplus::softplus_inv;
use crate::mc::{Stream, StreamKey};
use crate::model::mixer::{Activation, Mixer, MixerKind, Projection, Readout, ShortConv, StepSize};
use candle_core::{DType, Device, Tensor, Var, D};
use nalgebra::DVector;

/// The architecture of an [`SsmClassifier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifierShape {
    /// Mamba (selective) or S4D (time-invariant); the other mixer kinds are not trained here.
    pub kind: MixerKind,
    /// |V|.
    pub vocab: usize,
    /// d (channels, the embedding width).
    pub d: usize,
    /// N (states per channel).
    pub n: usize,
    /// The position t in the last embedding coordinate.
    pub position: bool,
    /// What follows the scan, before the read-out.
    pub head: Head,
    /// Mamba's short convolution before the SSM (Mamba and Mamba-Δᵀ only): per channel,
    /// `x̂_t = SiLU(c₀ ⊙ x_{t−1} + c₁ ⊙ x_t − b)`, kernel 2 as in the suite's
    /// [`ShortConv`] and 000's constructions (Mamba's own default is 4). Without it x̂ = x.
    pub conv: bool,
}

/// What follows the scan of an [`SsmClassifier`], before its linear read-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Head {
    /// Nothing: the scan's output y_t goes to the read-out (000 App. D.2: "embedding layer, SSM
    /// layer, and output linear layer").
    Linear,
    /// The output of the field's S4D layer (the standalone `S4D` of state-spaces/s4): the skip
    /// y_t + D ⊙ x_t, GELU (erf form), a position-wise linear map to 2d and a GLU (the first half
    /// times the sigmoid of the second), then the read-out. Its GLU mixes the channels
    /// multiplicatively, so the position coordinate can gate what the other channels carry.
    GeluGlu,
}

/// The weights of [`Head::GeluGlu`].
#[derive(Clone, Debug)]
struct GluHead {
    /// D (d × 1).
    skip: Var,
    /// The linear map to 2d (2d × d) and its bias (2d × 1).
    w: Var,
    b: Var,
}

/// The weights of the short convolution: c₀, c₁ and the bias b (each 1 × d).
#[derive(Clone, Debug)]
struct ConvWeights {
    c0: Var,
    c1: Var,
    bias: Var,
}

/// How Δ, B and C are made.
#[derive(Clone, Debug)]
enum Selection {
    /// Mamba: from the input.
    Input { w_delta: Var, b_delta: Var, w_b: Var, w_c: Var },
    /// S4D: constant.
    Constant { delta: Var, b: Var, c: Var },
}

/// A one-layer SSM classifier with trainable weights (f64, CPU).
#[derive(Clone, Debug)]
pub struct SsmClassifier {
    /// The architecture.
    pub shape: ClassifierShape,
    embedding: Var,
    log_neg_lambda: Var,
    selection: Selection,
    glu: Option<GluHead>,
    conv: Option<ConvWeights>,
    w_o: Var,
    b_o: Var,
}

impl SsmClassifier {
    /// Fresh weights from `key`: embedding entries N(0, 1), projections N(0, 1/d), Λ at the
    /// S4D-real start, Δ's bias so that Δ starts log-uniform in [10⁻³, 10⁻¹] (Mamba's
    /// initialisation), read-out bias 0; with [`Head::GeluGlu`], D N(0, 1) (as s4d.py), the map to
    /// 2d N(0, 1/d) and its bias 0; with the convolution, c₀, c₁ and b uniform on ±1/√2
    /// (PyTorch's default for a depthwise kernel of 2, as Mamba's `conv1d`).
    pub fn init(shape: ClassifierShape, key: StreamKey) -> Result<Self> {
        let ClassifierShape { kind, vocab, d, n, position, head, conv } = shape;
        if d < 1 + usize::from(position) || n == 0 || vocab < 2 {
            return Err(Error::InvalidParameter(format!(
                "a trained classifier has d ≥ {} channels, N ≥ 1 and |V| ≥ 2 (got {kind:?}, d = {d}, N = {n}, |V| = {vocab})",
                1 + usize::from(position)
            )));
        }
        if conv && !matches!(kind, MixerKind::Mamba | MixerKind::DeltaT) {
            return Err(Error::InvalidParameter(format!("only Mamba and Mamba-Δᵀ classifiers have the short convolution here (got {kind:?})")));
        }
        let mut s = Stream::new(key, 0);
        let mut normal = |rows: usize, cols: usize, scale: f64| -> Result<Var> { var((0..rows * cols).map(|_| scale * s.normal()).collect(), rows, cols) };
        let inv_sqrt_d = 1.0 / (d as f64).sqrt();
        let embedding = normal(vocab, d - usize::from(position), 1.0)?;
        let w_o = normal(vocab, d, inv_sqrt_d)?;
        let log_neg_lambda = match kind {
            MixerKind::Mamba2 => var(vec![(1.0 + 15.0 * Stream::new(key, 2).uniform()).ln()], 1, 1)?,
            _ => var((0..d * n).map(|i| ((i % n + 1) as f64).ln()).collect(), d, n)?,
        };
        let log_uniform_delta = |u: f64| softplus_inv((1e-3f64.ln() + u * (1e-1f64.ln() - 1e-3f64.ln())).exp());
        let selection = match kind {
            MixerKind::Mamba | MixerKind::Mamba2 | MixerKind::DeltaT => {
                // Mamba: Δ per channel (d rows); a Mamba-2 head: one Δ per step (one row);
                // Mamba-Δᵀ: one per state slot (N rows).
                let rows = match kind {
                    MixerKind::Mamba2 => 1,
                    MixerKind::DeltaT => n,
                    _ => d,
                };
                let (w_delta, w_b, w_c) = (normal(rows, d, 0.1 * inv_sqrt_d)?, normal(n, d, inv_sqrt_d)?, normal(n, d, inv_sqrt_d)?);
                let mut u = Stream::new(key, 1);
                let b_delta = var((0..rows).map(|_| log_uniform_delta(u.uniform())).collect(), rows, 1)?;
                Selection::Input { w_delta, b_delta, w_b, w_c }
            }
            _ => {
                let (b, c) = (normal(n, 1, 1.0)?, normal(n, 1, 1.0)?);
                let delta = var(vec![log_uniform_delta(Stream::new(key, 1).uniform())], 1, 1)?;
                Selection::Constant { delta, b, c }
            }
        };
        let glu = match head {
            Head::Linear => None,
            Head::GeluGlu => {
                let mut s = Stream::new(key, 3);
                let skip = var((0..d).map(|_| s.normal()).collect(), d, 1)?;
                Some(GluHead { skip, w: var((0..2 * d * d).map(|_| inv_sqrt_d * s.normal()).collect(), 2 * d, d)?, b: var(vec![0.0; 2 * d], 2 * d, 1)? })
            }
        };
        let conv = if conv {
            let mut s = Stream::new(key, 4);
            let mut uniform = || var((0..d).map(|_| std::f64::consts::FRAC_1_SQRT_2 * (2.0 * s.uniform() - 1.0)).collect(), 1, d);
            Some(ConvWeights { c0: uniform()?, c1: uniform()?, bias: uniform()? })
        } else {
            None
        };
        Ok(SsmClassifier { shape, embedding, log_neg_lambda, selection, glu, conv, w_o, b_o: var(vec![0.0; vocab], vocab, 1)? })
    }

    /// Every trainable variable.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.embedding.clone(), self.log_neg_lambda.clone(), self.w_o.clone(), self.b_o.clone()];
        match &self.selection {
            Selection::Input { w_delta, b_delta, w_b, w_c } => v.extend([w_delta, b_delta, w_b, w_c].map(Var::clone)),
            Selection::Constant { delta, b, c } => v.extend([delta, b, c].map(Var::clone)),
        }
        if let Some(GluHead { skip, w, b }) = &self.glu {
            v.extend([skip, w, b].map(Var::clone));
        }
        if let Some(ConvWeights { c0, c1, bias }) = &self.conv {
            v.extend([c0, c1, bias].map(Var::clone));
        }
        v
    }

    /// The number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.vars().iter().map(|v| v.elem_count()).sum()
    }

    /// The inputs x_t (batch × T × d): embeddings, and t in the last coordinate with PE.
    fn inputs(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let (batch, len) = (tokens.len(), tokens.first().map_or(0, Vec::len));
        let ids: Vec<u32> = tokens.iter().flatten().map(|&t| t as u32).collect();
        let x = self.embedding.embedding(&Tensor::from_vec(ids, batch * len, &Device::Cpu)?)?;
        let x = if self.shape.position {
            let pos: Vec<f64> = (0..batch * len).map(|i| (i % len + 1) as f64).collect();
            Tensor::cat(&[x, Tensor::from_vec(pos, (batch * len, 1), &Device::Cpu)?], 1)?
        } else {
            x
        };
        x.reshape((batch, len, self.shape.d))
    }

    /// x̂ (batch × T × d): the short convolution of x, or x itself.
    fn convolved(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let Some(ConvWeights { c0, c1, bias }) = &self.conv else { return Ok(x.clone()) };
        let (batch, len, d) = x.dims3()?;
        let previous = Tensor::cat(&[&Tensor::zeros((batch, 1, d), DType::F64, &Device::Cpu)?, &x.narrow(1, 0, len - 1)?], 1)?;
        let z = (previous.broadcast_mul(&c0.as_tensor().unsqueeze(0)?)? + x.broadcast_mul(&c1.as_tensor().unsqueeze(0)?)?)?
            .broadcast_sub(&bias.as_tensor().unsqueeze(0)?)?;
        silu(&z)
    }

    /// Δ (batch × T × d, or × N for Mamba-Δᵀ), Λ (d × N), B and C (batch × T × N) for the
    /// SSM's inputs x (x̂ when there is a convolution).
    fn recurrence(&self, x: &Tensor) -> candle_core::Result<[Tensor; 4]> {
        let (batch, len, d) = x.dims3()?;
        let n = self.shape.n;
        // Λ is d × N (Mamba, S4D) or one scalar (a Mamba-2 head), broadcast to d × N.
        let lambda = self.log_neg_lambda.as_tensor().exp()?.neg()?.broadcast_as((d, n))?.contiguous()?;
        let flat = x.reshape((batch * len, d))?;
        let width = if self.shape.kind == MixerKind::DeltaT { n } else { d };
        let [delta, b, c] = match &self.selection {
            Selection::Input { w_delta, b_delta, w_b, w_c } => {
                let pre = flat.matmul(&w_delta.as_tensor().t()?)?.broadcast_add(&b_delta.as_tensor().t()?)?;
                // A Mamba-2 head's one Δ per step drives every channel.
                [softplus(&pre)?.broadcast_as((batch * len, width))?.contiguous()?, flat.matmul(&w_b.as_tensor().t()?)?, flat.matmul(&w_c.as_tensor().t()?)?]
            }
            Selection::Constant { delta, b, c } => [
                softplus(delta.as_tensor())?.broadcast_as((batch * len, d))?,
                b.as_tensor().t()?.broadcast_as((batch * len, n))?,
                c.as_tensor().t()?.broadcast_as((batch * len, n))?,
            ],
        };
        Ok([delta.reshape((batch, len, width))?, lambda, b.reshape((batch, len, n))?, c.reshape((batch, len, n))?])
    }

    /// The logits (batch × T × |V|) of a batch of token sequences of one length.
    pub fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let x = self.convolved(&self.inputs(tokens)?)?;
        let [delta, lambda, b, c] = self.recurrence(&x)?;
        let y = if self.shape.kind == MixerKind::DeltaT {
            delta_t_scan(&x, &lambda, &delta, &b, &c)?
        } else {
            selective_scan(&x.contiguous()?, &delta.contiguous()?, &lambda.t()?.contiguous()?, &b.contiguous()?, &c.contiguous()?)?
        };
        let (batch, len, d) = y.dims3()?;
        let y = match &self.glu {
            None => y.reshape((batch * len, d))?,
            Some(GluHead { skip, w, b }) => {
                let skipped = (y + x.broadcast_mul(&skip.as_tensor().reshape((1, 1, d))?)?)?;
                let z = skipped.reshape((batch * len, d))?.gelu_erf()?.matmul(&w.as_tensor().t()?)?.broadcast_add(&b.as_tensor().t()?)?;
                let gate = (z.narrow(1, d, d)?.neg()?.exp()? + 1.0)?.recip()?;
                (z.narrow(1, 0, d)? * gate)?
            }
        };
        let z = y.matmul(&self.w_o.as_tensor().t()?)?.broadcast_add(&self.b_o.as_tensor().t()?)?;
        z.reshape((batch, len, self.shape.vocab))
    }

    /// The decays `e^{Λ[a,n] Δ_t[a]}` (batch × T × d × N; `e^{Λ[a,n] Δ_t[n]}` for Mamba-Δᵀ) on
    /// a batch: 000 Figure 1's histogram variable (the paper's `e^{−λΔ_t}` with λ = −Λ).
    pub fn decays(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let [delta, lambda, _, _] = self.recurrence(&self.convolved(&self.inputs(tokens)?)?)?;
        let (d, n) = (self.shape.d, self.shape.n);
        let steps = if self.shape.kind == MixerKind::DeltaT { delta.unsqueeze(2)? } else { delta.unsqueeze(3)? };
        steps.broadcast_mul(&lambda.reshape((1, 1, d, n))?)?.exp()
    }

    /// The same weights as the suite's mixer (its convolution, or the identity; no gate) and
    /// read-out, with the embeddings x_t of a token sequence.
    pub fn to_model(&self, tokens: &[usize]) -> Result<(Mixer, Readout, Vec<DVector<f64>>)> {
        let err = |e| super::candle_error("reading the weights", e);
        let matrix = super::var_matrix;
        let column = |v: &Var| -> Result<DVector<f64>> { Ok(DVector::from_column_slice(matrix(v)?.as_slice())) };
        let (d, n, kind) = (self.shape.d, self.shape.n, self.shape.kind);
        if self.glu.is_some() {
            return Err(Error::InvalidParameter(
                "the suite's Mixer and Readout have no GELU-GLU head: only a classifier with Head::Linear is a suite model".into(),
            ));
        }
        let (delta, b, c) = match &self.selection {
            Selection::Input { w_delta, b_delta, w_b, w_c } => {
                (StepSize::Softplus { w: matrix(w_delta)?, b: column(b_delta)? }, Projection::Linear(matrix(w_b)?), Projection::Linear(matrix(w_c)?))
            }
            Selection::Constant { delta, b, c } => (
                StepSize::Constant(crate::math::softplus::softplus(matrix(delta)?[(0, 0)])),
                Projection::Constant(column(b)?),
                Projection::Constant(column(c)?),
            ),
        };
        let identity = || ShortConv::uniform(d, 0.0, 1.0, 0.0, Activation::Identity);
        let row = |v: &Var| -> Result<DVector<f64>> { Ok(DVector::from_row_slice(matrix(v)?.as_slice())) };
        let conv = match &self.conv {
            Some(ConvWeights { c0, c1, bias }) => ShortConv { c0: row(c0)?, c1: row(c1)?, bias: row(bias)?, act: Activation::Silu },
            None => identity(),
        };
        let theta = matrix(&self.log_neg_lambda)?;
        let lambda = if kind == MixerKind::Mamba2 { nalgebra::DMatrix::from_element(d, n, -theta[(0, 0)].exp()) } else { theta.map(|v| -v.exp()) };
        let mixer = Mixer { kind, conv, conv_bc: (kind == MixerKind::Mamba2).then(|| (identity(), identity())), lambda, delta, b, c, skip: None, gate: None };
        let readout = Readout { w: matrix(&self.w_o)?, b: column(&self.b_o)? };
        let x = self.inputs(&[tokens.to_vec()]).and_then(|x| x.reshape((tokens.len(), d))).map_err(err)?;
        let xs = matrix(&Var::from_tensor(&x).map_err(err)?)?.row_iter().map(|r| r.transpose()).collect();
        Ok((mixer, readout, xs))
    }
}

/// The mean cross-entropy of `logits` (batch × T × |V|) at the scored positions of a batch.
pub fn cross_entropy(logits: &Tensor, positions: &[usize], targets: &[Vec<usize>]) -> candle_core::Result<Tensor> {
    let scored = logits.index_select(&Tensor::from_vec(positions.iter().map(|&p| p as u32).collect::<Vec<_>>(), positions.len(), &Device::Cpu)?, 1)?;
    let (batch, p, v) = scored.dims3()?;
    let flat = scored.reshape((batch * p, v))?;
    let ids: Vec<u32> = targets.iter().flatten().map(|&t| t as u32).collect();
    let picked = flat.gather(&Tensor::from_vec(ids, (batch * p, 1), &Device::Cpu)?, 1)?;
    (flat.log_sum_exp(D::Minus1)? - picked.squeeze(1)?)?.mean_all()
}

/// The fraction of scored positions whose argmax logit is the target.
pub fn accuracy(logits: &Tensor, positions: &[usize], targets: &[Vec<usize>]) -> candle_core::Result<f64> {
    let best = logits.argmax(D::Minus1)?.to_dtype(DType::U32)?.to_vec2::<u32>()?;
    let (mut right, mut all) = (0usize, 0usize);
    for (row, want) in best.iter().zip(targets) {
        for (&p, &t) in positions.iter().zip(want) {
            right += usize::from(row[p] as usize == t);
            all += 1;
        }
    }
    Ok(right as f64 / all.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mixer::argmax_margin;

    fn shape(kind: MixerKind, position: bool) -> ClassifierShape {
        ClassifierShape { kind, vocab: 7, d: 5, n: 3, position, head: Head::Linear, conv: false }
    }

    /// The trained model and the suite's mixer give the same logits on the same weights. They
    /// share the scan; they differ in softplus (≤ 2 ulp apart), in the order of the projections'
    /// sums (d terms) and of the read-out's, so over L = 9 steps the logits (O(1) here) agree
    /// to a few hundred roundings: 10⁻¹² leaves a factor 10 to spare.
    #[test]
    fn the_trained_model_is_the_suites_mixer() {
        let models = [
            (MixerKind::Mamba, true),
            (MixerKind::Mamba, false),
            (MixerKind::Mamba2, true),
            (MixerKind::Mamba2, false),
            (MixerKind::S4d, true),
            (MixerKind::S4d, false),
        ];
        for (i, (kind, pe)) in models.into_iter().enumerate() {
            let m = SsmClassifier::init(shape(kind, pe), StreamKey::new(i as u64, "test")).unwrap();
            let tokens = vec![3, 1, 4, 1, 5, 6, 2, 6, 5];
            let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let (mixer, readout, xs) = m.to_model(&tokens).unwrap();
            mixer.validate().unwrap();
            for (t, y) in mixer.forward(&xs).iter().enumerate() {
                let z = readout.logits(y);
                for (a, b) in logits[t].iter().zip(z.iter()) {
                    assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{kind:?} PE {pe} t {t}: {a} vs {b}");
                }
                let best = logits[t].iter().enumerate().fold(0, |k, (j, &v)| if v > logits[t][k] { j } else { k });
                assert_eq!(best, argmax_margin(&z).0);
            }
        }
    }

    /// The S4D layer's head on the same scan: y_t + D ⊙ x_t, GELU (erf form), the linear map to
    /// 2d, the GLU and the read-out, by hand in f64 from the suite's mixer. The twin with a
    /// linear head shares every other weight (the head's weights come from a stream of their
    /// own). GELU is candle's own on a scalar (the test is of the head's structure, not of erf);
    /// the map and the read-out add 2d and d terms in another order: 10⁻¹² leaves room, as above.
    #[test]
    fn the_s4d_layers_head_is_skip_gelu_and_glu_on_the_scan() {
        let glu_shape = |pe| ClassifierShape { head: Head::GeluGlu, ..shape(MixerKind::S4d, pe) };
        for pe in [false, true] {
            let key = StreamKey::new(5, "glu");
            let (twin, m) = (SsmClassifier::init(shape(MixerKind::S4d, pe), key).unwrap(), SsmClassifier::init(glu_shape(pe), key).unwrap());
            assert!(m.to_model(&[1, 2]).is_err(), "no suite model has the head");
            let tokens = vec![3, 1, 4, 1, 5, 6, 2];
            let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let (mixer, readout, xs) = twin.to_model(&tokens).unwrap();
            let g = m.glu.as_ref().unwrap();
            let (skip, w, b) = (super::super::var_matrix(&g.skip).unwrap(), super::super::var_matrix(&g.w).unwrap(), super::super::var_matrix(&g.b).unwrap());
            let gelu = |v: f64| Tensor::new(v, &Device::Cpu).and_then(|t| t.gelu_erf()).and_then(|t| t.to_scalar::<f64>()).unwrap();
            let d = 5;
            for (t, y) in mixer.forward(&xs).iter().enumerate() {
                let u = DVector::from_iterator(d, (0..d).map(|a| gelu(y[a] + skip[(a, 0)] * xs[t][a])));
                let z = &w * u + b.column(0);
                let out = DVector::from_iterator(d, (0..d).map(|a| z[a] / (1.0 + (-z[d + a]).exp())));
                for (a, want) in logits[t].iter().zip(readout.logits(&out).iter()) {
                    assert!((a - want).abs() <= 1e-12 * want.abs().max(1.0), "PE {pe} t {t}: {a} vs {want}");
                }
            }
        }
        // D (d), the map to 2d (2d·d) and its bias (2d) on top of the linear S4D's count.
        assert_eq!(SsmClassifier::init(glu_shape(false), StreamKey::new(0, "t")).unwrap().parameters(), 35 + 15 + 35 + 7 + 1 + 3 + 3 + 5 + 50 + 10);
    }

    /// Mamba and Mamba-Δᵀ with the short convolution (SiLU) against the suite's mixer, which
    /// runs its own loop for Mamba-Δᵀ; the convolution adds two products and a sum per entry
    /// and SiLU's exponential (≤ 1 ulp apart): the same 10⁻¹² as above.
    #[test]
    fn the_convolution_and_mamba_delta_t_are_the_suites_mixer() {
        for (i, kind) in [MixerKind::Mamba, MixerKind::DeltaT].into_iter().enumerate() {
            for conv in [false, true] {
                let m = SsmClassifier::init(ClassifierShape { kind, conv, ..shape(MixerKind::Mamba, false) }, StreamKey::new(10 + i as u64, "conv")).unwrap();
                let tokens = vec![3, 1, 4, 1, 5, 6, 2, 6, 5];
                let logits = m.logits(std::slice::from_ref(&tokens)).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
                let (mixer, readout, xs) = m.to_model(&tokens).unwrap();
                mixer.validate().unwrap();
                assert_eq!(mixer.conv.act, if conv { Activation::Silu } else { Activation::Identity });
                for (t, y) in mixer.forward(&xs).iter().enumerate() {
                    for (a, b) in logits[t].iter().zip(readout.logits(y).iter()) {
                        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{kind:?} conv {conv} t {t}: {a} vs {b}");
                    }
                }
            }
        }
        // Mamba-Δᵀ's decays vary along the state slots: e^{Λ[a,n] Δ_t[n]} is Λ[a,n] Δ_t[n].
        let m =
            SsmClassifier::init(ClassifierShape { kind: MixerKind::DeltaT, conv: true, ..shape(MixerKind::Mamba, false) }, StreamKey::new(3, "conv")).unwrap();
        assert_eq!(m.decays(&[vec![1, 2, 3]]).unwrap().dims(), &[1, 3, 5, 3]);
    }

    #[test]
    fn bad_shapes_are_one_clear_error() {
        let bad = ClassifierShape { kind: MixerKind::S4d, conv: true, ..shape(MixerKind::Mamba, false) };
        assert!(SsmClassifier::init(bad, StreamKey::new(0, "t")).unwrap_err().to_string().contains("only Mamba and Mamba-Δᵀ"));
        let narrow = ClassifierShape { d: 1, ..shape(MixerKind::Mamba, true) };
        assert!(SsmClassifier::init(narrow, StreamKey::new(0, "t")).is_err());
    }

    #[test]
    fn parameter_counts() {
        // Mamba + PE: 7·4 + 5·3 + 7·5 + 7 + 5·5 + 5 + 3·5 + 3·5; S4D: 7·5 + 15 + 35 + 7 + 1 + 3 + 3.
        assert_eq!(SsmClassifier::init(shape(MixerKind::Mamba, true), StreamKey::new(0, "t")).unwrap().parameters(), 28 + 15 + 35 + 7 + 25 + 5 + 15 + 15);
        assert_eq!(SsmClassifier::init(shape(MixerKind::S4d, false), StreamKey::new(0, "t")).unwrap().parameters(), 35 + 15 + 35 + 7 + 1 + 3 + 3);
        // Mamba-Δᵀ with the convolution: Mamba's count with W_Δ N × d (15) and b_Δ N (3) for
        // 5·5 and 5, and c₀, c₁, b (5 each).
        let delta_t = ClassifierShape { kind: MixerKind::DeltaT, conv: true, ..shape(MixerKind::Mamba, false) };
        assert_eq!(SsmClassifier::init(delta_t, StreamKey::new(0, "t")).unwrap().parameters(), 35 + 15 + 35 + 7 + 15 + 3 + 15 + 15 + 15);
        // A Mamba-2 head: 7·5 + 1 (Λ) + 35 + 7 + 5 + 1 (w_Δ, b_Δ) + 15 + 15.
        assert_eq!(SsmClassifier::init(shape(MixerKind::Mamba2, false), StreamKey::new(0, "t")).unwrap().parameters(), 35 + 1 + 35 + 7 + 5 + 1 + 15 + 15);
    }
}
