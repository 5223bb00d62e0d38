"""gpuarr's dtypes, for the table generators (tools/gen_*.py).

DTYPE_NAMES lists them in gpuarr.h's enum order (GA_DTYPE_LIST), which the
indices of every generated table follow; ITEMSIZE gives each one's size in
bytes, DTYPE_CODES one character each (NumPy's type characters, with 'q'
and 'Q' for the 64-bit integers and 'E' for bfloat16, which has none).
numpy_dtype() is the NumPy dtype of a name: bfloat16 is ml_dtypes', which
is imported only when it is asked for. GA_ENUM names each one's enumerator
(GA_FLOAT32); c_bytes() and c_str() write bytes and text as C string
literals.

The project's bfloat16 rule, "bfloat16 behaves like float16", asks NumPy
the same question with float16 in place of bfloat16 (as_float16) and maps
a float16 answer back to bfloat16 (as_bfloat16).
"""

import functools

import numpy as np

DTYPE_NAMES = [
    "bool", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64",
    "complex64", "complex128",
]
ITEMSIZE = dict(zip(DTYPE_NAMES, [1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16]))
DTYPE_CODES = "?bhiqBHIQeEfdFD"

GA_ENUM = {name: "GA_" + name.upper() for name in DTYPE_NAMES}

F16 = np.dtype(np.float16)


def c_bytes(b):
    """A C string literal of the bytes b: printable ASCII as it is (but '?',
    against trigraphs), \\n, and octal escapes for the others."""
    out = []
    for x in b:
        c = chr(x)
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 32 <= x < 127 and c != "?":
            out.append(c)
        else:
            out.append("\\%03o" % x)
    return '"' + "".join(out) + '"'


def c_str(s):
    """A C string literal of the text s (UTF-8), or NULL for None."""
    return "NULL" if s is None else c_bytes(s.encode("utf-8"))


@functools.lru_cache(maxsize=None)
def numpy_dtype(name):
    """NumPy's dtype of the gpuarr dtype `name`."""
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def numpy_dtypes():
    """NumPy's dtypes of DTYPE_NAMES, in order."""
    return [numpy_dtype(n) for n in DTYPE_NAMES]


def dtype_index(dt):
    """Index of a NumPy dtype in DTYPE_NAMES."""
    return numpy_dtypes().index(np.dtype(dt))


def as_float16(dt):
    """float16 in place of bfloat16, any other dtype as it is."""
    return F16 if dt == numpy_dtype("bfloat16") else dt


def as_bfloat16(dt):
    """A float16 answer mapped back to bfloat16, any other as it is."""
    return numpy_dtype("bfloat16") if dt == F16 else dt
