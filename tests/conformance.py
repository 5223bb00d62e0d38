#!/usr/bin/env python3
"""NumPy conformance of gpuarr, checked through ctypes on the shared library.

Run it (after `make shared`, e.g. `make shared GPUARR_ARCHS=sm_90`):

    python3 tests/conformance.py build/libgpuarr.so [--seed N] [-k TEXT] [-v]

NumPy 2 is the oracle; ml_dtypes (when importable) supplies bfloat16, and
the bfloat16 cases are skipped without it. The checks:

- host checks (no GPU needed): dtype names, sizes and kinds; promote_types,
  can_cast and result_type (NEP 50 weak Python scalars) for every dtype; the
  error reported when no device can be used; for every ufunc of gpuarr.h's
  lists (read from the header), ga_ufunc_name/nin/nout and
  ga_ufunc_resolve_dtypes for every combination of array dtypes and weak
  scalar kinds (where: a bool cond; clip: an array a), under the bfloat16
  rule below.
- device checks, counted as skipped when ga_init() fails: creation (zeros,
  ones, full, arange, linspace, logspace, eye, identity), transfers, copy,
  astype for every pair of dtypes on contiguous, strided, negatively strided
  and broadcast (zero-stride) views, copyto into strided destinations, the
  casting rules of copyto, and argument errors compared with NumPy's.
- device checks of the ufuncs (groups ufunc, ufunc-scalar, ufunc-params,
  ufunc-named, ufunc-out, ufunc-errors): every ufunc on fresh random inputs
  of every dtype (NumPy's error where it has no loop: GA_ERROR_TYPE) and of
  mixed pairs (int64/uint64 and int8/uint64 comparisons, float32 + float64,
  int + float, bool + int, float16 + bfloat16, real + complex, ...), on
  contiguous, strided, negatively strided, zero-stride (broadcast), 0-d and
  empty inputs and broadcasting shapes; the values are drawn per ufunc
  domain (positive for log, [-1, 1] for arcsin, exponents 0..9 for integer
  power, shift counts from -3 to the width + 3, divisors with 0 and -1,
  dividends with INT_MIN, ...) and hold NaN, +-inf, -0.0, 0, the integer
  extremes and equal operands. The named forms ga_X / ga_X_scalar /
  ga_X_rscalar (Python scalars of every kind; out of range ints must be
  GA_ERROR_OVERFLOW with NumPy's message, except in comparisons),
  ga_ufunc_call (the other ufuncs, scalar x/y of where and lo/hi of clip,
  given outputs), ga_divmod / ga_modf / ga_frexp, round with decimals
  -2..3, nan_to_num with default and given values, angle in radians and
  degrees, isclose / allclose with several rtol/atol/equal_nan, clip with
  one bound, real / imag (views that write through); ga_X_out into strided
  views (the rest of the base untouched), into another dtype (same_kind),
  in place and into a view overlapping an input; the result's dtype, shape
  and layout (NumPy's order K along axes longer than 1); errors: shapes that
  do not broadcast, no loop, out= of a bad dtype, shape or read-only (out
  keeps its values), failed two-output calls store nothing.
- device checks of the files (groups npy, npz, npz-compressed), for every
  dtype but bfloat16, on C-order, Fortran-order, strided, 0-d and empty
  arrays: ga_save's files are np.save's bytes and np.load reads them back;
  ga_savez / ga_savez_compressed's archives read by np.load, each member's
  .npy bytes and zip fields (method, versions, flags, system, attributes,
  time, size, CRC-32) those of numpy.savez / savez_compressed's archive of
  the same arrays; ga_load and ga_npz_get read NumPy's files and archives.

Values are compared bit for bit (floats as unsigned integers, so -0.0 and
NaNs count), with these tolerances, each for a stated reason:
- casts between dtypes (astype, copyto) and arange accept any NaN for a
  NaN: NaN payloads and signs differ between float formats, and NaNs made by
  arithmetic (inf - inf) are negative on x86 and positive in CUDA;
- float (or complex) -> uint32 of NaN or values out of range: NumPy's SIMD
  and scalar loops disagree (0x80000000 in one, 0 or a wrapped value in the
  other, by array position), so NumPy's answer for the value in a 1-element
  array, or 0x80000000 for NaN / values <= -2**31, is accepted too (also
  for round of uint32 with decimals < 0, which NumPy computes in float64
  and casts back);
- linspace: float64, complex128 and integers exact, other floats within 1 ulp;
  logspace: the same, except float64/complex128 within 2 ulp (CUDA's pow is
  not correctly rounded; its documented bound is 2 ulp) and integer results
  off by one where the float64 power lies within 4 ulp of an integer.

Ufunc values: integers, bools and comparisons / predicates exactly; floats
bit for bit (any NaN for a NaN) for every function NumPy computes exactly or
correctly rounded: arithmetic (add, subtract, multiply, divide,
floor_divide, remainder, fmod, divmod, negative, positive, absolute, fabs,
sign, square, reciprocal, conjugate), sqrt, rounding (floor, ceil, trunc,
fix, rint, round), maximum / minimum / fmax / fmin / clip, copysign,
nextafter, spacing, ldexp, frexp, modf, heaviside, deg2rad / rad2deg,
where, nan_to_num; float16 and bfloat16 are computed in float32 and
rounded once, so they are exact too. Tolerances, each with its reason:
- transcendental functions (cbrt, exp, exp2, expm1, log, log2, log10,
  log1p, the trigonometric and hyperbolic functions and their inverses,
  sinc, angle, power and float_power of floats, logaddexp, logaddexp2,
  arctan2, hypot, and absolute / sign of complex numbers) within 1 ulp of
  float16 / bfloat16 (2 for angle in degrees: NumPy rounds the radians
  before scaling them), 4 ulp of float32 and float64 (8 for tan, arcsinh,
  arccosh, arctanh, power, logaddexp and logaddexp2, the last two measured
  on the scale of max(1, |result|): a + log1p(exp(b - a)) cancels when the
  result is near 0, so an error of a few ulp of the inputs (drawn near 1)
  is thousands of ulp of the result): CUDA documents up
  to 2-4 ulp for these, NumPy's float32 SIMD loops up to 4 and glibc under
  1; infinities and NaNs must match exactly;
- complex results of transcendental functions (and complex power and sqrt)
  within 1e-5 (complex64) / 1e-13 (complex128) of |NumPy's value| for each
  part; complex multiply, divide, square and reciprocal within 4 eps of it
  (a*b - c*d rounds differently with and without FMA contraction). These
  functions get finite complex inputs of moderate size without signed-zero
  parts: C99 Annex G lets implementations differ in the signs of zero,
  infinite and NaN parts there;
- maximum, minimum, fmax, fmin and clip accept either zero for -0.0 against
  +0.0: NumPy's own answer depends on the element's array position (SIMD
  body or scalar tail);
- NumPy's clip(a, None, None) is not compared (gpuarr.h: not both bounds
  NULL; NumPy 2.4 returns a copy); integer power with a negative exponent
  must fail as NumPy's ValueError does (GA_ERROR_VALUE);
- isclose / allclose inputs are equal, close (relative 1e-7, absolute
  1e-9) or clearly not (1e-2, 1e-6), never near the bound, so that
  computing in float32 or the input's dtype decides alike.

Project rules where NumPy/ml_dtypes give no (or a different) answer:
- bfloat16's kind is 'f' (ml_dtypes reports 'V');
- promote_types: where ml_dtypes has no common dtype, bfloat16 acts like
  float16 against integers (int16/uint16 -> float32, 32/64-bit -> float64)
  and bfloat16 with float16 gives float32;
- can_cast: bfloat16 behaves like float16; bfloat16 <-> float16 is same_kind
  but not safe;
- result_type: a bfloat16 array with a Python float stays bfloat16; with
  several Python scalars only the highest kind counts (NEP 50; ml_dtypes
  promotes them pairwise and fails for bfloat16 with True and 1);
- np.full with a Python int above INT64_MAX into bfloat16 (ml_dtypes cannot
  convert it) is compared with float(value) converted to bfloat16;
- arange cases where NumPy raises OverflowError (a Python int out of range of
  the dtype, e.g. arange(-5, 5, 2, dtype=uint8)) are not compared;
- where np.full raises OverflowError, ga_full must fail with
  GA_ERROR_OVERFLOW and NumPy's message;
- ufunc dtypes with bfloat16 inputs: bfloat16 behaves like float16 (NumPy
  asked with float16 in its place, or float32 when float16 is an input too,
  and float16 answers read as bfloat16); tests/test_ufunc_types.c reports
  the entries where ml_dtypes' own answer differs (a bfloat16 array with a
  Python float gives float32 there, clip gives float32, where has no common
  dtype with int16, ...);
- ufunc values with bfloat16 inputs: NumPy's float32 results on the same
  values, rounded once to the result dtype; except nextafter (ml_dtypes'
  bfloat16 steps), spacing (NumPy's float32/float64 rule, -0.0 included,
  in bfloat16 steps; ml_dtypes gives a negative spacing for -0.0; float16
  and its int8 / uint8 / bool inputs are NumPy's own, never negative),
  round
  (NumPy's float16 algorithm: each of a * 10**d, rint and / 10**d rounded to
  bfloat16) and nan_to_num (ml_dtypes' bfloat16 is not np.inexact, so NumPy
  leaves NaN and inf alone: compared with float32's answer using
  bfloat16's largest value);
- sinc of float16 and bfloat16: NumPy's float32 sinc rounded once (NumPy's
  sinc is Python code that rounds sin(pi x) and pi x to float16 first).

Random data is fresh each run; the seed is printed when something fails and
--seed reproduces it (each check draws from its own stream, seeded by the run
seed and the check's name, so `-k NAME --seed N` reproduces one check).

Random numbers (group generator): ga_random_philox(seed) against
numpy.random.Generator(Philox(seed)) bit for bit (random() in float64 and
float32 in pieces of several sizes, integers over every power-of-two range
of every integer dtype and bool, endpoint or not, for several seeds);
every distribution's result shape and dtype against NumPy's (scalar and
broadcast array parameters, size None, 0-d, empty and n-d, sizes the
parameters do not broadcast to), and NumPy's error words for each
parameter made bad in turn (negative, zero, one, NaN, infinite, huge, as a
scalar and inside an array) and for the relations between parameters.

Random differential testing (group random, last): for a bounded time,
random cases of six categories (ufunc, reduce, scan, index, sort, unique)
over random shapes (0-d, empty, odd sizes, up to 5 dims), every dtype but
bfloat16 and random views (strided, reversed, transposed, broadcast,
offset), with values full of NaN, infinities, -0.0, integer extremes, huge,
tiny and subnormal floats and random bit patterns, each compared with NumPy
as the checks above compare (their tolerances and rules), and where NumPy
raises gpuarr must fail. The environment sets it up:
- GPUARR_DIFF_SECONDS: how long to draw cases (default 60);
- GPUARR_DIFF_SEED: the seed (default --seed, else fresh; printed);
- GPUARR_DIFF_CASE: case numbers to replay alone (comma-separated);
- GPUARR_DIFF_TRACE: print each case's number before it runs (for a crash).
Case N of seed S is the same case on every run (its own stream), so each
disagreement's line, `DIFF category seed=S case=N: the case: the
difference`, replays with GPUARR_DIFF_SEED=S GPUARR_DIFF_CASE=N and `-k
random`. It prints the cases, agreements and disagreements of each
category, and counts one check per category (failed if any disagrees).

Output: `FAIL name: detail` lines (at most a few per check), a summary of
each group, and as the last line `N passed, N failed, N skipped`; the exit
status is 1 if anything failed.
"""

import argparse
import contextlib
import ctypes
import itertools
import math
import os
import re
import sys
import time
import traceback
import warnings
import zlib

import numpy as np

# --------------------------------------------------------------------------
# dtypes, castings, scalars, statuses
# --------------------------------------------------------------------------

# ga_dtype's order (GA_DTYPE_LIST in gpuarr.h).
DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
GA = {name: i for i, name in enumerate(DTYPE_NAMES)}
GA_INVALID = -1
BF16 = GA["bfloat16"]
F16 = GA["float16"]
U32 = GA["uint32"]

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
SAME_KIND = 3
UNSAFE = 4

# ga_scalar_kind, and a Python value standing for each kind.
SCALAR_BOOL, SCALAR_INT, SCALAR_UINT, SCALAR_FLOAT, SCALAR_COMPLEX = range(5)
PY_SCALARS = (True, 1, 2**63, 1.0, 1j)

# ga_status (GA_STATUS_LIST in gpuarr.h); read from the header when found.
STATUS_LIST = (
    ("GA_OK", "no error"),
    ("GA_ERROR_NULL_INPUT", "an argument is NULL"),
    ("GA_ERROR_VALUE", "invalid value"),
    ("GA_ERROR_TYPE", "unsupported dtype or cast"),
    ("GA_ERROR_SHAPE", "shapes do not match"),
    ("GA_ERROR_AXIS", "axis out of bounds"),
    ("GA_ERROR_INDEX", "index out of bounds"),
    ("GA_ERROR_OVERFLOW", "value out of range for the dtype"),
    ("GA_ERROR_OUT_OF_MEMORY", "out of device memory"),
    ("GA_ERROR_HOST_OUT_OF_MEMORY", "out of host memory"),
    ("GA_ERROR_NO_DRIVER", "the CUDA driver could not be loaded"),
    ("GA_ERROR_NO_DEVICE", "no CUDA device is available"),
    ("GA_ERROR_DEVICE", "invalid device"),
    ("GA_ERROR_CUDA", "a CUDA driver call failed"),
    ("GA_ERROR_KERNELS_MISSING", "a kernel fatbin or kernel was not found"),
    ("GA_ERROR_KERNELS_STALE", "a kernel fatbin was built for another version"),
    ("GA_ERROR_STATE", "the call is not valid in the current state"),
    ("GA_ERROR_NOT_IMPLEMENTED", "not implemented"),
    ("GA_ERROR_LIBRARY", "a CUDA library or zlib could not be loaded"),
    ("GA_ERROR_LINALG", "a linear algebra error (numpy.linalg.LinAlgError)"),
)

GA_C_CONTIGUOUS, GA_F_CONTIGUOUS, GA_WRITEABLE, GA_OWNDATA = 1, 2, 4, 8


def read_status_list(header):
    """GA_STATUS_LIST's (name, text) pairs from gpuarr.h, or None."""
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"#define GA_STATUS_LIST\(X\)(.*?)typedef enum ga_status", text, re.S)
    if not m:
        return None
    pairs = re.findall(r'X\((GA_\w+),\s*"((?:[^"\\]|\\.)*)"\)', m.group(1))
    return tuple(pairs) or None


def load_bfloat16():
    try:
        import ml_dtypes
    except ImportError:
        return None, None
    return np.dtype(ml_dtypes.bfloat16), ml_dtypes.__version__


@contextlib.contextmanager
def quiet():
    """NumPy without warnings (ComplexWarning, casts of NaN/inf, overflow)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


# --------------------------------------------------------------------------
# ctypes: the library and its prototypes
# --------------------------------------------------------------------------

class _Complex(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class _ScalarValue(ctypes.Union):
    _fields_ = [("b", ctypes.c_bool), ("i", ctypes.c_int64), ("u", ctypes.c_uint64),
                ("f", ctypes.c_double), ("c", _Complex)]


class GaScalar(ctypes.Structure):
    """ga_scalar: {ga_scalar_kind kind; union {...} value;}, passed by value."""
    _fields_ = [("kind", ctypes.c_int), ("value", _ScalarValue)]


def ga_scalar(v):
    """The ga_scalar standing for Python value `v` (bool, int, float, complex)."""
    s = GaScalar()
    if isinstance(v, bool):
        s.kind, s.value.b = SCALAR_BOOL, v
    elif isinstance(v, int):
        if -2**63 <= v < 2**63:
            s.kind, s.value.i = SCALAR_INT, v
        elif 2**63 <= v < 2**64:
            s.kind, s.value.u = SCALAR_UINT, v
        else:
            raise ValueError(f"{v} does not fit a ga_scalar")
    elif isinstance(v, float):
        s.kind, s.value.f = SCALAR_FLOAT, v
    elif isinstance(v, complex):
        s.kind, s.value.c.re, s.value.c.im = SCALAR_COMPLEX, v.real, v.imag
    else:
        raise TypeError(f"no ga_scalar for {v!r}")
    return s


_c = ctypes
_ARR = _c.c_void_p                  # ga_array *
_I64P = _c.POINTER(_c.c_int64)      # const int64_t *
_DT = _c.c_int                      # ga_dtype
_ST = _c.c_int                      # ga_status

# name: (restype, argtypes) of every function this script calls.
PROTOTYPES = {
    "ga_init": (_ST, []),
    "ga_version": (_c.c_int, []),
    "ga_device_count": (_c.c_int, []),
    "ga_device_synchronize": (_ST, []),
    "ga_last_error": (_ST, []),
    "ga_last_error_message": (_c.c_char_p, []),
    "ga_clear_error": (None, []),
    "ga_status_string": (_c.c_char_p, [_ST]),
    "ga_dtype_name": (_c.c_char_p, [_DT]),
    "ga_dtype_from_name": (_DT, [_c.c_char_p]),
    "ga_dtype_itemsize": (_c.c_size_t, [_DT]),
    "ga_dtype_kind": (_c.c_char, [_DT]),
    "ga_promote_types": (_DT, [_DT, _DT]),
    "ga_can_cast": (_c.c_bool, [_DT, _DT, _c.c_int]),
    "ga_result_type": (_DT, [_c.c_int, _c.POINTER(_DT), _c.c_int, _c.POINTER(GaScalar)]),
    "ga_ndim": (_c.c_int, [_ARR]),
    "ga_shape": (_I64P, [_ARR]),
    "ga_strides": (_I64P, [_ARR]),
    "ga_size": (_c.c_int64, [_ARR]),
    "ga_dtype_of": (_DT, [_ARR]),
    "ga_nbytes": (_c.c_size_t, [_ARR]),
    "ga_flags": (_c.c_int, [_ARR]),
    "ga_as_strided": (_ARR, [_ARR, _c.c_int, _I64P, _I64P, _c.c_int64]),
    "ga_release": (None, [_ARR]),
    "ga_empty": (_ARR, [_c.c_int, _I64P, _DT]),
    "ga_zeros": (_ARR, [_c.c_int, _I64P, _DT]),
    "ga_ones": (_ARR, [_c.c_int, _I64P, _DT]),
    "ga_full": (_ARR, [_c.c_int, _I64P, GaScalar, _DT]),
    "ga_arange": (_ARR, [_c.c_double, _c.c_double, _c.c_double, _DT]),
    "ga_arange_int": (_ARR, [_c.c_int64, _c.c_int64, _c.c_int64, _DT]),
    "ga_linspace": (_ARR, [_c.c_double, _c.c_double, _c.c_int64, _c.c_bool, _DT]),
    "ga_logspace": (_ARR, [_c.c_double, _c.c_double, _c.c_int64, _c.c_bool, _c.c_double, _DT]),
    "ga_eye": (_ARR, [_c.c_int64, _c.c_int64, _c.c_int64, _DT]),
    "ga_identity": (_ARR, [_c.c_int64, _DT]),
    "ga_from_host": (_ARR, [_c.c_void_p, _c.c_int, _I64P, _DT]),
    "ga_to_host": (_ST, [_ARR, _c.c_void_p, _c.c_size_t]),
    "ga_copy": (_ARR, [_ARR]),
    "ga_astype": (_ARR, [_ARR, _DT]),
    "ga_copyto": (_ST, [_ARR, _ARR, _c.c_int]),
}


def load_library(path, extra=None):
    """The library with PROTOTYPES (and `extra` ones) declared."""
    lib = ctypes.CDLL(os.path.abspath(path))
    for name, (restype, argtypes) in {**PROTOTYPES, **(extra or {})}.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def i64s(values):
    """An int64_t array for a shape or strides."""
    values = [int(v) for v in values]
    return (ctypes.c_int64 * len(values))(*values)


class GaError(Exception):
    pass


# --------------------------------------------------------------------------
# The environment shared by the checks
# --------------------------------------------------------------------------

class Env:
    def __init__(self, lib, bf16, statuses, seed):
        self.lib = lib
        self.bf16 = bf16
        self.statuses = statuses
        self.status = {name: i for i, (name, _) in enumerate(statuses)}
        self.seed = seed
        self.init_status = None
        self.has_device = False

    # dtype mapping ----------------------------------------------------------
    def np_dtype(self, ga):
        """The NumPy dtype of ga_dtype `ga` (bfloat16 needs ml_dtypes)."""
        if ga == BF16:
            if self.bf16 is None:
                raise GaError("bfloat16 needs ml_dtypes")
            return self.bf16
        return np.dtype(DTYPE_NAMES[ga])

    def ga_dtype(self, dt):
        """The ga_dtype of NumPy dtype `dt`."""
        return GA[np.dtype(dt).name]

    def has(self, *gas):
        return self.bf16 is not None or BF16 not in gas

    # errors -----------------------------------------------------------------
    def last_error(self):
        return self.lib.ga_last_error(), self.lib.ga_last_error_message().decode()

    def fail_call(self, what):
        st, msg = self.last_error()
        name = self.statuses[st][0] if 0 <= st < len(self.statuses) else st
        raise GaError(f"{what} failed ({name}): {msg}")


class Check:
    """One running check: collects failures and owns its device arrays."""

    def __init__(self, env, name):
        self.env, self.lib, self.name = env, env.lib, name
        self.failures = []
        self.arrays = []
        self.rng = np.random.default_rng([env.seed, zlib.crc32(name.encode())])

    def fail(self, detail):
        self.failures.append(detail)

    def expect(self, cond, detail):
        if not cond:
            self.fail(detail)
        return bool(cond)

    def own(self, ptr, what="call"):
        """Takes ownership of an array the library returned (released at the end)."""
        if not ptr:
            self.env.fail_call(what)
        self.arrays.append(ptr)
        return ptr

    def release_all(self):
        for p in reversed(self.arrays):
            self.lib.ga_release(p)
        self.arrays.clear()


class Runner:
    """Runs named checks; counts passed, failed and skipped ones."""

    MAX_FAIL_LINES = 3

    def __init__(self, env, pattern=None, verbose=False):
        self.env, self.pattern, self.verbose = env, pattern, verbose
        self.passed = self.failed = self.skipped = 0
        self.groups = {}  # group -> [passed, failed, skipped]

    def _count(self, name, what):
        group = name.split("/")[0]
        counts = self.groups.setdefault(group, [0, 0, 0])
        counts[what] += 1

    def run(self, name, fn, *args, device=False, needs=()):
        """Runs fn(check, *args). `device`: skipped without a GPU; `needs`:
        ga_dtypes the check uses (bfloat16 ones are skipped without ml_dtypes)."""
        if self.pattern and self.pattern not in name:
            return
        if (device and not self.env.has_device) or not self.env.has(*needs):
            self.skipped += 1
            self._count(name, 2)
            return
        t = Check(self.env, name)
        try:
            fn(t, *args)
        except Exception as e:  # a crash of the check is its failure
            tb = traceback.extract_tb(e.__traceback__)[-1]
            t.fail(f"{type(e).__name__}: {e} (line {tb.lineno})")
        finally:
            t.release_all()
        if t.failures:
            self.failed += 1
            self._count(name, 1)
            for detail in t.failures[:self.MAX_FAIL_LINES]:
                print(f"FAIL {name}: {detail}")
            if len(t.failures) > self.MAX_FAIL_LINES:
                print(f"FAIL {name}: ... and {len(t.failures) - self.MAX_FAIL_LINES} more")
        else:
            self.passed += 1
            self._count(name, 0)
            if self.verbose:
                print(f"ok   {name}")


# --------------------------------------------------------------------------
# Arrays: upload, download, views
# --------------------------------------------------------------------------

def to_device(t, arr):
    """A new device array with the values of NumPy array `arr` (owned by t)."""
    env = t.env
    arr = np.asarray(arr)
    if not arr.flags.c_contiguous:
        arr = arr.copy(order="C")
    p = t.lib.ga_from_host(arr.ctypes.data, arr.ndim, i64s(arr.shape), env.ga_dtype(arr.dtype))
    return t.own(p, "ga_from_host")


def shape_of(t, p):
    n = t.lib.ga_ndim(p)
    s = t.lib.ga_shape(p)
    return tuple(s[i] for i in range(n))


def strides_of(t, p):
    n = t.lib.ga_ndim(p)
    s = t.lib.ga_strides(p)
    return tuple(s[i] for i in range(n))


def to_numpy(t, p):
    """The values of device array `p`, as a NumPy array of its dtype and shape."""
    out = np.empty(shape_of(t, p), t.env.np_dtype(t.lib.ga_dtype_of(p)))
    st = t.lib.ga_to_host(p, out.ctypes.data, out.nbytes)
    if st != 0:
        t.env.fail_call("ga_to_host")
    return out


# A view is (label, shape, strides in elements, offset in elements) over a
# 1-d base of BASE_N elements (thought of as 40 x 60).
BASE_N = 2400
VIEWS = (
    ("rows reversed, every 2nd column", (20, 30), (-120, 2), 39 * 60 + 1),
    ("transposed, every 3rd row", (20, 40), (3, 60), 0),
    ("zero stride, reversed rows", (3, 7, 50), (0, -50, 1), 6 * 50 + 100),
    ("1-d reversed", (BASE_N,), (-1,), BASE_N - 1),
    ("0-d", (), (), 1234),
    ("empty", (0, 5), (60, 1), 0),
)


def host_view(base, shape, strides, offset):
    """NumPy's view of the 1-d `base` (strides and offset in elements)."""
    isz = base.itemsize
    return np.lib.stride_tricks.as_strided(base[offset:], shape, [s * isz for s in strides])


def device_view(t, dbase, itemsize, shape, strides, offset):
    """ga_as_strided's view of the device array `dbase` (owned by t)."""
    p = t.lib.ga_as_strided(dbase, len(shape), i64s(shape), i64s([s * itemsize for s in strides]),
                            offset * itemsize)
    return t.own(p, "ga_as_strided")


# --------------------------------------------------------------------------
# Bitwise comparison
# --------------------------------------------------------------------------

# Float formats: (exponent mask, mantissa mask, sign bit).
FLOAT_FORMATS = {
    "float16": (0x7C00, 0x03FF, 0x8000),
    "bfloat16": (0x7F80, 0x007F, 0x8000),
    "float32": (0x7F800000, 0x007FFFFF, 0x80000000),
    "float64": (0x7FF0000000000000, 0x000FFFFFFFFFFFFF, 0x8000000000000000),
}


def component_format(dt):
    """The float format of dt's components ('float32' for complex64), or None."""
    name = np.dtype(dt).name
    if name == "complex64":
        return "float32"
    if name == "complex128":
        return "float64"
    return name if name in FLOAT_FORMATS else None


def bits(a):
    """The flat unsigned bit patterns of a's components (complex: re, im)."""
    a = np.ascontiguousarray(np.asarray(a).reshape(-1))
    size = a.itemsize // 2 if a.dtype.kind == "c" else a.itemsize
    return a.view(np.dtype(f"u{size}"))


def nan_mask(b, fmt):
    exp, mant, _ = FLOAT_FORMATS[fmt]
    t = b.dtype.type
    return ((b & t(exp)) == t(exp)) & ((b & t(mant)) != 0)


def inf_mask(b, fmt):
    exp, mant, _ = FLOAT_FORMATS[fmt]
    t = b.dtype.type
    return (b & t(exp | mant)) == t(exp)


def ulp_distance(g, w, fmt):
    """|g - w| in units in the last place, from bit patterns (as float64)."""
    sign = g.dtype.type(FLOAT_FORMATS[fmt][2])
    mg = (g & ~sign).astype(np.int64)
    mw = (w & ~sign).astype(np.int64)
    same = (g & sign) == (w & sign)
    return np.where(same, np.abs(mg - mw).astype(np.float64),
                    mg.astype(np.float64) + mw.astype(np.float64))


def show(a, i):
    """Component i of flat array `a` (its value and bits)."""
    flat = np.asarray(a).reshape(-1)
    b = bits(flat)
    if flat.dtype.kind == "c":
        part = ("re", "im")[i % 2]
        v = flat[i // 2]
        v = v.real if part == "re" else v.imag
        return f"{v!r}[{part}]=0x{int(b[i]):x}"
    v = flat[i]
    return f"{v!r}=0x{int(b[i]):x}" if component_format(flat.dtype) else f"{v!r}"


def lone_cast(values, to):
    """NumPy's cast of each value alone (a 1-element array): the scalar loop."""
    with quiet():
        return np.array([values[i:i + 1].astype(to)[0] for i in range(len(values))], dtype=to)


def compare(t, label, got, want, *, src=None, nan_any=False, ulps=None, accept=None):
    """Checks got == want: dtype, shape, then bits. `src`: the cast's source
    values (want's shape), for the uint32 quirk and for messages; `nan_any`:
    any NaN matches a NaN; `ulps`: finite float components within that many
    ulp (infinities and NaNs still must match); `accept(flat_indices) ->
    bool mask`: extra accepted positions (flat component indices: a complex
    element i has components 2i and 2i + 1)."""
    if got.dtype != want.dtype:
        t.fail(f"{label}: dtype {got.dtype} != NumPy's {want.dtype}")
        return False
    if got.shape != want.shape:
        t.fail(f"{label}: shape {got.shape} != NumPy's {want.shape}")
        return False
    g, w = bits(got), bits(want)
    bad = g != w
    fmt = component_format(want.dtype)
    if fmt and bad.any():
        if nan_any:
            bad &= ~(nan_mask(g, fmt) & nan_mask(w, fmt))
        if ulps:
            # infinities and NaNs are never "close" to a finite value
            special = nan_mask(g, fmt) | inf_mask(g, fmt) | nan_mask(w, fmt) | inf_mask(w, fmt)
            bad &= ~((ulp_distance(g, w, fmt) <= ulps) & ~special)
    if bad.any() and src is not None and want.dtype == np.uint32 \
            and component_format(src.dtype) is not None:
        # float/complex -> uint32: NumPy's SIMD and scalar loops disagree.
        idx = np.nonzero(bad)[0]
        s = np.asarray(src).reshape(-1)[idx]
        lone = bits(lone_cast(s, np.uint32))
        with quiet():
            re_ = np.asarray(s.real if s.dtype.kind == "c" else s).astype(np.float64)
        ok = (g[idx] == lone) | ((g[idx] == 0x80000000) & (np.isnan(re_) | (re_ <= -2.0**31)))
        bad[idx[ok]] = False
    if bad.any() and accept is not None:
        idx = np.nonzero(bad)[0]
        bad[idx[accept(idx)]] = False
    if not bad.any():
        return True
    idx = np.nonzero(bad)[0]
    shown = []
    for i in idx[:3]:
        e = int(i) // 2 if want.dtype.kind == "c" else int(i)
        pos = np.unravel_index(e, want.shape) if want.ndim else ()
        s = f" from {np.asarray(src).reshape(-1)[e]!r}" if src is not None else ""
        shown.append(f"at {tuple(int(p) for p in pos)}{s}: got {show(got, i)}, NumPy {show(want, i)}")
    t.fail(f"{label}: {len(idx)} of {g.size} differ; " + "; ".join(shown))
    return False


# --------------------------------------------------------------------------
# NumPy oracles for type promotion (with the project's bfloat16 rules)
# --------------------------------------------------------------------------

def kind_of(ga):
    return "f" if ga == BF16 else np.dtype(DTYPE_NAMES[ga]).kind


def itemsize_of(ga):
    return 2 if ga == BF16 else np.dtype(DTYPE_NAMES[ga]).itemsize


def oracle_promote(env, a, b):
    try:
        return env.ga_dtype(np.promote_types(env.np_dtype(a), env.np_dtype(b)))
    except TypeError:
        if BF16 not in (a, b):
            raise
    other = b if a == BF16 else a  # ml_dtypes has no common dtype
    if other == F16:
        return GA["float32"]
    if kind_of(other) in "iu":
        return GA["float32"] if itemsize_of(other) <= 2 else GA["float64"]
    raise GaError(f"no promotion rule for bfloat16 with {DTYPE_NAMES[other]}")


def oracle_can_cast(env, frm, to, casting):
    if BF16 in (frm, to):
        if {frm, to} == {BF16, F16}:
            return casting >= SAME_KIND
        frm = F16 if frm == BF16 else frm
        to = F16 if to == BF16 else to
    return bool(np.can_cast(env.np_dtype(frm), env.np_dtype(to), CASTINGS[casting]))


def oracle_result_type(env, dtypes, scalars):
    """np.result_type of arrays of `dtypes` and Python `scalars` (NEP 50)."""
    if not dtypes:
        return env.ga_dtype(np.result_type(*scalars))
    if BF16 not in dtypes:
        return env.ga_dtype(np.result_type(*(np.empty(1, env.np_dtype(d)) for d in dtypes), *scalars))
    r = dtypes[0]
    for d in dtypes[1:]:
        r = oracle_promote(env, r, d)
    if r != BF16:
        return env.ga_dtype(np.result_type(np.empty(1, env.np_dtype(r)), *scalars))
    if not scalars:
        return r
    # ml_dtypes promotes several weak scalars pairwise, in order (bfloat16 with
    # True and 1 raises); under NEP 50 only the highest kind among them counts.
    top = max(scalars, key=scalar_rank)
    res = env.ga_dtype(np.result_type(np.empty(1, env.bf16), top))
    if res == GA["float64"] and isinstance(top, float):
        res = BF16  # project rule: bfloat16 with a Python float stays bfloat16
    return res


def scalar_rank(v):
    """NEP 50's order of Python scalar kinds: bool < int < float < complex."""
    return 0 if isinstance(v, bool) else 1 if isinstance(v, int) else 2 if isinstance(v, float) else 3


def ga_result_type(lib, dtypes, scalars):
    dts = (ctypes.c_int * len(dtypes))(*dtypes) if dtypes else None
    scs = (GaScalar * len(scalars))(*(ga_scalar(s) for s in scalars)) if scalars else None
    return lib.ga_result_type(len(dtypes), dts, len(scalars), scs)


def dname(ga):
    return DTYPE_NAMES[ga] if 0 <= ga < len(DTYPE_NAMES) else f"invalid({ga})"


# --------------------------------------------------------------------------
# Host checks
# --------------------------------------------------------------------------

def check_dtype_info(t, ga):
    lib, env = t.lib, t.env
    dt = env.np_dtype(ga)
    name = lib.ga_dtype_name(ga).decode()
    t.expect(name == dt.name, f"ga_dtype_name({ga}) = {name!r}, NumPy {dt.name!r}")
    got = lib.ga_dtype_from_name(dt.name.encode())
    t.expect(got == ga, f"ga_dtype_from_name({dt.name!r}) = {got}, expected {ga}")
    size = lib.ga_dtype_itemsize(ga)
    t.expect(size == dt.itemsize, f"ga_dtype_itemsize = {size}, NumPy {dt.itemsize}")
    kind = lib.ga_dtype_kind(ga).decode()
    want = "f" if ga == BF16 else dt.kind  # ml_dtypes says 'V'
    t.expect(kind == want, f"ga_dtype_kind = {kind!r}, expected {want!r}")


def check_dtype_invalid(t):
    lib = t.lib
    for bad in (-1, len(DTYPE_NAMES), 99):
        t.expect(lib.ga_dtype_name(bad) == b"invalid", f"ga_dtype_name({bad}) is not 'invalid'")
        t.expect(lib.ga_dtype_itemsize(bad) == 0, f"ga_dtype_itemsize({bad}) != 0")
        t.expect(lib.ga_dtype_kind(bad) == b"\0", f"ga_dtype_kind({bad}) != 0")
    for name in (b"float128", b"Float32", b"int", b"", None):
        got = lib.ga_dtype_from_name(name)
        t.expect(got == GA_INVALID, f"ga_dtype_from_name({name!r}) = {got}, expected -1")


def check_status_strings(t):
    lib = t.lib
    for i, (name, text) in enumerate(t.env.statuses):
        got = lib.ga_status_string(i).decode()
        t.expect(got == text, f"ga_status_string({name}) = {got!r}, header says {text!r}")
    got = lib.ga_status_string(len(t.env.statuses))
    t.expect(got == b"unknown status", f"ga_status_string(past the end) = {got!r}")


def check_promote(t, a, b):
    got = t.lib.ga_promote_types(a, b)
    want = oracle_promote(t.env, a, b)
    t.expect(got == want, f"ga_promote_types({dname(a)}, {dname(b)}) = {dname(got)}, NumPy {dname(want)}")


def check_can_cast(t, frm, to):
    for c in range(len(CASTINGS)):
        got = t.lib.ga_can_cast(frm, to, c)
        want = oracle_can_cast(t.env, frm, to, c)
        t.expect(got == want, f"ga_can_cast({dname(frm)}, {dname(to)}, {CASTINGS[c]}) = {got}, NumPy {want}")


def _check_result(t, dtypes, scalars):
    got = ga_result_type(t.lib, dtypes, scalars)
    want = oracle_result_type(t.env, dtypes, scalars)
    t.expect(got == want, f"ga_result_type([{', '.join(dname(d) for d in dtypes)}], "
                          f"{list(scalars)}) = {dname(got)}, NumPy {dname(want)}")


def check_result_type(t, ga):
    for s in PY_SCALARS:
        _check_result(t, [ga], [s])
    for pair in itertools.combinations_with_replacement(PY_SCALARS, 2):
        _check_result(t, [ga], list(pair))
    for other in range(len(DTYPE_NAMES)):
        if not t.env.has(other):
            continue
        _check_result(t, [ga, other], [])
        for s in PY_SCALARS:
            _check_result(t, [ga, other], [s])


def check_result_type_scalars(t):
    for n in (1, 2, 3):
        for combo in itertools.combinations_with_replacement(PY_SCALARS, n):
            _check_result(t, [], list(combo))


def libcuda_loadable():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def check_no_device_errors(t):
    """Without a usable device: creation fails, naming the function and cause."""
    lib, env = t.lib, t.env
    init = env.init_status
    lib.ga_clear_error()
    p = lib.ga_zeros(1, i64s([3]), GA["float32"])
    if p:
        lib.ga_release(p)
    t.expect(not p, "ga_zeros returned an array although ga_init failed")
    st, msg = env.last_error()
    t.expect(st == init, f"ga_last_error() = {st} after ga_zeros, ga_init gave {init}")
    t.expect(msg.startswith("ga_zeros: "), f"message does not name ga_zeros: {msg!r}")
    if init == env.status["GA_ERROR_NO_DRIVER"]:
        t.expect("CUDA driver" in msg, f"message does not name the CUDA driver: {msg!r}")
        if not libcuda_loadable():
            t.expect("could not be loaded" in msg,
                     f"message does not say the driver could not be loaded: {msg!r}")
        t.expect(lib.ga_device_count() == -1, "ga_device_count() != -1 without a driver")
    again = lib.ga_init()
    t.expect(again == init, f"a second ga_init() = {again}, the first gave {init}")


# --------------------------------------------------------------------------
# Random data for casts
# --------------------------------------------------------------------------

INT_BOUNDS = (2.0**7, 2.0**8, 2.0**15, 2.0**16, 2.0**31, 2.0**32, 2.0**53, 2.0**63, 2.0**64)
FLOAT_SPECIALS = (math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, 1.0, -1.0,
                  1.5, -1.5, 2.5, -2.5, 127.5, -128.5, 255.5, 256.0, -129.0, 65504.0, 65520.0,
                  -32768.5, 2147483647.0, -2147483648.0, 2147483648.0, -2147483649.0,
                  4294967295.0, 4294967296.0, 9.2233720368547758e18, -9.2233720368547758e18,
                  1.8446744073709552e19, 5e-324, 1e-310, 1e-40, 6e-8, 1e-5, 3.4028234663852886e38,
                  3.5e38, 1.7976931348623157e308, -1.7976931348623157e308)


def random_floats(rng, n):
    """float64 values exercising casts: wide magnitudes, both signs, values
    near integer dtypes' bounds, small integers and halves, and specials."""
    sign = rng.choice([-1.0, 1.0], n)
    wide = sign * 10.0 ** rng.uniform(-12, 25, n)
    bound = rng.choice(INT_BOUNDS, n)
    near = sign * (bound + rng.choice([-2.5, -1, -0.5, 0, 0.5, 1, 2.5], n)
                   + bound * rng.integers(-4, 5, n) * 2.0**-52)
    near32 = sign * bound * (1 + rng.integers(-4, 5, n) * 2.0**-23)
    small = rng.integers(-300, 301, n) / rng.choice([1.0, 2.0, 4.0, 10.0], n)
    pick = rng.integers(0, 4, n)
    x = np.choose(pick, [wide, near, near32, small])
    k = min(n, len(FLOAT_SPECIALS))
    x[rng.choice(n, k, replace=False)] = FLOAT_SPECIALS[:k]
    return x


def random_values(t, ga, n):
    """n random values of ga_dtype `ga`, drawn to exercise casts from it."""
    rng, dt = t.rng, t.env.np_dtype(ga)
    kind = kind_of(ga)
    if kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        specials = [0, 1, info.max, info.min, info.max - 1, info.min + 1] + ([-1] if kind == "i" else [])
        k = min(n, len(specials))
        v[rng.choice(n, k, replace=False)] = specials[:k]
        # small values too: they survive narrowing casts
        small = rng.choice(n, n // 4, replace=False)
        lo = max(int(info.min), -300)
        v[small] = rng.integers(lo, 301, len(small)).astype(dt)
        return v
    with quiet():
        if kind == "f":
            return random_floats(rng, n).astype(dt)
        return (random_floats(rng, n) + 1j * random_floats(rng, n)).astype(dt)


# --------------------------------------------------------------------------
# Device checks: creation
# --------------------------------------------------------------------------

SHAPES = ((), (0,), (7,), (3, 5), (2, 3, 4), (1025,))
FULL_VALUES = (False, True, 0, 1, -1, 7, 127, 128, -128, -129, 255, 256, 300, 65535, 65536,
               -32769, 2**31 - 1, 2**31, -2**31 - 1, 2**32, 2**53 + 1, 2**63 - 1, -2**63, 2**63,
               2**64 - 1, 0.0, -0.0, 1.5, -2.75, 0.1, 1e-8, 6e-8, 65504.0, 65520.0, 70000.0,
               3.4e38, 3.5e38, 1e300, -1e300, 5e-324, math.nan, -math.nan, math.inf, -math.inf,
               2.5, -1.5, 1e10, -1e10, 4294967296.0, 1 + 2j, complex(-0.0, -0.5),
               complex(math.nan, 1), 1j, 3.5 + 0j)


def numpy_full(env, shape, value, dt):
    with quiet():
        try:
            return np.full(shape, value, dt)
        except TypeError:
            # ml_dtypes cannot convert Python ints above INT64_MAX: compare with
            # float(value) converted (the value NumPy's own floats would take).
            if dt == env.bf16 and isinstance(value, int) and value >= 2**63:
                return np.full(shape, float(value)).astype(dt)
            raise


def check_full(t, ga):
    lib, env = t.lib, t.env
    dt = env.np_dtype(ga)
    for shape in SHAPES:
        for label, fn, want in (("zeros", lib.ga_zeros, np.zeros(shape, dt)),
                                ("ones", lib.ga_ones, np.ones(shape, dt))):
            p = t.own(fn(len(shape), i64s(shape), ga), f"ga_{label}")
            compare(t, f"{label}{shape}", to_numpy(t, p), want)
        for value in FULL_VALUES:
            if shape not in ((7,), (3, 5)) and value not in (True, -1, 1.5, math.nan, 1 + 2j):
                continue  # every value on two shapes, a few on all of them
            label = f"full({shape}, {value!r})"
            lib.ga_clear_error()
            p = lib.ga_full(len(shape), i64s(shape), ga_scalar(value), ga)
            try:
                want = numpy_full(env, shape, value, dt)
            except OverflowError as e:
                if p:
                    t.own(p)
                    t.fail(f"{label}: returned an array; NumPy raises OverflowError({e})")
                    continue
                want = f"ga_full: {e}"  # NumPy's own words
                st, msg = env.last_error()
                t.expect(st == env.status["GA_ERROR_OVERFLOW"] and msg == want,
                         f"{label}: error {st} {msg!r}; NumPy raises OverflowError({str(e)!r})")
                continue
            t.own(p, label)
            src = np.full(shape, value) if isinstance(value, (float, complex)) else None
            compare(t, label, to_numpy(t, p), want, src=src)


ARANGE_CASES = ((0, 10, 1), (0, 10, 3), (10, 0, -1), (10, 0, -3), (0, 1, 0.1), (-1, 1, 0.25),
                (1, -1, -0.3), (0.5, 5.5, 1.5), (5, 5, 1), (5, 0, 1), (0, 5, -1), (-3.7, 4.2, 0.9),
                (2.5, -7.5, -2.5), (0, 300, 1), (-100, 100, 7.5), (1e3, 1e3 + 1, 1e-2),
                (0.9, 5.5, 1.3), (-0.9, 5.5, 1.3), (0, 2, 1), (1, 3, 1), (0.5, 1.5, 0.5),
                (1, 0, -1), (0, 1, 1), (0, 3, 1), (65500, 65530, 3), (2**40, 2**40 + 5, 1))
ARANGE_INT_CASES = ((0, 10, 1), (0, 10, 3), (10, 0, -1), (10, -10, -3), (5, 5, 1), (5, 0, 1),
                    (0, 5, -1), (-5, 5, 2), (0, 300, 1), (-7, 100, 9), (0, 2, 1), (1, 3, 1),
                    (1, -1, -1), (0, 3, 1), (2**40, 2**40 + 5, 1), (2**62, 2**62 - 10, -3),
                    (-2**63, -2**63 + 4, 1), (2**63 - 3, 2**63 - 1, 1))


def _check_range(t, ga, label, call, numpy_call):
    """Compares one creation call with NumPy's: equal values, or both fail."""
    env = t.env
    env.lib.ga_clear_error()
    p = call()
    try:
        with quiet():
            want = numpy_call()
    except OverflowError:
        if p:
            t.own(p)
        return None  # not compared (see the docstring)
    except Exception as e:
        if p:
            t.own(p)
            t.fail(f"{label}: returned an array; NumPy raises {type(e).__name__}({e})")
        else:
            st, msg = env.last_error()
            t.expect(str(e) in msg, f"{label}: message {msg!r} lacks NumPy's {str(e)!r}")
        return None
    t.own(p, label)
    return to_numpy(t, p), want


def check_arange(t, ga):
    dt = t.env.np_dtype(ga)
    for start, stop, step in ARANGE_CASES:
        label = f"ga_arange({start!r}, {stop!r}, {step!r})"
        r = _check_range(t, ga, label, lambda: t.lib.ga_arange(start, stop, step, ga),
                         lambda: np.arange(float(start), float(stop), float(step), dtype=dt))
        if r:
            compare(t, label, *r, nan_any=True)


def check_arange_int(t, ga):
    dt = t.env.np_dtype(ga)
    for start, stop, step in ARANGE_INT_CASES:
        label = f"ga_arange_int({start}, {stop}, {step})"
        r = _check_range(t, ga, label, lambda: t.lib.ga_arange_int(start, stop, step, ga),
                         lambda: np.arange(start, stop, step, dtype=dt))
        if r:
            compare(t, label, *r, nan_any=True)


LINSPACE_CASES = ((0.0, 1.0), (-3.5, 7.25), (10.0, -10.0), (1.0, 1.0), (0.0, 5e-324),
                  (-1e3, 1e3), (0.1, 0.7), (0.0, 1000.0))
LOGSPACE_CASES = ((0.0, 3.0, 10.0), (-2.0, 2.0, 2.0), (0.5, 4.5, 10.0), (1.0, -1.0, 3.5),
                  (0.0, 10.0, 2.0))
NUMS = (0, 1, 2, 50)


def space_ulps(ga, log):
    """The ulp tolerance of linspace/logspace for ga_dtype `ga`."""
    if kind_of(ga) in "biu":
        return None
    if ga in (GA["float64"], GA["complex128"]):
        return 2 if log else None
    return 1


def check_linspace(t, ga):
    dt = t.env.np_dtype(ga)
    for (start, stop), num, endpoint in itertools.product(LINSPACE_CASES, NUMS, (True, False)):
        label = f"ga_linspace({start!r}, {stop!r}, {num}, endpoint={endpoint})"
        r = _check_range(t, ga, label, lambda: t.lib.ga_linspace(start, stop, num, endpoint, ga),
                         lambda: np.linspace(start, stop, num, endpoint=endpoint, dtype=dt))
        if r:
            compare(t, label, *r, ulps=space_ulps(ga, False))


def check_logspace(t, ga):
    dt = t.env.np_dtype(ga)
    integer = kind_of(ga) in "iu"
    for (start, stop, base), num, endpoint in itertools.product(LOGSPACE_CASES, NUMS, (True, False)):
        label = f"ga_logspace({start!r}, {stop!r}, {num}, endpoint={endpoint}, base={base!r})"
        r = _check_range(t, ga, label,
                         lambda: t.lib.ga_logspace(start, stop, num, endpoint, base, ga),
                         lambda: np.logspace(start, stop, num, endpoint=endpoint, base=base, dtype=dt))
        if not r:
            continue
        accept = None
        if integer:  # truncation of a power within a few ulp of an integer
            y = np.logspace(start, stop, num, endpoint=endpoint, base=base)
            got = r[0].astype(np.int64)
            want = r[1].astype(np.int64)

            def accept(idx, y=y, got=got, want=want):
                near = np.abs(y[idx] - np.round(y[idx])) <= 4 * np.spacing(np.abs(y[idx]))
                return near & (np.abs(got[idx] - want[idx]) == 1)
        compare(t, label, *r, ulps=space_ulps(ga, True), accept=accept)


EYE_CASES = ((0, -1, 0), (1, -1, 0), (3, -1, 0), (4, 6, 1), (4, 6, -2), (5, 3, -1), (3, 3, 5),
             (3, 3, -5), (4, 4, 3), (4, 4, -3), (6, 2, 0), (0, 3, 0), (3, 0, 0), (40, 33, 7),
             (33, 40, -9), (5, -1, 2))


def check_eye(t, ga):
    lib, dt = t.lib, t.env.np_dtype(ga)
    for n, m, k in EYE_CASES:
        label = f"ga_eye({n}, {m}, {k})"
        p = t.own(lib.ga_eye(n, m, k, ga), label)
        compare(t, label, to_numpy(t, p), np.eye(n, None if m < 0 else m, k, dtype=dt))
    for n in (0, 1, 5):
        label = f"ga_identity({n})"
        p = t.own(lib.ga_identity(n, ga), label)
        compare(t, label, to_numpy(t, p), np.identity(n, dtype=dt))


# --------------------------------------------------------------------------
# Device checks: transfers, copy, astype, copyto
# --------------------------------------------------------------------------

TRANSFER_SHAPES = ((), (0,), (1,), (5,), (3, 0, 2), (4, 7), (2, 3, 5), (1000,))


def random_bits(t, ga, shape):
    """Arbitrary bit patterns of ga_dtype `ga` (0/1 for bool)."""
    dt = t.env.np_dtype(ga)
    n = int(np.prod(shape, dtype=np.int64))
    if ga == GA["bool"]:
        return t.rng.integers(0, 2, n).astype(bool).reshape(shape)
    raw = t.rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8)
    return raw.view(dt).reshape(shape)


def check_transfer(t, ga):
    lib = t.lib
    for shape in TRANSFER_SHAPES:
        h = random_bits(t, ga, shape)
        p = to_device(t, h)
        label = f"round trip {shape}"
        attrs = (lib.ga_dtype_of(p), shape_of(t, p), lib.ga_size(p), lib.ga_nbytes(p))
        t.expect(attrs == (ga, shape, h.size, h.nbytes),
                 f"{label}: (dtype, shape, size, nbytes) = {attrs}, expected "
                 f"{(ga, shape, h.size, h.nbytes)}")
        if h.size:  # (NumPy's strides of empty arrays vary between versions)
            want = np.empty(shape, h.dtype).strides
            t.expect(strides_of(t, p) == want, f"{label}: strides {strides_of(t, p)} != NumPy's {want}")
        flags = lib.ga_flags(p)
        need = GA_C_CONTIGUOUS | GA_WRITEABLE | GA_OWNDATA
        t.expect(flags & need == need, f"{label}: flags {flags:#x} lack C_CONTIGUOUS|WRITEABLE|OWNDATA")
        compare(t, label, to_numpy(t, p), h)


def check_copy(t, ga):
    lib, dt = t.lib, t.env.np_dtype(ga)
    base = random_bits(t, ga, (BASE_N,))
    dbase = to_device(t, base)
    for label, shape, strides, offset in VIEWS:
        hv = host_view(base, shape, strides, offset)
        dv = device_view(t, dbase, dt.itemsize, shape, strides, offset)
        compare(t, f"ga_to_host of view '{label}'", to_numpy(t, dv), hv)
        c = t.own(lib.ga_copy(dv), "ga_copy")
        t.expect(lib.ga_flags(c) & GA_C_CONTIGUOUS, f"ga_copy of '{label}' is not C-contiguous")
        compare(t, f"ga_copy of view '{label}'", to_numpy(t, c), np.copy(hv))
    # copyto between overlapping views of one buffer: dst = reversed src
    label, shape, strides, offset = VIEWS[3]
    dv = device_view(t, dbase, dt.itemsize, shape, strides, offset)
    st = lib.ga_copyto(dv, dbase, UNSAFE)
    if st != 0:
        t.env.fail_call("ga_copyto (overlapping)")
    want = base.copy()
    np.copyto(want[::-1], want)
    compare(t, "ga_copyto(reversed view, its own base)", to_numpy(t, dbase), want)


def check_astype(t, s, d):
    lib, env = t.lib, t.env
    sdt, ddt = env.np_dtype(s), env.np_dtype(d)

    def one(label, dsrc, hsrc):
        p = t.own(lib.ga_astype(dsrc, d), "ga_astype")
        t.expect(lib.ga_flags(p) & GA_C_CONTIGUOUS, f"{label}: result is not C-contiguous")
        with quiet():
            want = hsrc.astype(ddt)
        compare(t, label, to_numpy(t, p), want, src=hsrc, nan_any=True)

    n = 1000 + int(t.rng.integers(0, 300))
    h = random_values(t, s, n)
    one(f"contiguous ({n},)", to_device(t, h), h)
    base = random_values(t, s, BASE_N)
    dbase = to_device(t, base)
    for label, shape, strides, offset in VIEWS:
        one(f"view '{label}'", device_view(t, dbase, sdt.itemsize, shape, strides, offset),
            host_view(base, shape, strides, offset))


# (label, destination view, source shape or a view of a source base)
COPYTO_CASES = (
    ("contiguous (20,30) into '%s'", 0, (20, 30)),
    ("(1,30) broadcast into '%s'", 0, (1, 30)),
    ("0-d broadcast into '%s'", 0, ()),
    ("(40,) broadcast into '%s'", 1, (40,)),
    ("(50,) broadcast into '%s'", 2, (50,)),
    ("strided view (rows reversed) into '%s'", 1, ("rows reversed", (20, 40), (-60, 1), 19 * 60)),
)


def check_copyto(t, s, d):
    lib, env = t.lib, t.env
    sdt, ddt = env.np_dtype(s), env.np_dtype(d)
    for label, view, src_spec in COPYTO_CASES:
        vlabel, shape, strides, offset = VIEWS[view]
        label %= vlabel
        if src_spec and isinstance(src_spec[0], str):
            sbase = random_values(t, s, BASE_N)
            hsrc = host_view(sbase, *src_spec[1:])
            dsrc = device_view(t, to_device(t, sbase), sdt.itemsize, *src_spec[1:])
        else:
            hsrc = random_values(t, s, max(1, int(np.prod(src_spec, dtype=np.int64)))).reshape(src_spec)
            dsrc = to_device(t, hsrc)
        dbase_h = random_values(t, d, BASE_N)
        dbase = to_device(t, dbase_h)
        dv = device_view(t, dbase, ddt.itemsize, shape, strides, offset)
        st = lib.ga_copyto(dv, dsrc, UNSAFE)
        if st != 0:
            t.env.fail_call(f"ga_copyto ({label})")
        want = dbase_h.copy()
        with quiet():
            np.copyto(host_view(want, shape, strides, offset), hsrc, casting="unsafe")
        srcmap = np.zeros(BASE_N, sdt)  # the source value behind each element
        np.copyto(host_view(srcmap, shape, strides, offset), np.broadcast_to(hsrc, shape))
        compare(t, label, to_numpy(t, dbase), want, src=srcmap, nan_any=True)


def check_copyto_casting(t):
    """ga_copyto refuses exactly the casts np.can_cast refuses."""
    lib, env = t.lib, t.env
    gas = [g for g in range(len(DTYPE_NAMES)) if env.has(g)]
    arrays = {g: to_device(t, np.zeros(3, env.np_dtype(g))) for g in gas}
    for frm, to in itertools.product(gas, gas):
        for c in range(len(CASTINGS)):
            lib.ga_clear_error()
            st = lib.ga_copyto(arrays[to], arrays[frm], c)
            allowed = oracle_can_cast(env, frm, to, c)
            if allowed:
                t.expect(st == 0, f"ga_copyto({dname(frm)} -> {dname(to)}, {CASTINGS[c]}) failed: "
                                  f"{env.last_error()[1]}")
            else:
                t.expect(st == env.status["GA_ERROR_TYPE"],
                         f"ga_copyto({dname(frm)} -> {dname(to)}, {CASTINGS[c]}) = {st}, NumPy refuses")


# --------------------------------------------------------------------------
# Device checks: argument errors, compared with NumPy's
# --------------------------------------------------------------------------

def numpy_error(fn):
    try:
        with quiet():
            fn()
    except Exception as e:
        return e
    raise GaError("NumPy did not raise")


def expect_error(t, label, p_or_status, status, message, exact=True):
    """The call failed with `status` and a message equal to (or containing) `message`."""
    env = t.env
    failed = (p_or_status != 0) if isinstance(p_or_status, int) else not p_or_status
    if not failed:
        if not isinstance(p_or_status, int):
            t.own(p_or_status)
        t.fail(f"{label}: succeeded; NumPy raises")
        return
    st, msg = env.last_error()
    want_st = env.status[status]
    t.expect(st == want_st, f"{label}: status {env.statuses[st][0] if 0 <= st < len(env.statuses) else st}, "
                            f"expected {status}")
    ok = msg == message if exact else message in msg
    t.expect(ok, f"{label}: message {msg!r}, expected {'' if exact else 'to contain '}{message!r}")


def check_error_empty(t):
    e = numpy_error(lambda: np.empty((2, -1)))
    t.lib.ga_clear_error()
    expect_error(t, "ga_empty((2, -1))", t.lib.ga_empty(2, i64s([2, -1]), GA["float64"]),
                 "GA_ERROR_VALUE", f"ga_empty: {e}")


def check_error_arange(t):
    lib = t.lib
    # NumPy raises ZeroDivisionError("division by zero"), or "float division
    # by zero" (Python's own text, by version): the message must say so too.
    e = numpy_error(lambda: np.arange(0.0, 1.0, 0.0))
    t.expect(isinstance(e, ZeroDivisionError) and "division by zero" in str(e),
             f"NumPy's arange(0, 1, 0) raised {e!r}")
    lib.ga_clear_error()
    expect_error(t, "ga_arange(0, 1, 0)", lib.ga_arange(0.0, 1.0, 0.0, GA["float64"]),
                 "GA_ERROR_VALUE", "division by zero", exact=False)
    lib.ga_clear_error()
    expect_error(t, "ga_arange_int(0, 1, 0)", lib.ga_arange_int(0, 1, 0, GA["int64"]),
                 "GA_ERROR_VALUE", "division by zero", exact=False)
    e = numpy_error(lambda: np.arange(0, 3, 1, dtype=bool))
    lib.ga_clear_error()
    expect_error(t, "ga_arange_int(0, 3, 1, bool)", lib.ga_arange_int(0, 3, 1, GA["bool"]),
                 "GA_ERROR_TYPE", f"ga_arange_int: {e}")


def check_error_linspace(t):
    e = numpy_error(lambda: np.linspace(0.0, 1.0, -1))
    t.lib.ga_clear_error()
    expect_error(t, "ga_linspace(0, 1, -1)", t.lib.ga_linspace(0.0, 1.0, -1, True, GA["float64"]),
                 "GA_ERROR_VALUE", f"ga_linspace: {e}")
    t.lib.ga_clear_error()
    expect_error(t, "ga_logspace(0, 1, -1)", t.lib.ga_logspace(0.0, 1.0, -1, True, 10.0, GA["float64"]),
                 "GA_ERROR_VALUE", f"ga_logspace: {e}")


def check_error_full(t):
    for value, name in ((300, "int8"), (-129, "int8"), (-1, "uint8"), (65536, "uint16"),
                        (2**63, "int64"), (-1, "uint64"), (2**31, "int32")):
        e = numpy_error(lambda: np.full(2, value, dtype=name))
        t.lib.ga_clear_error()
        p = t.lib.ga_full(1, i64s([2]), ga_scalar(value), GA[name])
        expect_error(t, f"ga_full({value}, {name})", p, "GA_ERROR_OVERFLOW", f"ga_full: {e}")


def check_error_copyto(t):
    lib = t.lib
    dst = t.own(lib.ga_zeros(2, i64s([2, 3]), GA["float64"]), "ga_zeros")
    src = t.own(lib.ga_zeros(1, i64s([4]), GA["float64"]), "ga_zeros")
    e = numpy_error(lambda: np.copyto(np.zeros((2, 3)), np.zeros(4)))
    lib.ga_clear_error()
    expect_error(t, "ga_copyto((2,3) <- (4,))", lib.ga_copyto(dst, src, UNSAFE), "GA_ERROR_SHAPE",
                 f"ga_copyto: {e}")
    for frm, to in (("float64", "int32"), ("complex64", "float32"), ("int8", "uint64")):
        d = t.own(lib.ga_zeros(1, i64s([3]), GA[to]), "ga_zeros")
        s = t.own(lib.ga_zeros(1, i64s([3]), GA[frm]), "ga_zeros")
        e = numpy_error(lambda: np.copyto(np.zeros(3, to), np.zeros(3, frm), casting="same_kind"))
        lib.ga_clear_error()
        expect_error(t, f"ga_copyto({to} <- {frm}, same_kind)", lib.ga_copyto(d, s, SAME_KIND),
                     "GA_ERROR_TYPE", f"ga_copyto: {e}")


def check_error_first_kept(t):
    """A NULL from a failed call fails the next call and keeps the first error."""
    lib = t.lib
    lib.ga_clear_error()
    p = lib.ga_astype(lib.ga_empty(1, i64s([-1]), GA["float32"]), GA["float64"])
    expect_error(t, "ga_astype(ga_empty((-1,)))", p, "GA_ERROR_VALUE",
                 "ga_empty: negative dimensions are not allowed")


# --------------------------------------------------------------------------
# ufuncs (gpuarr.h, >>ufunc): the lists, NumPy's answers, the checks
# --------------------------------------------------------------------------

class Ufunc:
    """A ufunc of gpuarr.h's lists: its GA_UFUNC_* value, NumPy name, arity,
    and form: "unary" or "binary" (named functions ga_X, ga_X_out, and for
    binary ga_X_scalar, ga_X_rscalar) or "other" (ga_ufunc_call)."""

    def __init__(self, index, name, nin, nout, form):
        self.index, self.name, self.nin, self.nout, self.form = index, name, nin, nout, form

    def __repr__(self):
        return self.name


def read_ufunc_lists(header):
    """The ufuncs of GA_UFUNC_{UNARY,BINARY,OTHER}_LIST in enum order, or None."""
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    out = []
    for which, form in (("UNARY", "unary"), ("BINARY", "binary"), ("OTHER", "other")):
        m = re.search(r"#define GA_UFUNC_%s_LIST\(X\)(.*?)\n\s*\n" % which, text, re.S)
        if not m:
            return None
        for args in re.findall(r"\bX\(([^)]*)\)", m.group(1)):
            parts = [p.strip() for p in args.split(",")]
            nin, nout = {"unary": (1, 1), "binary": (2, 1)}.get(form, (None, None))
            if form == "other":
                nin, nout = int(parts[2]), int(parts[3])
            out.append(Ufunc(len(out), parts[1], nin, nout, form))
    return out or None


class GaOperand(ctypes.Structure):
    """ga_operand: {const ga_array *array; ga_scalar scalar;}."""
    _fields_ = [("array", ctypes.c_void_p), ("scalar", GaScalar)]


_ARRP = _c.POINTER(_ARR)

UFUNC_PROTOTYPES = {
    "ga_ufunc_name": (_c.c_char_p, [_c.c_int]),
    "ga_ufunc_nin": (_c.c_int, [_c.c_int]),
    "ga_ufunc_nout": (_c.c_int, [_c.c_int]),
    "ga_ufunc_resolve_dtypes": (_ST, [_c.c_int, _c.POINTER(_DT), _c.POINTER(GaScalar), _c.POINTER(_DT)]),
    "ga_ufunc_call": (_ST, [_c.c_int, _c.POINTER(GaOperand), _ARRP]),
    "ga_divmod": (_ST, [_ARR, _ARR, _ARRP, _ARRP]),
    "ga_modf": (_ST, [_ARR, _ARRP, _ARRP]),
    "ga_frexp": (_ST, [_ARR, _ARRP, _ARRP]),
    "ga_where": (_ARR, [_ARR, _ARR, _ARR]),
    "ga_clip": (_ARR, [_ARR, _ARR, _ARR]),
    "ga_clip_scalar": (_ARR, [_ARR, GaScalar, GaScalar]),
    "ga_isclose": (_ARR, [_ARR, _ARR, _c.c_double, _c.c_double, _c.c_bool]),
    "ga_allclose": (_ST, [_ARR, _ARR, _c.c_double, _c.c_double, _c.c_bool, _c.POINTER(_c.c_bool)]),
    "ga_round": (_ARR, [_ARR, _c.c_int]),
    "ga_nan_to_num": (_ARR, [_ARR]),
    "ga_nan_to_num_values": (_ARR, [_ARR, _c.c_double, _c.c_double, _c.c_double]),
    "ga_angle": (_ARR, [_ARR, _c.c_bool]),
    "ga_real": (_ARR, [_ARR]),
    "ga_imag": (_ARR, [_ARR]),
    "ga_broadcast_to": (_ARR, [_ARR, _c.c_int, _I64P]),
}


def ufunc_prototypes(ufuncs):
    """UFUNC_PROTOTYPES plus the named forms of every unary and binary ufunc."""
    protos = dict(UFUNC_PROTOTYPES)
    for uf in ufuncs:
        n = "ga_" + uf.name
        if uf.form == "unary":
            protos[n] = (_ARR, [_ARR])
            protos[n + "_out"] = (_ST, [_ARR, _ARR])
        elif uf.form == "binary":
            protos[n] = (_ARR, [_ARR, _ARR])
            protos[n + "_out"] = (_ST, [_ARR, _ARR, _ARR])
            protos[n + "_scalar"] = (_ARR, [_ARR, GaScalar])
            protos[n + "_rscalar"] = (_ARR, [GaScalar, _ARR])
    return protos


# gpuarr's names that NumPy spells as functions rather than ufuncs.
NUMPY_UFUNC_FUNCTIONS = {
    "fix": np.fix, "sinc": np.sinc, "round": np.round, "nan_to_num": np.nan_to_num,
    "angle": np.angle, "where": np.where, "clip": np.clip, "isclose": np.isclose,
}

# A representative of each weak scalar kind, for asking NumPy about dtypes.
WEAK_REPRESENTATIVE = {bool: True, int: 1, float: 1.0, complex: 1j}


def numpy_call(name, args, params=None):
    """NumPy's results (a tuple of arrays) of function `name` on args (host
    arrays and Python scalars); params: decimals, deg, rtol/atol/equal_nan,
    nan/posinf/neginf."""
    params = params or {}
    fn = NUMPY_UFUNC_FUNCTIONS.get(name) or getattr(np, name)
    kw = {}
    if name == "round":
        kw = {"decimals": params.get("decimals", 0)}
    elif name == "angle":
        kw = {"deg": params.get("deg", False)}
    elif name == "isclose":
        kw = {k: params[k] for k in ("rtol", "atol", "equal_nan") if k in params}
    elif name == "nan_to_num":
        kw = {k: params[k] for k in ("nan", "posinf", "neginf") if k in params}
    with quiet():
        r = fn(*args, **kw)
    r = r if isinstance(r, tuple) else (r,)
    return tuple(np.asarray(x) for x in r)


def oracle_ufunc_dtypes(env, name, ins, nout):
    """The ga_dtypes of the outputs NumPy gives `name` for inputs `ins` (NumPy
    dtypes for arrays, Python scalars for weak scalars), or None where NumPy
    raises. With bfloat16, the project rule: bfloat16 behaves like float16
    (the question is asked with float16, or float32 when float16 is an input
    too, and a float16 answer is read as bfloat16); tests/ufunc_tables.h lists
    where ml_dtypes' own answer differs (test_ufunc_types reports those)."""
    key = (name, nout, tuple(str(x) if isinstance(x, np.dtype) else type(x) for x in ins))
    cache = env.__dict__.setdefault("_ufunc_dtype_cache", {})
    if key in cache:
        return cache[key]
    bf = env.bf16
    arrays = [x for x in ins if isinstance(x, np.dtype)]
    if bf is not None and bf in arrays:
        has_f16 = np.dtype(np.float16) in arrays
        sub = np.dtype(np.float32 if has_f16 else np.float16)
        alt = [sub if isinstance(x, np.dtype) and x == bf else x for x in ins]
        res = oracle_ufunc_dtypes(env, name, alt, nout)
        if res is not None and not has_f16:
            res = tuple(BF16 if r == F16 else r for r in res)
    else:
        args = []
        for i, x in enumerate(ins):
            if not isinstance(x, np.dtype):
                args.append(WEAK_REPRESENTATIVE[type(x)])
            elif name == "where" and i == 0:
                args.append(np.array([True, False]).astype(x))
            else:
                args.append((np.zeros if i == 0 else np.ones)((2,), x))
        try:
            res = tuple(env.ga_dtype(r.dtype) for r in numpy_call(name, args))
        except Exception:  # TypeError, DTypePromotionError, UFuncTypeError, ...
            res = None
        if res is not None and len(res) != nout:
            raise GaError(f"NumPy's {name} gives {len(res)} results, gpuarr.h says {nout}")
    cache[key] = res
    return res


def _round_in_steps(x, decimals, dt):
    """NumPy's round algorithm for a narrow float dtype: a * 10**d, rint and
    / 10**d (d < 0: / then rint and *), each step rounded to dt (what NumPy
    does for float16 and the kernel does for float16 and bfloat16)."""
    f32 = np.float32
    with quiet():
        f = np.float32(np.array(10.0 ** abs(decimals)).astype(dt))
        y = x.astype(f32)
        first, last = (np.multiply, np.divide) if decimals >= 0 else (np.divide, np.multiply)
        y = first(y, f).astype(dt).astype(f32)
        y = np.rint(y).astype(dt).astype(f32)
        return last(y, f).astype(dt)


def _bf16_spacing(x, bf):
    """NumPy's spacing for float32/float64 (x >= 0, -0.0 included: the step
    up, else the step down, as a signed difference), in the steps of
    bfloat16 (float16 has NumPy's own)."""
    with quiet():
        x32 = np.asarray(x).astype(np.float32)
        up = np.where(x32 < 0, -np.inf, np.inf).astype(bf)
        step = np.nextafter(np.asarray(x), up).astype(np.float32) - x32
        return np.asarray(np.where(np.isinf(x32), np.float32(np.nan), step).astype(bf))


def oracle_ufunc_values(env, name, args, params, want):
    """NumPy's results of `name` on host args, as arrays of the ga_dtypes
    `want`. bfloat16 inputs (project rule: computed in float32 and rounded
    once to the result dtype) are given to NumPy as float32, except where
    ml_dtypes' own bfloat16 loops are right (nextafter) or NumPy's algorithm
    has its own steps (round, spacing, nan_to_num: see the module docstring).
    sinc of float16 and bfloat16 is NumPy's float32 sinc rounded once."""
    params = params or {}
    bf = env.bf16
    f32 = np.dtype(np.float32)
    want_np = [env.np_dtype(w) for w in want]
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    narrow = [a for a in arrays if a.dtype in (np.dtype(np.float16), bf)]
    has_bf = bf is not None and any(a.dtype == bf for a in arrays)

    def cast(res):
        with quiet():
            return tuple(r.astype(w, copy=False) for r, w in zip(res, want_np))

    if name == "sinc" and narrow:
        return cast(numpy_call(name, [args[0].astype(f32)], params))
    if not has_bf:
        res = numpy_call(name, args, params)
        for r, w in zip(res, want_np):
            if r.dtype != w:
                raise GaError(f"NumPy's {name} gave {r.dtype}, its dtype rule {w}")
        return res
    x = args[0]
    if name == "round" and x.dtype == bf:
        return (_round_in_steps(x, params.get("decimals", 0), bf),)
    if name == "nan_to_num" and x.dtype == bf:
        big = BF16_MAX
        with quiet():
            r = np.nan_to_num(x.astype(f32), nan=params.get("nan", 0.0), posinf=params.get("posinf", big),
                              neginf=params.get("neginf", -big))
        return cast((r,))
    if name == "spacing" and x.dtype == bf:
        return (_bf16_spacing(x, bf),)
    if name == "nextafter" and want_np[0] == bf:
        with quiet():
            a, b = (np.asarray(v).astype(bf) for v in args)
            return (np.nextafter(a, b),)
    sub = [a.astype(f32) if isinstance(a, np.ndarray) and a.dtype == bf else a for a in args]
    return cast(numpy_call(name, sub, params))


# ---- tolerances -----------------------------------------------------------

BF16_MAX = 3.3895313892515355e38  # bfloat16's largest finite value

# Transcendental functions (values within a few ulp, see the docstring).
TRANSCENDENTAL = {"cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                  "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
                  "sinc", "angle", "power", "float_power", "logaddexp", "logaddexp2", "arctan2", "hypot"}
# ... and for complex inputs only.
TRANSCENDENTAL_COMPLEX = {"sqrt", "absolute", "sign"}
# Complex arithmetic that is not exact (rounding of a*b - c*d, FMA).
COMPLEX_ARITHMETIC = {"multiply", "divide", "square", "reciprocal"}
# NumPy itself gives either zero for max(-0.0, +0.0), by array position.
EITHER_ZERO = {"maximum", "minimum", "fmax", "fmin", "clip"}

TRANS_ULPS = {"float16": 1, "bfloat16": 1, "float32": 4, "float64": 4}
TRANS_ULPS_WIDE = {"tan", "arcsinh", "arccosh", "arctanh", "power", "logaddexp", "logaddexp2"}
COMPLEX_RTOL = {"complex64": 1e-5, "complex128": 1e-13}
COMPLEX_ARITH_RTOL = {"complex64": 4 * 2.0**-23, "complex128": 4 * 2.0**-52}
TINY = {"float16": 6.1e-5, "bfloat16": 1.2e-38, "float32": 1.2e-38, "float64": 2.3e-308}


def ufunc_tolerance(name, in_kinds, out_dtype, params=None):
    """("exact" | "ulps" | "normwise", amount) for results of dtype out_dtype."""
    params = params or {}
    fmt = component_format(out_dtype)
    if fmt is None:
        return "exact", None
    cplx_in = "c" in in_kinds
    trans = name in TRANSCENDENTAL or (cplx_in and name in TRANSCENDENTAL_COMPLEX)
    if np.dtype(out_dtype).kind == "c":
        if trans:
            return "normwise", COMPLEX_RTOL[np.dtype(out_dtype).name]
        if name in COMPLEX_ARITHMETIC:
            return "normwise", COMPLEX_ARITH_RTOL[np.dtype(out_dtype).name]
        return "exact", None
    if not trans:
        return "exact", None
    ulps = TRANS_ULPS[fmt]
    if fmt in ("float32", "float64") and name in TRANS_ULPS_WIDE:
        ulps = 8
    if name == "angle" and params.get("deg") and fmt in ("float16", "bfloat16"):
        ulps = 2
    return "ulps", ulps


def _either_zero(got, want):
    g, w = bits(got), bits(want)
    sign = g.dtype.type(FLOAT_FORMATS[component_format(want.dtype)][2])
    zero = ((g & ~sign) == 0) & ((w & ~sign) == 0)
    return lambda idx: zero[idx]


def _normwise(got, want, rtol, fmt):
    """Accepts components within rtol * |want| (the complex magnitude)."""
    g = np.asarray(got).reshape(-1).astype(np.complex128)
    w = np.asarray(want).reshape(-1).astype(np.complex128)
    with quiet():
        mag = np.abs(w)

    def accept(idx):
        e, part = idx // 2, idx % 2
        gv = np.where(part == 0, g[e].real, g[e].imag)
        wv = np.where(part == 0, w[e].real, w[e].imag)
        with quiet():
            ok = np.isfinite(gv) & np.isfinite(wv) & (np.abs(gv - wv) <= rtol * mag[e] + TINY[fmt])
        return ok
    return accept


def ufunc_quirks(name, hosts, got, want, params=None):
    """compare()'s accept for results where NumPy's answer depends on its
    platform or loop, or is NumPy's own slip, and gpuarr's is the documented
    one (None: none apply):
    - isclose of complex arrays: NumPy's absolute of complex64 and complex128
      is its SIMD loop's larger * sqrt(1 + (smaller / larger)^2), with an fma
      where the CPU has one, an ulp or so off the correctly rounded hypot
      (over a third of random complex64 values, NumPy 2.4 on AVX-512)
      that gpuarr computes, so an element at the bound can flip: accepted
      where it is NumPy's formula with that hypot;
    - C99 Annex F values where NumPy's SIMD loops (SVML on AVX-512) return
      NaN: pow(1, y) = 1 and pow(x, 0) = 1 for NaN y / x, hypot(+-inf, y)
      = inf for NaN y;
    - clip with lo > hi: hi, as NumPy documents ("all values equal to
      a_max"), where its SIMD loop returns lo;
    - complex power: within 1e-5 (complex64) / 1e-13 (complex128) times
      1 + |b| (|log|a|| + pi) of |NumPy's value| (exp(b log a) multiplies
      log's rounding by b; NumPy multiplies repeatedly for integer b below
      100 only), and infinite parts of either sign where the power overflows
      (their signs follow the rounded angle b arg(a));
    - complex log1p: within 1e-5 (complex64) / 1e-13 (complex128) of
      max(1, |NumPy's value|) for each part: NumPy's real part,
      log(hypot(x + 1, y)), cancels where 1 + z is near the unit circle
      (an error of an ulp of 1, not of the result); gpuarr's does not."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return None
    arrays = [np.asarray(h) for h in hosts]
    with quiet():
        if name == "isclose" and all(isinstance(h, np.ndarray) for h in hosts[:2]) \
                and any(h.dtype.kind == "c" for h in hosts[:2]):
            p = params or {}
            rtol, atol = p.get("rtol", 1e-5), p.get("atol", 1e-8)
            x, y = hosts[0], hosts[1].astype(np.result_type(hosts[1], 1.0))
            d = x - y
            mag = (lambda z: np.hypot(z.real, z.imag) if z.dtype.kind == "c" else np.abs(z))
            close = (np.less_equal(mag(d), atol + rtol * mag(y)) & np.isfinite(y)) | (x == y)
            if p.get("equal_nan", False):
                close |= np.isnan(x) & np.isnan(y)
            ok = (got == np.broadcast_to(close, want.shape)).reshape(-1)
            return lambda idx: ok[idx]
        if name in ("power", "float_power", "hypot") and want.dtype.kind == "f":
            # the inputs as the loop sees them (2**64 - 1 is inf in float16)
            a, b = (np.broadcast_to(x.astype(want.dtype).astype(np.float64), want.shape) for x in arrays[:2])
            if name == "hypot":
                special = np.isinf(a) | np.isinf(b)
                value = np.full(want.shape, np.inf)
            else:
                special = (a == 1) | (b == 0)
                value = np.ones(want.shape)
            ok = (special & np.isnan(want.astype(np.float64)) & (got.astype(np.float64) == value)).reshape(-1)
            return lambda idx: ok[idx]
        if name == "clip" and want.dtype.kind in "biuf":
            lo, hi = (np.broadcast_to(x, want.shape) for x in arrays[1:3])
            ok = ((lo > hi) & (got == hi.astype(want.dtype))).reshape(-1)
            return lambda idx: ok[idx]
        if name == "log1p" and want.dtype.kind == "c":
            g = got.astype(np.complex128).reshape(-1)
            w = want.astype(np.complex128).reshape(-1)
            scale = COMPLEX_RTOL[want.dtype.name] * np.maximum(1.0, np.abs(w))
            parts = [np.isfinite(gp) & np.isfinite(wp) & (np.abs(gp - wp) <= scale)
                     for gp, wp in ((g.real, w.real), (g.imag, w.imag))]
            ok = np.stack(parts, 1).reshape(-1)  # component order: re, im of each element
            return lambda idx: ok[idx]
        if name in ("power", "float_power") and want.dtype.kind == "c":
            a, b = (np.broadcast_to(x.astype(np.complex128), want.shape).reshape(-1) for x in arrays[:2])
            factor = 1 + np.abs(b) * (np.abs(np.log(np.abs(a))) + np.pi)
            rtol = COMPLEX_RTOL[want.dtype.name] * np.where(np.isfinite(factor), factor, 0)
            g = got.astype(np.complex128).reshape(-1)
            w = want.astype(np.complex128).reshape(-1)
            mag = np.abs(w)
            parts = []
            for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
                parts.append((np.isfinite(gp) & np.isfinite(wp) & (np.abs(gp - wp) <= rtol * mag))
                             | (np.isinf(gp) & np.isinf(wp) & np.isinf(mag)))
            ok = np.stack(parts, 1).reshape(-1)  # component order: re, im of each element
            return lambda idx: ok[idx]
    return None


def any_accept(*accepts):
    """compare()'s accept for positions any of `accepts` (None: skipped) accepts."""
    fns = [f for f in accepts if f is not None]
    if not fns:
        return None
    return lambda idx: np.logical_or.reduce([np.asarray(f(idx), bool) for f in fns])


def compare_ufunc(t, label, name, got, want, in_kinds, params=None, also=None):
    """compare() with the ufunc's tolerance (see the module docstring);
    `also`: compare()'s accept, for a quirk of the caller's case (accepted
    beside the tolerance's own)."""
    how, amount = ufunc_tolerance(name, in_kinds, want.dtype, params)
    fmt = component_format(want.dtype)
    same_layout = got.dtype == want.dtype and got.shape == want.shape
    accept = any_accept(_either_zero(got, want) if (name in EITHER_ZERO and fmt and same_layout) else None, also)
    if how == "ulps" and name in ("logaddexp", "logaddexp2") and same_layout:
        # a + log1p(exp(b - a)) cancels near 0: the error is ulps of a and b
        # (drawn near 1), not of the result
        eps = float(np.finfo(np.float64 if fmt == "float64" else np.float32).eps)
        with quiet():
            g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
            ok = np.abs(g - w) <= amount * eps * np.maximum(1.0, np.abs(w))
        return compare(t, label, got, want, nan_any=True, ulps=amount,
                       accept=any_accept(lambda idx: ok.reshape(-1)[idx], accept))
    if how == "ulps":
        return compare(t, label, got, want, nan_any=True, ulps=amount, accept=accept)
    if how == "normwise" and same_layout:
        return compare(t, label, got, want, nan_any=True, accept=any_accept(_normwise(got, want, amount, fmt), accept))
    return compare(t, label, got, want, nan_any=True, accept=accept)


# ---- inputs -----------------------------------------------------------------

# The values each input of a ufunc is drawn from (default "any").
UFUNC_DOMAINS = {
    "reciprocal": ("divisor",), "sqrt": ("pos",), "exp": ("exp",), "exp2": ("exp",), "expm1": ("exp",),
    "log": ("pos",), "log2": ("pos",), "log10": ("pos",), "log1p": ("log1p",), "sin": ("trig",),
    "cos": ("trig",), "tan": ("trig",), "arcsin": ("unit",), "arccos": ("unit",), "arctanh": ("unit",),
    "sinh": ("exp",), "cosh": ("exp",), "arccosh": ("acosh",), "sinc": ("trig",),
    "divide": ("any", "divisor"), "floor_divide": ("dividend", "divisor"),
    "remainder": ("dividend", "divisor"), "fmod": ("dividend", "divisor"), "divmod": ("dividend", "divisor"),
    "power": ("pow_base", "pow_exp"), "float_power": ("pow_base", "pow_exp"), "ldexp": ("any", "ldexp_exp"),
    "left_shift": ("any", "shift"), "right_shift": ("any", "shift"), "logaddexp": ("exp", "exp"),
    "logaddexp2": ("exp", "exp"),
}
UFUNC_FLOAT_SPECIALS = (math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0)
MAGNITUDE = {"float16": 4, "bfloat16": 30, "float32": 30, "float64": 100}  # 10**+-this
EXP_LIMIT = {"float16": 11.5, "bfloat16": 89.0, "float32": 89.0, "float64": 710.0}


def ufunc_domain(name, k):
    d = UFUNC_DOMAINS.get(name, ())
    return d[k] if k < len(d) else "any"


def ufunc_exact_complex(name, in_kinds):
    """Whether complex inputs may hold infinities and NaNs (exact functions)."""
    how, _ = ufunc_tolerance(name, in_kinds, np.complex128)
    return how == "exact"


def _ufunc_floats(rng, n, domain, fmt, specials=True):
    """float64 values for a float input of format fmt."""
    r = MAGNITUDE[fmt]
    sign = rng.choice([-1.0, 1.0], n)
    wide = sign * 10.0 ** rng.uniform(-r, r, n)
    if domain == "pos":
        x = 10.0 ** rng.uniform(-3, 3, n)
        x[rng.random(n) < 0.05] *= -1
    elif domain == "unit":
        x = rng.uniform(-1.05, 1.05, n)
    elif domain == "exp":
        lim = EXP_LIMIT[fmt]
        x = np.where(rng.random(n) < 0.5, rng.uniform(-lim, lim, n), rng.uniform(-5, 5, n))
    elif domain == "trig":
        x = np.where(rng.random(n) < 0.8, rng.uniform(-10, 10, n), sign * 10.0 ** rng.uniform(1, min(4, r), n))
    elif domain == "acosh":
        x = 1.0 + 10.0 ** rng.uniform(-3, 3, n)
        below = rng.random(n) < 0.05
        x[below] = rng.uniform(-2, 1, int(below.sum()))
    elif domain == "log1p":
        x = np.where(rng.random(n) < 0.5, rng.uniform(-1, 1, n), 10.0 ** rng.uniform(-3, 3, n))
    elif domain == "pow_base":
        x = 10.0 ** rng.uniform(-2, 1.5, n) * np.where(rng.random(n) < 0.2, -1.0, 1.0)
    elif domain == "pow_exp":
        x = np.where(rng.random(n) < 0.6, rng.uniform(-6, 6, n), rng.integers(-4, 7, n).astype(np.float64))
    else:  # any, divisor, dividend, ldexp_exp, shift
        pick = rng.integers(0, 3, n)
        x = np.choose(pick, [rng.uniform(-10, 10, n), wide, rng.integers(-32, 33, n) / 4.0])
        if domain == "divisor":
            x[rng.random(n) < 0.1] = 0.0
    if specials:
        k = min(n, len(UFUNC_FLOAT_SPECIALS))
        x[rng.choice(n, k, replace=False)] = UFUNC_FLOAT_SPECIALS[:k]
    return x


def _ufunc_ints(rng, dt, n, domain):
    info = np.iinfo(dt)
    lo, hi, width = int(info.min), int(info.max), info.bits
    if domain == "shift":
        v = rng.integers(max(lo, -3), min(hi, width + 3), n, endpoint=True)
        return v.astype(dt)
    if domain == "pow_exp":
        return rng.integers(0, min(hi, 9), n, endpoint=True).astype(dt)
    if domain == "ldexp_exp":
        v = rng.integers(max(lo, -40), min(hi, 40), n, dtype=dt, endpoint=True)
        k = min(n, 2)
        v[rng.choice(n, k, replace=False)] = [lo, hi][:k]
        return v.astype(dt)
    v = rng.integers(lo, hi, n, dtype=dt, endpoint=True)
    small = rng.random(n) < (0.6 if domain == "pow_base" else 0.3)
    v[small] = rng.integers(max(lo, -10), min(hi, 10), int(small.sum()), endpoint=True).astype(dt)
    if domain == "divisor":
        v[rng.random(n) < 0.15] = 0
        if lo < 0:
            v[rng.random(n) < 0.1] = -1
    specials = [0, 1, hi, lo] + ([-1] if lo < 0 else [])
    k = min(n, len(specials))
    v[rng.choice(n, k, replace=False)] = specials[:k]
    return v


def ufunc_values(t, ga, n, domain, exact_complex=True):
    """n values of ga_dtype `ga` for an input of the given domain."""
    rng, dt = t.rng, t.env.np_dtype(ga)
    kind = kind_of(ga)
    if kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind in "iu":
        return _ufunc_ints(rng, dt, n, domain)
    fmt = component_format(dt)
    with quiet():
        if kind == "f":
            return _ufunc_floats(rng, n, domain, fmt).astype(dt)
        if exact_complex:
            re_ = _ufunc_floats(rng, n, domain, fmt)
            im = _ufunc_floats(rng, n, domain, fmt)
        else:  # finite values of moderate size, away from poles and cuts' signed zeros
            lim = 5.0 if domain in ("exp", "trig") else 3.0
            re_, im = rng.uniform(-lim, lim, n), rng.uniform(-lim, lim, n)
            if domain == "divisor" or domain == "any":
                scale = 10.0 ** rng.uniform(-4, 4, n)
                re_, im = re_ * scale, im * scale
        return (re_ + 1j * im).astype(dt)


# Input layouts: (label, per-input spec). A spec is ("base", shape) for a
# fresh C-contiguous array (shape None: 1-d of about 1000 elements) or
# ("view", i): VIEWS[i] over a fresh base.
def ufunc_layouts(nin, full=True):
    out = [("contiguous", [("base", None)] * nin)]
    for i, view in enumerate(VIEWS):
        if full or i == 0:
            out.append((f"view '{view[0]}'", [("view", i)] * nin))
    if nin >= 2:
        out.append(("broadcast (20,1) with (1,30)", [("base", (20, 1)), ("base", (1, 30))] + [("base", (30,))] * (nin - 2)))
        if full:
            out.append(("(20,30) with (30,)", [("base", (20, 30))] + [("base", (30,))] * (nin - 1)))
            out.append(("0-d with (7,)", [("base", ())] + [("base", (7,))] * (nin - 1)))
            out.append(("(0,5) with (1,5)", [("base", (0, 5))] + [("base", (1, 5))] * (nin - 1)))
    return out


def ufunc_inputs(t, uf, gas, specs, domains, n_contig):
    """Host and device inputs for one layout."""
    env = t.env
    hosts, devs = [], []
    kinds = "".join(kind_of(g) for g in gas)
    exact_c = ufunc_exact_complex(uf.name, kinds)
    for k, (g, (how, arg)) in enumerate(zip(gas, specs)):
        dt = env.np_dtype(g)
        if how == "view":
            _, shape, strides, offset = VIEWS[arg]
            base = ufunc_values(t, g, BASE_N, domains[k], exact_c)
            hosts.append(host_view(base, shape, strides, offset))
            devs.append(device_view(t, to_device(t, base), dt.itemsize, shape, strides, offset))
        else:
            shape = (n_contig,) if arg is None else arg
            h = ufunc_values(t, g, max(1, int(np.prod(shape, dtype=np.int64))), domains[k], exact_c)
            h = h[:int(np.prod(shape, dtype=np.int64))].reshape(shape)
            if k > 0 and g == gas[0] and arg is None and domains[k] == domains[0]:
                # equal operands now and then (a == b cases of max, nextafter, ...)
                same = t.rng.random(n_contig) < 0.05
                h[same] = hosts[0][same]
            hosts.append(h)
            devs.append(to_device(t, h))
    return hosts, devs


def numpy_strides_k(hosts):
    """The element strides of NumPy's new result for these inputs (order K),
    from a ufunc on 1-byte stand-ins laid out like them."""
    views = []
    for a in hosts:
        es = [s // a.itemsize for s in a.strides]
        span = sum(abs(s) * (d - 1) for s, d in zip(es, a.shape) if d > 0) + 1
        off = sum(-s * (d - 1) for s, d in zip(es, a.shape) if s < 0 and d > 0)
        buf = np.zeros(span, np.uint8)
        views.append(np.lib.stride_tricks.as_strided(buf[off:], a.shape, es))
    r = np.logical_not(views[0]) if len(views) == 1 else np.logical_or(views[0], views[1])
    return tuple(s // r.itemsize for s in r.strides)


def check_result_layout(t, label, p, hosts):
    """A new result is laid out as NumPy's (order K) along axes longer than 1."""
    if len(hosts) > 2 or t.lib.ga_size(p) <= 1:
        return
    shape = shape_of(t, p)
    isz = t.lib.ga_dtype_itemsize(t.lib.ga_dtype_of(p))
    got = tuple(s // isz for s in strides_of(t, p))
    want = numpy_strides_k(hosts)
    if len(want) != len(got):
        return
    keep = [i for i, d in enumerate(shape) if d > 1]
    t.expect([got[i] for i in keep] == [want[i] for i in keep],
             f"{label}: result strides (elements) {got}, NumPy's {want} (order K)")


# ---- calling gpuarr ------------------------------------------------------------

class DevArray(int):
    """A device array pointer (an int), told apart from Python int scalars."""


def dev(p):
    return DevArray(p)


def ga_operands(inputs):
    """A ga_operand array for inputs: DevArray pointers and Python scalars."""
    ops = (GaOperand * max(1, len(inputs)))()
    for i, x in enumerate(inputs):
        if isinstance(x, DevArray):
            ops[i].array = int(x)
            ops[i].scalar = ga_scalar(0)
        else:
            ops[i].array = None
            ops[i].scalar = ga_scalar(x)
    return ops


def ufunc_call(t, uf, inputs, named=True):
    """Calls ufunc `uf` on inputs (DevArray pointers and Python scalars):
    through its named function where it has one (named), else ga_ufunc_call.
    Returns (status, [result pointers]) with the results owned by t."""
    lib = t.lib
    lib.ga_clear_error()
    if named and uf.form in ("unary", "binary"):
        fn = "ga_" + uf.name
        arr = [isinstance(x, DevArray) for x in inputs]
        if uf.form == "unary":
            p = getattr(lib, fn)(inputs[0])
        elif all(arr):
            p = getattr(lib, fn)(inputs[0], inputs[1])
        elif arr[0]:
            p = getattr(lib, fn + "_scalar")(inputs[0], ga_scalar(inputs[1]))
        else:
            p = getattr(lib, fn + "_rscalar")(ga_scalar(inputs[0]), inputs[1])
        if not p:
            return lib.ga_last_error(), []
        return 0, [t.own(p)]
    outs = (_ARR * 2)()
    st = lib.ga_ufunc_call(uf.index, ga_operands(inputs), outs)
    if st != 0:
        if outs[0] or outs[1]:
            t.fail(f"ga_ufunc_call({uf.name}) failed but stored outputs")
        return st, []
    return 0, [t.own(outs[k]) for k in range(uf.nout)]


def input_kinds(env, hosts):
    """The kind characters of the array inputs (bfloat16: 'f')."""
    return "".join("f" if h.dtype == env.bf16 else h.dtype.kind for h in hosts if isinstance(h, np.ndarray))


def describe_inputs(args):
    """'int8, 1.5': array inputs by dtype, scalars by value."""
    return ", ".join(str(a.dtype) if isinstance(a, np.ndarray) else repr(a) for a in args)


def expect_ufunc_failure(t, label, st, status, text=None):
    """The call failed with `status` (and a message containing `text`)."""
    env = t.env
    if st == 0:
        t.fail(f"{label}: succeeded; NumPy raises")
        return
    got_st, msg = env.last_error()
    name = env.statuses[got_st][0] if 0 <= got_st < len(env.statuses) else got_st
    t.expect(got_st == env.status[status], f"{label}: status {name}, expected {status} ({msg!r})")
    if text is not None:
        t.expect(text in msg, f"{label}: message {msg!r} lacks NumPy's {text!r}")
    t.lib.ga_clear_error()


def run_ufunc_case(t, uf, label, hosts, inputs, params=None, named=True, layout=True):
    """One call against NumPy: dtypes, shapes, values (and layout)."""
    env = t.env
    ins = [h.dtype if isinstance(h, np.ndarray) else h for h in hosts]
    want_dt = oracle_ufunc_dtypes(env, uf.name, ins, uf.nout)
    call = f"{uf.name}({describe_inputs(hosts)}) {label}"
    st, res = ufunc_call(t, uf, inputs, named)
    if want_dt is None:
        expect_ufunc_failure(t, call, st, "GA_ERROR_TYPE")
        return
    try:
        want = oracle_ufunc_values(env, uf.name, hosts, params, want_dt)
    except OverflowError as e:  # a Python int out of the dtype's range
        expect_ufunc_failure(t, call, st, "GA_ERROR_OVERFLOW", str(e))
        return
    except ValueError as e:  # integer power with a negative exponent
        expect_ufunc_failure(t, call, st, "GA_ERROR_VALUE", str(e))
        return
    except TypeError:  # NumPy refuses these values or parameters
        expect_ufunc_failure(t, call, st, "GA_ERROR_TYPE")
        return
    if st != 0:
        t.fail(f"{call}: failed ({env.last_error()[1]}); NumPy gives {[dname(w) for w in want_dt]}")
        t.lib.ga_clear_error()
        return
    kinds = input_kinds(env, hosts)
    for k in range(uf.nout):
        got = to_numpy(t, res[k])
        t.expect(t.lib.ga_dtype_of(res[k]) == want_dt[k],
                 f"{call}: output {k} dtype {dname(t.lib.ga_dtype_of(res[k]))}, NumPy {dname(want_dt[k])}")
        compare_ufunc(t, f"{call} output {k}" if uf.nout > 1 else call, uf.name, got, want[k], kinds, params,
                      also=ufunc_quirks(uf.name, hosts, got, want[k], params))
    arrays = [h for h in hosts if isinstance(h, np.ndarray)]
    if layout and arrays:
        check_result_layout(t, call, res[0], arrays)


# ---- the checks ------------------------------------------------------------------

def check_ufunc(t, uf, gas, full=True):
    """Ufunc `uf` on arrays of ga_dtypes `gas`, every layout (full) or a few."""
    domains = [ufunc_domain(uf.name, k) for k in range(uf.nin)]
    if uf.name == "where":
        domains = ["any"] * 3
    n = 1000 + int(t.rng.integers(0, 300))
    ins = [t.env.np_dtype(g) for g in gas]
    if oracle_ufunc_dtypes(t.env, uf.name, ins, uf.nout) is None:
        hosts, devs = ufunc_inputs(t, uf, gas, [("base", (3,))] * uf.nin, domains, n)
        run_ufunc_case(t, uf, "(unsupported)", hosts, [dev(d) for d in devs])
        return
    for label, specs in ufunc_layouts(uf.nin, full):
        hosts, devs = ufunc_inputs(t, uf, gas, specs, domains, n)
        run_ufunc_case(t, uf, label, hosts, [dev(d) for d in devs])


# Python scalars for the scalar forms (NumPy decides which it accepts: an
# int out of an integer array's range is its OverflowError).
UFUNC_SCALARS = (True, 3, -2, 0, 300, 2**63 + 5, 1.5, -0.25, math.nan, -math.inf, complex(1.5, -0.5))


def ufunc_scalars_for(uf, k):
    """The scalars tried for input k of a binary ufunc (a negative integer
    exponent of integer power is NumPy's ValueError, and gpuarr's error)."""
    if uf.name in ("power", "float_power") and k == 1:
        return (True, 3, 0, -2, 1.5, -0.25, math.nan, complex(1.5, -0.5))
    if uf.name == "ldexp" and k == 1:
        return (True, 3, -2, 0, 300, 1.5)
    return UFUNC_SCALARS


def check_ufunc_scalars(t, uf, ga):
    """ga_X_scalar(a, s) and ga_X_rscalar(s, a) for Python scalars s."""
    dt = t.env.np_dtype(ga)
    n = 200 + int(t.rng.integers(0, 50))
    for k in (1, 0):
        pos = 1 - k  # where the array goes
        for s in ufunc_scalars_for(uf, k):
            h = ufunc_values(t, ga, n, ufunc_domain(uf.name, pos),
                             ufunc_exact_complex(uf.name, kind_of(ga)))
            d = dev(to_device(t, h))
            hosts = [h, s] if k == 1 else [s, h]
            inputs = [d, s] if k == 1 else [s, d]
            run_ufunc_case(t, uf, f"({'scalar' if k == 1 else 'rscalar'} form)", hosts, inputs, layout=False)


def check_ufunc_call_scalars(t, uf, ga):
    """ga_ufunc_call with weak scalars for where's x and/or y (cond a bool
    array) or clip's lo and/or hi; the arrays are of dtype `ga`."""
    n = 100 + int(t.rng.integers(0, 50))
    cond_or_a = ufunc_values(t, GA["bool"] if uf.name == "where" else ga, n, "any")
    scalars = (True, 3, -2, 1.5, complex(1.5, -0.5))
    for pattern in ((1,), (2,), (1, 2)):
        for s in scalars:
            hosts, inputs = [cond_or_a], [dev(to_device(t, cond_or_a))]
            for k in (1, 2):
                if k in pattern:
                    hosts.append(s)
                    inputs.append(s)
                else:
                    h = ufunc_values(t, ga, n, "any")
                    hosts.append(h)
                    inputs.append(dev(to_device(t, h)))
            run_ufunc_case(t, uf, f"(scalars at {pattern})", hosts, inputs, layout=False)


def check_ufunc_params(t, uf, ga):
    """round, nan_to_num, angle and isclose with their extra arguments
    (named functions), and ga_allclose."""
    env, lib = t.env, t.lib
    n = 300 + int(t.rng.integers(0, 50))
    h = ufunc_values(t, ga, n, "any")
    if uf.name == "round":
        for decimals in (0, 1, 2, 3, -1, -2):
            d = to_device(t, h)
            lib.ga_clear_error()
            p = lib.ga_round(d, decimals)
            run_param_case(t, uf, f"ga_round(decimals={decimals})", [h], p, {"decimals": decimals})
    elif uf.name == "nan_to_num":
        d = to_device(t, h)
        lib.ga_clear_error()
        run_param_case(t, uf, "ga_nan_to_num", [h], lib.ga_nan_to_num(d), {})
        for nan, posinf, neginf in ((1.5, 100.0, -100.0), (-0.0, 1e300, -1e300), (7.0, 65504.0, -7.0)):
            lib.ga_clear_error()
            p = lib.ga_nan_to_num_values(d, nan, posinf, neginf)
            run_param_case(t, uf, f"ga_nan_to_num_values({nan}, {posinf}, {neginf})", [h], p,
                           {"nan": nan, "posinf": posinf, "neginf": neginf})
    elif uf.name == "angle":
        d = to_device(t, h)
        for deg in (False, True):
            lib.ga_clear_error()
            run_param_case(t, uf, f"ga_angle(deg={deg})", [h], lib.ga_angle(d, deg), {"deg": deg})
    elif uf.name == "isclose":
        a, b = isclose_pair(t, ga, n)
        da, db = to_device(t, a), to_device(t, b)
        for rtol, atol, equal_nan in ((1e-5, 1e-8, False), (1e-5, 1e-8, True), (1e-3, 0.0, False),
                                      (0.0, 1e-8, True)):
            params = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan}
            lib.ga_clear_error()
            p = lib.ga_isclose(da, db, rtol, atol, equal_nan)
            run_param_case(t, uf, f"ga_isclose(rtol={rtol}, atol={atol}, equal_nan={equal_nan})", [a, b], p, params)
            close = oracle_ufunc_values(env, "isclose", [a, b], params, (GA["bool"],))[0]
            with quiet():
                same = (a == b) | (np.isnan(a) & np.isnan(b)) if kind_of(ga) in "fc" else a == b
            for sub, label in ((slice(None), "all"), (same, "equal ones")):
                ha, hb = a[sub], b[sub]
                want = bool(close[sub].all())
                res = ctypes.c_bool(not want)
                st = lib.ga_allclose(to_device(t, ha), to_device(t, hb), rtol, atol, equal_nan, ctypes.byref(res))
                if st != 0:
                    t.fail(f"ga_allclose ({label}) failed: {env.last_error()[1]}")
                    lib.ga_clear_error()
                else:
                    t.expect(res.value == want, f"ga_allclose({dname(ga)}, {label}, rtol={rtol}, atol={atol}, "
                                                f"equal_nan={equal_nan}) = {res.value}, NumPy {want}")


def run_param_case(t, uf, label, hosts, p, params):
    """Compares the result p of a named function with NumPy's."""
    env = t.env
    ins = [h.dtype for h in hosts]
    want_dt = oracle_ufunc_dtypes(env, uf.name, ins, uf.nout)
    if want_dt is None:
        expect_ufunc_failure(t, label, 0 if p else 1, "GA_ERROR_TYPE")
        if p:
            t.own(p)
        return
    if not p:
        try:
            oracle_ufunc_values(env, uf.name, hosts, params, want_dt)
        except TypeError:  # NumPy raises too: round of bool with decimals != 0
            expect_ufunc_failure(t, label, 1, "GA_ERROR_TYPE")
            return
        t.fail(f"{label} on {hosts[0].dtype} failed: {env.last_error()[1]}")
        t.lib.ga_clear_error()
        return
    t.own(p)
    try:
        want = oracle_ufunc_values(env, uf.name, hosts, params, want_dt)
    except TypeError as e:  # e.g. round of bool with decimals != 0
        t.fail(f"{label} on {hosts[0].dtype}: returned an array; NumPy raises {type(e).__name__}({e})")
        return
    got = to_numpy(t, p)
    t.expect(t.lib.ga_dtype_of(p) == want_dt[0],
             f"{label}: dtype {dname(t.lib.ga_dtype_of(p))}, NumPy {dname(want_dt[0])}")
    kinds = input_kinds(env, hosts)
    also = None
    if uf.name == "round" and want[0].dtype == np.uint32 and params.get("decimals", 0) < 0 \
            and got.shape == want[0].shape:
        # NumPy rounds integers in float64 and casts back to uint32: out of
        # range, its SIMD and scalar casts disagree (as in compare())
        f = 10.0 ** -params["decimals"]
        with quiet():
            lone = bits(lone_cast((np.rint(hosts[0].astype(np.float64) / f) * f).reshape(-1), np.uint32))
        g = bits(got)
        also = lambda idx: g[idx] == lone[idx]  # noqa: E731
    if also is None:
        also = ufunc_quirks(uf.name, hosts, got, want[0], params)
    compare_ufunc(t, f"{label} on {hosts[0].dtype}", uf.name, got, want[0], kinds, params, also=also)


def isclose_pair(t, ga, n):
    """a and b for isclose: equal, close (relative 1e-7, absolute 1e-9) or
    clearly not (relative 1e-2, absolute 1e-6), never near the bound."""
    rng, dt = t.rng, t.env.np_dtype(ga)
    a = ufunc_values(t, ga, n, "any")
    if kind_of(ga) in "biu":
        b = a.copy()
        change = rng.random(n) < 0.5
        with quiet():
            b[change] = ufunc_values(t, ga, int(change.sum()), "any")
        return a, b
    wide = np.complex128 if kind_of(ga) == "c" else np.float64
    with quiet():
        x = a.astype(wide)
        how = rng.integers(0, 5, n)
        y = np.choose(how, [x, x * (1 + 1e-7), x * (1 + 1e-2), x + 1e-9, x + 1e-6])
        b = y.astype(dt)
    return a, b


def check_ufunc_named_pairs(t, uf, ga):
    """ga_divmod, ga_modf and ga_frexp, and ga_ufunc_call into given outputs."""
    env, lib = t.env, t.lib
    n = 500 + int(t.rng.integers(0, 50))
    domains = [ufunc_domain(uf.name, k) for k in range(uf.nin)]
    hosts = [ufunc_values(t, ga, n, domains[k]) for k in range(uf.nin)]
    devs = [to_device(t, h) for h in hosts]
    want_dt = oracle_ufunc_dtypes(env, uf.name, [h.dtype for h in hosts], 2)
    first, second = ctypes.c_void_p(), ctypes.c_void_p()
    lib.ga_clear_error()
    fn = getattr(lib, "ga_" + uf.name)
    st = fn(*devs, ctypes.byref(first), ctypes.byref(second))
    label = f"ga_{uf.name}({dname(ga)})"
    if want_dt is None:
        expect_ufunc_failure(t, label, st, "GA_ERROR_TYPE")
        t.expect(not first.value and not second.value, f"{label}: outputs stored on failure")
        return
    if st != 0:
        t.fail(f"{label} failed: {env.last_error()[1]}")
        lib.ga_clear_error()
        return
    res = [t.own(first.value), t.own(second.value)]
    want = oracle_ufunc_values(env, uf.name, hosts, {}, want_dt)
    kinds = "".join(kind_of(ga) for _ in hosts)
    for k in range(2):
        t.expect(lib.ga_dtype_of(res[k]) == want_dt[k], f"{label}: output {k} dtype {dname(lib.ga_dtype_of(res[k]))}")
        compare_ufunc(t, f"{label} output {k}", uf.name, to_numpy(t, res[k]), want[k], kinds)
    # ga_ufunc_call into given outputs: a strided view and a contiguous array
    outs_h = [np.zeros(BASE_N, env.np_dtype(want_dt[0])), np.zeros((20, 30), env.np_dtype(want_dt[1]))]
    label2, shape, strides, offset = VIEWS[0]
    hs = [ufunc_values(t, ga, BASE_N, domains[k]) for k in range(uf.nin)]
    ds = [device_view(t, to_device(t, h), h.itemsize, shape, strides, offset) for h in hs]
    hv = [host_view(h, shape, strides, offset) for h in hs]
    o0 = to_device(t, outs_h[0])
    o1 = to_device(t, outs_h[1])
    ov = device_view(t, o0, outs_h[0].itemsize, shape, strides, offset)
    outs = (_ARR * 2)(ov, o1)
    lib.ga_clear_error()
    st = lib.ga_ufunc_call(uf.index, ga_operands([dev(d) for d in ds]), outs)
    if st != 0:
        t.fail(f"ga_ufunc_call({uf.name}) into given outputs failed: {env.last_error()[1]}")
        lib.ga_clear_error()
        return
    t.expect(outs[0] == ov and outs[1] == o1, f"ga_ufunc_call({uf.name}) replaced given outputs")
    want = oracle_ufunc_values(env, uf.name, hv, {}, want_dt)
    w0 = outs_h[0].copy()
    host_view(w0, shape, strides, offset)[...] = want[0]
    compare_ufunc(t, f"ga_ufunc_call({uf.name}) into view '{label2}' (whole base)", uf.name,
                  to_numpy(t, o0), w0, kinds)
    compare_ufunc(t, f"ga_ufunc_call({uf.name}) second output", uf.name, to_numpy(t, o1), want[1], kinds)


# out= (the _out forms): (ufunc, input dtypes, another output dtype allowed by same_kind)
UFUNC_OUT_CASES = (
    ("add", ("float32", "float32"), "float16"), ("add", ("int16", "int16"), "int8"),
    ("multiply", ("float64", "float64"), "float32"), ("less", ("int64", "uint64"), "int8"),
    ("exp", ("float32",), "float64"), ("floor_divide", ("int32", "int32"), "int64"),
    ("bitwise_and", ("uint8", "uint8"), "uint16"), ("arctan2", ("float64", "float64"), "float16"),
    ("divide", ("int32", "int32"), "float32"), ("negative", ("complex64",), "complex128"),
    ("maximum", ("float16", "float16"), "float64"), ("logical_xor", ("bool", "int8"), "float32"),
)


def check_ufunc_out(t, name, in_names, other):
    """ga_X_out into a strided view (the rest of its base untouched), into
    another dtype, in place, and into a view overlapping an input."""
    env, lib = t.env, t.lib
    uf = env.ufunc[name]
    gas = [GA[n] for n in in_names]
    want_dt = oracle_ufunc_dtypes(env, name, [env.np_dtype(g) for g in gas], 1)
    rdt = env.np_dtype(want_dt[0])
    domains = [ufunc_domain(name, k) for k in range(uf.nin)]
    vlabel, shape, strides, offset = VIEWS[0]
    fn = getattr(lib, f"ga_{name}_out")
    kinds = "".join(kind_of(g) for g in gas)

    def inputs():
        hs = [ufunc_values(t, g, BASE_N, domains[k]) for k, g in enumerate(gas)]
        ds = [device_view(t, to_device(t, h), h.itemsize, shape, strides, offset) for h in hs]
        return hs, [host_view(h, shape, strides, offset) for h in hs], ds

    for out_name in (rdt.name, other):
        odt = np.dtype(out_name)
        hs, hv, ds = inputs()
        obase = ufunc_values(t, GA[out_name], BASE_N, "any")
        dobase = to_device(t, obase)
        ov = device_view(t, dobase, odt.itemsize, shape, strides, offset)
        lib.ga_clear_error()
        st = fn(*ds, ov)
        label = f"ga_{name}_out({', '.join(in_names)} -> {out_name} view '{vlabel}')"
        if st != 0:
            t.fail(f"{label} failed: {env.last_error()[1]}")
            lib.ga_clear_error()
            continue
        want = obase.copy()
        with quiet():
            getattr(np, name)(*hv, out=host_view(want, shape, strides, offset))
        got = to_numpy(t, dobase)
        if odt != rdt and np.can_cast(rdt, odt, "safe"):
            # a wider out holds the loop's results exactly: compare them with
            # the loop dtype's tolerance (exp float32 into float64 is float32's)
            with quiet():
                got, want = got.astype(rdt), want.astype(rdt)
        compare_ufunc(t, label + " (whole base)", name, got, want, kinds)
    # in place: the first input is the output
    if np.dtype(in_names[0]) == rdt:
        hs, hv, ds = inputs()
        lib.ga_clear_error()
        st = fn(*ds, ds[0])
        label = f"ga_{name}_out(a, ..., a) in place on {in_names}"
        if st != 0:
            t.fail(f"{label} failed: {env.last_error()[1]}")
            lib.ga_clear_error()
        else:
            want = hs[0].copy()
            with quiet():
                getattr(np, name)(*[host_view(want, shape, strides, offset)] + hv[1:],
                                  out=host_view(want, shape, strides, offset))
            compare_ufunc(t, label, name, to_numpy(t, ds[0]), host_view(want, shape, strides, offset).copy(), kinds)
        # overlapping: the output is the first input's base reversed
        base = ufunc_values(t, gas[0], BASE_N, domains[0])
        dbase = to_device(t, base)
        others = [ufunc_values(t, g, BASE_N, domains[k + 1]) for k, g in enumerate(gas[1:])]
        dothers = [to_device(t, h) for h in others]
        rev = device_view(t, dbase, base.itemsize, (BASE_N,), (-1,), BASE_N - 1)
        lib.ga_clear_error()
        st = fn(dbase, *dothers, rev)
        label = f"ga_{name}_out(a, ..., a[::-1]) overlapping on {in_names}"
        if st != 0:
            t.fail(f"{label} failed: {env.last_error()[1]}")
            lib.ga_clear_error()
        else:
            want = base.copy()
            with quiet():
                getattr(np, name)(want, *others, out=want[::-1])
            compare_ufunc(t, label, name, to_numpy(t, dbase), want, kinds)


def check_ufunc_errors(t):
    """Errors as NumPy's, and out= untouched when a call fails."""
    env, lib = t.env, t.lib

    def arr(shape, name="float64", fill=0):
        return to_device(t, np.full(shape, fill, dtype=np.dtype(name)))

    def untouched(label, p, before):
        compare(t, f"{label}: out after the failed call", to_numpy(t, p), before)

    # shapes that do not broadcast
    e = numpy_error(lambda: np.add(np.zeros(3), np.zeros(4)))
    lib.ga_clear_error()
    p = lib.ga_add(arr((3,)), arr((4,)))
    expect_error(t, "ga_add((3,), (4,))", p, "GA_ERROR_SHAPE", str(e).strip(), exact=False)
    t.expect("could not be broadcast" in str(e), f"NumPy's message changed: {e}")
    e = numpy_error(lambda: np.where(np.zeros(3, bool), np.zeros(3), np.zeros(4)))
    lib.ga_clear_error()
    p = lib.ga_where(arr((3,), "bool"), arr((3,)), arr((4,)))
    expect_error(t, "ga_where((3,), (3,), (4,))", p, "GA_ERROR_SHAPE", str(e).strip(), exact=False)
    # no loop for the dtypes
    e = numpy_error(lambda: np.bitwise_and(np.zeros(3, np.float32), np.zeros(3, np.float32)))
    lib.ga_clear_error()
    p = lib.ga_bitwise_and(arr((3,), "float32"), arr((3,), "float32"))
    expect_error(t, "ga_bitwise_and(float32, float32)", p, "GA_ERROR_TYPE",
                 "ufunc 'bitwise_and' not supported for the input types", exact=False)
    for name, dts in (("subtract", ("bool", "bool")), ("negative", ("bool",))):
        e = numpy_error(lambda: getattr(np, name)(*[np.zeros(3, d) for d in dts]))
        lib.ga_clear_error()
        p = getattr(lib, "ga_" + name)(*[arr((3,), d) for d in dts])
        expect_error(t, f"ga_{name}{dts}", p, "GA_ERROR_TYPE", str(e), exact=False)
    # out= of a dtype the result does not cast to (same_kind), of a bad shape,
    # read-only: an error, and out keeps its values
    cases = (
        ("float64 -> int32", ((3,), (3,)), ((3,), "int32"),
         lambda o: np.add(np.zeros(3), np.zeros(3), out=o), "GA_ERROR_TYPE"),
        ("(3,4)+(4,) -> (4,)", ((3, 4), (4,)), ((4,), "float64"),
         lambda o: np.add(np.zeros((3, 4)), np.zeros(4), out=o), "GA_ERROR_SHAPE"),
        ("(3,4)+(4,) -> (3,5)", ((3, 4), (4,)), ((3, 5), "float64"),
         lambda o: np.add(np.zeros((3, 4)), np.zeros(4), out=o), "GA_ERROR_SHAPE"),
        ("(3,4)+(4,) -> (1,4)", ((3, 4), (4,)), ((1, 4), "float64"),
         lambda o: np.add(np.zeros((3, 4)), np.zeros(4), out=o), "GA_ERROR_SHAPE"),
    )
    for label, (sa, sb), (so, odt), npcall, status in cases:
        before = np.full(so, 7, dtype=odt)
        o = to_device(t, before)
        e = numpy_error(lambda: npcall(before.copy()))
        lib.ga_clear_error()
        st = lib.ga_add_out(arr(sa), arr(sb), o)
        expect_error(t, f"ga_add_out {label}", st, status, str(e).strip(), exact=False)
        untouched(f"ga_add_out {label}", o, before)
    ro = t.own(lib.ga_broadcast_to(arr((1,), fill=7), 1, i64s([3])), "ga_broadcast_to")
    e = numpy_error(lambda: np.add(np.zeros(3), np.zeros(3), out=np.broadcast_to(np.zeros(1), (3,))))
    lib.ga_clear_error()
    expect_error(t, "ga_add_out into a read-only view", lib.ga_add_out(arr((3,)), arr((3,)), ro),
                 "GA_ERROR_VALUE", str(e), exact=False)
    untouched("ga_add_out into a read-only view", ro, np.full(3, 7.0))
    # two-output functions: nothing stored on failure
    q, r = ctypes.c_void_p(), ctypes.c_void_p()
    lib.ga_clear_error()
    st = lib.ga_divmod(arr((3,), "complex64"), arr((3,), "complex64"), ctypes.byref(q), ctypes.byref(r))
    expect_error(t, "ga_divmod(complex64, complex64)", st, "GA_ERROR_TYPE", "divmod", exact=False)
    t.expect(not q.value and not r.value, "ga_divmod stored outputs on failure")
    # a Python int out of the array's range
    for value, dt in ((-2, "uint8"), (300, "int8"), (2**63 + 5, "int64")):
        e = numpy_error(lambda: np.add(np.zeros(3, dt), value))
        lib.ga_clear_error()
        p = lib.ga_add_scalar(arr((3,), dt), ga_scalar(value))
        expect_error(t, f"ga_add_scalar({dt}, {value})", p, "GA_ERROR_OVERFLOW", str(e), exact=False)
    # clip needs a bound (gpuarr.h; NumPy 2.4 returns a copy)
    lib.ga_clear_error()
    expect_error(t, "ga_clip(a, NULL, NULL)", lib.ga_clip(arr((3,)), None, None), "GA_ERROR_VALUE",
                 "One of max or min must be given", exact=False)


def check_clip_one_bound(t, ga):
    """ga_clip with one bound NULL: NumPy's clip(a, lo, None) / (a, None, hi)."""
    env, lib = t.env, t.lib
    uf = env.ufunc["clip"]
    n = 300
    a, b = ufunc_values(t, ga, n, "any"), ufunc_values(t, ga, n, "any")
    da, db = to_device(t, a), to_device(t, b)
    for label, args, dargs, npf in (("lo only", (a, b), (da, db, None), "maximum"),
                                    ("hi only", (a, b), (da, None, db), "minimum")):
        want_dt = oracle_ufunc_dtypes(env, npf, [a.dtype, b.dtype], 1)
        lib.ga_clear_error()
        p = lib.ga_clip(*dargs)
        if not p:
            t.fail(f"ga_clip ({label}) on {dname(ga)} failed: {env.last_error()[1]}")
            lib.ga_clear_error()
            continue
        t.own(p)
        with quiet():
            want = np.clip(*args, None) if label == "lo only" else np.clip(a, None, b)
        if env.bf16 is not None and a.dtype == env.bf16:
            want = oracle_ufunc_values(env, npf, list(args), {}, want_dt)[0]
        compare_ufunc(t, f"ga_clip({dname(ga)}, {label})", uf.name, to_numpy(t, p), want, kind_of(ga) * 2)


def check_real_imag(t, ga):
    """ga_real / ga_imag: views of a complex array's parts (writing through
    them writes the array); of a real array, itself and zeros."""
    env, lib = t.env, t.lib
    dt = env.np_dtype(ga)
    h = ufunc_values(t, ga, 40, "any").reshape(5, 8)
    d = to_device(t, h)
    cplx = kind_of(ga) == "c"
    expect_h = h.copy()  # a's values as the writes below change them
    for name in ("real", "imag"):
        lib.ga_clear_error()
        p = getattr(lib, "ga_" + name)(d)
        if not p:
            t.fail(f"ga_{name}({dname(ga)}) failed: {env.last_error()[1]}")
            lib.ga_clear_error()
            continue
        t.own(p)
        if cplx:
            want = np.ascontiguousarray(expect_h.real if name == "real" else expect_h.imag)
        else:
            want = h if name == "real" else np.zeros_like(h)
        compare(t, f"ga_{name}({dname(ga)})", to_numpy(t, p), want)
        if cplx:
            t.expect(not (lib.ga_flags(p) & GA_OWNDATA), f"ga_{name}({dname(ga)}) is not a view")
            src = to_device(t, np.full((5, 8), 2.5, dtype=want.dtype))
            if lib.ga_copyto(p, src, UNSAFE) != 0:
                t.env.fail_call(f"ga_copyto into ga_{name}'s view")
            if name == "real":
                expect_h.real = 2.5
            else:
                expect_h.imag = 2.5
            compare(t, f"writing through ga_{name}({dname(ga)})", to_numpy(t, d), expect_h)
        elif name == "real":
            t.expect(p == d, "ga_real of a real array is not the array itself")


# Mixed-dtype pairs for the binary ufuncs (each also reversed).
UFUNC_MIXED_PAIRS = (("int64", "uint64"), ("int8", "uint64"), ("int8", "uint8"), ("int32", "uint32"),
                     ("int16", "float16"), ("float32", "float64"), ("int32", "float32"), ("int64", "float64"),
                     ("uint8", "float32"), ("bool", "int8"), ("bool", "float64"), ("float16", "bfloat16"),
                     ("bfloat16", "float32"), ("int8", "bfloat16"), ("int16", "bfloat16"),
                     ("float32", "complex64"), ("float64", "complex64"), ("complex64", "complex128"),
                     ("int64", "complex64"), ("uint16", "int32"), ("float16", "float32"))


def check_ufunc_info(t):
    """ga_ufunc_name, ga_ufunc_nin and ga_ufunc_nout follow gpuarr.h's lists."""
    lib = t.lib
    for uf in t.env.ufuncs:
        name = lib.ga_ufunc_name(uf.index)
        got = (name.decode() if name else None, lib.ga_ufunc_nin(uf.index), lib.ga_ufunc_nout(uf.index))
        t.expect(got == (uf.name, uf.nin, uf.nout), f"ufunc {uf.index}: (name, nin, nout) {got}, "
                                                   f"gpuarr.h {(uf.name, uf.nin, uf.nout)}")
    n = len(t.env.ufuncs)
    t.expect(lib.ga_ufunc_name(n) is None and lib.ga_ufunc_nin(n) == -1, "a number past the lists is a ufunc")


def ga_resolve(lib, uf, ins):
    """ga_ufunc_resolve_dtypes for ga_dtypes (ints) and Python scalars."""
    dts = (_DT * 3)(*[x if isinstance(x, DevArray) else GA_INVALID for x in ins] + [GA_INVALID] * (3 - len(ins)))
    scs = (GaScalar * 3)()
    for i, x in enumerate(ins):
        scs[i] = ga_scalar(0) if isinstance(x, DevArray) else ga_scalar(x)
    out = (_DT * 2)(GA_INVALID, GA_INVALID)
    lib.ga_clear_error()
    st = lib.ga_ufunc_resolve_dtypes(uf.index, dts, scs, out)
    lib.ga_clear_error()
    return st, tuple(out[k] for k in range(uf.nout))


def check_ufunc_types(t, uf):
    """ga_ufunc_resolve_dtypes against NumPy under the project's bfloat16 rule
    (bfloat16 behaves like float16; tests/test_ufunc_types.c compares with
    ml_dtypes' own answers and names the entries where they differ)."""
    env = t.env
    gas = [g for g in range(len(DTYPE_NAMES)) if env.has(g)]
    weak = list(WEAK_REPRESENTATIVE.values())
    arrays = [DevArray(g) for g in gas]
    pools = [arrays + weak] * uf.nin
    if uf.name == "where":
        pools[0] = [DevArray(GA["bool"])]  # cond: a bool array
    elif uf.name == "clip":
        pools[0] = arrays  # a: an array
    for ins in itertools.product(*pools):
        if not any(isinstance(x, DevArray) for x in ins) and uf.name in NUMPY_UFUNC_FUNCTIONS:
            continue  # NumPy functions that are not ufuncs are asked with arrays
        st, got = ga_resolve(t.lib, uf, ins)
        want = oracle_ufunc_dtypes(env, uf.name, [env.np_dtype(x) if isinstance(x, DevArray) else x
                                                  for x in ins], uf.nout)
        ok = st == env.status["GA_ERROR_TYPE"] if want is None else (st == 0 and got == want)
        if not ok:
            args = ", ".join(dname(x) if isinstance(x, DevArray) else repr(x) for x in ins)
            t.fail(f"{uf.name}({args}): {'error' if st else [dname(g) for g in got]}, "
                   f"NumPy {'error' if want is None else [dname(w) for w in want]}")


# ---- special values (issue 15) --------------------------------------------------


def _same_parts(got, want, rel):
    """Per element and part: NaN for NaN, infinities with their signs, finite
    values within rel of NumPy's (zero signs free)."""
    g = np.asarray(got).astype(np.complex128).reshape(-1)
    w = np.asarray(want).astype(np.complex128).reshape(-1)
    ok = np.ones(g.shape, bool)
    with quiet():
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            ok &= np.where(np.isnan(wp), np.isnan(gp),
                           np.where(np.isinf(wp), gp == wp,
                                    np.isfinite(gp) & (np.abs(gp - wp) <= rel * np.abs(wp))))
    return ok


def check_float16_steps(t):
    """float16 spacing of every value (and of int8, uint8 and bool inputs,
    whose loop is float16) and nextafter of random and special pairs, bit for
    bit, NaN included: NumPy's own npy_half_spacing / npy_half_nextafter."""
    lib = t.lib
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    with quiet():
        want = np.spacing(x)
    got = to_numpy(t, t.own(lib.ga_spacing(to_device(t, x)), "ga_spacing"))
    bad = got.view(np.uint16) != want.view(np.uint16)
    if bad.any():
        i = int(np.nonzero(bad)[0][0])
        t.fail(f"spacing(float16): {int(bad.sum())} of 65536 differ; first {x[i]!r}: {got[i]!r}, NumPy {want[i]!r}")
    for dt, v in ((np.int8, np.arange(-128, 128)), (np.uint8, np.arange(256)), (np.bool_, np.array([0, 1]))):
        v = v.astype(dt)
        with quiet():
            want = np.spacing(v)
        got = to_numpy(t, t.own(lib.ga_spacing(to_device(t, v)), "ga_spacing"))
        if got.dtype != want.dtype or (got.view(np.uint16) != want.view(np.uint16)).any():
            i = int(np.nonzero(got.view(np.uint16) != want.view(np.uint16))[0][0]) if got.dtype == want.dtype else 0
            t.fail(f"spacing({np.dtype(dt).name}): {got.dtype} {got[i]!r} for {v[i]!r}, NumPy {want.dtype} {want[i]!r}")
    rng = t.rng
    sp = np.array([0, 0x8000, 1, 0x8001, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x7e00, 0x0400], np.uint16)
    a = np.concatenate([rng.integers(0, 65536, 20000).astype(np.uint16), np.repeat(sp, sp.size)])
    b = np.concatenate([rng.integers(0, 65536, 20000).astype(np.uint16), np.tile(sp, sp.size)])
    a, b = a.view(np.float16), b.view(np.float16)
    with quiet():
        want = np.nextafter(a, b)
    got = to_numpy(t, t.own(lib.ga_nextafter(to_device(t, a), to_device(t, b)), "ga_nextafter"))
    bad = got.view(np.uint16) != want.view(np.uint16)
    if bad.any():
        i = int(np.nonzero(bad)[0][0])
        t.fail(f"nextafter(float16): {int(bad.sum())} differ; first ({a[i]!r}, {b[i]!r}): {got[i]!r}, NumPy "
               f"{want[i]!r}")


def _complex_grid(dt):
    """Every pair of special and overflowing parts, as dtype dt."""
    big = 1e200 if dt == np.complex128 else 1e20
    parts = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -2.0, 0.5, big, -3 * big])
    re_, im = np.meshgrid(parts, parts)
    with quiet():
        return (re_.reshape(-1) + 1j * im.reshape(-1)).astype(dt)


def check_complex_power_specials(t, ga):
    """power of complex numbers with infinite, NaN, zero and overflowing
    parts to small integer exponents (NumPy's repeated multiplication) and
    others: NumPy's values part by part."""
    lib = t.lib
    dt = t.env.np_dtype(ga)
    z = _complex_grid(dt)
    d = to_device(t, z)
    rel = 1e-5 if dt == np.complex64 else 1e-12
    for n in (0, 1, 2, 3, 4, 5, 7, -1, -2, -3):
        with quiet():
            want = np.power(z, n)
        got = to_numpy(t, t.own(lib.ga_power_scalar(d, ga_scalar(n)), "ga_power_scalar"))
        # a negative power divides 1 by the product: Smith's division rounds as NumPy's
        ok = _same_parts(got, want, rel if n >= 0 else 4 * rel)
        if not ok.all():
            i = int(np.nonzero(~ok)[0][0])
            t.fail(f"power({dname(ga)} {z[i]!r}, {n}): {int((~ok).sum())} differ; first {got[i]!r}, NumPy {want[i]!r}")
    # an array of integer exponents (the complex loop)
    e = np.resize(np.array([2, 3, 1, 0, 5], np.int64), z.size)
    with quiet():
        want = np.power(z, e)
    got = to_numpy(t, t.own(lib.ga_power(d, to_device(t, e)), "ga_power"))
    ok = _same_parts(got, want, rel)
    if not ok.all():
        i = int(np.nonzero(~ok)[0][0])
        t.fail(f"power({dname(ga)} {z[i]!r}, int64 {e[i]}): {got[i]!r}, NumPy {want[i]!r}")


def check_integer_power_errors(t):
    """Integer power with a negative exponent: NumPy's ValueError (arrays,
    0-d arrays, views, weak scalars), out= untouched; none for an empty
    result or for unsigned exponents."""
    lib = t.lib
    msg = str(numpy_error(lambda: np.power(np.array([2]), np.array([-1]))))
    for dt in ("int8", "int32", "int64", "uint8"):
        base = np.array([2, 3, 4, 5], dt)
        for ename, exp in (("array", np.array([1, 2, -1, 3], "int64")), ("0-d", np.array(-2, "int16")),
                           ("view", np.array([1, -3, 2, 5, 1, 1, 1, 1], "int32")[::2]),
                           ("view with a negative", np.array([1, -3, 2, 5, 1, 1, 1, 1], "int32")[1::2])):
            e = numpy_raises(lambda: np.power(base, exp))
            lib.ga_clear_error()
            p = lib.ga_power(to_device(t, base), to_device(t, exp))
            if isinstance(e, ValueError):
                expect_error(t, f"power({dt}, {ename} with a negative exponent)", p, "GA_ERROR_VALUE", msg,
                             exact=False)
            elif not p:
                t.fail(f"power({dt}, {ename}): {t.env.last_error()[1]}; NumPy gives a result")
            else:
                t.own(p)
        e = numpy_raises(lambda: np.power(base, -2))
        lib.ga_clear_error()
        p = lib.ga_power_scalar(to_device(t, base), ga_scalar(-2))
        if isinstance(e, ValueError):
            expect_error(t, f"power({dt}, -2)", p, "GA_ERROR_VALUE", msg, exact=False)
        else:  # uint8: the Python int does not fit
            expect_error(t, f"power({dt}, -2)", p, "GA_ERROR_OVERFLOW", str(e), exact=False)
    before = np.full(4, 7, np.int64)
    o = to_device(t, before)
    lib.ga_clear_error()
    st = lib.ga_power_out(to_device(t, np.array([2, 3, 4, 5])), to_device(t, np.array([1, -1, 1, 1])), o)
    expect_error(t, "power_out with a negative exponent", st, "GA_ERROR_VALUE", msg, exact=False)
    compare(t, "power_out: out after the failed call", to_numpy(t, o), before)
    for label, a, b in (("an empty result", np.zeros(0, np.int64), np.array([-1])),
                        ("uint8 exponents", np.array([2, -3], np.int8), np.array([255, 3], np.uint8))):
        with quiet():
            want = np.power(a, b)
        lib.ga_clear_error()
        p = lib.ga_power(to_device(t, a), to_device(t, b))
        if t.expect(bool(p), f"power with {label}: {t.env.last_error()[1]}"):
            compare(t, f"power with {label}", to_numpy(t, t.own(p)), want)


def run_ufunc_checks(runner, env):
    """The checks of every ufunc of gpuarr.h's lists."""
    run = runner.run
    dtypes = range(len(DTYPE_NAMES))
    if not env.ufuncs:
        run("ufunc/lists", lambda t: t.fail("gpuarr.h's ufunc lists were not found"))
        return
    # host: names and type resolution
    run("ufunc-types/info", check_ufunc_info)
    for uf in env.ufuncs:
        run(f"ufunc-types/{uf.name}", check_ufunc_types, uf)
    for uf in env.ufuncs:
        if uf.nin == 1:
            for g in dtypes:
                run(f"ufunc/{uf.name}/{DTYPE_NAMES[g]}", check_ufunc, uf, [g], device=True, needs=(g,))
        elif uf.nin == 2:
            for g in dtypes:
                run(f"ufunc/{uf.name}/{DTYPE_NAMES[g]}", check_ufunc, uf, [g, g], device=True, needs=(g,))
            for a, b in UFUNC_MIXED_PAIRS:
                for x, y in ((a, b), (b, a)):
                    run(f"ufunc/{uf.name}/{x}+{y}", check_ufunc, uf, [GA[x], GA[y]], False, device=True,
                        needs=(GA[x], GA[y]))
            if uf.form == "binary":
                for g in dtypes:
                    run(f"ufunc-scalar/{uf.name}/{DTYPE_NAMES[g]}", check_ufunc_scalars, uf, g, device=True,
                        needs=(g,))
        elif uf.name == "where":
            for g in dtypes:
                run(f"ufunc/where/bool,{DTYPE_NAMES[g]}", check_ufunc, uf, [GA["bool"], g, g], device=True,
                    needs=(g,))
                run(f"ufunc/where/{DTYPE_NAMES[g]},int16", check_ufunc, uf, [g, GA["int16"], GA["int16"]], False,
                    device=True, needs=(g,))
                run(f"ufunc-scalar/where/{DTYPE_NAMES[g]}", check_ufunc_call_scalars, uf, g, device=True,
                    needs=(g,))
            for a, b in UFUNC_MIXED_PAIRS:
                run(f"ufunc/where/bool,{a},{b}", check_ufunc, uf, [GA["bool"], GA[a], GA[b]], False, device=True,
                    needs=(GA[a], GA[b]))
        elif uf.name == "clip":
            for g in dtypes:
                run(f"ufunc/clip/{DTYPE_NAMES[g]}", check_ufunc, uf, [g, g, g], device=True, needs=(g,))
                run(f"ufunc-scalar/clip/{DTYPE_NAMES[g]}", check_ufunc_call_scalars, uf, g, device=True, needs=(g,))
                run(f"ufunc/clip-one-bound/{DTYPE_NAMES[g]}", check_clip_one_bound, g, device=True, needs=(g,))
            for a, b in UFUNC_MIXED_PAIRS:
                run(f"ufunc/clip/{a},{b},{a}", check_ufunc, uf, [GA[a], GA[b], GA[a]], False, device=True,
                    needs=(GA[a], GA[b]))
    for uf in env.ufuncs:
        if uf.name in ("round", "nan_to_num", "angle", "isclose"):
            for g in dtypes:
                run(f"ufunc-params/{uf.name}/{DTYPE_NAMES[g]}", check_ufunc_params, uf, g, device=True, needs=(g,))
        if uf.name in ("divmod", "modf", "frexp"):
            for g in dtypes:
                run(f"ufunc-named/{uf.name}/{DTYPE_NAMES[g]}", check_ufunc_named_pairs, uf, g, device=True,
                    needs=(g,))
    for g in dtypes:
        run(f"ufunc-named/real-imag/{DTYPE_NAMES[g]}", check_real_imag, g, device=True, needs=(g,))
    for name, ins, other in UFUNC_OUT_CASES:
        if name in env.ufunc:
            run(f"ufunc-out/{name}/{','.join(ins)}", check_ufunc_out, name, ins, other, device=True)
    run("ufunc-errors/all", check_ufunc_errors, device=True)
    run("ufunc-specials/float16-steps", check_float16_steps, device=True)
    run("ufunc-specials/integer-power", check_integer_power_errors, device=True)
    for g in (GA["complex64"], GA["complex128"]):
        run(f"ufunc-specials/power/{DTYPE_NAMES[g]}", check_complex_power_specials, g, device=True)


# --------------------------------------------------------------------------
# reductions (gpuarr.h, >>reduce)
# --------------------------------------------------------------------------

class GaReduceOptions(ctypes.Structure):
    """ga_reduce_options: where, initial, ddof."""
    _fields_ = [("where", ctypes.c_void_p), ("initial", ctypes.POINTER(GaScalar)), ("ddof", ctypes.c_double)]


REDUCE_PROTOTYPES = {
    "ga_reduce": (_ST, [_c.c_int, _ARR, _c.c_int, _c.POINTER(_c.c_int), _DT, _c.POINTER(_c.c_void_p), _c.c_bool,
                        _c.POINTER(GaReduceOptions)]),
    "ga_reduction_name": (_c.c_char_p, [_c.c_int]),
    "ga_average": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int), _ARR, _c.c_bool, _c.c_void_p]),
    "ga_cov": (_ARR, [_ARR, _ARR, _c.c_bool, _c.c_bool, _c.c_int64, _ARR, _ARR, _DT]),
    "ga_corrcoef": (_ARR, [_ARR, _ARR, _c.c_bool, _DT]),
    "ga_reduce_warnings": (_c.c_int, []),
    "ga_flip": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int)]),
    "ga_squeeze": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int)]),
    "ga_expand_dims": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int)]),
}

# ga_reduction's order (GA_REDUCTION_LIST), with NumPy's function.
REDUCTIONS = ("sum", "prod", "min", "max", "mean", "var", "std", "all", "any", "count_nonzero", "ptp", "argmin",
              "argmax", "nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd", "nanargmin",
              "nanargmax")
ARG_REDUCTIONS = ("argmin", "argmax", "nanargmin", "nanargmax")

# (shape, axis, keepdims, view): view None is C-contiguous; else a VIEWS-like
# (shape, strides, offset) over a base of BASE_N elements.
REDUCE_CASES = (
    ((1,), None, False, None),
    ((31,), 0, True, None),
    ((1025,), None, False, ((1025,), (-2,), 2100)),
    ((33, 31), 0, False, None),
    ((33, 31), -1, True, None),
    ((20, 30), 1, False, ((20, 30), (-120, 2), 39 * 60 + 1)),
    ((20, 40), 0, False, ((20, 40), (3, 60), 0)),
    ((3, 7, 50), (0, 2), False, ((3, 7, 50), (0, -50, 1), 6 * 50 + 100)),
    ((3, 7, 50), (2, 1), True, None),
    ((), None, False, None),
    ((0, 5), 1, False, None),
    ((3, 4000), 1, False, None),
    ((5000, 3), 0, False, None),
    ((5, 7), (), False, None),  # axis=(): each element alone (axes not NULL, naxes 0)
    ((20, 30), (), True, ((20, 30), (-120, 2), 39 * 60 + 1)),
    ((0, 3), (), False, None),
)


def axes_arg(axis):
    """(naxes, axes) for ga_reduce of NumPy's axis=: None is (0, NULL), every
    axis; () is (0, an array), none."""
    if axis is None:
        return 0, None
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return len(axes), (ctypes.c_int * max(len(axes), 1))(*axes)


def numpy_reduce(name, x, axis, keepdims):
    """NumPy's answer (computing float16 means and variances in float32, and
    bfloat16 reductions in float32, as gpuarr documents), or the exception."""
    fn = getattr(np, name)
    kw = {} if name in ARG_REDUCTIONS and keepdims is False else {"keepdims": keepdims}
    dt = x.dtype
    lowp = dt.name in ("float16", "bfloat16") and name not in ("min", "max", "nanmin", "nanmax", "argmin", "argmax",
                                                                "nanargmin", "nanargmax", "all", "any",
                                                                "count_nonzero", "ptp")
    try:
        with quiet():
            if dt.name == "bfloat16":
                # ml_dtypes' bfloat16 is not np.inexact (NumPy's nan functions
                # leave its NaN alone) and sums in bfloat16 steps: NumPy's
                # float32 answer on the same values, rounded once
                r = np.asarray(fn(x.astype(np.float32), axis=axis, **kw))
                return r.astype(dt) if r.dtype == np.float32 else r
            if lowp:
                r = fn(x.astype(np.float32), axis=axis, **kw)
                return np.asarray(r).astype(dt)
            return np.asarray(fn(x, axis=axis, **kw))
    except Exception as e:  # NumPy raises: gpuarr must fail too
        return e


def reduce_tolerance(name, dt, n):
    """The relative tolerance of a floating result, None for exact ones."""
    if name in ("min", "max", "nanmin", "nanmax", "ptp", "all", "any", "count_nonzero") + ARG_REDUCTIONS:
        return None
    if np.dtype(dt).kind in "biu" and name in ("sum", "prod", "nansum", "nanprod"):
        return None
    eps = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "complex64": 2.0**-23}.get(
        np.dtype(dt).name, 2.0**-52)
    if name in ("prod", "nanprod"):
        return eps * 4 * max(n, 2)  # both sides round once per factor
    # NumPy's pairwise sums and gpuarr's blocked trees each err by up to
    # about (128 + log2 n) eps of the sum of magnitudes
    return eps * (256 + 4 * math.log2(max(n, 2)))


def reduce_values(t, ga, n):
    """n random values of ga_dtype `ga` for reductions: integers of any size;
    floats of moderate size (normal, sd 10) with 2% NaN, infinities and -0.0."""
    dt = t.env.np_dtype(ga)
    if kind_of(ga) in "biu":
        return random_values(t, ga, n)
    rng = t.rng

    def part():
        v = rng.standard_normal(n) * 10
        k = rng.random(n) < 0.02
        v[k] = rng.choice([np.nan, np.inf, -np.inf, -0.0], int(k.sum()))
        return v
    with quiet():
        return (part() + 1j * part()).astype(dt) if kind_of(ga) == "c" else part().astype(dt)


def compare_reduction(t, label, name, x, got, want, dt, n):
    """Checks reduction `name`'s result `got` against NumPy's `want` (x: the
    input; dt and n: the dtype and element count the tolerance is for)."""
    want = np.asarray(want)
    if want.dtype != got.dtype:
        t.fail(f"{label}: dtype {got.dtype} != NumPy's {want.dtype}")
        return
    if got.shape != want.shape:
        t.fail(f"{label}: shape {got.shape} != NumPy's {want.shape}")
        return
    tol = reduce_tolerance(name, dt, n)
    if tol is None:
        accept = None
        if name in ("min", "max", "ptp", "nanmin", "nanmax") and component_format(got.dtype):
            accept = _either_zero(got, want)
        if got.dtype.kind == "c" and name in ("min", "max", "nanmin", "nanmax", "ptp"):
            # which NaN element a complex min / max picks is not defined
            with quiet():
                gn, wn = np.isnan(got), np.isnan(want)
                got, want = np.where(gn & wn, 0, got), np.where(gn & wn, 0, want)
        compare(t, label, got, want, nan_any=True, accept=accept)
        return
    with quiet():
        # each real part on its own (an infinite real part leaves the
        # imaginary one finite), on the scale of the input's magnitudes
        g = got.astype(np.complex128).reshape(-1)
        w = want.astype(np.complex128).reshape(-1)
        wmag = np.abs(w)  # a product's parts err on the scale of its magnitude
        wmag = np.concatenate([wmag, wmag])
        g = np.concatenate([g.real, g.imag])
        w = np.concatenate([w.real, w.imag])
        xv = np.asarray(x).astype(np.complex128).reshape(-1)
        xs = np.abs(np.concatenate([xv.real, xv.imag]))
        xs = xs[np.isfinite(xs)]
        top = np.max(xs) if xs.size else 0.0
    if name in ("std", "nanstd"):  # compared as variances: a small std magnifies errors
        g, w = g * g, w * w
    if name in ("prod", "nanprod"):
        scale = np.where(np.isfinite(wmag), wmag, np.abs(w))
    elif name in ("var", "nanvar", "std", "nanstd"):
        scale = np.abs(w) + top * top
    elif name in ("mean", "nanmean"):
        scale = np.abs(w) + top
    else:
        scale = np.abs(w) + np.sum(xs)
    with quiet():
        bad = ~((np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= tol * scale + 1e-300))
    if bad.any():
        i = int(np.nonzero(bad)[0][0])
        t.fail(f"{label}: {int(bad.sum())} of {g.size} differ; first [{i}]: {g[i]!r}, NumPy {w[i]!r}")


def check_reduction(t, name, ga):
    env, lib = t.env, t.lib
    r_index = REDUCTIONS.index(name)
    dt = env.np_dtype(ga)
    base = reduce_values(t, ga, BASE_N)
    # products near 1: with overflow and zeros both in a slice, NaN or 0
    # depends on the order of the multiplications
    if name in ("prod", "nanprod") and kind_of(ga) in "fc":
        base = (0.9 + 0.2 * t.rng.random(BASE_N)).astype(dt)
    if name.startswith("nan") and kind_of(ga) in "fc":
        with quiet():
            base[t.rng.random(BASE_N) < 0.2] = np.nan
    dbase = to_device(t, base)
    for shape, axis, keepdims, view in REDUCE_CASES:
        if name in ARG_REDUCTIONS and isinstance(axis, tuple):
            continue
        n = int(np.prod(shape)) if shape else 1
        if view is None:
            if n > BASE_N:
                x = reduce_values(t, ga, n).reshape(shape)
                if name in ("prod", "nanprod") and kind_of(ga) in "fc":
                    x = (0.9 + 0.2 * t.rng.random(n)).astype(dt).reshape(shape)
            else:
                x = base[:n].reshape(shape).copy()
            p = to_device(t, x)
        else:
            vshape, vstrides, off = view
            x = host_view(base, vshape, vstrides, off)
            p = device_view(t, dbase, itemsize_of(ga), vshape, vstrides, off)
        label = f"{name}({dname(ga)}{list(shape)}, axis={axis}, keepdims={keepdims})"
        want = numpy_reduce(name, x, axis, keepdims)
        nax, arr = axes_arg(axis)
        out = ctypes.c_void_p(0)
        lib.ga_clear_error()
        st = lib.ga_reduce(r_index, p, nax, arr, GA_INVALID, ctypes.byref(out), keepdims, None)
        if isinstance(want, Exception):
            t.expect(st != 0, f"{label}: succeeded; NumPy raises {want!r}")
            lib.ga_clear_error()
            if st == 0:
                t.own(out.value)
            continue
        if st != 0:
            t.fail(f"{label}: {env.last_error()[1]}")
            lib.ga_clear_error()
            continue
        compare_reduction(t, label, name, x, to_numpy(t, t.own(out.value)), want, dt, n)


def check_reduce_errors(t):
    env, lib = t.env, t.lib
    x = np.zeros((2, 3))
    p = to_device(t, x)

    def call(name, axes, out=None, keepdims=False):
        nax, arr = axes_arg(axes)
        o = ctypes.c_void_p(out or 0)
        lib.ga_clear_error()
        st = lib.ga_reduce(REDUCTIONS.index(name), p, nax, arr, GA_INVALID, ctypes.byref(o), keepdims, None)
        if st == 0 and not out:
            t.own(o.value)
        return st

    for name, axes, fn in (("sum", (2,), lambda: np.sum(x, axis=2)), ("sum", (0, -2), lambda: np.sum(x, axis=(0, -2))),
                           ("max", (-3,), lambda: np.max(x, axis=-3))):
        e = numpy_error(fn)
        st = call(name, axes)
        expect_error(t, f"{name} axis={axes}", st, "GA_ERROR_AXIS" if "bounds" in str(e) else "GA_ERROR_VALUE",
                     str(e), exact=False)
    e = numpy_error(lambda: np.sum(x, out=np.zeros(3)))
    o3 = to_device(t, np.zeros(3))
    expect_error(t, "sum out=(3,)", call("sum", None, out=o3), "GA_ERROR_SHAPE", str(e), exact=False)
    # axis=() of squeeze, expand_dims and flip: nothing squeezed, added or flipped
    u = np.arange(6.0).reshape(1, 2, 1, 3)
    du = to_device(t, u)
    none = (ctypes.c_int * 1)(0)
    for label, got_p, want in (("squeeze axis=()", lib.ga_squeeze(du, 0, none), np.squeeze(u, axis=())),
                               ("squeeze axis=None", lib.ga_squeeze(du, 0, None), np.squeeze(u)),
                               ("expand_dims axis=()", lib.ga_expand_dims(du, 0, none), np.expand_dims(u, axis=())),
                               ("flip axis=()", lib.ga_flip(du, 0, none), np.flip(u, axis=())),
                               ("flip axis=None", lib.ga_flip(du, 0, None), np.flip(u))):
        got = to_numpy(t, t.own(got_p, label))
        t.expect(got.shape == want.shape and np.array_equal(got, want), f"{label}: {got!r}, NumPy {want!r}")
    # argmin / argmax take one axis or none: axis=() is NumPy's TypeError
    for name in ("argmin", "argmax"):
        e = numpy_error(lambda: getattr(np, name)(x, axis=()))
        expect_error(t, f"{name} axis=()", call(name, ()), "GA_ERROR_TYPE", str(e), exact=False)
    empty = to_device(t, np.zeros((0, 3)))
    for name in ("max", "min", "argmax", "argmin", "nanmax"):
        e = numpy_error(lambda: getattr(np, name)(np.zeros((0, 3)), axis=0))
        arr = (ctypes.c_int * 1)(0)
        o = ctypes.c_void_p(0)
        lib.ga_clear_error()
        st = lib.ga_reduce(REDUCTIONS.index(name), empty, 1, arr, GA_INVALID, ctypes.byref(o), False, None)
        expect_error(t, f"{name} of an empty axis", st, "GA_ERROR_VALUE", str(e), exact=False)
    nan = to_device(t, np.array([[np.nan, np.nan], [1.0, 2.0]]))
    e = numpy_error(lambda: np.nanargmax(np.array([[np.nan, np.nan], [1.0, 2.0]]), axis=1))
    arr = (ctypes.c_int * 1)(1)
    o = ctypes.c_void_p(0)
    lib.ga_clear_error()
    st = lib.ga_reduce(REDUCTIONS.index("nanargmax"), nan, 1, arr, GA_INVALID, ctypes.byref(o), False, None)
    expect_error(t, "nanargmax of an all-NaN row", st, "GA_ERROR_VALUE", str(e), exact=False)


def check_cov_corrcoef(t, ga):
    env, lib = t.env, t.lib
    x = random_values(t, ga, 4 * 50).reshape(4, 50)
    if x.dtype.kind in "fc":
        x = np.nan_to_num(x, nan=0.5, posinf=1.0, neginf=-1.0)
        x = np.clip(x.real, -1e3, 1e3).astype(x.dtype) if x.dtype.kind == "f" else x
    with quiet():
        if x.dtype.kind == "c":
            x = (np.clip(x.real, -1e3, 1e3) + 1j * np.clip(x.imag, -1e3, 1e3)).astype(x.dtype)
    xx = x.astype(np.float32) if ga == BF16 else x
    p = to_device(t, x)
    for name, want, call in (
            ("cov", np.cov(xx), lambda: lib.ga_cov(p, None, True, False, -2**63, None, None, GA_INVALID)),
            ("cov(rowvar=False, bias=True)", np.cov(xx, rowvar=False, bias=True),
             lambda: lib.ga_cov(p, None, False, True, -2**63, None, None, GA_INVALID)),
            ("corrcoef", np.corrcoef(xx), lambda: lib.ga_corrcoef(p, None, True, GA_INVALID))):
        got = to_numpy(t, t.own(call(), name))
        t.expect(got.shape == want.shape, f"{name} {dname(ga)}: shape {got.shape}, NumPy {want.shape}")
        if got.shape == want.shape:
            with quiet():
                err = np.nanmax(np.abs(got - want.astype(got.dtype)) / (np.abs(want) + 1)) if want.size else 0
            t.expect(not (err > 1e-9), f"{name} {dname(ga)}: relative error {err}")


def _reduce_call(t, name, p, axis, keepdims=False, initial=None):
    """ga_reduce of reduction `name` on device array p: its result (owned),
    or None on failure."""
    lib = t.lib
    nax, arr = axes_arg(axis)
    out = ctypes.c_void_p(0)
    opt = None
    if initial is not None:
        sc = ga_scalar(initial)
        opt = GaReduceOptions(None, ctypes.pointer(sc), 0.0)
    lib.ga_clear_error()
    st = lib.ga_reduce(REDUCTIONS.index(name), p, nax, arr, GA_INVALID, ctypes.byref(out), keepdims,
                       ctypes.byref(opt) if opt is not None else None)
    if st != 0:
        t.fail(f"{name}: {t.env.last_error()[1]}")
        return None
    return t.own(out.value)


def check_reduce_complex_specials(t, ga):
    """prod / nanprod of complex rows holding infinities, NaN and products
    that overflow (NumPy multiplies in order, from 1, each product rounded
    on its own), of every length the kernels treat differently, contiguous,
    reversed and along the first axis; min / max / nanmin / nanmax with NaN
    of different parts and signed zeros (NumPy keeps the first NaN and the
    first of equal values): NumPy's values, part by part (min / max: bit for
    bit)."""
    dt = t.env.np_dtype(ga)
    rng = t.rng
    rel = 1e-5 if dt == np.complex64 else 1e-12
    grid = _complex_grid(dt)
    units = np.array([1, -1, 1j, -1j], dt)
    for n in (1, 2, 3, 4, 5, 9, 17, 40, 300, 5000, 70001):
        for trial in range(12 if n <= 300 else 3):
            x = units[rng.integers(0, 4, n)]
            for _ in range(trial % 4):
                k = (n - 1, n - 2, n // 2, int(rng.integers(0, n)))[int(rng.integers(0, 4))]
                x[max(k, 0)] = grid[int(rng.integers(0, grid.size))]
            for name in ("prod", "nanprod"):
                # along axis 0, NumPy's reduce multiplies whole rows with its SIMD loop,
                # which fuses products into fmas on AVX2 / AVX-512 (its 1-d reduce and
                # scalar loops do not): each column is compared with NumPy's 1-d answer
                for label, host, dev_p, axis in (
                        ("", x, to_device(t, x), None),
                        (" reversed", x[::-1], t.own(t.lib.ga_flip(to_device(t, x), 0, None), "ga_flip"), None),
                        (" along axis 0 of (n, 3)", x, to_device(t, np.stack([x, x, x], 1)), 0)):
                    with quiet():
                        want = getattr(np, name)(host)
                        if axis == 0:
                            want = np.array([want] * 3)
                    r = _reduce_call(t, name, dev_p, axis)
                    if r is None:
                        continue
                    got = to_numpy(t, r)
                    ok = _same_parts(got, want, rel)
                    if not ok.all():
                        t.fail(f"{name}({dname(ga)}[{n}]{label}) = {got.reshape(-1)[0]!r}, NumPy "
                               f"{np.asarray(want).reshape(-1)[0]!r} (specials at "
                               f"{np.nonzero(~np.isin(x, units))[0][:4].tolist()})")
    # initial= as NumPy's first factor
    for pair in ((1e20 + 1e20j, 1e20 + 1e20j), (np.inf, 1 + 1j), (1 + 1j, -1 + 1j), (0 + np.inf * 1j, 2)):
        with quiet():
            x = np.array(pair, dt)
            want = np.prod(x, initial=complex(np.inf, -1))
        r = _reduce_call(t, "prod", to_device(t, x), None, initial=complex(np.inf, -1))
        if r is not None:
            got = to_numpy(t, r)
            t.expect(_same_parts(got, want, rel).all(), f"prod({x!r}, initial=inf-1j) = {got!r}, NumPy {want!r}")
    # min / max: the first NaN as it is, the first of equal values
    pool = np.array([complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan), complex(0, 0),
                     complex(-0.0, 0), complex(0, -0.0), complex(2, 1), complex(2, -1), complex(-np.inf, 0),
                     complex(np.inf, np.inf), complex(2, 1)], dt)
    for n in (1, 2, 3, 7, 16, 33, 300, 5000):
        for trial in range(8):
            x = pool[rng.integers(0, pool.size, n)]
            if trial % 2:
                x[rng.random(n) < 0.8] = complex(2, 1)  # ties
            for name in ("min", "max", "nanmin", "nanmax"):
                for label, host, dev_p in (("", x, to_device(t, x)),
                                           (" reversed", x[::-1],
                                            t.own(t.lib.ga_flip(to_device(t, x), 0, None), "ga_flip"))):
                    want = np.asarray(numpy_reduce(name, host, None, False))
                    r = _reduce_call(t, name, dev_p, None)
                    if r is None:
                        continue
                    got = to_numpy(t, r)
                    bits = np.uint64 if dt == np.complex128 else np.uint32
                    gb, wb = got.reshape(-1).view(bits), want.astype(dt).reshape(-1).view(bits)
                    with quiet():
                        same = np.array_equal(gb, wb) or (np.isnan(got.real) == np.isnan(want.real) and
                                                          np.isnan(got.imag) == np.isnan(want.imag) and
                                                          bool(np.all((got == want) | np.isnan(got))))
                    t.expect(same, f"{name}({dname(ga)}[{n}]{label}) = {got!r}, NumPy {want!r}")
                    t.lib.ga_reduce_warnings()  # the all-NaN warnings: read and forgotten


def check_reduce_real_specials(t, ga):
    """sum, prod, min, max and their nan forms of real rows made of NaN,
    infinities and signed zeros (and ones), against NumPy: NaN for NaN,
    infinities and signed zeros as NumPy's (min / max: either zero, as
    NumPy's own SIMD and scalar loops differ)."""
    dt = t.env.np_dtype(ga)
    rng = t.rng
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0])
    for n in (1, 2, 3, 5, 17, 300, 5000):
        for trial in range(6):
            with quiet():
                x = pool[rng.integers(0, pool.size, n)].astype(dt)
            if trial == 0:
                x[:] = -0.0
            for name in ("sum", "prod", "min", "max", "nansum", "nanprod", "nanmin", "nanmax"):
                want = numpy_reduce(name, x, None, False)
                r = _reduce_call(t, name, to_device(t, x), None)
                if r is None:
                    continue
                got = to_numpy(t, r)
                want = np.asarray(want)
                with quiet():
                    g, w = got.astype(np.float64), want.astype(np.float64)
                    ok = (np.isnan(g) and np.isnan(w)) or (g == w and (np.signbit(g) == np.signbit(w) or
                                                                     name in ("min", "max", "nanmin", "nanmax")))
                t.expect(bool(ok), f"{name}({dname(ga)}[{n}] of NaN, inf, +-0, +-1) = {got!r}, NumPy {want!r}"
                         f"{' (all -0.0)' if trial == 0 else ''}")
                t.lib.ga_reduce_warnings()


def check_float16_variance_bits(t):
    """float16 var / std / nanvar / nanstd bit for bit against NumPy, which
    rounds the deviations, their squares and their sum to float16 and
    divides that sum by the degrees of freedom in float64: rows whose
    degrees of freedom are not powers of two (an unrounded sum divided by
    them differs by an ulp in about a quarter of the rows of 17), ddof 0
    and 1, NaN in a tenth of the elements for the nan forms, and a whole
    array. Contiguous rows only: along another axis NumPy's float16 sums
    round to float16 at every addition (its reduction's output is the
    accumulator), about 1% low for 1500 rows; gpuarr's sum is the row's
    pairwise sum in float32, rounded once, as NumPy's along a row."""
    env, lib = t.env, t.lib
    # (sums of squares within float16's range: about 10 an element; and
    # one row of 70,000, where NumPy's sum of squares overflows to inf)
    for rows, cols, axes in ((4001, 17, (1,)), (1500, 23, (1,)), (301, 100, (1,)), (1, 999, (1, None)),
                             (2, 70000, (1,))):
        x = (3 * t.rng.standard_normal((rows, cols)) + 0.25).astype(np.float16)
        xn = x.copy()
        xn[t.rng.random(x.shape) < 0.1] = np.nan
        for name in VARIANCES:
            src = xn if name.startswith("nan") else x
            p = to_device(t, src)
            for axis, ddof in ((axis, ddof) for axis in axes for ddof in (0, 1)):
                label = f"{name}(float16{list(src.shape)}, axis={axis}, ddof={ddof})"
                with quiet():
                    want = np.asarray(getattr(np, name)(src, axis=axis, ddof=ddof))
                nax, arr = axes_arg(axis)
                opts = GaReduceOptions(None, None, float(ddof))
                out = ctypes.c_void_p(0)
                lib.ga_clear_error()
                st = lib.ga_reduce(REDUCTIONS.index(name), p, nax, arr, GA_INVALID, ctypes.byref(out), False,
                                   ctypes.byref(opts))
                if st != 0:
                    t.fail(f"{label}: {env.last_error()[1]}")
                    lib.ga_clear_error()
                    continue
                compare(t, label, to_numpy(t, t.own(out.value)), want, nan_any=True)


def run_reduce_checks(runner, env):
    run = runner.run
    for name in REDUCTIONS:
        for g in range(len(DTYPE_NAMES)):
            run(f"reduce/{name}/{DTYPE_NAMES[g]}", check_reduction, name, g, device=True, needs=(g,))
    run("reduce-errors/all", check_reduce_errors, device=True)
    for g in (GA["complex64"], GA["complex128"]):
        run(f"reduce-specials/{DTYPE_NAMES[g]}", check_reduce_complex_specials, g, device=True)
    for g in (GA["float16"], GA["bfloat16"], GA["float32"], GA["float64"]):
        run(f"reduce-specials/{DTYPE_NAMES[g]}", check_reduce_real_specials, g, device=True, needs=(g,))
    for g in (GA["int32"], GA["float32"], GA["float64"], GA["complex128"]):
        run(f"reduce-cov/{DTYPE_NAMES[g]}", check_cov_corrcoef, g, device=True)
    run("reduce-float16-variance/bits", check_float16_variance_bits, device=True)


# --------------------------------------------------------------------------
# Device checks: searching, sets and histograms (group "sets")
# --------------------------------------------------------------------------

_PP = _c.POINTER(_c.c_void_p)  # ga_array ** (an optional result)
SETS_PROTOTYPES = {
    "ga_searchsorted": (_ARR, [_ARR, _ARR, _c.c_int, _ARR]),
    "ga_digitize": (_ARR, [_ARR, _ARR, _c.c_bool]),
    "ga_unique": (_ARR, [_ARR, _PP, _PP, _PP, _c.c_bool]),
    "ga_unique_values": (_ARR, [_ARR]),
    "ga_unique_counts": (_ARR, [_ARR, _PP]),
    "ga_unique_inverse": (_ARR, [_ARR, _PP]),
    "ga_unique_all": (_ARR, [_ARR, _PP, _PP, _PP]),
    "ga_isin": (_ARR, [_ARR, _ARR, _c.c_bool]),
    "ga_intersect1d": (_ARR, [_ARR, _ARR, _c.c_bool, _PP, _PP]),
    "ga_union1d": (_ARR, [_ARR, _ARR]),
    "ga_setdiff1d": (_ARR, [_ARR, _ARR, _c.c_bool]),
    "ga_setxor1d": (_ARR, [_ARR, _ARR, _c.c_bool]),
    "ga_bincount": (_ARR, [_ARR, _ARR, _c.c_int64]),
    "ga_histogram": (_ARR, [_ARR, _c.c_int64, _ARR, _c.POINTER(_c.c_double), _c.c_bool, _ARR, _PP]),
    "ga_histogram_bin_edges": (_ARR, [_ARR, _c.c_int64, _c.POINTER(_c.c_double)]),
}

# The dtypes of the set checks: bool, integers, float16/32/64 (NumPy sorts
# ml_dtypes' bfloat16 NaN by its own comparisons; the C tests cover it);
# complex ones for searching and sets (not histograms).
SET_DTYPES = tuple(GA[n] for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64"))
SET_COMPLEX_DTYPES = (GA["complex64"], GA["complex128"])


def set_values(t, ga, n, spread=40):
    """n values of ga with many duplicates, NaN, infinities and -0.0."""
    dt = t.env.np_dtype(ga)
    rng = t.rng
    if kind_of(ga) == "b":
        return rng.integers(0, 2, n).astype(bool)
    if kind_of(ga) in "iu":
        v = random_values(t, ga, n)
        small = rng.random(n) < 0.8
        lo = 0 if kind_of(ga) == "u" else -spread // 2
        v[small] = rng.integers(lo, lo + spread, int(small.sum())).astype(dt)
        return v
    if kind_of(ga) == "c":
        # parts drawn as the float ones (from fewer values: more equal
        # elements), NaN of both signs; a quarter copies of other elements
        part = GA["float64"]
        v = np.empty(n, dt)
        v.real = set_values(t, part, n, max(spread // 8, 4))
        v.imag = set_values(t, part, n, max(spread // 8, 4))
        v.imag[rng.random(n) < 0.02] = -np.nan
        if n:
            copies = rng.random(n) < 0.25
            v[copies] = v[rng.integers(0, n, int(copies.sum()))]
        return v
    v = rng.integers(-spread // 2, spread // 2, n).astype(np.float64)
    k = rng.random(n)
    v[k < 0.05] = np.nan
    v[(k >= 0.05) & (k < 0.08)] = -0.0
    v[(k >= 0.08) & (k < 0.1)] = np.inf
    v[(k >= 0.1) & (k < 0.12)] = -np.inf
    with quiet():
        return v.astype(dt)


def set_equal(t, label, got, want, zeros_any=True):
    """Same dtype, shape and values (NaN matches NaN; -0.0 matches 0.0;
    complex: part by part)."""
    want = np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        t.fail(f"{label}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}")
        return
    got, want = got.reshape(-1), want.reshape(-1)  # (the first difference's flat index, C order)
    if got.dtype.kind == "c":
        for part, g, w in (("real", got.real, want.real), ("imag", got.imag, want.imag)):
            if not np.array_equal(g, w, equal_nan=True):
                i = int(np.nonzero(~((g == w) | (np.isnan(g) & np.isnan(w))))[0][0])
                t.fail(f"{label}: {part} part differs at flat index {i}: {got[i]!r}, NumPy {want[i]!r}")
                return
        return
    if got.dtype.kind == "f":
        ok = np.array_equal(got, want, equal_nan=True)
    else:
        ok = np.array_equal(got, want)
    if not ok:
        bad = np.nonzero(~((got == want) | (np.isnan(got) & np.isnan(want))) if got.dtype.kind == "f"
                         else got != want)[0]
        i = int(bad[0]) if len(bad) else 0
        t.fail(f"{label}: differs at flat index {i}: {got[i]!r}, NumPy {want[i]!r}")


def set_input(t, ga, n, view):
    """A NumPy array and the same on the device: C-contiguous, or a reversed
    every-2nd-element view (view True)."""
    x = set_values(t, ga, 2 * n if view else n)
    d = to_device(t, x)
    if not view:
        return x, d
    isz = itemsize_of(ga)
    return x[::-2], device_view(t, d, isz, (n,), (-2,), 2 * n - 1)


def out_ptrs(k):
    return [ctypes.c_void_p(0) for _ in range(k)]


def sorting_unique(a):
    """np.unique by sorting, as NumPy computes it when indices or counts are
    asked for: for complex input, its one value for the elements with a NaN
    part is the first of them in the sort order (gpuarr's choice); NumPy
    2.3+ asked for the values alone hashes, keeping the first in a's order."""
    return np.unique(a, return_counts=True)[0]


def complex_set_results(x, y):
    """union1d, setdiff1d and setxor1d of complex x and y by NumPy's own
    steps, its unique() replaced by sorting_unique."""
    ux, uy = sorting_unique(x), sorting_unique(y)
    union = sorting_unique(np.concatenate((x, y), axis=None))
    diff = ux[np.isin(ux, uy, assume_unique=True, invert=True)]
    aux = np.sort(np.concatenate((ux, uy)))
    flag = np.concatenate(([True], aux[1:] != aux[:-1], [True]))
    return union, diff, aux[flag[1:] & flag[:-1]]


def check_sets(t, ga):
    env, lib = t.env, t.lib
    dt = env.np_dtype(ga)
    for n, view in ((0, False), (1, False), (33, True), (1025, False), (4097, True)):
        x, p = set_input(t, ga, n, view)
        y, q = set_input(t, ga, max(n // 2, 1) + 3, not view)
        lab = f"{dname(ga)} n={n}{' strided' if view else ''}"
        # unique with everything, equal_nan True
        idx, inv, cnt = out_ptrs(3)
        u = t.own(lib.ga_unique(p, ctypes.byref(idx), ctypes.byref(inv), ctypes.byref(cnt), True), "ga_unique")
        wv, wi, wn, wc = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        set_equal(t, f"unique {lab}", to_numpy(t, u), wv)
        set_equal(t, f"unique index {lab}", to_numpy(t, t.own(idx.value)), wi)
        set_equal(t, f"unique inverse {lab}", to_numpy(t, t.own(inv.value)), wn)
        set_equal(t, f"unique counts {lab}", to_numpy(t, t.own(cnt.value)), wc)
        # unique_all: each NaN apart
        idx, inv, cnt = out_ptrs(3)
        u = t.own(lib.ga_unique_all(p, ctypes.byref(idx), ctypes.byref(inv), ctypes.byref(cnt)), "ga_unique_all")
        r = np.unique_all(x)
        set_equal(t, f"unique_all {lab}", to_numpy(t, u), r.values)
        set_equal(t, f"unique_all indices {lab}", to_numpy(t, t.own(idx.value)), r.indices)
        set_equal(t, f"unique_all inverse {lab}", to_numpy(t, t.own(inv.value)), r.inverse_indices)
        set_equal(t, f"unique_all counts {lab}", to_numpy(t, t.own(cnt.value)), r.counts)
        # NumPy 2.3+ may give unique_values unsorted (a hash table for
        # integers; the Array API leaves the order open): gpuarr's are sorted
        set_equal(t, f"unique_values {lab}", to_numpy(t, t.own(lib.ga_unique_values(p), "ga_unique_values")),
                  np.sort(np.unique_values(x)))
        # searchsorted on the sorted x, and through a sorter
        xs = np.sort(x)
        ps = to_device(t, xs)
        order = np.argsort(x, kind="stable")
        po = to_device(t, order)
        for side, name in ((0, "left"), (1, "right")):
            want = np.searchsorted(xs, y, side=name)
            set_equal(t, f"searchsorted side={name} {lab}",
                      to_numpy(t, t.own(lib.ga_searchsorted(ps, q, side, None), "ga_searchsorted")), want)
            set_equal(t, f"searchsorted sorter side={name} {lab}",
                      to_numpy(t, t.own(lib.ga_searchsorted(p, q, side, po), "ga_searchsorted")),
                      np.searchsorted(x, y, side=name, sorter=order))
        # digitize with increasing and decreasing bins (no NaN)
        with quiet():
            bins = np.unique(x[~np.isnan(x)] if dt.kind == "f" else x)[:30]
        for b in (bins, bins[::-1]) if dt.kind != "c" else ():
            pb = to_device(t, b)
            for right in (False, True):
                set_equal(t, f"digitize right={right} {lab} bins {len(b)}",
                          to_numpy(t, t.own(lib.ga_digitize(q, pb, right), "ga_digitize")),
                          np.digitize(y, b, right=right))
        # isin and the set operations
        for invert in (False, True):
            set_equal(t, f"isin invert={invert} {lab}", to_numpy(t, t.own(lib.ga_isin(p, q, invert), "ga_isin")),
                      np.isin(x, y, invert=invert))
        i1, i2 = out_ptrs(2)
        r = t.own(lib.ga_intersect1d(p, q, False, ctypes.byref(i1), ctypes.byref(i2)), "ga_intersect1d")
        w, w1, w2 = np.intersect1d(x, y, return_indices=True)
        set_equal(t, f"intersect1d {lab}", to_numpy(t, r), w)
        set_equal(t, f"intersect1d indices1 {lab}", to_numpy(t, t.own(i1.value)), w1)
        set_equal(t, f"intersect1d indices2 {lab}", to_numpy(t, t.own(i2.value)), w2)
        # assume_unique: NumPy's steps on the inputs as they are
        i1, i2 = out_ptrs(2)
        r = t.own(lib.ga_intersect1d(p, q, True, ctypes.byref(i1), ctypes.byref(i2)), "ga_intersect1d")
        w, w1, w2 = np.intersect1d(x, y, assume_unique=True, return_indices=True)
        set_equal(t, f"intersect1d assume_unique {lab}", to_numpy(t, r), w)
        set_equal(t, f"intersect1d assume_unique indices1 {lab}", to_numpy(t, t.own(i1.value)), w1)
        set_equal(t, f"intersect1d assume_unique indices2 {lab}", to_numpy(t, t.own(i2.value)), w2)
        if dt.kind == "c":
            union, diff, xor = complex_set_results(x, y)
        else:
            union, diff, xor = np.union1d(x, y), np.setdiff1d(x, y), np.setxor1d(x, y)
        set_equal(t, f"union1d {lab}", to_numpy(t, t.own(lib.ga_union1d(p, q), "ga_union1d")), union)
        set_equal(t, f"setdiff1d {lab}", to_numpy(t, t.own(lib.ga_setdiff1d(p, q, False), "ga_setdiff1d")), diff)
        # assume_unique: NumPy's answer holds for unique x only; x has
        # duplicates, so the definition (x flattened, those in y left out)
        set_equal(t, f"setdiff1d assume_unique {lab}",
                  to_numpy(t, t.own(lib.ga_setdiff1d(p, q, True), "ga_setdiff1d")), x[~np.isin(x, y)])
        set_equal(t, f"setxor1d {lab}", to_numpy(t, t.own(lib.ga_setxor1d(p, q, False), "ga_setxor1d")), xor)


def numpy_result(fn):
    """fn()'s result, or the exception it raised."""
    try:
        with quiet():
            return fn()
    except Exception as e:
        return e


def check_histograms(t, ga):
    env, lib = t.env, t.lib
    dt = env.np_dtype(ga)
    for n, view in ((1, False), (33, True), (4097, False), (100003, True)):
        x, p = set_input(t, ga, n, view)
        lab = f"{dname(ga)} n={n}{' strided' if view else ''}"
        if dt.kind in "biu":
            xi = np.abs(x.astype(np.int64) % (100 if dt.itemsize == 1 else 300)) if dt.kind != "b" else x
            pi = to_device(t, xi.astype(dt))
            w = t.rng.random(n)
            pw = to_device(t, w)
            for minlength in (0, 500):
                set_equal(t, f"bincount minlength={minlength} {lab}",
                          to_numpy(t, t.own(lib.ga_bincount(pi, None, minlength), "ga_bincount")),
                          np.bincount(xi.astype(dt), minlength=minlength))
            got = to_numpy(t, t.own(lib.ga_bincount(pi, pw, 0), "ga_bincount"))
            want = np.bincount(xi.astype(dt), weights=w)
            t.expect(got.dtype == want.dtype and got.shape == want.shape and np.allclose(got, want, rtol=1e-12),
                     f"bincount weights {lab}")
        finite = x[np.isfinite(x)] if dt.kind == "f" else x
        fx = to_device(t, finite) if dt.kind == "f" else p
        for bins in (1, 10, 256, 3000):
            rng2 = (ctypes.c_double * 2)(-7.5, 13.25)
            for with_range in (False, True):
                e = ctypes.c_void_p(0)
                src = x if with_range else finite
                if dt.kind == "b":
                    src = src.astype(np.uint8)  # NumPy converts bool input (with a warning)
                want = numpy_result(lambda: np.histogram(src, bins, range=(-7.5, 13.25) if with_range else None))
                lib.ga_clear_error()
                h = lib.ga_histogram(p if with_range else fx, bins, None, rng2 if with_range else None, False, None,
                                     ctypes.byref(e))
                label = f"histogram bins={bins} range={with_range} {lab}"
                if isinstance(want, Exception):  # float16 edges that do not all differ
                    expect_error(t, label, h, "GA_ERROR_VALUE", str(want), exact=False)
                    continue
                set_equal(t, label, to_numpy(t, t.own(h, "ga_histogram")), want[0])
                set_equal(t, f"histogram edges bins={bins} range={with_range} {lab}", to_numpy(t, t.own(e.value)),
                          want[1])
            # edges as an array, density, weights
            edges = np.array([-20.0, -3.0, -0.5, 0.0, 0.25, 7.0, 19.0])
            pe = to_device(t, edges)
            src = x.astype(np.uint8) if dt.kind == "b" else x
            with quiet():
                wh, _ = np.histogram(src, edges)
            set_equal(t, f"histogram edges array {lab}",
                      to_numpy(t, t.own(lib.ga_histogram(p, 0, pe, None, False, None, None), "ga_histogram")), wh)
            wts = t.rng.random(n).astype(np.float32)
            pw = to_device(t, wts)
            want = numpy_result(lambda: np.histogram(src, bins, range=(-7.5, 13.25), density=True, weights=wts))
            if isinstance(want, Exception):
                continue
            wd = want[0]
            got = to_numpy(t, t.own(lib.ga_histogram(p, bins, None, rng2, True, pw, None), "ga_histogram"))
            with quiet():
                ok = got.dtype == wd.dtype and got.shape == wd.shape and np.allclose(got, wd, rtol=1e-5, equal_nan=True)
            t.expect(ok, f"histogram density weights bins={bins} {lab}")


def check_sets_errors(t):
    env, lib = t.env, t.lib
    a = to_device(t, np.array([1.0, 2.0, 3.0]))
    m = to_device(t, np.zeros((2, 2)))
    bad = to_device(t, np.array([3.0, 1.0, 2.0]))
    ni = to_device(t, np.array([0, -1, 2]))
    two = to_device(t, np.array([0, 1]))
    c = to_device(t, np.array([1j, 2j]))
    cases = (
        ("searchsorted 2-d a", lambda: np.searchsorted(np.zeros((2, 2)), 1.0),
         lambda: lib.ga_searchsorted(m, a, 0, None), "GA_ERROR_VALUE"),
        ("searchsorted sorter size", lambda: np.searchsorted(np.zeros(3), 1.0, sorter=[0, 1]),
         lambda: lib.ga_searchsorted(a, a, 0, two), "GA_ERROR_VALUE"),
        ("searchsorted sorter range", lambda: np.searchsorted(np.zeros(3), 1.0, sorter=[0, -1, 2]),
         lambda: lib.ga_searchsorted(a, a, 0, ni), "GA_ERROR_VALUE"),
        ("digitize", lambda: np.digitize([1.0], [3.0, 1.0, 2.0]), lambda: lib.ga_digitize(a, bad, False),
         "GA_ERROR_VALUE"),
        ("digitize complex x", lambda: np.digitize(np.array([1j]), [1.0, 2.0]), lambda: lib.ga_digitize(c, a, False),
         "GA_ERROR_TYPE"),
        ("digitize complex bins", lambda: np.digitize([1.0], np.array([1j, 2j])), lambda: lib.ga_digitize(a, c, False),
         "GA_ERROR_TYPE"),
        ("bincount negative", lambda: np.bincount([0, -1, 2]), lambda: lib.ga_bincount(ni, None, 0), "GA_ERROR_VALUE"),
        ("bincount float", lambda: np.bincount(np.array([1.0, 2.0, 3.0])), lambda: lib.ga_bincount(a, None, 0),
         "GA_ERROR_TYPE"),
        ("bincount minlength", lambda: np.bincount([0, 1], minlength=-1), lambda: lib.ga_bincount(two, None, -1),
         "GA_ERROR_VALUE"),
        ("bincount weights", lambda: np.bincount([0, 1], weights=[1.0, 2.0, 3.0]), lambda: lib.ga_bincount(two, a, 0),
         "GA_ERROR_VALUE"),
        ("histogram bins 0", lambda: np.histogram([1.0, 2.0, 3.0], 0),
         lambda: lib.ga_histogram(a, 0, None, None, False, None, None), "GA_ERROR_VALUE"),
        ("histogram range", lambda: np.histogram([1.0, 2.0, 3.0], 4, range=(3, 1)),
         lambda: lib.ga_histogram(a, 4, None, (ctypes.c_double * 2)(3, 1), False, None, None), "GA_ERROR_VALUE"),
        ("histogram edges", lambda: np.histogram([1.0, 2.0, 3.0], np.array([3.0, 1.0, 2.0])),
         lambda: lib.ga_histogram(a, 0, bad, None, False, None, None), "GA_ERROR_VALUE"),
        ("histogram 2-d edges", lambda: np.histogram([1.0, 2.0, 3.0], np.zeros((2, 2))),
         lambda: lib.ga_histogram(a, 0, m, None, False, None, None), "GA_ERROR_VALUE"),
    )
    for label, fn, call, status in cases:
        e = numpy_error(fn)
        lib.ga_clear_error()
        expect_error(t, label, call(), status, str(e), exact=False)


def run_sets_checks(runner, env):
    for g in SET_DTYPES:
        runner.run(f"sets/{DTYPE_NAMES[g]}", check_sets, g, device=True, needs=(g,))
        runner.run(f"sets-histogram/{DTYPE_NAMES[g]}", check_histograms, g, device=True, needs=(g,))
    for g in SET_COMPLEX_DTYPES:
        runner.run(f"sets/{DTYPE_NAMES[g]}", check_sets, g, device=True, needs=(g,))
    runner.run("sets-errors/all", check_sets_errors, device=True)


# --------------------------------------------------------------------------
# sorting, scans and order statistics (gpuarr.h, >>sort; the order
# statistics >>reduce): groups sort, scan and quantile
# --------------------------------------------------------------------------

GA_AXIS_NONE = -2**31
QUANTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
                    "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                    "normal_unbiased")
SCANS = ("cumsum", "cumprod", "nancumsum", "nancumprod")  # ga_scan_op's order

ORDER_PROTOTYPES = {
    "ga_sort": (_ARR, [_ARR, _c.c_int]),
    "ga_argsort": (_ARR, [_ARR, _c.c_int]),
    "ga_lexsort": (_ARR, [_c.c_int, _c.POINTER(_c.c_void_p), _c.c_int]),
    "ga_partition": (_ARR, [_ARR, _c.c_int, _I64P, _c.c_int]),
    "ga_argpartition": (_ARR, [_ARR, _c.c_int, _I64P, _c.c_int]),
    "ga_sort_complex": (_ARR, [_ARR]),
    "ga_scan": (_ST, [_c.c_int, _ARR, _c.c_int, _DT, _c.POINTER(_c.c_void_p)]),
    "ga_diff": (_ARR, [_ARR, _c.c_int, _c.c_int, _ARR, _ARR]),
    "ga_ediff1d": (_ARR, [_ARR, _ARR, _ARR]),
    "ga_quantile": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_double), _c.c_int, _c.POINTER(_c.c_int), _c.c_int,
                           _c.c_bool]),
    "ga_percentile": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_double), _c.c_int, _c.POINTER(_c.c_int), _c.c_int,
                             _c.c_bool]),
    "ga_nanquantile": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_double), _c.c_int, _c.POINTER(_c.c_int), _c.c_int,
                              _c.c_bool]),
    "ga_median": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int), _c.c_bool]),
    "ga_nanmedian": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int), _c.c_bool]),
}

# (shape, axis, view): view None is C-contiguous; else (shape, strides,
# offset) over a base of BASE_N elements, as VIEWS.
ORDER_CASES = (
    ((1,), -1, None),
    ((31,), 0, None),
    ((1025,), None, ((1025,), (-2,), 2100)),
    ((33, 31), 0, None),
    ((33, 31), -1, None),
    ((20, 30), 1, ((20, 30), (-120, 2), 39 * 60 + 1)),
    ((20, 40), 0, ((20, 40), (3, 60), 0)),
    ((3, 7, 50), -1, ((3, 7, 50), (0, -50, 1), 6 * 50 + 100)),
    ((4, 600), 1, None),
    ((0, 5), 1, None),
)


def numpy_raises(fn):
    """The exception NumPy raises, or None."""
    try:
        with quiet():
            fn()
    except Exception as e:  # noqa: BLE001 - any exception NumPy raises
        return e
    return None


def order_values(t, ga, n):
    """n values with many ties: integers of a few values, floats of a few
    values with NaN, infinities and zeros of both signs (complex: in either
    part)."""
    dt = t.env.np_dtype(ga)
    rng = t.rng
    if kind_of(ga) in "biu":
        return rng.integers(0, 2 if ga == GA["bool"] else 7, n).astype(dt)

    def part():
        v = rng.integers(-5, 6, n).astype(np.float64) * 0.5
        k = rng.random(n) < 0.1
        v[k] = rng.choice([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0], int(k.sum()))
        return v
    with quiet():
        return (part() + 1j * part()).astype(dt) if kind_of(ga) == "c" else part().astype(dt)


def order_operands(t, ga):
    """(label, host array, device array, axis) for each ORDER_CASES case."""
    base = order_values(t, ga, BASE_N)
    dbase = to_device(t, base)
    for shape, axis, view in ORDER_CASES:
        if view is None:
            n = int(np.prod(shape))
            x = order_values(t, ga, n).reshape(shape)
            p = to_device(t, x)
        else:
            vshape, vstrides, off = view
            x = host_view(base, vshape, vstrides, off)
            p = device_view(t, dbase, itemsize_of(ga), vshape, vstrides, off)
        yield f"{dname(ga)}{list(shape)} axis={axis}{' view' if view else ''}", x, p, axis


def as_float_values(a):
    """Values to compare numerically: -0.0 as 0.0 (gpuarr's sort puts -0.0
    first among zeros, NumPy keeps the input order), every NaN alike."""
    with quiet():
        a = np.asarray(a)
        if a.dtype.kind in "fc" or a.dtype.name == "bfloat16":
            a = a.astype(np.complex128) + 0
        return a


def same_values(got, want):
    g, w = as_float_values(got), as_float_values(want)
    if g.shape != w.shape:
        return False
    if g.dtype.kind == "c":
        return bool(np.all(((g.real == w.real) | (np.isnan(g.real) & np.isnan(w.real))) &
                           ((g.imag == w.imag) | (np.isnan(g.imag) & np.isnan(w.imag)))))
    return bool(np.array_equal(g, w))


def check_sort(t, ga):
    lib = t.lib
    for label, x, p, axis in order_operands(t, ga):
        cax = GA_AXIS_NONE if axis is None else axis
        xs = x.astype(np.float32) if ga == BF16 else x  # NumPy sorts ml_dtypes' bfloat16 as float32
        want = np.sort(xs, axis=axis, kind="stable")
        wanti = np.argsort(xs, axis=axis, kind="stable")
        got = to_numpy(t, t.own(lib.ga_sort(p, cax), f"sort {label}"))
        goti = to_numpy(t, t.own(lib.ga_argsort(p, cax), f"argsort {label}"))
        t.expect(got.dtype == x.dtype and same_values(got, want.astype(x.dtype)), f"sort {label}: values")
        t.expect(goti.dtype == np.int64 and np.array_equal(goti, wanti), f"argsort {label}: indices")
        ax = -1 if axis is None else axis
        length = x.size if axis is None else (x.shape[ax] if x.ndim else 1)
        if length and x.ndim:
            kth = sorted({0, length // 2, length - 1})
            kk = np.array(kth, dtype=np.int64)
            part = to_numpy(t, t.own(lib.ga_partition(p, len(kth), i64s(kth), cax), f"partition {label}"))
            apart = to_numpy(t, t.own(lib.ga_argpartition(p, len(kth), i64s(kth), cax), f"argpartition {label}"))
            sx = np.sort(xs, axis=axis, kind="stable")
            tp = part.reshape(-1) if axis is None else part
            taken = np.take_along_axis(xs.reshape(-1) if axis is None else xs, apart, axis=0 if axis is None else ax)
            for k in kk:
                want_k = np.take(sx, [k], axis=0 if axis is None else ax)
                t.expect(same_values(np.take(tp, [k], axis=0 if axis is None else ax), want_k.astype(x.dtype)),
                         f"partition {label}: kth {k}")
                t.expect(same_values(np.take(taken, [k], axis=0 if axis is None else ax), want_k),
                         f"argpartition {label}: kth {k}")
    if kind_of(ga) == "c" or ga == GA["float64"]:
        x = order_values(t, ga, 600).reshape(3, 200)
        got = to_numpy(t, t.own(lib.ga_sort_complex(to_device(t, x)), "sort_complex"))
        want = np.sort_complex(x)
        t.expect(got.dtype == want.dtype and same_values(got, want), f"sort_complex {dname(ga)}")


def check_lexsort(t):
    lib = t.lib
    rng = t.rng
    for shape, axis in (((1000,), -1), ((30, 40), 0), ((30, 40), -1), ((5, 6, 7), 1), ((30, 40), None)):
        n = int(np.prod(shape))
        keys = [rng.integers(0, 3, n).astype(np.int8).reshape(shape),
                order_values(t, GA["float32"], n).reshape(shape),
                order_values(t, GA["complex64"], n).reshape(shape),
                rng.integers(0, 2, n).astype(np.bool_).reshape(shape)]
        ps = (ctypes.c_void_p * len(keys))(*[to_device(t, k) for k in keys])
        cax = GA_AXIS_NONE if axis is None else axis
        got = to_numpy(t, t.own(lib.ga_lexsort(len(keys), ps, cax), "lexsort"))
        if axis is None:
            want = np.lexsort([k.reshape(-1) for k in keys])
        else:
            want = np.lexsort(keys, axis=axis)
        t.expect(np.array_equal(got, want), f"lexsort {shape} axis={axis}")


def check_partition_errors(t):
    lib = t.lib
    x = np.zeros((3, 5))
    p = to_device(t, x)
    for kth, axis in ((5, -1), (-6, 1), (3, 0)):
        e = numpy_error(lambda: np.partition(x, kth, axis=axis))
        lib.ga_clear_error()
        r = lib.ga_partition(p, 1, i64s([kth]), axis)
        expect_error(t, f"partition kth={kth} axis={axis}", r, "GA_ERROR_VALUE", str(e), exact=False)


def numpy_scan(name, x, axis):
    with quiet():
        if x.dtype.name == "bfloat16":  # gpuarr accumulates in float32, rounds once
            return np.asarray(getattr(np, name)(x.astype(np.float32), axis=axis)).astype(x.dtype)
        if x.dtype.name == "float16":
            return np.asarray(getattr(np, name)(x.astype(np.float32), axis=axis)).astype(x.dtype)
        return np.asarray(getattr(np, name)(x, axis=axis))


def parts_close(g, w, tol):
    """Complex g against w, part by part: both NaN, equal (infinities too),
    or within tol."""
    def close(a, b):
        return (np.isnan(a) & np.isnan(b)) | (a == b) | (np.abs(a - b) <= tol)
    return close(g.real, w.real) & close(g.imag, w.imag)


def check_scan(t, name, ga):
    lib = t.lib
    for label, x, p, axis in order_operands(t, ga):
        if name.endswith("prod") and kind_of(ga) in "fc":  # magnitudes near 1
            x = (0.9 + 0.2 * t.rng.random(x.shape)).astype(x.dtype)
            if name == "nancumprod":
                x[t.rng.random(x.shape) < 0.1] = np.nan
            p = to_device(t, x)
        cax = GA_AXIS_NONE if axis is None else axis
        want = numpy_scan(name, x, axis)
        out = ctypes.c_void_p(0)
        lib.ga_clear_error()
        st = lib.ga_scan(SCANS.index(name), p, cax, GA_INVALID, ctypes.byref(out))
        if not t.expect(st == 0, f"{name} {label}: {t.env.last_error()[1]}"):
            continue
        got = to_numpy(t, t.own(out.value))
        if not t.expect(got.dtype == want.dtype and got.shape == want.shape,
                        f"{name} {label}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"):
            continue
        if got.dtype.kind in "biu":
            t.expect(np.array_equal(got, want), f"{name} {label}: values")
            continue
        eps = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "complex64": 2.0**-23}.get(
            got.dtype.name, 2.0**-52)
        with quiet():
            g = got.astype(np.complex128).reshape(-1)
            w = want.astype(np.complex128).reshape(-1)
            mag = np.abs(x.astype(np.complex128))
            mag = np.where(np.isfinite(mag), mag, 0)
            scale = np.abs(w) + (np.sum(mag) if name.endswith("sum") else 0)
            tol = eps * (64 + 4 * math.log2(max(x.size, 2))) * scale + 1e-300
            ok = parts_close(g, w, tol)
        if not ok.all():
            i = int(np.nonzero(~ok)[0][0])
            t.fail(f"{name} {label}: {int((~ok).sum())} of {g.size} differ; first [{i}]: {g[i]!r}, NumPy {w[i]!r}")


def check_diff(t, ga):
    lib = t.lib
    for label, x, p, axis in order_operands(t, ga):
        if x.ndim == 0 or axis is None:
            continue
        for n in (1, 2):
            e = numpy_raises(lambda: np.diff(x, n=n, axis=axis))
            got_p = lib.ga_diff(p, n, axis, None, None)
            if e is not None:
                t.expect(not got_p, f"diff {label}: NumPy raises {e!r}")
                lib.ga_clear_error()
                if got_p:
                    t.own(got_p)
                continue
            with quiet():
                want = x
                for _ in range(n):  # bfloat16: each difference in float32, rounded (as gpuarr's ufunc)
                    want = np.diff(want.astype(np.float32) if ga == BF16 else want, axis=axis).astype(x.dtype)
            got = to_numpy(t, t.own(got_p, f"diff {label}"))
            t.expect(got.dtype == want.dtype and same_values(got, want), f"diff n={n} {label}")
        x1 = x.reshape(-1)
        e = numpy_raises(lambda: np.ediff1d(x1, to_begin=x1[:2]))
        r = lib.ga_ediff1d(p, None, to_device(t, x1[:2]))
        if e is not None:
            t.expect(not r, f"ediff1d {label}: NumPy raises {e!r}")
            lib.ga_clear_error()
        else:
            with quiet():
                want = np.ediff1d(x1.astype(np.float32) if ga == BF16 else x1, to_begin=x1[:2]).astype(x.dtype)
            got = to_numpy(t, t.own(r, f"ediff1d {label}"))
            t.expect(same_values(got, want), f"ediff1d {label}")


# axis cases for the order statistics: (shape, axes or None, keepdims)
QUANTILE_CASES = (
    ((1,), None, False),
    ((31,), None, True),
    ((1024,), (0,), False),
    ((33, 40), (1,), False),
    ((33, 41), (0,), True),
    ((4, 7, 30), (0, 2), False),
    ((4, 7, 30), (-1, 1), True),
    ((), None, False),
    ((0, 5), (1,), False),
    ((6, 7), (), False),  # axis=(): each element alone (axes not NULL, naxes 0)
)


def quantile_values(t, ga, n, nan):
    dt = t.env.np_dtype(ga)
    rng = t.rng
    if kind_of(ga) in "biu":
        hi = 2 if ga == GA["bool"] else 100
        return rng.integers(0, hi, n).astype(dt)
    v = np.round(rng.standard_normal(n) * 20, 1)
    if nan:
        v[rng.random(n) < 0.1] = np.nan
    return v.astype(dt)


def check_quantile(t, fn, ga):
    lib = t.lib
    qs = (0.0, 0.3, 0.5, 0.75, 1.0)
    methods = ("linear",) if fn.endswith("median") else QUANTILE_METHODS
    for shape, axes, keepdims in QUANTILE_CASES:
        n = int(np.prod(shape)) if shape else 1
        x = quantile_values(t, ga, n, nan=True).reshape(shape)
        if fn.startswith("nan") and x.ndim == 2 and x.shape[0] > 1 and x.dtype.kind == "f":
            x[0] = np.nan  # a slice of NaN only
        p = to_device(t, x)
        # axis=None: NULL (GA_ALL_AXES); axis=(): naxes 0 with an array
        axes_c = None if axes is None else (ctypes.c_int * max(len(axes), 1))(*axes)
        nax = len(axes or ())
        npaxis = None if axes is None else axes
        for method in methods:
            label = f"{fn}({dname(ga)}{list(shape)}, axis={npaxis}, keepdims={keepdims}, method={method})"
            with quiet():
                try:
                    if fn.endswith("median"):
                        want = np.asarray(getattr(np, fn)(x, axis=npaxis, keepdims=keepdims))
                    elif fn.startswith("nan") and x.size == 0:
                        # NumPy's nanmean of an empty array, without q's axis
                        scale = 100 if "percentile" in fn else 1
                        want = np.asarray(getattr(np, fn)(x, np.array(qs) * scale, axis=npaxis,
                                                          keepdims=keepdims, method=method))
                    else:
                        # one Python float q at a time: NumPy then computes in a's
                        # float dtype, as gpuarr does for every q
                        scale = 100 if "percentile" in fn else 1
                        want = np.stack([np.asarray(getattr(np, fn)(x, q * scale, axis=npaxis, keepdims=keepdims,
                                                                    method=method)) for q in qs])
                except Exception as e:  # noqa: BLE001 - NumPy raises: gpuarr must fail
                    want = e
            lib.ga_clear_error()
            if fn.endswith("median"):
                r = getattr(lib, "ga_" + fn)(p, nax, axes_c, keepdims)
            else:
                scale = 100 if "percentile" in fn else 1
                qa = (ctypes.c_double * len(qs))(*[q * scale for q in qs])
                r = getattr(lib, "ga_" + fn)(p, len(qs), qa, nax, axes_c, QUANTILE_METHODS.index(method), keepdims)
            if isinstance(want, Exception):
                t.expect(not r, f"{label}: succeeded; NumPy raises {want!r}")
                lib.ga_clear_error()
                if r:
                    t.own(r)
                continue
            if not t.expect(bool(r), f"{label}: {t.env.last_error()[1]}"):
                continue
            got = to_numpy(t, t.own(r))
            if not t.expect(got.shape == want.shape and got.dtype == want.dtype,
                            f"{label}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"):
                continue
            eps = {"float16": 2.0**-10, "float32": 2.0**-23}.get(got.dtype.name, 2.0**-52)
            with quiet():
                g, w = got.astype(np.float64), want.astype(np.float64)
                top = np.nanmax(np.abs(x.astype(np.float64))) if x.size and not np.all(np.isnan(x)) else 0
                ok = (np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= 4 * eps * (np.abs(w) + top))
            if not ok.all():
                i = np.argwhere(~ok)[0]
                t.fail(f"{label}: {int((~ok).sum())} differ; first {tuple(i)}: {g[tuple(i)]!r}, NumPy "
                       f"{w[tuple(i)]!r}")


def check_quantile_errors(t):
    lib = t.lib
    x = np.zeros((3, 4))
    p = to_device(t, x)
    for fn, q, kind in (("quantile", 1.5, "GA_ERROR_VALUE"), ("percentile", -1.0, "GA_ERROR_VALUE"),
                        ("nanquantile", float("nan"), "GA_ERROR_VALUE")):
        e = numpy_error(lambda: getattr(np, fn)(x, q))
        lib.ga_clear_error()
        r = getattr(lib, "ga_" + fn)(p, -1, (ctypes.c_double * 1)(q), 0, None, 0, False)
        expect_error(t, f"{fn} q={q}", r, kind, str(e), exact=False)
    c = to_device(t, np.zeros(3, np.complex64))
    e = numpy_error(lambda: np.quantile(np.zeros(3, np.complex64), 0.5))
    lib.ga_clear_error()
    r = lib.ga_quantile(c, -1, (ctypes.c_double * 1)(0.5), 0, None, 0, False)
    expect_error(t, "quantile of complex", r, "GA_ERROR_TYPE", str(e), exact=False)


def run_order_checks(runner, env):
    run = runner.run
    for g in range(len(DTYPE_NAMES)):
        run(f"sort/{DTYPE_NAMES[g]}", check_sort, g, device=True, needs=(g,))
        run(f"scan/diff/{DTYPE_NAMES[g]}", check_diff, g, device=True, needs=(g,))
        for name in SCANS:
            run(f"scan/{name}/{DTYPE_NAMES[g]}", check_scan, name, g, device=True, needs=(g,))
    run("sort/lexsort", check_lexsort, device=True)
    run("sort/partition-errors", check_partition_errors, device=True)
    for fn in ("quantile", "percentile", "nanquantile", "median", "nanmedian"):
        for name in ("bool", "int8", "int64", "uint16", "float16", "float32", "float64"):
            if name == "bool" and not fn.endswith("median"):
                continue
            run(f"quantile/{fn}/{name}", check_quantile, fn, GA[name], device=True)
    run("quantile/errors", check_quantile_errors, device=True)


# --------------------------------------------------------------------------
# indexing (gpuarr.h, >>index: masks, advanced indexing, nonzero, add.at)
# --------------------------------------------------------------------------

class GaIndexItem(ctypes.Structure):
    """ga_index_item: kind, start, stop, step (an array item keeps the array's address in start)."""
    _fields_ = [("kind", ctypes.c_int), ("start", ctypes.c_int64), ("stop", ctypes.c_int64),
                ("step", ctypes.c_int64)]


GA_NONE = -2**63
GA_AXIS_NONE = -2**31
INDEX_INTEGER, INDEX_SLICE, INDEX_NEWAXIS, INDEX_ELLIPSIS, INDEX_ARRAY = range(5)
_ARRP = _c.POINTER(_c.c_void_p)

INDEX_PROTOTYPES = {
    "ga_index": (_ARR, [_ARR, _c.c_char_p]),
    "ga_setitem": (_ST, [_ARR, _c.c_char_p, _ARR]),
    "ga_setitem_scalar": (_ST, [_ARR, _c.c_char_p, GaScalar]),
    "ga_take": (_ARR, [_ARR, _ARR, _c.c_int, _c.c_int]),
    "ga_put": (_ST, [_ARR, _ARR, _ARR, _c.c_int]),
    "ga_take_along_axis": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_put_along_axis": (_ST, [_ARR, _ARR, _ARR, _c.c_int]),
    "ga_index_items": (_ARR, [_ARR, _c.c_int, _c.POINTER(GaIndexItem)]),
    "ga_setitem_items": (_ST, [_ARR, _c.c_int, _c.POINTER(GaIndexItem), _ARR]),
    "ga_index_mask": (_ARR, [_ARR, _ARR]),
    "ga_setitem_mask": (_ST, [_ARR, _ARR, _ARR]),
    "ga_nonzero": (_ST, [_ARR, _ARRP]),
    "ga_argwhere": (_ARR, [_ARR]),
    "ga_flatnonzero": (_ARR, [_ARR]),
    "ga_compress": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_extract": (_ARR, [_ARR, _ARR]),
    "ga_place": (_ST, [_ARR, _ARR, _ARR]),
    "ga_add_at": (_ST, [_ARR, _c.c_int, _c.POINTER(GaIndexItem), _ARR]),
    "ga_trace": (_ARR, [_ARR, _c.c_int64, _c.c_int, _c.c_int, _DT]),
    "ga_reshape": (_ARR, [_ARR, _c.c_int, _I64P]),
    "ga_transpose": (_ARR, [_ARR, _c.POINTER(_c.c_int)]),
    "ga_concatenate": (_ARR, [_c.c_int, _ARRP, _c.c_int]),
    "ga_stack": (_ARR, [_c.c_int, _ARRP, _c.c_int]),
    "ga_array_split": (_ST, [_ARR, _c.c_int64, _c.c_int, _ARRP]),
    "ga_tile": (_ARR, [_ARR, _c.c_int, _I64P]),
    "ga_repeat": (_ARR, [_ARR, _c.c_int64, _c.c_int]),
    "ga_pad": (_ARR, [_ARR, _I64P, _c.c_int, GaScalar]),
    "ga_roll": (_ARR, [_ARR, _c.c_int64, _c.c_int]),
}


def same_bits(t, label, got, want):
    """got (a device array) has want's shape and the same bytes, element for element."""
    g = to_numpy(t, got)
    if not t.expect(g.shape == want.shape, f"{label}: shape {g.shape}, NumPy {want.shape}"):
        return
    gb = np.ascontiguousarray(g).view(np.uint8).reshape(-1)
    wb = np.ascontiguousarray(want).view(np.uint8).reshape(-1)
    if not np.array_equal(gb, wb):
        bad = int(np.nonzero(gb != wb)[0][0]) // max(1, g.itemsize)
        t.fail(f"{label}: element {bad} differs: {g.reshape(-1)[bad]!r}, NumPy {want.reshape(-1)[bad]!r}")


def values_with_zeros(t, ga, n):
    """random_values with about a third of them zero (and -0.0 for floats)."""
    v = random_values(t, ga, n)
    z = t.rng.random(n) < 0.33
    v[z] = 0
    if kind_of(ga) == "f" and n:
        v[t.rng.random(n) < 0.05] = -0.0
    return v


def indexing_views(t, ga):
    """(label, host array, device array) over VIEWS, with zeros among the values."""
    base = values_with_zeros(t, ga, BASE_N)
    dbase = to_device(t, base)
    isz = itemsize_of(ga)
    for label, shape, strides, offset in VIEWS:
        yield label, host_view(base, shape, strides, offset), device_view(t, dbase, isz, shape, strides, offset)


def check_index_mask(t, ga):
    lib = t.lib
    for label, hv, dv in indexing_views(t, ga):
        for k in range(hv.ndim, -1, -1):
            mask = t.rng.random(hv.shape[:k]) < 0.5
            want = hv[mask]
            dm = to_device(t, mask)
            same_bits(t, f"{label} mask over {k} axes", t.own(lib.ga_index_mask(dv, dm), "ga_index_mask"), want)
            # a[mask] = values, on a copy of the view
            vals = random_values(t, ga, want.size).reshape(want.shape)
            h = hv.copy()
            h[mask] = vals
            dcopy = t.own(lib.ga_copy(dv), "ga_copy")
            if t.expect(lib.ga_setitem_mask(dcopy, dm, to_device(t, vals)) == 0,
                        f"{label}: ga_setitem_mask: {t.env.last_error()}"):
                same_bits(t, f"{label} a[mask] = values over {k} axes", dcopy, h)


def random_index(rng, shape):
    """A random NumPy index for `shape` with at least one array: integers,
    slices, newaxis, an ellipsis, integer arrays of shapes that broadcast
    and bool arrays over one or two axes."""
    ndim = len(shape)
    items, d = [], 0
    arr_shape = [(), (3,), (2, 1), (2, 3), (1,)][rng.integers(0, 5)]
    used_ellipsis = False
    while d < ndim:
        r = rng.random()
        n = shape[d]
        if r < 0.35 and n > 0:
            items.append(rng.integers(-n, n, arr_shape if rng.random() < 0.8 else (3,)).astype(np.int64))
            d += 1
        elif r < 0.45 and d + 2 <= ndim and shape[d] * shape[d + 1] > 0:
            m = rng.random(shape[d:d + 2]) < 0.3
            items.append(m)
            d += 2
        elif r < 0.55 and n > 0:
            items.append(int(rng.integers(-n, n)))
            d += 1
        elif r < 0.7:
            start, stop = (int(x) for x in rng.integers(-n - 1, n + 2, 2))
            step = int(rng.choice([1, 2, -1, -2, 3]))
            items.append(slice(start if rng.random() < 0.7 else None, stop if rng.random() < 0.7 else None, step))
            d += 1
        elif r < 0.8:
            items.append(None)
        elif r < 0.9 and not used_ellipsis:
            items.append(Ellipsis)
            used_ellipsis = True
            d += int(rng.integers(0, ndim - d + 1))
        else:
            d += 1  # left to the implicit trailing slices
    if not any(isinstance(x, np.ndarray) for x in items):
        items.insert(0, rng.integers(-shape[0], shape[0], (2,)).astype(np.int64) if shape[0] else np.zeros(0, np.int64))
        # keep the item count valid: drop a trailing consumer if it now has too many
        consumed = sum(1 if not isinstance(x, np.ndarray) or x.dtype != bool else x.ndim
                       for x in items if x is not None and x is not Ellipsis)
        while consumed > ndim:
            for i in range(len(items) - 1, 0, -1):
                if items[i] is not None and items[i] is not Ellipsis:
                    x = items.pop(i)
                    consumed -= x.ndim if isinstance(x, np.ndarray) and x.dtype == bool else 1
                    break
    return tuple(items)


def ga_items(t, index):
    """The ga_index_item array of a NumPy index (arrays uploaded, owned by t)."""
    out = (GaIndexItem * max(1, len(index)))()
    for i, x in enumerate(index):
        if x is None:
            out[i] = GaIndexItem(INDEX_NEWAXIS, 0, 0, 0)
        elif x is Ellipsis:
            out[i] = GaIndexItem(INDEX_ELLIPSIS, 0, 0, 0)
        elif isinstance(x, slice):
            f = lambda v: GA_NONE if v is None else v
            out[i] = GaIndexItem(INDEX_SLICE, f(x.start), f(x.stop), f(x.step))
        elif isinstance(x, np.ndarray):
            out[i] = GaIndexItem(INDEX_ARRAY, to_device(t, x), 0, 0)
        else:
            out[i] = GaIndexItem(INDEX_INTEGER, x, 0, 0)
    return out


def check_advanced_index(t, ga):
    lib = t.lib
    for label, hv, dv in indexing_views(t, ga):
        if hv.ndim == 0:
            continue
        for _ in range(12):
            index = random_index(t.rng, hv.shape)
            what = f"{label} a[{index!r}]".replace("\n", "")
            items = ga_items(t, index)
            try:
                want = hv[index]
            except IndexError as e:
                expect_error(t, what, lib.ga_index_items(dv, len(index), items), "GA_ERROR_INDEX", str(e),
                             exact=False)
                continue
            same_bits(t, what, t.own(lib.ga_index_items(dv, len(index), items), "ga_index_items"), want)
            # assignment: compared where NumPy writes an element once
            vals = random_values(t, ga, want.size).reshape(want.shape)
            h = hv.copy()
            h[index] = vals
            count = np.zeros(hv.shape, np.int64)
            np.add.at(count, index, 1)
            dcopy = t.own(lib.ga_copy(dv), "ga_copy")
            if not t.expect(lib.ga_setitem_items(dcopy, len(index), items, to_device(t, vals)) == 0,
                            f"{what} = values: {t.env.last_error()}"):
                continue
            g = to_numpy(t, dcopy)
            once = count <= 1
            gb = np.ascontiguousarray(g[once]).view(np.uint8)
            wb = np.ascontiguousarray(h[once]).view(np.uint8)
            t.expect(np.array_equal(gb, wb), f"{what} = values: differs from NumPy")


def check_out_of_bounds(t):
    """NumPy's IndexError message for one bad index, and nothing written."""
    lib = t.lib
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for index in ((np.array([0, 3]),), (slice(None), np.array([-5, 1])), (0, slice(None), np.array([[5]])),
                  (np.array([1]), 1, np.array([7]))):
        e = numpy_error(lambda: a[index])
        da = to_device(t, a)
        items = ga_items(t, index)
        expect_error(t, f"a[{index!r}]", lib.ga_index_items(da, len(index), items), "GA_ERROR_INDEX", str(e),
                     exact=False)
        expect_error(t, f"a[{index!r}] = 1", lib.ga_setitem_items(da, len(index), items, to_device(t, np.float32(1))),
                     "GA_ERROR_INDEX", str(e), exact=False)
        same_bits(t, "nothing written", da, a)


def check_nonzero_family(t, ga):
    lib = t.lib
    for label, hv, dv in indexing_views(t, ga):
        same_bits(t, f"flatnonzero {label}", t.own(lib.ga_flatnonzero(dv), "ga_flatnonzero"), np.flatnonzero(hv))
        same_bits(t, f"argwhere {label}", t.own(lib.ga_argwhere(dv), "ga_argwhere"), np.argwhere(hv))
        if hv.ndim == 0:
            e = numpy_error(lambda: np.nonzero(hv))
            out = (ctypes.c_void_p * 1)()
            expect_error(t, "nonzero of 0-d", lib.ga_nonzero(dv, out), "GA_ERROR_VALUE", str(e), exact=False)
            continue
        out = (ctypes.c_void_p * hv.ndim)()
        if t.expect(lib.ga_nonzero(dv, out) == 0, f"nonzero {label}: {t.env.last_error()}"):
            for d, w in enumerate(np.nonzero(hv)):
                same_bits(t, f"nonzero {label} axis {d}", t.own(out[d]), w)


def check_compress_extract_place(t, ga):
    lib = t.lib
    for label, hv, dv in indexing_views(t, ga):
        if hv.ndim == 0:
            continue
        for axis in [None] + list(range(-hv.ndim, hv.ndim)):
            n = hv.size if axis is None else hv.shape[axis]
            cond = t.rng.random(max(0, n - int(t.rng.integers(0, 2)))) < 0.5
            want = np.compress(cond, hv, axis=axis)
            got = lib.ga_compress(to_device(t, cond), dv, GA_AXIS_NONE if axis is None else axis)
            same_bits(t, f"compress {label} axis {axis}", t.own(got, "ga_compress"), want)
        cond = values_with_zeros(t, ga, hv.size).reshape(hv.shape)
        truth = (cond.astype(np.float32) if ga == BF16 else cond) != 0  # NaN is true
        same_bits(t, f"extract {label}", t.own(lib.ga_extract(to_device(t, cond), dv), "ga_extract"),
                  np.extract(truth, hv))
        vals = random_values(t, ga, 3)
        h = hv.copy()
        np.place(h, truth, vals)
        dcopy = t.own(lib.ga_copy(dv), "ga_copy")
        if t.expect(lib.ga_place(dcopy, to_device(t, cond), to_device(t, vals)) == 0, f"place {label}"):
            same_bits(t, f"place {label}", dcopy, h)


def check_add_at(t, ga):
    lib = t.lib
    dt = t.env.np_dtype(ga)
    kind = kind_of(ga)
    for shape in ((10,), (4, 5)):
        a = (t.rng.integers(0, 3, shape)).astype(dt)
        idx = t.rng.integers(-shape[0], shape[0], 40).astype(np.int64)
        v = t.rng.integers(0 if kind in "bu" else -2, 3, (40,) + shape[1:]).astype(dt)
        want = a.copy()
        if ga == BF16:  # small integers: exact in float32, then bfloat16
            w32 = want.astype(np.float32)
            np.add.at(w32, idx, v.astype(np.float32))
            want = w32.astype(dt)
        else:
            np.add.at(want, idx, v)
        da = to_device(t, a)
        items = ga_items(t, (idx,))
        if t.expect(lib.ga_add_at(da, 1, items, to_device(t, v)) == 0, f"add.at {shape}: {t.env.last_error()}"):
            same_bits(t, f"add.at {shape}", da, want)


def check_trace(t, ga):
    lib = t.lib
    dt = t.env.np_dtype(ga)
    a = t.rng.integers(0, 3, (4, 3, 6)).astype(dt)
    for offset, ax1, ax2 in ((0, 0, 2), (2, 0, 2), (-1, 2, 0), (1, 1, 2), (-3, -1, 0)):
        want = np.trace(a.astype(np.float32) if ga == BF16 else a, offset, ax1, ax2)
        if ga == BF16:
            want = want.astype(dt)
        got = to_numpy(t, t.own(lib.ga_trace(to_device(t, a), offset, ax1, ax2, GA_INVALID), "ga_trace"))
        t.expect(got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want),
                 f"trace offset {offset} axes {ax1},{ax2}: {got!r} ({got.dtype}), NumPy {want!r} ({want.dtype})")


# --- manipulation -------------------------------------------------------------

def arrp(ptrs):
    return (ctypes.c_void_p * max(1, len(ptrs)))(*ptrs)


def check_manipulation(t, ga):
    lib, rng = t.lib, t.rng
    for label, hv, dv in indexing_views(t, ga):
        nd = hv.ndim
        # reshape to a random factorisation, and transpose by a random permutation
        if hv.size:
            shape = [hv.size]
            if hv.size % 4 == 0 and rng.random() < 0.7:
                shape = [4, -1]
            same_bits(t, f"reshape {label} {shape}", t.own(lib.ga_reshape(dv, len(shape), i64s(shape)), "reshape"),
                      hv.reshape(shape))
        perm = [int(x) for x in rng.permutation(nd)]
        same_bits(t, f"transpose {label} {perm}",
                  t.own(lib.ga_transpose(dv, (ctypes.c_int * max(1, nd))(*perm)), "ga_transpose"),
                  np.transpose(hv, perm))
        if nd == 0:
            continue
        axis = int(rng.integers(-nd, nd))
        other = random_values(t, ga, hv.size).reshape(hv.shape)
        do = to_device(t, other)
        same_bits(t, f"concatenate {label} axis {axis}",
                  t.own(lib.ga_concatenate(2, arrp([dv, do]), axis), "ga_concatenate"),
                  np.concatenate([hv, other], axis=axis))
        same_bits(t, f"stack {label} axis {axis}", t.own(lib.ga_stack(2, arrp([dv, do]), axis), "ga_stack"),
                  np.stack([hv, other], axis=axis))
        sections = int(rng.integers(1, 4))
        out = (ctypes.c_void_p * sections)()
        if t.expect(lib.ga_array_split(dv, sections, axis, out) == 0, f"array_split {label}"):
            for k, w in enumerate(np.array_split(hv, sections, axis=axis)):
                same_bits(t, f"array_split {label} part {k}", t.own(out[k]), w)
        reps = [int(x) for x in rng.integers(1, 3, int(rng.integers(1, nd + 2)))]
        same_bits(t, f"tile {label} {reps}", t.own(lib.ga_tile(dv, len(reps), i64s(reps)), "ga_tile"),
                  np.tile(hv, reps))
        r = int(rng.integers(0, 3))
        same_bits(t, f"repeat {label} {r} axis {axis}", t.own(lib.ga_repeat(dv, r, axis), "ga_repeat"),
                  np.repeat(hv, r, axis=axis))
        same_bits(t, f"repeat {label} {r} axis None", t.own(lib.ga_repeat(dv, r, GA_AXIS_NONE), "ga_repeat"),
                  np.repeat(hv, r))
        shift = int(rng.integers(-7, 8))
        same_bits(t, f"roll {label} {shift} axis {axis}", t.own(lib.ga_roll(dv, shift, axis), "ga_roll"),
                  np.roll(hv, shift, axis=axis))
        same_bits(t, f"roll {label} {shift} axis None", t.own(lib.ga_roll(dv, shift, GA_AXIS_NONE), "ga_roll"),
                  np.roll(hv, shift))
        widths = [int(x) for x in rng.integers(0, 3, 2 * nd)]
        pw = [(widths[2 * d], widths[2 * d + 1]) for d in range(nd)]
        for mode, name in enumerate(("constant", "edge", "reflect", "wrap")):
            if mode and hv.size == 0:
                continue  # NumPy refuses to extend an empty axis; gpuarr's error is checked in its own tests
            try:
                want = np.pad(hv, pw, mode=name) if name != "constant" else np.pad(hv, pw, constant_values=0)
            except ValueError:
                continue  # NumPy refuses (an empty axis); gpuarr's error is checked in its own tests
            same_bits(t, f"pad {label} {pw} {name}",
                      t.own(lib.ga_pad(dv, i64s(widths), mode, ga_scalar(0)), "ga_pad"), want)


def run_index_checks(runner, env):
    run = runner.run
    for g in range(len(DTYPE_NAMES)):
        name = DTYPE_NAMES[g]
        run(f"indexing/mask/{name}", check_index_mask, g, device=True, needs=(g,))
        run(f"indexing/advanced/{name}", check_advanced_index, g, device=True, needs=(g,))
        run(f"indexing/nonzero/{name}", check_nonzero_family, g, device=True, needs=(g,))
        run(f"indexing/compress-extract-place/{name}", check_compress_extract_place, g, device=True, needs=(g,))
        run(f"indexing/add-at/{name}", check_add_at, g, device=True, needs=(g,))
        run(f"indexing/trace/{name}", check_trace, g, device=True, needs=(g,))
        run(f"manipulation/{name}", check_manipulation, g, device=True, needs=(g,))
    run("indexing/out-of-bounds", check_out_of_bounds, device=True)


# --------------------------------------------------------------------------
# Linear algebra (group "linalg"): the products and einsum against NumPy
# --------------------------------------------------------------------------

LINALG_PROTOTYPES = {
    "ga_matmul": (_ARR, [_ARR, _ARR]),
    "ga_matmul_out": (_ST, [_ARR, _ARR, _ARR]),
    "ga_dot": (_ARR, [_ARR, _ARR]),
    "ga_vdot": (_ARR, [_ARR, _ARR]),
    "ga_inner": (_ARR, [_ARR, _ARR]),
    "ga_outer": (_ARR, [_ARR, _ARR]),
    "ga_einsum": (_ARR, [_c.c_char_p, _c.c_int, _ARRP]),
    "ga_tensordot": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_tensordot_axes": (_ARR, [_ARR, _ARR, _c.c_int, _c.POINTER(_c.c_int), _c.POINTER(_c.c_int)]),
    "ga_vecdot": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_matvec": (_ARR, [_ARR, _ARR]),
    "ga_vecmat": (_ARR, [_ARR, _ARR]),
    "ga_linalg_matrix_power": (_ARR, [_ARR, _c.c_int64]),
    "ga_linalg_vector_norm": (_ARR, [_ARR, _c.c_double, _c.c_int, _c.POINTER(_c.c_int), _c.c_bool]),
    "ga_linalg_matrix_norm": (_ARR, [_ARR, _c.c_int, _c.c_bool]),
    "ga_linalg_multi_dot": (_ARR, [_c.c_int, _ARRP]),
    "ga_kron": (_ARR, [_ARR, _ARR]),
    "ga_cross": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_linalg_cross": (_ARR, [_ARR, _ARR, _c.c_int]),
    "ga_linalg_cholesky": (_ARR, [_ARR, _c.c_bool]),
    "ga_linalg_solve": (_ARR, [_ARR, _ARR]),
    "ga_linalg_inv": (_ARR, [_ARR]),
    "ga_linalg_det": (_ARR, [_ARR]),
    "ga_linalg_slogdet": (_ST, [_ARR, _ARRP, _ARRP]),
    "ga_linalg_eigh": (_ST, [_ARR, _c.c_char, _ARRP, _ARRP]),
    "ga_linalg_eigvalsh": (_ARR, [_ARR, _c.c_char]),
    "ga_linalg_svd": (_ST, [_ARR, _c.c_bool, _ARRP, _ARRP, _ARRP]),
    "ga_linalg_eig": (_ST, [_ARR, _ARRP, _ARRP]),
    "ga_linalg_eigvals": (_ARR, [_ARR]),
    "ga_linalg_svdvals": (_ARR, [_ARR]),
    "ga_linalg_qr": (_ST, [_ARR, _c.c_int, _ARRP, _ARRP]),
    "ga_linalg_lstsq": (_ST, [_ARR, _ARR, _c.c_double, _ARRP, _ARRP, _ARRP, _ARRP]),
    "ga_linalg_matrix_rank": (_ARR, [_ARR, _c.c_double, _c.c_double]),
    "ga_linalg_cond": (_ARR, [_ARR, _c.c_int]),
    "ga_linalg_pinv": (_ARR, [_ARR, _c.c_double]),
    "ga_linalg_tensorsolve": (_ARR, [_ARR, _ARR]),
    "ga_linalg_tensorinv": (_ARR, [_ARR, _c.c_int]),
}

NORM_ORDS = {"fro": 0, "nuc": 1, 1: 2, -1: 3, 2: 4, -2: 5, np.inf: 6, -np.inf: 7}


def ints(values):
    values = [int(v) for v in values]
    return (ctypes.c_int * max(1, len(values)))(*values)

LINALG_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


def product_operand(t, ga, shape):
    """Values k / 4 for small integers k (complex: both parts): every
    product and sum of the checks is exact in each dtype's accumulation;
    integers from -100 to 100 (bool: 0 and 1)."""
    dt = t.env.np_dtype(ga)
    if kind_of(ga) in "biu":  # integers: products and sums that wrap in int8 and int16
        return t.rng.integers(-100, 101, shape).astype(dt) if kind_of(ga) != "b" else t.rng.integers(0, 2, shape).astype(dt)
    v = t.rng.integers(-4, 5, shape) / 4
    if kind_of(ga) == "c":
        v = v + 1j * (t.rng.integers(-4, 5, shape) / 4)
    return np.asarray(v).astype(dt)


def product_matches(t, label, got, want):
    g = to_numpy(t, got)
    t.expect(g.dtype == want.dtype and g.shape == want.shape,
             f"{label}: {g.dtype} {g.shape}, NumPy {want.dtype} {want.shape}")
    if g.shape == want.shape:
        t.expect(np.array_equal(g, want), f"{label}: values differ from NumPy's (first: {g.reshape(-1)[:3]!r}, "
                                          f"NumPy {want.reshape(-1)[:3]!r})")


MATMUL_SHAPES = (((3, 5), (5, 7)), ((5,), (5, 3)), ((4, 5), (5,)), ((6,), (6,)), ((2, 3, 4, 5), (3, 5, 2)),
                 ((3, 1, 2, 4), (2, 4, 5)), ((0, 3), (3, 4)), ((2, 0), (0, 3)), ((1, 1), (1, 1)), ((33, 17), (17, 65)),
                 # (one long dot product: the dot kernels; more than 2^18 multiply-adds: cuBLAS for the float dtypes)
                 ((5000,), (5000,)), ((1, 4099), (4099, 1)), ((70, 80), (80, 90)))


def check_linalg_products(t, ga):
    lib = t.lib
    for sa, sb in MATMUL_SHAPES:
        a, b = product_operand(t, ga, sa), product_operand(t, ga, sb)
        da, db = to_device(t, a), to_device(t, b)
        product_matches(t, f"matmul {sa} @ {sb}", t.own(lib.ga_matmul(da, db), "ga_matmul"), np.matmul(a, b))
        # b transposed in memory (read in place as op T)
        bt = np.asfortranarray(b)
        dbt = t.own(lib.ga_transpose(to_device(t, np.ascontiguousarray(b.T)), None), "ga_transpose")
        product_matches(t, f"matmul {sa} @ {sb} (F order)", t.own(lib.ga_matmul(da, dbt), "ga_matmul"),
                        np.matmul(a, bt))
        if len(sa) >= 1 and len(sb) >= 1 and (len(sb) == 1 or sa[-1] == sb[-2]):
            product_matches(t, f"dot {sa} . {sb}", t.own(lib.ga_dot(da, db), "ga_dot"), np.dot(a, b))
    # dot of N-d by M-d, inner, vdot, outer
    a, b = product_operand(t, ga, (2, 3, 4)), product_operand(t, ga, (5, 4, 6))
    product_matches(t, "dot (2,3,4) . (5,4,6)", t.own(lib.ga_dot(to_device(t, a), to_device(t, b)), "ga_dot"),
                    np.dot(a, b))
    c = product_operand(t, ga, (5, 6, 4))
    product_matches(t, "inner (2,3,4) (5,6,4)", t.own(lib.ga_inner(to_device(t, a), to_device(t, c)), "ga_inner"),
                    np.inner(a, c))
    v, w = product_operand(t, ga, (3, 4)), product_operand(t, ga, (12,))
    product_matches(t, "vdot (3,4) (12,)", t.own(lib.ga_vdot(to_device(t, v), to_device(t, w)), "ga_vdot"),
                    np.asarray(np.vdot(v, w)))
    product_matches(t, "outer (3,4) (12,)", t.own(lib.ga_outer(to_device(t, v), to_device(t, w)), "ga_outer"),
                    np.outer(v, w))
    # matmul_out into a float64 / complex128 out of the right shape
    out_dt = np.complex128 if kind_of(ga) == "c" else np.float64
    a, b = product_operand(t, ga, (4, 6)), product_operand(t, ga, (6, 3))
    out = to_device(t, np.zeros((2, 4, 3), out_dt))
    if t.expect(lib.ga_matmul_out(to_device(t, a), to_device(t, b), out) == 0, f"matmul_out: {t.env.last_error()}"):
        product_matches(t, "matmul_out into a (2, 4, 3) out", out,
                        np.matmul(a, b, out=np.zeros((2, 4, 3), out_dt)))


def product_close(t, label, got, want, rtol, normwise=False, scale=0.0):
    """got against NumPy's want elementwise to rtol, or (normwise) each
    element to rtol times want's largest magnitude: a factor's or a
    spectrum's small entries carry the error of its large ones; or to rtol
    times `scale` (the magnitude the entries' errors follow, where want's own
    may be nearly zero)."""
    g = to_numpy(t, got)
    t.expect(g.dtype == want.dtype and g.shape == want.shape,
             f"{label}: {g.dtype} {g.shape}, NumPy {want.dtype} {want.shape}")
    if g.shape == want.shape:
        with quiet():
            atol = rtol * float(np.abs(want).max()) if normwise and want.size else 0
            atol = max(atol, rtol * scale)
            ok = np.allclose(g.astype(np.complex128), want.astype(np.complex128), rtol=rtol, atol=atol)
        t.expect(ok, f"{label}: {g.reshape(-1)[:3]!r}, NumPy {want.reshape(-1)[:3]!r}")


def check_linalg_more_products(t, ga):
    lib = t.lib
    a, b = product_operand(t, ga, (2, 3, 4)), product_operand(t, ga, (4, 3, 5))
    da, db = to_device(t, a), to_device(t, b)
    product_matches(t, "tensordot axes=1", t.own(lib.ga_tensordot(da, db, 1), "ga_tensordot"), np.tensordot(a, b, 1))
    product_matches(t, "tensordot axes=0", t.own(lib.ga_tensordot(da, db, 0), "ga_tensordot"), np.tensordot(a, b, 0))
    product_matches(t, "tensordot axes=([1,2],[1,0])",
                    t.own(lib.ga_tensordot_axes(da, db, 2, ints([1, 2]), ints([1, 0])), "ga_tensordot_axes"),
                    np.tensordot(a, b, axes=([1, 2], [1, 0])))
    x, y = product_operand(t, ga, (2, 3)), product_operand(t, ga, (4, 1, 3))
    product_matches(t, "vecdot (2,3) (4,1,3)", t.own(lib.ga_vecdot(to_device(t, x), to_device(t, y), -1), "ga_vecdot"),
                    np.vecdot(x, y))
    z = product_operand(t, ga, (3, 2))
    product_matches(t, "vecdot axis 0", t.own(lib.ga_vecdot(to_device(t, z), to_device(t, z), 0), "ga_vecdot"),
                    np.vecdot(z, z, axis=0))
    m, v = product_operand(t, ga, (5, 2, 3, 4)), product_operand(t, ga, (2, 4))
    product_matches(t, "matvec", t.own(lib.ga_matvec(to_device(t, m), to_device(t, v)), "ga_matvec"), np.matvec(m, v))
    w = product_operand(t, ga, (3,))
    product_matches(t, "vecmat", t.own(lib.ga_vecmat(to_device(t, w), to_device(t, m)), "ga_vecmat"), np.vecmat(w, m))
    chain = [product_operand(t, ga, s) for s in ((7,), (7, 2), (2, 9), (9, 4), (4,))]
    for k in (3, 4, 5):
        ops = chain[:k] if k < 5 else chain
        got = t.own(lib.ga_linalg_multi_dot(len(ops), arrp([to_device(t, o) for o in ops])), "ga_linalg_multi_dot")
        product_matches(t, f"multi_dot of {k}", got, np.asarray(np.linalg.multi_dot(ops)))
    for sa, sb in (((2, 3), (4, 5)), ((3,), (2, 2)), ((), (3,)), ((2, 1, 3), (3, 2))):
        ka, kb = product_operand(t, ga, sa), product_operand(t, ga, sb)
        product_matches(t, f"kron {sa} {sb}", t.own(lib.ga_kron(to_device(t, ka), to_device(t, kb)), "ga_kron"),
                        np.asarray(np.kron(ka, kb)))
    for sa, sb, axis in (((4, 3), (3,), -1), ((3, 2), (3, 2), 0), ((3, 4), (3, 1), 0), ((5, 2, 3), (2, 3), -1)):
        ca, cb = product_operand(t, ga, sa), product_operand(t, ga, sb)
        want = np.asarray(np.cross(ca, cb, axis=axis))
        product_matches(t, f"cross {sa} {sb} axis {axis}",
                        t.own(lib.ga_cross(to_device(t, ca), to_device(t, cb), axis), "ga_cross"), want)
    q = product_operand(t, ga, (2, 3, 3)) / 2
    for n in (0, 1, 2, 3, 5):
        product_matches(t, f"matrix_power {n}", t.own(lib.ga_linalg_matrix_power(to_device(t, q), n),
                                                      "ga_linalg_matrix_power"), np.linalg.matrix_power(q, n))
    if ga != GA["float16"]:  # (inv: NumPy's linalg refuses float16)
        qi = q + 3 * np.eye(3, dtype=q.dtype)
        product_close(t, "matrix_power -2", t.own(lib.ga_linalg_matrix_power(to_device(t, qi), -2), "ga_linalg_matrix_power"),
                      np.linalg.matrix_power(qi, -2), 1e-4 if ga in (GA["float32"], GA["complex64"]) else 1e-10)
    rtol = 2e-3 if ga == GA["float16"] else 1e-5 if ga in (GA["float32"], GA["complex64"]) else 1e-12
    h = product_operand(t, ga, (3, 4, 5))
    dh = to_device(t, h)
    for ord_ in (np.inf, -np.inf, 0, 1, 2, 3, 0.5):
        for axes in (None, (1,), (0, 2)):
            want = np.asarray(np.linalg.vector_norm(h, ord=ord_, axis=axes))
            ax = list(axes or [])
            got = t.own(lib.ga_linalg_vector_norm(dh, float(ord_), len(ax), ints(ax) if ax else None, False),
                        "ga_linalg_vector_norm")
            # (float16: NumPy rounds every step to float16, summing in it too; (sum |x|^p)^(1/p)
            # then magnifies the sum's error by 1/p: 2e-3 is not enough for p = 0.5)
            product_close(t, f"vector_norm ord {ord_} axes {axes}", got, want,
                          8e-3 if ga == GA["float16"] and ord_ not in (0, 1, np.inf, -np.inf) else rtol)
    for name, code in NORM_ORDS.items():
        if name in ("nuc", 2, -2) and ga == GA["float16"]:
            continue  # NumPy's linalg refuses float16 (so does gpuarr's: checked with the solvers' errors)
        want = np.asarray(np.linalg.matrix_norm(h, ord=name))
        product_close(t, f"matrix_norm {name}", t.own(lib.ga_linalg_matrix_norm(dh, code, False), "ga_linalg_matrix_norm"),
                      want, rtol)
        want = np.asarray(np.linalg.matrix_norm(h, ord=name, keepdims=True))
        product_close(t, f"matrix_norm {name} keepdims", t.own(lib.ga_linalg_matrix_norm(dh, code, True),
                                                               "ga_linalg_matrix_norm"), want, rtol)


SOLVER_DTYPES = ("float32", "float64", "complex64", "complex128")


def hpd_stack(t, ga, batch, n):
    """Hermitian positive definite matrices (batch, n, n): B B^H + n I."""
    b = product_operand(t, ga, (batch, n, n)).astype(np.complex128 if kind_of(ga) == "c" else np.float64)
    a = b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n)
    return a.astype(t.env.np_dtype(ga))


def det_close(t, label, got, want, rtol):
    """det against NumPy's: the finite ones to rtol; where NumPy's overflows
    (sign * exp(logabsdet) with logabsdet past the dtype's range) the real
    parts' infinities agree, and the imaginary part is infinite too for a
    complex dtype: its sign is that of the rounding error in the sign's
    imaginary part (a Hermitian matrix's sign is 1 + 0j), not compared."""
    g = to_numpy(t, got)
    if g.shape != want.shape:
        product_close(t, label, got, want, rtol)
        return
    big = ~np.isfinite(want)
    if big.any():
        same = np.array_equal(g.real[big], want.real[big]) and \
            (not np.iscomplexobj(want) or bool(np.all(np.isinf(g.imag[big]) == np.isinf(want.imag[big]))))
        t.expect(same, f"{label}: overflowed to {g[big][:2]!r}, NumPy {want[big][:2]!r}")
    with quiet():
        ok = np.allclose(g[~big].astype(np.complex128), want[~big].astype(np.complex128), rtol=rtol, atol=0)
    t.expect(g.dtype == want.dtype and ok, f"{label}: {g.reshape(-1)[:3]!r} ({g.dtype}), NumPy {want.reshape(-1)[:3]!r}")


def check_linalg_solvers(t, ga):
    lib = t.lib
    rtol = 1e-4 if ga in (GA["float32"], GA["complex64"]) else 1e-10
    # (stacks of matrices of up to 32 rows go through the batched routines; one matrix, or larger ones, one call each)
    for batch, n in ((1, 1), (3, 5), (2, 17), (1, 6), (2, 40)):
        a = hpd_stack(t, ga, batch, n)
        da = to_device(t, a)
        product_close(t, f"cholesky {n}", t.own(lib.ga_linalg_cholesky(da, False), "ga_linalg_cholesky"),
                      np.linalg.cholesky(a), rtol * n, normwise=True)
        product_close(t, f"cholesky upper {n}", t.own(lib.ga_linalg_cholesky(da, True), "ga_linalg_cholesky"),
                      np.linalg.cholesky(a, upper=True), rtol * n, normwise=True)
        product_close(t, f"inv {n}", t.own(lib.ga_linalg_inv(da), "ga_linalg_inv"), np.linalg.inv(a), rtol * n, normwise=True)
        det_close(t, f"det {n}", t.own(lib.ga_linalg_det(da), "ga_linalg_det"), np.asarray(np.linalg.det(a)), rtol * n)
        s, l = ctypes.c_void_p(), ctypes.c_void_p()
        if t.expect(lib.ga_linalg_slogdet(da, ctypes.byref(s), ctypes.byref(l)) == 0, f"slogdet: {t.env.last_error()}"):
            ws, wl = np.linalg.slogdet(a)
            product_close(t, f"slogdet sign {n}", t.own(s.value), np.asarray(ws), rtol * n)
            product_close(t, f"slogdet log {n}", t.own(l.value), np.asarray(wl), rtol * n)
        product_close(t, f"eigvalsh {n}", t.own(lib.ga_linalg_eigvalsh(da, b"L"), "ga_linalg_eigvalsh"),
                      np.linalg.eigvalsh(a), rtol * n)
        pw, pv = ctypes.c_void_p(), ctypes.c_void_p()
        if t.expect(lib.ga_linalg_eigh(da, b"U", ctypes.byref(pw), ctypes.byref(pv)) == 0, f"eigh: {t.env.last_error()}"):
            w, v = to_numpy(t, t.own(pw.value)), to_numpy(t, t.own(pv.value))
            ww = np.linalg.eigvalsh(a, UPLO="U")
            t.expect(w.shape == ww.shape and v.shape == a.shape and
                     np.allclose(w, ww, rtol=0, atol=rtol * n * max(1.0, float(np.abs(ww).max()))), f"eigh {n}: w {w.shape}")
            if v.shape == a.shape:
                t.expect(np.allclose(a @ v, v * w[..., None, :], rtol=0, atol=rtol * 10 * n * max(1.0, float(np.abs(ww).max()))),
                         f"eigh {n}: a v != v w")
        b2 = product_operand(t, ga, (batch, n, 3))
        product_close(t, f"solve {n} (n, 3)", t.own(lib.ga_linalg_solve(da, to_device(t, b2)), "ga_linalg_solve"),
                      np.linalg.solve(a, b2), rtol * n, normwise=True)
        for m_, n_ in ((n, n), (n + 2, n), (n, n + 3)):
            g = product_operand(t, ga, (batch, m_, n_))
            dg = to_device(t, g)
            product_close(t, f"svdvals ({m_}, {n_})", t.own(lib.ga_linalg_svdvals(dg), "ga_linalg_svdvals"),
                          np.linalg.svd(g, compute_uv=False), rtol * n_ + 1e-6, normwise=True)
            for full in (False, True):
                pu, ps, pv = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
                if not t.expect(lib.ga_linalg_svd(dg, full, ctypes.byref(pu), ctypes.byref(ps), ctypes.byref(pv)) == 0,
                                f"svd ({m_}, {n_}): {t.env.last_error()}"):
                    continue
                u, sv, vh = (to_numpy(t, t.own(q.value)) for q in (pu, ps, pv))
                wu, ws, wvh = np.linalg.svd(g, full_matrices=full)
                t.expect(u.shape == wu.shape and sv.shape == ws.shape and vh.shape == wvh.shape,
                         f"svd ({m_}, {n_}) full={full}: shapes {u.shape} {sv.shape} {vh.shape}, NumPy {wu.shape} "
                         f"{ws.shape} {wvh.shape}")
                kk = min(m_, n_)
                back = (u[..., :, :kk] * sv[..., None, :]) @ vh[..., :kk, :]
                t.expect(np.allclose(back, g, rtol=0, atol=(rtol * n_ + 1e-6) * max(1.0, float(np.abs(g).max()))),
                         f"svd ({m_}, {n_}) full={full}: u s vh is not a")
        # qr: NumPy's shapes, q r = a, |r| as NumPy's (Householder signs alike), raw's shapes
        for m_, n_ in ((n + 2, n), (n, n + 3)):
            g = product_operand(t, ga, (batch, m_, n_))
            dg = to_device(t, g)
            for code, mode in enumerate(("reduced", "complete", "r", "raw")):
                pq, pr = ctypes.c_void_p(), ctypes.c_void_p()
                if not t.expect(lib.ga_linalg_qr(dg, code, ctypes.byref(pq), ctypes.byref(pr)) == 0,
                                f"qr {mode} ({m_}, {n_}): {t.env.last_error()}"):
                    continue
                want = np.linalg.qr(g, mode=mode)
                rr = to_numpy(t, t.own(pr.value))
                if mode == "r":
                    t.expect(rr.shape == want.shape and np.allclose(np.abs(rr), np.abs(want), atol=rtol * 100 * n_ + 1e-5),
                             f"qr r ({m_}, {n_}): {rr.shape}, NumPy {want.shape}")
                    continue
                qq = to_numpy(t, t.own(pq.value))
                wq, wr = want
                t.expect(qq.shape == wq.shape and rr.shape == wr.shape,
                         f"qr {mode} ({m_}, {n_}): shapes {qq.shape} {rr.shape}, NumPy {wq.shape} {wr.shape}")
                if mode != "raw" and qq.shape == wq.shape:
                    t.expect(np.allclose(qq @ rr, g, atol=rtol * 100 * n_ + 1e-5), f"qr {mode} ({m_}, {n_}): q r is not a")
        # lstsq of a tall a (full rank and rank-deficient; m >= 2n takes the QR path), b 1-d and 2-d
        if batch == 1:
            for deficient, rows in itertools.product((False, True), (n + 3, 3 * n + 1)):
                g = product_operand(t, ga, (rows, n)) + (2 * np.eye(rows, n) if n else 0)
                if deficient and n > 1:
                    g[:, -1] = g[:, 0]
                for bshape in ((rows,), (rows, 2)):
                    rhs = product_operand(t, ga, bshape)
                    px, pres, prk, ps = (ctypes.c_void_p() for _ in range(4))
                    if not t.expect(lib.ga_linalg_lstsq(to_device(t, g.astype(t.env.np_dtype(ga))), to_device(t, rhs), float("nan"),
                                                        ctypes.byref(px), ctypes.byref(pres), ctypes.byref(prk),
                                                        ctypes.byref(ps)) == 0, f"lstsq: {t.env.last_error()}"):
                        continue
                    wx, wres, wrk, ws = np.linalg.lstsq(g.astype(t.env.np_dtype(ga)), rhs)
                    # (x's entries carry errors of |b| / |a|'s size: a solution near 0 is compared at that scale)
                    product_close(t, f"lstsq x {bshape} deficient={deficient}", t.own(px.value), wx, rtol * 1000 * (n + 1) + 1e-4,
                                  scale=float(np.abs(rhs).max()) / max(float(np.abs(g).max()), 1e-30))
                    got_res = to_numpy(t, t.own(pres.value))
                    t.expect(got_res.shape == wres.shape, f"lstsq residuals {got_res.shape}, NumPy {wres.shape}")
                    got_rk = to_numpy(t, t.own(prk.value))
                    t.expect(int(got_rk) == int(wrk), f"lstsq rank {int(got_rk)}, NumPy {int(wrk)}")
                    product_close(t, f"lstsq s {bshape}", t.own(ps.value), ws, rtol * 100 * (n + 1) + 1e-5, normwise=True)
        # eig of a general matrix (complex eigenvalues likely) and of a triangular one (real ones)
        for label, g in (("general", product_operand(t, ga, (batch, n, n)) + n * np.eye(n)),
                         ("triangular", np.triu(product_operand(t, ga, (batch, n, n))) + np.diag(np.arange(1, n + 1)))):
            g = g.astype(t.env.np_dtype(ga))
            dg = to_device(t, g)
            want = np.linalg.eigvals(g)
            got = to_numpy(t, t.own(lib.ga_linalg_eigvals(dg), "ga_linalg_eigvals"))
            t.expect(got.dtype == want.dtype and got.shape == want.shape,
                     f"eigvals {label} {n}: {got.dtype} {got.shape}, NumPy {want.dtype} {want.shape}")
            if got.shape == want.shape:
                key = lambda z: np.sort_complex(z.astype(np.complex128).reshape(-1, n))
                t.expect(np.allclose(key(got), key(want), atol=rtol * 1000 * n * max(1.0, float(np.abs(want).max()))),
                         f"eigvals {label} {n}: {got.reshape(-1)[:3]}, NumPy {want.reshape(-1)[:3]}")
            pw, pv = ctypes.c_void_p(), ctypes.c_void_p()
            if t.expect(lib.ga_linalg_eig(dg, ctypes.byref(pw), ctypes.byref(pv)) == 0, f"eig: {t.env.last_error()}"):
                w, v = to_numpy(t, t.own(pw.value)), to_numpy(t, t.own(pv.value))
                wv = np.linalg.eig(g).eigenvectors
                t.expect(v.dtype == wv.dtype and v.shape == wv.shape and
                         np.allclose(np.linalg.norm(v, axis=-2), 1, atol=rtol * 100),
                         f"eig {label} {n}: vectors {v.dtype} {v.shape}, NumPy {wv.dtype} {wv.shape}, or not of unit norm")
                t.expect(np.allclose(g @ v, v * w[..., None, :], atol=rtol * 1000 * n * max(1.0, float(np.abs(g).max()))),
                         f"eig {label} {n}: a v != v w")
        # rank of a matrix built to lose a rank, cond, pinv
        low = product_operand(t, ga, (batch, n + 2, n))
        if n > 1:
            low[..., -1] = low[..., 0]
        dl = to_device(t, low)
        product_matches(t, f"matrix_rank ({n + 2}, {n})",
                        t.own(lib.ga_linalg_matrix_rank(dl, float("nan"), float("nan")), "ga_linalg_matrix_rank"),
                        np.asarray(np.linalg.matrix_rank(low)).astype(np.int64))
        product_close(t, f"pinv ({n + 2}, {n})", t.own(lib.ga_linalg_pinv(dl, float("nan")), "ga_linalg_pinv"),
                      np.linalg.pinv(low), rtol * n * 100 + 1e-5, normwise=True)
        for pname in (2, -2, "fro", 1, np.inf):
            product_close(t, f"cond {pname} {n}", t.own(lib.ga_linalg_cond(da, NORM_ORDS[pname]), "ga_linalg_cond"),
                          np.asarray(np.linalg.cond(a, pname)), rtol * n * 10)
        if batch == 1 and n > 1:
            tt = hpd_stack(t, ga, 1, 6)[0].reshape(2, 3, 6)
            product_close(t, "tensorinv (2,3,6) ind=2 after reshape",
                          t.own(lib.ga_linalg_tensorinv(to_device(t, tt.reshape(2, 3, 2, 3)), 2), "ga_linalg_tensorinv"),
                          np.linalg.tensorinv(tt.reshape(2, 3, 2, 3), 2), rtol * 60)
            tb = product_operand(t, ga, (2, 3))
            product_close(t, "tensorsolve (2,3,2,3) (2,3)",
                          t.own(lib.ga_linalg_tensorsolve(to_device(t, tt.reshape(2, 3, 2, 3)), to_device(t, tb)),
                                "ga_linalg_tensorsolve"), np.linalg.tensorsolve(tt.reshape(2, 3, 2, 3), tb), rtol * 60)
        b1 = product_operand(t, ga, (n,))
        product_close(t, f"solve {n} 1-d b", t.own(lib.ga_linalg_solve(da, to_device(t, b1)), "ga_linalg_solve"),
                      np.linalg.solve(a, b1), rtol * n)


def check_linalg_solver_errors(t):
    lib = t.lib
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    for label, call, numpy_call, arr in (
            ("inv singular", lib.ga_linalg_inv, np.linalg.inv, sing),
            ("cholesky not PD", lambda x: lib.ga_linalg_cholesky(x, False), np.linalg.cholesky, np.array([[1.0, 2], [2, 1]])),
            ("inv not square", lib.ga_linalg_inv, np.linalg.inv, np.ones((2, 3))),
            ("det 1-d", lib.ga_linalg_det, np.linalg.det, np.ones(3))):
        try:
            numpy_call(arr)
            t.fail(f"{label}: NumPy did not raise")
            continue
        except np.linalg.LinAlgError as e:
            fn = {"inv": "ga_linalg_inv", "cholesky": "ga_linalg_cholesky", "det": "ga_linalg_det"}[label.split()[0]]
            expect_error(t, label, call(to_device(t, arr)), "GA_ERROR_LINALG", f"{fn}: {e}")
    try:
        np.linalg.inv(np.ones((2, 2), np.float16))
    except TypeError as e:
        expect_error(t, "inv float16", lib.ga_linalg_inv(to_device(t, np.ones((2, 2), np.float16))), "GA_ERROR_TYPE",
                     f"ga_linalg_inv: {e}")


EINSUM_CHECKS = (("ij,jk->ik", ((3, 4), (4, 5))), ("ij,jk", ((3, 4), (4, 5))), ("ii", ((4, 4),)),
                 ("ii->i", ((4, 4),)), ("ij->ji", ((3, 4),)), ("ij->", ((3, 4),)), ("i,i", ((5,), (5,))),
                 ("i,j->ij", ((3,), (4,))), ("...ij,...jk->...ik", ((2, 3, 4), (4, 5))),
                 ("bij,bjk->bik", ((2, 3, 4), (2, 4, 5))), ("ijk,kl->il", ((2, 3, 4), (4, 5))),
                 ("ij,jk,kl->il", ((2, 3), (3, 4), (4, 5))), ("a...a", ((3, 2, 3),)), ("i,i->i", ((1,), (3,))),
                 ("ijk,ikl,ilm->jm", ((2, 3, 4), (2, 4, 5), (2, 5, 3))), (",ij", ((), (2, 3))),
                 ("ij,ij->ij", ((2, 3), (1, 3))), ("iij,jk->ik", ((3, 3, 4), (4, 2))))


def check_linalg_einsum(t, ga):
    lib = t.lib
    for subs, shapes in EINSUM_CHECKS:
        ops = [product_operand(t, ga, s) for s in shapes]
        dev = [to_device(t, o) for o in ops]
        want = np.asarray(np.einsum(subs, *ops))
        got = t.own(lib.ga_einsum(subs.encode(), len(dev), arrp(dev)), f"ga_einsum('{subs}')")
        product_matches(t, f"einsum('{subs}')", got, want)


LINALG_ERRORS = (
    ("matmul", "ga_matmul", ((2, 3), (4, 5)), lambda a, b: np.matmul(a, b)),
    ("matmul", "ga_matmul", ((), (3,)), lambda a, b: np.matmul(a, b)),
    ("matmul", "ga_matmul", ((2, 3, 4), (5, 4, 2)), lambda a, b: np.matmul(a, b)),
    ("dot", "ga_dot", ((3,), (4,)), lambda a, b: np.dot(a, b)),
    ("dot", "ga_dot", ((2, 3), (4, 5)), lambda a, b: np.dot(a, b)),
    ("inner", "ga_inner", ((2, 3), (4,)), lambda a, b: np.inner(a, b)),
)
EINSUM_ERRORS = (("ij,jk->ik", ((2, 3), (4, 4))), ("ii", ((2, 3),)), ("ij->k", ((2, 3),)), ("ij->jj", ((2, 3),)),
                 ("ijk", ((2, 3),)), ("ij", ((2, 3, 4),)), ("i.j", ((2, 3),)), ("ij,jk", ((2, 3),)),
                 ("ij", ((2, 3), (3, 4))), ("i1", ((2, 3),)), ("...ij->ij", ((5, 2, 3),)), ("i-j", ((2,),)),
                 ("...ij,...jk", ((5, 2, 3), (6, 3, 4))), ("bb->b", ((2, 1),)))


def check_linalg_errors(t):
    lib = t.lib
    for label, call, numpy_call in (
            ("tensordot axes=2", lambda a, b: lib.ga_tensordot(a, b, 2),
             lambda a, b: np.tensordot(a, b, 2)),
            ("vecdot", lambda a, b: lib.ga_vecdot(a, b, -1), lambda a, b: np.vecdot(a, b)),
            ("matvec", lambda a, b: lib.ga_matvec(a, b), lambda a, b: np.matvec(a, b))):
        a, b = np.ones((2, 3, 4)), np.ones((4, 3, 5)) if label.startswith("tensordot") else np.ones((2, 5))
        try:
            numpy_call(a, b)
            t.fail(f"{label}: NumPy did not raise")
            continue
        except ValueError as e:
            message = f"ga_{label.split()[0]}: {e}"
        expect_error(t, label, call(to_device(t, a), to_device(t, b)),
                     "GA_ERROR_SHAPE" if "remapped" in message else "GA_ERROR_VALUE", message)
    for shape in ((2, 3), (3,)):
        try:
            np.linalg.matrix_power(np.ones(shape), 2)
        except np.linalg.LinAlgError as e:
            expect_error(t, f"matrix_power {shape}", lib.ga_linalg_matrix_power(to_device(t, np.ones(shape)), 2),
                         "GA_ERROR_LINALG", f"ga_linalg_matrix_power: {e}")
    for name, fn, shapes, numpy_call in LINALG_ERRORS:
        ops = [np.ones(s) for s in shapes]
        try:
            numpy_call(*ops)
            t.fail(f"{name} {shapes}: NumPy did not raise")
            continue
        except ValueError as e:
            message = f"{fn}: {e}"
        p = getattr(lib, fn)(*[to_device(t, o) for o in ops])
        expect_error(t, f"{name} {shapes}", p, "GA_ERROR_SHAPE" if "remapped" in message else "GA_ERROR_VALUE",
                     message)
    for fn, numpy_fn, sa, sb in (("ga_cross", np.cross, (2,), (2,)), ("ga_cross", np.cross, (4, 2), (3,)),
                                 ("ga_linalg_cross", np.linalg.cross, (3,), (2,))):
        try:
            numpy_fn(np.ones(sa), np.ones(sb))
            t.fail(f"{fn} {sa} {sb}: NumPy did not raise")
            continue
        except ValueError as e:
            message = f"{fn}: {e}"
        expect_error(t, f"{fn} {sa} {sb}", getattr(lib, fn)(to_device(t, np.ones(sa)), to_device(t, np.ones(sb)), -1),
                     "GA_ERROR_VALUE", message)
    for subs, shapes in EINSUM_ERRORS:
        ops = [np.ones(s) for s in shapes]
        try:
            np.einsum(subs, *ops)
            t.fail(f"einsum('{subs}'): NumPy did not raise")
            continue
        except ValueError as e:
            message = f"ga_einsum: {e}"
        p = lib.ga_einsum(subs.encode(), len(ops), arrp([to_device(t, o) for o in ops]))
        expect_error(t, f"einsum('{subs}') {shapes}", p, "GA_ERROR_SHAPE" if "remapped" in message else "GA_ERROR_VALUE",
                     message)


def run_linalg_checks(runner, env):
    run = runner.run
    for name in LINALG_DTYPES:
        g = GA[name]
        run(f"linalg/products/{name}", check_linalg_products, g, device=True, needs=(g,))
        run(f"linalg/einsum/{name}", check_linalg_einsum, g, device=True, needs=(g,))
        run(f"linalg/more-products/{name}", check_linalg_more_products, g, device=True, needs=(g,))
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint64"):  # (our kernel: sums that wrap)
        g = GA[name]
        run(f"linalg/products/{name}", check_linalg_products, g, device=True, needs=(g,))
        run(f"linalg/einsum/{name}", check_linalg_einsum, g, device=True, needs=(g,))
    run("linalg/errors", check_linalg_errors, device=True)
    for name in SOLVER_DTYPES:
        g = GA[name]
        run(f"linalg/solvers/{name}", check_linalg_solvers, g, device=True, needs=(g,))
    run("linalg/solver-errors", check_linalg_solver_errors, device=True)


# --------------------------------------------------------------------------
# Device checks: numpy.fft (group fft), NumPy's transforms of the same values
# --------------------------------------------------------------------------

FFT_PROTOTYPES = {
    **{f"ga_fft_{f}": (_ARR, [_ARR, _c.c_int64, _c.c_int, _c.c_int])
       for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"ga_fft_{f}": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int64), _c.c_int, _c.POINTER(_c.c_int), _c.c_int])
       for f in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2")},
    "ga_fft_fftfreq": (_ARR, [_c.c_int64, _c.c_double, _c.c_int]),
    "ga_fft_rfftfreq": (_ARR, [_c.c_int64, _c.c_double, _c.c_int]),
    "ga_fft_fftshift": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int)]),
    "ga_fft_ifftshift": (_ARR, [_ARR, _c.c_int, _c.POINTER(_c.c_int)]),
    **{f"ga_fft_{f}_out": (_ST, [_ARR, _c.c_int64, _c.c_int, _c.c_int, _ARR])
       for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"ga_fft_{f}_out": (_ST, [_ARR, _c.c_int, _c.POINTER(_c.c_int64), _c.c_int, _c.POINTER(_c.c_int), _c.c_int,
                                 _ARR])
       for f in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2")},
}
FFT_NORMS = ("backward", "ortho", "forward")  # GA_FFT_NORM_BACKWARD, _ORTHO, _FORWARD
FFT_DTYPES = ("bool", "int32", "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
GA_NONE_INT = -(1 << 63)  # GA_NONE


def fft_input(t, ga, shape):
    """Uniform values in [-1, 1) (complex: both parts) in dtype ga."""
    dt = t.env.np_dtype(ga)
    if kind_of(ga) == "b":
        return t.rng.integers(0, 2, shape).astype(dt)
    if kind_of(ga) in "iu":
        return t.rng.integers(-50, 51, shape).astype(dt)
    v = t.rng.uniform(-1, 1, shape)
    if kind_of(ga) == "c":
        v = v + 1j * t.rng.uniform(-1, 1, shape)
    return np.asarray(v).astype(dt)


def fft_numpy_input(t, ga, x):
    """What NumPy transforms for our input x: bfloat16 (which NumPy's fft
    refuses) as float32, the same values."""
    return x.astype(np.float32) if ga == BF16 else x


def fft_matches(t, label, p, want, half=False):
    """Device result p equals NumPy's `want`: dtype, shape, and values within
    the precision's tolerance relative to the largest magnitude (`half`: of
    a float16 input, which NumPy transforms only to float16's precision;
    gpuarr computes it in float32)."""
    got = to_numpy(t, p)
    want = np.asarray(want)
    if not t.expect(got.dtype == want.dtype and got.shape == want.shape,
                    f"{label}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"):
        return
    if want.size == 0:
        return
    single = want.dtype in (np.float32, np.complex64)
    scale = max(1.0, float(np.max(np.abs(want.astype(np.complex128)))))
    err = float(np.max(np.abs(got.astype(np.complex128) - want.astype(np.complex128)))) / scale
    tol = (1e-3 if half else 2e-6 if single else 1e-13) * max(1.0, np.log2(max(2, want.size)))
    t.expect(err <= tol, f"{label}: largest difference {err:.3g} of the largest magnitude (tolerance {tol:.3g})")


def fft_int_ptr(values):
    return (_c.c_int * len(values))(*values) if values is not None else None


def check_fft_1d(t, ga):
    """fft, ifft, rfft, irfft, hfft, ihfft along each axis of (7,), (4, 9) and
    (3, 5, 6) inputs, n None / shorter / longer, every norm."""
    lib = t.lib
    real = kind_of(ga) != "c"
    for shape in ((7,), (4, 9), (3, 5, 6), (16,), (1,)):
        x = fft_input(t, ga, shape)
        d = to_device(t, x)
        xn = fft_numpy_input(t, ga, x)
        for axis in range(-len(shape), len(shape)):
            m = shape[axis]
            for n in (None, max(1, m - 2), m + 3):
                for k, norm in enumerate(FFT_NORMS):
                    for name in ("fft", "ifft", "irfft", "hfft") + (("rfft", "ihfft") if real else ()):
                        if name in ("irfft", "hfft") and n is None and m == 1:
                            continue  # NumPy: 2 (m - 1) = 0 points, an error (checked in fft/errors)
                        label = f"{name}{shape} axis {axis} n {n} norm {norm}"
                        p = getattr(lib, f"ga_fft_{name}")(d, GA_NONE_INT if n is None else n, axis, k)
                        if not p:
                            t.fail(f"{label}: {t.env.last_error()[1]}")
                            continue
                        t.own(p)
                        fft_matches(t, label, p, getattr(np.fft, name)(xn, n=n, axis=axis, norm=norm), ga == GA["float16"])


def check_fft_nd(t, ga):
    """The n-d forms: default axes, given axes (negative, out of order,
    repeated), s shorter and longer, every norm."""
    lib = t.lib
    real = kind_of(ga) != "c"
    x = fft_input(t, ga, (4, 6, 5))
    d = to_device(t, x)
    xn = fft_numpy_input(t, ga, x)
    cases = ((None, None), (None, (0, 2)), (None, (-1, 0)), ((3, 8), (1, 2)), ((5,), None), ((2, 7, 3), None),
             (None, (1, 1)), ((6, 4), (2, 0)))
    names = ("fftn", "ifftn", "irfftn") + (("rfftn",) if real else ())
    for s_, axes in cases:
        for k, norm in enumerate(FFT_NORMS):
            for name in names:
                if name in ("irfftn", "rfftn") and axes is not None and len(set(axes)) != len(axes):
                    continue  # (the real forms' last axis repeated: NumPy's result is its own corner case)
                label = f"{name} s {s_} axes {axes} norm {norm}"
                s_arr = (_c.c_int64 * len(s_))(*s_) if s_ is not None else None
                p = getattr(lib, f"ga_fft_{name}")(d, len(s_) if s_ is not None else 0, s_arr,
                                                     len(axes) if axes is not None else 0, fft_int_ptr(axes), k)
                if not p:
                    t.fail(f"{label}: {t.env.last_error()[1]}")
                    continue
                t.own(p)
                fft_matches(t, label, p, getattr(np.fft, name)(xn, s=s_, axes=axes, norm=norm), ga == GA["float16"])
    for name in ("fft2", "ifft2", "irfft2") + (("rfft2",) if real else ()):
        p = t.own(getattr(lib, f"ga_fft_{name}")(d, 0, None, 0, None, 0), f"ga_fft_{name}")
        fft_matches(t, f"{name} default axes", p, getattr(np.fft, name)(xn), ga == GA["float16"])


def check_fft_views(t, ga):
    """Strided, reversed, transposed and broadcast inputs, along each axis."""
    x = fft_input(t, ga, (BASE_N,))
    dbase = to_device(t, x)
    for label, shape, strides, offset in VIEWS:
        if not shape or 0 in shape:
            continue
        hv = fft_numpy_input(t, ga, host_view(x, shape, strides, offset))
        dv = device_view(t, dbase, x.itemsize, shape, strides, offset)
        for axis in range(len(shape)):
            p = t.own(t.lib.ga_fft_fft(dv, GA_NONE_INT, axis, 0), "ga_fft_fft")
            fft_matches(t, f"fft of {label}, axis {axis}", p, np.fft.fft(hv, axis=axis), ga == GA["float16"])
            if kind_of(ga) != "c":
                p = t.own(t.lib.ga_fft_rfft(dv, GA_NONE_INT, axis, 1), "ga_fft_rfft")
                fft_matches(t, f"rfft of {label}, axis {axis}", p, np.fft.rfft(hv, axis=axis, norm="ortho"),
                            ga == GA["float16"])


def check_fft_freq_shift(t):
    lib = t.lib
    for n in range(1, 10):
        for d in (1.0, 0.1, 2.5):
            fft_matches(t, f"fftfreq({n}, {d})", t.own(lib.ga_fft_fftfreq(n, d, GA["float64"]), "ga_fft_fftfreq"),
                        np.fft.fftfreq(n, d))
            fft_matches(t, f"rfftfreq({n}, {d})", t.own(lib.ga_fft_rfftfreq(n, d, GA["float64"]), "ga_fft_rfftfreq"),
                        np.fft.rfftfreq(n, d))
    for shape in ((7,), (4, 5), (3, 6, 5)):
        x = t.rng.integers(-100, 100, shape).astype(np.int32)
        d = to_device(t, x)
        for axes in [None] + [(a,) for a in range(-len(shape), len(shape))] + ([(0, -1)] if len(shape) > 1 else []):
            for name in ("fftshift", "ifftshift"):
                p = t.own(getattr(lib, f"ga_fft_{name}")(d, len(axes) if axes else 0, fft_int_ptr(axes)),
                          f"ga_fft_{name}")
                got, want = to_numpy(t, p), getattr(np.fft, name)(x, axes=axes)
                t.expect(got.dtype == want.dtype and np.array_equal(got, want), f"{name}{shape} axes {axes}")


def check_fft_errors(t):
    lib = t.lib
    x = np.ones((4, 4))
    d = to_device(t, x)
    for label, call, numpy_call, status in (
            ("fft n=0", lambda: lib.ga_fft_fft(d, 0, -1, 0), lambda: np.fft.fft(x, n=0), "GA_ERROR_VALUE"),
            ("irfft of 1 point", lambda: lib.ga_fft_irfft(to_device(t, np.ones(1)), GA_NONE_INT, -1, 0),
             lambda: np.fft.irfft(np.ones(1)), "GA_ERROR_VALUE"),
            ("fft norm 7", lambda: lib.ga_fft_fft(d, GA_NONE_INT, -1, 7), lambda: np.fft.fft(x, norm="7"),
             "GA_ERROR_VALUE"),
            ("fftn s and axes", lambda: lib.ga_fft_fftn(d, 2, (_c.c_int64 * 2)(2, 2), 1, fft_int_ptr((0,)), 0),
             lambda: np.fft.fftn(x, s=(2, 2), axes=(0,)), "GA_ERROR_VALUE")):
        try:
            numpy_call()
            t.fail(f"{label}: NumPy did not raise")
            continue
        except ValueError as e:
            fn = "ga_fft_" + label.split()[0]
            expect_error(t, label, call(), status, f"{fn}: {e}")
    expect_error(t, "fft axis 2 of a 2-d array", lib.ga_fft_fft(d, GA_NONE_INT, 2, 0), "GA_ERROR_AXIS",
                 "axis 2 is out of bounds for array of dimension 2", exact=False)
    expect_error(t, "rfft of complex", lib.ga_fft_rfft(to_device(t, np.ones(4, np.complex64)), GA_NONE_INT, -1, 0),
                 "GA_ERROR_TYPE", "ga_fft_rfft", exact=False)


def fft_out_arrays(t, shape, dtype):
    """Device out= arrays of `shape` and `dtype`, full of NaN: C order, and
    every other element of a last dim twice as long."""
    dense = to_device(t, np.full(shape, np.nan, dtype))
    wide = to_device(t, np.full(shape[:-1] + (2 * shape[-1],), np.nan, dtype))
    isz = np.dtype(dtype).itemsize
    strides = tuple(int(np.prod(shape[d + 1:])) * 2 for d in range(len(shape) - 1)) + (2,)
    return (("C order", dense), ("strided", device_view(t, wide, isz, shape, strides, 0)))


def fft_out_dtypes(want):
    """The result's dtype, and one it casts to under same_kind."""
    other = {np.complex128: np.complex64, np.complex64: np.complex128, np.float64: np.complex128,
             np.float32: np.float64}[want.dtype.type]
    return (want.dtype, np.dtype(other))


def check_fft_out(t, ga):
    """out= for every transform, against NumPy's out= of the same dtype
    (hfft, whose out NumPy 2 drops: its result cast), C order and strided;
    in place; the errors in NumPy's words."""
    lib = t.lib
    real = kind_of(ga) != "c"
    x = fft_input(t, ga, (4, 6))
    d = to_device(t, x)
    for axis in (0, -1):
        for n in (None, 5, 9):
            for name in ("fft", "ifft", "irfft", "hfft") + (("rfft", "ihfft") if real else ()):
                want0 = getattr(np.fft, name)(x, n=n, axis=axis, norm="ortho")
                for dt in fft_out_dtypes(want0):
                    # A double out of a single-precision transform: the double
                    # loop, as NumPy 2.0-2.4 choose it (NumPy 2.5 transforms in
                    # single precision and casts); hfft, whose out NumPy 2
                    # drops, likewise.
                    if name == "hfft" or (dt in (np.float64, np.complex128) and want0.dtype in (np.float32, np.complex64)):
                        wide = x
                        if dt in (np.float64, np.complex128):
                            wide = x.astype(np.complex128 if kind_of(ga) == "c" else np.float64)
                        want = getattr(np.fft, name)(wide, n=n, axis=axis, norm="ortho").astype(dt)
                    else:
                        want = getattr(np.fft, name)(x, n=n, axis=axis, norm="ortho", out=np.empty(want0.shape, dt))
                    for layout, o in fft_out_arrays(t, want0.shape, dt):
                        label = f"{name}_out axis {axis} n {n} into {dt} {layout}"
                        st = getattr(lib, f"ga_fft_{name}_out")(d, GA_NONE_INT if n is None else n, axis, 1, o)
                        if st != 0:
                            t.fail(f"{label}: {t.env.last_error()[1]}")
                            continue
                        fft_matches(t, label, o, want)
    for s_, axes in ((None, None), ((3, 8), (0, 1)), (None, (1, 0))):
        for name in ("fftn", "ifftn", "irfftn", "fft2", "irfft2") + (("rfftn", "rfft2") if real else ()):
            want = getattr(np.fft, name)(x, s=s_, axes=axes)
            s_arr = (_c.c_int64 * len(s_))(*s_) if s_ is not None else None
            for layout, o in fft_out_arrays(t, want.shape, want.dtype):
                label = f"{name}_out s {s_} axes {axes} {layout}"
                st = getattr(lib, f"ga_fft_{name}_out")(d, len(s_) if s_ else 0, s_arr, len(axes) if axes else 0,
                                                          fft_int_ptr(axes), 0, o)
                if st != 0:
                    t.fail(f"{label}: {t.env.last_error()[1]}")
                    continue
                fft_matches(t, label, o, want)
    if not real:  # in place, as NumPy's out=a
        for axis in (0, 1):
            c = x.copy()
            dc = to_device(t, c)
            np.fft.fft(c, axis=axis, out=c)
            st = lib.ga_fft_fft_out(dc, GA_NONE_INT, axis, 0, dc)
            if t.expect(st == 0, f"fft_out in place axis {axis}: {t.env.last_error()[1]}"):
                fft_matches(t, f"fft_out in place axis {axis}", dc, c)
    # errors: NumPy's words (UFuncTypeError is a TypeError)
    ok_out = np.zeros((4, 6), np.complex128)
    for label, call, numpy_call, status in (
            ("fft_out wrong axis length", lambda o: lib.ga_fft_fft_out(d, 7, -1, 0, o),
             lambda o: np.fft.fft(x, n=7, out=o), "GA_ERROR_VALUE"),
            ("ifft_out wrong ndim", lambda o: lib.ga_fft_ifft_out(d, GA_NONE_INT, -1, 0, to_device(t, ok_out[0])),
             lambda o: np.fft.ifft(x, out=o[0]), "GA_ERROR_VALUE"),
            ("fft_out float64", lambda o: lib.ga_fft_fft_out(d, GA_NONE_INT, -1, 0, to_device(t, ok_out.real.copy())),
             lambda o: np.fft.fft(x, out=o.real.copy()), "GA_ERROR_TYPE"),
            ("irfft_out int64", lambda o: lib.ga_fft_irfft_out(d, 10, -1, 0, to_device(t, np.zeros((4, 10), np.int64))),
             lambda o: np.fft.irfft(x, n=10, out=np.zeros((4, 10), np.int64)), "GA_ERROR_TYPE")):
        try:
            numpy_call(ok_out)
            t.fail(f"{label}: NumPy did not raise")
            continue
        except (ValueError, TypeError) as e:
            fn = "ga_fft_" + label.split()[0]
            expect_error(t, label, call(to_device(t, ok_out)), status, f"{fn}: {e}")


def run_fft_checks(runner, env):
    run = runner.run
    for name in FFT_DTYPES:
        g = GA[name]
        run(f"fft/1d/{name}", check_fft_1d, g, device=True, needs=(g,))
        run(f"fft/nd/{name}", check_fft_nd, g, device=True, needs=(g,))
        run(f"fft/views/{name}", check_fft_views, g, device=True, needs=(g,))
        if name in ("float32", "float64", "complex64", "complex128"):
            run(f"fft/out/{name}", check_fft_out, g, device=True, needs=(g,))
    run("fft/freq-shift", check_fft_freq_shift, device=True)
    run("fft/errors", check_fft_errors, device=True)


# --------------------------------------------------------------------------
# Device checks: files (groups npy, npz, npz-compressed), NumPy's own
# writer and reader on the other side
# --------------------------------------------------------------------------

_NPZ = _c.c_void_p  # ga_npz *
IO_PROTOTYPES = {
    "ga_save": (_ST, [_c.c_char_p, _ARR]),
    "ga_load": (_ARR, [_c.c_char_p]),
    "ga_savez": (_ST, [_c.c_char_p, _c.c_int, _c.POINTER(_c.c_char_p), _c.POINTER(_ARR)]),
    "ga_savez_compressed": (_ST, [_c.c_char_p, _c.c_int, _c.POINTER(_c.c_char_p), _c.POINTER(_ARR)]),
    "ga_load_npz": (_NPZ, [_c.c_char_p]),
    "ga_npz_count": (_c.c_int, [_NPZ]),
    "ga_npz_name": (_c.c_char_p, [_NPZ, _c.c_int]),
    "ga_npz_get": (_ARR, [_NPZ, _c.c_char_p]),
    "ga_npz_close": (None, [_NPZ]),
}
IO_DTYPES = tuple(name for name in DTYPE_NAMES if name != "bfloat16")  # (NumPy has no .npy code for it)
# The zip fields of a member that numpy.savez / savez_compressed write
# (zipfile with force_zip64), beside the name, the sizes and the CRC-32.
ZIP_FIELDS = ("compress_type", "create_version", "extract_version", "flag_bits", "create_system", "external_attr",
              "date_time", "file_size", "CRC")


def io_arrays(t, g):
    """NumPy arrays of dtype g in each layout the files keep apart, and the
    same on the device: C order, Fortran order, a strided view (saved as a C
    copy), 0-d, empty."""
    v = random_values(t, g, 60).reshape(3, 4, 5)
    isz = v.itemsize
    dv = to_device(t, v)
    dft = to_device(t, v.T)  # (F order: the transpose's C order)
    return {
        "c": (v, dv),
        "f": (np.asfortranarray(v), device_view(t, dft, isz, (3, 4, 5), (1, 3, 12), 0)),
        "v": (v[::-1, 1::2, ::2], device_view(t, dv, isz, (3, 2, 3), (-20, 10, 2), 40 + 5)),
        "z": (np.array(v[1, 2, 3]), to_device(t, np.array(v[1, 2, 3]))),
        "e": (v[:0], to_device(t, v[:0])),
    }


def same_bytes(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def check_npy(t, g):
    """ga_save's files as np.load reads them (the same bytes as np.save's),
    np.save's files as ga_load reads them."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for key, (a, p) in io_arrays(t, g).items():
            ours, theirs = os.path.join(d, key + "_ga.npy"), os.path.join(d, key + "_np.npy")
            if t.lib.ga_save(ours.encode(), p) != 0:
                t.env.fail_call(f"ga_save ({key})")
            np.save(theirs, a)
            with open(ours, "rb") as f, open(theirs, "rb") as h:
                t.expect(f.read() == h.read(), f"{key}: ga_save's bytes are not np.save's")
            t.expect(same_bytes(np.load(ours), a), f"{key}: np.load of ga_save's file")
            back = t.own(t.lib.ga_load(theirs.encode()), f"ga_load ({key})")
            t.expect(same_bytes(to_numpy(t, back), a), f"{key}: ga_load of np.save's file")
            if key == "f":
                t.expect(t.lib.ga_flags(back) & GA_F_CONTIGUOUS, "f: ga_load's array is not F-contiguous")


def check_npz(t, g, compressed):
    """ga_savez / ga_savez_compressed's archive as np.load and zipfile read
    it: each member's .npy bytes and zip fields those of NumPy's archive of
    the same arrays; NumPy's archive as ga_load_npz and ga_npz_get read it."""
    import tempfile
    import zipfile as zf
    arrays = io_arrays(t, g)
    keys = list(arrays)
    save = t.lib.ga_savez_compressed if compressed else t.lib.ga_savez
    np_save = np.savez_compressed if compressed else np.savez
    with tempfile.TemporaryDirectory() as d:
        ours, theirs = os.path.join(d, "ga.npz"), os.path.join(d, "np.npz")
        names = (_c.c_char_p * len(keys))(*[k.encode() for k in keys])
        ptrs = (_c.c_void_p * len(keys))(*[arrays[k][1] for k in keys])
        if save(ours.encode(), len(keys), names, ptrs) != 0:
            t.env.fail_call("ga_savez_compressed" if compressed else "ga_savez")
        np_save(theirs, **{k: arrays[k][0] for k in keys})
        with np.load(ours) as z:
            t.expect(sorted(z.files) == sorted(keys), f"np.load's files: {z.files}")
            for k in keys:
                got = z[k]
                t.expect(same_bytes(got, arrays[k][0]), f"{k}: np.load of our archive")
                if k == "f":
                    t.expect(got.flags.f_contiguous, "f: np.load's array is not F-contiguous")
        with zf.ZipFile(ours) as a, zf.ZipFile(theirs) as b:
            t.expect(a.testzip() is None, "zipfile's testzip: a bad member")
            mine, want = a.infolist(), b.infolist()
            t.expect([i.filename for i in mine] == [i.filename for i in want], "member names")
            for i, j in zip(mine, want):
                diff = [f"{f} {getattr(i, f)!r} (NumPy {getattr(j, f)!r})" for f in ZIP_FIELDS if getattr(i, f) != getattr(j, f)]
                t.expect(not diff, f"{i.filename}: " + ", ".join(diff))
                t.expect(a.read(i) == b.read(j), f"{i.filename}: its .npy bytes are not NumPy's")
        z = t.lib.ga_load_npz(theirs.encode())
        if not z:
            t.env.fail_call("ga_load_npz")
        try:
            n = t.lib.ga_npz_count(z)
            t.expect(sorted(t.lib.ga_npz_name(z, i).decode() for i in range(n)) == sorted(keys), "ga_npz_name")
            for k in keys:
                p = t.own(t.lib.ga_npz_get(z, k.encode()), f"ga_npz_get ({k})")
                t.expect(same_bytes(to_numpy(t, p), arrays[k][0]), f"{k}: ga_npz_get of NumPy's archive")
        finally:
            t.lib.ga_npz_close(z)


def run_io_checks(runner, env):
    for name in IO_DTYPES:
        g = GA[name]
        runner.run(f"npy/{name}", check_npy, g, device=True)
        runner.run(f"npz/{name}", check_npz, g, False, device=True)
        runner.run(f"npz-compressed/{name}", check_npz, g, True, device=True)


# --------------------------------------------------------------------------
# Random numbers (group "generator"): NumPy's Philox bit for bit, and every
# distribution's shapes, dtypes and errors against NumPy's Generator
# --------------------------------------------------------------------------

_GENP = _c.c_void_p  # ga_generator *
GENERATOR_PROTOTYPES = {
    "ga_random_philox": (_GENP, [_c.POINTER(_c.c_uint32), _c.c_int]),
    "ga_random_default_rng": (_GENP, [_c.POINTER(_c.c_uint32), _c.c_int]),
    "ga_generator_release": (None, [_GENP]),
    "ga_random_random": (_ARR, [_GENP, _c.c_int, _I64P, _DT]),
    "ga_random_integers": (_ARR, [_GENP, GaScalar, GaScalar, _c.c_int, _I64P, _DT, _c.c_bool]),
    "ga_random_call": (_ARR, [_GENP, _c.c_int, _c.POINTER(GaOperand), _c.c_int, _I64P, _DT]),
    "ga_random_distribution_name": (_c.c_char_p, [_c.c_int]),
    "ga_random_distribution_nparams": (_c.c_int, [_c.c_int]),
}

# Valid parameters of each distribution, in NumPy's order.
GENERATOR_VALID = {
    "uniform": (0.0, 1.0), "normal": (0.0, 1.0), "lognormal": (0.0, 1.0), "standard_exponential": (),
    "exponential": (1.0,), "laplace": (0.0, 1.0), "logistic": (0.0, 1.0), "gumbel": (0.0, 1.0), "weibull": (1.5,),
    "pareto": (3.0,), "power": (2.0,), "rayleigh": (1.0,), "standard_cauchy": (), "triangular": (0.0, 1.0, 2.0),
    "geometric": (0.3,), "standard_gamma": (2.5,), "gamma": (2.0, 1.0), "beta": (2.0, 3.0), "chisquare": (3.0,),
    "noncentral_chisquare": (3.0, 1.0), "f": (3.0, 5.0), "noncentral_f": (3.0, 5.0, 1.0), "standard_t": (4.0,),
    "vonmises": (0.0, 1.0), "wald": (1.0, 2.0), "poisson": (4.0,), "binomial": (20, 0.3),
    "negative_binomial": (5.0, 0.4), "hypergeometric": (10, 20, 5), "logseries": (0.5,), "zipf": (2.0,),
}
GENERATOR_INT_PARAMS = {("binomial", 0), ("hypergeometric", 0), ("hypergeometric", 1), ("hypergeometric", 2)}
GENERATOR_BAD_FLOATS = (-1.0, -0.0, 0.0, 1.0, 1.5, float("nan"), float("inf"), 1e20)
GENERATOR_BAD_INTS = (-1, 0, 10**10)
# (name, params): the relations between parameters NumPy checks
GENERATOR_RELATIONS = (("uniform", (-1e308, 1e308)), ("triangular", (1.0, 0.5, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
                       ("triangular", (1.0, 1.0, 1.0)), ("hypergeometric", (3, 4, 8)),
                       ("hypergeometric", (10**9, 1, 5)), ("negative_binomial", (1e18, 1e-18)))


def seed_words(seed):
    """NumPy's SeedSequence words of an int seed or a sequence of 32-bit ints."""
    if isinstance(seed, int):
        words = []
        while True:
            words.append(seed & 0xFFFFFFFF)
            seed >>= 32
            if not seed:
                return words
    return [int(s) for s in seed]


def new_generator(t, seed, philox):
    w = seed_words(seed)
    g = (t.lib.ga_random_philox if philox else t.lib.ga_random_default_rng)((_c.c_uint32 * len(w))(*w), len(w))
    if not g:
        t.env.fail_call("ga_random_philox" if philox else "ga_random_default_rng")
    return g


def generator_operand(t, v):
    """A ga_operand of Python scalar v, or of NumPy array v (uploaded)."""
    if isinstance(v, np.ndarray):
        return GaOperand(to_device(t, v), GaScalar())
    return GaOperand(None, ga_scalar(v))


def generator_call(t, g, name, params, size):
    """ga_random_call of distribution `name` (size None: NULL)."""
    d = t.env.distributions[name]
    ops = (GaOperand * max(1, len(params)))(*[generator_operand(t, v) for v in params])
    if size is None:
        return t.lib.ga_random_call(g, d, ops, 0, None, -1)
    return t.lib.ga_random_call(g, d, ops, len(size), i64s(size), -1)


def check_generator_philox_random(t, seed, dt):
    """Generator(Philox(seed)).random in pieces: the same bits as NumPy's."""
    rng = np.random.Generator(np.random.Philox(seed))
    g = new_generator(t, seed, True)
    try:
        for n in (1, 7, 1000, 0, 65537, 3):
            want = rng.random(n, dtype=np.dtype(dt))
            p = t.own(t.lib.ga_random_random(g, 1, i64s([n]), GA[dt]), "ga_random_random")
            got = to_numpy(t, p)
            t.expect(got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8)),
                     f"Philox({seed}).random({n}, {dt}): {np.count_nonzero(got != want)} values differ")
    finally:
        t.lib.ga_generator_release(g)


def check_generator_philox_integers(t, seed, dt):
    """integers over ranges of 2^k values, every k, endpoint or not: NumPy's
    values in pieces; a range of another size: not implemented yet."""
    rng = np.random.Generator(np.random.Philox(seed))
    g = new_generator(t, seed, True)
    bits = 1 if dt == "bool" else np.iinfo(dt).bits
    signed = dt != "bool" and np.iinfo(dt).min < 0
    try:
        for k in range(bits + 1):
            low = -(1 << (k - 1)) if signed and k else (3 if k < bits and dt != "bool" else 0)
            for endpoint in (False, True):
                high = low + (1 << k) - (1 if endpoint else 0)
                if high >= 2**64 or (dt == "bool" and high > (1 if endpoint else 2)):
                    continue
                want = rng.integers(low, high, 1001, dtype=dt, endpoint=endpoint)
                p = t.own(t.lib.ga_random_integers(g, ga_scalar(low), ga_scalar(high), 1, i64s([1001]), GA[dt],
                                                   endpoint), "ga_random_integers")
                got = to_numpy(t, p)
                t.expect(np.array_equal(got, want), f"Philox({seed}).integers({low}, {high}, {dt}, endpoint={endpoint}): "
                                                    f"{np.count_nonzero(got != want)} of 1001 values differ")
        if dt != "bool":
            p = t.lib.ga_random_integers(g, ga_scalar(0), ga_scalar(3), 1, i64s([4]), GA[dt], False)
            if p:
                t.own(p)
            t.expect(not p and t.env.last_error()[0] == t.env.status["GA_ERROR_NOT_IMPLEMENTED"],
                     f"Philox integers(0, 3, {dt}): expected GA_ERROR_NOT_IMPLEMENTED (not a power of two)")
            t.lib.ga_clear_error()
    finally:
        t.lib.ga_generator_release(g)


def check_generator_shapes(t, name):
    """The result's shape and dtype: NumPy's, for scalar and broadcast array
    parameters, size None, 0-d, empty and n-d sizes, and NumPy's error where
    they do not broadcast to the size."""
    rng = np.random.default_rng(7)
    g = new_generator(t, 7, False)
    valid = GENERATOR_VALID[name]
    shapes = [(3, 1), (4,), (2, 1, 1)][:len(valid)]
    arrays = tuple(np.full(s, v, np.int64 if (name, k) in GENERATOR_INT_PARAMS else np.float64)
                   for k, (s, v) in enumerate(zip(shapes, valid)))
    try:
        for params, size in ((valid, None), (valid, ()), (valid, (3, 4)), (valid, (0, 5)), (arrays, None),
                             (arrays, (2, 3, 4)), (arrays, (5,)), (arrays, (2, 3, 0))):
            label = f"{name}({', '.join(f'array{a.shape}' if isinstance(a, np.ndarray) else repr(a) for a in params)}, size={size})"
            try:
                with quiet():
                    want = np.asarray(getattr(rng, name)(*params, size=size))
            except Exception as e:
                t.lib.ga_clear_error()
                status = "GA_ERROR_SHAPE" if str(e).startswith("shape mismatch") else "GA_ERROR_VALUE"
                expect_error(t, label, generator_call(t, g, name, params, size), status, f"ga_random_{name}: {e}")
                t.lib.ga_clear_error()
                continue
            p = generator_call(t, g, name, params, size)
            if not t.expect(p, f"{label}: {t.env.last_error()[1]}; NumPy gives shape {want.shape}"):
                t.lib.ga_clear_error()
                continue
            t.own(p)
            got = (shape_of(t, p), DTYPE_NAMES[t.lib.ga_dtype_of(p)])
            t.expect(got == (want.shape, want.dtype.name), f"{label}: shape {got[0]} {got[1]}, NumPy {want.shape} "
                                                           f"{want.dtype.name}")
    finally:
        t.lib.ga_generator_release(g)


def check_generator_errors(t, name):
    """Each parameter bad in turn (a scalar, then inside an array), and the
    relations between them: NumPy's error words where NumPy raises, a
    result where it does not."""
    rng = np.random.default_rng(11)
    g = new_generator(t, 11, False)
    valid = GENERATOR_VALID[name]
    cases = []
    for k in range(len(valid)):
        bad = GENERATOR_BAD_INTS if (name, k) in GENERATOR_INT_PARAMS else GENERATOR_BAD_FLOATS
        for v in bad:
            cases.append(tuple(v if j == k else valid[j] for j in range(len(valid))))
            kind = np.int64 if isinstance(v, int) else np.float64
            cases.append(tuple(np.array([valid[j], v], kind) if j == k else valid[j] for j in range(len(valid))))
    cases += [p for n, p in GENERATOR_RELATIONS if n == name]
    try:
        for params in cases:
            size = None if any(isinstance(a, np.ndarray) for a in params) else (3,)
            label = f"{name}({', '.join(repr(a.tolist()) if isinstance(a, np.ndarray) else repr(a) for a in params)})"
            try:
                with quiet():
                    getattr(rng, name)(*params, size=size)
                want = None
            except Exception as e:
                want = e
            t.lib.ga_clear_error()
            p = generator_call(t, g, name, params, size)
            if want is None:
                if t.expect(p, f"{label}: {t.env.last_error()[1]}; NumPy draws"):
                    t.own(p)
                t.lib.ga_clear_error()
                continue
            status = {"ValueError": "GA_ERROR_VALUE", "OverflowError": "GA_ERROR_OVERFLOW",
                      "TypeError": "GA_ERROR_TYPE"}.get(type(want).__name__, type(want).__name__)
            expect_error(t, label, p, status, f"ga_random_{name}: {want}")
            t.lib.ga_clear_error()
    finally:
        t.lib.ga_generator_release(g)


def run_generator_checks(runner, env):
    env.distributions = {}
    if hasattr(env.lib, "ga_random_distribution_name"):
        d = 0
        while True:
            n = env.lib.ga_random_distribution_name(d)
            if not n:
                break
            env.distributions[n.decode()] = d
            d += 1
    for seed in (0, 42, 2**64 + 5, [1, 2, 3]):
        for dt in ("float64", "float32"):
            runner.run(f"generator/philox-random/{seed}/{dt}", check_generator_philox_random, seed, dt, device=True)
    for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        runner.run(f"generator/philox-integers/{dt}", check_generator_philox_integers, 12345, dt, device=True)
    for name in GENERATOR_VALID:
        runner.run(f"generator/shapes/{name}", check_generator_shapes, name, device=True)
        runner.run(f"generator/errors/{name}", check_generator_errors, name, device=True)


# --------------------------------------------------------------------------
# Random differential testing (group "random"): random cases against NumPy
# --------------------------------------------------------------------------
# The module docstring says what it draws and how to replay a case. Case N
# of seed S draws from its own stream, seeded by (S, N), and its category
# from another, so that it is the same case whatever ran before it.

DIFF_CATEGORIES = ("ufunc", "reduce", "scan", "index", "sort", "unique")
DIFF_WEIGHTS = (0.38, 0.2, 0.07, 0.17, 0.11, 0.07)
DIFF_DTYPES = tuple(g for g in range(len(DTYPE_NAMES)) if g != BF16)
DIFF_MAX_LINE = 600  # characters of a disagreement's line


class DiffCase(Check):
    """One random case: a Check whose stream is seeded by (seed, number)."""

    def __init__(self, env, seed, number):
        super().__init__(env, f"random/{number}")
        self.rng = np.random.default_rng([seed, number])
        self.what = "?"


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def diff_shape(rng, max_size=20000):
    """A random shape: 0 to 5 dims of 0, 1, small, odd and a few large lengths."""
    ndim = int(rng.choice(6, p=(0.1, 0.25, 0.25, 0.2, 0.12, 0.08)))
    dims = []
    for _ in range(ndim):
        r = rng.random()
        if r < 0.04:
            dims.append(0)
        elif r < 0.2:
            dims.append(1)
        elif r < 0.75:
            dims.append(int(rng.integers(2, 8)))
        elif r < 0.95:
            dims.append(int(rng.integers(8, 40)))
        else:
            dims.append(int(pick(rng, (127, 256, 257, 1000, 1025, 4097, 65537))))
    limit = 70000 if ndim == 1 else max_size
    while math.prod(max(d, 1) for d in dims) > limit:  # (an empty shape's inputs may have 1 for 0)
        i = int(np.argmax(dims))
        dims[i] = max(1, dims[i] // 2)
    return tuple(dims)


VIEW_KINDS = ("contiguous", "contiguous", "strided", "reversed", "transposed", "broadcast", "offset", "mixed")


def diff_layout(rng, shape, zero_strides=True):
    """A random layout of `shape` over a 1-d base: (label, base length,
    element strides, offset); label "contiguous" for a fresh C array."""
    nd = len(shape)
    kinds = VIEW_KINDS if zero_strides else tuple(k for k in VIEW_KINDS if k != "broadcast")
    kind = pick(rng, kinds)
    if kind == "contiguous":
        return kind, math.prod(shape), None, 0
    perm, steps, zero, lead = list(range(nd)), [1] * nd, [False] * nd, 0
    if kind in ("transposed", "mixed"):
        perm = [int(p) for p in rng.permutation(nd)]
    if kind in ("strided", "mixed"):
        steps = [int(pick(rng, (1, 2, 3, -1, -2))) for _ in range(nd)]
    if kind == "reversed":
        steps = [-1 if rng.random() < 0.6 else 1 for _ in range(nd)]
    if kind in ("broadcast", "mixed") and zero_strides:
        zero = [bool(rng.random() < 0.4) for _ in range(nd)]
    if kind in ("offset", "mixed"):
        lead = int(rng.integers(1, 6))
    ext = [1 if zero[d] or shape[d] == 0 else (shape[d] - 1) * abs(steps[d]) + 1 for d in range(nd)]
    strides, acc = [0] * nd, 1
    for d in reversed(perm):
        strides[d] = 0 if zero[d] else acc * steps[d]
        acc *= ext[d]
    if acc > 300000:
        return "contiguous", math.prod(shape), None, 0
    offset = lead + sum((shape[d] - 1) * -strides[d] for d in range(nd) if strides[d] < 0 and shape[d] > 0)
    size = lead + acc + int(rng.integers(0, 3))
    return f"{kind} (strides {tuple(strides)}, offset {offset} of {size})", size, tuple(strides), offset


class Operand:
    """A host array and the same on the device, with their bases (None for a
    fresh C-contiguous array)."""

    def __init__(self, host, dev, label, base=None, dbase=None, layout=None):
        self.host, self.dev, self.label = host, dev, label
        self.base, self.dbase, self.layout = base, dbase, layout


def diff_operand(t, ga, shape, values, zero_strides=True):
    """An Operand of ga_dtype `ga` and `shape` in a random layout, its base
    filled by values(n) (n values of the dtype)."""
    label, size, strides, offset = diff_layout(t.rng, shape, zero_strides)
    name = f"{dname(ga)}{list(shape)}"
    if strides is None:
        h = np.ascontiguousarray(values(max(size, 1))[:size]).reshape(shape)
        return Operand(h, to_device(t, h), name)
    base = np.ascontiguousarray(values(max(size, 1))[:size])
    dbase = to_device(t, base)
    return Operand(host_view(base, shape, strides, offset),
                   device_view(t, dbase, base.itemsize, shape, strides, offset),
                   f"{name} {label}", base, dbase, (shape, strides, offset))


# ---- values ------------------------------------------------------------------

def _wild_floats(rng, n, fmt):
    """float64 values for a float format: specials, extremes, subnormals,
    wide magnitudes and (as the format's bits) random bit patterns."""
    info = np.finfo(np.dtype(fmt))
    big, tiny = float(info.max), float(info.smallest_normal)
    sub = float(info.smallest_subnormal)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, big, -big, tiny, -tiny, sub, -sub,
                         1.0, -1.0, float(info.eps), 0.5, -2.0, 2.0 ** 24 + 1, 1e300, -1e-300])
    lim = math.log10(big)
    sign = rng.choice([-1.0, 1.0], n)
    wide = sign * 10.0 ** rng.uniform(-lim - 2, lim, n)
    bits = rng.integers(0, 2**(8 * info.bits // 8) - 1, n, dtype=np.uint64, endpoint=True)
    randbits = bits.astype(f"u{info.bits // 8}").view(np.dtype(fmt)).astype(np.float64)
    # quiet NaNs only: fmax / fmin of a signaling NaN differ between IEEE
    # 754 revisions and libms (NumPy's gives NaN, maxNum), and NumPy's own
    # loops differ by path
    randbits = np.where(np.isnan(randbits), np.copysign(np.nan, randbits), randbits)
    small = rng.integers(-20, 21, n) / pick(rng, (1.0, 2.0, 4.0))
    pick_ = rng.random(n)
    x = np.where(pick_ < 0.3, specials[rng.integers(0, specials.size, n)],
                 np.where(pick_ < 0.6, wide, np.where(pick_ < 0.8, small, randbits)))
    return x


def wild_values(t, ga, n):
    """n values of ga_dtype `ga` rich in special and extreme values."""
    rng, dt = t.rng, t.env.np_dtype(ga)
    kind = kind_of(ga)
    if kind == "b":
        return rng.random(n) < pick(rng, (0.1, 0.5, 0.9))
    if kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        pool = np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1, 2, 7]
                        + ([-1, -2] if kind == "i" else []), dtype=object).astype(dt)
        k = rng.random(n) < 0.3
        v[k] = pool[rng.integers(0, pool.size, int(k.sum()))]
        k = rng.random(n) < 0.3
        v[k] = rng.integers(max(int(info.min), -9), 10, int(k.sum())).astype(dt)
        return v
    fmt = component_format(dt)
    with quiet():
        if kind == "f":
            return _wild_floats(rng, n, fmt).astype(dt)
        return (_wild_floats(rng, n, fmt) + 1j * _wild_floats(rng, n, fmt)).astype(dt)


def diff_values(t, ga, n, domain="any", exact_complex=True):
    """n values for a ufunc input: its domain's values (with a few specials),
    wild ones or cast-oriented ones, picked at random."""
    r = t.rng.random()
    if not exact_complex and kind_of(ga) == "c":
        # moderate finite values: Annex G leaves signs of zero, infinite and
        # NaN parts to the implementation for these functions
        return ufunc_values(t, ga, max(n, 1), domain, False)[:n]
    if r < 0.45:
        return ufunc_values(t, ga, max(n, 1), domain, exact_complex)[:n]
    if r < 0.8:
        return wild_values(t, ga, n)
    return random_values(t, ga, max(n, 1))[:n]


# ---- running cases -----------------------------------------------------------

def diff_expect_error(t, label, failed, want_exc):
    """NumPy raised `want_exc`: gpuarr must have failed."""
    if not failed:
        t.fail(f"{label}: succeeded; NumPy raises {type(want_exc).__name__}({want_exc})")
    t.lib.ga_clear_error()


def diff_unexpected_error(t, label):
    st, msg = t.env.last_error()
    t.fail(f"{label}: failed ({t.env.statuses[st][0] if 0 <= st < len(t.env.statuses) else st}: {msg}); "
           f"NumPy gives a result")
    t.lib.ga_clear_error()


def diff_made(t, made, want):
    """The array gpuarr made (`made`: its pointer, or None or 0 where the
    call failed), owned by t, when NumPy gave a result too. None when either
    side failed, the disagreement reported: NumPy's exception `want` needs a
    gpuarr failure, and a gpuarr failure needs NumPy's exception."""
    if isinstance(want, Exception):
        if made:
            t.own(made)
        diff_expect_error(t, t.what, not made, want)
        return None
    if not made:
        diff_unexpected_error(t, t.what)
        return None
    return t.own(made)


def np_result(fn):
    """fn()'s result, or the exception NumPy raised."""
    try:
        with quiet():
            return fn()
    except Exception as e:  # noqa: BLE001 - NumPy's error: gpuarr must fail
        return e


# ---- ufuncs --------------------------------------------------------------------

DIFF_SCALARS = (True, False, 0, 1, -1, 3, -2, 7, 127, 128, -129, 255, 256, 300, 65535, 65536, 2**31 - 1, 2**31,
                -2**31 - 1, 2**32 + 1, 2**53 + 1, 2**63 - 1, -2**63, 2**63, 2**64 - 1, 0.0, -0.0, 0.5, 1.5, -0.25,
                2.5, 1e10, 1e300, -1e-310, 5e-324, 65504.0, 1e39, math.nan, math.inf, -math.inf, 1j,
                complex(1.5, -0.5), complex(math.inf, 0.0), complex(0.0, math.nan), complex(-0.0, 2.0))


def diff_input_shapes(rng, shape, n):
    """Shapes for n inputs that broadcast to `shape` (and now and then do not)."""
    out = []
    for _ in range(n):
        nd = len(shape) if rng.random() < 0.7 else int(rng.integers(0, len(shape) + 1))
        out.append([1 if rng.random() < 0.2 else d for d in shape[len(shape) - nd:]])
    if n > 1 and rng.random() < 0.04:
        k = int(rng.integers(0, n))
        if out[k]:
            out[k][int(rng.integers(0, len(out[k])))] += 2
    return [tuple(s) for s in out]


def broadcasts(shapes):
    try:
        np.broadcast_shapes(*shapes)
        return True
    except ValueError:
        return False


def diff_ufunc(t):
    env, rng = t.env, t.rng
    uf = pick(rng, env.ufuncs)
    shape = diff_shape(rng)
    first = pick(rng, DIFF_DTYPES)
    gas = [first if rng.random() < 0.5 else pick(rng, DIFF_DTYPES) for _ in range(uf.nin)]
    if uf.name == "where" and rng.random() < 0.7:
        gas[0] = GA["bool"]
    fixed = {0} if uf.name in ("where", "clip") else set()  # cond / a: arrays
    scalar_at = set()
    if uf.nin >= 2:
        for k in range(uf.nin):
            if k not in fixed and rng.random() < 0.2:
                scalar_at.add(k)
        if len(scalar_at) == uf.nin:
            scalar_at.discard(int(rng.integers(0, uf.nin)))
    shapes = diff_input_shapes(rng, shape, uf.nin)
    kinds = "".join(kind_of(g) for k, g in enumerate(gas) if k not in scalar_at)
    exact_c = ufunc_exact_complex(uf.name, kinds)
    hosts, inputs, descs, ops = [], [], [], []
    for k in range(uf.nin):
        if k in scalar_at:
            s = pick(rng, DIFF_SCALARS)
            hosts.append(s)
            inputs.append(s)
            descs.append(repr(s))
            ops.append(None)
            continue
        if k > 0 and ops[0] is not None and gas[k] == gas[0] and shapes[k] == shapes[0] and rng.random() < 0.1:
            op = ops[0]  # the same array twice
        else:
            domain = "any" if uf.name == "where" else ufunc_domain(uf.name, k)
            op = diff_operand(t, gas[k], shapes[k], lambda n, g=gas[k], d=domain: diff_values(t, g, n, d, exact_c))
        ops.append(op)
        hosts.append(op.host)
        inputs.append(dev(op.dev))
        descs.append(op.label if op is not ops[0] or k == 0 else "the first input")
    array_shapes = [h.shape for h in hosts if isinstance(h, np.ndarray)]
    mode = rng.random()
    if uf.name in ("round", "nan_to_num", "angle", "isclose") and mode < 0.6 and not scalar_at:
        return diff_ufunc_params(t, uf, hosts, inputs, descs)
    named = uf.form in ("unary", "binary") and rng.random() < 0.6
    t.what = f"{uf.name}({', '.join(descs)}) via {'ga_' + uf.name if named else 'ga_ufunc_call'}"
    if not broadcasts(array_shapes):
        st, _ = ufunc_call(t, uf, inputs, named)
        if st == 0:
            t.fail(f"{t.what}: succeeded; NumPy: shapes {array_shapes} do not broadcast")
        t.lib.ga_clear_error()
        return
    if uf.form in ("unary", "binary") and not scalar_at and mode > 0.8 and isinstance(getattr(np, uf.name, None),
                                                                                        np.ufunc):
        return diff_ufunc_out(t, uf, hosts, inputs, descs)
    run_ufunc_case(t, uf, "", hosts, inputs, named=named, layout=True)


def diff_ufunc_params(t, uf, hosts, inputs, descs):
    """round / nan_to_num / angle / isclose with random parameters."""
    lib, rng = t.lib, t.rng
    d = [int(x) for x in inputs]
    lib.ga_clear_error()
    if uf.name == "round":
        decimals = int(rng.integers(-4, 6))
        params = {"decimals": decimals}
        t.what = f"ga_round({descs[0]}, decimals={decimals})"
        p = lib.ga_round(d[0], decimals)
    elif uf.name == "nan_to_num":
        if rng.random() < 0.4:
            params = {}
            t.what = f"ga_nan_to_num({descs[0]})"
            p = lib.ga_nan_to_num(d[0])
        else:
            vals = [float(pick(rng, (0.0, -0.0, 1.5, -7.0, 1e300, -1e300, 65504.0, 1e39, math.nan, math.inf)))
                    for _ in range(3)]
            params = dict(zip(("nan", "posinf", "neginf"), vals))
            t.what = f"ga_nan_to_num_values({descs[0]}, {vals[0]!r}, {vals[1]!r}, {vals[2]!r})"
            p = lib.ga_nan_to_num_values(d[0], *vals)
    elif uf.name == "angle":
        deg = bool(rng.random() < 0.5)
        params = {"deg": deg}
        t.what = f"ga_angle({descs[0]}, deg={deg})"
        p = lib.ga_angle(d[0], deg)
    else:
        rtol, atol = float(pick(rng, (1e-5, 1e-3, 0.0, 0.5))), float(pick(rng, (1e-8, 0.0, 1e-3, 1.0)))
        equal_nan = bool(rng.random() < 0.5)
        params = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan}
        t.what = f"ga_isclose({descs[0]}, {descs[1]}, rtol={rtol}, atol={atol}, equal_nan={equal_nan})"
        if not broadcasts([h.shape for h in hosts]):
            p = lib.ga_isclose(d[0], d[1], rtol, atol, equal_nan)
            if p:
                t.own(p)
                t.fail(f"{t.what}: succeeded; NumPy: shapes do not broadcast")
            lib.ga_clear_error()
            return
        p = lib.ga_isclose(d[0], d[1], rtol, atol, equal_nan)
    run_param_case(t, uf, t.what, hosts, p, params)


def diff_ufunc_out(t, uf, hosts, inputs, descs):
    """ga_X_out into a random view (no zero strides) of the result's dtype or
    another one it casts to under same_kind; the rest of the base untouched."""
    env, rng = t.env, t.rng
    want_dt = oracle_ufunc_dtypes(env, uf.name, [h.dtype for h in hosts], 1)
    t.what = f"ga_{uf.name}_out({', '.join(descs)}, out)"
    if want_dt is None:
        return run_ufunc_case(t, uf, "", hosts, inputs, named=True, layout=False)
    rdt = env.np_dtype(want_dt[0])
    choices = [g for g in DIFF_DTYPES if np.can_cast(rdt, env.np_dtype(g), "same_kind")]
    og = want_dt[0] if rng.random() < 0.5 else pick(rng, choices)
    odt = env.np_dtype(og)
    shape = np.broadcast_shapes(*[h.shape for h in hosts])
    out = diff_operand(t, og, shape, lambda n: wild_values(t, og, n), zero_strides=False)
    t.what = f"ga_{uf.name}_out({', '.join(descs)}, out={out.label})"
    t.lib.ga_clear_error()
    st = getattr(t.lib, f"ga_{uf.name}_out")(*[int(x) for x in inputs], out.dev)
    # NumPy's result assigned into the view (NumPy's own out= of a strided
    # bool view goes wrong in isnan / isinf / isfinite / signbit)
    want_r = np_result(lambda: np.asarray(getattr(np, uf.name)(*hosts)))
    if isinstance(want_r, Exception):
        return diff_expect_error(t, t.what, st != 0, want_r)
    if st != 0:
        return diff_unexpected_error(t, t.what)
    base_before = out.base if out.base is not None else out.host
    got_base = to_numpy(t, out.dbase if out.dbase is not None else out.dev)
    got = host_view(got_base, *out.layout) if out.layout else got_base
    with quiet():
        want = np.array(want_r.astype(odt), copy=True)
        got = np.array(got, copy=True)
        if odt != rdt and rdt.kind in "fc" and np.can_cast(rdt, odt, "safe"):
            got, want = got.astype(rdt), want_r.astype(rdt)  # a wider float holds the loop's results exactly
    compare_ufunc(t, t.what, uf.name, got, want, input_kinds(env, hosts),
                  also=ufunc_quirks(uf.name, hosts, got, want))
    if out.layout:  # the rest of the base untouched
        rest = np.ones(base_before.size, bool)
        host_view(rest, *out.layout)[...] = False
        if not np.array_equal(got_base[rest].view(np.uint8), base_before[rest].view(np.uint8)):
            t.fail(f"{t.what}: wrote outside the view")


# ---- reductions and scans ------------------------------------------------------

REDUCE_DTYPE_ARG = ("sum", "prod", "nansum", "nanprod", "mean", "nanmean", "var", "std", "nanvar", "nanstd")
REDUCE_WHERE = ("sum", "prod", "min", "max", "mean", "var", "std", "all", "any", "nansum", "nanprod", "nanmin",
                "nanmax", "nanmean", "nanvar", "nanstd")
REDUCE_INITIAL = ("sum", "prod", "min", "max", "nansum", "nanprod", "nanmin", "nanmax")
REDUCE_EXACT = ("min", "max", "nanmin", "nanmax", "all", "any", "count_nonzero", "ptp") + ARG_REDUCTIONS
DIFF_INITIALS = (0, 1, -1, 5, -128, 300, 2**63 - 1, -2**63, 2**63 + 1, True, False, 0.5, -2.5, 1e300, math.nan,
                 math.inf, -math.inf, complex(1, -1))


def diff_axes(rng, nd, single=False, none=True):
    """NumPy's axis= at random: None, (), one axis or several (negative ones
    too), now and then out of bounds or repeated; single: None or one axis,
    none: None too."""
    r = rng.random()
    if r < 0.2 and none:
        return None
    if r < 0.28 and not single:
        return ()
    if single or r < 0.6 or nd == 0:
        if nd == 0 or rng.random() < 0.04:
            return int(pick(rng, (nd, nd + 1, -nd - 1)))
        return int(rng.integers(-nd, nd))
    axes = [int(a) for a in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False)]
    axes = [a - nd if rng.random() < 0.4 else a for a in axes]
    if rng.random() < 0.03:
        axes.append(axes[0])
    return tuple(axes)


def _capped(rng, n, cap, nan_share=0.0):
    """float64 values of moderate, wide (up to cap) and subnormal sizes, with
    NaN, infinities and -0.0 now and then."""
    sign = rng.choice([-1.0, 1.0], n)
    r = rng.random(n)
    v = np.where(r < 0.55, rng.standard_normal(n) * 10,
                 np.where(r < 0.85, sign * 10.0 ** rng.uniform(-30, math.log10(cap), n),
                          np.where(r < 0.9, sign * 10.0 ** rng.uniform(-320, -300, n), rng.integers(-3, 4, n))))
    k = rng.random(n) < 0.03
    v[k] = rng.choice([np.nan, np.inf, -np.inf, -0.0], int(k.sum()))
    if nan_share:
        v[rng.random(n) < nan_share] = np.nan
    return v


def diff_reduce_values(t, ga, n, name, dtype=None, count=None):
    """n values for reduction or scan `name` (accumulating in `dtype`, None:
    the default): any values where the result does not depend on the order
    of the work (min, max, arg*, all, any, integer sums and products); else
    magnitudes that cannot overflow in any order (products near 1; integer
    products in a float dtype of +-1 and a few 0 and +-2), with NaN,
    infinities and -0.0. count: the elements of the view (a broadcast view
    repeats its base's values: products stay near 1 over all of them)."""
    rng, dt = t.rng, t.env.np_dtype(ga)
    kind = kind_of(ga)
    spread = min(0.1, 40.0 / max(count or n, 1))
    if kind in "iu" and "prod" in name and dtype is not None and dtype.kind in "fc":
        v = rng.choice(np.array([1, -1] if kind == "i" else [1, 1], dt), n)
        k = rng.random(n) < 0.002
        v[k] = rng.choice(np.array([0, 2, -2] if kind == "i" else [0, 2, 2], dt), int(k.sum()))
        return v
    if kind in "biu" or (name in REDUCE_EXACT and rng.random() < 0.7):
        return wild_values(t, ga, n) if rng.random() < 0.6 else diff_values(t, ga, n)
    fmt = component_format(dt)
    if dtype is not None and component_format(dtype) is not None:  # the narrower of a's and dtype='s formats
        fmt = component_format(narrower(dt, dtype))
    acc = np.float32 if fmt == "float16" else np.dtype(fmt)
    big = float(np.finfo(acc).max) / (4.0 * (n + 1))
    if name in ("var", "std", "nanvar", "nanstd"):
        big = math.sqrt(big)
    big = min(big, float(np.finfo(np.dtype(fmt)).max))
    nan_share = 0.2 if name.startswith("nan") and rng.random() < 0.7 else 0.0

    def part():
        if "prod" in name:
            v = np.exp(rng.uniform(-spread, spread, n)) * rng.choice([-1.0, 1.0], n)
            k = rng.random(n)
            v[k < 0.01] = 0.0
            special = (k >= 0.01) & (k < 0.02)
            v[special] = rng.choice([np.nan, np.inf, -np.inf, -0.0], int(special.sum()))
            if nan_share:
                v[rng.random(n) < nan_share] = np.nan
            return v
        return _capped(rng, n, big, nan_share)
    with quiet():
        if kind == "c":
            if "prod" in name:  # unit magnitudes, random phases
                z = np.exp(rng.uniform(-spread, spread, n) + 1j * rng.uniform(-np.pi, np.pi, n))
                z[rng.random(n) < 0.01] = 0
                if nan_share:
                    z[rng.random(n) < nan_share] = complex(np.nan, 0)
                return z.astype(dt)
            return (part() + 1j * part()).astype(dt)
        return part().astype(dt)


def diff_numpy_reduce(name, x, axis, keepdims, dtype, kw):
    """NumPy's reduction (float16 accumulated in float32, as gpuarr
    documents; initial= then rounded to float16 first, as NumPy converts
    it; but var and std as NumPy computes them, whose float16 roundings
    gpuarr follows), or the exception it raises. On a C-contiguous copy of x, so that
    NumPy visits the elements in one order whatever the view (the order
    decided fmin / fmax of signaling NaNs, which the values no longer
    hold); NumPy's nan functions of integers are the plain ones."""
    x = np.array(x, order="C")  # (np.ascontiguousarray makes a 0-d array 1-d)
    if x.dtype.kind in "biu" and name.startswith("nan"):
        name = name[3:]
    fn = getattr(np, name)
    args = dict(kw)
    if not (name in ARG_REDUCTIONS and not keepdims):
        args["keepdims"] = keepdims
    narrow = dtype == np.float16 if dtype is not None else (x.dtype == np.float16 and name not in REDUCE_EXACT)
    narrow = narrow and name not in VARIANCES
    try:
        with quiet():
            if narrow:
                x32 = x.astype(dtype if dtype is not None else x.dtype).astype(np.float32)
                if dtype is not None:
                    args["dtype"] = np.float32
                if "initial" in args and not isinstance(args["initial"], complex):
                    args["initial"] = float(np.float16(args["initial"]))
                return np.asarray(fn(x32, axis=axis, **args)).astype(np.float16)
            if dtype is not None:
                args["dtype"] = dtype
            return np.asarray(fn(x, axis=axis, **args))
    except Exception as e:  # noqa: BLE001 - NumPy raises: gpuarr must fail
        return e


def diff_reduce(t):
    env, lib, rng = t.env, t.lib, t.rng
    name = pick(rng, REDUCTIONS)
    ga = pick(rng, DIFF_DTYPES)
    shape = diff_shape(rng)
    nd = len(shape)
    axis = diff_axes(rng, nd, single=name in ARG_REDUCTIONS and rng.random() < 0.97)
    if name in ARG_REDUCTIONS and isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]  # one axis is naxes 1 in C, NumPy's int (a 1-tuple is its TypeError)
    keepdims = bool(rng.random() < 0.4)
    dt = env.np_dtype(ga)
    dtype, kw, opts, extra = None, {}, GaReduceOptions(None, None, 0.0), []
    if name in REDUCE_DTYPE_ARG and rng.random() < 0.3:
        floating = name not in ("sum", "prod", "nansum", "nanprod")
        choices = [g for g in DIFF_DTYPES if np.can_cast(dt, env.np_dtype(g), "same_kind")
                   and (not floating or kind_of(g) in "fc")]
        if choices:
            dtype = env.np_dtype(pick(rng, choices))
            extra.append(f"dtype={dtype}")
    op = diff_operand(t, ga, shape, lambda n: diff_reduce_values(t, ga, n, name, dtype, math.prod(shape)))
    x = op.host
    if name in ("var", "std", "nanvar", "nanstd") and rng.random() < 0.5:
        kw["ddof"] = opts.ddof = float(pick(rng, (1, 2, 0.5, 5)))
        extra.append(f"ddof={kw['ddof']}")
    where_h = None
    if name in REDUCE_WHERE and rng.random() < 0.2:
        wshape = [1 if rng.random() < 0.3 else d for d in shape[int(rng.integers(0, nd + 1)):]]
        where_h = rng.random(wshape) < 0.7
        kw["where"] = where_h
        opts.where = to_device(t, where_h)
        extra.append(f"where=bool{list(where_h.shape)}")
    if name in REDUCE_INITIAL and rng.random() < 0.2:
        init = pick(rng, DIFF_INITIALS)
        if "prod" in name and (dtype if dtype is not None else dt).kind == "c":
            # an infinite first factor of a complex product: inf * x makes NaN
            # parts in an order-dependent way (C99 Annex G leaves them open)
            init = pick(rng, (0, 1, -1, 5, True, False, 0.5, -2.5, complex(1, -1)))
        kw["initial"] = init
        sc = ga_scalar(init)
        opts.initial = ctypes.pointer(sc)
        extra.append(f"initial={init!r}")
    t.what = (f"{name}({op.label}, axis={axis!r}, keepdims={keepdims}{''.join(', ' + e for e in extra)})")
    want = diff_numpy_reduce(name, x, axis, keepdims, dtype, kw)
    nax, arr = axes_arg(axis)
    out = ctypes.c_void_p(0)
    lib.ga_clear_error()
    st = lib.ga_reduce(REDUCTIONS.index(name), op.dev, nax, arr,
                       GA_INVALID if dtype is None else env.ga_dtype(dtype), ctypes.byref(out), keepdims,
                       ctypes.byref(opts))
    lib.ga_reduce_warnings()
    made = diff_made(t, out.value if st == 0 else None, want)
    if made is None:
        return
    got = to_numpy(t, made)
    acc = dtype if dtype is not None else dt
    if got.dtype == want.dtype and got.shape == want.shape:
        if name in VARIANCES:
            got, want, acc = diff_variance_rules(name, x, axis, keepdims, dtype, kw, got, want, acc)
        elif name in ("nanargmin", "nanargmax"):
            want = diff_nanarg_ties(name, x, axis, keepdims, got, want)
    compare_reduction(t, t.what, name, x, got, want, acc, max(x.size, 1))


VARIANCES = ("var", "std", "nanvar", "nanstd")


def narrower(a, b):
    """The float dtype of lower precision of a and b (complex: its parts')."""
    fa, fb = component_format(a), component_format(b)
    if fa is None or fb is None:
        return b if fa is None else a
    return a if np.finfo(np.dtype(fa)).precision <= np.finfo(np.dtype(fb)).precision else b


def diff_variance_rules(name, x, axis, keepdims, dtype, kw, got, want, acc):
    """var / std against NumPy where NumPy's answer comes from how it
    computes, gpuarr's from the documented rules: (got, want, tolerance
    dtype) to compare.
    - a complex dtype=: NumPy divides by the count in complex arithmetic
      (its imaginary part NaN for a NaN real part): the real parts compared;
    - a non-finite result for a non-finite one: count - ddof <= 0 gives 0/0
      or x/0 as NumPy's temporaries round the deviations to exactly 0 or
      not, and infinite elements inf - inf or inf;
    - the nan forms write the deviations into a's dtype (np.subtract(...,
      out=arr)) whatever dtype= says: the tolerance of the narrower."""
    with quiet():
        if got.dtype.kind == "c":
            got, want = np.array(got.real, order="C"), np.array(want.real, order="C")
        bad = ~np.isfinite(got) & ~np.isfinite(want)
        want = np.where(bad, got, want).astype(got.dtype)
    if name.startswith("nan") and x.dtype.kind in "fc":
        acc = narrower(x.dtype, acc)
    return got, want, acc


def diff_nanarg_ties(name, x, axis, keepdims, got, want):
    """NumPy's nanargmin / nanargmax replace NaN by +inf / -inf (inf+0j /
    -inf+0j for complex) and take the first extreme, which may be a NaN's
    index: tied with a real infinity, or, for complex, beyond inf+1j.
    Where NumPy's index is a NaN's, gpuarr's index is accepted if it is
    the first of the extreme of the elements that are not NaN (found with a
    fill that no number passes: +-(inf+infj) for complex)."""
    big = np.inf if name == "nanargmin" else -np.inf
    fill = complex(big, big) if x.dtype.kind == "c" else big
    extreme = np.min if name == "nanargmin" else np.max
    with quiet():
        xc = np.array(x, order="C")
        if xc.ndim == 0:
            return want
        nan = np.isnan(xc)
        xr = np.where(nan, np.asarray(fill).astype(xc.dtype), xc)
        if axis is None:
            first = np.argmax((xr == extreme(xr)) & ~nan)
            wn = nan.reshape(-1)[want.reshape(-1)]
        else:
            first = np.argmax((xr == extreme(xr, axis=axis, keepdims=True)) & ~nan, axis=axis, keepdims=keepdims)
            wn = np.take_along_axis(nan, want if keepdims else np.expand_dims(want, axis), axis)
        ok = wn.reshape(got.shape) & (got == np.reshape(first, got.shape))
    return np.where(ok, got, want)


def diff_scan(t):
    env, lib, rng = t.env, t.lib, t.rng
    name = pick(rng, SCANS)
    ga = pick(rng, DIFF_DTYPES)
    shape = diff_shape(rng)
    nd = len(shape)
    axis = None if rng.random() < 0.25 else diff_axes(rng, nd, single=True)
    dt = env.np_dtype(ga)
    dtype = None
    if rng.random() < 0.3:
        dtype = env.np_dtype(pick(rng, [g for g in DIFF_DTYPES if np.can_cast(dt, env.np_dtype(g), "same_kind")]))
    op = diff_operand(t, ga, shape, lambda n: diff_reduce_values(t, ga, n, name, dtype, math.prod(shape)))
    x = op.host
    t.what = f"{name}({op.label}, axis={axis!r}{'' if dtype is None else f', dtype={dtype}'})"
    # float16 accumulates in float32 (gpuarr.h), rounded once
    narrow = dtype == np.float16 if dtype is not None else x.dtype == np.float16
    kw = {} if dtype is None or narrow else {"dtype": dtype}
    with quiet():
        src = x.astype(dtype if dtype is not None else x.dtype).astype(np.float32) if narrow else np.array(x, order="C")
    want = np_result(lambda: np.asarray(getattr(np, name)(src, axis=axis, **kw)))
    if narrow and not isinstance(want, Exception):
        with quiet():
            want = want.astype(np.float16)
    out = ctypes.c_void_p(0)
    lib.ga_clear_error()
    st = lib.ga_scan(SCANS.index(name), op.dev, GA_AXIS_NONE if axis is None else axis,
                     GA_INVALID if dtype is None else env.ga_dtype(dtype), ctypes.byref(out))
    made = diff_made(t, out.value if st == 0 else None, want)
    if made is None:
        return
    got = to_numpy(t, made)
    if got.dtype != want.dtype or got.shape != want.shape:
        return t.fail(f"{t.what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}")
    if got.dtype.kind in "biu":
        return compare(t, t.what, got, want)
    # sums: gpuarr adds in a parallel scan, on the scale of the magnitudes
    # added, against NumPy's sums in float64 (NumPy's own add in order: their
    # error grows with the length, linearly where every element rounds the
    # same way, as a broadcast constant's do); products: each factor rounds
    # once on both sides, on the scale of the result
    eps = {"float16": 2.0**-10, "float32": 2.0**-23, "complex64": 2.0**-23}.get(got.dtype.name, 2.0**-52)
    n = x.size if axis is None or x.ndim == 0 else x.shape[axis]
    with quiet():
        if name.endswith("sum"):
            wide = np.complex128 if got.dtype.kind == "c" else np.float64
            exact = np.asarray(getattr(np, name)(np.asarray(src).astype(wide), axis=axis))
            want = exact.astype(got.dtype)
        g = got.astype(np.complex128).reshape(-1)
        w = want.astype(np.complex128).reshape(-1)
        mag = np.abs(x.astype(np.complex128))
        mag = np.where(np.isfinite(mag), mag, 0)
        wmag = np.abs(np.where(np.isfinite(w.real), w.real, 0) + 1j * np.where(np.isfinite(w.imag), w.imag, 0))
        if name.endswith("sum"):
            scale = wmag + np.sum(mag)
            tol = eps * (64 + 4 * math.log2(max(n, 2)) + 4 * math.sqrt(n)) * scale + 1e-300
        else:
            tol = eps * 4 * max(n, 2) * wmag + 1e-300
        if name.endswith("sum"):
            # a sum within tol of the dtype's overflow threshold rounds to its
            # largest finite value on one side of it and to infinity on the
            # other: either, of the exact sum's sign
            big = float(np.finfo(got.dtype).max)
            e = exact.astype(np.complex128).reshape(-1)

            def edge(a, b, x):
                return ((np.abs(a) >= big) & (np.abs(b) >= big) & (np.sign(a) == np.sign(b))
                        & (np.abs(np.abs(x) - big) <= tol + big * eps))
            ok = ((parts_close(g.real, w.real, tol) | edge(g.real, w.real, e.real))
                  & (parts_close(g.imag, w.imag, tol) | edge(g.imag, w.imag, e.imag)))
        else:
            ok = parts_close(g, w, tol)
    if not ok.all():
        i = int(np.nonzero(~ok)[0][0])
        t.fail(f"{t.what}: {int((~ok).sum())} of {g.size} differ; first [{i}]: {g[i]!r}, NumPy {w[i]!r}")


# ---- indexing ------------------------------------------------------------------

def equal_or_nan(g, w):
    """Component by component: the same bits, or both NaN (a cast keeps a
    NaN's payload in NumPy, not always on the GPU)."""
    gb, wb = bits(g), bits(w)
    same = gb == wb
    fmt = component_format(np.asarray(w).dtype)
    if fmt:
        same |= nan_mask(gb, fmt) & nan_mask(wb, fmt)
    return same


def same_data(t, label, got_dev, want):
    """same_bits, but any NaN for a NaN (what assignment with a cast wrote)."""
    g = to_numpy(t, got_dev)
    if not t.expect(g.shape == want.shape and g.dtype == want.dtype,
                    f"{label}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"):
        return
    ok = equal_or_nan(g, want)
    if not ok.all():
        k = int(np.nonzero(~ok)[0][0]) // (2 if g.dtype.kind == "c" else 1)
        t.fail(f"{label}: element {k} differs: {g.reshape(-1)[k]!r}, NumPy {want.reshape(-1)[k]!r}")


def diff_index_text(rng, shape):
    """A random basic index: (NumPy's index tuple, gpuarr's text)."""
    items, words, d, nd = [], [], 0, len(shape)
    huge = (10**20, -10**20, 2**63, -2**63 - 1)
    for _ in range(int(rng.integers(0, nd + 3))):
        r = rng.random()
        n = shape[d] if d < nd else 3
        if r < 0.3:
            if rng.random() < 0.05:
                v = int(pick(rng, (n, n + 1, -n - 1) + huge[:1]))
            else:
                v = int(rng.integers(-n, n)) if n else 0
            items.append(v)
            words.append(str(v))
            d += 1
        elif r < 0.75:
            def bound():
                if rng.random() < 0.35:
                    return None
                if rng.random() < 0.05:
                    return int(pick(rng, huge))
                return int(rng.integers(-n - 3, n + 4))
            start, stop = bound(), bound()
            step = None if rng.random() < 0.4 else int(pick(rng, (1, 2, 3, -1, -2, -3, 5, 0, 10**20, -10**20))
                                                     if rng.random() < 0.1 else pick(rng, (1, 2, 3, -1, -2, -3)))
            items.append(slice(start, stop, step))
            text = f"{'' if start is None else start}:{'' if stop is None else stop}"
            if step is not None or rng.random() < 0.3:
                text += f":{'' if step is None else step}"
            words.append(text)
            d += 1
        elif r < 0.87:
            items.append(None)
            words.append(pick(rng, ("None", "newaxis")))
        else:
            items.append(Ellipsis)
            words.append("...")
            d = max(d, nd - 1)
    sep = pick(rng, (", ", ",", " , "))
    text = sep.join(words)
    if len(words) == 1 and rng.random() < 0.3:
        text += ","
    return tuple(items), text


def diff_value_for(t, ga, shape):
    """A value to assign into ga_dtype `ga` of `shape`: an array of a dtype
    that casts to it under same_kind, of a shape that broadcasts to it."""
    rng, env = t.rng, t.env
    dt = env.np_dtype(ga)
    vg = ga if rng.random() < 0.6 else pick(rng, [g for g in DIFF_DTYPES if np.can_cast(env.np_dtype(g), dt,
                                                                                         "same_kind")])
    nd = len(shape) if rng.random() < 0.7 else int(rng.integers(0, len(shape) + 1))
    vshape = tuple(1 if rng.random() < 0.25 else s for s in shape[len(shape) - nd:])
    if rng.random() < 0.1:
        vshape = (1,) + vshape
    n = math.prod(vshape)
    return wild_values(t, vg, n).reshape(vshape)


def diff_index(t):
    env, lib, rng = t.env, t.lib, t.rng
    ga = pick(rng, DIFF_DTYPES)
    shape = diff_shape(rng, 5000)
    what = pick(rng, ("text", "text", "setitem", "items", "take", "put", "take_along_axis", "put_along_axis",
                      "mask"))
    writes = what in ("setitem", "put", "put_along_axis")
    op = diff_operand(t, ga, shape, lambda n: wild_values(t, ga, n), zero_strides=not writes)
    x = op.host
    if what in ("text", "setitem"):
        index, text = diff_index_text(rng, shape)
        if what == "text":
            t.what = f"ga_index({op.label}, \"{text}\")"
            lib.ga_clear_error()
            p = lib.ga_index(op.dev, text.encode())
            want = np_result(lambda: np.asarray(x[index]))
            p = diff_made(t, p, want)
            if p is None:
                return
            return same_bits(t, t.what, p, want)
        target = np_result(lambda: x[index])
        scalar = rng.random() < 0.3
        if scalar:
            v = pick(rng, DIFF_SCALARS)
            t.what = f"ga_setitem_scalar({op.label}, \"{text}\", {v!r})"
        else:
            v = diff_value_for(t, ga, np.shape(target) if not isinstance(target, Exception) else (3,))
            t.what = f"ga_setitem({op.label}, \"{text}\", {v.dtype}{list(v.shape)})"
        want_base = np.array(op.base if op.base is not None else x, copy=True)
        want_view = host_view(want_base, *op.layout) if op.layout else want_base

        def assign():
            want_view[index] = v
        err = np_result(assign)
        lib.ga_clear_error()
        st = lib.ga_setitem_scalar(op.dev, text.encode(), ga_scalar(v)) if scalar else \
            lib.ga_setitem(op.dev, text.encode(), to_device(t, v))
        if isinstance(err, Exception):
            diff_expect_error(t, t.what, st != 0, err)
            return same_bits(t, t.what + ": nothing written", op.dbase or op.dev,
                             op.base if op.base is not None else x)
        if st != 0:
            return diff_unexpected_error(t, t.what)
        return same_data(t, t.what, op.dbase or op.dev, want_base)
    if what == "items":
        if x.ndim == 0:
            return diff_index_text_0d(t, op)
        index = random_index(rng, x.shape)
        t.what = f"ga_index_items({op.label}, {describe_index(index)})"
        items = ga_items(t, index)
        want = np_result(lambda: x[index])
        lib.ga_clear_error()
        p = lib.ga_index_items(op.dev, len(index), items)
        p = diff_made(t, p, want)
        if p is None:
            return
        same_bits(t, t.what, p, np.asarray(want))
        # assignment, compared where NumPy writes an element once
        vals = wild_values(t, ga, want.size).reshape(want.shape)
        h = x.copy()
        h[index] = vals
        count = np.zeros(x.shape, np.int64)
        np.add.at(count, index, 1)
        dcopy = t.own(lib.ga_copy(op.dev), "ga_copy")
        if lib.ga_setitem_items(dcopy, len(index), items, to_device(t, vals)) != 0:
            return diff_unexpected_error(t, t.what + " = values")
        g = to_numpy(t, dcopy)
        once = count <= 1
        if not equal_or_nan(g[once], h[once]).all():
            t.fail(f"{t.what} = values: differs from NumPy")
        return
    if what == "mask":
        k = int(rng.integers(0, x.ndim + 1))
        mask = rng.random(x.shape[:k]) < 0.5
        if rng.random() < 0.05 and k:
            mask = rng.random(x.shape[:k - 1] + (x.shape[k - 1] + 1,)) < 0.5
        t.what = f"ga_index_mask({op.label}, bool{list(mask.shape)})"
        dm = to_device(t, mask)
        want = np_result(lambda: x[mask])
        lib.ga_clear_error()
        p = lib.ga_index_mask(op.dev, dm)
        p = diff_made(t, p, want)
        if p is None:
            return
        return same_bits(t, t.what, p, want)
    if what in ("take", "put"):
        return diff_take_put(t, op, what)
    return diff_along_axis(t, op, what)


def describe_index(index):
    """A NumPy index in words: arrays by dtype and shape, the rest as Python writes it."""
    return "(" + ", ".join(f"{x.dtype}{list(x.shape)}" + (f" {x.tolist()}" if x.size <= 6 else "")
                           if isinstance(x, np.ndarray) else repr(x) for x in index) + ")"


def diff_index_text_0d(t, op):
    """A 0-d array indexed by (), ..., None (text)."""
    text, index = pick(t.rng, (("", ()), ("...", (Ellipsis,)), ("None", (None,)), ("..., None", (Ellipsis, None))))
    t.what = f"ga_index({op.label}, \"{text}\")"
    t.lib.ga_clear_error()
    p = t.lib.ga_index(op.dev, text.encode())
    if not p:
        return diff_unexpected_error(t, t.what)
    same_bits(t, t.what, t.own(p), np.asarray(op.host[index]))


INDEX_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
INDEX_MODES = ("raise", "wrap", "clip")


def diff_indices(rng, n, shape, bad_share=0.3):
    """Integer indices into a length n: in [-n, n) (of a random integer
    dtype, wrapped into it), in a fifth of the cases a share of them out of
    range."""
    dtn = pick(rng, INDEX_DTYPES)
    info = np.iinfo(dtn)
    lo = -n if info.min < 0 else 0
    v = rng.integers(lo, max(n, 1), shape) if n else np.zeros(shape, np.int64)
    if rng.random() < 0.2:
        bad = rng.random(shape) < bad_share
        v = np.where(bad, rng.integers(max(int(info.min), -3 * n - 5), min(int(info.max), 3 * n + 5) + 1, shape), v)
    return np.asarray(v).astype(dtn)


def diff_take_put(t, op, what):
    lib, rng, env = t.lib, t.rng, t.env
    x, ga = op.host, env.ga_dtype(op.host.dtype)
    axis = None if rng.random() < 0.35 or x.ndim == 0 else diff_axes(rng, x.ndim, single=True)
    mode = int(rng.integers(0, 3))
    n = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 3)
    ishape = diff_shape(rng, 200)[:3]
    idx = diff_indices(rng, n, ishape)
    if what == "take":
        t.what = f"ga_take({op.label}, {idx.dtype}{list(idx.shape)}, axis={axis}, mode={INDEX_MODES[mode]})"
        # NumPy's wrap mode loops forever on an empty axis; gpuarr does what
        # its clip mode does there: the error where the result has elements
        take_mode = "clip" if n == 0 and idx.size and mode == 1 else INDEX_MODES[mode]
        want = np_result(lambda: np.asarray(np.take(x, idx, axis=axis, mode=take_mode)))
        lib.ga_clear_error()
        p = lib.ga_take(op.dev, to_device(t, idx), GA_AXIS_NONE if axis is None else axis, mode)
        p = diff_made(t, p, want)
        if p is None:
            return
        return same_bits(t, t.what, p, want)
    # put: a.flat[idx] = values (cyclic); compared where one write lands
    vals = diff_value_for(t, ga, (int(rng.integers(0, 6)),))
    t.what = f"ga_put({op.label}, {idx.dtype}{list(idx.shape)}, {vals.dtype}{list(vals.shape)}, mode={INDEX_MODES[mode]})"
    want_base = np.array(op.base if op.base is not None else x, copy=True)
    view = host_view(want_base, *op.layout) if op.layout else want_base
    before = view.copy()

    def put():
        np.put(view, idx, vals, mode=INDEX_MODES[mode])
    err = np_result(put)
    lib.ga_clear_error()
    st = lib.ga_put(op.dev, to_device(t, idx), to_device(t, vals), mode)
    if isinstance(err, Exception):
        diff_expect_error(t, t.what, st != 0, err)
        return same_bits(t, t.what + ": nothing written", op.dbase or op.dev, op.base if op.base is not None else x)
    if st != 0:
        return diff_unexpected_error(t, t.what)
    flat = idx.reshape(-1).astype(np.int64)
    if x.size:
        flat = np.where(flat < 0, flat + x.size, flat) if mode == 0 else \
            (flat % x.size if mode == 1 else np.clip(flat, 0, x.size - 1))
    count = np.bincount(flat, minlength=x.size) if flat.size and vals.size else np.zeros(x.size, np.int64)
    got = to_numpy(t, op.dev)
    once = (count <= 1).reshape(x.shape)
    if not equal_or_nan(got[once], view[once]).all():
        t.fail(f"{t.what}: differs from NumPy where one value lands")
    if op.base is not None:  # the rest of the base untouched
        rest = np.ones(op.base.size, bool)
        host_view(rest, *op.layout)[...] = False
        gbase = to_numpy(t, op.dbase)
        if not np.array_equal(gbase[rest].view(np.uint8), op.base[rest].view(np.uint8)):
            t.fail(f"{t.what}: wrote outside the view")
    del before


def diff_along_axis(t, op, what):
    lib, rng, env = t.lib, t.rng, t.env
    x, ga = op.host, env.ga_dtype(op.host.dtype)
    if x.ndim == 0:
        return diff_index_text_0d(t, op)
    axis = diff_axes(rng, x.ndim, single=True, none=False)
    ax = axis % x.ndim if -x.ndim <= axis < x.ndim else 0
    ishape = [1 if rng.random() < 0.3 else s for s in x.shape]
    ishape[ax] = int(rng.integers(0, 6))
    idx = diff_indices(rng, x.shape[ax], tuple(ishape), 0.1)
    idx = idx.astype(pick(rng, ("int64", "int32", "int8"))) if idx.dtype.kind == "u" or rng.random() < 0.5 else idx
    if what == "take_along_axis":
        t.what = f"ga_take_along_axis({op.label}, {idx.dtype}{list(idx.shape)}, axis={axis})"
        want = np_result(lambda: np.take_along_axis(x, idx, axis=axis))
        lib.ga_clear_error()
        p = lib.ga_take_along_axis(op.dev, to_device(t, idx), axis)
        p = diff_made(t, p, want)
        if p is None:
            return
        return same_bits(t, t.what, p, want)
    rshape = np.broadcast_shapes(tuple(s if d != ax else 1 for d, s in enumerate(x.shape)),
                                 tuple(s if d != ax else 1 for d, s in enumerate(idx.shape)))
    rshape = tuple(idx.shape[d] if d == ax else s for d, s in enumerate(rshape))
    vals = diff_value_for(t, ga, rshape)
    t.what = f"ga_put_along_axis({op.label}, {idx.dtype}{list(idx.shape)}, {vals.dtype}{list(vals.shape)}, axis={axis})"
    want_base = np.array(op.base if op.base is not None else x, copy=True)
    view = host_view(want_base, *op.layout) if op.layout else want_base

    def put():
        np.put_along_axis(view, idx, vals, axis=axis)
    err = np_result(put)
    lib.ga_clear_error()
    st = lib.ga_put_along_axis(op.dev, to_device(t, idx), to_device(t, vals), axis)
    if isinstance(err, Exception):
        diff_expect_error(t, t.what, st != 0, err)
        return same_bits(t, t.what + ": nothing written", op.dbase or op.dev, op.base if op.base is not None else x)
    if st != 0:
        return diff_unexpected_error(t, t.what)
    # compared where one value lands
    pos = np.arange(x.size).reshape(x.shape)
    full = np.broadcast_to(idx, rshape) if idx.size else idx
    targets = np.take_along_axis(np.broadcast_to(pos, tuple(s if d != ax else x.shape[ax] for d, s in enumerate(rshape))),
                                 full.astype(np.int64), axis=ax) if full.size else np.zeros(0, np.int64)
    count = np.bincount(np.asarray(targets).reshape(-1), minlength=x.size)
    once = (count <= 1).reshape(x.shape)
    got = to_numpy(t, op.dev)
    if not equal_or_nan(got[once], view[once]).all():
        t.fail(f"{t.what}: differs from NumPy where one value lands")


# ---- sorting ---------------------------------------------------------------------

def diff_sort_values(t, ga, n):
    return order_values(t, ga, n) if t.rng.random() < 0.5 else wild_values(t, ga, n)


def _check_partitioned(t, label, got, x, kth, axis):
    """got is x partitioned at kth along axis (axis None: flattened): the
    sorted values at kth, not greater ones before each, not smaller after."""
    xs = x.reshape(-1) if axis is None else x
    ax = 0 if axis is None else axis
    s = np.sort(xs, axis=ax, kind="stable")
    if not t.expect(got.shape == s.shape, f"{label}: shape {got.shape}, NumPy {s.shape}"):
        return
    length = s.shape[ax] if s.ndim else 1
    for k in sorted({k % length for k in kth}) if length else ():
        for part, sl in (("at", slice(k, k + 1)), ("before", slice(0, k)), ("after", slice(k + 1, None))):
            g = np.sort(np.take(got, np.arange(length)[sl], axis=ax), axis=ax, kind="stable")
            w = np.take(s, np.arange(length)[sl], axis=ax)
            if not same_values(g, w):
                return t.fail(f"{label}: the values {part} kth {k} differ from a sorted copy's")


def diff_sort(t):
    env, lib, rng = t.env, t.lib, t.rng
    ga = pick(rng, DIFF_DTYPES)
    what = pick(rng, ("sort", "argsort", "partition", "argpartition", "lexsort", "searchsorted"))
    if what == "searchsorted":
        return diff_searchsorted(t, ga)
    shape = diff_shape(rng, 20000)
    if what == "lexsort":
        return diff_lexsort(t, shape)
    op = diff_operand(t, ga, shape, lambda n: diff_sort_values(t, ga, n))
    x = op.host
    axis = None if rng.random() < 0.25 else diff_axes(rng, x.ndim, single=True)
    cax = GA_AXIS_NONE if axis is None else axis
    if what in ("sort", "argsort"):
        t.what = f"ga_{what}({op.label}, axis={axis})"
        want = np_result(lambda: getattr(np, what)(x, axis=axis, kind="stable"))
        lib.ga_clear_error()
        p = getattr(lib, f"ga_{what}")(op.dev, cax)
        p = diff_made(t, p, want)
        if p is None:
            return
        got = to_numpy(t, p)
        if what == "sort":
            t.expect(got.dtype == want.dtype and same_values(got, want), f"{t.what}: values differ")
        else:
            t.expect(got.dtype == np.int64 and got.shape == want.shape and np.array_equal(got, want),
                     f"{t.what}: indices differ")
        return
    length = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 1)
    kth = [int(rng.integers(-length, length)) if length else 0 for _ in range(int(rng.integers(0, 4)))]
    if rng.random() < 0.05:
        kth.append(int(pick(rng, (length, -length - 1))))
    t.what = f"ga_{what}({op.label}, kth={kth}, axis={axis})"
    want = np_result(lambda: getattr(np, what)(x, np.array(kth, np.intp), axis=axis))
    lib.ga_clear_error()
    p = getattr(lib, f"ga_{what}")(op.dev, len(kth), i64s(kth) if kth else None, cax)
    p = diff_made(t, p, want)
    if p is None:
        return
    got = to_numpy(t, p)
    if x.ndim == 0 and axis is not None:  # NumPy partitions a 0-d array along axis 0 / -1: itself
        return t.expect(got.shape == np.shape(want) and np.array_equal(got, want), f"{t.what}: {got!r}, NumPy {want!r}")
    if what == "argpartition":
        xs = x.reshape(-1) if axis is None else x
        ax = 0 if axis is None else axis % xs.ndim
        if not t.expect(got.dtype == np.int64 and got.shape == xs.shape, f"{t.what}: {got.dtype}{got.shape}"):
            return
        if not t.expect(np.array_equal(np.sort(got, axis=ax), np.broadcast_to(
                np.arange(xs.shape[ax] if xs.ndim else 1).reshape([-1 if d == ax else 1 for d in range(xs.ndim)]),
                xs.shape)), f"{t.what}: the indices are not a permutation along the axis"):
            return
        got = np.take_along_axis(xs, got, axis=ax)
    else:
        t.expect(got.dtype == x.dtype, f"{t.what}: dtype {got.dtype}")
    _check_partitioned(t, t.what, got, x, kth, axis)


def diff_lexsort(t, shape):
    env, lib, rng = t.env, t.lib, t.rng
    if not shape:
        shape = (int(rng.integers(1, 9)),)
    keys = [diff_sort_values(t, g, math.prod(shape)).reshape(shape)
            for g in (pick(rng, DIFF_DTYPES) for _ in range(int(rng.integers(1, 4))))]
    axis = None if rng.random() < 0.2 else diff_axes(rng, len(shape), single=True)
    t.what = f"ga_lexsort([{', '.join(f'{k.dtype}{list(k.shape)}' for k in keys)}], axis={axis})"
    if axis is None:
        want = np_result(lambda: np.lexsort([k.reshape(-1) for k in keys]))
    else:
        want = np_result(lambda: np.lexsort(keys, axis=axis))
    ps = (ctypes.c_void_p * len(keys))(*[to_device(t, k) for k in keys])
    lib.ga_clear_error()
    p = lib.ga_lexsort(len(keys), ps, GA_AXIS_NONE if axis is None else axis)
    p = diff_made(t, p, want)
    if p is None:
        return
    got = to_numpy(t, p)
    t.expect(got.shape == want.shape and np.array_equal(got, want), f"{t.what}: indices differ")


def diff_searchsorted(t, ga):
    env, lib, rng = t.env, t.lib, t.rng
    n = int(pick(rng, (0, 1, 2, 5, 17, 100, 1000, 5000)))
    a = diff_sort_values(t, ga, n)
    vg = ga if rng.random() < 0.6 else pick(rng, DIFF_DTYPES)
    vshape = diff_shape(rng, 2000)
    v = diff_sort_values(t, vg, math.prod(vshape)).reshape(vshape)
    if n and v.size > 1 and rng.random() < 0.3:  # values of a among them
        flat, m = v.reshape(-1), v.size // 2
        with quiet():
            flat[:m] = a[rng.integers(0, n, m)].astype(v.dtype)
    side = int(rng.integers(0, 2))
    sorter = rng.random() < 0.3
    if sorter:
        order = np.argsort(a, kind="stable")
        ah = a
    else:
        with quiet():
            ah = np.sort(a, kind="stable")
    da = to_device(t, ah)
    dv = to_device(t, v)
    ds = to_device(t, order) if sorter else None
    t.what = (f"ga_searchsorted({a.dtype}[{n}]{' with a sorter' if sorter else ' sorted'}, {v.dtype}{list(v.shape)},"
              f" side={('left', 'right')[side]})")
    want = np_result(lambda: np.searchsorted(ah, v, side=("left", "right")[side], sorter=order if sorter else None))
    lib.ga_clear_error()
    p = lib.ga_searchsorted(da, dv, side, ds)
    p = diff_made(t, p, want)
    if p is None:
        return
    got = to_numpy(t, p)
    want = np.asarray(want)
    t.expect(got.shape == want.shape and np.array_equal(got, want), f"{t.what}: indices differ" + (
        "" if got.shape != want.shape or np.array_equal(got, want) else
        f" (first at {int(np.nonzero((got != want).reshape(-1))[0][0])})"))


# ---- unique ----------------------------------------------------------------------

def diff_unique(t):
    env, lib, rng = t.env, t.lib, t.rng
    ga = pick(rng, DIFF_DTYPES)
    shape = diff_shape(rng, 20000)
    op = diff_operand(t, ga, shape, lambda n: set_values(t, ga, n) if rng.random() < 0.6 else wild_values(t, ga, n))
    x = op.host
    what = pick(rng, ("unique", "unique", "unique_all", "unique_inverse", "unique_counts", "unique_values", "isin"))
    if what == "isin":
        yg = ga if rng.random() < 0.6 else pick(rng, DIFF_DTYPES)
        yshape = diff_shape(rng, 3000)
        y = set_values(t, yg, math.prod(yshape)).reshape(yshape)
        invert = bool(rng.random() < 0.3)
        t.what = f"ga_isin({op.label}, {y.dtype}{list(y.shape)}, invert={invert})"
        want = np_result(lambda: np.isin(x, y, invert=invert))
        lib.ga_clear_error()
        p = lib.ga_isin(op.dev, to_device(t, y), invert)
        p = diff_made(t, p, want)
        if p is None:
            return
        got = to_numpy(t, p)
        if got.shape == want.shape and lossy_promotion(x.dtype, y.dtype):
            want = np.where(isin_alternatives(x, y, invert, got), got, want)
        return set_equal(t, t.what, got, want)
    flags = [bool(rng.random() < 0.5) for _ in range(3)]
    equal_nan = bool(rng.random() < 0.7)
    if what != "unique":
        equal_nan = False
        flags = {"unique_all": [True] * 3, "unique_inverse": [False, True, False], "unique_counts": [False, False, True],
                 "unique_values": [False] * 3}[what]
    t.what = (f"ga_{what}({op.label}" + (f", index={flags[0]}, inverse={flags[1]}, counts={flags[2]}, "
                                          f"equal_nan={equal_nan})" if what == "unique" else ")"))
    # NumPy's sorting unique (return_counts, see sorting_unique): the values
    # asked alone may come from a hash table, unsorted (NumPy 2.3+)
    want = np_result(lambda: np.unique(x, return_index=True, return_inverse=True, return_counts=True,
                                       equal_nan=equal_nan))
    outs = out_ptrs(3)
    lib.ga_clear_error()
    if what == "unique":
        p = lib.ga_unique(op.dev, *[ctypes.byref(o) if f else None for o, f in zip(outs, flags)], equal_nan)
    elif what == "unique_all":
        p = lib.ga_unique_all(op.dev, *[ctypes.byref(o) for o in outs])
    elif what == "unique_inverse":
        p = lib.ga_unique_inverse(op.dev, ctypes.byref(outs[1]))
    elif what == "unique_counts":
        p = lib.ga_unique_counts(op.dev, ctypes.byref(outs[2]))
    else:
        p = lib.ga_unique_values(op.dev)
    p = diff_made(t, p, want)
    if p is None:
        return
    set_equal(t, t.what + " values", to_numpy(t, p), want[0])
    for k, (label, f) in enumerate(zip(("index", "inverse", "counts"), flags)):
        if f:
            got = to_numpy(t, t.own(outs[k].value))
            w = want[k + 1]
            t.expect(got.dtype == np.int64 and got.shape == w.shape and np.array_equal(got, w),
                     f"{t.what} {label}: {got.dtype}{got.shape}, NumPy {w.dtype}{w.shape}"
                     + ("" if got.shape != w.shape or np.array_equal(got, w) else " values differ"))


def lossy_promotion(a, b):
    """Whether comparing a with b in their promoted dtype can make unequal
    64-bit integers equal (int64 with uint64, or with a float or complex
    dtype: complex128's real part is a float64)."""
    wide = [d for d in (a, b) if d.kind in "iu" and d.itemsize == 8]
    return bool(wide) and np.result_type(a, b).kind in "fc"


def isin_alternatives(x, y, invert, got):
    """Where isin's got is one of the defensible answers for inputs whose
    promotion loses precision: the exact one (Python's comparison of the
    values) or the one in the promoted dtype. NumPy's own (its sorting
    method) compares neighbours in the promoted dtype, where two values of
    x alone may tie, and is accepted too by the caller."""
    pdt = np.result_type(x.dtype, y.dtype)
    with quiet():
        exact_set = set(y.reshape(-1).tolist())
        promoted_set = set(y.astype(pdt).reshape(-1).tolist())
        xs = x.reshape(-1).tolist()
        xp = x.astype(pdt).reshape(-1).tolist()
    exact = np.array([v in exact_set and v == v for v in xs], bool).reshape(x.shape)
    promoted = np.array([v in promoted_set and v == v for v in xp], bool).reshape(x.shape)
    if invert:
        exact, promoted = ~exact, ~promoted
    return (got == exact) | (got == promoted)


# ---- the loop ------------------------------------------------------------------------

DIFF_CASES = {"ufunc": diff_ufunc, "reduce": diff_reduce, "scan": diff_scan, "index": diff_index,
              "sort": diff_sort, "unique": diff_unique}


def diff_category(seed, number):
    """The category of case `number` (its own stream, as the case's)."""
    rng = np.random.default_rng([seed, number, 1])
    return DIFF_CATEGORIES[int(rng.choice(len(DIFF_CATEGORIES), p=DIFF_WEIGHTS))]


def run_diff_case(env, seed, number, category):
    """Runs one case: (description, [failures])."""
    t = DiffCase(env, seed, number)
    try:
        with quiet():
            DIFF_CASES[category](t)
    except Exception as e:  # noqa: BLE001 - a crash of the harness is a disagreement to look at
        here = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == __file__]
        t.fail(f"harness error {type(e).__name__}: {e} (line {here[-1].lineno if here else '?'})")
    finally:
        t.release_all()
        env.lib.ga_clear_error()
        env.lib.ga_reduce_warnings()
    return t.what, t.failures


def run_random_checks(runner, env, library):
    """The random differential cases, for GPUARR_DIFF_SECONDS (or the cases
    of GPUARR_DIFF_CASE), counted as one check per category."""
    selected = [c for c in DIFF_CATEGORIES if not runner.pattern or runner.pattern in f"random/{c}"]
    if not selected:
        return
    if not env.has_device or not env.ufuncs:
        for c in selected:
            runner.run(f"random/{c}", lambda t: None, device=True)
        return
    seed = int(os.environ.get("GPUARR_DIFF_SEED", env.seed))
    seconds = float(os.environ.get("GPUARR_DIFF_SECONDS", "60"))
    only = [int(c) for c in os.environ.get("GPUARR_DIFF_CASE", "").replace(",", " ").split()]
    trace = bool(os.environ.get("GPUARR_DIFF_TRACE"))  # each case's number before it runs (for a crash)
    print(f"random differential: seed {seed} (GPUARR_DIFF_SEED), "
          + (f"cases {only} (GPUARR_DIFF_CASE)" if only else f"{seconds:g} s (GPUARR_DIFF_SECONDS)"), flush=True)
    counts = {c: [0, 0] for c in selected}  # cases, disagreements
    start = time.monotonic()
    number = 0
    numbers = iter(only) if only else None
    while True:
        if numbers is not None:
            number = next(numbers, None)
            if number is None:
                break
        else:
            number += 1
            if time.monotonic() - start >= seconds:
                break
        category = diff_category(seed, number)
        if category not in counts:
            continue
        if trace:
            print(f"case {number} ({category})", flush=True)
        what, failures = run_diff_case(env, seed, number, category)
        counts[category][0] += 1
        if only:
            print(f"case {number} ({category}): {what}: {'; '.join(failures) if failures else 'agrees'}")
        if failures:
            counts[category][1] += 1
            detail = failures[0][len(what):].lstrip(": ") if failures[0].startswith(what) else failures[0]
            line = f"DIFF {category} seed={seed} case={number}: {what}: {detail}"
            if len(failures) > 1:
                line += f" (and {len(failures) - 1} more)"
            print(line if len(line) <= DIFF_MAX_LINE else line[:DIFF_MAX_LINE - 3] + "...", flush=True)
            if env.lib.ga_device_synchronize() != 0:
                print(f"random differential: the device failed after case {number}; stopped", flush=True)
                env.lib.ga_clear_error()
                break
    elapsed = time.monotonic() - start
    total = sum(c for c, _ in counts.values())
    print(f"random differential: {total} cases in {elapsed:.1f} s, seed {seed}")
    for c in selected:
        n, bad = counts[c]
        print(f"  random {c}: {n} cases, {n - bad} agree, {bad} disagree")
    if any(bad for _, bad in counts.values()):
        print(f"replay a case: GPUARR_DIFF_SEED={seed} GPUARR_DIFF_CASE=N python3 tests/conformance.py {library} "
              f"-k random")
    for c in selected:
        n, bad = counts[c]
        runner.run(f"random/{c}", lambda t, n=n, bad=bad: t.expect(
            not bad, f"{bad} of {n} cases disagree with NumPy (the DIFF lines above)"), device=True)


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def run_all(runner, env):
    run = runner.run
    n = len(DTYPE_NAMES)
    dtypes = range(n)
    # host checks
    for g in dtypes:
        run(f"dtypes/{DTYPE_NAMES[g]}", check_dtype_info, g, needs=(g,))
    run("dtypes/invalid", check_dtype_invalid)
    run("status/strings", check_status_strings)
    for a, b in itertools.product(dtypes, dtypes):
        run(f"promote_types/{DTYPE_NAMES[a]}+{DTYPE_NAMES[b]}", check_promote, a, b, needs=(a, b))
    for a, b in itertools.product(dtypes, dtypes):
        run(f"can_cast/{DTYPE_NAMES[a]}->{DTYPE_NAMES[b]}", check_can_cast, a, b, needs=(a, b))
    for g in dtypes:
        run(f"result_type/{DTYPE_NAMES[g]}", check_result_type, g, needs=(g,))
    run("result_type/python-scalars", check_result_type_scalars)
    # errors: without a device, the no-device error; with one, argument errors
    if not env.has_device:
        run("errors/no-device", check_no_device_errors)
    for name, fn in (("empty-negative-dim", check_error_empty), ("arange", check_error_arange),
                     ("linspace-negative-num", check_error_linspace),
                     ("full-out-of-bounds", check_error_full), ("copyto", check_error_copyto),
                     ("first-error-kept", check_error_first_kept)):
        run(f"errors/{name}", fn, device=True)
    # device checks
    for group, fn in (("full", check_full), ("arange", check_arange), ("arange_int", check_arange_int),
                      ("linspace", check_linspace), ("logspace", check_logspace), ("eye", check_eye),
                      ("transfer", check_transfer), ("copy", check_copy)):
        for g in dtypes:
            run(f"{group}/{DTYPE_NAMES[g]}", fn, g, device=True, needs=(g,))
    for s, d in itertools.product(dtypes, dtypes):
        run(f"astype/{DTYPE_NAMES[s]}->{DTYPE_NAMES[d]}", check_astype, s, d, device=True, needs=(s, d))
    for s, d in itertools.product(dtypes, dtypes):
        run(f"copyto/{DTYPE_NAMES[s]}->{DTYPE_NAMES[d]}", check_copyto, s, d, device=True, needs=(s, d))
    run("copyto/casting-rules", check_copyto_casting, device=True)
    run_ufunc_checks(runner, env)
    run_reduce_checks(runner, env)
    run_sets_checks(runner, env)
    run_order_checks(runner, env)
    run_index_checks(runner, env)
    run_linalg_checks(runner, env)
    run_io_checks(runner, env)
    run_fft_checks(runner, env)
    run_generator_checks(runner, env)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library", nargs="?", default="build/libgpuarr.so", help="path of libgpuarr.so")
    ap.add_argument("--seed", type=int, help="the random seed (default: fresh)")
    ap.add_argument("-k", dest="pattern", help="run only checks whose name contains this text")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    args = ap.parse_args(argv)

    start = time.monotonic()
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpuarr.h")
    ufuncs = read_ufunc_lists(header)
    try:
        lib = load_library(args.library, {**ufunc_prototypes(ufuncs or []), **REDUCE_PROTOTYPES, **SETS_PROTOTYPES,
                                              **ORDER_PROTOTYPES,
                                              **INDEX_PROTOTYPES, **LINALG_PROTOTYPES, **IO_PROTOTYPES,
                                              **FFT_PROTOTYPES, **GENERATOR_PROTOTYPES})
    except (OSError, AttributeError) as e:  # no library, or a function missing from it
        print(f"FAIL load: {args.library}: {e}")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    statuses = read_status_list(header) or STATUS_LIST
    bf16, ml_version = load_bfloat16()
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy)
    env = Env(lib, bf16, statuses, seed)
    env.ufuncs = ufuncs or []
    env.ufunc = {uf.name: uf for uf in env.ufuncs}
    env.init_status = lib.ga_init()
    env.has_device = env.init_status == 0
    where = "a GPU" if env.has_device else \
        f"no device ({lib.ga_last_error_message().decode()}); device checks skipped"
    print(f"gpuarr {lib.ga_version()}, NumPy {np.__version__}, "
          f"ml_dtypes {ml_version or 'missing (bfloat16 skipped)'}, {where}")

    runner = Runner(env, args.pattern, args.verbose)
    run_all(runner, env)
    run_random_checks(runner, env, args.library)

    for group, (p, f, s) in runner.groups.items():
        print(f"  {group}: {p + f + s} checks, {p} passed, {f} failed, {s} skipped")
    if runner.failed:
        print(f"random seed {seed}: `python3 tests/conformance.py {args.library} --seed {seed} "
              f"-k NAME` repeats a check")
    print(f"time {time.monotonic() - start:.2f} s")
    print(f"{runner.passed} passed, {runner.failed} failed, {runner.skipped} skipped")
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
