/* kernels/index.cu - family "index": gathers and scatters by integer indices.

     ga_index_take_<b8|b16|b32|b64|b128>(void *out, const void *a, const int64_t *idx,
                                         ga__take_params p)
         out, C-contiguous with shape (outer, count, inner), gets
         a[o, idx[o * p.idx_outer + j * p.idx_count + i * p.idx_inner], i]
         where a is addressed by byte strides (a_outer, a_axis, a_inner) and
         an index is taken modulo axis_len (wrap), clamped to [0, axis_len)
         (clip), or, in raise mode, already checked and only made positive.
         numpy.take and numpy.take_along_axis.

     ga_index_put_<b8|b16|b32|b64|b128>(void *a, const void *values, const int64_t *idx,
                                        ga__take_params p)
         the scatter of take: a[o, idx[...], i] = values[e % p.nvalues] for
         element e = (o, j, i) of (outer, count, inner), indices treated
         by mode as in take. numpy.put (values repeated cyclically) and
         numpy.put_along_axis. Repeated indices: which write lands is not
         defined (as in CuPy).

     ga_index_check_bounds(const int64_t *idx, int64_t n, int64_t limit,
                           unsigned long long *first)
         *first (set to ~0 by the host) becomes the smallest i with idx[i]
         outside [-limit, limit): the index an error message names.

   Grid-stride loops: any launch shape is correct. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

/* The byte offset in a of element e = (o, j, i) of a gather or scatter. */
static __device__ __forceinline__ int64_t ga__indexed_offset(int64_t e, const int64_t *idx, const ga__take_params &p)
{
    const int64_t per_outer = p.count * p.inner;
    const int64_t o = e / per_outer, rest = e - o * per_outer, j = rest / p.inner, i = rest - j * p.inner;
    int64_t k = idx[o * p.idx_outer + j * p.idx_count + i * p.idx_inner];
    if (p.mode == 1) { /* wrap */
        k %= p.axis_len;
        if (k < 0) k += p.axis_len;
    } else if (p.mode == 2) { /* clip */
        k = k < 0 ? 0 : k >= p.axis_len ? p.axis_len - 1 : k;
    } else if (k < 0) { /* raise: checked on the host side already */
        k += p.axis_len;
    }
    return o * p.a_outer + k * p.a_axis + i * p.a_inner;
}

template <int N>
static __device__ __forceinline__ void ga__take(void *out, const void *a, const int64_t *idx, const ga__take_params &p)
{
    typedef typename ga_raw<N>::type T;
    GA_GRID_STRIDE_LOOP(e, p.outer * p.count * p.inner)
    ((T *)out)[e] = *(const T *)((const char *)a + ga__indexed_offset(e, idx, p));
}

template <int N>
static __device__ __forceinline__ void ga__put(void *a, const void *values, const int64_t *idx, const ga__take_params &p)
{
    typedef typename ga_raw<N>::type T;
    GA_GRID_STRIDE_LOOP(e, p.outer * p.count * p.inner)
    *(T *)((char *)a + ga__indexed_offset(e, idx, p)) = ((const T *)values)[e % p.nvalues];
}

#define GA__TAKE_KERNEL(name, size)                                                       \
    GA_KERNEL GA_KERNEL_NAME3(index, take, name)(void *out, const void *a, const int64_t *idx, \
                                                 const __grid_constant__ ga__take_params p) \
    {                                                                                     \
        ga__take<size>(out, a, idx, p);                                                   \
    }

GA_FOR_EACH_ITEMSIZE(GA__TAKE_KERNEL)

#define GA__PUT_KERNEL(name, size)                                                        \
    GA_KERNEL GA_KERNEL_NAME3(index, put, name)(void *a, const void *values, const int64_t *idx, \
                                                const __grid_constant__ ga__take_params p) \
    {                                                                                     \
        ga__put<size>(a, values, idx, p);                                                 \
    }

GA_FOR_EACH_ITEMSIZE(GA__PUT_KERNEL)

GA_KERNEL ga_index_check_bounds(const int64_t *idx, int64_t n, int64_t limit, unsigned long long *first)
{
    GA_GRID_STRIDE_LOOP(i, n)
    {
        const int64_t k = idx[i];
        if (k < -limit || k >= limit) atomicMin(first, (unsigned long long)i);
    }
}
