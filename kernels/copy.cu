/* kernels/copy.cu - family "copy": astype / copy between any two dtypes.

   For each of the 15 x 15 (from, to) dtype pairs (same-dtype pairs serve
   plain strided copies):

     ga_copy_astype_<from>_<to>_contig(void *out, const void *in, int64_t n)
         out[i] = cast(in[i]) for i < n, both C-contiguous. 16-byte vectors
         when both pointers are 16-byte aligned, else element by element.

     ga_copy_astype_<from>_<to>_strided32(void *out, const void *in, ga__copy_layout layout)
     ga_copy_astype_<from>_<to>_strided64(void *out, const void *in, ga__copy_layout layout)
         element i (C order over layout.shape) goes from
         in + sum(idx_d * in_strides[d]) to out + sum(idx_d * out_strides[d]).
         strided32: size < 2^31 and every byte offset fits int32.

   and, by item size only (a transpose moves bytes, it does not convert):

     ga_copy_transpose_<b8|b16|b32|b64|b128>(void *out, const void *in, ga__copy_layout layout)
         layout.ndim == 3, shape (batch, rows, cols) of the output; the
         output is contiguous along cols and the input along rows (the
         host checks: out_strides[2] and in_strides[1] are the item size).
         Square tiles pass through shared memory, so both sides are read
         and written along their contiguous dimension. 256-thread blocks;
         a grid-stride loop over tiles.

     ga_copy_tri_<b8|b16|b32|b64|b128>(void *out, const void *in, ga__copy_layout layout,
                                       int64_t k, int32_t lower)
         layout.ndim == 3, shape (batch, rows, cols); element (b, r, c) is
         copied from the strided input to the strided output where
         c - r <= k (lower) or c - r >= k (upper), and zero bytes are
         written elsewhere: numpy.tril / triu (and tri, from a broadcast 1).

   Every element address must be aligned to its dtype's natural alignment
   (complex128: 8 bytes). Grid-stride loops: any launch shape is correct. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

template <class From, class To, class UI>
static __device__ __forceinline__ void ga__copy_strided(void *out, const void *in,
                                                        const ga__copy_layout &layout)
{
    const int64_t n = layout.size;
    const int64_t t0 = ga_thread_index();
    if (t0 >= n)
        return;
    int64_t nt = ga_thread_count();
    if (nt > n)
        nt = n;
    const UI step = (UI)nt, end = (UI)n;
    for (UI i = (UI)t0; i < end; i += step) {
        int64_t oo, oi;
        ga_copy_layout_offsets<UI>(layout, i, oo, oi);
        ga_store<To>((char *)out + oo, ga_cast<To>(ga_load<From>((const char *)in + oi)));
    }
}

#define GA__COPY_KERNELS(from, to)                                                        \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), contig)(                 \
        void *out, const void *in, int64_t n)                                             \
    {                                                                                     \
        ga_convert_contig<ga_t_##from, ga_t_##to>(out, in, n);                            \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), strided32)(              \
        void *out, const void *in, const __grid_constant__ ga__copy_layout layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint32_t>(out, in, layout);              \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), strided64)(              \
        void *out, const void *in, const __grid_constant__ ga__copy_layout layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint64_t>(out, in, layout);              \
    }

GA_FOR_EACH_DTYPE_PAIR(GA__COPY_KERNELS)

/* ------------------------------------------------------------------------ */
/* Tiled transpose                                                           */
/* ------------------------------------------------------------------------ */

/* Tiles of TILE x TILE elements (64 for items up to 4 bytes, 32 above, so
   a tile stays under 48 KB), moved by 256 threads: each thread loads
   TILE * TILE / 256 elements before storing any, to keep many loads in
   flight. Full tiles skip the bounds checks. */
template <int N>
static __device__ __forceinline__ void ga__transpose(void *out, const void *in, const ga__copy_layout &L)
{
    typedef typename ga_raw<N>::type T;
    constexpr int TILE = N <= 4 ? 64 : 32, ROWS = 256 / TILE, PER = TILE / ROWS;
    __shared__ T tile[TILE][TILE + 1]; /* +1: no bank conflicts on the column walk */
    const int64_t batch = L.shape[0], rows = L.shape[1], cols = L.shape[2];
    const int64_t row_tiles = (rows + TILE - 1) / TILE, col_tiles = (cols + TILE - 1) / TILE;
    const int64_t tiles = batch * row_tiles * col_tiles;
    const int64_t is1 = L.in_strides[1], is2 = L.in_strides[2], os1 = L.out_strides[1], os2 = L.out_strides[2];
    const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int64_t b = t / (row_tiles * col_tiles), rc = t - b * (row_tiles * col_tiles);
        const int64_t r0 = rc / col_tiles * TILE, c0 = (rc - rc / col_tiles * col_tiles) * TILE;
        const bool full = r0 + TILE <= rows && c0 + TILE <= cols;
        /* read along rows, contiguous in the input: element (r0 + tx, c0 + ty + k * ROWS) */
        const char *src = (const char *)in + b * L.in_strides[0] + (r0 + tx) * is1 + (c0 + ty) * is2;
        T v[PER];
        if (full) {
#pragma unroll
            for (int k = 0; k < PER; k++) v[k] = *(const T *)(src + k * ROWS * is2);
        } else {
#pragma unroll
            for (int k = 0; k < PER; k++)
                if (r0 + tx < rows && c0 + ty + k * ROWS < cols) v[k] = *(const T *)(src + k * ROWS * is2);
        }
#pragma unroll
        for (int k = 0; k < PER; k++) tile[ty + k * ROWS][tx] = v[k];
        __syncthreads();
        /* write along cols, contiguous in the output: element (r0 + ty + k * ROWS, c0 + tx) */
        char *dst = (char *)out + b * L.out_strides[0] + (r0 + ty) * os1 + (c0 + tx) * os2;
        if (full) {
#pragma unroll
            for (int k = 0; k < PER; k++) *(T *)(dst + k * ROWS * os1) = tile[tx][ty + k * ROWS];
        } else {
#pragma unroll
            for (int k = 0; k < PER; k++)
                if (r0 + ty + k * ROWS < rows && c0 + tx < cols) *(T *)(dst + k * ROWS * os1) = tile[tx][ty + k * ROWS];
        }
        __syncthreads();
    }
}

#define GA__TRANSPOSE_KERNEL(name, size)                                                  \
    GA_KERNEL GA_KERNEL_NAME3(copy, transpose, name)(void *out, const void *in,           \
                                                     const __grid_constant__ ga__copy_layout layout) \
    {                                                                                     \
        ga__transpose<size>(out, in, layout);                                             \
    }

GA_FOR_EACH_ITEMSIZE(GA__TRANSPOSE_KERNEL)

/* ------------------------------------------------------------------------ */
/* Triangles (tril, triu, tri)                                               */
/* ------------------------------------------------------------------------ */

template <int N>
static __device__ __forceinline__ void ga__tri(void *out, const void *in, const ga__copy_layout &L, int64_t k, bool lower)
{
    typedef typename ga_raw<N>::type T;
    const int64_t rows = L.shape[1], cols = L.shape[2], plane = rows * cols;
    GA_GRID_STRIDE_LOOP(i, L.size)
    {
        const int64_t b = i / plane, rc = i - b * plane, r = rc / cols, c = rc - r * cols;
        const bool keep = lower ? c - r <= k : c - r >= k;
        T v;
        if (keep) v = *(const T *)((const char *)in + b * L.in_strides[0] + r * L.in_strides[1] + c * L.in_strides[2]);
        else memset(&v, 0, sizeof v);
        *(T *)((char *)out + b * L.out_strides[0] + r * L.out_strides[1] + c * L.out_strides[2]) = v;
    }
}

#define GA__TRI_KERNEL(name, size)                                                        \
    GA_KERNEL GA_KERNEL_NAME3(copy, tri, name)(void *out, const void *in,                 \
                                               const __grid_constant__ ga__copy_layout layout, \
                                               int64_t k, int32_t lower)                  \
    {                                                                                     \
        ga__tri<size>(out, in, layout, k, lower != 0);                                    \
    }

GA_FOR_EACH_ITEMSIZE(GA__TRI_KERNEL)
