/* kernels/ufunc.cuh - the ufuncs' operations and loops, shared by the
   families "arith" (kernels/arith.cu), "compare" (kernels/compare.cu) and
   "math" (kernels/math.cu).

   For each ufunc X of gpuarr.h's lists (family F) and each dtype L of its
   loop list, two kernels:

     ga_F_X_L_contig(ga__ufunc_args args)
         every array operand of the loop's own dtypes and contiguous, or
         made of args.rows contiguous rows (a broadcast row: row_step 0);
         inputs may be scalars (args.scalar_mask, 1- and 2-input ufuncs).
         16-byte vectors when every pointer is aligned to its vector. An
         input of the loop dtype's companion (ga_companion) is loaded as
         vectors of its own width and widened in registers.
     ga_F_X_L_strided(ga__ufunc_args args, ga__ufunc_layout layout)
         any strides (layout.strides[k] for operand k: outputs, then
         inputs); an input whose dtype (args.dtype[k]) differs from the
         loop's is converted as it is loaded (the host only sends dtypes
         that cast safely to it).

   The comparisons also have loops int64_uint64 and uint64_int64 (NumPy's
   qQ and Qq), which compare the values exactly.

   1. compute types and helpers     3. the operations, one struct each
   2. complex functions             4. the loops */

#ifndef GA_KERNELS_UFUNC_CUH
#define GA_KERNELS_UFUNC_CUH

#include "common.cuh"
#include <thrust/complex.h>

/* ======================================================================== */
/* 1. Compute types                                                          */
/* ======================================================================== */
/* Loops compute in the storage type, except: bool computes as C++ bool,
   float16 and bfloat16 as float (rounded once when stored). */
template <class T> struct ga_compute { typedef T type; };
template <> struct ga_compute<ga_bool_t> { typedef bool type; };
template <> struct ga_compute<__half> { typedef float type; };
template <> struct ga_compute<__nv_bfloat16> { typedef float type; };

GA_DEV bool ga_up(ga_bool_t x) { return x.v != 0; }
GA_DEV float ga_up(__half x) { return ga__widen(x); }
GA_DEV float ga_up(__nv_bfloat16 x) { return ga__widen(x); }
template <class T> GA_DEV T ga_up(T x) { return x; }

/* The value x (a compute type, or C++ bool) stored as dtype O. */
template <class O, class V> GA_DEV O ga_to(V x)
{
    if constexpr (ga__same<O, V>::value) {
        return x;
    } else if constexpr (ga__same<V, bool>::value) {
        if constexpr (ga__same<O, ga_bool_t>::value) {
            ga_bool_t r;
            r.v = (uint8_t)x;
            return r;
        } else {
            return ga_cast<O>((uint8_t)x);
        }
    } else {
        return ga_cast<O>(x);
    }
}

/* What a type is: ga_num<C> (numbers.cuh), C++ bool included; the
   wrapping integer arithmetic (ga_wadd, ...) is there too. */

/* Real-valued helpers over float and double. */
template <class F> GA_DEV F ga_pi() { return (F)3.14159265358979323846; }
template <class F> GA_DEV F ga_inf() { return (F)INFINITY; }

/* ======================================================================== */
/* 2. Complex functions                                                      */
/* ======================================================================== */
/* +, -, *, Smith's division: numbers.cuh (ga_cadd, ga_csub, ga_cmul,
   ga_cdiv); here NumPy's complex order and power, and thrust::complex for
   the transcendental functions. */
template <class Z> using ga_std_complex = thrust::complex<ga_real_t<Z>>;

template <class Z> GA_DEV ga_std_complex<Z> ga_std(Z z) { return ga_std_complex<Z>(z.re, z.im); }
template <class Z> GA_DEV Z ga_unstd(ga_std_complex<Z> c) { return ga_cplx<Z>(c.real(), c.imag()); }

/* NumPy's complex order: lexicographic, real part first. */
template <class Z> GA_DEV bool ga_clt(Z a, Z b)
{
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class Z> GA_DEV bool ga_cle(Z a, Z b)
{
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
template <class Z> GA_DEV bool ga_cge(Z a, Z b) { return ga_cle(b, a); }

/* NumPy's complex power: exact repeated multiplication for small integer
   exponents, else exp(b log a). */
template <class Z> GA_DEV Z ga_cpow(Z a, Z b)
{
    typedef ga_real_t<Z> F;
    if (b.re == 0 && b.im == 0) return ga_cplx<Z>(1, 0);
    if (a.re == 0 && a.im == 0) return b.re > 0 ? ga_cplx<Z>(0, 0) : ga_cplx<Z>(NAN, NAN);
    if (b.im == 0 && b.re == (F)(int)b.re && b.re > -100 && b.re < 100) {
        int n = (int)b.re;
        if (n == 1) return a;
        if (n == 2) return ga_cmul(a, a);
        if (n == 3) return ga_cmul(a, ga_cmul(a, a));
        int m = n < 0 ? -n : n;
        Z r = ga_cplx<Z>(1, 0), p = a;
        for (int mask = 1; mask <= m; mask <<= 1) {
            if (m & mask) r = ga_cmul(r, p);
            p = ga_cmul(p, p);
        }
        return n < 0 ? ga_cdiv(ga_cplx<Z>(1, 0), r) : r;
    }
    return ga_unstd<Z>(thrust::pow(ga_std(a), ga_std(b)));
}

/* hypot(x, y) rounded as glibc's (NumPy's). float: in double, where the
   squares are exact and their sum and root rounded once each, then
   rounded to float (glibc's hypotf): CUDA's hypotf gave FLT_MAX where the
   root rounds to inf. double: CUDA's hypot without its spurious overflow
   next to the largest finite value (hypot(DBL_MAX, 1) is DBL_MAX, not
   inf): where it gives inf for finite x and y, m sqrt(1 + (n/m)^2)
   instead, which overflows only when the result does. */
template <class F> GA_DEV F ga_hypot(F x, F y)
{
    if constexpr (ga__same<F, float>::value) {
        if (isinf(x) || isinf(y)) return INFINITY; /* (also with a NaN, as C's) */
        return (float)sqrt((double)x * x + (double)y * y);
    }
    const F h = hypot(x, y);
    if (!isinf(h) || isinf(x) || isinf(y)) return h;
    const F m = fmax(fabs(x), fabs(y)), r = fmin(fabs(x), fabs(y)) / m;
    return m * sqrt((F)1 + r * r);
}

/* log1p of a complex number, accurate where 1 + z is near the unit circle.
   NumPy computes log(hypot(x + 1, y)) + atan2(y, x + 1) i, whose real part
   cancels there (log1p(1e-18 + 1e-18j) has real part 0, not 1e-18): an
   error of one ulp of 1, not of the result. Where hypot(x + 1, y) is in
   (1/2, 2) the real part is log1p(2x + x^2 + y^2) / 2 instead, the sum in
   double with each square split exactly by fma (|x|, |y| < 3 there, so
   nothing overflows); elsewhere, and for infinite and NaN parts, NumPy's
   formula. complex64 computes in double too, rounding once. */
GA_DEV double ga_twice_plus_squares(double x, double y)
{
    const double px = x * x, ex = fma(x, x, -px), py = y * y, ey = fma(y, y, -py);
    const double s1 = 2 * x + px, v1 = s1 - 2 * x, e1 = (2 * x - (s1 - v1)) + (px - v1); /* two-sum */
    const double s2 = s1 + py, v2 = s2 - s1, e2 = (s1 - (s2 - v2)) + (py - v2);
    return s2 + (e1 + e2 + ex + ey);
}

template <class C> GA_DEV C ga_clog1p(C a)
{
    typedef ga_real_t<C> F;
    const double x = a.re, y = a.im;
    const F xp1 = a.re + (F)1; /* NumPy's x + 1, in the loop's precision */
    const double l = ga_hypot((double)xp1, y);
    const double re = l > 0.5 && l < 2.0 ? 0.5 * log1p(ga_twice_plus_squares(x, y)) : log(l);
    return ga_cplx<C>((F)re, (F)atan2(y, (double)xp1));
}

/* ======================================================================== */
/* 3. The operations                                                         */
/* ======================================================================== */
/* One struct per ufunc: nin, nout, the storage types of a loop L
   (sig<L>::in0.., out0..), constructed from the kernel's parameters, and an
   operator() over compute types (outputs by reference when nout is 2).
   Ops with widen16 = false see float16/bfloat16 as stored. */

/* The signature of most loops: every operand has the loop's dtype. */
template <class L> struct ga_sig_same { typedef L in0, in1, in2, out0, out1; };
template <class L> struct ga_sig_bool { typedef L in0, in1, in2; typedef ga_bool_t out0, out1; };
template <class L> struct ga_sig_real { typedef L in0, in1, in2; typedef ga_real_t<L> out0, out1; };

#define GA_OP_BEGIN(name, NIN, NOUT, SIG) GA_OP_BEGIN_WIDEN(name, NIN, NOUT, SIG, true)
#define GA_OP_BEGIN_WIDEN(name, NIN, NOUT, SIG, WIDEN16)           \
    struct ga_op_##name {                                          \
        static constexpr int nin = NIN, nout = NOUT;               \
        static constexpr bool widen16 = WIDEN16;                   \
        template <class L> using sig = SIG<L>;                     \
        GA_DEV explicit ga_op_##name(const double *) {}
#define GA_OP_END };

/* 3a. Arithmetic ----------------------------------------------------------- */

GA_OP_BEGIN(negative, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cplx<C>(-a.re, -a.im);
    else if constexpr (ga_num<C>::is_integer) return ga_wsub<C>(0, a);
    else return -a;
}
GA_OP_END

GA_OP_BEGIN(positive, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const { return a; }
GA_OP_END

GA_OP_BEGIN(absolute, 1, 1, ga_sig_real)
template <class C> GA_DEV auto operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return (ga_real_t<C>)ga_hypot(a.re, a.im);
    else if constexpr (ga_num<C>::is_sint) return a < 0 ? ga_wsub<C>(0, a) : a;
    else if constexpr (ga_num<C>::is_float) return fabs(a);
    else return a;
}
GA_OP_END

GA_OP_BEGIN(fabs, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const { return fabs(a); }
GA_OP_END

GA_OP_BEGIN(sign, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) {
        typedef ga_real_t<C> F;
        const F m = ga_hypot(a.re, a.im);
        if (m != m) return ga_cplx<C>(NAN, NAN);
        if (isinf(m)) {
            if (isinf(a.re)) return isinf(a.im) ? ga_cplx<C>(NAN, NAN) : ga_cplx<C>(a.re > 0 ? 1 : -1, 0);
            return ga_cplx<C>(0, a.im > 0 ? 1 : -1);
        }
        if (m == 0) return ga_cplx<C>(0, 0);
        return ga_cplx<C>(a.re / m, a.im / m);
    } else if constexpr (ga_num<C>::is_float) {
        return a > 0 ? (C)1 : a < 0 ? (C)-1 : a == 0 ? (C)0 : a;
    } else if constexpr (ga_num<C>::is_uint) {
        return (C)(a != 0);
    } else {
        return (C)((a > 0) - (a < 0));
    }
}
GA_OP_END

GA_OP_BEGIN(reciprocal, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) {
        typedef ga_real_t<C> F;
        /* NumPy's loop, each product rounded (numbers.cuh) */
        if (fabs(a.im) <= fabs(a.re)) {
            const F r = a.im / a.re, d = a.re + ga_mul_rn(a.im, r);
            return ga_cplx<C>(1 / d, -r / d);
        }
        const F r = a.re / a.im, d = ga_mul_rn(a.re, r) + a.im;
        return ga_cplx<C>(r / d, -1 / d);
    } else if constexpr (ga_num<C>::is_integer) {
        return ga_cast<C>(1.0 / ga_cast<double>(a)); /* NumPy: 1.0 / a, cast back */
    } else {
        return (C)1 / a;
    }
}
GA_OP_END

GA_OP_BEGIN(square, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cmul(a, a);
    else if constexpr (ga_num<C>::is_integer) return ga_wmul<C>(a, a);
    else return a * a;
}
GA_OP_END

GA_OP_BEGIN(conjugate, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cconj(a);
    else return a;
}
GA_OP_END

#define GA__ROUNDING_OP(name, fn)                                                  \
    GA_OP_BEGIN(name, 1, 1, ga_sig_same)                                           \
    template <class C> GA_DEV C operator()(C a) const                              \
    {                                                                              \
        if constexpr (ga_num<C>::is_complex) return ga_cplx<C>(fn(a.re), fn(a.im)); \
        else if constexpr (ga_num<C>::is_float) return fn(a);                      \
        else return a;                                                             \
    }                                                                              \
    GA_OP_END
GA__ROUNDING_OP(floor, floor)
GA__ROUNDING_OP(ceil, ceil)
GA__ROUNDING_OP(trunc, trunc)
GA__ROUNDING_OP(fix, trunc)
GA__ROUNDING_OP(rint, rint)
#undef GA__ROUNDING_OP

template <class C> GA_DEV bool ga_nonzero(C a)
{
    if constexpr (ga_num<C>::is_complex) return a.re != 0 || a.im != 0;
    else return a != 0;
}

GA_OP_BEGIN(logical_not, 1, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a) const { return !ga_nonzero(a); }
GA_OP_END

GA_OP_BEGIN(isnan, 1, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return isnan(a.re) || isnan(a.im);
    else if constexpr (ga_num<C>::is_float) return isnan(a);
    else return false;
}
GA_OP_END

GA_OP_BEGIN(isinf, 1, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return isinf(a.re) || isinf(a.im);
    else if constexpr (ga_num<C>::is_float) return isinf(a);
    else return false;
}
GA_OP_END

GA_OP_BEGIN(isfinite, 1, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) return isfinite(a.re) && isfinite(a.im);
    else if constexpr (ga_num<C>::is_float) return isfinite(a);
    else return true;
}
GA_OP_END

GA_OP_BEGIN(signbit, 1, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a) const { return signbit(a); }
GA_OP_END

/* float16 and bfloat16 step through their own bits (nextafter, spacing). */
template <class T> struct ga_bits16;
template <> struct ga_bits16<__half> {
    static GA_DEV uint16_t bits(__half x) { return __half_as_ushort(x); }
    static GA_DEV __half from(uint16_t b) { return __ushort_as_half(b); }
    static constexpr uint16_t inf = 0x7c00, nan = 0x7e00;
};
template <> struct ga_bits16<__nv_bfloat16> {
    static GA_DEV uint16_t bits(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
    static GA_DEV __nv_bfloat16 from(uint16_t b) { return __ushort_as_bfloat16(b); }
    static constexpr uint16_t inf = 0x7f80, nan = 0x7fc0;
};
/* The next value after x toward y, in x's format; y when x == y (C's,
   NumPy 2.5's npy_half_nextafter, ml_dtypes' NextAfter); NaN as NumPy's
   float16 0x7e00, ml_dtypes' bfloat16 0x7fc0. */
template <class T> GA_DEV T ga_next16(T x, T y)
{
    typedef ga_bits16<T> B;
    const float fx = ga_up(x), fy = ga_up(y);
    if (fx != fx || fy != fy) return B::from(B::nan);
    if (fx == fy) return y;
    const uint16_t bx = B::bits(x);
    if ((bx & 0x7fff) == 0) return B::from((uint16_t)((B::bits(y) & 0x8000) | 1));
    const bool away = (fx < fy) == !(bx & 0x8000); /* magnitude grows */
    return B::from((uint16_t)(away ? bx + 1 : bx - 1));
}

GA_OP_BEGIN_WIDEN(spacing, 1, 1, ga_sig_same, false)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga__same<C, float>::value || ga__same<C, double>::value) {
        /* NumPy's float32/float64 rule: the signed distance to the next
           value away from zero; +0 and -0 give the smallest positive
           subnormal. */
        if (isinf(a)) return (C)NAN;
        if (a == 0) return nextafter((C)0, ga_inf<C>());
        return nextafter(a, copysign(ga_inf<C>(), a)) - a;
    } else if constexpr (ga__same<C, __half>::value) {
        /* NumPy's npy_half_spacing: nextafter(x, +inf) - x for every finite
           x, so never negative (at a negative power of two, the step toward
           zero); 65504 gives inf, inf and NaN give NaN (0x7e00). */
        if ((__half_as_ushort(a) & 0x7c00) == 0x7c00) return ga_bits16<C>::from(ga_bits16<C>::nan);
        const C up = ga_next16(a, ga_bits16<C>::from(ga_bits16<C>::inf));
        return ga_to<C>(ga_up(up) - ga_up(a)); /* exact: a power of two, or inf */
    } else {
        /* bfloat16: ml_dtypes' rule (the signed distance away from zero),
           but +0 for -0.0 as NumPy's floats */
        const float f = ga_up(a);
        if (isinf(f)) return ga_to<C>((float)NAN);
        if (f == 0) return ga_bits16<C>::from(1);
        const C away = ga_next16(a, ga_to<C>(copysign(INFINITY, f)));
        return ga_to<C>(ga_up(away) - f); /* exact: a power of two, or inf */
    }
}
GA_OP_END

GA_OP_BEGIN(invert, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_bool) return !a;
    else return (C)~a;
}
GA_OP_END

/* 3b. Transcendental (family "math") ------------------------------------- */
/* Complex functions come from thrust::complex, whose inverse functions
   follow FreeBSD's catrig (as NumPy's do); libcu++'s asinh and atan lost
   about 1e-11 relative accuracy away from the origin. */
/* complex64 goes through complex128: the float versions lose accuracy far
   from the origin (asinh of -4e5 overflowed). */

#define GA__MATH_OP(name, real_expr, complex_expr)                                  \
    GA_OP_BEGIN(name, 1, 1, ga_sig_same)                                           \
    template <class C> GA_DEV C operator()(C a) const                              \
    {                                                                              \
        if constexpr (ga__same<C, ga_complex64_t>::value) {                        \
            return ga_cast<C>((*this)(ga_cast<ga_complex128_t>(a)));               \
        } else if constexpr (ga_num<C>::is_complex) {                              \
            typedef ga_real_t<C> F;                                                \
            const ga_std_complex<C> z = ga_std(a);                                 \
            (void)sizeof(F);                                                       \
            return complex_expr;                                                   \
        } else {                                                                   \
            return real_expr;                                                      \
        }                                                                          \
    }                                                                              \
    GA_OP_END
GA__MATH_OP(sqrt, sqrt(a), ga_unstd<C>(thrust::sqrt(z)))
GA__MATH_OP(exp, exp(a), ga_unstd<C>(thrust::exp(z)))
GA__MATH_OP(exp2, exp2(a), ga_unstd<C>(thrust::exp(z * (F)0.693147180559945309417232121458176568)))
GA__MATH_OP(log, log(a), ga_unstd<C>(thrust::log(z)))
GA__MATH_OP(log2, log2(a), ga_unstd<C>(thrust::log(z) / (F)0.693147180559945309417232121458176568))
GA__MATH_OP(log10, log10(a), ga_unstd<C>(thrust::log10(z)))
GA__MATH_OP(sin, sin(a), ga_unstd<C>(thrust::sin(z)))
GA__MATH_OP(cos, cos(a), ga_unstd<C>(thrust::cos(z)))
GA__MATH_OP(tan, tan(a), ga_unstd<C>(thrust::tan(z)))
GA__MATH_OP(arcsin, asin(a), ga_unstd<C>(thrust::asin(z)))
GA__MATH_OP(arccos, acos(a), ga_unstd<C>(thrust::acos(z)))
GA__MATH_OP(arctan, atan(a), ga_unstd<C>(thrust::atan(z)))
GA__MATH_OP(sinh, sinh(a), ga_unstd<C>(thrust::sinh(z)))
GA__MATH_OP(cosh, cosh(a), ga_unstd<C>(thrust::cosh(z)))
GA__MATH_OP(tanh, tanh(a), ga_unstd<C>(thrust::tanh(z)))
GA__MATH_OP(arcsinh, asinh(a), ga_unstd<C>(thrust::asinh(z)))
GA__MATH_OP(arccosh, acosh(a), ga_unstd<C>(thrust::acosh(z)))
GA__MATH_OP(arctanh, atanh(a), ga_unstd<C>(thrust::atanh(z)))
/* NumPy's expm1 of complex numbers; log1p's (ga_clog1p) without its
   cancellation. */
GA__MATH_OP(expm1, expm1(a),
            ga_cplx<C>(expm1(a.re) * cos(a.im) - 2 * sin(a.im / 2) * sin(a.im / 2), exp(a.re) * sin(a.im)))
GA__MATH_OP(log1p, log1p(a), ga_clog1p(a))
#undef GA__MATH_OP

GA_OP_BEGIN(cbrt, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const { return cbrt(a); }
GA_OP_END

/* The factors computed in the loop's precision, as NumPy does (float32's
   180 / pi is 57.295776, not 57.29578 rounded from double). */
GA_OP_BEGIN(deg2rad, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const { return a * (ga_pi<C>() / (C)180); }
GA_OP_END

GA_OP_BEGIN(rad2deg, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const { return a * ((C)180 / ga_pi<C>()); }
GA_OP_END

/* sin(pi x) / (pi x), 1 at 0. */
GA_OP_BEGIN(sinc, 1, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a) const
{
    if constexpr (ga_num<C>::is_complex) {
        typedef ga_real_t<C> F;
        if (a.re == 0 && a.im == 0) return ga_cplx<C>(1, 0);
        const C y = ga_cplx<C>(ga_pi<F>() * a.re, ga_pi<F>() * a.im);
        return ga_cdiv(ga_unstd<C>(thrust::sin(ga_std(y))), y);
    } else {
        if (a == 0) return (C)1;
        const C y = ga_pi<C>() * a;
        return sin(y) / y;
    }
}
GA_OP_END

/* The argument of a complex number; of a real, arctan2(0, a). */
struct ga_op_angle {
    static constexpr int nin = 1, nout = 1;
    static constexpr bool widen16 = true;
    template <class L> using sig = ga_sig_real<L>;
    bool deg;
    GA_DEV explicit ga_op_angle(const double *p) : deg(p[0] != 0) {}
    template <class C> GA_DEV auto operator()(C a) const
    {
        if constexpr (ga_num<C>::is_complex) {
            const ga_real_t<C> r = atan2(a.im, a.re);
            return deg ? r * (ga_real_t<C>)(180.0 / 3.14159265358979323846) : r;
        } else {
            const C r = atan2((C)0, a);
            return deg ? r * (C)(180.0 / 3.14159265358979323846) : r;
        }
    }
};

/* 3c. Binary arithmetic ---------------------------------------------------- */

GA_OP_BEGIN(add, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cadd(a, b);
    else if constexpr (ga_num<C>::is_bool) return a || b;
    else if constexpr (ga_num<C>::is_integer) return ga_wadd(a, b);
    else return a + b;
}
GA_OP_END

GA_OP_BEGIN(subtract, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_complex) return ga_csub(a, b);
    else if constexpr (ga_num<C>::is_integer) return ga_wsub(a, b);
    else return a - b;
}
GA_OP_END

GA_OP_BEGIN(multiply, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cmul(a, b);
    else if constexpr (ga_num<C>::is_bool) return a && b;
    else if constexpr (ga_num<C>::is_integer) return ga_wmul(a, b);
    else return a * b;
}
GA_OP_END

GA_OP_BEGIN(divide, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cdiv(a, b);
    else return a / b;
}
GA_OP_END

/* NumPy's float divmod: the quotient floored, the remainder with b's sign;
   b == 0 gives (a / b, fmod(a, b)). */
template <class F> GA_DEV F ga_fdivmod(F a, F b, F &mod)
{
    mod = fmod(a, b);
    if (b == 0) return a / b;
    F div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1;
        }
    } else {
        mod = copysign((F)0, b);
    }
    F floordiv;
    if (div != 0) {
        floordiv = floor(div);
        if (div - floordiv > (F)0.5) floordiv += 1;
    } else {
        floordiv = copysign((F)0, a / b);
    }
    return floordiv;
}
/* Integer floor division and remainder, NumPy's: b == 0 gives 0 and 0,
   MIN // -1 wraps to MIN. */
template <class C> GA_DEV C ga_idiv(C a, C b)
{
    if (b == 0) return 0;
    if constexpr (ga_num<C>::is_sint) {
        if (b == (C)-1) return ga_wsub<C>(0, a);
        C q = (C)(a / b);
        if ((C)(a % b) != 0 && ((a < 0) != (b < 0))) q = (C)(q - 1);
        return q;
    } else {
        return (C)(a / b);
    }
}
template <class C> GA_DEV C ga_imod(C a, C b)
{
    if (b == 0) return 0;
    if constexpr (ga_num<C>::is_sint) {
        if (b == (C)-1) return 0;
        C r = (C)(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = (C)(r + b);
        return r;
    } else {
        return (C)(a % b);
    }
}

GA_OP_BEGIN(floor_divide, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_float) {
        C mod;
        return ga_fdivmod(a, b, mod);
    } else {
        return ga_idiv(a, b);
    }
}
GA_OP_END

GA_OP_BEGIN(remainder, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_float) {
        C mod;
        if (b == 0) return fmod(a, b);
        ga_fdivmod(a, b, mod);
        return mod;
    } else {
        return ga_imod(a, b);
    }
}
GA_OP_END

GA_OP_BEGIN(fmod, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_float) {
        return fmod(a, b);
    } else {
        if (b == 0) return 0;
        if constexpr (ga_num<C>::is_sint)
            if (b == (C)-1) return 0;
        return (C)(a % b);
    }
}
GA_OP_END

GA_OP_BEGIN(divmod, 2, 2, ga_sig_same)
template <class C> GA_DEV void operator()(C a, C b, C &q, C &r) const
{
    if constexpr (ga_num<C>::is_float) {
        q = ga_fdivmod(a, b, r);
    } else {
        q = ga_idiv(a, b);
        r = ga_imod(a, b);
    }
}
GA_OP_END

/* Integer power by squaring (wrapping), for b >= 0. */
template <class C> GA_DEV C ga_ipow(C a, C b)
{
    C r = 1;
    while (b) {
        if (b & 1) r = ga_wmul(r, a);
        a = ga_wmul(a, a);
        b = (C)(b >> 1);
    }
    return r;
}

/* Integers: NumPy refuses negative exponents; they set the flag word whose
   address the host passes in param[0] (0 where the exponent cannot be
   negative) and give 0, which the host never shows. float32 and float64:
   param[1] is 1 where the exponent is one value for all elements, which
   NumPy's loop computes as sqrt when it is 0.5 (sqrt(-inf) is nan where
   pow gives inf; sqrt(-0.0) is -0.0). */
struct ga_op_power {
    static constexpr int nin = 2, nout = 1;
    static constexpr bool widen16 = true;
    template <class L> using sig = ga_sig_same<L>;
    int32_t *flag;
    bool sqrt_at_half;
    GA_DEV explicit ga_op_power(const double *p) : sqrt_at_half(p[1] != 0)
    {
        uint64_t bits;
        memcpy(&bits, p, sizeof bits);
        flag = (int32_t *)(uintptr_t)bits;
    }
    template <class C> GA_DEV C operator()(C a, C b) const
    {
        if constexpr (ga_num<C>::is_complex) {
            return ga_cpow(a, b);
        } else if constexpr (ga_num<C>::is_integer) {
            if constexpr (ga_num<C>::is_sint) {
                if (b < 0) {
                    if (flag) *flag = 1;
                    return 0;
                }
            }
            return ga_ipow(a, b);
        } else {
            return sqrt_at_half && b == (C)0.5 ? sqrt(a) : pow(a, b);
        }
    }
};

GA_OP_BEGIN(float_power, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga_num<C>::is_complex) return ga_cpow(a, b);
    else return pow(a, b);
}
GA_OP_END

/* 3d. Comparisons and logic ----------------------------------------------- */

/* Exact comparison of int64 with uint64 (NumPy's qQ and Qq loops). */
GA_DEV int ga_cmp_mixed(int64_t a, uint64_t b) { return a < 0 ? -1 : (uint64_t)a < b ? -1 : (uint64_t)a > b; }
GA_DEV int ga_cmp_mixed(uint64_t a, int64_t b) { return -ga_cmp_mixed(b, a); }

#define GA__COMPARE_OP(name, op, cplx)                                             \
    GA_OP_BEGIN(name, 2, 1, ga_sig_bool)                                           \
    template <class C> GA_DEV bool operator()(C a, C b) const                      \
    {                                                                              \
        if constexpr (ga_num<C>::is_complex) return cplx;                          \
        else return a op b;                                                        \
    }                                                                              \
    GA_DEV bool operator()(int64_t a, uint64_t b) const { return ga_cmp_mixed(a, b) op 0; } \
    GA_DEV bool operator()(uint64_t a, int64_t b) const { return ga_cmp_mixed(a, b) op 0; } \
    GA_OP_END
GA__COMPARE_OP(equal, ==, a.re == b.re && a.im == b.im)
GA__COMPARE_OP(not_equal, !=, a.re != b.re || a.im != b.im)
GA__COMPARE_OP(less, <, ga_clt(a, b))
GA__COMPARE_OP(less_equal, <=, ga_cle(a, b))
GA__COMPARE_OP(greater, >, ga_clt(b, a))
GA__COMPARE_OP(greater_equal, >=, ga_cle(b, a))
#undef GA__COMPARE_OP

GA_OP_BEGIN(logical_and, 2, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a, C b) const { return ga_nonzero(a) && ga_nonzero(b); }
GA_OP_END
GA_OP_BEGIN(logical_or, 2, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a, C b) const { return ga_nonzero(a) || ga_nonzero(b); }
GA_OP_END
GA_OP_BEGIN(logical_xor, 2, 1, ga_sig_bool)
template <class C> GA_DEV bool operator()(C a, C b) const { return ga_nonzero(a) != ga_nonzero(b); }
GA_OP_END

/* maximum/minimum propagate NaN (the first NaN); fmax/fmin ignore it. */
template <class C> GA_DEV bool ga_ge(C a, C b)
{
    if constexpr (ga_num<C>::is_complex) return ga_cge(a, b);
    else return a >= b;
}
template <class C> GA_DEV bool ga_le(C a, C b)
{
    if constexpr (ga_num<C>::is_complex) return ga_cle(a, b);
    else return a <= b;
}
template <class C> GA_DEV C ga_maximum(C a, C b) { return ga_ge(a, b) || ga_value_isnan(a) ? a : b; }
template <class C> GA_DEV C ga_minimum(C a, C b) { return ga_le(a, b) || ga_value_isnan(a) ? a : b; }

GA_OP_BEGIN(maximum, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return ga_maximum(a, b); }
GA_OP_END
GA_OP_BEGIN(minimum, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return ga_minimum(a, b); }
GA_OP_END
GA_OP_BEGIN(fmax, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return ga_ge(a, b) || ga_value_isnan(b) ? a : b; }
GA_OP_END
GA_OP_BEGIN(fmin, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return ga_le(a, b) || ga_value_isnan(b) ? a : b; }
GA_OP_END

GA_OP_BEGIN(copysign, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return copysign(a, b); }
GA_OP_END

GA_OP_BEGIN_WIDEN(nextafter, 2, 1, ga_sig_same, false)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if constexpr (ga__same<C, float>::value || ga__same<C, double>::value) return nextafter(a, b);
    else return ga_next16(a, b);
}
GA_OP_END

/* a * 2**b: b is loaded as int64 and clamped to int's range. */
template <class L> struct ga_sig_ldexp { typedef L in0, out0, out1, in2; typedef int64_t in1; };
GA_OP_BEGIN(ldexp, 2, 1, ga_sig_ldexp)
template <class C> GA_DEV C operator()(C a, int64_t b) const
{
    const int e = b > INT32_MAX ? INT32_MAX : b < INT32_MIN ? INT32_MIN : (int)b;
    return ldexp(a, e);
}
GA_OP_END

template <class L> struct ga_sig_frexp { typedef L in0, in1, in2, out0; typedef int32_t out1; };
GA_OP_BEGIN(frexp, 1, 2, ga_sig_frexp)
template <class C> GA_DEV void operator()(C a, C &mantissa, int32_t &exponent) const
{
    int e = 0;
    mantissa = frexp(a, &e);
    exponent = isfinite(a) ? e : 0;
}
GA_OP_END

GA_OP_BEGIN(modf, 1, 2, ga_sig_same)
template <class C> GA_DEV void operator()(C a, C &fraction, C &integral) const { fraction = modf(a, &integral); }
GA_OP_END

GA_OP_BEGIN(heaviside, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C h0) const
{
    return a != a ? a : a == 0 ? h0 : a < 0 ? (C)0 : (C)1;
}
GA_OP_END

/* 3e. Integers ------------------------------------------------------------ */

GA_OP_BEGIN(bitwise_and, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return (C)(a & b); }
GA_OP_END
GA_OP_BEGIN(bitwise_or, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return (C)(a | b); }
GA_OP_END
GA_OP_BEGIN(bitwise_xor, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return (C)(a ^ b); }
GA_OP_END

/* Shifts by b >= the width (or negative) give 0, or -1 for a negative a
   shifted right, as NumPy. */
GA_OP_BEGIN(left_shift, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    return (uint64_t)(int64_t)b < 8 * sizeof(C) ? (C)((ga_u<C>)a << b) : (C)0;
}
GA_OP_END
GA_OP_BEGIN(right_shift, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if ((uint64_t)(int64_t)b < 8 * sizeof(C)) return (C)(a >> b);
    if constexpr (ga_num<C>::is_sint) return a < 0 ? (C)-1 : (C)0;
    else return (C)0;
}
GA_OP_END

/* NumPy's gcd and lcm: on the absolute values as unsigned numbers (so
   |INT_MIN| is 2**31), the result cast back. */
template <class C> GA_DEV ga_u<C> ga_uabs(C a)
{
    if constexpr (ga_num<C>::is_sint) return a < 0 ? (ga_u<C>)((ga_u<C>)0 - (ga_u<C>)a) : (ga_u<C>)a;
    else return a;
}
template <class U> GA_DEV U ga_gcd(U a, U b)
{
    while (b != 0) {
        const U t = (U)(a % b);
        a = b;
        b = t;
    }
    return a;
}
GA_OP_BEGIN(gcd, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return (C)ga_gcd(ga_uabs(a), ga_uabs(b)); }
GA_OP_END
GA_OP_BEGIN(lcm, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    const auto x = ga_uabs(a), y = ga_uabs(b), g = ga_gcd(x, y);
    return g == 0 ? (C)0 : (C)ga_wmul(ga_u<C>(x / g), y);
}
GA_OP_END

/* 3f. Transcendental binaries (family "math") ------------------------------ */

GA_OP_BEGIN(logaddexp, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    if (a == b) return a + (C)0.693147180559945309417232121458176568; /* equal infinities too */
    const C d = a - b;
    if (d > 0) return a + log1p(exp(-d));
    if (d <= 0) return b + log1p(exp(d));
    return d; /* NaN */
}
GA_OP_END
GA_OP_BEGIN(logaddexp2, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const
{
    const C log2e = (C)1.442695040888963407359924681001892137;
    if (a == b) return a + 1;
    const C d = a - b;
    if (d > 0) return a + log2e * log1p(exp2(-d));
    if (d <= 0) return b + log2e * log1p(exp2(d));
    return d;
}
GA_OP_END
GA_OP_BEGIN(arctan2, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return atan2(a, b); }
GA_OP_END
GA_OP_BEGIN(hypot, 2, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C b) const { return ga_hypot(a, b); }
GA_OP_END

/* 3g. NumPy functions with parameters ---------------------------------------- */

/* where(cond, x, y): cond is loaded as bool. */
template <class L> struct ga_sig_where { typedef ga_bool_t in0; typedef L in1, in2, out0, out1; };
GA_OP_BEGIN(where, 3, 1, ga_sig_where)
template <class C> GA_DEV C operator()(bool c, C x, C y) const { return c ? x : y; }
GA_OP_END

/* clip: minimum(maximum(a, lo), hi), but for complex NumPy's clip loop has
   its own steps: max(a, b) is a where a > b (lexicographic) or a is NaN,
   else b; min likewise. So a NaN part of a bound is taken only where the
   comparison cannot tell, unlike the NaN-propagating ufuncs. */
template <class C> GA_DEV bool ga_clip_keeps(C a, C b, bool greater)
{
    const bool nan = a.re != a.re || a.im != a.im;
    return nan || (greater ? a.re > b.re || (a.re == b.re && a.im > b.im)
                           : a.re < b.re || (a.re == b.re && a.im < b.im));
}

GA_OP_BEGIN(clip, 3, 1, ga_sig_same)
template <class C> GA_DEV C operator()(C a, C lo, C hi) const
{
    if constexpr (ga_num<C>::is_complex) {
        const C up = ga_clip_keeps(a, lo, true) ? a : lo;
        return ga_clip_keeps(up, hi, false) ? up : hi;
    } else {
        return ga_minimum(ga_maximum(a, lo), hi);
    }
}
GA_OP_END

/* isclose: |a - b| <= atol + rtol |b| and b finite, or a == b; NaNs equal
   with equal_nan (param: rtol, atol, equal_nan, and the format NumPy
   computes atol + rtol |b| in, b's: 0 or 1 the loop's, 2 float16, 3
   bfloat16, 4 float32; each step rounded to it). A Python scalar b (format
   + 8): NumPy's tolerance and b's finiteness are the host's, from the
   scalar as written (param: finite, tolerance, equal_nan, format + 8). A
   float16 or bfloat16 loop (+ 16 x its format, 2 or 3) computes in float32
   with a - b rounded to the loop's format, as NumPy subtracts (exact in
   double, so rounded once). */
struct ga_op_isclose {
    static constexpr int nin = 2, nout = 1;
    static constexpr bool widen16 = true;
    template <class L> using sig = ga_sig_bool<L>;
    double rtol, atol;
    bool equal_nan, scalar_b;
    int format, loop16;
    GA_DEV explicit ga_op_isclose(const double *p)
        : rtol(p[0]), atol(p[1]), equal_nan(p[2] != 0), scalar_b(((int)p[3] & 8) != 0), format((int)p[3] % 8),
          loop16((int)p[3] >> 4)
    {
    }
    template <class F> static GA_DEV F rounded_to(int f, F x)
    {
        switch (f) {
        case 2: return (F)__half2float(ga__fconv<__half>(x));
        case 3: return (F)__bfloat162float(ga__fconv<__nv_bfloat16>(x));
        case 4: return (F)(float)x;
        default: return x;
        }
    }
    template <class F> GA_DEV F rounded(F x) const { return rounded_to(format, x); }
    template <class F> GA_DEV F tolerance(F magnitude_b) const
    {
        if (scalar_b) return (F)atol;
        /* the product rounded, as NumPy's: not contracted into an fma */
        return rounded(rounded((F)atol) + rounded(ga_mul_rn(rounded((F)rtol), magnitude_b)));
    }
    template <class F> GA_DEV bool b_finite(F re, F im) const
    {
        return scalar_b ? rtol != 0 : isfinite(re) && isfinite(im);
    }
    template <class C> GA_DEV bool operator()(C a, C b) const
    {
        if constexpr (ga_num<C>::is_complex) {
            typedef ga_real_t<C> F;
            const F d = ga_hypot(a.re - b.re, a.im - b.im), mb = rounded(ga_hypot(b.re, b.im));
            const bool close = d <= tolerance(mb) && b_finite(b.re, b.im);
            return close || (a.re == b.re && a.im == b.im) || (equal_nan && ga_cnan(a) && ga_cnan(b));
        } else {
            const C d = loop16 ? rounded_to(loop16, (C)((double)a - (double)b)) : a - b;
            const bool close = fabs(d) <= tolerance(fabs(b)) && b_finite(b, (C)0);
            return close || a == b || (equal_nan && a != a && b != b);
        }
    }
};

/* round(a, decimals) as NumPy: a * 10**d, rint, / 10**d (d < 0: / then *),
   each step rounded to the dtype; integers with d < 0 in float64. */
struct ga_op_round {
    static constexpr int nin = 1, nout = 1;
    static constexpr bool widen16 = false;
    template <class L> using sig = ga_sig_same<L>;
    int decimals;
    double scale;
    GA_DEV explicit ga_op_round(const double *p) : decimals((int)p[0]), scale(p[1]) {}
    template <class F> GA_DEV F real(F a) const
    {
        if constexpr (ga_num<F>::is_integer) {
            if (decimals >= 0) return a;
            return ga_cast<F>(rint(ga_cast<double>(a) / scale) * scale);
        } else {
            typedef typename ga_compute<F>::type W;
            const W f = ga_up(ga_cast<F>(scale));
            if (decimals >= 0) return ga_to<F>(ga_up(ga_to<F>(rint(ga_up(ga_to<F>(ga_up(a) * f))))) / f);
            return ga_to<F>(ga_up(ga_to<F>(rint(ga_up(ga_to<F>(ga_up(a) / f))))) * f);
        }
    }
    template <class C> GA_DEV C operator()(C a) const
    {
        if constexpr (ga_num<C>::is_complex) return ga_cplx<C>(real(a.re), real(a.im));
        else return real(a);
    }
};

/* nan_to_num (param: the values for NaN, +inf, -inf). */
struct ga_op_nan_to_num {
    static constexpr int nin = 1, nout = 1;
    static constexpr bool widen16 = true;
    template <class L> using sig = ga_sig_same<L>;
    double nan, posinf, neginf;
    GA_DEV explicit ga_op_nan_to_num(const double *p) : nan(p[0]), posinf(p[1]), neginf(p[2]) {}
    template <class F> GA_DEV F real(F a) const
    {
        return a != a ? (F)nan : isinf(a) ? (a > 0 ? (F)posinf : (F)neginf) : a;
    }
    template <class C> GA_DEV C operator()(C a) const
    {
        if constexpr (ga_num<C>::is_complex) return ga_cplx<C>(real(a.re), real(a.im));
        else if constexpr (ga_num<C>::is_float) return real(a);
        else return a;
    }
};

/* ======================================================================== */
/* 4. The loops                                                              */
/* ======================================================================== */

/* Costly loops (long computations: the code is the build's budget) keep one
   copy of the operation per kernel: the contiguous loop takes one element
   per thread at a time, the strided loop one element per step. They are the
   ops marked GA_COSTLY below, and in a family that defines
   GA_COSTLY_COMPLEX, every complex loop. Cheap ones take a 32-byte vector
   group per thread in the contiguous loop, and are unrolled in the strided
   loop. */
/* A family that defines GA_LEAN_SCALARS 1 has lean contiguous loops with a
   scalar input too (4b, ga_ufunc_contig). */
#ifndef GA_LEAN_SCALARS
#define GA_LEAN_SCALARS 0
#endif
#ifndef GA_CONTIG_GROUP_CALL
#define GA_CONTIG_GROUP_CALL 0
#endif

template <class Op> struct ga_costly_op { static constexpr bool value = false; };
#define GA_COSTLY(name) template <> struct ga_costly_op<ga_op_##name> { static constexpr bool value = true; };
GA_COSTLY(floor_divide)
GA_COSTLY(remainder)
GA_COSTLY(fmod)
GA_COSTLY(divmod)
GA_COSTLY(power)
GA_COSTLY(float_power)
GA_COSTLY(round)
GA_COSTLY(isclose)
GA_COSTLY(gcd)
GA_COSTLY(lcm)
GA_COSTLY(spacing)
GA_COSTLY(nextafter)
#undef GA_COSTLY
template <class Op, class L> struct ga_costly {
    static constexpr bool value = ga_costly_op<Op>::value || (GA_COSTLY_COMPLEX && ga_num<L>::is_complex) ||
                                  (ga__same<Op, ga_op_reciprocal>::value && ga_num<L>::is_integer); /* 1.0 / a */
};

/* The value an op sees for a stored x. */
template <class Op, class T> GA_DEV auto ga_arg(T x)
{
    if constexpr (Op::widen16) return ga_up(x);
    else if constexpr (ga__same<T, ga_bool_t>::value) return ga_up(x);
    else return x;
}

/* Element k of operand `p` (an input of storage type T). */
template <class T> GA_DEV T ga_elem(const void *p, int64_t k) { return ga_load<T>((const char *)p + k * (int64_t)sizeof(T)); }

/* Ops that read the element's index (user kernels: kernels/gpuarr_user.cuh)
   say `static constexpr bool indexed = true` and are called op(i, args...),
   i the element's flat C-order index over the broadcast shape (the host
   keeps the dims in C order for them); the others op(args...). */
template <class Op, class = void> struct ga_op_indexed { static constexpr bool value = false; };
template <class Op> struct ga_op_indexed<Op, decltype((void)Op::indexed)> { static constexpr bool value = Op::indexed; };
template <class Op, class... X> GA_DEV decltype(auto) ga_invoke(const Op &op, int64_t i, X &&...x)
{
    if constexpr (ga_op_indexed<Op>::value) return op(i, static_cast<X &&>(x)...);
    else return (void)i, op(static_cast<X &&>(x)...);
}

/* Applies op to one element i: inputs v0..v2 (storage types), outputs to o0, o1. */
template <class Op, class S>
GA_DEV void ga_apply(const Op &op, typename S::in0 v0, typename S::in1 v1, typename S::in2 v2,
                     typename S::out0 &o0, typename S::out1 &o1, int64_t i = 0)
{
    if constexpr (Op::nout == 2) {
        typename ga_compute<typename S::out0>::type r0;
        typename ga_compute<typename S::out1>::type r1;
        if constexpr (Op::nin == 1) ga_invoke(op, i, ga_arg<Op>(v0), r0, r1);
        else ga_invoke(op, i, ga_arg<Op>(v0), ga_arg<Op>(v1), r0, r1);
        o0 = ga_to<typename S::out0>(r0);
        o1 = ga_to<typename S::out1>(r1);
    } else if constexpr (Op::nin == 1) {
        o0 = ga_to<typename S::out0>(ga_invoke(op, i, ga_arg<Op>(v0)));
    } else if constexpr (Op::nin == 2) {
        o0 = ga_to<typename S::out0>(ga_invoke(op, i, ga_arg<Op>(v0), ga_arg<Op>(v1)));
    } else {
        o0 = ga_to<typename S::out0>(ga_invoke(op, i, ga_arg<Op>(v0), ga_arg<Op>(v1), ga_arg<Op>(v2)));
    }
    (void)v1, (void)v2, (void)o1, (void)i;
}

/* ga_apply of a costly loop, not inlined: its kernels (contiguous and
   strided) share one copy of the operation. */
template <class S> struct ga_results { typename S::out0 o0; typename S::out1 o1; };
template <class Op, class S>
__device__ __noinline__ ga_results<S> ga_apply_outlined(const Op op, typename S::in0 v0, typename S::in1 v1,
                                                        typename S::in2 v2)
{
    ga_results<S> r;
    ga_apply<Op, S>(op, v0, v1, v2, r.o0, r.o1);
    return r;
}
/* ga_apply, outlined when the loop is costly (never for an indexed op). */
template <class Op, class S, bool Costly>
GA_DEV void ga_apply_as(const Op &op, typename S::in0 v0, typename S::in1 v1, typename S::in2 v2,
                        typename S::out0 &o0, typename S::out1 &o1, int64_t i = 0)
{
    if constexpr (Costly && !ga_op_indexed<Op>::value) {
        const ga_results<S> r = ga_apply_outlined<Op, S>(op, v0, v1, v2);
        o0 = r.o0;
        o1 = r.o1;
    } else {
        ga_apply<Op, S>(op, v0, v1, v2, o0, o1, i);
    }
}

template <class T> GA_DEV T ga_scalar_arg(const ga__value16 &v)
{
    T x;
    memcpy(&x, &v, sizeof(T));
    return x;
}

template <class A, class B> struct ga_max_size {
    static constexpr int value = sizeof(A) > sizeof(B) ? (int)sizeof(A) : (int)sizeof(B);
};

/* 4a. Inputs of another dtype: converted as they are loaded --------------- */

/* Whether NumPy casts dtype `from` to storage type T safely: the inputs a
   loop of T converts as it loads them (never wider than T). */
template <class T, class F> __host__ __device__ constexpr bool ga_safe_cast()
{
    constexpr int cf = ga_num<F>::category, ct = ga_num<T>::category;
    constexpr int sf = sizeof(F), st = sizeof(T);
    if (ga__same<T, F>::value || cf == GA_CAT_BOOL) return true;
    if (ct == GA_CAT_BOOL) return false;
    if (cf == GA_CAT_SINT) {
        if (ct == GA_CAT_SINT) return sf < st;
        if (ct == GA_CAT_UINT) return false;
        if (ct == GA_CAT_FLOAT) return st == 2 ? sf == 1 : st == 4 ? sf <= 2 : true;
        return st == 8 ? sf <= 2 : true;
    }
    if (cf == GA_CAT_UINT) {
        if (ct == GA_CAT_SINT) return sf < st;
        if (ct == GA_CAT_UINT) return sf < st;
        if (ct == GA_CAT_FLOAT) return st == 2 ? sf == 1 : st == 4 ? sf <= 2 : true;
        return st == 8 ? sf <= 2 : true;
    }
    if (cf == GA_CAT_FLOAT) {
        if (ct == GA_CAT_FLOAT) return sf < st;
        if (ct == GA_CAT_COMPLEX) return sf <= st / 2;
        return false;
    }
    return ct == GA_CAT_COMPLEX && sf < st;
}

/* The dtype number of a storage type, and the itemsize of a dtype number. */
template <class T> struct ga_dtype_number;
#define GA__DTYPE_OF(E, name, size, kind) \
    template <> struct ga_dtype_number<ga_t_##name> { static constexpr int value = GA_##E; };
GA_DTYPE_LIST(GA__DTYPE_OF)
#undef GA__DTYPE_OF
GA_DEV int ga_itemsize(int dtype)
{
    switch (dtype) {
#define GA__SIZE_CASE(E, name, size, kind) \
    case GA_##E:                           \
        return size;
        GA_DTYPE_LIST(GA__SIZE_CASE)
#undef GA__SIZE_CASE
    }
    return 1;
}

/* The bits of one element of `size` bytes (1 to 8) at p. */
GA_DEV uint64_t ga_load_bits(const char *p, int size)
{
    switch (size) {
    case 1: return ga_load<uint8_t>(p);
    case 2: return ga_load<uint16_t>(p);
    case 4: return ga_load<uint32_t>(p);
    default: return ga_load<uint64_t>(p);
    }
}

/* The value of dtype `dtype` whose bits are `bits`, as the loop's type T.
   Not inlined: one copy per loop type in a family, not one per load of
   every kernel (inlined, the conversions were most of the build). */
template <class T> __device__ __noinline__ T ga_from_bits(uint64_t bits, int dtype)
{
    switch (dtype) {
#define GA__FROM_CASE(E, name, size, kind)                               \
    case GA_##E:                                                         \
        if constexpr (size <= 8 && ga_safe_cast<T, ga_t_##name>()) {    \
            ga_t_##name x;                                               \
            memcpy(&x, &bits, sizeof x);                                 \
            return ga_cast<T>(x);                                        \
        }                                                                \
        break;
        GA_DTYPE_LIST(GA__FROM_CASE)
#undef GA__FROM_CASE
    }
    T zero;
    memset(&zero, 0, sizeof zero);
    return zero;
}

/* One input element at p, of dtype `dtype`, as the loop's type T. */
template <class T> GA_DEV T ga_load_as(const char *p, int dtype)
{
    if (dtype == ga_dtype_number<T>::value) return ga_load<T>(p);
    return ga_from_bits<T>(ga_load_bits(p, ga_itemsize(dtype)), dtype);
}

/* a / b past 32 bits (arrays of 2^32 elements or more): bit by bit, in a
   tenth of the code of the compiler's 64-bit division, which every kernel
   would carry. */
__device__ __noinline__ uint64_t ga_udiv64(uint64_t a, uint64_t b)
{
    uint64_t q = 0, r = 0;
#pragma unroll 1
    for (int i = 63; i >= 0; --i) {
        r = r << 1 | (a >> i & 1);
        if (r >= b) {
            r -= b;
            q |= 1ull << i;
        }
    }
    return q;
}
/* a / b, in 32 bits when both fit. */
GA_DEV uint64_t ga_udiv(uint64_t a, uint64_t b)
{
    return ((a | b) >> 32) ? ga_udiv64(a, b) : (uint64_t)((uint32_t)a / (uint32_t)b);
}

/* 4b. Contiguous loop ------------------------------------------------------ */

/* The vector type of K elements of T (ga_vec_of). */
template <class T, int K> using ga_vec_k = typename ga_vec_of<K * (int)sizeof(T)>::type;

/* The elements per group of the contiguous loop of Op's loop L. A group is
   32 bytes of the widest operand (two 16-byte vectors), 16 bytes when its
   elements are of 1 or 2 bytes, and one vector of as many elements of each
   other operand: a companion input (ga_companion) moves as a whole 16-byte
   vector of its own. The host launches a thread per group (gpuarr.h,
   ga__ufunc_launch), so each thread loads one group and stores it.
   Measured on an H200, 2^28 elements, against a cudaMemcpy: a 16-byte group
   per thread gave 0.91 x copy for add float32 and float64, a 32-byte one
   1.03 for float32 + float64; groups unrolled U at a time (U loads in
   flight) cost registers, and occupancy, for loads that a thread per group
   never makes (and 16 elements of float16 at once took up to 66
   registers). Costly loops take an element at a time. */
template <class Op, class L> struct ga_contig_group_size {
    typedef typename Op::template sig<L> S;
    static constexpr int W01 = ga_max_size<typename S::in0, typename S::out0>::value;
    static constexpr int W2 = ga_max_size<typename S::in1, typename S::out1>::value;
    static constexpr int W12 = W2 > (int)sizeof(typename S::in2) ? W2 : (int)sizeof(typename S::in2);
    static constexpr int W = W01 > W12 ? W01 : W12; /* the widest operand */
    static constexpr int value = ga_costly<Op, L>::value ? 1 : (W >= 4 ? 32 : 16) / W;
};

/* Group g (K elements, as vectors) of the contiguous operands: input k
   loaded where load<k> (stored as X0, X1 for inputs 0 and 1), else the
   scalar s<k>; `first` is the flat index of its first element. Not
   inlined in a family that defines GA_CONTIG_GROUP_CALL 1: the lean and the
   general loop of a kernel then share one copy of its K operations. */
#if GA_CONTIG_GROUP_CALL
#define GA_CONTIG_GROUP_DEV __device__ __noinline__
#else
#define GA_CONTIG_GROUP_DEV GA_DEV
#endif
template <class Op, class S, class X0, class X1, int K>
GA_CONTIG_GROUP_DEV void ga_contig_group(const Op &op, void *out0, void *out1, const void *in0, const void *in1, const void *in2,
                            int64_t g, bool load0, bool load1, bool load2, typename S::in0 s0, typename S::in1 s1,
                            typename S::in2 s2, int64_t first)
{
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename S::in2 I2;
    typedef typename S::out0 O0;
    typedef typename S::out1 O1;
    constexpr int nin = Op::nin, nout = Op::nout;
    typedef ga_vec_k<X0, K> V0;
    typedef ga_vec_k<X1, K> V1;
    typedef ga_vec_k<I2, K> V2;
    typedef ga_vec_k<O0, K> VO0;
    typedef ga_vec_k<O1, K> VO1;
    V0 r0{}; /* zeroed: left undefined where an input is a scalar,
                the float64 loop took 54 registers, not 40 */
    V1 r1{};
    V2 r2{};
    if (load0) r0 = ((const V0 *)in0)[g];
    if (load1) r1 = ((const V1 *)in1)[g];
    if (load2) r2 = ((const V2 *)in2)[g];
    X0 x0[K];
    X1 x1[K];
    I0 e0[K];
    I1 e1[K];
    I2 e2[K];
    O0 o0[K];
    O1 o1[K];
    memcpy(x0, &r0, sizeof x0);
    if (nin > 1) memcpy(x1, &r1, sizeof x1);
    if (nin > 2) memcpy(e2, &r2, sizeof e2);
#pragma unroll
    for (int j = 0; j < K; ++j) {
        e0[j] = ga_cast<I0>(x0[j]);
        if (nin > 1) e1[j] = ga_cast<I1>(x1[j]);
    }
#pragma unroll
    for (int j = 0; j < K; ++j)
        ga_apply<Op, S>(op, load0 ? e0[j] : s0, load1 ? e1[j] : s1, load2 ? e2[j] : s2, o0[j], o1[j], first + j);
    VO0 w0;
    memcpy(&w0, o0, sizeof w0);
    ((VO0 *)out0)[g] = w0;
    if (nout > 1) {
        VO1 w1;
        memcpy(&w1, o1, sizeof w1);
        ((VO1 *)out1)[g] = w1;
    }
}

/* Element i of the contiguous operands, as ga_contig_group; `index` is its
   flat index. */
template <class Op, class S, class X0, class X1, bool Costly>
GA_DEV void ga_contig_element(const Op &op, void *out0, void *out1, const void *in0, const void *in1, const void *in2,
                              int64_t i, bool load0, bool load1, bool load2, typename S::in0 s0, typename S::in1 s1,
                              typename S::in2 s2, int64_t index)
{
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename S::in2 I2;
    typedef typename S::out0 O0;
    typedef typename S::out1 O1;
    O0 o0;
    O1 o1;
    ga_apply_as<Op, S, Costly>(
        op, load0 ? ga_cast<I0>(ga_elem<X0>(in0, i)) : s0, load1 ? ga_cast<I1>(ga_elem<X1>(in1, i)) : s1,
        load2 ? ga_elem<I2>(in2, i) : s2, o0, o1, index);
    ga_store<O0>((char *)out0 + i * (int64_t)sizeof(O0), o0);
    if (Op::nout > 1) ga_store<O1>((char *)out1 + i * (int64_t)sizeof(O1), o1);
}

/* The lean contiguous loop: what the host found for most calls
   (args.lean, gpuarr.h's ga__ufunc_launch): one row of args.size
   elements, every input of its loop type, every operand aligned to 16
   bytes (so to each of its vectors), and no scalar input but input Scalar
   (0 or 1 of a binary ufunc; -1: none). It reads nothing else of the
   arguments: the general loop's row division, alignment tests, scalar
   selects and companion choice cost a small call more instructions than
   its elements (a graph node of add float32 over 1000 elements measured
   1.56 us against 0.92 for a bare kernel on an H200). A vector group of
   K elements per thread, then the last size % K elements one by one; no
   grid-stride loop over groups: a thread per group runs it once, and its
   setup (an unrolled loop's trip-count division, or the pointer steps)
   cost more than the group. Inputs 0 and 1 are stored as X0 and X1, as in
   the general loop below: their loop types, or a companion input
   (ga_companion) loaded as one vector of its own width and widened in
   registers. */
template <class Op, class L, int Scalar, class X0, class X1>
GA_DEV void ga_ufunc_contig_lean(const Op &op, const ga__ufunc_args &a)
{
    typedef typename Op::template sig<L> S;
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename S::in2 I2;
    constexpr int nin = Op::nin, nout = Op::nout, K = ga_contig_group_size<Op, L>::value;
    void *const out0 = (void *)a.ptr[0];
    void *const out1 = nout > 1 ? (void *)a.ptr[1] : nullptr;
    const void *const in0 = (const void *)a.ptr[nout];
    const void *const in1 = nin > 1 ? (const void *)a.ptr[nout + 1] : nullptr;
    const void *const in2 = nin > 2 ? (const void *)a.ptr[nout + 2] : nullptr;
    constexpr bool load0 = Scalar != 0, load1 = nin > 1 && Scalar != 1, load2 = nin > 2;
    const I0 s0 = load0 ? I0{} : ga_scalar_arg<I0>(a.scalar[0]);
    const I1 s1 = load1 ? I1{} : ga_scalar_arg<I1>(a.scalar[1]);
    const I2 s2{};
    const int64_t n = a.size, t0 = ga_thread_index(), nt = ga_thread_count();
    if (nt >= n) { /* a thread per element: a small call the host spread over more blocks */
        if (t0 < n)
            ga_contig_element<Op, S, X0, X1, ga_costly<Op, L>::value>(op, out0, out1, in0, in1, in2, t0, load0, load1,
                                                                      load2, s0, s1, s2, t0);
        return;
    }
    /* one group per thread (the host launches a thread per group); past
       the grid, were it smaller, element by element */
    const int64_t groups = K > 1 ? (int64_t)((uint64_t)n / K) : 0, vectors = groups < nt ? groups : nt;
    if (K > 1 && t0 < vectors)
        ga_contig_group<Op, S, X0, X1, K>(op, out0, out1, in0, in1, in2, t0, load0, load1, load2, s0, s1, s2, t0 * K);
#pragma unroll 1
    for (int64_t i = vectors * K + t0; i < n; i += nt)
        ga_contig_element<Op, S, X0, X1, ga_costly<Op, L>::value>(op, out0, out1, in0, in1, in2, i, load0, load1,
                                                                  load2, s0, s1, s2, i);
}

/* Contiguous loop: `rows` rows of size / rows elements, each row
   contiguous in every operand (row r of operand k at ptr[k] + r *
   row_step[k]; a broadcast row has row_step 0). Rows are spread over
   blockIdx.y; along a row, a thread moves one group of K elements at a
   time, as vectors (ga_contig_group_size). Scalar inputs (bits of
   args.scalar_mask) are kernel parameters. Inputs 0 and 1 are stored as X0
   and X1: their loop types, or a narrower dtype converted in registers (see
   ga_companion). Where the host set args.lean to 1 (no scalar input; and
   X0, X1 are the loop types), the lean loop above, unless the caller has
   tested it (Lean false). */
template <class Op, class L, class X0, class X1, bool Lean = true>
GA_DEV void ga_ufunc_contig_with(const Op &op, const ga__ufunc_args &a)
{
    typedef typename Op::template sig<L> S;
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename S::in2 I2;
    typedef typename S::out0 O0;
    typedef typename S::out1 O1;
    constexpr int nin = Op::nin, nout = Op::nout, K = ga_contig_group_size<Op, L>::value;
    if constexpr (Lean && ga__same<X0, I0>::value && ga__same<X1, I1>::value)
        if (a.lean == 1) return ga_ufunc_contig_lean<Op, L, -1, X0, X1>(op, a);
    const int64_t n = (int64_t)ga_udiv((uint64_t)a.size, (uint64_t)a.rows); /* per row */
    const int64_t t0 = ga_thread_index(), nt = ga_thread_count();
    const int mask = a.scalar_mask;
    const bool load0 = !(mask & 1), load1 = nin > 1 && !(mask & 2), load2 = nin > 2 && !(mask & 4);
    const I0 s0 = ga_scalar_arg<I0>(a.scalar[0]);
    const I1 s1 = ga_scalar_arg<I1>(a.scalar[1]);
    const I2 s2 = ga_scalar_arg<I2>(a.scalar[2]);
    for (int64_t row = blockIdx.y; row < a.rows; row += gridDim.y) {
        void *out0 = (void *)(a.ptr[0] + row * a.row_step[0]);
        void *out1 = nout > 1 ? (void *)(a.ptr[1] + row * a.row_step[1]) : nullptr;
        const void *in0 = (const void *)(a.ptr[nout] + row * a.row_step[nout]);
        const void *in1 = nin > 1 ? (const void *)(a.ptr[nout + 1] + row * a.row_step[nout + 1]) : nullptr;
        const void *in2 = nin > 2 ? (const void *)(a.ptr[nout + 2] + row * a.row_step[nout + 2]) : nullptr;
        const bool aligned = (uintptr_t)out0 % alignof(ga_vec_k<O0, K>) == 0 &&
                             (nout < 2 || (uintptr_t)out1 % alignof(ga_vec_k<O1, K>) == 0) &&
                             (!load0 || (uintptr_t)in0 % alignof(ga_vec_k<X0, K>) == 0) &&
                             (!load1 || (uintptr_t)in1 % alignof(ga_vec_k<X1, K>) == 0) &&
                             (!load2 || (uintptr_t)in2 % alignof(ga_vec_k<I2, K>) == 0);
        int64_t done = 0;
        if (K > 1 && aligned) {
            const int64_t groups = n / K;
            for (int64_t g = t0; g < groups; g += nt)
                ga_contig_group<Op, S, X0, X1, K>(op, out0, out1, in0, in1, in2, g, load0, load1, load2, s0, s1, s2,
                                                  row * n + g * K);
            done = groups * K;
        }
#pragma unroll 1
        for (int64_t i = done + t0; i < n; i += nt)
            ga_contig_element<Op, S, X0, X1, ga_costly<Op, L>::value>(op, out0, out1, in0, in1, in2, i, load0, load1,
                                                                      load2, s0, s1, s2, row * n + i);
    }
}

/* The general loop with the op made from the loop's parameters (a user
   kernel makes its own: ga_ufunc_contig_with, kernels/gpuarr_user.cuh). */
template <class Op, class L, class X0, class X1> GA_DEV void ga_ufunc_contig_as(const ga__ufunc_args &a)
{
    ga_ufunc_contig_with<Op, L, X0, X1, false>(Op(a.param), a);
}

/* The companion of a loop dtype: the narrower dtype whose mixtures with it
   are common (float32 with float64, complex64 with complex128, float32
   with complex64, float16 with float32). A binary ufunc's contiguous loops
   (the lean one where the host set args.lean 4 or 5, else the general one)
   also take one input of it, converted in registers after a vector load
   of its own width; other mixtures go to the strided loop. One companion
   per loop keeps this to four more copies of the loop, in four dtypes: the
   lean ones cost sm_90's code 2.4% in arith and 1.1% in math, where lean
   loops that took any other dtype as well (a run-time choice of dtype per
   vector group, in every kernel) cost 32% and 34%. */
template <class L> struct ga_companion { typedef void type; };
template <> struct ga_companion<double> { typedef float type; };
template <> struct ga_companion<ga_complex128_t> { typedef ga_complex64_t type; };
template <> struct ga_companion<ga_complex64_t> { typedef float type; };
template <> struct ga_companion<float> { typedef __half type; };

template <class Op, class L> GA_DEV void ga_ufunc_contig(const ga__ufunc_args &a)
{
    typedef typename Op::template sig<L> S;
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename ga_companion<L>::type C;
    /* args.lean (gpuarr.h, ga__ufunc_launch) 1: no scalar input; 2, 3:
       input 1, input 0 a scalar (a binary ufunc), in a family that defines
       GA_LEAN_SCALARS (else the general loop); 4, 5: no scalar input, input
       0, input 1 of the companion dtype */
    if (a.lean == 1) return ga_ufunc_contig_lean<Op, L, -1, I0, I1>(Op(a.param), a);
    if constexpr (Op::nin == 2 && GA_LEAN_SCALARS) {
        if (a.lean == 2) return ga_ufunc_contig_lean<Op, L, 1, I0, I1>(Op(a.param), a);
        if (a.lean == 3) return ga_ufunc_contig_lean<Op, L, 0, I0, I1>(Op(a.param), a);
    }
    if constexpr (!ga__same<C, void>::value && Op::nin == 2 && Op::nout == 1) {
        constexpr int c = ga_dtype_number<C>::value;
        if constexpr (ga__same<I0, L>::value) {
            if (a.lean == 4) return ga_ufunc_contig_lean<Op, L, -1, C, I1>(Op(a.param), a);
            if (!(a.scalar_mask & 1) && a.dtype[1] == c) return ga_ufunc_contig_as<Op, L, C, I1>(a);
        }
        if constexpr (ga__same<I1, L>::value) {
            if (a.lean == 5) return ga_ufunc_contig_lean<Op, L, -1, I0, C>(Op(a.param), a);
            if (!(a.scalar_mask & 2) && a.dtype[2] == c) return ga_ufunc_contig_as<Op, L, I0, C>(a);
        }
    }
    ga_ufunc_contig_as<Op, L, I0, I1>(a);
}

/* 4c. Strided loop ---------------------------------------------------------- */

/* The byte offsets of element i (C order over layout.shape) in each
   operand: 64-bit math, 32-bit divisions while they fit. Not inlined: one
   copy per kernel, not one per unrolled element. */
template <int NOPS> struct ga_offsets { int64_t k[NOPS]; };
template <int NOPS> __device__ __noinline__ ga_offsets<NOPS> ga_element_offsets(const ga__ufunc_layout &L, uint64_t i)
{
    ga_offsets<NOPS> o;
#pragma unroll
    for (int k = 0; k < NOPS; ++k) o.k[k] = 0;
#pragma unroll 1
    for (int d = L.ndim - 1; d > 0; --d) {
        const uint64_t s = (uint64_t)L.shape[d];
        const uint64_t q = ga_udiv(i, s);
        const int64_t c = (int64_t)(i - q * s);
#pragma unroll
        for (int k = 0; k < NOPS; ++k) o.k[k] += c * L.strides[k][d];
        i = q;
    }
#pragma unroll
    for (int k = 0; k < NOPS; ++k) o.k[k] += (int64_t)i * L.strides[k][0];
    return o;
}

/* Strided loop. Operand k of element (i_0, ..., i_{n-1}) (C order over
   layout.shape) is at ptr[k] + sum(i_d * strides[k][d]); the host sorts
   and collapses the dims, so most layouts have one or two. One path, one
   instantiation per loop: the kernels' code is the build's budget (a
   32-bit-index copy of every loop doubled it; a second path for long rows
   took a third of it). */
template <class Op, class S>
GA_DEV void ga_ufunc_strided_body(const Op &op, const ga__ufunc_args &a, const ga__ufunc_layout &L)
{
    typedef typename S::in0 I0;
    typedef typename S::in1 I1;
    typedef typename S::in2 I2;
    typedef typename S::out0 O0;
    typedef typename S::out1 O1;
    constexpr bool costly = ga_costly_op<Op>::value || (GA_COSTLY_COMPLEX && ga_num<I0>::is_complex);
    constexpr int nin = Op::nin, nout = Op::nout, nops = nin + nout, U = costly ? 1 : GA_STRIDED_UNROLL;
    const I0 s0 = ga_scalar_arg<I0>(a.scalar[0]);
    const I1 s1 = ga_scalar_arg<I1>(a.scalar[1]);
    const I2 s2 = ga_scalar_arg<I2>(a.scalar[2]);
    const int mask = a.scalar_mask;
    const int nd = L.ndim;
    const int64_t n = a.size;
    int64_t step[nops];
#pragma unroll
    for (int k = 0; k < nops; ++k) step[k] = nd > 0 ? L.strides[k][nd - 1] : 0;
    /* Input k is a scalar parameter, loaded as the loop's type, or loaded as
       bits of another dtype and converted (after every load is issued). */
    const bool conv0 = !(mask & 1) && a.dtype[nout] != ga_dtype_number<I0>::value;
    const bool conv1 = nin > 1 && !(mask & 2) && a.dtype[nout + 1] != ga_dtype_number<I1>::value;
    const bool conv2 = nin > 2 && !(mask & 4) && a.dtype[nout + 2] != ga_dtype_number<I2>::value;
    const int z0 = conv0 ? ga_itemsize(a.dtype[nout]) : 0, z1 = conv1 ? ga_itemsize(a.dtype[nout + 1]) : 0,
              z2 = conv2 ? ga_itemsize(a.dtype[nout + 2]) : 0;
    /* one element: inputs at in_off (the operand's offsets), out at out_off */
    auto load = [&](const int64_t *off, I0 &v0, I1 &v1, I2 &v2, uint64_t (&bits)[3]) {
        const char *p0 = (const char *)a.ptr[nout] + off[nout];
        v0 = s0;
        v1 = s1;
        v2 = s2;
        if (conv0) bits[0] = ga_load_bits(p0, z0);
        else if (!(mask & 1)) v0 = ga_load<I0>(p0);
        if constexpr (nin > 1) {
            const char *p1 = (const char *)a.ptr[nout + 1] + off[nout + 1];
            if (conv1) bits[1] = ga_load_bits(p1, z1);
            else if (!(mask & 2)) v1 = ga_load<I1>(p1);
        }
        if constexpr (nin > 2) {
            const char *p2 = (const char *)a.ptr[nout + 2] + off[nout + 2];
            if (conv2) bits[2] = ga_load_bits(p2, z2);
            else if (!(mask & 4)) v2 = ga_load<I2>(p2);
        }
    };
    auto compute = [&](const int64_t *off, I0 v0, I1 v1, I2 v2, const uint64_t (&bits)[3], int64_t i) {
        if (conv0) v0 = ga_from_bits<I0>(bits[0], a.dtype[nout]);
        if constexpr (nin > 1)
            if (conv1) v1 = ga_from_bits<I1>(bits[1], a.dtype[nout + 1]);
        if constexpr (nin > 2)
            if (conv2) v2 = ga_from_bits<I2>(bits[2], a.dtype[nout + 2]);
        O0 r0;
        O1 r1;
        ga_apply_as<Op, S, costly>(op, v0, v1, v2, r0, r1, i);
        ga_store<O0>((char *)a.ptr[0] + off[0], r0);
        if constexpr (nout > 1) ga_store<O1>((char *)a.ptr[1] + off[1], r1);
    };
    /* Each thread takes U elements nt apart (a warp's are neighbours in
       the last dim), issues their loads, then computes them. */
    const int64_t t0 = ga_thread_index(), nt = ga_thread_count();
    for (int64_t i0 = t0; i0 < n; i0 += U * nt) {
        int64_t off[U][nops];
        I0 v0[U];
        I1 v1[U];
        I2 v2[U];
        uint64_t bits[U][3];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t i = i0 + u * nt;
            if (u == 0 || i < n) {
                if (nd > 1) {
                    const ga_offsets<nops> o = ga_element_offsets<nops>(L, (uint64_t)i);
#pragma unroll
                    for (int k = 0; k < nops; ++k) off[u][k] = o.k[k];
                } else {
#pragma unroll
                    for (int k = 0; k < nops; ++k) off[u][k] = i * step[k];
                }
                load(off[u], v0[u], v1[u], v2[u], bits[u]);
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (u == 0 || i0 + u * nt < n) compute(off[u], v0[u], v1[u], v2[u], bits[u], i0 + u * nt);
    }
}

template <class Op, class S> GA_DEV void ga_ufunc_strided_as(const ga__ufunc_args &a, const ga__ufunc_layout &L)
{
    ga_ufunc_strided_body<Op, S>(Op(a.param), a, L);
}
template <class Op, class L> GA_DEV void ga_ufunc_strided(const ga__ufunc_args &a, const ga__ufunc_layout &lay)
{
    ga_ufunc_strided_as<Op, typename Op::template sig<L>>(a, lay);
}

/* The comparisons' mixed loops: in0 and in1 of different signedness. */
template <class A, class B> struct ga_sig_mixed { typedef A in0; typedef B in1, in2; typedef ga_bool_t out0, out1; };

/* Instantiation: the kernels of ufunc `name` for loop dtype `loop`, in
   family GA_FAMILY (defined by the including .cu file). The contiguous one
   may be launched as a programmatic dependent (GA_PDL_ENTRY). */
#define GA__UFUNC_KERNELS(name, loop, LOOP)                                                \
    GA_KERNEL GA_KERNEL_NAME(GA_FAMILY, name, loop, contig)(const __grid_constant__ ga__ufunc_args a) \
    {                                                                                      \
        GA_PDL_ENTRY();                                                                    \
        ga_ufunc_contig<ga_op_##name, ga_t_##loop>(a);                                     \
    }                                                                                      \
    GA_KERNEL GA_KERNEL_NAME(GA_FAMILY, name, loop, strided)(const __grid_constant__ ga__ufunc_args a, \
                                                             const __grid_constant__ ga__ufunc_layout l) \
    {                                                                                      \
        ga_ufunc_strided<ga_op_##name, ga_t_##loop>(a, l);                                 \
    }
#define GA__UFUNC_MIXED_KERNELS(name)                                                      \
    GA_KERNEL GA_KERNEL_NAME(GA_FAMILY, name, int64_uint64, strided)(                      \
        const __grid_constant__ ga__ufunc_args a, const __grid_constant__ ga__ufunc_layout l) \
    {                                                                                      \
        ga_ufunc_strided_as<ga_op_##name, ga_sig_mixed<int64_t, uint64_t>>(a, l);          \
    }                                                                                      \
    GA_KERNEL GA_KERNEL_NAME(GA_FAMILY, name, uint64_int64, strided)(                      \
        const __grid_constant__ ga__ufunc_args a, const __grid_constant__ ga__ufunc_layout l) \
    {                                                                                      \
        ga_ufunc_strided_as<ga_op_##name, ga_sig_mixed<uint64_t, int64_t>>(a, l);          \
    }

/* Rows of gpuarr.h's ufunc lists instantiate their loops when their family
   is this file's: GA__IN_FAMILY_<family>(...) keeps its argument in the
   family's own file (which defines it) and drops it in the others. */
#ifndef GA__IN_FAMILY_arith
#define GA__IN_FAMILY_arith(...)
#endif
#ifndef GA__IN_FAMILY_compare
#define GA__IN_FAMILY_compare(...)
#endif
#ifndef GA__IN_FAMILY_math
#define GA__IN_FAMILY_math(...)
#endif
#define GA__ROW_1(E, name, loops, result, family) \
    GA__IN_FAMILY_##family(GA_LOOPS_##loops(GA__UFUNC_KERNELS, name))
#define GA__ROW_N(E, name, nin, nout, loops, result, family) \
    GA__IN_FAMILY_##family(GA_LOOPS_##loops(GA__UFUNC_KERNELS, name))

#endif /* GA_KERNELS_UFUNC_CUH */
