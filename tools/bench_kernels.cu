/* tools/bench_kernels.cu - the user kernels of `build/bench --kernels`,
   built by gpuarr.mk's rule into build/bench_kernels.fatbin. */
#include "gpuarr_user.cuh"

#define F32(Y, A) Y(A, float32, FLOAT32)
/* the built-in add's work, as a user kernel (CuPy: ElementwiseKernel('T x, T y', 'T z', 'z = x + y')) */
GA_ELEMENTWISE(add, F32, (T x, T y), (T &z), z = x + y;)
/* softplus in one pass (CuPy: the same ElementwiseKernel, or cupy.fuse of log1p(exp(x))) */
GA_ELEMENTWISE(softplus, F32, (T x), (T &y), y = log1p(exp(x));)
/* sum((x - y)**2) in one pass, accumulated in T as the three calls' sum is (CuPy: ReductionKernel) */
GA_REDUCTION(sumsq_diff, F32, (T x, T y), (T &s), T, (x - y) * (x - y), a + b, s = a, 0)
