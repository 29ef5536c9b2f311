// Philox4x32-10, keyed streams and the Box–Muller transform, shared by every kernel.
// Mirrors src/mc/philox.rs and src/mc/stream.rs draw for draw: counter = [block_lo, block_hi,
// instance_lo, instance_hi]; block b gives u1 = U(w0, w1), u2 = U(w2, w3) with
// U(a, b) = ((a >> 6)·2^26 + (b >> 6) + 0.5)/2^52; normals 2b and 2b+1 are
// r·cos(2πu2), r·sin(2πu2) with r = √(−2 ln u1) (vecmath.cuh's ln, sin, cos).
#pragma once
#include "vecmath.cuh"

typedef unsigned int ssm_u32;
typedef unsigned long long ssm_u64;

SSM_DEVICE void ssm_philox(ssm_u32 c[4], ssm_u32 k0, ssm_u32 k1) {
    const ssm_u32 M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) { k0 += W0; k1 += W1; }
        ssm_u64 p0 = (ssm_u64)M0 * c[0];
        ssm_u64 p1 = (ssm_u64)M1 * c[2];
        ssm_u32 hi0 = (ssm_u32)(p0 >> 32), lo0 = (ssm_u32)p0;
        ssm_u32 hi1 = (ssm_u32)(p1 >> 32), lo1 = (ssm_u32)p1;
        ssm_u32 n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
        c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
    }
}

typedef struct {
    ssm_u32 k0, k1;
    ssm_u64 instance, next_block;
    int has_spare;
    double spare;
} SsmStream;

SSM_DEVICE SsmStream ssm_stream(ssm_u32 k0, ssm_u32 k1, ssm_u64 instance) {
    SsmStream s; s.k0 = k0; s.k1 = k1; s.instance = instance; s.next_block = 0; s.has_spare = 0; s.spare = 0.0;
    return s;
}

SSM_DEVICE double ssm_uniform_from_words(ssm_u32 a, ssm_u32 b) {
    ssm_u64 hi = a >> 6, lo = b >> 6;
    return ((double)((hi << 26) | lo) + 0.5) * (1.0 / 4503599627370496.0);
}

SSM_DEVICE void ssm_block(SsmStream* s, ssm_u32 w[4]) {
    ssm_u64 b = s->next_block++;
    w[0] = (ssm_u32)b; w[1] = (ssm_u32)(b >> 32); w[2] = (ssm_u32)s->instance; w[3] = (ssm_u32)(s->instance >> 32);
    ssm_philox(w, s->k0, s->k1);
}

SSM_DEVICE double ssm_normal(SsmStream* s) {
    if (s->has_spare) { s->has_spare = 0; return s->spare; }
    ssm_u32 w[4];
    ssm_block(s, w);
    double u1 = ssm_uniform_from_words(w[0], w[1]), u2 = ssm_uniform_from_words(w[2], w[3]);
    double z0, z1;
    ssm_box_muller(u1, u2, &z0, &z1);
    s->spare = z1; s->has_spare = 1;
    return z0;
}

// The next uniform in (0, 1): one block per uniform (its last two words discarded), and the
// pending spare normal dropped, as Stream::uniform does.
SSM_DEVICE double ssm_uniform(SsmStream* s) {
    ssm_u32 w[4];
    s->has_spare = 0;
    ssm_block(s, w);
    return ssm_uniform_from_words(w[0], w[1]);
}
