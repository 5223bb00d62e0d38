/* tests/test_random_alg.cc - host tests of the device random algorithms
   (kernels/random_philox.cuh and kernels/random_dists.cuh), which compile
   without CUDA: Philox4x32-10 against Random123's known answers, the
   per-element stream's words and blocks against the contract, the values
   of words (uniforms, the inverse normal CDF, exponentials), every
   distribution's sample mean and variance against the exact ones (200000
   samples, each from its own element stream as on the device, within 5
   standard errors), the edge cases and the caps on rejection loops.

     g++ -std=c++17 -Wall -Wextra -Werror -I. -o /tmp/tra tests/test_random_alg.cc -lm
     /tmp/tra [name filter]
     /tmp/tra --dump DIR [KEY]   (the samples, for tools/random_alg_scipy.py)

   Closing line: "N passed, N failed" (tests). */

#include "gpuarr.h"
#include "tests/random_cases.h"
#include "kernels/random_dists.cuh"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

/* ---- a small harness ----------------------------------------------------- */

static int test_failures;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            if (test_failures++ < 10) {                                          \
                fprintf(stderr, "    %s:%d: ", __FILE__, __LINE__);             \
                fprintf(stderr, __VA_ARGS__);                                    \
                fprintf(stderr, "\n");                                           \
            }                                                                    \
        }                                                                        \
    } while (0)

struct test_entry {
    const char *name;
    void (*run)();
};
static std::vector<test_entry> &tests()
{
    static std::vector<test_entry> list;
    return list;
}
struct test_register {
    test_register(const char *name, void (*run)()) { tests().push_back({name, run}); }
};
#define TEST(name)                                                \
    static void test_##name();                                    \
    static test_register test_register_##name(#name, test_##name); \
    static void test_##name()

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The draws' generator state: a counter whose low half carries within the
   samples, and a key. Case c draws at counter high half HI + c. */
static uint64_t KEY = 0x0123456789ABCDEFull;
static const uint64_t LO = 0xFFFFFFFFFFFF0000ull, HI = 0x00000000DEADBEEFull;
static const int N = 200000;

/* ---- Philox and the stream ------------------------------------------------ */

TEST(philox4x32_known_answers)
{
    for (int i = 0; i < COUNT(PHILOX4X32_KAT); i++) {
        uint32_t w[4];
        memcpy(w, PHILOX4X32_KAT[i].ctr, sizeof w);
        ga__philox4x32_10_words(w, PHILOX4X32_KAT[i].key[0], PHILOX4X32_KAT[i].key[1]);
        CHECK(memcmp(w, PHILOX4X32_KAT[i].expected, sizeof w) == 0,
              "vector %d: %08x %08x %08x %08x, Random123's %08x %08x %08x %08x", i, w[0], w[1], w[2], w[3],
              PHILOX4X32_KAT[i].expected[0], PHILOX4X32_KAT[i].expected[1], PHILOX4X32_KAT[i].expected[2],
              PHILOX4X32_KAT[i].expected[3]);
    }
}

/* Block j of element i, from the contract: Philox of C + i + j 2^96 (mod
   2^128), computed in 128-bit arithmetic. */
static void contract_block(uint64_t key, uint64_t lo, uint64_t hi, uint64_t i, uint64_t j, uint32_t out[4])
{
    const unsigned __int128 c = ((unsigned __int128)hi << 64 | lo) + i + ((unsigned __int128)j << 96);
    for (int k = 0; k < 4; k++)
        out[k] = (uint32_t)(c >> (32 * k));
    ga__philox4x32_10_words(out, (uint32_t)key, (uint32_t)(key >> 32));
}

TEST(stream_words_follow_the_contract)
{
    /* counters where C + i carries into the high half, where j wraps word
       3, and where both happen */
    const uint64_t cases[][3] = {{KEY, 0, 0},
                                 {KEY, 0xFFFFFFFFFFFFFFF0ull, 0x12345678ull},
                                 {0xFFFFFFFFFFFFFFFFull, 5, 0xFFFFFFFE00000000ull},
                                 {0, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull}};
    const uint64_t elements[] = {0, 1, 7, 16, 17, 1000003, 0xFFFFFFFFFFFFFFFFull};
    for (const auto &c : cases) {
        for (uint64_t i : elements) {
            ga__rstream s(c[0], c[1], c[2], i);
            for (uint64_t j = 0; j < 5; j++) {
                uint32_t want[4];
                contract_block(c[0], c[1], c[2], i, j, want);
                for (int k = 0; k < 4; k++) {
                    const uint32_t got = s.next32();
                    CHECK(got == want[k], "key %016llx counter %016llx %016llx element %llu: block %llu word %d %08x, "
                          "want %08x", (unsigned long long)c[0], (unsigned long long)c[2], (unsigned long long)c[1],
                          (unsigned long long)i, (unsigned long long)j, k, got, want[k]);
                }
            }
        }
    }
}

TEST(stream_two_words_low_half_first)
{
    for (uint64_t i = 0; i < 64; i++) {
        ga__rstream a(KEY, LO, HI, i), b(KEY, LO, HI, i);
        for (int k = 0; k < 7; k++) { /* across block boundaries, odd word places */
            if (k == 3)
                a.next32(), b.next32();
            const uint64_t lo = b.next32(), hi = b.next32();
            const uint64_t w = a.next64();
            CHECK(w == (hi << 32 | lo), "element %llu: next64 %016llx, words %08llx then %08llx",
                  (unsigned long long)i, (unsigned long long)w, (unsigned long long)lo, (unsigned long long)hi);
        }
    }
}

TEST(stream_values_are_the_values_of_its_words)
{
    for (uint64_t i = 0; i < 1000; i++) {
        ga__rstream a(KEY, LO, HI, i), b(KEY, LO, HI, i);
        const uint64_t w = b.next64();
        CHECK(a.uniform64() == (double)(w >> 11) / 9007199254740992.0, "uniform64 of element %llu",
              (unsigned long long)i);
        const uint64_t w2 = b.next64();
        const double open = ((double)(w2 >> 11) + 0.5) / 9007199254740992.0;
        CHECK(a.uniform64_open() == (open < 1 ? open : 1 - 0x1p-53), "uniform64_open of element %llu",
              (unsigned long long)i);
        CHECK(a.normal64() == ga__normal64_bits(b.next64()), "normal64");
        CHECK(a.exponential64() == ga__exponential64_bits(b.next64()), "exponential64");
        const uint32_t v = b.next32();
        CHECK(a.uniform32() == (float)(v >> 8) / 16777216.0f, "uniform32 of element %llu", (unsigned long long)i);
        CHECK(a.uniform32_open() == ga__uniform32_open_bits(b.next32()), "uniform32_open");
        CHECK(a.normal32() == ga__normal32_bits(b.next32()), "normal32");
        CHECK(a.exponential32() == ga__exponential32_bits(b.next32()), "exponential32");
    }
}

/* binomial's inversion alone (the kernel the host picks for scalar n and p
   with min(p, 1 - p) n <= 30) draws the values binomial draws. */
TEST(binomial_small_is_binomial)
{
    const int64_t ns[] = {0, 1, 7, 20, 60, 1000};
    const double ps[] = {0.0, 0.01, 0.3, 0.5, 0.7, 0.97, 1.0};
    int compared = 0;
    for (int64_t n : ns)
        for (double p : ps) {
            const double q = p <= 0.5 ? p : 1 - p;
            if (q * (double)n > 30.0) continue;
            for (uint64_t i = 0; i < 200; i++, compared++) {
                ga__rstream a(KEY, LO, HI, i), b(KEY, LO, HI, i);
                const int64_t x = ga__random_binomial(a, n, p), y = ga__random_binomial_small(b, n, p);
                CHECK(x == y, "binomial(%lld, %g) of element %llu: %lld, by inversion alone %lld", (long long)n, p,
                      (unsigned long long)i, (long long)x, (long long)y);
            }
        }
    CHECK(compared > 5000, "%d draws compared", compared);
}

/* ---- values of words -------------------------------------------------- */

TEST(open_uniforms_stay_inside)
{
    const uint64_t top = ~0ull, bottom = 0;
    CHECK(ga__uniform64_open_bits(bottom) == 0x1p-54, "the least open uniform64 is 2^-54");
    CHECK(ga__uniform64_open_bits(top) < 1.0, "the largest open uniform64 is below 1");
    CHECK(ga__uniform32_open_bits(0) == 0x1p-25f, "the least open uniform32 is 2^-25");
    CHECK(ga__uniform32_open_bits(0xFFFFFFFFu) < 1.0f, "the largest open uniform32 is below 1");
    CHECK(ga__uniform64_bits(top) == 1.0 - 0x1p-53 && ga__uniform64_bits(bottom) == 0.0, "uniform64 ends");
    CHECK(ga__uniform32_bits(0xFFFFFFFFu) == 1.0f - 0x1p-24f, "uniform32's largest");
}

/* Phi(x), for the inverse's round trip. */
static double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

TEST(inverse_normal_cdf_is_accurate)
{
    /* quantiles from mpmath (50 digits), rounded */
    const struct {
        double p, x;
    } known[] = {{0.5, 0.0},
                 {0.975, 1.9599639845400538557},
                 {0.025, -1.9599639845400542118},
                 {1e-10, -6.3613409024040561991},
                 {1e-300, -37.047096299361199237},
                 {0x1p-54, -8.2923610758135955382},
                 {0.8413447460685429, 0.99999999999999990574}};
    for (const auto &k : known) {
        const double x = ga__normal_quantile(k.p);
        CHECK(fabs(x - k.x) <= 4e-15 * fmax(1.0, fabs(k.x)), "quantile of %.17g: %.17g, want %.17g", k.p, x, k.x);
    }
    /* Phi(x(p)) = p to a relative 1e-13 from 1e-300 up */
    for (double lp = -300; lp < -0.302; lp += 0.37) {
        const double p = pow(10.0, lp), x = ga__normal_quantile(p);
        const double back = normal_cdf(x);
        CHECK(fabs(back - p) <= 1e-13 * p * fmax(1.0, x * x), "Phi(x(%.17g)) = %.17g", p, back);
        CHECK(ga__normal_quantile(1.0 - p) == -ga__normal_quantile(1.0 - (1.0 - p)) || p < 1e-16,
              "symmetric at %.17g", p);
    }
}

TEST(normals_and_exponentials_of_words)
{
    /* the mirror: k and 2^53 - 1 - k give opposite normals */
    const uint64_t ks[] = {0, 1, 12345, (1ull << 52) - 1, 1ull << 40};
    for (uint64_t k : ks) {
        const uint64_t w = k << 11, m = ((1ull << 53) - 1 - k) << 11;
        CHECK(ga__normal64_bits(w) == -ga__normal64_bits(m), "normal64 of k = %llu and its mirror",
              (unsigned long long)k);
        const double u = ((double)k + 0.5) * 0x1p-53;
        CHECK(ga__normal64_bits(w) == ga__normal_quantile(u), "normal64 of k = %llu", (unsigned long long)k);
        /* exponential: -log of the open uniform, in long double (k + 1/2 exact) */
        const long double uk = ((long double)k + 0.5L) * 0x1p-53L, um = 1.0L - uk;
        CHECK(fabsl(ga__exponential64_bits(w) + logl(uk)) <= 4e-16L * -logl(uk), "exponential64 of k = %llu",
              (unsigned long long)k);
        CHECK(fabsl(ga__exponential64_bits(m) + log1pl(-uk)) <= 4e-16L * -logl(um),
              "exponential64 of the mirror of k = %llu: %.17g", (unsigned long long)k, ga__exponential64_bits(m));
    }
    CHECK(ga__exponential64_bits(~0ull) > 0 && ga__exponential64_bits(~0ull) < 1.2e-16, "the least exponential64");
    CHECK(ga__exponential32_bits(0xFFFFFFFFu) > 0 && ga__exponential32_bits(0xFFFFFFFFu) < 6.0e-8f,
          "the least exponential32");
    CHECK(ga__normal32_bits(0) == -ga__normal32_bits(0xFFFFFFFFu), "normal32's ends mirror");
    CHECK(fabsf(ga__normal32_bits(0) + 5.41998317f) < 1e-6f, "normal32 of the least word: %.9g",
          ga__normal32_bits(0));
}

/* ---- moments ------------------------------------------------------------- */

static double nan_() { return std::nan(""); }
static const double INF = HUGE_VAL, PI = 3.14159265358979323846, EULER = 0.57721566490153286061;

/* One distribution at one parameter set: what it draws, the exact mean and
   variance of stat(x) (NaN: not checked; stat is x when empty), the
   support [lo, hi], whether values are integers, and the scipy.stats
   distribution for tools/random_alg_scipy.py ("" when there is none). */
struct dist_case {
    std::string name;
    std::function<double(ga__rstream &)> draw;
    double mean, var;
    double lo, hi;
    bool integer;
    std::string scipy;
    std::function<double(double)> stat;
};

/* Riemann's zeta(s), s > 1 (Euler-Maclaurin after 50 terms). */
static double zeta(double s)
{
    const int n = 50;
    double sum = 0;
    for (int k = 1; k < n; k++)
        sum += pow(k, -s);
    return sum + pow(n, 1 - s) / (s - 1) + 0.5 * pow(n, -s) + s * pow(n, -s - 1) / 12 -
           s * (s + 1) * (s + 2) * pow(n, -s - 3) / 720;
}

/* I_n(kappa) / I_0(kappa). */
static double bessel_ratio(int n, double kappa) { return std::cyl_bessel_i(n, kappa) / std::cyl_bessel_i(0, kappa); }

/* E[X^2] of vonmises(0, kappa) on [-pi, pi]: pi^2/3 + 4 sum (-1)^n I_n / (I_0 n^2). */
static double vonmises_second_moment(double kappa)
{
    double m = PI * PI / 3;
    for (int n = 1; n < 60; n++)
        m += 4 * (n % 2 ? -1 : 1) * bessel_ratio(n, kappa) / ((double)n * n);
    return m;
}

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

static std::vector<dist_case> continuous_cases();
static std::vector<dist_case> discrete_cases();
static std::vector<dist_case> multivariate_cases();

static std::vector<double> sample(const dist_case &c, uint64_t index)
{
    std::vector<double> x(N);
    for (int i = 0; i < N; i++) {
        ga__rstream s(KEY, LO, HI + index, (uint64_t)i);
        x[i] = c.draw(s);
    }
    return x;
}

/* Mean and variance of stat(x) within 5 standard errors (the variance's
   from the sample's 4th central moment); the support; integers. */
static void check_case(const dist_case &c, const std::vector<double> &raw)
{
    int outside = 0, fractional = 0;
    for (double v : raw) {
        if (!(v >= c.lo && v <= c.hi))
            outside++;
        if (c.integer && v != floor(v))
            fractional++;
    }
    CHECK(outside == 0, "%s: %d values outside [%g, %g] (or NaN)", c.name.c_str(), outside, c.lo, c.hi);
    CHECK(fractional == 0, "%s: %d values not integers", c.name.c_str(), fractional);
    std::vector<double> x(raw);
    if (c.stat)
        for (double &v : x)
            v = c.stat(v);
    if (c.var == 0) { /* a constant */
        int other = 0;
        for (double v : x)
            other += v != c.mean;
        CHECK(other == 0, "%s: %d values not the constant %.17g", c.name.c_str(), other, c.mean);
        return;
    }
    double m = 0;
    for (double v : x)
        m += v;
    m /= N;
    double m2 = 0, m4 = 0;
    for (double v : x) {
        const double d = (v - m) * (v - m);
        m2 += d;
        m4 += d * d;
    }
    const double s2 = m2 / (N - 1);
    m4 /= N;
    if (!std::isnan(c.mean)) {
        const double se = sqrt((std::isnan(c.var) ? s2 : c.var) / N);
        CHECK(fabs(m - c.mean) <= 5 * se, "%s: mean %.8g, want %.8g (%.2f standard errors)", c.name.c_str(), m,
              c.mean, (m - c.mean) / se);
    }
    if (!std::isnan(c.var)) {
        const double se = sqrt((m4 - s2 * s2) / N);
        CHECK(fabs(s2 - c.var) <= 5 * se, "%s: variance %.8g, want %.8g (%.2f standard errors)", c.name.c_str(), s2,
              c.var, (s2 - c.var) / se);
    }
}

static void run_cases(const std::vector<dist_case> &cases, uint64_t first_index)
{
    for (size_t k = 0; k < cases.size(); k++)
        check_case(cases[k], sample(cases[k], first_index + k));
}

TEST(continuous_moments) { run_cases(continuous_cases(), 0); }
TEST(discrete_moments) { run_cases(discrete_cases(), 1000); }
TEST(multivariate_moments) { run_cases(multivariate_cases(), 2000); }

/* ---- the cases ---------------------------------------------------------- */

static dist_case C(std::string name, std::function<double(ga__rstream &)> draw, double mean, double var, double lo,
                   double hi, std::string scipy, std::function<double(double)> stat = nullptr)
{
    return {name, draw, mean, var, lo, hi, false, scipy, stat};
}
static dist_case D(std::string name, std::function<double(ga__rstream &)> draw, double mean, double var, double lo,
                   double hi, std::string scipy, std::function<double(double)> stat = nullptr)
{
    return {name, draw, mean, var, lo, hi, true, scipy, stat};
}

static std::vector<dist_case> continuous_cases()
{
    std::vector<dist_case> v;
    /* the gamma family */
    for (double k : {0.0, 1e-3, 0.3, 1.0, 4.5, 1e4}) {
        v.push_back(C(fmt("standard_gamma(%g)", k), [=](ga__rstream &s) { return ga__random_standard_gamma(s, k); },
                      k, k, 0, INF, k > 0 ? fmt("stats.gamma(%.17g)", k) : ""));
        v.push_back(C(fmt("standard_gamma_f(%g)", k),
                      [=](ga__rstream &s) { return (double)ga__random_standard_gamma_f(s, (float)k); }, (float)k,
                      (float)k, 0, INF, k > 0 ? fmt("stats.gamma(%.9g)", (double)(float)k) : ""));
    }
    v.push_back(C("gamma(2.5, 3)", [](ga__rstream &s) { return ga__random_gamma(s, 2.5, 3.0); }, 7.5, 22.5, 0, INF,
                  "stats.gamma(2.5, scale=3)"));
    v.push_back(C("gamma(0.5, 0.1)", [](ga__rstream &s) { return ga__random_gamma(s, 0.5, 0.1); }, 0.05, 0.005, 0,
                  INF, "stats.gamma(0.5, scale=0.1)"));
    v.push_back(C("gamma_f(3, 2)", [](ga__rstream &s) { return (double)ga__random_gamma_f(s, 3.0f, 2.0f); }, 6.0,
                  12.0, 0, INF, "stats.gamma(3, scale=2)"));
    const double betas[][2] = {{0.5, 0.5}, {0.2, 0.9}, {1e-3, 1e-3}, {2.0, 5.0}, {0.5, 3.0}, {1e-200, 3e-200}};
    for (const auto &ab : betas) {
        const double a = ab[0], b = ab[1];
        v.push_back(C(fmt("beta(%g, %g)", a, b), [=](ga__rstream &s) { return ga__random_beta(s, a, b); },
                      a / (a + b), a / (a + b) * (b / (a + b)) / (a + b + 1), 0, 1,
                      a > 1e-100 ? fmt("stats.beta(%.17g, %.17g)", a, b) : ""));
    }
    for (double k : {0.5, 1.0, 10.0})
        v.push_back(C(fmt("chisquare(%g)", k), [=](ga__rstream &s) { return ga__random_chisquare(s, k); }, k, 2 * k,
                      0, INF, fmt("stats.chi2(%g)", k)));
    const double fs[][2] = {{5, 20}, {1, 30}, {0.5, 12}};
    for (const auto &f : fs) {
        const double d1 = f[0], d2 = f[1];
        v.push_back(C(fmt("f(%g, %g)", d1, d2), [=](ga__rstream &s) { return ga__random_f(s, d1, d2); },
                      d2 / (d2 - 2), 2 * d2 * d2 * (d1 + d2 - 2) / (d1 * (d2 - 2) * (d2 - 2) * (d2 - 4)), 0, INF,
                      fmt("stats.f(%g, %g)", d1, d2)));
    }
    for (double df : {10.0, 30.0})
        v.push_back(C(fmt("standard_t(%g)", df), [=](ga__rstream &s) { return ga__random_standard_t(s, df); }, 0,
                      df / (df - 2), -INF, INF, fmt("stats.t(%g)", df)));
    /* t(1) is Cauchy: P(X <= 1) = 3/4; t(0.5): P(X <= 1) from scipy */
    v.push_back(C("standard_t(1)", [](ga__rstream &s) { return ga__random_standard_t(s, 1.0); }, 0.75, 0.1875, -INF,
                  INF, "stats.t(1)", [](double x) { return x <= 1 ? 1.0 : 0.0; }));
    {
        const double p = 0.698878389158678; /* scipy.stats.t(0.5).cdf(1) */
        v.push_back(C("standard_t(0.5)", [](ga__rstream &s) { return ga__random_standard_t(s, 0.5); }, p,
                      p * (1 - p), -INF, INF, "stats.t(0.5)", [](double x) { return x <= 1 ? 1.0 : 0.0; }));
    }
    /* from normals */
    v.push_back(C("standard_cauchy() <= 1", [](ga__rstream &s) { return ga__random_standard_cauchy(s); }, 0.75,
                  0.1875, -INF, INF, "stats.cauchy()", [](double x) { return x <= 1 ? 1.0 : 0.0; }));
    {
        const double p = 0.5 + atan(-3.0) / PI;
        v.push_back(C("standard_cauchy() <= -3", [](ga__rstream &s) { return ga__random_standard_cauchy(s); }, p,
                      p * (1 - p), -INF, INF, "", [](double x) { return x <= -3 ? 1.0 : 0.0; }));
    }
    const double lognormals[][2] = {{0, 0.5}, {1, 0.25}, {2, 0}};
    for (const auto &ms : lognormals) {
        const double mu = ms[0], sg = ms[1];
        v.push_back(C(fmt("lognormal(%g, %g)", mu, sg), [=](ga__rstream &s) { return ga__random_lognormal(s, mu, sg); },
                      exp(mu + sg * sg / 2), (exp(sg * sg) - 1) * exp(2 * mu + sg * sg), 0, INF,
                      sg > 0 ? fmt("stats.lognorm(%g, scale=np.exp(%g))", sg, mu) : ""));
    }
    const double walds[][2] = {{1, 1}, {3, 0.5}, {0.5, 10}};
    for (const auto &ml : walds) {
        const double m = ml[0], l = ml[1];
        v.push_back(C(fmt("wald(%g, %g)", m, l), [=](ga__rstream &s) { return ga__random_wald(s, m, l); }, m,
                      m * m * m / l, 0, INF, fmt("stats.invgauss(%.17g, scale=%g)", m / l, l)));
    }
    /* mean / scale = 1e6: NumPy's formula loses digits here; heavy tailed,
       so the mean only */
    v.push_back(C("wald(1e6, 1)", [](ga__rstream &s) { return ga__random_wald(s, 1e6, 1.0); }, 1e6, nan_(), 0, INF,
                  "stats.invgauss(1e6, scale=1)"));
    /* vonmises: mu = 0 mean and E[X^2]; mu = 2.5: E[cos(X - mu)], E[sin(X - mu)] */
    for (double k : {1e-9, 1e-6, 0.5, 4.0, 50.0}) {
        v.push_back(C(fmt("vonmises(0, %g)", k), [=](ga__rstream &s) { return ga__random_vonmises(s, 0.0, k); }, 0,
                      vonmises_second_moment(k), -PI, PI, fmt("vonmises(0, %.17g)", k)));
        const double a1 = bessel_ratio(1, k), a2 = bessel_ratio(2, k);
        v.push_back(C(fmt("cos of vonmises(2.5, %g)", k),
                      [=](ga__rstream &s) { return ga__random_vonmises(s, 2.5, k); }, a1, (1 + a2) / 2 - a1 * a1, -PI, PI,
                      fmt("vonmises(2.5, %.17g)", k), [](double x) { return cos(x - 2.5); }));
        v.push_back(C(fmt("sin of vonmises(2.5, %g)", k),
                      [=](ga__rstream &s) { return ga__random_vonmises(s, 2.5, k); }, 0, (1 - a2) / 2, -PI, PI, "",
                      [](double x) { return sin(x - 2.5); }));
    }
    for (double k : {1e5, 1e7}) { /* Best-Fisher at a large kappa, and the wrapped normal */
        v.push_back(C(fmt("vonmises(1, %g)", k), [=](ga__rstream &s) { return ga__random_vonmises(s, 1.0, k); }, 1,
                      1 / k + 1 / (2 * k * k), -PI, PI, fmt("vonmises(1, %.17g)", k)));
    }
    v.push_back(C("vonmises(3.1, 1e7)", [](ga__rstream &s) { return ga__random_vonmises(s, 3.1, 1e7); }, 0, nan_(),
                  -PI, PI, "", [](double x) { return sin(x - 3.1); })); /* wraps past pi */
    /* noncentral chi-square and F: the three cases */
    const double nc[][2] = {{3, 2}, {0.5, 1.5}, {2, 0}, {1, 20}};
    for (const auto &dn : nc) {
        const double df = dn[0], l = dn[1];
        v.push_back(C(fmt("noncentral_chisquare(%g, %g)", df, l),
                      [=](ga__rstream &s) { return ga__random_noncentral_chisquare(s, df, l); }, df + l,
                      2 * (df + 2 * l), 0, INF, l > 0 ? fmt("stats.ncx2(%g, %g)", df, l) : fmt("stats.chi2(%g)", df)));
    }
    const double ncf[][3] = {{3, 20, 2}, {0.5, 30, 1}, {4, 15, 0}};
    for (const auto &p : ncf) {
        const double d1 = p[0], d2 = p[1], l = p[2];
        v.push_back(C(fmt("noncentral_f(%g, %g, %g)", d1, d2, l),
                      [=](ga__rstream &s) { return ga__random_noncentral_f(s, d1, d2, l); },
                      d2 * (d1 + l) / (d1 * (d2 - 2)),
                      2 * (d2 / d1) * (d2 / d1) * ((d1 + l) * (d1 + l) + (d1 + 2 * l) * (d2 - 2)) /
                          ((d2 - 2) * (d2 - 2) * (d2 - 4)),
                      0, INF, l > 0 ? fmt("stats.ncf(%g, %g, %g)", d1, d2, l) : fmt("stats.f(%g, %g)", d1, d2)));
    }
    /* one uniform (the open one: laplace, logistic and gumbel want it) */
    v.push_back(C("exponential(2)", [](ga__rstream &s) { return ga__inv_exponential(s.uniform64(), 2.0); }, 2, 4, 0,
                  INF, "stats.expon(scale=2)"));
    v.push_back(C("exponential(0)", [](ga__rstream &s) { return ga__inv_exponential(s.uniform64(), 0.0); }, 0, 0, 0,
                  0, ""));
    v.push_back(C("uniform(-1, 3)", [](ga__rstream &s) { return ga__inv_uniform(s.uniform64(), -1.0, 3.0); }, 1,
                  16.0 / 12, -1, 3, "stats.uniform(-1, 4)"));
    v.push_back(C("uniform(3, -1)", [](ga__rstream &s) { return ga__inv_uniform(s.uniform64(), 3.0, -1.0); }, 1,
                  16.0 / 12, -1, 3, "stats.uniform(-1, 4)"));
    v.push_back(C("laplace(1, 2)", [](ga__rstream &s) { return ga__inv_laplace(s.uniform64_open(), 1.0, 2.0); }, 1,
                  8, -INF, INF, "stats.laplace(1, 2)"));
    v.push_back(C("logistic(0, 1)", [](ga__rstream &s) { return ga__inv_logistic(s.uniform64_open(), 0.0, 1.0); },
                  0, PI * PI / 3, -INF, INF, "stats.logistic(0, 1)"));
    v.push_back(C("logistic(-2, 0.5)",
                  [](ga__rstream &s) { return ga__inv_logistic(s.uniform64_open(), -2.0, 0.5); }, -2,
                  0.25 * PI * PI / 3, -INF, INF, "stats.logistic(-2, 0.5)"));
    v.push_back(C("gumbel(0.5, 2)", [](ga__rstream &s) { return ga__inv_gumbel(s.uniform64_open(), 0.5, 2.0); },
                  0.5 + 2 * EULER, PI * PI / 6 * 4, -INF, INF, "stats.gumbel_r(0.5, 2)"));
    for (double a : {0.5, 2.0}) {
        const double m1 = tgamma(1 + 1 / a), m2 = tgamma(1 + 2 / a);
        v.push_back(C(fmt("weibull(%g)", a), [=](ga__rstream &s) { return ga__inv_weibull(s.uniform64(), a); }, m1,
                      m2 - m1 * m1, 0, INF, fmt("stats.weibull_min(%g)", a)));
    }
    v.push_back(C("weibull(0)", [](ga__rstream &s) { return ga__inv_weibull(s.uniform64(), 0.0); }, 0, 0, 0, 0, ""));
    for (double a : {5.0, 12.0})
        v.push_back(C(fmt("pareto(%g)", a), [=](ga__rstream &s) { return ga__inv_pareto(s.uniform64(), a); },
                      1 / (a - 1), a / ((a - 1) * (a - 1) * (a - 2)), 0, INF, fmt("stats.lomax(%g)", a)));
    for (double a : {0.3, 3.0})
        v.push_back(C(fmt("power(%g)", a), [=](ga__rstream &s) { return ga__inv_power(s.uniform64(), a); },
                      a / (a + 1), a / ((a + 1) * (a + 1) * (a + 2)), 0, 1, fmt("stats.powerlaw(%g)", a)));
    v.push_back(C("rayleigh(2)", [](ga__rstream &s) { return ga__inv_rayleigh(s.uniform64(), 2.0); },
                  2 * sqrt(PI / 2), (4 - PI) / 2 * 4, 0, INF, "stats.rayleigh(scale=2)"));
    const double tri[][3] = {{0, 1, 3}, {0, 0, 1}, {-1, 2, 2}};
    for (const auto &t : tri) {
        const double a = t[0], c = t[1], b = t[2];
        v.push_back(C(fmt("triangular(%g, %g, %g)", a, c, b),
                      [=](ga__rstream &s) { return ga__inv_triangular(s.uniform64(), a, c, b); }, (a + b + c) / 3,
                      (a * a + b * b + c * c - a * b - a * c - b * c) / 18, a, b,
                      fmt("stats.triang(%.17g, %g, %g)", (c - a) / (b - a), a, b - a)));
    }
    return v;
}

static std::vector<dist_case> discrete_cases()
{
    std::vector<dist_case> v;
    for (double l : {0.0, 3.5, 10.0, 1e4, 1e12})
        v.push_back(D(fmt("poisson(%g)", l), [=](ga__rstream &s) { return (double)ga__random_poisson(s, l); }, l, l,
                      0, INF, l > 0 ? fmt("stats.poisson(%g)", l) : ""));
    const double bins[][2] = {{10, 0.3}, {100, 0.3}, {1000, 0.4}, {1000, 0.9}, {100, 0.7}, {20, 1.0}, {0, 0.5},
                              {1e9, 0.25}, {40, 0.0}};
    for (const auto &np : bins) {
        const int64_t n = (int64_t)np[0];
        const double p = np[1];
        v.push_back(D(fmt("binomial(%lld, %g)", (long long)n, p),
                      [=](ga__rstream &s) { return (double)ga__random_binomial(s, n, p); }, n * p, n * p * (1 - p), 0, n,
                      p > 0 && p < 1 && n > 0 ? fmt("stats.binom(%lld, %g)", (long long)n, p) : ""));
    }
    const double nbs[][2] = {{5, 0.3}, {0.5, 0.9}, {3, 1.0}, {1e3, 0.01}};
    for (const auto &np : nbs) {
        const double n = np[0], p = np[1];
        v.push_back(D(fmt("negative_binomial(%g, %g)", n, p),
                      [=](ga__rstream &s) { return (double)ga__random_negative_binomial(s, n, p); }, n * (1 - p) / p,
                      n * (1 - p) / (p * p), 0, INF, p < 1 ? fmt("stats.nbinom(%g, %g)", n, p) : ""));
    }
    for (double p : {1.0, 0.5, 0.34, 0.05, 1e-6})
        v.push_back(D(fmt("geometric(%g)", p), [=](ga__rstream &s) { return (double)ga__random_geometric(s, p); },
                      1 / p, (1 - p) / (p * p), 1, INF, p < 1 ? fmt("stats.geom(%g)", p) : ""));
    const int64_t hyp[][3] = {{5, 10, 7}, {100, 200, 150}, {1000, 20, 990}, {10, 0, 5}, {0, 10, 5},
                              {50, 50, 95}, {5000000, 3000000, 4000000}, {7, 12, 0}, {7, 12, 19}};
    for (const auto &h : hyp) {
        const int64_t g = h[0], b = h[1], n = h[2];
        const double tot = (double)(g + b), mean = n * g / tot;
        const double var = tot > 1 ? mean * (b / tot) * (tot - n) / (tot - 1) : 0;
        v.push_back(D(fmt("hypergeometric(%lld, %lld, %lld)", (long long)g, (long long)b, (long long)n),
                      [=](ga__rstream &s) { return (double)ga__random_hypergeometric(s, g, b, n); }, mean, var,
                      (double)std::max<int64_t>(0, n - b), (double)std::min(n, g),
                      var > 0 ? fmt("stats.hypergeom(%lld, %lld, %lld)", (long long)(g + b), (long long)g, (long long)n)
                              : ""));
    }
    for (double p : {0.0, 0.5, 0.9, 0.999}) {
        const double l = log1p(-p);
        const double mean = p > 0 ? -p / ((1 - p) * l) : 1;
        const double var = p > 0 ? -p * (p + l) / ((1 - p) * (1 - p) * l * l) : 0;
        v.push_back(D(fmt("logseries(%g)", p), [=](ga__rstream &s) { return (double)ga__random_logseries(s, p); },
                      mean, var, 1, INF, p > 0 ? fmt("stats.logser(%g)", p) : ""));
    }
    v.push_back(D("zipf(7)", [](ga__rstream &s) { return (double)ga__random_zipf(s, 7.0); }, zeta(6) / zeta(7),
                  zeta(5) / zeta(7) - zeta(6) * zeta(6) / (zeta(7) * zeta(7)), 1, INF, "stats.zipf(7)"));
    v.push_back(D("zipf(2.5)", [](ga__rstream &s) { return (double)ga__random_zipf(s, 2.5); }, zeta(1.5) / zeta(2.5),
                  nan_(), 1, INF, "stats.zipf(2.5)"));
    {
        const double p1 = 1 / zeta(1.5), p2 = (1 + pow(2.0, -1.1)) / zeta(1.1);
        v.push_back(D("zipf(1.5) == 1", [](ga__rstream &s) { return (double)ga__random_zipf(s, 1.5); }, p1,
                      p1 * (1 - p1), 1, INF, "", [](double x) { return x == 1 ? 1.0 : 0.0; }));
        v.push_back(D("zipf(1.1) <= 2", [](ga__rstream &s) { return (double)ga__random_zipf(s, 1.1); }, p2,
                      p2 * (1 - p2), 1, INF, "", [](double x) { return x <= 2 ? 1.0 : 0.0; }));
    }
    v.push_back(D("zipf(2000)", [](ga__rstream &s) { return (double)ga__random_zipf(s, 2000.0); }, 1, 0, 1, 1, ""));
    return v;
}

/* Each category of a multinomial or dirichlet draw as a case of its own
   (its marginal: binomial, beta). */
static std::vector<dist_case> multivariate_cases()
{
    std::vector<dist_case> v;
    const std::vector<std::vector<double>> pvs = {{0.2, 0.3, 0.5}, {0.0, 0.5, 0.5}, std::vector<double>(10, 0.1)};
    for (int64_t n : {(int64_t)100, (int64_t)1000, (int64_t)0}) {
        for (const auto &pv : pvs) {
            const int k = (int)pv.size();
            for (int j = 0; j < k; j += (k > 3 ? 4 : 1)) {
                const double p = pv[j];
                v.push_back(D(fmt("multinomial(%lld, %d pvals)[%d]", (long long)n, k, j),
                              [=](ga__rstream &s) {
                                  int64_t out[10];
                                  ga__random_multinomial(s, n, pv.data(), k, out);
                                  return (double)out[j];
                              },
                              n * p, n * p * (1 - p), 0, (double)n,
                              p > 0 && n > 0 ? fmt("stats.binom(%lld, %g)", (long long)n, p) : ""));
            }
        }
    }
    const std::vector<std::vector<double>> alphas = {{1, 2, 3}, {0.05, 0.08, 0.02}, {0.5, 0.05}, {0.09, 0, 0.03},
                                                     {0.1, 0.1}};
    for (const auto &al : alphas) {
        const int k = (int)al.size();
        double a0 = 0, most = 0;
        for (double a : al)
            a0 += a, most = std::max(most, a);
        for (int j = 0; j < k; j++) {
            const double a = al[j];
            /* NumPy's stick breaking for alphas below 0.1: category j > 0 is a
               product of 1 - v's, which resolve nothing below about 1e-16 */
            const char *wrap = most < 0.1 && j > 0 ? "remainder(%s)" : "%s";
            const std::string beta = fmt("stats.beta(%g, %g)", a, a0 - a);
            v.push_back(C(fmt("dirichlet(%d alphas from %g)[%d]", k, al[0], j),
                          [=](ga__rstream &s) {
                              double out[3];
                              ga__random_dirichlet(s, al.data(), k, out);
                              return out[j];
                          },
                          a / a0, a * (a0 - a) / (a0 * a0 * (a0 + 1)), 0, 1,
                          a > 0 ? fmt(wrap, beta.c_str()) : ""));
        }
    }
    return v;
}

/* ---- edge cases and sums ------------------------------------------------- */

TEST(multivariate_sums)
{
    const double pv[] = {0.1, 0.25, 0.3, 0.35};
    const double al[] = {0.5, 1.5, 0.01, 3};
    const double small[] = {0.05, 0.001, 0.09, 1e-5};
    for (uint64_t i = 0; i < 20000; i++) {
        ga__rstream s(KEY, LO, HI, i);
        int64_t out[4];
        ga__random_multinomial(s, (int64_t)(i % 97) * 31, pv, 4, out);
        CHECK(out[0] + out[1] + out[2] + out[3] == (int64_t)(i % 97) * 31 && out[0] >= 0 && out[1] >= 0 &&
                  out[2] >= 0 && out[3] >= 0,
              "multinomial %llu: %lld %lld %lld %lld", (unsigned long long)i, (long long)out[0], (long long)out[1],
              (long long)out[2], (long long)out[3]);
        double d[4];
        ga__random_dirichlet(s, i % 2 ? al : small, 4, d);
        CHECK(fabs(d[0] + d[1] + d[2] + d[3] - 1) < 1e-14 && d[0] >= 0 && d[1] >= 0 && d[2] >= 0 && d[3] >= 0,
              "dirichlet %llu: %g %g %g %g", (unsigned long long)i, d[0], d[1], d[2], d[3]);
    }
}

/* multivariate_hypergeometric, both methods, N rows a parameter set: each
   count is hypergeometric(colors[j], total - colors[j], nsample), and the
   first and last counts together hypergeometric(c0 + ck, total - c0 - ck,
   nsample), whose variance holds their exact covariance; each checked as
   a case of its own (mean and variance within 5 standard errors). */
TEST(mvhg_moments)
{
    struct mvhg_set {
        std::vector<int64_t> colors;
        int64_t nsample;
        bool count; /* small enough a sample for method='count' on the host */
    };
    const std::vector<mvhg_set> sets = {{{5, 10, 15}, 12, true},
                                        {{20, 30, 50, 100}, 60, true},
                                        {{20, 30, 50, 100}, 170, true},
                                        {{0, 7, 3}, 4, true},
                                        {{1000000, 2000000, 500}, 1500000, false},
                                        {{1000000, 2000000, 500}, 100, true},
                                        {{1000000, 2000000, 500}, 3000400, true},
                                        {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 30, true}};
    uint64_t index = 3000;
    for (int method = 0; method < 2; method++) {
        for (const mvhg_set &set : sets) {
            if (method == 1 && !set.count)
                continue;
            const int k = (int)set.colors.size();
            const int64_t n = set.nsample;
            int64_t total = 0;
            for (int64_t c : set.colors)
                total += c;
            std::vector<int64_t> rows((size_t)N * k);
            for (int i = 0; i < N; i++) {
                ga__rstream s(KEY, LO, HI + index, (uint64_t)i);
                if (method)
                    ga__random_mvhg_count(s, set.colors.data(), k, total, n, &rows[(size_t)i * k]);
                else
                    ga__random_mvhg_marginals(s, set.colors.data(), k, total, n, &rows[(size_t)i * k]);
            }
            index++;
            for (int j = 0; j <= k; j++) { /* j = k: the first and last together */
                const int first = j < k ? j : 0, last = j < k ? j : k - 1;
                const int64_t good = set.colors[first] + (first != last ? set.colors[last] : 0);
                const double N_ = (double)total, pg = (double)good / N_;
                std::vector<double> x(N);
                for (int i = 0; i < N; i++)
                    x[i] = (double)(rows[(size_t)i * k + first] + (first != last ? rows[(size_t)i * k + last] : 0));
                const dist_case c = {fmt("multivariate_hypergeometric(%d colors from %lld, %lld, %s)[%d%s]", k,
                                         (long long)set.colors[0], (long long)n, method ? "count" : "marginals",
                                         first, first != last ? "+last" : ""),
                                     nullptr, n * pg, n * pg * (1 - pg) * (N_ - n) / (N_ - 1), 0,
                                     (double)(good < n ? good : n), true, "", nullptr};
                check_case(c, x);
            }
        }
    }
}

/* multivariate_hypergeometric's rows: nsample in all, each count within
   its color, for both methods, every nsample from 0 to the total. */
TEST(mvhg_sums_and_bounds)
{
    const int64_t colors[] = {3, 0, 11, 1, 25, 7};
    const int64_t k = COUNT(colors), total = 47;
    for (uint64_t i = 0; i < 20000; i++) {
        ga__rstream s(KEY, LO, HI, i);
        const int64_t n = (int64_t)(i % (total + 1));
        for (int method = 0; method < 2; method++) {
            int64_t out[COUNT(colors)], sum = 0;
            bool inside = true;
            if (method)
                ga__random_mvhg_count(s, colors, k, total, n, out);
            else
                ga__random_mvhg_marginals(s, colors, k, total, n, out);
            for (int64_t j = 0; j < k; j++)
                sum += out[j], inside = inside && out[j] >= 0 && out[j] <= colors[j];
            CHECK(sum == n && inside, "%s %llu (nsample %lld): %lld %lld %lld %lld %lld %lld",
                  method ? "count" : "marginals", (unsigned long long)i, (long long)n, (long long)out[0],
                  (long long)out[1], (long long)out[2], (long long)out[3], (long long)out[4], (long long)out[5]);
        }
    }
}

/* The Fenwick tree of method='count' picks the item a linear scan of the
   remaining counts picks, and gives the counts back; the method takes
   NumPy's words (one random_interval(total - t - 1) a draw) and, for one
   item, NumPy's item (item r of the array of colors in order). */
TEST(mvhg_count_is_numpys_draw)
{
    std::vector<int64_t> left = {4, 0, 9, 1, 0, 0, 13, 2, 6, 0, 5}, tree = left;
    const int64_t k = (int64_t)left.size();
    int64_t items = 0, top = 1;
    for (int64_t c : left)
        items += c;
    while (top <= k / 2)
        top <<= 1;
    ga__fenwick_build(tree.data(), k);
    ga__rstream s(KEY, LO, HI, 11);
    for (; items > 0; items--) {
        const int64_t r = ga__random_interval(s, (uint64_t)(items - 1));
        int64_t scan = 0, below = left[0];
        while (below <= r)
            below += left[++scan];
        const int64_t got = ga__fenwick_take(tree.data(), k, top, r);
        CHECK(got == scan, "item %lld of %lld: the tree's color %lld, the scan's %lld", (long long)r, (long long)items,
              (long long)got, (long long)scan);
        left[scan]--;
        std::vector<int64_t> back = tree;
        ga__fenwick_unbuild(back.data(), k);
        CHECK(back == left, "the tree gives the counts back after %lld items", (long long)items);
    }
    const int64_t colors[] = {5, 0, 8, 3}, total = 16;
    for (uint64_t i = 0; i < 2000; i++) {
        const int64_t n = (int64_t)(i % 17), m = n > total / 2 ? total - n : n;
        ga__rstream a(KEY, LO, HI, i), b(KEY, LO, HI, i);
        int64_t out[4];
        ga__random_mvhg_count(a, colors, 4, total, n, out);
        int64_t first = -1;
        for (int64_t t = 0; t < m; t++) {
            const int64_t r = ga__random_interval(b, (uint64_t)(total - t - 1));
            if (t == 0)
                first = r < 5 ? 0 : r < 13 ? 2 : 3;
        }
        CHECK(a.next32() == b.next32(), "count with nsample %lld takes %lld intervals", (long long)n, (long long)m);
        if (n == 1)
            CHECK(out[first] == 1, "count of one item: NumPy's color %lld", (long long)first);
    }
}

TEST(edge_cases)
{
    ga__rstream s(KEY, LO, HI, 0);
    {
        ga__rstream a(KEY, LO, HI, 5), b(KEY, LO, HI, 5);
        CHECK(ga__random_standard_gamma(a, 1.0) == b.exponential64(), "standard_gamma(1) is the exponential");
        CHECK(ga__random_standard_gamma_f(a, 1.0f) == b.exponential32(), "standard_gamma_f(1) is the exponential");
    }
    CHECK(ga__random_standard_gamma(s, 0.0) == 0.0 && ga__random_standard_gamma_f(s, 0.0f) == 0.0f, "shape 0");
    CHECK(std::isnan(ga__random_standard_gamma(s, nan_())), "standard_gamma(NaN) is NaN");
    CHECK(std::isinf(ga__random_standard_gamma(s, INF)), "standard_gamma(inf) is inf");
    CHECK(ga__random_beta(s, 0.0, 0.5) == 0.0 && ga__random_beta(s, 0.5, 0.0) == 1.0, "beta with a 0 (dirichlet's)");
    CHECK(std::isnan(ga__random_noncentral_chisquare(s, 3.0, nan_())), "noncentral_chisquare(df, NaN) is NaN");
    CHECK(std::isnan(ga__random_vonmises(s, 0.0, nan_())), "vonmises(mu, NaN) is NaN");
    CHECK(ga__random_poisson(s, 0.0) == 0 && ga__random_poisson(s, nan_()) == -1, "poisson(0), poisson(NaN)");
    CHECK(ga__random_binomial(s, 0, 0.5) == 0 && ga__random_binomial(s, 17, 0.0) == 0 &&
              ga__random_binomial(s, 17, 1.0) == 17,
          "binomial's ends");
    CHECK(ga__random_negative_binomial(s, 4.0, 1.0) == 0, "negative_binomial(n, 1) is 0");
    CHECK(ga__random_geometric(s, 1.0) == 1, "geometric(1) is 1");
    CHECK(ga__random_geometric(s, 1e-300) > 1000000, "geometric(1e-300) is large");
    CHECK(ga__random_hypergeometric(s, 10, 0, 5) == 5 && ga__random_hypergeometric(s, 0, 10, 5) == 0 &&
              ga__random_hypergeometric(s, 7, 12, 0) == 0 && ga__random_hypergeometric(s, 7, 12, 19) == 7,
          "hypergeometric's ends");
    CHECK(ga__random_logseries(s, 0.0) == 1, "logseries(0) is 1");
    CHECK(ga__random_zipf(s, 1025.0) == 1, "zipf(1025) is 1");
    CHECK(ga__inv_weibull(0.7, 0.0) == 0.0, "weibull(0) is 0");
    CHECK(ga__inv_triangular(0.0, 0.0, 0.0, 1.0) == 0.0 && ga__inv_triangular(0.999, 0.0, 1.0, 1.0) < 1.0,
          "triangular with the mode at an end");
    CHECK(ga__inv_laplace(0.5, 1.0, 2.0) == 1.0, "laplace's median is loc");
    double d[3];
    const double zeros[] = {0, 0, 0}, one[] = {0, 0.05, 0};
    ga__random_dirichlet(s, zeros, 3, d);
    CHECK(d[0] == 0 && d[1] == 0 && d[2] == 0, "dirichlet of zeros is zeros (NumPy's)");
    ga__random_dirichlet(s, one, 3, d);
    CHECK(d[0] == 0 && d[1] == 1 && d[2] == 0, "dirichlet([0, 0.05, 0]) is [0, 1, 0]");
    const double nanal[] = {nan_(), 1};
    ga__random_dirichlet(s, nanal, 2, d);
    CHECK(std::isnan(d[0]) && std::isnan(d[1]), "dirichlet with a NaN alpha is NaN");
    int64_t m[3];
    const double pz[] = {0.5, 0.5, 0.0};
    ga__random_multinomial(s, 1000, pz, 3, m);
    CHECK(m[2] == 0 && m[0] + m[1] == 1000, "multinomial's last category of probability 0");
    const int64_t colors[] = {4, 0, 6}, single[] = {9}, none[] = {0, 0};
    int64_t h[3];
    for (int method = 0; method < 2; method++) {
        auto mvhg = [&](const int64_t *c, int64_t k, int64_t total, int64_t n) {
            if (method)
                ga__random_mvhg_count(s, c, k, total, n, h);
            else
                ga__random_mvhg_marginals(s, c, k, total, n, h);
        };
        const char *name = method ? "count" : "marginals";
        mvhg(colors, 3, 10, 0);
        CHECK(h[0] == 0 && h[1] == 0 && h[2] == 0, "%s: nsample 0 is zeros", name);
        mvhg(colors, 3, 10, 10);
        CHECK(h[0] == 4 && h[1] == 0 && h[2] == 6, "%s: nsample = sum(colors) is colors", name);
        mvhg(single, 1, 9, 5);
        CHECK(h[0] == 5, "%s: one color gets the whole sample", name);
        mvhg(none, 2, 0, 0);
        CHECK(h[0] == 0 && h[1] == 0, "%s: colors of 0 are zeros", name);
        mvhg(colors, 3, 10, 7);
        CHECK(h[1] == 0 && h[0] + h[2] == 7 && h[0] >= 1, "%s: a color of 0 is never drawn", name);
    }
}

/* Parameters outside the valid domain end: the capped loops give NaN or -1. */
TEST(bad_parameters_end)
{
    ga__rstream s(KEY, LO, HI, 3);
    CHECK(ga__random_zipf(s, 1.0) == -1, "zipf(1) ends with -1");
    CHECK(ga__random_zipf(s, nan_()) == -1, "zipf(NaN) ends with -1");
    CHECK(ga__random_logseries(s, 1.0) == -1, "logseries(1) ends with -1");
    CHECK(ga__random_poisson(s, INF) == -1, "poisson(inf) ends with -1");
    CHECK(std::isnan(ga__random_beta(s, -1.0, 0.5)), "beta(-1, 0.5) ends with NaN");
    CHECK(ga__random_negative_binomial(s, 1.0, 0.0) == -1, "negative_binomial(1, 0) ends with -1");
}

/* ---- main ----------------------------------------------------------------- */

/* --dump DIR: each case's raw samples as DIR/<k>.f64 (native doubles) and a
   line "k<TAB>d|c<TAB>scipy<TAB>name" in DIR/manifest.tsv. */
static int dump(const char *dir)
{
    const std::string manifest = std::string(dir) + "/manifest.tsv";
    FILE *m = fopen(manifest.c_str(), "w");
    if (!m)
        return perror(manifest.c_str()), 1;
    const std::vector<dist_case> groups[3] = {continuous_cases(), discrete_cases(), multivariate_cases()};
    int k = 0;
    for (int g = 0; g < 3; g++) {
        for (size_t i = 0; i < groups[g].size(); i++) {
            const dist_case &c = groups[g][i];
            if (c.scipy.empty())
                continue;
            const std::vector<double> x = sample(c, 1000 * (uint64_t)g + i);
            const std::string path = fmt("%s/%d.f64", dir, k);
            FILE *f = fopen(path.c_str(), "wb");
            if (!f || fwrite(x.data(), sizeof(double), x.size(), f) != x.size())
                return perror(path.c_str()), 1;
            fclose(f);
            fprintf(m, "%d\t%c\t%s\t%s\n", k++, c.integer ? 'd' : 'c', c.scipy.c_str(), c.name.c_str());
        }
    }
    fclose(m);
    printf("%d cases in %s\n", k, dir);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--dump") == 0) {
        if (argc > 3)
            KEY = strtoull(argv[3], nullptr, 0);
        return dump(argv[2]);
    }
    const char *filter = argc > 1 ? argv[1] : nullptr;
    int passed = 0, failed = 0;
    for (const test_entry &t : tests()) {
        if (filter && !strstr(t.name, filter))
            continue;
        test_failures = 0;
        t.run();
        if (test_failures) {
            printf("FAIL %s (%d failed checks)\n", t.name, test_failures);
            failed++;
        } else {
            printf("ok   %s\n", t.name);
            passed++;
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
