//! The interaction model's transition `M = Ā + x² G Wᵀ` (004 eq 14) in fixed-size arrays, and
//! its product with a vector on each instruction set ([`Product`]): the inner loop of the
//! Lyapunov paths ([`super::paths::interaction_paths`]).
//!
//! Every product performs the same fused multiply-adds and additions in the same order on every
//! element, so they give the same bits; the tests hold them equal.

use super::jobs::InteractionJob;

/// Lanes of the column accumulators of the product: column j is accumulated into lane
/// j mod `COLUMN_LANES`, which breaks the FMA latency chain.
const COLUMN_LANES: usize = 4;

/// Lanes of the dot products: one AVX-512 register, so a dot product of length 16 is two
/// vector FMAs and one horizontal reduction.
pub const DOT_LANES: usize = 8;

/// The transition in fixed-size arrays of `P ≥ H` entries, padded with zeros: a padded column
/// or row only ever adds an exact `fma(0, 0, l) = l`, so the padding changes no bit of the
/// result, and the fixed sizes let the compiler unroll and vectorise.
pub(super) struct Transition<const P: usize> {
    /// `columns[j][i] = Ā[i][j]`.
    pub(super) columns: [[f64; P]; P],
    /// G, padded.
    pub(super) g: [f64; P],
    /// W, padded.
    pub(super) w: [f64; P],
}

/// `v` padded with zeros to P entries.
pub(super) fn padded<const P: usize>(v: &[f64]) -> [f64; P] {
    std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0))
}

/// Σ aᵢbᵢ over fixed-size arrays in [`DOT_LANES`] partial sums (lane i mod 8, fused
/// multiply-adds in index order), combined as `((l₀+l₁)+(l₂+l₃)) + ((l₄+l₅)+(l₆+l₇))`.
#[inline(always)]
pub(super) fn dot_fixed<const P: usize>(a: &[f64; P], b: &[f64; P]) -> f64 {
    let mut l = [0.0; DOT_LANES];
    for (ca, cb) in a.chunks(DOT_LANES).zip(b.chunks(DOT_LANES)) {
        for k in 0..ca.len() {
            l[k] = ca[k].mul_add(cb[k], l[k]);
        }
    }
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

impl<const P: usize> Transition<P> {
    /// The job's transition, padded to P.
    pub(super) fn new(job: &InteractionJob) -> Self {
        let h = job.bbar.len();
        let columns = std::array::from_fn(|j| std::array::from_fn(|i| if i < h && j < h { job.abar[i][j] } else { 0.0 }));
        Transition { columns, g: padded(&job.g), w: padded(&job.w) }
    }

    /// `Ā v + x² (W·v) G`: column j is accumulated into lane j mod 4 (fused multiply-adds in
    /// column order), the lanes are combined as `(l₀+l₁)+(l₂+l₃)`, and the rank-one term is
    /// added last, `out_i = fma(x²(W·v), G_i, lanes_i)`, so that W·v runs beside the product.
    #[inline(always)]
    pub(super) fn apply(&self, x: f64, v: &[f64; P]) -> [f64; P] {
        let mut l = [[0.0; P]; COLUMN_LANES];
        for (j, col) in self.columns.iter().enumerate() {
            let lane = &mut l[j % COLUMN_LANES];
            for i in 0..P {
                lane[i] = v[j].mul_add(col[i], lane[i]);
            }
        }
        let c = x * x * dot_fixed(&self.w, v);
        std::array::from_fn(|i| c.mul_add(self.g[i], (l[0][i] + l[1][i]) + (l[2][i] + l[3][i])))
    }
}

/// How a path multiplies by its transition.
///
/// # Safety
/// An implementation may need an instruction set: its functions may be called only where that
/// instruction set is enabled (inside a function compiled for it, reached after
/// [`crate::math::isa::Isa::supported`] said so).
pub(super) unsafe trait Product {
    /// [`Transition::apply`], bit for bit.
    ///
    /// # Safety
    /// See the trait.
    unsafe fn apply<const P: usize>(m: &Transition<P>, x: f64, v: &[f64; P]) -> [f64; P];

    /// `dot_fixed(v, v)`, bit for bit.
    ///
    /// # Safety
    /// See the trait.
    unsafe fn norm2<const P: usize>(v: &[f64; P]) -> f64;
}

/// The portable loops, vectorised by the compiler for whatever the function around them is
/// compiled for.
pub(super) struct PortableProduct;

// SAFETY: plain Rust, no instruction set needed.
unsafe impl Product for PortableProduct {
    #[inline(always)]
    unsafe fn apply<const P: usize>(m: &Transition<P>, x: f64, v: &[f64; P]) -> [f64; P] {
        m.apply(x, v)
    }

    #[inline(always)]
    unsafe fn norm2<const P: usize>(v: &[f64; P]) -> f64 {
        dot_fixed(v, v)
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use avx2::Avx2Product;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The product in AVX2 intrinsics: the output in chunks of eight rows (two registers), each
    //! with its 4 × 2 column-lane accumulators in registers, where the portable loop's 4 × P
    //! accumulators spill on AVX2's sixteen registers.
    use super::{Product, Transition, COLUMN_LANES};
    use crate::math::avx2::{load, store};
    use std::arch::x86_64::*;

    /// AVX2 + FMA intrinsics; P must be a multiple of 4.
    pub struct Avx2Product;

    /// `dot_fixed(a, b)`: lanes 0–3 are the even registers' FMA chain, lanes 4–7 the odd ones'
    /// (P = 4 leaves them zero, as the portable loop does), combined in the same tree.
    #[inline(always)]
    unsafe fn dot<const P: usize>(a: &[f64; P], b: &[f64; P]) -> f64 {
        let (mut lo, mut hi) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        for k in (0..P).step_by(8) {
            lo = _mm256_fmadd_pd(load(a.as_ptr().add(k)), load(b.as_ptr().add(k)), lo);
            if k + 4 < P {
                hi = _mm256_fmadd_pd(load(a.as_ptr().add(k + 4)), load(b.as_ptr().add(k + 4)), hi);
            }
        }
        let pairs = _mm256_hadd_pd(lo, hi); // [l0+l1, l4+l5, l2+l3, l6+l7]
        let quads = _mm_add_pd(_mm256_castpd256_pd128(pairs), _mm256_extractf128_pd::<1>(pairs));
        _mm_cvtsd_f64(_mm_add_sd(quads, _mm_unpackhi_pd(quads, quads)))
    }

    /// Rows `i0..i0+4B` of the product.
    #[inline(always)]
    unsafe fn rows<const P: usize, const B: usize>(m: &Transition<P>, c: __m256d, v: &[f64; P], i0: usize, out: &mut [f64; P]) {
        let mut l = [[_mm256_setzero_pd(); B]; COLUMN_LANES];
        for (j, col) in m.columns.iter().enumerate() {
            let vj = _mm256_set1_pd(v[j]);
            for (b, lane) in l[j % COLUMN_LANES].iter_mut().enumerate() {
                *lane = _mm256_fmadd_pd(vj, load(col.as_ptr().add(i0 + 4 * b)), *lane);
            }
        }
        let [l0, l1, l2, l3] = l;
        for b in 0..B {
            let lanes = _mm256_add_pd(_mm256_add_pd(l0[b], l1[b]), _mm256_add_pd(l2[b], l3[b]));
            store(out.as_mut_ptr().add(i0 + 4 * b), _mm256_fmadd_pd(c, load(m.g.as_ptr().add(i0 + 4 * b)), lanes));
        }
    }

    // SAFETY: callers enable AVX2 and FMA, as the trait requires.
    unsafe impl Product for Avx2Product {
        #[inline(always)]
        unsafe fn apply<const P: usize>(m: &Transition<P>, x: f64, v: &[f64; P]) -> [f64; P] {
            debug_assert!(P.is_multiple_of(4));
            let c = _mm256_set1_pd(x * x * dot(&m.w, v));
            let mut out = [0.0; P];
            if P < 8 {
                rows::<P, 1>(m, c, v, 0, &mut out);
            } else {
                for i0 in (0..P).step_by(8) {
                    rows::<P, 2>(m, c, v, i0, &mut out);
                }
            }
            out
        }

        #[inline(always)]
        unsafe fn norm2<const P: usize>(v: &[f64; P]) -> f64 {
            dot(v, v)
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use avx512::Avx512Product;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    //! The product in AVX-512 intrinsics: eight rows per register, up to 32 rows at a time with
    //! their 4 × 4 column-lane accumulators in registers (AVX-512 has 32), the columns read as
    //! memory operands of the FMAs and each `v_j` broadcast from memory; the dot products' eight
    //! lanes are one register, reduced by two in-register shuffles and one extract in
    //! [`dot_fixed`]'s tree. P < 8 takes the AVX2 product (its lanes 4–7 would be padding).
    use super::avx2::Avx2Product;
    use super::{Product, Transition, COLUMN_LANES};
    use std::arch::x86_64::*;

    /// AVX-512 F intrinsics; P must be 4, 8, 16 or a multiple of 32, as `interaction_paths`
    /// pads it.
    pub struct Avx512Product;

    /// `((l₀+l₁)+(l₂+l₃)) + ((l₄+l₅)+(l₆+l₇))` of the eight lanes of `x`.
    #[inline(always)]
    unsafe fn reduce(x: __m512d) -> f64 {
        // Lane 2k holds l_{2k} + l_{2k+1} (IEEE addition is commutative bit for bit).
        let pairs = _mm512_add_pd(x, _mm512_permute_pd::<0b0101_0101>(x));
        // Lane 0 holds (l₀+l₁)+(l₂+l₃), lane 4 holds (l₄+l₅)+(l₆+l₇).
        let quads = _mm512_add_pd(pairs, _mm512_permutex_pd::<0b10>(pairs));
        let high = _mm512_extractf64x4_pd::<1>(quads);
        _mm_cvtsd_f64(_mm_add_sd(_mm512_castpd512_pd128(quads), _mm256_castpd256_pd128(high)))
    }

    /// `dot_fixed(a, b)` for P a multiple of 8: lane k of the register is `dot_fixed`'s lane k.
    #[inline(always)]
    unsafe fn dot<const P: usize>(a: &[f64; P], b: &[f64; P]) -> f64 {
        let mut l = _mm512_setzero_pd();
        for k in (0..P).step_by(8) {
            l = _mm512_fmadd_pd(_mm512_loadu_pd(a.as_ptr().add(k)), _mm512_loadu_pd(b.as_ptr().add(k)), l);
        }
        reduce(l)
    }

    /// Rows `i0..i0+8B` of the product.
    #[inline(always)]
    unsafe fn rows<const P: usize, const B: usize>(m: &Transition<P>, c: __m512d, v: &[f64; P], i0: usize, out: &mut [f64; P]) {
        let mut l = [[_mm512_setzero_pd(); B]; COLUMN_LANES];
        for (j, col) in m.columns.iter().enumerate() {
            let vj = _mm512_set1_pd(v[j]);
            for (b, lane) in l[j % COLUMN_LANES].iter_mut().enumerate() {
                *lane = _mm512_fmadd_pd(vj, _mm512_loadu_pd(col.as_ptr().add(i0 + 8 * b)), *lane);
            }
        }
        let [l0, l1, l2, l3] = l;
        for b in 0..B {
            let lanes = _mm512_add_pd(_mm512_add_pd(l0[b], l1[b]), _mm512_add_pd(l2[b], l3[b]));
            let row = i0 + 8 * b;
            _mm512_storeu_pd(out.as_mut_ptr().add(row), _mm512_fmadd_pd(c, _mm512_loadu_pd(m.g.as_ptr().add(row)), lanes));
        }
    }

    // SAFETY: callers enable AVX-512 F (and AVX2 and FMA, which the P = 4 path uses), as the
    // trait requires.
    unsafe impl Product for Avx512Product {
        #[inline(always)]
        unsafe fn apply<const P: usize>(m: &Transition<P>, x: f64, v: &[f64; P]) -> [f64; P] {
            if P < 8 {
                return Avx2Product::apply(m, x, v);
            }
            let c = _mm512_set1_pd(x * x * dot(&m.w, v));
            let mut out = [0.0; P];
            match P {
                8 => rows::<P, 1>(m, c, v, 0, &mut out),
                16 => rows::<P, 2>(m, c, v, 0, &mut out),
                _ => {
                    debug_assert!(P.is_multiple_of(32));
                    for i0 in (0..P).step_by(32) {
                        rows::<P, 4>(m, c, v, i0, &mut out);
                    }
                }
            }
            out
        }

        #[inline(always)]
        unsafe fn norm2<const P: usize>(v: &[f64; P]) -> f64 {
            if P < 8 {
                Avx2Product::norm2(v)
            } else {
                dot(v, v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::jobs::Start;
    use crate::mc::StreamKey;

    fn job(h: usize) -> InteractionJob {
        let f = |i: usize, s: f64| ((i as f64 * 0.7548776662466927 + s) % 1.0) * 2.0 - 1.0;
        InteractionJob {
            abar: (0..h).map(|i| (0..h).map(|j| 0.3 * f(i * h + j, 0.1)).collect()).collect(),
            bbar: vec![0.0; h],
            g: (0..h).map(|i| 0.1 * f(i, 0.3)).collect(),
            w: (0..h).map(|i| -0.1 * f(i, 0.7)).collect(),
            start: Start::Ones,
            horizon: 1,
            burn_in: 0,
            paths: 1,
            checkpoints: 0,
            key: StreamKey([0, 0]),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn avx2_walk<const P: usize>(m: &Transition<P>, v0: [f64; P], xs: &[f64]) -> Vec<(u64, [u64; P])> {
        let mut v = v0;
        // SAFETY: AVX2 and FMA are enabled on this function.
        xs.iter()
            .map(|&x| unsafe {
                v = Avx2Product::apply(m, x, &v);
                (Avx2Product::norm2(&v).to_bits(), v.map(f64::to_bits))
            })
            .collect()
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
    fn avx512_walk<const P: usize>(m: &Transition<P>, v0: [f64; P], xs: &[f64]) -> Vec<(u64, [u64; P])> {
        let mut v = v0;
        // SAFETY: AVX-512, AVX2 and FMA are enabled on this function.
        xs.iter()
            .map(|&x| unsafe {
                v = Avx512Product::apply(m, x, &v);
                (Avx512Product::norm2(&v).to_bits(), v.map(f64::to_bits))
            })
            .collect()
    }

    fn check<const P: usize>(h: usize) {
        let m = Transition::<P>::new(&job(h));
        let v0: [f64; P] = padded(&(0..h).map(|i| 1.0 - 0.1 * i as f64).collect::<Vec<_>>());
        let xs: Vec<f64> = (0..300).map(|k| ((k as f64 * 0.618_033_988_749_894_9) % 1.0) * 4.0 - 2.0).collect();
        let mut v = v0;
        let portable: Vec<(u64, [u64; P])> = xs
            .iter()
            .map(|&x| {
                v = m.apply(x, &v);
                (dot_fixed(&v, &v).to_bits(), v.map(f64::to_bits))
            })
            .collect();
        #[cfg(target_arch = "x86_64")]
        if crate::math::isa::Isa::Avx2.supported() {
            // SAFETY: AVX2 and FMA were detected.
            assert_eq!(unsafe { avx2_walk(&m, v0, &xs) }, portable, "AVX2, P = {P}, H = {h}");
        }
        #[cfg(target_arch = "x86_64")]
        if crate::math::isa::Isa::Avx512.supported() {
            // SAFETY: AVX-512, AVX2 and FMA were detected.
            assert_eq!(unsafe { avx512_walk(&m, v0, &xs) }, portable, "AVX-512, P = {P}, H = {h}");
        }
    }

    #[test]
    fn the_avx2_and_avx512_products_equal_the_portable_one_bit_for_bit() {
        check::<4>(3);
        check::<8>(7);
        check::<16>(16);
        check::<32>(20);
        check::<64>(64);
    }
}
