//! SiLU and softplus, each as one candle operation whose forward and backward passes make
//! exactly the floating-point operations of candle's op-by-op graph: the same bits, with one
//! buffer per pass instead of one per operation.
//!
//! * [`silu`] is candle's `Tensor::silu` (`x / (1 + e^{−x})`) with candle's own backward formula
//!   (`σ(x) (1 − y) + y` with `σ(x) = 1 / (e^{−x}·1 + 1)`), which candle evaluates as eight
//!   tensor operations, each with its buffer: `neg`, `exp`, two `affine`s, `recip`, two products
//!   and a sum.
//! * [`softplus`] is `max(z, 0) + ln(1 + e^{−|z|})`, which [`softplus_by_ops`] writes as seven
//!   tensor operations and whose autograd then runs thirteen more, each of its intermediate
//!   gradients added to a zero tensor first.
//!
//! Bit for bit, not only to rounding: a trained experiment's verdict and every number of its
//! JSON must not move when an operation is fused. Three things make that hold.
//!
//! 1. The per-element arithmetic is candle's, operation for operation: `affine(m, a)` is `v·m + a`
//!    (two roundings, no fused multiply-add: Rust never contracts), `Tensor + f64` is
//!    `affine(1, c)`, `f64 − Tensor` is `affine(−1, c)`, `neg` is `−v`, `recip` is `1/v`, and
//!    `exp`, `ln` are the same `f64` functions candle calls.
//! 2. Every gradient candle would have accumulated is accumulated the same way: an intermediate
//!    node's gradient is a zero tensor plus its one contribution (`0 + v`, which turns −0 into
//!    +0), softplus's input receives its two contributions (through `abs`, then through `relu`,
//!    in candle's reverse topological order) as `(0 + b) + a`, and the operation's result is
//!    added once more to the input's zero tensor by candle. A sum `(0 + b) + a` is never −0, so
//!    that last `0 + dz` changes nothing, as two contributions in either order give the same
//!    sum.
//! 3. The graph outside the fused nodes is unchanged: each operation has one input, which the
//!    replaced operations alone consumed (SiLU was already one node; softplus's input feeds no
//!    other operation at any call site), so candle's depth-first order visits every other node
//!    in the same order and every other sum of contributions keeps its grouping.
//!
//! Tested bit for bit against candle's graph (strided inputs, ±0, saturated and tiny
//! arguments), with a control: the mathematically equal form `σ(x)(1 + x(1 − σ(x)))` of SiLU's
//! derivative is caught by the same comparison.

use super::values::{map3, with_values};
use candle_core::{CpuStorage, CustomOp1, Layout, Shape, Tensor};

/// An element-wise function as one operation: `value` forward, `gradient(x, y, g)` backward
/// (the argument, the result and the incoming gradient of one element); `name` names it in errors.
#[derive(Clone, Copy, Debug)]
struct Pointwise<V, G> {
    name: &'static str,
    value: V,
    gradient: G,
}

impl<V: Fn(f64) -> f64 + Send + Sync, G: Fn(f64, f64, f64) -> f64 + Send + Sync> CustomOp1 for Pointwise<V, G> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let y = with_values(s, l, self.name, |x| x.iter().map(|&x| (self.value)(x)).collect())?;
        Ok((CpuStorage::F64(y), l.shape().clone()))
    }

    fn bwd(&self, arg: &Tensor, res: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
        map3(arg, res, grad, self.name, &self.gradient).map(Some)
    }
}

/// candle's SiLU, `x / (1 + e^{−x})`.
fn silu_value(x: f64) -> f64 {
    x / (1.0 + (-x).exp())
}

/// candle's SiLU backward for one element: `g · (σ · (y·(−1) + 1) + y)` with
/// `σ = 1 / (e^{−x}·1 + 1)`.
fn silu_gradient(x: f64, y: f64, g: f64) -> f64 {
    #[allow(clippy::neg_multiply, clippy::identity_op)]
    let (sigmoid, one_minus_y) = (((-x).exp() * 1.0 + 1.0).recip(), y * -1.0 + 1.0);
    g * (sigmoid * one_minus_y + y)
}

/// SiLU of `x` (f64, any shape and layout): candle's `x.silu()`, the same bits forward and
/// backward, in one operation.
pub fn silu(x: &Tensor) -> candle_core::Result<Tensor> {
    x.apply_op1(Pointwise { name: "SiLU", value: silu_value, gradient: silu_gradient })
}

/// `max(z, 0) + ln(e^{−|z|}·1 + 1)`, as [`softplus_by_ops`] evaluates it.
fn softplus_value(z: f64) -> f64 {
    #[allow(clippy::identity_op)]
    let log_term = ((-z.abs()).exp() * 1.0 + 1.0).ln();
    z.max(0f64) + log_term
}

/// The gradient candle's autograd gives [`softplus_by_ops`]'s input for one element (module
/// doc): each intermediate node's gradient `0 + v`, the input's `(0 + b) + a`.
fn softplus_gradient(z: f64, g: f64) -> f64 {
    let e = (-z.abs()).exp();
    #[allow(clippy::identity_op)]
    let shifted = e * 1.0 + 1.0;
    // The sum node hands g to both branches; the log branch, back to −|z|.
    let (relu_grad, log_grad) = (0.0 + g, 0.0 + g);
    let shifted_grad = 0.0 + log_grad / shifted;
    #[allow(clippy::identity_op)]
    let exp_grad = 0.0 + (shifted_grad * 1.0 + 0.0);
    let neg_grad = 0.0 + exp_grad * e;
    let abs_grad = 0.0 - neg_grad;
    let through_abs = abs_grad * if z >= 0.0 { 1.0 } else { -1.0 };
    let through_relu = relu_grad * if z >= 0.0 { 1.0 } else { 0.0 };
    (0.0 + through_abs) + through_relu
}

/// `softplus(z) = max(z, 0) + ln(1 + e^{−|z|})` (f64, any shape and layout), in one operation:
/// [`softplus_by_ops`]'s bits forward and backward.
pub fn softplus(z: &Tensor) -> candle_core::Result<Tensor> {
    z.apply_op1(Pointwise { name: "softplus", value: softplus_value, gradient: |z, _, g| softplus_gradient(z, g) })
}

/// The same softplus in candle's tensor operations: the form the operation reproduces.
pub fn softplus_by_ops(z: &Tensor) -> candle_core::Result<Tensor> {
    z.relu()? + ((z.abs()?.neg()?.exp()? + 1.0)?.log()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::{Device, Var};

    /// Arguments that reach every branch: random normals at three scales, ±0, tiny and
    /// subnormal values, the saturated ends (e^{−x} overflowing to ∞ or vanishing) and values
    /// around softplus's switch at 0.
    fn arguments(seed: u64) -> Vec<f64> {
        let mut s = Stream::new(StreamKey::new(seed, "activation"), 0);
        let mut v: Vec<f64> = (0..300).map(|i| [0.1, 1.0, 8.0][i % 3] * s.normal()).collect();
        v.extend([0.0, -0.0, 1e-300, -1e-300, 5e-324, -5e-324, 1e-17, -1e-17, 20.0, -20.0, 37.0, -37.0, 709.0, -709.0, 710.0, -710.0, 750.0, -750.0]);
        v
    }

    /// The bits of a tensor's values.
    fn bits(t: &Tensor) -> Vec<u64> {
        t.flatten_all().unwrap().to_vec1::<f64>().unwrap().iter().map(|x| x.to_bits()).collect()
    }

    /// The loss's weight of each element (its incoming gradient), all different.
    fn weights(n: usize) -> Vec<f64> {
        (0..n).map(|k| ((k * 7919) % 101) as f64 / 50.0 - 1.0).collect()
    }

    /// Forward values and the gradient of a weighted sum, through `f`, at a variable read both
    /// whole and through a strided view (every other column of a wider matrix).
    fn run(f: impl Fn(&Tensor) -> candle_core::Result<Tensor>, values: &[f64], strided: bool) -> (Vec<u64>, Vec<u64>) {
        let n = values.len();
        let (var, x) = if strided {
            let wide: Vec<f64> = values.iter().flat_map(|&v| [v, 3.0]).collect();
            let var = Var::from_tensor(&Tensor::from_vec(wide, (n, 2), &Device::Cpu).unwrap()).unwrap();
            let x = var.as_tensor().narrow(1, 0, 1).unwrap();
            (var, x)
        } else {
            let var = Var::from_tensor(&Tensor::from_vec(values.to_vec(), (n, 1), &Device::Cpu).unwrap()).unwrap();
            let x = var.as_tensor().clone();
            (var, x)
        };
        let y = f(&x).unwrap();
        let loss = (&y * Tensor::from_vec(weights(n), (n, 1), &Device::Cpu).unwrap()).unwrap().sum_all().unwrap();
        let grads = loss.backward().unwrap();
        (bits(&y), bits(grads.get(var.as_tensor()).unwrap()))
    }

    #[test]
    fn silu_is_candles_bit_for_bit_forward_and_backward() {
        for seed in [1, 2, 3] {
            for strided in [false, true] {
                let v = arguments(seed);
                assert_eq!(run(silu, &v, strided), run(|x| x.silu(), &v, strided), "seed {seed}, strided {strided}");
            }
        }
    }

    #[test]
    fn softplus_is_the_op_by_op_graph_bit_for_bit_forward_and_backward() {
        for seed in [1, 2, 3] {
            for strided in [false, true] {
                let v = arguments(seed);
                assert_eq!(run(softplus, &v, strided), run(softplus_by_ops, &v, strided), "seed {seed}, strided {strided}");
            }
        }
    }

    /// Control: SiLU's derivative in the mathematically equal form σ(x)(1 + x(1 − σ(x)))
    /// differs from candle's in some bits on the same arguments (the incoming gradient is the
    /// loss's weight), so the comparisons above would catch a backward pass that is right only
    /// to rounding; the operation's own formula gives candle's bits on the same path.
    #[test]
    fn an_equal_formula_in_another_order_is_caught() {
        let v = arguments(1);
        let (_, candle_grad) = run(|x| x.silu(), &v, false);
        let by = |d: &dyn Fn(f64) -> f64| -> Vec<u64> { v.iter().zip(weights(v.len())).map(|(&x, w)| (0.0 + w * d(x)).to_bits()).collect() };
        let ours = by(&|x| silu_gradient(x, silu_value(x), 1.0));
        let other = by(&|x| {
            let s = 1.0 / (1.0 + (-x).exp());
            s * (1.0 + x * (1.0 - s))
        });
        assert_eq!(ours, candle_grad);
        assert!(other.iter().zip(&candle_grad).any(|(a, b)| a != b), "the other formula gave the same bits everywhere");
    }

    #[test]
    fn softplus_is_right_in_value() {
        let y = softplus(&Tensor::new(&[0.0f64, 1.0, -1.0, 40.0, -5.0, -40.0], &Device::Cpu).unwrap()).unwrap().to_vec1::<f64>().unwrap();
        assert_eq!(y[0], std::f64::consts::LN_2);
        // softplus(1) = 1.3132616875182228… (ln(1 + e)); each value within a few roundings.
        assert!((y[1] - 1.313_261_687_518_222_8).abs() <= 2.0 * f64::EPSILON);
        assert!((y[1] - y[2] - 1.0).abs() <= 4.0 * f64::EPSILON, "softplus(z) − softplus(−z) = z");
        assert_eq!(y[3], 40.0);
        // softplus(−5) = ln(1 + e^{−5}) = 0.006715348489118068…: 1 + e^{−5} carries one rounding
        // of 1 (2⁻⁵³), which ln passes on absolutely.
        assert!((y[4] - 0.006_715_348_489_118_068).abs() <= 2.0 * f64::EPSILON);
        // The form's limit (as the op-by-op graph's): 1 + e^{−40} rounds to 1 (e^{−40} < 2⁻⁵³).
        assert_eq!(y[5], 0.0);
    }

    #[test]
    fn a_non_f64_input_is_one_clear_error() {
        for f in [silu, softplus] {
            let e = f(&Tensor::zeros((2, 3), candle_core::DType::F32, &Device::Cpu).unwrap()).unwrap_err().to_string();
            assert!(e.lines().next().is_some_and(|l| l.contains("must be f64")), "{e}");
        }
    }
}
