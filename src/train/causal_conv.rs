//! The causal depthwise convolution of Mamba's block (and of the Transformer's optional short
//! convolution) as one candle operation with its own backward pass:
//!
//! ```text
//! conv(x)_t[c] = b[c] + Σ_{j<k} w[c, j] x_{t+j−(k−1)}[c]      (x_s = 0 before the first step)
//! ```
//!
//! for x (batch × T × C), taps w (C × k) and bias b (1 × C), the sum added tap after tap from
//! the bias, as `causal_conv1d_ref` writes it. [`causal_conv_by_ops`] is the same convolution in
//! candle's tensor operations (x padded with k − 1 zero steps, then the bias plus one shifted,
//! scaled copy per tap); its graph is about twenty nodes per call, and in the copy claims'
//! training step they were a fifth of the time (one convolution's forward and backward on
//! 16 × 18 × 64: 1.32 ms by ops; AMD EPYC family 25 model 17, 2026-12-06).
//!
//! [`causal_conv`] computes the same numbers bit for bit, forward and backward (tests below):
//! every product and sum is the one the op-by-op graph rounds, in the same order. Backward, for
//! an upstream gradient G:
//!
//! - `∂/∂x_s[c]`: the taps' contributions `G_{s+k−1−j}[c] w[c, j]` (a step past the end
//!   contributing 0) added from 0 in the order the op-by-op backward pass visits the taps, the
//!   last tap first (`TAP_ORDER`);
//! - `∂/∂w[c, j]`: `Σ_{batch, t} G_t[c] x_{t+j−(k−1)}[c]`, row-major from 0, as [`super::expand`]'s
//!   backward pass sums a broadcast;
//! - `∂/∂b[c]`: `Σ_{batch, t} G_t[c]`, in the same order.
//!
//! The op-by-op graph also adds each gradient to a zero first (candle's accumulation), which
//! changes nothing but the sign of a zero: `0 + (−0) = +0`; the operation does the same, so even
//! the zeros agree.

use candle_core::{backend::BackendStorage, CpuStorage, CustomOp3, DType, Device, Layout, Shape, Tensor};

use super::expand::{expand, mul_expanded};

/// The order in which the backward pass adds the taps' contributions to ∂/∂x: the op-by-op
/// graph's backward pass visits the last tap's nodes first.
const TAP_ORDER: TapOrder = TapOrder::LastFirst;

/// An order of the taps in the sum behind ∂/∂x (one of them is the op-by-op graph's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TapOrder {
    /// j = 0, 1, …, k − 1: the tests' negative control (the same sum in another order, which
    /// the bit-for-bit comparison must catch).
    #[cfg_attr(not(test), allow(dead_code))]
    FirstFirst,
    /// j = k − 1, …, 1, 0.
    LastFirst,
}

/// The operation: arguments x (batch × T × C, any strides), w (C × k) and b (1 × C).
#[derive(Clone, Copy, Debug)]
struct CausalConvOp {
    order: TapOrder,
}

/// An f64 storage's values.
fn f64s<'a>(s: &'a CpuStorage, what: &str) -> candle_core::Result<&'a [f64]> {
    match s {
        CpuStorage::F64(v) => Ok(v),
        other => candle_core::bail!("causal convolution: {what} must be f64, not {:?}", other.dtype()),
    }
}

/// A tensor's values, row-major.
fn values(t: &Tensor) -> candle_core::Result<Vec<f64>> {
    t.flatten_all()?.to_vec1::<f64>()
}

/// The dimensions (batch, T, C, k), checked across the three arguments.
fn dimensions(x: &[usize], w: &[usize], b: &[usize]) -> candle_core::Result<[usize; 4]> {
    match (x, w, b) {
        (&[batch, len, channels], &[wc, k], &[1, bc]) if wc == channels && bc == channels && k >= 1 => Ok([batch, len, channels, k]),
        _ => candle_core::bail!("causal convolution: x is {x:?}, w {w:?}, b {b:?}; expected (batch, T, C), (C, k ≥ 1), (1, C)"),
    }
}

/// The taps transposed to k rows of C (`taps[j·C + c] = w[c, j]`), so that a step's sums run
/// across the channels.
fn tap_rows(w: &[f64], channels: usize, k: usize) -> Vec<f64> {
    (0..k).flat_map(|j| (0..channels).map(move |c| w[c * k + j])).collect()
}

impl CustomOp3 for CausalConvOp {
    fn name(&self) -> &'static str {
        "causal-depthwise-conv"
    }

    fn cpu_fwd(&self, s1: &CpuStorage, l1: &Layout, s2: &CpuStorage, l2: &Layout, s3: &CpuStorage, l3: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let [batch, len, channels, k] = dimensions(l1.dims(), l2.dims(), l3.dims())?;
        let (x, w, b) = (f64s(s1, "x")?, f64s(s2, "w")?, f64s(s3, "b")?);
        let (Some((w0, _)), Some((b0, _))) = (l2.contiguous_offsets(), l3.contiguous_offsets()) else {
            candle_core::bail!("causal convolution: w and b must be contiguous")
        };
        let taps = tap_rows(&w[w0..w0 + channels * k], channels, k);
        let bias = &b[b0..b0 + channels];
        let (start, [sb, st, sc]) = (l1.start_offset(), <[usize; 3]>::try_from(l1.stride()).expect("three dimensions"));
        let mut y = vec![0.0; batch * len * channels];
        let mut row = vec![0.0; channels];
        for (i, out) in y.chunks_exact_mut(channels).enumerate() {
            let (bi, t) = (i / len, i % len);
            out.copy_from_slice(bias);
            for (j, tap) in taps.chunks_exact(channels).enumerate() {
                // Step t + j − (k − 1) of x, or a padding step of zeros (whose products are still
                // added, as the op-by-op graph adds them: b + 0·w is b's bits only up to a zero's sign).
                match (t + j).checked_sub(k - 1) {
                    Some(s) => row.iter_mut().enumerate().for_each(|(c, v)| *v = x[start + bi * sb + s * st + c * sc]),
                    None => row.fill(0.0),
                }
                out.iter_mut().zip(&row).zip(tap).for_each(|((acc, &p), &w)| *acc += p * w);
            }
        }
        Ok((CpuStorage::F64(y), Shape::from((batch, len, channels))))
    }

    fn bwd(&self, x: &Tensor, w: &Tensor, b: &Tensor, _y: &Tensor, grad: &Tensor) -> candle_core::Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let [batch, len, channels, k] = dimensions(x.dims(), w.dims(), b.dims())?;
        let (xv, g, taps) = (values(x)?, values(grad)?, tap_rows(&values(w)?, channels, k));
        let order: Vec<usize> = match self.order {
            TapOrder::FirstFirst => (0..k).collect(),
            TapOrder::LastFirst => (0..k).rev().collect(),
        };
        let mut gx = vec![0.0; xv.len()];
        for (i, out) in gx.chunks_exact_mut(channels).enumerate() {
            let (bi, s) = (i / len, i % len);
            for &j in &order {
                // Step s of x is tap j's input at output step s + k − 1 − j.
                let t = s + k - 1 - j;
                if t < len {
                    let (gt, tap) = (&g[(bi * len + t) * channels..][..channels], &taps[j * channels..][..channels]);
                    out.iter_mut().zip(gt).zip(tap).for_each(|((acc, &g), &w)| *acc += 0.0 + g * w);
                } else {
                    out.iter_mut().for_each(|acc| *acc += 0.0);
                }
            }
        }
        // ∂/∂w[c, j] and ∂/∂b[c]: sums over (batch, t), row-major, from 0.
        let (mut gw_rows, mut gb) = (vec![0.0; k * channels], vec![0.0; channels]);
        for (i, gt) in g.chunks_exact(channels).enumerate() {
            let (bi, t) = (i / len, i % len);
            gb.iter_mut().zip(gt).for_each(|(s, &g)| *s += 0.0 + g);
            for (j, sums) in gw_rows.chunks_exact_mut(channels).enumerate() {
                match (t + j).checked_sub(k - 1) {
                    Some(s) => {
                        let xs = &xv[(bi * len + s) * channels..][..channels];
                        sums.iter_mut().zip(gt).zip(xs).for_each(|((sum, &g), &x)| *sum += 0.0 + g * x);
                    }
                    None => sums.iter_mut().zip(gt).for_each(|(sum, &g)| *sum += 0.0 + g * 0.0),
                }
            }
        }
        let gw: Vec<f64> = (0..channels).flat_map(|c| (0..k).map(move |j| (c, j))).map(|(c, j)| gw_rows[j * channels + c]).collect();
        let dev = Device::Cpu;
        Ok((
            Some(Tensor::from_vec(gx, (batch, len, channels), &dev)?),
            Some(Tensor::from_vec(gw, (channels, k), &dev)?),
            Some(Tensor::from_vec(gb, (1, channels), &dev)?),
        ))
    }
}

/// The causal depthwise convolution `conv(x)_t[c] = b[c] + Σ_{j<k} w[c, j] x_{t+j−(k−1)}[c]` of x
/// (batch × T × C) with taps w (C × k) and bias b (1 × C), zeros before the first step; one
/// operation, differentiable in all three, the bits of [`causal_conv_by_ops`] forward and
/// backward (module doc). Only f64 tensors on the CPU.
pub fn causal_conv(x: &Tensor, w: &Tensor, b: &Tensor) -> candle_core::Result<Tensor> {
    x.apply_op3(&w.contiguous()?, &b.contiguous()?, CausalConvOp { order: TAP_ORDER })
}

/// [`causal_conv`] in candle's tensor operations: x padded with k − 1 zero steps, then the bias
/// plus, tap after tap, the padded x shifted by the tap and scaled by it. The reference the
/// operation is tested against (slow: about twenty graph nodes).
pub fn causal_conv_by_ops(x: &Tensor, w: &Tensor, b: &Tensor) -> candle_core::Result<Tensor> {
    let (batch, len, channels) = x.dims3()?;
    let k = w.dim(1)?;
    let padded = Tensor::cat(&[&Tensor::zeros((batch, k - 1, channels), DType::F64, &Device::Cpu)?, x], 1)?;
    let mut acc = expand(&b.unsqueeze(0)?, (batch, len, channels))?;
    for j in 0..k {
        acc = (acc + mul_expanded(&padded.narrow(1, j, len)?, &w.narrow(1, j, 1)?.t()?.unsqueeze(0)?)?)?;
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::{Var, D};

    /// A random tensor of the given shape, a few entries set to ±0 (so that zeros' signs are
    /// exercised too).
    fn random(seed: u64, shape: (usize, usize, usize)) -> Tensor {
        let mut s = Stream::new(StreamKey::new(seed, "conv"), 0);
        let n = shape.0 * shape.1 * shape.2;
        let v: Vec<f64> = (0..n)
            .map(|i| match i % 23 {
                5 => 0.0,
                11 => -0.0,
                _ => s.normal(),
            })
            .collect();
        Tensor::from_vec(v, shape, &Device::Cpu).unwrap()
    }

    fn bits(t: &Tensor) -> Vec<u64> {
        values(t).unwrap().iter().map(|x| x.to_bits()).collect()
    }

    /// x (a strided slice of a wider tensor, as the block's x is of W_in's output), w, b, and
    /// gradients of a loss through SiLU (as the block uses it) for the given convolution.
    fn run(
        conv: impl Fn(&Tensor, &Tensor, &Tensor) -> candle_core::Result<Tensor>,
        seed: u64,
        (batch, len, channels, k): (usize, usize, usize, usize),
    ) -> [Vec<u64>; 4] {
        let wide = Var::from_tensor(&random(seed, (batch, len, channels + 3))).unwrap();
        let w = Var::from_tensor(&random(seed + 1, (1, channels, k)).squeeze(0).unwrap()).unwrap();
        let b = Var::from_tensor(&random(seed + 2, (1, 1, channels)).squeeze(0).unwrap()).unwrap();
        let x = wide.as_tensor().narrow(D::Minus1, 1, channels).unwrap();
        let y = conv(&x, w.as_tensor(), b.as_tensor()).unwrap();
        let weights = random(seed + 3, (batch, len, channels));
        let loss = (y.silu().unwrap() * weights).unwrap().sum_all().unwrap();
        let g = loss.backward().unwrap();
        [bits(&y), bits(g.get(wide.as_tensor()).unwrap()), bits(g.get(w.as_tensor()).unwrap()), bits(g.get(b.as_tensor()).unwrap())]
    }

    const SHAPES: [(usize, usize, usize, usize); 5] = [(16, 18, 64, 4), (2, 9, 7, 4), (3, 2, 5, 4), (1, 6, 3, 1), (2, 5, 4, 3)];

    #[test]
    fn the_operation_is_the_op_by_op_graph_bit_for_bit() {
        for (i, &shape) in SHAPES.iter().enumerate() {
            let seed = 10 * i as u64 + 1;
            let [y, gx, gw, gb] = run(causal_conv, seed, shape);
            let [y0, gx0, gw0, gb0] = run(causal_conv_by_ops, seed, shape);
            assert_eq!(y, y0, "forward, shape {shape:?}");
            assert_eq!(gx, gx0, "∂/∂x, shape {shape:?}");
            assert_eq!(gw, gw0, "∂/∂w, shape {shape:?}");
            assert_eq!(gb, gb0, "∂/∂b, shape {shape:?}");
        }
    }

    /// The comparison can fail: the taps added to ∂/∂x in the other order differ in the last bits.
    #[test]
    fn the_comparison_catches_the_taps_summed_in_the_other_order() {
        let other = |x: &Tensor, w: &Tensor, b: &Tensor| x.apply_op3(&w.contiguous()?, &b.contiguous()?, CausalConvOp { order: TapOrder::FirstFirst });
        let shape = SHAPES[0];
        let ([y, gx, gw, gb], [y0, gx0, gw0, gb0]) = (run(other, 1, shape), run(causal_conv_by_ops, 1, shape));
        assert_eq!((y, gw, gb), (y0, gw0, gb0), "only ∂/∂x depends on the order");
        assert_ne!(gx, gx0);
    }

    #[test]
    fn mismatched_shapes_are_one_clear_error() {
        let x = random(1, (2, 5, 4));
        let e =
            causal_conv(&x, &Tensor::zeros((3, 4), DType::F64, &Device::Cpu).unwrap(), &Tensor::zeros((1, 4), DType::F64, &Device::Cpu).unwrap()).unwrap_err();
        assert!(e.to_string().contains("expected (batch, T, C), (C, k ≥ 1), (1, C)"), "{e}");
    }
}
