#!/usr/bin/env python3
"""Writes tests/text_cases.h: the text mode of ndarray.tofile and
numpy.fromfile as NumPy runs it, for test_io's host tests of gpuarr's text
formatting and parsing (ga__pyfmt_compile, ga__text_format, ga__text_read)
and its device tests of ga_tofile / ga_fromfile.

- write cases: arrays of every dtype (bfloat16 through ml_dtypes) written
  with a separator and a format (none, or Python %-formats of every
  conversion and flag); the file's text, or Python's error with the text
  NumPy had written before it;
- read cases: texts (the write cases' own, and texts that probe NumPy's
  reader: blanks, signs, overflow, nan/inf spellings, separators, cut
  numbers, complex forms) read with a separator and a count; the values
  read, or NumPy's error.

    python3 tools/gen_text_cases.py > tests/text_cases.h

Deterministic (fixed seeds); NumPy 2 with ml_dtypes is the oracle, and the
Python that runs it writes the %-formats' errors (Python 3.11 here)."""
import os
import sys
import tempfile

import ml_dtypes
import numpy as np

from gadtypes import GA_ENUM as GA, c_bytes, c_str

DTYPES = [np.dtype(ml_dtypes.bfloat16) if n == "bfloat16" else np.dtype(n) for n in GA]
ERRORS = {"TypeError": "GA_ERROR_TYPE", "ValueError": "GA_ERROR_VALUE", "UnicodeEncodeError": "GA_ERROR_VALUE",
          "OverflowError": "GA_ERROR_OVERFLOW"}
TMP = os.path.join(tempfile.mkdtemp(), "t.txt")


def values(dt, rng):
    """Arrays of dtype dt for the write cases."""
    k = dt.kind if dt.name != "bfloat16" else "f"
    if k == "b":
        return [np.array([True, False, True]), rng.integers(0, 2, 40).astype(bool)]
    if k in "iu":
        info = np.iinfo(dt)
        return [np.array([0, 1, 65, info.max, info.min], dt), np.array([7], dt),
                rng.integers(info.min, info.max, 60, endpoint=True, dtype=dt)]
    if k == "c":
        f = np.float32 if dt == np.complex64 else np.float64
        re = np.array([1, -0.0, 0.0, 0.0, np.nan, -np.nan, np.inf, 0.1, 1e16, 1e-5, 2.5, -np.inf], f)
        im = np.array([2, -1, -0.0, 1, 1, -np.nan, -np.inf, 0, 1e-5, 1e20, -0.0, np.nan], f)
        r = (rng.standard_normal(30) * 10.0 ** rng.integers(-9, 12, 30)).astype(f)
        i = (rng.standard_normal(30) * 10.0 ** rng.integers(-9, 12, 30)).astype(f)
        return [_complex(re, im, dt), _complex(r, i, dt)]
    special = np.array([0.0, -0.0, 1.5, 0.1, 1e20, 1e16, 9999999999999998.0, 1e-4, 9.99e-5, 1e-5, 123456789.0, np.nan, -np.nan,
                        np.inf, -np.inf, 65504.0, 3.140625, 2.5, -2.5, 0.5, 1e-300, 5e-324])
    with np.errstate(all="ignore"):
        out = [special.astype(dt), (rng.standard_normal(60) * 10.0 ** rng.integers(-12, 18, 60)).astype(dt)]
    if dt == np.float64:
        out.append(np.ldexp(1.0, np.arange(-1074, 1024)))  # (their shortest digits: the gap above is twice the gap below)
    return out


def _complex(re, im, dt):
    z = np.empty(len(re), dt)
    z.real, z.imag = re, im
    return z


FORMATS = [None, "%s", "%r", "%a", "%d", "%i", "%u", "%5.2f", "%e", "%g", "%G", "%E", "%F", "%.0f", "%#.3g", "%+.3e",
           "% f", "%010.3f", "%-12g|", "%x", "%#X", "%#o", "%+08.3d", "%-6s|", "%.2s", "%c", "[%10.3E]", "%%%d%%", "%ld",
           "%hd", "%Lf", "%#x", "%.3x", "%05d", "%#5.2g", "% d", "%+x", "%-#8x|", "%#.0o", "%.0d", "% 5s", "%05s", "%05c", "x"]
BAD_FORMATS = ["%", "%q", "%d %d", "abc", "%(a)d", "%*d", "%.*f", "%5%", "%1$d", "%ll d", "%-", "%5", "%.", "%*",
               "%99999999999999999999d", "%.99999999999f"]


def write_case(a, sep, fmt):
    """NumPy's tofile of a: its text, and its error (None, or (type, message)).
    Where an element's text is not ASCII (%c of 128 or more) NumPy 2.4 crashes
    (convert.c uses PyUnicode_AsASCIIString's NULL); NumPy 2.5 raises the
    UnicodeEncodeError, with the elements before it written: that is given."""
    items = a.tolist()
    for k, item in enumerate(items if fmt is not None else []):
        try:
            (fmt % item).encode("ascii")
        except UnicodeEncodeError as e:
            return "".join(fmt % x + sep for x in items[:k]).encode(), ("UnicodeEncodeError", str(e))
        except Exception:  # noqa: BLE001 (NumPy's own error, below)
            break
    err = None
    try:
        if fmt is None:
            a.tofile(TMP, sep=sep)
        else:
            a.tofile(TMP, sep=sep, format=fmt)
    except Exception as e:  # noqa: BLE001 (NumPy's and Python's errors are the data)
        err = (type(e).__name__, str(e))
    with open(TMP, "rb") as f:
        return f.read(), err


def write_cases():
    rng = np.random.default_rng(3)
    out = []
    for dt in DTYPES:
        for i, a in enumerate(values(dt, rng)):
            seps = [" ", ", ", "\n", " | "] if i == 0 else ["\n"]
            for sep in seps:
                out.append((a, sep, None))
            if len(a) > 100:
                continue
            for fmt in FORMATS + (BAD_FORMATS if i == 0 else []):
                out.append((a, " ", fmt))
    # %#g where rounding carries to a new power of ten (glibc's printf drops a digit there)
    for fmt in ("%#.3g", "%#.2G", "%.3g", "%#g"):
        out.append((np.array([999.6, 99.96, 9.996, -99.6, 0.09996, 9.9996e-5, 1e-5, 0.0, 123456.0]), " ", fmt))
    # %c's range: chr() of 0 .. 0x10ffff, ASCII only in NumPy's text
    for v in ([65, 0x7f], [65, 200], [66, -1], [67, 0x110000], [68, 0x10000], [69, 0x10ffff]):
        out.append((np.array(v, np.int64), ",", "<%3c>"))
        out.append((np.array(v, np.int64), ",", "%-3c|"))
    return out


READ_TEXTS = [
    b"1 2 3", b"1 2 x 3", b"1,2,,3", b"1 , 2 ,3 ,", b"1e 2", b"True False", b"1 0 2.5 nan", b"(1+2j) (3-1j)",
    b"1+2j 3-1j 1j 5", b"1+j 3", b"1+2 3", b"1+2j", b"1+2", b"300 -1 99999999999999999999",
    b"-1 99999999999999999999 -99999999999999999999 18446744073709551615 18446744073709551616",
    b"4294967296 -2147483649 2147483648 65536 -32769 256", b"1.5 2", b"+5 -0", b"0x10", b"+ 5", b"5e3", b"1 -", b"1 +",
    b"nan -nan inf -Infinity +inf NaN(abc) infin nAn INF", b"nan(", b"nan(a_1", b"nan(a-1)", b"na", b"in", b"infx",
    b"0.1 1e40 65520 65519.99", b"", b"   ", b"\n", b"1 2\n", b"1,2, ", b"1,2,\n", b"1,", b"1\t2\x0b3\x0c4\r5",
    b"1" + b"0" * 130 + b" 2", b"1" + b"0" * 119 + b" 2", b"0." + b"0" * 117 + b"12 2", b".5 5. . 1", b"-", b"1.e5", b"1e+",
    b"1e+5x", b"3.4028235677973366e38 3.4028235677973367e38 1e-46", b"1, 2", b"1 ,2", b"1,2", b"1;2", b"1;;2", b"1; ;2",
    b"1x 2", b"1 x2", b"1x2x", b"1 +2j", b"j", b"1jx", b"1+2jj", b"1e400+1j", b"nan+infj -inf-nanj", b"2j 3J",
    b"1.5j-2", b"-0 -0.0", b"1\xff2", b"  7  8  ", b"1 2 3 4 5 6 7 8 9 10",
]
READ_SEPS = [" ", ",", ", ", " , ", "\n", ";;", "x", "x ", "  \t "]


def read_case(text, dt, sep, count):
    with open(TMP, "wb") as f:
        f.write(text)
    try:
        return np.fromfile(TMP, dtype=dt, count=count, sep=sep), None
    except Exception as e:  # noqa: BLE001
        return None, (type(e).__name__, str(e))


def read_cases(writes):
    out = []
    readable = [dt for dt in DTYPES if dt.name != "bfloat16"]
    for text in READ_TEXTS:
        for dt in readable:
            wide = dt in (np.dtype("float64"), np.dtype("int32"))  # (every separator and count; the others two)
            for sep in READ_SEPS if wide else [" ", ","]:
                for count in ([-1, 0, 1, 2, 3] if wide and sep in (" ", ",") else [-1] if sep == "," or wide else [-1, 2]):
                    out.append((text, dt, sep, count))
    # what NumPy wrote, read back (bool and complex fail: "True", "(1+2j)")
    for a, sep, fmt in writes:
        if fmt is None and a.dtype.name != "bfloat16":
            text, _ = write_case(a, sep, None)
            out.append((text, a.dtype, sep, -1))
    out.append((b"1.5", np.dtype(ml_dtypes.bfloat16), " ", -1))
    return out


def main():
    w = sys.stdout
    writes = write_cases()
    w.write(f"/* Generated by tools/gen_text_cases.py with NumPy {np.__version__}, ml_dtypes {ml_dtypes.__version__} and "
            f"Python {sys.version.split()[0]}:\n   ndarray.tofile and numpy.fromfile in text mode (sep != \"\"). */\n")
    w.write("typedef struct text_write_case { ga_dtype dtype; int n; const char *bytes, *sep, *format; int len; "
            "const char *text; ga_status error; const char *message; } text_write_case;\n")
    w.write("static const text_write_case text_write_cases[] = {\n")
    for a, sep, fmt in writes:
        text, err = write_case(a, sep, fmt)
        code, msg = (ERRORS[err[0]], c_str(err[1])) if err else ("GA_OK", "NULL")
        w.write(f"    {{{GA[a.dtype.name]}, {a.size}, {c_bytes(a.tobytes())}, {c_str(sep)}, {c_str(fmt)},\n"
                f"     {len(text)}, {c_bytes(text)}, {code}, {msg}}},\n")
    w.write("};\n\n")
    w.write("typedef struct text_read_case { ga_dtype dtype; int len; const char *text, *sep; int64_t count; int n; "
            "const char *bytes, *message; } text_read_case;\n")
    w.write("static const text_read_case text_read_cases[] = {\n")
    for text, dt, sep, count in read_cases(writes):
        a, err = read_case(text, dt, sep, count)
        n, data = (-1, b"") if err else (a.size, a.tobytes())
        w.write(f"    {{{GA[dt.name]}, {len(text)}, {c_bytes(text)}, {c_str(sep)}, {count}, {n}, {c_bytes(data)}, "
                f"{c_str(err[1]) if err else 'NULL'}}},\n")
    w.write("};\n")


if __name__ == "__main__":
    main()
