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
//! the same whatever the grouping, thread count or instruction set ([`Isa`]: on AVX2 the state
//! update runs in 256-bit intrinsics, `selective_scan/avx2.rs`), so results are bit-identical across runs.
//!
//! Where every `Δ_{t,c} A_{c,n}` of a step lies within ±[`EXP_NORMAL_RANGE`] (checked per step
//! from `max_n |A_{c,n}|`, and true of every scan the suite runs), the exponential skips its
//! clamps ([`exp_normal_range`], bit for bit [`exp`] there).

use crate::error::{Error, Result};
use crate::math::isa::Isa;
use crate::math::vecmath::{exp, exp_normal_range, softplus, EXP_NORMAL_RANGE};
use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod avx2;
mod backward;

pub use backward::{selective_scan_backward, selective_scan_backward_recorded, selective_scan_recorded, ScanGradients, ScanStates};

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
        // By chunks, each without an early exit, so that the test is a vector loop.
        let finite = |v: &[f64]| v.chunks(256).all(|chunk| chunk.iter().fold(true, |ok, x| ok & x.is_finite()));
        if ![self.delta, self.a, self.b, self.c, self.u].into_iter().all(finite) {
            return Err(Error::InvalidParameter("selective scan inputs must be finite".into()));
        }
        Ok(())
    }
}

/// Runs the scan, writing y (L × d) into `y`.
pub fn selective_scan(inp: &ScanInputs<'_>, y: &mut [f64]) -> Result<()> {
    selective_scan_on(Isa::active(), inp, y)
}

/// [`selective_scan`] on a given instruction set (one the CPU supports, [`Isa::supported`]):
/// the same bits on each.
pub fn selective_scan_on(isa: Isa, inp: &ScanInputs<'_>, y: &mut [f64]) -> Result<()> {
    inp.validate()?;
    if y.len() != inp.len * inp.d {
        return Err(Error::InvalidParameter(format!("selective scan: y has {} values, expected {}", y.len(), inp.len * inp.d)));
    }
    if !isa.supported() {
        return Err(Error::InvalidParameter(format!("selective scan: this CPU does not support {isa}")));
    }
    // Each group scans its channels over all t, straight into its columns of y.
    let base = y.as_mut_ptr();
    let groups: Vec<GroupOut> =
        (0..inp.d).step_by(CHANNEL_GROUP).map(|c0| GroupOut { base, d: inp.d, len: inp.len, c0, w: CHANNEL_GROUP.min(inp.d - c0) }).collect();
    crate::parallel::enter();
    groups.into_par_iter().for_each(|out| scan_group(isa, inp, out));
    Ok(())
}

/// Where one group writes: columns `c0..c0+w` of y (L × d, row-major), a row per step.
///
/// The groups of one scan take disjoint columns of a y that `selective_scan_on` holds
/// mutably borrowed until every group is done, so the rows that [`GroupOut::row`] hands out
/// never overlap, neither within a group (one at a time, through `&mut self`) nor across groups.
pub(super) struct GroupOut {
    base: *mut f64,
    d: usize,
    len: usize,
    c0: usize,
    w: usize,
}

// SAFETY: a GroupOut is the only way to its columns while it lives (see the type's doc), so
// moving it to another thread moves sole access to them.
unsafe impl Send for GroupOut {}

impl GroupOut {
    /// Channels in the group.
    pub(super) fn width(&self) -> usize {
        self.w
    }

    /// First channel.
    pub(super) fn first(&self) -> usize {
        self.c0
    }

    /// The group's part of row t of y.
    #[inline(always)]
    pub(super) fn row(&mut self, t: usize) -> &mut [f64] {
        assert!(t < self.len, "row {t} of {}", self.len);
        // SAFETY: t < L and c0 + w ≤ d, so the slice lies inside y (L·d values), and no other
        // live slice overlaps it (the type's doc).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(t * self.d + self.c0), self.w) }
    }
}

/// One group's channels over all t on `isa`, into its columns of y.
fn scan_group(isa: Isa, inp: &ScanInputs<'_>, out: GroupOut) {
    match isa {
        // SAFETY: `selective_scan_on` checked that the CPU supports `isa`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::scan_group(inp, out) },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { scan_group_avx512(inp, out) },
        _ => scan_group_portable(inp, out),
    }
}

/// [`scan_group_portable`] compiled for AVX-512.
///
/// # Safety
/// The CPU must support [`Isa::Avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
unsafe fn scan_group_avx512(inp: &ScanInputs<'_>, out: GroupOut) {
    scan_group_portable(inp, out)
}

/// One group's scan as plain loops that the compiler vectorises.
#[inline(always)]
fn scan_group_portable(inp: &ScanInputs<'_>, mut out: GroupOut) {
    let w = out.width();
    let mut g = Group::new(inp, out.first(), w);
    for t in 0..inp.len {
        g.start_step(inp, t, 0..w);
        g.update(inp, t, 0..w, out.row(t));
    }
}

/// The state of one group of channels `c0..c0+w` between steps.
struct Group {
    /// Channels in the group.
    w: usize,
    /// First channel.
    c0: usize,
    /// `A_{c0+c,n}` at `a[n·w + c]`.
    a: Vec<f64>,
    /// `max_n |A_{c0+c,n}|`, for the range check of [`exp_normal_range`].
    a_max: Vec<f64>,
    /// `h_{n,c0+c}` at `h[n·w + c]`.
    h: Vec<f64>,
    /// Δ_{t,c} of the current step.
    dl: Vec<f64>,
    /// Δ_{t,c} u_{t,c} of the current step.
    dbu: Vec<f64>,
}

impl Group {
    #[inline(always)]
    fn new(inp: &ScanInputs<'_>, c0: usize, w: usize) -> Self {
        let a: Vec<f64> = inp.a.chunks_exact(inp.d).flat_map(|row| row[c0..c0 + w].iter().copied()).collect();
        let a_max = (0..w).map(|c| a.iter().skip(c).step_by(w).fold(0.0f64, |m, x| m.max(x.abs()))).collect();
        Group { w, c0, a, a_max, h: vec![0.0; inp.n * w], dl: vec![0.0; w], dbu: vec![0.0; w] }
    }

    /// Δ and Δu of step t for channels `cs`.
    #[inline(always)]
    fn start_step(&mut self, inp: &ScanInputs<'_>, t: usize, cs: std::ops::Range<usize>) {
        let row = t * inp.d + self.c0;
        let (rt, ut) = (&inp.delta[row + cs.start..row + cs.end], &inp.u[row + cs.start..row + cs.end]);
        for ((dl, dbu), (&r, &u)) in self.dl[cs.clone()].iter_mut().zip(self.dbu[cs].iter_mut()).zip(rt.iter().zip(ut)) {
            *dl = if inp.delta_softplus { softplus(r) } else { r };
            *dbu = *dl * u;
        }
    }

    /// Whether every `Δ_{t,c} A_{c,n}` of channels `cs` lies within ±[`EXP_NORMAL_RANGE`]:
    /// `|fl(Δ·A)| ≤ fl(|Δ|·max|A|)` since rounding is monotone (Δ may be negative when it is
    /// given directly; a NaN fails the test).
    #[inline(always)]
    fn in_normal_range(&self, cs: std::ops::Range<usize>) -> bool {
        let m = self.dl[cs.clone()].iter().zip(&self.a_max[cs]).fold(0.0f64, |m, (&dl, &am)| {
            let v = dl.abs() * am;
            if v > m || v.is_nan() {
                v
            } else {
                m
            }
        });
        m <= EXP_NORMAL_RANGE
    }

    /// Step t of channels `cs` (y row `out`, indexed by channel within the group), after
    /// [`Group::start_step`].
    #[inline(always)]
    fn update(&mut self, inp: &ScanInputs<'_>, t: usize, cs: std::ops::Range<usize>, out: &mut [f64]) {
        if self.in_normal_range(cs.clone()) {
            self.update_with(inp, t, cs, out, exp_normal_range)
        } else {
            self.update_with(inp, t, cs, out, exp)
        }
    }

    /// `h ← e^{ΔA} h + Δu·B_t`, `y = Σ_n C_{t,n} h_n` over channels `cs`, n in order. The inner
    /// loops run over contiguous channels and vectorise (the trip count is left to run time on
    /// purpose: a constant one gets unrolled before the loop vectoriser sees it).
    #[inline(always)]
    fn update_with(&mut self, inp: &ScanInputs<'_>, t: usize, cs: std::ops::Range<usize>, out: &mut [f64], exp: impl Fn(f64) -> f64) {
        let (n, w) = (inp.n, self.w);
        let (bt, ct) = (&inp.b[t * n..(t + 1) * n], &inp.c[t * n..(t + 1) * n]);
        let (dl, dbu, acc) = (&self.dl[cs.clone()], &self.dbu[cs.clone()], &mut out[cs.clone()]);
        acc.fill(0.0);
        for ((hk, ak), (&bk, &ck)) in self.h.chunks_exact_mut(w).zip(self.a.chunks_exact(w)).zip(bt.iter().zip(ct)) {
            for ((((hv, &av), &dlc), &dbuc), acc) in hk[cs.clone()].iter_mut().zip(&ak[cs.clone()]).zip(dl).zip(dbu).zip(acc.iter_mut()) {
                let next = exp(dlc * av).mul_add(*hv, dbuc * bk);
                *hv = next;
                *acc = ck.mul_add(next, *acc);
            }
        }
    }
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

    /// The recurrence channel by channel with the same operations as the scan (vecmath's `exp`
    /// and `softplus`, the same fused multiply-adds in the same order): the scan must equal it
    /// bit for bit, whichever exponential and instruction set it used.
    // The reference is written index by index, as the recurrence reads on paper.
    #[allow(clippy::needless_range_loop)]
    fn same_operations(inp: &ScanInputs<'_>) -> Vec<f64> {
        let (d, n) = (inp.d, inp.n);
        let mut y = vec![0.0; inp.len * d];
        for c in 0..d {
            let mut h = vec![0.0; n];
            for t in 0..inp.len {
                let r = inp.delta[t * d + c];
                let delta = if inp.delta_softplus { softplus(r) } else { r };
                let dbu = delta * inp.u[t * d + c];
                let mut acc = 0.0;
                for k in 0..n {
                    h[k] = exp(delta * inp.a[k * d + c]).mul_add(h[k], dbu * inp.b[t * n + k]);
                    acc = inp.c[t * n + k].mul_add(h[k], acc);
                }
                y[t * d + c] = acc;
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

    /// Inputs whose channel count leaves a ragged group and a ragged AVX2 block, with a large
    /// |A| on one channel so that some steps leave the exponential's normal range (and take
    /// the clamped path) while others stay in it, and a large |δ| on another.
    /// δ, A, B, C, u of a scan.
    type Inputs = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

    fn mixed_inputs(d: usize, n: usize, len: usize) -> Inputs {
        let f = |i: usize, s: f64| ((i as f64 * 0.7548776662466927 + s) % 1.0) * 2.0 - 1.0;
        // Channel 3's |δ| reaches 800, beyond the vector softplus's range.
        let r: Vec<f64> = (0..len * d).map(|i| if i % d == 3 { 800.0 } else { 3.0 } * f(i, 0.1)).collect();
        let a: Vec<f64> = (0..n * d).map(|i| if i % d == 5 { -400.0 * (1 + i / d) as f64 } else { -1.0 - (i / d) as f64 - 0.1 * (i % d) as f64 }).collect();
        let b: Vec<f64> = (0..len * n).map(|i| f(i, 0.3)).collect();
        let c: Vec<f64> = (0..len * n).map(|i| f(i, 0.5)).collect();
        let u: Vec<f64> = (0..len * d).map(|i| f(i, 0.9)).collect();
        (r, a, b, c, u)
    }

    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        // Δ = softplus(δ), and Δ = δ given directly (negative on some steps, so that Δ·A > 708
        // there and the exponential must overflow to +∞ as `exp` does).
        for (d, delta_softplus) in [(1, true), (17, true), (40, true), (64, true), (17, false), (40, false)] {
            let (n, len) = (5, 300);
            let (r, a, b, c, u) = mixed_inputs(d, n, len);
            let inp = ScanInputs { d, n, len, delta: &r, delta_softplus, a: &a, b: &b, c: &c, u: &u };
            let mut want = vec![0.0; len * d];
            selective_scan_on(Isa::Portable, &inp, &mut want).unwrap();
            let reference = same_operations(&inp);
            assert!(want.iter().zip(&reference).all(|(g, r)| g.to_bits() == r.to_bits()), "d = {d}: not the recurrence's bits");
            // Δ = δ overflows on some steps (+∞ and then NaN), softplus never.
            assert_eq!(want.iter().all(|v| v.is_finite()), delta_softplus, "d = {d}");
            for isa in Isa::available() {
                let mut got = vec![0.0; len * d];
                selective_scan_on(isa, &inp, &mut got).unwrap();
                let same = got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits());
                assert!(same, "{isa} differs from the portable loops at d = {d}");
            }
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
