#!/usr/bin/env python3
"""Generate tests/random_cases.h: NumPy's answers for gpuarr's random numbers.

NumPy 2 is the oracle (numpy.random.SeedSequence, Philox, Generator):
  - SeedSequence(entropy, spawn_key=...).generate_state(8, uint32) and
    generate_state(4, uint64) for integer seeds (0, 1, 2**32, 2**64 - 1,
    2**100 + 12345, 2**128 - 1, ...), uint32 word arrays (empty, shorter and
    longer than the pool) and spawn keys, and for children of spawn();
  - Philox(seed).random_raw(11) (three blocks, the last one part used);
  - Generator(Philox(seed)).random(9) in float64 and float32, and a mix of
    the two that interleaves NumPy's buffered 32-bit half-words;
  - Generator(Philox(1234)).integers(low, low + 2**k, 13, dtype) for every
    bool and integer dtype, k from 0 to the dtype's bits, low 0 and the
    dtype's lowest;
  - Philox.advance(delta) and jumped(jumps) after a few draws;
  - the bit generator's state after each draw (counter, key, buffer,
    buffer_pos, has_uint32, uinteger): the draws consumed NumPy's bits;
  - Generator.spawn(n) children's raw streams, twice (children numbering on);
and Random123's known-answer vectors for Philox4x32-10 (below, copied).

Run from the repository root:  python3 tools/gen_random_cases.py
No randomness: a rerun regenerates the header byte for byte.
"""

import os

import numpy as np
from numpy.random import Generator, Philox, SeedSequence

M64 = (1 << 64) - 1

# Random123 1.14, tests/kat_vectors (github.com/DEShawResearch/random123),
# the philox4x32 10-round lines: name, rounds, counter (4 words), key (2
# words), expected output (4 words). Copyright 2010-2012, D. E. Shaw
# Research; BSD 3-clause license: redistributions must retain that notice,
# its conditions and disclaimer (Random123's LICENSE), which the generated
# header repeats.
KAT = """\
philox4x32 10 00000000 00000000 00000000 00000000 00000000 00000000   6627e8d5 e169c58d bc57ac4c 9b00dbd8
philox4x32 10 ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff   408f276d 41c83b0e a20bc7c6 6d5451fd
philox4x32 10 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0   d16cfe09 94fdcceb 5001e420 24126ea1
"""

RANDOM123_LICENSE = """\
   Copyright 2010-2012, D. E. Shaw Research. All rights reserved.
   Redistribution and use in source and binary forms, with or without
   modification, are permitted provided that the following conditions are
   met: * Redistributions of source code must retain the above copyright
   notice, this list of conditions, and the following disclaimer.
   * Redistributions in binary form must reproduce the above copyright
   notice, this list of conditions, and the following disclaimer in the
   documentation and/or other materials provided with the distribution.
   * Neither the name of D. E. Shaw Research nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.
   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS
   IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
   THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
   PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR
   CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
   EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
   PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
   PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
   LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
   NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
   SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE."""

# Seeds as NumPy takes them: Python ints, or uint32 word lists.
SEEDS = [0, 1, 12345, 2**32 - 1, 2**32, 2**64 - 1, 2**100 + 12345, 2**128 - 1,
         [], [0, 0, 0, 0], [1, 2, 3], list(range(1, 10)), [0xDEADBEEF] * 6]

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def words(seed):
    """NumPy's uint32 words of a seed."""
    from numpy.random.bit_generator import _coerce_to_uint32_array
    return [int(w) for w in _coerce_to_uint32_array(seed)]


def u32s(xs):
    return "{" + ", ".join("0x%08xu" % int(x) for x in xs) + "}" if len(xs) else "{0}"


def u64s(xs):
    return "{" + ", ".join("0x%016xull" % int(x) for x in xs) + "}"


def c_int64(x):
    """An int64 literal (INT64_MIN has none)."""
    return "INT64_MIN" if x == -(1 << 63) else "%dll" % x


def hexfloat(x, f32=False):
    s = float(x).hex()
    return s + ("f" if f32 else "")


def floats(xs, f32=False):
    return "{" + ", ".join(hexfloat(x, f32) for x in xs) + "}"


def state_c(bg):
    st = bg.state
    return "{GA_PHILOX4X64, %s, %s, %s, %d, %d, 0x%08xu}" % (
        u64s(st["state"]["counter"]), u64s(st["state"]["key"]), u64s(st["buffer"]),
        st["buffer_pos"], st["has_uint32"], st["uinteger"])


def seed_c(seed):
    w = words(seed)
    return "%s, %d" % (u32s(w), len(w))


def seed_seq_cases(out):
    out.append("/* SeedSequence(entropy, spawn_key=spawn_key): entropy words, spawn key "
               "words,\n   generate_state(8, uint32), generate_state(4, uint64). */")
    out.append("typedef struct seed_seq_case {\n    const char *what;\n    uint32_t entropy[9];\n"
               "    int n_entropy;\n    uint32_t spawn_key[3];\n    int n_spawn_key;\n"
               "    uint32_t state32[8];\n    uint64_t state64[4];\n} seed_seq_case;")
    rows = []
    cases = [(s, ()) for s in SEEDS]
    cases += [(12345, (0,)), (12345, (1,)), (12345, (7, 2)), (2**100 + 12345, (3,)), ([1, 2, 3, 4, 5], (0, 1, 2)),
              ([], (5,))]
    for seed, key in cases:
        ss = SeedSequence(seed, spawn_key=key)
        w = words(seed)
        rows.append('    {"%s", %s, %d, %s, %d, %s, %s},' % (
            "%r spawn_key=%r" % (seed, key), u32s(w), len(w), u32s(key), len(key),
            u32s(ss.generate_state(8)), u64s(ss.generate_state(4, np.uint64))))
    out.append("static const seed_seq_case SEED_SEQ_CASES[] = {\n" + "\n".join(rows) + "\n};")


def stream_cases(out):
    out.append("/* Philox(seed): random_raw(11), then the state; Generator(Philox(seed)):\n"
               "   random(9) and random(9, dtype=float32), each from a fresh generator;\n"
               "   random(3, float32), random(3), random(3, float32) in a row, then the\n"
               "   state. */")
    out.append("typedef struct stream_case {\n    uint32_t seed[9];\n    int n_seed;\n    uint64_t raw[11];\n"
               "    ga_random_state after_raw;\n    double f64[9];\n    float f32[9];\n"
               "    float mix_a[3];\n    double mix_b[3];\n    float mix_c[3];\n    ga_random_state after_mix;\n"
               "} stream_case;")
    rows = []
    for seed in SEEDS:
        bg = Philox(seed)
        raw = bg.random_raw(11)
        after_raw = state_c(bg)
        f64 = Generator(Philox(seed)).random(9)
        f32 = Generator(Philox(seed)).random(9, dtype=np.float32)
        g = Generator(Philox(seed))
        a = g.random(3, dtype=np.float32)
        b = g.random(3)
        c = g.random(3, dtype=np.float32)
        rows.append("    {%s, %s, %s, %s, %s, %s, %s, %s, %s}," % (
            seed_c(seed), u64s(raw), after_raw, floats(f64), floats(f32, True), floats(a, True), floats(b),
            floats(c, True), state_c(g.bit_generator)))
    out.append("static const stream_case STREAM_CASES[] = {\n" + "\n".join(rows) + "\n};")


def integer_cases(out):
    out.append("/* Generator(Philox(1234)).integers(low, low + 2**k, 13, dtype): the values\n"
               "   as uint64 (the dtype's bits, zero-extended), then the state. */")
    out.append("typedef struct integers_case {\n    ga_dtype dtype;\n    int64_t low;\n    int k;\n"
               "    uint64_t values[13];\n    ga_random_state after;\n} integers_case;")
    rows = []
    for name in DTYPES:
        dt = np.dtype(name)
        bits = 1 if name == "bool" else dt.itemsize * 8
        ks = sorted(set([0, 1, 2, bits // 2, bits - 1, bits] + ([31, 32, 33] if bits == 64 else [])))
        ks = [k for k in ks if 0 <= k <= bits]
        for k in ks:
            lows = [0]
            if name != "bool" and dt.kind == "i" and k == bits:
                lows = [-(1 << (bits - 1))]
            elif name != "bool" and dt.kind == "i":
                lows = [0, -(1 << (bits - 1))]
            elif name != "bool" and k < bits:
                lows = [0, 5]
            for low in lows:
                g = Generator(Philox(1234))
                v = g.integers(low, low + (1 << k), 13, dtype=dt)
                vals = [int(x) & ((1 << (dt.itemsize * 8)) - 1) for x in v.astype(object)]
                rows.append("    {GA_%s, %s, %d, %s, %s}," % (
                    name.upper(), c_int64(low), k, u64s(vals), state_c(g.bit_generator)))
    out.append("static const integers_case INTEGERS_CASES[] = {\n" + "\n".join(rows) + "\n};")


def advance_cases(out):
    out.append("/* Philox(7): random_raw(3), then advance(delta) (delta's words) or\n"
               "   jumped(jumps) (delta unused); the state, then random_raw(5). */")
    out.append("typedef struct advance_case {\n    int jumped;\n    uint64_t delta[4];\n    uint64_t jumps;\n"
               "    ga_random_state after;\n    uint64_t raw[5];\n} advance_case;")
    rows = []
    deltas = [0, 1, 5, 2**64, 2**64 + 3, 2**128 + 5, 3 * 2**192, 2**256 - 1, (2**256 - 1) - 2**70]
    for d in deltas:
        bg = Philox(7)
        bg.random_raw(3)
        bg.advance(d)
        after = state_c(bg)
        w = [(d >> (64 * i)) & M64 for i in range(4)]
        rows.append("    {0, %s, 0, %s, %s}," % (u64s(w), after, u64s(bg.random_raw(5))))
    for jumps in [1, 2, 3, 2**64 - 1]:
        bg = Philox(7)
        bg.random_raw(3)
        j = bg.jumped(jumps)
        after = state_c(j)
        rows.append("    {1, {0, 0, 0, 0}, 0x%016xull, %s, %s}," % (jumps, after, u64s(j.random_raw(5))))
    # counter carries: state set near the top of a word
    out.append("static const advance_case ADVANCE_CASES[] = {\n" + "\n".join(rows) + "\n};")


def spawn_cases(out):
    out.append("/* Generator(Philox(seed)).spawn(2) twice: the four children's\n"
               "   bit_generator.random_raw(6), in order. */")
    out.append("typedef struct spawn_case {\n    uint32_t seed[9];\n    int n_seed;\n    uint64_t raw[4][6];\n"
               "} spawn_case;")
    rows = []
    for seed in [0, 12345, 2**100 + 12345, [1, 2, 3], list(range(1, 10))]:
        g = Generator(Philox(seed))
        kids = g.spawn(2) + g.spawn(2)
        raws = ", ".join(u64s(k.bit_generator.random_raw(6)) for k in kids)
        rows.append("    {%s, {%s}}," % (seed_c(seed), raws))
    out.append("static const spawn_case SPAWN_CASES[] = {\n" + "\n".join(rows) + "\n};")
    out.append("/* The grandchildren: Generator(Philox(12345)).spawn(3)[2].spawn(2)'s\n"
               "   random_raw(4). */")
    g = Generator(Philox(12345))
    gk = g.spawn(3)[2].spawn(2)
    out.append("static const uint64_t GRANDCHILD_RAW[2][4] = {%s};" % ", ".join(
        u64s(k.bit_generator.random_raw(4)) for k in gk))


def default_rng_cases(out):
    out.append("/* gpuarr's default (Philox4x32) seeding: SeedSequence(seed)\n"
               "   .generate_state(4, uint32) = key words 0, 1 and counter words 2, 3. */")
    out.append("typedef struct default_seed_case {\n    uint32_t seed[9];\n    int n_seed;\n"
               "    uint32_t state[4];\n} default_seed_case;")
    rows = []
    for seed in SEEDS:
        rows.append("    {%s, %s}," % (seed_c(seed), u32s(SeedSequence(seed).generate_state(4))))
    out.append("static const default_seed_case DEFAULT_SEED_CASES[] = {\n" + "\n".join(rows) + "\n};")


def kat_cases(out):
    out.append("/* Random123's known answers for Philox4x32-10 (tests/kat_vectors of\n"
               "   Random123 1.14, github.com/DEShawResearch/random123), under its license:\n"
               + RANDOM123_LICENSE + " */")
    out.append("typedef struct philox4x32_kat {\n    uint32_t ctr[4];\n    uint32_t key[2];\n"
               "    uint32_t expected[4];\n} philox4x32_kat;")
    rows = []
    for line in KAT.splitlines():
        f = line.split()
        assert f[0] == "philox4x32" and f[1] == "10"
        x = [int(v, 16) for v in f[2:]]
        rows.append("    {%s, %s, %s}," % (u32s(x[0:4]), u32s(x[4:6]), u32s(x[6:10])))
    out.append("static const philox4x32_kat PHILOX4X32_KAT[] = {\n" + "\n".join(rows) + "\n};")


def main():
    out = ["/* Generated by tools/gen_random_cases.py from NumPy %s: do not edit. */" % np.__version__,
           "#ifndef GPUARR_RANDOM_CASES_H", "#define GPUARR_RANDOM_CASES_H", ""]
    for make in (seed_seq_cases, stream_cases, integer_cases, advance_cases, spawn_cases, default_rng_cases,
                 kat_cases):
        make(out)
        out.append("")
    out.append("#endif")
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "random_cases.h")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
