//! The S6 selective scan of Mamba (000 eq 6–7, Gu & Dao 2023 Alg. 2), forward pass, for `d`
//! channels sharing input-dependent `B_t, C_t` of state size `N`:
//!
//! ```text
//! Δ_{t,c} = softplus(δ_{t,c})   (or δ_{t,c} itself when `delta_softplus` is false)
//! h_{t,n,c} = exp(Δ_{t,c} A_{c,n}) h_{t−1,n,c} + Δ_{t,c} B_{t,n} u_{t,c}      (ZOH for Ā, Euler for B̄, as in Mamba)
//! y_{t,c} = Σ_n C_{t,n} h_{t,n,c}
//! ```
//!
//! with h₀ = 0. The state is kept as `h[n][c]` for a group of [`CHANNEL_GROUP`] channels, so
//! every operation is a vector operation across channels (branch-free `exp` from
//! [`crate::math::vecmath`]); groups run in parallel with rayon. Each channel's arithmetic is
//! the same whatever the grouping or thread count, so results are bit-identical across runs.

use crate::error::{Error, Result};
use crate::math::vecmath::{exp, softplus};
use rayon::prelude::*;

/// Channels per task (four AVX-512 registers of f64; W4 has 64 channels, two tasks).
pub const CHANNEL_GROUP: usize = 32;

/// The inputs of one selective scan, all row-major.
#[derive(Clone, Copy, Debug)]
pub struct ScanInputs<'a> {
    /// Channels d.
    pub d: usize,
    /// State size N.
    pub n: usize,
    /// Sequence length L.
    pub len: usize,
    /// δ (L × d): the step sizes, or their pre-activations when `delta_softplus` is set.
    pub delta: &'a [f64],
    /// Δ = softplus(δ) (Mamba's `delta_softplus=True`) instead of Δ = δ.
    pub delta_softplus: bool,
    /// A (N × d): `a[n·d + c] = A_{c,n}`, negative for a stable scan.
    pub a: &'a [f64],
    /// B_t (L × N).
    pub b: &'a [f64],
    /// C_t (L × N).
    pub c: &'a [f64],
    /// Input u (L × d).
    pub u: &'a [f64],
}

impl ScanInputs<'_> {
    /// Rejects mismatched lengths, empty dimensions and non-finite values.
    pub fn validate(&self) -> Result<()> {
        let (d, n, l) = (self.d, self.n, self.len);
        let sizes = [
            (self.delta.len(), l * d, "delta"),
            (self.a.len(), n * d, "A"),
            (self.b.len(), l * n, "B"),
            (self.c.len(), l * n, "C"),
            (self.u.len(), l * d, "u"),
        ];
        if d == 0 || n == 0 {
            return Err(Error::InvalidParameter("selective scan needs d ≥ 1 channels and N ≥ 1 states".into()));
        }
        for (got, want, name) in sizes {
            if got != want {
                return Err(Error::InvalidParameter(format!("selective scan: {name} has {got} values, expected {want}")));
            }
        }
        if [self.delta, self.a, self.b, self.c, self.u].iter().any(|v| v.iter().any(|x| !x.is_finite())) {
            return Err(Error::InvalidParameter("selective scan inputs must be finite".into()));
        }
        Ok(())
    }
}

/// Runs the scan, writing y (L × d) into `y`.
pub fn selective_scan(inp: &ScanInputs<'_>, y: &mut [f64]) -> Result<()> {
    inp.validate()?;
    if y.len() != inp.len * inp.d {
        return Err(Error::InvalidParameter(format!("selective scan: y has {} values, expected {}", y.len(), inp.len * inp.d)));
    }
    let groups: Vec<usize> = (0..inp.d).step_by(CHANNEL_GROUP).collect();
    // Each group scans its channels over all t into a column block, copied into y afterwards.
    let blocks: Vec<Vec<f64>> = groups.par_iter().map(|&c0| scan_group(inp, c0, CHANNEL_GROUP.min(inp.d - c0))).collect();
    for (&c0, block) in groups.iter().zip(&blocks) {
        let w = CHANNEL_GROUP.min(inp.d - c0);
        for (row, out) in block.chunks_exact(w).zip(y.chunks_exact_mut(inp.d)) {
            out[c0..c0 + w].copy_from_slice(row);
        }
    }
    Ok(())
}

/// Channels `c0..c0+w` over all t: y rows of width w. The state is `h[k·w + c]`, so each inner
/// loop runs over contiguous channels and vectorises (the trip count is left to run time on
/// purpose: a constant one gets unrolled before the loop vectoriser sees it).
fn scan_group(inp: &ScanInputs<'_>, c0: usize, w: usize) -> Vec<f64> {
    let (d, n) = (inp.d, inp.n);
    let a: Vec<f64> = inp.a.chunks_exact(d).flat_map(|row| row[c0..c0 + w].iter().copied()).collect();
    let mut h = vec![0.0; n * w];
    let mut y = vec![0.0; inp.len * w];
    let (mut dl, mut dbu) = (vec![0.0; w], vec![0.0; w]);
    for t in 0..inp.len {
        let (rt, ut) = (&inp.delta[t * d + c0..t * d + c0 + w], &inp.u[t * d + c0..t * d + c0 + w]);
        for ((dl, dbu), (&r, &u)) in dl.iter_mut().zip(dbu.iter_mut()).zip(rt.iter().zip(ut)) {
            *dl = if inp.delta_softplus { softplus(r) } else { r };
            *dbu = *dl * u;
        }
        let acc = &mut y[t * w..(t + 1) * w];
        let (bt, ct) = (&inp.b[t * n..(t + 1) * n], &inp.c[t * n..(t + 1) * n]);
        for ((hk, ak), (&bk, &ck)) in h.chunks_exact_mut(w).zip(a.chunks_exact(w)).zip(bt.iter().zip(ct)) {
            for ((((hv, &av), &dlc), &dbuc), acc) in hk.iter_mut().zip(ak).zip(dl.iter()).zip(dbu.iter()).zip(acc.iter_mut()) {
                let next = exp(dlc * av).mul_add(*hv, dbuc * bk);
                *hv = next;
                *acc = ck.mul_add(next, *acc);
            }
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recurrence written out per channel with libm, no grouping.
    // The reference is written index by index, as the recurrence reads on paper.
    #[allow(clippy::needless_range_loop)]
    fn naive(inp: &ScanInputs<'_>) -> Vec<f64> {
        let (d, n) = (inp.d, inp.n);
        let mut y = vec![0.0; inp.len * d];
        for c in 0..d {
            let mut h = vec![0.0; n];
            for t in 0..inp.len {
                let delta = crate::math::softplus::softplus(inp.delta[t * d + c]);
                for k in 0..n {
                    h[k] = (delta * inp.a[k * d + c]).exp() * h[k] + delta * inp.b[t * n + k] * inp.u[t * d + c];
                    y[t * d + c] += inp.c[t * n + k] * h[k];
                }
            }
        }
        y
    }

    #[test]
    fn matches_the_recurrence_for_ragged_channel_groups() {
        let (d, n, len) = (11, 3, 40);
        let f = |i: usize, s: f64| ((i as f64 * 0.7548776662466927 + s) % 1.0) * 2.0 - 1.0;
        let r: Vec<f64> = (0..len * d).map(|i| f(i, 0.1)).collect();
        let a: Vec<f64> = (0..n * d).map(|i| -1.0 - (i / d) as f64 - 0.1 * (i % d) as f64).collect();
        let b: Vec<f64> = (0..len * n).map(|i| f(i, 0.3)).collect();
        let c: Vec<f64> = (0..len * n).map(|i| f(i, 0.5)).collect();
        let u: Vec<f64> = (0..len * d).map(|i| f(i, 0.9)).collect();
        let inp = ScanInputs { d, n, len, delta: &r, delta_softplus: true, a: &a, b: &b, c: &c, u: &u };
        let mut y = vec![0.0; len * d];
        selective_scan(&inp, &mut y).unwrap();
        for (got, want) in y.iter().zip(naive(&inp)) {
            assert!((got - want).abs() <= 1e-13 * (1.0 + want.abs()), "{got} vs {want}");
        }
    }

    #[test]
    fn rejects_bad_shapes_and_values() {
        let v = vec![0.0; 4];
        let ok = ScanInputs { d: 2, n: 1, len: 2, delta: &v, delta_softplus: true, a: &v[..2], b: &v[..2], c: &v[..2], u: &v };
        assert!(selective_scan(&ok, &mut [0.0; 3]).is_err());
        let nan = [f64::NAN, 0.0, 0.0, 0.0];
        assert!(selective_scan(&ScanInputs { delta: &nan, ..ok }, &mut [0.0; 4]).is_err());
        assert!(selective_scan(&ScanInputs { n: 2, ..ok }, &mut [0.0; 4]).is_err());
        assert!(selective_scan(&ok, &mut [0.0; 4]).is_ok());
    }
}
