//! The causal softmax of attention scores as one candle operation with its own backward pass.
//!
//! For scores S (batch × T × T, row τ the current position, column i the attended one) the
//! weights are `W(τ, i) = e^{S(τ, i) − m_τ} / Σ_{j ≤ τ} e^{S(τ, j) − m_τ}` for i ≤ τ and 0 above the
//! diagonal, with m_τ = max_{j ≤ τ} S(τ, j). Its backward pass is
//! `∂ℓ/∂S(τ, i) = W(τ, i) (G(τ, i) − Σ_{j ≤ τ} W(τ, j) G(τ, j))` with G = ∂ℓ/∂W.
//!
//! Written as one loop over the lower triangle because the same softmax in candle's tensor
//! operations (mask, maximum, exp, sum, divide and their backward passes over the whole T × T
//! square) took 25–30 ms per training step of 16 sequences of 128 tokens, most of the step;
//! [`causal_softmax_by_ops`] keeps that form, and the operation is tested against its op-by-op
//! autograd.

use candle_core::{backend::BackendStorage, CpuStorage, CustomOp1, Device, Layout, Shape, Tensor, D};

/// The custom operation on a contiguous f64 tensor of shape (batch × T × T).
#[derive(Clone, Copy, Debug, Default)]
struct CausalSoftmaxOp;

/// A contiguous f64 batch of square matrices: its values and (batch, T).
fn squares<'a>(s: &'a CpuStorage, l: &Layout) -> candle_core::Result<(&'a [f64], usize, usize)> {
    let CpuStorage::F64(v) = s else { candle_core::bail!("causal softmax: the scores must be f64, not {:?}", s.dtype()) };
    let Some((start, end)) = l.contiguous_offsets() else { candle_core::bail!("causal softmax: the scores must be contiguous") };
    match *l.dims() {
        [batch, rows, cols] if rows == cols => Ok((&v[start..end], batch, rows)),
        ref other => candle_core::bail!("causal softmax: the scores must be a batch of square matrices, not of shape {other:?}"),
    }
}

impl CustomOp1 for CausalSoftmaxOp {
    fn name(&self) -> &'static str {
        "causal-softmax"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let (scores, batch, len) = squares(s, l)?;
        let mut w = vec![0.0; scores.len()];
        // Row r of the stacked squares is position τ = r mod T, which attends to i = 0..=τ.
        for (r, (row, out)) in scores.chunks(len).zip(w.chunks_mut(len)).enumerate() {
            let seen = &row[..=r % len];
            let m = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut z = 0.0;
            for (o, &v) in out.iter_mut().zip(seen) {
                *o = (v - m).exp();
                z += *o;
            }
            for o in &mut out[..seen.len()] {
                *o /= z;
            }
        }
        Ok((CpuStorage::F64(w), Shape::from((batch, len, len))))
    }

    fn bwd(&self, _scores: &Tensor, weights: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
        let (batch, len, _) = weights.dims3()?;
        let w = weights.flatten_all()?.to_vec1::<f64>()?;
        let g = grad.contiguous()?.flatten_all()?.to_vec1::<f64>()?;
        let mut ds = vec![0.0; w.len()];
        for (r, ((wr, gr), out)) in w.chunks(len).zip(g.chunks(len)).zip(ds.chunks_mut(len)).enumerate() {
            let k = r % len + 1;
            let mean: f64 = wr[..k].iter().zip(&gr[..k]).map(|(a, b)| a * b).sum();
            for ((o, &a), &b) in out[..k].iter_mut().zip(&wr[..k]).zip(&gr[..k]) {
                *o = a * (b - mean);
            }
        }
        Ok(Some(Tensor::from_vec(ds, (batch, len, len), &Device::Cpu)?))
    }
}

/// The causal softmax of `scores` (batch × T × T, f64): the custom operation.
pub fn causal_softmax(scores: &Tensor) -> candle_core::Result<Tensor> {
    scores.contiguous()?.apply_op1(CausalSoftmaxOp)
}

/// The same in candle's tensor operations (−∞ above the diagonal, the row maximum subtracted as
/// a constant): the form the custom operation is tested against.
pub fn causal_softmax_by_ops(scores: &Tensor) -> candle_core::Result<Tensor> {
    let len = scores.dim(D::Minus1)?;
    let mask: Vec<f64> = (0..len * len).map(|j| if j % len > j / len { f64::NEG_INFINITY } else { 0.0 }).collect();
    let masked = scores.broadcast_add(&Tensor::from_vec(mask, (len, len), &Device::Cpu)?)?;
    let e = masked.broadcast_sub(&masked.max_keepdim(D::Minus1)?.detach())?.exp()?;
    e.broadcast_div(&e.sum_keepdim(D::Minus1)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::Var;

    fn scores(seed: u64, batch: usize, len: usize, scale: f64) -> Var {
        let mut s = Stream::new(StreamKey::new(seed, "causal softmax"), 0);
        Var::from_tensor(&Tensor::from_vec((0..batch * len * len).map(|_| scale * s.normal()).collect::<Vec<f64>>(), (batch, len, len), &Device::Cpu).unwrap())
            .unwrap()
    }

    /// A loss that weighs every weight differently, so that its gradient tests every entry.
    fn loss(w: &Tensor) -> Tensor {
        let (b, t, _) = w.dims3().unwrap();
        let c: Vec<f64> = (0..b * t * t).map(|k| ((k * 7919) % 101) as f64 / 50.0 - 1.0).collect();
        (w * Tensor::from_vec(c, (b, t, t), &Device::Cpu).unwrap()).unwrap().sqr().unwrap().sum_all().unwrap()
    }

    /// Forward and backward agree with candle's op-by-op autograd of the same softmax. Both
    /// compute each weight from T exponentials and one sum (relative rounding ≤ (T + 2)·2⁻⁵³ per
    /// weight) and each gradient entry from a sum of T products of O(1) terms, so with T = 9 and
    /// scores up to ±30 they agree to 10⁻¹⁴ relative; 10⁻¹² leaves a factor 100.
    #[test]
    fn the_operation_equals_the_tensor_operations_and_their_autograd() {
        for (seed, scale) in [(1, 1.0), (2, 10.0)] {
            let s = scores(seed, 3, 9, scale);
            let (fast, slow) = (causal_softmax(s.as_tensor()).unwrap(), causal_softmax_by_ops(s.as_tensor()).unwrap());
            let diff = |a: &Tensor, b: &Tensor| {
                let (a, b) = (a.flatten_all().unwrap().to_vec1::<f64>().unwrap(), b.flatten_all().unwrap().to_vec1::<f64>().unwrap());
                let scale = b.iter().fold(0f64, |m, v| m.max(v.abs()));
                a.iter().zip(&b).fold(0f64, |m, (x, y)| m.max((x - y).abs())) / scale
            };
            assert!(diff(&fast, &slow) <= 1e-12, "forward at scale {scale}");
            let (gf, gs) = (loss(&fast).backward().unwrap(), loss(&slow).backward().unwrap());
            assert!(diff(gf.get(s.as_tensor()).unwrap(), gs.get(s.as_tensor()).unwrap()) <= 1e-12, "backward at scale {scale}");
        }
    }

    /// Negative control of the comparison: the gradient without the subtracted mean
    /// (∂ℓ/∂S = W ⊙ G, the softmax's Jacobian taken as diagonal) differs far beyond 10⁻¹².
    #[test]
    fn the_comparison_catches_a_gradient_without_the_mean() {
        let s = scores(3, 2, 6, 1.0);
        let w = causal_softmax(s.as_tensor()).unwrap();
        let g = loss(&causal_softmax_by_ops(s.as_tensor()).unwrap()).backward().unwrap();
        let right = g.get(s.as_tensor()).unwrap();
        let v = Var::from_tensor(&w).unwrap();
        let grad_w = loss(v.as_tensor()).backward().unwrap().get(v.as_tensor()).unwrap().clone();
        let wrong = (&w * grad_w).unwrap();
        let gap = (right - wrong).unwrap().abs().unwrap().max_keepdim(D::Minus1).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap();
        assert!(gap.iter().any(|&v| v > 1e-3), "{gap:?}");
    }

    /// Above the diagonal the weights are exactly 0 and every row sums to 1 within its rounding.
    #[test]
    fn rows_are_causal_distributions() {
        let w = causal_softmax(scores(4, 2, 7, 3.0).as_tensor()).unwrap().to_vec3::<f64>().unwrap();
        for m in &w {
            for (tau, row) in m.iter().enumerate() {
                assert!(row[tau + 1..].iter().all(|&v| v == 0.0));
                assert!((row.iter().sum::<f64>() - 1.0).abs() <= 8.0 * f64::EPSILON, "{row:?}");
            }
        }
    }

    #[test]
    fn a_non_square_input_is_one_clear_error() {
        let e = causal_softmax(&Tensor::zeros((2, 3, 4), candle_core::DType::F64, &Device::Cpu).unwrap()).unwrap_err().to_string();
        assert!(e.contains("batch of square matrices"), "{e}");
    }
}
