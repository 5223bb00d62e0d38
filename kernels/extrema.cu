/* kernels/extrema.cu - family "extrema": the reductions min / max (minmax)
   and argmin / argmax (arg), with the combine passes of their partial
   states (argcombine, minmaxcombine): the rows of gpuarr.h's
   GA__REDUCE_OP_LIST that name this family. The kernels are those of
   kernels/reduce.cu (see there, and reduce.cuh), in a family of their own
   so that the families compile side by side; their warnings go to the reduce
   family's word, whose address the host passes. */

#define GA_FAMILY extrema
#define GA__IN_FAMILY_extrema(...) __VA_ARGS__ /* this family's rows of the list */
#include "reduce.cuh"

GA_DEFINE_FATBIN_VERSION

GA__REDUCE_OWN_KERNELS
