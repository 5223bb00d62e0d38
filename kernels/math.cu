/* kernels/math.cu - family "math": the ufuncs of gpuarr.h's lists whose
   family is math (exponents, logarithms, trigonometric and hyperbolic
   functions, sinc, angle). See kernels/ufunc.cuh. */

#define GA_FAMILY math
#include "ufunc.cuh"

GA_DEFINE_FATBIN_VERSION

#define GA__IN_FAMILY_arith(...)
#define GA__IN_FAMILY_math(...) __VA_ARGS__

GA_UFUNC_UNARY_LIST(GA__ROW_1)
GA_UFUNC_BINARY_LIST(GA__ROW_1)
GA_UFUNC_OTHER_LIST(GA__ROW_N)
