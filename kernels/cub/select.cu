/* select.cu - the CUB glue's selections: boolean-mask compaction of items
   of 1, 2, 4, 8 or 16 bytes (or of their positions), the count of nonzero
   flag bytes, and flat positions turned into coordinates (nonzero). */

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glue.cuh"

namespace {

/* --- compaction ------------------------------------------------------------- */

/* 16-byte items (complex128) as two words: their arrays are only 8-byte
   aligned in general (views, ga_as_strided). */
struct item16 {
    uint64_t word[2];
};

template <typename T>
cudaError_t select_typed(void *temp, size_t *temp_bytes, const void *in, const uint8_t *flags, void *out,
                         int64_t *count, int64_t n, cudaStream_t stream)
{
    return cub::DeviceSelect::Flagged(temp, *temp_bytes, static_cast<const T *>(in), flags, static_cast<T *>(out),
                                      count, n, stream);
}

/* --- counting flags ----------------------------------------------------------- */

/* 1 in the low bit of each byte of w that is nonzero. */
__device__ __forceinline__ uint32_t nonzero_bytes(uint32_t w)
{
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return w & 0x01010101u;
}

/* The nonzero bytes of chunk i: 16 bytes at a time (flags 16-byte aligned),
   the tail one byte at a time. */
struct chunk_count {
    const uint8_t *flags;
    int64_t n;
    __device__ int64_t operator()(int64_t i) const
    {
        const int64_t first = i * 16;
        if (first + 16 <= n) {
            const uint4 v = *reinterpret_cast<const uint4 *>(flags + first);
            return __popc(nonzero_bytes(v.x)) + __popc(nonzero_bytes(v.y)) + __popc(nonzero_bytes(v.z)) +
                   __popc(nonzero_bytes(v.w));
        }
        int64_t c = 0;
        for (int64_t k = first; k < n; k++) c += flags[k] != 0;
        return c;
    }
};

struct byte_count {
    const uint8_t *flags;
    __device__ int64_t operator()(int64_t i) const { return flags[i] != 0; }
};

/* --- coordinates ---------------------------------------------------------------- */

struct shape_arg {
    int64_t dim[GA_MAXDIMS];
};

/* coords is (ndim, n); row ndim - 1 holds flat C-order positions. Each
   thread reads its position before writing the column, so in place is safe. */
__global__ void unravel_kernel(int64_t *coords, int64_t n, int ndim, shape_arg shape)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t flat = coords[(int64_t)(ndim - 1) * n + i];
        for (int d = ndim - 1; d >= 0; d--) {
            const int64_t q = flat / shape.dim[d];
            coords[(int64_t)d * n + i] = flat - q * shape.dim[d];
            flat = q;
        }
    }
}

} // namespace

extern "C" {

int ga__cub_select_flagged(void *temp, size_t *temp_bytes, const void *in, const void *flags, void *out,
                           int64_t *count, int item_bytes, int64_t n, struct CUstream_st *stream)
{
    const uint8_t *f = static_cast<const uint8_t *>(flags);
    if (!in) {
        auto positions = thrust::make_counting_iterator<int64_t>(0);
        return done(cub::DeviceSelect::Flagged(temp, *temp_bytes, positions, f, static_cast<int64_t *>(out), count, n,
                                               stream));
    }
    switch (item_bytes) {
    case 1: return done(select_typed<uint8_t>(temp, temp_bytes, in, f, out, count, n, stream));
    case 2: return done(select_typed<uint16_t>(temp, temp_bytes, in, f, out, count, n, stream));
    case 4: return done(select_typed<uint32_t>(temp, temp_bytes, in, f, out, count, n, stream));
    case 8: return done(select_typed<uint64_t>(temp, temp_bytes, in, f, out, count, n, stream));
    case 16: return done(select_typed<item16>(temp, temp_bytes, in, f, out, count, n, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

int ga__cub_count_flags(void *temp, size_t *temp_bytes, const void *flags, int64_t n, int64_t *count,
                        struct CUstream_st *stream)
{
    const uint8_t *f = static_cast<const uint8_t *>(flags);
    auto index = thrust::make_counting_iterator<int64_t>(0);
    if (reinterpret_cast<uintptr_t>(f) % 16 == 0) {
        auto counts = thrust::make_transform_iterator(index, chunk_count{f, n});
        return done(cub::DeviceReduce::Sum(temp, *temp_bytes, counts, count, (n + 15) / 16, stream));
    }
    auto counts = thrust::make_transform_iterator(index, byte_count{f});
    return done(cub::DeviceReduce::Sum(temp, *temp_bytes, counts, count, n, stream));
}

int ga__cub_unravel(int64_t *coords, int64_t n, int ndim, const int64_t *shape, struct CUstream_st *stream)
{
    if (n <= 0 || ndim <= 1) return 0;
    if (ndim > GA_MAXDIMS) return (int)cudaErrorInvalidValue;
    shape_arg s;
    for (int d = 0; d < ndim; d++) s.dim[d] = shape[d];
    unravel_kernel<<<grid_for(n), 256, 0, stream>>>(coords, n, ndim, s);
    return done(cudaGetLastError());
}

} // extern "C"
