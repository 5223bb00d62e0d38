/* CUDA graphs (>>graph): chains of gpuarr calls captured once and replayed,
   compared with the same calls run directly; the pool under capture; the
   refusal of the calls that read from the device; the error paths. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

#include <math.h>

/* A step to capture: makes its result from the inputs. */
typedef ga_array *(*step_fn)(ga_array *const *in, void *user);

/* n random values of `dtype` in [-2, 2) (float64 or float32) on the device. */
static ga_array *random_array(int ndim, const int64_t *shape, ga_dtype dtype)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = 4.0 * rnd_unit() - 2.0;
    ga_array *a = ga_from_host(v, ndim, shape, GA_FLOAT64);
    free(v);
    if (a && dtype != GA_FLOAT64) {
        ga_array *b = ga_astype(a, dtype);
        ga_release(a);
        a = b;
    }
    return a;
}

/* New random contents for `a`, in place (same dtype and shape). */
static void refill(ga_array *a)
{
    ga_array *b = random_array(ga_ndim(a), ga_shape(a), ga_dtype_of(a));
    size_t n = ga_nbytes(a);
    void *h = malloc(n ? n : 1);
    CHECK(b && ga_to_host(b, h, n) == GA_OK && ga_copy_from_host(a, h, n) == GA_OK, "refill: %s",
          ga_last_error_message());
    free(h);
    ga_release(b);
}

/* Whether the float64 arrays a and b agree within rtol (of b's largest
   magnitude): for the library calls (cuBLAS, cuSOLVER) that may pick
   another algorithm under capture. */
static bool close_array(const ga_array *a, const ga_array *b, double rtol)
{
    if (!a || !b || ga_size(a) != ga_size(b) || ga_dtype_of(a) != GA_FLOAT64 || ga_dtype_of(b) != GA_FLOAT64) return false;
    size_t n = (size_t)ga_size(a);
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y), big = 0;
    bool ok = x && y && ga_to_host(a, x, n * 8) == GA_OK && ga_to_host(b, y, n * 8) == GA_OK;
    for (size_t i = 0; ok && i < n; i++) big = fabs(y[i]) > big ? fabs(y[i]) : big;
    for (size_t i = 0; ok && i < n; i++) ok = fabs(x[i] - y[i]) <= rtol * big;
    free(x), free(y);
    return ok;
}

/* Runs `step` once directly (the warm-up: kernels, libraries and plans are
   loaded then), captures it on `s`, replays the graph `replays` times and
   checks the captured result against a direct run after each of `rounds`
   refills of the inputs: the same bits, or within `rtol` when it is not 0. */
static void capture_and_compare(const char *what, step_fn step, void *user, ga_array *const *in, int nin,
                                int rounds, int replays, double rtol)
{
    ga_stream *s = ga_stream_create(true);
    CHECK(s != NULL, "%s: ga_stream_create: %s", what, ga_last_error_message());
    if (!s) return;
    ga_stream_set_current(s);
    ga_release(step(in, user));
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    CHECK(ga_stream_is_capturing(s) == 1, "%s: the stream is being captured", what);
    ga_array *y = step(in, user);
    CHECK(y != NULL, "%s: the step failed during the capture: %s", what, ga_last_error_message());
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g != NULL, "%s: ga_graph_capture_end: %s", what, ga_last_error_message());
    CHECK(ga_stream_is_capturing(s) == 0, "%s: the capture ended", what);
    CHECK(ga_stream_get_current() == s, "%s: the current stream is restored", what);
    for (int round = 0; g && y && round < rounds; round++) {
        if (round) {
            for (int i = 0; i < nin; i++) refill(in[i]);
        }
        for (int r = 0; r < replays; r++) CHECK_OK(ga_graph_launch(g, s));
        ga_array *want = step(in, user);
        CHECK(want && (rtol ? close_array(y, want, rtol) : same_array(y, want)),
              "%s: round %d: the replayed result differs from a direct run", what, round);
        ga_release(want);
    }
    ga_release(y);
    ga_graph_release(g);
    CHECK_OK(ga_stream_synchronize(s));
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
    ga_clear_error();
}

static ga_array *ufunc_chain(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *t = ga_multiply_scalar(ga_sin(in[0]), ga_float(2.0));
    t = ga_add(ga_exp(ga_multiply(t, in[1])), ga_square(in[0]));
    t = ga_where(ga_greater(in[0], in[1]), t, ga_negative(t));
    ga_array *r = ga_keep(ga_astype(t, GA_FLOAT64));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_ufunc_chain_replays)
{
    int64_t shape[2] = {37, 29};
    ga_array *in[2] = {random_array(2, shape, GA_FLOAT32), random_array(2, shape, GA_FLOAT32)};
    capture_and_compare("ufunc chain", ufunc_chain, NULL, in, 2, 3, 50, 0);
    ga_release(in[0]);
    ga_release(in[1]);
}

/* The contiguous ufunc loop's two sides (kernels/ufunc.cuh), which the host
   chooses: the lean loop for aligned operands of the loop's dtype (with or
   without a weak scalar), the general one for a view one element into its
   base (with or without one). */
static ga_array *lean_and_general(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *shifted = ga_index(in[2], "1:");
    ga_array *t = ga_add(ga_add(in[0], in[1]), ga_multiply(shifted, in[1]));
    t = ga_add(ga_subtract_scalar(t, ga_float(0.5)), ga_multiply_scalar(shifted, ga_float(2.0)));
    ga_array *r = ga_keep(ga_astype(t, GA_FLOAT64));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_ufunc_lean_and_general_loops)
{
    static const int64_t sizes[] = {1, 5, 1000, 1025, 4099};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int64_t n = sizes[i], n1 = n + 1;
        ga_array *in[3] = {random_array(1, &n, GA_FLOAT32), random_array(1, &n, GA_FLOAT32),
                           random_array(1, &n1, GA_FLOAT32)};
        char what[64];
        snprintf(what, sizeof what, "aligned, offset and scalar operands of %lld elements", (long long)n);
        capture_and_compare(what, lean_and_general, NULL, in, 3, 2, 20, 0);
        /* and the direct run against the host, each step rounded to float32 */
        float *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *c = malloc((size_t)n1 * 4);
        double *got = malloc((size_t)n * 8);
        ga_array *r = lean_and_general(in, NULL);
        bool have = r && ga_to_host(in[0], a, (size_t)n * 4) == GA_OK && ga_to_host(in[1], b, (size_t)n * 4) == GA_OK &&
                    ga_to_host(in[2], c, (size_t)n1 * 4) == GA_OK && ga_to_host(r, got, (size_t)n * 8) == GA_OK;
        CHECK(have, "%s: %s", what, ga_last_error_message());
        int64_t bad = 0;
        for (int64_t k = 0; have && k < n; k++) {
            const float sum = a[k] + b[k], product = c[k + 1] * b[k], t = sum + product, u = t - 0.5f,
                        twice = c[k + 1] * 2.0f, want = u + twice;
            bad += got[k] != (double)want;
        }
        CHECK(bad == 0, "%s: %lld of %lld differ from the host's", what, (long long)bad, (long long)n);
        ga_release(r);
        free(a), free(b), free(c), free(got);
        for (int k = 0; k < 3; k++) ga_release(in[k]);
        ga_clear_error();
    }
}

static ga_array *reductions(ga_array *const *in, void *user)
{
    (void)user;
    int ax0 = 0, ax1 = 1;
    ga_scope_begin();
    ga_array *a = ga_sum(in[0], 1, &ax0, false), *b = ga_mean(in[0], 1, &ax1, false);
    ga_array *m = ga_max(in[0], 0, NULL, false); /* 0-d */
    ga_array *r = ga_keep(ga_add(ga_add(ga_sum(a, 0, NULL, false), ga_sum(b, 0, NULL, false)), m));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_reductions)
{
    int64_t shape[2] = {300, 257};
    ga_array *in[1] = {random_array(2, shape, GA_FLOAT64)};
    capture_and_compare("reductions", reductions, NULL, in, 1, 3, 10, 0);
    ga_release(in[0]);
}

static ga_array *indexing(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *idx = ga_astype(ga_multiply_scalar(in[1], ga_float(40.0)), GA_INT64); /* out of range too */
    ga_array *c = ga_take(in[0], idx, 0, GA_INDEX_CLIP), *w = ga_take(in[0], idx, 0, GA_INDEX_WRAP);
    ga_array *v = ga_index(in[0], "3:60:2");
    ga_array *r = ga_keep(ga_add(ga_add(c, w), ga_sum(v, 0, NULL, false)));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_indexing)
{
    int64_t n = 100, m = 64;
    ga_array *in[2] = {random_array(1, &n, GA_FLOAT32), random_array(1, &m, GA_FLOAT32)};
    capture_and_compare("indexing", indexing, NULL, in, 2, 3, 10, 0);
    ga_release(in[0]);
    ga_release(in[1]);
}

static ga_array *sorting(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *s = ga_sort(in[0], -1), *i = ga_argsort(in[0], -1); /* rows of 1000: one block each */
    ga_array *c = ga_cumsum(in[0], 1, GA_DTYPE_INVALID);
    ga_array *r = ga_keep(ga_add(ga_add(s, ga_astype(i, GA_FLOAT64)), c));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_sorts_and_scans)
{
    int64_t shape[2] = {33, 1000};
    ga_array *in[1] = {random_array(2, shape, GA_FLOAT64)};
    capture_and_compare("sorts", sorting, NULL, in, 1, 3, 10, 0);
    ga_release(in[0]);
}

static ga_array *linalg(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *p = ga_matmul(in[0], in[1]);
    ga_array *x = ga_linalg_solve(in[0], p); /* info not read: GA_LINALG_IGNORE */
    ga_array *r = ga_keep(ga_add(p, x));
    ga_scope_end();
    return r;
}

/* capture_and_compare of a linalg step on two inputs (released after),
   the solvers' info unread (GA_LINALG_IGNORE: capturable) */
static void capture_linalg(const char *what, step_fn step, ga_array *in0, ga_array *in1, int rounds, double rtol)
{
    ga_array *in[2] = {in0, in1};
    ga_linalg_err before = ga_linalg_seterr(GA_LINALG_IGNORE);
    capture_and_compare(what, step, NULL, in, 2, rounds, 5, rtol);
    ga_linalg_seterr(before);
    ga_release(in0);
    ga_release(in1);
}

DEVICE_TEST(graph_linalg)
{
    int64_t shape[2] = {48, 48};
    capture_linalg("linalg", linalg, random_array(2, shape, GA_FLOAT64), random_array(2, shape, GA_FLOAT64), 2, 1e-9);
}

/* Stacks of small matrices: the batched paths (our small-matmul kernel,
   getrf/getrs batched over pointer arrays computed on the device, det from
   the batched LU, inv), a float32 stack through its own kernels too. */
static ga_array *linalg_stacks(ga_array *const *in, void *user)
{
    (void)user;
    ga_scope_begin();
    ga_array *p = ga_matmul(in[0], in[1]);                        /* (40, 5, 3) */
    ga_array *x = ga_linalg_solve(in[0], p);                      /* back to in[1] */
    ga_array *inv = ga_linalg_inv(in[0]);                         /* (40, 5, 5) */
    ga_array *det = ga_linalg_det(in[0]);                         /* (40,) */
    ga_array *f = ga_astype(ga_linalg_solve(ga_astype(in[0], GA_FLOAT32), ga_astype(p, GA_FLOAT32)), GA_FLOAT64);
    int ax[2] = {1, 2};
    ga_array *t = ga_add(ga_sum(ga_add(x, f), 2, ax, false), ga_sum(inv, 2, ax, false));
    ga_array *r = ga_keep(ga_add(t, det));
    ga_scope_end();
    return r;
}

DEVICE_TEST(graph_linalg_batched_small_stacks)
{
    int64_t a_shape[3] = {40, 5, 5}, b_shape[3] = {40, 5, 3};
    /* within 1e-6 of the largest: cuBLAS may pick another algorithm under capture */
    capture_linalg("linalg stacks", linalg_stacks, random_array(3, a_shape, GA_FLOAT64),
                   random_array(3, b_shape, GA_FLOAT64), 3, 1e-6);
}

DEVICE_TEST(graph_random_replays_its_draw)
{
    int64_t shape[1] = {4099};
    uint32_t seed[1] = {1234};
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_generator *warm = ga_random_default_rng(seed, 1), *g1 = ga_random_default_rng(seed, 1),
                 *g2 = ga_random_default_rng(seed, 1);
    ga_release(ga_random_normal(warm, 1.0, 2.0, 1, shape));
    ga_release(ga_random_uniform(warm, -1.0, 1.0, 1, shape));
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_THREAD_LOCAL));
    ga_array *a = ga_random_normal(g1, 1.0, 2.0, 1, shape);
    ga_array *b = ga_random_uniform(g1, -1.0, 1.0, 1, shape);
    ga_array *y = ga_add(a, b);
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g && y, "capture: %s", ga_last_error_message());
    ga_array *wa = ga_random_normal(g2, 1.0, 2.0, 1, shape), *wb = ga_random_uniform(g2, -1.0, 1.0, 1, shape);
    ga_array *want = ga_add(wa, wb);
    for (int i = 0; i < 3 && g; i++) {
        CHECK_OK(ga_graph_launch(g, s));
        CHECK(same_array(y, want), "launch %d: the graph draws what an uncaptured generator of the seed draws first", i);
    }
    ga_release(a), ga_release(b), ga_release(y), ga_release(wa), ga_release(wb), ga_release(want);
    ga_graph_release(g);
    ga_generator_release(warm), ga_generator_release(g1), ga_generator_release(g2);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

/* The inputs' new contents come in by a captured copy from page-locked
   memory: change the host buffer, launch, read the result. */
DEVICE_TEST(graph_feeds_itself_from_pinned_memory)
{
    enum { N = 1000 };
    int64_t n = N;
    float *host = ga_pinned_alloc(N * sizeof(float)), out[N];
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_array *x = ga_zeros(1, &n, GA_FLOAT32);
    ga_release(ga_multiply_scalar(x, ga_float(3.0)));
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    CHECK_OK(ga_copy_from_host_async(x, host, N * sizeof(float)));
    ga_array *y = ga_multiply_scalar(x, ga_float(3.0));
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g && y, "capture: %s", ga_last_error_message());
    for (int round = 0; round < 5 && g; round++) {
        for (int i = 0; i < N; i++) host[i] = (float)(i * (round + 1));
        CHECK_OK(ga_graph_launch(g, s));
        CHECK_OK(ga_to_host(y, out, sizeof out));
        int bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != 3.0f * (float)(i * (round + 1));
        CHECK(bad == 0, "round %d: %d wrong elements", round, bad);
    }
    ga_release(x), ga_release(y);
    ga_graph_release(g);
    ga_pinned_free(host);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

/* Each small add reads what the one before it wrote, where the adds are
   launched as programmatic dependents (sm_90 on: they start while the one
   before still runs and wait for it inside): x += 1 a few hundred times on
   one stream, directly and from a graph, and a small add right behind a
   large one that writes its input. Any add that read before the previous
   one finished would leave a count short. The same with GPUARR_PDL=0 (no
   programmatic launches) runs the plain path. */
DEVICE_TEST(graph_dependent_small_adds_see_each_other)
{
    enum { N = 1003, CHAIN = 300, GRAPH_ADDS = 100, REPLAYS = 7 };
    int64_t n = N, big = (int64_t)1 << 24;
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_array *x = ga_zeros(1, &n, GA_FLOAT32), *one = ga_ones(1, &n, GA_FLOAT32);
    ga_array *wide = ga_zeros(1, &big, GA_FLOAT32), *wide_one = ga_ones(1, &big, GA_FLOAT32);
    ga_array *head = wide ? ga_index(wide, ":1003") : NULL, *sum = ga_empty(1, &n, GA_FLOAT32);
    CHECK(x && one && wide && wide_one && head && sum, "%s", ga_last_error_message());
    float out[N];
    for (int i = 0; i < CHAIN; i++) CHECK_OK(ga_add_out(x, one, x));
    CHECK_OK(ga_to_host(x, out, sizeof out));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != (float)CHAIN;
    CHECK(bad == 0, "called: %d elements short of %d", bad, CHAIN);

    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    for (int i = 0; i < GRAPH_ADDS; i++) ga_add_out(x, one, x);
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g, "capture: %s", ga_last_error_message());
    CHECK(ga_graph_node_count(g) == GRAPH_ADDS, "%lld nodes", (long long)ga_graph_node_count(g));
    for (int r = 0; r < REPLAYS && g; r++) CHECK_OK(ga_graph_launch(g, s));
    CHECK_OK(ga_to_host(x, out, sizeof out));
    bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != (float)(CHAIN + GRAPH_ADDS * REPLAYS);
    CHECK(bad == 0, "replayed: %d elements short", bad);
    ga_graph_release(g);

    /* a large add writes what the small one right behind it reads */
    for (int round = 1; round <= 5; round++) {
        CHECK_OK(ga_add_out(wide, wide_one, wide));
        CHECK_OK(ga_add_out(head, one, sum));
        CHECK_OK(ga_to_host(sum, out, sizeof out));
        bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != (float)(round + 1);
        CHECK(bad == 0, "round %d: the small add read %d elements before the large one wrote them", round, bad);
    }
    ga_release(x), ga_release(one), ga_release(wide), ga_release(wide_one), ga_release(head), ga_release(sum);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

DEVICE_TEST(graph_two_graphs_on_two_streams)
{
    int64_t n = 5000;
    ga_array *x = random_array(1, &n, GA_FLOAT32);
    ga_stream *s[2] = {ga_stream_create(true), ga_stream_create(true)};
    ga_array *y[2] = {NULL, NULL};
    ga_graph *g[2] = {NULL, NULL};
    ga_scope_begin();
    ga_sqrt(ga_absolute(ga_add_scalar(x, ga_float(1.0))));
    ga_scope_end();
    ga_device_synchronize();
    for (int k = 0; k < 2; k++) {
        CHECK_OK(ga_graph_capture_begin(s[k], GA_CAPTURE_RELAXED));
        ga_scope_begin();
        y[k] = ga_keep(ga_sqrt(ga_absolute(ga_add_scalar(x, ga_float(k + 1.0)))));
        ga_scope_end();
        g[k] = ga_graph_capture_end(s[k]);
        CHECK(g[k] && y[k], "capture %d: %s", k, ga_last_error_message());
    }
    for (int r = 0; r < 20; r++)
        for (int k = 0; k < 2; k++) CHECK_OK(ga_graph_launch(g[k], s[k]));
    for (int k = 0; k < 2; k++) {
        CHECK_OK(ga_stream_synchronize(s[k]));
        ga_scope_begin();
        ga_array *want = ga_sqrt(ga_absolute(ga_add_scalar(x, ga_float(k + 1.0))));
        CHECK(want && same_array(y[k], want), "graph %d on stream %d", k, k);
        ga_scope_end();
        ga_graph_release(g[k]);
        ga_release(y[k]);
        ga_stream_destroy(s[k]);
    }
    ga_release(x);
}

DEVICE_TEST(graph_pool_statistics_come_back)
{
    int64_t n = 1 << 16;
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_array *x = random_array(1, &n, GA_FLOAT32);
    ga_array *in[2] = {x, x};
    ga_release(ufunc_chain(in, NULL));
    ga_memory_stats before, during, after;
    CHECK_OK(ga_memory_get_stats(ga_device_get(), &before));
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    ga_array *y = ufunc_chain(in, NULL);
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g && y, "capture: %s", ga_last_error_message());
    ga_release(y); /* the graph still writes it: the pool keeps it */
    CHECK_OK(ga_memory_get_stats(ga_device_get(), &during));
    CHECK(during.used_bytes > before.used_bytes && during.graph_bytes >= (size_t)n * 8,
          "the graph's memory stays in use (used %zu -> %zu, graph %zu)", before.used_bytes, during.used_bytes,
          during.graph_bytes);
    for (int i = 0; i < 10; i++) CHECK_OK(ga_graph_launch(g, s));
    ga_graph_release(g);
    CHECK_OK(ga_memory_get_stats(ga_device_get(), &after));
    CHECK(after.used_bytes == before.used_bytes && after.graph_bytes == 0,
          "used bytes back where they were after the release (%zu, %zu)", before.used_bytes, after.used_bytes);
    CHECK_OK(ga_stream_synchronize(s));
    ga_release(x);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

DEVICE_TEST(graph_refuses_what_reads_the_device)
{
    int64_t n = 256;
    ga_stream *s = ga_stream_create(true);
    ga_stream_set_current(s);
    ga_array *x = random_array(1, &n, GA_FLOAT32);
    ga_array *eye = ga_eye(4, 4, 0, GA_FLOAT64);
    ga_release(ga_linalg_inv(eye)); /* warm-up of the solver */
    ga_array *idx = ga_arange(0, 10, 1, GA_INT64);
    ga_array *square = ga_reshape(x, 2, (int64_t[]){16, 16}); /* columns of 16: CUB's segmented sort */
    ga_array *ok0 = ga_add(x, x);
    ga_release(ok0);
    float h[256];
    bool close = false;
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    ga_array *a = ga_add(x, x); /* before the refusals */
    CHECK_ERROR(ga_to_host(x, h, sizeof h) != GA_OK, GA_ERROR_STREAM_CAPTURE,
                "ga_to_host: cannot run while stream capture is active: it copies to host memory");
    CHECK_ERROR(ga_to_host_async(x, h, sizeof h) != GA_OK, GA_ERROR_STREAM_CAPTURE, "pageable host memory");
    CHECK_ERROR(ga_from_host(h, 1, &n, GA_FLOAT32) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_from_host: cannot run");
    CHECK_ERROR(ga_flatnonzero(x) == NULL, GA_ERROR_STREAM_CAPTURE,
                "ga_flatnonzero: cannot run while stream capture is active: it reads the result size from the device");
    CHECK_ERROR(ga_unique(x, NULL, NULL, NULL, false) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_unique: cannot run");
    CHECK_ERROR(ga_take(x, idx, 0, GA_INDEX_RAISE) == NULL, GA_ERROR_STREAM_CAPTURE, "bounds");
    CHECK_ERROR(ga_allclose(x, x, 1e-5, 1e-8, false, &close) != GA_OK, GA_ERROR_STREAM_CAPTURE, "ga_allclose");
    CHECK_ERROR(ga_linalg_inv(eye) == NULL, GA_ERROR_STREAM_CAPTURE, "info");
    CHECK_ERROR(ga_sort(square, 0) == NULL, GA_ERROR_STREAM_CAPTURE,
                "ga_sort: cannot run while stream capture is active: it sorts rows through CUB's segmented sort");
    CHECK_ERROR(ga_argsort(square, 0) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_argsort: cannot run");
    CHECK_ERROR(ga_stream_synchronize(s) != GA_OK, GA_ERROR_STREAM_CAPTURE, "ga_stream_synchronize");
    CHECK_ERROR(ga_device_synchronize() != GA_OK, GA_ERROR_STREAM_CAPTURE, "ga_device_synchronize");
    CHECK_ERROR(ga_memory_free_all_blocks(ga_device_get()) != GA_OK, GA_ERROR_STREAM_CAPTURE, "frees device memory");
    CHECK(ga_stream_is_capturing(s) == 1, "the capture goes on after the refusals");
    ga_array *b = ga_multiply(a, x); /* and still records */
    ga_graph *g = ga_graph_capture_end(s);
    CHECK(g != NULL && b != NULL, "the capture is still valid: %s", ga_last_error_message());
    CHECK(ga_graph_node_count(g) >= 2, "nodes: %lld", (long long)ga_graph_node_count(g));
    CHECK_OK(ga_graph_launch(g, s));
    ga_scope_begin();
    ga_array *want = ga_multiply(ga_add(x, x), x);
    CHECK(want && b && same_array(b, want), "the graph computes (x + x) * x");
    ga_scope_end();
    ga_release(a), ga_release(b), ga_release(x), ga_release(idx), ga_release(eye), ga_release(square);
    ga_graph_release(g);
    ga_clear_error();
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

DEVICE_TEST(graph_error_paths)
{
    CHECK_ERROR(ga_graph_capture_end(NULL) == NULL, GA_ERROR_STATE, "not capturing");
    CHECK_ERROR(ga_graph_launch(NULL, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "graph is NULL");
    ga_graph_release(NULL);
    ga_stream_set_current(NULL);
    CHECK_ERROR(ga_graph_capture_begin(NULL, GA_CAPTURE_GLOBAL) != GA_OK, GA_ERROR_VALUE, "legacy default stream");
    ga_stream *s = ga_stream_create(true), *t = ga_stream_create(true);
    CHECK_ERROR(ga_graph_capture_begin(s, (ga_capture_mode)7) != GA_OK, GA_ERROR_VALUE, "invalid capture mode");
    CHECK_OK(ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL));
    CHECK_ERROR(ga_graph_capture_begin(t, GA_CAPTURE_GLOBAL) != GA_OK, GA_ERROR_STATE, "capturing a stream already");
    CHECK_ERROR(ga_graph_capture_end(t) == NULL, GA_ERROR_STATE, "another stream");
    ga_graph *g = ga_graph_capture_end(s); /* an empty graph */
    CHECK(g != NULL, "an empty capture makes a graph: %s", ga_last_error_message());
    CHECK(ga_graph_node_count(g) == 0, "no nodes");
    CHECK_OK(ga_graph_upload(g, s));
    CHECK_OK(ga_graph_launch(g, s));
    CHECK_OK(ga_graph_launch(g, NULL)); /* the current stream (the default one) */
    ga_graph_release(g);
    CHECK_ERROR(ga_graph_launch(g, s) != GA_OK, GA_ERROR_STATE, "ga_graph_launch: the graph was released");
    CHECK_ERROR(ga_graph_node_count(g) == -1, GA_ERROR_STATE, "released");
    CHECK_OK(ga_stream_synchronize(s));
    ga_stream_destroy(s);
    ga_stream_destroy(t);
}

/* ---- profiling ---------------------------------------------------------- */

TEST(benchmark_prints_as_cupyx_profiler)
{
    double cpu[3] = {5e-6, 6e-6, 7e-6}, gpu[3] = {10e-6, 10e-6, 13e-6};
    ga_benchmark_result r = {3, 0, cpu, gpu};
    char line[512];
    int n = ga_benchmark_format("add", &r, line, sizeof line);
    const char *want = "add                 :    CPU:     6.000 us   +/-  0.816 (min:     5.000 / max:     7.000) us"
                       "     GPU-0:    11.000 us   +/-  1.414 (min:    10.000 / max:    13.000) us";
    CHECK(n == (int)strlen(want) && strcmp(line, want) == 0, "got\n      \"%s\"\n    want\n      \"%s\"", line, want);
    CHECK(ga_benchmark_format("add", &r, NULL, 0) == n, "the length without a buffer");
    char small[16];
    CHECK(ga_benchmark_format("add", &r, small, sizeof small) == n && strlen(small) == 15, "truncated like snprintf");
    r.n_repeat = 1;
    ga_benchmark_format("one", &r, line, sizeof line);
    CHECK(strcmp(line, "one                 :    CPU:     5.000 us     GPU-0:    10.000 us") == 0, "one repeat: \"%s\"", line);
}

TEST(profile_ranges_without_a_profiler)
{
    ga_profile_range_push("outer", 0xFF00FF00u);
    GA_PROFILE_RANGE("inner", 0) { ga_profile_calls(true); }
    ga_profile_calls(false);
    ga_profile_range_pop();
    CHECK(ga_last_error() == GA_OK, "ranges need no GPU and report nothing");
}

TEST(profile_call_ranges_open_and_close)
{
    ga_profile_calls(true);
    ga_device_synchronize(); /* a status: closed as it returns, failed (without a GPU) or not */
    CHECK(ga__t.call_range == NULL, "ga_device_synchronize left %s open", ga__t.call_range ? ga__t.call_range : "none");
    ga_release(ga_zeros(1, (const int64_t[]){4}, GA_FLOAT32)); /* an array: closed as it returns */
    CHECK(ga__t.call_range == NULL, "closed: %s", ga__t.call_range ? ga__t.call_range : "none");
    ga__profile_call("ga_device_synchronize"); /* a range left open (as by a call returning something else) */
    ga_profile_range_push("user", 0);
    CHECK(ga__t.call_range == NULL, "a user range closes the call's first");
    ga_profile_range_pop();
    /* the calls of this section close their range as they return, failed
       (without a GPU) or not */
    ga_profile_calls(true);
    ga_status st = ga_profiler_start();
    CHECK(ga__t.call_range == NULL, "ga_profiler_start closes its range: %s", ga__t.call_range ? ga__t.call_range : "none");
    if (st == GA_OK) ga_profiler_stop();
    CHECK(ga__t.call_range == NULL, "ga_profiler_stop closes its range");
    ga_stream_is_capturing(NULL);
    CHECK(ga__t.call_range == NULL, "ga_stream_is_capturing closes its range");
    ga_profile_calls(false);
    ga_device_synchronize();
    CHECK(ga__t.call_range == NULL, "off: no range");
    ga_clear_error();
}

DEVICE_TEST(profile_call_ranges_of_ufuncs_close)
{
    ga_array *a = ga_ones(1, (const int64_t[]){5}, GA_FLOAT32), *b = ga_ones(1, (const int64_t[]){5}, GA_FLOAT32);
    ga_array *q = NULL, *m = NULL;
    bool all = false;
    ga_profile_calls(true);
    ga__profile_call("open"); /* (each call below starts with a range open) */
    CHECK_OK(ga_add_out(a, b, a));
    CHECK(ga__t.call_range == NULL, "ga_add_out: %s", ga__t.call_range ? ga__t.call_range : "closed");
    ga__profile_call("open");
    CHECK_OK(ga_divmod(a, b, &q, &m));
    CHECK(ga__t.call_range == NULL, "ga_divmod: %s", ga__t.call_range ? ga__t.call_range : "closed");
    ga__profile_call("open");
    CHECK_OK(ga_allclose(a, b, 1e-5, 1e-8, false, &all));
    CHECK(ga__t.call_range == NULL && !all, "ga_allclose: %s", ga__t.call_range ? ga__t.call_range : "closed");
    ga_profile_calls(false);
    ga_clear_error();
    ga_release(a), ga_release(b), ga_release(q), ga_release(m);
}

/* A call of each section that returns a status closes its range as it
   returns, done or failed (a bad argument), from within a range left open
   (checked after each). */
DEVICE_TEST(profile_call_ranges_of_every_section_close)
{
    const int64_t n = 64, sq[2] = {4, 4};
    ga_array *a = ga_ones(1, &n, GA_FLOAT32), *out = ga_empty(1, &n, GA_FLOAT32), *total = ga_empty(0, NULL, GA_FLOAT32);
    ga_array *eye = ga_eye(4, 4, 0, GA_FLOAT32), *ones = ga_ones(2, sq, GA_FLOAT32), *m = ga_add(eye, ones);
    ga_array *w = NULL, *v = NULL;
    ga_array *c = ga_empty(1, &n, GA_COMPLEX64);
    float host[64];
    char path[] = "build/tests/profile_call.npy";
    ga_profile_calls(true);
#define CLOSES(call)                                                                                            \
    do {                                                                                                        \
        ga__profile_call("open");                                                                               \
        (void)(call);                                                                                           \
        CHECK(ga__t.call_range == NULL, "%s left %s open", #call, ga__t.call_range ? ga__t.call_range : "?");   \
        ga_clear_error();                                                                                       \
    } while (0)
    CLOSES(ga_to_host(a, host, sizeof host));                                   /* transfers */
    CLOSES(ga_to_host(NULL, host, sizeof host));                                /* (an error) */
    CLOSES(ga_copyto(out, a, GA_CASTING_SAME_KIND));                            /* creation and copies */
    CLOSES(ga_setitem_scalar(out, "::2", ga_float(2)));                         /* indexing */
    CLOSES(ga_reduce(GA_REDUCE_SUM, a, GA_ALL_AXES, GA_DTYPE_INVALID, &total, false, NULL)); /* reductions */
    CLOSES(ga_scan(GA_SCAN_CUMSUM, a, 0, GA_DTYPE_INVALID, &out));              /* scans */
    CLOSES(ga_random_random_out(NULL, out));                                    /* random */
    CLOSES(ga_linalg_eigh(m, 'L', &w, &v));                                     /* linear algebra */
    CLOSES(ga_fft_fft_out(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD, c));            /* FFT */
    CLOSES(ga_save(path, a));                                                   /* files */
    CLOSES(ga_stream_synchronize(NULL));                                        /* streams */
    CLOSES(ga_event_record(NULL, NULL));                                        /* (an error) */
    /* the calls that return a pointer or a count */
    ga_stream *st = NULL;
    ga_event *ev = NULL;
    ga_generator *g = NULL;
    ga_sparse *sp = NULL;
    ga_npz *z = NULL;
    DLManagedTensorVersioned *dl = NULL;
    void *dev = NULL, *pin = NULL;
    const char *names[1] = {"a"};
    const ga_array *arrays[1] = {a};
    char npz[] = "build/tests/profile_call.npz";
    CLOSES(st = ga_stream_create(true));
    CLOSES(ga_stream_query(st));
    CLOSES(ga_stream_destroy(st));
    CLOSES(ev = ga_event_create(false));
    CLOSES(ga_event_query(ev));
    CLOSES(ga_event_destroy(ev));
    CLOSES(dev = ga_memory_alloc(256));
    CLOSES(pin = ga_pinned_alloc(256));
    CLOSES(g = ga_random_default_rng((const uint32_t[]){7}, 1));
    CLOSES(sp = ga_sparse_eye(4, 4, 0, GA_FLOAT32, GA_SPARSE_CSR));
    CLOSES(ga_sparse_count_nonzero(sp));
    CLOSES(ga_reduce_warnings());
    CLOSES(dl = ga_to_dlpack(a, -1, GA_COPY_IF_NEEDED));
    CHECK(ga_savez(npz, 1, names, arrays) == GA_OK, "savez: %s", ga_last_error_message());
    CLOSES(z = ga_load_npz(npz));
    CHECK(st && ev && dev && pin && g && sp && dl && z, "the calls' results (%s)", ga_last_error_message());
    ga_memory_free(dev), ga_pinned_free(pin), ga_generator_release(g), ga_sparse_release(sp), ga_npz_close(z);
    if (dl) dl->deleter(dl);
    remove(npz);
#undef CLOSES
    ga_profile_calls(false);
    remove(path);
    ga_release(a), ga_release(out), ga_release(total), ga_release(m), ga_release(w), ga_release(v), ga_release(c);
    ga_release(eye), ga_release(ones);
    ga_clear_error();
}

static int bench_calls;
static ga_status count_call(void *user)
{
    (void)user;
    bench_calls++;
    return GA_OK;
}

DEVICE_TEST(benchmark_times_each_repeat)
{
    ga_benchmark_result r;
    bench_calls = 0;
    CHECK_OK(ga_benchmark(count_call, NULL, 20, 3, 0, &r));
    CHECK(r.n_repeat == 20 && bench_calls == 23, "20 repeats after 3 warm-ups (%d, %d calls)", r.n_repeat, bench_calls);
    for (int i = 0; i < r.n_repeat; i++)
        CHECK(r.cpu_times[i] >= 0 && r.gpu_times[i] >= 0 && r.cpu_times[i] < 1, "repeat %d: %g %g", i, r.cpu_times[i],
              r.gpu_times[i]);
    ga_benchmark_print("nothing", &r);
    ga_benchmark_free(&r);
    CHECK_OK(ga_benchmark(count_call, NULL, 1000000, 0, 0.01, &r));
    CHECK(r.n_repeat >= 1 && r.n_repeat < 1000000, "max_duration stops it (%d repeats)", r.n_repeat);
    ga_benchmark_free(&r);
    CHECK_ERROR(ga_benchmark(count_call, NULL, 0, 0, 0, &r) != GA_OK, GA_ERROR_VALUE, "n_repeat");
    CHECK_OK(ga_profiler_start());
    CHECK_OK(ga_profiler_stop());
}

/* ---- memory hooks ------------------------------------------------------- */

typedef struct hook_log {
    int events[4];
    size_t freed;
} hook_log;

static void log_hook(const ga_memory_hook_info *info, void *user)
{
    hook_log *l = user;
    l->events[info->event]++;
    if (info->event == GA_MEMORY_AFTER_FREE) l->freed += info->block_bytes;
}

TEST(memory_hooks_install_and_remove)
{
    hook_log log;
    memset(&log, 0, sizeof log);
    int id = ga_memory_hook_add(log_hook, &log);
    CHECK(id > 0, "an id: %d", id);
    CHECK_ERROR(ga_memory_hook_add(NULL, NULL) == -1, GA_ERROR_NULL_INPUT, "fn is NULL");
    int ids[16], n = 0;
    while (n < 16 && (ids[n] = ga_memory_hook_add(log_hook, &log)) > 0) n++;
    CHECK(n == 15, "16 hooks at most (%d more)", n);
    CHECK(ga_last_error() == GA_ERROR_VALUE, "the 17th is refused");
    ga_clear_error();
    for (int i = 0; i < n; i++) CHECK_OK(ga_memory_hook_remove(ids[i]));
    CHECK_ERROR(ga_memory_hook_remove(ids[0]) != GA_OK, GA_ERROR_VALUE, "no hook has id");
    CHECK_OK(ga_memory_hook_remove(id));
    CHECK(ga__memory_hooks.count == 0, "none left");
}

TEST(memory_hook_debug_print_format)
{
    ga_memory_hook_info info = {GA_MEMORY_AFTER_ALLOC, false, 0, 4000, 4096, (void *)(uintptr_t)0x7f0000000200ull, NULL,
                                "ga_add"};
    FILE *f = tmpfile();
    char line[256] = "";
    ga_memory_hook_debug_print(&info, f);
    info.event = GA_MEMORY_BEFORE_FREE; /* (not printed) */
    ga_memory_hook_debug_print(&info, f);
    info.event = GA_MEMORY_AFTER_FREE;
    info.bytes = 0;
    info.function = NULL;
    info.pinned = true;
    info.device = -1;
    ga_memory_hook_debug_print(&info, f);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) &&
              strcmp(line, "{\"hook\":\"alloc\",\"device\":0,\"bytes\":4000,\"block_bytes\":4096,\"ptr\":\"0x7f0000000200\","
                           "\"stream\":\"0x0\",\"function\":\"ga_add\"}\n") == 0,
          "alloc line: %s", line);
    CHECK(fgets(line, sizeof line, f) &&
              strcmp(line, "{\"hook\":\"pinned_free\",\"device\":-1,\"bytes\":0,\"block_bytes\":4096,\"ptr\":\"0x7f0000000200\","
                           "\"stream\":\"0x0\"}\n") == 0,
          "free line: %s", line);
    CHECK(!fgets(line, sizeof line, f), "two lines only");
    fclose(f);
}

/* The pool's frees call the hooks (a pool over host memory: no GPU). */
static int host_chunk_alloc(void *ctx, size_t bytes, uint64_t *ptr)
{
    (void)ctx;
    void *m = malloc(bytes);
    *ptr = (uint64_t)(uintptr_t)m;
    return m == NULL;
}
static void host_chunk_free(void *ctx, uint64_t ptr, size_t bytes) { (void)ctx, (void)bytes; free((void *)(uintptr_t)ptr); }
static int host_record(void *ctx, void **event, uintptr_t stream, int device) { (void)ctx, (void)event, (void)stream, (void)device; return 1; }
static int host_done(void *ctx, void *event) { (void)ctx, (void)event; return 1; }
static int host_wait(void *ctx, void *event) { return (void)ctx, (void)event, 0; }
static void host_destroy(void *ctx, void *event) { (void)ctx, (void)event; }

TEST(memory_hooks_see_the_frees_of_a_pool)
{
    static const ga__pool_ops ops = {host_chunk_alloc, host_chunk_free, host_record, host_done, host_wait, host_destroy};
    ga__pool p;
    ga__pool_init(&p, &ops, NULL, 3);
    hook_log log;
    memset(&log, 0, sizeof log);
    ga__block *a = ga__pool_alloc(&p, 1000, 7, 3, false);
    ga__block *b = ga__pool_alloc(&p, 100, 7, 3, true);
    int id = ga_memory_hook_add(log_hook, &log);
    ga__pool_free(&p, a);
    CHECK(ga__pool_free_ptr(&p, b->ptr, 7, 3), "the tracked block is found");
    ga_memory_hook_remove(id);
    CHECK(log.events[GA_MEMORY_BEFORE_FREE] == 2 && log.events[GA_MEMORY_AFTER_FREE] == 2 && log.freed == 1024 + 512,
          "two frees seen (%d, %d, %zu bytes)", log.events[2], log.events[3], log.freed);
    ga__pool_destroy(&p);
}

DEVICE_TEST(memory_hooks_see_the_pool)
{
    int64_t n = 1000;
    ga_array *x = ga_zeros(1, &n, GA_FLOAT32);
    hook_log log;
    memset(&log, 0, sizeof log);
    ga_memory_profile *prof = ga_memory_profile_create();
    int id = ga_memory_hook_add(log_hook, &log), pid = ga_memory_hook_add(ga_memory_hook_profile, prof);
    ga_array *y = ga_add(x, x);
    ga_release(y);
    void *raw = ga_memory_alloc(100);
    ga_memory_free(raw);
    CHECK(log.events[GA_MEMORY_BEFORE_ALLOC] == 2 && log.events[GA_MEMORY_AFTER_ALLOC] == 2,
          "two allocations (%d, %d)", log.events[0], log.events[1]);
    CHECK(log.events[GA_MEMORY_BEFORE_FREE] == 2 && log.events[GA_MEMORY_AFTER_FREE] == 2 && log.freed == 4096 + 512,
          "two frees (%d, %d, %zu bytes)", log.events[2], log.events[3], log.freed);
    ga_memory_hook_remove(id);
    ga_memory_hook_remove(pid);
    FILE *f = tmpfile();
    ga_memory_profile_print(prof, f);
    rewind(f);
    char text[2048] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = 0;
    fclose(f);
    CHECK(strstr(text, "ga_add") && strstr(text, "ga_memory_alloc") && strstr(text, "total"), "the table:\n%s", text);
    ga_memory_profile_destroy(prof);
    ga_release(x);
}
