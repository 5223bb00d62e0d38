/* kernels/random_dists.cuh - the sampling algorithms of
   numpy.random.Generator's distributions, written once for the device
   (nvcc) and the host (any C++17 compiler, no CUDA headers): NumPy's
   algorithms (numpy/random/src/distributions/distributions.c), with its
   parameterisations and edge cases, over gpuarr's uniforms, normals and
   exponentials.

     1. one uniform a value (inversion): exponential, uniform, laplace,
        logistic, gumbel, weibull, pareto, power, rayleigh, triangular
     2. the gamma family: standard_gamma (double and float), gamma,
        chisquare, beta, f, standard_t
     3. from normals: standard_cauchy, lognormal, wald, vonmises
     4. discrete: poisson, binomial, negative_binomial, geometric,
        hypergeometric, logseries, zipf
     5. noncentral_chisquare, noncentral_f (gammas and a poisson)
     6. multivariate: multinomial, dirichlet, multivariate_hypergeometric

   The stream. The functions of sections 2 to 6 take `S &s`, any type with
   the methods of ga__rstream (random_philox.cuh): next32(), next64(),
   uniform64() in [0, 1) (where NumPy takes next_double), uniform32()
   (next_float),
   normal64(), normal32(), exponential64(), exponential32(). The device
   passes the element's ga__rstream; a host test may pass its own. The
   values are NumPy's algorithms' values for those draws, but gpuarr's
   normals and exponentials are inversions (random_philox.cuh), not
   NumPy's ziggurats: the same distributions, other values.

   Parameters. Each function's comment gives its valid domain with NumPy's
   error words (Generator's ValueError messages), which the host checks
   before a launch; outside it a function returns something but nothing
   is promised. Every loop that could run long is capped at
   GA__RANDOM_MAX_TRIES tries, past which a continuous function returns
   NaN and a discrete one -1, so that a device never hangs on bad
   parameters. In the valid domain a value takes a few tries (near the
   domain's edges, zipf(1.0001), hypergeometric near 10**9, poisson near
   its limit, 100000 values took at most 172 words each), so the cap is
   never met there.

   The algorithms are NumPy's (numpy/random/src/distributions/distributions.c
   and Generator.dirichlet of NumPy 2.4); tools/check_random_alg_numpy.cc
   checks that they give NumPy's values from the same words. The
   differences: log(k!) is lgamma's; wald's X is computed without NumPy's
   cancellation (section 3); values that NumPy would cast to an integer
   from NaN, an infinity or past 2^63 (undefined in C) are rejected
   before the cast; geometric's search stops where its sum stops growing
   (NumPy's would loop for ever there). */

#ifndef GA_KERNELS_RANDOM_DISTS_CUH
#define GA_KERNELS_RANDOM_DISTS_CUH

#include "random_philox.cuh"

#define GA__RANDOM_MAX_TRIES (1 << 20)
#define GA__RANDOM_PI 3.141592653589793238462643383279502884
#define GA__RANDOM_INT64_MAX_DOUBLE 9.223372036854775808e18 /* 2^63, the least double above INT64_MAX */

/* ======================================================================== */
/* 1. One uniform a value                                                    */
/* ======================================================================== */
/* u is a uniform in [0, 1) (ga__rstream::uniform64, NumPy's next_double),
   except for laplace, logistic and gumbel, which want u in (0, 1)
   (uniform64_open): at u = 0 they give an infinity where NumPy draws
   again. NumPy's standard exponential E (a ziggurat there) is the
   inversion -log1p(-u) here, NumPy's standard_exponential(method='inv'). */

/* standard_exponential: -log1p(-u), as -log(1 - u): u is a multiple of
   2^-53, so 1 - u is exact, and log is the cheaper (standard_exponential
   float64 took a quarter less time). */
GA_HD inline double ga__inv_standard_exponential(double u) { return -log(1.0 - u); }

/* exponential(scale): scale E. Valid: scale >= 0 ("scale < 0"). */
GA_HD inline double ga__inv_exponential(double u, double scale) { return scale * ga__inv_standard_exponential(u); }

/* uniform(low, high): low + (high - low) u (high < low allowed). Valid:
   high - low finite ("high - low range exceeds valid bounds", an
   OverflowError in NumPy). */
GA_HD inline double ga__inv_uniform(double u, double low, double high) { return low + (high - low) * u; }

/* laplace(loc, scale): loc - scale log(2 - 2u) for u >= 1/2, loc + scale
   log(2u) below; u in (0, 1). Valid: scale >= 0 ("scale < 0"). */
GA_HD inline double ga__inv_laplace(double u, double loc, double scale)
{
    return u >= 0.5 ? loc - scale * log(2.0 - u - u) : loc + scale * log(u + u);
}

/* logistic(loc, scale): loc + scale log(u / (1 - u)); u in (0, 1).
   Valid: scale >= 0 ("scale < 0"). */
GA_HD inline double ga__inv_logistic(double u, double loc, double scale)
{
    return loc + scale * log(u / (1.0 - u));
}

/* gumbel(loc, scale): loc - scale log(-log(U)) with NumPy's U = 1 - u,
   -log(1 - u) taken as -log1p(-u); u in (0, 1). Valid: scale >= 0
   ("scale < 0"). */
GA_HD inline double ga__inv_gumbel(double u, double loc, double scale)
{
    return loc - scale * log(-log1p(-u));
}

/* weibull(a): E^(1/a); a = 0 gives 0, as NumPy. Valid: a >= 0 ("a < 0"). */
GA_HD inline double ga__inv_weibull(double u, double a)
{
    return a == 0.0 ? 0.0 : pow(ga__inv_standard_exponential(u), 1.0 / a);
}

/* pareto(a) (Lomax, NumPy's): expm1(E / a). Valid: a > 0 ("a <= 0"). */
GA_HD inline double ga__inv_pareto(double u, double a) { return expm1(ga__inv_standard_exponential(u) / a); }

/* power(a): NumPy's (-expm1(-E))^(1/a), where -expm1(-E) = u. Valid: a > 0
   ("a <= 0"). */
GA_HD inline double ga__inv_power(double u, double a) { return pow(u, 1.0 / a); }

/* rayleigh(scale): scale sqrt(2E). Valid: scale >= 0 ("scale < 0"). */
GA_HD inline double ga__inv_rayleigh(double u, double scale)
{
    return scale * sqrt(2.0 * ga__inv_standard_exponential(u));
}

/* triangular(left, mode, right): left + sqrt(u (mode - left)(right - left))
   for u <= (mode - left) / (right - left), right - sqrt((1 - u)(right -
   mode)(right - left)) above. Valid: left <= mode ("left > mode"), mode <=
   right ("mode > right"), left < right ("left == right"). */
GA_HD inline double ga__inv_triangular(double u, double left, double mode, double right)
{
    const double base = right - left, leftbase = mode - left;
    if (u <= leftbase / base)
        return left + sqrt(u * leftbase * base);
    return right - sqrt((1.0 - u) * (right - mode) * base);
}

/* ======================================================================== */
/* 2. The gamma family                                                       */
/* ======================================================================== */

/* The draws of precision F from a stream (uniform, normal, exponential):
   the float64 forms take two words a value, the float32 ones one. */
template <class F> struct ga__draws;
template <> struct ga__draws<double> {
    template <class S> GA_HD static double uniform(S &s) { return s.uniform64(); }
    template <class S> GA_HD static double normal(S &s) { return s.normal64(); }
    template <class S> GA_HD static double exponential(S &s) { return s.exponential64(); }
};
template <> struct ga__draws<float> {
    template <class S> GA_HD static float uniform(S &s) { return s.uniform32(); }
    template <class S> GA_HD static float normal(S &s) { return s.normal32(); }
    template <class S> GA_HD static float exponential(S &s) { return s.exponential32(); }
};

/* Marsaglia and Tsang, "A simple method for generating gamma variables",
   ACM TOMS 26 (2000) 363-372: d (1 + c X)^3 for a normal X, squeezed, then
   tested in logs. shape >= 1 (shape = 1 is taken by the exponential). In
   F throughout (standard_gamma(dtype=float32) computes in float). */
template <class F, class S> GA_HD F ga__standard_gamma_mt(S &s, F shape)
{
    const F b = shape - F(1) / F(3), c = F(1) / sqrt(F(9) * b);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const F x = ga__draws<F>::normal(s);
        F v = F(1) + c * x;
        if (v <= F(0))
            continue;
        v = v * v * v;
        const F u = ga__draws<F>::uniform(s);
        if (u < F(1) - F(0.0331) * (x * x) * (x * x))
            return b * v;
        if (log(u) < F(0.5) * x * x + b * (F(1) - v + log(v)))
            return b * v;
    }
    return F(NAN);
}

/* shape < 1, NumPy's rejection from the mixture of U^(1/shape) (U <= 1 -
   shape) and a transformed exponential, against an exponential (after
   Devroye, Non-Uniform Random Variate Generation, 1986, IX.6). */
template <class F, class S> GA_HD F ga__standard_gamma_small(S &s, F shape)
{
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const F u = ga__draws<F>::uniform(s), v = ga__draws<F>::exponential(s);
        if (u <= F(1) - shape) {
            const F x = pow(u, F(1) / shape);
            if (x <= v)
                return x;
        } else {
            const F y = -log((F(1) - u) / shape);
            const F x = pow(F(1) - shape + shape * y, F(1) / shape);
            if (x <= v + y)
                return x;
        }
    }
    return F(NAN);
}

/* standard_gamma(shape) in F: 0 for shape 0, an exponential for 1, below 1
   ga__standard_gamma_small, above Marsaglia-Tsang; NaN for NaN. Valid:
   shape >= 0 ("shape < 0"). */
template <class F, class S> GA_HD F ga__standard_gamma(S &s, F shape)
{
    if (shape == F(1))
        return ga__draws<F>::exponential(s);
    if (shape == F(0))
        return F(0);
    return shape < F(1) ? ga__standard_gamma_small<F>(s, shape) : ga__standard_gamma_mt<F>(s, shape);
}
template <class S> GA_HD double ga__random_standard_gamma(S &s, double shape) { return ga__standard_gamma<double>(s, shape); }
template <class S> GA_HD float ga__random_standard_gamma_f(S &s, float shape) { return ga__standard_gamma<float>(s, shape); }

/* gamma(shape, scale): scale standard_gamma(shape). Valid: shape >= 0
   ("shape < 0"), scale >= 0 ("scale < 0"). */
template <class S> GA_HD double ga__random_gamma(S &s, double shape, double scale)
{
    return scale * ga__random_standard_gamma(s, shape);
}

/* NumPy's random_gamma_f: the float32 form of gamma. */
template <class S> GA_HD float ga__random_gamma_f(S &s, float shape, float scale)
{
    return scale * ga__random_standard_gamma_f(s, shape);
}

/* chisquare(df): 2 standard_gamma(df / 2). Valid: df > 0 ("df <= 0"). */
template <class S> GA_HD double ga__random_chisquare(S &s, double df)
{
    return 2.0 * ga__random_standard_gamma(s, df / 2.0);
}

/* log(exp(x) + exp(y)) without overflow (NumPy's npy_logaddexp for finite
   x and y). */
GA_HD inline double ga__logaddexp(double x, double y)
{
    if (x == y)
        return x + 0.693147180559945309417232121458176568; /* log(2) */
    const double d = x - y;
    return d > 0 ? x + log1p(exp(-d)) : y + log1p(exp(d));
}

/* beta(a, b) for a, b <= 1 by Johnk's algorithm (M. D. Johnk, "Erzeugung
   von betaverteilten und gammaverteilten Zufallszahlen", Metrika 8 (1964)
   5-15): X = U^(1/a), Y = V^(1/b), accepted when X + Y <= 1, X / (X + Y)
   in logs when either underflows to 0 (NumPy's). */
template <class S> GA_HD double ga__beta_johnk(S &s, double a, double b)
{
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double u = s.uniform64(), v = s.uniform64();
        const double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), xpy = x + y;
        if (!(xpy <= 1.0 && u + v > 0.0))
            continue;
        if (x > 0.0 && y > 0.0)
            return x / xpy;
        double logx = log(u) / a, logy = log(v) / b;
        const double logm = logx > logy ? logx : logy;
        logx -= logm;
        logy -= logm;
        return exp(logx - ga__logaddexp(logx, logy));
    }
    return (double)NAN;
}

/* beta(a, b): for a, b < 3e-103 1 with probability a / (a + b), else 0
   (NumPy's); Johnk's algorithm when a <= 1 and b <= 1; else Ga / (Ga + Gb)
   of standard gammas (Ga drawn first). Valid: a > 0 ("a <= 0"), b > 0
   ("b <= 0"); dirichlet also passes a or b = 0 (the other > 0), which gives
   0 or 1. */
template <class S> GA_HD double ga__random_beta(S &s, double a, double b)
{
    if (a < 3e-103 && b < 3e-103) /* anything but 0 or 1 has probability below 1e-100 */
        return s.uniform64() < a / (a + b) ? 1.0 : 0.0;
    if (a <= 1.0 && b <= 1.0)
        return ga__beta_johnk(s, a, b);
    const double ga = ga__random_standard_gamma(s, a);
    const double gb = ga__random_standard_gamma(s, b);
    return ga / (ga + gb);
}

/* f(dfnum, dfden): (chisquare(dfnum) dfden) / (chisquare(dfden) dfnum),
   the numerator drawn first. Valid: dfnum > 0 ("dfnum <= 0"), dfden > 0
   ("dfden <= 0"). */
template <class S> GA_HD double ga__random_f(S &s, double dfnum, double dfden)
{
    const double num = ga__random_chisquare(s, dfnum) * dfden;
    return num / (ga__random_chisquare(s, dfden) * dfnum);
}

/* standard_t(df): sqrt(df / 2) N / sqrt(standard_gamma(df / 2)), the
   normal drawn first. Valid: df > 0 ("df <= 0"). */
template <class S> GA_HD double ga__random_standard_t(S &s, double df)
{
    const double num = s.normal64();
    const double denom = ga__random_standard_gamma(s, df / 2.0);
    return sqrt(df / 2.0) * num / sqrt(denom);
}

/* ======================================================================== */
/* 3. From normals                                                           */
/* ======================================================================== */

/* standard_cauchy(): N1 / N2. */
template <class S> GA_HD double ga__random_standard_cauchy(S &s)
{
    const double n1 = s.normal64();
    return n1 / s.normal64();
}

/* lognormal(mean, sigma): exp(mean + sigma N). Valid: sigma >= 0
   ("sigma < 0"). */
template <class S> GA_HD double ga__random_lognormal(S &s, double mean, double sigma)
{
    return exp(mean + sigma * s.normal64());
}

/* wald(mean, scale), the inverse Gaussian with shape `scale`: Michael,
   Schucany and Haas, "Generating random variates using transformations
   with multiple roots", The American Statistician 30 (1976) 88-90, as
   NumPy: Y = mean N^2, X = mean + mean / (2 scale) (Y - sqrt(4 scale Y +
   Y^2)), X if U <= mean / (mean + X), else mean^2 / X. X is computed as
   mean 4 scale Y / (sqrt(Y) sqrt(4 scale + Y) + Y)^2, the same value
   without NumPy's cancellation (its X is off by up to 2e-8 relative
   at mean / scale = 1000, 2e-2 at 1e6; here within 1e-15) and without
   overflow in Y^2. Valid: mean > 0 ("mean <= 0"), scale > 0
   ("scale <= 0"). */
template <class S> GA_HD double ga__random_wald(S &s, double mean, double scale)
{
    const double n = s.normal64();
    const double y = mean * n * n;
    const double sum = sqrt(y) * sqrt(4.0 * scale + y) + y;
    const double x = mean * (4.0 * scale * y / sum) / sum;
    const double u = s.uniform64();
    return u <= mean / (mean + x) ? x : mean * mean / x;
}

/* The angle acos(w) with a random sign, plus mu, wrapped into [-pi, pi]
   as NumPy (by fmod of its size, keeping the sign). */
template <class S> GA_HD double ga__vonmises_angle(S &s, double mu, double w)
{
    const double u = s.uniform64();
    double result = acos(w);
    if (u < 0.5)
        result = -result;
    result += mu;
    const double mod = fmod(fabs(result) + GA__RANDOM_PI, 2.0 * GA__RANDOM_PI) - GA__RANDOM_PI;
    return result < 0 ? -mod : mod;
}

/* vonmises(mu, kappa) on [-pi, pi]: Best and Fisher, "Efficient
   simulation of the von Mises distribution", Applied Statistics 28 (1979)
   152-157, as NumPy: kappa < 1e-8 the uniform on the circle; s from the
   Taylor series below 1e-5; kappa > 1e6 the wrapped normal mu + N /
   sqrt(kappa); NaN for NaN. Valid: kappa >= 0 ("kappa < 0"). */
template <class S> GA_HD double ga__random_vonmises(S &s, double mu, double kappa)
{
    if (kappa != kappa)
        return (double)NAN;
    if (kappa < 1e-8)
        return GA__RANDOM_PI * (2.0 * s.uniform64() - 1.0);
    double sr;
    if (kappa < 1e-5) {
        sr = 1.0 / kappa + kappa;
    } else if (kappa <= 1e6) {
        const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
        const double rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
        sr = (1.0 + rho * rho) / (2.0 * rho);
    } else {
        double result = mu + sqrt(1.0 / kappa) * s.normal64();
        if (result < -GA__RANDOM_PI)
            result += 2.0 * GA__RANDOM_PI;
        if (result > GA__RANDOM_PI)
            result -= 2.0 * GA__RANDOM_PI;
        return result;
    }
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double z = cos(GA__RANDOM_PI * s.uniform64());
        const double w = (1.0 + sr * z) / (sr + z);
        const double y = kappa * (sr - w);
        const double v = s.uniform64();
        /* v = 0 is fine: y >= 0 accepts, y < 0 rejects */
        if (y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0)
            return ga__vonmises_angle(s, mu, w);
    }
    return (double)NAN;
}

/* ======================================================================== */
/* 4. Discrete                                                               */
/* ======================================================================== */

/* log(k!) (NumPy: a table and Stirling's series; lgamma here). */
GA_HD inline double ga__log_factorial(int64_t k) { return lgamma((double)k + 1.0); }

/* Poisson by multiplying uniforms until the product falls to exp(-lam)
   (lam < 10). */
template <class S> GA_HD int64_t ga__poisson_mult(S &s, double lam)
{
    const double enlam = exp(-lam);
    double prod = 1.0;
    for (int64_t x = 0; x < GA__RANDOM_MAX_TRIES; ++x) {
        prod *= s.uniform64();
        if (prod <= enlam)
            return x;
    }
    return -1;
}

/* Poisson by Hormann's PTRS, "The transformed rejection method for
   generating Poisson random variables", Insurance: Mathematics and
   Economics 12 (1993) 39-45 (lam >= 10), as NumPy. */
template <class S> GA_HD int64_t ga__poisson_ptrs(S &s, double lam)
{
    const double slam = sqrt(lam), loglam = log(lam);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double u = s.uniform64() - 0.5, v = s.uniform64();
        const double us = 0.5 - fabs(u);
        const double kd = floor((2.0 * a / us + b) * u + lam + 0.43);
        if (!(kd >= 0.0 && kd < GA__RANDOM_INT64_MAX_DOUBLE))
            continue;
        const int64_t k = (int64_t)kd;
        if (us >= 0.07 && v <= vr)
            return k;
        if (us < 0.013 && v > us)
            continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + kd * loglam - ga__log_factorial(k))
            return k;
    }
    return -1;
}

/* poisson(lam): 0 for lam = 0, multiplication below 10, PTRS from 10; -1
   for NaN. Valid: lam >= 0 ("lam < 0 or lam is NaN"), lam <= 2^63 - 10
   sqrt(2^63) ("lam value too large"). */
template <class S> GA_HD int64_t ga__random_poisson(S &s, double lam)
{
    if (lam >= 10.0)
        return ga__poisson_ptrs(s, lam);
    if (lam == 0.0)
        return 0;
    return lam > 0.0 ? ga__poisson_mult(s, lam) : -1;
}

/* Binomial by inversion, the CDF searched from 0 up to a bound of about 10
   standard deviations past the mean, starting again from a new uniform
   past it (NumPy's; n p <= 30). */
template <class S> GA_HD int64_t ga__binomial_inversion(S &s, int64_t n, double p)
{
    const double q = 1.0 - p, qn = exp(n * log(q)), np = n * p;
    const double limit = np + 10.0 * sqrt(np * q + 1.0);
    const int64_t bound = (int64_t)((double)n < limit ? (double)n : limit);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        double u = s.uniform64(), px = qn;
        int64_t x = 0;
        while (u > px && x < bound) {
            ++x;
            u -= px;
            px = ((n - x + 1) * p * px) / (x * q);
        }
        if (!(u > px))
            return x;
    }
    return -1;
}

/* BTPE's constants for n trials of probability p <= 1/2 (names as in the
   paper and NumPy). */
struct ga__btpe {
    double r, q, nrq, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
    int64_t m;
};

GA_HD inline ga__btpe ga__btpe_setup(int64_t n, double p)
{
    ga__btpe b;
    b.r = p < 1.0 - p ? p : 1.0 - p;
    b.q = 1.0 - b.r;
    b.nrq = n * b.r * b.q;
    b.fm = n * b.r + b.r;
    b.m = (int64_t)floor(b.fm);
    b.p1 = floor(2.195 * sqrt(n * b.r * b.q) - 4.6 * b.q) + 0.5;
    b.xm = b.m + 0.5;
    b.xl = b.xm - b.p1;
    b.xr = b.xm + b.p1;
    b.c = 0.134 + 20.5 / (15.3 + b.m);
    double a = (b.fm - b.xl) / (b.fm - b.xl * b.r);
    b.laml = a * (1.0 + a / 2.0);
    a = (b.xr - b.fm) / (b.xr * b.q);
    b.lamr = a * (1.0 + a / 2.0);
    b.p2 = b.p1 * (1.0 + 2.0 * b.c);
    b.p3 = b.p2 + b.c / b.laml;
    b.p4 = b.p3 + b.c / b.lamr;
    return b;
}

/* Stirling's correction of log(x!) past its first terms, BTPE's step 5.3. */
GA_HD inline double ga__btpe_stirling(double x)
{
    const double x2 = x * x;
    return (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x / 166320.;
}

/* BTPE's final test of y (steps 5.0-5.3): v <= f(y) / f(m), by the ratios
   of the probabilities near the mode, else by squeezes on log(v) and
   Stirling's formula. */
GA_HD inline bool ga__btpe_accept(int64_t n, const ga__btpe &b, int64_t y, double v)
{
    const int64_t k = y > b.m ? y - b.m : b.m - y;
    if (!(k > 20 && k < b.nrq / 2.0 - 1)) {
        const double s = b.r / b.q, a = s * (n + 1);
        double f = 1.0;
        for (int64_t i = b.m + 1; i <= y; ++i)
            f *= a / i - s;
        for (int64_t i = y + 1; i <= b.m; ++i)
            f /= a / i - s;
        return v <= f;
    }
    const double rho = (k / b.nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / b.nrq + 0.5);
    const double t = -(double)(k * k) / (2 * b.nrq);
    const double lv = log(v);
    if (lv < t - rho)
        return true;
    if (lv > t + rho)
        return false;
    const double x1 = y + 1, f1 = b.m + 1, z = n + 1 - b.m, w = n - y + 1;
    const double bound = b.xm * log(f1 / x1) + (n - b.m + 0.5) * log(z / w) + (y - b.m) * log(w * b.r / (x1 * b.q)) +
                         ga__btpe_stirling(f1) + ga__btpe_stirling(z) + ga__btpe_stirling(x1) + ga__btpe_stirling(w);
    return lv <= bound;
}

/* One try of BTPE (steps 1-4): the variate, or -1 when rejected. The
   triangle accepts at once; the parallelograms and the exponential tails
   go to the final test. */
template <class S> GA_HD int64_t ga__btpe_try(S &s, int64_t n, const ga__btpe &b)
{
    const double u = s.uniform64() * b.p4;
    double v = s.uniform64();
    if (u <= b.p1)
        return (int64_t)floor(b.xm - b.p1 * v + u);
    double x;
    if (u <= b.p2) {
        x = b.xl + (u - b.p1) / b.c;
        v = v * b.c + 1.0 - fabs(b.m - x + 0.5) / b.p1;
        if (v > 1.0)
            return -1;
        x = floor(x);
    } else {
        const bool left = u <= b.p3;
        if (v == 0.0)
            return -1;
        x = left ? floor(b.xl + log(v) / b.laml) : floor(b.xr - log(v) / b.lamr);
        if (left ? x < 0.0 : x > (double)n)
            return -1;
        v = left ? v * (u - b.p2) * b.laml : v * (u - b.p3) * b.lamr;
    }
    const int64_t y = (int64_t)x;
    return ga__btpe_accept(n, b, y, v) ? y : -1;
}

/* Binomial by BTPE: Kachitvichyanukul and Schmeiser, "Binomial random
   variate generation", Communications of the ACM 31 (1988) 216-222, as
   NumPy (p <= 1/2, n p > 30). */
template <class S> GA_HD int64_t ga__binomial_btpe(S &s, int64_t n, double p)
{
    const ga__btpe b = ga__btpe_setup(n, p);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const int64_t y = ga__btpe_try(s, n, b);
        if (y >= 0)
            return y;
    }
    return -1;
}

/* binomial(n, p): 0 for n = 0 or p = 0; for p <= 1/2 inversion when n p <=
   30, else BTPE; for p > 1/2 n minus the draw for 1 - p (NumPy's
   symmetry). Valid: n >= 0 ("n < 0"), 0 <= p <= 1 ("p < 0, p > 1 or p is
   NaN"). */
template <bool BTPE, class S> GA_HD int64_t ga__binomial_of(S &s, int64_t n, double p)
{
    if (n == 0 || p == 0.0)
        return 0;
    const bool flip = p > 0.5;
    const double pp = flip ? 1.0 - p : p;
    const int64_t x = !BTPE || pp * n <= 30.0 ? ga__binomial_inversion(s, n, pp) : ga__binomial_btpe(s, n, pp);
    return flip && x >= 0 ? n - x : x;
}
template <class S> GA_HD int64_t ga__random_binomial(S &s, int64_t n, double p) { return ga__binomial_of<true>(s, n, p); }
/* binomial where the caller knows min(p, 1 - p) n <= 30: the inversion
   alone (the same values; a kernel without BTPE's registers). */
template <class S> GA_HD int64_t ga__random_binomial_small(S &s, int64_t n, double p)
{
    return ga__binomial_of<false>(s, n, p);
}

/* negative_binomial(n, p): poisson(gamma(n, (1 - p) / p)); 0 for p = 1.
   Valid: n > 0 ("n <= 0"), 0 < p <= 1 ("p <= 0, p > 1 or p contains
   NaNs"), the gamma's scale times n within poisson's range ("n too large
   or p too small, see Generator.negative_binomial Notes"). */
template <class S> GA_HD int64_t ga__random_negative_binomial(S &s, double n, double p)
{
    return ga__random_poisson(s, ga__random_gamma(s, n, (1.0 - p) / p));
}

/* Geometric by searching the CDF, p >= 1/3 (the search stops where the
   sum stops growing, in the tail beyond 1 - 2^-53 where NumPy's loops). */
template <class S> GA_HD int64_t ga__geometric_search(S &s, double p)
{
    const double q = 1.0 - p, u = s.uniform64();
    double sum = p, prod = p;
    int64_t x = 1;
    while (u > sum) {
        prod *= q;
        const double next = sum + prod;
        if (next == sum)
            break;
        sum = next;
        ++x;
    }
    return x;
}

/* geometric(p), the trials to the first success (support 1, 2, ...):
   the search for p >= 1/3, else inversion ceil(E / -log1p(-p)), capped at
   INT64_MAX; 1 for p = 1. Valid: 0 < p <= 1 ("p <= 0, p > 1 or p contains
   NaNs"). */
template <class S> GA_HD int64_t ga__random_geometric(S &s, double p)
{
    if (p >= 0.333333333333333333333333)
        return ga__geometric_search(s, p);
    const double z = ceil(-s.exponential64() / log1p(-p));
    return z >= GA__RANDOM_INT64_MAX_DOUBLE ? INT64_MAX : (int64_t)z;
}

/* A uniform integer in [0, max] by masked rejection (NumPy's
   random_interval: one word for max < 2^32, else two). */
template <class S> GA_HD int64_t ga__random_interval(S &s, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max;
    for (int shift = 1; shift <= 32; shift *= 2)
        mask |= mask >> shift;
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const uint64_t v = (max <= 0xFFFFFFFFu ? (uint64_t)s.next32() : s.next64()) & mask;
        if (v <= max)
            return (int64_t)v;
    }
    return -1;
}

/* Hypergeometric by drawing the sample one item at a time (the smaller of
   sample and its complement; NumPy's for sample < 10 or > total - 10). */
template <class S> GA_HD int64_t ga__hypergeometric_count(S &s, int64_t good, int64_t bad, int64_t sample)
{
    const int64_t total = good + bad;
    const bool complement = sample > total / 2;
    int64_t left = complement ? total - sample : sample;
    int64_t rem_total = total, rem_good = good;
    while (left > 0 && rem_good > 0 && rem_total > rem_good) {
        --rem_total;
        const int64_t r = ga__random_interval(s, (uint64_t)rem_total);
        if (r < 0)
            return -1;
        if (r < rem_good)
            --rem_good;
        --left;
    }
    if (rem_total == rem_good) /* only good ones left */
        rem_good -= left;
    return complement ? rem_good : good - rem_good;
}

/* Hypergeometric by ratio of uniforms, algorithm HRUA of Stadlober, "The
   ratio of uniforms approach for generating discrete random variates",
   J. Computational and Applied Mathematics 31 (1990) 181-189 (and his 1989
   thesis), as NumPy: for the smaller of good and bad and of sample and its
   complement, mapped back at the end. */
template <class S> GA_HD int64_t ga__hypergeometric_hrua(S &s, int64_t good, int64_t bad, int64_t sample)
{
    const double d1 = 1.7155277699214135, d2 = 0.8989161620588988; /* 2 sqrt(2/e), 3 - 2 sqrt(3/e) */
    const int64_t popsize = good + bad;
    const int64_t n = sample < popsize - sample ? sample : popsize - sample;
    const int64_t mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
    const double p = (double)mingb / popsize, q = (double)maxgb / popsize;
    const double a = n * p + 0.5;
    const double var = (double)(popsize - n) * n * p * q / (popsize - 1);
    const double c = sqrt(var + 0.5), h = d1 * c + d2;
    const int64_t m = (int64_t)floor((double)(n + 1) * (mingb + 1) / (popsize + 2));
    const double g = ga__log_factorial(m) + ga__log_factorial(mingb - m) + ga__log_factorial(n - m) +
                     ga__log_factorial(maxgb - n + m);
    const double support = (double)((n < mingb ? n : mingb) + 1), far = floor(a + 16 * c);
    const double b = support < far ? support : far;
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double u = s.uniform64(), v = s.uniform64();
        const double x = a + h * (v - 0.5) / u;
        if (!(x >= 0.0 && x < b))
            continue;
        int64_t k = (int64_t)floor(x);
        const double t = g - (ga__log_factorial(k) + ga__log_factorial(mingb - k) + ga__log_factorial(n - k) +
                              ga__log_factorial(maxgb - n + k));
        if (u * (4.0 - u) - 3.0 > t && (u * (u - t) >= 1.0 || 2.0 * log(u) > t))
            continue;
        if (good > bad)
            k = n - k;
        return n < sample ? good - k : k;
    }
    return -1;
}

/* hypergeometric(ngood, nbad, nsample): HRUA for 10 <= nsample <=
   ngood + nbad - 10, else the item by item count. Valid: ngood >= 0
   ("ngood < 0"), nbad >= 0 ("nbad < 0"), nsample >= 0 ("nsample < 0"),
   nsample <= ngood + nbad ("ngood + nbad < nsample"), ngood and nbad below
   10**9 ("both ngood and nbad must be less than 1000000000"). */
template <class S> GA_HD int64_t ga__random_hypergeometric(S &s, int64_t good, int64_t bad, int64_t sample)
{
    if (sample >= 10 && sample <= good + bad - 10)
        return ga__hypergeometric_hrua(s, good, bad, sample);
    return ga__hypergeometric_count(s, good, bad, sample);
}

/* logseries(p): Kemp's algorithm LK, A. W. Kemp, "Efficient generation of
   logarithmically distributed pseudo-random variables", Applied
   Statistics 30 (1981) 249-253, as NumPy; 1 for p = 0. Valid: 0 <= p < 1
   ("p < 0, p >= 1 or p is NaN"). */
template <class S> GA_HD int64_t ga__random_logseries(S &s, double p)
{
    const double r = log1p(-p);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double v = s.uniform64();
        if (v >= p)
            return 1;
        const double u = s.uniform64();
        const double q = -expm1(r * u);
        if (v <= q * q) {
            const double x = floor(1.0 + log(v) / log(q));
            if (v == 0.0 || !(x >= 1.0 && x < GA__RANDOM_INT64_MAX_DOUBLE))
                continue;
            return (int64_t)x;
        }
        return v >= q ? 1 : 2;
    }
    return -1;
}

/* zipf(a): NumPy's rejection (Devroye, Non-Uniform Random Variate
   Generation, 1986, X.6.1) from X = floor(U^(-1/(a - 1))) with U on
   (Umin, 1], Umin chosen so that X stays below 2^63 (a Zipf law truncated
   there, as NumPy's); 1 for a >= 1025, where anything else has probability
   below 3e-309. Valid: a > 1 ("a <= 1 or a is NaN"). */
template <class S> GA_HD int64_t ga__random_zipf(S &s, double a)
{
    if (a >= 1025.0)
        return 1;
    const double am1 = a - 1.0, b = pow(2.0, am1);
    const double umin = pow((double)INT64_MAX, -am1);
    for (int tries = 0; tries < GA__RANDOM_MAX_TRIES; ++tries) {
        const double u01 = s.uniform64();
        const double u = u01 * umin + (1.0 - u01);
        const double v = s.uniform64();
        const double x = floor(pow(u, -1.0 / am1));
        if (x > (double)INT64_MAX || x < 1.0)
            continue;
        const double t = pow(1.0 + 1.0 / x, am1);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b)
            return (int64_t)x;
    }
    return -1;
}

/* ======================================================================== */
/* 5. Noncentral chi-square and F                                            */
/* ======================================================================== */

/* noncentral_chisquare(df, nonc), NumPy's three cases: chisquare(df) for
   nonc = 0; for df > 1 chisquare(df - 1) + (N + sqrt(nonc))^2; else
   chisquare(df + 2 i) of i = poisson(nonc / 2). NaN for a NaN nonc. Valid:
   df > 0 ("df <= 0"), nonc >= 0 ("nonc < 0"). */
template <class S> GA_HD double ga__random_noncentral_chisquare(S &s, double df, double nonc)
{
    if (nonc != nonc)
        return (double)NAN;
    if (nonc == 0.0)
        return ga__random_chisquare(s, df);
    if (df > 1.0) {
        const double chi2 = ga__random_chisquare(s, df - 1.0);
        const double n = s.normal64() + sqrt(nonc);
        return chi2 + n * n;
    }
    const int64_t i = ga__random_poisson(s, nonc / 2.0);
    return i < 0 ? (double)NAN : ga__random_chisquare(s, df + 2.0 * (double)i);
}

/* noncentral_f(dfnum, dfden, nonc): noncentral_chisquare(dfnum, nonc)
   dfden / (chisquare(dfden) dfnum). Valid: dfnum > 0 ("dfnum <= 0"), dfden
   > 0 ("dfden <= 0"), nonc >= 0 ("nonc < 0"). */
template <class S> GA_HD double ga__random_noncentral_f(S &s, double dfnum, double dfden, double nonc)
{
    const double t = ga__random_noncentral_chisquare(s, dfnum, nonc) * dfden;
    return t / (ga__random_chisquare(s, dfden) * dfnum);
}

/* ======================================================================== */
/* 6. Multivariate                                                           */
/* ======================================================================== */

/* The conditional probability of category j given the `remaining`
   probability, clamped into [0, 1] against rounding. */
GA_HD inline double ga__multinomial_p(double pj, double remaining)
{
    if (!(pj > 0.0))
        return 0.0;
    return pj >= remaining ? 1.0 : pj / remaining;
}

/* multinomial(n, pvals) into out[0..k-1] (k = len(pvals) >= 1): category
   j < k - 1 gets binomial(n left, pvals[j] / probability left), the last
   what is left (NumPy's); out[j] = -1 marks a capped binomial. Valid: n >=
   0 ("n < 0"), 0 <= pvals <= 1 ("pvals < 0, pvals > 1 or pvals contains
   NaNs"), sum(pvals[:-1]) <= 1 + 1e-12 ("sum(pvals[:-1]) > 1.0"). */
template <class S> GA_HD void ga__random_multinomial(S &s, int64_t n, const double *pvals, int64_t k, int64_t *out)
{
    for (int64_t j = 0; j < k; ++j)
        out[j] = 0;
    double remaining = 1.0;
    int64_t left = n;
    for (int64_t j = 0; j + 1 < k && left > 0; ++j) {
        out[j] = ga__random_binomial(s, left, ga__multinomial_p(pvals[j], remaining));
        if (out[j] < 0)
            return;
        left -= out[j];
        remaining -= pvals[j];
    }
    if (left > 0 && k > 0)
        out[k - 1] = left;
}

/* dirichlet(alpha) when every alpha < 0.1: stick breaking, out[j] = (what
   is left) beta(alpha[j], sum(alpha[j+1:])), as NumPy. out[] first holds
   the suffix sums, each read before it is overwritten. */
template <class S> GA_HD void ga__dirichlet_beta(S &s, const double *alpha, int64_t k, double *out)
{
    double csum = 0.0;
    for (int64_t j = k - 1; j >= 0; --j)
        out[j] = csum += alpha[j];
    if (!(csum > 0.0)) /* every alpha 0: all zeros */
        return;
    double acc = 1.0;
    for (int64_t j = 0; j + 1 < k; ++j) {
        const double rest = out[j + 1];
        const double v = ga__random_beta(s, alpha[j], rest);
        out[j] = acc * v;
        acc *= 1.0 - v;
        if (rest == 0.0) /* v = 1: the rest stay 0 (their suffix sums) */
            break;
    }
    out[k - 1] = acc;
}

/* dirichlet(alpha) into out[0..k-1]: for every alpha < 0.1 the stick
   breaking of betas (NumPy's test, max(alpha) < 0.1), else standard
   gammas times 1 / their sum. Valid: alpha >= 0 ("alpha < 0"); NaNs give
   NaNs. */
template <class S> GA_HD void ga__random_dirichlet(S &s, const double *alpha, int64_t k, double *out)
{
    bool small = k > 0;
    for (int64_t j = 0; j < k; ++j)
        small = small && alpha[j] < 0.1;
    if (small) {
        ga__dirichlet_beta(s, alpha, k, out);
        return;
    }
    double acc = 0.0;
    for (int64_t j = 0; j < k; ++j)
        acc += out[j] = ga__random_standard_gamma(s, alpha[j]);
    const double inv = 1.0 / acc;
    for (int64_t j = 0; j < k; ++j)
        out[j] *= inv;
}

/* multivariate_hypergeometric(colors, nsample, method='marginals') into
   out[0..k-1] (k >= 1 colors of sum `total`), NumPy's
   random_multivariate_hypergeometric_marginals: for nsample > total / 2
   the complement, total - nsample, is drawn and out = colors - that draw;
   color j < k - 1 gets hypergeometric(colors[j], the colors after j, what
   is left to draw), the last what is left. out[j] = -1 marks a capped
   hypergeometric. Valid: colors >= 0 with total = sum(colors) below 10**9
   ('When method is "marginals", sum(colors) must be less than
   1000000000.'), 0 <= nsample <= total ("nsample > sum(colors)"). */
template <class S>
GA_HD void ga__random_mvhg_marginals(S &s, const int64_t *colors, int64_t k, int64_t total, int64_t nsample,
                                     int64_t *out)
{
    for (int64_t j = 0; j < k; ++j)
        out[j] = 0;
    if (total == 0 || nsample == 0)
        return;
    const bool more_than_half = nsample > total / 2;
    int64_t left = more_than_half ? total - nsample : nsample, remaining = total;
    for (int64_t j = 0; left > 0 && j + 1 < k; ++j) {
        remaining -= colors[j];
        out[j] = ga__random_hypergeometric(s, colors[j], remaining, left);
        if (out[j] < 0)
            return;
        left -= out[j];
    }
    if (left > 0)
        out[k - 1] = left;
    if (more_than_half)
        for (int64_t j = 0; j < k; ++j)
            out[j] = colors[j] - out[j];
}

/* The lowest set bit of i > 0 (a Fenwick tree's step). */
GA_HD inline int64_t ga__fenwick_step(int64_t i) { return i & -i; }

/* tree[0..k-1] from values to their Fenwick tree (node i = 1..k at tree[i -
   1] holds the sum of values i - step(i) + 1 .. i), and back. */
GA_HD inline void ga__fenwick_build(int64_t *tree, int64_t k)
{
    for (int64_t i = 1; i <= k; ++i)
        if (i + ga__fenwick_step(i) <= k)
            tree[i + ga__fenwick_step(i) - 1] += tree[i - 1];
}
GA_HD inline void ga__fenwick_unbuild(int64_t *tree, int64_t k)
{
    for (int64_t i = k; i >= 1; --i)
        if (i + ga__fenwick_step(i) <= k)
            tree[i + ga__fenwick_step(i) - 1] -= tree[i - 1];
}

/* The value (0-based) that item r of the tree's items falls in (the least
   j with values 0..j summing past r, r below their sum; `top` the highest
   power of two <= k), and that value less one item. */
GA_HD inline int64_t ga__fenwick_take(int64_t *tree, int64_t k, int64_t top, int64_t r)
{
    int64_t pos = 0;
    for (int64_t step = top; step > 0; step >>= 1)
        if (pos + step <= k && tree[pos + step - 1] <= r) {
            pos += step;
            r -= tree[pos - 1];
        }
    for (int64_t i = pos + 1; i <= k; i += ga__fenwick_step(i))
        --tree[i - 1];
    return pos;
}

/* multivariate_hypergeometric(colors, nsample, method='count') into
   out[0..k-1] (k >= 1 colors of sum `total`): NumPy's
   random_multivariate_hypergeometric_count draws the sample (or, for
   nsample > total / 2, its complement) item by item, a partial
   Fisher-Yates shuffle of an array of total items, item t being item t +
   random_interval(total - t - 1) of the array. Here draw t takes the same
   random_interval(total - t - 1) and picks that item among the items not
   yet drawn ordered by color, found in a Fenwick tree of the colors'
   remaining counts kept in out[] itself: the same words and the same
   distribution (each draw uniform over the items left) in O(k + m log k)
   time, m = min(nsample, total - nsample), and no O(total) array; not
   NumPy's values (its array's order depends on the earlier swaps, and on
   the earlier rows). A capped interval marks the row with -1s. Valid:
   colors >= 0, total = sum(colors) <= (2**63 - 1) // 8 ("When method is
   'count', sum(colors) must not exceed 1152921504606846975"), 0 <= nsample
   <= total ("nsample > sum(colors)"). */
template <class S>
GA_HD void ga__random_mvhg_count(S &s, const int64_t *colors, int64_t k, int64_t total, int64_t nsample,
                                 int64_t *out)
{
    const bool none = total == 0 || nsample == 0, more_than_half = nsample > total / 2;
    const int64_t m = none ? 0 : more_than_half ? total - nsample : nsample;
    for (int64_t j = 0; j < k; ++j)
        out[j] = none ? 0 : colors[j];
    if (m == 0) /* nothing, or everything, drawn */
        return;
    ga__fenwick_build(out, k);
    int64_t top = 1;
    while (top <= k / 2)
        top <<= 1;
    for (int64_t t = 0; t < m; ++t) {
        const int64_t r = ga__random_interval(s, (uint64_t)(total - t - 1));
        if (r < 0) {
            for (int64_t j = 0; j < k; ++j)
                out[j] = -1;
            return;
        }
        ga__fenwick_take(out, k, top, r);
    }
    ga__fenwick_unbuild(out, k); /* the counts not drawn */
    if (!more_than_half)
        for (int64_t j = 0; j < k; ++j)
            out[j] = colors[j] - out[j];
}

#endif /* GA_KERNELS_RANDOM_DISTS_CUH */
