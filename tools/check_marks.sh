#!/bin/sh
# check_marks.sh [gpuarr.h] - checks the section marks of gpuarr.h.
#
# Every section starts with a mark line, exactly `/* >>name */`, once in the
# declaration half (before the implementation's
# `#if defined(GPUARR_IMPLEMENTATION) && !defined(GPUARR__IMPLEMENTED)` line)
# and once in the implementation half. This checks that
#   - each half holds each of its marks once, and both halves the same marks
#     in the same order;
#   - the table of contents (the lines of the opening comment that end with
#     `>>name`) lists the same marks, once each, in that order;
#   - no line looks like a mark without being exactly one (`/*  >>x */`,
#     `/* >>x */ ` with trailing blanks, ...), which would go unseen;
#   - the declarations' >>abi section ends with `#endif /* Kernel ABI */`
#     (the Makefile's extraction of build/cub/abi.h stops there).
# Prints what is wrong, naming each mark out of place and its line, and
# exits 1; prints one line and exits 0 when all is well.
set -u
file=${1:-gpuarr.h}
if [ ! -r "$file" ]; then
    echo "check_marks: cannot read $file" >&2
    exit 2
fi

exec awk -v file="$file" '
function fail(msg) { print "check_marks: " file ": " msg; errors++ }
function where(n) { return "line " n }
# Marks of list a (names an[], lines al[], count na) missing from list b.
function missing(an, al, na, bset, aname, bname,    i) {
    for (i = 1; i <= na; i++)
        if (!((an[i]) in bset))
            fail("mark >>" an[i] " (" where(al[i]) ") is in the " aname " but not in the " bname)
}
# The first position where lists a and b, each reduced to the marks both
# hold, differ: the marks out of place.
function order(an, al, na, aset, aname, bn, bl, nb, bset, bname,    i, j, prev) {
    i = 1; j = 1; prev = "the start"
    while (1) {
        while (i <= na && !((an[i]) in bset)) i++
        while (j <= nb && !((bn[j]) in aset)) j++
        if (i > na || j > nb) return
        if (an[i] != bn[j]) {
            fail("marks out of order after " prev ": >>" an[i] " (" where(al[i]) ") in the " aname \
                 ", >>" bn[j] " (" where(bl[j]) ") in the " bname)
            return
        }
        prev = ">>" an[i]
        i++; j++
    }
}
BEGIN {
    impl = "#if defined(GPUARR_IMPLEMENTATION) && !defined(GPUARR__IMPLEMENTED)"
    half = "d"; nd = 0; ni = 0; nt = 0; errors = 0; intoc = 1; implline = 0
    abimark = 0; abiend = 0
}
{
    line = $0
    # The table of contents: the opening comment, up to its first "*/".
    if (intoc) {
        if (line ~ />>[a-z0-9_]+[ \t]*$/ && line !~ /^\/\* >>/) {
            name = line
            sub(/[ \t]*$/, "", name)
            sub(/.*>>/, "", name)
            if (name in tset)
                fail("the table of contents lists >>" name " twice: " where(tl[tset[name]]) " and " where(NR))
            else {
                nt++; tn[nt] = name; tl[nt] = NR; tset[name] = nt
            }
        }
        if (index(line, "*/")) intoc = 0
    }
    if (line == impl) {
        if (implline) fail("the implementation line appears twice: " where(implline) " and " where(NR))
        else { implline = NR; half = "i" }
        next
    }
    if (line ~ /^\/\* >>[a-z0-9_]+ \*\/$/) {
        name = substr(line, 6, length(line) - 8)
        if (half == "d") {
            if (name in dset)
                fail("mark >>" name " appears twice in the declarations: " where(dl[dset[name]]) " and " where(NR))
            else { nd++; dn[nd] = name; dl[nd] = NR; dset[name] = nd }
            if (name == "abi") abimark = NR
        } else {
            if (name in iset)
                fail("mark >>" name " appears twice in the implementation: " where(il[iset[name]]) " and " where(NR))
            else { ni++; in_[ni] = name; il[ni] = NR; iset[name] = ni }
        }
    } else if (line ~ /^[ \t]*\/\*[ \t]*>>/) {
        fail(where(NR) " looks like a mark but is not exactly `/* >>name */` (lower case, digits, _): " line)
    }
    if (half == "d" && line == "#endif /* Kernel ABI */" && abimark && !abiend) abiend = NR
}
END {
    if (!implline) {
        fail("no line `" impl "`: cannot tell the declarations from the implementation")
        exit 1
    }
    if (nd == 0) fail("no marks in the declarations")
    if (ni == 0) fail("no marks in the implementation")
    if (nt == 0) fail("no table of contents (lines of the opening comment ending with >>name)")
    missing(dn, dl, nd, iset, "declarations", "implementation")
    missing(in_, il, ni, dset, "implementation", "declarations")
    order(dn, dl, nd, dset, "declarations", in_, il, ni, iset, "implementation")
    missing(dn, dl, nd, tset, "declarations", "table of contents")
    missing(in_, il, ni, tset, "implementation", "table of contents")
    missing(tn, tl, nt, dset, "table of contents", "declarations")
    order(tn, tl, nt, tset, "table of contents", dn, dl, nd, dset, "declarations")
    if (abimark && !abiend)
        fail("the declarations of >>abi (" where(abimark) ") do not end with `#endif /* Kernel ABI */` before the implementation")
    if (errors) exit 1
    print "check_marks: " file ": " nd " marks, each once per half, in the same order in both halves and in the table of contents"
}' "$file"
