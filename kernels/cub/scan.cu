/* scan.cu - the CUB glue's scans: inclusive sums and products over int64
   (also uint64: the bits of sums and products agree), float32, float64,
   complex64 and complex128, whole or in equal segments; the nan forms read
   NaN as 0 (sums) or 1 (products). Sums of real numbers use
   cuda::std::plus, which CUB recognises and runs with its tuned policies. */

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glue.cuh"

namespace {

/* --- scans ---------------------------------------------------------------- */

template <typename T> struct mul_op {
    __host__ __device__ T operator()(const T &a, const T &b) const { return a * b; }
};
template <typename R> struct cplx_add {
    __host__ __device__ cplx<R> operator()(const cplx<R> &a, const cplx<R> &b) const
    {
        return cplx<R>{a.re + b.re, a.im + b.im};
    }
};
template <typename R> struct mul_op<cplx<R>> {
    __host__ __device__ cplx<R> operator()(const cplx<R> &a, const cplx<R> &b) const
    {
        return cplx<R>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
};
template <typename T> struct add_of { using type = ::cuda::std::plus<T>; };
template <typename R> struct add_of<cplx<R>> { using type = cplx_add<R>; };
template <typename T> using add_op = typename add_of<T>::type;

/* The nan forms' loads: an element with a NaN part reads as 0 (sums) or 1
   (products). */
template <typename T> __host__ __device__ inline bool has_nan(const T &x) { return x != x; }
template <typename R> __host__ __device__ inline bool has_nan(const cplx<R> &x) { return x.re != x.re || x.im != x.im; }
template <typename T> __host__ __device__ inline T one_of() { return T(1); }
template <> __host__ __device__ inline cplx<float> one_of<cplx<float>>() { return cplx<float>{1, 0}; }
template <> __host__ __device__ inline cplx<double> one_of<cplx<double>>() { return cplx<double>{1, 0}; }

template <typename T, bool Prod> struct nan_as_identity {
    __host__ __device__ T operator()(const T &x) const
    {
        if (!has_nan(x)) return x;
        return Prod ? one_of<T>() : T{};
    }
};

/* The key of element i of equal segments: i / length. */
struct segment_of {
    int64_t length;
    __host__ __device__ int64_t operator()(int64_t i) const { return i / length; }
};

/* float32 sums from sm_90 on: 128 threads x 32 items a tile, the best of
   15 scan policies on an H200 (2^28 elements: 0.80 x a device copy, CUB's
   own 0.74); sm_100 keeps CUB's tuning, older archs CUB's policies. */
using f32_offset = unsigned long long;
using f32_cub_hub = cub::detail::scan::policy_hub<float, float, float, f32_offset, add_op<float>>;
struct f32_sum_hub {
    struct Policy900 : cub::ChainedPolicy<900, Policy900, f32_cub_hub::Policy860> {
        using ScanPolicyT =
            cub::AgentScanPolicy<128, 32, float, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                 cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                                 cub::detail::MemBoundScaling<128, 32, float>, cub::detail::fixed_delay_constructor_t<688, 1140>>;
    };
    struct Policy1000 : cub::ChainedPolicy<1000, Policy1000, Policy900> {
        using ScanPolicyT = f32_cub_hub::Policy1000::ScanPolicyT;
    };
    using MaxPolicy = Policy1000;
};

template <typename T, typename Op, typename In>
cudaError_t scan_whole(void *temp, size_t *temp_bytes, In i, T *o, int64_t n, cudaStream_t stream)
{
    return cub::DeviceScan::InclusiveScan(temp, *temp_bytes, i, o, Op(), n, stream);
}
template <>
cudaError_t scan_whole<float, add_op<float>, const float *>(void *temp, size_t *temp_bytes, const float *i, float *o, int64_t n,
                                                            cudaStream_t stream)
{
    return cub::DispatchScan<const float *, float *, add_op<float>, cub::NullType, f32_offset, float, cub::ForceInclusive::No,
                             f32_sum_hub>::Dispatch(temp, *temp_bytes, i, o, add_op<float>(), cub::NullType(), (f32_offset)n,
                                                    stream);
}

template <typename T, typename Op, typename In>
cudaError_t scan_op(void *temp, size_t *temp_bytes, In i, void *out, int64_t n, int64_t seg, cudaStream_t stream)
{
    T *o = static_cast<T *>(out);
    if (seg >= n) return scan_whole<T, Op, In>(temp, temp_bytes, i, o, n, stream);
    auto keys = thrust::make_transform_iterator(thrust::make_counting_iterator<int64_t>(0), segment_of{seg});
    return cub::DeviceScan::InclusiveScanByKey(temp, *temp_bytes, keys, i, o, Op(), n, ::cuda::std::equal_to<>(),
                                               stream);
}

template <typename T>
cudaError_t scan_typed(void *temp, size_t *temp_bytes, const void *in, void *out, int op, int64_t n, int64_t seg,
                       cudaStream_t stream)
{
    const T *i = static_cast<const T *>(in);
    switch (op) {
    case GA__CUB_SCAN_SUM: return scan_op<T, add_op<T>>(temp, temp_bytes, i, out, n, seg, stream);
    case GA__CUB_SCAN_PROD: return scan_op<T, mul_op<T>>(temp, temp_bytes, i, out, n, seg, stream);
    default: break;
    }
    return cudaErrorInvalidValue;
}

/* The nan forms, for the dtypes that have NaN. */
template <typename T>
cudaError_t scan_inexact(void *temp, size_t *temp_bytes, const void *in, void *out, int op, int64_t n, int64_t seg,
                         cudaStream_t stream)
{
    const T *i = static_cast<const T *>(in);
    if (op == GA__CUB_SCAN_NANSUM)
        return scan_op<T, add_op<T>>(temp, temp_bytes, thrust::make_transform_iterator(i, nan_as_identity<T, false>()),
                                     out, n, seg, stream);
    if (op == GA__CUB_SCAN_NANPROD)
        return scan_op<T, mul_op<T>>(temp, temp_bytes, thrust::make_transform_iterator(i, nan_as_identity<T, true>()),
                                     out, n, seg, stream);
    return scan_typed<T>(temp, temp_bytes, in, out, op, n, seg, stream);
}

} // namespace

extern "C" {

int ga__cub_scan(void *temp, size_t *temp_bytes, const void *in, void *out, int dtype, int op, int64_t n,
                 int64_t segment_length, struct CUstream_st *stream)
{
    if (segment_length < 1) segment_length = n;
    switch (dtype) {
    case GA_INT64:
    case GA_UINT64:
        return done(scan_typed<uint64_t>(temp, temp_bytes, in, out, op, n, segment_length, stream));
    case GA_FLOAT32:
        return done(scan_inexact<float>(temp, temp_bytes, in, out, op, n, segment_length, stream));
    case GA_FLOAT64:
        return done(scan_inexact<double>(temp, temp_bytes, in, out, op, n, segment_length, stream));
    case GA_COMPLEX64:
        return done(scan_inexact<cplx<float>>(temp, temp_bytes, in, out, op, n, segment_length, stream));
    case GA_COMPLEX128:
        return done(scan_inexact<cplx<double>>(temp, temp_bytes, in, out, op, n, segment_length, stream));
    default:
        return (int)cudaErrorInvalidValue;
    }
}

} // extern "C"
