/* kernels/numbers.cuh - the kernels' element types and their arithmetic,
   written once for every kernel family (common.cuh includes it). In the
   manner of CuPy's complex.cuh and type_dispatcher.cuh:

     1. storage types per dtype (ga_t_<name> for gpuarr's dtype <name>)
     2. ga_num<T>: what an element type is (category, real type, dtype)
     3. wrapping integer arithmetic (ga_wadd, ga_wsub, ga_wmul)
     4. complex arithmetic: ga_cplx, ga_cadd, ga_csub, ga_cmul,
        ga_cconj, ga_cdiv (Smith's), ga_cdiv_real, ga_cnan
     5. over any arithmetic type: ga_value_add, ga_value_mul, ga_value_isnan

   The complex formulas are NumPy's (npymath and the loops of umath);
   kernels whose results must match NumPy bit for bit call these, so a
   change here changes every family's results. Names stay clear of
   gpuarr.h's public API, which the kernels see too (ga_add, ga_complex and
   the macro ga_conj are taken there). */

#ifndef GA_KERNELS_NUMBERS_CUH
#define GA_KERNELS_NUMBERS_CUH

#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* the dtype list and enum (GA_DTYPE_LIST, GA_FLOAT32, ...); with the
   Kernel ABI (>>abi), as common.cuh includes it, whichever comes first */
#ifndef GPUARR_KERNEL_ABI
#define GPUARR_KERNEL_ABI
#endif
#include "../gpuarr.h"

#define GA_DEV __device__ __forceinline__

/* ======================================================================== */
/* 1. Storage types                                                          */
/* ======================================================================== */

/* bool: one byte, 0 or 1 when written by gpuarr; any nonzero byte reads as
   true. A distinct type so that templates tell it from uint8. */
struct ga_bool_t {
    uint8_t v;
};
struct __align__(8) ga_complex64_t {
    float re, im;
};
struct __align__(16) ga_complex128_t {
    double re, im;
};

typedef ga_bool_t ga_t_bool;
typedef int8_t ga_t_int8;
typedef int16_t ga_t_int16;
typedef int32_t ga_t_int32;
typedef int64_t ga_t_int64;
typedef uint8_t ga_t_uint8;
typedef uint16_t ga_t_uint16;
typedef uint32_t ga_t_uint32;
typedef uint64_t ga_t_uint64;
typedef __half ga_t_float16;
typedef __nv_bfloat16 ga_t_bfloat16;
typedef float ga_t_float32;
typedef double ga_t_float64;
typedef ga_complex64_t ga_t_complex64;
typedef ga_complex128_t ga_t_complex128;

/* ======================================================================== */
/* 2. Traits                                                                 */
/* ======================================================================== */
/* ga_num<T> for every storage type, and for C++ bool (the ufuncs' compute
   type of bool; it has no dtype):
     category    GA_CAT_BOOL, _SINT, _UINT, _FLOAT (real floating), _COMPLEX
     is_bool, is_sint, is_uint, is_integer (sint or uint, not bool),
     is_float (real floating), is_complex, is_inexact (float or complex)
     real        the type of a complex's parts; T itself for the others
     dtype       gpuarr's ga_dtype number (GA_FLOAT32, ...); GA_DTYPE_INVALID
                 for C++ bool
   Undefined for any other type: a compile error, never a silent default. */

enum { GA_CAT_BOOL, GA_CAT_SINT, GA_CAT_UINT, GA_CAT_FLOAT, GA_CAT_COMPLEX };

template <class T> struct ga_num;

template <int Category, int Dtype, class Real> struct ga__num_of {
    static constexpr int category = Category;
    static constexpr int dtype = Dtype;
    typedef Real real;
    static constexpr bool is_bool = Category == GA_CAT_BOOL;
    static constexpr bool is_sint = Category == GA_CAT_SINT;
    static constexpr bool is_uint = Category == GA_CAT_UINT;
    static constexpr bool is_integer = is_sint || is_uint;
    static constexpr bool is_float = Category == GA_CAT_FLOAT;
    static constexpr bool is_complex = Category == GA_CAT_COMPLEX;
    static constexpr bool is_inexact = is_float || is_complex;
};
#define GA__NUM(T, category, dtype, real) \
    template <> struct ga_num<T> : ga__num_of<category, dtype, real> {};
GA__NUM(ga_bool_t, GA_CAT_BOOL, GA_BOOL, ga_bool_t)
GA__NUM(int8_t, GA_CAT_SINT, GA_INT8, int8_t)
GA__NUM(int16_t, GA_CAT_SINT, GA_INT16, int16_t)
GA__NUM(int32_t, GA_CAT_SINT, GA_INT32, int32_t)
GA__NUM(int64_t, GA_CAT_SINT, GA_INT64, int64_t)
GA__NUM(uint8_t, GA_CAT_UINT, GA_UINT8, uint8_t)
GA__NUM(uint16_t, GA_CAT_UINT, GA_UINT16, uint16_t)
GA__NUM(uint32_t, GA_CAT_UINT, GA_UINT32, uint32_t)
GA__NUM(uint64_t, GA_CAT_UINT, GA_UINT64, uint64_t)
GA__NUM(__half, GA_CAT_FLOAT, GA_FLOAT16, __half)
GA__NUM(__nv_bfloat16, GA_CAT_FLOAT, GA_BFLOAT16, __nv_bfloat16)
GA__NUM(float, GA_CAT_FLOAT, GA_FLOAT32, float)
GA__NUM(double, GA_CAT_FLOAT, GA_FLOAT64, double)
GA__NUM(ga_complex64_t, GA_CAT_COMPLEX, GA_COMPLEX64, float)
GA__NUM(ga_complex128_t, GA_CAT_COMPLEX, GA_COMPLEX128, double)
GA__NUM(bool, GA_CAT_BOOL, GA_DTYPE_INVALID, bool)
#undef GA__NUM

template <class T> using ga_real_t = typename ga_num<T>::real;

/* Checked against gpuarr.h's GA_DTYPE_LIST: the storage type of each dtype
   has its itemsize, its dtype number and the category of its kind. */
#define GA__CHECK_NUM(E, name, size, kind)                                                        \
    static_assert(sizeof(ga_t_##name) == (size), "storage size of " #name);                      \
    static_assert(ga_num<ga_t_##name>::dtype == GA_##E, "dtype number of " #name);               \
    static_assert(ga_num<ga_t_##name>::category ==                                               \
                      ((kind) == 'b' ? GA_CAT_BOOL : (kind) == 'i' ? GA_CAT_SINT                 \
                       : (kind) == 'u' ? GA_CAT_UINT : (kind) == 'f' ? GA_CAT_FLOAT : GA_CAT_COMPLEX), \
                  "category of " #name);
GA_DTYPE_LIST(GA__CHECK_NUM)
#undef GA__CHECK_NUM

/* ======================================================================== */
/* 3. Wrapping integer arithmetic                                            */
/* ======================================================================== */

/* The unsigned type of an integer's width (T itself for the others). */
template <class T> struct ga_unsigned { typedef T type; };
template <> struct ga_unsigned<int8_t> { typedef uint8_t type; };
template <> struct ga_unsigned<int16_t> { typedef uint16_t type; };
template <> struct ga_unsigned<int32_t> { typedef uint32_t type; };
template <> struct ga_unsigned<int64_t> { typedef uint64_t type; };
template <class T> using ga_u = typename ga_unsigned<T>::type;

/* Two's complement wrap, as NumPy (int8/int16 promote to int, then truncate). */
template <class T> GA_DEV T ga_wadd(T a, T b) { return (T)(ga_u<T>)((ga_u<T>)a + (ga_u<T>)b); }
template <class T> GA_DEV T ga_wsub(T a, T b) { return (T)(ga_u<T>)((ga_u<T>)a - (ga_u<T>)b); }
template <class T> GA_DEV T ga_wmul(T a, T b)
{
    if constexpr (sizeof(T) < 4)
        return (T)(uint32_t)((uint32_t)a * (uint32_t)b);
    else
        return (T)((ga_u<T>)a * (ga_u<T>)b);
}

/* ======================================================================== */
/* 4. Complex arithmetic                                                     */
/* ======================================================================== */
/* Z: ga_complex64_t or ga_complex128_t, computed in its parts' precision.
   The formulas are NumPy's (npymath's cmul and cdiv, the loops of umath),
   with each product rounded on its own as NumPy's scalar code does: never
   contracted with the sum that follows into an fma, which nvcc would do
   under its default -fmad=1. Where a product overflows the two differ in
   more than rounding: fused, (1e200+1e200j) * (1e200+1e200j) has a real
   part of -inf (the exact product less an infinite one); NumPy's, of NaN
   (inf - inf). */
GA_DEV float ga_mul_rn(float a, float b) { return __fmul_rn(a, b); }
GA_DEV double ga_mul_rn(double a, double b) { return __dmul_rn(a, b); }


template <class Z> GA_DEV Z ga_cplx(ga_real_t<Z> re, ga_real_t<Z> im)
{
    Z z;
    z.re = re;
    z.im = im;
    return z;
}
template <class Z> GA_DEV Z ga_cadd(Z a, Z b) { return ga_cplx<Z>(a.re + b.re, a.im + b.im); }
template <class Z> GA_DEV Z ga_csub(Z a, Z b) { return ga_cplx<Z>(a.re - b.re, a.im - b.im); }
template <class Z> GA_DEV Z ga_cmul(Z a, Z b)
{
    return ga_cplx<Z>(ga_mul_rn(a.re, b.re) - ga_mul_rn(a.im, b.im), ga_mul_rn(a.re, b.im) + ga_mul_rn(a.im, b.re));
}
template <class Z> GA_DEV Z ga_cconj(Z a) { return ga_cplx<Z>(a.re, -a.im); }

/* a / b by Smith's algorithm, as NumPy: a zero divisor gives inf or NaN
   parts (a / +0 of each part). */
template <class Z> GA_DEV Z ga_cdiv(Z a, Z b)
{
    typedef ga_real_t<Z> F;
    const F abs_re = fabs(b.re), abs_im = fabs(b.im);
    if (abs_re >= abs_im) {
        if (abs_re == 0 && abs_im == 0) return ga_cplx<Z>(a.re / abs_re, a.im / abs_re);
        const F rat = b.im / b.re, scl = (F)1 / (b.re + ga_mul_rn(b.im, rat));
        return ga_cplx<Z>(ga_mul_rn(a.re + ga_mul_rn(a.im, rat), scl), ga_mul_rn(a.im - ga_mul_rn(a.re, rat), scl));
    }
    const F rat = b.re / b.im, scl = (F)1 / (b.im + ga_mul_rn(b.re, rat));
    return ga_cplx<Z>(ga_mul_rn(ga_mul_rn(a.re, rat) + a.im, scl), ga_mul_rn(ga_mul_rn(a.im, rat) - a.re, scl));
}

/* a / (n + 0i): Smith's formula with b = (n, 0), without its zero-divisor
   branch, so that it differs from ga_cdiv(a, (n, 0)) at n = 0 alone: both
   parts are NaN there (0 / 0 in the ratio), where ga_cdiv gives a / +0 of
   each part (inf for a nonzero part). What the reductions' mean and
   corrcoef have always computed; keep the two apart. */
template <class Z> GA_DEV Z ga_cdiv_real(Z a, ga_real_t<Z> n)
{
    typedef ga_real_t<Z> F;
    const F rat = (F)0 / n, scl = (F)1 / (n + ga_mul_rn((F)0, rat));
    return ga_cplx<Z>(ga_mul_rn(a.re + ga_mul_rn(a.im, rat), scl), ga_mul_rn(a.im - ga_mul_rn(a.re, rat), scl));
}

template <class Z> GA_DEV bool ga_cnan(Z a) { return a.re != a.re || a.im != a.im; }

/* ======================================================================== */
/* 5. Any arithmetic type                                                    */
/* ======================================================================== */

/* a + b and a * b in T's own arithmetic: wrapping for integers, IEEE for
   real floats, the formulas above for complex. */
template <class T> GA_DEV T ga_value_add(T a, T b)
{
    if constexpr (ga_num<T>::is_complex) return ga_cadd(a, b);
    else if constexpr (ga_num<T>::is_integer) return ga_wadd(a, b);
    else return a + b;
}
template <class T> GA_DEV T ga_value_mul(T a, T b)
{
    if constexpr (ga_num<T>::is_complex) return ga_cmul(a, b);
    else if constexpr (ga_num<T>::is_integer) return ga_wmul(a, b);
    else return a * b;
}

/* Whether x is NaN (complex: either part); false for bool and integers. */
template <class T> GA_DEV bool ga_value_isnan(T x)
{
    if constexpr (ga_num<T>::is_complex) return ga_cnan(x);
    else if constexpr (ga_num<T>::is_float) return x != x;
    else return false;
}

#endif /* GA_KERNELS_NUMBERS_CUH */
