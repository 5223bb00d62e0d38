/* sort_pairs.cu - the CUB glue's stable sort of pairs by a range of bits
   of 64-bit keys (cub::DeviceRadixSort over those bits only: one pass of
   its digits per 8 bits or fewer), values of 1, 2, 4, 8 or 16 bytes moved
   along; the inputs are left unchanged. The sparse section's CSR <-> CSC
   conversion sorts (column << 32 | row) keys over the column's bits with
   the values as they are. A translation unit of its own, so that it
   compiles beside sort.cu. */

#include <cub/device/device_radix_sort.cuh>

#include "glue.cuh"

namespace {

/* A 16-byte value (complex128) as CUB moves it: two words, aligned as one. */
struct alignas(8) item16 {
    uint64_t lo, hi;
};

template <typename V>
cudaError_t pairs_typed(void *temp, size_t *temp_bytes, const uint64_t *keys_in, uint64_t *keys_out,
                        const void *vals_in, void *vals_out, int64_t n, int begin_bit, int end_bit,
                        cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, keys_in, keys_out, static_cast<const V *>(vals_in),
                                           static_cast<V *>(vals_out), n, begin_bit, end_bit, stream);
}

} // namespace

extern "C" {

int ga__cub_sort_pairs_bits(void *temp, size_t *temp_bytes, const void *keys_in, void *keys_out, const void *vals_in,
                            void *vals_out, int val_bytes, int64_t n, int begin_bit, int end_bit,
                            struct CUstream_st *stream)
{
    if (begin_bit < 0 || end_bit <= begin_bit || end_bit > 64) return (int)cudaErrorInvalidValue;
    const uint64_t *ki = static_cast<const uint64_t *>(keys_in);
    uint64_t *ko = static_cast<uint64_t *>(keys_out);
    switch (val_bytes) {
    case 1: return done(pairs_typed<uint8_t>(temp, temp_bytes, ki, ko, vals_in, vals_out, n, begin_bit, end_bit, stream));
    case 2: return done(pairs_typed<uint16_t>(temp, temp_bytes, ki, ko, vals_in, vals_out, n, begin_bit, end_bit, stream));
    case 4: return done(pairs_typed<uint32_t>(temp, temp_bytes, ki, ko, vals_in, vals_out, n, begin_bit, end_bit, stream));
    case 8: return done(pairs_typed<uint64_t>(temp, temp_bytes, ki, ko, vals_in, vals_out, n, begin_bit, end_bit, stream));
    case 16: return done(pairs_typed<item16>(temp, temp_bytes, ki, ko, vals_in, vals_out, n, begin_bit, end_bit, stream));
    default: return (int)cudaErrorInvalidValue;
    }
}

} // extern "C"
