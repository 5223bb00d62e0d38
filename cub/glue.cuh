/* glue.cuh - what the CUB glue's translation units share (the .cu files of cub/, each
   built into build/libgpuarr_cub.a by `make fatbins`; see "CUB glue" in
   gpuarr.h's Kernel ABI section for the contract of each function).

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

#include "../gpuarr.h"

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

} // namespace

#endif
