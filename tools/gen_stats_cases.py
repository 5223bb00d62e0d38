#!/usr/bin/env python3
"""Generate tests/random_stats_cases.h: reference values for tests/random_stats.h.

For every distribution of numpy.random.Generator, in NumPy's
parameterisation, at a few parameter sets:
  - the CDF (continuous) at points spread over its quantiles, lower tail
    down to 1e-12 included, and the PMF (discrete) at values from the tails
    through the mode;
  - the exact mean and variance;
and the special functions behind them: P(a, x), Q(a, x), I_x(a, b), the
normal CDF and its complement, zeta(s) and Kolmogorov's Q_KS(t).

The references are computed with mpmath at 50 digits from the textbook
formulas (noncentral laws as Poisson mixtures summed far past negligible;
von Mises by quadrature of its density on [-pi, x]; moments of von Mises by
quadrature too, as NumPy's draws lie in [-pi, pi]). Two independent checks
guard them:
  - scipy.stats evaluates every CDF, PMF, mean and variance through its own
    parameterisation (uniform(loc, scale), lomax, invgauss, triang, ...),
    which must agree to 1e-6 relative: the point is the mapping of NumPy's
    parameters, and scipy itself loses digits in places (its Poisson PMF at
    lam = 1e7 by 3e-8); its von Mises CDF is not NumPy's wrapped law for
    mu != 0 and a normal approximation for kappa >= 50: not compared there;
  - NumPy draws 20000 samples of every case, which must pass a
    Kolmogorov-Smirnov test (continuous) or a chi-square test (discrete)
    against scipy's law with p > 1e-4 at the fixed seed below.

Needs numpy, scipy and mpmath; none is needed to build or run the tests (the
generated header is committed). Run from the repository root:
    python3 tools/gen_stats_cases.py
No randomness beyond the fixed seed: a rerun regenerates the header byte
for byte.
"""

import math
import sys
import warnings

import mpmath
import numpy as np
import scipy
import scipy.special as sc
import scipy.stats as st
from mpmath import mp, mpf

mp.dps = 50
PI = mp.pi
OUT = "tests/random_stats_cases.h"
PROBS = [1e-12, 1e-8, 1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.9999]

# ---- mpmath references --------------------------------------------------


def pois_mix(mu, term):
    """sum_j e^-mu mu^j / j! term(j), summed to 40 standard deviations past mu."""
    mu = mpf(mu)
    if mu == 0:
        return term(0)
    top = int(mu + 40 * mp.sqrt(mu) + 60)
    total = mpf(0)
    for j in range(top + 1):
        w = mp.exp(-mu + j * mp.log(mu) - mp.loggamma(j + 1))
        total += w * term(j)
    return total


def pgamma(a, x):
    return mpf(0) if x <= 0 else mp.gammainc(a, 0, x, regularized=True)


def ibeta_series(a, b, x):
    """I_x(a, b) = x^a (1-x)^b / (a B(a, b)) 2F1(a + b, 1; a + 1; x), a series of
    positive terms (mpmath's betainc gives up for a, b ~ 1e4), for x <= a / (a + b)."""
    term, total, n = mpf(1), mpf(1), 0
    while term > total * mpf(10) ** -60:
        term *= (a + b + n) * x / (a + 1 + n)
        total += term
        n += 1
    lead = mp.exp(a * mp.log(x) + b * mp.log1p(-x) - mp.log(a) - mp.log(mp.beta(a, b)))
    return lead * total


def ibeta(a, b, x):
    a, b, x = mpf(a), mpf(b), mpf(x)
    if x <= 0:
        return mpf(0)
    if x >= 1:
        return mpf(1)
    if x * (a + b) <= a:
        return ibeta_series(a, b, x)
    return 1 - ibeta_series(b, a, 1 - x)


def clamp01(v):
    return max(mpf(0), min(mpf(1), v))


def vonmises_cdf(x, mu, kappa):
    if x <= -PI:
        return mpf(0)
    if x >= PI:
        return mpf(1)
    f = lambda t: mp.exp(kappa * (mp.cos(t - mu) - 1))
    norm = 2 * PI * mp.besseli(0, kappa) * mp.exp(-kappa)
    mode = mu - 2 * PI * mp.floor((mu + PI) / (2 * PI))  # mu wrapped into [-pi, pi)
    pts = [-PI] + ([mode] if -PI < mode < x else []) + [x]
    return mp.quad(f, pts) / norm


def vonmises_moment(mu, kappa, power):
    f = lambda t: t**power * mp.exp(kappa * (mp.cos(t - mu) - 1))
    norm = 2 * PI * mp.besseli(0, kappa) * mp.exp(-kappa)
    mode = mu - 2 * PI * mp.floor((mu + PI) / (2 * PI))
    pts = [-PI] + ([mode] if -PI < mode < PI else []) + [PI]
    return mp.quad(f, pts) / norm


def t_cdf(x, df):
    if x == 0:
        return mpf(0.5)
    tail = ibeta(df / 2, mpf(1) / 2, df / (df + x * x)) / 2
    return tail if x < 0 else 1 - tail


def wald_cdf(x, m, lam):
    if x <= 0:
        return mpf(0)
    r = mp.sqrt(lam / x)
    return mp.ncdf(r * (x / m - 1)) + mp.exp(2 * lam / m) * mp.ncdf(-r * (x / m + 1))


def triangular_cdf(x, l, m, r):
    if x <= l:
        return mpf(0)
    if x >= r:
        return mpf(1)
    if x <= m:
        return (x - l) ** 2 / ((r - l) * (m - l))
    return 1 - (r - x) ** 2 / ((r - l) * (r - m))


def pos(x, f):
    return mpf(0) if x <= 0 else f()


MP_CDF = {
    "random": lambda x: clamp01(x),
    "uniform": lambda x, lo, hi: clamp01((x - lo) / (hi - lo)),
    "standard_normal": lambda x: mp.ncdf(x),
    "normal": lambda x, loc, s: mp.ncdf((x - loc) / s),
    "standard_exponential": lambda x: pos(x, lambda: -mp.expm1(-x)),
    "exponential": lambda x, s: pos(x, lambda: -mp.expm1(-x / s)),
    "standard_gamma": lambda x, k: pgamma(k, x),
    "gamma": lambda x, k, s: pgamma(k, x / s),
    "beta": lambda x, a, b: ibeta(a, b, x),
    "chisquare": lambda x, df: pgamma(df / 2, x / 2),
    "noncentral_chisquare": lambda x, df, nc: pos(x, lambda: pois_mix(nc / 2, lambda j: pgamma(df / 2 + j, x / 2))),
    "f": lambda x, d1, d2: pos(x, lambda: ibeta(d1 / 2, d2 / 2, d1 * x / (d1 * x + d2))),
    "noncentral_f": lambda x, d1, d2, nc: pos(
        x, lambda: pois_mix(nc / 2, lambda j: ibeta(d1 / 2 + j, d2 / 2, d1 * x / (d1 * x + d2)))),
    "standard_t": lambda x, df: t_cdf(x, df),
    "standard_cauchy": lambda x: mpf(1) / 2 + mp.atan(x) / PI,
    "lognormal": lambda x, m, s: pos(x, lambda: mp.ncdf((mp.log(x) - m) / s)),
    "laplace": lambda x, loc, s: (mp.exp((x - loc) / s) / 2 if x < loc else 1 - mp.exp(-(x - loc) / s) / 2),
    "logistic": lambda x, loc, s: 1 / (1 + mp.exp(-(x - loc) / s)),
    "gumbel": lambda x, loc, s: mp.exp(-mp.exp(-(x - loc) / s)),
    "weibull": lambda x, a: pos(x, lambda: -mp.expm1(-(x**a))),
    "pareto": lambda x, a: pos(x, lambda: 1 - (1 + x) ** (-a)),
    "power": lambda x, a: pos(x, lambda: min(mpf(1), x**a)),
    "rayleigh": lambda x, s: pos(x, lambda: -mp.expm1(-(x**2) / (2 * s * s))),
    "vonmises": lambda x, mu, k: vonmises_cdf(x, mu, k),
    "wald": lambda x, m, lam: wald_cdf(x, m, lam),
    "triangular": lambda x, l, m, r: triangular_cdf(x, l, m, r),
}


def zipf_pmf(k, a):
    return mpf(k) ** (-a) / mp.zeta(a)


MP_PMF = {
    "integers": lambda k, lo, hi: 1 / (hi - lo) if lo <= k < hi else mpf(0),
    "binomial": lambda k, n, p: mp.binomial(n, k) * p**k * (1 - p) ** (n - k) if 0 <= k <= n else mpf(0),
    "negative_binomial": lambda k, n, p: (
        mp.exp(mp.loggamma(k + n) - mp.loggamma(n) - mp.loggamma(k + 1)) * p**n * (1 - p) ** k if k >= 0 else mpf(0)),
    "poisson": lambda k, lam: (
        mpf(0) if k < 0 else mp.exp(-lam + k * mp.log(lam) - mp.loggamma(k + 1)) if k else mp.exp(-lam)),
    "geometric": lambda k, p: (1 - p) ** (k - 1) * p if k >= 1 else mpf(0),
    "hypergeometric": lambda k, g, b, n: (
        mp.binomial(g, k) * mp.binomial(b, n - k) / mp.binomial(g + b, n) if max(0, n - b) <= k <= min(n, g)
        else mpf(0)),
    "logseries": lambda k, p: -(p**k) / (k * mp.log(1 - p)) if k >= 1 else mpf(0),
    "zipf": lambda k, a: zipf_pmf(k, a) if k >= 1 else mpf(0),
}

INF, NAN = mpf("inf"), mpf("nan")


def zipf_moments(a):
    z = mp.zeta(a)
    mean = mp.zeta(a - 1) / z if a > 2 else INF
    var = (mp.zeta(a - 2) / z - mean**2) if a > 3 else INF
    return mean, var


def logseries_moments(p):
    l = mp.log(1 - p)
    return -p / ((1 - p) * l), -p * (p + l) / ((1 - p) ** 2 * l**2)


def vonmises_moments(mu, k):
    m = vonmises_moment(mu, k, 1)
    return m, vonmises_moment(mu, k, 2) - m * m


def f_moments(m, n, nc=0):
    mean = n * (m + nc) / (m * (n - 2)) if n > 2 else INF
    if n > 4:
        var = 2 * (n / m) ** 2 * ((m + nc) ** 2 + (m + 2 * nc) * (n - 2)) / ((n - 2) ** 2 * (n - 4))
    else:
        var = INF  # a positive law whose second moment diverges (scipy's convention too)
    return mean, var


def weibull_moments(a):
    g1 = mp.gamma(1 + 1 / a)
    return g1, mp.gamma(1 + 2 / a) - g1**2


MP_MOMENTS = {
    "random": lambda: (mpf(1) / 2, mpf(1) / 12),
    "uniform": lambda lo, hi: ((lo + hi) / 2, (hi - lo) ** 2 / 12),
    "standard_normal": lambda: (mpf(0), mpf(1)),
    "normal": lambda loc, s: (loc, s * s),
    "standard_exponential": lambda: (mpf(1), mpf(1)),
    "exponential": lambda s: (s, s * s),
    "standard_gamma": lambda k: (k, k),
    "gamma": lambda k, s: (k * s, k * s * s),
    "beta": lambda a, b: (a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))),
    "chisquare": lambda df: (df, 2 * df),
    "noncentral_chisquare": lambda df, nc: (df + nc, 2 * (df + 2 * nc)),
    "f": lambda m, n: f_moments(m, n),
    "noncentral_f": lambda m, n, nc: f_moments(m, n, nc),
    "standard_t": lambda df: (mpf(0) if df > 1 else NAN, df / (df - 2) if df > 2 else (INF if df > 1 else NAN)),
    "standard_cauchy": lambda: (NAN, NAN),
    "lognormal": lambda m, s: (mp.exp(m + s * s / 2), mp.expm1(s * s) * mp.exp(2 * m + s * s)),
    "laplace": lambda loc, s: (loc, 2 * s * s),
    "logistic": lambda loc, s: (loc, s * s * PI**2 / 3),
    "gumbel": lambda loc, s: (loc + mp.euler * s, PI**2 / 6 * s * s),
    "weibull": weibull_moments,
    "pareto": lambda a: (1 / (a - 1) if a > 1 else INF,
                         a / ((a - 1) ** 2 * (a - 2)) if a > 2 else INF),
    "power": lambda a: (a / (a + 1), a / ((a + 1) ** 2 * (a + 2))),
    "rayleigh": lambda s: (s * mp.sqrt(PI / 2), (4 - PI) / 2 * s * s),
    "vonmises": vonmises_moments,
    "wald": lambda m, lam: (m, m**3 / lam),
    "triangular": lambda l, m, r: ((l + m + r) / 3, (l * l + m * m + r * r - l * m - l * r - m * r) / 18),
    "integers": lambda lo, hi: ((lo + hi - 1) / 2, ((hi - lo) ** 2 - 1) / 12),
    "binomial": lambda n, p: (n * p, n * p * (1 - p)),
    "negative_binomial": lambda n, p: (n * (1 - p) / p, n * (1 - p) / p**2),
    "poisson": lambda lam: (lam, lam),
    "geometric": lambda p: (1 / p, (1 - p) / p**2),
    "hypergeometric": lambda g, b, n: (n * g / (g + b), n * (g / (g + b)) * (b / (g + b)) * (g + b - n) / (g + b - 1)),
    "logseries": logseries_moments,
    "zipf": zipf_moments,
}

# ---- scipy's laws for the same parameters --------------------------------

SCIPY = {
    "random": lambda: st.uniform(),
    "uniform": lambda lo, hi: st.uniform(loc=lo, scale=hi - lo),
    "standard_normal": lambda: st.norm(),
    "normal": lambda loc, s: st.norm(loc=loc, scale=s),
    "standard_exponential": lambda: st.expon(),
    "exponential": lambda s: st.expon(scale=s),
    "standard_gamma": lambda k: st.gamma(k),
    "gamma": lambda k, s: st.gamma(k, scale=s),
    "beta": lambda a, b: st.beta(a, b),
    "chisquare": lambda df: st.chi2(df),
    "noncentral_chisquare": lambda df, nc: st.ncx2(df, nc),
    "f": lambda m, n: st.f(m, n),
    "noncentral_f": lambda m, n, nc: st.ncf(m, n, nc),
    "standard_t": lambda df: st.t(df),
    "standard_cauchy": lambda: st.cauchy(),
    "lognormal": lambda m, s: st.lognorm(s, scale=math.exp(m)),
    "laplace": lambda loc, s: st.laplace(loc=loc, scale=s),
    "logistic": lambda loc, s: st.logistic(loc=loc, scale=s),
    "gumbel": lambda loc, s: st.gumbel_r(loc=loc, scale=s),
    "weibull": lambda a: st.weibull_min(a),
    "pareto": lambda a: st.lomax(a),
    "power": lambda a: st.powerlaw(a),
    "rayleigh": lambda s: st.rayleigh(scale=s),
    # scipy's von Mises is not wrapped into [-pi, pi]: the law of X - mu
    "vonmises": lambda mu, k: st.vonmises(k),
    "wald": lambda m, lam: st.invgauss(m / lam, scale=lam),
    "triangular": lambda l, m, r: st.triang((m - l) / (r - l), loc=l, scale=r - l),
    "integers": lambda lo, hi: st.randint(int(lo), int(hi)),
    "binomial": lambda n, p: st.binom(int(n), p),
    "negative_binomial": lambda n, p: st.nbinom(n, p),
    "poisson": lambda lam: st.poisson(lam),
    "geometric": lambda p: st.geom(p),
    "hypergeometric": lambda g, b, n: st.hypergeom(int(g + b), int(g), int(n)),
    "logseries": lambda p: st.logser(p),
    "zipf": lambda a: st.zipf(a),
}

# ---- the cases ----------------------------------------------------------

CONTINUOUS = [
    ("random", [()]),
    ("uniform", [(0.0, 1.0), (-3.5, 2.25), (1000.0, 1001.0)]),
    ("standard_normal", [()]),
    ("normal", [(0.0, 1.0), (3.5, 0.25), (-1000.0, 40.0)]),
    ("standard_exponential", [()]),
    ("exponential", [(1.0,), (0.3,), (250.0,)]),
    ("standard_gamma", [(0.05,), (0.5,), (1.0,), (3.7,), (100.0,), (10000.0,)]),
    ("gamma", [(2.5, 0.4), (0.3, 7.0), (1000.0, 0.001)]),
    ("beta", [(0.5, 0.5), (2.0, 5.0), (0.1, 3.0), (1.0, 1.0), (100.0, 300.0), (10000.0, 20000.0)]),
    ("chisquare", [(1.0,), (2.0,), (7.0,), (0.3,), (150.0,)]),
    ("noncentral_chisquare", [(3.0, 1.5), (10.0, 50.0), (0.5, 200.0), (2.0, 0.001), (100.0, 1000.0)]),
    ("f", [(1.0, 1.0), (5.0, 2.0), (10.0, 20.0), (0.5, 30.0), (200.0, 300.0)]),
    ("noncentral_f", [(3.0, 20.0, 3.0), (10.0, 5.0, 50.0), (1.0, 1.0, 0.5), (30.0, 40.0, 200.0)]),
    ("standard_t", [(1.0,), (2.5,), (10.0,), (0.3,), (1000.0,)]),
    ("standard_cauchy", [()]),
    ("lognormal", [(0.0, 1.0), (1.5, 0.3), (-2.0, 2.0)]),
    ("laplace", [(0.0, 1.0), (2.0, 0.5)]),
    ("logistic", [(0.0, 1.0), (-3.0, 4.0)]),
    ("gumbel", [(0.0, 1.0), (5.0, 0.2)]),
    ("weibull", [(0.5,), (1.0,), (3.3,)]),
    ("pareto", [(0.7,), (3.0,), (20.0,)]),
    ("power", [(0.3,), (1.0,), (5.0,)]),
    ("rayleigh", [(1.0,), (0.01,), (7.0,)]),
    ("vonmises", [(0.0, 0.5), (0.0, 4.0), (1.0, 100.0), (-2.5, 2.0), (3.0, 0.001), (0.0, 3000.0)]),
    ("wald", [(1.0, 1.0), (3.0, 0.5), (0.2, 40.0), (1.0, 1000.0)]),
    ("triangular", [(0.0, 0.5, 1.0), (-1.0, -1.0, 2.0), (0.0, 3.0, 3.0), (2.0, 2.5, 10.0)]),
]

DISCRETE = [
    ("integers", [(0.0, 2.0), (-5.0, 7.0), (10.0, 1000.0)]),
    ("binomial", [(10.0, 0.3), (1000.0, 0.01), (1000000.0, 0.5), (37.0, 0.999)]),
    ("negative_binomial", [(1.0, 0.5), (3.5, 0.2), (0.3, 0.7), (1000.0, 0.9)]),
    ("poisson", [(0.1,), (3.5,), (1000.0,), (10000000.0,)]),
    ("geometric", [(0.5,), (0.01,), (0.999,)]),
    ("hypergeometric", [(10.0, 20.0, 5.0), (1000.0, 500.0, 300.0), (5.0, 5.0, 10.0), (100000.0, 200000.0, 10000.0)]),
    ("logseries", [(0.1,), (0.6,), (0.999,)]),
    ("zipf", [(1.5,), (2.0,), (3.5,), (10.0,)]),
]


def to_double(v):
    """An mpf rounded to the nearest double (mpmath rounds correctly)."""
    return float(v)


def c_double(v):
    v = float(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(v)


def c_params(ps):
    ps = list(ps) + [0.0] * (3 - len(ps))
    return "{" + ", ".join(c_double(p) for p in ps) + "}"


def rel(a, b):
    if math.isnan(b) or math.isinf(b):
        return 0.0 if (math.isnan(a) and math.isnan(b)) or a == b else math.inf
    return abs(a - b) / abs(b) if b else abs(a)


def sample_x(name, ps):
    if name == "vonmises":
        mu, k = ps
        xs = [-math.pi + 1e-3, -2.0, -1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, math.pi - 1e-3]
        if k >= 100:  # points where the CDF is not below 1e-3 (the series' absolute accuracy)
            sd = 1 / math.sqrt(k)
            xs = [mu + z * sd for z in (-3, -1.5, -0.5, 0, 0.5, 1.5, 3)]
        return xs
    d = SCIPY[name](*ps)
    xs = []
    for q in PROBS:
        x = float(d.ppf(q))
        if math.isfinite(x) and x not in xs:
            xs.append(x)
    lo, hi = (float(v) for v in d.support())
    if math.isfinite(lo):
        xs.append(lo - 1.0)
    if math.isfinite(hi):
        xs.append(hi + 1.0)
    return xs


def sample_k(name, ps):
    d = SCIPY[name](*ps)
    ks = set()
    for q in PROBS + [1e-15]:
        k = d.ppf(q)
        if math.isfinite(k):
            ks.add(int(k))
    lo = int(d.support()[0])
    ks.update({lo - 1, lo, lo + 1})
    return sorted(ks)


def check_numpy_continuous(name, ps, rng):
    """NumPy's draws against scipy's law: the parameterisation is NumPy's."""
    x = getattr(rng, name)(*ps, size=20000)
    d = SCIPY[name](*ps)
    if name == "vonmises":
        x = np.mod(x - ps[0] + np.pi, 2 * np.pi) - np.pi  # scipy's law is that of X - mu
    return st.kstest(x, d.cdf).pvalue


def check_numpy_discrete(name, ps, rng):
    args = [int(p) for p in ps] if name == "integers" else ps
    k = getattr(rng, name)(*args, size=20000)
    d = SCIPY[name](*ps)
    values, counts = np.unique(k, return_counts=True)
    lo, hi = int(values[0]), int(values[-1])
    grid = np.arange(lo, hi + 1)
    expected = d.pmf(grid) * len(k)
    observed = np.zeros(len(grid))
    observed[values - lo] = counts
    # merge neighbours into bins of >= 5 expected; the rest of the mass into the last bin
    bins_e, bins_o, e, o = [], [], 0.0, 0.0
    for ei, oi in zip(expected, observed):
        e, o = e + ei, o + oi
        if e >= 5:
            bins_e.append(e), bins_o.append(o)
            e = o = 0.0
    if bins_e:
        bins_e[-1] += e + len(k) - sum(expected)
        bins_o[-1] += o
    if len(bins_e) < 2:
        return 1.0
    chi2 = sum((oo - ee) ** 2 / ee for oo, ee in zip(bins_o, bins_e))
    return st.chi2.sf(chi2, len(bins_e) - 1)


def main():
    warnings.filterwarnings("ignore", category=RuntimeWarning)  # scipy's moments at their edges
    rng = np.random.default_rng(20240611)
    worst = {"cdf": 0.0, "pmf": 0.0, "mean/var": 0.0}
    cdf_rows, pmf_rows, mom_rows = [], [], []
    failures = []
    for name, sets in CONTINUOUS + DISCRETE:
        discrete = name in MP_PMF
        for ps in sets:
            mps = [mpf(p) for p in ps]
            d = SCIPY[name](*ps)
            if discrete:
                for k in sample_k(name, ps):
                    want = to_double(MP_PMF[name](k, *mps))
                    pmf_rows.append((name, ps, k, want))
                    r = rel(float(d.pmf(k)), want)
                    worst["pmf"] = max(worst["pmf"], r)
                    if r > 1e-6 and want > 1e-300:
                        failures.append(f"{name}{ps} pmf({k}): scipy {float(d.pmf(k))!r}, mpmath {want!r}")
                p = check_numpy_discrete(name, ps, rng)
            else:
                for x in sample_x(name, ps):
                    want = to_double(MP_CDF[name](mpf(x), *mps))
                    cdf_rows.append((name, ps, x, want))
                    if name == "vonmises" and (ps[0] != 0 or ps[1] >= 50):
                        continue  # scipy's is not NumPy's wrapped law there, or a normal approximation
                    got = float(d.cdf(x))
                    r = rel(got, want)
                    worst["cdf"] = max(worst["cdf"], r)
                    if r > 1e-6 and want > 1e-300:
                        failures.append(f"{name}{ps} cdf({x!r}): scipy {got!r}, mpmath {want!r}")
                p = check_numpy_continuous(name, ps, rng)
            if p < 1e-4:
                failures.append(f"{name}{ps}: NumPy's draws do not follow the law (p = {p:.3g})")
            # (quadrature leaves ~1e-50 where a von Mises mean is 0 by symmetry)
            mean, var = (to_double(0 if abs(v) < 1e-40 else v) for v in MP_MOMENTS[name](*mps))
            mom_rows.append((name, ps, mean, var))
            if not (name == "vonmises" and ps[0] != 0):
                smean, svar = (float(v) for v in d.stats(moments="mv"))
                if name == "noncentral_f" and ps[1] <= 2:
                    smean, svar = mean, var  # scipy leaves the infinite moments undefined (NaN)
                r = max(rel(smean, mean) if abs(mean) > 1e-12 else abs(smean - mean), rel(svar, var))
                worst["mean/var"] = max(worst["mean/var"], r)
                if r > 1e-6:
                    failures.append(f"{name}{ps} moments: scipy {smean!r} {svar!r}, mpmath {mean!r} {var!r}")
            print(f"{name}{ps}: NumPy draws p = {p:.3g}", file=sys.stderr)
    special = special_rows()
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)
    print("worst scipy/mpmath disagreement: " + ", ".join(f"{k} {v:.2g}" for k, v in worst.items()),
          file=sys.stderr)
    write(cdf_rows, pmf_rows, mom_rows, special)


def special_rows():
    rows = []
    for a, x in [(0.5, 1e-3), (0.5, 0.5), (0.5, 30.0), (1.0, 1.0), (3.7, 0.01), (3.7, 2.0), (3.7, 3.7),
                 (3.7, 12.0), (10.0, 9.5), (10.0, 40.0), (100.0, 80.0), (100.0, 101.0), (100.0, 130.0),
                 (1000.0, 900.0), (1000.0, 1000.0), (1000.0, 1100.0), (1e5, 1e5 - 700.0), (1e5, 1e5 + 300.0),
                 (0.01, 0.001), (0.01, 2.0), (75.0, 3.0), (2.0, 600.0)]:
        rows.append(("gammainc", a, 0.0, x, to_double(mp.gammainc(a, 0, x, regularized=True))))
        rows.append(("gammaincc", a, 0.0, x, to_double(mp.gammainc(a, x, mp.inf, regularized=True))))
    for a, b, x in [(0.5, 0.5, 0.1), (0.5, 0.5, 0.999), (2.0, 5.0, 0.3), (2.0, 5.0, 0.01), (0.1, 3.0, 0.5),
                    (5.0, 0.5, 0.9999), (100.0, 300.0, 0.2), (100.0, 300.0, 0.27), (1e4, 2e4, 0.33),
                    (1e4, 2e4, 0.34), (30.0, 0.5, 0.2), (1.0, 1.0, 0.25), (0.01, 0.01, 0.5), (50.0, 1.5, 0.999)]:
        rows.append(("betainc", a, b, x, to_double(ibeta(a, b, x))))
    for x in [-37.5, -30.0, -20.0, -8.0, -5.0, -1.0, -1e-3, 0.0, 0.5, 2.0, 6.0, 8.5]:
        rows.append(("ndtr", 0.0, 0.0, x, to_double(mp.ncdf(x))))
        rows.append(("ndtrc", 0.0, 0.0, x, to_double(1 - mp.ncdf(x)) if x < 0 else to_double(mp.ncdf(-x))))
    for s in [1.0001, 1.01, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 7.5, 10.0, 25.0, 60.0]:
        rows.append(("zeta", s, 0.0, 0.0, to_double(mp.zeta(s))))
    for t in [0.1, 0.3, 0.5, 0.8, 1.0, 1.17, 1.19, 1.36, 1.63, 2.0, 3.0, 5.0]:
        q = 2 * mp.nsum(lambda j: (-1) ** (j - 1) * mp.exp(-2 * j * j * mpf(t) ** 2), [1, mp.inf])
        if t < 0.5:  # the theta-function form, for the slow alternating series
            q = 1 - mp.sqrt(2 * PI) / t * mp.nsum(lambda j: mp.exp(-((2 * j - 1) ** 2) * PI**2 / (8 * mpf(t) ** 2)),
                                                   [1, mp.inf])
        if abs(float(q) - sc.kolmogorov(t)) > 1e-12:
            print(f"ks_q({t}): scipy {sc.kolmogorov(t)!r}, mpmath {float(q)!r}", file=sys.stderr)
            sys.exit(1)
        rows.append(("ks_q", t, 0.0, 0.0, to_double(q)))
    return rows


def write(cdf_rows, pmf_rows, mom_rows, special):
    out = [
        f"/* Generated by tools/gen_stats_cases.py (mpmath {mpmath.__version__} at 50 digits, checked against "
        f"scipy {scipy.__version__}",
        f"   and NumPy {np.__version__}'s draws): do not edit. */",
        "#ifndef GPUARR_RANDOM_STATS_CASES_H",
        "#define GPUARR_RANDOM_STATS_CASES_H",
        "",
        "/* A continuous distribution's CDF at x (params in NumPy's order, zero-padded). */",
        "typedef struct stats_cdf_case {",
        "    const char *dist;",
        "    double params[3];",
        "    double x, cdf;",
        "} stats_cdf_case;",
        "static const stats_cdf_case STATS_CDF_CASES[] = {",
    ]
    for name, ps, x, v in cdf_rows:
        out.append(f'    {{"{name}", {c_params(ps)}, {c_double(x)}, {c_double(v)}}},')
    out += [
        "};",
        "",
        "/* A discrete distribution's PMF at k. */",
        "typedef struct stats_pmf_case {",
        "    const char *dist;",
        "    double params[3];",
        "    long long k;",
        "    double pmf;",
        "} stats_pmf_case;",
        "static const stats_pmf_case STATS_PMF_CASES[] = {",
    ]
    for name, ps, k, v in pmf_rows:
        out.append(f'    {{"{name}", {c_params(ps)}, {k}LL, {c_double(v)}}},')
    out += [
        "};",
        "",
        "/* The exact mean and variance (NAN undefined, INFINITY infinite). */",
        "typedef struct stats_moment_case {",
        "    const char *dist;",
        "    double params[3];",
        "    double mean, var;",
        "} stats_moment_case;",
        "static const stats_moment_case STATS_MOMENT_CASES[] = {",
    ]
    for name, ps, m, v in mom_rows:
        out.append(f'    {{"{name}", {c_params(ps)}, {c_double(m)}, {c_double(v)}}},')
    out += [
        "};",
        "",
        "/* Special functions: gammainc(a, x), gammaincc(a, x), betainc(a, b, x), ndtr(x),",
        "   ndtrc(x), zeta(a), ks_q(a); unused arguments are 0. */",
        "typedef struct stats_special_case {",
        "    const char *fn;",
        "    double a, b, x, value;",
        "} stats_special_case;",
        "static const stats_special_case STATS_SPECIAL_CASES[] = {",
    ]
    for fn, a, b, x, v in special:
        out.append(f'    {{"{fn}", {c_double(a)}, {c_double(b)}, {c_double(x)}, {c_double(v)}}},')
    out += ["};", "", "#endif", ""]
    with open(OUT, "w") as f:
        f.write("\n".join(out))
    print(f"{OUT}: {len(cdf_rows)} CDF, {len(pmf_rows)} PMF, {len(mom_rows)} moment and {len(special)} special "
          "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
