//! Branch-free elementary functions (`exp`, `ln`, `log1p`, `softplus`, the Box–Muller pair)
//! that the compiler vectorises when they are called in a loop over a slice.
//!
//! The Monte Carlo engine spends most of its time in `exp` and `ln`. A scalar libm call costs
//! ~5 ns here and blocks auto-vectorisation; these are straight-line polynomial code (no
//! branches, no tables, only `select`s), so a loop over a slice becomes AVX-512/AVX2 code, as
//! glibc's libmvec does for C. Accuracy (tested below against the correctly rounded-ish libm on
//! millions of arguments): `exp`, `ln` ≤ 1 ulp, `log1p` ≤ 2 ulp, `sin_cos_2pi` ≤ 2 ulp.
//!
//! The same operation sequence is written once more in `kernels/vecmath.cuh` (with `fma()` for
//! every `mul_add`), so the CUDA kernels, their CPU shim and the rayon backend agree bit for bit:
//! only IEEE-754 basic operations and fused multiply-adds are used, both correctly rounded
//! everywhere.
// The polynomial coefficients are fdlibm's, quoted to the digits fdlibm prints them with so that
// they can be checked against the source; the compiler rounds them to the same f64.
#![allow(clippy::excessive_precision)]

/// 1.5·2^52: adding it rounds a |value| < 2^51 to an integer held in the low mantissa bits.
pub(crate) const ROUND_SHIFT: f64 = 6_755_399_441_055_744.0;
/// ln 2 in two parts: the high one has 32 trailing zero bits, so n·LN2_HI is exact.
pub(crate) const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-1;
/// ln 2 − LN2_HI.
pub(crate) const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
const LOG2_E: f64 = std::f64::consts::LOG2_E;

/// Rounds `x` (|x| < 2^51) to the nearest integer, returned both as f64 and as i64.
#[inline(always)]
fn round_to_int(x: f64) -> (f64, i64) {
    let t = x + ROUND_SHIFT;
    (t - ROUND_SHIFT, t.to_bits() as i64 - ROUND_SHIFT.to_bits() as i64)
}

/// 2^52: the f64 whose bits, ORed with an integer n < 2^52, are the f64 2^52 + n exactly.
pub(crate) const TWO_52: f64 = 4_503_599_627_370_496.0;

/// `n as f64` for n < 2^52, exactly, by writing n into the mantissa of 2^52 and subtracting
/// 2^52 (both steps exact). AVX2 has no instruction for the conversion from u64 (AVX-512 has),
/// so the compiler's own `as f64` leaves a loop scalar there; this vectorises everywhere and is
/// bit for bit `n as f64`.
#[inline(always)]
pub fn u52_to_f64(n: u64) -> f64 {
    debug_assert!(n < 1 << 52);
    f64::from_bits(TWO_52.to_bits() | n) - TWO_52
}

/// `n as f64` for n < 2^53, exactly: ⌊n/2⌋ and the low bit by [`u52_to_f64`], then 2·⌊n/2⌋ + bit
/// (exact: the sum is n, which has at most 53 significant bits).
#[inline(always)]
pub fn u53_to_f64(n: u64) -> f64 {
    debug_assert!(n < 1 << 53);
    2.0 * u52_to_f64(n >> 1) + u52_to_f64(n & 1)
}

/// 2^n for −1022 ≤ n ≤ 1023, built from its exponent bits.
#[inline(always)]
fn pow2(n: i64) -> f64 {
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// Below this, [`exp`] returns exactly 0.0 (e^x is under half the smallest subnormal).
pub const EXP_ZERO_BELOW: f64 = -745.2;

/// The exponential's argument reduction and polynomial: `e^x = p · 2^n` with
/// `x = n ln 2 + r`, |r| ≤ ln2/2, p the degree-13 Taylor polynomial of e^r (its truncation error
/// is below 4e-18 on |r| ≤ 0.347). Valid for |x| < 2^51 / log₂e.
#[inline(always)]
fn exp_reduced(x: f64) -> (f64, i64) {
    let (nf, n) = round_to_int(x * LOG2_E);
    let r = (-nf).mul_add(LN2_LO, (-nf).mul_add(LN2_HI, x)); // |r| ≤ ln2/2
    let mut p: f64 = 1.0 / 6_227_020_800.0;
    for c in EXP_TAYLOR {
        p = p.mul_add(r, c);
    }
    (p, n)
}

/// The coefficients 1/k! for k = 12 down to 0 of [`exp_reduced`]'s Horner scheme (1/13! is
/// its start).
pub(crate) const EXP_TAYLOR: [f64; 13] = [
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    0.5,
    1.0,
    1.0,
];

/// `e^x`, within 1 ulp; exactly 0 below [`EXP_ZERO_BELOW`], +∞ above 709.79, NaN for NaN.
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    // Clamp so that the exponent arithmetic stays in range; the ends are fixed by selects. (Two
    // compares and selects: `f64::clamp` would do the same but is kept out of this hot loop's
    // straight-line code on purpose.)
    #[allow(clippy::manual_clamp)]
    let xc = if x < -746.0 {
        -746.0
    } else if x > 710.0 {
        710.0
    } else {
        x
    };
    let (p, n) = exp_reduced(xc);
    // 2^n in two factors, so that n from −1077 to 1025 (subnormal and near-overflow results)
    // needs no branch.
    let half = n >> 1;
    let y = p * pow2(half) * pow2(n - half);
    if x < EXP_ZERO_BELOW {
        0.0
    } else if x > 709.79 {
        f64::INFINITY
    } else {
        y
    }
}

/// |x| up to which [`exp_normal_range`] equals [`exp`]: x·log₂e rounds to an n in
/// [−1022, 1022], so 2^n is one normal power of two.
pub const EXP_NORMAL_RANGE: f64 = 708.0;

/// `e^x` for |x| ≤ [`EXP_NORMAL_RANGE`], bit for bit equal to [`exp`] there, without its clamps
/// and end selects: `p · 2^n` in one product. For such x, `p·2^⌊n/2⌋` is exact, so [`exp`]'s
/// two products round the same real number `p·2^n` once, as this one does (a subnormal result
/// included). Outside the range the result is meaningless; callers check the range first.
#[inline(always)]
pub fn exp_normal_range(x: f64) -> f64 {
    let (p, n) = exp_reduced(x);
    p * pow2(n)
}

/// fdlibm's minimax coefficients of `ln`'s polynomial in s².
pub(crate) const LG: [f64; 7] = [
    6.666_666_666_666_735_130e-01,
    3.999_999_999_940_941_908e-01,
    2.857_142_874_366_239_149e-01,
    2.222_219_843_214_978_396e-01,
    1.818_357_216_161_805_012e-01,
    1.531_383_769_920_937_332e-01,
    1.479_819_860_511_658_591e-01,
];

/// `ln x`, within 1 ulp (fdlibm's reduction and minimax polynomial); −∞ at 0, NaN below 0.
#[inline(always)]
pub fn ln(x: f64) -> f64 {
    // Subnormals are scaled into the normal range first.
    let subnormal = x < f64::MIN_POSITIVE;
    let xs = if subnormal { x * 18_014_398_509_481_984.0 } else { x }; // 2^54
    let y = ln_reduced(xs, if subnormal { 54 } else { 0 });
    if x > 0.0 && x < f64::INFINITY {
        y
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else if x == f64::INFINITY {
        x
    } else {
        f64::NAN
    }
}

/// `ln x` for a positive, finite, normal x (x ≥ 2^−1022), bit for bit [`ln`] there, without the
/// selects for subnormal, zero, negative, infinite and NaN arguments (about a fifth of its
/// operations). Any other argument gives a meaningless result: callers know their range.
#[inline(always)]
pub fn ln_normal(x: f64) -> f64 {
    debug_assert!((f64::MIN_POSITIVE..f64::INFINITY).contains(&x), "ln_normal({x:e})");
    ln_reduced(x, 0)
}

/// `ln(xs · 2^−scaled)` for a positive normal xs: fdlibm's reduction to a mantissa in
/// [√2/2, √2) and its polynomial in s = f/(2 + f).
#[inline(always)]
fn ln_reduced(xs: f64, scaled: i64) -> f64 {
    let bits = xs.to_bits();
    // Mantissa in [1, 2), then in [√2/2, √2).
    let m1 = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let high = m1 > std::f64::consts::SQRT_2;
    let m = if high { m1 * 0.5 } else { m1 };
    // The exponent, as an f64 straight from its bits (exact small integers throughout): no
    // integer-to-float conversion, which AVX2 has only for 32-bit lanes.
    let k = (u52_to_f64((bits >> 52) & 0x7ff) - (1023 + scaled) as f64) + if high { 1.0 } else { 0.0 };
    let f = m - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG[1] + w * (LG[3] + w * LG[5]));
    let t2 = z * (LG[0] + w * (LG[2] + w * (LG[4] + w * LG[6])));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)
}

/// `ln(1 + x)` for x ≥ 0 (and small negative x), within 2 ulp: `ln u + (x − (u − 1))/u` with
/// `u = 1 + x` corrects the rounding of u.
#[inline(always)]
pub fn log1p(x: f64) -> f64 {
    let u = 1.0 + x;
    ln(u) + (x - (u - 1.0)) / u
}

/// `e^x − 1`, within 2 ulp also near 0 (Kahan's `(u − 1)·(x / ln u)` with `u = e^x`: u − 1 is
/// exact near 0 and ln u the logarithm of the same rounded u, so the rounding of u cancels).
/// −1 below about −37.4, +∞ above 709.79, NaN for NaN. Built from [`exp`] and [`ln`] with basic
/// operations only, so the CUDA kernels compute it bit for bit (`ssm_expm1`); not for hot
/// loops (it branches).
#[inline]
pub fn expm1(x: f64) -> f64 {
    let u = exp(x);
    if u == 1.0 {
        x
    } else if u - 1.0 == -1.0 || u == f64::INFINITY {
        u - 1.0
    } else {
        (u - 1.0) * (x / ln(u))
    }
}

/// `softplus(z) = ln(1 + e^z) = max(z, 0) + log1p(e^{−|z|})`.
#[inline(always)]
pub fn softplus(z: f64) -> f64 {
    let pos = if z > 0.0 { z } else { 0.0 };
    pos + log1p(exp(-z.abs()))
}

/// `(sin 2πu, cos 2πu)` for 0 ≤ u ≤ 1, within 2 ulp. The quadrant is taken from u exactly
/// (`u − q/4` is exact), so no π reduction error enters.
#[inline(always)]
pub fn sin_cos_2pi(u: f64) -> (f64, f64) {
    let (qf, q) = round_to_int(4.0 * u);
    let x = (u - 0.25 * qf) * std::f64::consts::TAU; // |x| ≤ π/4
    let z = x * x;
    let mut ps: f64 = 1.0 / 355_687_428_096_000.0;
    ps = ps.mul_add(z, -1.0 / 1_307_674_368_000.0);
    ps = ps.mul_add(z, 1.0 / 6_227_020_800.0);
    ps = ps.mul_add(z, -1.0 / 39_916_800.0);
    ps = ps.mul_add(z, 1.0 / 362_880.0);
    ps = ps.mul_add(z, -1.0 / 5_040.0);
    ps = ps.mul_add(z, 1.0 / 120.0);
    ps = ps.mul_add(z, -1.0 / 6.0);
    let sin = (x * z).mul_add(ps, x);
    let mut pc: f64 = 1.0 / 6_402_373_705_728_000.0;
    pc = pc.mul_add(z, -1.0 / 20_922_789_888_000.0);
    pc = pc.mul_add(z, 1.0 / 87_178_291_200.0);
    pc = pc.mul_add(z, -1.0 / 479_001_600.0);
    pc = pc.mul_add(z, 1.0 / 3_628_800.0);
    pc = pc.mul_add(z, -1.0 / 40_320.0);
    pc = pc.mul_add(z, 1.0 / 720.0);
    pc = pc.mul_add(z, -1.0 / 24.0);
    // cos x = 1 − z/2 + z²·(…), with the rounding of 1 − z/2 carried separately.
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    let cos = w + (((1.0 - w) - hz) - (z * z) * pc);
    // 2πu = q·π/2 + x: odd quadrants swap sin and cos; signs from q mod 4.
    let (s, c) = if q & 1 == 1 { (cos, sin) } else { (sin, cos) };
    let s = f64::from_bits(s.to_bits() ^ (((q as u64 >> 1) & 1) << 63));
    let c = f64::from_bits(c.to_bits() ^ ((((q + 1) as u64 >> 1) & 1) << 63));
    (s, c)
}

/// Box–Muller: two uniforms in (0, 1) to two independent standard normals,
/// `(r cos 2πu₂, r sin 2πu₂)` with `r = √(−2 ln u₁)`. u₁ must be normal (≥ 2^−1022): the
/// engine's generators give u₁ ≥ 2^−54, so [`ln_normal`] takes its logarithm.
#[inline(always)]
pub fn box_muller(u1: f64, u2: f64) -> (f64, f64) {
    let r = (-2.0 * ln_normal(u1)).sqrt();
    let (s, c) = sin_cos_2pi(u2);
    (r * c, r * s)
}

/// Pairs per call of [`box_muller_pairs`] that the generators make (2 KiB per buffer of
/// uniforms: everything stays in L1).
pub const BOX_MULLER_PASS: usize = 256;

/// [`box_muller`] on whole slices: `out[2q], out[2q+1]` from `(u1[q], u2[q])`, bit for bit the
/// pairwise call. The generators draw a pass of uniforms first and then call this: a single
/// loop hashing the counters and transforming them per pair is one long dependency chain per
/// iteration (hash, logarithm with its division, square root, sine–cosine polynomial), too long
/// for the core's out-of-order window to overlap iterations (measured on a Zen 2: W2 5% faster).
///
/// # Panics
/// If `u2.len() != u1.len()` or `out.len() != 2·u1.len()`.
#[inline(always)]
pub fn box_muller_pairs(u1: &[f64], u2: &[f64], out: &mut [f64]) {
    assert!(u2.len() == u1.len() && out.len() == 2 * u1.len(), "box_muller_pairs: one u2 per u1, two outputs per pair");
    for ((pair, &u1), &u2) in out.chunks_exact_mut(2).zip(u1).zip(u2) {
        let (z0, z1) = box_muller(u1, u2);
        pair[0] = z0;
        pair[1] = z1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place (both finite, same sign or tiny).
    fn ulps(a: f64, b: f64) -> f64 {
        if a == b {
            return 0.0;
        }
        let scale = b.abs().max(f64::MIN_POSITIVE);
        let ulp = f64::from_bits(scale.to_bits() + 1) - scale;
        (a - b).abs() / ulp
    }

    /// A deterministic sweep of `n` points of [lo, hi] (golden-ratio sequence).
    fn sweep(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
        (0..n).map(move |i| lo + (hi - lo) * ((i as f64 * 0.618_033_988_749_894_9) % 1.0))
    }

    fn max_ulps(f: impl Fn(f64) -> f64, g: impl Fn(f64) -> f64, xs: impl Iterator<Item = f64>) -> (f64, f64) {
        xs.map(|x| (ulps(f(x), g(x)), x)).fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a })
    }

    #[test]
    fn the_integer_conversions_are_as_f64_bit_for_bit() {
        let edges = [0u64, 1, 2, 3, (1 << 51) + 1, (1 << 52) - 1, 1 << 52, (1 << 52) + 1, (1 << 53) - 2, (1 << 53) - 1];
        let mut z = 0x1234_5678_9abc_def0u64;
        let random = (0..1_000_000u64).map(|i| {
            z = z.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            z >> (11 + i % 40)
        });
        for n in edges.into_iter().chain(random) {
            assert_eq!(u53_to_f64(n).to_bits(), (n as f64).to_bits(), "u53 {n}");
            if n < 1 << 52 {
                assert_eq!(u52_to_f64(n).to_bits(), (n as f64).to_bits(), "u52 {n}");
            }
        }
    }

    #[test]
    fn exp_is_within_one_ulp_of_libm() {
        for (lo, hi) in [(-1.0, 1.0), (-745.0, -700.0), (-700.0, 700.0), (700.0, 709.7), (-1e-8, 1e-8)] {
            let (u, at) = max_ulps(exp, f64::exp, sweep(lo, hi, 400_000));
            assert!(u <= 1.0, "exp: {u} ulp at {at}");
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
        assert_eq!(exp(710.0), f64::INFINITY);
        assert!(exp(f64::NAN).is_nan());
        // Subnormal results keep their value (to an absolute 1 subnormal ulp).
        assert!((exp(-740.0) - (-740.0f64).exp()).abs() <= 5e-324);
    }

    #[test]
    fn ln_is_within_one_ulp_of_libm() {
        for (lo, hi) in [(0.5, 2.0), (1e-300, 1e-200), (1e-10, 1e10), (1e300, 1e308), (0.999, 1.001)] {
            let (u, at) = max_ulps(ln, f64::ln, sweep(lo, hi, 400_000));
            assert!(u <= 1.0, "ln: {u} ulp at {at}");
        }
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan() && ln(f64::NAN).is_nan());
        assert_eq!(ln(f64::INFINITY), f64::INFINITY);
        let tiny = 5e-324;
        assert!(ulps(ln(tiny), tiny.ln()) <= 1.0);
    }

    #[test]
    fn exp_normal_range_equals_exp_bit_for_bit_inside_its_range() {
        let edges = [-EXP_NORMAL_RANGE, EXP_NORMAL_RANGE, -708.0 + 1e-13, -707.7, -0.0, 0.0, 5e-324, -5e-324, 0.5 * std::f64::consts::LN_2];
        // Half-integer multiples of ln 2 put x·log₂e on a rounding tie of the reduction.
        let ties = (-2043..=2043).map(|k| 0.5 * k as f64 * std::f64::consts::LN_2).filter(|x: &f64| x.abs() <= EXP_NORMAL_RANGE);
        for x in sweep(-EXP_NORMAL_RANGE, EXP_NORMAL_RANGE, 1_000_000).chain(edges).chain(ties) {
            assert_eq!(exp_normal_range(x).to_bits(), exp(x).to_bits(), "x = {x:e}");
        }
    }

    #[test]
    fn ln_normal_equals_ln_bit_for_bit_on_normal_arguments() {
        let edges = [f64::MIN_POSITIVE, f64::MAX, 1.0, std::f64::consts::SQRT_2, 2.0f64.powi(-54), 0.5 + f64::EPSILON];
        for (lo, hi) in [(f64::MIN_POSITIVE, 1e-300), (1e-300, 1e-3), (1e-3, 10.0), (0.5, 2.0), (10.0, 1e308)] {
            for x in sweep(lo, hi, 300_000).chain(edges) {
                assert_eq!(ln_normal(x).to_bits(), ln(x).to_bits(), "x = {x:e}");
            }
        }
    }

    #[test]
    fn log1p_and_softplus_are_within_two_ulp() {
        let (u, at) = max_ulps(log1p, f64::ln_1p, sweep(0.0, 1.0, 400_000));
        assert!(u <= 2.0, "log1p: {u} ulp at {at}");
        let (u, at) = max_ulps(log1p, f64::ln_1p, sweep(1e-18, 1e-6, 100_000));
        assert!(u <= 2.0, "log1p small: {u} ulp at {at}");
        let (u, at) = max_ulps(softplus, crate::math::softplus::softplus::<f64>, sweep(-40.0, 40.0, 400_000));
        assert!(u <= 3.0, "softplus: {u} ulp at {at}");
    }

    #[test]
    fn expm1_is_within_two_ulp_of_libm() {
        for (lo, hi) in [(-1.0, 1.0), (-1e-8, 1e-8), (-1e-300, 1e-300), (-40.0, 0.0), (0.0, 709.7)] {
            let (u, at) = max_ulps(expm1, f64::exp_m1, sweep(lo, hi, 400_000));
            assert!(u <= 2.0, "expm1: {u} ulp at {at}");
        }
        assert_eq!(expm1(0.0), 0.0);
        assert_eq!(expm1(-800.0), -1.0);
        assert_eq!(expm1(710.0), f64::INFINITY);
        assert!(expm1(f64::NAN).is_nan());
    }

    /// sin and cos of 2πu from libm on the exactly reduced argument, with the rounding of
    /// 2π·r carried to first order (a reference good to ~0.5 ulp).
    fn sin_cos_2pi_reference(u: f64) -> (f64, f64) {
        const TAU_LO: f64 = 2.449_293_598_294_706_4e-16;
        let q = (4.0 * u).round();
        let r = u - 0.25 * q;
        let xh = r * std::f64::consts::TAU;
        let xl = r.mul_add(std::f64::consts::TAU, -xh) + r * TAU_LO;
        let (s, c) = xh.sin_cos();
        let (s, c) = (s + c * xl, c - s * xl);
        match (q as i64).rem_euclid(4) {
            0 => (s, c),
            1 => (c, -s),
            2 => (-s, -c),
            _ => (-c, s),
        }
    }

    #[test]
    fn sin_cos_2pi_is_within_two_ulp_and_exact_at_quadrants() {
        for u in sweep(0.0, 1.0, 400_000).chain(sweep(0.0, 1e-6, 10_000)) {
            let (s, c) = sin_cos_2pi(u);
            let (rs, rc) = sin_cos_2pi_reference(u);
            assert!(ulps(s, rs) <= 2.0 || (s - rs).abs() < 1e-300, "sin 2π·{u}: {s} vs {rs}");
            assert!(ulps(c, rc) <= 2.0 || (c - rc).abs() < 1e-300, "cos 2π·{u}: {c} vs {rc}");
        }
        assert_eq!(sin_cos_2pi(0.0), (0.0, 1.0));
        assert_eq!(sin_cos_2pi(0.25), (1.0, 0.0));
        assert_eq!(sin_cos_2pi(0.5).1, -1.0);
        assert_eq!(sin_cos_2pi(0.75).0, -1.0);
    }
}
