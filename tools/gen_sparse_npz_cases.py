#!/usr/bin/env python3
"""Writes tests/sparse_npz_cases.h: .npz files as SciPy's save_npz writes
them (CSR, CSC and COO matrices and arrays, stored and compressed, several
dtypes, int64 indices, duplicates, unsorted indices, an empty matrix),
with the dense matrix each holds and each member's CRC-32 and size as
zipfile reads them; and files SciPy's load_npz refuses, with its words.
test_sparse loads them with ga_sparse_load_npz, and checks that
ga_sparse_save_npz writes the same members byte for byte.

    python3 tools/gen_sparse_npz_cases.py > tests/sparse_npz_cases.h

Deterministic (a seeded generator); SciPy (1.17) and NumPy 2 are the
oracle."""
import io
import sys
import zipfile

import numpy as np
import scipy
import scipy.sparse as sp

from gadtypes import GA_ENUM as GA, c_bytes

rng = np.random.default_rng(20)


def values(dtype, k):
    if dtype == np.bool_:
        return rng.integers(0, 2, k).astype(bool) | (np.arange(k) % 3 == 0)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.integers(-9, 10, k) + 1j * rng.integers(-9, 10, k)).astype(dtype)
    if np.issubdtype(dtype, np.unsignedinteger):
        return rng.integers(1, 200, k).astype(dtype)
    return rng.integers(-99, 100, k).astype(dtype)


def triplets(m, n, k, dtype, dups):
    row = rng.integers(0, max(m, 1), k)
    col = rng.integers(0, max(n, 1), k)
    if dups and k > 2:
        row[1], col[1] = row[0], col[0]
    return values(dtype, k), row, col


def written(mat, compressed):
    b = io.BytesIO()
    sp.save_npz(b, mat, compressed=compressed)
    return b.getvalue()


cases = []  # (name, bytes, matrix or None, error code, error text)


def case(name, mat, compressed, index64=False):
    if index64:
        if mat.format == "coo":
            mat.row = mat.row.astype(np.int64)
            mat.col = mat.col.astype(np.int64)
        else:
            mat.indices = mat.indices.astype(np.int64)
            mat.indptr = mat.indptr.astype(np.int64)
    cases.append((name, written(mat, compressed), mat, None, None))


def error(name, arrays, code, text, compressed=False):
    b = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(b, **arrays)
    try:
        sp.load_npz(io.BytesIO(b.getvalue()))
        raise SystemExit(f"{name}: SciPy loads it")
    except Exception as e:  # SciPy's words, as the test checks them
        said = str(e)
        assert text in said or repr(text) == said, (name, text, said)  # (KeyError: the repr)
    cases.append((name, b.getvalue(), None, code, text))


d, r, c = triplets(7, 5, 12, np.float64, True)
case("csr float64, compressed", sp.csr_matrix(sp.coo_matrix((d, (r, c)), shape=(7, 5))), True)
d, r, c = triplets(6, 9, 20, np.int32, False)
case("csc int32, stored", sp.csc_matrix((d, (r, c)), shape=(6, 9)), False)
d, r, c = triplets(8, 8, 15, np.complex64, True)
case("coo complex64 with duplicates, compressed", sp.coo_matrix((d, (r, c)), shape=(8, 8)), True)
d, r, c = triplets(5, 4, 9, np.bool_, False)
case("csr_array bool, stored", sp.csr_array((d, (r, c)), shape=(5, 4)), False)
d, r, c = triplets(4, 6, 10, np.uint16, False)
case("csc_array uint16 with int64 indices, stored", sp.csc_array((d, (r, c)), shape=(4, 6)), False, index64=True)
d, r, c = triplets(9, 3, 11, np.int8, True)
case("coo_array int8 with int64 indices, compressed", sp.coo_array((d, (r, c)), shape=(9, 3)), True, index64=True)
d, r, c = triplets(5, 7, 14, np.float32, False)
m = sp.csr_matrix((d, (r, c)), shape=(5, 7))
m.indices = m.indices.copy()
for i in range(m.shape[0]):  # unsorted indices within each row
    a, b = m.indptr[i], m.indptr[i + 1]
    m.indices[a:b] = m.indices[a:b][::-1].copy()
    m.data[a:b] = m.data[a:b][::-1].copy()
m.has_sorted_indices = False
case("csr float32 with unsorted indices, stored", m, False)
case("csr complex128 of shape (0, 3), stored", sp.csr_matrix((0, 3), dtype=np.complex128), False)
case("coo int64 of shape (3, 4) without entries, compressed", sp.coo_matrix((3, 4), dtype=np.int64), True)

# a "format" member of NumPy's str dtype (format="csr" given as str), and a 1-d one
ind = np.array([0, 2, 1], np.int32)
ptr = np.array([0, 2, 3], np.int32)
dat = np.array([1.5, -2.0, 4.0])
for name, fmt in (("format as str", "csr"), ("format of one element", np.array([b"csr"]))):
    b = io.BytesIO()
    np.savez(b, data=dat, indices=ind, indptr=ptr, format=fmt, shape=np.array([2, 3]))
    cases.append((name, b.getvalue(), sp.load_npz(io.BytesIO(b.getvalue())), None, None))
b = io.BytesIO()
np.savez(b, data=dat, coords=np.array([[0, 1, 1], [2, 0, 2]], np.int32), format=b"coo", shape=np.array([2, 3]))
cases.append(("coo with coords", b.getvalue(), sp.load_npz(io.BytesIO(b.getvalue())), None, None))

good = dict(data=dat, indices=ind, indptr=ptr, shape=np.array([2, 3]))
error("no format", good, "GA_ERROR_VALUE", "does not contain a sparse array or matrix.")
error("unknown format", dict(good, format=b"xyz"), "GA_ERROR_VALUE", 'Unknown format "xyz_matrix"')
error("unknown format of an array", dict(good, format=b"xyz", _is_array=True), "GA_ERROR_VALUE",
      'Unknown format "xyz_array"', compressed=True)
error("missing indices", dict(data=dat, indptr=ptr, shape=np.array([2, 3]), format=b"csr"), "GA_ERROR_VALUE",
      "indices is not a file in the archive")
error("missing shape", dict(data=dat, indices=ind, indptr=ptr, format=b"csc"), "GA_ERROR_VALUE",
      "shape is not a file in the archive")
error("missing col", dict(data=dat, row=ind, shape=np.array([2, 3]), format=b"coo"), "GA_ERROR_VALUE",
      "col is not a file in the archive")
error("shape of one", dict(good, format=b"csr", shape=np.array([2])), "GA_ERROR_VALUE",
      "shape must have length in (2,). Got new_shape=(2,)")
error("shape of three", dict(good, format=b"csr", shape=np.array([2, 3, 4])), "GA_ERROR_VALUE",
      "shape must have length in (2,). Got new_shape=(2, 3, 4)")
error("negative shape", dict(good, format=b"csr", shape=np.array([2, -3])), "GA_ERROR_VALUE",
      "'shape' elements cannot be negative")
error("float shape", dict(good, format=b"csr", shape=np.array([2.0, 3.0])), "GA_ERROR_TYPE",
      "cannot be interpreted as an integer")
error("indptr of another length", dict(good, format=b"csr", shape=np.array([3, 3])), "GA_ERROR_VALUE",
      "index pointer size")  # (SciPy 1.17: "index pointer size 3 should be 4"; gpuarr: "(3) should be (4)")

out = sys.stdout
out.write("/* Generated by tools/gen_sparse_npz_cases.py with SciPy %s and NumPy %s: do not edit. */\n"
          % (scipy.__version__, np.__version__))
out.write("""#ifndef SPARSE_NPZ_CASES_H
#define SPARSE_NPZ_CASES_H
#include <stdint.h>

/* A member of a file as zipfile reads it: its name, CRC-32 and size. */
typedef struct sparse_npz_member {
    const char *name;
    uint32_t crc;
    int64_t size;
} sparse_npz_member;

/* A file SciPy wrote: the matrix it holds (format 0 csr, 1 csc, 2 coo;
   the dense values, m x n, C order, real and imaginary parts), its
   members; or, where code is not GA_OK, SciPy's refusal. */
typedef struct sparse_npz_case {
    const char *name;
    const char *bytes;
    int64_t len;
    int format;
    ga_dtype dtype, index_dtype;
    int64_t m, n, nnz;
    const double *re, *im;
    int nmembers;
    sparse_npz_member members[6];
    ga_status code;
    const char *text;
} sparse_npz_case;

""")
for i, (name, data, mat, code, text) in enumerate(cases):
    if mat is None:
        continue
    dense = mat.toarray()
    out.write("static const double sparse_npz_re_%d[] = {%s};\n"
              % (i, ", ".join(repr(float(np.real(x))) for x in dense.ravel()) or "0"))
    out.write("static const double sparse_npz_im_%d[] = {%s};\n"
              % (i, ", ".join(repr(float(np.imag(x))) for x in dense.ravel()) or "0"))
out.write("\nstatic const sparse_npz_case sparse_npz_cases[] = {\n")
fmts = {"csr": 0, "csc": 1, "coo": 2}
for i, (name, data, mat, code, text) in enumerate(cases):
    zf = zipfile.ZipFile(io.BytesIO(data))
    members = ", ".join('{"%s", 0x%08xu, %d}' % (z.filename, z.CRC, z.file_size) for z in zf.infolist())
    out.write('    {"%s",\n     %s,\n     %d, ' % (name, c_bytes(data), len(data)))
    if mat is None:
        out.write('-1, GA_DTYPE_INVALID, GA_DTYPE_INVALID, 0, 0, 0, NULL, NULL, %d, {%s}, %s, "%s"},\n'
                  % (len(zf.infolist()), members, code, text.replace('"', '\\"')))
    else:
        idx = (mat.row if mat.format == "coo" else mat.indices).dtype
        out.write('%d, %s, %s, %d, %d, %d, sparse_npz_re_%d, sparse_npz_im_%d, %d, {%s}, GA_OK, NULL},\n'
                  % (fmts[mat.format], GA[mat.dtype.name], GA[idx.name], mat.shape[0], mat.shape[1], mat.nnz, i, i,
                     len(zf.infolist()), members))
out.write("};\n\n#endif\n")
