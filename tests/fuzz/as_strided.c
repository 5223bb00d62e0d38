/* Fuzzes ga_as_strided's checks: shapes, byte strides and offsets drawn
   from edge values (near 2^62, INT64_MIN, INT64_MAX ...) over a fake buffer
   holding a fuzzed array.

   Invariant both ways, the answer computed in 128 bits apart from the
   library: the call succeeds exactly when the shape is valid (no negative
   dim, NumPy's size rule), the offset and strides are aligned, and every
   element lies wholly inside the buffer (an empty view: anywhere); a
   result is then a valid view with that layout. Failures are
   GA_ERROR_VALUE naming ga_as_strided. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    ga_array *a = fuzz_array(&in);
    int ndim = (int)(fuzz_byte(&in) % 6);
    if (fuzz_byte(&in) == 255) ndim = GA_MAXDIMS + (int)(fuzz_byte(&in) % 3) - 1;
    int64_t shape[GA_MAXDIMS + 2], strides[GA_MAXDIMS + 2];
    for (int d = 0; d < ndim; d++) {
        shape[d] = fuzz_byte(&in) < 192 ? (int64_t)(fuzz_byte(&in) % 6) : fuzz_int64(&in);
        strides[d] = fuzz_byte(&in) < 128 ? (int64_t)ga_itemsize(a) * ((int64_t)(fuzz_byte(&in) % 9) - 4)
                                          : fuzz_int64(&in);
    }
    int64_t offset = fuzz_byte(&in) < 128 ? (int64_t)ga_itemsize(a) * ((int64_t)(fuzz_byte(&in) % 9) - 4)
                                          : fuzz_int64(&in);
    /* what NumPy and the documentation say */
    const __int128 itemsize = (__int128)ga_itemsize(a), align = itemsize < 8 ? itemsize : 8;
    bool valid = ndim <= GA_MAXDIMS, empty = false;
    __int128 bytes = itemsize;
    for (int d = 0; valid && d < ndim; d++) {
        valid = shape[d] >= 0;
        empty = empty || shape[d] == 0;
        if (shape[d] > 0) bytes *= shape[d];
        valid = valid && bytes <= INT64_MAX;
    }
    __int128 base = (__int128)(a->data - a->buffer->ptr) + offset;
    bool aligned = (base + FUZZ_PTR) % align == 0;
    for (int d = 0; d < ndim; d++) aligned = aligned && strides[d] % align == 0;
    bool inside = true;
    if (valid && !empty) {
        __int128 lo = base, hi = base + itemsize;
        for (int d = 0; d < ndim; d++) {
            __int128 span = (__int128)strides[d] * (shape[d] - 1);
            if (span < 0) lo += span;
            else hi += span;
        }
        inside = lo >= 0 && hi <= (__int128)a->buffer->nbytes;
    }
    ga_clear_error();
    ga_array *v = ga_as_strided(a, ndim, shape, strides, offset);
    bool expect = valid && aligned && inside;
    FUZZ_CHECK(!v == !expect, "ga_as_strided %s, expected %s (valid %d aligned %d inside %d): %s",
               v ? "succeeded" : "failed", expect ? "success" : "failure", valid, aligned, inside,
               ga_last_error_message());
    if (v) {
        fuzz_check_view("ga_as_strided", v, a);
        FUZZ_CHECK(v->ndim == ndim && v->data == a->data + (uint64_t)offset, "ga_as_strided: layout changed");
        for (int d = 0; d < ndim; d++)
            FUZZ_CHECK(v->shape[d] == shape[d] && v->strides[d] == strides[d], "ga_as_strided: layout changed");
        ga_release(v);
    } else {
        static const ga_status errors[] = {GA_ERROR_VALUE, GA_OK};
        fuzz_check_error("ga_as_strided", errors);
    }
    fuzz_release_base(a);
    return 0;
}
