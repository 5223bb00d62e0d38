/* examples/user_kernels/kernels.cu - a project's own kernels, built once by
   gpuarr's build rule (see the Makefile beside it) into kernels.fatbin and
   into an object that embeds it. */
#include "gpuarr_user.cuh"

/* the dtypes these kernels are built for: a list in the form of gpuarr's */
#define REAL_LOOPS(Y, A) Y(A, float32, FLOAT32) Y(A, float64, FLOAT64)

/* softplus(x) = log(1 + exp(x)) in one pass over x (gpuarr's built-ins take
   two, and a temporary): x itself above 20, where exp(x) swamps the 1 */
GA_ELEMENTWISE(softplus, REAL_LOOPS, (T x), (T &y), y = x > (T)20 ? x : log1p(exp(x));)

/* (x - mean) / std, clipped to [-limit, limit]: four built-in calls in one */
GA_ELEMENTWISE(normalize_clip, REAL_LOOPS, (T x, T mean, T inv_std), (T &y),
               const T v = (x - mean) * inv_std;
               y = v < (T)-3 ? (T)-3 : v > (T)3 ? (T)3 : v;)

/* A reduction: the L2 norm of the rows (or of anything: the caller picks
   the axes), the squares summed in float64, the root taken once */
GA_REDUCTION(l2norm, REAL_LOOPS, (T x), (T &y), float64, (double)x * (double)x, a + b, y = (T)sqrt(a), 0)

/* A fused reduction: sum((x - y)**2) in one pass over x and y (gpuarr's
   built-ins take three: subtract, square, sum) */
GA_REDUCTION(sumsq_diff, REAL_LOOPS, (T x, T y), (float64 &s), float64, (double)(x - y) * (double)(x - y), a + b,
             s = a, 0)

/* A raw kernel: the sum of squares of x (a view: any strides) in blocks of
   256 threads, block b summing elements b, b + gridDim.x * 256, ... in a
   fixed order (thread t takes b * 256 + t, then every grid's worth), the
   block's 256 partial sums added by a tree: the same bits on every run. */
extern "C" __global__ void sumsq_partials(ga_view x, double *partials)
{
    __shared__ double s[256];
    const int64_t step = (int64_t)gridDim.x * 256;
    double acc = 0;
    for (int64_t i = (int64_t)blockIdx.x * 256 + threadIdx.x; i < x.size; i += step) {
        const double v = x.dtype == GA_FLOAT32 ? (double)ga_view_at<float>(x, i) : ga_view_at<double>(x, i);
        acc += v * v;
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = s[0];
}
