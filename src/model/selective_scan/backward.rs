//! The reverse-mode derivative of the S6 selective scan (the training's backward pass), as a
//! reverse-time recurrence. With `ā_{t,n,c} = e^{Δ_{t,c} A_{c,n}}`, `h_t = ā_t h_{t−1} + Δ_t B_{t,n} u_t`
//! and `y_{t,c} = Σ_n C_{t,n} h_{t,n,c}`, the adjoint of the state,
//!
//! ```text
//! λ_t = C_{t,n} ȳ_{t,c} + ā_{t+1} λ_{t+1}        (λ_{L+1} = 0, run from t = L down to 1)
//! ```
//!
//! gives every gradient in one pass (ȳ = ∂ℓ/∂y, and `h_{t−1}` from the forward recurrence):
//!
//! ```text
//! ∂ℓ/∂C_{t,n} = Σ_c ȳ_{t,c} h_{t,n,c}          ∂ℓ/∂B_{t,n} = Σ_c λ_t Δ_t u_t
//! ∂ℓ/∂u_{t,c} = Σ_n λ_t Δ_t B_{t,n}             ∂ℓ/∂A_{c,n} = Σ_t λ_t ā_t Δ_t h_{t−1}
//! ∂ℓ/∂Δ_{t,c} = Σ_n λ_t (ā_t A_{c,n} h_{t−1} + B_{t,n} u_t)
//! ```
//!
//! and `∂ℓ/∂δ = ∂ℓ/∂Δ · sigmoid(δ)` when Δ = softplus(δ). The states are recomputed here with the
//! same operations as the forward scan (vecmath's `exp`, the same fused multiply-adds), so the
//! `h_{t−1}` used are the forward's own values; f64 throughout, memory L·N per block of channels.
//! Or the forward pass keeps them ([`selective_scan_recorded`], the forward scan's bits in this
//! module's layout, 2·L·N·d values) and [`selective_scan_backward_recorded`] reads them: the same
//! gradients bit for bit, without the recurrence run a second time (tests below). On the copy
//! claims' blocks (d = 64, N = 16, L = 18; one thread of an AMD EPYC family 25 model 17,
//! 2026-12-06) the recorded forward took 23 µs a sequence against the engine scan's 42–47 µs
//! (which builds its channel groups and rayon tasks per call), and the backward pass 58 µs from
//! the kept states against 75–84 µs recomputing. The adjoint's step computes every state's
//! terms as whole vectors of lanes and adds the sums over channels afterwards, apart: written as
//! one loop, the compiler unrolled the lanes into scalar code and spilled registers. Apart, the
//! same bits, and on the same CPU (2026-12-06) `cargo bench -- selective_scan/backward` went from
//! 7.9 ms to 5.3 ms (medians), the backward pass from 20% to 14% of `003.fig2.trained`'s samples
//! (perf), and the `003 copy` training step from 13.2 ms to 11.4 ms.

use super::ScanInputs;
use crate::error::{Error, Result};
use crate::math::isa::{Isa, Kernel};
use crate::math::softplus::sigmoid;
use crate::math::vecmath::{exp, exp_normal_range, softplus, EXP_NORMAL_RANGE};

/// The gradients of a scalar loss ℓ with respect to every input of [`ScanInputs`], in the same
/// layouts (δ and u: L × d; A: N × d; B and C: L × N).
#[derive(Clone, Debug, PartialEq)]
pub struct ScanGradients {
    /// ∂ℓ/∂δ (the pre-activation when `delta_softplus` is set, else ∂ℓ/∂Δ).
    pub delta: Vec<f64>,
    /// ∂ℓ/∂A.
    pub a: Vec<f64>,
    /// ∂ℓ/∂B.
    pub b: Vec<f64>,
    /// ∂ℓ/∂C.
    pub c: Vec<f64>,
    /// ∂ℓ/∂u.
    pub u: Vec<f64>,
}

/// The gradients of ℓ given `dy = ∂ℓ/∂y` (L × d) at the scan `inp`. Runs a clone compiled for
/// [`Isa::active`]'s instruction set: the same bits on each.
pub fn selective_scan_backward(inp: &ScanInputs<'_>, dy: &[f64]) -> Result<ScanGradients> {
    Isa::active().run(Backward { inp, dy, states: None })
}

/// The forward scan's decays ā_t and states h_t, kept by [`selective_scan_recorded`] so that
/// [`selective_scan_backward_recorded`] need not recompute them: per block of eight
/// channels, h_0..h_L (N lanes-vectors a step, h_0 = 0) and ā_1..ā_L. 2·L·N·d values, about
/// 0.3 MB for one sequence of the copy claims' blocks (L = 18, N = 16, d = 64).
///
/// Their buffers are reused: a dropped `ScanStates` hands them to a pool that the next one
/// takes from, and only h_0 is written before the recurrence, which writes every other value
/// (tested with buffers full of NaN). Zeroing fresh buffers was 7% of a copy claim's training
/// step (`perf`, Intel Xeon family 6 model 167, 2026-12-07).
#[derive(Clone, Debug)]
pub struct ScanStates {
    /// The scan's (d, N, L), checked against the backward pass's inputs.
    dims: [usize; 3],
    h: Vec<Lanes>,
    abar: Vec<Lanes>,
}

/// Buffers of dropped [`ScanStates`], at most [`FREED_BYTES`] in all.
struct Freed {
    buffers: Vec<Vec<Lanes>>,
    bytes: usize,
}

/// The pool of freed buffers, shared by every thread (one lock per sequence's scan).
static FREED: std::sync::Mutex<Freed> = std::sync::Mutex::new(Freed { buffers: Vec::new(), bytes: 0 });

/// The most the pool keeps: 64 MiB, a few hundred sequences of the trained claims' scans.
const FREED_BYTES: usize = 64 << 20;

/// The bytes a buffer holds.
fn bytes(v: &Vec<Lanes>) -> usize {
    v.capacity() * std::mem::size_of::<Lanes>()
}

/// A buffer from the pool (the last one freed), or an empty one.
fn take_freed() -> Vec<Lanes> {
    let Ok(mut freed) = FREED.lock() else { return Vec::new() };
    let v = freed.buffers.pop().unwrap_or_default();
    freed.bytes -= bytes(&v);
    v
}

impl Drop for ScanStates {
    fn drop(&mut self) {
        let Ok(mut freed) = FREED.lock() else { return };
        for v in [std::mem::take(&mut self.h), std::mem::take(&mut self.abar)] {
            if v.capacity() > 0 && freed.bytes + bytes(&v) <= FREED_BYTES {
                freed.bytes += bytes(&v);
                freed.buffers.push(v);
            }
        }
    }
}

impl ScanStates {
    fn new(dims: [usize; 3]) -> Self {
        Self::from_buffers(dims, take_freed(), take_freed())
    }

    /// States for a scan of `dims` in the given buffers, whatever they hold: each cut or
    /// extended to its length, and h_0 of every block set to 0 (the recurrence writes the rest).
    fn from_buffers([d, n, len]: [usize; 3], mut h: Vec<Lanes>, mut abar: Vec<Lanes>) -> Self {
        let blocks = d.div_ceil(LANES);
        h.resize(blocks * (len + 1) * n, [0.0; LANES]);
        abar.resize(blocks * len * n, [0.0; LANES]);
        for blk in 0..blocks {
            h[blk * (len + 1) * n..][..n].fill([0.0; LANES]);
        }
        ScanStates { dims: [d, n, len], h, abar }
    }

    /// Block `blk`'s states and decays.
    fn block(&self, blk: usize) -> (&[Lanes], &[Lanes]) {
        let [_, n, len] = self.dims;
        (&self.h[blk * (len + 1) * n..][..(len + 1) * n], &self.abar[blk * len * n..][..len * n])
    }

    fn block_mut(&mut self, blk: usize) -> (&mut [Lanes], &mut [Lanes]) {
        let [_, n, len] = self.dims;
        (&mut self.h[blk * (len + 1) * n..][..(len + 1) * n], &mut self.abar[blk * len * n..][..len * n])
    }
}

/// The forward scan y (L × d) of `inp`, as [`super::selective_scan`] computes it bit for bit,
/// and its decays and states for [`selective_scan_backward_recorded`]. One thread, blocks of
/// eight channels (the backward pass's layout); a clone compiled for [`Isa::active`].
pub fn selective_scan_recorded(inp: &ScanInputs<'_>, y: &mut [f64]) -> Result<ScanStates> {
    check(inp, y.len(), "selective scan: y")?;
    Isa::active().run(Recorded { inp, y, states: ScanStates::new([inp.d, inp.n, inp.len]) })
}

/// [`selective_scan_backward`] from the decays and states [`selective_scan_recorded`] kept for
/// the same `inp`: the same bits, without recomputing them.
pub fn selective_scan_backward_recorded(inp: &ScanInputs<'_>, dy: &[f64], states: &ScanStates) -> Result<ScanGradients> {
    if states.dims != [inp.d, inp.n, inp.len] {
        return Err(Error::InvalidParameter(format!(
            "selective scan backward: states recorded for (d, N, L) = {:?}, inputs {:?}",
            states.dims,
            [inp.d, inp.n, inp.len]
        )));
    }
    Isa::active().run(Backward { inp, dy, states: Some(states) })
}

/// [`selective_scan_backward`] as a [`Kernel`].
struct Backward<'a, 'b> {
    inp: &'a ScanInputs<'b>,
    dy: &'a [f64],
    states: Option<&'a ScanStates>,
}

impl Kernel for Backward<'_, '_> {
    type Output = Result<ScanGradients>;

    #[inline(always)]
    fn run(self) -> Result<ScanGradients> {
        backward_here(self.inp, self.dy, self.states)
    }
}

/// [`selective_scan_recorded`] as a [`Kernel`].
struct Recorded<'a, 'b> {
    inp: &'a ScanInputs<'b>,
    y: &'a mut [f64],
    /// Where the decays and states go (of the scan's dims; its buffers' old values are
    /// overwritten).
    states: ScanStates,
}

impl Kernel for Recorded<'_, '_> {
    type Output = Result<ScanStates>;

    #[inline(always)]
    fn run(self) -> Result<ScanStates> {
        recorded_here(self.inp, self.y, self.states)
    }
}

/// Channels advanced together by [`backward_here`]: one AVX-512 vector of f64 (two AVX2 ones).
const LANES: usize = 8;

/// One value per lane of a block of channels.
type Lanes = [f64; LANES];

/// One block's inputs by lane: the steps Δ_t (softplus applied), the inputs u_t (by step) and A
/// (by state). The last block is padded with inert lanes: Δ = u = A = 0, whose terms are
/// computed but never stored or added.
struct BlockInputs {
    steps: Vec<Lanes>,
    u: Vec<Lanes>,
    a: Vec<Lanes>,
}

impl BlockInputs {
    fn new(n: usize, len: usize) -> Self {
        BlockInputs { steps: vec![[0.0; LANES]; len], u: vec![[0.0; LANES]; len], a: vec![[0.0; LANES]; n] }
    }

    /// Channels `c0..c0 + width` of `inp`.
    #[inline(always)]
    fn load(&mut self, inp: &ScanInputs<'_>, c0: usize, width: usize) {
        let d = inp.d;
        let lanes = |m: &[f64], row: usize| -> Lanes { std::array::from_fn(|l| if l < width { m[row * d + c0 + l] } else { 0.0 }) };
        for t in 0..inp.len {
            self.steps[t] = lanes(inp.delta, t);
            if inp.delta_softplus {
                self.steps[t].iter_mut().take(width).for_each(|r| *r = softplus(*r));
            }
            self.u[t] = lanes(inp.u, t);
        }
        for (k, a) in self.a.iter_mut().enumerate() {
            *a = lanes(inp.a, k);
        }
    }

    /// The decays `ā_t` and states `h_1..h_L` (h_0 = 0 left as it is) as the forward scan
    /// computes them: the same expressions, so the same bits.
    #[inline(always)]
    fn recurrence(&self, inp: &ScanInputs<'_>, h: &mut [Lanes], abar: &mut [Lanes]) {
        let n = inp.n;
        for t in 0..inp.len {
            let (dl, ut) = (&self.steps[t], &self.u[t]);
            let dbu: Lanes = std::array::from_fn(|l| dl[l] * ut[l]);
            let (prev, next) = h.split_at_mut((t + 1) * n);
            for k in 0..n {
                let (b, a, decay) = (inp.b[t * n + k], &self.a[k], &mut abar[t * n + k]);
                let (hp, hn) = (&prev[t * n + k], &mut next[k]);
                let arg: Lanes = std::array::from_fn(|l| dl[l] * a[l]);
                // exp_normal_range is exp's bits where every lane is in its range, and
                // vectorises (exp's clamps and end selects do not). `from_fn`, not `map`: `map`
                // stayed a call, built without this clone's instruction set, its result
                // returned through memory.
                if arg.iter().all(|x| x.abs() <= EXP_NORMAL_RANGE) {
                    *decay = std::array::from_fn(|l| exp_normal_range(arg[l]));
                } else {
                    *decay = std::array::from_fn(|l| exp(arg[l]));
                }
                for l in 0..LANES {
                    hn[l] = decay[l].mul_add(hp[l], dbu[l] * b);
                }
            }
        }
    }
}

/// Checks the inputs and the length of a per-step, per-channel buffer, named in the error by
/// `what` ("selective scan: y", "selective scan backward: dy").
fn check(inp: &ScanInputs<'_>, values: usize, what: &str) -> Result<()> {
    inp.validate()?;
    if values != inp.len * inp.d {
        return Err(Error::InvalidParameter(format!("{what} has {values} values, expected {}", inp.len * inp.d)));
    }
    Ok(())
}

/// [`selective_scan_recorded`], compiled as the caller is: per block, the recurrence into the
/// states, then `y_t = Σ_n C_{t,n} h_{t,n}` with the forward scan's fused multiply-adds, n in
/// order from 0. The caller has checked the inputs and made `states` of the scan's dims.
#[inline(always)]
fn recorded_here(inp: &ScanInputs<'_>, y: &mut [f64], mut states: ScanStates) -> Result<ScanStates> {
    let (d, n, len) = (inp.d, inp.n, inp.len);
    debug_assert_eq!(states.dims, [d, n, len]);
    let mut blk_in = BlockInputs::new(n, len);
    for (blk, c0) in (0..d).step_by(LANES).enumerate() {
        let width = LANES.min(d - c0);
        blk_in.load(inp, c0, width);
        let (h, abar) = states.block_mut(blk);
        blk_in.recurrence(inp, h, abar);
        for t in 0..len {
            let mut acc: Lanes = [0.0; LANES];
            for (&ck, hk) in inp.c[t * n..(t + 1) * n].iter().zip(&h[(t + 1) * n..(t + 2) * n]) {
                for l in 0..LANES {
                    acc[l] = ck.mul_add(hk[l], acc[l]);
                }
            }
            y[t * d + c0..t * d + c0 + width].copy_from_slice(&acc[..width]);
        }
    }
    Ok(states)
}

/// [`selective_scan_backward`], compiled as the caller is. The channels are taken [`LANES`] at a
/// time, each lane one channel's recurrence exactly as `backward_one_channel` (the tests'
/// reference) writes it: every lane's sums run over the states and steps in the same order, and
/// the sums over channels (∂ℓ/∂B, ∂ℓ/∂C) are added lane after lane, block after block, so in
/// channel order. The bits are those of the channel-by-channel recurrence; the lanes vectorise
/// where the states of one channel (N of them, often fewer than a vector holds) would not. The
/// decays and states come from `states` when the forward pass kept them, else they are
/// recomputed here.
#[inline(always)]
fn backward_here(inp: &ScanInputs<'_>, dy: &[f64], states: Option<&ScanStates>) -> Result<ScanGradients> {
    check(inp, dy.len(), "selective scan backward: dy")?;
    let (d, n, len) = (inp.d, inp.n, inp.len);
    let mut g = ScanGradients { delta: vec![0.0; len * d], a: vec![0.0; n * d], b: vec![0.0; len * n], c: vec![0.0; len * n], u: vec![0.0; len * d] };
    // Per block of channels: the inputs by lane and the read-out gradients by step, the decays
    // and the states h_0..h_L (kept or recomputed), then the adjoint.
    let mut blk_in = BlockInputs::new(n, len);
    let mut gy = vec![[0.0; LANES]; len];
    // One block's states, made at the first block when none were kept.
    let mut scratch: Option<ScanStates> = None;
    let (mut lambda, mut g_a) = (vec![[0.0; LANES]; n], vec![[0.0; LANES]; n]);
    // One step's terms of ∂ℓ/∂C and ∂ℓ/∂B by state and lane, before their sums over channels.
    let (mut to_c, mut to_b) = (vec![[0.0; LANES]; n], vec![[0.0; LANES]; n]);
    for (blk, c0) in (0..d).step_by(LANES).enumerate() {
        let width = LANES.min(d - c0);
        blk_in.load(inp, c0, width);
        for (t, row) in gy.iter_mut().enumerate() {
            *row = std::array::from_fn(|l| if l < width { dy[t * d + c0 + l] } else { 0.0 });
        }
        let (h, abar) = match states {
            Some(kept) => kept.block(blk),
            None => {
                let s = scratch.get_or_insert_with(|| ScanStates::new([LANES, n, len]));
                let (h, abar) = s.block_mut(0);
                blk_in.recurrence(inp, h, abar);
                s.block(0)
            }
        };
        let (steps, u, a_blk) = (&blk_in.steps, &blk_in.u, &blk_in.a);
        lambda.iter_mut().for_each(|x| *x = [0.0; LANES]);
        g_a.iter_mut().for_each(|x| *x = [0.0; LANES]);
        for t in (0..len).rev() {
            let (dl, ut, gyt) = (&steps[t], &u[t], &gy[t]);
            let (mut g_delta, mut g_u): (Lanes, Lanes) = ([0.0; LANES], [0.0; LANES]);
            // Lane by lane, whole vectors at a time (the lanes are independent here), then the
            // sums over channels below, apart, so that these vectorise.
            for k in 0..n {
                let (b, cr, a, e) = (inp.b[t * n + k], inp.c[t * n + k], &a_blk[k], &abar[t * n + k]);
                let (h_prev, h_now) = (&h[t * n + k], &h[(t + 1) * n + k]);
                let (lam_next, ga) = (&mut lambda[k], &mut g_a[k]);
                // λ_t: this step's read-out plus what flows back from step t + 1 (already in λ).
                let lam: Lanes = std::array::from_fn(|l| cr * gyt[l] + lam_next[l]);
                g_delta = std::array::from_fn(|l| g_delta[l] + lam[l] * (e[l] * a[l] * h_prev[l] + b * ut[l]));
                g_u = std::array::from_fn(|l| g_u[l] + lam[l] * dl[l] * b);
                *ga = std::array::from_fn(|l| ga[l] + lam[l] * e[l] * dl[l] * h_prev[l]);
                // What step t − 1 receives: ā_t λ_t.
                *lam_next = std::array::from_fn(|l| e[l] * lam[l]);
                to_c[k] = std::array::from_fn(|l| gyt[l] * h_now[l]);
                to_b[k] = std::array::from_fn(|l| lam[l] * dl[l] * ut[l]);
            }
            // The sums over channels: added lane after lane (channel order), in registers.
            for k in 0..n {
                let (mut sum_c, mut sum_b) = (g.c[t * n + k], g.b[t * n + k]);
                for l in 0..width {
                    sum_c += to_c[k][l];
                    sum_b += to_b[k][l];
                }
                (g.c[t * n + k], g.b[t * n + k]) = (sum_c, sum_b);
            }
            for l in 0..width {
                let c = c0 + l;
                g.u[t * d + c] = g_u[l];
                let r = inp.delta[t * d + c];
                g.delta[t * d + c] = if inp.delta_softplus { g_delta[l] * sigmoid(r) } else { g_delta[l] };
            }
        }
        for (k, ga) in g_a.iter().enumerate() {
            g.a[k * d + c0..k * d + c0 + width].copy_from_slice(&ga[..width]);
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::selective_scan::selective_scan;

    /// The recurrence one channel at a time, in its plain form: the reference `backward_here`
    /// must equal bit for bit.
    fn backward_one_channel(inp: &ScanInputs<'_>, dy: &[f64]) -> Result<ScanGradients> {
        inp.validate()?;
        let (d, n, len) = (inp.d, inp.n, inp.len);
        if dy.len() != len * d {
            return Err(Error::InvalidParameter(format!("selective scan backward: dy has {} values, expected {}", dy.len(), len * d)));
        }
        let step = |t: usize, c: usize| {
            let r = inp.delta[t * d + c];
            if inp.delta_softplus {
                softplus(r)
            } else {
                r
            }
        };
        let mut g = ScanGradients { delta: vec![0.0; len * d], a: vec![0.0; n * d], b: vec![0.0; len * n], c: vec![0.0; len * n], u: vec![0.0; len * d] };
        // Per channel: the decays ā_t and the states h_0..h_L (h_0 = 0) as the forward computes
        // them (the same expressions, so the same bits), then the adjoint. The channel's steps Δ_t and
        // its column of ∂ℓ/∂A are kept in buffers of their own (the column is summed in the same order
        // as in place, so the same bits, without a write of stride d per term).
        let mut h = vec![0.0; (len + 1) * n];
        let mut abar = vec![0.0; len * n];
        let mut a_col = vec![0.0; n];
        let mut lambda = vec![0.0; n];
        let mut steps = vec![0.0; len];
        let mut g_a = vec![0.0; n];
        for c in 0..d {
            a_col.iter_mut().enumerate().for_each(|(k, x)| *x = inp.a[k * d + c]);
            steps.iter_mut().enumerate().for_each(|(t, s)| *s = step(t, c));
            for (t, &dl) in steps.iter().enumerate() {
                let dbu = dl * inp.u[t * d + c];
                let decay = &mut abar[t * n..(t + 1) * n];
                decay.iter_mut().zip(&a_col).for_each(|(e, &a)| *e = exp(dl * a));
                let (prev, next) = h.split_at_mut((t + 1) * n);
                for (((hn, &hp), &e), &b) in next[..n].iter_mut().zip(&prev[t * n..]).zip(&*decay).zip(&inp.b[t * n..(t + 1) * n]) {
                    *hn = e.mul_add(hp, dbu * b);
                }
            }
            lambda.fill(0.0);
            g_a.fill(0.0);
            for t in (0..len).rev() {
                let (dl, u, gy) = (steps[t], inp.u[t * d + c], dy[t * d + c]);
                let (mut g_delta, mut g_u) = (0.0, 0.0);
                for k in 0..n {
                    let (a, b, e) = (a_col[k], inp.b[t * n + k], abar[t * n + k]);
                    let (h_prev, h_now) = (h[t * n + k], h[(t + 1) * n + k]);
                    g.c[t * n + k] += gy * h_now;
                    // λ_t: this step's read-out plus what flows back from step t + 1 (already in λ).
                    let lam = inp.c[t * n + k] * gy + lambda[k];
                    g_delta += lam * (e * a * h_prev + b * u);
                    g_u += lam * dl * b;
                    g.b[t * n + k] += lam * dl * u;
                    g_a[k] += lam * e * dl * h_prev;
                    // What step t − 1 receives: ā_t λ_t.
                    lambda[k] = e * lam;
                }
                g.u[t * d + c] = g_u;
                let r = inp.delta[t * d + c];
                g.delta[t * d + c] = if inp.delta_softplus { g_delta * sigmoid(r) } else { g_delta };
            }
            for (k, &x) in g_a.iter().enumerate() {
                g.a[k * d + c] = x;
            }
        }
        Ok(g)
    }

    /// A small scan with every input random (Δ through softplus or given directly).
    fn instance(seed: u64, softplus_delta: bool) -> (usize, usize, usize, Vec<Vec<f64>>) {
        let (d, n, len) = (3, 4, 7);
        let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let delta: Vec<f64> = (0..len * d).map(|_| if softplus_delta { 2.0 * next() } else { 0.2 + 0.5 * (next() + 0.5) }).collect();
        let a: Vec<f64> = (0..n * d).map(|_| -0.2 - 2.0 * (next() + 0.5)).collect();
        let rest: Vec<Vec<f64>> = [len * n, len * n, len * d].iter().map(|&m| (0..m).map(|_| 2.0 * next()).collect()).collect();
        (d, n, len, vec![delta, a, rest[0].clone(), rest[1].clone(), rest[2].clone()])
    }

    fn inputs<'a>(d: usize, n: usize, len: usize, v: &'a [Vec<f64>], softplus_delta: bool) -> ScanInputs<'a> {
        ScanInputs { d, n, len, delta: &v[0], delta_softplus: softplus_delta, a: &v[1], b: &v[2], c: &v[3], u: &v[4] }
    }

    /// ℓ = Σ w_{t,c} y_{t,c} with fixed weights w (so ∂ℓ/∂y = w).
    fn loss(inp: &ScanInputs<'_>, w: &[f64]) -> f64 {
        let mut y = vec![0.0; inp.len * inp.d];
        selective_scan(inp, &mut y).unwrap();
        y.iter().zip(w).map(|(a, b)| a * b).sum()
    }

    /// Central differences, h = 10⁻⁵·max(1, |x|): truncation h²|ℓ'''|/6 and rounding about
    /// 2ε|ℓ|/h. ℓ and its third derivatives are O(10) here (|y| ≤ Σ|C||h|, all inputs O(1), L = 7),
    /// so both are below 10⁻⁹; the tolerance 10⁻⁷·max(1, |g|) leaves a factor 100 and still
    /// catches any wrong term (each is O(10⁻²) or larger at these inputs).
    #[test]
    fn the_backward_pass_agrees_with_central_differences() {
        for (seed, sp) in [(1u64, true), (2, false), (3, true)] {
            let (d, n, len, v) = instance(seed, sp);
            let inp = inputs(d, n, len, &v, sp);
            let w: Vec<f64> = (0..len * d).map(|i| ((i * 7 + 3) % 11) as f64 / 11.0 - 0.4).collect();
            let g = selective_scan_backward(&inp, &w).unwrap();
            let grads = [&g.delta, &g.a, &g.b, &g.c, &g.u];
            for (which, grad) in grads.iter().enumerate() {
                for i in 0..v[which].len() {
                    let x = v[which][i];
                    let h = 1e-5 * x.abs().max(1.0);
                    let at = |x_new: f64| {
                        let mut vv = v.clone();
                        vv[which][i] = x_new;
                        loss(&inputs(d, n, len, &vv, sp), &w)
                    };
                    let fd = (at(x + h) - at(x - h)) / (2.0 * h);
                    assert!((fd - grad[i]).abs() <= 1e-7 * grad[i].abs().max(1.0), "input {which}[{i}], seed {seed}: backward {} vs differences {fd}", grad[i]);
                }
            }
        }
    }

    /// The negative control: a backward pass that forgets the flow through ā (λ not carried
    /// back) disagrees with the differences at the same tolerance.
    #[test]
    fn every_instruction_set_gives_the_same_gradients() {
        for (seed, sp) in [(5u64, true), (6, false)] {
            let (d, n, len, v) = instance(seed, sp);
            let inp = inputs(d, n, len, &v, sp);
            let dy: Vec<f64> = (0..len * d).map(|i| ((i * 7 % 11) as f64 - 5.0) / 3.0).collect();
            let bits = |isa: Isa| {
                let g = isa.run(Backward { inp: &inp, dy: &dy, states: None }).unwrap();
                [g.delta, g.a, g.b, g.c, g.u].concat().iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            };
            let portable = bits(Isa::Portable);
            for isa in Isa::available() {
                assert_eq!(bits(isa), portable, "{isa}");
            }
        }
    }

    /// The blocked recurrence is the channel-by-channel one, bit for bit, on every instruction
    /// set: widths below, at and across a block of lanes (1, 3, 8, 9, 17 channels), N = 1, 4 and
    /// 16, Δ given and through softplus, a step whose decay leaves exp's normal range, and a ȳ
    /// with signed zeros.
    #[test]
    fn the_blocked_channels_give_the_channel_by_channel_bits() {
        let bits = |g: &ScanGradients| [&g.delta, &g.a, &g.b, &g.c, &g.u].map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>());
        let mut z = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            (z >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for d in [1, 3, 8, 9, 17] {
            for n in [1, 4, 16] {
                for sp in [false, true] {
                    let len = 6;
                    let mut delta: Vec<f64> = (0..len * d).map(|_| if sp { 2.0 * next() } else { 0.2 + 0.5 * (next() + 0.5) }).collect();
                    // One step of the last channel far outside exp's normal range (ΔA below
                    // −708: its block takes exp's clamped path, whose e^{ΔA} is 0 or subnormal).
                    delta[len * d - 1] = if sp { 800.0 } else { 900.0 };
                    let a: Vec<f64> = (0..n * d).map(|_| -0.2 - 2.0 * (next() + 0.5)).collect();
                    let [b, c, u]: [Vec<f64>; 3] = [len * n, len * n, len * d].map(|m| (0..m).map(|_| 2.0 * next()).collect());
                    let dy: Vec<f64> = (0..len * d).map(|i| if i % 5 == 0 { -0.0 } else { next() }).collect();
                    let inp = ScanInputs { d, n, len, delta: &delta, delta_softplus: sp, a: &a, b: &b, c: &c, u: &u };
                    let want = bits(&backward_one_channel(&inp, &dy).unwrap());
                    let mut y = vec![0.0; len * d];
                    selective_scan(&inp, &mut y).unwrap();
                    let y_bits: Vec<u64> = y.iter().map(|x| x.to_bits()).collect();
                    for isa in Isa::available() {
                        assert_eq!(bits(&isa.run(Backward { inp: &inp, dy: &dy, states: None }).unwrap()), want, "{isa}, d = {d}, N = {n}, softplus {sp}");
                        // The recorded forward is the engine's scan, and the backward pass from
                        // its states the recomputing one, bit for bit.
                        let mut y_rec = vec![f64::NAN; len * d];
                        let states = isa.run(Recorded { inp: &inp, y: &mut y_rec, states: ScanStates::new([d, n, len]) }).unwrap();
                        assert_eq!(y_rec.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), y_bits, "recorded forward, {isa}, d = {d}, N = {n}, softplus {sp}");
                        let kept = isa.run(Backward { inp: &inp, dy: &dy, states: Some(&states) }).unwrap();
                        assert_eq!(bits(&kept), want, "from the kept states, {isa}, d = {d}, N = {n}, softplus {sp}");
                        // Reused buffers full of NaN (one longer than needed, one shorter) give
                        // the same bits: every value but h_0 is written before it is read.
                        let blocks = d.div_ceil(LANES);
                        let reused = ScanStates::from_buffers([d, n, len], vec![[f64::NAN; LANES]; 3 * blocks * (len + 1) * n], vec![[f64::NAN; LANES]; 5]);
                        let mut y_reused = vec![f64::NAN; len * d];
                        let states = isa.run(Recorded { inp: &inp, y: &mut y_reused, states: reused }).unwrap();
                        assert_eq!(y_reused.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), y_bits, "reused buffers, {isa}, d = {d}, N = {n}");
                        let kept = isa.run(Backward { inp: &inp, dy: &dy, states: Some(&states) }).unwrap();
                        assert_eq!(bits(&kept), want, "from reused buffers, {isa}, d = {d}, N = {n}, softplus {sp}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_backward_pass_without_the_adjoint_recurrence_is_caught() {
        let (d, n, len, v) = instance(4, true);
        let inp = inputs(d, n, len, &v, true);
        let w = vec![1.0; len * d];
        // Only step L's read-out: its gradient with respect to u_1 is zero without the adjoint.
        let g = selective_scan_backward(&inp, &w).unwrap();
        let h = 1e-5;
        let at = |x: f64| {
            let mut vv = v.clone();
            vv[4][0] = x;
            loss(&inputs(d, n, len, &vv, true), &w)
        };
        let fd = (at(v[4][0] + h) - at(v[4][0] - h)) / (2.0 * h);
        let local_only: f64 = (0..n).map(|k| v[3][k] * w[0] * softplus(v[0][0]) * v[2][k]).sum();
        assert!((fd - g.u[0]).abs() <= 1e-7 * fd.abs().max(1.0));
        assert!((fd - local_only).abs() > 1e-7 * fd.abs().max(1.0), "the local term alone {local_only} vs {fd}");
    }

    /// The comparison above can fail: states kept from another scan (A changed in one value)
    /// give other gradients.
    #[test]
    fn states_kept_from_another_scan_are_caught() {
        let (d, n, len, v) = instance(7, true);
        let inp = inputs(d, n, len, &v, true);
        let dy: Vec<f64> = (0..len * d).map(|i| ((i * 5 % 13) as f64 - 6.0) / 4.0).collect();
        let mut other = v.clone();
        other[1][2] *= 1.5;
        let mut y = vec![0.0; len * d];
        let stale = selective_scan_recorded(&inputs(d, n, len, &other, true), &mut y).unwrap();
        assert_ne!(selective_scan_backward_recorded(&inp, &dy, &stale).unwrap(), selective_scan_backward(&inp, &dy).unwrap());
    }

    /// Control of the reused buffers' test: states whose h_0 is left as a reused buffer held it
    /// (NaN) give NaN outputs, so a pool that skipped h_0 would be caught.
    #[test]
    fn a_reused_buffer_with_its_old_h0_is_caught() {
        let (d, n, len, v) = instance(8, true);
        let inp = inputs(d, n, len, &v, true);
        let blocks = d.div_ceil(LANES);
        let stale = ScanStates { dims: [d, n, len], h: vec![[f64::NAN; LANES]; blocks * (len + 1) * n], abar: vec![[f64::NAN; LANES]; blocks * len * n] };
        let mut y = vec![0.0; len * d];
        Isa::active().run(Recorded { inp: &inp, y: &mut y, states: stale }).unwrap();
        assert!(y.iter().all(|x| x.is_nan()), "{y:?}");
    }

    #[test]
    fn wrong_lengths_are_one_clear_error() {
        let (d, n, len, v) = instance(5, false);
        let inp = inputs(d, n, len, &v, false);
        let err = selective_scan_backward(&inp, &[0.0; 3]).unwrap_err().to_string();
        assert!(err.contains("dy has 3 values, expected 21"), "{err}");
        let err = selective_scan_recorded(&inp, &mut [0.0; 3]).unwrap_err().to_string();
        assert!(err.contains("selective scan: y has 3 values, expected 21"), "{err}");
        let (d2, n2, len2, v2) = instance(5, false);
        let mut y = vec![0.0; len2 * d2];
        let states = selective_scan_recorded(&inputs(d2, n2, len2, &v2, false), &mut y).unwrap();
        let shorter =
            ScanInputs { len: len - 1, delta: &v[0][..(len - 1) * d], b: &v[2][..(len - 1) * n], c: &v[3][..(len - 1) * n], u: &v[4][..(len - 1) * d], ..inp };
        let err = selective_scan_backward_recorded(&shorter, &vec![0.0; (len - 1) * d], &states).unwrap_err().to_string();
        assert!(err.contains("states recorded for (d, N, L) = [3, 4, 7], inputs [3, 4, 6]"), "{err}");
    }
}
