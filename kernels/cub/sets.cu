/* sets.cu - the CUB glue's searching, sets and histograms. Keys are the
   unsigned, order-preserving bit patterns of sort.cu (ga__cub_order_keys),
   of 1, 2, 4, 8 or 16 bytes: searching and finding runs of equal keys are
   then unsigned comparisons whatever the dtype, with a dtype's NaN keys
   known at compile time (none, the all-ones key, or a range of complex
   keys). Histograms read float32 or float64 (other dtypes are converted
   by the caller). */

#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>

#include "glue.cuh"

namespace {

/* --- keys by dtype -------------------------------------------------------- */

/* The NaN keys of a dtype (ga__cub_order_keys): none (bool, integers), the
   all-ones key (floats), or every key from `first` up (complex:
   first_complex_nan_key). */
enum nan_kind { kNoNan, kAllOnesNan, kNanFrom };
template <typename U, int Kind> struct nan_keys {
    using key = U;
    static constexpr int kind = Kind;
    U first;
    __host__ __device__ bool operator()(U k) const
    {
        if constexpr (Kind == kNoNan) return false;
        else if constexpr (Kind == kAllOnesNan) return k == (U)~(U)0;
        else return k >= first;
    }
};

/* f(nan_keys<U, Kind>) for the keys of `dtype`, or cudaErrorInvalidValue
   for a dtype without keys. */
template <typename F> cudaError_t with_keys_of(int dtype, F f)
{
    switch (dtype) {
    case GA_BOOL: case GA_INT8: case GA_UINT8: return f(nan_keys<uint8_t, kNoNan>{0});
    case GA_INT16: case GA_UINT16: return f(nan_keys<uint16_t, kNoNan>{0});
    case GA_FLOAT16: case GA_BFLOAT16: return f(nan_keys<uint16_t, kAllOnesNan>{0});
    case GA_INT32: case GA_UINT32: return f(nan_keys<uint32_t, kNoNan>{0});
    case GA_FLOAT32: return f(nan_keys<uint32_t, kAllOnesNan>{0});
    case GA_INT64: case GA_UINT64: return f(nan_keys<uint64_t, kNoNan>{0});
    case GA_FLOAT64: return f(nan_keys<uint64_t, kAllOnesNan>{0});
    case GA_COMPLEX64: return f(nan_keys<uint64_t, kNanFrom>{first_complex_nan_key<uint32_t>()});
    case GA_COMPLEX128: return f(nan_keys<__uint128_t, kNanFrom>{first_complex_nan_key<uint64_t>()});
    default: return cudaErrorInvalidValue;
    }
}

/* --- runs of equal sorted keys ------------------------------------------- */

/* Whether position i starts a run: the first key, or one unlike the last;
   with NaN keys apart (NanApart, equal_nan false) also every NaN key; with
   NaN keys one run, a key after a NaN key never (complex keys: floats'
   NaN keys are one key already). The predicate runs once per key, so each
   case is its own minimal expression. */
template <typename Nan, bool NanApart> struct run_start {
    const typename Nan::key *keys;
    Nan nan;
    __host__ __device__ bool operator()(int64_t i) const
    {
        if constexpr (NanApart) return i == 0 || keys[i] != keys[i - 1] || nan(keys[i]);
        else if constexpr (Nan::kind == kNanFrom) return i == 0 || (keys[i] != keys[i - 1] && !nan(keys[i - 1]));
        else return i == 0 || keys[i] != keys[i - 1];
    }
};

template <typename Nan, bool NanApart>
cudaError_t select_run_starts(void *temp, size_t *temp_bytes, const void *keys, Nan nan, int64_t n, int64_t *starts,
                              int64_t *num_runs, cudaStream_t stream)
{
    return cub::DeviceSelect::If(temp, *temp_bytes, thrust::make_counting_iterator<int64_t>(0), starts, num_runs, n,
                                 run_start<Nan, NanApart>{static_cast<const typename Nan::key *>(keys), nan}, stream);
}

template <typename U>
__global__ void runs_kernel(const U *keys, const int64_t *starts, int64_t k, int64_t n, const uint32_t *perm,
                            U *unique, int64_t *counts, int64_t *first)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < k; r += (int64_t)gridDim.x * blockDim.x) {
        int64_t s = starts[r], e = r + 1 < k ? starts[r + 1] : n;
        if (unique) unique[r] = keys[s];
        if (counts) counts[r] = e - s;
        if (first) first[r] = perm ? (int64_t)perm[s] : s;
    }
}

template <typename U>
void runs_typed(const void *keys, const int64_t *starts, int64_t k, int64_t n, const uint32_t *perm, void *unique,
                int64_t *counts, int64_t *first, cudaStream_t stream)
{
    runs_kernel<U><<<grid_for(k), 256, 0, stream>>>(static_cast<const U *>(keys), starts, k, n, perm,
                                                     static_cast<U *>(unique), counts, first);
}

/* --- binary search -------------------------------------------------------- */

/* The first position in sorted[0, n) whose key is >= q (right: > q). */
template <typename U>
__device__ __forceinline__ int64_t bound(const U *sorted, int64_t n, U q, bool right)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + ((hi - lo) >> 1);
        U x = sorted[mid];
        if (right ? x <= q : x < q) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ids[perm[p]] = the run of sorted position p. */
__global__ void run_ids_kernel(const int64_t *starts, int64_t k, int64_t n, const uint32_t *perm, int64_t *ids)
{
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n; p += (int64_t)gridDim.x * blockDim.x)
        ids[perm[p]] = bound(starts, k, p, true) - 1;
}

template <typename Nan, typename U = typename Nan::key>
__global__ void search_kernel(const U *sorted, int64_t n, const U *queries, int64_t m, int mode, Nan nan,
                              int64_t *pos, bool *found)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m; i += (int64_t)gridDim.x * blockDim.x) {
        U q = queries[i];
        int64_t p = bound(sorted, n, q, mode == GA__CUB_SEARCH_RIGHT || mode == GA__CUB_SEARCH_RIGHT_FROM_END);
        switch (mode) {
        case GA__CUB_SEARCH_LEFT:
        case GA__CUB_SEARCH_RIGHT: pos[i] = p; break;
        case GA__CUB_SEARCH_LEFT_FROM_END:
        case GA__CUB_SEARCH_RIGHT_FROM_END: pos[i] = n - p; break;
        default: {
            bool hit = p < n && sorted[p] == q && !nan(q);
            found[i] = mode == GA__CUB_SEARCH_FOUND ? hit : !hit;
        }
        }
    }
}

/* next[i]: keys[i] equals keys[i + 1]; prev[i]: keys[i] equals keys[i - 1]
   (a NaN key equals nothing); either may be null. */
template <typename Nan, typename U = typename Nan::key>
__global__ void equal_neighbours_kernel(const U *keys, int64_t n, Nan nan, uint8_t *next, uint8_t *prev)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        U key = keys[i];
        bool number = !nan(key);
        if (next) next[i] = number && i + 1 < n && keys[i + 1] == key;
        if (prev) prev[i] = number && i > 0 && keys[i - 1] == key;
    }
}

/* --- histograms ----------------------------------------------------------- */

/* Bins that privatise their counters in shared memory (and their edges:
   (nbins + 1) doubles and nbins counters fit in 48 KiB). */
constexpr int64_t kSharedBins = 2048;

/* The bin of x: i with edges[i] <= x < edges[i + 1], the last bin closed;
   -1 outside [edges[0], edges[nbins]] and for NaN. Uniform bins guess from
   (x - lo) * scale and step to the bin the edges say; others search. */
template <typename T>
__device__ __forceinline__ int64_t bin_of(T x, const T *edges, int64_t nbins, int uniform, T lo, T scale)
{
    if (!(x >= edges[0] && x <= edges[nbins])) return -1;
    int64_t b;
    if (uniform) {
        T f = (x - lo) * scale;
        b = f < (T)0 ? 0 : f >= (T)nbins ? nbins - 1 : (int64_t)f;
        while (b > 0 && x < edges[b]) b--;
        while (b < nbins - 1 && x >= edges[b + 1]) b++;
    } else {
        int64_t l = 0, h = nbins + 1; /* the last edge <= x */
        while (h - l > 1) {
            int64_t mid = l + ((h - l) >> 1);
            if (edges[mid] <= x) l = mid;
            else h = mid;
        }
        b = l < nbins ? l : nbins - 1;
    }
    return b;
}

template <typename T>
__global__ void histogram_kernel(const T *in, int64_t n, const T *edges_global, int64_t nbins, int uniform, T lo,
                                 T scale, unsigned long long *counts, uint32_t *ids)
{
    extern __shared__ __align__(16) unsigned char shared_raw[];
    const bool shared = nbins <= kSharedBins;
    T *edges_shared = reinterpret_cast<T *>(shared_raw);
    unsigned int *local = reinterpret_cast<unsigned int *>(shared_raw + (nbins + 1) * sizeof(T));
    const T *edges = edges_global;
    if (shared) {
        for (int64_t i = threadIdx.x; i <= nbins; i += blockDim.x) edges_shared[i] = edges_global[i];
        if (!ids)
            for (int64_t i = threadIdx.x; i < nbins; i += blockDim.x) local[i] = 0;
        __syncthreads();
        edges = edges_shared;
    }
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (ids) {
        for (int64_t i = first; i < n; i += stride) {
            int64_t b = bin_of(in[i], edges, nbins, uniform, lo, scale);
            ids[i] = b < 0 ? (uint32_t)nbins : (uint32_t)b;
        }
        return;
    }
    constexpr int kVec = 16 / sizeof(T);
    auto count = [&](T x) {
        int64_t b = bin_of(x, edges, nbins, uniform, lo, scale);
        if (b < 0) return;
        if (shared) atomicAdd(&local[b], 1u);
        else atomicAdd(&counts[b], 1ull);
    };
    /* 16-byte loads where the data is aligned, then the tail */
    int64_t head = ((16 - (int64_t)((uintptr_t)in & 15)) & 15) / (int64_t)sizeof(T);
    if (((uintptr_t)in % sizeof(T)) != 0 || head > n) head = n;
    for (int64_t i = first; i < head; i += stride) count(in[i]);
    int64_t nvec = (n - head) / kVec;
    const T *body = in + head;
    for (int64_t v = first; v < nvec; v += stride) {
        T x[kVec];
        if constexpr (sizeof(T) == 4) {
            float4 q = reinterpret_cast<const float4 *>(body)[v];
            x[0] = q.x, x[1] = q.y, x[2] = q.z, x[3] = q.w;
        } else {
            double2 q = reinterpret_cast<const double2 *>(body)[v];
            x[0] = q.x, x[1] = q.y;
        }
#pragma unroll
        for (int j = 0; j < kVec; j++) count(x[j]);
    }
    for (int64_t i = head + nvec * kVec + first; i < n; i += stride) count(in[i]);
    if (shared) {
        __syncthreads();
        for (int64_t i = threadIdx.x; i < nbins; i += blockDim.x)
            if (local[i]) atomicAdd(&counts[i], (unsigned long long)local[i]);
    }
}

template <typename T>
cudaError_t histogram_typed(const void *in, int64_t n, const void *edges, int64_t nbins, int uniform, double lo,
                            double scale, void *counts, uint32_t *ids, cudaStream_t stream)
{
    size_t shared = nbins <= kSharedBins ? (size_t)(nbins + 1) * sizeof(T) + (size_t)nbins * 4 : 0;
    int sms = 0, device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int grid = grid_for(n);
    if (sms > 0 && grid > sms * 8) grid = sms * 8; /* fewer blocks, fewer flushes of the shared counters */
    histogram_kernel<T><<<grid, 256, shared, stream>>>(static_cast<const T *>(in), n, static_cast<const T *>(edges),
                                                        nbins, uniform, (T)lo, (T)scale,
                                                        static_cast<unsigned long long *>(counts), ids);
    return cudaGetLastError();
}

__global__ void bincount_kernel(const int64_t *in, int64_t n, int64_t nbins, unsigned long long *counts)
{
    extern __shared__ unsigned int local_counts[];
    const bool shared = nbins <= kSharedBins * 4;
    if (shared) {
        for (int64_t i = threadIdx.x; i < nbins; i += blockDim.x) local_counts[i] = 0;
        __syncthreads();
    }
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = in[i];
        if (shared) atomicAdd(&local_counts[b], 1u);
        else atomicAdd(&counts[b], 1ull);
    }
    if (shared) {
        __syncthreads();
        for (int64_t i = threadIdx.x; i < nbins; i += blockDim.x)
            if (local_counts[i]) atomicAdd(&counts[i], (unsigned long long)local_counts[i]);
    }
}

/* offsets[b] for b in [0, nbins]: the first sorted id >= b. */
__global__ void bin_offsets_kernel(const uint32_t *sorted_ids, int64_t n, int64_t nbins, int64_t *offsets)
{
    for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b <= nbins; b += (int64_t)gridDim.x * blockDim.x)
        offsets[b] = bound(sorted_ids, n, (uint32_t)b, false);
}

} // namespace

extern "C" {

int ga__cub_run_starts(void *temp, size_t *temp_bytes, const void *keys, int dtype, int equal_nan, int64_t n,
                       int64_t *starts, int64_t *num_runs, struct CUstream_st *stream)
{
    return done(with_keys_of(dtype, [&](auto nan) {
        using Nan = decltype(nan);
        using U = typename Nan::key;
        if constexpr (Nan::kind == kNoNan) {
            return select_run_starts<Nan, false>(temp, temp_bytes, keys, nan, n, starts, num_runs, stream);
        } else if constexpr (Nan::kind == kAllOnesNan) { /* equal_nan: one NaN key, runs as for integers */
            if (equal_nan)
                return select_run_starts<nan_keys<U, kNoNan>, false>(temp, temp_bytes, keys, {0}, n, starts,
                                                                      num_runs, stream);
            return select_run_starts<Nan, true>(temp, temp_bytes, keys, nan, n, starts, num_runs, stream);
        } else {
            if (equal_nan)
                return select_run_starts<Nan, false>(temp, temp_bytes, keys, nan, n, starts, num_runs, stream);
            return select_run_starts<Nan, true>(temp, temp_bytes, keys, nan, n, starts, num_runs, stream);
        }
    }));
}

int ga__cub_runs(const void *keys, int key_bytes, const int64_t *starts, int64_t num_runs, int64_t n,
                 const uint32_t *perm, void *unique, int64_t *counts, int64_t *first, struct CUstream_st *stream)
{
    if (num_runs <= 0) return 0;
    switch (key_bytes) {
    case 1: runs_typed<uint8_t>(keys, starts, num_runs, n, perm, unique, counts, first, stream); break;
    case 2: runs_typed<uint16_t>(keys, starts, num_runs, n, perm, unique, counts, first, stream); break;
    case 4: runs_typed<uint32_t>(keys, starts, num_runs, n, perm, unique, counts, first, stream); break;
    case 8: runs_typed<uint64_t>(keys, starts, num_runs, n, perm, unique, counts, first, stream); break;
    case 16: runs_typed<__uint128_t>(keys, starts, num_runs, n, perm, unique, counts, first, stream); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return done(cudaGetLastError());
}

int ga__cub_run_ids(const int64_t *starts, int64_t num_runs, int64_t n, const uint32_t *perm, int64_t *ids,
                    struct CUstream_st *stream)
{
    if (n <= 0) return 0;
    run_ids_kernel<<<grid_for(n), 256, 0, stream>>>(starts, num_runs, n, perm, ids);
    return done(cudaGetLastError());
}

int ga__cub_search(const void *sorted, int64_t n, const void *queries, int64_t m, int dtype, int mode, void *out,
                   struct CUstream_st *stream)
{
    if (m <= 0) return 0;
    return done(with_keys_of(dtype, [&](auto nan) {
        using U = typename decltype(nan)::key;
        search_kernel<<<grid_for(m), 256, 0, stream>>>(static_cast<const U *>(sorted), n,
                                                        static_cast<const U *>(queries), m, mode, nan,
                                                        static_cast<int64_t *>(out), static_cast<bool *>(out));
        return cudaGetLastError();
    }));
}

int ga__cub_equal_neighbours(const void *keys, int dtype, int64_t n, uint8_t *next, uint8_t *prev,
                             struct CUstream_st *stream)
{
    if (n <= 0) return 0;
    return done(with_keys_of(dtype, [&](auto nan) {
        using U = typename decltype(nan)::key;
        equal_neighbours_kernel<<<grid_for(n), 256, 0, stream>>>(static_cast<const U *>(keys), n, nan, next, prev);
        return cudaGetLastError();
    }));
}

int ga__cub_histogram(const void *in, int dtype, int64_t n, const void *edges, int64_t nbins, int uniform, double lo,
                      double scale, void *counts, uint32_t *ids, struct CUstream_st *stream)
{
    if (n <= 0 || nbins <= 0) return 0;
    switch (dtype) {
    case GA_FLOAT32:
        return done(histogram_typed<float>(in, n, edges, nbins, uniform, lo, scale, counts, ids, stream));
    case GA_FLOAT64:
        return done(histogram_typed<double>(in, n, edges, nbins, uniform, lo, scale, counts, ids, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

int ga__cub_bincount(const int64_t *in, int64_t n, int64_t nbins, void *counts, struct CUstream_st *stream)
{
    if (n <= 0 || nbins <= 0) return 0;
    size_t shared = nbins <= kSharedBins * 4 ? (size_t)nbins * 4 : 0;
    bincount_kernel<<<grid_for(n), 256, shared, stream>>>(in, n, nbins, static_cast<unsigned long long *>(counts));
    return done(cudaGetLastError());
}

int ga__cub_weighted_bins(void *temp, size_t *temp_bytes, const uint32_t *sorted_ids, const uint32_t *perm,
                          const double *weights, int64_t n, int64_t nbins, double *out, struct CUstream_st *stream)
{
    /* the offsets of the bins' runs, then the sums over them, at the
       start and end of temp */
    size_t offsets_bytes = ((size_t)(nbins + 1) * 8 + 255) & ~(size_t)255, reduce_bytes = 0;
    auto values = thrust::make_permutation_iterator(weights, perm);
    int64_t *offsets = temp ? static_cast<int64_t *>(temp) : nullptr;
    cudaError_t e = cub::DeviceSegmentedReduce::Sum(nullptr, reduce_bytes, values, out, nbins, offsets, offsets + 1,
                                                    stream);
    if (e != cudaSuccess) return done(e);
    if (!temp) {
        *temp_bytes = offsets_bytes + reduce_bytes;
        return 0;
    }
    if (nbins <= 0) return 0;
    bin_offsets_kernel<<<grid_for(nbins + 1), 256, 0, stream>>>(sorted_ids, n, nbins, offsets);
    e = cudaGetLastError();
    if (e != cudaSuccess) return done(e);
    return done(cub::DeviceSegmentedReduce::Sum(static_cast<unsigned char *>(temp) + offsets_bytes, reduce_bytes,
                                                values, out, nbins, offsets, offsets + 1, stream));
}

} // extern "C"
