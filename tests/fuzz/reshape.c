/* Fuzzes ga_reshape (one dim may be -1) and ga_ravel over arrays of fuzzed
   layouts, the new shape drawn from small and edge values.

   Invariants: a result keeps the element count, has at most 32 dims, and
   when it is a view (a non-view needs the device, absent here) it is
   valid, inside the buffer, and holds the input's elements in the same C
   order (checked element by element, in 128 bits). A size that does not
   fit (the product overflowing int64 included) is NumPy's "cannot reshape
   array of size N into shape (...)". */
#include "fuzz.h"

static void check_same_order(const char *what, const ga_array *r, const ga_array *a)
{
    int64_t n = a->size < 512 ? a->size : 512;
    for (int64_t k = 0; k < n; k++)
        FUZZ_CHECK(fuzz_address(r, k) == fuzz_address(a, k), "%s: element %lld moved", what, (long long)k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ga_status errors[] = {GA_ERROR_VALUE, GA_ERROR_NO_DRIVER, GA_OK};
    fuzz_in in = {data, size};
    ga_array *a = fuzz_array(&in);
    int ndim = (int)(fuzz_byte(&in) % 7);
    if (fuzz_byte(&in) == 255) ndim = GA_MAXDIMS + (int)(fuzz_byte(&in) % 3) - 1;
    int64_t shape[GA_MAXDIMS + 2];
    for (int d = 0; d < ndim; d++) {
        unsigned sel = fuzz_byte(&in);
        shape[d] = sel < 160 ? (int64_t)(sel % 7) : sel < 200 ? -1 : sel < 208 ? a->size : fuzz_int64(&in);
    }
    /* NumPy's _fix_unknown_dimension: the product of the given dims, in
       order, failing as a size mismatch once it overflows int64 (even if
       a later dim is 0) */
    __int128 known = 1;
    int unknown = 0;
    bool negative = false, overflow = false;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0) unknown++;
        else if (!overflow) known *= shape[d], overflow = known > INT64_MAX;
        negative = negative || shape[d] < -1;
    }
    ga_clear_error();
    ga_array *r = ga_reshape(a, ndim, shape);
    if (r) {
        fuzz_check_array("ga_reshape", r);
        FUZZ_CHECK(r->size == a->size, "ga_reshape: size %lld into %lld", (long long)a->size, (long long)r->size);
        FUZZ_CHECK(r->ndim == ndim && unknown <= 1 && !overflow, "ga_reshape: ndim, unknown dims or overflow");
        for (int d = 0; d < ndim; d++)
            FUZZ_CHECK(shape[d] < 0 || r->shape[d] == shape[d], "ga_reshape: dim %d changed", d);
        if (r->buffer == a->buffer) {
            fuzz_check_view("ga_reshape", r, a);
            check_same_order("ga_reshape", r, a);
        }
        ga_release(r);
    } else {
        fuzz_check_error("ga_reshape", errors);
        /* a shape whose product (without -1) is the size needs no failure but the device's, or a too big shape */
        if (unknown == 0 && !negative && !overflow && known == a->size && ndim <= GA_MAXDIMS &&
            ga_last_error() == GA_ERROR_VALUE)
            FUZZ_CHECK(strstr(ga_last_error_message(), "too big"), "ga_reshape refused a matching shape: %s",
                       ga_last_error_message());
        if ((overflow || known != a->size) && unknown == 0 && ndim <= GA_MAXDIMS && !negative)
            FUZZ_CHECK(strstr(ga_last_error_message(), "cannot reshape array of size"), "ga_reshape: %s",
                       ga_last_error_message());
    }
    ga_clear_error();
    r = ga_ravel(a);
    if (r) {
        fuzz_check_array("ga_ravel", r);
        FUZZ_CHECK(r->ndim == 1 && r->size == a->size, "ga_ravel: shape");
        if (r->buffer == a->buffer) {
            fuzz_check_view("ga_ravel", r, a);
            check_same_order("ga_ravel", r, a);
        }
        ga_release(r);
    } else {
        fuzz_check_error("ga_ravel", errors);
    }
    fuzz_release_base(a);
    return 0;
}
