/* Tests of the arrays over several devices (gpuarr.h, >>darray): the shard
   lengths (numpy.array_split's) and the argument checks that need no GPU
   (host tests); on the GPU, against references computed on the host from
   the same random data: from a host buffer, from arrays and from one array
   (every split axis, negative ones too, odd lengths, fewer elements than
   shards), back to the host and gathered, every ufunc form (darrays split
   alike and re-sharded, weak scalars, replicated arrays that vary along
   the split axis or broadcast, darrays that broadcast along the split
   axis, out=, several inputs and outputs), the reductions over every
   combination of axes with keepdims, every statistic over the split axis
   (mean, var, std, ptp, argmin, argmax, their nan forms; NaN data, ddof)
   against long-double host references, where= in every form, dtype= and
   out= (on another device, into a darray), a variance far from zero,
   re-sharding
   round trips, matmul by a replicated matrix, the errors (in NumPy's words
   where NumPy has them), scopes, leaks and the caller's current device.
   The device lists put several shards on one device (one GPU runs every
   path) and, where there are two GPUs, spread them over both. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"

#include <math.h>

/* ---- host tests ---------------------------------------------------------------- */

TEST(shard_sizes_as_array_split)
{
    const int64_t lengths[] = {0, 1, 2, 5, 7, 12, 100, 1001};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (int n = 1; n <= 9; n++) {
            int64_t sizes[9] = {0}, total = 0;
            CHECK_OK(ga_darray_shard_sizes(lengths[l], n, sizes));
            /* numpy.array_split: extras pieces of each + 1, then each */
            const int64_t each = lengths[l] / n, extras = lengths[l] % n;
            for (int i = 0; i < n; i++) {
                CHECK(sizes[i] == (i < extras ? each + 1 : each), "length %lld in %d: piece %d is %lld",
                      (long long)lengths[l], n, i, (long long)sizes[i]);
                total += sizes[i];
            }
            CHECK(total == lengths[l], "length %lld in %d pieces adds up to %lld", (long long)lengths[l], n,
                  (long long)total);
        }
    int64_t sizes[2] = {0};
    CHECK_ERROR(ga_darray_shard_sizes(5, 0, sizes) != GA_OK, GA_ERROR_VALUE, "number sections must be larger than 0.");
    CHECK_ERROR(ga_darray_shard_sizes(-1, 2, sizes) != GA_OK, GA_ERROR_VALUE, "must not be negative");
    CHECK_ERROR(ga_darray_shard_sizes(5, 2, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "sizes is NULL");
}

TEST(arguments_refused_before_the_device)
{
    const float data[6] = {0};
    const int devs[2] = {0, 0};
    const int64_t shape[2] = {2, 3}, bad_shape[2] = {2, -3};
    CHECK_ERROR(!ga_darray_from_host(NULL, 2, shape, GA_FLOAT32, 0, 2, devs), GA_ERROR_NULL_INPUT, "data is NULL");
    CHECK_ERROR(!ga_darray_from_host(data, 2, shape, (ga_dtype)99, 0, 2, devs), GA_ERROR_TYPE, "invalid dtype");
    CHECK_ERROR(!ga_darray_from_host(data, 2, bad_shape, GA_FLOAT32, 0, 2, devs), GA_ERROR_VALUE,
                "negative dimensions are not allowed");
    CHECK_ERROR(!ga_darray_from_host(data, 0, NULL, GA_FLOAT32, 0, 2, devs), GA_ERROR_VALUE,
                "ga_darray_from_host: a darray needs at least one dimension");
    CHECK_ERROR(!ga_darray_from_host(data, 2, shape, GA_FLOAT32, 2, 2, devs), GA_ERROR_AXIS,
                "ga_darray_from_host: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_darray_from_host(data, 2, shape, GA_FLOAT32, -3, 2, devs), GA_ERROR_AXIS,
                "axis -3 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_darray_from_host(data, 2, shape, GA_FLOAT32, 0, 0, devs), GA_ERROR_VALUE,
                "the number of devices must be at least 1, not 0");
    CHECK_ERROR(!ga_darray_from_host(data, 2, shape, GA_FLOAT32, 0, 2, NULL), GA_ERROR_NULL_INPUT, "devices is NULL");
    CHECK_ERROR(!ga_darray_from_arrays(0, NULL, 0), GA_ERROR_VALUE, "need at least one array");
    const ga_array *none[2] = {NULL, NULL};
    CHECK_ERROR(!ga_darray_from_arrays(2, none, 0), GA_ERROR_NULL_INPUT, "an input array is NULL");
    CHECK_ERROR(!ga_darray_split(NULL, 0, 2, devs), GA_ERROR_NULL_INPUT, "ga_darray_split: a is NULL");
    /* NULL inputs keep the first error */
    ga__error(GA_ERROR_OUT_OF_MEMORY, "earlier", "the first failure");
    CHECK(!ga_darray_gather(NULL, 0) && !ga_darray_reshard(NULL, 0, 2, devs) && !ga_darray_shard(NULL, 0) &&
              !ga_darray_reduce_gather(GA_REDUCE_SUM, NULL, GA_ALL_AXES, false) &&
              !ga_darray_reduce(GA_REDUCE_SUM, NULL, GA_NO_AXES, false) && !ga_darray_matmul(NULL, NULL) &&
              !ga_darray_add(NULL, NULL) && ga_darray_to_host(NULL, NULL, 0) != GA_OK,
          "the calls on NULL fail");
    CHECK_ERROR(true, GA_ERROR_OUT_OF_MEMORY, "earlier: the first failure");
    CHECK_ERROR(!ga_darray_gather(NULL, 0), GA_ERROR_NULL_INPUT, "ga_darray_gather: d is NULL");
    ga_darray_operand in[2] = {ga_darray_operand_scalar(ga_int(1)), ga_darray_operand_scalar(ga_int(2))};
    ga_darray *out[2] = {NULL, NULL};
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, in, out) != GA_OK, GA_ERROR_VALUE,
                "ga_darray_ufunc: ufunc 'add' needs at least one darray input");
    in[1] = ga_darray_operand_split(NULL);
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, in, out) != GA_OK, GA_ERROR_NULL_INPUT, "input 1 is NULL");
    in[1] = ga_darray_operand_replicated(NULL);
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, in, out) != GA_OK, GA_ERROR_NULL_INPUT, "input 1 is NULL");
    CHECK_ERROR(ga_darray_ufunc((ga_ufunc)-1, in, out) != GA_OK, GA_ERROR_VALUE, "invalid ufunc -1");
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, NULL, out) != GA_OK, GA_ERROR_NULL_INPUT, "in is NULL");
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, in, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "out is NULL");
    CHECK(!out[0] && !out[1], "no output made on failure");
    CHECK_ERROR(!ga_darray_reduce((ga_reduction)99, NULL, GA_ALL_AXES, false), GA_ERROR_VALUE, "invalid reduction 99");
    ga_darray *dout = NULL;
    ga_array *aout = NULL;
    CHECK_ERROR(ga_darray_reduce_into(GA_REDUCE_VAR, NULL, GA_NO_AXES, GA_DTYPE_INVALID, &dout, false, NULL) != GA_OK,
                GA_ERROR_NULL_INPUT, "ga_darray_reduce_into: d is NULL");
    CHECK_ERROR(ga_darray_reduce_into(GA_REDUCE_VAR, NULL, GA_NO_AXES, GA_DTYPE_INVALID, NULL, false, NULL) != GA_OK,
                GA_ERROR_NULL_INPUT, "ga_darray_reduce_into: out is NULL");
    CHECK_ERROR(ga_darray_reduce_gather_into((ga_reduction)-1, NULL, GA_ALL_AXES, GA_DTYPE_INVALID, &aout, false, NULL) !=
                    GA_OK,
                GA_ERROR_VALUE, "ga_darray_reduce_gather_into: invalid reduction -1");
    CHECK(!dout && !aout, "nothing stored on failure");
    CHECK(ga_darray_ndim(NULL) == -1 && !ga_darray_shape(NULL) && ga_darray_size(NULL) == -1 &&
              ga_darray_dtype(NULL) == GA_DTYPE_INVALID && ga_darray_axis(NULL) == -1 &&
              ga_darray_nshards(NULL) == -1 && ga_darray_shard_device(NULL, 0) == -1 &&
              ga_darray_shard_offset(NULL, 0) == -1 && !ga_darray_retain(NULL) && !ga_darray_keep(NULL),
          "the attributes of NULL");
    ga_darray_release(NULL);
}

/* ---- device helpers -------------------------------------------------------------- */

#define NLISTS 4
/* Device list `which`: one shard; three; five; seven (more shards than some
   test arrays have elements). On one GPU every shard is on device 0; with
   two, the lists alternate over both, starting on either. */
static int device_list(int which, int *devs)
{
    static const int lens[NLISTS] = {1, 3, 5, 7};
    const bool two = ga_device_count() >= 2;
    for (int i = 0; i < lens[which]; i++) devs[i] = two ? (i + which) % 2 : 0;
    return lens[which];
}

static int64_t prod(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    return n;
}

/* n random elements of dtype t: integers in a small range (products of a
   few stay exact), floats in [-4, 4), bool half true. */
static void *random_data(ga_dtype t, int64_t n)
{
    unsigned char *p = malloc((size_t)(n ? n : 1) * isz(t));
    for (int64_t i = 0; p && i < n; i++) {
        long double re = t == GA_BOOL ? (long double)(rnd() & 1)
                         : is_integer(t) ? (long double)((int64_t)(rnd() % 9) - (is_signed(t) ? 4 : 0))
                                         : (long double)round_double(part_of(t), rnd_unit() * 8 - 4);
        long double im = is_complex(t) ? (long double)round_double(part_of(t), rnd_unit() * 8 - 4) : 0;
        store(t, re, im, p + (size_t)i * isz(t));
    }
    return p;
}

/* Whether d's shards are numpy.array_split's over `devs` along `axis`. */
static bool split_as_expected(const ga_darray *d, int axis, int n, const int *devs)
{
    int64_t sizes[8] = {0}, offset = 0;
    if (!d || ga_darray_axis(d) != axis || ga_darray_nshards(d) != n) return false;
    ga_darray_shard_sizes(ga_darray_shape(d)[axis], n, sizes);
    for (int i = 0; i < n; i++) {
        ga_array *s = ga_darray_shard(d, i);
        bool ok = s && ga_darray_shard_device(d, i) == devs[i] && ga_device_of(s) == devs[i] &&
                  ga_darray_shard_offset(d, i) == offset && ga_shape(s)[axis] == sizes[i];
        ga_release(s);
        if (!ok) return false;
        offset += sizes[i];
    }
    return ga_darray_shard_offset(d, n) == offset;
}

/* Whether d holds exactly the bytes `want` (C order). */
static bool holds(const ga_darray *d, const void *want, size_t nbytes)
{
    unsigned char *got = malloc(nbytes + 1);
    memset(got, 0xAB, nbytes + 1);
    bool ok = got && ga_darray_to_host(d, got, nbytes) == GA_OK && memcmp(got, want, nbytes) == 0;
    free(got);
    return ok;
}

/* The pool's bytes in use on every device. */
static size_t used_all(void)
{
    size_t used = 0;
    for (int dev = 0; dev < ga_device_count(); dev++) {
        ga_memory_stats st;
        if (ga_memory_get_stats(dev, &st) == GA_OK) used += st.used_bytes;
    }
    return used;
}

static const int64_t shapes[][4] = {{7}, {5, 3}, {4, 1, 6}, {3, 0, 2}, {2, 3, 5}, {1, 9}};
static const int ndims[] = {1, 2, 3, 3, 3, 2};
#define NSHAPES ((int)(sizeof ndims / sizeof ndims[0]))

/* ---- creation, the host and back -------------------------------------------------- */

DEVICE_TEST(round_trip_every_axis_and_device_list)
{
    const ga_dtype types[] = {GA_FLOAT32, GA_FLOAT64, GA_INT8, GA_UINT16, GA_INT64, GA_COMPLEX64, GA_BOOL};
    const int last = ga_device_count() - 1;
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int s = 0; s < NSHAPES; s++)
            for (int axis = -ndims[s]; axis < ndims[s]; axis++)
                for (int l = 0; l < NLISTS; l++) {
                    const ga_dtype t = types[ti];
                    const int nd = ndims[s], ax = axis < 0 ? axis + nd : axis;
                    int devs[8] = {0};
                    const int n = device_list(l, devs);
                    const int64_t size = prod(nd, shapes[s]);
                    const size_t nbytes = (size_t)size * isz(t);
                    void *data = random_data(t, size);
                    ga_darray *d = ga_darray_from_host(data, nd, shapes[s], t, axis, n, devs);
                    CHECK(d && ga_darray_ndim(d) == nd && ga_darray_dtype(d) == t && ga_darray_size(d) == size,
                          "%s shape %d axis %d list %d: %s", dname(t), s, axis, l, ga_last_error_message());
                    CHECK(split_as_expected(d, ax, n, devs), "%s shape %d axis %d list %d: the shards", dname(t), s,
                          axis, l);
                    CHECK(holds(d, data, nbytes), "%s shape %d axis %d list %d: to_host", dname(t), s, axis, l);
                    ga_array *g = ga_darray_gather(d, last);
                    unsigned char *got = malloc(nbytes + 1);
                    CHECK(g && ga_device_of(g) == last && ga_to_host(g, got, nbytes) == GA_OK &&
                              memcmp(got, data, nbytes) == 0,
                          "%s shape %d axis %d list %d: gathered", dname(t), s, axis, l);
                    /* the same through ga_darray_split of the gathered array, and from its shards */
                    ga_darray *e = g ? ga_darray_split(g, axis, n, devs) : NULL;
                    CHECK(split_as_expected(e, ax, n, devs) && holds(e, data, nbytes), "%s shape %d axis %d list %d: split",
                          dname(t), s, axis, l);
                    ga_array *parts[8] = {NULL};
                    for (int i = 0; d && i < n; i++) parts[i] = ga_darray_shard(d, i);
                    ga_darray *f = d ? ga_darray_from_arrays(n, (const ga_array *const *)parts, axis) : NULL;
                    CHECK(split_as_expected(f, ax, n, devs) && holds(f, data, nbytes),
                          "%s shape %d axis %d list %d: from_arrays", dname(t), s, axis, l);
                    for (int i = 0; i < n; i++) ga_release(parts[i]);
                    ga_darray_release(f);
                    ga_darray_release(e);
                    ga_release(g);
                    ga_darray_release(d);
                    free(got);
                    free(data);
                }
    CHECK(ga_last_error() == GA_OK, "no error left: %s", ga_last_error_message());
}

DEVICE_TEST(from_arrays_of_any_lengths_and_views)
{
    const int last = ga_device_count() - 1;
    const int64_t lens[3] = {2, 0, 5};
    float host[7 * 3] = {0};
    for (int i = 0; i < 21; i++) host[i] = (float)(rnd() % 1000);
    ga_array *a[3] = {NULL, NULL, NULL};
    for (int i = 0, row = 0; i < 3; row += (int)lens[i], i++) {
        ga_device_push(i == 2 ? last : 0);
        a[i] = ga_from_host(host + row * 3, 2, (const int64_t[]){lens[i], 3}, GA_FLOAT32);
        ga_device_pop();
    }
    ga_darray *d = ga_darray_from_arrays(3, (const ga_array *const *)a, 0);
    CHECK(d && ga_darray_shard_offset(d, 1) == 2 && ga_darray_shard_offset(d, 2) == 2 &&
              ga_darray_shard_offset(d, 3) == 7 && ga_darray_shard_device(d, 2) == last && holds(d, host, sizeof host),
          "shards of lengths 2, 0, 5: %s", ga_last_error_message());
    /* a transposed (non-contiguous) array split, along either axis */
    ga_array *m = ga_from_host(host, 2, (const int64_t[]){7, 3}, GA_FLOAT32), *mt = ga_transpose(m, NULL);
    float want[21] = {0};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 3; j++) want[j * 7 + i] = host[i * 3 + j];
    int devs[8] = {0};
    for (int axis = 0; axis < 2; axis++) {
        const int n = device_list(2, devs);
        ga_darray *e = ga_darray_split(mt, axis, n, devs);
        CHECK(split_as_expected(e, axis, n, devs) && holds(e, want, sizeof want), "the transpose split along %d", axis);
        ga_darray_release(e);
    }
    /* shards that disagree */
    ga_array *b = ga_zeros(2, (const int64_t[]){2, 4}, GA_FLOAT32), *c = ga_zeros(2, (const int64_t[]){2, 3}, GA_FLOAT64);
    const ga_array *bad1[2] = {a[0], b}, *bad2[2] = {a[0], c};
    CHECK_ERROR(!ga_darray_from_arrays(2, bad1, 0), GA_ERROR_SHAPE,
                "array 1 has shape (2,4), array 0 (2,3): the shapes must agree except along axis 0");
    CHECK_ERROR(!ga_darray_from_arrays(2, bad2, 0), GA_ERROR_TYPE, "array 1 is float64, array 0 float32");
    CHECK_ERROR(!ga_darray_from_arrays(2, bad2, 2), GA_ERROR_AXIS, "axis 2 is out of bounds for array of dimension 2");
    ga_array *z = ga_zeros(0, NULL, GA_FLOAT32);
    CHECK_ERROR(!ga_darray_split(z, 0, 1, devs), GA_ERROR_VALUE, "at least one dimension");
    ga_release(z), ga_release(b), ga_release(c), ga_release(mt), ga_release(m);
    for (int i = 0; i < 3; i++) ga_release(a[i]);
    ga_darray_release(d);
}

DEVICE_TEST(devices_out_of_range_and_shard_indices)
{
    const int n = ga_device_count();
    float data[4] = {1, 2, 3, 4};
    const int bad[2] = {0, n}, neg[1] = {-1};
    CHECK_ERROR(!ga_darray_from_host(data, 1, (const int64_t[]){4}, GA_FLOAT32, 0, 2, bad), GA_ERROR_DEVICE,
                "ga_darray_from_host: device");
    CHECK_ERROR(!ga_darray_from_host(data, 1, (const int64_t[]){4}, GA_FLOAT32, 0, 1, neg), GA_ERROR_DEVICE,
                "device -1 does not exist");
    const int ok[2] = {0, 0};
    ga_darray *d = ga_darray_from_host(data, 1, (const int64_t[]){4}, GA_FLOAT32, 0, 2, ok);
    CHECK_ERROR(!ga_darray_gather(d, n), GA_ERROR_DEVICE, "ga_darray_gather: device");
    CHECK_ERROR(!ga_darray_reshard(d, 0, 2, bad), GA_ERROR_DEVICE, "ga_darray_reshard: device");
    CHECK_ERROR(!ga_darray_reshard(d, 1, 2, ok), GA_ERROR_AXIS, "axis 1 is out of bounds for array of dimension 1");
    CHECK_ERROR(!ga_darray_shard(d, 2), GA_ERROR_INDEX, "shard 2 is out of range for a darray of 2 shards");
    CHECK_ERROR(!ga_darray_shard(d, -1), GA_ERROR_INDEX, "shard -1 is out of range");
    CHECK(ga_darray_shard_device(d, 2) == -1 && ga_darray_shard_offset(d, 3) == -1 && ga_darray_shard_offset(d, 2) == 4,
          "attributes out of range");
    float small[3];
    CHECK_ERROR(ga_darray_to_host(d, small, sizeof small) != GA_OK, GA_ERROR_VALUE,
                "the destination holds 12 bytes; the array needs 16");
    ga_darray_release(d);
}

/* ---- elementwise -------------------------------------------------------------------- */

/* The value of operand k at element (idx) of the result shape (ndim, shape):
   right-aligned broadcasting of the host array (ondim, oshape, data). */
static long double bvalue(ga_dtype t, const void *data, int ondim, const int64_t *oshape, int ndim,
                          const int64_t *idx)
{
    int64_t k = 0;
    for (int d = 0; d < ondim; d++) {
        const int64_t i = oshape[d] == 1 ? 0 : idx[ndim - ondim + d];
        k = k * oshape[d] + i;
    }
    return value_at(t, data, k);
}

static bool next_index(int ndim, const int64_t *shape, int64_t *idx)
{
    for (int d = ndim - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) return true;
        idx[d] = 0;
    }
    return false;
}

/* Whether the host elements got[] (dtype t) are want[] as t holds them
   (integers wrapped, floats rounded), within tol * (|want| + scale). */
static bool same_values(ga_dtype t, const void *got, int64_t size, const long double *want, double tol, double scale)
{
    for (int64_t i = 0; i < size; i++) {
        long double w = want[i];
        if (is_integer(t)) {
            elem e = {wrap(t, (uint64_t)(int64_t)w), 0, 0};
            w = value_of(t, e);
        } else if (is_float(t)) {
            w = round_to(t, w);
        }
        const long double g = value_at(t, got, i);
        if (!(fabsl(g - w) <= tol * (fabsl(w) + scale)) && !(isnan(g) && isnan(w))) {
            test_fail(__FILE__, __LINE__, "element %lld: %Lg, want %Lg", (long long)i, g, w);
            return false;
        }
    }
    return true;
}

/* Whether d holds want[] (same_values) and is of dtype t. */
static bool holds_values_scaled(const ga_darray *d, ga_dtype t, int64_t size, const long double *want, double tol,
                                double scale)
{
    if (!d || ga_darray_dtype(d) != t || ga_darray_size(d) != size) return false;
    unsigned char *got = malloc((size_t)(size ? size : 1) * isz(t));
    bool ok = ga_darray_to_host(d, got, (size_t)size * isz(t)) == GA_OK && same_values(t, got, size, want, tol, scale);
    free(got);
    return ok;
}
static bool holds_values(const ga_darray *d, ga_dtype t, int64_t size, const long double *want, double tol)
{
    return holds_values_scaled(d, t, size, want, tol, 0);
}

/* The same for an array. */
static bool array_holds(const ga_array *a, ga_dtype t, int64_t size, const long double *want, double tol, double scale)
{
    if (!a || ga_dtype_of(a) != t || ga_size(a) != size) return false;
    unsigned char *got = malloc((size_t)(size ? size : 1) * isz(t));
    bool ok = ga_to_host(a, got, (size_t)size * isz(t)) == GA_OK && same_values(t, got, size, want, tol, scale);
    free(got);
    return ok;
}

/* a (dtype t, split along `axis` over list l) against b in every form. */
static void check_binary_forms(ga_dtype t, int nd, const int64_t *shape, int axis, int l)
{
    int devs[8] = {0}, devs2[8] = {0};
    const int n = device_list(l, devs), n2 = device_list((l + 1) % NLISTS, devs2);
    const int64_t size = prod(nd, shape);
    void *x = random_data(t, size), *y = random_data(t, size);
    long double *want = malloc(sizeof(long double) * (size_t)(size ? size : 1));
    int64_t idx[4] = {0};
    ga_darray *a = ga_darray_from_host(x, nd, shape, t, axis, n, devs);
    /* b split alike, and split along another axis over another list (re-sharded first) */
    for (int other = 0; other < 2; other++) {
        const int bax = other ? (axis + 1) % nd : axis;
        ga_darray *b = other ? ga_darray_from_host(y, nd, shape, t, bax, n2, devs2)
                             : ga_darray_from_host(y, nd, shape, t, axis, n, devs);
        ga_darray *s = ga_darray_add(a, b), *p = ga_darray_multiply(a, b);
        for (int64_t i = 0; i < size; i++) want[i] = value_at(t, x, i) + value_at(t, y, i);
        CHECK(holds_values(s, t, size, want, 0) && split_as_expected(s, axis < 0 ? axis + nd : axis, n, devs),
              "%s a + b (b split along %d): %s", dname(t), bax, ga_last_error_message());
        for (int64_t i = 0; i < size; i++) want[i] = value_at(t, x, i) * value_at(t, y, i);
        CHECK(holds_values(p, t, size, want, t == GA_FLOAT64 ? 2e-16 : 0), /* (the reference rounds twice: long double, then double) */
              "%s a * b (b along %d): %s", dname(t), bax, ga_last_error_message());
        /* out=: a - b into s, in place */
        ga_darray_operand in[2] = {ga_darray_operand_split(a), ga_darray_operand_split(b)};
        ga_darray *out[2] = {s, NULL};
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_SUBTRACT, in, out));
        for (int64_t i = 0; i < size; i++) want[i] = value_at(t, x, i) - value_at(t, y, i);
        CHECK(out[0] == s && holds_values(s, t, size, want, 0), "%s out= a - b", dname(t));
        ga_darray_release(s), ga_darray_release(p), ga_darray_release(b);
    }
    /* a weak scalar on either side */
    ga_darray_operand in[3] = {ga_darray_operand_scalar(ga_int(3)), ga_darray_operand_split(a)};
    ga_darray *out[2] = {NULL, NULL};
    CHECK_OK(ga_darray_ufunc(GA_UFUNC_SUBTRACT, in, out));
    for (int64_t i = 0; i < size; i++) want[i] = 3 - value_at(t, x, i);
    CHECK(holds_values(out[0], t, size, want, 0), "%s 3 - a", dname(t));
    ga_darray_release(out[0]);
    /* replicated: the whole shape (varies along the split axis) on the last device, the last axis only
       (broadcast), and with a leading axis of 2 (the split axis shifts by one) */
    const int last = ga_device_count() - 1;
    ga_device_push(last);
    ga_array *full = ga_from_host(y, nd, shape, t), *row = ga_from_host(y, 1, shape + nd - 1, t);
    int64_t big[5] = {2};
    memcpy(big + 1, shape, sizeof(int64_t) * (size_t)nd);
    void *y2 = random_data(t, 2 * size);
    ga_array *lead = ga_from_host(y2, nd + 1, big, t);
    ga_device_pop();
    const ga_array *reps[3] = {full, row, lead};
    for (int r = 0; r < 3; r++) {
        in[0] = ga_darray_operand_split(a), in[1] = ga_darray_operand_replicated(reps[r]);
        out[0] = NULL;
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_ADD, in, out));
        const int rnd_ = r == 2 ? nd + 1 : nd;
        const int64_t *rshape = r == 2 ? big : shape, rsize = prod(rnd_, rshape);
        const void *rdata = r == 2 ? y2 : y;
        const int rnd_rep = r == 1 ? 1 : rnd_;
        const int64_t *rep_shape = r == 1 ? shape + nd - 1 : rshape;
        long double *w = malloc(sizeof(long double) * (size_t)(rsize ? rsize : 1));
        memset(idx, 0, sizeof idx);
        for (int64_t i = 0; i < rsize; i++, next_index(rnd_, rshape, idx))
            w[i] = bvalue(t, x, nd, shape, rnd_, idx) + bvalue(t, rdata, rnd_rep, rep_shape, rnd_, idx);
        CHECK(holds_values(out[0], t, rsize, w, 0), "%s a + replicated %d: %s", dname(t), r, ga_last_error_message());
        CHECK(!out[0] || ga_darray_axis(out[0]) == (axis < 0 ? axis + nd : axis) + (r == 2),
              "%s a + replicated %d: the split axis", dname(t), r);
        free(w);
        ga_darray_release(out[0]);
    }
    /* three inputs (where) and two outputs (divmod of reals) */
    if (t != GA_BOOL && !is_complex(t)) {
        ga_darray *cond = ga_darray_reduce(GA_REDUCE_ANY, a, GA_NO_AXES, false); /* a != 0, split as a */
        ga_darray_operand w3[3] = {ga_darray_operand_split(cond), ga_darray_operand_split(a),
                                   ga_darray_operand_scalar(ga_int(7))};
        out[0] = NULL;
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_WHERE, w3, out));
        for (int64_t i = 0; i < size; i++) want[i] = value_at(t, x, i) != 0 ? value_at(t, x, i) : 7;
        CHECK(holds_values(out[0], t, size, want, 0), "%s where(a != 0, a, 7): %s", dname(t), ga_last_error_message());
        ga_darray_release(out[0]);
        ga_darray_release(cond);
        ga_darray_operand dm[2] = {ga_darray_operand_split(a), ga_darray_operand_scalar(ga_int(3))};
        out[0] = out[1] = NULL;
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_DIVMOD, dm, out));
        long double *r2 = malloc(sizeof(long double) * (size_t)(size ? size : 1));
        for (int64_t i = 0; i < size; i++) {
            const long double v = value_at(t, x, i);
            want[i] = floorl(v / 3), r2[i] = v - 3 * floorl(v / 3);
        }
        CHECK(holds_values(out[0], t, size, want, 0) && holds_values(out[1], t, size, r2, 0), "%s divmod(a, 3)", dname(t));
        ga_darray_release(out[0]), ga_darray_release(out[1]);
        free(r2);
    }
    ga_release(full), ga_release(row), ga_release(lead);
    ga_darray_release(a);
    free(want), free(x), free(y), free(y2);
}

DEVICE_TEST(ufunc_forms_against_the_host)
{
    const ga_dtype types[] = {GA_FLOAT32, GA_FLOAT64, GA_INT32, GA_INT64, GA_UINT8, GA_FLOAT16, GA_INT16};
    const int64_t shape3[3] = {5, 3, 4}, shape1[1] = {11}, shape2[2] = {2, 7};
    const int caller = ga_device_count() - 1;
    ga_device_set(caller);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int l = 0; l < NLISTS; l++) {
            for (int axis = -3; axis < 3; axis++) check_binary_forms(types[ti], 3, shape3, axis, l);
            check_binary_forms(types[ti], 1, shape1, 0, l);
            check_binary_forms(types[ti], 2, shape2, -2, l); /* 2 rows over up to 7 shards: empty ones */
        }
    CHECK(ga_device_get() == caller, "the caller's device %d is current again, not %d", caller, ga_device_get());
    ga_device_set(0);
}

DEVICE_TEST(unary_ufuncs_and_dtypes)
{
    int devs[8] = {0};
    const int n = device_list(2, devs);
    const int64_t shape[2] = {9, 4};
    for (int ti = 0; ti < 2; ti++) {
        const ga_dtype t = ti ? GA_FLOAT64 : GA_FLOAT32;
        void *x = random_data(t, 36);
        ga_darray *a = ga_darray_from_host(x, 2, shape, t, 1, n, devs);
        ga_darray_operand in[1] = {ga_darray_operand_split(a)};
        ga_darray *out[2] = {NULL, NULL};
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_EXP, in, out));
        long double want[36] = {0};
        for (int i = 0; i < 36; i++) want[i] = expl(value_at(t, x, i));
        CHECK(holds_values(out[0], t, 36, want, ti ? 1e-15 : 1e-6), "%s exp", dname(t));
        ga_darray_release(out[0]);
        out[0] = NULL;
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_LESS, (ga_darray_operand[]){ga_darray_operand_split(a),
                                                                         ga_darray_operand_scalar(ga_float(0.5))},
                                 out));
        for (int i = 0; i < 36; i++) want[i] = value_at(t, x, i) < 0.5;
        CHECK(holds_values(out[0], GA_BOOL, 36, want, 0), "%s a < 0.5", dname(t));
        ga_darray_release(out[0]);
        /* int8 + float scalar promotes as NumPy (float64 when the darray is an integer one: weak -> float64) */
        ga_darray_release(a);
        free(x);
    }
    int8_t i8[10] = {0};
    for (int i = 0; i < 10; i++) i8[i] = (int8_t)(i * 25 - 120);
    ga_darray *b = ga_darray_from_host(i8, 1, (const int64_t[]){10}, GA_INT8, 0, n, devs);
    ga_darray *out[2] = {NULL, NULL};
    CHECK_OK(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(b),
                                                                  ga_darray_operand_scalar(ga_int(100))},
                             out));
    long double want[10] = {0};
    for (int i = 0; i < 10; i++) want[i] = (int8_t)(uint8_t)(i8[i] + 100);
    CHECK(holds_values(out[0], GA_INT8, 10, want, 0), "int8 + 100 wraps as int8");
    ga_darray_release(out[0]);
    out[0] = NULL;
    CHECK_OK(ga_darray_ufunc(GA_UFUNC_MULTIPLY, (ga_darray_operand[]){ga_darray_operand_split(b),
                                                                       ga_darray_operand_scalar(ga_float(0.5))},
                             out));
    for (int i = 0; i < 10; i++) want[i] = i8[i] * 0.5L;
    CHECK(holds_values(out[0], GA_FLOAT64, 10, want, 0), "int8 * 0.5 is float64");
    ga_darray_release(out[0]);
    ga_darray_release(b);
}

DEVICE_TEST(ufunc_errors)
{
    int devs[8] = {0};
    const int n = device_list(1, devs);
    float x[24] = {0};
    ga_darray *a = ga_darray_from_host(x, 2, (const int64_t[]){6, 4}, GA_FLOAT32, 0, n, devs);
    ga_darray *b = ga_darray_from_host(x, 2, (const int64_t[]){5, 4}, GA_FLOAT32, 0, n, devs);
    ga_darray *c = ga_darray_from_host(x, 2, (const int64_t[]){1, 4}, GA_FLOAT32, 0, n, devs);
    ga_darray *out[2] = {NULL, NULL};
    CHECK_ERROR(!ga_darray_add(a, b), GA_ERROR_SHAPE,
                "ga_darray_ufunc: operands could not be broadcast together with shapes (6,4) (5,4)");
    ga_array *r = ga_zeros(2, (const int64_t[]){3, 4}, GA_FLOAT32);
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(c),
                                                                     ga_darray_operand_replicated(r)},
                                out) != GA_OK,
                GA_ERROR_SHAPE, "the split axis (length 1) cannot be broadcast to 3");
    /* (c broadcasts along the split axis: split_operand_broadcast_along_the_split_axis) */
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_BITWISE_AND, (ga_darray_operand[]){ga_darray_operand_split(a),
                                                                             ga_darray_operand_split(a)},
                                out) != GA_OK,
                GA_ERROR_TYPE, "ga_darray_ufunc: ufunc 'bitwise_and' not supported for the input types");
    /* an out= of another split, shape or dtype */
    ga_darray *other = ga_darray_reshard(a, 1, n, devs);
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(a),
                                                                     ga_darray_operand_split(a)},
                                (ga_darray *[]){other, NULL}) != GA_OK,
                GA_ERROR_SHAPE, "output 0 is not split as the first darray input");
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(a),
                                                                     ga_darray_operand_split(a)},
                                (ga_darray *[]){b, NULL}) != GA_OK,
                GA_ERROR_SHAPE, "non-broadcastable output operand with shape (5,4) doesn't match the broadcast shape (6,4)");
    int32_t xi[24] = {0};
    ga_darray *ai = ga_darray_from_host(xi, 2, (const int64_t[]){6, 4}, GA_INT32, 0, n, devs);
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(a),
                                                                     ga_darray_operand_split(a)},
                                (ga_darray *[]){ai, NULL}) != GA_OK,
                GA_ERROR_TYPE, "Cannot cast ufunc 'add' output from dtype('float32') to dtype('int32')");
    CHECK(holds(ai, xi, sizeof xi), "a refused out= is not written");
    ga_darray_operand bad = ga_darray_operand_split(a);
    bad.kind = (ga_darray_operand_kind)7;
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_NEGATIVE, &bad, out) != GA_OK, GA_ERROR_VALUE, "invalid operand kind 7");
    /* a NULL darray from an earlier failure keeps that error */
    ga_darray *failed = ga_darray_add(a, b);
    CHECK(!failed && !ga_darray_multiply(failed, a), "a NULL input fails");
    CHECK_ERROR(true, GA_ERROR_SHAPE, "could not be broadcast");
    CHECK(!out[0] && !out[1], "no output made on failure");
    ga_release(r);
    ga_darray_release(ai), ga_darray_release(other), ga_darray_release(a), ga_darray_release(b), ga_darray_release(c);
}

/* ---- reductions --------------------------------------------------------------------- */

/* The host reduction r of x (dtype t, shape (nd, shape)) over the axes in
   mask, at each kept index, in long double: want[] in the result's C order
   (the reduced axes dropped). */
static void host_reduce(ga_reduction r, ga_dtype t, const void *x, int nd, const int64_t *shape, unsigned mask,
                        long double *want, int64_t nwant)
{
    int64_t idx[4] = {0}, count = 1;
    for (int d = 0; d < nd; d++)
        if (mask >> d & 1) count *= shape[d];
    for (int64_t j = 0; j < nwant; j++) want[j] = r == GA_REDUCE_PROD ? 1 : r == GA_REDUCE_MIN ? INFINITY
                                                                    : r == GA_REDUCE_MAX ? -INFINITY : 0;
    const int64_t size = prod(nd, shape);
    for (int64_t i = 0; i < size; i++, next_index(nd, shape, idx)) {
        int64_t j = 0;
        for (int d = 0; d < nd; d++)
            if (!(mask >> d & 1)) j = j * shape[d] + idx[d];
        const long double v = value_at(t, x, i);
        if (r == GA_REDUCE_SUM || r == GA_REDUCE_MEAN) want[j] += v;
        else if (r == GA_REDUCE_PROD) want[j] *= v;
        else if (r == GA_REDUCE_MIN) want[j] = fminl(want[j], v);
        else want[j] = fmaxl(want[j], v);
    }
    if (r == GA_REDUCE_MEAN)
        for (int64_t j = 0; j < nwant; j++) want[j] /= (long double)count;
}

/* reduce_gather (and reduce, where the split axis is kept) of r over mask
   against the host and against ga_reduce of the gathered array (dtype). */
static void check_reduction(ga_reduction r, ga_dtype t, const void *x, const ga_darray *d, unsigned mask, bool keepdims)
{
    const int nd = ga_darray_ndim(d), axis = ga_darray_axis(d);
    const int64_t *shape = ga_darray_shape(d);
    int axes[4] = {0}, naxes = 0, rnd_ = 0;
    int64_t rshape[4] = {0}, nwant = 1;
    for (int k = 0; k < nd; k++) {
        if (mask >> k & 1) {
            axes[naxes++] = k - ((k & 1) ? nd : 0); /* some negative */
            if (keepdims) rshape[rnd_++] = 1;
        } else {
            rshape[rnd_++] = shape[k];
            nwant *= shape[k];
        }
    }
    const bool all = mask == (1u << nd) - 1;
    int64_t count = 1;
    for (int k = 0; k < nd; k++) count *= (mask >> k & 1) ? shape[k] : 1;
    long double *want = malloc(sizeof(long double) * (size_t)(nwant ? nwant : 1));
    host_reduce(r, t, x, nd, shape, mask, want, nwant);
    ga_array *whole = ga_darray_gather(d, ga_darray_shard_device(d, 0)), *ref = NULL;
    CHECK_OK(ga_reduce(r, whole, naxes, naxes ? axes : ga_no_axes(), GA_DTYPE_INVALID, &ref, keepdims, NULL));
    const ga_dtype rt = ga_dtype_of(ref);
    /* sums of up to 60 values of at most 4: an error of the result's
       precision at 4 * count; products: relative */
    const bool prod_ = r == GA_REDUCE_PROD; /* up to 60 roundings, relative */
    const double tol = rt == GA_FLOAT16 ? 2e-3 : rt == GA_FLOAT32 ? (prod_ ? 1e-5 : 2e-6)
                     : rt == GA_FLOAT64 ? (prod_ ? 1e-13 : 1e-14) : 0;
    const double scale = r == GA_REDUCE_PROD ? 0 : r == GA_REDUCE_MEAN ? 4.0 : 4.0 * (double)count;
    ga_array *got = all && !keepdims ? ga_darray_reduce_gather(r, d, GA_ALL_AXES, keepdims)
                                     : ga_darray_reduce_gather(r, d, naxes, naxes ? axes : ga_no_axes(), keepdims);
    bool ok = got && ga_dtype_of(got) == rt && ga_ndim(got) == rnd_ && ga_device_of(got) == ga_darray_shard_device(d, 0);
    for (int k = 0; ok && k < rnd_; k++) ok = ga_shape(got)[k] == rshape[k];
    CHECK(ok, "%s of %s over mask %u (split %d, keepdims %d): %s", ga_reduction_name(r), dname(t), mask, axis, keepdims,
          got ? "the result's dtype, shape or device" : ga_last_error_message());
    CHECK(!ok || array_holds(got, rt, nwant, want, tol, scale), "%s of %s over mask %u (split %d, keepdims %d): values",
          ga_reduction_name(r), dname(t), mask, axis, keepdims);
    if (!(mask >> axis & 1)) {
        ga_darray *s = ga_darray_reduce(r, d, naxes, naxes ? axes : ga_no_axes(), keepdims);
        int sax = axis;
        for (int k = 0; k < axis && !keepdims; k++) sax -= mask >> k & 1;
        CHECK(s && ga_darray_axis(s) == sax && ga_darray_nshards(s) == ga_darray_nshards(d) &&
                  holds_values_scaled(s, rt, nwant, want, tol, scale),
              "ga_darray_reduce %s of %s over mask %u (split %d): %s", ga_reduction_name(r), dname(t), mask, axis,
              ga_last_error_message());
        ga_darray_release(s);
    } else {
        CHECK_ERROR(!ga_darray_reduce(r, d, naxes, naxes ? axes : ga_no_axes(), keepdims), GA_ERROR_AXIS,
                    "the axes include the split axis");
    }
    ga_release(got), ga_release(ref), ga_release(whole);
    free(want);
}

DEVICE_TEST(reductions_over_every_combination_of_axes)
{
    const ga_dtype types[] = {GA_FLOAT64, GA_FLOAT32, GA_INT32, GA_UINT8, GA_FLOAT16};
    const ga_reduction reds[] = {GA_REDUCE_SUM, GA_REDUCE_PROD, GA_REDUCE_MIN, GA_REDUCE_MAX, GA_REDUCE_MEAN};
    const int64_t shape3[3] = {5, 3, 4}, shape1[1] = {13}, shape2[2] = {2, 3};
    const int64_t *shp[3] = {shape3, shape1, shape2};
    const int nds[3] = {3, 1, 2};
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int s = 0; s < 3; s++)
            for (int axis = 0; axis < nds[s]; axis++)
                for (int l = 1; l < NLISTS; l += 2) {
                    const ga_dtype t = types[ti];
                    int devs[8] = {0};
                    const int n = device_list(l, devs);
                    void *x = random_data(t, prod(nds[s], shp[s]));
                    ga_darray *d = ga_darray_from_host(x, nds[s], shp[s], t, axis, n, devs);
                    for (unsigned mask = 0; mask < 1u << nds[s]; mask++)
                        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++)
                            for (int keep = 0; keep < 2; keep++) {
                                /* products that overflow float16, or wrap integers (NumPy's too) */
                                int64_t count = 1;
                                for (int k = 0; k < nds[s]; k++) count *= (mask >> k & 1) ? shp[s][k] : 1;
                                if (reds[ri] == GA_REDUCE_PROD && (t == GA_FLOAT16 || (is_integer(t) && count > 20)))
                                    continue;
                                check_reduction(reds[ri], t, x, d, mask, keep);
                            }
                    ga_darray_release(d);
                    free(x);
                }
}

DEVICE_TEST(reductions_of_empty_shards_and_slices)
{
    int devs[8] = {0};
    const int n = device_list(3, devs);
    double x[6] = {3, -1, 4, 1, -5, 9};
    /* 2 rows over 7 shards: five empty shards take no part */
    ga_darray *d = ga_darray_from_host(x, 2, (const int64_t[]){2, 3}, GA_FLOAT64, 0, n, devs);
    ga_array *m = ga_darray_reduce_gather(GA_REDUCE_MIN, d, GA_ALL_AXES, false);
    ga_array *mean = ga_darray_reduce_gather(GA_REDUCE_MEAN, d, GA_AXES(0), false);
    double v = 0, mv[3] = {0};
    CHECK(m && ga_to_host(m, &v, sizeof v) == GA_OK && v == -5, "min over empty shards: %g", v);
    CHECK(mean && ga_to_host(mean, mv, sizeof mv) == GA_OK && mv[0] == 2 && mv[1] == -3 && mv[2] == 6.5,
          "mean over the split axis: %g %g %g", mv[0], mv[1], mv[2]);
    ga_release(m), ga_release(mean);
    ga_darray_release(d);
    /* an empty split axis: sum 0, mean NaN, min NumPy's error */
    ga_darray *e = ga_darray_from_host(x, 2, (const int64_t[]){0, 3}, GA_FLOAT64, 0, n, devs);
    ga_array *s = ga_darray_reduce_gather(GA_REDUCE_SUM, e, GA_AXES(0), false);
    ga_array *me = ga_darray_reduce_gather(GA_REDUCE_MEAN, e, GA_AXES(0), true);
    double sv[3] = {1, 1, 1}, mev[3] = {0};
    CHECK(s && ga_ndim(s) == 1 && ga_to_host(s, sv, sizeof sv) == GA_OK && sv[0] == 0 && sv[2] == 0, "sum of nothing");
    CHECK(me && ga_ndim(me) == 2 && ga_to_host(me, mev, sizeof mev) == GA_OK && isnan(mev[0]) && isnan(mev[2]),
          "mean of nothing is NaN");
    ga_clear_error();
    CHECK_ERROR(!ga_darray_reduce_gather(GA_REDUCE_MIN, e, GA_AXES(0), false), GA_ERROR_VALUE,
                "zero-size array to reduction operation minimum which has no identity");
    ga_array *ve = ga_darray_reduce_gather(GA_REDUCE_VAR, e, GA_AXES(0), false);
    double vv[3] = {0};
    CHECK(ve && ga_to_host(ve, vv, sizeof vv) == GA_OK && isnan(vv[0]) && isnan(vv[1]) && isnan(vv[2]),
          "var of nothing is NaN: %s", ga_last_error_message());
    ga_release(ve);
    ga_reduce_warnings();
    CHECK_ERROR(!ga_darray_reduce_gather(GA_REDUCE_ARGMAX, e, GA_AXES(0), false), GA_ERROR_VALUE,
                "attempt to get argmax of an empty sequence");
    CHECK_ERROR(!ga_darray_reduce_gather(GA_REDUCE_SUM, e, GA_AXES(0, -2), false), GA_ERROR_VALUE,
                "duplicate value in 'axis'");
    CHECK_ERROR(!ga_darray_reduce_gather(GA_REDUCE_SUM, e, GA_AXES(2), false), GA_ERROR_AXIS,
                "axis 2 is out of bounds for array of dimension 2");
    /* var and std are fine over the other axes */
    ga_darray *f = ga_darray_from_host(x, 2, (const int64_t[]){2, 3}, GA_FLOAT64, 0, n, devs);
    ga_darray *var = ga_darray_reduce(GA_REDUCE_VAR, f, GA_AXES(1), false);
    long double want[2] = {(long double)(((3 - 2) * (3 - 2) + 9 + 4) / 3.0), 0};
    want[1] = ((1 - 5.0L / 3) * (1 - 5.0L / 3) + (-5 - 5.0L / 3) * (-5 - 5.0L / 3) + (9 - 5.0L / 3) * (9 - 5.0L / 3)) / 3;
    CHECK(holds_values(var, GA_FLOAT64, 2, want, 1e-14), "var over the rows");
    ga_darray_release(var), ga_darray_release(f);
    ga_release(s), ga_release(me);
    ga_darray_release(e);
}

/* ---- re-sharding ------------------------------------------------------------------- */

DEVICE_TEST(reshard_round_trips)
{
    const int64_t shape[3] = {7, 5, 3};
    for (int ti = 0; ti < 3; ti++) {
        const ga_dtype t = ti == 0 ? GA_FLOAT32 : ti == 1 ? GA_INT64 : GA_COMPLEX128;
        void *x = random_data(t, 105);
        for (int a = 0; a < 3; a++)
            for (int b = -3; b < 3; b++)
                for (int l = 0; l < NLISTS; l++) {
                    int devs[8] = {0}, devs2[8] = {0};
                    const int n = device_list(l, devs), n2 = device_list((l + 3) % NLISTS, devs2);
                    ga_darray *d = ga_darray_from_host(x, 3, shape, t, a, n, devs);
                    ga_darray *e = ga_darray_reshard(d, b, n2, devs2);
                    ga_darray *f = ga_darray_reshard(e, a, n, devs);
                    CHECK(split_as_expected(e, b < 0 ? b + 3 : b, n2, devs2) && holds(e, x, 105 * isz(t)),
                          "%s axis %d -> %d (lists %d, %d)", dname(t), a, b, l, (l + 3) % NLISTS);
                    CHECK(split_as_expected(f, a, n, devs) && holds(f, x, 105 * isz(t)), "%s axis %d -> %d -> back",
                          dname(t), a, b);
                    ga_darray_release(f), ga_darray_release(e), ga_darray_release(d);
                }
        free(x);
    }
}

/* ---- matmul ------------------------------------------------------------------------ */

DEVICE_TEST(matmul_by_a_replicated_matrix)
{
    const int64_t ms[] = {1, 5, 17, 64};
    const int last = ga_device_count() - 1;
    for (int ti = 0; ti < 2; ti++)
        for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
            for (int l = 0; l < NLISTS; l++)
                for (int bd = 1; bd <= 2; bd++) {
                    const ga_dtype t = ti ? GA_FLOAT64 : GA_FLOAT32;
                    const int64_t m = ms[mi], k = 9, nn = 6;
                    int devs[8] = {0};
                    const int n = device_list(l, devs);
                    void *a = random_data(t, m * k), *b = random_data(t, k * nn);
                    ga_darray *d = ga_darray_from_host(a, 2, (const int64_t[]){m, k}, t, 0, n, devs);
                    ga_device_push(last);
                    ga_array *B = bd == 2 ? ga_from_host(b, 2, (const int64_t[]){k, nn}, t)
                                          : ga_from_host(b, 1, (const int64_t[]){k}, t);
                    ga_device_pop();
                    ga_darray *p = ga_darray_matmul(d, B);
                    const int64_t cols = bd == 2 ? nn : 1;
                    long double *want = malloc(sizeof(long double) * (size_t)(m * cols));
                    for (int64_t i = 0; i < m; i++)
                        for (int64_t j = 0; j < cols; j++) {
                            long double acc = 0;
                            for (int64_t q = 0; q < k; q++)
                                acc += value_at(t, a, i * k + q) * value_at(t, b, q * cols + j);
                            want[i * cols + j] = acc;
                        }
                    CHECK(p && ga_darray_ndim(p) == bd && ga_darray_shape(p)[0] == m && split_as_expected(p, 0, n, devs) &&
                              holds_values_scaled(p, t, m * cols, want, ti ? 1e-13 : 1e-6, 16.0 * (double)k), /* (k terms up to 16 in magnitude: their roundings) */
                          "%s (%lld x %lld) @ b %d-d over list %d: %s", dname(t), (long long)m, (long long)k, bd, l,
                          ga_last_error_message());
                    free(want), free(a), free(b);
                    ga_release(B);
                    ga_darray_release(p), ga_darray_release(d);
                }
    /* errors */
    int devs[8] = {0};
    const int n = device_list(1, devs);
    float z[12] = {0};
    ga_darray *d = ga_darray_from_host(z, 2, (const int64_t[]){3, 4}, GA_FLOAT32, 1, n, devs);
    ga_darray *rows = ga_darray_from_host(z, 2, (const int64_t[]){3, 4}, GA_FLOAT32, 0, n, devs);
    ga_array *b = ga_zeros(2, (const int64_t[]){4, 2}, GA_FLOAT32), *b3 = ga_zeros(3, (const int64_t[]){1, 4, 2}, GA_FLOAT32);
    ga_array *bad = ga_zeros(2, (const int64_t[]){5, 2}, GA_FLOAT32);
    CHECK_ERROR(!ga_darray_matmul(d, b), GA_ERROR_SHAPE, "a is split along its last axis (1)");
    CHECK_ERROR(!ga_darray_matmul(rows, b3), GA_ERROR_SHAPE, "b has 3 dimensions");
    CHECK_ERROR(!ga_darray_matmul(rows, bad), GA_ERROR_VALUE, "ga_darray_matmul: matmul: Input operand 1 has a mismatch in its core dimension 0");
    ga_release(b), ga_release(b3), ga_release(bad);
    ga_darray_release(d), ga_darray_release(rows);
}

/* ---- scopes, leaks, the caller's device ------------------------------------------------ */

DEVICE_TEST(scopes_and_leaks)
{
    int devs[8] = {0};
    const int n = device_list(2, devs);
    float x[40] = {0};
    for (int i = 0; i < 40; i++) x[i] = (float)i;
    const size_t before = used_all();
    ga_scope_begin();
    ga_darray *a = ga_darray_from_host(x, 2, (const int64_t[]){8, 5}, GA_FLOAT32, 0, n, devs);
    ga_darray *kept = ga_darray_keep(ga_darray_add(a, ga_darray_reshard(a, 1, n, devs)));
    ga_array *s = ga_darray_reduce_gather(GA_REDUCE_SUM, a, GA_ALL_AXES, false);
    ga_array *sh = ga_darray_shard(a, 0);
    (void)s, (void)sh;
    ga_scope_end();
    float want[40] = {0};
    for (int i = 0; i < 40; i++) want[i] = 2.0f * (float)i;
    CHECK(holds(kept, want, sizeof want), "the kept darray outlives its scope");
    ga_darray_release(kept);
    CHECK(used_all() == before, "every shard released: %zu bytes in use, %zu before", used_all(), before);
    /* failures leak nothing either */
    ga_darray *b = ga_darray_from_host(x, 2, (const int64_t[]){8, 5}, GA_FLOAT32, 0, n, devs);
    const size_t mid = used_all();
    CHECK(!ga_darray_reduce_gather(GA_REDUCE_ARGMIN, b, GA_AXES(0, 1), false), "argmin over two axes refused");
    CHECK(!ga_darray_matmul(b, NULL), "matmul by NULL refused");
    ga_clear_error();
    CHECK(used_all() == mid, "a refused call leaks nothing");
    ga_darray_release(b);
    CHECK(used_all() == before, "all released");
}

/* ---- statistics over the split axis, where=, dtype=, out= ------------------------------ */

static bool is_nan_elem(ga_dtype t, const void *x, int64_t i)
{
    if (!is_inexact(t)) return false;
    elem e = load(t, (const char *)x + (size_t)i * isz(t));
    return isnan(e.re) || isnan(e.im);
}

static bool nan_form(ga_reduction r)
{
    return r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD ||
           r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX || r == GA_REDUCE_NANMIN || r == GA_REDUCE_NANMAX;
}

static bool arg_form(ga_reduction r)
{
    return r == GA_REDUCE_ARGMIN || r == GA_REDUCE_ARGMAX || r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX;
}

/* a < b in NumPy's order of t (complex: real part, then imaginary). */
static bool host_less(ga_dtype t, elem a, elem b)
{
    if (is_complex(t)) return a.re < b.re || (a.re == b.re && a.im < b.im);
    return value_of(t, a) < value_of(t, b);
}

/* The host reference of r over the axes in mask (sum, nansum, mean, var,
   std, their nan forms, max with initial -inf, ptp, argmin, argmax and
   the nan forms; a 1-axis mask or every axis for the args; max as with
   initial=-100) of x (dtype t,
   C order), where[] (NULL: every element) and ddof, in long double: want[]
   in the kept C order. *allnan: a slice of the nan args has no number. */
static void host_stat(ga_reduction r, ga_dtype t, const void *x, const bool *where, int nd, const int64_t *shape,
                      unsigned mask, double ddof, long double *want, int64_t nwant, bool *allnan)
{
    const int64_t size = prod(nd, shape);
    long double *cnt = calloc((size_t)nwant + 1, sizeof(long double)), *sre = calloc((size_t)nwant + 1, sizeof(long double));
    long double *sim = calloc((size_t)nwant + 1, sizeof(long double)), *m2 = calloc((size_t)nwant + 1, sizeof(long double));
    elem *best = calloc((size_t)nwant + 1, sizeof(elem)), *worst = calloc((size_t)nwant + 1, sizeof(elem));
    int64_t *at = calloc((size_t)nwant + 1, sizeof(int64_t));
    bool *seen = calloc((size_t)nwant + 1, 1), *nan_seen = calloc((size_t)nwant + 1, 1);
    const bool is_min = r == GA_REDUCE_ARGMIN || r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_PTP; /* (ptp: best the min) */
    *allnan = false;
    for (int pass = 0; pass < 2; pass++) {
        int64_t idx[4] = {0};
        for (int64_t i = 0; i < size; i++, next_index(nd, shape, idx)) {
            int64_t j = 0, pos = 0;
            for (int d = 0; d < nd; d++) {
                if (!(mask >> d & 1)) j = j * shape[d] + idx[d];
                else pos = pos * shape[d] + idx[d];
            }
            const bool isnan_ = is_nan_elem(t, x, i);
            if ((where && !where[i]) || (nan_form(r) && isnan_)) continue;
            const elem e = load(t, (const char *)x + (size_t)i * isz(t));
            const long double re = is_complex(t) ? e.re : value_of(t, e), im = is_complex(t) ? e.im : 0;
            if (pass == 1) {
                if (cnt[j] > 0) {
                    const long double dr = re - sre[j] / cnt[j], di = im - sim[j] / cnt[j];
                    m2[j] += dr * dr + di * di;
                }
                continue;
            }
            cnt[j] += 1, sre[j] += re, sim[j] += im;
            if (!seen[j]) {
                seen[j] = true, best[j] = worst[j] = e, at[j] = pos, nan_seen[j] = isnan_;
                continue;
            }
            if (nan_seen[j]) continue; /* (the first NaN stays) */
            if (isnan_) {
                nan_seen[j] = true, best[j] = e, at[j] = pos;
                continue;
            }
            if (is_min ? host_less(t, e, best[j]) : host_less(t, best[j], e)) best[j] = e, at[j] = pos;
            if (r == GA_REDUCE_PTP && host_less(t, worst[j], e)) worst[j] = e; /* (best: the min for ptp) */
        }
    }
    for (int64_t j = 0; j < nwant; j++) {
        const long double n = cnt[j];
        switch (r) {
        case GA_REDUCE_SUM: case GA_REDUCE_NANSUM: want[j] = sre[j]; break;
        case GA_REDUCE_MEAN: case GA_REDUCE_NANMEAN: want[j] = sre[j] / n; break; /* (0/0: NaN) */
        case GA_REDUCE_VAR: case GA_REDUCE_NANVAR: case GA_REDUCE_STD: case GA_REDUCE_NANSTD: {
            const long double den = n - ddof > 0 ? n - ddof : 0;
            want[j] = n > 0 ? m2[j] / den : NAN;
            if (r == GA_REDUCE_STD || r == GA_REDUCE_NANSTD) want[j] = sqrtl(want[j]);
            break;
        }
        case GA_REDUCE_PTP: want[j] = value_of(t, worst[j]) - value_of(t, best[j]); break;
        case GA_REDUCE_MAX: want[j] = seen[j] && value_of(t, best[j]) > -100 ? value_of(t, best[j]) : -100; break;
        default: /* the args */
            want[j] = (long double)at[j];
            if (!seen[j]) *allnan = true;
            break;
        }
    }
    free(cnt), free(sre), free(sim), free(m2), free(best), free(worst), free(at), free(seen), free(nan_seen);
}

/* The result dtype NumPy gives r of t. */
static ga_dtype stat_dtype(ga_reduction r, ga_dtype t)
{
    if (arg_form(r)) return GA_INT64;
    if (r == GA_REDUCE_SUM || r == GA_REDUCE_NANSUM)
        return t == GA_BOOL || (is_integer(t) && is_signed(t)) ? GA_INT64 : is_integer(t) ? GA_UINT64 : t;
    if (r == GA_REDUCE_PTP || r == GA_REDUCE_MAX) return t;
    if (!is_inexact(t)) return GA_FLOAT64;
    return (r == GA_REDUCE_MEAN || r == GA_REDUCE_NANMEAN) ? t : part_of(t);
}

/* ga_darray_reduce_gather of r over mask against host_stat. */
static void check_stat(ga_reduction r, ga_dtype t, const void *x, const ga_darray *d, unsigned mask, bool keepdims,
                       double ddof)
{
    const int nd = ga_darray_ndim(d);
    const int64_t *shape = ga_darray_shape(d);
    int axes[4] = {0}, naxes = 0;
    int64_t nwant = 1, count = 1;
    for (int k = 0; k < nd; k++) {
        if (mask >> k & 1) axes[naxes++] = k - ((k & 1) ? nd : 0), count *= shape[k];
        else nwant *= shape[k];
    }
    const bool all = mask == (1u << nd) - 1;
    long double *want = malloc(sizeof(long double) * (size_t)(nwant + 1));
    bool allnan = false;
    host_stat(r, t, x, NULL, nd, shape, mask, ddof, want, nwant, &allnan);
    ga_darray_reduce_options o = {NULL, NULL, ddof};
    ga_array *got = NULL;
    const ga_status st = arg_form(r) && all ? ga_darray_reduce_gather_into(r, d, GA_ALL_AXES, GA_DTYPE_INVALID, &got, keepdims, &o)
                                            : ga_darray_reduce_gather_into(r, d, naxes, axes, GA_DTYPE_INVALID, &got, keepdims, &o);
    if (arg_form(r) && nan_form(r) && allnan) {
        CHECK_ERROR(st != GA_OK, GA_ERROR_VALUE, "All-NaN slice encountered");
        CHECK(!got, "nothing stored on failure");
        free(want);
        return;
    }
    const ga_dtype rt = stat_dtype(r, t);
    const bool var = r == GA_REDUCE_VAR || r == GA_REDUCE_NANVAR;
    const double tol = rt == GA_FLOAT16 ? 4e-3 : rt == GA_FLOAT32 ? 4e-6 : rt == GA_FLOAT64 ? 1e-13 : 0;
    const double scale = var ? 16.0 : r == GA_REDUCE_SUM || r == GA_REDUCE_NANSUM ? 4.0 * (double)count : 4.0;
    bool ok = st == GA_OK && got && ga_dtype_of(got) == rt && ga_ndim(got) == (keepdims ? nd : nd - naxes) &&
              ga_device_of(got) == ga_darray_shard_device(d, 0);
    CHECK(ok, "%s of %s over mask %u (split %d, keepdims %d, ddof %g): %s", ga_reduction_name(r), dname(t), mask,
          ga_darray_axis(d), keepdims, ddof, st != GA_OK ? ga_last_error_message() : "the result's dtype, ndim or device");
    CHECK(!ok || array_holds(got, rt, nwant, want, tol, scale), "%s of %s over mask %u (split %d, %d shards): values",
          ga_reduction_name(r), dname(t), mask, ga_darray_axis(d), ga_darray_nshards(d));
    ga_release(got);
    free(want);
}

DEVICE_TEST(statistics_over_the_split_axis_against_the_host)
{
    const ga_dtype types[] = {GA_FLOAT64, GA_FLOAT32, GA_FLOAT16, GA_INT32, GA_UINT8, GA_BOOL, GA_COMPLEX64, GA_INT64};
    const ga_reduction reds[] = {GA_REDUCE_MEAN, GA_REDUCE_VAR, GA_REDUCE_STD, GA_REDUCE_NANMEAN, GA_REDUCE_NANVAR,
                                 GA_REDUCE_NANSTD, GA_REDUCE_NANSUM, GA_REDUCE_PTP, GA_REDUCE_ARGMIN,
                                 GA_REDUCE_ARGMAX, GA_REDUCE_NANARGMIN, GA_REDUCE_NANARGMAX};
    const int64_t shape3[3] = {5, 3, 4}, shape1[1] = {13}, shape2[2] = {2, 7};
    const int64_t *shp[3] = {shape3, shape1, shape2};
    const int nds[3] = {3, 1, 2};
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int s = 0; s < 3; s++)
            for (int axis = 0; axis < nds[s]; axis++)
                for (int l = 1; l < NLISTS; l += 2) {
                    const ga_dtype t = types[ti];
                    int devs[8] = {0};
                    const int n = device_list(l, devs);
                    const int64_t size = prod(nds[s], shp[s]);
                    /* the data, and a copy with a NaN in about one element of six (floating dtypes) */
                    unsigned char *x = random_data(t, size), *xn = malloc((size_t)size * isz(t));
                    memcpy(xn, x, (size_t)size * isz(t));
                    for (int64_t i = 0; is_inexact(t) && i < size; i++)
                        if (rnd() % 6 == 0) store(t, NAN, is_complex(t) && (i & 1) ? 0 : NAN, xn + (size_t)i * isz(t));
                    ga_darray *d = ga_darray_from_host(x, nds[s], shp[s], t, axis, n, devs);
                    ga_darray *dn = ga_darray_from_host(xn, nds[s], shp[s], t, axis, n, devs);
                    for (unsigned mask = 1; mask < 1u << nds[s]; mask++) {
                        if (!(mask >> axis & 1)) continue; /* (over the other axes: ga_reduce on each shard) */
                        const bool one = (mask & (mask - 1)) == 0, all = mask == (1u << nds[s]) - 1;
                        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
                            const ga_reduction r = reds[ri];
                            if ((arg_form(r) && !one && !all) || (r == GA_REDUCE_PTP && (t == GA_BOOL || is_complex(t))) ||
                                (is_complex(t) && (r == GA_REDUCE_MEAN || r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANSUM)))
                                continue; /* (complex means are checked by their real parts elsewhere) */
                            const bool nan_data = nan_form(r) || arg_form(r);
                            for (int keep = 0; keep < 2; keep++)
                                check_stat(r, t, nan_data ? xn : x, nan_data ? dn : d, mask, keep, keep ? 1.0 : 0.0);
                        }
                    }
                    ga_reduce_warnings();
                    ga_darray_release(d), ga_darray_release(dn);
                    free(x), free(xn);
                }
}

DEVICE_TEST(variance_of_values_far_from_zero)
{
    /* x = 1e8 + small noise, split unevenly: a sum of squares in float64
       would lose every digit of the variance; the parallel combination
       keeps it */
    const int64_t m = 1001;
    double *x = malloc(sizeof(double) * (size_t)m);
    long double mean = 0, m2 = 0;
    for (int64_t i = 0; i < m; i++) x[i] = 1e8 + (double)(rnd() % 1000) / 1000.0, mean += x[i];
    mean /= m;
    for (int64_t i = 0; i < m; i++) m2 += ((long double)x[i] - mean) * ((long double)x[i] - mean);
    int sizes[3] = {1, 500, 500}; /* shards of 1, 500, 500 elements */
    ga_array *parts[3] = {NULL};
    for (int i = 0, off = 0; i < 3; off += sizes[i], i++) {
        ga_device_push(i % ga_device_count());
        parts[i] = ga_from_host(x + off, 1, (const int64_t[]){sizes[i]}, GA_FLOAT64);
        ga_device_pop();
    }
    ga_darray *d = ga_darray_from_arrays(3, (const ga_array *const *)parts, 0);
    for (int r = 0; r < 2; r++) {
        ga_array *v = ga_darray_reduce_gather(r ? GA_REDUCE_STD : GA_REDUCE_VAR, d, GA_ALL_AXES, false);
        double got = 0;
        const long double want = r ? sqrtl(m2 / m) : m2 / m;
        CHECK(v && ga_to_host(v, &got, sizeof got) == GA_OK && fabsl(got - want) <= 1e-6L * want,
              "%s of 1e8 + noise: %.12g, want %.12Lg", r ? "std" : "var", got, want);
        ga_release(v);
    }
    /* the same bits on every run */
    ga_array *v1 = ga_darray_reduce_gather(GA_REDUCE_VAR, d, GA_ALL_AXES, false);
    ga_array *v2 = ga_darray_reduce_gather(GA_REDUCE_VAR, d, GA_ALL_AXES, false);
    double b1 = 0, b2 = 1;
    CHECK(v1 && v2 && ga_to_host(v1, &b1, 8) == GA_OK && ga_to_host(v2, &b2, 8) == GA_OK && memcmp(&b1, &b2, 8) == 0,
          "deterministic");
    ga_release(v1), ga_release(v2);
    for (int i = 0; i < 3; i++) ga_release(parts[i]);
    ga_darray_release(d);
    free(x);
}

/* where= in its forms, against the host: the mask's host values (C order
   of d's shape) in `mask`. */
static void check_where(ga_reduction r, const ga_darray *d, const float *x, const bool *mask,
                        const ga_darray_operand *w, unsigned axes_mask, const char *form)
{
    const int nd = ga_darray_ndim(d);
    const int64_t *shape = ga_darray_shape(d);
    int axes[2] = {0}, naxes = 0;
    int64_t nwant = 1;
    for (int k = 0; k < nd; k++) {
        if (axes_mask >> k & 1) axes[naxes++] = k;
        else nwant *= shape[k];
    }
    long double want[64] = {0};
    bool allnan = false;
    host_stat(r, GA_FLOAT32, x, mask, nd, shape, axes_mask, 0, want, nwant, &allnan);
    const ga_scalar init = ga_float(-100);
    ga_darray_reduce_options o = {w, r == GA_REDUCE_MAX ? &init : NULL, 0};
    ga_array *got = NULL;
    ga_status st = ga_darray_reduce_gather_into(r, d, naxes, axes, GA_DTYPE_INVALID, &got, false, &o);
    const double scale = r == GA_REDUCE_SUM ? 4.0 * 45 : 16; /* (sums of up to 45 values below 4) */
    CHECK(st == GA_OK && array_holds(got, GA_FLOAT32, nwant, want, 4e-6, scale),
          "%s with where (%s) over mask %u: %s", ga_reduction_name(r), form, axes_mask, ga_last_error_message());
    ga_release(got);
    if (!(axes_mask >> ga_darray_axis(d) & 1)) { /* the split kept: a darray */
        ga_darray *k = NULL;
        CHECK(ga_darray_reduce_into(r, d, naxes, axes, GA_DTYPE_INVALID, &k, false, &o) == GA_OK &&
                  holds_values_scaled(k, GA_FLOAT32, nwant, want, 4e-6, scale),
              "ga_darray_reduce_into %s with where (%s): %s", ga_reduction_name(r), form, ga_last_error_message());
        ga_darray_release(k);
    }
}

DEVICE_TEST(where_dtype_and_out_of_the_reductions)
{
    int devs[8] = {0}, devs2[8] = {0};
    const int n = device_list(2, devs), n2 = device_list(1, devs2), last = ga_device_count() - 1;
    const int64_t shape[2] = {9, 5};
    float x[45];
    bool m[45], row[5], col[9];
    for (int i = 0; i < 45; i++) x[i] = (float)round_double(GA_FLOAT32, rnd_unit() * 8 - 4);
    for (int i = 0; i < 5; i++) row[i] = rnd() % 3 != 0;
    for (int i = 0; i < 9; i++) col[i] = rnd() % 3 != 0;
    for (int i = 0; i < 45; i++) m[i] = rnd() % 3 != 0;
    ga_darray *d = ga_darray_from_host(x, 2, shape, GA_FLOAT32, 0, n, devs);
    /* the mask as a darray split otherwise (re-sharded), as a replicated array, a (1, 5) darray that broadcasts
       along the split axis (gathered), a (5,) replicated array, a (9, 1) darray split alike, and scalars */
    ga_darray *wd = ga_darray_from_host(m, 2, shape, GA_BOOL, 1, n2, devs2);
    ga_darray *wrow = ga_darray_from_host(row, 2, (const int64_t[]){1, 5}, GA_BOOL, 1, n2, devs2);
    ga_darray *wcol = ga_darray_from_host(col, 2, (const int64_t[]){9, 1}, GA_BOOL, 0, n, devs);
    ga_device_push(last);
    ga_array *wa = ga_from_host(m, 2, shape, GA_BOOL), *wr = ga_from_host(row, 1, (const int64_t[]){5}, GA_BOOL);
    ga_device_pop();
    bool mrow[45], mcol[45], mtrue[45], mfalse[45];
    for (int i = 0; i < 45; i++) mrow[i] = row[i % 5], mcol[i] = col[i / 5], mtrue[i] = true, mfalse[i] = false;
    const ga_darray_operand forms[7] = {ga_darray_operand_split(wd), ga_darray_operand_replicated(wa),
                                        ga_darray_operand_split(wrow), ga_darray_operand_replicated(wr),
                                        ga_darray_operand_split(wcol), ga_darray_operand_scalar(ga_bool(true)),
                                        ga_darray_operand_scalar(ga_bool(false))};
    const bool *masks[7] = {m, m, mrow, mrow, mcol, mtrue, mfalse};
    const char *names[7] = {"darray", "array", "broadcast darray", "broadcast array", "column darray", "true", "false"};
    const ga_reduction reds[] = {GA_REDUCE_SUM, GA_REDUCE_MEAN, GA_REDUCE_VAR, GA_REDUCE_STD, GA_REDUCE_MAX,
                                 GA_REDUCE_NANMEAN};
    for (int f = 0; f < 7; f++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++)
            for (unsigned am = 1; am < 4; am++) check_where(reds[ri], d, x, masks[f], &forms[f], am, names[f]);
    ga_reduce_warnings();
    /* dtype=: int8 sums in float64 and int16 (wrapping), float16 means in float64, float32 variances in float64 */
    int8_t i8[45];
    for (int i = 0; i < 45; i++) i8[i] = (int8_t)(rnd() % 256 - 128);
    ga_darray *di = ga_darray_from_host(i8, 2, shape, GA_INT8, 0, n, devs);
    ga_array *s64 = NULL, *s16 = NULL, *v64 = NULL;
    CHECK_OK(ga_darray_reduce_gather_into(GA_REDUCE_SUM, di, GA_ALL_AXES, GA_FLOAT64, &s64, false, NULL));
    CHECK_OK(ga_darray_reduce_gather_into(GA_REDUCE_SUM, di, GA_AXES(0), GA_INT16, &s16, false, NULL));
    CHECK_OK(ga_darray_reduce_gather_into(GA_REDUCE_VAR, d, GA_AXES(0), GA_FLOAT64, &v64, false, NULL));
    long double total = 0, cols[5] = {0}, var[5] = {0};
    bool an = false;
    for (int i = 0; i < 45; i++) total += i8[i], cols[i % 5] += i8[i];
    for (int j = 0; j < 5; j++) cols[j] = (int16_t)(int64_t)cols[j];
    host_stat(GA_REDUCE_VAR, GA_FLOAT32, x, NULL, 2, shape, 1, 0, var, 5, &an);
    CHECK(array_holds(s64, GA_FLOAT64, 1, &total, 0, 0), "int8 sum, dtype float64");
    CHECK(array_holds(s16, GA_INT16, 5, cols, 0, 0), "int8 sum, dtype int16");
    CHECK(array_holds(v64, GA_FLOAT64, 5, var, 1e-13, 16), "float32 var, dtype float64");
    /* out=: on the last device (the result is made there), any dtype (cast), and a darray for the kept split */
    ga_device_push(last);
    ga_array *o64 = ga_zeros(1, (const int64_t[]){5}, GA_FLOAT64), *oi = ga_zeros(1, (const int64_t[]){5}, GA_INT32);
    ga_array *obad = ga_zeros(2, (const int64_t[]){5, 1}, GA_FLOAT64), *of = ga_zeros(0, NULL, GA_FLOAT64);
    ga_device_pop();
    ga_array *o = o64;
    CHECK(ga_darray_reduce_gather_into(GA_REDUCE_VAR, d, GA_AXES(0), GA_DTYPE_INVALID, &o, false, NULL) == GA_OK && o == o64 &&
              array_holds(o64, GA_FLOAT64, 5, var, 4e-6, 16),
          "var into a float64 out on device %d: %s", last, ga_last_error_message());
    long double am[5];
    host_stat(GA_REDUCE_ARGMAX, GA_FLOAT32, x, NULL, 2, shape, 1, 0, am, 5, &an);
    o = oi; /* (an integer out that int64 casts to safely, as ga_reduce's) */
    CHECK(ga_darray_reduce_gather_into(GA_REDUCE_ARGMAX, d, GA_AXES(0), GA_DTYPE_INVALID, &o, false, NULL) == GA_OK &&
              array_holds(oi, GA_INT32, 5, am, 0, 0),
          "argmax into an int32 out: %s", ga_last_error_message());
    o = obad;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_AXES(0), GA_DTYPE_INVALID, &o, false, NULL) != GA_OK,
                GA_ERROR_SHAPE, "output parameter for reduction operation add has the wrong number of dimensions: Found 2 but expected 1");
    o = of;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_ARGMIN, d, GA_ALL_AXES, GA_DTYPE_INVALID, &o, false, NULL) != GA_OK,
                GA_ERROR_TYPE, "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
    ga_darray *kept = ga_darray_reduce(GA_REDUCE_SUM, d, GA_AXES(1), false), *k2 = kept;
    long double rowmax[9];
    host_stat(GA_REDUCE_MAX, GA_FLOAT32, x, NULL, 2, shape, 2, 0, rowmax, 9, &an);
    CHECK(ga_darray_reduce_into(GA_REDUCE_MAX, d, GA_AXES(-1), GA_DTYPE_INVALID, &k2, false, NULL) == GA_OK && k2 == kept &&
              holds_values(kept, GA_FLOAT32, 9, rowmax, 0),
          "max into a darray out: %s", ga_last_error_message());
    ga_darray *other = ga_darray_reshard(kept, 0, n2, devs2);
    k2 = other;
    CHECK_ERROR(ga_darray_reduce_into(GA_REDUCE_MAX, d, GA_AXES(1), GA_DTYPE_INVALID, &k2, false, NULL) != GA_OK,
                GA_ERROR_SHAPE, "out is not split as the result");
    k2 = NULL;
    CHECK_ERROR(ga_darray_reduce_into(GA_REDUCE_MAX, d, GA_AXES(0), GA_DTYPE_INVALID, &k2, false, NULL) != GA_OK,
                GA_ERROR_AXIS, "the axes include the split axis 0");
    /* NumPy's errors of the arguments */
    ga_darray *dint = ga_darray_from_host(i8, 2, shape, GA_INT8, 0, n, devs);
    const ga_darray_operand wint = ga_darray_operand_split(dint), wbig = ga_darray_operand_replicated(obad);
    const ga_darray_operand wtrue = ga_darray_operand_scalar(ga_bool(true)), wone = ga_darray_operand_scalar(ga_int(1));
    const ga_scalar init = ga_int(0);
    ga_darray_reduce_options bad = {&wint, NULL, 0};
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_ALL_AXES, GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_TYPE, "Cannot cast array data from dtype('int8') to dtype('bool') according to the rule 'safe'");
    bad.where = &wone;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_ALL_AXES, GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_TYPE, "Cannot cast scalar from dtype('int64') to dtype('bool')");
    const ga_darray_operand wrep = ga_darray_operand_replicated(wa);
    bad.where = &wrep;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_MIN, d, GA_ALL_AXES, GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_VALUE, "reduction operation 'minimum' does not have an identity, so to use a where mask one has to specify 'initial'");
    bad.where = &wtrue; /* (even where=True: NumPy's argmin has no where) */
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_ARGMIN, d, GA_AXES(0), GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_VALUE, "argmin takes no where mask");
    ga_array *wb = ga_zeros(2, (const int64_t[]){5, 1}, GA_BOOL);
    const ga_darray_operand wbadshape = ga_darray_operand_replicated(wb);
    (void)wbig;
    bad.where = &wbadshape;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_ALL_AXES, GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_SHAPE, "operands could not be broadcast together with shapes (9,5) (5,1)");
    bad.where = NULL, bad.initial = &init;
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_MEAN, d, GA_ALL_AXES, GA_DTYPE_INVALID, &(ga_array *){NULL}, false, &bad) != GA_OK,
                GA_ERROR_VALUE, "mean takes no initial value");
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_MAX, d, GA_ALL_AXES, GA_FLOAT64, &(ga_array *){NULL}, false, NULL) != GA_OK,
                GA_ERROR_TYPE, "max takes no dtype");
    CHECK_ERROR(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_ALL_AXES, GA_FLOAT64, NULL, false, NULL) != GA_OK,
                GA_ERROR_NULL_INPUT, "out is NULL");
    bool bx[4] = {true, false, true, true};
    ga_darray *db = ga_darray_from_host(bx, 1, (const int64_t[]){4}, GA_BOOL, 0, n, devs);
    CHECK_ERROR(!ga_darray_reduce_gather(GA_REDUCE_PTP, db, GA_ALL_AXES, false), GA_ERROR_TYPE, "numpy boolean subtract");
    /* sum with initial over the split axis: initial counted once */
    ga_array *si = NULL;
    const ga_scalar ten = ga_float(10);
    ga_darray_reduce_options oi10 = {NULL, &ten, 0};
    long double colsum[5] = {10, 10, 10, 10, 10};
    for (int i = 0; i < 45; i++) colsum[i % 5] += x[i];
    CHECK(ga_darray_reduce_gather_into(GA_REDUCE_SUM, d, GA_AXES(0), GA_DTYPE_INVALID, &si, false, &oi10) == GA_OK &&
              array_holds(si, GA_FLOAT32, 5, colsum, 4e-6, 40),
          "sum with initial=10 over the split axis: %s", ga_last_error_message());
    ga_release(si), ga_release(wb);
    ga_darray_release(db), ga_darray_release(dint), ga_darray_release(other), ga_darray_release(kept);
    ga_release(o64), ga_release(oi), ga_release(obad), ga_release(of);
    ga_release(s64), ga_release(s16), ga_release(v64);
    ga_release(wa), ga_release(wr);
    ga_darray_release(wd), ga_darray_release(wrow), ga_darray_release(wcol), ga_darray_release(di), ga_darray_release(d);
}

DEVICE_TEST(split_operand_broadcast_along_the_split_axis)
{
    const int64_t shape[2] = {6, 4};
    float a[24], c[4], col[6];
    for (int i = 0; i < 24; i++) a[i] = (float)(rnd() % 100);
    for (int i = 0; i < 4; i++) c[i] = (float)(rnd() % 100);
    for (int i = 0; i < 6; i++) col[i] = (float)(rnd() % 100);
    for (int l = 0; l < NLISTS; l++) {
        int devs[8] = {0}, devs2[8] = {0};
        const int n = device_list(l, devs), n2 = device_list((l + 1) % NLISTS, devs2);
        ga_darray *da = ga_darray_from_host(a, 2, shape, GA_FLOAT32, 0, n, devs);
        /* c of shape (1, 4) split along axis 0 (broadcast along the split axis) and along axis 1; c of shape (4,) */
        ga_darray *c0 = ga_darray_from_host(c, 2, (const int64_t[]){1, 4}, GA_FLOAT32, 0, n2, devs2);
        ga_darray *c1 = ga_darray_from_host(c, 2, (const int64_t[]){1, 4}, GA_FLOAT32, 1, n2, devs2);
        ga_darray *c_ = ga_darray_from_host(c, 1, (const int64_t[]){4}, GA_FLOAT32, 0, n2, devs2);
        ga_darray *cc = ga_darray_from_host(col, 2, (const int64_t[]){6, 1}, GA_FLOAT32, 0, n, devs);
        long double want[24], wcol[24];
        for (int i = 0; i < 24; i++) want[i] = (long double)a[i] + c[i % 4], wcol[i] = (long double)a[i] * col[i / 4];
        const ga_darray *cs[3] = {c0, c1, c_};
        for (int k = 0; k < 3; k++)
            for (int order = 0; order < 2; order++) {
                ga_darray *s = order ? ga_darray_add(cs[k], da) : ga_darray_add(da, cs[k]);
                /* the lead: the first darray whose split axis spans the result (c1 and c_ lead along axis 1 when first) */
                const int axis = order && k > 0 ? 1 : 0;
                CHECK(s && ga_darray_axis(s) == axis && ga_darray_nshards(s) == (axis ? n2 : n) &&
                          holds_values(s, GA_FLOAT32, 24, want, 0),
                      "list %d: c%d + a (order %d): %s", l, k, order, ga_last_error_message());
                ga_darray_release(s);
            }
        /* a (6, 1) column split alike broadcasts along axis 1 (not the split axis): shard by shard */
        ga_darray *p = ga_darray_multiply(da, cc);
        CHECK(p && holds_values(p, GA_FLOAT32, 24, wcol, 0), "list %d: a * column: %s", l, ga_last_error_message());
        ga_darray_release(p);
        /* three inputs: where(c0 > 50, a, c_) with c0 broadcast */
        ga_darray *cond = NULL;
        ga_darray *outs[2] = {NULL, NULL};
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_GREATER, (ga_darray_operand[]){ga_darray_operand_split(c0),
                                                                          ga_darray_operand_scalar(ga_int(50))},
                                 outs));
        cond = outs[0], outs[0] = NULL;
        CHECK_OK(ga_darray_ufunc(GA_UFUNC_WHERE, (ga_darray_operand[]){ga_darray_operand_split(cond),
                                                                        ga_darray_operand_split(da),
                                                                        ga_darray_operand_split(c_)},
                                 outs));
        for (int i = 0; i < 24; i++) want[i] = c[i % 4] > 50 ? a[i] : c[i % 4];
        CHECK(outs[0] && ga_darray_axis(outs[0]) == 0 && holds_values(outs[0], GA_FLOAT32, 24, want, 0),
              "list %d: where(c > 50, a, c): %s", l, ga_last_error_message());
        ga_darray_release(outs[0]), ga_darray_release(cond);
        ga_darray_release(da), ga_darray_release(c0), ga_darray_release(c1), ga_darray_release(c_), ga_darray_release(cc);
    }
    /* every darray broadcasting along its split axis: refused */
    int devs[8] = {0};
    const int n = device_list(1, devs);
    ga_darray *c0 = ga_darray_from_host(c, 2, (const int64_t[]){1, 4}, GA_FLOAT32, 0, n, devs);
    ga_array *r = ga_zeros(2, (const int64_t[]){3, 4}, GA_FLOAT32);
    ga_darray *outs[2] = {NULL, NULL};
    CHECK_ERROR(ga_darray_ufunc(GA_UFUNC_ADD, (ga_darray_operand[]){ga_darray_operand_split(c0),
                                                                     ga_darray_operand_replicated(r)},
                                outs) != GA_OK,
                GA_ERROR_SHAPE, "the split axis (length 1) cannot be broadcast to 3");
    ga_release(r);
    ga_darray_release(c0);
}
