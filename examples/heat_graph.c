/* heat_graph.c - a time step captured once into a CUDA graph and replayed:
   explicit heat diffusion on a ring, u += alpha * (roll(u, 1) + roll(u, -1)
   - 2 u), written back into u in place so that each launch advances the
   state. The same steps run directly on a copy must give the same bits;
   the total heat stays what it was. The same in CuPy:

       s = cupy.cuda.Stream(non_blocking=True)
       with s:
           step(u)                      # once directly: kernels loaded
           s.begin_capture(); step(u2); g = s.end_capture()
           for _ in range(steps): g.launch(s)

   and ga_benchmark (cupyx.profiler.benchmark) times one step called and
   one launched.

   Build and run:  make && ./build/examples/heat_graph [points] [steps] */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double alpha = 0.25; /* stable for alpha <= 0.5 */

/* One step of u, in place: its temporaries are released at the scope's end
   (during a capture the pool keeps their memory for the graph). */
static ga_status step(ga_array *u)
{
    ga_scope_begin();
    ga_array *lap = ga_subtract(ga_add(ga_roll(u, 1, 0), ga_roll(u, -1, 0)), ga_multiply_scalar(u, ga_float(2.0)));
    ga_array *next = ga_add(u, ga_multiply_scalar(lap, ga_float(alpha)));
    ga_status st = next ? ga_copyto(u, next, GA_CASTING_SAME_KIND) : ga_last_error();
    ga_scope_end();
    return st;
}

static ga_status step_fn(void *u) { return step((ga_array *)u); }

typedef struct launch_args { ga_graph *graph; ga_stream *stream; } launch_args;
static ga_status launch_fn(void *p)
{
    launch_args *l = (launch_args *)p;
    return ga_graph_launch(l->graph, l->stream);
}

/* The sum of u (its total heat), read back. */
static double total(const ga_array *u)
{
    double t = NAN;
    ga_array *s = ga_sum(u, 0, NULL, false);
    if (s) ga_to_host(s, &t, sizeof t);
    ga_release(s);
    return t;
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 4096;
    int steps = argc > 2 ? atoi(argv[2]) : 1000;
    if (n < 3 || steps < 1) {
        fprintf(stderr, "usage: heat_graph [points >= 3] [steps >= 1]\n");
        return 2;
    }
    if (ga_init() != GA_OK) {
        fprintf(stderr, "heat_graph: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    double *h = malloc((size_t)n * sizeof *h);
    for (int64_t i = 0; i < n; i++) {
        const double x = (double)(i - n / 2) / (double)(n / 50 + 1);
        h[i] = exp(-x * x); /* a hot spot in the middle */
    }
    ga_stream *s = ga_stream_create(true); /* the legacy default stream cannot be captured */
    ga_stream_set_current(s);
    ga_array *direct = ga_from_host(h, 1, &n, GA_FLOAT64), *replayed = ga_from_host(h, 1, &n, GA_FLOAT64);
    ga_array *warm = ga_from_host(h, 1, &n, GA_FLOAT64);
    free(h);
    const double before = total(direct);

    step(warm); /* loads the kernels: a first call is not captured */
    ga_status st = ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL);
    if (st == GA_OK) st = step(replayed); /* recorded, not run: replayed is unchanged */
    ga_graph *g = st == GA_OK ? ga_graph_capture_end(s) : NULL;
    if (!g) {
        fprintf(stderr, "heat_graph: capture failed: %s\n", ga_last_error_message());
        return 1;
    }
    for (int i = 0; i < steps && st == GA_OK; i++) st = step(direct);
    for (int i = 0; i < steps && st == GA_OK; i++) st = ga_graph_launch(g, s);
    if (st != GA_OK) {
        fprintf(stderr, "heat_graph: %s\n", ga_last_error_message());
        return 1;
    }

    /* the largest difference between the two runs */
    double max_diff = NAN;
    ga_scope_begin();
    ga_to_host(ga_max(ga_absolute(ga_subtract(direct, replayed)), 0, NULL, false), &max_diff, sizeof max_diff);
    ga_scope_end();
    const double after = total(replayed);
    printf("heat_graph: %lld points, %d steps, %lld graph nodes a step\n", (long long)n, steps,
           (long long)ga_graph_node_count(g));
    printf("  graph replays against direct steps: max difference %g\n", max_diff);
    printf("  total heat %.12f before, %.12f after\n", before, after);

    ga_benchmark_result r;
    launch_args l = {g, s};
    if (ga_benchmark(step_fn, warm, 200, 10, 0, &r) == GA_OK) {
        ga_benchmark_print("step, called", &r);
        ga_benchmark_free(&r);
    }
    if (ga_benchmark(launch_fn, &l, 200, 10, 0, &r) == GA_OK) {
        ga_benchmark_print("step, graph launch", &r);
        ga_benchmark_free(&r);
    }

    const int ok = max_diff == 0 && fabs(after - before) <= 1e-9 * fabs(before);
    ga_graph_release(g);
    ga_release(direct);
    ga_release(replayed);
    ga_release(warm);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
    ga_shutdown();
    return ok ? 0 : 2;
}
