//! GPT-2's GELU (the tanh approximation) as one candle operation with its own backward pass.
//!
//! `GELU(x) = ½ x (1 + tanh u)` with `u = c (x + a x³)`, c = √(2/π), a = 0.044715, and its
//! derivative `½ (1 + tanh u) + ½ x (1 − tanh² u) c (1 + 3 a x²)`, both in f64 with the constants
//! to full precision (candle 0.9's own GELU backward uses six-digit constants: a relative gradient
//! error near 10⁻⁶, which the shared gradient check caught).
//!
//! Written as one loop because the same function in tensor operations ([`gelu_by_ops`]: nine
//! element-wise operations forward, each with its buffer and its backward pass) was among the
//! largest costs of a Transformer training step at d_model 16 (perf, 2026-12-01: `tanh` and its
//! `expm1` 14% of the samples, the element-wise maps and their allocations most of the rest).
//! One `tanh` per element, in the forward pass (the backward recovers it from the output, which
//! with one matrix product per projection took `002.table1.two_layer` at quick from 140 s to
//! 117 s); tested against the op-by-op autograd.

use candle_core::{backend::BackendStorage, CpuStorage, CustomOp1, Device, Layout, Shape, Tensor};

/// √(2/π).
const C: f64 = 0.797_884_560_802_865_4;
/// GPT-2's cubic coefficient.
const A: f64 = 0.044_715;

/// The custom operation on a contiguous f64 tensor of any shape.
#[derive(Clone, Copy, Debug, Default)]
struct GeluTanhOp;

/// A contiguous f64 tensor's values.
fn values<'a>(s: &'a CpuStorage, l: &Layout) -> candle_core::Result<&'a [f64]> {
    let CpuStorage::F64(v) = s else { candle_core::bail!("GELU: the input must be f64, not {:?}", s.dtype()) };
    let Some((start, end)) = l.contiguous_offsets() else { candle_core::bail!("GELU: the input must be contiguous") };
    Ok(&v[start..end])
}

/// tanh u at x.
fn tanh_u(x: f64) -> f64 {
    (C * (x + A * x * x * x)).tanh()
}

/// tanh u recovered from the forward's output y = ½ x (1 + tanh u) as 2y/x − 1, which saves the
/// backward pass its own `tanh` (half the operation's cost). y carries one rounding of 1 + tanh u
/// and one of the product, so the recovered value is within about 4 ulps of 1 of tanh u; near 0,
/// where dividing by x would lose that, tanh u is computed again.
fn tanh_from_output(x: f64, y: f64) -> f64 {
    if x.abs() >= 1e-3 {
        2.0 * y / x - 1.0
    } else {
        tanh_u(x)
    }
}

impl CustomOp1 for GeluTanhOp {
    fn name(&self) -> &'static str {
        "gelu-tanh"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let x = values(s, l)?;
        Ok((CpuStorage::F64(x.iter().map(|&x| 0.5 * x * (1.0 + tanh_u(x))).collect()), l.shape().clone()))
    }

    fn bwd(&self, arg: &Tensor, res: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
        let x = arg.contiguous()?.flatten_all()?.to_vec1::<f64>()?;
        let y = res.contiguous()?.flatten_all()?.to_vec1::<f64>()?;
        let g = grad.contiguous()?.flatten_all()?.to_vec1::<f64>()?;
        let dx: Vec<f64> = x
            .iter()
            .zip(&y)
            .zip(&g)
            .map(|((&x, &y), &g)| {
                let t = tanh_from_output(x, y);
                g * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * C * (1.0 + 3.0 * A * x * x))
            })
            .collect();
        Tensor::from_vec(dx, arg.shape(), &Device::Cpu).map(Some)
    }
}

/// GELU (tanh approximation) of `x` (f64, any shape): the custom operation.
pub fn gelu(x: &Tensor) -> candle_core::Result<Tensor> {
    x.contiguous()?.apply_op1(GeluTanhOp)
}

/// The same in candle's tensor operations, whose autograd is exact: the form the custom
/// operation is tested against.
pub fn gelu_by_ops(x: &Tensor) -> candle_core::Result<Tensor> {
    let inner = ((x + ((x.sqr()? * x)? * A)?)? * C)?;
    (x * 0.5)? * (inner.tanh()? + 1.0)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::Var;

    fn input(seed: u64, n: usize, scale: f64) -> Var {
        let mut s = Stream::new(StreamKey::new(seed, "gelu"), 0);
        Var::from_tensor(&Tensor::from_vec((0..n).map(|_| scale * s.normal()).collect::<Vec<f64>>(), (n / 4, 4), &Device::Cpu).unwrap()).unwrap()
    }

    /// A loss that weighs every entry differently, so that its gradient tests every entry.
    fn loss(y: &Tensor) -> Tensor {
        let n = y.elem_count();
        let c: Vec<f64> = (0..n).map(|k| ((k * 7919) % 101) as f64 / 50.0 - 1.0).collect();
        (y * Tensor::from_vec(c, y.shape(), &Device::Cpu).unwrap()).unwrap().sqr().unwrap().sum_all().unwrap()
    }

    fn max_gap(a: &Tensor, b: &Tensor) -> f64 {
        let (a, b) = (a.flatten_all().unwrap().to_vec1::<f64>().unwrap(), b.flatten_all().unwrap().to_vec1::<f64>().unwrap());
        a.iter().zip(&b).fold(0f64, |m, (x, y)| m.max((x - y).abs()))
    }

    /// Forward and backward agree with the op-by-op form and its autograd. Both evaluate the same
    /// formula in another order: u in a few roundings of terms up to c·a·|x|³, tanh within an ulp,
    /// so each value differs by at most ~10 ulps of its largest term, below 10⁻¹³ for |x| ≤ 6
    /// (scale 2, 400 draws). The backward's tanh u, recovered from the output, is within δ ≈ 4·2⁻⁵²
    /// of the recomputed one, which moves the derivative by δ·(½ + |x|·c·(1 + 3a x²)) < 50δ ≈
    /// 4.4·10⁻¹⁴ at |x| ≤ 6; the loss's chain factor (|c_k| ≤ 1, y ≤ 6) multiplies errors by at
    /// most 12: about 10⁻¹² in all, and 10⁻¹¹ leaves a factor of ten.
    #[test]
    fn the_operation_equals_the_tensor_operations_and_their_autograd() {
        for (seed, scale) in [(1, 1.0), (2, 2.0)] {
            let x = input(seed, 400, scale);
            let (fast, slow) = (gelu(x.as_tensor()).unwrap(), gelu_by_ops(x.as_tensor()).unwrap());
            assert!(max_gap(&fast, &slow) <= 1e-13, "forward at scale {scale}");
            let (gf, gs) = (loss(&fast).backward().unwrap(), loss(&slow).backward().unwrap());
            assert!(max_gap(gf.get(x.as_tensor()).unwrap(), gs.get(x.as_tensor()).unwrap()) <= 1e-11, "backward at scale {scale}");
        }
    }

    /// Negative control of the comparison: the derivative without tanh's own (the ½ (1 + tanh u)
    /// term alone, treating tanh u as a constant) differs far beyond the tolerance.
    #[test]
    fn the_comparison_catches_a_derivative_without_the_tanh_term() {
        let x = input(3, 200, 1.0);
        let g = loss(&gelu_by_ops(x.as_tensor()).unwrap()).backward().unwrap();
        let right = g.get(x.as_tensor()).unwrap();
        let y = gelu(x.as_tensor()).unwrap();
        let v = Var::from_tensor(&y).unwrap();
        let grad_y = loss(v.as_tensor()).backward().unwrap().get(v.as_tensor()).unwrap().clone();
        let t = x.as_tensor().to_vec2::<f64>().unwrap().concat().iter().map(|&x| 0.5 * (1.0 + tanh_u(x))).collect::<Vec<_>>();
        let wrong = (grad_y * Tensor::from_vec(t, x.shape(), &Device::Cpu).unwrap()).unwrap();
        assert!(max_gap(right, &wrong) > 1e-3);
    }

    /// The derivative where the backward pass switches between recovering tanh u and computing
    /// it (|x| = 10⁻³), at 0 (½ exactly), near 0 and far out, against the op-by-op autograd:
    /// each derivative is O(1), so the bound of the test above (10⁻¹¹, with no chain factor
    /// here) holds with room.
    #[test]
    fn the_derivative_is_right_at_the_switch_near_zero_and_far_out() {
        let xs = [0.0, 1e-4, -1e-4, 9.999e-4, -9.999e-4, 1e-3, -1e-3, 1.001e-3, 0.3, -0.3, 8.0, -8.0, 30.0, -30.0];
        let x = Var::from_tensor(&Tensor::new(&xs, &Device::Cpu).unwrap()).unwrap();
        let fast = gelu(x.as_tensor()).unwrap().sum_all().unwrap().backward().unwrap();
        let slow = gelu_by_ops(x.as_tensor()).unwrap().sum_all().unwrap().backward().unwrap();
        let (f, s) = (fast.get(x.as_tensor()).unwrap(), slow.get(x.as_tensor()).unwrap());
        assert!(max_gap(f, s) <= 1e-11, "{:?} vs {:?}", f.to_vec1::<f64>().unwrap(), s.to_vec1::<f64>().unwrap());
        assert_eq!(f.to_vec1::<f64>().unwrap()[0], 0.5);
    }

    /// GELU's known values: 0 at 0, x for large x, 0 for very negative x, odd part x/2.
    #[test]
    fn known_values() {
        let y = gelu(&Tensor::new(&[0.0f64, 10.0, -10.0, 1.0, -1.0], &Device::Cpu).unwrap()).unwrap().to_vec1::<f64>().unwrap();
        assert_eq!(y[0], 0.0);
        assert!((y[1] - 10.0).abs() < 1e-15 && y[2].abs() < 1e-15);
        // GELU(x) − GELU(−x) = x exactly in real arithmetic; here within two roundings.
        assert!((y[3] - y[4] - 1.0).abs() <= 4.0 * f64::EPSILON);
        // GPT-2's tanh GELU at 1: 0.841191990607… (½·(1 + tanh(c·1.044715))).
        assert!((y[3] - 0.5 * (1.0 + (C * (1.0 + A)).tanh())).abs() <= 2.0 * f64::EPSILON);
    }

    #[test]
    fn a_non_f64_input_is_one_clear_error() {
        let e = gelu(&Tensor::zeros((2, 3), candle_core::DType::F32, &Device::Cpu).unwrap()).unwrap_err().to_string();
        assert!(e.contains("must be f64"), "{e}");
    }
}
