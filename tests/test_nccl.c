/* Tests of the NCCL section (gpuarr.h, >>nccl): loading NCCL, the checks of
   arguments that need no GPU (host tests); on the GPU, with every visible
   device (one or more) driven from this thread through
   ga_nccl_comm_init_all and groups: a communicator of one rank through a
   unique id, each collective against a host reference in long double for
   every dtype it takes (every op of the reductions), on odd sizes, in place
   and out of place, from strided inputs; all_to_all through ncclAlltoAll
   (where NCCL has it) and through the group of sends and receives
   (GPUARR_NCCL_ALLTOALL=0); the refusals in their words;
   split, abort, destroy, the wait on a healthy communicator, and (with two
   GPUs or more) the wait's timeout on a peer that never joins.

   NCCL_NVLS_ENABLE=0 is set before any NCCL call when it is unset (NVLink
   multicast stays off, as the GPU machines require). */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include "host_array.h"
#include "cuda_library.h"

#include <math.h>

__attribute__((constructor(200))) static void nvls_off(void) { setenv("NCCL_NVLS_ENABLE", "0", 0); }

enum { MAX_RANKS = 8 };
static const char *const op_names[] = {"sum", "prod", "max", "min", "avg"};

/* ---- loading NCCL (host) ----------------------------------------------------- */

TEST(nccl_loading_errors_name_the_file)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    CHECK(ga_cuda_library_load("nccl") == GA_OK, "linked: %s", ga_last_error_message());
    return;
#endif
    char *saved = getenv("GPUARR_NCCL_LIBRARY") ? strdup(getenv("GPUARR_NCCL_LIBRARY")) : NULL;
    setenv("GPUARR_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
    ga_shutdown(); /* forgets an earlier failure */
    if (ga__cuda_libraries[GA__LIB_NCCL].state > 0) {
        /* (loaded by an earlier test: a loaded library stays loaded) */
        CHECK(ga_nccl_version() > 0, "NCCL loaded");
    } else {
        CHECK_ERROR(ga_cuda_library_load("nccl") != GA_OK, GA_ERROR_LIBRARY,
                    "ga_cuda_library_load: /nonexistent/libnccl.so.2 could not be loaded: ");
        ga_nccl_unique_id id;
        CHECK_ERROR(ga_nccl_get_unique_id(&id) != GA_OK, GA_ERROR_LIBRARY,
                    "ga_nccl_get_unique_id: /nonexistent/libnccl.so.2 could not be loaded");
        CHECK_ERROR(ga_nccl_group_start() != GA_OK, GA_ERROR_LIBRARY,
                    "ga_nccl_group_start: /nonexistent/libnccl.so.2 could not be loaded");
        CHECK(ga_nccl_version() == -1, "ga_nccl_version without NCCL is -1");
        ga_clear_error();
        ga_shutdown();
        setenv("GPUARR_NCCL_LIBRARY", "libm.so.6", 1);
        CHECK_ERROR(ga_cuda_library_load("nccl") != GA_OK, GA_ERROR_LIBRARY,
                    "ga_cuda_library_load: libm.so.6 has no ncclGetVersion (libnccl.so.2, from NCCL 2.18, or newer is needed)");
        ga_shutdown();
    }
    if (saved) setenv("GPUARR_NCCL_LIBRARY", saved, 1);
    else unsetenv("GPUARR_NCCL_LIBRARY");
    free(saved);
}

TEST(nccl_loads_every_entry_point)
{
    check_every_entry_point("nccl", "GPUARR_NCCL_LIBRARY", "libnccl.so.2", ga__nccl_entry_points, &ga__nccl);
    int v = ga_nccl_version();
    CHECK(v >= 21800, "NCCL's version %d (2.18 or newer is needed)", v);
}

/* gpuarr's unique id, ops and its own declarations of NCCL's constants
   (the dlopen mode needs no nccl.h) are NCCL's, where nccl.h is here. */
#if defined(__has_include)
#if __has_include(<nccl.h>)
#include <nccl.h>
#define HAVE_NCCL_H 1
#endif
#endif
TEST(nccl_types_match_ncclh)
{
#ifdef HAVE_NCCL_H
    CHECK(sizeof(ga_nccl_unique_id) == sizeof(ncclUniqueId) && GA_NCCL_UNIQUE_ID_BYTES == NCCL_UNIQUE_ID_BYTES &&
              sizeof(ga__nccl_id) == sizeof(ncclUniqueId),
          "unique id of %zu bytes, NCCL's %zu", sizeof(ga_nccl_unique_id), sizeof(ncclUniqueId));
    CHECK((int)GA_NCCL_SUM == ncclSum && (int)GA_NCCL_PROD == ncclProd && (int)GA_NCCL_MAX == ncclMax &&
              (int)GA_NCCL_MIN == ncclMin && (int)GA_NCCL_AVG == ncclAvg && (int)GA__NCCL_SUM == ncclSum,
          "ga_nccl_op's values are ncclRedOp_t's");
    CHECK(GA_NCCL_SPLIT_NOCOLOR == NCCL_SPLIT_NOCOLOR && GA__NCCL_SPLIT_NOCOLOR == NCCL_SPLIT_NOCOLOR, "NOCOLOR");
    CHECK((int)GA__NCCL_SUCCESS == ncclSuccess && (int)GA__NCCL_UNHANDLED_CUDA_ERROR == ncclUnhandledCudaError &&
              (int)GA__NCCL_SYSTEM_ERROR == ncclSystemError && (int)GA__NCCL_INTERNAL_ERROR == ncclInternalError &&
              (int)GA__NCCL_INVALID_ARGUMENT == ncclInvalidArgument &&
              (int)GA__NCCL_INVALID_USAGE == ncclInvalidUsage && (int)GA__NCCL_REMOTE_ERROR == ncclRemoteError &&
              (int)GA__NCCL_IN_PROGRESS == ncclInProgress,
          "ncclResult_t's values");
    CHECK((int)GA__NCCL_INT8 == ncclInt8 && (int)GA__NCCL_UINT8 == ncclUint8 && (int)GA__NCCL_INT32 == ncclInt32 &&
              (int)GA__NCCL_UINT32 == ncclUint32 && (int)GA__NCCL_INT64 == ncclInt64 &&
              (int)GA__NCCL_UINT64 == ncclUint64 && (int)GA__NCCL_FLOAT16 == ncclFloat16 &&
              (int)GA__NCCL_FLOAT32 == ncclFloat32 && (int)GA__NCCL_FLOAT64 == ncclFloat64 &&
              (int)GA__NCCL_BFLOAT16 == ncclBfloat16,
          "ncclDataType_t's values");
#else
    CHECK(sizeof(ga_nccl_unique_id) == 128 && sizeof(ga__nccl_id) == 128, "unique ids of 128 bytes");
#endif
}

/* NCCL's results in gpuarr's table, with NCCL's words. */
TEST(nccl_results_map_into_the_error_table)
{
    if (ga_cuda_library_load("nccl") != GA_OK) {
        CHECK(0, "NCCL: %s", ga_last_error_message());
        return;
    }
    static const struct { ga__nccl_result r; ga_status st; } map[] = {
        {GA__NCCL_UNHANDLED_CUDA_ERROR, GA_ERROR_CUDA}, {GA__NCCL_SYSTEM_ERROR, GA_ERROR_NCCL},
        {GA__NCCL_INTERNAL_ERROR, GA_ERROR_NCCL},       {GA__NCCL_INVALID_ARGUMENT, GA_ERROR_VALUE},
        {GA__NCCL_INVALID_USAGE, GA_ERROR_STATE},       {GA__NCCL_REMOTE_ERROR, GA_ERROR_NCCL_REMOTE}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        char text[96];
        snprintf(text, sizeof text, "ga_x: ncclFoo failed: %s (ncclResult_t %d)", ga__nccl.ncclGetErrorString(map[i].r),
                 (int)map[i].r);
        CHECK_ERROR(ga__nccl_error("ga_x", map[i].r, "ncclFoo", NULL) != GA_OK, map[i].st, text);
    }
    CHECK(strcmp(ga_status_string(GA_ERROR_TIMEOUT), "the operation did not end in the time given") == 0, "timeout");
}

TEST(nccl_arguments_checked_without_a_gpu)
{
    ga_nccl_unique_id id;
    memset(&id, 0, sizeof id);
    CHECK_ERROR(ga_nccl_comm_init_rank(0, id, 0) == NULL, GA_ERROR_VALUE,
                "ga_nccl_comm_init_rank: nranks must be at least 1, not 0");
    CHECK_ERROR(ga_nccl_comm_init_rank(2, id, 2) == NULL, GA_ERROR_VALUE,
                "ga_nccl_comm_init_rank: rank 2 is out of range for a communicator of 2 ranks");
    CHECK_ERROR(ga_nccl_comm_init_rank(3, id, -1) == NULL, GA_ERROR_VALUE, "rank -1 is out of range");
    ga_nccl_comm *comms[2] = {NULL, NULL}, *out = (ga_nccl_comm *)&id;
    CHECK_ERROR(ga_nccl_comm_init_all(0, NULL, comms) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_comm_init_all: ndev must be within [1, 64], not 0");
    CHECK_ERROR(ga_nccl_comm_init_all(1, NULL, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_init_all: comms is NULL");
    CHECK_ERROR(ga_nccl_get_unique_id(NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_get_unique_id: id is NULL");
    CHECK_ERROR(ga_nccl_comm_split(NULL, 0, 0, &out) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_split: comm is NULL");
    CHECK(out == NULL, "a failed split stores NULL");
    CHECK_ERROR(ga_nccl_comm_split(NULL, 0, 0, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_split: out is NULL");
    CHECK_ERROR(ga_nccl_comm_abort(NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_abort: comm is NULL");
    CHECK_ERROR(ga_nccl_comm_wait(NULL, 1) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_wait: comm is NULL");
    CHECK_ERROR(ga_nccl_comm_get_async_error(NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_comm_get_async_error: comm is NULL");
    CHECK_ERROR(ga_nccl_comm_rank(NULL) == -1, GA_ERROR_NULL_INPUT, "ga_nccl_comm_rank: comm is NULL");
    CHECK_ERROR(ga_nccl_comm_size(NULL) == -1, GA_ERROR_NULL_INPUT, "ga_nccl_comm_size: comm is NULL");
    CHECK_ERROR(ga_nccl_comm_device(NULL) == -1, GA_ERROR_NULL_INPUT, "ga_nccl_comm_device: comm is NULL");
    CHECK(ga_nccl_comm_destroy(NULL) == GA_OK, "destroying NULL is a no-op");
    CHECK_ERROR(ga_nccl_group_end() != GA_OK, GA_ERROR_STATE, "ga_nccl_group_end: no group is open");
    CHECK_ERROR(ga_nccl_all_reduce(NULL, NULL, NULL, GA_NCCL_SUM) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_all_reduce: send is NULL");
    CHECK_ERROR(ga_nccl_reduce(NULL, NULL, NULL, GA_NCCL_SUM, 0) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_reduce: send is NULL");
    CHECK_ERROR(ga_nccl_broadcast(NULL, NULL, NULL, 0) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_broadcast: recv is NULL");
    CHECK_ERROR(ga_nccl_all_gather(NULL, NULL, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_all_gather: send is NULL");
    CHECK_ERROR(ga_nccl_reduce_scatter(NULL, NULL, NULL, GA_NCCL_SUM) != GA_OK, GA_ERROR_NULL_INPUT,
                "ga_nccl_reduce_scatter: send is NULL");
    CHECK_ERROR(ga_nccl_all_to_all(NULL, NULL, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_all_to_all: send is NULL");
    CHECK_ERROR(ga_nccl_send(NULL, NULL, 0) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_send: a is NULL");
    CHECK_ERROR(ga_nccl_recv(NULL, NULL, 0) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_recv: a is NULL");
    /* a NULL input keeps the first error */
    CHECK(ga_nccl_comm_init_rank(-5, id, 0) == NULL, "nranks -5");
    CHECK_ERROR(ga_nccl_all_reduce(NULL, NULL, NULL, GA_NCCL_SUM) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_comm_init_rank: nranks must be at least 1, not -5");
}

/* ---- helpers (device) ---------------------------------------------------------- */

static int nranks;
static ga_nccl_comm *comms[MAX_RANKS];

/* A communicator over every visible device (at most MAX_RANKS). */
static bool open_all(void)
{
    nranks = ga_device_count();
    if (nranks > MAX_RANKS) nranks = MAX_RANKS;
    ga_status st = ga_nccl_comm_init_all(nranks, NULL, comms);
    CHECK(st == GA_OK, "ga_nccl_comm_init_all over %d devices: %s", nranks, ga_last_error_message());
    return st == GA_OK;
}

static void close_all(void)
{
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_comm_destroy(comms[i]));
    CHECK_OK(ga_device_set(0));
}

/* An array of shape (n, *shape) or shape (n < 0) on device `dev`, poisoned. */
static ga_array *empty_on(int dev, int64_t n, int ndim, const int64_t *shape, ga_dtype t)
{
    int64_t s[8];
    int nd = 0;
    if (n >= 0) s[nd++] = n;
    for (int d = 0; d < ndim; d++) s[nd++] = shape[d];
    int64_t size = 1;
    for (int d = 0; d < nd; d++) size *= s[d];
    ga_device_set(dev);
    poison_next((size_t)size * isz(t));
    ga_array *a = ga_empty(nd, s, t);
    ga_device_set(0);
    return a;
}

static ga_array *upload_on(int dev, const host *h, ga_dtype t, int layout)
{
    ga_device_set(dev);
    ga_array *a = upload(h, t, layout);
    ga_device_set(0);
    return a;
}

/* Which (dtype, op) NCCL reduces (the section's rules). */
static bool reducible(ga_dtype t, ga_nccl_op op)
{
    if (t == GA_BOOL) return op == GA_NCCL_MAX || op == GA_NCCL_MIN;
    if (is_complex(t)) return op == GA_NCCL_SUM || op == GA_NCCL_AVG;
    return t != GA_INT16 && t != GA_UINT16;
}

/* op over n values x[0..n-1] (one part of an element) as NCCL computes it:
   integers wrap in the dtype, avg truncates toward zero; bool max / min are
   or / and. */
static long double reduce_ref(ga_dtype t, ga_nccl_op op, int n, const long double *x)
{
    if (is_exact(t)) {
        uint64_t acc = (uint64_t)(int64_t)x[0];
        for (int i = 1; i < n; i++) {
            uint64_t v = (uint64_t)(int64_t)x[i];
            long double a = value_of(t, (elem){wrap(t, acc), 0, 0}), b = x[i];
            if (op == GA_NCCL_SUM || op == GA_NCCL_AVG) acc += v;
            else if (op == GA_NCCL_PROD) acc *= v;
            else if (op == GA_NCCL_MAX) acc = a >= b ? acc : v;
            else acc = a <= b ? acc : v;
            acc = wrap(t, acc);
        }
        long double r = value_of(t, (elem){wrap(t, acc), 0, 0});
        if (op == GA_NCCL_AVG) r = (long double)((long long)r / n); /* (values small: the sum did not wrap) */
        return r;
    }
    long double acc = x[0];
    for (int i = 1; i < n; i++) {
        if (op == GA_NCCL_SUM || op == GA_NCCL_AVG) acc += x[i];
        else if (op == GA_NCCL_PROD) acc *= x[i];
        else if (op == GA_NCCL_MAX) acc = acc >= x[i] ? acc : x[i];
        else acc = acc <= x[i] ? acc : x[i];
    }
    return op == GA_NCCL_AVG ? acc / n : acc;
}

/* Whether got (a part of an element of dtype t) is `want`: integers
   exactly, floats within (n + 2) units in the last place of their dtype
   (NCCL's order of operations, and avg's multiplication by 1/n). */
static bool close_to(ga_dtype t, long double got, long double want, int n)
{
    if (is_exact(t)) return got == want;
    ga_dtype part = part_of(t);
    long double scale = fabsl(want) > 0.125L ? fabsl(want) : 0.125L;
    return fabsl(got - want) <= (n + 2) * ulp_at(part, scale);
}

/* Checks array `a` (dtype t, `size` elements) against parts re[], im[]. */
static void check_parts(const ga_array *a, ga_dtype t, int64_t size, const long double *re, const long double *im,
                        int n, const char *what)
{
    unsigned char *got = malloc((size_t)(size ? size : 1) * isz(t));
    if (!download(a, got)) {
        free(got);
        return;
    }
    int64_t bad = 0, first = -1;
    for (int64_t k = 0; k < size; k++) {
        elem e = load(t, got + (size_t)k * isz(t));
        long double g = value_of(t, e);
        bool ok = close_to(t, g, re[k], n) && (!is_complex(t) || close_to(t, e.im, im[k], n));
        if (!ok && first < 0) first = k;
        bad += !ok;
    }
    if (bad) {
        elem e = load(t, got + (size_t)first * isz(t));
        CHECK(0, "%s (%s): %lld of %lld elements wrong, the first [%lld] %Lg%+Lgj, expected %Lg%+Lgj", what, dname(t),
              (long long)bad, (long long)size, (long long)first, value_of(t, e), is_complex(t) ? (long double)e.im : 0.0L,
              re[first], is_complex(t) ? im[first] : 0.0L);
    }
    free(got);
}

/* parts[k] of the reduction of element k over the ranks' inputs in[]. */
static void reduce_all(ga_dtype t, ga_nccl_op op, int n, const host *in, int64_t offset, int64_t size,
                       long double *re, long double *im)
{
    long double x[MAX_RANKS] = {0};
    for (int64_t k = 0; k < size; k++) {
        for (int i = 0; i < n; i++) x[i] = in[i].re[offset + k];
        re[k] = reduce_ref(t, op, n, x);
        for (int i = 0; i < n; i++) x[i] = in[i].im[offset + k];
        im[k] = is_complex(t) ? reduce_ref(t, op, n, x) : 0;
    }
}

/* An odd 2-d shape, fresh each time. */
static void odd_shape(int64_t *shape)
{
    shape[0] = 3 + 2 * (int64_t)(rnd() % 20);
    shape[1] = 1 + 2 * (int64_t)(rnd() % 40);
}

static bool nothing_in_use(const char *what)
{
    bool ok = true;
    for (int d = 0; d < nranks; d++) {
        ga_memory_stats s;
        ga_device_set(d);
        CHECK_OK(ga_device_synchronize());
        if (ga_memory_get_stats(d, &s) == GA_OK && s.used_bytes) {
            CHECK(0, "%s: device %d holds %zu bytes in use", what, d, s.used_bytes);
            ok = false;
        }
    }
    ga_device_set(0);
    return ok;
}

/* ---- communicators (device) ------------------------------------------------------ */

DEVICE_TEST(nccl_comm_of_one_rank)
{
    ga_nccl_unique_id id;
    CHECK_OK(ga_nccl_get_unique_id(&id));
    ga_nccl_comm *c = ga_nccl_comm_init_rank(1, id, 0);
    CHECK(c != NULL, "ga_nccl_comm_init_rank(1): %s", ga_last_error_message());
    if (!c) return;
    CHECK(ga_nccl_comm_rank(c) == 0 && ga_nccl_comm_size(c) == 1 && ga_nccl_comm_device(c) == ga_device_get(),
          "rank %d size %d device %d", ga_nccl_comm_rank(c), ga_nccl_comm_size(c), ga_nccl_comm_device(c));
    int64_t n = 1000 + 2 * (int64_t)(rnd() % 500) + 1;
    host h = host_random(GA_FLOAT32, 1, &n);
    ga_array *x = upload(&h, GA_FLOAT32, L_CONTIGUOUS), *y = empty_on(0, -1, 1, &n, GA_FLOAT32);
    CHECK_OK(ga_nccl_all_reduce(c, x, y, GA_NCCL_SUM));
    CHECK_OK(ga_nccl_comm_wait(c, 60));
    CHECK_OK(ga_nccl_comm_get_async_error(c));
    check_parts(y, GA_FLOAT32, n, h.re, h.im, 1, "all_reduce over one rank");
    ga_release(x), ga_release(y);
    host_free(&h);
    CHECK_OK(ga_nccl_comm_destroy(c));
}

DEVICE_TEST(nccl_init_all_every_device)
{
    if (!open_all()) return;
    for (int i = 0; i < nranks; i++)
        CHECK(ga_nccl_comm_rank(comms[i]) == i && ga_nccl_comm_size(comms[i]) == nranks &&
                  ga_nccl_comm_device(comms[i]) == i,
              "comms[%d]: rank %d size %d device %d", i, ga_nccl_comm_rank(comms[i]), ga_nccl_comm_size(comms[i]),
              ga_nccl_comm_device(comms[i]));
    close_all();
    /* an explicit list, backwards: rank i on device n-1-i */
    int devices[MAX_RANKS];
    for (int i = 0; i < nranks; i++) devices[i] = nranks - 1 - i;
    CHECK_OK(ga_nccl_comm_init_all(nranks, devices, comms));
    for (int i = 0; i < nranks; i++)
        CHECK(ga_nccl_comm_rank(comms[i]) == i && ga_nccl_comm_device(comms[i]) == devices[i], "listed: comms[%d]", i);
    close_all();
    CHECK(ga_device_get() == 0, "the current device is left as it was");
    int twice[2] = {0, 0}, missing[1] = {ga_device_count()};
    ga_nccl_comm *c2[2] = {NULL, NULL};
    CHECK_ERROR(ga_nccl_comm_init_all(2, twice, c2) != GA_OK, GA_ERROR_VALUE, "ga_nccl_comm_init_all: device 0 is listed twice");
    CHECK_ERROR(ga_nccl_comm_init_all(1, missing, c2) != GA_OK, GA_ERROR_DEVICE, "does not exist");
    CHECK(c2[0] == NULL && c2[1] == NULL, "nothing made");
    if (ga_device_count() == nranks)
        CHECK_ERROR(ga_nccl_comm_init_all(nranks + 1, NULL, comms) != GA_OK, GA_ERROR_DEVICE, "devices asked for");
}

/* ---- collectives (device) -------------------------------------------------------- */

static const ga_dtype every_dtype[] = {GA_BOOL,    GA_INT8,    GA_INT16,   GA_INT32,   GA_INT64,
                                       GA_UINT8,   GA_UINT16,  GA_UINT32,  GA_UINT64,  GA_FLOAT16,
                                       GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
enum { NUM_DTYPES = sizeof every_dtype / sizeof every_dtype[0] };

/* all_reduce of dtype t by op over every rank, out of place from `layout`
   or in place; the result on every rank checked. */
static void all_reduce_case(ga_dtype t, ga_nccl_op op, int layout, bool in_place)
{
    int64_t shape[2];
    odd_shape(shape);
    host in[MAX_RANKS];
    ga_array *x[MAX_RANKS], *y[MAX_RANKS];
    for (int i = 0; i < nranks; i++) {
        in[i] = host_random(t, 2, shape);
        x[i] = upload_on(i, &in[i], t, in_place ? L_CONTIGUOUS : layout);
        y[i] = in_place ? x[i] : empty_on(i, -1, 2, shape, t);
    }
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_reduce(comms[i], x[i], y[i], op));
    CHECK_OK(ga_nccl_group_end());
    const int64_t size = shape[0] * shape[1];
    long double *re = malloc(sizeof *re * (size_t)size), *im = malloc(sizeof *im * (size_t)size);
    reduce_all(t, op, nranks, in, 0, size, re, im);
    char what[96];
    snprintf(what, sizeof what, "all_reduce %s, %s", op_names[op], in_place ? "in place" : layout_names[layout]);
    for (int i = 0; i < nranks; i++) {
        check_parts(y[i], t, size, re, im, nranks, what);
        ga_release(x[i]);
        if (!in_place) ga_release(y[i]);
        host_free(&in[i]);
    }
    free(re), free(im);
}

DEVICE_TEST(nccl_all_reduce_every_dtype_and_op)
{
    if (!open_all()) return;
    for (int k = 0; k < NUM_DTYPES; k++)
        for (int op = GA_NCCL_SUM; op <= GA_NCCL_AVG; op++) {
            ga_dtype t = every_dtype[k];
            if (!reducible(t, (ga_nccl_op)op)) {
                int64_t n = 5;
                ga_array *a = ga_zeros(1, &n, t), *b = ga_zeros(1, &n, t);
                char text[96];
                snprintf(text, sizeof text, "ga_nccl_all_reduce: op '%s' is not supported for dtype %s", op_names[op],
                         dname(t));
                CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, b, (ga_nccl_op)op) != GA_OK, GA_ERROR_TYPE, text);
                ga_release(a), ga_release(b);
                continue;
            }
            all_reduce_case(t, (ga_nccl_op)op, (k + op) % 2 ? L_STRIDED : L_CONTIGUOUS, false);
            all_reduce_case(t, (ga_nccl_op)op, L_CONTIGUOUS, true);
        }
    all_reduce_case(GA_FLOAT64, GA_NCCL_SUM, L_REVERSED, false);
    all_reduce_case(GA_INT32, GA_NCCL_MAX, L_TRANSPOSED, false);
    close_all();
    nothing_in_use("all_reduce");
}

DEVICE_TEST(nccl_reduce_to_a_root)
{
    if (!open_all()) return;
    static const ga_dtype types[] = {GA_BOOL, GA_INT8, GA_UINT64, GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_COMPLEX128};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        ga_dtype t = types[k];
        ga_nccl_op op = t == GA_BOOL ? GA_NCCL_MIN : is_complex(t) ? GA_NCCL_AVG : (ga_nccl_op)(k % 5);
        const int root = (int)(k % (size_t)nranks);
        int64_t shape[2];
        odd_shape(shape);
        host in[MAX_RANKS];
        ga_array *x[MAX_RANKS], *y = empty_on(root, -1, 2, shape, t);
        for (int i = 0; i < nranks; i++) {
            in[i] = host_random(t, 2, shape);
            x[i] = upload_on(i, &in[i], t, k % 2 ? L_STRIDED : L_CONTIGUOUS);
        }
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_reduce(comms[i], x[i], i == root ? y : NULL, op, root));
        CHECK_OK(ga_nccl_group_end());
        const int64_t size = shape[0] * shape[1];
        long double *re = malloc(sizeof *re * (size_t)size), *im = malloc(sizeof *im * (size_t)size);
        reduce_all(t, op, nranks, in, 0, size, re, im);
        check_parts(y, t, size, re, im, nranks, "reduce to the root");
        free(re), free(im);
        for (int i = 0; i < nranks; i++) ga_release(x[i]), host_free(&in[i]);
        ga_release(y);
    }
    int64_t n = 4;
    ga_array *a = ga_zeros(1, &n, GA_FLOAT32);
    CHECK_ERROR(ga_nccl_reduce(comms[0], a, NULL, GA_NCCL_SUM, nranks) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_reduce: root");
    CHECK_ERROR(ga_nccl_reduce(comms[0], a, NULL, GA_NCCL_SUM, 0) != GA_OK, GA_ERROR_NULL_INPUT,
                "ga_nccl_reduce: recv (on the root) is NULL");
    ga_release(a);
    close_all();
    nothing_in_use("reduce");
}

/* Data movement checks: every rank's result against bytes expected. */
static void check_bytes(const ga_array *a, const unsigned char *want, size_t n, const char *what, ga_dtype t, int rank)
{
    unsigned char *got = malloc(n ? n : 1);
    if (download(a, got))
        CHECK(memcmp(got, want, n) == 0, "%s (%s): rank %d's result differs", what, dname(t), rank);
    free(got);
}

DEVICE_TEST(nccl_broadcast_every_dtype)
{
    if (!open_all()) return;
    for (int k = 0; k < NUM_DTYPES; k++) {
        ga_dtype t = every_dtype[k];
        const int root = k % nranks;
        const bool in_place = k % 3 == 0;
        int64_t shape[2];
        odd_shape(shape);
        host h = host_random(t, 2, shape);
        unsigned char *want = host_bytes(&h, t);
        ga_array *x = upload_on(root, &h, t, in_place ? L_CONTIGUOUS : k % 2 ? L_STRIDED : L_REVERSED);
        ga_array *y[MAX_RANKS];
        for (int i = 0; i < nranks; i++) y[i] = i == root && in_place ? x : empty_on(i, -1, 2, shape, t);
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_broadcast(comms[i], i == root ? x : NULL, y[i], root));
        CHECK_OK(ga_nccl_group_end());
        for (int i = 0; i < nranks; i++) {
            check_bytes(y[i], want, (size_t)h.size * isz(t), in_place ? "broadcast in place" : "broadcast", t, i);
            if (y[i] != x) ga_release(y[i]);
        }
        ga_release(x);
        free(want);
        host_free(&h);
    }
    close_all();
    nothing_in_use("broadcast");
}

DEVICE_TEST(nccl_all_gather_every_dtype)
{
    if (!open_all()) return;
    for (int k = 0; k < NUM_DTYPES; k++) {
        ga_dtype t = every_dtype[k];
        const bool in_place = k % 3 == 1;
        int64_t shape[2];
        odd_shape(shape);
        host in[MAX_RANKS];
        ga_array *x[MAX_RANKS], *y[MAX_RANKS];
        const size_t part = (size_t)(shape[0] * shape[1]) * isz(t);
        unsigned char *want = malloc(part * (size_t)nranks);
        for (int i = 0; i < nranks; i++) {
            in[i] = host_random(t, 2, shape);
            unsigned char *b = host_bytes(&in[i], t);
            memcpy(want + part * (size_t)i, b, part);
            free(b);
            y[i] = empty_on(i, nranks, 2, shape, t);
            if (in_place) { /* send is recv[rank] */
                ga_array *src = upload_on(i, &in[i], t, L_CONTIGUOUS);
                x[i] = ga_index_items(y[i], 1, (ga_index_item[]){ga_at(i)});
                CHECK_OK(ga_copyto(x[i], src, GA_CASTING_NO));
                ga_release(src);
            } else {
                x[i] = upload_on(i, &in[i], t, k % 2 ? L_STRIDED : L_TRANSPOSED);
            }
        }
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_gather(comms[i], x[i], y[i]));
        CHECK_OK(ga_nccl_group_end());
        for (int i = 0; i < nranks; i++) {
            check_bytes(y[i], want, part * (size_t)nranks, in_place ? "all_gather in place" : "all_gather", t, i);
            ga_release(x[i]), ga_release(y[i]), host_free(&in[i]);
        }
        free(want);
    }
    close_all();
    nothing_in_use("all_gather");
}

DEVICE_TEST(nccl_reduce_scatter)
{
    if (!open_all()) return;
    static const ga_dtype types[] = {GA_BOOL, GA_INT32, GA_UINT8, GA_INT64, GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32,
                                     GA_FLOAT64, GA_COMPLEX64};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        ga_dtype t = types[k];
        ga_nccl_op op = t == GA_BOOL ? GA_NCCL_MAX : is_complex(t) ? GA_NCCL_SUM : (ga_nccl_op)(k % 5);
        const bool in_place = k % 3 == 2;
        const int64_t m = 1 + 2 * (int64_t)(rnd() % 300), shape[2] = {nranks, m};
        host in[MAX_RANKS];
        ga_array *x[MAX_RANKS], *y[MAX_RANKS];
        for (int i = 0; i < nranks; i++) {
            in[i] = host_random(t, 2, shape);
            x[i] = upload_on(i, &in[i], t, in_place ? L_CONTIGUOUS : k % 2 ? L_STRIDED : L_CONTIGUOUS);
            y[i] = in_place ? ga_index_items(x[i], 1, (ga_index_item[]){ga_at(i)}) : empty_on(i, -1, 1, &m, t);
        }
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_reduce_scatter(comms[i], x[i], y[i], op));
        CHECK_OK(ga_nccl_group_end());
        long double *re = malloc(sizeof *re * (size_t)m), *im = malloc(sizeof *im * (size_t)m);
        for (int i = 0; i < nranks; i++) {
            reduce_all(t, op, nranks, in, m * i, m, re, im);
            check_parts(y[i], t, m, re, im, nranks, in_place ? "reduce_scatter in place" : "reduce_scatter");
        }
        for (int i = 0; i < nranks; i++) ga_release(x[i]), ga_release(y[i]), host_free(&in[i]);
        free(re), free(im);
    }
    /* send of the wrong shape */
    int64_t m = 3, bad[2] = {nranks + 1, 3};
    ga_array *a = empty_on(0, -1, 2, bad, GA_FLOAT32), *b = empty_on(0, -1, 1, &m, GA_FLOAT32);
    char text[96];
    snprintf(text, sizeof text, "ga_nccl_reduce_scatter: send has shape (%d, 3), expected (%d, 3)", nranks + 1, nranks);
    CHECK_ERROR(ga_nccl_reduce_scatter(comms[0], a, b, GA_NCCL_SUM) != GA_OK, GA_ERROR_SHAPE, text);
    ga_release(a), ga_release(b);
    close_all();
    nothing_in_use("reduce_scatter");
}

DEVICE_TEST(nccl_all_to_all_every_dtype)
{
    if (!open_all()) return;
    /* ncclAlltoAll where the NCCL loaded has it (2.28.3 and newer), then the group of sends and receives */
    for (int group = 0; group < 2; group++)
    for (int k = 0; k < NUM_DTYPES; k++) {
        if (group) setenv("GPUARR_NCCL_ALLTOALL", "0", 1);
        ga_dtype t = every_dtype[k];
        const int64_t m = 1 + 2 * (int64_t)(rnd() % 200), shape[2] = {nranks, m};
        host in[MAX_RANKS];
        ga_array *x[MAX_RANKS], *y[MAX_RANKS];
        unsigned char *bytes[MAX_RANKS];
        const size_t block = (size_t)m * isz(t);
        for (int i = 0; i < nranks; i++) {
            in[i] = host_random(t, 2, shape);
            bytes[i] = host_bytes(&in[i], t);
            x[i] = upload_on(i, &in[i], t, k % 2 ? L_STRIDED : L_CONTIGUOUS);
            y[i] = empty_on(i, -1, 2, shape, t);
        }
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_to_all(comms[i], x[i], y[i]));
        CHECK_OK(ga_nccl_group_end());
        unsigned char *want = malloc(block * (size_t)nranks);
        for (int j = 0; j < nranks; j++) { /* rank j's recv[r] = rank r's send[j] */
            for (int r = 0; r < nranks; r++) memcpy(want + block * (size_t)r, bytes[r] + block * (size_t)j, block);
            check_bytes(y[j], want, block * (size_t)nranks, group ? "all_to_all (group)" : "all_to_all", t, j);
        }
        free(want);
        for (int i = 0; i < nranks; i++) ga_release(x[i]), ga_release(y[i]), host_free(&in[i]), free(bytes[i]);
    }
    unsetenv("GPUARR_NCCL_ALLTOALL");
    if (ga_nccl_version() < 22803) printf("  (NCCL %d has no ncclAlltoAll: both passes took the group)\n", ga_nccl_version());
    int64_t shape[2] = {nranks, 4};
    ga_array *a = empty_on(0, -1, 2, shape, GA_INT32);
    CHECK_ERROR(ga_nccl_all_to_all(comms[0], a, a) != GA_OK, GA_ERROR_VALUE, "ga_nccl_all_to_all: send and recv share memory");
    ga_release(a);
    close_all();
    nothing_in_use("all_to_all");
}

/* A ring: rank i sends to i + 1 and receives from i - 1 (with one rank, to
   and from itself), in one group. */
DEVICE_TEST(nccl_send_recv_ring)
{
    if (!open_all()) return;
    for (int k = 0; k < NUM_DTYPES; k += 2) {
        ga_dtype t = every_dtype[k];
        int64_t shape[2];
        odd_shape(shape);
        host in[MAX_RANKS];
        ga_array *x[MAX_RANKS], *y[MAX_RANKS];
        for (int i = 0; i < nranks; i++) {
            in[i] = host_random(t, 2, shape);
            x[i] = upload_on(i, &in[i], t, k % 4 ? L_STRIDED : L_CONTIGUOUS);
            y[i] = empty_on(i, -1, 2, shape, t);
        }
        CHECK_OK(ga_nccl_group_start());
        for (int i = 0; i < nranks; i++) {
            CHECK_OK(ga_nccl_send(comms[i], x[i], (i + 1) % nranks));
            CHECK_OK(ga_nccl_recv(comms[i], y[i], (i + nranks - 1) % nranks));
        }
        CHECK_OK(ga_nccl_group_end());
        for (int i = 0; i < nranks; i++) {
            unsigned char *want = host_bytes(&in[(i + nranks - 1) % nranks], t);
            check_bytes(y[i], want, (size_t)in[i].size * isz(t), "send / recv", t, i);
            free(want);
        }
        for (int i = 0; i < nranks; i++) ga_release(x[i]), ga_release(y[i]), host_free(&in[i]);
    }
    int64_t n = 3;
    ga_array *a = ga_zeros(1, &n, GA_FLOAT32);
    CHECK_ERROR(ga_nccl_send(comms[0], a, nranks) != GA_OK, GA_ERROR_VALUE, "ga_nccl_send: peer");
    CHECK_ERROR(ga_nccl_recv(comms[0], a, -1) != GA_OK, GA_ERROR_VALUE, "ga_nccl_recv: peer -1 is out of range");
    ga_release(a);
    close_all();
    nothing_in_use("send / recv");
}

/* The refusals, in their words; nothing enqueued, nothing left in use. */
DEVICE_TEST(nccl_refusals)
{
    if (!open_all()) return;
    int64_t s34[2] = {3, 4}, s43[2] = {4, 3}, s8 = 8;
    ga_array *a = ga_zeros(2, s34, GA_FLOAT32), *b = ga_zeros(2, s43, GA_FLOAT32), *c = ga_zeros(2, s34, GA_FLOAT64);
    ga_array *t = ga_transpose(b, NULL), *ro = ga_broadcast_to(a, 2, s34), *v = ga_zeros(1, &s8, GA_FLOAT32);
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, b, GA_NCCL_SUM) != GA_OK, GA_ERROR_SHAPE,
                "ga_nccl_all_reduce: recv has shape (4, 3), expected (3, 4)");
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, c, GA_NCCL_SUM) != GA_OK, GA_ERROR_TYPE,
                "ga_nccl_all_reduce: recv has dtype float64, expected float32");
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, t, GA_NCCL_SUM) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_all_reduce: Supplied output array recv must be C-contiguous");
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, ro, GA_NCCL_SUM) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_all_reduce: output array recv is read-only");
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], a, a, (ga_nccl_op)7) != GA_OK, GA_ERROR_VALUE, "ga_nccl_all_reduce: invalid op 7");
    ga_array *half = ga_index(v, "2:"), *front = ga_index(v, ":6");
    CHECK_ERROR(ga_nccl_all_reduce(comms[0], half, front, GA_NCCL_SUM) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_all_reduce: send and recv share memory other than in place");
    CHECK_ERROR(ga_nccl_broadcast(comms[0], c, a, 0) != GA_OK, GA_ERROR_SHAPE,
                "ga_nccl_broadcast: send (shape (3, 4), dtype float64) does not match recv (shape (3, 4), dtype float32)");
    CHECK_ERROR(ga_nccl_broadcast(comms[0], NULL, a, 0) != GA_OK, GA_ERROR_NULL_INPUT, "ga_nccl_broadcast: send (on the root) is NULL");
    CHECK_ERROR(ga_nccl_all_gather(comms[0], a, a) != GA_OK, GA_ERROR_SHAPE, "ga_nccl_all_gather: recv has shape (3, 4), expected (");
    if (nranks >= 2) {
        ga_device_set(1);
        ga_array *other = ga_zeros(2, s34, GA_FLOAT32);
        ga_device_set(0);
        CHECK_ERROR(ga_nccl_all_reduce(comms[0], other, a, GA_NCCL_SUM) != GA_OK, GA_ERROR_DEVICE,
                    "ga_nccl_all_reduce: send is on device 1, the communicator on device 0");
        CHECK_ERROR(ga_nccl_all_reduce(comms[1], other, a, GA_NCCL_SUM) != GA_OK, GA_ERROR_DEVICE,
                    "ga_nccl_all_reduce: recv is on device 0, the communicator on device 1");
        ga_release(other);
    }
    ga_nccl_comm *none = NULL;
    CHECK_ERROR(ga_nccl_comm_split(comms[0], -7, 0, &none) != GA_OK, GA_ERROR_VALUE,
                "ga_nccl_comm_split: color must be >= 0 or GA_NCCL_SPLIT_NOCOLOR, not -7");
    ga_release(a), ga_release(b), ga_release(c), ga_release(t), ga_release(ro), ga_release(v), ga_release(half),
        ga_release(front);
    close_all();
    nothing_in_use("refusals");
}

/* Copies of non-contiguous inputs made inside a group are kept until its
   end (NCCL enqueues a group's work there), then go back. */
DEVICE_TEST(nccl_group_keeps_copies_until_its_end)
{
    if (!open_all()) return;
    int64_t shape[2] = {101, 33};
    host in[MAX_RANKS];
    ga_array *x[MAX_RANKS], *y[MAX_RANKS];
    for (int i = 0; i < nranks; i++) {
        in[i] = host_random(GA_FLOAT32, 2, shape);
        x[i] = upload_on(i, &in[i], GA_FLOAT32, L_STRIDED);
        y[i] = empty_on(i, -1, 2, shape, GA_FLOAT32);
    }
    CHECK_OK(ga_nccl_group_start());
    CHECK_OK(ga_nccl_group_start()); /* nested */
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_reduce(comms[i], x[i], y[i], GA_NCCL_SUM));
    CHECK_OK(ga_nccl_group_end());
    CHECK(ga__nccl_t.count == nranks, "%d copies kept inside the open group, %d expected", ga__nccl_t.count, nranks);
    /* pool blocks freed now would be handed to this allocation before NCCL's kernels read them */
    ga_array *z = empty_on(0, -1, 2, shape, GA_FLOAT32);
    CHECK_OK(ga_nccl_group_end());
    CHECK(ga__nccl_t.count == 0, "the copies released at the outermost end");
    long double *re = malloc(sizeof *re * 101 * 33), *im = malloc(sizeof *im * 101 * 33);
    reduce_all(GA_FLOAT32, GA_NCCL_SUM, nranks, in, 0, 101 * 33, re, im);
    for (int i = 0; i < nranks; i++) check_parts(y[i], GA_FLOAT32, 101 * 33, re, im, nranks, "all_reduce in nested groups");
    free(re), free(im);
    for (int i = 0; i < nranks; i++) ga_release(x[i]), ga_release(y[i]), host_free(&in[i]);
    ga_release(z);
    close_all();
    nothing_in_use("groups");
}

/* Empty arrays: nothing is enqueued, every rank alike. */
DEVICE_TEST(nccl_empty_arrays)
{
    if (!open_all()) return;
    int64_t zero[2] = {0, 5};
    ga_array *x[MAX_RANKS], *y[MAX_RANKS];
    for (int i = 0; i < nranks; i++) x[i] = empty_on(i, -1, 2, zero, GA_FLOAT32), y[i] = empty_on(i, -1, 2, zero, GA_FLOAT32);
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_reduce(comms[i], x[i], y[i], GA_NCCL_MAX));
    CHECK_OK(ga_nccl_group_end());
    for (int i = 0; i < nranks; i++) {
        CHECK_OK(ga_nccl_comm_wait(comms[i], 60));
        ga_release(x[i]), ga_release(y[i]);
    }
    close_all();
}

DEVICE_TEST(nccl_split)
{
    if (!open_all()) return;
    ga_nccl_comm *sub[MAX_RANKS];
    /* color rank % 2, key -rank: each new communicator ranks its members backwards */
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_comm_split(comms[i], i % 2, -i, &sub[i]));
    CHECK_OK(ga_nccl_group_end());
    for (int i = 0; i < nranks; i++) {
        const int members = (nranks - i % 2 + 1) / 2, place = i / 2;
        CHECK(sub[i] && ga_nccl_comm_size(sub[i]) == members && ga_nccl_comm_rank(sub[i]) == members - 1 - place &&
                  ga_nccl_comm_device(sub[i]) == i,
              "split, rank %d: size %d (expected %d), rank %d (expected %d): %s", i, ga_nccl_comm_size(sub[i]),
              members, ga_nccl_comm_rank(sub[i]), members - 1 - place, ga_last_error_message());
    }
    /* an all_reduce (sum) over each new communicator */
    int64_t n = 257;
    host in[MAX_RANKS];
    ga_array *x[MAX_RANKS], *y[MAX_RANKS];
    for (int i = 0; i < nranks; i++) {
        in[i] = host_random(GA_INT32, 1, &n);
        x[i] = upload_on(i, &in[i], GA_INT32, L_CONTIGUOUS);
        y[i] = empty_on(i, -1, 1, &n, GA_INT32);
    }
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_reduce(sub[i], x[i], y[i], GA_NCCL_SUM));
    CHECK_OK(ga_nccl_group_end());
    long double re[257], im[257];
    for (int i = 0; i < nranks; i++) {
        host same[MAX_RANKS];
        int m = 0;
        for (int j = i % 2; j < nranks; j += 2) same[m++] = in[j];
        reduce_all(GA_INT32, GA_NCCL_SUM, m, same, 0, n, re, im);
        check_parts(y[i], GA_INT32, n, re, im, m, "all_reduce over a split");
    }
    for (int i = 0; i < nranks; i++) ga_release(x[i]), ga_release(y[i]), host_free(&in[i]);
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_comm_destroy(sub[i]));
    /* rank 0 joins none */
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_comm_split(comms[i], i == 0 ? GA_NCCL_SPLIT_NOCOLOR : 0, i, &sub[i]));
    CHECK_OK(ga_nccl_group_end());
    CHECK(sub[0] == NULL, "NOCOLOR: no communicator");
    for (int i = 1; i < nranks; i++) {
        CHECK(sub[i] && ga_nccl_comm_size(sub[i]) == nranks - 1 && ga_nccl_comm_rank(sub[i]) == i - 1, "split without rank 0: rank %d", i);
        CHECK_OK(ga_nccl_comm_destroy(sub[i]));
    }
    close_all();
}

DEVICE_TEST(nccl_abort_and_destroy)
{
    ga_nccl_unique_id id;
    CHECK_OK(ga_nccl_get_unique_id(&id));
    ga_nccl_comm *c = ga_nccl_comm_init_rank(1, id, 0);
    if (!c) {
        CHECK(0, "ga_nccl_comm_init_rank: %s", ga_last_error_message());
        return;
    }
    int64_t n = 9;
    ga_array *a = ga_zeros(1, &n, GA_FLOAT32);
    CHECK_OK(ga_nccl_all_reduce(c, a, a, GA_NCCL_SUM));
    CHECK_OK(ga_nccl_comm_abort(c));
    CHECK_ERROR(ga_nccl_all_reduce(c, a, a, GA_NCCL_SUM) != GA_OK, GA_ERROR_STATE,
                "ga_nccl_all_reduce: the communicator was aborted");
    CHECK_ERROR(ga_nccl_comm_abort(c) != GA_OK, GA_ERROR_STATE, "ga_nccl_comm_abort: the communicator was aborted");
    CHECK_ERROR(ga_nccl_comm_wait(c, 1) != GA_OK, GA_ERROR_STATE, "ga_nccl_comm_wait: the communicator was aborted");
    CHECK(ga_nccl_comm_rank(c) == 0 && ga_nccl_comm_size(c) == 1 && ga_nccl_comm_device(c) == 0,
          "the queries answer after an abort");
    ga_clear_error();
    CHECK_OK(ga_nccl_comm_destroy(c)); /* frees the handle */
    CHECK_OK(ga_device_synchronize());
    ga_release(a);
    /* the others: abort every rank of a communicator over every device */
    if (!open_all()) return;
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_comm_abort(comms[i]));
    close_all();
}

DEVICE_TEST(nccl_wait_on_a_healthy_comm)
{
    if (!open_all()) return;
    int64_t n = (int64_t)1 << 22;
    ga_array *x[MAX_RANKS];
    for (int i = 0; i < nranks; i++) {
        ga_device_set(i);
        x[i] = ga_ones(1, &n, GA_FLOAT32);
    }
    ga_device_set(0);
    CHECK_OK(ga_nccl_group_start());
    for (int i = 0; i < nranks; i++) CHECK_OK(ga_nccl_all_reduce(comms[i], x[i], x[i], GA_NCCL_SUM));
    CHECK_OK(ga_nccl_group_end());
    for (int i = 0; i < nranks; i++) {
        CHECK_OK(ga_nccl_comm_wait(comms[i], 60));
        CHECK_OK(ga_nccl_comm_get_async_error(comms[i]));
        CHECK_OK(ga_nccl_comm_wait(comms[i], 0)); /* nothing left: no wait at all */
        float first = 0;
        ga_array *head = ga_index(x[i], ":1");
        CHECK_OK(ga_to_host(head, &first, sizeof first));
        CHECK(first == (float)nranks, "rank %d: %g, expected %d", i, first, nranks);
        ga_release(head), ga_release(x[i]);
    }
    close_all();
}

/* A peer that never joins (rank 1 of two never calls the all_reduce):
   ga_nccl_comm_wait gives up after its timeout, aborts the communicator
   and says so; the device stays usable. Two GPUs or more. */
DEVICE_TEST(nccl_wait_times_out_on_a_missing_peer)
{
    if (ga_device_count() < 2) return;
    int devices[2] = {0, 1};
    ga_nccl_comm *c[2] = {NULL, NULL};
    if (ga_nccl_comm_init_all(2, devices, c) != GA_OK) {
        CHECK(0, "init_all over two devices: %s", ga_last_error_message());
        return;
    }
    int64_t n = 1 << 20;
    ga_array *a = ga_ones(1, &n, GA_FLOAT32);
    ga_device_set(1);
    ga_array *b = ga_ones(1, &n, GA_FLOAT32);
    ga_device_set(0);
    /* first both ranks, so that NCCL has connected them for this size (its
       connections are made at the first use, with the peer) */
    CHECK_OK(ga_nccl_group_start());
    CHECK_OK(ga_nccl_all_reduce(c[0], a, a, GA_NCCL_SUM));
    CHECK_OK(ga_nccl_all_reduce(c[1], b, b, GA_NCCL_SUM));
    CHECK_OK(ga_nccl_group_end());
    CHECK_OK(ga_nccl_comm_wait(c[0], 60));
    CHECK_OK(ga_nccl_comm_wait(c[1], 60));
    CHECK_OK(ga_nccl_all_reduce(c[0], a, a, GA_NCCL_SUM)); /* rank 1 never comes */
    CHECK_ERROR(ga_nccl_comm_wait(c[0], 2) != GA_OK, GA_ERROR_TIMEOUT,
                "ga_nccl_comm_wait: the communicator's work on the current stream of device 0 did not end within 2 s");
    CHECK_ERROR(ga_nccl_all_reduce(c[0], a, a, GA_NCCL_SUM) != GA_OK, GA_ERROR_STATE, "aborted");
    CHECK_OK(ga_nccl_comm_abort(c[1]));
    CHECK_OK(ga_nccl_comm_destroy(c[0]));
    CHECK_OK(ga_nccl_comm_destroy(c[1]));
    CHECK_OK(ga_device_synchronize());
    ga_array *s = ga_sum(a, 0, NULL, false);
    float v = 0;
    CHECK(s && ga_to_host(s, &v, sizeof v) == GA_OK, "the device is usable after the abort: %s", ga_last_error_message());
    ga_release(s), ga_release(a), ga_release(b);
}
