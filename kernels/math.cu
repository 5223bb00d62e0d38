/* kernels/math.cu - family "math": the ufuncs of gpuarr.h's lists whose
   family is math (exponents, logarithms, trigonometric and hyperbolic
   functions, sinc, angle). See kernels/ufunc.cuh. */

#define GA_FAMILY math
#define GA__IN_FAMILY_math(...) __VA_ARGS__ /* this family's rows of the lists */
/* costly operations: two vectors in flight per input (exp float32: 0.92 x copy on an H200 against 0.88 with four) */
#define GA_CONTIG_UNROLL 2
#define GA_STRIDED_UNROLL 2
/* long operations: a vector group of K of them is a call, shared by the lean and
   the general contiguous loops (inlined, each loop had its copy: math's code grew
   28% with the lean loops, not 7%); so lean loops with a scalar input cost little */
#define GA_CONTIG_GROUP_CALL 1
#define GA_LEAN_SCALARS 1
/* complex transcendental functions are long: one copy per kernel */
#define GA_COSTLY_COMPLEX 1
#include "ufunc.cuh"

GA_DEFINE_FATBIN_VERSION


GA_UFUNC_UNARY_LIST(GA__ROW_1)
GA_UFUNC_BINARY_LIST(GA__ROW_1)
GA_UFUNC_OTHER_LIST(GA__ROW_N)
