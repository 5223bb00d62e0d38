/* kernels/compare.cu - family "compare": the ufuncs of gpuarr.h's lists
   whose family is compare (comparisons, logic, maximum / minimum, bits,
   isnan and its kin, where, clip, isclose), and allclose's reduction. See
   kernels/ufunc.cuh. A family of its own, apart from arith, so that the two
   compile side by side: each is about half of what was one translation
   unit, the longest step of a build for one GPU. */

#define GA_FAMILY compare
#define GA__IN_FAMILY_compare(...) __VA_ARGS__ /* this family's rows of the lists */
/* cheap operations, tuned as arith's (kernels/arith.cu) */
#define GA_CONTIG_UNROLL 4
#define GA_STRIDED_UNROLL 4
#define GA_LEAN_SCALARS 1
#define GA_COSTLY_COMPLEX 0 /* complex compare, where, clip: cheap */
#include "ufunc.cuh"

GA_DEFINE_FATBIN_VERSION

GA_UFUNC_UNARY_LIST(GA__ROW_1)
GA_UFUNC_BINARY_LIST(GA__ROW_1)
GA_UFUNC_OTHER_LIST(GA__ROW_N)

/* int64 against uint64, exactly (NumPy's qQ and Qq loops). */
GA__UFUNC_MIXED_KERNELS(equal)
GA__UFUNC_MIXED_KERNELS(not_equal)
GA__UFUNC_MIXED_KERNELS(less)
GA__UFUNC_MIXED_KERNELS(less_equal)
GA__UFUNC_MIXED_KERNELS(greater)
GA__UFUNC_MIXED_KERNELS(greater_equal)

/* allclose: *flag = 0 when any of the n bools at p is false. */
extern "C" __global__ void ga_compare_all_true(const uint8_t *p, int64_t n, int32_t *flag)
{
    bool all = true;
    GA_GRID_STRIDE_LOOP(i, n) all &= p[i] != 0;
    if (__syncthreads_or(!all) && threadIdx.x == 0) *flag = 0;
}
