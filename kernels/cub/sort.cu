/* sort.cu - the CUB glue's sorting: keys are unsigned bit patterns of 1, 2,
   4, 8 or 16 bytes (signed, floating and complex keys go through an
   order-preserving transform first), values are uint32 indices. Rows of up
   to 2048 keys are sorted one per block (cub::BlockRadixSort), the
   transform applied as the keys are loaded and stored. One sort of a whole
   array's real values takes them as stored (CUB's own order, NaN placed
   after). */

#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/version.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glue.cuh"

namespace {

/* --- order-preserving key transforms ------------------------------------ */

template <typename U> struct bits_of;
template <> struct bits_of<uint8_t> { static constexpr uint8_t sign = 0x80u; };
template <> struct bits_of<uint16_t> { static constexpr uint16_t sign = 0x8000u; };
template <> struct bits_of<uint32_t> { static constexpr uint32_t sign = 0x80000000u; };
template <> struct bits_of<uint64_t> { static constexpr uint64_t sign = 0x8000000000000000ull; };

/* The exponent mask and the quiet NaN written back for a float format. */
template <typename U> struct float_format {
    U exp, man, qnan;
};

template <typename U> __device__ __forceinline__ bool is_nan_bits(U x, float_format<U> f)
{
    return (x & f.exp) == f.exp && (x & f.man);
}

template <typename U>
__device__ __forceinline__ U to_orderable(U x, int kind, float_format<U> f, bool merge_zero)
{
    const U sign = bits_of<U>::sign;
    if (kind == 'u') return x;
    if (kind == 'i') return x ^ sign;
    /* floats: NaN (any sign, any payload) is all ones, after everything;
       -0.0 equals +0.0 when merge_zero, else sorts just before it. */
    if (is_nan_bits(x, f)) return (U)~(U)0;
    if (merge_zero && x == sign) x = 0;
    return (x & sign) ? (U)~x : (U)(x | sign);
}

template <typename U>
__device__ __forceinline__ U from_orderable(U x, int kind, float_format<U> f)
{
    const U sign = bits_of<U>::sign;
    if (kind == 'u') return x;
    if (kind == 'i') return x ^ sign;
    if (x == (U)~(U)0) return f.qnan;
    return (x & sign) ? (U)(x & ~sign) : (U)~x;
}

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

/* --- sorting -------------------------------------------------------------- */

/* Offsets of equal segments: i * length. */
struct segment_offset {
    int64_t length;
    __host__ __device__ int64_t operator()(int64_t i) const { return i * length; }
};

template <typename K>
cudaError_t sort_typed(void *temp, size_t *temp_bytes, void *keys, void *keys_alt, uint32_t *vals, uint32_t *vals_alt,
                       int64_t n, int64_t seg, int *selector, cudaStream_t stream)
{
    cub::DoubleBuffer<K> k(static_cast<K *>(keys), static_cast<K *>(keys_alt));
    cudaError_t e = cudaErrorInvalidValue;
    if (seg >= n) { /* one segment: onesweep radix sort */
        if (vals) {
            cub::DoubleBuffer<uint32_t> v(vals, vals_alt);
            e = cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, k, v, n, 0, (int)sizeof(K) * 8, stream);
        } else {
            e = cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, k, n, 0, (int)sizeof(K) * 8, stream);
        }
    } else if constexpr (sizeof(K) < 16) { /* 16-byte keys: one segment only */
        auto begin = thrust::make_transform_iterator(thrust::make_counting_iterator<int64_t>(0), segment_offset{seg});
        auto end = begin + 1;
        int64_t nseg = n / seg;
        if (vals) {
            cub::DoubleBuffer<uint32_t> v(vals, vals_alt);
            e = cub::DeviceSegmentedSort::StableSortPairs(temp, *temp_bytes, k, v, n, nseg, begin, end, stream);
        } else {
            e = cub::DeviceSegmentedSort::StableSortKeys(temp, *temp_bytes, k, n, nseg, begin, end, stream);
        }
    }
    if (temp && e == cudaSuccess) *selector = k.selector;
    return e;
}

/* --- one sort of values as stored ----------------------------------------- */

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

/* --- rows sorted one per block ------------------------------------------- */

/* Each block sorts rows of `length` <= Threads * Items keys: loaded in
   blocked order (element j of the row is item j % Items of thread j /
   Items, so the stable block sort keeps equal keys in row order), padded
   with all-ones keys (after every real key, or equal and after it by
   stability), stored in striped order; with Arg, each key's position in
   its row as int64 instead of the keys. */
template <typename U, int Threads, int Items, bool Arg>
__global__ void __launch_bounds__(Threads)
    sort_rows_kernel(const U *in, U *out, int64_t *index, int64_t rows, int length, int kind, float_format<U> f,
                     int merge_zero)
{
    using Value = typename std::conditional<Arg, int, cub::NullType>::type;
    using Sort = cub::BlockRadixSort<U, Threads, Items, Value>;
    __shared__ typename Sort::TempStorage temp;
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const U *src = in + row * length;
        U keys[Items];
        Value vals[Items];
#pragma unroll
        for (int i = 0; i < Items; i++) {
            int j = (int)threadIdx.x * Items + i;
            keys[i] = j < length ? to_orderable(src[j], kind, f, merge_zero != 0) : (U)~(U)0;
            if constexpr (Arg) vals[i] = j;
        }
        if constexpr (Arg) Sort(temp).SortBlockedToStriped(keys, vals);
        else Sort(temp).SortBlockedToStriped(keys);
#pragma unroll
        for (int i = 0; i < Items; i++) {
            int j = i * Threads + (int)threadIdx.x;
            if (j < length) {
                if constexpr (Arg) index[row * length + j] = vals[i];
                else out[row * length + j] = from_orderable(keys[i], kind, f);
            }
        }
        __syncthreads(); /* temp is reused by the next row */
    }
}

template <typename U, int Threads, int Items>
cudaError_t sort_rows_launch(const void *in, void *out, int64_t *index, int64_t rows, int length, int kind,
                             float_format<U> f, int merge_zero, cudaStream_t stream)
{
    int grid = rows < 65535 * 16 ? (int)rows : 65535 * 16;
    if (index)
        sort_rows_kernel<U, Threads, Items, true><<<grid, Threads, 0, stream>>>(
            static_cast<const U *>(in), nullptr, index, rows, length, kind, f, merge_zero);
    else
        sort_rows_kernel<U, Threads, Items, false><<<grid, Threads, 0, stream>>>(
            static_cast<const U *>(in), static_cast<U *>(out), nullptr, rows, length, kind, f, merge_zero);
    return cudaGetLastError();
}

template <typename U>
cudaError_t sort_rows_typed(const void *in, void *out, int64_t *index, int64_t rows, int length, int kind,
                            float_format<U> f, int merge_zero, cudaStream_t stream)
{
    if (length <= 512) return sort_rows_launch<U, 128, 4>(in, out, index, rows, length, kind, f, merge_zero, stream);
    if (length <= 1024) return sort_rows_launch<U, 128, 8>(in, out, index, rows, length, kind, f, merge_zero, stream);
    return sort_rows_launch<U, 256, 8>(in, out, index, rows, length, kind, f, merge_zero, stream);
}

} // namespace

extern "C" {

int ga__cub_sort_rows(const void *in, void *out, int64_t *index, int dtype, int64_t rows, int64_t length,
                      int merge_zero, struct CUstream_st *stream)
{
    if (length < 1 || length > GA__CUB_SORT_ROWS_MAX) return (int)cudaErrorInvalidValue;
    if (rows <= 0) return 0;
    int len = (int)length;
    switch (dtype) {
    case GA_BOOL: case GA_UINT8:
        return done(sort_rows_typed<uint8_t>(in, out, index, rows, len, 'u', float_format<uint8_t>{0, 0, 0}, 0, stream));
    case GA_INT8:
        return done(sort_rows_typed<uint8_t>(in, out, index, rows, len, 'i', float_format<uint8_t>{0, 0, 0}, 0, stream));
    case GA_UINT16: case GA_INT16:
        return done(sort_rows_typed<uint16_t>(in, out, index, rows, len, dtype == GA_INT16 ? 'i' : 'u',
                                              float_format<uint16_t>{0, 0, 0}, 0, stream));
    case GA_FLOAT16:
        return done(sort_rows_typed<uint16_t>(in, out, index, rows, len, 'f',
                                              float_format<uint16_t>{0x7c00u, 0x03ffu, 0x7e00u}, merge_zero, stream));
    case GA_BFLOAT16:
        return done(sort_rows_typed<uint16_t>(in, out, index, rows, len, 'f',
                                              float_format<uint16_t>{0x7f80u, 0x007fu, 0x7fc0u}, merge_zero, stream));
    case GA_UINT32: case GA_INT32:
        return done(sort_rows_typed<uint32_t>(in, out, index, rows, len, dtype == GA_INT32 ? 'i' : 'u',
                                              float_format<uint32_t>{0, 0, 0}, 0, stream));
    case GA_FLOAT32:
        return done(sort_rows_typed<uint32_t>(in, out, index, rows, len, 'f',
                                              float_format<uint32_t>{0x7f800000u, 0x007fffffu, 0x7fc00000u},
                                              merge_zero, stream));
    case GA_UINT64: case GA_INT64:
        return done(sort_rows_typed<uint64_t>(in, out, index, rows, len, dtype == GA_INT64 ? 'i' : 'u',
                                              float_format<uint64_t>{0, 0, 0}, 0, stream));
    case GA_FLOAT64:
        return done(sort_rows_typed<uint64_t>(
            in, out, index, rows, len, 'f',
            float_format<uint64_t>{0x7ff0000000000000ull, 0x000fffffffffffffull, 0x7ff8000000000000ull}, merge_zero,
            stream));
    default:
        return (int)cudaErrorInvalidValue;
    }
}


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
    case 1: return done(sort_typed<uint8_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 2: return done(sort_typed<uint16_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 4: return done(sort_typed<uint32_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 8: return done(sort_typed<uint64_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    case 16: return done(sort_typed<__uint128_t>(temp, temp_bytes, keys, keys_alt, v, va, n, segment_length, selector, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

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

const char *ga__cub_error_string(int error) { return cudaGetErrorString((cudaError_t)error); }

int ga__cub_version(void) { return CUB_VERSION; }

} // extern "C"
