/* User kernels (gpuarr.h, >>kernel): modules, elementwise kernels through
   the ufunc dispatcher, raw launches. The kernels are tests/user_kernels.cu,
   built by gpuarr.mk's rule into build/tests/user_kernels.fatbin (the
   environment variable GPUARR_TEST_USER_MODULE names another), and
   tests/user_raw.cu, built without gpuarr's headers into
   build/tests/user_raw.ptx. Elementwise results are checked against
   gpuarr's built-in ufuncs (bit for bit where both round once) or a host
   reference; outputs are poisoned first. A kernel's fault is provoked in a
   child process (the context is lost after it). */
#define _POSIX_C_SOURCE 200809L
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include <math.h>
#include <unistd.h>

static const char *module_path(void)
{
    const char *p = getenv("GPUARR_TEST_USER_MODULE");
    return p && *p ? p : "build/tests/user_kernels.fatbin";
}

static ga_module *test_module;

/* The test module, loaded once (released at the end of the last test). */
static ga_module *module(void)
{
    if (!test_module) test_module = ga_module_load(module_path());
    CHECK(test_module != NULL, "ga_module_load(%s): %s", module_path(), ga_last_error_message());
    return test_module;
}

static ga_elementwise_kernel *kernel(const char *name)
{
    ga_module *m = module();
    ga_elementwise_kernel *k = m ? ga_module_elementwise(m, name) : NULL;
    CHECK(k != NULL, "ga_module_elementwise(%s): %s", name, ga_last_error_message());
    return k;
}

/* n random values in [-2, 2) as `t` (a C-contiguous array of `shape`). */
static ga_array *random_array(int ndim, const int64_t *shape, ga_dtype t)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    double *h = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) h[i] = rnd_unit() * 4 - 2;
    ga_array *f = ga_from_host(h, ndim, shape, GA_FLOAT64);
    free(h);
    ga_array *a = f ? ga_astype(f, t) : NULL;
    ga_release(f);
    return a;
}

/* a's values as float64 on the host (malloc'd), or NULL. */
static double *host_f64(const ga_array *a)
{
    const int64_t size = ga_size(a);
    if (size < 0 || size > ((int64_t)1 << 40)) return NULL;
    ga_array *f = ga_astype(a, GA_FLOAT64);
    const size_t n = (size_t)size;
    double *h = malloc(sizeof(double) * (n ? n : 1));
    if (!f || !download(f, h)) {
        free(h);
        h = NULL;
    }
    ga_release(f);
    return h;
}

/* Whether a and b hold the same values: bit for bit (rel 0: same dtype
   too), else |a - b| <= rel (|a| + 1) everywhere, computed on the device. */
static bool close_arrays(const ga_array *a, const ga_array *b, double rel)
{
    if (rel == 0) return same_array(a, b);
    if (!a || !b || ga_size(a) != ga_size(b)) return false;
    ga_array *d = ga_subtract(a, b), *ad = ga_absolute(d), *m = ga_absolute(a);
    double *x = ad ? host_f64(ad) : NULL, *y = m ? host_f64(m) : NULL;
    bool ok = x && y;
    for (int64_t i = 0; ok && i < ga_size(a); i++) ok = x[i] <= rel * (y[i] + 1);
    free(x), free(y);
    ga_release(d), ga_release(ad), ga_release(m);
    return ok;
}

/* The checks that make a driver call fail on purpose (a name not in a
   module, a refused launch, an image the driver rejects): left out under
   GPUARR_TEST_SMALL, which tests/sanitize.sh sets, since compute-sanitizer
   reports every failed API call. */
static bool provoke_api_errors(void) { return !test_small(); }

static const ga_dtype float_dtypes[4] = {GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64};

/* ---- host tests -------------------------------------------------------------- */

TEST(signature_parsing)
{
    ga_elementwise_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "axpy");
    char sig[] = "gpuarr elementwise 2;axpy;(T);(T x, const float64 y);(T &z, bool & flag);float32|float64|;";
    CHECK_OK(ga__user_signature("test", &k, sig, NULL));
    CHECK(k.info.nin == 2 && k.info.nout == 2, "nin %d nout %d", k.info.nin, k.info.nout);
    /* operands: outputs first, then inputs */
    CHECK(k.types[0] == -1 && k.types[1] == GA_BOOL && k.types[2] == -1 && k.types[3] == GA_FLOAT64,
          "types %d %d %d %d", k.types[0], k.types[1], k.types[2], k.types[3]);
    CHECK(strcmp(k.params[0], "z") == 0 && strcmp(k.params[1], "flag") == 0 && strcmp(k.params[2], "x") == 0 &&
              strcmp(k.params[3], "y") == 0,
          "names %s %s %s %s", k.params[0], k.params[1], k.params[2], k.params[3]);
    CHECK(k.nph == 1 && strcmp(k.ph[0], "T") == 0 && k.ntuples == 2 && k.tuples[0][0] == GA_FLOAT32 &&
              k.tuples[1][0] == GA_FLOAT64, "placeholders %d, tuples %d", k.nph, k.ntuples);
    CHECK(k.used == 1 && k.info.user == &k, "uses T, the info's user");
    char symbol[160];
    ga__user_symbol(&k, 1, "strided", symbol, sizeof symbol);
    CHECK(strcmp(symbol, "ga_user_axpy_float64_strided") == 0, "symbol %s", symbol);
    ga_clear_error();
}

TEST(signature_several_placeholders)
{
    ga_elementwise_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "scale_by");
    char sig[] = "gpuarr elementwise 2;scale_by;(T, Idx);(T x, Idx k, float32 c);(T &y);float32, int32|float64, int64|;";
    CHECK_OK(ga__user_signature("test", &k, sig, NULL));
    CHECK(k.nph == 2 && strcmp(k.ph[1], "Idx") == 0 && k.used == 3, "placeholders %d used %x", k.nph, k.used);
    CHECK(k.types[0] == -1 && k.types[1] == -1 && k.types[2] == -2 && k.types[3] == GA_FLOAT32, "types %d %d %d %d",
          k.types[0], k.types[1], k.types[2], k.types[3]);
    CHECK(k.ntuples == 2 && k.tuples[1][0] == GA_FLOAT64 && k.tuples[1][1] == GA_INT64, "tuples");
    char symbol[160];
    ga__user_symbol(&k, 0, "contig", symbol, sizeof symbol);
    CHECK(strcmp(symbol, "ga_user_scale_by_float32_int32_contig") == 0, "symbol %s", symbol);
    /* a reduction: the accumulator may be a placeholder; the map's text says whether it reads the index */
    ga_reduction_kernel r;
    memset(&r, 0, sizeof r);
    snprintf(r.sig.name, sizeof r.sig.name, "wsum");
    char rsig[] = "gpuarr reduction 2;wsum;(T, W);(T x, W w);(T &y);W;float32, float64|;(double)x * w; // i";
    CHECK_OK(ga__user_signature("test", &r.sig, rsig, &r));
    CHECK(r.acc == -2 && r.sig.used == 3 && r.indexed, "acc %d used %x indexed %d", r.acc, r.sig.used, r.indexed);
    ga_clear_error();
}

TEST(signature_raw_parameters)
{
    ga_elementwise_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "stencil");
    char sig[] = "gpuarr elementwise 2;stencil;(T);(T w, raw< T > x, raw<int64> idx);(T &y);float32|;";
    CHECK_OK(ga__user_signature("test", &k, sig, NULL));
    CHECK(k.nin == 3 && k.nraw == 2 && k.info.nin == 1 && k.info.nout == 1, "nin %d nraw %d loop nin %d", k.nin,
          k.nraw, k.info.nin);
    CHECK(!k.raw[0] && !k.raw[1] && k.raw[2] && k.raw[3] && k.types[2] == -1 && k.types[3] == GA_INT64 &&
              strcmp(k.params[2], "x") == 0 && strcmp(k.params[3], "idx") == 0,
          "raw flags, types and names");
    /* all raw: the loop has one input, a zero scalar */
    ga_elementwise_kernel r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "reverse");
    char rsig[] = "gpuarr elementwise 2;reverse;(T);(raw<T> x);(T &y);float32|;";
    CHECK_OK(ga__user_signature("test", &r, rsig, NULL));
    CHECK(r.nin == 1 && r.nraw == 1 && r.info.nin == 1, "reverse: nin %d nraw %d", r.nin, r.nraw);
    ga_clear_error();
    /* raw outputs: every output raw (the loop's output a bool scratch array), or beside an ordinary one */
    ga_elementwise_kernel o;
    memset(&o, 0, sizeof o);
    snprintf(o.name, sizeof o.name, "scatter");
    char osig[] = "gpuarr elementwise 2;scatter;(T);(T x, int64 idx);(raw<T> y);float32|;";
    CHECK_OK(ga__user_signature("test", &o, osig, NULL));
    CHECK(o.nin == 2 && o.nout == 1 && o.nraw == 1 && o.nraw_in == 0 && o.info.nin == 2 && o.info.nout == 1 &&
              o.raw[0] && !o.raw[1] && !o.raw[2] && o.types[0] == -1 && strcmp(o.params[0], "y") == 0,
          "scatter: nin %d nout %d nraw %d loop %d, %d", o.nin, o.nout, o.nraw, o.info.nin, o.info.nout);
    ga_elementwise_kernel m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "mixed");
    char msig[] = "gpuarr elementwise 2;mixed;(T);(raw<T> x, T w);(T &z, raw<T> y);float32|;";
    CHECK_OK(ga__user_signature("test", &m, msig, NULL));
    CHECK(m.nin == 2 && m.nout == 2 && m.nraw == 2 && m.nraw_in == 1 && m.info.nin == 1 && m.info.nout == 1 &&
              !m.raw[0] && m.raw[1] && m.raw[2] && !m.raw[3],
          "mixed: nin %d nout %d nraw %d (%d in) loop %d, %d", m.nin, m.nout, m.nraw, m.nraw_in, m.info.nin,
          m.info.nout);
    ga_clear_error();
    static const char *const bad[] = {
        "gpuarr elementwise 2;f;(T);(raw<T> a, raw<T> b, raw<T> c, raw<T> d, raw<T> e);(T &y);float32|;", /* 5 raw */
        "gpuarr elementwise 2;f;(T);(raw<T> a, raw<T> b, raw<T> c, raw<T> d);(T &y, T &z, T &w);float32|;", /* 4 + 2 */
        "gpuarr elementwise 2;f;(T);(T a, T b, T c, T d, T e, T f);(raw<T> z, raw<T> v);float32|;", /* 3 + 2 */
        "gpuarr elementwise 2;f;(T);(raw<U> a);(T &y);float32|;",                        /* raw of no type */
        "gpuarr elementwise 2;f;(T);(raw<> a);(T &y);float32|;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ga_elementwise_kernel b;
        memset(&b, 0, sizeof b);
        snprintf(b.name, sizeof b.name, "f");
        char text[128];
        snprintf(text, sizeof text, "%s", bad[i]);
        CHECK(ga__user_signature("test", &b, text, NULL) != GA_OK, "accepted %s", bad[i]);
        ga_clear_error();
    }
    ga_reduction_kernel rk;
    memset(&rk, 0, sizeof rk);
    snprintf(rk.sig.name, sizeof rk.sig.name, "f");
    char rksig[] = "gpuarr reduction 2;f;(T);(raw<T> x);(T &y);T;float32|;x[0]";
    CHECK_ERROR(ga__user_signature("test", &rk.sig, rksig, &rk) != GA_OK, GA_ERROR_VALUE,
                "raw parameter 'x': a reduction's parameters are not raw");
}

TEST(signature_more_than_four_operands)
{
    /* 6 inputs, 2 outputs: the loop takes 3 and 1, the others are extra operands after the raw ones */
    ga_elementwise_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "sum6");
    char sig[] = "gpuarr elementwise 2;sum6;(T);(T a, T b, raw<T> r, T c, T d, T e);(T &s, T &p);float32|;";
    CHECK_OK(ga__user_signature("test", &k, sig, NULL));
    CHECK(k.nin == 6 && k.nout == 2 && k.info.nin == 3 && k.info.nout == 1 && k.ext_in == 2 && k.ext_out == 1 &&
              k.nraw == 1 && ga_elementwise_nin(&k) == 6 && ga_elementwise_nout(&k) == 2,
          "sum6: nin %d nout %d loop %d %d ext %d %d", k.nin, k.nout, k.info.nin, k.info.nout, k.ext_in, k.ext_out);
    /* operands: s p a b r c d e */
    static const int slots[8] = {0, 3, 0, 1, 0, 2, 1, 2};
    static const bool ext[8] = {false, true, false, false, false, false, true, true};
    for (int j = 0; j < 8; j++)
        CHECK(k.slot[j] == slots[j] && k.ext[j] == ext[j], "parameter %d: slot %d ext %d", j, k.slot[j], k.ext[j]);
    /* 1 input, 3 outputs: the loop takes 1 and 1 */
    ga_elementwise_kernel o;
    memset(&o, 0, sizeof o);
    snprintf(o.name, sizeof o.name, "split3");
    char osig[] = "gpuarr elementwise 2;split3;(T);(T x);(T &a, T &b, T &c);float32|;";
    CHECK_OK(ga__user_signature("test", &o, osig, NULL));
    CHECK(o.info.nin == 1 && o.info.nout == 1 && o.ext_in == 0 && o.ext_out == 2 && o.slot[1] == 0 && o.slot[2] == 1 &&
              o.ext[1] && o.ext[2] && !o.ext[0] && !o.ext[3],
          "split3: loop %d %d ext %d %d", o.info.nin, o.info.nout, o.ext_in, o.ext_out);
    /* what fits stays in the loop: 3 inputs and 1 output, 2 and 2 */
    int li, lo;
    ga__user_partition(3, 1, &li, &lo);
    CHECK(li == 3 && lo == 1, "3, 1: %d %d", li, lo);
    ga__user_partition(2, 2, &li, &lo);
    CHECK(li == 2 && lo == 2, "2, 2: %d %d", li, lo);
    ga__user_partition(0, 3, &li, &lo);
    CHECK(li == 0 && lo == 1, "0, 3: %d %d", li, lo);
    ga__user_partition(4, 0, &li, &lo);
    CHECK(li == 3 && lo == 0, "4, 0: %d %d", li, lo);
    ga_clear_error();
}

TEST(map_expression_reads_index)
{
    static const struct { const char *e; bool reads; } cases[] = {
        {"(double)i * (double)x", true}, {"x[i]", true}, {"_in_ind.get() > 3 ? x : 0", true},
        {"(double)x * x", false}, {"v.i + w->i + w -> i", false}, {"idx + ii + i2 + x_i", false},
        {"1e5 * x + 0x1fu", false}, {"x*(i)", true}, {"sin(x) + n", false}, {"", false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        CHECK(ga__user_reads_index(cases[c].e) == cases[c].reads, "'%s' reads the index: %d", cases[c].e,
              !cases[c].reads);
}

TEST(signature_refusals)
{
    static const char *const bad[] = {
        "gpuarr elementwise 1;f;(T x);(T &y);float32,;",                  /* an older form */
        "gpuarr elementwise 2;g;(T);(T x);(T &y);float32|;",              /* another name */
        "gpuarr elementwise 2;f;(T);(T a, T b, T c, T d, T e, T f, T g, T h);(T &y);float32|;", /* 9 operands */
        "gpuarr elementwise 2;f;(T);(T a, T b, T c, T d, T e, T f, T g);(T &y, T &z);float32|;", /* 9 operands */
        "gpuarr elementwise 2;f;(T);(U x);(T &y);float32|;",              /* not a placeholder nor a dtype */
        "gpuarr elementwise 2;f;(T);(T x);(T &y);;",                      /* no dtypes */
        "gpuarr elementwise 2;f;(T);T x;(T &y);float32|;",                /* no parentheses */
        "gpuarr elementwise 2;f;(T, U);(T x, U y);(T &z);float32|;",      /* a tuple too short */
        "gpuarr elementwise 2;f;(T);(T x);(T &z);float32, int8|;",        /* a tuple too long */
        "gpuarr elementwise 2;f;(T);(T x);(T &z);float32|int7|;",         /* not a dtype */
        "gpuarr elementwise 2;f;(A, B, C, D, E);(A x);(A &z);float32|;",  /* 5 placeholders */
        "gpuarr elementwise 2;f;();(T x);(T &z);float32|;",               /* none */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ga_elementwise_kernel k;
        memset(&k, 0, sizeof k);
        snprintf(k.name, sizeof k.name, "f");
        char sig[128];
        snprintf(sig, sizeof sig, "%s", bad[i]);
        CHECK(ga__user_signature("test", &k, sig, NULL) != GA_OK, "accepted %s", bad[i]);
        ga_clear_error();
    }
    /* more tuples than a kernel holds */
    ga_elementwise_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "f");
    char sig[2048];
    size_t len = (size_t)snprintf(sig, sizeof sig, "gpuarr elementwise 2;f;(T);(T x);(T &z);");
    for (int t = 0; t <= GA__USER_MAX_TUPLES; t++) len += (size_t)snprintf(sig + len, sizeof sig - len, "float32|");
    snprintf(sig + len, sizeof sig - len, ";");
    CHECK_ERROR(ga__user_signature("test", &k, sig, NULL) != GA_OK, GA_ERROR_VALUE, "more than 64 tuples");
    /* a reduction's accumulator of no known type */
    ga_reduction_kernel r;
    memset(&r, 0, sizeof r);
    snprintf(r.sig.name, sizeof r.sig.name, "f");
    char rsig[] = "gpuarr reduction 2;f;(T);(T x);(T &y);V;float32|;x";
    CHECK_ERROR(ga__user_signature("test", &r.sig, rsig, &r) != GA_OK, GA_ERROR_VALUE,
                "reduce_type 'V' is not a placeholder or a dtype's name");
}

TEST(launch_args_and_null_handles)
{
    ga_launch_arg a = ga_arg_float32(2.5f), b = ga_arg_int64(-7), c = ga_arg_view(NULL);
    CHECK(a.kind == GA_ARG_FLOAT32 && a.value.f32 == 2.5f, "float32 arg");
    CHECK(b.kind == GA_ARG_INT64 && b.value.i64 == -7, "int64 arg");
    CHECK(c.kind == GA_ARG_VIEW && c.array == NULL, "view arg");
    ga_array *out[1] = {NULL};
    CHECK_ERROR(ga_elementwise_call(NULL, 1, NULL, 1, out) != GA_OK, GA_ERROR_NULL_INPUT, "k is NULL");
    CHECK_ERROR(ga_module_elementwise(NULL, "f") == NULL, GA_ERROR_NULL_INPUT, "m is NULL");
    CHECK_ERROR(ga_module_raw_kernel(NULL, "f") == NULL, GA_ERROR_NULL_INPUT, "m is NULL");
    CHECK_ERROR(ga_module_load(NULL) == NULL, GA_ERROR_NULL_INPUT, "path is NULL");
    CHECK_ERROR(ga_module_load("build/tests/no/such.fatbin") == NULL, GA_ERROR_IO, "no/such.fatbin");
    const unsigned one[3] = {1, 1, 1};
    CHECK_ERROR(ga_launch(NULL, one, one, 0, 0, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "f is NULL");
    ga_module_release(NULL);
}

/* ---- modules -------------------------------------------------------------------- */

DEVICE_TEST(module_from_memory_and_lookups)
{
    FILE *f = fopen(module_path(), "rb");
    CHECK(f != NULL, "cannot open %s", module_path());
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *image = malloc((size_t)size);
    CHECK(fread(image, 1, (size_t)size, f) == (size_t)size, "read %s", module_path());
    fclose(f);
    ga_module *m = ga_module_load_data(image, (size_t)size);
    free(image);
    CHECK(m != NULL, "ga_module_load_data: %s", ga_last_error_message());
    if (!m) return;
    ga_elementwise_kernel *k = ga_module_elementwise(m, "squared_diff");
    CHECK(k && ga_module_elementwise(m, "squared_diff") == k, "one handle per name");
    CHECK(k && ga_elementwise_nin(k) == 2 && ga_elementwise_nout(k) == 1 &&
              strcmp(ga_elementwise_name(k), "squared_diff") == 0, "name and counts");
    CHECK_ERROR(ga_module_elementwise(m, "bad name") == NULL, GA_ERROR_VALUE, "is not a kernel name");
    if (provoke_api_errors()) {
        CHECK_ERROR(ga_module_elementwise(m, "nope") == NULL, GA_ERROR_KERNELS_MISSING, "no elementwise kernel 'nope'");
        CHECK_ERROR(ga_module_raw_kernel(m, "nope") == NULL, GA_ERROR_KERNELS_MISSING, "has no kernel 'nope'");
    }
    CHECK(ga_module_raw_kernel(m, "scale") != NULL, "raw kernel scale: %s", ga_last_error_message());
    ga_module_release(m);
}

DEVICE_TEST(module_stale_and_invalid)
{
    if (!provoke_api_errors()) return;
    /* a fatbin stamped with another version (tests/stale_fatbin.cu) */
    CHECK_ERROR(ga_module_load("build/tests/stale/creation.fatbin") == NULL, GA_ERROR_KERNELS_STALE,
                "was built for gpuarr");
    static const char junk[] = "this is neither a fatbin nor a cubin nor PTX";
    /* refused at the load, or (lazy loading) at the stamp's lookup: stale either way */
    CHECK_ERROR(ga_module_load_data(junk, sizeof junk) == NULL, GA_ERROR_KERNELS_STALE, "memory");
    unsigned char truncated[32] = {0x50, 0xED, 0x55, 0xBA, 1, 0, 16, 0, 0xff, 0xff};
    CHECK_ERROR(ga_module_load_data(truncated, sizeof truncated) == NULL, GA_ERROR_KERNELS_STALE, "not a whole fatbin");
}

DEVICE_TEST(module_from_ptx_built_elsewhere)
{
    if (!provoke_api_errors()) return; /* the stamp's lookup fails on purpose */
    ga_module *m = ga_module_load("build/tests/user_raw.ptx");
    CHECK(m != NULL, "ga_module_load(user_raw.ptx): %s", ga_last_error_message());
    if (!m) return;
    if (provoke_api_errors())
        CHECK_ERROR(ga_module_elementwise(m, "iota32") == NULL, GA_ERROR_KERNELS_MISSING,
                    "not built with gpuarr_user.cuh");
    ga_raw_kernel *k = ga_module_raw_kernel(m, "iota32");
    ga_array *p = ga_empty(1, (int64_t[]){1000}, GA_INT32);
    const unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    ga_launch_arg args[2] = {ga_arg_pointer(p), ga_arg_int32(1000)};
    CHECK_OK(ga_launch(k, grid, block, 0, 2, args));
    int32_t h[1000];
    if (p && download(p, h))
        for (int i = 0; i < 1000; i++) CHECK(h[i] == i, "iota32[%d] = %d", i, h[i]);
    ga_release(p);
    ga_module_release(m);
}

/* ---- elementwise kernels ------------------------------------------------------- */

DEVICE_TEST(elementwise_every_float_dtype_against_builtins)
{
    ga_elementwise_kernel *k = kernel("squared_diff");
    if (!k) return;
    const int64_t shape[2] = {37, 1031}; /* odd: vector groups and tails */
    for (int i = 0; i < 4; i++) {
        ga_dtype t = float_dtypes[i];
        ga_array *x = random_array(2, shape, t), *y = random_array(2, shape, t);
        poison_next((size_t)(shape[0] * shape[1]) * ga_dtype_itemsize(t));
        ga_array *z = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y)});
        ga_array *d = ga_subtract(x, y), *ref = ga_square(d);
        CHECK(z && ga_dtype_of(z) == t, "%s: %s", ga_dtype_name(t), ga_last_error_message());
        /* float32 and float64 round as the built-ins do; the 16-bit
           formats round each step in their own format (CuPy's float16) */
        CHECK(close_arrays(z, ref, t == GA_FLOAT32 || t == GA_FLOAT64 ? 0 : t == GA_FLOAT16 ? 2e-3 : 1.6e-2),
              "squared_diff %s differs from square(subtract)", ga_dtype_name(t));
        ga_release(x), ga_release(y), ga_release(z), ga_release(d), ga_release(ref);
    }
}

DEVICE_TEST(elementwise_broadcasting_and_views)
{
    ga_elementwise_kernel *k = kernel("squared_diff");
    if (!k) return;
    ga_array *x = random_array(3, (int64_t[]){3, 1, 5}, GA_FLOAT64);
    ga_array *yb = random_array(2, (int64_t[]){6, 4}, GA_FLOAT64);
    ga_array *yt = ga_transpose(yb, NULL); /* (4, 6): strided */
    ga_array *y = ga_flip(yt, 1, (int[]){1}); /* negative strides */
    ga_array *ys = y ? ga_as_strided(y, 2, (int64_t[]){4, 5}, ga_strides(y), 0) : NULL; /* (4, 5) of it */
    ga_array *z = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(ys)});
    ga_array *d = ga_subtract(x, ys), *ref = ga_square(d);
    CHECK(z && ga_ndim(z) == 3 && ga_shape(z)[0] == 3 && ga_shape(z)[1] == 4 && ga_shape(z)[2] == 5,
          "broadcast shape: %s", ga_last_error_message());
    CHECK(close_arrays(z, ref, 0), "broadcast, transposed and flipped operands");
    /* out= a transposed view (F order) */
    ga_array *ob = ga_empty(3, (int64_t[]){5, 4, 3}, GA_FLOAT64);
    ga_array *o = ga_transpose(ob, NULL);
    ga_array *outs[1] = {o};
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(ys)}, 1, outs));
    CHECK(outs[0] == o && close_arrays(o, ref, 0), "out= a transposed view");
    /* shapes that do not broadcast */
    ga_array *bad = random_array(1, (int64_t[]){7}, GA_FLOAT64);
    CHECK_ERROR(ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(bad)}) == NULL,
                GA_ERROR_SHAPE, "could not be broadcast together");
    /* an out= of another shape */
    ga_array *small = ga_empty(1, (int64_t[]){5}, GA_FLOAT64);
    outs[0] = small;
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(ys)}, 1, outs) != GA_OK,
                GA_ERROR_SHAPE, "non-broadcastable output");
    ga_release(x), ga_release(yb), ga_release(yt), ga_release(y), ga_release(ys), ga_release(z), ga_release(d);
    ga_release(ref), ga_release(ob), ga_release(o), ga_release(bad), ga_release(small);
}

DEVICE_TEST(elementwise_0d_and_empty)
{
    ga_elementwise_kernel *k = kernel("squared_diff");
    if (!k) return;
    double three = 3, one = 1, got = 0;
    ga_array *x = ga_from_host(&three, 0, NULL, GA_FLOAT64), *y = ga_from_host(&one, 0, NULL, GA_FLOAT64);
    ga_array *z = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y)});
    CHECK(z && ga_ndim(z) == 0 && download(z, &got) && got == 4, "0-d: %g (%s)", got, ga_last_error_message());
    ga_array *e = ga_empty(2, (int64_t[]){0, 3}, GA_FLOAT32);
    ga_array *ez = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(e), ga_operand_scalar(ga_float(1))});
    CHECK(ez && ga_ndim(ez) == 2 && ga_size(ez) == 0 && ga_shape(ez)[1] == 3, "empty: %s", ga_last_error_message());
    ga_release(x), ga_release(y), ga_release(z), ga_release(e), ga_release(ez);
}

DEVICE_TEST(elementwise_scalars_three_inputs_complex)
{
    ga_elementwise_kernel *k = kernel("axpy");
    if (!k) return;
    const ga_dtype dts[4] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
    for (int i = 0; i < 4; i++) {
        ga_array *x = random_array(1, (int64_t[]){4099}, dts[i]), *y = random_array(1, (int64_t[]){4099}, dts[i]);
        ga_array *a = random_array(1, (int64_t[]){4099}, dts[i]);
        /* all arrays: the contiguous loop; a scalar a: the strided one */
        ga_array *z1 = ga_elementwise(k, 3, (ga_operand[]){ga_operand_array(x), ga_operand_array(y), ga_operand_array(a)});
        ga_array *ax = ga_multiply(a, x), *r1 = ga_add(ax, y);
        CHECK(close_arrays(z1, r1, 1e-6), "axpy %s, arrays", ga_dtype_name(dts[i]));
        ga_array *z2 = ga_elementwise(k, 3, (ga_operand[]){ga_operand_array(x), ga_operand_array(y),
                                                          ga_operand_scalar(ga_float(2.5))});
        ga_array *two = ga_full(0, NULL, ga_float(2.5), dts[i]), *bx = ga_multiply(two, x), *r2 = ga_add(bx, y);
        CHECK(z2 && ga_dtype_of(z2) == dts[i] && close_arrays(z2, r2, 1e-6), "axpy %s, a weak scalar: %s",
              ga_dtype_name(dts[i]), ga_last_error_message());
        ga_release(x), ga_release(y), ga_release(a), ga_release(z1), ga_release(ax), ga_release(r1);
        ga_release(z2), ga_release(two), ga_release(bx), ga_release(r2);
    }
    /* complex -> float64 through a user's own dtype list */
    ga_elementwise_kernel *mag = kernel("magnitude");
    ga_array *c = random_array(1, (int64_t[]){1000}, GA_COMPLEX128);
    ga_array *m = mag ? ga_elementwise(mag, 1, (ga_operand[]){ga_operand_array(c)}) : NULL;
    ga_array *ref = ga_absolute(c);
    CHECK(m && ga_dtype_of(m) == GA_FLOAT64 && close_arrays(m, ref, 1e-15), "magnitude: %s", ga_last_error_message());
    ga_release(c), ga_release(m), ga_release(ref);
}

DEVICE_TEST(elementwise_index_and_every_dtype)
{
    ga_elementwise_kernel *k = kernel("index_of");
    if (!k) return;
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        /* a (3, 4) view that is F-ordered in memory: i still counts in C order */
        ga_array *base = random_array(2, (int64_t[]){4, 3}, (ga_dtype)t);
        ga_array *x = ga_transpose(base, NULL);
        ga_array *outs[2] = {NULL, NULL};
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 2, outs));
        int64_t h[12];
        if (outs[0] && download(outs[0], h))
            for (int i = 0; i < 12; i++) CHECK(h[i] == i * 1000 + 12, "%s: k[%d] = %lld", ga_dtype_name((ga_dtype)t), i, (long long)h[i]);
        ga_array *xc = ga_ascontiguousarray(x);
        CHECK(outs[1] && close_arrays(outs[1], xc, 0), "%s: y == x", ga_dtype_name((ga_dtype)t));
        ga_release(base), ga_release(x), ga_release(xc), ga_release(outs[0]), ga_release(outs[1]);
    }
}

DEVICE_TEST(elementwise_named_dtypes_two_outputs)
{
    ga_elementwise_kernel *big = kernel("is_big"), *dm = kernel("divmod2"), *halve = kernel("halve");
    if (!big || !dm || !halve) return;
    ga_array *x = ga_arange_int(-5, 5, 1, GA_INT16);
    ga_array *b = ga_elementwise(big, 2, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_float(1.5))});
    uint8_t hb[10];
    CHECK(b && ga_dtype_of(b) == GA_BOOL && download(b, hb), "is_big: %s", ga_last_error_message());
    for (int i = 0; b && i < 10; i++) CHECK(hb[i] == (i - 5 > 1.5), "is_big[%d]", i);
    /* a float64 array for `float64 limit` is taken as it is; a float32 one is not */
    ga_array *lim32 = ga_full(0, NULL, ga_float(1.5), GA_FLOAT32);
    CHECK_ERROR(ga_elementwise(big, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(lim32)}) == NULL,
                GA_ERROR_TYPE, "Type is mismatched. limit float32 float64");
    /* two outputs */
    ga_array *a = ga_arange_int(1, 101, 1, GA_INT32);
    ga_array *outs[2] = {NULL, NULL};
    CHECK_OK(ga_elementwise_call(dm, 2, (ga_operand[]){ga_operand_array(a), ga_operand_scalar(ga_int(7))}, 2, outs));
    int32_t q[100], r[100];
    if (outs[0] && outs[1] && download(outs[0], q) && download(outs[1], r))
        for (int i = 0; i < 100; i++) CHECK(q[i] == (i + 1) / 7 && r[i] == (i + 1) % 7, "divmod2[%d]", i);
    /* a weak int that does not fit T */
    ga_array *a8 = ga_arange_int(1, 10, 1, GA_INT8);
    ga_array *o2[2] = {NULL, NULL};
    CHECK_ERROR(ga_elementwise_call(dm, 2, (ga_operand[]){ga_operand_array(a8), ga_operand_scalar(ga_int(300))}, 2, o2)
                    != GA_OK,
                GA_ERROR_OVERFLOW, "300");
    /* no placeholder: float32 only */
    ga_array *f = ga_arange(0, 8, 1, GA_FLOAT32), *h = ga_elementwise(halve, 1, (ga_operand[]){ga_operand_array(f)});
    float hf[8];
    CHECK(h && download(h, hf) && hf[3] == 1.5f, "halve: %s", ga_last_error_message());
    ga_array *f64 = ga_arange(0, 8, 1, GA_FLOAT64);
    CHECK_ERROR(ga_elementwise(halve, 1, (ga_operand[]){ga_operand_array(f64)}) == NULL, GA_ERROR_TYPE,
                "Type is mismatched. x float64 float32");
    ga_release(x), ga_release(b), ga_release(lim32), ga_release(a), ga_release(outs[0]), ga_release(outs[1]);
    ga_release(a8), ga_release(f), ga_release(h), ga_release(f64);
}

DEVICE_TEST(elementwise_errors)
{
    ga_elementwise_kernel *k = kernel("squared_diff");
    if (!k) return;
    ga_array *x = ga_arange(0, 10, 1, GA_FLOAT32), *y64 = ga_arange(0, 10, 1, GA_FLOAT64);
    ga_array *i32 = ga_arange_int(0, 10, 1, GA_INT32);
    ga_array *out[1] = {NULL};
    CHECK_ERROR(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, out) != GA_OK, GA_ERROR_TYPE,
                "Wrong number of arguments for squared_diff");
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(x)}, 2, out) != GA_OK,
                GA_ERROR_TYPE, "Wrong number of arguments for squared_diff");
    CHECK_ERROR(ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y64)}) == NULL,
                GA_ERROR_TYPE, "Type is mismatched. y float64 float32 T");
    CHECK_ERROR(ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(i32), ga_operand_array(i32)}) == NULL,
                GA_ERROR_TYPE, "squared_diff was not built for T = int32 (built for float16, bfloat16, float32, float64)");
    CHECK_ERROR(ga_elementwise(k, 2, (ga_operand[]){ga_operand_scalar(ga_float(1)), ga_operand_scalar(ga_float(2))})
                    == NULL,
                GA_ERROR_VALUE, "needs at least one array input");
    /* out= binds T first, as CuPy's */
    out[0] = y64;
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(x)}, 1, out) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. x float32 float64 T");
    /* NULL inputs keep the first error */
    CHECK_ERROR(ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(NULL), ga_operand_array(x)}) == NULL,
                GA_ERROR_NULL_INPUT, "input 0");
    ga_release(x), ga_release(y64), ga_release(i32);
}

/* ---- reduction kernels ---------------------------------------------------------- */

static ga_reduction_kernel *reduction(const char *name)
{
    ga_module *m = module();
    ga_reduction_kernel *k = m ? ga_module_reduction(m, name) : NULL;
    CHECK(k != NULL, "ga_module_reduction(%s): %s", name, ga_last_error_message());
    return k;
}

/* k over one input, a new result, or NULL. */
static ga_array *reduce1(const ga_reduction_kernel *k, const ga_array *x, int naxes, const int *axes, bool keepdims)
{
    ga_array *out = NULL;
    if (ga_reduction_kernel_call(k, 1, (ga_operand[]){ga_operand_array(x)}, naxes, axes, keepdims, &out) != GA_OK)
        return NULL;
    return out;
}

DEVICE_TEST(reduction_axis_sets_keepdims_views)
{
    ga_reduction_kernel *k = reduction("l2norm");
    if (!k) return;
    static const int sets[][3] = {{0}, {1}, {2}, {0, 2}, {-1, 0}, {0, 1, 2}};
    static const int nsets[] = {1, 1, 1, 2, 2, 3};
    const ga_dtype dts[3] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64};
    for (int t = 0; t < 3; t++) {
        /* (5, 6, 7) as the transpose of a (7, 6, 5) array, then flipped on axis 1 */
        ga_array *base = random_array(3, (int64_t[]){7, 6, 5}, dts[t]);
        ga_array *tr = ga_transpose(base, NULL), *x = ga_flip(tr, 1, (int[]){1});
        for (int s = 0; s < 6; s++)
            for (int keep = 0; keep < 2; keep++) {
                ga_array *r = reduce1(k, x, nsets[s], sets[s], keep);
                ga_array *ref = ga_linalg_vector_norm(x, 2, nsets[s], sets[s], keep);
                CHECK(r && ga_dtype_of(r) == GA_FLOAT64 && ref && ga_ndim(r) == ga_ndim(ref),
                      "l2norm %s set %d keepdims %d: %s", ga_dtype_name(dts[t]), s, keep, ga_last_error_message());
                CHECK(close_arrays(r, ref, 1e-5), "l2norm %s set %d keepdims %d", ga_dtype_name(dts[t]), s, keep);
                ga_release(r), ga_release(ref);
            }
        /* every axis (naxes 0, axes NULL), and none (naxes 0, axes not NULL) */
        ga_array *all = reduce1(k, x, 0, NULL, false), *ref = ga_linalg_vector_norm(x, 2, 0, NULL, false);
        CHECK(all && ga_ndim(all) == 0 && close_arrays(all, ref, 1e-5), "l2norm of all: %s", ga_last_error_message());
        ga_array *none = reduce1(k, x, 0, (int[]){0}, false), *ab = ga_absolute(x);
        CHECK(none && ga_ndim(none) == 3 && close_arrays(none, ab, 1e-6), "l2norm over no axis: |x|");
        ga_release(base), ga_release(tr), ga_release(x), ga_release(all), ga_release(ref), ga_release(none), ga_release(ab);
    }
}

DEVICE_TEST(reduction_fused_two_and_three_inputs)
{
    ga_reduction_kernel *k = reduction("sumsq_diff"), *k3 = reduction("dot_plus");
    if (!k || !k3) return;
    for (int i = 0; i < 4; i++) {
        const ga_dtype t = float_dtypes[i];
        ga_array *x = random_array(2, (int64_t[]){33, 517}, t), *y = random_array(2, (int64_t[]){33, 517}, t);
        ga_array *yrow = random_array(1, (int64_t[]){517}, t);
        for (int ax = -1; ax < 2; ax++) { /* -1: every axis */
            const int axes[1] = {ax};
            const int n = ax < 0 ? 0 : 1;
            /* laid out alike, then broadcast (copied to C order first) */
            for (int b = 0; b < 2; b++) {
                const ga_array *yy = b ? yrow : y;
                ga_array *out = NULL;
                CHECK_OK(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(yy)}, n,
                                                  n ? axes : NULL, false, &out));
                ga_array *d = ga_subtract(x, yy), *d64 = ga_astype(d, GA_FLOAT64), *sq = ga_square(d64);
                ga_array *s = ga_sum(sq, n, n ? axes : NULL, false), *ref = ga_astype(s, t);
                const double tol = t == GA_FLOAT64 ? 1e-12 : t == GA_FLOAT32 ? 1e-6 : t == GA_FLOAT16 ? 1e-3 : 8e-3;
                CHECK(out && ga_dtype_of(out) == t && close_arrays(out, ref, tol), "sumsq_diff %s axis %d broadcast %d: %s",
                      ga_dtype_name(t), ax, b, ga_last_error_message());
                ga_release(out), ga_release(d), ga_release(d64), ga_release(sq), ga_release(s), ga_release(ref);
            }
        }
        /* three inputs, all axes: sum(x * y + z) */
        ga_array *z = random_array(2, (int64_t[]){33, 517}, t), *r = NULL;
        CHECK_OK(ga_reduction_kernel_call(k3, 3, (ga_operand[]){ga_operand_array(x), ga_operand_array(y), ga_operand_array(z)},
                                          0, NULL, false, &r));
        ga_array *x64 = ga_astype(x, GA_FLOAT64), *y64 = ga_astype(y, GA_FLOAT64), *z64 = ga_astype(z, GA_FLOAT64);
        ga_array *p = ga_multiply(x64, y64), *q = ga_add(p, z64), *ref = ga_sum(q, 0, NULL, false);
        CHECK(close_arrays(r, ref, 1e-12), "dot_plus %s", ga_dtype_name(t));
        ga_release(x), ga_release(y), ga_release(yrow), ga_release(z), ga_release(r), ga_release(x64), ga_release(y64);
        ga_release(z64), ga_release(p), ga_release(q), ga_release(ref);
    }
}

DEVICE_TEST(reduction_every_dtype_multipass_deterministic)
{
    ga_reduction_kernel *any = reduction("any_nonzero"), *mx = reduction("maxabs"), *k = reduction("l2norm");
    if (!any || !mx || !k) return;
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        ga_array *x = random_array(2, (int64_t[]){40, 300}, (ga_dtype)t);
        for (int ax = 0; ax < 2; ax++) {
            ga_array *r = reduce1(any, x, 1, (int[]){ax}, false), *ref = ga_any(x, 1, (int[]){ax}, false);
            CHECK(r && close_arrays(r, ref, 0), "any_nonzero %s axis %d: %s", ga_dtype_name((ga_dtype)t), ax,
                  ga_last_error_message());
            ga_release(r), ga_release(ref);
        }
        ga_release(x);
    }
    const ga_dtype ints[4] = {GA_INT8, GA_INT16, GA_INT32, GA_INT64};
    for (int i = 0; i < 4; i++) {
        ga_array *x = random_array(2, (int64_t[]){64, 129}, ints[i]);
        ga_array *r = reduce1(mx, x, 1, (int[]){0}, true), *ab = ga_absolute(x), *ref = ga_max(ab, 1, (int[]){0}, true);
        CHECK(r && close_arrays(r, ref, 0), "maxabs %s: %s", ga_dtype_name(ints[i]), ga_last_error_message());
        ga_release(x), ga_release(r), ga_release(ab), ga_release(ref);
    }
    /* long rows and a long column: split into chunks, combined by the combine kernels; the same bits twice */
    const int64_t n = test_length(1 << 22);
    ga_array *x = random_array(1, (int64_t[]){n}, GA_FLOAT32);
    ga_array *a = reduce1(k, x, 0, NULL, false), *b = reduce1(k, x, 0, NULL, false);
    ga_array *ref = ga_linalg_vector_norm(x, 2, 0, NULL, false);
    CHECK(a && b && close_arrays(a, b, 0) && close_arrays(a, ref, 1e-5), "l2norm of %lld: %s", (long long)n,
          ga_last_error_message());
    ga_array *col = ga_reshape(x, 2, (int64_t[]){n / 4, 4});
    ga_array *c = reduce1(k, col, 1, (int[]){0}, false), *cref = ga_linalg_vector_norm(col, 2, 1, (int[]){0}, false);
    CHECK(c && close_arrays(c, cref, 1e-5), "l2norm over a long axis 0: %s", ga_last_error_message());
    ga_release(x), ga_release(a), ga_release(b), ga_release(ref), ga_release(col), ga_release(c), ga_release(cref);
}

DEVICE_TEST(reduction_empty_0d_out_and_errors)
{
    ga_reduction_kernel *k = reduction("l2norm"), *k2 = reduction("sumsq_diff");
    if (!k || !k2) return;
    /* empty: the identity through the post-map */
    ga_array *e = ga_empty(2, (int64_t[]){0, 3}, GA_FLOAT32);
    ga_array *r = reduce1(k, e, 1, (int[]){0}, false);
    double h[3] = {1, 1, 1};
    CHECK(r && ga_ndim(r) == 1 && ga_shape(r)[0] == 3 && download(r, h) && h[0] == 0 && h[2] == 0,
          "empty reduction: %s", ga_last_error_message());
    ga_array *r2 = reduce1(k, e, 1, (int[]){1}, false);
    CHECK(r2 && ga_size(r2) == 0, "reduction to an empty result: %s", ga_last_error_message());
    /* 0-d */
    double three = -3, got = 0;
    ga_array *z = ga_from_host(&three, 0, NULL, GA_FLOAT64), *rz = reduce1(k, z, 0, NULL, false);
    CHECK(rz && ga_ndim(rz) == 0 && download(rz, &got) && got == 3, "0-d: %g", got);
    /* out= */
    ga_array *x = random_array(2, (int64_t[]){6, 10}, GA_FLOAT64), *o = ga_empty(1, (int64_t[]){10}, GA_FLOAT64);
    ga_array *given = o;
    CHECK_OK(ga_reduction_kernel_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, (int[]){0}, false, &given));
    ga_array *ref = ga_linalg_vector_norm(x, 2, 1, (int[]){0}, false);
    CHECK(given == o && close_arrays(o, ref, 1e-12), "out=");
    ga_array *wrong = ga_empty(1, (int64_t[]){6}, GA_FLOAT64);
    given = wrong;
    CHECK_ERROR(ga_reduction_kernel_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, (int[]){0}, false, &given) != GA_OK,
                GA_ERROR_SHAPE, "");
    ga_array *o32 = ga_empty(1, (int64_t[]){10}, GA_FLOAT32);
    given = o32;
    CHECK_ERROR(ga_reduction_kernel_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, (int[]){0}, false, &given) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. y float32 float64");
    /* errors */
    ga_array *none = NULL;
    CHECK_ERROR(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(x)}, 0, NULL, false,
                                         &none) != GA_OK,
                GA_ERROR_TYPE, "Wrong number of arguments for l2norm");
    CHECK_ERROR(ga_reduction_kernel_call(k2, 2, (ga_operand[]){ga_operand_scalar(ga_float(1)), ga_operand_array(x)}, 0,
                                         NULL, false, &none) != GA_OK,
                GA_ERROR_TYPE, "sumsq_diff: input 0 of a reduction kernel must be an array");
    CHECK_ERROR(ga_reduction_kernel_call(k2, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(NULL)}, 0, NULL,
                                         false, &none) != GA_OK,
                GA_ERROR_NULL_INPUT, "input 1");
    CHECK_ERROR(reduce1(k, x, 2, (int[]){0, 0}, false) == NULL, GA_ERROR_VALUE, "duplicate value in 'axis'");
    CHECK_ERROR(reduce1(k, x, 1, (int[]){2}, false) == NULL, GA_ERROR_AXIS, "out of bounds");
    ga_array *i32 = ga_arange_int(0, 5, 1, GA_INT32);
    CHECK_ERROR(reduce1(k, i32, 0, NULL, false) == NULL, GA_ERROR_TYPE, "l2norm was not built for T = int32");
    if (provoke_api_errors())
        CHECK_ERROR(ga_module_reduction(module(), "squared_diff") == NULL, GA_ERROR_KERNELS_MISSING,
                    "has no reduction kernel 'squared_diff' (it is a kernel of kind elementwise)");
    ga_release(e), ga_release(r), ga_release(r2), ga_release(z), ga_release(rz), ga_release(x), ga_release(o);
    ga_release(ref), ga_release(wrong), ga_release(o32), ga_release(i32);
}

/* ---- several placeholders ------------------------------------------------------ */

DEVICE_TEST(elementwise_several_placeholders)
{
    ga_elementwise_kernel *k = kernel("scale_by");
    if (!k) return;
    /* (T, U) = (float32, int32): a flipped x, the first tuple */
    ga_array *xb = random_array(1, (int64_t[]){2003}, GA_FLOAT32), *x = ga_flip(xb, 0, NULL);
    ga_array *i32 = ga_arange_int(-1000, 1003, 1, GA_INT32);
    ga_array *outs[2] = {NULL, NULL};
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(i32)}, 2, outs));
    ga_array *f = ga_astype(i32, GA_FLOAT32), *ref = ga_multiply(x, f), *ref2 = ga_add(i32, i32);
    CHECK(outs[0] && ga_dtype_of(outs[0]) == GA_FLOAT32 && close_arrays(outs[0], ref, 0), "scale_by float32, int32");
    CHECK(outs[1] && ga_dtype_of(outs[1]) == GA_INT32 && close_arrays(outs[1], ref2, 0), "k2 int32");
    ga_release(outs[0]), ga_release(outs[1]), ga_release(f), ga_release(ref), ga_release(ref2);
    /* (float64, int8): the third tuple, not the second */
    ga_array *x64 = random_array(2, (int64_t[]){7, 17}, GA_FLOAT64), *i8 = ga_arange_int(-60, 59, 1, GA_INT8);
    ga_array *i8r = ga_reshape(i8, 2, (int64_t[]){7, 17});
    outs[0] = outs[1] = NULL;
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x64), ga_operand_array(i8r)}, 2, outs));
    f = ga_astype(i8r, GA_FLOAT64), ref = ga_multiply(x64, f), ref2 = ga_add(i8r, i8r);
    CHECK(outs[0] && ga_dtype_of(outs[0]) == GA_FLOAT64 && close_arrays(outs[0], ref, 0), "scale_by float64, int8: %s",
          ga_last_error_message());
    CHECK(outs[1] && ga_dtype_of(outs[1]) == GA_INT8 && close_arrays(outs[1], ref2, 0), "k2 int8");
    ga_release(outs[0]), ga_release(outs[1]), ga_release(f), ga_release(ref), ga_release(ref2);
    /* U bound by a given output: k may then be a weak scalar */
    ga_array *k2 = ga_empty(1, (int64_t[]){2003}, GA_INT32);
    outs[0] = NULL, outs[1] = k2;
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_int(-3))}, 2, outs));
    ga_array *three = ga_full(0, NULL, ga_float(-3), GA_FLOAT32);
    ref = ga_multiply(x, three);
    int32_t hk[2003];
    CHECK(outs[0] && close_arrays(outs[0], ref, 0), "a weak scalar k: %s", ga_last_error_message());
    if (download(k2, hk))
        for (int i = 0; i < 2003; i++) CHECK(hk[i] == -6, "k2[%d] = %d", i, hk[i]);
    ga_release(outs[0]), ga_release(ref), ga_release(three);
    /* CuPy's errors, naming the placeholder */
    ga_array *i64 = ga_arange_int(0, 2003, 1, GA_INT64), *none[2] = {NULL, NULL};
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(i64)}, 2, none) != GA_OK,
                GA_ERROR_TYPE, "scale_by was not built for T = float32, U = int64 (built for (float32, int32), "
                "(float64, int64), (float64, int8))");
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_int(2))}, 2, none)
                    != GA_OK,
                GA_ERROR_TYPE, "scale_by: cannot determine U: no array argument has type U");
    ga_array *y64 = ga_empty(1, (int64_t[]){2003}, GA_FLOAT64), *wrong[2] = {y64, NULL};
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(i32)}, 2, wrong) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. x float32 float64 T");
    ga_array *k64 = ga_empty(1, (int64_t[]){2003}, GA_INT64), *wrong2[2] = {NULL, k64};
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(i32)}, 2, wrong2) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. k int32 int64 U");
    ga_release(xb), ga_release(x), ga_release(i32), ga_release(x64), ga_release(i8), ga_release(i8r), ga_release(k2);
    ga_release(i64), ga_release(y64), ga_release(k64);
}

DEVICE_TEST(elementwise_placeholder_mask_and_scalar)
{
    ga_elementwise_kernel *k = kernel("select");
    if (!k) return;
    const int64_t shape[2] = {9, 301};
    const int64_t n = shape[0] * shape[1];
    ga_array *a = random_array(2, shape, GA_FLOAT32), *a64 = random_array(2, shape, GA_FLOAT64);
    ga_array *r = random_array(2, shape, GA_FLOAT64), *zero = ga_zeros(0, NULL, GA_FLOAT64);
    ga_array *m = ga_greater(r, zero), *mi = ga_astype(m, GA_INT32); /* bool, int32 masks */
    uint8_t *hm = malloc((size_t)n);
    double *ha = host_f64(a), *ha64 = host_f64(a64);
    bool ok = download(m, hm) && ha && ha64;
    /* (float32, bool), (float64, bool) and (float32, int32); b a weak scalar */
    for (int c = 0; c < 3 && ok; c++) {
        const ga_array *mask = c == 2 ? mi : m, *aa = c == 1 ? a64 : a;
        ga_array *y = ga_elementwise(k, 3, (ga_operand[]){ga_operand_array(mask), ga_operand_array(aa),
                                                         ga_operand_scalar(ga_float(0.25))});
        double *hy = y ? host_f64(y) : NULL;
        CHECK(hy && ga_dtype_of(y) == ga_dtype_of(aa), "select case %d: %s", c, ga_last_error_message());
        for (int64_t i = 0; hy && i < n; i++) {
            const double want = hm[i] ? (c == 1 ? ha64 : ha)[i] : 0.25;
            if (hy[i] != want) {
                CHECK(false, "select case %d [%lld] = %g, not %g", c, (long long)i, hy[i], want);
                break;
            }
        }
        free(hy);
        ga_release(y);
    }
    CHECK_ERROR(ga_elementwise(k, 3, (ga_operand[]){ga_operand_array(m), ga_operand_array(a), ga_operand_array(a64)})
                    == NULL,
                GA_ERROR_TYPE, "Type is mismatched. b float64 float32 T");
    CHECK_ERROR(ga_elementwise(k, 3, (ga_operand[]){ga_operand_array(r), ga_operand_array(a), ga_operand_array(a)})
                    == NULL,
                GA_ERROR_TYPE, "select was not built for T = float32, M = float64");
    free(hm), free(ha), free(ha64);
    ga_release(a), ga_release(a64), ga_release(r), ga_release(zero), ga_release(m), ga_release(mi);
}

/* sum over the axes of a (rows, cols) array given as C-order values v, of
   f(i, v[i]) (i the flat index): axis 0, 1, or -1 (every one). */
static void host_reduce2d(const double *v, int64_t rows, int64_t cols, int axis, double (*f)(int64_t, int64_t, double),
                          double *out)
{
    const int64_t n = rows * cols, nout = axis == 0 ? cols : axis == 1 ? rows : 1;
    for (int64_t o = 0; o < nout; o++) out[o] = 0;
    for (int64_t i = 0; i < n; i++) out[axis == 0 ? i % cols : axis == 1 ? i / cols : 0] += f(i, n, v[i]);
}

/* Whether result r (float64) holds want[0..count-1] within rel. */
static bool holds(const ga_array *r, const double *want, int64_t count, double rel)
{
    if (r && count == 0) return ga_size(r) == 0;
    double *h = r && ga_size(r) == count ? host_f64(r) : NULL;
    bool ok = h != NULL;
    for (int64_t i = 0; ok && i < count; i++) ok = fabs(h[i] - want[i]) <= rel * (fabs(want[i]) + 1);
    free(h);
    return ok;
}

DEVICE_TEST(reduction_several_placeholders)
{
    ga_reduction_kernel *k = reduction("weighted_sum");
    if (!k) return;
    static const ga_dtype pairs[3][2] = {{GA_FLOAT32, GA_FLOAT32}, {GA_FLOAT64, GA_FLOAT32}, {GA_FLOAT32, GA_INT16}};
    for (int c = 0; c < 3; c++) {
        /* x (5, 77) transposed from (77, 5); w a row broadcast against it */
        ga_array *xb = random_array(2, (int64_t[]){77, 5}, pairs[c][0]), *x = ga_transpose(xb, NULL);
        ga_array *w = pairs[c][1] == GA_INT16 ? ga_arange_int(-38, 39, 1, GA_INT16)
                                              : random_array(1, (int64_t[]){77}, pairs[c][1]);
        for (int ax = -1; ax < 2; ax++) {
            const int axes[1] = {ax};
            ga_array *out = NULL;
            CHECK_OK(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(w)},
                                              ax < 0 ? 0 : 1, ax < 0 ? NULL : axes, false, &out));
            ga_array *x64 = ga_astype(x, GA_FLOAT64), *w64 = ga_astype(w, GA_FLOAT64), *p = ga_multiply(x64, w64);
            ga_array *s = ga_sum(p, ax < 0 ? 0 : 1, ax < 0 ? NULL : axes, false), *ref = ga_astype(s, pairs[c][0]);
            CHECK(out && ga_dtype_of(out) == pairs[c][0] && close_arrays(out, ref, pairs[c][0] == GA_FLOAT64 ? 1e-12 : 1e-6),
                  "weighted_sum (%s, %s) axis %d: %s", ga_dtype_name(pairs[c][0]), ga_dtype_name(pairs[c][1]), ax,
                  ga_last_error_message());
            ga_release(out), ga_release(x64), ga_release(w64), ga_release(p), ga_release(s), ga_release(ref);
        }
        ga_release(xb), ga_release(x), ga_release(w);
    }
    ga_array *x = random_array(1, (int64_t[]){10}, GA_FLOAT64), *w = random_array(1, (int64_t[]){10}, GA_FLOAT64);
    ga_array *none = NULL;
    CHECK_ERROR(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(w)}, 0, NULL, false,
                                         &none) != GA_OK,
                GA_ERROR_TYPE, "weighted_sum was not built for T = float64, W = float64");
    ga_release(x), ga_release(w);
}

static double above_one(int64_t i, int64_t n, double x) { return (void)i, (void)n, x > 1 ? 1 : 0; }

DEVICE_TEST(reduction_scalar_inputs)
{
    ga_reduction_kernel *k = reduction("count_above"), *ax = reduction("axpy_sum");
    if (!k || !ax) return;
    const ga_dtype dts[4] = {GA_INT8, GA_INT64, GA_FLOAT16, GA_FLOAT64};
    for (int t = 0; t < 4; t++) {
        /* values in [-2, 2): integers -2 .. 1 or 2; a limit of 1 (a weak int, converted to float64) */
        ga_array *xb = random_array(2, (int64_t[]){41, 13}, dts[t]), *x = ga_transpose(xb, NULL); /* (13, 41) */
        double *hx = host_f64(x);
        for (int a = -1; a < 2 && hx; a++) {
            ga_array *out = NULL;
            CHECK_OK(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_int(1))},
                                              a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &out));
            double want[41];
            host_reduce2d(hx, 13, 41, a, above_one, want);
            CHECK(out && ga_dtype_of(out) == GA_INT64 && holds(out, want, a == 0 ? 41 : a == 1 ? 13 : 1, 0),
                  "count_above %s axis %d: %s", ga_dtype_name(dts[t]), a, ga_last_error_message());
            ga_release(out);
        }
        free(hx);
        ga_release(xb), ga_release(x);
    }
    /* a scalar as input 1, as input 2, as both; the arrays broadcast */
    ga_array *x = random_array(2, (int64_t[]){6, 1001}, GA_FLOAT32), *y = random_array(1, (int64_t[]){1001}, GA_FLOAT32);
    double *hx = host_f64(x), *hy = host_f64(y);
    for (int c = 0; c < 3 && hx && hy; c++) {
        const ga_operand alpha = c == 1 ? ga_operand_array(y) : ga_operand_scalar(ga_float(-1.5));
        const ga_operand off = c == 0 ? ga_operand_array(y) : ga_operand_scalar(ga_float(0.5));
        ga_array *out = NULL;
        CHECK_OK(ga_reduction_kernel_call(ax, 3, (ga_operand[]){ga_operand_array(x), alpha, off}, 1, (int[]){1}, true,
                                          &out));
        double want[6] = {0};
        for (int r = 0; r < 6; r++)
            for (int j = 0; j < 1001; j++) {
                const double al = c == 1 ? hy[j] : -1.5, o = c == 0 ? hy[j] : 0.5;
                want[r] += al * hx[r * 1001 + j] + o;
            }
        CHECK(out && ga_ndim(out) == 2 && ga_shape(out)[1] == 1 && holds(out, want, 6, 1e-12),
              "axpy_sum case %d: %s", c, ga_last_error_message());
        ga_release(out);
    }
    ga_array *none = NULL;
    CHECK_ERROR(ga_reduction_kernel_call(ax, 3, (ga_operand[]){ga_operand_scalar(ga_float(1)), ga_operand_array(x),
                                                               ga_operand_array(y)}, 0, NULL, false, &none) != GA_OK,
                GA_ERROR_TYPE, "axpy_sum: input 0 of a reduction kernel must be an array");
    ga_array *x64 = ga_astype(x, GA_FLOAT64);
    CHECK_ERROR(ga_reduction_kernel_call(ax, 3, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_float(1)),
                                                               ga_operand_array(x64)}, 0, NULL, false, &none) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. y float64 float32 T");
    free(hx), free(hy);
    ga_release(x), ga_release(y), ga_release(x64);
}

static double index_times(int64_t i, int64_t n, double x) { return (void)n, (double)i * x; }
static double second_half(int64_t i, int64_t n, double x) { return i >= n / 2 ? x : 0; }

DEVICE_TEST(reduction_element_index)
{
    ga_reduction_kernel *iw = reduction("index_weighted"), *id = reduction("index_dot"), *sh = reduction("second_half");
    ga_reduction_kernel *l2 = reduction("l2norm");
    if (!iw || !id || !sh || !l2) return;
    CHECK(iw->indexed && id->indexed && sh->indexed && !l2->indexed, "which maps read the index");
    for (int t = 0; t < 4; t++) {
        const ga_dtype dt = float_dtypes[t];
        /* (9, 37): transposed from (37, 9) and flipped: i still counts in C order over (9, 37) */
        ga_array *xb = random_array(2, (int64_t[]){37, 9}, dt), *xt = ga_transpose(xb, NULL);
        ga_array *x = ga_flip(xt, 1, (int[]){1});
        double *hx = host_f64(x);
        for (int a = -1; a < 2 && hx; a++) {
            double want[37];
            const int64_t count = a == 0 ? 37 : a == 1 ? 9 : 1;
            ga_array *out = NULL;
            CHECK_OK(ga_reduction_kernel_call(iw, 1, (ga_operand[]){ga_operand_array(x)}, a < 0 ? 0 : 1,
                                              a < 0 ? NULL : (int[]){a}, false, &out));
            host_reduce2d(hx, 9, 37, a, index_times, want);
            CHECK(holds(out, want, count, 1e-10), "index_weighted %s axis %d: %s", ga_dtype_name(dt), a,
                  ga_last_error_message());
            ga_release(out);
            out = NULL;
            CHECK_OK(ga_reduction_kernel_call(sh, 1, (ga_operand[]){ga_operand_array(x)}, a < 0 ? 0 : 1,
                                              a < 0 ? NULL : (int[]){a}, false, &out));
            host_reduce2d(hx, 9, 37, a, second_half, want);
            CHECK(holds(out, want, count, 1e-10), "second_half %s axis %d: %s", ga_dtype_name(dt), a,
                  ga_last_error_message());
            ga_release(out);
        }
        /* two inputs, one broadcast: i and n over the broadcast shape (9, 37) */
        ga_array *y = random_array(1, (int64_t[]){37}, dt), *out = NULL;
        double *hy = host_f64(y);
        CHECK_OK(ga_reduction_kernel_call(id, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y)}, 1, (int[]){0},
                                          false, &out));
        double want[37] = {0};
        for (int64_t i = 0; hx && hy && i < 9 * 37; i++) want[i % 37] += (double)(9 * 37 - i) * hx[i] * hy[i % 37];
        CHECK(holds(out, want, 37, 1e-10), "index_dot %s: %s", ga_dtype_name(dt), ga_last_error_message());
        free(hx), free(hy);
        ga_release(xb), ga_release(xt), ga_release(x), ga_release(y), ga_release(out);
    }
    /* long: chunks combined by the combine passes; 0-d; empty */
    const int64_t n = test_length(1 << 21);
    ga_array *x = random_array(1, (int64_t[]){n}, GA_FLOAT64), *out = NULL;
    double *hx = host_f64(x), want = 0;
    for (int64_t i = 0; hx && i < n; i++) want += (double)i * hx[i];
    CHECK_OK(ga_reduction_kernel_call(iw, 1, (ga_operand[]){ga_operand_array(x)}, 0, NULL, false, &out));
    CHECK(holds(out, &want, 1, 1e-9), "index_weighted of %lld: %s", (long long)n, ga_last_error_message());
    double two = 2, got = -1;
    ga_array *z = ga_from_host(&two, 0, NULL, GA_FLOAT64), *rz = NULL;
    CHECK_OK(ga_reduction_kernel_call(sh, 1, (ga_operand[]){ga_operand_array(z)}, 0, NULL, false, &rz));
    CHECK(rz && download(rz, &got) && got == 2, "second_half of a 0-d 2: %g", got); /* i 0 >= n / 2 = 0 */
    ga_array *e = ga_empty(1, (int64_t[]){0}, GA_FLOAT32), *re = NULL;
    CHECK_OK(ga_reduction_kernel_call(iw, 1, (ga_operand[]){ga_operand_array(e)}, 0, NULL, false, &re));
    CHECK(re && download(re, &got) && got == 0, "index_weighted of nothing: %g", got);
    free(hx);
    ga_release(x), ga_release(out), ga_release(z), ga_release(rz), ga_release(e), ga_release(re);
}

/* ---- reductions of several inputs in 16-byte vectors ------------------------- */

/* A (rows, cols) view of `t` whose element 0 is `off` elements past the
   start of a new random array (pool blocks start 256-byte aligned), its
   base in *base. */
static ga_array *offset_view(int64_t rows, int64_t cols, int64_t off, ga_dtype t, ga_array **base)
{
    *base = random_array(1, (int64_t[]){rows * cols + 8}, t);
    char idx[64];
    snprintf(idx, sizeof idx, "%lld:%lld", (long long)off, (long long)(off + rows * cols));
    ga_array *flat = *base ? ga_index(*base, idx) : NULL;
    ga_array *v = flat ? ga_reshape(flat, 2, (int64_t[]){rows, cols}) : NULL;
    ga_release(flat);
    return v;
}

/* sums over axis `axis` (0, 1, or -1: all) of a (rows, cols) array of
   terms in C order, into want[] */
static void host_sum2d(const double *terms, int64_t rows, int64_t cols, int axis, double *want)
{
    const int64_t nout = axis == 0 ? cols : axis == 1 ? rows : 1;
    for (int64_t o = 0; o < nout; o++) want[o] = 0;
    for (int64_t i = 0; i < rows * cols; i++) want[axis == 0 ? i % cols : axis == 1 ? i / cols : 0] += terms[i];
}

/* The shapes of the vector tests: long rows (chunks and the combine
   passes), rows of a warp, a thread per row, odd and empty; the element
   offsets of the two or three inputs: in phase (aligned, or past a vector
   boundary alike: a head of elements first) and out of phase (read
   element by element). */
static const int64_t vshapes[][2] = {{1, 200003}, {7, 1001}, {1, 4097}, {5, 3}, {1, 3}, {1, 1}, {0, 5}, {3, 0}};
static const int voffs[][3] = {{0, 0, 0}, {1, 1, 1}, {3, 3, 3}, {1, 0, 1}, {2, 3, 2}, {0, 0, 2}};

#define VEC_SHAPES (int)(sizeof vshapes / sizeof vshapes[0])
#define VEC_OFFS (int)(sizeof voffs / sizeof voffs[0])

DEVICE_TEST(reduction_vectors_two_inputs_every_float)
{
    ga_reduction_kernel *k = reduction("sumsq_diff");
    if (!k) return;
    for (int t = 0; t < 4; t++) {
        const ga_dtype dt = float_dtypes[t];
        /* float16 sums overflow past a few thousand squares; bfloat16 rounds to 8 bits */
        const double tol = dt == GA_FLOAT64 ? 1e-12 : dt == GA_FLOAT32 ? 1e-6 : dt == GA_FLOAT16 ? 1e-3 : 8e-3;
        for (int sh = 0; sh < VEC_SHAPES; sh++) {
            const int64_t rows = vshapes[sh][0], cols = dt == GA_FLOAT16 && vshapes[sh][1] > 5000 ? 4099 : vshapes[sh][1];
            const int64_t n = rows * cols;
            for (int o = 0; o < VEC_OFFS; o++) {
                ga_array *bx, *by;
                ga_array *x = offset_view(rows, test_length(cols), voffs[o][0], dt, &bx);
                ga_array *y = offset_view(rows, test_length(cols), voffs[o][1], dt, &by);
                const int64_t c = test_length(cols), m = rows * c;
                /* the difference as the body computes it (rounded in T), squared and summed in double */
                ga_array *d = x && y ? ga_subtract(x, y) : NULL;
                double *hd = d ? host_f64(d) : NULL;
                double *terms = malloc(sizeof(double) * (size_t)(m ? m : 1)), *want = malloc(sizeof(double) * (size_t)(n + c + 1));
                for (int64_t i = 0; hd && i < m; i++) terms[i] = hd[i] * hd[i];
                for (int a = -1; a < 2 && hd; a++) {
                    const int64_t count = a == 0 ? c : a == 1 ? rows : 1;
                    ga_array *r1 = NULL, *r2 = NULL;
                    CHECK_OK(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y)},
                                                      a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r1));
                    CHECK_OK(ga_reduction_kernel_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y)},
                                                      a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r2));
                    host_sum2d(terms, rows, c, a, want);
                    CHECK(r1 && ga_dtype_of(r1) == dt && holds(r1, want, count, tol) && close_arrays(r1, r2, 0),
                          "sumsq_diff %s (%lld, %lld) offsets %d %d axis %d: %s", ga_dtype_name(dt), (long long)rows,
                          (long long)c, voffs[o][0], voffs[o][1], a, ga_last_error_message());
                    ga_release(r1), ga_release(r2);
                }
                free(hd), free(terms), free(want);
                ga_release(bx), ga_release(by), ga_release(x), ga_release(y), ga_release(d);
            }
        }
    }
}

DEVICE_TEST(reduction_vectors_mixed_sizes_three_inputs_scalars)
{
    ga_reduction_kernel *ws = reduction("weighted_sum"), *dp = reduction("dot_plus"), *ax = reduction("axpy_sum");
    if (!ws || !dp || !ax) return;
    /* inputs of two sizes: vectors of 16 bytes of the wider, 8 (or 4) of the narrower */
    static const ga_dtype pairs[2][2] = {{GA_FLOAT64, GA_FLOAT32}, {GA_FLOAT32, GA_INT16}};
    for (int sh = 0; sh < VEC_SHAPES; sh++) {
        const int64_t rows = vshapes[sh][0], c = test_length(vshapes[sh][1]), m = rows * c;
        double *want = malloc(sizeof(double) * (size_t)(c + rows + 1)), *terms = malloc(sizeof(double) * (size_t)(m ? m : 1));
        for (int o = 0; o < VEC_OFFS; o++) {
            for (int p = 0; p < 2; p++) {
                ga_array *bx, *bw;
                ga_array *x = offset_view(rows, c, voffs[o][0], pairs[p][0], &bx);
                ga_array *w = offset_view(rows, c, voffs[o][1], pairs[p][1], &bw);
                double *hx = x ? host_f64(x) : NULL, *hw = w ? host_f64(w) : NULL;
                for (int64_t i = 0; hx && hw && i < m; i++) terms[i] = hx[i] * hw[i];
                for (int a = -1; a < 2 && hx && hw; a++) {
                    ga_array *r = NULL;
                    CHECK_OK(ga_reduction_kernel_call(ws, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(w)},
                                                      a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r));
                    host_sum2d(terms, rows, c, a, want);
                    CHECK(holds(r, want, a == 0 ? c : a == 1 ? rows : 1, pairs[p][0] == GA_FLOAT64 ? 1e-12 : 1e-6),
                          "weighted_sum (%s, %s) (%lld, %lld) offsets %d %d axis %d: %s", ga_dtype_name(pairs[p][0]),
                          ga_dtype_name(pairs[p][1]), (long long)rows, (long long)c, voffs[o][0], voffs[o][1], a,
                          ga_last_error_message());
                    ga_release(r);
                }
                free(hx), free(hw);
                ga_release(bx), ga_release(bw), ga_release(x), ga_release(w);
            }
            /* three float32 inputs: sum(x * y + z), float64 */
            ga_array *bx, *by, *bz;
            ga_array *x = offset_view(rows, c, voffs[o][0], GA_FLOAT32, &bx);
            ga_array *y = offset_view(rows, c, voffs[o][1], GA_FLOAT32, &by);
            ga_array *z = offset_view(rows, c, voffs[o][2], GA_FLOAT32, &bz);
            double *hx = x ? host_f64(x) : NULL, *hy = y ? host_f64(y) : NULL, *hz = z ? host_f64(z) : NULL;
            for (int a = -1; a < 2 && hx && hy && hz; a++) {
                const int64_t count = a == 0 ? c : a == 1 ? rows : 1;
                for (int64_t i = 0; i < m; i++) terms[i] = hx[i] * hy[i] + hz[i];
                ga_array *r1 = NULL, *r2 = NULL;
                const ga_operand three[3] = {ga_operand_array(x), ga_operand_array(y), ga_operand_array(z)};
                CHECK_OK(ga_reduction_kernel_call(dp, 3, three, a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r1));
                CHECK_OK(ga_reduction_kernel_call(dp, 3, three, a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r2));
                host_sum2d(terms, rows, c, a, want);
                CHECK(holds(r1, want, count, 1e-11) && close_arrays(r1, r2, 0),
                      "dot_plus (%lld, %lld) offsets %d %d %d axis %d: %s", (long long)rows, (long long)c, voffs[o][0],
                      voffs[o][1], voffs[o][2], a, ga_last_error_message());
                ga_release(r1), ga_release(r2);
                /* a weak scalar as input 1, then as input 2: alpha * x + y */
                for (int s = 0; s < 2; s++) {
                    const ga_operand ops[3] = {ga_operand_array(x),
                                               s == 0 ? ga_operand_scalar(ga_float(-1.5)) : ga_operand_array(y),
                                               s == 0 ? ga_operand_array(z) : ga_operand_scalar(ga_float(0.25))};
                    for (int64_t i = 0; i < m; i++) terms[i] = s == 0 ? -1.5 * hx[i] + hz[i] : hy[i] * hx[i] + 0.25;
                    ga_array *r = NULL;
                    CHECK_OK(ga_reduction_kernel_call(ax, 3, ops, a < 0 ? 0 : 1, a < 0 ? NULL : (int[]){a}, false, &r));
                    host_sum2d(terms, rows, c, a, want);
                    CHECK(holds(r, want, count, 1e-11), "axpy_sum scalar %d (%lld, %lld) offsets %d %d %d axis %d: %s",
                          s + 1, (long long)rows, (long long)c, voffs[o][0], voffs[o][1], voffs[o][2], a,
                          ga_last_error_message());
                    ga_release(r);
                }
            }
            free(hx), free(hy), free(hz);
            ga_release(bx), ga_release(by), ga_release(bz), ga_release(x), ga_release(y), ga_release(z);
        }
        free(want), free(terms);
    }
}

/* ---- raw parameters ------------------------------------------------------------ */

DEVICE_TEST(raw_parameter_reverse_every_dtype)
{
    ga_elementwise_kernel *k = kernel("reverse");
    if (!k) return;
    CHECK(ga_elementwise_nin(k) == 1 && ga_elementwise_nout(k) == 1, "reverse: 1 input, 1 output");
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        /* x a flipped view: y[i] = x[n - 1 - i] = base[i]; 2-d, (7, 143): the flat index over x's own shape */
        ga_array *base = random_array(2, (int64_t[]){7, 143}, (ga_dtype)t), *x = ga_flip(base, 0, NULL);
        ga_array *y = ga_empty(2, (int64_t[]){7, 143}, (ga_dtype)t), *outs[1] = {y};
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, outs));
        CHECK(close_arrays(y, base, 0), "reverse %s", ga_dtype_name((ga_dtype)t));
        /* the output shape is the loop's; x's own shape may differ: a flat y of x's size */
        ga_array *flat = ga_empty(1, (int64_t[]){7 * 143}, (ga_dtype)t), *fo[1] = {flat};
        ga_array *bflat = ga_reshape(base, 1, (int64_t[]){7 * 143});
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, fo));
        CHECK(close_arrays(flat, bflat, 0), "reverse %s into a flat y", ga_dtype_name((ga_dtype)t));
        ga_release(base), ga_release(x), ga_release(y), ga_release(flat), ga_release(bflat);
    }
    ga_array *x = random_array(1, (int64_t[]){100}, GA_FLOAT64), *none[1] = {NULL};
    CHECK_ERROR(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, none) != GA_OK, GA_ERROR_VALUE,
                "Loop size is Undecided");
    CHECK_ERROR(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_scalar(ga_float(1))}, 1, none) != GA_OK,
                GA_ERROR_TYPE, "reverse: raw argument x must be an array, not a scalar");
    ga_array *y32 = ga_empty(1, (int64_t[]){100}, GA_FLOAT32), *o32[1] = {y32};
    CHECK_ERROR(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 1, o32) != GA_OK, GA_ERROR_TYPE,
                "Type is mismatched. x float64 float32 T");
    CHECK_ERROR(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(NULL)}, 1, o32) != GA_OK,
                GA_ERROR_NULL_INPUT, "input 0");
    ga_release(x), ga_release(y32);
}

DEVICE_TEST(raw_parameter_stencil_and_gather)
{
    ga_elementwise_kernel *st = kernel("stencil3"), *tk = kernel("take_2d");
    if (!st || !tk) return;
    const int64_t m = 1001;
    for (int t = 2; t < 4; t++) { /* float32, float64 */
        const ga_dtype dt = float_dtypes[t];
        ga_array *w = random_array(1, (int64_t[]){m}, dt), *xb = random_array(1, (int64_t[]){m}, dt);
        ga_array *x = ga_flip(xb, 0, NULL);
        double *hw = host_f64(w), *hx = host_f64(x), *want = malloc(sizeof(double) * (size_t)m);
        for (int64_t i = 0; hw && hx && i < m; i++)
            want[i] = hw[i] * (hx[i > 0 ? i - 1 : 0] + hx[i] + hx[i + 1 < m ? i + 1 : m - 1]);
        ga_array *y = ga_elementwise(st, 2, (ga_operand[]){ga_operand_array(w), ga_operand_array(x)});
        /* float32: three roundings of sums up to 6 and one of the product, against float64 */
        const double tol = dt == GA_FLOAT32 ? 4e-6 : 1e-12;
        CHECK(y && ga_dtype_of(y) == dt && holds(y, want, m, tol), "stencil3 %s: %s", ga_dtype_name(dt),
              ga_last_error_message());
        /* a weak scalar weight: the loop's size from the given output */
        ga_array *y2 = ga_empty(1, (int64_t[]){m}, dt), *o2[1] = {y2};
        CHECK_OK(ga_elementwise_call(st, 2, (ga_operand[]){ga_operand_scalar(ga_float(2)), ga_operand_array(x)}, 1, o2));
        for (int64_t i = 0; hx && i < m; i++) want[i] = 2 * (hx[i > 0 ? i - 1 : 0] + hx[i] + hx[i + 1 < m ? i + 1 : m - 1]);
        CHECK(holds(y2, want, m, tol), "stencil3 %s, a scalar weight", ga_dtype_name(dt));
        free(hw), free(hx), free(want);
        ga_release(w), ga_release(xb), ga_release(x), ga_release(y), ga_release(y2);
    }
    /* take_2d: a transposed (7, 5) table, rows (4, 1) and columns (1, 3) broadcast to (4, 3) */
    static const ga_dtype pairs[2][2] = {{GA_FLOAT64, GA_INT64}, {GA_FLOAT32, GA_INT32}};
    for (int c = 0; c < 2; c++) {
        ga_array *tb = random_array(2, (int64_t[]){5, 7}, pairs[c][0]), *table = ga_transpose(tb, NULL);
        const int64_t rows[4] = {6, 0, 3, 3}, cols[3] = {4, 0, 2};
        ga_array *r64 = ga_from_host(rows, 2, (int64_t[]){4, 1}, GA_INT64), *c64 = ga_from_host(cols, 2, (int64_t[]){1, 3}, GA_INT64);
        ga_array *r = ga_astype(r64, pairs[c][1]), *cc = ga_astype(c64, pairs[c][1]);
        ga_array *y = ga_elementwise(tk, 3, (ga_operand[]){ga_operand_array(r), ga_operand_array(cc), ga_operand_array(table)});
        double *ht = host_f64(table), want[12];
        for (int i = 0; ht && i < 4; i++)
            for (int j = 0; j < 3; j++) want[i * 3 + j] = ht[rows[i] * 5 + cols[j]];
        CHECK(y && ga_ndim(y) == 2 && ga_shape(y)[0] == 4 && ga_shape(y)[1] == 3 && ga_dtype_of(y) == pairs[c][0] &&
                  holds(y, want, 12, 0),
              "take_2d (%s, %s): %s", ga_dtype_name(pairs[c][0]), ga_dtype_name(pairs[c][1]), ga_last_error_message());
        free(ht);
        ga_release(tb), ga_release(table), ga_release(r64), ga_release(c64), ga_release(r), ga_release(cc), ga_release(y);
    }
    ga_array *t64 = random_array(2, (int64_t[]){3, 3}, GA_FLOAT64), *i32 = ga_zeros(1, (int64_t[]){2}, GA_INT32);
    CHECK_ERROR(ga_elementwise(tk, 3, (ga_operand[]){ga_operand_array(i32), ga_operand_array(i32), ga_operand_array(t64)})
                    == NULL,
                GA_ERROR_TYPE, "take_2d was not built for T = float64, I = int32 (built for (float64, int64), (float32, int32))");
    ga_release(t64), ga_release(i32);
}

/* ---- raw kernels ------------------------------------------------------------ */

DEVICE_TEST(raw_views_pointers_scalars)
{
    ga_module *m = module();
    ga_raw_kernel *scale = m ? ga_module_raw_kernel(m, "scale") : NULL;
    ga_raw_kernel *fill = m ? ga_module_raw_kernel(m, "fill_index") : NULL;
    ga_raw_kernel *add1 = m ? ga_module_raw_kernel(m, "add_one_2d") : NULL;
    CHECK(scale && fill && add1, "raw kernels: %s", ga_last_error_message());
    if (!scale || !fill || !add1) return;
    /* a flipped, strided view scaled in place: only its elements change */
    ga_array *base = ga_arange(0, 20, 1, GA_FLOAT32);
    ga_array *v = ga_as_strided(base, 1, (int64_t[]){5}, (int64_t[]){-12}, 18 * 4); /* 18, 15, 12, 9, 6 */
    const unsigned grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    ga_launch_arg args[2] = {ga_arg_view(v), ga_arg_float32(-1.0f)};
    CHECK_OK(ga_launch(scale, grid, block, 0, 2, args));
    float h[20];
    if (download(base, h))
        for (int i = 0; i < 20; i++)
            CHECK(h[i] == (i % 3 == 0 && i >= 6 && i <= 18 ? -(float)i : (float)i), "scale: base[%d] = %g", i, h[i]);
    /* a pointer and int64 scalars */
    ga_array *p = ga_empty(1, (int64_t[]){300}, GA_INT64);
    ga_launch_arg fargs[3] = {ga_arg_pointer(p), ga_arg_int64(300), ga_arg_int64(-50)};
    CHECK_OK(ga_launch(fill, (unsigned[]){3, 1, 1}, (unsigned[]){128, 1, 1}, 0, 3, fargs));
    int64_t hp[300];
    if (download(p, hp))
        for (int i = 0; i < 300; i++) CHECK(hp[i] == i - 50, "fill_index[%d]", i);
    /* 2-d views of any strides: a transposed input into a flipped output */
    ga_array *xb = ga_arange(0, 12, 1, GA_FLOAT64), *x2 = ga_reshape(xb, 2, (int64_t[]){4, 3});
    ga_array *xt = ga_transpose(x2, NULL); /* (3, 4) */
    ga_array *yb = ga_zeros(2, (int64_t[]){3, 4}, GA_FLOAT64), *y = ga_flip(yb, 1, (int[]){1});
    ga_launch_arg aargs[2] = {ga_arg_view(xt), ga_arg_view(y)};
    CHECK_OK(ga_launch(add1, (unsigned[]){1, 3, 1}, (unsigned[]){32, 1, 1}, 0, 2, aargs));
    double hy[12];
    if (download(yb, hy)) /* yb[i][3 - j] = xt[i][j] + 1 = x2[j][i] + 1 = 3 j + i + 1 */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                CHECK(hy[i * 4 + (3 - j)] == 3 * j + i + 1, "add_one_2d[%d][%d] = %g", i, j, hy[i * 4 + 3 - j]);
    /* refused configurations and bad arguments */
    if (provoke_api_errors()) {
        CHECK_ERROR(ga_launch(scale, grid, (unsigned[]){4096, 1, 1}, 0, 2, args) != GA_OK, GA_ERROR_CUDA,
                    "the device refused to launch scale");
        CHECK_ERROR(ga_launch(scale, grid, block, (size_t)1 << 30, 2, args) != GA_OK, GA_ERROR_CUDA,
                    "the device refused to launch scale");
    }
    CHECK_ERROR(ga_launch(scale, (unsigned[]){0, 1, 1}, block, 0, 2, args) != GA_OK, GA_ERROR_VALUE,
                "must be at least 1");
    ga_launch_arg nullarg[2] = {ga_arg_view(NULL), ga_arg_float32(1)};
    CHECK_ERROR(ga_launch(scale, grid, block, 0, 2, nullarg) != GA_OK, GA_ERROR_NULL_INPUT, "argument 0");
    CHECK_OK(ga_device_synchronize());
    ga_release(base), ga_release(v), ga_release(p), ga_release(xb), ga_release(x2), ga_release(xt);
    ga_release(yb), ga_release(y);
}

/* The child's side of raw_fault_is_sticky: a raw kernel writes through
   NULL, then a synchronising call reports it. Runs before main. */
__attribute__((constructor)) static void fault_child(void)
{
    if (!test_env_flag("GPUARR_TEST_USER_FAULT_CHILD")) return;
    ga_module *m = ga_module_load(module_path());
    ga_raw_kernel *k = m ? ga_module_raw_kernel(m, "write_to") : NULL;
    ga_launch_arg arg = ga_arg_uint64(0);
    int code = 3;
    if (k && ga_launch(k, (unsigned[]){1, 1, 1}, (unsigned[]){1, 1, 1}, 0, 1, &arg) == GA_OK) {
        ga_status st = ga_device_synchronize();
        printf("%s\n", ga_last_error_message());
        code = st == GA_ERROR_CUDA && strstr(ga_last_error_message(), "compute-sanitizer") ? 0 : 1;
    }
    fflush(stdout);
    _exit(code);
}

/* ---- raw outputs ---------------------------------------------------------------- */

/* a random permutation of 0 .. n - 1 (host), as int64 on the device */
static ga_array *permutation(int64_t n, int64_t *h)
{
    for (int64_t i = 0; i < n; i++) h[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        const int64_t j = (int64_t)(rnd() % (uint64_t)(i + 1)), t = h[i];
        h[i] = h[j], h[j] = t;
    }
    return ga_from_host(h, 1, &n, GA_INT64);
}

DEVICE_TEST(raw_output_scatter_every_dtype)
{
    ga_elementwise_kernel *k = kernel("scatter");
    if (!k) return;
    CHECK(ga_elementwise_nin(k) == 2 && ga_elementwise_nout(k) == 1, "scatter: %d in, %d out", ga_elementwise_nin(k),
          ga_elementwise_nout(k));
    const int64_t n = 1001, big = 1500;
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)big);
    for (int t = 0; t < GA_NUM_DTYPES && perm; t++) {
        const ga_dtype dt = (ga_dtype)t;
        const size_t sz = ga_dtype_itemsize(dt);
        /* given: a (3, 500) y pre-filled, x scattered into its first n places by a permutation of them */
        ga_array *idx = permutation(n, perm), *x = random_array(1, &n, dt);
        ga_array *y = random_array(2, (int64_t[]){3, 500}, dt);
        unsigned char *hx = malloc(sz * (size_t)n), *want = malloc(sz * (size_t)big), *got = malloc(sz * (size_t)big);
        bool ok = idx && x && y && hx && want && got && download(x, hx) && download(y, want);
        for (int64_t i = 0; ok && i < n; i++) memcpy(want + perm[i] * (int64_t)sz, hx + i * (int64_t)sz, sz);
        ga_array *outs[1] = {y};
        CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(idx)}, 1, outs));
        CHECK(ok && outs[0] == y && download(y, got) && memcmp(got, want, sz * (size_t)big) == 0,
              "scatter %s into a given (3, 500): %s", ga_dtype_name(dt), ga_last_error_message());
        /* made here: the loop's shape (x's), every place written once */
        ga_array *made = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(idx)});
        for (int64_t i = 0; ok && i < n; i++) memcpy(want + perm[i] * (int64_t)sz, hx + i * (int64_t)sz, sz);
        CHECK(made && ga_dtype_of(made) == dt && ga_ndim(made) == 1 && ga_shape(made)[0] == n && download(made, got) &&
                  memcmp(got, want, sz * (size_t)n) == 0,
              "scatter %s into a new array: %s", ga_dtype_name(dt), ga_last_error_message());
        free(hx), free(want), free(got);
        ga_release(idx), ga_release(x), ga_release(y), ga_release(made);
    }
    /* x broadcast against the indices: (4, 5) places, each row of x's (5,) values; y given strided (a
       transposed view: y[k] is the flat C-order index over its own shape) */
    double hx5[5] = {1.5, -2, 3.25, 0, 7};
    int64_t hi[20];
    ga_array *idx = permutation(20, hi), *idx2 = idx ? ga_reshape(idx, 2, (int64_t[]){4, 5}) : NULL;
    ga_array *x5 = ga_from_host(hx5, 1, (int64_t[]){5}, GA_FLOAT64);
    ga_array *yb = ga_zeros(2, (int64_t[]){5, 4}, GA_FLOAT64), *yt = yb ? ga_transpose(yb, NULL) : NULL;
    ga_array *outs[1] = {yt};
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x5), ga_operand_array(idx2)}, 1, outs));
    double got[20], want[20] = {0};
    for (int i = 0; i < 20; i++) want[hi[i]] = hx5[i % 5];
    CHECK(yt && download(yt, got) && memcmp(got, want, sizeof got) == 0, "scatter broadcast into a transposed y");
    /* errors: a given raw output of another dtype, read-only, the loop's size undecided (no array for the loop) */
    ga_array *y32 = ga_zeros(1, (int64_t[]){20}, GA_FLOAT32);
    outs[0] = y32;
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x5), ga_operand_array(idx2)}, 1, outs) != GA_OK,
                GA_ERROR_TYPE, "Type is mismatched. x float64 float32 T");
    ga_array *ro = yb ? ga_broadcast_to(yb, 2, (int64_t[]){5, 4}) : NULL;
    outs[0] = ro;
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x5), ga_operand_array(idx2)}, 1, outs) != GA_OK,
                GA_ERROR_VALUE, "raw output y is read-only");
    outs[0] = yb;
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_scalar(ga_float(1)), ga_operand_scalar(ga_int(3))},
                                    1, outs) != GA_OK,
                GA_ERROR_VALUE, "Loop size is Undecided");
    CHECK_ERROR(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(x5), ga_operand_array(idx2)}, 2, outs) != GA_OK,
                GA_ERROR_TYPE, "Wrong number of arguments for scatter");
    /* empty: nothing launched, a given y unchanged, a made one empty */
    ga_array *e = ga_empty(1, (int64_t[]){0}, GA_FLOAT64), *ei = ga_empty(1, (int64_t[]){0}, GA_INT64);
    outs[0] = yt;
    CHECK_OK(ga_elementwise_call(k, 2, (ga_operand[]){ga_operand_array(e), ga_operand_array(ei)}, 1, outs));
    CHECK(download(yt, got) && memcmp(got, want, sizeof got) == 0, "an empty scatter left y as it was");
    ga_array *me = ga_elementwise(k, 2, (ga_operand[]){ga_operand_array(e), ga_operand_array(ei)});
    CHECK(me && ga_size(me) == 0 && ga_ndim(me) == 1, "an empty scatter's new y: %s", ga_last_error_message());
    free(perm);
    ga_release(idx), ga_release(idx2), ga_release(x5), ga_release(yb), ga_release(yt), ga_release(y32), ga_release(ro);
    ga_release(e), ga_release(ei), ga_release(me);
}

DEVICE_TEST(raw_output_beside_an_ordinary_one)
{
    ga_elementwise_kernel *k = kernel("double_and_reverse");
    if (!k) return;
    static const ga_dtype dts[4] = {GA_INT16, GA_FLOAT16, GA_FLOAT32, GA_FLOAT64};
    for (int t = 0; t < 4; t++) {
        /* x (7, 13) flipped on axis 1 (negative strides): z = x + x, y = x reversed in C order */
        ga_array *xb = random_array(2, (int64_t[]){7, 13}, dts[t]), *x = xb ? ga_flip(xb, 1, (int[]){1}) : NULL;
        ga_array *outs[2] = {NULL, NULL};
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 2, outs));
        ga_array *z2 = ga_add(x, x), *flat = ga_reshape(x, 1, (int64_t[]){91});
        ga_array *rev = flat ? ga_flip(flat, 1, (int[]){0}) : NULL;
        ga_array *want_y = rev ? ga_reshape(rev, 2, (int64_t[]){7, 13}) : NULL;
        CHECK(outs[0] && outs[1] && close_arrays(outs[0], z2, 0) && close_arrays(outs[1], want_y, 0),
              "double_and_reverse %s: %s", ga_dtype_name(dts[t]), ga_last_error_message());
        /* both given: z F-ordered, y a flat (91,) of its own shape */
        ga_array *zb = ga_empty(2, (int64_t[]){13, 7}, dts[t]), *zt = zb ? ga_transpose(zb, NULL) : NULL;
        ga_array *y1 = ga_empty(1, (int64_t[]){91}, dts[t]);
        ga_array *given[2] = {zt, y1};
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 2, given));
        CHECK(given[0] == zt && given[1] == y1 && close_arrays(zt, z2, 0) && close_arrays(y1, rev, 0),
              "double_and_reverse %s into given outputs", ga_dtype_name(dts[t]));
        ga_release(xb), ga_release(x), ga_release(outs[0]), ga_release(outs[1]), ga_release(z2), ga_release(flat);
        ga_release(rev), ga_release(want_y), ga_release(zb), ga_release(zt), ga_release(y1);
    }
    /* 0-d: one element, y[0] = x */
    double v = -2.5, z = 0, y = 0;
    ga_array *x0 = ga_from_host(&v, 0, NULL, GA_FLOAT64), *outs[2] = {NULL, NULL};
    CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x0)}, 2, outs));
    CHECK(outs[0] && outs[1] && ga_ndim(outs[1]) == 0 && download(outs[0], &z) && download(outs[1], &y) && z == -5 &&
              y == -2.5,
          "0-d: z %g y %g", z, y);
    ga_release(x0), ga_release(outs[0]), ga_release(outs[1]);
}

/* ---- more than four operands ------------------------------------------------- */

DEVICE_TEST(elementwise_eight_operands)
{
    ga_elementwise_kernel *k = kernel("sum6");
    if (!k) return;
    static const ga_dtype dts[2] = {GA_FLOAT32, GA_FLOAT64};
    for (int t = 0; t < 2; t++) {
        const ga_dtype dt = dts[t];
        /* a (5, 7); b a column (5, 1); c a row (7,); d transposed from (7, 5) (strided); e a (5, 7) flipped;
           f a weak scalar (an extra operand: the loop takes a, b, c) */
        ga_array *a = random_array(2, (int64_t[]){5, 7}, dt), *b = random_array(2, (int64_t[]){5, 1}, dt);
        ga_array *c = random_array(1, (int64_t[]){7}, dt), *db = random_array(2, (int64_t[]){7, 5}, dt);
        ga_array *d = db ? ga_transpose(db, NULL) : NULL, *eb = random_array(2, (int64_t[]){5, 7}, dt);
        ga_array *e = eb ? ga_flip(eb, 1, (int[]){1}) : NULL;
        const double f = -0.75;
        ga_operand in[6] = {ga_operand_array(a), ga_operand_array(b), ga_operand_array(c),
                            ga_operand_array(d), ga_operand_array(e), ga_operand_scalar(ga_float(f))};
        ga_array *outs[2] = {NULL, NULL};
        CHECK_OK(ga_elementwise_call(k, 6, in, 2, outs));
        double *ha = a ? host_f64(a) : NULL, *hb = b ? host_f64(b) : NULL, *hc = c ? host_f64(c) : NULL;
        double *hd = d ? host_f64(d) : NULL, *he = e ? host_f64(e) : NULL;
        double ws[35], wp[35];
        for (int i = 0; ha && hb && hc && hd && he && i < 35; i++) {
            const double v[6] = {ha[i], hb[i / 7], hc[i % 7], hd[i], he[i], f};
            ws[i] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5];
            wp[i] = v[0] * v[1] * v[2] * v[3] * v[4] * v[5];
        }
        const double tol = dt == GA_FLOAT64 ? 1e-14 : 1e-5;
        CHECK(outs[0] && outs[1] && ga_ndim(outs[1]) == 2 && ga_shape(outs[1])[0] == 5 && ga_shape(outs[1])[1] == 7 &&
                  ga_dtype_of(outs[1]) == dt && holds(outs[0], ws, 35, tol) && holds(outs[1], wp, 35, tol),
              "sum6 %s: %s", ga_dtype_name(dt), ga_last_error_message());
        /* given outputs: s F-ordered (the loop's), p a flipped view (an extra one, written through its view) */
        ga_array *sb = ga_empty(2, (int64_t[]){7, 5}, dt), *st = sb ? ga_transpose(sb, NULL) : NULL;
        ga_array *pb = ga_empty(2, (int64_t[]){5, 7}, dt), *pf = pb ? ga_flip(pb, 1, (int[]){0}) : NULL;
        ga_array *given[2] = {st, pf};
        CHECK_OK(ga_elementwise_call(k, 6, in, 2, given));
        CHECK(given[0] == st && given[1] == pf && close_arrays(st, outs[0], 0) && close_arrays(pf, outs[1], 0),
              "sum6 %s into given outputs: %s", ga_dtype_name(dt), ga_last_error_message());
        /* errors: an extra output of another shape; inputs that do not broadcast */
        ga_array *small = ga_empty(1, (int64_t[]){7}, dt);
        given[0] = NULL, given[1] = small;
        CHECK_ERROR(ga_elementwise_call(k, 6, in, 2, given) != GA_OK, GA_ERROR_SHAPE, "non-broadcastable output");
        ga_array *bad = random_array(1, (int64_t[]){4}, dt);
        in[4] = ga_operand_array(bad);
        given[1] = NULL;
        CHECK_ERROR(ga_elementwise_call(k, 6, in, 2, given) != GA_OK, GA_ERROR_SHAPE, "could not be broadcast");
        free(ha), free(hb), free(hc), free(hd), free(he);
        ga_release(a), ga_release(b), ga_release(c), ga_release(db), ga_release(d), ga_release(eb), ga_release(e);
        ga_release(outs[0]), ga_release(outs[1]), ga_release(sb), ga_release(st), ga_release(pb), ga_release(pf);
        ga_release(small), ga_release(bad);
    }
    /* every input a scalar but one extra array: the loop's size is that array's; 0-d; empty */
    double one = 1, got[2] = {0, 0};
    ga_array *x1 = ga_from_host(&one, 0, NULL, GA_FLOAT64), *outs[2] = {NULL, NULL};
    const ga_operand sc[6] = {ga_operand_scalar(ga_float(1)), ga_operand_scalar(ga_float(2)),
                              ga_operand_scalar(ga_float(3)), ga_operand_array(x1),
                              ga_operand_scalar(ga_float(5)), ga_operand_scalar(ga_float(6))};
    CHECK_OK(ga_elementwise_call(k, 6, sc, 2, outs));
    CHECK(outs[0] && outs[1] && ga_ndim(outs[0]) == 0 && download(outs[0], &got[0]) && download(outs[1], &got[1]) &&
              got[0] == 18 && got[1] == 180,
          "0-d with scalars: %g %g", got[0], got[1]);
    ga_release(outs[0]), ga_release(outs[1]);
    ga_array *ez = ga_empty(2, (int64_t[]){0, 3}, GA_FLOAT32);
    const ga_operand em[6] = {ga_operand_array(ez), ga_operand_array(ez), ga_operand_array(ez),
                              ga_operand_array(ez), ga_operand_array(ez), ga_operand_array(ez)};
    outs[0] = outs[1] = NULL;
    CHECK_OK(ga_elementwise_call(k, 6, em, 2, outs));
    CHECK(outs[0] && outs[1] && ga_size(outs[1]) == 0 && ga_ndim(outs[1]) == 2, "empty: %s", ga_last_error_message());
    ga_release(outs[0]), ga_release(outs[1]), ga_release(x1), ga_release(ez);
}

DEVICE_TEST(elementwise_three_outputs_every_dtype_and_raw)
{
    ga_elementwise_kernel *k = kernel("split3"), *kr = kernel("sum4_plus_first");
    if (!k || !kr) return;
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        /* x transposed (strided): a the loop's output, b and c extra ones (one given, strided) */
        ga_array *xb = random_array(2, (int64_t[]){9, 4}, (ga_dtype)t), *x = xb ? ga_transpose(xb, NULL) : NULL;
        ga_array *cb = ga_empty(2, (int64_t[]){9, 4}, (ga_dtype)t), *ct = cb ? ga_transpose(cb, NULL) : NULL;
        ga_array *outs[3] = {NULL, NULL, ct};
        CHECK_OK(ga_elementwise_call(k, 1, (ga_operand[]){ga_operand_array(x)}, 3, outs));
        CHECK(outs[0] && outs[1] && outs[2] == ct && close_arrays(outs[0], x, 0) && close_arrays(outs[1], x, 0) &&
                  close_arrays(ct, x, 0),
              "split3 %s: %s", ga_dtype_name((ga_dtype)t), ga_last_error_message());
        ga_release(xb), ga_release(x), ga_release(cb), ga_release(ct), ga_release(outs[0]), ga_release(outs[1]);
    }
    /* a raw input beside an extra one: s = a + b + c + d + r[0] (views: r, then d) */
    ga_array *a = random_array(1, (int64_t[]){33}, GA_FLOAT64), *r = random_array(1, (int64_t[]){3}, GA_FLOAT64);
    double *ha = host_f64(a), *hr = host_f64(r), want[33];
    for (int i = 0; ha && hr && i < 33; i++) want[i] = ha[i] + 2 + 3 + ha[i] + hr[0];
    ga_array *s = ga_elementwise(kr, 5, (ga_operand[]){ga_operand_array(a), ga_operand_scalar(ga_float(2)),
                                                       ga_operand_scalar(ga_float(3)), ga_operand_array(a),
                                                       ga_operand_array(r)});
    CHECK(s && ga_size(s) == 33 && holds(s, want, 33, 0), "sum4_plus_first: %s", ga_last_error_message());
    free(ha), free(hr);
    ga_release(a), ga_release(r), ga_release(s);
}

DEVICE_TEST(raw_fault_is_sticky)
{
    if (!provoke_api_errors()) return;
    char cmd[512], self[400];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return;
    self[n] = 0;
    snprintf(cmd, sizeof cmd, "GPUARR_TEST_USER_FAULT_CHILD=1 '%s' > /dev/null 2>&1", self);
    int rc = system(cmd);
    CHECK(rc == 0, "the child's fault was not reported as a sticky error with the advice (status %d)", rc);
}

DEVICE_TEST(zz_release_the_module)
{
    ga_module_release(test_module);
    test_module = NULL;
}
