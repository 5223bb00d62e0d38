/* Fuzzes the .npy header reader (ga__npy_parse) on any bytes: the magic,
   the version, the header length and the Python dict literal.

   Invariants: no crash, no read past the input, no stack or heap misuse
   (ASan, UBSan); an accepted header has a valid dtype, at most GA_MAXDIMS
   dims, extents >= 0 whose byte count fits int64, its data offset within
   the input; and the header gpuarr writes for what was read reads back to
   the same dtype, order and shape. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* (a copy of exactly `size` bytes, so that ASan sees any over-read) */
    uint8_t *buf = (uint8_t *)malloc(size ? size : 1);
    memcpy(buf, data, size);
    ga__npy_header h;
    ga_clear_error();
    if (ga__npy_parse("ga_load", buf, size, &h) == GA_OK) {
        FUZZ_CHECK((int)h.dtype >= 0 && h.dtype < GA_NUM_DTYPES && h.dtype != GA_BFLOAT16, "dtype %d", (int)h.dtype);
        FUZZ_CHECK(h.ndim >= 0 && h.ndim <= GA_MAXDIMS && h.data_offset <= size, "ndim %d, offset %zu of %zu", h.ndim,
                   h.data_offset, size);
        int64_t bytes = (int64_t)ga__dtype_sizes[h.dtype];
        for (int d = 0; d < h.ndim; d++) {
            FUZZ_CHECK(h.shape[d] >= 0, "extent %lld", (long long)h.shape[d]);
            FUZZ_CHECK(h.shape[d] == 0 || bytes <= INT64_MAX / h.shape[d], "the byte count overflows");
            bytes *= h.shape[d];
        }
        char out[1024];
        size_t n = ga__npy_header_write(out, sizeof out, h.dtype, h.ndim, h.shape, h.fortran);
        FUZZ_CHECK(n > 0 && n <= sizeof out && n % 64 == 0, "written header of %zu bytes", n);
        ga__npy_header back;
        FUZZ_CHECK(ga__npy_parse("ga_load", (const unsigned char *)out, n, &back) == GA_OK, "our header does not read back");
        bool same = back.dtype == h.dtype && back.fortran == h.fortran && back.ndim == h.ndim && back.data_offset == n && !back.swap;
        for (int d = 0; same && d < h.ndim; d++) same = back.shape[d] == h.shape[d];
        FUZZ_CHECK(same, "our header reads back differently");
    } else {
        FUZZ_CHECK(strncmp(ga_last_error_message(), "ga_load: ", 9) == 0, "an error that does not name ga_load");
    }
    ga_clear_error();
    free(buf);
    return 0;
}
