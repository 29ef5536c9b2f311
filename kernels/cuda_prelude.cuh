// The CUDA side of the qualifiers the kernels use (the CPU side is cpu_shim.h). Kernels are
// compiled by NVRTC with this header first (see src/mc/shim.rs and tests/nvrtc.rs).
#pragma once
#define SSM_DEVICE __device__ static inline
#define SSM_GLOBAL extern "C" __global__
#define SSM_INF __longlong_as_double(0x7ff0000000000000ULL)
