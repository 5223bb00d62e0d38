/* Device tests of the elementwise functions (gpuarr.h, >>ufunc).

   Every ufunc of GA_UFUNC_UNARY_LIST and GA_UFUNC_BINARY_LIST gets a test of
   its own (generated from the lists), which runs it for every dtype of its
   loops (GA_LOOPS_*) in many layouts -- contiguous of odd sizes, strided and
   reversed views, transposed matrices, broadcasting, 0-d, empty, weak C
   scalars, out= into a reversed view with gaps, in place, ga_ufunc_call --
   on fresh random data, and compares every element with a host reference:

   - integers and bool exactly, in 64-bit arithmetic wrapped to the dtype;
   - floating operations that IEEE rounds correctly (arithmetic, sqrt,
     floor_divide and remainder as NumPy's npy_divmod, the rounding
     functions, fmod, copysign, nextafter, spacing, ldexp) exactly, computed
     in the loop's precision: float32 for float16, bfloat16 and float32 (the
     16-bit formats computed in float32 and rounded once, as NumPy and
     ml_dtypes do), float64 for float64;
   - the other functions in long double, within a few ulps of the result's
     format (ulp_budget: 1 for float16 and bfloat16, 4 for float32 and
     float64), measured at the value's magnitude, or at 1 or the inputs'
     magnitude where the operation cancels (sinc, logaddexp);
   - complex functions with C99's long double complex functions (arithmetic
     with NumPy's own formulas), within a relative, norm-wise tolerance of
     REL_EPSILONS epsilons (widened by the function's condition where it
     amplifies rounding, as near the poles of tan).

   Where NumPy's answer depends on the platform or is a quirk of one format,
   the tests accept either or follow NumPy's float32/float64 rule, and say
   so at the reference: the sign of a zero from maximum, minimum, fmax, fmin
   and clip; spacing(-0.0) and sign(-0.0) of bfloat16 (+, as NumPy's
   floats, not ml_dtypes'); float16 sinc (computed in float32, not in
   float16 operations). float16 nextafter and spacing are NumPy's own
   (npy_half_nextafter, npy_half_spacing, as NumPy 2.5 gives them).
   Integer power with a negative exponent is NumPy's error
   (GA_ERROR_VALUE).

   Then the functions with other arities (divmod, modf, frexp, where, clip,
   isclose, allclose, round, nan_to_num, angle, real, imag), special values
   (NaN, infinities, -0.0, integer edge cases), mixed dtypes, weak scalars,
   out= casting and overlap, and the errors. Host tests check the ufunc
   names, loop resolution and that every loop has a reference. Device tests
   are skipped (and counted) where there is no GPU.

   The random data are seeded from the time; a failing test prints its seed,
   and GPUARR_TEST_SEED=<seed> repeats the run (each test draws from the
   seed and its own name, so a filtered run repeats it too). */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <complex.h>
#include <float.h>
#include <limits.h>

typedef long double _Complex cplx;

#define PI_L 3.141592653589793238462643383279502884L
#define LN2_L 0.693147180559945309417232121458176568L
#define LN10_L 2.302585092994045684017991454684364208L

/* ======================================================================== */
/* Random numbers, seeds and failures                                        */
/* ======================================================================== */

static double rnd_between(double lo, double hi) { return lo + (hi - lo) * rnd_unit(); }
static int64_t rnd_int(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }


/* A failed check (the harness adds the seed that repeats the random data). */
#define FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)

/* ======================================================================== */
/* Dtypes and elements (the rest in tests/ref.h)                             */
/* ======================================================================== */

/* Whether a loop of dtype t computes in float64 (else in float32, or in
   integers). */
static bool in_double(ga_dtype t) { return t == GA_FLOAT64 || t == GA_COMPLEX128; }

/* The element at p, of dtype `from`, converted to dtype `to` as astype does. */
static elem load_as(ga_dtype from, const void *p, ga_dtype to)
{
    if (from == to) return load(to, p);
    unsigned char buf[16];
    ref_cast(from, p, to, buf);
    return load(to, buf);
}

static cplx mkc(long double re, long double im)
{
    long double parts[2] = {re, im};
    cplx z;
    memcpy(&z, parts, sizeof z);
    return z;
}

/* ---- floating formats ---------------------------------------------------- */

/* The largest finite value, the smallest subnormal and the epsilon of a
   real floating dtype. */
static double max_finite(ga_dtype t) { return ldexp(2.0 - ldexp(1.0, 1 - precision_of(t)), max_exponent(t)); }
static double min_subnormal(ga_dtype t) { return ldexp(1.0, min_exponent(t) - precision_of(t) + 1); }
static double epsilon_of(ga_dtype t) { return ldexp(1.0, 1 - precision_of(t)); }

/* The position of x (a value of t) among the values of t, counted from zero
   (+0 and -0 are both 0): the difference of two positions is their distance
   in ulps, the infinities one step beyond the largest finite values. */
static int64_t ordinal(ga_dtype t, long double x)
{
    uint64_t bits, sign;
    if (t == GA_FLOAT64) {
        double d = (double)x;
        memcpy(&bits, &d, 8);
        sign = bits >> 63;
        bits &= ~(UINT64_C(1) << 63);
    } else if (t == GA_FLOAT32) {
        float f = (float)x;
        uint32_t b;
        memcpy(&b, &f, 4);
        sign = b >> 31;
        bits = b & 0x7fffffffu;
    } else {
        uint16_t b = t == GA_FLOAT16 ? ref_f16_from_double((double)x) : ref_bf16_from_double((double)x);
        sign = b >> 15;
        bits = b & 0x7fffu;
    }
    return sign ? -(int64_t)bits : (int64_t)bits;
}

/* The value of t at position k (see ordinal); 0 is +0. */
static long double from_ordinal(ga_dtype t, int64_t k)
{
    uint64_t mag = (uint64_t)(k < 0 ? -k : k);
    if (t == GA_FLOAT64) {
        uint64_t bits = mag | (k < 0 ? UINT64_C(1) << 63 : 0);
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (t == GA_FLOAT32) {
        uint32_t bits = (uint32_t)mag | (k < 0 ? UINT32_C(1) << 31 : 0);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    uint16_t bits = (uint16_t)(mag | (k < 0 ? 0x8000u : 0));
    return t == GA_FLOAT16 ? ref_f16_to_double(bits) : ref_bf16_to_double(bits);
}

/* nextafter in format t: the neighbour of x toward y; y when equal (C's,
   NumPy 2.5's for float16 too, ml_dtypes' for bfloat16). */
static long double next_toward(ga_dtype t, long double x, long double y)
{
    if (isnan(x) || isnan(y)) return NAN;
    if (x == y) return y;
    long double r = from_ordinal(t, ordinal(t, x) + (y > x ? 1 : -1));
    return r == 0 ? copysignl(0, x) : r; /* reaching zero keeps x's sign */
}

/* spacing(x) in format t, as NumPy's float32 and float64 give it: the
   distance from x to its neighbour away from zero, with x's sign; the
   smallest subnormal for both zeros; NaN for infinities. float16 as NumPy's
   npy_half_spacing: nextafter(x, inf) - x, never negative (at a negative
   power of two, the step toward zero), inf at the largest value.
   (ml_dtypes' bfloat16 spacing of -0.0 is negative; gpuarr's is positive,
   as NumPy's floats.) */
static long double spacing_of(ga_dtype t, long double x)
{
    if (isnan(x) || isinf(x)) return NAN;
    if (t == GA_FLOAT16) return next_toward(t, x, INFINITY) - x;
    if (x == 0) return min_subnormal(t);
    return next_toward(t, x, copysignl(INFINITY, x)) - x;
}

/* ======================================================================== */
/* Arithmetic in the loop's precision                                        */
/* ======================================================================== */

static long double add_in(ga_dtype t, long double a, long double b)
{
    return in_double(t) ? (long double)((double)a + (double)b) : (long double)((float)a + (float)b);
}
static long double sub_in(ga_dtype t, long double a, long double b)
{
    return in_double(t) ? (long double)((double)a - (double)b) : (long double)((float)a - (float)b);
}
static long double mul_in(ga_dtype t, long double a, long double b)
{
    return in_double(t) ? (long double)((double)a * (double)b) : (long double)((float)a * (float)b);
}
static long double div_in(ga_dtype t, long double a, long double b)
{
    return in_double(t) ? (long double)((double)a / (double)b) : (long double)((float)a / (float)b);
}
static long double sqrt_in(ga_dtype t, long double a)
{
    return in_double(t) ? (long double)sqrt((double)a) : (long double)sqrtf((float)a);
}

/* NumPy's npy_divmod: the floored quotient, and in *mod the remainder with
   the divisor's sign; a zero divisor gives a / b and fmod(a, b). */
#define DEFINE_DIVMOD(name, T, FMOD, FLOOR, COPYSIGN)                       \
    static T name(T a, T b, T *mod)                                         \
    {                                                                       \
        T m = FMOD(a, b), div, floordiv;                                    \
        if (b == 0) {                                                       \
            *mod = m;                                                       \
            return a / b;                                                   \
        }                                                                   \
        div = (a - m) / b;                                                  \
        if (m != 0) {                                                       \
            if ((b < 0) != (m < 0)) {                                       \
                m += b;                                                     \
                div -= 1;                                                   \
            }                                                               \
        } else {                                                            \
            m = COPYSIGN(0, b);                                             \
        }                                                                   \
        if (div != 0) {                                                     \
            floordiv = FLOOR(div);                                          \
            if (div - floordiv > 0.5) floordiv += 1;                        \
        } else {                                                            \
            floordiv = COPYSIGN(0, a / b);                                  \
        }                                                                   \
        *mod = m;                                                           \
        return floordiv;                                                    \
    }
DEFINE_DIVMOD(divmod_float, float, fmodf, floorf, copysignf)
DEFINE_DIVMOD(divmod_double, double, fmod, floor, copysign)
#undef DEFINE_DIVMOD

static long double divmod_in(ga_dtype t, long double a, long double b, long double *mod)
{
    if (in_double(t)) {
        double m, q = divmod_double((double)a, (double)b, &m);
        *mod = m;
        return q;
    }
    float m, q = divmod_float((float)a, (float)b, &m);
    *mod = m;
    return q;
}

/* ======================================================================== */
/* References                                                                */
/* ======================================================================== */
/* One function per ufunc and domain: real (the values as long double, the
   loop's dtype t), complex, integer (sign- or zero-extended values; the
   caller wraps the result to the output dtype; bool loops pass 0 and 1).
   Functions with a bool result return 0 or 1. */

typedef long double (*real_fn)(long double a, long double b, ga_dtype t);
typedef cplx (*cplx_fn)(cplx a, cplx b, ga_dtype t);
typedef uint64_t (*int_fn)(uint64_t a, uint64_t b, ga_dtype t);

#define REF_REAL(name, expr)                                                \
    static long double r_##name(long double a, long double b, ga_dtype t)   \
    {                                                                       \
        (void)a, (void)b, (void)t;                                          \
        return (expr);                                                      \
    }
#define REF_CPLX(name, expr)                                                \
    static cplx c_##name(cplx a, cplx b, ga_dtype t)                        \
    {                                                                       \
        (void)a, (void)b, (void)t;                                          \
        return (expr);                                                      \
    }
#define REF_INT(name, expr)                                                 \
    static uint64_t i_##name(uint64_t a, uint64_t b, ga_dtype t)            \
    {                                                                       \
        (void)a, (void)b, (void)t;                                          \
        return (expr);                                                      \
    }

/* ---- real --------------------------------------------------------------- */

REF_REAL(negative, -a)
REF_REAL(positive, a)
REF_REAL(absolute, fabsl(a))
REF_REAL(sign, a > 0 ? 1 : a < 0 ? -1 : a == 0 ? 0 : a) /* +0 for -0.0, as NumPy's floats (not ml_dtypes' bfloat16) */
REF_REAL(reciprocal, div_in(t, 1, a))
REF_REAL(square, mul_in(t, a, a))
REF_REAL(floor, floorl(a))
REF_REAL(ceil, ceill(a))
REF_REAL(trunc, truncl(a))
REF_REAL(rint, rintl(a))
REF_REAL(logical_not, a == 0)
REF_REAL(isnan, isnan(a) != 0)
REF_REAL(isinf, isinf(a) != 0)
REF_REAL(isfinite, isfinite(a) != 0)
REF_REAL(signbit, signbit(a) != 0)
REF_REAL(spacing, spacing_of(t, a))
REF_REAL(sqrt, sqrt_in(t, a))
REF_REAL(cbrt, cbrtl(a))
REF_REAL(exp, expl(a))
REF_REAL(exp2, exp2l(a))
REF_REAL(expm1, expm1l(a))
REF_REAL(log, logl(a))
REF_REAL(log2, log2l(a))
REF_REAL(log10, log10l(a))
REF_REAL(log1p, log1pl(a))
REF_REAL(sin, sinl(a))
REF_REAL(cos, cosl(a))
REF_REAL(tan, tanl(a))
REF_REAL(arcsin, asinl(a))
REF_REAL(arccos, acosl(a))
REF_REAL(arctan, atanl(a))
REF_REAL(sinh, sinhl(a))
REF_REAL(cosh, coshl(a))
REF_REAL(tanh, tanhl(a))
REF_REAL(arcsinh, asinhl(a))
REF_REAL(arccosh, acoshl(a))
REF_REAL(arctanh, atanhl(a))
REF_REAL(deg2rad, a * (PI_L / 180))
REF_REAL(rad2deg, a * (180 / PI_L))
/* sin(pi a) / (pi a), pi a computed in the loop's precision: NaN where it
   overflows (float32 for the 16-bit formats, so float16 never does, unlike
   NumPy's sinc composed of float16 operations) */
static long double r_sinc(long double a, long double b, ga_dtype t)
{
    (void)b;
    if (a == 0) return 1;
    long double y = PI_L * a;
    if (isinf(in_double(t) ? (double)y : (float)y)) return NAN;
    return sinl(y) / y;
}

REF_REAL(add, add_in(t, a, b))
REF_REAL(subtract, sub_in(t, a, b))
REF_REAL(multiply, mul_in(t, a, b))
REF_REAL(divide, div_in(t, a, b))
static long double r_floor_divide(long double a, long double b, ga_dtype t)
{
    long double mod;
    return divmod_in(t, a, b, &mod);
}
static long double r_remainder(long double a, long double b, ga_dtype t)
{
    long double mod;
    divmod_in(t, a, b, &mod);
    return mod;
}
REF_REAL(fmod, fmodl(a, b)) /* exact in any precision */
REF_REAL(power, powl(a, b))
REF_REAL(equal, a == b)
REF_REAL(not_equal, a != b)
REF_REAL(less, a < b)
REF_REAL(less_equal, a <= b)
REF_REAL(greater, a > b)
REF_REAL(greater_equal, a >= b)
REF_REAL(logical_and, a != 0 && b != 0)
REF_REAL(logical_or, a != 0 || b != 0)
REF_REAL(logical_xor, (a != 0) != (b != 0))
REF_REAL(maximum, a >= b || isnan(a) ? a : b)
REF_REAL(minimum, a <= b || isnan(a) ? a : b)
REF_REAL(fmax, a >= b || isnan(b) ? a : b)
REF_REAL(fmin, a <= b || isnan(b) ? a : b)
REF_REAL(copysign, copysignl(a, b))
REF_REAL(nextafter, next_toward(t, a, b))
/* the exponent b is an integer; NumPy clamps it to int's range */
REF_REAL(ldexp, ldexpl(a, b > INT_MAX ? INT_MAX : b < INT_MIN ? INT_MIN : (int)b))
REF_REAL(heaviside, isnan(a) ? a : a == 0 ? b : a < 0 ? 0 : 1)
static long double r_logaddexp(long double a, long double b, ga_dtype t)
{
    (void)t;
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return a + LN2_L; /* equal infinities too */
    return fmaxl(a, b) + log1pl(expl(-fabsl(a - b)));
}
static long double r_logaddexp2(long double a, long double b, ga_dtype t)
{
    (void)t;
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return a + 1;
    return fmaxl(a, b) + log1pl(exp2l(-fabsl(a - b))) / LN2_L;
}
REF_REAL(arctan2, atan2l(a, b))
REF_REAL(hypot, hypotl(a, b))

/* ---- complex ------------------------------------------------------------- */

#define RE(z) creall(z)
#define IM(z) cimagl(z)

/* NumPy's complex multiplication and (Smith's) division, in long double. */
static cplx cmul(cplx a, cplx b)
{
    return mkc(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b));
}
static cplx cdiv(cplx a, cplx b)
{
    long double ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);
    if (fabsl(br) >= fabsl(bi)) {
        if (br == 0 && bi == 0) return mkc(ar / fabsl(br), ai / fabsl(br));
        long double rat = bi / br, scl = 1.0L / (br + bi * rat);
        return mkc((ar + ai * rat) * scl, (ai - ar * rat) * scl);
    }
    long double rat = br / bi, scl = 1.0L / (bi + br * rat);
    return mkc((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}
static bool cnan(cplx a) { return isnan(RE(a)) || isnan(IM(a)); }
/* NumPy's order of complex numbers: by real part, then imaginary part. */
static bool clt(cplx a, cplx b)
{
    return (RE(a) < RE(b) && !isnan(IM(a)) && !isnan(IM(b))) || (RE(a) == RE(b) && IM(a) < IM(b));
}
static bool cle(cplx a, cplx b)
{
    return (RE(a) < RE(b) && !isnan(IM(a)) && !isnan(IM(b))) || (RE(a) == RE(b) && IM(a) <= IM(b));
}

/* NumPy's complex sign: z / |z|, with its rules for infinities. */
static cplx c_sign(cplx a, cplx b, ga_dtype t)
{
    (void)b, (void)t;
    long double m = hypotl(RE(a), IM(a));
    if (isnan(m)) return mkc(NAN, NAN);
    if (isinf(m)) {
        if (isinf(RE(a))) return isinf(IM(a)) ? mkc(NAN, NAN) : mkc(RE(a) > 0 ? 1 : -1, 0);
        return mkc(0, IM(a) > 0 ? 1 : -1);
    }
    if (m == 0) return mkc(0, 0);
    return mkc(RE(a) / m, IM(a) / m);
}
/* NumPy's complex reciprocal. */
static cplx c_reciprocal(cplx a, cplx b, ga_dtype t)
{
    (void)b, (void)t;
    long double ar = RE(a), ai = IM(a);
    if (fabsl(ai) <= fabsl(ar)) {
        long double r = ai / ar, d = ar + ai * r;
        return mkc(1 / d, -r / d);
    }
    long double r = ar / ai, d = ar * r + ai;
    return mkc(r / d, -1 / d);
}
/* NumPy's complex power: 1 for a zero exponent, 0 or NaN for a zero base,
   else a ** b (NumPy multiplies out small integer exponents; the result is
   the same within the tolerance). */
static cplx c_power(cplx a, cplx b, ga_dtype t)
{
    (void)t;
    if (RE(b) == 0 && IM(b) == 0) return mkc(1, 0);
    if (RE(a) == 0 && IM(a) == 0) return RE(b) > 0 && IM(b) == 0 ? mkc(0, 0) : mkc(NAN, NAN);
    return cpowl(a, b);
}

REF_CPLX(negative, mkc(-RE(a), -IM(a)))
REF_CPLX(positive, a)
REF_CPLX(absolute, mkc(hypotl(RE(a), IM(a)), 0))
REF_CPLX(square, cmul(a, a))
REF_CPLX(conjugate, mkc(RE(a), -IM(a)))
REF_CPLX(rint, mkc(rintl(RE(a)), rintl(IM(a))))
REF_CPLX(logical_not, RE(a) == 0 && IM(a) == 0)
REF_CPLX(isnan, cnan(a))
REF_CPLX(isinf, isinf(RE(a)) || isinf(IM(a)))
REF_CPLX(isfinite, isfinite(RE(a)) && isfinite(IM(a)))
REF_CPLX(sqrt, csqrtl(a))
REF_CPLX(exp, cexpl(a))
REF_CPLX(exp2, cexpl(a * LN2_L))
/* NumPy's formula */
REF_CPLX(expm1, mkc(expm1l(RE(a)) * cosl(IM(a)) - 2 * sinl(IM(a) / 2) * sinl(IM(a) / 2), expl(RE(a)) * sinl(IM(a))))
REF_CPLX(log, clogl(a))
REF_CPLX(log2, clogl(a) / LN2_L)
REF_CPLX(log10, clogl(a) / LN10_L)
REF_CPLX(log1p, mkc(logl(hypotl(RE(a) + 1, IM(a))), atan2l(IM(a), RE(a) + 1)))
REF_CPLX(sin, csinl(a))
REF_CPLX(cos, ccosl(a))
REF_CPLX(tan, ctanl(a))
REF_CPLX(arcsin, casinl(a))
REF_CPLX(arccos, cacosl(a))
REF_CPLX(arctan, catanl(a))
REF_CPLX(sinh, csinhl(a))
REF_CPLX(cosh, ccoshl(a))
REF_CPLX(tanh, ctanhl(a))
REF_CPLX(arcsinh, casinhl(a))
REF_CPLX(arccosh, cacoshl(a))
REF_CPLX(arctanh, catanhl(a))
REF_CPLX(sinc, RE(a) == 0 && IM(a) == 0 ? mkc(1, 0) : csinl(PI_L * a) / (PI_L * a))
REF_CPLX(add, mkc(add_in(t, RE(a), RE(b)), add_in(t, IM(a), IM(b))))
REF_CPLX(subtract, mkc(sub_in(t, RE(a), RE(b)), sub_in(t, IM(a), IM(b))))
REF_CPLX(multiply, cmul(a, b))
REF_CPLX(divide, cdiv(a, b))
REF_CPLX(equal, RE(a) == RE(b) && IM(a) == IM(b))
REF_CPLX(not_equal, RE(a) != RE(b) || IM(a) != IM(b))
REF_CPLX(less, clt(a, b))
REF_CPLX(less_equal, cle(a, b))
REF_CPLX(greater, clt(b, a))
REF_CPLX(greater_equal, cle(b, a))
REF_CPLX(logical_and, (RE(a) != 0 || IM(a) != 0) && (RE(b) != 0 || IM(b) != 0))
REF_CPLX(logical_or, RE(a) != 0 || IM(a) != 0 || RE(b) != 0 || IM(b) != 0)
REF_CPLX(logical_xor, (RE(a) != 0 || IM(a) != 0) != (RE(b) != 0 || IM(b) != 0))
REF_CPLX(maximum, cle(b, a) || cnan(a) ? a : b)
REF_CPLX(minimum, cle(a, b) || cnan(a) ? a : b)
REF_CPLX(fmax, cle(b, a) || cnan(b) ? a : b)
REF_CPLX(fmin, cle(a, b) || cnan(b) ? a : b)

/* ---- integers ------------------------------------------------------------ */

#define SA ((int64_t)a)
#define SB ((int64_t)b)

/* NumPy's integer reciprocal: C's 1.0 / a, cast back as astype casts. */
static uint64_t i_reciprocal(uint64_t a, uint64_t b, ga_dtype t)
{
    (void)b;
    double x = 1.0 / (is_signed(t) ? (double)SA : (double)a);
    return load_as(GA_FLOAT64, &x, t).i;
}
/* Floor division and remainder: a zero divisor gives 0, MIN // -1 wraps. */
static uint64_t i_floor_divide(uint64_t a, uint64_t b, ga_dtype t)
{
    if (b == 0) return 0;
    if (!is_signed(t)) return a / b;
    if (SB == -1) return 0 - a;
    int64_t q = SA / SB;
    if (SA % SB != 0 && (SA < 0) != (SB < 0)) q--;
    return (uint64_t)q;
}
static uint64_t i_remainder(uint64_t a, uint64_t b, ga_dtype t)
{
    if (b == 0) return 0;
    if (!is_signed(t)) return a % b;
    if (SB == -1) return 0;
    int64_t r = SA % SB;
    if (r != 0 && (r < 0) != (SB < 0)) r += SB;
    return (uint64_t)r;
}
static uint64_t i_fmod(uint64_t a, uint64_t b, ga_dtype t)
{
    if (b == 0) return 0;
    if (!is_signed(t)) return a % b;
    return SB == -1 ? 0 : (uint64_t)(SA % SB);
}
/* Wrapping power (exponents >= 0: NumPy refuses negative ones, see
   ufunc_integer_power_negative_exponent). */
static uint64_t i_power(uint64_t a, uint64_t b, ga_dtype t)
{
    (void)t;
    uint64_t r = 1;
    for (; b; b >>= 1, a *= a)
        if (b & 1) r *= a;
    return r;
}
/* |a| as an unsigned number (so that |MIN| is 2**(width-1), as NumPy's gcd
   and lcm take it). */
static uint64_t magnitude(ga_dtype t, uint64_t a) { return is_signed(t) && SA < 0 ? 0 - a : a; }
static uint64_t gcd_u(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}
static uint64_t i_lcm(uint64_t a, uint64_t b, ga_dtype t)
{
    uint64_t x = magnitude(t, a), y = magnitude(t, b), g = gcd_u(x, y);
    return g ? x / g * y : 0;
}

REF_INT(negative, 0 - a)
REF_INT(positive, a)
REF_INT(absolute, magnitude(t, a))
REF_INT(sign, is_signed(t) ? (uint64_t)(int64_t)((SA > 0) - (SA < 0)) : a != 0)
REF_INT(square, a * a)
REF_INT(identity, a) /* conjugate, and floor, ceil, trunc, fix of integers */
REF_INT(logical_not, a == 0)
REF_INT(isnan, 0)
REF_INT(isinf, 0)
REF_INT(isfinite, 1)
REF_INT(invert, t == GA_BOOL ? !a : ~a)
REF_INT(add, t == GA_BOOL ? (a | b) : a + b)
REF_INT(subtract, a - b)
REF_INT(multiply, t == GA_BOOL ? (a & b) : a * b)
REF_INT(equal, a == b)
REF_INT(not_equal, a != b)
REF_INT(less, is_signed(t) ? SA < SB : a < b)
REF_INT(less_equal, is_signed(t) ? SA <= SB : a <= b)
REF_INT(greater, is_signed(t) ? SA > SB : a > b)
REF_INT(greater_equal, is_signed(t) ? SA >= SB : a >= b)
REF_INT(logical_and, a != 0 && b != 0)
REF_INT(logical_or, a != 0 || b != 0)
REF_INT(logical_xor, (a != 0) != (b != 0))
REF_INT(maximum, (is_signed(t) ? SA >= SB : a >= b) ? a : b)
REF_INT(minimum, (is_signed(t) ? SA <= SB : a <= b) ? a : b)
REF_INT(bitwise_and, a & b)
REF_INT(bitwise_or, a | b)
REF_INT(bitwise_xor, a ^ b)
/* shifts by the width or more, or by a negative count (huge as unsigned),
   give 0, or -1 for a negative value shifted right */
REF_INT(left_shift, b < (uint64_t)width(t) ? a << b : 0)
REF_INT(right_shift, b < (uint64_t)width(t) ? (is_signed(t) ? (uint64_t)(SA >> b) : a >> b)
                                            : (is_signed(t) && SA < 0 ? UINT64_MAX : 0))
REF_INT(gcd, gcd_u(magnitude(t, a), magnitude(t, b)))

#undef SA
#undef SB

/* ======================================================================== */
/* The ufunc table                                                            */
/* ======================================================================== */

/* How results compare with the reference. */
enum tolerance {
    EXACT,          /* bit for bit, the sign of zero included; any NaN matches any NaN */
    ZEROS_EQUAL,    /* exact, but +0 and -0 match (which one NumPy gives depends on the platform) */
    ULPS,           /* within ulp_budget() ulps of the result's format */
    ULPS_OF_ONE,    /* ulps measured at max(|result|, 1): absolute near zero (sinc) */
    ULPS_OF_INPUTS, /* ulps measured at the largest of |result| and |inputs| (cancellation) */
    REL,            /* complex: norm-wise relative error within REL_EPSILONS epsilons */
    REL_OR_ABS      /* complex: as REL, absolute below magnitude 1 */
};
/* 16-bit formats: 1 ulp (computed in float32, rounded once); float32 and
   float64: 4 ulps (CUDA's functions are within 1 to 4). */
static int ulp_budget(ga_dtype t) { return t == GA_FLOAT16 || t == GA_BFLOAT16 ? 1 : 4; }
#define REL_EPSILONS 64

/* Where random inputs come from (gen_real, gen_int, gen_complex_part). */
enum domain {
    D_ANY,      /* every magnitude, specials, ties */
    D_TRIG,     /* mostly within +-7, some up to 2**16 */
    D_UNIT,     /* about [-1, 1] */
    D_EXP,      /* within +-10, or +-800 */
    D_POS,      /* positive, every magnitude; some negative */
    D_LOG1P,    /* [-1, 3], or positive of every magnitude */
    D_ACOSH,    /* [0.9, 5], or positive of every magnitude */
    D_SINC,     /* within +-30, integers among them */
    D_POW_BASE, /* [0, 60], some negative integers */
    D_POW_EXP,  /* within +-30, integers among them; integers: 0..20 and 60..70 (NumPy refuses negative ones) */
    D_LOGADD,   /* within +-200 */
    D_SHIFT,    /* integers: -3 .. width + 3 */
    D_EXPONENT  /* integers: mostly within +-1100 (ldexp) */
};

typedef struct spec {
    real_fn real;
    cplx_fn cplx;
    int_fn integer;
    unsigned char real_tol, cplx_tol; /* enum tolerance for real and complex loops */
    unsigned char domain[2];          /* of each input */
} spec;

#define SPEC(E, real, cplx, integer, rtol, ctol, d0, d1) [GA_UFUNC_##E] = {real, cplx, integer, rtol, ctol, {d0, d1}}
static const spec specs[GA_NUM_UFUNCS] = {
    SPEC(NEGATIVE, r_negative, c_negative, i_negative, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(POSITIVE, r_positive, c_positive, i_positive, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(ABSOLUTE, r_absolute, c_absolute, i_absolute, EXACT, REL, D_ANY, D_ANY),
    SPEC(FABS, r_absolute, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(SIGN, r_sign, c_sign, i_sign, EXACT, REL, D_ANY, D_ANY),
    SPEC(RECIPROCAL, r_reciprocal, c_reciprocal, i_reciprocal, EXACT, REL, D_ANY, D_ANY),
    SPEC(SQUARE, r_square, c_square, i_square, EXACT, REL, D_ANY, D_ANY),
    SPEC(CONJUGATE, r_positive, c_conjugate, i_identity, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(FLOOR, r_floor, NULL, i_identity, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(CEIL, r_ceil, NULL, i_identity, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(TRUNC, r_trunc, NULL, i_identity, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(FIX, r_trunc, NULL, i_identity, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(RINT, r_rint, c_rint, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LOGICAL_NOT, r_logical_not, c_logical_not, i_logical_not, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(ISNAN, r_isnan, c_isnan, i_isnan, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(ISINF, r_isinf, c_isinf, i_isinf, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(ISFINITE, r_isfinite, c_isfinite, i_isfinite, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(SIGNBIT, r_signbit, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(SPACING, r_spacing, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(INVERT, NULL, NULL, i_invert, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(SQRT, r_sqrt, c_sqrt, NULL, EXACT, REL_OR_ABS, D_ANY, D_ANY),
    SPEC(CBRT, r_cbrt, NULL, NULL, ULPS, ULPS, D_ANY, D_ANY),
    SPEC(EXP, r_exp, c_exp, NULL, ULPS, REL_OR_ABS, D_EXP, D_ANY),
    SPEC(EXP2, r_exp2, c_exp2, NULL, ULPS, REL_OR_ABS, D_EXP, D_ANY),
    SPEC(EXPM1, r_expm1, c_expm1, NULL, ULPS, REL_OR_ABS, D_EXP, D_ANY),
    SPEC(LOG, r_log, c_log, NULL, ULPS, REL_OR_ABS, D_POS, D_ANY),
    SPEC(LOG2, r_log2, c_log2, NULL, ULPS, REL_OR_ABS, D_POS, D_ANY),
    SPEC(LOG10, r_log10, c_log10, NULL, ULPS, REL_OR_ABS, D_POS, D_ANY),
    SPEC(LOG1P, r_log1p, c_log1p, NULL, ULPS, REL_OR_ABS, D_LOG1P, D_ANY),
    SPEC(SIN, r_sin, c_sin, NULL, ULPS, REL_OR_ABS, D_TRIG, D_ANY),
    SPEC(COS, r_cos, c_cos, NULL, ULPS, REL_OR_ABS, D_TRIG, D_ANY),
    SPEC(TAN, r_tan, c_tan, NULL, ULPS, REL_OR_ABS, D_TRIG, D_ANY),
    SPEC(ARCSIN, r_arcsin, c_arcsin, NULL, ULPS, REL_OR_ABS, D_UNIT, D_ANY),
    SPEC(ARCCOS, r_arccos, c_arccos, NULL, ULPS, REL_OR_ABS, D_UNIT, D_ANY),
    SPEC(ARCTAN, r_arctan, c_arctan, NULL, ULPS, REL_OR_ABS, D_ANY, D_ANY),
    SPEC(SINH, r_sinh, c_sinh, NULL, ULPS, REL_OR_ABS, D_EXP, D_ANY),
    SPEC(COSH, r_cosh, c_cosh, NULL, ULPS, REL_OR_ABS, D_EXP, D_ANY),
    SPEC(TANH, r_tanh, c_tanh, NULL, ULPS, REL_OR_ABS, D_TRIG, D_ANY),
    SPEC(ARCSINH, r_arcsinh, c_arcsinh, NULL, ULPS, REL_OR_ABS, D_ANY, D_ANY),
    SPEC(ARCCOSH, r_arccosh, c_arccosh, NULL, ULPS, REL_OR_ABS, D_ACOSH, D_ANY),
    SPEC(ARCTANH, r_arctanh, c_arctanh, NULL, ULPS, REL_OR_ABS, D_UNIT, D_ANY),
    SPEC(DEG2RAD, r_deg2rad, NULL, NULL, ULPS, ULPS, D_ANY, D_ANY),
    SPEC(RAD2DEG, r_rad2deg, NULL, NULL, ULPS, ULPS, D_ANY, D_ANY),
    SPEC(SINC, r_sinc, c_sinc, NULL, ULPS_OF_ONE, REL_OR_ABS, D_SINC, D_ANY),

    SPEC(ADD, r_add, c_add, i_add, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(SUBTRACT, r_subtract, c_subtract, i_subtract, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(MULTIPLY, r_multiply, c_multiply, i_multiply, EXACT, REL, D_ANY, D_ANY),
    SPEC(DIVIDE, r_divide, c_divide, NULL, EXACT, REL, D_ANY, D_ANY),
    SPEC(FLOOR_DIVIDE, r_floor_divide, NULL, i_floor_divide, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(REMAINDER, r_remainder, NULL, i_remainder, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(FMOD, r_fmod, NULL, i_fmod, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(POWER, r_power, c_power, i_power, ULPS, REL_OR_ABS, D_POW_BASE, D_POW_EXP),
    SPEC(FLOAT_POWER, r_power, c_power, NULL, ULPS, REL_OR_ABS, D_POW_BASE, D_POW_EXP),
    SPEC(EQUAL, r_equal, c_equal, i_equal, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(NOT_EQUAL, r_not_equal, c_not_equal, i_not_equal, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LESS, r_less, c_less, i_less, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LESS_EQUAL, r_less_equal, c_less_equal, i_less_equal, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(GREATER, r_greater, c_greater, i_greater, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(GREATER_EQUAL, r_greater_equal, c_greater_equal, i_greater_equal, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LOGICAL_AND, r_logical_and, c_logical_and, i_logical_and, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LOGICAL_OR, r_logical_or, c_logical_or, i_logical_or, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LOGICAL_XOR, r_logical_xor, c_logical_xor, i_logical_xor, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(MAXIMUM, r_maximum, c_maximum, i_maximum, ZEROS_EQUAL, ZEROS_EQUAL, D_ANY, D_ANY),
    SPEC(MINIMUM, r_minimum, c_minimum, i_minimum, ZEROS_EQUAL, ZEROS_EQUAL, D_ANY, D_ANY),
    SPEC(FMAX, r_fmax, c_fmax, i_maximum, ZEROS_EQUAL, ZEROS_EQUAL, D_ANY, D_ANY),
    SPEC(FMIN, r_fmin, c_fmin, i_minimum, ZEROS_EQUAL, ZEROS_EQUAL, D_ANY, D_ANY),
    SPEC(COPYSIGN, r_copysign, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    /* nextafter(x, x): y, the sign of a zero included (C's, NumPy 2.5's, ml_dtypes') */
    SPEC(NEXTAFTER, r_nextafter, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LDEXP, r_ldexp, NULL, NULL, EXACT, EXACT, D_ANY, D_EXPONENT),
    SPEC(HEAVISIDE, r_heaviside, NULL, NULL, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(BITWISE_AND, NULL, NULL, i_bitwise_and, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(BITWISE_OR, NULL, NULL, i_bitwise_or, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(BITWISE_XOR, NULL, NULL, i_bitwise_xor, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LEFT_SHIFT, NULL, NULL, i_left_shift, EXACT, EXACT, D_ANY, D_SHIFT),
    SPEC(RIGHT_SHIFT, NULL, NULL, i_right_shift, EXACT, EXACT, D_ANY, D_SHIFT),
    SPEC(GCD, NULL, NULL, i_gcd, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LCM, NULL, NULL, i_lcm, EXACT, EXACT, D_ANY, D_ANY),
    SPEC(LOGADDEXP, r_logaddexp, NULL, NULL, ULPS_OF_INPUTS, ULPS, D_LOGADD, D_LOGADD),
    SPEC(LOGADDEXP2, r_logaddexp2, NULL, NULL, ULPS_OF_INPUTS, ULPS, D_LOGADD, D_LOGADD),
    SPEC(ARCTAN2, r_arctan2, NULL, NULL, ULPS, ULPS, D_ANY, D_ANY),
    SPEC(HYPOT, r_hypot, NULL, NULL, ULPS, ULPS, D_ANY, D_ANY),
};
#undef SPEC

/* gpuarr.h's lists, with the named forms of each ufunc. */
typedef struct ufunc_row {
    const char *name;
    int nin, nout;
    uint32_t loops; /* bit d: a loop of dtype d */
    int result;     /* GA__RESULT_* (gpuarr.h): how the output dtype follows from the loop */
    ga_array *(*unary)(const ga_array *);
    ga_status (*unary_out)(const ga_array *, ga_array *);
    ga_array *(*binary)(const ga_array *, const ga_array *);
    ga_status (*binary_out)(const ga_array *, const ga_array *, ga_array *);
    ga_array *(*with_scalar)(const ga_array *, ga_scalar);   /* ga_X_scalar */
    ga_array *(*scalar_with)(ga_scalar, const ga_array *);   /* ga_X_rscalar */
} ufunc_row;

#define LOOP_BIT(A, name, E) | (1u << GA_##E)
#define ROW_UNARY(E, name, loops, result, family)                                                    \
    [GA_UFUNC_##E] = {#name, 1, 1, 0 GA_LOOPS_##loops(LOOP_BIT, ~), GA__RESULT_##result, ga_##name,  \
                      ga_##name##_out, NULL, NULL, NULL, NULL},
#define ROW_BINARY(E, name, loops, result, family)                                                   \
    [GA_UFUNC_##E] = {#name, 2, 1, 0 GA_LOOPS_##loops(LOOP_BIT, ~), GA__RESULT_##result, NULL, NULL, \
                      ga_##name, ga_##name##_out, ga_##name##_scalar, ga_##name##_rscalar},
#define ROW_OTHER(E, name, nin, nout, loops, result, family)                                         \
    [GA_UFUNC_##E] = {#name, nin, nout, 0 GA_LOOPS_##loops(LOOP_BIT, ~), GA__RESULT_##result, NULL,  \
                      NULL, NULL, NULL, NULL, NULL},
static const ufunc_row rows[GA_NUM_UFUNCS] = {
    GA_UFUNC_UNARY_LIST(ROW_UNARY)
    GA_UFUNC_BINARY_LIST(ROW_BINARY)
    GA_UFUNC_OTHER_LIST(ROW_OTHER)
};
#undef LOOP_BIT
#undef ROW_UNARY
#undef ROW_BINARY
#undef ROW_OTHER

static bool has_loop(ga_ufunc u, ga_dtype t) { return (rows[u].loops >> t) & 1; }

/* The output dtype of a loop of dtype t. */
static ga_dtype result_dtype(ga_ufunc u, ga_dtype t)
{
    switch (rows[u].result) {
    case GA__RESULT_BOOL:
    case GA__RESULT_COMPARE:
    case GA__RESULT_ISCLOSE: return GA_BOOL;
    case GA__RESULT_ABS: return part_of(t);
    default: return t;
    }
}

/* The dtype the generic tests give input k of a loop of dtype t: the loop's,
   except ldexp's exponent (int32, NumPy's 'i' loops). */
static ga_dtype input_dtype(ga_ufunc u, int k, ga_dtype t)
{
    return rows[u].result == GA__RESULT_LDEXP && k == 1 ? GA_INT32 : t;
}

/* Whether `sp` has a reference for loops of dtype t. */
static bool has_reference(const spec *sp, ga_dtype t)
{
    return is_exact(t) ? sp->integer != NULL : is_complex(t) ? sp->cplx != NULL : sp->real != NULL;
}

/* ======================================================================== */
/* Reference values and comparison                                           */
/* ======================================================================== */

/* The reference result of `sp` for a loop of dtype `loop` on inputs a, b
   (already in the loop's input dtypes; b of integer dtype b_t for ldexp),
   as an element of dtype out_t. */
static elem reference(const spec *sp, ga_dtype loop, ga_dtype b_t, ga_dtype out_t, elem a, elem b)
{
    elem r = {0, 0, 0};
    if (is_exact(loop)) {
        r.i = wrap(out_t, sp->integer(a.i, b.i, loop));
    } else if (is_complex(loop)) {
        cplx z = sp->cplx(mkc(a.re, a.im), mkc(b.re, b.im), loop);
        if (out_t == GA_BOOL) r.i = RE(z) != 0;
        r.re = RE(z);
        r.im = IM(z);
    } else {
        long double v = sp->real(a.re, is_integer(b_t) ? (long double)(int64_t)b.i : b.re, loop);
        if (out_t == GA_BOOL) r.i = v != 0;
        else if (is_integer(out_t)) r.i = wrap(out_t, (uint64_t)(int64_t)v);
        r.re = v;
    }
    return r;
}

/* Whether `got` (a value of floating dtype t) matches the reference `want`
   (exact, rounded here) under tolerance `tol`; `scale` is the magnitude
   ULPS_OF_ONE and ULPS_OF_INPUTS measure ulps at. */
static bool real_matches(ga_dtype t, int tol, long double got, long double want, long double scale)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
    long double w = round_to(t, want);
    if (tol == EXACT) return got == w && signbit(got) == signbit(w);
    if (tol == ZEROS_EQUAL) return got == w;
    int64_t steps = ordinal(t, got) - ordinal(t, w);
    if (steps <= ulp_budget(t) && steps >= -ulp_budget(t)) return true;
    if (tol == ULPS || !isfinite(w) || !isfinite(got)) return false;
    return fabsl(got - w) <= ulp_budget(t) * ulp_at(t, fmaxl(fabsl(w), scale));
}

/* The same for complex values (dtype t): exact tolerances part by part;
   REL and REL_OR_ABS norm-wise over the finite parts, the others matching
   exactly (infinities, NaN); `condition` (at least 1) widens the relative
   tolerance where the function amplifies its inputs' rounding. */
static bool complex_matches(ga_dtype t, int tol, elem got, elem want, long double condition)
{
    ga_dtype part = part_of(t);
    if (tol == EXACT || tol == ZEROS_EQUAL)
        return real_matches(part, tol, got.re, want.re, 0) && real_matches(part, tol, got.im, want.im, 0);
    long double g[2] = {got.re, got.im}, w[2] = {round_to(part, want.re), round_to(part, want.im)};
    long double diff = 0, norm = 0;
    for (int p = 0; p < 2; p++) {
        if (!isfinite(w[p]) || !isfinite(g[p])) {
            if (!(isnan(w[p]) && isnan(g[p])) && w[p] != g[p]) return false;
            continue;
        }
        diff += (g[p] - w[p]) * (g[p] - w[p]);
        norm += w[p] * w[p];
    }
    long double rtol = REL_EPSILONS * condition * (long double)epsilon_of(part);
    return sqrtl(diff) <= rtol * fmaxl(sqrtl(norm), tol == REL_OR_ABS ? 1 : 0);
}

/* The condition of a complex function at (a, b), at least 1: how far its
   result moves (relative to max(|result|, 1)) when an input moves by a
   small fraction of max(|input|, 1), measured on the long double reference
   (near the poles of tan and tanh, for instance, no algorithm in the
   format's precision is exact). */
static long double condition_of(const spec *sp, ga_dtype loop, elem a, elem b, elem want)
{
    const long double delta = 0x1p-32L;
    cplx f = mkc(want.re, want.im);
    long double scale = fmaxl(cabsl(f), 1), worst = 1;
    for (int k = 0; k < 2; k++)
        for (int dir = 0; dir < 2; dir++) {
            elem x[2] = {a, b};
            long double h = fmaxl(hypotl(x[k].re, x[k].im), 1) * delta;
            if (dir) x[k].im += h;
            else x[k].re += h;
            long double c = cabsl(sp->cplx(mkc(x[0].re, x[0].im), mkc(x[1].re, x[1].im), loop) - f) / (delta * scale);
            if (isfinite(c) && c > worst) worst = c;
        }
    return worst;
}

/* Whether an output element (dtype out_t) matches the reference. */
static bool matches(const spec *sp, ga_dtype loop, ga_dtype out_t, elem got, elem want, elem a, elem b)
{
    if (is_exact(out_t)) return got.i == want.i;
    int tol = is_complex(loop) ? sp->cplx_tol : sp->real_tol;
    if (is_complex(out_t))
        return complex_matches(out_t, tol, got, want, 1) ||
               (tol == REL_OR_ABS && complex_matches(out_t, tol, got, want, condition_of(sp, loop, a, b, want)));
    if (tol == REL || tol == REL_OR_ABS) tol = ULPS; /* the real result of a complex loop */
    long double scale = tol == ULPS_OF_ONE ? 1 : tol == ULPS_OF_INPUTS ? fmaxl(fabsl(a.re), fabsl(b.re)) : 0;
    return real_matches(out_t, tol, got.re, want.re, scale);
}

/* An element as text, for messages (floating values rounded to t). */
static const char *show(char *buf, size_t size, ga_dtype t, elem e)
{
    int digits = t == GA_FLOAT64 || t == GA_COMPLEX128 ? 17 : 9;
    if (t == GA_BOOL) snprintf(buf, size, "%s", e.i ? "True" : "False");
    else if (is_signed(t)) snprintf(buf, size, "%lld", (long long)e.i);
    else if (is_integer(t)) snprintf(buf, size, "%llu", (unsigned long long)e.i);
    else if (is_complex(t))
        snprintf(buf, size, "(%.*Lg%+.*Lgj)", digits, round_to(part_of(t), e.re), digits, round_to(part_of(t), e.im));
    else snprintf(buf, size, "%.*Lg", digits, round_to(t, e.re));
    return buf;
}

/* ======================================================================== */
/* Random inputs                                                             */
/* ======================================================================== */

static double special_value(ga_dtype t)
{
    const double s[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0,
                        max_finite(t), -max_finite(t), min_subnormal(t), -min_subnormal(t),
                        ldexp(1.0, min_exponent(t))};
    return s[rnd() % (sizeof s / sizeof s[0])];
}

/* Any magnitude of format t, subnormals to the largest, either sign. */
static double any_magnitude(ga_dtype t)
{
    double m = ldexp(1.0 + rnd_unit(), (int)rnd_int(min_exponent(t) - precision_of(t) + 1, max_exponent(t)));
    return rnd() & 1 ? -m : m;
}

/* A random real value for `domain`, in the range of format t; a tenth are
   special values. */
static double gen_real(int domain, ga_dtype t)
{
    if (rnd() % 10 == 0) return special_value(t);
    bool near = rnd() & 1; /* half of the values near zero, where most functions change most */
    bool integer = rnd() % 4 == 0;
    switch (domain) {
    case D_TRIG: return near ? rnd_between(-7, 7) : ldexp(rnd() & 1 ? -1.0 : 1.0, (int)rnd_int(-10, 16)) * (1 + rnd_unit());
    case D_UNIT: return near ? rnd_between(-1, 1) : rnd_between(-1.2, 1.2);
    case D_EXP: return near ? rnd_between(-10, 10) : rnd_between(-800, 800);
    case D_POS: return rnd() % 8 == 0 ? rnd_between(-3, 0) : near ? rnd_between(0, 4) : fabs(any_magnitude(t));
    case D_LOG1P: return near ? rnd_between(-1, 3) : fabs(any_magnitude(t));
    case D_ACOSH: return near ? rnd_between(0.9, 5) : fabs(any_magnitude(t));
    case D_SINC: return integer ? (double)rnd_int(-10, 10) : near ? rnd_between(-4, 4) : rnd_between(-30, 30);
    case D_POW_BASE: return rnd() % 8 == 0 ? -(double)rnd_int(1, 6) : near ? rnd_between(0, 3) : rnd_between(0, 60);
    case D_POW_EXP: return integer ? (double)rnd_int(-6, 12) : near ? rnd_between(-4, 4) : rnd_between(-30, 30);
    case D_LOGADD: return near ? rnd_between(-10, 10) : rnd_between(-200, 200);
    default:
        switch (rnd() % 4) {
        case 0: return rnd_between(-600, 600);
        case 1: return (double)rnd_int(-100, 100) / 2; /* halves: the ties of rounding */
        case 2: return any_magnitude(t);
        default: return rnd_between(-4, 4);
        }
    }
}

/* A random integer of dtype t for `domain` (sign- or zero-extended). */
static uint64_t gen_int(int domain, ga_dtype t)
{
    if (t == GA_BOOL) return rnd() & 1;
    int w = width(t);
    switch (domain) {
    case D_SHIFT: return wrap(t, (uint64_t)rnd_int(-3, w + 3));
    case D_POW_EXP: return wrap(t, (uint64_t)(rnd() % 8 ? rnd_int(0, 20) : rnd_int(60, 70)));
    case D_EXPONENT: return wrap(t, rnd() % 8 ? (uint64_t)rnd_int(-1100, 1100) : rnd());
    default: break;
    }
    uint64_t min = is_signed(t) ? wrap(t, UINT64_C(1) << (w - 1)) : 0;
    uint64_t max = wrap(t, is_signed(t) ? (UINT64_C(1) << (w - 1)) - 1 : UINT64_MAX);
    const uint64_t edges[] = {0, 1, UINT64_MAX /* -1 */, min, min + 1, max, max - 1};
    switch (rnd() % 6) {
    case 0:
    case 1: return wrap(t, rnd());
    case 2: return wrap(t, (uint64_t)rnd_int(-300, 300));
    case 3: return wrap(t, (uint64_t)rnd_int(-9, 9));
    case 4: return wrap(t, edges[rnd() % (sizeof edges / sizeof edges[0])]);
    default: return wrap(t, (UINT64_C(1) << (rnd() % (uint64_t)w)) + (uint64_t)rnd_int(-1, 1)); /* powers of two +-1 */
    }
}

/* One part of a random complex value. Complex functions get finite values of
   moderate size (parts within +-span for the transcendental ones); NumPy's
   own formulas (arithmetic) also infinities, NaN and zeros. */
static double gen_complex_part(int domain, bool specials)
{
    static const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
    if (specials && rnd() % 20 == 0) return special[rnd() % 5];
    double span = domain == D_TRIG ? 4 : domain == D_UNIT ? 2 : domain == D_EXP ? 6 : domain == D_POS ? 8
                : domain == D_LOG1P || domain == D_ACOSH ? 4 : domain == D_SINC || domain == D_POW_BASE || domain == D_POW_EXP ? 3 : 0;
    if (span > 0) return rnd_between(-span, span);
    if (rnd() % 16 == 0) return 0.0;
    return rnd() & 1 ? rnd_between(-1000, 1000) : ldexp(rnd() & 1 ? -1.0 : 1.0, (int)rnd_int(-20, 20)) * (1 + rnd_unit());
}

/* fill_random's hooks: an integer (gen_int), a real value (gen_real) or a
   complex one (gen_complex_part, twice) for s->domain; s->flag: complex
   special values. */
static uint64_t domain_integer(ga_dtype t, const fill_spec *s) { return gen_int(s->domain, t); }
static void domain_floating(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    if (is_complex(t)) {
        *re = gen_complex_part(s->domain, s->flag);
        *im = gen_complex_part(s->domain, s->flag);
    } else {
        *re = gen_real(s->domain, t);
    }
}

/* n random elements of dtype t at dst. */
static void fill_domain(ga_dtype t, int domain, bool complex_specials, unsigned char *dst, int64_t n)
{
    fill_random(dst, n, t,
                &(fill_spec){.integer = domain_integer, .floating = domain_floating, .domain = domain,
                             .flag = complex_specials});
}

/* ======================================================================== */
/* Operands and layouts                                                      */
/* ======================================================================== */

static int64_t elements(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    return n;
}

/* How an input shows its values to the ufunc. */
enum view {
    CONTIG,         /* a C-contiguous array of the result's shape */
    STEP3,          /* a view with step 3 (1-d) */
    REVERSED,       /* a view with step -1 (1-d) */
    TRANSPOSED,     /* the transpose of a C-contiguous matrix (2-d) */
    BROADCAST_VIEW, /* a row broadcast to the result's shape (2-d, zero strides) */
    ROW,            /* the last axis only: broadcast by the ufunc */
    COLUMN,         /* (rows, 1): broadcast by the ufunc */
    ZERO_D,         /* a 0-d array */
    SCALAR,         /* a weak C scalar */
    OFFSET1,        /* a contiguous view one element into its base (1-d): not aligned to 16 bytes
                       unless its elements are */
    OFFSET16        /* a contiguous view 16 bytes (at least one element) into its base (1-d): aligned */
};

/* How the ufunc is called. */
enum form {
    NEW,        /* ga_X, ga_X_scalar, ga_X_rscalar */
    OUT_GAPS,   /* ga_X_out into every other element of a poisoned buffer, backwards */
    IN_PLACE_A, /* ga_X_out with out = the first input */
    IN_PLACE_B, /* ga_X_out with out = the second input */
    CALL        /* ga_ufunc_call */
};

typedef struct layout {
    const char *name;
    int form;
    int ndim;
    int64_t shape[2];     /* the result's */
    unsigned char view[2]; /* of each input */
} layout;

static const layout unary_layouts[] = {
    {"1 element", NEW, 1, {1}, {CONTIG}},
    {"31 elements", NEW, 1, {31}, {CONTIG}},
    {"33 elements", NEW, 1, {33}, {CONTIG}},
    {"1023 elements", NEW, 1, {1023}, {CONTIG}},
    {"1025 elements", NEW, 1, {1025}, {CONTIG}},
    {"4097 elements", NEW, 1, {4097}, {CONTIG}},
    {"a step-3 view", NEW, 1, {1025}, {STEP3}},
    {"a reversed view", NEW, 1, {1023}, {REVERSED}},
    {"a transposed matrix", NEW, 2, {33, 31}, {TRANSPOSED}},
    {"a row broadcast to a matrix", NEW, 2, {7, 31}, {BROADCAST_VIEW}},
    {"0-d", NEW, 0, {0}, {ZERO_D}},
    {"empty", NEW, 1, {0}, {CONTIG}},
    {"empty matrix", NEW, 2, {3, 0}, {CONTIG}},
    {"out= a reversed view with gaps", OUT_GAPS, 1, {1025}, {CONTIG}},
    {"in place", IN_PLACE_A, 1, {1025}, {CONTIG}},
    {"in place in a step-3 view", IN_PLACE_A, 1, {1025}, {STEP3}},
    {"ga_ufunc_call", CALL, 1, {33}, {CONTIG}},
};

static const layout binary_layouts[] = {
    {"1 element", NEW, 1, {1}, {CONTIG, CONTIG}},
    {"31 elements", NEW, 1, {31}, {CONTIG, CONTIG}},
    {"33 elements", NEW, 1, {33}, {CONTIG, CONTIG}},
    {"1023 elements", NEW, 1, {1023}, {CONTIG, CONTIG}},
    {"1025 elements", NEW, 1, {1025}, {CONTIG, CONTIG}},
    {"4097 elements", NEW, 1, {4097}, {CONTIG, CONTIG}},
    {"a step-3 view with a reversed view", NEW, 1, {1025}, {STEP3, REVERSED}},
    {"transposed matrices", NEW, 2, {33, 31}, {TRANSPOSED, TRANSPOSED}},
    {"a matrix with a row", NEW, 2, {7, 31}, {CONTIG, ROW}},
    {"a row with a transposed matrix", NEW, 2, {7, 31}, {ROW, TRANSPOSED}},
    {"a column with a row", NEW, 2, {7, 31}, {COLUMN, ROW}},
    {"0-d with 0-d", NEW, 0, {0}, {ZERO_D, ZERO_D}},
    {"0-d with a vector", NEW, 1, {33}, {ZERO_D, CONTIG}},
    {"empty", NEW, 1, {0}, {CONTIG, CONTIG}},
    {"an empty matrix with a row", NEW, 2, {0, 5}, {CONTIG, ROW}},
    {"_scalar", NEW, 1, {1025}, {CONTIG, SCALAR}},
    {"_rscalar with a step-3 view", NEW, 1, {1025}, {SCALAR, STEP3}},
    {"_scalar with 0-d", NEW, 0, {0}, {ZERO_D, SCALAR}},
    {"out= a reversed view with gaps", OUT_GAPS, 1, {1025}, {CONTIG, REVERSED}},
    {"in place (out is a)", IN_PLACE_A, 1, {1025}, {CONTIG, CONTIG}},
    {"in place (out is b)", IN_PLACE_B, 1, {1025}, {STEP3, CONTIG}},
    {"in place with a broadcast row", IN_PLACE_A, 2, {7, 31}, {CONTIG, ROW}},
    {"ga_ufunc_call", CALL, 1, {33}, {CONTIG, CONTIG}},
    {"ga_ufunc_call with a scalar first", CALL, 1, {33}, {SCALAR, CONTIG}},
};

/* An input: its values (C order of its shape) and the array or weak scalar
   that shows them to the ufunc. */
typedef struct operand {
    ga_dtype dtype;
    int ndim;
    int64_t shape[2];
    unsigned char *values;
    ga_array *array; /* NULL for a scalar */
    ga_scalar scalar;
} operand;

static void release_operand(operand *op)
{
    free(op->values);
    ga_release(op->array);
    memset(op, 0, sizeof *op);
}

/* The weak scalar holding the value at p (exact: a value of dtype t). */
static ga_scalar weak_scalar(ga_dtype t, const void *p)
{
    elem e = load(t, p);
    if (t == GA_BOOL) return ga_bool(e.i != 0);
    if (is_integer(t)) return is_signed(t) || (int64_t)e.i >= 0 ? ga_int((int64_t)e.i) : ga_uint(e.i);
    if (is_complex(t)) return ga_complex((double)e.re, (double)e.im);
    return ga_float((double)e.re);
}

/* A 1-d view with `step` (1, 3 or -1) showing the n values: a base one
   longer than needed, the other elements random, sliced with ga_index. */
static ga_array *strided_view(ga_dtype t, const unsigned char *values, int64_t n, int step)
{
    int64_t stride = step < 0 ? -step : step, m = (n - 1) * stride + 2;
    size_t sz = isz(t);
    unsigned char *base = (unsigned char *)malloc((size_t)m * sz);
    fill_domain(t, D_ANY, true, base, m);
    for (int64_t i = 0; i < n; i++) {
        int64_t at = step > 0 ? 1 + i * stride : m - 1 - i * stride;
        memcpy(base + at * (int64_t)sz, values + i * (int64_t)sz, sz);
    }
    ga_array *b = ga_from_host(base, 1, &m, t);
    free(base);
    char index[64];
    if (step > 0) snprintf(index, sizeof index, "1:%lld:%d", (long long)(2 + (n - 1) * stride), step);
    else snprintf(index, sizeof index, "%lld:0:%d", (long long)(m - 1), step);
    ga_array *v = ga_index(b, index);
    ga_release(b);
    return v;
}

/* A 1-d contiguous view showing the n values `off` elements into a base of
   n + off elements, the others random. */
static ga_array *offset_view(ga_dtype t, const unsigned char *values, int64_t n, int64_t off)
{
    int64_t m = n + off;
    size_t sz = isz(t);
    unsigned char *base = (unsigned char *)malloc((size_t)m * sz);
    fill_domain(t, D_ANY, true, base, m);
    memcpy(base + off * (int64_t)sz, values, (size_t)n * sz);
    ga_array *b = ga_from_host(base, 1, &m, t);
    free(base);
    char index[32];
    snprintf(index, sizeof index, "%lld:", (long long)off);
    ga_array *v = ga_index(b, index);
    ga_release(b);
    return v;
}

/* The transpose of the (cols, rows) C-ordered matrix holding values[r][c]. */
static ga_array *transposed_view(ga_dtype t, const unsigned char *values, int64_t rows_n, int64_t cols)
{
    size_t sz = isz(t);
    unsigned char *base = (unsigned char *)malloc((size_t)(rows_n * cols) * sz + 1);
    for (int64_t r = 0; r < rows_n; r++)
        for (int64_t c = 0; c < cols; c++) memcpy(base + (c * rows_n + r) * (int64_t)sz, values + (r * cols + c) * (int64_t)sz, sz);
    int64_t shape[2] = {cols, rows_n};
    ga_array *b = ga_from_host(base, 2, shape, t);
    free(base);
    ga_array *v = ga_transpose(b, NULL);
    ga_release(b);
    return v;
}

/* Makes input `op` of dtype t, random in `domain`, as `view` shows it for a
   result of shape (ndim, shape). False (and a failure) if an array could
   not be made. */
static bool make_operand(operand *op, ga_dtype t, int domain, bool complex_specials, int view, int ndim,
                         const int64_t *shape)
{
    memset(op, 0, sizeof *op);
    op->dtype = t;
    op->ndim = view == ROW ? 1 : view == ZERO_D || view == SCALAR ? 0 : ndim;
    if (view == ROW) op->shape[0] = shape[ndim - 1];
    else if (view == COLUMN) op->shape[0] = shape[0], op->shape[1] = 1;
    else for (int d = 0; d < op->ndim; d++) op->shape[d] = shape[d];
    int64_t n = elements(op->ndim, op->shape);
    size_t sz = isz(t);
    op->values = (unsigned char *)malloc((size_t)(n ? n : 1) * sz);
    if (view == BROADCAST_VIEW) { /* one random row, repeated */
        fill_domain(t, domain, complex_specials, op->values, shape[1]);
        for (int64_t r = 1; r < shape[0]; r++) memcpy(op->values + r * shape[1] * (int64_t)sz, op->values, (size_t)shape[1] * sz);
    } else {
        fill_domain(t, domain, complex_specials, op->values, n);
    }
    switch (view) {
    case SCALAR:
        /* a Python int above INT64_MAX goes only where the loop holds it, and
           NumPy's logical functions take none (they convert through a C long):
           random scalars stay below; explicit tests cover the large ones */
        if (t == GA_UINT64) memcpy(op->values, &(uint64_t){*(const uint64_t *)op->values & INT64_MAX}, 8);
        op->scalar = weak_scalar(t, op->values);
        return true;
    case STEP3: op->array = strided_view(t, op->values, n, 3); break;
    case REVERSED: op->array = strided_view(t, op->values, n, -1); break;
    case OFFSET1: op->array = strided_view(t, op->values, n, 1); break;
    case OFFSET16: op->array = offset_view(t, op->values, n, sz < 16 ? (int64_t)(16 / sz) : 1); break;
    case TRANSPOSED: op->array = transposed_view(t, op->values, shape[0], shape[1]); break;
    case BROADCAST_VIEW: {
        ga_array *row = ga_from_host(op->values, 1, &shape[1], t);
        op->array = ga_broadcast_to(row, ndim, shape);
        ga_release(row);
        break;
    }
    default: op->array = ga_from_host(op->values, op->ndim, op->shape, t); break;
    }
    if (!op->array) FAIL("making a %s input: %s", dname(t), ga_last_error_message());
    return op->array != NULL;
}

/* The value input `op` gives element k (C order) of a result of shape
   (ndim, shape), broadcast, converted to dtype `as`. */
static elem input_value(const operand *op, ga_dtype as, int ndim, const int64_t *shape, int64_t k)
{
    int64_t r = ndim == 2 ? k / shape[1] : 0, c = ndim == 2 ? k % shape[1] : k, at = 0;
    if (op->ndim == 1) at = op->shape[0] == 1 ? 0 : c;
    else if (op->ndim == 2) at = (op->shape[0] == 1 ? 0 : r) * op->shape[1] + (op->shape[1] == 1 ? 0 : c);
    return load_as(op->dtype, op->values + at * (int64_t)isz(op->dtype), as);
}

/* Compares `got` (the result, C order, dtype out_t, shape (ndim, shape))
   with the reference of `sp` for a loop of dtype `loop` on the nin inputs,
   which are converted to the dtypes in_t first. */
static void check_values(const char *what, const spec *sp, ga_dtype loop, const ga_dtype *in_t, ga_dtype out_t,
                         const operand *ops, int nin, int ndim, const int64_t *shape, const unsigned char *got)
{
    int64_t n = elements(ndim, shape), bad = 0, first = -1;
    elem first_in[2] = {{0, 0, 0}, {0, 0, 0}}, first_want = {0, 0, 0}, first_got = {0, 0, 0};
    /* power with one exponent for all elements: NumPy's float32 and float64
       loops take sqrt where it is 0.5 (sqrt(-inf) is nan, pow's inf) */
    const bool sqrt_at_half = sp == &specs[GA_UFUNC_POWER] && nin == 2 && !ops[1].array &&
                              (loop == GA_FLOAT32 || loop == GA_FLOAT64);
    for (int64_t k = 0; k < n; k++) {
        elem x[2] = {{0, 0, 0}, {0, 0, 0}};
        for (int j = 0; j < nin; j++) x[j] = input_value(&ops[j], in_t[j], ndim, shape, k);
        elem want = reference(sp, loop, nin > 1 ? in_t[1] : loop, out_t, x[0], x[1]);
        if (sqrt_at_half && x[1].re == 0.5L) want.re = sqrt_in(loop, x[0].re);
        elem g = load(out_t, got + k * (int64_t)isz(out_t));
        if (!matches(sp, loop, out_t, g, want, x[0], x[1]) && !bad++) {
            first = k;
            first_in[0] = x[0], first_in[1] = x[1];
            first_want = want, first_got = g;
        }
    }
    if (bad) {
        char a[96], b[96] = "", g[96], w[96];
        show(a, sizeof a, in_t[0], first_in[0]);
        if (nin > 1) show(b, sizeof b, in_t[1], first_in[1]);
        FAIL("%s: %lld of %lld wrong; first [%lld]: inputs %s%s%s gave %s, expected %s", what, (long long)bad,
             (long long)n, (long long)first, a, nin > 1 ? ", " : "", b, show(g, sizeof g, out_t, first_got),
             show(w, sizeof w, out_t, first_want));
    }
}

/* ---- device helpers -------------------------------------------------------- */


/* Whether `a` has dtype t and shape (ndim, shape); a failure if not. */
static bool check_array(const char *what, const ga_array *a, ga_dtype t, int ndim, const int64_t *shape)
{
    if (!a) {
        FAIL("%s failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return false;
    }
    bool same = ga_dtype_of(a) == t && ga_ndim(a) == ndim;
    for (int d = 0; same && d < ndim; d++) same = ga_shape(a)[d] == shape[d];
    if (!same) FAIL("%s: a %s array of %d dimensions (first %lld), expected %s", what, dname(ga_dtype_of(a)), ga_ndim(a),
                    ga_ndim(a) ? (long long)ga_shape(a)[0] : 0LL, dname(t));
    return same;
}

/* A 1-d destination for out=: every other element of a buffer of 2n + 1
   poisoned elements, backwards (out[k] is element 2n - 1 - 2k). */
static ga_array *gapped_out(ga_dtype t, int64_t n, ga_array **base)
{
    int64_t m = 2 * n + 1;
    unsigned char *poison = (unsigned char *)malloc((size_t)m * isz(t));
    memset(poison, 0xAB, (size_t)m * isz(t));
    *base = ga_from_host(poison, 1, &m, t);
    free(poison);
    char index[64];
    snprintf(index, sizeof index, "%lld:0:-2", (long long)(m - 2));
    return ga_index(*base, index);
}

/* Reads back a gapped destination: its n elements in order into got; a
   failure if an element between them was written. */
static void read_gapped(const char *what, const ga_array *base, ga_dtype t, int64_t n, unsigned char *got)
{
    size_t sz = isz(t);
    unsigned char *all = (unsigned char *)malloc((size_t)(2 * n + 1) * sz);
    if (download(base, all)) {
        for (int64_t k = 0; k < n; k++) memcpy(got + k * (int64_t)sz, all + (2 * n - 1 - 2 * k) * (int64_t)sz, sz);
        int64_t touched = 0;
        for (int64_t k = 0; k <= n; k++)
            for (size_t b = 0; b < sz; b++) touched += all[2 * k * (int64_t)sz + (int64_t)b] != 0xAB;
        if (touched) FAIL("%s: the gaps of out= were written (%lld bytes)", what, (long long)touched);
    }
    free(all);
}

/* ======================================================================== */
/* The generic test of one unary or binary ufunc                             */
/* ======================================================================== */

static ga_array *call_new(const ufunc_row *row, const operand *ops)
{
    if (row->nin == 1) return row->unary(ops[0].array);
    if (!ops[0].array) return row->scalar_with(ops[0].scalar, ops[1].array);
    if (!ops[1].array) return row->with_scalar(ops[0].array, ops[1].scalar);
    return row->binary(ops[0].array, ops[1].array);
}

static ga_status call_out(const ufunc_row *row, const operand *ops, ga_array *out)
{
    return row->nin == 1 ? row->unary_out(ops[0].array, out) : row->binary_out(ops[0].array, ops[1].array, out);
}

/* Runs ufunc u with loop dtype `loop` in layout L and checks the result. */
static void run_layout(ga_ufunc u, ga_dtype loop, const layout *L)
{
    const ufunc_row *row = &rows[u];
    const spec *sp = &specs[u];
    ga_dtype out_t = result_dtype(u, loop), in_t[2] = {input_dtype(u, 0, loop), input_dtype(u, 1, loop)};
    int alias = L->form == IN_PLACE_A ? 0 : L->form == IN_PLACE_B ? 1 : -1;
    if (alias >= 0 && in_t[alias] != out_t) return;                    /* in place needs the result's dtype */
    if (row->result == GA__RESULT_LDEXP && L->view[0] == SCALAR) return; /* a weak float base: the float64 loop */
    char what[192];
    snprintf(what, sizeof what, "%s %s, %s", row->name, dname(loop), L->name);
    bool specials = (is_complex(loop) ? sp->cplx_tol : sp->real_tol) <= REL;
    operand ops[2];
    memset(ops, 0, sizeof ops);
    bool made = true;
    for (int k = 0; k < row->nin && made; k++)
        made = make_operand(&ops[k], in_t[k], sp->domain[k], specials, L->view[k], L->ndim, L->shape);
    int64_t n = elements(L->ndim, L->shape);
    unsigned char *got = (unsigned char *)malloc((size_t)(n ? n : 1) * isz(out_t));
    ga_array *result = NULL, *base = NULL;
    bool have = false;
    if (!made) {
        /* reported by make_operand */
    } else if (L->form == NEW) {
        poison_next((size_t)n * isz(out_t));
        result = call_new(row, ops);
        have = check_array(what, result, out_t, L->ndim, L->shape) && download(result, got);
        if (have && L->view[0] == TRANSPOSED && (row->nin == 1 || L->view[1] == TRANSPOSED))
            CHECK(ga_flags(result) & GA_F_CONTIGUOUS, "%s: the result keeps the inputs' (Fortran) order", what);
    } else if (L->form == CALL) {
        ga_operand in[2];
        for (int k = 0; k < row->nin; k++) in[k] = ops[k].array ? ga_operand_array(ops[k].array) : ga_operand_scalar(ops[k].scalar);
        ga_array *out[2] = {NULL, NULL};
        ga_status st = ga_ufunc_call(u, in, out);
        result = out[0];
        have = st == GA_OK && check_array(what, result, out_t, L->ndim, L->shape) && download(result, got);
        if (st != GA_OK) FAIL("%s: %s", what, ga_last_error_message());
    } else if (L->form == OUT_GAPS) {
        ga_array *out = gapped_out(out_t, n, &base);
        ga_status st = call_out(row, ops, out);
        if (st != GA_OK) FAIL("%s: %s", what, ga_last_error_message());
        else read_gapped(what, base, out_t, n, got), have = true;
        ga_release(out);
    } else { /* in place */
        ga_status st = call_out(row, ops, ops[alias].array);
        if (st != GA_OK) FAIL("%s: %s", what, ga_last_error_message());
        else have = download(ops[alias].array, got);
    }
    if (have) check_values(what, sp, loop, in_t, out_t, ops, row->nin, L->ndim, L->shape, got);
    ga_clear_error();
    ga_release(result);
    ga_release(base);
    free(got);
    for (int k = 0; k < row->nin; k++) release_operand(&ops[k]);
}

/* Every loop of ufunc u, in every layout of its arity. */
static void check_ufunc(ga_ufunc u)
{
    const layout *layouts = rows[u].nin == 1 ? unary_layouts : binary_layouts;
    size_t count = rows[u].nin == 1 ? sizeof unary_layouts / sizeof unary_layouts[0]
                                    : sizeof binary_layouts / sizeof binary_layouts[0];
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        if (!has_loop(u, (ga_dtype)t)) continue;
        if (!has_reference(&specs[u], (ga_dtype)t)) {
            CHECK(0, "%s: no host reference for the %s loop", rows[u].name, dname((ga_dtype)t));
            continue;
        }
        for (size_t i = 0; i < count; i++) run_layout(u, (ga_dtype)t, &layouts[i]);
    }
}

/* One device test per ufunc of the unary and binary lists. */
#define GENERIC_TEST(E, name, loops, result, family) \
    DEVICE_TEST(ufunc_##name) { check_ufunc(GA_UFUNC_##E); }
GA_UFUNC_UNARY_LIST(GENERIC_TEST)
GA_UFUNC_BINARY_LIST(GENERIC_TEST)
#undef GENERIC_TEST

/* The two sides of the contiguous loop, which the host chooses
   (ga__ufunc_launch's args.lean): the lean loop when every operand is
   contiguous in one row, aligned to 16 bytes and of its loop's dtype, with
   no scalar input or one of a binary ufunc's; the general loop for an
   operand one element into its base (an input, or the output in place),
   with or without a weak scalar, rows. Sizes
   around every group size (2 to 16 elements: the vectors and the last
   size % K elements) and past a million (many blocks), for a cheap and a
   costly op of each arity and a comparison (bool output). */
DEVICE_TEST(ufunc_contiguous_lean_and_general_loops)
{
    static const ga_ufunc ufuncs[] = {GA_UFUNC_ADD,      GA_UFUNC_LESS, GA_UFUNC_POWER, GA_UFUNC_NEGATIVE,
                                      GA_UFUNC_EXP,      GA_UFUNC_SQRT, GA_UFUNC_ARCTAN2};
    static const int64_t sizes[] = {0, 1, 3, 4, 5, 15, 16, 17, 1023, 1025, (1 << 20) + 3};
    static const layout unary[] = {
        {"contiguous", NEW, 1, {0}, {CONTIG}},
        {"offset by one element", NEW, 1, {0}, {OFFSET1}},
        {"in place, offset by one element", IN_PLACE_A, 1, {0}, {OFFSET1}},
    };
    static const layout binary[] = {
        {"contiguous", NEW, 1, {0}, {CONTIG, CONTIG}},
        {"in place, contiguous", IN_PLACE_A, 1, {0}, {CONTIG, CONTIG}},
        {"the first input offset by one element", NEW, 1, {0}, {OFFSET1, CONTIG}},
        {"the second input offset by one element", NEW, 1, {0}, {CONTIG, OFFSET1}},
        {"both inputs offset by one element", NEW, 1, {0}, {OFFSET1, OFFSET1}},
        {"in place, offset by one element", IN_PLACE_A, 1, {0}, {OFFSET1, CONTIG}},
        {"_scalar", NEW, 1, {0}, {CONTIG, SCALAR}},
        {"_rscalar", NEW, 1, {0}, {SCALAR, CONTIG}},
        {"_scalar, offset by one element", NEW, 1, {0}, {OFFSET1, SCALAR}},
        {"_rscalar, offset by one element", NEW, 1, {0}, {SCALAR, OFFSET1}},
    };
    static const layout rows_of[] = {
        {"a matrix of long rows with a row", NEW, 2, {3, 2049}, {CONTIG, ROW}},
        {"a row with a matrix of long rows", NEW, 2, {5, 4099}, {ROW, CONTIG}},
        {"in place, a matrix of long rows with a row", IN_PLACE_A, 2, {3, 2051}, {CONTIG, ROW}},
    };
    for (size_t i = 0; i < sizeof ufuncs / sizeof ufuncs[0]; i++) {
        const ga_ufunc u = ufuncs[i];
        const bool one = rows[u].nin == 1;
        const layout *layouts = one ? unary : binary;
        const size_t count = one ? sizeof unary / sizeof unary[0] : sizeof binary / sizeof binary[0];
        for (int t = 0; t < GA_NUM_DTYPES; t++) {
            if (!has_loop(u, (ga_dtype)t) || !has_reference(&specs[u], (ga_dtype)t)) continue;
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                /* past a million: three loops, in the first layouts (the contiguous one and an offset one,
                   for a binary ufunc the scalar one: the others' sizes cover their groups) */
                const bool big = sizes[s] > 4096;
                if (big && t != GA_FLOAT32 && t != GA_FLOAT64 && t != GA_INT8) continue;
                for (size_t k = 0; k < count; k++) {
                    if (big && (one ? k > 1 : k != 0 && k != 2 && k != 6)) continue;
                    layout L = layouts[k];
                    L.shape[0] = sizes[s];
                    run_layout(u, (ga_dtype)t, &L);
                }
            }
            /* rows of 2048 or more: the general loop's rows (blockIdx.y), a broadcast row's step 0 */
            const size_t row_layouts = one ? 0 : sizeof rows_of / sizeof rows_of[0];
            for (size_t k = 0; k < row_layouts; k++) run_layout(u, (ga_dtype)t, &rows_of[k]);
        }
    }
}

/* ======================================================================== */
/* Host tests: names, arities, loop resolution, references                   */
/* ======================================================================== */

TEST(ufunc_names_and_arities)
{
    for (int u = 0; u < GA_NUM_UFUNCS; u++) {
        const char *name = ga_ufunc_name((ga_ufunc)u);
        CHECK(name && strcmp(name, rows[u].name) == 0, "ufunc %d is '%s', expected '%s'", u, name ? name : "(null)",
              rows[u].name);
        CHECK(ga_ufunc_nin((ga_ufunc)u) == rows[u].nin && ga_ufunc_nout((ga_ufunc)u) == rows[u].nout,
              "%s: %d inputs, %d outputs", rows[u].name, ga_ufunc_nin((ga_ufunc)u), ga_ufunc_nout((ga_ufunc)u));
    }
    CHECK(ga_ufunc_name(GA_NUM_UFUNCS) == NULL && ga_ufunc_name((ga_ufunc)-1) == NULL, "no name out of range");
    CHECK(ga_ufunc_nin(GA_NUM_UFUNCS) == -1 && ga_ufunc_nout((ga_ufunc)-1) == -1, "no arity out of range");
}

TEST(ufunc_every_loop_has_a_host_reference)
{
    for (int u = 0; u < GA_NUM_UFUNCS; u++) {
        if (rows[u].unary == NULL && rows[u].binary == NULL) continue; /* the other list: tests of their own */
        for (int t = 0; t < GA_NUM_DTYPES; t++)
            if (has_loop((ga_ufunc)u, (ga_dtype)t))
                CHECK(has_reference(&specs[u], (ga_dtype)t), "%s has a %s loop and no reference here", rows[u].name,
                      dname((ga_dtype)t));
    }
}

/* NumPy 2's answers (numpy.<ufunc>.resolve_dtypes and the dtypes of small
   calls); ml_dtypes' for bfloat16. */
TEST(ufunc_resolve_dtypes_as_numpy)
{
#define S GA_DTYPE_INVALID /* an input that is a weak scalar */
    static const struct {
        ga_ufunc u;
        ga_dtype in[3];
        ga_scalar_kind scalar; /* the kind of the inputs marked S */
        ga_dtype out[2];       /* GA_DTYPE_INVALID: GA_ERROR_TYPE */
    } cases[] = {
        {GA_UFUNC_ADD, {GA_INT8, GA_UINT8}, 0, {GA_INT16}},
        {GA_UFUNC_ADD, {GA_INT64, GA_UINT64}, 0, {GA_FLOAT64}},
        {GA_UFUNC_ADD, {GA_BOOL, GA_BOOL}, 0, {GA_BOOL}},
        {GA_UFUNC_ADD, {GA_FLOAT16, GA_BFLOAT16}, 0, {GA_FLOAT32}},
        {GA_UFUNC_ADD, {GA_COMPLEX64, GA_FLOAT64}, 0, {GA_COMPLEX128}},
        {GA_UFUNC_ADD, {GA_INT8, S}, GA_SCALAR_INT, {GA_INT8}},
        {GA_UFUNC_ADD, {GA_INT8, S}, GA_SCALAR_FLOAT, {GA_FLOAT64}},
        {GA_UFUNC_ADD, {S, GA_FLOAT16}, GA_SCALAR_FLOAT, {GA_FLOAT16}},
        {GA_UFUNC_ADD, {GA_BOOL, S}, GA_SCALAR_INT, {GA_INT64}},
        {GA_UFUNC_ADD, {GA_FLOAT32, S}, GA_SCALAR_COMPLEX, {GA_COMPLEX64}},
        {GA_UFUNC_ADD, {GA_INT8, S}, GA_SCALAR_COMPLEX, {GA_COMPLEX128}},
        {GA_UFUNC_MULTIPLY, {GA_UINT8, S}, GA_SCALAR_BOOL, {GA_UINT8}},
        {GA_UFUNC_MULTIPLY, {GA_INT16, GA_FLOAT16}, 0, {GA_FLOAT32}},
        {GA_UFUNC_SUBTRACT, {GA_BOOL, GA_BOOL}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_NEGATIVE, {GA_BOOL}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_POSITIVE, {GA_BOOL}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_SIGN, {GA_BOOL}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_GCD, {GA_BOOL, GA_BOOL}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_SQUARE, {GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_RECIPROCAL, {GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_ABSOLUTE, {GA_BOOL}, 0, {GA_BOOL}},
        {GA_UFUNC_ABSOLUTE, {GA_COMPLEX64}, 0, {GA_FLOAT32}},
        {GA_UFUNC_ABSOLUTE, {GA_COMPLEX128}, 0, {GA_FLOAT64}},
        {GA_UFUNC_FLOOR, {GA_INT32}, 0, {GA_INT32}},
        {GA_UFUNC_FLOOR, {GA_BOOL}, 0, {GA_BOOL}},
        {GA_UFUNC_RINT, {GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_INVERT, {GA_BOOL}, 0, {GA_BOOL}},
        {GA_UFUNC_SQRT, {GA_BOOL}, 0, {GA_FLOAT16}},
        {GA_UFUNC_SQRT, {GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_SQRT, {GA_UINT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_SQRT, {GA_INT16}, 0, {GA_FLOAT32}},
        {GA_UFUNC_SQRT, {GA_UINT16}, 0, {GA_FLOAT32}},
        {GA_UFUNC_SQRT, {GA_INT32}, 0, {GA_FLOAT64}},
        {GA_UFUNC_SQRT, {GA_UINT64}, 0, {GA_FLOAT64}},
        {GA_UFUNC_CBRT, {GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_SPACING, {GA_INT16}, 0, {GA_FLOAT32}},
        {GA_UFUNC_ISNAN, {GA_INT8}, 0, {GA_BOOL}},
        {GA_UFUNC_SIGNBIT, {GA_INT8}, 0, {GA_BOOL}},
        {GA_UFUNC_SINC, {GA_INT16}, 0, {GA_FLOAT64}},
        {GA_UFUNC_SINC, {GA_FLOAT16}, 0, {GA_FLOAT16}},
        {GA_UFUNC_DIVIDE, {GA_INT8, GA_INT8}, 0, {GA_FLOAT64}},
        {GA_UFUNC_DIVIDE, {GA_BOOL, GA_BOOL}, 0, {GA_FLOAT64}},
        {GA_UFUNC_DIVIDE, {GA_FLOAT16, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_FLOOR_DIVIDE, {GA_BOOL, GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_REMAINDER, {GA_BOOL, GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_FMOD, {GA_UINT64, GA_INT64}, 0, {GA_FLOAT64}},
        {GA_UFUNC_POWER, {GA_BOOL, GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_FLOAT_POWER, {GA_FLOAT32, GA_FLOAT32}, 0, {GA_FLOAT64}},
        {GA_UFUNC_FLOAT_POWER, {GA_INT8, GA_INT8}, 0, {GA_FLOAT64}},
        {GA_UFUNC_FLOAT_POWER, {GA_COMPLEX64, GA_COMPLEX64}, 0, {GA_COMPLEX128}},
        {GA_UFUNC_LESS, {GA_INT64, GA_UINT64}, 0, {GA_BOOL}},
        {GA_UFUNC_EQUAL, {GA_COMPLEX64, GA_FLOAT64}, 0, {GA_BOOL}},
        {GA_UFUNC_LESS, {GA_INT8, S}, GA_SCALAR_INT, {GA_BOOL}},
        {GA_UFUNC_LOGICAL_AND, {GA_FLOAT32, GA_INT8}, 0, {GA_BOOL}},
        {GA_UFUNC_MAXIMUM, {GA_INT8, GA_UINT8}, 0, {GA_INT16}},
        {GA_UFUNC_COPYSIGN, {GA_INT8, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_NEXTAFTER, {GA_FLOAT16, GA_FLOAT32}, 0, {GA_FLOAT32}},
        {GA_UFUNC_LDEXP, {GA_FLOAT32, GA_INT64}, 0, {GA_FLOAT32}},
        {GA_UFUNC_LDEXP, {GA_INT8, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_LDEXP, {GA_FLOAT32, GA_FLOAT32}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_HEAVISIDE, {GA_INT8, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_LEFT_SHIFT, {GA_BOOL, GA_BOOL}, 0, {GA_INT8}},
        {GA_UFUNC_GCD, {GA_INT8, GA_UINT8}, 0, {GA_INT16}},
        {GA_UFUNC_BITWISE_AND, {GA_FLOAT32, GA_FLOAT32}, 0, {GA_DTYPE_INVALID}},
        {GA_UFUNC_ARCTAN2, {GA_INT8, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_LOGADDEXP, {GA_INT8, GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_DIVMOD, {GA_BOOL, GA_BOOL}, 0, {GA_INT8, GA_INT8}},
        {GA_UFUNC_MODF, {GA_INT8}, 0, {GA_FLOAT16, GA_FLOAT16}},
        {GA_UFUNC_FREXP, {GA_FLOAT16}, 0, {GA_FLOAT16, GA_INT32}},
        {GA_UFUNC_FREXP, {GA_INT8}, 0, {GA_FLOAT16, GA_INT32}},
        {GA_UFUNC_WHERE, {GA_BOOL, GA_INT8, GA_UINT8}, 0, {GA_INT16}},
        {GA_UFUNC_WHERE, {GA_FLOAT32, GA_INT8, S}, GA_SCALAR_INT, {GA_INT8}},
        {GA_UFUNC_CLIP, {GA_INT8, GA_INT16, GA_INT8}, 0, {GA_INT16}},
        {GA_UFUNC_ISCLOSE, {GA_INT8, GA_INT8}, 0, {GA_BOOL}},
        {GA_UFUNC_ROUND, {GA_FLOAT16}, 0, {GA_FLOAT16}},
        {GA_UFUNC_NAN_TO_NUM, {GA_INT32}, 0, {GA_INT32}},
        {GA_UFUNC_ANGLE, {GA_INT8}, 0, {GA_FLOAT16}},
        {GA_UFUNC_ANGLE, {GA_BOOL}, 0, {GA_FLOAT64}},
        {GA_UFUNC_ANGLE, {GA_COMPLEX64}, 0, {GA_FLOAT32}},
    };
#undef S
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ga_ufunc u = cases[i].u;
        ga_scalar scalars[3];
        for (int k = 0; k < 3; k++)
            scalars[k] = cases[i].scalar == GA_SCALAR_FLOAT ? ga_float(0.5) : cases[i].scalar == GA_SCALAR_COMPLEX
                       ? ga_complex(0, 1) : cases[i].scalar == GA_SCALAR_BOOL ? ga_bool(true) : ga_int(2);
        ga_dtype out[2] = {GA_DTYPE_INVALID, GA_DTYPE_INVALID};
        ga_status st = ga_ufunc_resolve_dtypes(u, cases[i].in, scalars, out);
        if (cases[i].out[0] == GA_DTYPE_INVALID) {
            CHECK(st == GA_ERROR_TYPE && strstr(ga_last_error_message(), rows[u].name),
                  "case %zu: %s(%s, ...) should be a type error naming the ufunc, got %s: %s", i, rows[u].name,
                  dname(cases[i].in[0]), ga_status_string(st), ga_last_error_message());
        } else {
            CHECK(st == GA_OK && out[0] == cases[i].out[0] && (rows[u].nout < 2 || out[1] == cases[i].out[1]),
                  "case %zu: %s(%s, ...) resolved to %s %s (%s), expected %s", i, rows[u].name, dname(cases[i].in[0]),
                  dname(out[0]), rows[u].nout > 1 ? dname(out[1]) : "", st ? ga_last_error_message() : "ok",
                  dname(cases[i].out[0]));
        }
        ga_clear_error();
    }
}

/* ======================================================================== */
/* divmod, modf, frexp: two outputs                                          */
/* ======================================================================== */

static long double r_modf_fraction(long double a, long double b, ga_dtype t)
{
    long double integral;
    (void)b, (void)t;
    return modfl(a, &integral);
}
static long double r_modf_integral(long double a, long double b, ga_dtype t)
{
    long double integral;
    (void)b, (void)t;
    modfl(a, &integral);
    return integral;
}
/* NumPy's frexp: (a, 0) for infinities and NaN */
static long double r_frexp_mantissa(long double a, long double b, ga_dtype t)
{
    int e;
    (void)b, (void)t;
    return isfinite(a) ? frexpl(a, &e) : a;
}
static long double r_frexp_exponent(long double a, long double b, ga_dtype t)
{
    int e = 0;
    (void)b, (void)t;
    if (isfinite(a)) frexpl(a, &e);
    return e;
}

/* The references of each output. */
static const spec divmod_outputs[2] = {
    {r_floor_divide, NULL, i_floor_divide, EXACT, EXACT, {D_ANY, D_ANY}},
    {r_remainder, NULL, i_remainder, EXACT, EXACT, {D_ANY, D_ANY}},
};
static const spec modf_outputs[2] = {
    {r_modf_fraction, NULL, NULL, EXACT, EXACT, {D_ANY, D_ANY}},
    {r_modf_integral, NULL, NULL, EXACT, EXACT, {D_ANY, D_ANY}},
};
static const spec frexp_outputs[2] = {
    {r_frexp_mantissa, NULL, NULL, EXACT, EXACT, {D_ANY, D_ANY}},
    {r_frexp_exponent, NULL, NULL, EXACT, EXACT, {D_ANY, D_ANY}},
};

/* Layouts of the two-output functions: NEW calls ga_divmod, ga_modf or
   ga_frexp; CALL calls ga_ufunc_call with out[0] a reversed view with gaps
   and out[1] new. */
static const layout pair_layouts[] = {
    {"1 element", NEW, 1, {1}, {CONTIG, CONTIG}},
    {"33 elements", NEW, 1, {33}, {CONTIG, CONTIG}},
    {"1025 elements", NEW, 1, {1025}, {CONTIG, CONTIG}},
    {"4097 elements", NEW, 1, {4097}, {CONTIG, CONTIG}},
    {"a step-3 view with a reversed view", NEW, 1, {1025}, {STEP3, REVERSED}},
    {"a transposed matrix with a row", NEW, 2, {33, 31}, {TRANSPOSED, ROW}},
    {"0-d", NEW, 0, {0}, {ZERO_D, ZERO_D}},
    {"empty", NEW, 1, {0}, {CONTIG, CONTIG}},
    {"ga_ufunc_call, out[0] a reversed view with gaps", CALL, 1, {1025}, {CONTIG, REVERSED}},
    {"ga_ufunc_call with a scalar second", CALL, 1, {1025}, {CONTIG, SCALAR}},
};

static void run_pair(ga_ufunc u, const spec outputs[2], ga_dtype loop, const layout *L)
{
    int nin = rows[u].nin;
    if (nin == 1 && L->view[1] == SCALAR) return;
    ga_dtype in_t[2] = {loop, loop}, out_t[2] = {loop, u == GA_UFUNC_FREXP ? GA_INT32 : loop};
    char what[2][192];
    for (int k = 0; k < 2; k++)
        snprintf(what[k], sizeof what[k], "%s %s output %d, %s", rows[u].name, dname(loop), k, L->name);
    operand ops[2];
    memset(ops, 0, sizeof ops);
    bool made = true;
    for (int k = 0; k < nin && made; k++) made = make_operand(&ops[k], loop, D_ANY, true, L->view[k], L->ndim, L->shape);
    int64_t n = elements(L->ndim, L->shape);
    unsigned char *got[2];
    for (int k = 0; k < 2; k++) got[k] = (unsigned char *)malloc((size_t)(n ? n : 1) * isz(out_t[k]));
    ga_array *res[2] = {NULL, NULL}, *base = NULL, *gapped = NULL;
    bool have = false;
    if (made && L->form == NEW) {
        ga_status st = u == GA_UFUNC_DIVMOD ? ga_divmod(ops[0].array, ops[1].array, &res[0], &res[1])
                     : u == GA_UFUNC_MODF   ? ga_modf(ops[0].array, &res[0], &res[1])
                                            : ga_frexp(ops[0].array, &res[0], &res[1]);
        if (st != GA_OK) FAIL("%s: %s", what[0], ga_last_error_message());
        have = st == GA_OK && check_array(what[0], res[0], out_t[0], L->ndim, L->shape) &&
               check_array(what[1], res[1], out_t[1], L->ndim, L->shape) && download(res[0], got[0]) &&
               download(res[1], got[1]);
    } else if (made) {
        ga_operand in[2];
        for (int k = 0; k < nin; k++) in[k] = ops[k].array ? ga_operand_array(ops[k].array) : ga_operand_scalar(ops[k].scalar);
        gapped = gapped_out(out_t[0], n, &base);
        res[0] = ga_retain(gapped);
        ga_status st = ga_ufunc_call(u, in, res);
        if (st != GA_OK) FAIL("%s: %s", what[0], ga_last_error_message());
        have = st == GA_OK && res[0] == gapped && check_array(what[1], res[1], out_t[1], L->ndim, L->shape) &&
               download(res[1], got[1]);
        if (have) read_gapped(what[0], base, out_t[0], n, got[0]);
    }
    if (have)
        for (int k = 0; k < 2; k++) check_values(what[k], &outputs[k], loop, in_t, out_t[k], ops, nin, L->ndim, L->shape, got[k]);
    ga_clear_error();
    for (int k = 0; k < 2; k++) {
        ga_release(res[k]);
        free(got[k]);
    }
    ga_release(gapped);
    ga_release(base);
    for (int k = 0; k < nin; k++) release_operand(&ops[k]);
}

static void check_pair(ga_ufunc u, const spec outputs[2])
{
    for (int t = 0; t < GA_NUM_DTYPES; t++)
        if (has_loop(u, (ga_dtype)t))
            for (size_t i = 0; i < sizeof pair_layouts / sizeof pair_layouts[0]; i++)
                run_pair(u, outputs, (ga_dtype)t, &pair_layouts[i]);
}

DEVICE_TEST(ufunc_divmod) { check_pair(GA_UFUNC_DIVMOD, divmod_outputs); }
DEVICE_TEST(ufunc_pair_offset_views)
{
    /* the contiguous loop with two outputs, its lean loop (aligned) and its
       general one (an input one element into its base) */
    static const int64_t sizes[] = {3, 5, 1023, 1025};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const layout L[2] = {{"contiguous", NEW, 1, {sizes[i]}, {CONTIG, CONTIG}},
                             {"offset by one element", NEW, 1, {sizes[i]}, {OFFSET1, OFFSET1}}};
        for (int t = 0; t < GA_NUM_DTYPES; t++)
            for (int k = 0; k < 2; k++) {
                if (has_loop(GA_UFUNC_DIVMOD, (ga_dtype)t)) run_pair(GA_UFUNC_DIVMOD, divmod_outputs, (ga_dtype)t, &L[k]);
                if (has_loop(GA_UFUNC_FREXP, (ga_dtype)t)) run_pair(GA_UFUNC_FREXP, frexp_outputs, (ga_dtype)t, &L[k]);
            }
    }
}
DEVICE_TEST(ufunc_modf) { check_pair(GA_UFUNC_MODF, modf_outputs); }
DEVICE_TEST(ufunc_frexp) { check_pair(GA_UFUNC_FREXP, frexp_outputs); }

/* ======================================================================== */
/* where, clip                                                                */
/* ======================================================================== */

static bool nonzero(ga_dtype t, elem e) { return is_exact(t) ? e.i != 0 : e.re != 0 || e.im != 0; }

/* Whether two elements of dtype t are the same value (any NaN matching any
   NaN; the sign of zero counts). */
static bool identical(ga_dtype t, elem a, elem b)
{
    if (is_exact(t)) return a.i == b.i;
    ga_dtype p = part_of(t);
    return real_matches(p, EXACT, a.re, b.re, 0) && (!is_complex(t) || real_matches(p, EXACT, a.im, b.im, 0));
}

/* where(cond, x, y) on operands of the given views, the result of dtype
   out_t and shape (ndim, shape), through ga_where or, when an operand is a
   scalar, ga_ufunc_call. */
static void run_where(ga_dtype cond_t, ga_dtype x_t, ga_dtype y_t, ga_dtype out_t, const int view[3], int ndim,
                      const int64_t *shape)
{
    char what[160];
    snprintf(what, sizeof what, "where(%s, %s, %s) with views %d %d %d", dname(cond_t), dname(x_t), dname(y_t), view[0],
             view[1], view[2]);
    operand ops[3];
    memset(ops, 0, sizeof ops);
    const ga_dtype types[3] = {cond_t, x_t, y_t};
    bool made = true;
    for (int k = 0; k < 3 && made; k++) made = make_operand(&ops[k], types[k], D_ANY, true, view[k], ndim, shape);
    int64_t n = elements(ndim, shape);
    unsigned char *got = (unsigned char *)malloc((size_t)(n ? n : 1) * isz(out_t));
    ga_array *r = NULL;
    if (made) {
        if (ops[1].array && ops[2].array) {
            r = ga_where(ops[0].array, ops[1].array, ops[2].array);
        } else {
            ga_operand in[3];
            for (int k = 0; k < 3; k++) in[k] = ops[k].array ? ga_operand_array(ops[k].array) : ga_operand_scalar(ops[k].scalar);
            ga_array *out[2] = {NULL, NULL};
            if (ga_ufunc_call(GA_UFUNC_WHERE, in, out) == GA_OK) r = out[0];
        }
    }
    if (made && check_array(what, r, out_t, ndim, shape) && download(r, got)) {
        int64_t bad = 0;
        for (int64_t k = 0; k < n; k++) {
            elem c = input_value(&ops[0], cond_t, ndim, shape, k);
            elem want = input_value(&ops[nonzero(cond_t, c) ? 1 : 2], out_t, ndim, shape, k);
            bad += !identical(out_t, load(out_t, got + k * (int64_t)isz(out_t)), want);
        }
        if (bad) FAIL("%s: %lld of %lld wrong", what, (long long)bad, (long long)n);
    }
    ga_clear_error();
    ga_release(r);
    free(got);
    for (int k = 0; k < 3; k++) release_operand(&ops[k]);
}

DEVICE_TEST(ufunc_where)
{
    static const ga_dtype conds[] = {GA_BOOL, GA_INT8, GA_FLOAT32, GA_COMPLEX64}; /* NaN and -0.0 among the floats */
    const int64_t vec[1] = {1025}, mat[2] = {7, 31};
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        if (!has_loop(GA_UFUNC_WHERE, (ga_dtype)t)) continue;
        for (size_t c = 0; c < sizeof conds / sizeof conds[0]; c++)
            run_where(conds[c], (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){CONTIG, CONTIG, CONTIG}, 1, vec);
        run_where(GA_BOOL, (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){STEP3, REVERSED, CONTIG}, 1, vec);
        run_where(GA_BOOL, (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){COLUMN, ROW, ZERO_D}, 2, mat);
        run_where(GA_BOOL, (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){CONTIG, CONTIG, SCALAR}, 1, vec);
        /* the contiguous loop's general side: inputs one element into their bases */
        run_where(GA_BOOL, (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){OFFSET1, CONTIG, CONTIG}, 1, vec);
        run_where(GA_BOOL, (ga_dtype)t, (ga_dtype)t, (ga_dtype)t, (const int[]){CONTIG, OFFSET1, OFFSET1}, 1, vec);
    }
    /* the common dtype of x and y; weak scalars take the array's */
    run_where(GA_BOOL, GA_INT8, GA_UINT8, GA_INT16, (const int[]){CONTIG, CONTIG, CONTIG}, 1, vec);
    run_where(GA_BOOL, GA_FLOAT32, GA_INT64, GA_FLOAT64, (const int[]){CONTIG, CONTIG, CONTIG}, 1, vec);
    run_where(GA_FLOAT64, GA_FLOAT16, GA_FLOAT32, GA_FLOAT32, (const int[]){CONTIG, TRANSPOSED, ROW}, 2, mat);
    run_where(GA_BOOL, GA_FLOAT32, GA_FLOAT32, GA_FLOAT32, (const int[]){CONTIG, SCALAR, CONTIG}, 1, vec);
    run_where(GA_INT32, GA_INT8, GA_INT8, GA_INT8, (const int[]){CONTIG, CONTIG, SCALAR}, 1, vec);

    /* out= through ga_ufunc_call, and a 0-d condition */
    double xv[3] = {1, 2, 3}, yv[3] = {-1, -2, -3}, got[3] = {0, 0, 0};
    bool no = false;
    ga_array *x = ga_from_host(xv, 1, (const int64_t[]){3}, GA_FLOAT64), *y = ga_from_host(yv, 1, (const int64_t[]){3}, GA_FLOAT64);
    ga_array *cond = ga_from_host(&no, 0, NULL, GA_BOOL), *out = ga_zeros(1, (const int64_t[]){3}, GA_FLOAT64);
    ga_operand in[3] = {ga_operand_array(cond), ga_operand_array(x), ga_operand_array(y)};
    ga_array *outs[2] = {out, NULL};
    CHECK_OK(ga_ufunc_call(GA_UFUNC_WHERE, in, outs));
    CHECK(outs[0] == out, "out= is the given array");
    CHECK_OK(ga_to_host(out, got, sizeof got));
    CHECK(got[0] == -1 && got[1] == -2 && got[2] == -3, "a false 0-d condition picks y: %g %g %g", got[0], got[1], got[2]);
    ga_release(x), ga_release(y), ga_release(cond), ga_release(out);
}

/* NumPy's complex clip steps (its clip loop): max(v, b) keeps v where v > b
   in the lexicographic order or v has a NaN part, else takes b; min alike. */
static elem complex_clip_step(elem v, elem b, bool greater)
{
    bool nan = isnan(v.re) || isnan(v.im);
    bool keep = greater ? v.re > b.re || (v.re == b.re && v.im > b.im) : v.re < b.re || (v.re == b.re && v.im < b.im);
    return nan || keep ? v : b;
}

/* clip(a, lo, hi) = minimum(maximum(a, lo), hi), NaN propagating, but for
   complex with both bounds NumPy's clip steps (complex_clip_step): checks r
   against it; lo or hi NULL leaves that bound out (np.clip then calls
   maximum or minimum). */
static void check_clip(const char *what, const ga_array *r, ga_dtype t, const operand *a, const operand *lo,
                       const operand *hi, int ndim, const int64_t *shape)
{
    int64_t n = elements(ndim, shape), bad = 0;
    unsigned char *got = (unsigned char *)malloc((size_t)(n ? n : 1) * isz(t));
    const bool complex_steps = (t == GA_COMPLEX64 || t == GA_COMPLEX128) && lo && hi;
    if (check_array(what, r, t, ndim, shape) && download(r, got)) {
        const spec *maximum = &specs[GA_UFUNC_MAXIMUM], *minimum = &specs[GA_UFUNC_MINIMUM];
        for (int64_t k = 0; k < n; k++) {
            elem v = input_value(a, t, ndim, shape, k), b = {0, 0, 0};
            if (complex_steps) {
                v = complex_clip_step(v, input_value(lo, t, ndim, shape, k), true);
                b = input_value(hi, t, ndim, shape, k), v = complex_clip_step(v, b, false);
            } else {
                if (lo) b = input_value(lo, t, ndim, shape, k), v = reference(maximum, t, t, t, v, b);
                if (hi) b = input_value(hi, t, ndim, shape, k), v = reference(minimum, t, t, t, v, b);
            }
            bad += !matches(minimum, t, t, load(t, got + k * (int64_t)isz(t)), v, v, b);
        }
        if (bad) FAIL("%s: %lld of %lld wrong", what, (long long)bad, (long long)n);
    }
    ga_clear_error();
    free(got);
}

DEVICE_TEST(ufunc_clip)
{
    const int64_t mat[2] = {7, 31};
    for (int ti = 0; ti < GA_NUM_DTYPES; ti++) {
        ga_dtype t = (ga_dtype)ti;
        if (!has_loop(GA_UFUNC_CLIP, t)) continue;
        char what[96];
        operand a, lo, hi, slo, shi;
        if (!make_operand(&a, t, D_ANY, true, CONTIG, 2, mat) || !make_operand(&lo, t, D_ANY, true, ROW, 2, mat) ||
            !make_operand(&hi, t, D_ANY, true, ZERO_D, 2, mat) || !make_operand(&slo, t, D_ANY, true, SCALAR, 2, mat) ||
            !make_operand(&shi, t, D_ANY, true, SCALAR, 2, mat))
            continue;
        ga_array *r = ga_clip(a.array, lo.array, hi.array);
        snprintf(what, sizeof what, "clip %s with a row and a 0-d bound", dname(t));
        check_clip(what, r, t, &a, &lo, &hi, 2, mat);
        ga_release(r);
        r = ga_clip(a.array, NULL, hi.array);
        snprintf(what, sizeof what, "clip %s without a lower bound", dname(t));
        check_clip(what, r, t, &a, NULL, &hi, 2, mat);
        ga_release(r);
        r = ga_clip(a.array, lo.array, NULL);
        snprintf(what, sizeof what, "clip %s without an upper bound", dname(t));
        check_clip(what, r, t, &a, &lo, NULL, 2, mat);
        ga_release(r);
        r = ga_clip_scalar(a.array, slo.scalar, shi.scalar);
        snprintf(what, sizeof what, "clip_scalar %s", dname(t));
        check_clip(what, r, t, &a, &slo, &shi, 2, mat);
        ga_release(r);
        release_operand(&a), release_operand(&lo), release_operand(&hi), release_operand(&slo), release_operand(&shi);
    }
    /* NaN anywhere propagates */
    float av[3] = {NAN, 1, 5}, lov[3] = {0, NAN, 0}, hiv[3] = {2, 2, NAN}, got[3] = {0, 0, 0};
    ga_array *a = ga_from_host(av, 1, (const int64_t[]){3}, GA_FLOAT32), *lo = ga_from_host(lov, 1, (const int64_t[]){3}, GA_FLOAT32);
    ga_array *hi = ga_from_host(hiv, 1, (const int64_t[]){3}, GA_FLOAT32), *r = ga_clip(a, lo, hi);
    CHECK(r && ga_to_host(r, got, sizeof got) == GA_OK && isnan(got[0]) && isnan(got[1]) && isnan(got[2]),
          "NaN in a, lo or hi gives NaN: %g %g %g", got[0], got[1], got[2]);
    ga_release(r);
    /* Python int bounds take the array's dtype */
    r = ga_clip_scalar(a, ga_int(0), ga_int(3));
    CHECK(r && ga_dtype_of(r) == GA_FLOAT32, "weak int bounds keep float32");
    ga_release(r), ga_release(a), ga_release(lo), ga_release(hi);
    /* np.clip drops a Python int bound beyond an integer a's range: clip is
       then maximum(a, lo), whose complex form keeps lo = inf+1j above the
       uint64 values and takes a NaN part of lo, where clip's loop would
       compare with the bound */
    const uint64_t uv[3] = {1, 2, 3};
    const double zv[6] = {INFINITY, 1, 1, NAN, 0, 0}; /* inf+1j, 1+nanj, 0 */
    ga_array *ua = ga_from_host(uv, 1, (const int64_t[]){3}, GA_UINT64);
    ga_array *zlo = ga_from_host(zv, 1, (const int64_t[]){3}, GA_COMPLEX128);
    ga_operand in[3] = {ga_operand_array(ua), ga_operand_array(zlo), ga_operand_scalar(ga_uint(UINT64_MAX))};
    ga_array *outs[1] = {NULL};
    double zg[6] = {0};
    CHECK(ga_ufunc_call(GA_UFUNC_CLIP, in, outs) == GA_OK && ga_to_host(outs[0], zg, sizeof zg) == GA_OK &&
              zg[0] == INFINITY && zg[1] == 1 && zg[2] == 1 && isnan(zg[3]) && zg[4] == 3 && zg[5] == 0,
          "clip(uint64, complex lo, 2**64 - 1) is maximum(a, lo): %g%+gj %g%+gj %g%+gj", zg[0], zg[1], zg[2], zg[3],
          zg[4], zg[5]);
    ga_release(outs[0]);
    in[1] = ga_operand_scalar(ga_int(0)), in[2] = ga_operand_scalar(ga_uint(UINT64_MAX));
    outs[0] = NULL;
    uint64_t ug[3] = {0};
    CHECK(ga_ufunc_call(GA_UFUNC_CLIP, in, outs) == GA_OK && ga_dtype_of(outs[0]) == GA_UINT64 &&
              ga_to_host(outs[0], ug, sizeof ug) == GA_OK && ug[0] == 1 && ug[2] == 3,
          "clip(uint64, 0, 2**64 - 1) is positive(a)");
    ga_release(outs[0]), ga_release(ua), ga_release(zlo);
}

/* ======================================================================== */
/* isclose, allclose                                                          */
/* ======================================================================== */

/* NumPy's isclose on exact values. */
static bool isclose_ref(elem a, elem b, bool complex_values, long double rtol, long double atol, bool equal_nan)
{
    long double diff, mb;
    bool b_finite, equal, a_nan, b_nan;
    if (complex_values) {
        diff = hypotl(a.re - b.re, a.im - b.im), mb = hypotl(b.re, b.im);
        b_finite = isfinite(b.re) && isfinite(b.im), equal = a.re == b.re && a.im == b.im;
        a_nan = isnan(a.re) || isnan(a.im), b_nan = isnan(b.re) || isnan(b.im);
    } else {
        diff = fabsl(a.re - b.re), mb = fabsl(b.re);
        b_finite = isfinite(b.re), equal = a.re == b.re, a_nan = isnan(a.re), b_nan = isnan(b.re);
    }
    return (diff <= atol + rtol * mb && b_finite) || equal || (equal_nan && a_nan && b_nan);
}

/* n pairs (a, b) of dtype t, either clearly within rtol/atol of each other
   (distance at most 0.8 of the tolerance) or clearly not (1.25 of it or
   more), so that rounding in the loop's precision cannot change the answer;
   a tenth are special pairs. */
static void make_close_pairs(ga_dtype t, double rtol, double atol, unsigned char *a, unsigned char *b, int64_t n)
{
    static const double specials[][2] = {{NAN, NAN}, {INFINITY, INFINITY}, {-INFINITY, INFINITY}, {INFINITY, 1},
                                         {1, INFINITY}, {NAN, 1}, {1, NAN}, {0.0, -0.0}};
    static const double factors[] = {0, 0.3, -0.6, 0.8, 1.25, -2, 5, -40};
    ga_dtype p = part_of(t);
    size_t sz = isz(t), psz = isz(p);
    for (int64_t i = 0; i < n; i++) {
        double bv[2] = {0, 0}, av[2] = {0, 0};
        if (rnd() % 10 == 0) {
            const double *s = specials[rnd() % (sizeof specials / sizeof specials[0])];
            av[0] = s[0], bv[0] = s[1];
        } else {
            for (;;) {
                for (int k = 0; k < 1 + is_complex(t); k++)
                    bv[k] = rnd() % 8 == 0 ? 0.0 : rnd() & 1 ? rnd_between(-100, 100) : ldexp(rnd_between(-1, 1), (int)rnd_int(-20, 20));
                for (int k = 0; k < 2; k++) bv[k] = (double)round_to(p, bv[k]);
                double tol = atol + rtol * hypot(bv[0], bv[1]), f = factors[rnd() % (sizeof factors / sizeof factors[0])];
                double angle = is_complex(t) ? rnd_between(0, 6.283185307179586) : 0;
                av[0] = (double)round_to(p, bv[0] + f * tol * cos(angle));
                av[1] = (double)round_to(p, bv[1] + f * tol * sin(angle));
                double q = hypot(av[0] - bv[0], av[1] - bv[1]) / tol;
                if (q <= 0.8 || q >= 1.25) break;
            }
        }
        for (int k = 0; k < 1 + is_complex(t); k++) {
            ref_from_double(p, av[k], a + i * (int64_t)sz + k * (int64_t)psz);
            ref_from_double(p, bv[k], b + i * (int64_t)sz + k * (int64_t)psz);
        }
    }
}

DEVICE_TEST(ufunc_isclose_and_allclose)
{
    const int64_t n = 1025;
    for (int ti = 0; ti < GA_NUM_DTYPES; ti++) {
        ga_dtype t = (ga_dtype)ti;
        if (!has_loop(GA_UFUNC_ISCLOSE, t)) continue;
        ga_dtype p = part_of(t);
        /* tolerances well above the format's resolution */
        double rtol = p == GA_FLOAT16 ? 1e-2 : p == GA_BFLOAT16 ? 5e-2 : p == GA_FLOAT32 ? 1e-5 : 1e-9;
        double atol = p == GA_FLOAT16 ? 1e-3 : p == GA_BFLOAT16 ? 1e-2 : p == GA_FLOAT32 ? 1e-8 : 1e-12;
        unsigned char *av = (unsigned char *)malloc((size_t)n * isz(t)), *bv = (unsigned char *)malloc((size_t)n * isz(t));
        make_close_pairs(t, rtol, atol, av, bv, n);
        ga_array *a = ga_from_host(av, 1, &n, t), *b = ga_from_host(bv, 1, &n, t);
        bool got[1025];
        for (int equal_nan = 0; equal_nan < 2; equal_nan++) {
            ga_array *r = ga_isclose(a, b, rtol, atol, equal_nan);
            if (!check_array("isclose", r, GA_BOOL, 1, &n) || !download(r, got)) {
                ga_release(r);
                continue;
            }
            int64_t bad = 0, first = -1;
            for (int64_t i = 0; i < n; i++)
                if (got[i] != isclose_ref(load(t, av + i * (int64_t)isz(t)), load(t, bv + i * (int64_t)isz(t)),
                                          is_complex(t), rtol, atol, equal_nan) && !bad++)
                    first = i;
            if (bad) {
                char as[96], bs[96];
                FAIL("isclose %s equal_nan=%d: %lld of %lld wrong; first: isclose(%s, %s) gave %d", dname(t), equal_nan,
                     (long long)bad, (long long)n, show(as, sizeof as, t, load(t, av + first * (int64_t)isz(t))),
                     show(bs, sizeof bs, t, load(t, bv + first * (int64_t)isz(t))), got[first]);
            }
            ga_release(r);
        }
        /* allclose: of a with itself (NaN needs equal_nan), and with b */
        bool all = true, any_nan = false, want_all = true;
        for (int64_t i = 0; i < n; i++) {
            elem e = load(t, av + i * (int64_t)isz(t));
            any_nan |= isnan(e.re) || isnan(e.im);
            want_all &= isclose_ref(e, load(t, bv + i * (int64_t)isz(t)), is_complex(t), rtol, atol, false);
        }
        CHECK_OK(ga_allclose(a, a, rtol, atol, true, &all));
        CHECK(all, "allclose(%s a, a, equal_nan=True)", dname(t));
        CHECK_OK(ga_allclose(a, a, rtol, atol, false, &all));
        CHECK(all == !any_nan, "allclose(%s a, a) is %d with NaN %d", dname(t), all, any_nan);
        CHECK_OK(ga_allclose(a, b, rtol, atol, false, &all));
        CHECK(all == want_all, "allclose(%s a, b) is %d, expected %d", dname(t), all, want_all);
        ga_release(a), ga_release(b);
        free(av), free(bv);
    }
    /* integers compare in float64, with NumPy's defaults through ga_ufunc_call */
    int64_t x[6] = {(INT64_C(1) << 53) + 1, INT64_C(1000000000001), 5, 7, INT64_MIN, -3};
    int64_t y[6] = {INT64_C(1) << 53, INT64_C(1000000000000), 6, 7, INT64_MAX, -3};
    bool want[6] = {true, true, false, true, false, true}, got[6] = {0};
    ga_array *xa = ga_from_host(x, 1, (const int64_t[]){6}, GA_INT64), *ya = ga_from_host(y, 1, (const int64_t[]){6}, GA_INT64);
    ga_operand in[2] = {ga_operand_array(xa), ga_operand_array(ya)};
    ga_array *out[2] = {NULL, NULL};
    CHECK_OK(ga_ufunc_call(GA_UFUNC_ISCLOSE, in, out));
    if (out[0] && ga_to_host(out[0], got, sizeof got) == GA_OK)
        for (int i = 0; i < 6; i++) CHECK(got[i] == want[i], "isclose(int64 %lld, %lld) is %d", (long long)x[i], (long long)y[i], got[i]);
    ga_release(out[0]);
    /* empty arrays are all close */
    bool all = false;
    ga_array *e = ga_zeros(1, (const int64_t[]){0}, GA_FLOAT32);
    CHECK_OK(ga_allclose(e, e, 1e-5, 1e-8, false, &all));
    CHECK(all, "allclose of empty arrays");
    ga_release(e), ga_release(xa), ga_release(ya);
}

/* ======================================================================== */
/* round, nan_to_num, angle, real, imag                                       */
/* ======================================================================== */

/* NumPy's round(x, decimals) for dtype t: x * 10**d, rint, / 10**d (for
   d < 0: / then *), each step rounded to the dtype as NumPy's own float16
   arithmetic does; integers unchanged for d >= 0, else computed in float64
   and cast back as astype casts (ref_cast: a uint32 result beyond the range
   keeps its low bits, as NumPy's scalar cast; its vectorised cast gives 0). */
static elem round_ref(ga_dtype t, elem x, int decimals)
{
    if (is_exact(t)) {
        if (decimals >= 0) return x;
        double f = pow(10.0, -decimals), v = rint((is_signed(t) ? (double)(int64_t)x.i : (double)x.i) / f) * f;
        return load_as(GA_FLOAT64, &v, t);
    }
    ga_dtype p = part_of(t);
    long double f = round_to(p, pow(10.0, decimals < 0 ? -decimals : decimals)), part[2] = {x.re, x.im};
    for (int k = 0; k < 2; k++) {
        long double y = round_to(p, decimals >= 0 ? mul_in(p, part[k], f) : div_in(p, part[k], f));
        y = round_to(p, rintl(y));
        part[k] = round_to(p, decimals >= 0 ? div_in(p, y, f) : mul_in(p, y, f));
    }
    x.re = part[0], x.im = part[1];
    return x;
}

DEVICE_TEST(ufunc_round)
{
    static const int decimals[] = {0, 1, 2, 3, -1, -2};
    const int64_t n = 1025;
    for (int ti = 0; ti < GA_NUM_DTYPES; ti++) {
        ga_dtype t = (ga_dtype)ti;
        if (!has_loop(GA_UFUNC_ROUND, t)) continue;
        size_t sz = isz(t);
        unsigned char *v = (unsigned char *)malloc((size_t)n * sz), *got = (unsigned char *)malloc((size_t)n * sz);
        fill_domain(t, D_ANY, true, v, n);
        for (int64_t i = 0; i < n && !is_exact(t); i += 3) /* ties at 1 and 2 decimals */
            ref_from_double(part_of(t), (double)rnd_int(-2000, 2000) / (rnd() & 1 ? 20 : 200), v + i * (int64_t)sz);
        ga_array *a = ga_from_host(v, 1, &n, t);
        for (size_t d = 0; d <= sizeof decimals / sizeof decimals[0]; d++) {
            /* the last round: ga_ufunc_call, NumPy's default of 0 decimals */
            int dec = d < sizeof decimals / sizeof decimals[0] ? decimals[d] : 0;
            ga_array *r = NULL;
            if (d < sizeof decimals / sizeof decimals[0]) {
                r = ga_round(a, dec);
            } else {
                ga_operand in[1] = {ga_operand_array(a)};
                ga_array *out[2] = {NULL, NULL};
                if (ga_ufunc_call(GA_UFUNC_ROUND, in, out) == GA_OK) r = out[0];
            }
            char what[64];
            snprintf(what, sizeof what, "round(%s, %d)%s", dname(t), dec, d < sizeof decimals / sizeof decimals[0] ? "" : " by ga_ufunc_call");
            if (check_array(what, r, t, 1, &n) && download(r, got)) {
                int64_t bad = 0, first = -1;
                for (int64_t i = 0; i < n; i++)
                    if (!identical(t, load(t, got + i * (int64_t)sz), round_ref(t, load(t, v + i * (int64_t)sz), dec)) && !bad++)
                        first = i;
                if (bad) {
                    char in[96], g[96], w[96];
                    elem x = load(t, v + first * (int64_t)sz);
                    FAIL("%s: %lld of %lld wrong; first: %s gave %s, expected %s", what, (long long)bad, (long long)n,
                         show(in, sizeof in, t, x), show(g, sizeof g, t, load(t, got + first * (int64_t)sz)),
                         show(w, sizeof w, t, round_ref(t, x, dec)));
                }
            }
            ga_clear_error();
            ga_release(r);
        }
        ga_release(a);
        free(v), free(got);
    }
}

/* nan_to_num of one part value v of dtype p. */
static long double nan_to_num_ref(ga_dtype p, long double v, double nan, double posinf, double neginf)
{
    double repl = isnan(v) ? nan : isinf(v) ? (v > 0 ? posinf : neginf) : 0;
    return isnan(v) || isinf(v) ? round_to(p, repl) : v;
}

DEVICE_TEST(ufunc_nan_to_num)
{
    const int64_t n = 1025;
    for (int ti = 0; ti < GA_NUM_DTYPES; ti++) {
        ga_dtype t = (ga_dtype)ti;
        if (!has_loop(GA_UFUNC_NAN_TO_NUM, t)) continue;
        size_t sz = isz(t);
        ga_dtype p = part_of(t);
        unsigned char *v = (unsigned char *)malloc((size_t)n * sz), *got = (unsigned char *)malloc((size_t)n * sz);
        fill_domain(t, D_ANY, true, v, n);
        ga_array *a = ga_from_host(v, 1, &n, t);
        for (int form = 0; form < 3; form++) {
            /* NumPy's defaults (two ways), or given values (1e6 overflows float16) */
            double big = is_exact(t) ? 0 : max_finite(p);
            double nan = form < 2 ? 0 : -1.5, posinf = form < 2 ? big : 1e6, neginf = form < 2 ? -big : -2.5;
            ga_array *r = NULL;
            if (form == 0) {
                r = ga_nan_to_num(a);
            } else if (form == 1) {
                ga_operand in[1] = {ga_operand_array(a)};
                ga_array *out[2] = {NULL, NULL};
                if (ga_ufunc_call(GA_UFUNC_NAN_TO_NUM, in, out) == GA_OK) r = out[0];
            } else {
                r = ga_nan_to_num_values(a, nan, posinf, neginf);
            }
            char what[64];
            snprintf(what, sizeof what, "nan_to_num %s, form %d", dname(t), form);
            if (check_array(what, r, t, 1, &n) && download(r, got)) {
                int64_t bad = 0;
                for (int64_t i = 0; i < n; i++) {
                    elem want = load(t, v + i * (int64_t)sz);
                    if (!is_exact(t)) {
                        want.re = nan_to_num_ref(p, want.re, nan, posinf, neginf);
                        want.im = nan_to_num_ref(p, want.im, nan, posinf, neginf);
                    }
                    bad += !identical(t, load(t, got + i * (int64_t)sz), want);
                }
                if (bad) FAIL("%s: %lld of %lld wrong", what, (long long)bad, (long long)n);
            }
            ga_clear_error();
            ga_release(r);
        }
        ga_release(a);
        free(v), free(got);
    }
}

DEVICE_TEST(ufunc_angle_real_imag)
{
    const int64_t n = 1025;
    for (int ti = 0; ti < GA_NUM_DTYPES; ti++) {
        ga_dtype t = (ga_dtype)ti;
        if (!has_loop(GA_UFUNC_ANGLE, t)) continue;
        ga_dtype p = part_of(t);
        size_t sz = isz(t), psz = isz(p);
        unsigned char *v = (unsigned char *)malloc((size_t)n * sz), *got = (unsigned char *)malloc((size_t)n * sz);
        fill_domain(t, D_ANY, true, v, n);
        ga_array *a = ga_from_host(v, 1, &n, t);
        for (int deg = 0; deg < 2; deg++) {
            ga_array *r = ga_angle(a, deg);
            char what[64];
            snprintf(what, sizeof what, "angle(%s, deg=%d)", dname(t), deg);
            if (check_array(what, r, p, 1, &n) && download(r, got)) {
                int64_t bad = 0, first = -1;
                for (int64_t i = 0; i < n; i++) {
                    elem x = load(t, v + i * (int64_t)sz);
                    long double want = atan2l(x.im, x.re) * (deg ? 180 / PI_L : 1);
                    long double g = load(p, got + i * (int64_t)psz).re;
                    /* atan2 and, in degrees, one more rounding: two ulps more */
                    int64_t steps = ordinal(p, g) - ordinal(p, round_to(p, want));
                    bool ok = isnan(want) ? isnan(g) : !isnan(g) && steps <= ulp_budget(p) + 2 * deg && steps >= -ulp_budget(p) - 2 * deg;
                    if (!ok && !bad++) first = i;
                }
                if (bad) {
                    char in[96];
                    FAIL("%s: %lld of %lld wrong; first: %s gave %.17Lg", what, (long long)bad, (long long)n,
                         show(in, sizeof in, t, load(t, v + first * (int64_t)sz)), load(p, got + first * (int64_t)psz).re);
                }
            }
            ga_clear_error();
            ga_release(r);
        }
        /* real and imag: views of a complex array's parts (writes go through),
           of a real array the array itself and zeros */
        ga_array *re = ga_real(a), *im = ga_imag(a);
        CHECK(re && im && ga_dtype_of(re) == p && ga_dtype_of(im) == p && ga_size(re) == n && ga_size(im) == n,
              "real and imag of %s: dtype %s", dname(t), dname(p));
        if (re && im && is_complex(t)) {
            CHECK(ga_data(re) == ga_data(a) && (char *)ga_data(im) == (char *)ga_data(a) + psz, "%s parts are views", dname(t));
            CHECK_OK(ga_negative_out(re, re));
            CHECK_OK(ga_negative_out(im, im));
            if (download(a, got)) {
                int64_t bad = 0;
                for (int64_t i = 0; i < n; i++) {
                    elem x = load(t, v + i * (int64_t)sz), y = load(t, got + i * (int64_t)sz);
                    bad += !real_matches(p, EXACT, y.re, -x.re, 0) || !real_matches(p, EXACT, y.im, -x.im, 0);
                }
                CHECK(bad == 0, "negating %s's real and imag views in place negates it: %lld wrong", dname(t), (long long)bad);
            }
        } else if (re && im) {
            CHECK(ga_data(re) == ga_data(a), "real of %s is the array itself", dname(t));
            if (download(im, got)) {
                int64_t bad = 0;
                for (int64_t i = 0; i < n; i++) bad += !identical(t, load(t, got + i * (int64_t)sz), (elem){0, 0, 0});
                CHECK(bad == 0, "imag of %s is zeros: %lld not", dname(t), (long long)bad);
            }
        }
        ga_release(re), ga_release(im), ga_release(a);
        free(v), free(got);
    }
    /* angle of integers: float16 (NumPy's arctan2(0, int8)); imag of integers: zeros */
    int8_t iv[3] = {-3, 0, 4};
    uint16_t h[3] = {1, 1, 1};
    int8_t z[3] = {1, 1, 1};
    ga_array *ia = ga_from_host(iv, 1, (const int64_t[]){3}, GA_INT8), *r = ga_angle(ia, false), *im = ga_imag(ia);
    CHECK(r && ga_dtype_of(r) == GA_FLOAT16 && ga_to_host(r, h, sizeof h) == GA_OK && h[0] == ref_f16_from_double(PI_L) &&
              h[1] == 0 && h[2] == 0, "angle(int8) is float16 pi, 0, 0: %04x %04x %04x", h[0], h[1], h[2]);
    CHECK(im && ga_dtype_of(im) == GA_INT8 && ga_to_host(im, z, sizeof z) == GA_OK && !z[0] && !z[1] && !z[2], "imag(int8) is zeros");
    ga_release(ia), ga_release(r), ga_release(im);
}

/* ======================================================================== */
/* Special values                                                            */
/* ======================================================================== */

/* Runs ufunc u (its named form) on 0-d inputs of dtype t (ldexp's exponent:
   int64) holding a and b; the result is stored in *got. False (and a
   failure at `line`) if the call fails or gives another dtype. */
static bool run_one(int line, ga_ufunc u, ga_dtype t, const void *a, const void *b, elem *got)
{
    const ufunc_row *row = &rows[u];
    ga_dtype b_t = row->result == GA__RESULT_LDEXP ? GA_INT64 : t, out_t = result_dtype(u, t);
    ga_array *x = ga_from_host(a, 0, NULL, t), *y = row->nin > 1 ? ga_from_host(b, 0, NULL, b_t) : NULL;
    ga_array *r = row->nin == 1 ? row->unary(x) : row->binary(x, y);
    unsigned char buf[16];
    bool ok = r && ga_dtype_of(r) == out_t && ga_to_host(r, buf, isz(out_t)) == GA_OK;
    if (ok) *got = load(out_t, buf);
    else test_fail(__FILE__, line, "%s on %s: %s", row->name, dname(t), r ? "wrong dtype" : ga_last_error_message());
    ga_clear_error();
    ga_release(x), ga_release(y), ga_release(r);
    return ok;
}

/* ufunc u on float dtype t (if it has that loop) at (a, b) gives `want`:
   exactly for the exact functions, within the ufunc's tolerance otherwise,
   the sign of a zero always (but for maximum and the like). */
static void check_float_case(int line, ga_ufunc u, ga_dtype t, double a, double b, double want)
{
    if (!has_loop(u, t)) return;
    unsigned char ab[16], bb[16];
    ref_from_double(t, a, ab);
    if (rows[u].result == GA__RESULT_LDEXP) {
        int64_t e = (int64_t)b;
        memcpy(bb, &e, 8);
    } else {
        ref_from_double(t, b, bb);
    }
    elem g;
    if (!run_one(line, u, t, ab, bb, &g)) return;
    ga_dtype out_t = result_dtype(u, t);
    int tol = specs[u].real_tol;
    bool ok = is_exact(out_t) ? g.i == (want != 0)
            : isnan(want) ? isnan(g.re)
            : real_matches(out_t, tol, g.re, want, 1) && (want != 0 || tol == ZEROS_EQUAL || !signbit(g.re) == !signbit(want));
    if (!ok) {
        char s[96];
        test_fail(__FILE__, line, "%s(%g, %g) in %s gave %s, expected %g", rows[u].name, a, b, dname(t),
                  show(s, sizeof s, out_t, g), want);
    }
}

#define INF INFINITY
#define F(u, a, b, want) {GA_UFUNC_##u, a, b, want, __LINE__}
static const struct {
    ga_ufunc u;
    double a, b, want;
    int line;
} float_cases[] = {
    /* floor_divide and remainder: Python's rules (NumPy's npy_divmod) */
    F(FLOOR_DIVIDE, 7, 2, 3), F(FLOOR_DIVIDE, -7, 2, -4), F(FLOOR_DIVIDE, 7, -2, -4), F(FLOOR_DIVIDE, -0.0, 1, -0.0),
    F(FLOOR_DIVIDE, 0.0, -1, -0.0), F(FLOOR_DIVIDE, -1, INF, -1), F(FLOOR_DIVIDE, 1, INF, 0.0), F(FLOOR_DIVIDE, 1, 0, INF),
    F(FLOOR_DIVIDE, -1, 0, -INF), F(FLOOR_DIVIDE, 0, 0, NAN), F(FLOOR_DIVIDE, INF, 2, NAN),
    F(REMAINDER, 7, -2, -1), F(REMAINDER, -7, 2, 1), F(REMAINDER, -0.0, 1, 0.0), F(REMAINDER, 0.0, -1, -0.0),
    F(REMAINDER, -4, 2, 0.0), F(REMAINDER, 4, -2, -0.0), F(REMAINDER, -1, INF, INF), F(REMAINDER, 1, INF, 1),
    F(REMAINDER, 1, -INF, -INF), F(REMAINDER, 1, 0, NAN), F(REMAINDER, INF, 2, NAN),
    F(FMOD, -7, 2, -1), F(FMOD, 7, -2, 1), F(FMOD, -0.0, 1, -0.0), F(FMOD, 1, 0, NAN), F(FMOD, 1, INF, 1), F(FMOD, INF, 1, NAN),
    F(DIVIDE, 1, 0, INF), F(DIVIDE, -1, 0, -INF), F(DIVIDE, 1, -0.0, -INF), F(DIVIDE, 0, 0, NAN), F(DIVIDE, INF, INF, NAN),
    F(ADD, -0.0, -0.0, -0.0), F(ADD, -0.0, 0.0, 0.0), F(ADD, INF, -INF, NAN), F(SUBTRACT, -0.0, 0.0, -0.0),
    F(SUBTRACT, 0.0, 0.0, 0.0), F(MULTIPLY, -0.0, 5, -0.0), F(MULTIPLY, 0, INF, NAN),
    /* maximum and minimum propagate NaN, fmax and fmin ignore it */
    F(MAXIMUM, NAN, 1, NAN), F(MAXIMUM, 1, NAN, NAN), F(MINIMUM, NAN, 1, NAN), F(MINIMUM, 1, NAN, NAN),
    F(MAXIMUM, -INF, INF, INF), F(FMAX, NAN, 1, 1), F(FMAX, 1, NAN, 1), F(FMAX, NAN, NAN, NAN), F(FMIN, NAN, -1, -1),
    F(FMIN, -1, NAN, -1),
    /* comparisons and logic with NaN and signed zeros */
    F(EQUAL, NAN, NAN, 0), F(NOT_EQUAL, NAN, NAN, 1), F(LESS_EQUAL, NAN, 1, 0), F(GREATER, INF, NAN, 0),
    F(EQUAL, -0.0, 0.0, 1), F(LESS, -0.0, 0.0, 0), F(LOGICAL_AND, NAN, 1, 1), F(LOGICAL_OR, -0.0, 0.0, 0),
    F(LOGICAL_NOT, NAN, 0, 0), F(LOGICAL_NOT, -0.0, 0, 1), F(ISNAN, NAN, 0, 1), F(ISINF, -INF, 0, 1),
    F(ISFINITE, INF, 0, 0), F(SIGNBIT, -0.0, 0, 1), F(SIGNBIT, 0.0, 0, 0), F(SIGNBIT, -INF, 0, 1),
    /* unary arithmetic and rounding */
    F(NEGATIVE, 0.0, 0, -0.0), F(ABSOLUTE, -0.0, 0, 0.0), F(FABS, -INF, 0, INF), F(SIGN, -0.0, 0, 0.0), F(SIGN, NAN, 0, NAN),
    F(SIGN, -INF, 0, -1), F(RECIPROCAL, -0.0, 0, -INF), F(RECIPROCAL, INF, 0, 0.0), F(RECIPROCAL, -INF, 0, -0.0),
    F(SQUARE, -0.0, 0, 0.0), F(FLOOR, -0.5, 0, -1), F(CEIL, -0.5, 0, -0.0), F(TRUNC, -0.5, 0, -0.0), F(FIX, -2.5, 0, -2),
    F(RINT, 2.5, 0, 2), F(RINT, -2.5, 0, -2), F(RINT, 3.5, 0, 4), F(RINT, -0.5, 0, -0.0), F(FLOOR, -INF, 0, -INF),
    F(SQRT, -0.0, 0, -0.0), F(SQRT, -1, 0, NAN), F(SQRT, INF, 0, INF), F(SQRT, 4, 0, 2), F(CBRT, -8, 0, -2),
    F(CBRT, -0.0, 0, -0.0), F(COPYSIGN, 1, -0.0, -1), F(COPYSIGN, -INF, 0.0, INF), F(COPYSIGN, 0.0, -1, -0.0),
    /* ldexp clamps its exponent to int's range */
    F(LDEXP, 1, 1099511627776.0, INF), F(LDEXP, 1, -1099511627776.0, 0.0), F(LDEXP, -1, -1099511627776.0, -0.0),
    F(LDEXP, -0.0, 5, -0.0), F(LDEXP, 3, -1, 1.5), F(LDEXP, INF, -5, INF),
    F(HEAVISIDE, -0.0, 0.5, 0.5), F(HEAVISIDE, NAN, 0.5, NAN), F(HEAVISIDE, -INF, 0.5, 0.0), F(HEAVISIDE, INF, 0.5, 1),
    F(HEAVISIDE, 0, NAN, NAN),
    F(POWER, 0.0, -1, INF), F(POWER, -0.0, -1, -INF), F(POWER, 1, NAN, 1), F(POWER, NAN, 0, 1), F(POWER, -1, INF, 1),
    F(POWER, -8, 0.5, NAN), F(POWER, -2, 3, -8), F(POWER, 2, -1, 0.5), F(FLOAT_POWER, 2, 0.5, 1.4142135623730951),
    /* transcendental functions at their special points */
    F(EXP, -INF, 0, 0.0), F(EXP, INF, 0, INF), F(EXP, 0, 0, 1), F(EXPM1, -0.0, 0, -0.0), F(EXPM1, -INF, 0, -1),
    F(EXP2, 3, 0, 8), F(LOG, 0.0, 0, -INF), F(LOG, -0.0, 0, -INF), F(LOG, -1, 0, NAN), F(LOG, 1, 0, 0.0),
    F(LOG, INF, 0, INF), F(LOG2, 8, 0, 3), F(LOG10, 100, 0, 2), F(LOG1P, -1, 0, -INF), F(LOG1P, -0.0, 0, -0.0),
    F(SIN, -0.0, 0, -0.0), F(SIN, INF, 0, NAN), F(COS, 0, 0, 1), F(TAN, -0.0, 0, -0.0), F(ARCSIN, 2, 0, NAN),
    F(ARCCOS, 1, 0, 0.0), F(ARCTAN, INF, 0, (double)(PI_L / 2)), F(ARCTAN, -0.0, 0, -0.0), F(SINH, -INF, 0, -INF),
    F(COSH, -INF, 0, INF), F(TANH, INF, 0, 1), F(TANH, -0.0, 0, -0.0), F(ARCSINH, -INF, 0, -INF), F(ARCCOSH, 1, 0, 0.0),
    F(ARCCOSH, 0.5, 0, NAN), F(ARCTANH, 1, 0, INF), F(ARCTANH, -1, 0, -INF), F(ARCTANH, 2, 0, NAN),
    F(DEG2RAD, 180, 0, (double)PI_L), F(RAD2DEG, INF, 0, INF), F(SINC, 0, 0, 1), F(SINC, INF, 0, NAN),
    F(ARCTAN2, 0.0, -0.0, (double)PI_L), F(ARCTAN2, -0.0, -0.0, -(double)PI_L), F(ARCTAN2, -0.0, 0.0, -0.0),
    F(ARCTAN2, 1, 0, (double)(PI_L / 2)), F(ARCTAN2, INF, INF, (double)(PI_L / 4)), F(HYPOT, INF, NAN, INF),
    F(HYPOT, NAN, -INF, INF), F(HYPOT, 3, 4, 5), F(LOGADDEXP, -INF, -INF, -INF), F(LOGADDEXP, INF, INF, INF),
    F(LOGADDEXP, INF, -INF, INF), F(LOGADDEXP, NAN, 1, NAN), F(LOGADDEXP2, 1, 1, 2), F(LOGADDEXP2, -INF, 3, 3),
};
#undef F

DEVICE_TEST(ufunc_special_float_values)
{
    static const ga_dtype floats[] = {GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64};
    for (size_t f = 0; f < sizeof floats / sizeof floats[0]; f++) {
        ga_dtype t = floats[f];
        for (size_t i = 0; i < sizeof float_cases / sizeof float_cases[0]; i++)
            check_float_case(float_cases[i].line, float_cases[i].u, t, float_cases[i].a, float_cases[i].b, float_cases[i].want);
        /* the format's own neighbours (the spacing of a negative number is
           negative, as float32's, but for float16: NumPy's is never
           negative, nextafter(x, inf) - x) */
        double eps = epsilon_of(t), tiny = min_subnormal(t), big = max_finite(t), normal = ldexp(1.0, min_exponent(t));
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, 0, 1, tiny);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, -0.0, -1, -tiny);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, 1, 2, 1 + eps);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, 1, 0, 1 - eps / 2);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, big, INF, INF);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, INF, 0, big);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, tiny, 0, 0.0);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, NAN, 1, NAN);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, 1, NAN, NAN);
        /* equal inputs: y (NumPy 2.5's float16 too) */
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, 0.0, -0.0, -0.0);
        check_float_case(__LINE__, GA_UFUNC_NEXTAFTER, t, -0.0, 0.0, 0.0);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, 1, 0, eps);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, -1, 0, t == GA_FLOAT16 ? eps / 2 : -eps);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, -big, 0, t == GA_FLOAT16 ? 32 : -INF);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, 0, 0, tiny);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, -0.0, 0, tiny);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, normal, 0, tiny);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, big, 0, INF);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, INF, 0, NAN);
        check_float_case(__LINE__, GA_UFUNC_SPACING, t, NAN, 0, NAN);
        check_float_case(__LINE__, GA_UFUNC_ADD, t, big, big, INF);
        check_float_case(__LINE__, GA_UFUNC_SQUARE, t, big, 0, INF);
        check_float_case(__LINE__, GA_UFUNC_MULTIPLY, t, tiny, 0.5, 0.0); /* a tie, to even */
    }
}

/* Complex special values (relative tolerance where the value is computed). */
DEVICE_TEST(ufunc_special_complex_values)
{
    static const struct {
        ga_ufunc u;
        double a[2], b[2], want[2];
        int line;
    } cases[] = {
#define C(u, ar, ai, br, bi, wr, wi) {GA_UFUNC_##u, {ar, ai}, {br, bi}, {wr, wi}, __LINE__}
        C(SIGN, 3, 4, 0, 0, 0.6, 0.8), C(SIGN, INF, 1, 0, 0, 1, 0), C(SIGN, 1, -INF, 0, 0, 0, -1), C(SIGN, 0, 0, 0, 0, 0, 0),
        C(SIGN, NAN, 1, 0, 0, NAN, NAN), C(SIGN, INF, INF, 0, 0, NAN, NAN), C(ABSOLUTE, 3, 4, 0, 0, 5, 0),
        C(ABSOLUTE, INF, NAN, 0, 0, INF, 0), C(ABSOLUTE, NAN, 1, 0, 0, NAN, 0), C(DIVIDE, 1, 1, 0, 0, INF, INF),
        C(DIVIDE, 0, 0, 0, 0, NAN, NAN), C(RECIPROCAL, 0, 0, 0, 0, NAN, NAN), C(MULTIPLY, INF, 0, 1, 0, INF, NAN),
        C(EQUAL, NAN, 0, NAN, 0, 0, 0), C(LESS, 1, NAN, 2, 0, 0, 0), C(LESS, 1, 1, 1, 2, 1, 0), C(GREATER_EQUAL, 2, -1, 1, 5, 1, 0),
        C(MAXIMUM, NAN, 0, 1, 0, NAN, 0), C(FMAX, NAN, 0, 1, 0, 1, 0), C(MINIMUM, 1, 0, 1, NAN, 1, NAN),
        C(ISNAN, 1, NAN, 0, 0, 1, 0), C(ISINF, NAN, INF, 0, 0, 1, 0), C(ISFINITE, 1, INF, 0, 0, 0, 0),
        C(LOGICAL_NOT, 0, -0.0, 0, 0, 1, 0), C(LOGICAL_NOT, 0, 1, 0, 0, 0, 0), C(SQRT, -4, 0, 0, 0, 0, 2),
        C(SQRT, -4, -0.0, 0, 0, 0, -2), C(POWER, 2, 0, 0, 0, 1, 0), C(POWER, 0, 0, 2, 0, 0, 0), C(POWER, 0, 1, 2, 0, -1, 0),
        C(RINT, 2.5, -0.5, 0, 0, 2, -0.0), C(CONJUGATE, 1, 0.0, 0, 0, 1, -0.0),
#undef C
    };
    static const ga_dtype complexes[] = {GA_COMPLEX64, GA_COMPLEX128};
    for (size_t c = 0; c < 2; c++) {
        ga_dtype t = complexes[c], p = part_of(t);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            ga_ufunc u = cases[i].u;
            if (!has_loop(u, t)) continue;
            unsigned char ab[16], bb[16];
            for (int k = 0; k < 2; k++) {
                ref_from_double(p, cases[i].a[k], ab + k * isz(p));
                ref_from_double(p, cases[i].b[k], bb + k * isz(p));
            }
            elem g, want = {cases[i].want[0] != 0, cases[i].want[0], cases[i].want[1]};
            if (!run_one(cases[i].line, u, t, ab, bb, &g)) continue;
            ga_dtype out_t = result_dtype(u, t);
            if (!matches(&specs[u], t, out_t, g, want, want, want)) {
                char s[96];
                test_fail(__FILE__, cases[i].line, "%s(%g%+gj, %g%+gj) in %s gave %s", rows[u].name, cases[i].a[0],
                          cases[i].a[1], cases[i].b[0], cases[i].b[1], dname(t), show(s, sizeof s, out_t, g));
            }
        }
    }
}

DEVICE_TEST(ufunc_special_integer_values)
{
    static const struct {
        ga_ufunc u;
        ga_dtype t;
        int64_t a, b, want;
        int line;
    } cases[] = {
#define N(u, t, a, b, want) {GA_UFUNC_##u, GA_##t, a, b, want, __LINE__}
        /* division: by zero gives 0, MIN // -1 wraps, floor and Python's remainder */
        N(FLOOR_DIVIDE, INT8, -128, -1, -128), N(FLOOR_DIVIDE, INT32, INT32_MIN, -1, INT32_MIN),
        N(FLOOR_DIVIDE, INT64, INT64_MIN, -1, INT64_MIN), N(FLOOR_DIVIDE, INT16, 7, 0, 0), N(FLOOR_DIVIDE, UINT8, 7, 0, 0),
        N(FLOOR_DIVIDE, INT32, -7, 2, -4), N(FLOOR_DIVIDE, INT32, 7, -2, -4), N(FLOOR_DIVIDE, INT64, -7, -2, 3),
        N(REMAINDER, INT8, -128, -1, 0), N(REMAINDER, INT64, INT64_MIN, -1, 0), N(REMAINDER, INT32, 7, 0, 0),
        N(REMAINDER, INT32, -7, 2, 1), N(REMAINDER, INT32, 7, -2, -1), N(REMAINDER, UINT64, 7, 0, 0),
        N(FMOD, INT32, -7, 2, -1), N(FMOD, INT32, 7, -2, 1), N(FMOD, INT64, INT64_MIN, -1, 0), N(FMOD, INT8, 5, 0, 0),
        /* wrapping arithmetic */
        N(ADD, INT8, 127, 1, -128), N(ADD, UINT8, 255, 1, 0), N(SUBTRACT, UINT16, 0, 1, 65535),
        N(MULTIPLY, INT16, 300, 300, 24464), N(MULTIPLY, INT64, INT64_MAX, 2, -2), N(SQUARE, INT8, 16, 0, 0),
        N(NEGATIVE, INT8, -128, 0, -128), N(ABSOLUTE, INT8, -128, 0, -128), N(ABSOLUTE, INT64, INT64_MIN, 0, INT64_MIN),
        N(SIGN, INT8, -5, 0, -1), N(SIGN, UINT8, 200, 0, 1), N(FLOOR, INT32, -7, 0, -7),
        /* shifts: 0 at or beyond the width or by a negative count; -1 for negatives shifted right */
        N(LEFT_SHIFT, INT8, 1, 7, -128), N(LEFT_SHIFT, INT8, 1, 8, 0), N(LEFT_SHIFT, INT8, 3, -1, 0),
        N(LEFT_SHIFT, INT8, 3, 100, 0), N(LEFT_SHIFT, UINT8, 255, 1, 254), N(LEFT_SHIFT, INT64, 1, 63, INT64_MIN),
        N(LEFT_SHIFT, INT64, 1, 64, 0), N(LEFT_SHIFT, UINT32, 1, 32, 0), N(RIGHT_SHIFT, INT8, -128, 7, -1),
        N(RIGHT_SHIFT, INT8, -5, 8, -1), N(RIGHT_SHIFT, INT8, -5, -1, -1), N(RIGHT_SHIFT, INT8, 5, 8, 0),
        N(RIGHT_SHIFT, INT8, 5, -1, 0), N(RIGHT_SHIFT, UINT8, 128, 7, 1), N(RIGHT_SHIFT, UINT8, 128, 8, 0),
        N(RIGHT_SHIFT, INT64, -1, 64, -1), N(RIGHT_SHIFT, INT64, INT64_MIN, 63, -1), N(RIGHT_SHIFT, UINT64, -1, 63, 1),
        /* power wraps (negative exponents: ufunc_integer_power_negative_exponent) */
        N(POWER, INT8, 2, 7, -128), N(POWER, INT8, 2, 8, 0), N(POWER, INT8, -1, 5, -1), N(POWER, INT8, -2, 7, -128),
        N(POWER, INT32, 0, 0, 1), N(POWER, UINT8, 3, 5, 243), N(POWER, INT64, 3, 40, INT64_C(-6289078614652622815)),
        /* reciprocal: C's 1.0 / a cast back (inf becomes INT_MIN's low bits) */
        N(RECIPROCAL, INT32, 0, 0, INT32_MIN), N(RECIPROCAL, INT8, 0, 0, 0), N(RECIPROCAL, INT64, 0, 0, INT64_MIN),
        N(RECIPROCAL, UINT64, 0, 0, 0), N(RECIPROCAL, UINT32, 0, 0, 0), N(RECIPROCAL, INT16, -1, 0, -1),
        N(RECIPROCAL, INT16, 2, 0, 0),
        /* gcd and lcm of magnitudes (|MIN| wraps back to MIN) */
        N(GCD, INT8, -128, 6, 2), N(GCD, INT8, -128, 0, -128), N(GCD, INT64, INT64_MIN, 0, INT64_MIN), N(GCD, INT32, 0, 0, 0),
        N(GCD, INT32, -12, 18, 6), N(LCM, INT8, -128, 3, -128), N(LCM, INT16, -4, 6, 12), N(LCM, INT32, 0, 5, 0),
        N(LCM, UINT8, 16, 24, 48),
        /* bool: + is or, * is and, ~ is not */
        N(INVERT, INT8, 0, 0, -1), N(INVERT, UINT8, 0, 0, 255), N(INVERT, BOOL, 1, 0, 0), N(INVERT, BOOL, 0, 0, 1),
        N(ADD, BOOL, 1, 1, 1), N(MULTIPLY, BOOL, 1, 0, 0), N(MULTIPLY, BOOL, 1, 1, 1), N(MAXIMUM, BOOL, 0, 1, 1),
        N(MINIMUM, BOOL, 0, 1, 0), N(BITWISE_XOR, BOOL, 1, 1, 0),
        /* comparisons by the dtype's own order */
        N(LESS, UINT64, 1, -1, 1), N(GREATER, INT64, -1, 0, 0), N(MAXIMUM, UINT8, 200, 100, 200),
        N(MINIMUM, INT8, -128, 127, -128), N(LOGICAL_NOT, INT8, 0, 0, 1), N(ISNAN, INT8, 5, 0, 0), N(ISFINITE, UINT64, 5, 0, 1),
#undef N
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ga_ufunc u = cases[i].u;
        ga_dtype t = cases[i].t, out_t = result_dtype(u, t);
        elem g;
        if (!run_one(cases[i].line, u, t, &cases[i].a, &cases[i].b, &g)) continue;
        if (g.i != wrap(out_t, (uint64_t)cases[i].want)) {
            char s[96];
            test_fail(__FILE__, cases[i].line, "%s(%lld, %lld) in %s gave %s, expected %lld", rows[u].name,
                      (long long)cases[i].a, (long long)cases[i].b, dname(t), show(s, sizeof s, out_t, g),
                      (long long)cases[i].want);
        }
    }
}
#undef INF

/* ======================================================================== */
/* Mixed dtypes                                                              */
/* ======================================================================== */

/* ufunc u on arrays of dtypes ta and tb (tb unused for unary ufuncs): NumPy's
   loop `loop` (the inputs cast to it; ldexp's exponent stays an integer)
   and result dtype out_t, in a few layouts. */
static void run_mixed(ga_ufunc u, ga_dtype ta, ga_dtype tb, ga_dtype loop, ga_dtype out_t)
{
    static const layout mixed_layouts[] = {
        {"contiguous", NEW, 1, {1025}, {CONTIG, CONTIG}},
        {"a step-3 view with a reversed view", NEW, 1, {1025}, {STEP3, REVERSED}},
        {"a transposed matrix with a row", NEW, 2, {33, 31}, {TRANSPOSED, ROW}},
    };
    const ufunc_row *row = &rows[u];
    const spec *sp = &specs[u];
    ga_dtype in_t[2] = {loop, row->result == GA__RESULT_LDEXP ? tb : loop}, types[2] = {ta, tb};
    for (size_t i = 0; i < sizeof mixed_layouts / sizeof mixed_layouts[0]; i++) {
        const layout *L = &mixed_layouts[i];
        char what[160];
        snprintf(what, sizeof what, "%s(%s%s%s), %s", row->name, dname(ta), row->nin > 1 ? ", " : "",
                 row->nin > 1 ? dname(tb) : "", L->name);
        operand ops[2];
        memset(ops, 0, sizeof ops);
        bool made = true;
        for (int k = 0; k < row->nin && made; k++) made = make_operand(&ops[k], types[k], sp->domain[k], true, L->view[k], L->ndim, L->shape);
        int64_t n = elements(L->ndim, L->shape);
        unsigned char *got = (unsigned char *)malloc((size_t)n * isz(out_t));
        ga_array *r = made ? call_new(row, ops) : NULL;
        if (made && check_array(what, r, out_t, L->ndim, L->shape) && download(r, got))
            check_values(what, sp, loop, in_t, out_t, ops, row->nin, L->ndim, L->shape, got);
        ga_clear_error();
        ga_release(r);
        free(got);
        for (int k = 0; k < row->nin; k++) release_operand(&ops[k]);
    }
}

DEVICE_TEST(ufunc_mixed_dtypes)
{
    static const struct {
        ga_ufunc u;
        ga_dtype a, b, loop, out;
    } cases[] = {
#define M(u, a, b, loop, out) {GA_UFUNC_##u, GA_##a, GA_##b, GA_##loop, GA_##out}
        M(ADD, FLOAT32, FLOAT64, FLOAT64, FLOAT64), M(ADD, FLOAT16, FLOAT32, FLOAT32, FLOAT32),
        M(ADD, FLOAT16, BFLOAT16, FLOAT32, FLOAT32), M(ADD, INT8, UINT8, INT16, INT16), M(ADD, UINT8, INT64, INT64, INT64),
        M(ADD, INT64, UINT64, FLOAT64, FLOAT64), M(ADD, BOOL, INT8, INT8, INT8), M(ADD, COMPLEX64, FLOAT64, COMPLEX128, COMPLEX128),
        M(SUBTRACT, UINT32, INT32, INT64, INT64), M(MULTIPLY, INT16, FLOAT16, FLOAT32, FLOAT32),
        M(MULTIPLY, COMPLEX64, INT16, COMPLEX64, COMPLEX64),
        /* true division of integers and bools is float64 */
        M(DIVIDE, INT8, INT8, FLOAT64, FLOAT64), M(DIVIDE, UINT64, INT64, FLOAT64, FLOAT64), M(DIVIDE, BOOL, BOOL, FLOAT64, FLOAT64),
        M(DIVIDE, INT16, FLOAT16, FLOAT32, FLOAT32), M(FLOOR_DIVIDE, INT8, UINT8, INT16, INT16),
        M(REMAINDER, FLOAT32, INT32, FLOAT64, FLOAT64), M(POWER, INT8, UINT8, INT16, INT16), M(MAXIMUM, INT8, UINT8, INT16, INT16),
        M(ARCTAN2, INT8, INT8, FLOAT16, FLOAT16), M(HEAVISIDE, INT8, INT8, FLOAT16, FLOAT16), M(LDEXP, INT8, INT8, FLOAT16, FLOAT16),
        M(LDEXP, FLOAT32, INT64, FLOAT32, FLOAT32), M(LDEXP, FLOAT64, UINT8, FLOAT64, FLOAT64),
        M(EQUAL, FLOAT32, FLOAT64, FLOAT64, BOOL), M(LESS, INT8, UINT8, INT16, BOOL), M(GREATER, FLOAT16, INT32, FLOAT64, BOOL),
        M(LOGICAL_XOR, FLOAT32, INT8, FLOAT32, BOOL),
        /* integer inputs of float functions take the first float loop they cast to safely */
        M(SQRT, INT8, INT8, FLOAT16, FLOAT16), M(SQRT, UINT8, UINT8, FLOAT16, FLOAT16), M(SQRT, BOOL, BOOL, FLOAT16, FLOAT16),
        M(SQRT, INT16, INT16, FLOAT32, FLOAT32), M(SQRT, INT32, INT32, FLOAT64, FLOAT64), M(EXP, UINT16, UINT16, FLOAT32, FLOAT32),
        M(SINC, INT16, INT16, FLOAT64, FLOAT64), M(RECIPROCAL, BOOL, BOOL, INT8, INT8), M(SQUARE, BOOL, BOOL, INT8, INT8),
        M(FLOOR, INT32, INT32, INT32, INT32), M(RINT, INT8, INT8, FLOAT16, FLOAT16), M(ABSOLUTE, COMPLEX128, COMPLEX128, COMPLEX128, FLOAT64),
#undef M
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_mixed(cases[i].u, cases[i].a, cases[i].b, cases[i].loop, cases[i].out);
}

/* a <=> b exactly, for a signed and b unsigned. */
static int compare_signed_unsigned(int64_t a, uint64_t b) { return a < 0 ? -1 : (uint64_t)a < b ? -1 : (uint64_t)a > b; }

/* int64 (and int32) against uint64: NumPy's exact loops, not float64. */
DEVICE_TEST(ufunc_compare_int64_with_uint64_exactly)
{
    static const ga_ufunc comparisons[] = {GA_UFUNC_EQUAL, GA_UFUNC_NOT_EQUAL, GA_UFUNC_LESS,
                                           GA_UFUNC_LESS_EQUAL, GA_UFUNC_GREATER, GA_UFUNC_GREATER_EQUAL};
    const int64_t n = 1025;
    int64_t *s = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
    uint64_t *u = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)n);
    int32_t *s32 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    bool *got = (bool *)malloc((size_t)n);
    /* pairs that float64 cannot tell apart, the edges, then random ones */
    const int64_t fixed_s[] = {(INT64_C(1) << 53) + 1, -1, 0, INT64_MAX, INT64_MIN, INT64_MAX, -(INT64_C(1) << 53), 5};
    const uint64_t fixed_u[] = {UINT64_C(1) << 53, UINT64_MAX, 0, UINT64_C(1) << 63, UINT64_C(1) << 63,
                                (UINT64_C(1) << 63) - 1, UINT64_C(1) << 53, 5};
    for (int64_t i = 0; i < n; i++) {
        if (i < 8) {
            s[i] = fixed_s[i], u[i] = fixed_u[i];
        } else {
            s[i] = (int64_t)gen_int(D_ANY, GA_INT64);
            u[i] = rnd() % 4 == 0 ? (uint64_t)s[i] : gen_int(D_ANY, GA_UINT64);
        }
        s32[i] = (int32_t)s[i];
    }
    ga_array *sa = ga_from_host(s, 1, &n, GA_INT64), *ua = ga_from_host(u, 1, &n, GA_UINT64);
    ga_array *s32a = ga_from_host(s32, 1, &n, GA_INT32);
    for (size_t c = 0; c < sizeof comparisons / sizeof comparisons[0]; c++) {
        const ufunc_row *row = &rows[comparisons[c]];
        for (int form = 0; form < 3; form++) { /* int64 op uint64, uint64 op int64, int32 op uint64 */
            ga_array *r = form == 0 ? row->binary(sa, ua) : form == 1 ? row->binary(ua, sa) : row->binary(s32a, ua);
            if (!check_array(row->name, r, GA_BOOL, 1, &n) || !download(r, got)) {
                ga_release(r);
                continue;
            }
            int64_t bad = 0, first = -1;
            for (int64_t i = 0; i < n; i++) {
                int cmp = compare_signed_unsigned(form == 2 ? s32[i] : s[i], u[i]);
                if (form == 1) cmp = -cmp;
                bool want = comparisons[c] == GA_UFUNC_EQUAL ? cmp == 0 : comparisons[c] == GA_UFUNC_NOT_EQUAL ? cmp != 0
                          : comparisons[c] == GA_UFUNC_LESS ? cmp < 0 : comparisons[c] == GA_UFUNC_LESS_EQUAL ? cmp <= 0
                          : comparisons[c] == GA_UFUNC_GREATER ? cmp > 0 : cmp >= 0;
                if (got[i] != want && !bad++) first = i;
            }
            if (bad)
                FAIL("%s, form %d: %lld of %lld wrong; first: %lld vs %llu gave %d", row->name, form, (long long)bad,
                     (long long)n, (long long)(form == 2 ? s32[first] : s[first]), (unsigned long long)u[first], got[first]);
            ga_release(r);
        }
    }
    ga_release(sa), ga_release(ua), ga_release(s32a);
    free(s), free(u), free(s32), free(got);
}

/* ======================================================================== */
/* Weak scalars                                                              */
/* ======================================================================== */

/* r (new, or NULL after an error) has dtype t and the n values want (as
   doubles); released here. */
static void expect_values(int line, const char *what, ga_array *r, ga_dtype t, int64_t n, const double *want)
{
    if (!r || ga_dtype_of(r) != t || ga_size(r) != n) {
        test_fail(__FILE__, line, "%s: %s, expected %lld elements of %s", what,
                  r ? dname(ga_dtype_of(r)) : ga_last_error_message(), (long long)n, dname(t));
    } else {
        unsigned char *h = (unsigned char *)malloc((size_t)n * isz(t));
        if (ga_to_host(r, h, (size_t)n * isz(t)) == GA_OK) {
            for (int64_t i = 0; i < n; i++) {
                elem g = load(t, h + i * (int64_t)isz(t));
                double v = is_exact(t) ? (is_signed(t) ? (double)(int64_t)g.i : (double)g.i) : (double)g.re;
                if (!(v == want[i] || (isnan(v) && isnan(want[i])))) {
                    test_fail(__FILE__, line, "%s: element %lld is %.17g, expected %.17g", what, (long long)i, v, want[i]);
                    break;
                }
            }
        }
        free(h);
    }
    ga_clear_error();
    ga_release(r);
}
#define EXPECT(what, r, t, ...)                                                               \
    expect_values(__LINE__, what, r, t, (int64_t)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)), \
                  (const double[]){__VA_ARGS__})

DEVICE_TEST(ufunc_weak_scalars)
{
    int8_t i8v[5] = {-128, -1, 0, 1, 127};
    uint8_t u8v[2] = {200, 0};
    bool bv[2] = {true, false};
    float f32v[2] = {0.1f, 3};
    uint16_t f16v[2] = {ref_f16_from_double(1), ref_f16_from_double(2)};
    int32_t i32v[1] = {2};
    uint64_t u64v[1] = {2};
    int64_t i64v[2] = {INT64_MIN, INT64_MAX};
    ga_array *i8 = ga_from_host(i8v, 1, (const int64_t[]){5}, GA_INT8), *u8 = ga_from_host(u8v, 1, (const int64_t[]){2}, GA_UINT8);
    ga_array *b = ga_from_host(bv, 1, (const int64_t[]){2}, GA_BOOL), *f32 = ga_from_host(f32v, 1, (const int64_t[]){2}, GA_FLOAT32);
    ga_array *f16 = ga_from_host(f16v, 1, (const int64_t[]){2}, GA_FLOAT16), *i32 = ga_from_host(i32v, 1, (const int64_t[]){1}, GA_INT32);
    ga_array *u64 = ga_from_host(u64v, 1, (const int64_t[]){1}, GA_UINT64), *i64 = ga_from_host(i64v, 1, (const int64_t[]){2}, GA_INT64);

    /* a Python int takes an integer array's dtype (and wraps with it) */
    EXPECT("int8 + 1", ga_add_scalar(i8, ga_int(1)), GA_INT8, -127, 0, 1, 2, -128);
    EXPECT("1 - int8", ga_subtract_rscalar(ga_int(1), i8), GA_INT8, -127, 2, 1, 0, -126);
    EXPECT("uint64 + 2**64-1", ga_add_scalar(u64, ga_uint(UINT64_MAX)), GA_UINT64, 1);
    EXPECT("uint8 * True", ga_multiply_scalar(u8, ga_bool(true)), GA_UINT8, 200, 0);
    /* a Python float makes integers float64, and takes a float array's dtype */
    EXPECT("int8 + 0.5", ga_add_scalar(i8, ga_float(0.5)), GA_FLOAT64, -127.5, -0.5, 0.5, 1.5, 127.5);
    EXPECT("float32 * 0.1", ga_multiply_scalar(f32, ga_float(0.1)), GA_FLOAT32, (double)(0.1f * 0.1f), (double)(3 * 0.1f));
    EXPECT("float16 + 0.1", ga_add_scalar(f16, ga_float(0.1)), GA_FLOAT16,
           ref_f16_to_double(ref_f16_from_double(1 + ref_f16_to_double(ref_f16_from_double(0.1)))),
           ref_f16_to_double(ref_f16_from_double(2 + ref_f16_to_double(ref_f16_from_double(0.1)))));
    EXPECT("float32 == 0.1 (0.1 becomes float32)", ga_equal_scalar(f32, ga_float(0.1)), GA_BOOL, 1, 0);
    /* bool: a Python int makes int64, a Python bool keeps bool */
    EXPECT("bool + 1", ga_add_scalar(b, ga_int(1)), GA_INT64, 2, 1);
    EXPECT("bool + True", ga_add_scalar(b, ga_bool(true)), GA_BOOL, 1, 1);
    EXPECT("False * bool", ga_multiply_rscalar(ga_bool(false), b), GA_BOOL, 0, 0);
    /* a Python complex makes complex */
    ga_array *c = ga_add_scalar(i32, ga_complex(1, 1));
    CHECK(c && ga_dtype_of(c) == GA_COMPLEX128, "int32 + 1j is complex128");
    ga_release(c);
    c = ga_multiply_scalar(f32, ga_complex(0, 1));
    CHECK(c && ga_dtype_of(c) == GA_COMPLEX64, "float32 * 1j is complex64");
    ga_release(c);

    /* comparisons with an int out of the dtype's range compare the values */
    int8_t every[256];
    for (int i = 0; i < 256; i++) every[i] = (int8_t)(i - 128);
    ga_array *all8 = ga_from_host(every, 1, (const int64_t[]){256}, GA_INT8);
    static const struct {
        ga_ufunc u;
        bool rscalar;
        int64_t v;
        bool want;
    } out_of_range[] = {
        {GA_UFUNC_LESS, false, 300, true}, {GA_UFUNC_LESS_EQUAL, false, 128, true}, {GA_UFUNC_GREATER, false, -300, true},
        {GA_UFUNC_GREATER_EQUAL, false, -129, true}, {GA_UFUNC_GREATER, false, 300, false}, {GA_UFUNC_LESS, false, -129, false},
        {GA_UFUNC_EQUAL, false, 300, false}, {GA_UFUNC_NOT_EQUAL, false, -300, true}, {GA_UFUNC_GREATER, true, 300, true},
        {GA_UFUNC_LESS, true, -300, true}, {GA_UFUNC_EQUAL, true, 128, false}, {GA_UFUNC_LESS_EQUAL, true, 300, false},
    };
    bool got[256];
    for (size_t i = 0; i < sizeof out_of_range / sizeof out_of_range[0]; i++) {
        const ufunc_row *row = &rows[out_of_range[i].u];
        ga_array *r = out_of_range[i].rscalar ? row->scalar_with(ga_int(out_of_range[i].v), all8)
                                              : row->with_scalar(all8, ga_int(out_of_range[i].v));
        bool ok = r && ga_dtype_of(r) == GA_BOOL && ga_to_host(r, got, sizeof got) == GA_OK;
        for (int k = 0; ok && k < 256; k++) ok = got[k] == out_of_range[i].want;
        CHECK(ok, "%s int8 %s %lld: every element %d (%s)", out_of_range[i].rscalar ? "_rscalar" : "_scalar", row->name,
              (long long)out_of_range[i].v, out_of_range[i].want, r ? "values" : ga_last_error_message());
        ga_clear_error();
        ga_release(r);
    }
    EXPECT("uint8 >= -1", ga_greater_equal_scalar(u8, ga_int(-1)), GA_BOOL, 1, 1);
    EXPECT("uint8 == 256", ga_equal_scalar(u8, ga_int(256)), GA_BOOL, 0, 0);
    EXPECT("uint64 < -1", ga_less_scalar(u64, ga_int(-1)), GA_BOOL, 0);
    EXPECT("int64 < 2**63", ga_less_scalar(i64, ga_uint(UINT64_C(1) << 63)), GA_BOOL, 1, 1);
    EXPECT("int64 != 2**64-1", ga_not_equal_scalar(i64, ga_uint(UINT64_MAX)), GA_BOOL, 1, 1);

    /* elsewhere an int out of range is an error, as NumPy's OverflowError */
    CHECK_ERROR(ga_add_scalar(i8, ga_int(300)) == NULL, GA_ERROR_OVERFLOW, "out of bounds for int8");
    CHECK_ERROR(ga_subtract_rscalar(ga_int(-129), i8) == NULL, GA_ERROR_OVERFLOW, "out of bounds for int8");
    CHECK_ERROR(ga_multiply_scalar(u8, ga_int(-1)) == NULL, GA_ERROR_OVERFLOW, "out of bounds for uint8");
    /* NumPy's message for a Python int beyond int64 meeting a signed dtype */
    CHECK_ERROR(ga_add_scalar(i64, ga_uint(UINT64_C(1) << 63)) == NULL, GA_ERROR_OVERFLOW,
                "Python int too large to convert to C long");
    CHECK_ERROR(ga_maximum_scalar(i8, ga_int(1000)) == NULL, GA_ERROR_OVERFLOW, "out of bounds for int8");
    ga_release(all8), ga_release(i8), ga_release(u8), ga_release(b), ga_release(f32), ga_release(f16), ga_release(i32);
    ga_release(u64), ga_release(i64);
}

/* ======================================================================== */
/* out=: casting, overlap                                                     */
/* ======================================================================== */

/* An element's bytes in dtype t (values exactly representable in t). */
static void store_elem(ga_dtype t, elem e, void *p)
{
    if (is_exact(t)) {
        memcpy(p, &e.i, isz(t));
    } else if (is_complex(t)) {
        ref_from_double(part_of(t), (double)e.re, p);
        ref_from_double(part_of(t), (double)e.im, (char *)p + isz(part_of(t)));
    } else {
        ref_from_double(t, (double)e.re, p);
    }
}

/* out= of another dtype than the loop's: the result is cast to it as astype
   casts (same_kind allows narrowing within a kind). */
DEVICE_TEST(ufunc_out_casts_the_result)
{
    static const struct {
        ga_ufunc u;
        ga_dtype in, loop, out;
    } cases[] = {
        {GA_UFUNC_ADD, GA_FLOAT32, GA_FLOAT32, GA_FLOAT64}, {GA_UFUNC_ADD, GA_INT16, GA_INT16, GA_INT8},
        {GA_UFUNC_MULTIPLY, GA_INT32, GA_INT32, GA_FLOAT64}, {GA_UFUNC_DIVIDE, GA_INT8, GA_FLOAT64, GA_FLOAT32},
        {GA_UFUNC_SUBTRACT, GA_FLOAT64, GA_FLOAT64, GA_FLOAT16}, {GA_UFUNC_SQRT, GA_FLOAT32, GA_FLOAT32, GA_COMPLEX64},
        {GA_UFUNC_LESS, GA_FLOAT32, GA_FLOAT32, GA_INT32}, {GA_UFUNC_NEGATIVE, GA_INT64, GA_INT64, GA_FLOAT32},
    };
    const int64_t n = 1025;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ga_ufunc u = cases[i].u;
        const ufunc_row *row = &rows[u];
        ga_dtype loop_out = result_dtype(u, cases[i].loop), out_t = cases[i].out, in_t[2] = {cases[i].loop, cases[i].loop};
        char what[128];
        snprintf(what, sizeof what, "%s(%s) into %s", row->name, dname(cases[i].in), dname(out_t));
        operand ops[2];
        memset(ops, 0, sizeof ops);
        bool made = true;
        for (int k = 0; k < row->nin && made; k++)
            made = make_operand(&ops[k], cases[i].in, specs[u].domain[k], true, CONTIG, 1, &n);
        ga_array *base = NULL, *out = made ? gapped_out(out_t, n, &base) : NULL;
        unsigned char *got = (unsigned char *)malloc((size_t)n * isz(out_t));
        if (made && call_out(row, ops, out) == GA_OK) {
            read_gapped(what, base, out_t, n, got);
            int64_t bad = 0;
            for (int64_t k = 0; k < n; k++) {
                elem x[2] = {{0, 0, 0}, {0, 0, 0}};
                for (int j = 0; j < row->nin; j++) x[j] = input_value(&ops[j], in_t[j], 1, &n, k);
                elem want = reference(&specs[u], cases[i].loop, cases[i].loop, loop_out, x[0], x[1]);
                unsigned char wb[16];
                if (!is_exact(loop_out)) want.re = round_to(part_of(loop_out), want.re), want.im = round_to(part_of(loop_out), want.im);
                store_elem(loop_out, want, wb);
                bad += !identical(out_t, load(out_t, got + k * (int64_t)isz(out_t)), load_as(loop_out, wb, out_t));
            }
            if (bad) FAIL("%s: %lld of %lld wrong", what, (long long)bad, (long long)n);
        } else if (made) {
            FAIL("%s: %s", what, ga_last_error_message());
        }
        ga_clear_error();
        ga_release(out), ga_release(base);
        free(got);
        for (int k = 0; k < row->nin; k++) release_operand(&ops[k]);
    }
}

/* ======================================================================== */
/* Mixed dtypes in the contiguous loops                                      */
/* ======================================================================== */

/* Where a mixed call's result goes (run_mixed_1d). */
enum destination {
    TO_NEW, /* a new result */
    TO_OUT, /* out= a 1-d array of a given dtype, some elements into a poisoned base */
    TO_A,   /* out= the first input */
    TO_B    /* out= the second input */
};

/* ufunc u on inputs of dtypes ta and tb (tb unused by a unary ufunc),
   shown as views[k] (1-d, n elements; SCALAR: a weak scalar of its dtype),
   NumPy's loop `loop` and result dtype out_t, into `dest`: for TO_OUT an
   array of dtype `into`, `off` elements into its base (the elements before
   it must stay poisoned). Checked against the host reference; out= of
   another dtype than out_t exactly (the reference rounded to out_t, then
   cast as astype casts: for ops IEEE rounds correctly). */
static void run_mixed_1d(ga_ufunc u, ga_dtype ta, ga_dtype tb, ga_dtype loop, ga_dtype out_t, const unsigned char *views,
                         int64_t n, int dest, ga_dtype into, int64_t off)
{
    static const char *const view_names[] = {[CONTIG] = "contiguous", [OFFSET1] = "one element in",
                                             [OFFSET16] = "16 bytes in", [SCALAR] = "a weak scalar",
                                             [ZERO_D] = "0-d"};
    const ufunc_row *row = &rows[u];
    const spec *sp = &specs[u];
    ga_dtype in_t[2] = {loop, row->result == GA__RESULT_LDEXP ? tb : loop}, types[2] = {ta, tb};
    char what[256];
    snprintf(what, sizeof what, "%s(%s %s%s%s%s) of %lld elements into %s", row->name, dname(ta), view_names[views[0]],
             row->nin > 1 ? ", " : "", row->nin > 1 ? dname(tb) : "", row->nin > 1 ? view_names[views[1]] : "",
             (long long)n,
             dest == TO_NEW ? "a new array" : dest == TO_A ? "the first input" : dest == TO_B ? "the second input"
                                                                                            : dname(into));
    if (dest == TO_OUT) {
        size_t len = strlen(what);
        snprintf(what + len, sizeof what - len, " out= %lld elements in", (long long)off);
    }
    operand ops[2];
    memset(ops, 0, sizeof ops);
    bool made = true;
    int64_t shape[1] = {n};
    for (int k = 0; k < row->nin && made; k++)
        made = make_operand(&ops[k], types[k], sp->domain[k], true, views[k], 1, shape);
    const ga_dtype got_t = dest == TO_OUT ? into : out_t;
    unsigned char *got = (unsigned char *)malloc((size_t)(n + off + 1) * isz(got_t) + 16);
    ga_array *result = NULL, *base = NULL, *out = NULL;
    bool have = false;
    if (!made) {
        /* reported by make_operand */
    } else if (dest == TO_NEW) {
        result = call_new(row, ops);
        have = check_array(what, result, out_t, 1, shape) && download(result, got);
    } else if (dest == TO_OUT) {
        int64_t m = n + off;
        unsigned char *poison = (unsigned char *)malloc((size_t)(m ? m : 1) * isz(into));
        memset(poison, 0xAB, (size_t)(m ? m : 1) * isz(into));
        base = ga_from_host(poison, 1, &m, into);
        char index[32];
        snprintf(index, sizeof index, "%lld:", (long long)off);
        out = base ? ga_index(base, index) : NULL;
        if (!out) {
            FAIL("%s: making out=: %s", what, ga_last_error_message());
        } else if (call_out(row, ops, out) != GA_OK) {
            FAIL("%s: %s", what, ga_last_error_message());
        } else if (download(base, poison)) {
            int64_t touched = 0;
            for (size_t b = 0; b < (size_t)off * isz(into); b++) touched += poison[b] != 0xAB;
            if (touched) FAIL("%s: %lld bytes before out= were written", what, (long long)touched);
            memcpy(got, poison + off * (int64_t)isz(into), (size_t)n * isz(into));
            have = true;
        }
        free(poison);
    } else {
        const int k = dest == TO_A ? 0 : 1;
        if (call_out(row, ops, ops[k].array) != GA_OK) FAIL("%s: %s", what, ga_last_error_message());
        else have = download(ops[k].array, got);
    }
    if (have && got_t == out_t) {
        check_values(what, sp, loop, in_t, out_t, ops, row->nin, 1, shape, got);
    } else if (have) {
        int64_t bad = 0, first = -1;
        for (int64_t k = 0; k < n; k++) {
            elem x[2] = {{0, 0, 0}, {0, 0, 0}};
            for (int j = 0; j < row->nin; j++) x[j] = input_value(&ops[j], in_t[j], 1, shape, k);
            elem want = reference(sp, loop, in_t[1], out_t, x[0], x[1]);
            unsigned char wb[16];
            if (!is_exact(out_t)) want.re = round_to(part_of(out_t), want.re), want.im = round_to(part_of(out_t), want.im);
            store_elem(out_t, want, wb);
            if (!identical(into, load(into, got + k * (int64_t)isz(into)), load_as(out_t, wb, into)) && !bad++) first = k;
        }
        if (bad) FAIL("%s: %lld of %lld wrong, the first at %lld", what, (long long)bad, (long long)n, (long long)first);
    }
    ga_clear_error();
    ga_release(result);
    ga_release(out);
    ga_release(base);
    free(got);
    for (int k = 0; k < row->nin; k++) release_operand(&ops[k]);
}

/* Mixed dtypes and the contiguous loops (ga__ufunc_launch's args.lean): an
   input of the loop dtype's companion (float32 with float64 or complex64,
   float16 with float32, complex64 with complex128), loaded as vectors of
   its own width and widened in registers, in the lean loop where every
   operand is one aligned row, else in the general loop (an operand one
   element into its base: an input or out=); other mixtures (both inputs of
   other dtypes, bool, integers, bfloat16) in the strided loop. Sizes
   around every group size (4 to 16 elements) and the last size % K
   elements, past a million for a few; inputs 16 bytes into their bases
   (aligned, not at their base); out= of the result's dtype, of a third
   dtype, and in place; weak scalars and a 0-d array with an array of
   another dtype. */
DEVICE_TEST(ufunc_mixed_dtypes_contiguous)
{
    static const struct {
        ga_ufunc u;
        ga_dtype a, b, loop, out, into; /* into: a third dtype for out= (exact ops), or GA_DTYPE_INVALID */
        bool big;                       /* run past a million elements too */
    } cases[] = {
#define M(u, a, b, loop, out, into) {GA_UFUNC_##u, GA_##a, GA_##b, GA_##loop, GA_##out, into, false}
#define BIG(u, a, b, loop, out, into) {GA_UFUNC_##u, GA_##a, GA_##b, GA_##loop, GA_##out, into, true}
#define T(d) GA_##d
#define NONE GA_DTYPE_INVALID
        /* a companion input, first or second */
        BIG(ADD, FLOAT32, FLOAT64, FLOAT64, FLOAT64, T(FLOAT32)), M(ADD, FLOAT64, FLOAT32, FLOAT64, FLOAT64, T(COMPLEX128)),
        M(SUBTRACT, FLOAT16, FLOAT32, FLOAT32, FLOAT32, T(FLOAT64)), M(MULTIPLY, FLOAT32, FLOAT16, FLOAT32, FLOAT32, NONE),
        M(MULTIPLY, COMPLEX64, COMPLEX128, COMPLEX128, COMPLEX128, NONE),
        M(ADD, COMPLEX128, COMPLEX64, COMPLEX128, COMPLEX128, T(COMPLEX64)),
        M(ADD, FLOAT32, COMPLEX64, COMPLEX64, COMPLEX64, NONE), M(LESS, FLOAT32, FLOAT64, FLOAT64, BOOL, T(INT8)),
        M(MAXIMUM, FLOAT64, FLOAT32, FLOAT64, FLOAT64, NONE), M(ARCTAN2, FLOAT32, FLOAT64, FLOAT64, FLOAT64, NONE),
        /* other mixtures: one input, or both, of another dtype than the loop's */
        BIG(ADD, INT32, FLOAT64, FLOAT64, FLOAT64, T(FLOAT16)), M(ADD, FLOAT64, INT32, FLOAT64, FLOAT64, NONE),
        BIG(MULTIPLY, INT16, FLOAT16, FLOAT32, FLOAT32, NONE), M(ADD, INT8, UINT8, INT16, INT16, T(FLOAT32)),
        M(SUBTRACT, UINT8, INT64, INT64, INT64, NONE), M(ADD, BOOL, FLOAT32, FLOAT32, FLOAT32, NONE),
        M(ADD, FLOAT16, BFLOAT16, FLOAT32, FLOAT32, NONE), M(ADD, COMPLEX64, FLOAT64, COMPLEX128, COMPLEX128, NONE),
        M(MULTIPLY, COMPLEX64, INT16, COMPLEX64, COMPLEX64, NONE), M(DIVIDE, INT8, INT8, FLOAT64, FLOAT64, NONE),
        M(LESS, INT8, UINT8, INT16, BOOL, T(UINT8)), M(EQUAL, INT32, FLOAT32, FLOAT64, BOOL, NONE),
        M(MAXIMUM, INT8, UINT8, INT16, INT16, NONE), M(ARCTAN2, INT8, INT8, FLOAT16, FLOAT16, NONE),
        M(LDEXP, FLOAT64, UINT8, FLOAT64, FLOAT64, NONE), M(LDEXP, INT8, INT8, FLOAT16, FLOAT16, NONE),
        M(FLOOR_DIVIDE, INT8, UINT8, INT16, INT16, NONE),
        /* one input */
        BIG(SQRT, INT16, INT16, FLOAT32, FLOAT32, NONE), M(SQRT, INT8, INT8, FLOAT16, FLOAT16, NONE),
        M(EXP, UINT16, UINT16, FLOAT32, FLOAT32, NONE), M(SQUARE, BOOL, BOOL, INT8, INT8, NONE),
        M(RINT, UINT8, UINT8, FLOAT16, FLOAT16, NONE), M(SINC, INT16, INT16, FLOAT64, FLOAT64, NONE),
        BIG(ABSOLUTE, INT8, INT8, INT8, INT8, NONE), /* the control: no mixture */
#undef M
#undef BIG
#undef T
#undef NONE
    };
    static const int64_t sizes[] = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 1023, 1025, (1 << 20) + 3};
    static const unsigned char binary_views[][2] = {{CONTIG, CONTIG},   {OFFSET1, CONTIG},  {CONTIG, OFFSET1},
                                                    {OFFSET1, OFFSET1}, {OFFSET16, CONTIG}, {CONTIG, OFFSET16}};
    static const unsigned char unary_views[][2] = {{CONTIG, CONTIG}, {OFFSET1, CONTIG}, {OFFSET16, CONTIG}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ga_ufunc u = cases[i].u;
        const bool one = rows[u].nin == 1;
        const unsigned char(*views)[2] = one ? unary_views : binary_views;
        const size_t nviews = one ? sizeof unary_views / sizeof unary_views[0]
                                  : sizeof binary_views / sizeof binary_views[0];
        const ga_dtype a = cases[i].a, b = cases[i].b, loop = cases[i].loop, out = cases[i].out;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            /* past a million: a few, contiguous and one element in */
            const bool big = sizes[s] > 4096;
            if (big && !cases[i].big) continue;
            for (size_t v = 0; v < nviews; v++) {
                if (big && v > 1) continue;
                run_mixed_1d(u, a, b, loop, out, views[v], sizes[s], TO_NEW, GA_DTYPE_INVALID, 0);
            }
        }
        /* out=: aligned and one element in, of the result's dtype and of a third one; in place */
        static const int64_t out_sizes[] = {17, 1025};
        for (size_t s = 0; s < sizeof out_sizes / sizeof out_sizes[0]; s++) {
            const int64_t n = out_sizes[s];
            for (int64_t off = 0; off < 2; off++) {
                run_mixed_1d(u, a, b, loop, out, views[0], n, TO_OUT, out, off);
                if (cases[i].into != GA_DTYPE_INVALID)
                    run_mixed_1d(u, a, b, loop, out, views[0], n, TO_OUT, cases[i].into, off);
            }
            run_mixed_1d(u, a, b, loop, out, views[0], n, TO_OUT, out, isz(out) < 16 ? 16 / (int64_t)isz(out) : 1);
            if (a == out) run_mixed_1d(u, a, b, loop, out, views[0], n, TO_A, GA_DTYPE_INVALID, 0);
            if (!one && b == out) run_mixed_1d(u, a, b, loop, out, views[0], n, TO_B, GA_DTYPE_INVALID, 0);
        }
    }
    /* weak scalars (a Python float with an integer array: the float64 loop, the array converted) and a
       0-d array of another dtype (not weak: NumPy 2) */
    static const unsigned char scalar_views[][2] = {{CONTIG, SCALAR}, {SCALAR, CONTIG}, {OFFSET1, SCALAR},
                                                    {SCALAR, OFFSET16}, {ZERO_D, CONTIG}, {CONTIG, ZERO_D}};
    static const int64_t scalar_sizes[] = {1, 5, 17, 1025};
    for (size_t v = 0; v < sizeof scalar_views / sizeof scalar_views[0]; v++)
        for (size_t s = 0; s < sizeof scalar_sizes / sizeof scalar_sizes[0]; s++) {
            const unsigned char *w = scalar_views[v];
            const bool first_scalar = w[0] == SCALAR || w[0] == ZERO_D;
            const int64_t n = scalar_sizes[s];
            if (w[0] == ZERO_D || w[1] == ZERO_D) {
                run_mixed_1d(GA_UFUNC_ADD, first_scalar ? GA_FLOAT64 : GA_FLOAT32, first_scalar ? GA_FLOAT32 : GA_FLOAT64,
                             GA_FLOAT64, GA_FLOAT64, w, n, TO_NEW, GA_DTYPE_INVALID, 0);
                run_mixed_1d(GA_UFUNC_MULTIPLY, first_scalar ? GA_INT32 : GA_INT8, first_scalar ? GA_INT8 : GA_INT32,
                             GA_INT32, GA_INT32, w, n, TO_NEW, GA_DTYPE_INVALID, 0);
                continue;
            }
            run_mixed_1d(GA_UFUNC_ADD, first_scalar ? GA_FLOAT64 : GA_INT8, first_scalar ? GA_INT8 : GA_FLOAT64,
                         GA_FLOAT64, GA_FLOAT64, w, n, TO_NEW, GA_DTYPE_INVALID, 0);
            run_mixed_1d(GA_UFUNC_SUBTRACT, first_scalar ? GA_FLOAT64 : GA_UINT16, first_scalar ? GA_UINT16 : GA_FLOAT64,
                         GA_FLOAT64, GA_FLOAT64, w, n, TO_NEW, GA_DTYPE_INVALID, 0);
            run_mixed_1d(GA_UFUNC_LESS, first_scalar ? GA_FLOAT64 : GA_INT32, first_scalar ? GA_INT32 : GA_FLOAT64,
                         GA_FLOAT64, GA_BOOL, w, n, TO_NEW, GA_DTYPE_INVALID, 0);
        }
}

/* Inputs that overlap out= otherwise than exactly are read before it is
   written (NumPy's copies). */
DEVICE_TEST(ufunc_out_overlapping_inputs)
{
    const int64_t n = 4097;
    int64_t *v = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *got = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) v[i] = i * i - 5;
    /* a[1:] = a[:-1] + a[1:] */
    ga_array *a = ga_from_host(v, 1, &n, GA_INT64), *lo = ga_index(a, ":-1"), *hi = ga_index(a, "1:");
    CHECK_OK(ga_add_out(lo, hi, hi));
    if (ga_to_host(a, got, sizeof(int64_t) * (size_t)n) == GA_OK) {
        int64_t bad = got[0] != v[0];
        for (int64_t i = 1; i < n; i++) bad += got[i] != v[i - 1] + v[i];
        CHECK(bad == 0, "a[1:] = a[:-1] + a[1:]: %lld wrong", (long long)bad);
    }
    ga_release(lo), ga_release(hi), ga_release(a);
    /* a = -a[::-1] */
    a = ga_from_host(v, 1, &n, GA_INT64);
    ga_array *rev = ga_index(a, "::-1");
    CHECK_OK(ga_negative_out(rev, a));
    if (ga_to_host(a, got, sizeof(int64_t) * (size_t)n) == GA_OK) {
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++) bad += got[i] != -v[n - 1 - i];
        CHECK(bad == 0, "a = -a[::-1]: %lld wrong", (long long)bad);
    }
    ga_release(rev);
    /* a = a * a (the same array three times) */
    ga_release(a);
    a = ga_from_host(v, 1, &n, GA_INT64);
    CHECK_OK(ga_multiply_out(a, a, a));
    if (ga_to_host(a, got, sizeof(int64_t) * (size_t)n) == GA_OK) {
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++) bad += got[i] != (int64_t)((uint64_t)v[i] * (uint64_t)v[i]);
        CHECK(bad == 0, "a *= a: %lld wrong", (long long)bad);
    }
    ga_release(a);
    free(v), free(got);
}

/* ======================================================================== */
/* Errors                                                                    */
/* ======================================================================== */

/* Whether the float64 array `a` still holds only `value`. */
static bool untouched(const ga_array *a, double value)
{
    double h[8];
    if (!a || ga_size(a) > 8 || ga_to_host(a, h, ga_nbytes(a)) != GA_OK) return false;
    for (int64_t i = 0; i < ga_size(a); i++)
        if (h[i] != value) return false;
    return true;
}

DEVICE_TEST(ufunc_errors)
{
    ga_array *a3 = ga_ones(1, (const int64_t[]){3}, GA_FLOAT64), *b4 = ga_ones(1, (const int64_t[]){4}, GA_FLOAT64);
    ga_array *f32 = ga_ones(1, (const int64_t[]){3}, GA_FLOAT32), *bools = ga_ones(1, (const int64_t[]){3}, GA_BOOL);
    ga_array *c64 = ga_ones(1, (const int64_t[]){3}, GA_COMPLEX64);
    /* shapes that do not broadcast */
    CHECK_ERROR(ga_add(a3, b4) == NULL, GA_ERROR_SHAPE, "could not be broadcast");
    CHECK_ERROR(ga_isclose(a3, b4, 1e-5, 1e-8, false) == NULL, GA_ERROR_SHAPE, "could not be broadcast");
    ga_array *q = NULL, *r = NULL;
    CHECK_ERROR(ga_divmod(a3, b4, &q, &r) != GA_OK && !q && !r, GA_ERROR_SHAPE, "could not be broadcast");
    /* no loop for the dtype: the message names the ufunc */
    CHECK_ERROR(ga_bitwise_and(f32, f32) == NULL, GA_ERROR_TYPE, "'bitwise_and'");
    CHECK_ERROR(ga_invert(f32) == NULL, GA_ERROR_TYPE, "'invert'");
    CHECK_ERROR(ga_left_shift_scalar(f32, ga_int(1)) == NULL, GA_ERROR_TYPE, "'left_shift'");
    CHECK_ERROR(ga_fabs(c64) == NULL, GA_ERROR_TYPE, "'fabs'");
    CHECK_ERROR(ga_ldexp(f32, f32) == NULL, GA_ERROR_TYPE, "'ldexp'");
    CHECK_ERROR(ga_subtract(bools, bools) == NULL, GA_ERROR_TYPE, "boolean subtract");
    CHECK_ERROR(ga_negative(bools) == NULL, GA_ERROR_TYPE, "boolean negative");
    /* out= of a wrong shape, or of a dtype same_kind does not allow: an
       error, and out is left as it was */
    ga_array *out4 = ga_full(1, (const int64_t[]){4}, ga_float(7), GA_FLOAT64);
    CHECK_ERROR(ga_add_out(a3, a3, out4) != GA_OK, GA_ERROR_SHAPE, "shape");
    CHECK(untouched(out4, 7), "out of a wrong shape is not written");
    ga_array *m23 = ga_ones(2, (const int64_t[]){2, 3}, GA_FLOAT64);
    ga_array *out3 = ga_full(1, (const int64_t[]){3}, ga_float(7), GA_FLOAT64);
    CHECK_ERROR(ga_sqrt_out(m23, out3) != GA_OK, GA_ERROR_SHAPE, "shape");
    CHECK(untouched(out3, 7), "out smaller than the broadcast shape is not written");
    ga_array *outi = ga_full(1, (const int64_t[]){3}, ga_int(7), GA_INT32);
    CHECK_ERROR(ga_add_out(a3, a3, outi) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'");
    int32_t iv[3] = {0, 0, 0};
    CHECK(ga_to_host(outi, iv, sizeof iv) == GA_OK && iv[0] == 7 && iv[2] == 7, "out of a wrong dtype is not written");
    ga_array *outf = ga_full(1, (const int64_t[]){3}, ga_float(7), GA_FLOAT32);
    CHECK_ERROR(ga_sqrt_out(c64, outf) != GA_OK, GA_ERROR_TYPE, "Cannot cast ufunc 'sqrt' output from dtype('complex64')");
    /* two outputs: one of a wrong dtype, and neither is written */
    ga_operand in[2] = {ga_operand_array(a3), ga_operand_array(a3)};
    ga_array *outs[2] = {out3, outi};
    CHECK_ERROR(ga_ufunc_call(GA_UFUNC_DIVMOD, in, outs) != GA_OK, GA_ERROR_TYPE, "'divmod'");
    CHECK(untouched(out3, 7) && outs[0] == out3 && outs[1] == outi, "divmod's first output is not written either");
    /* a read-only out */
    ga_array *ro = ga_broadcast_to(a3, 2, (const int64_t[]){2, 3});
    CHECK_ERROR(ga_add_out(m23, m23, ro) != GA_OK, GA_ERROR_VALUE, "read-only");
    CHECK(untouched(a3, 1), "a read-only out is not written");
    /* NULL arguments; a NULL input keeps the error that made it */
    CHECK_ERROR(ga_add(NULL, a3) == NULL, GA_ERROR_NULL_INPUT, "ga_add");
    CHECK_ERROR(ga_sqrt(NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_sqrt");
    CHECK_ERROR(ga_add_out(a3, a3, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "out");
    CHECK_ERROR(ga_where(NULL, a3, a3) == NULL, GA_ERROR_NULL_INPUT, "ga_where");
    CHECK_ERROR(ga_modf(a3, NULL, &r) != GA_OK, GA_ERROR_NULL_INPUT, "ga_modf");
    bool all = false;
    CHECK_ERROR(ga_allclose(a3, a3, 1e-5, 1e-8, false, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_allclose");
    CHECK_ERROR(ga_allclose(a3, b4, 1e-5, 1e-8, false, &all) != GA_OK, GA_ERROR_SHAPE, "could not be broadcast");
    CHECK_ERROR(ga_sqrt(ga_add(a3, b4)) == NULL, GA_ERROR_SHAPE, "could not be broadcast");
    ga_operand failed_in[2] = {ga_operand_array(ga_add(a3, b4)), ga_operand_array(a3)};
    ga_array *failed_out[2] = {NULL, NULL};
    CHECK_ERROR(ga_ufunc_call(GA_UFUNC_ADD, failed_in, failed_out) != GA_OK, GA_ERROR_SHAPE, "could not be broadcast");
    CHECK(failed_out[0] == NULL, "ga_ufunc_call on a NULL array (an earlier failure) makes no output");
    ga_release(failed_out[0]);
    ga_scope_begin();
    CHECK_ERROR(ga_multiply_scalar(ga_exp(ga_zeros(1, (const int64_t[]){-1}, GA_FLOAT32)), ga_int(2)) == NULL,
                GA_ERROR_VALUE, "ga_zeros: negative dimensions are not allowed");
    ga_scope_end();
    /* clip needs a bound; ga_ufunc_call needs a ufunc */
    CHECK_ERROR(ga_clip(a3, NULL, NULL) == NULL, GA_ERROR_VALUE, "max or min");
    ga_array *none[2] = {NULL, NULL};
    CHECK_ERROR(ga_ufunc_call(GA_NUM_UFUNCS, in, none) != GA_OK, GA_ERROR_VALUE, "ufunc");
    CHECK(none[0] == NULL, "no output on failure");
    ga_release(a3), ga_release(b4), ga_release(f32), ga_release(bools), ga_release(c64), ga_release(out4);
    ga_release(m23), ga_release(out3), ga_release(outi), ga_release(outf), ga_release(ro);
}

/* ======================================================================== */
/* Issue 15: NumPy parity                                                    */
/* ======================================================================== */

/* float16 spacing as NumPy's npy_half_spacing (nextafter(x, inf) - x, never
   negative), also of int8, uint8 and bool inputs, whose loop is float16:
   NumPy's values. */
DEVICE_TEST(ufunc_spacing_float16_as_numpy)
{
    static const double f16[][2] = {
        {8, 0.0078125}, {-8, 0.00390625}, {-16, 0.0078125}, {1, 0x1p-10}, {-1, 0x1p-11}, {-1.5, 0x1p-10},
        {65504, INFINITY}, {-65504, 32}, {0, 0x1p-24}, {-0.0, 0x1p-24}, {0x1p-14, 0x1p-24}, {-0x1p-14, 0x1p-24},
        {-0x1p-13, 0x1p-24}, {0x1p-13, 0x1p-23}, {0x1p-24, 0x1p-24}, {-0x1p-24, 0x1p-24}, {1000, 0.5}, {-1024, 0.5},
        {INFINITY, NAN}, {-INFINITY, NAN}, {NAN, NAN}};
    int64_t n = (int64_t)(sizeof f16 / sizeof f16[0]);
    uint16_t x[32], got[32];
    for (int64_t i = 0; i < n; i++) x[i] = ref_f16_from_double(f16[i][0]);
    ga_array *a = ga_from_host(x, 1, &n, GA_FLOAT16), *r = ga_spacing(a);
    if (r && ga_to_host(r, got, sizeof got) == GA_OK) {
        for (int64_t i = 0; i < n; i++) {
            double g = ref_f16_to_double(got[i]);
            if (isnan(f16[i][1])) CHECK(got[i] == 0x7e00, "spacing(float16 %g) = bits 0x%04x, NumPy's NaN 0x7e00", f16[i][0], got[i]);
            else CHECK(g == f16[i][1] && !signbit(g), "spacing(float16 %g) = %g, NumPy %g", f16[i][0], g, f16[i][1]);
        }
    } else {
        FAIL("ga_spacing(float16): %s", ga_last_error_message());
    }
    ga_release(a), ga_release(r);
    /* integer and bool inputs: the float16 loop */
    static const struct {
        ga_dtype t;
        int n;
        int64_t v[8];
        double want[8];
    } ints[] = {
        {GA_INT8, 8, {8, -8, -16, 0, 1, -1, 127, -128}, {0.0078125, 0.00390625, 0.0078125, 0x1p-24, 0x1p-10, 0x1p-11, 0.0625, 0.0625}},
        {GA_UINT8, 3, {8, 255, 0}, {0.0078125, 0.125, 0x1p-24}},
        {GA_BOOL, 2, {1, 0}, {0x1p-10, 0x1p-24}},
    };
    for (size_t c = 0; c < sizeof ints / sizeof ints[0]; c++) {
        uint8_t bytes[8];
        for (int i = 0; i < ints[c].n; i++) bytes[i] = (uint8_t)ints[c].v[i];
        int64_t m = ints[c].n;
        ga_array *ai = ga_from_host(bytes, 1, &m, ints[c].t), *ri = ga_spacing(ai);
        if (!ri || ga_dtype_of(ri) != GA_FLOAT16 || ga_to_host(ri, got, (size_t)m * 2) != GA_OK) {
            FAIL("ga_spacing(%s): %s", dname(ints[c].t), ri ? "not float16" : ga_last_error_message());
        } else {
            for (int i = 0; i < ints[c].n; i++)
                CHECK(ref_f16_to_double(got[i]) == ints[c].want[i], "spacing(%s %lld) = %g, NumPy %g", dname(ints[c].t),
                      (long long)ints[c].v[i], ref_f16_to_double(got[i]), ints[c].want[i]);
        }
        ga_clear_error();
        ga_release(ai), ga_release(ri);
    }
}

/* Integer power with a negative exponent: NumPy's ValueError, for array
   exponents (any layout, a 0-d one) and scalar ones; nothing written to
   out=; an empty result, unsigned and bool exponents and float bases are no
   error. */
DEVICE_TEST(ufunc_integer_power_negative_exponent)
{
    static const char msg[] = "Integers to negative integer powers are not allowed.";
    const int64_t four = 4, eight = 8;
    const int8_t base8[4] = {2, 3, -1, 1}, exp8[4] = {1, 2, -1, 3};
    const int64_t base64[8] = {2, 3, 4, 5, 6, 7, 8, 9}, exp64[8] = {1, 1, 1, 1, 1, 1, 1, -2};
    ga_array *b8 = ga_from_host(base8, 1, &four, GA_INT8), *e8 = ga_from_host(exp8, 1, &four, GA_INT8);
    ga_array *b64 = ga_from_host(base64, 1, &eight, GA_INT64), *e64 = ga_from_host(exp64, 1, &eight, GA_INT64);
    CHECK_ERROR(ga_power(b8, e8) == NULL, GA_ERROR_VALUE, msg);
    CHECK_ERROR(ga_power(b64, e64) == NULL, GA_ERROR_VALUE, msg);
    /* a strided view with the negative exponent, and one without */
    ga_array *odd = ga_index(e64, "1::2"), *even = ga_index(e64, "::2"), *bh = ga_index(b64, ":4");
    CHECK_ERROR(ga_power(bh, odd) == NULL, GA_ERROR_VALUE, msg);
    ga_array *fine = ga_power(bh, even);
    CHECK(fine != NULL, "power with exponents >= 0 in a view: %s", ga_last_error_message());
    ga_clear_error();
    /* a 0-d exponent, broadcast */
    const int64_t minus_one = -1;
    ga_array *zd = ga_from_host(&minus_one, 0, NULL, GA_INT64);
    CHECK_ERROR(ga_power(b64, zd) == NULL, GA_ERROR_VALUE, msg);
    /* scalar exponents (a weak Python int), and the reflected form's base is free */
    CHECK_ERROR(ga_power_scalar(b8, ga_int(-1)) == NULL, GA_ERROR_VALUE, msg);
    ga_operand in[2] = {ga_operand_array(b64), ga_operand_scalar(ga_int(-3))};
    ga_array *outs[2] = {NULL, NULL};
    CHECK_ERROR(ga_ufunc_call(GA_UFUNC_POWER, in, outs) != GA_OK, GA_ERROR_VALUE, msg);
    CHECK(outs[0] == NULL, "no output made on failure");
    ga_array *abs8 = ga_abs(e8), *rb = ga_power_rscalar(ga_int(-2), abs8);
    CHECK(rb != NULL, "(-2) ** |e|: %s", ga_last_error_message());
    ga_clear_error();
    /* out= is left as it was */
    int64_t before[8] = {7, 7, 7, 7, 7, 7, 7, 7}, after[8];
    ga_array *out = ga_from_host(before, 1, &eight, GA_INT64);
    CHECK_ERROR(ga_power_out(b64, e64, out) != GA_OK, GA_ERROR_VALUE, msg);
    if (out && ga_to_host(out, after, sizeof after) == GA_OK)
        CHECK(memcmp(before, after, sizeof before) == 0, "out= was written by a failed power");
    CHECK_ERROR(ga_power_out(b64, e64, b64) != GA_OK, GA_ERROR_VALUE, msg); /* in place */
    if (ga_to_host(b64, after, sizeof after) == GA_OK)
        CHECK(memcmp(base64, after, sizeof base64) == 0, "the base was written by a failed in-place power");
    /* no error: an empty result, unsigned or bool exponents, a float base */
    const int64_t zero = 0;
    ga_array *empty = ga_zeros(1, &zero, GA_INT32), *r;
    r = ga_power_scalar(empty, ga_int(-1));
    CHECK(r && ga_size(r) == 0, "power of an empty array: %s", ga_last_error_message());
    ga_clear_error(), ga_release(r);
    r = ga_power(empty, zd);
    CHECK(r && ga_size(r) == 0, "power with an empty result: %s", ga_last_error_message());
    ga_clear_error(), ga_release(r);
    const uint8_t uexp[4] = {255, 0, 1, 2};
    ga_array *ue = ga_from_host(uexp, 1, &four, GA_UINT8);
    r = ga_power(b8, ue); /* int16 loop */
    int16_t r16[4];
    CHECK(r && ga_to_host(r, r16, sizeof r16) == GA_OK && r16[1] == 1 && r16[2] == -1 && r16[3] == 1,
          "power(int8, uint8): %s", ga_last_error_message());
    ga_clear_error(), ga_release(r);
    const double fbase[4] = {2, 4, 0.5, -2};
    ga_array *fb = ga_from_host(fbase, 1, &four, GA_FLOAT64);
    r = ga_power(fb, e8);
    double rf[4];
    CHECK(r && ga_to_host(r, rf, sizeof rf) == GA_OK && rf[0] == 2 && rf[1] == 16 && rf[2] == 2 && rf[3] == -8,
          "power(float64, int8) with a negative exponent: %s", ga_last_error_message());
    ga_clear_error(), ga_release(r);
    ga_release(b8), ga_release(e8), ga_release(b64), ga_release(e64), ga_release(odd), ga_release(even);
    ga_release(bh), ga_release(fine), ga_release(zd), ga_release(rb), ga_release(out), ga_release(empty);
    ga_release(ue), ga_release(fb), ga_release(abs8);
}

/* NumPy's npy_cpow for an integer exponent n (|n| < 100) in double or float
   (`wide`), with each product rounded on its own (NumPy's scalar code). */
static void cmul_in(bool wide, double ar, double ai, double br, double bi, double *rr, double *ri)
{
    if (wide) {
        volatile double p1 = ar * br, p2 = ai * bi, p3 = ar * bi, p4 = ai * br;
        *rr = p1 - p2, *ri = p3 + p4;
    } else {
        volatile float p1 = (float)ar * (float)br, p2 = (float)ai * (float)bi, p3 = (float)ar * (float)bi,
                       p4 = (float)ai * (float)br;
        *rr = (float)(p1 - p2), *ri = (float)(p3 + p4);
    }
}
static void npy_cpow_int(bool wide, double ar, double ai, int n, double *rr, double *ri)
{
    if (n == 0) { *rr = 1, *ri = 0; return; }
    if (ar == 0 && ai == 0) { *rr = n > 0 ? 0 : NAN, *ri = n > 0 ? 0 : NAN; return; }
    if (n == 1) { *rr = ar, *ri = ai; return; }
    if (n == 2) { cmul_in(wide, ar, ai, ar, ai, rr, ri); return; }
    if (n == 3) {
        double sr, si;
        cmul_in(wide, ar, ai, ar, ai, &sr, &si);
        cmul_in(wide, ar, ai, sr, si, rr, ri);
        return;
    }
    int m = n < 0 ? -n : n;
    double aar = 1, aai = 0, pr = ar, pi = ai;
    for (int mask = 1;; mask <<= 1) {
        if (m & mask) cmul_in(wide, aar, aai, pr, pi, &aar, &aai);
        if (m < (mask << 1)) break;
        cmul_in(wide, pr, pi, pr, pi, &pr, &pi);
    }
    *rr = aar, *ri = aai; /* negative n: Smith's 1 / r, not compared below */
}

/* Complex power with small integer exponents at infinities, NaN and
   overflow, and complex multiply: NumPy's values part by part (NaN for
   NaN, infinities with their signs), products never fused into an fma. */
DEVICE_TEST(ufunc_complex_power_and_multiply_special_values)
{
    /* parts whose squares overflow: 1e200 in complex128, 1e20 in complex64 */
    static const double parts_d[] = {INFINITY, -INFINITY, NAN, 0.0, 1.0, -2.0, 0.5, 1e200, -3e250, 1e30};
    static const double parts_f[] = {INFINITY, -INFINITY, NAN, 0.0, 1.0, -2.0, 0.5, 0x1p66, -0x1p83, 0x1p30};
    const int np_ = (int)(sizeof parts_d / sizeof parts_d[0]);
    for (int w = 0; w < 2; w++) {
        ga_dtype t = w ? GA_COMPLEX128 : GA_COMPLEX64;
        bool wide = w != 0;
        const double *parts = wide ? parts_d : parts_f;
        int64_t n = np_ * np_;
        double *z = (double *)malloc((size_t)n * 2 * sizeof(double));
        float *zf = (float *)malloc((size_t)n * 2 * sizeof(float));
        for (int i = 0; i < np_; i++)
            for (int j = 0; j < np_; j++) {
                z[2 * (i * np_ + j)] = parts[i], z[2 * (i * np_ + j) + 1] = parts[j];
                zf[2 * (i * np_ + j)] = (float)parts[i], zf[2 * (i * np_ + j) + 1] = (float)parts[j];
            }
        ga_array *a = wide ? ga_from_host(z, 1, &n, t) : ga_from_host(zf, 1, &n, t);
        double *got = (double *)malloc((size_t)n * 2 * sizeof(double));
        float *gotf = (float *)malloc((size_t)n * 2 * sizeof(float));
        for (int e = 0; e <= 5; e++) {
            ga_array *r = ga_power_scalar(a, ga_int(e));
            int bad = 0;
            if (!r || (wide ? ga_to_host(r, got, (size_t)n * 16) : ga_to_host(r, gotf, (size_t)n * 8)) != GA_OK) {
                FAIL("power(%s, %d): %s", dname(t), e, ga_last_error_message());
            } else {
                for (int64_t k = 0; k < n && bad < 3; k++) {
                    double wr, wi, gr = wide ? got[2 * k] : gotf[2 * k], gi = wide ? got[2 * k + 1] : gotf[2 * k + 1];
                    npy_cpow_int(wide, z[2 * k], z[2 * k + 1], e, &wr, &wi);
                    if (!wide) wr = (float)wr, wi = (float)wi;
                    bool ok = (isnan(wr) ? isnan(gr) : (isinf(wr) ? gr == wr : !isnan(gr) && !isinf(gr))) &&
                              (isnan(wi) ? isnan(gi) : (isinf(wi) ? gi == wi : !isnan(gi) && !isinf(gi)));
                    if (!ok && ++bad)
                        FAIL("power(%s(%g, %g), %d) = (%g, %g), NumPy (%g, %g)", dname(t), z[2 * k], z[2 * k + 1], e, gr, gi,
                             wr, wi);
                }
            }
            ga_release(r);
        }
        /* multiply by itself: NumPy's scalar formula (ar*br - ai*bi, ...) */
        ga_array *sq = ga_multiply(a, a);
        int bad = 0;
        if (!sq || (wide ? ga_to_host(sq, got, (size_t)n * 16) : ga_to_host(sq, gotf, (size_t)n * 8)) != GA_OK) {
            FAIL("multiply(%s): %s", dname(t), ga_last_error_message());
        } else {
            for (int64_t k = 0; k < n && bad < 3; k++) {
                double wr, wi, gr = wide ? got[2 * k] : gotf[2 * k], gi = wide ? got[2 * k + 1] : gotf[2 * k + 1];
                cmul_in(wide, z[2 * k], z[2 * k + 1], z[2 * k], z[2 * k + 1], &wr, &wi);
                bool ok = (isnan(wr) ? isnan(gr) : gr == wr || (!isinf(wr) && fabs(gr - wr) <= 1e-6 * fabs(wr))) &&
                          (isnan(wi) ? isnan(gi) : gi == wi || (!isinf(wi) && fabs(gi - wi) <= 1e-6 * fabs(wi)));
                if (!ok && ++bad)
                    FAIL("multiply(%s(%g, %g)) squared = (%g, %g), expected (%g, %g)", dname(t), z[2 * k], z[2 * k + 1], gr,
                         gi, wr, wi);
            }
        }
        ga_release(sq), ga_release(a);
        free(z), free(zf), free(got), free(gotf);
    }
}

/* log1p of complex numbers near 0 and near the circle |1 + z| = 1, where
   NumPy's log(hypot(x + 1, y)) loses the real part (log1p(1e-18 + 1e-18j)
   is 1e-18 + 1e-18j; NumPy says 0 + 1e-18j): each part within a few eps
   of the exact value (the real part computed in long double from 2x + x^2
   + y^2, exact enough for these inputs), and NumPy's values away from it. */
DEVICE_TEST(ufunc_complex_log1p_is_accurate_near_zero)
{
    static const double z[][2] = {{1e-18, 1e-18}, {1e-3, 2e-3}, {-3e-4, 5e-5}, {2.5e-8, -1e-9},
                                  {0.3, -0.4},    {1e300, 1e300}, {-1, 0},    {-0.5, 1e-10}};
    const int64_t n = (int64_t)(sizeof z / sizeof z[0]);
    for (int w = 0; w < 2; w++) {
        const ga_dtype t = w ? GA_COMPLEX128 : GA_COMPLEX64;
        double in[16], got[16];
        float inf_[16], gotf[16];
        for (int k = 0; k < 2 * n; k++) in[k] = w ? z[k / 2][k % 2] : (double)(float)z[k / 2][k % 2], inf_[k] = (float)in[k];
        ga_array *a = w ? ga_from_host(in, 1, &n, t) : ga_from_host(inf_, 1, &n, t);
        ga_array *r = ga_log1p(a);
        bool ok = r && (w ? ga_to_host(r, got, sizeof got) : ga_to_host(r, gotf, sizeof gotf)) == GA_OK;
        CHECK(ok, "log1p(%s): %s", dname(t), ga_last_error_message());
        const double eps = w ? 4e-16 : 2e-7;
        for (int k = 0; ok && k < n; k++) {
            const long double x = in[2 * k], y = in[2 * k + 1];
            const long double big = hypotl(x + 1, y);
            const double re = (double)(big > 0.5L && big < 2.0L ? 0.5L * log1pl(2 * x + x * x + y * y) : logl(big));
            const double im = (double)atan2l(y, (long double)(w ? in[2 * k] + 1 : (double)(inf_[2 * k] + 1.0f)));
            const double gr = w ? got[2 * k] : gotf[2 * k], gi = w ? got[2 * k + 1] : gotf[2 * k + 1];
            CHECK((isinf(re) ? gr == re : fabs(gr - re) <= eps * fabs(re)) && fabs(gi - im) <= eps * fabs(im) + 1e-300,
                  "log1p(%s(%g, %g)) = (%.17g, %.17g), expected (%.17g, %.17g)", dname(t), in[2 * k], in[2 * k + 1], gr, gi,
                  re, im);
        }
        ga_release(r), ga_release(a);
    }
}

/* NumPy's rules met by the random differential run: logical_and / _or /
   _xor take a weak float or complex scalar's truth (5e-324 is true though
   it is 0 in float16); ldexp's weak int exponent must fit NumPy's int32
   loop; hypot near the largest finite value does not overflow (glibc's
   hypot(DBL_MAX, 1) is DBL_MAX), nor |z| of such a complex number; a
   float32 hypot past FLT_MAX rounds as glibc's. */
DEVICE_TEST(ufunc_scalar_truth_ldexp_range_hypot_near_max)
{
    const uint16_t h[2] = {0x3c00, 0x0000}; /* float16 1, 0 */
    ga_array *a = ga_from_host(h, 1, (const int64_t[]){2}, GA_FLOAT16);
    ga_array *r = ga_logical_and_scalar(a, ga_float(5e-324));
    bool got[2] = {false, true};
    CHECK(r && ga_to_host(r, got, sizeof got) == GA_OK && got[0] && !got[1], "logical_and(float16, 5e-324): %d %d, NumPy 1 0",
          got[0], got[1]);
    ga_release(r);
    r = ga_logical_xor_rscalar(ga_complex(-1e-310, 0), a);
    CHECK(r && ga_to_host(r, got, sizeof got) == GA_OK && !got[0] && got[1], "logical_xor(-1e-310+0j, float16): %d %d, "
          "NumPy 0 1", got[0], got[1]);
    ga_release(r);
    r = ga_ldexp_scalar(a, ga_int(INT64_C(2147483648)));
    CHECK(!r && ga_last_error() == GA_ERROR_OVERFLOW && strstr(ga_last_error_message(), "out of bounds for int32"),
          "ldexp(float16, 2**31): %s", r ? "succeeded" : ga_last_error_message());
    ga_release(r), ga_clear_error();
    r = ga_ldexp_scalar(a, ga_uint(UINT64_C(1) << 63));
    CHECK(!r && ga_last_error() == GA_ERROR_OVERFLOW && strstr(ga_last_error_message(), "too large to convert to C long"),
          "ldexp(float16, 2**63): %s", r ? "succeeded" : ga_last_error_message());
    ga_release(r), ga_clear_error();
    r = ga_ldexp_scalar(a, ga_int(-3));
    CHECK(r != NULL, "ldexp(float16, -3): %s", ga_last_error_message());
    ga_release(r), ga_release(a);

    const double big[4] = {DBL_MAX, 1.0, -DBL_MAX, 1e300};
    ga_array *x = ga_from_host(big, 1, (const int64_t[]){4}, GA_FLOAT64);
    ga_array *hx = ga_hypot_scalar(x, ga_float(3.0));
    double hv[4] = {0};
    CHECK(hx && ga_to_host(hx, hv, sizeof hv) == GA_OK && hv[0] == DBL_MAX && hv[2] == DBL_MAX &&
              fabs(hv[1] - sqrt(10.0)) <= 4 * DBL_EPSILON * sqrt(10.0) && hv[3] == 1e300,
          "hypot(x, 3) near DBL_MAX: %g %g %g %g", hv[0], hv[1], hv[2], hv[3]);
    ga_release(hx);
    ga_array *c = ga_from_host(big, 1, (const int64_t[]){2}, GA_COMPLEX128); /* DBL_MAX + 1j, -DBL_MAX + 1e300j */
    ga_array *m = ga_absolute(c);
    double mv[2] = {0};
    CHECK(m && ga_to_host(m, mv, sizeof mv) == GA_OK && mv[0] == DBL_MAX && mv[1] == DBL_MAX,
          "absolute(complex near DBL_MAX): %g %g", mv[0], mv[1]);
    ga_release(m), ga_release(c), ga_release(x);
    const float fb[2] = {FLT_MAX, 2.0f};
    ga_array *xf = ga_from_host(fb, 1, (const int64_t[]){2}, GA_FLOAT32);
    ga_array *hf = ga_hypot(xf, xf);
    float fv[2] = {0};
    CHECK(hf && ga_to_host(hf, fv, sizeof fv) == GA_OK && isinf(fv[0]) && fabsf(fv[1] - 2.8284271f) <= 1e-6f,
          "hypot(float32): FLT_MAX * sqrt(2) overflows, hypot(2, 2): %g %g", fv[0], fv[1]);
    ga_release(hf), ga_release(xf);
    /* float32 roots just past FLT_MAX: inf where the root rounds up to
       2^128, FLT_MAX where it rounds down (NumPy, glibc's hypotf; CUDA's
       hypotf gave FLT_MAX for both), and a NaN beside an inf is inf */
    const float fx[3] = {FLT_MAX, FLT_MAX, NAN}, fy[3] = {1e35f, 5e34f, -INFINITY};
    ga_array *ax = ga_from_host(fx, 1, (const int64_t[]){3}, GA_FLOAT32), *ay = ga_from_host(fy, 1, (const int64_t[]){3}, GA_FLOAT32);
    ga_array *edge = ga_hypot(ax, ay);
    float ev[3] = {0};
    CHECK(edge && ga_to_host(edge, ev, sizeof ev) == GA_OK && isinf(ev[0]) && ev[1] == FLT_MAX && isinf(ev[2]),
          "hypot(float32) at the overflow edge: %g %g %g, NumPy inf 3.4028235e+38 inf", ev[0], ev[1], ev[2]);
    ga_release(edge), ga_release(ax), ga_release(ay);
    ga_clear_error();
}

/* A new result's layout is NumPy's order K (its iterator's axis sort over
   every input's strides): zero strides and unit axes do not vote, and
   where inputs disagree C order wins, axis by axis. Expected strides are
   NumPy's own for the same layouts. */
DEVICE_TEST(ufunc_result_order_k)
{
    ga_array *base = ga_zeros(1, (const int64_t[]){200}, GA_FLOAT32);
    ga_array *v = base ? ga_as_strided(base, 3, (const int64_t[]){4, 14, 2}, (const int64_t[]){0, 12, 480}, 0) : NULL;
    ga_array *r = v ? ga_negative(v) : NULL;
    const int64_t want1[3] = {28 * 4, 1 * 4, 14 * 4};
    CHECK(r && ga_strides(r)[0] == want1[0] && ga_strides(r)[1] == want1[1] && ga_strides(r)[2] == want1[2],
          "negative of a (4,14,2) view with strides (0,3,120) elements: strides (%lld,%lld,%lld), NumPy (112,4,56)",
          r ? (long long)ga_strides(r)[0] : -1, r ? (long long)ga_strides(r)[1] : -1, r ? (long long)ga_strides(r)[2] : -1);
    ga_release(r), ga_release(v), ga_release(base);
    ga_array *c = ga_zeros(4, (const int64_t[]){39, 6, 6, 3}, GA_FLOAT32);
    ga_array *f = c ? ga_transpose(c, NULL) : NULL; /* (3, 6, 6, 39), F order */
    ga_array *b = ga_zeros(4, (const int64_t[]){1, 6, 1, 39}, GA_FLOAT32);
    r = f && b ? ga_add(f, b) : NULL;
    const int64_t want2[4] = {1 * 4, 702 * 4, 3 * 4, 18 * 4};
    bool same = r && ga_ndim(r) == 4;
    for (int d = 0; same && d < 4; d++) same = ga_strides(r)[d] == want2[d];
    CHECK(same, "add(F-ordered (3,6,6,39), C (1,6,1,39)): strides differ from NumPy's (4, 2808, 12, 72)%s",
          r ? "" : ga_last_error_message());
    ga_release(r), ga_release(b), ga_release(f), ga_release(c);
    ga_clear_error();
}

/* NumPy parity cases the random differential run found. */
DEVICE_TEST(ufunc_numpy_loop_quirks)
{
    /* power with one exponent for all elements: 0.5 is sqrt in NumPy's
       float32 / float64 loops (nan at -inf, -0.0 at -0.0); not for float16,
       nor for an exponent array that varies */
    double xv[3] = {-INFINITY, -0.0, 4};
    ga_array *x = ga_from_host(xv, 1, (const int64_t[]){3}, GA_FLOAT64);
    ga_array *p = ga_power_scalar(x, ga_float(0.5));
    double got[3] = {0, 0, 0};
    CHECK(p && ga_to_host(p, got, sizeof got) == GA_OK, "power(float64, 0.5)");
    CHECK(isnan(got[0]) && got[1] == 0 && signbit(got[1]) && got[2] == 2, "power(x, 0.5): %g %g %g, NumPy nan -0 2",
          got[0], got[1], got[2]);
    ga_release(p);
    double ev[3] = {0.5, 0.5, 0.5};
    ga_array *e = ga_from_host(ev, 1, (const int64_t[]){3}, GA_FLOAT64);
    p = ga_power(x, e);
    CHECK(p && ga_to_host(p, got, sizeof got) == GA_OK, "power(float64, float64[3])");
    CHECK(got[0] == INFINITY && got[1] == 0 && !signbit(got[1]), "power(x, [0.5]*3): %g %g, NumPy inf 0 (pow)", got[0],
          got[1]);
    ga_release(p), ga_release(e);
    ga_array *h = ga_astype(x, GA_FLOAT16);
    p = ga_power_scalar(h, ga_float(0.5));
    ga_array *pd = p ? ga_astype(p, GA_FLOAT64) : NULL;
    CHECK(pd && ga_to_host(pd, got, sizeof got) == GA_OK && got[0] == INFINITY, "power(float16 -inf, 0.5): NumPy inf");
    ga_release(pd), ga_release(p), ga_release(h);

    /* isclose with a Python float b: NumPy checks b finite and computes
       atol + rtol |b| in double, then compares in a's dtype: 1e39 overflows
       float16 (and 1e300 float32) to inf, so every finite a is close */
    ga_array *f16 = ga_astype(x, GA_FLOAT16);
    ga_operand in[2] = {ga_operand_array(f16), ga_operand_scalar(ga_float(1e39))};
    ga_array *out[1] = {NULL};
    bool close[3] = {false, false, false};
    CHECK_OK(ga_ufunc_call(GA_UFUNC_ISCLOSE, in, out));
    CHECK(out[0] && ga_to_host(out[0], close, sizeof close) == GA_OK && close[0] && close[1] && close[2],
          "isclose(float16, 1e39): %d %d %d, NumPy True True True", close[0], close[1], close[2]);
    ga_release(out[0]), ga_release(f16);
    in[0] = ga_operand_array(x), in[1] = ga_operand_scalar(ga_float(INFINITY)), out[0] = NULL;
    CHECK_OK(ga_ufunc_call(GA_UFUNC_ISCLOSE, in, out));
    CHECK(out[0] && ga_to_host(out[0], close, sizeof close) == GA_OK && !close[0] && !close[1] && !close[2],
          "isclose(x, inf): only equal elements (none here)");
    ga_release(out[0]);

    /* a float16 loop subtracts in float16 (NumPy's a - b rounded to it):
       100 - (-1.0009765625) is 101 there, within atol 101, though not
       exactly (float64: not close); an int8 a takes the float16 loop too */
    const double hv[2] = {100.0, -1.0009765625};
    const int8_t a8v = 100;
    const int64_t one = 1;
    ga_array *hd[2] = {ga_from_host(&hv[0], 1, &one, GA_FLOAT64), ga_from_host(&hv[1], 1, &one, GA_FLOAT64)};
    ga_array *h16[2] = {hd[0] ? ga_astype(hd[0], GA_FLOAT16) : NULL, hd[1] ? ga_astype(hd[1], GA_FLOAT16) : NULL};
    ga_array *a8 = ga_from_host(&a8v, 0, NULL, GA_INT8);
    ga_array *near[3] = {ga_isclose(h16[0], h16[1], 0, 101, false), ga_isclose(a8, h16[1], 0, 101, false),
                         ga_isclose(hd[0], hd[1], 0, 101, false)};
    bool nb[3] = {false, false, true};
    for (int k = 0; k < 3; k++)
        CHECK(near[k] && ga_to_host(near[k], &nb[k], 1) == GA_OK && nb[k] == (k < 2),
              "isclose(%s 100, %s -1.0009765625, rtol=0, atol=101): %d, NumPy %s: %s",
              k == 0 ? "float16" : k == 1 ? "int8" : "float64", k < 2 ? "float16" : "float64", nb[k],
              k < 2 ? "True" : "False", ga_last_error_message());
    for (int k = 0; k < 3; k++) ga_release(near[k]);
    ga_release(a8), ga_release(h16[0]), ga_release(h16[1]), ga_release(hd[0]), ga_release(hd[1]);

    /* np.clip drops a Python int bound beyond an integer a's range, but of
       a bool a the bound goes to the loop (OverflowError) */
    bool bv[2] = {true, false};
    int32_t lov[2] = {1, 0};
    ga_array *bools = ga_from_host(bv, 1, (const int64_t[]){2}, GA_BOOL);
    ga_array *lo = ga_from_host(lov, 1, (const int64_t[]){2}, GA_INT32);
    ga_operand cin[3] = {ga_operand_array(bools), ga_operand_array(lo), ga_operand_scalar(ga_int(4294967297))};
    out[0] = NULL;
    CHECK_ERROR(ga_ufunc_call(GA_UFUNC_CLIP, cin, out) != GA_OK, GA_ERROR_OVERFLOW,
                "Python integer 4294967297 out of bounds for int32");
    int8_t i8[2] = {-5, 100};
    int16_t lo16[2] = {200, 0};
    ga_array *small = ga_from_host(i8, 1, (const int64_t[]){2}, GA_INT8);
    ga_array *lo2 = ga_from_host(lo16, 1, (const int64_t[]){2}, GA_INT16);
    ga_operand cin2[3] = {ga_operand_array(small), ga_operand_array(lo2), ga_operand_scalar(ga_int(127))};
    out[0] = NULL;
    int16_t c16[2] = {0, 0};
    CHECK_OK(ga_ufunc_call(GA_UFUNC_CLIP, cin2, out));
    CHECK(out[0] && ga_to_host(out[0], c16, sizeof c16) == GA_OK && c16[0] == 200 && c16[1] == 100,
          "clip(int8, int16 [200 0], 127): %d %d, NumPy 200 100 (the bound at int8's max is dropped)", c16[0], c16[1]);
    ga_release(out[0]), ga_release(small), ga_release(lo2), ga_release(lo), ga_release(x);

    /* ldexp of a bool x takes NumPy's int64-exponent loop: no int32 range */
    ga_operand lin[2] = {ga_operand_array(bools), ga_operand_scalar(ga_int(4294967297))};
    out[0] = NULL;
    CHECK_OK(ga_ufunc_call(GA_UFUNC_LDEXP, lin, out));
    ga_array *l64 = out[0] ? ga_astype(out[0], GA_FLOAT64) : NULL;
    CHECK(out[0] && ga_dtype_of(out[0]) == GA_FLOAT16 && l64 && ga_to_host(l64, got, 2 * sizeof(double)) == GA_OK &&
              got[0] == INFINITY && got[1] == 0,
          "ldexp(bool [True False], 4294967297): float16 inf 0, as NumPy");
    ga_release(l64), ga_release(out[0]), ga_release(bools);
    ga_clear_error();
}
