/* Device tests of sorting and scans (gpuarr.h, >>sort) and of the CUB
   glue archive they run on.

   ga_sort and ga_argsort run for every dtype, on sizes 1, 31,
   33, 1023, 1025, 2^20 + 7 and 0, along axis 0, the last axis, a middle
   axis and axis None, on C-contiguous and transposed (every axis reversed
   in memory) inputs, with fresh random data full of duplicates, NaN of both
   signs, infinities and -0.0 / +0.0 (complex: in either part). The host
   reference is a stable sort in NumPy's order (qsort with the index as the
   last key; NaN last and equal, -0.0 equal to +0.0; complex numbers in
   NumPy's order with NaN): argsort must give exactly its indices (so equal
   keys keep their input order), sort values equal to its values. Rows of
   129 to 2048 elements take the one-block-per-row kernel, longer ones and
   shorter ones CUB's device-wide sorts; the cases cover both.

   lexsort, partition, argpartition and sort_complex are checked against
   the same reference (partition by NumPy's contract: the kth elements in
   place, nothing greater before, nothing smaller after).

   ga_cumsum and ga_cumprod run for every dtype on the same kinds of cases
   against a sequential long double reference (integers exactly, wrapping
   in 64 bits and then to the result's width), within a bound for the
   parallel scan; NumPy's result dtypes and dtype= are checked too, and
   ga_scan's out= (another dtype, reversed layout, in place over a's own
   buffer) and nan forms (NaN as 0 / 1, replaced before conversion).
   Whole-array sums (the scan family's one pass): every dtype, around its
   tile size and at 2^25 + 7, exactly or within a bound, through views,
   out=, 2-D axes and a captured graph.
   ga_diff and ga_ediff1d are checked exactly (integers wrap, floats round
   per step, bool uses not_equal).

   Host tests check that the glue archive is linked into this program and
   into build/libgpuarr.so. GPUARR_TEST_SEED=<seed> repeats a run. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <dlfcn.h>
#include <float.h>
#include <math.h>


/* ------------------------------------------------------------------------ */
/* Elements on the host                                                       */
/* ------------------------------------------------------------------------ */

static int compare_values(long double x, long double y)
{
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* NumPy's order: -1, 0, 1. Complex: [R + Rj, R + nanj, nan + Rj, nan +
   nanj], each group by its non-NaN parts. Bool by its bytes (so that a
   stray byte from a kernel shows). */
static int compare_elements(const void *a, const void *b, ga_dtype t)
{
    if (t == GA_BOOL) {
        unsigned char x = *(const unsigned char *)a, y = *(const unsigned char *)b;
        return (x > y) - (x < y);
    }
    elem x = load(t, a), y = load(t, b);
    if (is_complex(t)) {
        int cx = 2 * (isnan(x.re) != 0) + (isnan(x.im) != 0), cy = 2 * (isnan(y.re) != 0) + (isnan(y.im) != 0);
        if (cx != cy) return (cx > cy) - (cx < cy);
        int c = compare_values(x.re, y.re);
        return c ? c : compare_values(x.im, y.im);
    }
    return compare_values(value_of(t, x), value_of(t, y));
}

static const unsigned char *sort_data;
static ga_dtype sort_dtype;
static size_t sort_size;

static int compare_indices(const void *pa, const void *pb)
{
    int64_t i = *(const int64_t *)pa, j = *(const int64_t *)pb;
    int c = compare_elements(sort_data + (size_t)i * sort_size, sort_data + (size_t)j * sort_size, sort_dtype);
    return c ? c : (i > j) - (i < j);
}

/* Lane (o, i) of h, an (outer, len, inner) array of dtype t, copied into
   `lane`, and its stable sorting order (NumPy's) into ref. */
static void lane_order(const unsigned char *h, ga_dtype t, int64_t o, int64_t i, int64_t len, int64_t inner,
                       unsigned char *lane, int64_t *ref)
{
    size_t sz = ga_dtype_itemsize(t);
    for (int64_t j = 0; j < len; j++) {
        memcpy(lane + (size_t)j * sz, h + (size_t)((o * len + j) * inner + i) * sz, sz);
        ref[j] = j;
    }
    sort_dtype = t, sort_size = sz, sort_data = lane;
    qsort(ref, (size_t)len, sizeof *ref, compare_indices);
}

/* Random elements with duplicates, NaN of both signs, infinities, -0.0
   (complex: in either part, each part drawn as a float of its width). */
static const ref_mix SORT_MIX = {.classes = 32, .nan = 1, .neg_nan = 1, .zero = 1, .neg_zero = 1, .inf = 1,
                                 .small = 13, .small_count = 101, .small_offset = 50, .span = 1000,
                                 .wide_mask = 1, .wide_bits = 1, .int_count = 11, .int_offset = 5,
                                 .nan32 = 0x7fc00001u};

/* A complex element draws one number it does not use before its parts, as
   this test always did, so that a seed repeats its data. */
static void sort_floating(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    if (is_complex(t)) (void)rnd();
    mix_floating(t, re, im, s);
}

static const fill_spec SORT_VALUES = {.floating = sort_floating, .mix = &SORT_MIX};

/* ------------------------------------------------------------------------ */
/* A case: a logical shape, C-contiguous or transposed in memory              */
/* ------------------------------------------------------------------------ */

typedef struct sort_case {
    int ndim;
    int64_t shape[3];
    int axis; /* GA_AXIS_NONE allowed */
    bool transposed;
} sort_case;

/* Uploads `logical` (C order over c->shape), F-contiguous when c says
   transposed. NULL on failure. */
static ga_array *upload(const sort_case *c, const void *logical, ga_dtype t)
{
    if (!c->transposed || c->ndim < 2) return ga_from_host(logical, c->ndim, c->shape, t);
    return upload_transposed(logical, c->ndim, c->shape, t);
}

/* The lanes of a case: outer x len x inner over the logical C order. */
static void lanes_of(const sort_case *c, int64_t *outer, int64_t *len, int64_t *inner)
{
    int64_t n = 1;
    for (int d = 0; d < c->ndim; d++) n *= c->shape[d];
    if (c->axis == GA_AXIS_NONE) {
        *outer = 1, *len = n, *inner = 1;
        return;
    }
    int ax = c->axis < 0 ? c->axis + c->ndim : c->axis;
    *outer = 1, *inner = 1, *len = c->shape[ax];
    for (int d = 0; d < ax; d++) *outer *= c->shape[d];
    for (int d = ax + 1; d < c->ndim; d++) *inner *= c->shape[d];
}

static void describe(char *out, size_t n, const sort_case *c, ga_dtype t)
{
    int k = snprintf(out, n, "%s shape (", ga_dtype_name(t));
    for (int d = 0; d < c->ndim; d++) k += snprintf(out + k, n - (size_t)k, "%lld,", (long long)c->shape[d]);
    if (c->axis == GA_AXIS_NONE) snprintf(out + k, n - (size_t)k, ") axis None%s", c->transposed ? " transposed" : "");
    else snprintf(out + k, n - (size_t)k, ") axis %d%s", c->axis, c->transposed ? " transposed" : "");
}

static void check_sort_case(const sort_case *c, ga_dtype t)
{
    char what[160];
    describe(what, sizeof what, c, t);
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t n = outer * len * inner;
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz), *got = malloc((size_t)(n ? n : 1) * sz);
    int64_t *ref = malloc(sizeof(int64_t) * (size_t)(len ? len : 1));
    int64_t *gidx = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    unsigned char *lane = malloc((size_t)(len ? len : 1) * sz);
    fill_random(h, n, t, &SORT_VALUES);
    ga_array *a = upload(c, h, t);
    CHECK(a != NULL, "%s: upload: %s", what, ga_last_error_message());
    ga_array *s = ga_sort(a, c->axis), *as = ga_argsort(a, c->axis);
    CHECK(s && as, "%s: %s", what, ga_last_error_message());
    if (s && as) {
        int want_ndim = c->axis == GA_AXIS_NONE ? 1 : c->ndim;
        CHECK(ga_ndim(s) == want_ndim && ga_size(s) == n && ga_dtype_of(s) == t, "%s: sort's shape or dtype", what);
        CHECK(ga_ndim(as) == want_ndim && ga_size(as) == n && ga_dtype_of(as) == GA_INT64,
              "%s: argsort's shape or dtype", what);
        memset(got, 0xA5, (size_t)(n ? n : 1) * sz);
        memset(gidx, 0xA5, sizeof(int64_t) * (size_t)(n ? n : 1));
        CHECK_OK(ga_to_host(s, got, (size_t)n * sz));
        CHECK_OK(ga_to_host(as, gidx, sizeof(int64_t) * (size_t)n));
        int bad_idx = 0, bad_val = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                lane_order(h, t, o, i, len, inner, lane, ref);
                for (int64_t j = 0; j < len; j++) {
                    int64_t at = (o * len + j) * inner + i;
                    if (gidx[at] != ref[j] && bad_idx++ < 3)
                        CHECK(0, "%s: argsort lane (%lld,%lld) [%lld] = %lld, want %lld", what, (long long)o,
                              (long long)i, (long long)j, (long long)gidx[at], (long long)ref[j]);
                    if (compare_elements(got + (size_t)at * sz, lane + (size_t)ref[j] * sz, t) != 0 &&
                        bad_val++ < 3)
                        CHECK(0, "%s: sort lane (%lld,%lld) [%lld] differs from the reference", what, (long long)o,
                              (long long)i, (long long)j);
                }
            }
        CHECK(bad_idx == 0 && bad_val == 0, "%s: %d wrong indices, %d wrong values", what, bad_idx, bad_val);
    }
    ga_release(a);
    ga_release(s);
    ga_release(as);
    free(h);
    free(got);
    free(ref);
    free(gidx);
    free(lane);
}


static const sort_case sort_cases[] = {
    {1, {1}, -1, false},          {1, {31}, 0, false},           {1, {33}, -1, false},
    {1, {1023}, 0, false},        {1, {1025}, GA_AXIS_NONE, false}, {1, {(1 << 20) + 7}, -1, false},
    {1, {0}, -1, false},          {2, {33, 65}, 1, false},       {2, {33, 65}, 0, false},
    {2, {33, 65}, GA_AXIS_NONE, true}, {2, {40, 31}, -1, true}, {3, {3, 1025, 5}, 1, false},
    {3, {4, 7, 300}, -1, true},   {2, {0, 5}, 1, false},         {2, {513, 2}, 0, true},
    {2, {300, 700}, -1, false},   {2, {5, 2048}, -1, false},     {2, {3, 2049}, 1, false},
    {2, {129, 3}, 0, false},      {2, {7, 128}, -1, false},
};

static void sort_cases_for(ga_dtype t)
{
    for (size_t i = 0; i < sizeof sort_cases / sizeof sort_cases[0]; i++) {
        if (!test_sample((int64_t)i, 3)) continue;
        sort_case c = sort_cases[i];
        c.shape[0] = test_length(c.shape[0]);
        check_sort_case(&c, t);
    }
}

#define SORT_TEST(name, dtype)      \
    DEVICE_TEST(sort_##name)        \
    {                               \
        sort_cases_for(dtype);      \
    }
SORT_TEST(bool, GA_BOOL)
SORT_TEST(int8, GA_INT8)
SORT_TEST(int16, GA_INT16)
SORT_TEST(int32, GA_INT32)
SORT_TEST(int64, GA_INT64)
SORT_TEST(uint8, GA_UINT8)
SORT_TEST(uint16, GA_UINT16)
SORT_TEST(uint32, GA_UINT32)
SORT_TEST(uint64, GA_UINT64)
SORT_TEST(float16, GA_FLOAT16)
SORT_TEST(bfloat16, GA_BFLOAT16)
SORT_TEST(float32, GA_FLOAT32)
SORT_TEST(float64, GA_FLOAT64)
SORT_TEST(complex64, GA_COMPLEX64)
SORT_TEST(complex128, GA_COMPLEX128)

/* One sort of a whole lane longer than a block sort takes (the keys as
   stored) from views that are not contiguous, a (1, n) array along its
   last axis, and lanes whose NaN all have the sign bit set. */
static void check_lane_sorted(const char *what, ga_array *got_arr, const unsigned char *logical, int64_t n,
                              ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *lane = malloc((size_t)n * sz), *got = malloc((size_t)n * sz);
    int64_t *ref = malloc(sizeof(int64_t) * (size_t)n);
    lane_order(logical, t, 0, 0, n, 1, lane, ref);
    CHECK(got_arr && ga_size(got_arr) == n, "%s %s: %s", ga_dtype_name(t), what, ga_last_error_message());
    if (got_arr && ga_size(got_arr) == n) {
        CHECK_OK(ga_to_host(got_arr, got, (size_t)n * sz));
        int bad = 0;
        for (int64_t j = 0; j < n; j++) bad += compare_elements(got + (size_t)j * sz, lane + (size_t)ref[j] * sz, t) != 0;
        CHECK(bad == 0, "%s %s: %d elements out of place", ga_dtype_name(t), what, bad);
    }
    free(lane);
    free(got);
    free(ref);
}

DEVICE_TEST(sort_whole_lane_layouts)
{
    const ga_dtype types[] = {GA_BOOL, GA_INT8, GA_UINT16, GA_INT32, GA_UINT64, GA_INT64,
                              GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64};
    const int64_t n = 5001;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        ga_dtype t = types[k];
        size_t sz = ga_dtype_itemsize(t);
        unsigned char *h = malloc(2 * (size_t)n * sz), *logical = malloc((size_t)n * sz);
        fill_random(h, 2 * n, t, &SORT_VALUES);
        ga_array *a = ga_from_host(h, GA_SHAPE(2 * n), t);
        CHECK(a != NULL, "upload: %s", ga_last_error_message());
        /* every other element */
        ga_array *v = ga_as_strided(a, 1, &n, (int64_t[]){2 * (int64_t)sz}, 0);
        for (int64_t j = 0; j < n; j++) memcpy(logical + (size_t)j * sz, h + (size_t)(2 * j) * sz, sz);
        ga_array *s = ga_sort(v, 0);
        check_lane_sorted("a[::2]", s, logical, n, t);
        ga_release(s);
        ga_release(v);
        /* reversed */
        ga_array *f = ga_flip(a, 0, NULL);
        unsigned char *rev = malloc(2 * (size_t)n * sz);
        for (int64_t j = 0; j < 2 * n; j++) memcpy(rev + (size_t)j * sz, h + (size_t)(2 * n - 1 - j) * sz, sz);
        s = ga_sort(f, -1);
        check_lane_sorted("a[::-1]", s, rev, 2 * n, t);
        ga_release(s);
        ga_release(f);
        /* (1, 2n) along axis 1 */
        ga_array *r = ga_reshape(a, 2, (int64_t[]){1, 2 * n});
        s = ga_sort(r, 1);
        CHECK(s && ga_ndim(s) == 2, "%s (1, n): %s", ga_dtype_name(t), ga_last_error_message());
        check_lane_sorted("(1, n) axis 1", s, h, 2 * n, t);
        ga_release(s);
        ga_release(r);
        free(rev);
        ga_release(a);
        free(h);
        free(logical);
    }
    /* NaN of negative sign only, and nothing but them: after every number */
    const int64_t m = 3001;
    float *x = malloc(sizeof(float) * (size_t)m);
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t j = 0; j < m; j++) x[j] = pass == 1 || j % 3 == 0 ? -NAN : (float)(j % 7) - 3.0f;
        ga_array *a = ga_from_host(x, GA_SHAPE(m), GA_FLOAT32);
        ga_array *s = ga_sort(a, 0);
        check_lane_sorted(pass ? "all -NaN" : "-NaN and numbers", s, (const unsigned char *)x, m, GA_FLOAT32);
        ga_release(s);
        ga_release(a);
    }
    free(x);
}

/* Equal keys keep their input order: many runs of equal values, zeros of
   both signs and NaN of both signs, checked index by index. */
DEVICE_TEST(argsort_stability)
{
    int64_t n = 100003;
    float *h = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int c = (int)(rnd() % 5);
        h[i] = c == 0 ? 0.0f : c == 1 ? -0.0f : c == 2 ? (float)(rnd() % 3) : c == 3 ? NAN : -NAN;
    }
    ga_array *a = ga_from_host(h, GA_SHAPE(n), GA_FLOAT32);
    ga_array *as = ga_argsort(a, 0);
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)n);
    CHECK_OK(ga_to_host(as, idx, sizeof(int64_t) * (size_t)n));
    int bad = 0;
    for (int64_t k = 1; k < n; k++) {
        float x = h[idx[k - 1]], y = h[idx[k]];
        bool equal = (isnan(x) && isnan(y)) || x == y;
        bool ordered = isnan(y) ? true : isnan(x) ? false : x <= y;
        if (!ordered || (equal && idx[k - 1] >= idx[k])) bad++;
    }
    CHECK(bad == 0, "%d adjacent pairs out of order or unstable", bad);
    /* sort keeps every zero's sign and all the NaN */
    ga_array *s = ga_sort(a, 0);
    float *got = malloc(sizeof(float) * (size_t)n);
    CHECK_OK(ga_to_host(s, got, sizeof(float) * (size_t)n));
    int64_t negz = 0, negz_got = 0, nan = 0, nan_got = 0;
    for (int64_t i = 0; i < n; i++) {
        negz += h[i] == 0 && signbit(h[i]);
        negz_got += got[i] == 0 && signbit(got[i]);
        nan += isnan(h[i]) != 0;
        nan_got += isnan(got[i]) != 0;
    }
    CHECK(negz == negz_got && nan == nan_got, "-0.0: %lld, got %lld; NaN: %lld, got %lld", (long long)negz,
          (long long)negz_got, (long long)nan, (long long)nan_got);
    for (int64_t i = n - nan; i < n; i++)
        if (!isnan(got[i])) {
            CHECK(0, "NaN is not last");
            break;
        }
    ga_release(a);
    ga_release(as);
    ga_release(s);
    free(h);
    free(idx);
    free(got);
}

/* ------------------------------------------------------------------------ */
/* Scans                                                                      */
/* ------------------------------------------------------------------------ */

static ga_dtype default_scan_dtype(ga_dtype t)
{
    char k = ga_dtype_kind(t);
    return k == 'b' || k == 'i' ? GA_INT64 : k == 'u' ? GA_UINT64 : t;
}

static double eps_of(ga_dtype t)
{
    switch (t) {
    case GA_FLOAT16: return 9.77e-4;
    case GA_BFLOAT16: return 7.82e-3;
    case GA_FLOAT32: case GA_COMPLEX64: return FLT_EPSILON;
    default: return DBL_EPSILON;
    }
}

/* Random scan input: integers small (products overflow and wrap), floats
   in [-1, 1] for sums and near +-1 for products; with nan, about one
   element in eight of a floating or complex dtype has a NaN (part). */
static void fill_scan(void *data, int64_t n, ga_dtype t, bool prod, bool nan)
{
    size_t sz = ga_dtype_itemsize(t);
    for (int64_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)data + (size_t)i * sz;
        double x = prod ? (1.0 + (rnd_unit() - 0.5) * 0.01) * ((rnd() & 7) ? 1 : -1) : rnd_unit() * 2 - 1;
        double y = prod ? (rnd_unit() - 0.5) * 0.01 : rnd_unit() * 2 - 1;
        int64_t v = (int64_t)(rnd() % 7) - 3;
        switch (t) {
        case GA_BOOL: *p = (unsigned char)(rnd() & 1); break;
        case GA_FLOAT16: *(uint16_t *)p = ref_f16_from_double(x); break;
        case GA_BFLOAT16: *(uint16_t *)p = ref_bf16_from_double(x); break;
        case GA_FLOAT32: *(float *)p = (float)x; break;
        case GA_FLOAT64: *(double *)p = x; break;
        case GA_COMPLEX64: ((float *)p)[0] = (float)x, ((float *)p)[1] = (float)y; break;
        case GA_COMPLEX128: ((double *)p)[0] = x, ((double *)p)[1] = y; break;
        default: memcpy(p, &v, sz); break;
        }
        if (nan && (rnd() & 7) == 0) {
            switch (t) {
            case GA_FLOAT16: *(uint16_t *)p = 0x7e00u; break;
            case GA_BFLOAT16: *(uint16_t *)p = 0x7fc0u; break;
            case GA_FLOAT32: *(float *)p = NAN; break;
            case GA_FLOAT64: *(double *)p = NAN; break;
            case GA_COMPLEX64: ((float *)p)[rnd() & 1] = NAN; break;
            case GA_COMPLEX128: ((double *)p)[rnd() & 1] = NAN; break;
            default: break;
            }
        }
    }
}

/* Element k of `data` of dtype t as (re, im) long double, integers as
   their 64-bit two's complement too (re: its signed value). */
static void scan_load(const void *data, int64_t k, ga_dtype t, long double *re, long double *im, uint64_t *bits)
{
    elem e = load(t, (const unsigned char *)data + (size_t)k * isz(t));
    *re = e.re, *im = e.im;
    if (is_exact(t)) {
        *re = (long double)(int64_t)e.i;
        *bits = e.i;
    }
}

/* Where a scan writes: a new array, a given one (C-contiguous or reversed
   along every axis), or a itself (in place: out= a, or a reversed view of
   a's own buffer). */
typedef enum scan_out { OUT_NEW, OUT_GIVEN, OUT_GIVEN_REVERSED, OUT_IN_PLACE, OUT_IN_PLACE_REVERSED } scan_out;

/* ga_scan(op) of a case against the reference; out_dtype is the given
   out's dtype (OUT_GIVEN*; GA_DTYPE_INVALID: rd). */
static void check_scan_full(const sort_case *c, ga_dtype t, ga_scan_op op, ga_dtype dtype, scan_out where,
                            ga_dtype out_dtype)
{
    static const char *names[] = {"cumsum", "cumprod", "nancumsum", "nancumprod"};
    static const char *wheres[] = {"", " out=", " out=reversed ", " out=a", " out=a reversed"};
    bool prod = op == GA_SCAN_CUMPROD || op == GA_SCAN_NANCUMPROD;
    bool nan = op == GA_SCAN_NANCUMSUM || op == GA_SCAN_NANCUMPROD;
    char what[240];
    describe(what, sizeof what, c, t);
    ga_dtype rd = dtype == GA_DTYPE_INVALID ? default_scan_dtype(t) : dtype;
    if ((where == OUT_GIVEN || where == OUT_GIVEN_REVERSED) && out_dtype != GA_DTYPE_INVALID && dtype == GA_DTYPE_INVALID)
        rd = out_dtype; /* NumPy's accumulate: the dtype of out */
    if (where == OUT_IN_PLACE || where == OUT_IN_PLACE_REVERSED) rd = dtype == GA_DTYPE_INVALID ? t : dtype;
    ga_dtype od = where == OUT_NEW ? rd : where >= OUT_IN_PLACE ? t : out_dtype == GA_DTYPE_INVALID ? rd : out_dtype;
    snprintf(what + strlen(what), sizeof what - strlen(what), " %s dtype %s%s%s", names[op],
             dtype == GA_DTYPE_INVALID ? "default" : ga_dtype_name(dtype), wheres[where],
             where == OUT_NEW ? "" : ga_dtype_name(od));
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t n = outer * len * inner;
    size_t sz = ga_dtype_itemsize(t), rsz = ga_dtype_itemsize(od);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz), *got = malloc((size_t)(n ? n : 1) * rsz);
    fill_scan(h, n, t, prod, nan);
    ga_array *a = upload(c, h, t), *r = NULL, *given = NULL;
    ga_status st;
    if (where == OUT_NEW) {
        st = ga_scan(op, a, c->axis, dtype, &r);
    } else {
        int rnd_ndim = c->axis == GA_AXIS_NONE ? 1 : c->ndim;
        int64_t rshape[3] = {n, 0, 0};
        if (c->axis != GA_AXIS_NONE) memcpy(rshape, c->shape, sizeof rshape);
        if (where == OUT_GIVEN) given = ga_full(rnd_ndim, rshape, ga_int(7), od);
        else if (where == OUT_GIVEN_REVERSED) {
            ga_array *base = ga_full(rnd_ndim, rshape, ga_int(7), od);
            given = ga_flip(base, 0, NULL);
            ga_release(base);
        } else if (c->axis == GA_AXIS_NONE) {
            given = ga_reshape(a, 1, &n); /* a view of a's buffer when a is C-contiguous */
        } else given = where == OUT_IN_PLACE ? ga_retain(a) : ga_flip(a, 0, NULL);
        if (where == OUT_IN_PLACE_REVERSED && c->axis == GA_AXIS_NONE) {
            ga_array *f = ga_flip(given, 0, NULL);
            ga_release(given);
            given = f;
        }
        r = given;
        st = ga_scan(op, a, c->axis, dtype, &r);
        CHECK(st != GA_OK || r == given, "%s: *out replaced", what);
        r = given ? ga_retain(given) : NULL;
    }
    CHECK(st == GA_OK && r != NULL, "%s: %s", what, ga_last_error_message());
    if (st == GA_OK && r) {
        CHECK(ga_dtype_of(r) == od && ga_size(r) == n, "%s: dtype %s, want %s", what, ga_dtype_name(ga_dtype_of(r)),
              ga_dtype_name(od));
        memset(got, 0xA5, (size_t)(n ? n : 1) * rsz);
        CHECK_OK(ga_to_host(r, got, (size_t)n * rsz));
        char rk = ga_dtype_kind(od);
        double eps_acc = rd == GA_FLOAT16 || rd == GA_BFLOAT16 ? FLT_EPSILON : eps_of(rd);
        if (ga_dtype_kind(rd) == 'f' && ga_dtype_kind(od) == 'c') eps_acc = eps_of(rd);
        int bad = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                long double sre = prod, sim = 0, mag = 0;
                uint64_t ibits = prod;
                for (int64_t j = 0; j < len; j++) {
                    int64_t at = (o * len + j) * inner + i; /* out is read back in logical order */
                    long double xr, xi;
                    uint64_t xb = 0;
                    scan_load(h, at, t, &xr, &xi, &xb);
                    if (nan && (isnan(xr) || isnan(xi))) xr = prod, xi = 0;
                    if (ga_dtype_kind(rd) != 'c') xi = 0; /* complex to real drops the imaginary part */
                    if (rd != t && (rd == GA_FLOAT16 || rd == GA_BFLOAT16 || rd == GA_FLOAT32)) {
                        /* converted to dtype= before the scan, as NumPy */
                        xr = rd == GA_FLOAT16    ? ref_f16_to_double(ref_f16_from_double((double)xr))
                             : rd == GA_BFLOAT16 ? ref_bf16_to_double(ref_bf16_from_double((double)xr))
                                                 : (float)xr;
                    }
                    if (prod) {
                        long double nr = sre * xr - sim * xi, ni = sre * xi + sim * xr;
                        sre = nr, sim = ni;
                        ibits *= xb;
                    } else {
                        sre += xr, sim += xi;
                        ibits += xb;
                        mag += fabsl(xr) + fabsl(xi);
                    }
                    bool ok;
                    if (rk == 'i' || rk == 'u' || rk == 'b') {
                        /* wrapped to rd (the scan's dtype), then cast to od */
                        uint64_t want = ibits, g = 0;
                        size_t rdsz = ga_dtype_itemsize(rd);
                        if (ga_dtype_kind(rd) == 'b') want = want != 0;
                        else if (rdsz < 8) {
                            uint64_t mask = (1ull << (8 * rdsz)) - 1;
                            want &= mask;
                            if (ga_dtype_kind(rd) == 'i' && (want >> (8 * rdsz - 1))) want |= ~mask;
                        }
                        memcpy(&g, got + (size_t)at * rsz, rsz);
                        if (rsz < 8) want &= (1ull << (8 * rsz)) - 1;
                        if (rk == 'b') want = want != 0;
                        ok = g == want;
                    } else {
                        long double gr, gi;
                        uint64_t unused;
                        scan_load(got, at, od, &gr, &gi, &unused);
                        long double scale = prod ? (fabsl(sre) + fabsl(sim)) * (long double)(2 * (j + 1)) : 16 * mag;
                        long double tol = scale * eps_acc + (fabsl(sre) + fabsl(sim)) * (eps_of(rd) + eps_of(od));
                        ok = fabsl(gr - sre) <= tol && (ga_dtype_kind(od) != 'c' || fabsl(gi - sim) <= tol);
                    }
                    if (!ok && bad++ < 3)
                        CHECK(0, "%s: lane (%lld,%lld) [%lld] differs from the reference", what, (long long)o,
                              (long long)i, (long long)j);
                }
            }
        CHECK(bad == 0, "%s: %d wrong elements", what, bad);
    }
    ga_release(a);
    ga_release(r);
    ga_release(given);
    free(h);
    free(got);
}

static void check_scan_case(const sort_case *c, ga_dtype t, bool prod, ga_dtype dtype)
{
    check_scan_full(c, t, prod ? GA_SCAN_CUMPROD : GA_SCAN_CUMSUM, dtype, OUT_NEW, GA_DTYPE_INVALID);
}

static const sort_case scan_cases[] = {
    {1, {1}, 0, false},         {1, {31}, -1, false},        {1, {1025}, 0, false},
    {1, {(1 << 20) + 7}, 0, false}, {1, {0}, 0, false},      {2, {33, 65}, 1, false},
    {2, {33, 65}, 0, false},    {2, {33, 65}, GA_AXIS_NONE, true}, {3, {3, 257, 5}, 1, true},
    {3, {4, 7, 300}, -1, true},
};

static void scan_cases_for(ga_dtype t)
{
    for (size_t i = 0; i < sizeof scan_cases / sizeof scan_cases[0]; i++) {
        sort_case c = scan_cases[i];
        c.shape[0] = test_length(c.shape[0]);
        check_scan_case(&c, t, false, GA_DTYPE_INVALID);
        if (c.shape[0] <= 1025) check_scan_case(&c, t, true, GA_DTYPE_INVALID);
    }
}

#define SCAN_TEST(name, dtype)     \
    DEVICE_TEST(cumsum_##name)     \
    {                              \
        scan_cases_for(dtype);     \
    }
SCAN_TEST(bool, GA_BOOL)
SCAN_TEST(int8, GA_INT8)
SCAN_TEST(int16, GA_INT16)
SCAN_TEST(int32, GA_INT32)
SCAN_TEST(int64, GA_INT64)
SCAN_TEST(uint8, GA_UINT8)
SCAN_TEST(uint16, GA_UINT16)
SCAN_TEST(uint32, GA_UINT32)
SCAN_TEST(uint64, GA_UINT64)
SCAN_TEST(float16, GA_FLOAT16)
SCAN_TEST(bfloat16, GA_BFLOAT16)
SCAN_TEST(float32, GA_FLOAT32)
SCAN_TEST(float64, GA_FLOAT64)
SCAN_TEST(complex64, GA_COMPLEX64)
SCAN_TEST(complex128, GA_COMPLEX128)

/* The one-pass sum (kernels/scan.cu, tiles of 12288 elements for float32
   sums of float32 and 6144 for the others): lengths at and around the
   tiles' edges, and 2^25 + 7 (2731 or 5462 tiles: long look-back
   chains), of every dtype it reads; then views that are not 16-byte
   aligned (its element-by-element path), exactly. */
DEVICE_TEST(cumsum_one_pass_tiles)
{
    static const int64_t lengths[] = {6143,      6144,      6145,          12287,         12288,
                                      12289,     3 * 6144 + 5, 3 * 12288 + 5, 65 * 6144 - 1, ((int64_t)1 << 25) + 7};
    static const ga_dtype dtypes[] = {GA_FLOAT32, GA_FLOAT64, GA_INT64, GA_UINT64, GA_INT32, GA_UINT16,
                                      GA_INT8,    GA_BOOL,    GA_FLOAT16, GA_BFLOAT16};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
            if (lengths[i] > 1000000 && d > 2 && d != 4) continue; /* the long case: float32, float64, int64, int32 */
            const sort_case c = {1, {test_length(lengths[i])}, 0, false};
            check_scan_case(&c, dtypes[d], false, GA_DTYPE_INVALID);
        }
    /* a[1:] and a[3:] of 3 x 6144 + 9 int32 (4-byte and 12-byte offsets) against the host's int64 sums */
    const int64_t n = 3 * 6144 + 9;
    int32_t *h = malloc((size_t)n * sizeof *h);
    int64_t *got = malloc((size_t)n * sizeof *got);
    CHECK(h && got, "host memory");
    if (!h || !got) {
        free(h), free(got);
        return;
    }
    for (int64_t i = 0; i < n; i++) h[i] = (int32_t)(rnd() % 2000001) - 1000000;
    ga_array *a = ga_from_host(h, 1, &n, GA_INT32);
    for (int off = 1; off <= 3; off += 2) {
        char index[16];
        snprintf(index, sizeof index, "%d:", off);
        ga_array *v = ga_index(a, index), *r = v ? ga_cumsum(v, 0, GA_DTYPE_INVALID) : NULL;
        bool ok = r && ga_dtype_of(r) == GA_INT64 && ga_size(r) == n - off &&
                  ga_to_host(r, got, (size_t)(n - off) * sizeof *got) == GA_OK;
        CHECK(ok, "cumsum(a[%d:]): %s", off, ga_last_error_message());
        int64_t sum = 0, bad = -1;
        for (int64_t i = 0; ok && i < n - off && bad < 0; i++) {
            sum += h[off + i];
            if (got[i] != sum) bad = i;
        }
        CHECK(bad < 0, "cumsum(a[%d:])[%lld] = %lld, expected a running sum", off, (long long)bad,
              bad < 0 ? 0LL : (long long)got[bad]);
        ga_release(r), ga_release(v);
    }
    ga_release(a);
    free(h), free(got);
    ga_clear_error();
}

/* dtype=: narrower integers wrap, floats convert first. */
DEVICE_TEST(cumsum_dtype_argument)
{
    const sort_case flat = {1, {1025}, 0, false}, rows = {2, {33, 65}, 1, true};
    check_scan_case(&flat, GA_INT64, false, GA_INT8);
    check_scan_case(&flat, GA_INT16, true, GA_UINT8);
    check_scan_case(&rows, GA_INT32, false, GA_FLOAT64);
    check_scan_case(&rows, GA_FLOAT64, false, GA_FLOAT32);
    check_scan_case(&flat, GA_FLOAT32, false, GA_COMPLEX128);
    check_scan_case(&flat, GA_BOOL, false, GA_INT32);
}

/* Whole-array sums (the scan family's one pass for float32, float64 and
   the integers and bool widened as loaded; CUB's scan for int64 and
   uint64). Integers are checked exactly against a wrapping 64-bit running
   sum; floats exactly on small integers (every partial sum any
   association forms is exact: at most 64 times the walk's range, checked
   below 2^24) and within a bound for any summation tree of the scans'
   depth on real data. */
enum { OWN_TILE = 6144, OWN_TILE32 = 12288 }; /* the one pass's tiles: most sums, float32's */

static int64_t own_int(ga_dtype t, const void *h, int64_t i)
{
    switch (t) {
    case GA_BOOL: return ((const unsigned char *)h)[i] != 0;
    case GA_INT8: return ((const int8_t *)h)[i];
    case GA_INT16: return ((const int16_t *)h)[i];
    case GA_INT32: return ((const int32_t *)h)[i];
    case GA_UINT8: return ((const uint8_t *)h)[i];
    case GA_UINT16: return ((const uint16_t *)h)[i];
    case GA_UINT32: return ((const uint32_t *)h)[i];
    default: return ((const int64_t *)h)[i]; /* int64, uint64: the bits */
    }
}

/* n random items of t: integers over their whole range, floats small
   integers in [-2, 2] (mode 0), uniform in [0, 1) (1) or in [-1, 1) (2). */
static void own_fill(ga_dtype t, void *h, int64_t n, int mode)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        double x = mode == 0 ? (double)(int)(r % 5) - 2 : mode == 1 ? rnd_unit() : 2 * rnd_unit() - 1;
        switch (t) {
        case GA_BOOL: ((unsigned char *)h)[i] = (unsigned char)(r & 1); break;
        case GA_INT8: case GA_UINT8: ((uint8_t *)h)[i] = (uint8_t)r; break;
        case GA_INT16: case GA_UINT16: ((uint16_t *)h)[i] = (uint16_t)r; break;
        case GA_INT32: case GA_UINT32: ((uint32_t *)h)[i] = (uint32_t)r; break;
        case GA_FLOAT32: ((float *)h)[i] = (float)x; break;
        case GA_FLOAT64: ((double *)h)[i] = x; break;
        default: ((uint64_t *)h)[i] = r; break;
        }
    }
}

/* cumsum of x (on the device, any layout) against the n host items h of t
   (x's elements in order). */
static void own_check(const char *what, const ga_array *r, ga_dtype t, const void *h, int64_t n, int mode)
{
    ga_dtype rt = t == GA_FLOAT32 || t == GA_FLOAT64 ? t
                : t == GA_UINT8 || t == GA_UINT16 || t == GA_UINT32 || t == GA_UINT64 ? GA_UINT64 : GA_INT64;
    CHECK(r && ga_dtype_of(r) == rt && ga_size(r) == n, "%s: %s", what, r ? "dtype or size" : ga_last_error_message());
    if (!r || ga_dtype_of(r) != rt || ga_size(r) != n) return;
    size_t isz = t == GA_FLOAT32 ? 4 : 8;
    void *got = malloc((size_t)(n ? n : 1) * isz);
    CHECK(got && ga_to_host(r, got, (size_t)n * isz) == GA_OK, "%s: to host", what);
    bool real = t == GA_FLOAT32 || t == GA_FLOAT64;
    long double sum = 0, mass = 0, lo = 0, hi = 0;
    uint64_t isum = 0;
    int64_t bad = 0, first = -1;
    double eps = t == GA_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
    for (int64_t i = 0; i < n; i++) {
        bool ok;
        if (real) {
            long double x = t == GA_FLOAT32 ? ((const float *)h)[i] : ((const double *)h)[i];
            sum += x, mass += fabsl(x);
            lo = sum < lo ? sum : lo, hi = sum > hi ? sum : hi;
            long double g = t == GA_FLOAT32 ? ((const float *)got)[i] : ((const double *)got)[i];
            /* any summation tree of depth d errs by at most d * (eps / 2) *
               mass, to first order; the kernel's: at most 29 adds into a
               tile's aggregate, one a tile before (the prefixes' left
               fold; 7 allowed), 40 within the tile of i (eps, not eps / 2:
               room for the second order) */
            long double tol = mode == 0 ? 0 : (7.0L * (long double)(i / OWN_TILE + 1) + 80) * eps * mass;
            ok = fabsl(g - sum) <= tol;
        } else {
            isum += (uint64_t)own_int(t, h, i);
            ok = ((const uint64_t *)got)[i] == isum;
        }
        if (!ok && bad++ == 0) first = i;
    }
    if (real && mode == 0) CHECK(64 * (hi - lo) < (t == GA_FLOAT32 ? 16777216.0L : 9007199254740992.0L),
                                 "%s: the walk's range %Lg is too wide for exact sums", what, hi - lo);
    CHECK(bad == 0, "%s: %lld wrong, the first at %lld", what, (long long)bad, (long long)first);
    free(got);
}

static void own_case(ga_dtype t, int64_t n, int mode)
{
    size_t isz = t == GA_BOOL || t == GA_INT8 || t == GA_UINT8 ? 1 : t == GA_INT16 || t == GA_UINT16 ? 2
               : t == GA_INT32 || t == GA_UINT32 || t == GA_FLOAT32 ? 4 : 8;
    void *h = malloc((size_t)(n ? n : 1) * isz);
    own_fill(t, h, n, mode);
    char what[96];
    snprintf(what, sizeof what, "cumsum of %lld %s (mode %d)", (long long)n, ga_dtype_name(t), mode);
    ga_array *a = ga_from_host(h, 1, &n, t);
    CHECK(a != NULL, "%s: %s", what, ga_last_error_message());
    ga_array *r = a ? ga_cumsum(a, 0, GA_DTYPE_INVALID) : NULL;
    own_check(what, r, t, h, n, mode);
    ga_release(r);
    ga_release(a);
    ga_clear_error();
    free(h);
}

DEVICE_TEST(cumsum_single_pass)
{
    static const ga_dtype types[] = {GA_FLOAT32, GA_FLOAT64, GA_INT64, GA_UINT64, GA_INT32, GA_INT16, GA_INT8,
                                     GA_UINT8, GA_UINT16, GA_UINT32, GA_BOOL};
    const int64_t sizes[] = {0, 1, 2, 31, OWN_TILE - 1, OWN_TILE, OWN_TILE + 1, OWN_TILE32 - 1, OWN_TILE32,
                             OWN_TILE32 + 1, 37 * OWN_TILE + 1001, test_length(1000003)};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            bool real = types[k] == GA_FLOAT32 || types[k] == GA_FLOAT64;
            own_case(types[k], sizes[s], 0);
            if (real) own_case(types[k], sizes[s], 1), own_case(types[k], sizes[s], 2);
        }
    /* long look-back chains */
    int64_t large = test_length((1 << 25) + 7);
    own_case(GA_FLOAT32, large, 0);
    own_case(GA_FLOAT32, large, 1);
    own_case(GA_INT32, test_length((1 << 24) + 3), 0);
}

/* The other ways in: a strided and a reversed view (copied first), out=
   given (the kernel writing into it, and into a slice of it at an odd
   offset), axis None of a 2-D array, and its axis -1 and 0 (rows: CUB). */
DEVICE_TEST(cumsum_single_pass_views)
{
    const int64_t n = 3 * OWN_TILE + 517;
    double *h = malloc((size_t)n * sizeof *h), *v = malloc((size_t)n * sizeof *v);
    own_fill(GA_FLOAT64, h, n, 0);
    ga_array *a = ga_from_host(h, 1, &n, GA_FLOAT64);
    /* a[::-1], a[1::3] */
    ga_array *rev = ga_index(a, "::-1"), *str = ga_index(a, "1::3");
    for (int64_t i = 0; i < n; i++) v[i] = h[n - 1 - i];
    ga_array *r = ga_cumsum(rev, 0, GA_DTYPE_INVALID);
    own_check("cumsum of a[::-1]", r, GA_FLOAT64, v, n, 0);
    ga_release(r);
    int64_t m = 0;
    for (int64_t i = 1; i < n; i += 3) v[m++] = h[i];
    r = ga_cumsum(str, 0, GA_DTYPE_INVALID);
    own_check("cumsum of a[1::3]", r, GA_FLOAT64, v, m, 0);
    ga_release(r);
    /* out= given, whole and as a slice at an 8-byte (not 16-byte) offset */
    ga_array *out = ga_zeros(1, &n, GA_FLOAT64);
    CHECK(ga_scan(GA_SCAN_CUMSUM, a, 0, GA_DTYPE_INVALID, &out) == GA_OK, "ga_scan out=: %s", ga_last_error_message());
    own_check("cumsum into out=", out, GA_FLOAT64, h, n, 0);
    int64_t n1 = n + 1;
    ga_array *wide = ga_zeros(1, &n1, GA_FLOAT64), *part = wide ? ga_index(wide, "1:") : NULL;
    CHECK(part && ga_scan(GA_SCAN_CUMSUM, a, 0, GA_DTYPE_INVALID, &part) == GA_OK, "ga_scan out=wide[1:]: %s",
          ga_last_error_message());
    own_check("cumsum into out=wide[1:]", part, GA_FLOAT64, h, n, 0);
    /* int32 widened into a given int64 out (fused) and a given int32 out (CUB's path back) */
    int32_t *hi = malloc((size_t)n * sizeof *hi);
    own_fill(GA_INT32, hi, n, 0);
    ga_array *ai = ga_from_host(hi, 1, &n, GA_INT32), *oi = ga_zeros(1, &n, GA_INT64);
    CHECK(ga_scan(GA_SCAN_CUMSUM, ai, 0, GA_DTYPE_INVALID, &oi) == GA_OK, "ga_scan int32 out=int64: %s",
          ga_last_error_message());
    own_check("cumsum of int32 into int64 out=", oi, GA_INT32, hi, n, 0);
    /* 2-D (3, n / 3 ...): axis None, -1, 0 */
    const int64_t rows = 3, cols = (n - 1) / 3, shape[2] = {rows, cols};
    ga_array *m2 = ga_from_host(h, 2, shape, GA_FLOAT64);
    r = ga_cumsum(m2, GA_AXIS_NONE, GA_DTYPE_INVALID);
    own_check("cumsum of a 2-D array, axis None", r, GA_FLOAT64, h, rows * cols, 0);
    ga_release(r);
    for (int axis = -1; axis <= 0; axis++) {
        ga_array *c = ga_cumsum(m2, axis, GA_DTYPE_INVALID);
        double *g = malloc((size_t)(rows * cols) * sizeof *g);
        CHECK(c && ga_to_host(c, g, (size_t)(rows * cols) * sizeof *g) == GA_OK, "axis %d: %s", axis,
              ga_last_error_message());
        int64_t bad = 0;
        for (int64_t i = 0; c && i < rows; i++) {
            double s = 0;
            for (int64_t j = 0; j < cols; j++) {
                if (axis == -1) s = (j ? s : 0) + h[i * cols + j];
                else s = 0;
                if (axis == 0) for (int64_t k = 0; k <= i; k++) s += h[k * cols + j];
                bad += g[i * cols + j] != s;
            }
        }
        CHECK(bad == 0, "cumsum of a 2-D array, axis %d: %lld wrong", axis, (long long)bad);
        free(g);
        ga_release(c);
    }
    ga_release(m2);
    /* -0.0 summed stays -0.0 (NumPy's sequential sum): over tiles too */
    float *z = malloc((size_t)n * sizeof *z);
    for (int64_t i = 0; i < n; i++) z[i] = -0.0f;
    ga_array *az = ga_from_host(z, 1, &n, GA_FLOAT32), *rz = az ? ga_cumsum(az, 0, GA_DTYPE_INVALID) : NULL;
    CHECK(rz && ga_to_host(rz, z, (size_t)n * sizeof *z) == GA_OK, "cumsum of -0.0: %s", ga_last_error_message());
    int64_t plus = 0;
    for (int64_t i = 0; rz && i < n; i++) plus += !(z[i] == 0 && signbit(z[i]));
    CHECK(plus == 0, "cumsum of -0.0: %lld items not -0.0", (long long)plus);
    ga_release(rz), ga_release(az);
    free(z);
    ga_release(ai), ga_release(oi), ga_release(wide), ga_release(part), ga_release(out);
    ga_release(rev), ga_release(str), ga_release(a);
    ga_clear_error();
    free(h), free(v), free(hi);
}

/* The single-pass cumsum captured in a graph (its counter and flags
   zeroed by a captured memset): replays over new contents, fed from
   page-locked memory, each exact (small integers). */
DEVICE_TEST(cumsum_single_pass_graph)
{
    const int64_t n = 5 * OWN_TILE + 3;
    float *host = ga_pinned_alloc((size_t)n * sizeof(float)), *got = malloc((size_t)n * sizeof(float));
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_array *x = ga_zeros(1, &n, GA_FLOAT32);
    ga_release(ga_cumsum(x, 0, GA_DTYPE_INVALID)); /* the kernels loaded before the capture */
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    CHECK_OK(ga_copy_from_host_async(x, host, (size_t)n * sizeof(float)));
    ga_array *y = ga_cumsum(x, 0, GA_DTYPE_INVALID);
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g && y && host && got, "capture: %s", ga_last_error_message());
    for (int round = 0; round < 4 && g && y && host && got; round++) {
        own_fill(GA_FLOAT32, host, n, 0);
        CHECK_OK(ga_graph_launch(g, s));
        CHECK_OK(ga_to_host(y, got, (size_t)n * sizeof(float)));
        float sum = 0;
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++) bad += got[i] != (sum += host[i]);
        CHECK(bad == 0, "replay %d: %lld wrong", round, (long long)bad);
    }
    ga_release(x), ga_release(y);
    ga_graph_release(g);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
    ga_pinned_free(host);
    free(got);
    ga_clear_error();
}

/* ga_scan: out= of another dtype and layout, in place (out = a, also
   reversed over a's own buffer), and the nan forms (NaN counted as 0 / 1,
   replaced before conversion to dtype). */
DEVICE_TEST(scan_out_and_nan_forms)
{
    const sort_case flat = {1, {1025}, 0, false}, rows = {2, {33, 65}, 1, true}, cols = {2, {33, 65}, 0, false};
    const sort_case none = {2, {33, 65}, GA_AXIS_NONE, true}, big = {1, {(1 << 20) + 7}, 0, false};
    const sort_case *cases[] = {&flat, &rows, &cols, &none};
    const ga_dtype inexact[] = {GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (size_t d = 0; d < sizeof inexact / sizeof inexact[0]; d++) {
            check_scan_full(cases[k], inexact[d], GA_SCAN_NANCUMSUM, GA_DTYPE_INVALID, OUT_NEW, GA_DTYPE_INVALID);
            check_scan_full(cases[k], inexact[d], GA_SCAN_NANCUMPROD, GA_DTYPE_INVALID, OUT_NEW, GA_DTYPE_INVALID);
        }
        check_scan_full(cases[k], GA_INT32, GA_SCAN_NANCUMSUM, GA_DTYPE_INVALID, OUT_NEW, GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_FLOAT32, GA_SCAN_NANCUMSUM, GA_FLOAT64, OUT_NEW, GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_COMPLEX64, GA_SCAN_NANCUMPROD, GA_COMPLEX128, OUT_NEW, GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_COMPLEX64, GA_SCAN_NANCUMSUM, GA_FLOAT32, OUT_NEW, GA_DTYPE_INVALID);
        /* out= */
        check_scan_full(cases[k], GA_FLOAT32, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN, GA_FLOAT64);
        check_scan_full(cases[k], GA_FLOAT32, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN_REVERSED, GA_FLOAT32);
        check_scan_full(cases[k], GA_INT16, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN_REVERSED, GA_INT8);
        check_scan_full(cases[k], GA_INT16, GA_SCAN_CUMPROD, GA_INT8, OUT_GIVEN, GA_INT64);
        check_scan_full(cases[k], GA_FLOAT64, GA_SCAN_NANCUMSUM, GA_FLOAT16, OUT_GIVEN_REVERSED, GA_FLOAT64);
        check_scan_full(cases[k], GA_COMPLEX64, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN, GA_FLOAT32);
        check_scan_full(cases[k], GA_UINT8, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN, GA_UINT64);
        /* in place */
        check_scan_full(cases[k], GA_FLOAT32, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_IN_PLACE, GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_FLOAT64, GA_SCAN_NANCUMSUM, GA_DTYPE_INVALID, OUT_IN_PLACE_REVERSED,
                        GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_INT32, GA_SCAN_CUMPROD, GA_DTYPE_INVALID, OUT_IN_PLACE_REVERSED, GA_DTYPE_INVALID);
        check_scan_full(cases[k], GA_BOOL, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_IN_PLACE, GA_DTYPE_INVALID);
    }
    check_scan_full(&big, GA_FLOAT32, GA_SCAN_NANCUMSUM, GA_DTYPE_INVALID, OUT_IN_PLACE, GA_DTYPE_INVALID);
    check_scan_full(&big, GA_FLOAT64, GA_SCAN_CUMSUM, GA_DTYPE_INVALID, OUT_GIVEN_REVERSED, GA_FLOAT32);

    /* a slice of NaN only: zeros / ones */
    float nan3[3] = {NAN, NAN, NAN}, got[3] = {5, 5, 5};
    ga_array *a = ga_from_host(nan3, GA_SHAPE(3), GA_FLOAT32);
    ga_array *s = ga_nancumsum(a, 0, GA_DTYPE_INVALID), *p = ga_nancumprod(a, 0, GA_DTYPE_INVALID);
    CHECK(s && p, "%s", ga_last_error_message());
    if (s && p) {
        CHECK_OK(ga_to_host(s, got, sizeof got));
        CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0, "nancumsum of NaN: %g %g %g", got[0], got[1], got[2]);
        CHECK_OK(ga_to_host(p, got, sizeof got));
        CHECK(got[0] == 1 && got[1] == 1 && got[2] == 1, "nancumprod of NaN: %g %g %g", got[0], got[1], got[2]);
    }
    /* errors: nothing stored, *out unchanged */
    ga_array *wrong = ga_zeros(GA_SHAPE(4), GA_FLOAT32), *out = wrong;
    CHECK_ERROR(ga_scan(GA_SCAN_CUMSUM, a, 0, GA_DTYPE_INVALID, &out) != GA_OK, GA_ERROR_SHAPE,
                "ga_scan: provided out is the wrong size for the accumulation.");
    CHECK(out == wrong, "*out changed on failure");
    ga_array *none_out = NULL;
    CHECK_ERROR(ga_scan((ga_scan_op)7, a, 0, GA_DTYPE_INVALID, &none_out) != GA_OK, GA_ERROR_VALUE,
                "ga_scan: invalid scan 7");
    CHECK(none_out == NULL, "*out set on failure");
    CHECK_ERROR(ga_scan(GA_SCAN_CUMSUM, a, 1, GA_DTYPE_INVALID, &none_out) != GA_OK, GA_ERROR_AXIS,
                "ga_scan: axis 1 is out of bounds for array of dimension 1");
    CHECK_ERROR(ga_scan(GA_SCAN_CUMSUM, a, 0, GA_DTYPE_INVALID, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "out");
    CHECK_ERROR(ga_nancumsum(NULL, 0, GA_DTYPE_INVALID) == NULL, GA_ERROR_NULL_INPUT, "ga_nancumsum: a is NULL");
    ga_release(a);
    ga_release(s);
    ga_release(p);
    ga_release(wrong);
}

/* ------------------------------------------------------------------------ */
/* diff, ediff1d                                                              */
/* ------------------------------------------------------------------------ */

/* Element k of an integer, bool or floating array as a long double. */
static long double load_real(const void *data, int64_t k, ga_dtype t)
{
    long double re, im;
    uint64_t bits = 0;
    if (t == GA_BOOL) return ((const unsigned char *)data)[k] != 0;
    scan_load(data, k, t, &re, &im, &bits);
    return re;
}

/* ga_diff(n, axis, prepend (0-d or with length 2 along axis), append) of
   a case against the host: differences wrap in the integer dtype, bool
   uses not_equal. */
static void check_diff_case(const sort_case *c, ga_dtype t, int n, bool prepend, bool append)
{
    char what[200];
    describe(what, sizeof what, c, t);
    snprintf(what + strlen(what), sizeof what - strlen(what), " diff n=%d%s%s", n, prepend ? " prepend" : "",
             append ? " append" : "");
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t size = outer * len * inner, full = len + (prepend ? 1 : 0) + (append ? 2 : 0);
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(size ? size : 1) * sz);
    fill_scan(h, size, t, false, false);
    ga_array *a = upload(c, h, t);
    int ax = c->axis < 0 ? c->axis + c->ndim : c->axis;
    /* prepend: the 0-d value 3; append: two slices of 2 and -1 */
    long double pre = t == GA_BOOL ? 1 : 3;
    ga_array *p = prepend ? ga_full(0, NULL, ga_int(3), t) : NULL;
    int64_t ashape[3];
    memcpy(ashape, c->shape, sizeof ashape);
    ashape[ax] = 2;
    ga_array *app = NULL;
    if (append) {
        ga_array *two = ga_full(c->ndim, ashape, ga_int(2), t);
        ga_array *m1 = ga_full(c->ndim, ashape, ga_int(t == GA_BOOL || ga_dtype_kind(t) == 'u' ? 0 : -1), t);
        /* slice 0 along axis 2, slice 1 -1 (0 for unsigned and bool) */
        ga_array *idx = ga_arange_int(0, 2, 1, GA_INT64);
        int64_t ishape[3] = {1, 1, 1};
        ishape[ax] = 2;
        ga_array *pos = ga_reshape(idx, c->ndim, ishape);
        ga_array *is0 = ga_equal_scalar(pos, ga_int(0));
        app = ga_where(is0, two, m1);
        ga_release(two), ga_release(m1), ga_release(idx), ga_release(pos), ga_release(is0);
    }
    ga_array *r = ga_diff(a, n, c->axis, p, app);
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    int64_t rlen = full - n > 0 ? full - n : 0;
    ga_dtype rd = t; /* prepend / append of a's dtype */
    if (r) {
        CHECK(ga_dtype_of(r) == rd && ga_ndim(r) == c->ndim && ga_shape(r)[ax] == rlen, "%s: shape or dtype", what);
        int64_t rsize = outer * rlen * inner;
        unsigned char *got = malloc((size_t)(rsize ? rsize : 1) * sz);
        CHECK_OK(ga_to_host(r, got, (size_t)rsize * sz));
        long double *lane = malloc(sizeof(long double) * (size_t)(full ? full : 1));
        int bad = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                int64_t m = 0;
                if (prepend) lane[m++] = pre;
                for (int64_t j = 0; j < len; j++) lane[m++] = load_real(h, (o * len + j) * inner + i, t);
                if (append) {
                    lane[m++] = t == GA_BOOL ? 1 : 2;
                    lane[m++] = t == GA_BOOL || ga_dtype_kind(t) == 'u' ? 0 : -1;
                }
                for (int step = 0; step < n && m > 0; step++) {
                    for (int64_t j = 0; j + 1 < m; j++) {
                        long double d = t == GA_BOOL ? (long double)(lane[j + 1] != lane[j]) : lane[j + 1] - lane[j];
                        if (ga_dtype_kind(t) == 'i' || ga_dtype_kind(t) == 'u') { /* wrap to the dtype */
                            uint64_t bits = (uint64_t)(int64_t)d, mask = sz < 8 ? (1ull << (8 * sz)) - 1 : ~0ull;
                            bits &= mask;
                            if (ga_dtype_kind(t) == 'i' && sz < 8 && (bits >> (8 * sz - 1))) bits |= ~mask;
                            d = ga_dtype_kind(t) == 'i' ? (long double)(int64_t)bits : (long double)bits;
                        } else if (t == GA_FLOAT32) d = (float)d;
                        else if (t == GA_FLOAT64) d = (double)d;
                        else if (t == GA_FLOAT16) d = ref_f16_to_double(ref_f16_from_double((double)d));
                        lane[j] = d;
                    }
                    m--;
                }
                for (int64_t j = 0; j < rlen; j++) {
                    long double g = load_real(got, (o * rlen + j) * inner + i, t);
                    if (g != lane[j] && bad++ < 3)
                        CHECK(0, "%s: lane (%lld,%lld) [%lld] = %Lg, want %Lg", what, (long long)o, (long long)i,
                              (long long)j, g, lane[j]);
                }
            }
        CHECK(bad == 0, "%s: %d wrong elements", what, bad);
        free(got);
        free(lane);
    }
    ga_release(a), ga_release(p), ga_release(app), ga_release(r);
    free(h);
}

DEVICE_TEST(diff)
{
    const sort_case cases[] = {
        {1, {1}, 0, false},        {1, {31}, -1, false},       {1, {1025}, 0, false},    {2, {33, 65}, 1, true},
        {2, {33, 65}, 0, false},   {3, {3, 257, 5}, 1, true}, {2, {0, 5}, 1, false},    {2, {5, 0}, 1, false},
    };
    const ga_dtype dtypes[] = {GA_BOOL, GA_INT8, GA_UINT16, GA_INT64, GA_FLOAT16, GA_FLOAT32, GA_FLOAT64};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
            check_diff_case(&cases[k], dtypes[d], 1, false, false);
            check_diff_case(&cases[k], dtypes[d], 2, true, true);
            check_diff_case(&cases[k], dtypes[d], 3, false, true);
        }
    check_diff_case(&cases[1], GA_INT32, 40, false, false); /* n beyond the length: empty */
    check_diff_case(&cases[3], GA_FLOAT32, 1, true, false);

    /* n = 0 is a itself; errors */
    ga_array *a = ga_arange_int(0, 6, 1, GA_INT32), *z = ga_full(0, NULL, ga_int(1), GA_FLOAT32);
    ga_array *same = ga_diff(a, 0, 0, NULL, NULL);
    CHECK(same == a, "diff n=0 is not a");
    ga_release(same);
    CHECK_ERROR(ga_diff(a, -1, 0, NULL, NULL) == NULL, GA_ERROR_VALUE, "ga_diff: order must be non-negative but got -1");
    CHECK_ERROR(ga_diff(z, 1, -1, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "ga_diff: diff requires input that is at least one dimensional");
    CHECK_ERROR(ga_diff(a, 1, 1, NULL, NULL) == NULL, GA_ERROR_AXIS,
                "ga_diff: axis 1 is out of bounds for array of dimension 1");
    CHECK_ERROR(ga_diff(NULL, 1, 0, NULL, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_diff: a is NULL");

    /* ediff1d: flattened differences between to_begin and to_end, cast */
    int16_t hm[6] = {1, -4, 9, 100, -128, 7};
    ga_array *m = ga_from_host(hm, GA_SHAPE(2, 3), GA_INT16), *mt = ga_transpose(m, NULL);
    int64_t hb[2] = {70000, -1};
    ga_array *begin = ga_from_host(hb, GA_SHAPE(2), GA_INT64), *end = ga_full(GA_SHAPE(1, 1), ga_int(5), GA_INT8);
    ga_array *e = ga_ediff1d(mt, end, begin);
    int16_t ge[8] = {0};
    /* mt flattened: 1 100 -4 -128 9 7 */
    int16_t want[8] = {(int16_t)(uint16_t)(70000 & 0xffff), -1, 99, -104, -124, 137, -2, 5};
    CHECK(e && ga_size(e) == 8 && ga_dtype_of(e) == GA_INT16, "ediff1d: %s", ga_last_error_message());
    if (e && ga_size(e) == 8) {
        CHECK_OK(ga_to_host(e, ge, sizeof ge));
        for (int i = 0; i < 8; i++) CHECK(ge[i] == want[i], "ediff1d [%d] = %d, want %d", i, ge[i], want[i]);
    }
    ga_array *e2 = ga_ediff1d(z, NULL, NULL);
    CHECK(e2 && ga_ndim(e2) == 1 && ga_size(e2) == 0, "ediff1d of a 0-d array: (0,)");
    ga_array *fb = ga_full(GA_SHAPE(1), ga_float(0.5), GA_FLOAT64);
    CHECK_ERROR(ga_ediff1d(m, NULL, fb) == NULL, GA_ERROR_TYPE,
                "ga_ediff1d: dtype of `to_begin` must be compatible with input `ary` under the `same_kind` rule.");
    CHECK_ERROR(ga_ediff1d(m, fb, NULL) == NULL, GA_ERROR_TYPE, "dtype of `to_end` must be compatible");
    ga_array *flags = ga_ones(GA_SHAPE(3), GA_BOOL);
    CHECK_ERROR(ga_ediff1d(flags, NULL, NULL) == NULL, GA_ERROR_TYPE, "ga_ediff1d: numpy boolean subtract");
    ga_release(a), ga_release(z), ga_release(m), ga_release(mt), ga_release(begin), ga_release(end);
    ga_release(e), ga_release(e2), ga_release(fb), ga_release(flags);
}

/* ------------------------------------------------------------------------ */
/* lexsort, partition, argpartition, sort_complex                             */
/* ------------------------------------------------------------------------ */

static const unsigned char *lex_data[3];
static ga_dtype lex_dtype[3];
static int lex_nkeys;

static int compare_lex(const void *pa, const void *pb)
{
    int64_t i = *(const int64_t *)pa, j = *(const int64_t *)pb;
    for (int k = lex_nkeys - 1; k >= 0; k--) {
        size_t sz = ga_dtype_itemsize(lex_dtype[k]);
        int c = compare_elements(lex_data[k] + (size_t)i * sz, lex_data[k] + (size_t)j * sz, lex_dtype[k]);
        if (c) return c;
    }
    return (i > j) - (i < j);
}

/* Keys of small ranges (many ties), of the given dtypes, one case. */
static void check_lexsort_case(const sort_case *c, int nkeys, const ga_dtype *dtypes)
{
    char what[200];
    describe(what, sizeof what, c, dtypes[0]);
    snprintf(what + strlen(what), sizeof what - strlen(what), " lexsort of %d keys", nkeys);
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t n = outer * len * inner;
    unsigned char *h[3], *lane[3];
    ga_array *keys[3];
    for (int k = 0; k < nkeys; k++) {
        size_t sz = ga_dtype_itemsize(dtypes[k]);
        h[k] = malloc((size_t)(n ? n : 1) * sz);
        lane[k] = malloc((size_t)(len ? len : 1) * sz);
        fill_random(h[k], n, dtypes[k], &SORT_VALUES);
        if (ga_dtype_kind(dtypes[k]) != 'f' && ga_dtype_kind(dtypes[k]) != 'c')
            for (int64_t i = 0; i < n; i++) { /* few distinct values */
                uint64_t v = rnd() % (dtypes[k] == GA_BOOL ? 2 : 4);
                memcpy(h[k] + (size_t)i * sz, &v, sz);
            }
        keys[k] = upload(c, h[k], dtypes[k]);
        lex_dtype[k] = dtypes[k];
    }
    ga_array *r = ga_lexsort(nkeys, (const ga_array *const *)keys, c->axis);
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        int64_t *got = malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), *ref = malloc(sizeof(int64_t) * (size_t)(len ? len : 1));
        CHECK(ga_dtype_of(r) == GA_INT64 && ga_size(r) == n, "%s: dtype or size", what);
        CHECK_OK(ga_to_host(r, got, sizeof(int64_t) * (size_t)n));
        lex_nkeys = nkeys;
        int bad = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                for (int k = 0; k < nkeys; k++) {
                    size_t sz = ga_dtype_itemsize(dtypes[k]);
                    for (int64_t j = 0; j < len; j++)
                        memcpy(lane[k] + (size_t)j * sz, h[k] + (size_t)((o * len + j) * inner + i) * sz, sz);
                    lex_data[k] = lane[k];
                }
                for (int64_t j = 0; j < len; j++) ref[j] = j;
                qsort(ref, (size_t)len, sizeof *ref, compare_lex);
                for (int64_t j = 0; j < len; j++)
                    if (got[(o * len + j) * inner + i] != ref[j] && bad++ < 3)
                        CHECK(0, "%s: lane (%lld,%lld) [%lld] = %lld, want %lld", what, (long long)o, (long long)i,
                              (long long)j, (long long)got[(o * len + j) * inner + i], (long long)ref[j]);
            }
        CHECK(bad == 0, "%s: %d wrong indices", what, bad);
        free(got);
        free(ref);
    }
    for (int k = 0; k < nkeys; k++) {
        ga_release(keys[k]);
        free(h[k]);
        free(lane[k]);
    }
    ga_release(r);
}

DEVICE_TEST(lexsort)
{
    const sort_case cases[] = {
        {1, {1}, -1, false},     {1, {1025}, 0, false},     {2, {33, 65}, 1, true},     {2, {33, 65}, 0, false},
        {2, {33, 65}, GA_AXIS_NONE, true}, {3, {4, 7, 300}, -1, true}, {1, {0}, -1, false}, {1, {100003}, 0, false},
    };
    const ga_dtype two[2] = {GA_FLOAT32, GA_INT8}, three[3] = {GA_INT64, GA_FLOAT64, GA_BOOL};
    const ga_dtype cplx[2] = {GA_UINT16, GA_COMPLEX64}, one[1] = {GA_FLOAT16};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        check_lexsort_case(&cases[k], 2, two);
        check_lexsort_case(&cases[k], 3, three);
        check_lexsort_case(&cases[k], 2, cplx);
        check_lexsort_case(&cases[k], 1, one);
    }
    ga_array *a = ga_zeros(GA_SHAPE(3, 4), GA_INT32), *b = ga_zeros(GA_SHAPE(4, 3), GA_INT32);
    const ga_array *ab[2] = {a, b}, *an[2] = {a, NULL};
    CHECK_ERROR(ga_lexsort(0, ab, -1) == NULL, GA_ERROR_TYPE,
                "ga_lexsort: need sequence of keys with len > 0 in lexsort");
    CHECK_ERROR(ga_lexsort(2, ab, -1) == NULL, GA_ERROR_SHAPE, "ga_lexsort: all keys need to be the same shape");
    CHECK_ERROR(ga_lexsort(2, an, -1) == NULL, GA_ERROR_NULL_INPUT, "ga_lexsort");
    CHECK_ERROR(ga_lexsort(1, ab, 2) == NULL, GA_ERROR_AXIS, "ga_lexsort: axis 2 is out of bounds");
    ga_release(a);
    ga_release(b);
}

/* partition / argpartition: NumPy's contract for each kth, and argpartition
   a permutation of each lane. */
static void check_partition_case(const sort_case *c, ga_dtype t, int nkth, const int64_t *kth)
{
    char what[200];
    describe(what, sizeof what, c, t);
    snprintf(what + strlen(what), sizeof what - strlen(what), " partition kth[0]=%lld (%d)", (long long)kth[0], nkth);
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t n = outer * len * inner;
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz), *got = malloc((size_t)(n ? n : 1) * sz);
    unsigned char *lane = malloc((size_t)(len ? len : 1) * sz), *sorted = malloc((size_t)(len ? len : 1) * sz);
    int64_t *gidx = malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), *ref = malloc(sizeof(int64_t) * (size_t)(len ? len : 1));
    char *seen = malloc((size_t)(len ? len : 1));
    fill_random(h, n, t, &SORT_VALUES);
    ga_array *a = upload(c, h, t);
    ga_array *p = ga_partition(a, nkth, kth, c->axis), *ap = ga_argpartition(a, nkth, kth, c->axis);
    CHECK(p && ap, "%s: %s", what, ga_last_error_message());
    if (p && ap) {
        CHECK_OK(ga_to_host(p, got, (size_t)n * sz));
        CHECK_OK(ga_to_host(ap, gidx, sizeof(int64_t) * (size_t)n));
        int bad = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                lane_order(h, t, o, i, len, inner, lane, ref);
                for (int64_t j = 0; j < len; j++) memcpy(sorted + (size_t)j * sz, lane + (size_t)ref[j] * sz, sz);
                memset(seen, 0, (size_t)(len ? len : 1));
                for (int64_t j = 0; j < len; j++) {
                    int64_t ix = gidx[(o * len + j) * inner + i];
                    if (ix < 0 || ix >= len || seen[ix]) {
                        bad++;
                        break;
                    }
                    seen[ix] = 1;
                }
                for (int q = 0; q < nkth; q++) {
                    int64_t k = kth[q] < 0 ? kth[q] + len : kth[q];
                    const unsigned char *kv = sorted + (size_t)k * sz;
                    for (int64_t j = 0; j < len; j++) {
                        int64_t at = (o * len + j) * inner + i, ix = gidx[at];
                        const unsigned char *pv = got + (size_t)at * sz;
                        const unsigned char *av = lane + (size_t)(ix >= 0 && ix < len ? ix : 0) * sz;
                        int cp = compare_elements(pv, kv, t), ca = compare_elements(av, kv, t);
                        bool okp = j < k ? cp <= 0 : j > k ? cp >= 0 : cp == 0;
                        bool oka = j < k ? ca <= 0 : j > k ? ca >= 0 : ca == 0;
                        if ((!okp || !oka) && bad++ < 3)
                            CHECK(0, "%s: lane (%lld,%lld) [%lld] breaks kth %lld (partition %d, argpartition %d)",
                                  what, (long long)o, (long long)i, (long long)j, (long long)k, okp, oka);
                    }
                }
            }
        CHECK(bad == 0, "%s: %d violations", what, bad);
    }
    ga_release(a), ga_release(p), ga_release(ap);
    free(h), free(got), free(lane), free(sorted), free(gidx), free(ref), free(seen);
}

DEVICE_TEST(partition)
{
    const sort_case cases[] = {
        {1, {1}, -1, false},      {1, {31}, 0, false},       {1, {1025}, GA_AXIS_NONE, false},
        {2, {33, 65}, 1, true},   {2, {33, 65}, 0, false},   {3, {4, 7, 300}, -1, true},
        {2, {300, 700}, -1, false}, {1, {test_length((1 << 20) + 7)}, 0, false},
    };
    const ga_dtype dtypes[] = {GA_BOOL, GA_INT16, GA_UINT32, GA_FLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX128};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
            int64_t one[1] = {0}, several[3] = {-1, 0, 0};
            int64_t len = cases[k].axis == GA_AXIS_NONE ? cases[k].shape[0]
                                                        : cases[k].shape[cases[k].axis < 0 ? cases[k].axis + cases[k].ndim
                                                                                           : cases[k].axis];
            one[0] = len / 2;
            several[1] = len / 3;
            several[2] = len > 1 ? 1 : 0;
            check_partition_case(&cases[k], dtypes[d], 1, one);
            check_partition_case(&cases[k], dtypes[d], 3, several);
        }
    ga_array *a = ga_zeros(GA_SHAPE(3, 5), GA_FLOAT32);
    int64_t k5 = 5, km6 = -6, k2 = 2;
    CHECK_ERROR(ga_partition(a, 1, &k5, -1) == NULL, GA_ERROR_VALUE, "ga_partition: kth(=5) out of bounds (5)");
    CHECK_ERROR(ga_argpartition(a, 1, &km6, 1) == NULL, GA_ERROR_VALUE, "ga_argpartition: kth(=-1) out of bounds (5)");
    CHECK_ERROR(ga_partition(a, 1, &k2, 2) == NULL, GA_ERROR_AXIS, "ga_partition: axis 2 is out of bounds");
    CHECK_ERROR(ga_partition(a, 1, NULL, -1) == NULL, GA_ERROR_NULL_INPUT, "ga_partition: kth is NULL");
    ga_release(a);
    /* NumPy checks kth against non-empty arrays only */
    ga_array *e = ga_zeros(GA_SHAPE(3, 0), GA_FLOAT32);
    ga_array *pe = ga_partition(e, 1, &k5, 1);
    CHECK(pe && ga_ndim(pe) == 2 && ga_shape(pe)[0] == 3 && ga_shape(pe)[1] == 0, "partition of (3, 0), kth 5: %s",
          pe ? "wrong shape" : ga_last_error_message());
    ga_clear_error();
    ga_release(pe);
    ga_release(e);
}

/* sort_complex: the last axis, NumPy's complex order, NumPy's dtypes. */
DEVICE_TEST(sort_complex)
{
    const sort_case c = {2, {33, 300}, -1, true};
    check_sort_case(&c, GA_COMPLEX64);
    const ga_dtype from[] = {GA_BOOL, GA_INT8, GA_UINT16, GA_INT32, GA_FLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64};
    const ga_dtype want[] = {GA_COMPLEX128, GA_COMPLEX64, GA_COMPLEX64, GA_COMPLEX128,
                             GA_COMPLEX128, GA_COMPLEX128, GA_COMPLEX128, GA_COMPLEX64};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        int64_t n = 1000;
        size_t sz = ga_dtype_itemsize(from[i]);
        unsigned char *h = malloc((size_t)n * sz);
        fill_random(h, n, from[i], &SORT_VALUES);
        ga_array *a = ga_from_host(h, GA_SHAPE(2, n / 2), from[i]);
        ga_array *s = ga_sort_complex(a), *sorted = ga_sort(a, -1), *ref = ga_astype(sorted, want[i]);
        CHECK(s && ga_dtype_of(s) == want[i], "sort_complex of %s: dtype %s", ga_dtype_name(from[i]),
              s ? ga_dtype_name(ga_dtype_of(s)) : ga_last_error_message());
        if (s && ref) {
            size_t wsz = ga_dtype_itemsize(want[i]);
            unsigned char *g = malloc((size_t)n * wsz), *r = malloc((size_t)n * wsz);
            CHECK_OK(ga_to_host(s, g, (size_t)n * wsz));
            CHECK_OK(ga_to_host(ref, r, (size_t)n * wsz));
            int bad = 0;
            for (int64_t k = 0; k < n; k++) bad += compare_elements(g + k * wsz, r + k * wsz, want[i]) != 0;
            CHECK(bad == 0, "sort_complex of %s: %d elements differ from sort + astype", ga_dtype_name(from[i]), bad);
            free(g), free(r);
        }
        ga_release(a), ga_release(s), ga_release(sorted), ga_release(ref);
        free(h);
    }
    ga_array *z = ga_zeros(0, NULL, GA_COMPLEX64);
    CHECK_ERROR(ga_sort_complex(z) == NULL, GA_ERROR_AXIS, "ga_sort_complex: axis -1 is out of bounds");
    ga_release(z);
}

/* ------------------------------------------------------------------------ */
/* Errors and edge cases                                                      */
/* ------------------------------------------------------------------------ */

DEVICE_TEST(sort_errors)
{
    double v = 2.5;
    ga_array *z = ga_from_host(&v, 0, NULL, GA_FLOAT64);
    CHECK_ERROR(ga_sort(z, -1) == NULL, GA_ERROR_AXIS, "ga_sort: axis -1 is out of bounds for array of dimension 0");
    /* NumPy ravels a 0-d array for the scans, argsort and argpartition:
       axis 0 and -1 give (1,), others are out of bounds of dimension 1 */
    CHECK_ERROR(ga_cumsum(z, 1, GA_DTYPE_INVALID) == NULL, GA_ERROR_AXIS,
                "ga_cumsum: axis 1 is out of bounds for array of dimension 1");
    CHECK_ERROR(ga_argsort(z, -2) == NULL, GA_ERROR_AXIS, "ga_argsort: axis -2 is out of bounds for array of dimension 1");
    int64_t k0 = 0;
    CHECK_ERROR(ga_argpartition(z, 1, &k0, 1) == NULL, GA_ERROR_AXIS,
                "ga_argpartition: axis 1 is out of bounds for array of dimension 1");
    ga_array *c0 = ga_cumsum(z, 0, GA_DTYPE_INVALID), *a0 = ga_argsort(z, -1);
    CHECK(c0 && ga_ndim(c0) == 1 && ga_size(c0) == 1, "cumsum of a 0-d array, axis 0: (1,)");
    CHECK(a0 && ga_ndim(a0) == 1 && ga_size(a0) == 1, "argsort of a 0-d array, axis -1: (1,)");
    ga_release(c0);
    ga_release(a0);
    ga_array *flat = ga_sort(z, GA_AXIS_NONE), *cs = ga_cumprod(z, GA_AXIS_NONE, GA_DTYPE_INVALID);
    double got[2] = {0, 0};
    CHECK(flat && ga_ndim(flat) == 1 && ga_size(flat) == 1, "sort of a 0-d array, axis None: (1,)");
    CHECK(cs && ga_ndim(cs) == 1 && ga_size(cs) == 1, "cumprod of a 0-d array, axis None: (1,)");
    if (flat && cs) {
        CHECK_OK(ga_to_host(flat, &got[0], 8));
        CHECK_OK(ga_to_host(cs, &got[1], 8));
        CHECK(got[0] == 2.5 && got[1] == 2.5, "got %g %g", got[0], got[1]);
    }
    ga_array *m = ga_zeros(GA_SHAPE(3, 4), GA_INT32);
    CHECK_ERROR(ga_argsort(m, 2) == NULL, GA_ERROR_AXIS, "ga_argsort: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(ga_cumprod(m, -3, GA_DTYPE_INVALID) == NULL, GA_ERROR_AXIS, "axis -3 is out of bounds");
    ga_array *c = ga_zeros(GA_SHAPE(5), GA_COMPLEX64);
    CHECK_ERROR(ga_sort(c, 1) == NULL, GA_ERROR_AXIS, "ga_sort: axis 1 is out of bounds for array of dimension 1");
    /* a NULL input keeps the first error */
    CHECK_ERROR(ga_sort(ga_argsort(m, 5), 0) == NULL, GA_ERROR_AXIS, "ga_argsort: axis 5");
    CHECK_ERROR(ga_cumsum(NULL, 0, GA_DTYPE_INVALID) == NULL, GA_ERROR_NULL_INPUT, "ga_cumsum: a is NULL");
    ga_release(z);
    ga_release(flat);
    ga_release(cs);
    ga_release(m);
    ga_release(c);
}

/* ------------------------------------------------------------------------ */
/* The glue archive is linked                                                 */
/* ------------------------------------------------------------------------ */

/* This program links build/libgpuarr_cub.a and the static CUDA runtime: the
   glue answers without a GPU. */
TEST(cub_glue_linked_statically)
{
    int v = ga_cub_version();
    CHECK(v >= 200000 && v < 1000000, "ga_cub_version() = %d, want CUB 2.x or newer", v);
    CHECK(strcmp(ga__cub_error_string(0), "no error") == 0, "cudaGetErrorString(0) = \"%s\"",
          ga__cub_error_string(0));
}

/* build/libgpuarr.so carries the glue too (the dynamic configuration). */
TEST(cub_glue_linked_into_shared_library)
{
    void *lib = dlopen("build/libgpuarr.so", RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL, "dlopen build/libgpuarr.so: %s", dlerror());
    if (!lib) return;
    int (*version)(void) = NULL;
    void *sym = dlsym(lib, "ga_cub_version");
    memcpy(&version, &sym, sizeof sym); /* POSIX: a function's address */
    CHECK(version != NULL, "ga_cub_version is not exported by build/libgpuarr.so");
    if (version) CHECK(version() == ga_cub_version(), "the library's CUB %d, this program's %d", version(),
                       ga_cub_version());
    dlclose(lib);
}

/* A 0-d array with axis 0 or -1: argsort, argpartition and the scans take
   it as NumPy does (as raveled: shape (1,)); sort and partition refuse it,
   as NumPy's AxisError. */
DEVICE_TEST(zero_d_axis)
{
    float v = 7.5f;
    ga_array *z = ga_from_host(&v, 0, (const int64_t[]){1}, GA_FLOAT32);
    ga_array *r[4] = {ga_argsort(z, -1), ga_argpartition(z, 1, (const int64_t[]){0}, 0), ga_cumsum(z, 0, GA_DTYPE_INVALID),
                      ga_nancumprod(z, -1, GA_FLOAT64)};
    const char *names[4] = {"argsort", "argpartition", "cumsum", "nancumprod"};
    const double want[4] = {0, 0, 7.5, 7.5};
    for (int k = 0; k < 4; k++) {
        double got = NAN;
        ga_array *f = r[k] ? ga_astype(r[k], GA_FLOAT64) : NULL;
        CHECK(f && ga_ndim(f) == 1 && ga_shape(f)[0] == 1 && ga_to_host(f, &got, sizeof got) == GA_OK && got == want[k],
              "%s(0-d, axis 0 or -1): %s", names[k], f ? "not [x]" : ga_last_error_message());
        ga_release(f), ga_release(r[k]);
        ga_clear_error();
    }
    CHECK_ERROR(ga_sort(z, 0) == NULL, GA_ERROR_AXIS, "axis 0 is out of bounds for array of dimension 0");
    CHECK_ERROR(ga_partition(z, 1, (const int64_t[]){0}, -1) == NULL, GA_ERROR_AXIS,
                "axis -1 is out of bounds for array of dimension 0");
    CHECK_ERROR(ga_argsort(z, 1) == NULL, GA_ERROR_AXIS, "axis 1 is out of bounds for array of dimension 1"); /* raveled */
    ga_release(z);
}
