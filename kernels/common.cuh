/* kernels/common.cuh - shared by every kernel family of gpuarr.

   Compiled offline by nvcc (C++17) into one fatbin per family; the
   parameter structs are in gpuarr.h's Kernel ABI section, at the mark
   >>abi (grep for it). The element types, their traits and their
   arithmetic are in numbers.cuh. This file gives:

     1. the dtype X-macros
     2. the kernel naming macros (ga_<family>_<op>_<dtypes>_<variant>)
     3. ga_cast<To>(from): NumPy's astype values, bit for bit
     4. grid-stride and 16-byte vector helpers
     5. the fatbin version stamp

   NaN policy of ga_cast: a conversion between two different floating formats
   turns a NaN into the target's default quiet NaN with the same sign (f16
   0x7e00, bf16 0x7fc0, f32 0x7fc00000, f64 0x7ff8000000000000, sign bit
   or'ed in). NumPy gives these same bits for every quiet NaN without payload
   (what arithmetic makes); it propagates payloads in path-dependent ways that
   are not reproduced. A copy within one dtype keeps the bits. */

#ifndef GA_KERNELS_COMMON_CUH
#define GA_KERNELS_COMMON_CUH

#include <stdint.h>
#include <string.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* gpuarr.h compiles its Kernel ABI section (>>abi) only for the
   implementation or where GPUARR_KERNEL_ABI is defined. */
#ifndef GPUARR_KERNEL_ABI
#define GPUARR_KERNEL_ABI
#endif
#include "../gpuarr.h"
#include "numbers.cuh"

/* ======================================================================== */
/* 1. Dtype lists                                                            */
/* ======================================================================== */

/* The dtypes by gpuarr's name, in gpuarr's enum order. The storage type of
   dtype `name` is ga_t_##name. Three copies, so that lists nest (a macro is
   not expanded inside its own expansion):
     GA_FOR_EACH_DTYPE(X)          X(name)
     GA_FOR_EACH_DTYPE_WITH(X, A)  X(A, name)
     GA_FOR_EACH_DTYPE_PAIR(X)     X(from, to) for all 15 x 15 pairs */
#define GA_FOR_EACH_DTYPE(X)                                                   \
    X(bool) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32)   \
    X(uint64) X(float16) X(bfloat16) X(float32) X(float64) X(complex64)       \
    X(complex128)
#define GA_FOR_EACH_DTYPE_WITH(X, A)                                           \
    X(A, bool) X(A, int8) X(A, int16) X(A, int32) X(A, int64) X(A, uint8)     \
    X(A, uint16) X(A, uint32) X(A, uint64) X(A, float16) X(A, bfloat16)       \
    X(A, float32) X(A, float64) X(A, complex64) X(A, complex128)
#define GA__FOR_EACH_DTYPE_WITH_2(X, A)                                        \
    X(A, bool) X(A, int8) X(A, int16) X(A, int32) X(A, int64) X(A, uint8)     \
    X(A, uint16) X(A, uint32) X(A, uint64) X(A, float16) X(A, bfloat16)       \
    X(A, float32) X(A, float64) X(A, complex64) X(A, complex128)
#define GA__PAIR_ROW(X, from) GA__FOR_EACH_DTYPE_WITH_2(X, from)
#define GA_FOR_EACH_DTYPE_PAIR(X) GA_FOR_EACH_DTYPE_WITH(GA__PAIR_ROW, X)

/* The integer dtypes (fill patterns): X(suffix, bytes). */
#define GA_FOR_EACH_ITEMSIZE(X) X(b8, 1) X(b16, 2) X(b32, 4) X(b64, 8) X(b128, 16)

/* Compile-time check against gpuarr.h's GA_DTYPE_LIST: the lists above
   hold every dtype (numbers.cuh checks the storage types). */
#define GA__COUNT_DTYPE(name) +1
static_assert(0 GA_FOR_EACH_DTYPE(GA__COUNT_DTYPE) == GA_NUM_DTYPES, "dtype list");
#undef GA__COUNT_DTYPE

/* ======================================================================== */
/* 2. Kernel names                                                           */
/* ======================================================================== */
/* GA_KERNEL_NAME(copy, astype, GA_DTYPES2(float32, int8), contig)
     -> ga_copy_astype_float32_int8_contig
   GA_KERNEL_NAME3(creation, arange, float32) -> ga_creation_arange_float32
   (for kernels without a variant). Arguments are expanded before pasting. */
#define GA__PASTE4(f, o, d, v) ga_##f##_##o##_##d##_##v
#define GA__PASTE3(f, o, d) ga_##f##_##o##_##d
#define GA__PASTE2(a, b) a##_##b
#define GA_KERNEL_NAME(family, op, dtypes, variant) GA__PASTE4(family, op, dtypes, variant)
#define GA_KERNEL_NAME3(family, op, dtypes) GA__PASTE3(family, op, dtypes)
#define GA_DTYPES2(a, b) GA__PASTE2(a, b)

#define GA_KERNEL extern "C" __global__ void

/* Programmatic dependent launch (sm_90 on). A kernel the host launches
   with it (gpuarr.h's ga__launch_flat, `pdl`) may start while the kernel
   before it on the stream still runs, so it must begin with GA_PDL_ENTRY:
   wait until that kernel has finished and its writes are visible, then let
   the next one start early in turn (it waits the same way). Without the
   launch attribute the wait returns at once. The instructions exist from
   PTX compute_90 on: an image built from older PTX has none, and the host
   asks each kernel's PTX version before it launches it so (the Makefile
   builds the families that use this from compute_90 for sm_90 and newer). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GA_PDL_ENTRY()                                    \
    do {                                                  \
        asm volatile("griddepcontrol.wait;" ::: "memory"); \
        asm volatile("griddepcontrol.launch_dependents;"); \
    } while (0)
#else
#define GA_PDL_ENTRY() ((void)0)
#endif

/* ======================================================================== */
/* 3. Casting                                                                */
/* ======================================================================== */

template <class A, class B> struct ga__same { static constexpr bool value = false; };
template <class A> struct ga__same<A, A> { static constexpr bool value = true; };

/* Bits of the default quiet NaN with a sign (see the NaN policy above). */
GA_DEV float ga__qnan_f32(bool neg) { return __uint_as_float(neg ? 0xffc00000u : 0x7fc00000u); }
GA_DEV double ga__qnan_f64(bool neg)
{
    return __longlong_as_double(neg ? (long long)0xfff8000000000000ull : 0x7ff8000000000000ll);
}
GA_DEV bool ga__signbit(float x) { return (__float_as_uint(x) >> 31) != 0; }
GA_DEV bool ga__signbit(double x) { return __double2hiint(x) < 0; }

/* Exact widening of the 16-bit formats to float (NaN -> default NaN). */
GA_DEV float ga__widen(__half x)
{
    unsigned b = __half_as_ushort(x);
    float f = __half2float(x);
    return (b & 0x7fffu) > 0x7c00u ? ga__qnan_f32(b >> 15) : f;
}
GA_DEV float ga__widen(__nv_bfloat16 x)
{
    unsigned b = __bfloat16_as_ushort(x);
    return (b & 0x7fffu) > 0x7f80u ? ga__qnan_f32(b >> 15) : __uint_as_float(b << 16);
}
GA_DEV float ga__widen(float x) { return x; }
GA_DEV double ga__widen(double x) { return x; }

/* Floating format conversions, one correct rounding each (float64 ->
   bfloat16 goes through float32, as ml_dtypes does). */
template <class To> GA_DEV To ga__fconv(float x);
template <class To> GA_DEV To ga__fconv(double x);
template <> GA_DEV float ga__fconv<float>(float x) { return x; }
template <> GA_DEV double ga__fconv<double>(double x) { return x; }
template <> GA_DEV double ga__fconv<double>(float x)
{
    return x != x ? ga__qnan_f64(ga__signbit(x)) : (double)x;
}
template <> GA_DEV float ga__fconv<float>(double x)
{
    return x != x ? ga__qnan_f32(ga__signbit(x)) : __double2float_rn(x);
}
template <> GA_DEV __half ga__fconv<__half>(float x)
{
    __half r = __float2half_rn(x);
    return x != x ? __ushort_as_half(ga__signbit(x) ? 0xfe00 : 0x7e00) : r;
}
template <> GA_DEV __half ga__fconv<__half>(double x)
{
    __half r = __double2half(x);
    return x != x ? __ushort_as_half(ga__signbit(x) ? 0xfe00 : 0x7e00) : r;
}
template <> GA_DEV __nv_bfloat16 ga__fconv<__nv_bfloat16>(float x)
{
    __nv_bfloat16 r = __float2bfloat16_rn(x);
    return x != x ? __ushort_as_bfloat16(ga__signbit(x) ? 0xffc0 : 0x7fc0) : r;
}
template <> GA_DEV __nv_bfloat16 ga__fconv<__nv_bfloat16>(double x)
{
    return ga__fconv<__nv_bfloat16>(ga__fconv<float>(x));
}

/* Integer -> floating, one correct rounding (16-bit formats via float32,
   which is exact for every integer that does not overflow them, and is what
   ml_dtypes does for bfloat16). */
template <class To, class I> GA_DEV To ga__i2f(I x)
{
    constexpr bool sgn = ga_num<I>::is_sint;
    if constexpr (ga__same<To, double>::value) {
        if constexpr (sizeof(I) <= 4)
            return sgn ? __int2double_rn((int)x) : __uint2double_rn((unsigned)x);
        else
            return sgn ? __ll2double_rn((long long)x) : __ull2double_rn((unsigned long long)x);
    } else {
        float f;
        if constexpr (sizeof(I) <= 4)
            f = sgn ? __int2float_rn((int)x) : __uint2float_rn((unsigned)x);
        else
            f = sgn ? __ll2float_rn((long long)x) : __ull2float_rn((unsigned long long)x);
        if constexpr (ga__same<To, float>::value)
            return f;
        else if constexpr (ga__same<To, __half>::value)
            return __float2half_rn(f);
        else
            return __float2bfloat16_rn(f);
    }
}

/* Floating (float32 or float64 domain) -> integer, NumPy on x86-64:
   int64: NaN or outside [-2^63, 2^63) -> INT64_MIN, else truncation;
   int32: NaN or trunc(x) outside int32 -> INT32_MIN, else truncation;
   int8/int16/uint8/uint16: the int32 result's low bits;
   uint32: the int64 result's low 32 bits (NumPy's scalar loop; its SIMD
           loop gives 0x80000000 for x < 0 beyond int32 range);
   uint64: x >= 2^63 ? int64(x - 2^63) ^ 2^63 : int64(x). */
GA_DEV int64_t ga__f2i64(float x)
{
    return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? __float2ll_rz(x)
                                                                        : INT64_MIN;
}
GA_DEV int64_t ga__f2i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? __double2ll_rz(x)
                                                                      : INT64_MIN;
}
GA_DEV int32_t ga__f2i32(float x)
{
    return (x >= -2147483648.0f && x < 2147483648.0f) ? __float2int_rz(x) : INT32_MIN;
}
GA_DEV int32_t ga__f2i32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? __double2int_rz(x) : INT32_MIN;
}
template <class To, class F> GA_DEV To ga__f2i(F x)
{
    if constexpr (ga__same<To, int64_t>::value) {
        return ga__f2i64(x);
    } else if constexpr (ga__same<To, uint64_t>::value) {
        const F two63 = (F)9223372036854775808.0;
        return x >= two63 ? (uint64_t)ga__f2i64(x - two63) ^ 0x8000000000000000ull
                          : (uint64_t)ga__f2i64(x);
    } else if constexpr (ga__same<To, uint32_t>::value) {
        return (uint32_t)(uint64_t)ga__f2i64(x);
    } else {
        return (To)(uint32_t)ga__f2i32(x);
    }
}

GA_DEV bool ga__nonzero(ga_bool_t x) { return x.v != 0; }
GA_DEV bool ga__nonzero(__half x) { return (__half_as_ushort(x) & 0x7fffu) != 0; }
GA_DEV bool ga__nonzero(__nv_bfloat16 x) { return (__bfloat16_as_ushort(x) & 0x7fffu) != 0; }
template <class T> GA_DEV bool ga__nonzero(T x) { return x != (T)0; } /* ints, NaN -> true */

/* ga_cast<To>(x): NumPy's astype value of x in dtype To. */
template <class To, class From> GA_DEV To ga_cast(From x)
{
    constexpr int cf = ga_num<From>::category, ct = ga_num<To>::category;
    if constexpr (ga__same<To, From>::value) {
        return x;
    } else if constexpr (cf == GA_CAT_COMPLEX) {
        if constexpr (ct == GA_CAT_COMPLEX) {
            typedef ga_real_t<To> P;
            To r;
            r.re = ga_cast<P>(x.re);
            r.im = ga_cast<P>(x.im);
            return r;
        } else if constexpr (ct == GA_CAT_BOOL) {
            ga_bool_t r;
            r.v = (uint8_t)((x.re != 0) | (x.im != 0));
            return r;
        } else {
            return ga_cast<To>(x.re);
        }
    } else if constexpr (ct == GA_CAT_COMPLEX) {
        typedef ga_real_t<To> P;
        To r;
        r.re = ga_cast<P>(x);
        r.im = (P)0;
        return r;
    } else if constexpr (ct == GA_CAT_BOOL) {
        ga_bool_t r;
        r.v = (uint8_t)ga__nonzero(x);
        return r;
    } else if constexpr (cf == GA_CAT_BOOL) {
        return ga_cast<To>((uint8_t)(x.v != 0));
    } else if constexpr (cf == GA_CAT_SINT || cf == GA_CAT_UINT) {
        if constexpr (ct == GA_CAT_FLOAT)
            return ga__i2f<To>(x);
        else
            return (To)x; /* two's complement wrap */
    } else { /* floating source */
        if constexpr (ct == GA_CAT_FLOAT)
            return ga__fconv<To>(ga__widen(x));
        else
            return ga__f2i<To>(ga__widen(x));
    }
}

/* ======================================================================== */
/* 4. Grid-stride loops and vector access                                    */
/* ======================================================================== */

GA_DEV int64_t ga_thread_index() { return (int64_t)blockIdx.x * blockDim.x + threadIdx.x; }
GA_DEV int64_t ga_thread_count() { return (int64_t)gridDim.x * blockDim.x; }

/* for (int64_t i = first thread's index; i < n; i += all threads) */
#define GA_GRID_STRIDE_LOOP(i, n) \
    for (int64_t i = ga_thread_index(), i##_step_ = ga_thread_count(); i < (n); i += i##_step_)

GA_DEV bool ga_aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* One element at any address aligned to the element's natural alignment
   (complex128 only needs 8 bytes, as in NumPy: read as two doubles). */
template <class T> GA_DEV T ga_load(const void *p) { return *(const T *)p; }
template <class T> GA_DEV void ga_store(void *p, T v) { *(T *)p = v; }
template <> GA_DEV ga_complex128_t ga_load<ga_complex128_t>(const void *p)
{
    ga_complex128_t r;
    r.re = ((const double *)p)[0];
    r.im = ((const double *)p)[1];
    return r;
}
template <> GA_DEV void ga_store<ga_complex128_t>(void *p, ga_complex128_t v)
{
    ((double *)p)[0] = v.re;
    ((double *)p)[1] = v.im;
}

/* Whole 16-byte vectors (the address must be 16-byte aligned). */
GA_DEV uint4 ga_load16(const void *p) { return *(const uint4 *)p; }
GA_DEV void ga_store16(void *p, uint4 v) { *(uint4 *)p = v; }

/* The 16-byte vectors j = t, t + nt, t + 2 nt, ... below nv of vp, as
   thread t of nt reads them: U loads in flight (a group of U vectors loaded
   before any is used), then one at a time for those after the last whole
   group. body(u, j, e) for each vector j, with e its elements (E[16 /
   sizeof(E)]) and u its slot in the group (0 after the groups): slot u's
   vectors come in increasing j. */
template <class E, int U, class Body>
GA_DEV void ga_for_each_vector(const uint4 *vp, int32_t nv, int t, int nt, Body &&body)
{
    constexpr int VW = (int)(16 / sizeof(E));
    int32_t j = t;
    for (; j + (U - 1) * nt < nv; j += U * nt) {
        uint4 r[U];
#pragma unroll
        for (int u = 0; u < U; u++) r[u] = vp[j + u * nt];
#pragma unroll
        for (int u = 0; u < U; u++) {
            E e[VW];
            memcpy(e, &r[u], sizeof e);
            body(u, j + u * nt, e);
        }
    }
    for (; j < nv; j += nt) {
        const uint4 r = vp[j];
        E e[VW];
        memcpy(e, &r, sizeof e);
        body(0, j, e);
    }
}

/* One element of N bytes moved as raw bits, at its dtype's alignment (a
   16-byte element needs only 8: complex128). For kernels that move
   elements without converting them (transposes, gathers). */
struct ga_raw16 {
    uint64_t lo, hi;
};
template <int N> struct ga_raw;
template <> struct ga_raw<1> { typedef uint8_t type; };
template <> struct ga_raw<2> { typedef uint16_t type; };
template <> struct ga_raw<4> { typedef uint32_t type; };
template <> struct ga_raw<8> { typedef uint64_t type; };
template <> struct ga_raw<16> { typedef ga_raw16 type; };

/* Unsigned integer vector types of 1, 2, 4, 8 and 16 bytes, and 32 bytes
   as two 16-byte vectors (aligned to 16). */
struct ga_vec32 {
    uint4 lo, hi;
};
template <int B> struct ga_vec_of;
template <> struct ga_vec_of<1> { typedef uint8_t type; };
template <> struct ga_vec_of<2> { typedef uint16_t type; };
template <> struct ga_vec_of<4> { typedef uint32_t type; };
template <> struct ga_vec_of<8> { typedef uint2 type; };
template <> struct ga_vec_of<16> { typedef uint4 type; };
template <> struct ga_vec_of<32> { typedef ga_vec32 type; };

/* A conversion plan for contiguous From -> To. A group is K elements: one
   16-byte vector of the wider type and one vector of IB (or OB) <= 16 bytes
   of the narrower, so that every load and every store instruction of a warp
   covers one contiguous span (32 x the vector size). U groups are in flight
   per thread and iteration. (Two 16-byte stores per thread of one group, as
   float32 -> float64 would take with float4 loads, leave each store
   instruction half-coalesced: measured 0.61x of copy bandwidth on an H200
   against 0.91x this way. 4 to 16 groups in flight measured the same.) */
template <class From, class To> struct ga_vec_plan {
    static constexpr int smax = sizeof(From) < sizeof(To) ? (int)sizeof(To) : (int)sizeof(From);
    static constexpr int K = 16 / smax;
    static constexpr int IB = K * (int)sizeof(From);
    static constexpr int OB = K * (int)sizeof(To);
    static constexpr int U = 4;
    typedef typename ga_vec_of<IB>::type VIn;
    typedef typename ga_vec_of<OB>::type VOut;
};

/* out[i] = ga_cast<To>(in[i]) for i < n, both contiguous: vectors of the
   plan when in and out are aligned to them, else element by element. */
template <class From, class To>
GA_DEV void ga_convert_contig(void *out, const void *in, int64_t n)
{
    typedef ga_vec_plan<From, To> P;
    typedef typename P::VIn VIn;
    typedef typename P::VOut VOut;
    constexpr int K = P::K, U = P::U;
    const int64_t t0 = ga_thread_index(), nt = ga_thread_count();
    int64_t done = 0;
    if ((uintptr_t)in % P::IB == 0 && (uintptr_t)out % P::OB == 0) {
        const int64_t groups = n / K;
        const VIn *vin = (const VIn *)in;
        VOut *vout = (VOut *)out;
        for (int64_t g = t0; g < groups; g += U * nt) {
            VIn a[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (u == 0 || g + u * nt < groups)
                    a[u] = vin[g + u * nt];
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (u == 0 || g + u * nt < groups) {
                    From e[K];
                    To o[K];
                    VOut w;
                    memcpy(e, &a[u], sizeof(e));
#pragma unroll
                    for (int j = 0; j < K; ++j)
                        o[j] = ga_cast<To>(e[j]);
                    memcpy(&w, o, sizeof(w));
                    vout[g + u * nt] = w;
                }
        }
        done = groups * K;
    }
    const char *cin = (const char *)in;
    char *cout = (char *)out;
#pragma unroll 1
    for (int64_t i = done + t0; i < n; i += nt)
        ga_store<To>(cout + i * (int64_t)sizeof(To),
                     ga_cast<To>(ga_load<From>(cin + i * (int64_t)sizeof(From))));
}

/* Byte offsets of element i (C order over L.shape) in the output and the
   input of a ga__copy_layout. UI = uint32_t does all the index math in 32 bits
   (the host guarantees size < 2^31 and that every byte offset fits int32);
   UI = uint64_t in 64 bits, with a 32-bit division while the operands fit.
   ndim 0 is one element at offset 0. */
template <class UI>
GA_DEV void ga_copy_layout_offsets(const ga__copy_layout &L, UI i, int64_t &out_off, int64_t &in_off)
{
    UI oo = 0, oi = 0; /* unsigned: wraps, the final value fits */
    int d = L.ndim - 1;
    for (; d > 0; --d) {
        const UI s = (UI)L.shape[d];
        UI q;
        if (sizeof(UI) == 8 && ((uint64_t)i | (uint64_t)s) >> 32)
            q = i / s;
        else
            q = (UI)((uint32_t)i / (uint32_t)s);
        const UI c = i - q * s;
        oo += c * (UI)L.out_strides[d];
        oi += c * (UI)L.in_strides[d];
        i = q;
    }
    if (d == 0) {
        oo += i * (UI)L.out_strides[0];
        oi += i * (UI)L.in_strides[0];
    }
    if (sizeof(UI) == 4) {
        out_off = (int32_t)oo;
        in_off = (int32_t)oi;
    } else {
        out_off = (int64_t)oo;
        in_off = (int64_t)oi;
    }
}

/* ======================================================================== */
/* 5. Fatbin version                                                         */
/* ======================================================================== */
/* Each family file says GA_DEFINE_FATBIN_VERSION once; the host reads the
   global with cuLibraryGetGlobal and rejects a fatbin of another version. */
#define GA_DEFINE_FATBIN_VERSION \
    extern "C" __device__ unsigned int ga_fatbin_version = GPUARR_VERSION_NUMBER;

#endif /* GA_KERNELS_COMMON_CUH */
