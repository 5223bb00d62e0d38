/* gpuarr's benchmark: device-event medians after warm-up, one row per op.
   `make bench` runs it through tools/bench.py, which adds CuPy's figures
   for the same ops when CuPy is importable and prints the table.

     build/bench             one line per row: name|elements|dtype|median us|GB/s|note
     build/bench --first     the smallest whole program: init, one op, one result
     build/bench --products  the copy ceiling, the small add, then the products alone
                             (timed from outside for start-up cost)
     build/bench --io        the copy ceiling, then a 4 GiB .npy saved and loaded,
                             the load by threads and chunk size, its host side
                             alone, and a load through cuMemHostRegister
     build/bench --random    the copy ceiling, full's write ceiling, then the random draws
     build/bench --fft       the copy ceiling, the small add, then the FFT rows
     build/bench --sparse    the copy ceiling, then the sparse rows
     build/bench --nccl      the copy ceiling, then all_reduce over every GPU
                             (gpuarr beside ncclAllReduce) and the peer copy
                             (ga_to_device beside cuMemcpyPeerAsync)
     build/bench --graph     the copy ceiling, the small add, then CUDA graphs and memory hooks
     build/bench --darray    the copy ceiling, then an add split over every GPU
                             beside the one-GPU add of the same size
     build/bench --reductions  the copy ceiling, then every reduction of every dtype
                             NumPy defines it for (2^26 elements, contiguous), and
                             sums and a max over one axis of (8192, 8192) float32
     build/bench --kernels   the copy ceiling, the small add, then user kernels
                             (build/bench_kernels.fatbin, or GPUARR_BENCH_MODULE)
                             beside the built-in calls they replace

   GB/s counts bytes read plus bytes written once (a broadcast operand
   once, not once per use). The device copy row is the ceiling the other
   memory-bound rows are compared with. Host rows (note "host time" or
   "wall time") have no GB/s: they are wall-clock microseconds per call. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 3
#define REPS 20

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double wall_us(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench: %s: %s\n", what, ga_last_error_message());
    exit(1);
}

/* Times op(arg) on the current stream with events: the median of REPS runs
   after WARMUP, in microseconds. */
typedef void (*op_fn)(void *arg);
static double time_device(op_fn op, void *arg)
{
    ga_event *start = ga_event_create(true), *stop = ga_event_create(true);
    double t[REPS];
    for (int i = 0; i < WARMUP; i++) op(arg);
    for (int i = 0; i < REPS; i++) {
        ga_event_record(start, NULL);
        op(arg);
        ga_event_record(stop, NULL);
        ga_event_synchronize(stop);
        float ms = 0;
        ga_event_elapsed_ms(start, stop, &ms);
        t[i] = ms * 1e3;
    }
    ga_event_destroy(start);
    ga_event_destroy(stop);
    if (ga_last_error() != GA_OK) fail("timing");
    return median(t, REPS);
}

/* The device time per call of an op too short to time alone (a call's host
   cost is as long as its kernel): QUEUED calls between the events, issued
   while a 1 GiB copy keeps the GPU busy, so that they run back to back.
   The median of REPS samples, in microseconds per call. */
#define QUEUED 64
typedef struct raw raw;
static void op_raw_dtod(void *p);
static double time_queued(op_fn op, void *arg, raw *blocker)
{
    ga_event *start = ga_event_create(true), *stop = ga_event_create(true);
    double t[REPS];
    for (int i = 0; i < WARMUP; i++) op(arg);
    for (int i = 0; i < REPS; i++) {
        op_raw_dtod(blocker);
        ga_event_record(start, NULL);
        for (int k = 0; k < QUEUED; k++) op(arg);
        ga_event_record(stop, NULL);
        ga_event_synchronize(stop);
        float ms = 0;
        ga_event_elapsed_ms(start, stop, &ms);
        t[i] = ms * 1e3 / QUEUED;
    }
    ga_event_destroy(start);
    ga_event_destroy(stop);
    if (ga_last_error() != GA_OK) fail("queued timing");
    return median(t, REPS);
}

static void row(const char *name, int64_t n, const char *dtype, double us, double bytes, const char *note)
{
    printf("%s|%lld|%s|%.3f|%.1f|%s\n", name, (long long)n, dtype, us, bytes > 0 ? bytes / us * 1e-3 : 0.0, note);
    fflush(stdout);
}

/* --- the ops --------------------------------------------------------------- */

typedef struct pair { ga_array *dst, *src; } pair;
struct raw { uint64_t dst, src; void *host; size_t bytes; };

static void op_raw_dtod(void *p) { raw *r = (raw *)p; GA__CU.MemcpyDtoDAsync(r->dst, r->src, r->bytes, NULL); }
static void op_raw_htod(void *p) { raw *r = (raw *)p; GA__CU.MemcpyHtoDAsync(r->dst, r->host, r->bytes, NULL); }
static void op_raw_dtoh(void *p) { raw *r = (raw *)p; GA__CU.MemcpyDtoHAsync(r->host, r->src, r->bytes, NULL); }
static void op_copyto(void *p) { pair *q = (pair *)p; ga_copyto(q->dst, q->src, GA_CASTING_UNSAFE); }
static void op_upload(void *p) { raw *r = (raw *)p; ga_copy_from_host_async((ga_array *)(uintptr_t)r->dst, r->host, r->bytes); }
static void op_download(void *p) { raw *r = (raw *)p; ga_to_host_async((ga_array *)(uintptr_t)r->src, r->host, r->bytes); }
static void op_fill(void *p) { ga_release(ga_full(1, (const int64_t *)p, ga_float(1.5), GA_FLOAT32)); }

/* ufuncs: a op b into a preallocated out (NumPy's out=), or into a new array
   (allocated from the pool and released inside the timed region) */
typedef struct ufunc_args { const ga_array *a, *b; ga_array *out; } ufunc_args;
static void op_add_out(void *p) { ufunc_args *u = (ufunc_args *)p; ga_add_out(u->a, u->b, u->out); }
static void op_multiply_out(void *p) { ufunc_args *u = (ufunc_args *)p; ga_multiply_out(u->a, u->b, u->out); }
static void op_exp_out(void *p) { ufunc_args *u = (ufunc_args *)p; ga_exp_out(u->a, u->out); }
static void op_add_new(void *p) { ufunc_args *u = (ufunc_args *)p; ga_release(ga_add(u->a, u->b)); }
static void op_multiply_2_new(void *p) { ufunc_args *u = (ufunc_args *)p; ga_release(ga_multiply_scalar(u->a, ga_int(2))); }

/* reductions: a new result each call, as a.sum() */
typedef struct reduce_args { const ga_array *a; int naxes; int axis; } reduce_args;
static void op_sum(void *p) { reduce_args *r = (reduce_args *)p; ga_release(ga_sum(r->a, r->naxes, r->naxes ? &r->axis : NULL, false)); }
/* op on the next of ROTATE argument structs, one after the other */
#define ROTATE 8
typedef struct rotation { op_fn op; void *args; size_t size; int next; } rotation;
static void op_rotating(void *p)
{
    rotation *r = (rotation *)p;
    r->op((char *)r->args + r->size * (size_t)r->next);
    r->next = (r->next + 1) % ROTATE;
}
static void op_argmax(void *p) { reduce_args *r = (reduce_args *)p; ga_release(ga_argmax(r->a, GA_AXIS_NONE, false)); }
static void op_prod(void *p) { reduce_args *r = (reduce_args *)p; ga_release(ga_prod(r->a, GA_ALL_AXES, false)); }
static void op_max(void *p) { reduce_args *r = (reduce_args *)p; ga_release(ga_max(r->a, GA_ALL_AXES, false)); }

/* sorting and scans (gpuarr.h >>sort): a new result each call */
static void op_sort(void *p) { ga_release(ga_sort((const ga_array *)p, -1)); }
static void op_argsort(void *p) { ga_release(ga_argsort((const ga_array *)p, -1)); }
static void op_cumsum(void *p) { ga_release(ga_cumsum((const ga_array *)p, 0, GA_DTYPE_INVALID)); }
/* a[a > 0.5] as a user writes it: the comparison, then the mask. */
static void op_mask_select(void *p)
{
    ga_array *a = (ga_array *)p, *m = ga_greater_scalar(a, ga_float(0.5));
    ga_release(ga_index_mask(a, m));
    ga_release(m);
}

/* sets and histograms (gpuarr.h >>sort): a new result each call */
static void op_matmul(void *p) { ufunc_args *u = (ufunc_args *)p; ga_release(ga_matmul(u->a, u->b)); }
static void op_dot(void *p) { ufunc_args *u = (ufunc_args *)p; ga_release(ga_dot(u->a, u->b)); }

/* sin(0), sin(1), ... as an array of `shape` and `dtype`: operands with
   no pattern a product could exploit. */
static ga_array *bench_values(int ndim, const int64_t *shape, ga_dtype dtype)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    ga_array *i = ga_arange_int(0, n, 1, GA_FLOAT64), *s = i ? ga_sin(i) : NULL;
    ga_array *r = s ? ga_reshape(s, ndim, shape) : NULL, *c = r ? ga_astype(r, dtype) : NULL;
    ga_release(i), ga_release(s), ga_release(r);
    return c;
}

/* matmul of (batch, m, k) and (batch, k, n) random arrays of `dtype`, a new
   result each call: its time and TFLOP/s (complex: 8 flops a term). */
static void matmul_row(const char *name, int64_t batch, int64_t m, int64_t k, int64_t n, ga_dtype dtype)
{
    const int64_t sa[3] = {batch, m, k}, sb[3] = {batch, k, n};
    ga_array *a = bench_values(3, sa, dtype), *b = bench_values(3, sb, dtype);
    if (!a || !b) fail("matmul operands");
    ufunc_args u = {a, b, NULL};
    double t = time_device(op_matmul, &u);
    double flops = (ga_dtype_kind(dtype) == 'c' ? 8.0 : 2.0) * (double)batch * (double)m * (double)n * (double)k;
    char note[64];
    snprintf(note, sizeof note, "%.1f TFLOP/s, new result", flops / t * 1e-6);
    row(name, batch * m * n, ga_dtype_name(dtype), t, 0, note);
    ga_release(a), ga_release(b);
}

static const double unit_range[2] = {0.0, 1.0};
static void op_unique(void *p) { ga_release(ga_unique((const ga_array *)p, NULL, NULL, NULL, true)); }
static void op_histogram_range(void *p) { ga_release(ga_histogram((const ga_array *)p, 256, NULL, unit_range, false, NULL, NULL)); }
static void op_histogram(void *p) { ga_release(ga_histogram((const ga_array *)p, 256, NULL, NULL, false, NULL, NULL)); }

static void keys_row(const char *name, int64_t n, double us, const char *what)
{
    char note[64];
    snprintf(note, sizeof note, "%.2f Gkeys/s, %s", (double)n / us * 1e-3, what);
    row(name, n, "float32", us, 0, note);
}

/* Wall time per call of op(arg) on the host, in microseconds: the median of
   9 samples of `calls` calls, each ending with a device synchronisation,
   after `calls` calls of warm-up. */
static double time_host(op_fn op, void *arg, int calls)
{
    double samples[9];
    for (int i = 0; i < calls; i++) op(arg);
    ga_device_synchronize();
    for (int k = 0; k < 9; k++) {
        double t0 = wall_us();
        for (int i = 0; i < calls; i++) op(arg);
        ga_device_synchronize();
        samples[k] = (wall_us() - t0) / calls;
    }
    if (ga_last_error() != GA_OK) fail("host timing");
    return median(samples, 9);
}

/* The small add's host cost, the yardstick of the other host rows of a
   run of some rows alone. */
static void small_add_row(void)
{
    ga_array *sa = ga_ones(1, (const int64_t[]){1000}, GA_FLOAT32), *sc = ga_empty(1, (const int64_t[]){1000}, GA_FLOAT32);
    ufunc_args sadd = {sa, sa, sc};
    row("small add into out (1000)", 1000, "float32", time_host(op_add_out, &sadd, 20000), 0, "wall time per op");
    ga_release(sa), ga_release(sc);
}

/* --- user kernels (>>kernel) ----------------------------------------------- */

typedef struct user_args {
    const ga_elementwise_kernel *ew;
    const ga_reduction_kernel *red;
    const ga_array *a, *b;
    ga_array *out;
} user_args;
static void op_user_ew_out(void *p)
{
    user_args *u = (user_args *)p;
    ga_array *out[1] = {u->out};
    ga_operand in[2] = {ga_operand_array(u->a), ga_operand_array(u->b)};
    ga_elementwise_call(u->ew, ga_elementwise_nin(u->ew), in, 1, out);
}
static void op_user_red(void *p)
{
    user_args *u = (user_args *)p;
    ga_array *out = NULL;
    ga_operand in[2] = {ga_operand_array(u->a), ga_operand_array(u->b)};
    ga_reduction_kernel_call(u->red, 2, in, 0, NULL, false, &out);
    ga_release(out);
}
static void op_softplus_two_calls(void *p)
{
    user_args *u = (user_args *)p;
    ga_array *e = ga_exp(u->a);
    ga_log1p_out(e, u->out);
    ga_release(e);
}
static void op_sumsq_three_calls(void *p)
{
    user_args *u = (user_args *)p;
    ga_array *d = ga_subtract(u->a, u->b), *q = ga_square(d), *s = ga_sum(q, 0, NULL, false);
    ga_release(d), ga_release(q), ga_release(s);
}

static void bench_user_kernels(void)
{
    const char *path = getenv("GPUARR_BENCH_MODULE");
    ga_module *m = ga_module_load(path && *path ? path : "build/bench_kernels.fatbin");
    ga_elementwise_kernel *add = m ? ga_module_elementwise(m, "add") : NULL;
    ga_elementwise_kernel *softplus = m ? ga_module_elementwise(m, "softplus") : NULL;
    ga_reduction_kernel *ssd = m ? ga_module_reduction(m, "sumsq_diff") : NULL;
    if (!add || !softplus || !ssd) fail("the bench module (make build/bench_kernels.fatbin)");
    const int64_t n28 = (int64_t)1 << 28;
    const double n = (double)n28;
    ga_array *a = ga_full(1, &n28, ga_float(0.5), GA_FLOAT32), *b = ga_full(1, &n28, ga_float(1.5), GA_FLOAT32);
    ga_array *c = ga_empty(1, &n28, GA_FLOAT32);
    if (!a || !b || !c) fail("user kernel operands");
    ufunc_args f32 = {a, b, c};
    row("add float32 (out=)", n28, "float32", time_device(op_add_out, &f32), 12.0 * n, "built-in");
    user_args ua = {add, NULL, a, b, c};
    row("user add float32 (out=)", n28, "float32", time_device(op_user_ew_out, &ua), 12.0 * n, "GA_ELEMENTWISE");
    user_args sp = {softplus, NULL, a, NULL, c};
    row("softplus float32 fused (out=)", n28, "float32", time_device(op_user_ew_out, &sp), 8.0 * n, "GA_ELEMENTWISE");
    row("softplus float32, exp then log1p", n28, "float32", time_device(op_softplus_two_calls, &sp), 8.0 * n,
        "two built-in calls");
    user_args rs = {NULL, ssd, a, b, NULL};
    row("sum((x-y)**2) float32 fused", n28, "float32", time_device(op_user_red, &rs), 8.0 * n, "GA_REDUCTION");
    row("sum((x-y)**2) float32, three calls", n28, "float32", time_device(op_sumsq_three_calls, &rs), 8.0 * n,
        "subtract, square, sum");
    ga_release(a), ga_release(b), ga_release(c);
    ga_array *sa = ga_ones(1, (const int64_t[]){1000}, GA_FLOAT32), *sc = ga_empty(1, (const int64_t[]){1000}, GA_FLOAT32);
    user_args small = {add, NULL, sa, sa, sc};
    row("small user add into out (1000)", 1000, "float32", time_host(op_user_ew_out, &small, 20000), 0,
        "wall time per op");
    ga_release(sa), ga_release(sc);
    ga_module_release(m);
}

/* A linalg function of one or two arrays, a new result each call (the
   two-result ones release both). */
typedef struct linalg_args {
    int kind;
    const ga_array *a, *b;
} linalg_args;
enum { L_SOLVE, L_CHOLESKY, L_QR, L_EIGH, L_SVD, L_EIG, L_INV, L_DET, L_PINV, L_LSTSQ, L_NORM, L_EINSUM, L_TENSORDOT };
static void op_linalg(void *p)
{
    const linalg_args *l = (const linalg_args *)p;
    ga_array *x = NULL, *y = NULL, *z = NULL, *w = NULL;
    switch (l->kind) {
    case L_SOLVE: x = ga_linalg_solve(l->a, l->b); break;
    case L_CHOLESKY: x = ga_linalg_cholesky(l->a, false); break;
    case L_QR: ga_linalg_qr(l->a, GA_QR_REDUCED, &x, &y); break;
    case L_EIGH: ga_linalg_eigh(l->a, 'L', &x, &y); break;
    case L_SVD: ga_linalg_svd(l->a, false, &x, &y, &z); break;
    case L_EIG: ga_linalg_eig(l->a, &x, &y); break;
    case L_INV: x = ga_linalg_inv(l->a); break;
    case L_DET: x = ga_linalg_det(l->a); break;
    case L_PINV: x = ga_linalg_pinv(l->a, NAN); break;
    case L_LSTSQ: ga_linalg_lstsq(l->a, l->b, NAN, &x, &y, &z, &w); break;
    case L_NORM: x = ga_linalg_matrix_norm(l->a, GA_NORM_FRO, false); break;
    case L_EINSUM: {
        const ga_array *ops[2] = {l->a, l->b};
        x = ga_einsum("ijk,kl->ijl", 2, ops);
        break;
    }
    default: x = ga_tensordot(l->a, l->b, 1); break;
    }
    ga_release(x), ga_release(y), ga_release(z), ga_release(w);
}

/* batch matrices of n x n, well conditioned: B B^T + n I of sin(0), sin(1), ... */
static ga_array *spd_matrices(int64_t batch, int64_t n, ga_dtype dtype)
{
    const int64_t s3[3] = {batch, n, n};
    ga_array *b = bench_values(3, s3, dtype), *bt = b ? ga_swapaxes(b, -1, -2) : NULL, *bb = bt ? ga_matmul(b, bt) : NULL;
    ga_array *e = ga_eye(n, n, 0, dtype), *ne = e ? ga_multiply_scalar(e, ga_float((double)n)) : NULL;
    ga_array *r = bb && ne ? ga_add(bb, ne) : NULL;
    ga_release(b), ga_release(bt), ga_release(bb), ga_release(e), ga_release(ne);
    if (!r) fail("spd operands");
    return r;
}

static void linalg_row(const char *name, int kind, const ga_array *a, const ga_array *b, int64_t n, const char *dtype)
{
    linalg_args l = {kind, a, b};
    row(name, n, dtype, time_device(op_linalg, &l), 0, "new result");
}

/* The decompositions and solvers (cuSOLVER) at PERF.md's sizes, the
   batches of 10000 8 x 8 matrices, einsum and tensordot, the norm. */
static void bench_solvers(void)
{
    ga_array *a64 = spd_matrices(1, 4096, GA_FLOAT64), *a32 = spd_matrices(1, 4096, GA_FLOAT32);
    ga_array *a2k = spd_matrices(1, 2048, GA_FLOAT32), *a1k = spd_matrices(1, 1024, GA_FLOAT32);
    const int64_t sb[2] = {4096, 1}, st[2] = {4096, 64};
    ga_array *b64 = bench_values(2, sb, GA_FLOAT64), *tall = bench_values(2, st, GA_FLOAT32), *rhs = bench_values(2, st, GA_FLOAT32);
    if (!b64 || !tall || !rhs) fail("solver operands");
    /* the squares, 2-d: views of the stacks of one */
    const int64_t s4[2] = {4096, 4096}, s2[2] = {2048, 2048}, s1[2] = {1024, 1024};
    ga_array *m64 = ga_reshape(a64, 2, s4), *m32 = ga_reshape(a32, 2, s4), *m2k = ga_reshape(a2k, 2, s2), *m1k = ga_reshape(a1k, 2, s1);
    linalg_row("solve float64 4096", L_SOLVE, m64, b64, 4096 * 4096, "float64");
    linalg_row("cholesky float32 4096", L_CHOLESKY, m32, NULL, 4096 * 4096, "float32");
    linalg_row("qr float32 4096", L_QR, m32, NULL, 4096 * 4096, "float32");
    linalg_row("inv float32 4096", L_INV, m32, NULL, 4096 * 4096, "float32");
    linalg_row("det float32 4096", L_DET, m32, NULL, 4096 * 4096, "float32");
    linalg_row("eigh float32 2048", L_EIGH, m2k, NULL, 2048 * 2048, "float32");
    linalg_row("svd float32 2048", L_SVD, m2k, NULL, 2048 * 2048, "float32");
    ga__svd_gram_min = INT64_MAX; /* gesvd, for comparison */
    linalg_row("svd float32 2048 (gesvd)", L_SVD, m2k, NULL, 2048 * 2048, "float32");
    ga__svd_gram_min = 256;
    for (int64_t e = 256; e <= 512; e *= 2) { /* the Gram path's smallest sizes, both ways */
        const int64_t se[2] = {e, e};
        ga_array *ae = spd_matrices(1, e, GA_FLOAT32), *me = ga_reshape(ae, 2, se);
        char name[48];
        snprintf(name, sizeof name, "svd float32 %lld", (long long)e);
        linalg_row(name, L_SVD, me, NULL, e * e, "float32");
        ga__svd_gram_min = INT64_MAX;
        snprintf(name, sizeof name, "svd float32 %lld (gesvd)", (long long)e);
        linalg_row(name, L_SVD, me, NULL, e * e, "float32");
        ga__svd_gram_min = 256;
        ga_release(me), ga_release(ae);
    }
    linalg_row("eig float32 1024", L_EIG, m1k, NULL, 1024 * 1024, "float32");
    linalg_row("pinv float32 1024", L_PINV, m1k, NULL, 1024 * 1024, "float32");
    linalg_row("lstsq float32 (4096,64), 64 right sides", L_LSTSQ, tall, rhs, 4096 * 64, "float32");
    linalg_row("norm (Frobenius) float32 4096^2", L_NORM, m32, NULL, 4096 * 4096, "float32");
    /* the norm's device time per call: calls queued behind a 1 GiB copy (a
       single call's time above includes the host's work before its kernel
       starts), two matrices in turn (128 MB, past the L2 cache) */
    const int64_t n28 = (int64_t)1 << 28;
    ga_array *m32b = ga_copy(m32), *ba = ga_empty(1, &n28, GA_FLOAT32), *bb = ga_empty(1, &n28, GA_FLOAT32);
    if (!m32b || !ba || !bb) fail("norm operands");
    raw blocker = {(uint64_t)(uintptr_t)ga_data(bb), (uint64_t)(uintptr_t)ga_data(ba), NULL, (size_t)n28 * 4};
    linalg_args norms[ROTATE];
    for (int k = 0; k < ROTATE; k++) norms[k] = (linalg_args){L_NORM, k % 2 ? m32b : m32, NULL};
    rotation norm_rot = {op_linalg, norms, sizeof norms[0], 0};
    row("norm (Frobenius) float32 4096^2, calls queued", 4096 * 4096, "float32", time_queued(op_rotating, &norm_rot, &blocker),
        4.0 * 4096 * 4096, "new result");
    ga_release(m32b), ga_release(ba), ga_release(bb);
    ga_array *s8 = spd_matrices(10000, 8, GA_FLOAT32);
    const int64_t sv[3] = {10000, 8, 1};
    ga_array *v8 = bench_values(3, sv, GA_FLOAT32);
    linalg_row("batched 10000 x (8,8) float32 inv", L_INV, s8, NULL, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 solve", L_SOLVE, s8, v8, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 cholesky", L_CHOLESKY, s8, NULL, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 eigh", L_EIGH, s8, NULL, 640000, "float32");
    /* the same without the info words' read (CuPy's default: cupyx.errstate(linalg='ignore')) */
    ga_linalg_err err = ga_linalg_seterr(GA_LINALG_IGNORE);
    linalg_row("batched 10000 x (8,8) float32 inv, GA_LINALG_IGNORE", L_INV, s8, NULL, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 solve, GA_LINALG_IGNORE", L_SOLVE, s8, v8, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 cholesky, GA_LINALG_IGNORE", L_CHOLESKY, s8, NULL, 640000, "float32");
    linalg_row("batched 10000 x (8,8) float32 eigh, GA_LINALG_IGNORE", L_EIGH, s8, NULL, 640000, "float32");
    ga_linalg_seterr(err);
    const int64_t e1[3] = {64, 128, 256}, e2[2] = {256, 512};
    ga_array *x3 = bench_values(3, e1, GA_FLOAT32), *y2 = bench_values(2, e2, GA_FLOAT32);
    linalg_row("einsum ijk,kl->ijl (64,128,256)(256,512)", L_EINSUM, x3, y2, 64 * 128 * 512, "float32");
    linalg_row("tensordot same, axes=1", L_TENSORDOT, x3, y2, 64 * 128 * 512, "float32");
    ga_release(x3), ga_release(y2), ga_release(s8), ga_release(v8), ga_release(m64), ga_release(m32), ga_release(m2k);
    ga_release(m1k), ga_release(a64), ga_release(a32), ga_release(a2k), ga_release(a1k), ga_release(b64), ga_release(tall);
    ga_release(rhs);
}

/* The FFT rows (cuFFT): a new result each call. `bench --fft` runs these
   rows alone, after the copy ceiling and the small add's host cost. */
typedef struct fft_args {
    int kind; /* 0 fft, 1 rfft, 2 fft2 */
    const ga_array *a;
    int axis;
} fft_args;
static void op_fft(void *p)
{
    const fft_args *f = (const fft_args *)p;
    if (f->kind == 0) ga_release(ga_fft_fft(f->a, GA_NONE, f->axis, GA_FFT_NORM_BACKWARD));
    else if (f->kind == 1) ga_release(ga_fft_rfft(f->a, GA_NONE, f->axis, GA_FFT_NORM_BACKWARD));
    else ga_release(ga_fft_fft2(f->a, 0, NULL, 0, NULL, GA_FFT_NORM_BACKWARD));
}
static void fft_row(const char *name, int kind, const ga_array *a, int axis, double out_itemsize)
{
    fft_args f = {kind, a, axis};
    const double n = (double)ga_size(a);
    const double bytes = n * (double)ga_dtype_itemsize(ga_dtype_of(a)) + (kind == 1 ? n / 2 : n) * out_itemsize;
    row(name, ga_size(a), ga_dtype_name(ga_dtype_of(a)), time_device(op_fft, &f), bytes, "new result, read + written once");
}
/* The sparse rows (cuSPARSE and the sparse kernels): a 4M x 4M CSR float32
   matrix with 8 random columns a row (32M entries, canonical), products
   with a vector and with an (n, 8) C-ordered matrix, conversions (CSR ->
   CSC by both of the section's conversions), the row
   sums, and the sum of two 256k x 256k matrices of 16 entries a row. A new
   result each call. `bench --sparse` runs these alone. */
typedef struct sparse_args {
    const ga_sparse *a, *b;
    const ga_array *x;
    int kind; /* 0 matmul, 1 tocsc, 2 tocsr, 3 sum axis 1, 4 add, 5 sparse @ sparse */
} sparse_args;
static void op_sparse(void *p)
{
    const sparse_args *s = (const sparse_args *)p;
    switch (s->kind) {
    case 0: ga_release(ga_sparse_matmul(s->a, s->x)); break;
    case 1: ga_sparse_release(ga_sparse_tocsc(s->a)); break;
    case 2: ga_sparse_release(ga_sparse_tocsr(s->a)); break;
    case 3: ga_release(ga_sparse_sum(s->a, 1)); break;
    case 4: ga_sparse_release(ga_sparse_add(s->a, s->b)); break;
    default: ga_sparse_release(ga_sparse_matmul_sparse(s->a, s->b)); break;
    }
}

/* A canonical n x n CSR float32 matrix of about k random columns a row, but
   about `hub` in row 0 where hub > 0. */
static ga_sparse *random_csr_hub(ga_generator *g, int64_t n, int64_t k, int64_t hub)
{
    const int64_t first = hub > 0 ? hub : k;
    int64_t nnz = first + (n - 1) * k;
    ga_array *cols = ga_random_integers(g, ga_int(0), ga_int(n), 1, &nnz, GA_INT32, false);
    ga_array *data = ga_random_random(g, 1, &nnz, GA_FLOAT32);
    int32_t *ptr = malloc((size_t)(n + 1) * sizeof *ptr);
    if (!ptr) fail("host memory");
    ptr[0] = 0;
    for (int64_t r = 1; r <= n; r++) ptr[r] = (int32_t)(first + (r - 1) * k);
    int64_t len = n + 1;
    ga_array *indptr = ga_from_host(ptr, 1, &len, GA_INT32);
    free(ptr);
    ga_sparse *a = ga_sparse_csr_matrix(data, cols, indptr, (const int64_t[]){n, n});
    if (!a || ga_sparse_sum_duplicates(a) != GA_OK) fail("random CSR matrix");
    ga_release(cols), ga_release(data), ga_release(indptr);
    return a;
}

static ga_sparse *random_csr(ga_generator *g, int64_t n, int64_t k) { return random_csr_hub(g, n, k, 0); }

static void bench_sparse(void)
{
    const int64_t n = 1 << 22, k = 8;
    ga_generator *g = ga_random_default_rng((const uint32_t[]){1}, 1);
    ga_sparse *a = random_csr(g, n, k);
    const int64_t nnz = ga_sparse_nnz(a);
    /* a COO of the same columns with rows i // 8: not canonical */
    ga_array *rows = ga_floor_divide_scalar(ga_arange_int(0, nnz, 1, GA_INT32), ga_int(k));
    ga_array *x = ga_random_random(g, 1, &n, GA_FLOAT32), *x8 = ga_random_random(g, 2, (const int64_t[]){n, 8}, GA_FLOAT32);
    ga_sparse *coo = ga_sparse_tocoo(a);
    ga_array *cols = ga_sparse_col(coo), *data = ga_sparse_data(coo);
    ga_sparse *raw_coo = rows && cols && data ? ga_sparse_coo_matrix(data, rows, cols, (const int64_t[]){n, n}) : NULL;
    ga_sparse *b = random_csr(g, 1 << 18, 16), *b2 = random_csr(g, 1 << 18, 16);
    if (!x || !x8 || !coo || !raw_coo || !b || !b2) fail("sparse inputs");
    /* bytes: values, indices, indptr and x read, y written */
    const double mat = (double)nnz * 8 + (double)(n + 1) * 4;
    sparse_args s = {a, NULL, x, 0};
    row("SpMV CSR float32 4M^2, 32M nnz", nnz, "float32", time_device(op_sparse, &s), mat + 8.0 * (double)n, "new result");
    s.x = x8;
    row("SpMM CSR float32 4M^2 x (4M,8)", nnz, "float32", time_device(op_sparse, &s), mat + 64.0 * (double)n, "new result");
    s.kind = 1;
    row("CSR -> CSC, 32M nnz", nnz, "float32", time_device(op_sparse, &s), 2 * mat, "new result");
    ga__sparse_swap_path = 1; /* the digit passes, for comparison */
    row("CSR -> CSC, 32M nnz (digit passes)", nnz, "float32", time_device(op_sparse, &s), 2 * mat, "new result");
    ga__sparse_swap_path = 0;
    s.a = coo, s.kind = 2;
    row("COO -> CSR, 32M nnz (canonical)", nnz, "float32", time_device(op_sparse, &s), 0, "new result");
    s.a = raw_coo;
    row("COO -> CSR, 32M nnz (sum duplicates)", nnz, "float32", time_device(op_sparse, &s), 0, "new result");
    s.a = a, s.kind = 3;
    row("sum axis 1, 32M nnz", nnz, "float32", time_device(op_sparse, &s), (double)nnz * 4 + (double)n * 8, "new result");
    sparse_args p = {b, b2, NULL, 4};
    row("CSR + CSR 256k^2, 4M nnz each", ga_sparse_nnz(b), "float32", time_device(op_sparse, &p), 0, "new result");
    /* the same sum where one row holds a million entries (a graph's hub) */
    ga_sparse *h = random_csr_hub(g, n, k, 1000000), *h2 = random_csr_hub(g, n, k, 1000000);
    if (!h || !h2) fail("sparse inputs");
    sparse_args ph = {h, h2, NULL, 4};
    row("CSR + CSR 4M^2, 8 a row, row 0 1M", ga_sparse_nnz(h), "float32", time_device(op_sparse, &ph), 0, "new result");
    ga_sparse_release(h), ga_sparse_release(h2);
    sparse_args q = {b, b, NULL, 5};
    row("SpGEMM 256k^2, 16 a row, squared", ga_sparse_nnz(b), "float32", time_device(op_sparse, &q), 0, "new result");
    ga_sparse_release(a), ga_sparse_release(coo), ga_sparse_release(raw_coo), ga_sparse_release(b), ga_sparse_release(b2);
    ga_release(x), ga_release(x8), ga_release(rows), ga_release(cols), ga_release(data);
    ga_generator_release(g);
}

/* The NCCL rows (`bench --nccl`): an all_reduce (sum) of 1 GiB float32,
   out of place, over every GPU from this thread, through gpuarr and through
   a plain ncclAllReduce loop of NCCL's own entry points in the same run,
   as bus bandwidth (NCCL's busbw: 2 (n - 1) / n bytes over the time; the
   time the slowest GPU's, between events on each GPU's stream); and a
   1 GiB peer copy, ga_to_device beside cuMemcpyPeerAsync on the same
   stream. NVLink multicast off (NCCL_NVLS_ENABLE=0 unless set). */
typedef struct nccl_args {
    int ndev;
    ga_nccl_comm **comms;
    ga_array **x, **y;
    bool raw;
} nccl_args;

static void op_all_reduce(void *p)
{
    const nccl_args *a = (const nccl_args *)p;
    if (a->raw) {
        ga__nccl.ncclGroupStart();
        for (int i = 0; i < a->ndev; i++)
            ga__nccl.ncclAllReduce(ga_data(a->x[i]), ga_data(a->y[i]), (size_t)ga_size(a->x[i]), GA__NCCL_FLOAT32,
                                   GA__NCCL_SUM, a->comms[i]->handle, ga__stream_of(i));
        ga__nccl.ncclGroupEnd();
        return;
    }
    ga_nccl_group_start();
    for (int i = 0; i < a->ndev; i++) ga_nccl_all_reduce(a->comms[i], a->x[i], a->y[i], GA_NCCL_SUM);
    ga_nccl_group_end();
}

/* op(arg) timed across devices 0 .. n-1 (the NCCL and darray rows): each
   device's current stream waits for a start event recorded on device 0's,
   device 0's waits for each device's end, and the span from the first
   start to the last end is measured on device 0. The median of REPS runs
   after WARMUP, in microseconds; the caller's current device is kept. */
static double time_devices(op_fn op, void *arg, int n)
{
    ga_event *start = NULL, *stop = NULL, *done[GA_MAX_DEVICES] = {NULL};
    ga_device_push(0);
    start = ga_event_create(true), stop = ga_event_create(true);
    ga_device_pop();
    for (int d = 1; d < n; d++) {
        ga_device_push(d);
        done[d] = ga_event_create(false);
        ga_device_pop();
    }
    double t[REPS];
    for (int i = 0; i < WARMUP; i++) op(arg);
    for (int i = 0; i < REPS; i++) {
        ga_device_push(0);
        ga_event_record(start, NULL);
        ga_device_pop();
        for (int d = 1; d < n; d++) {
            ga_device_push(d);
            ga_stream_wait_event(NULL, start);
            ga_device_pop();
        }
        op(arg);
        for (int d = 1; d < n; d++) {
            ga_device_push(d);
            ga_event_record(done[d], NULL);
            ga_device_pop();
            ga_device_push(0);
            ga_stream_wait_event(NULL, done[d]);
            ga_device_pop();
        }
        ga_device_push(0);
        ga_event_record(stop, NULL);
        ga_event_synchronize(stop);
        float ms = 0;
        ga_event_elapsed_ms(start, stop, &ms);
        ga_device_pop();
        t[i] = ms * 1e3;
    }
    ga_event_destroy(start), ga_event_destroy(stop);
    for (int d = 1; d < n; d++) ga_event_destroy(done[d]);
    if (ga_last_error() != GA_OK) fail("timing across devices");
    return median(t, REPS);
}

typedef struct a2a_args { int ndev; ga_nccl_comm **comms; ga_array **x, **y; } a2a_args;
static void op_all_to_all(void *p)
{
    const a2a_args *a = (const a2a_args *)p;
    ga_nccl_group_start();
    for (int i = 0; i < a->ndev; i++) ga_nccl_all_to_all(a->comms[i], a->x[i], a->y[i]);
    ga_nccl_group_end();
}

typedef struct peer_args { const ga_array *src; uint64_t dst; bool raw; } peer_args;
static void op_peer(void *p)
{
    const peer_args *a = (const peer_args *)p;
    if (a->raw)
        GA__CU.MemcpyPeerAsync((CUdeviceptr)a->dst, ga__g.devices[1].context, (CUdeviceptr)(uintptr_t)ga_data(a->src),
                               ga__g.devices[0].context, ga_nbytes(a->src), ga__stream_of(1));
    else
        ga_release(ga_to_device(a->src, 1));
}

static void bench_nccl(void)
{
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    int ndev = ga_device_count();
    if (ndev > GA_MAX_DEVICES) ndev = GA_MAX_DEVICES;
    const int64_t n = (int64_t)1 << 28; /* 1 GiB of float32 */
    ga_nccl_comm *comms[GA_MAX_DEVICES];
    ga_array *x[GA_MAX_DEVICES], *y[GA_MAX_DEVICES];
    if (ga_nccl_comm_init_all(ndev, NULL, comms) != GA_OK) fail("ga_nccl_comm_init_all");
    for (int i = 0; i < ndev; i++) {
        ga_device_set(i);
        x[i] = ga_ones(1, &n, GA_FLOAT32), y[i] = ga_empty(1, &n, GA_FLOAT32);
        if (!x[i] || !y[i]) fail("all_reduce inputs");
    }
    ga_device_set(0);
    printf("# NCCL %d, %d GPU%s, NCCL_NVLS_ENABLE=%s\n", ga_nccl_version(), ndev, ndev == 1 ? "" : "s",
           getenv("NCCL_NVLS_ENABLE"));
    const double bus = 2.0 * (ndev - 1) / ndev * 4.0 * (double)n; /* bytes, busbw's */
    nccl_args raw = {ndev, comms, x, y, true}, ours = {ndev, comms, x, y, false};
    const double t_raw = time_devices(op_all_reduce, &raw, ndev), t_ours = time_devices(op_all_reduce, &ours, ndev);
    char name[64], note[96];
    snprintf(name, sizeof name, "all_reduce 1 GiB, %d GPUs, NCCL", ndev);
    row(name, n, "float32", t_raw, bus, "ncclAllReduce loop: bus bandwidth");
    snprintf(name, sizeof name, "all_reduce 1 GiB, %d GPUs", ndev);
    snprintf(note, sizeof note, "ga_nccl_all_reduce: bus bandwidth, %.3f x NCCL's", t_raw / t_ours);
    row(name, n, "float32", t_ours, bus, note);
    /* all_to_all of the same buffers as (ndev, n / ndev): ncclAlltoAll where NCCL has it, then the group of
       sends and receives (GPUARR_NCCL_ALLTOALL=0) */
    ga_array *xs[GA_MAX_DEVICES] = {NULL}, *ys[GA_MAX_DEVICES] = {NULL};
    const int64_t blocks[2] = {ndev, n / ndev};
    for (int i = 0; i < ndev && n % ndev == 0; i++) {
        ga_device_set(i);
        xs[i] = ga_reshape(x[i], 2, blocks), ys[i] = ga_reshape(y[i], 2, blocks);
        if (!xs[i] || !ys[i]) fail("all_to_all views");
    }
    ga_device_set(0);
    a2a_args aa = {ndev, comms, xs, ys};
    const double a2a_bytes = (double)(ndev - 1) / ndev * 4.0 * (double)n; /* busbw's */
    if (n % ndev) printf("# %d GPUs do not divide 2^28: no all_to_all rows\n", ndev);
    const double t_native = n % ndev ? 0 : time_devices(op_all_to_all, &aa, ndev);
    setenv("GPUARR_NCCL_ALLTOALL", "0", 1);
    const double t_group = n % ndev ? 0 : time_devices(op_all_to_all, &aa, ndev);
    unsetenv("GPUARR_NCCL_ALLTOALL");
    if (n % ndev == 0) {
        snprintf(name, sizeof name, "all_to_all 1 GiB, %d GPUs", ndev);
        snprintf(note, sizeof note, "%s: bus bandwidth",
                 ga_nccl_version() >= 22803 ? "ncclAlltoAll" : "send/recv group (no ncclAlltoAll)");
        row(name, n, "float32", t_native, a2a_bytes, note);
        snprintf(name, sizeof name, "all_to_all 1 GiB, %d GPUs, group", ndev);
        snprintf(note, sizeof note, "send/recv group: %.3f x the row above's time", t_group / t_native);
        row(name, n, "float32", t_group, a2a_bytes, note);
    }
    for (int i = 0; i < ndev; i++) ga_release(xs[i]), ga_release(ys[i]);
    for (int i = 0; i < ndev; i++) {
        ga_release(x[i]), ga_release(y[i]);
        ga_nccl_comm_destroy(comms[i]);
    }
    if (ndev < 2) {
        printf("# one GPU: no peer copy\n");
        return;
    }
    ga_device_set(1);
    ga_array *dst = ga_empty(1, &n, GA_FLOAT32);
    ga_device_set(0);
    ga_array *src = ga_ones(1, &n, GA_FLOAT32);
    if (!src || !dst) fail("peer copy buffers");
    ga_device_synchronize();
    ga_device_set(1); /* both timed on device 1's stream, where ga_to_device copies */
    peer_args pr = {src, (uint64_t)(uintptr_t)ga_data(dst), true}, po = {src, 0, false};
    const double p_raw = time_device(op_peer, &pr), p_ours = time_device(op_peer, &po);
    row("peer copy 1 GiB, cuMemcpyPeerAsync", n, "float32", p_raw, 4.0 * (double)n, "device 0 -> 1, read once");
    snprintf(note, sizeof note, "ga_to_device 0 -> 1 (a new array): %.3f x cuMemcpyPeerAsync", p_raw / p_ours);
    row("peer copy 1 GiB, ga_to_device", n, "float32", p_ours, 4.0 * (double)n, note);
    ga_release(dst);
    ga_device_set(0);
    ga_release(src);
}

static void bench_fft(void)
{
    const int64_t n24 = (int64_t)1 << 24, sq[2] = {4096, 4096}, batch[2] = {4096, 1024};
    ga_array *z = bench_values(1, &n24, GA_COMPLEX64);
    ga_array *r32 = bench_values(1, &n24, GA_FLOAT32), *r64 = bench_values(1, &n24, GA_FLOAT64);
    ga_array *z2 = bench_values(2, sq, GA_COMPLEX64);
    ga_array *zb = bench_values(2, batch, GA_COMPLEX64);
    ga_array *small = bench_values(1, (const int64_t[]){1024}, GA_FLOAT32);
    if (!z || !r32 || !r64 || !z2 || !zb || !small) fail("fft inputs");
    fft_row("fft complex64 2^24", 0, z, -1, 8);
    fft_row("rfft float32 2^24", 1, r32, -1, 8);
    fft_row("rfft float64 2^24", 1, r64, -1, 16);
    fft_row("fft2 complex64 4096^2", 2, z2, -1, 8);
    fft_row("fft (4096,1024) complex64, last axis", 0, zb, -1, 8);
    fft_row("fft (4096,1024) complex64, axis 0", 0, zb, 0, 8);
    fft_args f = {1, small, -1};
    row("small rfft (1024), new array", 1024, "float32", time_host(op_fft, &f, 20000), 0, "wall time per op");
    ga_release(z), ga_release(r32), ga_release(r64), ga_release(z2), ga_release(zb), ga_release(small);
}

/* The products (cuBLAS): GEMMs, a batch of small ones, a dot of two
   vectors, and the host cost of a small matmul beside a small add's.
   `bench --products` runs these rows alone, after the copy ceiling. */
static void bench_products(void)
{
    const int64_t n26 = (int64_t)1 << 26;
    matmul_row("matmul float32 8192^2", 1, 8192, 8192, 8192, GA_FLOAT32);
    matmul_row("matmul float16 8192^2", 1, 8192, 8192, 8192, GA_FLOAT16);
    matmul_row("matmul float64 4096^2", 1, 4096, 4096, 4096, GA_FLOAT64);
    matmul_row("matmul complex64 4096^2", 1, 4096, 4096, 4096, GA_COMPLEX64);
    matmul_row("matmul 4096 x (64,64) float32", 4096, 64, 64, 64, GA_FLOAT32);
    ga_array *dx = ga_full(1, &n26, ga_float(0.5), GA_FLOAT32), *dy = ga_full(1, &n26, ga_float(0.25), GA_FLOAT32);
    if (!dx || !dy) fail("dot operands");
    ufunc_args du = {dx, dy, NULL};
    double t = time_device(op_dot, &du);
    row("dot float32 2^26", n26, "float32", t, 8.0 * (double)n26, "new 0-d result");
    ga_release(dx), ga_release(dy);

    const int64_t s32[2] = {32, 32};
    ga_array *m32 = ga_ones(2, s32, GA_FLOAT32);
    if (!m32) fail("small matmul operand");
    ufunc_args smm = {m32, m32, NULL};
    row("small matmul 32x32 float32, new array", 1024, "float32", time_host(op_matmul, &smm, 10000), 0,
        "wall time per op");
    ga_release(m32);
    bench_solvers();
}

/* Reductions of every dtype (`bench --reductions`): sum, prod, max, min,
   argmax, argmin, all, any and count_nonzero over 2^26 contiguous elements
   of each dtype NumPy defines them for, a new result each call; then a
   sum over axis 0 and over axis 1 and a max over axis 1 of (8192, 8192)
   float32. The values are (sin(i) + 1) * 60 as the dtype (0 to 120: every
   integer dtype holds them, no NaN), the same in tools/bench.py's CuPy
   rows. GB/s counts the input's bytes. */
typedef enum red_kind {
    RED_SUM, RED_PROD, RED_MAX, RED_MIN, RED_ARGMAX, RED_ARGMIN, RED_ALL, RED_ANY, RED_COUNT_NONZERO, RED_KINDS
} red_kind;
static const char *const red_names[RED_KINDS] = {"sum", "prod", "max", "min", "argmax", "argmin", "all", "any",
                                                 "count_nonzero"};
typedef struct red_args { red_kind kind; const ga_array *a; int naxes, axis; } red_args;
static void op_reduction(void *p)
{
    const red_args *r = (const red_args *)p;
    const int *axes = r->naxes ? &r->axis : NULL;
    ga_array *x = NULL;
    switch (r->kind) {
    case RED_SUM: x = ga_sum(r->a, r->naxes, axes, false); break;
    case RED_PROD: x = ga_prod(r->a, r->naxes, axes, false); break;
    case RED_MAX: x = ga_max(r->a, r->naxes, axes, false); break;
    case RED_MIN: x = ga_min(r->a, r->naxes, axes, false); break;
    case RED_ARGMAX: x = ga_argmax(r->a, r->naxes ? r->axis : GA_AXIS_NONE, false); break;
    case RED_ARGMIN: x = ga_argmin(r->a, r->naxes ? r->axis : GA_AXIS_NONE, false); break;
    case RED_ALL: x = ga_all(r->a, r->naxes, axes, false); break;
    case RED_ANY: x = ga_any(r->a, r->naxes, axes, false); break;
    default: x = ga_count_nonzero(r->a, r->naxes, axes, false); break;
    }
    ga_release(x);
}

/* (sin(i) + 1) * 60 for i < n, of `dtype`, in `shape` */
static ga_array *reduction_values(int ndim, const int64_t *shape, ga_dtype dtype)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    ga_array *i = ga_arange_int(0, n, 1, GA_FLOAT64), *s = i ? ga_sin(i) : NULL;
    ga_array *v = s ? ga_add_scalar(s, ga_float(1.0)) : NULL, *w = v ? ga_multiply_scalar(v, ga_float(60.0)) : NULL;
    ga_array *r = w ? ga_reshape(w, ndim, shape) : NULL, *c = r ? ga_astype(r, dtype) : NULL;
    ga_release(i), ga_release(s), ga_release(v), ga_release(w), ga_release(r);
    return c;
}

static void reduction_row(red_kind kind, const ga_array *a, int naxes, int axis, const char *name)
{
    red_args r = {kind, a, naxes, axis};
    op_reduction(&r);
    if (ga_last_error() != GA_OK) fail(name);
    const double t = time_device(op_reduction, &r);
    row(name, ga_size(a), ga_dtype_name(ga_dtype_of(a)), t, (double)ga_nbytes(a), "new result");
}

/* The CUB glue's scan of a float32 array into out, its temporary storage
   given (the library's path before the scan family, for comparison). */
typedef struct cub_scan_args { const ga_array *a; ga_array *out; void *temp; size_t temp_bytes; } cub_scan_args;
static void op_cub_scan(void *p)
{
    cub_scan_args *c = (cub_scan_args *)p;
    size_t bytes = c->temp_bytes;
    if (ga__cub_scan(c->temp, &bytes, (const void *)(uintptr_t)ga_data(c->a), (void *)(uintptr_t)ga_data(c->out),
                     (int)ga_dtype_of(c->a), GA__CUB_SCAN_SUM, ga_size(c->a), ga_size(c->a), ga__stream_of(0)))
        fail("cub scan");
}

static void bench_reductions(void)
{
    static const ga_dtype dtypes[] = {GA_BOOL,    GA_INT8,    GA_INT16,   GA_INT32,     GA_INT64,     GA_UINT8,
                                      GA_FLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
    const int64_t n26 = (int64_t)1 << 26;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        ga_array *a = reduction_values(1, &n26, dtypes[d]);
        if (!a) fail("reduction input");
        for (int k = 0; k < RED_KINDS; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s %s", red_names[k], ga_dtype_name(dtypes[d]));
            reduction_row((red_kind)k, a, 0, 0, name);
        }
        ga_release(a);
    }
    const int64_t sq[2] = {8192, 8192};
    ga_array *m = reduction_values(2, sq, GA_FLOAT32);
    if (!m) fail("reduction input");
    reduction_row(RED_SUM, m, 1, 0, "sum (8192,8192) float32 axis 0");
    reduction_row(RED_SUM, m, 1, 1, "sum (8192,8192) float32 axis 1");
    reduction_row(RED_MAX, m, 1, 1, "max (8192,8192) float32 axis 1");
    ga_release(m);
    /* cumsum in one pass: GB/s counts the bytes read and written */
    static const struct { ga_dtype dtype; int log2n; const char *name; } scans[] = {
        {GA_FLOAT32, 28, "cumsum float32 2^28"}, {GA_FLOAT64, 27, "cumsum float64 2^27"},
        {GA_INT64, 27, "cumsum int64 2^27"}, {GA_INT32, 27, "cumsum int32 -> int64 2^27"}};
    for (size_t k = 0; k < sizeof scans / sizeof scans[0]; k++) {
        const int64_t n = (int64_t)1 << scans[k].log2n;
        ga_array *a = ga_full(1, &n, ga_int(1), scans[k].dtype);
        if (!a) fail("cumsum operand");
        const double t = time_device(op_cumsum, a);
        const double bytes = (double)n * (double)(ga_dtype_itemsize(scans[k].dtype) + (scans[k].dtype == GA_INT32 ? 8 : ga_dtype_itemsize(scans[k].dtype)));
        row(scans[k].name, n, ga_dtype_name(scans[k].dtype), t, bytes, "new result");
        if (k <= 2) { /* ga_cumsum beside CUB's scan called directly */
            const ga_dtype dt = scans[k].dtype;
            cub_scan_args c = {a, ga_empty(1, &n, dt), NULL, 0};
            ga__cub_scan(NULL, &c.temp_bytes, NULL, NULL, (int)dt, GA__CUB_SCAN_SUM, n, n, ga__stream_of(0));
            void *temp = ga_memory_alloc(c.temp_bytes ? c.temp_bytes : 1);
            if (!c.out || !temp) fail("cub scan operands");
            c.temp = temp;
            char name[64];
            snprintf(name, sizeof name, "%s (CUB's scan)", scans[k].name);
            row(name, n, ga_dtype_name(dt), time_device(op_cub_scan, &c), bytes, "into out");
            ga_memory_free(temp);
            ga_release(c.out);
        }
        ga_release(a);
    }
}

static int first_result(void)
{
    int64_t n = 1000;
    ga_array *a = ga_arange_int(0, n, 1, GA_FLOAT32);
    float h[1000];
    if (!a || ga_to_host(a, h, sizeof h) != GA_OK) fail("first result");
    printf("%g\n", (double)h[999]);
    ga_release(a);
    return 0;
}

/* Files: a 4 GiB float32 .npy saved, then loaded from the page cache (the
   file was just written, then flushed with fsync so that the loads do not
   run beside the kernel's writeback of it), wall time, against the pinned
   copies of the same bytes; the median of 3 after one of warm-up. With
   `tuning` (build/bench --io) also: the load by thread count and chunk
   size (ga__pio_tune), the host side alone (the page cache read into
   pinned memory as the load reads it, or copied out of the file's mapping,
   no copy to the device), the copy straight out of
   the page cache through cuMemHostRegister of the file's mapping (its
   registration's cost beside the copy's), and the pinned copy again at
   the end (the ceiling's drift over the run). */
static double wall_median3(void (*op)(const ga_array *, const char *), const ga_array *a, const char *path)
{
    double t[3];
    op(a, path);
    for (int k = 0; k < 3; k++) {
        double t0 = wall_us();
        op(a, path);
        ga_device_synchronize();
        t[k] = wall_us() - t0;
    }
    if (ga_last_error() != GA_OK) fail("file timing");
    return median(t, 3);
}
static void io_save(const ga_array *a, const char *path) { ga_save(path, a); }
static void io_load(const ga_array *a, const char *path) { (void)a, ga_release(ga_load(path)); }

/* The file's dirty pages written out (they stay in the page cache). */
static void io_settle(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) fprintf(stderr, "bench: fsync %s failed\n", path);
    if (fd >= 0) close(fd);
}

/* The host side of a load alone: `total` bytes from byte `offset` of the
   file read into pinned memory by `threads` threads, chunks claimed from a
   shared counter into two buffers a thread, as ga_load reads them; or,
   with `map`, copied by memcpy out of the file's mapping (made and
   unmade in the timed part). */
typedef struct host_read {
    const char *path;
    long offset;
    size_t total, chunk, next;
    unsigned char *buf;
    int failed;
    const unsigned char *map;
} host_read;
typedef struct host_reader {
    host_read *job;
    int index;
    pthread_t handle;
} host_reader;

static void *host_read_main(void *arg)
{
    host_reader *r = (host_reader *)arg;
    host_read *j = r->job;
    if (j->map) {
        for (int uses = 0;; uses++) {
            const size_t at = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED) * j->chunk;
            if (at >= j->total) break;
            const size_t n = j->total - at < j->chunk ? j->total - at : j->chunk;
            memcpy(j->buf + (size_t)(2 * r->index + (uses & 1)) * j->chunk, j->map + j->offset + at, n);
        }
        return NULL;
    }
    FILE *f = fopen(j->path, "rb");
    if (!f) {
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    setvbuf(f, NULL, _IONBF, 0);
    for (int uses = 0;; uses++) {
        const size_t at = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED) * j->chunk;
        if (at >= j->total) break;
        const size_t n = j->total - at < j->chunk ? j->total - at : j->chunk;
        unsigned char *b = j->buf + (size_t)(2 * r->index + (uses & 1)) * j->chunk;
        if (fseek(f, j->offset + (long)at, SEEK_SET) != 0 || fread(b, 1, n, f) != n) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    fclose(f);
    return NULL;
}

static double host_read_median3(const char *path, long offset, size_t total, int threads, size_t chunk, bool map)
{
    host_read j = {path, offset, total, chunk, 0, NULL, 0, NULL};
    j.buf = (unsigned char *)ga_pinned_alloc(2 * (size_t)threads * chunk);
    host_reader r[64];
    if (!j.buf || threads > 64) fail("host read buffers");
    double t[4];
    for (int k = 0; k < 4; k++) {
        j.next = 0;
        const double t0 = wall_us();
        void *m = MAP_FAILED;
        if (map) {
            int fd = open(path, O_RDONLY);
            m = fd >= 0 ? mmap(NULL, (size_t)offset + total, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
            if (fd >= 0) close(fd);
            if (m == MAP_FAILED) fail("mmap");
            j.map = (const unsigned char *)m;
        }
        for (int i = 0; i < threads; i++) {
            r[i].job = &j, r[i].index = i;
            if (pthread_create(&r[i].handle, NULL, host_read_main, &r[i]) != 0) fail("pthread_create");
        }
        for (int i = 0; i < threads; i++) pthread_join(r[i].handle, NULL);
        if (map) munmap(m, (size_t)offset + total);
        t[k] = wall_us() - t0;
    }
    if (j.failed) fail("host read");
    ga_pinned_free(j.buf);
    return median(t + 1, 3);
}

/* The file mapped, its pages registered with cuMemHostRegister (read-only:
   the page cache's own pages, pinned), copied to the device straight from
   them, and unregistered: each step's median of 3 in *reg, *copy, *unreg.
   false (with the reason printed as a comment) where the driver refuses. */
static bool mapped_copy(const char *path, size_t file_bytes, long offset, CUdeviceptr dst, size_t total, double *reg,
                        double *copy, double *unreg)
{
    PFN_cuMemHostRegister_v6050 host_register = NULL;
    PFN_cuMemHostUnregister_v4000 host_unregister = NULL;
    void *s1 = dlsym(ga__g.driver_library, "cuMemHostRegister_v2"), *s2 = dlsym(ga__g.driver_library, "cuMemHostUnregister");
    if (!s1 || !s2) {
        printf("# cuMemHostRegister of the file's mapping: not in the driver\n");
        return false;
    }
    memcpy(&host_register, &s1, sizeof s1), memcpy(&host_unregister, &s2, sizeof s2);
    int fd = open(path, O_RDONLY);
    void *m = fd >= 0 ? mmap(NULL, file_bytes, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0) close(fd);
    if (m == MAP_FAILED) {
        printf("# cuMemHostRegister of the file's mapping: mmap failed\n");
        return false;
    }
    double tr[3], tc[3], tu[3];
    bool ok = true;
    for (int k = 0; ok && k < 3; k++) {
        double t0 = wall_us();
        CUresult r = host_register(m, file_bytes, CU_MEMHOSTREGISTER_READ_ONLY);
        double t1 = wall_us();
        if (r != CUDA_SUCCESS) {
            const char *name = NULL;
            GA__CU.GetErrorName(r, &name);
            printf("# cuMemHostRegister of the file's mapping (read-only) refused: %s\n", name ? name : "?");
            ok = false;
            break;
        }
        r = GA__CU.MemcpyHtoDAsync(dst, (const unsigned char *)m + offset, total, NULL);
        if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(NULL);
        double t2 = wall_us();
        host_unregister(m);
        double t3 = wall_us();
        if (r != CUDA_SUCCESS) {
            printf("# the copy from the registered mapping failed (%d)\n", (int)r);
            ok = false;
        }
        tr[k] = t1 - t0, tc[k] = t2 - t1, tu[k] = t3 - t2;
    }
    munmap(m, file_bytes);
    if (ok) *reg = median(tr, 3), *copy = median(tc, 3), *unreg = median(tu, 3);
    return ok;
}

static void bench_io(bool tuning)
{
    const int64_t n = (int64_t)1 << 30, gib = (int64_t)1 << 28;
    const double bytes = 4.0 * (double)n;
    ga_array *a = ga_full(1, &n, ga_float(1.5), GA_FLOAT32);
    void *pinned = ga_pinned_alloc((size_t)gib * 4);
    if (!a || !pinned) fail("file operands");
    raw h2d = {(uint64_t)(uintptr_t)ga_data(a), 0, pinned, (size_t)gib * 4}, d2h = {0, h2d.dst, pinned, h2d.bytes};
    const double up = time_device(op_raw_htod, &h2d) * 4, down = time_device(op_raw_dtoh, &d2h) * 4;
    row("host to device (4 GiB, pinned)", n, "float32", up, bytes, "pinned ceiling");
    row("device to host (4 GiB, pinned)", n, "float32", down, bytes, "pinned ceiling");
    const char *path = "build/bench-4gib.npy";
    char note[96], name[96];
    double t = wall_median3(io_save, a, path);
    snprintf(note, sizeof note, "%.2f x pinned device to host, wall", down / t);
    row("save .npy 4 GiB", n, "float32", t, bytes, note);
    io_settle(path);
    t = wall_median3(io_load, a, path);
    snprintf(note, sizeof note, "%.2f x pinned host to device, wall", up / t);
    row("load .npy 4 GiB (page cache)", n, "float32", t, bytes, note);
    if (tuning) {
        const ga__pio_tuning saved = ga__pio_tune;
        static const int threads[3] = {8, 12, 16};
        static const int mib[4] = {1, 2, 4, 8};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 4; k++) {
                ga__pio_tune.threads = threads[i], ga__pio_tune.chunk = (size_t)mib[k] << 20;
                t = wall_median3(io_load, a, path);
                snprintf(name, sizeof name, "load .npy 4 GiB, %d threads x %d MiB", threads[i], mib[k]);
                snprintf(note, sizeof note, "%.2f x pinned host to device, wall", up / t);
                row(name, n, "float32", t, bytes, note);
            }
        ga__pio_tune = saved;
        FILE *f = fopen(path, "rb");
        const long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        if (f) fclose(f);
        if (size < (long)bytes) fail("the saved file's size");
        for (int i = 0; i < 3; i++)
            for (int map = 0; map < 2; map++) {
                t = host_read_median3(path, size - (long)bytes, (size_t)bytes, threads[i], GA__PIO_CHUNK, map);
                snprintf(name, sizeof name, "%s 4 GiB to pinned, %d threads", map ? "mmap + memcpy" : "read", threads[i]);
                snprintf(note, sizeof note, "host only (4 MiB chunks, no copy): %.2f x pinned H2D", up / t);
                row(name, n, "float32", t, bytes, note);
            }
        double reg = 0, copy = 0, unreg = 0;
        if (mapped_copy(path, (size_t)size, size - (long)bytes, (CUdeviceptr)(uintptr_t)ga_data(a), (size_t)bytes, &reg, &copy,
                        &unreg)) {
            row("cuMemHostRegister of the mapped file", n, "float32", reg, bytes, "read-only, the page cache's pages, wall");
            snprintf(note, sizeof note, "from the registered page cache: %.2f x pinned H2D", up / copy);
            row("copy from the registered mapping", n, "float32", copy, bytes, note);
            row("cuMemHostUnregister of it", n, "float32", unreg, 0, "wall");
            snprintf(note, sizeof note, "register + copy + unregister: %.2f x pinned H2D", up / (reg + copy + unreg));
            row("load by registering the mapping", n, "float32", reg + copy + unreg, bytes, note);
        }
        const double again = time_device(op_raw_htod, &h2d) * 4;
        row("host to device (4 GiB, pinned), again", n, "float32", again, bytes, "the ceiling after the loads");
    }
    ga_pinned_free(pinned);
    remove(path);
    ga_release(a);
}

/* Random draws (the default generator), a new array each call, against
   full's write bandwidth in the same run (a generator writes only). */
static ga_generator *bench_rng;
typedef struct draw_args {
    int kind;
    int64_t n;
    ga_dtype dtype;
} draw_args;
enum { DRAW_RANDOM, DRAW_NORMAL, DRAW_EXPONENTIAL, DRAW_UNIFORM, DRAW_INTEGERS, DRAW_GAMMA, DRAW_BINOMIAL, DRAW_POISSON,
       DRAW_PERMUTATION, DRAW_CHOICE };
static void op_draw(void *p)
{
    const draw_args *d = (const draw_args *)p;
    ga_array *a = d->kind == DRAW_RANDOM        ? ga_random_random(bench_rng, 1, &d->n, d->dtype)
                  : d->kind == DRAW_NORMAL      ? ga_random_standard_normal(bench_rng, 1, &d->n, d->dtype)
                  : d->kind == DRAW_EXPONENTIAL ? ga_random_standard_exponential(bench_rng, 1, &d->n, d->dtype)
                  : d->kind == DRAW_UNIFORM     ? ga_random_uniform(bench_rng, -1, 1, 1, &d->n)
                  : d->kind == DRAW_INTEGERS    ? ga_random_integers(bench_rng, ga_int(0), ga_int(1000), 1, &d->n, d->dtype, false)
                  : d->kind == DRAW_GAMMA       ? ga_random_standard_gamma(bench_rng, 2.5, 1, &d->n, d->dtype)
                  : d->kind == DRAW_BINOMIAL    ? ga_random_binomial(bench_rng, 20, 0.3, 1, &d->n)
                  : d->kind == DRAW_POISSON     ? ga_random_poisson(bench_rng, 4.0, 1, &d->n)
                  : d->kind == DRAW_CHOICE      ? ga_random_choice(bench_rng, 10000000, 1, &d->n, false, NULL)
                                                : ga_random_permutation(bench_rng, d->n);
    ga_release(a);
}

static void bench_random(bool alone)
{
    const uint32_t seed = 1;
    bench_rng = ga_random_default_rng(&seed, 1);
    const int64_t n28 = (int64_t)1 << 28;
    if (!bench_rng) fail("generator");
    const double full = time_device(op_fill, (void *)&n28), full_gbps = 4.0 * (double)n28 / full * 1e-3;
    if (alone) row("full", n28, "float32", full, 4.0 * (double)n28, "write ceiling");
    static const struct { const char *name; draw_args d; } draws[] = {
        {"random float32", {DRAW_RANDOM, (int64_t)1 << 28, GA_FLOAT32}},
        {"standard_normal float32", {DRAW_NORMAL, (int64_t)1 << 28, GA_FLOAT32}},
        {"random float64", {DRAW_RANDOM, (int64_t)1 << 28, GA_FLOAT64}},
        {"standard_normal float64", {DRAW_NORMAL, (int64_t)1 << 28, GA_FLOAT64}},
        {"standard_exponential float64", {DRAW_EXPONENTIAL, (int64_t)1 << 28, GA_FLOAT64}},
        {"uniform(-1, 1) float64", {DRAW_UNIFORM, (int64_t)1 << 28, GA_FLOAT64}},
        {"integers [0, 1000) int64", {DRAW_INTEGERS, (int64_t)1 << 28, GA_INT64}},
        {"standard_gamma(2.5) float64", {DRAW_GAMMA, (int64_t)1 << 26, GA_FLOAT64}},
        {"binomial(20, 0.3)", {DRAW_BINOMIAL, (int64_t)1 << 26, GA_INT64}},
        {"poisson(4.0)", {DRAW_POISSON, (int64_t)1 << 26, GA_INT64}},
    };
    for (size_t k = 0; k < sizeof draws / sizeof draws[0]; k++) {
        const double t = time_device(op_draw, (void *)&draws[k].d);
        const double bytes = (double)draws[k].d.n * (double)ga_dtype_itemsize(draws[k].d.dtype);
        char note[64];
        snprintf(note, sizeof note, "%.2f x full's writes, %.0f Gsamples/s", bytes / t * 1e-3 / full_gbps,
                 (double)draws[k].d.n / t * 1e-3);
        row(draws[k].name, draws[k].d.n, ga_dtype_name(draws[k].d.dtype), t, bytes, note);
    }
    draw_args perm = {DRAW_PERMUTATION, (int64_t)1 << 24, GA_INT64};
    row("permutation 2^24", perm.n, "int64", time_device(op_draw, &perm), 0, "uint32 keys, a stable argsort, ties shuffled");
    draw_args pick = {DRAW_CHOICE, 1000000, GA_INT64};
    row("choice 10^6 of 10^7, no replacement", pick.n, "int64", time_device(op_draw, &pick), 0,
        "the first 10^6 distinct of iid draws");
    draw_args small = {DRAW_NORMAL, 1000, GA_FLOAT32};
    row("small standard_normal (1000), new array", 1000, "float32", time_host(op_draw, &small, 20000), 0,
        "wall time per op");
    if (alone) small_add_row();
    ga_generator_release(bench_rng);
}

/* --- CUDA graphs and memory hooks (gpuarr.h >>graph) ---------------------- */

typedef struct chain_args { const ga_array *a, *b; ga_array *out; } chain_args;

/* 20 small ops of a step, as a user writes them: new arrays (released at
   the scope's end), the last one copied into out. */
static void op_chain(void *p)
{
    chain_args *c = (chain_args *)p;
    ga_scope_begin();
    ga_array *t = ga_add(c->a, c->b);                 /* 1 */
    t = ga_multiply(t, c->a);                         /* 2 */
    t = ga_sin(t);                                    /* 3 */
    t = ga_exp(t);                                    /* 4 */
    t = ga_add_scalar(t, ga_float(1.0));              /* 5 */
    t = ga_sqrt(t);                                   /* 6 */
    t = ga_subtract(t, c->b);                         /* 7 */
    t = ga_absolute(t);                               /* 8 */
    t = ga_maximum(t, c->a);                          /* 9 */
    t = ga_multiply_scalar(t, ga_float(0.5));         /* 10 */
    t = ga_cos(t);                                    /* 11 */
    t = ga_square(t);                                 /* 12 */
    t = ga_add(t, c->b);                              /* 13 */
    t = ga_tanh(t);                                   /* 14 */
    t = ga_negative(t);                               /* 15 */
    t = ga_where(ga_greater(t, c->a), t, c->b);       /* 16, 17 */
    ga_array *s = ga_sum(t, 0, NULL, false);          /* 18 */
    t = ga_add(t, s);                                 /* 19 */
    ga_copyto(c->out, t, GA_CASTING_SAME_KIND);       /* 20 */
    ga_scope_end();
}

typedef struct graph_args { ga_graph *graph; ga_stream *stream; } graph_args;
static void op_launch(void *p) { graph_args *g = (graph_args *)p; ga_graph_launch(g->graph, g->stream); }
static void op_add_100(void *p)
{
    ufunc_args *u = (ufunc_args *)p;
    for (int i = 0; i < 100; i++) ga_add_out(u->a, u->b, u->out);
}
static void noop_hook(const ga_memory_hook_info *info, void *user) { (void)info, (void)user; }

/* The graph rows: 100 small adds captured once and replayed (wall time per
   add), the chain of 20 ops called and replayed, and the small add's host
   cost with a memory hook installed. On a stream of its own (the legacy
   default stream cannot be captured). */
static void bench_graph(bool alone)
{
    const int64_t small = 1000;
    ga_stream *s = ga_stream_create(true);
    if (!s) fail("stream");
    ga_stream_set_current(s);
    ga_array *sa = ga_ones(1, &small, GA_FLOAT32), *sb = ga_ones(1, &small, GA_FLOAT32);
    ga_array *sc = ga_empty(1, &small, GA_FLOAT32);
    if (!sa || !sb || !sc) fail("small operands");
    ufunc_args sadd = {sa, sb, sc};
    row("100 small adds, called (1000)", small, "float32", time_host(op_add_100, &sadd, 200) / 100, 0,
        "wall time per add, into out");
    op_add_100(&sadd);
    if (ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL) != GA_OK) fail("capture");
    op_add_100(&sadd);
    graph_args g = {ga_graph_capture_end(s), s};
    if (!g.graph) fail("capture end");
    ga_graph_upload(g.graph, s);
    row("100 small adds, graph replay (1000)", small, "float32", time_host(op_launch, &g, 2000) / 100, 0,
        "wall time per add: launches of one captured graph");
    ga_graph_release(g.graph);

    chain_args chain = {sa, sb, sc};
    double direct = time_host(op_chain, &chain, 2000);
    row("chain of 20 small ops, called", small, "float32", direct, 0, "wall time per chain, new arrays");
    if (ga_graph_capture_begin(s, GA_CAPTURE_GLOBAL) != GA_OK) fail("capture");
    op_chain(&chain);
    g.graph = ga_graph_capture_end(s);
    if (!g.graph) fail("capture end");
    ga_graph_upload(g.graph, s);
    double replay = time_host(op_launch, &g, 2000);
    char note[96];
    snprintf(note, sizeof note, "wall time per chain: %.1fx faster than called, %lld nodes", direct / replay,
             (long long)ga_graph_node_count(g.graph));
    row("chain of 20 small ops, graph replay", small, "float32", replay, 0, note);
    ga_graph_release(g.graph);

    if (alone) row("small add, new array (1000)", small, "float32", time_host(op_add_new, &sadd, 20000), 0, "wall time per op");
    int id = ga_memory_hook_add(noop_hook, NULL);
    row("small add, new array, memory hook (1000)", small, "float32", time_host(op_add_new, &sadd, 20000), 0,
        "wall time per op, an empty hook installed");
    ga_memory_hook_remove(id);
    ga_release(sa), ga_release(sb), ga_release(sc);
    ga_stream_set_current(NULL);
    ga_stream_destroy(s);
}

typedef struct darray_args { ga_darray *a, *b, *out; } darray_args;
static void op_darray_add_out(void *p)
{
    darray_args *d = (darray_args *)p;
    ga_darray_operand in[2] = {ga_darray_operand_split(d->a), ga_darray_operand_split(d->b)};
    ga_darray *out[2] = {d->out, NULL};
    ga_darray_ufunc(GA_UFUNC_ADD, in, out);
}
static void op_darray_add_new(void *p) { darray_args *d = (darray_args *)p; ga_darray_release(ga_darray_add(d->a, d->b)); }
static void op_darray_var(void *p) { darray_args *d = (darray_args *)p; ga_release(ga_darray_reduce_gather(GA_REDUCE_VAR, d->a, GA_ALL_AXES, false)); }
static void op_var(void *p) { ga_release(ga_var((const ga_array *)p, GA_ALL_AXES, 0, false)); }

/* A darray of 2 x 2^28 float32 of `value`, one shard per listed device,
   made on the devices themselves. */
static ga_darray *bench_darray(int n, const int *devs, int64_t per, double value)
{
    ga_array *shards[GA_MAX_DEVICES] = {NULL};
    for (int i = 0; i < n; i++) {
        ga_device_push(devs[i]);
        shards[i] = ga_full(1, &per, ga_float(value), GA_FLOAT32);
        ga_device_pop();
    }
    ga_darray *d = ga_darray_from_arrays(n, (const ga_array *const *)shards, 0);
    for (int i = 0; i < n; i++) ga_release(shards[i]);
    if (!d) fail("darray");
    return d;
}

/* The darray rows: 2 x 2^28 float32 added, split over every GPU (over
   device 0 twice with one GPU), into out and into a new darray, beside
   the one-GPU add of the same 2^29 elements; the note gives the one-GPU
   time over the split one (the bar: 1.9 with two GPUs). */
static void bench_darray_rows(void)
{
    const int count = ga_device_count(), n = count > 1 ? count : 2;
    const int64_t total = (int64_t)1 << 29, per = total / n;
    int devs[GA_MAX_DEVICES];
    for (int i = 0; i < n; i++) devs[i] = count > 1 ? i : 0;
    ga_array *a = ga_full(1, &total, ga_float(1.5), GA_FLOAT32), *b = ga_full(1, &total, ga_float(2.5), GA_FLOAT32);
    ga_array *c = ga_empty(1, &total, GA_FLOAT32);
    if (!a || !b || !c) fail("one-GPU operands");
    ufunc_args u = {a, b, c};
    const double bytes = 3.0 * 4.0 * (double)total, one = time_device(op_add_out, &u);
    row("add 2^29, one GPU, into out", total, "float32", one, bytes, "the split rows' reference");
    const double var_one = time_device(op_var, a);
    row("var 2^29, one GPU", total, "float32", var_one, 4.0 * (double)total, "the split var's reference");
    ga_release(a), ga_release(b), ga_release(c);
    darray_args d = {bench_darray(n, devs, per, 1.5), bench_darray(n, devs, per, 2.5), bench_darray(n, devs, per, 0)};
    char name[64], note[96];
    const double split = time_devices(op_darray_add_out, &d, count);
    snprintf(name, sizeof name, "darray add 2^29, %d GPU%s, into out", count, count > 1 ? "s" : "");
    snprintf(note, sizeof note, "%.2fx the one-GPU add (%d shards)", one / split, n);
    row(name, total, "float32", split, bytes, note);
    const double fresh = time_devices(op_darray_add_new, &d, count);
    snprintf(name, sizeof name, "darray add 2^29, %d GPU%s, new", count, count > 1 ? "s" : "");
    snprintf(note, sizeof note, "%.2fx the one-GPU add, new darray", one / fresh);
    row(name, total, "float32", fresh, bytes, note);
    const double var_split = time_devices(op_darray_var, &d, count);
    snprintf(name, sizeof name, "darray var 2^29, %d GPU%s", count, count > 1 ? "s" : "");
    snprintf(note, sizeof note, "over the split axis: %.2fx the one-GPU var", var_one / var_split);
    row(name, total, "float32", var_split, 4.0 * (double)total, note);
    float check = 0;
    ga_array *last = ga_darray_shard(d.out, n - 1), *e = last ? ga_index(last, "-1") : NULL;
    if (!e || ga_to_host(e, &check, sizeof check) != GA_OK || check != 4.0f) fail("darray add result");
    ga_release(e), ga_release(last);
    ga_darray_release(d.a), ga_darray_release(d.b), ga_darray_release(d.out);
}

/* The ufuncs' rows: 2^28 elements into preallocated outputs (cp.add(a, b,
   out=c)), of one dtype, with a broadcast row, and float32 + float64. */
static void bench_ufunc_rows(void)
{
    const int64_t n28 = (int64_t)1 << 28, side = 16384, sq[2] = {side, side};
    double t;
    ga_array *a = ga_full(1, &n28, ga_float(1.5), GA_FLOAT32), *b = ga_full(1, &n28, ga_float(2.5), GA_FLOAT32);
    ga_array *c = ga_empty(1, &n28, GA_FLOAT32);
    ga_array *da = ga_full(1, &n28, ga_float(1.5), GA_FLOAT64), *db = ga_full(1, &n28, ga_float(2.5), GA_FLOAT64);
    ga_array *dc = ga_empty(1, &n28, GA_FLOAT64);
    if (!a || !b || !c || !da || !db || !dc) fail("ufunc allocation");
    const double n28d = (double)n28;
    ufunc_args f32 = {a, b, c}, f64 = {da, db, dc};
    t = time_device(op_add_out, &f32);
    row("add float32 (out=)", n28, "float32", t, 12.0 * n28d, "");
    t = time_device(op_add_out, &f64);
    row("add float64 (out=)", n28, "float64", t, 24.0 * n28d, "");
    t = time_device(op_multiply_out, &f32);
    row("multiply float32 (out=)", n28, "float32", t, 12.0 * n28d, "");
    t = time_device(op_multiply_out, &f64);
    row("multiply float64 (out=)", n28, "float64", t, 24.0 * n28d, "");
    ufunc_args e32 = {a, NULL, c};
    t = time_device(op_exp_out, &e32);
    row("exp float32 (out=)", n28, "float32", t, 8.0 * n28d, "");
    /* (16384, 16384) + (16384,): the row counts once in the bytes */
    ga_array *row_vec = ga_full(1, &side, ga_float(0.5), GA_FLOAT32);
    ga_array *a2 = ga_reshape(a, 2, sq), *c2 = ga_reshape(c, 2, sq);
    if (!row_vec || !a2 || !c2) fail("broadcast operands");
    ufunc_args bc = {a2, row_vec, c2};
    t = time_device(op_add_out, &bc);
    row("add (16384,16384) + row (out=)", side * side, "float32", t, 8.0 * (double)(side * side) + 4.0 * (double)side,
        "row broadcast");
    ga_release(a2);
    ga_release(c2);
    ga_release(row_vec);
    /* float32 + float64 -> float64 (the loop is dd->d: a is cast on the fly) */
    ufunc_args mixed = {a, da, dc};
    t = time_device(op_add_out, &mixed);
    row("add float32 + float64 (out=)", n28, "float64", t, 20.0 * n28d, "float32 + float64 -> float64");
    ga_release(a);
    ga_release(b);
    ga_release(c);
    ga_release(da);
    ga_release(db);
    ga_release(dc);

}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--first") == 0) return first_result();
    if (ga_init() != GA_OK) fail("init");
    ga_device_properties props;
    ga_device_get_properties(0, &props);
    printf("# %s, %d SMs, driver %d, gpuarr %s\n", props.name, props.multiprocessor_count, ga_driver_version(),
           GPUARR_VERSION_STRING);

    /* the copy ceiling: 1 GiB device to device */
    const int64_t n28 = (int64_t)1 << 28;
    ga_array *a = ga_empty(1, &n28, GA_FLOAT32), *b = ga_empty(1, &n28, GA_FLOAT32);
    ga_array *w = ga_empty(1, &n28, GA_FLOAT64);
    if (!a || !b || !w) fail("allocation");
    raw r = {(uint64_t)(uintptr_t)ga_data(b), (uint64_t)(uintptr_t)ga_data(a), NULL, (size_t)n28 * 4};
    double t = time_device(op_raw_dtod, &r);
    row("device copy (cuMemcpyDtoD)", n28, "float32", t, 2.0 * (double)r.bytes, "ceiling");
    if (argc > 1 && strcmp(argv[1], "--io") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_io(true);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--random") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_random(true);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--sparse") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_sparse();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--darray") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_darray_rows();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--kernels") == 0) {
        small_add_row();
        ga_release(a), ga_release(b), ga_release(w);
        bench_user_kernels();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--nccl") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_nccl();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--fft") == 0) {
        small_add_row();
        ga_release(a), ga_release(b), ga_release(w);
        bench_fft();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--graph") == 0) {
        small_add_row();
        ga_release(a), ga_release(b), ga_release(w);
        bench_graph(true);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--reductions") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_reductions();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--ufuncs") == 0) {
        ga_release(a), ga_release(b), ga_release(w);
        bench_ufunc_rows();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--products") == 0) {
        small_add_row();
        ga_release(a), ga_release(b), ga_release(w);
        bench_products();
        return 0;
    }
    pair p = {b, a};
    t = time_device(op_copyto, &p);
    row("copyto", n28, "float32", t, 2.0 * (double)r.bytes, "");
    t = time_device(op_fill, (void *)&n28);
    row("full", n28, "float32", t, (double)r.bytes, "");
    pair up = {w, a};
    t = time_device(op_copyto, &up);
    row("astype float32->float64", n28, "float32", t, 12.0 * (double)n28, "");
    pair down = {a, w};
    t = time_device(op_copyto, &down);
    row("astype float64->float32", n28, "float64", t, 12.0 * (double)n28, "");
    /* a transposing copy: 16384^2 float32 */
    int64_t side = 16384, sq[2] = {side, side};
    ga_array *m = ga_as_strided(a, 2, sq, (int64_t[]){4, side * 4}, 0);
    ga_array *mt = ga_as_strided(b, 2, sq, (int64_t[]){side * 4, 4}, 0);
    pair tr = {mt, m};
    t = time_device(op_copyto, &tr);
    row("transpose copy", side * side, "float32", t, 8.0 * (double)(side * side), "");
    ga_release(m);
    ga_release(mt);

    /* host <-> device, 1 GiB page-locked */
    void *pinned = ga_pinned_alloc(r.bytes);
    if (!pinned) fail("pinned");
    memset(pinned, 1, r.bytes);
    raw h2d = {(uint64_t)(uintptr_t)ga_data(a), 0, pinned, r.bytes};
    double raw_up = time_device(op_raw_htod, &h2d);
    row("host to device (cuMemcpyHtoD)", n28, "float32", raw_up, (double)r.bytes, "pinned ceiling");
    raw upload = {(uint64_t)(uintptr_t)a, 0, pinned, r.bytes};
    t = time_device(op_upload, &upload);
    char note[64];
    snprintf(note, sizeof note, "%.3f x cuMemcpy", raw_up / t);
    row("ga_copy_from_host_async", n28, "float32", t, (double)r.bytes, note);
    raw d2h = {0, (uint64_t)(uintptr_t)ga_data(a), pinned, r.bytes};
    double raw_down = time_device(op_raw_dtoh, &d2h);
    row("device to host (cuMemcpyDtoH)", n28, "float32", raw_down, (double)r.bytes, "pinned ceiling");
    raw download = {0, (uint64_t)(uintptr_t)a, pinned, r.bytes};
    t = time_device(op_download, &download);
    snprintf(note, sizeof note, "%.3f x cuMemcpy", raw_down / t);
    row("ga_to_host_async", n28, "float32", t, (double)r.bytes, note);
    ga_pinned_free(pinned);
    ga_release(a);
    ga_release(b);
    ga_release(w);

    bench_ufunc_rows();

    /* Reductions: bytes read plus bytes written */
    const double n28d = (double)n28;
    a = ga_full(1, &n28, ga_float(1.5), GA_FLOAT32);
    if (!a) fail("reduction operand");
    reduce_args all = {a, 0, 0};
    t = time_device(op_sum, &all);
    row("sum float32 (all)", n28, "float32", t, 4.0 * n28d, "new 0-d result");
    t = time_device(op_argmax, &all);
    row("argmax float32 (all)", n28, "float32", t, 4.0 * n28d, "new 0-d result");
    /* the wider kernels (complex: registers budgeted for 2 blocks an SM) */
    {
        int64_t n26 = (int64_t)1 << 26;
        double n26d = (double)n26;
        ga_array *d = ga_full(1, &n26, ga_float(1.5), GA_FLOAT64);
        ga_array *z = ga_full(1, &n26, ga_complex(0.6, 0.8), GA_COMPLEX128);
        if (!d || !z) fail("wide reduction operands");
        reduce_args dall = {d, 0, 0}, zall = {z, 0, 0};
        const struct { const char *name; op_fn op; reduce_args *args; } wide[] = {
            {"sum float64 (all)", op_sum, &dall},        {"sum complex128 (all)", op_sum, &zall},
            {"prod complex128 (all)", op_prod, &zall},   {"max complex128 (all)", op_max, &zall},
            {"argmax complex128 (all)", op_argmax, &zall},
        };
        for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
            const ga_array *x = wide[i].args->a;
            t = time_device(wide[i].op, wide[i].args);
            row(wide[i].name, n26, ga_dtype_name(ga_dtype_of(x)), t, (double)ga_itemsize(x) * n26d, "new 0-d result");
        }
        ga_release(d);
        ga_release(z);
    }
    ga_array *m2 = ga_reshape(a, 2, sq);
    if (!m2) fail("reshape");
    reduce_args ax0 = {m2, 1, 0}, ax1 = {m2, 1, 1};
    t = time_device(op_sum, &ax0);
    row("sum axis 0 (16384,16384)", side * side, "float32", t, 4.0 * n28d + 4.0 * (double)side, "");
    t = time_device(op_sum, &ax1);
    row("sum axis 1 (16384,16384)", side * side, "float32", t, 4.0 * n28d + 4.0 * (double)side, "");
    ga_release(m2);
    ga_release(a);
    /* (1e6, 2).sum(axis=-1) against an elementwise op moving the same bytes:
       8 MB of input a call, so each takes the next of ROTATE inputs (64 MB,
       more than the L2 cache) */
    int64_t pairs[2] = {1000000, 2}, mil = 1000000;
    reduce_args sums[ROTATE];
    ufunc_args adds[ROTATE];
    ga_array *ec = ga_empty(1, &mil, GA_FLOAT32);
    for (int k = 0; k < ROTATE; k++) {
        sums[k] = (reduce_args){ga_full(2, pairs, ga_float(1.5), GA_FLOAT32), 1, -1};
        adds[k] = (ufunc_args){ga_full(1, &mil, ga_float(1.5), GA_FLOAT32), ga_full(1, &mil, ga_float(2.5), GA_FLOAT32),
                               ec};
        if (!sums[k].a || !adds[k].a || !adds[k].b || !ec) fail("pair operands");
    }
    ga_array *ba = ga_empty(1, &n28, GA_FLOAT32), *bb = ga_empty(1, &n28, GA_FLOAT32);
    if (!ba || !bb) fail("blocker allocation");
    raw blocker = {(uint64_t)(uintptr_t)ga_data(bb), (uint64_t)(uintptr_t)ga_data(ba), NULL, (size_t)n28 * 4};
    rotation sum_rot = {op_sum, sums, sizeof sums[0], 0}, add_rot = {op_add_out, adds, sizeof adds[0], 0};
    t = time_queued(op_rotating, &sum_rot, &blocker);
    row("(1e6,2).sum(axis=-1), calls queued", 2000000, "float32", t, 12e6, "new result");
    t = time_queued(op_rotating, &add_rot, &blocker);
    row("add 1e6 float32 (same bytes), calls queued", 1000000, "float32", t, 12e6, "");
    for (int k = 0; k < ROTATE; k++) {
        ga_release((ga_array *)sums[k].a);
        ga_release((ga_array *)adds[k].a);
        ga_release((ga_array *)adds[k].b);
    }
    ga_release(ec);
    ga_release(ba);
    ga_release(bb);
    /* rows of 17 (a few threads a row) and the fixed cost of a call */
    int64_t rows17[2] = {1000000, 17}, tiny[2] = {1, 2};
    ga_array *p17 = ga_full(2, rows17, ga_float(1.5), GA_FLOAT32), *p1 = ga_full(2, tiny, ga_float(1.5), GA_FLOAT32);
    if (!p17 || !p1) fail("row operands");
    reduce_args last17 = {p17, 1, -1}, last1 = {p1, 1, -1};
    t = time_device(op_sum, &last17);
    row("(1e6,17).sum(axis=-1)", 17000000, "float32", t, 72e6, "new result");
    t = time_device(op_sum, &last1);
    row("(1,2).sum(axis=-1)", 2, "float32", t, 0, "new result: the fixed cost of a call");
    ga_release(p17);
    ga_release(p1);

    /* Sorting (uniform random float32 in [0, 1)) and scans */
    const int64_t n26 = (int64_t)1 << 26, rows2[2] = {65536, 1024};
    float *hk = malloc(sizeof(float) * (size_t)n26);
    if (!hk) fail("host keys");
    uint64_t x64 = 88172645463325252ull;
    for (int64_t i = 0; i < n26; i++) {
        x64 ^= x64 << 13, x64 ^= x64 >> 7, x64 ^= x64 << 17;
        hk[i] = (float)(x64 >> 40) * (1.0f / 16777216.0f);
    }
    ga_array *keys = ga_from_host(hk, 1, &n26, GA_FLOAT32);
    free(hk);
    ga_array *keys2 = keys ? ga_reshape(keys, 2, rows2) : NULL;
    if (!keys2) fail("sort operands");
    t = time_device(op_sort, keys);
    keys_row("sort float32 2^26", n26, t, "new result");
    t = time_device(op_argsort, keys);
    keys_row("argsort float32 2^26", n26, t, "new result");
    t = time_device(op_sort, keys2);
    keys_row("sort rows (65536,1024) axis -1", n26, t, "new result");
    ga_release(keys2);

    /* Sets and histograms: unique of 2^26 int32 with 1000 distinct values
       (uniform), histogram of 2^28 uniform float32 (the sort keys four
       times) into 256 bins, with range=(0, 1) and with the data's range */
    int32_t *hu = malloc(sizeof(int32_t) * (size_t)n26);
    if (!hu) fail("host unique operand");
    for (int64_t i = 0; i < n26; i++) {
        x64 ^= x64 << 13, x64 ^= x64 >> 7, x64 ^= x64 << 17;
        hu[i] = (int32_t)((x64 >> 11) % 1000);
    }
    ga_array *uq = ga_from_host(hu, 1, &n26, GA_INT32);
    free(hu);
    if (!uq) fail("unique operand");
    t = time_device(op_unique, uq);
    char unique_note[64];
    snprintf(unique_note, sizeof unique_note, "%.2f Gkeys/s, new result", (double)n26 / t * 1e-3);
    row("unique int32 2^26 (1000 distinct)", n26, "int32", t, 0, unique_note);
    ga_release(uq);
    ga_array *hist_in = ga_tile(keys, 1, (const int64_t[]){4});
    if (!hist_in) fail("histogram operand");
    t = time_device(op_histogram_range, hist_in);
    row("histogram float32 2^28, 256 bins, range", n28, "float32", t, 4.0 * n28d, "new result");
    t = time_device(op_histogram, hist_in);
    row("histogram float32 2^28, 256 bins", n28, "float32", t, 4.0 * n28d, "new result, min and max first");
    ga_release(hist_in);
    ga_release(keys);
    a = ga_full(1, &n28, ga_float(1.5), GA_FLOAT32);
    if (!a) fail("cumsum operand");
    t = time_device(op_cumsum, a);
    row("cumsum float32 2^28", n28, "float32", t, 8.0 * n28d, "new result");
    ga_release(a);

    /* Boolean mask of uniform random float32 (about half selected): the
       bytes of the comparison (read a, write the mask) and of the select
       (read a and the mask, write the selected). */
    {
        float *h = malloc((size_t)n28 * 4);
        if (!h) fail("mask operand (host)");
        uint64_t s = 0x9E3779B97F4A7C15ull;
        for (int64_t i = 0; i < n28; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            h[i] = (float)(s >> 40) * (1.0f / 16777216.0f);
        }
        a = ga_from_host(h, 1, &n28, GA_FLOAT32);
        free(h);
        ga_array *m = a ? ga_greater_scalar(a, ga_float(0.5)) : NULL, *sel = m ? ga_index_mask(a, m) : NULL;
        if (!sel) fail("mask operand");
        double selected = (double)ga_size(sel);
        ga_release(sel);
        ga_release(m);
        t = time_device(op_mask_select, a);
        row("a[a > 0.5] float32 2^28", n28, "float32", t, 10.0 * n28d + 4.0 * selected,
            "compare + mask, new result");
        ga_release(a);
    }

    /* The CuPy paper's example: x = arange(1e8).reshape(1000, -1).T; x * 2.
       Only the multiply is timed, with a new (F-ordered, as NumPy's
       order='K') result each time: allocation from the pool included. */
    ga_array *x = ga_arange(0, 1e8, 1, GA_FLOAT64);
    ga_array *x2 = x ? ga_reshape(x, 2, (const int64_t[]){1000, -1}) : NULL;
    ga_array *xt = x2 ? ga_transpose(x2, NULL) : NULL;
    if (!xt) fail("arange(1e8).reshape(1000, -1).T");
    ufunc_args paper = {xt, NULL, NULL};
    t = time_device(op_multiply_2_new, &paper);
    row("arange(1e8).reshape(1000,-1).T * 2", ga_size(xt), "float64", t, 16.0 * (double)ga_size(xt),
        "new result each call");
    ga_release(xt);
    ga_release(x2);
    ga_release(x);

    bench_products();
    bench_fft();
    bench_sparse();
    bench_random(false);

    /* host costs, wall clock per call */
    enum { CALLS = 100000 };
    double samples[9];
    for (int k = 0; k < 9; k++) {
        double t0 = wall_us();
        for (int i = 0; i < CALLS; i++) ga_memory_free(ga_memory_alloc(1 << 20));
        samples[k] = (wall_us() - t0) / CALLS;
    }
    row("pool allocate + free (1 MiB)", 1 << 18, "float32", median(samples, 9), 0, "host time per pair");
    int64_t small = 1000;
    for (int k = 0; k < 9; k++) {
        double t0 = wall_us();
        for (int i = 0; i < CALLS / 5; i++) ga_release(ga_empty(1, &small, GA_FLOAT32));
        samples[k] = (wall_us() - t0) / (CALLS / 5);
    }
    row("empty + release (1000)", small, "float32", median(samples, 9), 0, "host time per call");
    ga_array *out = ga_empty(1, &small, GA_FLOAT64), *in = ga_ones(1, &small, GA_FLOAT32);
    pair sp = {out, in};
    for (int k = 0; k < 9; k++) {
        double t0 = wall_us();
        for (int i = 0; i < CALLS / 5; i++) op_copyto(&sp);
        ga_device_synchronize();
        samples[k] = (wall_us() - t0) / (CALLS / 5);
    }
    row("small cast into out (1000)", small, "float32", median(samples, 9), 0, "wall time per op");
    for (int k = 0; k < 9; k++) {
        double t0 = wall_us();
        for (int i = 0; i < CALLS / 5; i++) ga_release(ga_astype(in, GA_FLOAT64));
        ga_device_synchronize();
        samples[k] = (wall_us() - t0) / (CALLS / 5);
    }
    row("small cast, new array (1000)", small, "float32", median(samples, 9), 0, "wall time per op");
    ga_array *sa = ga_ones(1, &small, GA_FLOAT32), *sb = ga_ones(1, &small, GA_FLOAT32);
    ga_array *sc = ga_empty(1, &small, GA_FLOAT32);
    if (!sa || !sb || !sc) fail("small operands");
    ufunc_args sadd = {sa, sb, sc};
    row("small add into out (1000)", small, "float32", time_host(op_add_out, &sadd, CALLS / 5), 0,
        "wall time per op");
    row("small add, new array (1000)", small, "float32", time_host(op_add_new, &sadd, CALLS / 5), 0,
        "wall time per op");
    ga_release(sa);
    ga_release(sb);
    ga_release(sc);
    ga_release(out);
    ga_release(in);
    bench_graph(false);
    bench_io(false);
    return 0;
}
