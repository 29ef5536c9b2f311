//! The S6 selective scan as a candle operation with its own backward pass.
//!
//! Shapes (one sequence, row-major as in [`ScanInputs`]): u and Δ are L × d, A is N × d (`A[n][c]`
//! = A_{c,n}), B and C are L × N; the output y is L × d. Δ is the step size itself (apply
//! softplus before, as a tensor operation, when it is a pre-activation). candle's custom
//! operations take at most three tensors, so u and Δ travel as one L × 2d tensor `[u | Δ]` and B
//! and C as one L × 2N tensor `[B | C]`; [`selective_scan`] does the packing. A leading batch
//! dimension on u, Δ, B and C runs one scan per sequence, A shared.
//!
//! When the output is part of a graph, the forward pass keeps each sequence's decays and states
//! ([`ScanStates`], [`selective_scan_recorded`]) in the operation, and the backward pass reads
//! them instead of recomputing them ([`selective_scan_backward_recorded`]): the same bits (the
//! recorded forward is the engine's scan bit for bit, tested), and in the copy claims' training
//! step the backward scan's recurrence is not run twice. Nothing is kept for inputs that track
//! no gradient (constants only), nor inside [`forward_only`], which evaluations use: their
//! graphs are never run backward, and an evaluation's batch is large (the copy claims score
//! 200 held-out strings, 60 MB of states per block).

use crate::model::selective_scan::{
    selective_scan as engine_scan, selective_scan_backward, selective_scan_backward_recorded, selective_scan_recorded, ScanInputs, ScanStates,
};
use candle_core::{backend::BackendStorage, CpuStorage, CustomOp3, Layout, Shape, Tensor, D};
use std::cell::Cell;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

thread_local! {
    /// Set inside [`forward_only`] on this thread.
    static FORWARD_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a forward pass no backward pass will follow, such as an evaluation) with the scan
/// keeping no states for a backward pass; the same values. Scans that `f` starts on other
/// threads keep theirs.
pub fn forward_only<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the flag back as it was, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            FORWARD_ONLY.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FORWARD_ONLY.with(|c| c.replace(true)));
    f()
}

/// The custom operation: arguments `[u | Δ]` (L × 2d), A (N × d), `[B | C]` (L × 2N).
#[derive(Clone, Debug, Default)]
pub struct SelectiveScanOp {
    /// Where the forward pass keeps each sequence's decays and states for the backward pass
    /// (module doc); None: nothing kept, the backward pass recomputes them.
    kept: Option<Arc<Mutex<Vec<ScanStates>>>>,
}

impl SelectiveScanOp {
    /// The operation that keeps the forward pass's states for its backward pass.
    pub fn keeping_states() -> Self {
        SelectiveScanOp { kept: Some(Arc::default()) }
    }

    /// The kept states, locked (None when this operation keeps none).
    fn kept(&self) -> Option<MutexGuard<'_, Vec<ScanStates>>> {
        self.kept.as_ref().map(|k| k.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A contiguous f64 tensor's values and its dimensions as (batch, rows, cols); a matrix is a
/// batch of one.
fn batched<'a>(s: &'a CpuStorage, l: &Layout, what: &str) -> candle_core::Result<(&'a [f64], [usize; 3])> {
    let CpuStorage::F64(v) = s else { candle_core::bail!("selective scan: {what} must be f64, not {:?}", s.dtype()) };
    let Some((start, end)) = l.contiguous_offsets() else { candle_core::bail!("selective scan: {what} must be contiguous") };
    let dims = match *l.dims() {
        [rows, cols] => [1, rows, cols],
        [batch, rows, cols] => [batch, rows, cols],
        ref other => candle_core::bail!("selective scan: {what} must be a matrix or a batch of matrices, not of shape {other:?}"),
    };
    Ok((&v[start..end], dims))
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

/// One sequence's arguments unpacked: (u, Δ, A, B, C).
type Unpacked = [Vec<f64>; 5];

/// The scan's dimensions (batch, d, N, L), checked across the three arguments.
fn dimensions(ud: [usize; 3], a: [usize; 3], bc: [usize; 3]) -> candle_core::Result<[usize; 4]> {
    let [batch, len, d2] = ud;
    let [one, n, d] = a;
    if one != 1 || d2 != 2 * d || bc != [batch, len, 2 * n] {
        candle_core::bail!("selective scan: [u|Δ] is {ud:?}, A {a:?}, [B|C] {bc:?}; expected ([batch,] L, 2d), (N, d), ([batch,] L, 2N)")
    }
    Ok([batch, d, n, len])
}

/// Sequence `i` of the batch, unpacked.
fn sequence(i: usize, ud: &[f64], a: &[f64], bc: &[f64], [_, d, n, len]: [usize; 4]) -> Unpacked {
    let (u, delta) = split_rows(&ud[i * len * 2 * d..(i + 1) * len * 2 * d], d);
    let (b, c) = split_rows(&bc[i * len * 2 * n..(i + 1) * len * 2 * n], n);
    [u, delta, a.to_vec(), b, c]
}

fn inputs(v: &Unpacked, [_, d, n, len]: [usize; 4]) -> ScanInputs<'_> {
    ScanInputs { d, n, len, delta: &v[1], delta_softplus: false, a: &v[2], b: &v[3], c: &v[4], u: &v[0] }
}

/// The output's shape: (L, d), or (batch, L, d) when the arguments were batched.
fn out_shape(batched: bool, [batch, _, _, len]: [usize; 4], cols: usize) -> Shape {
    if batched {
        Shape::from((batch, len, cols))
    } else {
        Shape::from((len, cols))
    }
}

impl CustomOp3 for SelectiveScanOp {
    fn name(&self) -> &'static str {
        "s6-selective-scan"
    }

    fn cpu_fwd(&self, s1: &CpuStorage, l1: &Layout, s2: &CpuStorage, l2: &Layout, s3: &CpuStorage, l3: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let ((ud, ud_dims), (a, a_dims), (bc, bc_dims)) = (batched(s1, l1, "[u|Δ]")?, batched(s2, l2, "A")?, batched(s3, l3, "[B|C]")?);
        let dims = dimensions(ud_dims, a_dims, bc_dims)?;
        let [batch, d, _, len] = dims;
        let mut y = vec![0.0; batch * len * d];
        let mut kept = self.kept();
        if let Some(k) = kept.as_mut() {
            k.clear();
        }
        for (i, yi) in y.chunks_exact_mut(len * d).enumerate() {
            let v = sequence(i, ud, a, bc, dims);
            match kept.as_mut() {
                Some(k) => k.push(selective_scan_recorded(&inputs(&v, dims), yi).map_err(candle_core::Error::wrap)?),
                None => engine_scan(&inputs(&v, dims), yi).map_err(candle_core::Error::wrap)?,
            }
        }
        Ok((CpuStorage::F64(y), out_shape(l1.dims().len() == 3, dims, d)))
    }

    fn bwd(&self, ud: &Tensor, a: &Tensor, bc: &Tensor, _y: &Tensor, dy: &Tensor) -> candle_core::Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let values = |t: &Tensor| t.contiguous()?.flatten_all()?.to_vec1::<f64>();
        let dims3 = |t: &Tensor| -> [usize; 3] {
            match *t.dims() {
                [r, c] => [1, r, c],
                [b, r, c] => [b, r, c],
                _ => [0, 0, 0],
            }
        };
        let dims = dimensions(dims3(ud), dims3(a), dims3(bc))?;
        let [batch, d, n, len] = dims;
        let (ud_v, a_v, bc_v, dy) = (values(ud)?, values(a)?, values(bc)?, values(dy)?);
        let (mut g_ud, mut g_a, mut g_bc) = (Vec::with_capacity(ud_v.len()), vec![0.0; n * d], Vec::with_capacity(bc_v.len()));
        // The forward pass's states, when it kept them for every sequence of this batch.
        let kept = self.kept().filter(|k| k.len() == batch);
        for i in 0..batch {
            let v = sequence(i, &ud_v, &a_v, &bc_v, dims);
            let dy_i = &dy[i * len * d..(i + 1) * len * d];
            let g = match &kept {
                Some(k) => selective_scan_backward_recorded(&inputs(&v, dims), dy_i, &k[i]),
                None => selective_scan_backward(&inputs(&v, dims), dy_i),
            }
            .map_err(candle_core::Error::wrap)?;
            g_ud.extend(join_rows(&g.u, &g.delta, d));
            g_bc.extend(join_rows(&g.b, &g.c, n));
            g_a.iter_mut().zip(&g.a).for_each(|(s, x)| *s += x);
        }
        let dev = candle_core::Device::Cpu;
        let batched = ud.dims().len() == 3;
        Ok((
            Some(Tensor::from_vec(g_ud, out_shape(batched, dims, 2 * d), &dev)?),
            Some(Tensor::from_vec(g_a, (n, d), &dev)?),
            Some(Tensor::from_vec(g_bc, out_shape(batched, dims, 2 * n), &dev)?),
        ))
    }
}

/// y (L × d) of the scan with inputs u, Δ (L × d), A (N × d), B, C (L × N), differentiable in all
/// five through [`SelectiveScanOp`]; with a leading batch dimension on u, Δ, B and C, one scan
/// per sequence (A shared) and y of shape (batch, L, d).
pub fn selective_scan(u: &Tensor, delta: &Tensor, a: &Tensor, b: &Tensor, c: &Tensor) -> candle_core::Result<Tensor> {
    let ud = Tensor::cat(&[u, delta], D::Minus1)?.contiguous()?;
    let bc = Tensor::cat(&[b, c], D::Minus1)?.contiguous()?;
    let tracked = ud.track_op() || a.track_op() || bc.track_op();
    let op = if tracked && !FORWARD_ONLY.with(Cell::get) { SelectiveScanOp::keeping_states() } else { SelectiveScanOp::default() };
    ud.apply_op3(&a.contiguous()?, &bc, op)
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

    /// A batch of two is the two sequences' scans, and A's gradient their sum.
    #[test]
    fn a_batch_is_its_sequences() {
        let (v1, v2) = (variables(6, 5, 4, 12), variables(7, 5, 4, 12));
        let a = v1[2].as_tensor();
        let stack = |i: usize| Tensor::stack(&[v1[i].as_tensor(), v2[i].as_tensor()], 0).unwrap();
        let y = selective_scan(&stack(0), &stack(1), a, &stack(3), &stack(4)).unwrap();
        for (k, v) in [&v1, &v2].into_iter().enumerate() {
            let single = selective_scan(v[0].as_tensor(), v[1].as_tensor(), a, v[3].as_tensor(), v[4].as_tensor()).unwrap();
            assert_eq!(rel_diff(&y.get(k).unwrap(), &single), 0.0);
        }
        let u = Var::from_tensor(&stack(0)).unwrap();
        let g = selective_scan(u.as_tensor(), &stack(1), a, &stack(3), &stack(4)).unwrap().sum_all().unwrap().backward().unwrap();
        let by_ops = |v: &[Var]| selective_scan_by_ops(v[0].as_tensor(), v[1].as_tensor(), a, v[3].as_tensor(), v[4].as_tensor()).unwrap().sum_all().unwrap();
        let reference = (by_ops(&v1) + by_ops(&v2)).unwrap().backward().unwrap();
        let reference_u = Tensor::stack(&[reference.get(&v1[0]).unwrap(), reference.get(&v2[0]).unwrap()], 0).unwrap();
        assert!(rel_diff(g.get(&u).unwrap(), &reference_u) < TOLERANCE);
    }

    /// Keeping the forward pass's states changes no bit: a batch of three through candle's
    /// backward pass, with the operation that keeps them and with one that recomputes them.
    #[test]
    fn keeping_the_states_changes_no_bit() {
        let vs: Vec<Vec<Var>> = (0..3).map(|k| variables(20 + k, 11, 4, 9)).collect();
        let stack = |i: usize| Var::from_tensor(&Tensor::stack(&vs.iter().map(|v| v[i].as_tensor().clone()).collect::<Vec<_>>(), 0).unwrap()).unwrap();
        let (u, delta, b, c) = (stack(0), stack(1), stack(3), stack(4));
        let a = &vs[0][2];
        let w = Tensor::arange(0.0f64, 3.0 * 9.0 * 11.0, &Device::Cpu).unwrap().reshape((3, 9, 11)).unwrap().cos().unwrap();
        let bits = |op: SelectiveScanOp| {
            let ud = Tensor::cat(&[u.as_tensor(), delta.as_tensor()], D::Minus1).unwrap();
            let bc = Tensor::cat(&[b.as_tensor(), c.as_tensor()], D::Minus1).unwrap();
            let y = ud.apply_op3(a.as_tensor(), &bc, op).unwrap();
            let g = (&y * &w).unwrap().sum_all().unwrap().backward().unwrap();
            let mut out = vec![y];
            out.extend([u.as_tensor(), delta.as_tensor(), a.as_tensor(), b.as_tensor(), c.as_tensor()].map(|t| g.get(t).unwrap().clone()));
            out.iter().flat_map(|t| t.flatten_all().unwrap().to_vec1::<f64>().unwrap()).map(f64::to_bits).collect::<Vec<u64>>()
        };
        let op = SelectiveScanOp::keeping_states();
        let kept = bits(op.clone());
        assert_eq!(op.kept.as_ref().map(|k| k.lock().unwrap().len()), Some(3), "one sequence's states each");
        assert_eq!(kept, bits(SelectiveScanOp::default()));
    }

    /// Inside `forward_only` the scan keeps nothing, and its values and gradients (recomputed
    /// if a backward pass does follow) are the same bits; the flag is this thread's, restored
    /// after, also when nested.
    #[test]
    fn forward_only_changes_no_value() {
        let v = variables(8, 5, 4, 12);
        let bits = |y: &Tensor| {
            let g = y.sum_all().unwrap().backward().unwrap();
            let mut out = y.flatten_all().unwrap().to_vec1::<f64>().unwrap();
            v.iter().for_each(|var| out.extend(g.get(var).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap()));
            out.iter().map(|x| x.to_bits()).collect::<Vec<u64>>()
        };
        let kept = bits(&run(selective_scan, &v));
        let inside = forward_only(|| {
            forward_only(|| assert!(FORWARD_ONLY.with(Cell::get)));
            assert!(FORWARD_ONLY.with(Cell::get), "still set after a nested call");
            bits(&run(selective_scan, &v))
        });
        assert!(!FORWARD_ONLY.with(Cell::get));
        assert_eq!(inside, kept);
    }

    #[test]
    fn mismatched_shapes_are_one_clear_error() {
        let v = variables(5, 5, 4, 12);
        let short_b = v[3].as_tensor().narrow(0, 0, 11).unwrap();
        let err = selective_scan(v[0].as_tensor(), v[1].as_tensor(), v[2].as_tensor(), &short_b, &short_b);
        assert!(err.is_err());
    }
}
