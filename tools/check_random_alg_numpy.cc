/* tools/check_random_alg_numpy.cc - an optional check, never part of the
   build: kernels/random_dists.cuh's algorithms against NumPy's own C code
   (the static library libnpyrandom.a that numpy's wheels ship, with
   distributions.c compiled in) on the same words.

   Each sample i runs twice on two copies of element i's ga__rstream: once
   through NumPy's function, whose bitgen_t takes next_double, next_uint32
   and next_uint64 from the stream, and once through gpuarr's template over
   a stream type whose uniforms are the same and whose normals and
   exponentials are NumPy's ziggurats on that bitgen. The two must give the
   same value from the same words, and leave the streams at the same word.
   Differences that are expected and counted apart:
     - log(k!) is lgamma here, NumPy's table and Stirling series there
       (poisson, binomial's BTPE, hypergeometric): a near tie in an
       acceptance test could go the other way (never seen so far);
     - wald's X is computed without cancellation (NumPy's is off by
       up to 2e-8 relative at mean / scale = 1000);
     - NumPy draws again where laplace, logistic and gumbel meet u = 0.

   Build and run (numpy installed):
     NP=$(python3 -c 'import numpy, os; print(os.path.dirname(numpy.__file__))')
     g++ -std=c++17 -O2 -I. -I$NP/_core/include -o /tmp/check_alg \
         tools/check_random_alg_numpy.cc $NP/random/lib/libnpyrandom.a -lm
     /tmp/check_alg [samples per case, default 100000]
   The last line is "N passed, N failed" (cases). */

#include "kernels/random_dists.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "numpy/random/bitgen.h"

extern "C" {
/* numpy/random/distributions.h, without its Python.h */
typedef struct np_binomial_t {
    int has_binomial;
    double psave;
    int64_t nsave;
    double r, q, fm;
    int64_t m;
    double p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
} np_binomial_t;
double random_standard_normal(bitgen_t *);
float random_standard_normal_f(bitgen_t *);
double random_standard_exponential(bitgen_t *);
float random_standard_exponential_f(bitgen_t *);
float random_standard_uniform_f(bitgen_t *);
double random_standard_gamma(bitgen_t *, double);
float random_standard_gamma_f(bitgen_t *, float);
double random_gamma(bitgen_t *, double, double);
float random_gamma_f(bitgen_t *, float, float);
double random_beta(bitgen_t *, double, double);
double random_chisquare(bitgen_t *, double);
double random_f(bitgen_t *, double, double);
double random_standard_cauchy(bitgen_t *);
double random_laplace(bitgen_t *, double, double);
double random_gumbel(bitgen_t *, double, double);
double random_logistic(bitgen_t *, double, double);
double random_lognormal(bitgen_t *, double, double);
double random_standard_t(bitgen_t *, double);
double random_noncentral_chisquare(bitgen_t *, double, double);
double random_noncentral_f(bitgen_t *, double, double, double);
double random_wald(bitgen_t *, double, double);
double random_vonmises(bitgen_t *, double, double);
double random_triangular(bitgen_t *, double, double, double);
double random_uniform(bitgen_t *, double, double);
int64_t random_poisson(bitgen_t *, double);
int64_t random_negative_binomial(bitgen_t *, double, double);
int64_t random_binomial(bitgen_t *, double, int64_t, np_binomial_t *);
int64_t random_logseries(bitgen_t *, double);
int64_t random_geometric(bitgen_t *, double);
int64_t random_zipf(bitgen_t *, double);
int64_t random_hypergeometric(bitgen_t *, int64_t, int64_t, int64_t);
void random_multinomial(bitgen_t *, int64_t, int64_t *, double *, intptr_t, np_binomial_t *);
}

/* ---- a bitgen_t over a ga__rstream ------------------------------------- */

static uint64_t bg_next64(void *st) { return ((ga__rstream *)st)->next64(); }
static uint32_t bg_next32(void *st) { return ((ga__rstream *)st)->next32(); }
static double bg_double(void *st) { return ((ga__rstream *)st)->uniform64(); }

static bitgen_t bitgen_of(ga__rstream *s)
{
    bitgen_t b;
    b.state = s;
    b.next_uint64 = bg_next64;
    b.next_uint32 = bg_next32;
    b.next_double = bg_double;
    b.next_raw = bg_next64;
    return b;
}

/* The stream random_dists.cuh sees: the element's words, with NumPy's
   normals and exponentials (ziggurats) on them. */
struct numpy_stream {
    ga__rstream s;
    bitgen_t bg;
    explicit numpy_stream(const ga__rstream &from) : s(from), bg(bitgen_of(&s)) {}
    numpy_stream(const numpy_stream &) = delete;
    uint32_t next32() { return s.next32(); }
    uint64_t next64() { return s.next64(); }
    double uniform64() { return s.uniform64(); }
    float uniform32() { return random_standard_uniform_f(&bg); }
    double normal64() { return random_standard_normal(&bg); }
    float normal32() { return random_standard_normal_f(&bg); }
    double exponential64() { return random_standard_exponential(&bg); }
    float exponential32() { return random_standard_exponential_f(&bg); }
};

/* ---- cases -------------------------------------------------------------- */

struct check_case {
    std::string name;
    std::function<double(numpy_stream &)> ours;
    std::function<double(bitgen_t *)> numpy;
    double tolerance; /* relative; 0: the same double */
};

static bool same_position(const ga__rstream &a, const ga__rstream &b)
{
    return a.block == b.block && a.left == b.left;
}

static int run_case(const check_case &c, int n)
{
    int differ = 0, position = 0;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        const ga__rstream start(0x0123456789ABCDEFull, 0xFFFFFFFFFFFF0000ull, 0x00000000DEADBEEFull, (uint64_t)i);
        numpy_stream ours(start);
        ga__rstream theirs = start;
        bitgen_t bg = bitgen_of(&theirs);
        const double a = c.ours(ours), b = c.numpy(&bg);
        if (!same_position(ours.s, theirs))
            position++;
        if (a == b || (a != a && b != b))
            continue;
        const double rel = fabs(a - b) / fmax(fabs(b), 1e-300);
        if (rel > worst)
            worst = rel;
        if (rel > c.tolerance) {
            if (differ < 3)
                printf("    %s sample %d: ours %.17g, NumPy's %.17g\n", c.name.c_str(), i, a, b);
            differ++;
        }
    }
    const bool ok = differ == 0 && position == 0;
    printf("%s %s: %d of %d differ%s, %d end at another word, largest relative difference %.3g\n",
           ok ? "ok  " : "FAIL", c.name.c_str(), differ, n, c.tolerance ? " past the tolerance" : "", position, worst);
    return ok;
}

static std::vector<check_case> cases()
{
    std::vector<check_case> v;
    auto add = [&](std::string name, std::function<double(numpy_stream &)> ours,
                   std::function<double(bitgen_t *)> numpy, double tol = 0) {
        v.push_back({name, ours, numpy, tol});
    };
    for (double k : {0.0, 0.3, 1.0, 1e-3, 2.5, 1e4}) {
        add("standard_gamma(" + std::to_string(k) + ")", [=](numpy_stream &s) { return ga__random_standard_gamma(s, k); },
            [=](bitgen_t *b) { return random_standard_gamma(b, k); });
        add("standard_gamma_f(" + std::to_string(k) + ")",
            [=](numpy_stream &s) { return (double)ga__random_standard_gamma_f(s, (float)k); },
            [=](bitgen_t *b) { return (double)random_standard_gamma_f(b, (float)k); });
    }
    add("gamma(2, 3)", [](numpy_stream &s) { return ga__random_gamma(s, 2.0, 3.0); },
        [](bitgen_t *b) { return random_gamma(b, 2.0, 3.0); });
    add("gamma_f(0.5, 3)", [](numpy_stream &s) { return (double)ga__random_gamma_f(s, 0.5f, 3.0f); },
        [](bitgen_t *b) { return (double)random_gamma_f(b, 0.5f, 3.0f); });
    for (auto ab : {std::pair<double, double>{0.5, 0.5}, {1e-3, 1e-3}, {0.2, 1.0}, {2.0, 5.0}, {0.5, 3.0},
                    {1e-300, 1e-300}}) {
        const double a = ab.first, bb = ab.second;
        add("beta(" + std::to_string(a) + ", " + std::to_string(bb) + ")",
            [=](numpy_stream &s) { return ga__random_beta(s, a, bb); },
            [=](bitgen_t *b) { return random_beta(b, a, bb); });
    }
    add("chisquare(3)", [](numpy_stream &s) { return ga__random_chisquare(s, 3.0); },
        [](bitgen_t *b) { return random_chisquare(b, 3.0); });
    add("f(5, 10)", [](numpy_stream &s) { return ga__random_f(s, 5.0, 10.0); },
        [](bitgen_t *b) { return random_f(b, 5.0, 10.0); });
    add("standard_t(3)", [](numpy_stream &s) { return ga__random_standard_t(s, 3.0); },
        [](bitgen_t *b) { return random_standard_t(b, 3.0); });
    add("standard_cauchy()", [](numpy_stream &s) { return ga__random_standard_cauchy(s); },
        [](bitgen_t *b) { return random_standard_cauchy(b); });
    add("lognormal(1, 0.5)", [](numpy_stream &s) { return ga__random_lognormal(s, 1.0, 0.5); },
        [](bitgen_t *b) { return random_lognormal(b, 1.0, 0.5); });
    for (auto ms : {std::pair<double, double>{1.0, 1.0}, {3.0, 0.5}, {1e3, 1.0}}) {
        const double m = ms.first, sc = ms.second;
        add("wald(" + std::to_string(m) + ", " + std::to_string(sc) + ")",
            [=](numpy_stream &s) { return ga__random_wald(s, m, sc); },
            [=](bitgen_t *b) { return random_wald(b, m, sc); }, 1e-7);
    }
    for (double k : {1e-9, 1e-6, 0.5, 4.0, 1e5, 1e7}) {
        add("vonmises(2.5, " + std::to_string(k) + ")", [=](numpy_stream &s) { return ga__random_vonmises(s, 2.5, k); },
            [=](bitgen_t *b) { return random_vonmises(b, 2.5, k); });
    }
    for (double nonc : {0.0, 2.0}) {
        for (double df : {0.5, 3.0}) {
            add("noncentral_chisquare(" + std::to_string(df) + ", " + std::to_string(nonc) + ")",
                [=](numpy_stream &s) { return ga__random_noncentral_chisquare(s, df, nonc); },
                [=](bitgen_t *b) { return random_noncentral_chisquare(b, df, nonc); });
        }
    }
    add("noncentral_f(3, 20, 2)", [](numpy_stream &s) { return ga__random_noncentral_f(s, 3.0, 20.0, 2.0); },
        [](bitgen_t *b) { return random_noncentral_f(b, 3.0, 20.0, 2.0); });
    for (double lam : {0.0, 3.5, 10.0, 1e4, 1e12}) {
        add("poisson(" + std::to_string(lam) + ")", [=](numpy_stream &s) { return (double)ga__random_poisson(s, lam); },
            [=](bitgen_t *b) { return (double)random_poisson(b, lam); });
    }
    for (auto np : {std::pair<int64_t, double>{10, 0.3}, {100, 0.3}, {1000, 0.4}, {1000, 0.9}, {20, 1.0}, {0, 0.5},
                    {100, 0.7}, {1000000000, 0.25}}) {
        const int64_t n = np.first;
        const double p = np.second;
        add("binomial(" + std::to_string(n) + ", " + std::to_string(p) + ")",
            [=](numpy_stream &s) { return (double)ga__random_binomial(s, n, p); },
            [=](bitgen_t *b) {
                np_binomial_t bin;
                memset(&bin, 0, sizeof bin);
                return (double)random_binomial(b, p, n, &bin);
            });
    }
    for (auto np : {std::pair<double, double>{5.0, 0.3}, {0.5, 0.9}, {3.0, 1.0}}) {
        const double n = np.first, p = np.second;
        add("negative_binomial(" + std::to_string(n) + ", " + std::to_string(p) + ")",
            [=](numpy_stream &s) { return (double)ga__random_negative_binomial(s, n, p); },
            [=](bitgen_t *b) { return (double)random_negative_binomial(b, n, p); });
    }
    for (double p : {1.0, 0.5, 0.34, 0.05, 1e-9}) {
        add("geometric(" + std::to_string(p) + ")", [=](numpy_stream &s) { return (double)ga__random_geometric(s, p); },
            [=](bitgen_t *b) { return (double)random_geometric(b, p); });
    }
    const int64_t hyper[][3] = {{5, 10, 7}, {100, 200, 150}, {1000, 20, 990}, {10, 0, 5}, {0, 10, 5}, {50, 50, 95},
                                {5000000, 3000000, 4000000}, {3, 4, 0}};
    for (const auto &h : hyper) {
        const int64_t g = h[0], bd = h[1], smp = h[2];
        add("hypergeometric(" + std::to_string(g) + ", " + std::to_string(bd) + ", " + std::to_string(smp) + ")",
            [=](numpy_stream &s) { return (double)ga__random_hypergeometric(s, g, bd, smp); },
            [=](bitgen_t *b) { return (double)random_hypergeometric(b, g, bd, smp); });
    }
    for (double p : {0.0, 0.5, 0.9, 0.999999}) {
        add("logseries(" + std::to_string(p) + ")", [=](numpy_stream &s) { return (double)ga__random_logseries(s, p); },
            [=](bitgen_t *b) { return (double)random_logseries(b, p); });
    }
    for (double a : {1.1, 1.5, 2.0, 7.0, 2000.0}) {
        add("zipf(" + std::to_string(a) + ")", [=](numpy_stream &s) { return (double)ga__random_zipf(s, a); },
            [=](bitgen_t *b) { return (double)random_zipf(b, a); });
    }
    /* the multinomial's categories as one number each, in turn */
    const std::vector<double> pv = {0.1, 0.2, 0.3, 0.4};
    for (int64_t n : {(int64_t)0, (int64_t)10, (int64_t)1000}) {
        for (int j = 0; j < 4; j++) {
            add("multinomial(" + std::to_string(n) + ", [.1 .2 .3 .4])[" + std::to_string(j) + "]",
                [=](numpy_stream &s) {
                    int64_t out[4];
                    ga__random_multinomial(s, n, pv.data(), 4, out);
                    return (double)out[j];
                },
                [=](bitgen_t *b) {
                    int64_t out[4] = {0, 0, 0, 0};
                    np_binomial_t bin;
                    memset(&bin, 0, sizeof bin);
                    std::vector<double> p = pv;
                    random_multinomial(b, n, out, p.data(), 4, &bin);
                    return (double)out[j];
                });
        }
    }
    /* one uniform: NumPy's functions on the same u (they draw again at 0) */
    add("laplace(1, 2)", [](numpy_stream &s) { return ga__inv_laplace(s.uniform64(), 1.0, 2.0); },
        [](bitgen_t *b) { return random_laplace(b, 1.0, 2.0); });
    add("logistic(1, 2)", [](numpy_stream &s) { return ga__inv_logistic(s.uniform64(), 1.0, 2.0); },
        [](bitgen_t *b) { return random_logistic(b, 1.0, 2.0); });
    add("gumbel(1, 2)", [](numpy_stream &s) { return ga__inv_gumbel(s.uniform64(), 1.0, 2.0); },
        [](bitgen_t *b) { return random_gumbel(b, 1.0, 2.0); }, 1e-6);
    add("triangular(0, 1, 3)", [](numpy_stream &s) { return ga__inv_triangular(s.uniform64(), 0.0, 1.0, 3.0); },
        [](bitgen_t *b) { return random_triangular(b, 0.0, 1.0, 3.0); });
    add("uniform(-1, 3)", [](numpy_stream &s) { return ga__inv_uniform(s.uniform64(), -1.0, 3.0); },
        [](bitgen_t *b) { return random_uniform(b, -1.0, 4.0); });
    return v;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 100000;
    int passed = 0, failed = 0;
    for (const check_case &c : cases())
        run_case(c, n) ? passed++ : failed++;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
