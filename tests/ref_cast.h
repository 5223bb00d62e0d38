/* tests/ref_cast.h - host reference for gpuarr's dtype conversions.

   Plain C11 (also valid C++), independent of CUDA: the device tests compare
   kernels/common.cuh's ga_cast against it, and it is checked against NumPy's
   own answers in tests/numpy_tables.h.

     ref_cast(from, src, to, dst)   one element of dtype `from` at src, as
                                    NumPy's astype(to) gives it, stored at dst
     ref_to_double(dtype, p)        the element as float64 (complex: real part)
     ref_from_double(dtype, v, p)   float64 v converted to dtype, stored at p

   Dtype indices are gpuarr's enum order: 0 bool, 1 int8, 2 int16, 3 int32,
   4 int64, 5 uint8, 6 uint16, 7 uint32, 8 uint64, 9 float16, 10 bfloat16,
   11 float32, 12 float64, 13 complex64, 14 complex128. Elements are read and
   written with memcpy (any alignment).

   The rules (NumPy 2.4 and ml_dtypes 0.6 on x86-64):
   - to bool: x != 0 (complex: either part; NaN is true). From bool: 0 or 1.
   - integer -> integer: two's complement wrap.
   - integer -> floating: one correct rounding (to float32 first for float16
     and bfloat16, which ml_dtypes does and which changes nothing for
     float16); floating -> floating: one correct rounding, except float64 ->
     bfloat16, which goes through float32 as ml_dtypes does.
   - NaN between two floating formats: the target's default quiet NaN with
     the same sign (0x7e00, 0x7fc0, 0x7fc00000, 0x7ff8000000000000); within
     one format (also complex <-> real of one precision) the bits are kept.
   - complex -> real: the real part. real -> complex: (x, 0).
   - floating -> integer (any floating source, exactly widened to float64):
       int64:  NaN or outside [-2^63, 2^63) -> INT64_MIN, else truncation
       int32:  NaN or trunc(x) outside int32 -> INT32_MIN, else truncation
       int8, int16, uint8, uint16: the low bits of the int32 result
       uint32: the low 32 bits of the int64 result (NumPy's scalar loop)
       uint64: x >= 2^63 ? int64(x - 2^63) ^ 2^63 : int64(x) */

#ifndef GPUARR_TESTS_REF_CAST_H
#define GPUARR_TESTS_REF_CAST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum {
    REF_BOOL, REF_INT8, REF_INT16, REF_INT32, REF_INT64,
    REF_UINT8, REF_UINT16, REF_UINT32, REF_UINT64,
    REF_FLOAT16, REF_BFLOAT16, REF_FLOAT32, REF_FLOAT64,
    REF_COMPLEX64, REF_COMPLEX128, REF_NUM_DTYPES
};

static const int ref_itemsize[REF_NUM_DTYPES] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};

/* ------------------------------------------------------------------------ */
/* Binary floating formats with p explicit mantissa bits and `ebits`        */
/* exponent bits: float16 (10, 5), bfloat16 (7, 8), float32 (23, 8).        */
/* ------------------------------------------------------------------------ */

/* The bits of x rounded to the format (nearest, ties to even; subnormals,
   overflow to infinity, NaN -> the default quiet NaN with x's sign). */
static inline uint32_t ref__encode(double x, int p, int ebits)
{
    const uint32_t sign = signbit(x) ? (uint32_t)1 << (p + ebits) : 0;
    const uint32_t expmask = ((uint32_t)1 << ebits) - 1;
    const int bias = (int)(expmask >> 1), emin = 1 - bias, emax = bias;
    double a, m;
    int e;
    if (isnan(x))
        return sign | (expmask << p) | ((uint32_t)1 << (p - 1));
    a = fabs(x);
    if (isinf(a))
        return sign | (expmask << p);
    if (a < ldexp(1.0, emin)) {
        /* subnormal (or rounds up to the smallest normal: m == 2^p) */
        m = rint(ldexp(a, p - emin)); /* exact scaling, then ties-to-even */
        return sign | (uint32_t)m;
    }
    (void)frexp(a, &e);
    e -= 1; /* a in [2^e, 2^(e+1)) */
    if (e > emax)
        return sign | (expmask << p);
    m = rint(ldexp(a, p - e)); /* in [2^p, 2^(p+1)] */
    if (m == ldexp(1.0, p + 1)) {
        m = ldexp(1.0, p);
        e += 1;
        if (e > emax)
            return sign | (expmask << p);
    }
    return sign | ((uint32_t)(e + bias) << p) | ((uint32_t)m - ((uint32_t)1 << p));
}

/* The value of format bits as a double (exact; NaN -> quiet NaN, sign kept). */
static inline double ref__decode(uint32_t bits, int p, int ebits)
{
    const uint32_t expmask = ((uint32_t)1 << ebits) - 1;
    const int bias = (int)(expmask >> 1);
    const uint32_t ef = (bits >> p) & expmask;
    const uint32_t mf = bits & (((uint32_t)1 << p) - 1);
    const int neg = (bits >> (p + ebits)) & 1;
    double v;
    if (ef == expmask)
        v = mf ? NAN : INFINITY;
    else if (ef == 0)
        v = ldexp((double)mf, 1 - bias - p);
    else
        v = ldexp((double)(mf | ((uint32_t)1 << p)), (int)ef - bias - p);
    return neg ? -fabs(v) : fabs(v);
}

static inline uint16_t ref_f16_from_double(double x) { return (uint16_t)ref__encode(x, 10, 5); }
static inline double ref_f16_to_double(uint16_t h) { return ref__decode(h, 10, 5); }
static inline uint32_t ref_f32_bits_from_double(double x) { return ref__encode(x, 23, 8); }
static inline double ref_f32_bits_to_double(uint32_t b) { return ref__decode(b, 23, 8); }
/* float64 -> bfloat16 rounds to float32 first (ml_dtypes); exact for values
   that are float32 already. */
static inline uint16_t ref_bf16_from_double(double x)
{
    return (uint16_t)ref__encode(ref_f32_bits_to_double(ref_f32_bits_from_double(x)), 7, 8);
}
static inline double ref_bf16_to_double(uint16_t b) { return ref__decode(b, 7, 8); }

/* A 64-bit integer (magnitude and sign) rounded to `bits` significant bits,
   ties to even, as an exact double (bits <= 53). */
static inline double ref__round_int(uint64_t mag, int neg, int bits)
{
    int msb = 63, drop;
    uint64_t q, rem, half;
    double v;
    if (mag == 0)
        return 0.0;
    while (!((mag >> msb) & 1))
        msb--;
    drop = msb + 1 - bits;
    if (drop <= 0) {
        v = (double)mag; /* < 2^53: exact */
    } else {
        q = mag >> drop;
        rem = mag & ((((uint64_t)1) << drop) - 1);
        half = ((uint64_t)1) << (drop - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        v = ldexp((double)q, drop); /* q <= 2^bits: exact */
    }
    return neg ? -v : v;
}

/* ------------------------------------------------------------------------ */
/* Floating -> integer, NumPy on x86-64 (see the rules above).              */
/* ------------------------------------------------------------------------ */

static inline int64_t ref__f2i64(double d)
{
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        return (int64_t)d; /* truncation, in range */
    return INT64_MIN;
}

static inline int32_t ref__f2i32(double d)
{
    if (d > -2147483649.0 && d < 2147483648.0)
        return (int32_t)d;
    return INT32_MIN;
}

/* The result's two's complement bits (zero-extended) for integer dtype `to`. */
static inline uint64_t ref__f2int_bits(int to, double d)
{
    switch (to) {
    case REF_INT64:
        return (uint64_t)ref__f2i64(d);
    case REF_UINT64:
        if (d >= 9223372036854775808.0)
            return (uint64_t)ref__f2i64(d - 9223372036854775808.0) ^ ((uint64_t)1 << 63);
        return (uint64_t)ref__f2i64(d);
    case REF_UINT32:
        return (uint64_t)ref__f2i64(d) & 0xffffffffu;
    default: /* int8, int16, int32, uint8, uint16: low bits of int32 */
        return (uint64_t)(uint32_t)ref__f2i32(d);
    }
}

/* ------------------------------------------------------------------------ */
/* ref_cast                                                                  */
/* ------------------------------------------------------------------------ */

/* A loaded element: an integer (two's complement bits, signedness) or a
   floating value (complex: re and im) held exactly as double. */
typedef struct ref__value {
    int is_int, is_unsigned;
    uint64_t bits;
    double re, im;
    int fmt;                  /* 32 / 64: parts loaded from float32 / float64 */
    uint64_t re_bits, im_bits; /* their bits, kept by same-format copies */
} ref__value;

static inline ref__value ref__load(int from, const void *src)
{
    ref__value v;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f[2];
    double d[2];
    v.is_int = 1;
    v.is_unsigned = 0;
    v.bits = 0;
    v.re = v.im = 0.0;
    v.fmt = 0;
    v.re_bits = v.im_bits = 0;
    switch (from) {
    case REF_BOOL:
        memcpy(&u8, src, 1);
        v.bits = u8 != 0;
        v.is_unsigned = 1;
        break;
    case REF_INT8:
        memcpy(&u8, src, 1);
        v.bits = (uint64_t)(int64_t)(int8_t)u8;
        break;
    case REF_INT16:
        memcpy(&u16, src, 2);
        v.bits = (uint64_t)(int64_t)(int16_t)u16;
        break;
    case REF_INT32:
        memcpy(&u32, src, 4);
        v.bits = (uint64_t)(int64_t)(int32_t)u32;
        break;
    case REF_INT64:
        memcpy(&u64, src, 8);
        v.bits = u64;
        break;
    case REF_UINT8:
        memcpy(&u8, src, 1);
        v.bits = u8;
        v.is_unsigned = 1;
        break;
    case REF_UINT16:
        memcpy(&u16, src, 2);
        v.bits = u16;
        v.is_unsigned = 1;
        break;
    case REF_UINT32:
        memcpy(&u32, src, 4);
        v.bits = u32;
        v.is_unsigned = 1;
        break;
    case REF_UINT64:
        memcpy(&u64, src, 8);
        v.bits = u64;
        v.is_unsigned = 1;
        break;
    case REF_FLOAT16:
        memcpy(&u16, src, 2);
        v.is_int = 0;
        v.re = ref_f16_to_double(u16);
        break;
    case REF_BFLOAT16:
        memcpy(&u16, src, 2);
        v.is_int = 0;
        v.re = ref_bf16_to_double(u16);
        break;
    case REF_FLOAT32:
        memcpy(&u32, src, 4);
        v.is_int = 0;
        v.re = ref_f32_bits_to_double(u32);
        v.fmt = 32;
        v.re_bits = u32;
        break;
    case REF_FLOAT64:
        memcpy(d, src, 8);
        v.is_int = 0;
        v.re = d[0];
        v.fmt = 64;
        memcpy(&v.re_bits, &d[0], 8);
        break;
    case REF_COMPLEX64:
        memcpy(f, src, 8);
        memcpy(&u32, &f[0], 4);
        v.re = ref_f32_bits_to_double(u32);
        v.re_bits = u32;
        memcpy(&u32, &f[1], 4);
        v.im = ref_f32_bits_to_double(u32);
        v.im_bits = u32;
        v.is_int = 0;
        v.fmt = 32;
        break;
    default: /* REF_COMPLEX128 */
        memcpy(d, src, 16);
        v.re = d[0];
        v.im = d[1];
        memcpy(&v.re_bits, &d[0], 8);
        memcpy(&v.im_bits, &d[1], 8);
        v.is_int = 0;
        v.fmt = 64;
        break;
    }
    return v;
}

/* An integer value as a double rounded to `bits` significant bits. */
static inline double ref__int_to_double(const ref__value *v, int bits)
{
    if (!v->is_unsigned && (v->bits >> 63))
        return ref__round_int(~v->bits + 1, 1, bits);
    return ref__round_int(v->bits, 0, bits);
}

/* A part (im: 0 re, 1 im) as float64 / float32 bits: integers rounded once;
   a part of the same format keeps its bits (complex <-> real of one
   precision); otherwise rounded once, NaN -> default NaN. */
static inline uint64_t ref__as_f64_bits(const ref__value *v, int im)
{
    double d;
    uint64_t b;
    if (v->is_int)
        d = im ? 0.0 : ref__int_to_double(v, 53);
    else if (v->fmt == 64)
        return im ? v->im_bits : v->re_bits;
    else
        d = im ? v->im : v->re;
    if (isnan(d))
        return signbit(d) ? 0xfff8000000000000u : 0x7ff8000000000000u;
    memcpy(&b, &d, 8);
    return b;
}
static inline uint32_t ref__as_f32_bits(const ref__value *v, int im)
{
    if (v->is_int)
        return im ? 0 : ref_f32_bits_from_double(ref__int_to_double(v, 24));
    if (v->fmt == 32)
        return (uint32_t)(im ? v->im_bits : v->re_bits);
    return ref_f32_bits_from_double(im ? v->im : v->re);
}

static inline void ref_cast(int from, const void *src, int to, void *dst)
{
    ref__value v;
    uint64_t out = 0;
    uint32_t b32[2];
    uint64_t b64[2];
    if (from == to) {
        memcpy(dst, src, (size_t)ref_itemsize[to]);
        return;
    }
    v = ref__load(from, src);
    switch (to) {
    case REF_BOOL:
        out = v.is_int ? v.bits != 0 : (v.re != 0.0 || v.im != 0.0);
        break;
    case REF_INT8: case REF_INT16: case REF_INT32: case REF_INT64:
    case REF_UINT8: case REF_UINT16: case REF_UINT32: case REF_UINT64:
        out = v.is_int ? v.bits : ref__f2int_bits(to, v.re);
        break;
    case REF_FLOAT16:
        /* integers: through float32 (exact for every integer below 65520) */
        out = ref_f16_from_double(v.is_int ? ref__int_to_double(&v, 24) : v.re);
        break;
    case REF_BFLOAT16:
        out = ref_bf16_from_double(v.is_int ? ref__int_to_double(&v, 24) : v.re);
        break;
    case REF_FLOAT32:
        out = ref__as_f32_bits(&v, 0);
        break;
    case REF_FLOAT64:
        out = ref__as_f64_bits(&v, 0);
        break;
    case REF_COMPLEX64:
        b32[0] = ref__as_f32_bits(&v, 0);
        b32[1] = ref__as_f32_bits(&v, 1);
        memcpy(dst, b32, 8);
        return;
    default: /* REF_COMPLEX128 */
        b64[0] = ref__as_f64_bits(&v, 0);
        b64[1] = ref__as_f64_bits(&v, 1);
        memcpy(dst, b64, 16);
        return;
    }
    /* integers, bool, float16, bfloat16, float32: the low itemsize bytes */
    switch (ref_itemsize[to]) {
    case 1: {
        uint8_t x = (uint8_t)out;
        memcpy(dst, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)out;
        memcpy(dst, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)out;
        memcpy(dst, &x, 4);
        break;
    }
    default:
        memcpy(dst, &out, 8);
        break;
    }
}

/* The element at p as a float64 (complex: the real part). */
static inline double ref_to_double(int dtype, const void *p)
{
    double d;
    ref_cast(dtype, p, REF_FLOAT64, &d);
    return d;
}

/* float64 v converted to dtype, stored at p. */
static inline void ref_from_double(int dtype, double v, void *p)
{
    ref_cast(REF_FLOAT64, &v, dtype, p);
}

#endif /* GPUARR_TESTS_REF_CAST_H */
