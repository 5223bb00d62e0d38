#!/usr/bin/env python3
"""Generate tests/numpy_tables.h: reference tables taken from NumPy.

NumPy 2 (plus ml_dtypes for bfloat16) is the oracle for gpuarr's dtype rules
and conversion behaviour.  This script asks it for:

  1. numpy_promote_types[15][15]   np.promote_types(a, b)
  2. numpy_can_cast[5][15][15]     np.can_cast(a, b, casting=mode)
  3. numpy_weak_result[15][4],     NEP 50 promotion of an array with a Python
     numpy_weak_only[4]            scalar, and of a lone Python scalar
  4. cast_special_*                float64/float32/float16 -> integer casts of
                                   NaN, infinities and out-of-range values
  5. round_*                       float64/float32/int64 -> float16/bfloat16
                                   (and int64 -> float32) rounding

and writes them as a C11/C++ compatible header.  Every entry comes from NumPy
except a few bfloat16 entries where ml_dtypes gives no answer or a surprising
one; those follow the project rule "bfloat16 behaves like float16" (see
the bf16_* functions below) and are listed on stdout and in the header.

Run from the repository root:  python3 tools/gen_tables.py
The output is deterministic, so a rerun regenerates the header byte for byte.
"""

import math
import os
import platform
import sys

import ml_dtypes
import numpy as np

from gadtypes import DTYPE_NAMES, F16, as_bfloat16, as_float16, dtype_index, numpy_dtype, numpy_dtypes

OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        os.pardir, "tests", "numpy_tables.h")

# Table indices follow DTYPE_NAMES (gpuarr's enum order) exactly.
DTYPES = numpy_dtypes()
BF16 = numpy_dtype("bfloat16")
INT_TARGETS = DTYPES[1:9]  # int8 .. uint64, the rows of cast_special_*

CASTING_MODES = ["no", "equiv", "safe", "same_kind", "unsafe"]

# Python scalars used for weak (NEP 50) promotion, by kind.
WEAK_KINDS = ["bool", "int", "float", "complex"]
WEAK_SCALARS = [True, 1, 1.0, 1j]


# --------------------------------------------------------------------------
# Project rules for bfloat16, used where ml_dtypes has no (or an odd) answer.
# They all read: "bfloat16 behaves like float16", i.e. ask NumPy the same
# question with float16 in place of bfloat16 and map a float16 answer back
# to bfloat16.  float16 and bfloat16 together need their own rule.
# --------------------------------------------------------------------------

def bf16_promote_rule(a, b):
    """promote_types for a pair involving bfloat16."""
    if {a, b} == {F16, BF16}:
        return np.dtype(np.float32)  # smallest float holding both
    return as_bfloat16(np.promote_types(as_float16(a), as_float16(b)))


def bf16_can_cast_rule(src, dst, mode):
    """can_cast for a pair involving bfloat16."""
    if {src, dst} == {F16, BF16}:
        # Neither holds the other: same_kind but not safe, in both directions.
        return mode in ("same_kind", "unsafe")
    return bool(np.can_cast(as_float16(src), as_float16(dst), casting=mode))


def bf16_weak_rule(kind):
    """result_type(bfloat16 array, Python scalar of the given kind)."""
    res = np.result_type(np.empty(1, F16), WEAK_SCALARS[kind])
    return as_bfloat16(res)


def ask(fn, *args, **kwargs):
    """Call an oracle function; None if NumPy refuses to answer."""
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError):  # DTypePromotionError is a TypeError
        return None


class RuleLog:
    """Collects the entries where a project rule replaced the oracle."""

    def __init__(self):
        self.entries = []

    def resolve(self, what, oracle, rule):
        """The oracle's answer, or the rule's where it is absent or differs."""
        if oracle is not None and oracle == rule:
            return oracle
        said = "no answer" if oracle is None else "said %s" % (oracle,)
        self.entries.append("%s = %s  (oracle %s)" % (what, rule, said))
        return rule


# --------------------------------------------------------------------------
# 1-3. Dtype tables
# --------------------------------------------------------------------------

def promote_table(log):
    table = []
    for a in DTYPES:
        row = []
        for b in DTYPES:
            res = ask(np.promote_types, a, b)
            if BF16 in (a, b):
                res = log.resolve("promote_types(%s, %s)" % (a, b), res,
                                  bf16_promote_rule(a, b))
            row.append(dtype_index(res))
        table.append(row)
    return table


def can_cast_table(log):
    table = []
    for mode in CASTING_MODES:
        plane = []
        for src in DTYPES:
            row = []
            for dst in DTYPES:
                res = ask(np.can_cast, src, dst, casting=mode)
                res = None if res is None else bool(res)
                if BF16 in (src, dst):
                    res = log.resolve(
                        "can_cast(%s, %s, %r)" % (src, dst, mode), res,
                        bf16_can_cast_rule(src, dst, mode))
                row.append(int(res))
            plane.append(row)
        table.append(plane)
    return table


def weak_result_table(log):
    table = []
    for dt in DTYPES:
        row = []
        for kind, scalar in enumerate(WEAK_SCALARS):
            res = ask(np.result_type, np.empty(1, dt), scalar)
            if dt == BF16:
                res = log.resolve(
                    "result_type(%s array, %s)" % (dt, WEAK_KINDS[kind]),
                    res, bf16_weak_rule(kind))
            row.append(dtype_index(res))
        table.append(row)
    return table


def weak_only_table():
    return [dtype_index(np.result_type(s)) for s in WEAK_SCALARS]


def bf16_weak_ufunc_notes():
    """What ufuncs actually return for bfloat16 array op Python scalar."""
    a = np.ones(1, BF16)
    return [(WEAK_KINDS[k], np.add(a, s).dtype, np.result_type(a, s))
            for k, s in enumerate(WEAK_SCALARS)]


# --------------------------------------------------------------------------
# 4. Float -> integer casts of special values
# --------------------------------------------------------------------------

CAST_SPECIAL_INPUTS = [
    math.nan, math.inf, -math.inf, 1e20, -1e20,
    -1.5, -0.5, 0.5, 1.5, 2.5, 3e9, -3e9,
    float(2**31), float(-(2**31) - 1), float(2**32),
    float(2**63), float(-(2**63)), float(2**64),
    255.5, 256.0, -129.5, 300.7, 65535.9, 65536.0, -32769.0,
    1e-40, -0.0,
]


# NumPy's float -> integer loops take a SIMD path for the body of a long
# array and a scalar C path for short arrays and tails, and the two can
# disagree on invalid inputs (NaN, out of range).  Each value is therefore
# cast alone (a 1-element array: the scalar path) and inside a long array.
PROBE_LEN = 1027   # vector body plus a scalar tail


def astype_paths(value, src_dtype, dst_dtype):
    """(scalar-path result, other result) of casting one value.

    The second item equals the first unless NumPy's answer depends on
    where the value sits in an array; more than two answers is an error.
    """
    with np.errstate(all="ignore"):
        x = np.array([value], dtype=np.float64).astype(src_dtype)
        alone = x.astype(dst_dtype)[0]
        many = np.full(PROBE_LEN, x[0], dtype=src_dtype).astype(dst_dtype)
    seen = set(many.tolist()) | {alone.item()}
    if len(seen) > 2:
        raise RuntimeError("cast %r %s->%s gives %s"
                           % (value, src_dtype, dst_dtype, sorted(seen)))
    others = seen - {alone.item()}
    return alone.item(), (others.pop() if others else alone.item())


def to_u64(v):
    """Two's complement bit pattern of an integer, zero-extended to 64 bits."""
    return v & (2**64 - 1)


def cast_special_table(src_dtype):
    """Rows int8..uint64: (scalar-path bits, alternative bits) per input."""
    main, alt = [], []
    for dst in INT_TARGETS:
        pairs = [astype_paths(x, src_dtype, dst) for x in CAST_SPECIAL_INPUTS]
        main.append([to_u64(a) for a, _ in pairs])
        alt.append([to_u64(b) for _, b in pairs])
    return main, alt


# --------------------------------------------------------------------------
# 5. Rounding to float16 / bfloat16
# --------------------------------------------------------------------------

def _round_cases(finfo):
    """Interesting doubles around the representable values of a format."""
    p = finfo.nmant                 # explicit mantissa bits
    ulp1 = 2.0 ** -p                # spacing just above 1.0
    tiny = float(finfo.smallest_normal)
    sub = float(finfo.smallest_subnormal)
    big = float(finfo.max)
    big_ulp = big * ulp1 / (2.0 - ulp1)          # spacing at the top binade
    eps = 2.0 ** -40                # far below either format's precision
    return [
        1.0 + ulp1 / 2,             # tie -> even (1.0)
        1.0 + 3 * ulp1 / 2,         # tie -> even (1 + 2 ulp)
        1.0 + ulp1 / 2 - 2.0 ** -52,  # just below the tie
        1.0 + ulp1 / 2 + 2.0 ** -52,  # just above the tie
        1.0 + ulp1 / 2 + eps,       # double rounding trap via float32
        -(1.0 + 3 * ulp1 / 2),
        big,                        # max finite
        big + big_ulp / 2 - big_ulp / 64,  # just below overflow tie
        big + big_ulp / 2,          # tie at overflow -> inf
        -(big + big_ulp / 2),
        big * 2,                    # overflows
        tiny,                       # smallest normal
        tiny - sub / 2,             # tie between largest subnormal and tiny
        tiny - sub,                 # largest subnormal
        sub,                        # smallest subnormal
        sub / 2,                    # tie -> 0
        sub / 2 + sub / 64,         # just above tie -> smallest subnormal
        sub * 1.5,                  # tie -> 2 * sub
        sub * 2.5,                  # tie -> 2 * sub
        -sub * 1.5,
        sub / 4,                    # underflows to zero
        -sub / 4,                   # underflows to -0
        2.0 ** (p + 1) + 1,         # odd integer just past exact range
        2.0 ** (p + 1) + 3,
    ]


def round_inputs():
    vals = [0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf,
            1.0, -1.0, 0.1, 1.0 / 3, math.pi, 1e-8, 1e-45, 5e-324,
            1e300, -1e300, 3.5e38]
    vals += _round_cases(np.finfo(np.float16))
    vals += _round_cases(ml_dtypes.finfo(ml_dtypes.bfloat16))
    return vals


def bits_of(values, dtype, uint):
    """Bit patterns of values.astype(dtype), as Python ints.

    Also checks that a long array gives the same bits (see astype_paths).
    """
    values = np.asarray(values)
    with np.errstate(all="ignore"):
        short = values.astype(dtype).view(uint)
        long_ = np.repeat(values, 67).astype(dtype).view(uint)
    if not (np.repeat(short, 67) == long_).all():
        raise RuntimeError("%s -> %s depends on the array length"
                           % (values.dtype, np.dtype(dtype)))
    return [int(b) for b in short]


def round_i64_inputs():
    bf_p = ml_dtypes.finfo(ml_dtypes.bfloat16).nmant
    return [2**53 + 1, 2**63 - 1, -(2**63), 65519, 65520, 2**24 + 1,
            -65520, 65504, 2**24 + 3, 2049, 2051, 257, 259,
            2**32 + 2**(31 - bf_p) + 1,   # double rounding trap via float32
            0, -1]


# --------------------------------------------------------------------------
# C emission
# --------------------------------------------------------------------------

def c_double(x):
    """A C expression for a double (NAN/INFINITY come from <math.h>)."""
    if math.isnan(x):
        return "-NAN" if math.copysign(1.0, x) < 0 else "NAN"
    if math.isinf(x):
        return "-INFINITY" if x < 0 else "INFINITY"
    return repr(x)   # shortest round-tripping decimal; C rounds it exactly


def double_hex(x):
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return x.hex()


def double_bits(x):
    return int(np.array([x], dtype=np.float64).view(np.uint64)[0])


def c_ll(v):
    if v == -(2**63):
        return "(-9223372036854775807LL - 1)"
    return "%dLL" % v


def c_hex(v, digits):
    suffix = "ull" if digits > 8 else "u"
    return "0x%0*x%s" % (digits, v, suffix)


def comment(*text_lines):
    out = ["/*"]
    out += [(" * " + t).rstrip() for t in text_lines]
    out.append(" */")
    return out


def rows(items, per_line, indent):
    """Initializer lines holding items, per_line to a line."""
    return [indent + ", ".join(items[i:i + per_line]) + ","
            for i in range(0, len(items), per_line)]


def c_array(decl, items, per_line=8):
    return ["static const %s = {" % decl] + rows(items, per_line, "    ") \
        + ["};"]


def c_commented_array(decl, items, notes):
    """One element per line, each followed by a comment."""
    width = max(len(s) for s in items) + 1
    return (["static const %s = {" % decl]
            + ["    %-*s /* %s */" % (width, s + ",", n)
               for s, n in zip(items, notes)]
            + ["};"])


def matrix_rows(table, row_names, col_names, indent):
    """Rows of a small integer matrix, labelled with dtype names."""
    head = " ".join("%3s" % c[:3] for c in col_names)
    out = ["%s/* %-10s   %s */" % (indent, "", head)]
    for name, row in zip(row_names, table):
        out.append("%s/* %-10s */ {%s}," % (
            indent, name, ",".join("%3d" % v for v in row)))
    return out


def emit_dtype_tables(t):
    dn = DTYPE_NAMES
    L = comment(
        "bfloat16 rule: where ml_dtypes gives no answer or one out of line",
        "with float16, bfloat16 behaves like float16 (promotion with",
        "integers, casting, weak Python scalars); float16 with bfloat16",
        "promotes to float32, and casts between them are same_kind but not",
        "safe.  Entries set by that rule instead of the oracle:",
        *["  " + e for e in t["log"].entries])
    L.append("")

    L += comment("np.promote_types(dtype[i], dtype[j]) as a dtype index.")
    L.append("static const signed char numpy_promote_types[15][15] = {")
    L += matrix_rows(t["promote"], dn, dn, "    ")
    L += ["};", ""]

    L += comment("np.can_cast(dtype[i], dtype[j], casting=mode) as 0/1; "
                 "the first index is", "the mode:",
                 *["  %d %s" % (i, m) for i, m in enumerate(CASTING_MODES)])
    L.append("static const signed char numpy_can_cast[5][15][15] = {")
    for mode, plane in zip(CASTING_MODES, t["can_cast"]):
        L.append("  { /* %s */" % mode)
        L += matrix_rows(plane, dn, dn, "    ")
        L.append("  },")
    L += ["};", ""]

    L += comment(
        "NEP 50 weak scalars: np.result_type(np.empty(1, dtype[i]), s) for a",
        "Python scalar s of kind 0 bool (True), 1 int (1), 2 float (1.0),",
        "3 complex (1j).  NumPy is not consistent for bfloat16 arrays:",
        *["  %-7s ufunc add -> %s, np.result_type -> %s" % n
          for n in t["bf16_weak_notes"]],
        "so the bfloat16 row follows the float16 rule (see above).")
    L.append("static const signed char numpy_weak_result[15][4] = {")
    L += matrix_rows(t["weak"], dn, WEAK_KINDS, "    ")
    L += ["};", ""]

    L += comment("np.result_type(s) for a lone Python scalar "
                 "(bool, int, float, complex).")
    L += c_array("signed char numpy_weak_only[4]",
                 ["%d" % v for v in t["weak_only"]])
    return L


def emit_cast_special(t):
    n = len(CAST_SPECIAL_INPUTS)
    L = comment(
        "Float -> integer casts of special values under",
        "np.errstate(all='ignore') on %s: cast_special_inputs[k] rounded"
        % t["machine"],
        "to the source type (float64, float32, float16), then astype(dst).",
        "Row r is dst = int8, int16, int32, int64, uint8, uint16, uint32,",
        "uint64 (dtype index r + 1); entries are the result's two's",
        "complement bits zero-extended to 64 bits.",
        "",
        "NumPy's answer for invalid inputs can depend on where the value sits",
        "in the array (SIMD body vs scalar loop).  cast_special_int* hold the",
        "result for a 1-element array (scalar C cast); the *_alt tables hold",
        "the result NumPy gives inside a long array and differ only where",
        "NumPy itself gives two answers:",
        *["  " + e for e in t["cast_varies"]])
    L.append("#define CAST_SPECIAL_N %d" % n)
    L += c_commented_array("double cast_special_inputs[CAST_SPECIAL_N]",
                           [c_double(x) for x in CAST_SPECIAL_INPUTS],
                           ["[%d]" % i for i in range(n)])
    L += comment("The inputs rounded to float32 / float16 (bit patterns).")
    L += c_bits_array("cast_special_inputs_f32_bits", "CAST_SPECIAL_N",
                      t["cast_special_f32_bits"], 32)
    L += c_bits_array("cast_special_inputs_f16_bits", "CAST_SPECIAL_N",
                      t["cast_special_f16_bits"], 16)
    for name, _ in CAST_SPECIAL_SOURCES:
        for suffix in ("", "_alt"):
            L.append("")
            L.append("static const unsigned long long %s%s[8][CAST_SPECIAL_N]"
                     " = {" % (name, suffix))
            for dst, row in zip(INT_TARGETS, t[name + suffix]):
                L.append("  { /* -> %s */" % dst)
                L += rows([c_hex(v, 16) for v in row], 4, "    ")
                L.append("  },")
            L.append("};")
    return L


def emit_rounding(t):
    rin = t["round_inputs"]
    L = comment(
        "Rounding: round_inputs[k] (float64; exact bits in round_inputs_bits)",
        "cast by astype() to float16 / bfloat16 directly (round_f16_bits,",
        "round_bf16_bits) and after a first cast to float32",
        "(round_f32_f16_bits, round_f32_bf16_bits); round_f32_bits is that",
        "intermediate float32.")
    L.append("#define ROUND_N %d" % len(rin))
    L += c_commented_array("double round_inputs[ROUND_N]",
                           [c_double(x) for x in rin],
                           ["[%d] %s" % (i, double_hex(x))
                            for i, x in enumerate(rin)])
    L += c_array("unsigned long long round_inputs_bits[ROUND_N]",
                 [c_hex(double_bits(x), 16) for x in rin], per_line=4)
    for name, width in (("round_f32_bits", 32), ("round_f16_bits", 16),
                        ("round_bf16_bits", 16), ("round_f32_f16_bits", 16),
                        ("round_f32_bf16_bits", 16)):
        L += c_bits_array(name, "ROUND_N", t[name], width)
    L.append("")

    iin = t["round_i64_inputs"]
    L += comment("int64 -> float16 / bfloat16 / float32 by astype() "
                 "(bit patterns).")
    L.append("#define ROUND_I64_N %d" % len(iin))
    L += c_commented_array("long long round_i64_inputs[ROUND_I64_N]",
                           [c_ll(v) for v in iin],
                           ["[%d]" % i for i in range(len(iin))])
    for name, width in (("round_i64_f16_bits", 16),
                        ("round_i64_bf16_bits", 16),
                        ("round_i64_f32_bits", 32)):
        L += c_bits_array(name, "ROUND_I64_N", t[name], width)
    return L


def c_bits_array(name, size, bits, width):
    """Bit patterns: unsigned int for 32-bit, unsigned short for 16-bit."""
    ctype = {32: "unsigned int", 16: "unsigned short"}[width]
    return c_array("%s %s[%s]" % (ctype, name, size),
                   [c_hex(b, width // 4) for b in bits])


def emit_header(t):
    L = comment(
        "numpy_tables.h - generated by tools/gen_tables.py from NumPy %s "
        "and ml_dtypes %s." % (np.__version__, ml_dtypes.__version__),
        "DO NOT EDIT BY HAND: change the script and rerun "
        "`python3 tools/gen_tables.py`.",
        "",
        "Dtype indices (gpuarr's C enum order):",
        *["  %2d %s" % (i, n) for i, n in enumerate(DTYPE_NAMES)])
    L += ["", "#ifndef NUMPY_TABLES_H", "#define NUMPY_TABLES_H", "",
          "#include <math.h> /* NAN, INFINITY */", ""]
    L += emit_dtype_tables(t)
    L.append("")
    L += emit_cast_special(t)
    L.append("")
    L += emit_rounding(t)
    L += ["", "#endif /* NUMPY_TABLES_H */", ""]
    return "\n".join(L)


# --------------------------------------------------------------------------

CAST_SPECIAL_SOURCES = [("cast_special_int", np.float64),
                        ("cast_special_int_from_f32", np.float32),
                        ("cast_special_int_from_f16", np.float16)]


def build_tables():
    log = RuleLog()
    t = {"log": log}
    t["promote"] = promote_table(log)
    t["can_cast"] = can_cast_table(log)
    t["weak"] = weak_result_table(log)
    t["weak_only"] = weak_only_table()
    t["bf16_weak_notes"] = bf16_weak_ufunc_notes()

    t["machine"] = platform.machine()
    t["cast_special_f32_bits"] = bits_of(CAST_SPECIAL_INPUTS, np.float32,
                                         np.uint32)
    t["cast_special_f16_bits"] = bits_of(CAST_SPECIAL_INPUTS, np.float16,
                                         np.uint16)
    t["cast_varies"] = []
    for name, src in CAST_SPECIAL_SOURCES:
        main, alt = cast_special_table(src)
        t[name], t[name + "_alt"] = main, alt
        for dst, mrow, arow in zip(INT_TARGETS, main, alt):
            for x, m, a in zip(CAST_SPECIAL_INPUTS, mrow, arow):
                if m != a:
                    t["cast_varies"].append(
                        "%s(%r) -> %s: 0x%x alone, 0x%x in a long array"
                        % (np.dtype(src), x, dst, m, a))

    rin = round_inputs()
    with np.errstate(all="ignore"):
        f32 = np.array(rin, dtype=np.float64).astype(np.float32)
    t["round_inputs"] = rin
    t["round_f32_bits"] = bits_of(rin, np.float32, np.uint32)
    t["round_f16_bits"] = bits_of(rin, np.float16, np.uint16)
    t["round_bf16_bits"] = bits_of(rin, ml_dtypes.bfloat16, np.uint16)
    t["round_f32_f16_bits"] = bits_of(f32, np.float16, np.uint16)
    t["round_f32_bf16_bits"] = bits_of(f32, ml_dtypes.bfloat16, np.uint16)

    iin = round_i64_inputs()
    i64 = np.array(iin, dtype=np.int64)
    t["round_i64_inputs"] = iin
    t["round_i64_f16_bits"] = bits_of(i64, np.float16, np.uint16)
    t["round_i64_bf16_bits"] = bits_of(i64, ml_dtypes.bfloat16, np.uint16)
    t["round_i64_f32_bits"] = bits_of(i64, np.float32, np.uint32)
    return t


def main():
    t = build_tables()
    with open(OUT_PATH, "w", newline="\n") as f:
        f.write(emit_header(t))
    print("wrote %s (NumPy %s, ml_dtypes %s)" % (
        os.path.normpath(OUT_PATH), np.__version__, ml_dtypes.__version__))
    print("%d entries set by the bfloat16 rule instead of the oracle:"
          % len(t["log"].entries))
    for e in t["log"].entries:
        print("  " + e)
    print("bfloat16 array with Python scalars (what NumPy really does):")
    for n in t["bf16_weak_notes"]:
        print("  %-7s ufunc add -> %s, np.result_type -> %s" % n)
    print("%d float->int casts where NumPy's answer depends on the array "
          "position:" % len(t["cast_varies"]))
    for e in t["cast_varies"]:
        print("  " + e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
