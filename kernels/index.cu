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
         defined (as in CuPy), but for 16-byte elements: the last, in four
         launches (p.phase, p.won: see ga__put).

     ga_index_add_<dtype>(void *a, const void *values, const int64_t *idx, ga__take_params p)
         put's scatter adding instead of storing, atomically, so that every
         value at a repeated index is added (numpy.add.at). dtype is bool
         (logical or), int8/16/32/64 (the unsigned ones too: the same bits),
         float16, bfloat16, float32, float64, complex64, complex128 (each
         part atomically). The order of additions is not fixed.

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

/* A repeated index writes one element from several threads. A 16-byte
   element (complex128) must land whole, and a 16-byte store is two 8-byte
   ones to the memory model, which two threads could mix; so its puts run
   in four launches over the indices (p.phase), which also give NumPy's
   order, the last value winning:
     0: the first 8 bytes of every target element become 0;
     1: atomicMax of e + 1 into them: the last writer claims the element;
     2: p.won[e] = whether e's claim stands (read before anything is
        stored, so no element's data can pass for a claim);
     3: the winners store. */
template <int N>
static __device__ __forceinline__ void ga__put(void *a, const void *values, const int64_t *idx, const ga__take_params &p)
{
    typedef typename ga_raw<N>::type T;
    GA_GRID_STRIDE_LOOP(e, p.outer * p.count * p.inner)
    {
        T *dst = (T *)((char *)a + ga__indexed_offset(e, idx, p));
        if constexpr (N == 16) {
            unsigned long long *claim = (unsigned long long *)dst, mine = (unsigned long long)e + 1;
            uint8_t *won = (uint8_t *)p.won;
            if (p.phase == 0) *claim = 0;
            else if (p.phase == 1) atomicMax(claim, mine);
            else if (p.phase == 2) won[e] = *claim == mine;
            if (p.phase < 3 || !won[e]) continue;
        }
        *dst = ((const T *)values)[e % p.nvalues];
    }
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

/* --- add.at ------------------------------------------------------------------ */

/* *p += v for 1- and 2-byte T, by compare-and-swap on the aligned 32-bit
   word that holds it. */
template <class T, class Add>
static __device__ __forceinline__ void ga__atomic_add_narrow(T *p, T v, Add add)
{
    const uintptr_t addr = (uintptr_t)p;
    unsigned int *word = (unsigned int *)(addr & ~(uintptr_t)3);
    const unsigned int shift = (unsigned int)(addr & 3) * 8, mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        T cur;
        const uint16_t bits = (uint16_t)((assumed & mask) >> shift);
        memcpy(&cur, &bits, sizeof(T)); /* little-endian: the low bytes */
        const T sum = add(cur, v);
        uint16_t sbits = 0;
        memcpy(&sbits, &sum, sizeof(T));
        old = atomicCAS(word, assumed, (assumed & ~mask) | (((unsigned int)sbits << shift) & mask));
    } while (old != assumed);
}

struct ga__add_int {
    template <class T> __device__ T operator()(T a, T b) const { return (T)(a + b); }
};
struct ga__add_bf16 {
    __device__ __nv_bfloat16 operator()(__nv_bfloat16 a, __nv_bfloat16 b) const
    {
        return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b));
    }
};

static __device__ __forceinline__ void ga__atomic_add(ga_bool_t *p, ga_bool_t v)
{
    if (v.v) p->v = 1; /* logical or: every writer stores the same byte */
}
static __device__ __forceinline__ void ga__atomic_add(int8_t *p, int8_t v) { ga__atomic_add_narrow(p, v, ga__add_int()); }
static __device__ __forceinline__ void ga__atomic_add(int16_t *p, int16_t v) { ga__atomic_add_narrow(p, v, ga__add_int()); }
static __device__ __forceinline__ void ga__atomic_add(int32_t *p, int32_t v) { atomicAdd((int *)p, (int)v); }
static __device__ __forceinline__ void ga__atomic_add(int64_t *p, int64_t v)
{
    atomicAdd((unsigned long long *)p, (unsigned long long)v); /* two's complement: the same bits */
}
static __device__ __forceinline__ void ga__atomic_add(__half *p, __half v) { atomicAdd(p, v); }
static __device__ __forceinline__ void ga__atomic_add(__nv_bfloat16 *p, __nv_bfloat16 v)
{
#if __CUDA_ARCH__ >= 800
    atomicAdd(p, v);
#else
    ga__atomic_add_narrow(p, v, ga__add_bf16());
#endif
}
static __device__ __forceinline__ void ga__atomic_add(float *p, float v) { atomicAdd(p, v); }
static __device__ __forceinline__ void ga__atomic_add(double *p, double v) { atomicAdd(p, v); }
static __device__ __forceinline__ void ga__atomic_add(ga_complex64_t *p, ga_complex64_t v)
{
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}
static __device__ __forceinline__ void ga__atomic_add(ga_complex128_t *p, ga_complex128_t v)
{
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}

template <class T>
static __device__ __forceinline__ void ga__add_at(void *a, const void *values, const int64_t *idx, const ga__take_params &p)
{
    GA_GRID_STRIDE_LOOP(e, p.outer * p.count * p.inner)
    ga__atomic_add((T *)((char *)a + ga__indexed_offset(e, idx, p)), ((const T *)values)[e % p.nvalues]);
}

#define GA__ADD_KERNEL(name)                                                              \
    GA_KERNEL GA_KERNEL_NAME3(index, add, name)(void *a, const void *values, const int64_t *idx, \
                                                const __grid_constant__ ga__take_params p) \
    {                                                                                     \
        ga__add_at<ga_t_##name>(a, values, idx, p);                                       \
    }

GA__ADD_KERNEL(bool)
GA__ADD_KERNEL(int8)
GA__ADD_KERNEL(int16)
GA__ADD_KERNEL(int32)
GA__ADD_KERNEL(int64)
GA__ADD_KERNEL(float16)
GA__ADD_KERNEL(bfloat16)
GA__ADD_KERNEL(float32)
GA__ADD_KERNEL(float64)
GA__ADD_KERNEL(complex64)
GA__ADD_KERNEL(complex128)
