/* sort_keys32.cu - the CUB glue's sort of 4-byte keys (sort.cuh), a
   translation unit of its own so that it compiles beside sort.cu. */

#include "sort.cuh"

cudaError_t ga_cub::sort_keys32(GA_CUB_SORT_PARAMS) { return sort_keys<uint32_t>(GA_CUB_SORT_ARGS); }
