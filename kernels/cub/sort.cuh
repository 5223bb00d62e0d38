/* sort.cuh - the CUB glue's sort of keys of one width, whole or in equal
   segments, with uint32 values or none (sort_keys<K>), shared by the
   translation units that instantiate it: sort.cu (1- and 2-byte keys),
   sort_keys32.cu (4) and sort_keys64.cu (8 and 16), which compile side by
   side (one of them alone was the longest step of a build for one GPU);
   sort.cu's ga__cub_sort picks one by the width. */

#ifndef GPUARR_CUB_SORT_CUH
#define GPUARR_CUB_SORT_CUH

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glue.cuh"

/* The arguments of ga__cub_sort (gpuarr.h's >>abi), values as uint32. */
#define GA_CUB_SORT_PARAMS                                                                                  \
    void *temp, size_t *temp_bytes, void *keys, void *keys_alt, uint32_t *vals, uint32_t *vals_alt, int64_t n, \
        int64_t seg, int *selector, cudaStream_t stream
#define GA_CUB_SORT_ARGS temp, temp_bytes, keys, keys_alt, vals, vals_alt, n, seg, selector, stream

namespace ga_cub {
cudaError_t sort_keys32(GA_CUB_SORT_PARAMS);  /* sort_keys32.cu */
cudaError_t sort_keys64(GA_CUB_SORT_PARAMS);  /* sort_keys64.cu */
cudaError_t sort_keys128(GA_CUB_SORT_PARAMS); /* sort_keys64.cu */
} // namespace ga_cub

namespace {

/* Offsets of equal segments: i * length. */
struct segment_offset {
    int64_t length;
    __host__ __device__ int64_t operator()(int64_t i) const { return i * length; }
};

template <typename K> cudaError_t sort_keys(GA_CUB_SORT_PARAMS)
{
    cub::DoubleBuffer<K> k(static_cast<K *>(keys), static_cast<K *>(keys_alt));
    cudaError_t e = cudaErrorInvalidValue;
    if (seg >= n) { /* one segment: onesweep radix sort */
        if (vals) {
            cub::DoubleBuffer<uint32_t> v(vals, vals_alt);
            e = cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, k, v, n, 0, (int)sizeof(K) * 8, stream);
        } else {
            e = cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, k, n, 0, (int)sizeof(K) * 8, stream);
        }
    } else if constexpr (sizeof(K) < 16) { /* 16-byte keys: one segment only */
        auto begin = thrust::make_transform_iterator(thrust::make_counting_iterator<int64_t>(0), segment_offset{seg});
        auto end = begin + 1;
        int64_t nseg = n / seg;
        if (vals) {
            cub::DoubleBuffer<uint32_t> v(vals, vals_alt);
            e = cub::DeviceSegmentedSort::StableSortPairs(temp, *temp_bytes, k, v, n, nseg, begin, end, stream);
        } else {
            e = cub::DeviceSegmentedSort::StableSortKeys(temp, *temp_bytes, k, n, nseg, begin, end, stream);
        }
    }
    if (temp && e == cudaSuccess) *selector = k.selector;
    return e;
}

} // namespace

#endif
