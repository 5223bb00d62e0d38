#!/usr/bin/env python3
"""NumPy conformance of gpuarr, checked through ctypes on the shared library.

Run it (after `make shared`, e.g. `make shared GPUARR_ARCHS=sm_90`):

    python3 tests/conformance.py build/libgpuarr.so [--seed N] [-k TEXT] [-v]

NumPy 2 is the oracle; ml_dtypes (when importable) supplies bfloat16, and
the bfloat16 cases are skipped without it. The checks come in two sorts:

- host checks (no GPU needed): dtype names, sizes and kinds; promote_types,
  can_cast and result_type (NEP 50 weak Python scalars) for every dtype; the
  error reported when no device can be used.
- device checks, counted as skipped when ga_init() fails: creation (zeros,
  ones, full, arange, linspace, logspace, eye, identity), transfers, copy,
  astype for every pair of dtypes on contiguous, strided, negatively strided
  and broadcast (zero-stride) views, copyto into strided destinations, the
  casting rules of copyto, and argument errors compared with NumPy's.

Values are compared bit for bit (floats as unsigned integers, so -0.0 and
NaNs count), with these tolerances, each for a stated reason:
- casts between dtypes (astype, copyto) and arange accept any NaN for a
  NaN: NaN payloads and signs differ between float formats, and NaNs made by
  arithmetic (inf - inf) are negative on x86 and positive in CUDA;
- float (or complex) -> uint32 of NaN or values out of range: NumPy's SIMD
  and scalar loops disagree (0x80000000 in one, 0 or a wrapped value in the
  other, by array position), so NumPy's answer for the value in a 1-element
  array, or 0x80000000 for NaN / values <= -2**31, is accepted too;
- linspace: float64, complex128 and integers exact, other floats within 1 ulp;
  logspace: the same, except float64/complex128 within 2 ulp (CUDA's pow is
  not correctly rounded; its documented bound is 2 ulp) and integer results
  off by one where the float64 power lies within 4 ulp of an integer.

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
  GA_ERROR_OVERFLOW and NumPy's message.

Random data is fresh each run; the seed is printed when something fails and
--seed reproduces it (each check draws from its own stream, seeded by the run
seed and the check's name, so `-k NAME --seed N` reproduces one check).

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


def load_library(path):
    lib = ctypes.CDLL(os.path.abspath(path))
    for name, (restype, argtypes) in PROTOTYPES.items():
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
    any NaN matches a NaN; `ulps`: float components within that many ulp;
    `accept(flat_indices) -> bool mask`: extra accepted positions."""
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
            bad &= ~(ulp_distance(g, w, fmt) <= ulps)
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library", nargs="?", default="build/libgpuarr.so", help="path of libgpuarr.so")
    ap.add_argument("--seed", type=int, help="the random seed (default: fresh)")
    ap.add_argument("-k", dest="pattern", help="run only checks whose name contains this text")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    args = ap.parse_args(argv)

    start = time.monotonic()
    try:
        lib = load_library(args.library)
    except (OSError, AttributeError) as e:  # no library, or a function missing from it
        print(f"FAIL load: {args.library}: {e}")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpuarr.h")
    statuses = read_status_list(header) or STATUS_LIST
    bf16, ml_version = load_bfloat16()
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy)
    env = Env(lib, bf16, statuses, seed)
    env.init_status = lib.ga_init()
    env.has_device = env.init_status == 0
    where = "a GPU" if env.has_device else \
        f"no device ({lib.ga_last_error_message().decode()}); device checks skipped"
    print(f"gpuarr {lib.ga_version()}, NumPy {np.__version__}, "
          f"ml_dtypes {ml_version or 'missing (bfloat16 skipped)'}, {where}")

    runner = Runner(env, args.pattern, args.verbose)
    run_all(runner, env)

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
