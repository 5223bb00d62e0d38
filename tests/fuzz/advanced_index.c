/* Fuzzes the host steps of advanced indexing (ga_index_items with array
   items), as far as they run without a GPU: the items parsed against `a`
   (ga__advanced_check_items, ga__advanced_parse), the index arrays'
   broadcast (ga__broadcast_shapes, ga__advanced_broadcast_error), and the
   target view with the indexed axes placed and collapsed
   (ga__advanced_target). The device step between them (each index array's
   int64 positions, a bool array's nonzero()) is stood in for by fake int64
   arrays of the shapes it would give.

   Items: integers and slice bounds from edge values, newaxis, ellipsis,
   and index arrays (int64, bool, or float, which is refused) of fuzzed
   shapes, some on another device. An index with no array item goes to
   ga_index_items, which makes a basic view.

   Invariants: failures carry the allowed codes; the target is a valid
   view inside a's buffer (or needs the device: GA_ERROR_NO_DRIVER); the
   result has at most 32 dims and the index arrays' broadcast shape in it;
   its size is the target's with the indexed axis replaced by the index
   shape. */
#include "fuzz.h"

/* (parsing reads a 0-d integer index array's value from the device, which
   the fake arrays have not: GA_ERROR_NO_DRIVER) */
static const ga_status parse_errors[] = {GA_ERROR_INDEX, GA_ERROR_VALUE, GA_ERROR_DEVICE, GA_ERROR_NO_DRIVER, GA_OK};
static const ga_status target_errors[] = {GA_ERROR_INDEX, GA_ERROR_VALUE, GA_ERROR_NO_DRIVER, GA_OK};

/* A C-contiguous fake array of `dtype` (its own buffer). */
static ga_array *plain(ga_dtype dtype, int ndim, const int64_t *shape)
{
    int64_t strides[GA_MAXDIMS], size = 1;
    for (int d = 0; d < ndim; d++) size *= shape[d];
    ga__c_strides(ndim, shape, (int64_t)ga_dtype_itemsize(dtype), strides);
    return fuzz_array_raw(dtype, ndim, shape, strides, 0, (size_t)size * ga_dtype_itemsize(dtype));
}

static int64_t bound(fuzz_in *in)
{
    unsigned sel = fuzz_byte(in);
    return sel < 64 ? GA_NONE : sel < 200 ? (int64_t)(sel % 9) - 4 : fuzz_int64(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char func[] = "ga_index_items";
    fuzz_in in = {data, size};
    ga_array *a = fuzz_array(&in);
    int n = (int)(fuzz_byte(&in) % 7);
    if (fuzz_byte(&in) == 255) n = (int)(fuzz_byte(&in) % (2 * GA_MAXDIMS + 1));
    ga_index_item items[2 * GA_MAXDIMS];
    ga_array *owned[2 * GA_MAXDIMS];
    int nowned = 0;
    for (int i = 0; i < n; i++) {
        unsigned kind = fuzz_byte(&in) % 6;
        if (kind == 0) items[i] = ga_at(fuzz_byte(&in) < 200 ? (int64_t)(fuzz_byte(&in) % 9) - 4 : fuzz_int64(&in));
        else if (kind == 1) {
            int64_t start = bound(&in), stop = bound(&in); /* read in order: arguments are not */
            items[i] = ga_slice(start, stop, fuzz_byte(&in) & 1 ? GA_NONE : bound(&in));
        }
        else if (kind == 2) items[i] = ga_newaxis();
        else if (kind == 3) items[i] = ga_ellipsis();
        else { /* an index array */
            unsigned t = fuzz_byte(&in);
            ga_dtype dtype = t < 120 ? GA_INT64 : t < 240 ? GA_BOOL : GA_FLOAT32;
            int nd = (int)(fuzz_byte(&in) % 4);
            int64_t shape[3];
            for (int d = 0; d < nd; d++) shape[d] = (int64_t)(fuzz_byte(&in) % 5);
            ga_array *x = plain(dtype, nd, shape);
            if (fuzz_byte(&in) == 7) x->device = x->buffer->device = 1;
            owned[nowned++] = x;
            items[i] = ga_array_index(x);
        }
    }
    ga__advanced_items p;
    ga__advanced adv;
    memset(&adv, 0, sizeof adv);
    ga_clear_error();
    if (!ga__has_array_item(n, items)) { /* basic items: ga_index_items makes a view */
        static const ga_status basic_errors[] = {GA_ERROR_INDEX, GA_ERROR_VALUE, GA_OK};
        ga_array *v = ga_index_items(a, n, items);
        if (v) fuzz_check_view(func, v, a);
        else fuzz_check_error(func, basic_errors);
        ga_release(v);
        goto done;
    }
    if (ga__advanced_parse(func, a, n, items, &p) != GA_OK) {
        fuzz_check_error(func, parse_errors);
        goto done;
    }
    FUZZ_CHECK(p.nbasic <= 3 * GA_MAXDIMS && p.narrays <= GA_MAXDIMS, "ga__advanced_parse: %d basic items, %d arrays",
               p.nbasic, p.narrays);
    /* what ga__advanced_index_arrays computes on the device: positions of
       each index array's shape (a bool array: its nonzero count, any) */
    int ndims[GA_MAXDIMS];
    const int64_t *shapes[GA_MAXDIMS];
    for (int m = 0; m < p.narrays; m++) {
        const ga_array *x = p.arrays[m].array;
        FUZZ_CHECK(p.arrays[m].axis >= 0 && p.arrays[m].axis + (x->dtype == GA_BOOL ? x->ndim : 1) <= a->ndim,
                   "array %d indexes axis %d of %d", m, p.arrays[m].axis, a->ndim);
        int64_t count = x->size ? (int64_t)fuzz_byte(&in) % (x->size + 1) : 0;
        p.arrays[m].linear = x->dtype == GA_BOOL ? plain(GA_INT64, 1, &count) : plain(GA_INT64, x->ndim, x->shape);
        ndims[m] = p.arrays[m].linear->ndim, shapes[m] = p.arrays[m].linear->shape;
    }
    int bad = 0;
    p.index_ndim = 0;
    if (!ga__broadcast_shapes(p.narrays, ndims, shapes, &p.index_ndim, p.index_shape, &bad)) {
        ga__advanced_broadcast_error(func, &p);
        FUZZ_CHECK(ga_last_error() == GA_ERROR_INDEX && strlen(ga_last_error_message()) < 512,
                   "the broadcast error");
        ga__advanced_items_release(&p);
        goto done;
    }
    if (ga__advanced_target(func, a, &p, &adv) != GA_OK) {
        fuzz_check_error(func, target_errors);
    } else {
        const ga_array *t = adv.target;
        fuzz_check_array("the target", t);
        if (t->buffer == a->buffer) fuzz_check_view("the target", t, a);
        FUZZ_CHECK(adv.ndim <= GA_MAXDIMS && adv.axis >= 0 && adv.axis < t->ndim, "result of %d dims, axis %d", adv.ndim,
                   adv.axis);
        FUZZ_CHECK(adv.ndim == t->ndim - 1 + p.index_ndim, "result of %d dims from a target of %d", adv.ndim, t->ndim);
        for (int d = 0; d < p.index_ndim; d++)
            FUZZ_CHECK(adv.shape[adv.axis + d] == p.index_shape[d], "the index shape is not in the result");
        for (int d = 0; d < adv.axis; d++) FUZZ_CHECK(adv.shape[d] == t->shape[d], "outer dims");
        for (int d = adv.axis + 1; d < t->ndim; d++)
            FUZZ_CHECK(adv.shape[d - 1 + p.index_ndim] == t->shape[d], "inner dims");
    }
    ga__advanced_release(&adv);
    ga__advanced_items_release(&p);
done:
    for (int i = 0; i < nowned; i++) fuzz_release_base(owned[i]);
    fuzz_release_base(a);
    return 0;
}
