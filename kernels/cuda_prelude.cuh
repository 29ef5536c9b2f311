// The CUDA side of the qualifiers the kernels use (the CPU side is cpu_shim.h). Kernels are
// compiled by NVRTC with this header first (see src/mc/shim.rs and tests/nvrtc.rs).
#pragma once
#define SSM_DEVICE __device__ static inline
#define SSM_GLOBAL extern "C" __global__
#define SSM_INF __longlong_as_double(0x7ff0000000000000ULL)
typedef unsigned long long ssm_bits;
SSM_DEVICE ssm_bits ssm_to_bits(double x) { return (ssm_bits)__double_as_longlong(x); }
SSM_DEVICE double ssm_from_bits(ssm_bits b) { return __longlong_as_double((long long)b); }
