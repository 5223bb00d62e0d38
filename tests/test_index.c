/* Device tests of boolean-mask and advanced (integer-array) indexing,
   nonzero / argwhere / flatnonzero, compress / extract / place, add.at and
   trace (gpuarr.h, >>index) and of the select glue they run on.

   Every function runs for every dtype on odd sizes (1, 31, 33, 1023, 1025,
   2^20 + 7), empty and 0-d arrays, and on three layouts of the same logical
   array: C-contiguous, every axis reversed in memory (negative strides) and
   a view of a view (every second row of a wider base, then the columns but
   the last). Results are compared element for element (as bytes: indexing
   moves elements unchanged) against a host reference; truth values follow
   NumPy (NaN is true, -0.0 false, a complex number is true when either part
   is). Outputs are poisoned first. Advanced indexing checks NumPy's shape
   rules (adjacent index arrays in place, separated ones first, integers as
   0-d arrays, bool arrays as their nonzero() arrays, broadcasting of index
   arrays) case by case, assignment and add.at with repeated indices, and
   the errors with NumPy's wording, nothing written on error.
   GPUARR_TEST_SEED=<seed> repeats a run. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <math.h>


/* ------------------------------------------------------------------------ */
/* Host arrays                                                                */
/* ------------------------------------------------------------------------ */

static int64_t size_of(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    return n;
}

static void *xmalloc(size_t n) { return malloc(n ? n : 1); }

/* Random elements, a third of them zero; floats hold NaN, -0.0 and
   infinities, complex numbers zero and nonzero parts of either kind. */
static uint64_t truth_integer(ga_dtype t, const fill_spec *s)
{
    (void)s;
    if (rnd() % 3 == 0) return 0;
    if (t == GA_BOOL) return 1;
    uint64_t v = rnd(), low = width(t) == 64 ? v : v & ((UINT64_C(1) << width(t)) - 1);
    return low ? v : 1; /* nonzero in the dtype */
}
static void truth_floating(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    (void)s;
    if (rnd() % 3 == 0) return; /* zero */
    static const double special[] = {NAN, -0.0, INFINITY, -INFINITY, 1.5, -2.25, 1e-3};
    int c = (int)(rnd() % 10);
    double x = c < 7 ? special[c] : rnd_unit() * 200.0 - 100.0;
    if (is_complex(t)) { /* (x, 0), (0, x) or (x, y) */
        int which = (int)(rnd() % 3);
        if (which != 1) *re = x;
        if (which != 0) *im = which == 1 ? x : rnd_unit() - 0.5;
    } else {
        *re = x;
    }
}
static void fill_values(void *data, int64_t n, ga_dtype t)
{
    fill_random(data, n, t, &(fill_spec){.integer = truth_integer, .floating = truth_floating});
}

/* NumPy's truth value of the element at p. */
static bool truth(const void *p, ga_dtype t)
{
    char kind = ga_dtype_kind(t);
    if (kind == 'b' || kind == 'i' || kind == 'u') {
        const unsigned char *b = p;
        for (size_t k = 0; k < ga_dtype_itemsize(t); k++)
            if (b[k]) return true;
        return false;
    }
    if (kind == 'c') {
        ga_dtype part = part_of(t);
        size_t half = ga_dtype_itemsize(t) / 2;
        return truth(p, part) || truth((const unsigned char *)p + half, part);
    }
    double v = ref_to_double(t, p);
    return v != 0 || isnan(v);
}

/* A random bool mask with about `percent` % true. */
static void fill_mask(bool *m, int64_t n, int percent)
{
    for (int64_t i = 0; i < n; i++) m[i] = (int)(rnd() % 100) < percent;
}

/* ------------------------------------------------------------------------ */
/* Layouts of one logical array                                               */
/* ------------------------------------------------------------------------ */

enum { LAYOUT_C, LAYOUT_REVERSED, LAYOUT_VIEW_OF_VIEW, NUM_LAYOUTS };
static const char *layout_names[] = {"contiguous", "reversed", "view of a view"};

/* `logical` (C order over shape) on the device in layout `layout`. */
static ga_array *upload_as(const void *logical, int ndim, const int64_t *shape, ga_dtype t, int layout)
{
    size_t sz = ga_dtype_itemsize(t);
    int64_t n = size_of(ndim, shape);
    if (layout == LAYOUT_C || ndim == 0) return ga_from_host(logical, ndim, shape, t);
    if (layout == LAYOUT_REVERSED) { /* stored backwards, flipped on every axis */
        unsigned char *rev = xmalloc((size_t)n * sz);
        for (int64_t i = 0; i < n; i++) memcpy(rev + (size_t)(n - 1 - i) * sz, (const char *)logical + (size_t)i * sz, sz);
        ga_array *base = ga_from_host(rev, ndim, shape, t);
        free(rev);
        ga_array *v = base ? ga_flip(base, 0, NULL) : NULL;
        ga_release(base);
        return v;
    }
    /* base (2 * shape[0], ..., shape[last] + 1): the logical array in its
       even rows and all columns but the last */
    int64_t bshape[GA_MAXDIMS] = {0};
    for (int d = 0; d < ndim; d++) bshape[d] = shape[d];
    bshape[0] *= 2;
    bshape[ndim - 1] += 1;
    int64_t bn = size_of(ndim, bshape);
    unsigned char *b = xmalloc((size_t)bn * sz);
    fill_values(b, bn, t);
    int64_t idx[GA_MAXDIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = 0; d < ndim; d++) off = off * bshape[d] + (d == 0 ? 2 * idx[d] : idx[d]);
        memcpy(b + (size_t)off * sz, (const char *)logical + (size_t)i * sz, sz);
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
    ga_array *base = ga_from_host(b, ndim, bshape, t);
    free(b);
    ga_index_item rows = ga_slice(GA_NONE, GA_NONE, 2);
    ga_index_item cols[2] = {ga_ellipsis(), ga_slice(0, shape[ndim - 1], GA_NONE)};
    ga_array *v1 = base ? ga_index_items(base, 1, &rows) : NULL;
    ga_array *v2 = v1 ? ga_index_items(v1, 2, cols) : NULL;
    ga_release(base);
    ga_release(v1);
    return v2;
}

static void describe(char *out, size_t n, const char *what, ga_dtype t, int ndim, const int64_t *shape, int layout)
{
    int k = snprintf(out, n, "%s %s shape (", what, ga_dtype_name(t));
    for (int d = 0; d < ndim && k < (int)n; d++) k += snprintf(out + k, n - (size_t)k, "%lld,", (long long)shape[d]);
    if (k < (int)n) snprintf(out + k, n - (size_t)k, ") %s", layout_names[layout]);
}

/* The device array's shape is (ndim, shape) and its elements (C order) are
   `want`'s bytes. */
static void check_array(const char *what, ga_array *got, int ndim, const int64_t *shape, ga_dtype t, const void *want)
{
    CHECK(got != NULL, "%s: failed: %s", what, ga_last_error_message());
    if (!got) {
        ga_clear_error();
        return;
    }
    CHECK(ga_dtype_of(got) == t, "%s: dtype %s, want %s", what, ga_dtype_name(ga_dtype_of(got)), ga_dtype_name(t));
    bool same = ga_ndim(got) == ndim;
    for (int d = 0; same && d < ndim; d++) same = ga_shape(got)[d] == shape[d];
    CHECK(same, "%s: ndim %d, want %d (or another shape)", what, ga_ndim(got), ndim);
    if (!same || ga_dtype_of(got) != t) return;
    size_t bytes = (size_t)size_of(ndim, shape) * ga_dtype_itemsize(t);
    unsigned char *h = xmalloc(bytes);
    if (download(got, h)) {
        size_t sz = ga_dtype_itemsize(t);
        for (size_t i = 0; i < bytes; i += sz)
            if (memcmp(h + i, (const unsigned char *)want + i, sz) != 0) {
                CHECK(false, "%s: element %zu differs", what, i / sz);
                break;
            }
    }
    free(h);
}

/* ------------------------------------------------------------------------ */
/* a[mask] and a[mask] = value                                                */
/* ------------------------------------------------------------------------ */

typedef struct shape_case {
    int ndim;
    int64_t shape[4];
} shape_case;

static const shape_case mask_shapes[] = {
    {0, {0}},         {1, {0}},       {1, {1}},     {1, {31}},       {1, {33}},          {1, {1023}},
    {1, {1025}},      {2, {3, 0}},    {2, {33, 31}}, {3, {5, 7, 3}}, {4, {2, 3, 4, 5}}, {1, {(1 << 20) + 7}},
};

/* want = a[mask] over the first k axes (inner elements per mask element). */
static int64_t mask_reference(const unsigned char *a, const bool *mask, int64_t nmask, int64_t inner, size_t sz,
                              unsigned char *want)
{
    int64_t count = 0;
    for (int64_t i = 0; i < nmask; i++)
        if (mask[i]) {
            memcpy(want + (size_t)(count * inner) * sz, a + (size_t)(i * inner) * sz, (size_t)inner * sz);
            count++;
        }
    return count;
}

static void check_mask_get(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    for (size_t c = 0; c < sizeof mask_shapes / sizeof mask_shapes[0]; c++) {
        shape_case shrunk = mask_shapes[c];
        shrunk.shape[0] = test_length(shrunk.shape[0]);
        const shape_case *sc = &shrunk;
        int64_t n = size_of(sc->ndim, sc->shape);
        unsigned char *h = xmalloc((size_t)n * sz), *want = xmalloc((size_t)n * sz);
        bool *mask = xmalloc((size_t)n);
        fill_values(h, n, t);
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            if (layout != LAYOUT_C && (sc->ndim == 0 || n > 100000)) continue;
            char what[200];
            describe(what, sizeof what, "a[mask]", t, sc->ndim, sc->shape, layout);
            ga_array *a = upload_as(h, sc->ndim, sc->shape, t, layout);
            CHECK(a != NULL, "%s: upload: %s", what, ga_last_error_message());
            /* masks over all axes, then over the leading k */
            for (int k = sc->ndim; k >= 0 && a; k--) {
                int64_t nmask = size_of(k, sc->shape), inner = n / (nmask ? nmask : 1);
                if (nmask == 0) inner = size_of(sc->ndim - k, sc->shape + k);
                fill_mask(mask, nmask, k == sc->ndim && c % 2 ? 90 : 50);
                int64_t count = mask_reference(h, mask, nmask, inner, sz, want);
                /* the mask itself reversed in memory in the reversed layout */
                ga_array *m = upload_as(mask, k, sc->shape, GA_BOOL, layout == LAYOUT_REVERSED ? layout : LAYOUT_C);
                poison_next((size_t)(count * inner) * sz);
                ga_array *got = m ? ga_index_mask(a, m) : NULL;
                int64_t rshape[5];
                rshape[0] = count;
                for (int d = k; d < sc->ndim; d++) rshape[1 + d - k] = sc->shape[d];
                char w2[240];
                snprintf(w2, sizeof w2, "%s, mask over %d axes", what, k);
                check_array(w2, got, 1 + sc->ndim - k, rshape, t, want);
                /* the same through the index items */
                ga_index_item item = ga_array_index(m);
                ga_array *got2 = m ? ga_index_items(a, 1, &item) : NULL;
                check_array(w2, got2, 1 + sc->ndim - k, rshape, t, want);
                ga_release(got);
                ga_release(got2);
                ga_release(m);
                if (n > 100000) break;
            }
            ga_release(a);
        }
        free(h);
        free(want);
        free(mask);
    }
}

static void check_mask_set(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    static const shape_case shapes[] = {{0, {0}}, {1, {0}}, {1, {1}}, {1, {1025}}, {3, {5, 7, 3}}, {2, {33, 31}}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        const shape_case *sc = &shapes[c];
        int64_t n = size_of(sc->ndim, sc->shape);
        unsigned char *h = xmalloc((size_t)n * sz), *want = xmalloc((size_t)n * sz), *one = xmalloc(sz);
        bool *mask = xmalloc((size_t)n);
        double *vals = xmalloc((size_t)n * sizeof(double));
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            if (layout != LAYOUT_C && sc->ndim == 0) continue;
            for (int k = sc->ndim; k >= (sc->ndim > 1 ? sc->ndim - 1 : sc->ndim); k--) {
                char what[240];
                describe(what, sizeof what, "a[mask] = values", t, sc->ndim, sc->shape, layout);
                int64_t nmask = size_of(k, sc->shape), inner = size_of(sc->ndim - k, sc->shape + k);
                fill_values(h, n, t);
                fill_mask(mask, nmask, 40);
                int64_t count = 0;
                for (int64_t i = 0; i < nmask; i++) count += mask[i];
                /* values: float64 of shape (count, inner...), converted */
                for (int64_t i = 0; i < count * inner; i++) vals[i] = (double)(rnd() % 100) / 4;
                memcpy(want, h, (size_t)n * sz);
                for (int64_t i = 0, j = 0; i < nmask; i++)
                    if (mask[i])
                        for (int64_t e = 0; e < inner; e++, j++)
                            ref_cast(GA_FLOAT64, &vals[j], t, want + (size_t)(i * inner + e) * sz);
                ga_array *a = upload_as(h, sc->ndim, sc->shape, t, layout);
                ga_array *m = ga_from_host(mask, k, sc->shape, GA_BOOL);
                int64_t vshape[5];
                vshape[0] = count;
                for (int d = k; d < sc->ndim; d++) vshape[1 + d - k] = sc->shape[d];
                ga_array *v = ga_from_host(vals, 1 + sc->ndim - k, vshape, GA_FLOAT64);
                CHECK_OK(ga_setitem_mask(a, m, v));
                check_array(what, a, sc->ndim, sc->shape, t, want);
                /* a scalar, and a row broadcast over the selected ones */
                snprintf(what + strlen(what), sizeof what - strlen(what), ", scalar");
                ref_from_double(t, 1.0, one);
                for (int64_t i = 0; i < nmask; i++)
                    if (mask[i])
                        for (int64_t e = 0; e < inner; e++) memcpy(want + (size_t)(i * inner + e) * sz, one, sz);
                CHECK_OK(ga_setitem_mask_scalar(a, m, ga_int(1)));
                check_array(what, a, sc->ndim, sc->shape, t, want);
                if (k < sc->ndim) {
                    snprintf(what + strlen(what), sizeof what - strlen(what), ", broadcast row");
                    ga_array *row = ga_from_host(vals, sc->ndim - k, sc->shape + k, GA_FLOAT64);
                    for (int64_t i = 0; i < nmask; i++)
                        if (mask[i])
                            for (int64_t e = 0; e < inner; e++)
                                ref_cast(GA_FLOAT64, &vals[e], t, want + (size_t)(i * inner + e) * sz);
                    CHECK_OK(ga_setitem_mask(a, m, row));
                    check_array(what, a, sc->ndim, sc->shape, t, want);
                    ga_release(row);
                }
                ga_release(a);
                ga_release(m);
                ga_release(v);
            }
        }
        free(h);
        free(want);
        free(one);
        free(mask);
        free(vals);
    }
}

/* ------------------------------------------------------------------------ */
/* nonzero, argwhere, flatnonzero                                             */
/* ------------------------------------------------------------------------ */

static void check_nonzero(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    static const shape_case shapes[] = {{1, {0}},  {1, {1}},     {1, {31}},    {1, {1025}},
                                        {2, {3, 0}}, {3, {5, 7, 3}}, {2, {33, 31}}, {1, {(1 << 20) + 7}}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        shape_case shrunk = shapes[c];
        shrunk.shape[0] = test_length(shrunk.shape[0]);
        const shape_case *sc = &shrunk;
        int64_t n = size_of(sc->ndim, sc->shape);
        unsigned char *h = xmalloc((size_t)n * sz);
        int64_t *flat = xmalloc((size_t)n * 8), *coords = xmalloc((size_t)n * 8 * (size_t)sc->ndim);
        int64_t *rows = xmalloc((size_t)n * 8 * (size_t)sc->ndim);
        fill_values(h, n, t);
        int64_t count = 0;
        for (int64_t i = 0; i < n; i++)
            if (truth(h + (size_t)i * sz, t)) flat[count++] = i;
        for (int64_t j = 0; j < count; j++) { /* argwhere's rows, nonzero's columns */
            int64_t f = flat[j];
            for (int d = sc->ndim - 1; d >= 0; d--) {
                coords[j * sc->ndim + d] = f % sc->shape[d];
                rows[d * count + j] = f % sc->shape[d];
                f /= sc->shape[d];
            }
        }
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            if (layout != LAYOUT_C && n > 100000) continue;
            char what[200];
            describe(what, sizeof what, "nonzero", t, sc->ndim, sc->shape, layout);
            ga_array *a = upload_as(h, sc->ndim, sc->shape, t, layout);
            ga_array *out[4] = {NULL, NULL, NULL, NULL};
            CHECK_OK(ga_nonzero(a, out));
            for (int d = 0; d < sc->ndim; d++) {
                check_array(what, out[d], 1, &count, GA_INT64, rows + d * count);
                ga_release(out[d]);
            }
            int64_t ashape[2] = {count, sc->ndim};
            ga_array *aw = ga_argwhere(a);
            check_array("argwhere", aw, 2, ashape, GA_INT64, coords);
            ga_array *fl = ga_flatnonzero(a);
            check_array("flatnonzero", fl, 1, &count, GA_INT64, flat);
            ga_release(aw);
            ga_release(fl);
            ga_release(a);
        }
        free(h);
        free(flat);
        free(coords);
        free(rows);
    }
    /* 0-d: nonzero is NumPy 2's error; argwhere (1, 0) or (0, 0); flatnonzero [0] or [] */
    unsigned char z[16] = {0}, one[16];
    ref_from_double(t, 1.0, one);
    for (int v = 0; v < 2; v++) {
        ga_array *a = ga_from_host(v ? one : z, 0, NULL, t), *out[1] = {NULL};
        CHECK_ERROR(ga_nonzero(a, out) != GA_OK, GA_ERROR_VALUE, "Calling nonzero on 0d arrays is not allowed");
        ga_array *aw = ga_argwhere(a), *fl = ga_flatnonzero(a);
        int64_t ashape[2] = {v, 0}, zero = 0;
        check_array("argwhere of 0-d", aw, 2, ashape, GA_INT64, &zero);
        check_array("flatnonzero of 0-d", fl, 1, &ashape[0], GA_INT64, &zero);
        ga_release(aw);
        ga_release(fl);
        ga_release(a);
    }
}

/* ------------------------------------------------------------------------ */
/* compress, extract, place                                                    */
/* ------------------------------------------------------------------------ */

static void check_compress_extract_place(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    const int64_t shape[3] = {5, 7, 3};
    const int64_t n = 105;
    unsigned char h[105 * 16], want[105 * 16], cond[105 * 16];
    fill_values(h, n, t);
    for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
        ga_array *a = upload_as(h, 3, shape, t, layout);
        /* compress along each axis, with a shorter condition on axis 1 */
        for (int axis = -1; axis < 3; axis++) {
            int ax = axis < 0 ? 2 : axis;
            int64_t len = ax == 1 ? 4 : shape[ax];
            bool c[7];
            fill_mask(c, len, 50);
            int64_t count = 0, sel[7];
            for (int64_t i = 0; i < len; i++)
                if (c[i]) sel[count++] = i;
            int64_t rshape[3] = {shape[0], shape[1], shape[2]};
            rshape[ax] = count;
            int64_t k = 0;
            for (int64_t i = 0; i < rshape[0]; i++)
                for (int64_t j = 0; j < rshape[1]; j++)
                    for (int64_t l = 0; l < rshape[2]; l++, k++) {
                        int64_t s[3] = {i, j, l};
                        s[ax] = sel[s[ax]];
                        memcpy(want + (size_t)k * sz, h + (size_t)((s[0] * 7 + s[1]) * 3 + s[2]) * sz, sz);
                    }
            ga_array *cd = ga_from_host(c, 1, &len, GA_BOOL);
            ga_array *got = ga_compress(cd, a, axis);
            char what[120];
            snprintf(what, sizeof what, "compress %s axis %d %s", ga_dtype_name(t), axis, layout_names[layout]);
            check_array(what, got, 3, rshape, t, want);
            ga_release(got);
            ga_release(cd);
        }
        /* compress with axis None, and extract, with a condition of dtype t */
        fill_values(cond, n, t);
        int64_t count = 0;
        for (int64_t i = 0; i < n; i++)
            if (truth(cond + (size_t)i * sz, t)) memcpy(want + (size_t)count++ * sz, h + (size_t)i * sz, sz);
        ga_array *cd = ga_from_host(cond, 3, shape, t), *cflat = ga_ravel(cd);
        ga_array *got = ga_extract(cd, a);
        check_array("extract", got, 1, &count, t, want);
        ga_release(got);
        got = ga_compress(cflat, a, GA_AXIS_NONE);
        check_array("compress axis None", got, 1, &count, t, want);
        ga_release(got);
        /* place: vals repeated cyclically */
        unsigned char vals[3 * 16];
        fill_values(vals, 3, t);
        memcpy(want, h, (size_t)n * sz);
        for (int64_t i = 0, j = 0; i < n; i++)
            if (truth(cond + (size_t)i * sz, t)) memcpy(want + (size_t)i * sz, vals + (size_t)(j++ % 3) * sz, sz);
        int64_t three = 3;
        ga_array *v = ga_from_host(vals, 1, &three, t);
        CHECK_OK(ga_place(a, cd, v));
        check_array("place", a, 3, shape, t, want);
        ga_release(v);
        ga_release(cflat);
        ga_release(cd);
        ga_release(a);
    }
}

/* ------------------------------------------------------------------------ */
/* Advanced indexing                                                          */
/* ------------------------------------------------------------------------ */

/* a is (4, 5, 6, 7); the cases, with NumPy's result shapes. */
enum {
    ADV_ONE,         /* a[i0], i0 (2, 3)                         -> (2, 3, 5, 6, 7) */
    ADV_SEPARATED,   /* a[i0, 2:5, i1], i0 (3,), i1 (2, 1)       -> (2, 3, 3, 7) */
    ADV_ADJACENT,    /* a[:, i0, i1]                              -> (4, 2, 3, 7) */
    ADV_WITH_INT,    /* a[i0, 1]                                  -> (3, 6, 7) */
    ADV_INT_APART,   /* a[:, i0, :, 0]                            -> (3, 4, 6) */
    ADV_NEWAXIS,     /* a[None, ..., i0]                          -> (1, 4, 5, 6, 3) */
    ADV_MASK,        /* a[:, m], m (5, 6) bool                    -> (4, N, 7) */
    ADV_MASK_AND_INT,/* a[i2, m], i2 (1,)                         -> (N, 7) */
    ADV_REVERSED,    /* a[::-1, i0, 1:6:2, i1]: separated          -> (2, 3, 4, 3) */
    NUM_ADV
};

typedef struct adv_inputs {
    int64_t i0[3], i1[2], i2, iflat[6];
    bool m[30];
    int64_t mpos[30], nm; /* the mask's true positions */
} adv_inputs;

static int adv_items(int c, const adv_inputs *in, ga_array **arrays, ga_index_item *items, int64_t *shape, int *ndim)
{
    int64_t three = 3, two1[2] = {2, 1}, two3[2] = {2, 3}, one = 1, m56[2] = {5, 6};
    ga_array *i0 = ga_from_host(in->i0, 1, &three, GA_INT64);
    ga_array *i1 = ga_from_host(in->i1, 2, two1, GA_INT64);
    ga_array *i23 = ga_from_host(in->iflat, 2, two3, GA_INT64);
    ga_array *i2 = ga_from_host(&in->i2, 1, &one, GA_INT64);
    ga_array *m = ga_from_host(in->m, 2, m56, GA_BOOL);
    arrays[0] = i0, arrays[1] = i1, arrays[2] = i23, arrays[3] = i2, arrays[4] = m;
    ga_index_item all = ga_slice(GA_NONE, GA_NONE, GA_NONE);
    int n = 0;
#define SHAPE(...)                                                            \
    do {                                                                      \
        const int64_t s_[] = {__VA_ARGS__};                                   \
        *ndim = (int)(sizeof s_ / sizeof s_[0]);                              \
        memcpy(shape, s_, sizeof s_);                                         \
    } while (0)
    switch (c) {
    case ADV_ONE: items[n++] = ga_array_index(i23); SHAPE(2, 3, 5, 6, 7); break;
    case ADV_SEPARATED:
        items[n++] = ga_array_index(i0), items[n++] = ga_slice(2, 5, GA_NONE), items[n++] = ga_array_index(i1);
        SHAPE(2, 3, 3, 7);
        break;
    case ADV_ADJACENT: items[n++] = all, items[n++] = ga_array_index(i0), items[n++] = ga_array_index(i1); SHAPE(4, 2, 3, 7); break;
    case ADV_WITH_INT: items[n++] = ga_array_index(i0), items[n++] = ga_at(1); SHAPE(3, 6, 7); break;
    case ADV_INT_APART:
        items[n++] = all, items[n++] = ga_array_index(i0), items[n++] = all, items[n++] = ga_at(0);
        SHAPE(3, 4, 6);
        break;
    case ADV_NEWAXIS: items[n++] = ga_newaxis(), items[n++] = ga_ellipsis(), items[n++] = ga_array_index(i0); SHAPE(1, 4, 5, 6, 3); break;
    case ADV_MASK: items[n++] = all, items[n++] = ga_array_index(m); SHAPE(4, in->nm, 7); break;
    case ADV_MASK_AND_INT: items[n++] = ga_array_index(i2), items[n++] = ga_array_index(m); SHAPE(in->nm, 7); break;
    case ADV_REVERSED:
        items[n++] = ga_slice(GA_NONE, GA_NONE, -1), items[n++] = ga_array_index(i0), items[n++] = ga_slice(1, 6, 2),
        items[n++] = ga_array_index(i1);
        SHAPE(2, 3, 4, 3);
        break;
    }
#undef SHAPE
    return n;
}

/* The element of a (4, 5, 6, 7) that result element r of case c comes from. */
static int64_t adv_source(int c, const adv_inputs *in, const int64_t *r)
{
#define NORM(k, len) ((k) < 0 ? (k) + (len) : (k))
#define AT(i, j, k, l) ((((i) * 5 + (j)) * 6 + (k)) * 7 + (l))
    switch (c) {
    case ADV_ONE: return AT(NORM(in->iflat[r[0] * 3 + r[1]], 4), r[2], r[3], r[4]);
    case ADV_SEPARATED: return AT(NORM(in->i0[r[1]], 4), 2 + r[2], NORM(in->i1[r[0]], 6), r[3]);
    case ADV_ADJACENT: return AT(r[0], NORM(in->i0[r[2]], 5), NORM(in->i1[r[1]], 6), r[3]);
    case ADV_WITH_INT: return AT(NORM(in->i0[r[0]], 4), 1, r[1], r[2]);
    case ADV_INT_APART: return AT(r[1], NORM(in->i0[r[0]], 5), r[2], 0);
    case ADV_NEWAXIS: return AT(r[1], r[2], r[3], NORM(in->i0[r[4]], 7));
    case ADV_MASK: return AT(r[0], in->mpos[r[1]] / 6, in->mpos[r[1]] % 6, r[2]);
    case ADV_MASK_AND_INT: return AT(NORM(in->i2, 4), in->mpos[r[0]] / 6, in->mpos[r[0]] % 6, r[1]);
    default: /* ADV_REVERSED: a[::-1, i0, 1:6:2, i1], i0 on axis 1, i1 on axis 3 */
        return AT(3 - r[2], NORM(in->i0[r[1]], 5), 1 + 2 * r[3], NORM(in->i1[r[0]], 7));
    }
#undef AT
#undef NORM
}

static void adv_random_inputs(adv_inputs *in, int case_id)
{
    /* in-range, negative ones too; i1 indexes axis 2 (6) or 3 (7) */
    for (int k = 0; k < 3; k++) in->i0[k] = (int64_t)(rnd() % 8) - 4;       /* axis 0 (4): [-4, 4) */
    if (case_id == ADV_ADJACENT || case_id == ADV_INT_APART || case_id == ADV_REVERSED)
        for (int k = 0; k < 3; k++) in->i0[k] = (int64_t)(rnd() % 10) - 5; /* axis 1 (5) */
    if (case_id == ADV_NEWAXIS)
        for (int k = 0; k < 3; k++) in->i0[k] = (int64_t)(rnd() % 14) - 7; /* axis 3 (7) */
    for (int k = 0; k < 2; k++) in->i1[k] = (int64_t)(rnd() % 12) - 6;    /* axis 2 (6) */
    for (int k = 0; k < 6; k++) in->iflat[k] = (int64_t)(rnd() % 8) - 4;
    in->i2 = (int64_t)(rnd() % 8) - 4;
    in->nm = 0;
    for (int k = 0; k < 30; k++) {
        in->m[k] = rnd() % 2;
        if (in->m[k]) in->mpos[in->nm++] = k;
    }
}

static void check_advanced(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    const int64_t shape[4] = {4, 5, 6, 7};
    const int64_t n = 840;
    unsigned char *h = xmalloc((size_t)n * sz), *want = xmalloc((size_t)n * 8 * sz), *after = xmalloc((size_t)n * sz);
    fill_values(h, n, t);
    for (int c = 0; c < NUM_ADV; c++) {
        adv_inputs in;
        adv_random_inputs(&in, c);
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            ga_array *arrays[5];
            ga_index_item items[8];
            int64_t rshape[8];
            int rndim;
            int nitems = adv_items(c, &in, arrays, items, rshape, &rndim);
            ga_array *a = upload_as(h, 4, shape, t, layout);
            int64_t total = size_of(rndim, rshape), r[8] = {0};
            for (int64_t e = 0; e < total; e++) {
                int64_t s = adv_source(c, &in, r);
                memcpy(want + (size_t)e * sz, h + (size_t)s * sz, sz);
                for (int d = rndim - 1; d >= 0; d--) {
                    if (++r[d] < rshape[d]) break;
                    r[d] = 0;
                }
            }
            char what[160];
            snprintf(what, sizeof what, "advanced case %d %s %s", c, ga_dtype_name(t), layout_names[layout]);
            poison_next((size_t)total * sz);
            ga_array *got = ga_index_items(a, nitems, items);
            check_array(what, got, rndim, rshape, t, want);
            /* assignment through the same index: distinct positions get the
               values of `got` reversed (repeated positions: any one value) */
            if (got) {
                ga_array *rev = ga_flip(got, 0, NULL);
                ga_array *vals = ga_copy(rev);
                unsigned char *v = xmalloc((size_t)total * sz);
                if (vals && download(vals, v)) {
                    memcpy(after, h, (size_t)n * sz);
                    int64_t *writer = xmalloc((size_t)n * 8);
                    for (int64_t i = 0; i < n; i++) writer[i] = -1;
                    memset(r, 0, sizeof r);
                    for (int64_t e = 0; e < total; e++) {
                        int64_t s = adv_source(c, &in, r);
                        writer[s] = e;
                        for (int d = rndim - 1; d >= 0; d--) {
                            if (++r[d] < rshape[d]) break;
                            r[d] = 0;
                        }
                    }
                    CHECK_OK(ga_setitem_items(a, nitems, items, vals));
                    unsigned char *back = xmalloc((size_t)n * sz);
                    ga_array *ac = ga_copy(a);
                    if (ac && download(ac, back)) {
                        for (int64_t i = 0; i < n; i++) {
                            bool ok;
                            if (writer[i] < 0) {
                                ok = memcmp(back + (size_t)i * sz, h + (size_t)i * sz, sz) == 0;
                            } else { /* one of the values written there */
                                ok = false;
                                memset(r, 0, sizeof r);
                                for (int64_t e = 0; e < total && !ok; e++) {
                                    int64_t s = adv_source(c, &in, r);
                                    ok = s == i && memcmp(back + (size_t)i * sz, v + (size_t)e * sz, sz) == 0;
                                    for (int d = rndim - 1; d >= 0; d--) {
                                        if (++r[d] < rshape[d]) break;
                                        r[d] = 0;
                                    }
                                }
                            }
                            if (!ok) {
                                CHECK(false, "%s: setitem: element %lld", what, (long long)i);
                                break;
                            }
                        }
                    }
                    ga_release(ac);
                    free(back);
                    free(writer);
                }
                free(v);
                ga_release(vals);
                ga_release(rev);
            }
            ga_release(got);
            ga_release(a);
            for (int k = 0; k < 5; k++) ga_release(arrays[k]);
        }
    }
    free(h);
    free(want);
    free(after);
}

/* ------------------------------------------------------------------------ */
/* add.at and trace                                                           */
/* ------------------------------------------------------------------------ */

/* add in dtype t of small integers held as doubles: bool or, integers wrap */
static void add_into(ga_dtype t, unsigned char *p, double v)
{
    char kind = ga_dtype_kind(t);
    if (kind == 'b') {
        if (v != 0) *p = 1;
        return;
    }
    if (kind == 'i' || kind == 'u') {
        uint64_t x = 0, y = (uint64_t)(int64_t)v;
        size_t sz = ga_dtype_itemsize(t);
        memcpy(&x, p, sz);
        x += y;
        memcpy(p, &x, sz);
        return;
    }
    double cur = ref_to_double(t, p);
    unsigned char tmp[16] = {0};
    memcpy(tmp, p, ga_dtype_itemsize(t));
    if (kind == 'c') { /* the real part only: values are real */
        ga_dtype part = part_of(t);
        ref_from_double(part, cur + v, p);
        return;
    }
    ref_from_double(t, cur + v, p);
}

static void check_add_at(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    /* 1-d: 60 indices with repeats over 10 elements */
    {
        int64_t ten = 10, sixty = 60, idx[60];
        double vals[60];
        unsigned char h[10 * 16], want[10 * 16];
        for (int i = 0; i < 10; i++) ref_from_double(t, (double)(i % 3), h + (size_t)i * sz);
        memcpy(want, h, sizeof h);
        for (int k = 0; k < 60; k++) {
            idx[k] = (int64_t)(rnd() % 20) - 10;
            vals[k] = (double)((int)(rnd() % 5) - 2);
            if (ga_dtype_kind(t) == 'u' || t == GA_BOOL) vals[k] = fabs(vals[k]);
            add_into(t, want + (size_t)(idx[k] < 0 ? idx[k] + 10 : idx[k]) * sz, vals[k]);
        }
        unsigned char tv[60 * 16];
        for (int k = 0; k < 60; k++) ref_from_double(t, vals[k], tv + (size_t)k * sz);
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            ga_array *a = upload_as(h, 1, &ten, t, layout);
            ga_array *i = ga_from_host(idx, 1, &sixty, GA_INT64), *v = ga_from_host(tv, 1, &sixty, t);
            ga_index_item item = ga_array_index(i);
            CHECK_OK(ga_add_at(a, 1, &item, v));
            char what[120];
            snprintf(what, sizeof what, "add.at %s %s", ga_dtype_name(t), layout_names[layout]);
            check_array(what, a, 1, &ten, t, want);
            ga_release(a);
            ga_release(i);
            ga_release(v);
        }
    }
    /* 2-d: a[idx, 1:3] += row, the row broadcast over the repeated indices */
    {
        int64_t shape[2] = {4, 5}, nine = 9, two = 2, idx[9];
        unsigned char h[20 * 16], want[20 * 16], row[2 * 16];
        double rv[2] = {1, 2};
        fill_values(h, 20, t);
        for (int k = 0; k < 20; k++) /* finite small values, so that sums are exact */
            ref_from_double(t, (double)(k % 4), h + (size_t)k * sz);
        memcpy(want, h, sizeof h);
        for (int k = 0; k < 2; k++) ref_from_double(t, rv[k], row + (size_t)k * sz);
        for (int k = 0; k < 9; k++) {
            idx[k] = (int64_t)(rnd() % 4);
            for (int j = 0; j < 2; j++) add_into(t, want + (size_t)(idx[k] * 5 + 1 + j) * sz, rv[j]);
        }
        ga_array *a = ga_from_host(h, 2, shape, t), *i = ga_from_host(idx, 1, &nine, GA_INT64);
        ga_array *v = ga_from_host(row, 1, &two, t);
        ga_index_item items[2] = {ga_array_index(i), ga_slice(1, 3, GA_NONE)};
        CHECK_OK(ga_add_at(a, 2, items, v));
        check_array("add.at 2-d", a, 2, shape, t, want);
        ga_release(a);
        ga_release(i);
        ga_release(v);
    }
}

static void check_trace(ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    const int64_t shape[3] = {5, 3, 7};
    unsigned char h[105 * 16];
    for (int k = 0; k < 105; k++) ref_from_double(t, (double)((int)(rnd() % 9) - 4), h + (size_t)k * sz);
    if (ga_dtype_kind(t) == 'u' || t == GA_BOOL)
        for (int k = 0; k < 105; k++) ref_from_double(t, (double)(rnd() % 3), h + (size_t)k * sz);
    ga_array *a = ga_from_host(h, 3, shape, t);
    for (int64_t offset = -3; offset <= 4; offset++) {
        /* axes (0, 2): result (3,), sums over i of a[i, j, i + offset] */
        ga_array *got = ga_trace(a, offset, 0, 2, GA_DTYPE_INVALID);
        ga_dtype rd = ga_dtype_kind(t) == 'b' || ga_dtype_kind(t) == 'i' ? GA_INT64
                    : ga_dtype_kind(t) == 'u' ? GA_UINT64 : t;
        unsigned char want[3 * 16] = {0};
        for (int j = 0; j < 3; j++) {
            double re = 0, im = 0;
            for (int64_t i = 0; i < 5; i++) {
                int64_t k = i + offset;
                if (k < 0 || k >= 7) continue;
                const unsigned char *p = h + (size_t)((i * 3 + j) * 7 + k) * sz;
                re += ref_to_double(t, p);
                if (ga_dtype_kind(t) == 'c')
                    im += ref_to_double(part_of(t), p + sz / 2);
            }
            if (ga_dtype_kind(t) == 'c') {
                ga_dtype part = part_of(t);
                ref_from_double(part, re, want + (size_t)j * sz);
                ref_from_double(part, im, want + (size_t)j * sz + sz / 2);
            } else {
                ref_from_double(rd, re, want + (size_t)j * ga_dtype_itemsize(rd));
            }
        }
        int64_t three = 3;
        char what[80];
        snprintf(what, sizeof what, "trace %s offset %lld", ga_dtype_name(t), (long long)offset);
        check_array(what, got, 1, &three, rd, want);
        ga_release(got);
    }
    /* a matrix: 0-d; dtype= */
    if (ga_dtype_kind(t) == 'c') {
        ga_release(a);
        return;
    }
    ga_array *m = ga_index(a, "1");
    ga_array *got = ga_trace(m, 0, 0, 1, GA_FLOAT64);
    double want = 0;
    for (int i = 0; i < 3; i++) want += ref_to_double(t, h + (size_t)((1 * 3 + i) * 7 + i) * sz);
    check_array("trace of a matrix, dtype float64", got, 0, NULL, GA_FLOAT64, &want);
    ga_release(got);
    ga_release(m);
    ga_release(a);
}

#define DTYPE_TESTS(name, E)                                                     \
    DEVICE_TEST(mask_get_##name) { check_mask_get(E); }                          \
    DEVICE_TEST(mask_set_##name) { check_mask_set(E); }                          \
    DEVICE_TEST(nonzero_##name) { check_nonzero(E); }                            \
    DEVICE_TEST(compress_extract_place_##name) { check_compress_extract_place(E); } \
    DEVICE_TEST(advanced_##name) { check_advanced(E); }                          \
    DEVICE_TEST(add_at_##name) { check_add_at(E); }                              \
    DEVICE_TEST(trace_##name) { check_trace(E); }

DTYPE_TESTS(bool, GA_BOOL)
DTYPE_TESTS(int8, GA_INT8)
DTYPE_TESTS(int16, GA_INT16)
DTYPE_TESTS(int32, GA_INT32)
DTYPE_TESTS(int64, GA_INT64)
DTYPE_TESTS(uint8, GA_UINT8)
DTYPE_TESTS(uint16, GA_UINT16)
DTYPE_TESTS(uint32, GA_UINT32)
DTYPE_TESTS(uint64, GA_UINT64)
DTYPE_TESTS(float16, GA_FLOAT16)
DTYPE_TESTS(bfloat16, GA_BFLOAT16)
DTYPE_TESTS(float32, GA_FLOAT32)
DTYPE_TESTS(float64, GA_FLOAT64)
DTYPE_TESTS(complex64, GA_COMPLEX64)
DTYPE_TESTS(complex128, GA_COMPLEX128)

/* ------------------------------------------------------------------------ */
/* Index arrays: dtypes, broadcasting, 0-d bool                               */
/* ------------------------------------------------------------------------ */

/* Index arrays of every integer dtype (and strided ones) give the same. */
DEVICE_TEST(index_array_dtypes_and_layouts)
{
    int64_t four = 4;
    ga_array *a = ga_arange_int(0, 50, 1, GA_INT32);
    static const ga_dtype kinds[] = {GA_INT8, GA_INT16, GA_INT32, GA_UINT8, GA_UINT16, GA_UINT32, GA_UINT64};
    int64_t idx[4] = {3, 49, 0, 17};
    int32_t want[4] = {3, 49, 0, 17};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        ga_array *i64 = ga_from_host(idx, 1, &four, GA_INT64), *i = ga_astype(i64, kinds[k]);
        ga_index_item item = ga_array_index(i);
        ga_array *got = ga_index_items(a, 1, &item);
        check_array(ga_dtype_name(kinds[k]), got, 1, &four, GA_INT32, want);
        ga_release(got);
        ga_release(i);
        ga_release(i64);
    }
    /* a reversed index array */
    int64_t rev_idx[4] = {17, 0, 49, 3};
    ga_array *base = ga_from_host(rev_idx, 1, &four, GA_INT64), *r = ga_flip(base, 0, NULL);
    ga_index_item item = ga_array_index(r);
    ga_array *got = ga_index_items(a, 1, &item);
    check_array("reversed index array", got, 1, &four, GA_INT32, want);
    ga_release(got);
    ga_release(r);
    ga_release(base);
    ga_release(a);
}

/* i (3, 1) and j (4,) broadcast to (3, 4); a 0-d integer array counts as
   an index array; a 0-d bool adds an axis of 1 (True) or 0 (False). */
DEVICE_TEST(index_array_broadcasting)
{
    int64_t shape[2] = {6, 8}, s31[2] = {3, 1}, four = 4;
    ga_array *a = ga_arange_int(0, 48, 1, GA_INT64), *a2 = ga_reshape(a, 2, shape);
    int64_t iv[3] = {5, -1, 2}, jv[4] = {0, 7, -8, 3};
    ga_array *i = ga_from_host(iv, 2, s31, GA_INT64), *j = ga_from_host(jv, 1, &four, GA_INT64);
    ga_index_item items[2] = {ga_array_index(i), ga_array_index(j)};
    ga_array *got = ga_index_items(a2, 2, items);
    int64_t want[12], r34[2] = {3, 4};
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 4; y++) want[x * 4 + y] = ((iv[x] + 6) % 6) * 8 + (jv[y] + 8) % 8;
    check_array("a[i(3,1), j(4,)]", got, 2, r34, GA_INT64, want);
    ga_release(got);
    /* a 0-d index array: like an integer, but an advanced index (a[z, :, ...]) */
    int64_t zv = 4;
    ga_array *z = ga_from_host(&zv, 0, NULL, GA_INT64);
    ga_index_item zi[2] = {ga_array_index(z), ga_array_index(j)};
    got = ga_index_items(a2, 2, zi);
    int64_t want4[4];
    for (int y = 0; y < 4; y++) want4[y] = 4 * 8 + (jv[y] + 8) % 8;
    check_array("a[0-d, j]", got, 1, &four, GA_INT64, want4);
    ga_release(got);
    /* 0-d bool */
    for (int v = 0; v < 2; v++) {
        bool b = v;
        ga_array *m = ga_from_host(&b, 0, NULL, GA_BOOL);
        ga_index_item mi = ga_array_index(m);
        got = ga_index_items(a2, 1, &mi);
        int64_t s[3] = {v, 6, 8}, all[48];
        for (int k = 0; k < 48; k++) all[k] = k;
        check_array("a[0-d bool]", got, 3, s, GA_INT64, all);
        ga_release(got);
        ga_release(m);
    }
    ga_release(z);
    ga_release(i);
    ga_release(j);
    ga_release(a2);
    ga_release(a);
}

/* a large gather and scatter: 2^20 + 7 indices over 1025 rows */
DEVICE_TEST(advanced_large)
{
    int64_t rows = 1025, cols = 3, shape[2] = {1025, 3}, n = (1 << 20) + 7;
    float *h = xmalloc((size_t)(rows * cols) * 4), *want = xmalloc((size_t)(n * cols) * 4);
    int64_t *idx = xmalloc((size_t)n * 8);
    for (int64_t k = 0; k < rows * cols; k++) h[k] = (float)k;
    for (int64_t k = 0; k < n; k++) {
        idx[k] = (int64_t)(rnd() % (2 * (uint64_t)rows)) - rows;
        int64_t r = idx[k] < 0 ? idx[k] + rows : idx[k];
        for (int c = 0; c < 3; c++) want[k * 3 + c] = h[r * 3 + c];
    }
    ga_array *a = ga_from_host(h, 2, shape, GA_FLOAT32), *i = ga_from_host(idx, 1, &n, GA_INT64);
    ga_index_item item = ga_array_index(i);
    ga_array *got = ga_index_items(a, 1, &item);
    int64_t rshape[2] = {n, 3};
    check_array("a[2^20 + 7 indices]", got, 2, rshape, GA_FLOAT32, want);
    ga_release(got);
    ga_release(i);
    ga_release(a);
    free(h);
    free(want);
    free(idx);
}

/* ------------------------------------------------------------------------ */
/* Errors, nothing written                                                    */
/* ------------------------------------------------------------------------ */

DEVICE_TEST(index_errors)
{
    int64_t shape[2] = {5, 4}, two = 2, three = 3;
    float h[20];
    for (int k = 0; k < 20; k++) h[k] = (float)k;
    ga_array *a = ga_from_host(h, 2, shape, GA_FLOAT32);
    int64_t bad[2] = {1, 10}, badn[2] = {-6, 0}, badc[3] = {0, 1, 4};
    ga_array *ib = ga_from_host(bad, 1, &two, GA_INT64), *in = ga_from_host(badn, 1, &two, GA_INT64);
    ga_array *ic = ga_from_host(badc, 1, &three, GA_INT64);
    ga_index_item it = ga_array_index(ib);
    CHECK_ERROR(ga_index_items(a, 1, &it) == NULL, GA_ERROR_INDEX, "index 10 is out of bounds for axis 0 with size 5");
    it = ga_array_index(in);
    CHECK_ERROR(ga_index_items(a, 1, &it) == NULL, GA_ERROR_INDEX, "index -6 is out of bounds for axis 0 with size 5");
    ga_index_item two_items[2] = {ga_slice(GA_NONE, GA_NONE, GA_NONE), ga_array_index(ic)};
    CHECK_ERROR(ga_index_items(a, 2, two_items) == NULL, GA_ERROR_INDEX,
                "index 4 is out of bounds for axis 1 with size 4");
    /* nothing written: a bad index among good ones */
    ga_array *v = ga_zeros(GA_SHAPE(3), GA_FLOAT32);
    CHECK_ERROR(ga_setitem_items(a, 2, two_items, v) != GA_OK, GA_ERROR_INDEX,
                "index 4 is out of bounds for axis 1 with size 4");
    ga_index_item pair[2] = {ga_array_index(ib), ga_at(0)};
    CHECK_ERROR(ga_add_at(a, 2, pair, v) != GA_OK, GA_ERROR_INDEX, "index 10 is out of bounds for axis 0 with size 5");
    check_array("nothing written", a, 2, shape, GA_FLOAT32, h);
    /* index arrays that do not broadcast; values that do not fit */
    int64_t ok2[2] = {0, 1}, ok3[3] = {0, 1, 2};
    ga_array *i2 = ga_from_host(ok2, 1, &two, GA_INT64), *i3 = ga_from_host(ok3, 1, &three, GA_INT64);
    ga_index_item mismatch[2] = {ga_array_index(i2), ga_array_index(i3)};
    CHECK_ERROR(ga_index_items(a, 2, mismatch) == NULL, GA_ERROR_INDEX,
                "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
    /* NumPy's order: integers (and bool shapes) first, then the broadcast,
       then the arrays' bounds */
    ga_index_item late_int[2] = {ga_array_index(in), ga_at(7)};
    CHECK_ERROR(ga_index_items(a, 2, late_int) == NULL, GA_ERROR_INDEX, "index 7 is out of bounds for axis 1 with size 4");
    ga_index_item bad_and_mismatch[2] = {ga_array_index(ib), ga_array_index(i3)};
    CHECK_ERROR(ga_index_items(a, 2, bad_and_mismatch) == NULL, GA_ERROR_INDEX,
                "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
    ga_array *m54 = ga_ones(GA_SHAPE(5, 4), GA_BOOL);
    ga_index_item mask_and_array[2] = {ga_array_index(m54), ga_newaxis()};
    ga_index_item two_d_mismatch[2] = {ga_array_index(m54), ga_array_index(i3)};
    CHECK_ERROR(ga_index_items(a, 2, two_d_mismatch) == NULL, GA_ERROR_INDEX, "too many indices for array");
    ga_array *got_mn = ga_index_items(a, 2, mask_and_array);
    CHECK(got_mn && ga_ndim(got_mn) == 2 && ga_shape(got_mn)[0] == 20 && ga_shape(got_mn)[1] == 1,
          "a[mask(5,4), None]: (20, 1)");
    ga_release(got_mn);
    ga_release(m54);
    ga_index_item rows = ga_array_index(i2);
    CHECK_ERROR(ga_setitem_items(a, 1, &rows, v) != GA_OK, GA_ERROR_VALUE,
                "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (2,4)");
    /* float index arrays, too many indices, bool shape */
    ga_array *fi = ga_zeros(GA_SHAPE(2), GA_FLOAT64);
    it = ga_array_index(fi);
    CHECK_ERROR(ga_index_items(a, 1, &it) == NULL, GA_ERROR_INDEX,
                "arrays used as indices must be of integer (or boolean) type");
    ga_index_item many[3] = {ga_array_index(i2), ga_at(0), ga_at(0)};
    CHECK_ERROR(ga_index_items(a, 3, many) == NULL, GA_ERROR_INDEX,
                "too many indices for array: array is 2-dimensional, but 3 were indexed");
    ga_array *m4 = ga_ones(GA_SHAPE(4), GA_BOOL);
    CHECK_ERROR(ga_index_mask(a, m4) == NULL, GA_ERROR_INDEX,
                "boolean index did not match indexed array along axis 0; size of axis is 5 but size of corresponding "
                "boolean axis is 4");
    ga_array *mi = ga_ones(GA_SHAPE(5), GA_INT32);
    CHECK_ERROR(ga_index_mask(a, mi) == NULL, GA_ERROR_TYPE, "bool");
    /* a[mask] = values of the wrong count: NumPy's message, nothing written */
    ga_array *m = ga_ones(GA_SHAPE(5, 4), GA_BOOL);
    CHECK_ERROR(ga_setitem_mask(a, m, v) != GA_OK, GA_ERROR_VALUE,
                "NumPy boolean array indexing assignment cannot assign 3 input values to the 20 output values where "
                "the mask is true");
    check_array("nothing written by a[mask] = values", a, 2, shape, GA_FLOAT32, h);
    /* read-only destinations */
    ga_array *ro = ga_broadcast_to(a, 2, shape);
    CHECK_ERROR(ga_setitem_mask_scalar(ro, m, ga_float(1)) != GA_OK, GA_ERROR_VALUE, "assignment destination is read-only");
    /* add.at of float values into an int array: converted first */
    ga_array *ai = ga_zeros(GA_SHAPE(5), GA_INT32);
    ga_array *fv = ga_full(GA_SHAPE(2), ga_float(1.75), GA_FLOAT64);
    CHECK_OK(ga_add_at(ai, 1, &rows, fv));
    int32_t ai_want[5] = {1, 1, 0, 0, 0};
    check_array("add.at float64 into int32", ai, 1, (const int64_t[]){5}, GA_INT32, ai_want);
    /* compress, place, trace */
    ga_array *c2 = ga_ones(GA_SHAPE(2, 2), GA_BOOL);
    CHECK_ERROR(ga_compress(c2, a, 0) == NULL, GA_ERROR_VALUE, "condition must be a 1-d array");
    ga_array *c7 = ga_ones(GA_SHAPE(7), GA_BOOL);
    CHECK_ERROR(ga_compress(c7, a, 0) == NULL, GA_ERROR_INDEX, "index 5 is out of bounds for axis 0 with size 5");
    CHECK_ERROR(ga_compress(c7, a, 2) == NULL, GA_ERROR_AXIS, "axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(ga_place(a, c7, v) != GA_OK, GA_ERROR_VALUE, "place: mask and data must be the same size");
    ga_array *empty = ga_zeros(GA_SHAPE(0), GA_FLOAT32);
    CHECK_ERROR(ga_place(a, m, empty) != GA_OK, GA_ERROR_VALUE, "Cannot insert from an empty array!");
    check_array("nothing written by place", a, 2, shape, GA_FLOAT32, h);
    CHECK_ERROR(ga_trace(v, 0, 0, 1, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "diag requires an array of at least two dimensions");
    CHECK_ERROR(ga_trace(a, 0, 0, 0, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE, "axis1 and axis2 cannot be the same");
    /* a NULL input keeps the first error */
    it = ga_array_index(NULL);
    CHECK_ERROR(ga_index_items(a, 1, &it) == NULL, GA_ERROR_NULL_INPUT, "ga_index_items: an index array is NULL");
    CHECK_ERROR(ga_flatnonzero(ga_index_mask(a, m4)) == NULL, GA_ERROR_INDEX, "ga_index_mask: boolean index");
    ga_array *rel[] = {a, ib, in, ic, v, i2, i3, fi, m4, mi, m, ro, ai, fv, c2, c7, empty};
    for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++) ga_release(rel[k]);
}

/* Index arrays that are a itself: NumPy reads every index before writing
   (a[a] = v, np.add.at(a, a, 10)); add.at with a basic index adds in the
   promoted dtype and casts back. */
DEVICE_TEST(index_aliasing_and_basic_add_at)
{
    const int64_t n = 100003;
    int64_t *h = malloc(sizeof(int64_t) * (size_t)n), *want = malloc(sizeof(int64_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) h[i] = n - 1 - i;
    ga_array *a = ga_from_host(h, 1, &n, GA_INT64), *ten = ga_full(0, NULL, ga_int(10), GA_INT64);
    ga_index_item self = ga_array_index(a);
    CHECK_OK(ga_add_at(a, 1, &self, ten));
    for (int64_t i = 0; i < n; i++) want[i] = n - 1 - i + 10;
    check_array("np.add.at(a, a, 10) with a a permutation", a, 1, &n, GA_INT64, want);
    ga_array *b = ga_from_host(h, 1, &n, GA_INT64), *v = ga_arange_int(0, 2 * n, 2, GA_INT64);
    self = ga_array_index(b);
    CHECK_OK(ga_setitem_items(b, 1, &self, v));
    for (int64_t i = 0; i < n; i++) want[n - 1 - i] = 2 * i;
    check_array("a[a] = v with a a permutation", b, 1, &n, GA_INT64, want);
    /* np.add.at(int64 zeros(3), slice(0, 2), 1.5) gives [1, 1, 0] */
    ga_array *z = ga_zeros(GA_SHAPE(3), GA_INT64), *half = ga_full(0, NULL, ga_float(1.5), GA_FLOAT64);
    ga_index_item first_two = ga_slice(0, 2, GA_NONE);
    CHECK_OK(ga_add_at(z, 1, &first_two, half));
    int64_t z_want[3] = {1, 1, 0};
    check_array("np.add.at(int64 a, slice(0, 2), 1.5)", z, 1, (const int64_t[]){3}, GA_INT64, z_want);
    ga_array *rel[] = {a, ten, b, v, z, half};
    for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++) ga_release(rel[k]);
    free(h);
    free(want);
}

/* Empty results and empty inputs. */
DEVICE_TEST(index_empty)
{
    int64_t shape[2] = {0, 3}, zero = 0;
    ga_array *a = ga_zeros(2, shape, GA_FLOAT64), *i = ga_zeros(1, &zero, GA_INT64);
    ga_index_item it = ga_array_index(i);
    ga_array *got = ga_index_items(a, 1, &it);
    CHECK(got && ga_ndim(got) == 2 && ga_shape(got)[0] == 0 && ga_shape(got)[1] == 3, "a[empty] of (0, 3): (0, 3)");
    ga_release(got);
    ga_array *b = ga_ones(GA_SHAPE(4, 3), GA_FLOAT64);
    got = ga_index_items(b, 1, &it);
    CHECK(got && ga_ndim(got) == 2 && ga_shape(got)[0] == 0, "a[empty index] of (4, 3): (0, 3)");
    ga_release(got);
    CHECK_OK(ga_setitem_items_scalar(b, 1, &it, ga_float(5)));
    CHECK_OK(ga_add_at(b, 1, &it, a));
    ga_array *m = ga_zeros(GA_SHAPE(4, 3), GA_BOOL);
    got = ga_index_mask(b, m);
    CHECK(got && ga_ndim(got) == 1 && ga_size(got) == 0, "a[all-false mask]: (0,)");
    ga_release(got);
    ga_release(m);
    ga_release(b);
    ga_release(i);
    ga_release(a);
}

/* NumPy's edge cases of assignment and take: a value's leading unit dims
   are dropped; a full-shape mask takes 0-d and 1-d values only; empty
   results still check their indices; put into an empty array. */
DEVICE_TEST(index_assignment_edges)
{
    float h[5] = {0, 1, 2, 3, 4}, ones[2] = {7, 8};
    int64_t five = 5, lead[3] = {1, 1, 2}, two = 2;
    ga_array *a = ga_from_host(h, 1, &five, GA_FLOAT32), *v = ga_from_host(ones, 3, lead, GA_FLOAT32);
    CHECK_OK(ga_setitem(a, "1:3", v)); /* (1, 1, 2) into (2,) */
    float want_basic[5] = {0, 7, 8, 3, 4};
    check_array("a[1:3] = value of shape (1, 1, 2)", a, 1, &five, GA_FLOAT32, want_basic);
    int64_t ih[2] = {4, 0};
    ga_array *idx = ga_from_host(ih, 1, &two, GA_INT64);
    ga_index_item it = ga_array_index(idx);
    CHECK_OK(ga_setitem_items(a, 1, &it, v));
    float want_adv[5] = {8, 7, 8, 3, 7};
    check_array("a[[4, 0]] = value of shape (1, 1, 2)", a, 1, &five, GA_FLOAT32, want_adv);
    int64_t wide[3] = {2, 1, 2};
    ga_array *w = ga_zeros(3, wide, GA_FLOAT32);
    CHECK_ERROR(ga_setitem(a, "1:3", w) != GA_OK, GA_ERROR_SHAPE,
                "could not broadcast input array from shape (2,1,2) into shape (2,)");
    /* a full-shape mask: 2-d values are a TypeError, even (1, 1) */
    ga_array *m = ga_ones(GA_SHAPE(5), GA_BOOL), *v11 = ga_ones(GA_SHAPE(1, 1), GA_FLOAT32);
    CHECK_ERROR(ga_setitem_mask(a, m, v11) != GA_OK, GA_ERROR_TYPE,
                "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has 2 dimensions");
    check_array("nothing written by a[mask] = (1, 1) value", a, 1, &five, GA_FLOAT32, want_adv);
    /* a mask over the leading axis only: a value of the rows' shape broadcasts */
    ga_array *b = ga_zeros(GA_SHAPE(3, 2), GA_FLOAT32), *m3 = ga_ones(GA_SHAPE(3), GA_BOOL);
    CHECK_OK(ga_setitem_mask(b, m3, v));
    float want_rows[6] = {7, 8, 7, 8, 7, 8};
    check_array("b[mask(3,)] = value of shape (1, 1, 2)", b, 2, (const int64_t[]){3, 2}, GA_FLOAT32, want_rows);
    /* take / compress with an empty result still check their indices */
    ga_array *e = ga_zeros(GA_SHAPE(3, 0), GA_FLOAT32);
    bool ch[4] = {true, false, true, true};
    int64_t four = 4;
    ga_array *c = ga_from_host(ch, 1, &four, GA_BOOL);
    CHECK_ERROR(ga_compress(c, e, 0) == NULL, GA_ERROR_INDEX, "index 3 is out of bounds for axis 0 with size 3");
    CHECK_ERROR(ga_compress(c, e, 1) == NULL, GA_ERROR_INDEX, "cannot do a non-empty take from an empty axes.");
    ga_array *e00 = ga_zeros(GA_SHAPE(0, 0), GA_FLOAT32), *one = ga_ones(GA_SHAPE(1), GA_INT64);
    ga_array *t = ga_take(e00, one, 1, GA_INDEX_RAISE);
    CHECK(t && ga_ndim(t) == 2 && ga_shape(t)[0] == 0 && ga_shape(t)[1] == 1, "take([1], axis 1) of (0, 0): (0, 1), %s",
          t ? "no error" : ga_last_error_message());
    ga_clear_error();
    /* put into an empty array */
    ga_array *e0 = ga_zeros(GA_SHAPE(0), GA_FLOAT32);
    CHECK_ERROR(ga_put(e0, one, v11, GA_INDEX_RAISE) != GA_OK, GA_ERROR_INDEX, "cannot replace elements of an empty array");
    ga_array *rel[] = {a, v, idx, w, m, v11, b, m3, e, c, e00, one, t, e0};
    for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++) ga_release(rel[k]);
}

/* ------------------------------------------------------------------------ */
/* Host checks                                                                */
/* ------------------------------------------------------------------------ */

TEST(index_item_constructors)
{
    ga_index_item x = ga_array_index((const ga_array *)0x1234);
    CHECK(x.kind == GA_INDEX_ARRAY && ga_index_item_array(x) == (const ga_array *)0x1234, "ga_array_index");
    x = ga_array_index(NULL);
    CHECK(x.kind == GA_INDEX_ARRAY && ga_index_item_array(x) == NULL, "ga_array_index(NULL)");
    x = ga_at(3);
    CHECK(x.kind == GA_INDEX_INTEGER && x.start == 3, "ga_at");
    x = ga_slice(1, GA_NONE, -1);
    CHECK(x.kind == GA_INDEX_SLICE && x.start == 1 && x.stop == GA_NONE && x.step == -1, "ga_slice");
}

/* The select glue answers its temp-storage queries and refuses a bad item
   size. */
DEVICE_TEST(select_glue_query)
{
    size_t bytes = 0;
    int e = ga__cub_select_flagged(NULL, &bytes, NULL, NULL, NULL, NULL, 8, 1000, NULL);
    CHECK(e == 0 && bytes > 0, "ga__cub_select_flagged query: error %d, %zu bytes", e, bytes);
    bytes = 0;
    e = ga__cub_count_flags(NULL, &bytes, NULL, 1000, NULL, NULL);
    CHECK(e == 0 && bytes > 0, "ga__cub_count_flags query: error %d, %zu bytes", e, bytes);
    e = ga__cub_select_flagged(NULL, &bytes, (void *)16, NULL, NULL, NULL, 3, 1000, NULL);
    CHECK(e != 0, "item size 3 must be refused");
}

/* NumPy checks the integers and 0-d index arrays first, in the order of the
   axes (before the arrays broadcast), then each array in turn. */
DEVICE_TEST(index_error_order)
{
    ga_array *a = ga_zeros(GA_SHAPE(3, 7, 5), GA_FLOAT32);
    int64_t rows[3] = {4, 0, -4}, nine = 9, twenty3 = 23, two_three[3] = {0, 1, 2}, three = 3, two = 2;
    ga_array *r = ga_from_host(rows, 1, &three, GA_INT64), *z9 = ga_from_host(&nine, 0, NULL, GA_INT64);
    ga_array *z23 = ga_from_host(&twenty3, 0, NULL, GA_INT64);
    ga_array *i3 = ga_from_host(two_three, 1, &three, GA_INT64), *i2 = ga_from_host(two_three, 1, &two, GA_INT64);
    ga_index_item rows_then_0d[2] = {ga_array_index(r), ga_array_index(z23)};
    CHECK_ERROR(ga_index_items(a, 2, rows_then_0d) == NULL, GA_ERROR_INDEX,
                "index 23 is out of bounds for axis 1 with size 7");
    ga_index_item od_then_int[3] = {ga_newaxis(), ga_array_index(z9), ga_at(-29)};
    CHECK_ERROR(ga_index_items(a, 3, od_then_int) == NULL, GA_ERROR_INDEX, "index 9 is out of bounds for axis 0 with size 3");
    ga_index_item before_broadcast[3] = {ga_array_index(i2), ga_array_index(i3), ga_at(99)};
    CHECK_ERROR(ga_index_items(a, 3, before_broadcast) == NULL, GA_ERROR_INDEX,
                "index 99 is out of bounds for axis 2 with size 5");
    ga_release(a), ga_release(r), ga_release(z9), ga_release(z23), ga_release(i3), ga_release(i2);
    ga_clear_error();
}

/* Index arrays that broadcast to an empty shape index nothing, and NumPy
   checks no bounds then: c[[9], []] is an empty array, and so is a[mask,
   [[-2], [-3]]] with an all-False mask (a case the random differential
   found), for reading and for assignment. */
DEVICE_TEST(empty_broadcast_checks_no_bounds)
{
    ga_array *c = ga_zeros(GA_SHAPE(4, 3), GA_FLOAT32), *a = ga_zeros(GA_SHAPE(3, 1, 1, 5), GA_FLOAT64);
    int64_t nine = 9, out[2] = {-2, -3};
    ga_array *i9 = ga_from_host(&nine, 1, (const int64_t[]){1}, GA_INT64), *none = ga_zeros(GA_SHAPE(0), GA_INT64);
    ga_array *mask = ga_zeros(GA_SHAPE(3, 1), GA_BOOL), *far = ga_from_host(out, 2, (const int64_t[]){2, 1}, GA_INT64);
    ga_index_item ci[2] = {ga_array_index(i9), ga_array_index(none)}, ai[2] = {ga_array_index(mask), ga_array_index(far)};
    ga_array *r = ga_index_items(c, 2, ci), *s = ga_index_items(a, 2, ai);
    CHECK(r && ga_ndim(r) == 1 && ga_size(r) == 0, "c[[9], []]: an empty array (%s)", ga_last_error_message());
    CHECK(s && ga_ndim(s) == 3 && ga_shape(s)[0] == 2 && ga_shape(s)[1] == 0 && ga_shape(s)[2] == 5,
          "a[mask, [[-2], [-3]]]: shape (2, 0, 5) (%s)", ga_last_error_message());
    CHECK_OK(ga_setitem_items_scalar(c, 2, ci, ga_float(1)));
    CHECK_OK(ga_setitem_items_scalar(a, 2, ai, ga_float(1)));
    float back[12] = {0};
    CHECK(ga_to_host(c, back, sizeof back) == GA_OK && back[0] == 0 && back[11] == 0, "nothing assigned");
    int64_t one = 1;
    ga_array *i9b = ga_from_host(&nine, 1, &one, GA_INT64);
    ga_index_item nonempty[2] = {ga_array_index(i9b), ga_at(0)};
    CHECK_ERROR(ga_index_items(c, 2, nonempty) == NULL, GA_ERROR_INDEX, "index 9 is out of bounds for axis 0 with size 4");
    ga_release(i9b), ga_release(r), ga_release(s), ga_release(c), ga_release(a), ga_release(i9), ga_release(none);
    ga_release(mask), ga_release(far);
    ga_clear_error();
}

/* NumPy assigns one element a scalar only, but a bool element takes a
   one-element array by its truth. */
DEVICE_TEST(element_assignment_of_one_element_arrays)
{
    bool f = false, t = true, back = false;
    double d = 1.5, two = 2;
    ga_array *b = ga_from_host(&f, 0, NULL, GA_BOOL), *x = ga_from_host(&d, 0, NULL, GA_FLOAT64);
    ga_array *tv = ga_from_host(&t, 1, (const int64_t[]){1}, GA_BOOL);
    ga_array *dv = ga_from_host(&two, 2, (const int64_t[]){1, 1}, GA_FLOAT64);
    CHECK_OK(ga_setitem(b, "", tv));
    CHECK(ga_to_host(b, &back, 1) == GA_OK && back, "a[()] = array([True]) of a bool 0-d a");
    CHECK_OK(ga_setitem(b, "", dv));
    CHECK_ERROR(ga_setitem(x, "", dv) != GA_OK, GA_ERROR_VALUE, "setting an array element with a sequence.");
    ga_release(b), ga_release(x), ga_release(tv), ga_release(dv);
    ga_clear_error();
}
