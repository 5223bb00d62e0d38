#!/usr/bin/env python3
"""Runs build/bench and, when CuPy is importable, the same operations through
CuPy in the same run, then prints one table with the gpuarr/CuPy ratio.

    python3 tools/bench.py build/bench
    python3 tools/bench.py build/bench --reductions   (a group of rows alone: --products, --io, ...)

Device rows are medians of device-event timings after warm-up; host rows are
wall-clock medians per call. A ratio above 1 means gpuarr is faster."""
import os
import statistics
import subprocess
import sys
import time


def parse(lines):
    rows = []
    for line in lines:
        if line.startswith("#") or "|" not in line:
            continue
        name, n, dtype, us, gbps, note = line.split("|")
        rows.append(dict(name=name, n=int(n), dtype=dtype, us=float(us), gbps=float(gbps), note=note))
    return rows


def startup(cmd, runs=7):
    """Median wall time from process start to exit of a tiny program."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cupy_products(cp, timed, wall, queued, out):
    """The products' rows through CuPy (cuBLAS), a new result each call."""
    for name, batch, m, dt in (("matmul float32 8192^2", 1, 8192, cp.float32), ("matmul float16 8192^2", 1, 8192, cp.float16),
                               ("matmul float64 4096^2", 1, 4096, cp.float64),
                               ("matmul complex64 4096^2", 1, 4096, cp.complex64),
                               ("matmul 4096 x (64,64) float32", 4096, 64, cp.float32)):
        x = cp.random.random((batch, m, m)).astype(dt)
        y = cp.random.random((batch, m, m)).astype(dt)
        out[name] = timed(lambda: cp.matmul(x, y), reps=10)
        del x, y
    dx = cp.full(1 << 26, 0.5, cp.float32)
    dy = cp.full(1 << 26, 0.25, cp.float32)
    out["dot float32 2^26"] = timed(lambda: cp.dot(dx, dy))
    del dx, dy
    m32 = cp.ones((32, 32), cp.float32)
    out["small matmul 32x32 float32, new array"] = wall(lambda: m32 @ m32, 10000, warmup=2000)
    cupy_solvers(cp, timed, queued, out)


def cupy_solvers(cp, timed, queued, out):
    """The decompositions and solvers' rows through CuPy (cuSOLVER)."""
    def spd(batch, n, dt):
        b = cp.sin(cp.arange(batch * n * n, dtype=cp.float64)).reshape(batch, n, n).astype(dt)
        return (b @ b.swapaxes(-1, -2) + n * cp.eye(n, dtype=dt))

    m64, m32 = spd(1, 4096, cp.float64)[0], spd(1, 4096, cp.float32)[0]
    m2k, m1k = spd(1, 2048, cp.float32)[0], spd(1, 1024, cp.float32)[0]
    m512, m256 = spd(1, 512, cp.float32)[0], spd(1, 256, cp.float32)[0]
    b64 = cp.sin(cp.arange(4096, dtype=cp.float64)).reshape(4096, 1)
    tall = cp.sin(cp.arange(4096 * 64, dtype=cp.float64)).reshape(4096, 64).astype(cp.float32)
    rows = (("solve float64 4096", lambda: cp.linalg.solve(m64, b64)),
            ("cholesky float32 4096", lambda: cp.linalg.cholesky(m32)),
            ("qr float32 4096", lambda: cp.linalg.qr(m32)),
            ("inv float32 4096", lambda: cp.linalg.inv(m32)),
            ("det float32 4096", lambda: cp.linalg.det(m32)),
            ("eigh float32 2048", lambda: cp.linalg.eigh(m2k)),
            ("svd float32 2048", lambda: cp.linalg.svd(m2k, full_matrices=False)),
            ("svd float32 512", lambda: cp.linalg.svd(m512, full_matrices=False)),
            ("svd float32 256", lambda: cp.linalg.svd(m256, full_matrices=False)),
            ("eig float32 1024", lambda: cp.linalg.eig(m1k) if hasattr(cp.linalg, "eig") else None),
            ("pinv float32 1024", lambda: cp.linalg.pinv(m1k)),
            ("lstsq float32 (4096,64), 64 right sides", lambda: cp.linalg.lstsq(tall, tall, rcond=None)),
            ("norm (Frobenius) float32 4096^2", lambda: cp.linalg.norm(m32)))
    for name, fn in rows:
        try:
            out[name] = timed(fn, reps=5, warmup=1)
        except Exception:  # a function this CuPy lacks
            pass
    # the norm's device time per call: calls queued behind a 1 GiB copy, two
    # matrices in turn (128 MB, past the L2 cache), as build/bench
    m32b = m32.copy()
    ba, bb = cp.empty(1 << 28, cp.float32), cp.empty(1 << 28, cp.float32)
    out["norm (Frobenius) float32 4096^2, calls queued"] = queued(
        [lambda: cp.linalg.norm(m32), lambda: cp.linalg.norm(m32b)], lambda: cp.copyto(bb, ba))
    del ba, bb, m32b
    s8 = spd(10000, 8, cp.float32)
    v8 = cp.sin(cp.arange(80000, dtype=cp.float32)).reshape(10000, 8, 1)
    for name, fn in (("batched 10000 x (8,8) float32 inv", lambda: cp.linalg.inv(s8)),
                     ("batched 10000 x (8,8) float32 solve", lambda: cp.linalg.solve(s8, v8)),
                     ("batched 10000 x (8,8) float32 cholesky", lambda: cp.linalg.cholesky(s8)),
                     ("batched 10000 x (8,8) float32 eigh", lambda: cp.linalg.eigh(s8))):
        out[name] = out[name + ", GA_LINALG_IGNORE"] = timed(fn)  # (CuPy's default never reads the info words)
    x3 = cp.sin(cp.arange(64 * 128 * 256, dtype=cp.float32)).reshape(64, 128, 256)
    y2 = cp.sin(cp.arange(256 * 512, dtype=cp.float32)).reshape(256, 512)
    out["einsum ijk,kl->ijl (64,128,256)(256,512)"] = timed(lambda: cp.einsum("ijk,kl->ijl", x3, y2))
    out["tensordot same, axes=1"] = timed(lambda: cp.tensordot(x3, y2, axes=1))


def cupy_reductions(cp, timed):
    """The reductions' rows (build/bench --reductions) through CuPy: every
    reduction of every dtype over 2^26 elements of (sin(i) + 1) * 60, a new
    result each call, then (8192, 8192) float32 over one axis. A reduction
    this CuPy refuses (complex ordering in some versions) gives no figure."""
    def values(shape, dt):
        n = 1
        for d in shape:
            n *= d
        return ((cp.sin(cp.arange(n, dtype=cp.float64)) + 1) * 60).reshape(shape).astype(dt)

    reductions = (("sum", cp.sum), ("prod", cp.prod), ("max", cp.max), ("min", cp.min), ("argmax", cp.argmax),
                  ("argmin", cp.argmin), ("all", cp.all), ("any", cp.any), ("count_nonzero", cp.count_nonzero))
    out = {}
    for dt in ("bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64", "complex64",
               "complex128"):
        a = values((1 << 26,), dt)
        for name, fn in reductions:
            try:
                out[f"{name} {dt}"] = timed(lambda fn=fn: fn(a))
            except Exception:
                pass
        del a
    m = values((8192, 8192), "float32")
    out["sum (8192,8192) float32 axis 0"] = timed(lambda: m.sum(axis=0))
    out["sum (8192,8192) float32 axis 1"] = timed(lambda: m.sum(axis=1))
    out["max (8192,8192) float32 axis 1"] = timed(lambda: m.max(axis=1))
    del m
    for dt, log2n in (("float32", 28), ("float64", 27), ("int64", 27), ("int32", 27)):
        c = cp.ones(1 << log2n, dt)
        name = f"cumsum {dt} 2^{log2n}" if dt != "int32" else f"cumsum int32 -> int64 2^{log2n}"
        out[name] = timed(lambda: cp.cumsum(c))
        del c
    return out


def cupy_files(cp, np):
    """The file rows through CuPy (cupy.save and cupy.load go through NumPy):
    wall time, the median of 3 after one of warm-up; the file flushed to disk
    between the saves and the loads."""
    path = "build/bench-4gib-cupy.npy"
    a = cp.full(1 << 30, 1.5, cp.float32)

    def wall3(fn):
        fn()
        cp.cuda.Device().synchronize()
        t = []
        for _ in range(3):
            t0 = time.perf_counter()
            fn()
            cp.cuda.Device().synchronize()
            t.append((time.perf_counter() - t0) * 1e6)
        return statistics.median(t)
    out = {"save .npy 4 GiB": wall3(lambda: cp.save(path, a))}
    with open(path, "rb") as f:  # its dirty pages written out before the loads (they stay cached), as build/bench does
        os.fsync(f.fileno())
    out["load .npy 4 GiB (page cache)"] = wall3(lambda: cp.load(path))
    os.remove(path)
    return out


def cupy_random(cp, timed, wall):
    """The random rows through CuPy's Generator (cupy.random.default_rng)."""
    rng = cp.random.default_rng(1)
    n = 1 << 28
    out = {"full": timed(lambda: cp.full(n, 1.5, cp.float32))}
    out["random float32"] = timed(lambda: rng.random(n, dtype=cp.float32))
    out["standard_normal float32"] = timed(lambda: rng.standard_normal(n, dtype=cp.float32))
    out["random float64"] = timed(lambda: rng.random(n))
    out["standard_normal float64"] = timed(lambda: rng.standard_normal(n))
    out["standard_exponential float64"] = timed(lambda: rng.standard_exponential(n))
    out["uniform(-1, 1) float64"] = timed(lambda: rng.uniform(-1, 1, n))
    out["integers [0, 1000) int64"] = timed(lambda: rng.integers(0, 1000, n, dtype=cp.int64))
    m = 1 << 26
    out["standard_gamma(2.5) float64"] = timed(lambda: rng.standard_gamma(2.5, m))
    out["binomial(20, 0.3)"] = timed(lambda: rng.binomial(20, 0.3, m))
    out["poisson(4.0)"] = timed(lambda: rng.poisson(4.0, m))
    perm = getattr(rng, "permutation", None) or cp.random.permutation
    out["permutation 2^24"] = timed(lambda: perm(1 << 24))
    choice = getattr(rng, "choice", None) or cp.random.choice  # (CuPy's Generator has none: RandomState's)
    out["choice 10^6 of 10^7, no replacement"] = timed(lambda: choice(10 ** 7, 10 ** 6, replace=False))
    out["small standard_normal (1000), new array"] = wall(lambda: rng.standard_normal(1000, dtype=cp.float32), 20000,
                                                          warmup=2000)
    sa, sc = cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)
    out["small add into out (1000)"] = wall(lambda: cp.add(sa, sa, out=sc), 20000, warmup=20000)
    return out


def cupy_fft(cp, timed, wall):
    """The FFT rows through cupy.fft (cuFFT), a new result each call."""
    def values(shape, dt):
        n = 1
        for d in shape:
            n *= d
        return cp.sin(cp.arange(n, dtype=cp.float64)).reshape(shape).astype(dt)

    z, r32, r64 = values((1 << 24,), cp.complex64), values((1 << 24,), cp.float32), values((1 << 24,), cp.float64)
    z2, zb, small = values((4096, 4096), cp.complex64), values((4096, 1024), cp.complex64), values((1024,), cp.float32)
    out = {"fft complex64 2^24": timed(lambda: cp.fft.fft(z)),
           "rfft float32 2^24": timed(lambda: cp.fft.rfft(r32)),
           "rfft float64 2^24": timed(lambda: cp.fft.rfft(r64)),
           "fft2 complex64 4096^2": timed(lambda: cp.fft.fft2(z2)),
           "fft (4096,1024) complex64, last axis": timed(lambda: cp.fft.fft(zb, axis=-1)),
           "fft (4096,1024) complex64, axis 0": timed(lambda: cp.fft.fft(zb, axis=0)),
           "small rfft (1024), new array": wall(lambda: cp.fft.rfft(small), 20000, warmup=2000)}
    sa, sc = cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)
    out["small add into out (1000)"] = wall(lambda: cp.add(sa, sa, out=sc), 20000, warmup=20000)
    return out


def cupy_sparse(cp, timed):
    """The sparse rows through cupyx.scipy.sparse (cuSPARSE), a new result each call."""
    import cupyx.scipy.sparse as sp
    rng = cp.random.default_rng(1)

    def random_csr(n, k, hub=0):  # about k random columns a row, `hub` in row 0 where hub > 0
        first = hub if hub > 0 else k
        nnz = first + (n - 1) * k
        cols = rng.integers(0, n, nnz, dtype=cp.int32)
        data = rng.random(nnz, dtype=cp.float32)
        indptr = cp.concatenate([cp.zeros(1, cp.int32), cp.arange(first, nnz + 1, k, dtype=cp.int32)])
        a = sp.csr_matrix((data, cols, indptr), shape=(n, n))
        a.sum_duplicates()
        return a

    n = 1 << 22
    a = random_csr(n, 8)
    x, x8 = rng.random(n, dtype=cp.float32), rng.random((n, 8), dtype=cp.float32)
    coo = a.tocoo()
    rows = cp.arange(coo.nnz, dtype=cp.int32) // 8  # the same columns with rows i // 8: not canonical
    raw_coo = sp.coo_matrix((coo.data, (rows, coo.col)), shape=(n, n))
    b, b2 = random_csr(1 << 18, 16), random_csr(1 << 18, 16)
    tocsc = timed(lambda: a.tocsc())

    def hub_sum():
        h, h2 = random_csr(n, 8, 1000000), random_csr(n, 8, 1000000)
        return timed(lambda: h + h2)

    return {"SpMV CSR float32 4M^2, 32M nnz": timed(lambda: a @ x),
            "SpMM CSR float32 4M^2 x (4M,8)": timed(lambda: a @ x8),
            "CSR -> CSC, 32M nnz": tocsc,
            "CSR -> CSC, 32M nnz (digit passes)": tocsc,  # (gpuarr's other conversion beside the same CuPy figure)
            "COO -> CSR, 32M nnz (canonical)": timed(lambda: coo.tocsr()),
            "COO -> CSR, 32M nnz (sum duplicates)": timed(lambda: raw_coo.tocsr()),
            "sum axis 1, 32M nnz": timed(lambda: a.sum(axis=1)),
            "CSR + CSR 256k^2, 4M nnz each": timed(lambda: b + b2),
            "CSR + CSR 4M^2, 8 a row, row 0 1M": hub_sum(),
            "SpGEMM 256k^2, 16 a row, squared": timed(lambda: b @ b)}


def cupy_graph(cp, wall):
    """The graph rows through cupy.cuda.Graph, and the small add under a
    memory hook (a CuPy that cannot capture the chain's allocations gives no
    figure for that row)."""
    out = {}
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        sa, sb, sc = cp.ones(1000, cp.float32), cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)

        def adds():
            for _ in range(100):
                cp.add(sa, sb, out=sc)

        def chain():
            t = cp.add(sa, sb)
            t = cp.multiply(t, sa)
            t = cp.exp(cp.sin(t))
            t = cp.sqrt(t + 1.0)
            t = cp.maximum(cp.absolute(t - sb), sa)
            t = cp.square(cp.cos(t * 0.5))
            t = -cp.tanh(t + sb)
            t = cp.where(t > sa, t, sb)
            t = t + t.sum()
            cp.copyto(sc, t, casting="same_kind")

        out["100 small adds, called (1000)"] = wall(adds, 200, warmup=200) / 100
        adds()
        s.begin_capture()
        adds()
        g = s.end_capture()
        g.upload(s)
        out["100 small adds, graph replay (1000)"] = wall(lambda: g.launch(s), 2000, warmup=200) / 100
        out["chain of 20 small ops, called"] = wall(chain, 2000, warmup=200)
        try:
            chain()
            s.begin_capture()
            chain()
            g2 = s.end_capture()
            out["chain of 20 small ops, graph replay"] = wall(lambda: g2.launch(s), 2000, warmup=200)
        except Exception:
            try:
                s.end_capture()
            except Exception:
                pass
        out["small add, new array (1000)"] = wall(lambda: sa + sb, 20000, warmup=20000)

        class Noop(cp.cuda.MemoryHook):
            name = "noop"

        with Noop():
            out["small add, new array, memory hook (1000)"] = wall(lambda: sa + sb, 20000, warmup=20000)
    return out


def cupy_kernels(cp, timed, wall):
    """The user kernels' rows through CuPy's ElementwiseKernel, ReductionKernel
    and cupy.fuse, and CuPy's first-call compile time of a new kernel (a body
    it has never compiled: its run-time compilation, which gpuarr does not
    have; measured once, wall clock)."""
    n = 1 << 28
    a, b, c = cp.full(n, 0.5, cp.float32), cp.full(n, 1.5, cp.float32), cp.empty(n, cp.float32)
    add = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "bench_add")
    softplus = cp.ElementwiseKernel("T x", "T y", "y = log1p(exp(x))", "bench_softplus")
    ssd = cp.ReductionKernel("T x, T y", "T s", "(x - y) * (x - y)", "a + b", "s = a", "0", "bench_ssd")
    def bench_ssd_fused(x, y):  # (cupy.fuse names the kernel after the function: a lambda's name does not compile)
        return cp.sum((x - y) ** 2)
    fused = cp.fuse(bench_ssd_fused)
    out = {"add float32 (out=)": timed(lambda: cp.add(a, b, out=c)),
           "user add float32 (out=)": timed(lambda: add(a, b, c)),
           "softplus float32 fused (out=)": timed(lambda: softplus(a, c)),
           "softplus float32, exp then log1p": timed(lambda: cp.log1p(cp.exp(a), out=c)),
           "sum((x-y)**2) float32 fused": timed(lambda: ssd(a, b)),
           "sum((x-y)**2) float32, three calls": timed(lambda: cp.sum(cp.square(cp.subtract(a, b))))}
    out["sum((x-y)**2) float32 fused, cupy.fuse"] = timed(lambda: fused(a, b))
    sa, sc = cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)
    out["small add into out (1000)"] = wall(lambda: cp.add(sa, sa, out=sc), 20000, warmup=20000)
    out["small user add into out (1000)"] = wall(lambda: add(sa, sa, sc), 20000, warmup=20000)
    k = cp.ElementwiseKernel("T x", "T y", f"y = x * {time.time_ns() % 1000003}.0f + 1", "bench_first_call")
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    k(sa, sc)
    cp.cuda.Device().synchronize()
    out["CuPy first call of a new kernel"] = (time.perf_counter() - t0) * 1e6
    return out


def cupy_ufuncs(cp, timed, n, out):
    """The ufuncs' rows through CuPy: 2^28 elements into preallocated outputs,
    the same values as build/bench."""
    a = cp.full(n, 1.5, cp.float32)
    b = cp.full(n, 2.5, cp.float32)
    c = cp.empty(n, cp.float32)
    da = cp.full(n, 1.5, cp.float64)
    db = cp.full(n, 2.5, cp.float64)
    dc = cp.empty(n, cp.float64)
    out["add float32 (out=)"] = timed(lambda: cp.add(a, b, out=c))
    out["add float64 (out=)"] = timed(lambda: cp.add(da, db, out=dc))
    out["multiply float32 (out=)"] = timed(lambda: cp.multiply(a, b, out=c))
    out["multiply float64 (out=)"] = timed(lambda: cp.multiply(da, db, out=dc))
    out["exp float32 (out=)"] = timed(lambda: cp.exp(a, out=c))
    a2 = a.reshape(16384, 16384)
    c2 = c.reshape(16384, 16384)
    row = cp.full(16384, 0.5, cp.float32)
    out["add (16384,16384) + row (out=)"] = timed(lambda: cp.add(a2, row, out=c2))
    out["add float32 + float64 (out=)"] = timed(lambda: cp.add(a, da, out=dc))
    del a, b, c, da, db, dc, a2, c2, row


def cupy_figures(mode=None):
    """The same rows through CuPy, in microseconds; {} without CuPy."""
    try:
        import cupy as cp
        import numpy as np
    except Exception:
        return {}
    start, stop = cp.cuda.Event(), cp.cuda.Event()

    def timed(fn, reps=20, warmup=3):
        for _ in range(warmup):
            fn()
        t = []
        for _ in range(reps):
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            t.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)
        return statistics.median(t)

    def queued(fns, blocker, calls=64, reps=20, warmup=3):
        # device time per call of `calls` calls, each the next of fns (inputs
        # rotated past the L2 cache), issued behind a 1 GiB copy
        for k in range(warmup):
            fns[k % len(fns)]()
        t = []
        for _ in range(reps):
            blocker()
            start.record()
            for k in range(calls):
                fns[k % len(fns)]()
            stop.record()
            stop.synchronize()
            t.append(cp.cuda.get_elapsed_time(start, stop) * 1e3 / calls)
        return statistics.median(t)

    def wall(fn, calls, warmup=0):
        for _ in range(warmup):
            fn()
        cp.cuda.Device().synchronize()
        t = []
        for _ in range(9):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            cp.cuda.Device().synchronize()
            t.append((time.perf_counter() - t0) / calls * 1e6)
        return statistics.median(t)

    n = 1 << 28
    a = cp.empty(n, cp.float32)
    b = cp.empty(n, cp.float32)
    w = cp.empty(n, cp.float64)
    out = {}
    if mode == "nccl":  # (compared with NCCL's own loop in the same run, not CuPy)
        del a, b, w
        return {}
    if mode == "io":
        del a, b, w
        return cupy_files(cp, np)
    if mode == "random":
        del a, b, w
        return cupy_random(cp, timed, wall)
    if mode == "fft":
        del a, b, w
        return cupy_fft(cp, timed, wall)
    if mode == "sparse":
        del a, b, w
        return cupy_sparse(cp, timed)
    if mode == "graph":
        del a, b, w
        sa, sc = cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)
        out["small add into out (1000)"] = wall(lambda: cp.add(sa, sa, out=sc), 20000, warmup=20000)
        out.update(cupy_graph(cp, wall))
        return out
    if mode == "ufuncs":
        del a, b, w
        cupy_ufuncs(cp, timed, n, out)
        return out
    if mode == "kernels":
        del a, b, w
        return cupy_kernels(cp, timed, wall)
    if mode == "reductions":
        del a, b, w
        return cupy_reductions(cp, timed)
    if mode == "darray":  # compared with gpuarr's own one-GPU add and var, in their notes
        return {}
    if mode == "products":
        sa, sb, sc = cp.ones(1000, cp.float32), cp.ones(1000, cp.float32), cp.empty(1000, cp.float32)
        out["small add into out (1000)"] = wall(lambda: cp.add(sa, sb, out=sc), 20000, warmup=20000)
        cupy_products(cp, timed, wall, queued, out)
        return out
    out["copyto"] = timed(lambda: cp.copyto(b, a))
    out["full"] = timed(lambda: cp.full(n, 1.5, cp.float32))
    out["astype float32->float64"] = timed(lambda: cp.copyto(w, a, casting="unsafe"))
    out["astype float64->float32"] = timed(lambda: cp.copyto(a, w, casting="unsafe"))
    m = a.reshape(16384, 16384)
    mt = b.reshape(16384, 16384)
    out["transpose copy"] = timed(lambda: cp.copyto(mt, m.T))
    pinned = cp.cuda.alloc_pinned_memory(n * 4)
    host = np.frombuffer(pinned, np.float32, n)
    out["ga_copy_from_host_async"] = timed(lambda: a.set(host))
    out["ga_to_host_async"] = timed(lambda: a.get(out=host))
    del a, b, w, m, mt
    cupy_ufuncs(cp, timed, n, out)
    # reductions, a new result each call
    a = cp.full(n, 1.5, cp.float32)
    out["sum float32 (all)"] = timed(lambda: a.sum())
    out["argmax float32 (all)"] = timed(lambda: a.argmax())
    d = cp.full(1 << 26, 1.5, cp.float64)
    z = cp.full(1 << 26, 0.6 + 0.8j, cp.complex128)
    out["sum float64 (all)"] = timed(lambda: d.sum())
    out["sum complex128 (all)"] = timed(lambda: z.sum())
    out["prod complex128 (all)"] = timed(lambda: z.prod())
    for name, fn in (("max complex128 (all)", z.max), ("argmax complex128 (all)", z.argmax)):
        try:
            out[name] = timed(fn)
        except Exception:  # a CuPy without complex ordering: no CuPy figure
            pass
    del d, z
    m = a.reshape(16384, 16384)
    out["sum axis 0 (16384,16384)"] = timed(lambda: m.sum(axis=0))
    out["sum axis 1 (16384,16384)"] = timed(lambda: m.sum(axis=1))
    del a, m
    # 8 inputs of 8 MB each, as build/bench
    p2s = [cp.full((1000000, 2), 1.5, cp.float32) for _ in range(8)]
    eas = [cp.full(1000000, 1.5, cp.float32) for _ in range(8)]
    ebs = [cp.full(1000000, 2.5, cp.float32) for _ in range(8)]
    ec = cp.empty(1000000, cp.float32)
    ba, bb = cp.empty(n, cp.float32), cp.empty(n, cp.float32)
    out["(1e6,2).sum(axis=-1), calls queued"] = queued([lambda p=p: p.sum(axis=-1) for p in p2s],
                                                        lambda: cp.copyto(bb, ba))
    out["add 1e6 float32 (same bytes), calls queued"] = queued(
        [lambda x=x, y=y: cp.add(x, y, out=ec) for x, y in zip(eas, ebs)], lambda: cp.copyto(bb, ba))
    del ba, bb, p2s, eas, ebs
    p17, p1 = cp.full((1000000, 17), 1.5, dtype=cp.float32), cp.full((1, 2), 1.5, dtype=cp.float32)
    out["(1e6,17).sum(axis=-1)"] = timed(lambda: p17.sum(axis=-1))
    out["(1,2).sum(axis=-1)"] = timed(lambda: p1.sum(axis=-1))
    del ec, p17, p1
    # sorting (uniform random float32) and scans, a new result each call
    k = cp.random.random(1 << 26, dtype=cp.float32)
    k2 = k.reshape(65536, 1024)
    out["sort float32 2^26"] = timed(lambda: cp.sort(k))
    out["argsort float32 2^26"] = timed(lambda: cp.argsort(k))
    out["sort rows (65536,1024) axis -1"] = timed(lambda: cp.sort(k2, axis=-1))
    del k2
    # sets and histograms, a new result each call
    u = cp.random.randint(0, 1000, 1 << 26, dtype=cp.int32)
    out["unique int32 2^26 (1000 distinct)"] = timed(lambda: cp.unique(u))
    del u
    h = cp.tile(k, 4)
    out["histogram float32 2^28, 256 bins, range"] = timed(lambda: cp.histogram(h, 256, range=(0.0, 1.0)))
    out["histogram float32 2^28, 256 bins"] = timed(lambda: cp.histogram(h, 256))
    del h, k
    a = cp.full(n, 1.5, cp.float32)
    out["cumsum float32 2^28"] = timed(lambda: cp.cumsum(a))
    del a
    # boolean mask of uniform random float32, comparison included
    a = cp.random.random(n, dtype=cp.float32)
    out["a[a > 0.5] float32 2^28"] = timed(lambda: a[a > 0.5])
    del a
    # the CuPy paper's example; the result of x * 2 is new each call
    x = cp.arange(1e8).reshape(1000, -1).T
    out["arange(1e8).reshape(1000,-1).T * 2"] = timed(lambda: x * 2)
    del x
    cupy_products(cp, timed, wall, queued, out)
    out["pool allocate + free (1 MiB)"] = wall(lambda: cp.cuda.alloc(1 << 20), 100000)
    out["empty + release (1000)"] = wall(lambda: cp.empty(1000, cp.float32), 20000)
    small_in = cp.ones(1000, cp.float32)
    small_out = cp.empty(1000, cp.float64)
    out["small cast into out (1000)"] = wall(lambda: cp.copyto(small_out, small_in, casting="unsafe"), 20000)
    out["small cast, new array (1000)"] = wall(lambda: small_in.astype(cp.float64), 20000)
    sa = cp.ones(1000, cp.float32)
    sb = cp.ones(1000, cp.float32)
    sc = cp.empty(1000, cp.float32)
    out["small add into out (1000)"] = wall(lambda: cp.add(sa, sb, out=sc), 20000, warmup=20000)
    out["small add, new array (1000)"] = wall(lambda: sa + sb, 20000, warmup=20000)
    del sa, sb, sc, small_in, small_out
    random_rows = cupy_random(cp, timed, wall)
    for name in ("full", "small add into out (1000)"):  # (rows of their own in the whole run)
        random_rows.pop(name)
    out.update(random_rows)
    fft_rows = cupy_fft(cp, timed, wall)
    fft_rows.pop("small add into out (1000)")
    out.update(fft_rows)
    out.update(cupy_sparse(cp, timed))
    graph_rows = cupy_graph(cp, wall)
    graph_rows.pop("small add, new array (1000)")  # (a row of its own in the whole run)
    out.update(graph_rows)
    out.update(cupy_files(cp, np))
    return out


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else "build/bench"
    modes = ("products", "io", "random", "fft", "sparse", "graph", "kernels", "nccl", "darray", "reductions", "ufuncs")  # one group of rows alone
    mode = next((f[2:] for f in sys.argv[2:] if f[2:] in modes and f.startswith("--")), None)
    flags = [f"--{mode}"] if mode else []
    proc = subprocess.run([bench] + flags, check=True, capture_output=True, text=True)
    header = [l for l in proc.stdout.splitlines() if l.startswith("#")]
    rows = parse(proc.stdout.splitlines())
    ceiling = next((r["gbps"] for r in rows if r["note"] == "ceiling"), 0)
    cupy = cupy_figures(mode)
    if mode == "kernels" and cupy:  # CuPy's own rows, which gpuarr has no counterpart of
        for name in ("sum((x-y)**2) float32 fused, cupy.fuse", "CuPy first call of a new kernel"):
            rows.append(dict(name=name, n=0, dtype="float32", us=cupy[name], gbps=0, note="CuPy only: its column"))
    if mode is None:
        first = startup([bench, "--first"])
        rows.append(dict(name="process start to first result", n=1000, dtype="float32", us=first * 1e6, gbps=0,
                         note="whole process, wall"))
        if cupy:
            cupy["process start to first result"] = startup(
                [sys.executable, "-c", "import cupy; cupy.arange(1000, dtype=cupy.float32).get()"]) * 1e6
    for line in header:
        print(line)
    print(f"{'op':34} {'elements':>10} {'dtype':8} {'time (us)':>11} {'GB/s':>8} {'x copy':>7} "
          f"{'CuPy (us)':>10} {'vs CuPy':>8}  note")
    for r in rows:
        frac = f"{r['gbps'] / ceiling:.2f}" if ceiling and r["gbps"] and r["note"] != "ceiling" else ""
        c = cupy.get(r["name"])
        ratio = f"{c / r['us']:.2f}x" if c else ""
        cstr = f"{c:.3f}" if c else ""
        gb = f"{r['gbps']:.0f}" if r["gbps"] else ""
        print(f"{r['name']:34} {r['n']:>10} {r['dtype']:8} {r['us']:>11.3f} {gb:>8} {frac:>7} {cstr:>10} {ratio:>8}  {r['note']}")
    if mode == "darray":
        print("(the split add and var are compared with gpuarr's one-GPU add and var of the same size, in their notes)")
    elif not cupy and mode != "nccl":
        print("(CuPy is not importable here: no comparison column)")


if __name__ == "__main__":
    main()
