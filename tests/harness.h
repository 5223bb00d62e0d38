/* A small test harness: TEST(name) for host tests, DEVICE_TEST(name) for
   tests that need a GPU (skipped, and counted as skipped, without one).
   CHECK(cond, ...) records a failure with a printf-style explanation and
   lets the test go on. Include once, in the test program's only .c file,
   after gpuarr.h; it provides main(). Closing line:
   "N passed, N failed, N skipped".
   Random data: rnd() and rnd_unit() draw from a stream the harness seeds
   before each test from the run's seed (GPUARR_TEST_SEED, else the time)
   and the test's name; a failing test that drew from it prints the seed
   that repeats it. */
#ifndef GPUARR_TEST_HARNESS_H
#define GPUARR_TEST_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct test_case {
    const char *name;
    void (*run)(void);
    int needs_device;
} test_case;

static test_case test_cases[512];
static int test_count;
static int test_failures; /* checks failed in the running test */
static int test_reported;

static uint64_t test_run_seed, test_rng;
static int test_rng_used, test_seed_reported;

/* Starts the random stream of test `name`. */
static void test_seed(const char *name)
{
    if (!test_run_seed) {
        const char *env = getenv("GPUARR_TEST_SEED");
        test_run_seed = env && *env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
        if (!test_run_seed) test_run_seed = 1;
    }
    test_rng = test_run_seed ^ 0x9E3779B97F4A7C15ull;
    for (const char *p = name; *p; p++) test_rng = (test_rng ^ (unsigned char)*p) * 0x100000001B3ull;
    test_rng |= 1;
    test_rng_used = test_seed_reported = 0;
}

/* The next 64 random bits (xorshift64), and a double in [0, 1). */
__attribute__((unused)) static uint64_t rnd(void)
{
    test_rng_used = 1;
    test_rng ^= test_rng << 13;
    test_rng ^= test_rng >> 7;
    test_rng ^= test_rng << 17;
    return test_rng;
}
__attribute__((unused)) static double rnd_unit(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static void test_register(const char *name, void (*run)(void), int needs_device)
{
    if (test_count < (int)(sizeof test_cases / sizeof test_cases[0])) {
        test_cases[test_count].name = name;
        test_cases[test_count].run = run;
        test_cases[test_count].needs_device = needs_device;
        test_count++;
    }
}

#define TEST_DEFINE(name, needs_device)                                     \
    static void test_##name(void);                                          \
    __attribute__((constructor)) static void test_register_##name(void)     \
    {                                                                       \
        test_register(#name, test_##name, needs_device);                    \
    }                                                                       \
    static void test_##name(void)
#define TEST(name) TEST_DEFINE(name, 0)
#define DEVICE_TEST(name) TEST_DEFINE(name, 1)

__attribute__((format(printf, 3, 4))) static void test_fail(const char *file, int line, const char *fmt, ...)
{
    test_failures++;
    if (test_reported++ >= 10) return; /* the first ten failures of a test are enough */
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "    %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    if (test_rng_used && !test_seed_reported) {
        fprintf(stderr, "    (random data: GPUARR_TEST_SEED=%llu repeats it)\n", (unsigned long long)test_run_seed);
        test_seed_reported = 1;
    }
}

/* CHECK(cond, "format", args...): the message says what was expected. */
#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) test_fail(__FILE__, __LINE__, __VA_ARGS__);            \
    } while (0)

/* A gpuarr call that must succeed. */
#define CHECK_OK(call)                                                      \
    do {                                                                    \
        ga_status check_st_ = (call);                                       \
        if (check_st_ != GA_OK)                                             \
            test_fail(__FILE__, __LINE__, "%s failed: %s", #call, ga_last_error_message()); \
    } while (0)

/* A gpuarr call that must fail with `code` and a message containing `text`;
   clears the error afterwards. `failed` is the failure test of the result. */
#define CHECK_ERROR(failed, code, text)                                     \
    do {                                                                    \
        int check_failed_ = (failed);                                       \
        const char *check_msg_ = ga_last_error_message();                   \
        if (!check_failed_)                                                 \
            test_fail(__FILE__, __LINE__, "expected %s to fail", #failed);  \
        else if (ga_last_error() != (code) || !strstr(check_msg_, (text)))  \
            test_fail(__FILE__, __LINE__, "expected %s and \"%s\", got %s: \"%s\"", #code, (text), \
                      ga_status_string(ga_last_error()), check_msg_);       \
        ga_clear_error();                                                   \
    } while (0)

/* ---- device helpers (test programs include the implementation) -------- */

/* Whether a and b have the same dtype, shape and bytes (C order). */
__attribute__((unused)) static bool same_array(const ga_array *a, const ga_array *b)
{
    if (!a || !b || ga_dtype_of(a) != ga_dtype_of(b) || ga_ndim(a) != ga_ndim(b)) return false;
    for (int d = 0; d < ga_ndim(a); d++)
        if (ga_shape(a)[d] != ga_shape(b)[d]) return false;
    size_t n = ga_nbytes(a);
    unsigned char *x = malloc(n ? n : 1), *y = malloc(n ? n : 1);
    bool same = x && y && ga_to_host(a, x, n) == GA_OK && ga_to_host(b, y, n) == GA_OK && memcmp(x, y, n) == 0;
    free(x), free(y);
    return same;
}

/* Makes the pool hand the next allocation of `bytes` memory full of 0xAB, so
   that elements a kernel leaves unwritten show. */
__attribute__((unused)) static void poison_next(size_t bytes)
{
    if (!bytes) return;
    void *p = ga_memory_alloc(bytes);
    if (!p) return;
    GA__CU.MemsetD8Async((CUdeviceptr)(uintptr_t)p, 0xAB, bytes, ga__stream_of(ga_device_get()));
    ga_memory_free(p);
}

/* a's elements in C order into dst (at least one byte); false (a failed
   check) on failure. */
__attribute__((unused)) static bool download(const ga_array *a, void *dst)
{
    if (ga_to_host(a, dst, ga_nbytes(a)) == GA_OK) return true;
    test_fail(__FILE__, __LINE__, "ga_to_host: %s", ga_last_error_message());
    ga_clear_error();
    return false;
}

/* `logical` (C order over shape, ndim <= GA_MAXDIMS) uploaded in the
   reverse axis order and returned as its transpose: the same values,
   F-contiguous in memory. NULL on failure. */
__attribute__((unused)) static ga_array *upload_transposed(const void *logical, int ndim, const int64_t *shape,
                                                           ga_dtype t)
{
    int64_t n = 1, rshape[GA_MAXDIMS], idx[GA_MAXDIMS] = {0};
    for (int d = 0; d < ndim; d++) {
        n *= shape[d];
        rshape[d] = shape[ndim - 1 - d];
    }
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *mem = malloc((size_t)(n ? n : 1) * sz);
    if (!mem) return NULL;
    /* element (i0 .. ik) of the logical array is mem[ik .. i0] */
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = ndim - 1; d >= 0; d--) off = off * shape[d] + idx[d];
        memcpy(mem + (size_t)off * sz, (const unsigned char *)logical + (size_t)i * sz, sz);
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
    ga_array *base = ga_from_host(mem, ndim, rshape, t);
    free(mem);
    ga_array *v = base ? ga_transpose(base, NULL) : NULL;
    ga_release(base);
    return v;
}

/* GPUARR_TEST_SMALL set (tests/sanitize.sh sets it): the tests run fewer
   and smaller cases, for memory and race checkers that slow kernels 10-100
   x. Every kernel variant still runs (tails, several blocks, the block
   sorts): test_size gives `small` instead of `big`; test_sample(i, k) keeps
   one case in k, turning with the test's place in the program, so that the
   tests of one family over several dtypes cover every case between them. */
static int test_index_now;

/* Whether the environment variable `name` is set to something other than
   "" or "0". */
__attribute__((unused)) static bool test_env_flag(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0") != 0;
}
static bool test_small(void)
{
    static int is_small = -1;
    if (is_small < 0) is_small = test_env_flag("GPUARR_TEST_SMALL");
    return is_small;
}
__attribute__((unused)) static int64_t test_size(int64_t big, int64_t small) { return test_small() ? small : big; }
/* A length for GPUARR_TEST_SMALL: beyond 2^16 (several blocks of every
   kernel still) it becomes 2^16 plus its remainder modulo 64 (the tail). */
__attribute__((unused)) static int64_t test_length(int64_t n)
{
    return test_small() && n > 65536 ? 65536 + n % 64 : n;
}
__attribute__((unused)) static bool test_sample(int64_t i, int k)
{
    return !test_small() || k <= 1 || (i + test_index_now) % k == 0;
}

/* Wall-clock seconds, for GPUARR_TEST_TIMES (each test's time on its line). */
static double test_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const bool test_times = test_env_flag("GPUARR_TEST_TIMES");
    const char *filter = argc > 1 ? argv[1] : NULL;
    ga_status init = ga_init();
    int have_device = init == GA_OK;
    if (!have_device) printf("no GPU here (%s): device tests are skipped\n", ga_last_error_message());
    ga_clear_error();
    /* GPUARR_TEST_SHARD=i/n: only the tests whose place in the program is
       i modulo n (the shards of one program run in parallel). */
    int shard = 0, shards = 1;
    const char *shard_env = getenv("GPUARR_TEST_SHARD");
    if (shard_env && sscanf(shard_env, "%d/%d", &shard, &shards) != 2) shard = 0, shards = 1;
    if (shards < 1 || shard < 0 || shard >= shards) shard = 0, shards = 1;
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < test_count; i++) {
        test_case *t = &test_cases[i];
        if (filter && !strstr(t->name, filter)) continue;
        if (i % shards != shard) continue;
        test_index_now = i;
        if (t->needs_device && !have_device) {
            skipped++;
            continue;
        }
        test_failures = 0;
        test_reported = 0;
        ga_clear_error();
        test_seed(t->name);
        double t0 = test_seconds();
        t->run();
        char took[32] = "";
        if (test_times) snprintf(took, sizeof took, " (%.2f s)", test_seconds() - t0);
        if (test_failures) {
            printf("FAIL %s (%d failed checks)%s\n", t->name, test_failures, took);
            failed++;
        } else {
            printf("ok   %s%s\n", t->name, took);
            passed++;
        }
        fflush(stdout);
    }
    if (have_device && !filter) {
        /* Every test released what it made: the pools hand out nothing at
           the end. Then everything goes back to the driver, so that a
           memory checker's leak report names only real leaks. */
        int leaked = 0;
        for (int d = 0; d < ga_device_count(); d++) {
            ga_memory_stats s;
            if (ga_memory_get_stats(d, &s) == GA_OK && s.used_bytes) {
                printf("    device %d: %zu bytes still in use after the last test\n", d, s.used_bytes);
                leaked = 1;
            }
        }
        ga_clear_error();
        if (leaked) {
            printf("FAIL nothing_left_in_use_at_exit\n");
            failed++;
        } else {
            printf("ok   nothing_left_in_use_at_exit\n");
            passed++;
        }
    }
    ga_shutdown();
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}

#endif
