//! The Mamba-Δᵀ scan of 000 eq 15 (App. C.2, eq 117) as a candle operation with its own backward
//! pass: the step size varies along the state slots, not the channels, and the input term has no
//! Δ factor,
//!
//! `h_t[a,n] = e^{Λ[a,n] Δ_t[n]} h_{t−1}[a,n] + u_t[a] B_t[n]`, `y_t[a] = Σ_n h_t[a,n] C_t[n]`,
//!
//! with h₀ = 0: the recurrence of the suite's [`Mixer`](crate::model::mixer::Mixer) of kind
//! [`DeltaT`](crate::model::mixer::MixerKind::DeltaT), which the trained classifier is tested
//! against.
//!
//! Shapes: u is `([batch,] L, d)`, Λ is `(d, N)` and the step sizes, B and C travel as one
//! `([batch,] L, 3N)` tensor `[Δ | B | C]` (candle's custom operations take at most three
//! tensors); [`delta_t_scan`] does the packing. Sequences of a batch are independent and run in
//! parallel; their gradients with respect to Λ are added in batch order, so a result does not
//! depend on the thread count.
//!
//! The backward pass is the adjoint recurrence, run from t = L down to 1 over the states kept by
//! a forward pass: with `g` the gradient with respect to h_t (`g += dy_t[a] C_t[n]`), the
//! gradients of C_t, u_t and B_t are `Σ_a dy_t[a] h_t[a,n]`, `Σ_n g B_t[n]` and `Σ_a g u_t[a]`;
//! the decay `e = e^{Λ Δ_t}` gives `q = g h_{t−1} e` to Λ (times `Δ_t[n]`) and to `Δ_t[n]` (times
//! `Λ[a,n]`, summed over a), and `g ← g e` carries it one step back.

use candle_core::{backend::BackendStorage, CpuStorage, CustomOp3, Layout, Shape, Tensor};
use rayon::prelude::*;

/// The custom operation: arguments u (`([batch,] L, d)`), Λ (`(d, N)`), `[Δ | B | C]`
/// (`([batch,] L, 3N)`).
#[derive(Clone, Copy, Debug, Default)]
pub struct DeltaTScanOp;

/// One sequence's dimensions.
#[derive(Clone, Copy, Debug)]
struct Dims {
    batch: usize,
    len: usize,
    d: usize,
    n: usize,
}

fn f64_values<'a>(s: &'a CpuStorage, l: &Layout, what: &str) -> candle_core::Result<&'a [f64]> {
    let CpuStorage::F64(v) = s else { candle_core::bail!("Δᵀ scan: {what} must be f64, not {:?}", s.dtype()) };
    let Some((start, end)) = l.contiguous_offsets() else { candle_core::bail!("Δᵀ scan: {what} must be contiguous") };
    Ok(&v[start..end])
}

/// (batch, rows, cols) of a matrix or a batch of matrices.
fn dims3(dims: &[usize]) -> Option<[usize; 3]> {
    match *dims {
        [r, c] => Some([1, r, c]),
        [b, r, c] => Some([b, r, c]),
        _ => None,
    }
}

fn dimensions(u: &[usize], lambda: &[usize], dbc: &[usize]) -> candle_core::Result<Dims> {
    match (dims3(u), lambda, dims3(dbc)) {
        (Some([batch, len, d]), &[d2, n], Some(other)) if d2 == d && other == [batch, len, 3 * n] && u.len() == dbc.len() => Ok(Dims { batch, len, d, n }),
        _ => candle_core::bail!("Δᵀ scan: u is {u:?}, Λ {lambda:?}, [Δ|B|C] {dbc:?}; expected ([batch,] L, d), (d, N), ([batch,] L, 3N)"),
    }
}

/// One sequence's forward pass: y (L × d) and, when `keep`, every state h_t and every decay
/// `e^{Λ Δ_t}` (L × d × N each).
fn forward(u: &[f64], lambda: &[f64], dbc: &[f64], Dims { len, d, n, .. }: Dims, keep: bool) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut h = vec![0.0; d * n];
    let mut y = vec![0.0; len * d];
    let kept = if keep { len * d * n } else { 0 };
    let (mut states, mut decays) = (Vec::with_capacity(kept), Vec::with_capacity(kept));
    for t in 0..len {
        let row = &dbc[t * 3 * n..(t + 1) * 3 * n];
        let (delta, b, c) = (&row[..n], &row[n..2 * n], &row[2 * n..]);
        for a in 0..d {
            let ua = u[t * d + a];
            let mut acc = 0.0;
            for s in 0..n {
                let i = a * n + s;
                let e = (lambda[i] * delta[s]).exp();
                h[i] = e * h[i] + ua * b[s];
                acc += h[i] * c[s];
                if keep {
                    decays.push(e);
                }
            }
            y[t * d + a] = acc;
        }
        if keep {
            states.extend_from_slice(&h);
        }
    }
    (y, states, decays)
}

/// One sequence's gradients: (du (L × d), dΛ (d × N), d[Δ|B|C] (L × 3N)).
fn backward(u: &[f64], lambda: &[f64], dbc: &[f64], dy: &[f64], dims: Dims) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let Dims { len, d, n, .. } = dims;
    let (_, states, decays) = forward(u, lambda, dbc, dims, true);
    let (mut du, mut dlambda, mut ddbc) = (vec![0.0; len * d], vec![0.0; d * n], vec![0.0; len * 3 * n]);
    let mut g = vec![0.0; d * n];
    for t in (0..len).rev() {
        let row = &dbc[t * 3 * n..(t + 1) * 3 * n];
        let (delta, b, c) = (&row[..n], &row[n..2 * n], &row[2 * n..]);
        let h = &states[t * d * n..(t + 1) * d * n];
        let grad = &mut ddbc[t * 3 * n..(t + 1) * 3 * n];
        for a in 0..d {
            let (ua, dya) = (u[t * d + a], dy[t * d + a]);
            let mut dua = 0.0;
            for s in 0..n {
                let i = a * n + s;
                g[i] += dya * c[s];
                grad[2 * n + s] += dya * h[i];
                dua += g[i] * b[s];
                grad[n + s] += g[i] * ua;
                let e = decays[t * d * n + i];
                let previous = if t == 0 { 0.0 } else { states[(t - 1) * d * n + i] };
                let q = g[i] * previous * e;
                dlambda[i] += q * delta[s];
                grad[s] += q * lambda[i];
                g[i] *= e;
            }
            du[t * d + a] = dua;
        }
    }
    (du, dlambda, ddbc)
}

fn shape(batched: bool, dims: Dims, cols: usize) -> Shape {
    if batched {
        Shape::from((dims.batch, dims.len, cols))
    } else {
        Shape::from((dims.len, cols))
    }
}

impl CustomOp3 for DeltaTScanOp {
    fn name(&self) -> &'static str {
        "delta-t-scan"
    }

    fn cpu_fwd(&self, s1: &CpuStorage, l1: &Layout, s2: &CpuStorage, l2: &Layout, s3: &CpuStorage, l3: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let dims = dimensions(l1.dims(), l2.dims(), l3.dims())?;
        let (u, lambda, dbc) = (f64_values(s1, l1, "u")?, f64_values(s2, l2, "Λ")?, f64_values(s3, l3, "[Δ|B|C]")?);
        let Dims { len, d, n, .. } = dims;
        crate::parallel::enter();
        let y: Vec<f64> =
            u.par_chunks_exact(len * d).zip(dbc.par_chunks_exact(len * 3 * n)).flat_map_iter(|(u, dbc)| forward(u, lambda, dbc, dims, false).0).collect();
        Ok((CpuStorage::F64(y), shape(l1.dims().len() == 3, dims, d)))
    }

    fn bwd(
        &self,
        u: &Tensor,
        lambda: &Tensor,
        dbc: &Tensor,
        _y: &Tensor,
        dy: &Tensor,
    ) -> candle_core::Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let dims = dimensions(u.dims(), lambda.dims(), dbc.dims())?;
        let values = |t: &Tensor| t.contiguous()?.flatten_all()?.to_vec1::<f64>();
        let (u_v, lambda_v, dbc_v, dy_v) = (values(u)?, values(lambda)?, values(dbc)?, values(dy)?);
        let Dims { len, d, n, .. } = dims;
        crate::parallel::enter();
        let per_sequence: Vec<_> = u_v
            .par_chunks_exact(len * d)
            .zip(dbc_v.par_chunks_exact(len * 3 * n))
            .zip(dy_v.par_chunks_exact(len * d))
            .map(|((u, dbc), dy)| backward(u, &lambda_v, dbc, dy, dims))
            .collect();
        let mut dlambda = vec![0.0; d * n];
        let (mut du, mut ddbc) = (Vec::with_capacity(u_v.len()), Vec::with_capacity(dbc_v.len()));
        for (gu, gl, gd) in per_sequence {
            du.extend(gu);
            ddbc.extend(gd);
            dlambda.iter_mut().zip(gl).for_each(|(s, x)| *s += x);
        }
        let (dev, batched) = (candle_core::Device::Cpu, u.dims().len() == 3);
        Ok((
            Some(Tensor::from_vec(du, shape(batched, dims, d), &dev)?),
            Some(Tensor::from_vec(dlambda, (d, n), &dev)?),
            Some(Tensor::from_vec(ddbc, shape(batched, dims, 3 * n), &dev)?),
        ))
    }
}

/// The Mamba-Δᵀ scan of u (`([batch,] L, d)`) with Λ (`(d, N)`) and step sizes, B and C
/// (`([batch,] L, N)` each); the output is `([batch,] L, d)`.
pub fn delta_t_scan(u: &Tensor, lambda: &Tensor, delta: &Tensor, b: &Tensor, c: &Tensor) -> candle_core::Result<Tensor> {
    let last = delta.rank() - 1;
    let packed = Tensor::cat(&[delta, b, c], last)?;
    u.contiguous()?.apply_op3(&lambda.contiguous()?, &packed.contiguous()?, DeltaTScanOp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};
    use candle_core::{Device, Var};

    fn random(s: &mut Stream, dims: &[usize], scale: f64, offset: f64) -> Var {
        let count = dims.iter().product();
        Var::from_tensor(&Tensor::from_vec((0..count).map(|_| offset + scale * s.normal()).collect::<Vec<f64>>(), dims, &Device::Cpu).unwrap()).unwrap()
    }

    /// A scalar loss of the scan's output: Σ w ⊙ y for a fixed random w.
    fn loss(vars: &[Var; 5], w: &Tensor) -> f64 {
        let [u, l, dl, b, c] = vars;
        let delta = dl.as_tensor().exp().unwrap();
        let y = delta_t_scan(u.as_tensor(), l.as_tensor(), &delta, b.as_tensor(), c.as_tensor()).unwrap();
        (y * w).unwrap().sum_all().unwrap().to_scalar::<f64>().unwrap()
    }

    /// Every gradient of the custom operation against central differences. The loss is O(1) and
    /// smooth; a central difference with step h errs by h²/6·|f'''| (truncation, here ≲ 10⁻¹⁰ at
    /// h = 10⁻⁵) plus ε·|f|/h (rounding, ≈ 10⁻¹¹): 10⁻⁷ relative to max(|g|, 1) leaves three
    /// orders of magnitude. A gradient off by a factor (a sign, a missing e or Δ) misses by O(1).
    #[test]
    fn the_backward_pass_is_the_gradient() {
        let mut s = Stream::new(StreamKey::new(3, "delta-t"), 0);
        let (batch, len, d, n) = (2, 6, 3, 4);
        let vars = [
            random(&mut s, &[batch, len, d], 1.0, 0.0),
            random(&mut s, &[d, n], 0.3, -1.0),
            random(&mut s, &[batch, len, n], 0.5, -1.0),
            random(&mut s, &[batch, len, n], 1.0, 0.0),
            random(&mut s, &[batch, len, n], 1.0, 0.0),
        ];
        let w = Tensor::from_vec((0..batch * len * d).map(|_| s.normal()).collect::<Vec<f64>>(), (batch, len, d), &Device::Cpu).unwrap();
        let [u, l, dl, b, c] = &vars;
        let delta = dl.as_tensor().exp().unwrap();
        let y = delta_t_scan(u.as_tensor(), l.as_tensor(), &delta, b.as_tensor(), c.as_tensor()).unwrap();
        let grads = (y * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let h = 1e-5;
        for (k, v) in vars.iter().enumerate() {
            let analytic = grads.get(v.as_tensor()).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap();
            let base = v.as_tensor().flatten_all().unwrap().to_vec1::<f64>().unwrap();
            for i in 0..base.len() {
                let at = |x: f64| {
                    let mut moved = base.clone();
                    moved[i] = x;
                    v.set(&Tensor::from_vec(moved, v.as_tensor().dims(), &Device::Cpu).unwrap()).unwrap();
                    loss(&vars, &w)
                };
                let numeric = (at(base[i] + h) - at(base[i] - h)) / (2.0 * h);
                at(base[i]);
                assert!((analytic[i] - numeric).abs() <= 1e-7 * numeric.abs().max(1.0), "argument {k}, entry {i}: {} vs {numeric}", analytic[i]);
            }
        }
    }

    /// The same outputs and gradients at one and two threads, and a batch is its sequences.
    #[test]
    fn a_batch_is_its_sequences_at_any_thread_count() {
        let mut s = Stream::new(StreamKey::new(4, "delta-t"), 0);
        let (batch, len, d, n) = (3, 5, 2, 3);
        let (u, l, b, c) = (
            random(&mut s, &[batch, len, d], 1.0, 0.0),
            random(&mut s, &[d, n], 0.3, -1.0),
            random(&mut s, &[batch, len, n], 1.0, 0.0),
            random(&mut s, &[batch, len, n], 1.0, 0.0),
        );
        let delta = random(&mut s, &[batch, len, n], 0.2, 0.5);
        let run = || {
            let y = delta_t_scan(u.as_tensor(), l.as_tensor(), delta.as_tensor(), b.as_tensor(), c.as_tensor()).unwrap();
            let g = y.sqr().unwrap().sum_all().unwrap().backward().unwrap();
            (y.flatten_all().unwrap().to_vec1::<f64>().unwrap(), g.get(l.as_tensor()).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap())
        };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(run);
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(run);
        assert_eq!(one, two);
        let pick = |t: &Var, i: usize| t.as_tensor().get(i).unwrap();
        let second =
            delta_t_scan(&pick(&u, 1), l.as_tensor(), &pick(&delta, 1), &pick(&b, 1), &pick(&c, 1)).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap();
        assert_eq!(second, one.0[len * d..2 * len * d].to_vec());
    }

    #[test]
    fn mismatched_shapes_are_one_clear_error() {
        let t = |dims: &[usize]| Tensor::zeros(dims, candle_core::DType::F64, &Device::Cpu).unwrap();
        let e = delta_t_scan(&t(&[4, 3]), &t(&[2, 5]), &t(&[4, 5]), &t(&[4, 5]), &t(&[4, 5])).unwrap_err().to_string();
        assert!(e.contains("Δᵀ scan") && e.contains("expected"), "{e}");
    }
}
