//! `broadcast_as` materialised, with a backward pass that sums in one sweep: the same numbers
//! as candle's, bit for bit, without a division per element (`000.fig2` at the quick budget 21%
//! faster on an AMD EPYC family 25 model 17, 2 threads; a row of merged inner dimensions at a
//! time rather than an element, 3–5% more on the copy claims' training step: the README's
//! training speed section).
//!
//! candle's backward pass of a broadcast (`Tensor::broadcast_as`, and through it
//! `broadcast_mul`, `broadcast_add` and `broadcast_matmul`) sums the gradient over the broadcast
//! dimensions with its general reduction, which computes each element's destination by a division
//! and a remainder per reduced dimension whenever the reduced dimensions are not the last ones, as
//! they are not for a bias, a norm's weight, a convolution's taps or a weight matrix broadcast over
//! the batch. In the Mamba block's training step that reduction was 13% of the time (perf, AMD
//! EPYC family 25 model 17, `000.fig2` at the quick budget). [`expand`] is the same operation as
//! `broadcast_as(..).contiguous()`: its forward pass copies the broadcast values into a contiguous
//! tensor, and its backward pass adds each gradient element into its source element walking the
//! gradient in row-major order, a row of merged inner dimensions at a time. That is the order
//! candle's reduction adds them in (for every destination element, its contributions in
//! increasing flat index, from 0.0), so every sum, and with it every gradient and every trained
//! weight, is the same bit for bit (tests below).
//! As a node of the graph it stands where candle's broadcast node stood (and its copy, for a
//! broadcast made contiguous), so the order in which the backward pass visits the other nodes, and
//! the order in which a tensor's several gradients are added, do not change either.

use candle_core::{CpuStorage, CustomOp1, Layout, Shape, Tensor};

/// `x.broadcast_as(shape)` as a contiguous tensor whose backward pass sums in one sweep (module
/// doc); `x` itself when it already has that shape (as candle's binary operations leave an
/// operand that needs no broadcast). Only f64 tensors on the CPU.
pub fn expand(x: &Tensor, shape: impl Into<Shape>) -> candle_core::Result<Tensor> {
    let shape = shape.into();
    if x.dims() == shape.dims() {
        return Ok(x.clone());
    }
    // Validates the broadcast (candle's own error for incompatible shapes).
    x.layout().broadcast_as(shape.clone())?;
    x.apply_op1(Expand { shape })
}

/// `x ⊙ v` with `v` broadcast to `x`'s shape ([`expand`]): candle's `x.broadcast_mul(v)` when
/// `x` needs no broadcast, with the same bits forward and backward.
pub fn mul_expanded(x: &Tensor, v: &Tensor) -> candle_core::Result<Tensor> {
    x.mul(&expand(v, x.shape())?)
}

/// `x + v` with `v` broadcast to `x`'s shape ([`expand`]): candle's `x.broadcast_add(v)` when
/// `x` needs no broadcast, with the same bits forward and backward.
pub fn add_expanded(x: &Tensor, v: &Tensor) -> candle_core::Result<Tensor> {
    x.add(&expand(v, x.shape())?)
}

/// The operation behind [`expand`]: broadcast to `shape`.
struct Expand {
    shape: Shape,
}

/// For each dimension of `out` (row-major), the step in the source's storage: the source's stride
/// where the dimension is its own, 0 where it is broadcast (a dimension added on the left, or one
/// of size 1 stretched).
fn source_steps(src_dims: &[usize], src_strides: &[usize], out: &[usize]) -> Vec<usize> {
    let left = out.len() - src_dims.len();
    (0..out.len()).map(|k| if k < left || (src_dims[k - left] == 1 && out[k] != 1) { 0 } else { src_strides[k - left] }).collect()
}

/// Walks the row-major indices of `out` a row at a time, in order: `f(i, j, len, step)` for the
/// flat indices `i .. i + len`, whose source positions are `j, j + step, …`. The row is the
/// innermost dimensions merged for as long as their source positions stay one arithmetic
/// progression (a weight broadcast over the batch is one row per batch element); the outer ones
/// advance with an odometer.
pub(super) fn walk_rows(out: &[usize], steps: &[usize], start: usize, mut f: impl FnMut(usize, usize, usize, usize)) {
    let total: usize = out.iter().product();
    if total == 0 {
        return;
    }
    // Merge from the right: a dimension of size 1 always, another while it continues the row's progression.
    let (mut len, mut step, mut outer) = (1usize, 0usize, out.len());
    while outer > 0 {
        let k = outer - 1;
        if out[k] != 1 {
            if len == 1 {
                step = steps[k];
            } else if steps[k] != step * len {
                break;
            }
            len *= out[k];
        }
        outer = k;
    }
    let (dims, strides) = (&out[..outer], &steps[..outer]);
    let mut index = vec![0usize; outer];
    let mut j = start;
    for row in 0..total / len {
        f(row * len, j, len, step);
        // Advance the odometer: the last outer dimension first.
        for k in (0..outer).rev() {
            index[k] += 1;
            j += strides[k];
            if index[k] < dims[k] {
                break;
            }
            j -= strides[k] * dims[k];
            index[k] = 0;
        }
    }
}

impl CustomOp1 for Expand {
    fn name(&self) -> &'static str {
        "expand"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let CpuStorage::F64(src) = storage else {
            return Err(candle_core::Error::Msg("expand: only f64 tensors".into()));
        };
        let out = self.shape.dims();
        let steps = source_steps(layout.dims(), layout.stride(), out);
        let mut values = Vec::with_capacity(self.shape.elem_count());
        walk_rows(out, &steps, layout.start_offset(), |_, j, len, step| match step {
            0 => values.resize(values.len() + len, src[j]),
            1 => values.extend_from_slice(&src[j..j + len]),
            s => values.extend((0..len).map(|t| src[j + t * s])),
        });
        Ok((CpuStorage::F64(values), self.shape.clone()))
    }

    fn bwd(&self, arg: &Tensor, _res: &Tensor, grad: &Tensor) -> candle_core::Result<Option<Tensor>> {
        sum_to_source(arg, &self.shape, grad).map(Some)
    }
}

/// The backward pass of [`expand`]`(arg, shape)`: `grad` (of `shape`) summed into a fresh
/// contiguous tensor of `arg`'s shape, each source element's contributions in increasing flat
/// index, as candle adds them (module doc).
pub(super) fn sum_to_source(arg: &Tensor, shape: &Shape, grad: &Tensor) -> candle_core::Result<Tensor> {
    let src_dims = arg.dims();
    let steps = source_steps(src_dims, Layout::contiguous(arg.shape()).stride(), shape.dims());
    let grad = grad.contiguous()?;
    let (storage, layout) = grad.storage_and_layout();
    let (candle_core::Storage::Cpu(CpuStorage::F64(all)), Some((first, end))) = (&*storage, layout.contiguous_offsets()) else {
        return Err(candle_core::Error::Msg("expand: only f64 gradients on the CPU".into()));
    };
    let g = &all[first..end];
    let mut sums = vec![0.0; arg.elem_count()];
    walk_rows(shape.dims(), &steps, 0, |i, j, len, step| match step {
        0 => sums[j] = g[i..i + len].iter().fold(sums[j], |acc, &x| acc + x),
        1 => sums[j..j + len].iter_mut().zip(&g[i..i + len]).for_each(|(s, &x)| *s += x),
        s => (0..len).for_each(|t| sums[j + t * s] += g[i + t]),
    });
    Tensor::from_vec(sums, src_dims, arg.device())
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    /// Values that make every sum round differently in another order.
    fn values(n: usize, salt: f64) -> Vec<f64> {
        (0..n).map(|i| ((i as f64 * 0.754_877_666_246_692_7 + salt) % 1.0 - 0.5) * 10f64.powi((i % 7) as i32 - 3)).collect()
    }

    /// The gradient of Σ w ⊙ f(v) for v broadcast (candle's own, or [`expand`]), with w fixed.
    fn grad_of(v: &Var, shape: &[usize], view: impl Fn(&Tensor) -> candle_core::Result<Tensor>, ours: bool) -> (Vec<f64>, Vec<f64>) {
        let x = view(v.as_tensor()).unwrap();
        let e = if ours { expand(&x, shape).unwrap() } else { x.broadcast_as(shape).unwrap().contiguous().unwrap() };
        let n: usize = shape.iter().product();
        let w = Tensor::from_vec(values(n, 0.3), shape, &Device::Cpu).unwrap();
        let y = (e.mul(&w).unwrap().sqr().unwrap() + e).unwrap();
        let loss = y.sum_all().unwrap();
        let grads = loss.backward().unwrap();
        (y.flatten_all().unwrap().to_vec1().unwrap(), grads.get(v.as_tensor()).unwrap().flatten_all().unwrap().to_vec1().unwrap())
    }

    #[test]
    fn same_bits_as_candles_broadcast_forward_and_backward() {
        type View = fn(&Tensor) -> candle_core::Result<Tensor>;
        let same: View = |t| Ok(t.clone());
        let transposed: View = |t| t.t();
        let unsqueezed: View = |t| t.unsqueeze(0);
        // (source shape, view, broadcast shape): leading dimensions (a matrix over the batch: one
        // merged row each), every dimension stretched (one row), a stretched inner dimension of
        // size 1, a transposed (strided) source, and both at once.
        let cases: [(&[usize], View, &[usize]); 7] = [
            (&[7], same, &[3, 5, 7]),
            (&[2, 3], same, &[4, 2, 3]),
            (&[1, 1], same, &[3, 4]),
            (&[1, 7], same, &[4, 9, 7]),
            (&[3, 5, 1], same, &[3, 5, 6]),
            (&[6, 4], transposed, &[5, 4, 6]),
            (&[5, 1], unsqueezed, &[3, 2, 5, 8]),
        ];
        for (src, view, shape) in cases {
            let v = Var::from_vec(values(src.iter().product(), 0.1), src, &Device::Cpu).unwrap();
            let (y_theirs, g_theirs) = grad_of(&v, shape, view, false);
            let (y_ours, g_ours) = grad_of(&v, shape, view, true);
            let bits = |a: &[f64]| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&y_ours), bits(&y_theirs), "forward, {src:?} -> {shape:?}");
            assert_eq!(bits(&g_ours), bits(&g_theirs), "backward, {src:?} -> {shape:?}");
        }
    }

    /// Control of the comparison above: the upstream gradient (taken from candle at the expanded
    /// tensor itself) summed into the source in the odometer's order gives candle's bits, and
    /// summed in the reverse order it does not, so the bit test can tell two orders apart.
    #[test]
    fn another_summation_order_changes_the_bits() {
        let (src, shape) = ([7usize], [3usize, 5, 7]);
        let v = Var::from_vec(values(7, 0.1), &src[..], &Device::Cpu).unwrap();
        let (_, g_theirs) = grad_of(&v, &shape, |t| Ok(t.clone()), false);
        let e = Var::from_tensor(&v.as_tensor().broadcast_as(&shape[..]).unwrap().contiguous().unwrap()).unwrap();
        let w = Tensor::from_vec(values(shape.iter().product(), 0.3), &shape[..], &Device::Cpu).unwrap();
        let loss = (e.as_tensor().mul(&w).unwrap().sqr().unwrap() + e.as_tensor()).unwrap().sum_all().unwrap();
        let upstream: Vec<f64> = loss.backward().unwrap().get(e.as_tensor()).unwrap().flatten_all().unwrap().to_vec1().unwrap();
        let mut pairs = Vec::new();
        walk_rows(&shape, &source_steps(&src, &[1], &shape), 0, |i, j, len, step| pairs.extend((0..len).map(|t| (i + t, j + t * step))));
        let sum = |order: &mut dyn Iterator<Item = &(usize, usize)>| {
            let mut s = [0.0f64; 7];
            order.for_each(|&(i, j)| s[j] += upstream[i]);
            s.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        };
        let theirs: Vec<u64> = g_theirs.iter().map(|x| x.to_bits()).collect();
        assert_eq!(sum(&mut pairs.iter()), theirs, "the odometer's order is candle's");
        assert_ne!(sum(&mut pairs.iter().rev()), theirs, "the reverse order gave the same bits: the values cannot tell orders apart");
    }

    #[test]
    fn rejects_a_shape_it_cannot_broadcast_to() {
        let x = Tensor::zeros((3, 2), candle_core::DType::F64, &Device::Cpu).unwrap();
        assert!(expand(&x, (4, 3, 5)).is_err());
        // No broadcast: the tensor itself.
        assert_eq!(expand(&x, (3, 2)).unwrap().id(), x.id());
    }
}
