//! `x W` for a batch of sequences x (batch × T × k) and one weight matrix W (k × m) shared by
//! the batch — the Mamba block's projections — as one custom operation, with the bits of the
//! graph it replaces: `x.matmul(&expand(W, (batch, k, m)))` ([`expand`](super::expand::expand)),
//! forward and backward.
//!
//! That graph copied W once per sequence of the batch (for a 16-sequence batch of the copy claims'
//! W_in, 32 × 128, 64 K values a step, and as many again for W_out and the read-out) so that
//! candle's matmul would take it as a batch of matrices, and candle then multiplied sequence by
//! sequence, one `gemm` call each. This operation makes those same calls — the same sizes,
//! strides, pointers' contents, scaling and parallelism as candle's matmul passes for the copied
//! W — reading the one W for every sequence. The backward pass makes the replaced graph's:
//! `∂x_b = ∂y_b Wᵀ` per sequence, again as candle's matmul backward calls `gemm` with the copies,
//! and `∂W = Σ_b x_bᵀ ∂y_b`, candle's own per-sequence products summed over the batch by
//! [`expand`](super::expand::expand)'s backward, in its order. (Handing candle W broadcast as a
//! view instead would have candle multiply the whole batch as one product of (batch · T) × k by
//! k × m, and `gemm` does not promise that product the per-sequence bits: on one shape of the
//! tests, 5 sequences of 1 step, ∂x came out otherwise.)

use super::expand::sum_to_source;
use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp2, Device, Layout, Shape, Tensor};
use gemm::{gemm, Parallelism};

/// `x W` for x (batch × T × k) and W (k × m): one matrix for the whole batch (module doc). Only
/// f64 tensors on the CPU; a shape mismatch is candle's matmul error.
pub fn batched_matmul(x: &Tensor, w: &Tensor) -> candle_core::Result<Tensor> {
    let (batch, _, k) = x.dims3()?;
    let (k_w, m) = w.dims2()?;
    if k != k_w {
        // candle's own error for the mismatch.
        return x.matmul(&w.broadcast_as((batch, k_w, m))?);
    }
    x.apply_op2(w, SharedWeightMatmul)
}

/// The operation behind [`batched_matmul`].
struct SharedWeightMatmul;

/// An f64 storage's values from a layout's start offset on.
fn values<'a>(storage: &'a CpuStorage, layout: &Layout) -> candle_core::Result<&'a [f64]> {
    let CpuStorage::F64(v) = storage else { candle_core::bail!("batched matmul: only f64 tensors, not {:?}", storage.dtype()) };
    Ok(&v[layout.start_offset()..])
}

/// A matrix operand of `gemm`: its values, the step between the batch's matrices (0: one matrix
/// for every sequence), between rows and between columns.
struct Operand<'a> {
    values: &'a [f64],
    batch_step: usize,
    row_step: usize,
    column_step: usize,
}

impl<'a> Operand<'a> {
    /// A batch of matrices (batch × rows × columns) laid out by `layout`, as candle's matmul
    /// reads its left operand.
    fn batch(values: &'a [f64], layout: &Layout) -> Self {
        let s = layout.stride();
        Operand { values, batch_step: s[0], row_step: s[1], column_step: s[2] }
    }
}

/// `dst_b = lhs_b rhs_b` (each m × k by k × n) for b < batch: one `gemm` call per sequence with
/// the arguments candle's CPU matmul passes when it multiplies sequence by sequence (a contiguous
/// destination from zeros, not read, scaled by 1; `gemm`'s threads as candle counts them).
fn per_sequence(lhs: &Operand, rhs: &Operand, [batch, m, n, k]: [usize; 4]) -> Vec<f64> {
    let mut dst = vec![0.0; batch * m * n];
    let threads = candle_core::utils::get_num_threads();
    let parallelism = if threads > 1 { Parallelism::Rayon(threads) } else { Parallelism::None };
    for b in 0..batch {
        let (l, r) = (&lhs.values[b * lhs.batch_step..], &rhs.values[b * rhs.batch_step..]);
        let d = &mut dst[b * m * n..];
        // SAFETY: `gemm` reads m × k values of l and k × n of r at the given steps and writes
        // m × n of d; every read is inside the tensors the operands came from (their layouts'
        // shapes and strides) and d holds (batch − b) · m · n ≥ m · n values.
        unsafe {
            gemm(
                m,
                n,
                k,
                d.as_mut_ptr(),
                1,
                n as isize,
                false,
                l.as_ptr(),
                lhs.column_step as isize,
                lhs.row_step as isize,
                r.as_ptr(),
                rhs.column_step as isize,
                rhs.row_step as isize,
                0.0,
                1.0,
                false,
                false,
                false,
                parallelism,
            );
        }
    }
    dst
}

/// W (k × m) as one contiguous matrix, as each of the replaced graph's copies held it.
fn contiguous_weight(storage: &CpuStorage, layout: &Layout) -> candle_core::Result<Vec<f64>> {
    let (k, m) = layout.shape().dims2()?;
    let (v, s) = (values(storage, layout)?, layout.stride());
    Ok((0..k).flat_map(|i| (0..m).map(move |j| v[i * s[0] + j * s[1]])).collect())
}

impl CustomOp2 for SharedWeightMatmul {
    fn name(&self) -> &'static str {
        "batched-matmul"
    }

    fn cpu_fwd(&self, xs: &CpuStorage, xl: &Layout, ws: &CpuStorage, wl: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let (batch, len, k) = xl.shape().dims3()?;
        let (_, m) = wl.shape().dims2()?;
        let w = contiguous_weight(ws, wl)?;
        // The copies' layout: row step m, column step 1; the same matrix for every sequence.
        let rhs = Operand { values: &w, batch_step: 0, row_step: m, column_step: 1 };
        let y = per_sequence(&Operand::batch(values(xs, xl)?, xl), &rhs, [batch, len, m, k]);
        Ok((CpuStorage::F64(y), Shape::from((batch, len, m))))
    }

    fn bwd(&self, x: &Tensor, w: &Tensor, _res: &Tensor, grad: &Tensor) -> candle_core::Result<(Option<Tensor>, Option<Tensor>)> {
        let (batch, len, k) = x.dims3()?;
        let m = w.dim(1)?;
        // ∂x_b = ∂y_b Wᵀ: candle's `grad.matmul(&copies.t())`, whose right operand is each copy
        // transposed (row step 1, column step m).
        let grad_x = {
            let (gs, gl) = grad.storage_and_layout();
            let candle_core::Storage::Cpu(gs) = &*gs else { candle_core::bail!("batched matmul: only CPU tensors") };
            let (ws, wl) = w.storage_and_layout();
            let candle_core::Storage::Cpu(ws) = &*ws else { candle_core::bail!("batched matmul: only CPU tensors") };
            let w = contiguous_weight(ws, wl)?;
            let rhs = Operand { values: &w, batch_step: 0, row_step: 1, column_step: m };
            let g = per_sequence(&Operand::batch(values(gs, gl)?, gl), &rhs, [batch, len, k, m]);
            Tensor::from_vec(g, (batch, len, k), &Device::Cpu)?
        };
        // ∂W_b = x_bᵀ ∂y_b (candle's own products), summed over the batch as expand's backward.
        let per_sequence_w = x.t()?.matmul(grad)?;
        let grad_w = sum_to_source(w, &Shape::from((batch, k, m)), &per_sequence_w)?;
        Ok((Some(grad_x), Some(grad_w)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::expand::expand;
    use candle_core::{Var, D};

    /// Values that make sums round differently in another order, with signed zeros.
    fn values(n: usize, salt: f64) -> Vec<f64> {
        (0..n).map(|i| if i % 11 == 3 { -0.0 } else { ((i as f64 * 0.754_877_666_246_692_7 + salt) % 1.0 - 0.5) * 10f64.powi((i % 7) as i32 - 3) }).collect()
    }

    fn bits(t: &Tensor) -> Vec<u64> {
        t.flatten_all().unwrap().to_vec1::<f64>().unwrap().iter().map(|v| v.to_bits()).collect()
    }

    /// The product, and the gradients of a loss through it at x's variable and W's (the block's
    /// layout: W the transpose of a variable stored m × k; x a narrowed view when `narrow`), by
    /// `product`.
    fn run([batch, len, k, m]: [usize; 4], narrow: bool, product: impl Fn(&Tensor, &Tensor) -> candle_core::Result<Tensor>) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
        let extra = if narrow { 3 } else { 0 };
        let xv = Var::from_vec(values(batch * len * (k + extra), 0.1), (batch, len, k + extra), &Device::Cpu).unwrap();
        let wv = Var::from_vec(values(m * k, 0.4), (m, k), &Device::Cpu).unwrap();
        let x = xv.as_tensor().narrow(D::Minus1, extra, k).unwrap();
        let y = product(&x, &wv.as_tensor().t().unwrap()).unwrap();
        let weights = Tensor::from_vec(values(batch * len * m, 0.7), (batch, len, m), &Device::Cpu).unwrap();
        let loss = ((&y * &weights).unwrap().sqr().unwrap() + &y).unwrap().sum_all().unwrap();
        let grads = loss.backward().unwrap();
        (bits(&y), bits(grads.get(xv.as_tensor()).unwrap()), bits(grads.get(wv.as_tensor()).unwrap()))
    }

    fn by_expand(x: &Tensor, w: &Tensor) -> candle_core::Result<Tensor> {
        let (batch, _, _) = x.dims3()?;
        let (k, m) = w.dims2()?;
        x.matmul(&expand(w, (batch, k, m))?)
    }

    #[test]
    fn same_bits_as_the_product_with_the_weights_copied_per_sequence() {
        // The copy claims' projections (16 × 18, 32 → 128, 64 → 34, 64 → 32), 000.fig2's, and
        // ragged shapes: one sequence, one step, a width of 1, rows past gemm's blocks.
        let shapes = [
            [16, 18, 32, 128],
            [16, 18, 64, 34],
            [16, 18, 64, 32],
            [16, 18, 32, 18],
            [64, 40, 64, 160],
            [1, 1, 1, 1],
            [3, 5, 7, 1],
            [5, 1, 9, 6],
            [2, 33, 17, 13],
        ];
        for shape in shapes {
            for narrow in [false, true] {
                let (y, gx, gw) = run(shape, narrow, batched_matmul);
                let (y_ref, gx_ref, gw_ref) = run(shape, narrow, by_expand);
                assert_eq!(y, y_ref, "forward, {shape:?}, narrowed x: {narrow}");
                assert_eq!(gx, gx_ref, "∂x, {shape:?}, narrowed x: {narrow}");
                assert_eq!(gw, gw_ref, "∂W, {shape:?}, narrowed x: {narrow}");
            }
        }
    }

    /// Control of the comparison above: W's gradient summed over the batch last sequence first
    /// is told apart from the batch summed in order.
    #[test]
    fn the_comparison_catches_the_batch_summed_in_another_order() {
        let reversed = |x: &Tensor, w: &Tensor| -> candle_core::Result<Tensor> {
            // The batch in reverse order through the product, then put back: ∂W sums it backwards.
            let batch = x.dim(0)?;
            let order = Tensor::from_vec((0..batch as u32).rev().collect::<Vec<_>>(), batch, &Device::Cpu)?;
            by_expand(&x.index_select(&order, 0)?, w)?.index_select(&order, 0)
        };
        let shape = [16, 18, 32, 128];
        let (y, _, gw) = run(shape, false, batched_matmul);
        let (y_rev, _, gw_rev) = run(shape, false, reversed);
        assert_eq!(y, y_rev, "the forward values do not depend on the order");
        assert_ne!(gw, gw_rev, "∂W summed in reverse gave the same bits: the values cannot tell the orders apart");
    }

    #[test]
    fn a_shape_mismatch_is_candles_error() {
        let x = Tensor::zeros((2, 3, 4), candle_core::DType::F64, &Device::Cpu).unwrap();
        let w = Tensor::zeros((5, 6), candle_core::DType::F64, &Device::Cpu).unwrap();
        assert!(batched_matmul(&x, &w).unwrap_err().to_string().contains("shape mismatch"));
    }
}
