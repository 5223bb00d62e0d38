/* Shared by the fuzz harnesses (the .c files of tests/fuzz; libFuzzer, clang's
   -fsanitize=fuzzer,address,undefined; tests/fuzz/run.sh builds and runs
   them). Each harness includes this once: it compiles the implementation,
   so a harness may call gpuarr.h's static helpers.

   No GPU is used: arrays are headers over fake device buffers (as in
   tests/test_views.c), never dereferenced, and the driver is kept from
   loading (GPUARR_DRIVER_LIBRARY names no file), so a path that would copy
   on the device fails with GA_ERROR_NO_DRIVER instead of touching a fake
   address. An invariant that does not hold aborts with a message, which
   libFuzzer reports as a crash with its input. */
#ifndef GPUARR_FUZZ_H
#define GPUARR_FUZZ_H

#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int setenv(const char *name, const char *value, int overwrite); /* POSIX, hidden by -std=c11 */

#define FUZZ_PTR (1ull << 40) /* the fake buffers' device address */

__attribute__((format(printf, 1, 2), noreturn)) static void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz invariant broken: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n  last error: %s\n", ga_last_error_message());
    va_end(ap);
    abort();
}

#define FUZZ_CHECK(cond, ...) \
    do {                      \
        if (!(cond)) fuzz_fail(__VA_ARGS__); \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("GPUARR_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    return 0;
}

/* ---- reading the input ------------------------------------------------- */

typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static uint64_t fuzz_bits(fuzz_in *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) {
        v = v << 8 | (in->n ? *in->p : 0);
        if (in->n) in->p++, in->n--;
    }
    return v;
}

static unsigned fuzz_byte(fuzz_in *in) { return (unsigned)fuzz_bits(in, 1); }

/* An int64 from a table of the values that break arithmetic, or small, or
   any 64 bits. */
__attribute__((unused)) static int64_t fuzz_int64(fuzz_in *in)
{
    static const int64_t edges[] = {0, 1, -1, 2, -2, 3, 7, 8, -8, 16, 64, 255,
                                    INT32_MAX, INT32_MIN, (int64_t)1 << 31, (int64_t)1 << 32,
                                    (int64_t)1 << 62, -((int64_t)1 << 62), ((int64_t)1 << 62) + 2,
                                    INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
                                    INT64_MAX / 2, INT64_MAX / 8 + 1, ((int64_t)1 << 62) + 1};
    unsigned sel = fuzz_byte(in);
    if (sel < 128) return (int64_t)(sel % 16) - 4;
    if (sel < 224) return edges[sel % (sizeof edges / sizeof edges[0])];
    return (int64_t)fuzz_bits(in, 8);
}

/* An int axis from small values or INT_MIN/INT_MAX and friends. */
__attribute__((unused)) static int fuzz_axis(fuzz_in *in)
{
    unsigned sel = fuzz_byte(in);
    if (sel < 200) return (int)(sel % 12) - 6;
    static const int edges[] = {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, GA_MAXDIMS, -GA_MAXDIMS,
                                GA_MAXDIMS + 1, -GA_MAXDIMS - 1, 1 << 30, -(1 << 30)};
    return edges[sel % (sizeof edges / sizeof edges[0])];
}

/* ---- fake arrays ----------------------------------------------------------- */

static const ga_dtype fuzz_dtypes[] = {GA_UINT8, GA_INT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX128};

/* An array over a fresh fake buffer of `nbytes`, element 0 `offset` bytes
   in, with exactly this layout (the caller keeps it inside the buffer). */
__attribute__((unused)) static ga_array *fuzz_array_raw(ga_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                                size_t nbytes)
{
    ga__buffer *b = ga__buffer_new("fuzz_array", 0, FUZZ_PTR, nbytes);
    if (!b) abort();
    ga_array *a = ga__array_wrap("fuzz_array", b, dtype, ndim, shape, strides, FUZZ_PTR + (uint64_t)offset);
    if (!a) fuzz_fail("fuzz_array: %s", ga_last_error_message());
    return a;
}

/* A small array with a layout drawn from the input: a C-contiguous base of
   ndim dims (each 0..6), then maybe transposed, sliced with steps, flipped,
   broadcast (stride 0) or given unit axes. Its buffer is exactly the base's. */
__attribute__((unused)) static ga_array *fuzz_array(fuzz_in *in)
{
    ga_dtype dtype = fuzz_dtypes[fuzz_byte(in) % 5];
    int64_t itemsize = (int64_t)ga_dtype_itemsize(dtype);
    int ndim = (int)(fuzz_byte(in) % 5);
    int64_t shape[GA_MAXDIMS], strides[GA_MAXDIMS], size = 1;
    for (int d = 0; d < ndim; d++) {
        shape[d] = (int64_t)(fuzz_byte(in) % 7);
        size *= shape[d];
    }
    ga__c_strides(ndim, shape, itemsize, strides);
    unsigned how = fuzz_byte(in);
    int64_t offset = 0;
    size_t nbytes = (size_t)(size * itemsize);
    if (size > 0) {
        for (int d = 0; d < ndim; d++) {
            if ((how & 1) && shape[d] > 1 && (fuzz_byte(in) & 1)) { /* flip */
                offset += (shape[d] - 1) * strides[d];
                strides[d] = -strides[d];
            }
            if ((how & 2) && shape[d] > 2 && (fuzz_byte(in) & 1)) { /* every other element */
                strides[d] *= 2;
                shape[d] = (shape[d] + 1) / 2;
            }
            if ((how & 4) && shape[d] == 1 && (fuzz_byte(in) & 1)) { /* a broadcast axis */
                shape[d] = (int64_t)(fuzz_byte(in) % 5);
                strides[d] = 0;
            }
        }
        if ((how & 8) && ndim >= 2) { /* transposed */
            for (int d = 0; d < ndim / 2; d++) {
                int64_t s = shape[d], t = strides[d];
                shape[d] = shape[ndim - 1 - d], strides[d] = strides[ndim - 1 - d];
                shape[ndim - 1 - d] = s, strides[ndim - 1 - d] = t;
            }
        }
    }
    if ((how & 16) && ndim < GA_MAXDIMS) { /* a unit axis with a stride that addresses nothing */
        int at = (int)(fuzz_byte(in) % (unsigned)(ndim + 1));
        for (int d = ndim; d > at; d--) shape[d] = shape[d - 1], strides[d] = strides[d - 1];
        shape[at] = 1;
        strides[at] = fuzz_int64(in);
        ndim++;
    }
    return fuzz_array_raw(dtype, ndim, shape, strides, offset, nbytes);
}

/* ---- invariants --------------------------------------------------------- */

/* The byte offset, from the buffer's start, of the element at flat C index
   k of `a` (128-bit: computed apart from the library's checked helpers). */
__attribute__((unused)) static __int128 fuzz_address(const ga_array *a, int64_t k)
{
    __int128 at = (__int128)(a->data - a->buffer->ptr);
    for (int d = a->ndim - 1; d >= 0; d--) {
        int64_t i = a->shape[d] ? k % a->shape[d] : 0;
        k = a->shape[d] ? k / a->shape[d] : 0;
        at += (__int128)i * a->strides[d];
    }
    return at;
}

/* What every array must satisfy: a valid dtype, 0..GA_MAXDIMS dims,
   non-negative dims whose product is its size, NumPy's size rule, flags as
   ga__contiguity says, and, when not empty, every element wholly inside its
   buffer (computed in 128 bits). */
__attribute__((unused)) static void fuzz_check_array(const char *what, const ga_array *a)
{
    FUZZ_CHECK(a->ndim >= 0 && a->ndim <= GA_MAXDIMS, "%s: ndim %d", what, a->ndim);
    FUZZ_CHECK((int)a->dtype >= 0 && a->dtype < GA_NUM_DTYPES, "%s: dtype %d", what, (int)a->dtype);
    FUZZ_CHECK(a->refcount >= 1 && a->buffer && a->buffer->refcount >= 1, "%s: reference counts", what);
    __int128 size = 1, bytes = (__int128)ga_dtype_itemsize(a->dtype);
    for (int d = 0; d < a->ndim; d++) {
        FUZZ_CHECK(a->shape[d] >= 0, "%s: shape[%d] = %lld", what, d, (long long)a->shape[d]);
        size *= a->shape[d];
        if (a->shape[d]) bytes *= a->shape[d];
        FUZZ_CHECK(bytes <= INT64_MAX, "%s: itemsize * product of the nonzero dims beyond int64", what);
    }
    FUZZ_CHECK(size == a->size, "%s: size %lld, product of the shape %lld", what, (long long)a->size, (long long)size);
    FUZZ_CHECK((unsigned __int128)ga_nbytes(a) == (unsigned __int128)size * ga_dtype_itemsize(a->dtype),
               "%s: nbytes %zu", what, ga_nbytes(a));
    int flags = ga__contiguity(a->ndim, a->shape, a->strides, (int64_t)ga_dtype_itemsize(a->dtype));
    FUZZ_CHECK((a->flags & (GA_C_CONTIGUOUS | GA_F_CONTIGUOUS)) == flags, "%s: flags %d, contiguity %d", what, a->flags,
               flags);
    if (a->size == 0) return;
    __int128 lo = (__int128)(a->data - a->buffer->ptr), hi = lo;
    for (int d = 0; d < a->ndim; d++) {
        __int128 span = (__int128)a->strides[d] * (a->shape[d] - 1);
        if (span < 0) lo += span;
        else hi += span;
    }
    hi += (__int128)ga_dtype_itemsize(a->dtype);
    FUZZ_CHECK(lo >= 0 && hi <= (__int128)a->buffer->nbytes, "%s: elements at bytes %lld to %lld of a buffer of %zu",
               what, (long long)lo, (long long)hi, a->buffer->nbytes);
}

/* A view of `base`: a valid array on base's buffer, read-only when base is. */
__attribute__((unused)) static void fuzz_check_view(const char *what, const ga_array *v, const ga_array *base)
{
    fuzz_check_array(what, v);
    FUZZ_CHECK(v->buffer == base->buffer, "%s: not a view of its input's buffer", what);
    FUZZ_CHECK(v->dtype == base->dtype, "%s: dtype changed", what);
    FUZZ_CHECK((base->flags & GA_WRITEABLE) || !(v->flags & GA_WRITEABLE), "%s: writeable view of a read-only array",
               what);
}

/* A failure must be one of the codes `allowed` (a zero-terminated list),
   with a message naming `func`. */
__attribute__((unused)) static void fuzz_check_error(const char *func, const ga_status *allowed)
{
    ga_status st = ga_last_error();
    bool ok = false;
    for (const ga_status *s = allowed; *s != GA_OK; s++) ok = ok || st == *s;
    FUZZ_CHECK(ok, "%s failed with status %d", func, (int)st);
    FUZZ_CHECK(strncmp(ga_last_error_message(), func, strlen(func)) == 0, "%s: the message does not name it", func);
}

/* Releases the fake base; its buffer must then be free of every view. */
__attribute__((unused)) static void fuzz_release_base(ga_array *a)
{
    FUZZ_CHECK(a->refcount == 1 && a->buffer->refcount == 1, "a view was not released: buffer refcount %d",
               a->buffer->refcount);
    ga_release(a);
}

#endif
