#!/usr/bin/env python3
"""Goodness of fit of the device random algorithms, on the host.

An optional check, never part of the build (it needs numpy and scipy):
builds tests/test_random_alg.cc, has it dump each case's 200000 samples
(each drawn from its own element stream, as on the device), and tests them
against scipy.stats: continuous distributions with Kolmogorov-Smirnov,
discrete ones with chi-square over about 50 bins of equal probability
(bins cut at the distribution's quantiles, so that every expected count is
large), and so are continuous ones with values rounded onto 0 or 1. Prints one p-value a case; with ~100 cases a few below 0.05 are
expected by chance, a p-value below 1e-4 is worth a look.

    python3 tools/random_alg_scipy.py [--cxx g++] [--keep DIR] [--key HEX]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import stats


class Wrapped:
    """vonmises(mu, kappa) of NumPy on [-pi, pi]: the samples are taken
    relative to mu and wrapped into [-pi, pi) before the test against
    scipy's vonmises(kappa) (the uniform for kappa < 1e-8)."""

    def __init__(self, mu, kappa):
        self.mu = mu
        self.dist = stats.uniform(-np.pi, 2 * np.pi) if kappa < 1e-8 else stats.vonmises(kappa)

    def transform(self, x):
        return np.mod(x - self.mu + np.pi, 2 * np.pi) - np.pi

    def cdf(self, x):
        return self.dist.cdf(x)

    def ppf(self, q):
        return self.dist.ppf(q)

    def sf(self, x):
        return self.dist.sf(x)


def vonmises(mu, kappa):
    return Wrapped(mu, kappa)


class Remainder:
    """A dirichlet category of NumPy's stick breaking (every alpha < 0.1)
    past the first: a product of factors 1 - v, which resolve nothing
    below about 1e-16 (NumPy's own samples fail the test there too), so
    its bins start at 1e-15."""

    floor = 1e-15

    def __init__(self, dist):
        self.dist = dist

    def __getattr__(self, name):
        return getattr(self.dist, name)


def remainder(dist):
    return Remainder(dist)


def resolution(x):
    """The smallest and the relative resolution the samples' format has:
    float32 values (standard_gamma_f) or float64."""
    if np.all(x.astype(np.float32) == x):
        return 1e-37, 1e-6
    return 1e-300, 1e-12


def rounded_onto_ends(x):
    """Whether values sit at or below the format's least normal number or
    within its resolution under 1, where mass rounds onto 0 and 1."""
    tiny, eps = resolution(x)
    return bool(np.any(np.abs(x) < tiny) or np.any((x > 1 - eps) & (x <= 1)))


def chi_square(x, dist, bins=50, continuous=False):
    """Chi-square p-value of samples x against a scipy distribution, over
    bins cut at its quantiles (x <= cut falls below it). For a continuous
    one, cuts below the format's least normal number or within its
    resolution under 1 are dropped: the format cannot resolve the mass
    there (standard_gamma(0.001) puts 47% of it below the least double,
    beta(0.05, 0.1) a few percent within 1e-16 of 1), which rounds onto 0
    and 1 as it does in NumPy."""
    cuts = np.unique(dist.ppf(np.linspace(0, 1, bins + 1)[1:-1]))
    cuts = cuts[np.isfinite(cuts)]
    if continuous:
        tiny, eps = resolution(x)
        tiny = max(tiny, getattr(dist, "floor", 0.0))
        cuts = cuts[(np.abs(cuts) >= tiny) & ~((cuts > 1 - eps) & (cuts <= 1))]
    cdf = dist.cdf(cuts)
    probs = np.diff(np.concatenate([[0.0], cdf, [1.0]]))
    probs[-1] = dist.sf(cuts[-1]) if len(cuts) else 1.0
    observed = np.bincount(np.searchsorted(cuts, x, side="left"), minlength=len(probs))
    expected = probs / probs.sum() * len(x)
    keep = expected > 0
    if keep.sum() < 2:
        return float("nan")
    return stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum()).pvalue


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--keep", help="dump into this directory and keep it")
    ap.add_argument("--key", default="0x0123456789ABCDEF", help="the generator key of the draws")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or tmp
        os.makedirs(out, exist_ok=True)
        exe = os.path.join(tmp, "test_random_alg")
        subprocess.run([args.cxx, "-std=c++17", "-O2", "-I", root, "-o", exe,
                        os.path.join(root, "tests", "test_random_alg.cc"), "-lm"], check=True)
        subprocess.run([exe, "--dump", out, args.key], check=True)
        low = 0
        with open(os.path.join(out, "manifest.tsv")) as manifest:
            rows = [line.rstrip("\n").split("\t") for line in manifest]
        for k, kind, expr, name in rows:
            x = np.fromfile(os.path.join(out, k + ".f64"), dtype=np.float64)
            dist = eval(expr, {"stats": stats, "np": np, "vonmises": vonmises, "remainder": remainder})
            if hasattr(dist, "transform"):
                x = dist.transform(x)
            if kind == "d":
                p, test = chi_square(x, dist), "chi2"
            elif rounded_onto_ends(x) or hasattr(dist, "floor"):
                p, test = chi_square(x, dist, continuous=True), "chi2"  # mass rounded onto 0 or 1
            else:
                p, test = stats.kstest(x, dist.cdf).pvalue, "KS"
            low += p < 1e-4
            print(f"{test:4} p = {p:.4f}  {name}  ({expr})")
        print(f"{len(rows)} cases, {low} with p < 1e-4")
        return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
