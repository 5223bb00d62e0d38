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

/* The values' kinds. */
enum { GA__RANDOM_BITS, GA__RANDOM_UNIFORM32, GA__RANDOM_UNIFORM64, GA__RANDOM_NORMAL32, GA__RANDOM_NORMAL64 };

GA_DEV float ga__uniform32(uint32_t w) { return __uint2float_rn(w >> 8) * 5.9604644775390625e-08f; /* 2^-24 */ }

GA_DEV double ga__uniform64(uint32_t lo, uint32_t hi)
{
    const uint64_t u = (uint64_t)hi << 32 | lo;
    return __ull2double_rn(u >> 11) * 1.1102230246251565404236316680908203125e-16; /* 2^-53 */
}

GA_DEV float ga__normal32(uint32_t w)
{
    const uint32_t k = w >> 8;
    if (k < (1u << 23))
        return normcdfinvf((__uint2float_rn(k) + 0.5f) * 5.9604644775390625e-08f);
    return -normcdfinvf((__uint2float_rn(0xFFFFFFu - k) + 0.5f) * 5.9604644775390625e-08f);
}

GA_DEV double ga__normal64(uint32_t lo, uint32_t hi)
{
    const uint64_t k = ((uint64_t)hi << 32 | lo) >> 11;
    const double scale = 1.1102230246251565404236316680908203125e-16; /* 2^-53 */
    if (k < (1ull << 52))
        return normcdfinv((__ull2double_rn(k) + 0.5) * scale);
    return -normcdfinv((__ull2double_rn((1ull << 53) - 1 - k) + 0.5) * scale);
}

/* The 16 output bytes of four words. */
template <int KIND> GA_DEV uint4 ga__random_group(uint4 w)
{
    if constexpr (KIND == GA__RANDOM_BITS) {
        return w;
    } else if constexpr (KIND == GA__RANDOM_UNIFORM32 || KIND == GA__RANDOM_NORMAL32) {
        float (*const f)(uint32_t) = KIND == GA__RANDOM_UNIFORM32 ? ga__uniform32 : ga__normal32;
        return make_uint4(__float_as_uint(f(w.x)), __float_as_uint(f(w.y)), __float_as_uint(f(w.z)),
                          __float_as_uint(f(w.w)));
    } else {
        double (*const f)(uint32_t, uint32_t) = KIND == GA__RANDOM_UNIFORM64 ? ga__uniform64 : ga__normal64;
        const double a = f(w.x, w.y), b = f(w.z, w.w);
        return make_uint4((uint32_t)__double_as_longlong(a), (uint32_t)((uint64_t)__double_as_longlong(a) >> 32),
                          (uint32_t)__double_as_longlong(b), (uint32_t)((uint64_t)__double_as_longlong(b) >> 32));
    }
}

/* out gets p.n values of `size` bytes (bits: bytes), 16 bytes a group. */
template <int KIND, int SIZE> GA_DEV void ga__random_fill(void *out, const ga__random_params &p)
{
    const int lane = (int)(threadIdx.x & 31);
    const int pos = p.pos;
    const int per = pos ? 31 : 32; /* groups a warp finishes a step */
    const int64_t bytes = p.n * SIZE;
    const bool vec = ga_aligned16(out);
    const int64_t warp = ga_thread_index() >> 5, warps = ga_thread_count() >> 5;
    /* base is the same in every lane of a warp: the shuffles see them all */
    for (int64_t base = warp * per; base < p.groups; base += warps * per) {
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
        if (lane >= per || m >= p.groups)
            continue;
        const uint4 v = ga__random_group<KIND>(w);
        char *dst = (char *)out + m * 16;
        const int64_t left = bytes - m * 16;
        if (vec && left >= 16) {
            ga_store16(dst, v);
        } else { /* the last group, or an unaligned output */
            const uint32_t word[4] = {v.x, v.y, v.z, v.w};
            if constexpr (SIZE == 8) {
                for (int e = 0; e < 2 && 8 * e < left; ++e)
                    ((uint64_t *)dst)[e] = (uint64_t)word[2 * e + 1] << 32 | word[2 * e];
            } else if constexpr (SIZE == 4) {
                for (int e = 0; e < 4 && 4 * e < left; ++e)
                    ((uint32_t *)dst)[e] = word[e];
            } else {
                for (int e = 0; e < 16 && e < left; ++e)
                    dst[e] = (char)(word[e / 4] >> (8 * (e % 4)));
            }
        }
    }
}

GA_KERNEL GA_KERNEL_NAME(random, bits, uint8, philox4x32)(void *out, ga__random_params p)
{
    ga__random_fill<GA__RANDOM_BITS, 1>(out, p);
}
GA_KERNEL GA_KERNEL_NAME(random, random, float32, philox4x32)(void *out, ga__random_params p)
{
    ga__random_fill<GA__RANDOM_UNIFORM32, 4>(out, p);
}
GA_KERNEL GA_KERNEL_NAME(random, random, float64, philox4x32)(void *out, ga__random_params p)
{
    ga__random_fill<GA__RANDOM_UNIFORM64, 8>(out, p);
}
GA_KERNEL GA_KERNEL_NAME(random, normal, float32, philox4x32)(void *out, ga__random_params p)
{
    ga__random_fill<GA__RANDOM_NORMAL32, 4>(out, p);
}
GA_KERNEL GA_KERNEL_NAME(random, normal, float64, philox4x32)(void *out, ga__random_params p)
{
    ga__random_fill<GA__RANDOM_NORMAL64, 8>(out, p);
}
