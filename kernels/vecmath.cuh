// Branch-free exp, ln, log1p, softplus and the Box–Muller pair: the same operation sequence as
// src/math/vecmath.rs, line for line (fma() for every mul_add), so that the kernels on a GPU
// (compiled with --fmad=false), their CPU shim (-ffp-contract=off) and the rayon backend agree
// bit for bit. Only IEEE-754 basic operations and fused multiply-adds, both correctly rounded.
#pragma once

// ssm_bits, ssm_to_bits and ssm_from_bits (the bit casts) come from the prelude / the shim.

#define SSM_ROUND_SHIFT 6755399441055744.0
#define SSM_LN2_HI 6.93147180369123816490e-01
#define SSM_LN2_LO 1.90821492927058770002e-10

// Rounds x (|x| < 2^51) to the nearest integer: *nf as double, returned as long long.
SSM_DEVICE long long ssm_round_to_int(double x, double* nf) {
    double t = x + SSM_ROUND_SHIFT;
    *nf = t - SSM_ROUND_SHIFT;
    return (long long)ssm_to_bits(t) - (long long)ssm_to_bits(SSM_ROUND_SHIFT);
}

SSM_DEVICE double ssm_pow2(long long n) { return ssm_from_bits(((ssm_bits)(n + 1023)) << 52); }

SSM_DEVICE double ssm_exp(double x) {
    double xc = x < -746.0 ? -746.0 : (x > 710.0 ? 710.0 : x);
    double nf;
    long long n = ssm_round_to_int(xc * 1.4426950408889634, &nf);
    double r = fma(-nf, SSM_LN2_LO, fma(-nf, SSM_LN2_HI, xc));
    double p = 1.0 / 6227020800.0;
    p = fma(p, r, 1.0 / 479001600.0);
    p = fma(p, r, 1.0 / 39916800.0);
    p = fma(p, r, 1.0 / 3628800.0);
    p = fma(p, r, 1.0 / 362880.0);
    p = fma(p, r, 1.0 / 40320.0);
    p = fma(p, r, 1.0 / 5040.0);
    p = fma(p, r, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    long long half = n >> 1;
    double y = p * ssm_pow2(half) * ssm_pow2(n - half);
    return x < -745.2 ? 0.0 : (x > 709.79 ? SSM_INF : y);
}

SSM_DEVICE double ssm_ln(double x) {
    const double LG1 = 6.666666666666735130e-01, LG2 = 3.999999999940941908e-01, LG3 = 2.857142874366239149e-01,
                 LG4 = 2.222219843214978396e-01, LG5 = 1.818357216161805012e-01, LG6 = 1.531383769920937332e-01,
                 LG7 = 1.479819860511658591e-01;
    int subnormal = x < 2.2250738585072014e-308;
    double xs = subnormal ? x * 18014398509481984.0 : x;
    ssm_bits bits = ssm_to_bits(xs);
    long long e = (long long)((bits >> 52) & 0x7ff) - 1023 - (subnormal ? 54 : 0);
    double m1 = ssm_from_bits((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    int high = m1 > 1.4142135623730951;
    double m = high ? m1 * 0.5 : m1;
    e += high;
    double f = m - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double t1 = w * (LG2 + w * (LG4 + w * LG6));
    double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    double r = t2 + t1;
    double hfsq = 0.5 * f * f;
    double k = (double)e;
    double y = k * SSM_LN2_HI - ((hfsq - (s * (hfsq + r) + k * SSM_LN2_LO)) - f);
    if (x > 0.0 && x < SSM_INF) return y;
    if (x == 0.0) return -SSM_INF;
    if (x == SSM_INF) return x;
    return ssm_from_bits(0x7ff8000000000000ULL);
}

SSM_DEVICE double ssm_log1p(double x) {
    double u = 1.0 + x;
    return ssm_ln(u) + (x - (u - 1.0)) / u;
}

// e^x − 1 (Kahan's (u − 1)·(x / ln u), u = e^x): vecmath::expm1.
SSM_DEVICE double ssm_expm1(double x) {
    double u = ssm_exp(x);
    if (u == 1.0) return x;
    if (u - 1.0 == -1.0 || u == SSM_INF) return u - 1.0;
    return (u - 1.0) * (x / ssm_ln(u));
}

SSM_DEVICE double ssm_softplus(double z) {
    double pos = z > 0.0 ? z : 0.0;
    return pos + ssm_log1p(ssm_exp(-fabs(z)));
}

// (sin 2πu, cos 2πu) for 0 ≤ u ≤ 1.
SSM_DEVICE void ssm_sin_cos_2pi(double u, double* sin_out, double* cos_out) {
    double qf;
    long long q = ssm_round_to_int(4.0 * u, &qf);
    double x = (u - 0.25 * qf) * 6.283185307179586;
    double z = x * x;
    double ps = 1.0 / 355687428096000.0;
    ps = fma(ps, z, -1.0 / 1307674368000.0);
    ps = fma(ps, z, 1.0 / 6227020800.0);
    ps = fma(ps, z, -1.0 / 39916800.0);
    ps = fma(ps, z, 1.0 / 362880.0);
    ps = fma(ps, z, -1.0 / 5040.0);
    ps = fma(ps, z, 1.0 / 120.0);
    ps = fma(ps, z, -1.0 / 6.0);
    double sn = fma(x * z, ps, x);
    double pc = 1.0 / 6402373705728000.0;
    pc = fma(pc, z, -1.0 / 20922789888000.0);
    pc = fma(pc, z, 1.0 / 87178291200.0);
    pc = fma(pc, z, -1.0 / 479001600.0);
    pc = fma(pc, z, 1.0 / 3628800.0);
    pc = fma(pc, z, -1.0 / 40320.0);
    pc = fma(pc, z, 1.0 / 720.0);
    pc = fma(pc, z, -1.0 / 24.0);
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    double cs = w + (((1.0 - w) - hz) - (z * z) * pc);
    double s = (q & 1) ? cs : sn, c = (q & 1) ? sn : cs;
    *sin_out = ssm_from_bits(ssm_to_bits(s) ^ ((((ssm_bits)q >> 1) & 1) << 63));
    *cos_out = ssm_from_bits(ssm_to_bits(c) ^ ((((ssm_bits)(q + 1) >> 1) & 1) << 63));
}

SSM_DEVICE void ssm_box_muller(double u1, double u2, double* z0, double* z1) {
    double r = sqrt(-2.0 * ssm_ln(u1));
    double s, c;
    ssm_sin_cos_2pi(u2, &s, &c);
    *z0 = r * c;
    *z1 = r * s;
}
