#!/usr/bin/env python3
"""gpuarr arrays through DLPack to CuPy and PyTorch and back.

    python3 tests/dlpack_interop.py build/libgpuarr.so

The library is loaded with ctypes; a gpuarr array is offered to the other
side as an object with __dlpack__ / __dlpack_device__ whose capsules hold
ga_to_dlpack's tensors (versioned or legacy, as the consumer asks), and the
other side's capsules are handed to ga_from_dlpack as the Python protocol
hands them to a consumer (the capsule renamed "used_..."). Every deleter is
wrapped by a counter: each must run exactly once, after the last user of the
memory on both sides is gone. Both sides write the shared memory and read
the other's writes. Needs a GPU; CuPy and PyTorch parts are skipped where
the package is missing. Prints "N passed, N failed, N skipped".
"""
import ctypes
import gc
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint8,
                    c_uint16, c_uint32, c_uint64, c_void_p, py_object)

import numpy as np


class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32), ("dtype", DLDataType),
                ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class DLManagedTensorVersioned(Structure):
    pass


class DLManagedTensor(Structure):
    pass


DELETER = CFUNCTYPE(None, POINTER(DLManagedTensorVersioned))
DELETER_LEGACY = CFUNCTYPE(None, POINTER(DLManagedTensor))
DLManagedTensorVersioned._fields_ = [("major", c_uint32), ("minor", c_uint32), ("manager_ctx", c_void_p),
                                     ("deleter", DELETER), ("flags", c_uint64), ("dl_tensor", DLTensor)]
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", DELETER_LEGACY)]
KINDS = {b"dltensor_versioned": (DLManagedTensorVersioned, DELETER),
         b"dltensor": (DLManagedTensor, DELETER_LEGACY)}
READ_ONLY, IS_COPIED = 1, 2

ARR = c_void_p
lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "build/libgpuarr.so")
for name, restype, argtypes in [
        ("ga_init", c_int, []), ("ga_last_error_message", c_char_p, []), ("ga_clear_error", None, []),
        ("ga_dtype_from_name", c_int, [c_char_p]), ("ga_release", None, [ARR]), ("ga_retain", ARR, [ARR]),
        ("ga_arange", ARR, [c_double, c_double, c_double, c_int]), ("ga_astype", ARR, [ARR, c_int]),
        ("ga_reshape", ARR, [ARR, c_int, POINTER(c_int64)]), ("ga_index", ARR, [ARR, c_char_p]),
        ("ga_zeros", ARR, [c_int, POINTER(c_int64), c_int]), ("ga_copyto", c_int, [ARR, ARR, c_int]),
        ("ga_to_host", c_int, [ARR, c_void_p, c_size_t]), ("ga_nbytes", c_size_t, [ARR]),
        ("ga_size", c_int64, [ARR]), ("ga_data", c_void_p, [ARR]), ("ga_device_of", c_int, [ARR]),
        ("ga_ndim", c_int, [ARR]), ("ga_shape", POINTER(c_int64), [ARR]), ("ga_flags", c_int, [ARR]),
        ("ga_device_synchronize", c_int, []),
        ("ga_to_dlpack", c_void_p, [ARR, ctypes.c_ssize_t, c_int]),
        ("ga_to_dlpack_legacy", c_void_p, [ARR, ctypes.c_ssize_t, c_int]),
        ("ga_from_dlpack", ARR, [c_void_p, ctypes.c_ssize_t, c_int]),
        ("ga_from_dlpack_legacy", ARR, [c_void_p, ctypes.c_ssize_t, c_int])]:
    getattr(lib, name).restype, getattr(lib, name).argtypes = restype, argtypes

# The capsule API: with py_object for live capsules, with raw pointers in
# the destructor (the capsule is being freed: no new references to it).
api = ctypes.pythonapi
api.PyCapsule_New.restype, api.PyCapsule_New.argtypes = py_object, [c_void_p, c_char_p, c_void_p]
api.PyCapsule_GetPointer.restype, api.PyCapsule_GetPointer.argtypes = c_void_p, [py_object, c_char_p]
api.PyCapsule_SetName.restype, api.PyCapsule_SetName.argtypes = c_int, [py_object, c_char_p]
api.PyCapsule_GetName.restype, api.PyCapsule_GetName.argtypes = c_char_p, [py_object]
raw_is_valid = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", api))
raw_get_pointer = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", api))


@CFUNCTYPE(None, c_void_p)
def capsule_destructor(capsule):
    """An unconsumed capsule gives its tensor back (DLPack's rule)."""
    for name, (cls, _) in KINDS.items():
        if raw_is_valid(capsule, name):
            p = raw_get_pointer(capsule, name)
            cls.from_address(p).deleter(ctypes.cast(p, POINTER(cls)))


class Counter:
    """How often one tensor's deleter ran."""
    keep = []  # the ctypes callbacks, alive until the end

    def __init__(self, address, name):
        cls, proto = KINDS[name]
        tensor = cls.from_address(address)
        # the producer's deleter by its address (the field itself would
        # read back as the replacement below)
        inner = proto(c_void_p.from_address(address + cls.deleter.offset).value)
        self.calls = 0

        def counted(p):
            self.calls += 1
            inner(p)
        callback = proto(counted)
        Counter.keep.append(callback)
        tensor.deleter = callback


def error():
    return lib.ga_last_error_message().decode()


class GaArray:
    """A gpuarr array as a DLPack producer (owns one reference)."""
    exports = []  # Counter of every capsule handed out

    def __init__(self, handle):
        assert handle, error()
        self.handle = handle

    def __del__(self):
        lib.ga_release(self.handle)

    def __dlpack_device__(self):
        return (2, lib.ga_device_of(self.handle))  # kDLCUDA

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        stream = 1 if stream is None else stream
        mode = {None: 0, True: 1, False: 2}[copy]
        if max_version is not None and max_version[0] >= 1:
            name, p = b"dltensor_versioned", lib.ga_to_dlpack(self.handle, stream, mode)
        else:
            name, p = b"dltensor", lib.ga_to_dlpack_legacy(self.handle, stream, mode)
        if not p:
            raise BufferError(error())
        GaArray.exports.append((name, Counter(p, name)))
        return api.PyCapsule_New(p, name, ctypes.cast(capsule_destructor, c_void_p))


def import_capsule(capsule):
    """A producer's capsule into gpuarr as a consumer takes it: (array, Counter)."""
    name = api.PyCapsule_GetName(capsule)
    p = api.PyCapsule_GetPointer(capsule, name)
    counter = Counter(p, name)
    api.PyCapsule_SetName(capsule, b"used_" + name)  # gpuarr owns it now
    f = lib.ga_from_dlpack if name == b"dltensor_versioned" else lib.ga_from_dlpack_legacy
    handle = f(p, -1, 0)
    assert handle, error()
    return handle, counter


def host(handle, dtype):
    """A gpuarr array's values (C order) as NumPy's."""
    n = lib.ga_ndim(handle)
    shape = tuple(lib.ga_shape(handle)[d] for d in range(n))
    out = np.empty(shape, dtype=dtype)
    assert lib.ga_to_host(handle, out.ctypes.data, out.nbytes) == 0, error()
    return out


def ga_matrix(dtype_name, rows, cols):
    """arange(rows * cols) as a (rows, cols) gpuarr array of the dtype."""
    r = lib.ga_arange(0, rows * cols, 1, lib.ga_dtype_from_name(b"float64"))
    c = lib.ga_astype(r, lib.ga_dtype_from_name(dtype_name.encode()))
    m = lib.ga_reshape(c, 2, (c_int64 * 2)(rows, cols))
    lib.ga_release(c), lib.ga_release(r)
    return m


results = {"passed": 0, "failed": 0, "skipped": 0}


def check(name, fn):
    try:
        fn()
        print("ok   " + name)
        results["passed"] += 1
    except Exception as e:  # noqa: BLE001 (a test's failure, whatever it is)
        print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
        results["failed"] += 1


def skip(name, why):
    print("skip %s (%s)" % (name, why))
    results["skipped"] += 1


def all_deleted(counters):
    gc.collect()
    calls = [c.calls for c in counters]
    assert calls == [1] * len(calls), "deleter calls %s, each should be 1" % calls


# --- CuPy ----------------------------------------------------------------------

def cupy_tests(cp):
    def to_cupy_and_back():
        before = len(GaArray.exports)
        m = ga_matrix("float32", 3, 4)
        ptr = lib.ga_data(m)
        x = cp.from_dlpack(GaArray(lib.ga_retain(m)))
        assert x.data.ptr == ptr and x.shape == (3, 4), "shared: %x vs %x" % (x.data.ptr, ptr)
        assert (x.get() == np.arange(12, dtype=np.float32).reshape(3, 4)).all()
        x *= 2  # CuPy writes; gpuarr reads
        cp.cuda.get_current_stream().synchronize()
        assert (host(m, np.float32) == 2 * np.arange(12).reshape(3, 4)).all()
        zero = lib.ga_zeros(2, (c_int64 * 2)(3, 4), lib.ga_dtype_from_name(b"float32"))
        assert lib.ga_copyto(m, zero, 0) == 0, error()  # gpuarr writes; CuPy reads
        lib.ga_device_synchronize()
        assert float(abs(x).sum()) == 0
        lib.ga_release(zero), lib.ga_release(m)
        y = x[::-1, 1::2]  # the memory outlives gpuarr's own reference
        del x
        y += 1
        assert (y.get() == 1).all()
        del y
        all_deleted([c for _, c in GaArray.exports[before:]])

    def views_to_cupy():
        m = ga_matrix("int64", 5, 6)
        for text in (b"::-1", b":, ::2", b"1:4, ::-3", b"2", b"..., None"):
            v = lib.ga_index(m, text)
            want = host(v, np.int64)
            x = cp.from_dlpack(GaArray(v))
            assert (x.get() == want).all() and x.shape == want.shape, text
            del x
        lib.ga_release(m)
        all_deleted([c for _, c in GaArray.exports])

    def every_dtype_to_cupy():
        for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                     "float32", "float64", "complex64", "complex128"):
            m = ga_matrix(name, 2, 3)
            x = cp.from_dlpack(GaArray(m))
            assert x.dtype == np.dtype(name) and (x.get() == np.arange(6).reshape(2, 3).astype(name)).all(), name
            del x
        all_deleted([c for _, c in GaArray.exports])

    def from_cupy():
        counters = []
        for versioned in (True, False):
            x = cp.arange(24, dtype=cp.float64).reshape(4, 6)
            v = x[1:, 1::2]  # (CuPy 14.2 exports negative strides as 2**61 - 2: not tested here)
            want = v.get()
            try:
                capsule = v.__dlpack__(stream=1, max_version=(1, 0)) if versioned else v.__dlpack__(stream=1)
            except TypeError:  # (a CuPy without DLPack 1.x)
                continue
            handle, counter = import_capsule(capsule)
            counters.append(counter)
            del capsule
            assert lib.ga_data(handle) == v.data.ptr, "shared memory"
            assert (host(handle, np.float64) == want).all()
            zero = lib.ga_zeros(2, (c_int64 * 2)(3, 3), lib.ga_dtype_from_name(b"float64"))
            assert lib.ga_copyto(handle, zero, 0) == 0, error()
            lib.ga_device_synchronize()
            assert float(x[1:, 1::2].sum()) == 0 and float(x[0].sum()) == 15, "CuPy sees gpuarr's write"
            del v, x
            gc.collect()
            assert counter.calls == 0, "gpuarr still holds the memory"
            lib.ga_release(zero), lib.ga_release(handle)
        all_deleted(counters)

    check("cupy: gpuarr -> CuPy shares memory, both write, deleter once", to_cupy_and_back)
    check("cupy: views (negative, strided, 0-d, new axis) keep their layout", views_to_cupy)
    check("cupy: every dtype CuPy has", every_dtype_to_cupy)
    check("cupy: CuPy -> gpuarr (versioned and legacy capsules), deleter once", from_cupy)


# --- PyTorch -------------------------------------------------------------------

def torch_tests(torch):
    def to_torch_and_back():
        before = len(GaArray.exports)
        m = ga_matrix("float32", 4, 5)
        t = torch.from_dlpack(GaArray(lib.ga_retain(m)))
        assert t.data_ptr() == lib.ga_data(m) and t.is_cuda and tuple(t.shape) == (4, 5)
        t.add_(1)
        torch.cuda.synchronize()
        assert (host(m, np.float32) == np.arange(1, 21).reshape(4, 5)).all(), "gpuarr sees torch's write"
        v = lib.ga_index(m, b"::2")
        zero = lib.ga_zeros(2, (c_int64 * 2)(2, 5), lib.ga_dtype_from_name(b"float32"))
        assert lib.ga_copyto(v, zero, 0) == 0, error()
        lib.ga_device_synchronize()
        assert float(t[::2].abs().sum()) == 0 and float(t[1, 0]) == 6, "torch sees gpuarr's write"
        lib.ga_release(zero), lib.ga_release(v), lib.ga_release(m)
        del t
        all_deleted([c for _, c in GaArray.exports[before:]])

    def dtypes_with_torch():
        before = len(GaArray.exports)
        for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
                     "complex64", "complex128"):
            m = ga_matrix(name, 2, 3)
            t = torch.from_dlpack(GaArray(lib.ga_retain(m)))
            assert str(t.dtype) == "torch." + name, (name, t.dtype)
            want = torch.arange(6, device="cuda").reshape(2, 3).to(getattr(torch, name))
            assert torch.equal(t, want), "%s: %s, not %s" % (name, t.cpu(), want.cpu())
            back, counter = import_capsule(torch.utils.dlpack.to_dlpack(t))
            assert lib.ga_data(back) == lib.ga_data(m), name
            del t
            lib.ga_release(back), lib.ga_release(m)
            gc.collect()
            assert counter.calls == 1, name
        all_deleted([c for _, c in GaArray.exports[before:]])

    def from_torch():
        counters = []
        t = torch.arange(30, device="cuda", dtype=torch.int32).reshape(5, 6).t()  # a transposed view
        capsules = [torch.utils.dlpack.to_dlpack(t)]
        try:
            capsules.append(t.__dlpack__(max_version=(1, 0)))
        except TypeError:
            pass  # (a PyTorch without DLPack 1.x)
        for capsule in capsules:
            handle, counter = import_capsule(capsule)
            counters.append(counter)
            assert lib.ga_data(handle) == t.data_ptr()
            assert (host(handle, np.int32) == t.cpu().numpy()).all()
            lib.ga_release(handle)
        del capsules
        all_deleted(counters)
        return len(counters)

    check("torch: gpuarr -> PyTorch shares memory, both write, deleter once", to_torch_and_back)
    check("torch: every dtype both ways (bfloat16 too)", dtypes_with_torch)
    check("torch: PyTorch -> gpuarr, a transposed view (legacy and versioned capsules)", from_torch)


def main():
    if lib.ga_init() != 0:
        skip("every DLPack test", "no GPU: " + error())
    else:
        try:
            import cupy
        except ImportError:
            cupy = None
        if cupy is None:
            skip("CuPy's DLPack tests", "cupy is not installed")
        else:
            cupy_tests(cupy)
        try:
            import torch
        except ImportError:
            torch = None
        if torch is None or not torch.cuda.is_available():
            skip("PyTorch's DLPack tests", "torch with CUDA is not installed")
        else:
            torch_tests(torch)
        if cupy is not None and torch is not None and torch.cuda.is_available():
            def chain():
                m = ga_matrix("float64", 3, 3)
                ptr = lib.ga_data(m)
                t = torch.from_dlpack(GaArray(lib.ga_retain(m)))
                x = cupy.from_dlpack(t)
                back, counter = import_capsule(x.__dlpack__(stream=1))
                assert lib.ga_data(back) == ptr == t.data_ptr() == x.data.ptr
                lib.ga_release(back), lib.ga_release(m)
                del t, x
                all_deleted([counter] + [c for _, c in GaArray.exports[-1:]])
            check("gpuarr -> PyTorch -> CuPy -> gpuarr: one allocation throughout", chain)
    gc.collect()
    print("%d passed, %d failed, %d skipped" % (results["passed"], results["failed"], results["skipped"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
