/* Host tests of the reductions' launch planning (ga__reduce_plan in
   gpuarr.h's >>reduce): the passes, kernels, group sizes, chunks and grids
   a job gets, computed on the host with no GPU, as CuPy tests its
   _get_block_specs.

   - A table of shapes, axes, layouts and dtypes with the plans expected
     from the planner's rules (one case per branch: a thread, a warp or a
     block per row, rows of a warp's part, tiles, packed vectors, outer
     columns with and without 16-byte alignment, and jobs of two and three
     passes, inner and outer).
   - Invariants over many random jobs: every plan ends (a final pass of one
     chunk within GA__RMAX_PASSES passes, each pass reducing what the last
     left); the chunks of a pass cover its rows exactly; the grid is within
     the launch limits and a wave of blocks where the planner caps it; only
     the grid depends on the device (the order of the additions never
     does); and each pass's kernel is one the reduce, extrema or logic fatbin has.

   Arrays are host-side stand-ins (struct ga_array with a made-up device
   address): planning reads shapes, strides, dtypes and the address's
   alignment only. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

/* The multiprocessors of the device the expectations are for (an H100 or
   H200). */
#define SMS 132
#define BASE ((uint64_t)1 << 40) /* a made-up device address, 256-byte aligned */

/* a's stand-in: C-order strides (order 0), Fortran order (1), or C order
   with every axis reversed (2); data at BASE + misalign (+ the reversed
   axes' span). */
static struct ga_array fake_array(ga_dtype t, int ndim, const int64_t *shape, int order, uint64_t misalign)
{
    struct ga_array a;
    memset(&a, 0, sizeof a);
    a.refcount = 1;
    a.dtype = t;
    a.ndim = ndim;
    a.size = 1;
    int64_t step = (int64_t)ga__dtype_sizes[t];
    for (int i = 0; i < ndim; i++) {
        int d = order == 1 ? i : ndim - 1 - i;
        a.shape[d] = shape[d];
        a.strides[d] = step;
        if (i + 1 < ndim) step *= shape[d] ? shape[d] : 1;
        a.size *= shape[d];
    }
    a.data = BASE + misalign;
    if (order == 2)
        for (int d = 0; d < ndim; d++) {
            a.data += (uint64_t)(a.strides[d] * (shape[d] > 0 ? shape[d] - 1 : 0));
            a.strides[d] = -a.strides[d];
        }
    return a;
}

/* The result's stand-in, as ga__reduce_new lays it out: the kept axes in
   a's memory order. */
static struct ga_array fake_result(const struct ga_array *a, const bool *red, ga_dtype t)
{
    struct ga_array o;
    memset(&o, 0, sizeof o);
    o.refcount = 1;
    o.dtype = t;
    o.data = BASE * 2;
    int dims[GA_MAXDIMS], perm[GA_MAXDIMS], n = 0;
    int64_t s[GA_MAXDIMS] = {0};
    for (int d = 0; d < a->ndim; d++)
        if (!red[d]) {
            o.shape[n] = a->shape[d];
            dims[n] = n;
            s[n++] = a->strides[d];
        }
    o.ndim = n;
    ga__order_by_stride(n, s, perm);
    int64_t step = (int64_t)ga__dtype_sizes[t];
    for (int i = n - 1; i >= 0; i--) {
        o.strides[dims[perm[i]]] = step;
        step *= o.shape[dims[perm[i]]] ? o.shape[dims[perm[i]]] : 1;
    }
    return o;
}

/* The value type ga__reduce_into gives a job of `op` over dtype t (dtypes
   the loads read without a conversion first). */
static ga_dtype job_value(int op, ga_dtype t)
{
    switch (op) {
    case GA__ROP_SUM: case GA__ROP_PROD: return ga__rvalue(ga__sum_dtype(t), false);
    case GA__ROP_MINMAX: case GA__ROP_ARG: return ga__rvalue(t, true);
    case GA__ROP_SUMSQ: return ga__rvalue(ga__is_exact(t) ? GA_FLOAT64 : t, false);
    case GA__ROP_COUNT: return GA_INT64;
    default: return GA_BOOL;
    }
}

/* The plan of `op` with `flags` over the axes of a (bit d of `axes`: axis d
   reduced) on a device of `sms` multiprocessors; *dims receives the job's
   dims. */
static void plan_of(const struct ga_array *a, unsigned axes, int op, int flags, int64_t sms, ga__rdims *dims,
                    ga__rplan *plan)
{
    bool red[GA_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) red[d] = (axes >> d) & 1;
    ga_dtype value = job_value(op, a->dtype);
    struct ga_array o = fake_result(a, red, op == GA__ROP_ARG || op == GA__ROP_COUNT ? GA_INT64 : value);
    ga__rjob j;
    memset(&j, 0, sizeof j);
    j.func = "test";
    j.a = a;
    j.red = red;
    j.out = &o;
    j.op = op;
    j.flags = flags;
    j.value = value;
    ga__rdims_build(&j, op != GA__ROP_ARG, dims);
    ga__reduce_plan(&j, dims, sms, plan);
}

/* ======================================================================== */
/* Expected plans                                                            */
/* ======================================================================== */

typedef struct pass_case {
    int layout, op, in, flags, group, vec;
    int64_t chunk, nchunks, blocks;
} pass_case;

typedef struct plan_case {
    const char *name;
    ga_dtype dtype;
    int ndim;
    int64_t shape[4];
    int order;         /* fake_array's */
    uint64_t misalign; /* bytes */
    unsigned axes;     /* bit d: axis d reduced */
    int op, flags;     /* the job's */
    int npasses;
    pass_case pass[4];
} plan_case;

#define INNER GA__RINNER
#define OUTER GA__ROUTER
#define PACKED GA__RPACKED
#define ROWS GA__RF_ROWS
#define TILES GA__RF_TILES
#define ALIGNED GA__RF_ALIGNED

static const plan_case plan_cases[] = {
    /* a warp per row of up to 2048 elements; one row (no kept dims): no ROWS */
    {"sum of 1000 float32", GA_FLOAT32, 1, {1000}, 0, 0, 1, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 32, 0, 1000, 1, 1}}},
    /* reversed: the dim is flipped, the same plan */
    {"sum of 1000 float32 reversed", GA_FLOAT32, 1, {1000}, 2, 0, 1, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 32, 0, 1000, 1, 1}}},
    /* a block per chunk of pow2(K / 2048) >= 4096 elements, a wave of blocks,
       then a combine pass of one block (one row of more than 512 partials) */
    {"sum of 2^24 float32", GA_FLOAT32, 1, {1 << 24}, 0, 0, 1, GA__ROP_SUM, 0, 2,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 256, 0, 8192, 2048, SMS * 4},
      {INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 256, 0, 2048, 1, 1}}},
    /* 2^20: chunks of the least 4096, a block each; the 256 partials: a warp */
    {"sum of 2^20 float32", GA_FLOAT32, 1, {1 << 20}, 0, 0, 1, GA__ROP_SUM, 0, 2,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 256, 0, 4096, 256, 256},
      {INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 32, 0, 256, 1, 1}}},
    /* elements of 1 and 2 bytes: chunks of pow2(K / 512) and pow2(K / 1024),
       as many bytes as float32's, at most 65536 elements */
    {"sum of 2^26 int8", GA_INT8, 1, {1 << 26}, 0, 0, 1, GA__ROP_SUM, 0, 2,
     {{INNER, GA__ROP_SUM, GA__RIN_TO_INT64, 0, 256, 0, 65536, 1024, SMS * 4},
      {INNER, GA__ROP_SUM, GA__RIN_TO_INT64, 0, 256, 0, 1024, 1, 1}}},
    {"max of 2^26 float16", GA_FLOAT16, 1, {1 << 26}, 0, 0, 1, GA__ROP_MINMAX, GA__RF_MAX, 2,
     {{INNER, GA__ROP_MINMAX, GA__RIN_TO_FLOAT32, GA__RF_MAX, 256, 0, 65536, 1024, SMS * 4},
      {INNER, GA__ROP_MINMAX, GA__RIN_FLOAT32, GA__RF_MAX, 256, 0, 1024, 1, 1}}},
    /* argmax: chunks of pow2(K / 1024) whatever the dtype; argcombine reads the states */
    {"argmax of 2^24 float32", GA_FLOAT32, 1, {1 << 24}, 0, 0, 1, GA__ROP_ARG, GA__RF_MAX, 2,
     {{INNER, GA__ROP_ARG, GA__RIN_FLOAT32, GA__RF_MAX, 256, 0, 16384, 1024, SMS * 4},
      {INNER, GA__ROP_ARGCOMBINE, GA__RIN_FLOAT32, GA__RF_MAX, 256, 0, 1024, 1, 1}}},
    /* nanargmax: the combine pass keeps GA__RF_NAN, so that its final store
       reports a row of all-NaN chunks (no index) */
    {"nanargmax of 2^24 float32", GA_FLOAT32, 1, {1 << 24}, 0, 0, 1, GA__ROP_ARG, GA__RF_MAX | GA__RF_NAN, 2,
     {{INNER, GA__ROP_ARG, GA__RIN_FLOAT32, GA__RF_MAX | GA__RF_NAN, 256, 0, 16384, 1024, SMS * 4},
      {INNER, GA__ROP_ARGCOMBINE, GA__RIN_FLOAT32, GA__RF_MAX | GA__RF_NAN, 256, 0, 1024, 1, 1}}},
    /* three passes: chunks of 65536, then 65536 again, then a warp */
    {"sum of 2^40 float32", GA_FLOAT32, 1, {(int64_t)1 << 40}, 0, 0, 1, GA__ROP_SUM, 0, 3,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 256, 0, 65536, 1 << 24, SMS * 4},
      {INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 256, 0, 65536, 256, 256},
      {INNER, GA__ROP_SUM, GA__RIN_FLOAT32, 0, 32, 0, 256, 1, 1}}},
    /* rows of 2 float32 from an aligned start: the packed kernel, a thread
       per 16-byte vector, 4 vectors each */
    {"rows of 2 float32, packed", GA_FLOAT32, 2, {1000000, 2}, 0, 0, 2, GA__ROP_SUM, 0, 1,
     {{PACKED, GA__ROP_SUM, GA__RIN_FLOAT32, ROWS | GA__RF_PACKED, 1, 0, 2, 1, 489}}},
    /* the same 4 bytes off 16-byte alignment: a thread per row */
    {"rows of 2 float32, misaligned", GA_FLOAT32, 2, {1000000, 2}, 0, 4, 2, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, ROWS, 1, 0, 2, 1, 3907}}},
    /* argcombine never packs, but arg does */
    {"argmin of rows of 4 float32, packed", GA_FLOAT32, 2, {4096, 4}, 0, 0, 2, GA__ROP_ARG, 0, 1,
     {{PACKED, GA__ROP_ARG, GA__RIN_FLOAT32, ROWS | GA__RF_PACKED, 1, 0, 4, 1, 4}}},
    /* rows of 64 bytes: tiles of 256 rows through shared memory */
    {"rows of 8 float64, tiles", GA_FLOAT64, 2, {1000, 8}, 0, 0, 2, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT64, ROWS | TILES, 1, 0, 8, 1, 4}}},
    /* many rows of 100: part of a warp each, about 16 elements per thread */
    {"rows of 100 float32", GA_FLOAT32, 2, {100000, 100}, 0, 0, 2, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, ROWS, 8, 0, 100, 1, 3125}}},
    /* outer: 16 threads of 4 columns across, the 1000 rows in 8 chunks,
       then a pass over the 8 partial rows */
    {"columns of (1000, 64) float32", GA_FLOAT32, 2, {1000, 64}, 0, 0, 1, GA__ROP_SUM, 0, 2,
     {{OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 16, 4, 125, 8, 8},
      {OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 16, 4, 8, 1, 1}}},
    /* 999 rows in 8 chunks: the last one shorter */
    {"columns of (999, 64) float32", GA_FLOAT32, 2, {999, 64}, 0, 0, 1, GA__ROP_SUM, 0, 2,
     {{OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 16, 4, 125, 8, 8},
      {OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 16, 4, 8, 1, 1}}},
    /* outer over three passes: 2048 chunks, then 32, then 1 */
    {"columns of (2^22, 128) float32", GA_FLOAT32, 2, {1 << 22, 128}, 0, 0, 1, GA__ROP_SUM, 0, 3,
     {{OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 32, 4, 2048, 2048, SMS * 4},
      {OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 32, 4, 64, 32, 32},
      {OUTER, GA__ROP_SUM, GA__RIN_FLOAT32, ALIGNED, 32, 4, 32, 1, 1}}},
    /* integers convert as they load: a column per thread, no vectors */
    {"columns of (3, 5) int32", GA_INT32, 2, {3, 5}, 0, 0, 1, GA__ROP_SUM, 0, 1,
     {{OUTER, GA__ROP_SUM, GA__RIN_TO_INT64, 0, 8, 1, 3, 1, 1}}},
    /* var's second pass of complex128: then float64 partial sums whose rows
       (24 bytes apart) are not 16-byte aligned */
    {"sumsq of columns of (1000, 3) complex128", GA_COMPLEX128, 2, {1000, 3}, 0, 0, 1, GA__ROP_SUMSQ, 0, 2,
     {{OUTER, GA__ROP_SUMSQ, GA__RIN_COMPLEX128, ALIGNED, 4, 1, 500, 2, 2},
      {OUTER, GA__ROP_SUM, GA__RIN_FLOAT64, 0, 2, 2, 2, 1, 1}}},
    /* Fortran order: the reduced axis 0 is the fastest, so inner */
    {"axis 0 of a Fortran-order (1000, 64) float32", GA_FLOAT32, 2, {1000, 64}, 1, 0, 1, GA__ROP_SUM, 0, 1,
     {{INNER, GA__ROP_SUM, GA__RIN_FLOAT32, ROWS, 32, 0, 1000, 1, 8}}},
    /* any of bools: read as truth values */
    {"any of 64 bool", GA_BOOL, 1, {64}, 0, 0, 1, GA__ROP_LOGIC, GA__RF_ANY, 1,
     {{INNER, GA__ROP_LOGIC, GA__RIN_ANY, GA__RF_ANY, 32, 0, 64, 1, 1}}},
    /* nanmin of float16: float32 values; a combine pass keeps NAN */
    {"nanmin of 2^20 float16", GA_FLOAT16, 1, {1 << 20}, 0, 0, 1, GA__ROP_MINMAX, GA__RF_NAN, 2,
     {{INNER, GA__ROP_MINMAX, GA__RIN_TO_FLOAT32, GA__RF_NAN, 256, 0, 4096, 256, 256},
      {INNER, GA__ROP_MINMAX, GA__RIN_FLOAT32, GA__RF_NAN, 32, 0, 256, 1, 1}}},
    /* two reduced dims that do not merge, a kept one between them */
    {"axes 0 and 2 of (7, 300, 5) int8", GA_INT8, 3, {7, 300, 5}, 0, 0, 5, GA__ROP_MINMAX, 0, 1,
     {{INNER, GA__ROP_MINMAX, GA__RIN_TO_INT64, 0, 32, 0, 35, 1, 38}}},
};

static void check_plan_case(const plan_case *c)
{
    struct ga_array a = fake_array(c->dtype, c->ndim, c->shape, c->order, c->misalign);
    ga__rdims dims;
    ga__rplan plan;
    plan_of(&a, c->axes, c->op, c->flags, SMS, &dims, &plan);
    CHECK(plan.npasses == c->npasses, "%s: %d passes, expected %d", c->name, plan.npasses, c->npasses);
    for (int p = 0; p < plan.npasses && p < c->npasses; p++) {
        const ga__rpass *P = &plan.pass[p];
        const pass_case *e = &c->pass[p];
        CHECK(P->layout == e->layout && P->op == e->op && P->in == e->in,
              "%s, pass %d: kernel %s_%s_%s, expected %s_%s_%s", c->name, p, ga__rop_names[P->op],
              ga__rin_names[P->in], ga__rlayout_names[P->layout], ga__rop_names[e->op], ga__rin_names[e->in],
              ga__rlayout_names[e->layout]);
        CHECK(P->flags == e->flags, "%s, pass %d: flags %d, expected %d", c->name, p, P->flags, e->flags);
        CHECK(P->group == e->group && P->vec == e->vec, "%s, pass %d: group %d vec %d, expected %d and %d", c->name,
              p, P->group, P->vec, e->group, e->vec);
        CHECK(P->chunk == e->chunk && P->nchunks == e->nchunks, "%s, pass %d: %lld chunks of %lld, expected %lld of %lld",
              c->name, p, (long long)P->nchunks, (long long)P->chunk, (long long)e->nchunks, (long long)e->chunk);
        CHECK(P->blocks == e->blocks, "%s, pass %d: %lld blocks, expected %lld", c->name, p, (long long)P->blocks,
              (long long)e->blocks);
    }
}

TEST(reduce_plan_table)
{
    for (size_t i = 0; i < sizeof plan_cases / sizeof plan_cases[0]; i++) check_plan_case(&plan_cases[i]);
}

/* ======================================================================== */
/* Invariants over random jobs                                               */
/* ======================================================================== */

static bool kernel_exists(const ga__rpass *P)
{
    const char *op = ga__rop_names[P->op], *in = ga__rin_names[P->in];
#define KERNEL_MATCH(o, i) \
    if (strcmp(op, #o) == 0 && strcmp(in, #i) == 0) return true;
    if (P->layout == GA__RPACKED) {
        GA__REDUCE_PACKED_LIST(KERNEL_MATCH)
    } else {
        GA__REDUCE_KERNEL_LIST(KERNEL_MATCH)
    }
#undef KERNEL_MATCH
    return false;
}

/* Checks the invariants of the plan of one job; returns false at the first
   plan that breaks one (reported), so that a broken planner prints a few
   lines, not thousands. */
static bool check_invariants(const char *what, const struct ga_array *a, unsigned axes, int op, int flags)
{
    ga__rdims dims, dims2;
    ga__rplan plan, other;
    plan_of(a, axes, op, flags, SMS, &dims, &plan);
    if (dims.rows == 0) return true; /* no launch */
    int fails = test_failures;
    CHECK(plan.npasses >= 1 && plan.npasses <= GA__RMAX_PASSES, "%s: %d passes", what, plan.npasses);
    const int n = GA__MIN(GA__MAX(plan.npasses, 1), GA__RMAX_PASSES);
    CHECK(plan.pass[n - 1].nchunks == 1, "%s: the last pass leaves %lld chunks", what,
          (long long)plan.pass[n - 1].nchunks);
    CHECK(plan.pass[0].length == dims.length, "%s: the first pass reduces %lld of %lld elements", what,
          (long long)plan.pass[0].length, (long long)dims.length);
    int cop, cin, cflags;
    ga_dtype cdtype;
    ga__rcombine_of(op, flags, job_value(op, a->dtype), &cop, &cin, &cflags, &cdtype);
    for (int p = 0; p < n; p++) {
        const ga__rpass *P = &plan.pass[p];
        const int64_t K = P->length;
        if (p + 1 < n) {
            CHECK(P->nchunks > 1, "%s, pass %d: a pass before the last with one chunk", what, p);
            CHECK(plan.pass[p + 1].length == P->nchunks && P->nchunks < K,
                  "%s, pass %d: the next pass reduces %lld of %lld partial states (from %lld)", what, p,
                  (long long)plan.pass[p + 1].length, (long long)P->nchunks, (long long)K);
        }
        /* the chunks cover the row, none empty */
        CHECK(P->chunk >= 1 && P->nchunks >= 1, "%s, pass %d: chunk %lld, %lld chunks", what, p, (long long)P->chunk,
              (long long)P->nchunks);
        if (K > 0)
            CHECK(P->chunk * P->nchunks >= K && (P->nchunks - 1) * P->chunk < K,
                  "%s, pass %d: %lld chunks of %lld for %lld elements", what, p, (long long)P->nchunks,
                  (long long)P->chunk, (long long)K);
        else
            CHECK(P->nchunks == 1, "%s, pass %d: an empty row in %lld chunks", what, p, (long long)P->nchunks);
        /* the grid */
        CHECK(P->blocks >= 1 && P->blocks <= INT32_MAX, "%s, pass %d: %lld blocks", what, p, (long long)P->blocks);
        if (plan.layout == GA__ROUTER || P->group == 256)
            CHECK(P->blocks <= SMS * 4, "%s, pass %d: %lld blocks, more than a wave", what, p, (long long)P->blocks);
        if (P->layout == GA__RINNER && P->group < 256 && !(P->flags & GA__RF_TILES) && P->blocks < INT32_MAX)
            CHECK(P->blocks * (256 / P->group) >= dims.rows * P->nchunks, "%s, pass %d: %lld blocks of %d rows for %lld",
                  what, p, (long long)P->blocks, 256 / P->group, (long long)(dims.rows * P->nchunks));
        CHECK(P->group == 256 || (P->group >= 1 && P->group <= 32 && (P->group & (P->group - 1)) == 0),
              "%s, pass %d: group %d", what, p, P->group);
        CHECK(P->layout == GA__ROUTER ? P->vec >= 1 && P->group <= 32 : P->vec == 0, "%s, pass %d: group %d vec %d",
              what, p, P->group, P->vec);
        CHECK((P->layout == GA__ROUTER) == (plan.layout == GA__ROUTER), "%s, pass %d: layout %s in a %s plan", what,
              p, ga__rlayout_names[P->layout], ga__rlayout_names[plan.layout]);
        CHECK(kernel_exists(P), "%s, pass %d: no kernel ga_reduce_%s_%s_%s", what, p, ga__rop_names[P->op],
              ga__rin_names[P->in], ga__rlayout_names[P->layout]);
        /* shared memory tiles and packed vectors only read a's own rows */
        if (p > 0) {
            CHECK(!(P->flags & (GA__RF_TILES | GA__RF_PACKED)), "%s, pass %d: flags %d", what, p, P->flags);
            CHECK(P->op == cop && P->in == cin && P->in_dtype == cdtype && (P->flags & ~GA__RF_ALIGNED & ~GA__RF_ROWS) == cflags,
                  "%s, pass %d: combine kernel %s_%s (flags %d), expected %s_%s (%d)", what, p, ga__rop_names[P->op],
                  ga__rin_names[P->in], P->flags, ga__rop_names[cop], ga__rin_names[cin], cflags);
        }
    }
    /* another device changes the grid only */
    static const int64_t sms[] = {1, 46, 1000};
    for (int s = 0; s < 3; s++) {
        plan_of(a, axes, op, flags, sms[s], &dims2, &other);
        bool same = other.npasses == plan.npasses && other.layout == plan.layout && other.state == plan.state;
        for (int p = 0; same && p < n; p++) {
            ga__rpass x = plan.pass[p], y = other.pass[p];
            x.blocks = y.blocks = 0;
            same = memcmp(&x, &y, sizeof x) == 0;
        }
        CHECK(same, "%s: the plan on %lld multiprocessors differs beyond the grid", what, (long long)sms[s]);
    }
    if (test_failures == fails) return true;
    fprintf(stderr, "    (%s: %d passes, dims %d kept, %d reduced, %lld rows of %lld)\n", what, plan.npasses,
            dims.kept_ndim, dims.red_ndim, (long long)dims.rows, (long long)dims.length);
    return false;
}

TEST(reduce_plan_invariants)
{
    static const ga_dtype dtypes[] = {GA_BOOL, GA_INT8, GA_INT32, GA_UINT64, GA_FLOAT16, GA_BFLOAT16,
                                      GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
    static const int64_t lens[] = {1, 2, 3, 4, 5, 8, 16, 17, 31, 100, 1000, 2048, 2049, 65536, 65537, 1 << 20};
    static const int ops[] = {GA__ROP_SUM, GA__ROP_PROD, GA__ROP_MINMAX, GA__ROP_ARG, GA__ROP_SUMSQ, GA__ROP_COUNT,
                              GA__ROP_LOGIC};
    int checked = 0;
    for (int it = 0; it < 20000; it++) {
        ga_dtype t = dtypes[rnd() % 10];
        int op = ops[rnd() % 7];
        if (op == GA__ROP_SUMSQ && ga__dtype_kinds[t] != 'f' && ga__dtype_kinds[t] != 'c') t = GA_FLOAT64;
        if (op == GA__ROP_SUMSQ && (t == GA_FLOAT16 || t == GA_BFLOAT16)) t = GA_FLOAT32;
        int ndim = 1 + (int)(rnd() % 4);
        int64_t shape[4], total = 1;
        for (int d = 0; d < ndim; d++) {
            shape[d] = lens[rnd() % 16];
            if (total * shape[d] > ((int64_t)1 << 34)) shape[d] = 1 + (int64_t)(rnd() % 7);
            total *= shape[d];
        }
        if (rnd() % 50 == 0) { /* a long dim, the others short */
            int k = (int)(rnd() % (uint64_t)ndim);
            for (int d = 0; d < ndim; d++) shape[d] = d == k ? (int64_t)1 << (30 + rnd() % 12) : 1 + (int64_t)(rnd() % 7);
        }
        int order = (int)(rnd() % 3);
        struct ga_array a = fake_array(t, ndim, shape, order, rnd() % 4 == 0 ? 4 * (rnd() % 4) : 0);
        unsigned axes = (unsigned)(rnd() % ((uint64_t)1 << ndim));
        if (rnd() % 4 == 0) axes = (1u << ndim) - 1;
        if (op == GA__ROP_ARG && axes != (1u << ndim) - 1) axes &= 1u << (rnd() % (uint64_t)ndim); /* one axis */
        int flags = (int)(rnd() % 2) * GA__RF_MAX | (int)(rnd() % 2) * GA__RF_NAN;
        if (op == GA__ROP_LOGIC) flags = (int)(rnd() % 2) * GA__RF_ANY;
        if (op == GA__ROP_COUNT) flags = (int)(rnd() % 2) * GA__RF_NOTNAN;
        char what[160];
        snprintf(what, sizeof what, "%s of %s (%lld, %lld, %lld, %lld)[:%d] order %d axes %#x",
                 ga__rop_names[op], ga_dtype_name(t), (long long)shape[0], ndim > 1 ? (long long)shape[1] : 0LL,
                 ndim > 2 ? (long long)shape[2] : 0LL, ndim > 3 ? (long long)shape[3] : 0LL, ndim, order, axes);
        if (!check_invariants(what, &a, axes, op, flags)) break;
        checked++;
    }
    CHECK(checked == 20000, "%d of 20000 random jobs checked", checked);
}

/* The longest rows take the most passes: a sum of 2^62 elements in one row,
   and columns as long as they can be, still end within GA__RMAX_PASSES. */
TEST(reduce_plan_longest_rows_end)
{
    struct ga_array a = fake_array(GA_FLOAT32, 1, (const int64_t[]){(int64_t)1 << 62}, 0, 0);
    check_invariants("sum of 2^62 float32", &a, 1, GA__ROP_SUM, 0);
    a = fake_array(GA_COMPLEX128, 1, (const int64_t[]){(int64_t)1 << 58}, 0, 0);
    check_invariants("argmin of 2^58 complex128", &a, 1, GA__ROP_ARG, 0);
    a = fake_array(GA_INT8, 2, (const int64_t[]){(int64_t)1 << 56, 64}, 0, 0);
    check_invariants("columns of (2^56, 64) int8", &a, 1, GA__ROP_SUM, 0);
    a = fake_array(GA_FLOAT64, 2, (const int64_t[]){(int64_t)1 << 54, 2}, 0, 0);
    check_invariants("columns of (2^54, 2) float64", &a, 1, GA__ROP_MINMAX, GA__RF_NAN);
}
