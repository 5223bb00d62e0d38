/* kernels/linalg.cu - family "linalg": the products of our own.

     ga_linalg_matmul_<dtype>(void *c, const void *a, const void *b, ga__matmul_params p)
         c[q, i, j] = sum over t < k of a[q, i, t] * b[q, t, j] for the
         p.count matrices of the batch: the integer and bool products (cuBLAS
         has no type for them: NumPy's wrap-around, products and sums in a
         wider unsigned type agree with the dtype's modulo its width; bool:
         any(a and b)) and the small float and complex ones, whose cost is
         the launch (one kernel instead of cuBLAS's host work).
         Accumulators: float32 for the half types and float32 (cuBLAS's
         COMPUTE_32F), float64 for float64, complex in its own precision;
         fused multiply-adds in t order. Strides in elements (batch, row,
         column), one thread per element of c, any launch shape (a
         grid-stride loop).
     ga_linalg_dot_<dtype>(void *partial, const void *x, const void *y, ga__dot_params p)
     ga_linalg_dotsum_<dtype>(void *c, const void *partial, ga__dot_params p)
         The dot product of two long vectors (p.n elements, strides p.sx and
         p.sy in elements) at the memory's speed: block b of 256 threads sums
         its chunk of 256 E elements (E = GA__DOT_PER_THREAD(sizeof T), each
         thread's 256 apart) into partial[b], then a tree in shared memory; one block of dotsum sums the p.parts partials
         the same way and stores c. The order depends on n alone:
         deterministic on every GPU. Accumulators as matmul's, but float64
         for float32 (free at this speed).
     ga_linalg_cholesky_<dtype>_n<8|16|32>(void *a, int *info, int64_t count, int64_t n)
     ga_linalg_inv_<dtype>_n<8|16|32>(void *r, const void *a, int *info, int64_t count, int64_t n)
         The batched solvers of small matrices (n at most 8, 16 or 32; float
         and complex dtypes), one warp (a block of 32 threads) per matrix
         held in shared memory, matrices q = blockIdx.x, + gridDim.x, ...:
         cholesky factors each C-contiguous n x n matrix of a in place from
         its lower triangle (A = L L^H, right-looking, column by column; the
         upper triangle is left as it was), info[q] = j + 1 at the first
         column j whose pivot is not positive (or NaN), else 0, as potrf;
         inv writes the inverse of each matrix of a into r by Gauss-Jordan
         elimination of [A | I] with partial pivoting (the first largest
         |re| + |im| of the column, as LAPACK's i?amax), info[q] = j + 1 at
         the first column j with no nonzero pivot (a singular matrix, as
         getrf). Accumulation in the dtype.
     ga_linalg_poison_<float32|float64|complex64|complex128>(void *x, const int *info, int64_t count, int64_t per)
         The solvers' failed matrices as NaN (GA_LINALG_IGNORE): x holds
         count matrices of `per` elements; matrix q becomes NaN (every
         part) where info[q] != 0. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

namespace {

/* The unsigned type the products and sums of an integer T wrap in. */
template <class T> struct ga__mm_wide { typedef uint32_t type; };
template <> struct ga__mm_wide<int64_t> { typedef uint64_t type; };
template <> struct ga__mm_wide<uint64_t> { typedef uint64_t type; };

/* The accumulation of products of T (Wide: float64 for float32, the dot's
   choice): Acc, zero(), fma(s, x, y) = s + x y, store(s) as T. */
template <class T, bool Wide = false> struct ga__mm {
    typedef typename ga__mm_wide<T>::type Acc; /* integers */
    static GA_DEV Acc zero() { return 0; }
    static GA_DEV Acc fma(Acc s, T x, T y) { return s + (Acc)x * (Acc)y; }
    static GA_DEV Acc add(Acc a, Acc b) { return a + b; }
    static GA_DEV T store(Acc s) { return (T)s; }
};
template <bool Wide> struct ga__mm<ga_bool_t, Wide> {
    typedef uint32_t Acc;
    static GA_DEV Acc zero() { return 0; }
    static GA_DEV Acc fma(Acc s, ga_bool_t x, ga_bool_t y) { return s | (x.v && y.v); }
    static GA_DEV Acc add(Acc a, Acc b) { return a | b; }
    static GA_DEV ga_bool_t store(Acc s)
    {
        ga_bool_t r;
        r.v = s ? 1 : 0;
        return r;
    }
};
template <class T, class F> struct ga__mm_real { /* T stored, F accumulated */
    typedef F Acc;
    static GA_DEV Acc zero() { return 0; }
    static GA_DEV Acc fma(Acc s, T x, T y) { return ::fma((F)ga__widen(x), (F)ga__widen(y), s); }
    static GA_DEV Acc add(Acc a, Acc b) { return a + b; }
    static GA_DEV T store(Acc s) { return ga_cast<T>(s); }
};
template <bool Wide> struct ga__mm<__half, Wide> : ga__mm_real<__half, float> {};
template <bool Wide> struct ga__mm<__nv_bfloat16, Wide> : ga__mm_real<__nv_bfloat16, float> {};
template <> struct ga__mm<float, false> : ga__mm_real<float, float> {};
template <> struct ga__mm<float, true> : ga__mm_real<float, double> {};
template <bool Wide> struct ga__mm<double, Wide> : ga__mm_real<double, double> {};
template <class Z> struct ga__mm_complex {
    typedef Z Acc;
    typedef ga_real_t<Z> F;
    static GA_DEV Acc zero() { return ga_cplx<Z>(0, 0); }
    static GA_DEV Acc fma(Acc s, Z x, Z y)
    {
        return ga_cplx<Z>(::fma(-x.im, y.im, ::fma(x.re, y.re, s.re)), ::fma(x.im, y.re, ::fma(x.re, y.im, s.im)));
    }
    static GA_DEV Acc add(Acc a, Acc b) { return ga_cadd(a, b); }
    static GA_DEV Z store(Acc s) { return s; }
};
template <bool Wide> struct ga__mm<ga_complex64_t, Wide> : ga__mm_complex<ga_complex64_t> {};
template <bool Wide> struct ga__mm<ga_complex128_t, Wide> : ga__mm_complex<ga_complex128_t> {};

template <class T> GA_DEV void ga__matmul(T *c, const T *a, const T *b, const ga__matmul_params &p)
{
    typedef ga__mm<T> M;
    const int64_t per = p.m * p.n, total = per * p.count;
    GA_GRID_STRIDE_LOOP(e, total)
    {
        const int64_t q = e / per, r = e - q * per, i = r / p.n, j = r - i * p.n;
        const T *x = a + q * p.a[0] + i * p.a[1];
        const T *y = b + q * p.b[0] + j * p.b[2];
        typename M::Acc s = M::zero();
        for (int64_t t = 0; t < p.k; t++) s = M::fma(s, ga_load<T>(x + t * p.a[2]), ga_load<T>(y + t * p.b[1]));
        ga_store<T>(c + q * p.c[0] + i * p.c[1] + j * p.c[2], M::store(s));
    }
}

constexpr int GA_DOT_BLOCK = 256;

/* The block's sum of each thread's s (a tree in a fixed order), in thread 0. */
template <class M> GA_DEV typename M::Acc ga__dot_block_sum(typename M::Acc s)
{
    typedef typename M::Acc Acc;
    __shared__ Acc part[GA_DOT_BLOCK];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = GA_DOT_BLOCK / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w) part[threadIdx.x] = M::add(part[threadIdx.x], part[threadIdx.x + w]);
        __syncthreads();
    }
    return part[0];
}

template <class T> GA_DEV void ga__dot(void *partial, const T *x, const T *y, const ga__dot_params &p)
{
    typedef ga__mm<T, true> M;
    constexpr int E = GA__DOT_PER_THREAD(sizeof(T));
    const int64_t base = (int64_t)blockIdx.x * (E * GA_DOT_BLOCK) + threadIdx.x;
    typename M::Acc s = M::zero();
    if (base + (int64_t)(E - 1) * GA_DOT_BLOCK < p.n) { /* a whole chunk: every load issued at once */
        T vx[E], vy[E];
#pragma unroll
        for (int e = 0; e < E; e++) {
            vx[e] = ga_load<T>(x + (base + e * GA_DOT_BLOCK) * p.sx);
            vy[e] = ga_load<T>(y + (base + e * GA_DOT_BLOCK) * p.sy);
        }
#pragma unroll
        for (int e = 0; e < E; e++) s = M::fma(s, vx[e], vy[e]);
    } else {
        for (int64_t i = base; i < p.n; i += GA_DOT_BLOCK) s = M::fma(s, ga_load<T>(x + i * p.sx), ga_load<T>(y + i * p.sy));
    }
    s = ga__dot_block_sum<M>(s);
    if (threadIdx.x == 0) ((typename M::Acc *)partial)[blockIdx.x] = s;
}

template <class T> GA_DEV void ga__dotsum(T *c, const void *partial, const ga__dot_params &p)
{
    typedef ga__mm<T, true> M;
    const typename M::Acc *part = (const typename M::Acc *)partial;
    typename M::Acc s = M::zero();
    for (int64_t i = threadIdx.x; i < p.parts; i += GA_DOT_BLOCK) s = M::add(s, part[i]);
    s = ga__dot_block_sum<M>(s);
    if (threadIdx.x == 0) ga_store<T>(c, M::store(s));
}

template <class T> GA_DEV void ga__poison(T *x, const int *info, int64_t count, int64_t per)
{
    GA_GRID_STRIDE_LOOP(e, count * per)
    {
        if (info[e / per] == 0) continue;
        if constexpr (ga_num<T>::is_complex) ga_store<T>(x + e, ga_cplx<T>(NAN, NAN));
        else x[e] = (T)NAN;
    }
}

/* Scalar arithmetic of the solvers' dtypes, real or complex. */
template <class T> struct ga__sc {
    static constexpr bool cplx = ga_num<T>::is_complex;
    typedef ga_real_t<T> F;
    static GA_DEV T mul(T a, T b)
    {
        if constexpr (cplx) return ga_cmul(a, b);
        else return a * b;
    }
    static GA_DEV T sub(T a, T b)
    {
        if constexpr (cplx) return ga_csub(a, b);
        else return a - b;
    }
    static GA_DEV T div(T a, T b)
    {
        if constexpr (cplx) return ga_cdiv(a, b);
        else return a / b;
    }
    static GA_DEV T conj(T a)
    {
        if constexpr (cplx) return ga_cconj(a);
        else return a;
    }
    static GA_DEV F re(T a)
    {
        if constexpr (cplx) return a.re;
        else return a;
    }
    static GA_DEV F abs1(T a) /* |re| + |im| (LAPACK's cabs1) */
    {
        if constexpr (cplx) return fabs(a.re) + fabs(a.im);
        else return fabs(a);
    }
    static GA_DEV T real(F x)
    {
        if constexpr (cplx) return ga_cplx<T>(x, 0);
        else return x;
    }
    static GA_DEV T scale(T a, F x) /* a / x */
    {
        if constexpr (cplx) return ga_cplx<T>(a.re / x, a.im / x);
        else return a / x;
    }
};

template <class T, int N> GA_DEV void ga__cholesky_small(T *a, int *info, int64_t count, int64_t n64)
{
    typedef ga__sc<T> S;
    __shared__ T sh[N * N];
    const int lane = threadIdx.x, n = (int)n64;
    for (int64_t q = blockIdx.x; q < count; q += gridDim.x) {
        T *g = a + q * n * n;
        for (int e = lane; e < n * n; e += 32) sh[e] = ga_load<T>(g + e);
        __syncwarp();
        int fail = 0;
        for (int j = 0; j < n; j++) {
            const typename S::F d = S::re(sh[j * n + j]);
            if (!(d > 0)) { /* (the same value in every lane) */
                fail = j + 1;
                break;
            }
            const typename S::F ljj = sqrt(d);
            __syncwarp();
            if (lane == 0) sh[j * n + j] = S::real(ljj);
            for (int i = j + 1 + lane; i < n; i += 32) sh[i * n + j] = S::scale(sh[i * n + j], ljj);
            __syncwarp();
            for (int i = j + 1; i < n; i++) /* the trailing lower triangle less column j's outer product */
                for (int k = j + 1 + lane; k <= i; k += 32) sh[i * n + k] = S::sub(sh[i * n + k], S::mul(sh[i * n + j], S::conj(sh[k * n + j])));
            __syncwarp();
        }
        __syncwarp();
        for (int e = lane; e < n * n; e += 32) ga_store<T>(g + e, sh[e]);
        if (lane == 0) info[q] = fail;
        __syncwarp();
    }
}

template <class T, int N> GA_DEV void ga__inv_small(T *r, const T *a, int *info, int64_t count, int64_t n64)
{
    typedef ga__sc<T> S;
    typedef typename S::F F;
    __shared__ T sh[N * 2 * N]; /* [A | I], rows of 2n */
    const int lane = threadIdx.x, n = (int)n64, w = 2 * n;
    for (int64_t q = blockIdx.x; q < count; q += gridDim.x) {
        const T *g = a + q * n * n;
        for (int e = lane; e < n * n; e += 32) {
            const int i = e / n, c = e - i * n;
            sh[i * w + c] = ga_load<T>(g + e);
            sh[i * w + n + c] = S::real(i == c ? 1 : 0);
        }
        __syncwarp();
        int fail = 0;
        for (int j = 0; j < n; j++) {
            /* the pivot: the first row i >= j of the largest |a[i][j]| */
            F best = lane >= j && lane < n ? S::abs1(sh[lane * w + j]) : (F)-1;
            int at = lane;
            for (int o = 16; o > 0; o /= 2) {
                const F ob = __shfl_xor_sync(0xffffffffu, best, o);
                const int oa = __shfl_xor_sync(0xffffffffu, at, o);
                if (ob > best || (ob == best && oa < at)) best = ob, at = oa;
            }
            best = __shfl_sync(0xffffffffu, best, 0); /* lane 0's, in every lane (NaN compares unevenly) */
            at = __shfl_sync(0xffffffffu, at, 0);
            if (best == 0) { /* (the same in every lane) */
                fail = j + 1;
                break;
            }
            if (at != j)
                for (int c = lane; c < w; c += 32) {
                    const T t = sh[j * w + c];
                    sh[j * w + c] = sh[at * w + c];
                    sh[at * w + c] = t;
                }
            __syncwarp();
            const T piv = sh[j * w + j];
            __syncwarp();
            for (int c = lane; c < w; c += 32) sh[j * w + c] = S::div(sh[j * w + c], piv);
            __syncwarp();
            if (lane < n && lane != j) { /* each lane its own row, less f times row j */
                const T f = sh[lane * w + j];
                for (int c = j; c < w; c++) sh[lane * w + c] = S::sub(sh[lane * w + c], S::mul(f, sh[j * w + c]));
            }
            __syncwarp();
        }
        T *o = r + q * n * n;
        for (int e = lane; e < n * n; e += 32) {
            const int i = e / n, c = e - i * n;
            ga_store<T>(o + e, sh[i * w + n + c]);
        }
        if (lane == 0) info[q] = fail;
        __syncwarp();
    }
}

} // namespace

#define GA__LINALG_KERNELS(name)                                                                          \
    GA_KERNEL GA_KERNEL_NAME3(linalg, matmul, name)(void *c, const void *a, const void *b, ga__matmul_params p) \
    {                                                                                                     \
        ga__matmul<ga_t_##name>((ga_t_##name *)c, (const ga_t_##name *)a, (const ga_t_##name *)b, p);     \
    }                                                                                                     \
    GA_KERNEL GA_KERNEL_NAME3(linalg, dot, name)(void *partial, const void *x, const void *y, ga__dot_params p) \
    {                                                                                                     \
        ga__dot<ga_t_##name>(partial, (const ga_t_##name *)x, (const ga_t_##name *)y, p);                 \
    }                                                                                                     \
    GA_KERNEL GA_KERNEL_NAME3(linalg, dotsum, name)(void *c, const void *partial, ga__dot_params p)       \
    {                                                                                                     \
        ga__dotsum<ga_t_##name>((ga_t_##name *)c, partial, p);                                           \
    }

GA_FOR_EACH_DTYPE(GA__LINALG_KERNELS)

#define GA__POISON_KERNEL(name)                                                                         \
    GA_KERNEL GA_KERNEL_NAME3(linalg, poison, name)(void *x, const int *info, int64_t count, int64_t per) \
    {                                                                                                   \
        ga__poison<ga_t_##name>((ga_t_##name *)x, info, count, per);                                    \
    }

GA__POISON_KERNEL(float32)
GA__POISON_KERNEL(float64)
GA__POISON_KERNEL(complex64)
GA__POISON_KERNEL(complex128)

#define GA__SMALL_SOLVER_KERNELS(name, N)                                                                             \
    GA_KERNEL ga_linalg_cholesky_##name##_n##N(void *a, int *info, int64_t count, int64_t n)                         \
    {                                                                                                                 \
        ga__cholesky_small<ga_t_##name, N>((ga_t_##name *)a, info, count, n);                                        \
    }                                                                                                                 \
    GA_KERNEL ga_linalg_inv_##name##_n##N(void *r, const void *a, int *info, int64_t count, int64_t n)               \
    {                                                                                                                 \
        ga__inv_small<ga_t_##name, N>((ga_t_##name *)r, (const ga_t_##name *)a, info, count, n);                     \
    }
#define GA__SMALL_SOLVERS(name) GA__SMALL_SOLVER_KERNELS(name, 8) GA__SMALL_SOLVER_KERNELS(name, 16) GA__SMALL_SOLVER_KERNELS(name, 32)

GA__SMALL_SOLVERS(float32)
GA__SMALL_SOLVERS(float64)
GA__SMALL_SOLVERS(complex64)
GA__SMALL_SOLVERS(complex128)
