#!/usr/bin/env python3
"""Generate tests/view_cases.h: NumPy's answers for gpuarr's view functions.

NumPy 2 is the oracle.  Every case builds a real NumPy array with
np.lib.stride_tricks.as_strided over a base buffer (one of the input layouts
below, in one of the item sizes 1, 4, 8 and 16: uint8, float32, float64,
complex128), applies the NumPy operation and records the result's shape,
byte strides, the byte offset of its first element from the base buffer's
start, and its flags (C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE); or, when NumPy
raises, the exception class (as the gpuarr status to expect) and message.

Operations: basic indexing (ga_index / ga_index_items, as the text
gpuarr parses: the same text is evaluated by Python as x[text]), transpose,
permute_dims, swapaxes, moveaxis, squeeze, expand_dims, broadcast_to,
atleast_1d/2d/3d, flip, fliplr, flipud, rot90, diagonal, reshape (only where
NumPy returns a view: reshape(..., copy=False)), ravel (C-contiguous inputs
only), split, array_split, split at indices, hsplit, vsplit (a case per
piece).

Status mapping: AxisError -> GA_ERROR_AXIS, IndexError -> GA_ERROR_INDEX,
ValueError -> GA_ERROR_VALUE; broadcast_to's broadcast errors ->
GA_ERROR_SHAPE with no message to match (gpuarr words it its own way); text
that Python or NumPy rejects as an index ("1:2:3:4", "a", "1.5") ->
GA_ERROR_VALUE with no message to match.  Deliberate deviations from NumPy's
exception (listed in the header): numpy.split and array_split index
`ary.shape[axis]` and so raise IndexError("tuple index out of range") for an
axis out of range; gpuarr is expected to answer GA_ERROR_AXIS with the usual
AxisError text instead.  numpy.flip of a 0-d array returns a NumPy scalar
(m[()]); the expected view is then the 0-d array itself (x[...]).

Run from the repository root:  python3 tools/gen_view_cases.py
No randomness: a rerun regenerates the header byte for byte.
"""

import itertools
import os

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gadtypes import ITEMSIZE, numpy_dtype

OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        os.pardir, "tests", "view_cases.h")

MAXD = 8        # shape/stride slots per case (inputs have at most 4 axes)
MAXP = 12       # integer parameters per case

# The dtype of the base buffer for each item size the cases take.
DTYPES = {ITEMSIZE[n]: numpy_dtype(n) for n in ("uint8", "float32", "float64", "complex128")}
ITEMSIZES = sorted(DTYPES)

OPS = [  # (C enum suffix, gpuarr function)
    ("INDEX", "ga_index"),
    ("TRANSPOSE", "ga_transpose"),
    ("PERMUTE_DIMS", "ga_permute_dims"),
    ("SWAPAXES", "ga_swapaxes"),
    ("MOVEAXIS", "ga_moveaxis"),
    ("SQUEEZE", "ga_squeeze"),
    ("EXPAND_DIMS", "ga_expand_dims"),
    ("BROADCAST_TO", "ga_broadcast_to"),
    ("ATLEAST_1D", "ga_atleast_1d"),
    ("ATLEAST_2D", "ga_atleast_2d"),
    ("ATLEAST_3D", "ga_atleast_3d"),
    ("FLIP", "ga_flip"),
    ("FLIPLR", "ga_fliplr"),
    ("FLIPUD", "ga_flipud"),
    ("ROT90", "ga_rot90"),
    ("DIAGONAL", "ga_diagonal"),
    ("RESHAPE", "ga_reshape"),
    ("RAVEL", "ga_ravel"),
    ("SPLIT", "ga_split"),
    ("ARRAY_SPLIT", "ga_array_split"),
    ("SPLIT_AT", "ga_split_at"),
    ("HSPLIT", "ga_hsplit"),
    ("VSPLIT", "ga_vsplit"),
]
OP_FUNC = dict(OPS)

# --------------------------------------------------------------------------
# Input layouts: (name, shape, strides in items, offset in items), taken from
# NumPy operations on a 1-d base of int64 so that they are real layouts.


def _layout(name, make):
    base = np.arange(1000, dtype=np.int64)
    v = make(base)
    off = (v.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 8
    return (name, tuple(v.shape), tuple(s // 8 for s in v.strides), int(off))


LAYOUTS = [
    _layout("C (3,4)", lambda b: b[:12].reshape(3, 4)),
    _layout("F (3,4)", lambda b: b[:12].reshape(4, 3).T),
    _layout("C (2,3,4)", lambda b: b[:24].reshape(2, 3, 4)),
    _layout("transposed C (2,3,4)", lambda b: b[:24].reshape(2, 3, 4).T),
    _layout("axes (0,2,1) of C (2,3,4)", lambda b: b[:24].reshape(2, 3, 4).transpose(0, 2, 1)),
    _layout("negative strides (3,4)", lambda b: b[:12].reshape(3, 4)[::-1, ::-1]),
    _layout("mixed signs (3,4)", lambda b: b[:12].reshape(3, 4)[::-1]),
    _layout("sliced [1:5:2, 2:7] of C (6,8)", lambda b: b[:48].reshape(6, 8)[1:5:2, 2:7]),
    _layout("sliced [::2, ::-1, 1:5] of C (4,3,5)", lambda b: b[:60].reshape(4, 3, 5)[::2, ::-1, 1:5]),
    _layout("0-d at offset 3", lambda b: b[3:4].reshape(())),
    _layout("C (5,)", lambda b: b[:5]),
    _layout("strided 1-d [7:0:-2]", lambda b: b[7:0:-2]),
    _layout("empty (0,3)", lambda b: b[:0].reshape(0, 3)),
    _layout("empty (3,0,2)", lambda b: b[:0].reshape(3, 0, 2)),
    _layout("unit dims (1,3,1)", lambda b: b[:3].reshape(1, 3, 1)),
    _layout("C (2,1,3,2)", lambda b: b[:12].reshape(2, 1, 3, 2)),
    _layout("stride 0 (3,4)", lambda b: np.broadcast_to(b[:4], (3, 4))),
    _layout("C (1,1)", lambda b: b[5:6].reshape(1, 1)),
]


def make_input(layout, itemsize):
    """The NumPy array of a layout, its base buffer and the buffer's size."""
    _, shape, st_items, off = layout
    lo = hi = off
    if all(n > 0 for n in shape):
        for n, s in zip(shape, st_items):
            if s < 0:
                lo += s * (n - 1)
            else:
                hi += s * (n - 1)
    assert lo >= 0
    nitems = hi + 3  # a little slack past the last element
    base = np.zeros(nitems, dtype=DTYPES[itemsize])
    x = as_strided(base[off:], shape=shape, strides=tuple(s * itemsize for s in st_items))
    return x, base, nitems * itemsize


def flags_of(r):
    f = 0
    if r.flags.c_contiguous:
        f |= 1
    if r.flags.f_contiguous:
        f |= 2
    if r.flags.writeable:
        f |= 4
    return f


# --------------------------------------------------------------------------
# Index text


class _Capture:
    def __getitem__(self, key):
        return key


def index_key(text):
    """The Python index object of `text`, or None if Python rejects it."""
    try:
        return ("ok", eval(f"_C[{text}]", {"__builtins__": {}}, {"_C": _Capture(), "newaxis": None}))
    except Exception:  # SyntaxError, NameError, ...
        return ("bad", None)


INT_TOKS = ["0", "1", "-1", "2", "-2", "-3", "3", "5", "-4"]
SLICE_TOKS = [":", "::", "1:", ":2", "::2", "::-1", "1::-1", "-1:0:-1", "-2:", "3:1:-1",
              "5:1:-2", "-100:100", "100:", ":-100", "2:1", "::3", "1:-1", "-1::-2", ":0",
              "0:0:-1", "::-3", "10::-1", ":-10:-1", "1:2:", "::0"]
SPECIAL_TEXTS = ["...", "None", "newaxis", "..., None", "None, ...", "None, None", "..., 0", "0, ...",
                 "..., ::-1", "::-1, ...", "None, 1", "1, None", "..., ...", " 1 ", "0,", "::-1,",
                 " : , None ", "None, ..., None", "..., -1, None", "1:2 , ...", "-1 ,0", "  ...  "]
GARBAGE_TEXTS = ["1:2:3:4", "a", "1 2", "1.5", ",", "1,,2", "::-", ":::", "-", "None None", "1j", "(", "1]"]


def index_texts(ndim, layout_no):
    """Index texts for an input of `ndim` axes (deterministic)."""
    out = []
    for i, t in enumerate(INT_TOKS + SLICE_TOKS + SPECIAL_TEXTS):
        if layout_no < 3 or (i + layout_no) % 2 == 0:  # all on the first layouts, half on the others
            out.append(t)
    if ndim >= 2:
        a = ["1", "-1", ":", "::-1", "1:", "-2::-2", "5", "::0"]
        b = ["0", "-1", "::2", "::-1", ":-1", "1:100", "-5", "None"]
        for i, (x, y) in enumerate(itertools.product(a, b)):
            if (i + layout_no) % 3 == 0:
                out.append(f"{x}, {y}")
        out += ["-1, ..., ::-1", "None, ::2, None, -1", "..., 1, :", "1, 2, 3", "0, 0, 0, 0",
                "::-1, ::-1", "-1, -1", "1, ..., 1"]
    if ndim >= 3:
        out += ["1, 2, 3", "::-1, 1, ::2", "..., 1", "1, ..., 1", ":, :, :, None", "-1, ::-2, 1:3",
                "None, 1, None, -1, None", "0, 0, 0", "0, 0, 0, 0", "..., None, 1", "1:, :1, ::-1",
                ":, None, :, None, :"]
    if ndim >= 4:
        out += ["0, 0, 0, 0", "0, 0, 0, 0, 0", "1, ..., ::-1, 1", "::-1, :, ::-1"]
    seen, uniq = set(), []
    for t in out:
        if t not in seen:
            seen.add(t)
            uniq.append(t)
    return uniq


def key_items(key):
    """The ga_index_item initialisers of a Python index key."""
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k in key:
        if k is None:
            items.append("{GA_INDEX_NEWAXIS, 0, 0, 0}")
        elif k is Ellipsis:
            items.append("{GA_INDEX_ELLIPSIS, 0, 0, 0}")
        elif isinstance(k, slice):
            def part(v):
                return "GA_NONE" if v is None else str(int(v))
            items.append(f"{{GA_INDEX_SLICE, {part(k.start)}, {part(k.stop)}, {part(k.step)}}}")
        elif isinstance(k, int) and not isinstance(k, bool):
            items.append(f"{{GA_INDEX_INTEGER, {k}, 0, 0}}")
        else:
            return None
    return items


# --------------------------------------------------------------------------
# Cases


class Case:
    def __init__(self, op, layout, itemsize, params=(), text=None, piece=-1, npieces=0):
        self.op, self.layout, self.itemsize = op, layout, itemsize
        self.params = [int(p) for p in params]
        self.text, self.piece, self.npieces = text, piece, npieces
        self.items = None
        self.status, self.message = "GA_OK", ""
        self.result = None  # (shape, strides, offset, flags)


def exception_status(op, e):
    from numpy.exceptions import AxisError
    if isinstance(e, AxisError):
        return "GA_ERROR_AXIS", str(e)
    if isinstance(e, IndexError):
        return "GA_ERROR_INDEX", str(e)
    if isinstance(e, ValueError):
        msg = str(e)
        if op == "BROADCAST_TO" and ("broadcast" in msg or "remapping" in msg) and "non-negative" not in msg:
            return "GA_ERROR_SHAPE", ""  # gpuarr's own wording: status and function name only
        return "GA_ERROR_VALUE", msg
    raise e


def record(case, x, base, r):
    if not isinstance(r, np.ndarray):
        assert case.op == "FLIP" and x.ndim == 0, (case.op, case.layout[0])
        r = x[...]
    b0 = base.__array_interface__["data"][0]
    off = r.__array_interface__["data"][0] - b0
    if r.size:
        assert np.shares_memory(r, base), (case.op, case.layout[0], case.params, case.text)
    assert r.ndim <= MAXD
    case.result = (tuple(r.shape), tuple(r.strides), off, flags_of(r))


def run_case(case, fn):
    """fn(x) -> NumPy result (array, or list of arrays for splits)."""
    x, base, nbytes = make_input(case.layout, case.itemsize)
    case.in_flags = flags_of(x)
    case.base_nbytes = nbytes
    try:
        r = fn(x)
    except Exception as e:  # noqa: BLE001 - NumPy's exception is the answer
        case.status, case.message = exception_status(case.op, e)
        return [case]
    if isinstance(r, list):
        cases = []
        for i, piece in enumerate(r):
            c = Case(case.op, case.layout, case.itemsize, case.params, piece=i, npieces=len(r))
            c.in_flags, c.base_nbytes = case.in_flags, case.base_nbytes
            record(c, x, base, piece)
            cases.append(c)
        return cases
    record(case, x, base, r)
    return [case]


def itemsize_for(i):
    return ITEMSIZES[i % 4]


def gen_index(cases):
    n = 0
    for li, lay in enumerate(LAYOUTS):
        ndim = len(lay[1])
        for ti, text in enumerate(index_texts(ndim, li)):
            # every item size on the first layout, then rotating
            sizes = ITEMSIZES if li == 0 else [itemsize_for(li + ti)]
            for isz in sizes:
                c = Case("INDEX", lay, isz, text=text)
                kind, key = index_key(text)
                if kind == "ok":
                    c.items = key_items(key)
                if c.items is None:  # not a basic index: gpuarr rejects the text
                    c.items = None
                    x, base, nbytes = make_input(lay, isz)
                    c.in_flags, c.base_nbytes = flags_of(x), nbytes
                    ok = False
                    if kind == "ok":
                        try:
                            x[key]
                            ok = True
                        except IndexError:
                            pass
                    assert not ok, text
                    c.status, c.message = "GA_ERROR_VALUE", ""
                    cases.append(c)
                    n += 1
                    continue

                def fn(x, key=key):
                    r = x[key]
                    if not isinstance(r, np.ndarray):  # every axis indexed: the 0-d view
                        r = x[(key if isinstance(key, tuple) else (key,)) + (Ellipsis,)]
                    return r
                cases += run_case(c, fn)
                n += 1
    # garbage text on two layouts
    for li in (0, 10):
        for gi, text in enumerate(GARBAGE_TEXTS):
            lay = LAYOUTS[li]
            c = Case("INDEX", lay, itemsize_for(gi), text=text)
            kind, key = index_key(text)
            x, base, nbytes = make_input(lay, c.itemsize)
            c.in_flags, c.base_nbytes = flags_of(x), nbytes
            if kind == "ok":
                try:
                    x[key]
                    raise AssertionError("garbage text accepted: " + text)
                except IndexError:
                    pass
            c.status, c.message = "GA_ERROR_VALUE", ""
            cases.append(c)


def axes_lists(ndim):
    return list(range(-ndim, ndim))


def gen_simple(cases):
    for li, lay in enumerate(LAYOUTS):
        d = len(lay[1])
        shape = lay[1]
        k = 0

        def add(op, params, fn):
            nonlocal k
            cases.extend(run_case(Case(op, lay, itemsize_for(li + k), params), fn))
            k += 1

        # transpose / permute_dims
        add("TRANSPOSE", [], lambda x: np.transpose(x))
        perms = list(itertools.permutations(range(d)))
        if d >= 4:
            perms = perms[::5]
        for p in perms:
            add("TRANSPOSE", p, lambda x, p=p: np.transpose(x, p))
        if d >= 1:
            neg = [a - d if a % 2 == 0 else a for a in reversed(range(d))]
            add("TRANSPOSE", neg, lambda x, p=neg: np.transpose(x, p))
            bad = [0] * d if d >= 2 else [d]
            add("TRANSPOSE", bad, lambda x, p=bad: np.transpose(x, p))
            bad = list(range(d - 1)) + [d]
            add("TRANSPOSE", bad, lambda x, p=bad: np.transpose(x, p))
            bad = [-d - 1] + list(range(1, d))
            add("TRANSPOSE", bad, lambda x, p=bad: np.transpose(x, p))
        for p in perms[:2] + [tuple(reversed(range(d)))]:
            add("PERMUTE_DIMS", p, lambda x, p=p: np.permute_dims(x, p))

        # swapaxes
        pairs = [(a, b) for a in axes_lists(d) for b in axes_lists(d)]
        if d >= 3:
            pairs = pairs[::3]
        pairs += [(0, d), (d, 0), (-d - 1, 0), (0, -d - 1)]
        for a, b in pairs:
            add("SWAPAXES", [a, b], lambda x, a=a, b=b: np.swapaxes(x, a, b))

        # moveaxis
        mv = [([s], [t]) for s in axes_lists(d) for t in axes_lists(d)]
        if d >= 3:
            mv = mv[::3 if d == 3 else 5]
        if d >= 2:
            mv += [([0, 1], [1, 0]), ([0, 1], [-1, 0]), ([-1, 0], [0, 1]), ([0, 0], [0, 1]),
                   ([0, 1], [1, 1]), ([0, d], [0, 1]), ([0, 1], [0, d])]
        if d >= 3:
            mv += [([0, 2], [2, 0]), ([2, 0], [0, 1]), ([1, 2], [-1, -2])]
        mv += [([d], [0]), ([0], [d]), ([-d - 1], [0])]
        for s, t in mv:
            add("MOVEAXIS", [len(s)] + s + t, lambda x, s=s, t=t: np.moveaxis(x, s, t))

        # squeeze
        add("SQUEEZE", [], lambda x: np.squeeze(x))
        for a in axes_lists(d):
            add("SQUEEZE", [a], lambda x, a=a: np.squeeze(x, (a,)))
        units = [a for a in range(d) if shape[a] == 1]
        if len(units) >= 2:
            add("SQUEEZE", units, lambda x, a=tuple(units): np.squeeze(x, a))
            add("SQUEEZE", [units[1], units[0] - d], lambda x, a=(units[1], units[0] - d): np.squeeze(x, a))
        if units:
            add("SQUEEZE", [units[0], units[0]], lambda x, a=(units[0], units[0]): np.squeeze(x, a))
        add("SQUEEZE", [d], lambda x: np.squeeze(x, (d,)))
        add("SQUEEZE", [-d - 1], lambda x: np.squeeze(x, (-d - 1,)))

        # expand_dims
        ed = [[0], [d], [-1], [-d - 1], [0, -1], [1, 0], [0, 1, 2], [d + 1], [-d - 2], [0, 0], [0, d + 1],
              [2, -1, 0]]
        if d >= 1:
            ed += [[1], [-2]]
        for a in ed:
            add("EXPAND_DIMS", a, lambda x, a=tuple(a): np.expand_dims(x, a))

        # broadcast_to
        targets = [shape, (2,) + shape, (1, 1) + shape,
                   tuple(3 if n == 1 else n for n in shape),
                   (2,) + tuple(0 if n == 1 else n for n in shape)]
        if d >= 1:
            targets.append(shape[1:])                               # fewer dimensions
            big = next((i for i, n in enumerate(shape) if n != 1), None)
            if big is not None:
                t = list(shape)
                t[big] += 1
                targets.append(tuple(t))                            # does not broadcast
        targets.append((-1,) + shape)
        if d == 0:
            targets += [(0,), (4, 3)]
        for t in targets:
            add("BROADCAST_TO", t, lambda x, t=t: np.broadcast_to(x, t))

        # atleast_*d, fliplr, flipud, ravel
        add("ATLEAST_1D", [], lambda x: np.atleast_1d(x))
        add("ATLEAST_2D", [], lambda x: np.atleast_2d(x))
        add("ATLEAST_3D", [], lambda x: np.atleast_3d(x))
        add("FLIPLR", [], lambda x: np.fliplr(x))
        add("FLIPUD", [], lambda x: np.flipud(x))

        # flip
        add("FLIP", [], lambda x: np.flip(x))
        for a in axes_lists(d):
            add("FLIP", [a], lambda x, a=a: np.flip(x, a))
        if d >= 2:
            add("FLIP", [0, -1], lambda x: np.flip(x, (0, -1)))
            add("FLIP", [1, 0], lambda x: np.flip(x, (1, 0)))
            add("FLIP", [0, 0], lambda x: np.flip(x, (0, 0)))
        add("FLIP", [d], lambda x: np.flip(x, d))
        add("FLIP", [-d - 1], lambda x: np.flip(x, -d - 1))

        # rot90
        planes = [(0, 1)]
        if d >= 2:
            planes += [(1, 0), (-1, 0), (0, -1)]
        if d >= 3:
            planes += [(0, 2), (2, 1), (-1, -3)]
        if d < 2:
            planes = []
        for (a, b) in planes:
            for kk in range(-3, 5):
                if (a, b) != (0, 1) and kk not in (-1, 1, 2, 3):
                    continue
                add("ROT90", [kk, a, b], lambda x, kk=kk, a=a, b=b: np.rot90(x, kk, (a, b)))
        for (a, b) in [(0, 0), (1, 1), (1, d), (d, 1), (0, d), (-d - 1, 1), (0, 2)]:
            add("ROT90", [1, a, b], lambda x, a=a, b=b: np.rot90(x, 1, (a, b)))

        # diagonal
        for off in ([0, 1, -1, 2, -2, 3, -3, 10, -10] if d >= 2 else [0]):
            add("DIAGONAL", [off, 0, 1], lambda x, o=off: np.diagonal(x, o, 0, 1))
        extra = [(1, 0), (-1, -2)] if d >= 2 else []
        if d >= 3:
            extra += [(0, 2), (2, 0), (1, -1), (-1, 0), (2, 1)]
        for (a, b) in extra:
            for off in [0, 1, -1]:
                add("DIAGONAL", [off, a, b], lambda x, o=off, a=a, b=b: np.diagonal(x, o, a, b))
        for (a, b) in [(0, 0), (0, d), (d, 0), (-d - 1, 0), (-1, d - 1)]:
            add("DIAGONAL", [0, a, b], lambda x, a=a, b=b: np.diagonal(x, 0, a, b))

        # ravel: a view only for C-contiguous inputs
        x0, _, _ = make_input(lay, 1)
        if x0.flags.c_contiguous:
            add("RAVEL", [], lambda x: np.ravel(x))


def factorizations(n, parts):
    """Ordered factorizations of n into `parts` factors (n > 0)."""
    if parts == 1:
        return [(n,)]
    out = []
    for f in range(1, n + 1):
        if n % f == 0:
            for rest in factorizations(n // f, parts - 1):
                out.append((f,) + rest)
    return out


def gen_reshape(cases):
    for li, lay in enumerate(LAYOUTS):
        shape = lay[1]
        size = int(np.prod(shape))
        k = 0
        targets = [(size,), (-1,), tuple(reversed(shape)), (1,) + shape, shape + (1,), shape]
        if size > 0:
            for parts in (2, 3):
                fs = factorizations(size, parts)
                targets += fs[:: max(1, len(fs) // 6)]
            targets += [(-1, 1), (1, -1), (2, -1), (-1, 2, 1)]
        else:
            targets += [(0,), (0, 5), (5, 0, 1), (-1, 0), (0, -1), (2, -1)]
        targets += [(size + 1,), (-1, -1), (5,), (-1, 5), (2, -1, 5), (size, 2)]
        seen = set()
        for t in targets:
            if t in seen:
                continue
            seen.add(t)
            x, _, _ = make_input(lay, 1)
            try:
                np.reshape(x, t, copy=False)
            except ValueError as e:
                if "avoid creating a copy" in str(e):
                    continue  # NumPy copies: a device test (tests/test_manipulation.c)
            except Exception:
                pass
            cases.extend(run_case(Case("RESHAPE", lay, itemsize_for(li + k), t),
                                  lambda x, t=t: np.reshape(x, t, copy=False)))
            k += 1


def gen_split(cases):
    for li, lay in enumerate(LAYOUTS):
        d = len(lay[1])
        k = 0

        def add(op, params, fn):
            nonlocal k
            cases.extend(run_case(Case(op, lay, itemsize_for(li + k), params,
                                       npieces=npieces(op, params)), fn))
            k += 1

        def npieces(op, params):
            if op in ("SPLIT", "ARRAY_SPLIT", "HSPLIT", "VSPLIT"):
                return max(int(params[0]), 0)
            return len(params)  # SPLIT_AT: axis, n indices -> n + 1 pieces

        def np_split(x, s, a):
            try:
                x.shape[a]
            except IndexError:  # NumPy's IndexError; gpuarr answers as normalize_axis_index
                np.lib.array_utils.normalize_axis_index(a, x.ndim)
            return np.split(x, s, a)

        def np_array_split(x, s, a):
            try:
                x.shape[a]
            except IndexError:
                np.lib.array_utils.normalize_axis_index(a, x.ndim)
            return np.array_split(x, s, a)

        axes = [0, 1, -1, d, -d - 1] if d >= 2 else [0, -1, d, -d - 1]
        for a in axes:
            for s in [1, 2, 3, 4]:
                add("SPLIT", [s, a], lambda x, s=s, a=a: np_split(x, s, a))
        for a in axes[:3]:
            for s in ([2, 3, 5] if a == 0 else [2, 3]):
                add("ARRAY_SPLIT", [s, a], lambda x, s=s, a=a: np_array_split(x, s, a))
        add("ARRAY_SPLIT", [0, 0], lambda x: np_array_split(x, 0, 0))
        add("ARRAY_SPLIT", [-1, 0], lambda x: np_array_split(x, -1, 0))
        add("ARRAY_SPLIT", [2, d], lambda x: np_array_split(x, 2, d))
        for a in axes[:2] + [d]:
            for idx in ([[1], [1, 2], [0, 10], [2, 2], [-1], []] if a == 0 else [[1, 2], [0, 10]]):
                add("SPLIT_AT", [a] + idx, lambda x, idx=idx, a=a: np_split(x, idx, a))
        for s in [1, 2, 3]:
            add("HSPLIT", [s], lambda x, s=s: np.hsplit(x, s))
            add("VSPLIT", [s], lambda x, s=s: np.vsplit(x, s))


# --------------------------------------------------------------------------
# Output


def c_string(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "?":
            out.append("\\?")  # no trigraphs
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append("\\%03o" % ord(ch))
    return '"' + "".join(out) + '"'


def c_array(vals, n):
    vals = list(vals)
    assert len(vals) <= n
    return "{" + ", ".join(str(int(v)) for v in vals) + "}" if vals else "{0}"


def write(cases):
    counts = {}
    for c in cases:
        counts[c.op] = counts.get(c.op, 0) + 1
    nerr = sum(1 for c in cases if c.status != "GA_OK")
    L = []
    L.append("/*")
    L.append(f" * view_cases.h - generated by tools/gen_view_cases.py from NumPy {np.__version__}.")
    L.append(" * DO NOT EDIT BY HAND: change the script and rerun `python3 tools/gen_view_cases.py`.")
    L.append(" *")
    L.append(" * NumPy's answers for gpuarr's view functions: each case is an input layout")
    L.append(" * (shape, byte strides, item size, byte offset of its first element in a")
    L.append(" * base buffer of base_nbytes bytes), an operation with its integer")
    L.append(" * parameters (and, for indexing, the index text and its ga_index_item")
    L.append(" * form), and NumPy's result: shape, byte strides, byte offset of the first")
    L.append(" * element from the buffer's start, flags; or the status to expect and")
    L.append(" * NumPy's message (\"\" where only the status and the function name are")
    L.append(" * checked: broadcast_to's broadcast errors, text that is not an index).")
    L.append(" *")
    L.append(" * Parameters by op:")
    L.append(" *   INDEX        none (the text; items/nitems, nitems -1 for rejected text)")
    L.append(" *   TRANSPOSE    the axes permutation (nparams 0: axes NULL)")
    L.append(" *   PERMUTE_DIMS the axes permutation")
    L.append(" *   SWAPAXES     axis1, axis2")
    L.append(" *   MOVEAXIS     n, source[n], destination[n]")
    L.append(" *   SQUEEZE, EXPAND_DIMS, FLIP   the axes (nparams 0: all / none given)")
    L.append(" *   BROADCAST_TO, RESHAPE        the shape")
    L.append(" *   ROT90        k, axis1, axis2")
    L.append(" *   DIAGONAL     offset, axis1, axis2")
    L.append(" *   SPLIT, ARRAY_SPLIT           sections, axis")
    L.append(" *   SPLIT_AT     axis, indices[nparams - 1]")
    L.append(" *   HSPLIT, VSPLIT               sections")
    L.append(" * Split cases name the piece they check (piece) and how many pieces the")
    L.append(" * call makes (npieces, the out array's length); piece -1 for an error.")
    L.append(" *")
    L.append(" * Deviations from NumPy's exceptions, on purpose: numpy.split/array_split")
    L.append(" * raise IndexError('tuple index out of range') for an axis out of range;")
    L.append(" * the cases expect GA_ERROR_AXIS with the usual AxisError text. np.flip of")
    L.append(" * a 0-d array returns a scalar; the cases expect the 0-d view itself.")
    L.append(" * Result offsets of empty results are NumPy's but not meaningful (the test")
    L.append(" * skips them).")
    L.append(" *")
    L.append(f" * {len(cases)} cases ({nerr} errors):")
    for name, _ in OPS:
        L.append(f" *   {name:<13} {counts.get(name, 0)}")
    L.append(" */")
    L.append("")
    L.append("#ifndef VIEW_CASES_H")
    L.append("#define VIEW_CASES_H")
    L.append("")
    L.append("#include <stdint.h>")
    L.append('#include "gpuarr.h"')
    L.append("")
    L.append(f"#define VIEW_CASE_MAXD {MAXD}")
    L.append(f"#define VIEW_CASE_MAXP {MAXP}")
    L.append("")
    L.append("typedef enum view_op {")
    for name, _ in OPS:
        L.append(f"    VIEW_OP_{name},")
    L.append("    VIEW_OP_COUNT")
    L.append("} view_op;")
    L.append("")
    L.append("/* The gpuarr function of each op. */")
    L.append("static const char *const view_op_func[VIEW_OP_COUNT] = {")
    L.append("    " + ", ".join(c_string(f) for _, f in OPS))
    L.append("};")
    L.append("")
    L.append("typedef struct view_case {")
    L.append("    int op;                     /* view_op */")
    L.append("    const char *index;          /* VIEW_OP_INDEX: the index text, else NULL */")
    L.append("    const ga_index_item *items; /* VIEW_OP_INDEX: the same index as items, or NULL */")
    L.append("    int nitems;                 /* -1 when the text is not an index */")
    L.append("    int nparams;")
    L.append("    int64_t params[VIEW_CASE_MAXP];")
    L.append("    int piece, npieces;         /* split ops */")
    L.append("    /* the input */")
    L.append("    const char *layout;         /* what the layout is */")
    L.append("    int ndim;")
    L.append("    int64_t shape[VIEW_CASE_MAXD];")
    L.append("    int64_t strides[VIEW_CASE_MAXD];")
    L.append("    int itemsize;")
    L.append("    int64_t offset;             /* of the first element, in the base buffer */")
    L.append("    int64_t base_nbytes;")
    L.append("    int in_flags;               /* NumPy's flags of the input */")
    L.append("    /* NumPy's answer */")
    L.append("    int status;                 /* GA_OK or the error to expect */")
    L.append("    const char *message;        /* NumPy's message (\"\": not checked) */")
    L.append("    int out_ndim;")
    L.append("    int64_t out_shape[VIEW_CASE_MAXD];")
    L.append("    int64_t out_strides[VIEW_CASE_MAXD];")
    L.append("    int64_t out_offset;         /* from the base buffer's start */")
    L.append("    int out_flags;              /* GA_C_CONTIGUOUS | GA_F_CONTIGUOUS | GA_WRITEABLE */")
    L.append("} view_case;")
    L.append("")
    # index item arrays
    for i, c in enumerate(cases):
        if c.op == "INDEX" and c.items:
            L.append(f"static const ga_index_item view_items_{i}[] = {{{', '.join(c.items)}}};")
    L.append("")
    L.append("static const view_case view_cases[] = {")
    for i, c in enumerate(cases):
        name, shape, st_items, off = c.layout
        st = [s * c.itemsize for s in st_items]
        if c.op == "INDEX":
            text = c_string(c.text)
            if c.items is None:
                items, nitems = "NULL", -1
            elif c.items:
                items, nitems = f"view_items_{i}", len(c.items)
            else:
                items, nitems = "NULL", 0
        else:
            text, items, nitems = "NULL", "NULL", 0
        if c.result:
            rshape, rstrides, roff, rflags = c.result
        else:
            rshape, rstrides, roff, rflags = (), (), 0, 0
        assert len(c.params) <= MAXP
        L.append(f"    /* {i} */ {{VIEW_OP_{c.op}, {text}, {items}, {nitems}, {len(c.params)}, "
                 f"{c_array(c.params, MAXP)}, {c.piece}, {c.npieces},")
        L.append(f"        {c_string(name)}, {len(shape)}, {c_array(shape, MAXD)}, {c_array(st, MAXD)}, "
                 f"{c.itemsize}, {off * c.itemsize}, {c.base_nbytes}, {c.in_flags},")
        L.append(f"        {c.status}, {c_string(c.message)}, {len(rshape)}, {c_array(rshape, MAXD)}, "
                 f"{c_array(rstrides, MAXD)}, {roff}, {rflags}}},")
    L.append("};")
    L.append("")
    L.append("#define VIEW_CASE_COUNT ((int)(sizeof view_cases / sizeof view_cases[0]))")
    L.append("")
    L.append("#endif")
    text = "\n".join(L) + "\n"
    with open(OUT_PATH, "w") as f:
        f.write(text)
    return counts, nerr


def main():
    cases = []
    gen_index(cases)
    gen_simple(cases)
    gen_reshape(cases)
    gen_split(cases)
    order = {name: i for i, (name, _) in enumerate(OPS)}
    cases.sort(key=lambda c: order[c.op])  # stable: grouped by op, generation order inside
    counts, nerr = write(cases)
    print(f"wrote {os.path.normpath(OUT_PATH)}: {len(cases)} cases, {nerr} errors")
    for name, _ in OPS:
        print(f"  {name:<13} {counts.get(name, 0)}")


if __name__ == "__main__":
    main()
