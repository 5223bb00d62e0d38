/* Device tests of the order statistics (gpuarr.h, >>reduce):
   ga_quantile, ga_percentile, ga_median and their nan forms.

   Every dtype NumPy takes (bool where NumPy allows it), every method, q
   scalar and 1-d, over no axis, one axis, several axes and all of them,
   with and without keepdims, on C-contiguous and transposed inputs, odd and
   even lengths, empty slices and empty results, with duplicates, NaN (also
   slices of NaN only) and infinities. The host reference follows NumPy's
   2 code (numpy/lib/_function_base_impl.py: _quantile, _get_indexes,
   _lerp, the methods' virtual indices) with every operation rounded to the
   dtype NumPy computes it in, so results must agree to a few ulps (the
   picking methods exactly). Error paths carry NumPy's messages.
   GPUARR_TEST_SEED=<seed> repeats a run. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <float.h>
#include <math.h>

/* ------------------------------------------------------------------------ */
/* Elements on the host                                                       */
/* ------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* Random values with many duplicates; floats with NaN (about 1 in 10),
   infinities and -0.0. */
static uint64_t stat_integer(ga_dtype t, const fill_spec *s)
{
    (void)s;
    uint64_t r = rnd();
    if (t == GA_BOOL) return r;
    if (t == GA_UINT64) return r % 40;
    if (t == GA_INT8) return (uint64_t)(int64_t)((int)(r % 200) - 100);
    return (uint64_t)((int64_t)(r % 2001) - 1000);
}
static const ref_mix STAT_MIX = {.classes = 40, .nan = 4, .neg_zero = 1, .inf = 1, .small = 14, .small_count = 21,
                                 .small_offset = 10, .span = 200};
static const fill_spec STAT_VALUES = {.integer = stat_integer, .mix = &STAT_MIX};

/* ------------------------------------------------------------------------ */
/* NumPy's quantile of one slice                                              */
/* ------------------------------------------------------------------------ */

static const char *method_names[] = {"linear",
                                     "lower",
                                     "higher",
                                     "nearest",
                                     "midpoint",
                                     "inverted_cdf",
                                     "averaged_inverted_cdf",
                                     "closest_observation",
                                     "interpolated_inverted_cdf",
                                     "hazen",
                                     "weibull",
                                     "median_unbiased",
                                     "normal_unbiased"};

static bool picks(ga_quantile_method m)
{
    return m == GA_QUANTILE_LOWER || m == GA_QUANTILE_HIGHER || m == GA_QUANTILE_NEAREST ||
           m == GA_QUANTILE_INVERTED_CDF || m == GA_QUANTILE_CLOSEST_OBSERVATION;
}

/* Python's floor modulo by 2 of an integral double. */
static double pymod2(double x)
{
    double r = fmod(x, 2);
    return r < 0 ? r + 2 : r;
}

/* The q-th quantile of x[0..c-1] (sorted, no NaN, c > 0) as NumPy 2
   computes it for a Python float q: virtual index and gamma in float64,
   the interpolation in dtype w with gamma and 1 - gamma converted to it.
   *lo_out, *hi_out: the neighbours (for the tolerance). */
static double ref_quantile(const double *x, int64_t c, double q, ga_quantile_method m, ga_dtype w, double *lo_out,
                           double *hi_out)
{
    double cd = (double)c, cm1 = (double)(c - 1);
    if (picks(m)) {
        double idx;
        if (m == GA_QUANTILE_LOWER) idx = floor(cm1 * q);
        else if (m == GA_QUANTILE_HIGHER) idx = ceil(cm1 * q);
        else if (m == GA_QUANTILE_NEAREST) idx = nearbyint(cm1 * q);
        else {
            double index = cd * q - 1;
            if (m == GA_QUANTILE_CLOSEST_OBSERVATION) index = index - 0.5;
            double prev = floor(index);
            bool cond = index - prev == 0;
            if (m == GA_QUANTILE_CLOSEST_OBSERVATION) cond = cond && pymod2(prev) == 1;
            idx = cond ? prev : prev + 1;
        }
        int64_t i = (int64_t)idx;
        if (i > c - 1) i = c - 1;
        if (i < 0) i = 0;
        *lo_out = *hi_out = x[i];
        return x[i];
    }
    double v, alpha = 0, beta = 0;
    bool continuous = true;
    switch (m) {
    case GA_QUANTILE_INTERPOLATED_INVERTED_CDF: alpha = 0, beta = 1; break;
    case GA_QUANTILE_HAZEN: alpha = 0.5, beta = 0.5; break;
    case GA_QUANTILE_WEIBULL: alpha = 0, beta = 0; break;
    case GA_QUANTILE_MEDIAN_UNBIASED: alpha = 1 / 3.0, beta = 1 / 3.0; break;
    case GA_QUANTILE_NORMAL_UNBIASED: alpha = 3 / 8.0, beta = 3 / 8.0; break;
    default: continuous = false; break;
    }
    if (continuous) v = cd * q + (alpha + q * (1 - alpha - beta)) - 1;
    else if (m == GA_QUANTILE_AVERAGED_INVERTED_CDF) v = cd * q - 1;
    else if (m == GA_QUANTILE_MIDPOINT) v = 0.5 * (floor(cm1 * q) + ceil(cm1 * q));
    else v = cm1 * q;
    double prev = floor(v);
    int64_t pi = (int64_t)prev, ni = pi + 1;
    if (v >= cm1) pi = ni = c - 1;
    if (v < 0) pi = ni = 0;
    double g = v - prev;
    if (m == GA_QUANTILE_MIDPOINT) g = fmod(v, 1) == 0 ? 0 : 0.5;
    else if (m == GA_QUANTILE_AVERAGED_INVERTED_CDF) g = g == 0 ? 0.5 : 1;
    double lo = round_double(w, x[pi]), hi = round_double(w, x[ni]);
    *lo_out = lo, *hi_out = hi;
    double d = round_double(w, hi - lo);
    if (g >= 0.5) return round_double(w, hi - round_double(w, d * round_double(w, 1 - g)));
    return round_double(w, lo + round_double(w, d * round_double(w, g)));
}

/* NumPy's median of x[0..c-1] (sorted, no NaN, c > 0) in mean's dtype. */
static double ref_median(const double *x, int64_t c, ga_dtype t)
{
    if (c % 2) return x[c / 2];
    double lo = x[c / 2 - 1], hi = x[c / 2];
    switch (t) {
    case GA_FLOAT16: case GA_BFLOAT16: case GA_FLOAT32: return round_double(t, (double)((float)lo + (float)hi) / 2);
    default: return (lo + hi) / 2;
    }
}

/* ------------------------------------------------------------------------ */
/* One case                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct stat_case {
    int ndim;
    int64_t shape[3];
    int naxes; /* 0: every axis */
    int axes[3];
    bool transposed;
    bool keepdims;
} stat_case;

typedef enum stat_kind { QUANTILE, PERCENTILE, MEDIAN } stat_kind;

/* Uploads `logical` (C order over c->shape), F-contiguous when c says
   transposed. NULL on failure. */
static ga_array *upload(const stat_case *c, const void *logical, ga_dtype t)
{
    if (!c->transposed || c->ndim < 2) return ga_from_host(logical, c->ndim, c->shape, t);
    return upload_transposed(logical, c->ndim, c->shape, t);
}

static void check_stat_case(const stat_case *c, ga_dtype t, stat_kind kind, bool nan_form, int nq, const double *q,
                            ga_quantile_method m, bool all_nan_lane)
{
    char what[300];
    int k0 = snprintf(what, sizeof what, "%s%s %s shape (", nan_form ? "nan" : "",
                      kind == QUANTILE ? "quantile" : kind == PERCENTILE ? "percentile" : "median", ga_dtype_name(t));
    for (int d = 0; d < c->ndim; d++) k0 += snprintf(what + k0, sizeof what - (size_t)k0, "%lld,", (long long)c->shape[d]);
    k0 += snprintf(what + k0, sizeof what - (size_t)k0, ") axes");
    if (c->naxes == 0) k0 += snprintf(what + k0, sizeof what - (size_t)k0, " None");
    for (int i = 0; i < c->naxes; i++) k0 += snprintf(what + k0, sizeof what - (size_t)k0, " %d", c->axes[i]);
    snprintf(what + k0, sizeof what - (size_t)k0, "%s%s%s nq %d %s", c->transposed ? " transposed" : "",
             c->keepdims ? " keepdims" : "", all_nan_lane ? " NaN lane" : "", nq,
             kind == MEDIAN ? "" : method_names[m]);
    int64_t n = 1;
    for (int d = 0; d < c->ndim; d++) n *= c->shape[d];
    size_t sz = ga_dtype_itemsize(t);
    unsigned char *h = malloc((size_t)(n ? n : 1) * sz);
    bool reduced[3] = {c->naxes == 0, c->naxes == 0, c->naxes == 0};
    for (int i = 0; i < c->naxes; i++) reduced[c->axes[i] < 0 ? c->axes[i] + c->ndim : c->axes[i]] = true;
    fill_random(h, n, t, &STAT_VALUES);
    /* the first slice (kept index 0) all NaN */
    int64_t idx[3];
    if (all_nan_lane && ga_dtype_kind(t) == 'f')
        for (int64_t i = 0; i < n; i++) {
            int64_t r = i;
            bool first = true;
            for (int d = c->ndim - 1; d >= 0; d--) {
                idx[d] = r % c->shape[d], r /= c->shape[d];
                if (!reduced[d] && idx[d] != 0) first = false;
            }
            if (first) store(t, NAN, 0, h + (size_t)i * sz);
        }
    ga_array *a = upload(c, h, t);
    double qs[8];
    int count = nq < 0 ? 1 : nq;
    for (int i = 0; kind != MEDIAN && i < count; i++) qs[i] = kind == PERCENTILE ? q[i] * 100 : q[i];
    ga_array *r;
    const int *axes = c->naxes ? c->axes : NULL;
    if (kind == MEDIAN) r = nan_form ? ga_nanmedian(a, c->naxes, axes, c->keepdims) : ga_median(a, c->naxes, axes, c->keepdims);
    else if (kind == QUANTILE)
        r = nan_form ? ga_nanquantile(a, nq, qs, c->naxes, axes, m, c->keepdims)
                     : ga_quantile(a, nq, qs, c->naxes, axes, m, c->keepdims);
    else
        r = nan_form ? ga_nanpercentile(a, nq, qs, c->naxes, axes, m, c->keepdims)
                     : ga_percentile(a, nq, qs, c->naxes, axes, m, c->keepdims);
    /* the expected shape and dtype */
    ga_dtype w = is_inexact(t) ? t : GA_FLOAT64;
    ga_dtype rd = kind != MEDIAN && picks(m) ? t : w;
    int64_t k = 1, rows = 1, want_shape[4];
    int want_ndim = 0;
    /* the nan forms of an empty array are NumPy's nanmean of it: no q axis */
    const bool nanmean_of_empty = nan_form && n == 0;
    if (kind != MEDIAN && nq >= 0 && !nanmean_of_empty) want_shape[want_ndim++] = nq;
    if (nanmean_of_empty) count = 1;
    for (int d = 0; d < c->ndim; d++) {
        if (reduced[d]) {
            k *= c->shape[d];
            if (c->keepdims) want_shape[want_ndim++] = 1;
        } else {
            rows *= c->shape[d];
            want_shape[want_ndim++] = c->shape[d];
        }
    }
    if (k == 0 || nanmean_of_empty) rd = w; /* NumPy's mean / nanmean of an empty slice */
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        bool shape_ok = ga_ndim(r) == want_ndim && ga_dtype_of(r) == rd;
        for (int d = 0; shape_ok && d < want_ndim; d++) shape_ok = ga_shape(r)[d] == want_shape[d];
        CHECK(shape_ok, "%s: dtype %s ndim %d, want %s ndim %d", what, ga_dtype_name(ga_dtype_of(r)), ga_ndim(r),
              ga_dtype_name(rd), want_ndim);
        size_t rsz = ga_dtype_itemsize(rd);
        int64_t rn = (int64_t)count * rows;
        unsigned char *got = malloc((size_t)(rn ? rn : 1) * rsz);
        double *lane = malloc(sizeof(double) * (size_t)(k ? k : 1));
        if (shape_ok) CHECK_OK(ga_to_host(r, got, (size_t)rn * rsz));
        int bad = 0;
        /* kept index j in C order over the kept dims; reduced in C order */
        for (int64_t j = 0; shape_ok && j < rows; j++) {
            int64_t kidx[3] = {0, 0, 0}, rem = j;
            for (int d = c->ndim - 1; d >= 0; d--)
                if (!reduced[d]) kidx[d] = rem % c->shape[d], rem /= c->shape[d];
            int64_t cnt = 0;
            bool has_nan = false;
            for (int64_t e = 0; e < k; e++) {
                int64_t ridx[3], re = e, off = 0;
                for (int d = c->ndim - 1; d >= 0; d--)
                    if (reduced[d]) ridx[d] = re % c->shape[d], re /= c->shape[d];
                for (int d = 0; d < c->ndim; d++) off = off * c->shape[d] + (reduced[d] ? ridx[d] : kidx[d]);
                double x = (double)value_at(t, h, off);
                if (isnan(x)) has_nan = true;
                else lane[cnt++] = x;
            }
            qsort(lane, (size_t)cnt, sizeof *lane, cmp_double);
            for (int qi = 0; qi < count; qi++) {
                double want, lo = 0, hi = 0;
                if ((has_nan && !nan_form) || cnt == 0) want = NAN;
                else if (kind == MEDIAN) want = ref_median(lane, cnt, t), lo = hi = want;
                else want = ref_quantile(lane, cnt, kind == PERCENTILE ? qs[qi] / 100 : q[qi], m, w, &lo, &hi);
                double g = (double)value_at(rd, got, (int64_t)qi * rows + j);
                bool ok;
                if (isnan(want)) ok = isnan(g);
                else if (kind != MEDIAN && picks(m)) ok = g == want;
                else {
                    double eps = rd == GA_FLOAT16 ? 9.8e-4 : rd == GA_BFLOAT16 ? 7.9e-3 : rd == GA_FLOAT32 ? FLT_EPSILON
                                                                                                         : DBL_EPSILON;
                    double scale = fabs(want) + fabs(lo) + fabs(hi);
                    ok = g == want || (isinf(want) ? false : fabs(g - want) <= 2 * eps * scale);
                }
                if (!ok && bad++ < 3)
                    CHECK(0, "%s: slice %lld q[%d] = %.17g: got %.17g, want %.17g", what, (long long)j, qi,
                          kind == MEDIAN ? 0.5 : q[qi], g, want);
            }
        }
        CHECK(bad == 0, "%s: %d wrong results", what, bad);
        free(got);
        free(lane);
    }
    ga_release(a);
    ga_release(r);
    free(h);
}

static const stat_case cases[] = {
    {1, {1}, 0, {0}, false, false},           {1, {31}, 0, {0}, false, true},
    {1, {1024}, 1, {0}, false, false},        {1, {1025}, 1, {-1}, false, false},
    {2, {33, 64}, 1, {1}, true, false},       {2, {33, 65}, 1, {0}, false, true},
    {2, {33, 65}, 0, {0}, true, false},       {3, {4, 7, 30}, 2, {0, 2}, true, true},
    {3, {4, 7, 30}, 2, {-1, 1}, false, false}, {3, {5, 3, 300}, 1, {2}, false, false},
    {2, {0, 5}, 1, {1}, false, false},        {0, {0}, 0, {0}, false, false},
};

static const double q_list[6] = {0, 0.25, 0.3, 0.5, 0.999, 1};
static const double q_half = 0.5;

static void stat_cases_for(ga_dtype t)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const stat_case *c = &cases[i];
        bool lane = i % 3 == 1;
        check_stat_case(c, t, MEDIAN, false, GA_Q_SCALAR, NULL, GA_QUANTILE_LINEAR, lane);
        check_stat_case(c, t, MEDIAN, true, GA_Q_SCALAR, NULL, GA_QUANTILE_LINEAR, lane);
        for (int m = GA_QUANTILE_LINEAR; m <= GA_QUANTILE_NORMAL_UNBIASED; m++) {
            if (t == GA_BOOL && !picks((ga_quantile_method)m)) continue;
            if (!test_sample((int64_t)i * 16 + m, 4)) continue;
            check_stat_case(c, t, QUANTILE, false, 6, q_list, (ga_quantile_method)m, lane);
            check_stat_case(c, t, QUANTILE, true, 6, q_list, (ga_quantile_method)m, lane);
        }
        if (t == GA_BOOL) continue;
        check_stat_case(c, t, QUANTILE, false, GA_Q_SCALAR, &q_half, GA_QUANTILE_LINEAR, lane);
        check_stat_case(c, t, PERCENTILE, false, 6, q_list, GA_QUANTILE_LINEAR, lane);
        check_stat_case(c, t, PERCENTILE, true, GA_Q_SCALAR, &q_list[2], GA_QUANTILE_HAZEN, lane);
    }
}

#define STAT_TEST(name, dtype)  \
    DEVICE_TEST(order_stats_##name) \
    {                           \
        stat_cases_for(dtype);  \
    }
STAT_TEST(bool, GA_BOOL)
STAT_TEST(int8, GA_INT8)
STAT_TEST(int32, GA_INT32)
STAT_TEST(uint64, GA_UINT64)
STAT_TEST(float16, GA_FLOAT16)
STAT_TEST(bfloat16, GA_BFLOAT16)
STAT_TEST(float32, GA_FLOAT32)
STAT_TEST(float64, GA_FLOAT64)

/* Empty slices: median and the nan forms give NaN, quantile fails as
   NumPy's take(-1) does; an empty result has the right shape. */
DEVICE_TEST(order_stats_empty)
{
    ga_array *e = ga_zeros(GA_SHAPE(3, 0), GA_INT32);
    static const int ax1[1] = {1};
    ga_array *m = ga_median(e, 1, ax1, false), *nq = ga_nanquantile(e, 1, &q_half, 1, ax1, GA_QUANTILE_LOWER, true);
    CHECK(m && ga_dtype_of(m) == GA_FLOAT64 && ga_ndim(m) == 1 && ga_size(m) == 3, "median of (3,0) axis 1: %s",
          ga_last_error_message());
    /* NumPy's nanmean of an empty array: (3, 1), no q axis */
    CHECK(nq && ga_dtype_of(nq) == GA_FLOAT64 && ga_ndim(nq) == 2 && ga_size(nq) == 3,
          "nanquantile of (3,0) axis 1 keepdims: %s", nq ? "wrong shape" : ga_last_error_message());
    double got[3] = {0, 0, 0};
    if (m) {
        CHECK_OK(ga_to_host(m, got, sizeof got));
        CHECK(isnan(got[0]) && isnan(got[2]), "median of empty slices: %g", got[0]);
    }
    CHECK_ERROR(ga_quantile(e, GA_Q_SCALAR, &q_half, 1, ax1, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_INDEX,
                "ga_quantile: index -1 is out of bounds for axis 0 with size 0");
    ga_array *e2 = ga_zeros(GA_SHAPE(0, 4), GA_FLOAT32);
    ga_array *r = ga_quantile(e2, 6, q_list, 1, ax1, GA_QUANTILE_LINEAR, false);
    CHECK(r && ga_ndim(r) == 2 && ga_shape(r)[0] == 6 && ga_shape(r)[1] == 0 && ga_dtype_of(r) == GA_FLOAT32,
          "quantile of (0,4) axis 1: shape (6,0) float32: %s", ga_last_error_message());
    ga_release(e), ga_release(m), ga_release(nq), ga_release(e2), ga_release(r);
}

/* Infinities: NumPy's _lerp gives NaN between equal infinities (inf - inf),
   median the mean. */
DEVICE_TEST(order_stats_infinities)
{
    double h[2] = {1, INFINITY}, q1 = 1, got = 0;
    ga_array *a = ga_from_host(h, GA_SHAPE(2), GA_FLOAT64);
    ga_array *r = ga_quantile(a, GA_Q_SCALAR, &q1, 0, NULL, GA_QUANTILE_LINEAR, false), *m = ga_median(a, 0, NULL, false);
    CHECK(r && m, "%s", ga_last_error_message());
    if (r && m) {
        CHECK_OK(ga_to_host(r, &got, 8));
        CHECK(isnan(got), "quantile([1, inf], 1) = %g, NumPy's nan", got);
        CHECK_OK(ga_to_host(m, &got, 8));
        CHECK(isinf(got) && got > 0, "median([1, inf]) = %g, want inf", got);
    }
    ga_release(a), ga_release(r), ga_release(m);
}

/* Complex median: the mean of the middle elements in NumPy's complex
   order; a NaN slice gives its last element. */
DEVICE_TEST(order_stats_complex_median)
{
    float h[2 * 4] = {3, 1, 1, 5, 1, -2, 2, 0}; /* 3+1j, 1+5j, 1-2j, 2+0j -> sorted 1-2j 1+5j 2 3+1j */
    ga_array *a = ga_from_host(h, GA_SHAPE(4), GA_COMPLEX64);
    ga_array *m = ga_median(a, 0, NULL, false);
    float got[2] = {0, 0};
    CHECK(m && ga_dtype_of(m) == GA_COMPLEX64, "%s", ga_last_error_message());
    if (m) {
        CHECK_OK(ga_to_host(m, got, sizeof got));
        CHECK(got[0] == 1.5f && got[1] == 2.5f, "median = %g%+gj, want 1.5+2.5j", got[0], got[1]);
    }
    CHECK_ERROR(ga_quantile(a, GA_Q_SCALAR, &q_half, 0, NULL, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_TYPE,
                "ga_quantile: a must be an array of real numbers");
    ga_release(a), ga_release(m);
}

DEVICE_TEST(order_stats_errors)
{
    ga_array *a = ga_zeros(GA_SHAPE(3, 4), GA_FLOAT32), *b = ga_zeros(GA_SHAPE(3), GA_BOOL);
    double bad[3] = {-0.1, 1.5, NAN}, p150 = 150;
    for (int i = 0; i < 3; i++)
        CHECK_ERROR(ga_quantile(a, 1, &bad[i], 0, NULL, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_VALUE,
                    "ga_quantile: Quantiles must be in the range [0, 1]");
    CHECK_ERROR(ga_nanpercentile(a, GA_Q_SCALAR, &p150, 0, NULL, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_VALUE,
                "ga_nanpercentile: Percentiles must be in the range [0, 100]");
    CHECK_ERROR(ga_quantile(b, GA_Q_SCALAR, &q_half, 0, NULL, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_TYPE,
                "ga_quantile: numpy boolean subtract, the `-` operator, is not supported");
    ga_array *ok = ga_quantile(b, GA_Q_SCALAR, &q_half, 0, NULL, GA_QUANTILE_LOWER, false);
    CHECK(ok && ga_dtype_of(ok) == GA_BOOL, "quantile of bool, method lower: bool");
    ga_release(ok);
    CHECK_ERROR(ga_quantile(a, GA_Q_SCALAR, &q_half, 0, NULL, (ga_quantile_method)99, false) == NULL, GA_ERROR_VALUE,
                "ga_quantile: invalid quantile method 99");
    static const int ax2[1] = {2}, dup[2] = {0, -2};
    CHECK_ERROR(ga_median(a, 1, ax2, false) == NULL, GA_ERROR_AXIS,
                "ga_median: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(ga_nanmedian(a, 2, dup, false) == NULL, GA_ERROR_VALUE, "ga_nanmedian: duplicate value in 'axis'");
    CHECK_ERROR(ga_quantile(a, 1, NULL, 0, NULL, GA_QUANTILE_LINEAR, false) == NULL, GA_ERROR_NULL_INPUT,
                "ga_quantile: q is NULL");
    CHECK_ERROR(ga_median(NULL, 0, NULL, false) == NULL, GA_ERROR_NULL_INPUT, "ga_median: a is NULL");
    ga_release(a), ga_release(b);
}
