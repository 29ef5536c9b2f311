//! RoPE (Su et al., "rotate half"): the pair (j, j + d_h/2) of a head's coordinates at position
//! t turned by the angle t·10000^{−2j/d_h}, as one candle operation.
//!
//! [`rotate_by_ops`] writes the rotation in tensor operations: two narrows, four broadcast
//! products with the cosine and sine tables, a difference, a sum and a concatenation, whose
//! autograd also multiplies every incoming gradient into the tables (constants, whose
//! gradients nothing reads) and adds each of its intermediate gradients to a zero tensor.
//! [`rotate`] makes exactly the floating-point operations of that graph that reach x, and no
//! others, so it gives the same bits forward and backward (tested). Per element of a pair,
//! with (F, S) the incoming gradients of the rotated pair, candle computes, in its reverse
//! topological order:
//!
//! * forward: `(x₁ cos − x₂ sin, x₁ sin + x₂ cos)`, each product rounded, then the difference
//!   or the sum;
//! * backward: f = 0 + F, s = 0 + S (the concatenation), then
//!   `∂x₁ = (0 + (0 + s)·sin) + (0 + f)·cos` and `∂x₂ = (0 + (0 + s)·cos) + (0 − f)·sin`,
//!   then `0 + ·` once more as the two narrows' gradients are padded and added to x's.
//!
//! x's only consumers were the two narrows, so no other gradient's sum changes its grouping
//! (the argument of [`super::activation`]'s module doc).

use super::values::{tensor_values, with_values};
use candle_core::{CpuStorage, CustomOp1, Device, Layout, Shape, Tensor, D};

/// The cosines and sines of RoPE's angles t·10000^{−2j/d_h}, t < T, j < d_h/2 (T × d_h/2 each).
pub fn rope_tables(len: usize, head_dim: usize) -> candle_core::Result<(Tensor, Tensor)> {
    let half = head_dim / 2;
    let angles: Vec<f64> = (0..len).flat_map(|t| (0..half).map(move |j| t as f64 * 10000f64.powf(-2.0 * j as f64 / head_dim as f64))).collect();
    let cos = Tensor::from_vec(angles.iter().map(|a| a.cos()).collect::<Vec<_>>(), (len, half), &Device::Cpu)?;
    let sin = Tensor::from_vec(angles.iter().map(|a| a.sin()).collect::<Vec<_>>(), (len, half), &Device::Cpu)?;
    Ok((cos, sin))
}

/// The rotation as one operation on x (… × T × d_h), with the tables' values (T × d_h/2).
#[derive(Clone, Debug)]
struct Rotate {
    cos: Vec<f64>,
    sin: Vec<f64>,
}

impl Rotate {
    /// Applies `pair(x₁, x₂, cos, sin) -> (first, second)` to every pair of `x` (row-major, of
    /// `shape`), writing the first halves and the second halves of each row.
    fn map(&self, x: &[f64], shape: &Shape, pair: impl Fn(f64, f64, f64, f64) -> (f64, f64)) -> candle_core::Result<Vec<f64>> {
        let dims = shape.dims();
        let (len, dh) = match dims {
            [.., len, dh] if dh % 2 == 0 && self.cos.len() == len * (dh / 2) => (*len, *dh),
            _ => candle_core::bail!("RoPE: x is {dims:?}, the tables {} entries; expected (…, T, d_h) with d_h even and T·d_h/2 entries", self.cos.len()),
        };
        let half = dh / 2;
        let mut out = vec![0.0; x.len()];
        for (row, (xr, or)) in x.chunks_exact(dh).zip(out.chunks_exact_mut(dh)).enumerate() {
            let t = row % len;
            let (cos, sin) = (&self.cos[t * half..(t + 1) * half], &self.sin[t * half..(t + 1) * half]);
            let (o1, o2) = or.split_at_mut(half);
            for j in 0..half {
                (o1[j], o2[j]) = pair(xr[j], xr[half + j], cos[j], sin[j]);
            }
        }
        Ok(out)
    }
}

impl CustomOp1 for Rotate {
    fn name(&self) -> &'static str {
        "rope"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let y = with_values(s, l, "RoPE", |x| self.map(x, l.shape(), |x1, x2, cos, sin| (x1 * cos - x2 * sin, x1 * sin + x2 * cos)))??;
        Ok((CpuStorage::F64(y), l.shape().clone()))
    }

    fn bwd(&self, arg: &Tensor, _res: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
        let dx = tensor_values(grad, "RoPE", |g| {
            self.map(g, arg.shape(), |first, second, cos, sin| {
                let (f, s) = (0.0 + first, 0.0 + second);
                let dx1 = (0.0 + (0.0 + s) * sin) + (0.0 + f) * cos;
                let dx2 = (0.0 + (0.0 + s) * cos) + (0.0 - f) * sin;
                (0.0 + dx1, 0.0 + dx2)
            })
        })??;
        Tensor::from_vec(dx, arg.shape(), arg.device()).map(Some)
    }
}

/// x (… × T × d_h, f64) with the pair (j, j + d_h/2) at position t turned by the angle of
/// [`rope_tables`], in one operation: [`rotate_by_ops`]'s bits forward and backward.
pub fn rotate(x: &Tensor, cos: &Tensor, sin: &Tensor) -> candle_core::Result<Tensor> {
    let table = |t: &Tensor| t.flatten_all()?.to_vec1::<f64>();
    x.apply_op1(Rotate { cos: table(cos)?, sin: table(sin)? })
}

/// The same rotation in tensor operations: the form [`rotate`] reproduces.
pub fn rotate_by_ops(x: &Tensor, cos: &Tensor, sin: &Tensor) -> candle_core::Result<Tensor> {
    let half = x.dim(D::Minus1)? / 2;
    let (x1, x2) = (x.narrow(D::Minus1, 0, half)?, x.narrow(D::Minus1, half, half)?);
    let first = (x1.broadcast_mul(cos)? - x2.broadcast_mul(sin)?)?;
    let second = (x1.broadcast_mul(sin)? + x2.broadcast_mul(cos)?)?;
    Tensor::cat(&[first, second], D::Minus1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::Var;

    /// RoPE: for queries and keys that are the same vector at every position, the score
    /// q_m·k_n depends on m − n only, and rotation keeps each row's norm. Each score is a sum of
    /// d_h = 8 products of rotated coordinates, each rotation two products and a sum with cos and
    /// sin of their own angles (one ulp each): about 4·d_h roundings of |q||k|, so 64·u·|q||k|
    /// bounds the difference of two scores and leaves a factor two. Control: rotating only the
    /// queries makes the scores depend on the absolute position.
    #[test]
    fn rope_scores_depend_on_the_relative_position_only() {
        let (len, dh) = (12, 8);
        let mut s = Stream::new(StreamKey::new(1, "rope"), 0);
        let (qv, kv): (Vec<f64>, Vec<f64>) = ((0..dh).map(|_| s.normal()).collect(), (0..dh).map(|_| s.normal()).collect());
        let repeat = |v: &[f64]| Tensor::from_vec(v.repeat(len), (1, len, dh), &Device::Cpu).unwrap();
        let (cos, sin) = rope_tables(len, dh).unwrap();
        let (q, k) = (rotate(&repeat(&qv), &cos, &sin).unwrap(), rotate(&repeat(&kv), &cos, &sin).unwrap());
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let bound = 64.0 * f64::EPSILON * norm(&qv) * norm(&kv);
        let scores = q.matmul(&k.t().unwrap()).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        for m in 0..len - 1 {
            for n in 0..len - 1 {
                assert!((scores[m][n] - scores[m + 1][n + 1]).abs() <= bound, "({m}, {n}): {} vs {}", scores[m][n], scores[m + 1][n + 1]);
            }
        }
        for row in q.squeeze(0).unwrap().to_vec2::<f64>().unwrap() {
            assert!((norm(&row) - norm(&qv)).abs() <= 8.0 * f64::EPSILON * norm(&qv));
        }
        let half_rotated = repeat(&qv).matmul(&k.t().unwrap()).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        assert!((half_rotated[0][0] - half_rotated[1][1]).abs() > 1e3 * bound, "rotating the keys alone must break the invariance");
    }

    /// The bits of a tensor's values.
    fn bits(t: &Tensor) -> Vec<u64> {
        t.flatten_all().unwrap().to_vec1::<f64>().unwrap().iter().map(|x| x.to_bits()).collect()
    }

    /// Forward values and x's gradient of a weighted sum of the rotated values, through
    /// `rotate_with`, for x (batch·H × T × d_h) read as the Transformer reads it: a head split
    /// of a projection (a transposed view made contiguous by its reshape) or a strided view.
    fn run(rotate_with: fn(&Tensor, &Tensor, &Tensor) -> candle_core::Result<Tensor>, seed: u64, strided: bool) -> (Vec<u64>, Vec<u64>) {
        let (bh, len, dh) = (6, 11, 8);
        let mut s = Stream::new(StreamKey::new(seed, "rope bits"), 0);
        let mut v: Vec<f64> = (0..bh * len * dh).map(|i| [0.01, 1.0, 30.0][i % 3] * s.normal()).collect();
        v[..4].copy_from_slice(&[0.0, -0.0, 0.0, -0.0]);
        let var = Var::from_tensor(&Tensor::from_vec(v, (bh, dh, len), &Device::Cpu).unwrap()).unwrap();
        let x = var.as_tensor().transpose(1, 2).unwrap();
        let x = if strided { x } else { x.contiguous().unwrap() };
        let (cos, sin) = rope_tables(len, dh).unwrap();
        let y = rotate_with(&x, &cos, &sin).unwrap();
        let w: Vec<f64> = (0..y.elem_count()).map(|k| if k % 17 == 0 { -0.0 } else { ((k * 7919) % 101) as f64 / 50.0 - 1.0 }).collect();
        let loss = (&y * Tensor::from_vec(w, y.shape(), &Device::Cpu).unwrap()).unwrap().sum_all().unwrap();
        (bits(&y), bits(loss.backward().unwrap().get(var.as_tensor()).unwrap()))
    }

    #[test]
    fn the_operation_is_the_op_by_op_graph_bit_for_bit() {
        for seed in [1, 2, 3] {
            for strided in [false, true] {
                assert_eq!(run(rotate, seed, strided), run(rotate_by_ops, seed, strided), "seed {seed}, strided {strided}");
            }
        }
    }

    /// Control: the backward pass with each coordinate's two products and sum as one fused
    /// multiply-add (`F cos + S sin` and `S cos − F sin` with one rounding fewer: the same value
    /// in exact arithmetic) differs in some bits from candle's, so the comparison above catches
    /// a gradient right only to rounding.
    #[test]
    fn a_gradient_right_only_to_rounding_is_caught() {
        #[derive(Clone)]
        struct Transposed(Rotate);
        impl CustomOp1 for Transposed {
            fn name(&self) -> &'static str {
                "rope-transposed"
            }
            fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
                self.0.cpu_fwd(s, l)
            }
            fn bwd(&self, arg: &Tensor, _res: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
                let dx = tensor_values(grad, "test", |g| self.0.map(g, arg.shape(), |f, s, cos, sin| (f.mul_add(cos, s * sin), s.mul_add(cos, -(f * sin)))))??;
                Tensor::from_vec(dx, arg.shape(), arg.device()).map(Some)
            }
        }
        fn transposed(x: &Tensor, cos: &Tensor, sin: &Tensor) -> candle_core::Result<Tensor> {
            let table = |t: &Tensor| t.flatten_all()?.to_vec1::<f64>();
            x.apply_op1(Transposed(Rotate { cos: table(cos)?, sin: table(sin)? }))
        }
        let (candle, other) = (run(rotate_by_ops, 1, false), run(transposed, 1, false));
        assert_eq!(candle.0, other.0, "the same forward pass");
        assert_ne!(candle.1, other.1, "the fused multiply-adds gave the same bits everywhere");
    }

    #[test]
    fn bad_shapes_are_one_clear_error() {
        let (cos, sin) = rope_tables(4, 8).unwrap();
        for x in
            [Tensor::zeros((2, 5, 8), candle_core::DType::F64, &Device::Cpu).unwrap(), Tensor::zeros((2, 4, 7), candle_core::DType::F64, &Device::Cpu).unwrap()]
        {
            let e = rotate(&x, &cos, &sin).unwrap_err().to_string();
            assert!(e.lines().next().is_some_and(|l| l.starts_with("RoPE: x is")), "{e}");
        }
    }
}
