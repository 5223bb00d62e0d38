/* kernels/random_philox.cuh - the default bit generator (Philox4x32-10)
   for draws whose number of words a value varies, as one header for the
   device (nvcc) and the host (any C++17 compiler, no CUDA headers), so
   that the sampling algorithms of random_dists.cuh can be tested on a
   machine without a GPU.

     1. GA_HD and the few CUDA intrinsics, with host fallbacks
     2. ga__philox4x32_10_words: Philox4x32-10 of one counter block
     3. the inverse of the normal CDF on the host (Wichura's AS241)
     4. the uniform, normal and exponential values of one or two words
        (ga__<value>64_bits, ga__<value>32_bits), also for fixed draws
     5. struct ga__rstream: one element's stream of words and their values

   The per-element stream (the library's contract for such draws). A draw
   starts at the generator's 128-bit counter C (c_lo: Random123's words 0
   and 1, c_hi: words 2 and 3) under its 64-bit key (word 0 in the low
   half). Element i of the draw owns the counter blocks

       C + i + j * 2^96,   j = 0, 1, 2, ...   (mod 2^128)

   that is, in the 32-bit counter words w0..w3 (little endian), the words
   of C + i with j added to w3 modulo 2^32. It reads the four words of
   block 0 in order w0, w1, w2, w3, then those of block 1, and so on. A
   value depends on the generator's state and the element's index only,
   never on the launch, and elements never share a block while a draw has
   fewer than 2^96 of them.

   The values of the words (the fixed draws' formulas, gpuarr.h >>random):
     next32()            one word
     next64()            two words, the first the low half
     uniform64()         (next64() >> 11) * 2^-53, in [0, 1)
     uniform64_open()    ((next64() >> 11) + 1/2) * 2^-53, in (0, 1)
     uniform32()         (next32() >> 8) * 2^-24, in [0, 1)
     uniform32_open()    ((next32() >> 8) + 1/2) * 2^-24, in (0, 1)
     normal64/32()       the inverse normal CDF of the open uniform of the
                         same words, its upper half mirrored (below)
     exponential64/32()  -log of the open uniform of the same words
   The open uniforms are exact in the lower half; in the upper half k + 1/2
   needs one bit more than the format has, so they round (to even), and the
   largest k, which would round to 1, gives the largest value below 1.
   normal and exponential take the upper half as 1 minus the lower one
   (k >= 2^52, resp. 2^23: m = 2^53 - 1 - k, resp. 2^24 - 1 - k, and
   minus the normal of m, resp. -log1p of minus the open uniform of m),
   which is exact: no value is lost to rounding near 1.
   On the device the normals are CUDA's normcdfinv / normcdfinvf, as
   kernels/random.cu's (the same words give the same values as the fixed
   draw); on the host Wichura's AS241 in double precision (rounded to float
   for normal32), which agrees with them to a few units in the last place. */

#ifndef GA_KERNELS_RANDOM_PHILOX_CUH
#define GA_KERNELS_RANDOM_PHILOX_CUH

#include <math.h>
#include <stdint.h>

/* ======================================================================== */
/* 1. Host and device                                                        */
/* ======================================================================== */

#ifndef GA_HD
#ifdef __CUDACC__
#define GA_HD __host__ __device__
#else
#define GA_HD
#endif
#endif

/* The high 32 bits of a * b. */
GA_HD inline uint32_t ga__mulhi32(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/* ======================================================================== */
/* 2. Philox4x32-10                                                          */
/* ======================================================================== */

/* Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
   as easy as 1, 2, 3", SC 2011) of the counter block w[0..3] under the key
   (k0, k1), in place: Random123's philox4x32_10, kernels/random.cu's
   ga__philox4x32_10 and gpuarr.h's ga__philox4x32. */
GA_HD inline void ga__philox4x32_10_words(uint32_t w[4], uint32_t k0, uint32_t k1)
{
    for (int round = 0; round < 10; ++round) {
        const uint32_t hi0 = ga__mulhi32(0xD2511F53u, w[0]), lo0 = 0xD2511F53u * w[0];
        const uint32_t hi1 = ga__mulhi32(0xCD9E8D57u, w[2]), lo1 = 0xCD9E8D57u * w[2];
        const uint32_t x0 = hi1 ^ w[1] ^ k0, x2 = hi0 ^ w[3] ^ k1;
        w[0] = x0;
        w[1] = lo1;
        w[2] = x2;
        w[3] = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* ======================================================================== */
/* 3. The inverse normal CDF on the host                                     */
/* ======================================================================== */

/* a0 + a1 x + ... + a7 x^7 (c holds a0..a7). */
GA_HD inline double ga__poly7(const double c[8], double x)
{
    double r = c[7];
    for (int i = 6; i >= 0; --i)
        r = r * x + c[i];
    return r;
}

/* The x with Phi(x) = p, 0 < p < 1: Wichura's algorithm AS241 (PPND16),
   "The percentage points of the normal distribution", Applied Statistics
   37 (1988) 477-484: rational approximations in three ranges, relative
   error about 1e-16. Symmetric: x(1 - p) = -x(p) where 1 - p is exact. */
GA_HD inline double ga__normal_quantile(double p)
{
    static const double central[2][8] = {
        {3.3871328727963666080e0, 1.3314166789178437745e2, 1.9715909503065514427e3, 1.3731693765509461125e4,
         4.5921953931549871457e4, 6.7265770927008700853e4, 3.3430575583588128105e4, 2.5090809287301226727e3},
        {1.0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
         2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4, 5.2264952788528545610e3}};
    static const double middle[2][8] = {
        {1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0, 3.64784832476320460504e0,
         1.27045825245236838258e0, 2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4},
        {1.0, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
         1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4, 1.05075007164441684324e-9}};
    static const double tail[2][8] = {
        {6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0, 2.96560571828504891230e-1,
         2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7},
        {1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
         7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7, 2.04426310338993978564e-15}};
    const double q = p - 0.5;
    if (fabs(q) <= 0.425) {
        const double r = 0.180625 - q * q;
        return q * ga__poly7(central[0], r) / ga__poly7(central[1], r);
    }
    double r = sqrt(-log(q < 0 ? p : 1.0 - p));
    const double(*c)[8] = r <= 5.0 ? middle : tail;
    r -= r <= 5.0 ? 1.6 : 5.0;
    const double x = ga__poly7(c[0], r) / ga__poly7(c[1], r);
    return q < 0 ? -x : x;
}

/* ======================================================================== */
/* 4. Values of words                                                        */
/* ======================================================================== */
/* The values of one or two words (w64: the first word the low half), as
   the contract at the top of this file defines them. */

GA_HD inline double ga__uniform64_bits(uint64_t w) { return (double)(w >> 11) * 0x1p-53; }
GA_HD inline float ga__uniform32_bits(uint32_t w) { return (float)(w >> 8) * 0x1p-24f; }

GA_HD inline double ga__uniform64_open_bits(uint64_t w)
{
    const double u = ((double)(w >> 11) + 0.5) * 0x1p-53;
    return u < 1.0 ? u : 1.0 - 0x1p-53;
}

GA_HD inline float ga__uniform32_open_bits(uint32_t w)
{
    const float u = (float)(((double)(w >> 8) + 0.5) * 0x1p-24);
    return u < 1.0f ? u : 1.0f - 0x1p-24f;
}

GA_HD inline double ga__normal64_bits(uint64_t w)
{
    const uint64_t k = w >> 11;
    const bool low = k < (1ull << 52);
    const double u = ((double)(low ? k : (1ull << 53) - 1 - k) + 0.5) * 0x1p-53; /* exact */
#ifdef __CUDA_ARCH__
    const double x = normcdfinv(u);
#else
    const double x = ga__normal_quantile(u);
#endif
    return low ? x : -x;
}

GA_HD inline float ga__normal32_bits(uint32_t w)
{
    const uint32_t k = w >> 8;
    const bool low = k < (1u << 23);
    const float u = ((float)(low ? k : 0xFFFFFFu - k) + 0.5f) * 0x1p-24f; /* exact */
#ifdef __CUDA_ARCH__
    const float x = normcdfinvf(u);
#else
    const float x = (float)ga__normal_quantile(u);
#endif
    return low ? x : -x;
}

/* -log(u) of the open uniform u: -log1p(-m) when u = 1 - m, m small. */
GA_HD inline double ga__exponential64_bits(uint64_t w)
{
    const uint64_t k = w >> 11;
    if (k < (1ull << 52))
        return -log(((double)k + 0.5) * 0x1p-53);
    return -log1p(-((double)((1ull << 53) - 1 - k) + 0.5) * 0x1p-53);
}

GA_HD inline float ga__exponential32_bits(uint32_t w)
{
    const uint32_t k = w >> 8;
    if (k < (1u << 23))
        return -logf(((float)k + 0.5f) * 0x1p-24f);
    return -log1pf(-((float)(0xFFFFFFu - k) + 0.5f) * 0x1p-24f);
}

/* ======================================================================== */
/* 5. One element's stream                                                   */
/* ======================================================================== */

/* Element i's words of a draw (the contract at the top of this file).
   Small enough for registers: the element's counter, the key, the block
   index j and the block's words not yet taken (w[0] is the next). */
struct ga__rstream {
    uint32_t ctr[4];  /* the words of C + i */
    uint32_t k0, k1;
    uint32_t block;   /* j of the next block to compute */
    uint32_t left;    /* words of w not yet taken */
    uint32_t w[4];

    /* Element i of the draw at counter (c_hi, c_lo) under `key` (word 0
       the low half, as ga_random_state's key[0]). */
    GA_HD ga__rstream(uint64_t key, uint64_t c_lo, uint64_t c_hi, uint64_t i)
        : k0((uint32_t)key), k1((uint32_t)(key >> 32)), block(0), left(0), w{0, 0, 0, 0}
    {
        const uint64_t lo = c_lo + i, hi = c_hi + (lo < i ? 1u : 0u);
        ctr[0] = (uint32_t)lo;
        ctr[1] = (uint32_t)(lo >> 32);
        ctr[2] = (uint32_t)hi;
        ctr[3] = (uint32_t)(hi >> 32);
    }

    /* The next word: w0 of the next block when this one is used up. */
    GA_HD uint32_t next32()
    {
        if (!left) {
            w[0] = ctr[0], w[1] = ctr[1], w[2] = ctr[2], w[3] = ctr[3] + block;
            ga__philox4x32_10_words(w, k0, k1);
            ++block;
            left = 4;
        }
        const uint32_t r = w[0];
        w[0] = w[1], w[1] = w[2], w[2] = w[3];
        --left;
        return r;
    }

    /* Two words, the first the low half. */
    GA_HD uint64_t next64()
    {
        const uint64_t lo = next32();
        const uint64_t hi = next32();
        return hi << 32 | lo;
    }

    GA_HD double uniform64() { return ga__uniform64_bits(next64()); }
    GA_HD double uniform64_open() { return ga__uniform64_open_bits(next64()); }
    GA_HD double normal64() { return ga__normal64_bits(next64()); }
    GA_HD double exponential64() { return ga__exponential64_bits(next64()); }
    GA_HD float uniform32() { return ga__uniform32_bits(next32()); }
    GA_HD float uniform32_open() { return ga__uniform32_open_bits(next32()); }
    GA_HD float normal32() { return ga__normal32_bits(next32()); }
    GA_HD float exponential32() { return ga__exponential32_bits(next32()); }
};

#endif /* GA_KERNELS_RANDOM_PHILOX_CUH */
