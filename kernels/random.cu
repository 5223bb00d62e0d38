/* kernels/random.cu - family "random": draws of the default bit generator,
   Philox4x32-10 (gpuarr.h, >>random), into C-contiguous outputs; the
   sampling algorithms are in random_dists.cuh, the generator and the
   values of words in random_philox.cuh.

   Fixed draws: a fixed number of bits a value, in stream order. Word j of
   a draw is word j % 4 of Philox4x32-10 of the 128-bit counter p.counter
   + j / 4 under p.key, j counted from word p.pos of the first block; a
   value of BITS bits takes the next BITS bits (64: two words, the first
   the low half; 8, 16: slices of a word from its low bits up; 1: bits).
   Each warp computes 32 consecutive blocks, one a lane, group m being the
   words pos + 4m .. pos + 4m + 3 (words pos..3 of block m and 0..pos-1 of
   block m + 1, taken from the neighbouring lane by a shuffle, so with pos
   > 0 a warp finishes 31 groups a step); blocks must be whole warps.
     ga_random_bits_uint8_philox4x32         bytes (Generator.bytes)
     ga_random_random_<f32|f64>_philox4x32   Generator.random: (w >> 8) 2^-24,
                                             (u64 >> 11) 2^-53
     ga_random_normal_<f32|f64>_philox4x32   standard_normal: the inverse
                                             normal CDF of the open uniform,
                                             the upper half mirrored (exact)
     ga_random_integers_<t>_philox4x32[w32]  integers over 2^k values: ilow +
                                             the top k of the value's bits
     ga_random_fixed_<f32|f64|i64>_philox4x32  the distributions of one
                                             uniform or normal (p.op)

   Element draws: value i from its own counter blocks p.counter + i + j *
   2^96 (random_philox.cuh's ga__rstream), one thread a value.
     ga_random_element_<f32|f64|i64>_philox4x32  rejection distributions (p.op)
     ga_random_<poisson|binomial|binomial_inversion>_int64_philox4x32,
     ga_random_standard_gamma_<f32|f64>_philox4x32  one of them each
     ga_random_lemire_<u8|u16|u32|u64>_philox4x32  integers over other ranges
     ga_random_bounded_<u8|u16|u32|u64>_philox4x32  integers with array bounds
                                             (ga__random_bounds): a range each
     ga_random_multinomial_int64_philox4x32, ga_random_dirichlet_float64_philox4x32,
     ga_random_mvhg_<marginals|count>_int64_philox4x32
                                             a stream a row of k values
     ga_random_ties_int64_philox4x32         permutations: the sorted indices
                                             widened, each run of tied keys
                                             shuffled from its first
                                             position's stream
     ga_random_first_draws_uint32            choice without replacement: the
                                             first occurrences among sorted
                                             draws, flagged in draw order
     ga_random_first_claim_uint32,           or, for a population of at most
     ga_random_first_slots_uint32            32 x the draws, each value's
                                             slot claimed by its first draw
                                             (atomicMin), then the draws
                                             holding their slots flagged

   NumPy's Philox (Philox4x64-10), NumPy's streams bit for bit:
     ga_random_<random|integers>_<t>_philox4x64   random() and integers over
                                             2^k values (gpuarr.h's
                                             ga__philox64_params), a thread
                                             a block

   ga_random_check_float64: the parameters' constraints (gpuarr.h's
   GA__CONS_*), or'ed into a flag word; ga_random_check_bounds: integers'
   array bounds (GA__BOUNDS_*). */

#include "common.cuh"
#include "random_dists.cuh"

GA_DEFINE_FATBIN_VERSION

/* Block m of the draw: Philox4x32-10 (random_philox.cuh) of the counter
   p.counter + m (128 bits, carried). */
GA_DEV uint4 ga__random_block(const ga__random_params &p, int64_t m)
{
    const uint64_t lo = p.counter[0] + (uint64_t)m;
    const uint64_t hi = p.counter[1] + (lo < (uint64_t)m ? 1u : 0u);
    uint32_t w[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
    ga__philox4x32_10_words(w, p.key[0], p.key[1]);
    return make_uint4(w[0], w[1], w[2], w[3]);
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
struct ga__op_random32 { GA_DEV float operator()(uint64_t v, int64_t) const { return ga__uniform32_bits((uint32_t)v); } };
struct ga__op_random64 { GA_DEV double operator()(uint64_t v, int64_t) const { return ga__uniform64_bits(v); } };
struct ga__op_normal32 { GA_DEV float operator()(uint64_t v, int64_t) const { return ga__normal32_bits((uint32_t)v); } };
struct ga__op_normal64 { GA_DEV double operator()(uint64_t v, int64_t) const { return ga__normal64_bits(v); } };

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
   a value: one uniform (or normal) of the value's 64 bits, transformed by
   NumPy's formula where it has one inversion (random_dists.cuh's
   ga__inv_*), else by the inverse of the CDF; where NumPy redraws a
   uniform of 0, the open-interval uniform of the same bits, which is never
   0. float64 results, and geometric's int64. */
GA_DEV double ga__fixed_value(const ga__random_params &p, uint64_t v, int64_t i)
{
    const double a = ga__param(p, 0, i), b = ga__param(p, 1, i);
    const double u = ga__uniform64_bits(v);
    switch (p.op) {
    case GA_RANDOM_UNIFORM: return ga__inv_uniform(u, a, b);
    case GA_RANDOM_NORMAL: return a + b * ga__normal64_bits(v);
    case GA_RANDOM_LOGNORMAL: return exp(a + b * ga__normal64_bits(v));
    case GA_RANDOM_STANDARD_EXPONENTIAL: return ga__inv_standard_exponential(u);
    case GA_RANDOM_EXPONENTIAL: return ga__inv_exponential(u, a);
    case GA_RANDOM_LAPLACE: return ga__inv_laplace(ga__uniform64_open_bits(v), a, b);
    case GA_RANDOM_LOGISTIC: return ga__inv_logistic(ga__uniform64_open_bits(v), a, b);
    case GA_RANDOM_GUMBEL: return ga__inv_gumbel(ga__uniform64_open_bits(v), a, b);
    case GA_RANDOM_WEIBULL: return ga__inv_weibull(u, a);
    case GA_RANDOM_PARETO: return ga__inv_pareto(u, a);
    case GA_RANDOM_POWER: return ga__inv_power(u, a);
    case GA_RANDOM_RAYLEIGH: return ga__inv_rayleigh(u, a);
    case GA_RANDOM_STANDARD_CAUCHY: return tan(GA__RANDOM_PI * (ga__uniform64_open_bits(v) - 0.5));
    case GA_RANDOM_TRIANGULAR: return ga__inv_triangular(u, a, b, ga__param(p, 2, i));
    default: return NAN;
    }
}

/* standard_exponential in float32: -log1p(-u) of the value's word, as
   -log(1 - u) (1 - u is exact: u is a multiple of 2^-24). */
GA_DEV float ga__fixed_value32(uint64_t v) { return -logf(1.0f - ga__uniform32_bits((uint32_t)v)); }

/* numpy.random.Generator.geometric(p) by inversion, for every p (NumPy
   searches for p >= 1/3; inversion takes a fixed two words): ceil(E /
   -log1p(-p)) of the standard exponential E of the value's bits (never 0),
   1 for p = 1, 2^63 - 1 past it. */
GA_DEV int64_t ga__geometric(const ga__random_params &p, uint64_t v, int64_t i)
{
    const double q = ga__param(p, 0, i);
    if (q >= 1.0) return 1;
    const double z = ceil(ga__exponential64_bits(v) / -log1p(-q));
    return z >= GA__RANDOM_INT64_MAX_DOUBLE ? INT64_MAX : (int64_t)z;
}

struct ga__op_fixed32 {
    GA_DEV float operator()(uint64_t v, int64_t) const { return ga__fixed_value32(v); }
};
struct ga__op_fixed64 {
    const ga__random_params *p;
    GA_DEV double operator()(uint64_t v, int64_t i) const { return ga__fixed_value(*p, v, i); }
};
struct ga__op_geometric {
    const ga__random_params *p;
    GA_DEV int64_t operator()(uint64_t v, int64_t i) const { return ga__geometric(*p, v, i); }
};

GA_KERNEL GA_KERNEL_NAME(random, fixed, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_fill<32>(out, p, ga__op_fixed32());
}
GA_KERNEL GA_KERNEL_NAME(random, fixed, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_fill<64>(out, p, ga__op_fixed64{&p});
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
            bad |= GA__RANGE_VIOLATION(v[1] - v[0]) << 12;
        else if (rel == GA__CONS_TRIANGULAR)
            bad |= ((v[0] > v[1] ? 1u : 0u) | (v[1] > v[2] ? 2u : 0u) | (v[0] == v[2] ? 4u : 0u)) << 12;
        else if (rel == GA__CONS_HYPERGEOMETRIC)
            bad |= ((v[0] + v[1] < v[2] ? 1u : 0u) | (v[0] >= 1e9 || v[1] >= 1e9 ? 2u : 0u)) << 12;
        else if (rel == GA__CONS_NEGATIVE_BINOMIAL)
            bad |= ((1 - v[1]) / v[1] * (v[0] + 10 * sqrt(v[0])) > GA__POISSON_LAM_MAX ? 1u : 0u) << 12;
    }
    if (bad)
        atomicOr(flags, bad);
}

/* A bound of integers with array bounds as a wide integer hi * 2^64 + lo
   (hi -1 or 0): element i of `words` (or `value`), signed or not. */
struct ga__wide_bound {
    int hi;
    uint64_t lo;
};
GA_DEV ga__wide_bound ga__bound_at(const uint64_t *words, uint64_t value, bool is_signed, int64_t i)
{
    const uint64_t v = words ? words[i] : value;
    return ga__wide_bound{is_signed && (int64_t)v < 0 ? -1 : 0, v};
}
GA_DEV bool ga__wide_less(ga__wide_bound a, ga__wide_bound b)
{
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

/* The checks of integers' array bounds (gpuarr.h's GA__BOUNDS_*): for each
   element, low and the last value (high, less 1 without endpoint) against
   the dtype's bounds and each other, or'ed into *flags. */
GA_KERNEL GA_KERNEL_NAME3(random, check, bounds)(unsigned *flags, ga__random_bounds b)
{
    unsigned bad = 0;
    const ga__wide_bound lowest{b.flags & GA__BOUNDS_DTYPE_SIGNED ? -1 : 0, b.lowest}, highest{0, b.highest};
    GA_GRID_STRIDE_LOOP(i, b.n) {
        const ga__wide_bound low = ga__bound_at(b.low, b.low_value, b.flags & GA__BOUNDS_LOW_SIGNED, i);
        ga__wide_bound last = ga__bound_at(b.high, b.high_value, b.flags & GA__BOUNDS_HIGH_SIGNED, i);
        if (!(b.flags & GA__BOUNDS_ENDPOINT)) {
            if (last.lo == 0)
                last.hi -= 1;
            last.lo -= 1;
        }
        const bool low_out = ga__wide_less(low, lowest) || ((b.flags & GA__BOUNDS_WIDE) && ga__wide_less(highest, low));
        bad |= (low_out ? GA__BOUNDS_LOW_OUT : 0u) |
               (ga__wide_less(highest, last) ? GA__BOUNDS_HIGH_OUT : 0u) |
               (ga__wide_less(last, low) ? GA__BOUNDS_EMPTY : 0u) | (low.lo != 0 ? GA__BOUNDS_LOW_NONZERO : 0u);
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
/* Value i of the element draw of distribution D (a compile-time constant:
   the kernel holds that sampler's registers only), or of p.op where D is
   -1. */
template <class F, int D = -1> GA_DEV F ga__element_real(const ga__random_params &p, ga__rstream &s, int64_t i)
{
    const double a = ga__param(p, 0, i), b = ga__param(p, 1, i), c = ga__param(p, 2, i);
    switch (D >= 0 ? D : p.op) {
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

template <int D = -1> GA_DEV int64_t ga__element_integer(const ga__random_params &p, ga__rstream &s, int64_t i)
{
    const double a = ga__param(p, 0, i), b = ga__param(p, 1, i), c = ga__param(p, 2, i);
    switch (D >= 0 ? D : p.op) {
    case GA_RANDOM_POISSON: return ga__random_poisson(s, a);
    case GA_RANDOM_BINOMIAL: return ga__random_binomial(s, (int64_t)a, b);
    case GA_RANDOM_NEGATIVE_BINOMIAL: return ga__random_negative_binomial(s, a, b);
    case GA_RANDOM_HYPERGEOMETRIC: return ga__random_hypergeometric(s, (int64_t)a, (int64_t)b, (int64_t)c);
    case GA_RANDOM_LOGSERIES: return ga__random_logseries(s, a);
    case GA_RANDOM_ZIPF: return ga__random_zipf(s, a);
    default: return -1;
    }
}

/* out[i] = value(element i's stream, i) for i < p.n: the element kernels. */
template <class T, class F> GA_DEV void ga__random_each(T *out, const ga__random_params &p, F value)
{
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        out[i] = value(s, i);
    }
}

GA_KERNEL GA_KERNEL_NAME(random, element, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t i) { return ga__element_real<float>(p, s, i); });
}
GA_KERNEL GA_KERNEL_NAME(random, element, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t i) { return ga__element_real<double>(p, s, i); });
}
GA_KERNEL GA_KERNEL_NAME(random, element, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t i) { return ga__element_integer(p, s, i); });
}

/* The element draws of the most used rejection samplers, a kernel each
   (the generic kernels above hold every sampler's registers: 102 for
   int64, 78 for float64; one sampler takes 56 to 60): poisson, binomial,
   binomial by inversion alone (scalar n and p with min(p, 1 - p) n <= 30,
   the host's choice), standard_gamma. */
GA_KERNEL GA_KERNEL_NAME(random, poisson, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__random_each(out, p,
                    [&](ga__rstream &s, int64_t i) { return ga__element_integer<GA_RANDOM_POISSON>(p, s, i); });
}
GA_KERNEL GA_KERNEL_NAME(random, binomial, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__random_each(out, p,
                    [&](ga__rstream &s, int64_t i) { return ga__element_integer<GA_RANDOM_BINOMIAL>(p, s, i); });
}
GA_KERNEL GA_KERNEL_NAME(random, binomial_inversion, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t) {
        return ga__random_binomial_small(s, (int64_t)p.value[0], p.value[1]);
    });
}
GA_KERNEL GA_KERNEL_NAME(random, standard_gamma, float32, philox4x32)(float *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t i) {
        return ga__element_real<float, GA_RANDOM_STANDARD_GAMMA>(p, s, i);
    });
}
GA_KERNEL GA_KERNEL_NAME(random, standard_gamma, float64, philox4x32)(double *out, ga__random_params p)
{
    ga__random_each(out, p, [&](ga__rstream &s, int64_t i) {
        return ga__element_real<double, GA_RANDOM_STANDARD_GAMMA>(p, s, i);
    });
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

/* Generator.integers with array bounds (gpuarr.h's ga__random_bounds, the
   bounds already checked): element i draws ga__lemire over its own range
   (high - low, less 1 without endpoint) from its own stream; a range of
   2^64 values is the stream's raw 64-bit word. */
GA_DEV uint64_t ga__bounded_value(const ga__random_params &p, const ga__random_bounds &b, int64_t i)
{
    const uint64_t low = b.low ? b.low[i] : b.low_value, high = b.high ? b.high[i] : b.high_value;
    const uint64_t range = high - low - (b.flags & GA__BOUNDS_ENDPOINT ? 0u : 1u);
    ga__rstream s = ga__element_stream(p, i);
    return low + (range == ~0ull ? s.next64() : ga__lemire(s, range));
}

#define GA__RANDOM_BOUNDED(T, NAME)                                                                         \
    GA_KERNEL GA_KERNEL_NAME(random, bounded, NAME, philox4x32)(T * out, ga__random_params p, ga__random_bounds b) \
    {                                                                                                       \
        GA_GRID_STRIDE_LOOP(i, p.n) {                                                                       \
            out[i] = (T)ga__bounded_value(p, b, i);                                                         \
        }                                                                                                   \
    }
GA__RANDOM_BOUNDED(uint8_t, uint8)
GA__RANDOM_BOUNDED(uint16_t, uint16)
GA__RANDOM_BOUNDED(uint32_t, uint32)
GA__RANDOM_BOUNDED(uint64_t, uint64)

/* --- multinomial and dirichlet: a stream a row of k values --------------- */

/* Row i of p.n rows of k = p.irange values. multinomial: row i's pvals at
   p.array[0] + i * p.ilow (p.ilow 0: one pvals for every row, k: a row
   each), its n the int64 p.array[1][i] where p.array[1] is not NULL (the
   pointer field reused: int64 values, not doubles), else p.value[0].
   dirichlet: alpha at p.array[0]. */
GA_KERNEL GA_KERNEL_NAME(random, multinomial, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    const int64_t k = (int64_t)p.irange, stride = (int64_t)p.ilow;
    const int64_t *ns = (const int64_t *)p.array[1];
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        const int64_t n = ns ? ns[i] : (int64_t)p.value[0];
        ga__random_multinomial(s, n, p.array[0] + i * stride, k, out + i * k);
    }
}
GA_KERNEL GA_KERNEL_NAME(random, dirichlet, float64, philox4x32)(double *out, ga__random_params p)
{
    const int64_t k = (int64_t)p.irange;
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        ga__random_dirichlet(s, p.array[0], k, out + i * k);
    }
}

/* multivariate_hypergeometric: row i of p.n rows of k = p.irange counts,
   colors the int64 array at p.array[0] (the pointer field is reused: the
   colors are int64, up to 2^60, not doubles), nsample p.ilow. Each thread
   sums the colors itself (k values, as the row's own loop). */
GA_DEV int64_t ga__mvhg_total(const int64_t *colors, int64_t k)
{
    int64_t total = 0;
    for (int64_t j = 0; j < k; ++j)
        total += colors[j];
    return total;
}
template <bool COUNT> GA_DEV void ga__mvhg_rows(int64_t *out, const ga__random_params &p)
{
    const int64_t k = (int64_t)p.irange, nsample = (int64_t)p.ilow;
    const int64_t *colors = (const int64_t *)p.array[0];
    const int64_t total = ga__mvhg_total(colors, k);
    GA_GRID_STRIDE_LOOP(i, p.n) {
        ga__rstream s = ga__element_stream(p, i);
        if constexpr (COUNT)
            ga__random_mvhg_count(s, colors, k, total, nsample, out + i * k);
        else
            ga__random_mvhg_marginals(s, colors, k, total, nsample, out + i * k);
    }
}
GA_KERNEL GA_KERNEL_NAME(random, mvhg_marginals, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__mvhg_rows<false>(out, p);
}
GA_KERNEL GA_KERNEL_NAME(random, mvhg_count, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    ga__mvhg_rows<true>(out, p);
}

/* --- permutations: the shuffles of tied keys ---------------------------- */

/* The last step of permutation(n) through 32-bit keys (gpuarr.h's
   ga__random_order32): p.array[0] holds the n = p.n keys sorted (uint32),
   p.array[1] their indices in the stable order (uint32; the pointer fields
   are reused, as mvhg's colors). out[i] is the index at sorted position i,
   as int64, except that the indices of each run of equal keys s..s+L-1 (L
   >= 2) are first shuffled in place by Fisher-Yates from the stream of
   element s (ga__element_stream): for j = L-1 down to 1, t = ga__lemire(s,
   j) (uniform in 0..j) and indices j and t of the run swap. The thread of
   a run's first position does the whole run; the others skip. */
GA_KERNEL GA_KERNEL_NAME(random, ties, int64, philox4x32)(int64_t *out, ga__random_params p)
{
    const uint32_t *keys = (const uint32_t *)(uintptr_t)p.array[0];
    uint32_t *idx = (uint32_t *)(uintptr_t)p.array[1];
    GA_GRID_STRIDE_LOOP(i, p.n) {
        const uint32_t k = keys[i];
        if (i > 0 && keys[i - 1] == k)
            continue; /* written by its run's first thread */
        int64_t len = 1;
        while (i + len < p.n && keys[i + len] == k)
            ++len;
        if (len == 1) {
            out[i] = idx[i];
            continue;
        }
        ga__rstream s = ga__element_stream(p, i);
        uint32_t *run = idx + i;
        for (int64_t j = len - 1; j > 0; --j) {
            const int64_t t = (int64_t)ga__lemire(s, (uint64_t)j);
            const uint32_t v = run[j];
            run[j] = run[t];
            run[t] = v;
        }
        for (int64_t j = 0; j < len; ++j)
            out[i + j] = run[j];
    }
}

/* choice without replacement by sequential sampling (gpuarr.h's
   ga__choice_sequential): p.array[0] holds the p.n draws sorted (uint32),
   p.array[1] their positions in draw order, stably (uint32), p.array[2]
   gets the draws back in draw order (uint32; not p.array[0]), and
   flags[position] is 1 where the draw is its value's first occurrence
   (the first of its run of equal values), else 0. */
GA_KERNEL GA_KERNEL_NAME3(random, first_draws, uint32)(uint8_t *flags, ga__random_params p)
{
    const uint32_t *sorted = (const uint32_t *)(uintptr_t)p.array[0], *pos = (const uint32_t *)(uintptr_t)p.array[1];
    uint32_t *drawn = (uint32_t *)(uintptr_t)p.array[2];
    GA_GRID_STRIDE_LOOP(i, p.n) {
        const uint32_t v = sorted[i], at = pos[i];
        drawn[at] = v;
        flags[at] = i == 0 || sorted[i - 1] != v ? 1 : 0;
    }
}

/* choice without replacement, a population n of at most 32 x the m draws:
   slots (n uint32, all ones before) get the least position that drew
   their value (p.array[2]: the draws, uint32; p.n = m < 2^32). */
GA_KERNEL GA_KERNEL_NAME3(random, first_claim, uint32)(uint32_t *slots, ga__random_params p)
{
    const uint32_t *drawn = (const uint32_t *)(uintptr_t)p.array[2];
    GA_GRID_STRIDE_LOOP(i, p.n) atomicMin(&slots[drawn[i]], (uint32_t)i);
}

/* flags[i] is 1 where draw i holds its value's slot (p.array[0]): the
   value's first occurrence; the same flags as ga_random_first_draws. */
GA_KERNEL GA_KERNEL_NAME3(random, first_slots, uint32)(uint8_t *flags, ga__random_params p)
{
    const uint32_t *slots = (const uint32_t *)(uintptr_t)p.array[0], *drawn = (const uint32_t *)(uintptr_t)p.array[2];
    GA_GRID_STRIDE_LOOP(i, p.n) flags[i] = slots[drawn[i]] == (uint32_t)i ? 1 : 0;
}

/* --- NumPy's Philox (Philox4x64-10) -------------------------------------- */

/* Philox4x64-10 of the counter block c under key (k0, k1): gpuarr.h's
   ga__philox4x64, NumPy's philox4x64_R. */
GA_DEV void ga__philox4x64_10(uint64_t c[4], uint64_t k0, uint64_t k1)
{
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        const uint64_t hi0 = __umul64hi(0xD2E7470EE14C6C93ull, c[0]), lo0 = 0xD2E7470EE14C6C93ull * c[0];
        const uint64_t hi1 = __umul64hi(0xCA5A826395121157ull, c[2]), lo1 = 0xCA5A826395121157ull * c[2];
        const uint64_t x0 = hi1 ^ c[1] ^ k0, x2 = hi0 ^ c[3] ^ k1;
        c[0] = x0, c[1] = lo1, c[2] = x2, c[3] = lo0;
        k0 += 0x9E3779B97F4A7C15ull;
        k1 += 0xBB67AE8584CAA73Bull;
    }
}

/* The value of `bits` bits v, as op wants it. */
template <class T, int OP> GA_DEV T ga__philox64_value(const ga__philox64_params &p, uint64_t v)
{
    if constexpr (OP == 1)
        return sizeof(T) == 8 ? (T)ga__uniform64_bits(v) : (T)ga__uniform32_bits((uint32_t)v);
    else
        return (T)(p.ilow + (p.shift >= 64 ? 0 : v >> p.shift));
}

/* The values that 32-bit value s of the draw holds (1, 2, 4 or 32 of
   them, by p.bits). */
template <class T, int OP> GA_DEV void ga__philox64_emit32(T *out, const ga__philox64_params &p, int64_t s, uint32_t u)
{
    const int per = 32 / p.bits;
    for (int e = 0; e < per; ++e) {
        const int64_t i = s * per + e;
        if (i >= p.n)
            return;
        const uint64_t v = p.bits == 32 ? u : (u >> (e * p.bits)) & ((1u << p.bits) - 1);
        out[i] = ga__philox64_value<T, OP>(p, v);
    }
}

/* The values of 64-bit word t of the draw. */
template <class T, int OP> GA_DEV void ga__philox64_emit64(T *out, const ga__philox64_params &p, int64_t t, uint64_t w)
{
    if (p.bits == 64) {
        if (t < p.n)
            out[t] = ga__philox64_value<T, OP>(p, w);
        return;
    }
    const int64_t s = p.has_uint32 + 2 * t; /* its low half's place among the 32-bit values */
    ga__philox64_emit32<T, OP>(out, p, s, (uint32_t)w);
    ga__philox64_emit32<T, OP>(out, p, s + 1, (uint32_t)(w >> 32));
}

/* Thread q = 0 takes what the state holds (the buffer's words, uinteger),
   thread q > 0 block counter + q (its four words); grid-stride over the
   blocks the draw needs. */
template <class T, int OP> GA_DEV void ga__philox64_fill(T *out, const ga__philox64_params &p, int64_t blocks)
{
    const int64_t r = 4 - p.pos; /* buffered words */
    GA_GRID_STRIDE_LOOP(q, blocks + 1) {
        if (q == 0) {
            if (p.has_uint32 && p.bits != 64)
                ga__philox64_emit32<T, OP>(out, p, 0, p.uinteger);
            for (int t = 0; t < r; ++t) { /* (selects: no local copy of p) */
                const int k = p.pos + t;
                const uint64_t w = k == 0 ? p.buffer[0] : k == 1 ? p.buffer[1] : k == 2 ? p.buffer[2] : p.buffer[3];
                ga__philox64_emit64<T, OP>(out, p, t, w);
            }
            continue;
        }
        uint64_t c[4] = {p.counter[0] + (uint64_t)q, p.counter[1], p.counter[2], p.counter[3]};
        if (c[0] < (uint64_t)q && !++c[1] && !++c[2]) /* the carry */
            ++c[3];
        ga__philox4x64_10(c, p.key[0], p.key[1]);
#pragma unroll
        for (int w = 0; w < 4; ++w)
            ga__philox64_emit64<T, OP>(out, p, r + 4 * (q - 1) + w, c[w]);
    }
}

#define GA__PHILOX64_KERNEL(OPNAME, T, NAME, OP)                                                    \
    GA_KERNEL GA_KERNEL_NAME(random, OPNAME, NAME, philox4x64)(T * out, ga__philox64_params p, int64_t blocks) \
    {                                                                                               \
        ga__philox64_fill<T, OP>(out, p, blocks);                                                   \
    }
GA__PHILOX64_KERNEL(random, float, float32, 1)
GA__PHILOX64_KERNEL(random, double, float64, 1)
GA__PHILOX64_KERNEL(integers, uint8_t, uint8, 0)
GA__PHILOX64_KERNEL(integers, uint16_t, uint16, 0)
GA__PHILOX64_KERNEL(integers, uint32_t, uint32, 0)
GA__PHILOX64_KERNEL(integers, uint64_t, uint64, 0)
