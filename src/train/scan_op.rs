//! The S6 selective scan as a candle operation with its own backward pass.
//!
//! Shapes (one sequence, row-major as in [`ScanInputs`]): u and Δ are L × d, A is N × d (`A[n][c]`
//! = A_{c,n}), B and C are L × N; the output y is L × d. Δ is the step size itself (apply
//! softplus before, as a tensor operation, when it is a pre-activation). candle's custom
//! operations take at most three tensors, so u and Δ travel as one L × 2d tensor `[u | Δ]` and B
//! and C as one L × 2N tensor `[B | C]`; [`selective_scan`] does the packing.

use crate::model::selective_scan::{selective_scan as engine_scan, selective_scan_backward, ScanInputs};
use candle_core::{backend::BackendStorage, CpuStorage, CustomOp3, Layout, Shape, Tensor, D};

/// The custom operation: arguments `[u | Δ]` (L × 2d), A (N × d), `[B | C]` (L × 2N).
#[derive(Clone, Copy, Debug, Default)]
pub struct SelectiveScanOp;

/// A contiguous f64 tensor's values and its two dimensions.
fn matrix<'a>(s: &'a CpuStorage, l: &Layout, what: &str) -> candle_core::Result<(&'a [f64], usize, usize)> {
    let CpuStorage::F64(v) = s else { candle_core::bail!("selective scan: {what} must be f64, not {:?}", s.dtype()) };
    let Some((start, end)) = l.contiguous_offsets() else { candle_core::bail!("selective scan: {what} must be contiguous") };
    let &[rows, cols] = l.dims() else { candle_core::bail!("selective scan: {what} must be a matrix, not of shape {:?}", l.dims()) };
    Ok((&v[start..end], rows, cols))
}

/// Splits the rows of a packed L × 2w matrix into its two L × w halves.
fn split_rows(v: &[f64], w: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut left, mut right) = (Vec::with_capacity(v.len() / 2), Vec::with_capacity(v.len() / 2));
    for row in v.chunks_exact(2 * w) {
        left.extend_from_slice(&row[..w]);
        right.extend_from_slice(&row[w..]);
    }
    (left, right)
}

/// Joins two L × w matrices into the rows of one L × 2w matrix.
fn join_rows(left: &[f64], right: &[f64], w: usize) -> Vec<f64> {
    left.chunks_exact(w).zip(right.chunks_exact(w)).flat_map(|(l, r)| l.iter().chain(r).copied()).collect()
}

/// The packed arguments unpacked: (u, Δ, A, B, C) and (d, N, L).
type Unpacked = ([Vec<f64>; 5], (usize, usize, usize));

fn unpack(ud: (&[f64], usize, usize), a: (&[f64], usize, usize), bc: (&[f64], usize, usize)) -> candle_core::Result<Unpacked> {
    let (len, d2) = (ud.1, ud.2);
    let (n, d) = (a.1, a.2);
    if d2 != 2 * d || bc.1 != len || bc.2 != 2 * n {
        candle_core::bail!("selective scan: [u|Δ] is {len}×{d2}, A {n}×{d}, [B|C] {}×{}; expected L×2d, N×d, L×2N", bc.1, bc.2)
    }
    let (u, delta) = split_rows(ud.0, d);
    let (b, c) = split_rows(bc.0, n);
    Ok(([u, delta, a.0.to_vec(), b, c], (d, n, len)))
}

fn inputs(v: &[Vec<f64>; 5], (d, n, len): (usize, usize, usize)) -> ScanInputs<'_> {
    ScanInputs { d, n, len, delta: &v[1], delta_softplus: false, a: &v[2], b: &v[3], c: &v[4], u: &v[0] }
}

impl CustomOp3 for SelectiveScanOp {
    fn name(&self) -> &'static str {
        "s6-selective-scan"
    }

    fn cpu_fwd(&self, s1: &CpuStorage, l1: &Layout, s2: &CpuStorage, l2: &Layout, s3: &CpuStorage, l3: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let (v, dims) = unpack(matrix(s1, l1, "[u|Δ]")?, matrix(s2, l2, "A")?, matrix(s3, l3, "[B|C]")?)?;
        let (d, _, len) = dims;
        let mut y = vec![0.0; len * d];
        engine_scan(&inputs(&v, dims), &mut y).map_err(candle_core::Error::wrap)?;
        Ok((CpuStorage::F64(y), Shape::from((len, d))))
    }

    fn bwd(&self, ud: &Tensor, a: &Tensor, bc: &Tensor, _y: &Tensor, dy: &Tensor) -> candle_core::Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let values = |t: &Tensor| -> candle_core::Result<(Vec<f64>, usize, usize)> {
            let (r, c) = t.dims2()?;
            Ok((t.flatten_all()?.to_vec1::<f64>()?, r, c))
        };
        let (ud, a, bc) = (values(ud)?, values(a)?, values(bc)?);
        let (v, dims) = unpack((&ud.0, ud.1, ud.2), (&a.0, a.1, a.2), (&bc.0, bc.1, bc.2))?;
        let (d, n, len) = dims;
        let dy = dy.contiguous()?.flatten_all()?.to_vec1::<f64>()?;
        let g = selective_scan_backward(&inputs(&v, dims), &dy).map_err(candle_core::Error::wrap)?;
        let dev = candle_core::Device::Cpu;
        let g_ud = Tensor::from_vec(join_rows(&g.u, &g.delta, d), (len, 2 * d), &dev)?;
        let g_a = Tensor::from_vec(g.a, (n, d), &dev)?;
        let g_bc = Tensor::from_vec(join_rows(&g.b, &g.c, n), (len, 2 * n), &dev)?;
        Ok((Some(g_ud), Some(g_a), Some(g_bc)))
    }
}

/// y (L × d) of the scan with inputs u, Δ (L × d), A (N × d), B, C (L × N), differentiable in all
/// five through [`SelectiveScanOp`].
pub fn selective_scan(u: &Tensor, delta: &Tensor, a: &Tensor, b: &Tensor, c: &Tensor) -> candle_core::Result<Tensor> {
    let ud = Tensor::cat(&[u, delta], D::Minus1)?.contiguous()?;
    let bc = Tensor::cat(&[b, c], D::Minus1)?.contiguous()?;
    ud.apply_op3(&a.contiguous()?, &bc, SelectiveScanOp)
}

/// The same recurrence in candle's own tensor operations, one step at a time (slow; its
/// op-by-op autograd is the reference the custom operation's backward pass is tested against):
/// `h ← exp(Δ_t ⊙ A) ⊙ h + B_tᵀ (Δ_t ⊙ u_t)`, `y_t = C_t h`.
pub fn selective_scan_by_ops(u: &Tensor, delta: &Tensor, a: &Tensor, b: &Tensor, c: &Tensor) -> candle_core::Result<Tensor> {
    let (len, d) = u.dims2()?;
    let n = a.dims2()?.0;
    let mut h = Tensor::zeros((n, d), candle_core::DType::F64, u.device())?;
    let mut ys = Vec::with_capacity(len);
    for t in 0..len {
        let (ut, dt) = (u.narrow(0, t, 1)?, delta.narrow(0, t, 1)?);
        let (bt, ct) = (b.narrow(0, t, 1)?, c.narrow(0, t, 1)?);
        let decay = a.broadcast_mul(&dt)?.exp()?;
        h = ((decay * h)? + bt.t()?.matmul(&(dt * ut)?)?)?;
        ys.push(ct.matmul(&h)?);
    }
    Tensor::cat(&ys, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    /// Random scan inputs as variables: u, Δ ∈ (0.1, 0.6), A ∈ (−2.2, −0.2), B, C.
    fn variables(seed: u64, d: usize, n: usize, len: usize) -> Vec<Var> {
        let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut var = |rows: usize, cols: usize, lo: f64, hi: f64| {
            let v: Vec<f64> = (0..rows * cols).map(|_| lo + (hi - lo) * next()).collect();
            Var::from_tensor(&Tensor::from_vec(v, (rows, cols), &Device::Cpu).unwrap()).unwrap()
        };
        vec![var(len, d, -1.0, 1.0), var(len, d, 0.1, 0.6), var(n, d, -2.2, -0.2), var(len, n, -1.0, 1.0), var(len, n, -1.0, 1.0)]
    }

    fn run(f: fn(&Tensor, &Tensor, &Tensor, &Tensor, &Tensor) -> candle_core::Result<Tensor>, v: &[Var]) -> Tensor {
        f(v[0].as_tensor(), v[1].as_tensor(), v[2].as_tensor(), v[3].as_tensor(), v[4].as_tensor()).unwrap()
    }

    /// Largest |x − y| over max(1, |y|) between two tensors of the same shape.
    fn rel_diff(x: &Tensor, y: &Tensor) -> f64 {
        let (x, y) = (x.flatten_all().unwrap().to_vec1::<f64>().unwrap(), y.flatten_all().unwrap().to_vec1::<f64>().unwrap());
        assert_eq!(x.len(), y.len());
        x.iter().zip(&y).map(|(a, b)| (a - b).abs() / b.abs().max(1.0)).fold(0.0, f64::max)
    }

    /// Tolerance of both comparisons: the two sides differ in their exponential (vecmath's
    /// ≤ 1 ulp against candle's libm, also ≤ 1 ulp) and in the order of their sums. Over L steps
    /// a state accumulates at most L·(N + 3) roundings of relative size ε = 2⁻⁵³ on magnitudes
    /// ≤ Σ_t |Δ_t B_t u_t| / (1 − max ā) ≤ 0.6·1·1/(1 − e^{−0.02}) ≈ 30 here, and a gradient sums L
    /// such terms again; 10⁻¹¹ covers L = 12, N = 4 with a factor 100 to spare, and is
    /// 10⁵ times smaller than the smallest error the negative controls make.
    const TOLERANCE: f64 = 1e-11;

    #[test]
    fn the_custom_operation_computes_the_recurrence_of_the_tensor_operations() {
        let v = variables(1, 5, 4, 12);
        assert!(rel_diff(&run(selective_scan, &v), &run(selective_scan_by_ops, &v)) < TOLERANCE);
    }

    #[test]
    fn its_backward_pass_equals_candles_op_by_op_autograd() {
        for seed in [2, 3] {
            let v = variables(seed, 5, 4, 12);
            // ℓ = Σ w ⊙ y with fixed, uneven weights, so every output's gradient differs.
            let w = Tensor::arange(0.0f64, 60.0, &Device::Cpu).unwrap().reshape((12, 5)).unwrap().sin().unwrap();
            let grads = |f| (run(f, &v) * &w).unwrap().sum_all().unwrap().backward().unwrap();
            let (ours, reference) = (grads(selective_scan), grads(selective_scan_by_ops));
            for (i, var) in v.iter().enumerate() {
                let (g, r) = (ours.get(var).unwrap(), reference.get(var).unwrap());
                assert!(rel_diff(g, r) < TOLERANCE, "input {i}: {}", rel_diff(g, r));
            }
        }
    }

    /// The negative control: the same comparison catches a backward pass that drops the
    /// gradient of A (here: the reference's gradient of A against zero).
    #[test]
    fn the_comparison_catches_a_missing_gradient() {
        let v = variables(4, 5, 4, 12);
        let grads = run(selective_scan_by_ops, &v).sum_all().unwrap().backward().unwrap();
        let g_a = grads.get(&v[2]).unwrap();
        assert!(rel_diff(&g_a.zeros_like().unwrap(), g_a) > 1e-3);
    }

    #[test]
    fn mismatched_shapes_are_one_clear_error() {
        let v = variables(5, 5, 4, 12);
        let short_b = v[3].as_tensor().narrow(0, 0, 11).unwrap();
        let err = selective_scan(v[0].as_tensor(), v[1].as_tensor(), v[2].as_tensor(), &short_b, &short_b);
        assert!(err.is_err());
    }
}
