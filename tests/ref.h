/* tests/ref.h - host reference helpers shared by the test programs.

   Include after gpuarr.h (with GPUARR_IMPLEMENTATION) and harness.h, whose
   rnd() and rnd_unit() the random fills draw from; it includes ref_cast.h.

   Dtypes      is_integer, is_signed, is_exact (bool or integer), is_float
               (real floating), is_complex, is_inexact (floating or
               complex), part_of (a complex dtype's part, else the dtype),
               isz (item size), width (bits), dname
   Formats     precision_of, min_exponent, max_exponent (a real floating
               dtype's significand bits and normal exponent range),
               round_to(t, x) (round_double for doubles), ulp_at(t, x)
   Elements    elem: one element exactly; wrap, load, value_of, value_at
               (element k of an array), store
   Random      fill_random(dst, n, t, spec): n random elements, each kind
               drawn as `spec` says: by the test's own hooks, or from a
               ref_mix (special values and duplicates, in proportions the
               mix gives) */
#ifndef GPUARR_TESTS_REF_H
#define GPUARR_TESTS_REF_H

#include "ref_cast.h"
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- dtypes ---------------------------------------------------------------- */

static inline bool is_integer(ga_dtype t) { return ga_dtype_kind(t) == 'i' || ga_dtype_kind(t) == 'u'; }
static inline bool is_signed(ga_dtype t) { return ga_dtype_kind(t) == 'i'; }
static inline bool is_exact(ga_dtype t) { return t == GA_BOOL || is_integer(t); } /* bool or integer */
static inline bool is_float(ga_dtype t) { return ga_dtype_kind(t) == 'f'; }
static inline bool is_complex(ga_dtype t) { return ga_dtype_kind(t) == 'c'; }
static inline bool is_inexact(ga_dtype t) { return is_float(t) || is_complex(t); }
static inline ga_dtype part_of(ga_dtype t) { return t == GA_COMPLEX64 ? GA_FLOAT32 : t == GA_COMPLEX128 ? GA_FLOAT64 : t; }
static inline size_t isz(ga_dtype t) { return ga_dtype_itemsize(t); }
static inline int width(ga_dtype t) { return 8 * (int)ga_dtype_itemsize(t); }
static inline const char *dname(ga_dtype t) { return ga_dtype_name(t); }

/* ---- floating formats ------------------------------------------------------ */

/* Significand bits (with the implicit one), the exponents of the smallest and
   largest normal numbers of a real floating dtype. */
static inline int precision_of(ga_dtype t) { return t == GA_FLOAT16 ? 11 : t == GA_BFLOAT16 ? 8 : t == GA_FLOAT32 ? 24 : 53; }
static inline int min_exponent(ga_dtype t) { return t == GA_FLOAT16 ? -14 : t == GA_FLOAT64 ? -1022 : -126; }
static inline int max_exponent(ga_dtype t) { return t == GA_FLOAT16 ? 15 : t == GA_FLOAT64 ? 1023 : 127; }

/* x rounded to floating dtype t (complex: to its part; other dtypes: x).
   Once from long double for float32 and float64; through float64 for the
   16-bit formats, which is exact for the float32 values the exact
   references give. */
static inline long double round_to(ga_dtype t, long double x)
{
    switch (part_of(t)) {
    case GA_FLOAT64: return (double)x;
    case GA_FLOAT32: return (float)x;
    case GA_FLOAT16: return ref_f16_to_double(ref_f16_from_double((double)x));
    case GA_BFLOAT16: return ref_bf16_to_double(ref_bf16_from_double((double)x));
    default: return x;
    }
}

/* The same for a double, as a double (so that arithmetic on it stays in
   double). */
static inline double round_double(ga_dtype t, double x) { return (double)round_to(t, x); }

/* The ulp of floating dtype t (complex: of its part) at magnitude |x|
   (subnormal spacing below the normal range). */
static inline long double ulp_at(ga_dtype t, long double x)
{
    t = part_of(t);
    int e = x == 0 || !isfinite(x) ? min_exponent(t) : ilogbl(x);
    if (e < min_exponent(t)) e = min_exponent(t);
    return ldexpl(1, e - precision_of(t) + 1);
}

/* ---- elements -------------------------------------------------------------- */

/* One element, exactly: bool and integers as 64-bit two's complement (sign-
   or zero-extended), floating values (complex: both parts) as long double. */
typedef struct elem {
    uint64_t i;
    long double re, im;
} elem;

/* v wrapped to the width of integer dtype t and sign- or zero-extended to
   64 bits; bool: v != 0. */
static inline uint64_t wrap(ga_dtype t, uint64_t v)
{
    if (t == GA_BOOL) return v != 0;
    int w = width(t);
    if (w == 64) return v;
    uint64_t mask = (UINT64_C(1) << w) - 1;
    v &= mask;
    if (is_signed(t) && (v >> (w - 1))) v |= ~mask;
    return v;
}

/* A real floating element at p as float64, as ref_to_double gives it (a NaN
   as the default quiet NaN with its sign; float64 as stored), read
   directly for float32 and float64. */
static inline double ref__real_at(ga_dtype t, const void *p)
{
    switch (t) {
    case GA_FLOAT64: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    case GA_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        return isnan(f) ? (signbit(f) ? -NAN : NAN) : (double)f;
    }
    default: return ref_to_double(t, p);
    }
}

/* The element of dtype t at p. */
static inline elem load(ga_dtype t, const void *p)
{
    elem e = {0, 0, 0};
    if (is_exact(t)) {
        uint64_t v = 0;
        memcpy(&v, p, isz(t)); /* little-endian: the low bytes */
        e.i = wrap(t, v);
    } else if (is_complex(t)) {
        ga_dtype part = part_of(t);
        e.re = ref__real_at(part, p);
        e.im = ref__real_at(part, (const char *)p + isz(part));
    } else {
        e.re = ref__real_at(t, p);
    }
    return e;
}

/* The element as a real number (integers exactly, sign- or zero-extended;
   complex: the real part). */
static inline long double value_of(ga_dtype t, elem e)
{
    if (is_exact(t)) return is_signed(t) ? (long double)(int64_t)e.i : (long double)e.i;
    return e.re;
}

/* Element k of `data` (dtype t) as a real number. */
static inline long double value_at(ga_dtype t, const void *data, int64_t k)
{
    return value_of(t, load(t, (const char *)data + (size_t)k * isz(t)));
}

/* Stores re (complex: re and im) at p as dtype t, each converted from
   float64 as astype does. */
static inline void store(ga_dtype t, long double re, long double im, void *p)
{
    if (is_complex(t)) {
        ga_dtype part = part_of(t);
        ref_from_double(part, (double)re, p);
        ref_from_double(part, (double)im, (char *)p + isz(part));
    } else {
        ref_from_double(t, (double)re, p);
    }
}

/* ---- random elements ------------------------------------------------------- */

/* A mix of values full of duplicates and special values. A floating value
   (mix_value): r = rnd(), c = r % classes; the first `nan` values of c give
   the positive NaN, the next `neg_nan` the negative NaN, then `zero` +0.0,
   `neg_zero` -0.0, `inf` an infinity (positive when bit 20 of r is set),
   `small` an integer rnd() % small_count - small_offset; the rest a uniform
   value rnd_unit() * span - span / 2. An integer (mix_integer): r = rnd();
   bool: r & 1; any 64 bits (a second rnd()) where ((r >> 8) & wide_mask) ==
   wide_bits, else rnd() % int_count - int_offset. */
typedef struct ref_mix {
    int classes, nan, neg_nan, zero, neg_zero, inf, small;
    int small_count, small_offset;
    double span;
    unsigned wide_mask, wide_bits;
    int int_count, int_offset;
    uint32_t nan32; /* the positive NaN's bits in float32 (parts too); 0: the default quiet NaN */
    uint64_t nan64; /* the same in float64 */
} ref_mix;

/* How fill_random draws each element; a hook draws its own random numbers
   (rnd()), in its own order, so that a seed repeats the same data. */
typedef struct fill_spec fill_spec;
struct fill_spec {
    /* A bool or integer element: 64 bits, of which the low itemsize bytes
       are stored (bool: the lowest bit). NULL: from mix; without one, rnd(). */
    uint64_t (*integer)(ga_dtype t, const fill_spec *s);
    /* A floating element of dtype t (real or complex): *re (and *im,
       complex; both start as 0), stored converted from float64 as astype
       does. NULL: from mix, each part a mix_value of its own. */
    void (*floating)(ga_dtype t, double *re, double *im, const fill_spec *s);
    const ref_mix *mix; /* also gives the bits of positive NaN it stores */
    int domain;         /* the test's own parameters, for its hooks */
    bool flag;
};

static inline double mix_value(const ref_mix *m)
{
    uint64_t r = rnd();
    int c = (int)(r % (uint64_t)m->classes);
    if ((c -= m->nan) < 0) return NAN;
    if ((c -= m->neg_nan) < 0) return -NAN;
    if ((c -= m->zero) < 0) return 0.0;
    if ((c -= m->neg_zero) < 0) return -0.0;
    if ((c -= m->inf) < 0) return (r >> 20) & 1 ? INFINITY : -INFINITY;
    if ((c -= m->small) < 0) return (double)((int)(rnd() % (uint64_t)m->small_count) - m->small_offset);
    return rnd_unit() * m->span - m->span / 2;
}

static inline uint64_t mix_integer(ga_dtype t, const fill_spec *s)
{
    const ref_mix *m = s->mix;
    uint64_t r = rnd();
    if (t == GA_BOOL) return r;
    if (((r >> 8) & m->wide_mask) == m->wide_bits) return rnd();
    return (uint64_t)(int64_t)((int)(rnd() % (uint64_t)m->int_count) - m->int_offset);
}

static inline void mix_floating(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    *re = mix_value(s->mix);
    if (is_complex(t)) *im = mix_value(s->mix);
}

/* x stored at p as real floating dtype t; a positive NaN as mix says. */
static inline void ref__store_drawn(ga_dtype t, double x, void *p, const ref_mix *m)
{
    if (m && isnan(x) && !signbit(x)) {
        if (t == GA_FLOAT32 && m->nan32) {
            memcpy(p, &m->nan32, 4);
            return;
        }
        if (t == GA_FLOAT64 && m->nan64) {
            memcpy(p, &m->nan64, 8);
            return;
        }
    }
    ref_from_double(t, x, p);
}

/* n random elements of dtype t at dst, drawn as s says. */
static inline void fill_random(void *dst, int64_t n, ga_dtype t, const fill_spec *s)
{
    size_t sz = isz(t);
    ga_dtype part = part_of(t);
    unsigned char *p = (unsigned char *)dst;
    for (int64_t i = 0; i < n; i++, p += sz) {
        if (is_exact(t)) {
            uint64_t v = s->integer ? s->integer(t, s) : s->mix ? mix_integer(t, s) : rnd();
            if (t == GA_BOOL) v &= 1;
            memcpy(p, &v, sz); /* little-endian: the low bytes */
            continue;
        }
        double re = 0, im = 0;
        if (s->floating) s->floating(t, &re, &im, s);
        else mix_floating(t, &re, &im, s);
        ref__store_drawn(part, re, p, s->mix);
        if (is_complex(t)) ref__store_drawn(part, im, p + isz(part), s->mix);
    }
}

#endif /* GPUARR_TESTS_REF_H */
