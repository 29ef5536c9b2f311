//! The scan's state update in AVX2 intrinsics ([`crate::math::isa::Isa::Avx2`]): blocks of
//! [`BLOCK`] channels, whose U = 4 vectors of exponentials run side by side
//! ([`crate::math::avx2::exp_normal_range`]) and whose `Σ_n C_{t,n} h_n` stays in registers.
//! Per channel the operations are those of [`Group::update`], in the same order, so the bits are
//! the same; a block whose step leaves the normal range, and the channels after the last full
//! block, take [`Group::update`] itself.

use super::{Group, GroupOut, ScanInputs};
use crate::math::avx2::{all_within, exp_normal_range, load, softplus_normal_range, store};
use crate::math::vecmath::EXP_NORMAL_RANGE;
use std::arch::x86_64::*;

/// Vectors of four channels per block.
const U: usize = 4;
/// Channels per block.
pub const BLOCK: usize = 4 * U;

/// One group's channels over all t, into its columns of y (as `scan_group_portable`).
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn scan_group(inp: &ScanInputs<'_>, mut y: GroupOut) {
    let w = y.width();
    let mut g = Group::new(inp, y.first(), w);
    let full = w - w % BLOCK;
    for t in 0..inp.len {
        let out = y.row(t);
        // SAFETY: AVX2 and FMA are enabled here.
        unsafe { start_step(&mut g, inp, t, full) };
        for cb in (0..full).step_by(BLOCK) {
            if g.in_normal_range(cb..cb + BLOCK) {
                // SAFETY: AVX2 and FMA are enabled here; cb + BLOCK ≤ w.
                unsafe { update_block(&mut g, inp, t, cb, out) }
            } else {
                g.update(inp, t, cb..cb + BLOCK, out);
            }
        }
        if full < w {
            g.update(inp, t, full..w, out);
        }
    }
}

/// [`Group::start_step`] of all channels, the softplus of each block of the first `full`
/// channels (a multiple of [`BLOCK`]) in intrinsics where its |δ| ≤ [`EXP_NORMAL_RANGE`].
///
/// # Safety
/// AVX2 and FMA; `full ≤ g.w`.
#[inline(always)]
unsafe fn start_step(g: &mut Group, inp: &ScanInputs<'_>, t: usize, full: usize) {
    let row = t * inp.d + g.c0;
    for cb in (0..full).step_by(BLOCK) {
        let z: [__m256d; U] = std::array::from_fn(|i| load(inp.delta.as_ptr().add(row + cb + 4 * i)));
        if inp.delta_softplus && all_within(&z, EXP_NORMAL_RANGE) {
            for (i, dl) in softplus_normal_range(z).into_iter().enumerate() {
                store(g.dl.as_mut_ptr().add(cb + 4 * i), dl);
                store(g.dbu.as_mut_ptr().add(cb + 4 * i), _mm256_mul_pd(dl, load(inp.u.as_ptr().add(row + cb + 4 * i))));
            }
        } else {
            g.start_step(inp, t, cb..cb + BLOCK);
        }
    }
    g.start_step(inp, t, full..g.w);
}

/// [`Group::update`] of channels `cb..cb+BLOCK` with every exponent in the normal range.
///
/// # Safety
/// AVX2 and FMA; `cb + BLOCK ≤ g.w` and `out.len() == g.w`.
#[inline(always)]
unsafe fn update_block(g: &mut Group, inp: &ScanInputs<'_>, t: usize, cb: usize, out: &mut [f64]) {
    let (n, w) = (inp.n, g.w);
    debug_assert!(cb + BLOCK <= w && out.len() == w && g.h.len() == n * w && g.a.len() == n * w);
    let dl: [__m256d; U] = std::array::from_fn(|i| load(g.dl.as_ptr().add(cb + 4 * i)));
    let dbu: [__m256d; U] = std::array::from_fn(|i| load(g.dbu.as_ptr().add(cb + 4 * i)));
    let (bt, ct) = (&inp.b[t * n..(t + 1) * n], &inp.c[t * n..(t + 1) * n]);
    let mut acc = [_mm256_setzero_pd(); U];
    for (k, (&bk, &ck)) in bt.iter().zip(ct).enumerate() {
        let (bk, ck) = (_mm256_set1_pd(bk), _mm256_set1_pd(ck));
        let hp = g.h.as_mut_ptr().add(k * w + cb);
        let ap = g.a.as_ptr().add(k * w + cb);
        let e = exp_normal_range::<U>(std::array::from_fn(|i| _mm256_mul_pd(dl[i], load(ap.add(4 * i)))));
        for i in 0..U {
            let next = _mm256_fmadd_pd(e[i], load(hp.add(4 * i)), _mm256_mul_pd(dbu[i], bk));
            store(hp.add(4 * i), next);
            acc[i] = _mm256_fmadd_pd(ck, next, acc[i]);
        }
    }
    for (i, a) in acc.into_iter().enumerate() {
        store(out.as_mut_ptr().add(cb + 4 * i), a);
    }
}
