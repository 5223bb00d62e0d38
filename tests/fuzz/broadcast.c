/* Fuzzes broadcasting: ga_broadcast_to with target shapes drawn from small
   and edge values, and ga_broadcast_arrays over two or three fuzzed arrays.

   Invariants, NumPy's rules computed apart from the library in 128 bits:
   broadcast_to succeeds exactly when the target has at least the input's
   dims, no negative dim, NumPy's size rule holds (itemsize times the
   product of the nonzero dims within int64: (1,) to (2^62,) float64 is too
   big), and each input dim is 1 or the target's; its result is a read-only
   view with stride 0 along broadcast dims. broadcast_arrays gives every
   output the same shape, each a view of its input, or fails with nothing
   stored. */
#include "fuzz.h"

static const ga_status broadcast_errors[] = {GA_ERROR_VALUE, GA_ERROR_SHAPE, GA_OK};

static void broadcast_to(fuzz_in *in, ga_array *a)
{
    int ndim = (int)(fuzz_byte(in) % 7);
    if (fuzz_byte(in) == 255) ndim = GA_MAXDIMS + (int)(fuzz_byte(in) % 3) - 1;
    int64_t shape[GA_MAXDIMS + 2];
    for (int d = 0; d < ndim; d++) {
        int sd = d - (ndim - a->ndim);
        unsigned sel = fuzz_byte(in);
        shape[d] = sel < 96 && sd >= 0 ? a->shape[sd] : sel < 200 ? (int64_t)(sel % 6) : fuzz_int64(in);
    }
    bool ok = ndim >= a->ndim && ndim <= GA_MAXDIMS;
    __int128 bytes = (__int128)ga_itemsize(a);
    for (int d = 0; ok && d < ndim; d++) {
        int sd = d - (ndim - a->ndim);
        ok = shape[d] >= 0 && (sd < 0 || a->shape[sd] == 1 || a->shape[sd] == shape[d]);
        if (shape[d] > 0) bytes *= shape[d];
        ok = ok && bytes <= INT64_MAX;
    }
    ga_clear_error();
    ga_array *v = ga_broadcast_to(a, ndim, shape);
    FUZZ_CHECK(!v == !ok, "ga_broadcast_to %s, NumPy %s: %s", v ? "succeeded" : "failed", ok ? "would not" : "would",
               ga_last_error_message());
    if (!v) {
        fuzz_check_error("ga_broadcast_to", broadcast_errors);
        return;
    }
    fuzz_check_view("ga_broadcast_to", v, a);
    FUZZ_CHECK(!(v->flags & GA_WRITEABLE) && v->ndim == ndim && v->data == a->data, "ga_broadcast_to: layout");
    for (int d = 0; d < ndim; d++) {
        int sd = d - (ndim - a->ndim);
        FUZZ_CHECK(v->shape[d] == shape[d], "ga_broadcast_to: shape");
        if (sd < 0 || (a->shape[sd] == 1 && shape[d] != 1))
            FUZZ_CHECK(v->strides[d] == 0, "ga_broadcast_to: a broadcast dim with stride %lld",
                       (long long)v->strides[d]);
    }
    ga_release(v);
}

static void broadcast_arrays(fuzz_in *in, ga_array *a)
{
    ga_array *b = fuzz_array(in), *c = fuzz_byte(in) & 1 ? fuzz_array(in) : NULL;
    const ga_array *ins[3] = {a, b, c};
    ga_array *outs[3] = {NULL, NULL, NULL};
    int n = c ? 3 : 2;
    ga_clear_error();
    if (ga_broadcast_arrays(n, ins, outs) == GA_OK) {
        for (int i = 0; i < n; i++) {
            fuzz_check_view("ga_broadcast_arrays", outs[i], ins[i]);
            FUZZ_CHECK(outs[i]->ndim == outs[0]->ndim, "ga_broadcast_arrays: ndims differ");
            for (int d = 0; d < outs[0]->ndim; d++)
                FUZZ_CHECK(outs[i]->shape[d] == outs[0]->shape[d], "ga_broadcast_arrays: shapes differ");
        }
        for (int i = 0; i < n; i++) ga_release(outs[i]);
    } else {
        fuzz_check_error("ga_broadcast_arrays", broadcast_errors);
        for (int i = 0; i < n; i++) FUZZ_CHECK(!outs[i], "ga_broadcast_arrays stored an output and failed");
    }
    fuzz_release_base(b);
    if (c) fuzz_release_base(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned mode = fuzz_byte(&in);
    ga_array *a = fuzz_array(&in);
    if (mode & 1) broadcast_arrays(&in, a);
    else broadcast_to(&in, a);
    fuzz_release_base(a);
    return 0;
}
