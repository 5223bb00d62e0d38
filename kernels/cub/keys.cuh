/* keys.cuh - the order-preserving key transforms of the CUB glue's sorts
   (sort.cu, sort_rows.cu): a key's bits as an unsigned integer that sorts
   in NumPy's order. */
#ifndef GPUARR_CUB_KEYS_CUH
#define GPUARR_CUB_KEYS_CUH

#include <cstdint>

namespace {

template <typename U> struct bits_of;
template <> struct bits_of<uint8_t> { static constexpr uint8_t sign = 0x80u; };
template <> struct bits_of<uint16_t> { static constexpr uint16_t sign = 0x8000u; };
template <> struct bits_of<uint32_t> { static constexpr uint32_t sign = 0x80000000u; };
template <> struct bits_of<uint64_t> { static constexpr uint64_t sign = 0x8000000000000000ull; };

/* The exponent mask and the quiet NaN written back for a float format. */
template <typename U> struct float_format {
    U exp, man, qnan;
};

template <typename U> __device__ __forceinline__ bool is_nan_bits(U x, float_format<U> f)
{
    return (x & f.exp) == f.exp && (x & f.man);
}

template <typename U>
__device__ __forceinline__ U to_orderable(U x, int kind, float_format<U> f, bool merge_zero)
{
    const U sign = bits_of<U>::sign;
    if (kind == 'u') return x;
    if (kind == 'i') return x ^ sign;
    /* floats: NaN (any sign, any payload) is all ones, after everything;
       -0.0 equals +0.0 when merge_zero, else sorts just before it. */
    if (is_nan_bits(x, f)) return (U)~(U)0;
    if (merge_zero && x == sign) x = 0;
    return (x & sign) ? (U)~x : (U)(x | sign);
}

template <typename U>
__device__ __forceinline__ U from_orderable(U x, int kind, float_format<U> f)
{
    const U sign = bits_of<U>::sign;
    if (kind == 'u') return x;
    if (kind == 'i') return x ^ sign;
    if (x == (U)~(U)0) return f.qnan;
    return (x & sign) ? (U)(x & ~sign) : (U)~x;
}

} // namespace

#endif
