/* kernels/copy.cu - family "copy": astype / copy between any two dtypes.

   For each of the 15 x 15 (from, to) dtype pairs (same-dtype pairs serve
   plain strided copies):

     ga_copy_astype_<from>_<to>_contig(void *out, const void *in, int64_t n)
         out[i] = cast(in[i]) for i < n, both C-contiguous. 16-byte vectors
         when both pointers are 16-byte aligned, else element by element.

     ga_copy_astype_<from>_<to>_strided32(void *out, const void *in, ga__layout2 layout)
     ga_copy_astype_<from>_<to>_strided64(void *out, const void *in, ga__layout2 layout)
         element i (C order over layout.shape) goes from
         in + sum(idx_d * in_strides[d]) to out + sum(idx_d * out_strides[d]).
         strided32: size < 2^31 and every byte offset fits int32.

   and, by item size only (a transpose moves bytes, it does not convert):

     ga_copy_transpose_<b8|b16|b32|b64|b128>(void *out, const void *in, ga__layout2 layout)
         layout.ndim == 3, shape (batch, rows, cols) of the output; the
         output is contiguous along cols and the input along rows (the
         host checks: out_strides[2] and in_strides[1] are the item size).
         32 x 32 tiles pass through shared memory, so both sides are read
         and written along their contiguous dimension. 256-thread blocks;
         a grid-stride loop over tiles.

   Every element address must be aligned to its dtype's natural alignment
   (complex128: 8 bytes). Grid-stride loops: any launch shape is correct. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

template <class From, class To, class UI>
static __device__ __forceinline__ void ga__copy_strided(void *out, const void *in,
                                                        const ga__layout2 &layout)
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
        ga_layout2_offsets<UI>(layout, i, oo, oi);
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
        void *out, const void *in, const __grid_constant__ ga__layout2 layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint32_t>(out, in, layout);              \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(copy, astype, GA_DTYPES2(from, to), strided64)(              \
        void *out, const void *in, const __grid_constant__ ga__layout2 layout)            \
    {                                                                                     \
        ga__copy_strided<ga_t_##from, ga_t_##to, uint64_t>(out, in, layout);              \
    }

GA_FOR_EACH_DTYPE_PAIR(GA__COPY_KERNELS)

/* ------------------------------------------------------------------------ */
/* Tiled transpose                                                           */
/* ------------------------------------------------------------------------ */

/* An element moved as raw bytes (16-byte elements need only 8-byte alignment). */
struct ga__bytes16 {
    uint64_t lo, hi;
};
template <int N> struct ga__raw;
template <> struct ga__raw<1> { typedef uint8_t type; };
template <> struct ga__raw<2> { typedef uint16_t type; };
template <> struct ga__raw<4> { typedef uint32_t type; };
template <> struct ga__raw<8> { typedef uint64_t type; };
template <> struct ga__raw<16> { typedef ga__bytes16 type; };

#define GA__TILE 32
#define GA__TILE_ROWS 8 /* 256 threads: each moves 4 elements of a tile */

template <int N>
static __device__ __forceinline__ void ga__transpose(void *out, const void *in, const ga__layout2 &L)
{
    typedef typename ga__raw<N>::type T;
    __shared__ T tile[GA__TILE][GA__TILE + 1]; /* +1: no bank conflicts on the column walk */
    const int64_t batch = L.shape[0], rows = L.shape[1], cols = L.shape[2];
    const int64_t row_tiles = (rows + GA__TILE - 1) / GA__TILE, col_tiles = (cols + GA__TILE - 1) / GA__TILE;
    const int64_t tiles = batch * row_tiles * col_tiles;
    const int tx = threadIdx.x % GA__TILE, ty = threadIdx.x / GA__TILE;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int64_t b = t / (row_tiles * col_tiles), rc = t % (row_tiles * col_tiles);
        const int64_t r0 = rc / col_tiles * GA__TILE, c0 = rc % col_tiles * GA__TILE;
        const char *src = (const char *)in + b * L.in_strides[0];
        char *dst = (char *)out + b * L.out_strides[0];
        /* read along rows, contiguous in the input */
        const int64_t r = r0 + tx;
        for (int j = ty; j < GA__TILE; j += GA__TILE_ROWS) {
            const int64_t c = c0 + j;
            if (r < rows && c < cols)
                tile[j][tx] = *(const T *)(src + r * L.in_strides[1] + c * L.in_strides[2]);
        }
        __syncthreads();
        /* write along cols, contiguous in the output */
        const int64_t c = c0 + tx;
        for (int j = ty; j < GA__TILE; j += GA__TILE_ROWS) {
            const int64_t rr = r0 + j;
            if (rr < rows && c < cols)
                *(T *)(dst + rr * L.out_strides[1] + c * L.out_strides[2]) = tile[tx][j];
        }
        __syncthreads();
    }
}

#define GA__TRANSPOSE_KERNEL(name, size)                                                  \
    GA_KERNEL GA_KERNEL_NAME3(copy, transpose, name)(void *out, const void *in,           \
                                                     const __grid_constant__ ga__layout2 layout) \
    {                                                                                     \
        ga__transpose<size>(out, in, layout);                                             \
    }

GA_FOR_EACH_ITEMSIZE(GA__TRANSPOSE_KERNEL)
