/* sort.cu - the CUB glue's sorting of whole arrays and of segments: keys
   are unsigned bit patterns of 1, 2, 4, 8 or 16 bytes (signed, floating
   and complex keys go through an order-preserving transform first, keys.cuh),
   values are uint32 indices. This file sorts the keys of 1 and 2 bytes;
   sort_keys32.cu and sort_keys64.cu the wider ones (sort.cuh). Other
   translation units compile beside these: sort_values.cu, one sort of a
   whole array's real values as stored, and sort_rows.cu, rows of up to
   2048 keys one per block. */

#include <cub/version.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

#include "keys.cuh"
#include "sort.cuh"

namespace {

template <typename U>
__global__ void order_kernel(U *dst, const U *src, int64_t n, int kind, float_format<U> f, int inverse,
                             int merge_zero)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = inverse ? from_orderable(src[i], kind, f) : to_orderable(src[i], kind, f, merge_zero != 0);
}

/* Complex numbers of parts P, two words each, to their keys (glue.cuh) in
   two words, low half first, or back (inverse; a NaN part comes back as
   the positive quiet NaN). Zeros of either sign are one key. */
template <typename P>
__global__ void complex_order_kernel(P *dst, const P *src, int64_t n, float_format<P> f, int inverse)
{
    const P inf = complex_key<P>::inf;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        P a = src[2 * i], b = src[2 * i + 1], lo, hi;
        if (inverse) { /* a: the low half, b: the high half */
            P re, im;
            if (b <= inf) re = from_orderable(b, 'f', f), im = from_orderable(a, 'f', f);
            else if (b == inf + kImagNanCode) re = from_orderable(a, 'f', f), im = f.qnan;
            else if (b == inf + kRealNanCode) re = f.qnan, im = from_orderable(a, 'f', f);
            else re = im = f.qnan;
            dst[2 * i] = re;
            dst[2 * i + 1] = im;
            continue;
        }
        bool re_nan = is_nan_bits(a, f), im_nan = is_nan_bits(b, f);
        if (!re_nan && !im_nan) hi = to_orderable(a, 'f', f, true), lo = to_orderable(b, 'f', f, true);
        else if (!re_nan) hi = inf + kImagNanCode, lo = to_orderable(a, 'f', f, true);
        else if (!im_nan) hi = inf + kRealNanCode, lo = to_orderable(b, 'f', f, true);
        else hi = inf + kBothNanCode, lo = 0;
        dst[2 * i] = lo;
        dst[2 * i + 1] = hi;
    }
}

__global__ void order_kernel_int8(uint8_t *dst, const uint8_t *src, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = src[i] ^ 0x80u;
}

__global__ void iota_kernel(uint32_t *dst, int64_t n, int64_t period)
{
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, step = (int64_t)gridDim.x * blockDim.x;
    if (period >= n) { /* one segment: no division */
        for (; i < n; i += step) dst[i] = (uint32_t)i;
        return;
    }
    for (; i < n; i += step) dst[i] = (uint32_t)(i % period);
}

} // namespace

extern "C" {

int ga__cub_order_keys(void *dst, const void *src, int64_t n, int dtype, int inverse, int merge_zero,
                       struct CUstream_st *stream)
{
    if (n <= 0) return 0;
    int grid = grid_for(n);
    switch (dtype) {
    case GA_INT8:
        order_kernel_int8<<<grid, 256, 0, stream>>>((uint8_t *)dst, (const uint8_t *)src, n);
        break;
    case GA_INT16:
        order_kernel<uint16_t><<<grid, 256, 0, stream>>>((uint16_t *)dst, (const uint16_t *)src, n, 'i',
                                                         float_format<uint16_t>{0, 0, 0}, inverse, 0);
        break;
    case GA_INT32:
        order_kernel<uint32_t><<<grid, 256, 0, stream>>>((uint32_t *)dst, (const uint32_t *)src, n, 'i',
                                                         float_format<uint32_t>{0, 0, 0}, inverse, 0);
        break;
    case GA_INT64:
        order_kernel<uint64_t><<<grid, 256, 0, stream>>>((uint64_t *)dst, (const uint64_t *)src, n, 'i',
                                                         float_format<uint64_t>{0, 0, 0}, inverse, 0);
        break;
    case GA_FLOAT16:
        order_kernel<uint16_t><<<grid, 256, 0, stream>>>((uint16_t *)dst, (const uint16_t *)src, n, 'f',
                                                         float_format<uint16_t>{0x7c00u, 0x03ffu, 0x7e00u}, inverse,
                                                         merge_zero);
        break;
    case GA_BFLOAT16:
        order_kernel<uint16_t><<<grid, 256, 0, stream>>>((uint16_t *)dst, (const uint16_t *)src, n, 'f',
                                                         float_format<uint16_t>{0x7f80u, 0x007fu, 0x7fc0u}, inverse,
                                                         merge_zero);
        break;
    case GA_FLOAT32:
        order_kernel<uint32_t><<<grid, 256, 0, stream>>>(
            (uint32_t *)dst, (const uint32_t *)src, n, 'f',
            float_format<uint32_t>{0x7f800000u, 0x007fffffu, 0x7fc00000u}, inverse, merge_zero);
        break;
    case GA_FLOAT64:
        order_kernel<uint64_t><<<grid, 256, 0, stream>>>(
            (uint64_t *)dst, (const uint64_t *)src, n, 'f',
            float_format<uint64_t>{0x7ff0000000000000ull, 0x000fffffffffffffull, 0x7ff8000000000000ull}, inverse,
            merge_zero);
        break;
    case GA_COMPLEX64:
        complex_order_kernel<uint32_t><<<grid, 256, 0, stream>>>(
            (uint32_t *)dst, (const uint32_t *)src, n, float_format<uint32_t>{0x7f800000u, 0x007fffffu, 0x7fc00000u},
            inverse);
        break;
    case GA_COMPLEX128:
        complex_order_kernel<uint64_t><<<grid, 256, 0, stream>>>(
            (uint64_t *)dst, (const uint64_t *)src, n,
            float_format<uint64_t>{0x7ff0000000000000ull, 0x000fffffffffffffull, 0x7ff8000000000000ull}, inverse);
        break;
    default:
        return (int)cudaErrorInvalidValue;
    }
    return done(cudaGetLastError());
}

int ga__cub_sort(void *temp, size_t *temp_bytes, void *keys, void *keys_alt, void *vals, void *vals_alt,
                 int key_bytes, int64_t n, int64_t segment_length, int *selector, struct CUstream_st *stream)
{
    uint32_t *v = static_cast<uint32_t *>(vals), *va = static_cast<uint32_t *>(vals_alt);
    if (segment_length < 1) segment_length = n;
    if (temp && v && n > 0) { /* each element's index in its segment */
        iota_kernel<<<grid_for(n), 256, 0, stream>>>(v, n, segment_length);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return done(e);
    }
    switch (key_bytes) {
    case 1: return done(sort_keys<uint8_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 2: return done(sort_keys<uint16_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 4: return done(ga_cub::sort_keys32(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 8: return done(ga_cub::sort_keys64(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 16: return done(ga_cub::sort_keys128(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

const char *ga__cub_error_string(int error) { return cudaGetErrorString((cudaError_t)error); }

int ga__cub_version(void) { return CUB_VERSION; }

} // extern "C"
