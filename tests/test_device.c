/* Device tests: run where a GPU is present, skipped (and counted) elsewhere.
   Results are compared with host references (tests/ref_cast.h) on fresh
   random data; outputs land on poisoned memory so unwritten elements show. */
#undef GPUARR_KERNEL_DIR /* found through ./build/kernels, so the tests can hide it */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"

int setenv(const char *name, const char *value, int overwrite); /* POSIX, hidden by -std=c11 */
int unsetenv(const char *name);
int chdir(const char *path);
char *getcwd(char *buf, size_t size);

/* ---- helpers ------------------------------------------------------------- */


/* A value meant to exercise casts: specials, integer bounds, wide ranges. */
static double rnd_double(void)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, NAN, INFINITY, -INFINITY,
                                      127.5, 128.0, -128.5, 255.5, 256.0, 32767.5, 65535.5, 65536.0,
                                      2147483647.5, 2147483648.0, -2147483649.0, 4294967296.0,
                                      9223372036854775807.0, -9223372036854775808.0, 18446744073709551616.0,
                                      65504.0, 65520.0, 1e-8, 6e-8, 3.4e38, 1e300, -1e300, 1e-310};
    switch (rnd() % 4) {
    case 0: return specials[rnd() % (sizeof specials / sizeof specials[0])];
    case 1: return (rnd_unit() - 0.5) * 600.0;
    case 2: return (rnd_unit() - 0.5) * 1e10;
    default: return ldexp(rnd_unit() - 0.5, (int)(rnd() % 140) - 70);
    }
}

/* Random elements for the casts: integers any bits, a quarter of them below
   300; floating values (complex: each part) from rnd_double (a real one
   draws two, keeping the first). */
static uint64_t cast_integer(ga_dtype t, const fill_spec *s)
{
    (void)s;
    uint64_t v = rnd();
    if (t != GA_BOOL && rnd() % 4 == 0) v %= 300;
    return v;
}
static void cast_floating(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    (void)t, (void)s;
    *re = rnd_double();
    *im = rnd_double();
}
static const fill_spec CAST_VALUES = {.integer = cast_integer, .floating = cast_floating};

/* Whether two elements of dtype t match: bitwise, NaN matching any NaN. */
static int same_element(int t, const void *a, const void *b)
{
    size_t sz = (size_t)ref_itemsize[t];
    if (memcmp(a, b, sz) == 0) return 1;
    if (t < REF_FLOAT16) return 0;
    if (t >= REF_COMPLEX64) {
        int part = t == REF_COMPLEX64 ? REF_FLOAT32 : REF_FLOAT64;
        size_t h = sz / 2;
        return same_element(part, a, b) && same_element(part, (const char *)a + h, (const char *)b + h);
    }
    return isnan(ref_to_double(t, a)) && isnan(ref_to_double(t, b));
}

/* a's elements in a new host buffer (free it). */
static void *download_new(const ga_array *a)
{
    size_t n = ga_nbytes(a) ? ga_nbytes(a) : 1;
    void *h = malloc(n);
    if (ga_to_host(a, h, n) != GA_OK) test_fail(__FILE__, __LINE__, "ga_to_host: %s", ga_last_error_message());
    return h;
}

static int64_t family_index(const char *name)
{
    for (int i = 0; i < ga_kernel_family_count(); i++)
        if (strcmp(ga_kernel_family_name(i), name) == 0) return i;
    return -1;
}

/* ---- tests (this one first: it needs a process with no kernels loaded) --- */

DEVICE_TEST(kernel_families_load_lazily)
{
    int copy = (int)family_index("copy"), creation = (int)family_index("creation");
    CHECK(copy >= 0 && creation >= 0, "both families are known");
    CHECK(!ga_kernel_family_loaded(copy) && !ga_kernel_family_loaded(creation), "nothing loaded at start");
    int64_t n = 1000;
    ga_array *z = ga_zeros(1, &n, GA_FLOAT32); /* a memset: no kernel */
    CHECK(z && !ga_kernel_family_loaded(creation), "zeros needs no kernel");
    ga_array *o = ga_ones(1, &n, GA_FLOAT32);
    CHECK(o && ga_kernel_family_loaded(creation) && !ga_kernel_family_loaded(copy), "ones loads 'creation' only");
    ga_array *d = ga_astype(o, GA_FLOAT64);
    CHECK(d && ga_kernel_family_loaded(copy), "astype loads 'copy'");
    ga_release(z);
    ga_release(o);
    ga_release(d);
}

DEVICE_TEST(devices_and_properties)
{
    int n = ga_device_count();
    CHECK(n >= 1, "at least one device (%d)", n);
    ga_device_properties p;
    CHECK_OK(ga_device_get_properties(0, &p));
    CHECK(p.multiprocessor_count > 0 && p.total_memory > ((size_t)1 << 30) && p.warp_size == 32 &&
              p.compute_capability_major >= 7 && strlen(p.name) > 0,
          "plausible properties: %s sm_%d%d, %d SMs", p.name, p.compute_capability_major,
          p.compute_capability_minor, p.multiprocessor_count);
    printf("device 0: %s, sm_%d%d, %d SMs, %.1f GiB, L2 %zu MiB, driver %d\n", p.name, p.compute_capability_major,
           p.compute_capability_minor, p.multiprocessor_count, (double)p.total_memory / (1 << 30),
           p.l2_cache_size >> 20, ga_driver_version());
    CHECK_ERROR(ga_device_get_properties(n, &p) != GA_OK, GA_ERROR_DEVICE, "does not exist");
    CHECK_ERROR(ga_device_set(n + 3) != GA_OK, GA_ERROR_DEVICE, "ga_device_set: device");
    CHECK(ga_device_get() == 0, "the current device did not change");
    CHECK_OK(ga_device_push(n - 1));
    CHECK(ga_device_get() == n - 1, "pushed");
    CHECK_OK(ga_device_pop());
    CHECK(ga_device_get() == 0, "popped");
    size_t fr = 0, tot = 0;
    CHECK_OK(ga_device_memory_info(0, &fr, &tot));
    CHECK(fr > 0 && fr <= tot, "memory info");
    CHECK_OK(ga_device_synchronize());
}

DEVICE_TEST(creation_values_every_dtype)
{
    static const int64_t shapes[][3] = {{0}, {0}, {1}, {7}, {1000003}, {3, 5, 7}};
    static const int ndims[] = {0, 1, 1, 1, 1, 3};
    ga_scalar values[4] = {ga_int(1), ga_float(-2.75), ga_complex(1.5, -2.0), ga_bool(true)};
    for (int t = 0; t < GA_NUM_DTYPES; t++)
        for (int s = 0; s < 6; s++)
            for (int v = -1; v < 4; v++) {
                int64_t size = 1;
                for (int d = 0; d < ndims[s]; d++) size *= shapes[s][d];
                poison_next((size_t)size * ga_dtype_itemsize((ga_dtype)t));
                ga_array *a = v < 0 ? ga_zeros(ndims[s], shapes[s], (ga_dtype)t)
                                    : v == 0 ? ga_ones(ndims[s], shapes[s], (ga_dtype)t)
                                             : ga_full(ndims[s], shapes[s], values[v], (ga_dtype)t);
                CHECK(a != NULL, "%s shape %d value %d: %s", ga_dtype_name((ga_dtype)t), s, v, ga_last_error_message());
                if (!a) continue;
                CHECK(ga_ndim(a) == ndims[s] && ga_size(a) == size && ga_dtype_of(a) == t, "attributes");
                CHECK((ga_flags(a) & (GA_C_CONTIGUOUS | GA_OWNDATA | GA_WRITEABLE)) ==
                          (GA_C_CONTIGUOUS | GA_OWNDATA | GA_WRITEABLE), "flags %d", ga_flags(a));
                unsigned char want[16], src[16];
                if (v <= 0) { /* 0 or 1 from int64 */
                    int64_t x = v < 0 ? 0 : 1;
                    ref_cast(REF_INT64, &x, t, want);
                } else if (v == 1) {
                    double x = -2.75;
                    ref_cast(REF_FLOAT64, &x, t, want);
                } else if (v == 2) {
                    double c[2] = {1.5, -2.0};
                    memcpy(src, c, 16);
                    ref_cast(REF_COMPLEX128, src, t, want);
                } else {
                    src[0] = 1;
                    ref_cast(REF_BOOL, src, t, want);
                }
                unsigned char *h = (unsigned char *)download_new(a);
                int64_t bad = 0;
                for (int64_t i = 0; i < size; i++)
                    if (!same_element(t, h + i * ref_itemsize[t], want)) bad++;
                CHECK(bad == 0, "%s shape %d value %d: %lld wrong elements", ga_dtype_name((ga_dtype)t), s, v,
                      (long long)bad);
                free(h);
                ga_release(a);
            }
    CHECK_ERROR(ga_full(1, (int64_t[]){4}, ga_int(300), GA_INT8) == NULL, GA_ERROR_OVERFLOW,
                "ga_full: Python integer 300 out of bounds for int8");
    CHECK_ERROR(ga_zeros(2, (int64_t[]){3, -1}, GA_FLOAT32) == NULL, GA_ERROR_VALUE,
                "ga_zeros: negative dimensions are not allowed");
    CHECK_ERROR(ga_empty(1, (int64_t[]){4}, (ga_dtype)99) == NULL, GA_ERROR_TYPE, "invalid dtype");
    int64_t huge = (int64_t)1 << 50;
    CHECK_ERROR(ga_empty(1, &huge, GA_FLOAT64) == NULL, GA_ERROR_OUT_OF_MEMORY, "ga_empty: out of memory allocating 8.00 PiB");
}

DEVICE_TEST(like_functions_follow_the_prototype)
{
    int64_t shape[2] = {3, 4};
    ga_array *a = ga_arange_int(0, 12, 1, GA_INT16);
    ga_array *m = ga_as_strided(a, 2, shape, (int64_t[]){2, 6}, 0); /* a transposed-looking view */
    ga_array *e = ga_empty_like(m), *z = ga_zeros_like(m), *o = ga_ones_like(m), *f = ga_full_like(m, ga_int(-5));
    CHECK(e && z && o && f, "made");
    CHECK(ga_ndim(e) == 2 && ga_shape(e)[0] == 3 && ga_shape(e)[1] == 4 && ga_dtype_of(e) == GA_INT16 &&
              (ga_flags(e) & GA_C_CONTIGUOUS), "like: shape, dtype, C order");
    int16_t h[12];
    CHECK_OK(ga_to_host(f, h, sizeof h));
    CHECK(h[0] == -5 && h[11] == -5, "full_like value");
    CHECK_OK(ga_to_host(o, h, sizeof h));
    CHECK(h[5] == 1, "ones_like value");
    CHECK(ga_empty_like(NULL) == NULL, "NULL propagates");
    ga_clear_error();
    ga_release(a); ga_release(m); ga_release(e); ga_release(z); ga_release(o); ga_release(f);
}

DEVICE_TEST(arange_linspace_logspace_eye)
{
    ga_array *a = ga_arange(0, 1, 0.1, GA_FLOAT32);
    float f[10];
    CHECK(a && ga_size(a) == 10, "arange(0, 1, 0.1) has 10 elements");
    CHECK_OK(ga_to_host(a, f, sizeof f));
    CHECK(f[9] == 9 * 0.1f && f[3] == 3 * 0.1f, "computed in float32 as NumPy: %.9g", f[9]);
    ga_release(a);
    a = ga_arange(0, 1, 0.1, GA_FLOAT64);
    double d[10];
    CHECK_OK(ga_to_host(a, d, sizeof d));
    for (int i = 0; i < 10; i++) CHECK(d[i] == i * 0.1, "float64 arange[%d] = %.17g", i, d[i]);
    ga_release(a);
    a = ga_arange_int(10, -7, -3, GA_INT32);
    int32_t iv[6];
    CHECK(a && ga_size(a) == 6, "arange(10, -7, -3) has 6 elements");
    CHECK_OK(ga_to_host(a, iv, sizeof iv));
    CHECK(iv[0] == 10 && iv[5] == -5, "negative step");
    ga_release(a);
    a = ga_arange_int(INT64_MIN, INT64_MAX, INT64_MAX, GA_INT64);
    CHECK(a && ga_size(a) == 3, "no overflow in the count (%lld)", (long long)ga_size(a));
    ga_release(a);
    a = ga_arange(0, 2, 1, GA_BOOL);
    unsigned char b[2];
    CHECK_OK(ga_to_host(a, b, 2));
    CHECK(b[0] == 0 && b[1] == 1, "bool arange");
    ga_release(a);
    a = ga_arange(5, 1, 1, GA_FLOAT64);
    CHECK(a && ga_size(a) == 0, "empty range");
    ga_release(a);
    a = ga_arange(0, 10, 3, GA_COMPLEX64);
    float c[8];
    CHECK_OK(ga_to_host(a, c, sizeof c));
    CHECK(c[6] == 9.0f && c[7] == 0.0f, "complex arange");
    ga_release(a);
    CHECK_ERROR(ga_arange(0, 3, 1, GA_BOOL) == NULL, GA_ERROR_TYPE, "only supported for booleans when the result has at most length 2");
    CHECK_ERROR(ga_arange(0, 3, 0, GA_FLOAT32) == NULL, GA_ERROR_VALUE, "ga_arange: step must not be zero");
    CHECK_ERROR(ga_arange_int(0, 3, 0, GA_INT32) == NULL, GA_ERROR_VALUE, "ga_arange_int: step must not be zero");
    CHECK_ERROR(ga_arange(0, NAN, 1, GA_FLOAT32) == NULL, GA_ERROR_VALUE, "cannot compute length");

    a = ga_linspace(0, 10, 4, true, GA_INT32);
    CHECK_OK(ga_to_host(a, iv, 4 * sizeof(int32_t)));
    CHECK(iv[0] == 0 && iv[1] == 3 && iv[2] == 6 && iv[3] == 10, "linspace floors into int32: %d %d %d %d", iv[0], iv[1], iv[2], iv[3]);
    ga_release(a);
    a = ga_linspace(-1, 1, 9, false, GA_FLOAT64);
    CHECK_OK(ga_to_host(a, d, 9 * sizeof(double)));
    for (int i = 0; i < 9; i++) CHECK(d[i] == i * (2.0 / 9) + -1, "linspace[%d] = %.17g", i, d[i]);
    ga_release(a);
    a = ga_linspace(0.1, 0.7, 7, true, GA_FLOAT64);
    CHECK_OK(ga_to_host(a, d, 7 * sizeof(double)));
    CHECK(d[6] == 0.7, "the endpoint is exactly stop");
    ga_release(a);
    a = ga_linspace(3, 9, 1, true, GA_FLOAT32);
    CHECK_OK(ga_to_host(a, f, 4));
    CHECK(ga_size(a) == 1 && f[0] == 3.0f, "one sample is start");
    ga_release(a);
    a = ga_linspace(5, 5, 3, true, GA_FLOAT64);
    CHECK_OK(ga_to_host(a, d, 3 * sizeof(double)));
    CHECK(d[0] == 5 && d[1] == 5 && d[2] == 5, "zero step");
    ga_release(a);
    a = ga_logspace(0, 3, 4, true, 10, GA_INT32);
    CHECK_OK(ga_to_host(a, iv, 4 * sizeof(int32_t)));
    CHECK(iv[0] == 1 && iv[1] == 10 && iv[2] == 100 && iv[3] == 1000, "logspace");
    ga_release(a);
    a = ga_logspace(0, 4, 5, true, 2, GA_FLOAT64);
    CHECK_OK(ga_to_host(a, d, 5 * sizeof(double)));
    CHECK(d[4] == 16.0 && d[1] == 2.0, "base 2");
    ga_release(a);
    a = ga_linspace(0, 1, 0, true, GA_FLOAT64);
    CHECK(a && ga_size(a) == 0, "num 0");
    ga_release(a);
    CHECK_ERROR(ga_linspace(0, 1, -1, true, GA_FLOAT64) == NULL, GA_ERROR_VALUE,
                "Number of samples, -1, must be non-negative.");

    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        int64_t n = 5, m = 7, k = -2;
        poison_next((size_t)(n * m) * ga_dtype_itemsize((ga_dtype)t));
        a = ga_eye(n, m, k, (ga_dtype)t);
        CHECK(a && ga_shape(a)[0] == 5 && ga_shape(a)[1] == 7, "eye shape");
        unsigned char *h = (unsigned char *)download_new(a), one[16], zero[16];
        int64_t o = 1, z = 0;
        ref_cast(REF_INT64, &o, t, one);
        ref_cast(REF_INT64, &z, t, zero);
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++)
                bad += !same_element(t, h + (i * m + j) * ref_itemsize[t], j - i == k ? one : zero);
        CHECK(bad == 0, "eye(5, 7, -2) of %s: %d wrong", ga_dtype_name((ga_dtype)t), bad);
        free(h);
        ga_release(a);
    }
    a = ga_identity(3, GA_COMPLEX128);
    double id[18];
    CHECK_OK(ga_to_host(a, id, sizeof id));
    CHECK(id[0] == 1 && id[1] == 0 && id[8] == 1 && id[2] == 0, "identity");
    ga_release(a);
    a = ga_eye(3, -1, 5, GA_FLOAT32);
    CHECK_OK(ga_to_host(a, f, 9 * sizeof(float)));
    CHECK(ga_shape(a)[1] == 3 && f[0] == 0 && f[4] == 0 && f[8] == 0, "a diagonal outside the matrix");
    ga_release(a);
    CHECK_ERROR(ga_eye(-1, 2, 0, GA_FLOAT32) == NULL, GA_ERROR_VALUE, "ga_eye: negative dimensions are not allowed");
}

/* Casts `n` random elements of every dtype to every dtype through a view of
   the given layout; compares with ref_cast. */
static void check_astype_layout(const char *what, int64_t n, int64_t step, int64_t offset_items)
{
    for (int from = 0; from < GA_NUM_DTYPES; from++) {
        size_t isz = (size_t)ref_itemsize[from];
        int64_t span = n == 0 ? 1 : (n - 1) * (step < 0 ? -step : step) + 1 + offset_items;
        unsigned char *src = (unsigned char *)malloc((size_t)span * isz);
        fill_random(src, span, from, &CAST_VALUES);
        ga_array *base = ga_from_host(src, 1, &span, (ga_dtype)from);
        int64_t strides = step * (int64_t)isz;
        int64_t first = offset_items + (step < 0 ? (n - 1) * -step : 0);
        ga_array *view = ga_as_strided(base, 1, &n, &strides, first * (int64_t)isz);
        CHECK(view != NULL, "%s view: %s", what, ga_last_error_message());
        for (int to = 0; to < GA_NUM_DTYPES && view; to++) {
            size_t osz = (size_t)ref_itemsize[to];
            poison_next((size_t)n * osz);
            ga_array *out = ga_astype(view, (ga_dtype)to);
            CHECK(out && ga_dtype_of(out) == to && ga_size(out) == n, "%s astype %s->%s: %s", what,
                  ga_dtype_name((ga_dtype)from), ga_dtype_name((ga_dtype)to), ga_last_error_message());
            if (!out) continue;
            unsigned char *h = (unsigned char *)download_new(out);
            int64_t bad = 0, first_bad = -1;
            unsigned char want[16];
            for (int64_t i = 0; i < n; i++) {
                ref_cast(from, src + (size_t)(first + i * step) * isz, to, want);
                if (!same_element(to, h + (size_t)i * osz, want)) {
                    if (first_bad < 0) first_bad = i;
                    bad++;
                }
            }
            if (bad) {
                ref_cast(from, src + (size_t)(first + first_bad * step) * isz, to, want);
                double in = ref_to_double(from, src + (size_t)(first + first_bad * step) * isz);
                CHECK(0, "%s astype %s->%s: %lld of %lld wrong; first at %lld: input %.17g, got %.17g, want %.17g",
                      what, ga_dtype_name((ga_dtype)from), ga_dtype_name((ga_dtype)to), (long long)bad, (long long)n,
                      (long long)first_bad, in, ref_to_double(to, h + (size_t)first_bad * osz), ref_to_double(to, want));
            }
            free(h);
            ga_release(out);
        }
        ga_release(view);
        ga_release(base);
        free(src);
    }
}

DEVICE_TEST(astype_every_pair_contiguous)
{
    check_astype_layout("contiguous", 100003, 1, 0);
    check_astype_layout("offset by one element", 4099, 1, 1);
    check_astype_layout("one element", 1, 1, 0);
    check_astype_layout("empty", 0, 1, 0);
}

DEVICE_TEST(astype_every_pair_strided)
{
    check_astype_layout("stride 3", 5001, 3, 2);
    check_astype_layout("reversed", 4097, -1, 0);
    check_astype_layout("reversed stride 2", 999, -2, 1);
}

DEVICE_TEST(copyto_broadcasts_casts_and_handles_overlap)
{
    /* a row broadcast into a transposed destination, with a cast */
    int64_t row_n = 5;
    float row[5] = {1.5f, -2.5f, 3.25f, 1e10f, -0.0f};
    ga_array *r = ga_from_host(row, 1, &row_n, GA_FLOAT32);
    int64_t shape[2] = {4, 5};
    ga_array *base = ga_zeros(2, (int64_t[]){5, 4}, GA_FLOAT64);
    ga_array *dst = ga_as_strided(base, 2, shape, (int64_t[]){8, 32}, 0); /* base.T */
    CHECK_OK(ga_copyto(dst, r, GA_CASTING_SAME_KIND));
    double h[20];
    CHECK_OK(ga_to_host(base, h, sizeof h)); /* base[j][i] = row[j] */
    int bad = 0;
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 4; i++) bad += h[j * 4 + i] != (double)row[j];
    CHECK(bad == 0, "broadcast row into a transposed view: %d wrong", bad);
    /* a 0-d source fills everything */
    ga_array *s = ga_full(0, NULL, ga_float(7.0), GA_FLOAT32);
    CHECK_OK(ga_copyto(base, s, GA_CASTING_SAFE));
    CHECK_OK(ga_to_host(base, h, sizeof h));
    CHECK(h[0] == 7 && h[19] == 7, "0-d source");
    /* errors, with NumPy's words */
    ga_array *i32 = ga_zeros(2, shape, GA_INT32);
    CHECK_ERROR(ga_copyto(i32, dst, GA_CASTING_SAME_KIND) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'");
    ga_array *three = ga_zeros(1, (int64_t[]){3}, GA_FLOAT64);
    CHECK_ERROR(ga_copyto(base, three, GA_CASTING_SAME_KIND) != GA_OK, GA_ERROR_SHAPE,
                "could not broadcast input array from shape (3,) into shape (5,4)");
    CHECK_OK(ga_copyto(i32, dst, GA_CASTING_UNSAFE));
    /* overlap: shift a range by one inside the same buffer (NumPy copies as if through a temporary) */
    int64_t n = 10001;
    ga_array *v = ga_arange_int(0, n, 1, GA_INT64);
    int64_t m = n - 1;
    ga_array *lo = ga_as_strided(v, 1, &m, (int64_t[]){8}, 0), *hi = ga_as_strided(v, 1, &m, (int64_t[]){8}, 8);
    CHECK_OK(ga_copyto(hi, lo, GA_CASTING_NO));
    int64_t *hv = (int64_t *)download_new(v);
    bad = hv[0] != 0;
    for (int64_t i = 1; i < n; i++) bad += hv[i] != i - 1;
    CHECK(bad == 0, "overlapping copy: %d wrong", bad);
    free(hv);
    ga_release(r); ga_release(base); ga_release(dst); ga_release(s); ga_release(i32); ga_release(three);
    ga_release(v); ga_release(lo); ga_release(hi);
}

/* Transposing copies of every item size, 2-d both ways and batched, odd
   sizes: the tiled kernel's edges. */
DEVICE_TEST(transposing_copies)
{
    static const ga_dtype types[] = {GA_UINT8, GA_FLOAT16, GA_FLOAT32, GA_COMPLEX64, GA_COMPLEX128};
    static const int64_t dims[][3] = {{1, 33, 65}, {1, 1000, 3}, {1, 31, 32}, {5, 47, 129}, {3, 64, 64}};
    for (int t = 0; t < 5; t++)
        for (int c = 0; c < 5; c++)
            for (int mirrored = 0; mirrored < 2; mirrored++) {
                int64_t B = dims[c][0], R = dims[c][1], C = dims[c][2], n = B * R * C;
                int64_t isz = (int64_t)ga_dtype_itemsize(types[t]);
                unsigned char *src = (unsigned char *)malloc((size_t)(n * isz));
                fill_random(src, n, types[t], &CAST_VALUES);
                ga_array *in = ga_from_host(src, 1, &n, types[t]);
                /* in holds (B, C, R) in C order; view it as (B, R, C) */
                int64_t shape[3] = {B, R, C}, view_strides[3] = {R * C * isz, isz, R * isz};
                ga_array *v = ga_as_strided(in, 3, shape, view_strides, 0);
                poison_next((size_t)(n * isz));
                ga_array *out;
                if (!mirrored) {
                    out = ga_copy(v); /* C order: contiguous along cols */
                } else { /* an F-ordered-per-batch destination: contiguous along rows */
                    ga_array *buf = ga_empty(1, &n, types[t]);
                    int64_t fs[3] = {R * C * isz, isz, R * isz};
                    out = ga_as_strided(buf, 3, shape, fs, 0);
                    ga_release(buf);
                    /* the source then is C order: read it as (B, R, C) contiguous */
                    ga_release(v);
                    int64_t cs[3] = {R * C * isz, C * isz, isz};
                    v = ga_as_strided(in, 3, shape, cs, 0);
                    CHECK_OK(ga_copyto(out, v, GA_CASTING_NO));
                }
                unsigned char *h = (unsigned char *)malloc((size_t)(n * isz));
                CHECK_OK(ga_to_host(out, h, (size_t)(n * isz))); /* C order of (B, R, C) */
                int64_t bad = 0;
                for (int64_t b = 0; b < B; b++)
                    for (int64_t r = 0; r < R; r++)
                        for (int64_t k = 0; k < C; k++) {
                            int64_t src_index = mirrored ? (b * R + r) * C + k : (b * C + k) * R + r;
                            bad += memcmp(h + ((b * R + r) * C + k) * isz, src + src_index * isz, (size_t)isz) != 0;
                        }
                CHECK(bad == 0, "%s %s (%lld, %lld, %lld): %lld wrong", ga_dtype_name(types[t]),
                      mirrored ? "into a transposed view" : "from a transposed view", (long long)B, (long long)R,
                      (long long)C, (long long)bad);
                free(src);
                free(h);
                ga_release(in);
                ga_release(v);
                ga_release(out);
            }
}

DEVICE_TEST(copy_uses_64_bit_indexing_beyond_2_gib)
{
    int64_t n = ((int64_t)1 << 31) + 64;
    ga_array *big = ga_empty(1, &n, GA_UINT8);
    CHECK(big != NULL, "2 GiB: %s", ga_last_error_message());
    if (!big) return;
    unsigned char marks[3] = {11, 22, 33};
    for (int i = 0; i < 3; i++) {
        ga_array *one = ga_as_strided(big, 0, NULL, NULL, (int64_t)i << 30);
        ga_array *v = ga_full(0, NULL, ga_int(marks[i]), GA_UINT8);
        CHECK_OK(ga_copyto(one, v, GA_CASTING_NO));
        ga_release(one);
        ga_release(v);
    }
    int64_t three = 3, stride = (int64_t)1 << 30;
    ga_array *view = ga_as_strided(big, 1, &three, &stride, 0);
    ga_array *c = ga_astype(view, GA_INT32); /* offsets beyond int32: the 64-bit kernel */
    int32_t got[3] = {0};
    CHECK_OK(ga_to_host(c, got, sizeof got));
    CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33, "got %d %d %d", got[0], got[1], got[2]);
    ga_release(c);
    ga_release(view);
    ga_release(big);
}

DEVICE_TEST(views_share_and_check_their_buffer)
{
    ga_array *a = ga_arange_int(0, 24, 1, GA_FLOAT32);
    ga_array *t = ga_as_strided(a, 2, (int64_t[]){4, 6}, (int64_t[]){4, 16}, 0);
    CHECK(t && !(ga_flags(t) & GA_OWNDATA) && !(ga_flags(t) & GA_C_CONTIGUOUS), "a view: flags %d", ga_flags(t));
    ga_release(a); /* the view keeps the buffer alive */
    float h[24];
    CHECK_OK(ga_to_host(t, h, sizeof h));
    CHECK(h[1] == 4 && h[6] == 1 && h[23] == 23, "transposed values %g %g %g", h[1], h[6], h[23]);
    CHECK_ERROR(ga_as_strided(t, 1, (int64_t[]){25}, (int64_t[]){4}, 0) == NULL, GA_ERROR_VALUE, "outside the buffer of 96 bytes");
    CHECK_ERROR(ga_as_strided(t, 1, (int64_t[]){2}, (int64_t[]){-4}, 0) == NULL, GA_ERROR_VALUE, "outside the buffer");
    CHECK_ERROR(ga_as_strided(t, 1, (int64_t[]){2}, (int64_t[]){4}, 2) == NULL, GA_ERROR_VALUE,
                "the offset and strides must be multiples of 4 bytes for float32");
    CHECK_ERROR(ga_as_strided(t, 1, (int64_t[]){2}, (int64_t[]){6}, 0) == NULL, GA_ERROR_VALUE, "multiples of 4 bytes");
    ga_array *rev = ga_as_strided(t, 1, (int64_t[]){24}, (int64_t[]){-4}, 92);
    CHECK(rev != NULL, "a reversed view");
    CHECK_OK(ga_to_host(rev, h, sizeof h));
    CHECK(h[0] == 23 && h[23] == 0, "reversed values");
    CHECK_ERROR(ga_to_host(rev, h, 8) != GA_OK, GA_ERROR_VALUE, "the destination holds 8 bytes; the array needs 96");
    ga_release(rev);
    ga_release(t);
}

DEVICE_TEST(transfers_sync_async_and_pinned)
{
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        int64_t shape[2] = {37, 11};
        size_t nbytes = 37 * 11 * (size_t)ref_itemsize[t];
        unsigned char *src = (unsigned char *)malloc(nbytes), *back = (unsigned char *)malloc(nbytes);
        fill_random(src, 37 * 11, t, &CAST_VALUES);
        ga_array *a = ga_from_host(src, 2, shape, (ga_dtype)t);
        CHECK_OK(ga_to_host(a, back, nbytes));
        CHECK(memcmp(src, back, nbytes) == 0, "%s round trip", ga_dtype_name((ga_dtype)t));
        /* into a strided destination, then back */
        ga_array *wide = ga_zeros(2, (int64_t[]){37, 22}, (ga_dtype)t);
        ga_array *half = ga_as_strided(wide, 2, shape, (int64_t[]){22 * ref_itemsize[t], 2 * ref_itemsize[t]}, 0);
        CHECK_OK(ga_copy_from_host(half, src, nbytes));
        memset(back, 0, nbytes);
        CHECK_OK(ga_to_host(half, back, nbytes));
        CHECK(memcmp(src, back, nbytes) == 0, "%s strided set/get", ga_dtype_name((ga_dtype)t));
        CHECK_ERROR(ga_copy_from_host(half, src, nbytes - 1) != GA_OK, GA_ERROR_VALUE, "the source holds");
        ga_release(a); ga_release(wide); ga_release(half);
        free(src);
        free(back);
    }
    /* 0-d and empty */
    double x = 3.5, y = 0;
    ga_array *s = ga_from_host(&x, 0, NULL, GA_FLOAT64);
    CHECK_OK(ga_to_host(s, &y, sizeof y));
    CHECK(y == 3.5 && ga_ndim(s) == 0 && ga_size(s) == 1, "0-d");
    ga_release(s);
    int64_t zero = 0;
    ga_array *e = ga_from_host(NULL, 1, &zero, GA_INT8);
    CHECK(e && ga_size(e) == 0 && ga_data(e) == NULL, "empty arrays need no data");
    CHECK_OK(ga_to_host(e, NULL, 0));
    ga_release(e);
    /* asynchronous copies from page-locked memory on a stream */
    ga_stream *st = ga_stream_create(true);
    CHECK_OK(ga_stream_push(st));
    int64_t n = 1 << 22;
    float *pin = (float *)ga_pinned_alloc((size_t)n * 4), *pin2 = (float *)ga_pinned_alloc((size_t)n * 4);
    CHECK(pin && pin2, "pinned: %s", ga_last_error_message());
    for (int64_t i = 0; i < n; i++) pin[i] = (float)i;
    ga_array *a = ga_from_host_async(pin, 1, &n, GA_FLOAT32);
    ga_array *b = ga_astype(a, GA_FLOAT64);
    ga_array *c = ga_astype(b, GA_FLOAT32);
    CHECK_OK(ga_to_host_async(c, pin2, (size_t)n * 4));
    CHECK_OK(ga_stream_synchronize(NULL));
    CHECK(memcmp(pin, pin2, (size_t)n * 4) == 0, "async round trip through casts");
    ga_memory_stats ps;
    CHECK_OK(ga_pinned_get_stats(&ps));
    CHECK(ps.used_bytes >= (size_t)n * 8, "pinned stats %zu", ps.used_bytes);
    ga_pinned_free(pin);
    ga_pinned_free(pin2);
    ga_pinned_free((void *)&x);
    CHECK_ERROR(1, GA_ERROR_VALUE, "was not allocated by ga_pinned_alloc");
    CHECK_OK(ga_pinned_free_all_blocks());
    ga_release(a); ga_release(b); ga_release(c);
    CHECK_OK(ga_stream_pop());
    ga_stream_destroy(st);
    /* another device, or a copy on this one */
    int64_t k = 1000;
    ga_array *src = ga_arange_int(0, k, 1, GA_INT32);
    int target = ga_device_count() > 1 ? 1 : 0;
    ga_array *moved = ga_to_device(src, target);
    CHECK(moved && ga_device_of(moved) == target, "to_device %d: %s", target, ga_last_error_message());
    int32_t hv[1000];
    CHECK_OK(ga_to_host(moved, hv, sizeof hv));
    CHECK(hv[999] == 999, "values moved");
    ga_release(src);
    ga_release(moved);
}

DEVICE_TEST(streams_and_events)
{
    ga_stream *s = ga_stream_create(false);
    ga_event *e0 = ga_event_create(true), *e1 = ga_event_create(true);
    CHECK(s && e0 && e1, "made");
    CHECK(ga_stream_get_current() == NULL, "the default stream is current");
    CHECK_OK(ga_stream_set_current(s));
    CHECK(ga_stream_get_current() == s && ga_stream_device(s) == 0 && ga_stream_handle(s) != NULL, "current");
    CHECK_OK(ga_event_record(e0, NULL));
    int64_t n = 1 << 24;
    ga_array *a = ga_ones(1, &n, GA_FLOAT32);
    CHECK_OK(ga_event_record(e1, s));
    CHECK_OK(ga_event_synchronize(e1));
    CHECK(ga_event_query(e1) == 1 && ga_stream_query(s) == 1, "done after synchronize");
    float ms = -1;
    CHECK_OK(ga_event_elapsed_ms(e0, e1, &ms));
    CHECK(ms >= 0 && ms < 1000, "elapsed %g ms", ms);
    /* a second stream waits for the first through an event */
    ga_stream *s2 = ga_stream_create(true);
    CHECK_OK(ga_stream_wait_event(s2, e1));
    CHECK_OK(ga_stream_synchronize(s2));
    /* wrap the stream by handle: same queue */
    ga_stream *w = ga_stream_wrap(ga_stream_handle(s), 0);
    CHECK(w && ga_stream_handle(w) == ga_stream_handle(s), "wrapped");
    ga_stream_destroy(w);
    CHECK_OK(ga_stream_synchronize(s)); /* still alive after destroying the wrapper */
    ga_release(a);
    ga_stream_destroy(s);
    CHECK(ga_stream_get_current() == NULL, "destroying the current stream makes the default current");
    ga_stream_destroy(s2);
    ga_event_destroy(e0);
    ga_event_destroy(e1);
    CHECK_ERROR(ga_event_record(NULL, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_event_record: event is NULL");
}

DEVICE_TEST(pool_reuses_across_streams_after_their_work)
{
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_memory_free_all_blocks(0)); /* only fresh chunks from here on */
    ga_stream *sa = ga_stream_create(true), *sb = ga_stream_create(true);
    size_t big = (size_t)1 << 30, mid = (size_t)64 << 20;
    CHECK_OK(ga_stream_push(sa));
    void *fill = ga_memory_alloc(big);
    void *p = ga_memory_alloc(mid);
    GA__CU.MemsetD8Async((CUdeviceptr)(uintptr_t)fill, 1, big, ga__stream_of(0)); /* keep stream A busy */
    GA__CU.MemsetD8Async((CUdeviceptr)(uintptr_t)p, 2, mid, ga__stream_of(0));
    ga_memory_free(p);
    void *again = ga_memory_alloc(mid);
    CHECK(again == p, "the same stream reuses the block at once");
    ga_memory_free(again);
    CHECK_OK(ga_stream_pop());
    CHECK_OK(ga_stream_push(sb));
    void *q = ga_memory_alloc(mid); /* records an event on stream A */
    CHECK(q != p || ga_stream_query(sa) == 1, "another stream gets the block only once stream A is done");
    CHECK_OK(ga_stream_synchronize(sa));
    void *r = ga_memory_alloc(mid); /* B's own slot is empty: the event is seen done */
    CHECK(r == p, "after stream A's work, stream B reuses the block");
    ga_memory_free(q);
    ga_memory_free(r);
    CHECK_OK(ga_stream_pop());
    CHECK_OK(ga_stream_push(sa));
    ga_memory_free(fill);
    CHECK_OK(ga_stream_pop());
    ga_stream_destroy(sa);
    ga_stream_destroy(sb);
    ga_memory_free((void *)(uintptr_t)0x1234);
    CHECK_ERROR(1, GA_ERROR_VALUE, "was not allocated by ga_memory_alloc");
}

/* Two or more GPUs: kernels, pools, streams and copies on each (one GPU:
   the test checks the single-device answers only). */
DEVICE_TEST(several_devices)
{
    int n = ga_device_count();
    if (n < 2) {
        CHECK_ERROR(ga_to_device(NULL, 1) == NULL, GA_ERROR_NULL_INPUT, "ga_to_device: a is NULL");
        return;
    }
    int64_t k = 100003;
    ga_array *a0 = ga_arange_int(0, k, 1, GA_INT32);
    CHECK_OK(ga_device_push(1));
    ga_stream *s1 = ga_stream_create(true);
    CHECK_OK(ga_stream_push(s1));
    ga_scope_begin();
    ga_array *b1 = ga_keep(ga_astype(ga_ones(1, &k, GA_FLOAT32), GA_FLOAT64)); /* kernels in device 1's context */
    ga_scope_end();
    CHECK(b1 && ga_device_of(b1) == 1, "made on device 1: %s", ga_last_error_message());
    ga_array *moved = ga_to_device(a0, 1);
    CHECK(moved && ga_device_of(moved) == 1, "to device 1");
    ga_array *back = ga_to_device(moved, 0);
    CHECK(back && ga_device_of(back) == 0, "and back");
    ga_array *cast1 = ga_zeros(1, &k, GA_FLOAT64);
    CHECK_OK(ga_copyto(cast1, a0, GA_CASTING_SAFE)); /* the source lives on device 0 */
    CHECK_OK(ga_stream_synchronize(NULL));
    ga_memory_stats st0, st1;
    CHECK_OK(ga_memory_get_stats(0, &st0));
    CHECK_OK(ga_memory_get_stats(1, &st1));
    CHECK(st1.used_bytes >= (size_t)k * (8 + 4 + 8), "device 1's pool holds its arrays (%zu)", st1.used_bytes);
    CHECK_OK(ga_stream_pop());
    CHECK_OK(ga_device_pop());
    CHECK(ga_device_get() == 0 && ga_stream_get_current() == NULL, "back on device 0's default stream");
    int32_t *h = (int32_t *)malloc((size_t)k * 4);
    double *d = (double *)malloc((size_t)k * 8);
    CHECK_OK(ga_to_host(back, h, (size_t)k * 4));
    CHECK(h[0] == 0 && h[k - 1] == k - 1, "round trip through device 1");
    CHECK_OK(ga_to_host(cast1, d, (size_t)k * 8));
    CHECK(d[1] == 1.0 && d[k - 1] == (double)(k - 1), "copyto across devices with a cast");
    CHECK_OK(ga_to_host(b1, d, (size_t)k * 8));
    CHECK(d[0] == 1.0 && d[k - 1] == 1.0, "device 1 kernels");
    free(h);
    free(d);
    ga_release(a0); ga_release(b1); ga_release(moved); ga_release(back); ga_release(cast1);
    ga_stream_destroy(s1);
}

static int hook_allocs, hook_frees;
static int hook_alloc(void *user, int device, size_t bytes, uint64_t *ptr)
{
    (void)user;
    (void)device;
    CUdeviceptr p;
    if (GA__CU.MemAlloc(&p, bytes) != CUDA_SUCCESS) return 1;
    *ptr = p;
    hook_allocs++;
    return 0;
}
static void hook_free(void *user, int device, uint64_t ptr, size_t bytes)
{
    (void)user;
    (void)device;
    (void)bytes;
    GA__CU.MemFree((CUdeviceptr)ptr);
    hook_frees++;
}

DEVICE_TEST(memory_stats_limit_and_allocator_hook)
{
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_memory_free_all_blocks(-1));
    ga_memory_stats st0, st;
    CHECK_OK(ga_memory_get_stats(0, &st0));
    int64_t n = 3 << 20;
    ga_array *a = ga_empty(1, &n, GA_FLOAT32);
    CHECK_OK(ga_memory_get_stats(0, &st));
    CHECK(st.used_bytes == st0.used_bytes + (size_t)n * 4, "used grows by the array (%zu -> %zu)", st0.used_bytes, st.used_bytes);
    CHECK(st.held_bytes >= st.used_bytes && st.free_bytes == st.held_bytes - st.used_bytes, "held/free");
    ga_release(a);
    CHECK_OK(ga_memory_get_stats(0, &st));
    CHECK(st.used_bytes == st0.used_bytes && st.free_bytes > 0, "released to the pool, still held");
    CHECK_OK(ga_memory_set_limit(0, st.held_bytes + ((size_t)64 << 20)));
    int64_t too_big = (int64_t)1 << 28;
    CHECK_ERROR(ga_empty(1, &too_big, GA_FLOAT32) == NULL, GA_ERROR_OUT_OF_MEMORY, ", limit ");
    CHECK_OK(ga_memory_set_limit(0, 0));
    CHECK_OK(ga_memory_free_all_blocks(0));
    CHECK_OK(ga_memory_get_stats(0, &st));
    CHECK(st.held_bytes == st.used_bytes, "free_all_blocks keeps only what is in use");
    ga_array *keep = ga_empty(1, &n, GA_FLOAT32);
    ga_allocator hook = {hook_alloc, hook_free, NULL};
    CHECK_ERROR(ga_memory_set_allocator(0, &hook) != GA_OK, GA_ERROR_STATE, "still has memory in use");
    ga_release(keep);
    CHECK_OK(ga_memory_set_allocator(0, &hook));
    ga_array *h = ga_ones(1, &n, GA_FLOAT32);
    float v = 0;
    ga_array *first = ga_as_strided(h, 0, NULL, NULL, 0);
    CHECK_OK(ga_to_host(first, &v, 4));
    ga_release(first);
    CHECK(h && hook_allocs == 1 && v == 1.0f, "the hook served the chunk (%d)", hook_allocs);
    ga_release(h);
    CHECK_OK(ga_memory_set_allocator(0, NULL));
    CHECK(hook_frees == 1, "and took it back when the allocator changed (%d)", hook_frees);
}

DEVICE_TEST(scopes_release_temporaries)
{
    CHECK_OK(ga_device_synchronize());
    ga_memory_stats before, after;
    CHECK_OK(ga_memory_get_stats(0, &before));
    int64_t n = 1 << 20;
    ga_array *kept;
    ga_scope_begin();
    ga_array *outer_tmp = ga_ones(1, &n, GA_FLOAT32);
    ga_scope_begin();
    kept = ga_keep(ga_astype(ga_astype(ga_full(1, &n, ga_float(2), GA_FLOAT32), GA_FLOAT16), GA_FLOAT64));
    ga_scope_end(); /* the float32 and float16 temporaries go; kept moves to the outer scope */
    ga_keep(kept);
    (void)outer_tmp;
    ga_scope_end();
    CHECK_OK(ga_memory_get_stats(0, &after));
    CHECK(after.used_bytes == before.used_bytes + (size_t)n * 8, "only the kept array remains (%zu -> %zu)",
          before.used_bytes, after.used_bytes);
    double v[4];
    ga_array *head = ga_as_strided(kept, 1, (int64_t[]){4}, (int64_t[]){8}, 0);
    CHECK_OK(ga_to_host(head, v, sizeof v));
    CHECK(v[0] == 2.0 && v[3] == 2.0, "kept values");
    ga_release(head);
    ga_release(kept);
    /* an error inside a chain: the first failure is reported, nothing leaks */
    ga_scope_begin();
    ga_array *bad = ga_astype(ga_astype(ga_zeros(1, (int64_t[]){-3}, GA_FLOAT32), GA_INT8), GA_FLOAT64);
    CHECK_ERROR(bad == NULL, GA_ERROR_VALUE, "ga_zeros: negative dimensions are not allowed");
    ga_scope_end();
}

/* Last: it restarts the library with other kernel directories. */
DEVICE_TEST(stale_and_missing_fatbins_are_clear_errors)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return;
    int64_t n = 8;
    ga_shutdown();
    setenv("GPUARR_KERNEL_DIR", "build/tests/stale", 1);
    CHECK_ERROR(ga_ones(1, &n, GA_FLOAT32) == NULL, GA_ERROR_KERNELS_STALE,
                "ga_ones: kernel fatbin 'creation' (build/tests/stale/creation.fatbin) was built for gpuarr 0.0.1");
    ga_shutdown();
    setenv("GPUARR_KERNEL_DIR", "/nonexistent", 1);
    CHECK(chdir("/") == 0, "chdir");
    CHECK_ERROR(ga_ones(1, &n, GA_FLOAT32) == NULL, GA_ERROR_KERNELS_MISSING,
                "kernel fatbin 'creation.fatbin' not found (looked in /nonexistent, build/kernels)");
    ga_array *z = ga_zeros(1, &n, GA_FLOAT32);
    CHECK(z != NULL, "what needs no kernel still works");
    ga_release(z);
    CHECK(chdir(cwd) == 0, "chdir back");
    unsetenv("GPUARR_KERNEL_DIR");
    ga_shutdown();
    ga_array *o = ga_ones(1, &n, GA_FLOAT32);
    CHECK(o != NULL, "the real kernels load again: %s", ga_last_error_message());
    ga_release(o);
}
