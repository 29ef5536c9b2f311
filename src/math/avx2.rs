//! AVX2 + FMA versions of [`crate::math::vecmath`]'s routines for the loops that dispatch on
//! [`crate::math::isa::Isa::Avx2`], on `U` vectors of four f64 at once.
//!
//! Each routine is the scalar one's operation sequence, lane by lane (the same products, sums
//! and fused multiply-adds, in the same order), so its results are bit for bit the scalar ones.
//! Working on `U` independent vectors side by side is what makes them fast: the Horner chain of
//! the exponential is 13 dependent FMAs, and interleaving U chains keeps both FMA pipes busy
//! where one vector at a time leaves the core waiting on latency.
//!
//! # Safety
//! Every function here must be called only where AVX2 and FMA are available (from a function
//! with `#[target_feature(enable = "avx2,fma")]`, reached after [`Isa::supported`] said so).
//!
//! [`Isa::supported`]: crate::math::isa::Isa::supported

use super::vecmath::{EXP_TAYLOR, LG, LN2_HI, LN2_LO, ROUND_SHIFT, TWO_52};
use std::arch::x86_64::*;

/// Four f64 from `p` (unaligned).
///
/// # Safety
/// AVX2 (see the module); `p..p+4` readable.
#[inline(always)]
pub unsafe fn load(p: *const f64) -> __m256d {
    _mm256_loadu_pd(p)
}

/// Four f64 to `p` (unaligned).
///
/// # Safety
/// AVX2 (see the module); `p..p+4` writable.
#[inline(always)]
pub unsafe fn store(p: *mut f64, v: __m256d) {
    _mm256_storeu_pd(p, v)
}

/// [`crate::math::vecmath::exp_normal_range`] on U vectors: `e^x` for |x| ≤
/// [`crate::math::vecmath::EXP_NORMAL_RANGE`], bit for bit.
///
/// # Safety
/// AVX2 and FMA (see the module).
#[inline(always)]
pub unsafe fn exp_normal_range<const U: usize>(x: [__m256d; U]) -> [__m256d; U] {
    // t = x·log₂e + 1.5·2^52 holds n in its low mantissa bits; −n = 1.5·2^52 − t exactly.
    let t: [__m256d; U] = std::array::from_fn(|i| _mm256_add_pd(_mm256_mul_pd(x[i], _mm256_set1_pd(std::f64::consts::LOG2_E)), _mm256_set1_pd(ROUND_SHIFT)));
    let r: [__m256d; U] = std::array::from_fn(|i| {
        let minus_n = _mm256_sub_pd(_mm256_set1_pd(ROUND_SHIFT), t[i]);
        _mm256_fmadd_pd(minus_n, _mm256_set1_pd(LN2_LO), _mm256_fmadd_pd(minus_n, _mm256_set1_pd(LN2_HI), x[i]))
    });
    let mut p = [_mm256_set1_pd(1.0 / 6_227_020_800.0); U];
    for c in EXP_TAYLOR {
        for i in 0..U {
            p[i] = _mm256_fmadd_pd(p[i], r[i], _mm256_set1_pd(c));
        }
    }
    // 2^n = bits (n + 1023) << 52, with n = bits(t) − bits(1.5·2^52) (wrapping: only the low 12
    // bits survive the shift).
    let bias = _mm256_set1_epi64x(1023i64.wrapping_sub(ROUND_SHIFT.to_bits() as i64));
    std::array::from_fn(|i| _mm256_mul_pd(p[i], _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(_mm256_castpd_si256(t[i]), bias)))))
}

/// [`crate::math::vecmath::ln`] on U vectors whose values lie in [1, 2]: its reduction and
/// polynomial, without the branches for subnormal, zero, negative and infinite arguments that
/// such values never take.
///
/// # Safety
/// AVX2 and FMA (see the module).
#[inline(always)]
pub unsafe fn ln_one_to_two<const U: usize>(x: [__m256d; U]) -> [__m256d; U] {
    let s1 = |v: f64| _mm256_set1_pd(v);
    std::array::from_fn(|i| {
        let bits = _mm256_castpd_si256(x[i]);
        let m1 =
            _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000f_ffff_ffff_ffff)), _mm256_set1_epi64x(0x3ff0_0000_0000_0000)));
        let high = _mm256_cmp_pd::<_CMP_GT_OQ>(m1, s1(std::f64::consts::SQRT_2));
        let m = _mm256_blendv_pd(m1, _mm256_mul_pd(m1, s1(0.5)), high);
        // k = (biased exponent − 1023) + high, small integers, exact in f64.
        let biased = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<52>(bits), _mm256_castpd_si256(s1(TWO_52)))), s1(TWO_52));
        let k = _mm256_add_pd(_mm256_sub_pd(biased, s1(1023.0)), _mm256_and_pd(high, s1(1.0)));
        let f = _mm256_sub_pd(m, s1(1.0));
        let s = _mm256_div_pd(f, _mm256_add_pd(s1(2.0), f));
        let z = _mm256_mul_pd(s, s);
        let w = _mm256_mul_pd(z, z);
        let t1 = _mm256_mul_pd(w, _mm256_add_pd(s1(LG[1]), _mm256_mul_pd(w, _mm256_add_pd(s1(LG[3]), _mm256_mul_pd(w, s1(LG[5]))))));
        let t2 = _mm256_mul_pd(
            z,
            _mm256_add_pd(s1(LG[0]), _mm256_mul_pd(w, _mm256_add_pd(s1(LG[2]), _mm256_mul_pd(w, _mm256_add_pd(s1(LG[4]), _mm256_mul_pd(w, s1(LG[6]))))))),
        );
        let r = _mm256_add_pd(t2, t1);
        let hfsq = _mm256_mul_pd(_mm256_mul_pd(s1(0.5), f), f);
        let inner = _mm256_add_pd(_mm256_mul_pd(s, _mm256_add_pd(hfsq, r)), _mm256_mul_pd(k, s1(LN2_LO)));
        _mm256_sub_pd(_mm256_mul_pd(k, s1(LN2_HI)), _mm256_sub_pd(_mm256_sub_pd(hfsq, inner), f))
    })
}

/// [`crate::math::vecmath::softplus`] on U vectors with every |z| ≤
/// [`crate::math::vecmath::EXP_NORMAL_RANGE`], bit for bit: `max(z, 0) + log1p(e^{−|z|})` with
/// `log1p(v) = ln u + (v − (u − 1))/u`, `u = 1 + v ∈ [1, 2]`.
///
/// # Safety
/// AVX2 and FMA (see the module).
#[inline(always)]
pub unsafe fn softplus_normal_range<const U: usize>(z: [__m256d; U]) -> [__m256d; U] {
    let one = _mm256_set1_pd(1.0);
    let v = exp_normal_range::<U>(std::array::from_fn(|i| _mm256_or_pd(z[i], _mm256_set1_pd(-0.0))));
    let u: [__m256d; U] = std::array::from_fn(|i| _mm256_add_pd(one, v[i]));
    let ln_u = ln_one_to_two::<U>(u);
    std::array::from_fn(|i| {
        let log1p = _mm256_add_pd(ln_u[i], _mm256_div_pd(_mm256_sub_pd(v[i], _mm256_sub_pd(u[i], one)), u[i]));
        // max(z, +0) is +0 for z ≤ 0 (−0 included), as the scalar select is.
        _mm256_add_pd(_mm256_max_pd(z[i], _mm256_setzero_pd()), log1p)
    })
}

/// Whether every |x| of the U vectors is at most `bound` (false if any is NaN).
///
/// # Safety
/// AVX2 and FMA (see the module).
#[inline(always)]
pub unsafe fn all_within<const U: usize>(x: &[__m256d; U], bound: f64) -> bool {
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(i64::MAX));
    let mut ok = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    for v in x {
        ok = _mm256_and_pd(ok, _mm256_cmp_pd::<_CMP_LE_OQ>(_mm256_and_pd(*v, abs), _mm256_set1_pd(bound)));
    }
    _mm256_movemask_pd(ok) == 0b1111
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::isa::Isa;
    use crate::math::vecmath::{exp_normal_range as scalar, EXP_NORMAL_RANGE};

    #[target_feature(enable = "avx2,fma")]
    fn exps(x: &[f64; 16]) -> [f64; 16] {
        let mut out = [0.0; 16];
        // SAFETY: AVX2 and FMA are enabled on this function; the pointers cover 16 values.
        unsafe {
            let v: [__m256d; 4] = std::array::from_fn(|k| load(x.as_ptr().add(4 * k)));
            for (k, e) in exp_normal_range(v).into_iter().enumerate() {
                store(out.as_mut_ptr().add(4 * k), e);
            }
        }
        out
    }

    #[test]
    fn the_vector_exponential_equals_the_scalar_one_bit_for_bit() {
        if !Isa::Avx2.supported() {
            return;
        }
        let mut x = [0.0; 16];
        for k in 0..200_000u64 {
            for (i, xi) in x.iter_mut().enumerate() {
                let u = ((k * 16 + i as u64) as f64 * 0.618_033_988_749_894_9) % 1.0;
                *xi = (2.0 * u - 1.0) * EXP_NORMAL_RANGE;
            }
            // SAFETY: AVX2 and FMA were detected above.
            let got = unsafe { exps(&x) };
            for (xi, g) in x.iter().zip(got) {
                assert_eq!(g.to_bits(), scalar(*xi).to_bits(), "x = {xi:e}");
            }
        }
    }

    #[target_feature(enable = "avx2,fma")]
    fn softpluses(z: &[f64; 8]) -> ([f64; 8], bool) {
        let mut out = [0.0; 8];
        // SAFETY: AVX2 and FMA are enabled on this function; the pointers cover 8 values.
        unsafe {
            let v: [__m256d; 2] = std::array::from_fn(|k| load(z.as_ptr().add(4 * k)));
            for (k, s) in softplus_normal_range(v).into_iter().enumerate() {
                store(out.as_mut_ptr().add(4 * k), s);
            }
            (out, all_within(&v, EXP_NORMAL_RANGE))
        }
    }

    #[test]
    fn the_vector_softplus_equals_the_scalar_one_bit_for_bit_and_the_range_test_is_exact() {
        if !Isa::Avx2.supported() {
            return;
        }
        let special = [0.0, -0.0, 1e-300, -1e-300, 37.0, -37.0, 708.0, -708.0];
        // SAFETY: AVX2 and FMA were detected above.
        let (got, inside) = unsafe { softpluses(&special) };
        assert!(inside);
        for (z, g) in special.iter().zip(got) {
            assert_eq!(g.to_bits(), crate::math::vecmath::softplus(*z).to_bits(), "z = {z:e}");
        }
        let mut z = [0.0; 8];
        for k in 0..100_000u64 {
            for (i, zi) in z.iter_mut().enumerate() {
                let u = ((k * 8 + i as u64) as f64 * 0.618_033_988_749_894_9) % 1.0;
                *zi = (2.0 * u - 1.0) * if k % 2 == 0 { 40.0 } else { EXP_NORMAL_RANGE };
            }
            // SAFETY: as above.
            let (got, inside) = unsafe { softpluses(&z) };
            assert!(inside);
            for (zi, g) in z.iter().zip(got) {
                assert_eq!(g.to_bits(), crate::math::vecmath::softplus(*zi).to_bits(), "z = {zi:e}");
            }
        }
        for outside in [708.000_000_1, -709.0, f64::NAN, f64::INFINITY] {
            // SAFETY: as above.
            assert!(!unsafe { softpluses(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, outside]) }.1);
        }
    }
}
