/* Host tests: everything that needs no GPU, run everywhere (CI included).
   White-box where the logic is internal: the pool is driven through a fake
   allocator and fake streams; promotion and casting rules are checked
   against tables generated from NumPy (tests/numpy_tables.h). */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "numpy_tables.h"
#include "harness.h"

#include <pthread.h>

int setenv(const char *name, const char *value, int overwrite); /* POSIX, hidden by -std=c11 */
int unsetenv(const char *name);

/* ---- dtypes and promotion ------------------------------------------------ */

TEST(dtype_names_and_sizes)
{
    static const char *names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                  "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
    static const size_t sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        CHECK(strcmp(ga_dtype_name((ga_dtype)t), names[t]) == 0, "name of %d is %s", t, ga_dtype_name((ga_dtype)t));
        CHECK(ga_dtype_from_name(names[t]) == t, "from_name(%s)", names[t]);
        CHECK(ga_dtype_itemsize((ga_dtype)t) == sizes[t], "itemsize of %s", names[t]);
    }
    CHECK(ga_dtype_from_name("float128") == GA_DTYPE_INVALID, "unknown names are invalid");
    CHECK(ga_dtype_itemsize(GA_DTYPE_INVALID) == 0 && ga_dtype_kind((ga_dtype)99) == 0, "invalid dtypes");
    CHECK(strcmp(ga_dtype_name((ga_dtype)42), "invalid") == 0, "invalid name");
}

TEST(promote_types_matches_numpy)
{
    for (int a = 0; a < GA_NUM_DTYPES; a++)
        for (int b = 0; b < GA_NUM_DTYPES; b++) {
            ga_dtype r = ga_promote_types((ga_dtype)a, (ga_dtype)b);
            CHECK(r == numpy_promote_types[a][b], "promote_types(%s, %s) = %s, NumPy says %s", ga_dtype_name((ga_dtype)a),
                  ga_dtype_name((ga_dtype)b), ga_dtype_name(r), ga_dtype_name((ga_dtype)numpy_promote_types[a][b]));
        }
    CHECK(ga_promote_types(GA_FLOAT32, (ga_dtype)77) == GA_DTYPE_INVALID, "invalid input");
}

TEST(can_cast_matches_numpy)
{
    for (int c = 0; c < 5; c++)
        for (int a = 0; a < GA_NUM_DTYPES; a++)
            for (int b = 0; b < GA_NUM_DTYPES; b++) {
                bool r = ga_can_cast((ga_dtype)a, (ga_dtype)b, (ga_casting)c);
                CHECK(r == (numpy_can_cast[c][a][b] != 0), "can_cast(%s, %s, %s) = %d", ga_dtype_name((ga_dtype)a),
                      ga_dtype_name((ga_dtype)b), ga__casting_name((ga_casting)c), r);
            }
}

TEST(result_type_weak_scalars_match_numpy)
{
    ga_scalar scalars[4] = {ga_bool(true), ga_int(1), ga_float(1.0), ga_complex(0, 1)};
    for (int t = 0; t < GA_NUM_DTYPES; t++)
        for (int k = 0; k < 4; k++) {
            ga_dtype dt = (ga_dtype)t;
            ga_dtype r = ga_result_type(1, &dt, 1, &scalars[k]);
            CHECK(r == numpy_weak_result[t][k], "result_type(%s array, scalar kind %d) = %s, NumPy says %s",
                  ga_dtype_name(dt), k, ga_dtype_name(r), ga_dtype_name((ga_dtype)numpy_weak_result[t][k]));
        }
    for (int k = 0; k < 4; k++)
        CHECK(ga_result_type(0, NULL, 1, &scalars[k]) == numpy_weak_only[k], "lone scalar kind %d", k);
    ga_scalar big = ga_uint(UINT64_MAX);
    ga_dtype u8 = GA_UINT8;
    CHECK(ga_result_type(1, &u8, 1, &big) == GA_UINT8, "a big Python int is still a weak int");
    ga_dtype two[2] = {GA_INT8, GA_UINT8};
    CHECK(ga_result_type(2, two, 1, &scalars[2]) == GA_FLOAT64, "int16 arrays with a float give float64");
    CHECK(ga_result_type(0, NULL, 1, &big) == GA_UINT64, "a lone Python int above INT64_MAX is uint64");
    ga_scalar pair[2] = {ga_int(1), ga_uint(UINT64_MAX)};
    CHECK(ga_result_type(0, NULL, 2, pair) == GA_INT64, "two Python ints are int64, as NumPy");
    CHECK(ga_result_type(0, NULL, 0, NULL) == GA_DTYPE_INVALID, "nothing to promote");
}

/* ---- host-side element conversion (fill values) -------------------------- */

TEST(float64_to_float16_rounding_matches_numpy)
{
    for (int i = 0; i < ROUND_N; i++) {
        uint16_t h = ga__double_to_half(round_inputs[i]);
        bool nan_ok = isnan(round_inputs[i]) && (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
        CHECK(h == round_f16_bits[i] || nan_ok, "float16(%.17g) = 0x%04x, NumPy 0x%04x", round_inputs[i], h,
              round_f16_bits[i]);
        double back = ga__half_to_double(round_f16_bits[i]);
        CHECK(isnan(back) || ga__double_to_half(back) == round_f16_bits[i], "float16 0x%04x round trip", round_f16_bits[i]);
    }
}

TEST(float64_to_bfloat16_rounding_matches_ml_dtypes)
{
    for (int i = 0; i < ROUND_N; i++) {
        uint16_t b = ga__float_to_bfloat16((float)round_inputs[i]);
        bool nan_ok = isnan(round_inputs[i]) && (b & 0x7F80) == 0x7F80 && (b & 0x7F);
        CHECK(b == round_bf16_bits[i] || nan_ok, "bfloat16(%.17g) = 0x%04x, ml_dtypes 0x%04x", round_inputs[i], b,
              round_bf16_bits[i]);
    }
}

TEST(float_to_int_specials_match_numpy_on_x86)
{
    static const ga_dtype targets[8] = {GA_INT8, GA_INT16, GA_INT32, GA_INT64, GA_UINT8, GA_UINT16, GA_UINT32, GA_UINT64};
    for (int t = 0; t < 8; t++)
        for (int i = 0; i < CAST_SPECIAL_N; i++) {
            ga__value16 v;
            ga__double_to_element(cast_special_inputs[i], 0, targets[t], &v);
            unsigned long long got = 0;
            memcpy(&got, &v, ga_dtype_itemsize(targets[t]));
            unsigned long long mask = ga_dtype_itemsize(targets[t]) == 8 ? ~0ull : (1ull << (8 * ga_dtype_itemsize(targets[t]))) - 1;
            unsigned long long want = cast_special_int[t][i] & mask, alt = cast_special_int_alt[t][i] & mask;
            CHECK(got == want || got == alt, "%s(%.17g) = %llu, NumPy %llu (or %llu)", ga_dtype_name(targets[t]),
                  cast_special_inputs[i], got, want, alt);
        }
}

TEST(full_value_conversion_follows_numpy_assignment)
{
    ga__value16 v;
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_int(300), GA_INT8, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "ga_full: Python integer 300 out of bounds for int8");
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_int(-1), GA_UINT8, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "Python integer -1 out of bounds for uint8");
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_uint(UINT64_MAX), GA_INT64, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "ga_full: Python int too large to convert to C long");
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_uint(UINT64_MAX), GA_UINT32, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "ga_full: Python integer 18446744073709551615 out of bounds for uint32");
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_int(INT64_MAX), GA_INT32, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "Python integer 9223372036854775807 out of bounds for int32");
    CHECK_ERROR(ga__scalar_to_element("ga_full", ga_uint(1ull << 63), GA_BOOL, &v) != GA_OK, GA_ERROR_OVERFLOW,
                "Python int too large to convert to C long");
    CHECK_OK(ga__scalar_to_element("f", ga_uint(UINT64_MAX), GA_UINT64, &v));
    CHECK(v.word[0] == UINT64_MAX, "uint64 max");
    CHECK_OK(ga__scalar_to_element("f", ga_int(INT64_MIN), GA_INT64, &v));
    CHECK((int64_t)v.word[0] == INT64_MIN, "int64 min");
    CHECK_OK(ga__scalar_to_element("f", ga_int(-128), GA_INT8, &v));
    CHECK((v.word[0] & 0xFF) == 0x80 && v.word[1] == 0, "int8 -128 = 0x80, zero padded");
    CHECK_OK(ga__scalar_to_element("f", ga_float(300.5), GA_INT8, &v));
    CHECK((v.word[0] & 0xFF) == 44, "floats convert as astype does (300.5 -> int8 44)");
    CHECK_OK(ga__scalar_to_element("f", ga_float(-3.7), GA_UINT8, &v));
    CHECK((v.word[0] & 0xFF) == 253, "-3.7 -> uint8 253");
    CHECK_OK(ga__scalar_to_element("f", ga_complex(1.5, 2.0), GA_FLOAT32, &v));
    float f;
    memcpy(&f, &v, 4);
    CHECK(f == 1.5f, "complex into real keeps the real part");
    CHECK_OK(ga__scalar_to_element("f", ga_complex(0, 2), GA_BOOL, &v));
    CHECK(v.word[0] == 1, "complex 2j is true");
    CHECK_OK(ga__scalar_to_element("f", ga_float(NAN), GA_BOOL, &v));
    CHECK(v.word[0] == 1, "NaN is true");
    CHECK_OK(ga__scalar_to_element("f", ga_int(1), GA_COMPLEX128, &v));
    double c[2];
    memcpy(c, &v, 16);
    CHECK(c[0] == 1.0 && c[1] == 0.0, "1 -> 1+0j");
    CHECK_OK(ga__scalar_to_element("f", ga_int(65520), GA_FLOAT16, &v));
    CHECK((v.word[0] & 0xFFFF) == 0x7C00, "65520 rounds to float16 inf");
}

/* ---- shapes, strides, flags ---------------------------------------------- */

TEST(contiguity_flags_follow_numpy)
{
    int64_t shape[3] = {2, 3, 4}, c[3] = {48, 16, 4}, f[3] = {4, 8, 24};
    CHECK(ga__contiguity(3, shape, c, 4) == GA_C_CONTIGUOUS, "C order");
    CHECK(ga__contiguity(3, shape, f, 4) == GA_F_CONTIGUOUS, "F order");
    int64_t t[3] = {16, 48, 4};
    CHECK(ga__contiguity(3, shape, t, 4) == 0, "a transposed view is neither");
    int64_t one[3] = {1, 5, 1}, any[3] = {999, 4, -7};
    CHECK(ga__contiguity(3, one, any, 4) == (GA_C_CONTIGUOUS | GA_F_CONTIGUOUS), "unit dims' strides do not matter");
    int64_t empty[2] = {0, 5}, junk[2] = {3, -9};
    CHECK(ga__contiguity(2, empty, junk, 8) == (GA_C_CONTIGUOUS | GA_F_CONTIGUOUS), "empty arrays are both");
    CHECK(ga__contiguity(0, NULL, NULL, 8) == (GA_C_CONTIGUOUS | GA_F_CONTIGUOUS), "0-d arrays are both");
    int64_t neg[1] = {-4}, n1[1] = {5};
    CHECK(ga__contiguity(1, n1, neg, 4) == 0, "negative strides are not contiguous");
}

TEST(shape_checks_and_errors)
{
    int64_t size = -1;
    int64_t good[3] = {2, 0, 5};
    CHECK_OK(ga__check_shape("ga_empty", 3, good, 8, &size));
    CHECK(size == 0, "size of (2,0,5)");
    int64_t bad[2] = {2, -1};
    CHECK_ERROR(ga__check_shape("ga_empty", 2, bad, 8, &size) != GA_OK, GA_ERROR_VALUE,
                "ga_empty: negative dimensions are not allowed");
    int64_t huge[3] = {1ll << 40, 1ll << 40, 1ll << 40};
    CHECK_ERROR(ga__check_shape("ga_zeros", 3, huge, 8, &size) != GA_OK, GA_ERROR_VALUE, "too big");
    CHECK_ERROR(ga__check_shape("ga_zeros", GA_MAXDIMS + 1, good, 8, &size) != GA_OK, GA_ERROR_VALUE,
                "ndim 33 is out of range (0 to 32)");
    CHECK_ERROR(ga__check_shape("ga_zeros", 2, NULL, 8, &size) != GA_OK, GA_ERROR_NULL_INPUT, "shape is NULL");
    CHECK_OK(ga__check_shape("ga_zeros", 0, NULL, 8, &size));
    CHECK(size == 1, "a 0-d array has one element");
}

TEST(dimension_collapsing)
{
    /* a C-contiguous (2,3,4) float32 copy collapses to one dim */
    int64_t shape[3] = {2, 3, 4}, st[2][GA_MAXDIMS] = {{48, 16, 4}, {48, 16, 4}};
    CHECK(ga__collapse(3, shape, 2, st) == 1 && shape[0] == 24 && st[0][0] == 4, "contiguous collapses to 1-d");
    /* a transposed input keeps two dims */
    int64_t s2[2] = {3, 4}, t2[2][GA_MAXDIMS] = {{16, 4}, {4, 12}};
    CHECK(ga__collapse(2, s2, 2, t2) == 2, "transpose stays 2-d");
    /* unit dims vanish; a row broadcast (stride 0) merges with nothing */
    int64_t s3[4] = {1, 5, 1, 7}, t3[2][GA_MAXDIMS] = {{0, 28, 0, 4}, {0, 0, 0, 4}};
    CHECK(ga__collapse(4, s3, 2, t3) == 2 && s3[0] == 5 && s3[1] == 7 && t3[1][0] == 0, "broadcast row");
    int64_t s4[2] = {1, 1}, t4[1][GA_MAXDIMS] = {{8, 8}};
    CHECK(ga__collapse(2, s4, 1, t4) == 0, "all unit dims: 0-d");
    /* negative strides merge when consistent */
    int64_t s5[2] = {3, 4}, t5[1][GA_MAXDIMS] = {{-16, -4}};
    CHECK(ga__collapse(2, s5, 1, t5) == 1 && s5[0] == 12 && t5[0][0] == -4, "reversed contiguous");
    int64_t r[2] = {3, 4}, small[2] = {16, 4}, big[2] = {1ll << 30, 4}, back[2] = {-(1ll << 30), 4};
    CHECK(ga__fits_int32(2, r, small), "small strides fit int32");
    CHECK(!ga__fits_int32(2, r, big) && !ga__fits_int32(2, r, back), "2^31 bytes of reach do not");
}

/* ---- errors ----------------------------------------------------------------- */

static int callback_calls;
static ga_status callback_status;
static void count_errors(ga_status st, const char *message, void *user)
{
    (void)message;
    callback_calls += *(int *)user;
    callback_status = st;
}

TEST(errors_keep_the_first_failure_and_call_back)
{
    ga_clear_error();
    CHECK(ga_last_error() == GA_OK && strcmp(ga_last_error_message(), "no error") == 0, "clean start");
    int one = 1;
    ga_set_error_callback(count_errors, &one);
    ga__error(GA_ERROR_AXIS, "ga_sum", "axis %d is out of bounds for array of dimension %d", 2, 1);
    CHECK(callback_calls == 1 && callback_status == GA_ERROR_AXIS, "the callback sees each error");
    CHECK(strcmp(ga_last_error_message(), "ga_sum: axis 2 is out of bounds for array of dimension 1") == 0,
          "message: %s", ga_last_error_message());
    /* a NULL input after a failure keeps the failure */
    CHECK(ga_astype(NULL, GA_FLOAT32) == NULL, "NULL in, NULL out");
    CHECK(ga_last_error() == GA_ERROR_AXIS && strstr(ga_last_error_message(), "ga_sum"), "first error kept");
    ga_clear_error();
    CHECK(ga_copy(NULL) == NULL, "NULL in, NULL out");
    CHECK_ERROR(1, GA_ERROR_NULL_INPUT, "ga_copy: a is NULL");
    ga_set_error_callback(NULL, NULL);
    for (int s = 0; s < GA_NUM_STATUS; s++)
        CHECK(strlen(ga_status_string((ga_status)s)) > 0, "status %d has a string", s);
    CHECK(strcmp(ga_status_string((ga_status)-3), "unknown status") == 0, "unknown status");
}

TEST(scope_and_stack_misuse_is_reported)
{
    ga_scope_end();
    CHECK_ERROR(1, GA_ERROR_STATE, "ga_scope_end: no open scope");
    CHECK_ERROR(ga_device_pop() != GA_OK, GA_ERROR_STATE, "no ga_device_push to undo");
    CHECK_ERROR(ga_stream_pop() != GA_OK, GA_ERROR_STATE, "no ga_stream_push to undo");
    CHECK(ga_keep(NULL) == NULL, "keeping NULL is harmless");
}

TEST(missing_driver_is_a_clear_error)
{
    ga_shutdown();
    setenv("GPUARR_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    CHECK_ERROR(ga_init() != GA_OK, GA_ERROR_NO_DRIVER, "ga_init: the CUDA driver could not be loaded");
    CHECK_ERROR(ga_zeros(0, NULL, GA_FLOAT32) == NULL, GA_ERROR_NO_DRIVER, "ga_zeros: the CUDA driver could not be loaded");
    CHECK_ERROR(ga_device_count() == -1, GA_ERROR_NO_DRIVER, "could not be loaded");
    CHECK_ERROR(ga_memory_alloc(16) == NULL, GA_ERROR_NO_DRIVER, "ga_memory_alloc:");
    CHECK(ga_driver_version() == 0, "no driver version");
    FILE *stub = fopen("/usr/local/cuda/lib64/stubs/libcuda.so", "rb");
    if (stub) { /* the toolkit's stub answers but is no driver */
        fclose(stub);
        ga_shutdown();
        setenv("GPUARR_DRIVER_LIBRARY", "/usr/local/cuda/lib64/stubs/libcuda.so", 1);
        CHECK_ERROR(ga_init() != GA_OK, GA_ERROR_NO_DRIVER, "stub");
    }
    ga_shutdown();
    unsetenv("GPUARR_DRIVER_LIBRARY");
    ga_init(); /* back to what this machine has, for the tests after this one */
    ga_clear_error();
}

TEST(memory_limit_parsing)
{
    size_t gib = (size_t)1 << 30;
    CHECK(ga__parse_memory_limit("1073741824", 0) == gib, "bytes");
    CHECK(ga__parse_memory_limit("1G", 0) == gib && ga__parse_memory_limit("1024m", 0) == gib, "suffixes");
    CHECK(ga__parse_memory_limit("50%", 8 * gib) == 4 * gib, "percent of the device");
    CHECK(ga__parse_memory_limit("", gib) == 0 && ga__parse_memory_limit(NULL, gib) == 0, "unset");
    CHECK(ga__parse_memory_limit("lots", gib) == 0 && ga__parse_memory_limit("5X", gib) == 0, "malformed");
}

/* ---- the pool, through a fake allocator and fake streams ------------------ */

/* Streams are numbered 1..; each has a count of submitted and completed
   work. An event records the submitted count; it is done once completed
   reaches it. The allocator hands out addresses from a budget. */
typedef struct fake_event {
    int stream;
    int at;
} fake_event;

typedef struct fake_gpu {
    int submitted[8], completed[8];
    size_t budget, in_use;
    uint64_t next_address;
    int allocs, frees, records, waits;
    bool records_fail, waits_fail; /* the driver refuses cuEventRecord / cuEventSynchronize */
    fake_event events[16];
    int nevents;
} fake_gpu;

static int fake_alloc(void *ctx, size_t bytes, uint64_t *ptr)
{
    fake_gpu *g = (fake_gpu *)ctx;
    if (g->in_use + bytes > g->budget) return 1;
    g->in_use += bytes;
    *ptr = g->next_address;
    g->next_address += bytes + (1 << 20); /* chunks never touch */
    g->allocs++;
    return 0;
}
static void fake_free(void *ctx, uint64_t ptr, size_t bytes)
{
    fake_gpu *g = (fake_gpu *)ctx;
    (void)ptr;
    g->in_use -= bytes;
    g->frees++;
}
static int fake_record(void *ctx, void **event, uintptr_t stream, int device)
{
    fake_gpu *g = (fake_gpu *)ctx;
    (void)device;
    if (g->records_fail) return 1;
    if (!*event) *event = &g->events[g->nevents++];
    fake_event *e = (fake_event *)*event;
    e->stream = (int)stream;
    e->at = g->submitted[stream];
    g->records++;
    return 0;
}
static int fake_done(void *ctx, void *event)
{
    fake_gpu *g = (fake_gpu *)ctx;
    fake_event *e = (fake_event *)event;
    return g->completed[e->stream] >= e->at;
}
static int fake_wait(void *ctx, void *event)
{
    fake_gpu *g = (fake_gpu *)ctx;
    fake_event *e = (fake_event *)event;
    if (g->waits_fail) return 1;
    if (g->completed[e->stream] < e->at) g->completed[e->stream] = e->at;
    g->waits++;
    return 0;
}
static void fake_destroy(void *ctx, void *event) { (void)ctx; (void)event; }

static const ga__pool_ops fake_ops = {fake_alloc, fake_free, fake_record, fake_done, fake_wait, fake_destroy};

static void fake_pool(ga__pool *p, fake_gpu *g, size_t budget)
{
    memset(g, 0, sizeof *g);
    g->budget = budget;
    g->next_address = 1ull << 32;
    ga__pool_init(p, &fake_ops, g, 0);
}

#define MiB ((size_t)1 << 20)

TEST(pool_rounds_splits_and_merges)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 64 * MiB);
    ga__block *a = ga__pool_alloc(&p, 1000, 1, 0, false);
    ga__block *b = ga__pool_alloc(&p, 1, 1, 0, false);
    CHECK(a && b && a->size == 1024 && b->size == 512, "512-byte rounding (%zu, %zu)", a ? a->size : 0, b ? b->size : 0);
    CHECK(b->ptr == a->ptr + 1024, "the second block is split from the same chunk");
    ga__block *zero = ga__pool_alloc(&p, 0, 1, 0, false);
    CHECK(zero && zero->size == 512, "a 0-byte request still gets a block");
    ga_memory_stats st = ga__pool_stats(&p);
    CHECK(g.allocs == 1 && st.chunks == 1 && st.held_bytes == 2 * MiB, "one 2 MiB chunk for small blocks");
    CHECK(st.used_bytes == 2048 && st.free_blocks == 1, "used %zu, free blocks %zu", st.used_bytes, st.free_blocks);
    ga__pool_free(&p, b);
    ga__pool_free(&p, a);
    ga__pool_free(&p, zero);
    st = ga__pool_stats(&p);
    CHECK(st.used_bytes == 0 && st.free_blocks == 1 && st.free_bytes == 2 * MiB, "freed blocks merge back into one");
    CHECK(st.peak_used_bytes == 2048, "peak %zu", st.peak_used_bytes);
    ga__pool_free_all_blocks(&p);
    st = ga__pool_stats(&p);
    CHECK(st.held_bytes == 0 && st.chunks == 0 && g.frees == 1 && g.in_use == 0, "free_all gives the chunk back");
    ga__pool_destroy(&p);
}

TEST(pool_best_fit)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 64 * MiB);
    /* holes of 4, 16 and 8 KiB separated by live blocks */
    size_t sizes[6] = {4096, 512, 16384, 512, 8192, 512};
    ga__block *blocks[6];
    for (int i = 0; i < 6; i++) blocks[i] = ga__pool_alloc(&p, sizes[i], 1, 0, false);
    ga__block *rest = ga__pool_alloc(&p, 512, 1, 0, false); /* keeps the chunk's tail separate */
    ga__pool_free(&p, blocks[0]);
    ga__pool_free(&p, blocks[2]);
    ga__pool_free(&p, blocks[4]);
    uint64_t hole8 = blocks[4]->ptr, hole16 = blocks[2]->ptr, hole4 = blocks[0]->ptr;
    ga__block *x = ga__pool_alloc(&p, 6000, 1, 0, false);
    CHECK(x && x->ptr == hole8, "6000 bytes go into the 8 KiB hole");
    ga__block *y = ga__pool_alloc(&p, 4096, 1, 0, false);
    CHECK(y && y->ptr == hole4, "4096 bytes fit the 4 KiB hole exactly");
    ga__block *z = ga__pool_alloc(&p, 10000, 1, 0, false);
    CHECK(z && z->ptr == hole16, "10000 bytes take the 16 KiB hole");
    CHECK(g.allocs == 1, "no new chunk was needed");
    ga__pool_free(&p, x);
    ga__pool_free(&p, y);
    ga__pool_free(&p, z);
    ga__pool_free(&p, rest);
    for (int i = 1; i < 6; i += 2) ga__pool_free(&p, blocks[i]);
    CHECK(ga__pool_stats(&p).free_blocks == 1, "everything merged");
    ga__pool_destroy(&p);
}

/* A capture of stream 1 (>>graph), as ga_graph_capture_begin makes it on
   the capturing thread: the pool's reservation, and the thread's record. */
static int fake_capture_begin(ga__pool *p, uintptr_t stream)
{
    int slot = ga__pool_capture_begin(p, stream, 0);
    memset(&ga__t.capture, 0, sizeof ga__t.capture);
    ga__t.capture.active = slot > 0;
    ga__t.capture.pool = p;
    ga__t.capture.slot = slot;
    return slot;
}
static void fake_capture_end(ga__pool *p, int slot)
{
    memset(&ga__t.capture, 0, sizeof ga__t.capture);
    ga__pool_capture_end(p, slot);
}

TEST(pool_capture_keeps_what_the_graph_uses)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 64 * MiB);
    g.submitted[1] = 3; /* stream 1 has work in flight before the capture */
    ga__block *input = ga__pool_alloc(&p, 4096, 1, 0, false);
    ga__block *old = ga__pool_alloc(&p, 8192, 1, 0, false);
    ga__block *pad = ga__pool_alloc(&p, 512, 1, 0, false); /* keeps old's hole apart from the tail */
    uint64_t old_ptr = old->ptr;
    ga__pool_free(&p, old);
    ga_memory_stats before = ga__pool_stats(&p);
    int c = fake_capture_begin(&p, 1);
    CHECK(c > 0 && p.ncaptures == 1, "a reservation (slot %d)", c);
    ga__block *t = ga__pool_alloc(&p, 8192, 1, 0, false);
    CHECK(t && t->ptr != old_ptr, "the capture does not take a block of its stream's slot (work before it may use it)");
    uint64_t t_ptr = t->ptr;
    ga__pool_free(&p, t);
    ga_memory_stats mid = ga__pool_stats(&p);
    CHECK(mid.used_bytes == before.used_bytes + 8192 && mid.graph_bytes == 8192,
          "a temporary freed during the capture stays reserved (used %zu, graph %zu)", mid.used_bytes, mid.graph_bytes);
    ga__block *t2 = ga__pool_alloc(&p, 8192, 1, 0, false);
    CHECK(t2 && t2->ptr == t_ptr, "the capture reuses its own freed temporary");
    ga__block *out = ga__pool_alloc(&p, 512, 1, 0, false);
    ga__pool_free(&p, input); /* an input released during the capture */
    ga__block *other = ga__pool_alloc(&p, 8192, 2, 0, false); /* another stream, meanwhile */
    CHECK(other && other->ptr != t_ptr && other->ptr != input->ptr, "another stream gets none of the graph's blocks");
    CHECK(g.records == 0, "no event was recorded during the capture (%d)", g.records);
    fake_capture_end(&p, c);
    CHECK(p.ncaptures == 0, "the capture ended");
    ga__pool_free(&p, t2);  /* released after the capture: the graph still writes it */
    ga__pool_free(&p, out);
    ga__block *again = ga__pool_alloc(&p, 8192, 1, 0, false);
    CHECK(again && again->ptr != t_ptr, "a block the graph uses is not reused before the graph is released");
    ga__pool_free(&p, again);
    ga_memory_stats held = ga__pool_stats(&p);
    CHECK(held.graph_bytes == 8192 + 4096 + 512, "the graph holds its temporaries, input and output (%zu)", held.graph_bytes);
    ga__pool_free(&p, other);
    ga__pool_capture_release(&p, c, 3, 0, true); /* last launched on stream 3 */
    ga_memory_stats after = ga__pool_stats(&p);
    CHECK(after.used_bytes == 512 && after.graph_bytes == 0, "only pad is in use after the release (used %zu)", after.used_bytes);
    ga__block *s3 = ga__pool_alloc(&p, 8192, 3, 0, false);
    CHECK(s3 && s3->ptr == t_ptr, "the graph's blocks are free at once on the stream of its last launch");
    ga__pool_free(&p, s3);
    int c2 = fake_capture_begin(&p, 1);
    CHECK(c2 == c, "the next capture reuses the reservation's slot (%d, %d)", c2, c);
    ga__block *x = ga__pool_alloc(&p, 512, 1, 0, false);
    fake_capture_end(&p, c2);
    ga__pool_capture_release(&p, c2, 0, 0, false); /* never launched */
    ga__pool_free(&p, x); /* allocated by a released graph: an ordinary free now */
    ga__pool_free(&p, pad);
    CHECK(ga__pool_stats(&p).used_bytes == 0, "all free");
    ga__pool_destroy(&p);
}

TEST(pool_capture_never_records_on_the_captured_stream)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 64 * MiB);
    g.submitted[1] = 1;
    g.submitted[2] = 1;
    ga__block *a = ga__pool_alloc(&p, 3 * MiB, 1, 0, false);
    ga__block *b = ga__pool_alloc(&p, 3 * MiB, 2, 0, false);
    ga__pool_free(&p, a);
    ga__pool_free(&p, b);
    int c = fake_capture_begin(&p, 1);
    memset(&ga__t.capture, 0, sizeof ga__t.capture); /* another thread allocates on stream 3 */
    ga__block *d = ga__pool_alloc(&p, 3 * MiB, 3, 0, false); /* reclaims: an event on stream 2, none on 1 */
    bool on1 = false;
    for (int i = 0; i < g.nevents; i++) on1 |= g.events[i].stream == 1;
    CHECK(g.records == 1 && !on1, "events recorded: %d, one on the captured stream: %d", g.records, on1);
    ga__pool_free_all_blocks(&p); /* waits for stream 2, never for stream 1 */
    on1 = false;
    for (int i = 0; i < g.nevents; i++) on1 |= g.events[i].stream == 1;
    CHECK(!on1, "free_all_blocks recorded nothing on the captured stream");
    ga__pool_capture_release(&p, c, 0, 0, false);
    ga__pool_free(&p, d);
    ga__pool_destroy(&p);
}

TEST(pool_reuses_across_streams_only_after_an_event)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 610 * MiB);
    g.submitted[1] = 5; /* stream 1 has work in flight */
    ga__block *a = ga__pool_alloc(&p, 10 * MiB, 1, 0, false);
    uint64_t addr = a->ptr;
    ga__pool_free(&p, a);
    ga__block *same = ga__pool_alloc(&p, 10 * MiB, 1, 0, false);
    CHECK(same && same->ptr == addr, "the freeing stream reuses its block at once");
    ga__pool_free(&p, same);
    ga__block *b = ga__pool_alloc(&p, 10 * MiB, 2, 0, false);
    CHECK(b && b->ptr != addr, "another stream does not get it while stream 1's work is pending");
    CHECK(g.records == 1, "an event was recorded on stream 1");
    g.completed[1] = 5; /* stream 1 catches up */
    ga__block *c = ga__pool_alloc(&p, 10 * MiB, 2, 0, false);
    CHECK(c && c->ptr == addr, "after the event completes, stream 2 reuses the block");
    /* frees after the event are not covered by it */
    g.submitted[3] = 1;
    ga__block *d = ga__pool_alloc(&p, 12 * MiB, 3, 0, false);
    ga__pool_free(&p, d);
    ga__block *e = ga__pool_alloc(&p, 12 * MiB, 2, 0, false); /* records on stream 3 */
    g.submitted[3] = 2;
    ga__block *d2 = ga__pool_alloc(&p, 12 * MiB, 3, 0, false);
    ga__pool_free(&p, d2);  /* freed after the record, with more work queued */
    g.completed[3] = 1;     /* the event completes, the later work does not */
    ga__block *f = ga__pool_alloc(&p, 12 * MiB, 2, 0, false);
    CHECK(f && f->ptr != d2->ptr, "a block freed after the event waits for a later one");
    ga__pool_free(&p, b);
    ga__pool_free(&p, c);
    CHECK(g.allocs == 5, "chunks: %d", g.allocs);
    ga__pool_free(&p, e);
    ga__pool_free(&p, f);
    ga__pool_destroy(&p);
}

TEST(pool_out_of_memory_waits_frees_and_retries)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 24 * MiB);
    g.submitted[1] = 1;
    ga__block *a = ga__pool_alloc(&p, 20 * MiB, 1, 0, false);
    CHECK(a != NULL, "20 MiB fits");
    ga__pool_free(&p, a); /* cached on stream 1, pending */
    ga__block *b = ga__pool_alloc(&p, 22 * MiB, 2, 0, false);
    CHECK(b != NULL, "22 MiB fits after the cached chunk is given back");
    CHECK(g.waits >= 1 && g.frees == 1, "the pool waited for stream 1 and freed its chunk");
    ga__block *c = ga__pool_alloc(&p, 8 * MiB, 2, 0, false);
    CHECK(c == NULL, "beyond the device: NULL");
    ga__pool_free(&p, b);
    ga__pool_destroy(&p);
}

/* When the driver refuses the event (or the wait) that would show a
   stream's frees are safe, the blocks stay with that stream: no other
   stream gets them, the stream itself still does, and they move once the
   driver works again. */
TEST(pool_keeps_blocks_whose_event_fails)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 24 * MiB);
    g.submitted[1] = 1;
    ga__block *a = ga__pool_alloc(&p, 20 * MiB, 1, 0, false);
    uint64_t addr = a ? a->ptr : 0;
    ga__pool_free(&p, a); /* cached on stream 1, its work pending */
    for (int wait = 0; wait < 2; wait++) {
        g.records_fail = !wait, g.waits_fail = wait;
        ga__block *b = ga__pool_alloc(&p, 22 * MiB, 2, 0, false);
        CHECK(b == NULL, "stream 2 got stream 1's pending chunk though its %s failed", wait ? "wait" : "event");
        CHECK(g.frees == 0, "a chunk in use by stream 1 was given back");
        ga__block *c = ga__pool_alloc(&p, 20 * MiB, 1, 0, false);
        CHECK(c && c->ptr == addr, "stream 1 reuses its own block");
        ga__pool_free(&p, c);
    }
    g.records_fail = g.waits_fail = false;
    ga__block *b = ga__pool_alloc(&p, 22 * MiB, 2, 0, false);
    CHECK(b != NULL && g.frees == 1, "with events working again the chunk is waited for and given back");
    ga__pool_free(&p, b);
    ga__pool_destroy(&p);
}

TEST(pool_limit_caps_what_it_holds)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 1024 * MiB);
    p.stats.limit_bytes = 3 * MiB;
    ga__block *a = ga__pool_alloc(&p, MiB, 1, 0, false);
    CHECK(a && ga__pool_stats(&p).held_bytes == 2 * MiB, "a 2 MiB chunk for a small block");
    ga__block *b = ga__pool_alloc(&p, 1536 * 1024, 1, 0, false);
    CHECK(b == NULL, "3.5 MiB would pass the 3 MiB limit");
    ga__block *c = ga__pool_alloc(&p, 512 * 1024, 1, 0, false);
    CHECK(c != NULL, "the chunk's rest is still usable");
    ga__pool_free(&p, a);
    ga__pool_free(&p, c);
    ga__pool_destroy(&p);
}

TEST(pool_retired_streams_release_their_blocks)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 64 * MiB);
    g.submitted[4] = 3;
    ga__block *a = ga__pool_alloc(&p, MiB, 4, 0, false);
    ga__block *live = ga__pool_alloc(&p, MiB, 4, 0, false);
    uint64_t addr = a->ptr;
    ga__pool_free(&p, a);
    g.completed[4] = 3; /* the destroyer synchronised the stream */
    ga__pool_retire_stream(&p, 4);
    ga__block *b = ga__pool_alloc(&p, MiB, 5, 0, false);
    CHECK(b && b->ptr == addr, "a destroyed stream's free blocks serve any stream");
    ga__pool_free(&p, live); /* freed after its stream is gone: goes to every stream */
    /* a new stream with the destroyed one's handle is a live stream again */
    ga__block *n4 = ga__pool_alloc(&p, 3 * MiB, 4, 0, false);
    ga__pool_retire_stream(&p, 4);
    ga__block *again = ga__pool_alloc(&p, 3 * MiB, 4, 0, false);
    uint64_t addr4 = again->ptr;
    g.submitted[4] = 9;
    ga__pool_free(&p, again);
    ga__block *other = ga__pool_alloc(&p, 3 * MiB, 7, 0, false);
    CHECK(other && other->ptr != addr4, "the reused handle's frees wait for its work again");
    ga__pool_free(&p, other);
    ga__pool_free(&p, n4);
    ga__block *c = ga__pool_alloc(&p, MiB, 6, 0, false);
    CHECK(c && c->ptr == live->ptr, "and so do its blocks freed later");
    ga__pool_free(&p, b);
    ga__pool_free(&p, c);
    ga__pool_destroy(&p);
}

TEST(pool_address_table)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 1024 * MiB);
    enum { N = 300 };
    uint64_t ptrs[N];
    for (int i = 0; i < N; i++) {
        ga__block *b = ga__pool_alloc(&p, (size_t)(i % 7 + 1) * 700, 1, 0, true);
        ptrs[i] = b ? b->ptr : 0;
    }
    CHECK(!ga__pool_free_ptr(&p, 12345, GA__POOL_HOST_STREAM, 0), "unknown addresses are refused");
    for (int i = 0; i < N; i += 2) CHECK(ga__pool_free_ptr(&p, ptrs[i], GA__POOL_HOST_STREAM, 0), "free %d", i);
    for (int i = 0; i < N; i += 2) CHECK(!ga__pool_free_ptr(&p, ptrs[i], GA__POOL_HOST_STREAM, 0), "double free %d", i);
    for (int i = 1; i < N; i += 2) CHECK(ga__pool_free_ptr(&p, ptrs[i], GA__POOL_HOST_STREAM, 0), "free %d", i);
    ga_memory_stats st = ga__pool_stats(&p);
    CHECK(st.used_bytes == 0 && p.table_count == 0, "all returned");
    ga__pool_destroy(&p);
}

/* Random allocations and frees on three streams against a model: live
   blocks never overlap, the statistics add up, everything merges back. */
TEST(pool_random_operations_keep_invariants)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 512 * MiB);
    enum { N = 400 };
    ga__block *live[N] = {0};
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)time(NULL);
    for (int step = 0; step < 20000; step++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        int i = (int)(rng % N);
        int stream = 1 + (int)((rng >> 20) % 3);
        g.submitted[stream]++;
        if ((rng >> 30) % 5 == 0) g.completed[stream] = g.submitted[stream];
        if (live[i]) {
            ga__pool_free(&p, live[i]);
            live[i] = NULL;
        } else {
            size_t bytes = (rng >> 40) % 64 == 0 ? (size_t)((rng >> 8) % (30 * MiB)) : (size_t)((rng >> 8) % 100000);
            live[i] = ga__pool_alloc(&p, bytes, (uintptr_t)stream, 0, false);
            CHECK(live[i] != NULL, "allocation %zu at step %d", bytes, step);
            if (live[i]) CHECK(live[i]->size >= bytes && live[i]->size % 512 == 0, "size");
        }
    }
    size_t used = 0;
    for (int i = 0; i < N; i++) {
        if (!live[i]) continue;
        used += live[i]->size;
        for (int j = i + 1; j < N; j++)
            if (live[j])
                CHECK(live[i]->ptr + live[i]->size <= live[j]->ptr || live[j]->ptr + live[j]->size <= live[i]->ptr,
                      "blocks %d and %d overlap", i, j);
    }
    ga_memory_stats st = ga__pool_stats(&p);
    CHECK(st.used_bytes == used, "used %zu, model %zu", st.used_bytes, used);
    CHECK(st.held_bytes == g.in_use, "held %zu, allocator %zu", st.held_bytes, g.in_use);
    for (int i = 0; i < N; i++)
        if (live[i]) ga__pool_free(&p, live[i]);
    for (int s = 1; s < 4; s++) g.completed[s] = g.submitted[s];
    ga__pool_free_all_blocks(&p);
    st = ga__pool_stats(&p);
    CHECK(st.held_bytes == 0 && st.free_blocks == 0 && g.in_use == 0, "all chunks returned (held %zu)", st.held_bytes);
    ga__pool_destroy(&p);
}

/* Four threads allocate and free on one pool, each on its own stream: the
   lock keeps the blocks apart and the books balanced. */
typedef struct pool_worker {
    ga__pool *pool;
    unsigned char *owned; /* one flag per 512-byte unit of the fake address space */
    int stream;
    int failures;
} pool_worker;

/* Marks (or clears) every unit of `b`; a unit already marked means two live
   blocks overlap. */
static int mark_block(unsigned char *owned, const ga__block *b, unsigned char to)
{
    int clashes = 0;
    for (uint64_t u = (b->ptr - (1ull << 32)) / 512, end = u + b->size / 512; u < end; u++)
        clashes += __atomic_exchange_n(&owned[u], to, __ATOMIC_RELAXED) == to;
    return clashes;
}

static void *pool_worker_run(void *arg)
{
    pool_worker *w = (pool_worker *)arg;
    ga__block *mine[64] = {0};
    uint64_t rng = 0x2545F4914F6CDD1Dull * (uint64_t)w->stream;
    for (int step = 0; step < 20000; step++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        int i = (int)(rng % 64);
        if (mine[i]) {
            w->failures += mark_block(w->owned, mine[i], 0);
            ga__pool_free(w->pool, mine[i]);
            mine[i] = NULL;
        } else {
            mine[i] = ga__pool_alloc(w->pool, (size_t)(rng >> 20) % 200000 + 1, (uintptr_t)w->stream, 0, false);
            if (mine[i]) w->failures += mark_block(w->owned, mine[i], 1);
            else w->failures++;
        }
    }
    for (int i = 0; i < 64; i++)
        if (mine[i]) {
            w->failures += mark_block(w->owned, mine[i], 0);
            ga__pool_free(w->pool, mine[i]);
        }
    return NULL;
}

TEST(pool_is_thread_safe)
{
    fake_gpu g;
    ga__pool p;
    fake_pool(&p, &g, 4096 * MiB);
    for (int s = 0; s < 8; s++) g.completed[s] = 1 << 30; /* every event is done */
    pthread_t threads[4];
    pool_worker workers[4];
    unsigned char *owned = (unsigned char *)calloc((size_t)3 << 24, 1); /* 24 GiB of fake addresses */
    for (int i = 0; i < 4; i++) {
        workers[i].pool = &p;
        workers[i].owned = owned;
        workers[i].stream = i + 1;
        workers[i].failures = 0;
        pthread_create(&threads[i], NULL, pool_worker_run, &workers[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(workers[i].failures == 0, "worker %d: %d failures", i, workers[i].failures);
    }
    ga_memory_stats st = ga__pool_stats(&p);
    CHECK(st.used_bytes == 0 && st.held_bytes == g.in_use, "books balance: used %zu, held %zu", st.used_bytes,
          st.held_bytes);
    ga__pool_free_all_blocks(&p);
    CHECK(ga__pool_stats(&p).held_bytes == 0 && g.in_use == 0, "all chunks returned");
    CHECK(g.next_address - (1ull << 32) < (uint64_t)3 << 33, "the fake address space sufficed");
    ga__pool_destroy(&p);
    free(owned);
}

/* ---- issue 15: memory safety of the host paths ----------------------------- */

/* GPUARR_MEMORY_LIMIT: a double beyond size_t was converted (undefined);
   trailing text after the suffix was ignored. */
TEST(issue15_memory_limit_huge_and_malformed)
{
    size_t gib = (size_t)1 << 30;
    CHECK(ga__parse_memory_limit("99999999999999999999G", gib) == SIZE_MAX, "a huge limit is SIZE_MAX");
    CHECK(ga__parse_memory_limit("1e30%", SIZE_MAX) == SIZE_MAX, "a huge percentage is SIZE_MAX");
    CHECK(ga__parse_memory_limit("inf", gib) == SIZE_MAX && ga__parse_memory_limit("1e400", gib) == SIZE_MAX,
          "infinite limits");
    CHECK(ga__parse_memory_limit("18446744073709551616", gib) == SIZE_MAX, "2^64 bytes");
    CHECK(ga__parse_memory_limit("nan", gib) == 0 && ga__parse_memory_limit("-nanG", gib) == 0, "NaN is malformed");
    CHECK(ga__parse_memory_limit("-1G", gib) == 0, "negative is malformed");
    CHECK(ga__parse_memory_limit("4GiB", 0) == 4 * gib && ga__parse_memory_limit("4GB", 0) == 4 * gib &&
              ga__parse_memory_limit("4G ", 0) == 4 * gib,
          "GiB, GB and trailing spaces");
    CHECK(ga__parse_memory_limit("5Gx", gib) == 0 && ga__parse_memory_limit("5%%", gib) == 0 &&
              ga__parse_memory_limit("5 G", gib) == 0 && ga__parse_memory_limit("5GiBs", gib) == 0,
          "text after the number or suffix is malformed");
    CHECK(ga__parse_memory_limit("100%", 8 * gib) == 8 * gib, "the whole device");
}

static size_t grant_asked;
static int grant_any(void *ctx, size_t bytes, uint64_t *ptr)
{
    (void)ctx;
    grant_asked = bytes;
    *ptr = 1ull << 44;
    return 0;
}
static void grant_free(void *ctx, uint64_t ptr, size_t bytes) { (void)ctx, (void)ptr, (void)bytes; }

/* A request near SIZE_MAX: its chunk size wrapped to a few bytes (the
   block then claimed more than its chunk), and a chunk of 0 bytes reached
   the bins' __builtin_clzll(0). */
TEST(issue15_pool_sizes_near_size_max)
{
    const size_t mib = (size_t)1 << 20;
    CHECK(ga__pool_chunk_size(SIZE_MAX - mib + 1) >= SIZE_MAX - mib + 1, "a chunk holds its block");
    CHECK(ga__pool_chunk_size(SIZE_MAX - 3 * mib) >= SIZE_MAX - 3 * mib, "a chunk holds its block");
    CHECK(ga__pool_bin(0) == 0 && ga__pool_bin(SIZE_MAX) < GA__POOL_BINS, "bins of the extremes");
    static const ga__pool_ops ops = {grant_any, grant_free, fake_record, fake_done, fake_wait, fake_destroy};
    fake_gpu g;
    memset(&g, 0, sizeof g);
    ga__pool p;
    ga__pool_init(&p, &ops, &g, 0);
    ga__block *b = ga__pool_alloc(&p, SIZE_MAX - mib + 1, 1, 0, false);
    CHECK(b && b->size >= SIZE_MAX - mib + 1 && grant_asked >= b->size, "the block and its chunk hold the request");
    if (b) ga__pool_free(&p, b);
    CHECK(ga__pool_alloc(&p, SIZE_MAX, 1, 0, false) == NULL, "SIZE_MAX bytes cannot be rounded to 512");
    p.stats.limit_bytes = 4 * mib;
    ga__pool_free_all_blocks(&p);
    b = ga__pool_alloc(&p, SIZE_MAX - 3 * mib, 1, 0, false);
    CHECK(!b, "the limit holds for huge requests (held + want wrapped)");
    b = ga__pool_alloc(&p, mib, 1, 0, false);
    CHECK(b && p.stats.held_bytes <= 4 * mib, "within the limit");
    if (b) ga__pool_free(&p, b);
    CHECK(ga__pool_stats(&p).used_bytes == 0, "books balance");
    ga__pool_destroy(&p);
}

/* NumPy's size rule: itemsize times the product of the nonzero dims fits
   int64, a zero dim excusing none of the others. */
TEST(issue15_shape_size_rule)
{
    int64_t size = -1, strides[3];
    const char *too_big = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
    CHECK_OK(ga__check_shape("ga_empty", 1, (const int64_t[]){1ll << 62}, 1, &size));
    CHECK(size == 1ll << 62, "2^62 bytes");
    CHECK_ERROR(ga__check_shape("ga_empty", 1, (const int64_t[]){1ll << 62}, 2, &size) != GA_OK, GA_ERROR_VALUE,
                too_big);
    CHECK_ERROR(ga__check_shape("ga_empty", 2, (const int64_t[]){0, 1ll << 62}, 8, &size) != GA_OK, GA_ERROR_VALUE,
                too_big);
    CHECK_OK(ga__check_shape("ga_empty", 3, (const int64_t[]){1ll << 30, 0, 1ll << 29}, 8, &size));
    CHECK(size == 0, "empty");
    CHECK(ga__c_strides(3, (const int64_t[]){1ll << 30, 0, 1ll << 29}, 8, strides) && strides[0] == 1ll << 32,
          "C strides of an empty shape");
    CHECK(!ga__c_strides(2, (const int64_t[]){4, 1ll << 62}, 8, strides), "C strides beyond int64 are refused");
    CHECK(ga__c_strides(2, (const int64_t[]){1ll << 62, 4}, 8, strides) && strides[0] == 32,
          "the product past the first dim is never a stride");
    /* contiguity of shapes whose expected strides leave int64 */
    CHECK(ga__contiguity(2, (const int64_t[]){1ll << 62, 4}, (const int64_t[]){32, 8}, 8) == GA_C_CONTIGUOUS,
          "C-contiguous, F's expectation beyond int64");
    CHECK(ga__contiguity(1, (const int64_t[]){1}, (const int64_t[]){INT64_MIN}, 8) ==
              (GA_C_CONTIGUOUS | GA_F_CONTIGUOUS),
          "a unit axis's stride does not count");
    /* stride orders and int32 reach with INT64_MIN strides */
    int perm[2];
    ga__order_by_stride(2, (const int64_t[]){8, INT64_MIN}, perm);
    CHECK(perm[0] == 1 && perm[1] == 0, "|INT64_MIN| is the largest");
    CHECK(!ga__fits_int32(2, (const int64_t[]){3, 3}, (const int64_t[]){INT64_MIN, 8}), "INT64_MIN reach");
    CHECK(ga__fits_int32(2, (const int64_t[]){1, 3}, (const int64_t[]){INT64_MIN, 8}), "a unit axis reaches nothing");
}

TEST(issue15_result_type_null_lists)
{
    ga_scalar s = ga_int(1);
    CHECK(ga_result_type(1, NULL, 0, NULL) == GA_DTYPE_INVALID, "NULL dtypes");
    CHECK(ga_result_type(0, NULL, 1, NULL) == GA_DTYPE_INVALID, "NULL scalars");
    CHECK(ga_result_type(-1, NULL, 1, &s) == GA_DTYPE_INVALID, "a negative count");
    CHECK(ga_result_type(0, NULL, 1, &s) == GA_INT64, "a lone Python int");
}

/* Python's slice.indices with the extreme numbers a text index can write
   (ga__slice_adjust takes every number as written; GA_NONE is ga_slice's). */
TEST(issue15_slice_indices_extremes)
{
    int64_t first, len;
    ga__slice_adjust(INT64_MAX, INT64_MIN, INT64_MIN, 8, &first, &len); /* range(8)[::-2**63] */
    CHECK(first == 7 && len == 1, "slice step INT64_MIN: first %lld length %lld", (long long)first, (long long)len);
    ga__slice_adjust(0, INT64_MIN, INT64_MIN, 8, &first, &len); /* range(8)[0::-2**63] */
    CHECK(first == 0 && len == 1, "from 0 down: first %lld length %lld", (long long)first, (long long)len);
    ga__slice_adjust(INT64_MIN, INT64_MIN, -1, INT64_MAX, &first, &len);
    CHECK(first == -1 && len == 0, "bounds INT64_MIN over INT64_MAX elements");
    ga__slice_indices(GA_NONE, GA_NONE, -1, 8, &first, &len);
    CHECK(first == 7 && len == 8, "GA_NONE omits in ga_slice's items");
}
