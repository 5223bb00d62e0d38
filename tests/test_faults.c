/* Fault injection (device tests). A representative program (creation,
   ufuncs, casts, reductions, indexing, masks, sort, scans, sets, linear
   algebra: products (cuBLAS's and the linalg family's kernel),
   batched and single solvers, eigh, svd; a DLPack round trip and wrapped memory;
   random draws; FFTs over cuFFT: a plan made and used again, an r2c
   along an axis that is not the last with a padded n and its c2r, a
   rank-2 fftn) runs with
   - every device allocation failing in turn: an allocator hook set with
     ga_memory_set_allocator fails its k-th call, alone (the pool's retry
     must cope) or with every later one (the failure must surface);
   - every host allocation failing in turn: GPUARR_MALLOC fails its k-th
     call and every later one;
   - every kind of driver call that enqueues or orders work (launches,
     copies, fills, events, waits, synchronisations) failing in turn at
     calls spread over the program, alone and from there on;
   - each kernel family's fatbin missing, truncated or stale.
   Each failure must be a clear error naming a ga_ function (or, where
   the library can work around it, right values), leave nothing
   behind (the pool's used bytes and the live host blocks back to where
   they were, the FFT plan cache with no plan left in use) and leave the
   library working: the same program then runs and gives the right values.
   The plan cache is emptied between runs (as the bytes are counted), so
   that each run makes its plans again. */
#define _POSIX_C_SOURCE 200809L
#undef GPUARR_KERNEL_DIR /* found through ./build/kernels, so the test can hide it */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void *fault_malloc(size_t bytes);
static void fault_free(void *p);
#define GPUARR_MALLOC(bytes) fault_malloc(bytes)
#define GPUARR_FREE(p) fault_free(p)
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

/* ---- the failing allocators ---------------------------------------------- */

/* Host: calls counted; from call number host_fail_from on (when >= 0),
   NULL. host_live counts the blocks not yet freed. */
static long host_calls, host_fail_from = -1, host_live;

static void *fault_malloc(size_t bytes)
{
    long k = host_calls++;
    if (host_fail_from >= 0 && k >= host_fail_from) return NULL;
    void *p = malloc(bytes);
    if (p) host_live++;
    return p;
}

static void fault_free(void *p)
{
    if (!p) return;
    host_live--;
    free(p);
}

/* Device: the pool's chunks through the hook; call dev_fail_only fails, and
   every call from dev_fail_from on. */
static long dev_calls, dev_fail_only = -1, dev_fail_from = -1;

static int fault_alloc(void *user, int device, size_t bytes, uint64_t *ptr)
{
    (void)user;
    (void)device;
    long k = dev_calls++;
    if (k == dev_fail_only || (dev_fail_from >= 0 && k >= dev_fail_from)) return 1;
    CUdeviceptr p = 0;
    if (GA__CU.MemAlloc(&p, bytes) != CUDA_SUCCESS) return 1;
    *ptr = (uint64_t)p;
    return 0;
}

static void fault_release(void *user, int device, uint64_t ptr, size_t bytes)
{
    (void)user;
    (void)device;
    (void)bytes;
    GA__CU.MemFree((CUdeviceptr)ptr);
}

/* The host blocks in use: those live, less the pools' spare block nodes
   (kept for reuse, freed at shutdown; their number follows the pool's
   largest fragmentation, not leaks). */
static long blocks_in_use(void)
{
    long spare = 0;
    ga__pool *pools[2] = {ga__g.device_count ? ga__g.devices[0].pool : NULL, ga__pinned_pool};
    for (int i = 0; i < 2; i++)
        for (ga__block *b = pools[i] ? pools[i]->spare_nodes : NULL; b; b = b->bin_next) spare++;
    return host_live - spare;
}

static void faults_off(void)
{
    host_fail_from = dev_fail_only = dev_fail_from = -1;
}

/* ---- the program ---------------------------------------------------------- */

enum { N = 3000000 }; /* 12 MB float32 arrays: a pool chunk each */

static int cmp_int64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the int64 values of a are distinct and in [0, bound); *read
   false where they could not be read back (the error recorded). */
static bool distinct_below(const ga_array *a, int64_t bound, bool *read)
{
    const int64_t n = ga_size(a);
    if (n <= 0 || n > bound) return false;
    int64_t *v = malloc((size_t)n * sizeof *v);
    if (v && ga_dtype_of(a) == GA_INT64 && ga_to_host(a, v, (size_t)n * sizeof *v) != GA_OK) *read = false;
    bool ok = v && ga_dtype_of(a) == GA_INT64 && *read;
    for (int64_t i = 0; ok && i < n; i++) ok = v[i] >= 0 && v[i] < bound;
    if (ok) qsort(v, (size_t)n, sizeof *v, cmp_int64);
    for (int64_t i = 1; ok && i < n; i++) ok = v[i] != v[i - 1];
    free(v);
    return ok;
}

static bool strict_errors;
static char program_error[512]; /* the last run's error message */

/* Runs the program inside a scope. GA_OK and every value checked, or the
   first error (the chain carries it through the NULL results). */
static ga_status program(bool check_values)
{
    const int64_t n = N;
    if (strict_errors) ga_clear_error();
    ga_stream *side = ga_stream_create(true);
    ga_event *ready = ga_event_create(false);
    ga_scope_begin();
    ga_array *a = ga_arange(0, (double)n, 1, GA_FLOAT32);
    ga_array *b = ga_full(1, &n, ga_float(0.5), GA_FLOAT32);
    ga_array *c = ga_add(a, b);
    ga_array *d = ga_astype(c, GA_FLOAT64);
    ga_array *total = ga_sum(d, GA_ALL_AXES, false);
    ga_array *rows = ga_sum(ga_reshape(d, 2, (int64_t[]){3000, 1000}), GA_AXES(1), false);
    ga_array *peak = ga_max(d, GA_ALL_AXES, false); /* the extrema family's */
    ga_array *nonzero = ga_count_nonzero(a, GA_ALL_AXES, false); /* the logic family's */
    ga_array *strided = ga_copy(ga_index(c, "10:50000:7"));
    ga_array *taken = ga_take(c, ga_arange_int(5, n, 300000, GA_INT64), 0, GA_INDEX_RAISE);
    ga_array *masked = ga_index_mask(a, ga_greater_scalar(a, ga_float((double)n - 10)));
    ga_array *sorted = ga_sort(ga_flip(a, GA_ALL_AXES), -1);
    ga_array *running = ga_cumsum(b, -1, GA_DTYPE_INVALID);
    ga_array *counted = ga_cumsum(ga_greater_scalar(a, ga_float(-1)), -1, GA_DTYPE_INVALID); /* the scan family's */
    ga_array *unique = ga_unique_values(ga_remainder_scalar(a, ga_int(37)));
    ga_array *root = ga_sqrt(ga_index(b, ":4"));
    /* linear algebra: A = 1 + 8 I (8 x 8, a stack of 4: the batched calls) has A 1 = 16 * 1 and
       eigenvalues 8 and 16; B = 1 + 40 I (40 x 40: one call) has B 1 = 80 * 1 */
    ga_array *stack = ga_add(ga_ones(3, (int64_t[]){4, 8, 8}, GA_FLOAT32), ga_multiply_scalar(ga_eye(8, 8, 0, GA_FLOAT32), ga_int(8)));
    ga_array *big = ga_add(ga_ones(2, (int64_t[]){40, 40}, GA_FLOAT32), ga_multiply_scalar(ga_eye(40, 40, 0, GA_FLOAT32), ga_int(40)));
    ga_array *x = ga_linalg_solve(stack, ga_ones(3, (int64_t[]){4, 8, 1}, GA_FLOAT32));
    ga_array *inv = ga_sum(ga_linalg_inv(big), GA_AXES(1), false);
    ga_array *w = NULL, *v = NULL;
    if (ga_linalg_eigh(stack, 'L', &w, &v) != GA_OK) w = NULL;
    ga_array *prod = ga_matmul(stack, ga_linalg_inv(stack));
    /* svd: C = 1 + 256 I (256 x 256 float32: through the float64 Gram
       matrix where the device's float64 rate allows, else gesvd) has
       singular values 512 and 256 (255 times) */
    ga_array *csq = ga_add(ga_ones(2, (int64_t[]){256, 256}, GA_FLOAT32),
                           ga_multiply_scalar(ga_eye(256, 256, 0, GA_FLOAT32), ga_int(256)));
    ga_array *sv = ga_linalg_svdvals(csq);
    ga_array *iprod = ga_matmul(ga_ones(2, (int64_t[]){3, 4}, GA_INT32), ga_ones(2, (int64_t[]){4, 2}, GA_INT32)); /* the linalg family */
    ga_array *sq = ga_ones(2, (int64_t[]){100, 100}, GA_FLOAT32), *bprod = ga_matmul(sq, sq); /* large enough for cuBLAS */
    /* interop: a DLPack round trip of a view, and memory wrapped as from elsewhere */
    DLManagedTensorVersioned *dl = ga_to_dlpack(ga_index(c, "::2"), -1, GA_COPY_IF_NEEDED);
    ga_array *back = dl ? ga_from_dlpack(dl, -1, GA_COPY_IF_NEEDED) : NULL;
    ga_array *wrapped = ga_from_device_ptr(ga_data(b), GA_FLOAT32, 1, &n, NULL, -1, NULL, NULL);
    ga_array *mixed = ga_add(back, ga_index(wrapped, "::2"));
    ga_array *drawn = ga_random_standard_normal(NULL, 1, &n, GA_FLOAT32); /* the random family */
    /* the distributions: array parameters (copied and checked), rejection
       samplers, Lemire's integers, permutations and weighted choice */
    const ga_operand loc_scale[2] = {ga_operand_array(ga_index(a, ":1000")), ga_operand_scalar(ga_float(2))};
    ga_array *normal = ga_random_call(NULL, GA_RANDOM_NORMAL, loc_scale, 0, NULL, GA_DTYPE_INVALID);
    ga_array *gamma = ga_random_gamma(NULL, 2.5, 1, 1, &n);
    ga_array *dice = ga_random_integers(NULL, ga_int(1), ga_int(7), 1, &n, GA_INT8, false);
    ga_array *perm = ga_random_permutation(NULL, 100000);
    const int64_t four = 4, draws = 1000;
    ga_array *weights = ga_multiply_scalar(ga_ones(1, &four, GA_FLOAT64), ga_float(0.25));
    ga_array *picked = weights ? ga_random_choice(NULL, 4, 1, &draws, true, weights) : NULL;
    /* without replacement: the first occurrences found by slots (250 of
       1000) and by a sort (3000 of 2^20 + 1) */
    const int64_t quarter = 250, some = 3000;
    ga_array *dealt = ga_random_choice(NULL, 1000, 1, &quarter, false, NULL);
    ga_array *drafted = ga_random_choice(NULL, ((int64_t)1 << 20) + 1, 1, &some, false, NULL);
    const bool drew = normal && gamma && dice && perm && picked && dealt && drafted;
    /* FFTs: block[i, j] = 512 i + j; fft then ifft (a plan made, then found
       in the cache), rfft along axis 0 padded to 10 rows and irfft back
       (the rows past 8 zero), fftn over both axes (one rank-2 plan) */
    const int64_t grid[2] = {8, 512};
    ga_array *block = ga_reshape(ga_index(a, ":4096"), 2, grid), *cblock = ga_astype(block, GA_COMPLEX64);
    ga_array *signal = ga_fft_ifft(ga_fft_fft(cblock, GA_NONE, -1, GA_FFT_NORM_BACKWARD), GA_NONE, -1, GA_FFT_NORM_BACKWARD);
    ga_array *padded = ga_fft_irfft(ga_fft_rfft(block, 10, 0, GA_FFT_NORM_ORTHO), 10, 0, GA_FFT_NORM_ORTHO);
    ga_array *plane = ga_fft_fftn(cblock, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD);
    const bool transformed = signal && padded && plane;
    /* sparse: B's CSR from the dense array (its structure counted on the
       device), B 1 through cuSPARSE's SpMV (80 each), B times (40, 3) ones
       through our SpMM kernel (80 each), a 2 x 5000 CSR of ones (rows past
       4096 entries: the chunk kernels) times (5000, 2) ones (5000 each),
       B's CSC back to dense */
    /* (only after the FFTs went through: a failure of theirs stays the one reported, as the walks count them) */
    ga_sparse *sb = transformed ? ga_sparse_csr_matrix_from_dense(big) : NULL;
    ga_array *sx = sb ? ga_sparse_matmul(sb, ga_ones(1, (int64_t[]){40}, GA_FLOAT32)) : NULL;
    ga_array *sm = sx ? ga_sparse_matmul(sb, ga_ones(2, (int64_t[]){40, 3}, GA_FLOAT32)) : NULL;
    ga_sparse *wide = sm ? ga_sparse_csr_matrix_from_dense(ga_ones(2, (int64_t[]){2, 5000}, GA_FLOAT32)) : NULL;
    ga_array *sl = wide ? ga_sparse_matmul(wide, ga_ones(2, (int64_t[]){5000, 2}, GA_FLOAT32)) : NULL;
    ga_array *sd = sl ? ga_sparse_toarray(ga_sparse_tocsc(sb)) : NULL;
    /* a second stream: 2 c + b made there, an event the current stream
       waits for before reading it; the stream is destroyed after the
       scope, which frees the arrays made there on it */
    ga_array *twice = NULL;
    if (sd && side && ready && ga_stream_push(side) == GA_OK) { /* (after the rest went through, as the sparse part) */
        twice = ga_add(ga_multiply_scalar(c, ga_int(2)), b);
        if (ga_stream_pop() != GA_OK || ga_event_record(ready, side) != GA_OK || ga_stream_wait_event(NULL, ready) != GA_OK)
            twice = NULL;
    }
    ga_status st = GA_OK;
    if (!twice || !counted || !total || !peak || !nonzero || !rows || !strided || !taken || !masked || !sorted || !running || !unique || !root || !x || !inv || !w || !prod || !sv || !iprod || !bprod || !mixed || !drawn || !drew || !transformed || !sx || !sm || !sl || !sd) {
        st = ga_last_error();
        if (st == GA_OK) {
            CHECK(false, "a result is NULL with no error recorded");
            st = GA_ERROR_VALUE;
        }
    } else if (check_values) {
        double t = 0, top = 0, r[3000];
        int64_t nz = 0;
        float s[2], k[10], m[9], so[3], cs[1], rt[4];
        int64_t last = n - 1;
        ga_array *tail = ga_index(running, "-1:");
        float hx[32], hi[40], hw[32], hp[256], hs[2];
        int32_t hip[6];
        float hb[2], mx[2], sg[4], pd[3], pl[4], hsx[40], hsd[2], tw[2], hsm[3], hsl[4];
        int64_t count = 0;
        bool ok = ga_to_host(ga_index(twice, ":2"), tw, sizeof tw) == GA_OK && ga_to_host(ga_index(counted, "-1"), &count, sizeof count) == GA_OK && ga_to_host(sx, hsx, sizeof hsx) == GA_OK && ga_to_host(ga_index(sd, "0, :2"), hsd, sizeof hsd) == GA_OK &&
                  ga_to_host(ga_index(sm, "-1"), hsm, sizeof hsm) == GA_OK && ga_to_host(sl, hsl, sizeof hsl) == GA_OK &&
                  ga_to_host(ga_index(mixed, ":2"), mx, sizeof mx) == GA_OK && ga_to_host(x, hx, sizeof hx) == GA_OK && ga_to_host(inv, hi, sizeof hi) == GA_OK &&
                  ga_to_host(iprod, hip, sizeof hip) == GA_OK && ga_to_host(ga_index(bprod, "-1, -2:"), hb, sizeof hb) == GA_OK &&
                  ga_to_host(w, hw, sizeof hw) == GA_OK && ga_to_host(prod, hp, sizeof hp) == GA_OK &&
                  ga_to_host(ga_index(sv, "::255"), hs, sizeof hs) == GA_OK &&
                  ga_to_host(total, &t, sizeof t) == GA_OK && ga_to_host(peak, &top, sizeof top) == GA_OK &&
                  ga_to_host(nonzero, &nz, sizeof nz) == GA_OK &&
                  ga_to_host(rows, r, sizeof r) == GA_OK &&
                  ga_to_host(ga_index(strided, ":2"), s, sizeof s) == GA_OK &&
                  ga_to_host(taken, k, sizeof k) == GA_OK && ga_to_host(masked, m, sizeof m) == GA_OK &&
                  ga_to_host(ga_index(sorted, ":3"), so, sizeof so) == GA_OK &&
                  ga_to_host(tail, cs, sizeof cs) == GA_OK && ga_to_host(root, rt, sizeof rt) == GA_OK &&
                  ga_to_host(ga_index(signal, "1:8:6, 2"), sg, sizeof sg) == GA_OK &&
                  ga_to_host(ga_index(padded, "7:, 511"), pd, sizeof pd) == GA_OK &&
                  ga_to_host(ga_index(plane, ":2, 0"), pl, sizeof pl) == GA_OK;
        if (!ok) {
            st = ga_last_error();
        } else {
            CHECK(t == 0.5 * (double)n * (double)n, "sum %.17g", t);
            CHECK(top == (double)n - 0.5, "max %.17g", top);
            CHECK(nz == n - 1, "count_nonzero of arange %lld", (long long)nz);
            CHECK(tw[0] == 1.5f && tw[1] == 3.5f, "2 c + b on a second stream %g %g", tw[0], tw[1]);
            CHECK(count == n, "cumsum of a > -1: %lld", (long long)count);
            CHECK(r[0] == 500000.0 && r[2999] == 2999.0 * 1e6 + 500000.0, "row sums %.17g %.17g", r[0], r[2999]);
            CHECK(s[0] == 10.5f && s[1] == 17.5f, "strided %g %g", s[0], s[1]);
            CHECK(k[0] == 5.5f && k[9] == 2700005.5f, "take %g %g", k[0], k[9]);
            CHECK(ga_size(masked) == 9 && m[0] == (float)(n - 9) && m[8] == (float)last, "mask %g..%g", m[0], m[8]);
            CHECK(so[0] == 0.0f && so[2] == 2.0f, "sort %g %g", so[0], so[2]);
            CHECK(cs[0] == 0.5f * (float)n, "cumsum %g", cs[0]);
            CHECK(ga_size(unique) == 37, "unique %lld", (long long)ga_size(unique));
            CHECK(rt[0] == sqrtf(0.5f) && rt[3] == sqrtf(0.5f), "sqrt %g", rt[0]);
            CHECK(fabsf(hx[0] - 0.0625f) < 1e-6f && fabsf(hx[31] - 0.0625f) < 1e-6f, "solve %g %g", hx[0], hx[31]);
            CHECK(fabsf(hi[0] - 0.0125f) < 1e-6f && fabsf(hi[39] - 0.0125f) < 1e-6f, "inv row sums %g %g", hi[0], hi[39]);
            CHECK(fabsf(hw[0] - 8) < 1e-4f && fabsf(hw[7] - 16) < 1e-4f && fabsf(hw[31] - 16) < 1e-4f, "eigh %g %g", hw[0], hw[7]);
            CHECK(fabsf(hs[0] - 512) < 1e-2f && fabsf(hs[1] - 256) < 1e-2f, "svdvals %g %g", hs[0], hs[1]);
            CHECK(hip[0] == 4 && hip[5] == 4, "int32 matmul %d %d", hip[0], hip[5]);
            CHECK(hb[0] == 100 && hb[1] == 100, "100 x 100 matmul %g %g", hb[0], hb[1]);
            CHECK(mx[0] == 1.0f && mx[1] == 3.0f, "DLPack and wrapped memory %g %g", mx[0], mx[1]);
            CHECK(fabsf(hp[0] - 1) < 1e-5f && fabsf(hp[1]) < 1e-5f && fabsf(hp[255] - 1) < 1e-5f, "A inv(A) %g %g", hp[0], hp[1]);
            bool read = true;
            const bool distinct = distinct_below(dealt, 1000, &read) && distinct_below(drafted, ((int64_t)1 << 20) + 1, &read);
            if (!read) st = ga_last_error();
            else CHECK(distinct, "choice without replacement: repeated or out-of-range values");
            CHECK(fabsf(sg[0] - 514) < 0.05f && fabsf(sg[1]) < 0.05f && fabsf(sg[2] - 3586) < 0.05f && fabsf(sg[3]) < 0.05f,
                  "ifft(fft(x)) %g%+gi %g%+gi", sg[0], sg[1], sg[2], sg[3]);
            CHECK(fabsf(pd[0] - 4095) < 0.05f && fabsf(pd[1]) < 0.05f && fabsf(pd[2]) < 0.05f,
                  "irfft(rfft(x, 10, axis 0)) %g %g %g", pd[0], pd[1], pd[2]);
            /* the sum of 512 i + j, and at (1, 0) 512^2 sum_i i w^i = 512^2 8 / (w - 1) = 2^20 (-1 + (1 + sqrt 2) i), w = exp(-2 pi i / 8) */
            CHECK(hsx[0] == 80 && hsx[39] == 80 && hsd[0] == 41 && hsd[1] == 1, "sparse B 1 %g %g, B[0, :2] %g %g", hsx[0], hsx[39],
                  hsd[0], hsd[1]);
            CHECK(hsm[0] == 80 && hsm[2] == 80 && hsl[0] == 5000 && hsl[3] == 5000, "sparse B (40, 3) %g %g, long rows %g %g",
                  hsm[0], hsm[2], hsl[0], hsl[3]);
            CHECK(fabsf(pl[0] - 8386560) < 50 && fabsf(pl[1]) < 50 && fabsf(pl[2] + 1048576) < 50 &&
                  fabsf(pl[3] - 2531485.2f) < 50, "fftn %g%+gi %g%+gi", pl[0], pl[1], pl[2], pl[3]);
        }
    }
    ga_scope_end();
    /* the driver walk: an error recorded but lost along a chain counts as reported */
    if (strict_errors && st == GA_OK && ga_last_error() != GA_OK) st = ga_last_error();
    /* the run's error, before the stream's and event's ends (which may record their own) */
    snprintf(program_error, sizeof program_error, "%s", ga_last_error_message());
    ga_stream_destroy(side);
    ga_event_destroy(ready);
    return st;
}

/* The pool's bytes in use, its cached chunks given back first (so that
   their block nodes do not count as host blocks in use either), and the
   FFT plan cache emptied (its plans are host blocks; the next run makes
   them again). */
static size_t used_bytes(void)
{
    ga_memory_stats s;
    if (ga_device_synchronize() != GA_OK || ga_fft_plan_cache_clear() != GA_OK || ga_memory_free_all_blocks(0) != GA_OK ||
        ga_memory_get_stats(0, &s) != GA_OK)
        return (size_t)-1;
    return s.used_bytes;
}

/* The FFT plan cache after a run: within its limit, every plan listed
   as cached and none left in use (a failed call released its plan; a
   failed plan creation listed nothing). */
static bool plan_cache_consistent(void)
{
    ga__fft_cache *c = &ga__fft_caches[0];
    bool ok = c->count >= 0 && c->count <= ga__fft_max_size(c) && c->count <= c->capacity;
    for (int i = 0; ok && i < c->count; i++) ok = c->plans[i] && !c->plans[i]->busy && c->plans[i]->cached;
    return ok;
}

/* The runs whose failure surfaced in an FFT function. */
static int fft_failures;

/* After a run with a fault: it failed with an error that names a function
   and says out of memory (device or host), or it coped and its values were
   checked; either way nothing is left behind. */
static void check_after_fault(const char *what, long k, ga_status st, ga_status want, size_t used0, long live0)
{
    const char *msg = program_error;
    if (st != GA_OK)
        CHECK(st == want && strncmp(msg, "ga_", 3) == 0, "%s %ld: %s, \"%s\"", what, k, ga_status_string(st), msg);
    if (st != GA_OK && strncmp(msg, "ga_fft_", 7) == 0) fft_failures++;
    ga_clear_error();
    CHECK(plan_cache_consistent(), "%s %ld: the FFT plan cache holds a plan in use or beyond its limit", what, k);
    size_t used = used_bytes();
    CHECK(used == used0, "%s %ld: the pool holds %zu bytes in use (%zu before)", what, k, used, used0);
    CHECK(blocks_in_use() == live0, "%s %ld: %ld host blocks in use (%ld before)", what, k, blocks_in_use(), live0);
}

/* ---- allocation failures -------------------------------------------------- */

DEVICE_TEST(every_device_allocation_fails_cleanly)
{
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_memory_free_all_blocks(-1));
    ga_allocator hook = {fault_alloc, fault_release, NULL};
    CHECK_OK(ga_memory_set_allocator(0, &hook));
    CHECK_OK(program(true)); /* loads the families and sizes the bookkeeping */
    size_t used0 = used_bytes();
    long live0 = blocks_in_use(), before = dev_calls;
    CHECK_OK(program(true));
    ga_fft_plan_cache_info info;
    CHECK_OK(ga_fft_plan_cache_get_info(&info));
    CHECK(info.misses >= 3 && info.hits >= 1, "the program's FFTs: %llu plans made, %llu found",
          (unsigned long long)info.misses, (unsigned long long)info.hits);
    long calls = dev_calls - before;
    fft_failures = 0;
    CHECK(calls >= 10, "the program makes %ld device allocations", calls);
    int surfaced = 0, recovered = 0;
    for (long k = 0; k < calls; k++) {
        /* only the k-th fails: the pool gives its cached chunks back and retries */
        CHECK_OK(ga_memory_free_all_blocks(0));
        dev_fail_only = dev_calls + k;
        ga_status st = program(true);
        faults_off();
        if (st == GA_OK) recovered++;
        check_after_fault("device allocation (alone)", k, st, GA_ERROR_OUT_OF_MEMORY, used0, live0);
        /* the k-th and every later one fail: the error surfaces */
        CHECK_OK(ga_memory_free_all_blocks(0));
        dev_fail_from = dev_calls + k;
        st = program(true);
        faults_off();
        if (st != GA_OK) surfaced++;
        check_after_fault("device allocation", k, st, GA_ERROR_OUT_OF_MEMORY, used0, live0);
        CHECK_OK(program(true)); /* and the library still works */
    }
    CHECK(surfaced > 0, "no failure surfaced");
    printf("    %ld device allocations: %d runs recovered from one failure, %d of %ld runs failing from the k-th on "
           "reported it (%d in an FFT)\n", calls, recovered, surfaced, calls, fft_failures);
    CHECK_OK(ga_memory_free_all_blocks(0));
    CHECK_OK(ga_memory_set_allocator(0, NULL));
}

/* Transforms of arrays of 16 MiB, each of whose results, copies and work
   areas takes a chunk of its own: the walk above finds room in the pool's
   chunks by the time its FFTs run, so their device allocations are walked
   here. fft and ifft along axis 0 (strided batches), rfftn and irfftn of
   the real part: both give ones back. */
static ga_status fft_program(const ga_array *x, const ga_array *xr)
{
    ga_scope_begin();
    ga_array *y = ga_fft_ifft(ga_fft_fft(x, GA_NONE, 0, GA_FFT_NORM_BACKWARD), GA_NONE, 0, GA_FFT_NORM_BACKWARD);
    ga_array *r = ga_fft_irfftn(ga_fft_rfftn(xr, -1, NULL, -1, NULL, GA_FFT_NORM_ORTHO), -1, NULL, -1, NULL,
                                GA_FFT_NORM_ORTHO);
    float hy[2] = {0}, hr = 0;
    ga_status st = GA_OK;
    if (ga_to_host(ga_index(y, "2047, 1023"), hy, sizeof hy) != GA_OK || ga_to_host(ga_index(r, "4095, 1023"), &hr, sizeof hr) != GA_OK)
        st = ga_last_error();
    else
        CHECK(fabsf(hy[0] - 1) < 1e-5f && fabsf(hy[1]) < 1e-5f && fabsf(hr - 1) < 1e-5f, "ifft(fft(1)) %g%+gi, irfftn(rfftn(1)) %g",
              hy[0], hy[1], hr);
    ga_scope_end();
    snprintf(program_error, sizeof program_error, "%s", ga_last_error_message());
    return st;
}

DEVICE_TEST(every_device_allocation_of_an_fft_fails_cleanly)
{
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_memory_free_all_blocks(-1));
    ga_allocator hook = {fault_alloc, fault_release, NULL};
    CHECK_OK(ga_memory_set_allocator(0, &hook));
    ga_array *x = ga_ones(2, (int64_t[]){2048, 1024}, GA_COMPLEX64), *xr = ga_ones(2, (int64_t[]){4096, 1024}, GA_FLOAT32);
    CHECK_OK(fft_program(x, xr)); /* loads cuFFT and the families */
    size_t used0 = used_bytes();
    long live0 = blocks_in_use(), before = dev_calls;
    CHECK_OK(fft_program(x, xr));
    long calls = dev_calls - before;
    CHECK(calls >= 4, "the transforms make %ld device allocations", calls);
    fft_failures = 0;
    int surfaced = 0;
    for (long k = 0; k < calls; k++) {
        CHECK_OK(ga_memory_free_all_blocks(0));
        dev_fail_from = dev_calls + k;
        ga_status st = fft_program(x, xr);
        faults_off();
        if (st != GA_OK) surfaced++;
        check_after_fault("device allocation in an FFT", k, st, GA_ERROR_OUT_OF_MEMORY, used0, live0);
        CHECK_OK(fft_program(x, xr));
    }
    CHECK(fft_failures > 0, "no failure surfaced in an FFT");
    printf("    %ld device allocations of transforms: %d of %ld runs failing from the k-th on reported it (%d in an FFT)\n",
           calls, surfaced, calls, fft_failures);
    ga_release(x), ga_release(xr);
    CHECK_OK(ga_memory_free_all_blocks(0));
    CHECK_OK(ga_memory_set_allocator(0, NULL));
}

DEVICE_TEST(every_host_allocation_fails_cleanly)
{
    CHECK_OK(program(true));
    size_t used0 = used_bytes();
    long live0 = blocks_in_use(), before = host_calls;
    CHECK_OK(program(true));
    long calls = host_calls - before;
    fft_failures = 0;
    CHECK(calls >= 10, "the program makes %ld host allocations", calls);
    int surfaced = 0;
    for (long k = 0; k < calls; k++) {
        (void)used_bytes(); /* each run starts from an empty pool, as the counted one */
        host_fail_from = host_calls + k;
        ga_status st = program(true);
        faults_off();
        if (st != GA_OK) surfaced++;
        check_after_fault("host allocation", k, st, GA_ERROR_HOST_OUT_OF_MEMORY, used0, live0);
        CHECK_OK(program(true));
    }
    CHECK(surfaced > 0, "no failure surfaced");
    CHECK(fft_failures > 0, "no failure surfaced in an FFT");
    printf("    %ld host allocations: %d of %ld runs failing from the k-th on reported it (%d in an FFT), the others "
           "coped\n", calls, surfaced, calls, fft_failures);
}

/* ---- driver calls that fail ------------------------------------------------ */

/* The driver calls that enqueue or order work, each replaced in the
   library's driver table by one that counts its calls and fails where
   told (a launch with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, the others with
   CUDA_ERROR_UNKNOWN): none of them is sticky, so the library must report
   the call's failure and go on working. */
#define DRIVER_FAULTS(X)     \
    X(LaunchKernel)          \
    X(LaunchKernelEx)        \
    X(MemcpyHtoDAsync)       \
    X(MemcpyDtoHAsync)       \
    X(MemcpyDtoDAsync)       \
    X(MemsetD8Async)         \
    X(EventCreate)           \
    X(EventRecord)           \
    X(StreamWaitEvent)       \
    X(EventSynchronize)      \
    X(StreamSynchronize)
enum {
#define DRIVER_FAULT_ENUM(name) DF_##name,
    DRIVER_FAULTS(DRIVER_FAULT_ENUM)
#undef DRIVER_FAULT_ENUM
    DF_COUNT
};
static const char *const driver_fault_names[DF_COUNT] = {
#define DRIVER_FAULT_NAME(name) "cu" #name,
    DRIVER_FAULTS(DRIVER_FAULT_NAME)
#undef DRIVER_FAULT_NAME
};
static long drv_calls[DF_COUNT];
static int drv_kind = -1;
static long drv_fail_only = -1, drv_fail_from = -1;
static ga__driver real_cu;

static bool drv_fails(int kind)
{
    long k = drv_calls[kind]++;
    return kind == drv_kind && (k == drv_fail_only || (drv_fail_from >= 0 && k >= drv_fail_from));
}

static CUresult fault_LaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    if (drv_fails(DF_LaunchKernel)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    return real_cu.LaunchKernel(f, gx, gy, gz, bx, by, bz, shared, s, params, extra);
}
static CUresult fault_LaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    if (drv_fails(DF_LaunchKernelEx)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    return real_cu.LaunchKernelEx(config, f, params, extra);
}
static CUresult fault_MemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    return drv_fails(DF_MemcpyHtoDAsync) ? CUDA_ERROR_UNKNOWN : real_cu.MemcpyHtoDAsync(dst, src, n, s);
}
static CUresult fault_MemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    return drv_fails(DF_MemcpyDtoHAsync) ? CUDA_ERROR_UNKNOWN : real_cu.MemcpyDtoHAsync(dst, src, n, s);
}
static CUresult fault_MemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    return drv_fails(DF_MemcpyDtoDAsync) ? CUDA_ERROR_UNKNOWN : real_cu.MemcpyDtoDAsync(dst, src, n, s);
}
static CUresult fault_MemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
    return drv_fails(DF_MemsetD8Async) ? CUDA_ERROR_UNKNOWN : real_cu.MemsetD8Async(dst, v, n, s);
}
static CUresult fault_EventCreate(CUevent *e, unsigned int flags)
{
    return drv_fails(DF_EventCreate) ? CUDA_ERROR_UNKNOWN : real_cu.EventCreate(e, flags);
}
static CUresult fault_EventRecord(CUevent e, CUstream s)
{
    return drv_fails(DF_EventRecord) ? CUDA_ERROR_UNKNOWN : real_cu.EventRecord(e, s);
}
static CUresult fault_StreamWaitEvent(CUstream s, CUevent e, unsigned int flags)
{
    return drv_fails(DF_StreamWaitEvent) ? CUDA_ERROR_UNKNOWN : real_cu.StreamWaitEvent(s, e, flags);
}
static CUresult fault_EventSynchronize(CUevent e)
{
    return drv_fails(DF_EventSynchronize) ? CUDA_ERROR_UNKNOWN : real_cu.EventSynchronize(e);
}
static CUresult fault_StreamSynchronize(CUstream s)
{
    return drv_fails(DF_StreamSynchronize) ? CUDA_ERROR_UNKNOWN : real_cu.StreamSynchronize(s);
}

static void driver_faults_install(void)
{
    real_cu = GA__CU;
#define DRIVER_FAULT_SET(name) GA__CU.name = fault_##name;
    DRIVER_FAULTS(DRIVER_FAULT_SET)
#undef DRIVER_FAULT_SET
}

static void driver_faults_off(void) { drv_kind = -1, drv_fail_only = drv_fail_from = -1; }

/* Every kind of call fails in turn at up to DRIVER_WALK of its calls in
   the program (all of them where there are fewer; else spread evenly from
   the first to the last), once alone and once from there on. Each run
   must either report a driver failure (GA_ERROR_CUDA) by a ga_ function,
   or cope and give the right values (a failed event or wait the pool
   works around); nothing may be left behind, and the next run must
   succeed. A launch, copy or fill that fails must surface. */
enum { DRIVER_WALK = 24 };

DEVICE_TEST(every_driver_call_failure_is_reported_cleanly)
{
    CHECK_OK(program(true)); /* loads the families, the libraries' handles and the plans */
    size_t used0 = used_bytes();
    long live0 = blocks_in_use();
    driver_faults_install();
    strict_errors = true;
    long before[DF_COUNT], calls[DF_COUNT];
    memcpy(before, drv_calls, sizeof before);
    CHECK_OK(program(true));
    for (int f = 0; f < DF_COUNT; f++) calls[f] = drv_calls[f] - before[f];
    CHECK(calls[DF_LaunchKernel] + calls[DF_LaunchKernelEx] >= 50 && calls[DF_MemcpyDtoHAsync] + calls[DF_MemcpyHtoDAsync] >= 5,
          "the program launched %ld kernels and made %ld copies", calls[DF_LaunchKernel] + calls[DF_LaunchKernelEx],
          calls[DF_MemcpyDtoHAsync] + calls[DF_MemcpyHtoDAsync]);
    for (int f = 0; f < DF_COUNT; f++) {
        const bool must_surface = f <= DF_MemsetD8Async;
        int runs = 0, surfaced = 0;
        for (long i = 0; i < calls[f] && i < DRIVER_WALK; i++) {
            const long k = calls[f] <= DRIVER_WALK ? i : i * (calls[f] - 1) / (DRIVER_WALK - 1);
            for (int from = 0; from < 2; from++) {
                (void)used_bytes(); /* each run starts from an empty pool, as the counted one */
                drv_kind = f;
                if (from) drv_fail_from = drv_calls[f] + k;
                else drv_fail_only = drv_calls[f] + k;
                ga_status st = program(true);
                driver_faults_off();
                runs++;
                if (st != GA_OK) surfaced++;
                char what[96];
                snprintf(what, sizeof what, "%s failing at call %s", driver_fault_names[f], from ? "k and on" : "k alone");
                if (must_surface && !from)
                    CHECK(st != GA_OK, "%s %ld: the program reported no error", what, k);
                check_after_fault(what, k, st, GA_ERROR_CUDA, used0, live0);
                CHECK_OK(program(true));
            }
        }
        printf("    %s: %ld calls in the program, %d runs with a failure, %d reported it\n", driver_fault_names[f], calls[f],
               runs, surfaced);
    }
    GA__CU = real_cu;
    strict_errors = false;
}

/* ---- kernel families that cannot be loaded ---------------------------------- */

static bool copy_file(const char *from, const char *to, long limit)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[65536];
    long done = 0;
    size_t got;
    while (ok && (limit < 0 || done < limit) && (got = fread(buf, 1, sizeof buf, in)) > 0) {
        if (limit >= 0 && done + (long)got > limit) got = (size_t)(limit - done);
        ok = fwrite(buf, 1, got, out) == got;
        done += (long)got;
    }
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = false;
    return ok;
}

/* A directory of every family's fatbin but `family`'s, which is missing
   (defect 0), truncated (1) or stale (2): build/tests/faults/<family>-<defect>. */
static const char *const defects[3] = {"missing", "truncated", "stale"};
static void fill_kernel_dir(char *dir, size_t size, const char *family, int defect)
{
    char path[512], src[512];
    mkdir("build/tests/faults", 0755);
    snprintf(dir, size, "build/tests/faults/%s-%s", family, defects[defect]);
    mkdir(dir, 0755);
    for (int g = 0; g < ga_kernel_family_count(); g++) {
        const char *other = ga_kernel_family_name(g);
        snprintf(src, sizeof src, "build/kernels/%s.fatbin", other);
        snprintf(path, sizeof path, "%s/%s.fatbin", dir, other);
        remove(path);
        if (strcmp(other, family) != 0) CHECK(copy_file(src, path, -1), "copying %s", src);
        else if (defect == 1) CHECK(copy_file(src, path, 4096), "truncating %s", src);
        else if (defect == 2) CHECK(copy_file("build/tests/stale/creation.fatbin", path, -1), "stale %s", other);
    }
}

/* The library restarted on the kernels of dir (from elsewhere, so that
   ./build/kernels does not stand in); leave_kernel_dir returns to cwd and
   the build's kernels. */
static void enter_kernel_dir(const char *dir, char *cwd, size_t size)
{
    char abs_dir[4096 + 256];
    CHECK(getcwd(cwd, size) != NULL, "getcwd");
    snprintf(abs_dir, sizeof abs_dir, "%s/%s", cwd, dir);
    ga_shutdown();
    setenv("GPUARR_KERNEL_DIR", abs_dir, 1);
    CHECK(chdir("/") == 0, "chdir /");
}
static void leave_kernel_dir(const char *cwd)
{
    CHECK(chdir(cwd) == 0, "chdir back");
    unsetenv("GPUARR_KERNEL_DIR");
    ga_shutdown();
}

/* Last: they restart the library with other kernel directories. */
DEVICE_TEST(every_family_missing_truncated_or_stale_fails_cleanly)
{
    static const ga_status codes[3] = {GA_ERROR_KERNELS_MISSING, GA_ERROR_KERNELS_STALE, GA_ERROR_KERNELS_STALE};
    char dir[256], cwd[4096];
    for (int f = 0; f < ga_kernel_family_count(); f++) {
        const char *family = ga_kernel_family_name(f);
        for (int d = 0; d < 3; d++) {
            fill_kernel_dir(dir, sizeof dir, family, d);
            enter_kernel_dir(dir, cwd, sizeof cwd);
            ga_status st = program(false);
            const char *msg = program_error;
            CHECK(st == codes[d] && strncmp(msg, "ga_", 3) == 0 && strstr(msg, family),
                  "%s %s: %s, \"%s\"", family, defects[d], ga_status_string(st), msg);
            ga_clear_error();
            size_t used = used_bytes();
            CHECK(used == 0, "%s %s: %zu bytes left in use", family, defects[d], used);
            leave_kernel_dir(cwd);
            CHECK_OK(program(true));
        }
    }
}

/* The extrema and logic families' kernels write the reduce family's
   warning word: their reductions, run first, load that family too, and
   without it fail as it is missing, naming it, leaving nothing behind. */
DEVICE_TEST(extrema_and_logic_first_need_the_reduce_family)
{
    char dir[256], cwd[4096];
    fill_kernel_dir(dir, sizeof dir, "reduce", 0);
    for (int k = 0; k < 2; k++) {
        const char *func = k == 0 ? "ga_max" : "ga_count_nonzero";
        enter_kernel_dir(dir, cwd, sizeof cwd);
        ga_array *a = ga_arange(0, 1000, 1, GA_FLOAT32);
        CHECK(a != NULL, "arange: %s", ga_last_error_message());
        ga_array *r = k == 0 ? ga_max(a, GA_ALL_AXES, false) : ga_count_nonzero(a, GA_ALL_AXES, false);
        const char *msg = ga_last_error_message();
        CHECK(r == NULL && ga_last_error() == GA_ERROR_KERNELS_MISSING && strncmp(msg, func, strlen(func)) == 0 &&
                  strstr(msg, "reduce"),
              "%s without the reduce family: %s, \"%s\"", func, ga_status_string(ga_last_error()), msg);
        ga_clear_error();
        ga_release(r);
        ga_release(a);
        size_t used = used_bytes();
        CHECK(used == 0, "%s: %zu bytes left in use", func, used);
        leave_kernel_dir(cwd);
        CHECK_OK(program(true));
    }
}
