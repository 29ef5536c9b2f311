//! Four interaction paths advanced in the four lanes of one 256-bit vector: the transitions
//! stored across paths (`a[j][i]` holds `Ā[i][j]` of each of the four), so that the product
//! `Ā v + x² (W·v) G` of all four is plain vertical FMAs — no broadcast of `v_j`, no horizontal
//! reduction of `W·v` or `‖v‖²` — and sixteen outputs' FMA chains give the core all the
//! independent work it can take.
//!
//! Each lane performs exactly [`Transition::apply`]'s and [`dot_fixed`]'s operations on its
//! path, in the same order (column j into column lane j mod 4 in column order, the lanes
//! combined as `(l₀+l₁)+(l₂+l₃)`, the rank-one term last; the dot products' eight partial sums
//! combined in the same tree), so a path gives the same bits here as alone: the tests of
//! [`super::paths`] hold the two equal on every instruction set.
//!
//! [`Transition::apply`]: super::transition::Transition
//! [`dot_fixed`]: super::transition::dot_fixed

#![cfg(target_arch = "x86_64")]

use super::transition::Transition;
use std::arch::x86_64::*;

/// Paths per group: the lanes of a 256-bit vector.
pub(super) const GROUP: usize = 4;

/// One number of each of the four paths, aligned as a 256-bit vector: aligned loads and stores
/// are what a build for generic x86-64 (the wheel's) keeps whole, where it splits unaligned
/// 256-bit accesses into halves.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(super) struct Lanes(pub(super) [f64; GROUP]);

/// The vector in `x`.
///
/// # Safety
/// AVX must be enabled.
#[inline(always)]
unsafe fn load(x: &Lanes) -> __m256d {
    _mm256_load_pd(x.0.as_ptr())
}

/// `v` into `x`.
///
/// # Safety
/// AVX must be enabled.
#[inline(always)]
unsafe fn store(x: &mut Lanes, v: __m256d) {
    _mm256_store_pd(x.0.as_mut_ptr(), v)
}

/// Four transitions of the same padded size P, stored across the paths.
pub(super) struct LaneTransitions<const P: usize> {
    /// `a[j·P + i][p] = Ā_p[i][j]`.
    a: Vec<Lanes>,
    /// `g[i][p] = G_p[i]`.
    g: [Lanes; P],
    /// `w[i][p] = W_p[i]`.
    w: [Lanes; P],
}

impl<const P: usize> LaneTransitions<P> {
    /// The four paths' transitions, lane p from `m[p]`.
    pub(super) fn new(m: [&Transition<P>; GROUP]) -> Self {
        let mut a = vec![Lanes::default(); P * P];
        for j in 0..P {
            for i in 0..P {
                a[j * P + i] = Lanes(std::array::from_fn(|p| m[p].columns[j][i]));
            }
        }
        let across = |f: &dyn Fn(usize, usize) -> f64| std::array::from_fn(|i| Lanes(std::array::from_fn(|p| f(p, i))));
        LaneTransitions { a, g: across(&|p, i| m[p].g[i]), w: across(&|p, i| m[p].w[i]) }
    }

    /// `out = M v` for the four paths with inputs `x` (lane p: `x_p`), rows R at a time (their
    /// 4 × R column-lane accumulators stay in registers: R = 2 for AVX2's sixteen, 4 for
    /// AVX-512's thirty-two). P must be a multiple of R.
    ///
    /// # Safety
    /// AVX2 and FMA must be enabled.
    #[inline(always)]
    pub(super) unsafe fn apply<const R: usize>(&self, x: __m256d, v: &[Lanes; P], out: &mut [Lanes; P]) {
        debug_assert!(P.is_multiple_of(R));
        // c = x·x·(W·v), as (x·x)·dot.
        let c = _mm256_mul_pd(_mm256_mul_pd(x, x), dot(&self.w, v));
        for i0 in (0..P).step_by(R) {
            // Column j into column lane j mod 4 (P is a multiple of 4), in column order.
            let mut l = [[_mm256_setzero_pd(); R]; 4];
            for j0 in (0..P).step_by(4) {
                for (q, lane) in l.iter_mut().enumerate() {
                    let vj = load(&v[j0 + q]);
                    let col = self.a.as_ptr().add((j0 + q) * P + i0);
                    for (r, acc) in lane.iter_mut().enumerate() {
                        *acc = _mm256_fmadd_pd(vj, load(&*col.add(r)), *acc);
                    }
                }
            }
            let [l0, l1, l2, l3] = l;
            for r in 0..R {
                let lanes = _mm256_add_pd(_mm256_add_pd(l0[r], l1[r]), _mm256_add_pd(l2[r], l3[r]));
                store(&mut out[i0 + r], _mm256_fmadd_pd(c, load(&self.g[i0 + r]), lanes));
            }
        }
    }
}

/// `dot_fixed(a_p, b_p)` in lane p: partial sum k takes the entries i ≡ k (mod 8) in index
/// order, and the eight are combined as `((l₀+l₁)+(l₂+l₃)) + ((l₄+l₅)+(l₆+l₇))` (P = 4 leaves
/// l₄…l₇ at zero, as `dot_fixed` does).
///
/// # Safety
/// AVX2 and FMA must be enabled.
#[inline(always)]
pub(super) unsafe fn dot<const P: usize>(a: &[Lanes; P], b: &[Lanes; P]) -> __m256d {
    let mut l = [_mm256_setzero_pd(); 8];
    for i0 in (0..P).step_by(8) {
        for (k, acc) in l.iter_mut().enumerate().take(P - i0) {
            *acc = _mm256_fmadd_pd(load(&a[i0 + k]), load(&b[i0 + k]), *acc);
        }
    }
    let low = _mm256_add_pd(_mm256_add_pd(l[0], l[1]), _mm256_add_pd(l[2], l[3]));
    let high = _mm256_add_pd(_mm256_add_pd(l[4], l[5]), _mm256_add_pd(l[6], l[7]));
    _mm256_add_pd(low, high)
}

/// The four lanes of `x`.
///
/// # Safety
/// AVX2 must be enabled.
#[inline(always)]
pub(super) unsafe fn split(x: __m256d) -> [f64; GROUP] {
    let mut out = Lanes::default();
    store(&mut out, x);
    out.0
}

/// The four lanes of a vector of counts.
///
/// # Safety
/// AVX2 must be enabled.
#[inline(always)]
pub(super) unsafe fn split_u64(x: __m256i) -> [u64; GROUP] {
    let mut out = [0u64; GROUP];
    _mm256_storeu_si256(out.as_mut_ptr().cast(), x);
    out
}
