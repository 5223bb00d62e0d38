/* Statistical tests of random-number distributions, on the host.

   The device tests draw N samples on the GPU with fixed seeds, copy them to
   the host and judge them here: a Kolmogorov-Smirnov test against the exact
   CDF (continuous distributions), a chi-square goodness-of-fit test against
   the exact PMF (discrete ones), and the sample mean and variance against
   the exact moments. Every distribution of numpy.random.Generator has its
   CDF or PMF, mean and variance here, in NumPy's parameterisation.

   Everything is computed in double (long double where it helps) and aims at
   1e-12 relative accuracy where tests look; tests/test_random_stats.c checks
   it against 50-digit references (tools/gen_stats_cases.py). The header
   needs only the C library (math.h, stdlib.h, string.h, stdint.h, float.h),
   compiles as C11 and C++17, and has static inline functions only: include
   it in each test program that uses it.

   Contents
     1. Special functions: Loader's saddle-point pieces, the regularized
        incomplete gamma and beta functions, the normal CDF, Riemann's zeta,
        Bessel-function ratios
     2. Test statistics: Kolmogorov-Smirnov, chi-square, moments
     3. Continuous distributions: CDF, mean, variance
     4. Discrete distributions: PMF, mean, variance
     5. The table of distributions by NumPy name

   Conventions. A distribution's parameters come as an array in the order
   of NumPy's arguments (normal: {loc, scale}; binomial: {n, p}); standard_*
   forms take none (params may be NULL). ga_<name>_cdf(x, params) and
   ga_<name>_pmf(k, params) evaluate the distribution, ga_<name>_mean(params)
   and ga_<name>_var(params) its moments: INFINITY where a moment diverges
   (the variance of a one-sided law whose second moment does, as scipy),
   NAN where it is undefined (Cauchy; Student's t with df <= 1). Invalid
   parameters give NAN, which the tests below turn into a rejection.

   Multivariate draws are tested through their marginals: multinomial(n,
   pvals)'s i-th count is binomial(n, pvals[i]); dirichlet(alpha)'s i-th
   component is beta(alpha[i], sum(alpha) - alpha[i]);
   multivariate_hypergeometric's i-th count is hypergeometric(colors[i],
   sum(colors) - colors[i], nsample); multivariate_normal(mean, cov)'s i-th
   component is normal(mean[i], sqrt(cov[i][i])). */
#ifndef GPUARR_RANDOM_STATS_H
#define GPUARR_RANDOM_STATS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every function is static inline: unused ones draw no warning. */
#define GA_STATS_API static inline

#define GA__ST_PI 3.141592653589793238462643383279502884
#define GA__ST_LN_SQRT_2PI 0.9189385332046727417803297364056176398L /* log(sqrt(2 pi)) */
#define GA__ST_SQRT1_2 0.7071067811865475244008443621048490393     /* 1 / sqrt(2) */
#define GA__ST_EULER 0.5772156649015328606065120900824024310       /* Euler's gamma */
#define GA__ST_TINY 1e-300 /* Lentz's floor for a vanishing denominator */

typedef double (*ga_cdf_fn)(double x, const double *params);
typedef double (*ga_pmf_fn)(int64_t k, const double *params);

/* ========================================================================== */
/* 1. Special functions                                                       */
/* ========================================================================== */

/* Loader's saddle-point pieces ("Fast and accurate computation of binomial
   probabilities", 2000, as R's dbinom): densities written as exp of small
   differences, so that they keep full relative accuracy where lgamma
   differences of large numbers would lose digits. */

/* log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula, n > 0. */
static inline double ga__st_stirlerr(double n)
{
    if (n > 15.0) {
        double nn = 1.0 / (n * n);
        return (1.0 / 12 -
                nn * (1.0 / 360 - nn * (1.0 / 1260 - nn * (1.0 / 1680 - nn * (1.0 / 1188 - nn * 691.0 / 360360))))) /
               n;
    }
    long double ln = n;
    return (double)(lgammal(ln + 1) - (ln + 0.5L) * logl(ln) + ln - GA__ST_LN_SQRT_2PI);
}

/* x log(x / np) + np - x, the deviance term, without cancellation when x is
   near np (a series) and in long double elsewhere (it may be hundreds, and
   it is exponentiated); x > 0, np > 0. */
static inline long double ga__st_bd0(double x, double np)
{
    if (fabs(x - np) < 0.1 * (x + np)) {
        double v = (x - np) / (x + np), s = (x - np) * v, ej = 2 * x * v;
        v *= v;
        for (int j = 1; j < 1000; j++) {
            ej *= v;
            double s1 = s + ej / (2 * j + 1);
            if (s1 == s) return s1;
            s = s1;
        }
        return s;
    }
    long double lx = x;
    return lx * logl(lx / np) + np - lx;
}

/* Gamma(n + 1) / (Gamma(x + 1) Gamma(n - x + 1)) p^x q^n-x, q = 1 - p given
   separately; x and n real, 0 <= x <= n (the binomial PMF for integers). */
static inline double ga__st_dbinom_raw(double x, double n, double p, double q)
{
    if (p == 0) return x == 0 ? 1 : 0;
    if (q == 0) return x == n ? 1 : 0;
    long double ln = n;
    if (x == 0) return n == 0 ? 1 : (double)expl(p < 0.1 ? -ga__st_bd0(n, n * q) - ln * p : ln * logl(q));
    if (x == n) return (double)expl(q < 0.1 ? -ga__st_bd0(n, n * p) - ln * q : ln * logl(p));
    if (x < 0 || x > n) return 0;
    long double lc = (long double)ga__st_stirlerr(n) - ga__st_stirlerr(x) - ga__st_stirlerr(n - x) -
                     ga__st_bd0(x, n * p) - ga__st_bd0(n - x, n * q);
    double lf = 2 * (double)GA__ST_LN_SQRT_2PI + log(x) + log1p(-x / n);
    return (double)expl(lc - 0.5L * lf);
}

/* lambda^x e^-lambda / Gamma(x + 1) for real x >= 0 (the Poisson PMF for
   integers). */
static inline double ga__st_dpois_raw(double x, double lambda)
{
    if (lambda == 0) return x == 0 ? 1 : 0;
    if (x == 0) return exp(-lambda);
    if (x < 0) return 0;
    return (double)expl(-ga__st_stirlerr(x) - ga__st_bd0(x, lambda)) / sqrt(2 * GA__ST_PI * x);
}

/* x^a e^-x / Gamma(a + 1): P(a, x) - P(a + 1, x). */
static inline double ga__st_gamma_prefix(double a, double x)
{
    if (x <= 0) return 0;
    if (isinf(x)) return 0;
    return ga__st_dpois_raw(a, x);
}

/* x^a y^b / (a B(a, b)), y = 1 - x given separately: I_x(a, b) - I_x(a + 1, b). */
static inline double ga__st_beta_prefix(double a, double b, double x, double y)
{
    if (x <= 0 || y <= 0) return 0;
    return b / (a + b) * ga__st_dbinom_raw(a, a + b, x, y);
}

/* The continued fraction of Q(a, x) (Legendre's, evaluated by Lentz's
   method) without its prefix a x^a e^-x / Gamma(a + 1); x >= a + 1. */
static inline double ga__st_gamma_cf(double a, double x)
{
    double b = x + 1 - a, c = 1 / GA__ST_TINY, d = 1 / b, h = d;
    for (int i = 1; i < 1000000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < GA__ST_TINY) d = GA__ST_TINY;
        c = b + an / c;
        if (fabs(c) < GA__ST_TINY) c = GA__ST_TINY;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) <= DBL_EPSILON) break;
    }
    return h;
}

/* The series of P(a, x) without its prefix x^a e^-x / Gamma(a + 1):
   sum over n of x^n / ((a + 1) ... (a + n)); x < a + 1. */
static inline double ga__st_gamma_series(double a, double x)
{
    double term = 1, sum = 1;
    for (int n = 1; n < 1000000; n++) {
        term *= x / (a + n);
        sum += term;
        if (term <= sum * (DBL_EPSILON / 4)) break;
    }
    return sum;
}

/* P(a, x) (upper 0) or Q(a, x) (upper 1): the series below x = a + 1, the
   continued fraction above, each computing the smaller side. */
static inline double ga__st_igamma(double a, double x, int upper)
{
    if (isnan(a) || isnan(x) || !(a > 0)) return NAN;
    if (x <= 0) return upper ? 1 : 0;
    if (isinf(x)) return upper ? 0 : 1;
    if (x < a + 1) {
        double p = ga__st_gamma_prefix(a, x) * ga__st_gamma_series(a, x);
        return upper ? 1 - p : p;
    }
    double q = a * ga__st_gamma_prefix(a, x) * ga__st_gamma_cf(a, x);
    return upper ? q : 1 - q;
}

/* The regularized lower incomplete gamma function P(a, x) =
   gamma(a, x) / Gamma(a), a > 0 (scipy.special.gammainc). */
GA_STATS_API double ga_gammainc(double a, double x) { return ga__st_igamma(a, x, 0); }

/* Its complement Q(a, x) = 1 - P(a, x), accurate where small
   (scipy.special.gammaincc); the chi-square survival is Q(df/2, x/2). */
GA_STATS_API double ga_gammaincc(double a, double x) { return ga__st_igamma(a, x, 1); }

/* The continued fraction of I_x(a, b) (Numerical Recipes' betacf form,
   Lentz's method) without its prefix x^a y^b / (a B(a, b)); it converges
   fast for x < (a + 1) / (a + b + 2). */
static inline double ga__st_beta_cf(double a, double b, double x)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < GA__ST_TINY) d = GA__ST_TINY;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 1000000; m++) {
        for (int half = 0; half < 2; half++) {
            double aa = half == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                  : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
            d = 1 + aa * d;
            if (fabs(d) < GA__ST_TINY) d = GA__ST_TINY;
            c = 1 + aa / c;
            if (fabs(c) < GA__ST_TINY) c = GA__ST_TINY;
            d = 1 / d;
            h *= d * c;
            if (half == 1 && fabs(d * c - 1) <= DBL_EPSILON) return h;
        }
    }
    return h;
}

/* I_x(a, b) (upper 0) or 1 - I_x(a, b) (upper 1), with y = 1 - x given
   separately so that callers keep its accuracy (t and F pass both). */
static inline double ga__st_ibeta(double a, double b, double x, double y, int upper)
{
    if (isnan(x) || isnan(y) || !(a > 0) || !(b > 0)) return NAN;
    if (x <= 0) return upper ? 1 : 0;
    if (y <= 0) return upper ? 0 : 1;
    if (x * (a + b + 2) < a + 1) {
        double v = ga__st_beta_prefix(a, b, x, y) * ga__st_beta_cf(a, b, x);
        return upper ? 1 - v : v;
    }
    double v = ga__st_beta_prefix(b, a, y, x) * ga__st_beta_cf(b, a, y); /* 1 - I_x(a, b) */
    return upper ? v : 1 - v;
}

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1
   (scipy.special.betainc). */
GA_STATS_API double ga_betainc(double a, double b, double x)
{
    if (x < 0 || x > 1) return NAN;
    return ga__st_ibeta(a, b, x, 1 - x, 0);
}

/* The standard normal CDF Phi(x) (scipy.special.ndtr) and its complement
   1 - Phi(x) = Phi(-x), each accurate where small. */
GA_STATS_API double ga_ndtr(double x) { return 0.5 * erfc(-x * GA__ST_SQRT1_2); }
GA_STATS_API double ga_ndtrc(double x) { return 0.5 * erfc(x * GA__ST_SQRT1_2); }

/* exp(z^2) erfc(z) for z >= 0, without overflow: directly below 3, above by
   the continued fraction z + (1/2) / (z + 1 / (z + (3/2) / (z + ...))). */
static inline double ga__st_erfcx(double z)
{
    if (z < 3) return exp(z * z) * erfc(z);
    double f = z, c = z, d = 0;
    for (int k = 1; k < 10000; k++) {
        double a = 0.5 * k;
        d = 1 / (z + a * d);
        c = z + a / c;
        double del = c * d;
        f *= del;
        if (fabs(del - 1) <= DBL_EPSILON) break;
    }
    return 1 / (sqrt(GA__ST_PI) * f);
}

/* Riemann's zeta(s) = sum over k >= 1 of k^-s, s > 1 (the Zipf
   normalization), by Euler-Maclaurin summation after ten terms. */
GA_STATS_API double ga_zeta(double s)
{
    /* B_2j / (2j)!, j = 1..8 */
    static const double bern[8] = {1.0 / 12,      -1.0 / 720,        1.0 / 30240,       -1.0 / 1209600,
                                   1.0 / 47900160, -691.0 / 1307674368000.0, 1.0 / 74724249600.0,
                                   -3617.0 / 10670622842880000.0};
    if (isnan(s) || s < 1) return NAN;
    if (s == 1) return INFINITY;
    const int n = 10;
    long double sum = 0;
    for (int k = n - 1; k >= 1; k--) sum += powl((long double)k, -(long double)s);
    sum += pow(n, 1 - s) / (s - 1) + 0.5 * pow(n, -s);
    double t = s * pow(n, -s - 1); /* s (s + 1) ... (s + 2j - 2) n^(-s - 2j + 1) */
    for (int j = 0; j < 8; j++) {
        sum += bern[j] * t;
        t *= (s + 2 * j + 1) * (s + 2 * j + 2) / (n * n);
    }
    return (double)sum;
}

/* r[j - 1] = I_j(kappa) / I_0(kappa), j = 1..n, from the ratios I_j / I_j-1
   = 1 / (2j / kappa + I_j+1 / I_j) taken downwards from 0 (Miller's
   backward recurrence, stable). The von Mises series take n = 30 + 12
   sqrt(kappa) terms: r_j falls like exp(-j^2 / (2 kappa)) for large kappa
   and like (kappa/2)^j / j! for small, below 1e-30 by then either way. */
static inline void ga__st_bessel_ratios(double kappa, int n, double *r)
{
    double rho = 0;
    for (int j = n; j >= 1; j--) {
        rho = 1 / (2 * j / kappa + rho);
        r[j - 1] = rho;
    }
    for (int j = 1; j < n; j++) r[j] *= r[j - 1];
}

/* The von Mises series sum over j >= 1 of r_j (a sin(j t) + (-1)^j (b
   sin(j mu) + c cos(j mu) / j)) / j, r_j = I_j(kappa) / I_0(kappa): the CDF
   and the moments are such sums. NAN if memory runs out. */
static inline double ga__st_vm_series(double kappa, double t, double mu, double a, double b, double c)
{
    double stack[1024], *r = stack, terms = 30 + ceil(12 * sqrt(kappa));
    if (!(terms < 1e8)) return NAN;
    int n = (int)terms;
    if (n > 1024 && !(r = (double *)malloc((size_t)n * sizeof *r))) return NAN;
    ga__st_bessel_ratios(kappa, n, r);
    /* sin and cos of j t and j mu by rotation: each step multiplies by e^(i t) */
    double st = 0, ct = 1, sm = 0, cm = 1, sum = 0;
    const double cos_t = cos(t), sin_t = sin(t), cos_mu = cos(mu), sin_mu = sin(mu);
    for (int j = 1; j <= n; j++) {
        double u = st * cos_t + ct * sin_t;
        ct = ct * cos_t - st * sin_t, st = u;
        u = sm * cos_mu + cm * sin_mu;
        cm = cm * cos_mu - sm * sin_mu, sm = u;
        double alt = b * sm + c * cm / j;
        sum += r[j - 1] * (a * st + ((j & 1) ? -alt : alt)) / j;
    }
    if (r != stack) free(r);
    return sum;
}

/* ========================================================================== */
/* 2. Test statistics                                                         */
/* ========================================================================== */

/* Kolmogorov's limiting distribution of sqrt(n) D: Q_KS(t) = P(K > t) =
   2 sum_j>=1 (-1)^(j-1) exp(-2 j^2 t^2) (scipy.special.kolmogorov). */
GA_STATS_API double ga_ks_q(double t)
{
    if (isnan(t)) return t;
    if (t <= 0) return 1;
    double s = 0;
    if (t < 1.18) { /* the theta-function form, fast for small t */
        double f = -GA__ST_PI * GA__ST_PI / (8 * t * t);
        for (int j = 1; j <= 11; j += 2) s += exp(f * j * j);
        return 1 - sqrt(2 * GA__ST_PI) / t * s;
    }
    for (int j = 1; j <= 20; j++) s += ((j & 1) ? 2 : -2) * exp(-2.0 * j * j * t * t);
    return s;
}

/* Ascending, NaN last (qsort). */
static inline int ga__st_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* One-sample Kolmogorov-Smirnov test of x[0..n-1] (sorted in place) against
   cdf(., params): returns the p-value, Q_KS((sqrt(n) + 0.12 + 0.11/sqrt(n)) D)
   (Stephens' small-n correction), and D in *D when D is not NULL. A NaN
   sample or CDF value gives D = 1 and p = 0; n = 0 gives NAN. */
GA_STATS_API double ga_ks_pvalue(double *x, size_t n, ga_cdf_fn cdf, const double *params, double *D)
{
    double d = NAN;
    if (n) {
        qsort(x, n, sizeof *x, ga__st_cmp_double);
        d = 0;
        for (size_t i = 0; i < n && d < 1; i++) {
            double f = cdf(x[i], params);
            if (isnan(x[i]) || isnan(f)) d = 1;
            if (f - (double)i / (double)n > d) d = f - (double)i / (double)n;
            if ((double)(i + 1) / (double)n - f > d) d = (double)(i + 1) / (double)n - f;
        }
    }
    if (D) *D = d;
    if (isnan(d)) return NAN;
    double rn = sqrt((double)n);
    return d >= 1 ? 0 : ga_ks_q((rn + 0.12 + 0.11 / rn) * d);
}

/* Bins of the chi-square test hold at least this many expected counts. */
#define GA_CHI2_MIN_EXPECTED 5.0

static inline int ga__st_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The value among the sorted samples with the largest PMF (where the core
   of the bins starts); 0 in *possible when the PMF of some sample is 0 (or
   underflows to 0) or NaN. */
static inline int64_t ga__st_chi2_start(const int64_t *k, size_t n, ga_pmf_fn pmf, const double *params,
                                        int *possible)
{
    int64_t start = k[0];
    double best = 0;
    *possible = 1;
    for (size_t i = 0; i < n; i++) {
        if (i && k[i] == k[i - 1]) continue;
        double p = pmf(k[i], params);
        if (!(p > 0)) *possible = 0;
        if (p > best) best = p, start = k[i];
    }
    return start;
}

/* Grows [*lo, *hi] from start one value at a time, always by the neighbour
   of larger PMF (uphill first, then down both tails), while that neighbour
   expects at least half a count; returns the PMF mass inside. */
static inline long double ga__st_chi2_core(int64_t start, double n, ga_pmf_fn pmf, const double *params,
                                           int64_t *lo, int64_t *hi)
{
    long double mass = pmf(start, params);
    *lo = *hi = start;
    double pl = start > INT64_MIN ? pmf(start - 1, params) : 0;
    double pr = start < INT64_MAX ? pmf(start + 1, params) : 0;
    while ((pl > pr ? pl : pr) * n >= 0.5) {
        if (pl >= pr) {
            mass += pl, --*lo;
            pl = *lo > INT64_MIN ? pmf(*lo - 1, params) : 0;
        } else {
            mass += pr, ++*hi;
            pr = *hi < INT64_MAX ? pmf(*hi + 1, params) : 0;
        }
    }
    return mass;
}

/* The chi-square sum over the bins closed so far; the last one stays open
   to merging. */
typedef struct ga__st_bins {
    double sum, last_e, last_o;
    int count;
} ga__st_bins;

/* Closes a bin of e expected and o observed counts: one that expects fewer
   than GA_CHI2_MIN_EXPECTED joins the last bin instead, if there is one. */
static inline void ga__st_bins_add(ga__st_bins *b, double e, double o)
{
    if (e < GA_CHI2_MIN_EXPECTED && b->count) {
        b->sum -= (b->last_o - b->last_e) * (b->last_o - b->last_e) / b->last_e;
        b->last_e += e, b->last_o += o;
    } else {
        b->last_e = e, b->last_o = o, b->count++;
    }
    b->sum += (b->last_o - b->last_e) * (b->last_o - b->last_e) / b->last_e;
}

/* The chi-square statistic of the sorted k[0..n-1] and its number of bins;
   INFINITY when the PMF forbids one of the samples. */
static inline double ga__st_chi2_stat(const int64_t *k, size_t n, ga_pmf_fn pmf, const double *params, int *bins)
{
    double dn = (double)n, e = 0, o = 0;
    int possible;
    int64_t start = ga__st_chi2_start(k, n, pmf, params, &possible), lo, hi;
    if (!possible) return INFINITY;
    long double mass = ga__st_chi2_core(start, dn, pmf, params, &lo, &hi);
    ga__st_bins b = {0, 0, 0, 0};
    size_t i = 0, first;
    while (i < n && k[i] < lo) i++;
    first = i;
    for (int64_t v = lo;; v++) {
        e += dn * pmf(v, params);
        for (; i < n && k[i] == v; i++) o++;
        if (e >= GA_CHI2_MIN_EXPECTED || v == hi) ga__st_bins_add(&b, e, o), e = o = 0;
        if (v == hi) break;
    }
    double out_e = dn * (double)(1 - mass); /* everything outside [lo, hi] */
    ga__st_bins_add(&b, out_e > 0 ? out_e : 0, (double)(n - (i - first)));
    *bins = b.count;
    return b.sum;
}

/* Chi-square goodness-of-fit test of the integer samples k[0..n-1] (sorted
   in place) against pmf(., params): returns the p-value Q(df/2, chi2/2),
   and the statistic and degrees of freedom in *chi2 and *df where not NULL.
   The values around the mode with at least half an expected count each are
   taken in turn into bins of >= 5 expected counts; everything outside them
   is one more bin, merged into the last when it expects fewer than 5. A
   sample whose PMF is 0 (impossible, or beyond 1e-308) or NaN gives chi2 =
   INFINITY and p = 0; no bins to compare (fewer than two, or n = 0) gives
   NAN and df = 0. A law too thin for any value to expect half a count
   (integers over a range wider than 2n) leaves almost everything outside,
   a test without power: bin such samples first (k / width against the
   summed PMF) or test k / range with ga_ks_pvalue. */
GA_STATS_API double ga_chi2_pvalue(int64_t *k, size_t n, ga_pmf_fn pmf, const double *params, double *chi2,
                                   int *df)
{
    double stat = NAN;
    int bins = 0;
    if (n) {
        qsort(k, n, sizeof *k, ga__st_cmp_i64);
        stat = ga__st_chi2_stat(k, n, pmf, params, &bins);
    }
    if (chi2) *chi2 = stat;
    if (df) *df = bins > 1 ? bins - 1 : 0;
    if (stat == INFINITY) return 0;
    return bins > 1 ? ga_gammaincc(0.5 * (bins - 1), 0.5 * stat) : NAN;
}

/* Sample moments: size, mean, unbiased variance (n - 1 divisor) and the
   fourth central moment (n divisor), from two passes in long double. */
typedef struct ga_moments {
    size_t n;
    double mean, var, m4;
} ga_moments;

/* The moments of x[0..n-1] (doubles) or k[0..n-1] (integers). */
GA_STATS_API ga_moments ga_moments_of(const double *x, size_t n)
{
    ga_moments m = {n, NAN, NAN, NAN};
    if (!n) return m;
    long double s = 0, c = 0, s2 = 0, s4 = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    long double mean = s / (long double)n;
    for (size_t i = 0; i < n; i++) {
        long double d = x[i] - mean;
        c += d, s2 += d * d, s4 += d * d * d * d;
    }
    m.mean = (double)(mean + c / (long double)n);
    m.var = n > 1 ? (double)((s2 - c * c / (long double)n) / (long double)(n - 1)) : NAN;
    m.m4 = (double)(s4 / (long double)n);
    return m;
}
GA_STATS_API ga_moments ga_moments_of_i64(const int64_t *k, size_t n)
{
    ga_moments m = {n, NAN, NAN, NAN};
    if (!n) return m;
    long double s = 0, c = 0, s2 = 0, s4 = 0;
    for (size_t i = 0; i < n; i++) s += (long double)k[i];
    long double mean = s / (long double)n;
    for (size_t i = 0; i < n; i++) {
        long double d = (long double)k[i] - mean;
        c += d, s2 += d * d, s4 += d * d * d * d;
    }
    m.mean = (double)(mean + c / (long double)n);
    m.var = n > 1 ? (double)((s2 - c * c / (long double)n) / (long double)(n - 1)) : NAN;
    m.m4 = (double)(s4 / (long double)n);
    return m;
}

/* The fourth central moment from the variance and the excess kurtosis. */
GA_STATS_API double ga_mu4_from_kurtosis(double sigma2, double excess) { return (excess + 3) * sigma2 * sigma2; }

/* The sample mean's z-score against the exact mean mu and variance sigma2:
   (mean - mu) / sqrt(sigma2 / n). */
GA_STATS_API double ga_mean_z(const ga_moments *m, double mu, double sigma2)
{
    if (sigma2 == 0) return m->mean == mu ? 0 : INFINITY;
    return (m->mean - mu) / sqrt(sigma2 / (double)m->n);
}

/* The sample variance's z-score against sigma2, its standard error
   sqrt((mu4 - sigma2^2 (n - 3) / (n - 1)) / n) from the exact fourth central
   moment mu4, or from the sample's when mu4 is NAN. */
GA_STATS_API double ga_var_z(const ga_moments *m, double sigma2, double mu4)
{
    double n = (double)m->n, m4 = isnan(mu4) ? m->m4 : mu4;
    double se2 = (m4 - sigma2 * sigma2 * (n - 3) / (n - 1)) / n;
    if (!(se2 > 0)) return m->var == sigma2 ? 0 : INFINITY;
    return (m->var - sigma2) / sqrt(se2);
}

/* Whether the mean and the variance are within z standard errors of mu and
   sigma2 (mu4: the exact fourth central moment; see ga_mu4_from_kurtosis). */
GA_STATS_API int ga_moments_ok(const ga_moments *m, double mu, double sigma2, double mu4, double z)
{
    return fabs(ga_mean_z(m, mu, sigma2)) <= z && fabs(ga_var_z(m, sigma2, mu4)) <= z;
}

/* The same with the variance's standard error estimated from the sample's
   fourth moment (when the exact one is not known; weak for heavy tails). */
GA_STATS_API int ga_moments_ok_est(const ga_moments *m, double mu, double sigma2, double z)
{
    return ga_moments_ok(m, mu, sigma2, NAN, z);
}

/* ========================================================================== */
/* 3. Continuous distributions                                                */
/* ========================================================================== */

/* uniform(low, high): params {low, high}, low < high; NumPy draws from
   [low, high). */
GA_STATS_API double ga_uniform_cdf(double x, const double *p)
{
    if (!(p[1] > p[0])) return NAN;
    return x <= p[0] ? 0 : x >= p[1] ? 1 : (x - p[0]) / (p[1] - p[0]);
}
GA_STATS_API double ga_uniform_mean(const double *p) { return 0.5 * (p[0] + p[1]); }
GA_STATS_API double ga_uniform_var(const double *p) { return (p[1] - p[0]) * (p[1] - p[0]) / 12; }
/* random(): uniform on [0, 1), no params. */
GA_STATS_API double ga_unit_uniform_cdf(double x, const double *p)
{
    static const double unit[2] = {0, 1};
    (void)p;
    return ga_uniform_cdf(x, unit);
}

/* normal(loc, scale): params {loc, scale}, scale > 0; standard_normal: none. */
GA_STATS_API double ga_normal_cdf(double x, const double *p)
{
    return p[1] > 0 ? ga_ndtr((x - p[0]) / p[1]) : NAN;
}
GA_STATS_API double ga_normal_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_normal_var(const double *p) { return p[1] * p[1]; }
GA_STATS_API double ga_standard_normal_cdf(double x, const double *p) { return (void)p, ga_ndtr(x); }

/* exponential(scale): params {scale}, density exp(-x / scale) / scale;
   standard_exponential: scale 1, no params. */
GA_STATS_API double ga_exponential_cdf(double x, const double *p)
{
    if (!(p[0] > 0)) return NAN;
    return x <= 0 ? 0 : -expm1(-x / p[0]);
}
GA_STATS_API double ga_exponential_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_exponential_var(const double *p) { return p[0] * p[0]; }
GA_STATS_API double ga_standard_exponential_cdf(double x, const double *p)
{
    return (void)p, x <= 0 ? 0 : -expm1(-x);
}

/* gamma(shape, scale): params {shape, scale}, density x^(shape-1)
   exp(-x/scale) / (Gamma(shape) scale^shape); standard_gamma: {shape}. */
GA_STATS_API double ga_gamma_cdf(double x, const double *p)
{
    if (!(p[1] > 0)) return NAN;
    return ga_gammainc(p[0], x / p[1]);
}
GA_STATS_API double ga_gamma_mean(const double *p) { return p[0] * p[1]; }
GA_STATS_API double ga_gamma_var(const double *p) { return p[0] * p[1] * p[1]; }
GA_STATS_API double ga_standard_gamma_cdf(double x, const double *p) { return ga_gammainc(p[0], x); }
GA_STATS_API double ga_standard_gamma_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_standard_gamma_var(const double *p) { return p[0]; }

/* beta(a, b): params {a, b}, density x^(a-1) (1-x)^(b-1) / B(a, b) on [0, 1]. */
GA_STATS_API double ga_beta_cdf(double x, const double *p)
{
    if (!(p[0] > 0 && p[1] > 0)) return NAN;
    return x <= 0 ? 0 : x >= 1 ? 1 : ga_betainc(p[0], p[1], x);
}
GA_STATS_API double ga_beta_mean(const double *p) { return p[0] / (p[0] + p[1]); }
GA_STATS_API double ga_beta_var(const double *p)
{
    double s = p[0] + p[1];
    return p[0] * p[1] / (s * s * (s + 1));
}

/* chisquare(df): params {df}, df > 0 real; P(df/2, x/2). */
GA_STATS_API double ga_chisquare_cdf(double x, const double *p) { return ga_gammainc(0.5 * p[0], 0.5 * x); }
GA_STATS_API double ga_chisquare_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_chisquare_var(const double *p) { return 2 * p[0]; }

/* A Poisson(mu) mixture of central distributions: component j's CDF is
   L(a0 + j), P(a0 + j, x) (gamma) or I_x(a0 + j, b) (beta), and both
   satisfy L(a) - L(a + 1) = prefix(a). */
typedef struct ga__st_mix {
    double a0, b, x, y;
    int beta;
} ga__st_mix;

static inline double ga__st_mix_value(const ga__st_mix *m, double a)
{
    return m->beta ? ga__st_ibeta(a, m->b, m->x, m->y, 0) : ga__st_igamma(a, m->x, 0);
}
static inline double ga__st_mix_prefix(const ga__st_mix *m, double a)
{
    return m->beta ? ga__st_beta_prefix(a, m->b, m->x, m->y) : ga__st_gamma_prefix(a, m->x);
}
/* prefix(a - 1) / prefix(a): a / x, or a / (x (a - 1 + b)). */
static inline double ga__st_mix_ratio(const ga__st_mix *m, double a)
{
    return m->beta ? a / (m->x * (a - 1 + m->b)) : a / m->x;
}

/* Whether the Poisson(mu) mass beyond index j (below j for down, above for
   up) is under tol: it is at most w_j r / (1 - r), r the ratio of the next
   weight to w_j, once r < 1. */
static inline int ga__st_pois_tail_below(double w, double j, double mu, int down, double tol)
{
    double r = down ? j / mu : mu / (j + 1);
    return w == 0 || (r < 1 && w * r / (1 - r) < tol);
}

/* The mixture's CDF sum_j w_j L(a0 + j), w_j the Poisson(mu) weights: L at
   the top index (where the weights above are negligible), then downwards
   by L(a - 1) = L(a) + prefix(a - 1), all additions (so the sum keeps its
   relative accuracy from the lower tail to 1), until the mass left below
   could not change the sum. The prefix comes from its ratio to the last
   one, and directly every 16 steps (bounding the rounding carried along)
   or after an underflow. */
static inline double ga__st_mix_cdf(const ga__st_mix *m, double mu)
{
    if (mu == 0) return ga__st_mix_value(m, m->a0);
    double j = floor(mu), w = ga__st_dpois_raw(j, mu);
    while (!ga__st_pois_tail_below(w, j, mu, 0, 1e-18)) w *= mu / (j + 1), j++;
    double l = ga__st_mix_value(m, m->a0 + j), sum = w * l, prefix = 0;
    for (int i = 0; j > 0 && !ga__st_pois_tail_below(w, j, mu, 1, 1e-17 * sum); i++) {
        double a = m->a0 + j - 1;
        prefix = i % 16 == 0 || prefix < 1e-280 ? ga__st_mix_prefix(m, a) : prefix * ga__st_mix_ratio(m, a + 1);
        w *= j / mu, j--;
        l += prefix;
        sum += w * l;
    }
    return sum;
}

/* noncentral_chisquare(df, nonc): params {df, nonc}, df > 0, nonc >= 0; the
   Poisson(nonc/2) mixture of chisquare(df + 2j). */
GA_STATS_API double ga_noncentral_chisquare_cdf(double x, const double *p)
{
    if (!(p[0] > 0) || !(p[1] >= 0) || isnan(x)) return NAN;
    if (x <= 0) return 0;
    if (isinf(x)) return 1;
    ga__st_mix m = {0.5 * p[0], 0, 0.5 * x, 0, 0};
    return ga__st_mix_cdf(&m, 0.5 * p[1]);
}
GA_STATS_API double ga_noncentral_chisquare_mean(const double *p) { return p[0] + p[1]; }
GA_STATS_API double ga_noncentral_chisquare_var(const double *p) { return 2 * (p[0] + 2 * p[1]); }

/* f(dfnum, dfden): params {dfnum, dfden}; I_z(dfnum/2, dfden/2) at z =
   dfnum x / (dfnum x + dfden). */
GA_STATS_API double ga_f_cdf(double x, const double *p)
{
    if (!(p[0] > 0) || !(p[1] > 0) || isnan(x)) return NAN;
    if (x <= 0) return 0;
    double t = p[0] * x, den = t + p[1];
    return ga__st_ibeta(0.5 * p[0], 0.5 * p[1], t / den, p[1] / den, 0);
}
GA_STATS_API double ga_f_mean(const double *p) { return p[1] > 2 ? p[1] / (p[1] - 2) : INFINITY; }
GA_STATS_API double ga_f_var(const double *p)
{
    double m = p[0], n = p[1];
    if (n <= 4) return INFINITY;
    return 2 * n * n * (m + n - 2) / (m * (n - 2) * (n - 2) * (n - 4));
}

/* noncentral_f(dfnum, dfden, nonc): params {dfnum, dfden, nonc}; the
   Poisson(nonc/2) mixture of I_z(dfnum/2 + j, dfden/2). */
GA_STATS_API double ga_noncentral_f_cdf(double x, const double *p)
{
    if (!(p[0] > 0) || !(p[1] > 0) || !(p[2] >= 0) || isnan(x)) return NAN;
    if (x <= 0) return 0;
    if (isinf(x)) return 1;
    double t = p[0] * x, den = t + p[1];
    ga__st_mix m = {0.5 * p[0], 0.5 * p[1], t / den, p[1] / den, 1};
    return ga__st_mix_cdf(&m, 0.5 * p[2]);
}
GA_STATS_API double ga_noncentral_f_mean(const double *p)
{
    return p[1] > 2 ? p[1] * (p[0] + p[2]) / (p[0] * (p[1] - 2)) : INFINITY;
}
GA_STATS_API double ga_noncentral_f_var(const double *p)
{
    double m = p[0], n = p[1], l = p[2];
    if (n <= 4) return INFINITY;
    return 2 * (n / m) * (n / m) * ((m + l) * (m + l) + (m + 2 * l) * (n - 2)) / ((n - 2) * (n - 2) * (n - 4));
}

/* standard_t(df): params {df}, df > 0; from I_z(df/2, 1/2), z = df / (df + x^2). */
GA_STATS_API double ga_standard_t_cdf(double x, const double *p)
{
    double df = p[0];
    if (!(df > 0) || isnan(x)) return NAN;
    if (isinf(x)) return x > 0 ? 1 : 0;
    double x2 = x * x, den = df + x2;
    double tail = 0.5 * ga__st_ibeta(0.5 * df, 0.5, df / den, x2 / den, 0); /* P(T > |x|) */
    return x < 0 ? tail : 1 - tail;
}
GA_STATS_API double ga_standard_t_mean(const double *p) { return p[0] > 1 ? 0 : NAN; }
GA_STATS_API double ga_standard_t_var(const double *p)
{
    return p[0] > 2 ? p[0] / (p[0] - 2) : p[0] > 1 ? INFINITY : NAN;
}

/* standard_cauchy: no params; 1/2 + atan(x)/pi, from the tail that keeps
   its accuracy. */
GA_STATS_API double ga_standard_cauchy_cdf(double x, const double *p)
{
    (void)p;
    if (x < 0) return atan(-1 / x) / GA__ST_PI;
    return x == 0 ? 0.5 : 1 - atan(1 / x) / GA__ST_PI;
}
GA_STATS_API double ga_standard_cauchy_mean(const double *p) { return (void)p, NAN; }
GA_STATS_API double ga_standard_cauchy_var(const double *p) { return (void)p, NAN; }

/* lognormal(mean, sigma): params {mean, sigma}, the mean and standard
   deviation of the underlying normal (log x). */
GA_STATS_API double ga_lognormal_cdf(double x, const double *p)
{
    if (!(p[1] > 0)) return NAN;
    return x <= 0 ? 0 : ga_ndtr((log(x) - p[0]) / p[1]);
}
GA_STATS_API double ga_lognormal_mean(const double *p) { return exp(p[0] + 0.5 * p[1] * p[1]); }
GA_STATS_API double ga_lognormal_var(const double *p)
{
    double s2 = p[1] * p[1];
    return expm1(s2) * exp(2 * p[0] + s2);
}

/* laplace(loc, scale): params {loc, scale}, density exp(-|x - loc| / scale)
   / (2 scale). */
GA_STATS_API double ga_laplace_cdf(double x, const double *p)
{
    if (!(p[1] > 0)) return NAN;
    double z = (x - p[0]) / p[1];
    return z < 0 ? 0.5 * exp(z) : 1 - 0.5 * exp(-z);
}
GA_STATS_API double ga_laplace_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_laplace_var(const double *p) { return 2 * p[1] * p[1]; }

/* logistic(loc, scale): params {loc, scale}; 1 / (1 + exp(-(x - loc)/scale)). */
GA_STATS_API double ga_logistic_cdf(double x, const double *p)
{
    if (!(p[1] > 0)) return NAN;
    return 1 / (1 + exp(-(x - p[0]) / p[1]));
}
GA_STATS_API double ga_logistic_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_logistic_var(const double *p) { return p[1] * p[1] * GA__ST_PI * GA__ST_PI / 3; }

/* gumbel(loc, scale): params {loc, scale}, the maximum's law
   exp(-exp(-(x - loc)/scale)). */
GA_STATS_API double ga_gumbel_cdf(double x, const double *p)
{
    if (!(p[1] > 0)) return NAN;
    return exp(-exp(-(x - p[0]) / p[1]));
}
GA_STATS_API double ga_gumbel_mean(const double *p) { return p[0] + GA__ST_EULER * p[1]; }
GA_STATS_API double ga_gumbel_var(const double *p) { return GA__ST_PI * GA__ST_PI / 6 * p[1] * p[1]; }

/* weibull(a): params {a}, scale 1: 1 - exp(-x^a), x >= 0. */
GA_STATS_API double ga_weibull_cdf(double x, const double *p)
{
    if (!(p[0] > 0)) return NAN;
    return x <= 0 ? 0 : -expm1(-pow(x, p[0]));
}
GA_STATS_API double ga_weibull_mean(const double *p) { return tgamma(1 + 1 / p[0]); }
GA_STATS_API double ga_weibull_var(const double *p)
{
    double g1 = tgamma(1 + 1 / p[0]);
    return tgamma(1 + 2 / p[0]) - g1 * g1;
}

/* pareto(a): params {a}; NumPy's is the Lomax (Pareto II) law, x >= 0,
   CDF 1 - (1 + x)^-a. */
GA_STATS_API double ga_pareto_cdf(double x, const double *p)
{
    if (!(p[0] > 0)) return NAN;
    return x <= 0 ? 0 : -expm1(-p[0] * log1p(x));
}
GA_STATS_API double ga_pareto_mean(const double *p) { return p[0] > 1 ? 1 / (p[0] - 1) : INFINITY; }
GA_STATS_API double ga_pareto_var(const double *p)
{
    double a = p[0];
    return a > 2 ? a / ((a - 1) * (a - 1) * (a - 2)) : INFINITY;
}

/* power(a): params {a}, a > 0; x^a on [0, 1]. */
GA_STATS_API double ga_power_cdf(double x, const double *p)
{
    if (!(p[0] > 0)) return NAN;
    return x <= 0 ? 0 : x >= 1 ? 1 : pow(x, p[0]);
}
GA_STATS_API double ga_power_mean(const double *p) { return p[0] / (p[0] + 1); }
GA_STATS_API double ga_power_var(const double *p) { return p[0] / ((p[0] + 1) * (p[0] + 1) * (p[0] + 2)); }

/* rayleigh(scale): params {scale}; 1 - exp(-x^2 / (2 scale^2)). */
GA_STATS_API double ga_rayleigh_cdf(double x, const double *p)
{
    if (!(p[0] > 0)) return NAN;
    double z = x / p[0];
    return x <= 0 ? 0 : -expm1(-0.5 * z * z);
}
GA_STATS_API double ga_rayleigh_mean(const double *p) { return p[0] * sqrt(0.5 * GA__ST_PI); }
GA_STATS_API double ga_rayleigh_var(const double *p) { return (2 - 0.5 * GA__ST_PI) * p[0] * p[0]; }

/* vonmises(mu, kappa): params {mu, kappa}, kappa >= 0; NumPy's draws lie in
   [-pi, pi] (wrapped around mu), so this is the law of that variable: the
   density's Fourier series integrated from -pi, F(x) = (x + pi) / (2 pi) +
   sum_j r_j (sin(j (x - mu)) + (-1)^j sin(j mu)) / (pi j), r_j =
   I_j(kappa) / I_0(kappa). Accurate to about 1e-15 absolute. */
GA_STATS_API double ga_vonmises_cdf(double x, const double *p)
{
    if (!(p[1] >= 0) || isnan(x) || isnan(p[0])) return NAN;
    if (x <= -GA__ST_PI) return 0;
    if (x >= GA__ST_PI) return 1;
    double f = (x + GA__ST_PI) / (2 * GA__ST_PI) + ga__st_vm_series(p[1], x - p[0], p[0], 1, 1, 0) / GA__ST_PI;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}
/* E[X] = 2 sum_j (-1)^(j+1) r_j sin(j mu) / j; E[X^2] = pi^2/3 + 4 sum_j
   (-1)^j r_j cos(j mu) / j^2 (X in [-pi, pi] as NumPy draws it). */
GA_STATS_API double ga_vonmises_mean(const double *p) { return ga__st_vm_series(p[1], 0, p[0], 0, -2, 0); }
GA_STATS_API double ga_vonmises_var(const double *p)
{
    double m = ga_vonmises_mean(p);
    return GA__ST_PI * GA__ST_PI / 3 + ga__st_vm_series(p[1], 0, p[0], 0, 0, 4) - m * m;
}

/* wald(mean, scale): params {mean, scale}, the inverse Gaussian with mean
   mu and shape lambda = scale: Phi(a) + exp(2 lambda/mu) Phi(-b), a, b =
   sqrt(lambda/x) (x/mu -+ 1), the second term as erfcx(b/sqrt 2)
   exp(-a^2/2) / 2 (no overflow). */
GA_STATS_API double ga_wald_cdf(double x, const double *p)
{
    double mu = p[0], lambda = p[1];
    if (!(mu > 0) || !(lambda > 0) || isnan(x)) return NAN;
    if (x <= 0) return 0;
    if (isinf(x)) return 1;
    double r = sqrt(lambda / x), a = r * (x / mu - 1), b = r * (x / mu + 1);
    return ga_ndtr(a) + 0.5 * ga__st_erfcx(b * GA__ST_SQRT1_2) * exp(-0.5 * a * a);
}
GA_STATS_API double ga_wald_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_wald_var(const double *p) { return p[0] * p[0] * p[0] / p[1]; }

/* triangular(left, mode, right): params {left, mode, right}, left <= mode
   <= right, left < right. */
GA_STATS_API double ga_triangular_cdf(double x, const double *p)
{
    double l = p[0], m = p[1], r = p[2];
    if (!(l <= m && m <= r && l < r)) return NAN;
    if (x <= l) return 0;
    if (x >= r) return 1;
    if (x <= m) return (x - l) * (x - l) / ((r - l) * (m - l));
    /* 1 - (r - x)^2 / ((r - l)(r - m)) as a sum of nonnegative terms, which
       keeps its accuracy just above the mode (all of the law when m = l) */
    return ((r - m) * (m - l) + (x - m) * (2 * r - m - x)) / ((r - l) * (r - m));
}
GA_STATS_API double ga_triangular_mean(const double *p) { return (p[0] + p[1] + p[2]) / 3; }
GA_STATS_API double ga_triangular_var(const double *p)
{
    double l = p[0], m = p[1], r = p[2];
    return (l * l + m * m + r * r - l * m - l * r - m * r) / 18;
}

/* ========================================================================== */
/* 4. Discrete distributions                                                  */
/* ========================================================================== */

/* integers(low, high): params {low, high}, uniform on low <= k < high
   (NumPy's default endpoint=False). */
GA_STATS_API double ga_integers_pmf(int64_t k, const double *p)
{
    if (!(p[1] > p[0])) return NAN;
    return (double)k >= p[0] && (double)k < p[1] ? 1 / (p[1] - p[0]) : 0;
}
GA_STATS_API double ga_integers_mean(const double *p) { return 0.5 * (p[0] + p[1] - 1); }
GA_STATS_API double ga_integers_var(const double *p) { return ((p[1] - p[0]) * (p[1] - p[0]) - 1) / 12; }

/* binomial(n, p): params {n, p}, successes in n trials. */
GA_STATS_API double ga_binomial_pmf(int64_t k, const double *p)
{
    double n = p[0];
    if (!(n >= 0) || !(p[1] >= 0 && p[1] <= 1)) return NAN;
    return k < 0 || (double)k > n ? 0 : ga__st_dbinom_raw((double)k, n, p[1], 1 - p[1]);
}
GA_STATS_API double ga_binomial_mean(const double *p) { return p[0] * p[1]; }
GA_STATS_API double ga_binomial_var(const double *p) { return p[0] * p[1] * (1 - p[1]); }

/* negative_binomial(n, p): params {n, p}, n > 0 real, 0 < p <= 1; failures
   before the n-th success: Gamma(k + n) / (Gamma(n) k!) p^n (1 - p)^k. */
GA_STATS_API double ga_negative_binomial_pmf(int64_t k, const double *p)
{
    double n = p[0];
    if (!(n > 0) || !(p[1] > 0 && p[1] <= 1)) return NAN;
    if (k < 0) return 0;
    double x = (double)k;
    return n / (n + x) * ga__st_dbinom_raw(n, x + n, p[1], 1 - p[1]);
}
GA_STATS_API double ga_negative_binomial_mean(const double *p) { return p[0] * (1 - p[1]) / p[1]; }
GA_STATS_API double ga_negative_binomial_var(const double *p) { return p[0] * (1 - p[1]) / (p[1] * p[1]); }

/* poisson(lam): params {lam}, lam >= 0. */
GA_STATS_API double ga_poisson_pmf(int64_t k, const double *p)
{
    if (!(p[0] >= 0)) return NAN;
    return k < 0 ? 0 : ga__st_dpois_raw((double)k, p[0]);
}
GA_STATS_API double ga_poisson_mean(const double *p) { return p[0]; }
GA_STATS_API double ga_poisson_var(const double *p) { return p[0]; }

/* geometric(p): params {p}, 0 < p <= 1; trials up to the first success,
   k >= 1 (as NumPy): (1 - p)^(k-1) p. */
GA_STATS_API double ga_geometric_pmf(int64_t k, const double *p)
{
    if (!(p[0] > 0 && p[0] <= 1)) return NAN;
    if (k < 1) return 0;
    return k == 1 ? p[0] : p[0] * exp((double)(k - 1) * log1p(-p[0]));
}
GA_STATS_API double ga_geometric_mean(const double *p) { return 1 / p[0]; }
GA_STATS_API double ga_geometric_var(const double *p) { return (1 - p[0]) / (p[0] * p[0]); }

/* hypergeometric(ngood, nbad, nsample): params {ngood, nbad, nsample}; good
   items among nsample drawn without replacement: as three binomial PMFs
   (R's dhyper), for full accuracy. */
GA_STATS_API double ga_hypergeometric_pmf(int64_t k, const double *p)
{
    double r = p[0], b = p[1], n = p[2], N = r + b;
    if (!(r >= 0) || !(b >= 0) || !(n >= 0 && n <= N)) return NAN;
    double x = (double)k;
    if (x < 0 || x > r || x > n || n - x > b) return 0;
    if (n == 0) return x == 0 ? 1 : 0;
    double pp = n / N, q = (N - n) / N;
    return ga__st_dbinom_raw(x, r, pp, q) * ga__st_dbinom_raw(n - x, b, pp, q) / ga__st_dbinom_raw(n, N, pp, q);
}
GA_STATS_API double ga_hypergeometric_mean(const double *p) { return p[2] * p[0] / (p[0] + p[1]); }
GA_STATS_API double ga_hypergeometric_var(const double *p)
{
    double N = p[0] + p[1], n = p[2];
    return N > 1 ? n * (p[0] / N) * (p[1] / N) * (N - n) / (N - 1) : 0;
}

/* logseries(p): params {p}, 0 < p < 1; -p^k / (k log(1 - p)), k >= 1. */
GA_STATS_API double ga_logseries_pmf(int64_t k, const double *p)
{
    if (!(p[0] > 0 && p[0] < 1)) return NAN;
    if (k < 1) return 0;
    return exp((double)k * log(p[0])) / ((double)k * -log1p(-p[0]));
}
GA_STATS_API double ga_logseries_mean(const double *p)
{
    double l = log1p(-p[0]);
    return -p[0] / ((1 - p[0]) * l);
}
GA_STATS_API double ga_logseries_var(const double *p)
{
    double l = log1p(-p[0]), q = 1 - p[0];
    return -p[0] * (p[0] + l) / (q * q * l * l);
}

/* zipf(a): params {a}, a > 1; k^-a / zeta(a), k >= 1. */
GA_STATS_API double ga_zipf_pmf(int64_t k, const double *p)
{
    if (!(p[0] > 1)) return NAN;
    return k < 1 ? 0 : exp(-p[0] * log((double)k)) / ga_zeta(p[0]);
}
GA_STATS_API double ga_zipf_mean(const double *p) { return p[0] > 2 ? ga_zeta(p[0] - 1) / ga_zeta(p[0]) : INFINITY; }
GA_STATS_API double ga_zipf_var(const double *p)
{
    double a = p[0];
    if (a <= 3) return INFINITY;
    double z = ga_zeta(a), m = ga_zeta(a - 1) / z;
    return ga_zeta(a - 2) / z - m * m;
}

/* ========================================================================== */
/* 5. The table of distributions                                              */
/* ========================================================================== */

/* A distribution by its numpy.random.Generator method name: nparams
   parameters in NumPy's order, cdf (continuous) or pmf (discrete; the
   other NULL), and the exact mean and variance. */
typedef struct ga_stats_dist {
    const char *name;
    int nparams;
    ga_cdf_fn cdf;
    ga_pmf_fn pmf;
    double (*mean)(const double *params);
    double (*var)(const double *params);
} ga_stats_dist;

/* Moments of the parameterless forms. */
static inline double ga__st_zero(const double *p) { return (void)p, 0.0; }
static inline double ga__st_one(const double *p) { return (void)p, 1.0; }
static inline double ga__st_half(const double *p) { return (void)p, 0.5; }
static inline double ga__st_twelfth(const double *p) { return (void)p, 1.0 / 12; }

/* The distribution called `name` (NumPy's method name, e.g. "normal",
   "standard_t", "zipf"), or NULL. */
GA_STATS_API const ga_stats_dist *ga_stats_find(const char *name)
{
#define GA__ST_CONT(n, k) {#n, k, ga_##n##_cdf, NULL, ga_##n##_mean, ga_##n##_var}
#define GA__ST_DISC(n, k) {#n, k, NULL, ga_##n##_pmf, ga_##n##_mean, ga_##n##_var}
    static const ga_stats_dist table[] = {
        {"random", 0, ga_unit_uniform_cdf, NULL, ga__st_half, ga__st_twelfth},
        GA__ST_CONT(uniform, 2),
        {"standard_normal", 0, ga_standard_normal_cdf, NULL, ga__st_zero, ga__st_one},
        GA__ST_CONT(normal, 2),
        {"standard_exponential", 0, ga_standard_exponential_cdf, NULL, ga__st_one, ga__st_one},
        GA__ST_CONT(exponential, 1),
        GA__ST_CONT(standard_gamma, 1),
        GA__ST_CONT(gamma, 2),
        GA__ST_CONT(beta, 2),
        GA__ST_CONT(chisquare, 1),
        GA__ST_CONT(noncentral_chisquare, 2),
        GA__ST_CONT(f, 2),
        GA__ST_CONT(noncentral_f, 3),
        GA__ST_CONT(standard_t, 1),
        GA__ST_CONT(standard_cauchy, 0),
        GA__ST_CONT(lognormal, 2),
        GA__ST_CONT(laplace, 2),
        GA__ST_CONT(logistic, 2),
        GA__ST_CONT(gumbel, 2),
        GA__ST_CONT(weibull, 1),
        GA__ST_CONT(pareto, 1),
        GA__ST_CONT(power, 1),
        GA__ST_CONT(rayleigh, 1),
        GA__ST_CONT(vonmises, 2),
        GA__ST_CONT(wald, 2),
        GA__ST_CONT(triangular, 3),
        GA__ST_DISC(integers, 2),
        GA__ST_DISC(binomial, 2),
        GA__ST_DISC(negative_binomial, 2),
        GA__ST_DISC(poisson, 1),
        GA__ST_DISC(geometric, 1),
        GA__ST_DISC(hypergeometric, 3),
        GA__ST_DISC(logseries, 1),
        GA__ST_DISC(zipf, 1),
    };
#undef GA__ST_CONT
#undef GA__ST_DISC
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

#endif /* GPUARR_RANDOM_STATS_H */
