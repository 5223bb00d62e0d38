/* kernels/linalg.cu - family "linalg": the products cuBLAS has no type for.

     ga_linalg_matmul_<bool|int8|int16|int32|int64|uint8|uint16|uint32|uint64>(
         void *c, const void *a, const void *b, ga__imatmul_params p)
         NumPy's integer and bool matmul: c[q, i, j] = sum over t < k of
         a[q, i, t] * b[q, t, j] for the p.count matrices of the batch, in
         the dtype with wrap-around (products and sums in a wider unsigned
         type agree with the dtype's modulo its width); bool: any(a and b).
         Strides in elements (batch, row, column), one thread per element of
         c, any launch shape (a grid-stride loop). */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

/* The unsigned type the products and sums of T wrap in. */
template <class T> struct ga__imatmul_wide { typedef uint32_t type; };
template <> struct ga__imatmul_wide<int64_t> { typedef uint64_t type; };
template <> struct ga__imatmul_wide<uint64_t> { typedef uint64_t type; };

template <class T>
__device__ __forceinline__ void ga__imatmul(T *c, const T *a, const T *b, const ga__imatmul_params &p)
{
    const int64_t per = p.m * p.n, total = per * p.count;
    GA_GRID_STRIDE_LOOP(e, total)
    {
        const int64_t q = e / per, r = e - q * per, i = r / p.n, j = r - i * p.n;
        const T *x = a + q * p.a[0] + i * p.a[1];
        const T *y = b + q * p.b[0] + j * p.b[2];
        T *z = c + q * p.c[0] + i * p.c[1] + j * p.c[2];
        if constexpr (ga__same<T, ga_bool_t>::value) {
            bool s = false;
            for (int64_t t = 0; t < p.k && !s; t++) s = x[t * p.a[2]].v && y[t * p.b[1]].v;
            z->v = s ? 1 : 0;
        } else {
            typedef typename ga__imatmul_wide<T>::type W;
            W s = 0;
            for (int64_t t = 0; t < p.k; t++) s += (W)x[t * p.a[2]] * (W)y[t * p.b[1]];
            *z = (T)s;
        }
    }
}

#define GA__IMATMUL_KERNEL(name)                                                                   \
    GA_KERNEL GA_KERNEL_NAME3(linalg, matmul, name)(void *c, const void *a, const void *b,      \
                                                    ga__imatmul_params p)                         \
    {                                                                                             \
        ga__imatmul<ga_t_##name>((ga_t_##name *)c, (const ga_t_##name *)a, (const ga_t_##name *)b, p); \
    }

GA__IMATMUL_KERNEL(bool)
GA__IMATMUL_KERNEL(int8)
GA__IMATMUL_KERNEL(int16)
GA__IMATMUL_KERNEL(int32)
GA__IMATMUL_KERNEL(int64)
GA__IMATMUL_KERNEL(uint8)
GA__IMATMUL_KERNEL(uint16)
GA__IMATMUL_KERNEL(uint32)
GA__IMATMUL_KERNEL(uint64)
