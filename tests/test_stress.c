/* Stress (device test): several host threads, each on streams of its own,
   run random sequences of operations while the pool's limit is low enough
   that blocks are reused across streams and allocations fail and retry.
   Every result is checked (or is a clean out-of-memory error), and at the
   end the pool's statistics add up: nothing in use, no more held than the
   limit. The seed is printed; GPUARR_TEST_SEED repeats a run. */
#include <pthread.h>
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

enum { THREADS = 4, STEPS = 150, STREAMS = 2 };
static const size_t LIMIT = (size_t)96 << 20;

typedef struct worker {
    uint64_t rng;
    int id, done, oom, wrong;
    char first_wrong[320];
} worker;

static uint64_t next(worker *w)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return w->rng;
}

static void wrong(worker *w, const char *what, double got, double want)
{
    if (!w->wrong++)
        snprintf(w->first_wrong, sizeof w->first_wrong, "thread %d: %s gave %.17g, want %.17g", w->id, what, got,
                 want);
}

/* One random operation on n elements; its values checked on the host. */
static void step(worker *w, int64_t n)
{
    ga_scope_begin();
    double got = 0, want = 0;
    const char *what = "";
    ga_array *r = NULL;
    ga_array *a = ga_arange(0, (double)n, 1, GA_FLOAT64);
    switch (next(w) % 6) {
    case 0: /* sum of 0..n-1 */
        what = "sum", want = 0.5 * (double)n * (double)(n - 1);
        r = ga_sum(a, GA_ALL_AXES, false);
        break;
    case 1: /* a + a, element n - 1 */
        what = "add", want = 2.0 * (double)(n - 1);
        r = ga_index(ga_add(a, a), "-1");
        break;
    case 2: /* sort of the reversed range, element n / 2 */
        what = "sort", want = (double)(n / 2);
        r = ga_take(ga_sort(ga_flip(a, GA_ALL_AXES), -1), ga_full(0, NULL, ga_int(n / 2), GA_INT64), 0,
                    GA_INDEX_RAISE);
        break;
    case 3: /* cumsum of ones, last */
        what = "cumsum", want = (double)n;
        r = ga_index(ga_cumsum(ga_ones(1, &n, GA_FLOAT64), -1, GA_DTYPE_INVALID), "-1");
        break;
    case 4: /* mask: how many above the middle */
        what = "mask", want = (double)(n - 1 - n / 2);
        r = ga_astype(ga_count_nonzero(ga_greater_scalar(a, ga_int(n / 2)), GA_ALL_AXES, false), GA_FLOAT64);
        break;
    default: /* a cast round trip and a max */
        what = "astype", want = (double)(n - 1);
        r = ga_max(ga_astype(ga_astype(a, GA_INT64), GA_FLOAT64), GA_ALL_AXES, false);
        break;
    }
    ga_status st = r ? ga_to_host(r, &got, sizeof got) : ga_last_error();
    if (st == GA_OK) {
        if (got != want) wrong(w, what, got, want);
        w->done++;
    } else if (st == GA_ERROR_OUT_OF_MEMORY) {
        w->oom++;
    } else {
        if (!w->wrong++)
            snprintf(w->first_wrong, sizeof w->first_wrong, "thread %d: %s failed: %.160s", w->id, what,
                     ga_last_error_message());
    }
    ga_clear_error();
    ga_scope_end();
}

static void *run_worker(void *arg)
{
    worker *w = (worker *)arg;
    ga_stream *streams[STREAMS];
    for (int s = 0; s < STREAMS; s++) streams[s] = ga_stream_create(true);
    for (int i = 0; i < STEPS; i++) {
        ga_stream *s = streams[next(w) % STREAMS];
        if (s) ga_stream_set_current(s);
        /* 1 to 2^22 elements (up to 32 MB float64): several live at once
           press against the limit */
        int64_t n = (int64_t)1 << (next(w) % 23);
        n += (int64_t)(next(w) % (uint64_t)n);
        step(w, n);
    }
    ga_stream_set_current(NULL);
    for (int s = 0; s < STREAMS; s++) {
        if (streams[s]) ga_stream_synchronize(streams[s]);
        ga_stream_destroy(streams[s]);
    }
    return NULL;
}

DEVICE_TEST(threads_streams_and_a_low_pool_limit)
{
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_memory_free_all_blocks(0));
    CHECK_OK(ga_memory_set_limit(0, LIMIT));
    worker w[THREADS];
    pthread_t t[THREADS];
    uint64_t seed = rnd();
    printf("    seed %llu (GPUARR_TEST_SEED repeats the run)\n", (unsigned long long)seed);
    for (int i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        w[i].rng = (seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1)) | 1;
        CHECK(pthread_create(&t[i], NULL, run_worker, &w[i]) == 0, "pthread_create");
    }
    int done = 0, oom = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        done += w[i].done, oom += w[i].oom;
        CHECK(w[i].wrong == 0, "%d wrong results; the first: %s", w[i].wrong, w[i].first_wrong);
    }
    CHECK_OK(ga_device_synchronize());
    ga_memory_stats st;
    CHECK_OK(ga_memory_get_stats(0, &st));
    CHECK(st.used_bytes == 0, "%zu bytes still in use", st.used_bytes);
    CHECK(st.held_bytes <= LIMIT, "the pool holds %zu bytes, over its limit %zu", st.held_bytes, LIMIT);
    CHECK(st.free_bytes == st.held_bytes - st.used_bytes, "free %zu != held %zu - used %zu", st.free_bytes,
          st.held_bytes, st.used_bytes);
    CHECK(done > THREADS * STEPS / 2, "only %d of %d steps ran", done, THREADS * STEPS);
    printf("    %d steps checked, %d out of memory (limit %zu MB)\n", done, oom, LIMIT >> 20);
    CHECK_OK(ga_memory_set_limit(0, 0));
    CHECK_OK(ga_memory_free_all_blocks(0));
}
