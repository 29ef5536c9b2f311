// One translation unit with every kernel behind the CPU shim, exporting C launchers named
// SSM_PREFIX##kernel (the prefix distinguishes the planted-bug build).
#include "cpu_shim.h"
#include "diagonal_lrd.cu"
#include "tail_sums.cu"
#include "interaction.cu"

#ifndef SSM_PREFIX
#define SSM_PREFIX ssm_cpu_
#endif
#define SSM_CAT2(a, b) a##b
#define SSM_CAT(a, b) SSM_CAT2(a, b)

extern "C" void SSM_CAT(SSM_PREFIX, diagonal_lrd)(const double* a, const double* b, int h, double w, double bias, int zoh,
                                                  ssm_u64 horizon, ssm_u64 paths, double claimed_rate, ssm_u32 k0,
                                                  ssm_u32 k1, const ssm_u64* marks, int n_marks, double* summary,
                                                  double* trace) {
    const unsigned block = 64;
    unsigned grid = (unsigned)((paths + block - 1) / block);
    ssm_launch(grid, block, [&] {
        diagonal_lrd(a, b, h, w, bias, zoh, horizon, paths, claimed_rate, k0, k1, marks, n_marks, summary, trace);
    });
}

extern "C" void SSM_CAT(SSM_PREFIX, tail_sums)(double c, double gamma, const ssm_u64* times, int n_times, ssm_u64 samples,
                                               ssm_u32 k0, ssm_u32 k1, double* out) {
    const unsigned block = 256;
    unsigned grid = (unsigned)((samples + block - 1) / block);
    ssm_launch(grid, block, [&] { tail_sums(c, gamma, times, n_times, samples, k0, k1, out); });
}

extern "C" void SSM_CAT(SSM_PREFIX, interaction)(const double* abar, const double* bbar, const double* g, const double* w, int h,
                                                 int start, ssm_u64 t, ssm_u64 horizon, ssm_u64 burn_in, ssm_u64 paths,
                                                 ssm_u32 k0, ssm_u32 k1, const ssm_u64* marks, int n_marks, double* summary,
                                                 double* trace) {
    const unsigned block = 64;
    unsigned grid = (unsigned)((paths + block - 1) / block);
    ssm_launch(grid, block, [&] {
        interaction(abar, bbar, g, w, h, start, t, horizon, burn_in, paths, k0, k1, marks, n_marks, summary, trace);
    });
}
