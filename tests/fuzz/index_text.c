/* Fuzzes the basic-indexing text (ga_index, ga__parse_index,
   ga__index_layout) over arrays of fuzzed layouts.

   Input: a layout (fuzz_array), then a mode byte. Mode even: the rest is
   the index text, as written. Mode odd: one slice over a 1-d array whose
   start, stop and step come from a table of edge values (omitted, small,
   +-n, INT64_MIN, INT64_MAX, numbers beyond int64), checked against
   CPython's slice rules computed in 128 bits, and, where the items API can
   say the same thing, against ga_index_items.

   Invariants: a result is a valid view inside its input's buffer with at
   most 32 dims; failures are GA_ERROR_INDEX or GA_ERROR_VALUE naming
   ga_index; the input's buffer gets its references back. */
#include "fuzz.h"

static const ga_status index_errors[] = {GA_ERROR_INDEX, GA_ERROR_VALUE, GA_OK};

/* CPython's slice of n elements (_PyEval_SliceIndex clamps a bound to
   int64, PySlice_Unpack the step to -INT64_MAX, PySlice_AdjustIndices
   clamps to the sequence), in 128 bits. */
static void python_slice(bool has_start, __int128 start, bool has_stop, __int128 stop, bool has_step, __int128 step,
                         int64_t n, int64_t *first, int64_t *length, int64_t *pystep)
{
    const __int128 lo = INT64_MIN, hi = INT64_MAX;
    step = has_step ? (step < lo ? lo : step > hi ? hi : step) : 1;
    if (step < -hi) step = -hi;
    start = has_start ? (start < lo ? lo : start > hi ? hi : start) : (step < 0 ? hi : 0);
    stop = has_stop ? (stop < lo ? lo : stop > hi ? hi : stop) : (step < 0 ? lo : hi);
    if (start < 0) {
        start += n;
        if (start < 0) start = step < 0 ? -1 : 0;
    } else if (start >= n) {
        start = step < 0 ? n - 1 : n;
    }
    if (stop < 0) {
        stop += n;
        if (stop < 0) stop = step < 0 ? -1 : 0;
    } else if (stop >= n) {
        stop = step < 0 ? n - 1 : n;
    }
    __int128 len = 0;
    if (step < 0 && stop < start) len = (start - stop - 1) / -step + 1;
    if (step > 0 && start < stop) len = (stop - start - 1) / step + 1;
    *first = (int64_t)start;
    *length = (int64_t)len;
    *pystep = (int64_t)step;
}

/* One bound or step: omitted, or a number (*value) written into `text`. */
static bool slice_part(fuzz_in *in, int64_t n, char *text, size_t size, __int128 *value)
{
    unsigned sel = fuzz_byte(in) % 16;
    switch (sel) {
    case 0: text[0] = 0; return false;
    case 1: *value = n; break;
    case 2: *value = -n; break;
    case 3: *value = n + 1; break;
    case 4: *value = -n - 1; break;
    case 5: *value = INT64_MIN; break;
    case 6: *value = INT64_MAX; break;
    case 7: *value = (__int128)INT64_MIN - 1; break;
    case 8: *value = (__int128)INT64_MAX + 1; break;
    case 9: /* 20+ digits */
    {
        bool minus = fuzz_byte(in) & 1;
        snprintf(text, size, "%s99999999999999999999%u", minus ? "-" : "", fuzz_byte(in) % 10);
    }
        *value = text[0] == '-' ? -((__int128)1 << 100) : ((__int128)1 << 100);
        return true;
    case 10: *value = INT64_MIN + 1; break;
    default: *value = fuzz_int64(in); break;
    }
    /* 128-bit values print through two halves */
    __int128 v = *value < 0 ? -*value : *value;
    char digits[48];
    int k = 0;
    do {
        digits[k++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    size_t at = 0;
    if (*value < 0) text[at++] = '-';
    while (k && at + 1 < size) text[at++] = digits[--k];
    text[at] = 0;
    return true;
}

static void one_slice(fuzz_in *in)
{
    int64_t n = (int64_t)(fuzz_byte(in) % 9), stride = 8 * (int64_t)(fuzz_byte(in) % 3 + 1);
    if (fuzz_byte(in) & 1) stride = -stride;
    int64_t shape[1] = {n}, strides[1] = {stride};
    int64_t offset = stride < 0 && n > 0 ? (n - 1) * -stride : 0;
    ga_array *a = fuzz_array_raw(GA_FLOAT64, 1, shape, strides, offset, (size_t)(n * (stride < 0 ? -stride : stride)));
    char parts[3][64], text[256];
    __int128 v[3] = {0, 0, 0};
    bool has[3];
    for (int i = 0; i < 3; i++) has[i] = slice_part(in, n, parts[i], sizeof parts[i], &v[i]);
    bool two_colons = fuzz_byte(in) & 1 || has[2];
    snprintf(text, sizeof text, "%s:%s%s%s", parts[0], parts[1], two_colons ? ":" : "", parts[2]);
    ga_clear_error();
    ga_array *r = ga_index(a, text);
    if (has[2] && v[2] == 0) {
        FUZZ_CHECK(!r && ga_last_error() == GA_ERROR_VALUE, "\"%s\": a zero step must fail", text);
    } else {
        int64_t first, length, step;
        python_slice(has[0], v[0], has[1], v[1], has[2], v[2], n, &first, &length, &step);
        FUZZ_CHECK(r, "\"%s\" over %lld elements failed: %s", text, (long long)n, ga_last_error_message());
        fuzz_check_view(text, r, a);
        FUZZ_CHECK(r->ndim == 1 && r->shape[0] == length, "\"%s\" over %lld: length %lld, Python's %lld", text,
                   (long long)n, (long long)r->shape[0], (long long)length);
        if (length > 0)
            FUZZ_CHECK(r->data == a->data + (uint64_t)(first * stride), "\"%s\" over %lld: starts at the wrong element",
                       text, (long long)n);
        if (length > 1)
            FUZZ_CHECK(r->strides[0] == stride * step, "\"%s\": stride %lld", text, (long long)r->strides[0]);
        /* the items API says the same where no bound is INT64_MIN (GA_NONE there) or beyond int64 */
        bool expressible = true;
        for (int i = 0; i < 3; i++) expressible = expressible && (!has[i] || (v[i] > INT64_MIN && v[i] <= INT64_MAX));
        if (expressible) {
            ga_index_item it = ga_slice(has[0] ? (int64_t)v[0] : GA_NONE, has[1] ? (int64_t)v[1] : GA_NONE,
                                        has[2] ? (int64_t)v[2] : GA_NONE);
            ga_array *q = ga_index_items(a, 1, &it);
            FUZZ_CHECK(q && q->shape[0] == r->shape[0] && q->data == r->data &&
                           (r->shape[0] <= 1 || q->strides[0] == r->strides[0]),
                       "\"%s\": ga_index_items disagrees", text);
            ga_release(q);
        }
    }
    ga_release(r);
    fuzz_release_base(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    if (size > 4096) return 0;
    if (size && (data[0] & 1)) {
        in.p++, in.n--;
        one_slice(&in);
        return 0;
    }
    if (size) in.p++, in.n--;
    ga_array *a = fuzz_array(&in);
    char *text = (char *)malloc(in.n + 1);
    memcpy(text, in.p, in.n);
    text[in.n] = 0;
    ga_clear_error();
    ga_array *r = ga_index(a, text);
    if (r) {
        fuzz_check_view("ga_index", r, a);
        ga_release(r);
    } else {
        fuzz_check_error("ga_index", index_errors);
    }
    /* a[text] = a goes through the same parse and layout, then the device
       (none here: nothing to copy, or a clean failure) */
    static const ga_status setitem_errors[] = {GA_ERROR_INDEX, GA_ERROR_VALUE, GA_ERROR_SHAPE, GA_ERROR_NO_DRIVER, GA_OK};
    ga_clear_error();
    if (ga_setitem(a, text, a) != GA_OK) fuzz_check_error("ga_setitem", setitem_errors);
    free(text);
    fuzz_release_base(a);
    return 0;
}
