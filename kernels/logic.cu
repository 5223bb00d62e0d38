/* kernels/logic.cu - family "logic": the reductions of truth values, count
   (count_nonzero, and the nan functions' counts of numbers) and logic (all,
   any), which read every dtype as nonzero / not NaN: the rows of gpuarr.h's
   GA__REDUCE_OP_LIST that name this family. The kernels are those of
   kernels/reduce.cu (see there, and reduce.cuh), in a family of their own
   so that the families compile side by side. */

#define GA_FAMILY logic
#define GA__IN_FAMILY_logic(...) __VA_ARGS__ /* this family's rows of the list */
#include "reduce.cuh"

GA_DEFINE_FATBIN_VERSION

GA__REDUCE_OWN_KERNELS
