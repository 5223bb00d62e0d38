/* kernels/arith.cu - family "arith": the ufuncs of gpuarr.h's lists whose
   family is arith (arithmetic, powers, rounding, divmod, modf, frexp, round,
   nan_to_num). See kernels/ufunc.cuh. */

#define GA_FAMILY arith
#define GA__IN_FAMILY_arith(...) __VA_ARGS__ /* this family's rows of the lists */
/* cheap operations: four vectors in flight per input (0.96 x copy for add float32 on an H200 against 0.93 with two) */
#define GA_CONTIG_UNROLL 4
#define GA_STRIDED_UNROLL 4
/* cheap binary operations: lean loops with a scalar input too (x + 2, 1 - x) */
#define GA_LEAN_SCALARS 1
/* complex loops here are mostly cheap (add, multiply, conjugate) */
#define GA_COSTLY_COMPLEX 0
#include "ufunc.cuh"

GA_DEFINE_FATBIN_VERSION

GA_UFUNC_UNARY_LIST(GA__ROW_1)
GA_UFUNC_BINARY_LIST(GA__ROW_1)
GA_UFUNC_OTHER_LIST(GA__ROW_N)
