/* sort_keys64.cu - the CUB glue's sort of 8- and 16-byte keys (sort.cuh;
   16-byte keys in one segment only), a translation unit of its own so
   that it compiles beside sort.cu. */

#include "sort.cuh"

cudaError_t ga_cub::sort_keys64(GA_CUB_SORT_PARAMS) { return sort_keys<uint64_t>(GA_CUB_SORT_ARGS); }

cudaError_t ga_cub::sort_keys128(GA_CUB_SORT_PARAMS) { return sort_keys<__uint128_t>(GA_CUB_SORT_ARGS); }
