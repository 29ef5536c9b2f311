// Tilted tail sums (mirrors tilted_tail_sample in src/mc/paths.rs): one thread per sample.
// Proposal j: z = normal j of stream (k0, k1), v = uniform j of stream (a0, a1) (two per block);
// u = (z·z)·scale,
// y = ln(c + γu), accepted when ln v ≤ (θ·y − η·u) − log_bound. Accepted term i (0-based) goes
// to partial sum i mod 4 until t are accepted; out[sample] = (l0 + l1) + (l2 + l3).
// SSM_STEP_OFFSET exists only for the negative control of the agreement test (a planted
// off-by-one in the number of accepted terms); it is 0 in every real build.
#include "philox.cuh"

#ifndef SSM_STEP_OFFSET
#define SSM_STEP_OFFSET 0
#endif

SSM_GLOBAL void tilted_tail_sums(double c, double gamma, double theta, double eta, double scale, double log_bound, ssm_u64 t,
                                 ssm_u64 samples, ssm_u64 first, ssm_u32 k0, ssm_u32 k1, ssm_u32 a0, ssm_u32 a1, double* out) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= samples) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    SsmStream a = ssm_stream(a0, a1, first + p);
    double lanes[4] = {0.0, 0.0, 0.0, 0.0};
    ssm_u32 aw[4];
    ssm_u64 accepted = 0, j = 0;
    while (accepted < t - SSM_STEP_OFFSET) {
        double z = ssm_normal(&s);
        // Two acceptance uniforms per Philox block: words (0, 1) for even j, (2, 3) for odd j.
        if ((j & 1) == 0) ssm_block(&a, aw);
        double v = ssm_uniform_from_words(aw[2 * (j & 1)], aw[2 * (j & 1) + 1]);
        ++j;
        double u = (z * z) * scale;
        double y = ssm_ln(c + gamma * u);
        double log_ratio = (theta * y - eta * u) - log_bound;
        if (ssm_ln(v) <= log_ratio) {
            lanes[accepted % 4] += y;
            ++accepted;
        }
    }
    out[p] = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}
