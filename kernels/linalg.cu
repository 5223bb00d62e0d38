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
     ga_linalg_eigh_<dtype>_n8(void *a, void *w, int *info, int64_t count, int64_t n, int lower, int vectors)
         The batched solvers of small matrices (n at most 8, 16 or 32, eigh
         8; float and complex dtypes), one warp (a block of 32 threads) per matrix
         held in shared memory, matrices q = blockIdx.x, + gridDim.x, ...:
         cholesky factors each C-contiguous n x n matrix of a in place from
         its lower triangle (A = L L^H, right-looking, column by column; the
         upper triangle is left as it was), info[q] = j + 1 at the first
         column j whose pivot is not positive (or NaN), else 0, as potrf;
         inv writes the inverse of each matrix of a into r by Gauss-Jordan
         elimination of [A | I] with partial pivoting (the first largest
         |re| + |im| of the column, as LAPACK's i?amax), info[q] = j + 1 at
         the first column j with no nonzero pivot (a singular matrix, as
         getrf); eigh leaves each matrix's eigenvalues, ascending, in w
         (the real dtype, n a matrix) and, where `vectors`, its
         eigenvectors as the columns of the matrix in a (Jacobi's method
         on the triangle `lower` names, lower or upper as stored; info[q] =
         1 where it did not converge; NaN results, info[q] 0, for a matrix
         holding a NaN or an infinity). Accumulation in the dtype.
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
    static GA_DEV T times(T a, F x) /* a x */
    {
        if constexpr (cplx) return ga_cplx<T>(a.re * x, a.im * x);
        else return a * x;
    }
    static GA_DEV F maxabs(T a) /* max(|re|, |im|): NaN where either is */
    {
        if constexpr (cplx) {
            const F x = fabs(a.re), y = fabs(a.im);
            return x != x || y != y ? (F)NAN : x > y ? x : y;
        } else {
            return fabs(a);
        }
    }
    static GA_DEV T nan()
    {
        if constexpr (cplx) return ga_cplx<T>(NAN, NAN);
        else return (T)NAN;
    }
    static GA_DEV F abs(T a)
    {
        if constexpr (cplx) return hypot(a.re, a.im);
        else return fabs(a);
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

/* The eigenvalues (ascending) and eigenvectors of a stack of small
   Hermitian matrices, a warp each: Jacobi's method (Golub and Van Loan,
   8.5) on the triangle `lower` names (the lower one of a row-major
   matrix: NumPy's UPLO 'L') mirrored, the diagonal's real parts. Each
   step of a sweep rotates n / 2 disjoint pairs at once (the round-robin
   order of Brent and Luk: every pair once in n - 1 steps). A complex
   a[p][q] = r e first has its phase e moved into column q (times
   conj(e)) and row q (times e), which leaves the real 2 x 2 problem of
   a[p][p], r, a[q][q]. A pair is skipped while |a[p][q]| <= eps
   sqrt(|a[p][p] a[q][q]|) (Demmel and Veselic's threshold: the
   eigenvalues keep a relative accuracy of eps) or |a[p][q]| <= eps^2 |A|
   (max |re| or |im| of A: so that a cluster of zero eigenvalues ends
   too); a sweep without a rotation ends. info[q] is 1 (not converged)
   after GA_EIGH_SWEEPS sweeps. A matrix with a NaN or an infinity gets
   NaN eigenvalues and eigenvectors, with info[q] 0 (NumPy's LAPACK
   raises no error there either; its values are NaN or meaningless). a
   becomes the eigenvectors as columns, in the eigenvalues' order
   (vectors != 0); w[q * n + k], the eigenvalues. */
constexpr int GA_EIGH_SWEEPS = 40;

template <class T, int N>
GA_DEV void ga__eigh_small(T *a, ga_real_t<T> *w, int *info, int64_t count, int64_t n64, int lower, int vectors)
{
    typedef ga__sc<T> S;
    typedef typename S::F F;
    __shared__ T sh[N * N], sv[N * N], re[N / 2];
    __shared__ F rc[N / 2], rs[N / 2], rdp[N / 2], rdq[N / 2];
    __shared__ int rp[N / 2], rq[N / 2];
    __shared__ bool ract[N / 2];
    const int lane = threadIdx.x, n = (int)n64, m = (n + 1) & ~1; /* (odd n: a pair with n is idle) */
    const F eps = sizeof(F) == 4 ? (F)5.9604645e-8 : (F)1.1102230246251565e-16;
    for (int64_t q = blockIdx.x; q < count; q += gridDim.x) {
        T *g = a + q * n * n;
        for (int e = lane; e < n * n; e += 32) {
            const int i = e / n, j = e - i * n;
            if (lower ? i >= j : i <= j) {
                const T x = ga_load<T>(g + e);
                if (i == j) {
                    sh[e] = S::real(S::re(x));
                } else {
                    sh[e] = x;
                    sh[j * n + i] = S::conj(x);
                }
            }
            sv[e] = S::real(i == j ? 1 : 0);
        }
        __syncwarp(); /* (the mirrored half is other lanes') */
        /* the largest |re| or |im|; a NaN or an infinity: NaN results,
           without an error (as NumPy's LAPACK raises none) */
        F big = 0;
        bool bad = false;
        for (int e = lane; e < n * n; e += 32) {
            const F mag = S::maxabs(sh[e]);
            bad |= !isfinite(mag);
            big = mag > big ? mag : big;
        }
        bad = __any_sync(0xffffffffu, bad);
        for (int o = 16; o > 0; o /= 2) big = fmax(big, __shfl_xor_sync(0xffffffffu, big, o));
        const F negligible = eps * eps * big;
        __syncwarp();
        bool converged = bad;
        for (int sweep = 0; sweep < GA_EIGH_SWEEPS && !converged; sweep++) {
            converged = true;
            for (int step = 0; step + 1 < m; step++) {
                /* lane i < m / 2 plans its pair's rotation */
                bool act = false;
                if (lane < m / 2) {
                    const int x = lane ? (step + lane) % (m - 1) : m - 1;
                    const int y = lane ? (step + m - 1 - lane) % (m - 1) : step;
                    const int p = x < y ? x : y, c = x < y ? y : x;
                    F r = 0, app = 0, aqq = 0;
                    T apq = S::real(0);
                    if (c < n) {
                        apq = sh[p * n + c];
                        r = S::abs(apq), app = S::re(sh[p * n + p]), aqq = S::re(sh[c * n + c]);
                        act = !(r <= eps * sqrt(fabs(app) * fabs(aqq)) || r <= negligible);
                    }
                    rp[lane] = p, rq[lane] = c, ract[lane] = act;
                    if (act) {
                        const F tau = (aqq - app) / (2 * r);
                        const F t = (tau >= 0 ? (F)1 : (F)-1) / (fabs(tau) + sqrt(1 + tau * tau));
                        const F cs = 1 / sqrt(1 + t * t);
                        rc[lane] = cs, rs[lane] = t * cs, re[lane] = S::scale(apq, r);
                        rdp[lane] = app - t * r, rdq[lane] = aqq + t * r;
                    }
                }
                if (__any_sync(0xffffffffu, act)) converged = false;
                else continue;
                __syncwarp();
                /* A U and V U: columns p and q of every row, for every pair */
                for (int it = lane; it < n * (m / 2); it += 32) {
                    const int k = it / (m / 2), i = it - k * (m / 2);
                    if (!ract[i]) continue;
                    const int p = rp[i], c = rq[i];
                    const F cs = rc[i], sn = rs[i];
                    const T ec = S::conj(re[i]);
                    const T x = sh[k * n + p], y = S::mul(sh[k * n + c], ec);
                    sh[k * n + p] = S::sub(S::times(x, cs), S::times(y, sn));
                    sh[k * n + c] = S::sub(S::times(x, sn), S::times(y, -cs));
                    if (vectors) {
                        const T vx = sv[k * n + p], vy = S::mul(sv[k * n + c], ec);
                        sv[k * n + p] = S::sub(S::times(vx, cs), S::times(vy, sn));
                        sv[k * n + c] = S::sub(S::times(vx, sn), S::times(vy, -cs));
                    }
                }
                __syncwarp();
                /* U^H (A U): rows p and q */
                for (int it = lane; it < n * (m / 2); it += 32) {
                    const int i = it / n, k = it - i * n;
                    if (!ract[i]) continue;
                    const int p = rp[i], c = rq[i];
                    const F cs = rc[i], sn = rs[i];
                    const T x = sh[p * n + k], y = S::mul(re[i], sh[c * n + k]);
                    sh[p * n + k] = S::sub(S::times(x, cs), S::times(y, sn));
                    sh[c * n + k] = S::sub(S::times(x, sn), S::times(y, -cs));
                }
                __syncwarp();
                if (lane < m / 2 && act) { /* the pair's 2 x 2 block: diagonal, and zeros off it */
                    const int p = rp[lane], c = rq[lane];
                    sh[p * n + p] = S::real(rdp[lane]);
                    sh[c * n + c] = S::real(rdq[lane]);
                    sh[p * n + c] = sh[c * n + p] = S::real(0);
                }
                __syncwarp();
            }
        }
        /* lane k's eigenvalue goes to place `at` (stably ascending) with
           column k of V */
        if (lane < n) {
            const F wk = bad ? (F)NAN : S::re(sh[lane * n + lane]);
            int at = lane;
            if (converged && !bad) {
                at = 0;
                for (int j = 0; j < n; j++) {
                    const F wj = S::re(sh[j * n + j]);
                    at += wj < wk || (wj == wk && j < lane);
                }
            }
            w[q * n + at] = wk;
            if (vectors)
                for (int i = 0; i < n; i++) ga_store<T>(g + i * n + at, bad ? S::nan() : sv[i * n + lane]);
        }
        if (lane == 0) info[q] = converged ? 0 : 1;
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
/* eigh: up to 8 rows only (gpuarr.h's ga__eigh_ours: cuSOLVER's syevj is faster above) */
#define GA__EIGH_KERNEL(name)                                                                                         \
    GA_KERNEL ga_linalg_eigh_##name##_n8(void *a, void *w, int *info, int64_t count, int64_t n, int lower, int vectors) \
    {                                                                                                                 \
        ga__eigh_small<ga_t_##name, 8>((ga_t_##name *)a, (ga_real_t<ga_t_##name> *)w, info, count, n, lower, vectors); \
    }
#define GA__SMALL_SOLVERS(name)                                                                                       \
    GA__SMALL_SOLVER_KERNELS(name, 8) GA__SMALL_SOLVER_KERNELS(name, 16) GA__SMALL_SOLVER_KERNELS(name, 32)          \
    GA__EIGH_KERNEL(name)

GA__SMALL_SOLVERS(float32)
GA__SMALL_SOLVERS(float64)
GA__SMALL_SOLVERS(complex64)
GA__SMALL_SOLVERS(complex128)
