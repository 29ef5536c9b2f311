// 001.c21.needle: needle retention in B'MOJO's eidetic memory (mirrors needle_path in
// src/mc/paths.rs and TopMemory::offer in src/model/eidetic.rs): one thread per path. The needle
// (t = 0) and the D distractors (t = ⌊jT/(D + 1)⌋) have amplitudes 1 + 0.5·U, drawn as they
// arrive; y_t = ā y_{t−1} + (1 − ā)u_t; ε_t = (y_t − y_{t−1})² goes to a top-m_e memory (insert
// while fewer than m_e; else replace the smallest ε, the newest among equal ones, if strictly
// larger). held[path·n_lags + i] = 1 when position 0 is in the memory after token lags[i].
#include "philox.cuh"

// SSM_STEP_OFFSET exists only for the negative control of the agreement test (a planted
// off-by-one, built separately by build.rs); it is 0 in every real build.
#ifndef SSM_STEP_OFFSET
#define SSM_STEP_OFFSET 0
#endif

#define SSM_MAX_NEEDLE_CAPACITY 16

SSM_GLOBAL void needle(double abar, int capacity, ssm_u64 distractors, ssm_u64 horizon, const ssm_u64* lags, int n_lags,
                       ssm_u64 paths, ssm_u64 first, ssm_u32 k0, ssm_u32 k1, double* held) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= paths) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    ssm_u64 pos[SSM_MAX_NEEDLE_CAPACITY];
    double eps[SSM_MAX_NEEDLE_CAPACITY];
    int count = 0, rec = 0;
    double y = 0.0;
    ssm_u64 next = 1;
    for (ssm_u64 t = 0; t <= horizon - SSM_STEP_OFFSET; ++t) {
        double u = 0.0;
        if (t == 0 || (next <= distractors && next * horizon / (distractors + 1) == t)) {
            if (t > 0) ++next;
            u = 1.0 + 0.5 * ssm_uniform(&s);
        }
        double prev = y;
        y = abar * y + (1.0 - abar) * u;
        double e = (y - prev) * (y - prev);
        if (count < capacity) {
            pos[count] = t; eps[count] = e; ++count;
        } else if (capacity > 0) {
            int w = 0;
            for (int i = 1; i < count; ++i)
                if (eps[i] < eps[w] || (eps[i] == eps[w] && pos[i] > pos[w])) w = i;
            if (e > eps[w]) { pos[w] = t; eps[w] = e; }
        }
        while (rec < n_lags && lags[rec] == t) {
            double h = 0.0;
            for (int i = 0; i < count; ++i)
                if (pos[i] == 0) h = 1.0;
            held[p * n_lags + rec] = h;
            ++rec;
        }
    }
}
