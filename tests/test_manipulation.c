/* Device tests of the manipulation functions that copy (gpuarr.h, >>manip):
   reshape/ravel needing a copy, flatten, ascontiguousarray/asfortranarray,
   concatenate, stack and the *stack family, tile, repeat, roll, meshgrid,
   setitem; and writes through views. Values are compared with references
   computed here in C (small integers, exact in every dtype), errors with
   NumPy's messages. Skipped (and counted) where there is no GPU. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"

/* ---- helpers ------------------------------------------------------------- */

/* Every array a test makes goes through T() and is released by done(). */
static ga_array *owned[1024];
static int nowned;
static ga_array *T(ga_array *a)
{
    if (a && nowned < (int)(sizeof owned / sizeof owned[0])) owned[nowned++] = a;
    return a;
}
static void done(void)
{
    for (int i = 0; i < nowned; i++) ga_release(owned[i]);
    nowned = 0;
    ga_clear_error();
}

static int64_t count(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    return n;
}

/* What value v becomes in `dtype` (bool: nonzero is 1). */
static double in_dtype(ga_dtype dtype, double v) { return dtype == GA_BOOL ? (v != 0) : v; }

/* A new array of `dtype` holding start, start + 1, ... in C order. */
static ga_array *seq(int ndim, const int64_t *shape, double start, ga_dtype dtype)
{
    int64_t n = count(ndim, shape);
    double *h = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) h[i] = start + (double)i;
    static const int64_t none[1] = {0};
    ga_array *f = ga_from_host(h, ndim, ndim ? shape : none, GA_FLOAT64);
    free(h);
    if (!f || dtype == GA_FLOAT64) return T(f);
    ga_array *r = ga_astype(f, dtype);
    ga_release(f);
    return T(r);
}

/* a's values in C order, as doubles (complex: the real part); NULL on failure. */
static double *values(const ga_array *a)
{
    int64_t n = ga_size(a);
    ga_array *f = ga_astype(a, GA_FLOAT64);
    if (!f) return NULL;
    double *h = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (ga_to_host(f, h, sizeof(double) * (size_t)n) != GA_OK) {
        free(h);
        h = NULL;
    }
    ga_release(f);
    return h;
}

/* Checks dtype, shape and values of `a`. */
static void check_array(int line, const char *what, const ga_array *a, ga_dtype dtype, int ndim,
                        const int64_t *shape, const double *want)
{
    if (!a) {
        test_fail(__FILE__, line, "%s failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    if (ga_dtype_of(a) != dtype) {
        test_fail(__FILE__, line, "%s: dtype %s, expected %s", what, ga_dtype_name(ga_dtype_of(a)), ga_dtype_name(dtype));
        return;
    }
    int same = ga_ndim(a) == ndim;
    for (int d = 0; same && d < ndim; d++) same = ga_shape(a)[d] == shape[d];
    if (!same) {
        char got[128] = "", want_s[128] = "";
        for (int d = 0; d < ga_ndim(a); d++) snprintf(got + strlen(got), sizeof got - strlen(got), "%lld,", (long long)ga_shape(a)[d]);
        for (int d = 0; d < ndim; d++) snprintf(want_s + strlen(want_s), sizeof want_s - strlen(want_s), "%lld,", (long long)shape[d]);
        test_fail(__FILE__, line, "%s: shape (%s), expected (%s)", what, got, want_s);
        return;
    }
    int64_t n = count(ndim, shape);
    double *got = values(a);
    if (!got) {
        test_fail(__FILE__, line, "%s: reading it back failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            test_fail(__FILE__, line, "%s: element %lld (C order) is %g, expected %g", what, (long long)i, got[i], want[i]);
            break;
        }
    free(got);
}
#define CHECK_ARRAY(what, a, dtype, ndim, shape, want) check_array(__LINE__, what, a, dtype, ndim, shape, want)

static void check_strides(int line, const char *what, const ga_array *a, int ndim, const int64_t *strides, int flags)
{
    if (!a) return;
    int same = ga_ndim(a) == ndim;
    for (int d = 0; same && d < ndim; d++) same = ga_strides(a)[d] == strides[d];
    if (!same) test_fail(__FILE__, line, "%s: strides differ (first: %lld, expected %lld)", what,
                         ndim ? (long long)ga_strides(a)[0] : 0LL, ndim ? (long long)strides[0] : 0LL);
    if ((ga_flags(a) & flags) != flags) test_fail(__FILE__, line, "%s: flags %d lack %d", what, ga_flags(a), flags);
}
#define CHECK_STRIDES(what, a, ndim, strides, flags) check_strides(__LINE__, what, a, ndim, strides, flags)

/* A failure with status `code` (or `alt`, when the contract leaves it open)
   and a message naming the function and containing `text`. */
#define CHECK_FAILS(failed, code, alt, text)                                                        \
    do {                                                                                            \
        int f_ = (failed);                                                                          \
        ga_status s_ = ga_last_error();                                                             \
        const char *m_ = ga_last_error_message();                                                   \
        if (!f_) test_fail(__FILE__, __LINE__, "expected %s to fail", #failed);                     \
        else if ((s_ != (code) && s_ != (alt)) || !strstr(m_, (text)))                              \
            test_fail(__FILE__, __LINE__, "expected %s and \"%s\", got %s: \"%s\"", #code, (text),   \
                      ga_status_string(s_), m_);                                                    \
        ga_clear_error();                                                                           \
    } while (0)

/* The values of the C-order array src (shape) seen through a view with the
   given element strides and element offset, in C order of `vshape`. */
static void gather(const double *src, int ndim, const int64_t *vshape, const int64_t *estrides, int64_t eoffset,
                   double *out)
{
    int64_t n = count(ndim, vshape), idx[GA_MAXDIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t at = eoffset;
        for (int d = 0; d < ndim; d++) at += idx[d] * estrides[d];
        out[k] = src[at];
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < vshape[d]) break;
            idx[d] = 0;
        }
    }
}

static void iota(double *v, int64_t n, double start)
{
    for (int64_t i = 0; i < n; i++) v[i] = start + (double)i;
}

/* ---- reshape, flatten, ravel ----------------------------------------------- */

DEVICE_TEST(reshape_copies_a_transposed_array)
{
    ga_array *a = seq(GA_SHAPE(3, 4), 0, GA_FLOAT32);
    ga_array *t = T(ga_transpose(a, NULL)); /* t[i][j] = a[j][i] = 4j + i */
    double want[12];
    gather((double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 2, (const int64_t[]){4, 3}, (const int64_t[]){1, 4}, 0, want);
    ga_array *r = T(ga_reshape(t, GA_SHAPE(2, 6)));
    CHECK_ARRAY("reshape(a.T, (2,6))", r, GA_FLOAT32, 2, ((const int64_t[]){2, 6}), want);
    CHECK_STRIDES("reshape(a.T, (2,6))", r, 2, ((const int64_t[]){24, 4}), GA_C_CONTIGUOUS | GA_WRITEABLE);
    CHECK(r && ga_data(r) != ga_data(a), "a copy, not a view");
    ga_array *r1 = T(ga_reshape(t, GA_SHAPE(-1)));
    CHECK_ARRAY("reshape(a.T, -1)", r1, GA_FLOAT32, 1, ((const int64_t[]){12}), want);
    ga_array *r3 = T(ga_reshape(t, GA_SHAPE(3, -1, 2)));
    CHECK_ARRAY("reshape(a.T, (3,-1,2))", r3, GA_FLOAT32, 3, ((const int64_t[]){3, 2, 2}), want);
    CHECK_FAILS(ga_reshape(t, GA_SHAPE(5)) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "ga_reshape: cannot reshape array of size 12 into shape (5,)");

    /* the copy is independent; a view writes through */
    CHECK_OK(ga_setitem_scalar(r, "0, 0", ga_int(99)));
    double base[12];
    iota(base, 12, 0);
    CHECK_ARRAY("a after writing the copy", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), base);
    ga_array *v = T(ga_reshape(a, GA_SHAPE(2, 6))); /* C-contiguous: a view */
    CHECK(v && ga_data(v) == ga_data(a), "reshape of a C-contiguous array is a view");
    CHECK_OK(ga_setitem_scalar(v, "1, 0", ga_int(-7)));
    base[6] = -7;
    CHECK_ARRAY("a after writing the reshaped view", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), base);
    done();
}

DEVICE_TEST(flatten_and_ravel)
{
    double base[12], want[12];
    iota(base, 12, 0);
    ga_array *a = seq(GA_SHAPE(3, 4), 0, GA_INT32);
    ga_array *t = T(ga_transpose(a, NULL));
    ga_array *f = T(ga_flatten(a));
    CHECK_ARRAY("flatten(a)", f, GA_INT32, 1, ((const int64_t[]){12}), base);
    CHECK(f && ga_data(f) != ga_data(a), "flatten copies even a contiguous array");
    CHECK_OK(ga_setitem_scalar(f, "0", ga_int(5)));
    CHECK_ARRAY("a after writing its flattened copy", a, GA_INT32, 2, ((const int64_t[]){3, 4}), base);

    gather(base, 2, (const int64_t[]){4, 3}, (const int64_t[]){1, 4}, 0, want);
    CHECK_ARRAY("flatten(a.T)", T(ga_flatten(t)), GA_INT32, 1, ((const int64_t[]){12}), want);
    ga_array *rt = T(ga_ravel(t));
    CHECK_ARRAY("ravel(a.T)", rt, GA_INT32, 1, ((const int64_t[]){12}), want);
    CHECK(rt && ga_data(rt) != ga_data(a), "ravel of a non-contiguous array copies");

    ga_array *s = T(ga_index(a, "::-1, ::2")); /* (3,2): a[2-i][2j] */
    gather(base, 2, (const int64_t[]){3, 2}, (const int64_t[]){-4, 2}, 8, want);
    CHECK_ARRAY("ravel(a[::-1, ::2])", T(ga_ravel(s)), GA_INT32, 1, ((const int64_t[]){6}), want);

    ga_array *ra = T(ga_ravel(a));
    CHECK(ra && ga_data(ra) == ga_data(a), "ravel of a C-contiguous array is a view");
    ga_array *z = seq(0, NULL, 3, GA_FLOAT64);
    CHECK_ARRAY("flatten(0-d)", T(ga_flatten(z)), GA_FLOAT64, 1, ((const int64_t[]){1}), ((const double[]){3}));
    done();
}

DEVICE_TEST(ascontiguousarray_and_asfortranarray)
{
    double base[12], want[12];
    iota(base, 12, 0);
    ga_array *a = seq(GA_SHAPE(3, 4), 0, GA_FLOAT32);
    ga_array *t = T(ga_transpose(a, NULL));
    gather(base, 2, (const int64_t[]){4, 3}, (const int64_t[]){1, 4}, 0, want);

    ga_array *c = T(ga_ascontiguousarray(t));
    CHECK_ARRAY("ascontiguousarray(a.T)", c, GA_FLOAT32, 2, ((const int64_t[]){4, 3}), want);
    CHECK_STRIDES("ascontiguousarray(a.T)", c, 2, ((const int64_t[]){12, 4}), GA_C_CONTIGUOUS);
    CHECK(c && ga_data(c) != ga_data(a), "a copy");
    ga_array *same = T(ga_ascontiguousarray(a));
    CHECK(same == a, "an already C-contiguous array comes back itself");

    ga_array *fo = T(ga_asfortranarray(a));
    CHECK_ARRAY("asfortranarray(a)", fo, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), base);
    CHECK_STRIDES("asfortranarray(a)", fo, 2, ((const int64_t[]){4, 12}), GA_F_CONTIGUOUS);
    ga_array *same_f = T(ga_asfortranarray(t));
    CHECK(same_f == t, "an already F-contiguous array comes back itself");

    /* a negative-stride view */
    ga_array *n = T(ga_index(a, "::-1, 1:"));
    gather(base, 2, (const int64_t[]){3, 3}, (const int64_t[]){-4, 1}, 9, want);
    ga_array *nc = T(ga_ascontiguousarray(n));
    CHECK_ARRAY("ascontiguousarray(a[::-1, 1:])", nc, GA_FLOAT32, 2, ((const int64_t[]){3, 3}), want);
    CHECK_STRIDES("ascontiguousarray(a[::-1, 1:])", nc, 2, ((const int64_t[]){12, 4}), GA_C_CONTIGUOUS);
    ga_array *nf = T(ga_asfortranarray(n));
    CHECK_ARRAY("asfortranarray(a[::-1, 1:])", nf, GA_FLOAT32, 2, ((const int64_t[]){3, 3}), want);
    CHECK_STRIDES("asfortranarray(a[::-1, 1:])", nf, 2, ((const int64_t[]){4, 12}), GA_F_CONTIGUOUS);

    /* 0-d: NumPy gives a 1-d array of one element */
    ga_array *z = seq(0, NULL, 4, GA_FLOAT64);
    CHECK_ARRAY("ascontiguousarray(0-d)", T(ga_ascontiguousarray(z)), GA_FLOAT64, 1, ((const int64_t[]){1}),
                ((const double[]){4}));
    CHECK_ARRAY("asfortranarray(0-d)", T(ga_asfortranarray(z)), GA_FLOAT64, 1, ((const int64_t[]){1}),
                ((const double[]){4}));
    done();
}

/* ---- concatenate, stack ------------------------------------------------------ */

DEVICE_TEST(concatenate_axes)
{
    ga_array *x = seq(GA_SHAPE(2, 3), 0, GA_FLOAT64);   /* 0..5 */
    ga_array *y = seq(GA_SHAPE(2, 4), 100, GA_FLOAT64); /* 100..107 */
    ga_array *z = seq(GA_SHAPE(1, 3), 50, GA_FLOAT64);  /* 50..52 */
    ga_array *e = seq(GA_SHAPE(0, 3), 0, GA_FLOAT64);

    const ga_array *xz[3] = {x, z, e};
    CHECK_ARRAY("concatenate((x, z, empty), 0)", T(ga_concatenate(3, xz, 0)), GA_FLOAT64, 2,
                ((const int64_t[]){3, 3}), ((const double[]){0, 1, 2, 3, 4, 5, 50, 51, 52}));
    const double xy1[14] = {0, 1, 2, 100, 101, 102, 103, 3, 4, 5, 104, 105, 106, 107};
    const ga_array *xy[2] = {x, y};
    CHECK_ARRAY("concatenate((x, y), 1)", T(ga_concatenate(2, xy, 1)), GA_FLOAT64, 2, ((const int64_t[]){2, 7}), xy1);
    CHECK_ARRAY("concatenate((x, y), -1)", T(ga_concatenate(2, xy, -1)), GA_FLOAT64, 2, ((const int64_t[]){2, 7}), xy1);
    const double flat[14] = {0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105, 106, 107};
    CHECK_ARRAY("concatenate((x, y), None)", T(ga_concatenate(2, xy, GA_AXIS_NONE)), GA_FLOAT64, 1,
                ((const int64_t[]){14}), flat);
    const ga_array *one[1] = {x};
    CHECK_ARRAY("concatenate((x,), 0)", T(ga_concatenate(1, one, 0)), GA_FLOAT64, 2, ((const int64_t[]){2, 3}),
                ((const double[]){0, 1, 2, 3, 4, 5}));
    const ga_array *ee[2] = {e, e};
    CHECK_ARRAY("concatenate((empty, empty), 0)", T(ga_concatenate(2, ee, 0)), GA_FLOAT64, 2,
                ((const int64_t[]){0, 3}), NULL);

    /* non-contiguous inputs: x.T (3,2) beside a reversed view of y's first 3 columns, transposed */
    ga_array *xt = T(ga_transpose(x, NULL));            /* rows: (0,3) (1,4) (2,5) */
    ga_array *yv = T(ga_index(y, "::-1, :3"));          /* (2,3): rows 104..106, 100..102 */
    ga_array *yvt = T(ga_transpose(yv, NULL));          /* (3,2): (104,100) (105,101) (106,102) */
    const ga_array *nc[2] = {xt, yvt};
    CHECK_ARRAY("concatenate((x.T, y[::-1, :3].T), 1)", T(ga_concatenate(2, nc, 1)), GA_FLOAT64, 2,
                ((const int64_t[]){3, 4}), ((const double[]){0, 3, 104, 100, 1, 4, 105, 101, 2, 5, 106, 102}));
    CHECK_ARRAY("concatenate((x.T, y[::-1, :3].T), 0)", T(ga_concatenate(2, nc, 0)), GA_FLOAT64, 2,
                ((const int64_t[]){6, 2}), ((const double[]){0, 3, 1, 4, 2, 5, 104, 100, 105, 101, 106, 102}));

    /* errors, with NumPy's messages */
    const ga_array *bad[2] = {x, y};
    CHECK_FAILS(ga_concatenate(2, bad, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_SHAPE,
                "ga_concatenate: all the input array dimensions except for the concatenation axis must match "
                "exactly, but along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4");
    CHECK_FAILS(ga_concatenate(0, bad, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "ga_concatenate: need at least one array to concatenate");
    ga_array *v1 = seq(GA_SHAPE(3), 0, GA_FLOAT64);
    const ga_array *nd[2] = {x, v1};
    CHECK_FAILS(ga_concatenate(2, nd, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_SHAPE,
                "ga_concatenate: all the input arrays must have same number of dimensions, but the array at index 0 "
                "has 2 dimension(s) and the array at index 1 has 1 dimension(s)");
    CHECK_FAILS(ga_concatenate(2, xy, 2) == NULL, GA_ERROR_AXIS, GA_ERROR_AXIS,
                "ga_concatenate: axis 2 is out of bounds for array of dimension 2");
    ga_array *s0 = seq(0, NULL, 1, GA_FLOAT64);
    const ga_array *zd[2] = {s0, s0};
    CHECK_FAILS(ga_concatenate(2, zd, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "ga_concatenate: zero-dimensional arrays cannot be concatenated");
    CHECK_ARRAY("concatenate((0-d, 0-d), None)", T(ga_concatenate(2, zd, GA_AXIS_NONE)), GA_FLOAT64, 1,
                ((const int64_t[]){2}), ((const double[]){1, 1}));
    const ga_array *withnull[2] = {x, NULL};
    CHECK_FAILS(ga_concatenate(2, withnull, 0) == NULL, GA_ERROR_NULL_INPUT, GA_ERROR_NULL_INPUT, "ga_concatenate");
    done();
}

DEVICE_TEST(concatenate_dtypes)
{
    /* every dtype with itself */
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        ga_dtype dt = (ga_dtype)t;
        ga_array *p = seq(GA_SHAPE(2, 2), 1, dt), *q = seq(GA_SHAPE(1, 2), 10, dt);
        const ga_array *pq[2] = {p, q};
        double want[6] = {1, 2, 3, 4, 10, 11};
        for (int i = 0; i < 6; i++) want[i] = in_dtype(dt, want[i]);
        char what[64];
        snprintf(what, sizeof what, "concatenate %s axis 0", ga_dtype_name(dt));
        CHECK_ARRAY(what, T(ga_concatenate(2, pq, 0)), dt, 2, ((const int64_t[]){3, 2}), want);
        double want1[6] = {1, 2, 10, 3, 4, 11};
        ga_array *qt = T(ga_reshape(q, GA_SHAPE(2, 1)));
        const ga_array *pq1[2] = {p, qt};
        for (int i = 0; i < 6; i++) want1[i] = in_dtype(dt, want1[i]);
        snprintf(what, sizeof what, "concatenate %s axis 1", ga_dtype_name(dt));
        CHECK_ARRAY(what, T(ga_concatenate(2, pq1, 1)), dt, 2, ((const int64_t[]){2, 3}), want1);
        done();
    }
    /* mixed dtypes: NumPy's promotion */
    static const ga_dtype pairs[][3] = {
        {GA_INT32, GA_FLOAT32, GA_FLOAT64}, {GA_INT8, GA_UINT8, GA_INT16},   {GA_FLOAT16, GA_INT16, GA_FLOAT32},
        {GA_BOOL, GA_COMPLEX64, GA_COMPLEX64}, {GA_UINT64, GA_INT64, GA_FLOAT64}, {GA_BOOL, GA_INT8, GA_INT8},
        {GA_FLOAT32, GA_COMPLEX64, GA_COMPLEX64}, {GA_UINT16, GA_FLOAT16, GA_FLOAT32},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        ga_array *p = seq(GA_SHAPE(3), 0, pairs[k][0]), *q = seq(GA_SHAPE(2), 5, pairs[k][1]);
        const ga_array *pq[2] = {p, q};
        double want[5] = {in_dtype(pairs[k][0], 0), in_dtype(pairs[k][0], 1), in_dtype(pairs[k][0], 2),
                          in_dtype(pairs[k][1], 5), in_dtype(pairs[k][1], 6)};
        char what[96];
        snprintf(what, sizeof what, "concatenate %s with %s", ga_dtype_name(pairs[k][0]), ga_dtype_name(pairs[k][1]));
        CHECK(ga_promote_types(pairs[k][0], pairs[k][1]) == pairs[k][2], "%s: promotion table", what);
        CHECK_ARRAY(what, T(ga_concatenate(2, pq, 0)), pairs[k][2], 1, ((const int64_t[]){5}), want);
        done();
    }
}

/* The stack of n C-ordered (2,3) inputs in[k] = start_k + i along `axis`. */
static void stack_ref(int n, const double *starts, int axis, int64_t *oshape, double *out)
{
    const int64_t in_shape[2] = {2, 3};
    for (int d = 0, s = 0; d < 3; d++) oshape[d] = d == axis ? n : in_shape[s++];
    int64_t idx[3];
    int64_t total = (int64_t)n * 6;
    for (int64_t k = 0; k < total; k++) {
        int64_t r = k;
        for (int d = 2; d >= 0; d--) {
            idx[d] = r % oshape[d];
            r /= oshape[d];
        }
        int64_t which = idx[axis], in_idx[2];
        for (int d = 0, s = 0; d < 3; d++)
            if (d != axis) in_idx[s++] = idx[d];
        out[k] = starts[which] + (double)(in_idx[0] * 3 + in_idx[1]);
    }
}

DEVICE_TEST(stack_axes)
{
    const double starts[3] = {0, 10, 20};
    ga_array *in[3];
    for (int k = 0; k < 3; k++) in[k] = seq(GA_SHAPE(2, 3), starts[k], GA_INT16);
    const ga_array *cin[3] = {in[0], in[1], in[2]};
    for (int axis = -3; axis < 3; axis++)
        for (int n = 1; n <= 3; n++) {
            int64_t shape[3];
            double want[18];
            stack_ref(n, starts, axis < 0 ? axis + 3 : axis, shape, want);
            char what[64];
            snprintf(what, sizeof what, "stack of %d along axis %d", n, axis);
            CHECK_ARRAY(what, T(ga_stack(n, cin, axis)), GA_INT16, 3, shape, want);
        }
    ga_array *other = seq(GA_SHAPE(3, 2), 0, GA_INT16);
    const ga_array *bad[2] = {in[0], other};
    CHECK_FAILS(ga_stack(2, bad, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_SHAPE,
                "ga_stack: all input arrays must have the same shape");
    CHECK_FAILS(ga_stack(0, cin, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE, "ga_stack: need at least one array to stack");
    CHECK_FAILS(ga_stack(2, cin, 3) == NULL, GA_ERROR_AXIS, GA_ERROR_AXIS,
                "ga_stack: axis 3 is out of bounds for array of dimension 3");
    CHECK_FAILS(ga_stack(2, cin, -4) == NULL, GA_ERROR_AXIS, GA_ERROR_AXIS,
                "ga_stack: axis -4 is out of bounds for array of dimension 3");
    /* mixed dtypes promote */
    ga_array *f = seq(GA_SHAPE(2, 3), 0.5, GA_FLOAT32);
    const ga_array *mixed[2] = {in[0], f};
    double want[12] = {0, 1, 2, 3, 4, 5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5};
    CHECK_ARRAY("stack int16 with float32", T(ga_stack(2, mixed, 0)), GA_FLOAT32, 3, ((const int64_t[]){2, 2, 3}), want);
    done();
}

DEVICE_TEST(hstack_vstack_dstack_column_stack)
{
    ga_array *p = seq(GA_SHAPE(3), 0, GA_FLOAT32), *q = seq(GA_SHAPE(3), 10, GA_FLOAT32);
    const ga_array *pq[2] = {p, q};
    CHECK_ARRAY("hstack 1-d", T(ga_hstack(2, pq)), GA_FLOAT32, 1, ((const int64_t[]){6}),
                ((const double[]){0, 1, 2, 10, 11, 12}));
    CHECK_ARRAY("vstack 1-d", T(ga_vstack(2, pq)), GA_FLOAT32, 2, ((const int64_t[]){2, 3}),
                ((const double[]){0, 1, 2, 10, 11, 12}));
    CHECK_ARRAY("dstack 1-d", T(ga_dstack(2, pq)), GA_FLOAT32, 3, ((const int64_t[]){1, 3, 2}),
                ((const double[]){0, 10, 1, 11, 2, 12}));
    CHECK_ARRAY("column_stack 1-d", T(ga_column_stack(2, pq)), GA_FLOAT32, 2, ((const int64_t[]){3, 2}),
                ((const double[]){0, 10, 1, 11, 2, 12}));

    ga_array *P = seq(GA_SHAPE(2, 3), 0, GA_INT64), *Q = seq(GA_SHAPE(2, 3), 10, GA_INT64);
    const ga_array *PQ[2] = {P, Q};
    const double h2[12] = {0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15};
    CHECK_ARRAY("hstack 2-d", T(ga_hstack(2, PQ)), GA_INT64, 2, ((const int64_t[]){2, 6}), h2);
    CHECK_ARRAY("vstack 2-d", T(ga_vstack(2, PQ)), GA_INT64, 2, ((const int64_t[]){4, 3}),
                ((const double[]){0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}));
    CHECK_ARRAY("dstack 2-d", T(ga_dstack(2, PQ)), GA_INT64, 3, ((const int64_t[]){2, 3, 2}),
                ((const double[]){0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}));
    CHECK_ARRAY("column_stack 2-d", T(ga_column_stack(2, PQ)), GA_INT64, 2, ((const int64_t[]){2, 6}), h2);

    /* column_stack of a 1-d and a 2-d array; vstack of a 1-d row and a 2-d array */
    ga_array *c2 = seq(GA_SHAPE(2), 7, GA_INT64);
    const ga_array *mix[2] = {c2, P};
    CHECK_ARRAY("column_stack (2,) with (2,3)", T(ga_column_stack(2, mix)), GA_INT64, 2, ((const int64_t[]){2, 4}),
                ((const double[]){7, 0, 1, 2, 8, 3, 4, 5}));
    ga_array *r3 = seq(GA_SHAPE(3), 20, GA_INT64);
    const ga_array *rv[2] = {r3, P};
    CHECK_ARRAY("vstack (3,) with (2,3)", T(ga_vstack(2, rv)), GA_INT64, 2, ((const int64_t[]){3, 3}),
                ((const double[]){20, 21, 22, 0, 1, 2, 3, 4, 5}));
    ga_array *p4 = seq(GA_SHAPE(4), 0, GA_FLOAT32);
    const ga_array *bad[2] = {p, p4};
    CHECK_FAILS(ga_vstack(2, bad) == NULL, GA_ERROR_VALUE, GA_ERROR_SHAPE,
                "all the input array dimensions except for the concatenation axis must match exactly, but along "
                "dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4");
    CHECK_FAILS(ga_hstack(0, pq) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE, "need at least one array to concatenate");
    done();
}

/* ---- tile, repeat, roll, meshgrid ---------------------------------------------- */

/* numpy.tile of the C-ordered array src (ndim, shape) by reps (n). */
static int tile_ref(const double *src, int ndim, const int64_t *shape, int n, const int64_t *reps, int64_t *oshape,
                    double *out)
{
    int od = ndim > n ? ndim : n;
    int64_t sh[8], rp[8];
    for (int d = 0; d < od; d++) {
        int ds = d - (od - ndim), dr = d - (od - n);
        sh[d] = ds >= 0 ? shape[ds] : 1;
        rp[d] = dr >= 0 ? reps[dr] : 1;
        oshape[d] = sh[d] * rp[d];
    }
    int64_t total = count(od, oshape);
    for (int64_t k = 0; k < total; k++) {
        int64_t r = k, at = 0, mul = 1;
        for (int d = od - 1; d >= 0; d--) {
            int64_t i = r % oshape[d];
            r /= oshape[d];
            at += (i % sh[d]) * mul;
            mul *= sh[d];
        }
        out[k] = src[at];
    }
    return od;
}

DEVICE_TEST(tile_values)
{
    double base[6], want[64];
    iota(base, 6, 0);
    ga_array *a = seq(GA_SHAPE(2, 3), 0, GA_UINT8);
    ga_array *p = seq(GA_SHAPE(3), 0, GA_UINT8);
    static const int64_t reps_list[][3] = {{2, 0, 0}, {2, 1, 0}, {1, 2, 0}, {2, 1, 2}, {3, 0, 0}, {0, 2, 0}};
    static const int nreps[] = {1, 2, 2, 3, 1, 2};
    for (int r = 0; r < 6; r++) {
        int64_t oshape[8];
        char what[64];
        int od = tile_ref(base, 2, (const int64_t[]){2, 3}, nreps[r], reps_list[r], oshape, want);
        snprintf(what, sizeof what, "tile((2,3), reps #%d)", r);
        CHECK_ARRAY(what, T(ga_tile(a, nreps[r], reps_list[r])), GA_UINT8, od, oshape, want);
        od = tile_ref(base, 1, (const int64_t[]){3}, nreps[r], reps_list[r], oshape, want);
        snprintf(what, sizeof what, "tile((3,), reps #%d)", r);
        CHECK_ARRAY(what, T(ga_tile(p, nreps[r], reps_list[r])), GA_UINT8, od, oshape, want);
    }
    /* a transposed input */
    ga_array *t = T(ga_transpose(a, NULL));
    double tb[6];
    gather(base, 2, (const int64_t[]){3, 2}, (const int64_t[]){1, 3}, 0, tb);
    int64_t oshape[8];
    int od = tile_ref(tb, 2, (const int64_t[]){3, 2}, 2, (const int64_t[]){2, 2}, oshape, want);
    CHECK_ARRAY("tile(a.T, (2,2))", T(ga_tile(t, 2, (const int64_t[]){2, 2})), GA_UINT8, od, oshape, want);
    done();
}

DEVICE_TEST(repeat_values)
{
    double base[6];
    iota(base, 6, 1);
    ga_array *a = seq(GA_SHAPE(2, 3), 1, GA_FLOAT64);
    double want[36];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) want[i * 3 + j] = base[(i / 2) * 3 + j];
    CHECK_ARRAY("repeat(a, 2, axis=0)", T(ga_repeat(a, 2, 0)), GA_FLOAT64, 2, ((const int64_t[]){4, 3}), want);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 6; j++) want[i * 6 + j] = base[i * 3 + j / 2];
    CHECK_ARRAY("repeat(a, 2, axis=1)", T(ga_repeat(a, 2, 1)), GA_FLOAT64, 2, ((const int64_t[]){2, 6}), want);
    CHECK_ARRAY("repeat(a, 2, axis=-1)", T(ga_repeat(a, 2, -1)), GA_FLOAT64, 2, ((const int64_t[]){2, 6}), want);
    for (int k = 0; k < 18; k++) want[k] = base[k / 3];
    CHECK_ARRAY("repeat(a, 3, axis=None)", T(ga_repeat(a, 3, GA_AXIS_NONE)), GA_FLOAT64, 1, ((const int64_t[]){18}), want);
    CHECK_ARRAY("repeat(a, 1, axis=0)", T(ga_repeat(a, 1, 0)), GA_FLOAT64, 2, ((const int64_t[]){2, 3}), base);
    CHECK_ARRAY("repeat(a, 0, axis=0)", T(ga_repeat(a, 0, 0)), GA_FLOAT64, 2, ((const int64_t[]){0, 3}), NULL);
    /* a reversed view */
    ga_array *r = T(ga_index(a, "::-1"));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) want[i * 3 + j] = base[(1 - i / 2) * 3 + j];
    CHECK_ARRAY("repeat(a[::-1], 2, axis=0)", T(ga_repeat(r, 2, 0)), GA_FLOAT64, 2, ((const int64_t[]){4, 3}), want);
    CHECK_FAILS(ga_repeat(a, 2, 2) == NULL, GA_ERROR_AXIS, GA_ERROR_AXIS,
                "ga_repeat: axis 2 is out of bounds for array of dimension 2");
    CHECK_FAILS(ga_repeat(a, -1, 0) == NULL, GA_ERROR_VALUE, GA_ERROR_VALUE, "ga_repeat");
    done();
}

static int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

DEVICE_TEST(roll_values)
{
    double base[12], want[12];
    iota(base, 12, 0);
    ga_array *p = seq(GA_SHAPE(5), 0, GA_INT32);
    static const int64_t shifts[] = {0, 2, -1, 7, -12, 5};
    for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
        for (int i = 0; i < 5; i++) want[i] = base[mod(i - shifts[s], 5)];
        char what[64];
        snprintf(what, sizeof what, "roll((5,), %lld)", (long long)shifts[s]);
        CHECK_ARRAY(what, T(ga_roll(p, shifts[s], 0)), GA_INT32, 1, ((const int64_t[]){5}), want);
        CHECK_ARRAY(what, T(ga_roll(p, shifts[s], GA_AXIS_NONE)), GA_INT32, 1, ((const int64_t[]){5}), want);
    }
    ga_array *a = seq(GA_SHAPE(3, 4), 0, GA_INT32);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) want[i * 4 + j] = base[mod(i - 1, 3) * 4 + j];
    CHECK_ARRAY("roll(a, 1, axis=0)", T(ga_roll(a, 1, 0)), GA_INT32, 2, ((const int64_t[]){3, 4}), want);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) want[i * 4 + j] = base[i * 4 + mod(j + 5, 4)];
    CHECK_ARRAY("roll(a, -5, axis=1)", T(ga_roll(a, -5, 1)), GA_INT32, 2, ((const int64_t[]){3, 4}), want);
    CHECK_ARRAY("roll(a, -5, axis=-1)", T(ga_roll(a, -5, -1)), GA_INT32, 2, ((const int64_t[]){3, 4}), want);
    for (int k = 0; k < 12; k++) want[k] = base[mod(k - 5, 12)];
    CHECK_ARRAY("roll(a, 5, axis=None)", T(ga_roll(a, 5, GA_AXIS_NONE)), GA_INT32, 2, ((const int64_t[]){3, 4}), want);
    for (int k = 0; k < 12; k++) want[k] = base[mod(k + 25, 12)];
    CHECK_ARRAY("roll(a, -25, axis=None)", T(ga_roll(a, -25, GA_AXIS_NONE)), GA_INT32, 2, ((const int64_t[]){3, 4}), want);
    /* a transposed input: t[i][j] = 4j + i, (4,3) */
    ga_array *t = T(ga_transpose(a, NULL));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) want[i * 3 + j] = base[mod(j - 2, 3) * 4 + i];
    CHECK_ARRAY("roll(a.T, 2, axis=1)", T(ga_roll(t, 2, 1)), GA_INT32, 2, ((const int64_t[]){4, 3}), want);
    CHECK_FAILS(ga_roll(a, 1, 2) == NULL, GA_ERROR_AXIS, GA_ERROR_AXIS,
                "ga_roll: axis 2 is out of bounds for array of dimension 2");
    ga_array *e = seq(GA_SHAPE(0), 0, GA_INT32);
    CHECK_ARRAY("roll(empty, 3)", T(ga_roll(e, 3, 0)), GA_INT32, 1, ((const int64_t[]){0}), NULL);
    done();
}

DEVICE_TEST(meshgrid_xy_and_ij)
{
    ga_array *x = seq(GA_SHAPE(3), 0, GA_FLOAT32), *y = seq(GA_SHAPE(2), 10, GA_FLOAT32);
    ga_array *z = seq(GA_SHAPE(4), 20, GA_FLOAT32);
    const ga_array *xy[2] = {x, y}, *xyz[3] = {x, y, z};
    ga_array *out[3] = {NULL, NULL, NULL};
    double want[3][24];

    CHECK_OK(ga_meshgrid(2, xy, false, out)); /* (2,3): X[i][j] = x[j], Y[i][j] = y[i] */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            want[0][i * 3 + j] = j;
            want[1][i * 3 + j] = 10 + i;
        }
    CHECK_ARRAY("meshgrid xy X", T(out[0]), GA_FLOAT32, 2, ((const int64_t[]){2, 3}), want[0]);
    CHECK_ARRAY("meshgrid xy Y", T(out[1]), GA_FLOAT32, 2, ((const int64_t[]){2, 3}), want[1]);
    CHECK_STRIDES("meshgrid xy X", out[0], 2, ((const int64_t[]){12, 4}), GA_C_CONTIGUOUS | GA_WRITEABLE);

    CHECK_OK(ga_meshgrid(2, xy, true, out)); /* (3,2): X[i][j] = x[i], Y[i][j] = y[j] */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            want[0][i * 2 + j] = i;
            want[1][i * 2 + j] = 10 + j;
        }
    CHECK_ARRAY("meshgrid ij X", T(out[0]), GA_FLOAT32, 2, ((const int64_t[]){3, 2}), want[0]);
    CHECK_ARRAY("meshgrid ij Y", T(out[1]), GA_FLOAT32, 2, ((const int64_t[]){3, 2}), want[1]);

    CHECK_OK(ga_meshgrid(3, xyz, false, out)); /* (2,3,4): X = x[j], Y = y[i], Z = z[k] */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) {
                want[0][(i * 3 + j) * 4 + k] = j;
                want[1][(i * 3 + j) * 4 + k] = 10 + i;
                want[2][(i * 3 + j) * 4 + k] = 20 + k;
            }
    CHECK_ARRAY("meshgrid xy 3 X", T(out[0]), GA_FLOAT32, 3, ((const int64_t[]){2, 3, 4}), want[0]);
    CHECK_ARRAY("meshgrid xy 3 Y", T(out[1]), GA_FLOAT32, 3, ((const int64_t[]){2, 3, 4}), want[1]);
    CHECK_ARRAY("meshgrid xy 3 Z", T(out[2]), GA_FLOAT32, 3, ((const int64_t[]){2, 3, 4}), want[2]);

    CHECK_OK(ga_meshgrid(3, xyz, true, out)); /* (3,2,4): X = x[i], Y = y[j], Z = z[k] */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 4; k++) {
                want[0][(i * 2 + j) * 4 + k] = i;
                want[1][(i * 2 + j) * 4 + k] = 10 + j;
                want[2][(i * 2 + j) * 4 + k] = 20 + k;
            }
    CHECK_ARRAY("meshgrid ij 3 X", T(out[0]), GA_FLOAT32, 3, ((const int64_t[]){3, 2, 4}), want[0]);
    CHECK_ARRAY("meshgrid ij 3 Y", T(out[1]), GA_FLOAT32, 3, ((const int64_t[]){3, 2, 4}), want[1]);
    CHECK_ARRAY("meshgrid ij 3 Z", T(out[2]), GA_FLOAT32, 3, ((const int64_t[]){3, 2, 4}), want[2]);
    CHECK_STRIDES("meshgrid ij 3 Z", out[2], 3, ((const int64_t[]){32, 16, 4}), GA_C_CONTIGUOUS | GA_WRITEABLE);

    /* a reversed (non-contiguous) input */
    ga_array *xr = T(ga_index(x, "::-1"));
    const ga_array *rv[2] = {xr, y};
    CHECK_OK(ga_meshgrid(2, rv, false, out));
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) want[0][i * 3 + j] = 2 - j;
    CHECK_ARRAY("meshgrid of x[::-1]", T(out[0]), GA_FLOAT32, 2, ((const int64_t[]){2, 3}), want[0]);
    T(out[1]);
    done();
}

/* ---- setitem and writes through views ---------------------------------------------- */

DEVICE_TEST(setitem_values_and_casts)
{
    double ref[12];
    for (int k = 0; k < 12; k++) ref[k] = 0;
    ga_array *a = T(ga_zeros(GA_SHAPE(3, 4), GA_FLOAT64));
    CHECK_OK(ga_setitem_scalar(a, "1", ga_float(5)));
    for (int j = 0; j < 4; j++) ref[4 + j] = 5;
    CHECK_ARRAY("a[1] = 5", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);

    ga_array *row = seq(GA_SHAPE(4), 10, GA_FLOAT32); /* broadcast a row, float32 into float64 */
    CHECK_OK(ga_setitem(a, "::2", row));
    for (int j = 0; j < 4; j++) ref[j] = ref[8 + j] = 10 + j;
    CHECK_ARRAY("a[::2] = row", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);

    CHECK_OK(ga_setitem_scalar(a, "..., ::-2", ga_int(-1))); /* columns 3 and 1 */
    for (int i = 0; i < 3; i++) ref[i * 4 + 3] = ref[i * 4 + 1] = -1;
    CHECK_ARRAY("a[..., ::-2] = -1", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);

    ga_array *col = seq(GA_SHAPE(3, 1), 30, GA_INT64); /* broadcast a column, reversed rows */
    CHECK_OK(ga_setitem(a, "::-1, 2:", col));
    for (int i = 0; i < 3; i++) ref[i * 4 + 2] = ref[i * 4 + 3] = 30 + (2 - i);
    CHECK_ARRAY("a[::-1, 2:] = col", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);

    CHECK_OK(ga_setitem_scalar(a, "-1, -1", ga_float(0.25))); /* a single element */
    ref[11] = 0.25;
    CHECK_ARRAY("a[-1, -1] = 0.25", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);
    CHECK_OK(ga_setitem_scalar(a, "0:0", ga_float(7))); /* an empty selection: nothing */
    CHECK_ARRAY("a[0:0] = 7", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);

    /* float into int: truncation toward zero (unsafe casting) */
    ga_array *ai = T(ga_zeros(GA_SHAPE(2, 3), GA_INT32));
    CHECK_OK(ga_setitem_scalar(ai, "0", ga_float(2.7)));
    CHECK_OK(ga_setitem_scalar(ai, "1, 1:", ga_float(-3.9)));
    ga_array *vals = seq(GA_SHAPE(2), 1.5, GA_FLOAT64); /* 1.5, 2.5 */
    CHECK_OK(ga_setitem(ai, ":, 0", vals));
    CHECK_ARRAY("int32 from floats", ai, GA_INT32, 2, ((const int64_t[]){2, 3}), ((const double[]){1, 2, 2, 2, -3, -3}));
    ga_array *ab = T(ga_zeros(GA_SHAPE(3), GA_BOOL));
    CHECK_OK(ga_setitem_scalar(ab, "1:", ga_float(0.5)));
    CHECK_ARRAY("bool from a float", ab, GA_BOOL, 1, ((const int64_t[]){3}), ((const double[]){0, 1, 1}));

    /* errors */
    CHECK_FAILS(ga_setitem_scalar(a, "5", ga_int(1)) != GA_OK, GA_ERROR_INDEX, GA_ERROR_INDEX,
                "index 5 is out of bounds for axis 0 with size 3");
    ga_array *r3 = seq(GA_SHAPE(3), 0, GA_FLOAT64);
    CHECK_FAILS(ga_setitem(a, ":, :", r3) != GA_OK, GA_ERROR_SHAPE, GA_ERROR_VALUE, "ga_setitem");
    ga_array *b = T(ga_broadcast_to(row, GA_SHAPE(3, 4)));
    CHECK_FAILS(ga_setitem_scalar(b, "0", ga_int(1)) != GA_OK, GA_ERROR_VALUE, GA_ERROR_STATE,
                "assignment destination is read-only");
    CHECK_FAILS(ga_setitem_scalar(a, "1:2:3:4", ga_int(1)) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE, "ga_setitem_scalar");
    CHECK_FAILS(ga_setitem(a, "0", NULL) != GA_OK, GA_ERROR_NULL_INPUT, GA_ERROR_NULL_INPUT, "ga_setitem");
    CHECK_ARRAY("a unchanged by the failures", a, GA_FLOAT64, 2, ((const int64_t[]){3, 4}), ref);
    done();
}

DEVICE_TEST(setitem_every_dtype)
{
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        ga_dtype dt = (ga_dtype)t;
        char what[64];
        ga_array *z = T(ga_zeros(GA_SHAPE(2, 3), dt));
        CHECK_OK(ga_setitem_scalar(z, ":, ::2", ga_int(3)));
        double want[6] = {3, 0, 3, 3, 0, 3};
        for (int i = 0; i < 6; i++) want[i] = in_dtype(dt, want[i]);
        snprintf(what, sizeof what, "%s: z[:, ::2] = 3", ga_dtype_name(dt));
        CHECK_ARRAY(what, z, dt, 2, ((const int64_t[]){2, 3}), want);

        ga_array *v = seq(GA_SHAPE(3), 1, GA_INT8); /* another dtype, cast on the way */
        CHECK_OK(ga_setitem(z, "1", v));
        want[3] = in_dtype(dt, 1);
        want[4] = in_dtype(dt, 2);
        want[5] = in_dtype(dt, 3);
        snprintf(what, sizeof what, "%s: z[1] = int8 [1,2,3]", ga_dtype_name(dt));
        CHECK_ARRAY(what, z, dt, 2, ((const int64_t[]){2, 3}), want);

        ga_array *same = seq(GA_SHAPE(2), 5, dt); /* the same dtype, into a reversed column */
        CHECK_OK(ga_setitem(z, "::-1, 1", same));
        want[4] = in_dtype(dt, 5);
        want[1] = in_dtype(dt, 6);
        snprintf(what, sizeof what, "%s: z[::-1, 1] = [5, 6]", ga_dtype_name(dt));
        CHECK_ARRAY(what, z, dt, 2, ((const int64_t[]){2, 3}), want);
        done();
    }
}

DEVICE_TEST(writes_through_views_show_in_the_base)
{
    double ref[12];
    iota(ref, 12, 0);
    ga_array *a = seq(GA_SHAPE(3, 4), 0, GA_FLOAT32);
    ga_array *v = T(ga_index(a, "1:, ::-1")); /* (2,4): v[i][j] = a[1+i][3-j] */
    CHECK_OK(ga_setitem_scalar(v, "0, 0", ga_int(42)));
    ref[1 * 4 + 3] = 42;
    CHECK_ARRAY("a after v[0, 0] = 42", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), ref);
    ga_array *row = seq(GA_SHAPE(4), 100, GA_FLOAT32);
    CHECK_OK(ga_setitem(v, "1", row));
    for (int j = 0; j < 4; j++) ref[2 * 4 + (3 - j)] = 100 + j;
    CHECK_ARRAY("a after v[1] = row", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), ref);

    ga_array *t = T(ga_transpose(a, NULL)); /* t[i][j] = a[j][i] */
    CHECK_OK(ga_setitem_scalar(t, "0, 2", ga_int(77)));
    ref[2 * 4 + 0] = 77;
    CHECK_OK(ga_setitem_scalar(t, "-1", ga_int(-5))); /* a[:, 3] */
    for (int i = 0; i < 3; i++) ref[i * 4 + 3] = -5;
    CHECK_ARRAY("a after writes through a.T", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), ref);

    ga_array *d = T(ga_diagonal(a, 1, 0, 1)); /* read-only, as NumPy */
    CHECK_FAILS(ga_setitem_scalar(d, "0", ga_int(1)) != GA_OK, GA_ERROR_VALUE, GA_ERROR_STATE,
                "assignment destination is read-only");
    ga_array *f = T(ga_flip(a, 0, NULL));
    CHECK_OK(ga_setitem_scalar(f, "0, 0", ga_int(9))); /* a[2][3] */
    ref[11] = 9;
    ga_array *s = T(ga_reshape(a, GA_SHAPE(4, 3))); /* a view */
    CHECK_OK(ga_setitem_scalar(s, "1, 1", ga_int(8))); /* flat 4 */
    ref[4] = 8;
    ga_array *pieces[2] = {NULL, NULL};
    CHECK_OK(ga_split(a, 2, 1, pieces));
    T(pieces[0]);
    T(pieces[1]);
    CHECK_OK(ga_setitem_scalar(pieces[1], "0", ga_int(-2))); /* a[0, 2:] */
    ref[2] = ref[3] = -2;
    CHECK_ARRAY("a after writes through flip, reshape and split views", a, GA_FLOAT32, 2, ((const int64_t[]){3, 4}), ref);

    /* and the other way: a write to the base shows in a view */
    CHECK_OK(ga_setitem_scalar(a, "0, 1", ga_int(11)));
    ga_array *tt = T(ga_index(t, "1"));  /* a[:, 1] */
    CHECK_ARRAY("a.T[1] sees the write", tt, GA_FLOAT32, 1, ((const int64_t[]){3}),
                ((const double[]){11, ref[5], ref[9]}));
    done();
}

/* tril / triu / tri against loops, over dtypes, k, a strided input and a
   batch; diag, diagflat, fill_diagonal and indices. */
DEVICE_TEST(triangles_diagonals_and_indices)
{
    static const ga_dtype types[] = {GA_BOOL, GA_INT8, GA_FLOAT16, GA_INT32, GA_FLOAT64, GA_COMPLEX128};
    for (int t = 0; t < 6; t++)
        for (int64_t k = -3; k <= 3; k++) {
            int64_t shape[3] = {2, 5, 7};
            ga_array *base = seq(3, shape, 1, types[t]);
            ga_array *a = T(ga_swapaxes(base, 0, 2)); /* (7, 5, 2): strided, its batch axis collapses */
            ga_array *lo = T(ga_tril(a, k)), *up = T(ga_triu(a, k));
            double *src = values(a), want_lo[70], want_up[70];
            for (int b = 0; b < 7; b++)
                for (int r = 0; r < 5; r++)
                    for (int c = 0; c < 2; c++) {
                        int i = (b * 5 + r) * 2 + c;
                        want_lo[i] = c - r <= k ? src[i] : 0;
                        want_up[i] = c - r >= k ? src[i] : 0;
                    }
            int64_t oshape[3] = {7, 5, 2};
            CHECK_ARRAY("tril", lo, types[t], 3, oshape, want_lo);
            CHECK_ARRAY("triu", up, types[t], 3, oshape, want_up);
            free(src);
            done();
        }
    /* a batch that does not collapse: a (3, 4, 5, 6) array's axes 0 and 1 swapped */
    int64_t s4[4] = {3, 4, 5, 6};
    ga_array *b4 = T(ga_swapaxes(seq(4, s4, 0, GA_FLOAT32), 0, 1));
    ga_array *l4 = T(ga_tril(b4, 1));
    double *src = values(b4), want[360];
    for (int i = 0; i < 360; i++) {
        int c = i % 6, r = i / 6 % 5;
        want[i] = c - r <= 1 ? src[i] : 0;
    }
    CHECK_ARRAY("tril of a non-collapsing batch", l4, GA_FLOAT32, 4, ((int64_t[]){4, 3, 5, 6}), want);
    free(src);
    /* 1-d input: broadcast to a square */
    ga_array *v = seq(1, (int64_t[]){3}, 1, GA_INT64);
    double want_sq[9] = {1, 0, 0, 1, 2, 0, 1, 2, 3};
    CHECK_ARRAY("tril of 1-d", T(ga_tril(v, 0)), GA_INT64, 2, ((int64_t[]){3, 3}), want_sq);
    double want_tri[12] = {1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1};
    CHECK_ARRAY("tri(3, 4, 1)", T(ga_tri(3, 4, 1, GA_INT32)), GA_INT32, 2, ((int64_t[]){3, 4}), want_tri);
    /* diag of 1-d: a new matrix; of 2-d: a read-only view */
    double want_d[16] = {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0};
    CHECK_ARRAY("diag(v, 1)", T(ga_diag(v, 1)), GA_INT64, 2, ((int64_t[]){4, 4}), want_d);
    ga_array *m = seq(2, (int64_t[]){3, 4}, 0, GA_FLOAT64);
    ga_array *dm = T(ga_diag(m, -1));
    double want_dm[2] = {4, 9};
    CHECK_ARRAY("diag(m, -1)", dm, GA_FLOAT64, 1, ((int64_t[]){2}), want_dm);
    CHECK(dm && !(ga_flags(dm) & GA_WRITEABLE), "the diagonal of a matrix is a read-only view");
    double want_df[9] = {0, 0, 0, 1, 0, 0, 0, 2, 0};
    CHECK_ARRAY("diagflat", T(ga_diagflat(T(ga_index(m, ":1, 1:3")), -1)), GA_FLOAT64, 2, ((int64_t[]){3, 3}), want_df);
    CHECK_ERROR(ga_diag(T(ga_zeros(3, (int64_t[]){2, 2, 2}, GA_FLOAT32)), 0) == NULL, GA_ERROR_VALUE,
                "ga_diag: Input must be 1- or 2-d.");
    /* fill_diagonal, with and without wrap, on a tall matrix */
    ga_array *tall = T(ga_zeros(2, (int64_t[]){7, 3}, GA_FLOAT32));
    CHECK_OK(ga_fill_diagonal(tall, ga_float(5), true));
    double want_w[21] = {5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5};
    CHECK_ARRAY("fill_diagonal wrap", tall, GA_FLOAT32, 2, ((int64_t[]){7, 3}), want_w);
    ga_array *tall2 = T(ga_zeros(2, (int64_t[]){7, 3}, GA_FLOAT32));
    CHECK_OK(ga_fill_diagonal(tall2, ga_float(5), false));
    double want_nw[21] = {5, 0, 0, 0, 5, 0, 0, 0, 5, 0};
    CHECK_ARRAY("fill_diagonal", tall2, GA_FLOAT32, 2, ((int64_t[]){7, 3}), want_nw);
    ga_array *cube = T(ga_zeros(3, (int64_t[]){3, 3, 3}, GA_INT16));
    CHECK_OK(ga_fill_diagonal(cube, ga_int(2), false));
    double want_c[27] = {0};
    want_c[0] = want_c[13] = want_c[26] = 2;
    CHECK_ARRAY("fill_diagonal of a cube", cube, GA_INT16, 3, ((int64_t[]){3, 3, 3}), want_c);
    CHECK_ERROR(ga_fill_diagonal(T(ga_zeros(3, (int64_t[]){2, 3, 3}, GA_INT16)), ga_int(1), false) != GA_OK,
                GA_ERROR_VALUE, "All dimensions of input must be of equal length");
    /* indices */
    double want_i[12] = {0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2};
    CHECK_ARRAY("indices((2, 3))", T(ga_indices(2, (int64_t[]){2, 3}, GA_INT64)), GA_INT64, 3,
                ((int64_t[]){2, 2, 3}), want_i);
    done();
}

/* take in its three modes, along axes of strided inputs, and
   take_along_axis with broadcasting, against loops; their errors. */
DEVICE_TEST(take_and_take_along_axis)
{
    static const ga_dtype types[] = {GA_UINT8, GA_FLOAT16, GA_FLOAT32, GA_INT64, GA_COMPLEX128};
    int64_t shape[3] = {4, 5, 6};
    int64_t idx_host[7] = {0, -1, 3, 2, -5, 4, 1};
    ga_array *idx = T(ga_from_host(idx_host, 1, (int64_t[]){7}, GA_INT64));
    ga_array *idx32 = T(ga_astype(idx, GA_INT32));
    for (int t = 0; t < 5; t++)
        for (int axis = 0; axis < 3; axis++) {
            ga_array *base = seq(3, shape, 0, types[t]);
            ga_array *a = T(ga_transpose(base, (int[]){1, 2, 0})); /* (5, 6, 4), strided */
            const int64_t *as = ga_shape(a);
            double *src = values(a);
            for (int mode = 0; mode < 3; mode++) {
                /* raise: indices valid for every axis here (|i| <= 4 < 4 fails for axis 2: use wrap there) */
                ga_index_mode m = (ga_index_mode)mode;
                if (m == GA_INDEX_RAISE && as[axis] < 5) continue;
                ga_array *r = T(ga_take(a, mode == 1 ? idx32 : idx, axis, m));
                int64_t oshape[3];
                memcpy(oshape, as, sizeof oshape);
                oshape[axis] = 7;
                double want[5 * 6 * 7];
                int64_t n = oshape[0] * oshape[1] * oshape[2];
                for (int64_t e = 0; e < n; e++) {
                    int64_t c[3] = {e / (oshape[1] * oshape[2]), e / oshape[2] % oshape[1], e % oshape[2]};
                    int64_t k = idx_host[c[axis]], len = as[axis];
                    if (m == GA_INDEX_WRAP) k = ((k % len) + len) % len;
                    else if (m == GA_INDEX_CLIP) k = k < 0 ? 0 : k >= len ? len - 1 : k;
                    else if (k < 0) k += len;
                    c[axis] = k;
                    want[e] = src[(c[0] * as[1] + c[1]) * as[2] + c[2]];
                }
                CHECK_ARRAY("take", r, types[t], 3, oshape, want);
            }
            free(src);
            done();
            idx = T(ga_from_host(idx_host, 1, (int64_t[]){7}, GA_INT64));
            idx32 = T(ga_astype(idx, GA_INT32));
        }
    /* flattened, with 2-d indices; a 0-d index removes the axis */
    ga_array *m = seq(2, (int64_t[]){3, 4}, 0, GA_FLOAT32);
    int64_t fi[4] = {11, 0, 5, -1};
    ga_array *f2 = T(ga_from_host(fi, 2, (int64_t[]){2, 2}, GA_INT64));
    double want_f[4] = {11, 0, 5, 11};
    CHECK_ARRAY("take flattened", T(ga_take(m, f2, GA_AXIS_NONE, GA_INDEX_RAISE)), GA_FLOAT32, 2, ((int64_t[]){2, 2}), want_f);
    ga_array *one = T(ga_full(0, NULL, ga_int(2), GA_INT16));
    double want_row[3] = {2, 6, 10};
    CHECK_ARRAY("take with a 0-d index", T(ga_take(m, one, 1, GA_INDEX_RAISE)), GA_FLOAT32, 1, ((int64_t[]){3}), want_row);
    /* errors */
    int64_t bad[3] = {0, 7, 9};
    ga_array *b = T(ga_from_host(bad, 1, (int64_t[]){3}, GA_INT64));
    CHECK_ERROR(ga_take(m, b, 0, GA_INDEX_RAISE) == NULL, GA_ERROR_INDEX, "ga_take: index 7 is out of bounds for axis 0 with size 3");
    ga_array *fl = T(ga_full(1, (int64_t[]){2}, ga_float(1), GA_FLOAT64));
    CHECK_ERROR(ga_take(m, fl, 0, GA_INDEX_WRAP) == NULL, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'");
    CHECK_ERROR(ga_take(m, b, 2, GA_INDEX_CLIP) == NULL, GA_ERROR_AXIS, "axis 2 is out of bounds for array of dimension 2");
    /* take_along_axis: argsort-style indices, broadcast along the other axis */
    int64_t ti[6] = {3, 0, 1, 2, 2, 1};
    ga_array *t2 = T(ga_from_host(ti, 2, (int64_t[]){3, 2}, GA_INT64));
    double want_t[6] = {3, 0, 5, 6, 10, 9};
    CHECK_ARRAY("take_along_axis", T(ga_take_along_axis(m, t2, 1)), GA_FLOAT32, 2, ((int64_t[]){3, 2}), want_t);
    int64_t ci[4] = {2, 0, 1, 2};
    ga_array *col = T(ga_from_host(ci, 2, (int64_t[]){1, 4}, GA_INT64));
    double want_c[4] = {8, 1, 6, 11};
    CHECK_ARRAY("take_along_axis axis 0", T(ga_take_along_axis(m, col, 0)), GA_FLOAT32, 2, ((int64_t[]){1, 4}), want_c);
    ga_array *tcol = T(ga_from_host(ci, 2, (int64_t[]){4, 1}, GA_INT64));
    double want_tc[4] = {8, 1, 6, 11};
    CHECK_ARRAY("take_along_axis of a transposed array", T(ga_take_along_axis(T(ga_transpose(m, NULL)), tcol, 1)),
                GA_FLOAT32, 2, ((int64_t[]){4, 1}), want_tc);
    int64_t ri[2] = {3, 0};
    ga_array *row = T(ga_from_host(ri, 2, (int64_t[]){1, 2}, GA_INT64));
    double want_b[6] = {3, 0, 7, 4, 11, 8};
    CHECK_ARRAY("take_along_axis broadcast", T(ga_take_along_axis(m, row, 1)), GA_FLOAT32, 2, ((int64_t[]){3, 2}),
                want_b);
    int64_t oob[1] = {5};
    ga_array *o = T(ga_from_host(oob, 2, (int64_t[]){1, 1}, GA_INT64));
    CHECK_ERROR(ga_take_along_axis(m, o, 1) == NULL, GA_ERROR_INDEX, "index 5 is out of bounds for axis 1 with size 4");
    CHECK_ERROR(ga_take_along_axis(m, idx, 1) == NULL, GA_ERROR_VALUE, "`indices` and `arr` must have the same number of dimensions");
    ga_array *mis = T(ga_zeros(2, (int64_t[]){2, 1}, GA_INT64));
    CHECK_ERROR(ga_take_along_axis(m, mis, 1) == NULL, GA_ERROR_INDEX,
                "shape mismatch: indexing arrays could not be broadcast together with shapes (3,1) (2,1) ");
    done();
}

/* pad in every mode, widths wider than the axes (NumPy's results). */
DEVICE_TEST(pad_modes)
{
    ga_array *a = seq(2, (int64_t[]){2, 3}, 0, GA_INT32);
    const int64_t w[4] = {3, 2, 4, 5}, oshape[2] = {7, 12};
    static const double edge[84] = {0,0,0,0,0,1,2,2,2,2,2,2,0,0,0,0,0,1,2,2,2,2,2,2,0,0,0,0,0,1,2,2,2,2,2,2,0,0,0,0,0,1,2,2,2,2,2,2,3,3,3,3,3,4,5,5,5,5,5,5,3,3,3,3,3,4,5,5,5,5,5,5,3,3,3,3,3,4,5,5,5,5,5,5};
    static const double reflect[84] = {3,4,5,4,3,4,5,4,3,4,5,4,0,1,2,1,0,1,2,1,0,1,2,1,3,4,5,4,3,4,5,4,3,4,5,4,0,1,2,1,0,1,2,1,0,1,2,1,3,4,5,4,3,4,5,4,3,4,5,4,0,1,2,1,0,1,2,1,0,1,2,1,3,4,5,4,3,4,5,4,3,4,5,4};
    static const double wrap[84] = {5,3,4,5,3,4,5,3,4,5,3,4,2,0,1,2,0,1,2,0,1,2,0,1,5,3,4,5,3,4,5,3,4,5,3,4,2,0,1,2,0,1,2,0,1,2,0,1,5,3,4,5,3,4,5,3,4,5,3,4,2,0,1,2,0,1,2,0,1,2,0,1,5,3,4,5,3,4,5,3,4,5,3,4};
    CHECK_ARRAY("pad edge", T(ga_pad(a, w, GA_PAD_EDGE, ga_int(0))), GA_INT32, 2, oshape, edge);
    CHECK_ARRAY("pad reflect", T(ga_pad(a, w, GA_PAD_REFLECT, ga_int(0))), GA_INT32, 2, oshape, reflect);
    CHECK_ARRAY("pad wrap", T(ga_pad(a, w, GA_PAD_WRAP, ga_int(0))), GA_INT32, 2, oshape, wrap);
    static const double constant[15] = {9, 9, 9, 9, 9, 0, 1, 2, 9, 9, 3, 4, 5, 9, 9};
    CHECK_ARRAY("pad constant", T(ga_pad(a, (int64_t[]){1, 0, 0, 2}, GA_PAD_CONSTANT, ga_int(9))), GA_INT32, 2,
                ((int64_t[]){3, 5}), constant);
    ga_array *v = seq(1, (int64_t[]){3}, 0, GA_FLOAT64);
    static const double r1[13] = {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1};
    CHECK_ARRAY("pad reflect 1-d", T(ga_pad(v, (int64_t[]){5, 5}, GA_PAD_REFLECT, ga_int(0))), GA_FLOAT64, 1,
                ((int64_t[]){13}), r1);
    ga_array *t = T(ga_transpose(a, NULL)); /* a strided input */
    static const double tw[15] = {3, 0, 3, 0, 3, 4, 1, 4, 1, 4, 5, 2, 5, 2, 5};
    CHECK_ARRAY("pad wrap of a transposed array", T(ga_pad(t, (int64_t[]){0, 0, 1, 2}, GA_PAD_WRAP, ga_int(0))),
                GA_INT32, 2, ((int64_t[]){3, 5}), tw);
    CHECK_ERROR(ga_pad(a, (int64_t[]){-1, 0, 0, 0}, GA_PAD_EDGE, ga_int(0)) == NULL, GA_ERROR_VALUE,
                "index can't contain negative values");
    ga_array *e = T(ga_zeros(1, (int64_t[]){0}, GA_FLOAT32));
    CHECK_ERROR(ga_pad(e, (int64_t[]){2, 2}, GA_PAD_EDGE, ga_int(0)) == NULL, GA_ERROR_VALUE,
                "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
    done();
}

/* put (cyclic values, modes, a non-contiguous target) and put_along_axis. */
DEVICE_TEST(put_and_put_along_axis)
{
    ga_array *a = T(ga_zeros(1, (int64_t[]){5}, GA_FLOAT64));
    int64_t i4[4] = {0, 1, 2, 3};
    double v2[2] = {7, 8};
    ga_array *idx = T(ga_from_host(i4, 1, (int64_t[]){4}, GA_INT64));
    ga_array *vals = T(ga_from_host(v2, 1, (int64_t[]){2}, GA_FLOAT64));
    CHECK_OK(ga_put(a, idx, vals, GA_INDEX_RAISE));
    double want1[5] = {7, 8, 7, 8, 0};
    CHECK_ARRAY("put repeats the values", a, GA_FLOAT64, 1, ((int64_t[]){5}), want1);
    /* into a transposed view: a.flat order, written through */
    ga_array *base = T(ga_zeros(2, (int64_t[]){2, 3}, GA_INT32));
    ga_array *t = T(ga_transpose(base, NULL)); /* (3, 2) */
    int64_t i2[2] = {0, 5};
    ga_array *idx2 = T(ga_from_host(i2, 1, (int64_t[]){2}, GA_INT64));
    double v12[2] = {1, 2};
    CHECK_OK(ga_put(t, idx2, T(ga_from_host(v12, 1, (int64_t[]){2}, GA_FLOAT64)), GA_INDEX_RAISE));
    double want2[6] = {1, 0, 0, 0, 0, 2};
    CHECK_ARRAY("put into a transposed view", t, GA_INT32, 2, ((int64_t[]){3, 2}), want2);
    /* modes */
    int64_t far[2] = {-7, 12};
    ga_array *idx3 = T(ga_from_host(far, 1, (int64_t[]){2}, GA_INT64));
    ga_array *c = T(ga_zeros(1, (int64_t[]){5}, GA_INT16));
    CHECK_OK(ga_put(c, idx3, vals, GA_INDEX_CLIP));
    double want3[5] = {7, 0, 0, 0, 8};
    CHECK_ARRAY("put clip", c, GA_INT16, 1, ((int64_t[]){5}), want3);
    ga_array *w = T(ga_zeros(1, (int64_t[]){5}, GA_INT16));
    CHECK_OK(ga_put(w, idx3, vals, GA_INDEX_WRAP));
    double want4[5] = {0, 0, 8, 7, 0};
    CHECK_ARRAY("put wrap", w, GA_INT16, 1, ((int64_t[]){5}), want4);
    ga_array *ro = T(ga_broadcast_to(w, 2, (int64_t[]){2, 5})); /* a read-only view */
    CHECK_ERROR(ga_put(ro, idx3, vals, GA_INDEX_WRAP) != GA_OK, GA_ERROR_VALUE, "ga_put: assignment destination is read-only");
    CHECK_ERROR(ga_put(w, NULL, vals, GA_INDEX_WRAP) != GA_OK, GA_ERROR_NULL_INPUT, "ga_put: indices or values is NULL");
    CHECK_ERROR(ga_put(w, idx3, vals, GA_INDEX_RAISE) != GA_OK, GA_ERROR_INDEX,
                "ga_put: index -7 is out of bounds for axis 0 with size 5");
    CHECK_ARRAY("nothing written on error", w, GA_INT16, 1, ((int64_t[]){5}), want4);
    /* put_along_axis with a scalar value */
    ga_array *m = T(ga_zeros(2, (int64_t[]){2, 3}, GA_FLOAT32));
    int64_t pi[2] = {1, 2};
    ga_array *pidx = T(ga_from_host(pi, 2, (int64_t[]){2, 1}, GA_INT64));
    CHECK_OK(ga_put_along_axis(m, pidx, T(ga_full(0, NULL, ga_int(5), GA_INT64)), 1));
    double want5[6] = {0, 5, 0, 0, 0, 5};
    CHECK_ARRAY("put_along_axis", m, GA_FLOAT32, 2, ((int64_t[]){2, 3}), want5);
    /* argsort-style round trip: put_along_axis undoes take_along_axis of a permutation */
    ga_array *src = seq(2, (int64_t[]){3, 4}, 10, GA_FLOAT64);
    int64_t perm[12] = {3, 1, 0, 2, 0, 1, 2, 3, 2, 3, 1, 0};
    ga_array *pr = T(ga_from_host(perm, 2, (int64_t[]){3, 4}, GA_INT64));
    ga_array *taken = T(ga_take_along_axis(src, pr, 1));
    ga_array *back = T(ga_zeros(2, (int64_t[]){3, 4}, GA_FLOAT64));
    CHECK_OK(ga_put_along_axis(back, pr, taken, 1));
    double *want6 = values(src);
    CHECK_ARRAY("put_along_axis inverts take_along_axis", back, GA_FLOAT64, 2, ((int64_t[]){3, 4}), want6);
    free(want6);
    done();
}

/* NumPy's index conversions: take (and the along-axis forms) under
   same_kind, so uint64 indices are taken; put under safe, so they are
   refused, before the empty-target and nothing-to-put checks. A value with
   leading unit dims beyond a's is put_along_axis's too (NumPy's assignment
   drops them). */
DEVICE_TEST(take_put_index_dtypes)
{
    ga_array *m = seq(2, (int64_t[]){3, 4}, 0, GA_FLOAT32);
    uint64_t ui[3] = {2, 0, 1};
    ga_array *u = T(ga_from_host(ui, 1, (int64_t[]){3}, GA_UINT64));
    CHECK_ARRAY("take with uint64 indices", T(ga_take(m, u, 0, GA_INDEX_RAISE)), GA_FLOAT32, 2, ((int64_t[]){3, 4}),
                ((const double[]){8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7}));
    uint64_t ui2[3] = {3, 0, 2};
    ga_array *u2 = T(ga_from_host(ui2, 2, (int64_t[]){3, 1}, GA_UINT64));
    CHECK_ARRAY("take_along_axis with uint64 indices", T(ga_take_along_axis(m, u2, 1)), GA_FLOAT32, 2,
                ((int64_t[]){3, 1}), ((const double[]){3, 4, 10}));
    ga_array *a = T(ga_zeros(1, (int64_t[]){5}, GA_FLOAT64));
    ga_array *none = T(ga_zeros(1, (int64_t[]){0}, GA_FLOAT64));
    CHECK_ERROR(ga_put(a, u, none, GA_INDEX_RAISE) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
    ga_array *i = T(ga_zeros(1, (int64_t[]){2}, GA_INT16));
    CHECK_ERROR(ga_put(none, i, none, GA_INDEX_CLIP) != GA_OK, GA_ERROR_INDEX, "cannot replace elements of an empty array");
    CHECK_OK(ga_put(a, i, none, GA_INDEX_RAISE)); /* nothing to put */
    ga_array *t = T(ga_zeros(2, (int64_t[]){2, 3}, GA_FLOAT32));
    int64_t pi[2] = {2, 0};
    ga_array *pidx = T(ga_from_host(pi, 2, (int64_t[]){2, 1}, GA_INT64));
    ga_array *v = seq(4, (int64_t[]){1, 1, 2, 1}, 5, GA_FLOAT64);
    CHECK_OK(ga_put_along_axis(t, pidx, v, 1));
    CHECK_ARRAY("put_along_axis drops the value's leading unit dims", t, GA_FLOAT32, 2, ((int64_t[]){2, 3}),
                ((const double[]){0, 0, 5, 6, 0, 0}));
    done();
}

/* A Python scalar assigned as NumPy assigns one: truth into bool (an int
   beyond int64 too), a float into integers as int() (NaN, infinities and
   values beyond int64 refused), a complex into a real dtype refused; the
   mask and items forms alike; nothing written on error. */
DEVICE_TEST(setitem_scalar_conversions)
{
    ga_array *b = T(ga_zeros(1, (int64_t[]){3}, GA_BOOL));
    CHECK_OK(ga_setitem_scalar(b, "1:", ga_uint(UINT64_C(1) << 63)));
    CHECK_ARRAY("bool from 2**63", b, GA_BOOL, 1, ((int64_t[]){3}), ((const double[]){0, 1, 1}));
    CHECK_OK(ga_setitem_scalar(b, "1", ga_float(0.0)));
    CHECK_OK(ga_setitem_scalar(b, "0", ga_complex(NAN, 0)));
    CHECK_ARRAY("bool from 0.0 and nan", b, GA_BOOL, 1, ((int64_t[]){3}), ((const double[]){1, 0, 1}));
    ga_array *i8 = T(ga_zeros(1, (int64_t[]){3}, GA_INT8));
    CHECK_OK(ga_setitem_scalar(i8, "0", ga_float(-2.9)));
    CHECK_FAILS(ga_setitem_scalar(i8, "1", ga_float(NAN)) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "cannot convert float NaN to integer");
    CHECK_FAILS(ga_setitem_scalar(i8, "1", ga_float(-INFINITY)) != GA_OK, GA_ERROR_OVERFLOW, GA_ERROR_OVERFLOW,
                "cannot convert float infinity to integer");
    CHECK_FAILS(ga_setitem_scalar(i8, "1", ga_float(1e19)) != GA_OK, GA_ERROR_OVERFLOW, GA_ERROR_OVERFLOW,
                "Python int too large to convert to C long");
    CHECK_FAILS(ga_setitem_scalar(i8, "1", ga_float(300.5)) != GA_OK, GA_ERROR_OVERFLOW, GA_ERROR_OVERFLOW,
                "Python integer 300 out of bounds for int8");
    CHECK_FAILS(ga_setitem_scalar(i8, "1", ga_complex(1, 0)) != GA_OK, GA_ERROR_TYPE, GA_ERROR_TYPE,
                "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
    CHECK_ARRAY("int8: -2.9 is -2, nothing else written", i8, GA_INT8, 1, ((int64_t[]){3}), ((const double[]){-2, 0, 0}));
    ga_array *u64 = T(ga_zeros(1, (int64_t[]){2}, GA_UINT64));
    CHECK_OK(ga_setitem_scalar(u64, "0", ga_float(1e19)));
    CHECK_FAILS(ga_setitem_scalar(u64, "1", ga_float(-2.5)) != GA_OK, GA_ERROR_OVERFLOW, GA_ERROR_OVERFLOW,
                "Python integer -2 out of bounds for uint64");
    CHECK_ARRAY("uint64 from 1e19", u64, GA_UINT64, 1, ((int64_t[]){2}), ((const double[]){1e19, 0}));
    ga_array *f = T(ga_zeros(1, (int64_t[]){2}, GA_FLOAT32));
    ga_array *mask = T(ga_ones(1, (int64_t[]){2}, GA_BOOL));
    CHECK_FAILS(ga_setitem_mask_scalar(f, mask, ga_complex(0, 1)) != GA_OK, GA_ERROR_TYPE, GA_ERROR_TYPE,
                "float() argument must be a string or a real number, not 'complex'");
    ga_index_item at0 = ga_at(0);
    CHECK_FAILS(ga_setitem_items_scalar(i8, 1, &at0, ga_float(NAN)) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "cannot convert float NaN to integer");
    CHECK_OK(ga_setitem_mask_scalar(f, mask, ga_float(1e39))); /* into a float: inf, no error */
    CHECK_ARRAY("float32 from 1e39", f, GA_FLOAT32, 1, ((int64_t[]){2}), ((const double[]){INFINITY, INFINITY}));
    /* one element takes a 0-d value only (NumPy 2); a view any that broadcasts */
    ga_array *e = T(ga_zeros(1, (int64_t[]){3}, GA_FLOAT64));
    ga_array *one = T(ga_ones(1, (int64_t[]){1}, GA_FLOAT64));
    CHECK_FAILS(ga_setitem(e, "1", one) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE, "setting an array element with a sequence.");
    ga_index_item at1 = ga_at(1);
    CHECK_FAILS(ga_setitem_items(e, 1, &at1, one) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE,
                "setting an array element with a sequence.");
    CHECK_OK(ga_setitem(e, "1:2", one));
    CHECK_OK(ga_setitem(e, "-1", T(ga_full(0, NULL, ga_float(4), GA_FLOAT64))));
    CHECK_ARRAY("e[1:2] = [1], e[-1] = 4", e, GA_FLOAT64, 1, ((int64_t[]){3}), ((const double[]){0, 1, 4}));
    ga_array *z0 = T(ga_zeros(0, (int64_t[]){1}, GA_FLOAT64));
    CHECK_FAILS(ga_setitem(z0, "", one) != GA_OK, GA_ERROR_VALUE, GA_ERROR_VALUE, "setting an array element with a sequence.");
    CHECK_OK(ga_setitem(z0, "...", one));
    CHECK_ARRAY("0-d z[...] = [1]", z0, GA_FLOAT64, 0, ((int64_t[]){1}), ((const double[]){1}));
    done();
}

DEVICE_TEST(put_along_axis_value_shape_error)
{
    ga_array *m = T(ga_zeros(2, (int64_t[]){2, 3}, GA_FLOAT32));
    ga_array *idx = T(ga_zeros(2, (int64_t[]){2, 1}, GA_INT64));
    ga_array *v = T(ga_zeros(1, (int64_t[]){3}, GA_FLOAT32));
    CHECK_ERROR(ga_put_along_axis(m, idx, v, 1) != GA_OK, GA_ERROR_SHAPE,
                "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (2,1)");
    done();
}
