/* kernels/random.cu - family "random": draws of the default bit generator,
   Philox4x32-10 (gpuarr.h, >>random), into C-contiguous outputs.

     ga_random_bits_uint8_philox4x32(void *out, ga__random_params p)
         p.n bytes: the stream's words from word p.pos of the block at
         p.counter on, little endian (uint32 draws are 4 bytes a value;
         Generator.bytes keeps the first n bytes of ceil(n / 4) words).

     ga_random_random_<float32|float64>_philox4x32(void *out, ga__random_params p)
         Generator.random: float32 value i from word w = (pos + i):
         (w >> 8) * 2^-24; float64 value i from words (pos + 2i) (the low
         half) and (pos + 2i + 1): (u64 >> 11) * 2^-53.

     ga_random_normal_<float32|float64>_philox4x32(void *out, ga__random_params p)
         Generator.standard_normal by the inverse of the normal CDF of the
         open-interval uniform from the same words: float32 (k + 1/2) * 2^-24
         with k = w >> 8, float64 (k + 1/2) * 2^-53 with k = u64 >> 11. The
         upper half of the uniforms is taken as the mirror of the lower
         (k >= 2^23, resp. 2^52: minus the value of 2^24 - 1 - k, resp. 2^53
         - 1 - k), where (k + 1/2) is exact: k and its mirror give values of
         opposite sign and equal size, and no uniform rounds to 1.

   Word j of a draw (j = pos + i for one word a value, pos + 2i and pos +
   2i + 1 for two) is word j % 4 of Philox4x32-10 of the 128-bit counter
   p.counter + j / 4 under p.key: a value depends on the generator's state
   and its index only, never on the launch. Each warp computes 32
   consecutive blocks, one a lane, and writes 16 bytes of output for each:
   group m is the words pos + 4m .. pos + 4m + 3, words pos..3 of block m
   and 0..pos-1 of block m + 1, which the lane takes from its neighbour by
   a shuffle (so with pos > 0 a warp finishes 31 groups a step, and lane 31
   only computes a block for lane 30). The loops are grid-stride by warps;
   blocks must be whole warps (the host launches 256 threads a block). */

#include "common.cuh"
#include "random_dists.cuh"

GA_DEFINE_FATBIN_VERSION

/* Philox4x32-10 of one counter block (gpuarr.h's ga__philox4x32). */
GA_DEV uint4 ga__philox4x32_10(uint4 c, uint32_t k0, uint32_t k1)
{
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        const uint32_t hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        const uint32_t hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return c;
}

/* Block m of the draw: the counter p.counter + m (128 bits, carried). */
GA_DEV uint4 ga__random_block(const ga__random_params &p, int64_t m)
{
    const uint64_t lo = p.counter[0] + (uint64_t)m;
    const uint64_t hi = p.counter[1] + (lo < (uint64_t)m ? 1u : 0u);
    return ga__philox4x32_10(make_uint4((uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)),
                             p.key[0], p.key[1]);
}

GA_DEV float ga__uniform32(uint32_t w) { return __uint2float_rn(w >> 8) * 5.9604644775390625e-08f; /* 2^-24 */ }

GA_DEV double ga__uniform64(uint64_t u)
{
    return __ull2double_rn(u >> 11) * 1.1102230246251565404236316680908203125e-16; /* 2^-53 */
}

/* The open-interval uniforms (0, 1) of the same bits: (k + 1/2) * 2^-24,
   resp. 2^-53, exact; never 0 or 1. */
GA_DEV float ga__open32(uint32_t w) { return (__uint2float_rn(w >> 8) + 0.5f) * 5.9604644775390625e-08f; }
GA_DEV double ga__open64(uint64_t u)
{
    return (__ull2double_rn(u >> 11) + 0.5) * 1.1102230246251565404236316680908203125e-16;
}

GA_DEV float ga__normal32(uint32_t w)
{
    const uint32_t k = w >> 8;
    if (k < (1u << 23))
        return normcdfinvf((__uint2float_rn(k) + 0.5f) * 5.9604644775390625e-08f);
    return -normcdfinvf((__uint2float_rn(0xFFFFFFu - k) + 0.5f) * 5.9604644775390625e-08f);
}

GA_DEV double ga__normal64(uint64_t u)
{
    const uint64_t k = u >> 11;
    const double scale = 1.1102230246251565404236316680908203125e-16; /* 2^-53 */
    if (k < (1ull << 52))
        return normcdfinv((__ull2double_rn(k) + 0.5) * scale);
    return -normcdfinv((__ull2double_rn((1ull << 53) - 1 - k) + 0.5) * scale);
}

/* Value e's BITS bits of a group of four words: BITS 64 takes words 2e
   (the low half) and 2e + 1; smaller slices go from the low bits of word
   0 up, as NumPy's buffered draws hand out the bits of a uint32. */
template <int BITS> GA_DEV uint64_t ga__random_slice(uint4 w, int e)
{
    const uint32_t word[4] = {w.x, w.y, w.z, w.w};
    if constexpr (BITS == 64)
        return (uint64_t)word[2 * e + 1] << 32 | word[2 * e];
    else if constexpr (BITS == 32)
        return word[e];
    else
        return (word[e * BITS / 32] >> (e * BITS % 32)) & ((1u << BITS) - 1);
}

/* out gets p.n values of type T, each from BITS bits of the stream: group
   m of four words (pos + 4m .. pos + 4m + 3) gives values m * V ..
   m * V + V - 1, V = 128 / BITS, value i = op(its bits, i). Each warp
   computes 32 consecutive blocks, one a lane; with pos > 0 a group takes
   the words pos..3 of its block and 0..pos-1 of the next, which the lane
   gets from its neighbour by a shuffle (so a warp finishes 31 groups a
   step, and lane 31 only computes a block for lane 30). Values are stored
   16 bytes at a time where the output allows. The loops are grid-stride
   by warps; blocks must be whole warps (the host launches 256 threads a
   block). */
template <int BITS, class T, class Op> GA_DEV void ga__random_fill(T *out, const ga__random_params &p, Op op)
{
    constexpr int V = 128 / BITS, C = 16 / (int)sizeof(T); /* values a group, values in 16 bytes */
    static_assert(V % C == 0, "a group fills whole 16-byte chunks");
    const int lane = (int)(threadIdx.x & 31);
    const int pos = p.pos;
    const int per = pos ? 31 : 32; /* groups a warp finishes a step */
    const int64_t groups = (p.n + V - 1) / V;
    const int64_t warp = ga_thread_index() >> 5, warps = ga_thread_count() >> 5;
    /* base is the same in every lane of a warp: the shuffles see them all */
    for (int64_t base = warp * per; base < groups; base += warps * per) {
        const int64_t m = base + lane;
        const uint4 b = ga__random_block(p, m);
        uint4 w = b;
        if (pos) {
            const uint32_t n0 = __shfl_down_sync(0xffffffffu, b.x, 1);
            const uint32_t n1 = __shfl_down_sync(0xffffffffu, b.y, 1);
            const uint32_t n2 = __shfl_down_sync(0xffffffffu, b.z, 1);
            w = pos == 1 ? make_uint4(b.y, b.z, b.w, n0)
                : pos == 2 ? make_uint4(b.z, b.w, n0, n1)
                           : make_uint4(b.w, n0, n1, n2);
        }
        if (lane >= per || m >= groups)
            continue;
#pragma unroll
        for (int c = 0; c < V / C; ++c) {
            union { uint4 u; T t[C]; } chunk;
            const int64_t first = m * V + (int64_t)c * C;
#pragma unroll
            for (int e = 0; e < C; ++e)
                chunk.t[e] = op(ga__random_slice<BITS>(w, c * C + e), first + e);
            if (first + C <= p.n && ga_aligned16(out + first))
                ga_store16(out + first, chunk.u);
            else /* the last values, or an unaligned output */
                for (int e = 0; e < C && first + e < p.n; ++e)
                    out[first + e] = chunk.t[e];
        }
    }
}

/* --- raw bits, random(), standard_normal() ---------------------------- */

struct ga__op_bits { GA_DEV uint8_t operator()(uint64_t v, int64_t) const { return (uint8_t)v; } };
struct ga__op_random32 { GA_DEV float operator()(uint64_t v, int64_t) const { return ga__uniform32((uint32_t)v); } };
struct ga__op_random64 { GA_DEV double operator()(uint64_t v, int64_t) const { return ga__uniform64(v); } };
struct ga__op_normal32 { GA_DEV float operator()(uint64_t v, int64_t) const { return ga__normal32((uint32_t)v); } };
struct ga__op_normal64 { GA_DEV double operator()(uint64_t v, int64_t) const { return ga__normal64(v); } };

GA_KERNEL GA_KERNEL_NAME(random, bits, uint8, philox4x32)(uint8_t *out, ga__random_params p)
{
    ga__random_fill<8>(out, p, ga__op_bits());
}
GA_KERNEL GA_KERNEL_NAME(random, random, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_fill<32>(out, p, ga__op_random32());
}
GA_KERNEL GA_KERNEL_NAME(random, random, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_fill<64>(out, p, ga__op_random64());
}
GA_KERNEL GA_KERNEL_NAME(random, normal, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_fill<32>(out, p, ga__op_normal32());
}
GA_KERNEL GA_KERNEL_NAME(random, normal, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_fill<64>(out, p, ga__op_normal64());
}

/* --- integers over a power-of-two range -------------------------------- */

/* Generator.integers where the range's size is 2^k (p.shift = BITS - k):
   low + the top k of the value's BITS bits, as NumPy's Lemire draw gives
   for such a range (its products never reject); computed in the unsigned
   type of the output's size, so signed outputs wrap as NumPy's do. */
template <class T> struct ga__op_integers {
    uint64_t low;
    int shift;
    GA_DEV T operator()(uint64_t v, int64_t) const { return (T)(low + (shift >= 64 ? 0 : v >> shift)); }
};

#define GA__RANDOM_INTEGERS(T, NAME, BITS, VARIANT)                                               \
    GA_KERNEL GA_KERNEL_NAME(random, integers, NAME, VARIANT)(T * out, ga__random_params p)      \
    {                                                                                             \
        ga__random_fill<BITS>(out, p, ga__op_integers<T>{p.ilow, p.shift});                       \
    }
GA__RANDOM_INTEGERS(uint8_t, bool, 1, philox4x32)
GA__RANDOM_INTEGERS(uint8_t, uint8, 8, philox4x32)
GA__RANDOM_INTEGERS(uint16_t, uint16, 16, philox4x32)
GA__RANDOM_INTEGERS(uint32_t, uint32, 32, philox4x32)
GA__RANDOM_INTEGERS(uint64_t, uint64, 32, philox4x32w32)
GA__RANDOM_INTEGERS(uint64_t, uint64, 64, philox4x32)

/* --- distributions of one uniform or normal a value --------------------- */

/* The parameters of value i: p.value[k], or p.array[k][i] where the
   parameter is an array (of the output's shape, C-contiguous float64). */
GA_DEV double ga__param(const ga__random_params &p, int k, int64_t i)
{
    return p.array[k] ? p.array[k][i] : p.value[k];
}

/* numpy.random.Generator's distributions that take a fixed number of words
   a value: one uniform (or normal) of BITS bits, transformed by NumPy's
   formula where it has one inversion, else by the inverse of the CDF
   (NumPy's loops that redraw a uniform of 0 take the open-interval
   uniform instead, which is never 0). Computed in double for float64
   outputs and the int64 of geometric, in float for float32. */
template <class F> GA_DEV F ga__fixed_value(const ga__random_params &p, uint64_t v, int64_t i)
{
    constexpr bool single = sizeof(F) == 4;
    const F u = single ? (F)ga__uniform32((uint32_t)v) : (F)ga__uniform64(v);
    const F uo = single ? (F)ga__open32((uint32_t)v) : (F)ga__open64(v);
    const F e = -log(uo); /* the standard exponential of the open uniform */
    const F a = (F)ga__param(p, 0, i), b = (F)ga__param(p, 1, i);
    switch (p.op) {
    case GA_RANDOM_UNIFORM: return a + (b - a) * u;
    case GA_RANDOM_NORMAL: return a + b * (single ? (F)ga__normal32((uint32_t)v) : (F)ga__normal64(v));
    case GA_RANDOM_LOGNORMAL: return exp(a + b * (single ? (F)ga__normal32((uint32_t)v) : (F)ga__normal64(v)));
    case GA_RANDOM_STANDARD_EXPONENTIAL: return -log1p(-u);
    case GA_RANDOM_EXPONENTIAL: return a * -log1p(-u);
    case GA_RANDOM_LAPLACE: return uo >= (F)0.5 ? a - b * log((F)2 - uo - uo) : a + b * log(uo + uo);
    case GA_RANDOM_LOGISTIC: return a + b * log(uo / ((F)1 - uo));
    case GA_RANDOM_GUMBEL: return a - b * log(-log((F)1 - uo));
    case GA_RANDOM_WEIBULL: return a == (F)0 ? (F)0 : pow(e, (F)1 / a);
    case GA_RANDOM_PARETO: return expm1(e / a);
    case GA_RANDOM_POWER: return pow(-expm1(-e), (F)1 / a);
    case GA_RANDOM_RAYLEIGH: return a * sqrt((F)2 * e);
    case GA_RANDOM_STANDARD_CAUCHY: return tan((F)3.14159265358979323846 * (uo - (F)0.5));
    case GA_RANDOM_TRIANGULAR: {
        const F mode = b, right = (F)ga__param(p, 2, i);
        const F base = right - a, left_base = mode - a;
        if (u <= left_base / base) return a + sqrt(u * left_base * base);
        return right - sqrt(((F)1 - u) * (right - mode) * base);
    }
    default: return (F)NAN;
    }
}

/* numpy.random.Generator.geometric(p) by inversion: the number of trials
   to the first success, ceil(E / -log1p(-p)) of a standard exponential E
   of the open uniform (so never 0); p = 1 is 1, values past 2^63 - 1 are
   2^63 - 1, as NumPy's. */
GA_DEV int64_t ga__geometric(const ga__random_params &p, uint64_t v, int64_t i)
{
    const double q = ga__param(p, 0, i);
    if (q >= 1.0) return 1;
    const double z = ceil(-log(ga__open64(v)) / -log1p(-q));
    return z >= 9.223372036854775807e18 ? INT64_MAX : (int64_t)z;
}

template <class F> struct ga__op_fixed {
    const ga__random_params *p;
    GA_DEV F operator()(uint64_t v, int64_t i) const { return ga__fixed_value<F>(*p, v, i); }
};
struct ga__op_geometric {
    const ga__random_params *p;
    GA_DEV int64_t operator()(uint64_t v, int64_t i) const { return ga__geometric(*p, v, i); }
};

GA_KERNEL GA_KERNEL_NAME(random, fixed, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_fill<32>(out, p, ga__op_fixed<float>{&p});
}
GA_KERNEL GA_KERNEL_NAME(random, fixed, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_fill<64>(out, p, ga__op_fixed<double>{&p});
}
GA_KERNEL GA_KERNEL_NAME(random, fixed, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__random_fill<64>(out, p, ga__op_geometric{&p});
}

/* --- parameter checks ---------------------------------------------------- */

/* The violations of the constraints in p.op (gpuarr.h's GA__CONS_*: that
   of parameter k in bits 4k..4k+3, that of the parameters together in bits
   12..15) by the p.n values of the parameters, or'ed into *flags (those of
   parameter k shifted by 4k, the relation's by 12). */
GA_KERNEL GA_KERNEL_NAME3(random, check, float64)(unsigned *flags, ga__random_params p)
{
    unsigned bad = 0;
    GA_GRID_STRIDE_LOOP(i, p.n) {
        const double v[3] = {ga__param(p, 0, i), ga__param(p, 1, i), ga__param(p, 2, i)};
        for (int k = 0; k < 3; ++k)
            bad |= GA__CONS_VIOLATION((p.op >> (4 * k)) & 15, v[k]) << (4 * k);
        const int rel = (p.op >> 12) & 15;
        if (rel == GA__CONS_RANGE)
            bad |= (isfinite(v[1] - v[0]) ? 0u : 1u) << 12;
        else if (rel == GA__CONS_TRIANGULAR)
            bad |= ((v[0] > v[1] ? 1u : 0u) | (v[1] > v[2] ? 2u : 0u) | (v[0] == v[2] ? 4u : 0u)) << 12;
    }
    if (bad)
        atomicOr(flags, bad);
}

/* --- distributions of a varying number of words a value ------------------ */

/* Element i's own stream of a draw at p.counter (random_philox.cuh's
   contract: the blocks p.counter + i + j * 2^96). */
GA_DEV ga__rstream ga__element_stream(const ga__random_params &p, int64_t i)
{
    return ga__rstream((uint64_t)p.key[1] << 32 | p.key[0], p.counter[0], p.counter[1], (uint64_t)i);
}

/* numpy.random.Generator's distributions by rejection (random_dists.cuh),
   each value from its element's stream. */
template <class F> GA_DEV F ga__element_real(const ga__random_params &p, ga__rstream &s, int64_t i)
{
    const double a = ga__param(p, 0, i), b = ga__param(p, 1, i), c = ga__param(p, 2, i);
    switch (p.op) {
    case GA_RANDOM_STANDARD_GAMMA:
        if constexpr (sizeof(F) == 4)
            return ga__random_standard_gamma_f(s, (float)a);
        else
            return ga__random_standard_gamma(s, a);
    case GA_RANDOM_GAMMA: return (F)ga__random_gamma(s, a, b);
    case GA_RANDOM_BETA: return (F)ga__random_beta(s, a, b);
    case GA_RANDOM_CHISQUARE: return (F)ga__random_chisquare(s, a);
    case GA_RANDOM_NONCENTRAL_CHISQUARE: return (F)ga__random_noncentral_chisquare(s, a, b);
    case GA_RANDOM_F: return (F)ga__random_f(s, a, b);
    case GA_RANDOM_NONCENTRAL_F: return (F)ga__random_noncentral_f(s, a, b, c);
    case GA_RANDOM_STANDARD_T: return (F)ga__random_standard_t(s, a);
    case GA_RANDOM_VONMISES: return (F)ga__random_vonmises(s, a, b);
    case GA_RANDOM_WALD: return (F)ga__random_wald(s, a, b);
    default: return (F)NAN;
    }
}

GA_DEV int64_t ga__element_integer(const ga__random_params &p, ga__rstream &s, int64_t i)
{
    const double a = ga__param(p, 0, i), b = ga__param(p, 1, i), c = ga__param(p, 2, i);
    switch (p.op) {
    case GA_RANDOM_POISSON: return ga__random_poisson(s, a);
    case GA_RANDOM_BINOMIAL: return ga__random_binomial(s, (int64_t)a, b);
    case GA_RANDOM_NEGATIVE_BINOMIAL: return ga__random_negative_binomial(s, a, b);
    case GA_RANDOM_HYPERGEOMETRIC: return ga__random_hypergeometric(s, (int64_t)a, (int64_t)b, (int64_t)c);
    case GA_RANDOM_LOGSERIES: return ga__random_logseries(s, a);
    case GA_RANDOM_ZIPF: return ga__random_zipf(s, a);
    default: return -1;
    }
}

GA_KERNEL GA_KERNEL_NAME(random, element, float32, philox4x32)(float *out, ga__random_params p)
{
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        out[i] = ga__element_real<float>(p, s, i);
    }
}
GA_KERNEL GA_KERNEL_NAME(random, element, float64, philox4x32)(double *out, ga__random_params p)
{
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        out[i] = ga__element_real<double>(p, s, i);
    }
}
GA_KERNEL GA_KERNEL_NAME(random, element, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        out[i] = ga__element_integer(p, s, i);
    }
}

/* Generator.integers over a range of `range` + 1 values that is not a
   power of two (p.ilow the low bound, p.irange the range): Lemire's
   multiply-and-reject (NumPy's default, use_masked=False) on one word a
   try for ranges below 2^32, two words (the low first) otherwise, each
   element from its own stream. */
GA_DEV uint64_t ga__lemire(ga__rstream &s, uint64_t range)
{
    if (range < 0xFFFFFFFFull) {
        const uint32_t values = (uint32_t)range + 1;
        uint64_t m = (uint64_t)s.next32() * values;
        if ((uint32_t)m < values) {
            const uint32_t threshold = (0u - values) % values;
            for (int tries = 0; (uint32_t)m < threshold && tries < GA__RANDOM_MAX_TRIES; ++tries)
                m = (uint64_t)s.next32() * values;
        }
        return m >> 32;
    }
    const uint64_t values = range + 1;
    uint64_t x = s.next64(), lo = x * values, hi = __umul64hi(x, values);
    if (lo < values) {
        const uint64_t threshold = (0ull - values) % values;
        for (int tries = 0; lo < threshold && tries < GA__RANDOM_MAX_TRIES; ++tries)
            x = s.next64(), lo = x * values, hi = __umul64hi(x, values);
    }
    return hi;
}

#define GA__RANDOM_LEMIRE(T, NAME)                                                      \
    GA_KERNEL GA_KERNEL_NAME(random, lemire, NAME, philox4x32)(T * out, ga__random_params p) \
    {                                                                                   \
        GA_GRID_STRIDE_LOOP(i, p.n) {                                                   \
            ga__rstream s = ga__element_stream(p, i);                                   \
            out[i] = (T)(p.ilow + ga__lemire(s, p.irange));                             \
        }                                                                               \
    }
GA__RANDOM_LEMIRE(uint8_t, uint8)
GA__RANDOM_LEMIRE(uint16_t, uint16)
GA__RANDOM_LEMIRE(uint32_t, uint32)
GA__RANDOM_LEMIRE(uint64_t, uint64)
