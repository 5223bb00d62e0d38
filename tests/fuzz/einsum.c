/* Fuzzes einsum's subscripts parser (ga__einsum_parse): 1 to 4 operands of
   fuzzed shapes (0 to 6 dims of 0 to 5, now and then 33 dims or extents
   near int64's end), then the rest of the input as the subscripts text.

   Invariants: a failure is GA_ERROR_VALUE or GA_ERROR_SHAPE with a message
   naming ga_einsum; a success gives every operand dim a label whose
   extent is the dim's or the dim is 1, the result's labels distinct and
   each used by an input, the ellipsis's dims at most 32, and no label
   beyond the table. */
#include "fuzz.h"

static const ga_status errors[] = {GA_ERROR_VALUE, GA_ERROR_SHAPE, GA_ERROR_NULL_INPUT, GA_OK};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char func[] = "ga_einsum";
    fuzz_in in = {data, size};
    int n = 1 + (int)(fuzz_byte(&in) % 4);
    int ndims[4];
    int64_t shapes[4][GA_MAXDIMS + 2];
    const int64_t *sp[4];
    for (int i = 0; i < n; i++) {
        unsigned b = fuzz_byte(&in);
        ndims[i] = b == 255 ? GA_MAXDIMS + 1 : (int)(b % 7);
        for (int d = 0; d < ndims[i] && d < GA_MAXDIMS + 2; d++) {
            unsigned v = fuzz_byte(&in);
            shapes[i][d] = v < 250 ? (int64_t)(v % 6) : fuzz_int64(&in);
            if (shapes[i][d] < 0) shapes[i][d] = 0;
        }
        sp[i] = shapes[i];
    }
    char text[512];
    size_t len = in.n < sizeof text - 1 ? in.n : sizeof text - 1;
    memcpy(text, in.p, len);
    text[len] = 0;
    ga__einsum e;
    ga_clear_error();
    if (ga__einsum_parse(func, text, n, ndims, sp, &e) != GA_OK) {
        fuzz_check_error(func, errors);
        return 0;
    }
    FUZZ_CHECK(e.nbroadcast >= 0 && e.nbroadcast <= GA_MAXDIMS, "ellipsis of %d dims", e.nbroadcast);
    FUZZ_CHECK(e.out_ndim >= 0 && e.out_ndim <= GA__EINSUM_LABELS, "result of %d labels", e.out_ndim);
    bool seen[GA__EINSUM_LABELS] = {false};
    for (int k = 0; k < e.out_ndim; k++) {
        int l = e.out[k];
        FUZZ_CHECK(l < GA__EINSUM_LETTERS + e.nbroadcast, "result label %d beyond the table", l);
        FUZZ_CHECK(!seen[l] && e.count[l] > 0, "result label %d repeated or unused", l);
        seen[l] = true;
    }
    for (int i = 0; i < n; i++)
        for (int d = 0; d < ndims[i]; d++) {
            int l = e.label[i][d];
            FUZZ_CHECK(l < GA__EINSUM_LETTERS + e.nbroadcast, "operand %d dim %d: label %d beyond the table", i, d, l);
            FUZZ_CHECK(sp[i][d] == e.size[l] || sp[i][d] == 1, "operand %d dim %d: extent %lld, label's %lld", i, d,
                       (long long)sp[i][d], (long long)e.size[l]);
        }
    return 0;
}
