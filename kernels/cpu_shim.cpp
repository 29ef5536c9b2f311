// One translation unit with every kernel behind the CPU shim (the kernels of this directory,
// listed by build.rs). Each kernel is exported as
// SSM_PREFIX##kernel(grid, block, params), where params[i] points at the value of the kernel's
// i-th argument, exactly as CUDA's cuLaunchKernel takes them; the argument types are deduced
// from the kernel's own signature, so the signature is written once (in the .cu file, and in the
// parameter table of src/mc/kernels.rs that the tests check against it). The prefix
// distinguishes the planted-bug build.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "cpu_shim.h"
// Every kernels/<name>.cu, found by build.rs.
#include "kernel_includes.inc"

#ifndef SSM_PREFIX
#define SSM_PREFIX ssm_cpu_
#endif
#define SSM_CAT2(a, b) a##b
#define SSM_CAT(a, b) SSM_CAT2(a, b)

template <typename... A, std::size_t... I>
static void ssm_apply(void (*kernel)(A...), void** params, std::index_sequence<I...>) {
    kernel(*static_cast<typename std::remove_reference<A>::type*>(params[I])...);
}

template <typename... A>
static void ssm_run(void (*kernel)(A...), unsigned grid, unsigned block, void** params) {
    ssm_launch(grid, block, [&] { ssm_apply(kernel, params, std::index_sequence_for<A...>{}); });
}

#define SSM_EXPORT(kernel) \
    extern "C" void SSM_CAT(SSM_PREFIX, kernel)(unsigned grid, unsigned block, void** params) { ssm_run(kernel, grid, block, params); }

// SSM_EXPORT(<name>) for every kernel, written by build.rs.
#include "kernel_exports.inc"
