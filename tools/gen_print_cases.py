#!/usr/bin/env python3
"""Writes tests/print_cases.h: arrays (dtype, shape, the bytes of their
values) with numpy.array_repr and numpy.array_str of each under NumPy's
default print options, for test_io's host tests of gpuarr's formatter
(ga__format). Arrays larger than the threshold are given as NumPy's
summarised view (each long axis cut to its 3 + 3 edge items) with the
original shape. bfloat16 arrays come last, printed as NumPy prints
ml_dtypes' bfloat16 (each element's repr: the generator needs ml_dtypes).

    python3 tools/gen_print_cases.py > tests/print_cases.h

Deterministic (fixed seeds); NumPy 2 is the oracle."""
import sys

import ml_dtypes
import numpy as np

from gadtypes import GA_ENUM as GA, DTYPE_NAMES, c_str

NPY_NAMES = [n for n in DTYPE_NAMES if n != "bfloat16"]  # NumPy's own dtypes
BF16 = np.dtype(ml_dtypes.bfloat16)


def edges(a, k=3):
    """NumPy's _leading_trailing: each axis longer than 2k cut to its first and last k."""
    for ax in range(a.ndim):
        if a.shape[ax] > 2 * k:
            idx = list(range(k)) + list(range(a.shape[ax] - k, a.shape[ax]))
            a = np.take(a, idx, axis=ax)
    return a


def arrays():
    rng = np.random.default_rng(7)
    out = []
    for name in NPY_NAMES:
        dt = np.dtype(name)
        kind = dt.kind
        if kind == "b":
            vals = [np.array([True, False, True]), np.array(True), np.array([[True], [False]]), np.ones(2000, bool)]
        elif kind in "iu":
            info = np.iinfo(dt)
            vals = [np.array([0, 1, 2], dt), np.array([info.min, info.max, 0], dt), np.array(7, dt),
                    rng.integers(info.min // 2 if kind == "i" else 0, min(info.max, 10**6), (3, 4)).astype(dt),
                    np.arange(30, dtype=dt).reshape(5, 6), np.arange(1100).astype(dt), np.zeros((0,), dt),
                    np.zeros((2, 0), dt), rng.integers(0, 100, (2, 3, 4)).astype(dt)]
        else:
            f = np.float64 if kind == "c" else dt
            cplx = (lambda x, y: np.asarray(x + 1j * y).astype(dt)) if kind == "c" else None
            base = [np.array([1.0, 2.5, -3.0]), np.array([0.1, 0.2, 0.3]), np.array([1e-5, 1.0, 1e5]),
                    np.array([1e10, 1.0]), np.array([np.nan, np.inf, -np.inf, 1.5]), np.array([np.nan, np.inf]),
                    np.array([0.0, -0.0]), np.array(1.0), np.array(0.1), np.array(1e-7), np.array([1.0, 2.0]),
                    np.array([123456789.0, 0.5]), np.array([1 / 3, 2 / 3, 1.0]), rng.standard_normal((4, 5)),
                    rng.standard_normal(40) * 1000, np.linspace(0, 1, 1500), np.zeros((0, 3)),
                    np.array([3.14159265358979, 1e-3]), np.array([65504.0, 1.0]) if name == "float16" else np.array([1e300, 1.0])]
            for v in base:
                if kind == "c":
                    vals.append(cplx(v, v[::-1] if v.ndim else v * 2) if v.ndim <= 1 else cplx(v, -v))
                else:
                    with np.errstate(over="ignore"):
                        vals.append(v.astype(dt))
            if kind == "c":
                vals.append(np.array([1 + 2j, np.nan + 1j, 3 - np.inf * 1j], dt))
        for v in vals:
            out.append(v)
    # random ones: every dtype, up to 4 dims, long rows that wrap, summarised stacks, wide magnitudes
    for i in range(300):
        name = NPY_NAMES[i % len(NPY_NAMES)]
        dt = np.dtype(name)
        nd = int(rng.integers(0, 5))
        shape = tuple(int(rng.choice([1, 2, 3, 5, 7, 9, 13])) for _ in range(nd))
        if i % 10 == 0:
            shape = (int(rng.integers(2, 4)), int(rng.integers(300, 700)))
        n = int(np.prod(shape))
        if dt.kind == "b":
            v = rng.integers(0, 2, n).astype(bool)
        elif dt.kind in "iu":
            info = np.iinfo(dt)
            v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        else:
            scale = 10.0 ** rng.integers(-9, 12, n)
            v = rng.standard_normal(n) * scale * (rng.random(n) < 0.9)
            if i % 7 == 0:
                v[rng.integers(0, n, max(1, n // 5))] = rng.choice([np.nan, np.inf, -np.inf])
            if i % 3 == 0:
                v = np.round(v, int(rng.integers(0, 4)))
            if dt.kind == "c":
                v = v + 1j * rng.permutation(v)
            v = v.astype(dt)
        out.append(v.reshape(shape))
    # powers of two, whose shortest digits may lie above them (the gap above is twice the gap below)
    for name, lo, hi in (("float16", -24, 16), ("float32", -149, 128), ("float64", -1074, 1024)):
        p = np.ldexp(1.0, np.arange(lo, hi)).astype(name)
        out.extend(p[i:i + 200] for i in range(0, len(p), 200))
    return out + bfloat16_arrays()


def bfloat16_arrays():
    """bfloat16 (ml_dtypes): array2string prints each element with repr(), unpadded."""
    rng = np.random.default_rng(11)
    bf = lambda v: np.asarray(v, np.float32).astype(BF16)
    out = [bf([1.5, 3.140625]), bf([0.1, 1e20, 1e-5, np.nan, np.inf, -np.inf, -0.0, 3.0]), bf(1.5), bf(np.nan),
           bf(-np.nan), bf(-np.inf), bf(-0.0), bf(np.arange(2000)), bf(np.zeros((0, 3))), bf(np.zeros(0)),
           bf([[1, 2], [3, 4]]), bf(np.linspace(0, 1, 20)), bf([1e-40, -9e-39, 3.3895314e38, 123456.0, 0.001]),
           bf(np.arange(2400).reshape(3, 800) / 7), bf(np.full((2, 2, 1100), -np.nan))]
    for i in range(40):
        nd = int(rng.integers(0, 5))
        shape = tuple(int(rng.choice([1, 2, 3, 5, 7, 9, 13])) for _ in range(nd))
        n = int(np.prod(shape))
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-9, 12, n) * (rng.random(n) < 0.9)
        if i % 5 == 0:
            v[rng.integers(0, n, max(1, n // 5))] = rng.choice([np.nan, np.inf, -np.inf])
        if i % 3 == 0:
            v = np.round(v, int(rng.integers(0, 4)))
        out.append(bf(v).reshape(shape))
    return out


def main():
    np.seterr(all="ignore")
    w = sys.stdout
    w.write(f"/* Generated by tools/gen_print_cases.py with NumPy {np.__version__}: repr and str of arrays\n"
            "   under the default print options. */\n")
    w.write("typedef struct print_case { ga_dtype dtype; int ndim; int64_t shape[4], cut[4]; int nbytes; "
            "const char *bytes, *repr, *str; } print_case;\n")
    w.write("static const print_case print_cases[] = {\n")
    for a in arrays():
        cut = edges(a) if a.size > 1000 else a
        data = np.ascontiguousarray(cut).tobytes()
        shape = ", ".join(str(s) for s in a.shape) or "0"
        cshape = ", ".join(str(s) for s in cut.shape) or "0"
        hexed = "".join("\\x%02x" % b for b in data)
        with np.errstate(all="ignore"):
            r, s = np.array_repr(a), np.array_str(a)
        ga = "GA_BFLOAT16" if a.dtype == BF16 else GA[a.dtype.name]
        w.write(f"    {{{ga}, {a.ndim}, {{{shape}}}, {{{cshape}}}, {len(data)}, \"{hexed}\",\n"
                f"     {c_str(r)},\n     {c_str(s)}}},\n")
    w.write("};\n")


if __name__ == "__main__":
    main()
