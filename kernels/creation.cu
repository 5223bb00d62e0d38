/* kernels/creation.cu - family "creation": fill, eye, arange, linspace.

     ga_creation_fill_<b8|b16|b32|b64|b128>(void *out, int64_t n, ga__value16 value)
         n contiguous elements of 1/2/4/8/16 bytes, each the first itemsize
         bytes of `value` (little endian). Any address (head and tail bytes
         are written one by one, the rest as aligned 16-byte vectors).

     ga_creation_eye_<b8|...|b128>(void *out, int64_t rows, int64_t cols, int64_t k,
                                   ga__value16 one)
         every element of the C-contiguous rows x cols matrix: `one` where
         col - row == k, zero bytes elsewhere.

     ga_creation_arange_<dtype>(void *out, int64_t n, ga__arange_params p)
         NumPy's fill: integers and bool: (T)(istart + i * idelta), wrapping
         int64 arithmetic (bool: nonzero). Floating: start + i * delta in the
         dtype's precision (float32 for float16, bfloat16 and complex64,
         float64 for float64 and complex128), one rounding per operation, no
         FMA; elements 0 and 1 are NumPy's stored first two values (start
         and second: start + delta need not round back to the second);
         imaginary parts are 0.

     ga_creation_linspace_<dtype>(void *out, int64_t n, ga__linspace_params p)
         numpy.linspace / logspace computed in float64, see below.

   Every kernel takes any launch shape (grid-stride loops). */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

/* ------------------------------------------------------------------------ */
/* fill                                                                      */
/* ------------------------------------------------------------------------ */

/* 16 bytes of the element pattern (S bytes repeated), rotated right by r
   bytes: byte j of the result is byte (j + r) % S of the element. */
template <int S> __device__ __forceinline__ void ga__pattern16(ga__value16 v, unsigned r,
                                                              uint64_t &lo, uint64_t &hi)
{
    lo = v.word[0];
    hi = v.word[1];
    if constexpr (S < 16) {
        if constexpr (S < 8) {
            lo &= (1ull << (8 * (S & 7))) - 1;
#pragma unroll
            for (int w = S; w < 8; w *= 2)
                lo |= lo << (8 * w);
        }
        hi = lo;
    }
    if (r >= 8) {
        const uint64_t t = lo;
        lo = hi;
        hi = t;
        r -= 8;
    }
    if (r) {
        const uint64_t nlo = (lo >> (8 * r)) | (hi << (64 - 8 * r));
        const uint64_t nhi = (hi >> (8 * r)) | (lo << (64 - 8 * r));
        lo = nlo;
        hi = nhi;
    }
}

template <int S> __device__ __forceinline__ uint8_t ga__value_byte(ga__value16 v, unsigned j)
{
    /* byte j (< S) of the element */
    return (uint8_t)((j < 8 ? v.word[0] >> (8 * j) : v.word[1] >> (8 * (j - 8))) & 0xff);
}

template <int S> __device__ __forceinline__ void ga__fill(void *out, int64_t n, ga__value16 value)
{
    char *p = (char *)out;
    const int64_t bytes = n * S;
    const uintptr_t a = (uintptr_t)p;
    int64_t head = (int64_t)((16 - (a & 15)) & 15);
    if (head > bytes)
        head = bytes;
    const int64_t nvec = (bytes - head) / 16;
    const int64_t tail0 = head + nvec * 16;
    const int64_t t0 = ga_thread_index(), nt = ga_thread_count();

    uint64_t lo, hi;
    ga__pattern16<S>(value, (unsigned)(head % S), lo, hi);
    uint4 pat;
    pat.x = (unsigned)lo;
    pat.y = (unsigned)(lo >> 32);
    pat.z = (unsigned)hi;
    pat.w = (unsigned)(hi >> 32);
    uint4 *v = (uint4 *)(p + head);
    for (int64_t i = t0; i < nvec; i += nt)
        ga_store16(v + i, pat);

    /* at most 15 bytes before the first vector and 15 after the last */
    if (t0 < head)
        p[t0] = (char)ga__value_byte<S>(value, (unsigned)(t0 % S));
    if (t0 < bytes - tail0)
        p[tail0 + t0] = (char)ga__value_byte<S>(value, (unsigned)((tail0 + t0) % S));
}

/* ------------------------------------------------------------------------ */
/* eye                                                                       */
/* ------------------------------------------------------------------------ */

template <int S> struct ga__uint_of_size;
template <> struct ga__uint_of_size<1> { typedef uint8_t type; };
template <> struct ga__uint_of_size<2> { typedef uint16_t type; };
template <> struct ga__uint_of_size<4> { typedef uint32_t type; };
template <> struct ga__uint_of_size<8> { typedef uint64_t type; };

/* q = x / d, r = x % d for x >= 0, d > 0; 32-bit division when both fit. */
__device__ __forceinline__ void ga__divmod(int64_t x, int64_t d, int64_t &q, int64_t &r)
{
    if (((uint64_t)x | (uint64_t)d) >> 32) {
        q = (int64_t)((uint64_t)x / (uint64_t)d);
    } else {
        q = (int64_t)((uint32_t)x / (uint32_t)d);
    }
    r = x - q * d;
}

template <int S>
__device__ __forceinline__ void ga__eye(void *out, int64_t rows, int64_t cols, int64_t k,
                                        ga__value16 one)
{
    const int64_t n = rows * cols;
    const int64_t t0 = ga_thread_index(), nt = ga_thread_count();
    int64_t done = 0;
    if (n == 0)
        return;
    if (ga_aligned16(out)) {
        /* E elements per 16-byte vector; S < 16 elements are assembled in
           two 64-bit words. */
        constexpr int E = 16 / S;
        const int64_t nvec = n / E;
        uint4 *v = (uint4 *)out;
        for (int64_t i = t0; i < nvec; i += nt) {
            int64_t r, c;
            ga__divmod(i * E, cols, r, c);
            uint64_t w[2] = {0, 0};
            if (S == 16) {
                if (c - r == k) {
                    w[0] = one.word[0];
                    w[1] = one.word[1];
                }
            } else {
                const uint64_t bits =
                    S == 8 ? one.word[0] : one.word[0] & ((1ull << (8 * (S & 7))) - 1);
#pragma unroll
                for (int j = 0; j < E; ++j) {
                    if (c - r == k)
                        w[j * S / 8] |= bits << (8 * ((j * S) & 7));
                    if (++c == cols) {
                        c = 0;
                        ++r;
                    }
                }
            }
            uint4 o;
            o.x = (unsigned)w[0];
            o.y = (unsigned)(w[0] >> 32);
            o.z = (unsigned)w[1];
            o.w = (unsigned)(w[1] >> 32);
            ga_store16(v + i, o);
        }
        done = nvec * E;
    }
    for (int64_t i = done + t0; i < n; i += nt) {
        int64_t r, c;
        ga__divmod(i, cols, r, c);
        const bool diag = c - r == k;
        char *p = (char *)out + i * S;
        if constexpr (S == 16) {
            ((uint64_t *)p)[0] = diag ? one.word[0] : 0;
            ((uint64_t *)p)[1] = diag ? one.word[1] : 0;
        } else {
            typedef typename ga__uint_of_size<S>::type U;
            *(U *)p = diag ? (U)one.word[0] : (U)0;
        }
    }
}

#define GA__FILL_EYE_KERNELS(suffix, size)                                                \
    GA_KERNEL GA_KERNEL_NAME3(creation, fill, suffix)(void *out, int64_t n,               \
                                                      ga__value16 value)                  \
    {                                                                                     \
        ga__fill<size>(out, n, value);                                                    \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME3(creation, eye, suffix)(void *out, int64_t rows, int64_t cols, \
                                                     int64_t k, ga__value16 one)          \
    {                                                                                     \
        ga__eye<size>(out, rows, cols, k, one);                                           \
    }

GA_FOR_EACH_ITEMSIZE(GA__FILL_EYE_KERNELS)

/* ------------------------------------------------------------------------ */
/* arange                                                                    */
/* ------------------------------------------------------------------------ */

/* Value i of NumPy's <TYPE>_fill for dtype T, computed in its precision. */
template <class T> __device__ __forceinline__ T ga__arange_value(int64_t i, const ga__arange_params &p)
{
    constexpr int cat = ga_num<T>::category;
    if constexpr (cat == GA_CAT_BOOL || cat == GA_CAT_SINT || cat == GA_CAT_UINT) {
        const int64_t v = i == 1 ? p.isecond : (int64_t)((uint64_t)p.istart + (uint64_t)i * (uint64_t)p.idelta);
        return ga_cast<T>(v); /* int64 -> T wraps; -> bool is v != 0 */
    } else if constexpr (ga__same<T, double>::value || ga__same<T, ga_complex128_t>::value) {
        const double v = i == 0 ? p.start : i == 1 ? p.second
                                          : __dadd_rn(p.start, __dmul_rn(__ll2double_rn(i), p.delta));
        return ga_cast<T>(v);
    } else { /* float16, bfloat16, float32, complex64: float32 arithmetic */
        const float s = (float)p.start, d = (float)p.delta; /* exact: the host rounded them */
        const float v = i == 0 ? s : i == 1 ? (float)p.second : __fadd_rn(s, __fmul_rn(__ll2float_rn(i), d));
        return ga_cast<T>(v);
    }
}

/* ------------------------------------------------------------------------ */
/* linspace                                                                  */
/* ------------------------------------------------------------------------ */

/* base ** y for logspace. CUDA's pow is within 2 ulp and misses exact
   results (pow(3.0, 1.0) gives 2.9999999999999996, which truncates to 2 in
   an integer dtype), where NumPy's pow (glibc, or SVML on AVX-512) is within
   1 ulp and so exact whenever the result is representable. For integer y,
   and for half-integer y of a base that is an exact square, the power is
   taken by squaring in double-double arithmetic (error about 2^-98, then
   one rounding); other y use pow. */
struct ga__dd {
    double hi, lo;
};
__device__ __forceinline__ ga__dd ga__dd_mul(ga__dd a, ga__dd b)
{
    const double p = __dmul_rn(a.hi, b.hi);
    if (!isfinite(p)) {
        ga__dd r = {p, 0.0};
        return r;
    }
    double e = __fma_rn(a.hi, b.hi, -p);
    e = __fma_rn(a.hi, b.lo, e);
    e = __fma_rn(a.lo, b.hi, e);
    const double s = __dadd_rn(p, e);
    ga__dd r = {s, __dsub_rn(e, __dsub_rn(s, p))};
    return r;
}
__device__ __forceinline__ double ga__pow(double b, double y)
{
    double n = y;
    if (isfinite(b) && b != 0.0 && fabs(y) < 2147483648.0) {
        if (y != trunc(y) && 2.0 * y == trunc(2.0 * y) && b > 0.0) {
            const double r = sqrt(b); /* correctly rounded */
            if (__fma_rn(r, r, -b) == 0.0) { /* b is an exact square */
                b = r;
                n = 2.0 * y;
            }
        }
        if (n == trunc(n)) {
            long long k = (long long)n;
            ga__dd x = {b, 0.0}, acc = {1.0, 0.0};
            if (k < 0) { /* powers of 1/b (in double-double), not 1 / b^-k */
                const double q = __drcp_rn(b);
                x.hi = q;
                x.lo = __dmul_rn(__fma_rn(-q, b, 1.0), q);
                k = -k;
            }
            for (; k; k >>= 1) {
                if (k & 1)
                    acc = ga__dd_mul(acc, x);
                if (k > 1)
                    x = ga__dd_mul(x, x);
            }
            return __dadd_rn(acc.hi, acc.lo);
        }
    }
    return pow(b, y);
}

/* numpy.linspace in float64 (NumPy 2):
     y = step_zero ? (i / div) * delta : i * step;  y += start;
     if (endpoint && i == n - 1 && n > 1) y = stop;
   then logspace: y = pow(base, y), converted (integers truncate);
   else integer dtypes take floor(y) first. Each operation rounds once. */
template <class T>
__device__ __forceinline__ T ga__linspace_value(int64_t i, int64_t n, const ga__linspace_params &p)
{
    const double fi = __ll2double_rn(i);
    double y = p.step_zero ? __dmul_rn(__ddiv_rn(fi, p.div), p.delta) : __dmul_rn(fi, p.step);
    y = __dadd_rn(y, p.start);
    if (p.endpoint && i == n - 1 && n > 1)
        y = p.stop;
    constexpr int cat = ga_num<T>::category;
    if (p.log)
        y = ga__pow(p.base, y);
    else if (cat == GA_CAT_SINT || cat == GA_CAT_UINT)
        y = floor(y);
    return ga_cast<T>(y);
}

#define GA__RANGE_KERNELS(name)                                                           \
    GA_KERNEL GA_KERNEL_NAME3(creation, arange, name)(void *out, int64_t n,               \
                                                      ga__arange_params p)                \
    {                                                                                     \
        GA_GRID_STRIDE_LOOP(i, n)                                                         \
        ga_store<ga_t_##name>((char *)out + i * (int64_t)sizeof(ga_t_##name),             \
                              ga__arange_value<ga_t_##name>(i, p));                       \
    }                                                                                     \
    GA_KERNEL GA_KERNEL_NAME3(creation, linspace, name)(void *out, int64_t n,             \
                                                        ga__linspace_params p)            \
    {                                                                                     \
        GA_GRID_STRIDE_LOOP(i, n)                                                         \
        ga_store<ga_t_##name>((char *)out + i * (int64_t)sizeof(ga_t_##name),             \
                              ga__linspace_value<ga_t_##name>(i, n, p));                  \
    }

GA_FOR_EACH_DTYPE(GA__RANGE_KERNELS)
