/* Host tests of tests/random_stats.h, the statistical toolkit that judges
   the device's random draws: every CDF, PMF, mean and variance and the
   special functions behind them against 50-digit references
   (tests/random_stats_cases.h, from tools/gen_stats_cases.py: mpmath,
   checked against scipy and NumPy's draws); PMFs summing to 1 with the
   stated mean and variance; CDFs nondecreasing in [0, 1]; and the
   Kolmogorov-Smirnov, chi-square and moment tests on host samples from a
   splitmix64 stream with fixed seeds: samples of the law pass, samples of
   a slightly different law fail with p < 1e-6, and KS p-values of the law
   are uniform. Needs no GPU. */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "random_stats.h"
#include "random_stats_cases.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Relative tolerance of the reference comparisons (the toolkit's aim). */
#define REL_TOL 1e-12

/* Whether got is want within rel (relative) plus abs_tol; NAN and the
   infinities must match exactly. */
static bool close_to(double got, double want, double rel, double abs_tol)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= rel * fabs(want) + abs_tol;
}

/* ---- a fixed host stream: splitmix64 --------------------------------------- */

static uint64_t sm_state;

static uint64_t sm_next(void)
{
    uint64_t z = (sm_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform double in (0, 1): never 0, so logarithms stay finite. */
static double sm_unit(void) { return ((double)(sm_next() >> 11) + 0.5) / 9007199254740992.0; }

static double sm_exponential(void) { return -log(sm_unit()); }

/* Box-Muller (both halves of a pair are not needed). */
static double sm_normal(void) { return sqrt(-2 * log(sm_unit())) * cos(2 * GA__ST_PI * sm_unit()); }

/* gamma(k, 1) for integer k: a sum of k exponentials. */
static double sm_gamma_int(int k)
{
    double s = 0;
    for (int i = 0; i < k; i++) s += sm_exponential();
    return s;
}

/* Knuth's Poisson sampler: uniforms multiplied until below exp(-lam). */
static int64_t sm_poisson(double lam)
{
    double limit = exp(-lam), prod = sm_unit();
    int64_t k = 0;
    while (prod > limit) prod *= sm_unit(), k++;
    return k;
}

static int64_t sm_binomial(int n, double p)
{
    int64_t k = 0;
    for (int i = 0; i < n; i++) k += sm_unit() < p;
    return k;
}

/* Trials up to the first success (support 1, 2, ...), by inversion. */
static int64_t sm_geometric(double p) { return 1 + (int64_t)floor(log(sm_unit()) / log1p(-p)); }

/* Samples of a law into a new array (n doubles or int64s). */
typedef double (*draw_fn)(void);
static double *draw(size_t n, uint64_t seed, draw_fn f)
{
    double *x = (double *)malloc(n * sizeof *x);
    sm_state = seed;
    for (size_t i = 0; x && i < n; i++) x[i] = f();
    return x;
}

/* ---- special functions ------------------------------------------------------ */

TEST(stats_special_functions_match_references)
{
    for (size_t i = 0; i < COUNT(STATS_SPECIAL_CASES); i++) {
        const stats_special_case *c = &STATS_SPECIAL_CASES[i];
        double got = NAN;
        if (!strcmp(c->fn, "gammainc")) got = ga_gammainc(c->a, c->x);
        else if (!strcmp(c->fn, "gammaincc")) got = ga_gammaincc(c->a, c->x);
        else if (!strcmp(c->fn, "betainc")) got = ga_betainc(c->a, c->b, c->x);
        else if (!strcmp(c->fn, "ndtr")) got = ga_ndtr(c->x);
        else if (!strcmp(c->fn, "ndtrc")) got = ga_ndtrc(c->x);
        else if (!strcmp(c->fn, "zeta")) got = ga_zeta(c->a);
        else if (!strcmp(c->fn, "ks_q")) got = ga_ks_q(c->a);
        CHECK(close_to(got, c->value, REL_TOL, 0), "%s(%.17g, %.17g, %.17g) = %.17g, reference %.17g", c->fn, c->a,
              c->b, c->x, got, c->value);
    }
}

TEST(stats_special_functions_edges)
{
    CHECK(ga_gammainc(2, 0) == 0 && ga_gammaincc(2, 0) == 1, "P(a, 0) = 0, Q(a, 0) = 1");
    CHECK(ga_gammainc(2, INFINITY) == 1 && ga_gammaincc(2, INFINITY) == 0, "P(a, inf) = 1");
    CHECK(isnan(ga_gammainc(0, 1)) && isnan(ga_gammainc(-1, 1)) && isnan(ga_gammainc(1, NAN)), "a <= 0 or NaN");
    CHECK(ga_betainc(2, 3, 0) == 0 && ga_betainc(2, 3, 1) == 1, "I_0 = 0, I_1 = 1");
    CHECK(isnan(ga_betainc(2, 3, 1.5)) && isnan(ga_betainc(0, 3, 0.5)), "x outside [0, 1] or a <= 0");
    CHECK(ga_ndtr(0) == 0.5 && ga_ndtrc(0) == 0.5, "Phi(0) = 1/2");
    CHECK(isinf(ga_zeta(1)) && isnan(ga_zeta(0.5)), "zeta's pole and its domain here");
    CHECK(ga_ks_q(0) == 1 && ga_ks_q(40) == 0, "Q_KS(0) = 1, Q_KS(40) = 0");
}

/* ---- the distributions against the references ------------------------------- */

TEST(stats_cdfs_match_references)
{
    for (size_t i = 0; i < COUNT(STATS_CDF_CASES); i++) {
        const stats_cdf_case *c = &STATS_CDF_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        if (!d || !d->cdf) {
            CHECK(0, "%s: no CDF in the table", c->dist);
            continue;
        }
        /* the von Mises series is accurate to ~1e-17 absolute, so not
           relatively where its CDF is tiny (next to -pi) */
        double abs_tol = strcmp(c->dist, "vonmises") == 0 ? 1e-16 : 0;
        double got = d->cdf(c->x, c->params);
        CHECK(close_to(got, c->cdf, REL_TOL, abs_tol), "%s(%g, %g, %g) CDF at %.17g = %.17g, reference %.17g",
              c->dist, c->params[0], c->params[1], c->params[2], c->x, got, c->cdf);
    }
}

TEST(stats_pmfs_match_references)
{
    for (size_t i = 0; i < COUNT(STATS_PMF_CASES); i++) {
        const stats_pmf_case *c = &STATS_PMF_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        if (!d || !d->pmf) {
            CHECK(0, "%s: no PMF in the table", c->dist);
            continue;
        }
        double got = d->pmf((int64_t)c->k, c->params);
        CHECK(close_to(got, c->pmf, REL_TOL, 0), "%s(%g, %g, %g) PMF at %lld = %.17g, reference %.17g", c->dist,
              c->params[0], c->params[1], c->params[2], c->k, got, c->pmf);
    }
}

TEST(stats_moments_match_references)
{
    for (size_t i = 0; i < COUNT(STATS_MOMENT_CASES); i++) {
        const stats_moment_case *c = &STATS_MOMENT_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        if (!d) {
            CHECK(0, "%s: not in the table", c->dist);
            continue;
        }
        double mean = d->mean(c->params), var = d->var(c->params);
        /* a mean of 0 by symmetry may come out as a rounding error; the von
           Mises variance loses 1e-12 to cancellation at kappa = 3000 */
        CHECK(close_to(mean, c->mean, REL_TOL, 1e-15), "%s(%g, %g, %g) mean %.17g, reference %.17g", c->dist,
              c->params[0], c->params[1], c->params[2], mean, c->mean);
        CHECK(close_to(var, c->var, 2 * REL_TOL, 0), "%s(%g, %g, %g) variance %.17g, reference %.17g", c->dist,
              c->params[0], c->params[1], c->params[2], var, c->var);
    }
}

/* Every distribution method of numpy.random.Generator (the multivariate
   ones through their marginals, see random_stats.h), with its number of
   parameters and the kind of law. */
TEST(stats_table_has_every_numpy_distribution)
{
    static const struct {
        const char *name;
        int nparams, discrete;
    } want[] = {
        {"random", 0, 0},           {"uniform", 2, 0},         {"standard_normal", 0, 0},
        {"normal", 2, 0},           {"standard_exponential", 0, 0}, {"exponential", 1, 0},
        {"standard_gamma", 1, 0},   {"gamma", 2, 0},           {"beta", 2, 0},
        {"chisquare", 1, 0},        {"noncentral_chisquare", 2, 0}, {"f", 2, 0},
        {"noncentral_f", 3, 0},     {"standard_t", 1, 0},      {"standard_cauchy", 0, 0},
        {"lognormal", 2, 0},        {"laplace", 2, 0},         {"logistic", 2, 0},
        {"gumbel", 2, 0},           {"weibull", 1, 0},         {"pareto", 1, 0},
        {"power", 1, 0},            {"rayleigh", 1, 0},        {"vonmises", 2, 0},
        {"wald", 2, 0},             {"triangular", 3, 0},      {"integers", 2, 1},
        {"binomial", 2, 1},         {"negative_binomial", 2, 1}, {"poisson", 1, 1},
        {"geometric", 1, 1},        {"hypergeometric", 3, 1},  {"logseries", 1, 1},
        {"zipf", 1, 1},
    };
    for (size_t i = 0; i < COUNT(want); i++) {
        const ga_stats_dist *d = ga_stats_find(want[i].name);
        CHECK(d && d->nparams == want[i].nparams && (d->pmf != NULL) == want[i].discrete &&
                  (d->cdf != NULL) == !want[i].discrete && d->mean && d->var,
              "%s: %s", want[i].name, d ? "wrong entry" : "missing");
    }
    CHECK(ga_stats_find("no_such_law") == NULL, "an unknown name is NULL");
}

/* ---- the distributions against themselves ----------------------------------- */

/* Each PMF of the reference cases sums to 1, with the mean and variance its
   functions state (zipf aside: its tail is too long to sum). */
TEST(stats_pmfs_sum_to_one_with_their_moments)
{
    for (size_t i = 0; i < COUNT(STATS_MOMENT_CASES); i++) {
        const stats_moment_case *c = &STATS_MOMENT_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        if (!d || !d->pmf || !strcmp(c->dist, "zipf")) continue;
        double mean = d->mean(c->params), sd = sqrt(d->var(c->params));
        /* from 40 standard deviations below the mean up to as far above,
           and on while the terms count (logseries' geometric tail) */
        int64_t lo = (int64_t)fmax(mean - 40 * sd - 50, -1e6), hi = (int64_t)(mean + 40 * sd + 50);
        long double s0 = 0, s1 = 0, s2 = 0, p = 1;
        for (int64_t k = lo; k <= hi || p > 1e-22L * s0; k++) {
            long double dk = (long double)k - mean;
            p = d->pmf(k, c->params);
            s0 += p, s1 += p * dk, s2 += p * dk * dk;
        }
        double m = (double)(s1 / s0), v = (double)(s2 / s0 - (s1 / s0) * (s1 / s0));
        CHECK(fabs((double)s0 - 1) <= 1e-12, "%s(%g, %g, %g): the PMF sums to 1 + %.3g", c->dist, c->params[0],
              c->params[1], c->params[2], (double)s0 - 1);
        CHECK(fabs(m) <= 1e-10 * (fabs(mean) + sd), "%s(%g, %g, %g): mean %.17g by summation, %.17g stated",
              c->dist, c->params[0], c->params[1], c->params[2], mean + m, mean);
        CHECK(close_to(v, sd * sd, 1e-10, 1e-300), "%s(%g, %g, %g): variance %.17g by summation, %.17g stated",
              c->dist, c->params[0], c->params[1], c->params[2], v, sd * sd);
    }
}

/* Each CDF of the reference cases stays in [0, 1] and never decreases, on a
   fine grid between its reference points (where the noncentral sums and
   the incomplete functions switch methods). */
TEST(stats_cdfs_are_monotone_and_bounded)
{
    for (size_t i = 0; i + 1 < COUNT(STATS_CDF_CASES); i++) {
        const stats_cdf_case *c = &STATS_CDF_CASES[i], *next = c + 1;
        const ga_stats_dist *d = ga_stats_find(c->dist);
        if (!d || strcmp(c->dist, next->dist) || memcmp(c->params, next->params, sizeof c->params) ||
            !(next->x > c->x))
            continue;
        double prev = d->cdf(c->x, c->params);
        for (int j = 1; j <= 40; j++) {
            double x = c->x + (next->x - c->x) * j / 40, f = d->cdf(x, c->params);
            if (!(f >= 0 && f <= 1 && f >= prev - 4 * DBL_EPSILON * prev)) {
                CHECK(0, "%s(%g, %g, %g): CDF %.17g at %.17g after %.17g", c->dist, c->params[0], c->params[1],
                      c->params[2], f, x, prev);
                break;
            }
            prev = f;
        }
    }
}

TEST(stats_invalid_parameters_give_nan)
{
    const double neg_scale[2] = {0, -1}, bad_p[2] = {10, 1.5}, bad_tri[3] = {0, 2, 1};
    CHECK(isnan(ga_normal_cdf(0, neg_scale)) && isnan(ga_exponential_cdf(1, neg_scale + 1)), "scale < 0");
    CHECK(isnan(ga_binomial_pmf(3, bad_p)) && isnan(ga_triangular_cdf(0.5, bad_tri)), "p > 1, mode > right");
    CHECK(isnan(ga_normal_cdf(NAN, neg_scale)) || isnan(ga_standard_normal_cdf(NAN, NULL)), "NaN x");
}

/* ---- Kolmogorov-Smirnov ------------------------------------------------------ */

TEST(stats_ks_statistic_by_hand)
{
    double x[3] = {0.9, 0.1, 0.5}, d = 0;
    const double unit[2] = {0, 1};
    double p = ga_ks_pvalue(x, 3, ga_uniform_cdf, unit, &d);
    /* steps 1/3, 2/3, 1 against F(x) = x: the largest gap is 1/3 - 0.1 */
    CHECK(fabs(d - (1.0 / 3 - 0.1)) < 1e-15, "D = %.17g, wanted 7/30", d);
    CHECK(x[0] == 0.1 && x[1] == 0.5 && x[2] == 0.9, "sorted in place");
    double rn = sqrt(3.0);
    CHECK(p == ga_ks_q((rn + 0.12 + 0.11 / rn) * d), "p = Q_KS((sqrt(n) + 0.12 + 0.11/sqrt(n)) D)");
    double y[3] = {0.2, NAN, 0.4};
    CHECK(ga_ks_pvalue(y, 3, ga_uniform_cdf, unit, &d) == 0 && d == 1, "a NaN sample fails: p 0, D 1");
    CHECK(isnan(ga_ks_pvalue(y, 0, ga_uniform_cdf, unit, &d)) && isnan(d), "no samples: NaN");
    const double bad[2] = {1, 0};
    CHECK(ga_ks_pvalue(x, 3, ga_uniform_cdf, bad, NULL) == 0, "invalid parameters fail: p 0");
}

static double draw_gamma3(void) { return 2 * sm_gamma_int(3); } /* gamma(3, scale 2) */
static double draw_beta23(void)
{
    double a = sm_gamma_int(2), b = sm_gamma_int(3);
    return a / (a + b);
}
static double draw_cauchy(void) { return tan(GA__ST_PI * (sm_unit() - 0.5)); }
static double draw_logistic(void)
{
    double u = sm_unit();
    return 1 + 0.5 * log(u / (1 - u)); /* logistic(1, 0.5) */
}

/* Samples of a law, the law, and a law slightly off (for the rejection). */
typedef struct ks_case {
    const char *what;
    draw_fn draw;
    const char *dist;
    double params[3], wrong[3];
} ks_case;

static const ks_case KS_CASES[] = {
    {"exponential", sm_exponential, "exponential", {1, 0, 0}, {1.05, 0, 0}},
    {"normal (Box-Muller)", sm_normal, "normal", {0, 1, 0}, {0.03, 1, 0}},
    {"gamma(3, 2)", draw_gamma3, "gamma", {3, 2, 0}, {3.1, 2, 0}},
    {"beta(2, 3)", draw_beta23, "beta", {2, 3, 0}, {2, 3.15, 0}},
    {"Cauchy", draw_cauchy, "standard_t", {1, 0, 0}, {1.25, 0, 0}},
    {"logistic(1, 0.5)", draw_logistic, "logistic", {1, 0.5, 0}, {1, 0.53, 0}},
};

TEST(stats_ks_accepts_the_law_and_rejects_a_near_one)
{
    const size_t n = 100000;
    for (size_t i = 0; i < COUNT(KS_CASES); i++) {
        const ks_case *c = &KS_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        double *x = draw(n, 1000 + i, c->draw), D;
        if (!x || !d) {
            CHECK(0, "%s: no memory or no law", c->what);
            free(x);
            continue;
        }
        double p = ga_ks_pvalue(x, n, d->cdf, c->params, &D);
        CHECK(p > 1e-3, "%s: p = %.3g (D = %.3g) against its own law", c->what, p, D);
        p = ga_ks_pvalue(x, n, d->cdf, c->wrong, &D);
        CHECK(p < 1e-6, "%s: p = %.3g (D = %.3g) against %s(%g, %g)", c->what, p, D, c->dist, c->wrong[0],
              c->wrong[1]);
        free(x);
    }
}

/* Under the law the p-values are uniform: 300 tests of 500 exponential
   samples, their p-values tested against uniform(0, 1) in turn (this checks
   Q_KS and the small-n correction). */
TEST(stats_ks_pvalues_are_uniform_under_the_law)
{
    enum { reps = 300, n = 500 };
    double pvals[reps], one[2] = {1, 0}, unit[2] = {0, 1};
    for (int r = 0; r < reps; r++) {
        double *x = draw(n, 77 + (uint64_t)r * 1000003, sm_exponential);
        pvals[r] = x ? ga_ks_pvalue(x, n, ga_exponential_cdf, one, NULL) : NAN;
        free(x);
    }
    double D, p = ga_ks_pvalue(pvals, reps, ga_uniform_cdf, unit, &D);
    CHECK(p > 1e-3, "the p-values are not uniform: p = %.3g (D = %.3g)", p, D);
}

/* ---- chi-square --------------------------------------------------------------- */

/* Uniform on 0..9. */
static double pmf_ten(int64_t k, const double *params)
{
    (void)params;
    return k >= 0 && k < 10 ? 0.1 : 0;
}

TEST(stats_chi2_bins_by_hand)
{
    /* Poisson(0.1), 100 samples: 0 and 1 expect 90.5 and 9.05 counts; 2
       expects 0.45 (under half a count: outside), and everything outside
       joins the last bin. Two bins, one degree of freedom. */
    int64_t k[100];
    for (int i = 0; i < 100; i++) k[i] = i < 90 ? 0 : i < 99 ? 1 : 2;
    const double lam[1] = {0.1};
    double chi2, e0 = 100 * exp(-0.1), e1 = 10 * exp(-0.1), out = 100 - e0 - e1;
    int df;
    double p = ga_chi2_pvalue(k, 100, ga_poisson_pmf, lam, &chi2, &df);
    double want = (90 - e0) * (90 - e0) / e0 + (10 - e1 - out) * (10 - e1 - out) / (e1 + out);
    CHECK(df == 1 && fabs(chi2 - want) <= 1e-12 * want, "df %d chi2 %.17g, wanted 1 and %.17g", df, chi2, want);
    CHECK(fabs(p - erfc(sqrt(want / 2))) <= 1e-12, "p %.17g, wanted erfc(sqrt(chi2/2)) = %.17g", p,
          erfc(sqrt(want / 2)));

    /* ten values, ten counts each: a perfect fit, nine degrees of freedom */
    int64_t u[100];
    for (int i = 0; i < 100; i++) u[i] = 9 - i % 10;
    p = ga_chi2_pvalue(u, 100, pmf_ten, NULL, &chi2, &df);
    CHECK(df == 9 && chi2 == 0 && p == 1, "uniform: df %d chi2 %g p %g", df, chi2, p);
    CHECK(u[0] == 0 && u[99] == 9, "sorted in place");

    /* a sample the PMF forbids fails outright, however few */
    u[50] = 10;
    CHECK(ga_chi2_pvalue(u, 100, pmf_ten, NULL, &chi2, &df) == 0 && isinf(chi2), "a forbidden value: p 0");
    /* one bin only (a degenerate law), or nothing: no test */
    int64_t z[20] = {0};
    const double degenerate[2] = {5, 0};
    CHECK(isnan(ga_chi2_pvalue(z, 20, ga_binomial_pmf, degenerate, NULL, &df)) && df == 0, "binomial(5, 0)");
    CHECK(isnan(ga_chi2_pvalue(z, 0, ga_poisson_pmf, lam, &chi2, &df)) && isnan(chi2) && df == 0, "n = 0");
}

/* Discrete samples of a law, the law, and a law slightly off. */
typedef int64_t (*draw_int_fn)(void);
static int64_t draw_poisson(void) { return sm_poisson(3.5); }
static int64_t draw_binomial(void) { return sm_binomial(20, 0.3); }
static int64_t draw_geometric(void) { return sm_geometric(0.2); }
static int64_t draw_negbin(void) { return sm_geometric(0.4) - 1 + sm_geometric(0.4) - 1 + sm_geometric(0.4) - 1; }

typedef struct chi2_case {
    const char *what;
    draw_int_fn draw;
    const char *dist;
    double params[3], wrong[3];
} chi2_case;

static const chi2_case CHI2_CASES[] = {
    {"Poisson(3.5)", draw_poisson, "poisson", {3.5, 0, 0}, {3.6, 0, 0}},
    {"binomial(20, 0.3)", draw_binomial, "binomial", {20, 0.3, 0}, {20, 0.31, 0}},
    {"geometric(0.2)", draw_geometric, "geometric", {0.2, 0, 0}, {0.21, 0, 0}},
    {"negative_binomial(3, 0.4)", draw_negbin, "negative_binomial", {3, 0.4, 0}, {3.3, 0.4, 0}},
};

TEST(stats_chi2_accepts_the_law_and_rejects_a_near_one)
{
    const size_t n = 100000;
    int64_t *k = (int64_t *)malloc(n * sizeof *k);
    for (size_t i = 0; k && i < COUNT(CHI2_CASES); i++) {
        const chi2_case *c = &CHI2_CASES[i];
        const ga_stats_dist *d = ga_stats_find(c->dist);
        sm_state = 2000 + i;
        for (size_t j = 0; j < n; j++) k[j] = c->draw();
        double chi2;
        int df;
        double p = ga_chi2_pvalue(k, n, d->pmf, c->params, &chi2, &df);
        CHECK(p > 1e-3 && df >= 5, "%s: p = %.3g (chi2 %.4g, df %d) against its own law", c->what, p, chi2, df);
        p = ga_chi2_pvalue(k, n, d->pmf, c->wrong, &chi2, &df);
        CHECK(p < 1e-6, "%s: p = %.3g (chi2 %.4g, df %d) against %s(%g, %g)", c->what, p, chi2, df, c->dist,
              c->wrong[0], c->wrong[1]);
    }
    CHECK(k != NULL, "no memory");
    free(k);
}

/* ---- moments --------------------------------------------------------------------- */

TEST(stats_moments_by_hand)
{
    const double x[4] = {1, 2, 3, 4};
    const int64_t k[4] = {1, 2, 3, 4};
    ga_moments m = ga_moments_of(x, 4), mk = ga_moments_of_i64(k, 4);
    /* mean 2.5, variance 5/3, fourth central moment (2 * 1.5^4 + 2 * 0.5^4) / 4 */
    CHECK(m.n == 4 && m.mean == 2.5 && fabs(m.var - 5.0 / 3) < 1e-15 && m.m4 == 2.5625, "doubles: %g %.17g %g",
          m.mean, m.var, m.m4);
    CHECK(mk.mean == m.mean && mk.var == m.var && mk.m4 == m.m4, "int64s as doubles");
    CHECK(ga_mu4_from_kurtosis(2, 6) == 36, "mu4 = (excess + 3) sigma^4");
    ga_moments one = ga_moments_of(x, 1);
    CHECK(one.mean == 1 && isnan(one.var), "one sample: no variance");
}

TEST(stats_moments_accept_the_law_and_reject_a_near_one)
{
    const size_t n = 1000000;
    double *x = draw(n, 3000, sm_exponential);
    if (!x) {
        CHECK(0, "no memory");
        return;
    }
    ga_moments m = ga_moments_of(x, n);
    /* exponential(1): mean 1, variance 1, fourth central moment 9 */
    CHECK(ga_moments_ok(&m, 1, 1, 9, 5), "exponential: mean z %.3g, variance z %.3g", ga_mean_z(&m, 1, 1),
          ga_var_z(&m, 1, 9));
    CHECK(ga_moments_ok_est(&m, 1, 1, 5), "exponential, estimated mu4: variance z %.3g", ga_var_z(&m, 1, NAN));
    CHECK(!ga_moments_ok(&m, 1.01, 1.0201, 9 * 1.0201 * 1.0201, 5), "exponential(1.01) passed: mean z %.3g",
          ga_mean_z(&m, 1.01, 1.0201));
    CHECK(!ga_moments_ok(&m, 1, 1.02, 9, 5), "variance 1.02 passed: z %.3g", ga_var_z(&m, 1.02, 9));
    free(x);

    int64_t *k = (int64_t *)malloc(n * sizeof *k);
    if (!k) return;
    sm_state = 3001;
    for (size_t i = 0; i < n; i++) k[i] = sm_poisson(3.5);
    m = ga_moments_of_i64(k, n);
    /* Poisson: mu4 = lam (1 + 3 lam) */
    CHECK(ga_moments_ok(&m, 3.5, 3.5, 3.5 * (1 + 3 * 3.5), 5), "Poisson(3.5): mean z %.3g, variance z %.3g",
          ga_mean_z(&m, 3.5, 3.5), ga_var_z(&m, 3.5, 3.5 * 11.5));
    CHECK(!ga_moments_ok_est(&m, 3.53, 3.53, 5), "Poisson(3.53) passed: mean z %.3g", ga_mean_z(&m, 3.53, 3.53));
    free(k);
}
