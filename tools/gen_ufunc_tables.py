#!/usr/bin/env python3
"""Generate tests/ufunc_tables.h: the output dtypes of gpuarr's ufuncs, from NumPy.

For every ufunc of gpuarr.h's lists (GA_UFUNC_UNARY_LIST, GA_UFUNC_BINARY_LIST,
GA_UFUNC_OTHER_LIST, parsed from the header) this script asks NumPy 2 (with
ml_dtypes for bfloat16) which dtype(s) the function returns, or whether it
refuses the inputs, for:

  - one input (unary ufuncs, modf, frexp, fix, sinc, round, nan_to_num,
    angle): an array of each of the 15 dtypes, and (true ufuncs only) a lone
    Python scalar of each kind;
  - two inputs (binary ufuncs, divmod, isclose): every pair of array dtypes,
    an array with a Python scalar on either side, and two Python scalars
    (true ufuncs only);
  - where(cond, x, y) with a bool array cond: the same cases over (x, y),
    and cond of every dtype with fixed x and y;
  - clip(a, lo, hi) with an array a: array bounds of every dtype (15**3),
    Python-scalar bounds, and one bound of each sort.

Python scalars are NEP 50's weak scalars: True, 1, 1.0 and 1j.  True ufuncs
are asked through ufunc.resolve_dtypes (Python int, float and complex stand
for weak scalars; it refuses Python bool, and a Python bool is NumPy's bool
dtype in promotion, so np.dtype(bool) stands for True).  Every answer is
cross-checked by calling the ufunc on small arrays, and disagreements are
reported.  NumPy functions that are not ufuncs (fix, sinc, round,
nan_to_num, angle, where, clip, isclose) are called on small arrays
(np.zeros((2,), dtype), ...) and the result's dtype is taken.  Any
exception is "error".

Project rules (gpuarr's answer replaces NumPy's, each replaced entry is listed
on stdout and in the header): see PROJECT_RULES below.

Suspected artifacts: the project's bfloat16 rule (tools/gen_tables.py) is
"bfloat16 behaves like float16".  Every entry with a bfloat16 input is
compared with the same question asked with float16 in its place (float32
when float16 is an input too, float16 with bfloat16 promoting to float32);
where NumPy's answer differs from that analogue, mapped back to bfloat16,
the entry is listed (uft_suspects in the header, and stdout) and takes the
analogue's answer: gpuarr follows its bfloat16 rule there (ml_dtypes has no
bfloat16 loop for clip, only an int32 exponent for ldexp, and promotes a
bfloat16 array with a Python float to float32).

Run from the repository root:  python3 tools/gen_ufunc_tables.py
The output is deterministic, so a rerun regenerates the header byte for byte.
"""

import itertools
import os
import re
import sys
import textwrap
import warnings

import ml_dtypes
import numpy as np

from gadtypes import DTYPE_CODES, DTYPE_NAMES, F16, as_bfloat16, dtype_index, numpy_dtype, numpy_dtypes

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
HEADER_PATH = os.path.join(ROOT, "gpuarr.h")
OUT_PATH = os.path.join(ROOT, "tests", "ufunc_tables.h")

# Table indices follow DTYPE_NAMES (gpuarr's enum order) exactly; an entry
# is the DTYPE_CODES character of a dtype.
DTYPES = numpy_dtypes()
BF16 = numpy_dtype("bfloat16")
F32 = np.dtype(np.float32)
BOOL = np.dtype(bool)
ERROR_CODE = "-"  # the entry of a refused call


class Weak:
    """A weak Python scalar of one kind (ga_scalar_kind order)."""

    def __init__(self, kind, value, ptype):
        self.kind, self.value, self.ptype = kind, value, ptype

    def __repr__(self):
        return repr(self.value)


WEAK = [Weak(0, True, bool), Weak(1, 1, int), Weak(2, 1.0, float),
        Weak(3, 1j, complex)]

# gpuarr's names that NumPy spells as functions rather than ufuncs.
NUMPY_FUNCTIONS = {
    "fix": np.fix, "sinc": np.sinc, "round": np.round,
    "nan_to_num": np.nan_to_num, "angle": np.angle,
    "where": np.where, "clip": np.clip, "isclose": np.isclose,
}

# where(): cond holds these values (in its dtype); uft_where_cond's entries
# use these x and y dtypes.
WHERE_COND = np.array([True, False])
WHERE_COND_XY = (np.dtype(np.float32), np.dtype(np.int8))


def code(dt):
    return DTYPE_CODES[dtype_index(dt)]


def describe_input(x):
    return repr(x) if isinstance(x, Weak) else str(x)


def describe(name, ins):
    """'add(int8, 1.0)': NumPy's call with dtypes for arrays."""
    return "%s(%s)" % (name, ", ".join(describe_input(x) for x in ins))


def describe_answer(ans):
    if ans is None:
        return "error"
    names = [str(d) for d in ans]
    return names[0] if len(names) == 1 else "(%s)" % ", ".join(names)


# --------------------------------------------------------------------------
# gpuarr's ufunc lists
# --------------------------------------------------------------------------

def parse_ufunc_lists(path):
    """[(ENUM, name, nin, nout, list)] from gpuarr.h's three X-macro lists."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for which, nin, nout in (("UNARY", 1, 1), ("BINARY", 2, 1), ("OTHER", None, None)):
        m = re.search(r"#define GA_UFUNC_%s_LIST\(X\)(.*?)\n\s*\n" % which, text, re.S)
        if not m:
            raise SystemExit("gpuarr.h: GA_UFUNC_%s_LIST not found" % which)
        for args in re.findall(r"\bX\(([^)]*)\)", m.group(1)):
            parts = [p.strip() for p in args.split(",")]
            if which == "OTHER":
                out.append((parts[0], parts[1], int(parts[2]), int(parts[3]), which))
            else:
                out.append((parts[0], parts[1], nin, nout, which))
    return out


# --------------------------------------------------------------------------
# Asking NumPy
# --------------------------------------------------------------------------

def numpy_callable(name):
    fn = NUMPY_FUNCTIONS.get(name)
    if fn is not None:
        return fn
    fn = getattr(np, name, None)
    if not isinstance(fn, np.ufunc):
        raise SystemExit("NumPy has no ufunc or function %r" % name)
    return fn


def call_args(name, ins):
    """Small arrays (and Python scalars) for calling a NumPy function."""
    args = []
    for i, x in enumerate(ins):
        if isinstance(x, Weak):
            args.append(x.value)
        elif name == "where" and i == 0:
            args.append(WHERE_COND.astype(x))  # cond: one true, one false
        elif i == 0:
            args.append(np.zeros((2,), x))
        else:
            args.append(np.ones((2,), x))
    return args


def ask_call(name, ins, nout):
    """Output dtypes of calling NumPy's function, or None if it raises."""
    fn = numpy_callable(name)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            res = fn(*call_args(name, ins))
    except Exception:  # TypeError, DTypePromotionError, UFuncTypeError, ...
        return None
    res = res if isinstance(res, tuple) else (res,)
    if len(res) != nout:
        raise SystemExit("%s returned %d results" % (describe(name, ins), len(res)))
    return tuple(np.asarray(r).dtype for r in res)


def ask_resolve(ufunc, ins):
    """ufunc.resolve_dtypes' output dtypes, or None if it raises."""
    sig = tuple(BOOL if isinstance(x, Weak) and x.ptype is bool
                else x.ptype if isinstance(x, Weak) else x for x in ins)
    try:
        res = ufunc.resolve_dtypes(sig + (None,) * ufunc.nout)
    except Exception:
        return None
    return tuple(res[ufunc.nin:])


class Oracle:
    """Answers questions, applies the project rules, records what it did."""

    def __init__(self):
        self.cross_check = []   # resolve_dtypes and a real call disagree
        self.ruled = []         # (description, rule, NumPy's answer, gpuarr's)
        self.suspects = []      # (description, NumPy's answer, the analogue's)
        self.entries = 0

    def numpy(self, name, ins, nout):
        """NumPy's own answer (no rules)."""
        fn = numpy_callable(name)
        if isinstance(fn, np.ufunc) and name not in NUMPY_FUNCTIONS:
            res = ask_resolve(fn, ins)
            called = ask_call(name, ins, nout)
            if called != res:
                self.cross_check.append("%s: resolve_dtypes %s, a call %s" % (
                    describe(name, ins), describe_answer(res), describe_answer(called)))
            return res
        return ask_call(name, ins, nout)

    def answer(self, name, ins, nout):
        """The table entry: NumPy's answer with the project rules applied."""
        self.entries += 1
        res = self.numpy(name, ins, nout)
        for rule in PROJECT_RULES:
            new = rule.apply(name, ins, res)
            if new != res:
                self.ruled.append((describe(name, ins), rule.name, res, new))
                res = new
        analogue = self.bf16_analogue(name, ins, nout)
        if analogue is not False and analogue != res:
            # gpuarr's rule: bfloat16 behaves like float16 (see the header)
            self.suspects.append((describe(name, ins), res, analogue))
            res = analogue
        return res

    def bf16_analogue(self, name, ins, nout):
        """What "bfloat16 behaves like float16" predicts, or False when the
        entry has no bfloat16 input."""
        if not any(not isinstance(x, Weak) and x == BF16 for x in ins):
            return False
        has_f16 = any(not isinstance(x, Weak) and x == F16 for x in ins)
        sub = F32 if has_f16 else F16
        alt = [sub if (not isinstance(x, Weak) and x == BF16) else x for x in ins]
        res = self.numpy(name, alt, nout)
        for rule in PROJECT_RULES:
            res = rule.apply(name, alt, res)
        if res is None or has_f16:
            return res
        return tuple(as_bfloat16(d) for d in res)


# --------------------------------------------------------------------------
# Project rules: where gpuarr deliberately gives another answer than NumPy.
# --------------------------------------------------------------------------

class Rule:
    """A project rule: fn(name, inputs, NumPy's answer) -> gpuarr's answer."""

    def __init__(self, name, text, fn):
        self.name, self.text, self.fn = name, text, fn

    def apply(self, name, ins, res):
        return self.fn(name, ins, res)


def _bf16_stays_bf16(name, ins, res):
    if name in ("round", "nan_to_num", "sinc") and len(ins) == 1 \
            and not isinstance(ins[0], Weak) and ins[0] == BF16 and res is not None:
        return (BF16,)
    return res


PROJECT_RULES = [
    Rule("bfloat16 round/nan_to_num/sinc",
         "round, nan_to_num and sinc of a bfloat16 array give bfloat16 "
         "(ml_dtypes' float32 there is an artifact of arithmetic with "
         "Python floats inside NumPy's Python code); an error stays an error",
         _bf16_stays_bf16),
]


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

def enc(ans, nout):
    """nout characters: the output dtypes' codes, or '-' * nout for an error."""
    if ans is None:
        return ERROR_CODE * nout
    assert len(ans) == nout
    return "".join(code(d) for d in ans)


def unary_table(o, name, nout, true_ufunc):
    arrays = "".join(enc(o.answer(name, [d], nout), nout) for d in DTYPES)
    scalars = None
    if true_ufunc:
        scalars = "".join(enc(o.answer(name, [w], nout), nout) for w in WEAK)
    return {"name": name, "nout": nout, "arrays": arrays, "scalars": scalars}


def binary_table(o, name, nout, true_ufunc, prefix=()):
    """The 2-input layout over the last two inputs (prefix: fixed inputs)."""
    def a(*ins):
        return enc(o.answer(name, list(prefix) + list(ins), nout), nout)
    t = {"name": name, "nout": nout}
    t["arrays"] = ["".join(a(x, y) for y in DTYPES) for x in DTYPES]
    t["array_scalar"] = ["".join(a(x, w) for w in WEAK) for x in DTYPES]
    t["scalar_array"] = ["".join(a(w, y) for y in DTYPES) for w in WEAK]
    if true_ufunc or prefix:
        t["scalars"] = "".join(a(v, w) for v in WEAK for w in WEAK)
    else:
        t["scalars"] = None
    return t


def where_cond_table(o):
    x, y = WHERE_COND_XY
    return "".join(enc(o.answer("where", [c, x, y], 1), 1) for c in DTYPES)


def clip_tables(o):
    t = {}
    t["arrays"] = [["".join(enc(o.answer("clip", [a, lo, hi], 1), 1) for hi in DTYPES)
                    for lo in DTYPES] for a in DTYPES]
    t["scalars"] = ["".join(enc(o.answer("clip", [a, v, w], 1), 1) for v in WEAK for w in WEAK)
                    for a in DTYPES]
    t["array_scalar"] = ["".join(enc(o.answer("clip", [a, lo, w], 1), 1)
                                 for lo in DTYPES for w in WEAK) for a in DTYPES]
    t["scalar_array"] = ["".join(enc(o.answer("clip", [a, v, hi], 1), 1)
                                 for v in WEAK for hi in DTYPES) for a in DTYPES]
    return t


def build(ufuncs):
    o = Oracle()
    unary, binary = [], []
    where = clip = where_cond = None
    for enum, name, nin, nout, which in ufuncs:
        true_ufunc = name not in NUMPY_FUNCTIONS
        if name == "where":
            where = binary_table(o, name, 1, False, prefix=(BOOL,))
            where_cond = where_cond_table(o)
        elif name == "clip":
            clip = clip_tables(o)
        elif nin == 1:
            unary.append(unary_table(o, name, nout, true_ufunc))
        elif nin == 2:
            binary.append(binary_table(o, name, nout, true_ufunc))
        else:
            raise SystemExit("no table layout for %s (nin %d)" % (name, nin))
    if where is None or clip is None:
        raise SystemExit("gpuarr.h's lists lack where or clip")
    return o, unary, binary, where, where_cond, clip


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def comment(*text_lines):
    """A C block comment; long lines wrap, keeping their indentation."""
    out = ["/*"]
    for t in text_lines:
        indent = t[:len(t) - len(t.lstrip())]
        wrapped = textwrap.wrap(t, width=76, initial_indent="", subsequent_indent=indent + "  ",
                                break_long_words=False, break_on_hyphens=False) or [""]
        out += [(" * " + w).rstrip() for w in wrapped]
    out.append(" */")
    return out


def cstr(s):
    """A C string literal; '?\\?-' breaks the trigraph ??- (which would read ~)."""
    return "NULL" if s is None else '"%s"' % s.replace("??-", "?\\?-")


def emit_binary_struct(t, indent):
    """The initializer of one uft_binary."""
    i2 = indent + "    "
    L = ["%s{\"%s\", %d," % (indent, t["name"], t["nout"])]
    L.append(i2 + "{ /* arrays [x][y] */")
    L += ["%s    %s, /* %s */" % (i2, cstr(r), n) for r, n in zip(t["arrays"], DTYPE_NAMES)]
    L.append(i2 + "},")
    L.append(i2 + "{ /* array_scalar [x][kind of y] */")
    L += ["%s    %s, /* %s */" % (i2, cstr(r), n) for r, n in zip(t["array_scalar"], DTYPE_NAMES)]
    L.append(i2 + "},")
    L.append(i2 + "{ /* scalar_array [kind of x][y] */")
    L += ["%s    %s, /* %r */" % (i2, cstr(r), w) for r, w in zip(t["scalar_array"], WEAK)]
    L.append(i2 + "},")
    L.append("%s%s}," % (i2, cstr(t["scalars"])))
    return L


def emit(o, unary, binary, where, where_cond, clip):
    dn = DTYPE_NAMES
    L = comment(
        "ufunc_tables.h - generated by tools/gen_ufunc_tables.py from NumPy %s "
        "and ml_dtypes %s." % (np.__version__, ml_dtypes.__version__),
        "DO NOT EDIT BY HAND: change the script and rerun "
        "`python3 tools/gen_ufunc_tables.py`.",
        "",
        "The output dtypes NumPy gives for gpuarr's ufuncs (gpuarr.h, >>ufunc),",
        "%d entries.  Inputs are arrays of a dtype or weak Python scalars (NEP 50)"
        % o.entries,
        "of a kind; only dtypes and kinds matter.",
        "",
        "Encoding: an entry is nout characters, the codes of the output dtypes,",
        "or nout '-' where NumPy raises (no loop, no common dtype, ...).  The",
        "code of dtype index i is UFT_DTYPE_CODES[i] (NumPy's type characters,",
        "with q/Q for the 64-bit integers and E for bfloat16; a backslash between",
        "two '?' in a string keeps C from reading a trigraph there):",
        *["  %2d %-10s %s" % (i, n, DTYPE_CODES[i]) for i, n in enumerate(dn)],
        "Weak scalar kinds are numbered (not as ga_scalar_kind, which has UINT):",
        "  0 bool (True), 1 int (1), 2 float (1.0), 3 complex (1j).",
        "",
        "Layouts (x, y are a 2-input function's inputs):",
        "  uft_unary:   arrays  15 entries, input dtype i at entry i;",
        "               scalars 4 entries, a lone weak scalar of kind k",
        "               (NULL for NumPy functions that are not ufuncs).",
        "  uft_binary:  arrays[i]       15 entries: x of dtype i, y of dtype j;",
        "               array_scalar[i]  4 entries: x of dtype i, y of kind k;",
        "               scalar_array[k] 15 entries: x of kind k, y of dtype j;",
        "               scalars         16 entries: x of kind k, y of kind l",
        "               at 4*k + l (NULL for NumPy functions that are not ufuncs).",
        "  uft_where:   the uft_binary layout over where(cond, x, y)'s x and y,",
        "               cond a bool array.  uft_where_cond: 15 entries, cond of",
        "               dtype i with x %s and y %s." % WHERE_COND_XY,
        "  uft_clip_*:  clip(a, lo, hi), a an array of dtype i:",
        "               arrays[i][j]    15 entries: lo dtype j, hi dtype k;",
        "               scalars[i]      16 entries: lo kind k, hi kind l at 4*k + l;",
        "               array_scalar[i] 60 entries: lo dtype j, hi kind k at",
        "                               4*j + k;",
        "               scalar_array[i] 60 entries: lo kind k, hi dtype j at",
        "                               15*k + j.",
        "",
        "Sources: true ufuncs by ufunc.resolve_dtypes (np.dtype(bool) standing for",
        "True, which promotes as NumPy's bool), cross-checked by calls on arrays;",
        "NumPy functions that are not ufuncs by calls on np.zeros((2,), dtype) /",
        "np.ones((2,), dtype) (where: cond [True, False]), taking the result's",
        "dtype: %s." % ", ".join(sorted(NUMPY_FUNCTIONS)),
        "",
        "Project rules: gpuarr's answer replaces NumPy's here:",
        *["  %s: %s" % (r.name, r.text) for r in PROJECT_RULES],
        "Entries so replaced (%d):" % len(o.ruled),
        *["  %s = %s  (NumPy: %s)" % (d, describe_answer(new), describe_answer(old))
          for d, _, old, new in o.ruled],
        "",
        "Suspected ml_dtypes artifacts (%d): entries with a bfloat16 input where"
        % len(o.suspects),
        "NumPy's answer differs from the same question with float16 (float32 when",
        "float16 is an input too) put in its place, mapped back to bfloat16.  They",
        "take that analogue's answer (gpuarr's rule: bfloat16 behaves like",
        "float16); uft_suspects lists them with NumPy's answer.",
    )
    L += ["", "#ifndef UFUNC_TABLES_H", "#define UFUNC_TABLES_H", "",
          "#include <stddef.h> /* NULL */", "",
          "#define UFT_DTYPE_CODES \"%s\"" % DTYPE_CODES,
          "#define UFT_ERROR '%s'" % ERROR_CODE,
          "#define UFT_NUM_KINDS 4", ""]
    L += comment("Python literals of the weak scalar kinds, for messages.")
    L.append("static const char *const uft_kind_literals[UFT_NUM_KINDS] = {%s};"
             % ", ".join('"%r"' % w for w in WEAK))
    L.append("")

    L += ["typedef struct uft_unary {",
          "    const char *name;    /* NumPy's name (gpuarr's list name) */",
          "    int nout;",
          "    const char *arrays;  /* 15 entries */",
          "    const char *scalars; /* 4 entries, or NULL */",
          "} uft_unary;", "",
          "typedef struct uft_binary {",
          "    const char *name;",
          "    int nout;",
          "    const char *arrays[15];",
          "    const char *array_scalar[15];",
          "    const char *scalar_array[UFT_NUM_KINDS];",
          "    const char *scalars; /* or NULL */",
          "} uft_binary;", ""]

    L.append("#define UFT_NUM_UNARY %d" % len(unary))
    L.append("static const uft_unary uft_unary_tables[UFT_NUM_UNARY] = {")
    L.append("    /* name, nout, arrays (%s), scalars (%s) */"
             % (" ".join(DTYPE_CODES), " ".join("%r" % w for w in WEAK)))
    for t in unary:
        L.append("    {\"%s\", %d, %s, %s}," % (t["name"], t["nout"], cstr(t["arrays"]),
                                              cstr(t["scalars"])))
    L += ["};", ""]

    L.append("#define UFT_NUM_BINARY %d" % len(binary))
    L.append("static const uft_binary uft_binary_tables[UFT_NUM_BINARY] = {")
    for t in binary:
        L += emit_binary_struct(t, "    ")
    L += ["};", ""]

    L += comment("where(cond, x, y) with a bool array cond, over (x, y).")
    L.append("static const uft_binary uft_where =")
    body = emit_binary_struct(where, "")
    body[-1] = body[-1].rstrip(",")
    L += body[:-1] + [body[-1] + ";"]
    L.append("")
    L += comment("where(cond, x, y): cond of dtype i, x %s, y %s." % WHERE_COND_XY)
    L.append("static const char uft_where_cond[] = %s;" % cstr(where_cond))
    L.append("")

    L += comment("clip(a, lo, hi) with array bounds: [a][lo] -> 15 entries over hi.")
    L.append("static const char *const uft_clip_arrays[15][15] = {")
    for a, rows in zip(dn, clip["arrays"]):
        L.append("    { /* a %s; rows lo = %s */" % (a, " ".join(DTYPE_CODES)))
        L += ["        %s," % cstr(r) for r in rows]
        L.append("    },")
    L += ["};", ""]
    for key, what in (("scalars", "both bounds weak scalars: [a] -> 16 entries [lo kind][hi kind]"),
                      ("array_scalar", "lo an array, hi a weak scalar: [a] -> 60 entries [lo][hi kind]"),
                      ("scalar_array", "lo a weak scalar, hi an array: [a] -> 60 entries [lo kind][hi]")):
        L += comment("clip(a, lo, hi), %s." % what)
        L.append("static const char *const uft_clip_%s[15] = {" % key)
        L += ["    %s, /* %s */" % (cstr(r), n) for r, n in zip(clip[key], dn)]
        L += ["};", ""]

    L += comment("Suspected ml_dtypes artifacts: NumPy's answer, then what float16",
                 "in bfloat16's place predicts.")
    L.append("#define UFT_NUM_SUSPECTS %d" % len(o.suspects))
    L.append("static const char *const uft_suspects[UFT_NUM_SUSPECTS + 1] = {")
    for d, res, alt in o.suspects:
        L.append("    %-44s /* NumPy %s; float16 analogue %s */" % (
            '"%s",' % d, describe_answer(res), describe_answer(alt)))
    L += ["    NULL,", "};", ""]
    L += ["#endif /* UFUNC_TABLES_H */", ""]
    return "\n".join(L)


def summarize_suspects(suspects):
    """Suspects grouped by function and a coarse pattern, for stdout."""
    groups = {}
    for d, res, alt in suspects:
        name = d.split("(")[0]
        key = (name, describe_answer(res), describe_answer(alt))
        groups.setdefault(key, []).append(d)
    return groups


def main():
    ufuncs = parse_ufunc_lists(HEADER_PATH)
    o, unary, binary, where, where_cond, clip = build(ufuncs)
    with open(OUT_PATH, "w", newline="\n") as f:
        f.write(emit(o, unary, binary, where, where_cond, clip))
    print("wrote %s (NumPy %s, ml_dtypes %s)" % (
        os.path.normpath(OUT_PATH), np.__version__, ml_dtypes.__version__))
    print("%d ufuncs (%d one-input, %d two-input, where, clip), %d entries"
          % (len(ufuncs), len(unary), len(binary), o.entries))
    print("%d entries set by project rules instead of NumPy:" % len(o.ruled))
    for d, rule, old, new in o.ruled:
        print("  %s = %s  (NumPy: %s; rule: %s)" % (d, describe_answer(new),
                                                  describe_answer(old), rule))
    print("%d disagreements between resolve_dtypes and real calls:" % len(o.cross_check))
    for e in o.cross_check:
        print("  " + e)
    groups = summarize_suspects(o.suspects)
    print("%d suspected ml_dtypes artifacts (the float16 analogue's answer taken), by function:"
          % len(o.suspects))
    for (name, res, alt), ds in sorted(groups.items()):
        shown = ", ".join(ds[:3]) + (", ..." if len(ds) > 3 else "")
        print("  %-13s %3d x NumPy %s where float16 predicts %s: %s"
              % (name, len(ds), res, alt, shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
