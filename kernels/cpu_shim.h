// Runs the CUDA kernels of this directory on the CPU: a grid loop over blockIdx/threadIdx with
// CUDA's qualifiers defined away (helpers and kernels become file-local functions, so the same
// sources can be compiled twice, e.g. with a planted bug). Only for testing the kernels without
// a GPU; see src/mc/shim.rs.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

struct ssm_dim3 { unsigned x, y, z; };
static thread_local ssm_dim3 blockIdx, threadIdx, blockDim, gridDim;

#define SSM_DEVICE static inline
#define SSM_GLOBAL static
#define SSM_INF INFINITY
using std::sqrt; using std::log; using std::sin; using std::cos; using std::exp;
using std::log1p; using std::fabs; using std::fmax; using std::fma;
typedef unsigned long long ssm_bits;
static inline ssm_bits ssm_to_bits(double x) { ssm_bits b; std::memcpy(&b, &x, 8); return b; }
static inline double ssm_from_bits(ssm_bits b) { double x; std::memcpy(&x, &b, 8); return x; }

// Calls `body()` once per (block, thread) of a 1-D launch, like a <<<grid, block>>> launch.
template <typename F>
static void ssm_launch(unsigned grid, unsigned block, F body) {
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    for (unsigned b = 0; b < grid; ++b) {
        for (unsigned t = 0; t < block; ++t) {
            blockIdx = {b, 0, 0};
            threadIdx = {t, 0, 0};
            body();
        }
    }
}
