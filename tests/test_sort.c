/* Device tests of sorting and scans (section 14 of gpuarr.h) and of the CUB
   glue archive they run on.

   ga_sort and ga_argsort run for every dtype but complex, on sizes 1, 31,
   33, 1023, 1025, 2^20 + 7 and 0, along axis 0, the last axis, a middle
   axis and axis None, on C-contiguous and transposed (every axis reversed
   in memory) inputs, with fresh random data full of duplicates, NaN of both
   signs, infinities and -0.0 / +0.0. The host reference is a stable sort in
   NumPy's order (qsort with the index as the last key; NaN last and equal,
   -0.0 equal to +0.0): argsort must give exactly its indices (so equal keys
   keep their input order), sort values equal to its values.

   ga_cumsum and ga_cumprod run for every dtype on the same kinds of cases
   against a sequential long double reference (integers exactly, wrapping
   in 64 bits and then to the result's width), within a bound for the
   parallel scan; NumPy's result dtypes and dtype= are checked too.

   Host tests check that the glue archive is linked into this program and
   into build/libgpuarr.so. GPUARR_TEST_SEED=<seed> repeats a run. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "ref_cast.h"
#include "harness.h"
#include <dlfcn.h>
#include <float.h>
#include <math.h>


/* ------------------------------------------------------------------------ */
/* Elements on the host                                                       */
/* ------------------------------------------------------------------------ */

static bool is_float(ga_dtype t) { return ga_dtype_kind(t) == 'f'; }

/* A floating element as a double (NaN as NaN). */
static double fvalue(const void *p, ga_dtype t)
{
    switch (t) {
    case GA_FLOAT16: return ref_f16_to_double(*(const uint16_t *)p);
    case GA_BFLOAT16: return ref_bf16_to_double(*(const uint16_t *)p);
    case GA_FLOAT32: return *(const float *)p;
    default: return *(const double *)p;
    }
}

static int64_t ivalue(const void *p, ga_dtype t)
{
    switch (ga_dtype_itemsize(t)) {
    case 1: return t == GA_INT8 ? *(const int8_t *)p : *(const uint8_t *)p;
    case 2: return t == GA_INT16 ? *(const int16_t *)p : *(const uint16_t *)p;
    case 4: return t == GA_INT32 ? *(const int32_t *)p : (int64_t) * (const uint32_t *)p;
    default: return *(const int64_t *)p;
    }
}

/* NumPy's order: -1, 0, 1. */
static int compare_elements(const void *a, const void *b, ga_dtype t)
{
    if (is_float(t)) {
        double x = fvalue(a, t), y = fvalue(b, t);
        if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
        return (x > y) - (x < y);
    }
    if (t == GA_UINT64) {
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return (x > y) - (x < y);
    }
    int64_t x = ivalue(a, t), y = ivalue(b, t);
    return (x > y) - (x < y);
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

/* Random elements with duplicates, NaN of both signs, infinities, -0.0. */
static void fill_random(void *data, int64_t n, ga_dtype t)
{
    size_t sz = ga_dtype_itemsize(t);
    for (int64_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)data + (size_t)i * sz;
        uint64_t r = rnd();
        if (t == GA_BOOL) {
            *p = (unsigned char)(r & 1);
            continue;
        }
        if (!is_float(t)) {
            uint64_t v = (r >> 8) & 1 ? rnd() : (uint64_t)(int64_t)((int)(rnd() % 11) - 5);
            memcpy(p, &v, sz); /* little-endian: the low bytes */
            continue;
        }
        int c = (int)(r % 32);
        double x;
        if (c < 2) { /* NaN, either sign */
            bool neg = c == 1;
            if (t == GA_FLOAT16) *(uint16_t *)p = neg ? 0xfe00u : 0x7e00u;
            else if (t == GA_BFLOAT16) *(uint16_t *)p = neg ? 0xffc0u : 0x7fc0u;
            else if (t == GA_FLOAT32) *(uint32_t *)p = neg ? 0xffc00000u : 0x7fc00001u;
            else *(uint64_t *)p = neg ? 0xfff8000000000000ull : 0x7ff8000000000000ull;
            continue;
        }
        if (c < 4) x = c == 2 ? 0.0 : -0.0;
        else if (c < 5) x = (r >> 20) & 1 ? INFINITY : -INFINITY;
        else if (c < 18) x = (double)((int)(rnd() % 101) - 50);
        else x = rnd_unit() * 1000.0 - 500.0;
        switch (t) {
        case GA_FLOAT16: *(uint16_t *)p = ref_f16_from_double(x); break;
        case GA_BFLOAT16: *(uint16_t *)p = ref_bf16_from_double(x); break;
        case GA_FLOAT32: *(float *)p = (float)x; break;
        default: *(double *)p = x; break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* A case: a logical shape, C-contiguous or transposed in memory              */
/* ------------------------------------------------------------------------ */

typedef struct sort_case {
    int ndim;
    int64_t shape[3];
    int axis; /* GA_AXIS_NONE allowed */
    bool transposed;
} sort_case;

/* Uploads `logical` (C order over c->shape) as c says; NULL on failure. */
static ga_array *upload(const sort_case *c, const void *logical, ga_dtype t)
{
    if (!c->transposed) return ga_from_host(logical, c->ndim, c->shape, t);
    int64_t n = 1, rshape[3];
    for (int d = 0; d < c->ndim; d++) {
        n *= c->shape[d];
        rshape[d] = c->shape[c->ndim - 1 - d];
    }
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *mem = malloc((size_t)(n ? n : 1) * sz);
    /* mem in C order of rshape; element (i0..ik) of the transpose is
       mem[ik..i0] */
    int64_t idx[3] = {0, 0, 0};
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = c->ndim - 1; d >= 0; d--) off = off * c->shape[d] + idx[d];
        memcpy(mem + (size_t)off * sz, (const unsigned char *)logical + (size_t)i * sz, sz);
        for (int d = c->ndim - 1; d >= 0; d--) {
            if (++idx[d] < c->shape[d]) break;
            idx[d] = 0;
        }
    }
    ga_array *base = ga_from_host(mem, c->ndim, rshape, t);
    free(mem);
    ga_array *v = base ? ga_transpose(base, NULL) : NULL;
    ga_release(base);
    return v;
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
    fill_random(h, n, t);
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
        sort_dtype = t;
        sort_size = sz;
        sort_data = lane;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                for (int64_t j = 0; j < len; j++) {
                    memcpy(lane + (size_t)j * sz, h + (size_t)((o * len + j) * inner + i) * sz, sz);
                    ref[j] = j;
                }
                qsort(ref, (size_t)len, sizeof *ref, compare_indices);
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
};

static void sort_cases_for(ga_dtype t)
{
    for (size_t i = 0; i < sizeof sort_cases / sizeof sort_cases[0]; i++) check_sort_case(&sort_cases[i], t);
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
   in [-1, 1] for sums and near +-1 for products. */
static void fill_scan(void *data, int64_t n, ga_dtype t, bool prod)
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
    }
}

/* Element k of `data` of dtype t as (re, im) long double, integers as
   their 64-bit two's complement too. */
static void scan_load(const void *data, int64_t k, ga_dtype t, long double *re, long double *im, uint64_t *bits)
{
    size_t sz = ga_dtype_itemsize(t);
    const unsigned char *p = (const unsigned char *)data + (size_t)k * sz;
    *im = 0;
    if (t == GA_COMPLEX64) *re = ((const float *)p)[0], *im = ((const float *)p)[1];
    else if (t == GA_COMPLEX128) *re = ((const double *)p)[0], *im = ((const double *)p)[1];
    else if (is_float(t)) *re = fvalue(p, t);
    else {
        int64_t v = t == GA_UINT64 ? (int64_t) * (const uint64_t *)p : ivalue(p, t);
        *re = (long double)v;
        *bits = (uint64_t)v;
    }
}

static void check_scan_case(const sort_case *c, ga_dtype t, bool prod, ga_dtype dtype)
{
    char what[200];
    describe(what, sizeof what, c, t);
    snprintf(what + strlen(what), sizeof what - strlen(what), " %s dtype %s", prod ? "cumprod" : "cumsum",
             dtype == GA_DTYPE_INVALID ? "default" : ga_dtype_name(dtype));
    int64_t outer, len, inner;
    lanes_of(c, &outer, &len, &inner);
    int64_t n = outer * len * inner;
    ga_dtype rd = dtype == GA_DTYPE_INVALID ? default_scan_dtype(t) : dtype;
    size_t sz = ga_dtype_itemsize(t), rsz = ga_dtype_itemsize(rd);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz), *got = malloc((size_t)(n ? n : 1) * rsz);
    fill_scan(h, n, t, prod);
    ga_array *a = upload(c, h, t);
    ga_array *r = prod ? ga_cumprod(a, c->axis, dtype) : ga_cumsum(a, c->axis, dtype);
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        CHECK(ga_dtype_of(r) == rd && ga_size(r) == n, "%s: dtype %s, want %s", what, ga_dtype_name(ga_dtype_of(r)),
              ga_dtype_name(rd));
        memset(got, 0xA5, (size_t)(n ? n : 1) * rsz);
        CHECK_OK(ga_to_host(r, got, (size_t)n * rsz));
        char rk = ga_dtype_kind(rd);
        double eps_acc = rd == GA_FLOAT16 || rd == GA_BFLOAT16 ? FLT_EPSILON : eps_of(rd);
        int bad = 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) {
                long double sre = prod, sim = 0, mag = 0;
                uint64_t ibits = prod;
                for (int64_t j = 0; j < len; j++) {
                    int64_t at = (o * len + j) * inner + i;
                    long double xr, xi;
                    uint64_t xb = 0;
                    scan_load(h, at, t, &xr, &xi, &xb);
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
                        uint64_t want = ibits, g = 0;
                        memcpy(&g, got + (size_t)at * rsz, rsz);
                        if (rsz < 8) want &= (1ull << (8 * rsz)) - 1;
                        if (rk == 'b') want = want != 0;
                        ok = g == want;
                    } else {
                        long double gr, gi;
                        uint64_t unused;
                        scan_load(got, at, rd, &gr, &gi, &unused);
                        long double scale = prod ? (fabsl(sre) + fabsl(sim)) * (long double)(2 * (j + 1)) : 16 * mag;
                        long double tol = scale * eps_acc + (fabsl(sre) + fabsl(sim)) * eps_of(rd);
                        ok = fabsl(gr - sre) <= tol && fabsl(gi - sim) <= tol;
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
    free(h);
    free(got);
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
        check_scan_case(&scan_cases[i], t, false, GA_DTYPE_INVALID);
        if (scan_cases[i].shape[0] <= 1025) check_scan_case(&scan_cases[i], t, true, GA_DTYPE_INVALID);
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

/* ------------------------------------------------------------------------ */
/* Errors and edge cases                                                      */
/* ------------------------------------------------------------------------ */

DEVICE_TEST(sort_errors)
{
    double v = 2.5;
    ga_array *z = ga_from_host(&v, 0, NULL, GA_FLOAT64);
    CHECK_ERROR(ga_sort(z, -1) == NULL, GA_ERROR_AXIS, "ga_sort: axis -1 is out of bounds for array of dimension 0");
    CHECK_ERROR(ga_cumsum(z, 0, GA_DTYPE_INVALID) == NULL, GA_ERROR_AXIS,
                "ga_cumsum: axis 0 is out of bounds for array of dimension 0");
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
    CHECK_ERROR(ga_sort(c, 0) == NULL, GA_ERROR_NOT_IMPLEMENTED, "ga_sort: sorting complex64 arrays");
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
