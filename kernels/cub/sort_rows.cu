/* sort_rows.cu - the CUB glue's sort of short rows: rows of up to 2048
   keys sorted one per block (cub::BlockRadixSort), the order-preserving
   transform of keys.cuh applied as the keys are loaded and stored. */

#include <cub/block/block_radix_sort.cuh>
#include <type_traits>

#include "glue.cuh"
#include "keys.cuh"

namespace {

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

} // extern "C"
