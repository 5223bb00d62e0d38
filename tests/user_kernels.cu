/* tests/user_kernels.cu - the user kernels of tests/test_user_kernels.c,
   built by gpuarr.mk's rule (the Makefile's build/tests/user_kernels.fatbin)
   as a user's project builds its own. */
#include "gpuarr_user.cuh"

/* the complex dtypes alone: a user's own list, in the form of gpuarr's */
#define COMPLEX_LOOPS(Y, A) Y(A, complex64, COMPLEX64) Y(A, complex128, COMPLEX128)

GA_ELEMENTWISE(squared_diff, GA_LOOPS_FLOAT, (T x, T y), (T &z), z = (x - y) * (x - y);)
GA_ELEMENTWISE(axpy, GA_LOOPS_INEXACT, (T x, T y, T a), (T &z), z = a * x + y;)
/* i and n; every dtype's values through unchanged */
GA_ELEMENTWISE(index_of, GA_LOOPS_ALL, (T x), (int64 &k, T &y), k = i * 1000 + n; y = x;)
GA_ELEMENTWISE(is_big, GA_LOOPS_REAL, (T x, float64 limit), (bool &b), b = (double)x > limit;)
GA_ELEMENTWISE(divmod2, GA_LOOPS_INT, (T a, T b), (T &q, T &r), q = a / b; r = a % b;)
GA_ELEMENTWISE(magnitude, COMPLEX_LOOPS, (T z), (float64 &m), m = thrust::abs(z);)
/* no placeholder: one dtype */
#define F32_LOOP(Y, A) Y(A, float32, FLOAT32)
GA_ELEMENTWISE(halve, F32_LOOP, (float32 x), (float32 &y), y = x * 0.5f;)

/* Raw kernels. */
extern "C" __global__ void scale(ga_view x, float a)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < x.size; i += (int64_t)gridDim.x * blockDim.x)
        ga_view_at<float>(x, i) *= a;
}

extern "C" __global__ void fill_index(int64_t *p, int64_t n, int64_t start)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        p[i] = start + i;
}

/* y[i, j] = x[i, j] + 1 through ga_view_item (any strides), one thread per element */
extern "C" __global__ void add_one_2d(ga_view x, ga_view y)
{
    const int64_t i = blockIdx.y, j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (j >= x.shape[1]) return;
    const int64_t idx[2] = {i, j};
    ga_view_item<double>(y, idx) = ga_view_item<double>(x, idx) + 1;
}

/* writes through the pointer it is given: a fault for NULL */
extern "C" __global__ void write_to(int *p) { *p = 1; }

/* Reductions (CuPy's ReductionKernel): map, reduce, post-map, identity,
   the accumulator's type. */
#define SIGNED_LOOPS(Y, A) Y(A, int8, INT8) Y(A, int16, INT16) Y(A, int32, INT32) Y(A, int64, INT64)
/* sum((x - y)**2), fused: the difference in T, its square summed in float64 */
GA_REDUCTION(sumsq_diff, GA_LOOPS_FLOAT, (T x, T y), (T &z), float64, (double)(x - y) * (double)(x - y), a + b,
             z = (T)a, 0)
/* the L2 norm of real and complex values, as float64 */
GA_REDUCTION(l2norm, GA_LOOPS_INEXACT, (T x), (float64 &y), float64, thrust::norm(thrust::complex<double>(x)), a + b,
             y = sqrt(a), 0)
/* max |x| in T (a comma in an expression: parenthesised) */
GA_REDUCTION(maxabs, SIGNED_LOOPS, (T x), (T &y), T, (x < 0 ? (T)-x : x), (a > b ? a : b), y = a, 0)
/* any(x != 0) over every dtype */
GA_REDUCTION(any_nonzero, GA_LOOPS_ALL, (T x), (bool &y), bool, x != T(0), a || b, y = a, false)
/* three inputs: sum(x * y + z) */
GA_REDUCTION(dot_plus, GA_LOOPS_FLOAT, (T x, T y, T z), (float64 &r), float64, (double)x * (double)y + (double)z,
             a + b, r = a, 0)

/* Several placeholders (CuPy's `(T x, U k) -> (T y)`), over the tuples of
   dtypes a list names: each placeholder bound by its first array. */
#define SCALE_PAIRS(Y, A) Y(A, float32, int32) Y(A, float64, int64) Y(A, float64, int8)
GA_ELEMENTWISE_TYPES(scale_by, (T, U), SCALE_PAIRS, (T x, U k), (T &y, U &k2), y = x * (T)k; k2 = k + k;)
/* a mask of its own dtype M; b may be a weak scalar (it does not bind T) */
#define SELECT_PAIRS(Y, A) Y(A, float32, bool) Y(A, float64, bool) Y(A, float32, int32)
GA_ELEMENTWISE_TYPES(select, (T, M), SELECT_PAIRS, (M m, T a, T b), (T &y), y = m ? a : b;)
/* a reduction of two placeholders: sum(x * w), x and w of their own dtypes */
#define WSUM_PAIRS(Y, A) Y(A, float32, float32) Y(A, float64, float32) Y(A, float32, int16)
GA_REDUCTION_TYPES(weighted_sum, (T, W), WSUM_PAIRS, (T x, W w), (T &y), float64, (double)x * (double)w, a + b,
                   y = (T)a, 0)

/* Weak scalars as inputs of reductions: a threshold, a factor and an offset. */
GA_REDUCTION(count_above, GA_LOOPS_REAL, (T x, float64 limit), (int64 &c), int64, (double)x > limit ? 1 : 0, a + b,
             c = a, 0)
GA_REDUCTION(axpy_sum, GA_LOOPS_FLOAT, (T x, T alpha, T y), (float64 &s), float64,
             (double)alpha * (double)x + (double)y, a + b, s = a, 0)

/* The element index in a map: i (the flat C-order index in the broadcast
   input), n (its size), and CuPy's _in_ind. */
GA_REDUCTION(index_weighted, GA_LOOPS_FLOAT, (T x), (float64 &s), float64, (double)i * (double)x, a + b, s = a, 0)
GA_REDUCTION(index_dot, GA_LOOPS_FLOAT, (T x, T y), (float64 &s), float64, (double)(n - i) * (double)x * (double)y,
             a + b, s = a, 0)
GA_REDUCTION(second_half, GA_LOOPS_REAL, (T x), (float64 &s), float64,
             (_in_ind.get() >= _in_ind.size() / 2 ? (double)x : 0.0), a + b, s = a, 0)

/* CuPy's raw parameters (`raw T x`, written raw<T> x): the whole array,
   not broadcast, indexed freely by the body. */
GA_ELEMENTWISE(reverse, GA_LOOPS_ALL, (raw<T> x), (T &y), y = x[n - 1 - i];)
/* a 3-point stencil of x around the index of each weight, clamped at the ends */
GA_ELEMENTWISE(stencil3, GA_LOOPS_FLOAT, (T w, raw<T> x), (T &y), const int64_t m = x.size();
               y = w * (x[i > 0 ? i - 1 : 0] + x[i] + x[i + 1 < m ? i + 1 : m - 1]);)
/* a gather from a 2-d table by index arrays that broadcast: y = table[row, col] */
#define TAKE_PAIRS(Y, A) Y(A, float64, int64) Y(A, float32, int32)
GA_ELEMENTWISE_TYPES(take_2d, (T, I), TAKE_PAIRS, (I row, I col, raw<T> table), (T &y), y = table(row, col);)

/* Raw outputs (CuPy's `raw T y` among the outputs): the body writes where
   it likes. A scatter by a permutation, every dtype; a reversed copy beside
   an ordinary output. */
GA_ELEMENTWISE(scatter, GA_LOOPS_ALL, (T x, int64 idx), (raw<T> y), y[idx] = x;)
GA_ELEMENTWISE(double_and_reverse, GA_LOOPS_REAL, (T x), (T &z, raw<T> y), z = x + x; y[n - 1 - i] = x;)

/* More than four operands: the loop takes three inputs and the first
   output, the others are read and written through views. */
GA_ELEMENTWISE(sum6, GA_LOOPS_FLOAT, (T a, T b, T c, T d, T e, T f), (T &s, T &p), s = a + b + c + d + e + f;
               p = a * b * c * d * e * f;)
GA_ELEMENTWISE(split3, GA_LOOPS_ALL, (T x), (T &a, T &b, T &c), a = x; b = x; c = x;)
GA_ELEMENTWISE(sum4_plus_first, GA_LOOPS_FLOAT, (T a, T b, T c, T d, raw<T> r), (T &s), s = a + b + c + d + r[0];)
