// Tail sums Y_t = Σ_{i≤t} ln(c + γ x_i²) recorded at increasing times (mirrors tail_sum_sample
// and TailSum in src/mc/paths.rs): one thread per sample. Term i (0-based), y = c + γx², normal
// and finite: its mantissa in [1, 2) multiplies lane i mod 4's product and its exponent adds to
// E (an exact integer); otherwise ln y adds to lane i mod 4's sum. After every 8th row of four
// terms (i/4 mod 8 = 7) the lane adds ln(product) to its sum and restarts the product at 1.
// Y_t = ((s0 + ln p0) + (s1 + ln p1)) + ((s2 + ln p2) + (s3 + ln p3)) + (E·ln2_hi + E·ln2_lo);
// out[sample·n_times + i] = Y_{times[i]}.
#include "philox.cuh"

#define SSM_TAIL_GROUP 8

SSM_GLOBAL void tail_sums(double c, double gamma, const ssm_u64* times, int n_times, ssm_u64 samples, ssm_u64 first,
                          ssm_u32 k0, ssm_u32 k1, double* out) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= samples) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    double sums[4] = {0.0, 0.0, 0.0, 0.0};
    double prods[4] = {1.0, 1.0, 1.0, 1.0};
    long long e = 0;
    ssm_u64 t = 0;
    for (int i = 0; i < n_times; ++i) {
        while (t < times[i]) {
            double x = ssm_normal(&s);
            double y = c + gamma * x * x;
            int l = (int)(t % 4);
            if (y >= 2.2250738585072014e-308 && y < SSM_INF) {
                ssm_bits bits = ssm_to_bits(y);
                prods[l] *= ssm_from_bits((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
                e += (long long)(bits >> 52) - 1023;
            } else {
                sums[l] += ssm_ln(y);
            }
            if ((t / 4) % SSM_TAIL_GROUP == SSM_TAIL_GROUP - 1) {
                sums[l] += ssm_ln(prods[l]);
                prods[l] = 1.0;
            }
            ++t;
        }
        double l0 = sums[0] + ssm_ln(prods[0]), l1 = sums[1] + ssm_ln(prods[1]);
        double l2 = sums[2] + ssm_ln(prods[2]), l3 = sums[3] + ssm_ln(prods[3]);
        double ef = (double)e;
        out[p * n_times + i] = ((l0 + l1) + (l2 + l3)) + (ef * SSM_LN2_HI + ef * SSM_LN2_LO);
    }
}
