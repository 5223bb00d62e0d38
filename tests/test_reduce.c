/* Device tests of the reductions and statistics (gpuarr.h, >>reduce).

   Every reduction of GA_REDUCTION_LIST gets a test of its own, which runs it
   for every dtype over a list of cases -- sizes 1, 31, 33, 1023, 1025,
   3000, 70000, 300000 and 2^20 + 7 (one case each), axis None, one axis,
   negative axes, tuples of axes, keepdims, 0-d and empty arrays -- each in
   a layout: C-contiguous, transposed (every axis reversed in memory),
   reversed (negative strides), every other element, or broadcast (a zero
   stride) -- on fresh random data with NaN, infinities and -0.0 mixed in,
   and compares every result with a host reference:

   - integers, bool, min / max / ptp, argmin / argmax, count_nonzero, all
     and any exactly (integer sums and products wrap in 64 bits and then to
     the result's width, as NumPy's int64 / uint64 accumulators do);
   - floating sums, products and means with the exact sum (long double)
     within 64 eps of the accumulator (float32 for float16, bfloat16 and
     float32; float64) times the sum of magnitudes (products: times n and
     the product's magnitude), plus one ulp of the result's dtype: the
     blocked sums run at most 64 additions per accumulator before their
     trees; a separate case of integer-valued floats checks that sums are
     exact when every partial sum is representable;
   - var / std against a two-pass long double reference within 128 eps of
     the accumulator times sum((|x| + |mean|)^2) / dof (std: the
     propagated bound), plus one ulp;
   - NaN, infinities and their signs exactly (any NaN for a NaN).

   Then dtype=, out= (strided, another dtype, keepdims, overlapping the
   input), where= and initial=, the warnings, determinism (two runs, the
   same bits), the exact sum of 2^28 float32 ones, average, cov, corrcoef,
   the errors with NumPy's messages, and min / max / argmin / argmax with
   their extremes, ties, NaN and signed zeros placed around the vector
   boundaries of rows of every alignment. Host tests check the names and
   that every kernel the dispatcher can ask for is built.

   Random data is seeded from the time; GPUARR_TEST_SEED=<seed> repeats a
   run (each test draws from the seed and its own name). */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include <float.h>
#include <math.h>

/* ======================================================================== */
/* Random numbers and failures                                               */
/* ======================================================================== */



/* A failed check (the harness adds the seed that repeats the random data). */
#define FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)

/* ======================================================================== */
/* Dtypes and elements (the rest in tests/ref.h)                             */
/* ======================================================================== */

/* eps of the dtype a reduction of t accumulates in */
static long double acc_eps(ga_dtype t)
{
    return part_of(t) == GA_FLOAT64 || is_exact(t) ? ldexpl(1, -53) : ldexpl(1, -24);
}

static double special(void)
{
    switch (rnd() % 5) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -0.0;
    default: return 0.0;
    }
}

enum domain {
    D_ANY,      /* ints: any bits; floats in [-10, 10] with 1/64 special values */
    D_FINITE,   /* as D_ANY without special values */
    D_INTEGRAL, /* floats: integers in [-8, 8] */
    D_NEAR1,    /* floats in [0.9, 1.1] (complex: with small imaginary parts); ints any */
    D_NANS,     /* floats in [-10, 10], a quarter NaN */
    D_NEAR1_NANS /* D_NEAR1, a quarter NaN */
};

/* A floating element for fill_random: re and im (its parts, or re alone)
   drawn for s->domain. */
static void domain_value(ga_dtype t, double *re, double *im, const fill_spec *s)
{
    int domain = s->domain;
    if (domain == D_INTEGRAL) {
        *re = (double)((int64_t)(rnd() % 17) - 8);
        *im = (double)((int64_t)(rnd() % 17) - 8);
    } else if (domain == D_NEAR1 || domain == D_NEAR1_NANS) {
        *re = 0.9 + 0.2 * rnd_unit();
        *im = 0.05 * (rnd_unit() - 0.5);
        if (domain == D_NEAR1_NANS && rnd() % 4 == 0) *re = NAN;
    } else {
        *re = -10 + 20 * rnd_unit();
        *im = -10 + 20 * rnd_unit();
        if (domain == D_ANY && rnd() % 64 == 0) *re = special();
        if (domain == D_ANY && rnd() % 64 == 0) *im = special();
        if (domain == D_NANS && rnd() % 4 == 0) *re = NAN;
        if (domain == D_NANS && is_complex(t) && rnd() % 8 == 0) *im = NAN;
    }
}

/* n random elements of dtype t at dst: integers any bits, floating values
   for `domain`. */
static void fill(ga_dtype t, int domain, unsigned char *dst, int64_t n)
{
    fill_random(dst, n, t, &(fill_spec){.floating = domain_value, .domain = domain});
}

/* ======================================================================== */
/* Arrays: host values and device views of them                              */
/* ======================================================================== */

typedef struct host {
    ga_dtype t;
    int ndim;
    int64_t shape[4];
    int64_t n;
    unsigned char *v; /* C order */
} host;

static void host_free(host *h)
{
    free(h->v);
    h->v = NULL;
}

static host host_new(ga_dtype t, int ndim, const int64_t *shape, int domain)
{
    host h;
    memset(&h, 0, sizeof h);
    h.t = t;
    h.ndim = ndim;
    h.n = 1;
    for (int d = 0; d < ndim; d++) h.shape[d] = shape[d], h.n *= shape[d];
    h.v = (unsigned char *)malloc((size_t)(h.n ? h.n : 1) * isz(t));
    fill(t, domain, h.v, h.n);
    return h;
}

enum layout { CONTIG, TRANSPOSED, REVERSED, STEP2, BROADCAST };
static const char *const layout_names[] = {"contiguous", "transposed", "reversed", "every other element", "broadcast"};

/* The C-order index of coordinates c in shape. */
static int64_t flat_index(int ndim, const int64_t *shape, const int64_t *c)
{
    int64_t k = 0;
    for (int d = 0; d < ndim; d++) k = k * shape[d] + c[d];
    return k;
}
static void coords_of(int ndim, const int64_t *shape, int64_t k, int64_t *c)
{
    for (int d = ndim - 1; d >= 0; d--) {
        c[d] = shape[d] ? k % shape[d] : 0;
        k = shape[d] ? k / shape[d] : 0;
    }
}

/* A device array showing h's values (logical shape) in layout L. BROADCAST
   first makes every slice along axis 0 equal to the first. */
static ga_array *device_of(host *h, int L)
{
    size_t sz = isz(h->t);
    int nd = h->ndim;
    if (L == CONTIG || nd == 0 || h->n == 0) return ga_from_host(h->v, nd, h->shape, h->t);
    if (L == BROADCAST) {
        int64_t inner = h->n / h->shape[0];
        for (int64_t r = 1; r < h->shape[0]; r++)
            memcpy(h->v + r * inner * (int64_t)sz, h->v, (size_t)inner * sz);
        ga_array *row = ga_from_host(h->v, nd - 1, h->shape + 1, h->t);
        ga_array *b = row ? ga_broadcast_to(row, nd, h->shape) : NULL;
        ga_release(row);
        return b;
    }
    int64_t bshape[4] = {1, 1, 1, 1};
    for (int d = 0; d < nd; d++) bshape[d] = L == TRANSPOSED ? h->shape[nd - 1 - d] : h->shape[d];
    if (L == STEP2) bshape[nd - 1] *= 2;
    int64_t bn = 1;
    for (int d = 0; d < nd; d++) bn *= bshape[d];
    unsigned char *b = (unsigned char *)malloc((size_t)bn * sz);
    fill(h->t, D_ANY, b, bn);
    for (int64_t k = 0; k < h->n; k++) {
        int64_t c[4], bc[4];
        coords_of(nd, h->shape, k, c);
        for (int d = 0; d < nd; d++) {
            if (L == TRANSPOSED) bc[nd - 1 - d] = c[d];
            else if (L == REVERSED) bc[d] = h->shape[d] - 1 - c[d];
            else bc[d] = d == nd - 1 ? 2 * c[d] : c[d];
        }
        memcpy(b + flat_index(nd, bshape, bc) * (int64_t)sz, h->v + k * (int64_t)sz, sz);
    }
    ga_array *base = ga_from_host(b, nd, bshape, h->t);
    free(b);
    if (!base) return NULL;
    ga_array *v = NULL;
    if (L == TRANSPOSED) v = ga_transpose(base, NULL);
    else if (L == REVERSED) v = ga_flip(base, 0, NULL);
    else v = ga_index(base, "..., ::2");
    ga_release(base);
    return v;
}


/* ======================================================================== */
/* References                                                                */
/* ======================================================================== */

/* A reference result: a value (exact dtypes: `v.i`) and a tolerance for
   each real part (0: exact). */
typedef struct want {
    elem v;
    long double tol_re, tol_im;
} want;

static bool cnan(ga_dtype t, elem e) { return !is_exact(t) && (isnan(e.re) || (is_complex(t) && isnan(e.im))); }

/* x before y in min (or max) order; complex lexicographic. Not NaN. */
static bool before(ga_dtype t, elem x, elem y, bool max)
{
    if (is_exact(t)) {
        long double a = value_of(t, x), b = value_of(t, y);
        return max ? a > b : a < b;
    }
    if (is_complex(t)) {
        bool lt = x.re < y.re || (x.re == y.re && x.im < y.im);
        bool gt = x.re > y.re || (x.re == y.re && x.im > y.im);
        return max ? gt : lt;
    }
    return max ? x.re > y.re : x.re < y.re;
}

/* A long double sum of parts, with its magnitude; NaN and infinities as
   IEEE addition gives them in any order. */
typedef struct lsum {
    long double s, mag;
    int pinf, ninf, nan;
} lsum;
static void lsum_add(lsum *a, long double x)
{
    if (isnan(x)) a->nan = 1;
    else if (isinf(x)) x > 0 ? a->pinf++ : a->ninf++;
    else {
        a->s += x;
        a->mag += fabsl(x);
    }
}
static long double lsum_value(const lsum *a)
{
    if (a->nan || (a->pinf && a->ninf)) return NAN;
    if (a->pinf) return INFINITY;
    if (a->ninf) return -INFINITY;
    return a->s;
}

/* The element of the sum's accumulator: NumPy converts to the sum's dtype
   first (float16: then accumulates in float32). */
static long double as_acc(ga_dtype in, ga_dtype acc, elem e, int part)
{
    long double v = part ? e.im : value_of(in, e);
    if (is_complex(in) && !part) v = e.re;
    if (!is_complex(acc) && is_complex(in)) v = e.re;
    return is_exact(acc) ? v : round_to(acc, v);
}

static want ref_sum(ga_dtype in, ga_dtype res, const elem *x, int64_t n, bool nan_skip, bool mean)
{
    want w;
    memset(&w, 0, sizeof w);
    ga_dtype acc = res == GA_FLOAT16 || res == GA_BFLOAT16 ? GA_FLOAT32 : res;
    if (is_exact(res)) {
        uint64_t s = 0;
        for (int64_t k = 0; k < n; k++) s += is_exact(in) ? x[k].i : (uint64_t)(int64_t)value_of(in, x[k]);
        w.v.i = wrap(res, s);
        return w;
    }
    lsum re = {0, 0, 0, 0, 0}, im = {0, 0, 0, 0, 0};
    int64_t count = 0;
    for (int64_t k = 0; k < n; k++) {
        if (nan_skip && cnan(in, x[k])) continue;
        count++;
        lsum_add(&re, as_acc(in, acc, x[k], 0));
        if (is_complex(res)) lsum_add(&im, is_complex(in) ? round_to(acc, x[k].im) : 0);
    }
    long double sr = lsum_value(&re), si = lsum_value(&im), d = mean ? (long double)(nan_skip ? count : n) : 1;
    long double tr = re.mag * acc_eps(acc) * 64, ti = im.mag * acc_eps(acc) * 64;
    if (mean) {
        if (is_complex(res)) { /* NumPy's complex division by (n, 0): Smith's formula */
            long double rat = 0.0L / d, scl = 1.0L / (d + 0.0L * rat), r2 = (sr + si * rat) * scl;
            si = (si - sr * rat) * scl;
            sr = r2;
        } else {
            sr /= d, si /= d;
        }
        tr /= d, ti /= d;
        if (d == 0) sr = si = NAN;
    }
    w.v.re = round_to(res, sr);
    w.v.im = round_to(res, si);
    w.tol_re = isfinite(w.v.re) ? tr + ulp_at(res, sr) : 0;
    w.tol_im = isfinite(w.v.im) ? ti + ulp_at(res, si) : 0;
    if (n == 0 && !mean) w.v.re = w.v.im = 0;
    return w;
}

static want ref_prod(ga_dtype in, ga_dtype res, const elem *x, int64_t n, bool nan_skip)
{
    want w;
    memset(&w, 0, sizeof w);
    ga_dtype acc = res == GA_FLOAT16 || res == GA_BFLOAT16 ? GA_FLOAT32 : res;
    if (is_exact(res)) {
        uint64_t p = 1;
        for (int64_t k = 0; k < n; k++) p *= x[k].i;
        w.v.i = wrap(res, p);
        return w;
    }
    long double pr = 1, pi = 0, mag = 1;
    int64_t m = 0;
    for (int64_t k = 0; k < n; k++) {
        if (nan_skip && cnan(in, x[k]) && !is_complex(in)) continue;
        /* nanprod of complex numbers: NaN is replaced by 1 (NumPy's
           _replace_nan), which does not leave an infinite product alone */
        bool one = nan_skip && cnan(in, x[k]);
        long double a = one ? 1 : as_acc(in, acc, x[k], 0), b = one ? 0 : is_complex(in) ? round_to(acc, x[k].im) : 0;
        if (is_complex(res)) {
            long double r = pr * a - pi * b, i = pr * b + pi * a;
            pr = r, pi = i;
        } else {
            pr *= a;
        }
        mag *= sqrtl(a * a + b * b);
        m++;
    }
    long double tol = mag * acc_eps(acc) * (long double)(4 * m + 4);
    w.v.re = round_to(res, pr);
    w.v.im = round_to(res, pi);
    w.tol_re = tol + ulp_at(res, pr);
    w.tol_im = tol + ulp_at(res, pi);
    return w;
}

/* min / max (and their nan forms); *index: argmin / argmax's first index,
   -1 for none. */
static want ref_extreme(ga_dtype t, const elem *x, int64_t n, bool max, bool nan_skip, int64_t *index)
{
    want w;
    memset(&w, 0, sizeof w);
    int64_t best = -1;
    for (int64_t k = 0; k < n; k++) {
        bool xn = cnan(t, x[k]);
        if (nan_skip && xn) continue;
        if (best < 0) best = k;
        else if (cnan(t, x[best])) continue;
        else if (xn || before(t, x[k], x[best], max)) best = k;
    }
    *index = best;
    if (best >= 0) w.v = x[best];
    else w.v.re = w.v.im = NAN;
    return w;
}

static want ref_var(ga_dtype in, ga_dtype res, const elem *x, int64_t n, double ddof, bool nan_skip, bool std)
{
    want w;
    memset(&w, 0, sizeof w);
    ga_dtype acc = is_exact(in) ? GA_FLOAT64 : part_of(in) == GA_FLOAT64 ? GA_FLOAT64 : GA_FLOAT32;
    long double mr = 0, mi = 0, mag = 0;
    int64_t m = 0;
    bool nan = false;
    for (int64_t k = 0; k < n; k++) {
        if (cnan(in, x[k])) {
            if (!nan_skip) nan = true;
            continue;
        }
        long double a = value_of(in, x[k]), b = is_complex(in) ? x[k].im : 0;
        if (isinf(a) || isinf(b)) nan = true;
        mr += a, mi += b, m++;
    }
    if (m) mr /= m, mi /= m;
    long double ss = 0;
    for (int64_t k = 0; k < n; k++) {
        if (cnan(in, x[k])) continue;
        long double a = value_of(in, x[k]) - mr, b = is_complex(in) ? x[k].im - mi : 0;
        ss += a * a + b * b;
        long double s = sqrtl(value_of(in, x[k]) * value_of(in, x[k]) + (is_complex(in) ? x[k].im * x[k].im : 0)) +
                        sqrtl(mr * mr + mi * mi);
        mag += s * s;
    }
    long double dof = (long double)(nan_skip ? m : n) - ddof, v;
    if (nan_skip && dof <= 0) v = NAN;
    else if (dof <= 0) v = ss / 0.0L;
    else v = ss / dof;
    if (nan || (nan_skip && m == 0 && n > 0) || n == 0) v = NAN;
    long double tol = dof > 0 ? mag * acc_eps(acc) * 128 / dof : 0;
    /* float16: NumPy rounds the deviations, their squares and their sum to
       float16, each by up to half an ulp: up to 4 u |v| more (u = 2^-11),
       which this exact reference does not model (gpuarr makes the same
       roundings; tests/conformance.py compares them with NumPy's bits) */
    if (in == GA_FLOAT16 && isfinite(v)) tol += 4 * ldexpl(1, -11) * fabsl(v);
    /* a float16 result: NumPy's sum of the squares is float16, inf from
       65520 on (the rows here are far from that edge) */
    if (res == GA_FLOAT16 && isfinite(v) && ss >= 65520) v = INFINITY, tol = 0;
    if (std) { /* NumPy's std: the variance rounded to the result's dtype, then its root */
        long double s = sqrtl(v), tv = tol + ulp_at(res, v);
        tol = v > 0 ? tv / (2 * s) : sqrtl(tv);
        v = s;
    }
    w.v.re = round_to(res, v);
    w.tol_re = isfinite(w.v.re) ? tol + 2 * ulp_at(res, v) : 0;
    return w;
}

/* ======================================================================== */
/* Running one reduction and comparing                                       */
/* ======================================================================== */

typedef struct rcase {
    const char *name;
    int ndim;
    int64_t shape[3];
    int naxes; /* -1: every axis (GA_ALL_AXES); 0: none (NumPy's axis=(), GA_NO_AXES) */
    int axes[3];
    bool keepdims;
    int layout;
} rcase;

static const rcase cases[] = {
    {"1 element", 1, {1}, -1, {0}, false, CONTIG},
    {"31, reversed", 1, {31}, -1, {0}, false, REVERSED},
    {"33, axis 0, keepdims", 1, {33}, 1, {0}, true, CONTIG},
    {"1023, every other element", 1, {1023}, -1, {0}, false, STEP2},
    {"1025", 1, {1025}, 1, {-1}, false, CONTIG},
    {"(33, 31), axis 0", 2, {33, 31}, 1, {0}, false, CONTIG},
    {"(33, 31), axis 1, transposed", 2, {33, 31}, 1, {1}, false, TRANSPOSED},
    {"(33, 31), axis -1, keepdims, reversed", 2, {33, 31}, 1, {-1}, true, REVERSED},
    {"(33, 31), axis 0, broadcast", 2, {33, 31}, 1, {0}, false, BROADCAST},
    {"(7, 1025), axis 1", 2, {7, 1025}, 1, {1}, false, CONTIG},
    {"(1025, 3), axis 0", 2, {1025, 3}, 1, {0}, false, CONTIG},
    {"(1001, 2), axis -1", 2, {1001, 2}, 1, {-1}, false, CONTIG},
    {"(301, 7), axis 1, keepdims", 2, {301, 7}, 1, {1}, true, CONTIG},
    {"(33, 15), axis 1, reversed", 2, {33, 15}, 1, {1}, false, REVERSED},
    {"(5, 3000), axis 1, every other element", 2, {5, 3000}, 1, {1}, false, STEP2},
    {"(3000, 5), axis 0, transposed", 2, {3000, 5}, 1, {0}, false, TRANSPOSED},
    {"(2, 70000), axis 1", 2, {2, 70000}, 1, {1}, false, CONTIG},
    {"(70000, 3), axis 0", 2, {70000, 3}, 1, {0}, false, CONTIG},
    {"(50001, 3), axis -1 (rows in shared-memory tiles)", 2, {50001, 3}, 1, {-1}, false, CONTIG},
    {"(40001, 2), axis -1, keepdims (rows packed in vectors)", 2, {40001, 2}, 1, {-1}, true, CONTIG},
    {"(4099, 4), axis 1 (rows packed in vectors)", 2, {4099, 4}, 1, {1}, false, CONTIG},
    {"(33000, 17), axis 1 (8 threads a row)", 2, {33000, 17}, 1, {1}, false, CONTIG},
    {"(20000, 40), axis -1, reversed (16 threads a row)", 2, {20000, 40}, 1, {-1}, false, REVERSED},
    {"(6, 7), every axis, keepdims, broadcast", 2, {6, 7}, -1, {0}, true, BROADCAST},
    {"(4, 6, 33), axes (0, 2)", 3, {4, 6, 33}, 2, {0, 2}, false, CONTIG},
    {"(4, 6, 33), axis 1, transposed", 3, {4, 6, 33}, 1, {1}, false, TRANSPOSED},
    {"(4, 6, 33), axes (-1, -3), keepdims, reversed", 3, {4, 6, 33}, 2, {-1, -3}, true, REVERSED},
    {"(5, 4, 3), axes (1, 0), every other element", 3, {5, 4, 3}, 2, {1, 0}, false, STEP2},
    {"300000", 1, {300000}, -1, {0}, false, CONTIG},
    {"2^20 + 7", 1, {(1 << 20) + 7}, -1, {0}, false, CONTIG},
    {"0-d", 0, {0}, -1, {0}, false, CONTIG},
    {"empty", 1, {0}, -1, {0}, false, CONTIG},
    {"(3, 0), axis 1", 2, {3, 0}, 1, {1}, false, CONTIG},
    {"(0, 3), axis 1", 2, {0, 3}, 1, {1}, false, CONTIG},
    /* axis=(): each element reduced alone */
    {"(5, 7), axis=()", 2, {5, 7}, 0, {0}, false, CONTIG},
    {"(6, 33), axis=(), keepdims, transposed", 2, {6, 33}, 0, {0}, true, TRANSPOSED},
    {"1023, axis=(), reversed", 1, {1023}, 0, {0}, false, REVERSED},
    {"(0, 3), axis=()", 2, {0, 3}, 0, {0}, false, CONTIG},
    {"0-d, axis=()", 0, {0}, 0, {0}, false, CONTIG},
};

static bool is_arg(ga_reduction r)
{
    return r == GA_REDUCE_ARGMIN || r == GA_REDUCE_ARGMAX || r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX;
}
static bool is_nan_form(ga_reduction r)
{
    return r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANPROD || r == GA_REDUCE_NANMIN || r == GA_REDUCE_NANMAX ||
           r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD || r == GA_REDUCE_NANARGMIN ||
           r == GA_REDUCE_NANARGMAX;
}

/* NumPy's result dtype of r for input t (no dtype=). */
static ga_dtype result_dtype(ga_reduction r, ga_dtype t)
{
    switch (r) {
    case GA_REDUCE_SUM: case GA_REDUCE_PROD: case GA_REDUCE_NANSUM: case GA_REDUCE_NANPROD:
        return t == GA_BOOL || is_signed(t) ? GA_INT64 : is_integer(t) ? GA_UINT64 : t;
    case GA_REDUCE_MEAN: case GA_REDUCE_NANMEAN: return is_exact(t) ? GA_FLOAT64 : t;
    case GA_REDUCE_VAR: case GA_REDUCE_STD: case GA_REDUCE_NANVAR: case GA_REDUCE_NANSTD:
        return is_exact(t) ? GA_FLOAT64 : part_of(t);
    case GA_REDUCE_ALL: case GA_REDUCE_ANY: return GA_BOOL;
    case GA_REDUCE_COUNT_NONZERO: case GA_REDUCE_ARGMIN: case GA_REDUCE_ARGMAX: case GA_REDUCE_NANARGMIN:
    case GA_REDUCE_NANARGMAX: return GA_INT64;
    default: return t;
    }
}

static bool nonzero(ga_dtype t, elem e) { return is_exact(t) ? e.i != 0 : e.re != 0 || e.im != 0 || cnan(t, e); }

/* The reference of r over the elements x (in order). */
static want reference(ga_reduction r, ga_dtype t, const elem *x, int64_t n, double ddof)
{
    want w;
    memset(&w, 0, sizeof w);
    ga_dtype res = result_dtype(r, t);
    bool skip = is_nan_form(r) && !is_exact(t);
    int64_t index = -1;
    switch (r) {
    case GA_REDUCE_SUM: case GA_REDUCE_NANSUM: return ref_sum(t, res, x, n, skip, false);
    case GA_REDUCE_MEAN: case GA_REDUCE_NANMEAN: return ref_sum(t, is_exact(t) ? GA_FLOAT64 : res, x, n, skip, true);
    case GA_REDUCE_PROD: case GA_REDUCE_NANPROD: return ref_prod(t, res, x, n, skip);
    case GA_REDUCE_MIN: case GA_REDUCE_MAX: case GA_REDUCE_NANMIN: case GA_REDUCE_NANMAX:
        return ref_extreme(t, x, n, r == GA_REDUCE_MAX || r == GA_REDUCE_NANMAX, skip, &index);
    case GA_REDUCE_ARGMIN: case GA_REDUCE_ARGMAX: case GA_REDUCE_NANARGMIN: case GA_REDUCE_NANARGMAX:
        ref_extreme(t, x, n, r == GA_REDUCE_ARGMAX || r == GA_REDUCE_NANARGMAX, skip, &index);
        w.v.i = (uint64_t)index;
        return w;
    case GA_REDUCE_VAR: case GA_REDUCE_STD: case GA_REDUCE_NANVAR: case GA_REDUCE_NANSTD:
        return ref_var(t, res, x, n, ddof, skip, r == GA_REDUCE_STD || r == GA_REDUCE_NANSTD);
    case GA_REDUCE_ALL: case GA_REDUCE_ANY: {
        bool all = true, any = false;
        for (int64_t k = 0; k < n; k++) {
            bool z = nonzero(t, x[k]);
            all = all && z, any = any || z;
        }
        w.v.i = r == GA_REDUCE_ALL ? all : any;
        return w;
    }
    case GA_REDUCE_COUNT_NONZERO:
        for (int64_t k = 0; k < n; k++) w.v.i += nonzero(t, x[k]);
        return w;
    case GA_REDUCE_PTP: {
        int64_t i0, i1;
        want hi = ref_extreme(t, x, n, true, false, &i0), lo = ref_extreme(t, x, n, false, false, &i1);
        if (is_exact(t)) w.v.i = wrap(t, hi.v.i - lo.v.i);
        else {
            w.v.re = round_to(t, hi.v.re - lo.v.re);
            w.v.im = round_to(t, hi.v.im - lo.v.im);
        }
        return w;
    }
    default: return w;
    }
}

static const char *show(char *buf, size_t size, ga_dtype t, elem e)
{
    if (is_exact(t)) snprintf(buf, size, "%lld", (long long)e.i);
    else if (is_complex(t)) snprintf(buf, size, "(%.9Lg, %.9Lg)", e.re, e.im);
    else snprintf(buf, size, "%.9Lg", e.re);
    return buf;
}

static bool part_matches(long double got, long double want, long double tol, bool zero_sign)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want) || tol == 0) {
        if (got != want) return false;
        /* the sign of an exact zero matters where NumPy's is defined */
        return !zero_sign || want != 0 || signbit(got) == signbit(want);
    }
    return fabsl(got - want) <= tol;
}

static bool matches(ga_dtype res, elem got, want w, bool zero_sign)
{
    if (is_exact(res)) return got.i == wrap(res, w.v.i);
    /* complex NaN: which NaN element min / max pick is not defined */
    if (is_complex(res) && (isnan(w.v.re) || isnan(w.v.im))) return isnan(got.re) || isnan(got.im);
    if (!part_matches(got.re, w.v.re, w.tol_re, zero_sign)) return false;
    return !is_complex(res) || part_matches(got.im, w.v.im, w.tol_im, zero_sign);
}

/* Runs r on the case's array in dtype t and checks every output. */
static void run_case(ga_reduction r, ga_dtype t, const rcase *c, int domain, double ddof)
{
    const char *name = ga_reduction_name(r);
    if (is_arg(r) && c->naxes > 1) return;
    if (is_arg(r) && c->naxes == 0) { /* NumPy's TypeError: argmin takes one axis or none */
        int64_t one = 1;
        double zero = 0;
        ga_array *x = ga_from_host(&zero, 1, &one, GA_FLOAT64), *out = NULL;
        CHECK_ERROR(ga_reduce(r, x, GA_NO_AXES, GA_DTYPE_INVALID, &out, false, NULL) != GA_OK, GA_ERROR_TYPE,
                    "'tuple' object cannot be interpreted as an integer");
        ga_release(x);
        return;
    }
    int64_t big = 1;
    for (int d = 0; d < c->ndim; d++) big *= c->shape[d];
    /* the largest arrays only for the float32 and int64 dtypes and the main reductions */
    if (big > 200000 && t != GA_FLOAT32 && t != GA_INT64 && t != GA_FLOAT64) return;
    char what[256];
    snprintf(what, sizeof what, "%s %s, %s (%s)", name, dname(t), c->name, layout_names[c->layout]);
    host h = host_new(t, c->ndim, c->shape, domain);
    ga_array *a = device_of(&h, c->layout);
    if (!a) {
        FAIL("%s: making the input: %s", what, ga_last_error_message());
        ga_clear_error();
        host_free(&h);
        return;
    }
    bool red[4] = {false, false, false, false};
    int axes[3];
    int naxes = c->naxes < 0 ? 0 : c->naxes;
    for (int i = 0; i < naxes; i++) {
        axes[i] = c->axes[i];
        red[c->axes[i] < 0 ? c->axes[i] + c->ndim : c->axes[i]] = true;
    }
    if (c->naxes < 0)
        for (int d = 0; d < c->ndim; d++) red[d] = true;
    int64_t kept[4], nkept = 0, rn = 1, kn = 1;
    for (int d = 0; d < c->ndim; d++) {
        if (red[d]) rn *= c->shape[d];
        else kept[nkept++] = c->shape[d], kn *= c->shape[d];
    }
    bool empty_error = rn == 0 && (is_arg(r) || r == GA_REDUCE_MIN || r == GA_REDUCE_MAX || r == GA_REDUCE_NANMIN ||
                                   r == GA_REDUCE_NANMAX || r == GA_REDUCE_PTP);
    bool bool_error = r == GA_REDUCE_PTP && t == GA_BOOL;
    ga_dtype res = result_dtype(r, t);
    ga_array *out = NULL;
    poison_next((size_t)kn * isz(res));
    ga_reduce_options opt = {NULL, NULL, ddof};
    ga_status st = ga_reduce(r, a, naxes, c->naxes < 0 ? NULL : axes, GA_DTYPE_INVALID, &out, c->keepdims, &opt);
    /* nanargmin / nanargmax of an all-NaN slice fail */
    bool all_nan_error = false;
    if ((r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX) && !is_exact(t) && rn > 0 && kn > 0) {
        bool *number = (bool *)calloc((size_t)kn, sizeof(bool)); /* output o has a non-NaN element */
        for (int64_t k = 0; k < h.n; k++) {
            int64_t cc[4], kc[4], m = 0;
            coords_of(c->ndim, c->shape, k, cc);
            for (int d = 0; d < c->ndim; d++)
                if (!red[d]) kc[m++] = cc[d];
            if (!cnan(t, load(t, h.v + k * (int64_t)isz(t)))) number[flat_index((int)nkept, kept, kc)] = true;
        }
        for (int64_t o = 0; o < kn; o++) all_nan_error = all_nan_error || !number[o];
        free(number);
    }
    if (empty_error || bool_error || all_nan_error) {
        if (st == GA_OK) FAIL("%s: succeeded; NumPy raises", what);
        else if (empty_error && !strstr(ga_last_error_message(), is_arg(r) ? "of an empty sequence" : "which has no identity"))
            FAIL("%s: message \"%s\"", what, ga_last_error_message());
        else if (all_nan_error && !strstr(ga_last_error_message(), "All-NaN slice encountered"))
            FAIL("%s: message \"%s\"", what, ga_last_error_message());
        ga_clear_error();
        ga_release(out);
        ga_release(a);
        host_free(&h);
        return;
    }
    if (st != GA_OK) {
        FAIL("%s: %s", what, ga_last_error_message());
        ga_clear_error();
        ga_release(a);
        host_free(&h);
        return;
    }
    /* shape and dtype */
    int want_ndim = c->keepdims ? c->ndim : (int)nkept;
    bool shape_ok = ga_ndim(out) == want_ndim && ga_dtype_of(out) == res;
    for (int d = 0, k = 0; shape_ok && d < c->ndim; d++) {
        if (red[d] && !c->keepdims) continue;
        shape_ok = ga_shape(out)[k++] == (red[d] ? 1 : c->shape[d]);
    }
    if (!shape_ok) {
        FAIL("%s: result %s with %d dims, expected %s with %d", what, dname(ga_dtype_of(out)), ga_ndim(out), dname(res),
             want_ndim);
    } else if (kn > 0) {
        unsigned char *got = (unsigned char *)malloc((size_t)kn * isz(res));
        if (download(out, got)) {
            /* the elements of each output, in order */
            int64_t *fill_at = (int64_t *)calloc((size_t)kn, sizeof(int64_t));
            elem *xs = (elem *)malloc((size_t)(h.n ? h.n : 1) * sizeof(elem));
            for (int64_t k = 0; k < h.n; k++) {
                int64_t cc[4], kc[4], m = 0;
                coords_of(c->ndim, c->shape, k, cc);
                for (int d = 0; d < c->ndim; d++)
                    if (!red[d]) kc[m++] = cc[d];
                int64_t o = flat_index((int)nkept, kept, kc);
                xs[o * rn + fill_at[o]++] = load(t, h.v + k * (int64_t)isz(t));
            }
            int64_t bad = 0, first = -1;
            want fw;
            elem fg;
            memset(&fw, 0, sizeof fw);
            memset(&fg, 0, sizeof fg);
            for (int64_t o = 0; o < kn; o++) {
                want w = reference(r, t, xs + o * rn, rn, ddof);
                elem g = load(res, got + o * (int64_t)isz(res));
                /* the sign of a zero from min / max / ptp may be either */
                bool zero_sign = r == GA_REDUCE_SUM || r == GA_REDUCE_PROD;
                if (!matches(res, g, w, zero_sign) && !bad++) first = o, fw = w, fg = g;
            }
            if (bad) {
                char gs[96], ws[96];
                FAIL("%s: %lld of %lld wrong; first [%lld] gave %s, expected %s (tolerance %.3Lg)", what,
                     (long long)bad, (long long)kn, (long long)first, show(gs, sizeof gs, res, fg),
                     show(ws, sizeof ws, res, fw.v), fw.tol_re);
            }
            free(xs);
            free(fill_at);
        }
        free(got);
    }
    ga_release(out);
    ga_release(a);
    host_free(&h);
}

static void check_reduction(ga_reduction r)
{
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        int domain = is_nan_form(r) ? D_NANS : D_ANY;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            if (!test_sample(t * 64 + (int64_t)i, 2)) continue;
            rcase c = cases[i];
            for (int d = 0; d < c.ndim; d++) c.shape[d] = test_length(c.shape[d]);
            /* products of many elements: close to 1 so that they stay finite */
            int dom = r == GA_REDUCE_NANPROD && (i >= 9 || is_complex((ga_dtype)t)) ? D_NEAR1_NANS
                      : r == GA_REDUCE_PROD && (i >= 9 || is_complex((ga_dtype)t)) ? D_NEAR1
                                                                                 : domain;
            run_case(r, (ga_dtype)t, &c, dom, r == GA_REDUCE_VAR || r == GA_REDUCE_NANVAR ? 1.0 : 0.0);
        }
        /* exact sums of integer-valued floats, every size */
        if ((r == GA_REDUCE_SUM || r == GA_REDUCE_MEAN) && !is_exact((ga_dtype)t))
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
                if (test_sample(t * 64 + (int64_t)i, 2)) run_case(r, (ga_dtype)t, &cases[i], D_INTEGRAL, 0);
    }
}

#define REDUCTION_TEST(E, name) \
    DEVICE_TEST(reduce_##name) { check_reduction(GA_REDUCE_##E); }
GA_REDUCTION_LIST(REDUCTION_TEST)
#undef REDUCTION_TEST

/* ======================================================================== */
/* The named functions, exact sums, determinism                              */
/* ======================================================================== */

static ga_array *upload_f32(const float *v, int ndim, const int64_t *shape)
{
    return ga_from_host(v, ndim, shape, GA_FLOAT32);
}

static double scalar_of(const ga_array *a)
{
    unsigned char buf[16];
    if (!a || ga_size(a) != 1 || !download(a, buf)) return NAN;
    elem e = load(ga_dtype_of(a), buf);
    return (double)value_of(ga_dtype_of(a), e);
}

DEVICE_TEST(reduce_named_functions)
{
    float v[6] = {3, -1, 4, 1, -5, 9};
    ga_array *a = upload_f32(v, 2, (const int64_t[]){2, 3});
    int ax1 = 1;
    struct { const char *name; ga_array *r; double want; } rows[] = {
        {"ga_sum", ga_sum(a, GA_ALL_AXES, false), 11},
        {"ga_prod", ga_prod(a, GA_ALL_AXES, false), 540},
        {"ga_min", ga_amin(a, GA_ALL_AXES, false), -5},
        {"ga_max", ga_amax(a, GA_ALL_AXES, false), 9},
        {"ga_ptp", ga_ptp(a, GA_ALL_AXES, false), 14},
        {"ga_mean", ga_mean(a, GA_ALL_AXES, false), 11.0 / 6},
        {"ga_var", ga_var(a, GA_ALL_AXES, 0, false), (9 + 1 + 16 + 1 + 25 + 81) / 6.0 - (11.0 / 6) * (11.0 / 6)},
        {"ga_all", ga_all(a, GA_ALL_AXES, false), 1},
        {"ga_any", ga_any(a, GA_ALL_AXES, false), 1},
        {"ga_count_nonzero", ga_count_nonzero(a, GA_ALL_AXES, false), 6},
        {"ga_argmin", ga_argmin(a, GA_AXIS_NONE, false), 4},
        {"ga_argmax", ga_argmax(a, GA_AXIS_NONE, false), 5},
        {"ga_nansum", ga_nansum(a, GA_ALL_AXES, false), 11},
        {"ga_nanmax", ga_nanmax(a, GA_ALL_AXES, false), 9},
        {"ga_nanargmax axis 1", ga_nanargmax(a, 1, false), NAN},
        {"ga_sum axis 1", ga_sum(a, 1, &ax1, false), NAN},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!rows[i].r) {
            CHECK(0, "%s failed: %s", rows[i].name, ga_last_error_message());
            ga_clear_error();
            continue;
        }
        if (!isnan(rows[i].want)) {
            double got = scalar_of(rows[i].r);
            CHECK(fabs(got - rows[i].want) <= 1e-5 * fabs(rows[i].want), "%s: %g, expected %g", rows[i].name, got,
                  rows[i].want);
        }
        ga_release(rows[i].r);
    }
    ga_release(a);
}

DEVICE_TEST(reduce_sum_of_2_28_float32_ones_is_exact)
{
    int64_t n = (int64_t)1 << 28;
    ga_array *a = ga_ones(1, &n, GA_FLOAT32);
    ga_array *s = a ? ga_sum(a, GA_ALL_AXES, false) : NULL;
    float got = 0;
    CHECK(s && ga_to_host(s, &got, sizeof got) == GA_OK, "sum failed: %s", ga_last_error_message());
    CHECK(got == 268435456.0f, "sum of 2^28 ones is %.1f", (double)got);
    ga_release(s);
    /* and along an axis, and the mean */
    ga_array *m = a ? ga_reshape(a, 2, (const int64_t[]){16384, 16384}) : NULL;
    int ax0 = 0;
    ga_array *s0 = m ? ga_sum(m, 1, &ax0, false) : NULL;
    float row[16384];
    if (s0 && ga_to_host(s0, row, sizeof row) == GA_OK) {
        int bad = 0;
        for (int i = 0; i < 16384; i++) bad += row[i] != 16384.0f;
        CHECK(!bad, "sum over axis 0 of 16384^2 ones: %d wrong", bad);
    } else {
        CHECK(0, "sum over axis 0 failed: %s", ga_last_error_message());
    }
    ga_release(s0);
    ga_release(m);
    ga_release(a);
    ga_clear_error();
}

/* The same input gives the same bits, every layout kernel. */
DEVICE_TEST(reduce_is_deterministic)
{
    const int64_t shapes[3][2] = {{1, test_length((1 << 22) + 3)}, {4096, 1000}, {1000, 4096}};
    for (int s = 0; s < 3; s++) {
        for (int ax = -1; ax < 2; ax++) {
            host h = host_new(GA_FLOAT32, 2, shapes[s], D_FINITE);
            ga_array *a = device_of(&h, CONTIG);
            ga_reduction rs[4] = {GA_REDUCE_SUM, GA_REDUCE_VAR, GA_REDUCE_ARGMAX, GA_REDUCE_PROD};
            for (int k = 0; k < 4; k++) {
                ga_array *r1 = NULL, *r2 = NULL;
                int axis = ax;
                const int *axes = ax < 0 ? NULL : &axis; /* every axis, or one */
                ga_status st1 = ga_reduce(rs[k], a, ax < 0 ? 0 : 1, axes, GA_DTYPE_INVALID, &r1, false, NULL);
                ga_status st2 = ga_reduce(rs[k], a, ax < 0 ? 0 : 1, axes, GA_DTYPE_INVALID, &r2, false, NULL);
                if (st1 != GA_OK || st2 != GA_OK) {
                    FAIL("%s: %s", ga_reduction_name(rs[k]), ga_last_error_message());
                    ga_clear_error();
                } else {
                    unsigned char *first = (unsigned char *)malloc(ga_nbytes(r1) + 1);
                    unsigned char *second = (unsigned char *)malloc(ga_nbytes(r2) + 1);
                    if (download(r1, first) && download(r2, second))
                        CHECK(memcmp(first, second, ga_nbytes(r1)) == 0,
                              "%s of (%lld, %lld) over axis %d: two runs differ", ga_reduction_name(rs[k]),
                              (long long)shapes[s][0], (long long)shapes[s][1], ax);
                    free(first);
                    free(second);
                }
                ga_release(r1);
                ga_release(r2);
            }
            ga_release(a);
            host_free(&h);
        }
    }
}

/* ======================================================================== */
/* dtype=, out=, where=, initial=                                            */
/* ======================================================================== */

static bool values_are(const char *what, ga_array *r, ga_dtype t, int64_t n, const double *want, double tol)
{
    if (!r) {
        CHECK(0, "%s failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return false;
    }
    if (ga_dtype_of(r) != t || ga_size(r) != n) {
        CHECK(0, "%s: %s of %lld elements, expected %s of %lld", what, dname(ga_dtype_of(r)), (long long)ga_size(r),
              dname(t), (long long)n);
        return false;
    }
    unsigned char buf[64 * 16];
    if (!download(r, buf)) return false;
    for (int64_t i = 0; i < n; i++) {
        double got = (double)value_of(t, load(t, buf + i * (int64_t)isz(t)));
        bool ok = isnan(want[i]) ? isnan(got) : fabs(got - want[i]) <= tol * (fabs(want[i]) + 1e-300);
        if (!ok) {
            CHECK(0, "%s: [%lld] is %.17g, expected %.17g", what, (long long)i, got, want[i]);
            return false;
        }
    }
    return true;
}

DEVICE_TEST(reduce_dtype_argument)
{
    int8_t i8[4] = {100, 100, 100, -3};
    ga_array *a = ga_from_host(i8, 1, (const int64_t[]){4}, GA_INT8);
    ga_array *r = NULL;
    /* int8 sum in int8 wraps: 297 -> 41 */
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, GA_ALL_AXES, GA_INT8, &r, false, NULL));
    values_are("sum(int8, dtype=int8)", r, GA_INT8, 1, (double[]){41}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, GA_ALL_AXES, GA_FLOAT32, &r, false, NULL));
    values_are("sum(int8, dtype=float32)", r, GA_FLOAT32, 1, (double[]){297}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MEAN, a, GA_ALL_AXES, GA_FLOAT32, &r, false, NULL));
    values_are("mean(int8, dtype=float32)", r, GA_FLOAT32, 1, (double[]){74.25}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MEAN, a, GA_ALL_AXES, GA_INT8, &r, false, NULL));
    values_are("mean(int8, dtype=int8)", r, GA_INT8, 1, (double[]){10}, 0); /* 41 / 4 = 10.25 -> 10 */
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_PROD, a, GA_ALL_AXES, GA_BOOL, &r, false, NULL));
    values_are("prod(int8, dtype=bool)", r, GA_BOOL, 1, (double[]){1}, 0);
    ga_release(r), r = NULL;
    ga_release(a);
    /* float32 summed in float64: 1 + 1e-8 * 1000 is exact in float64 */
    float f[1001];
    f[0] = 1;
    for (int i = 1; i < 1001; i++) f[i] = 1e-8f;
    a = ga_from_host(f, 1, (const int64_t[]){1001}, GA_FLOAT32);
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, GA_ALL_AXES, GA_FLOAT64, &r, false, NULL));
    values_are("sum(float32, dtype=float64)", r, GA_FLOAT64, 1, (double[]){1.0 + 1000 * (double)1e-8f}, 1e-12);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_VAR, a, GA_ALL_AXES, GA_FLOAT64, &r, false, NULL));
    CHECK(r && ga_dtype_of(r) == GA_FLOAT64, "var(float32, dtype=float64) is %s", dname(ga_dtype_of(r)));
    ga_release(r), r = NULL;
    CHECK_ERROR(ga_reduce(GA_REDUCE_VAR, a, GA_ALL_AXES, GA_INT32, &r, false, NULL) != GA_OK, GA_ERROR_TYPE, "dtype");
    CHECK_ERROR(ga_reduce(GA_REDUCE_MAX, a, GA_ALL_AXES, GA_FLOAT64, &r, false, NULL) != GA_OK, GA_ERROR_TYPE, "dtype");
    ga_release(a);
    /* float16 sums accumulate in float32: 4096 ones of float16 sum to 4096 */
    int64_t n = 4096;
    a = ga_ones(1, &n, GA_FLOAT16);
    r = ga_sum(a, GA_ALL_AXES, false);
    values_are("sum of 4096 float16 ones", r, GA_FLOAT16, 1, (double[]){4096}, 0);
    ga_release(r);
    ga_release(a);
}

DEVICE_TEST(reduce_out_argument)
{
    float v[12];
    for (int i = 0; i < 12; i++) v[i] = (float)(i * i % 7) - 2;
    ga_array *a = ga_from_host(v, 2, (const int64_t[]){3, 4}, GA_FLOAT32);
    /* out= a reversed view with gaps, of another dtype */
    double poison[9];
    for (int i = 0; i < 9; i++) poison[i] = 1234.5;
    ga_array *base = ga_from_host(poison, 1, (const int64_t[]){9}, GA_FLOAT64);
    ga_array *out = ga_index(base, "7:0:-2"); /* 4 elements: 7, 5, 3, 1 */
    ga_array *given = out;
    int ax0 = 0;
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, 1, &ax0, GA_DTYPE_INVALID, &given, false, NULL));
    CHECK(given == out, "out= was replaced");
    double got[9];
    if (download(base, got)) {
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int i = 0; i < 3; i++) s += v[i * 4 + j];
            CHECK(got[7 - 2 * j] == s, "sum out=[%d] is %g, expected %g", j, got[7 - 2 * j], s);
        }
        for (int i = 0; i < 9; i += 2) CHECK(got[i] == 1234.5, "out= gap %d written", i);
    }
    /* int32 out of a float sum (unsafe cast), keepdims out */
    ga_array *o32 = ga_zeros(2, (const int64_t[]){3, 1}, GA_INT32);
    ga_array *g32 = o32;
    int ax1 = 1;
    CHECK_OK(ga_reduce(GA_REDUCE_MAX, a, 1, &ax1, GA_DTYPE_INVALID, &g32, true, NULL));
    int32_t m[3];
    if (download(o32, m))
        for (int i = 0; i < 3; i++) {
            float mx = v[i * 4];
            for (int j = 1; j < 4; j++) mx = v[i * 4 + j] > mx ? v[i * 4 + j] : mx;
            CHECK(m[i] == (int32_t)mx, "max keepdims out int32 [%d] = %d, expected %d", i, m[i], (int)mx);
        }
    /* argmax into int32 */
    ga_array *ai = ga_zeros(1, (const int64_t[]){3}, GA_INT32), *gi = ai;
    CHECK_OK(ga_reduce(GA_REDUCE_ARGMAX, a, 1, &ax1, GA_DTYPE_INVALID, &gi, false, NULL));
    /* out= overlapping the input: sum over axis 0 into row 0 of a */
    ga_array *row0 = ga_index(a, "0");
    ga_array *gr = row0;
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, 1, &ax0, GA_DTYPE_INVALID, &gr, false, NULL));
    float after[12];
    if (download(a, after))
        for (int j = 0; j < 4; j++)
            CHECK(after[j] == v[j] + v[4 + j] + v[8 + j], "in-place sum into row 0 [%d] = %g", j, (double)after[j]);
    ga_release(row0);
    ga_release(ai);
    ga_release(o32);
    ga_release(out);
    ga_release(base);
    ga_release(a);
}

DEVICE_TEST(reduce_where_and_initial)
{
    float v[6] = {1, 2, 3, 4, 5, 6};
    bool m[3] = {true, false, true};
    ga_array *a = ga_from_host(v, 2, (const int64_t[]){2, 3}, GA_FLOAT32);
    ga_array *mask = ga_from_host(m, 1, (const int64_t[]){3}, GA_BOOL);
    int ax1 = 1;
    ga_reduce_options o = {mask, NULL, 0};
    ga_array *r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o));
    values_are("sum where", r, GA_FLOAT32, 2, (double[]){4, 10}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_PROD, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o));
    values_are("prod where", r, GA_FLOAT32, 2, (double[]){3, 24}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MEAN, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o));
    values_are("mean where", r, GA_FLOAT32, 2, (double[]){2, 5}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_VAR, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o));
    values_are("var where", r, GA_FLOAT32, 2, (double[]){1, 1}, 1e-6);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_ALL, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o));
    values_are("all where", r, GA_BOOL, 2, (double[]){1, 1}, 0);
    ga_release(r), r = NULL;
    CHECK_ERROR(ga_reduce(GA_REDUCE_MAX, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o) != GA_OK, GA_ERROR_VALUE,
                "reduction operation 'maximum' does not have an identity, so to use a where mask one has to specify 'initial'");
    ga_scalar init = ga_float(-100);
    ga_reduce_options oi = {mask, &init, 0};
    CHECK_OK(ga_reduce(GA_REDUCE_MAX, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &oi));
    values_are("max where initial", r, GA_FLOAT32, 2, (double[]){3, 6}, 0);
    ga_release(r), r = NULL;
    ga_scalar big = ga_float(100);
    ga_reduce_options ob = {NULL, &big, 0};
    CHECK_OK(ga_reduce(GA_REDUCE_MAX, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &ob));
    values_are("max initial", r, GA_FLOAT32, 2, (double[]){100, 100}, 0);
    ga_release(r), r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_SUM, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &ob));
    values_are("sum initial", r, GA_FLOAT32, 2, (double[]){106, 115}, 0);
    ga_release(r), r = NULL;
    /* min of an empty slice with initial */
    ga_array *e = ga_zeros(2, (const int64_t[]){2, 0}, GA_INT8);
    ga_scalar i5 = ga_int(5);
    ga_reduce_options o5 = {NULL, &i5, 0};
    CHECK_OK(ga_reduce(GA_REDUCE_MIN, e, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o5));
    values_are("min of empty with initial", r, GA_INT8, 2, (double[]){5, 5}, 0);
    ga_release(r), r = NULL;
    ga_scalar i500 = ga_int(500);
    ga_reduce_options o500 = {NULL, &i500, 0};
    CHECK_ERROR(ga_reduce(GA_REDUCE_MIN, e, 1, &ax1, GA_DTYPE_INVALID, &r, false, &o500) != GA_OK, GA_ERROR_OVERFLOW,
                "Python integer 500 out of bounds for int8");
    ga_release(e);
    /* a where of another dtype: NumPy's cast error */
    ga_array *im = ga_ones(1, (const int64_t[]){3}, GA_INT64);
    ga_reduce_options obad = {im, NULL, 0};
    CHECK_ERROR(ga_reduce(GA_REDUCE_SUM, a, 1, &ax1, GA_DTYPE_INVALID, &r, false, &obad) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('int64') to dtype('bool') according to the rule 'safe'");
    ga_release(im);
    ga_release(mask);
    ga_release(a);
}

DEVICE_TEST(reduce_warnings)
{
    ga_reduce_warnings();
    float v[4] = {1, NAN, NAN, 2};
    ga_array *a = ga_from_host(v, 2, (const int64_t[]){2, 2}, GA_FLOAT32);
    int ax0 = 0, ax1 = 1;
    ga_array *r = ga_sum(a, GA_ALL_AXES, false);
    ga_release(r);
    CHECK(ga_reduce_warnings() == 0, "a plain sum warned");
    r = ga_nanmax(a, 1, &ax0, false); /* column 1 is (NaN, 2): fine; column 0 (1, NaN): fine */
    ga_release(r);
    CHECK(ga_reduce_warnings() == 0, "nanmax without all-NaN slices warned");
    float w[4] = {NAN, NAN, 1, 2};
    ga_array *b = ga_from_host(w, 2, (const int64_t[]){2, 2}, GA_FLOAT32);
    r = ga_nanmax(b, 1, &ax1, false);
    values_are("nanmax with an all-NaN row", r, GA_FLOAT32, 2, (double[]){NAN, 2}, 0);
    ga_release(r);
    CHECK(ga_reduce_warnings() & GA_WARNING_ALL_NAN, "no all-NaN warning");
    r = ga_nanmean(b, 1, &ax1, false);
    values_are("nanmean with an all-NaN row", r, GA_FLOAT32, 2, (double[]){NAN, 1.5}, 0);
    ga_release(r);
    CHECK(ga_reduce_warnings() & GA_WARNING_EMPTY_SLICE, "no empty-slice warning from nanmean");
    ga_array *e = ga_zeros(1, (const int64_t[]){0}, GA_FLOAT64);
    r = ga_mean(e, GA_ALL_AXES, false);
    values_are("mean of empty", r, GA_FLOAT64, 1, (double[]){NAN}, 0);
    ga_release(r);
    CHECK(ga_reduce_warnings() & GA_WARNING_EMPTY_SLICE, "no empty-slice warning from mean");
    r = ga_var(a, 1, &ax1, 2, false);
    ga_release(r);
    CHECK(ga_reduce_warnings() & GA_WARNING_DOF, "no degrees-of-freedom warning");
    CHECK(ga_reduce_warnings() == 0, "warnings not cleared");
    ga_release(e);
    ga_release(b);
    ga_release(a);
}

/* ======================================================================== */
/* average, cov, corrcoef                                                    */
/* ======================================================================== */

DEVICE_TEST(reduce_average)
{
    double v[12], wv[12], w4[4];
    for (int i = 0; i < 12; i++) v[i] = rnd_unit() * 10 - 5, wv[i] = rnd_unit() + 0.1;
    for (int j = 0; j < 4; j++) w4[j] = rnd_unit() + 0.1;
    ga_array *a = ga_from_host(v, 2, (const int64_t[]){3, 4}, GA_FLOAT64);
    ga_array *w = ga_from_host(wv, 2, (const int64_t[]){3, 4}, GA_FLOAT64);
    ga_array *wa = ga_from_host(w4, 1, (const int64_t[]){4}, GA_FLOAT64);
    int ax1 = 1;
    ga_array *sw = NULL;
    ga_array *r = ga_average(a, GA_ALL_AXES, w, false, &sw);
    double num = 0, den = 0;
    for (int i = 0; i < 12; i++) num += v[i] * wv[i], den += wv[i];
    values_are("average with weights", r, GA_FLOAT64, 1, (double[]){num / den}, 1e-13);
    values_are("average's sum of weights", sw, GA_FLOAT64, 1, (double[]){den}, 1e-13);
    ga_release(r);
    ga_release(sw);
    r = ga_average(a, 1, &ax1, wa, false, NULL);
    double want[3];
    for (int i = 0; i < 3; i++) {
        double n2 = 0, d2 = 0;
        for (int j = 0; j < 4; j++) n2 += v[i * 4 + j] * w4[j], d2 += w4[j];
        want[i] = n2 / d2;
    }
    values_are("average along axis 1 with 1-d weights", r, GA_FLOAT64, 3, want, 1e-13);
    ga_release(r);
    r = ga_average(a, 1, &ax1, NULL, false, NULL);
    for (int i = 0; i < 3; i++) want[i] = (v[i * 4] + v[i * 4 + 1] + v[i * 4 + 2] + v[i * 4 + 3]) / 4;
    values_are("average without weights", r, GA_FLOAT64, 3, want, 1e-13);
    ga_release(r);
    CHECK_ERROR(!ga_average(a, GA_ALL_AXES, wa, false, NULL), GA_ERROR_TYPE,
                "Axis must be specified when shapes of a and weights differ.");
    ga_array *z = ga_zeros(1, (const int64_t[]){4}, GA_FLOAT64);
    CHECK_ERROR(!ga_average(a, 1, &ax1, z, false, NULL), GA_ERROR_VALUE, "Weights sum to zero, can't be normalized");
    ga_release(z);
    ga_release(wa);
    ga_release(w);
    ga_release(a);
}

/* cov of the rows of x (nv x nobs), with optional weights, in long double. */
static void cov_ref(const double *x, int nv, int nobs, const double *w, int ddof, long double *c)
{
    long double wsum = 0, mean[8];
    for (int k = 0; k < nobs; k++) wsum += w ? w[k] : 1;
    for (int i = 0; i < nv; i++) {
        long double s = 0;
        for (int k = 0; k < nobs; k++) s += x[i * nobs + k] * (w ? w[k] : 1);
        mean[i] = s / wsum;
    }
    long double fact = w ? (ddof == 0 ? wsum : wsum - ddof) : nobs - ddof;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            long double s = 0;
            for (int k = 0; k < nobs; k++) s += (x[i * nobs + k] - mean[i]) * (x[j * nobs + k] - mean[j]) * (w ? w[k] : 1);
            c[i * nv + j] = s / fact;
        }
}

DEVICE_TEST(reduce_cov_and_corrcoef)
{
    enum { NV = 3, NOBS = 20001 };
    double *x = (double *)malloc(sizeof(double) * NV * NOBS), w[NOBS];
    int64_t f[NOBS];
    for (int i = 0; i < NV * NOBS; i++) x[i] = rnd_unit() * 4 - 1 + (i % NOBS) * 1e-4 * (i / NOBS);
    for (int k = 0; k < NOBS; k++) f[k] = (int64_t)(rnd() % 3), w[k] = (double)f[k];
    ga_array *m = ga_from_host(x, 2, (const int64_t[]){NV, NOBS}, GA_FLOAT64);
    long double c[NV * NV];
    double got[NV * NV];
    cov_ref(x, NV, NOBS, NULL, 1, c);
    ga_array *r = ga_cov(m, NULL, true, false, GA_NONE, NULL, NULL, GA_DTYPE_INVALID);
    if (r && download(r, got))
        for (int i = 0; i < NV * NV; i++)
            CHECK(fabsl(got[i] - c[i]) <= 1e-12L * (fabsl(c[i]) + 1), "cov[%d] = %.17g, expected %.17Lg", i, got[i], c[i]);
    else CHECK(0, "cov failed: %s", ga_last_error_message());
    ga_release(r);
    /* columns as variables (rowvar false), float32 result */
    ga_array *mt = ga_transpose(m, NULL);
    r = ga_cov(mt, NULL, false, true, GA_NONE, NULL, NULL, GA_FLOAT32);
    cov_ref(x, NV, NOBS, NULL, 0, c);
    float gf[NV * NV];
    if (r && ga_dtype_of(r) == GA_FLOAT32 && download(r, gf))
        for (int i = 0; i < NV * NV; i++)
            CHECK(fabsl(gf[i] - c[i]) <= 1e-6L * (fabsl(c[i]) + 1), "cov(bias) float32 [%d] = %g, expected %Lg", i,
                  (double)gf[i], c[i]);
    else CHECK(0, "cov float32 failed: %s", ga_last_error_message());
    ga_release(r);
    ga_release(mt);
    /* frequency weights */
    ga_array *fw = ga_from_host(f, 1, (const int64_t[]){NOBS}, GA_INT64);
    r = ga_cov(m, NULL, true, false, GA_NONE, fw, NULL, GA_DTYPE_INVALID);
    cov_ref(x, NV, NOBS, w, 1, c);
    if (r && download(r, got))
        for (int i = 0; i < NV * NV; i++)
            CHECK(fabsl(got[i] - c[i]) <= 1e-12L * (fabsl(c[i]) + 1), "cov fweights [%d] = %.17g, expected %.17Lg", i,
                  got[i], c[i]);
    else CHECK(0, "cov with fweights failed: %s", ga_last_error_message());
    ga_release(r);
    ga_release(fw);
    /* corrcoef */
    cov_ref(x, NV, NOBS, NULL, 1, c);
    r = ga_corrcoef(m, NULL, true, GA_DTYPE_INVALID);
    if (r && download(r, got))
        for (int i = 0; i < NV; i++)
            for (int j = 0; j < NV; j++) {
                long double want = c[i * NV + j] / sqrtl(c[i * NV + i] * c[j * NV + j]);
                CHECK(fabsl(got[i * NV + j] - want) <= 1e-12L && fabsl(got[i * NV + j]) <= 1,
                      "corrcoef[%d][%d] = %.17g, expected %.17Lg", i, j, got[i * NV + j], want);
            }
    else CHECK(0, "corrcoef failed: %s", ga_last_error_message());
    ga_release(r);
    /* one variable: 0-d results */
    ga_array *row = ga_index(m, "0");
    r = ga_cov(row, NULL, true, false, GA_NONE, NULL, NULL, GA_DTYPE_INVALID);
    CHECK(r && ga_ndim(r) == 0, "cov of one variable is not 0-d");
    ga_release(r);
    r = ga_corrcoef(row, NULL, true, GA_DTYPE_INVALID);
    values_are("corrcoef of one variable", r, GA_FLOAT64, 1, (double[]){1}, 0);
    ga_release(r);
    /* y appended */
    r = ga_cov(row, row, true, false, GA_NONE, NULL, NULL, GA_DTYPE_INVALID);
    CHECK(r && ga_ndim(r) == 2 && ga_shape(r)[0] == 2, "cov(x, y) is not 2 x 2");
    ga_release(r);
    ga_release(row);
    /* errors */
    ga_array *m3 = ga_zeros(3, (const int64_t[]){2, 2, 2}, GA_FLOAT64);
    CHECK_ERROR(!ga_cov(m3, NULL, true, false, GA_NONE, NULL, NULL, GA_DTYPE_INVALID), GA_ERROR_VALUE,
                "m has more than 2 dimensions");
    ga_array *neg = ga_full(1, (const int64_t[]){NOBS}, ga_int(-1), GA_INT64);
    CHECK_ERROR(!ga_cov(m, NULL, true, false, GA_NONE, neg, NULL, GA_DTYPE_INVALID), GA_ERROR_VALUE,
                "fweights cannot be negative");
    ga_release(neg);
    ga_release(m3);
    ga_release(m);
    free(x);
}

/* ======================================================================== */
/* Errors                                                                    */
/* ======================================================================== */

DEVICE_TEST(reduce_errors)
{
    ga_array *a = ga_zeros(2, (const int64_t[]){2, 3}, GA_FLOAT64), *r = NULL;
    int ax2 = 2, axm3 = -3, dup[2] = {0, -2}, two[2] = {0, 1}, ax0 = 0;
    CHECK_ERROR(!ga_sum(a, 1, &ax2, false), GA_ERROR_AXIS, "ga_sum: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_mean(a, 1, &axm3, false), GA_ERROR_AXIS, "axis -3 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_sum(a, 2, dup, false), GA_ERROR_VALUE, "duplicate value in 'axis'");
    CHECK_ERROR(!ga_argmax(a, 2, false), GA_ERROR_AXIS, "axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(ga_reduce(GA_REDUCE_ARGMAX, a, 2, two, GA_DTYPE_INVALID, &r, false, NULL) != GA_OK, GA_ERROR_TYPE,
                "'tuple' object cannot be interpreted as an integer");
    /* out= of the wrong shape */
    ga_array *o3 = ga_zeros(1, (const int64_t[]){3}, GA_FLOAT64), *g = o3;
    CHECK_ERROR(ga_reduce(GA_REDUCE_SUM, a, GA_ALL_AXES, GA_DTYPE_INVALID, &g, false, NULL) != GA_OK, GA_ERROR_SHAPE,
                "output parameter for reduction operation add has the wrong number of dimensions: Found 1 but expected 0");
    ga_array *o2 = ga_zeros(1, (const int64_t[]){2}, GA_FLOAT64);
    g = o2;
    CHECK_ERROR(ga_reduce(GA_REDUCE_SUM, a, 1, &ax0, GA_DTYPE_INVALID, &g, false, NULL) != GA_OK, GA_ERROR_SHAPE,
                "operands could not be broadcast together with remapped shapes [original->remapped]: (2,)->(2) (2,3)");
    g = o2;
    CHECK_ERROR(ga_reduce(GA_REDUCE_ARGMAX, a, 1, &ax0, GA_DTYPE_INVALID, &g, false, NULL) != GA_OK, GA_ERROR_SHAPE,
                "output array does not match result of np.argmax.");
    g = o3;
    CHECK_ERROR(ga_reduce(GA_REDUCE_ARGMAX, a, 1, &ax0, GA_DTYPE_INVALID, &g, false, NULL) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
    ga_array *k3 = ga_zeros(1, (const int64_t[]){3}, GA_FLOAT64);
    g = k3;
    CHECK_ERROR(ga_reduce(GA_REDUCE_SUM, a, 1, &ax0, GA_DTYPE_INVALID, &g, true, NULL) != GA_OK, GA_ERROR_SHAPE,
                "(must match the operand's when keepdims=True)");
    ga_release(k3);
    ga_release(o2);
    ga_release(o3);
    /* empty reductions without an identity */
    ga_array *e = ga_zeros(2, (const int64_t[]){0, 3}, GA_FLOAT32);
    CHECK_ERROR(!ga_max(e, 1, &ax0, false), GA_ERROR_VALUE,
                "ga_max: zero-size array to reduction operation maximum which has no identity");
    CHECK_ERROR(!ga_nanmin(e, GA_ALL_AXES, false), GA_ERROR_VALUE,
                "zero-size array to reduction operation fmin which has no identity");
    CHECK_ERROR(!ga_argmin(e, 0, false), GA_ERROR_VALUE, "attempt to get argmin of an empty sequence");
    CHECK_ERROR(!ga_ptp(e, GA_ALL_AXES, false), GA_ERROR_VALUE, "which has no identity");
    ga_release(e);
    float nans[4] = {NAN, NAN, 1, NAN}, some[4] = {NAN, 1, 2, NAN};
    ga_array *n = ga_from_host(nans, 2, (const int64_t[]){2, 2}, GA_FLOAT32);
    ga_array *s2 = ga_from_host(some, 2, (const int64_t[]){2, 2}, GA_FLOAT32);
    CHECK_ERROR(!ga_nanargmax(n, 1, false), GA_ERROR_VALUE, "ga_nanargmax: All-NaN slice encountered");
    ga_array *flat = ga_nanargmin(n, GA_AXIS_NONE, false); /* one element is not NaN: fine */
    values_are("nanargmin of the flattened array", flat, GA_INT64, 1, (double[]){2}, 0);
    ga_release(flat);
    ga_array *ok = ga_nanargmax(s2, 1, false);
    values_are("nanargmax over axis 1", ok, GA_INT64, 2, (double[]){1, 0}, 0);
    ga_release(ok);
    ok = ga_nanargmin(s2, 0, false);
    values_are("nanargmin over axis 0", ok, GA_INT64, 2, (double[]){1, 0}, 0);
    ga_release(ok);
    ga_release(s2);
    ga_release(n);
    ga_array *b = ga_zeros(1, (const int64_t[]){3}, GA_BOOL);
    CHECK_ERROR(!ga_ptp(b, GA_ALL_AXES, false), GA_ERROR_TYPE, "numpy boolean subtract");
    ga_release(b);
    /* a NULL input keeps the first error */
    CHECK_ERROR(!ga_sum(ga_sum(a, 1, &ax2, false), GA_ALL_AXES, false), GA_ERROR_AXIS, "ga_sum: axis 2");
    ga_release(a);
}

/* ======================================================================== */
/* Host tests                                                                */
/* ======================================================================== */

TEST(reduce_names)
{
#define NAME_CHECK(E, name) CHECK(strcmp(ga_reduction_name(GA_REDUCE_##E), #name) == 0, "name of %s", #name);
    GA_REDUCTION_LIST(NAME_CHECK)
#undef NAME_CHECK
    CHECK(ga_reduction_name(GA_NUM_REDUCTIONS) == NULL, "name of an invalid reduction");
    CHECK(ga_reduction_name((ga_reduction)-1) == NULL, "name of -1");
}

/* Every kernel the dispatcher asks for, for every dtype, is built. */
static bool in_kernel_list(const char *op, const char *in)
{
#define KERNEL_MATCH(o, i) \
    if (strcmp(op, #o) == 0 && strcmp(in, #i) == 0) return true;
    GA__REDUCE_KERNEL_LIST(KERNEL_MATCH)
    return false;
}

TEST(reduce_every_dispatched_kernel_is_built)
{
    for (int t = 0; t < GA_NUM_DTYPES; t++) {
        ga_dtype d = (ga_dtype)t;
        /* sums, products, mean, var: the value type of each dtype (and of
           the accumulators dtype= may name) */
        for (int v = 0; v < GA_NUM_DTYPES; v++) {
            ga_dtype acc = (ga_dtype)v, value = ga__rvalue(acc, false);
            if (!ga__rloadable(value, d)) continue; /* converted by astype first */
            const char *in = ga__rin_names[ga__rin_for(value, d)];
            CHECK(in_kernel_list("sum", in) && in_kernel_list("prod", in), "sum/prod %s -> %s: %s", dname(d),
                  dname(acc), in);
            if (!is_exact(acc)) CHECK(in_kernel_list("sumsq", in), "sumsq %s -> %s: %s", dname(d), dname(acc), in);
            int pop, pin, pflags; /* the products' combine pass (complex: prodcombine) */
            ga_dtype pd;
            ga__rcombine_of(GA__ROP_PROD, 0, value, &pop, &pin, &pflags, &pd);
            CHECK(in_kernel_list(ga__rop_names[pop], ga__rin_names[pin]), "prod combine of %s", dname(acc));
        }
        ga_dtype ord = ga__rvalue(d, true);
        const char *in = ga__rin_names[ga__rin_for(ord, d)];
        CHECK(in_kernel_list("minmax", in) && in_kernel_list("arg", in), "min/argmin of %s: %s", dname(d), in);
        int cop, cin, cflags;
        ga_dtype cd;
        ga__rcombine_of(GA__ROP_ARG, 0, ord, &cop, &cin, &cflags, &cd);
        CHECK(in_kernel_list(ga__rop_names[cop], ga__rin_names[cin]), "argmin combine of %s", dname(d));
        ga__rcombine_of(GA__ROP_MINMAX, 0, ord, &cop, &cin, &cflags, &cd);
        CHECK(in_kernel_list(ga__rop_names[cop], ga__rin_names[cin]), "min combine of %s", dname(d));
    }
    CHECK(in_kernel_list("count", "any") && in_kernel_list("logic", "any"), "count, logic");
}

/* Every kernel of a pass the dispatcher may give the packed rows (a first
   pass of a native load of at most 8 bytes) has its packed form. */
static bool in_packed_list(const char *op, const char *in)
{
    GA__REDUCE_PACKED_LIST(KERNEL_MATCH)
    return false;
}
#undef KERNEL_MATCH

TEST(reduce_every_packed_kernel_is_built)
{
    const int ins[] = {GA__RIN_FLOAT32, GA__RIN_FLOAT64, GA__RIN_COMPLEX64};
    for (int op = 0; op < GA__NUM_ROPS; op++) {
        if (op == GA__ROP_ARGCOMBINE || op == GA__ROP_PRODCOMBINE || op == GA__ROP_MINMAXCOMBINE)
            continue; /* reads partial states: never a first pass */
        for (int i = 0; i < 3; i++) {
            const char *o = ga__rop_names[op], *in = ga__rin_names[ins[i]];
            if (in_kernel_list(o, in)) CHECK(in_packed_list(o, in), "packed %s of %s", o, in);
        }
    }
}

/* ======================================================================== */
/* Issue 15: NumPy parity                                                    */
/* ======================================================================== */

/* NumPy's complex product: in order, from 1, each product rounded on its
   own (double, or float when !wide); nanprod replaces NaN by 1. */
static void seq_cprod(bool wide, const double *z, int64_t n, bool nan_one, double *rr, double *ri)
{
    double pr = 1, pi = 0;
    for (int64_t k = 0; k < n; k++) {
        double br = z[2 * k], bi = z[2 * k + 1];
        if (nan_one && (isnan(br) || isnan(bi))) br = 1, bi = 0;
        if (wide) {
            volatile double p1 = pr * br, p2 = pi * bi, p3 = pr * bi, p4 = pi * br;
            pr = p1 - p2, pi = p3 + p4;
        } else {
            volatile float p1 = (float)pr * (float)br, p2 = (float)pi * (float)bi, p3 = (float)pr * (float)bi,
                           p4 = (float)pi * (float)br;
            pr = (float)(p1 - p2), pi = (float)(p3 + p4);
        }
    }
    *rr = pr, *ri = pi;
}

static bool same_special(double got, double want, double rel)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return !isnan(got) && !isinf(got) && fabs(got - want) <= rel * fabs(want);
}

/* prod and nanprod of complex numbers with infinities, NaN and products
   that overflow: NumPy's values part by part, for rows of every length the
   kernels treat differently (a thread, a warp, blocks, several passes),
   along the last axis and the first (the outer kernel), reversed (NumPy
   multiplies in the view's order), as Python's NumPy gives them:
   prod([1e200+1e200j] * 2) is nan+infj and prod([inf+0j, 1+1j]) inf+infj
   (a product fused into an fma, or multiplied in another order, gave
   -inf+infj). */
DEVICE_TEST(reduce_complex_prod_special_values)
{
    static const int64_t lengths[] = {1, 2, 3, 4, 5, 9, 17, 40, 300, 5000, 300001};
    for (int w = 0; w < 2; w++) {
        const bool wide = w != 0;
        const ga_dtype t = wide ? GA_COMPLEX128 : GA_COMPLEX64;
        const double big = wide ? 1e200 : 0x1p70, rel = wide ? 1e-12 : 1e-5;
        const double specials[][2] = {{INFINITY, 0}, {0, INFINITY}, {-INFINITY, 1}, {INFINITY, -INFINITY}, {NAN, 0},
                                      {1, NAN}, {big, big}, {-big, big}, {0, 0}, {-0.0, 2}};
        const int nspecial = (int)(sizeof specials / sizeof specials[0]);
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
            const int64_t n = lengths[li];
            for (int trial = 0; trial < (n > 5000 ? 3 : 24); trial++) {
                /* unit values (+-1, +-i: exact products), and specials at the
                   end, just before it, in the middle or at the start */
                double *z = (double *)malloc((size_t)n * 2 * sizeof(double));
                for (int64_t k = 0; k < n; k++) {
                    int q = (int)(rnd() % 4);
                    z[2 * k] = q == 0 ? 1 : q == 1 ? -1 : 0;
                    z[2 * k + 1] = q == 2 ? 1 : q == 3 ? -1 : 0;
                }
                /* at most one big value before the last two elements: two
                   there overflow in the head, whose order is not NumPy's
                   (a zero multiplied before or after the overflow gives 0
                   or NaN) */
                int nput = trial % 4, head_bigs = 0, reversed_head_bigs = 0;
                for (int i = 0; i < nput; i++) {
                    int64_t where = (int64_t)(rnd() % 4);
                    int64_t k = where == 0 ? n - 1 : where == 1 ? n - 2 : where == 2 ? n / 2 : (int64_t)(rnd() % (uint64_t)n);
                    if (k < 0) k = 0;
                    const double *v = specials[rnd() % (uint64_t)nspecial];
                    const bool is_big = isfinite(v[0]) && fabs(v[0]) == big;
                    if (is_big && k < n - 2 && head_bigs++ > 0) continue;
                    const bool was_big = isfinite(z[2 * k]) && fabs(z[2 * k]) == big;
                    reversed_head_bigs += (k >= 2) * ((int)is_big - (int)was_big);
                    z[2 * k] = v[0], z[2 * k + 1] = v[1];
                }
                float *zf = (float *)malloc((size_t)n * 2 * sizeof(float));
                for (int64_t k = 0; k < 2 * n; k++) zf[k] = (float)z[k], z[k] = wide ? z[k] : (double)zf[k];
                ga_array *a = wide ? ga_from_host(z, 1, &n, t) : ga_from_host(zf, 1, &n, t);
                ga_array *rev = a ? ga_flip(a, GA_ALL_AXES) : NULL;
                for (int form = 0; form < 4; form++) {
                    /* prod, nanprod, prod of the reversed view, prod along axis 0 of (n, 1) */
                    bool nan_one = form == 1, reversed = form == 2;
                    /* the reversed view's head is z's end: the rule above, from its side */
                    if (reversed && reversed_head_bigs > 1) continue;
                    ga_array *r = NULL;
                    if (form == 0) r = ga_prod(a, GA_ALL_AXES, false);
                    else if (form == 1) r = ga_nanprod(a, GA_ALL_AXES, false);
                    else if (form == 2) r = ga_prod(rev, GA_ALL_AXES, false);
                    else { /* (n, 2) with z in both columns, along axis 0: the outer kernel */
                        ga_array *two = ga_stack(2, (const ga_array *const[]){a, a}, 1);
                        int ax0 = 0;
                        r = ga_prod(two, 1, &ax0, false);
                        ga_release(two);
                    }
                    double want_r, want_i, got_r = 0, got_i = 0;
                    if (reversed) {
                        double *zr = (double *)malloc((size_t)n * 2 * sizeof(double));
                        for (int64_t k = 0; k < n; k++) zr[2 * k] = z[2 * (n - 1 - k)], zr[2 * k + 1] = z[2 * (n - 1 - k) + 1];
                        seq_cprod(wide, zr, n, false, &want_r, &want_i);
                        free(zr);
                    } else {
                        seq_cprod(wide, z, n, nan_one, &want_r, &want_i);
                    }
                    bool ok = r != NULL, both = true;
                    if (ok && wide) {
                        double g[4];
                        ok = ga_to_host(r, g, (size_t)ga_size(r) * 16) == GA_OK;
                        got_r = g[0], got_i = g[1];
                        if (ok && form == 3) both = g[2] == g[0] || (isnan(g[2]) && isnan(g[0]));
                    } else if (ok) {
                        float g[4];
                        ok = ga_to_host(r, g, (size_t)ga_size(r) * 8) == GA_OK;
                        got_r = g[0], got_i = g[1];
                        if (ok && form == 3) both = g[2] == g[0] || (isnan(g[2]) && isnan(g[0]));
                    }
                    if (!ok) FAIL("%s prod of %lld: %s", dname(t), (long long)n, ga_last_error_message());
                    else if (!both || !same_special(got_r, want_r, rel) || !same_special(got_i, want_i, rel))
                        FAIL("%s of %s[%lld]%s: (%g, %g), NumPy (%g, %g)", form == 1 ? "nanprod" : "prod", dname(t),
                             (long long)n, form == 2 ? " reversed" : form == 3 ? " along axis 0" : "", got_r, got_i,
                             want_r, want_i);
                    ga_clear_error();
                    ga_release(r);
                }
                ga_release(rev), ga_release(a);
                free(z), free(zf);
            }
        }
        /* initial= is NumPy's first factor (in place of the 1): init * z0 * z1 */
        const double pairs[][4] = {{big, big, big, big}, {INFINITY, 0, 1, 1}, {INFINITY, 0, INFINITY, 0},
                                   {1, 1, INFINITY, 0}, {0, INFINITY, 2, 0}, {1, 1, -1, 1}};
        for (size_t i = 0; wide && i < sizeof pairs / sizeof pairs[0]; i++) {
            int64_t two = 2;
            const double *z = pairs[i];
            ga_array *a = ga_from_host(z, 1, &two, t), *r = NULL;
            ga_scalar init = ga_complex(INFINITY, -1);
            ga_reduce_options opt = {NULL, &init, 0};
            CHECK_OK(ga_reduce(GA_REDUCE_PROD, a, GA_ALL_AXES, GA_DTYPE_INVALID, &r, false, &opt));
            double pr = INFINITY, pi = -1, g[2] = {0, 0};
            for (int k = 0; k < 2; k++) {
                volatile double p1 = pr * z[2 * k], p2 = pi * z[2 * k + 1], p3 = pr * z[2 * k + 1], p4 = pi * z[2 * k];
                pr = p1 - p2, pi = p3 + p4;
            }
            if (r && ga_to_host(r, g, sizeof g) == GA_OK)
                CHECK(same_special(g[0], pr, rel) && same_special(g[1], pi, rel),
                      "prod([(%g, %g), (%g, %g)], initial=inf-1j) = (%g, %g), NumPy (%g, %g)", z[0], z[1], z[2], z[3], g[0],
                      g[1], pr, pi);
            ga_clear_error();
            ga_release(r), ga_release(a);
        }
    }
}

/* prod and nanprod of complex numbers with where=: NumPy multiplies the
   selected elements only, in order, from 1, so which parts of an infinite
   product are NaN depends on the selected elements last (a masked element
   multiplied as 1 + 0j after inf + 0j would make its real part NaN:
   prod([2, inf, x], where=[T, T, F]) is inf+nanj). Rows of (R, n) along
   axis 1, along axis 0 of the transpose, and both axes, against the
   sequential product of the selected elements in C order; dtype=complex64
   of float32 elements too. */
DEVICE_TEST(reduce_complex_prod_where)
{
    const int64_t R = 7, lengths[] = {1, 2, 3, 5, 33, 700};
    const double specials[][2] = {{INFINITY, 0}, {0, INFINITY}, {-INFINITY, 1}, {NAN, 0}, {2, 0}, {-1, 0}, {0, 1}};
    const int nspecial = (int)(sizeof specials / sizeof specials[0]);
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
        const int64_t n = lengths[li], shape[2] = {R, n}, size = R * n;
        double *z = (double *)malloc((size_t)size * 2 * sizeof(double)), *sel = (double *)malloc((size_t)size * 2 * sizeof(double));
        bool *m = (bool *)malloc((size_t)size);
        for (int trial = 0; trial < 6; trial++) {
            for (int64_t k = 0; k < size; k++) { /* unit values, specials at a quarter, a random mask */
                const double *v = specials[rnd() % (uint64_t)nspecial];
                const bool special = rnd() % 4 == 0;
                z[2 * k] = special ? v[0] : rnd() % 2 ? 1 : -1, z[2 * k + 1] = special ? v[1] : 0;
                m[k] = rnd() % 3 != 0;
            }
            ga_array *a = ga_from_host(z, 2, shape, GA_COMPLEX128), *w = ga_from_host(m, 2, shape, GA_BOOL);
            for (int form = 0; form < 4; form++) {
                /* 0 prod along axis 1, 1 nanprod along axis 1, 2 prod along both, 3 along axis 0 of the transpose */
                const bool nan_one = form == 1;
                ga_array *x = form == 3 ? ga_transpose(a, NULL) : ga_retain(a), *wx = form == 3 ? ga_transpose(w, NULL) : ga_retain(w);
                const int ax = form == 3 ? 0 : 1;
                ga_reduce_options opt = {wx, NULL, 0};
                ga_array *r = NULL;
                ga_status st = ga_reduce(nan_one ? GA_REDUCE_NANPROD : GA_REDUCE_PROD, x, form == 2 ? 0 : 1,
                                         form == 2 ? NULL : &ax, GA_DTYPE_INVALID, &r, false, &opt); /* 0, NULL: all */
                const int64_t nout = form == 2 ? 1 : R;
                double *got = st == GA_OK ? (double *)malloc((size_t)nout * 16) : NULL;
                if (!got || ga_to_host(r, got, (size_t)nout * 16) != GA_OK) {
                    FAIL("complex prod with where= (form %d, n %lld): %s", form, (long long)n, ga_last_error_message());
                } else {
                    for (int64_t i = 0; i < nout; i++) {
                        int64_t ns = 0;
                        const int64_t lo = form == 2 ? 0 : i * n, hi = form == 2 ? size : (i + 1) * n;
                        for (int64_t k = lo; k < hi; k++)
                            if (m[k]) sel[2 * ns] = z[2 * k], sel[2 * ns + 1] = z[2 * k + 1], ns++;
                        double want_r, want_i;
                        seq_cprod(true, sel, ns, nan_one, &want_r, &want_i);
                        if (!same_special(got[2 * i], want_r, 1e-12) || !same_special(got[2 * i + 1], want_i, 1e-12)) {
                            FAIL("%s of complex128[%lld, %lld] where=, form %d, row %lld: (%g, %g), NumPy (%g, %g)",
                                 nan_one ? "nanprod" : "prod", (long long)R, (long long)n, form, (long long)i, got[2 * i],
                                 got[2 * i + 1], want_r, want_i);
                            break;
                        }
                    }
                }
                free(got);
                ga_clear_error();
                ga_release(r), ga_release(x), ga_release(wx);
            }
            /* float32 elements with dtype=complex64: [2, inf, x] where [T, T, F] is inf+nanj */
            if (trial == 0 && n == 3) {
                const float f[3] = {2, INFINITY, 5};
                const bool fm[3] = {true, true, false};
                const int64_t three = 3;
                ga_array *fa = ga_from_host(f, 1, &three, GA_FLOAT32), *fw = ga_from_host(fm, 1, &three, GA_BOOL), *r = NULL;
                ga_reduce_options opt = {fw, NULL, 0};
                float g[2] = {0, 0};
                CHECK(ga_reduce(GA_REDUCE_PROD, fa, GA_ALL_AXES, GA_COMPLEX64, &r, false, &opt) == GA_OK &&
                          ga_to_host(r, g, sizeof g) == GA_OK && g[0] == INFINITY && isnan(g[1]),
                      "prod([2, inf, 5], where=[T, T, F], dtype=complex64) is inf+nanj: (%g, %g)", g[0], g[1]);
                ga_release(r), ga_release(fa), ga_release(fw);
            }
            ga_release(a), ga_release(w);
        }
        free(z), free(sel), free(m);
    }
}

/* axis=() (naxes 0, axes not NULL: GA_NO_AXES) reduces nothing, as NumPy's:
   reductions and statistics give each element alone in their dtype;
   argmin / argmax refuse it; squeeze squeezes nothing, expand_dims adds
   nothing, flip gives a unchanged. GA_ALL_AXES (0, NULL) stays every axis. */
DEVICE_TEST(reduce_empty_axis_tuple)
{
    const double v[6] = {3, -1, 4, NAN, -5, 9};
    const int64_t shape[2] = {2, 3};
    ga_array *a = ga_from_host(v, 2, shape, GA_FLOAT64);
    ga_array *rs[] = {ga_sum(a, GA_NO_AXES, false), ga_prod(a, GA_NO_AXES, false), ga_max(a, GA_NO_AXES, false),
                      ga_nanmin(a, GA_NO_AXES, true), ga_mean(a, GA_NO_AXES, false),
                      ga_average(a, GA_NO_AXES, NULL, false, NULL),
                      ga_median(a, GA_NO_AXES, false),
                      ga_quantile(a, GA_Q_SCALAR, (const double[]){0.25}, GA_NO_AXES, GA_QUANTILE_LINEAR, false)};
    const char *names[] = {"sum", "prod", "max", "nanmin keepdims", "mean", "average", "median", "quantile"};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        double got[6];
        if (!rs[i] || ga_ndim(rs[i]) != 2 || ga_shape(rs[i])[0] != 2 || ga_shape(rs[i])[1] != 3 ||
            ga_dtype_of(rs[i]) != GA_FLOAT64 || ga_to_host(rs[i], got, sizeof got) != GA_OK) {
            FAIL("%s(a, axis=()): %s", names[i], rs[i] ? "not a (2, 3) float64 array" : ga_last_error_message());
        } else {
            for (int k = 0; k < 6; k++)
                CHECK(isnan(v[k]) ? isnan(got[k]) : got[k] == v[k], "%s(a, axis=())[%d] = %g, NumPy %g", names[i], k,
                      got[k], v[k]);
        }
        ga_release(rs[i]);
    }
    ga_clear_error();
    /* var: zeros (NaN where the element is); int8 sums keep each element as int64 */
    ga_array *var = ga_var(a, GA_NO_AXES, 0, false);
    double vv[6];
    CHECK(var && ga_to_host(var, vv, sizeof vv) == GA_OK && vv[0] == 0 && isnan(vv[3]) && vv[5] == 0,
          "var(a, axis=()): %s", ga_last_error_message());
    ga_release(var);
    const int8_t iv[3] = {-128, 5, 127};
    const int64_t three = 3;
    ga_array *ia = ga_from_host(iv, 1, &three, GA_INT8), *is = ga_sum(ia, GA_NO_AXES, false);
    int64_t isv[3];
    CHECK(is && ga_dtype_of(is) == GA_INT64 && ga_to_host(is, isv, sizeof isv) == GA_OK && isv[0] == -128 && isv[2] == 127,
          "sum(int8, axis=()): %s", ga_last_error_message());
    ga_release(is), ga_release(ia);
    /* an empty array: min with axis=() is no empty reduction */
    const int64_t e03[2] = {0, 3};
    ga_array *e = ga_zeros(2, e03, GA_FLOAT32), *em = ga_min(e, GA_NO_AXES, false);
    CHECK(em && ga_size(em) == 0 && ga_ndim(em) == 2, "min(zeros((0, 3)), axis=()): %s", ga_last_error_message());
    ga_release(em), ga_release(e);
    ga_clear_error();
    /* argmin / argmax: NumPy's TypeError */
    ga_array *out = NULL;
    CHECK_ERROR(ga_reduce(GA_REDUCE_ARGMAX, a, GA_NO_AXES, GA_DTYPE_INVALID, &out, false, NULL) != GA_OK, GA_ERROR_TYPE,
                "'tuple' object cannot be interpreted as an integer");
    /* GA_ALL_AXES is still every axis */
    ga_array *all = ga_nansum(a, GA_ALL_AXES, false);
    double total = 0;
    CHECK(all && ga_ndim(all) == 0 && ga_to_host(all, &total, sizeof total) == GA_OK && total == 10,
          "nansum(a, axis=None): %s", ga_last_error_message());
    ga_release(all);
    /* squeeze, expand_dims, flip */
    ga_array *u = ga_reshape(a, 4, (const int64_t[]){1, 2, 1, 3});
    ga_array *sq = ga_squeeze(u, GA_NO_AXES), *sqall = ga_squeeze(u, GA_ALL_AXES);
    CHECK(sq && ga_ndim(sq) == 4, "squeeze(axis=()) squeezes nothing: %d dims", sq ? ga_ndim(sq) : -1);
    CHECK(sqall && ga_ndim(sqall) == 2, "squeeze(axis=None) squeezes every unit axis: %d dims", sqall ? ga_ndim(sqall) : -1);
    ga_array *ex = ga_expand_dims(a, GA_NO_AXES);
    CHECK(ex && ga_ndim(ex) == 2, "expand_dims(axis=()) adds nothing");
    ga_array *fl = ga_flip(a, GA_NO_AXES), *flall = ga_flip(a, GA_ALL_AXES);
    double f[6], fa[6];
    CHECK(fl && ga_to_host(fl, f, sizeof f) == GA_OK && f[0] == 3 && f[5] == 9, "flip(a, axis=()) is a unchanged");
    CHECK(flall && ga_to_host(flall, fa, sizeof fa) == GA_OK && fa[0] == 9 && fa[5] == 3, "flip(a, axis=None) reverses");
    ga_release(u), ga_release(sq), ga_release(sqall), ga_release(ex), ga_release(fl), ga_release(flall);
    ga_release(a);
    ga_clear_error();
}

/* NumPy's var where its arrays are narrower than the kernels' value type,
   step by step as numpy.var and numpy.nanvar compute: the mean in the
   working dtype w (a 16-bit w: the sum rounded to w, then divided in w),
   each deviation a - mean in the subtraction's loop (float32 for 16-bit
   operands), rounded to d (nanvar: a's dtype; var: a's dtype promoted
   with w), its square rounded to d, the squares summed over the count
   minus ddof. */
typedef struct var_case {
    ga_reduction r;
    ga_dtype t, w, d; /* a's dtype, dtype= (INVALID: t), the deviations' */
    bool where;       /* every third element left out */
} var_case;

static double numpy_var_ref(const var_case *c, const double *x, const bool *sel, int n)
{
    const bool nan = c->r == GA_REDUCE_NANVAR || c->r == GA_REDUCE_NANSTD;
    const bool std = c->r == GA_REDUCE_STD || c->r == GA_REDUCE_NANSTD;
    const ga_dtype w = c->w == GA_DTYPE_INVALID ? c->t : c->w;
    const bool narrow_w = w == GA_FLOAT16 || w == GA_BFLOAT16;
    long double s = 0;
    int cnt = 0;
    for (int i = 0; i < n; i++)
        if (sel[i] && !(nan && isnan(x[i]))) s += x[i], cnt++;
    long double mean;
    if (narrow_w) /* an intp count array (nanvar, where=): a float64 divide; var's Python int: w's loop (float32) */
        mean = round_to(w, nan || c->where ? (double)round_to(w, s) / cnt : (float)round_to(w, s) / (float)cnt);
    else
        mean = round_to(w, s / cnt);
    const ga_dtype loop = ga_promote_types(c->t, w) == GA_FLOAT64 ? GA_FLOAT64 : GA_FLOAT32;
    long double acc = 0;
    for (int i = 0; i < n; i++) {
        if (!sel[i] || (nan && isnan(x[i]))) continue;
        long double dev = round_to(c->d, round_to(loop, (long double)x[i] - mean));
        acc += round_to(c->d, dev * dev);
    }
    if (narrow_w) acc = round_to(w, acc); /* NumPy's sum of the squares is of dtype w */
    double dof = cnt - 0.0; /* ddof 0 */
    long double v = dof > 0 ? acc / dof : NAN;
    const ga_dtype rt = w;
    return std ? (double)round_to(rt, sqrtl(round_to(rt, v))) : (double)round_to(rt, v);
}

DEVICE_TEST(reduce_var_rounds_like_numpy)
{
    /* the smallest float16 steps: deviations of (0, 0, 2^-24) round to 0 in float16 */
    const uint16_t tiny[3] = {0, 0, 1};
    ga_array *h = ga_from_host(tiny, 1, (const int64_t[]){3}, GA_FLOAT16);
    ga_array *nv = NULL, *v = NULL;
    CHECK(ga_reduce(GA_REDUCE_NANVAR, h, GA_ALL_AXES, GA_FLOAT64, &nv, false, NULL) == GA_OK &&
              ga_reduce(GA_REDUCE_VAR, h, GA_ALL_AXES, GA_FLOAT64, &v, false, NULL) == GA_OK,
          "var of float16 with dtype=float64: %s", ga_last_error_message());
    values_are("nanvar(float16 [0, 0, 2^-24], dtype=float64): NumPy's deviations round to 0", nv, GA_FLOAT64, 1,
               (double[]){0.0}, 0);
    values_are("var(float16 [0, 0, 2^-24], dtype=float64): deviations in float64", v, GA_FLOAT64, 1,
               (double[]){2.0 / 9.0 * ldexp(1, -48)}, 1e-15);
    ga_release(nv), ga_release(v), ga_release(h);
    /* nanvar of reals with a complex dtype=: NumPy subtracts the complex
       mean into the real copy (casting='unsafe'); the variance of 1, 2, 4 */
    const float reals[4] = {1, 2, NAN, 4};
    ga_array *r = ga_from_host(reals, 1, (const int64_t[]){4}, GA_FLOAT32), *rv = NULL;
    CHECK(ga_reduce(GA_REDUCE_NANVAR, r, GA_ALL_AXES, GA_COMPLEX64, &rv, false, NULL) == GA_OK,
          "nanvar(float32, dtype=complex64): %s", ga_last_error_message());
    float rvh[2] = {0, 1};
    CHECK(rv && ga_dtype_of(rv) == GA_COMPLEX64 && ga_to_host(rv, rvh, sizeof rvh) == GA_OK &&
              fabsf(rvh[0] - 14.0f / 9.0f) < 1e-6f && rvh[1] == 0,
          "nanvar(float32 [1, 2, nan, 4], dtype=complex64) = %g%+gj", rvh[0], rvh[1]);
    ga_release(rv), ga_release(r);
    /* nanvar zeroes the input's NaN only: a number's NaN deviation counts
       (an infinity minus an infinite mean; a NaN mean of +inf and -inf) */
    const double specials[3][4] = {{1, 2, INFINITY, NAN}, {1, INFINITY, -INFINITY, NAN}, {0.5, 1.5, NAN, NAN}};
    const double special_var[3] = {NAN, NAN, 0.25};
    for (int k = 0; k < 3; k++) {
        unsigned char sh[8];
        for (int i = 0; i < 4; i++) store(GA_FLOAT16, specials[k][i], 0, sh + 2 * i);
        ga_array *sa = ga_from_host(sh, 1, (const int64_t[]){4}, GA_FLOAT16), *sv = NULL;
        CHECK(ga_reduce(GA_REDUCE_NANVAR, sa, GA_ALL_AXES, GA_DTYPE_INVALID, &sv, false, NULL) == GA_OK, "nanvar: %s",
              ga_last_error_message());
        char what[96];
        snprintf(what, sizeof what, "nanvar(float16 [%g, %g, %g, %g])", specials[k][0], specials[k][1], specials[k][2],
                 specials[k][3]);
        values_are(what, sv, GA_FLOAT16, 1, &special_var[k], 0);
        ga_release(sv), ga_release(sa);
    }
    static const var_case cases[] = {
        {GA_REDUCE_NANVAR, GA_FLOAT16, GA_FLOAT64, GA_FLOAT16, false},
        {GA_REDUCE_NANVAR, GA_FLOAT16, GA_FLOAT64, GA_FLOAT16, true},
        {GA_REDUCE_NANSTD, GA_FLOAT16, GA_FLOAT64, GA_FLOAT16, false},
        {GA_REDUCE_NANVAR, GA_FLOAT16, GA_FLOAT32, GA_FLOAT16, false},
        {GA_REDUCE_NANVAR, GA_FLOAT32, GA_FLOAT64, GA_FLOAT32, false},
        {GA_REDUCE_NANSTD, GA_FLOAT32, GA_FLOAT64, GA_FLOAT32, true},
        {GA_REDUCE_NANVAR, GA_BFLOAT16, GA_FLOAT64, GA_FLOAT64, false}, /* not NumPy's: float32 precision kept */
        {GA_REDUCE_VAR, GA_FLOAT16, GA_FLOAT64, GA_FLOAT64, false},
        {GA_REDUCE_VAR, GA_FLOAT32, GA_FLOAT64, GA_FLOAT64, false},
        {GA_REDUCE_VAR, GA_FLOAT16, GA_DTYPE_INVALID, GA_FLOAT16, false},
        {GA_REDUCE_VAR, GA_FLOAT16, GA_DTYPE_INVALID, GA_FLOAT16, true},
        {GA_REDUCE_NANVAR, GA_FLOAT16, GA_DTYPE_INVALID, GA_FLOAT16, false},
        {GA_REDUCE_STD, GA_FLOAT16, GA_DTYPE_INVALID, GA_FLOAT16, false},
    };
    enum { R = 3, N = 301 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const var_case *c = &cases[k];
        const bool nan = c->r == GA_REDUCE_NANVAR || c->r == GA_REDUCE_NANSTD;
        const ga_dtype w = c->w == GA_DTYPE_INVALID ? c->t : c->w;
        /* values near 1 (16-bit: 1 + k / 1024; float32: 24 random bits), NaN in the nan forms' second row */
        double x[R * N];
        bool sel[R * N];
        unsigned char host[R * N * 4];
        for (int i = 0; i < R * N; i++) {
            x[i] = c->t == GA_FLOAT32 ? (double)(float)(1 + (double)(rnd() >> 40) * ldexp(1, -30))
                                      : (double)round_to(c->t, 1 + (double)(rnd() % 64) / 1024);
            if (nan && i / N == 1 && rnd() % 5 == 0) x[i] = NAN;
            sel[i] = !c->where || i % 3 != 0;
            store(c->t, x[i], 0, host + (size_t)i * isz(c->t));
        }
        ga_array *a = ga_from_host(host, 2, (const int64_t[]){R, N}, c->t);
        ga_array *mask = NULL;
        if (c->where) mask = ga_from_host(sel, 2, (const int64_t[]){R, N}, GA_BOOL);
        ga_reduce_options o = {mask, NULL, 0};
        ga_array *out = NULL;
        const int axis = 1;
        ga_status st = ga_reduce(c->r, a, 1, &axis, c->w, &out, false, &o);
        double want[R];
        for (int r = 0; r < R; r++) want[r] = numpy_var_ref(c, x + r * N, sel + r * N, N);
        char what[160];
        snprintf(what, sizeof what, "%s(%s, dtype=%s%s) over rows of %d", ga_reduction_name(c->r), dname(c->t),
                 c->w == GA_DTYPE_INVALID ? "None" : dname(c->w), c->where ? ", where=" : "", N);
        /* float64 results: the same roundings, sums of at most 301 squares; 16-bit ones: one ulp */
        CHECK(st == GA_OK, "%s: %s", what, ga_last_error_message());
        if (st == GA_OK) values_are(what, out, w, R, want, w == GA_FLOAT64 ? 1e-13 : ldexp(1, -precision_of(w) + 1));
        ga_release(out), ga_release(mask), ga_release(a);
        ga_clear_error();
    }
}

/* NumPy's rules for the scalars around a reduction: a 0-d array takes axis
   0 or -1 (its axis=0 form: the whole array); initial= is converted as
   NumPy assigns a Python scalar (truth into bool, int() of a float into an
   integer dtype, NaN / inf / a complex refused); mean with dtype=float16
   converts the elements to float16 first, as NumPy's sum in that dtype. */
DEVICE_TEST(reduce_numpy_scalar_rules)
{
    double x = 2.5;
    ga_array *z = ga_from_host(&x, 0, (const int64_t[]){1}, GA_FLOAT64);
    int ax0 = 0, axm1 = -1, ax1 = 1;
    ga_array *r = ga_sum(z, 1, &ax0, false);
    CHECK(r && ga_ndim(r) == 0 && scalar_of(r) == 2.5, "sum(0-d, axis=0): %s", r ? "wrong value" : ga_last_error_message());
    ga_release(r);
    r = ga_argmax(z, -1, true);
    CHECK(r && ga_ndim(r) == 0 && scalar_of(r) == 0, "argmax(0-d, axis=-1): %s", r ? "wrong value" : ga_last_error_message());
    ga_release(r);
    r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MAX, z, 1, &axm1, GA_DTYPE_INVALID, &r, true, NULL));
    CHECK(r && ga_ndim(r) == 0 && scalar_of(r) == 2.5, "max(0-d, axis=-1, keepdims=True)");
    ga_release(r);
    CHECK_ERROR(ga_sum(z, 1, &ax1, false) == NULL, GA_ERROR_AXIS, "axis 1 is out of bounds for array of dimension 0");
    /* NumPy's mean, var and std count the elements per axis first: AxisError */
    CHECK_ERROR(ga_mean(z, 1, &ax0, false) == NULL, GA_ERROR_AXIS, "axis 0 is out of bounds for array of dimension 0");
    CHECK_ERROR(ga_var(z, 1, &axm1, 0, false) == NULL, GA_ERROR_AXIS, "axis -1 is out of bounds for array of dimension 0");
    ga_release(z);

    int8_t i8[3] = {1, 2, 3};
    ga_array *a = ga_from_host(i8, 1, (const int64_t[]){3}, GA_INT8);
    struct { ga_reduction r; ga_scalar init; ga_status st; const char *text; double want; } rows[] = {
        {GA_REDUCE_SUM, ga_float(1.9), GA_OK, NULL, 7},
        {GA_REDUCE_MIN, ga_float(-2.5), GA_OK, NULL, -2},
        {GA_REDUCE_MIN, ga_float(NAN), GA_ERROR_VALUE, "cannot convert float NaN to integer", 0},
        {GA_REDUCE_PROD, ga_float(INFINITY), GA_ERROR_OVERFLOW, "cannot convert float infinity to integer", 0},
        {GA_REDUCE_SUM, ga_float(1e19), GA_ERROR_OVERFLOW, "Python int too large to convert to C long", 0},
        {GA_REDUCE_MAX, ga_complex(1, 0), GA_ERROR_TYPE, "int() argument must be a string", 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ga_reduce_options o = {NULL, &rows[i].init, 0};
        r = NULL;
        ga_status st = ga_reduce(rows[i].r, a, GA_ALL_AXES, GA_DTYPE_INVALID, &r, false, &o);
        if (rows[i].st == GA_OK) {
            CHECK(st == GA_OK && scalar_of(r) == rows[i].want, "%s with initial (row %d): %g, expected %g (%s)",
                  ga_reduction_name(rows[i].r), (int)i, r ? scalar_of(r) : NAN, rows[i].want, ga_last_error_message());
        } else {
            CHECK(st == rows[i].st && strstr(ga_last_error_message(), rows[i].text), "%s with initial (row %d): %s",
                  ga_reduction_name(rows[i].r), (int)i, st == GA_OK ? "succeeded" : ga_last_error_message());
        }
        ga_clear_error();
        ga_release(r);
    }
    ga_release(a);
    bool bh[2] = {false, false};
    ga_array *b = ga_from_host(bh, 1, (const int64_t[]){2}, GA_BOOL);
    ga_scalar big = ga_uint(UINT64_C(1) << 63);
    ga_reduce_options ob = {NULL, &big, 0};
    r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MAX, b, GA_ALL_AXES, GA_DTYPE_INVALID, &r, false, &ob));
    CHECK(r && scalar_of(r) == 1, "max(bool, initial=2**63) is True");
    ga_release(r), ga_release(b);

    int32_t i32[3] = {70000, -70000, 1}; /* +-inf as float16 */
    a = ga_from_host(i32, 1, (const int64_t[]){3}, GA_INT32);
    r = NULL;
    CHECK_OK(ga_reduce(GA_REDUCE_MEAN, a, GA_ALL_AXES, GA_FLOAT16, &r, false, NULL));
    CHECK(r && isnan(scalar_of(r)), "mean(int32, dtype=float16) of +-70000: %g, NumPy nan (inf - inf)", r ? scalar_of(r) : 0);
    ga_release(r), ga_release(a);
    ga_clear_error();
}

/* nanargmax / nanargmin of an all-NaN broadcast view (stride 0 along the
   reduced axes) fail as of a contiguous one; mean, var and std of a 0-d
   array take axis 0 and -1 where a where= mask is given (NumPy sums the
   mask for the count). */
DEVICE_TEST(reduce_broadcast_all_nan_and_0d_where)
{
    float nan = NAN;
    ga_array *one = ga_from_host(&nan, 1, (const int64_t[]){1}, GA_FLOAT32);
    const int64_t lengths[] = {5, 65537};
    for (int k = 0; k < 2; k++) {
        ga_array *b = ga_broadcast_to(one, 1, &lengths[k]);
        CHECK_ERROR(ga_nanargmax(b, GA_AXIS_NONE, false) == NULL, GA_ERROR_VALUE,
                    "ga_nanargmax: All-NaN slice encountered");
        CHECK_ERROR(ga_nanargmin(b, 0, false) == NULL, GA_ERROR_VALUE, "ga_nanargmin: All-NaN slice encountered");
        ga_release(b);
    }
    float cv[2] = {NAN, 1};
    ga_array *c = ga_from_host(cv, 1, (const int64_t[]){1}, GA_COMPLEX64);
    ga_array *cb = ga_broadcast_to(c, 3, (const int64_t[]){8192, 2, 1});
    CHECK_ERROR(ga_nanargmax(cb, GA_AXIS_NONE, false) == NULL, GA_ERROR_VALUE, "ga_nanargmax: All-NaN slice encountered");
    ga_release(cb), ga_release(c), ga_release(one);
    ga_clear_error();

    double x = 4;
    bool t = true;
    ga_array *z = ga_from_host(&x, 0, NULL, GA_FLOAT64), *w = ga_from_host(&t, 0, NULL, GA_BOOL);
    ga_reduce_options o = {w, NULL, 0};
    const ga_reduction rs[] = {GA_REDUCE_MEAN, GA_REDUCE_VAR, GA_REDUCE_STD, GA_REDUCE_NANMEAN};
    const double want[] = {4, 0, 0, 4};
    int axm1 = -1;
    for (int k = 0; k < 4; k++) {
        ga_array *r = NULL;
        CHECK_OK(ga_reduce(rs[k], z, 1, &axm1, GA_DTYPE_INVALID, &r, false, &o));
        CHECK(r && ga_ndim(r) == 0 && scalar_of(r) == want[k], "reduction %d of a 0-d array, axis=-1, where=True", k);
        ga_release(r);
    }
    ga_release(z), ga_release(w);
    ga_clear_error();
}

/* ======================================================================== */
/* min / max / argmin / argmax where their vectors start and end             */
/* ======================================================================== */

/* The loops of min / max and argmin / argmax read a row's elements in
   16-byte vectors from its first aligned element, per dtype and per flag
   (max or min, NaN propagated or skipped): these tests put the extreme,
   a tie of it, NaN (complex: in either part) and zeros of both signs at
   the elements around vector boundaries, in the head before the first
   aligned element, at the first and last elements and in the tail, in
   rows of every alignment (views that start 1 or 3 elements into their
   buffer, rows of odd lengths), over rows of a warp's length and rows
   split into chunks, for every dtype, and compare every row with the host
   reference. All-NaN rows: NaN and the warning (nanmin, nanmax), the
   first index (argmin), NumPy's error (nanargmin). */

static const ga_reduction extreme_reductions[] = {GA_REDUCE_MIN,    GA_REDUCE_MAX,    GA_REDUCE_NANMIN,
                                                  GA_REDUCE_NANMAX, GA_REDUCE_ARGMIN, GA_REDUCE_ARGMAX,
                                                  GA_REDUCE_NANARGMIN, GA_REDUCE_NANARGMAX};

/* the largest (high) or smallest value of dtype t, or for floating dtypes
   +-100 (the random values are within +-10; complex: +-100 +-1j) */
static void put_extreme(ga_dtype t, unsigned char *p, bool high)
{
    if (is_exact(t)) {
        uint64_t v = t == GA_BOOL        ? (uint64_t)high
                     : is_signed(t) ? (high ? (UINT64_C(1) << (width(t) - 1)) - 1 : UINT64_C(1) << (width(t) - 1))
                                    : (high ? ~UINT64_C(0) : 0);
        memcpy(p, &v, isz(t)); /* little-endian: the low bytes */
    } else {
        store(t, high ? 100 : -100, high ? 1 : -1, p);
    }
}

/* a NaN (complex: in the real part, or with `im` in the imaginary one) */
static void put_nan(ga_dtype t, unsigned char *p, bool im)
{
    if (is_complex(t)) store(t, im ? 1 : NAN, im ? NAN : 2, p);
    else store(t, NAN, 0, p);
}

/* The positions around the vector boundaries of a row of n elements of
   dtype t starting at byte offset `start` (mod 16): the first, the head's
   last, the first aligned one and its vector's last, the next vector's
   first, two around a boundary in the middle, the tail's first, the
   vectors' last, the row's last. */
static int positions_of(ga_dtype t, int64_t n, int64_t start, int64_t *pos)
{
    const int64_t sz = (int64_t)isz(t), vw = 16 / sz;
    const int64_t head = GA__MIN((16 - start % 16) % 16 / sz, n);
    const int64_t nv = (n - head) / vw, mid = head + nv / 2 * vw, tail = head + nv * vw;
    const int64_t cand[] = {0, head - 1, head, head + vw - 1, head + vw, mid - 1, mid, tail - 1, tail, n - 1};
    int k = 0;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        bool dup = cand[i] < 0 || cand[i] >= n;
        for (int j = 0; j < k && !dup; j++) dup = pos[j] == cand[i];
        if (!dup) pos[k++] = cand[i];
    }
    return k;
}

/* Runs r over the last axis of a ((rows, n) or (n,)) whose rows hold the
   host values hv (C order) and checks each row; false if the call failed. */
static bool check_extreme_rows(ga_reduction r, ga_dtype t, const ga_array *a, const unsigned char *hv, int64_t rows,
                               int64_t n, const char *what)
{
    int ax = ga_ndim(a) - 1;
    ga_array *out = NULL;
    poison_next((size_t)rows * 16);
    if (ga_reduce(r, a, 1, &ax, GA_DTYPE_INVALID, &out, false, NULL) != GA_OK) {
        FAIL("%s %s: %s", ga_reduction_name(r), what, ga_last_error_message());
        ga_clear_error();
        return false;
    }
    ga_dtype res = result_dtype(r, t);
    unsigned char *got = (unsigned char *)malloc((size_t)rows * isz(res));
    elem *xs = (elem *)malloc((size_t)n * sizeof(elem));
    if (download(out, got)) {
        for (int64_t i = 0; i < rows; i++) {
            for (int64_t k = 0; k < n; k++) xs[k] = load(t, hv + (i * n + k) * (int64_t)isz(t));
            want w = reference(r, t, xs, n, 0);
            elem g = load(res, got + i * (int64_t)isz(res));
            if (!matches(res, g, w, false)) {
                char gs[96], ws[96];
                FAIL("%s %s %s, row %lld of %lld: gave %s, expected %s", ga_reduction_name(r), dname(t), what,
                     (long long)i, (long long)rows, show(gs, sizeof gs, res, g), show(ws, sizeof ws, res, w.v));
                break;
            }
        }
    }
    free(xs);
    free(got);
    ga_release(out);
    return true;
}

/* Rows of n elements of t, `off` elements into their buffer: each row a
   kind (planted extremes with a tie; a NaN among them; two NaN; zeros of
   both signs) and positions from positions_of. Checked over the last axis
   of the (rows, n) view and of a few rows alone (1-D, every axis). */
static void check_extreme_placements(ga_dtype t, int64_t n, int64_t off)
{
    const int64_t sz = (int64_t)isz(t), vw = 16 / sz;
    int64_t pos[10];
    const int np = positions_of(t, n, off * sz, pos); /* (only for the count: each row's own below) */
    const int64_t rows = 4 * np;
    unsigned char *base = (unsigned char *)malloc((size_t)(rows * n + off) * (size_t)sz);
    fill(t, D_FINITE, base, rows * n + off);
    unsigned char *hv = base + off * sz;
    for (int64_t i = 0; i < rows; i++) {
        unsigned char *row = hv + i * n * sz;
        int64_t p[10];
        const int k = positions_of(t, n, (off + i * n) * sz, p);
        const int kind = (int)(i % 4);
        const int64_t at = p[(i / 4) % k], other = p[(i / 4 + 3) % k], later = GA__MIN(at + vw + (i % 3), n - 1);
        if (kind == 3) {
            for (int64_t e = 0; e < n; e++) {
                if (is_exact(t)) memset(row + e * sz, 0, (size_t)sz);
                else store(t, rnd() % 2 ? -0.0 : 0.0, rnd() % 2 ? -0.0 : 0.0, row + e * sz);
            }
            continue;
        }
        put_extreme(t, row + at * sz, (i / 4) % 2 == 0);
        put_extreme(t, row + later * sz, (i / 4) % 2 == 0); /* a tie after it: argmin / argmax keep the first */
        if (other != at && other != later) put_extreme(t, row + other * sz, (i / 4) % 2 != 0);
        if (kind >= 1 && is_inexact(t)) {
            put_nan(t, row + (kind == 1 ? at : other) * sz, i % 8 < 4);
            if (kind == 2) put_nan(t, row + later * sz, i % 8 >= 4);
        }
    }
    ga_array *buf = ga_from_host(base, 1, (const int64_t[]){rows * n + off}, t);
    char text[64];
    snprintf(text, sizeof text, "%lld:", (long long)off);
    ga_array *flat = buf ? ga_index(buf, text) : NULL;
    ga_array *a = flat ? ga_reshape(flat, 2, (const int64_t[]){rows, n}) : NULL;
    char what[96];
    snprintf(what, sizeof what, "(%lld, %lld) %lld elements into the buffer", (long long)rows, (long long)n,
             (long long)off);
    if (!a) {
        FAIL("%s: making the input: %s", what, ga_last_error_message());
        ga_clear_error();
    }
    for (size_t q = 0; a && q < sizeof extreme_reductions / sizeof extreme_reductions[0]; q++) {
        if (!check_extreme_rows(extreme_reductions[q], t, a, hv, rows, n, what)) continue;
        for (int64_t i = (n + off) % 5; i < rows; i += 5) { /* rows alone: every axis of a 1-D view */
            snprintf(text, sizeof text, "%lld", (long long)i);
            ga_array *one = ga_index(a, text);
            char w1[128];
            snprintf(w1, sizeof w1, "row %lld of %s alone", (long long)i, what);
            if (one) check_extreme_rows(extreme_reductions[q], t, one, hv + i * n * sz, 1, n, w1);
            ga_release(one);
        }
    }
    ga_release(a), ga_release(flat), ga_release(buf);
    free(base);
}

/* A row of n NaN (inexact t), `off` elements into its buffer. */
static void check_all_nan(ga_dtype t, int64_t n, int64_t off)
{
    const int64_t sz = (int64_t)isz(t);
    unsigned char *base = (unsigned char *)malloc((size_t)(n + off) * (size_t)sz);
    for (int64_t e = 0; e < n + off; e++) put_nan(t, base + e * sz, e % 3 == 1);
    ga_array *buf = ga_from_host(base, 1, (const int64_t[]){n + off}, t);
    char text[32], what[96];
    snprintf(text, sizeof text, "%lld:", (long long)off);
    snprintf(what, sizeof what, "%lld NaN %lld elements into the buffer", (long long)n, (long long)off);
    ga_array *a = buf ? ga_index(buf, text) : NULL;
    ga_reduce_warnings();
    for (size_t q = 0; a && q < sizeof extreme_reductions / sizeof extreme_reductions[0]; q++) {
        ga_reduction r = extreme_reductions[q];
        if (r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX) {
            ga_array *out = NULL;
            CHECK_ERROR(ga_reduce(r, a, GA_ALL_AXES, GA_DTYPE_INVALID, &out, false, NULL) != GA_OK, GA_ERROR_VALUE,
                        "All-NaN slice encountered");
            ga_release(out);
            continue;
        }
        check_extreme_rows(r, t, a, base + off * sz, 1, n, what);
        const bool warned = (ga_reduce_warnings() & GA_WARNING_ALL_NAN) != 0;
        CHECK(warned == (r == GA_REDUCE_NANMIN || r == GA_REDUCE_NANMAX), "%s %s %s: all-NaN warning %d",
              ga_reduction_name(r), dname(t), what, warned);
    }
    if (!a) FAIL("%s: making the input: %s", what, ga_last_error_message());
    ga_clear_error();
    ga_release(a), ga_release(buf);
    free(base);
}

DEVICE_TEST(reduce_extremes_at_vector_boundaries)
{
    const int64_t lengths[] = {40, 1001, 5003, 70001};
    const int64_t offsets[] = {0, 1, 3};
    for (int t = 0; t < GA_NUM_DTYPES; t++)
        for (int i = 0; i < 4; i++)
            for (int o = 0; o < 3; o++) {
                if (!test_sample(t * 16 + i * 3 + o, 3)) continue;
                check_extreme_placements((ga_dtype)t, test_length(lengths[i]), offsets[o]);
                if (is_inexact((ga_dtype)t)) check_all_nan((ga_dtype)t, test_length(lengths[i]), offsets[o]);
            }
}
