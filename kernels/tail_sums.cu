// Tail sums Y_t = Σ_{i≤t} ln(c + γ x_i²) recorded at increasing times (mirrors tail_sum_sample
// in src/mc/paths.rs): one thread per sample; term i (0-based) goes to partial sum i mod 4, and
// Y_t = (l0 + l1) + (l2 + l3); out[sample·n_times + i] = Y_{times[i]}.
#include "philox.cuh"

SSM_GLOBAL void tail_sums(double c, double gamma, const ssm_u64* times, int n_times, ssm_u64 samples, ssm_u64 first,
                          ssm_u32 k0, ssm_u32 k1, double* out) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= samples) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    double lanes[4] = {0.0, 0.0, 0.0, 0.0};
    ssm_u64 t = 0;
    for (int i = 0; i < n_times; ++i) {
        while (t < times[i]) {
            double x = ssm_normal(&s);
            lanes[t % 4] += ssm_ln(c + gamma * x * x);
            ++t;
        }
        out[p * n_times + i] = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    }
}
