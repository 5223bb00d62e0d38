/* Device tests of searching, sets and histograms (gpuarr.h, >>sort:
   ga_searchsorted, ga_digitize, ga_unique and the unique_* forms, ga_isin,
   ga_intersect1d, ga_union1d, ga_setdiff1d, ga_setxor1d, ga_bincount,
   ga_histogram, ga_histogram_bin_edges) and of the glue in kernels/cub/sets.cu.

   Every function runs for bool, every integer and every float dtype (the
   searching and set functions for complex64 and complex128 too) on sizes
   0, 1, 31, 33, 1023, 1025 and larger, on fresh random data full of
   duplicates, NaN of both signs, infinities and -0.0 / +0.0 (for complex
   in either part), given C-contiguous, as a transposed 2-d view and as a
   negatively strided view. The host references are computed here in long
   double (exact for every element of every dtype): sorted distinct values
   with NaN last and one zero (complex: NumPy's complex order and NaN
   groups), first indices, inverse and counts; binary searches as counts
   of smaller elements; set results from their definitions (intersect1d
   from NumPy's steps); bin counts and weighted sums by NumPy's bin rule.
   Error paths check NumPy's messages. GPUARR_TEST_SEED=<seed> repeats a
   run. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <math.h>

/* ------------------------------------------------------------------------ */
/* Elements on the host                                                       */
/* ------------------------------------------------------------------------ */

static const ga_dtype REAL_DTYPES[] = {GA_BOOL,   GA_INT8,   GA_INT16,   GA_INT32,   GA_INT64,
                                       GA_UINT8,  GA_UINT16, GA_UINT32,  GA_UINT64,  GA_FLOAT16,
                                       GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64};
#define NUM_REAL (int)(sizeof REAL_DTYPES / sizeof REAL_DTYPES[0])
static const int64_t SIZES[] = {0, 1, 31, 33, 1023, 1025, 70001};
#define NUM_SIZES (int)(sizeof SIZES / sizeof SIZES[0])

/* NumPy's order: -1, 0, 1, NaN last and equal to NaN, -0.0 == +0.0. */
static int order(long double x, long double y)
{
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* Set equality: as order, but NaN equals nothing. */
static bool same(long double x, long double y) { return !isnan(x) && !isnan(y) && x == y; }

/* Random elements with duplicates (integers from about `spread` values),
   NaN of both signs, infinities, -0.0. */
static void fill_dups(void *data, int64_t n, ga_dtype t, int spread)
{
    const ref_mix mix = {.classes = 32, .nan = 1, .neg_nan = 1, .zero = 1, .neg_zero = 1, .inf = 1, .small = 17,
                         .small_count = spread, .small_offset = spread / 2, .span = 1000,
                         .wide_mask = 7, .wide_bits = 0, .int_count = spread, .int_offset = spread / 4,
                         .nan32 = 0x7fc00001u};
    fill_random(data, n, t, &(fill_spec){.mix = &mix});
}

/* Layouts a 1-d logical array of n elements is given in. */
enum { LAYOUT_CONTIGUOUS, LAYOUT_REVERSED, LAYOUT_TRANSPOSED, NUM_LAYOUTS };
static const char *const LAYOUT_NAMES[] = {"contiguous", "reversed", "transposed"};

/* `logical` (n elements, C order) as a device array in `layout`: 1-d, a
   negatively strided 1-d view, or (for even n) a 2-d (2, n/2) view of a
   transposed buffer (whose C order is `logical`). NULL on failure. */
static ga_array *upload(const void *logical, int64_t n, ga_dtype t, int layout)
{
    size_t sz = ga_dtype_itemsize(t);
    if (layout == LAYOUT_CONTIGUOUS || (layout == LAYOUT_TRANSPOSED && n % 2)) return ga_from_host(logical, 1, &n, t);
    unsigned char *mem = malloc((size_t)(n ? n : 1) * sz);
    ga_array *base = NULL, *v = NULL;
    if (layout == LAYOUT_REVERSED) {
        for (int64_t i = 0; i < n; i++) memcpy(mem + (size_t)(n - 1 - i) * sz, (const unsigned char *)logical + i * sz, sz);
        base = ga_from_host(mem, 1, &n, t);
        v = base ? ga_index(base, "::-1") : NULL;
    } else {
        int64_t h = n / 2, shape[2] = {h, 2};
        /* logical[r * h + c] is element (r, c) of the (2, h) view: mem (h, 2) */
        for (int64_t r = 0; r < 2; r++)
            for (int64_t c = 0; c < h; c++)
                memcpy(mem + (size_t)(c * 2 + r) * sz, (const unsigned char *)logical + (r * h + c) * sz, sz);
        base = ga_from_host(mem, 2, shape, t);
        v = base ? ga_transpose(base, NULL) : NULL;
    }
    ga_release(base);
    free(mem);
    return v;
}

/* A device array's elements as values (malloc'd; NULL on failure). */
static long double *values_of(const ga_array *a)
{
    int64_t n = ga_size(a);
    ga_dtype t = ga_dtype_of(a);
    size_t sz = ga_dtype_itemsize(t);
    size_t count = (size_t)(n > 0 ? n : 1);
    unsigned char *raw = malloc(count * sz);
    long double *v = malloc(sizeof(long double) * count);
    if (n && !download(a, raw)) {
        free(raw);
        free(v);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) v[i] = value_at(t, raw, i);
    free(raw);
    return v;
}

static int64_t *ints_of(const ga_array *a)
{
    int64_t n = ga_size(a);
    int64_t *v = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (n > 0 && !download(a, v)) {
        free(v);
        return NULL;
    }
    return v;
}

/* Elements with their positions, sorted stably in NumPy's order. */
typedef struct item {
    long double v;
    int64_t i;
} item;

static int compare_items(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    int c = order(a->v, b->v);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The reference unique: sorted distinct values (NaN one value when
   equal_nan), first index and count of each; the number of them. */
static int64_t ref_unique(const long double *x, int64_t n, bool equal_nan, long double *values, int64_t *first,
                          int64_t *counts, int64_t *inverse)
{
    item *it = malloc(sizeof(item) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) it[i] = (item){x[i], i};
    qsort(it, (size_t)n, sizeof(item), compare_items);
    int64_t k = 0;
    for (int64_t p = 0; p < n; p++) {
        bool start = p == 0 || order(it[p].v, it[p - 1].v) != 0 || (!equal_nan && isnan(it[p].v));
        if (start) {
            values[k] = it[p].v;
            first[k] = it[p].i;
            counts[k] = 0;
            k++;
        }
        counts[k - 1]++;
        if (inverse) inverse[it[p].i] = k - 1;
    }
    free(it);
    return k;
}

static void describe(char *out, size_t n, const char *what, ga_dtype t, int64_t size, int layout)
{
    snprintf(out, n, "%s %s n=%lld %s", what, ga_dtype_name(t), (long long)size, LAYOUT_NAMES[layout]);
}

/* got (k values) equals want exactly (NaN for NaN; zeros must be +0.0 when
   check_zero_sign). */
static void check_values(const char *what, const ga_array *got, const long double *want, int64_t k, bool positive_zero)
{
    CHECK(got && ga_size(got) == k, "%s: %lld values, expected %lld", what, got ? (long long)ga_size(got) : -1LL,
          (long long)k);
    if (!got || ga_size(got) != k) return;
    long double *g = values_of(got);
    if (!g) return;
    for (int64_t i = 0; i < k; i++) {
        bool ok = order(g[i], want[i]) == 0 && (isnan(g[i]) == isnan(want[i]));
        if (ok && positive_zero && g[i] == 0 && is_float(ga_dtype_of(got))) ok = !signbit(g[i]);
        CHECK(ok, "%s: value [%lld] is %Lg, expected %Lg", what, (long long)i, g[i], want[i]);
        if (!ok) break;
    }
    free(g);
}

static void check_ints(const char *what, const char *name, const ga_array *got, const int64_t *want, int64_t k)
{
    CHECK(got && ga_size(got) == k && ga_dtype_of(got) == GA_INT64, "%s: %s has %lld elements of %s, expected %lld int64",
          what, name, got ? (long long)ga_size(got) : -1LL, got ? ga_dtype_name(ga_dtype_of(got)) : "-", (long long)k);
    if (!got || ga_size(got) != k || ga_dtype_of(got) != GA_INT64) return;
    int64_t *g = ints_of(got);
    if (!g) return;
    for (int64_t i = 0; i < k; i++) {
        CHECK(g[i] == want[i], "%s: %s[%lld] is %lld, expected %lld", what, name, (long long)i, (long long)g[i],
              (long long)want[i]);
        if (g[i] != want[i]) break;
    }
    free(g);
}

/* ------------------------------------------------------------------------ */
/* unique                                                                      */
/* ------------------------------------------------------------------------ */

/* The unique function of `form` (0: ga_unique with every result, 1:
   ga_unique alone, 2: unique_all, 3: unique_counts, 4: unique_inverse,
   else unique_values); the optional results it gives to *idx, *inv, *cnt. */
static ga_array *unique_form(const ga_array *a, int form, bool equal_nan, ga_array **idx, ga_array **inv,
                             ga_array **cnt)
{
    switch (form) {
    case 0: return ga_unique(a, idx, inv, cnt, equal_nan);
    case 1: return ga_unique(a, NULL, NULL, NULL, equal_nan);
    case 2: return ga_unique_all(a, idx, inv, cnt);
    case 3: return ga_unique_counts(a, cnt);
    case 4: return ga_unique_inverse(a, inv);
    default: return ga_unique_values(a);
    }
}

static void check_unique(ga_dtype t, int64_t n, int layout, bool equal_nan, int form)
{
    char what[160];
    describe(what, sizeof what, equal_nan ? "unique" : "unique(equal_nan=False)", t, n, layout);
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz);
    fill_dups(h, n, t, n < 100 ? 12 : 200);
    long double *x = malloc(sizeof(long double) * (size_t)(n ? n : 1)), *values = malloc(sizeof(long double) * (size_t)(n ? n : 1));
    int64_t *first = malloc(8 * (size_t)(n ? n : 1)), *counts = malloc(8 * (size_t)(n ? n : 1)), *inverse = malloc(8 * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) x[i] = value_at(t, h, i);
    int64_t k = ref_unique(x, n, equal_nan, values, first, counts, inverse);
    ga_array *a = upload(h, n, t, layout);
    CHECK(a != NULL, "%s: upload: %s", what, ga_last_error_message());
    if (a) {
        ga_array *idx = NULL, *inv = NULL, *cnt = NULL, *u = NULL;
        poison_next((size_t)(n ? n : 1) * 8);
        u = unique_form(a, form, equal_nan, &idx, &inv, &cnt);
        CHECK(u != NULL, "%s: %s", what, ga_last_error_message());
        if (u) {
            CHECK(ga_dtype_of(u) == t && ga_ndim(u) == 1, "%s: dtype %s ndim %d", what, ga_dtype_name(ga_dtype_of(u)),
                  ga_ndim(u));
            check_values(what, u, values, k, true);
            if (idx) check_ints(what, "index", idx, first, k);
            if (cnt) check_ints(what, "counts", cnt, counts, k);
            if (inv) {
                CHECK(ga_ndim(inv) == ga_ndim(a) && ga_shape(inv)[0] == ga_shape(a)[0], "%s: inverse shape", what);
                check_ints(what, "inverse", inv, inverse, n);
            }
        }
        ga_release(u);
        ga_release(idx);
        ga_release(inv);
        ga_release(cnt);
    }
    ga_clear_error();
    ga_release(a);
    free(h);
    free(x);
    free(values);
    free(first);
    free(counts);
    free(inverse);
}

#define UNIQUE_TEST(name, T)                                                          \
    DEVICE_TEST(unique_##name)                                                        \
    {                                                                                 \
        for (int s = 0; s < NUM_SIZES; s++)                                           \
            for (int l = 0; l < NUM_LAYOUTS; l++) {                                   \
                if (!test_sample(s * NUM_LAYOUTS + l, 3)) continue;                   \
                check_unique(T, SIZES[s], l, true, (s + l) % 2);                      \
                check_unique(T, SIZES[s], l, false, 2 + (s + l) % 4);                 \
            }                                                                         \
        check_unique(T, 1000003, LAYOUT_CONTIGUOUS, true, 0);                         \
    }
UNIQUE_TEST(bool, GA_BOOL)
UNIQUE_TEST(int8, GA_INT8)
UNIQUE_TEST(int16, GA_INT16)
UNIQUE_TEST(int32, GA_INT32)
UNIQUE_TEST(int64, GA_INT64)
UNIQUE_TEST(uint8, GA_UINT8)
UNIQUE_TEST(uint16, GA_UINT16)
UNIQUE_TEST(uint32, GA_UINT32)
UNIQUE_TEST(uint64, GA_UINT64)
UNIQUE_TEST(float16, GA_FLOAT16)
UNIQUE_TEST(bfloat16, GA_BFLOAT16)
UNIQUE_TEST(float32, GA_FLOAT32)
UNIQUE_TEST(float64, GA_FLOAT64)

/* A 0-d input: one value; its inverse is 0-d. */
DEVICE_TEST(unique_zero_d)
{
    float v = -0.0f;
    ga_array *a = ga_from_host(&v, 0, NULL, GA_FLOAT32), *inv = NULL;
    ga_array *u = ga_unique(a, NULL, &inv, NULL, true);
    CHECK(u && ga_size(u) == 1 && ga_ndim(u) == 1, "unique of a 0-d array: %s", ga_last_error_message());
    CHECK(inv && ga_ndim(inv) == 0, "the inverse of a 0-d array is 0-d");
    float got = 1;
    if (u && download(u, &got)) CHECK(got == 0 && !signbit(got), "unique(-0.0) is +0.0, got %g", got);
    ga_release(u);
    ga_release(inv);
    ga_release(a);
}

/* ------------------------------------------------------------------------ */
/* searchsorted, digitize                                                      */
/* ------------------------------------------------------------------------ */

static int compare_values(const void *pa, const void *pb) { return order(*(const long double *)pa, *(const long double *)pb); }

/* Sorts n elements of t in place (NumPy's order), through their values. */
static void sort_elements(unsigned char *h, int64_t n, ga_dtype t, int64_t *perm)
{
    size_t sz = ga_dtype_itemsize(t);
    item *it = malloc(sizeof(item) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) it[i] = (item){value_at(t, h, i), i};
    qsort(it, (size_t)n, sizeof(item), compare_items);
    unsigned char *tmp = malloc((size_t)(n ? n : 1) * sz);
    for (int64_t i = 0; i < n; i++) {
        memcpy(tmp + i * sz, h + it[i].i * sz, sz);
        if (perm) perm[i] = it[i].i;
    }
    memcpy(h, tmp, (size_t)n * sz);
    free(tmp);
    free(it);
}

/* searchsorted of the (2, 257) values hv in the n sorted elements hs (in
   `layout`), and in ha through its sorter perm (int64) and perm32 (int32),
   both sides, against the expected left and right indices. */
static void searchsorted_on_device(const char *what, ga_dtype t, int layout, int64_t n, const void *ha, const void *hs,
                                   const int64_t *perm, const int32_t *perm32, const void *hv, const int64_t *left,
                                   const int64_t *right)
{
    int64_t m = 2 * 257, vshape[2] = {2, 257}, pshape = n;
    ga_array *da = upload(hs, n, t, layout), *dv = ga_from_host(hv, 2, vshape, t);
    ga_array *du = upload(ha, n, t, layout), *dp = ga_from_host(perm, 1, &pshape, GA_INT64);
    ga_array *dp32 = ga_from_host(perm32, 1, &pshape, GA_INT32);
    CHECK(da && dv && du && dp && dp32, "%s: upload: %s", what, ga_last_error_message());
    for (int side = 0; side < 2 && da && dv && du && dp && dp32; side++)
        for (int with_sorter = 0; with_sorter < 3; with_sorter++) {
            const ga_array *sorter = with_sorter == 0 ? NULL : with_sorter == 1 ? dp : dp32;
            ga_array *r = ga_searchsorted(sorter ? du : da, dv, side ? GA_SIDE_RIGHT : GA_SIDE_LEFT, sorter);
            char w2[320];
            snprintf(w2, sizeof w2, "%s side=%s sorter=%s", what, side ? "right" : "left",
                     with_sorter == 0 ? "None" : with_sorter == 1 ? "int64" : "int32");
            CHECK(r != NULL, "%s: %s", w2, ga_last_error_message());
            if (r) {
                CHECK(ga_ndim(r) == 2 && ga_shape(r)[0] == 2 && ga_shape(r)[1] == 257, "%s: shape", w2);
                check_ints(w2, "result", r, side ? right : left, m);
            }
            ga_release(r);
        }
    ga_clear_error();
    ga_release(da), ga_release(dv), ga_release(du), ga_release(dp), ga_release(dp32);
}

static void check_searchsorted(ga_dtype t, int64_t n, int layout)
{
    char what[160];
    describe(what, sizeof what, "searchsorted", t, n, layout);
    size_t sz = ga_dtype_itemsize(t);
    int64_t m = 2 * 257;
    unsigned char *ha = malloc((size_t)(n ? n : 1) * sz), *hv = malloc((size_t)m * sz), *hs = malloc((size_t)(n ? n : 1) * sz);
    fill_dups(ha, n, t, 40);
    fill_dups(hv, m, t, 40);
    memcpy(hs, ha, (size_t)n * sz);
    int64_t *perm = malloc(8 * (size_t)(n ? n : 1));
    int32_t *perm32 = malloc(4 * (size_t)(n ? n : 1));
    sort_elements(hs, n, t, perm);
    for (int64_t i = 0; i < n; i++) perm32[i] = (int32_t)perm[i];
    long double *a = malloc(sizeof(long double) * (size_t)(n ? n : 1)), *v = malloc(sizeof(long double) * (size_t)m);
    for (int64_t i = 0; i < n; i++) a[i] = value_at(t, hs, i);
    for (int64_t i = 0; i < m; i++) v[i] = value_at(t, hv, i);
    int64_t *left = malloc(8 * (size_t)m), *right = malloc(8 * (size_t)m);
    for (int64_t j = 0; j < m; j++) {
        left[j] = right[j] = 0;
        for (int64_t i = 0; i < n; i++) {
            int c = order(a[i], v[j]);
            left[j] += c < 0;
            right[j] += c <= 0;
        }
    }
    searchsorted_on_device(what, t, layout, n, ha, hs, perm, perm32, hv, left, right);
    free(ha), free(hv), free(hs), free(perm), free(perm32), free(a), free(v), free(left), free(right);
}

static void check_digitize(ga_dtype t, int64_t n, int layout)
{
    if (layout == LAYOUT_TRANSPOSED) layout = LAYOUT_REVERSED; /* bins are 1-d */
    char what[160];
    describe(what, sizeof what, "digitize", t, n, layout);
    size_t sz = ga_dtype_itemsize(t);
    int64_t nb = 0, m = 1001;
    unsigned char *hb = malloc(64 * sz + 1), *hx = malloc((size_t)(m * (int64_t)sz));
    fill_dups(hx, m, t, 40);
    /* bins: distinct sorted values (no NaN), increasing */
    unsigned char *pool = malloc(64 * sz + 1);
    fill_dups(pool, 64, t, 40);
    sort_elements(pool, 64, t, NULL);
    for (int64_t i = 0; i < 64 && nb < (n < 40 ? n : 40); i++) {
        long double y = value_at(t, pool, i);
        if (isnan(y) || (nb && order(y, value_at(t, hb, (nb - 1))) == 0)) continue;
        memcpy(hb + nb * sz, pool + i * sz, sz);
        nb++;
    }
    for (int dec = 0; dec < 2; dec++) {
        unsigned char *bins = malloc((size_t)(nb ? nb : 1) * sz);
        for (int64_t i = 0; i < nb; i++) memcpy(bins + i * sz, hb + (dec ? nb - 1 - i : i) * sz, sz);
        ga_array *db = upload(bins, nb, t, layout), *dx = ga_from_host(hx, 1, &m, t);
        for (int right = 0; right < 2 && db && dx; right++) {
            int64_t *want = malloc(8 * (size_t)m);
            for (int64_t j = 0; j < m; j++) {
                long double x = value_at(t, hx, j);
                want[j] = 0;
                for (int64_t i = 0; i < nb; i++) {
                    int c = order(value_at(t, hb, i), x); /* bin value vs x */
                    want[j] += dec ? (right ? c >= 0 : c > 0) : (right ? c < 0 : c <= 0);
                }
            }
            char w2[320];
            snprintf(w2, sizeof w2, "%s (%lld bins) %s right=%d", what, (long long)nb, dec ? "decreasing" : "increasing",
                     right);
            ga_array *r = ga_digitize(dx, db, right);
            CHECK(r != NULL, "%s: %s", w2, ga_last_error_message());
            if (r) check_ints(w2, "result", r, want, m);
            ga_release(r);
            free(want);
        }
        ga_clear_error();
        ga_release(db);
        ga_release(dx);
        free(bins);
    }
    free(hb), free(hx), free(pool);
}

#define SEARCH_TEST(name, T)                                     \
    DEVICE_TEST(searchsorted_##name)                             \
    {                                                            \
        for (int s = 0; s < NUM_SIZES - 1; s++)                  \
            check_searchsorted(T, SIZES[s], s % NUM_LAYOUTS);    \
        for (int s = 0; s < 4; s++) check_digitize(T, SIZES[s] + 2, s % NUM_LAYOUTS); \
        check_digitize(T, 40, LAYOUT_REVERSED);                  \
    }
SEARCH_TEST(bool, GA_BOOL)
SEARCH_TEST(int8, GA_INT8)
SEARCH_TEST(int16, GA_INT16)
SEARCH_TEST(int32, GA_INT32)
SEARCH_TEST(int64, GA_INT64)
SEARCH_TEST(uint8, GA_UINT8)
SEARCH_TEST(uint16, GA_UINT16)
SEARCH_TEST(uint32, GA_UINT32)
SEARCH_TEST(uint64, GA_UINT64)
SEARCH_TEST(float16, GA_FLOAT16)
SEARCH_TEST(bfloat16, GA_BFLOAT16)
SEARCH_TEST(float32, GA_FLOAT32)
SEARCH_TEST(float64, GA_FLOAT64)

/* Promotion: int32 a searched for float64 v compares as float64. */
DEVICE_TEST(searchsorted_mixed_dtypes)
{
    int32_t ha[4] = {1, 2, 3, 4};
    double hv[3] = {2.5, -0.0, NAN};
    int64_t na = 4, nv = 3, want[3] = {2, 0, 4}, got[3] = {0, 0, 0};
    ga_array *a = ga_from_host(ha, 1, &na, GA_INT32), *v = ga_from_host(hv, 1, &nv, GA_FLOAT64);
    ga_array *r = ga_searchsorted(a, v, GA_SIDE_LEFT, NULL);
    CHECK(r && download(r, got) && !memcmp(got, want, sizeof want), "searchsorted int32 / float64: %lld %lld %lld",
          (long long)got[0], (long long)got[1], (long long)got[2]);
    ga_release(r);
    ga_release(a);
    ga_release(v);
}

/* ------------------------------------------------------------------------ */
/* isin and the set operations                                                 */
/* ------------------------------------------------------------------------ */

static bool contains(const long double *set, int64_t k, long double x)
{
    for (int64_t i = 0; i < k; i++)
        if (same(set[i], x)) return true;
    return false;
}

/* NumPy's intersect1d after its unique step: in the stable sorted
   concatenation of x (n1 values) and y (n2), each element equal to the
   next one (NaN equal to nothing) gives its value, its position (i1) and
   the next one's less n1 (i2). Returns their number. */
static int64_t ref_intersect(const long double *x, int64_t n1, const long double *y, int64_t n2, long double *values,
                             int64_t *i1, int64_t *i2)
{
    int64_t n = n1 + n2, k = 0;
    item *it = malloc(sizeof(item) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) it[i] = (item){i < n1 ? x[i] : y[i - n1], i};
    qsort(it, (size_t)n, sizeof(item), compare_items);
    for (int64_t p = 0; p + 1 < n; p++)
        if (same(it[p].v, it[p + 1].v)) {
            values[k] = it[p].v, i1[k] = it[p].i, i2[k] = it[p + 1].i - n1;
            k++;
        }
    free(it);
    return k;
}

static void check_set_ops(ga_dtype t, int64_t na, int64_t nb, int layout)
{
    char what[160];
    describe(what, sizeof what, "sets", t, na, layout);
    size_t sz = ga_dtype_itemsize(t);
    int spread = na < 100 ? 16 : 300;
    unsigned char *ha = malloc((size_t)(na ? na : 1) * sz), *hb = malloc((size_t)(nb ? nb : 1) * sz);
    fill_dups(ha, na, t, spread);
    fill_dups(hb, nb, t, spread);
    long double *xa = malloc(sizeof(long double) * (size_t)(na + 1)), *xb = malloc(sizeof(long double) * (size_t)(nb + 1));
    for (int64_t i = 0; i < na; i++) xa[i] = value_at(t, ha, i);
    for (int64_t i = 0; i < nb; i++) xb[i] = value_at(t, hb, i);
    long double *ua = malloc(sizeof(long double) * (size_t)(na + 1)), *ub = malloc(sizeof(long double) * (size_t)(nb + 1));
    int64_t *fa = malloc(8 * (size_t)(na + 1)), *fb = malloc(8 * (size_t)(nb + 1));
    int64_t *ca = malloc(8 * (size_t)(na + 1)), *cb = malloc(8 * (size_t)(nb + 1));
    int64_t ka = ref_unique(xa, na, true, ua, fa, ca, NULL), kb = ref_unique(xb, nb, true, ub, fb, cb, NULL);
    size_t cap = (size_t)(na + nb + 2);
    long double *want = calloc(cap, sizeof(long double));
    int64_t *w1 = calloc(cap, 8), *w2 = calloc(cap, 8), k;
    ga_array *a = upload(ha, na, t, layout), *b = ga_from_host(hb, 1, &nb, t);
    CHECK(a && b, "%s: upload: %s", what, ga_last_error_message());
    if (a && b) {
        /* isin, with a's shape */
        ga_array *in = ga_isin(a, b, false), *out = ga_isin(a, b, true);
        CHECK(in && out && ga_dtype_of(in) == GA_BOOL && ga_ndim(in) == ga_ndim(a), "%s: isin: %s", what,
              ga_last_error_message());
        if (in && out) {
            bool *gi = malloc((size_t)na + 1), *go = malloc((size_t)na + 1);
            if ((na == 0 || (download(in, gi) && download(out, go))))
                for (int64_t i = 0; i < na; i++) {
                    bool w = contains(xb, nb, xa[i]);
                    CHECK(gi[i] == w && go[i] == !w, "%s: isin[%lld] of %Lg is %d (invert %d), expected %d", what,
                          (long long)i, xa[i], gi[i], go[i], w);
                    if (gi[i] != w || go[i] == w) break;
                }
            free(gi);
            free(go);
        }
        ga_release(in);
        ga_release(out);
        /* union1d: unique of both */
        long double *both = malloc(sizeof(long double) * cap);
        memcpy(both, xa, sizeof(long double) * (size_t)na);
        memcpy(both + na, xb, sizeof(long double) * (size_t)nb);
        int64_t *f = malloc(8 * cap), *c = malloc(8 * cap);
        k = ref_unique(both, na + nb, true, want, f, c, NULL);
        ga_array *r = ga_union1d(a, b);
        CHECK(r != NULL, "%s: union1d: %s", what, ga_last_error_message());
        if (r) check_values("union1d", r, want, k, true);
        ga_release(r);
        /* intersect1d with indices */
        k = 0;
        for (int64_t i = 0; i < ka; i++)
            for (int64_t j = 0; j < kb; j++)
                if (same(ua[i], ub[j])) {
                    want[k] = ua[i], w1[k] = fa[i], w2[k] = fb[j];
                    k++;
                }
        ga_array *i1 = NULL, *i2 = NULL;
        r = ga_intersect1d(a, b, false, &i1, &i2);
        CHECK(r != NULL, "%s: intersect1d: %s", what, ga_last_error_message());
        if (r) {
            check_values("intersect1d", r, want, k, true);
            check_ints(what, "intersect1d indices1", i1, w1, k);
            check_ints(what, "intersect1d indices2", i2, w2, k);
        }
        ga_release(r), ga_release(i1), ga_release(i2);
        r = ga_intersect1d(a, b, false, NULL, NULL);
        CHECK(r != NULL, "%s: intersect1d (no indices): %s", what, ga_last_error_message());
        if (r) check_values("intersect1d (no indices)", r, want, k, true);
        ga_release(r);
        /* b of another dtype (exactly converted): NumPy's steps in the
           promoted dtype, the same values and indices */
        if (t == GA_FLOAT16 || t == GA_BFLOAT16 || t == GA_FLOAT32) {
            ga_array *b64 = ga_astype(b, GA_FLOAT64);
            r = ga_intersect1d(a, b64, false, &i1, &i2);
            CHECK(r && ga_dtype_of(r) == GA_FLOAT64, "%s: intersect1d(b as float64): %s", what, ga_last_error_message());
            if (r) {
                check_values("intersect1d(b as float64)", r, want, k, true);
                check_ints(what, "intersect1d(b as float64) indices1", i1, w1, k);
                check_ints(what, "intersect1d(b as float64) indices2", i2, w2, k);
            }
            ga_release(r), ga_release(i1), ga_release(i2), ga_release(b64);
        }
        /* intersect1d(assume_unique): NumPy's steps on a and b as they are,
           so their repeated values repeat */
        k = ref_intersect(xa, na, xb, nb, want, w1, w2);
        r = ga_intersect1d(a, b, true, &i1, &i2);
        CHECK(r != NULL, "%s: intersect1d(assume_unique): %s", what, ga_last_error_message());
        if (r) {
            check_values("intersect1d(assume_unique)", r, want, k, true);
            check_ints(what, "intersect1d(assume_unique) indices1", i1, w1, k);
            check_ints(what, "intersect1d(assume_unique) indices2", i2, w2, k);
        }
        ga_release(r), ga_release(i1), ga_release(i2);
        /* setdiff1d: unique a not in b */
        k = 0;
        for (int64_t i = 0; i < ka; i++)
            if (!contains(xb, nb, ua[i])) want[k++] = ua[i];
        r = ga_setdiff1d(a, b, false);
        CHECK(r != NULL, "%s: setdiff1d: %s", what, ga_last_error_message());
        if (r) check_values("setdiff1d", r, want, k, true);
        ga_release(r);
        /* setdiff1d(assume_unique): a flattened, those in b left out, in order */
        k = 0;
        for (int64_t i = 0; i < na; i++)
            if (!contains(xb, nb, xa[i])) want[k++] = xa[i];
        r = ga_setdiff1d(a, b, true);
        CHECK(r != NULL, "%s: setdiff1d(assume_unique): %s", what, ga_last_error_message());
        if (r) check_values("setdiff1d(assume_unique)", r, want, k, false);
        ga_release(r);
        /* setxor1d: in exactly one unique set, every NaN of theirs kept */
        k = 0;
        for (int64_t i = 0; i < ka; i++)
            if (!isnan(ua[i]) && !contains(ub, kb, ua[i])) want[k++] = ua[i];
        for (int64_t j = 0; j < kb; j++)
            if (!isnan(ub[j]) && !contains(ua, ka, ub[j])) want[k++] = ub[j];
        qsort(want, (size_t)k, sizeof(long double), compare_values);
        if (ka && isnan(ua[ka - 1])) want[k++] = NAN;
        if (kb && isnan(ub[kb - 1])) want[k++] = NAN;
        r = ga_setxor1d(a, b, false);
        CHECK(r != NULL, "%s: setxor1d: %s", what, ga_last_error_message());
        if (r) check_values("setxor1d", r, want, k, true);
        ga_release(r);
        free(both), free(f), free(c);
    }
    ga_clear_error();
    ga_release(a);
    ga_release(b);
    free(ha), free(hb), free(xa), free(xb), free(ua), free(ub), free(fa), free(fb), free(ca), free(cb);
    free(want), free(w1), free(w2);
}

#define SET_TEST(name, T)                                                          \
    DEVICE_TEST(sets_##name)                                                       \
    {                                                                              \
        for (int s = 0; s < NUM_SIZES - 1; s++)                                    \
            for (int l = 0; l < NUM_LAYOUTS; l++)                                  \
                if (test_sample(s * NUM_LAYOUTS + l, 3))                           \
                    check_set_ops(T, SIZES[s], SIZES[(s + 2) % (NUM_SIZES - 1)], l); \
        check_set_ops(T, 3001, 0, LAYOUT_CONTIGUOUS);                              \
    }
SET_TEST(bool, GA_BOOL)
SET_TEST(int8, GA_INT8)
SET_TEST(int16, GA_INT16)
SET_TEST(int32, GA_INT32)
SET_TEST(int64, GA_INT64)
SET_TEST(uint8, GA_UINT8)
SET_TEST(uint16, GA_UINT16)
SET_TEST(uint32, GA_UINT32)
SET_TEST(uint64, GA_UINT64)
SET_TEST(float16, GA_FLOAT16)
SET_TEST(bfloat16, GA_BFLOAT16)
SET_TEST(float32, GA_FLOAT32)
SET_TEST(float64, GA_FLOAT64)

/* Mixed dtypes promote: int8 with uint8 is int16; setdiff1d keeps a's. */
DEVICE_TEST(sets_mixed_dtypes)
{
    int8_t ha[4] = {-1, 5, 7, 7};
    uint8_t hb[3] = {255, 7, 5};
    int64_t n4 = 4, n3 = 3;
    ga_array *a = ga_from_host(ha, 1, &n4, GA_INT8), *b = ga_from_host(hb, 1, &n3, GA_UINT8);
    ga_array *u = ga_union1d(a, b), *d = ga_setdiff1d(a, b, false), *x = ga_intersect1d(a, b, false, NULL, NULL);
    CHECK(u && ga_dtype_of(u) == GA_INT16 && ga_size(u) == 4, "union1d(int8, uint8): int16 of 4");
    CHECK(d && ga_dtype_of(d) == GA_INT8 && ga_size(d) == 1, "setdiff1d(int8, uint8): int8 of 1");
    CHECK(x && ga_dtype_of(x) == GA_INT16 && ga_size(x) == 2, "intersect1d(int8, uint8): int16 of 2");
    int16_t gu[4] = {0};
    if (u && download(u, gu)) CHECK(gu[0] == -1 && gu[1] == 5 && gu[2] == 7 && gu[3] == 255, "union1d values");
    ga_release(u), ga_release(d), ga_release(x), ga_release(a), ga_release(b);
}

/* ------------------------------------------------------------------------ */
/* Complex inputs                                                              */
/* ------------------------------------------------------------------------ */
/* Elements are kept as their bytes; the references order them by their
   exact parts in NumPy's complex order. A value a set function computes
   is an input element with each zero part +0.0 and each NaN part the
   positive quiet NaN (canonical), compared byte for byte. */

static const ga_dtype COMPLEX_DTYPES[] = {GA_COMPLEX64, GA_COMPLEX128};

/* NumPy's NaN groups, in its order: 0 no NaN part, 1 R + nanj, 2 nan + Rj,
   3 nan + nanj. */
static int nan_group(elem x) { return 2 * (isnan(x.re) != 0) + (isnan(x.im) != 0); }

/* NumPy's complex order: by NaN group, then by the parts that are not NaN,
   the real one first; -0.0 == +0.0. */
static int corder(elem x, elem y)
{
    int gx = nan_group(x), gy = nan_group(y);
    if (gx != gy) return (gx > gy) - (gx < gy);
    int c = isnan(x.re) ? 0 : (x.re > y.re) - (x.re < y.re);
    if (c || isnan(x.im)) return c;
    return (x.im > y.im) - (x.im < y.im);
}

/* Set equality: an element with a NaN part equals nothing. */
static bool csame(elem x, elem y) { return !nan_group(x) && !nan_group(y) && x.re == y.re && x.im == y.im; }

/* n random elements, a quarter of them copies of earlier ones; each part
   an integer from about `spread` (duplicates), NaN of both signs and two
   payloads, an infinity, a zero of either sign or a fraction. */
static void fill_complex(unsigned char *h, int64_t n, ga_dtype t, int spread)
{
    const ref_mix mix = {.classes = 32, .nan = 1, .neg_nan = 1, .zero = 1, .neg_zero = 2, .inf = 1, .small = 21,
                         .small_count = spread, .small_offset = spread / 2, .span = 1000,
                         .nan32 = 0x7fc00001u, .nan64 = 0x7ff8000000000001ull};
    const fill_spec parts = {.mix = &mix};
    size_t sz = isz(t);
    for (int64_t i = 0; i < n; i++) {
        unsigned char *p = h + (size_t)i * sz;
        if (i > 0 && rnd() % 4 == 0) {
            memcpy(p, h + (size_t)(rnd() % (uint64_t)i) * sz, sz);
        } else {
            fill_random(p, 1, t, &parts);
        }
    }
}

/* An element as the set functions compute it: zero parts +0.0, NaN parts
   the positive quiet NaN. */
static void canonical(unsigned char *dst, const unsigned char *src, ga_dtype t)
{
    size_t half = ga_dtype_itemsize(t) / 2;
    for (size_t k = 0; k < 2; k++) {
        if (t == GA_COMPLEX64) {
            float f;
            uint32_t u;
            memcpy(&f, src + k * half, 4);
            memcpy(&u, src + k * half, 4);
            if (isnan(f)) u = 0x7fc00000u;
            else if (f == 0) u = 0;
            memcpy(dst + k * half, &u, 4);
        } else {
            double f;
            uint64_t u;
            memcpy(&f, src + k * half, 8);
            memcpy(&u, src + k * half, 8);
            if (isnan(f)) u = 0x7ff8000000000000ull;
            else if (f == 0) u = 0;
            memcpy(dst + k * half, &u, 8);
        }
    }
}

/* got is a 1-d array of t holding exactly the k elements at want. */
static void check_celements(const char *what, const ga_array *got, const unsigned char *want, int64_t k, ga_dtype t)
{
    CHECK(got && ga_size(got) == k && ga_dtype_of(got) == t && ga_ndim(got) == 1,
          "%s: %s[%lld] (ndim %d), expected %s[%lld]", what, got ? ga_dtype_name(ga_dtype_of(got)) : "-",
          got ? (long long)ga_size(got) : -1LL, got ? ga_ndim(got) : -1, ga_dtype_name(t), (long long)k);
    if (!got || ga_size(got) != k || ga_dtype_of(got) != t) return;
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *g = malloc((size_t)(k ? k : 1) * sz);
    if (k == 0 || download(got, g))
        for (int64_t i = 0; i < k; i++)
            if (memcmp(g + (size_t)i * sz, want + (size_t)i * sz, sz)) {
                elem x = load(t, g + (size_t)i * sz), y = load(t, want + (size_t)i * sz);
                CHECK(false, "%s: element [%lld] is %Lg%+Lgj (sign bits %d %d), expected %Lg%+Lgj (%d %d)", what,
                      (long long)i, x.re, x.im, signbit(x.re) != 0, signbit(x.im) != 0, y.re, y.im,
                      signbit(y.re) != 0, signbit(y.im) != 0);
                break;
            }
    free(g);
}

/* Elements with their positions, sorted stably in NumPy's order. */
typedef struct citem {
    elem v;
    int64_t i;
} citem;

static int compare_citems(const void *pa, const void *pb)
{
    const citem *a = pa, *b = pb;
    int c = corder(a->v, b->v);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static citem *sorted_citems(const unsigned char *h, int64_t n, ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    citem *it = malloc(sizeof(citem) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) it[i] = (citem){load(t, h + (size_t)i * sz), i};
    qsort(it, (size_t)n, sizeof(citem), compare_citems);
    return it;
}

/* The reference unique of the n elements at h: runs of equal elements in
   the sorted order (the elements with a NaN part one run when equal_nan,
   each its own run else); per run its first element (canonical) to
   values, that element's index to first and the run's length to counts;
   each element's run to inverse (may be NULL). Returns the number of runs. */
static int64_t ref_unique_c(const unsigned char *h, int64_t n, ga_dtype t, bool equal_nan, unsigned char *values,
                            int64_t *first, int64_t *counts, int64_t *inverse)
{
    size_t sz = ga_dtype_itemsize(t);
    citem *it = sorted_citems(h, n, t);
    int64_t k = 0;
    for (int64_t p = 0; p < n; p++) {
        bool start = p == 0;
        if (!start && nan_group(it[p].v)) start = !equal_nan || !nan_group(it[p - 1].v);
        else if (!start) start = corder(it[p].v, it[p - 1].v) != 0;
        if (start) {
            canonical(values + (size_t)k * sz, h + (size_t)it[p].i * sz, t);
            first[k] = it[p].i;
            counts[k] = 0;
            k++;
        }
        counts[k - 1]++;
        if (inverse) inverse[it[p].i] = k - 1;
    }
    free(it);
    return k;
}

static void check_unique_c(ga_dtype t, int64_t n, int layout, bool equal_nan, int form)
{
    char what[160];
    describe(what, sizeof what, equal_nan ? "unique" : "unique(equal_nan=False)", t, n, layout);
    size_t sz = ga_dtype_itemsize(t), cap = (size_t)(n ? n : 1);
    unsigned char *h = malloc(cap * sz), *values = malloc(cap * sz);
    int64_t *first = malloc(8 * cap), *counts = malloc(8 * cap), *inverse = malloc(8 * cap);
    fill_complex(h, n, t, n < 100 ? 4 : 40);
    int64_t k = ref_unique_c(h, n, t, equal_nan, values, first, counts, inverse);
    ga_array *a = upload(h, n, t, layout);
    CHECK(a != NULL, "%s: upload: %s", what, ga_last_error_message());
    if (a) {
        ga_array *idx = NULL, *inv = NULL, *cnt = NULL, *u = NULL;
        poison_next(cap * sz);
        u = unique_form(a, form, equal_nan, &idx, &inv, &cnt);
        CHECK(u != NULL, "%s: %s", what, ga_last_error_message());
        if (u) {
            check_celements(what, u, values, k, t);
            if (idx) check_ints(what, "index", idx, first, k);
            if (cnt) check_ints(what, "counts", cnt, counts, k);
            if (inv) {
                CHECK(ga_ndim(inv) == ga_ndim(a) && ga_shape(inv)[0] == ga_shape(a)[0], "%s: inverse shape", what);
                check_ints(what, "inverse", inv, inverse, n);
            }
        }
        ga_release(u), ga_release(idx), ga_release(inv), ga_release(cnt);
    }
    ga_clear_error();
    ga_release(a);
    free(h), free(values), free(first), free(counts), free(inverse);
}

#define UNIQUE_COMPLEX_TEST(name, T)                                                  \
    DEVICE_TEST(unique_##name)                                                        \
    {                                                                                 \
        for (int s = 0; s < NUM_SIZES; s++)                                           \
            for (int l = 0; l < NUM_LAYOUTS; l++) {                                   \
                check_unique_c(T, SIZES[s], l, true, (s + l) % 2);                    \
                check_unique_c(T, SIZES[s], l, false, 2 + (s + l) % 4);               \
            }                                                                         \
        check_unique_c(T, 1000003, LAYOUT_CONTIGUOUS, true, 0);                       \
        check_unique_c(T, 1000003, LAYOUT_REVERSED, false, 0);                        \
    }
UNIQUE_COMPLEX_TEST(complex64, GA_COMPLEX64)
UNIQUE_COMPLEX_TEST(complex128, GA_COMPLEX128)

/* A 0-d complex input: one value, canonical; its inverse is 0-d. */
DEVICE_TEST(unique_complex_zero_d)
{
    for (int c = 0; c < 2; c++) {
        ga_dtype t = COMPLEX_DTYPES[c];
        unsigned char h[16], want[16];
        store(t, -0.0, -NAN, h);
        canonical(want, h, t);
        ga_array *a = ga_from_host(h, 0, NULL, t), *inv = NULL;
        ga_array *u = ga_unique(a, NULL, &inv, NULL, true);
        CHECK(u && inv && ga_ndim(inv) == 0, "unique of a 0-d %s: %s", ga_dtype_name(t), ga_last_error_message());
        check_celements("unique of a 0-d array", u, want, 1, t);
        ga_release(u), ga_release(inv), ga_release(a);
    }
}

/* NumPy's own results on its example (np.unique with the index, inverse
   and counts, so its sorting unique): the NaN groups, -0.0 and +0.0. */
DEVICE_TEST(unique_complex_as_numpy)
{
    static const double parts[9][2] = {{NAN, 1}, {2, NAN}, {1, NAN}, {NAN, NAN}, {1, 1},
                                       {NAN, 0}, {1, 1},   {-0.0, 0}, {0, -0.0}};
    static const double eq[3][2] = {{0, 0}, {1, 1}, {1, NAN}};
    static const double apart[7][2] = {{0, 0}, {1, 1}, {1, NAN}, {2, NAN}, {NAN, 0}, {NAN, 1}, {NAN, NAN}};
    static const int64_t eq_index[3] = {7, 4, 2}, eq_inverse[9] = {2, 2, 2, 2, 1, 2, 1, 0, 0}, eq_counts[3] = {2, 2, 5};
    static const int64_t apart_index[7] = {7, 4, 2, 1, 5, 0, 3}, apart_inverse[9] = {5, 3, 2, 6, 1, 4, 1, 0, 0};
    static const int64_t apart_counts[7] = {2, 2, 1, 1, 1, 1, 1};
    for (int c = 0; c < 2; c++) {
        ga_dtype t = COMPLEX_DTYPES[c];
        size_t sz = ga_dtype_itemsize(t);
        unsigned char h[9 * 16], weq[3 * 16], wapart[7 * 16], raw[16];
        for (int i = 0; i < 9; i++) store(t, parts[i][0], parts[i][1], h + i * sz);
        for (int i = 0; i < 3; i++) store(t, eq[i][0], eq[i][1], raw), canonical(weq + i * sz, raw, t);
        for (int i = 0; i < 7; i++) store(t, apart[i][0], apart[i][1], raw), canonical(wapart + i * sz, raw, t);
        int64_t n = 9;
        ga_array *a = ga_from_host(h, 1, &n, t);
        for (int e = 0; e < 2; e++) {
            ga_array *idx = NULL, *inv = NULL, *cnt = NULL;
            ga_array *u = ga_unique(a, &idx, &inv, &cnt, e == 0);
            char what[96];
            snprintf(what, sizeof what, "unique %s equal_nan=%d", ga_dtype_name(t), e == 0);
            CHECK(u != NULL, "%s: %s", what, ga_last_error_message());
            check_celements(what, u, e == 0 ? weq : wapart, e == 0 ? 3 : 7, t);
            check_ints(what, "index", idx, e == 0 ? eq_index : apart_index, e == 0 ? 3 : 7);
            check_ints(what, "inverse", inv, e == 0 ? eq_inverse : apart_inverse, 9);
            check_ints(what, "counts", cnt, e == 0 ? eq_counts : apart_counts, e == 0 ? 3 : 7);
            ga_release(u), ga_release(idx), ga_release(inv), ga_release(cnt);
        }
        ga_release(a);
    }
    /* complex128 values apart only beyond float32's precision stay apart */
    double e40 = ldexp(1.0, -40), hv[8] = {1, 1, 1, 1 + e40, 1 + e40, 1, 1, 1};
    int64_t four = 4;
    ga_array *a = ga_from_host(hv, 1, &four, GA_COMPLEX128), *u = ga_unique(a, NULL, NULL, NULL, true);
    CHECK(u && ga_size(u) == 3, "unique of complex128 apart by 2**-40: %lld values, expected 3",
          u ? (long long)ga_size(u) : -1LL);
    ga_release(u), ga_release(a);
}

/* Sorts n elements of t in place (NumPy's complex order), their original
   positions to perm. */
static void sort_celements(unsigned char *h, int64_t n, ga_dtype t, int64_t *perm)
{
    size_t sz = ga_dtype_itemsize(t);
    citem *it = sorted_citems(h, n, t);
    unsigned char *tmp = malloc((size_t)(n ? n : 1) * sz);
    for (int64_t i = 0; i < n; i++) {
        memcpy(tmp + (size_t)i * sz, h + (size_t)it[i].i * sz, sz);
        if (perm) perm[i] = it[i].i;
    }
    memcpy(h, tmp, (size_t)n * sz);
    free(tmp);
    free(it);
}

static void check_searchsorted_c(ga_dtype t, int64_t n, int layout)
{
    char what[160];
    describe(what, sizeof what, "searchsorted", t, n, layout);
    size_t sz = ga_dtype_itemsize(t), cap = (size_t)(n ? n : 1);
    int64_t m = 2 * 257;
    unsigned char *ha = malloc(cap * sz), *hs = malloc(cap * sz), *hv = malloc((size_t)m * sz);
    int64_t *perm = malloc(8 * cap), *left = malloc(8 * (size_t)m), *right = malloc(8 * (size_t)m);
    int32_t *perm32 = malloc(4 * cap);
    fill_complex(ha, n, t, 6);
    fill_complex(hv, m, t, 6);
    memcpy(hs, ha, (size_t)n * sz);
    sort_celements(hs, n, t, perm);
    for (int64_t i = 0; i < n; i++) perm32[i] = (int32_t)perm[i];
    for (int64_t j = 0; j < m; j++) {
        elem v = load(t, hv + (size_t)j * sz);
        left[j] = right[j] = 0;
        for (int64_t i = 0; i < n; i++) {
            int c = corder(load(t, hs + (size_t)i * sz), v);
            left[j] += c < 0;
            right[j] += c <= 0;
        }
    }
    searchsorted_on_device(what, t, layout, n, ha, hs, perm, perm32, hv, left, right);
    free(ha), free(hs), free(hv), free(perm), free(perm32), free(left), free(right);
}

#define SEARCH_COMPLEX_TEST(name, T)                                   \
    DEVICE_TEST(searchsorted_##name)                                   \
    {                                                                  \
        for (int s = 0; s < NUM_SIZES - 1; s++)                        \
            check_searchsorted_c(T, SIZES[s], s % NUM_LAYOUTS);        \
        check_searchsorted_c(T, 1024, LAYOUT_REVERSED);                \
    }
SEARCH_COMPLEX_TEST(complex64, GA_COMPLEX64)
SEARCH_COMPLEX_TEST(complex128, GA_COMPLEX128)

/* NumPy's results: every NaN group among a and among the queries (one
   with a negative NaN), -0.0; a complex64 `a` and float64 v compare in
   complex128. */
DEVICE_TEST(searchsorted_complex_as_numpy)
{
    static const double a[10][2] = {{-1, 5}, {0, 0},   {1, -1},        {1, 1},   {1, INFINITY},
                                    {INFINITY, 0}, {1, NAN}, {INFINITY, NAN}, {NAN, 1}, {NAN, NAN}};
    static const double v[10][2] = {{1, NAN},      {0.5, NAN}, {NAN, 0},       {NAN, 2},   {NAN, NAN},
                                    {-0.0, -0.0},  {1, 0},     {INFINITY, 1},  {INFINITY, -NAN}, {-NAN, 1}};
    static const int64_t left[10] = {6, 6, 8, 9, 9, 1, 3, 6, 7, 8}, right[10] = {7, 6, 8, 9, 10, 2, 3, 6, 8, 9};
    int64_t n = 10;
    ga_array *da = ga_from_host(a, 1, &n, GA_COMPLEX128), *dv = ga_from_host(v, 1, &n, GA_COMPLEX128);
    ga_array *rl = ga_searchsorted(da, dv, GA_SIDE_LEFT, NULL), *rr = ga_searchsorted(da, dv, GA_SIDE_RIGHT, NULL);
    CHECK(rl && rr, "searchsorted complex128: %s", ga_last_error_message());
    check_ints("searchsorted complex128", "left", rl, left, 10);
    check_ints("searchsorted complex128", "right", rr, right, 10);
    bool in[10] = {0}, want_in[10] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    ga_array *isin = ga_isin(dv, da, false);
    CHECK(isin && download(isin, in) && !memcmp(in, want_in, sizeof in), "isin of complex NaN groups");
    ga_release(rl), ga_release(rr), ga_release(isin), ga_release(da), ga_release(dv);
    /* promotion to complex128 */
    float h64[8] = {1, 1, 2, -1, 2, 0, NAN, 0};
    double hq[4] = {2, 1, NAN, 2 + ldexp(1.0, -30)};
    int64_t four = 4, want[4] = {2, 0, 3, 3}, got[4] = {0};
    ga_array *c64 = ga_from_host(h64, 1, &four, GA_COMPLEX64), *q = ga_from_host(hq, 1, &four, GA_FLOAT64);
    ga_array *r = ga_searchsorted(c64, q, GA_SIDE_LEFT, NULL);
    CHECK(r && download(r, got) && !memcmp(got, want, sizeof want),
          "searchsorted(complex64, float64): %lld %lld %lld %lld, NumPy 2 0 3 3", (long long)got[0], (long long)got[1],
          (long long)got[2], (long long)got[3]);
    ga_release(r), ga_release(c64), ga_release(q);
}

/* NumPy's intersect1d after its unique step on the elements of x (n1) and
   y (n2): in their stable sorted concatenation, each element equal to the
   next one gives its value (canonical), its position (i1) and the next
   one's less n1 (i2). Returns their number. */
static int64_t ref_intersect_c(const unsigned char *x, int64_t n1, const unsigned char *y, int64_t n2, ga_dtype t,
                               unsigned char *values, int64_t *i1, int64_t *i2)
{
    size_t sz = ga_dtype_itemsize(t);
    int64_t n = n1 + n2, k = 0;
    unsigned char *both = malloc((size_t)(n ? n : 1) * sz);
    memcpy(both, x, (size_t)n1 * sz);
    memcpy(both + (size_t)n1 * sz, y, (size_t)n2 * sz);
    citem *it = sorted_citems(both, n, t);
    for (int64_t p = 0; p + 1 < n; p++)
        if (csame(it[p].v, it[p + 1].v)) {
            canonical(values + (size_t)k * sz, both + (size_t)it[p].i * sz, t);
            i1[k] = it[p].i, i2[k] = it[p + 1].i - n1;
            k++;
        }
    free(it);
    free(both);
    return k;
}

static bool contains_c(const unsigned char *h, int64_t n, ga_dtype t, elem x)
{
    size_t sz = ga_dtype_itemsize(t);
    for (int64_t i = 0; i < n; i++)
        if (csame(load(t, h + (size_t)i * sz), x)) return true;
    return false;
}

static void check_set_ops_c(ga_dtype t, int64_t na, int64_t nb, int layout)
{
    char what[160];
    describe(what, sizeof what, "sets", t, na, layout);
    size_t sz = ga_dtype_itemsize(t), cap = (size_t)(na + nb + 2);
    int spread = na < 100 ? 5 : 30;
    unsigned char *ha = malloc(cap * sz), *hb = malloc(cap * sz), *ua = malloc(cap * sz), *ub = malloc(cap * sz);
    unsigned char *want = malloc(cap * sz), *both = malloc(cap * sz);
    int64_t *fa = malloc(8 * cap), *fb = malloc(8 * cap), *ca = malloc(8 * cap), *cb = malloc(8 * cap);
    int64_t *w1 = malloc(8 * cap), *w2 = malloc(8 * cap), k;
    fill_complex(ha, na, t, spread);
    fill_complex(hb, nb, t, spread);
    int64_t ka = ref_unique_c(ha, na, t, true, ua, fa, ca, NULL), kb = ref_unique_c(hb, nb, t, true, ub, fb, cb, NULL);
    ga_array *a = upload(ha, na, t, layout), *b = ga_from_host(hb, 1, &nb, t);
    CHECK(a && b, "%s: upload: %s", what, ga_last_error_message());
    if (a && b) {
        /* isin, with a's shape */
        ga_array *in = ga_isin(a, b, false), *out = ga_isin(a, b, true);
        CHECK(in && out && ga_dtype_of(in) == GA_BOOL && ga_ndim(in) == ga_ndim(a), "%s: isin: %s", what,
              ga_last_error_message());
        if (in && out) {
            bool *gi = malloc(cap), *go = malloc(cap);
            if (na == 0 || (download(in, gi) && download(out, go)))
                for (int64_t i = 0; i < na; i++) {
                    bool w = contains_c(hb, nb, t, load(t, ha + (size_t)i * sz));
                    CHECK(gi[i] == w && go[i] == !w, "%s: isin[%lld] is %d (invert %d), expected %d", what,
                          (long long)i, gi[i], go[i], w);
                    if (gi[i] != w || go[i] == w) break;
                }
            free(gi), free(go);
        }
        ga_release(in), ga_release(out);
        /* union1d: unique of both */
        memcpy(both, ha, (size_t)na * sz);
        memcpy(both + (size_t)na * sz, hb, (size_t)nb * sz);
        k = ref_unique_c(both, na + nb, t, true, want, w1, w2, NULL);
        ga_array *r = ga_union1d(a, b);
        CHECK(r != NULL, "%s: union1d: %s", what, ga_last_error_message());
        check_celements("union1d", r, want, k, t);
        ga_release(r);
        /* intersect1d: of the unique inputs, indices through their first
           indices; with assume_unique, of the inputs as they are */
        for (int assume = 0; assume < 2; assume++) {
            k = assume ? ref_intersect_c(ha, na, hb, nb, t, want, w1, w2) : ref_intersect_c(ua, ka, ub, kb, t, want, w1, w2);
            for (int64_t i = 0; i < k && !assume; i++) w1[i] = fa[w1[i]], w2[i] = fb[w2[i] < 0 ? w2[i] + kb : w2[i]];
            ga_array *i1 = NULL, *i2 = NULL;
            r = ga_intersect1d(a, b, assume, &i1, &i2);
            char w3[200];
            snprintf(w3, sizeof w3, "%s intersect1d(assume_unique=%d)", what, assume);
            CHECK(r != NULL, "%s: %s", w3, ga_last_error_message());
            check_celements(w3, r, want, k, t);
            check_ints(w3, "indices1", i1, w1, k);
            check_ints(w3, "indices2", i2, w2, k);
            ga_release(r), ga_release(i1), ga_release(i2);
            r = ga_intersect1d(a, b, assume, NULL, NULL);
            check_celements(w3, r, want, k, t);
            ga_release(r);
            if (assume || t != GA_COMPLEX64) continue;
            /* b as complex128: NumPy's steps in complex128, the same
               elements and indices */
            unsigned char *wide = malloc(cap * 16);
            for (int64_t i = 0; i < k; i++) {
                elem x = load(t, want + (size_t)i * sz);
                store(GA_COMPLEX128, x.re, x.im, wide + (size_t)i * 16);
            }
            ga_array *b128 = ga_astype(b, GA_COMPLEX128);
            r = ga_intersect1d(a, b128, false, &i1, &i2);
            check_celements("intersect1d(b as complex128)", r, wide, k, GA_COMPLEX128);
            check_ints(what, "intersect1d(b as complex128) indices1", i1, w1, k);
            check_ints(what, "intersect1d(b as complex128) indices2", i2, w2, k);
            ga_release(r), ga_release(i1), ga_release(i2), ga_release(b128);
            free(wide);
        }
        /* setdiff1d: unique a not in b; with assume_unique a's elements
           (unchanged) not in b, in order */
        k = 0;
        for (int64_t i = 0; i < ka; i++)
            if (!contains_c(hb, nb, t, load(t, ua + (size_t)i * sz)))
                memcpy(want + (size_t)(k++) * sz, ua + (size_t)i * sz, sz);
        r = ga_setdiff1d(a, b, false);
        CHECK(r != NULL, "%s: setdiff1d: %s", what, ga_last_error_message());
        check_celements("setdiff1d", r, want, k, t);
        ga_release(r);
        k = 0;
        for (int64_t i = 0; i < na; i++)
            if (!contains_c(hb, nb, t, load(t, ha + (size_t)i * sz)))
                memcpy(want + (size_t)(k++) * sz, ha + (size_t)i * sz, sz);
        r = ga_setdiff1d(a, b, true);
        CHECK(r != NULL, "%s: setdiff1d(assume_unique): %s", what, ga_last_error_message());
        check_celements("setdiff1d(assume_unique)", r, want, k, t);
        ga_release(r);
        /* setxor1d: the unique values in exactly one input, and each
           input's one NaN element (unequal to every other), sorted */
        k = 0;
        for (int64_t i = 0; i < ka + kb; i++) {
            const unsigned char *p = i < ka ? ua + (size_t)i * sz : ub + (size_t)(i - ka) * sz;
            elem x = load(t, p);
            if (nan_group(x) || !contains_c(i < ka ? ub : ua, i < ka ? kb : ka, t, x)) memcpy(want + (size_t)(k++) * sz, p, sz);
        }
        sort_celements(want, k, t, NULL);
        r = ga_setxor1d(a, b, false);
        CHECK(r != NULL, "%s: setxor1d: %s", what, ga_last_error_message());
        check_celements("setxor1d", r, want, k, t);
        ga_release(r);
    }
    ga_clear_error();
    ga_release(a), ga_release(b);
    free(ha), free(hb), free(ua), free(ub), free(want), free(both);
    free(fa), free(fb), free(ca), free(cb), free(w1), free(w2);
}

#define SET_COMPLEX_TEST(name, T)                                                  \
    DEVICE_TEST(sets_##name)                                                       \
    {                                                                              \
        for (int s = 0; s < NUM_SIZES - 1; s++)                                    \
            for (int l = 0; l < NUM_LAYOUTS; l++) check_set_ops_c(T, SIZES[s], SIZES[(s + 2) % (NUM_SIZES - 1)], l); \
        check_set_ops_c(T, 3001, 0, LAYOUT_CONTIGUOUS);                            \
        check_set_ops_c(T, 0, 5, LAYOUT_CONTIGUOUS);                               \
    }
SET_COMPLEX_TEST(complex64, GA_COMPLEX64)
SET_COMPLEX_TEST(complex128, GA_COMPLEX128)

/* NumPy's results on small complex inputs: a zero of either sign, a NaN
   element per input, promotion with real input; 0-d inputs. */
DEVICE_TEST(sets_complex_as_numpy)
{
    /* intersect1d([1+nanj, 1+2j, 3, -0+1j], [0+1j, 3, 1+nanj], return_indices) */
    double ha[8] = {1, NAN, 1, 2, 3, 0, -0.0, 1}, hb[6] = {0, 1, 3, 0, 1, NAN}, wi[4] = {0, 1, 3, 0};
    int64_t n4 = 4, n3 = 3, w1[2] = {3, 2}, w2[2] = {0, 1};
    ga_array *a = ga_from_host(ha, 1, &n4, GA_COMPLEX128), *b = ga_from_host(hb, 1, &n3, GA_COMPLEX128);
    ga_array *i1 = NULL, *i2 = NULL, *r = ga_intersect1d(a, b, false, &i1, &i2);
    check_celements("intersect1d complex128", r, (const unsigned char *)wi, 2, GA_COMPLEX128);
    check_ints("intersect1d complex128", "indices1", i1, w1, 2);
    check_ints("intersect1d complex128", "indices2", i2, w2, 2);
    ga_release(r), ga_release(i1), ga_release(i2), ga_release(a), ga_release(b);
    /* setxor1d([2+nanj, 1+1j], [1+nanj, 1+1j, 5]): each input's NaN kept */
    double xa[4] = {2, NAN, 1, 1}, xb[6] = {1, NAN, 1, 1, 5, 0};
    unsigned char wx[48];
    double wxv[6] = {5, 0, 1, NAN, 2, NAN};
    for (int i = 0; i < 3; i++) canonical(wx + 16 * i, (const unsigned char *)(wxv + 2 * i), GA_COMPLEX128);
    a = ga_from_host(xa, 1, (int64_t[]){2}, GA_COMPLEX128), b = ga_from_host(xb, 1, &n3, GA_COMPLEX128);
    r = ga_setxor1d(a, b, false);
    check_celements("setxor1d complex128", r, wx, 3, GA_COMPLEX128);
    ga_release(r), ga_release(a), ga_release(b);
    /* union1d(complex64 [1+2j, nan], float64 [1, 0.5]) is complex128 */
    float ua[4] = {1, 2, NAN, 0};
    double ub[2] = {1, 0.5}, wu[8] = {0.5, 0, 1, 0, 1, 2, NAN, 0};
    unsigned char wuc[64];
    for (int i = 0; i < 4; i++) canonical(wuc + 16 * i, (const unsigned char *)(wu + 2 * i), GA_COMPLEX128);
    int64_t n2 = 2;
    a = ga_from_host(ua, 1, &n2, GA_COMPLEX64), b = ga_from_host(ub, 1, &n2, GA_FLOAT64);
    r = ga_union1d(a, b);
    check_celements("union1d(complex64, float64)", r, wuc, 4, GA_COMPLEX128);
    ga_release(r), ga_release(a), ga_release(b);
    /* isin(float32 [1, 2, nan], complex64 [2, 1+1j]) */
    float fe[3] = {1, 2, NAN}, ft[4] = {2, 0, 1, 1};
    bool got[3] = {1, 0, 1}, want[3] = {0, 1, 0};
    a = ga_from_host(fe, 1, &n3, GA_FLOAT32), b = ga_from_host(ft, 1, &n2, GA_COMPLEX64);
    r = ga_isin(a, b, false);
    CHECK(r && download(r, got) && !memcmp(got, want, sizeof want), "isin(float32, complex64)");
    ga_release(r), ga_release(a), ga_release(b);
    /* 0-d inputs: isin keeps the 0-d shape; the set functions flatten */
    double z[2] = {-0.0, 1}, zt[4] = {0, 1, 7, 7};
    a = ga_from_host(z, 0, NULL, GA_COMPLEX128), b = ga_from_host(zt, 1, &n2, GA_COMPLEX128);
    r = ga_isin(a, b, false);
    bool one = false;
    CHECK(r && ga_ndim(r) == 0 && download(r, &one) && one, "isin of a 0-d complex128");
    ga_release(r);
    double wz[2] = {0, 1};
    r = ga_intersect1d(a, b, false, NULL, NULL);
    check_celements("intersect1d of a 0-d complex128", r, (const unsigned char *)wz, 1, GA_COMPLEX128);
    ga_release(r);
    r = ga_setdiff1d(b, a, false);
    check_celements("setdiff1d minus a 0-d complex128", r, (const unsigned char *)(zt + 2), 1, GA_COMPLEX128);
    ga_release(r), ga_release(a), ga_release(b);
}

/* intersect1d makes each input unique in its own dtype first, as NumPy:
   int64 values that are one float64 stay apart there and repeat. */
DEVICE_TEST(intersect1d_unique_in_own_dtype)
{
    int64_t big = (int64_t)1 << 53;
    int64_t ha[5] = {big + 1, big, 5, 5, big + 2};
    double hb[3] = {7, (double)big, 5}, wv[3] = {5, (double)big, (double)big};
    int64_t na = 5, nb = 3, w1[3] = {2, 1, 0}, w2[3] = {2, 0, 1};
    ga_array *a = ga_from_host(ha, 1, &na, GA_INT64), *b = ga_from_host(hb, 1, &nb, GA_FLOAT64);
    ga_array *i1 = NULL, *i2 = NULL, *r = ga_intersect1d(a, b, false, &i1, &i2);
    double got[3] = {0};
    CHECK(r && ga_dtype_of(r) == GA_FLOAT64 && ga_size(r) == 3 && download(r, got) && !memcmp(got, wv, sizeof wv),
          "intersect1d(int64, float64): %s", ga_last_error_message());
    check_ints("intersect1d(int64, float64)", "indices1", i1, w1, 3);
    check_ints("intersect1d(int64, float64)", "indices2", i2, w2, 3);
    ga_release(r), ga_release(i1), ga_release(i2);
    /* assume_unique: NumPy's raw positions, negative ones included */
    double wu[4] = {5, 5, (double)big, (double)big};
    int64_t u1[4] = {2, 3, 0, 1}, u2[4] = {-2, 2, -4, 1};
    r = ga_intersect1d(a, b, true, &i1, &i2);
    double gu[4] = {0};
    CHECK(r && ga_size(r) == 4 && download(r, gu) && !memcmp(gu, wu, sizeof wu), "intersect1d(assume_unique)");
    check_ints("intersect1d(int64, float64, assume_unique)", "indices1", i1, u1, 4);
    check_ints("intersect1d(int64, float64, assume_unique)", "indices2", i2, u2, 4);
    ga_release(r), ga_release(i1), ga_release(i2), ga_release(a), ga_release(b);
}

/* ------------------------------------------------------------------------ */
/* bincount, histogram                                                         */
/* ------------------------------------------------------------------------ */

static void check_bincount(ga_dtype t, int64_t n, int layout, int64_t minlength, ga_dtype wt)
{
    char what[200];
    describe(what, sizeof what, "bincount", t, n, layout);
    snprintf(what + strlen(what), sizeof what - strlen(what), " minlength=%lld weights=%s", (long long)minlength,
             wt == GA_DTYPE_INVALID ? "None" : ga_dtype_name(wt));
    size_t sz = ga_dtype_itemsize(t), wsz = wt == GA_DTYPE_INVALID ? 8 : ga_dtype_itemsize(wt);
    /* more than 8192 values: counters in global memory */
    int64_t top = t == GA_BOOL ? 2 : sz == 1 ? 100 : n > 5000 ? 9000 : 60;
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz), *hw = malloc((size_t)(n ? n : 1) * wsz);
    int64_t hi = -1;
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = rnd() % (uint64_t)top;
        memcpy(h + i * sz, &v, sz);
        if ((int64_t)value_at(t, h, i) > hi) hi = (int64_t)value_at(t, h, i);
    }
    if (wt != GA_DTYPE_INVALID) fill_dups(hw, n, wt, 50);
    for (int64_t i = 0; wt != GA_DTYPE_INVALID && i < n; i++) /* finite weights */
        if (!isfinite(value_at(wt, hw, i))) memset(hw + i * wsz, 0, wsz);
    int64_t nbins = hi + 1 > minlength ? hi + 1 : minlength;
    long double *want = calloc((size_t)(nbins ? nbins : 1), sizeof(long double));
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)value_at(t, h, i);
        want[v] += wt == GA_DTYPE_INVALID ? 1 : value_at(wt, hw, i);
    }
    ga_array *x = upload(h, n, t, layout), *w = wt == GA_DTYPE_INVALID ? NULL : upload(hw, n, wt, layout);
    if (x && ga_ndim(x) != 1) { /* bincount takes 1-d input: a strided one instead */
        ga_release(x);
        ga_release(w);
        x = upload(h, n, t, LAYOUT_REVERSED);
        w = wt == GA_DTYPE_INVALID ? NULL : upload(hw, n, wt, LAYOUT_REVERSED);
    }
    ga_array *r = x ? ga_bincount(x, w, minlength) : NULL;
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        ga_dtype rt = wt == GA_DTYPE_INVALID ? GA_INT64 : GA_FLOAT64;
        CHECK(ga_dtype_of(r) == rt && ga_size(r) == nbins, "%s: %s of %lld, expected %s of %lld", what,
              ga_dtype_name(ga_dtype_of(r)), (long long)ga_size(r), ga_dtype_name(rt), (long long)nbins);
        long double *g = ga_size(r) == nbins ? values_of(r) : NULL;
        for (int64_t i = 0; g && i < nbins; i++) {
            bool ok = fabsl(g[i] - want[i]) <= 1e-12L * (fabsl(want[i]) + 1) * (n + 1);
            CHECK(ok, "%s: [%lld] is %Lg, expected %Lg", what, (long long)i, g[i], want[i]);
            if (!ok) break;
        }
        free(g);
    }
    ga_clear_error();
    ga_release(r), ga_release(x), ga_release(w);
    free(h), free(hw), free(want);
}

DEVICE_TEST(bincount_all_dtypes)
{
    for (int d = 0; d < NUM_REAL; d++) {
        ga_dtype t = REAL_DTYPES[d];
        if (is_float(t)) continue;
        for (int s = 0; s < NUM_SIZES; s++) {
            check_bincount(t, SIZES[s], s % NUM_LAYOUTS, 0, GA_DTYPE_INVALID);
            check_bincount(t, SIZES[s], (s + 1) % NUM_LAYOUTS, 200, s % 2 ? GA_FLOAT32 : GA_FLOAT64);
        }
        check_bincount(t, 5, LAYOUT_CONTIGUOUS, 3, GA_INT32);
    }
}

/* NumPy's histogram edges for `bins` equal bins, as float64 values of the
   bin dtype: linspace computed in dtype ct (each step rounded to it). */
static void ref_edges(double first, double last, int64_t bins, ga_dtype ct, ga_dtype bt, double *edges)
{
    if (first == last) first = round_double(ct, first - 0.5), last = round_double(ct, last + 0.5);
    double delta = round_double(ct, last - first), step = round_double(ct, delta / (double)bins);
    for (int64_t i = 0; i <= bins; i++) {
        double y = round_double(ct, round_double(ct, round_double(ct, (double)i) * step) + first);
        edges[i] = round_double(bt, i == bins ? last : y);
    }
}

/* The counts (or weighted sums) of NumPy's bin rule. */
static void ref_histogram(const long double *x, const long double *w, int64_t n, const double *edges, int64_t bins,
                          long double *out)
{
    for (int64_t b = 0; b < bins; b++) out[b] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(x[i]) || x[i] < edges[0] || x[i] > edges[bins]) continue;
        int64_t lo = 0, hi = bins; /* the last bin b < bins with edges[b] <= x */
        while (hi - lo > 1) {
            int64_t mid = (lo + hi) / 2;
            if (edges[mid] <= x[i]) lo = mid;
            else hi = mid;
        }
        out[lo] += w ? w[i] : 1;
    }
}

static void check_histogram(ga_dtype t, int64_t n, int layout, int64_t bins, int mode)
{
    /* mode 0: range from the data (NaN-free data); 1: a given range; 2: the
       edges as an array; 3: weights, density */
    char what[200];
    describe(what, sizeof what, "histogram", t, n, layout);
    snprintf(what + strlen(what), sizeof what - strlen(what), " bins=%lld mode=%d", (long long)bins, mode);
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz);
    fill_dups(h, n, t, 64);
    for (int64_t i = 0; i < n && !is_float(t) && sz == 8; i++) { /* exact in float64 */
        int64_t v = (int64_t)(rnd() % 200) - (t == GA_INT64 ? 50 : 0);
        memcpy(h + i * sz, &v, sz);
    }
    long double *x = malloc(sizeof(long double) * (size_t)(n ? n : 1)), *w = NULL;
    for (int64_t i = 0; i < n; i++) {
        x[i] = value_at(t, h, i);
        if (mode == 0 && !isfinite(x[i])) { /* an autodetected range must be finite */
            memset(h + i * sz, 0, sz);
            x[i] = 0;
        }
    }
    ga_dtype bt = is_float(t) ? t : GA_FLOAT64;
    double *edges = malloc(sizeof(double) * (size_t)(bins + 1)), range[2] = {-40.5, 90.25};
    if (mode == 0) {
        long double lo = 0, hi = 1;
        for (int64_t i = 0; i < n; i++) {
            if (i == 0 || x[i] < lo) lo = x[i];
            if (i == 0 || x[i] > hi) hi = x[i];
        }
        ref_edges((double)lo, (double)hi, bins, n > 0 && is_float(t) ? t : GA_FLOAT64, bt, edges);
    } else if (mode == 2) {
        for (int64_t i = 0; i <= bins; i++) edges[i] = -50 + (double)(i * i) * 0.5; /* unequal, exact in every float */
    } else {
        ref_edges(range[0], range[1], bins, GA_FLOAT64, bt, edges);
    }
    bool increasing = true;
    for (int64_t i = 0; i < bins; i++) increasing = increasing && edges[i] < edges[i + 1];
    if (!increasing) { /* equal bins too fine for the dtype: NumPy's error */
        ga_array *a = upload(h, n, t, layout);
        CHECK_ERROR(a && ga_histogram(a, bins, NULL, mode == 0 ? NULL : range, false, NULL, NULL) == NULL,
                    GA_ERROR_VALUE, "Too many bins for data range.");
        ga_release(a);
        free(h), free(x), free(edges);
        return;
    }
    ga_dtype wt = GA_FLOAT32;
    unsigned char *hw = NULL;
    if (mode == 3) {
        hw = malloc(4 * (size_t)(n ? n : 1));
        w = malloc(sizeof(long double) * (size_t)(n ? n : 1));
        for (int64_t i = 0; i < n; i++) {
            float f = (float)(rnd_unit() * 4 - 1);
            memcpy(hw + 4 * i, &f, 4);
            w[i] = f;
        }
    }
    long double *want = malloc(sizeof(long double) * (size_t)bins);
    ref_histogram(x, w, n, edges, bins, want);
    ga_array *a = upload(h, n, t, layout), *dw = mode == 3 ? upload(hw, n, wt, layout) : NULL, *de = NULL, *ge = NULL;
    int64_t ne = bins + 1;
    if (mode == 2) de = ga_from_host(edges, 1, &ne, GA_FLOAT64);
    ga_array *r = a ? ga_histogram(a, mode == 2 ? 0 : bins, de, mode == 1 || mode == 3 ? range : NULL, mode == 3, dw, &ge)
                    : NULL;
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        ga_dtype rt = mode == 3 ? GA_FLOAT64 : GA_INT64;
        CHECK(ga_dtype_of(r) == rt && ga_size(r) == bins, "%s: %s of %lld", what, ga_dtype_name(ga_dtype_of(r)),
              (long long)ga_size(r));
        long double total = 0;
        for (int64_t b = 0; b < bins; b++) total += want[b];
        long double *g = ga_size(r) == bins ? values_of(r) : NULL;
        for (int64_t b = 0; g && b < bins; b++) {
            long double e = want[b];
            if (mode == 3) e = e / round_to(bt, edges[b + 1] - edges[b]) / total; /* widths as NumPy's diff */
            bool ok = mode == 3 ? (isnan(e) && isnan(g[b])) || g[b] == e || fabsl(g[b] - e) <= 1e-9L * fabsl(e) + 1e-12L
                                : g[b] == e;
            CHECK(ok, "%s: bin %lld is %Lg, expected %Lg", what, (long long)b, g[b], e);
            if (!ok) break;
        }
        free(g);
        CHECK(ge && ga_size(ge) == ne && ga_dtype_of(ge) == (mode == 2 ? GA_FLOAT64 : bt), "%s: edges", what);
        long double *gev = ge && ga_size(ge) == ne ? values_of(ge) : NULL;
        for (int64_t i = 0; gev && i < ne; i++) {
            CHECK(gev[i] == edges[i], "%s: edge %lld is %Lg, expected %g", what, (long long)i, gev[i], edges[i]);
            if (gev[i] != edges[i]) break;
        }
        free(gev);
        if (mode != 2) { /* histogram_bin_edges gives the same edges */
            ga_array *be = ga_histogram_bin_edges(a, bins, mode == 0 ? NULL : range);
            long double *bev = be && ga_size(be) == ne ? values_of(be) : NULL;
            CHECK(bev != NULL, "%s: histogram_bin_edges: %s", what, ga_last_error_message());
            for (int64_t i = 0; bev && i < ne; i++) {
                CHECK(bev[i] == edges[i], "%s: bin_edges %lld is %Lg, expected %g", what, (long long)i, bev[i], edges[i]);
                if (bev[i] != edges[i]) break;
            }
            free(bev);
            ga_release(be);
        }
    }
    ga_clear_error();
    ga_release(r), ga_release(a), ga_release(dw), ga_release(de), ga_release(ge);
    free(h), free(x), free(w), free(hw), free(edges), free(want);
}

DEVICE_TEST(histogram_all_dtypes)
{
    /* 3000 bins: edges in global memory; fewer for float16 and bfloat16,
       whose rounded edges would not all differ ("Too many bins") */
    static const int64_t bins[] = {1, 10, 256, 3000};
    for (int d = 0; d < NUM_REAL; d++)
        for (int s = 1; s < NUM_SIZES; s++)
            for (int mode = 0; mode < 4; mode++) {
                ga_dtype t = REAL_DTYPES[d];
                int64_t nb = bins[(s + mode) % 4], cap = t == GA_FLOAT16 ? 256 : t == GA_BFLOAT16 ? 64 : nb;
                check_histogram(t, SIZES[s], (s + mode) % NUM_LAYOUTS, mode == 2 || nb < cap ? nb : cap, mode);
            }
    check_histogram(GA_FLOAT32, test_length(1 << 22), LAYOUT_CONTIGUOUS, 256, 1);
}

/* NumPy's closed last bin and edges: 0..10 into 5 bins. */
DEVICE_TEST(histogram_closed_last_bin)
{
    int64_t n = 11, got[5] = {0}, want[5] = {2, 2, 2, 2, 3};
    ga_array *a = ga_arange_int(0, 11, 1, GA_INT64), *e = NULL;
    ga_array *r = ga_histogram(a, 5, NULL, NULL, false, NULL, &e);
    CHECK(r && download(r, got) && !memcmp(got, want, sizeof want), "histogram(arange(11), 5): %lld %lld %lld %lld %lld",
          (long long)got[0], (long long)got[1], (long long)got[2], (long long)got[3], (long long)got[4]);
    double ge[6] = {0};
    CHECK(e && ga_dtype_of(e) == GA_FLOAT64 && download(e, ge) && ge[1] == 2 && ge[5] == 10, "edges");
    /* empty input: range [0, 1] */
    ga_array *z = ga_empty(1, (int64_t[]){0}, GA_FLOAT32), *ze = NULL;
    ga_array *zr = ga_histogram(z, 4, NULL, NULL, false, NULL, &ze);
    float zf[5] = {0};
    CHECK(zr && ga_size(zr) == 4 && ze && ga_dtype_of(ze) == GA_FLOAT32 && download(ze, zf) && zf[4] == 1.0f,
          "histogram of an empty array: %s", ga_last_error_message());
    (void)n;
    ga_release(r), ga_release(a), ga_release(e), ga_release(z), ga_release(ze), ga_release(zr);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                      */
/* ------------------------------------------------------------------------ */

TEST(null_inputs)
{
    CHECK_ERROR(ga_unique(NULL, NULL, NULL, NULL, true) == NULL, GA_ERROR_NULL_INPUT, "ga_unique");
    CHECK_ERROR(ga_searchsorted(NULL, NULL, GA_SIDE_LEFT, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_searchsorted");
    CHECK_ERROR(ga_isin(NULL, NULL, false) == NULL, GA_ERROR_NULL_INPUT, "ga_isin");
    CHECK_ERROR(ga_histogram(NULL, 10, NULL, NULL, false, NULL, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_histogram");
    CHECK_ERROR(ga_bincount(NULL, NULL, 0) == NULL, GA_ERROR_NULL_INPUT, "ga_bincount");
    CHECK_ERROR(ga_digitize(NULL, NULL, false) == NULL, GA_ERROR_NULL_INPUT, "ga_digitize");
    CHECK_ERROR(ga_union1d(NULL, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_union1d");
}

DEVICE_TEST(errors)
{
    int64_t s3 = 3, s22[2] = {2, 2};
    double h3[3] = {1, 2, 3}, hbad[3] = {3, 1, 2};
    float f3[3] = {1, 2, 3};
    int64_t neg[3] = {0, -1, 2}, sorter_bad[3] = {0, 1, 3};
    ga_array *a = ga_from_host(h3, 1, &s3, GA_FLOAT64), *m = ga_zeros(2, s22, GA_FLOAT64);
    ga_array *bad = ga_from_host(hbad, 1, &s3, GA_FLOAT64), *f = ga_from_host(f3, 1, &s3, GA_FLOAT32);
    ga_array *c = ga_zeros(1, &s3, GA_COMPLEX64), *z0 = ga_zeros(0, NULL, GA_INT64);
    ga_array *ni = ga_from_host(neg, 1, &s3, GA_INT64), *sb = ga_from_host(sorter_bad, 1, &s3, GA_INT64);
    ga_array *two = ga_zeros(1, (int64_t[]){2}, GA_INT64), *keep = NULL;
    CHECK(a && m && bad && f && c && z0 && ni && sb && two, "setup: %s", ga_last_error_message());
    /* searchsorted */
    CHECK_ERROR(ga_searchsorted(m, a, GA_SIDE_LEFT, NULL) == NULL, GA_ERROR_VALUE,
                "ga_searchsorted: object too deep for desired array");
    CHECK_ERROR(ga_searchsorted(z0, a, GA_SIDE_LEFT, NULL) == NULL, GA_ERROR_VALUE,
                "object of too small depth for desired array");
    CHECK_ERROR(ga_searchsorted(a, a, GA_SIDE_LEFT, two) == NULL, GA_ERROR_VALUE, "sorter.size must equal a.size");
    CHECK_ERROR(ga_searchsorted(a, a, GA_SIDE_LEFT, m) == NULL, GA_ERROR_TYPE, "could not parse sorter argument");
    CHECK_ERROR(ga_searchsorted(a, a, GA_SIDE_LEFT, f) == NULL, GA_ERROR_TYPE, "sorter must only contain integers");
    CHECK_ERROR(ga_searchsorted(a, a, GA_SIDE_LEFT, sb) == NULL, GA_ERROR_VALUE, "Sorter index out of range.");
    CHECK_ERROR(ga_searchsorted(a, a, GA_SIDE_LEFT, ni) == NULL, GA_ERROR_VALUE, "Sorter index out of range.");
    CHECK_ERROR(ga_searchsorted(a, a, (ga_side)7, NULL) == NULL, GA_ERROR_VALUE, "side");
    /* digitize */
    CHECK_ERROR(ga_digitize(a, bad, false) == NULL, GA_ERROR_VALUE,
                "ga_digitize: bins must be monotonically increasing or decreasing");
    CHECK_ERROR(ga_digitize(c, a, false) == NULL, GA_ERROR_TYPE, "x may not be complex");
    CHECK_ERROR(ga_digitize(a, c, false) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('complex64') to dtype('float64') according to the rule 'safe'");
    CHECK_ERROR(ga_digitize(a, m, false) == NULL, GA_ERROR_VALUE, "object too deep for desired array");
    /* bincount */
    CHECK_ERROR(ga_bincount(ni, NULL, 0) == NULL, GA_ERROR_VALUE, "'list' argument must have no negative elements");
    CHECK_ERROR(ga_bincount(a, NULL, 0) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
    CHECK_ERROR(ga_bincount(two, NULL, -1) == NULL, GA_ERROR_VALUE, "'minlength' must not be negative");
    CHECK_ERROR(ga_bincount(two, a, 0) == NULL, GA_ERROR_VALUE, "The weights and list don't have the same length.");
    /* NumPy checks the values before the weights' length */
    CHECK_ERROR(ga_bincount(ni, two, 0) == NULL, GA_ERROR_VALUE, "'list' argument must have no negative elements");
    CHECK_ERROR(ga_bincount(z0, NULL, 0) == NULL, GA_ERROR_VALUE, "object of too small depth for desired array");
    ga_array *mi = ga_zeros(2, s22, GA_INT64);
    CHECK_ERROR(ga_bincount(mi, NULL, 0) == NULL, GA_ERROR_VALUE, "object too deep for desired array");
    ga_release(mi);
    uint64_t big = 1ull << 63;
    ga_array *ub = ga_from_host(&big, 1, (int64_t[]){1}, GA_UINT64);
    CHECK_ERROR(ga_bincount(ub, NULL, 0) == NULL, GA_ERROR_VALUE, "'list' argument must have no negative elements");
    ga_release(ub);
    /* histogram */
    double r_bad[2] = {3, 1}, r_inf[2] = {0, INFINITY}, hn[2] = {1, NAN};
    ga_array *an = ga_from_host(hn, 1, (int64_t[]){2}, GA_FLOAT64);
    CHECK_ERROR(ga_histogram(a, 0, NULL, NULL, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "`bins` must be positive, when an integer");
    CHECK_ERROR(ga_histogram(a, 4, NULL, r_bad, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "max must be larger than min in range parameter.");
    CHECK_ERROR(ga_histogram(a, 4, NULL, r_inf, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "supplied range of [0.0, inf] is not finite");
    CHECK_ERROR(ga_histogram(an, 4, NULL, NULL, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "autodetected range of [nan, nan] is not finite");
    CHECK_ERROR(ga_histogram(a, 4, bad, NULL, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "`bins` must increase monotonically, when an array");
    CHECK_ERROR(ga_histogram(a, 4, m, NULL, false, NULL, NULL) == NULL, GA_ERROR_VALUE, "`bins` must be 1d, when an array");
    CHECK_ERROR(ga_histogram(a, 4, NULL, NULL, false, two, NULL) == NULL, GA_ERROR_VALUE,
                "weights should have the same shape as a.");
    CHECK_ERROR(ga_histogram(c, 4, NULL, NULL, false, NULL, NULL) == NULL, GA_ERROR_NOT_IMPLEMENTED, "complex64");
    ga_array *half = ga_zeros(1, &s3, GA_FLOAT16);
    double r_half[2] = {-7.5, 13.25};
    CHECK_ERROR(ga_histogram(half, 3000, NULL, r_half, false, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "Too many bins for data range. Cannot create 3000 finite-sized bins.");
    CHECK_ERROR(ga_histogram_bin_edges(half, 3000, r_half) == NULL, GA_ERROR_VALUE, "Too many bins for data range.");
    ga_release(half);
    /* a failed call stores nothing */
    ga_array *untouched = (ga_array *)&keep;
    keep = untouched;
    CHECK_ERROR(ga_histogram(a, 0, NULL, NULL, false, NULL, &keep) == NULL, GA_ERROR_VALUE, "`bins`");
    CHECK(keep == untouched, "a failed ga_histogram stored an edges array");
    keep = untouched;
    CHECK_ERROR(ga_unique(NULL, &keep, NULL, NULL, true) == NULL, GA_ERROR_NULL_INPUT, "ga_unique");
    CHECK(keep == untouched, "a failed ga_unique stored an index array");
    ga_release(an);
    ga_release(a), ga_release(m), ga_release(bad), ga_release(f), ga_release(c), ga_release(z0), ga_release(ni);
    ga_release(sb), ga_release(two);
}

/* ------------------------------------------------------------------------ */
/* Host rules (no device): digitize's monotonicity, histogram edges           */
/* ------------------------------------------------------------------------ */

/* NumPy's _monotonicity on float64 bins (the values NumPy 2 returns,
   NaN cases included). */
TEST(digitize_monotonicity_rule)
{
    static const struct { double b[5]; int n, want; } cases[] = {
        {{0}, 0, 1},
        {{2, 2, 2}, 3, 1},
        {{1, 2, 3}, 3, 1},
        {{3, 2, 2, 1}, 4, -1},
        {{3, 1, 2}, 3, 0},
        {{1, 2, NAN, 3}, 4, 1},
        {{NAN, 1}, 2, -1},
        {{1, NAN}, 2, -1},
        {{1, 1, NAN}, 3, -1},
        {{NAN, NAN}, 2, -1},
        {{3, NAN, 1}, 3, -1},
        {{1, NAN, 0}, 3, -1},
        {{1, 2, 1}, 3, 0},
        {{-INFINITY, 0, INFINITY}, 3, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = ga__monotonicity(cases[i].b, cases[i].n);
        CHECK(got == cases[i].want, "case %zu: monotonicity %d, NumPy %d", i, got, cases[i].want);
    }
}

/* Element bits of an edge stored in dtype t. */
static uint64_t edge_bits(double y, ga_dtype t)
{
    switch (t) {
    case GA_FLOAT16: return ref_f16_from_double(y);
    case GA_FLOAT32: {
        float f = (float)y;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    default: {
        uint64_t u;
        memcpy(&u, &y, 8);
        return u;
    }
    }
}

/* Equal bins' edges against np.histogram_bin_edges (first, middle and last
   element's bits, and the sum of every element's bits): autodetected
   ranges are computed in the data's float dtype, given ranges and integer
   data in float64, as NumPy's linspace does. */
TEST(histogram_edges_as_numpy)
{
    static const struct {
        const char *what;
        double first, last;
        int64_t bins;
        ga_dtype ct, to;
        uint64_t first_bits, mid_bits, last_bits, sum;
    } cases[] = {
        {"float32 [0.1, 0.7] auto, 7 bins", 0.1f, 0.7f, 7, GA_FLOAT32, GA_FLOAT32, 0x3dcccccd, 0x3ee2be2b, 0x3f333333,
         8414253170ull},
        {"float32 [-3.3, 1000.7] auto, 2500 bins", -3.3f, 1000.7f, 2500, GA_FLOAT32, GA_FLOAT32, 0xc0533333,
         0x43f9599a, 0x447a2ccd, 2860795295061ull},
        {"float32 range (-7.5, 13.25), 11 bins", -7.5, 13.25, 11, GA_FLOAT64, GA_FLOAT32, 0xc0f00000, 0x40745d17,
         0x41540000, 21557578659ull},
        {"float32 [2.5] auto, 3 bins", 2.0, 3.0, 3, GA_FLOAT32, GA_FLOAT32, 0x40000000, 0x402aaaab, 0x40400000,
         4303355904ull},
        {"int8 [5], 4 bins", 4.5, 5.5, 4, GA_FLOAT64, GA_FLOAT64, 0x4012000000000000ull, 0x4014000000000000ull,
         0x4016000000000000ull, 4639833516098453504ull},
        {"float64 [0.1, 0.7] auto, 7 bins", 0.1, 0.7, 7, GA_FLOAT64, GA_FLOAT64, 0x3fb999999999999aull,
         0x3fdc57c57c57c57cull, 0x3fe6666666666666ull, 18352425830084906656ull},
        {"float16 range (-40.5, 90.25), 256 bins", -40.5, 90.25, 256, GA_FLOAT64, GA_FLOAT16, 0xd110, 0x4e38, 0x55a4,
         7791566},
        {"float16 [-3.3, 100.7] auto, 250 bins", 0, 0, 250, GA_FLOAT16, GA_FLOAT16, 0xc29a, 0x5216, 0x564b, 5398959},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double first = cases[c].first, last = cases[c].last;
        if (cases[c].ct == GA_FLOAT16) { /* the data's min and max as float16 */
            first = ref_f16_to_double(ref_f16_from_double(-3.3));
            last = ref_f16_to_double(ref_f16_from_double(100.7));
        }
        int64_t bins = cases[c].bins;
        double *e = malloc(sizeof(double) * (size_t)(bins + 1));
        ga__linspace_edges(first, last, bins, cases[c].ct, cases[c].to, e);
        uint64_t sum = 0;
        for (int64_t i = 0; i <= bins; i++) sum += edge_bits(e[i], cases[c].to);
        uint64_t f = edge_bits(e[0], cases[c].to), m = edge_bits(e[(bins + 1) / 2], cases[c].to);
        uint64_t l = edge_bits(e[bins], cases[c].to);
        CHECK(f == cases[c].first_bits && m == cases[c].mid_bits && l == cases[c].last_bits && sum == cases[c].sum,
              "%s: bits %llx %llx %llx sum %llu, NumPy %llx %llx %llx sum %llu", cases[c].what, (unsigned long long)f,
              (unsigned long long)m, (unsigned long long)l, (unsigned long long)sum,
              (unsigned long long)cases[c].first_bits, (unsigned long long)cases[c].mid_bits,
              (unsigned long long)cases[c].last_bits, (unsigned long long)cases[c].sum);
        free(e);
    }
}

/* Complex weights: the sums of each part (exact here: multiples of 1/8),
   in the weights' dtype; with density, complex128 counts / (total * bin
   width), NumPy's n / db / n.sum(). bincount refuses them as NumPy. */
DEVICE_TEST(histogram_complex_weights)
{
    const int64_t n = 10007, bins = 8, ne = bins + 1;
    double *ha = malloc(sizeof(double) * (size_t)n), edges[9];
    long double *x = malloc(sizeof(long double) * (size_t)n), *wr = malloc(sizeof(long double) * (size_t)n);
    long double *wi = malloc(sizeof(long double) * (size_t)n), want_r[8], want_i[8];
    double *hw = malloc(2 * sizeof(double) * (size_t)n);
    float *hw32 = malloc(2 * sizeof(float) * (size_t)n);
    for (int64_t b = 0; b < ne; b++) edges[b] = 1.25 * (double)b;
    for (int64_t i = 0; i < n; i++) {
        ha[i] = x[i] = rnd_unit() * 11 - 0.5; /* some outside [0, 10] */
        hw[2 * i] = hw32[2 * i] = (float)(wr[i] = (long double)((int)(rnd() % 17) - 8) * 0.25L);
        hw[2 * i + 1] = hw32[2 * i + 1] = (float)(wi[i] = (long double)((int)(rnd() % 9) - 4) * 0.125L);
    }
    ref_histogram(x, wr, n, edges, bins, want_r);
    ref_histogram(x, wi, n, edges, bins, want_i);
    long double tr = 0, ti = 0;
    for (int64_t b = 0; b < bins; b++) tr += want_r[b], ti += want_i[b];
    ga_array *a = upload(ha, n, GA_FLOAT64, LAYOUT_REVERSED), *de = ga_from_host(edges, 1, &ne, GA_FLOAT64);
    for (int k = 0; k < 2; k++) {
        ga_dtype wt = k ? GA_COMPLEX128 : GA_COMPLEX64;
        ga_array *w = upload(k ? (const void *)hw : (const void *)hw32, n, wt, LAYOUT_REVERSED);
        for (int density = 0; density < 2; density++) {
            ga_array *r = ga_histogram(a, 0, de, NULL, density, w, NULL);
            ga_dtype rt = density ? GA_COMPLEX128 : wt;
            CHECK(r && ga_dtype_of(r) == rt && ga_size(r) == bins, "%s density=%d: %s", ga_dtype_name(wt), density,
                  r ? ga_dtype_name(ga_dtype_of(r)) : ga_last_error_message());
            if (!r || ga_dtype_of(r) != rt || ga_size(r) != bins) {
                ga_release(r);
                continue;
            }
            double got[16];
            ga_array *g64 = ga_astype(r, GA_COMPLEX128);
            CHECK_OK(ga_to_host(g64, got, sizeof got));
            for (int64_t b = 0; b < bins; b++) {
                long double er = want_r[b], ei = want_i[b];
                if (density) { /* (er + ei j) / 1.25 / (tr + ti j) */
                    long double d = tr * tr + ti * ti, qr = (er * tr + ei * ti) / d, qi = (ei * tr - er * ti) / d;
                    er = qr / 1.25L, ei = qi / 1.25L;
                }
                long double tol = density ? 1e-12L * (fabsl(er) + fabsl(ei)) + 1e-15L : 0;
                bool ok = fabsl(got[2 * b] - er) <= tol && fabsl(got[2 * b + 1] - ei) <= tol;
                CHECK(ok, "%s density=%d: bin %lld is %g%+gj, expected %Lg%+Lgj", ga_dtype_name(wt), density,
                      (long long)b, got[2 * b], got[2 * b + 1], er, ei);
                if (!ok) break;
            }
            ga_release(g64);
            ga_release(r);
        }
        int64_t idx[2] = {0, 1};
        ga_array *xs = ga_from_host(idx, GA_SHAPE(2), GA_INT64), *w2 = ga_zeros(GA_SHAPE(2), wt);
        CHECK_ERROR(ga_bincount(xs, w2, 0) == NULL, GA_ERROR_TYPE,
                    k ? "Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule 'safe'"
                      : "Cannot cast array data from dtype('complex64') to dtype('float64')");
        ga_release(xs);
        ga_release(w2);
        ga_release(w);
    }
    ga_release(a);
    ga_release(de);
    free(ha), free(x), free(wr), free(wi), free(hw), free(hw32);
}
