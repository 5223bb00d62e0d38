/* kernels/sparse.cu - family "sparse": the structure of sparse matrices
   (gpuarr.h, >>sparse). I is an index dtype (int32, int64), T a value
   dtype of scipy.sparse (every dtype but float16 and bfloat16), K a sort
   key (uint32, uint64, or an index dtype). Grid-stride loops throughout:
   any launch shape is correct.

     ga_sparse_check_compressed_<I>(const I *indptr, const I *indices, int64_t major, int64_t minor,
                                    int64_t nnz, ga__sparse_check *out)
         The structure of a CSR (CSC) matrix: indptr[0] == 0, indptr never
         decreasing, every index in [0, minor), each row's indices strictly
         increasing (else GA__SPARSE_UNSORTED, not an error: the matrix is
         not canonical); out->last = indptr[major]. A warp per row (lanes
         across its entries); a row whose pointers leave [0, nnz] is not
         read. minor < 0: no upper bound (the shape is being inferred).
     ga_sparse_check_coo_<I>(const I *row, const I *col, int64_t rows, int64_t cols, int64_t nnz,
                             ga__sparse_check *out)
         The same for COO's index arrays (rows or cols < 0: no bound).
     ga_sparse_expand_<I>(I *major_of, const I *indptr, int64_t major, int64_t nnz)
         The row (CSC: column) of each entry j: the last r with indptr[r] <= j.
     ga_sparse_swap_keys_<I>(uint64_t *keys, const I *indptr, const I *indices, int64_t major, int64_t nnz)
         keys[j] = indices[j] << 32 | the row (CSC: column) of entry j: a
         stable sort by the high word turns CSR into CSC (and back), each
         column's rows ascending (major and minor at most 2**32).
     ga_sparse_swap_count_<I>(uint32_t *counts, const void *col, int32_t first, int64_t n, int32_t shift,
                              int32_t bits, int64_t chunks, int64_t span)
     ga_sparse_swap_scan(uint32_t *counts, uint32_t *totals, int64_t chunks, int32_t bins)
     ga_sparse_swap_scatter_<V>_<I>(const uint32_t *counts, const uint32_t *totals, int64_t chunks,
                                    int64_t span, int64_t n, int32_t shift, int32_t bits, int32_t first,
                                    int32_t last, const void *col, const void *row, int64_t major,
                                    const V *data, uint32_t *col_out, void *row_out, V *data_out)
         One pass of a stable LSD radix sort of the entries of a compressed
         matrix by their minor index (col), digits of `bits` (at most 11)
         at `shift`: CSR <-> CSC in one pass a digit. A chunk of
         GA__SWAP_WARPS * span entries a block (`chunks` of them), a warp a
         span of it in order. count: counts[d * chunks + c] = the entries
         of chunk c with digit d. scan (256 threads a block): each digit's
         row of counts to its exclusive prefix sums, totals[d] its sum.
         scatter: entry j goes to (digits below its own) + (its digit in
         the chunks before) + (in the warps before) + (in the lanes and
         rounds before: __match_any_sync), moving col (uint32), row and
         data (V: an item of the data's size). first: col is the I
         indices and row the I indptr (each entry's row searched), else
         both uint32 from the pass before; last: row_out is I, else
         uint32. n below 2**32.
     ga_sparse_keys_<I>_<K>(K *keys, const I *major, const I *minor, int64_t nnz, uint64_t minor_dim)
         keys[j] = major[j] * minor_dim + minor[j]: sorting them orders the
         entries by row, then column.
     ga_sparse_indptr_<K>_<I>(I *indptr, const K *sorted, int64_t n, int64_t major, uint64_t divisor)
         indptr[i] = the number of sorted keys below i * divisor, for i in [0, major].
     ga_sparse_runs_<K>_<I>(I *minor, I *major, const K *keys, const int64_t *starts, int64_t runs,
                            uint64_t divisor)
         For run r (starting at starts[r]; starts NULL: r itself): minor[r] =
         its key % divisor and, where major is not NULL, major[r] = key / divisor.
     ga_sparse_gather_<T>(T *out, const T *in, const uint32_t *perm, const int64_t *starts,
                          int64_t runs, int64_t n)
         out[r] = the sum, in sorted order, of in[perm[p]] over the p of run
         r (runs starting at starts[r], the last ending at n; starts NULL:
         run r is p = r alone). bool sums as logical or; integers wrap.
     ga_sparse_toarray_<T>_<I>(T *out, const T *data, const I *indptr, const I *indices, int64_t major,
                               int64_t nnz, int64_t s_major, int64_t s_minor, int32_t accumulate)
         Writes the entries into the zeroed dense `out` (element strides
         s_major, s_minor): a thread per entry (accumulate 0: no duplicates),
         or a thread per row adding its entries in order (accumulate 1).
     ga_sparse_spmm_<T>_<I>(T *y, const T *data, const I *indptr, const I *indices, const T *x,
                            int64_t rows, int64_t k, int64_t xr, int64_t xc, int64_t yr, int64_t yc,
                            int64_t *long_rows, unsigned long long *nlong)
         y[r, c] = sum over row r's entries j of data[j] x[indices[j], c] (element
         strides xr, xc, yr, yc), added in order, a thread each (bool and
         integers: NumPy's wrap-around sums; bool: or of and); a row of
         more than 4096 entries is appended to long_rows (*nlong zeroed
         by the host before) instead.
     ga_sparse_spmm_chunks_<T>_<I>(T *partials, ..., int64_t rows, int64_t nnz, int64_t k, xr, xc,
                                   const unsigned long long *nlong)
     ga_sparse_spmm_combine_<T>_<I>(T *y, const T *partials, const I *indptr, int64_t k, yr, yc,
                                    const int64_t *long_rows, const unsigned long long *nlong)
         The rows spmm left: each chunk of 2048 entries a block (any
         grid), its long rows' products summed by a fixed tree into
         partials (2 x k values a chunk); then each of their y[r, c] a
         thread, the chunks' sums added in order.
     ga_sparse_diag_<I>(I *rows, I *cols, int64_t n, int64_t r0, int64_t c0)
         rows[i] = r0 + i, cols[i] = c0 + i: a diagonal's entries.
     ga_sparse_segsum_<S>_<I>(S *out, const S *data, const I *indptr, int64_t major, int32_t log2g)
         out[r] = the sum of row r's values (a group of 1 << log2g lanes
         per row, 1 to 32, lanes across it, then a tree: deterministic for
         a given log2g), for the sum dtypes S (int64, uint64, float32,
         float64, complex64, complex128). The grid covers the rows (a
         thread per lane of each group); a smaller one loops.
     ga_sparse_merge_<T>_<I>(int32_t pass, int64_t *counts, const int64_t *offsets, T *out_data,
                             I *out_idx, const T *ad, const I *ap, const I *ai, const T *bd, const I *bp,
                             const I *bi, int64_t major, int32_t op, int32_t log2g)
         op(A, B) of two canonical compressed matrices, a thread per row
         merging its two sorted rows (log2g 0), or for ops 0 and 1 a group
         of 1 << log2g lanes per row (2 to 32) placing each entry by binary
         searches (the grid covers the rows' lanes; a smaller one loops):
         op 0 A + B, 1 A - B, 2 A * B, 3
         maximum, 4 minimum (std::max and std::min, as SciPy's sparsetools:
         complex ordered by real part, then imaginary), a value missing
         from one matrix being 0 there; results that are zero are dropped
         (SciPy's binop). Pass 0 stores each row's count at counts[r + 1];
         pass 1 writes row r's entries from offsets[r].
     ga_sparse_extreme_<T>_<I>(T *value, int64_t *index, const T *data, const I *indptr,
                               const I *indices, int64_t major, int64_t length, int32_t op)
         For each line r (a warp a line) of a canonical compressed matrix
         whose lines hold `length` places, SciPy's _minmax_mixin: op 0 max,
         1 min (value[r]: the extreme stored value as NumPy's maximum /
         minimum reduce it, NaN winning, then against 0 where the line has
         an implicit zero), 2 argmax, 3 argmin (index[r]: the first stored
         extreme's index when it is strictly above (below) 0 or the line is
         full, else the first implicit zero's place, or the smaller of that
         and the extreme's index where the extreme is 0; 0 for an empty
         line). indices is read only for ops 2 and 3. */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

namespace {

/* a + b in T's arithmetic, bool as or. */
template <class T> GA_DEV T ga__sp_add(T a, T b)
{
    if constexpr (ga_num<T>::is_bool) {
        T r;
        r.v = (a.v || b.v) ? 1 : 0;
        return r;
    } else {
        return ga_value_add(a, b);
    }
}

template <class T> GA_DEV T ga__sp_zero()
{
    if constexpr (ga_num<T>::is_bool) {
        T r;
        r.v = 0;
        return r;
    } else if constexpr (ga_num<T>::is_complex) {
        return ga_cplx<T>(0, 0);
    } else {
        return (T)0;
    }
}

/* The largest r in [0, n) with p[r] <= v (p non-decreasing, p[0] <= v). */
template <class P> GA_DEV int64_t ga__sp_upper(const P *p, int64_t n, int64_t v)
{
    int64_t lo = 0, hi = n; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)p[mid] <= v) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* ga__sp_upper from a known answer's lower bound r (p[r] <= v): galloping
   forward, then a binary search (v non-decreasing over calls). */
template <class P> GA_DEV int64_t ga__sp_advance(const P *p, int64_t n, int64_t r, int64_t v)
{
    int64_t lo = r, hi = r + 1, step = 1; /* p[lo] <= v; the answer in [lo, hi) once p[hi] > v or hi == n */
    while (hi < n && (int64_t)p[hi] <= v) {
        lo = hi;
        step <<= 1;
        hi = lo + step;
    }
    if (hi > n) hi = n;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)p[mid] <= v) lo = mid;
        else hi = mid;
    }
    return lo;
}

template <class I>
GA_DEV void ga__check_compressed(const I *indptr, const I *indices, int64_t major, int64_t minor, int64_t nnz,
                                 ga__sparse_check *out)
{
    const int lane = threadIdx.x & 31;
    const int64_t warp = ga_thread_index() / 32, warps = ga_thread_count() / 32;
    const int64_t rows = major > 0 ? major : 1;
    for (int64_t r = warp; r < rows; r += warps) {
        uint32_t flags = 0;
        uint64_t end = 0;
        if (r == 0 && lane == 0) {
            if (indptr[0] != 0) flags |= GA__SPARSE_BAD_START;
            out->last = (int64_t)indptr[major];
        }
        if (r < major) {
            const int64_t a = (int64_t)indptr[r], b = (int64_t)indptr[r + 1];
            if (lane == 0 && a > b) flags |= GA__SPARSE_BAD_ORDER;
            if (a >= 0 && a <= b && b <= nnz)
                for (int64_t j = a + lane; j < b; j += 32) {
                    const int64_t v = (int64_t)indices[j];
                    if (v < 0) flags |= GA__SPARSE_NEGATIVE;
                    else if (minor >= 0 && v >= minor) flags |= GA__SPARSE_LARGE;
                    else if ((uint64_t)v + 1 > end) end = (uint64_t)v + 1;
                    if (j > a && (int64_t)indices[j - 1] >= v) flags |= GA__SPARSE_UNSORTED;
                }
        }
        for (int o = 16; o > 0; o >>= 1) {
            flags |= __shfl_xor_sync(0xffffffffu, flags, o);
            const uint64_t e = __shfl_xor_sync(0xffffffffu, (unsigned long long)end, o);
            end = e > end ? e : end;
        }
        if (lane == 0) {
            if (flags) atomicOr(&out->flags, flags);
            if (end) atomicMax((unsigned long long *)&out->ends[1], (unsigned long long)end);
        }
    }
}

template <class I>
GA_DEV void ga__check_coo(const I *row, const I *col, int64_t rows, int64_t cols, int64_t nnz, ga__sparse_check *out)
{
    uint32_t flags = 0;
    uint64_t end[2] = {0, 0};
    GA_GRID_STRIDE_LOOP(j, nnz)
    {
        const int64_t v[2] = {(int64_t)row[j], (int64_t)col[j]}, dim[2] = {rows, cols};
        for (int k = 0; k < 2; k++) {
            if (v[k] < 0) flags |= k ? GA__SPARSE_NEGATIVE_COL : GA__SPARSE_NEGATIVE;
            else if (dim[k] >= 0 && v[k] >= dim[k]) flags |= k ? GA__SPARSE_LARGE_COL : GA__SPARSE_LARGE;
            else if ((uint64_t)v[k] + 1 > end[k]) end[k] = (uint64_t)v[k] + 1;
        }
    }
    if (flags) atomicOr(&out->flags, flags);
    for (int k = 0; k < 2; k++)
        if (end[k]) atomicMax((unsigned long long *)&out->ends[k], (unsigned long long)end[k]);
}

template <class I> GA_DEV void ga__expand(I *major_of, const I *indptr, int64_t major, int64_t nnz)
{
    GA_GRID_STRIDE_LOOP(j, nnz) major_of[j] = (I)ga__sp_upper(indptr, major, j);
}

template <class I> GA_DEV void ga__swap_keys(uint64_t *keys, const I *indptr, const I *indices, int64_t major, int64_t nnz)
{
    GA_GRID_STRIDE_LOOP(j, nnz)
    {
        keys[j] = (uint64_t)indices[j] << 32 | (uint64_t)ga__sp_upper(indptr, major, j);
    }
}

/* The stable radix passes of CSR <-> CSC (at most 11 bits a digit: four
   warps' counters, 32 KB, in static shared memory). */
#define GA__SWAP_WARPS 4
#define GA__SWAP_BINS 2048

template <class I> GA_DEV uint32_t ga__swap_col(const void *col, int32_t first, int64_t j)
{
    return first ? (uint32_t)((const I *)col)[j] : ((const uint32_t *)col)[j];
}

template <class I>
GA_DEV void ga__swap_count(uint32_t *counts, const void *col, int32_t first, int64_t n, int32_t shift, int32_t bits,
                           int64_t chunks, int64_t span)
{
    __shared__ uint32_t cnt[GA__SWAP_WARPS * GA__SWAP_BINS];
    const int warp = (int)(threadIdx.x >> 5), lane = (int)(threadIdx.x & 31);
    const uint32_t bins = 1u << bits, mask = bins - 1;
    for (int64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        for (uint32_t i = threadIdx.x; i < GA__SWAP_WARPS * GA__SWAP_BINS; i += blockDim.x) cnt[i] = 0;
        __syncthreads();
        const int64_t lo = (c * GA__SWAP_WARPS + warp) * span, hi = lo + span < n ? lo + span : n;
        for (int64_t j = lo + lane; j < hi; j += 32)
            atomicAdd(&cnt[warp * GA__SWAP_BINS + ((ga__swap_col<I>(col, first, j) >> shift) & mask)], 1u);
        __syncthreads();
        for (uint32_t d = threadIdx.x; d < bins; d += blockDim.x) {
            uint32_t sum = 0;
            for (int w = 0; w < GA__SWAP_WARPS; w++) sum += cnt[w * GA__SWAP_BINS + d];
            counts[(int64_t)d * chunks + c] = sum;
        }
        __syncthreads();
    }
}

/* (blockDim.x must be 256) */
GA_DEV void ga__swap_scan(uint32_t *counts, uint32_t *totals, int64_t chunks, int32_t bins)
{
    __shared__ uint32_t part[256];
    const int t = (int)threadIdx.x;
    for (int64_t d = blockIdx.x; d < bins; d += gridDim.x) {
        uint32_t *row = counts + d * chunks, carry = 0;
        for (int64_t at = 0; at < chunks; at += 256) {
            const int64_t i = at + t;
            const uint32_t v = i < chunks ? row[i] : 0;
            part[t] = v;
            __syncthreads();
            for (int o = 1; o < 256; o <<= 1) { /* inclusive, Hillis-Steele */
                const uint32_t add = t >= o ? part[t - o] : 0;
                __syncthreads();
                part[t] += add;
                __syncthreads();
            }
            if (i < chunks) row[i] = carry + part[t] - v;
            carry += part[255];
            __syncthreads();
        }
        if (t == 0) totals[d] = carry;
    }
}

template <class V, class I>
GA_DEV void ga__swap_scatter(const uint32_t *counts, const uint32_t *totals, int64_t chunks, int64_t span, int64_t n,
                             int32_t shift, int32_t bits, int32_t first, int32_t last, const void *col, const void *row,
                             int64_t major, const V *data, uint32_t *col_out, void *row_out, V *data_out)
{
    __shared__ uint32_t base[GA__SWAP_WARPS * GA__SWAP_BINS];
    __shared__ uint32_t start[GA__SWAP_BINS];
    __shared__ uint32_t part[GA__SWAP_WARPS * 32];
    const int warp = (int)(threadIdx.x >> 5), lane = (int)(threadIdx.x & 31), t = (int)threadIdx.x;
    const uint32_t bins = 1u << bits, mask = bins - 1;
    /* start[d]: the entries of the digits below d (totals' exclusive scan) */
    const uint32_t per = (bins + blockDim.x - 1) / blockDim.x, b0 = t * per < bins ? t * per : bins,
                   b1 = b0 + per < bins ? b0 + per : bins;
    uint32_t acc = 0;
    for (uint32_t d = b0; d < b1; d++) acc += totals[d];
    part[t] = acc;
    __syncthreads();
    if (t == 0) {
        uint32_t run = 0;
        for (uint32_t i = 0; i < blockDim.x; i++) {
            const uint32_t v = part[i];
            part[i] = run;
            run += v;
        }
    }
    __syncthreads();
    acc = part[t];
    for (uint32_t d = b0; d < b1; d++) {
        start[d] = acc;
        acc += totals[d];
    }
    __syncthreads();
    for (int64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        for (uint32_t i = t; i < GA__SWAP_WARPS * GA__SWAP_BINS; i += blockDim.x) base[i] = 0;
        __syncthreads();
        const int64_t lo = (c * GA__SWAP_WARPS + warp) * span, hi = lo + span < n ? lo + span : n;
        for (int64_t j = lo + lane; j < hi; j += 32)
            atomicAdd(&base[warp * GA__SWAP_BINS + ((ga__swap_col<I>(col, first, j) >> shift) & mask)], 1u);
        __syncthreads();
        for (uint32_t d = t; d < bins; d += blockDim.x) { /* each warp's first place for digit d */
            uint32_t at = start[d] + counts[(int64_t)d * chunks + c];
            for (int w = 0; w < GA__SWAP_WARPS; w++) {
                const uint32_t k = base[w * GA__SWAP_BINS + d];
                base[w * GA__SWAP_BINS + d] = at;
                at += k;
            }
        }
        __syncthreads();
        uint32_t *mine = base + warp * GA__SWAP_BINS;
        if (lo < hi) {
            /* entry j's col, row and value, loaded a round ahead; the first
               pass follows each lane's row forward from a search */
            int64_t j = lo + lane < hi ? lo + lane : lo, r = 0;
            if (first) r = ga__sp_upper((const I *)row, major, j);
            uint32_t next_c = ga__swap_col<I>(col, first, j), next_r = first ? (uint32_t)r : ((const uint32_t *)row)[j];
            V next_v = data[j];
            for (int64_t j0 = lo; j0 < hi; j0 += 32) { /* 32 entries at a time, in order */
                j = j0 + lane;
                const bool on = j < hi;
                const uint32_t cj = next_c, rj = next_r;
                const V vj = next_v;
                if (j + 32 < hi) {
                    next_c = ga__swap_col<I>(col, first, j + 32);
                    if (first) next_r = (uint32_t)(r = ga__sp_advance((const I *)row, major, r, j + 32));
                    else next_r = ((const uint32_t *)row)[j + 32];
                    next_v = data[j + 32];
                }
                const uint32_t d = on ? (cj >> shift) & mask : 0xffffffffu;
                const uint32_t peers = __match_any_sync(0xffffffffu, d), rank = __popc(peers & ((1u << lane) - 1u));
                const uint32_t slot = on ? mine[d] + rank : 0;
                __syncwarp();
                if (on && rank == 0) mine[d] += __popc(peers);
                __syncwarp();
                if (on) {
                    col_out[slot] = cj;
                    if (last) ((I *)row_out)[slot] = (I)rj;
                    else ((uint32_t *)row_out)[slot] = rj;
                    data_out[slot] = vj;
                }
            }
        }
        __syncthreads();
    }
}

template <class I, class K>
GA_DEV void ga__keys(K *keys, const I *major, const I *minor, int64_t nnz, uint64_t minor_dim)
{
    GA_GRID_STRIDE_LOOP(j, nnz) keys[j] = (K)((uint64_t)major[j] * minor_dim + (uint64_t)minor[j]);
}

template <class K, class I> GA_DEV void ga__indptr(I *indptr, const K *sorted, int64_t n, int64_t major, uint64_t divisor)
{
    GA_GRID_STRIDE_LOOP(i, major + 1)
    {
        const uint64_t bound = (uint64_t)i * divisor;
        int64_t lo = 0, hi = n; /* the first key >= bound */
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if ((uint64_t)sorted[mid] < bound) lo = mid + 1;
            else hi = mid;
        }
        indptr[i] = (I)lo;
    }
}

template <class K, class I>
GA_DEV void ga__runs(I *minor, I *major, const K *keys, const int64_t *starts, int64_t runs, uint64_t divisor)
{
    GA_GRID_STRIDE_LOOP(r, runs)
    {
        const uint64_t key = (uint64_t)keys[starts ? starts[r] : r];
        minor[r] = (I)(key % divisor);
        if (major) major[r] = (I)(key / divisor);
    }
}

template <class T>
GA_DEV void ga__gather(T *out, const T *in, const uint32_t *perm, const int64_t *starts, int64_t runs, int64_t n)
{
    GA_GRID_STRIDE_LOOP(r, runs)
    {
        const int64_t b = starts ? starts[r] : r, e = starts ? (r + 1 < runs ? starts[r + 1] : n) : r + 1;
        T s = ga_load<T>(in + perm[b]);
        for (int64_t p = b + 1; p < e; p++) s = ga__sp_add(s, ga_load<T>(in + perm[p]));
        ga_store<T>(out + r, s);
    }
}

template <class T, class I>
GA_DEV void ga__toarray(T *out, const T *data, const I *indptr, const I *indices, int64_t major, int64_t nnz,
                        int64_t s_major, int64_t s_minor, int32_t accumulate)
{
    if (!accumulate) {
        GA_GRID_STRIDE_LOOP(j, nnz)
        {
            const int64_t r = ga__sp_upper(indptr, major, j);
            ga_store<T>(out + r * s_major + (int64_t)indices[j] * s_minor, ga_load<T>(data + j));
        }
        return;
    }
    GA_GRID_STRIDE_LOOP(r, major)
    {
        for (int64_t j = indptr[r]; j < (int64_t)indptr[r + 1]; j++) {
            T *o = out + r * s_major + (int64_t)indices[j] * s_minor;
            ga_store<T>(o, ga__sp_add(ga_load<T>(o), ga_load<T>(data + j)));
        }
    }
}

/* s + a b in T's arithmetic (bool: s or (a and b)). */
template <class T> GA_DEV T ga__sp_mul_add(T s, T a, T b)
{
    if constexpr (ga_num<T>::is_bool) {
        s.v = (s.v || (a.v && b.v)) ? 1 : 0;
        return s;
    } else {
        return ga_value_add(s, ga_value_mul(a, b));
    }
}

/* Rows of more entries than GA_SPMM_LONG go to the chunk kernels, which
   split the entries into chunks of GA_SPMM_CHUNK (fewer: a chunk meets at
   most two long rows, its first entry's and its last's). */
constexpr int64_t GA_SPMM_LONG = 4096;
constexpr int64_t GA_SPMM_CHUNK = 2048;

/* y[r, c] for each (r, c), a thread each (e = r k + c, so that a warp
   reads a row of x's elements side by side), adding the row's products in
   order (SciPy's). A row of more than GA_SPMM_LONG entries is left to
   ga__spmm_chunks and ga__spmm_combine: its c = 0 thread appends r to
   long_rows. */
template <class T, class I>
GA_DEV void ga__spmm(T *y, const T *data, const I *indptr, const I *indices, const T *x, int64_t rows, int64_t k,
                     int64_t xr, int64_t xc, int64_t yr, int64_t yc, int64_t *long_rows, unsigned long long *nlong)
{
    GA_GRID_STRIDE_LOOP(e, rows * k)
    {
        const int64_t r = e / k, c = e - r * k, lo = (int64_t)indptr[r], hi = (int64_t)indptr[r + 1];
        if (hi - lo > GA_SPMM_LONG) {
            if (c == 0) long_rows[atomicAdd(nlong, 1ull)] = r;
            continue;
        }
        T s = ga__sp_zero<T>();
        for (int64_t j = lo; j < hi; j++) s = ga__sp_mul_add(s, data[j], x[(int64_t)indices[j] * xr + c * xc]);
        y[r * yr + c * yc] = s;
    }
}

/* v from lane ^ o of the warp. */
template <class T> GA_DEV T ga__sp_shfl(T v, int o)
{
    if constexpr (ga_num<T>::is_complex) {
        v.re = __shfl_xor_sync(0xffffffffu, v.re, o);
        v.im = __shfl_xor_sync(0xffffffffu, v.im, o);
        return v;
    } else {
        return __shfl_xor_sync(0xffffffffu, v, o);
    }
}

/* Row sums, a group of 1 << log2g lanes per row (the host picks the group
   from the average row length: a thread per row for short rows, up to a
   warp). The loop runs while the warp's first row is in range (uniform in
   the warp, for the shuffles); lanes past the last row add nothing. */
template <class T, class I> GA_DEV void ga__segsum(T *out, const T *data, const I *indptr, int64_t major, int32_t log2g)
{
    const int lane = threadIdx.x & 31, g = 1 << log2g, sub = lane & (g - 1);
    const int64_t t0 = ga_thread_index(), step = ga_thread_count() >> log2g;
    for (int64_t first = (t0 - lane) >> log2g; first < major; first += step) {
        const int64_t r = first + (lane >> log2g);
        T s = ga__sp_zero<T>();
        if (r < major) {
            const int64_t end = (int64_t)indptr[r + 1];
            for (int64_t j = (int64_t)indptr[r] + sub; j < end; j += g) s = ga__sp_add(s, ga_load<T>(data + j));
        }
        for (int o = g >> 1; o > 0; o >>= 1) s = ga__sp_add(s, ga__sp_shfl(s, o));
        if (sub == 0 && r < major) ga_store<T>(out + r, s);
    }
}

template <class T> GA_DEV bool ga__sp_nonzero(T v)
{
    if constexpr (ga_num<T>::is_complex) return v.re != 0 || v.im != 0;
    else if constexpr (ga_num<T>::is_bool) return v.v != 0;
    else return v != (T)0;
}

template <class T> GA_DEV T ga__sp_neg(T v)
{
    if constexpr (ga_num<T>::is_complex) return ga_cplx<T>(-v.re, -v.im);
    else if constexpr (ga_num<T>::is_bool) return v;
    else if constexpr (ga_num<T>::is_integer) return ga_wsub((T)0, v);
    else return -v;
}

/* a < b: complex by real part, then imaginary; bool as 0 < 1. */
template <class T> GA_DEV bool ga__sp_less(T a, T b)
{
    if constexpr (ga_num<T>::is_complex) return a.re < b.re || (a.re == b.re && a.im < b.im);
    else if constexpr (ga_num<T>::is_bool) return a.v < b.v;
    else return a < b;
}

/* The merge's ops 2 (a * b; bool: and), 3 (std::max) and 4 (std::min). */
template <class T> GA_DEV T ga__sp_binop(int32_t op, T a, T b)
{
    if (op == 3) return ga__sp_less(a, b) ? b : a;
    if (op == 4) return ga__sp_less(b, a) ? b : a;
    if constexpr (ga_num<T>::is_bool) {
        T r;
        r.v = (a.v && b.v) ? 1 : 0;
        return r;
    } else {
        return ga_value_mul(a, b);
    }
}

/* Row r of op(a, b) by one thread, merging the two sorted rows in order:
   pass 0 returns the number of nonzero results, pass 1 writes them from w. */
template <class T, class I>
GA_DEV int64_t ga__merge_row(int32_t pass, int64_t r, int64_t w, T *out_data, I *out_idx, const T *ad, const I *ap,
                             const I *ai, const T *bd, const I *bp, const I *bi, int32_t op)
{
    int64_t i = ap[r], ie = ap[r + 1], j = bp[r], je = bp[r + 1], n = 0;
    while (i < ie || j < je) {
        const int64_t ca = i < ie ? (int64_t)ai[i] : INT64_MAX, cb = j < je ? (int64_t)bi[j] : INT64_MAX;
        T v;
        int64_t c;
        if (op >= 2) { /* op(a, b), either 0 where missing */
            const bool has_a = ca <= cb, has_b = cb <= ca;
            const T x = has_a ? ga_load<T>(ad + i++) : ga__sp_zero<T>();
            const T y = has_b ? ga_load<T>(bd + j++) : ga__sp_zero<T>();
            v = ga__sp_binop(op, x, y);
            c = has_a ? ca : cb;
        } else if (ca < cb) v = ga_load<T>(ad + i++), c = ca;
        else {
            T b = ga_load<T>(bd + j++);
            if (op == 1) b = ga__sp_neg(b);
            if (ca == cb) v = ga__sp_add(ga_load<T>(ad + i++), b);
            else v = b;
            c = cb;
        }
        if (!ga__sp_nonzero(v)) continue;
        if (pass) {
            ga_store<T>(out_data + w + n, v);
            out_idx[w + n] = (I)c;
        }
        n++;
    }
    return n;
}

/* The place of column c in idx[lo, hi) (sorted, no repeats): the number of
   entries before it, and whether it is there. */
template <class I> GA_DEV int64_t ga__sp_rank(const I *idx, int64_t lo, int64_t hi, int64_t c, bool *found)
{
    int64_t a = lo, b = hi;
    while (a < b) {
        const int64_t m = a + ((b - a) >> 1);
        if ((int64_t)idx[m] < c) a = m + 1;
        else b = m;
    }
    *found = a < hi && (int64_t)idx[a] == c;
    return a - lo;
}

/* The count of `pred` over the lanes of this lane's group before it
   (*before) and in all (returned); every lane of the warp calls it. */
GA_DEV int ga__sp_group_count(bool pred, int log2g, int *before)
{
    const int lane = threadIdx.x & 31, g = 1 << log2g;
    const unsigned all = __ballot_sync(0xffffffffu, pred);
    const unsigned group = g == 32 ? all : (all >> (lane & ~(g - 1))) & ((1u << g) - 1);
    *before = __popc(group & ((1u << (lane & (g - 1))) - 1));
    return __popc(group);
}

/* The largest v of the warp. */
GA_DEV int64_t ga__sp_warp_max(int64_t v)
{
    for (int o = 16; o > 0; o >>= 1) {
        const int64_t u = (int64_t)__shfl_xor_sync(0xffffffffu, (long long)v, o);
        v = u > v ? u : v;
    }
    return v;
}

/* A + B or A - B (op 0, 1) of row r by the g = 1 << log2g lanes of a group,
   each entry placed by a binary search of its column in the other row: an
   entry of a at k is the (k - a0) + q - m'th of the rows' union (q entries
   of b before its column, m of a's entries before it found in b), an entry
   of b missing from a likewise. Pass 1 writes at those places when no
   result is zero (the row's count from pass 0 is the union's length); a
   row with a zero result is merged by its group's first lane alone. The
   rounds run for the warp's longest row, so that the ballots see every
   lane. */
template <class T, class I>
GA_DEV void ga__merge_group(int32_t pass, int64_t r, bool live, int64_t *counts, const int64_t *offsets, T *out_data,
                            I *out_idx, const T *ad, const I *ap, const I *ai, const T *bd, const I *bp, const I *bi,
                            int32_t op, int32_t log2g)
{
    const int g = 1 << log2g, sub = threadIdx.x & (g - 1);
    const int64_t a0 = live ? (int64_t)ap[r] : 0, a1 = live ? (int64_t)ap[r + 1] : 0;
    const int64_t b0 = live ? (int64_t)bp[r] : 0, b1 = live ? (int64_t)bp[r + 1] : 0;
    const int64_t ra = ga__sp_warp_max((a1 - a0 + g - 1) >> log2g), rb = ga__sp_warp_max((b1 - b0 + g - 1) >> log2g);
    int64_t n = 0, matched = 0;
    int before;
    /* pass 0: the nonzero results; pass 1: the matches */
    for (int64_t t = 0; t < ra; t++) {
        const int64_t k = a0 + (t << log2g) + sub;
        bool f = false;
        if (k < a1) {
            const int64_t q = ga__sp_rank(bi, b0, b1, (int64_t)ai[k], &f);
            if (!pass) {
                T v = ga_load<T>(ad + k);
                if (f) v = ga__sp_add(v, op == 1 ? ga__sp_neg(ga_load<T>(bd + b0 + q)) : ga_load<T>(bd + b0 + q));
                n += ga__sp_nonzero(v);
            }
        }
        matched += ga__sp_group_count(f, log2g, &before);
    }
    if (!pass) {
        for (int64_t t = 0; t < rb; t++) {
            const int64_t k = b0 + (t << log2g) + sub;
            if (k < b1) {
                bool f;
                ga__sp_rank(ai, a0, a1, (int64_t)bi[k], &f);
                if (!f) n += ga__sp_nonzero(ga_load<T>(bd + k));
            }
        }
        for (int o = g >> 1; o > 0; o >>= 1) n += __shfl_xor_sync(0xffffffffu, (long long)n, o);
        if (live && sub == 0) counts[r + 1] = n;
        return;
    }
    const int64_t w = live ? offsets[r] : 0;
    const bool whole = !live || offsets[r + 1] - w == (a1 - a0) + (b1 - b0) - matched;
    int64_t m = 0; /* matches before this round */
    for (int64_t t = 0; t < ra; t++) {
        const int64_t k = a0 + (t << log2g) + sub;
        bool f = false;
        int64_t q = 0, c = 0;
        if (whole && k < a1) c = (int64_t)ai[k], q = ga__sp_rank(bi, b0, b1, c, &f);
        const int64_t total = ga__sp_group_count(f, log2g, &before);
        if (whole && k < a1) {
            T v = ga_load<T>(ad + k);
            if (f) v = ga__sp_add(v, op == 1 ? ga__sp_neg(ga_load<T>(bd + b0 + q)) : ga_load<T>(bd + b0 + q));
            const int64_t at = w + (k - a0) + q - (m + before);
            ga_store<T>(out_data + at, v);
            out_idx[at] = (I)c;
        }
        m += total;
    }
    m = 0;
    for (int64_t t = 0; t < rb; t++) {
        const int64_t k = b0 + (t << log2g) + sub;
        bool f = false;
        int64_t q = 0, c = 0;
        if (whole && k < b1) c = (int64_t)bi[k], q = ga__sp_rank(ai, a0, a1, c, &f);
        const int64_t total = ga__sp_group_count(f, log2g, &before);
        if (whole && k < b1 && !f) {
            const T b = ga_load<T>(bd + k);
            const int64_t at = w + (k - b0) + q - (m + before);
            ga_store<T>(out_data + at, op == 1 ? ga__sp_neg(b) : b);
            out_idx[at] = (I)c;
        }
        m += total;
    }
    if (!whole && sub == 0) ga__merge_row(1, r, w, out_data, out_idx, ad, ap, ai, bd, bp, bi, op);
}

/* op(a, b) of canonical rows: a thread a row (log2g 0), or for A + B and
   A - B a group of 1 << log2g lanes a row, looping while the warp's first
   row is in range (uniform in the warp, for the ballots). */
template <class T, class I>
GA_DEV void ga__merge(int32_t pass, int64_t *counts, const int64_t *offsets, T *out_data, I *out_idx, const T *ad,
                      const I *ap, const I *ai, const T *bd, const I *bp, const I *bi, int64_t major, int32_t op,
                      int32_t log2g)
{
    if (log2g == 0) {
        GA_GRID_STRIDE_LOOP(r, major)
        {
            const int64_t n =
                ga__merge_row(pass, r, pass ? offsets[r] : 0, out_data, out_idx, ad, ap, ai, bd, bp, bi, op);
            if (!pass) counts[r + 1] = n;
        }
        return;
    }
    const int lane = threadIdx.x & 31;
    const int64_t t0 = ga_thread_index(), step = ga_thread_count() >> log2g;
    for (int64_t first = (t0 - lane) >> log2g; first < major; first += step) {
        const int64_t r = first + (lane >> log2g);
        ga__merge_group(pass, r, r < major, counts, offsets, out_data, out_idx, ad, ap, ai, bd, bp, bi, op, log2g);
        __syncwarp();
    }
}

/* v from lane ^ o, for every sparse dtype. */
template <class T> GA_DEV T ga__sp_shfl_any(T v, int o)
{
    if constexpr (ga_num<T>::is_bool) {
        v.v = (decltype(v.v))__shfl_xor_sync(0xffffffffu, (int)v.v, o);
        return v;
    } else if constexpr (ga_num<T>::is_complex) {
        return ga__sp_shfl(v, o);
    } else if constexpr (sizeof(T) < 4) {
        return (T)__shfl_xor_sync(0xffffffffu, (int)v, o);
    } else {
        return __shfl_xor_sync(0xffffffffu, v, o);
    }
}

template <class T> GA_DEV bool ga__sp_is_zero(T v) { return !ga__sp_nonzero(v); }

/* The row holding entry e < indptr[rows]: the last r with indptr[r] <= e. */
template <class I> GA_DEV int64_t ga__sp_row_of(const I *indptr, int64_t rows, int64_t e)
{
    int64_t lo = 0, hi = rows; /* indptr[lo] <= e < indptr[hi] */
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)indptr[mid] <= e) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* out[c] (thread 0's) = the sum over entries a..b-1 of data[j]
   x[indices[j], c], for c < k: the block's threads take every
   blockDim.x-th product, then a fixed tree (warps, then their sums). */
template <class T, class I>
GA_DEV void ga__spmm_range(T *out, const T *data, const I *indices, const T *x, int64_t a, int64_t b, int64_t k,
                           int64_t xr, int64_t xc, T *warp_sums)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    for (int64_t c = 0; c < k; c++) {
        T s = ga__sp_zero<T>();
        for (int64_t j = a + threadIdx.x; j < b; j += blockDim.x)
            s = ga__sp_mul_add(s, data[j], x[(int64_t)indices[j] * xr + c * xc]);
        for (int o = 16; o > 0; o >>= 1) s = ga__sp_add(s, ga__sp_shfl_any(s, o));
        if (lane == 0) warp_sums[warp] = s;
        __syncthreads();
        if (warp == 0) {
            s = lane < warps ? warp_sums[lane] : ga__sp_zero<T>();
            for (int o = 16; o > 0; o >>= 1) s = ga__sp_add(s, ga__sp_shfl_any(s, o));
            if (lane == 0) out[c] = s;
        }
        __syncthreads();
    }
}

/* Where ga__spmm listed long rows (*nlong > 0): chunk i (entries i CH ..
   i CH + CH - 1 of nnz) a block, which sums the products of each long row
   it meets over its part of the chunk: the row of its first entry into
   partials[2 i], the row of its last (where another) into partials[2 i +
   1], k values each. */
template <class T, class I>
GA_DEV void ga__spmm_chunks(T *partials, const T *data, const I *indptr, const I *indices, const T *x, int64_t rows,
                            int64_t nnz, int64_t k, int64_t xr, int64_t xc, const unsigned long long *nlong)
{
    __shared__ T warp_sums[32];
    if (*nlong == 0) return;
    const int64_t chunks = (nnz + GA_SPMM_CHUNK - 1) / GA_SPMM_CHUNK;
    for (int64_t i = blockIdx.x; i < chunks; i += gridDim.x) {
        const int64_t a = i * GA_SPMM_CHUNK, b = a + GA_SPMM_CHUNK < nnz ? a + GA_SPMM_CHUNK : nnz;
        const int64_t first = ga__sp_row_of(indptr, rows, a), last = ga__sp_row_of(indptr, rows, b - 1);
        for (int side = 0; side < 2; side++) {
            const int64_t r = side ? last : first;
            if (side && last == first) break;
            const int64_t lo = (int64_t)indptr[r], hi = (int64_t)indptr[r + 1];
            if (hi - lo <= GA_SPMM_LONG) continue;
            ga__spmm_range(partials + (2 * i + side) * k, data, indices, x, lo > a ? lo : a, hi < b ? hi : b, k, xr, xc,
                           warp_sums);
        }
    }
}

/* y[r, c] of each long row r (long_rows[q], q < *nlong): its chunks'
   partial sums added in order, a thread each. Chunk i holds r's sum at
   side 1 where r starts inside it (it is the chunk's last row), else 0. */
template <class T, class I>
GA_DEV void ga__spmm_combine(T *y, const T *partials, const I *indptr, int64_t k, int64_t yr, int64_t yc,
                             const int64_t *long_rows, const unsigned long long *nlong)
{
    const int64_t n = (int64_t)*nlong;
    GA_GRID_STRIDE_LOOP(e, n * k)
    {
        const int64_t q = e / k, c = e - q * k, r = long_rows[q], lo = (int64_t)indptr[r], hi = (int64_t)indptr[r + 1];
        const int64_t i0 = lo / GA_SPMM_CHUNK, i1 = (hi - 1) / GA_SPMM_CHUNK;
        T s = ga__sp_zero<T>();
        for (int64_t i = i0; i <= i1; i++) {
            const int side = i == i0 && lo > i * GA_SPMM_CHUNK ? 1 : 0;
            s = ga__sp_add(s, partials[(2 * i + side) * k + c]);
        }
        y[r * yr + c * yc] = s;
    }
}

/* Whether v replaces best in the reduction of op (even: max, odd: min):
   NaN beats everything but an earlier NaN (NumPy's maximum and argmax). */
template <class T> GA_DEV bool ga__sp_beats(int32_t op, T v, T best)
{
    if (ga_value_isnan(best)) return false;
    if (ga_value_isnan(v)) return true;
    return (op & 1) ? ga__sp_less(v, best) : ga__sp_less(best, v);
}

template <class T, class I>
GA_DEV void ga__extreme(T *out_value, int64_t *out_index, const T *data, const I *indptr, const I *indices,
                        int64_t major, int64_t length, int32_t op)
{
    const int lane = threadIdx.x & 31;
    const int64_t warp = ga_thread_index() / 32, warps = ga_thread_count() / 32;
    const T zero = ga__sp_zero<T>();
    for (int64_t r = warp; r < major; r += warps) {
        const int64_t p = (int64_t)indptr[r], q = (int64_t)indptr[r + 1], count = q - p;
        int have = 0;
        T best = zero;
        int64_t at = INT64_MAX, missing = count; /* the first k with indices[p + k] != k */
        for (int64_t j = p + lane; j < q; j += 32) {
            const T v = ga_load<T>(data + j);
            if (!have || ga__sp_beats(op, v, best)) best = v, at = j - p, have = 1;
            if (op >= 2 && (int64_t)indices[j] != j - p && j - p < missing) missing = j - p;
        }
        for (int o = 16; o > 0; o >>= 1) {
            const int h2 = __shfl_xor_sync(0xffffffffu, have, o);
            const T b2 = ga__sp_shfl_any(best, o);
            const int64_t a2 = __shfl_xor_sync(0xffffffffu, at, o), m2 = __shfl_xor_sync(0xffffffffu, missing, o);
            if (h2 && (!have || ga__sp_beats(op, b2, best) || (!ga__sp_beats(op, best, b2) && a2 < at)))
                best = b2, at = a2, have = 1;
            missing = m2 < missing ? m2 : missing;
        }
        if (lane != 0) continue;
        if (op < 2) {
            T v = have ? best : zero;
            if (count < length && ga__sp_beats(op, zero, v)) v = zero;
            ga_store<T>(out_value + r, v);
            continue;
        }
        int64_t idx = 0;
        if (have) {
            const bool strict = (op & 1) ? ga__sp_less(best, zero) : ga__sp_less(zero, best);
            const int64_t where = (int64_t)indices[p + at];
            if (strict || count == length) idx = where;
            else idx = ga__sp_is_zero(best) && where < missing ? where : missing;
        }
        out_index[r] = idx;
    }
}

template <class I> GA_DEV void ga__diag(I *rows, I *cols, int64_t n, int64_t r0, int64_t c0)
{
    GA_GRID_STRIDE_LOOP(i, n)
    {
        rows[i] = (I)(r0 + i);
        cols[i] = (I)(c0 + i);
    }
}

} // namespace

/* --- by index dtype ------------------------------------------------------- */
#define GA__SPARSE_INDEX_KERNELS(I)                                                                                   \
    GA_KERNEL GA_KERNEL_NAME3(sparse, check_compressed, I)(const ga_t_##I *indptr, const ga_t_##I *indices,          \
                                                          int64_t major, int64_t minor, int64_t nnz,                 \
                                                          ga__sparse_check *out)                                     \
    {                                                                                                                 \
        ga__check_compressed<ga_t_##I>(indptr, indices, major, minor, nnz, out);                                      \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, check_coo, I)(const ga_t_##I *row, const ga_t_##I *col, int64_t rows,          \
                                                   int64_t cols, int64_t nnz, ga__sparse_check *out)                  \
    {                                                                                                                 \
        ga__check_coo<ga_t_##I>(row, col, rows, cols, nnz, out);                                                      \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, expand, I)(ga_t_##I * major_of, const ga_t_##I *indptr, int64_t major,         \
                                                int64_t nnz)                                                         \
    {                                                                                                                 \
        ga__expand<ga_t_##I>(major_of, indptr, major, nnz);                                                           \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, swap_keys, I)(uint64_t * keys, const ga_t_##I *indptr,                     \
                                                   const ga_t_##I *indices, int64_t major, int64_t nnz)              \
    {                                                                                                                 \
        ga__swap_keys<ga_t_##I>(keys, indptr, indices, major, nnz);                                                   \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, swap_count, I)(uint32_t * counts, const void *col, int32_t first, int64_t n,  \
                                                    int32_t shift, int32_t bits, int64_t chunks, int64_t span)       \
    {                                                                                                                 \
        ga__swap_count<ga_t_##I>(counts, col, first, n, shift, bits, chunks, span);                                   \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, diag, I)(ga_t_##I * rows, ga_t_##I * cols, int64_t n, int64_t r0, int64_t c0) \
    {                                                                                                                 \
        ga__diag<ga_t_##I>(rows, cols, n, r0, c0);                                                                    \
    }

GA__SPARSE_INDEX_KERNELS(int32)
GA__SPARSE_INDEX_KERNELS(int64)

GA_KERNEL ga_sparse_swap_scan(uint32_t *counts, uint32_t *totals, int64_t chunks, int32_t bins)
{
    ga__swap_scan(counts, totals, chunks, bins);
}

/* the scatter by the data's item size: V uint8, uint16, uint32, uint64, complex128 */
#define GA__SPARSE_SWAP_SCATTER_I(V, I)                                                                               \
    GA_KERNEL GA_KERNEL_NAME(sparse, swap_scatter, V, I)(                                                             \
        const uint32_t *counts, const uint32_t *totals, int64_t chunks, int64_t span, int64_t n, int32_t shift,       \
        int32_t bits, int32_t first, int32_t last, const void *col, const void *row, int64_t major,                   \
        const ga_t_##V *data, uint32_t *col_out, void *row_out, ga_t_##V *data_out)                                   \
    {                                                                                                                 \
        ga__swap_scatter<ga_t_##V, ga_t_##I>(counts, totals, chunks, span, n, shift, bits, first, last, col, row,     \
                                             major, data, col_out, row_out, data_out);                                \
    }
#define GA__SPARSE_SWAP_SCATTER(V) GA__SPARSE_SWAP_SCATTER_I(V, int32) GA__SPARSE_SWAP_SCATTER_I(V, int64)
GA__SPARSE_SWAP_SCATTER(uint8)
GA__SPARSE_SWAP_SCATTER(uint16)
GA__SPARSE_SWAP_SCATTER(uint32)
GA__SPARSE_SWAP_SCATTER(uint64)
GA__SPARSE_SWAP_SCATTER(complex128)

/* --- by index dtype and key ------------------------------------------------ */
#define GA__SPARSE_KEY_KERNELS(I, K)                                                                                  \
    GA_KERNEL GA_KERNEL_NAME3(sparse, keys, GA_DTYPES2(I, K))(ga_t_##K * keys, const ga_t_##I *major,            \
                                                                 const ga_t_##I *minor, int64_t nnz,                 \
                                                                 uint64_t minor_dim)                                 \
    {                                                                                                                 \
        ga__keys<ga_t_##I, ga_t_##K>(keys, major, minor, nnz, minor_dim);                                            \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, indptr, GA_DTYPES2(K, I))(ga_t_##I * indptr, const ga_t_##K *sorted,       \
                                                                   int64_t n, int64_t major, uint64_t divisor)       \
    {                                                                                                                 \
        ga__indptr<ga_t_##K, ga_t_##I>(indptr, sorted, n, major, divisor);                                           \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, runs, GA_DTYPES2(K, I))(ga_t_##I * minor, ga_t_##I * major,                \
                                                                 const ga_t_##K *keys, const int64_t *starts,        \
                                                                 int64_t runs, uint64_t divisor)                     \
    {                                                                                                                 \
        ga__runs<ga_t_##K, ga_t_##I>(minor, major, keys, starts, runs, divisor);                                     \
    }

GA__SPARSE_KEY_KERNELS(int32, uint32)
GA__SPARSE_KEY_KERNELS(int32, uint64)
GA__SPARSE_KEY_KERNELS(int64, uint32)
GA__SPARSE_KEY_KERNELS(int64, uint64)
/* (sorted majors as keys: eliminate_zeros's indptr) */
#define GA__SPARSE_INDPTR_OF_INDEX(I)                                                                                 \
    GA_KERNEL GA_KERNEL_NAME3(sparse, indptr, GA_DTYPES2(I, I))(ga_t_##I * indptr, const ga_t_##I *sorted,       \
                                                                   int64_t n, int64_t major, uint64_t divisor)       \
    {                                                                                                                 \
        ga__indptr<ga_t_##I, ga_t_##I>(indptr, sorted, n, major, divisor);                                           \
    }
GA__SPARSE_INDPTR_OF_INDEX(int32)
GA__SPARSE_INDPTR_OF_INDEX(int64)

/* --- by value dtype (and index dtype) -------------------------------------- */
#define GA__SPARSE_VALUE_KERNELS_I(T, I)                                                                              \
    GA_KERNEL GA_KERNEL_NAME(sparse, toarray, T, I)(ga_t_##T * out, const ga_t_##T *data, const ga_t_##I *indptr,    \
                                                   const ga_t_##I *indices, int64_t major, int64_t nnz,              \
                                                   int64_t s_major, int64_t s_minor, int32_t accumulate)             \
    {                                                                                                                 \
        ga__toarray<ga_t_##T, ga_t_##I>(out, data, indptr, indices, major, nnz, s_major, s_minor, accumulate);      \
    }
#define GA__SPARSE_VALUE_KERNELS(T)                                                                                   \
    GA_KERNEL GA_KERNEL_NAME3(sparse, gather, T)(ga_t_##T * out, const ga_t_##T *in, const uint32_t *perm,           \
                                                const int64_t *starts, int64_t runs, int64_t n)                      \
    {                                                                                                                 \
        ga__gather<ga_t_##T>(out, in, perm, starts, runs, n);                                                         \
    }                                                                                                                 \
    GA__SPARSE_VALUE_KERNELS_I(T, int32) GA__SPARSE_VALUE_KERNELS_I(T, int64)

/* the dtypes of scipy.sparse: every dtype but float16 and bfloat16 */
#define GA__SPARSE_DTYPES(X)                                                                                          \
    X(bool) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32) X(uint64) X(float32) X(float64)           \
    X(complex64) X(complex128)
GA__SPARSE_DTYPES(GA__SPARSE_VALUE_KERNELS)

/* --- products ----------------------------------------------------------- */
#define GA__SPARSE_SPMM_I(T, I)                                                                                       \
    GA_KERNEL GA_KERNEL_NAME(sparse, spmm, T, I)(ga_t_##T * y, const ga_t_##T *data, const ga_t_##I *indptr,         \
                                                const ga_t_##I *indices, const ga_t_##T *x, int64_t rows, int64_t k,  \
                                                int64_t xr, int64_t xc, int64_t yr, int64_t yc, int64_t *long_rows,   \
                                                unsigned long long *nlong)                                            \
    {                                                                                                                 \
        ga__spmm<ga_t_##T, ga_t_##I>(y, data, indptr, indices, x, rows, k, xr, xc, yr, yc, long_rows, nlong);        \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME(sparse, spmm_chunks, T, I)(ga_t_##T * partials, const ga_t_##T *data,                  \
                                                       const ga_t_##I *indptr, const ga_t_##I *indices,                \
                                                       const ga_t_##T *x, int64_t rows, int64_t nnz, int64_t k,        \
                                                       int64_t xr, int64_t xc, const unsigned long long *nlong)        \
    {                                                                                                                 \
        ga__spmm_chunks<ga_t_##T, ga_t_##I>(partials, data, indptr, indices, x, rows, nnz, k, xr, xc, nlong);        \
    }                                                                                                                 \
    GA_KERNEL GA_KERNEL_NAME(sparse, spmm_combine, T, I)(ga_t_##T * y, const ga_t_##T *partials,                     \
                                                        const ga_t_##I *indptr, int64_t k, int64_t yr, int64_t yc,    \
                                                        const int64_t *long_rows, const unsigned long long *nlong)    \
    {                                                                                                                 \
        ga__spmm_combine<ga_t_##T, ga_t_##I>(y, partials, indptr, k, yr, yc, long_rows, nlong);                      \
    }
#define GA__SPARSE_SPMM(T) GA__SPARSE_SPMM_I(T, int32) GA__SPARSE_SPMM_I(T, int64)
GA__SPARSE_DTYPES(GA__SPARSE_SPMM)

/* --- row sums and sums of matrices ------------------------------------------ */
#define GA__SPARSE_SEGSUM_I(T, I)                                                                                     \
    GA_KERNEL GA_KERNEL_NAME(sparse, segsum, T, I)(ga_t_##T * out, const ga_t_##T *data, const ga_t_##I *indptr,     \
                                                  int64_t major, int32_t log2g)                                      \
    {                                                                                                                 \
        ga__segsum<ga_t_##T, ga_t_##I>(out, data, indptr, major, log2g);                                              \
    }
#define GA__SPARSE_SEGSUM(T) GA__SPARSE_SEGSUM_I(T, int32) GA__SPARSE_SEGSUM_I(T, int64)
GA__SPARSE_SEGSUM(int64)
GA__SPARSE_SEGSUM(uint64)
GA__SPARSE_SEGSUM(float32)
GA__SPARSE_SEGSUM(float64)
GA__SPARSE_SEGSUM(complex64)
GA__SPARSE_SEGSUM(complex128)

#define GA__SPARSE_MERGE_I(T, I)                                                                                      \
    GA_KERNEL GA_KERNEL_NAME(sparse, merge, T, I)(int32_t pass, int64_t *counts, const int64_t *offsets,             \
                                                 ga_t_##T *out_data, ga_t_##I *out_idx, const ga_t_##T *ad,           \
                                                 const ga_t_##I *ap, const ga_t_##I *ai, const ga_t_##T *bd,          \
                                                 const ga_t_##I *bp, const ga_t_##I *bi, int64_t major,               \
                                                 int32_t op, int32_t log2g)                                           \
    {                                                                                                                 \
        ga__merge<ga_t_##T, ga_t_##I>(pass, counts, offsets, out_data, out_idx, ad, ap, ai, bd, bp, bi, major, op,    \
                                      log2g);                                                                         \
    }
#define GA__SPARSE_MERGE(T) GA__SPARSE_MERGE_I(T, int32) GA__SPARSE_MERGE_I(T, int64)
GA__SPARSE_DTYPES(GA__SPARSE_MERGE)

#define GA__SPARSE_EXTREME_I(T, I)                                                                                    \
    GA_KERNEL GA_KERNEL_NAME(sparse, extreme, T, I)(ga_t_##T * value, int64_t *index, const ga_t_##T *data,          \
                                                   const ga_t_##I *indptr, const ga_t_##I *indices, int64_t major,    \
                                                   int64_t length, int32_t op)                                        \
    {                                                                                                                 \
        ga__extreme<ga_t_##T, ga_t_##I>(value, index, data, indptr, indices, major, length, op);                     \
    }
#define GA__SPARSE_EXTREME(T) GA__SPARSE_EXTREME_I(T, int32) GA__SPARSE_EXTREME_I(T, int64)
GA__SPARSE_DTYPES(GA__SPARSE_EXTREME)
