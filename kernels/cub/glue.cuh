/* glue.cuh - what the CUB glue's translation units share (the .cu files of
   kernels/cub/, each built into build/libgpuarr_cub.a by `make fatbins`; see
   "CUB glue" in gpuarr.h's >>abi section for the contract of each function).

   CUB's dispatch is host C++ over the CUDA runtime, so this is the one part
   of gpuarr compiled as a static archive and linked into programs (with the
   static CUDA runtime). One translation unit per family of algorithms keeps
   a parallel build short; instantiations are kept few, because build time
   is a budget. */

#ifndef GPUARR_CUB_GLUE_CUH
#define GPUARR_CUB_GLUE_CUH

#define CCCL_DISABLE_NVTX
#include <cuda_runtime.h>

#include <cstdint>

#define GPUARR_KERNEL_ABI /* gpuarr.h's Kernel ABI (>>abi) */
#include "../../gpuarr.h"

namespace {

/* Blocks for a grid-stride loop of 256 threads over n elements. */
inline int grid_for(int64_t n)
{
    int64_t blocks = (n + 255) / 256;
    if (blocks > 4096) blocks = 4096;
    return blocks < 1 ? 1 : (int)blocks;
}

/* The error of a failed call, cleared from the runtime's state. */
inline int done(cudaError_t e)
{
    if (e != cudaSuccess) (void)cudaGetLastError();
    return (int)e;
}

/* A complex number as CUB sees it. */
template <typename R> struct cplx {
    R re, im;
};

/* Keys of complex numbers (ga__cub_order_keys): parts of P bits (uint32_t
   for complex64, uint64_t for complex128) make one unsigned key of twice
   that width that compares as a number in NumPy's complex order. Its high
   half is the real part's orderable key and its low half the imaginary
   part's; an element with a NaN part has instead a code above +inf's key
   in the high half, by NumPy's order of the NaN groups: R + nanj (low
   half: R's key), then nan + Rj (low half: R's key), then nan + nanj (low
   half 0). In memory a key is two words of P, the low half first. */
enum { kImagNanCode = 1, kRealNanCode = 2, kBothNanCode = 3 };

template <typename P> struct complex_key;
template <> struct complex_key<uint32_t> {
    using type = uint64_t;
    static constexpr uint32_t inf = 0xff800000u; /* float32's +inf as an orderable key */
};
template <> struct complex_key<uint64_t> {
    using type = __uint128_t;
    static constexpr uint64_t inf = 0xfff0000000000000ull; /* float64's */
};

/* The smallest key of an element with a NaN part: every key from it up. */
template <typename P> __host__ __device__ constexpr typename complex_key<P>::type first_complex_nan_key()
{
    return (typename complex_key<P>::type)(complex_key<P>::inf + kImagNanCode) << (sizeof(P) * 8);
}

} // namespace

#endif
