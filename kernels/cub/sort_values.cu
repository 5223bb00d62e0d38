/* sort_values.cu - the CUB glue's one sort of a whole array's real values
   as stored (cub::DeviceRadixSort over the dtype itself: CUB's own order,
   then NaN moved after everything as NumPy has it), a translation unit of
   its own so that it compiles beside sort.cu. */

#include <cub/device/device_radix_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "glue.cuh"
#include "keys.cuh"

namespace {

/* CUB orders floating-point keys as numbers, -0.0 equal to +0.0 (so a
   stable sort keeps their input order, as NumPy's), and NaN by its bits:
   NaN with the sign bit set first, the others last. NumPy puts every NaN
   last: the leading run is counted (a binary search, one thread) and, when
   there is one, rotated to the end through a copy in scratch space. */
template <typename U>
__global__ void count_leading_negative_nan(const U *keys, int64_t n, float_format<U> f, int64_t *count)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const U x = keys[mid];
        if ((x & bits_of<U>::sign) && (x & f.exp) == f.exp && (x & f.man)) lo = mid + 1;
        else hi = mid;
    }
    *count = lo;
}

template <typename U> __global__ void copy_if_counted(U *dst, const U *src, int64_t n, const int64_t *count)
{
    if (*count == 0) return;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

template <typename U> __global__ void rotate_if_counted(U *dst, const U *src, int64_t n, const int64_t *count)
{
    const int64_t m = *count;
    if (m == 0) return;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = src[i < n - m ? i + m : i + m - n];
}

/* Scratch after CUB's: the count, then room for the keys (CUB's part is
   free again once the sort has run, and is reused when it is big enough). */
inline size_t round_up_256(size_t b) { return (b + 255) / 256 * 256; }

template <typename K, typename U>
cudaError_t sort_values_typed(void *temp, size_t *temp_bytes, const void *in, void *out, int64_t n,
                              const float_format<U> *nan, cudaStream_t stream)
{
    const K *kin = static_cast<const K *>(in);
    K *kout = static_cast<K *>(out);
    size_t cub_bytes = 0;
    cudaError_t e = cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, kin, kout, n, 0, (int)sizeof(K) * 8, stream);
    if (e != cudaSuccess) return e;
    const size_t keys_bytes = (size_t)n * sizeof(K);
    const size_t count_at = round_up_256(cub_bytes), buffer_at = cub_bytes >= keys_bytes ? 0 : count_at + 256;
    if (!temp) {
        *temp_bytes = nan ? (buffer_at ? buffer_at + keys_bytes : count_at + 256) : cub_bytes;
        return cudaSuccess;
    }
    e = cub::DeviceRadixSort::SortKeys(temp, cub_bytes, kin, kout, n, 0, (int)sizeof(K) * 8, stream);
    if (e != cudaSuccess || !nan) return e;
    int64_t *count = reinterpret_cast<int64_t *>(static_cast<char *>(temp) + count_at);
    U *buffer = reinterpret_cast<U *>(static_cast<char *>(temp) + buffer_at), *keys = static_cast<U *>(out);
    count_leading_negative_nan<U><<<1, 1, 0, stream>>>(keys, n, *nan, count);
    copy_if_counted<U><<<grid_for(n), 256, 0, stream>>>(buffer, keys, n, count);
    rotate_if_counted<U><<<grid_for(n), 256, 0, stream>>>(keys, buffer, n, count);
    return cudaGetLastError();
}

} // namespace

extern "C" {

int ga__cub_sort_values(void *temp, size_t *temp_bytes, const void *in, void *out, int dtype, int64_t n,
                        struct CUstream_st *stream)
{
    if (n <= 0) {
        if (!temp) *temp_bytes = 1;
        return 0;
    }
    const float_format<uint16_t> f16{0x7c00u, 0x03ffu, 0x7e00u}, bf16{0x7f80u, 0x007fu, 0x7fc0u};
    const float_format<uint32_t> f32{0x7f800000u, 0x007fffffu, 0x7fc00000u};
    const float_format<uint64_t> f64{0x7ff0000000000000ull, 0x000fffffffffffffull, 0x7ff8000000000000ull};
    switch (dtype) {
    case GA_BOOL: case GA_UINT8: return done(sort_values_typed<uint8_t, uint8_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_INT8: return done(sort_values_typed<int8_t, uint8_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_UINT16: return done(sort_values_typed<uint16_t, uint16_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_INT16: return done(sort_values_typed<int16_t, uint16_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_UINT32: return done(sort_values_typed<uint32_t, uint32_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_INT32: return done(sort_values_typed<int32_t, uint32_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_UINT64: return done(sort_values_typed<uint64_t, uint64_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_INT64: return done(sort_values_typed<int64_t, uint64_t>(temp, temp_bytes, in, out, n, nullptr, stream));
    case GA_FLOAT16: return done(sort_values_typed<__half, uint16_t>(temp, temp_bytes, in, out, n, &f16, stream));
    case GA_BFLOAT16:
        return done(sort_values_typed<__nv_bfloat16, uint16_t>(temp, temp_bytes, in, out, n, &bf16, stream));
    case GA_FLOAT32: return done(sort_values_typed<float, uint32_t>(temp, temp_bytes, in, out, n, &f32, stream));
    case GA_FLOAT64: return done(sort_values_typed<double, uint64_t>(temp, temp_bytes, in, out, n, &f64, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

} // extern "C"
