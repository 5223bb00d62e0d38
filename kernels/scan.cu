/* kernels/scan.cu - family "scan": inclusive sums in one pass.

     ga_scan_sum_<in>_<acc>(const void *in, void *out, int64_t n, void *words)
         out[i] = in[0] + ... + in[i] for the n contiguous elements of `in`
         (dtype <in>), added and stored in <acc>: float32 of float32,
         float16 and bfloat16; float64 of float64; int64 of the integer
         dtypes narrower than 8 bytes and bool, widened as NumPy's cumsum
         does (the bits of uint64 sums too). int64 and uint64 sums are
         CUB's (as fast there, see gpuarr.h's ga__scan_one_pass).

   One pass of decoupled look-back (Merrill and Garland, "Single-pass
   Parallel Prefix Scan with Decoupled Look-back", 2016): block b takes
   tile b of GA_SCAN_THREADS x GA_SCAN_ITEMS<In, Acc> elements (the GPU
   starts a grid's blocks in index order, so a tile's predecessors are
   all running or done: CUB's scans rely on the same order),
   scans it, publishes its total, then sums its predecessors' published
   totals backwards (a warp looks at 32 tiles at a time) until one whose
   inclusive prefix is known, publishes its own inclusive prefix and
   writes its elements: the input is read once and the output written
   once. The sums of a float tile's elements are in a fixed order; how a
   tile's prefix is summed depends on which predecessors had finished, so
   float results may differ in the last bits from run to run (as CUB's
   scans).

   words: a word per tile, its status (0 not yet, 1 its total, 2 its
   inclusive prefix) and that value together, 8 bytes for 4-byte sums and
   16 for 8-byte ones (16-byte aligned). The host zeroes the words before
   each launch. Launch: one block of GA_SCAN_THREADS (128) threads per
   tile, ceil(n / tile) blocks: tiles of 12288 elements for float32 sums
   of float32, 6144 for the others.
   Any alignment (16-byte vectors where both pointers allow them). */

#include "common.cuh"

GA_DEFINE_FATBIN_VERSION

namespace {

/* Look-back: 32 x GA_SCAN_ROWS tiles' words a round; GA_SCAN_SLEEP_NS
   between polls of words not yet published (0: spin). On an H200 (2^27
   float64, 2^28 float32) one row a round ran 10-20% faster than 4 or 8,
   pauses of 50-200 ns changed nothing and 800 ns cost 3%; loads and
   stores marked streaming gained 3-12%. */
#ifndef GA_SCAN_ROWS
#define GA_SCAN_ROWS 1
#endif
#ifndef GA_SCAN_SLEEP_NS
#define GA_SCAN_SLEEP_NS 0
#endif
/* 1: the elements loaded and stored as streaming (evict first) */
#ifndef GA_SCAN_STREAMING
#define GA_SCAN_STREAMING 1
#endif

/* The tile: 128 threads (4 warps) of GA_SCAN_ITEMS<In, Acc> elements
   each: 96 for float32 sums of float32 (48 KB a tile, 127 registers a
   thread on sm_90, four blocks an SM), 48 for the others (gpuarr.h's
   ga__scan_tile). On an H200 (one run, the copy of 1 GiB 508 us, tiles
   by block index), 2^28 float32 took 637 us with 96 elements a thread
   against 659 with 48 and 693 through CUB; 2^26 + 3 168 against 177 and
   185; 2^24 52.4 against 56.2 and 60.2. float64 kept 48 (2^27: 600 us,
   CUB 665). Larger tiles of more threads (256 x 48) and a look-back of 2
   or 4 rows a round were slower in every row of that run; so were
   persistent blocks that loaded their next tile (cp.async) while a tile
   waited (0.40-0.49 x the copy: a claimed tile's total waits for the
   block's tile before it). float16 -> float32 with 96 took 2.5-2.9%
   longer than with 48 (2^28, the whole cumsum: 1057 and 1069 us against
   1031 and 1039, in another run). An earlier run: 2^28 float32 662 us with 48
   against 692 with 32 elements a thread and 659 with 64; 2^27 float64
   609 against 616 and 613; 2^28 float16 -> float32 604 against 622 and
   626; 2^27 int32 -> int64 580 against 573 and 627; but 2^23 + 77
   float64 54 against 49 and 55. 256 x 16 (tiles from a counter) was
   slower than 128 x 32 in every row but int32 -> int64 (596 against 599
   us); so were 256 x 32, 512 x 16 or 32 and 1024 x 8 or 16 before.
   Tiles taken from a counter in the order the blocks start (an atomic
   before the loads) took 0.4-12% longer than tiles by block index in
   every row of the same run. */
constexpr int GA_SCAN_THREADS = 128;
constexpr int GA_SCAN_WARPS = GA_SCAN_THREADS / 32;
template <class In, class Acc> constexpr int GA_SCAN_ITEMS = sizeof(In) == 4 && sizeof(Acc) == 4 ? 96 : 48;

enum : uint32_t { GA_SCAN_NONE = 0, GA_SCAN_AGGREGATE = 1, GA_SCAN_PREFIX = 2 };

/* The sums' identity: -0.0 for floats (x + -0.0 is x for every x, -0.0
   too, so a leading -0.0 stays -0.0 as in NumPy's sequential sum). */
template <class Acc> GA_DEV Acc ga__scan_zero() { return Acc(0); }
template <> GA_DEV float ga__scan_zero<float>() { return -0.0f; }
template <> GA_DEV double ga__scan_zero<double>() { return -0.0; }

template <class Acc, class In> GA_DEV Acc ga__scan_value(In x)
{
    if constexpr (ga__same<In, ga_bool_t>::value) return (Acc)(x.v != 0);
    else if constexpr (ga__same<In, __half>::value) return __half2float(x);
    else if constexpr (ga__same<In, __nv_bfloat16>::value) return __bfloat162float(x);
    else return (Acc)x;
}

/* A lane's VW-element vectors: vector v of the lane in its warp's part of
   the tile starts at element (v * 32 + lane) * VW of the part, so that
   each of a warp's loads reads 32 vectors in a row. */
template <class In, int ITEMS> struct ga__scan_layout {
    static constexpr int VW = 16 / (int)sizeof(In) < ITEMS ? 16 / (int)sizeof(In) : ITEMS;
    static constexpr int V = ITEMS / VW;
    static GA_DEV int64_t at(int v, int lane, int k) { return ((int64_t)v * 32 + lane) * VW + k; }
};

/* Loads a lane's items of the warp's part starting at `part` (elements
   past n: 0). Vectors when the part is whole and `in` 16-byte aligned. */
template <class In, class Acc>
GA_DEV void ga__scan_load(const In *in, int64_t part, int64_t n, int lane, bool vectors, Acc (&x)[GA_SCAN_ITEMS<In, Acc>])
{
    using L = ga__scan_layout<In, GA_SCAN_ITEMS<In, Acc>>;
    if (vectors) {
#pragma unroll
        for (int v = 0; v < L::V; v++) {
            const int4 *at = reinterpret_cast<const int4 *>(in + part + L::at(v, lane, 0));
            const int4 w = GA_SCAN_STREAMING ? __ldcs(at) : *at;
            In e[L::VW];
            memcpy(e, &w, sizeof w);
#pragma unroll
            for (int k = 0; k < L::VW; k++) x[v * L::VW + k] = ga__scan_value<Acc>(e[k]);
        }
    } else {
#pragma unroll
        for (int v = 0; v < L::V; v++)
#pragma unroll
            for (int k = 0; k < L::VW; k++) {
                const int64_t i = part + L::at(v, lane, k);
                x[v * L::VW + k] = i < n ? ga__scan_value<Acc>(in[i]) : ga__scan_zero<Acc>();
            }
    }
}

template <class In, class Acc>
GA_DEV void ga__scan_store(Acc *out, int64_t part, int64_t n, int lane, bool vectors, const Acc (&x)[GA_SCAN_ITEMS<In, Acc>])
{
    using L = ga__scan_layout<In, GA_SCAN_ITEMS<In, Acc>>;
    constexpr int PER = 16 / (int)sizeof(Acc) < L::VW ? 16 / (int)sizeof(Acc) : L::VW; /* Acc per 16-byte store */
    if (vectors) {
#pragma unroll
        for (int v = 0; v < L::V; v++)
#pragma unroll
            for (int k = 0; k < L::VW; k += PER) {
                int4 w;
                memcpy(&w, &x[v * L::VW + k], sizeof w);
                int4 *at = reinterpret_cast<int4 *>(out + part + L::at(v, lane, k));
                if (GA_SCAN_STREAMING) __stcs(at, w);
                else *at = w;
            }
    } else {
#pragma unroll
        for (int v = 0; v < L::V; v++)
#pragma unroll
            for (int k = 0; k < L::VW; k++) {
                const int64_t i = part + L::at(v, lane, k);
                if (i < n) out[i] = x[v * L::VW + k];
            }
    }
}

template <class Acc> GA_DEV Acc ga__warp_inclusive(Acc s, int lane)
{
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const Acc t = __shfl_up_sync(0xffffffffu, s, o);
        if (lane >= o) s += t;
    }
    return s;
}

template <class Acc> GA_DEV Acc ga__warp_total(Acc s)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    return s;
}

/* A tile's status and value in one word, written and read whole (8
   bytes for a 4-byte sum, 16 for an 8-byte one), so that a reader never
   sees a status with another status's value: st/ld.relaxed.gpu, L2's
   coherent copy. */
template <class Acc, bool Wide = (sizeof(Acc) == 8)> struct ga__scan_word;
template <class Acc> struct ga__scan_word<Acc, false> {
    unsigned long long bits;
    static GA_DEV ga__scan_word make(Acc v, uint32_t status)
    {
        uint32_t b;
        memcpy(&b, &v, 4);
        return {(unsigned long long)status << 32 | b};
    }
    GA_DEV uint32_t status() const { return (uint32_t)(bits >> 32); }
    GA_DEV Acc value() const
    {
        const uint32_t b = (uint32_t)bits;
        Acc v;
        memcpy(&v, &b, 4);
        return v;
    }
    static GA_DEV ga__scan_word load(const ga__scan_word *p)
    {
        unsigned long long b;
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(b) : "l"(p) : "memory");
        return {b};
    }
    GA_DEV void store(ga__scan_word *p) const
    {
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(bits) : "memory");
    }
};
template <class Acc> struct alignas(16) ga__scan_word<Acc, true> {
    unsigned long long bits, state;
    static GA_DEV ga__scan_word make(Acc v, uint32_t status)
    {
        ga__scan_word w;
        memcpy(&w.bits, &v, 8);
        w.state = status;
        return w;
    }
    GA_DEV uint32_t status() const { return (uint32_t)state; }
    GA_DEV Acc value() const
    {
        Acc v;
        memcpy(&v, &bits, 8);
        return v;
    }
    static GA_DEV ga__scan_word load(const ga__scan_word *p)
    {
        unsigned long long b, st;
        asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(b), "=l"(st) : "l"(p) : "memory");
        ga__scan_word w;
        w.bits = b, w.state = st;
        return w;
    }
    GA_DEV void store(ga__scan_word *p) const
    {
        asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(bits), "l"(state) : "memory");
    }
};

/* The exclusive prefix of tile t > 0 (warp 0 of its block): the totals of
   the tiles before it, back to the nearest one with its inclusive prefix
   published. A round reads ROWS x 32 words, lane l's at distances l + 1,
   l + 33, ..., all in flight at once. */
template <class Acc> GA_DEV Acc ga__scan_look_back(const ga__scan_word<Acc> *words, int64_t t, int lane)
{
    using W = ga__scan_word<Acc>;
    constexpr int ROWS = GA_SCAN_ROWS;
    const Acc zero = ga__scan_zero<Acc>();
    Acc prefix = zero;
    for (int64_t base = t - 1 - lane;; base -= 32 * ROWS) {
        W w[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            w[r] = base - 32 * r >= 0 ? W::load(words + base - 32 * r) : W::make(zero, GA_SCAN_PREFIX);
        for (;;) { /* until every word has a status */
            bool waiting = false;
#pragma unroll
            for (int r = 0; r < ROWS; r++)
                if (w[r].status() == GA_SCAN_NONE) waiting = true;
            if (!waiting) break;
            if (GA_SCAN_SLEEP_NS) __nanosleep(GA_SCAN_SLEEP_NS);
#pragma unroll
            for (int r = 0; r < ROWS; r++)
                if (w[r].status() == GA_SCAN_NONE) w[r] = W::load(words + base - 32 * r);
        }
        /* the nearest word with a prefix: row `found`, lane `stop`; each
           lane adds its words up to it (all of a round without one) */
        int found = ROWS, stop = 31;
#pragma unroll
        for (int r = ROWS - 1; r >= 0; r--) {
            const uint32_t done = __ballot_sync(0xffffffffu, w[r].status() == GA_SCAN_PREFIX);
            if (done) found = r, stop = __ffs(done) - 1;
        }
        Acc mine = zero;
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            if (r < found || (r == found && lane <= stop)) mine += w[r].value();
        prefix += ga__warp_total(mine);
        if (found < ROWS) return prefix;
    }
}

template <class In, class Acc>
GA_DEV void ga__scan_sum(const In *in, Acc *out, int64_t n, ga__scan_word<Acc> *words)
{
    constexpr int ITEMS = GA_SCAN_ITEMS<In, Acc>, TILE = GA_SCAN_THREADS * ITEMS;
    using L = ga__scan_layout<In, ITEMS>;
    __shared__ Acc warp_totals[GA_SCAN_WARPS], tile_prefix;
    const int lane = (int)(threadIdx.x & 31), warp = (int)(threadIdx.x >> 5);
    const int64_t t = blockIdx.x, first = t * TILE, part = first + (int64_t)warp * 32 * ITEMS;
    const bool whole = first + TILE <= n;
    const bool vectors = whole && ((uintptr_t)in % 16 == 0) && ((uintptr_t)out % 16 == 0);
    Acc x[ITEMS];
    ga__scan_load<In>(in, part, n, lane, vectors, x);

    /* each row of vectors (32 lanes' vector v, in order) scanned across
       the warp, the rows chained */
    const Acc zero = ga__scan_zero<Acc>();
    Acc carry = zero;
#pragma unroll
    for (int v = 0; v < L::V; v++) {
#pragma unroll
        for (int k = 1; k < L::VW; k++) x[v * L::VW + k] += x[v * L::VW + k - 1];
        const Acc upto = ga__warp_inclusive(x[v * L::VW + L::VW - 1], lane), left = __shfl_up_sync(0xffffffffu, upto, 1);
        const Acc before = carry + (lane ? left : zero);
#pragma unroll
        for (int k = 0; k < L::VW; k++) x[v * L::VW + k] += before;
        carry += __shfl_sync(0xffffffffu, upto, 31);
    }
    if (lane == 0) warp_totals[warp] = carry;
    __syncthreads();

    /* the tile's total, published; then its prefix (warp 0) */
    if (warp == 0) {
        Acc total = zero;
#pragma unroll
        for (int w = 0; w < GA_SCAN_WARPS; w++) total += warp_totals[w];
        using W = ga__scan_word<Acc>;
        Acc prefix = zero;
        if (t == 0) {
            if (lane == 0) W::make(total, GA_SCAN_PREFIX).store(words);
        } else {
            if (lane == 0) W::make(total, GA_SCAN_AGGREGATE).store(words + t);
            prefix = ga__scan_look_back(words, t, lane);
            if (lane == 0) W::make(prefix + total, GA_SCAN_PREFIX).store(words + t);
        }
        if (lane == 0) tile_prefix = prefix;
    }
    __syncthreads();
    Acc before = tile_prefix;
    for (int w = 0; w < warp; w++) before += warp_totals[w];
#pragma unroll
    for (int k = 0; k < ITEMS; k++) x[k] += before;
    ga__scan_store<In>(out, part, n, lane, vectors, x);
}

} // namespace

#define GA__SCAN_KERNEL(in, acc)                                                                                 \
    GA_KERNEL GA_KERNEL_NAME(scan, sum, in, acc)(const void *src, void *dst, int64_t n, void *words)              \
    {                                                                                                            \
        ga__scan_sum<ga_t_##in, ga_t_##acc>((const ga_t_##in *)src, (ga_t_##acc *)dst, n,                        \
                                            (ga__scan_word<ga_t_##acc> *)words);                                 \
    }

GA__SCAN_KERNEL(float32, float32)
GA__SCAN_KERNEL(float16, float32)
GA__SCAN_KERNEL(bfloat16, float32)
GA__SCAN_KERNEL(float64, float64)
GA__SCAN_KERNEL(int32, int64)
GA__SCAN_KERNEL(int16, int64)
GA__SCAN_KERNEL(int8, int64)
GA__SCAN_KERNEL(uint32, int64)
GA__SCAN_KERNEL(uint16, int64)
GA__SCAN_KERNEL(uint8, int64)
GA__SCAN_KERNEL(bool, int64)
