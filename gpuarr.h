/* gpuarr.h - NumPy's n-dimensional arrays on NVIDIA GPUs, for C.

   One header, stb-style. In exactly one C (or C++) file of your program:

       #define GPUARR_IMPLEMENTATION
       #include "gpuarr.h"

   and include it plainly everywhere else. Kernels are compiled offline by
   `make fatbins` and loaded through the CUDA Driver API at first use; link
   with `-ldl -lpthread` (the driver itself is opened at run time, so a program
   starts, and reports a clear error, on a machine without one).

   TABLE OF CONTENTS (each section starts with its mark, a comment line
   holding >>name, in both halves: grep -n '>>ufunc' gpuarr.h finds both)
     1. Configuration macros                                      >>config
     2. Types: dtypes, status codes, scalars, arrays, streams     >>types
     3. Core: initialisation, versions, errors, shutdown          >>core
     4. Devices                                                   >>device
     5. Streams and events                                        >>stream
     6. Memory: the device pool, the pinned host pool             >>memory
     7. Dtypes and type promotion                                 >>dtype
     8. Shapes, strides and axes                                  >>shape
     9. Arrays: attributes, views, reference counting, scopes     >>array
    10. Kernels: families, launching, the CUB glue                >>launch
    11. CUDA libraries: loading, handles, streams                 >>libs
    12. Creation                                                  >>creation
    13. Transfers and casting                                     >>transfer
    14. Elementwise functions (ufuncs)                            >>ufunc
    15. Shape manipulation                                        >>manip
    16. Indexing                                                  >>index
    17. Reductions and statistics                                 >>reduce
    18. Sorting, searching, scans and sets                        >>sort
    19. Linear algebra: products                                  >>linalg
    20. Files and printing                                        >>io
    21. Interop: DLPack, memory allocated elsewhere               >>interop
    22. Kernel ABI (internal: for the kernels and the CUB glue)   >>abi
   IMPLEMENTATION (same order, same marks), after `#ifdef GPUARR_IMPLEMENTATION`.
   Each section of the implementation keeps its state first, then its
   helpers and functions, then its shutdown hook (GA__SHUTDOWN_LIST).

   Conventions (NumPy users will find their way by name):
   - `numpy.X` is `ga_X`; arrays are `ga_array *`, opaque and reference counted.
   - A function that makes an array returns a new reference (release it once
     with ga_release), or NULL on failure. A function that returns ga_status
     returns GA_OK (0) on success.
   - On failure the thread's last error (ga_last_error, ga_last_error_message)
     names the function and the cause. A function given a NULL array (the
     result of an earlier failure) fails and keeps the first error, so
     expressions chain and the first failure is the one reported.
   - Work is enqueued on the thread's current stream of the array's device and
     returns without waiting; transfers to host memory and explicit
     synchronisation block.

   License: MIT (see LICENSE). */

#ifndef GPUARR_H
#define GPUARR_H

/* >>config */
/* ======================================================================== */
/* 1. Configuration macros                                                   */
/* ======================================================================== */

#define GPUARR_VERSION_MAJOR 0
#define GPUARR_VERSION_MINOR 1
#define GPUARR_VERSION_PATCH 0
#define GPUARR_VERSION_STRING "0.1.0"
/* One number, stamped into every fatbin and checked when it is loaded. */
#define GPUARR_VERSION_NUMBER \
    (GPUARR_VERSION_MAJOR * 10000 + GPUARR_VERSION_MINOR * 100 + GPUARR_VERSION_PATCH)

/* GPUARR_API decorates every public function: extern by default; define
   GPUARR_STATIC to make the whole library static to one translation unit. */
#ifndef GPUARR_API
#  ifdef GPUARR_STATIC
#    define GPUARR_API static
#  else
#    define GPUARR_API extern
#  endif
#endif

/* GPUARR_MALLOC / GPUARR_FREE (host memory for the library's own bookkeeping)
   are overridden together or not at all. GPUARR_ASSERT checks internal
   invariants only; user errors are reported, never asserted. Device memory has
   a run-time hook instead: ga_memory_set_allocator. */
#if defined(GPUARR_MALLOC) != defined(GPUARR_FREE)
#  error "gpuarr.h: define both GPUARR_MALLOC and GPUARR_FREE, or neither"
#endif

/* GPUARR_EMBED_FATBINS: the kernels are linked into the program
   (build/gpuarr_fatbins.o) instead of read from disk.
   GPUARR_KERNEL_DIR: a string, the directory searched for <family>.fatbin
   after the environment variable of that name and before ./build/kernels. */

/* Sections over another NVIDIA library (cuBLAS, cuSOLVER, cuSPARSE, cuFFT,
   NCCL: opened with dlopen at first use, or linked with
   GPUARR_LINK_CUDA_LIBRARIES) each get a switch that leaves the section out
   of the implementation, named for it: GPUARR_NO_LINALG, GPUARR_NO_FFT, ...
   The first lands with linear algebra (>>linalg). zlib (compressed .npz
   archives, >>io) is opened and linked the same way, and has no switch:
   it is loaded only by the calls that deflate or inflate. */

/* The most dimensions an array may have (NumPy 2 allows 64; CuPy 32). */
#define GA_MAXDIMS 32
/* The most devices one process addresses. */
#define GA_MAX_DEVICES 64

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* >>types */
/* ======================================================================== */
/* 2. Types: dtypes, status codes, scalars, arrays, streams, events          */
/* ======================================================================== */

/* The dtypes, in NumPy's order of kinds. X(ENUM, name, itemsize, kind). */
#define GA_DTYPE_LIST(X)               \
    X(BOOL, bool, 1, 'b')              \
    X(INT8, int8, 1, 'i')              \
    X(INT16, int16, 2, 'i')            \
    X(INT32, int32, 4, 'i')            \
    X(INT64, int64, 8, 'i')            \
    X(UINT8, uint8, 1, 'u')            \
    X(UINT16, uint16, 2, 'u')          \
    X(UINT32, uint32, 4, 'u')          \
    X(UINT64, uint64, 8, 'u')          \
    X(FLOAT16, float16, 2, 'f')        \
    X(BFLOAT16, bfloat16, 2, 'f')      \
    X(FLOAT32, float32, 4, 'f')        \
    X(FLOAT64, float64, 8, 'f')        \
    X(COMPLEX64, complex64, 8, 'c')    \
    X(COMPLEX128, complex128, 16, 'c')

typedef enum ga_dtype {
    GA_DTYPE_INVALID = -1,
#define GA__DTYPE_ENUM(E, name, size, kind) GA_##E,
    GA_DTYPE_LIST(GA__DTYPE_ENUM)
#undef GA__DTYPE_ENUM
    GA_NUM_DTYPES
} ga_dtype;

/* Status codes. X(ENUM, what it means). */
#define GA_STATUS_LIST(X)                                                     \
    X(GA_OK, "no error")                                                      \
    X(GA_ERROR_NULL_INPUT, "an argument is NULL")                             \
    X(GA_ERROR_VALUE, "invalid value")                                        \
    X(GA_ERROR_TYPE, "unsupported dtype or cast")                             \
    X(GA_ERROR_SHAPE, "shapes do not match")                                  \
    X(GA_ERROR_AXIS, "axis out of bounds")                                    \
    X(GA_ERROR_INDEX, "index out of bounds")                                  \
    X(GA_ERROR_OVERFLOW, "value out of range for the dtype")                  \
    X(GA_ERROR_OUT_OF_MEMORY, "out of device memory")                         \
    X(GA_ERROR_HOST_OUT_OF_MEMORY, "out of host memory")                      \
    X(GA_ERROR_NO_DRIVER, "the CUDA driver could not be loaded")              \
    X(GA_ERROR_NO_DEVICE, "no CUDA device is available")                      \
    X(GA_ERROR_DEVICE, "invalid device")                                      \
    X(GA_ERROR_CUDA, "a CUDA driver call failed")                             \
    X(GA_ERROR_KERNELS_MISSING, "a kernel fatbin or kernel was not found")    \
    X(GA_ERROR_KERNELS_STALE, "a kernel fatbin was built for another version") \
    X(GA_ERROR_STATE, "the call is not valid in the current state")           \
    X(GA_ERROR_NOT_IMPLEMENTED, "not implemented")                           \
    X(GA_ERROR_LIBRARY, "a CUDA library or zlib could not be loaded")       \
    X(GA_ERROR_LINALG, "a linear algebra error (numpy.linalg.LinAlgError)")  \
    X(GA_ERROR_IO, "a file could not be read or written (OSError)")

typedef enum ga_status {
#define GA__STATUS_ENUM(E, text) E,
    GA_STATUS_LIST(GA__STATUS_ENUM)
#undef GA__STATUS_ENUM
    GA_NUM_STATUS
} ga_status;

/* NumPy's casting rules (numpy.can_cast's `casting`). */
typedef enum ga_casting {
    GA_CASTING_NO,
    GA_CASTING_EQUIV,
    GA_CASTING_SAFE,
    GA_CASTING_SAME_KIND,
    GA_CASTING_UNSAFE
} ga_casting;

/* A C value standing for a Python scalar: "weak" in type promotion (NEP 50),
   it takes the dtype of the array it meets. Make one with ga_bool, ga_int,
   ga_uint, ga_float or ga_complex. */
typedef enum ga_scalar_kind {
    GA_SCALAR_BOOL,
    GA_SCALAR_INT,     /* a Python int that fits int64 */
    GA_SCALAR_UINT,    /* a Python int above INT64_MAX (promotes as an int) */
    GA_SCALAR_FLOAT,
    GA_SCALAR_COMPLEX
} ga_scalar_kind;

typedef struct ga_scalar {
    ga_scalar_kind kind;
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        struct { double re, im; } c;
    } value;
} ga_scalar;

/* Array flags (ga_flags), as NumPy's ndarray.flags. */
enum {
    GA_C_CONTIGUOUS = 1 << 0,
    GA_F_CONTIGUOUS = 1 << 1,
    GA_WRITEABLE = 1 << 2,
    GA_OWNDATA = 1 << 3
};

typedef struct ga_array ga_array;   /* an n-dimensional array (opaque) */
typedef struct ga_stream ga_stream; /* a CUDA stream (opaque) */
typedef struct ga_event ga_event;   /* a CUDA event (opaque) */

/* The driver's stream type, declared so that cuda.h is not needed here. */
struct CUstream_st;

/* >>core */
/* ======================================================================== */
/* 3. Core: initialisation, versions, errors, shutdown                       */
/* ======================================================================== */

/* Loads the CUDA driver (libcuda.so.1) and initialises it. Called implicitly
   by the first call that needs the GPU, so calling it is optional; calling it
   again is cheap. Errors: GA_ERROR_NO_DRIVER, GA_ERROR_NO_DEVICE. Thread safe. */
GPUARR_API ga_status ga_init(void);

/* Frees every cached pool block and the pinned pool, unloads the kernels and
   releases the primary contexts. Arrays, streams and events still alive
   must not be used afterwards; other threads must be done with gpuarr.
   ga_init may be called again. */
GPUARR_API void ga_shutdown(void);

/* GPUARR_VERSION_NUMBER of the compiled implementation. */
GPUARR_API int ga_version(void);

/* The driver's CUDA version (e.g. 13000), or 0 when no driver is loaded. */
GPUARR_API int ga_driver_version(void);

/* The calling thread's last error: GA_OK if none since ga_clear_error. */
GPUARR_API ga_status ga_last_error(void);

/* The message of the thread's last error, naming the function and the cause,
   e.g. "ga_empty: negative dimensions are not allowed". Never NULL; valid
   until the thread's next error. */
GPUARR_API const char *ga_last_error_message(void);

/* Forgets the calling thread's last error. */
GPUARR_API void ga_clear_error(void);

/* The fixed description of a status code ("out of device memory"). */
GPUARR_API const char *ga_status_string(ga_status status);

/* A function called on every error, with the code and the message, on the
   thread where it happened (NULL removes it). Process-wide. */
typedef void (*ga_error_callback)(ga_status status, const char *message, void *user);
GPUARR_API void ga_set_error_callback(ga_error_callback callback, void *user);

/* >>device */
/* ======================================================================== */
/* 4. Devices                                                                */
/* ======================================================================== */

typedef struct ga_device_properties {
    char name[256];
    int ordinal;
    int compute_capability_major;
    int compute_capability_minor;
    int multiprocessor_count;
    int max_threads_per_block;
    int warp_size;
    size_t total_memory;       /* bytes */
    size_t l2_cache_size;      /* bytes */
    int memory_bus_width;      /* bits */
    int memory_clock_rate_khz;
} ga_device_properties;

/* The number of CUDA devices, or -1 on error (no driver). */
GPUARR_API int ga_device_count(void);

/* Fills *props for `device`. Errors: GA_ERROR_DEVICE for a bad ordinal. */
GPUARR_API ga_status ga_device_get_properties(int device, ga_device_properties *props);

/* The calling thread's current device (0 until set), as cupy.cuda.Device. */
GPUARR_API int ga_device_get(void);

/* Makes `device` current for the calling thread; new arrays go there. */
GPUARR_API ga_status ga_device_set(int device);

/* Scoped form of ga_device_set: push makes `device` current and remembers the
   previous one, pop restores it (like `with cupy.cuda.Device(d):`). Pushes
   nest up to 16 deep per thread; pop without push is GA_ERROR_STATE. */
GPUARR_API ga_status ga_device_push(int device);
GPUARR_API ga_status ga_device_pop(void);

/* Waits for all work on the current device. */
GPUARR_API ga_status ga_device_synchronize(void);

/* Free and total memory of `device` as the driver reports it. */
GPUARR_API ga_status ga_device_memory_info(int device, size_t *free_bytes, size_t *total_bytes);

/* >>stream */
/* ======================================================================== */
/* 5. Streams and events                                                     */
/* ======================================================================== */

/* A new stream on the current device. `non_blocking`: no implicit
   synchronisation with the legacy default stream. Release with
   ga_stream_destroy. Returns NULL on failure. */
GPUARR_API ga_stream *ga_stream_create(bool non_blocking);

/* Wraps a stream made elsewhere (runtime API, another library) on `device`,
   without taking ownership. Destroy the wrapper before the stream itself. */
GPUARR_API ga_stream *ga_stream_wrap(struct CUstream_st *handle, int device);

/* Destroys a stream made by ga_stream_create (after its queued work ends) or
   a wrapper. If it is current on the calling thread, the default stream
   becomes current. Pool blocks freed on it become free for any stream. */
GPUARR_API void ga_stream_destroy(ga_stream *stream);

/* Makes `stream` the calling thread's current stream on its device; NULL
   selects the default (legacy NULL) stream of the current device. */
GPUARR_API ga_status ga_stream_set_current(ga_stream *stream);

/* The calling thread's current stream on the current device (NULL for the
   default stream). */
GPUARR_API ga_stream *ga_stream_get_current(void);

/* Scoped form of ga_stream_set_current (`with stream:`); nests 16 deep. */
GPUARR_API ga_status ga_stream_push(ga_stream *stream);
GPUARR_API ga_status ga_stream_pop(void);

/* Blocks until the work queued on `stream` (NULL: the current stream) ends. */
GPUARR_API ga_status ga_stream_synchronize(ga_stream *stream);

/* 1 if all work on `stream` (NULL: current) has finished, 0 if not, -1 on
   error. */
GPUARR_API int ga_stream_query(ga_stream *stream);

/* Work queued on `stream` (NULL: current) after this call waits for `event`. */
GPUARR_API ga_status ga_stream_wait_event(ga_stream *stream, ga_event *event);

/* The driver handle (CUstream) of `stream`; NULL stands for the default one. */
GPUARR_API struct CUstream_st *ga_stream_handle(const ga_stream *stream);

/* The device `stream` belongs to (NULL: the current device). */
GPUARR_API int ga_stream_device(const ga_stream *stream);

/* A new event on the current device; `timing` enables ga_event_elapsed_ms.
   Release with ga_event_destroy. */
GPUARR_API ga_event *ga_event_create(bool timing);
GPUARR_API void ga_event_destroy(ga_event *event);

/* Records `event` on `stream` (NULL: current stream). */
GPUARR_API ga_status ga_event_record(ga_event *event, ga_stream *stream);

/* Blocks until the work before the event's record has finished. */
GPUARR_API ga_status ga_event_synchronize(ga_event *event);

/* 1 if the event has completed, 0 if not, -1 on error. */
GPUARR_API int ga_event_query(ga_event *event);

/* Milliseconds between two completed timing events. */
GPUARR_API ga_status ga_event_elapsed_ms(const ga_event *start, const ga_event *end, float *ms);

/* >>memory */
/* ======================================================================== */
/* 6. Memory: the device pool, the pinned host pool                          */
/* ======================================================================== */
/* Each device has a stream-aware pool (best fit, coalescing, 512-byte
   rounding) in front of cuMemAlloc or a user allocator. A block freed on one
   stream is reused at once by that stream, and by another only after an event
   shows the freeing stream's earlier work done. When an allocation fails the
   pool waits for its streams, frees its cached blocks and retries. Thread
   safe. */

typedef struct ga_memory_stats {
    size_t used_bytes;      /* in blocks handed out */
    size_t held_bytes;      /* taken from the allocator (used + cached) */
    size_t free_bytes;      /* cached in free blocks */
    size_t free_blocks;     /* number of free blocks */
    size_t chunks;          /* allocations made from the allocator, still held */
    size_t peak_used_bytes; /* highest used_bytes so far */
    size_t limit_bytes;     /* 0: no limit */
} ga_memory_stats;

/* A device allocator for the pool: `alloc` stores a device address of at
   least `bytes` (256-byte aligned) in *ptr and returns 0, or returns nonzero
   when out of memory; `free` gives it back. Called with the device's context
   current, under the pool's lock. */
typedef struct ga_allocator {
    int (*alloc)(void *user, int device, size_t bytes, uint64_t *ptr);
    void (*free)(void *user, int device, uint64_t ptr, size_t bytes);
    void *user;
} ga_allocator;

/* Device memory from the current device's pool, ordered on the current
   stream (valid for work on it at once; for another stream after
   synchronising). NULL with GA_ERROR_OUT_OF_MEMORY on failure. ga_memory_free
   returns it to the pool; freeing NULL does nothing. */
GPUARR_API void *ga_memory_alloc(size_t bytes);
GPUARR_API void ga_memory_free(void *ptr);

/* Statistics of `device`'s pool. */
GPUARR_API ga_status ga_memory_get_stats(int device, ga_memory_stats *stats);

/* Caps what `device`'s pool holds at `bytes` (0: no cap). The environment
   variable GPUARR_MEMORY_LIMIT (bytes, with an optional K/M/G/T suffix, or a
   percentage of the device's memory such as "50%") sets it at start. */
GPUARR_API ga_status ga_memory_set_limit(int device, size_t bytes);

/* Gives every cached free chunk of `device`'s pool back to its allocator
   (cupy's free_all_blocks); -1 does it for every device. */
GPUARR_API ga_status ga_memory_free_all_blocks(int device);

/* Replaces `device`'s allocator (NULL: cuMemAlloc/cuMemFree). Only while the
   pool has no memory in use; otherwise GA_ERROR_STATE. */
GPUARR_API ga_status ga_memory_set_allocator(int device, const ga_allocator *allocator);

/* Page-locked host memory from the pinned pool, for asynchronous copies. A
   freed block is reused only after the work queued on the current stream at
   the time of the free has finished. */
GPUARR_API void *ga_pinned_alloc(size_t bytes);
GPUARR_API void ga_pinned_free(void *ptr);
GPUARR_API ga_status ga_pinned_get_stats(ga_memory_stats *stats);
GPUARR_API ga_status ga_pinned_free_all_blocks(void);

/* >>dtype */
/* ======================================================================== */
/* 7. Dtypes and type promotion                                              */
/* ======================================================================== */

/* NumPy's name of a dtype ("float32"), or "invalid". */
GPUARR_API const char *ga_dtype_name(ga_dtype dtype);

/* The dtype called `name` (NumPy's names: "float32", "int64", "bool", ...),
   or GA_DTYPE_INVALID. */
GPUARR_API ga_dtype ga_dtype_from_name(const char *name);

/* Bytes per element, or 0 for an invalid dtype. */
GPUARR_API size_t ga_dtype_itemsize(ga_dtype dtype);

/* NumPy's kind character: 'b', 'i', 'u', 'f' or 'c'; 0 if invalid. */
GPUARR_API char ga_dtype_kind(ga_dtype dtype);

/* numpy.promote_types: the smallest dtype both cast to safely. bfloat16
   promotes as ml_dtypes (with float16: float32). */
GPUARR_API ga_dtype ga_promote_types(ga_dtype a, ga_dtype b);

/* numpy.can_cast(from, to, casting). */
GPUARR_API bool ga_can_cast(ga_dtype from, ga_dtype to, ga_casting casting);

/* numpy.result_type under NEP 50: the promotion of `ndtypes` array dtypes
   with `nscalars` weak C scalars (only their kinds matter). With no dtypes,
   the scalars' own defaults (bool, int64, float64, complex128).
   GA_DTYPE_INVALID for an invalid dtype, a negative count or a NULL list. */
GPUARR_API ga_dtype ga_result_type(int ndtypes, const ga_dtype *dtypes,
                                   int nscalars, const ga_scalar *scalars);

/* Weak scalars standing for Python's bool, int, float and complex. */
static inline ga_scalar ga_bool(bool v) { ga_scalar s; s.kind = GA_SCALAR_BOOL; s.value.c.re = 0; s.value.c.im = 0; s.value.b = v; return s; }
static inline ga_scalar ga_int(int64_t v) { ga_scalar s; s.kind = GA_SCALAR_INT; s.value.c.re = 0; s.value.c.im = 0; s.value.i = v; return s; }
static inline ga_scalar ga_uint(uint64_t v) { ga_scalar s; s.kind = GA_SCALAR_UINT; s.value.c.re = 0; s.value.c.im = 0; s.value.u = v; return s; }
static inline ga_scalar ga_float(double v) { ga_scalar s; s.kind = GA_SCALAR_FLOAT; s.value.c.im = 0; s.value.f = v; return s; }
static inline ga_scalar ga_complex(double re, double im) { ga_scalar s; s.kind = GA_SCALAR_COMPLEX; s.value.c.re = re; s.value.c.im = im; return s; }

/* >>shape */
/* ======================================================================== */
/* 8. Shapes, strides and axes                                               */
/* ======================================================================== */
/* Shapes are int64_t arrays of ndim values, strides are in bytes (negative
   and zero allowed). Axes may be negative (counted from the end); an axis out
   of range is GA_ERROR_AXIS with NumPy's message. */

/* An omitted slice bound (Python's None), and "no axis" (NumPy's
   axis=None: the array is flattened first). */
#define GA_NONE INT64_MIN
#define GA_AXIS_NONE (-2147483647 - 1)

/* >>array */
/* ======================================================================== */
/* 9. Arrays: attributes, views, reference counting, scopes                  */
/* ======================================================================== */

/* Attributes; each returns -1/NULL/0 for a NULL array. */
GPUARR_API int ga_ndim(const ga_array *a);
/* Shape and strides (in bytes; negative and zero allowed) as arrays of
   ga_ndim(a) values, valid while `a` lives. */
GPUARR_API const int64_t *ga_shape(const ga_array *a);
GPUARR_API const int64_t *ga_strides(const ga_array *a);
GPUARR_API int64_t ga_size(const ga_array *a);      /* number of elements */
GPUARR_API ga_dtype ga_dtype_of(const ga_array *a);
GPUARR_API size_t ga_itemsize(const ga_array *a);
GPUARR_API size_t ga_nbytes(const ga_array *a);     /* size * itemsize */
GPUARR_API int ga_device_of(const ga_array *a);
GPUARR_API int ga_flags(const ga_array *a);         /* GA_C_CONTIGUOUS | ... */
/* The device address of the first element (NumPy's .data.ptr); may point
   anywhere inside the buffer for views with negative strides; NULL for an
   empty array. */
GPUARR_API void *ga_data(const ga_array *a);

/* numpy.lib.stride_tricks.as_strided: a view of `a`'s buffer with the given
   shape, byte strides and byte offset from a's first element. Every element
   must lie inside the buffer and be aligned (offset and strides multiples of
   the item size, 8 for complex128), else GA_ERROR_VALUE. The view shares
   (and keeps alive) the buffer. */
GPUARR_API ga_array *ga_as_strided(const ga_array *a, int ndim, const int64_t *shape,
                                   const int64_t *strides, int64_t offset);

/* Adds a reference to `a` and returns it. Thread safe. */
GPUARR_API ga_array *ga_retain(ga_array *a);

/* Drops a reference; the last one frees the array (and its buffer once no
   view uses it, back to the pool on the stream it was allocated on). NULL is
   ignored. Thread safe. */
GPUARR_API void ga_release(ga_array *a);

/* Scopes keep chained expressions from leaking: every array a gpuarr call
   returns on this thread between ga_scope_begin and ga_scope_end is released
   at the end, except those passed to ga_keep, which move to the enclosing
   scope (or out of scopes altogether). Scopes nest 64 deep. Inside a scope,
   do not ga_release the arrays it owns.

       ga_scope_begin();
       ga_array *r = ga_keep(ga_astype(ga_full(1, &n, ga_float(2), GA_FLOAT32), GA_FLOAT64));
       ga_scope_end();          // the float32 temporary is released here
*/
GPUARR_API void ga_scope_begin(void);
GPUARR_API void ga_scope_end(void);
GPUARR_API ga_array *ga_keep(ga_array *a);

/* >>launch */
/* ======================================================================== */
/* 10. Kernels: families, launching, the CUB glue                            */
/* ======================================================================== */
/* Kernels are compiled offline (`make fatbins`) into one fatbin per family
   and loaded at first use; the CUB glue is linked as build/libgpuarr_cub.a. */

/* The kernel families (one fatbin each, loaded at first use): how many, the
   name of family i ("copy", "creation", ...) or NULL, and whether it is
   loaded in this process. For tools and tests. */
GPUARR_API int ga_kernel_family_count(void);
GPUARR_API const char *ga_kernel_family_name(int family);
GPUARR_API bool ga_kernel_family_loaded(int family);

/* Where family i's kernels come from: writes the fatbin's path ("embedded"
   with GPUARR_EMBED_FATBINS) into `path` and returns true, or writes the
   places searched and returns false. Search order: the environment variable
   GPUARR_KERNEL_DIR, the GPUARR_KERNEL_DIR macro, ./build/kernels. */
GPUARR_API bool ga_kernel_family_locate(int family, char *path, size_t size);

/* The CUB version the glue archive was built with (CUB_VERSION, e.g.
   300001): a program calling it is known to link the archive. */
GPUARR_API int ga_cub_version(void);

/* >>libs */
/* ======================================================================== */
/* 11. CUDA libraries: loading, handles, streams                             */
/* ======================================================================== */
/* The NVIDIA libraries behind linear algebra (cuBLAS, cuSOLVER; cuSPARSE,
   cuFFT and NCCL as their sections land), and zlib for compressed .npz
   archives (>>io), are opened at their first use with dlopen by soname
   (libcublas.so.13, libcusolver.so.12, libz.so.1), each entry point
   resolved once: a program that never calls them never loads them, starts
   as fast, and links with nothing new (-ldl -lpthread -lm). An environment
   variable per library names another file: GPUARR_CUBLAS_LIBRARY,
   GPUARR_CUSOLVER_LIBRARY, GPUARR_ZLIB_LIBRARY. Compiled with
   GPUARR_LINK_CUDA_LIBRARIES, the implementation takes the same entry
   points from the link instead (-lcusolver -lcublas -lcublasLt -lz, or the
   toolkit's static archives for one self-contained binary; see the
   README), and needs zlib.h. Handles are made per device and thread at
   first use and bound to the thread's current stream at every call; their
   workspaces come from the pool on that stream. A library that cannot be
   loaded is GA_ERROR_LIBRARY, naming the function and the file
   ("ga_matmul: libcublas.so.13 could not be loaded: ...",
   "ga_savez_compressed: libz.so.1 could not be loaded: ..."). */

/* Loads the library `name` ("cublas", "cusolver", "zlib") if it is not
   loaded yet: GA_OK, or GA_ERROR_LIBRARY with the reason (GA_ERROR_VALUE
   for a name gpuarr does not use). Needs no GPU. Thread safe. */
GPUARR_API ga_status ga_cuda_library_load(const char *name);

/* >>creation */
/* ======================================================================== */
/* 12. Creation                                                              */
/* ======================================================================== */
/* Shapes are (ndim, shape) pairs; ndim 0 makes a 0-d array. In C,
   GA_SHAPE(3, 4) expands to `2, (const int64_t[]){3, 4}`. Arrays are
   C-contiguous on the current device. Errors: negative dimensions
   (GA_ERROR_VALUE), ndim > GA_MAXDIMS, invalid dtype, out of memory. */
#ifndef __cplusplus
#define GA_SHAPE(...) \
    (int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (const int64_t[]){__VA_ARGS__}
#endif

/* numpy.empty: uninitialised. */
GPUARR_API ga_array *ga_empty(int ndim, const int64_t *shape, ga_dtype dtype);
/* numpy.zeros / numpy.ones. */
GPUARR_API ga_array *ga_zeros(int ndim, const int64_t *shape, ga_dtype dtype);
GPUARR_API ga_array *ga_ones(int ndim, const int64_t *shape, ga_dtype dtype);
/* numpy.full: every element `value`, converted as NumPy assigns a Python
   scalar: an int outside the dtype's range is GA_ERROR_OVERFLOW; floats
   convert as astype does; complex into a real dtype keeps the real part. */
GPUARR_API ga_array *ga_full(int ndim, const int64_t *shape, ga_scalar value, ga_dtype dtype);

/* numpy.empty_like / zeros_like / ones_like / full_like: the shape and dtype
   of `a` (C order), on a's device. */
GPUARR_API ga_array *ga_empty_like(const ga_array *a);
GPUARR_API ga_array *ga_zeros_like(const ga_array *a);
GPUARR_API ga_array *ga_ones_like(const ga_array *a);
GPUARR_API ga_array *ga_full_like(const ga_array *a, ga_scalar value);

/* numpy.arange with floating arguments: ceil((stop - start) / step) elements
   start + i * delta, computed as NumPy does in the dtype's precision (delta
   is the difference of the first two elements). Bool only up to two
   elements. Errors: step 0, a NaN bound. */
GPUARR_API ga_array *ga_arange(double start, double stop, double step, ga_dtype dtype);

/* numpy.arange with integer start, stop and step: the exact element count,
   values computed in integers (float dtypes as ga_arange). */
GPUARR_API ga_array *ga_arange_int(int64_t start, int64_t stop, int64_t step, ga_dtype dtype);

/* numpy.linspace: `num` values from start to stop (stop included when
   `endpoint`), computed in float64 and converted (floored first for integer
   dtypes, as NumPy 2 does). Errors: num < 0. */
GPUARR_API ga_array *ga_linspace(double start, double stop, int64_t num, bool endpoint,
                                 ga_dtype dtype);

/* numpy.logspace: base ** linspace(start, stop, num, endpoint), converted to
   `dtype` as astype does. */
GPUARR_API ga_array *ga_logspace(double start, double stop, int64_t num, bool endpoint,
                                 double base, ga_dtype dtype);

/* numpy.eye: an n x m matrix with ones on the k-th diagonal (k > 0 above the
   main one). m < 0 means m = n. */
GPUARR_API ga_array *ga_eye(int64_t n, int64_t m, int64_t k, ga_dtype dtype);

/* numpy.identity: ga_eye(n, n, 0, dtype). */
GPUARR_API ga_array *ga_identity(int64_t n, ga_dtype dtype);

/* >>transfer */
/* ======================================================================== */
/* 13. Transfers and casting                                                 */
/* ======================================================================== */

/* cupy.asarray(host_array): a new C-contiguous device array with a copy of
   the C-ordered host data (size * itemsize bytes). Returns once `data` may
   be reused. */
GPUARR_API ga_array *ga_from_host(const void *data, int ndim, const int64_t *shape,
                                  ga_dtype dtype);

/* As ga_from_host, but the copy is only enqueued on the current stream:
   `data` (best page-locked, see ga_pinned_alloc) must stay unchanged until
   the stream has been synchronised. */
GPUARR_API ga_array *ga_from_host_async(const void *data, int ndim, const int64_t *shape,
                                        ga_dtype dtype);

/* cupy.ndarray.get: copies `a` in C order into `dst` (dst_bytes >=
   ga_nbytes(a), else GA_ERROR_VALUE) and waits for it. */
GPUARR_API ga_status ga_to_host(const ga_array *a, void *dst, size_t dst_bytes);

/* As ga_to_host, enqueued on the current stream: `dst` (best page-locked) is
   filled once the stream is synchronised. */
GPUARR_API ga_status ga_to_host_async(const ga_array *a, void *dst, size_t dst_bytes);

/* cupy.ndarray.set: copies C-ordered host data (src_bytes ==
   ga_nbytes(dst)) into `dst`, any layout. The async form leaves `src` in use
   until the current stream is synchronised. */
GPUARR_API ga_status ga_copy_from_host(ga_array *dst, const void *src, size_t src_bytes);
GPUARR_API ga_status ga_copy_from_host_async(ga_array *dst, const void *src, size_t src_bytes);

/* A C-contiguous copy of `a` on `device` (a peer copy; the driver stages it
   through the host when the GPUs cannot reach each other). */
GPUARR_API ga_array *ga_to_device(const ga_array *a, int device);

/* numpy.copy: a new C-contiguous array with a's dtype and values. */
GPUARR_API ga_array *ga_copy(const ga_array *a);

/* ndarray.astype(dtype): a new C-contiguous array of `dtype` with NumPy's
   casting values (float to int truncates, NaN and out-of-range as NumPy on
   x86, complex to real keeps the real part, nonzero to bool is true). */
GPUARR_API ga_array *ga_astype(const ga_array *a, ga_dtype dtype);

/* numpy.copyto(dst, src, casting): broadcasts `src` to dst's shape and
   writes it, converted, into `dst` (any layout, any dtype `casting` allows;
   overlapping memory is handled). Errors: shapes that do not broadcast, a
   cast not allowed, a read-only dst. */
GPUARR_API ga_status ga_copyto(ga_array *dst, const ga_array *src, ga_casting casting);

/* >>ufunc */
/* ======================================================================== */
/* 14. Elementwise functions (ufuncs)                                        */
/* ======================================================================== */
/* NumPy's ufuncs, with NumPy 2's broadcasting, loop selection and type
   promotion. Every ufunc X of the lists below is called in these forms:

     unary    ga_array *ga_X(const ga_array *a)
              ga_status ga_X_out(const ga_array *a, ga_array *out)
     binary   ga_array *ga_X(const ga_array *a, const ga_array *b)
              ga_status ga_X_out(const ga_array *a, const ga_array *b, ga_array *out)
              ga_array *ga_X_scalar(const ga_array *a, ga_scalar b)    a X b
              ga_array *ga_X_rscalar(ga_scalar a, const ga_array *b)   a X b

   and every ufunc, including those with several inputs or outputs, through
   ga_ufunc_call. The rules, as in NumPy:
   - Inputs broadcast together; a C scalar (ga_int(2), ga_float(0.5), ...)
     is a weak Python scalar: it takes the array's dtype when its kind allows
     (int8 array + ga_int(1) is int8; + ga_float(1) is float64) and travels
     as a kernel parameter, never through device memory. A Python int out of
     the dtype's range is GA_ERROR_OVERFLOW, except where NumPy 2 takes it:
     comparisons compare the values (int8 array < 300 is all true), logical
     functions use its truth, clip drops a bound beyond the range.
   - The loop is the first of the ufunc's loops (NumPy's order) that every
     input casts to safely (copysign(int8, uint8) is float16, as NumPy's);
     integer division by zero gives 0, integers wrap, float16 and bfloat16
     are computed in float32 and rounded once (but for nextafter and
     spacing, which step through their own bits). No loop: GA_ERROR_TYPE
     ("ufunc 'bitwise_and' not supported for the input types ...").
   - Integer power with a negative exponent is GA_ERROR_VALUE ("Integers
     to negative integer powers are not allowed."), as NumPy's ValueError:
     a scalar exponent is checked before the launch; an array of a signed
     dtype by the kernel, so that this call waits for the result (an
     unsigned or bool exponent does not wait).
   - A new result is C-contiguous, or keeps the input's axis order when the
     input is laid out in another order (NumPy's order='K').
   - out= may be any array of the broadcast shape on the inputs' device,
     any strides (negative, zero), of any dtype the loop's result casts to
     under same_kind ("Cannot cast ufunc 'add' output from dtype('float64')
     to dtype('int32') with casting rule 'same_kind'"). It may be an input
     (in place: ga_add_out(a, b, a) is a += b); inputs that overlap it in
     another way are read before it is written. On error nothing is
     written. */

/* X(ENUM, name, loops, result, family): the ufuncs with one input and one
   output. `loops` names the dtypes the ufunc has loops for (GA_LOOPS_*),
   `result` how the output dtype follows from the loop (GA__RESULT_*, in the
   implementation's >>ufunc). */
#define GA_UFUNC_UNARY_LIST(X)                                                  \
    X(NEGATIVE, negative, NUMERIC, SAME, arith)        /* -a */                \
    X(POSITIVE, positive, NUMERIC, SAME, arith)        /* +a */                \
    X(ABSOLUTE, absolute, ALL, ABS, arith)             /* |a|; complex -> real */ \
    X(FABS, fabs, FLOAT, SAME, arith)                  /* |a| of reals */      \
    X(SIGN, sign, NUMERIC, SAME, arith)                /* -1, 0, 1 (z/|z|) */  \
    X(RECIPROCAL, reciprocal, NUMERIC, SAME, arith)    /* 1/a (ints: C's 1.0/a cast back) */ \
    X(SQUARE, square, NUMERIC, SAME, arith)            /* a*a */               \
    X(CONJUGATE, conjugate, NUMERIC, SAME, arith)      /* complex conjugate */ \
    X(FLOOR, floor, BOOL_REAL, SAME, arith)            /* integers unchanged */ \
    X(CEIL, ceil, BOOL_REAL, SAME, arith)                                      \
    X(TRUNC, trunc, BOOL_REAL, SAME, arith)                                    \
    X(FIX, fix, BOOL_REAL, SAME, arith)                /* round toward zero (trunc) */ \
    X(RINT, rint, INEXACT, SAME, arith)                /* to nearest, ties to even */ \
    X(LOGICAL_NOT, logical_not, ALL, BOOL, arith)                              \
    X(ISNAN, isnan, ALL, BOOL, arith)                                          \
    X(ISINF, isinf, ALL, BOOL, arith)                                          \
    X(ISFINITE, isfinite, ALL, BOOL, arith)                                    \
    X(SIGNBIT, signbit, FLOAT, BOOL, arith)                                    \
    X(SPACING, spacing, FLOAT, SAME, arith)            /* signed step away from 0; float16: nextafter(a, inf) - a, as NumPy */ \
    X(INVERT, invert, BOOL_INT, SAME, arith)           /* ~a (bool: not) */    \
    X(SQRT, sqrt, INEXACT, SAME, math)                                         \
    X(CBRT, cbrt, FLOAT, SAME, math)                                           \
    X(EXP, exp, INEXACT, SAME, math)                                           \
    X(EXP2, exp2, INEXACT, SAME, math)                                         \
    X(EXPM1, expm1, INEXACT, SAME, math)                                       \
    X(LOG, log, INEXACT, SAME, math)                                           \
    X(LOG2, log2, INEXACT, SAME, math)                                         \
    X(LOG10, log10, INEXACT, SAME, math)                                       \
    X(LOG1P, log1p, INEXACT, SAME, math)                                       \
    X(SIN, sin, INEXACT, SAME, math)                                           \
    X(COS, cos, INEXACT, SAME, math)                                           \
    X(TAN, tan, INEXACT, SAME, math)                                           \
    X(ARCSIN, arcsin, INEXACT, SAME, math)                                     \
    X(ARCCOS, arccos, INEXACT, SAME, math)                                     \
    X(ARCTAN, arctan, INEXACT, SAME, math)                                     \
    X(SINH, sinh, INEXACT, SAME, math)                                         \
    X(COSH, cosh, INEXACT, SAME, math)                                         \
    X(TANH, tanh, INEXACT, SAME, math)                                         \
    X(ARCSINH, arcsinh, INEXACT, SAME, math)                                   \
    X(ARCCOSH, arccosh, INEXACT, SAME, math)                                   \
    X(ARCTANH, arctanh, INEXACT, SAME, math)                                   \
    X(DEG2RAD, deg2rad, FLOAT, SAME, math)             /* also radians */      \
    X(RAD2DEG, rad2deg, FLOAT, SAME, math)             /* also degrees */      \
    X(SINC, sinc, INEXACT, SINC, math)                 /* sin(pi a)/(pi a), 1 at 0 */

/* The ufuncs with two inputs and one output. */
#define GA_UFUNC_BINARY_LIST(X)                                                 \
    X(ADD, add, ALL, SAME, arith)                      /* a + b (bool: or) */  \
    X(SUBTRACT, subtract, NUMERIC, SAME, arith)        /* a - b */             \
    X(MULTIPLY, multiply, ALL, SAME, arith)            /* a * b (bool: and) */ \
    X(DIVIDE, divide, INEXACT, DIVIDE, arith)          /* a / b (true_divide): integers -> float64 */ \
    X(FLOOR_DIVIDE, floor_divide, REAL, SAME, arith)   /* a // b */            \
    X(REMAINDER, remainder, REAL, SAME, arith)         /* a % b, the sign of b (mod) */ \
    X(FMOD, fmod, REAL, SAME, arith)                   /* C's fmod: the sign of a */ \
    X(POWER, power, NUMERIC, SAME, arith)              /* a ** b */            \
    X(FLOAT_POWER, float_power, DOUBLE, SAME, arith)   /* a ** b in float64/complex128 */ \
    X(EQUAL, equal, ALL, COMPARE, arith)                                       \
    X(NOT_EQUAL, not_equal, ALL, COMPARE, arith)                               \
    X(LESS, less, ALL, COMPARE, arith)                                         \
    X(LESS_EQUAL, less_equal, ALL, COMPARE, arith)                             \
    X(GREATER, greater, ALL, COMPARE, arith)                                   \
    X(GREATER_EQUAL, greater_equal, ALL, COMPARE, arith)                       \
    X(LOGICAL_AND, logical_and, ALL, BOOL, arith)                              \
    X(LOGICAL_OR, logical_or, ALL, BOOL, arith)                                \
    X(LOGICAL_XOR, logical_xor, ALL, BOOL, arith)                              \
    X(MAXIMUM, maximum, ALL, SAME, arith)              /* NaN propagates */    \
    X(MINIMUM, minimum, ALL, SAME, arith)                                      \
    X(FMAX, fmax, ALL, SAME, arith)                    /* NaN ignored */       \
    X(FMIN, fmin, ALL, SAME, arith)                                            \
    X(COPYSIGN, copysign, FLOAT, SAME, arith)                                  \
    X(NEXTAFTER, nextafter, FLOAT, SAME, arith)                                \
    X(LDEXP, ldexp, FLOAT, LDEXP, arith)               /* a * 2**b, b integer */ \
    X(HEAVISIDE, heaviside, FLOAT, SAME, arith)        /* 0 (a<0), b (a==0), 1 */ \
    X(BITWISE_AND, bitwise_and, BOOL_INT, SAME, arith)                         \
    X(BITWISE_OR, bitwise_or, BOOL_INT, SAME, arith)                           \
    X(BITWISE_XOR, bitwise_xor, BOOL_INT, SAME, arith)                         \
    X(LEFT_SHIFT, left_shift, INT, SAME, arith)        /* shifts >= the width give 0 */ \
    X(RIGHT_SHIFT, right_shift, INT, SAME, arith)      /* arithmetic for signed */ \
    X(GCD, gcd, INT, SAME, arith)                                              \
    X(LCM, lcm, INT, SAME, arith)                                              \
    X(LOGADDEXP, logaddexp, FLOAT, SAME, math)         /* log(exp(a) + exp(b)) */ \
    X(LOGADDEXP2, logaddexp2, FLOAT, SAME, math)       /* log2(2**a + 2**b) */ \
    X(ARCTAN2, arctan2, FLOAT, SAME, math)                                     \
    X(HYPOT, hypot, FLOAT, SAME, math)

/* The ufuncs with other arities, called through the functions below or
   ga_ufunc_call: X(ENUM, name, nin, nout, loops, result, family). WHERE,
   CLIP, ISCLOSE, ROUND, NAN_TO_NUM and ANGLE stand for NumPy functions
   that are not ufuncs there (their extra arguments are kernel parameters). */
#define GA_UFUNC_OTHER_LIST(X)                                                  \
    X(DIVMOD, divmod, 2, 2, REAL, SAME, arith)         /* (a // b, a % b) */   \
    X(MODF, modf, 1, 2, FLOAT, SAME, arith)            /* (fraction, integral part) */ \
    X(FREXP, frexp, 1, 2, FLOAT, FREXP, arith)         /* (mantissa, int32 exponent) */ \
    X(WHERE, where, 3, 1, ALL, WHERE, arith)           /* cond ? x : y */      \
    X(CLIP, clip, 3, 1, ALL, SAME, arith)              /* min(max(a, lo), hi) */ \
    X(ISCLOSE, isclose, 2, 1, INEXACT, ISCLOSE, arith)                         \
    X(ROUND, round, 1, 1, NUMERIC, SAME, arith)        /* to `decimals`, ties to even */ \
    X(NAN_TO_NUM, nan_to_num, 1, 1, ALL, SAME, arith)                          \
    X(ANGLE, angle, 1, 1, INEXACT, ABS, math)          /* arctan2(imag, real) */

/* The ufuncs by number: GA_UFUNC_ADD, GA_UFUNC_EXP, ... */
typedef enum ga_ufunc {
#define GA__UFUNC_ENUM(E, name, loops, result, family) GA_UFUNC_##E,
#define GA__UFUNC_ENUM_OTHER(E, name, nin, nout, loops, result, family) GA_UFUNC_##E,
    GA_UFUNC_UNARY_LIST(GA__UFUNC_ENUM)
    GA_UFUNC_BINARY_LIST(GA__UFUNC_ENUM)
    GA_UFUNC_OTHER_LIST(GA__UFUNC_ENUM_OTHER)
#undef GA__UFUNC_ENUM
#undef GA__UFUNC_ENUM_OTHER
    GA_NUM_UFUNCS
} ga_ufunc;

/* One input of ga_ufunc_call: an array, or a weak C scalar. Make it with
   ga_operand_array (a NULL array, an earlier failure, is an error there) or
   ga_operand_scalar. */
typedef struct ga_operand {
    const ga_array *array; /* NULL: the operand is `scalar` */
    ga_scalar scalar;
} ga_operand;

static inline ga_operand ga_operand_array(const ga_array *a) { ga_operand o; o.array = a; o.scalar = ga_int(0); o.scalar.kind = (ga_scalar_kind)-1; return o; }
static inline ga_operand ga_operand_scalar(ga_scalar s) { ga_operand o; o.array = NULL; o.scalar = s; return o; }

/* NumPy's name of a ufunc ("add"), its numbers of inputs and outputs; NULL
   and -1 for a number that is not a ufunc. */
GPUARR_API const char *ga_ufunc_name(ga_ufunc u);
GPUARR_API int ga_ufunc_nin(ga_ufunc u);
GPUARR_API int ga_ufunc_nout(ga_ufunc u);

/* numpy.ufunc.resolve_dtypes: the output dtypes (nout of them) ufunc `u`
   gives for its nin inputs: input k is an array of dtype in_dtypes[k], or,
   where in_dtypes[k] is GA_DTYPE_INVALID, the weak scalar in_scalars[k]
   (only its kind counts; in_scalars may be NULL when there is none).
   GA_ERROR_TYPE when no loop takes them. Needs no GPU. */
GPUARR_API ga_status ga_ufunc_resolve_dtypes(ga_ufunc u, const ga_dtype *in_dtypes,
                                             const ga_scalar *in_scalars, ga_dtype *out_dtypes);

/* Calls ufunc `u` on its nin inputs. For each of its nout outputs, out[k]
   is either an array to write (NumPy's out=) or NULL, in which case a new
   array is stored in out[k] (release it). On failure nothing is written,
   new outputs are not made and out[k] that were NULL stay NULL. The extra
   arguments of ROUND, ISCLOSE, NAN_TO_NUM and ANGLE take NumPy's defaults
   here (decimals 0; rtol 1e-5, atol 1e-8; nan 0, infinities to the largest
   finite values; radians); call their own functions for others. */
GPUARR_API ga_status ga_ufunc_call(ga_ufunc u, const ga_operand *in, ga_array **out);

/* The unary and binary forms, declared from the lists above. */
#define GA__DECLARE_UNARY(E, name, loops, result, family)                       \
    GPUARR_API ga_array *ga_##name(const ga_array *a);                          \
    GPUARR_API ga_status ga_##name##_out(const ga_array *a, ga_array *out);
#define GA__DECLARE_BINARY(E, name, loops, result, family)                      \
    GPUARR_API ga_array *ga_##name(const ga_array *a, const ga_array *b);       \
    GPUARR_API ga_status ga_##name##_out(const ga_array *a, const ga_array *b, ga_array *out); \
    GPUARR_API ga_array *ga_##name##_scalar(const ga_array *a, ga_scalar b);    \
    GPUARR_API ga_array *ga_##name##_rscalar(ga_scalar a, const ga_array *b);
GA_UFUNC_UNARY_LIST(GA__DECLARE_UNARY)
GA_UFUNC_BINARY_LIST(GA__DECLARE_BINARY)
#undef GA__DECLARE_UNARY
#undef GA__DECLARE_BINARY

/* NumPy's other names for the same functions. */
#define ga_abs ga_absolute
#define ga_abs_out ga_absolute_out
#define ga_conj ga_conjugate
#define ga_conj_out ga_conjugate_out
#define ga_true_divide ga_divide
#define ga_true_divide_out ga_divide_out
#define ga_true_divide_scalar ga_divide_scalar
#define ga_true_divide_rscalar ga_divide_rscalar
#define ga_mod ga_remainder
#define ga_mod_out ga_remainder_out
#define ga_mod_scalar ga_remainder_scalar
#define ga_mod_rscalar ga_remainder_rscalar
#define ga_radians ga_deg2rad
#define ga_radians_out ga_deg2rad_out
#define ga_degrees ga_rad2deg
#define ga_degrees_out ga_rad2deg_out

/* numpy.divmod: *quotient = a // b and *remainder = a % b, new arrays. */
GPUARR_API ga_status ga_divmod(const ga_array *a, const ga_array *b, ga_array **quotient,
                               ga_array **remainder);

/* numpy.modf: the fractional and integral parts, both with a's sign. */
GPUARR_API ga_status ga_modf(const ga_array *a, ga_array **fraction, ga_array **integral);

/* numpy.frexp: a = mantissa * 2**exponent, 0.5 <= |mantissa| < 1;
   the exponent is int32. */
GPUARR_API ga_status ga_frexp(const ga_array *a, ga_array **mantissa, ga_array **exponent);

/* numpy.where(cond, x, y): x where cond is true, else y, broadcast
   together; the dtype is x's and y's common dtype. `cond` of any dtype is
   tested as nonzero. Scalars for x or y: ga_ufunc_call(GA_UFUNC_WHERE). */
GPUARR_API ga_array *ga_where(const ga_array *cond, const ga_array *x, const ga_array *y);

/* numpy.clip(a, lo, hi): min(max(a, lo), hi), NaN propagating. `lo` or
   `hi` may be NULL (no bound; not both). ga_clip_scalar takes C scalars
   (weak, as in a ufunc). */
GPUARR_API ga_array *ga_clip(const ga_array *a, const ga_array *lo, const ga_array *hi);
GPUARR_API ga_array *ga_clip_scalar(const ga_array *a, ga_scalar lo, ga_scalar hi);

/* numpy.isclose: |a - b| <= atol + rtol * |b|, elementwise (bool);
   infinities are close when equal; NaNs when equal_nan. Integers compare
   in float64. As NumPy, atol + rtol * |b| is rounded to b's dtype (a
   float16 b: to float16) before it is compared. NumPy's defaults: rtol
   1e-5, atol 1e-8, equal_nan false. */
GPUARR_API ga_array *ga_isclose(const ga_array *a, const ga_array *b, double rtol, double atol,
                                bool equal_nan);

/* numpy.allclose: whether ga_isclose holds everywhere; waits for the
   result. */
GPUARR_API ga_status ga_allclose(const ga_array *a, const ga_array *b, double rtol, double atol,
                                 bool equal_nan, bool *result);

/* numpy.round(a, decimals) (around): to the nearest multiple of
   10**-decimals, ties to even; complex rounds both parts; integers are
   returned unchanged for decimals >= 0. */
GPUARR_API ga_array *ga_round(const ga_array *a, int decimals);

/* numpy.nan_to_num: NaN -> `nan`, +inf -> `posinf`, -inf -> `neginf`
   (each part of a complex number); other dtypes are copied.
   ga_nan_to_num uses NumPy's defaults: 0 and the dtype's largest finite
   values. */
GPUARR_API ga_array *ga_nan_to_num(const ga_array *a);
GPUARR_API ga_array *ga_nan_to_num_values(const ga_array *a, double nan, double posinf,
                                          double neginf);

/* numpy.angle: the argument of complex numbers (of reals: 0 or pi), in
   radians or, with deg, degrees. */
GPUARR_API ga_array *ga_angle(const ga_array *a, bool deg);

/* numpy.real and numpy.imag: of a complex array, views of its parts
   (writing through them writes a); of a real array, the array itself
   (real) or a new array of zeros (imag). */
GPUARR_API ga_array *ga_real(const ga_array *a);
GPUARR_API ga_array *ga_imag(const ga_array *a);

/* >>manip */
/* ======================================================================== */
/* 15. Shape manipulation                                                    */
/* ======================================================================== */
/* Views share their base's buffer, as in NumPy: a write through one shows in
   the other. Functions that NumPy answers with a view return a view (no
   device work); the others copy. Axes may be negative (counted from the
   end); an axis out of range is GA_ERROR_AXIS with NumPy's message. */

/* numpy.reshape (C order): a view when the strides allow it, else a copy.
   One dimension may be -1 (inferred). Errors: "cannot reshape array of size
   12 into shape (5,)". */
GPUARR_API ga_array *ga_reshape(const ga_array *a, int ndim, const int64_t *shape);

/* numpy.ravel: a 1-d view when a is C-contiguous, else a copy.
   ndarray.flatten: always a copy. */
GPUARR_API ga_array *ga_ravel(const ga_array *a);
GPUARR_API ga_array *ga_flatten(const ga_array *a);

/* numpy.squeeze: a view without the given unit axes (naxes 0 and axes NULL:
   all of them; naxes 0 and axes not NULL, NumPy's axis=(): none; a named
   axis that is not 1 long is GA_ERROR_VALUE). numpy.expand_dims: a view
   with new unit axes at the given positions of the result (naxes 0: none,
   axis=()). */
GPUARR_API ga_array *ga_squeeze(const ga_array *a, int naxes, const int *axes);
GPUARR_API ga_array *ga_expand_dims(const ga_array *a, int naxes, const int *axes);

/* numpy.transpose: a view with the axes permuted (axes NULL: reversed).
   numpy.permute_dims is the same with the permutation required. */
GPUARR_API ga_array *ga_transpose(const ga_array *a, const int *axes);
GPUARR_API ga_array *ga_permute_dims(const ga_array *a, const int *axes);

/* numpy.swapaxes and numpy.moveaxis (n source axes to n destinations):
   views. */
GPUARR_API ga_array *ga_swapaxes(const ga_array *a, int axis1, int axis2);
GPUARR_API ga_array *ga_moveaxis(const ga_array *a, int n, const int *source, const int *destination);

/* numpy.broadcast_to: a read-only view of `a` with the given shape (stride 0
   along broadcast axes). Errors: shapes that do not broadcast. */
GPUARR_API ga_array *ga_broadcast_to(const ga_array *a, int ndim, const int64_t *shape);

/* numpy.broadcast_arrays: out[i] = a read-only view of in[i] with the
   common broadcast shape. On error nothing is stored in out. */
GPUARR_API ga_status ga_broadcast_arrays(int n, const ga_array *const *in, ga_array **out);

/* numpy.atleast_1d / 2d / 3d: views with unit axes added as NumPy adds
   them. */
GPUARR_API ga_array *ga_atleast_1d(const ga_array *a);
GPUARR_API ga_array *ga_atleast_2d(const ga_array *a);
GPUARR_API ga_array *ga_atleast_3d(const ga_array *a);

/* numpy.ascontiguousarray / asfortranarray: `a` itself (a new reference)
   when already laid out so (at least 1-d), else a copy in that order. */
GPUARR_API ga_array *ga_ascontiguousarray(const ga_array *a);
GPUARR_API ga_array *ga_asfortranarray(const ga_array *a);

/* numpy.flip along the given axes (naxes 0 and axes NULL: all; naxes 0 and
   axes not NULL, NumPy's axis=(): none, a view of a as it is), fliplr
   (axis 1), flipud (axis 0): views with negative strides. */
GPUARR_API ga_array *ga_flip(const ga_array *a, int naxes, const int *axes);
GPUARR_API ga_array *ga_fliplr(const ga_array *a);
GPUARR_API ga_array *ga_flipud(const ga_array *a);

/* numpy.rot90: a view of `a` rotated k quarter turns from axis1 towards
   axis2. */
GPUARR_API ga_array *ga_rot90(const ga_array *a, int k, int axis1, int axis2);

/* numpy.diagonal: a read-only view of the diagonal `offset` of the plane
   (axis1, axis2), which moves to the last axis. */
GPUARR_API ga_array *ga_diagonal(const ga_array *a, int64_t offset, int axis1, int axis2);

/* numpy.diag: of a 1-d array, a new 2-d array with it on diagonal k; of a
   2-d array, a read-only view of diagonal k. numpy.diagflat: diag of the
   flattened input. */
GPUARR_API ga_array *ga_diag(const ga_array *a, int64_t k);
GPUARR_API ga_array *ga_diagflat(const ga_array *a, int64_t k);

/* numpy.fill_diagonal: writes `value` on the main diagonal of `a` (2-d, or
   every axis of equal length); with `wrap`, a tall matrix's diagonal starts
   again every cols + 1 rows, as NumPy's wrap=True. */
GPUARR_API ga_status ga_fill_diagonal(ga_array *a, ga_scalar value, bool wrap);

/* numpy.tril / numpy.triu: copies of `a` with the elements above (tril) or
   below (triu) diagonal k of the last two axes set to zero (a 1-d input is
   first broadcast to a square). numpy.tri: an n x m array of ones at and
   below diagonal k (m < 0 means m = n). */
GPUARR_API ga_array *ga_tril(const ga_array *a, int64_t k);
GPUARR_API ga_array *ga_triu(const ga_array *a, int64_t k);
GPUARR_API ga_array *ga_tri(int64_t n, int64_t m, int64_t k, ga_dtype dtype);

/* numpy.indices: an array of shape (ndim, *dims) whose i-th slab holds the
   index along axis i. */
GPUARR_API ga_array *ga_indices(int ndim, const int64_t *dims, ga_dtype dtype);

/* numpy.concatenate along `axis` (GA_AXIS_NONE: the inputs flattened), with
   the inputs' promoted dtype. numpy.stack joins along a new axis. Errors:
   no inputs, dimensions that do not match (NumPy's message). */
GPUARR_API ga_array *ga_concatenate(int n, const ga_array *const *arrays, int axis);
GPUARR_API ga_array *ga_stack(int n, const ga_array *const *arrays, int axis);

/* numpy.hstack, vstack, dstack, column_stack. */
GPUARR_API ga_array *ga_hstack(int n, const ga_array *const *arrays);
GPUARR_API ga_array *ga_vstack(int n, const ga_array *const *arrays);
GPUARR_API ga_array *ga_dstack(int n, const ga_array *const *arrays);
GPUARR_API ga_array *ga_column_stack(int n, const ga_array *const *arrays);

/* numpy.split into `sections` equal views along `axis` (out holds
   `sections` arrays; an unequal division is GA_ERROR_VALUE, "array split
   does not result in an equal division"); numpy.array_split allows it;
   ga_split_at splits before each of the n sorted `indices` (n + 1 views).
   numpy.hsplit / vsplit split along axis 1 (0 for 1-d) / axis 0. */
GPUARR_API ga_status ga_split(const ga_array *a, int64_t sections, int axis, ga_array **out);
GPUARR_API ga_status ga_array_split(const ga_array *a, int64_t sections, int axis, ga_array **out);
GPUARR_API ga_status ga_split_at(const ga_array *a, int n, const int64_t *indices, int axis, ga_array **out);
GPUARR_API ga_status ga_hsplit(const ga_array *a, int64_t sections, ga_array **out);
GPUARR_API ga_status ga_vsplit(const ga_array *a, int64_t sections, ga_array **out);

/* numpy.pad's modes. */
typedef enum ga_pad_mode {
    GA_PAD_CONSTANT, /* the value `constant` */
    GA_PAD_EDGE,     /* the edge element, repeated */
    GA_PAD_REFLECT,  /* mirrored about the edge, the edge not repeated */
    GA_PAD_WRAP      /* the array repeated periodically */
} ga_pad_mode;

/* numpy.pad: a new array with widths[2d] elements before and widths[2d+1]
   after axis d; `constant` is used by GA_PAD_CONSTANT only. Errors:
   negative widths, a non-constant mode on an empty axis. */
GPUARR_API ga_array *ga_pad(const ga_array *a, const int64_t *widths, ga_pad_mode mode, ga_scalar constant);

/* numpy.tile (n repetition counts) and numpy.repeat with one count for
   every element along `axis` (GA_AXIS_NONE: flattened): copies. */
GPUARR_API ga_array *ga_tile(const ga_array *a, int n, const int64_t *reps);
GPUARR_API ga_array *ga_repeat(const ga_array *a, int64_t repeats, int axis);

/* numpy.roll by `shift` along `axis` (GA_AXIS_NONE: flattened): a copy. */
GPUARR_API ga_array *ga_roll(const ga_array *a, int64_t shift, int axis);

/* numpy.meshgrid of n 1-d arrays (indexing "xy" or, with `ij`, "ij"):
   out[i] is a C-contiguous copy, as NumPy's copy=True. */
GPUARR_API ga_status ga_meshgrid(int n, const ga_array *const *xi, bool ij, ga_array **out);

/* >>index */
/* ======================================================================== */
/* 16. Indexing                                                              */
/* ======================================================================== */
/* Basic indexing (text or items) gives views; advanced indexing, take and
   put gather and scatter through kernels. */

/* One entry of an index, what NumPy writes between a[ and ]. */
typedef enum ga_index_kind {
    GA_INDEX_INTEGER,  /* a[i]: start is i; the axis goes away */
    GA_INDEX_SLICE,    /* a[start:stop:step]: GA_NONE for an omitted part */
    GA_INDEX_NEWAXIS,  /* a[None]: a new axis of length 1 */
    GA_INDEX_ELLIPSIS, /* a[...]: as many full slices as needed */
    GA_INDEX_ARRAY     /* a[idx]: advanced indexing by an array of integers (one
                          axis) or bool (a mask over as many axes as it has);
                          made by ga_array_index, which keeps the array's
                          address (borrowed) in start */
} ga_index_kind;

typedef struct ga_index_item {
    ga_index_kind kind;
    int64_t start, stop, step;
} ga_index_item;

static inline ga_index_item ga_at(int64_t i) { ga_index_item x = {GA_INDEX_INTEGER, i, 0, 0}; return x; }
static inline ga_index_item ga_slice(int64_t start, int64_t stop, int64_t step) { ga_index_item x = {GA_INDEX_SLICE, start, stop, step}; return x; }
static inline ga_index_item ga_newaxis(void) { ga_index_item x = {GA_INDEX_NEWAXIS, 0, 0, 0}; return x; }
static inline ga_index_item ga_ellipsis(void) { ga_index_item x = {GA_INDEX_ELLIPSIS, 0, 0, 0}; return x; }
static inline ga_index_item ga_array_index(const ga_array *idx) { ga_index_item x = {GA_INDEX_ARRAY, (int64_t)(intptr_t)idx, 0, 0}; return x; }
/* The array of a GA_INDEX_ARRAY item. */
static inline const ga_array *ga_index_item_array(ga_index_item item) { return (const ga_array *)(intptr_t)item.start; }

/* a[index] with NumPy's basic indexing written as text, e.g.
   ga_index(a, "1:5, ::-1, ..., None"): integers, slices, "...", "None" or
   "newaxis", separated by commas. Returns a view (0-d when every axis gets
   an integer). Numbers are Python's: every number is itself (INT64_MIN
   too: GA_NONE means "omitted" only in ga_slice's items), and slice bounds
   and steps beyond int64 clamp as Python's slices do. Errors:
   GA_ERROR_INDEX for an index out of bounds (naming the index, the axis and
   its size), an integer index beyond int64, too many indices, or a result
   of more than GA_MAXDIMS dims; GA_ERROR_VALUE for text that is not an
   index or a zero step. */
GPUARR_API ga_array *ga_index(const ga_array *a, const char *index);

/* a[items[0], ..., items[n-1]]: the same, from index items (ga_at,
   ga_slice, ga_newaxis, ga_ellipsis), and NumPy's advanced indexing when an
   item is an array (ga_array_index): the result is then a new array, whose
   shape follows NumPy's rules: the index arrays (integer scalars among them
   count as 0-d arrays; a bool array stands for its nonzero() arrays)
   broadcast together, and their shape takes the place of the first
   indexed axis when the advanced items are adjacent, else comes first.
   Errors as NumPy's: an index out of bounds ("index 10 is out of bounds
   for axis 0 with size 5", naming a's axis), index arrays that do not
   broadcast, a non-integer index array, a bool index whose shape does not
   match the axes it covers. */
GPUARR_API ga_array *ga_index_items(const ga_array *a, int n, const ga_index_item *items);

/* a[index] = value: writes `value` (broadcast, converted with NumPy's
   unsafe casting, as item assignment does) into the view a[index]; into
   one element (an integer for every axis, or "" of a 0-d a) only a 0-d
   value, as NumPy 2 ("setting an array element with a sequence."). A
   scalar value is converted as NumPy assigns a Python scalar (and the
   other _scalar forms of assignment below): its truth into bool; a float
   into an integer dtype truncated as int() does, NaN, infinities and
   values beyond int64 (uint64) being errors; a complex into a real dtype
   an error (GA_ERROR_TYPE); an int out of the dtype's range
   GA_ERROR_OVERFLOW. */
GPUARR_API ga_status ga_setitem(ga_array *a, const char *index, const ga_array *value);
GPUARR_API ga_status ga_setitem_scalar(ga_array *a, const char *index, ga_scalar value);

/* What an index out of range means (numpy.take's `mode`). */
typedef enum ga_index_mode {
    GA_INDEX_RAISE, /* an error naming the index and the axis size; nothing written */
    GA_INDEX_WRAP,  /* taken modulo the axis length */
    GA_INDEX_CLIP   /* clamped to the axis */
} ga_index_mode;

/* numpy.take: the elements of `a` at `indices` (any integer or bool
   dtype, converted to int64 under same_kind as NumPy's: uint64 wraps)
   along `axis` (GA_AXIS_NONE: of the flattened array). The result's
   shape is a.shape[:axis] + indices.shape + a.shape[axis+1:]. */
GPUARR_API ga_array *ga_take(const ga_array *a, const ga_array *indices, int axis, ga_index_mode mode);

/* numpy.take_along_axis: out[..., j, ...] = a[..., indices[..., j, ...],
   ...] along `axis`, indices (same ndim as a) broadcast against a in the
   other axes, as the results of argsort are used. */
GPUARR_API ga_array *ga_take_along_axis(const ga_array *a, const ga_array *indices, int axis);

/* numpy.put: a.flat[indices[i]] = values.flat[i % values.size], values
   converted to a's dtype; `mode` as in ga_take. indices must cast to int64
   safely (NumPy's put: not uint64); an empty `a` with indices is NumPy's
   "cannot replace elements of an empty array", even with no values. Which
   of several writes to one element lands is not defined (as in CuPy). */
GPUARR_API ga_status ga_put(ga_array *a, const ga_array *indices, const ga_array *values, ga_index_mode mode);

/* numpy.put_along_axis: a[..., indices[..., j, ...], ...] = values[..., j,
   ...] along `axis`, indices and values broadcast as take_along_axis
   (values' leading unit dims beyond a's dropped, as NumPy's assignment). */
GPUARR_API ga_status ga_put_along_axis(ga_array *a, const ga_array *indices, const ga_array *values, int axis);

/* a[items] = value (GA_INDEX_ARRAY items allowed, NumPy's advanced
   assignment): `value` broadcast to the shape a[items] has, converted with
   unsafe casting. Where an element is indexed several times, which write
   lands is not defined (NumPy: the last). On error nothing is written. */
GPUARR_API ga_status ga_setitem_items(ga_array *a, int n, const ga_index_item *items, const ga_array *value);
GPUARR_API ga_status ga_setitem_items_scalar(ga_array *a, int n, const ga_index_item *items, ga_scalar value);

/* a[mask] with a bool `mask` of a's shape or of its leading axes: a new
   array of shape (count,) + a.shape[mask.ndim:], the selected elements in
   C order (a device-wide select; the count is read back to size the
   result, the one wait). Errors: a non-bool mask (GA_ERROR_TYPE), a shape
   that does not match ("boolean index did not match indexed array along
   axis 0; size of axis is 3 but size of corresponding boolean axis is 4"). */
GPUARR_API ga_array *ga_index_mask(const ga_array *a, const ga_array *mask);

/* a[mask] = value: `value` broadcast to the shape of a[mask] (or a scalar),
   converted with unsafe casting; a 1-d value of another length is NumPy's
   "NumPy boolean array indexing assignment cannot assign 3 input values to
   the 2 output values where the mask is true". Nothing is written on error. */
GPUARR_API ga_status ga_setitem_mask(ga_array *a, const ga_array *mask, const ga_array *value);
GPUARR_API ga_status ga_setitem_mask_scalar(ga_array *a, const ga_array *mask, ga_scalar value);

/* numpy.nonzero: out[d] (a->ndim new arrays, int64, each of length count;
   release each) holds the indices along axis d of the nonzero elements of
   `a` (any dtype; NaN is nonzero), in C order. out[d] are contiguous rows
   of one (ndim, count) array (NumPy's are columns of a (count, ndim) one).
   Errors: a 0-d `a` (NumPy 2: "Calling nonzero on 0d arrays
   is not allowed. Use np.atleast_1d(scalar).nonzero() instead."). */
GPUARR_API ga_status ga_nonzero(const ga_array *a, ga_array **out);

/* numpy.argwhere: the (count, a.ndim) int64 indices of the nonzero
   elements, one row each (F-contiguous, as NumPy's). A 0-d `a` gives
   shape (1, 0) or (0, 0). */
GPUARR_API ga_array *ga_argwhere(const ga_array *a);

/* numpy.flatnonzero: the int64 indices of the nonzero elements of
   ravel(a). */
GPUARR_API ga_array *ga_flatnonzero(const ga_array *a);

/* numpy.compress: the slices of `a` along `axis` (GA_AXIS_NONE: of the
   flattened array) where the 1-d `condition` (any dtype, as truth values)
   is true; a shorter condition selects among the first slices only, a
   longer one may be true only within the axis (else NumPy's IndexError). */
GPUARR_API ga_array *ga_compress(const ga_array *condition, const ga_array *a, int axis);

/* numpy.extract: the elements of ravel(a) where ravel(condition) is
   nonzero (a 1-d array; condition's true elements must lie within a). */
GPUARR_API ga_array *ga_extract(const ga_array *condition, const ga_array *a);

/* numpy.place: the elements of `a` where `mask` (a's size; truth values)
   is nonzero get vals' elements in turn, repeated cyclically, converted to
   a's dtype. Errors: an empty `vals` with something to place ("Cannot
   insert from an empty array!"), a mask of another size. */
GPUARR_API ga_status ga_place(ga_array *a, const ga_array *mask, const ga_array *vals);

/* numpy.add.at(a, items, values): a[items] += values, unbuffered, so that
   an element indexed several times gets every value added (atomics). The
   index as in ga_index_items (one integer array: ga_array_index(idx));
   values broadcast to the shape of a[items]. With array items they are
   converted to a's dtype first (unsafe casting; NumPy adds in the promoted
   dtype and converts each sum, which differs for float values added to
   an integer array); with basic items only, no element repeats and the
   sums are NumPy's (the promoted dtype, cast back unsafely). float16 to
   complex128: the order of the additions at a repeated index is not
   fixed, so float sums may differ from NumPy's in the last bits; bool
   adds as logical or. */
GPUARR_API ga_status ga_add_at(ga_array *a, int n, const ga_index_item *items, const ga_array *values);

/* >>reduce */
/* ======================================================================== */
/* 17. Reductions and statistics                                             */
/* ======================================================================== */
/* NumPy's reductions, with NumPy 2's result dtypes and empty-slice rules:
   - Axes are (naxes, axes) pairs, NumPy's axis= : naxes 0 with axes NULL
     (GA_ALL_AXES) is axis=None, every axis; naxes 0 with axes not NULL is
     axis=(), no axis (each element is reduced alone: sum(a, axis=()) is a
     in sum's dtype); otherwise any distinct axes, negative ones counted
     from the end. In C, GA_AXES(0, -1) writes `2, (const int[]){0, -1}`,
     GA_ALL_AXES `0, NULL` and GA_NO_AXES axis=(). The same holds for the
     statistics below (average, quantile, median, ...). Errors: "axis 2 is
     out of bounds for array of dimension 2" (GA_ERROR_AXIS), "duplicate
     value in 'axis'". The reductions of ga_reduce (not the statistics, nor
     mean, var and std, nor their nan forms of integers and bool: NumPy's
     AxisError) let a 0-d array take one axis, 0 or -1, as NumPy's axis=0:
     the whole array.
     keepdims keeps the reduced axes with length 1.
   - Result dtypes: sum and prod of bool and signed integers are int64, of
     unsigned integers uint64; mean, var and std of bool and integers are
     float64, of complex numbers (var, std) the real dtype; argmin / argmax
     and count_nonzero are int64; all / any bool; the others keep a's
     dtype. float16 and bfloat16 accumulate in float32; means and variances
     are divided by the count in float64, as NumPy does.
   - Empty slices: sum 0, prod 1, all true, any false, count 0; mean, var
     and std NaN (a GA_WARNING_EMPTY_SLICE or GA_WARNING_DOF warning, see
     ga_reduce_warnings); min, max, ptp and the nan forms of min / max fail
     ("zero-size array to reduction operation maximum which has no
     identity"), argmin / argmax fail ("attempt to get argmax of an empty
     sequence").
   - NaN propagates through sum, prod, min, max, mean, var (argmin / argmax
     return the first NaN's index). The nan forms skip NaN; an all-NaN slice
     gives NaN (nanmin, nanmax: GA_WARNING_ALL_NAN; nanmean:
     GA_WARNING_EMPTY_SLICE; nanvar, nanstd: GA_WARNING_DOF), 0 (nansum),
     1 (nanprod), or fails (nanargmin, nanargmax: "All-NaN slice
     encountered", which waits for the result).
   - Deterministic: the same input gives the same bits on every run, on any
     GPU model (no floating-point atomics; the order in which elements are
     combined depends on the shape and the data's alignment only). Sums
     add in a blocked tree (each thread a run of up to 256 elements, then
     trees), so their error grows with log n, not n.
   - A new result is C-contiguous, or keeps a's axis order (NumPy's order
     K); it is a new reference. Work is queued on the current stream. */

#ifndef __cplusplus
#define GA_AXES(...) \
    (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int)), (const int[]){__VA_ARGS__}
#endif
#define GA_ALL_AXES 0, NULL
/* NumPy's axis=(): no axis (naxes 0, axes not NULL). */
static inline const int *ga_no_axes(void)
{
    static const int none[1] = {0};
    return none;
}
#define GA_NO_AXES 0, ga_no_axes()

/* The reductions of ga_reduce, by number; X(ENUM, name). */
#define GA_REDUCTION_LIST(X)                                            \
    X(SUM, sum) X(PROD, prod) X(MIN, min) X(MAX, max) X(MEAN, mean)    \
    X(VAR, var) X(STD, std) X(ALL, all) X(ANY, any)                    \
    X(COUNT_NONZERO, count_nonzero) X(PTP, ptp) X(ARGMIN, argmin)      \
    X(ARGMAX, argmax) X(NANSUM, nansum) X(NANPROD, nanprod)            \
    X(NANMIN, nanmin) X(NANMAX, nanmax) X(NANMEAN, nanmean)            \
    X(NANVAR, nanvar) X(NANSTD, nanstd) X(NANARGMIN, nanargmin)        \
    X(NANARGMAX, nanargmax)

typedef enum ga_reduction {
#define GA__REDUCTION_ENUM(E, name) GA_REDUCE_##E,
    GA_REDUCTION_LIST(GA__REDUCTION_ENUM)
#undef GA__REDUCTION_ENUM
    GA_NUM_REDUCTIONS
} ga_reduction;

/* NumPy's keyword arguments of ga_reduce beyond axis, dtype, out and
   keepdims. A zeroed struct (or NULL) means NumPy's defaults. */
typedef struct ga_reduce_options {
    /* where=: only the elements where this bool array (broadcast to a's
       shape) is true take part. sum, prod, min, max, mean, var, std, all,
       any and the nan forms of these; min and max (and nanmin, nanmax)
       then need `initial` for slices with nothing selected, as NumPy. */
    const ga_array *where;
    /* initial=: a first value of sum, prod, min, max and their nan forms,
       converted to the result's dtype as NumPy does (a Python int out of
       an integer dtype's range is GA_ERROR_OVERFLOW; a float or complex
       one as ga_setitem_scalar converts it). NULL: none. */
    const ga_scalar *initial;
    /* ddof: var, std, nanvar and nanstd divide by count - ddof. */
    double ddof;
} ga_reduce_options;

/* Every reduction with every NumPy argument: `r` over the axes of `a`,
   dtype= (GA_DTYPE_INVALID: NumPy's default; sum, prod, mean, var, std
   and their nan forms: the dtype the elements are converted to and
   accumulated in, and the result's; var and std take floating or complex
   ones), out= and keepdims. *out is an array to write (NumPy's out=: the
   result's shape, with or without the kept unit axes as keepdims says;
   any layout; any dtype, cast unsafely as NumPy's reductions do, but an
   integer one that int64 casts to safely for argmin / argmax), or NULL,
   in which case a new array is stored there (release it). argmin and
   argmax take one axis or none (the flattened array). On failure nothing
   is stored. Mirrors numpy.sum(a, axis, dtype, out, keepdims, initial,
   where) and the others. argmin and argmax refuse axis=() (naxes 0, axes
   not NULL) as NumPy does (GA_ERROR_TYPE). */
GPUARR_API ga_status ga_reduce(ga_reduction r, const ga_array *a, int naxes, const int *axes, ga_dtype dtype,
                               ga_array **out, bool keepdims, const ga_reduce_options *options);

/* NumPy's name of a reduction ("sum"), or NULL. */
GPUARR_API const char *ga_reduction_name(ga_reduction r);

/* numpy.sum, numpy.prod: the sum and product over the axes (NumPy's
   accumulator dtypes: int64 / uint64 for integers and bool). */
GPUARR_API ga_array *ga_sum(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_prod(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.min / numpy.max (amin, amax): NaN propagates; complex numbers
   order by real part, then imaginary part. Errors: an empty slice. */
GPUARR_API ga_array *ga_min(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_max(const ga_array *a, int naxes, const int *axes, bool keepdims);
#define ga_amin ga_min
#define ga_amax ga_max

/* numpy.ptp: max - min in a's dtype (integers wrap). Errors: bool (NumPy's
   boolean subtract message), an empty slice. */
GPUARR_API ga_array *ga_ptp(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.mean: the sum over the count, float64 for bool and integers. */
GPUARR_API ga_array *ga_mean(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.var and numpy.std: the mean of |x - mean|^2 (two passes, as
   NumPy), divided by count - ddof (clamped at 0); std is its square root.
   Real results for complex input. */
GPUARR_API ga_array *ga_var(const ga_array *a, int naxes, const int *axes, double ddof, bool keepdims);
GPUARR_API ga_array *ga_std(const ga_array *a, int naxes, const int *axes, double ddof, bool keepdims);

/* numpy.all / numpy.any: whether every / some element is nonzero (NaN is
   nonzero), bool. */
GPUARR_API ga_array *ga_all(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_any(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.count_nonzero: the number of nonzero elements, int64. */
GPUARR_API ga_array *ga_count_nonzero(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.argmin / numpy.argmax along `axis` (GA_AXIS_NONE: of the flattened
   array): int64 indices of the first minimum / maximum (the first NaN if
   any). Errors: an empty slice. */
GPUARR_API ga_array *ga_argmin(const ga_array *a, int axis, bool keepdims);
GPUARR_API ga_array *ga_argmax(const ga_array *a, int axis, bool keepdims);

/* numpy.nansum, nanprod, nanmin, nanmax, nanmean, nanvar, nanstd: as the
   plain forms with NaN left out (for integer and bool input they are the
   plain forms). */
GPUARR_API ga_array *ga_nansum(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_nanprod(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_nanmin(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_nanmax(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_nanmean(const ga_array *a, int naxes, const int *axes, bool keepdims);
GPUARR_API ga_array *ga_nanvar(const ga_array *a, int naxes, const int *axes, double ddof, bool keepdims);
GPUARR_API ga_array *ga_nanstd(const ga_array *a, int naxes, const int *axes, double ddof, bool keepdims);

/* numpy.nanargmin / numpy.nanargmax: as argmin / argmax with NaN left
   out. Errors: an all-NaN slice ("All-NaN slice encountered"; this check
   waits for the result), an empty slice. */
GPUARR_API ga_array *ga_nanargmin(const ga_array *a, int axis, bool keepdims);
GPUARR_API ga_array *ga_nanargmax(const ga_array *a, int axis, bool keepdims);

/* numpy.average: with weights NULL, ga_mean; else sum(a * w) / sum(w) in
   result_type(a, w) (with float64 for bool and integer a), `weights` of
   a's shape or, given one axis, 1-d along it. With sum_of_weights
   non-NULL, *sum_of_weights receives sum(w) broadcast to the result's
   shape (NumPy's returned=True; release it). Errors: as NumPy's ("Axis
   must be specified when shapes of a and weights differ.", "Weights sum
   to zero, can't be normalized", which waits for the sums). */
GPUARR_API ga_array *ga_average(const ga_array *a, int naxes, const int *axes, const ga_array *weights,
                                bool keepdims, ga_array **sum_of_weights);

/* numpy.cov: the covariance matrix of the variables in the rows of m (the
   columns when rowvar is false), with those of y (NULL: none) appended;
   normalised by N - 1, by N when bias, or by N - ddof (ddof GA_NONE:
   from bias); fweights (integer, >= 0) and aweights (NULL: none) weight
   the observations. dtype GA_DTYPE_INVALID: result_type(m, y, float64).
   Computed in float64 (complex128) and rounded once to dtype. The result
   is squeezed (0-d for one variable). Errors: more than 2 dimensions,
   weights of the wrong shape or sign (checking signs waits). */
GPUARR_API ga_array *ga_cov(const ga_array *m, const ga_array *y, bool rowvar, bool bias, int64_t ddof,
                            const ga_array *fweights, const ga_array *aweights, ga_dtype dtype);

/* numpy.corrcoef: the correlation coefficients cov / sqrt(diag x diag),
   each part clipped to [-1, 1]. */
GPUARR_API ga_array *ga_corrcoef(const ga_array *x, const ga_array *y, bool rowvar, ga_dtype dtype);

/* NumPy's RuntimeWarnings of the reductions, as bits. */
enum {
    GA_WARNING_EMPTY_SLICE = 1, /* "Mean of empty slice" (mean, nanmean) */
    GA_WARNING_DOF = 2,         /* "Degrees of freedom <= 0 for slice" (var, std, nan forms, cov) */
    GA_WARNING_ALL_NAN = 4      /* "All-NaN slice encountered" (nanmin, nanmax) */
};

/* The warnings the reductions on the current device raised since the last
   call (GA_WARNING_* bits, from every thread: the kernels record them as
   they find them in the data), then forgets them. Waits for the current
   stream. */
GPUARR_API int ga_reduce_warnings(void);

/* numpy.trace: the sums along the diagonal `offset` of the plane (axis1,
   axis2), a new array of a's shape without those axes (0-d for a matrix);
   dtype as numpy.sum's (GA_DTYPE_INVALID: its default). */
GPUARR_API ga_array *ga_trace(const ga_array *a, int64_t offset, int axis1, int axis2, ga_dtype dtype);

/* numpy.quantile's method=. NumPy's default is LINEAR. */
typedef enum ga_quantile_method {
    GA_QUANTILE_LINEAR,
    GA_QUANTILE_LOWER,
    GA_QUANTILE_HIGHER,
    GA_QUANTILE_NEAREST,
    GA_QUANTILE_MIDPOINT,
    GA_QUANTILE_INVERTED_CDF,
    GA_QUANTILE_AVERAGED_INVERTED_CDF,
    GA_QUANTILE_CLOSEST_OBSERVATION,
    GA_QUANTILE_INTERPOLATED_INVERTED_CDF,
    GA_QUANTILE_HAZEN,
    GA_QUANTILE_WEIBULL,
    GA_QUANTILE_MEDIAN_UNBIASED,
    GA_QUANTILE_NORMAL_UNBIASED
} ga_quantile_method;

/* q of ga_quantile and the others: nq < 0 (GA_Q_SCALAR) is NumPy's scalar
   q, the one value *q; otherwise the nq values at q (a 1-d q), which put a
   first axis of length nq on the result. */
#define GA_Q_SCALAR (-1)

/* numpy.quantile(a, q, axis, method, keepdims): the q-th quantiles (q in
   [0, 1]) over the axes ((naxes, axes) as in ga_reduce), from a sorted
   copy of each slice, with NumPy's methods and interpolation formulas.
   Result: q's axis (if any), then a's kept axes (length 1 for the reduced
   ones when keepdims); float64 for bool and integer input, else a's dtype
   (NumPy's dtype for a Python float q, here for a 1-d q too, where NumPy
   gives float64; the methods that pick an element - lower, higher,
   nearest, inverted_cdf, closest_observation - keep a's dtype); virtual
   indices are float64, as NumPy 2's; integers are interpolated in float64
   (NumPy subtracts them in their own dtype, which can wrap). A slice with NaN gives NaN. Errors:
   "Quantiles must be in the range [0, 1]", complex a ("a must be an array
   of real numbers"), bool a with an interpolating method (NumPy's boolean
   subtract message), an empty axis ("index -1 is out of bounds for axis 0
   with size 0"). New reference, C-contiguous. */
GPUARR_API ga_array *ga_quantile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                 ga_quantile_method method, bool keepdims);

/* numpy.percentile: ga_quantile of q / 100 ("Percentiles must be in the
   range [0, 100]"). */
GPUARR_API ga_array *ga_percentile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                   ga_quantile_method method, bool keepdims);

/* numpy.median(a, axis, keepdims): the mean of the middle one or two
   elements of each sorted slice (ga_mean's dtypes: float64 for bool and
   integers; complex input is sorted in NumPy's complex order). A slice
   with NaN gives NaN; an empty slice NaN. */
GPUARR_API ga_array *ga_median(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* numpy.nanquantile, nanpercentile, nanmedian: the same over the elements
   that are not NaN; a slice of NaN only (or an empty one) gives NaN. An
   empty a gives NumPy's nanmean of it: NaN, without q's axis. For bool
   and integer input they are the plain forms. */
GPUARR_API ga_array *ga_nanquantile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                    ga_quantile_method method, bool keepdims);
GPUARR_API ga_array *ga_nanpercentile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                      ga_quantile_method method, bool keepdims);
GPUARR_API ga_array *ga_nanmedian(const ga_array *a, int naxes, const int *axes, bool keepdims);

/* >>sort */
/* ======================================================================== */
/* 18. Sorting, searching, scans and sets                                    */
/* ======================================================================== */
/* Over CUB's device-wide algorithms (build/libgpuarr_cub.a, linked with
   -lcudart_static -lstdc++ -lrt). Temporary storage comes from the pool;
   work is queued on the current stream; results are new references,
   C-contiguous. `axis` counts from the end when negative; GA_AXIS_NONE
   works on the flattened array (the result is 1-d). Errors: "axis 2 is out
   of bounds for array of dimension 2" (GA_ERROR_AXIS). */

/* numpy.sort(a, axis, kind='stable'): a sorted copy along `axis`, stable
   and ascending in NumPy's order: NaN last (every NaN equal; a NaN may
   come back as the positive quiet NaN), -0.0 and +0.0 equal in value
   (either may come first among zeros; NumPy keeps their input order).
   Complex numbers order by real part, then imaginary part, with NumPy's
   places for NaN: [R + Rj, R + nanj, nan + Rj, nan + nanj], each group in
   that order by its non-NaN parts (the elements come back unchanged).
   Every dtype. Along the last axis of several rows it is one segmented
   sort. */
GPUARR_API ga_array *ga_sort(const ga_array *a, int axis);

/* numpy.argsort(a, axis, kind='stable'): int64 indices that sort `a` along
   `axis`, in the order of ga_sort with equal keys (-0.0 and +0.0, every
   NaN) in their input order. Dtypes as ga_sort; an axis longer than
   2^32 - 1 is GA_ERROR_NOT_IMPLEMENTED. Complex keys are sorted as
   ga_lexsort does (several passes). */
GPUARR_API ga_array *ga_argsort(const ga_array *a, int axis);
/* (argsort, argpartition and the scans take axis 0 or -1 of a 0-d array as
   NumPy does, as GA_AXIS_NONE: a result of shape (1,); sort and partition
   refuse it, as NumPy.) */

/* numpy.cumsum / numpy.cumprod(a, axis, dtype): inclusive running sums /
   products along `axis`. dtype GA_DTYPE_INVALID is NumPy's default: int64
   for bool and signed integers, uint64 for unsigned ones, else a's dtype;
   another dtype converts a to it first (integers wrap). float16 and
   bfloat16 accumulate in float32 and round once at the end (NumPy rounds
   every step); float32 and float64 sums are a parallel scan, so rounding
   differs from NumPy's sequential loop within a few ulps times log n. */
GPUARR_API ga_array *ga_cumsum(const ga_array *a, int axis, ga_dtype dtype);
GPUARR_API ga_array *ga_cumprod(const ga_array *a, int axis, ga_dtype dtype);

/* The scans of ga_scan. */
typedef enum ga_scan_op {
    GA_SCAN_CUMSUM,     /* numpy.cumsum */
    GA_SCAN_CUMPROD,    /* numpy.cumprod */
    GA_SCAN_NANCUMSUM,  /* numpy.nancumsum: NaN counts as 0 */
    GA_SCAN_NANCUMPROD  /* numpy.nancumprod: NaN counts as 1 */
} ga_scan_op;

/* Every scan with every NumPy argument: numpy.cumsum(a, axis, dtype, out)
   and the others. dtype GA_DTYPE_INVALID is out's dtype when out is given
   (NumPy's accumulate), else the default of ga_cumsum. *out is an array to
   write (NumPy's out=: the result's shape, (a.size,) for GA_AXIS_NONE; any
   layout; any dtype, the results cast to it unsafely as NumPy does; it may
   overlap a), or NULL, in which case a new array is stored there (release
   it). On failure nothing is stored. The nan forms replace NaN (a complex
   element with a NaN part) in a's dtype, before any conversion to dtype;
   for bool and integer a they are the plain scans. */
GPUARR_API ga_status ga_scan(ga_scan_op op, const ga_array *a, int axis, ga_dtype dtype, ga_array **out);

/* numpy.nancumsum / numpy.nancumprod(a, axis, dtype): ga_cumsum /
   ga_cumprod with NaN counted as 0 / 1 (a slice of NaN only gives zeros /
   ones). */
GPUARR_API ga_array *ga_nancumsum(const ga_array *a, int axis, ga_dtype dtype);
GPUARR_API ga_array *ga_nancumprod(const ga_array *a, int axis, ga_dtype dtype);

/* numpy.diff(a, n, axis, prepend, append): the n-th discrete difference
   along `axis`, a[1:] - a[:-1] applied n times (not_equal for bool), its
   length along axis max(length - n, 0). prepend and append (NULL: none)
   are joined to a along axis first; a 0-d one is broadcast to a's shape
   with length 1 along axis. n 0 gives a new reference to a itself, as
   NumPy returns a. Errors: n < 0 ("order must be non-negative but got
   -1"), a 0-d a ("diff requires input that is at least one dimensional"),
   an axis out of bounds. */
GPUARR_API ga_array *ga_diff(const ga_array *a, int n, int axis, const ga_array *prepend, const ga_array *append);

/* numpy.ediff1d(ary, to_end, to_begin): the differences of the flattened
   ary (1-d, ary's dtype), after the flattened to_begin and before the
   flattened to_end (NULL: none), which are cast to ary's dtype. Errors:
   to_begin / to_end not castable to it under same_kind ("dtype of
   `to_end` must be compatible with input `ary` under the `same_kind`
   rule."), bool ary (NumPy's boolean subtract message). */
GPUARR_API ga_array *ga_ediff1d(const ga_array *ary, const ga_array *to_end, const ga_array *to_begin);

/* numpy.sort_complex(a): a sorted along the last axis as complex numbers
   (NumPy's order, see ga_sort). Real input is converted as NumPy does: int8,
   uint8, int16, uint16 to complex64, every other dtype to complex128. */
GPUARR_API ga_array *ga_sort_complex(const ga_array *a);

/* numpy.lexsort(keys, axis): int64 indices that sort by several keys, the
   LAST key primary, each in ga_sort's order (so NaN last), ties keeping
   their input order (stable). keys: nkeys arrays of one shape (NumPy's
   keys array's rows; they may differ in dtype), sorted along `axis`
   (NumPy's default -1; GA_AXIS_NONE: flattened). Errors: no keys ("need
   sequence of keys with len > 0 in lexsort"), shapes that differ ("all
   keys need to be the same shape"), a NULL key, a 0-d key with an axis. */
GPUARR_API ga_array *ga_lexsort(int nkeys, const ga_array *const *keys, int axis);

/* numpy.partition / numpy.argpartition(a, kth, axis): a copy (int64
   indices) along `axis` in which each element at a position in kth
   (nkth of them, negative counting from the end) is the one a sorted copy
   has there, every element before it is not greater and every one after
   it not smaller. Here the result is the stable sort (argsort) itself,
   which satisfies that contract; NumPy's arrangement of the other elements
   is unspecified and differs. nkth 0 (NumPy's empty kth) is allowed.
   Errors: "kth(=5) out of bounds (5)" (kth counted from the end
   already added in), and those of ga_sort. */
GPUARR_API ga_array *ga_partition(const ga_array *a, int nkth, const int64_t *kth, int axis);
GPUARR_API ga_array *ga_argpartition(const ga_array *a, int nkth, const int64_t *kth, int axis);

/* NumPy's kind= of sort, argsort, partition and argpartition ('quicksort',
   'mergesort', 'heapsort', 'stable', 'introselect') has no argument here:
   every kind gives the stable result, which NumPy allows for each. */

/* --- searching ---------------------------------------------------------- */
/* Searching, the set functions and the sorts under them compare in NumPy's
   order in the dtype the inputs promote to (numpy.result_type): NaN after
   +inf (every NaN equal in position; as a set element see each function),
   -0.0 equal to +0.0. Complex numbers compare in ga_sort's complex order
   (real part, then imaginary part; those with a NaN part last, as R +
   nanj, then nan + Rj, then nan + nanj), -0.0 equal to +0.0 in each part;
   an element with a NaN in either part is a NaN. */

/* numpy.searchsorted's side=. */
typedef enum ga_side { GA_SIDE_LEFT, GA_SIDE_RIGHT } ga_side;

/* numpy.searchsorted(a, v, side, sorter): for each element of v, the index
   in the sorted 1-d `a` where it would be inserted to keep the order (the
   first such index for GA_SIDE_LEFT, the last for GA_SIDE_RIGHT), int64 of
   v's shape. sorter (NULL: none) is an integer array of a's length that
   sorts a (argsort's result). Errors: a not 1-d ("object too deep for
   desired array"), a sorter not 1-d ("could not parse sorter argument"),
   "sorter.size must equal a.size", "sorter must only contain integers",
   "Sorter index out of range." (this check waits). */
GPUARR_API ga_array *ga_searchsorted(const ga_array *a, const ga_array *v, ga_side side, const ga_array *sorter);

/* numpy.digitize(x, bins, right): the int64 index of the bin of each
   element of x, bins 1-d and monotonically increasing or decreasing
   (checked on the host as NumPy does: it waits for bins). Errors: "x may
   not be complex", complex bins ("Cannot cast array data from
   dtype('complex128') to dtype('float64') according to the rule 'safe'"),
   "bins must be monotonically increasing or decreasing". */
GPUARR_API ga_array *ga_digitize(const ga_array *x, const ga_array *bins, bool right);

/* --- sets --------------------------------------------------------------- */
/* Inputs are flattened (NumPy's axis=None); results are new 1-d arrays,
   sorted, except setdiff1d with assume_unique. Their sizes depend on the
   data, so these functions wait for the current stream once or twice.
   Optional results are `ga_array **` that may be NULL (not wanted): on
   success a new array is stored there (release it), on failure nothing.
   Indices are int64; a set of more than 2^32 - 1 elements with indices
   wanted is GA_ERROR_NOT_IMPLEMENTED. -0.0 and +0.0 are one value (a
   unique zero is returned as +0.0, in each part of a complex number;
   NumPy returns one of the zeros it found); a NaN returned (a NaN part of a
   complex number) is the positive quiet NaN. */

/* numpy.unique(a, return_index, return_inverse, return_counts, axis=None,
   equal_nan): the sorted distinct values of a, with (when the pointers are
   non-NULL) the flat index of each one's first occurrence, the index into
   the values of each element of a (NumPy 2: of a's shape), and how often
   each occurs. equal_nan true (NumPy's default) makes every NaN one
   value; false keeps each NaN apart. Every dtype. For complex a, equal_nan
   makes every element with a NaN part one value, and the value returned
   is the first of them in the sort order (1 + nanj before 2 + nanj before
   nan + 0j before nan + nanj), as NumPy's sorting unique returns; NumPy 2.3
   and later, asked for the values only, use a hash table instead and
   return the first in a's order. */
GPUARR_API ga_array *ga_unique(const ga_array *a, ga_array **index, ga_array **inverse, ga_array **counts,
                               bool equal_nan);

/* NumPy 2's (array API) unique_values, unique_counts, unique_inverse and
   unique_all: ga_unique with equal_nan false (each NaN apart). */
GPUARR_API ga_array *ga_unique_values(const ga_array *x);
GPUARR_API ga_array *ga_unique_counts(const ga_array *x, ga_array **counts);
GPUARR_API ga_array *ga_unique_inverse(const ga_array *x, ga_array **inverse_indices);
GPUARR_API ga_array *ga_unique_all(const ga_array *x, ga_array **indices, ga_array **inverse_indices,
                                   ga_array **counts);

/* numpy.isin(element, test_elements, invert=invert): bool of element's
   shape, whether each element equals one of test_elements (compared in
   their promoted dtype; NaN, and a complex number with a NaN part, equals
   nothing). A sort of test_elements and a binary search per element;
   NumPy's assume_unique and kind only choose its method, so they are not
   taken. */
GPUARR_API ga_array *ga_isin(const ga_array *element, const ga_array *test_elements, bool invert);

/* numpy.intersect1d(a, b, assume_unique, return_indices): the sorted values
   in both (NaN is in neither), in the promoted dtype; with indices1 /
   indices2 non-NULL, the flat index of each one's first occurrence in a /
   b. NumPy's steps: a and b made unique each in its own dtype (with
   assume_unique, taken as they are), then every element equal to the next
   one in their sorted concatenation in the promoted dtype; so values
   repeated in assume_unique inputs, or that become equal when promoted
   (int64 to float64), repeat, with NumPy's indices for them (with
   assume_unique, indices2 may be negative). */
GPUARR_API ga_array *ga_intersect1d(const ga_array *a, const ga_array *b, bool assume_unique, ga_array **indices1,
                                    ga_array **indices2);

/* numpy.union1d(a, b): the sorted values in either, one NaN for all (see
   ga_unique's equal_nan for complex). */
GPUARR_API ga_array *ga_union1d(const ga_array *a, const ga_array *b);

/* numpy.setdiff1d(a, b, assume_unique): the values of a not in b, in a's
   dtype: sorted and unique, or, with assume_unique, a flattened with those
   in b left out (in a's order), as NumPy. NaN is never in b. */
GPUARR_API ga_array *ga_setdiff1d(const ga_array *a, const ga_array *b, bool assume_unique);

/* numpy.setxor1d(a, b, assume_unique): the sorted values in exactly one of
   a and b (NaN is unequal to every NaN, so each of theirs stays, as in
   NumPy: one from each input unless assume_unique; for complex inputs the
   one ga_unique returns), in the promoted dtype. */
GPUARR_API ga_array *ga_setxor1d(const ga_array *a, const ga_array *b, bool assume_unique);

/* --- histograms --------------------------------------------------------- */

/* numpy.bincount(x, weights, minlength): how often each value of the 1-d
   non-negative integer (or bool) x occurs, int64 of length max(x.max() + 1,
   minlength); with weights (NULL: none; real, x's length) the sums of the
   weights instead, float64, in a fixed order (deterministic). Waits for
   x's min and max. Errors: as NumPy ("'list' argument must have no
   negative elements", "'minlength' must not be negative", "The weights and
   list don't have the same length.", a float x: "Cannot cast array data
   from dtype('float64') to dtype('int64') according to the rule 'safe'",
   complex weights: the same cast to float64, GA_ERROR_TYPE). */
GPUARR_API ga_array *ga_bincount(const ga_array *x, const ga_array *weights, int64_t minlength);

/* numpy.histogram(a, bins, range, density, weights): counts of a's
   elements (flattened) in bins. bin_edges NULL: `bins` equal bins over
   range (a double[2], or NULL: a's min and max, which waits for them; an
   empty a: [0, 1]), their edges NumPy's linspace in a's float dtype
   (float64 for integers and bool); else the edges bin_edges (1-d,
   increasing; checked on the host, which waits for them) and `bins` is
   not used. Bin i holds edges[i] <= x < edges[i + 1], the last one also
   x == edges[-1], as NumPy; NaN and elements outside are not counted.
   Returns int64 counts; with weights (NULL: none; a's shape) their sums,
   in weights' dtype (summed in float64, complex ones part by part, in a
   fixed order); with density, counts / (total * bin width) in float64
   (complex128 for complex weights). With edges non-NULL the
   edges are stored there (a new reference). Errors: NumPy's ("`bins` must
   be positive, when an integer", "max must be larger than min in range
   parameter.", "supplied range of [0.0, inf] is not finite", "autodetected
   range of [nan, nan] is not finite", "`bins` must increase
   monotonically, when an array", "`bins` must be 1d, when an array",
   "Too many bins for data range. Cannot create 3000 finite-sized bins."
   when equal bins' edges rounded to the bin dtype are not increasing).
   Elements and edges compare in float32 when both are float32 or
   narrower floats, else in float64. Bin estimators by name ('auto', ...)
   are not provided; complex a is GA_ERROR_NOT_IMPLEMENTED. */
GPUARR_API ga_array *ga_histogram(const ga_array *a, int64_t bins, const ga_array *bin_edges, const double *range,
                                  bool density, const ga_array *weights, ga_array **edges);

/* numpy.histogram_bin_edges(a, bins, range): the edges ga_histogram uses
   for `bins` equal bins (a new 1-d array of bins + 1). */
GPUARR_API ga_array *ga_histogram_bin_edges(const ga_array *a, int64_t bins, const double *range);

/* >>linalg */
/* ======================================================================== */
/* 19. Linear algebra: products                                             */
/* ======================================================================== */
/* NumPy's products over cuBLAS (>>libs), on the current stream of the
   inputs' device. The dtype is promote_types of the inputs (an input of
   another dtype is converted once); float16 and bfloat16 are multiplied
   with float32 accumulation and rounded once, float32 is not rounded to
   TF32. Inputs of any layout: a matrix with a unit stride in either dim is
   read in place, others are copied once. Integer and bool products run in
   a kernel of ours (kernels/linalg.cu): sums that wrap in the dtype as
   NumPy's, bool's any-of-ands; one thread per element of the result, so
   at a fraction of the GEMMs' speed (NumPy's own integer matmul is a plain
   loop too). Left out with GPUARR_NO_LINALG. */

/* numpy.matmul (a @ b): the product of the last two dims, the dims before
   them broadcast (NumPy's batch); a 1-d a is a row (its dim dropped from
   the result), a 1-d b a column. Errors in NumPy's words: a 0-d input ("Input
   operand 0 does not have enough dimensions ..."), contracted dims that
   differ ("Input operand 1 has a mismatch in its core dimension 0 ..."),
   batch dims that do not broadcast. ga_matmul_out writes `out`, which
   must have the result's shape (its batch dims may broadcast the inputs')
   and a dtype the result casts to under same_kind; it may overlap the
   inputs. Nothing is written on error. */
GPUARR_API ga_array *ga_matmul(const ga_array *a, const ga_array *b);
GPUARR_API ga_status ga_matmul_out(const ga_array *a, const ga_array *b, ga_array *out);

/* numpy.dot: a 0-d input multiplies (numpy.multiply); 1-d by 1-d is their
   inner product (0-d); an N-d a by a 1-d b sums over their last dims; by an
   M-d b (M >= 2) over a's last and b's second-to-last: the result's shape
   is a.shape[:-1] + b.shape[:-2] + b.shape[-1:]. Error: "shapes (2,3) and
   (4,5) not aligned: 3 (dim 1) != 4 (dim 0)". */
GPUARR_API ga_array *ga_dot(const ga_array *a, const ga_array *b);

/* numpy.vdot: the inner product of a and b flattened, a conjugated (0-d).
   They must have the same size. */
GPUARR_API ga_array *ga_vdot(const ga_array *a, const ga_array *b);

/* numpy.inner: the sum over the last dims of a and b; the result's shape
   is a.shape[:-1] + b.shape[:-1] (a 0-d input multiplies). */
GPUARR_API ga_array *ga_inner(const ga_array *a, const ga_array *b);

/* numpy.outer: out[i, j] = a.ravel()[i] * b.ravel()[j] (numpy.multiply's
   dtype and rules). */
GPUARR_API ga_array *ga_outer(const ga_array *a, const ga_array *b);

/* numpy.einsum(subscripts, *operands): NumPy's subscripts ("ij,jk->ik",
   "...ii->...i", implicit outputs, spaces), its broadcasting and its
   errors, for n operands (1 to 32) of any numeric dtype (the result is
   their promoted dtype; integers wrap around and bool sums are "any", as
   NumPy's einsum computes them). A repeated label in one operand reads its
   diagonal in place; labels nothing else needs are summed at once; pairs
   are contracted as batched GEMMs, the pair with the smallest result
   first. Always a new array (NumPy returns some one-operand results as
   views). */
GPUARR_API ga_array *ga_einsum(const char *subscripts, int n, const ga_array *const *operands);

/* numpy.tensordot(a, b, axes=n): the sum over a's last n dims and b's first
   n; ga_tensordot_axes(a, b, n, a_axes, b_axes) pairs a_axes[i] with
   b_axes[i] (negative axes count from the end). The result's dims are a's
   others, then b's. One GEMM. Error: "shape-mismatch for sum". */
GPUARR_API ga_array *ga_tensordot(const ga_array *a, const ga_array *b, int n);
GPUARR_API ga_array *ga_tensordot_axes(const ga_array *a, const ga_array *b, int n, const int *a_axes,
                                       const int *b_axes);

/* numpy.vecdot (and numpy.linalg.vecdot): sum(conj(a) * b) over `axis` of
   each, the other dims broadcast; gufunc (n),(n)->(). numpy.matvec: a's
   matrices (last two dims) times x's vectors, (m,n),(n)->(m); numpy.vecmat:
   conj(x)'s vectors times a's matrices, (n),(n,m)->(m). Each is one
   batched GEMM; NumPy's gufunc errors. */
GPUARR_API ga_array *ga_vecdot(const ga_array *a, const ga_array *b, int axis);
GPUARR_API ga_array *ga_linalg_vecdot(const ga_array *a, const ga_array *b, int axis);
GPUARR_API ga_array *ga_matvec(const ga_array *a, const ga_array *x);
GPUARR_API ga_array *ga_vecmat(const ga_array *x, const ga_array *a);

/* numpy.linalg.multi_dot: the product of n >= 2 arrays in the order of the
   fewest multiplications (the matrix-chain order); the first may be 1-d (a
   row) and the last (a column), the others are 2-d (GA_ERROR_LINALG). Two
   arrays are ga_dot's. */
GPUARR_API ga_array *ga_linalg_multi_dot(int n, const ga_array *const *arrays);

/* numpy.cross(a, b, axis=axis) and numpy.linalg.cross: the cross product
   of the 3-vectors along `axis` of each, the other dims broadcast; the
   result's vectors along `axis`. As NumPy 2.5, 2-vectors are refused ("Both
   input arrays must be (arrays of) 3-dimensional vectors, ..."). */
GPUARR_API ga_array *ga_cross(const ga_array *a, const ga_array *b, int axis);
GPUARR_API ga_array *ga_linalg_cross(const ga_array *a, const ga_array *b, int axis);

/* numpy.kron: the Kronecker product (the smaller ndim with leading 1s), in
   multiply's dtype: a's elements times b, laid out block by block. */
GPUARR_API ga_array *ga_kron(const ga_array *a, const ga_array *b);

/* numpy.linalg.matrix_power: a's square matrices (last two dims) to the
   power n by repeated squaring (n = 0: the identity in a's dtype, any
   dtype; n = 1: a copy; n < 0: of inv(a)). GA_ERROR_LINALG for matrices
   that are not square or an a of fewer than two dims, in NumPy's words. */
GPUARR_API ga_array *ga_linalg_matrix_power(const ga_array *a, int64_t n);

/* numpy.linalg.vector_norm(x, ord, axis, keepdims): over `axes` (GA_ALL_AXES:
   every element), ord any number: INFINITY (max |x|), -INFINITY (min), 0
   (the count of nonzero elements), 1, 2, p. Bool and integer x are
   computed in float64; the result is x's real dtype. */
GPUARR_API ga_array *ga_linalg_vector_norm(const ga_array *x, double ord, int naxes, const int *axes, bool keepdims);

/* numpy.linalg.matrix_norm(x, ord, keepdims) over the last two dims. */
typedef enum ga_norm_ord {
    GA_NORM_FRO,       /* 'fro': sqrt(sum |x|^2) */
    GA_NORM_NUC,       /* 'nuc': the sum of the singular values */
    GA_NORM_1,         /* the largest column sum of |x| */
    GA_NORM_MINUS_1,   /* the smallest */
    GA_NORM_2,         /* the largest singular value */
    GA_NORM_MINUS_2,   /* the smallest */
    GA_NORM_INF,       /* the largest row sum of |x| */
    GA_NORM_MINUS_INF  /* the smallest */
} ga_norm_ord;
GPUARR_API ga_array *ga_linalg_matrix_norm(const ga_array *x, ga_norm_ord ord, bool keepdims);

/* Decompositions and solvers over cuSOLVER, for each matrix of a stack
   (..., n, n), in float32, float64, complex64 or complex128 (bool and
   integers in float64; float16 and bfloat16 are GA_ERROR_TYPE, as NumPy
   refuses float16). Each waits for the device to read cuSOLVER's info
   words, and a failed matrix is GA_ERROR_LINALG in NumPy's words; with
   ga_linalg_seterr(GA_LINALG_IGNORE) they do not wait, and a failed
   matrix's results are NaN instead. */

/* What the solvers do with a failed matrix (a singular one for solve and
   inv, one that is not positive definite for cholesky, no convergence for
   eigh, eig and svd): GA_LINALG_RAISE, the default, reads the info words
   (the host waits for the device) and fails with GA_ERROR_LINALG as NumPy
   raises LinAlgError; GA_LINALG_IGNORE never waits (for asynchronous and
   graph-captured work) and fills the failed matrices' results with NaN
   (cholesky: its factor's triangle), as CuPy does under
   cupyx.errstate(linalg='ignore'). det and slogdet never fail: a
   singular matrix has det 0. */
typedef enum ga_linalg_err { GA_LINALG_RAISE = 0, GA_LINALG_IGNORE = 1 } ga_linalg_err;

/* Sets the calling thread's ga_linalg_err (as numpy.seterr); returns the
   previous one. */
GPUARR_API ga_linalg_err ga_linalg_seterr(ga_linalg_err mode);

/* The calling thread's ga_linalg_err. */
GPUARR_API ga_linalg_err ga_linalg_geterr(void);

/* numpy.linalg.cholesky(a, upper=False): L (A = L L^H) from a's lower
   triangle, or L^H with `upper`. "Matrix is not positive definite". */
GPUARR_API ga_array *ga_linalg_cholesky(const ga_array *a, bool upper);

/* numpy.linalg.solve(a, b): x with a x = b, NumPy 2's rule for b: a 1-d b
   is one vector, otherwise a stack of (n, k) matrices; the batch dims
   broadcast. "Singular matrix". */
GPUARR_API ga_array *ga_linalg_solve(const ga_array *a, const ga_array *b);

/* numpy.linalg.inv: the inverse of each matrix. "Singular matrix". */
GPUARR_API ga_array *ga_linalg_inv(const ga_array *a);

/* numpy.linalg.det and slogdet (sign, and log|det| in the real dtype; a
   singular matrix gives 0 and -inf, no error), from each matrix's LU. */
GPUARR_API ga_array *ga_linalg_det(const ga_array *a);
GPUARR_API ga_status ga_linalg_slogdet(const ga_array *a, ga_array **sign, ga_array **logabsdet);

/* numpy.linalg.eigh(a, UPLO) and eigvalsh: the eigenvalues (ascending, in
   the real dtype) and eigenvectors (the columns of v) of each Hermitian
   matrix, from its lower ('L') or upper ('U') triangle. */
GPUARR_API ga_status ga_linalg_eigh(const ga_array *a, char uplo, ga_array **eigenvalues, ga_array **eigenvectors);
GPUARR_API ga_array *ga_linalg_eigvalsh(const ga_array *a, char uplo);

/* numpy.linalg.eig and eigvals: the eigenvalues and right eigenvectors
   (v's columns, of unit norm) of each square matrix, complex64 for float32
   and complex64 input, complex128 otherwise: complex always, as NumPy 2.5
   (no value-dependent real result). "Eigenvalues did not converge". */
GPUARR_API ga_status ga_linalg_eig(const ga_array *a, ga_array **eigenvalues, ga_array **eigenvectors);
GPUARR_API ga_array *ga_linalg_eigvals(const ga_array *a);

/* numpy.linalg.svd(a, full_matrices) and svdvals: a = u diag(s) vh for each
   matrix (m, n); s descending in the real dtype (k = min(m, n) of them), u
   (m, m) and vh (n, n), or (m, k) and (k, n) without full_matrices.
   "SVD did not converge". */
GPUARR_API ga_status ga_linalg_svd(const ga_array *a, bool full_matrices, ga_array **u, ga_array **s, ga_array **vh);
GPUARR_API ga_array *ga_linalg_svdvals(const ga_array *a);

/* numpy.linalg.qr(a, mode): a = q r for each matrix (m, n), k = min(m, n):
   GA_QR_REDUCED q (m, k), r (k, n); GA_QR_COMPLETE q (m, m), r (m, n);
   GA_QR_R r alone (q may be NULL); GA_QR_RAW LAPACK's h (n, m) in q and
   tau (k) in r, as NumPy's 'raw'. */
typedef enum ga_qr_mode { GA_QR_REDUCED, GA_QR_COMPLETE, GA_QR_R, GA_QR_RAW } ga_qr_mode;
GPUARR_API ga_status ga_linalg_qr(const ga_array *a, ga_qr_mode mode, ga_array **q, ga_array **r);

/* numpy.linalg.lstsq(a, b, rcond): the minimum-norm x of |b - a x| for a
   (m, n) and b (m,) or (m, k), from a's svd (singular values up to rcond
   times the largest left out; NAN: max(m, n) eps, NumPy 2's default);
   residuals, the squared norms of b - a x per column where the rank is n
   < m (else empty; reading the rank waits); rank (int64, 0-d); s. */
GPUARR_API ga_status ga_linalg_lstsq(const ga_array *a, const ga_array *b, double rcond, ga_array **x, ga_array **residuals,
                                     ga_array **rank, ga_array **s);

/* numpy.linalg.matrix_rank(a, tol, rtol): the singular values above tol,
   counted (int64); tol NAN: rtol (NAN: max(m, n) eps) times the largest.
   A 1-d or 0-d a: 1 unless every element is 0. */
GPUARR_API ga_array *ga_linalg_matrix_rank(const ga_array *a, double tol, double rtol);

/* numpy.linalg.cond(x, p): the 2 and -2 condition numbers from the
   singular values, the others as norm(x, p) norm(inv(x), p). */
GPUARR_API ga_array *ga_linalg_cond(const ga_array *x, ga_norm_ord p);

/* numpy.linalg.pinv(a, rtol): the pseudo-inverse from the svd, singular
   values up to rtol times the largest (NAN: max(m, n) eps) left out. */
GPUARR_API ga_array *ga_linalg_pinv(const ga_array *a, double rtol);

/* numpy.linalg.tensorsolve(a, b) (axes: none; move them with ga_moveaxis)
   and tensorinv(a, ind): solve and inv of a's dims folded into a matrix. */
GPUARR_API ga_array *ga_linalg_tensorsolve(const ga_array *a, const ga_array *b);
GPUARR_API ga_array *ga_linalg_tensorinv(const ga_array *a, int ind);

/* >>io */
/* ======================================================================== */
/* 20. Files and printing: NumPy's .npy format, array2string               */
/* ======================================================================== */

/* numpy.save(file, arr): arr in NumPy's .npy format (version 1.0, or 2.0
   for a header of 64 KiB or more; the header byte for byte as NumPy writes
   it), ".npy" appended to a file name without it as NumPy does. C order,
   or Fortran order for an array that is F-contiguous and not C-contiguous
   (as NumPy); other layouts are copied to C order first. Every dtype but
   bfloat16 (NumPy has no .npy code for it: GA_ERROR_TYPE). Waits for the
   device; GA_ERROR_IO when the file cannot be written. */
GPUARR_API ga_status ga_save(const char *file, const ga_array *arr);

/* numpy.load(file) of a .npy file (allow_pickle=False): a new array on the
   current device, in Fortran order where the file's is (a transposed view
   of the C-contiguous data, as NumPy's F-contiguous result). Format 1.0,
   2.0 and 3.0; little- and big-endian data (converted); bool, integers,
   float16/32/64, complex64/128. Errors in NumPy's words (GA_ERROR_VALUE):
   a wrong magic string or version, a header that is not NumPy's
   dictionary, an invalid shape, fortran_order or descr, object arrays,
   data shorter than the shape ("Failed to read all data for array. ...");
   GA_ERROR_TYPE for dtypes gpuarr lacks (strings, datetimes, structured);
   GA_ERROR_IO when the file cannot be opened or read. */
GPUARR_API ga_array *ga_load(const char *file);

/* ndarray.tofile(file, sep, format): a's elements in C order (any layout;
   NumPy writes C order whatever a's), any dtype. sep NULL or "": raw bytes.
   Otherwise text, sep after each element but the last, each element as
   NumPy writes it: str() of the Python scalar it makes of it ("True", "-3";
   every float dtype as Python's repr of its float64 value, so float32 0.1
   is "0.10000000149011612", 1e20 "1e+20", "nan"; complex "(1+2j)", "2j"),
   or with format (NULL or "": none) Python's `format % item`: one
   conversion of d i u o x X e E f F g G c s r a, flags - + space # 0, a
   width, a precision, ASCII text around it. A format's error is Python's
   (GA_ERROR_VALUE "unsupported format character 'q' (0x71) at index 1",
   "incomplete format"; GA_ERROR_TYPE "not enough arguments for format
   string", "%x format: an integer is required, not float", ...), the file
   left empty; an empty array's format is not read. An element the format
   cannot take (NaN or an infinity as %d, GA_ERROR_VALUE or
   GA_ERROR_OVERFLOW; %c of 128 or more, which NumPy 2.5 refuses and 2.4
   crashes on) stops the writing with Python's error, the elements before
   it written, as NumPy. Waits for the device; GA_ERROR_IO when the file
   cannot be written. */
GPUARR_API ga_status ga_tofile(const ga_array *a, const char *file, const char *sep, const char *format);

/* numpy.fromfile(file, dtype, count, sep, offset): a new 1-d array on the
   current device of `count` elements (negative: all there are; fewer
   where the file ends first). sep NULL or "": raw elements of dtype from
   byte `offset` on (an offset past the end: NumPy's "negative dimensions
   are not allowed"). Otherwise text, read as NumPy reads it: sep between
   elements, each run of blanks in it matching any run of blanks (none too;
   a sep of blanks only needs one), blanks around it skipped, one after the
   last element allowed; integers in decimal, saturated at 64 bits then
   wrapped to the dtype (int8 "300" is 44, uint8 "-1" 255); floats with
   exponents, nan, inf, infinity in any case, read as float64 and rounded;
   bool a number's truth ("True" is not read); complex "1+2j", "2j", "1"
   (not the "(1+2j)" tofile writes). Text that does not match is
   GA_ERROR_VALUE "string or file could not be read to its end due to
   unmatched data" and no array (NumPy 2 raises where NumPy 1 warned and
   returned what it had read); an offset other than 0, GA_ERROR_TYPE
   "'offset' argument only permitted for binary files"; bfloat16, which
   NumPy with ml_dtypes cannot read as text, GA_ERROR_VALUE "Unable to read
   character files of that array type". The text is read through a buffer
   and its values go to the device in pinned chunks. GA_ERROR_IO when the
   file cannot be opened or read. */
GPUARR_API ga_array *ga_fromfile(const char *file, ga_dtype dtype, int64_t count, const char *sep, int64_t offset);

/* numpy.savez(file, *arrays, **named): n arrays as the .npy members of a
   zip archive (stored, as NumPy's savez: "arr_0.npy", ... or names[i] +
   ".npy" where names is not NULL and names[i] is not NULL), ".npz"
   appended to a file name without it as NumPy does; zip64 records where
   the sizes need them, as Python's zipfile writes them. NumPy's np.load
   reads it. Waits for the device; GA_ERROR_IO when the file cannot be
   written, GA_ERROR_TYPE for bfloat16 (as ga_save). */
GPUARR_API ga_status ga_savez(const char *file, int n, const char *const *names, const ga_array *const *arrays);

/* numpy.savez_compressed(file, *arrays, **named): as ga_savez, each member
   deflated as zipfile's ZIP_DEFLATED deflates it (raw deflate at zlib's
   default level, 6), the data streamed through zlib from the device a
   chunk at a time. zlib (libz.so.1) is opened at the first call (>>libs):
   GA_ERROR_LIBRARY "ga_savez_compressed: libz.so.1 could not be loaded:
   ..." where it cannot be, before any file is made. Otherwise as
   ga_savez. */
GPUARR_API ga_status ga_savez_compressed(const char *file, int n, const char *const *names, const ga_array *const *arrays);

/* numpy.load of a .npz file: the archive opened and its directory read
   (numpy.lib.npyio.NpzFile); its members are read one at a time by
   ga_npz_get. Stored members (numpy.savez) and deflated ones
   (numpy.savez_compressed; zlib opened at the first, >>libs) are read;
   another compression method is zipfile's NotImplementedError,
   GA_ERROR_NOT_IMPLEMENTED "That compression method is not supported",
   when the member is read. Errors in zipfile's words (GA_ERROR_VALUE
   "File is not a zip file", ...); GA_ERROR_IO when the file cannot be
   opened or read. ga_npz_close closes it. */
typedef struct ga_npz ga_npz;
GPUARR_API ga_npz *ga_load_npz(const char *file);

/* The number of members, and member i's name less ".npy" (NpzFile.files). */
GPUARR_API int ga_npz_count(const ga_npz *z);
GPUARR_API const char *ga_npz_name(const ga_npz *z, int i);

/* npz[name]: the member `name` (or `name`.npy), inflated a chunk at a time
   where it is deflated, loaded as ga_load loads a .npy file (a new array
   on the current device); its CRC-32 checked over the bytes as stored or
   inflated. Errors in zipfile's and zlib's words, GA_ERROR_VALUE: "Bad
   CRC-32 for file 'x.npy'", "Error -3 while decompressing data: invalid
   block type"; GA_ERROR_NOT_IMPLEMENTED "That compression method is not
   supported"; GA_ERROR_LIBRARY where zlib cannot be loaded;
   GA_ERROR_VALUE "x is not a file in the archive" for another name. */
GPUARR_API ga_array *ga_npz_get(ga_npz *z, const char *name);

GPUARR_API void ga_npz_close(ga_npz *z);

/* --- printing ------------------------------------------------------------- */

/* numpy.set_printoptions' options that gpuarr takes (per thread): digits
   after the point (8), the element count above which arrays are summarised
   with "..." (1000), the items kept at each end of a summarised axis (3),
   the line width (75), suppress (print small numbers positionally, false).
   NumPy's floatmode 'maxprec', sign '-', nanstr 'nan', infstr 'inf'. */
typedef struct ga_printoptions {
    int precision;
    int64_t threshold;
    int edgeitems;
    int linewidth;
    bool suppress;
} ga_printoptions;

/* numpy.set_printoptions / get_printoptions for the calling thread; NULL
   restores NumPy's defaults. */
GPUARR_API ga_status ga_set_printoptions(const ga_printoptions *options);
GPUARR_API ga_printoptions ga_get_printoptions(void);

/* numpy.array_repr(a) ("array([1, 2], dtype=int32)") and numpy.array_str(a)
   ("[1 2]") into buf (size bytes, NUL-terminated, cut to fit; buf NULL and
   size 0 to ask): the whole text's length, or -1 with the error. Only the
   printed elements are read from the device (a summarised array's edges).
   bfloat16 prints as NumPy prints ml_dtypes' bfloat16 arrays: each element
   as its scalar's repr (6 significant digits, "%g": 3.140625 is "3.14062"),
   unpadded, "dtype=bfloat16" in the repr. */
GPUARR_API int64_t ga_array_repr(const ga_array *a, char *buf, size_t size);
GPUARR_API int64_t ga_array_str(const ga_array *a, char *buf, size_t size);

/* print(a): ga_array_str and a newline on stdout. */
GPUARR_API ga_status ga_print(const ga_array *a);

/* >>interop */
/* ======================================================================== */
/* 21. Interop: DLPack, memory allocated elsewhere                          */
/* ======================================================================== */

/* DLPack 1.1's ABI (github.com/dmlc/dlpack, dlpack/dlpack.h, Apache-2.0):
   its structs, enums and flags, declared here under that header's own
   include guard so that gpuarr.h stays one file. A program that includes
   dlpack.h before gpuarr.h uses that header's declarations; one that
   includes it after gets nothing twice. The names and layouts are
   DLPack's, so either way the same structs cross the boundary. */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1
#define DLPACK_DLL
typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
    kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLVulkan = 7, kDLMetal = 8, kDLVPI = 9, kDLROCM = 10,
    kDLROCMHost = 11, kDLExtDev = 12, kDLCUDAManaged = 13, kDLOneAPI = 14, kDLWebGPU = 15, kDLHexagon = 16,
    kDLMAIA = 17, kDLTrn = 18
} DLDeviceType;
typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;
typedef enum {
    kDLInt = 0U, kDLUInt = 1U, kDLFloat = 2U, kDLOpaqueHandle = 3U, kDLBfloat = 4U, kDLComplex = 5U, kDLBool = 6U,
    kDLFloat8_e3m4 = 7U, kDLFloat8_e4m3 = 8U, kDLFloat8_e4m3b11fnuz = 9U, kDLFloat8_e4m3fn = 10U,
    kDLFloat8_e4m3fnuz = 11U, kDLFloat8_e5m2 = 12U, kDLFloat8_e5m2fnuz = 13U, kDLFloat8_e8m0fnu = 14U,
    kDLFloat6_e2m3fn = 15U, kDLFloat6_e3m2fn = 16U, kDLFloat4_e2m1fn = 17U
} DLDataTypeCode;
typedef struct {
    uint8_t code; /* a DLDataTypeCode */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;
typedef struct {
    void *data;          /* the device (or host) address; NULL for no elements */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;    /* in elements, not bytes */
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;
#endif /* DLPACK_DLPACK_H_ */

/* NumPy 2's copy= argument of from_dlpack and __dlpack__. */
typedef enum ga_copy_mode {
    GA_COPY_IF_NEEDED = 0, /* copy=None: share the memory where possible, copy where not */
    GA_COPY_ALWAYS = 1,    /* copy=True */
    GA_COPY_NEVER = 2      /* copy=False: an error where sharing is impossible */
} ga_copy_mode;

/* Streams in the DLPack calls are integers with the meanings of DLPack's
   __dlpack__(stream=) for CUDA: a CUstream / cudaStream_t handle; 1 (or 0)
   the legacy default stream; 2 the per-thread default stream; -1 no
   synchronisation at all. Whoever hands the data over makes the taker's
   stream wait for the data's last writes with an event (cuStreamWaitEvent,
   no host wait, no device-wide synchronisation). */

/* array.__dlpack__(stream=, max_version=(1, x), copy=): a DLPack 1.x tensor
   over a's memory (no copy) on kDLCUDA, device a's device, strides in
   elements, flags DLPACK_FLAG_BITMASK_READ_ONLY for a read-only a. `stream`
   is the consumer's: it waits for the work queued so far on gpuarr's
   current stream. The consumer owns the result and calls its deleter once;
   a's memory stays alive until then (a itself may be released at once).
   A layout DLPack cannot state (a complex128 view whose byte strides are
   not multiples of 16) is copied to C order and flagged
   DLPACK_FLAG_BITMASK_IS_COPIED, as is every export with GA_COPY_ALWAYS;
   with GA_COPY_NEVER it is GA_ERROR_VALUE. NULL on error. */
GPUARR_API DLManagedTensorVersioned *ga_to_dlpack(const ga_array *a, intptr_t stream, ga_copy_mode copy);

/* The same as the legacy DLManagedTensor (DLPack before 1.0, for consumers
   that ask for no max_version). It has no flags: a read-only array is
   refused as NumPy refuses it ("Cannot export readonly array since
   signalling readonly is unsupported by DLPack ..."), and a copy is not
   marked as one. */
GPUARR_API DLManagedTensor *ga_to_dlpack_legacy(const ga_array *a, intptr_t stream, ga_copy_mode copy);

/* numpy.from_dlpack(x, copy=): an array over the memory of a DLPack 1.x
   tensor, which gpuarr now owns: its deleter is called exactly once, when
   the last array or view over the memory is released (after the work
   gpuarr queued on the releasing thread's current stream has finished), or
   before this returns NULL on any error. `stream` is the producer's stream
   that the data is ready on: gpuarr's current stream waits for it (-1 when
   the producer already synchronised with gpuarr's stream, as in the Python
   protocol where the consumer passes its stream to __dlpack__). kDLCUDA
   and kDLCUDAManaged tensors are shared (a read-only tensor gives a
   read-only array; GA_COPY_ALWAYS copies); kDLCPU and kDLCUDAHost tensors
   are copied to the current device (GA_COPY_NEVER refuses them, as NumPy
   refuses a device it cannot address). Every gpuarr dtype: bool, int and
   uint of 8 to 64 bits, float 16/32/64, bfloat16, complex 64/128 (lanes
   1); others GA_ERROR_TYPE. A major version other than 1 is refused. */
GPUARR_API ga_array *ga_from_dlpack(DLManagedTensorVersioned *tensor, intptr_t stream, ga_copy_mode copy);

/* The same for a legacy DLManagedTensor (strides may be NULL: C order). */
GPUARR_API ga_array *ga_from_dlpack_legacy(DLManagedTensor *tensor, intptr_t stream, ga_copy_mode copy);

/* CuPy's ndarray(shape, dtype, memptr=MemoryPointer(UnownedMemory(...))):
   an array over device memory that someone else allocated. `strides` in
   bytes (NULL: C order), each and `ptr` multiples of the item size (8 for
   complex128); `device` -1 asks the driver which device holds ptr. The
   memory must be device, managed or mapped page-locked memory the driver
   knows (pageable host memory is GA_ERROR_VALUE). `release(user_data)` is
   called exactly once, when the last array or view over the memory is
   released (after the work gpuarr queued on the releasing thread's current
   stream has finished); NULL for memory gpuarr need not give back. On
   error it returns NULL and release is not called: the memory stays the
   caller's. ga_data gives the pointer the other way. */
GPUARR_API ga_array *ga_from_device_ptr(void *ptr, ga_dtype dtype, int ndim, const int64_t *shape,
                                        const int64_t *strides, int device, void (*release)(void *user_data),
                                        void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* GPUARR_H */

/* >>abi */
/* ======================================================================== */
/* 22. Kernel ABI (internal: shared with the kernels and the CUB glue)      */
/* ======================================================================== */
/* Compiled only with GPUARR_IMPLEMENTATION or GPUARR_KERNEL_ABI (which the
   kernels and the CUB glue define): a program's own files do not see it.
   Its own guard lets a file include gpuarr.h plainly and then again with
   GPUARR_IMPLEMENTATION. */
#if (defined(GPUARR_IMPLEMENTATION) || defined(GPUARR_KERNEL_ABI)) && !defined(GPUARR__KERNEL_ABI_INCLUDED)
#define GPUARR__KERNEL_ABI_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel symbols are ga_<family>_<op>_<dtypes>_<variant>; every kernel
   uses grid-stride loops, so any grid size is correct. Strides in layouts
   are in bytes; dims are C-ordered (the last varies fastest) and already
   collapsed by the host. */

/* The layout of a copy: one output and one input over one shape, each with
   its own strides (the copy family's astype, transpose and tri kernels). */
typedef struct ga__copy_layout {
    int32_t ndim;
    int32_t unused;
    int64_t size;                    /* elements */
    int64_t shape[GA_MAXDIMS];
    int64_t out_strides[GA_MAXDIMS];
    int64_t in_strides[GA_MAXDIMS];
} ga__copy_layout;

/* 16 bytes holding one element of any dtype (fill values, the 1 of eye). */
typedef struct ga__value16 {
    uint64_t word[2];
} ga__value16;

/* arange as NumPy fills it: the first two elements as stored, then
   start + i * delta (delta = second - start) in the dtype's precision. */
typedef struct ga__arange_params {
    double start, second, delta;      /* floating dtypes, already rounded */
    int64_t istart, isecond, idelta;  /* integer and bool dtypes */
} ga__arange_params;

/* take, put and their along-axis forms: see kernels/index.cu. */
typedef struct ga__take_params {
    int64_t outer, count, inner;              /* out's shape, C-contiguous */
    int64_t axis_len;                         /* the length of the indexed axis */
    int64_t a_outer, a_axis, a_inner;         /* a's byte strides */
    int64_t idx_outer, idx_count, idx_inner;  /* the index array's element strides */
    int64_t nvalues;                          /* put: values repeat with this period */
    int32_t mode;                             /* 0 raise (checked), 1 wrap, 2 clip */
    int32_t add;                              /* 1: add the values (ga_index_add_<dtype>, add.at) */
    uint64_t won;                             /* put of 16-byte elements: a byte per element e, and */
    int32_t phase;                            /* the launch's step, 0 to 3 (kernels/index.cu) */
    int32_t unused;
} ga__take_params;

/* The products of our kernel (kernels/linalg.cu: integers, bool, small
   float and complex ones): count matrices c (m x n) = a (m x k) b (k x n);
   element strides of each: batch, row, column. */
typedef struct ga__matmul_params {
    int64_t count, m, n, k;
    int64_t a[3], b[3], c[3];
} ga__matmul_params;

/* The dot product of two long vectors (kernels/linalg.cu): n elements at
   element strides sx and sy, summed in `parts` chunks of 256 *
   GA__DOT_PER_THREAD(item size) elements. */
typedef struct ga__dot_params {
    int64_t n, sx, sy, parts;
} ga__dot_params;
#define GA__DOT_PER_THREAD(isz) ((isz) >= 16 ? 8 : (isz) == 8 ? 16 : 32)

typedef struct ga__linspace_params {
    double start, step, stop, delta, div, base;
    int32_t endpoint;  /* 1: the last element is exactly stop */
    int32_t step_zero; /* 1: value = i / div * delta + start (step underflowed) */
    int32_t log;       /* 1: value = base ** value (logspace) */
    int32_t unused;
} ga__linspace_params;

/* The `result` column of the ufunc lists: how a loop of dtype L reads and
   writes. SAME: every operand L. BOOL: output bool. COMPARE: output bool,
   plus exact int64/uint64 loops. ABS: output L's real dtype. DIVIDE:
   integer inputs take the float64 loop. LDEXP: input 1 is int64. FREXP:
   outputs L and int32. WHERE: input 0 is bool. ISCLOSE: output bool, L from
   a and result_type(b, 1.0). SINC: L from result_type(a, 1.0). */

/* The loop dtypes of the ufuncs (GA_UFUNC_*_LIST's `loops`):
   GA_LOOPS_<set>(Y, A) calls Y(A, name, ENUM) for each, in NumPy's loop
   order (bfloat16 after float16, as ml_dtypes registers it). */
#define GA__LOOPS_INTS(Y, A)                                                    \
    Y(A, int8, INT8) Y(A, uint8, UINT8) Y(A, int16, INT16) Y(A, uint16, UINT16) \
    Y(A, int32, INT32) Y(A, uint32, UINT32) Y(A, int64, INT64) Y(A, uint64, UINT64)
#define GA__LOOPS_FLOATS(Y, A) \
    Y(A, float16, FLOAT16) Y(A, bfloat16, BFLOAT16) Y(A, float32, FLOAT32) Y(A, float64, FLOAT64)
#define GA__LOOPS_COMPLEX(Y, A) Y(A, complex64, COMPLEX64) Y(A, complex128, COMPLEX128)
#define GA_LOOPS_ALL(Y, A) Y(A, bool, BOOL) GA__LOOPS_INTS(Y, A) GA__LOOPS_FLOATS(Y, A) GA__LOOPS_COMPLEX(Y, A)
#define GA_LOOPS_NUMERIC(Y, A) GA__LOOPS_INTS(Y, A) GA__LOOPS_FLOATS(Y, A) GA__LOOPS_COMPLEX(Y, A)
#define GA_LOOPS_REAL(Y, A) GA__LOOPS_INTS(Y, A) GA__LOOPS_FLOATS(Y, A)
#define GA_LOOPS_BOOL_REAL(Y, A) Y(A, bool, BOOL) GA__LOOPS_INTS(Y, A) GA__LOOPS_FLOATS(Y, A)
#define GA_LOOPS_INEXACT(Y, A) GA__LOOPS_FLOATS(Y, A) GA__LOOPS_COMPLEX(Y, A)
#define GA_LOOPS_FLOAT(Y, A) GA__LOOPS_FLOATS(Y, A)
#define GA_LOOPS_DOUBLE(Y, A) Y(A, float64, FLOAT64) Y(A, complex128, COMPLEX128)
#define GA_LOOPS_BOOL_INT(Y, A) Y(A, bool, BOOL) GA__LOOPS_INTS(Y, A)
#define GA_LOOPS_INT(Y, A) GA__LOOPS_INTS(Y, A)

/* ufunc kernels (kernels/ufunc.cuh). Operands are numbered outputs first,
   then inputs. */
#define GA__UFUNC_MAXOPS 4
typedef struct ga__ufunc_args {
    uint64_t ptr[GA__UFUNC_MAXOPS];      /* device addresses (unused for scalar inputs) */
    int64_t row_step[GA__UFUNC_MAXOPS];  /* contiguous loop: bytes from one row to the next */
    ga__value16 scalar[3];               /* input k when bit k of scalar_mask: the loop's dtype */
    double param[4];                     /* the extra arguments of ROUND, ISCLOSE, NAN_TO_NUM, ANGLE;
                                            integer POWER: param[0] holds the bits of the device address
                                            of an int32 set to 1 where an exponent is negative (0: none) */
    int64_t size;                        /* elements */
    int64_t rows;                        /* contiguous loop: rows of size / rows elements, contiguous
                                            in every operand (1: the whole array) */
    int32_t scalar_mask;
    int32_t dtype[GA__UFUNC_MAXOPS];     /* each input's dtype; the strided loop converts one other
                                            than the loop's (a safe cast) as it loads it */
    int32_t unused;
} ga__ufunc_args;

typedef struct ga__ufunc_layout {
    int32_t ndim;
    int32_t unused;
    int64_t shape[GA_MAXDIMS];
    int64_t strides[GA__UFUNC_MAXOPS][GA_MAXDIMS]; /* bytes; 0 for scalar inputs */
} ga__ufunc_layout;

/* Reductions (kernels/reduce.cu): the kernels are
   ga_reduce_<op>_<in>_<layout>, one for each operator, input kind and
   layout these lists name; the host's enums (GA__ROP_*, GA__RIN_*), names
   and kernel cache are made from the same lists.

   The operators: Y(A, ENUM, name, ins, packed) for each. `ins` names the
   input kinds it has inner and outer kernels for (GA__REDUCE_IN_<ins>),
   `packed` those it has packed kernels for. sum, prod; minmax (min / max);
   arg (argmin / argmax); argcombine (arg's partial states); sumsq (the sum
   of |x - center|^2, the variance's second pass); count (nonzero, or not
   NaN); logic (all, any); prodcombine and minmaxcombine (the partial
   states of complex prod and complex min / max). */
#define GA__REDUCE_OP_LIST(Y, A)                                                                  \
    Y(A, SUM, sum, REAL, PACKED) Y(A, PROD, prod, REAL, PACKED) Y(A, MINMAX, minmax, ORDERED, PACKED) \
    Y(A, ARG, arg, ORDERED, PACKED) Y(A, ARGCOMBINE, argcombine, STATES, NONE)                      \
    Y(A, SUMSQ, sumsq, INEXACT, PACKED) Y(A, COUNT, count, ANY, NONE) Y(A, LOGIC, logic, ANY, NONE) \
    Y(A, PRODCOMBINE, prodcombine, CSTATES, NONE) Y(A, MINMAXCOMBINE, minmaxcombine, CSTATES, NONE)

/* The bytes of complex prod's partial state (the head product, elements
   n - 2 and n - 1, flags: kernels/reduce.cu's ga_cprod_state). */
#define GA__CPROD_STATE_SIZE_COMPLEX64 32
#define GA__CPROD_STATE_SIZE_COMPLEX128 64

/* The input kinds, X(ENUM, name): how elements are read. As stored
   (float32, float64, complex64, complex128); converted per element from
   args.in_dtype (to_float32: float16, bfloat16; to_float64: bool, integers,
   floats up to float32; to_int64 / to_uint64: bool and integers; any:
   every dtype as a truth value); or, for argcombine, prodcombine and
   minmaxcombine, as partial states of that value type (int64, uint64 and
   the four as stored; complex64 and complex128). */
#define GA__REDUCE_IN_LIST(X)                                                                     \
    X(TO_INT64, to_int64) X(TO_UINT64, to_uint64) X(INT64, int64) X(UINT64, uint64) X(FLOAT32, float32) \
    X(TO_FLOAT32, to_float32) X(FLOAT64, float64) X(TO_FLOAT64, to_float64) X(COMPLEX64, complex64)   \
    X(COMPLEX128, complex128) X(ANY, any)

/* The input kinds of an operator's kernels (the op list's `ins` and
   `packed`): GA__REDUCE_IN_<set>(X, op) calls X(op, in) for each. */
#define GA__REDUCE_IN_REAL(X, op) \
    X(op, to_int64) X(op, float32) X(op, to_float32) X(op, float64) X(op, to_float64) X(op, complex64) X(op, complex128)
#define GA__REDUCE_IN_ORDERED(X, op) \
    X(op, to_int64) X(op, to_uint64) X(op, float32) X(op, to_float32) X(op, float64) X(op, complex64) X(op, complex128)
#define GA__REDUCE_IN_STATES(X, op) \
    X(op, int64) X(op, uint64) X(op, float32) X(op, float64) X(op, complex64) X(op, complex128)
#define GA__REDUCE_IN_CSTATES(X, op) X(op, complex64) X(op, complex128)
#define GA__REDUCE_IN_INEXACT(X, op) \
    X(op, float32) X(op, to_float32) X(op, float64) X(op, to_float64) X(op, complex64) X(op, complex128)
#define GA__REDUCE_IN_ANY(X, op) X(op, any)
#define GA__REDUCE_IN_PACKED(X, op) X(op, float32) X(op, float64) X(op, complex64)
#define GA__REDUCE_IN_NONE(X, op)

/* The layouts, X(ENUM, name): inner (the fastest-varying dim is reduced),
   outer (it is kept), packed (rows of 2 or 4 values in 16-byte vectors). */
#define GA__REDUCE_LAYOUT_LIST(X) X(INNER, inner) X(OUTER, outer) X(PACKED, packed)

/* Every kernel, X(op, in): ga_reduce_<op>_<in>_inner and _outer ... */
#define GA__REDUCE_KERNELS_OF(X, E, name, ins, packed) GA__REDUCE_IN_##ins(X, name)
#define GA__REDUCE_KERNEL_LIST(X) GA__REDUCE_OP_LIST(GA__REDUCE_KERNELS_OF, X)
/* ... and ga_reduce_<op>_<in>_packed */
#define GA__REDUCE_PACKED_OF(X, E, name, ins, packed) GA__REDUCE_IN_##packed(X, name)
#define GA__REDUCE_PACKED_LIST(X) GA__REDUCE_OP_LIST(GA__REDUCE_PACKED_OF, X)

/* ga__reduce_args.flags */
enum {
    GA__RF_NAN = 1,     /* skip NaN (the nan functions) */
    GA__RF_MAX = 2,     /* minmax, arg: the maximum */
    GA__RF_NOTNAN = 4,  /* count: elements that are not NaN (else nonzero ones) */
    GA__RF_ANY = 8,     /* logic: any (else all) */
    GA__RF_NANVAR = 16, /* var: NaN where the count minus ddof is <= 0 (nanvar) */
    GA__RF_ALIGNED = 32, /* outer: every row of columns starts 16-byte aligned */
    GA__RF_ROWS = 64,    /* inner: one kept dim and one reduced dim, a row per work item */
    GA__RF_TILES = 128,  /* inner, with ROWS and group 1: rows of at most 64 contiguous bytes,
                            one after the other from a 16-byte aligned start */
    GA__RF_PACKED = 256  /* the packed kernels: as TILES, rows of 2 or 4 values read as stored
                            that fill 16-byte vectors, GA__RPACKED_LOADS vectors per thread */
};
#define GA__RPACKED_LOADS 4 /* of 1, 2 and 4 the fastest: 7.1, 6.7, 6.3 us for (1e6, 2) float32 on an H100 */
/* ga__reduce_args.finalize: what the final pass stores. */
enum { GA__FIN_NONE, GA__FIN_MEAN, GA__FIN_VAR, GA__FIN_STD };

/* One pass of a reduction: `rows` outputs (C order over the kept dims),
   each reducing `length` elements (C order over the reduced dims). Byte
   strides for in and out, element strides for the aux arrays (center,
   count). A pass with nchunks > 1 stores partial states at
   out[row * part_row + chunk * part_chunk]. */
typedef struct ga__reduce_args {
    uint64_t in;            /* element 0 */
    uint64_t out;           /* final pass: output element 0; else the partial states */
    uint64_t center;        /* sumsq: each output's mean (the value type), or 0 */
    uint64_t count;         /* mean / var: each output's element count (int64), or 0: `divisor` */
    uint64_t flag;          /* 0, or a uint32 that GA_WARNING_* bits are or'ed into */
    ga__value16 initial;    /* NumPy's initial=, when has_initial */
    double divisor;         /* mean / var: the count of every output when count is 0 */
    double ddof;
    int64_t rows, length;
    int64_t chunk, nchunks; /* elements per work item along `length`; work items per row */
    int64_t part_row, part_chunk;
    int32_t flags;          /* GA__RF_* */
    int32_t finalize;       /* GA__FIN_* */
    int32_t final_pass;     /* 1: results (out_dtype); 0: partial states */
    int32_t in_dtype;       /* converting loads: the input's dtype */
    int32_t out_dtype;
    int32_t group;          /* inner: threads per row, a power of 2 <= 32, or 256; outer: threads across columns */
    int32_t vec;            /* outer: columns per thread */
    int32_t has_initial;
    int32_t initial_dtype;  /* the dtype of `initial` */
    int32_t kept_ndim, red_ndim;
    int64_t kept_shape[GA_MAXDIMS], kept_in[GA_MAXDIMS], kept_out[GA_MAXDIMS], kept_aux[GA_MAXDIMS];
    int64_t red_shape[GA_MAXDIMS], red_in[GA_MAXDIMS];
} ga__reduce_args;

/* cov's Gram matrix: partial sums out[(i * nv + j) * nchunks + c] of
   x[i, k] * conj(x[j, k] * w[k]) over chunk c of the observations. */
typedef struct ga__gram_args {
    uint64_t x;   /* nv x nobs, C-contiguous, float64 or complex128 */
    uint64_t w;   /* nobs float64 weights, or 0 */
    uint64_t out;
    int64_t nv, nobs, chunk, nchunks;
} ga__gram_args;

/* --- CUB glue (kernels/cub/, built into build/libgpuarr_cub.a) ---------- */
/* extern "C" functions over CUB's device-wide algorithms, linked into every
   program with the static CUDA runtime (-lcudart_static -lstdc++ -lrt). They
   run on the context current to the thread (the primary one gpuarr binds)
   and on `stream`, and return 0 or a cudaError_t (ga__cub_error_string).
   Those taking (temp, temp_bytes) are two-phase: with temp NULL they only
   store the bytes of temporary storage they need in *temp_bytes; then they
   are called again with that many bytes (from gpuarr's pool) at temp.
   Equal segments: segment_length elements each (< 1: one segment). */
enum { GA__CUB_SCAN_SUM = 0, GA__CUB_SCAN_PROD = 1, GA__CUB_SCAN_NANSUM = 2, GA__CUB_SCAN_NANPROD = 3 };

/* Keys of `dtype` (int8/16/32/64, float16, bfloat16, float32, float64,
   complex64, complex128) to unsigned bit patterns of the dtype's size that
   sort in NumPy's order, or back (inverse): signed ints flip the sign bit;
   floats order as numbers with every NaN last and equal (NaN comes back as
   the positive quiet NaN); -0.0 equals +0.0 when merge_zero (argsort: a
   stable sort keeps their order), else sorts just before it (sort: so that
   it comes back). A complex key is the real part's key, then the
   imaginary part's, as one number of twice their width, with NaN parts in
   NumPy's groups (R + nanj, nan + Rj, nan + nanj, each by its other part;
   see kernels/cub/glue.cuh); its zeros are always merged (each comes back +0.0).
   dst may be src. */
int ga__cub_order_keys(void *dst, const void *src, int64_t n, int dtype, int inverse, int merge_zero,
                       struct CUstream_st *stream);

/* Stable ascending sort of unsigned keys of key_bytes (1, 2, 4, 8; 16 in
   one segment only) in equal segments (DeviceRadixSort for one,
   DeviceSegmentedSort for more), double-buffered: the keys are in `keys`,
   `keys_alt` is scratch of the same size, and *selector says where the
   result is (0: keys, 1: keys_alt). With vals non-NULL the run phase first
   writes each element's index in its segment there as uint32 and sorts
   them along (argsort); vals_alt is their scratch. */
int ga__cub_sort(void *temp, size_t *temp_bytes, void *keys, void *keys_alt, void *vals, void *vals_alt,
                 int key_bytes, int64_t n, int64_t segment_length, int *selector, struct CUstream_st *stream);

/* Stable ascending sort of n keys of `dtype` (bool, integers, float16,
   bfloat16, float32, float64) as stored, from `in` (left unchanged) to
   `out`, in NumPy's order: NaN last (their bits kept), -0.0 equal to +0.0
   (input order kept). Two-phase, as ga__cub_sort. */
int ga__cub_sort_values(void *temp, size_t *temp_bytes, const void *in, void *out, int dtype, int64_t n,
                        struct CUstream_st *stream);

/* Sorts `rows` C-contiguous rows of `length` (1 to GA__CUB_SORT_ROWS_MAX)
   keys of `dtype` (bool, integers, float16, bfloat16, float32, float64) as
   stored, stable and in NumPy's order, one block per row (no temporary
   storage): into out (the sorted keys; NaN as the positive quiet NaN; -0.0
   before +0.0 unless merge_zero), or, with index non-NULL, each key's
   position in its row there as int64 (out unused). */
#define GA__CUB_SORT_ROWS_MAX 2048
int ga__cub_sort_rows(const void *in, void *out, int64_t *index, int dtype, int64_t rows, int64_t length,
                      int merge_zero, struct CUstream_st *stream);

/* Inclusive scan (GA__CUB_SCAN_SUM or _PROD) of n elements of `dtype`
   (int64, uint64, float32, float64, complex64, complex128) from `in` to
   `out` (may be `in`), restarting at each segment. _NANSUM and _NANPROD
   (floating and complex dtypes) read an element with a NaN part as 0 / 1. */
int ga__cub_scan(void *temp, size_t *temp_bytes, const void *in, void *out, int dtype, int op, int64_t n,
                 int64_t segment_length, struct CUstream_st *stream);

/* Stream compaction (DeviceSelect::Flagged): `out` gets, in order, the
   items i < n of `in` (contiguous, item_bytes 1, 2, 4, 8 or 16) whose byte
   flags[i] is nonzero; with `in` NULL, their positions i as int64 instead
   (flatnonzero). *count (device memory, int64) gets how many. */
int ga__cub_select_flagged(void *temp, size_t *temp_bytes, const void *in, const void *flags, void *out,
                           int64_t *count, int item_bytes, int64_t n, struct CUstream_st *stream);

/* *count (device memory, int64) = the number of nonzero bytes among the n
   at `flags` (DeviceReduce::Sum; 16 bytes per load when flags is 16-byte
   aligned). */
int ga__cub_count_flags(void *temp, size_t *temp_bytes, const void *flags, int64_t n, int64_t *count,
                        struct CUstream_st *stream);

/* In place on `coords`, int64 (ndim, n) C-contiguous: the flat C-order
   positions over `shape` held in its last row become one row of
   coordinates per axis (nonzero). No temporary storage. */
int ga__cub_unravel(int64_t *coords, int64_t n, int ndim, const int64_t *shape, struct CUstream_st *stream);

/* Searching, sets and histograms (kernels/cub/sets.cu). Keys are those of
   ga__cub_order_keys for a dtype (bool and unsigned integers as they
   are), of key_bytes 1, 2, 4, 8 or 16 (the dtype's size), compared as
   unsigned numbers. The functions given the dtype know its NaN keys (the
   last ones in the order). */

/* The positions i in [0, n) of sorted keys that start a run of equal keys
   (i == 0 or keys[i] != keys[i - 1]; NaN keys are one run with equal_nan,
   else each its own) to `starts` (int64, room for n), and their number to
   *num_runs (int64, device memory). DeviceSelect::If. */
int ga__cub_run_starts(void *temp, size_t *temp_bytes, const void *keys, int dtype, int equal_nan, int64_t n,
                       int64_t *starts, int64_t *num_runs, struct CUstream_st *stream);

/* For each of the num_runs runs found by ga__cub_run_starts: its key to
   unique[r], its length to counts[r] (int64), and perm[start] (or start
   when perm is NULL) to first[r] (int64); any of the three may be NULL. */
int ga__cub_runs(const void *keys, int key_bytes, const int64_t *starts, int64_t num_runs, int64_t n,
                 const uint32_t *perm, void *unique, int64_t *counts, int64_t *first, struct CUstream_st *stream);

/* ids[perm[p]] = the run (of num_runs starting at `starts`) that sorted
   position p is in, for p in [0, n): the inverse of unique. */
int ga__cub_run_ids(const int64_t *starts, int64_t num_runs, int64_t n, const uint32_t *perm, int64_t *ids,
                    struct CUstream_st *stream);

/* ga__cub_search's modes: for each query q, the first position in the n
   sorted keys whose key is >= q (LEFT) or > q (RIGHT), as int64, or n
   minus it (_FROM_END); or whether q is among them (FOUND) or not
   (NOT_FOUND), as bool, where a NaN key is never found. */
enum {
    GA__CUB_SEARCH_LEFT = 0,
    GA__CUB_SEARCH_RIGHT = 1,
    GA__CUB_SEARCH_LEFT_FROM_END = 2,
    GA__CUB_SEARCH_RIGHT_FROM_END = 3,
    GA__CUB_SEARCH_FOUND = 4,
    GA__CUB_SEARCH_NOT_FOUND = 5
};

/* Binary search of m query keys in n sorted keys of `dtype` (a kernel),
   results to `out` (m int64 or m bool, as `mode` says). */
int ga__cub_search(const void *sorted, int64_t n, const void *queries, int64_t m, int dtype, int mode, void *out,
                   struct CUstream_st *stream);

/* For n sorted keys of `dtype`: next[i] = 1 where keys[i] equals keys[i +
   1], prev[i] = 1 where it equals keys[i - 1], else 0 (n bytes each; a NaN
   key equals nothing; either may be NULL). No temporary storage. */
int ga__cub_equal_neighbours(const void *keys, int dtype, int64_t n, uint8_t *next, uint8_t *prev,
                             struct CUstream_st *stream);

/* Histogram of n contiguous elements of `dtype` (float32 or float64) over
   nbins bins of nbins + 1 increasing edges of the same dtype: element x
   falls in bin i when edges[i] <= x < edges[i + 1], the last bin closed;
   NaN and elements outside [edges[0], edges[nbins]] in none. uniform: the
   bins are equal, guessed from (x - lo) * scale and settled by the edges.
   With ids NULL, adds the counts to `counts` (nbins uint64, zeroed by the
   caller; integer atomics, privatised in shared memory for few bins);
   else writes each element's bin (nbins for none) to ids (n uint32). */
int ga__cub_histogram(const void *in, int dtype, int64_t n, const void *edges, int64_t nbins, int uniform, double lo,
                      double scale, void *counts, uint32_t *ids, struct CUstream_st *stream);

/* Adds the count of each value of n int64 in [0, nbins) (checked by the
   caller) to counts (nbins uint64, zeroed by the caller). */
int ga__cub_bincount(const int64_t *in, int64_t n, int64_t nbins, void *counts, struct CUstream_st *stream);

/* out[b] = the sum of weights[perm[i]] over the sorted ids equal to b, for
   b in [0, nbins), in float64 (ids >= nbins left out): the bin offsets by
   binary search, then DeviceSegmentedReduce::Sum (deterministic). */
int ga__cub_weighted_bins(void *temp, size_t *temp_bytes, const uint32_t *sorted_ids, const uint32_t *perm,
                          const double *weights, int64_t n, int64_t nbins, double *out, struct CUstream_st *stream);

/* The runtime's text for an error the glue returned; CUB_VERSION. */
const char *ga__cub_error_string(int error);
int ga__cub_version(void);
/* --- end of CUB glue ------------------------------------------------------- */

#ifdef __cplusplus
}
#endif

#endif /* Kernel ABI */

/* ======================================================================== */
/*                            IMPLEMENTATION                                */
/* ======================================================================== */
#if defined(GPUARR_IMPLEMENTATION) && !defined(GPUARR__IMPLEMENTED)
#define GPUARR__IMPLEMENTED

#include <cuda.h>
#include <cudaTypedefs.h>
#ifndef GPUARR_NO_LINALG
/* (CUDA's half-precision headers, which cublas_api.h includes, use a GNU
   macro extension that clang's C++ -Wpedantic reports) */
#  if defined(__clang__)
#    pragma clang diagnostic push
#    pragma clang diagnostic ignored "-Wgnu-zero-variadic-macro-arguments"
#  endif
#  include <cublas_api.h>
#  include <cusolverDn.h>
#  if defined(__clang__)
#    pragma clang diagnostic pop
#  endif
#endif
/* zlib from the link too (its declarations, to check gpuarr's own against:
   >>libs), unless GPUARR_ZLIB_DLOPEN keeps it opened at run time */
#if defined(GPUARR_LINK_CUDA_LIBRARIES) && !defined(GPUARR_ZLIB_DLOPEN)
#  define GA__LINK_ZLIB 1
#  include <zlib.h>
#else
#  define GA__LINK_ZLIB 0
#endif
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* >>config */
/* ------------------------------------------------------------------------ */
/* 1. Configuration                                                          */
/* ------------------------------------------------------------------------ */

#ifndef GPUARR_MALLOC
#  define GPUARR_MALLOC(bytes) malloc(bytes)
#  define GPUARR_FREE(ptr) free(ptr)
#endif
#ifndef GPUARR_ASSERT
#  include <assert.h>
#  define GPUARR_ASSERT(cond) assert(cond)
#endif

#ifdef __cplusplus
#  define GA__TLS thread_local
extern "C" {
#else
#  define GA__TLS _Thread_local
#endif

#define GA__ATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define GA__ATOMIC_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define GA__ATOMIC_ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_ACQ_REL)

#define GA__MAX(a, b) ((a) > (b) ? (a) : (b))
#define GA__MIN(a, b) ((a) < (b) ? (a) : (b))

/* >>types */
/* ------------------------------------------------------------------------ */
/* 2. Types: the array object, which every section reads                     */
/* ------------------------------------------------------------------------ */

/* A pool block (>>memory). */
typedef struct ga__block ga__block;

/* Device memory shared by an array and its views. */
typedef struct ga__buffer {
    int refcount;
    int device;
    uint64_t ptr;
    size_t nbytes;
    ga__block *block; /* from the device pool; NULL when nbytes is 0 or the memory is another's */
    void (*release)(void *release_data); /* another's memory (>>interop): how to give it back */
    void *release_data;
} ga__buffer;

struct ga_array {
    int refcount;
    ga_dtype dtype;
    int ndim;
    int flags;
    int device;
    int64_t size;
    uint64_t data;          /* device address of element 0 */
    ga__buffer *buffer;
    int64_t shape[GA_MAXDIMS];
    int64_t strides[GA_MAXDIMS];
};

/* >>core */
/* ------------------------------------------------------------------------ */
/* 3. Core: the driver, initialisation, errors, shutdown                     */
/* ------------------------------------------------------------------------ */

/* Every driver entry point we use, X(name without "cu", ABI version), typed
   by cudaTypedefs.h's PFN_cu<name>_v<version> and resolved by
   cuGetProcAddress_v2 for exactly that version: a newer driver's later ABI
   of the same name (cuCtxSynchronize took a context in CUDA 13) is never
   picked up by accident. Legacy default-stream semantics throughout. */
#define GA__DRIVER_LIST(X) \
    X(Init, 2000)                     \
    X(DriverGetVersion, 2020)         \
    X(GetErrorString, 6000)           \
    X(GetErrorName, 6000)             \
    X(DeviceGetCount, 2000)           \
    X(DeviceGet, 2000)                \
    X(DeviceGetName, 2000)            \
    X(DeviceGetAttribute, 2000)       \
    X(DeviceTotalMem, 3020)           \
    X(DevicePrimaryCtxRetain, 7000)   \
    X(DevicePrimaryCtxRelease, 11000) \
    X(CtxGetCurrent, 4000)            \
    X(CtxSetCurrent, 4000)            \
    X(CtxSynchronize, 2000)           \
    X(MemGetInfo, 3020)               \
    X(StreamCreate, 2000)             \
    X(StreamDestroy, 4000)            \
    X(StreamSynchronize, 2000)        \
    X(StreamQuery, 2000)              \
    X(StreamWaitEvent, 3020)          \
    X(EventCreate, 2000)              \
    X(EventDestroy, 4000)             \
    X(EventRecord, 2000)              \
    X(EventSynchronize, 2000)         \
    X(EventQuery, 2000)               \
    X(EventElapsedTime, 2000)         \
    X(MemAlloc, 3020)                 \
    X(MemFree, 3020)                  \
    X(MemHostAlloc, 2020)             \
    X(MemFreeHost, 2000)              \
    X(PointerGetAttributes, 7000)     \
    X(MemcpyHtoDAsync, 3020)          \
    X(MemcpyDtoHAsync, 3020)          \
    X(MemcpyDtoDAsync, 3020)          \
    X(MemcpyDtoH, 3020)               \
    X(MemcpyPeerAsync, 4000)          \
    X(MemsetD8Async, 3020)            \
    X(LibraryLoadData, 12000)         \
    X(LibraryUnload, 12000)           \
    X(LibraryGetKernel, 12000)        \
    X(LibraryGetGlobal, 12000)        \
    X(LaunchKernel, 4000)            

typedef struct ga__driver {
#define GA__DRIVER_FIELD(name, version) PFN_cu##name##_v##version name;
    GA__DRIVER_LIST(GA__DRIVER_FIELD)
#undef GA__DRIVER_FIELD
} ga__driver;

typedef struct ga__pool ga__pool;

/* One CUDA device as the library sees it. */
typedef struct ga__device {
    CUdevice handle;
    CUcontext context;         /* primary context, retained at first use */
    int multiprocessor_count;
    ga__pool *pool;            /* made at the first allocation */
} ga__device;

/* Process-wide state, written under ga__lock. */
typedef struct ga__global {
    int initialized;           /* read without the lock on the fast path */
    ga_status init_status;     /* a failed ga_init is not retried until shutdown */
    char init_message[512];
    void *driver_library;
    ga__driver cu;
    int driver_version;
    int device_count;
    ga__device *devices;
    ga_error_callback error_callback;
    void *error_callback_user;
} ga__global;

static ga__global ga__g;
static pthread_mutex_t ga__lock = PTHREAD_MUTEX_INITIALIZER;

#define GA__CU ga__g.cu

typedef struct ga__scope_entry {
    ga_array *array;
    bool kept;
} ga__scope_entry;

/* Per-thread state. */
typedef struct ga__thread {
    ga_status error;
    char message[512];
    int device;                              /* current device */
    int device_stack[16], device_depth;
    ga_stream *stream[GA_MAX_DEVICES];       /* current stream per device */
    struct { int device; ga_stream *previous; } stream_stack[16];
    int stream_depth;
    ga__scope_entry *scope_entries;          /* arrays made inside open scopes */
    int scope_count, scope_capacity;
    int scope_starts[64], scope_depth;
} ga__thread;

static GA__TLS ga__thread ga__t;

/* --- shutdown ------------------------------------------------------------ */
/* Each section that keeps state across calls drops it in its own hook,
   ga__<section>_shutdown, defined at the section's end. ga_shutdown (below)
   calls them in this order, the later sections first, with ga__lock held,
   while the driver is still loaded; a new section adds its name here. */
#define GA__SHUTDOWN_LIST(X) \
    X(linalg) X(reduce) X(index) X(manip) X(ufunc) X(transfer) X(creation) X(libs) X(launch) X(memory) X(device)
#define GA__SHUTDOWN_DECLARE(name) static void ga__##name##_shutdown(void);
GA__SHUTDOWN_LIST(GA__SHUTDOWN_DECLARE)
#undef GA__SHUTDOWN_DECLARE

/* --- errors -------------------------------------------------------------- */

static const char *const ga__status_strings[] = {
#define GA__STATUS_STRING(E, text) text,
    GA_STATUS_LIST(GA__STATUS_STRING)
#undef GA__STATUS_STRING
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
/* Records an error for `func` and returns it, so `return ga__error(...)`
   reads as what it does. */
static ga_status ga__error(ga_status status, const char *func, const char *fmt, ...)
{
    int n = snprintf(ga__t.message, sizeof ga__t.message, "%s: ", func);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ga__t.message + n, sizeof ga__t.message - (size_t)n, fmt, ap);
    va_end(ap);
    ga__t.error = status;
    ga_error_callback callback = GA__ATOMIC_LOAD(&ga__g.error_callback);
    if (callback) callback(status, ga__t.message, ga__g.error_callback_user);
    return status;
}

/* The error for a NULL argument: keeps an earlier error (the failure that
   produced the NULL) so chained expressions report their first failure. */
static ga_status ga__null_input(const char *func, const char *what)
{
    if (ga__t.error != GA_OK) return ga__t.error;
    return ga__error(GA_ERROR_NULL_INPUT, func, "%s is NULL", what);
}

/* A driver failure, with the driver's own name and text for it. */
static ga_status ga__cuda_error(const char *func, CUresult r, const char *what)
{
    const char *name = "?", *text = "?";
    if (GA__CU.GetErrorName) GA__CU.GetErrorName(r, &name);
    if (GA__CU.GetErrorString) GA__CU.GetErrorString(r, &text);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return ga__error(GA_ERROR_OUT_OF_MEMORY, func, "%s: out of memory", what);
    return ga__error(GA_ERROR_CUDA, func, "%s failed: %s (%s)", what, text, name);
}

#define GA__CHECK_CU(func, call, what)                    \
    do {                                                  \
        CUresult ga__r = (call);                          \
        if (ga__r != CUDA_SUCCESS)                        \
            return ga__cuda_error((func), ga__r, (what)); \
    } while (0)

GPUARR_API ga_status ga_last_error(void) { return ga__t.error; }

GPUARR_API const char *ga_last_error_message(void)
{
    return ga__t.error == GA_OK ? "no error" : ga__t.message;
}

GPUARR_API void ga_clear_error(void)
{
    ga__t.error = GA_OK;
    ga__t.message[0] = 0;
}

GPUARR_API const char *ga_status_string(ga_status status)
{
    if ((int)status < 0 || status >= GA_NUM_STATUS) return "unknown status";
    return ga__status_strings[status];
}

GPUARR_API void ga_set_error_callback(ga_error_callback callback, void *user)
{
    pthread_mutex_lock(&ga__lock);
    ga__g.error_callback_user = user;
    GA__ATOMIC_STORE(&ga__g.error_callback, callback);
    pthread_mutex_unlock(&ga__lock);
}

GPUARR_API int ga_version(void) { return GPUARR_VERSION_NUMBER; }

/* --- initialisation ------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static ga_status ga__init_failed(ga_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ga__g.init_message, sizeof ga__g.init_message, fmt, ap);
    va_end(ap);
    ga__g.init_status = status;
    return status;
}

typedef CUresult (*ga__get_proc_fn)(const char *, void **, int, cuuint64_t,
                                    CUdriverProcAddressQueryResult *);

static ga_status ga__load_driver(void)
{
    const char *path = getenv("GPUARR_DRIVER_LIBRARY");
    if (!path || !*path) path = "libcuda.so.1";
    ga__g.driver_library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!ga__g.driver_library)
        return ga__init_failed(GA_ERROR_NO_DRIVER,
                               "the CUDA driver could not be loaded (%s); is an NVIDIA driver installed?",
                               dlerror());
    ga__get_proc_fn get_proc;
    void *sym = dlsym(ga__g.driver_library, "cuGetProcAddress_v2");
    memcpy(&get_proc, &sym, sizeof get_proc);
    if (!get_proc)
        return ga__init_failed(GA_ERROR_NO_DRIVER,
                               "the CUDA driver in %s is too old (no cuGetProcAddress_v2; CUDA 12 or newer is needed)",
                               path);
#define GA__DRIVER_RESOLVE(name, version)                                                  \
    {                                                                                      \
        CUdriverProcAddressQueryResult found;                                              \
        void *fn = NULL;                                                                   \
        CUresult r = get_proc("cu" #name, &fn, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, \
                              &found);                                                     \
        if (r == CUDA_ERROR_STUB_LIBRARY)                                                  \
            return ga__init_failed(GA_ERROR_NO_DRIVER,                                     \
                                   "%s is the CUDA toolkit's stub library, not a driver",  \
                                   path);                                                  \
        if (r != CUDA_SUCCESS || !fn)                                                      \
            return ga__init_failed(GA_ERROR_NO_DRIVER,                                     \
                                   "the CUDA driver in %s lacks cu" #name                  \
                                   " (a CUDA %d.%d driver or newer is needed)",            \
                                   path, version / 1000, version % 1000 / 10);             \
        memcpy(&GA__CU.name, &fn, sizeof fn);                                              \
    }
    GA__DRIVER_LIST(GA__DRIVER_RESOLVE)
#undef GA__DRIVER_RESOLVE
    return GA_OK;
}

static ga_status ga__init_locked(void)
{
    ga_status st = ga__load_driver();
    if (st != GA_OK) return st;
    CUresult r = GA__CU.Init(0);
    if (r == CUDA_ERROR_STUB_LIBRARY)
        return ga__init_failed(GA_ERROR_NO_DRIVER,
                               "the CUDA driver library found is the toolkit's stub, not a driver");
    if (r == CUDA_ERROR_NO_DEVICE)
        return ga__init_failed(GA_ERROR_NO_DEVICE, "no CUDA-capable device is present");
    if (r != CUDA_SUCCESS) {
        const char *text = "?";
        GA__CU.GetErrorString(r, &text);
        return ga__init_failed(r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ? GA_ERROR_NO_DRIVER : GA_ERROR_CUDA,
                               "cuInit failed: %s (%d)", text, (int)r);
    }
    GA__CU.DriverGetVersion(&ga__g.driver_version);
    int count = 0;
    if (GA__CU.DeviceGetCount(&count) != CUDA_SUCCESS || count <= 0)
        return ga__init_failed(GA_ERROR_NO_DEVICE, "no CUDA-capable device is present");
    if (count > GA_MAX_DEVICES) count = GA_MAX_DEVICES;
    ga__g.devices = (ga__device *)GPUARR_MALLOC(sizeof(ga__device) * (size_t)count);
    if (!ga__g.devices) return ga__init_failed(GA_ERROR_HOST_OUT_OF_MEMORY, "out of host memory");
    memset(ga__g.devices, 0, sizeof(ga__device) * (size_t)count);
    for (int i = 0; i < count; i++) {
        ga__device *d = &ga__g.devices[i];
        if (GA__CU.DeviceGet(&d->handle, i) != CUDA_SUCCESS)
            return ga__init_failed(GA_ERROR_CUDA, "cuDeviceGet(%d) failed", i);
        GA__CU.DeviceGetAttribute(&d->multiprocessor_count,
                                  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->handle);
    }
    ga__g.device_count = count;
    return GA_OK;
}

GPUARR_API ga_status ga_init(void)
{
    if (GA__ATOMIC_LOAD(&ga__g.initialized)) return GA_OK;
    pthread_mutex_lock(&ga__lock);
    if (!ga__g.initialized && ga__g.init_status == GA_OK) {
        if (ga__init_locked() == GA_OK) GA__ATOMIC_STORE(&ga__g.initialized, 1);
    }
    ga_status st = ga__g.initialized ? GA_OK : ga__g.init_status;
    pthread_mutex_unlock(&ga__lock);
    if (st != GA_OK) return ga__error(st, "ga_init", "%s", ga__g.init_message);
    return GA_OK;
}

GPUARR_API int ga_driver_version(void) { return ga__g.driver_version; }

GPUARR_API void ga_shutdown(void)
{
    pthread_mutex_lock(&ga__lock);
    if (ga__g.initialized) {
#define GA__SHUTDOWN_CALL(name) ga__##name##_shutdown();
        GA__SHUTDOWN_LIST(GA__SHUTDOWN_CALL)
#undef GA__SHUTDOWN_CALL
    } else {
        ga__libs_shutdown(); /* a CUDA library loads (or fails to) without a driver */
    }
    GA__ATOMIC_STORE(&ga__g.initialized, 0);
    ga__g.init_status = GA_OK;
    ga__g.driver_version = 0;
    if (ga__g.driver_library) dlclose(ga__g.driver_library);
    ga__g.driver_library = NULL;
    memset(&ga__g.cu, 0, sizeof ga__g.cu);
    pthread_mutex_unlock(&ga__lock);
    memset(ga__t.stream, 0, sizeof ga__t.stream);
    ga__t.device = 0;
    ga__t.device_depth = 0;
    ga__t.stream_depth = 0;
}

/* >>device */
/* ------------------------------------------------------------------------ */
/* 4. Devices                                                                */
/* ------------------------------------------------------------------------ */

/* Checks `device` and makes its primary context current on this thread
   (retaining it at first use). Every entry point that touches the GPU goes
   through here; it costs one driver query when the context is current. */
static ga_status ga__bind(const char *func, int device)
{
    if (!GA__ATOMIC_LOAD(&ga__g.initialized)) {
        ga_status st = ga_init();
        if (st != GA_OK) return ga__error(st, func, "%s", ga__g.init_message);
    }
    if (device < 0 || device >= ga__g.device_count)
        return ga__error(GA_ERROR_DEVICE, func, "device %d does not exist (%d device%s)", device,
                         ga__g.device_count, ga__g.device_count == 1 ? "" : "s");
    ga__device *d = &ga__g.devices[device];
    CUcontext ctx = GA__ATOMIC_LOAD(&d->context);
    if (!ctx) {
        pthread_mutex_lock(&ga__lock);
        CUresult r = CUDA_SUCCESS;
        if (!d->context) {
            CUcontext c = NULL;
            r = GA__CU.DevicePrimaryCtxRetain(&c, d->handle);
            if (r == CUDA_SUCCESS) GA__ATOMIC_STORE(&d->context, c);
        }
        ctx = d->context;
        pthread_mutex_unlock(&ga__lock);
        if (r != CUDA_SUCCESS) return ga__cuda_error(func, r, "cuDevicePrimaryCtxRetain");
    }
    CUcontext current = NULL;
    GA__CU.CtxGetCurrent(&current);
    if (current != ctx) GA__CHECK_CU(func, GA__CU.CtxSetCurrent(ctx), "cuCtxSetCurrent");
    return GA_OK;
}

GPUARR_API int ga_device_count(void)
{
    if (ga_init() != GA_OK) return -1;
    return ga__g.device_count;
}

GPUARR_API ga_status ga_device_get_properties(int device, ga_device_properties *props)
{
    static const char func[] = "ga_device_get_properties";
    if (!props) return ga__null_input(func, "props");
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    CUdevice h = ga__g.devices[device].handle;
    memset(props, 0, sizeof *props);
    props->ordinal = device;
    GA__CHECK_CU(func, GA__CU.DeviceGetName(props->name, (int)sizeof props->name, h), "cuDeviceGetName");
    GA__CHECK_CU(func, GA__CU.DeviceTotalMem(&props->total_memory, h), "cuDeviceTotalMem");
    int l2 = 0;
    struct { int *out; CUdevice_attribute attribute; } attrs[] = {
        {&props->compute_capability_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
        {&props->compute_capability_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
        {&props->multiprocessor_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
        {&props->max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&props->warp_size, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
        {&props->memory_bus_width, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
        {&props->memory_clock_rate_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
        {&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        GA__CHECK_CU(func, GA__CU.DeviceGetAttribute(attrs[i].out, attrs[i].attribute, h),
                     "cuDeviceGetAttribute");
    props->l2_cache_size = (size_t)l2;
    return GA_OK;
}

GPUARR_API int ga_device_get(void) { return ga__t.device; }

GPUARR_API ga_status ga_device_set(int device)
{
    ga_status st = ga__bind("ga_device_set", device);
    if (st == GA_OK) ga__t.device = device;
    return st;
}

GPUARR_API ga_status ga_device_push(int device)
{
    if (ga__t.device_depth == (int)(sizeof ga__t.device_stack / sizeof ga__t.device_stack[0]))
        return ga__error(GA_ERROR_STATE, "ga_device_push", "device pushes nest at most 16 deep");
    ga_status st = ga__bind("ga_device_push", device);
    if (st != GA_OK) return st;
    ga__t.device_stack[ga__t.device_depth++] = ga__t.device;
    ga__t.device = device;
    return GA_OK;
}

GPUARR_API ga_status ga_device_pop(void)
{
    if (ga__t.device_depth == 0)
        return ga__error(GA_ERROR_STATE, "ga_device_pop", "no ga_device_push to undo");
    ga__t.device = ga__t.device_stack[--ga__t.device_depth];
    return GA_OK;
}

GPUARR_API ga_status ga_device_synchronize(void)
{
    static const char func[] = "ga_device_synchronize";
    ga_status st = ga__bind(func, ga__t.device);
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.CtxSynchronize(), "cuCtxSynchronize");
    return GA_OK;
}

GPUARR_API ga_status ga_device_memory_info(int device, size_t *free_bytes, size_t *total_bytes)
{
    static const char func[] = "ga_device_memory_info";
    if (!free_bytes || !total_bytes) return ga__null_input(func, "an output pointer");
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.MemGetInfo(free_bytes, total_bytes), "cuMemGetInfo");
    return GA_OK;
}

/* Releases the primary contexts and forgets the devices. */
static void ga__device_shutdown(void)
{
    for (int i = 0; i < ga__g.device_count; i++)
        if (ga__g.devices[i].context) GA__CU.DevicePrimaryCtxRelease(ga__g.devices[i].handle);
    GA__CU.CtxSetCurrent(NULL); /* a released context must not stay current here */
    GPUARR_FREE(ga__g.devices);
    ga__g.devices = NULL;
    ga__g.device_count = 0;
}

/* >>stream */
/* ------------------------------------------------------------------------ */
/* 5. Streams and events                                                     */
/* ------------------------------------------------------------------------ */

struct ga_stream {
    CUstream handle;
    int device;
    bool owned; /* made by ga_stream_create: destroyed with the wrapper */
};

struct ga_event {
    CUevent handle;
    int device;
};

static void ga__pool_retire_stream(ga__pool *pool, uintptr_t stream);
static void ga__pinned_retire_stream(uintptr_t stream);

/* The driver handle of the calling thread's current stream on `device`. */
static inline CUstream ga__stream_of(int device)
{
    ga_stream *s = ga__t.stream[device];
    return s ? s->handle : NULL;
}

static ga_stream *ga__stream_new(const char *func, CUstream handle, int device, bool owned)
{
    ga_stream *s = (ga_stream *)GPUARR_MALLOC(sizeof *s);
    if (!s) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    s->handle = handle;
    s->device = device;
    s->owned = owned;
    return s;
}

GPUARR_API ga_stream *ga_stream_create(bool non_blocking)
{
    static const char func[] = "ga_stream_create";
    if (ga__bind(func, ga__t.device) != GA_OK) return NULL;
    CUstream h = NULL;
    CUresult r = GA__CU.StreamCreate(&h, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT);
    if (r != CUDA_SUCCESS) {
        ga__cuda_error(func, r, "cuStreamCreate");
        return NULL;
    }
    ga_stream *s = ga__stream_new(func, h, ga__t.device, true);
    if (!s) GA__CU.StreamDestroy(h);
    return s;
}

GPUARR_API ga_stream *ga_stream_wrap(struct CUstream_st *handle, int device)
{
    static const char func[] = "ga_stream_wrap";
    if (ga__bind(func, device) != GA_OK) return NULL;
    return ga__stream_new(func, (CUstream)handle, device, false);
}

GPUARR_API void ga_stream_destroy(ga_stream *stream)
{
    if (!stream) return;
    if (ga__bind("ga_stream_destroy", stream->device) == GA_OK) {
        /* Blocks freed on this stream must not wait on it any more. */
        GA__CU.StreamSynchronize(stream->handle);
        ga__pool_retire_stream(ga__g.devices[stream->device].pool, (uintptr_t)stream->handle);
        ga__pinned_retire_stream((uintptr_t)stream->handle);
        if (stream->owned) GA__CU.StreamDestroy(stream->handle);
    }
    if (ga__t.stream[stream->device] == stream) ga__t.stream[stream->device] = NULL;
    GPUARR_FREE(stream);
}

GPUARR_API ga_status ga_stream_set_current(ga_stream *stream)
{
    if (stream) ga__t.stream[stream->device] = stream;
    else ga__t.stream[ga__t.device] = NULL;
    return GA_OK;
}

GPUARR_API ga_stream *ga_stream_get_current(void) { return ga__t.stream[ga__t.device]; }

GPUARR_API ga_status ga_stream_push(ga_stream *stream)
{
    if (ga__t.stream_depth == (int)(sizeof ga__t.stream_stack / sizeof ga__t.stream_stack[0]))
        return ga__error(GA_ERROR_STATE, "ga_stream_push", "stream pushes nest at most 16 deep");
    int device = stream ? stream->device : ga__t.device;
    ga__t.stream_stack[ga__t.stream_depth].device = device;
    ga__t.stream_stack[ga__t.stream_depth].previous = ga__t.stream[device];
    ga__t.stream_depth++;
    ga__t.stream[device] = stream;
    return GA_OK;
}

GPUARR_API ga_status ga_stream_pop(void)
{
    if (ga__t.stream_depth == 0)
        return ga__error(GA_ERROR_STATE, "ga_stream_pop", "no ga_stream_push to undo");
    ga__t.stream_depth--;
    ga__t.stream[ga__t.stream_stack[ga__t.stream_depth].device] =
        ga__t.stream_stack[ga__t.stream_depth].previous;
    return GA_OK;
}

/* The stream a call means by `stream`: NULL is the current one. */
static inline CUstream ga__resolve_stream(const ga_stream *stream)
{
    return stream ? stream->handle : ga__stream_of(ga__t.device);
}
static inline int ga__stream_device_or_current(const ga_stream *stream)
{
    return stream ? stream->device : ga__t.device;
}

GPUARR_API ga_status ga_stream_synchronize(ga_stream *stream)
{
    static const char func[] = "ga_stream_synchronize";
    ga_status st = ga__bind(func, ga__stream_device_or_current(stream));
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.StreamSynchronize(ga__resolve_stream(stream)), "cuStreamSynchronize");
    return GA_OK;
}

GPUARR_API int ga_stream_query(ga_stream *stream)
{
    static const char func[] = "ga_stream_query";
    if (ga__bind(func, ga__stream_device_or_current(stream)) != GA_OK) return -1;
    CUresult r = GA__CU.StreamQuery(ga__resolve_stream(stream));
    if (r == CUDA_SUCCESS) return 1;
    if (r == CUDA_ERROR_NOT_READY) return 0;
    ga__cuda_error(func, r, "cuStreamQuery");
    return -1;
}

GPUARR_API ga_status ga_stream_wait_event(ga_stream *stream, ga_event *event)
{
    static const char func[] = "ga_stream_wait_event";
    if (!event) return ga__null_input(func, "event");
    ga_status st = ga__bind(func, ga__stream_device_or_current(stream));
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.StreamWaitEvent(ga__resolve_stream(stream), event->handle, 0),
                 "cuStreamWaitEvent");
    return GA_OK;
}

GPUARR_API struct CUstream_st *ga_stream_handle(const ga_stream *stream)
{
    return stream ? (struct CUstream_st *)stream->handle : NULL;
}

GPUARR_API int ga_stream_device(const ga_stream *stream)
{
    return ga__stream_device_or_current(stream);
}

GPUARR_API ga_event *ga_event_create(bool timing)
{
    static const char func[] = "ga_event_create";
    if (ga__bind(func, ga__t.device) != GA_OK) return NULL;
    ga_event *e = (ga_event *)GPUARR_MALLOC(sizeof *e);
    if (!e) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    CUresult r = GA__CU.EventCreate(&e->handle, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING);
    if (r != CUDA_SUCCESS) {
        GPUARR_FREE(e);
        ga__cuda_error(func, r, "cuEventCreate");
        return NULL;
    }
    e->device = ga__t.device;
    return e;
}

GPUARR_API void ga_event_destroy(ga_event *event)
{
    if (!event) return;
    if (ga__bind("ga_event_destroy", event->device) == GA_OK) GA__CU.EventDestroy(event->handle);
    GPUARR_FREE(event);
}

GPUARR_API ga_status ga_event_record(ga_event *event, ga_stream *stream)
{
    static const char func[] = "ga_event_record";
    if (!event) return ga__null_input(func, "event");
    ga_status st = ga__bind(func, ga__stream_device_or_current(stream));
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.EventRecord(event->handle, ga__resolve_stream(stream)), "cuEventRecord");
    return GA_OK;
}

GPUARR_API ga_status ga_event_synchronize(ga_event *event)
{
    static const char func[] = "ga_event_synchronize";
    if (!event) return ga__null_input(func, "event");
    ga_status st = ga__bind(func, event->device);
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.EventSynchronize(event->handle), "cuEventSynchronize");
    return GA_OK;
}

GPUARR_API int ga_event_query(ga_event *event)
{
    static const char func[] = "ga_event_query";
    if (!event) {
        ga__null_input(func, "event");
        return -1;
    }
    if (ga__bind(func, event->device) != GA_OK) return -1;
    CUresult r = GA__CU.EventQuery(event->handle);
    if (r == CUDA_SUCCESS) return 1;
    if (r == CUDA_ERROR_NOT_READY) return 0;
    ga__cuda_error(func, r, "cuEventQuery");
    return -1;
}

GPUARR_API ga_status ga_event_elapsed_ms(const ga_event *start, const ga_event *end, float *ms)
{
    static const char func[] = "ga_event_elapsed_ms";
    if (!start || !end || !ms) return ga__null_input(func, "an argument");
    ga_status st = ga__bind(func, start->device);
    if (st != GA_OK) return st;
    GA__CHECK_CU(func, GA__CU.EventElapsedTime(ms, start->handle, end->handle), "cuEventElapsedTime");
    return GA_OK;
}


/* >>memory */
/* ------------------------------------------------------------------------ */
/* 6. Memory                                                                 */
/* ------------------------------------------------------------------------ */
/* The pool core is independent of CUDA: chunks come from `ops`, and so do the
   events that make cross-stream reuse safe, so the host tests drive it with a
   fake allocator. Blocks are carved from chunks; a block's neighbours in
   address order (prev/next) are merged with it when both are free and belong
   to the same stream slot. Free blocks sit in size bins (4 per power of two
   of the 512-byte unit), so the first bin holding a large enough block holds
   the best fit. Slot 0 is for blocks safe on any stream. */

#define GA__POOL_ROUND 512u
#define GA__POOL_BINS 256
#define GA__POOL_HOST_STREAM ((uintptr_t)-1) /* "stream" of host (pinned) requests */

typedef struct ga__pool_ops {
    /* 0 on success, nonzero when out of memory */
    int (*chunk_alloc)(void *ctx, size_t bytes, uint64_t *ptr);
    void (*chunk_free)(void *ctx, uint64_t ptr, size_t bytes);
    /* Records *event (made at first use) on `stream` of `device`; 0 on success. */
    int (*event_record)(void *ctx, void **event, uintptr_t stream, int device);
    int (*event_done)(void *ctx, void *event);   /* 1 done, 0 not yet */
    void (*event_wait)(void *ctx, void *event);
    void (*event_destroy)(void *ctx, void *event);
} ga__pool_ops;

typedef struct ga__block ga__block;
struct ga__block {
    uint64_t ptr;
    size_t size;
    ga__block *prev, *next;          /* address neighbours in the chunk */
    ga__block *bin_prev, *bin_next;  /* free-bin links (or the node free list) */
    uint64_t free_seq;               /* slot's sequence number at the free */
    int slot;                        /* stream slot (allocated: the allocating stream) */
    bool free;
};

typedef struct ga__pool_slot {
    uintptr_t stream;
    int device;
    bool retired;                    /* its stream is gone: frees go to slot 0 */
    void *event;                     /* recorded to learn when frees are safe */
    bool event_pending;
    uint64_t event_seq;              /* frees up to this seq precede the event */
    uint64_t seq;
    size_t nfree;
    uint64_t bitmap[GA__POOL_BINS / 64];
    ga__block *bins[GA__POOL_BINS];
} ga__pool_slot;

struct ga__pool {
    pthread_mutex_t lock;
    const ga__pool_ops *ops;
    void *ctx;
    int device;
    ga__pool_slot *slots;
    int nslots, slot_capacity, last_slot;
    ga__block *spare_nodes;          /* recycled block nodes */
    ga__block **table;               /* open addressing: ptr -> allocated block */
    size_t table_capacity, table_count;
    ga_memory_stats stats;
};

static unsigned ga__pool_bin(size_t size)
{
    uint64_t units = size / GA__POOL_ROUND;
    if (units == 0) return 0; /* not for the pool's sizes (whole units); __builtin_clzll(0) is undefined */
    unsigned top = 63u - (unsigned)__builtin_clzll(units);
    unsigned sub = top >= 2 ? (unsigned)(units >> (top - 2)) & 3u : (unsigned)(units << (2 - top)) & 3u;
    unsigned bin = top * 4u + sub;
    return bin < GA__POOL_BINS ? bin : GA__POOL_BINS - 1;
}

static void ga__bin_insert(ga__pool_slot *s, ga__block *b)
{
    unsigned bin = ga__pool_bin(b->size);
    b->bin_prev = NULL;
    b->bin_next = s->bins[bin];
    if (b->bin_next) b->bin_next->bin_prev = b;
    s->bins[bin] = b;
    s->bitmap[bin / 64] |= 1ull << (bin % 64);
    s->nfree++;
}

static void ga__bin_remove(ga__pool_slot *s, ga__block *b)
{
    GPUARR_ASSERT(b->free && s->nfree > 0);
    unsigned bin = ga__pool_bin(b->size);
    if (b->bin_prev) b->bin_prev->bin_next = b->bin_next;
    else s->bins[bin] = b->bin_next;
    if (b->bin_next) b->bin_next->bin_prev = b->bin_prev;
    if (!s->bins[bin]) s->bitmap[bin / 64] &= ~(1ull << (bin % 64));
    s->nfree--;
}

/* The smallest free block of `s` holding `size` bytes, or NULL. */
static ga__block *ga__bin_best_fit(const ga__pool_slot *s, size_t size)
{
    unsigned bin = ga__pool_bin(size);
    for (unsigned word = bin / 64; word < GA__POOL_BINS / 64; word++) {
        uint64_t bits = s->bitmap[word];
        if (word == bin / 64) bits &= ~0ull << (bin % 64);
        while (bits) {
            unsigned b = word * 64 + (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            ga__block *best = NULL;
            for (ga__block *x = s->bins[b]; x; x = x->bin_next)
                if (x->size >= size && (!best || x->size < best->size)) best = x;
            if (best) return best;
        }
    }
    return NULL;
}

static ga__block *ga__node_new(ga__pool *p)
{
    ga__block *b = p->spare_nodes;
    if (b) p->spare_nodes = b->bin_next;
    else b = (ga__block *)GPUARR_MALLOC(sizeof *b);
    if (b) memset(b, 0, sizeof *b);
    return b;
}

static void ga__node_recycle(ga__pool *p, ga__block *b)
{
    b->bin_next = p->spare_nodes;
    p->spare_nodes = b;
}

/* --- the address table of the raw API (ga_memory_alloc / free) ---------- */

static size_t ga__hash_ptr(uint64_t ptr, size_t capacity)
{
    return (size_t)((ptr >> 9) * 0x9E3779B97F4A7C15ull) & (capacity - 1);
}

static bool ga__table_insert(ga__pool *p, ga__block *b)
{
    if ((p->table_count + 1) * 2 > p->table_capacity) {
        size_t cap = p->table_capacity ? p->table_capacity * 2 : 64;
        ga__block **t = (ga__block **)GPUARR_MALLOC(cap * sizeof *t);
        if (!t) return false;
        memset(t, 0, cap * sizeof *t);
        for (size_t i = 0; i < p->table_capacity; i++) {
            ga__block *x = p->table[i];
            if (!x) continue;
            size_t j = ga__hash_ptr(x->ptr, cap);
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = x;
        }
        GPUARR_FREE(p->table);
        p->table = t;
        p->table_capacity = cap;
    }
    size_t j = ga__hash_ptr(b->ptr, p->table_capacity);
    while (p->table[j]) j = (j + 1) & (p->table_capacity - 1);
    p->table[j] = b;
    p->table_count++;
    return true;
}

/* Removes and returns the block at `ptr` (backward-shift deletion). */
static ga__block *ga__table_take(ga__pool *p, uint64_t ptr)
{
    if (!p->table_capacity) return NULL;
    size_t mask = p->table_capacity - 1, j = ga__hash_ptr(ptr, p->table_capacity);
    while (p->table[j] && p->table[j]->ptr != ptr) j = (j + 1) & mask;
    ga__block *found = p->table[j];
    if (!found) return NULL;
    p->table[j] = NULL;
    p->table_count--;
    for (size_t k = (j + 1) & mask; p->table[k]; k = (k + 1) & mask) {
        size_t home = ga__hash_ptr(p->table[k]->ptr, p->table_capacity);
        /* move p->table[k] into the hole unless its home lies in (j, k] */
        bool stays = (j <= k) ? (home > j && home <= k) : (home > j || home <= k);
        if (!stays) {
            p->table[j] = p->table[k];
            p->table[k] = NULL;
            j = k;
        }
    }
    return found;
}

/* --- the pool ------------------------------------------------------------ */

static void ga__pool_init(ga__pool *p, const ga__pool_ops *ops, void *ctx, int device)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->ops = ops;
    p->ctx = ctx;
    p->device = device;
}

static int ga__pool_slot_of(ga__pool *p, uintptr_t stream, int device)
{
    if (p->nslots > 0 && p->slots[p->last_slot].stream == stream && p->last_slot != 0)
        return p->last_slot;
    for (int i = 1; i < p->nslots; i++)
        if (p->slots[i].stream == stream) {
            p->slots[i].retired = false;
            return p->last_slot = i;
        }
    if (p->nslots == p->slot_capacity) {
        int cap = p->slot_capacity ? p->slot_capacity * 2 : 8;
        ga__pool_slot *s = (ga__pool_slot *)GPUARR_MALLOC(sizeof *s * (size_t)cap);
        if (!s) return -1;
        if (p->nslots) memcpy(s, p->slots, sizeof *s * (size_t)p->nslots);
        GPUARR_FREE(p->slots);
        p->slots = s;
        p->slot_capacity = cap;
    }
    if (p->nslots == 0) { /* slot 0: any stream */
        memset(&p->slots[0], 0, sizeof p->slots[0]);
        p->nslots = 1;
    }
    ga__pool_slot *s = &p->slots[p->nslots];
    memset(s, 0, sizeof *s);
    s->stream = stream;
    s->device = device;
    return p->last_slot = p->nslots++;
}

/* Marks `b` free in slot `slot`, merging it with free neighbours of the
   same slot or of slot 0 (safe anywhere, so safe on this stream too). The
   merged block takes the newest free sequence number. */
static void ga__pool_put_free(ga__pool *p, ga__block *b, int slot)
{
    ga__pool_slot *s = &p->slots[slot];
    b->free = true;
    b->slot = slot;
    b->free_seq = ++s->seq;
    ga__block *n = b->next;
    if (n && n->free && (n->slot == slot || n->slot == 0)) {
        ga__bin_remove(&p->slots[n->slot], n);
        b->size += n->size;
        b->next = n->next;
        if (n->next) n->next->prev = b;
        ga__node_recycle(p, n);
    }
    ga__block *q = b->prev;
    if (q && q->free && (q->slot == slot || q->slot == 0)) {
        ga__bin_remove(&p->slots[q->slot], q);
        q->size += b->size;
        q->slot = slot;
        q->free_seq = b->free_seq;
        q->next = b->next;
        if (b->next) b->next->prev = q;
        ga__node_recycle(p, b);
        b = q;
    }
    ga__bin_insert(s, b);
}

/* Moves the free blocks of `slot` freed at or before `upto_seq` to slot 0. */
static void ga__pool_release_slot(ga__pool *p, int slot, uint64_t upto_seq)
{
    ga__pool_slot *s = &p->slots[slot];
    for (unsigned bin = 0; bin < GA__POOL_BINS && s->nfree; bin++) {
        ga__block *b = s->bins[bin];
        while (b) {
            ga__block *next = b->bin_next;
            if (b->free_seq <= upto_seq) {
                ga__bin_remove(s, b);
                ga__pool_put_free(p, b, 0);
            }
            b = next;
        }
    }
}

/* Frees made on other streams become usable by anyone once an event recorded
   after them has completed. Records such events where missing. */
static void ga__pool_reclaim(ga__pool *p, int requester)
{
    for (int i = 1; i < p->nslots; i++) {
        ga__pool_slot *s = &p->slots[i];
        if (i == requester || s->nfree == 0) continue;
        if (s->event_pending && p->ops->event_done(p->ctx, s->event)) {
            s->event_pending = false;
            ga__pool_release_slot(p, i, s->event_seq);
        }
        if (s->nfree && !s->event_pending &&
            p->ops->event_record(p->ctx, &s->event, s->stream, s->device) == 0) {
            s->event_pending = true;
            s->event_seq = s->seq;
        }
    }
}

/* Waits for every stream holding free blocks and moves them all to slot 0. */
static void ga__pool_reclaim_all(ga__pool *p)
{
    for (int i = 1; i < p->nslots; i++) {
        ga__pool_slot *s = &p->slots[i];
        if (s->nfree == 0) continue;
        if (p->ops->event_record(p->ctx, &s->event, s->stream, s->device) == 0)
            p->ops->event_wait(p->ctx, s->event);
        s->event_pending = false;
        ga__pool_release_slot(p, i, UINT64_MAX);
    }
}

/* Gives back chunks that are wholly free and safe (in slot 0). */
static void ga__pool_release_chunks(ga__pool *p)
{
    if (p->nslots == 0) return;
    ga__pool_slot *s = &p->slots[0];
    for (unsigned bin = 0; bin < GA__POOL_BINS && s->nfree; bin++) {
        ga__block *b = s->bins[bin];
        while (b) {
            ga__block *next = b->bin_next;
            if (!b->prev && !b->next) {
                ga__bin_remove(s, b);
                p->ops->chunk_free(p->ctx, b->ptr, b->size);
                p->stats.held_bytes -= b->size;
                p->stats.chunks--;
                ga__node_recycle(p, b);
            }
            b = next;
        }
    }
}

/* The chunk to ask for a block of `size` bytes: never less than size. */
static size_t ga__pool_chunk_size(size_t size)
{
    const size_t mib = (size_t)1 << 20;
    if (size <= mib) return 2 * mib;
    if (size < 10 * mib) return 20 * mib;
    if (size > SIZE_MAX - 2 * mib) return size; /* rounding up would wrap to a small chunk */
    return (size + 2 * mib - 1) / (2 * mib) * (2 * mib);
}

/* Whether `want` more bytes stay within the pool's limit (none: 0). */
static bool ga__pool_within_limit(const ga__pool *p, size_t want)
{
    size_t limit = p->stats.limit_bytes, held = p->stats.held_bytes;
    return !limit || (held <= limit && want <= limit - held);
}

static ga__block *ga__pool_new_chunk(ga__pool *p, size_t size)
{
    size_t want = ga__pool_chunk_size(size);
    if (!ga__pool_within_limit(p, want)) want = size;
    if (!ga__pool_within_limit(p, want)) return NULL;
    uint64_t ptr = 0;
    if (p->ops->chunk_alloc(p->ctx, want, &ptr) != 0) {
        if (want == size || p->ops->chunk_alloc(p->ctx, want = size, &ptr) != 0) return NULL;
    }
    ga__block *b = ga__node_new(p);
    if (!b) {
        p->ops->chunk_free(p->ctx, ptr, want);
        return NULL;
    }
    b->ptr = ptr;
    b->size = want;
    p->stats.held_bytes += want;
    p->stats.chunks++;
    return b;
}

/* A block of at least `bytes` for work on `stream`, or NULL when out of
   memory (or the limit is reached). `track`: enter it in the address table
   for ga__pool_free_ptr. */
static ga__block *ga__pool_alloc(ga__pool *p, size_t bytes, uintptr_t stream, int device,
                                 bool track)
{
    size_t size = bytes ? (bytes + GA__POOL_ROUND - 1) / GA__POOL_ROUND * GA__POOL_ROUND : GA__POOL_ROUND;
    if (size < bytes) return NULL; /* overflow */
    ga__block *b = NULL;
    int slot, from;
    pthread_mutex_lock(&p->lock);
    slot = from = ga__pool_slot_of(p, stream, device);
    if (slot < 0) goto done;
    if (p->slots[slot].nfree) b = ga__bin_best_fit(&p->slots[slot], size);
    if (!b && p->slots[0].nfree) {
        b = ga__bin_best_fit(&p->slots[0], size);
        from = 0;
    }
    if (!b && p->nslots > 2) {
        ga__pool_reclaim(p, slot);
        if (p->slots[0].nfree) b = ga__bin_best_fit(&p->slots[0], size);
        from = 0;
    }
    if (b) {
        ga__bin_remove(&p->slots[from], b);
    } else {
        b = ga__pool_new_chunk(p, size);
        if (!b) { /* out of memory: wait for every stream, give cached chunks back, retry */
            ga__pool_reclaim_all(p);
            ga__pool_release_chunks(p);
            b = ga__bin_best_fit(&p->slots[0], size);
            if (b) {
                ga__bin_remove(&p->slots[0], b);
            } else {
                b = ga__pool_new_chunk(p, size);
                if (!b) goto done;
            }
        }
        from = 0;
    }
    if (b->size - size >= GA__POOL_ROUND) { /* split: the rest stays free where it was */
        ga__block *rest = ga__node_new(p);
        if (rest) {
            rest->ptr = b->ptr + size;
            rest->size = b->size - size;
            rest->prev = b;
            rest->next = b->next;
            if (b->next) b->next->prev = rest;
            b->next = rest;
            b->size = size;
            rest->free = true;
            rest->slot = from;
            rest->free_seq = b->free_seq;
            ga__bin_insert(&p->slots[from], rest);
        }
    }
    if (track && !ga__table_insert(p, b)) {
        ga__pool_put_free(p, b, slot);
        b = NULL;
        goto done;
    }
    b->free = false;
    b->slot = slot;
    p->stats.used_bytes += b->size;
    if (p->stats.used_bytes > p->stats.peak_used_bytes) p->stats.peak_used_bytes = p->stats.used_bytes;
done:
    pthread_mutex_unlock(&p->lock);
    return b;
}

static void ga__pool_free_locked(ga__pool *p, ga__block *b, int slot)
{
    p->stats.used_bytes -= b->size;
    ga__pool_put_free(p, b, p->slots[slot].retired ? 0 : slot);
}

/* Returns `b` to the pool; reusable at once on the stream it was allocated
   on, by others once that stream's work up to now is done. */
static void ga__pool_free(ga__pool *p, ga__block *b)
{
    GPUARR_ASSERT(!b->free);
    pthread_mutex_lock(&p->lock);
    ga__pool_free_locked(p, b, b->slot);
    pthread_mutex_unlock(&p->lock);
}

/* Frees the tracked block at `ptr` as if it was last used on `stream` (or on
   its allocating stream when `stream` is GA__POOL_HOST_STREAM). false if
   `ptr` is not a live allocation of this pool. */
static bool ga__pool_free_ptr(ga__pool *p, uint64_t ptr, uintptr_t stream, int device)
{
    pthread_mutex_lock(&p->lock);
    ga__block *b = ga__table_take(p, ptr);
    if (b) {
        int slot = b->slot;
        if (stream != GA__POOL_HOST_STREAM) {
            int s = ga__pool_slot_of(p, stream, device);
            if (s >= 0) slot = s;
        }
        ga__pool_free_locked(p, b, slot);
    }
    pthread_mutex_unlock(&p->lock);
    return b != NULL;
}

/* The stream is going away: its free blocks become slot 0's (the caller has
   synchronised it) and later frees of its blocks go to slot 0. */
static void ga__pool_retire_stream(ga__pool *p, uintptr_t stream)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    for (int i = 1; i < p->nslots; i++) {
        ga__pool_slot *s = &p->slots[i];
        if (s->stream != stream) continue;
        if (s->event) {
            p->ops->event_destroy(p->ctx, s->event);
            s->event = NULL;
        }
        s->event_pending = false;
        ga__pool_release_slot(p, i, UINT64_MAX);
        s->retired = true;
        if (p->last_slot == i) p->last_slot = 0; /* revived only through the full lookup */
    }
    pthread_mutex_unlock(&p->lock);
}

static void ga__pool_free_all_blocks(ga__pool *p)
{
    pthread_mutex_lock(&p->lock);
    ga__pool_reclaim_all(p);
    ga__pool_release_chunks(p);
    pthread_mutex_unlock(&p->lock);
}

static ga_memory_stats ga__pool_stats(ga__pool *p)
{
    pthread_mutex_lock(&p->lock);
    ga_memory_stats st = p->stats;
    st.free_bytes = st.held_bytes - st.used_bytes;
    st.free_blocks = 0;
    for (int i = 0; i < p->nslots; i++) st.free_blocks += p->slots[i].nfree;
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* Frees everything: chunks (in use or not), events, nodes, tables. */
static void ga__pool_destroy(ga__pool *p)
{
    /* Blocks still in use (arrays alive at shutdown) are abandoned with their
       context. */
    ga__pool_free_all_blocks(p);
    for (int i = 0; i < p->nslots; i++)
        if (p->slots[i].event) p->ops->event_destroy(p->ctx, p->slots[i].event);
    while (p->spare_nodes) {
        ga__block *b = p->spare_nodes;
        p->spare_nodes = b->bin_next;
        GPUARR_FREE(b);
    }
    GPUARR_FREE(p->slots);
    GPUARR_FREE(p->table);
    pthread_mutex_destroy(&p->lock);
    memset(p, 0, sizeof *p);
}

/* --- the device pools ---------------------------------------------------- */

typedef struct ga__device_memory {
    ga_allocator allocator;   /* user hook, when has_allocator */
    bool has_allocator;
    int device;
} ga__device_memory;

static ga__device_memory ga__device_memory_state[GA_MAX_DEVICES];

static int ga__device_chunk_alloc(void *ctx, size_t bytes, uint64_t *ptr)
{
    ga__device_memory *m = (ga__device_memory *)ctx;
    if (m->has_allocator) return m->allocator.alloc(m->allocator.user, m->device, bytes, ptr);
    /* A request beyond the device's free memory fails here rather than in
       cuMemAlloc: the pool then trims its cache and asks again, and no
       driver call fails on the way (memory checkers report each that does). */
    size_t free_bytes = 0, total_bytes = 0;
    if (GA__CU.MemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS && bytes > free_bytes) return 1;
    CUdeviceptr p = 0;
    if (GA__CU.MemAlloc(&p, bytes) != CUDA_SUCCESS) return 1;
    *ptr = (uint64_t)p;
    return 0;
}

static void ga__device_chunk_free(void *ctx, uint64_t ptr, size_t bytes)
{
    ga__device_memory *m = (ga__device_memory *)ctx;
    if (m->has_allocator) m->allocator.free(m->allocator.user, m->device, ptr, bytes);
    else GA__CU.MemFree((CUdeviceptr)ptr);
}

static int ga__cuda_event_record(void *ctx, void **event, uintptr_t stream, int device)
{
    (void)ctx;
    if (device >= 0 && ga__bind("ga (pool)", device) != GA_OK) return 1;
    if (!*event && GA__CU.EventCreate((CUevent *)event, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
        return 1;
    return GA__CU.EventRecord((CUevent)*event, (CUstream)stream) != CUDA_SUCCESS;
}

static int ga__cuda_event_done(void *ctx, void *event)
{
    (void)ctx;
    return GA__CU.EventQuery((CUevent)event) == CUDA_SUCCESS;
}

static void ga__cuda_event_wait(void *ctx, void *event)
{
    (void)ctx;
    GA__CU.EventSynchronize((CUevent)event);
}

static void ga__cuda_event_destroy(void *ctx, void *event)
{
    (void)ctx;
    GA__CU.EventDestroy((CUevent)event);
}

static const ga__pool_ops ga__device_pool_ops = {
    ga__device_chunk_alloc, ga__device_chunk_free, ga__cuda_event_record,
    ga__cuda_event_done, ga__cuda_event_wait, ga__cuda_event_destroy,
};

/* Parses GPUARR_MEMORY_LIMIT: bytes with an optional K/M/G/T suffix (powers
   of 1024, optionally followed by "B" or "iB"), or a percentage of `total`;
   trailing spaces allowed. 0 (no limit) when unset or malformed: no number,
   NaN, a negative number, other text. A limit beyond SIZE_MAX is SIZE_MAX
   (a double beyond size_t must not be converted: that is undefined). */
static size_t ga__parse_memory_limit(const char *text, size_t total)
{
    if (!text || !*text) return 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || !(v >= 0)) return 0; /* !(v >= 0): NaN too */
    double scale = 1.0;
    switch (*end) {
    case '%': v = v / 100.0 * (double)total; end++; break;
    case 'k': case 'K': scale = 1024.0; break;
    case 'm': case 'M': scale = 1024.0 * 1024.0; break;
    case 'g': case 'G': scale = 1024.0 * 1024.0 * 1024.0; break;
    case 't': case 'T': scale = 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    if (scale != 1.0) {
        v *= scale;
        end++;
        if (end[0] == 'i' && end[1] == 'B') end += 2;
        else if (end[0] == 'B') end++;
    }
    while (*end == ' ') end++;
    if (*end) return 0;
    if (v >= (double)SIZE_MAX) return SIZE_MAX; /* (double)SIZE_MAX is 2^64: beyond every size_t */
    return (size_t)v;
}

/* The pool of `device` (already bound), made at first use. */
static ga__pool *ga__device_pool(const char *func, int device)
{
    ga__device *d = &ga__g.devices[device];
    ga__pool *p = GA__ATOMIC_LOAD(&d->pool);
    if (p) return p;
    pthread_mutex_lock(&ga__lock);
    if (!d->pool) {
        p = (ga__pool *)GPUARR_MALLOC(sizeof *p);
        if (p) {
            ga__device_memory *m = &ga__device_memory_state[device];
            m->device = device;
            ga__pool_init(p, &ga__device_pool_ops, m, device);
            size_t total = 0;
            GA__CU.DeviceTotalMem(&total, d->handle);
            p->stats.limit_bytes = ga__parse_memory_limit(getenv("GPUARR_MEMORY_LIMIT"), total);
            GA__ATOMIC_STORE(&d->pool, p);
        }
    }
    p = d->pool;
    pthread_mutex_unlock(&ga__lock);
    if (!p) ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    return p;
}

static void ga__format_bytes(char *out, size_t n, size_t bytes)
{
    const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0) snprintf(out, n, "%zu bytes", bytes);
    else snprintf(out, n, "%.2f %s", v, units[u]);
}

/* Device memory on the current stream of `device` (bound), or NULL with an
   out-of-memory error naming `func`. */
static ga__block *ga__device_alloc(const char *func, int device, size_t bytes, bool track)
{
    ga__pool *p = ga__device_pool(func, device);
    if (!p) return NULL;
    ga__block *b = ga__pool_alloc(p, bytes, (uintptr_t)ga__stream_of(device), device, track);
    if (!b) {
        ga_memory_stats st = ga__pool_stats(p);
        char want[32], held[32], limit[48] = "";
        ga__format_bytes(want, sizeof want, bytes);
        ga__format_bytes(held, sizeof held, st.held_bytes);
        if (st.limit_bytes) {
            char l[32];
            ga__format_bytes(l, sizeof l, st.limit_bytes);
            snprintf(limit, sizeof limit, ", limit %s", l);
        }
        ga__error(GA_ERROR_OUT_OF_MEMORY, func,
                  "out of memory allocating %s on device %d (the pool holds %s%s)", want, device,
                  held, limit);
    }
    return b;
}

GPUARR_API void *ga_memory_alloc(size_t bytes)
{
    static const char func[] = "ga_memory_alloc";
    int device = ga__t.device;
    if (ga__bind(func, device) != GA_OK) return NULL;
    ga__block *b = ga__device_alloc(func, device, bytes, true);
    return b ? (void *)(uintptr_t)b->ptr : NULL;
}

GPUARR_API void ga_memory_free(void *ptr)
{
    if (!ptr || !GA__ATOMIC_LOAD(&ga__g.initialized)) return;
    for (int i = 0; i < ga__g.device_count; i++) {
        ga__pool *p = GA__ATOMIC_LOAD(&ga__g.devices[i].pool);
        if (p && ga__pool_free_ptr(p, (uint64_t)(uintptr_t)ptr, GA__POOL_HOST_STREAM, i)) return;
    }
    ga__error(GA_ERROR_VALUE, "ga_memory_free", "%p was not allocated by ga_memory_alloc", ptr);
}

GPUARR_API ga_status ga_memory_get_stats(int device, ga_memory_stats *stats)
{
    static const char func[] = "ga_memory_get_stats";
    if (!stats) return ga__null_input(func, "stats");
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    ga__pool *p = ga__device_pool(func, device);
    if (!p) return ga_last_error();
    *stats = ga__pool_stats(p);
    return GA_OK;
}

GPUARR_API ga_status ga_memory_set_limit(int device, size_t bytes)
{
    static const char func[] = "ga_memory_set_limit";
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    ga__pool *p = ga__device_pool(func, device);
    if (!p) return ga_last_error();
    pthread_mutex_lock(&p->lock);
    p->stats.limit_bytes = bytes;
    pthread_mutex_unlock(&p->lock);
    return GA_OK;
}

GPUARR_API ga_status ga_memory_free_all_blocks(int device)
{
    static const char func[] = "ga_memory_free_all_blocks";
    if (device == -1) {
        ga_status st = ga_init();
        for (int i = 0; st == GA_OK && i < ga__g.device_count; i++)
            if (GA__ATOMIC_LOAD(&ga__g.devices[i].pool)) st = ga_memory_free_all_blocks(i);
        return st;
    }
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    ga__pool *p = ga__device_pool(func, device);
    if (!p) return ga_last_error();
    ga__pool_free_all_blocks(p);
    return GA_OK;
}

GPUARR_API ga_status ga_memory_set_allocator(int device, const ga_allocator *allocator)
{
    static const char func[] = "ga_memory_set_allocator";
    if (allocator && (!allocator->alloc || !allocator->free))
        return ga__error(GA_ERROR_VALUE, func, "the allocator needs both alloc and free");
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    ga__pool *p = ga__device_pool(func, device);
    if (!p) return ga_last_error();
    ga__pool_free_all_blocks(p);
    pthread_mutex_lock(&p->lock);
    ga__device_memory *m = &ga__device_memory_state[device];
    if (p->stats.held_bytes != 0) {
        pthread_mutex_unlock(&p->lock);
        return ga__error(GA_ERROR_STATE, func,
                         "device %d's pool still has memory in use; free it before changing the allocator",
                         device);
    }
    m->has_allocator = allocator != NULL;
    if (allocator) m->allocator = *allocator;
    pthread_mutex_unlock(&p->lock);
    return GA_OK;
}

/* --- the pinned host pool ------------------------------------------------ */

static ga__pool *ga__pinned_pool;

static int ga__pinned_chunk_alloc(void *ctx, size_t bytes, uint64_t *ptr)
{
    (void)ctx;
    void *p = NULL;
    if (GA__CU.MemHostAlloc(&p, bytes, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS) return 1;
    *ptr = (uint64_t)(uintptr_t)p;
    return 0;
}

static void ga__pinned_chunk_free(void *ctx, uint64_t ptr, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    GA__CU.MemFreeHost((void *)(uintptr_t)ptr);
}

static const ga__pool_ops ga__pinned_pool_ops = {
    ga__pinned_chunk_alloc, ga__pinned_chunk_free, ga__cuda_event_record,
    ga__cuda_event_done, ga__cuda_event_wait, ga__cuda_event_destroy,
};

static ga__pool *ga__get_pinned_pool(const char *func)
{
    ga__pool *p = GA__ATOMIC_LOAD(&ga__pinned_pool);
    if (p) return p;
    pthread_mutex_lock(&ga__lock);
    if (!ga__pinned_pool) {
        p = (ga__pool *)GPUARR_MALLOC(sizeof *p);
        if (p) {
            ga__pool_init(p, &ga__pinned_pool_ops, NULL, -1);
            GA__ATOMIC_STORE(&ga__pinned_pool, p);
        }
    }
    p = ga__pinned_pool;
    pthread_mutex_unlock(&ga__lock);
    if (!p) ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    return p;
}

static void ga__pinned_retire_stream(uintptr_t stream)
{
    ga__pool *p = GA__ATOMIC_LOAD(&ga__pinned_pool);
    if (p) ga__pool_retire_stream(p, stream);
}

GPUARR_API void *ga_pinned_alloc(size_t bytes)
{
    static const char func[] = "ga_pinned_alloc";
    if (ga__bind(func, ga__t.device) != GA_OK) return NULL;
    ga__pool *p = ga__get_pinned_pool(func);
    if (!p) return NULL;
    ga__block *b = ga__pool_alloc(p, bytes, GA__POOL_HOST_STREAM, -1, true);
    if (!b) {
        char want[32];
        ga__format_bytes(want, sizeof want, bytes);
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of page-locked memory allocating %s", want);
        return NULL;
    }
    return (void *)(uintptr_t)b->ptr;
}

GPUARR_API void ga_pinned_free(void *ptr)
{
    ga__pool *p = GA__ATOMIC_LOAD(&ga__pinned_pool);
    if (!ptr) return;
    int device = ga__t.device;
    if (!p || !ga__pool_free_ptr(p, (uint64_t)(uintptr_t)ptr, (uintptr_t)ga__stream_of(device), device))
        ga__error(GA_ERROR_VALUE, "ga_pinned_free", "%p was not allocated by ga_pinned_alloc", ptr);
}

GPUARR_API ga_status ga_pinned_get_stats(ga_memory_stats *stats)
{
    static const char func[] = "ga_pinned_get_stats";
    if (!stats) return ga__null_input(func, "stats");
    ga__pool *p = GA__ATOMIC_LOAD(&ga__pinned_pool);
    if (p) *stats = ga__pool_stats(p);
    else memset(stats, 0, sizeof *stats);
    return GA_OK;
}

GPUARR_API ga_status ga_pinned_free_all_blocks(void)
{
    ga__pool *p = GA__ATOMIC_LOAD(&ga__pinned_pool);
    if (p) ga__pool_free_all_blocks(p);
    return GA_OK;
}

/* Frees the pinned pool and each device's pool (in its context). */
static void ga__memory_shutdown(void)
{
    if (ga__pinned_pool) {
        ga__pool_destroy(ga__pinned_pool);
        GPUARR_FREE(ga__pinned_pool);
        ga__pinned_pool = NULL;
    }
    for (int i = 0; i < ga__g.device_count; i++) {
        ga__device *d = &ga__g.devices[i];
        if (d->pool) {
            GA__CU.CtxSetCurrent(d->context);
            ga__pool_destroy(d->pool);
            GPUARR_FREE(d->pool);
            d->pool = NULL;
        }
    }
    memset(ga__device_memory_state, 0, sizeof ga__device_memory_state);
}

/* >>dtype */
/* ------------------------------------------------------------------------ */
/* 7. Dtypes and type promotion; host element conversion                     */
/* ------------------------------------------------------------------------ */

static const char *const ga__dtype_names[] = {
#define GA__DTYPE_NAME(E, name, size, kind) #name,
    GA_DTYPE_LIST(GA__DTYPE_NAME)
#undef GA__DTYPE_NAME
};
static const unsigned char ga__dtype_sizes[] = {
#define GA__DTYPE_SIZE(E, name, size, kind) size,
    GA_DTYPE_LIST(GA__DTYPE_SIZE)
#undef GA__DTYPE_SIZE
};
static const char ga__dtype_kinds[] = {
#define GA__DTYPE_KIND(E, name, size, kind) kind,
    GA_DTYPE_LIST(GA__DTYPE_KIND)
#undef GA__DTYPE_KIND
};

static inline bool ga__dtype_valid(ga_dtype t) { return (int)t >= 0 && t < GA_NUM_DTYPES; }

GPUARR_API const char *ga_dtype_name(ga_dtype dtype)
{
    return ga__dtype_valid(dtype) ? ga__dtype_names[dtype] : "invalid";
}

GPUARR_API ga_dtype ga_dtype_from_name(const char *name)
{
    if (!name) return GA_DTYPE_INVALID;
    for (int i = 0; i < GA_NUM_DTYPES; i++)
        if (strcmp(name, ga__dtype_names[i]) == 0) return (ga_dtype)i;
    return GA_DTYPE_INVALID;
}

GPUARR_API size_t ga_dtype_itemsize(ga_dtype dtype)
{
    return ga__dtype_valid(dtype) ? ga__dtype_sizes[dtype] : 0;
}

GPUARR_API char ga_dtype_kind(ga_dtype dtype)
{
    return ga__dtype_valid(dtype) ? ga__dtype_kinds[dtype] : 0;
}

static ga_dtype ga__int_of_size(size_t size, bool is_signed)
{
    switch (size) {
    case 1: return is_signed ? GA_INT8 : GA_UINT8;
    case 2: return is_signed ? GA_INT16 : GA_UINT16;
    case 4: return is_signed ? GA_INT32 : GA_UINT32;
    default: return is_signed ? GA_INT64 : GA_UINT64;
    }
}

/* The join of two floating dtypes: the wider; float16 with bfloat16 meet in
   float32 (neither holds the other). */
static ga_dtype ga__float_join(ga_dtype a, ga_dtype b)
{
    if (a == b) return a;
    if (a == GA_FLOAT64 || b == GA_FLOAT64) return GA_FLOAT64;
    return GA_FLOAT32;
}

/* The smallest float holding every value of integer dtype `t` combined with
   float `f` (int8/uint8 fit both 16-bit floats). */
static ga_dtype ga__float_for_int(ga_dtype t, ga_dtype f)
{
    size_t size = ga__dtype_sizes[t];
    if (size == 1) return f;
    return ga__float_join(f, size == 2 ? GA_FLOAT32 : GA_FLOAT64);
}

static ga_dtype ga__complex_of(ga_dtype real) { return real == GA_FLOAT64 ? GA_COMPLEX128 : GA_COMPLEX64; }
static ga_dtype ga__real_of(ga_dtype cplx) { return cplx == GA_COMPLEX128 ? GA_FLOAT64 : GA_FLOAT32; }

GPUARR_API ga_dtype ga_promote_types(ga_dtype a, ga_dtype b)
{
    if (!ga__dtype_valid(a) || !ga__dtype_valid(b)) return GA_DTYPE_INVALID;
    if (a == b) return a;
    if (a == GA_BOOL) return b;
    if (b == GA_BOOL) return a;
    char ka = ga__dtype_kinds[a], kb = ga__dtype_kinds[b];
    bool ia = ka == 'i' || ka == 'u', ib = kb == 'i' || kb == 'u';
    if (ia && ib) {
        if (ka == kb) return ga__dtype_sizes[a] > ga__dtype_sizes[b] ? a : b;
        ga_dtype s = ka == 'i' ? a : b, u = ka == 'i' ? b : a;
        if (ga__dtype_sizes[s] > ga__dtype_sizes[u]) return s;
        if (ga__dtype_sizes[u] == 8) return GA_FLOAT64;
        return ga__int_of_size(ga__dtype_sizes[u] * 2, true);
    }
    if (ib) { ga_dtype t = a; a = b; b = t; char k = ka; ka = kb; kb = k; ia = true; ib = false; }
    if (ia) { /* integer a with float or complex b */
        if (kb == 'f') return ga__float_for_int(a, b);
        return ga__complex_of(ga__float_for_int(a, ga__real_of(b)));
    }
    if (ka == 'f' && kb == 'f') return ga__float_join(a, b);
    if (ka == 'c' && kb == 'c') return a == GA_COMPLEX128 || b == GA_COMPLEX128 ? GA_COMPLEX128 : GA_COMPLEX64;
    ga_dtype f = ka == 'f' ? a : b, c = ka == 'f' ? b : a;
    return ga__complex_of(ga__float_join(f == GA_FLOAT64 ? GA_FLOAT64 : GA_FLOAT32, ga__real_of(c)));
}

/* NumPy's order of kinds for same_kind casting: b < u < i < f < c. */
static int ga__kind_rank(ga_dtype t)
{
    switch (ga__dtype_kinds[t]) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4;
    }
}

GPUARR_API bool ga_can_cast(ga_dtype from, ga_dtype to, ga_casting casting)
{
    if (!ga__dtype_valid(from) || !ga__dtype_valid(to)) return false;
    switch (casting) {
    case GA_CASTING_NO:
    case GA_CASTING_EQUIV: return from == to;
    case GA_CASTING_SAFE: return ga_promote_types(from, to) == to;
    case GA_CASTING_SAME_KIND:
        return ga_promote_types(from, to) == to || ga__kind_rank(from) <= ga__kind_rank(to);
    case GA_CASTING_UNSAFE: return true;
    }
    return false;
}

static const char *ga__casting_name(ga_casting c)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    return (unsigned)c < 5 ? names[c] : "?";
}

/* The order of kinds as NEP 50's weak Python scalars see them: bool 0,
   integers 1, floats 2, complex 3; of a dtype and of a weak scalar. */
static int ga__scalar_rank(ga_dtype d)
{
    char k = ga__dtype_kinds[d];
    return k == 'b' ? 0 : k == 'i' || k == 'u' ? 1 : k == 'f' ? 2 : 3;
}
static int ga__weak_rank(ga_scalar s)
{
    return s.kind == GA_SCALAR_BOOL ? 0 : s.kind == GA_SCALAR_FLOAT ? 2 : s.kind == GA_SCALAR_COMPLEX ? 3 : 1;
}

GPUARR_API ga_dtype ga_result_type(int ndtypes, const ga_dtype *dtypes, int nscalars,
                                   const ga_scalar *scalars)
{
    ga_dtype r = GA_DTYPE_INVALID;
    if (ndtypes < 0 || nscalars < 0 || (ndtypes > 0 && !dtypes) || (nscalars > 0 && !scalars)) return r;
    for (int i = 0; i < ndtypes; i++) {
        if (!ga__dtype_valid(dtypes[i])) return GA_DTYPE_INVALID;
        r = r == GA_DTYPE_INVALID ? dtypes[i] : ga_promote_types(r, dtypes[i]);
    }
    int kind = -1; /* the highest scalar kind: 0 bool, 1 int, 2 float, 3 complex */
    for (int i = 0; i < nscalars; i++) kind = GA__MAX(kind, ga__weak_rank(scalars[i]));
    if (kind < 0) return r;
    static const ga_dtype defaults[] = {GA_BOOL, GA_INT64, GA_FLOAT64, GA_COMPLEX128};
    if (r == GA_DTYPE_INVALID) /* one Python int above INT64_MAX alone is uint64 */
        return nscalars == 1 && scalars[0].kind == GA_SCALAR_UINT ? GA_UINT64 : defaults[kind];
    /* A weak scalar changes the result only when its kind is higher. */
    char k = ga__dtype_kinds[r];
    int rk = k == 'b' ? 0 : (k == 'i' || k == 'u') ? 1 : k == 'f' ? 2 : 3;
    if (kind <= rk) return r;
    if (kind == 3 && rk == 2) return ga__complex_of(r == GA_FLOAT64 ? GA_FLOAT64 : GA_FLOAT32);
    return defaults[kind];
}

/* ------------------------------------------------------------------------ */
/* Host-side element conversion (fill values, the 1 of eye)                  */
/* ------------------------------------------------------------------------ */
/* The same values the kernels' casts give, for one scalar on the host. */

/* float64 -> float16 bits, one correct rounding (round half to even). */
static uint16_t ga__double_to_half(double x)
{
    uint16_t sign = signbit(x) ? 0x8000u : 0;
    double a = fabs(x);
    if (isnan(x)) return (uint16_t)(sign | 0x7E00u);
    if (a >= 65520.0) return (uint16_t)(sign | 0x7C00u);
    if (a < 6.103515625e-05) /* subnormal: a multiple of 2^-24 */
        return (uint16_t)(sign | (uint16_t)nearbyint(a * 16777216.0));
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    double m = nearbyint((f * 2.0 - 1.0) * 1024.0);
    if (m == 1024.0) {
        m = 0;
        e++;
    }
    return (uint16_t)(sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)m);
}

static double ga__half_to_double(uint16_t h)
{
    int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    double v;
    if (exponent == 0) v = ldexp((double)mantissa, -24);
    else if (exponent == 31) v = mantissa ? NAN : INFINITY;
    else v = ldexp((double)(mantissa | 0x400), exponent - 25);
    return (h & 0x8000) ? -v : v;
}

/* float32 -> bfloat16 bits, round half to even (float64 goes through
   float32 first, as ml_dtypes does). */
static uint16_t ga__float_to_bfloat16(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if (isnan(x)) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* NumPy's float -> integer conversions on x86 (cvttsd2si: NaN and values
   out of range become the most negative value). */
static int64_t ga__x86_to_int64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
static int32_t ga__x86_to_int32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

/* Stores `v` converted to `dtype` in out (little endian, zero padded). */
static void ga__double_to_element(double re, double im, ga_dtype dtype, ga__value16 *out)
{
    unsigned char *p = (unsigned char *)out;
    memset(out, 0, sizeof *out);
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16;
            uint32_t u32; uint64_t u64; float f; double d; float cf[2]; double cd[2]; } v;
    memset(&v, 0, sizeof v);
    switch (dtype) {
    case GA_BOOL: v.u8 = (re != 0 || im != 0); break;
    case GA_INT8: v.i8 = (int8_t)(uint32_t)ga__x86_to_int32(re); break;
    case GA_INT16: v.i16 = (int16_t)(uint32_t)ga__x86_to_int32(re); break;
    case GA_INT32: v.i32 = ga__x86_to_int32(re); break;
    case GA_INT64: v.i64 = ga__x86_to_int64(re); break;
    case GA_UINT8: v.u8 = (uint8_t)(uint32_t)ga__x86_to_int32(re); break;
    case GA_UINT16: v.u16 = (uint16_t)(uint32_t)ga__x86_to_int32(re); break;
    case GA_UINT32:
        v.u32 = re >= 0 ? (uint32_t)(uint64_t)ga__x86_to_int64(re) : (uint32_t)ga__x86_to_int32(re);
        break;
    case GA_UINT64:
        v.u64 = re >= 9223372036854775808.0
                    ? (uint64_t)ga__x86_to_int64(re - 9223372036854775808.0) ^ (1ull << 63)
                    : (uint64_t)ga__x86_to_int64(re);
        break;
    case GA_FLOAT16: v.u16 = ga__double_to_half(re); break;
    case GA_BFLOAT16: v.u16 = ga__float_to_bfloat16((float)re); break;
    case GA_FLOAT32: v.f = (float)re; break;
    case GA_FLOAT64: v.d = re; break;
    case GA_COMPLEX64: v.cf[0] = (float)re; v.cf[1] = (float)im; break;
    case GA_COMPLEX128: v.cd[0] = re; v.cd[1] = im; break;
    default: break;
    }
    memcpy(p, &v, ga__dtype_sizes[dtype]);
}

/* An integer stored exactly (wrapping) in an integer or bool dtype, or
   converted like a float for the others. */
static void ga__int_to_element(uint64_t bits, bool negative, ga_dtype dtype, ga__value16 *out)
{
    char kind = ga__dtype_kinds[dtype];
    if (kind == 'i' || kind == 'u') {
        memset(out, 0, sizeof *out);
        memcpy(out, &bits, ga__dtype_sizes[dtype]); /* little endian: the low bytes */
    } else if (kind == 'b') {
        memset(out, 0, sizeof *out);
        ((unsigned char *)out)[0] = bits != 0;
    } else {
        ga__double_to_element(negative ? (double)(int64_t)bits : (double)bits, 0, dtype, out);
    }
}

/* Converts a weak scalar to one element of `dtype` as NumPy assigns a Python
   scalar (np.full): a Python int must fit the integer dtype. */
static ga_status ga__scalar_to_element(const char *func, ga_scalar s, ga_dtype dtype, ga__value16 *out)
{
    char kind = ga__dtype_kinds[dtype];
    switch (s.kind) {
    case GA_SCALAR_BOOL:
        ga__int_to_element(s.value.b ? 1u : 0u, false, dtype, out);
        return GA_OK;
    case GA_SCALAR_INT:
    case GA_SCALAR_UINT: {
        bool negative = s.kind == GA_SCALAR_INT && s.value.i < 0;
        uint64_t bits = s.kind == GA_SCALAR_INT ? (uint64_t)s.value.i : s.value.u;
        /* NumPy converts a Python int to the narrower dtypes through a C long */
        if ((kind == 'b' || kind == 'i' || dtype == GA_UINT8 || dtype == GA_UINT16) &&
            s.kind == GA_SCALAR_UINT && bits > (uint64_t)INT64_MAX)
            return ga__error(GA_ERROR_OVERFLOW, func, "Python int too large to convert to C long");
        if (kind == 'i' || kind == 'u') {
            unsigned nbits = 8u * ga__dtype_sizes[dtype];
            bool fits;
            if (kind == 'u') fits = !negative && (nbits == 64 || bits >> nbits == 0);
            else if (negative) fits = nbits == 64 || (int64_t)bits >= -(int64_t)(1ull << (nbits - 1));
            else fits = bits <= (nbits == 64 ? (uint64_t)INT64_MAX : (1ull << (nbits - 1)) - 1);
            if (!fits) {
                if (negative)
                    return ga__error(GA_ERROR_OVERFLOW, func, "Python integer %lld out of bounds for %s",
                                     (long long)s.value.i, ga__dtype_names[dtype]);
                return ga__error(GA_ERROR_OVERFLOW, func, "Python integer %llu out of bounds for %s",
                                 (unsigned long long)bits, ga__dtype_names[dtype]);
            }
        }
        ga__int_to_element(bits, negative, dtype, out);
        return GA_OK;
    }
    case GA_SCALAR_FLOAT:
        ga__double_to_element(s.value.f, 0, dtype, out);
        return GA_OK;
    case GA_SCALAR_COMPLEX:
        ga__double_to_element(s.value.c.re, s.value.c.im, dtype, out);
        return GA_OK;
    }
    return ga__error(GA_ERROR_VALUE, func, "invalid scalar kind %d", (int)s.kind);
}

/* A Python scalar assigned into an array of `dtype` (NumPy's a[...] = v and
   initial=, unlike np.full's cast): into bool its truth; into an integer
   dtype a float truncated as Python's int() does ("cannot convert float NaN
   to integer", "cannot convert float infinity to integer", beyond int64 /
   uint64 "Python int too large to convert to C long"), then the int's
   range check of ga__scalar_to_element; a complex one into a real dtype is
   int()'s or float()'s TypeError. *out: the scalar to convert. */
static ga_status ga__assigned_scalar(const char *func, ga_scalar s, ga_dtype dtype, ga_scalar *out)
{
    char kind = ga__dtype_kinds[dtype];
    *out = s;
    if (kind == 'b') {
        bool truth = s.kind == GA_SCALAR_BOOL    ? s.value.b
                     : s.kind == GA_SCALAR_INT   ? s.value.i != 0
                     : s.kind == GA_SCALAR_UINT  ? s.value.u != 0
                     : s.kind == GA_SCALAR_FLOAT ? s.value.f != 0
                                                 : s.value.c.re != 0 || s.value.c.im != 0;
        *out = ga_bool(truth); /* NaN is true */
        return GA_OK;
    }
    if (s.kind == GA_SCALAR_COMPLEX && kind != 'c')
        return ga__error(GA_ERROR_TYPE, func, "%s() argument must be a string%s or a real number, not 'complex'",
                         kind == 'f' ? "float" : "int", kind == 'f' ? "" : ", a bytes-like object");
    if ((kind == 'i' || kind == 'u') && s.kind == GA_SCALAR_FLOAT) {
        double x = s.value.f;
        if (x != x) return ga__error(GA_ERROR_VALUE, func, "cannot convert float NaN to integer");
        if (isinf(x)) return ga__error(GA_ERROR_OVERFLOW, func, "cannot convert float infinity to integer");
        x = trunc(x);
        if (x >= 18446744073709551616.0 || x < -9223372036854775808.0 || (x >= 9223372036854775808.0 && dtype != GA_UINT64))
            return ga__error(GA_ERROR_OVERFLOW, func, "Python int too large to convert to C long");
        *out = x >= 9223372036854775808.0 ? ga_uint((uint64_t)x) : ga_int((int64_t)x);
    }
    return GA_OK;
}


/* >>shape */
/* ------------------------------------------------------------------------ */
/* 8. Shapes and strides: broadcasting, collapsing, extents, axes            */
/* ------------------------------------------------------------------------ */

typedef struct ga__layout {
    int ndim;
    int64_t shape[GA_MAXDIMS];
    int64_t strides[GA_MAXDIMS];
    int64_t offset;
} ga__layout;

static void ga__layout_of(const ga_array *a, ga__layout *l)
{
    l->ndim = a->ndim;
    l->offset = 0;
    for (int d = 0; d < a->ndim; d++) {
        l->shape[d] = a->shape[d];
        l->strides[d] = a->strides[d];
    }
}

/* --- checked arithmetic ------------------------------------------------------ */
/* Every product and sum of shapes, strides, item sizes and byte offsets
   goes through these two: true when the exact result does not fit int64
   (*r is then the wrapped value). Shapes that pass ga__shape_size, and
   layouts that pass ga__byte_span, cannot overflow in the sums and
   products of their own extents. */
static inline bool ga__mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
static inline bool ga__add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }

/* NumPy's size rule (PyArray_NewFromDescr): the item size times the product
   of the nonzero dims must fit int64, a zero dim excusing none of the
   others; then every C stride and byte extent of the shape fits too.
   Stores the element count in *size; false when the array is too big.
   The dims must be non-negative. */
static bool ga__shape_size(int ndim, const int64_t *shape, int64_t itemsize, int64_t *size)
{
    int64_t bytes = itemsize > 0 ? itemsize : 1, n = 1;
    bool empty = false;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0) {
            empty = true;
            continue;
        }
        if (ga__mul_overflow(bytes, shape[d], &bytes)) return false;
        n *= shape[d]; /* at most bytes */
    }
    *size = empty ? 0 : n;
    return true;
}

/* NumPy's error for a shape beyond ga__shape_size. */
static ga_status ga__too_big(const char *func)
{
    return ga__error(GA_ERROR_VALUE, func,
                     "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
}

/* The byte offsets from element 0 of the lowest and the highest element of
   a non-empty layout (*lo <= 0 <= *hi); false when they overflow int64. */
static bool ga__byte_span(int ndim, const int64_t *shape, const int64_t *strides, int64_t *lo, int64_t *hi)
{
    int64_t l = 0, h = 0;
    for (int d = 0; d < ndim; d++) {
        int64_t span;
        if (ga__mul_overflow(strides[d], shape[d] - 1, &span)) return false;
        if (span < 0 ? ga__add_overflow(l, span, &l) : ga__add_overflow(h, span, &h)) return false;
    }
    *lo = l;
    *hi = h;
    return true;
}

/* The bytes [*first, *end) that the elements of a non-empty layout reach,
   element 0 at byte `offset`; false when they overflow int64. */
static bool ga__reach(int64_t offset, int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize,
                      int64_t *first, int64_t *end)
{
    int64_t lo, hi;
    return ga__byte_span(ndim, shape, strides, &lo, &hi) && !ga__add_overflow(offset, lo, first) &&
           !ga__add_overflow(offset, hi, end) && !ga__add_overflow(*end, itemsize, end);
}

/* NumPy's contiguity flags for a shape and byte strides (a stride
   expected beyond int64 matches none). */
static int ga__contiguity(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int flags = GA_C_CONTIGUOUS | GA_F_CONTIGUOUS;
    for (int d = 0; d < ndim; d++)
        if (shape[d] == 0) return flags;
    int64_t expect = itemsize;
    bool beyond = false;
    for (int d = ndim - 1; d >= 0; d--) {
        if (shape[d] != 1) {
            if (beyond || strides[d] != expect) flags &= ~GA_C_CONTIGUOUS;
            beyond = beyond || ga__mul_overflow(expect, shape[d], &expect);
        }
    }
    expect = itemsize;
    beyond = false;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] != 1) {
            if (beyond || strides[d] != expect) flags &= ~GA_F_CONTIGUOUS;
            beyond = beyond || ga__mul_overflow(expect, shape[d], &expect);
        }
    }
    return flags;
}

/* Checks a shape of `itemsize`-byte elements for `func` (ndim, negative
   dims, ga__shape_size); stores the element count in *size. */
static ga_status ga__check_shape(const char *func, int ndim, const int64_t *shape, int64_t itemsize, int64_t *size)
{
    if (ndim < 0 || ndim > GA_MAXDIMS)
        return ga__error(GA_ERROR_VALUE, func, "ndim %d is out of range (0 to %d)", ndim, GA_MAXDIMS);
    if (ndim > 0 && !shape) return ga__null_input(func, "shape");
    for (int d = 0; d < ndim; d++)
        if (shape[d] < 0) return ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
    if (!ga__shape_size(ndim, shape, itemsize, size)) return ga__too_big(func);
    return GA_OK;
}

/* C strides of `shape` for an item size (a zero-length axis counts as one,
   as NumPy fills them); false, the strides unfinished, when they overflow
   (never for a shape that passed ga__shape_size). */
static bool ga__c_strides(int ndim, const int64_t *shape, int64_t itemsize, int64_t *strides)
{
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = itemsize;
        if (ga__mul_overflow(itemsize, shape[d] ? shape[d] : 1, &itemsize) && d > 0) return false;
    }
    return true;
}

/* C-contiguous strides for l's shape (ga__c_strides). */
static bool ga__fill_c_strides(ga__layout *l, int64_t itemsize)
{
    return ga__c_strides(l->ndim, l->shape, itemsize, l->strides);
}

static void ga__format_shape(char *out, size_t n, int ndim, const int64_t *shape)
{
    size_t len = (size_t)snprintf(out, n, "(");
    for (int d = 0; d < ndim && len < n; d++)
        len += (size_t)snprintf(out + len, n - len, d ? ",%lld" : "%lld", (long long)shape[d]);
    if (len < n) snprintf(out + len, n - len, ndim == 1 ? ",)" : ")");
}

/* Normalises `*axis` against `ndim` (NumPy's AxisError otherwise); `what`
   prefixes the message as NumPy does ("axis2: ", "source: ") or is "". */
static ga_status ga__normalize_axis(const char *func, const char *what, int *axis, int ndim)
{
    if (*axis < -ndim || *axis >= ndim)
        return ga__error(GA_ERROR_AXIS, func, "%saxis %d is out of bounds for array of dimension %d", what, *axis,
                         ndim);
    if (*axis < 0) *axis += ndim;
    return GA_OK;
}

/* Normalises n axes into out[] and checks they differ ("repeated axis"). */
static ga_status ga__normalize_axes(const char *func, const char *repeated, int n, const int *axes, int ndim,
                                    int *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = axes[i];
        ga_status st = ga__normalize_axis(func, "", &out[i], ndim);
        if (st != GA_OK) return st;
        for (int j = 0; j < i; j++)
            if (out[j] == out[i]) return ga__error(GA_ERROR_VALUE, func, "%s", repeated);
    }
    return GA_OK;
}

/* Python's slice.indices (CPython's PySlice_AdjustIndices): the first
   index and the length of start:stop:step over n elements, every value
   taken as written (a Python int beyond int64 clamped to it first, which
   gives the same answer); step is not 0. An omitted bound is Python's
   value for it: start 0 (step < 0: INT64_MAX), stop INT64_MAX (step < 0:
   INT64_MIN). */
static void ga__slice_adjust(int64_t start, int64_t stop, int64_t step, int64_t n, int64_t *first, int64_t *length)
{
    if (start < 0) start = start + n < 0 ? (step < 0 ? -1 : 0) : start + n;
    else if (start >= n) start = step < 0 ? n - 1 : n;
    if (stop < 0) stop = stop + n < 0 ? (step < 0 ? -1 : 0) : stop + n;
    else if (stop >= n) stop = step < 0 ? n - 1 : n;
    /* start - stop - 1 and stop - start - 1 lie in [0, n); |step| in unsigned, INT64_MIN included */
    if (step < 0) *length = stop < start ? (int64_t)((uint64_t)(start - stop - 1) / (0 - (uint64_t)step)) + 1 : 0;
    else *length = start < stop ? (stop - start - 1) / step + 1 : 0;
    *first = start;
}

/* The same for ga_slice's items, where GA_NONE is an omitted start or stop
   (the text path, which can write INT64_MIN, calls ga__slice_adjust). */
static void ga__slice_indices(int64_t start, int64_t stop, int64_t step, int64_t n, int64_t *first, int64_t *length)
{
    if (start == GA_NONE) start = step < 0 ? INT64_MAX : 0;
    if (stop == GA_NONE) stop = step < 0 ? INT64_MIN : INT64_MAX;
    ga__slice_adjust(start, stop, step, n, first, length);
}

/* The broadcast of shapes: NumPy's rules, stored in out (ndim *out_ndim). */
static bool ga__broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes, int *out_ndim, int64_t *out,
                                 int *bad)
{
    int nd = 0;
    for (int i = 0; i < n; i++) nd = GA__MAX(nd, ndims[i]);
    for (int d = 0; d < nd; d++) out[d] = 1;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < ndims[i]; d++) {
            int64_t *o = &out[nd - ndims[i] + d], v = shapes[i][d];
            if (v == *o || v == 1) continue;
            if (*o == 1) {
                *o = v;
                continue;
            }
            *bad = i;
            return false;
        }
    *out_ndim = nd;
    return true;
}

/* NumPy's message for inputs (and outputs) that do not broadcast. */
static ga_status ga__broadcast_error(const char *func, int n, const int *ndims, const int64_t *const *shapes)
{
    char text[512];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof text; i++) {
        if (i) len += (size_t)snprintf(text + len, sizeof text - len, " ");
        if (len < sizeof text) ga__format_shape(text + len, sizeof text - len, ndims[i], shapes[i]);
        len = strlen(text);
    }
    return ga__error(GA_ERROR_SHAPE, func, "operands could not be broadcast together with shapes %s", text);
}

/* a's byte strides broadcast to `ndim` dims (aligned at the last dim; 0
   where a has no dim or a dim of 1). `a` must broadcast there. */
static void ga__broadcast_strides(const ga_array *a, int ndim, int64_t *strides)
{
    for (int d = 0; d < ndim; d++) {
        int sd = d - (ndim - a->ndim);
        strides[d] = sd < 0 || a->shape[sd] == 1 ? 0 : a->strides[sd];
    }
}

/* Simplifies an elementwise pass over `nops` operands sharing `shape`, each
   with byte strides strides[op][d]: drops unit dims and merges neighbours
   that are contiguous in every operand. Returns the new ndim (0: one
   element). */
static int ga__collapse(int ndim, int64_t *shape, int nops, int64_t (*strides)[GA_MAXDIMS])
{
    int out = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 1) continue;
        bool merge = out > 0;
        for (int k = 0; k < nops && merge; k++) {
            int64_t next;
            merge = !ga__mul_overflow(strides[k][d], shape[d], &next) && strides[k][out - 1] == next;
        }
        if (merge) {
            shape[out - 1] *= shape[d];
            for (int k = 0; k < nops; k++) strides[k][out - 1] = strides[k][d];
        } else {
            shape[out] = shape[d];
            for (int k = 0; k < nops; k++) strides[k][out] = strides[k][d];
            out++;
        }
    }
    return out;
}

/* Whether axes [lo, hi) collapse into one axis; its byte stride goes to
   *stride (0 for no axes, or only unit ones). */
static bool ga__collapse_range(const int64_t *shape, const int64_t *strides, int lo, int hi, int64_t *stride)
{
    int64_t expect = 0;
    bool first = true, beyond = false; /* beyond: the expected stride overflows int64 */
    *stride = 0;
    for (int d = hi - 1; d >= lo; d--) {
        if (shape[d] == 1) continue;
        if (!first && (beyond || strides[d] != expect)) return false;
        if (first) *stride = strides[d];
        first = false;
        beyond = ga__mul_overflow(strides[d], shape[d], &expect);
    }
    return true;
}

/* |x| without overflow (INT64_MIN too). */
static inline uint64_t ga__magnitude(int64_t x) { return x < 0 ? 0 - (uint64_t)x : (uint64_t)x; }

/* Whether offsets up to the extremes of a strided operand fit int32. */
static bool ga__fits_int32(int ndim, const int64_t *shape, const int64_t *strides)
{
    uint64_t reach = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] <= 1) continue;
        uint64_t m = ga__magnitude(strides[d]);
        if (m && (uint64_t)(shape[d] - 1) > (uint64_t)INT32_MAX / m) return false;
        reach += m * (uint64_t)(shape[d] - 1);
        if (reach >= INT32_MAX) return false;
    }
    return true;
}

/* perm: the dims 0..ndim-1 by decreasing |strides[d]| (stable), i.e. the
   memory order of an operand laid out with those strides. */
static void ga__order_by_stride(int ndim, const int64_t *strides, int *perm)
{
    for (int d = 0; d < ndim; d++) perm[d] = d;
    for (int i = 1; i < ndim; i++)
        for (int j = i; j > 0; j--) {
            if (ga__magnitude(strides[perm[j - 1]]) >= ga__magnitude(strides[perm[j]])) break;
            int t = perm[j - 1];
            perm[j - 1] = perm[j];
            perm[j] = t;
        }
}

/* NumPy's order K for a new output (its iterator's
   npyiter_find_best_axis_ordering): from C order, a stable insertion sort
   starting at the innermost axis, in which an axis moves inside another
   when the operands whose strides in both are nonzero (broadcast and unit
   axes do not vote) all have its stride the smaller in magnitude; C order
   wins where they disagree, and an axis no operand decides stays. `order`:
   the axes, outermost first. */
static void ga__k_order(int ndim, int nops, int64_t (*strides)[GA_MAXDIMS], int *order)
{
    int perm[GA_MAXDIMS]; /* innermost first */
    for (int i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
    for (int i0 = 1; i0 < ndim; i0++) {
        int pos = i0, j0 = perm[i0];
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            bool decided = false, swap = false;
            for (int k = 0; k < nops; k++) {
                int64_t s0 = strides[k][j0], s1 = strides[k][perm[i1]];
                if (s0 == 0 || s1 == 0) continue;
                if (ga__magnitude(s1) <= ga__magnitude(s0)) swap = false;
                else if (!decided) swap = true;
                decided = true;
            }
            if (!decided) continue;
            if (!swap) break;
            pos = i1;
        }
        for (int i1 = i0; i1 > pos; i1--) perm[i1] = perm[i1 - 1];
        perm[pos] = j0;
    }
    for (int i = 0; i < ndim; i++) order[i] = perm[ndim - 1 - i];
}

/* The byte range [lo, hi) that `a`'s elements occupy (non-empty; all of
   the address space if it could not be computed, which an array inside its
   buffer never gives). */
static void ga__extent(const ga_array *a, uint64_t *lo, uint64_t *hi)
{
    int64_t l = 0, h = 0;
    if (!ga__byte_span(a->ndim, a->shape, a->strides, &l, &h)) {
        *lo = 0;
        *hi = UINT64_MAX;
        return;
    }
    *lo = a->data + (uint64_t)l;
    *hi = a->data + (uint64_t)h + ga__dtype_sizes[a->dtype];
}

/* Whether input `a`, read with broadcast strides `view` over `ndim` dims,
   shares bytes with the output `o` other than element for element (which
   NumPy allows: a ufunc reads each element before it writes it). */
static bool ga__overlaps_unsafely(const ga_array *a, const int64_t *view, int ndim, const ga_array *o)
{
    if (a->buffer != o->buffer || a->size == 0 || o->size == 0) return false;
    uint64_t alo, ahi, olo, ohi;
    ga__extent(a, &alo, &ahi);
    ga__extent(o, &olo, &ohi);
    if (!(alo < ohi && olo < ahi)) return false;
    if (a->data != o->data || a->dtype != o->dtype) return true;
    for (int d = 0; d < ndim; d++)
        if (o->shape[d] != 1 && view[d] != o->strides[d]) return true;
    return false;
}

/* >>array */
/* ------------------------------------------------------------------------ */
/* 9. Arrays: the object's life, views, scopes, temporaries                  */
/* ------------------------------------------------------------------------ */

/* Gives memory allocated elsewhere back to its owner, once the work queued
   on the current stream (which may still read or write it) has finished:
   the owner may reuse it at once. */
static void ga__buffer_give_back(ga__buffer *b)
{
    if (b->nbytes && ga__bind("ga_release", b->device) == GA_OK) {
        CUresult r = GA__CU.StreamSynchronize(ga__stream_of(b->device));
        if (r != CUDA_SUCCESS) ga__cuda_error("ga_release", r, "cuStreamSynchronize");
    }
    b->release(b->release_data);
}

static void ga__buffer_release(ga__buffer *b)
{
    if (!b || GA__ATOMIC_ADD(&b->refcount, -1) != 0) return;
    if (b->block) ga__pool_free(ga__g.devices[b->device].pool, b->block);
    if (b->release) ga__buffer_give_back(b);
    GPUARR_FREE(b);
}

/* A new array header over `buffer` (whose reference it takes, and gives
   back on failure). Every array is made here, so every array has at most
   GA_MAXDIMS dims and a shape within ga__shape_size: the callers check
   with their own words first, these checks are the last line. */
static ga_array *ga__array_wrap(const char *func, ga__buffer *buffer, ga_dtype dtype, int ndim,
                                const int64_t *shape, const int64_t *strides, uint64_t data)
{
    int64_t size = 0;
    ga_status st = GA_OK;
    if (ndim < 0 || ndim > GA_MAXDIMS)
        st = ga__error(GA_ERROR_VALUE, func, "number of dimensions must be within [0, %d], the result would have %d",
                       GA_MAXDIMS, ndim);
    for (int d = 0; st == GA_OK && d < ndim; d++)
        if (shape[d] < 0) st = ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
    if (st == GA_OK && !ga__shape_size(ndim, shape, ga__dtype_sizes[dtype], &size)) st = ga__too_big(func);
    if (st != GA_OK) {
        ga__buffer_release(buffer);
        return NULL;
    }
    ga_array *a = (ga_array *)GPUARR_MALLOC(sizeof *a);
    if (!a) {
        ga__buffer_release(buffer);
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    a->refcount = 1;
    a->dtype = dtype;
    a->ndim = ndim;
    a->device = buffer->device;
    a->buffer = buffer;
    a->data = data;
    a->size = size;
    for (int d = 0; d < ndim; d++) {
        a->shape[d] = shape[d];
        a->strides[d] = strides[d];
    }
    a->flags = ga__contiguity(ndim, shape, strides, (int64_t)ga__dtype_sizes[dtype]) | GA_WRITEABLE;
    return a;
}

/* A new C-contiguous array on `device` (bound), memory on its current
   stream. Not tracked by scopes: public functions return through ga__ret. */
static ga_array *ga__array_new(const char *func, int device, int ndim, const int64_t *shape,
                               ga_dtype dtype)
{
    int64_t size = 0;
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    size_t itemsize = ga__dtype_sizes[dtype];
    if (ga__check_shape(func, ndim, shape, (int64_t)itemsize, &size) != GA_OK) return NULL;
    ga__buffer *buf = (ga__buffer *)GPUARR_MALLOC(sizeof *buf);
    if (!buf) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    buf->refcount = 1;
    buf->device = device;
    buf->nbytes = (size_t)size * itemsize;
    buf->block = NULL;
    buf->ptr = 0;
    buf->release = NULL;
    buf->release_data = NULL;
    if (buf->nbytes) {
        buf->block = ga__device_alloc(func, device, buf->nbytes, false);
        if (!buf->block) {
            GPUARR_FREE(buf);
            return NULL;
        }
        buf->ptr = buf->block->ptr;
    }
    int64_t strides[GA_MAXDIMS];
    ga__c_strides(ndim, shape, (int64_t)itemsize, strides); /* exact: the shape passed ga__check_shape */
    ga_array *a = ga__array_wrap(func, buf, dtype, ndim, shape, strides, buf->ptr);
    if (a) a->flags |= GA_OWNDATA;
    return a;
}

/* Registers a new array with the thread's open scope, if any. */
static ga_array *ga__ret(ga_array *a)
{
    if (!a || ga__t.scope_depth == 0) return a;
    if (ga__t.scope_count == ga__t.scope_capacity) {
        int cap = ga__t.scope_capacity ? ga__t.scope_capacity * 2 : 64;
        ga__scope_entry *e = (ga__scope_entry *)GPUARR_MALLOC(sizeof *e * (size_t)cap);
        if (!e) {
            ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, "ga_scope", "out of host memory");
            ga_release(a);
            return NULL;
        }
        if (ga__t.scope_count) memcpy(e, ga__t.scope_entries, sizeof *e * (size_t)ga__t.scope_count);
        GPUARR_FREE(ga__t.scope_entries);
        ga__t.scope_entries = e;
        ga__t.scope_capacity = cap;
    }
    ga__t.scope_entries[ga__t.scope_count].array = a;
    ga__t.scope_entries[ga__t.scope_count].kept = false;
    ga__t.scope_count++;
    return a;
}

/* Checks that a non-empty layout of a's dtype, element 0 at byte `offset`
   from a's first element, lies inside a's buffer. */
static ga_status ga__check_within(const char *func, const ga_array *a, int64_t offset, int ndim, const int64_t *shape,
                                  const int64_t *strides)
{
    const size_t nbytes = a->buffer->nbytes;
    int64_t first = 0, end = 0;
    if (ga__add_overflow((int64_t)(a->data - a->buffer->ptr), offset, &offset) ||
        !ga__reach(offset, ndim, shape, strides, (int64_t)ga__dtype_sizes[a->dtype], &first, &end))
        return ga__error(GA_ERROR_VALUE, func,
                         "the view reaches byte offsets beyond int64, outside the buffer of %zu bytes", nbytes);
    if (first < 0 || (uint64_t)end > (uint64_t)nbytes)
        return ga__error(GA_ERROR_VALUE, func, "the view reaches bytes %lld to %lld, outside the buffer of %zu bytes",
                         (long long)first, (long long)end, nbytes);
    return GA_OK;
}

/* A view of a's buffer with layout `l` (offset relative to a's first
   element); read-only when `a` is or when `writeable` is false. Not tracked
   by scopes. A non-empty view must lie inside the buffer (every view
   function computes one that does; this is the last line). */
static ga_array *ga__view(const char *func, const ga_array *a, const ga__layout *l, bool writeable)
{
    int64_t size = 0;
    if (l->ndim < 0 || l->ndim > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "number of dimensions must be within [0, %d], the result would have %d",
                  GA_MAXDIMS, l->ndim);
        return NULL;
    }
    bool negative = false;
    for (int d = 0; d < l->ndim; d++) negative = negative || l->shape[d] < 0;
    if (!negative && ga__shape_size(l->ndim, l->shape, ga__dtype_sizes[a->dtype], &size) && size > 0 &&
        ga__check_within(func, a, l->offset, l->ndim, l->shape, l->strides) != GA_OK)
        return NULL;
    GA__ATOMIC_ADD(&a->buffer->refcount, 1);
    ga_array *v = ga__array_wrap(func, a->buffer, a->dtype, l->ndim, l->shape, l->strides,
                                 a->data + (uint64_t)l->offset);
    if (v && (!writeable || !(a->flags & GA_WRITEABLE))) v->flags &= ~GA_WRITEABLE;
    return v;
}

/* a's axes in the order perm (already checked to be a permutation). */
static ga_array *ga__permuted(const char *func, const ga_array *a, const int *perm)
{
    ga__layout l;
    l.ndim = a->ndim;
    l.offset = 0;
    for (int d = 0; d < a->ndim; d++) {
        l.shape[d] = a->shape[perm[d]];
        l.strides[d] = a->strides[perm[d]];
    }
    return ga__view(func, a, &l, true);
}

/* A read-only view of `a` broadcast to (ndim, shape), or NULL if it does not
   broadcast (no error recorded: callers word it). */
static ga_array *ga__broadcast_view(const char *func, const ga_array *a, int ndim, const int64_t *shape)
{
    if (ndim < a->ndim) return NULL;
    ga__layout l;
    l.ndim = ndim;
    l.offset = 0;
    for (int d = 0; d < ndim; d++) {
        int sd = d - (ndim - a->ndim);
        l.shape[d] = shape[d];
        if (sd >= 0 && a->shape[sd] != shape[d] && a->shape[sd] != 1) return NULL;
        l.strides[d] = sd < 0 || shape[d] == 1 || a->shape[sd] == 1 ? 0 : a->strides[sd];
    }
    return ga__view(func, a, &l, false);
}

GPUARR_API int ga_ndim(const ga_array *a) { return a ? a->ndim : -1; }
GPUARR_API const int64_t *ga_shape(const ga_array *a) { return a ? a->shape : NULL; }
GPUARR_API const int64_t *ga_strides(const ga_array *a) { return a ? a->strides : NULL; }
GPUARR_API int64_t ga_size(const ga_array *a) { return a ? a->size : -1; }
GPUARR_API ga_dtype ga_dtype_of(const ga_array *a) { return a ? a->dtype : GA_DTYPE_INVALID; }
GPUARR_API size_t ga_itemsize(const ga_array *a) { return a ? ga__dtype_sizes[a->dtype] : 0; }
GPUARR_API size_t ga_nbytes(const ga_array *a)
{
    return a ? (size_t)a->size * ga__dtype_sizes[a->dtype] : 0;
}
GPUARR_API int ga_device_of(const ga_array *a) { return a ? a->device : -1; }
GPUARR_API int ga_flags(const ga_array *a) { return a ? a->flags : 0; }
GPUARR_API void *ga_data(const ga_array *a) { return a ? (void *)(uintptr_t)a->data : NULL; }

GPUARR_API ga_array *ga_as_strided(const ga_array *a, int ndim, const int64_t *shape,
                                   const int64_t *strides, int64_t offset)
{
    static const char func[] = "ga_as_strided";
    int64_t size = 0;
    if (!a) { ga__null_input(func, "a"); return NULL; }
    int64_t itemsize = (int64_t)ga__dtype_sizes[a->dtype];
    if (ga__check_shape(func, ndim, shape, itemsize, &size) != GA_OK) return NULL;
    if (ndim > 0 && !strides) { ga__null_input(func, "strides"); return NULL; }
    int64_t align = itemsize < 8 ? itemsize : 8; /* kernels access whole, aligned elements */
    bool aligned = (int64_t)((a->data + (uint64_t)offset) % (uint64_t)align) == 0;
    for (int d = 0; d < ndim; d++) aligned = aligned && strides[d] % align == 0;
    if (!aligned) {
        ga__error(GA_ERROR_VALUE, func, "the offset and strides must be multiples of %lld bytes for %s",
                  (long long)align, ga__dtype_names[a->dtype]);
        return NULL;
    }
    /* every element inside the buffer, the byte arithmetic checked */
    if (size > 0 && ga__check_within(func, a, offset, ndim, shape, strides) != GA_OK) return NULL;
    GA__ATOMIC_ADD(&a->buffer->refcount, 1);
    ga_array *v = ga__array_wrap(func, a->buffer, a->dtype, ndim, shape, strides,
                                 a->data + (uint64_t)offset);
    if (v) v->flags = (v->flags & ~GA_WRITEABLE) | (a->flags & GA_WRITEABLE);
    return ga__ret(v);
}

GPUARR_API ga_array *ga_retain(ga_array *a)
{
    if (a) GA__ATOMIC_ADD(&a->refcount, 1);
    return a;
}

GPUARR_API void ga_release(ga_array *a)
{
    if (!a || GA__ATOMIC_ADD(&a->refcount, -1) != 0) return;
    ga__buffer_release(a->buffer);
    GPUARR_FREE(a);
}

GPUARR_API void ga_scope_begin(void)
{
    if (ga__t.scope_depth == (int)(sizeof ga__t.scope_starts / sizeof(int))) {
        ga__error(GA_ERROR_STATE, "ga_scope_begin", "scopes nest at most 64 deep");
        return;
    }
    ga__t.scope_starts[ga__t.scope_depth++] = ga__t.scope_count;
}

GPUARR_API void ga_scope_end(void)
{
    if (ga__t.scope_depth == 0) {
        ga__error(GA_ERROR_STATE, "ga_scope_end", "no open scope");
        return;
    }
    int start = ga__t.scope_starts[--ga__t.scope_depth], kept = start;
    for (int i = start; i < ga__t.scope_count; i++) {
        ga__scope_entry e = ga__t.scope_entries[i];
        if (!e.kept) {
            ga_release(e.array);
        } else if (ga__t.scope_depth > 0) { /* it now belongs to the enclosing scope */
            ga__t.scope_entries[kept].array = e.array;
            ga__t.scope_entries[kept].kept = false;
            kept++;
        }
    }
    ga__t.scope_count = kept;
    if (ga__t.scope_depth == 0 && ga__t.scope_entries) {
        GPUARR_FREE(ga__t.scope_entries);
        ga__t.scope_entries = NULL;
        ga__t.scope_capacity = 0;
    }
}

GPUARR_API ga_array *ga_keep(ga_array *a)
{
    if (!a || ga__t.scope_depth == 0) return a;
    int start = ga__t.scope_starts[ga__t.scope_depth - 1];
    for (int i = ga__t.scope_count - 1; i >= start; i--)
        if (ga__t.scope_entries[i].array == a && !ga__t.scope_entries[i].kept) {
            ga__t.scope_entries[i].kept = true;
            break;
        }
    return a;
}

/* The temporaries of one call, released together: the arrays a step makes
   and later steps read.
       ga__temps t = {{NULL}, 0};
       ga_array *x = ga__temp(&t, ga_astype(a, GA_FLOAT64));
       if (!x) return ga__temps_fail(&t);
       ...
       ga__temps_release(&t);
   ga__temp passes NULL through, the error already recorded. */
#define GA__MAX_TEMPS 32
typedef struct ga__temps {
    ga_array *a[GA__MAX_TEMPS];
    int n;
} ga__temps;

static inline ga_array *ga__temp(ga__temps *t, ga_array *a)
{
    if (a) {
        GPUARR_ASSERT(t->n < GA__MAX_TEMPS);
        t->a[t->n++] = a;
    }
    return a;
}

static inline void ga__temps_release(ga__temps *t)
{
    while (t->n > 0) ga_release(t->a[--t->n]);
}

/* Releases the temporaries and returns the error recorded. */
static inline ga_status ga__temps_fail(ga__temps *t)
{
    ga__temps_release(t);
    return ga__t.error;
}


/* >>launch */
/* ------------------------------------------------------------------------ */
/* 10. Kernels: the fatbin registry, launching, the CUB glue                 */
/* ------------------------------------------------------------------------ */

/* A family's fatbin is loaded the first time one of its kernels is needed;
   each kernel is resolved once and cached in a table indexed by op, dtype
   and variant, so the hot path is one load and a NULL test. */

#define GA__FAMILY_LIST(X) X(COPY, copy) X(CREATION, creation) X(INDEX, index) X(ARITH, arith) X(MATH, math) \
    X(REDUCE, reduce) X(LINALG, linalg)

typedef enum ga__family {
#define GA__FAMILY_ENUM(E, name) GA__FAMILY_##E,
    GA__FAMILY_LIST(GA__FAMILY_ENUM)
#undef GA__FAMILY_ENUM
    GA__NUM_FAMILIES
} ga__family;

static const char *const ga__family_names[GA__NUM_FAMILIES] = {
#define GA__FAMILY_NAME(E, name) #name,
    GA__FAMILY_LIST(GA__FAMILY_NAME)
#undef GA__FAMILY_NAME
};

#ifdef GPUARR_EMBED_FATBINS
/* Made by `make fatbins` in build/gpuarr_fatbins.c; NULL-name terminated. */
typedef struct ga__embedded_fatbin {
    const char *name;
    const unsigned char *data;
    const unsigned char *end;
} ga__embedded_fatbin;
extern const ga__embedded_fatbin ga__embedded_fatbins[];
#endif

static CUlibrary ga__libraries[GA__NUM_FAMILIES];

#ifndef GPUARR_EMBED_FATBINS
/* The directories searched for <family>.fatbin, in order. */
static int ga__kernel_dirs(const char *dirs[3])
{
    int n = 0;
    const char *env = getenv("GPUARR_KERNEL_DIR");
    if (env && *env) dirs[n++] = env;
#ifdef GPUARR_KERNEL_DIR
    dirs[n++] = GPUARR_KERNEL_DIR;
#endif
    dirs[n++] = "build/kernels";
    return n;
}
#endif

GPUARR_API bool ga_kernel_family_locate(int family, char *path, size_t size)
{
    if (family < 0 || family >= GA__NUM_FAMILIES || !path || size == 0) return false;
#ifdef GPUARR_EMBED_FATBINS
    for (const ga__embedded_fatbin *e = ga__embedded_fatbins; e->name; e++)
        if (strcmp(e->name, ga__family_names[family]) == 0) {
            snprintf(path, size, "embedded");
            return true;
        }
    path[0] = 0;
    return false;
#else
    const char *dirs[3];
    int ndirs = ga__kernel_dirs(dirs);
    for (int i = 0; i < ndirs; i++) {
        snprintf(path, size, "%s/%s.fatbin", dirs[i], ga__family_names[family]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return true;
        }
    }
    size_t len = 0;
    path[0] = 0;
    for (int i = 0; i < ndirs && len < size; i++)
        len += (size_t)snprintf(path + len, size - len, "%s%s", i ? ", " : "", dirs[i]);
    return false;
#endif
}

static ga_status ga__check_fatbin_version(const char *func, ga__family fam, CUlibrary lib,
                                          const char *where)
{
    CUdeviceptr ptr = 0;
    size_t bytes = 0;
    unsigned int version = 0;
    CUresult r = GA__CU.LibraryGetGlobal(&ptr, &bytes, lib, "ga_fatbin_version");
    if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_SOURCE) {
        int major = 0, minor = 0;
        ga__device *d = &ga__g.devices[ga__t.device];
        GA__CU.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->handle);
        GA__CU.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->handle);
        return ga__error(GA_ERROR_KERNELS_MISSING, func,
                         "kernel fatbin '%s' (%s) has no code for this GPU (sm_%d%d); rebuild it with `make fatbins GPUARR_ARCHS=sm_%d%d`",
                         ga__family_names[fam], where, major, minor, major, minor);
    }
    if (r == CUDA_SUCCESS && bytes == sizeof version)
        r = GA__CU.MemcpyDtoH(&version, ptr, sizeof version);
    if (r != CUDA_SUCCESS || version != GPUARR_VERSION_NUMBER)
        return ga__error(GA_ERROR_KERNELS_STALE, func,
                         "kernel fatbin '%s' (%s) was built for gpuarr %u.%u.%u, this is %s; rebuild with `make fatbins`",
                         ga__family_names[fam], where, version / 10000, version / 100 % 100,
                         version % 100, GPUARR_VERSION_STRING);
    return GA_OK;
}

/* Whether `image` holds a whole fatbin: its header (magic 0xBA55ED50, a
   version, the header's size, the size of what follows) and all it
   announces. The driver reads as many bytes as the header says, so a
   truncated file must be refused before the driver sees it. */
static bool ga__fatbin_whole(const void *image, size_t size)
{
    uint32_t magic;
    uint16_t header;
    uint64_t body;
    if (size < 16) return false;
    memcpy(&magic, image, 4);
    memcpy(&header, (const char *)image + 6, 2);
    memcpy(&body, (const char *)image + 8, 8);
    return magic == 0xBA55ED50u && header >= 16 && header <= size && body <= size - header;
}

static ga_status ga__load_family_locked(const char *func, ga__family fam)
{
    const char *name = ga__family_names[fam];
    CUlibrary lib = NULL;
    char where[600];
    if (!ga_kernel_family_locate((int)fam, where, sizeof where))
        return ga__error(GA_ERROR_KERNELS_MISSING, func,
#ifdef GPUARR_EMBED_FATBINS
                         "kernel family '%s' is not among the embedded fatbins%s", name, where);
#else
                         "kernel fatbin '%s.fatbin' not found (looked in %s); run `make fatbins` or set GPUARR_KERNEL_DIR",
                         name, where);
#endif
#ifdef GPUARR_EMBED_FATBINS
    const ga__embedded_fatbin *e = ga__embedded_fatbins;
    while (strcmp(e->name, name) != 0) e++;
    if (!ga__fatbin_whole(e->data, (size_t)(e->end - e->data)))
        return ga__error(GA_ERROR_KERNELS_STALE, func, "the embedded fatbin '%s' is not a whole fatbin; rebuild with "
                         "`make fatbins`", name);
    CUlibraryOption opt = CU_LIBRARY_BINARY_IS_PRESERVED;
    void *on = (void *)(uintptr_t)1;
    GA__CHECK_CU(func, GA__CU.LibraryLoadData(&lib, e->data, NULL, NULL, 0, &opt, &on, 1),
                 "cuLibraryLoadData (embedded fatbin)");
#else
    FILE *f = fopen(where, "rb");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    void *image = size > 0 ? GPUARR_MALLOC((size_t)size) : NULL;
    size_t got = image && fseek(f, 0, SEEK_SET) == 0 ? fread(image, 1, (size_t)size, f) : 0;
    if (f) fclose(f);
    if (!image || got != (size_t)size) {
        GPUARR_FREE(image);
        if (size > 0 && !image) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return ga__error(GA_ERROR_KERNELS_MISSING, func, "could not read %s", where);
    }
    if (!ga__fatbin_whole(image, (size_t)size)) {
        GPUARR_FREE(image);
        return ga__error(GA_ERROR_KERNELS_STALE, func, "%s is not a valid fatbin; rebuild with `make fatbins`",
                         where);
    }
    CUresult r = GA__CU.LibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0);
    GPUARR_FREE(image);
    if (r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_INVALID_SOURCE)
        return ga__error(GA_ERROR_KERNELS_STALE, func, "%s is not a valid fatbin; rebuild with `make fatbins`", where);
    if (r != CUDA_SUCCESS) return ga__cuda_error(func, r, "cuLibraryLoadData");
#endif
    ga_status st = ga__check_fatbin_version(func, fam, lib, where);
    if (st != GA_OK) {
        GA__CU.LibraryUnload(lib);
        return st;
    }
    GA__ATOMIC_STORE(&ga__libraries[fam], lib);
    return GA_OK;
}

/* The slow path of ga__kernel: loads the family if needed, resolves the
   kernel by its name, caches it in *slot. */
static CUfunction ga__resolve_kernel(const char *func, ga__family fam, CUkernel *slot, const char *op,
                                     const char *t1, const char *t2, const char *variant)
{
    if (!GA__ATOMIC_LOAD(&ga__libraries[fam])) {
        pthread_mutex_lock(&ga__lock);
        ga_status st = ga__libraries[fam] ? GA_OK : ga__load_family_locked(func, fam);
        pthread_mutex_unlock(&ga__lock);
        if (st != GA_OK) return NULL;
    }
    char name[128];
    int len = snprintf(name, sizeof name, "ga_%s_%s", ga__family_names[fam], op);
    const char *parts[3] = {t1, t2, variant};
    for (int i = 0; i < 3; i++)
        if (parts[i]) len += snprintf(name + len, sizeof name - (size_t)len, "_%s", parts[i]);
    CUkernel k = NULL;
    CUresult r = GA__CU.LibraryGetKernel(&k, ga__libraries[fam], name);
    if (r != CUDA_SUCCESS) {
        ga__error(GA_ERROR_KERNELS_MISSING, func, "kernel %s is missing from the '%s' fatbin (%d); rebuild with `make fatbins`",
                  name, ga__family_names[fam], (int)r);
        return NULL;
    }
    GA__ATOMIC_STORE(slot, k);
    return (CUfunction)k;
}

/* The kernel cached in `slot` (each section keeps its own table of them),
   resolved the first time by its symbol, ga_<family>_<op>_<t1>_<t2>_<variant>
   with the NULL parts left out: the name kernels/common.cuh's
   GA_KERNEL_NAME gives it. A CUkernel launches as a CUfunction. */
#define ga__kernel(func, fam, slot, op, t1, t2, variant)                  \
    (GA__ATOMIC_LOAD(slot) ? (CUfunction)GA__ATOMIC_LOAD(slot)            \
                           : ga__resolve_kernel((func), (fam), (slot), (op), (t1), (t2), (variant)))

GPUARR_API int ga_kernel_family_count(void) { return GA__NUM_FAMILIES; }

GPUARR_API const char *ga_kernel_family_name(int family)
{
    return family >= 0 && family < GA__NUM_FAMILIES ? ga__family_names[family] : NULL;
}

GPUARR_API bool ga_kernel_family_loaded(int family)
{
    return family >= 0 && family < GA__NUM_FAMILIES && GA__ATOMIC_LOAD(&ga__libraries[family]) != NULL;
}

/* Launches a grid-stride kernel over `work` items on the current stream of
   `device`: enough 256-thread blocks to fill the GPU, no more. */
static ga_status ga__launch(const char *func, CUfunction f, int device, int64_t work, void **args)
{
    if (!f) return ga__t.error;
    const int64_t threads = 256;
    int64_t blocks = (work + threads - 1) / threads;
    int64_t most = (int64_t)ga__g.devices[device].multiprocessor_count * 8;
    if (blocks > most) blocks = most;
    if (blocks < 1) blocks = 1;
    GA__CHECK_CU(func, GA__CU.LaunchKernel(f, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0,
                                           ga__stream_of(device), args, NULL),
                 "cuLaunchKernel");
    return GA_OK;
}

/* Launches a thread per work item: the streaming kernels over contiguous
   memory (one or two 16-byte vectors per thread). Their grid-stride loops
   then run once; blocks that retire in address order measured faster than
   a grid of one wave looping over the data. */
static ga_status ga__launch_flat(const char *func, CUfunction f, int device, int64_t work, void **args)
{
    if (!f) return ga__t.error;
    int64_t blocks = GA__MAX(GA__MIN((work + 255) / 256, (int64_t)INT32_MAX), 1);
    GA__CHECK_CU(func, GA__CU.LaunchKernel(f, (unsigned)blocks, 1, 1, 256, 1, 1, 0, ga__stream_of(device), args, NULL),
                 "cuLaunchKernel");
    return GA_OK;
}

/* Like ga__launch, for `rows` rows of `work` threads' work each: the rows
   spread over blockIdx.y (the kernel loops over rows by gridDim.y). */
static ga_status ga__launch_rows(const char *func, CUfunction f, int device, int64_t work, int64_t rows, void **args)
{
    if (!f) return ga__t.error;
    const int64_t threads = 256;
    int64_t blocks = (work + threads - 1) / threads;
    int64_t most = (int64_t)ga__g.devices[device].multiprocessor_count * 8;
    if (blocks > most) blocks = most;
    if (blocks < 1) blocks = 1;
    int64_t blocks_y = most / blocks;
    if (blocks_y > rows) blocks_y = rows;
    if (blocks_y > 65535) blocks_y = 65535;
    if (blocks_y < 1) blocks_y = 1;
    GA__CHECK_CU(func, GA__CU.LaunchKernel(f, (unsigned)blocks, (unsigned)blocks_y, 1, (unsigned)threads, 1, 1, 0,
                                           ga__stream_of(device), args, NULL),
                 "cuLaunchKernel");
    return GA_OK;
}

/* log2 of an item size (1..16 bytes): the index of the kernels that move
   items of a size (fill, eye, transpose, tri, take, put), named by it. */
static int ga__size_class(size_t itemsize)
{
    return itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : itemsize == 8 ? 3 : 4;
}
static const char *const ga__size_names[5] = {"b8", "b16", "b32", "b64", "b128"};

/* A glue failure as a gpuarr error. */
static ga_status ga__cub_failed(const char *func, int e, const char *what)
{
    if (e == 2 /* cudaErrorMemoryAllocation */)
        return ga__error(GA_ERROR_OUT_OF_MEMORY, func, "%s: out of memory", what);
    return ga__error(GA_ERROR_CUDA, func, "%s failed: %s (%d)", what, ga__cub_error_string(e), e);
}

GPUARR_API int ga_cub_version(void) { return ga__cub_version(); }

/* Unloads every family (the sections' hooks, run first, forgot their kernels). */
static void ga__launch_shutdown(void)
{
    for (int f = 0; f < GA__NUM_FAMILIES; f++)
        if (ga__libraries[f]) GA__CU.LibraryUnload(ga__libraries[f]);
    memset(ga__libraries, 0, sizeof ga__libraries);
}

/* >>libs */
/* ------------------------------------------------------------------------ */
/* 11. CUDA libraries: loading, handles per device and thread               */
/* ------------------------------------------------------------------------ */

/* Each library: X(ID, name, soname, environment variable, entry points,
   which release has them), the entry points a list of X(return type, name,
   parameters), resolved by name (dlsym) or taken from the link
   (GPUARR_LINK_CUDA_LIBRARIES, which also checks each type against the
   library's header). The list is each section's list in turn: a later
   section adds its own, with its switch. */
#ifndef GPUARR_NO_LINALG
#define GA__LIBRARY_LINALG(X)                                                                                  \
    X(CUBLAS, cublas, "libcublas.so.13", "GPUARR_CUBLAS_LIBRARY", GA__CUBLAS_API, "from CUDA 13, or newer")        \
    X(CUSOLVER, cusolver, "libcusolver.so.12", "GPUARR_CUSOLVER_LIBRARY", GA__CUSOLVER_API, "from CUDA 13, or newer")
#else
#define GA__LIBRARY_LINALG(X)
#endif
/* zlib, for the deflated members of .npz archives (>>io; not a CUDA
   library, but opened the same way: a program that never reads or writes
   a compressed archive never loads it, and links with nothing new). */
#define GA__LIBRARY_IO(X) X(ZLIB, zlib, "libz.so.1", "GPUARR_ZLIB_LIBRARY", GA__ZLIB_API, "from zlib 1.2, or newer")
#define GA__LIBRARY_LIST(X) GA__LIBRARY_LINALG(X) GA__LIBRARY_IO(X)

#ifndef GPUARR_NO_LINALG
#define GA__CUBLAS_API(X)                                                                                         \
    X(cublasStatus_t, cublasCreate_v2, (cublasHandle_t *))                                                        \
    X(cublasStatus_t, cublasDestroy_v2, (cublasHandle_t))                                                         \
    X(const char *, cublasGetStatusString, (cublasStatus_t))                                                      \
    X(cublasStatus_t, cublasSetStream_v2, (cublasHandle_t, cudaStream_t))                                         \
    X(cublasStatus_t, cublasSetWorkspace_v2, (cublasHandle_t, void *, size_t))                                    \
    X(cublasStatus_t, cublasGemmStridedBatchedEx_64,                                                              \
      (cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t, int64_t, int64_t, const void *, const void *, \
       cudaDataType, int64_t, long long, const void *, cudaDataType, int64_t, long long, const void *, void *,      \
       cudaDataType, int64_t, long long, int64_t, cublasComputeType_t, cublasGemmAlgo_t))                  \
    GA__CUBLAS_TYPED(X, S, float) GA__CUBLAS_TYPED(X, D, double) GA__CUBLAS_TYPED(X, C, cuComplex)              \
    GA__CUBLAS_TYPED(X, Z, cuDoubleComplex)
/* the batched LU of stacks of small matrices, per type T (S, D, C, Z) of t */
#define GA__CUBLAS_TYPED(X, T, t)                                                                                 \
    X(cublasStatus_t, cublas##T##getrfBatched, (cublasHandle_t, int, t *const *, int, int *, int *, int))          \
    X(cublasStatus_t, cublas##T##getrsBatched,                                                                    \
      (cublasHandle_t, cublasOperation_t, int, int, const t *const *, int, const int *, t *const *, int, int *, int))

/* cuSOLVER's dense solvers, through its 64-bit generic API (cusolverDnX*),
   and the batched ones for stacks of small matrices (per type) */
#define GA__CUSOLVER_API(X)                                                                                         \
    X(cusolverStatus_t, cusolverDnCreate, (cusolverDnHandle_t *))                                                   \
    X(cusolverStatus_t, cusolverDnDestroy, (cusolverDnHandle_t))                                                    \
    X(cusolverStatus_t, cusolverDnSetStream, (cusolverDnHandle_t, cudaStream_t))                                    \
    X(cusolverStatus_t, cusolverDnCreateParams, (cusolverDnParams_t *))                                             \
    X(cusolverStatus_t, cusolverDnDestroyParams, (cusolverDnParams_t))                                              \
    X(cusolverStatus_t, cusolverDnXpotrf_bufferSize,                                                                \
      (cusolverDnHandle_t, cusolverDnParams_t, cublasFillMode_t, int64_t, cudaDataType, const void *, int64_t,       \
       cudaDataType, size_t *, size_t *))                                                                           \
    X(cusolverStatus_t, cusolverDnXpotrf,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, cublasFillMode_t, int64_t, cudaDataType, void *, int64_t, cudaDataType, \
       void *, size_t, void *, size_t, int *))                                                                      \
    X(cusolverStatus_t, cusolverDnXgetrf_bufferSize,                                                                \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, const void *, int64_t, cudaDataType,  \
       size_t *, size_t *))                                                                                         \
    X(cusolverStatus_t, cusolverDnXgetrf,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void *, int64_t, int64_t *,           \
       cudaDataType, void *, size_t, void *, size_t, int *))                                                        \
    X(cusolverStatus_t, cusolverDnXgetrs,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, cublasOperation_t, int64_t, int64_t, cudaDataType, const void *,      \
       int64_t, const int64_t *, cudaDataType, void *, int64_t, int *))                                             \
    X(cusolverStatus_t, cusolverDnXsyevd_bufferSize,                                                                \
      (cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t, cudaDataType,           \
       const void *, int64_t, cudaDataType, const void *, cudaDataType, size_t *, size_t *))                        \
    X(cusolverStatus_t, cusolverDnXsyevd,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t, cudaDataType, void *,   \
       int64_t, cudaDataType, void *, cudaDataType, void *, size_t, void *, size_t, int *))                         \
    X(cusolverStatus_t, cusolverDnXgeqrf_bufferSize,                                                                \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, const void *, int64_t, cudaDataType,  \
       const void *, cudaDataType, size_t *, size_t *))                                                             \
    X(cusolverStatus_t, cusolverDnXgeqrf,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void *, int64_t, cudaDataType, void *, \
       cudaDataType, void *, size_t, void *, size_t, int *))                                                        \
    X(cusolverStatus_t, cusolverDnSorgqr_bufferSize, (cusolverDnHandle_t, int, int, int, const float *, int, const float *, int *)) \
    X(cusolverStatus_t, cusolverDnDorgqr_bufferSize, (cusolverDnHandle_t, int, int, int, const double *, int, const double *, int *)) \
    X(cusolverStatus_t, cusolverDnCungqr_bufferSize,                                                                \
      (cusolverDnHandle_t, int, int, int, const cuComplex *, int, const cuComplex *, int *))                        \
    X(cusolverStatus_t, cusolverDnZungqr_bufferSize,                                                                \
      (cusolverDnHandle_t, int, int, int, const cuDoubleComplex *, int, const cuDoubleComplex *, int *))            \
    X(cusolverStatus_t, cusolverDnSorgqr, (cusolverDnHandle_t, int, int, int, float *, int, const float *, float *, int, int *)) \
    X(cusolverStatus_t, cusolverDnDorgqr,                                                                           \
      (cusolverDnHandle_t, int, int, int, double *, int, const double *, double *, int, int *))                     \
    X(cusolverStatus_t, cusolverDnCungqr,                                                                           \
      (cusolverDnHandle_t, int, int, int, cuComplex *, int, const cuComplex *, cuComplex *, int, int *))            \
    X(cusolverStatus_t, cusolverDnZungqr,                                                                           \
      (cusolverDnHandle_t, int, int, int, cuDoubleComplex *, int, const cuDoubleComplex *, cuDoubleComplex *, int, int *)) \
    X(cusolverStatus_t, cusolverDnXgeev_bufferSize,                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t, cudaDataType,          \
       const void *, int64_t, cudaDataType, const void *, cudaDataType, const void *, int64_t, cudaDataType,         \
       const void *, int64_t, cudaDataType, size_t *, size_t *))                                                    \
    X(cusolverStatus_t, cusolverDnXgeev,                                                                            \
      (cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t, cudaDataType, void *,  \
       int64_t, cudaDataType, void *, cudaDataType, void *, int64_t, cudaDataType, void *, int64_t, cudaDataType,    \
       void *, size_t, void *, size_t, int *))                                                                      \
    X(cusolverStatus_t, cusolverDnXgesvd_bufferSize,                                                                \
      (cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, cudaDataType, const void *, \
       int64_t, cudaDataType, const void *, cudaDataType, const void *, int64_t, cudaDataType, const void *, int64_t, \
       cudaDataType, size_t *, size_t *))                                                                           \
    X(cusolverStatus_t, cusolverDnXgesvd,                                                                           \
      (cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, cudaDataType, void *,      \
       int64_t, cudaDataType, void *, cudaDataType, void *, int64_t, cudaDataType, void *, int64_t, cudaDataType,    \
       void *, size_t, void *, size_t, int *))                                                                      \
    X(cusolverStatus_t, cusolverDnCreateSyevjInfo, (syevjInfo_t *))                                                 \
    X(cusolverStatus_t, cusolverDnDestroySyevjInfo, (syevjInfo_t))                                                  \
    GA__CUSOLVER_TYPED(X, S, float, float, syevj) GA__CUSOLVER_TYPED(X, D, double, double, syevj)                  \
    GA__CUSOLVER_TYPED(X, C, cuComplex, float, heevj) GA__CUSOLVER_TYPED(X, Z, cuDoubleComplex, double, heevj)
/* per type T of t (real part r): the Jacobi eigensolver E of a batch */
#define GA__CUSOLVER_TYPED(X, T, t, r, E)                                                                           \
    X(cusolverStatus_t, cusolverDn##T##E##Batched_bufferSize,                                                       \
      (cusolverDnHandle_t, cusolverEigMode_t, cublasFillMode_t, int, const t *, int, const r *, int *, syevjInfo_t,  \
       int))                                                                                                        \
    X(cusolverStatus_t, cusolverDn##T##E##Batched,                                                                  \
      (cusolverDnHandle_t, cusolverEigMode_t, cublasFillMode_t, int, t *, int, r *, t *, int, int *, syevjInfo_t, int))

#define GA__API_FIELD(ret, name, params) ret(*name) params;
typedef struct ga__cublas_api {
    GA__CUBLAS_API(GA__API_FIELD)
} ga__cublas_api;
typedef struct ga__cusolver_api {
    GA__CUSOLVER_API(GA__API_FIELD)
} ga__cusolver_api;
#undef GA__API_FIELD
static ga__cublas_api ga__cublas;
static ga__cusolver_api ga__cusolver;
#endif

/* zlib's z_stream, declared here: the dlopen mode needs no zlib.h (a user
   may not have it). Its layout has been zlib's ABI since 1.0, which the
   soname's 1 promises (zlib-ng's compatible build keeps it too), and
   deflateInit2_ / inflateInit2_ check the size passed to them against
   the library's own. With GPUARR_LINK_CUDA_LIBRARIES (and not
   GPUARR_ZLIB_DLOPEN) the stream is zlib.h's z_stream, and the layout
   below is checked against it. */
struct ga__z_stream_s {
    unsigned char *next_in; /* (z_const Bytef *: const only with ZLIB_CONST) */
    unsigned avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned avail_out;
    unsigned long total_out;
    char *msg;   /* the last error's text, or NULL */
    void *state; /* struct internal_state * */
    void *(*zalloc)(void *, unsigned, unsigned);
    void (*zfree)(void *, void *);
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
};
/* zlib.h's constants that gpuarr uses, and the version string passed to
   the Init functions (zlib compares its first character, the ABI's major
   version, and the stream's size). */
#define GA__Z_OK 0
#define GA__Z_STREAM_END 1
#define GA__Z_NEED_DICT 2
#define GA__Z_STREAM_ERROR (-2)
#define GA__Z_DATA_ERROR (-3)
#define GA__Z_MEM_ERROR (-4)
#define GA__Z_BUF_ERROR (-5)
#define GA__Z_VERSION_ERROR (-6)
#define GA__Z_NO_FLUSH 0
#define GA__Z_FINISH 4
#define GA__Z_DEFLATED 8
#define GA__Z_DEFAULT_COMPRESSION (-1)
#define GA__Z_DEFAULT_STRATEGY 0
#if GA__LINK_ZLIB
typedef z_stream ga__z_stream;
#define GA__ZLIB_VERSION ZLIB_VERSION
#ifdef __cplusplus
#define GA__STATIC_ASSERT(cond, what) static_assert(cond, what)
#else
#define GA__STATIC_ASSERT(cond, what) _Static_assert(cond, what)
#endif
#define GA__Z_SAME_FIELD(f)                                                                   \
    GA__STATIC_ASSERT(offsetof(struct ga__z_stream_s, f) == offsetof(z_stream, f) &&          \
                          sizeof(((struct ga__z_stream_s *)0)->f) == sizeof(((z_stream *)0)->f), \
                      "gpuarr.h's z_stream differs from zlib.h's in " #f);
GA__STATIC_ASSERT(sizeof(struct ga__z_stream_s) == sizeof(z_stream), "gpuarr.h's z_stream differs from zlib.h's in size");
GA__Z_SAME_FIELD(next_in) GA__Z_SAME_FIELD(avail_in) GA__Z_SAME_FIELD(total_in) GA__Z_SAME_FIELD(next_out)
GA__Z_SAME_FIELD(avail_out) GA__Z_SAME_FIELD(total_out) GA__Z_SAME_FIELD(msg) GA__Z_SAME_FIELD(state)
GA__Z_SAME_FIELD(zalloc) GA__Z_SAME_FIELD(zfree) GA__Z_SAME_FIELD(opaque) GA__Z_SAME_FIELD(data_type)
GA__Z_SAME_FIELD(adler) GA__Z_SAME_FIELD(reserved)
GA__STATIC_ASSERT(GA__Z_OK == Z_OK && GA__Z_STREAM_END == Z_STREAM_END && GA__Z_NEED_DICT == Z_NEED_DICT &&
                      GA__Z_STREAM_ERROR == Z_STREAM_ERROR && GA__Z_DATA_ERROR == Z_DATA_ERROR &&
                      GA__Z_MEM_ERROR == Z_MEM_ERROR && GA__Z_BUF_ERROR == Z_BUF_ERROR && GA__Z_VERSION_ERROR == Z_VERSION_ERROR &&
                      GA__Z_NO_FLUSH == Z_NO_FLUSH && GA__Z_FINISH == Z_FINISH && GA__Z_DEFLATED == Z_DEFLATED &&
                      GA__Z_DEFAULT_COMPRESSION == Z_DEFAULT_COMPRESSION && GA__Z_DEFAULT_STRATEGY == Z_DEFAULT_STRATEGY,
                  "gpuarr.h's zlib constants differ from zlib.h's");
#undef GA__Z_SAME_FIELD
#else
typedef struct ga__z_stream_s ga__z_stream;
#define GA__ZLIB_VERSION "1.2.13"
#endif

/* zlib's raw deflate and inflate, their ends, and its version */
#define GA__ZLIB_API(X)                                                                      \
    X(int, deflateInit2_, (ga__z_stream *, int, int, int, int, int, const char *, int))     \
    X(int, deflate, (ga__z_stream *, int))                                                   \
    X(int, deflateEnd, (ga__z_stream *))                                                     \
    X(int, inflateInit2_, (ga__z_stream *, int, const char *, int))                          \
    X(int, inflate, (ga__z_stream *, int))                                                   \
    X(int, inflateEnd, (ga__z_stream *))                                                     \
    X(const char *, zlibVersion, (void))

#define GA__API_FIELD(ret, name, params) ret(*name) params;
typedef struct ga__zlib_api {
    GA__ZLIB_API(GA__API_FIELD)
} ga__zlib_api;
#undef GA__API_FIELD
static ga__zlib_api ga__zlib;

typedef enum ga__library_id {
#define GA__LIBRARY_ENUM(ID, name, soname, env, api, needed) GA__LIB_##ID,
    GA__LIBRARY_LIST(GA__LIBRARY_ENUM)
#undef GA__LIBRARY_ENUM
    GA__NUM_LIBRARIES
} ga__library_id;

/* An entry point: its name, and where its address goes. */
typedef struct ga__entry_point {
    const char *name;
    size_t offset;
} ga__entry_point;

/* A library as loaded: its entry points' table, and whether it loaded. */
typedef struct ga__cuda_library {
    const char *name, *soname, *env, *needed;
    void *table;
    const ga__entry_point *entry_points;
    bool (*link)(void);        /* fills the table from the link: false where it is opened instead */
    int state;                 /* 0: not tried, 1: loaded, -1: failed (message) */
    void *handle;              /* dlopen's */
    char message[400];
} ga__cuda_library;

#define GA__LIBRARY_TABLES(ID, name, soname, env, api, needed)                                \
    static const ga__entry_point ga__##name##_entry_points[] = {                              \
        api(GA__ENTRY_POINT_OF_##ID){NULL, 0}};                                               \
    static bool ga__##name##_link(void) { api(GA__LINK_ENTRY_POINT_OF_##ID) return GA__LINKED_##ID; }
#define GA__ENTRY_POINT_OF_CUBLAS(ret, name, params) {#name, offsetof(ga__cublas_api, name)},
#define GA__ENTRY_POINT_OF_CUSOLVER(ret, name, params) {#name, offsetof(ga__cusolver_api, name)},
#define GA__ENTRY_POINT_OF_ZLIB(ret, name, params) {#name, offsetof(ga__zlib_api, name)},
/* (zlib is linked with the CUDA libraries unless GPUARR_ZLIB_DLOPEN) */
#ifdef GPUARR_LINK_CUDA_LIBRARIES
#define GA__LINK_ENTRY_POINT_OF_CUBLAS(ret, name, params) ga__cublas.name = name;
#define GA__LINK_ENTRY_POINT_OF_CUSOLVER(ret, name, params) ga__cusolver.name = name;
#define GA__LINKED_CUBLAS true
#define GA__LINKED_CUSOLVER true
#else
#define GA__LINK_ENTRY_POINT_OF_CUBLAS(ret, name, params)
#define GA__LINK_ENTRY_POINT_OF_CUSOLVER(ret, name, params)
#define GA__LINKED_CUBLAS false
#define GA__LINKED_CUSOLVER false
#endif
#if GA__LINK_ZLIB
#define GA__LINK_ENTRY_POINT_OF_ZLIB(ret, name, params) ga__zlib.name = name;
#define GA__LINKED_ZLIB true
#else
#define GA__LINK_ENTRY_POINT_OF_ZLIB(ret, name, params)
#define GA__LINKED_ZLIB false
#endif
GA__LIBRARY_LIST(GA__LIBRARY_TABLES)
#undef GA__LIBRARY_TABLES

static ga__cuda_library ga__cuda_libraries[GA__NUM_LIBRARIES + 1] = {
#define GA__LIBRARY_ENTRY(ID, name, soname, env, api, needed) \
    {#name, soname, env, needed, &ga__##name, ga__##name##_entry_points, ga__##name##_link, 0, NULL, ""},
    GA__LIBRARY_LIST(GA__LIBRARY_ENTRY)
#undef GA__LIBRARY_ENTRY
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, ""}};

/* Loads library L (ga__lock held): state 1, or -1 with the message. */
static void ga__library_load_locked(ga__cuda_library *L)
{
    if (L->link()) {
        GA__ATOMIC_STORE(&L->state, 1);
        return;
    }
    const char *path = getenv(L->env);
    if (!path || !*path) path = L->soname;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(L->message, sizeof L->message, "%s could not be loaded: %s", path, dlerror());
        L->state = -1;
        return;
    }
    for (const ga__entry_point *e = L->entry_points; e->name; e++) {
        void *fn = dlsym(h, e->name);
        if (!fn) {
            snprintf(L->message, sizeof L->message, "%s has no %s (%s, %s is needed)", path, e->name, L->soname,
                     L->needed);
            dlclose(h);
            L->state = -1;
            return;
        }
        memcpy((char *)L->table + e->offset, &fn, sizeof fn);
    }
    L->handle = h;
    GA__ATOMIC_STORE(&L->state, 1);
}

/* Library `id`, loaded at the first call; a failure is kept (and named in
   every later call's error) until ga_shutdown. */
static ga_status ga__library_open(const char *func, int id)
{
    ga__cuda_library *L = &ga__cuda_libraries[id];
    if (GA__ATOMIC_LOAD(&L->state) == 1) return GA_OK;
    pthread_mutex_lock(&ga__lock);
    if (L->state == 0) ga__library_load_locked(L);
    int state = L->state;
    pthread_mutex_unlock(&ga__lock);
    return state == 1 ? GA_OK : ga__error(GA_ERROR_LIBRARY, func, "%s", L->message);
}

GPUARR_API ga_status ga_cuda_library_load(const char *name)
{
    static const char func[] = "ga_cuda_library_load";
    if (!name) return ga__null_input(func, "name");
    for (int id = 0; id < GA__NUM_LIBRARIES; id++)
        if (strcmp(ga__cuda_libraries[id].name, name) == 0) return ga__library_open(func, id);
    return ga__error(GA_ERROR_VALUE, func, "'%s' is not a CUDA library gpuarr uses", name);
}

/* The handles (of the sections over a library that are compiled in). */
#ifndef GPUARR_NO_LINALG

/* --- handles ------------------------------------------------------------- */
/* A thread's handle of a library on a device is made at its first use and
   cached in the thread; every handle is also listed here, so that
   ga_shutdown destroys them all (and a new generation empties the caches). */
typedef struct ga__library_handle {
    int library, device;
    void *handle;
} ga__library_handle;

static struct {
    ga__library_handle *made;
    int count, capacity;
    unsigned generation;
} ga__libs;

static GA__TLS struct {
    unsigned generation;
    void *handle[GA__NUM_LIBRARIES + 1][GA_MAX_DEVICES];
    int workspace_bytes[GA_MAX_DEVICES]; /* cuBLAS's, by the device's generation (0: not yet known) */
} ga__libs_t;

static ga_status ga__library_handle_create(const char *func, int id, void **h);
static void ga__library_handle_destroy(int id, void *h);

/* The calling thread's handle of library `id` on `device` (bound), made and
   listed at the first call; NULL with the error. */
static void *ga__library_handle_of(const char *func, int id, int device)
{
    unsigned generation = GA__ATOMIC_LOAD(&ga__libs.generation);
    if (ga__libs_t.generation != generation) {
        memset(&ga__libs_t, 0, sizeof ga__libs_t);
        ga__libs_t.generation = generation;
    }
    void *h = ga__libs_t.handle[id][device];
    if (h) return h;
    if (ga__library_open(func, id) != GA_OK || ga__library_handle_create(func, id, &h) != GA_OK) return NULL;
    pthread_mutex_lock(&ga__lock);
    bool listed = ga__libs.count < ga__libs.capacity;
    if (!listed) {
        int cap = ga__libs.capacity ? ga__libs.capacity * 2 : 16;
        ga__library_handle *m = (ga__library_handle *)GPUARR_MALLOC(sizeof *m * (size_t)cap);
        if (m) {
            if (ga__libs.count) memcpy(m, ga__libs.made, sizeof *m * (size_t)ga__libs.count);
            GPUARR_FREE(ga__libs.made);
            ga__libs.made = m;
            ga__libs.capacity = cap;
            listed = true;
        }
    }
    if (listed) {
        ga__library_handle r = {id, device, h};
        ga__libs.made[ga__libs.count++] = r;
    }
    pthread_mutex_unlock(&ga__lock);
    if (!listed) {
        ga__library_handle_destroy(id, h);
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    ga__libs_t.handle[id][device] = h;
    return h;
}

#ifndef GPUARR_NO_LINALG
/* A cuBLAS failure, with cuBLAS's own words for it. */
static ga_status ga__cublas_error(const char *func, cublasStatus_t r, const char *what)
{
    if (r == CUBLAS_STATUS_ALLOC_FAILED) return ga__error(GA_ERROR_OUT_OF_MEMORY, func, "%s: out of memory", what);
    return ga__error(GA_ERROR_CUDA, func, "%s failed: %s (%d)", what, ga__cublas.cublasGetStatusString(r), (int)r);
}

/* The calling thread's cuBLAS handle on `device` (bound), bound to the
   current stream with a workspace from the pool on it (*workspace, to be
   freed after the calls that use it: stream-ordered). The workspace is the
   size cuBLAS asks for: 32 MiB on Hopper and newer, 4 MiB before. */
static cublasHandle_t ga__cublas_bound(const char *func, int device, ga__block **workspace)
{
    *workspace = NULL;
    cublasHandle_t h = (cublasHandle_t)ga__library_handle_of(func, GA__LIB_CUBLAS, device);
    if (!h) return NULL;
    cublasStatus_t r = ga__cublas.cublasSetStream_v2(h, (cudaStream_t)ga__stream_of(device));
    if (r != CUBLAS_STATUS_SUCCESS) {
        ga__cublas_error(func, r, "cublasSetStream");
        return NULL;
    }
    if (!ga__libs_t.workspace_bytes[device]) {
        int major = 0;
        GA__CU.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ga__g.devices[device].handle);
        ga__libs_t.workspace_bytes[device] = (major >= 9 ? 32 : 4) << 20;
    }
    size_t bytes = (size_t)ga__libs_t.workspace_bytes[device];
    *workspace = ga__device_alloc(func, device, bytes, false);
    if (!*workspace) return NULL;
    r = ga__cublas.cublasSetWorkspace_v2(h, (void *)(uintptr_t)(*workspace)->ptr, bytes);
    if (r != CUBLAS_STATUS_SUCCESS) {
        ga__pool_free(ga__g.devices[device].pool, *workspace);
        *workspace = NULL;
        ga__cublas_error(func, r, "cublasSetWorkspace");
        return NULL;
    }
    return h;
}
#endif

/* A thread's cuSOLVER handle on a device, with the parameters of its
   generic (64-bit) calls. */
typedef struct ga__cusolver_handle {
    cusolverDnHandle_t handle;
    cusolverDnParams_t params;
} ga__cusolver_handle;

/* A cuSOLVER failure; its status has no text of its own in the library. */
static ga_status ga__cusolver_error(const char *func, cusolverStatus_t r, const char *what)
{
    if (r == CUSOLVER_STATUS_ALLOC_FAILED) return ga__error(GA_ERROR_OUT_OF_MEMORY, func, "%s: out of memory", what);
    return ga__error(GA_ERROR_CUDA, func, "%s failed: cusolverStatus_t %d", what, (int)r);
}

/* The calling thread's cuSOLVER handle on `device` (bound), bound to the
   current stream. */
static ga__cusolver_handle *ga__cusolver_bound(const char *func, int device)
{
    ga__cusolver_handle *c = (ga__cusolver_handle *)ga__library_handle_of(func, GA__LIB_CUSOLVER, device);
    if (!c) return NULL;
    cusolverStatus_t r = ga__cusolver.cusolverDnSetStream(c->handle, (cudaStream_t)ga__stream_of(device));
    if (r != CUSOLVER_STATUS_SUCCESS) {
        ga__cusolver_error(func, r, "cusolverDnSetStream");
        return NULL;
    }
    return c;
}

static ga_status ga__library_handle_create(const char *func, int id, void **h)
{
    switch (id) {
#ifndef GPUARR_NO_LINALG
    case GA__LIB_CUBLAS: {
        cublasHandle_t c = NULL;
        cublasStatus_t r = ga__cublas.cublasCreate_v2(&c);
        if (r != CUBLAS_STATUS_SUCCESS) return ga__cublas_error(func, r, "cublasCreate");
        *h = c;
        return GA_OK;
    }
    case GA__LIB_CUSOLVER: {
        ga__cusolver_handle *c = (ga__cusolver_handle *)GPUARR_MALLOC(sizeof *c);
        if (!c) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        cusolverStatus_t r = ga__cusolver.cusolverDnCreate(&c->handle);
        if (r == CUSOLVER_STATUS_SUCCESS) {
            r = ga__cusolver.cusolverDnCreateParams(&c->params);
            if (r != CUSOLVER_STATUS_SUCCESS) ga__cusolver.cusolverDnDestroy(c->handle);
        }
        if (r != CUSOLVER_STATUS_SUCCESS) {
            GPUARR_FREE(c);
            return ga__cusolver_error(func, r, "cusolverDnCreate");
        }
        *h = c;
        return GA_OK;
    }
#endif
    default:
        return ga__error(GA_ERROR_STATE, func, "no handle for library %d", id);
    }
}

static void ga__library_handle_destroy(int id, void *h)
{
    switch (id) {
#ifndef GPUARR_NO_LINALG
    case GA__LIB_CUBLAS:
        ga__cublas.cublasDestroy_v2((cublasHandle_t)h);
        break;
    case GA__LIB_CUSOLVER: {
        ga__cusolver_handle *c = (ga__cusolver_handle *)h;
        ga__cusolver.cusolverDnDestroyParams(c->params);
        ga__cusolver.cusolverDnDestroy(c->handle);
        GPUARR_FREE(c);
        break;
    }
#endif
    default:
        (void)h;
        break;
    }
}

/* Destroys every thread's handles (each with its device's context current),
   empties the threads' caches and lets a failed library be tried again.
   The libraries stay loaded. */
static void ga__libs_shutdown(void)
{
    for (int i = 0; i < ga__libs.count; i++) {
        const ga__library_handle *r = &ga__libs.made[i];
        if (ga__g.devices && r->device < ga__g.device_count && ga__g.devices[r->device].context &&
            GA__CU.CtxSetCurrent(ga__g.devices[r->device].context) == CUDA_SUCCESS)
            ga__library_handle_destroy(r->library, r->handle);
    }
    GPUARR_FREE(ga__libs.made);
    ga__libs.made = NULL;
    ga__libs.count = ga__libs.capacity = 0;
    GA__ATOMIC_STORE(&ga__libs.generation, ga__libs.generation + 1);
    for (int id = 0; id < GA__NUM_LIBRARIES; id++)
        if (ga__cuda_libraries[id].state < 0) ga__cuda_libraries[id].state = 0;
}
#else
/* (no handles: a failed library is tried again) */
static void ga__libs_shutdown(void)
{
    for (int id = 0; id < GA__NUM_LIBRARIES; id++)
        if (ga__cuda_libraries[id].state < 0) ga__cuda_libraries[id].state = 0;
}
#endif

/* >>creation */
/* ------------------------------------------------------------------------ */
/* 12. Creation                                                              */
/* ------------------------------------------------------------------------ */

/* The section's kernels, resolved at first use (fill and eye by item size). */
static struct {
    CUkernel fill[5], eye[5], arange[GA_NUM_DTYPES], linspace[GA_NUM_DTYPES];
} ga__creation_kernels;

/* Binds the current device and makes a C-contiguous array there. */
static ga_array *ga__new_on_current(const char *func, int ndim, const int64_t *shape, ga_dtype dtype)
{
    if (ga__bind(func, ga__t.device) != GA_OK) return NULL;
    return ga__array_new(func, ga__t.device, ndim, shape, dtype);
}

/* Fills the contiguous `a` with `value`: a memset when every element's
   bytes are the same byte, otherwise the fill kernel. */
static ga_status ga__fill(const char *func, ga_array *a, const ga__value16 *value)
{
    size_t itemsize = ga__dtype_sizes[a->dtype], nbytes = (size_t)a->size * itemsize;
    if (nbytes == 0) return GA_OK;
    const unsigned char *b = (const unsigned char *)value;
    bool uniform = true;
    for (size_t i = 1; i < itemsize; i++) uniform = uniform && b[i] == b[0];
    if (uniform) {
        GA__CHECK_CU(func, GA__CU.MemsetD8Async((CUdeviceptr)a->data, b[0], nbytes, ga__stream_of(a->device)),
                     "cuMemsetD8Async");
        return GA_OK;
    }
    int c = ga__size_class(itemsize);
    CUfunction f = ga__kernel(func, GA__FAMILY_CREATION, &ga__creation_kernels.fill[c], "fill", ga__size_names[c], NULL, NULL);
    void *out = (void *)(uintptr_t)a->data;
    int64_t n = a->size;
    ga__value16 v = *value;
    void *args[] = {&out, &n, &v};
    return ga__launch(func, f, a->device, n / 4, args);
}

static ga_array *ga__full_on(const char *func, int device, int ndim, const int64_t *shape,
                             ga_scalar value, ga_dtype dtype)
{
    ga__value16 v;
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (ga__scalar_to_element(func, value, dtype, &v) != GA_OK) return NULL;
    if (ga__bind(func, device) != GA_OK) return NULL;
    ga_array *a = ga__array_new(func, device, ndim, shape, dtype);
    if (a && ga__fill(func, a, &v) != GA_OK) {
        ga_release(a);
        a = NULL;
    }
    return a;
}

GPUARR_API ga_array *ga_empty(int ndim, const int64_t *shape, ga_dtype dtype)
{
    return ga__ret(ga__new_on_current("ga_empty", ndim, shape, dtype));
}

GPUARR_API ga_array *ga_zeros(int ndim, const int64_t *shape, ga_dtype dtype)
{
    return ga__ret(ga__full_on("ga_zeros", ga__t.device, ndim, shape, ga_int(0), dtype));
}

GPUARR_API ga_array *ga_ones(int ndim, const int64_t *shape, ga_dtype dtype)
{
    return ga__ret(ga__full_on("ga_ones", ga__t.device, ndim, shape, ga_int(1), dtype));
}

GPUARR_API ga_array *ga_full(int ndim, const int64_t *shape, ga_scalar value, ga_dtype dtype)
{
    return ga__ret(ga__full_on("ga_full", ga__t.device, ndim, shape, value, dtype));
}

GPUARR_API ga_array *ga_empty_like(const ga_array *a)
{
    static const char func[] = "ga_empty_like";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    return ga__ret(ga__array_new(func, a->device, a->ndim, a->shape, a->dtype));
}

GPUARR_API ga_array *ga_zeros_like(const ga_array *a)
{
    if (!a) { ga__null_input("ga_zeros_like", "a"); return NULL; }
    return ga__ret(ga__full_on("ga_zeros_like", a->device, a->ndim, a->shape, ga_int(0), a->dtype));
}

GPUARR_API ga_array *ga_ones_like(const ga_array *a)
{
    if (!a) { ga__null_input("ga_ones_like", "a"); return NULL; }
    return ga__ret(ga__full_on("ga_ones_like", a->device, a->ndim, a->shape, ga_int(1), a->dtype));
}

GPUARR_API ga_array *ga_full_like(const ga_array *a, ga_scalar value)
{
    if (!a) { ga__null_input("ga_full_like", "a"); return NULL; }
    return ga__ret(ga__full_on("ga_full_like", a->device, a->ndim, a->shape, value, a->dtype));
}

/* Fills a new 1-d array of `n` elements by arange's kernel. */
static ga_array *ga__arange_fill(const char *func, int64_t n, ga_dtype dtype, ga__arange_params p)
{
    if (dtype == GA_BOOL && n > 2) {
        ga__error(GA_ERROR_TYPE, func, "arange() is only supported for booleans when the result has at most length 2.");
        return NULL;
    }
    ga_array *a = ga__new_on_current(func, 1, &n, dtype);
    if (!a || n == 0) return a;
    CUfunction f = ga__kernel(func, GA__FAMILY_CREATION, &ga__creation_kernels.arange[dtype], "arange",
                              ga__dtype_names[dtype], NULL, NULL);
    void *out = (void *)(uintptr_t)a->data;
    void *args[] = {&out, &n, &p};
    if (ga__launch(func, f, a->device, n, args) != GA_OK) {
        ga_release(a);
        return NULL;
    }
    return a;
}

/* arange's parameters for floating (and complex) dtypes: NumPy stores the
   first two elements, then fills start + i * (second - first) in the
   dtype's precision. */
static ga__arange_params ga__arange_float_params(double start, double step, ga_dtype dtype)
{
    ga__arange_params p;
    memset(&p, 0, sizeof p);
    ga_dtype real = dtype == GA_COMPLEX64 ? GA_FLOAT32 : dtype == GA_COMPLEX128 ? GA_FLOAT64 : dtype;
    if (real == GA_FLOAT64) {
        p.start = start;
        p.second = start + step;
        p.delta = p.second - start;
    } else { /* float32, and float16/bfloat16 whose fill runs in float32 */
        ga__value16 e0, e1;
        ga__double_to_element(start, 0, real, &e0);
        ga__double_to_element(start + step, 0, real, &e1);
        float f0, f1;
        if (real == GA_FLOAT32) {
            memcpy(&f0, &e0, 4);
            memcpy(&f1, &e1, 4);
        } else { /* widen the 16-bit elements back to float */
            uint16_t h0, h1;
            memcpy(&h0, &e0, 2);
            memcpy(&h1, &e1, 2);
            if (real == GA_BFLOAT16) {
                uint32_t u0 = (uint32_t)h0 << 16, u1 = (uint32_t)h1 << 16;
                memcpy(&f0, &u0, 4);
                memcpy(&f1, &u1, 4);
            } else {
                f0 = (float)ga__half_to_double(h0);
                f1 = (float)ga__half_to_double(h1);
            }
        }
        p.start = f0;
        p.second = f1;
        p.delta = (double)(f1 - f0);
    }
    return p;
}

GPUARR_API ga_array *ga_arange(double start, double stop, double step, ga_dtype dtype)
{
    static const char func[] = "ga_arange";
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (step == 0) {
        ga__error(GA_ERROR_VALUE, func, "step must not be zero (division by zero)");
        return NULL;
    }
    double len = ceil((stop - start) / step);
    if (isnan(len)) {
        ga__error(GA_ERROR_VALUE, func, "arange: cannot compute length");
        return NULL;
    }
    if (len > 9.2e18) {
        ga__error(GA_ERROR_VALUE, func, "Maximum allowed size exceeded");
        return NULL;
    }
    int64_t n = len > 0 ? (int64_t)len : 0;
    ga__arange_params p;
    char kind = ga__dtype_kinds[dtype];
    if (kind == 'f' || kind == 'c') {
        p = ga__arange_float_params(start, step, dtype);
    } else if (kind == 'b') { /* bool(start), bool(start + step) */
        memset(&p, 0, sizeof p);
        p.istart = start != 0;
        p.isecond = start + step != 0;
    } else { /* NumPy stores int(start) and int(start + step) and fills by their difference */
        ga__value16 e0, e1;
        ga__double_to_element(trunc(start), 0, GA_INT64, &e0);
        ga__double_to_element(trunc(start + step), 0, GA_INT64, &e1);
        memset(&p, 0, sizeof p);
        memcpy(&p.istart, &e0, 8);
        memcpy(&p.isecond, &e1, 8);
        p.idelta = (int64_t)((uint64_t)p.isecond - (uint64_t)p.istart);
    }
    return ga__ret(ga__arange_fill(func, n, dtype, p));
}

/* arange_int for `func`; not tracked by scopes. */
static ga_array *ga__arange_int(const char *func, int64_t start, int64_t stop, int64_t step, ga_dtype dtype)
{
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (step == 0) {
        ga__error(GA_ERROR_VALUE, func, "step must not be zero (division by zero)");
        return NULL;
    }
    uint64_t span, stride;
    int64_t n = 0;
    if (step > 0 && stop > start) {
        span = (uint64_t)stop - (uint64_t)start;
        stride = (uint64_t)step;
        n = (int64_t)((span - 1) / stride + 1);
    } else if (step < 0 && stop < start) {
        span = (uint64_t)start - (uint64_t)stop;
        stride = (uint64_t)0 - (uint64_t)step;
        n = (int64_t)((span - 1) / stride + 1);
    }
    char kind = ga__dtype_kinds[dtype];
    ga__arange_params p;
    if (kind == 'f' || kind == 'c') {
        p = ga__arange_float_params((double)start, (double)step, dtype);
    } else {
        memset(&p, 0, sizeof p);
        p.istart = start;
        p.idelta = step;
        p.isecond = (int64_t)((uint64_t)start + (uint64_t)step);
    }
    return ga__arange_fill(func, n, dtype, p);
}

GPUARR_API ga_array *ga_arange_int(int64_t start, int64_t stop, int64_t step, ga_dtype dtype)
{
    return ga__ret(ga__arange_int("ga_arange_int", start, stop, step, dtype));
}

static ga_array *ga__linspace(const char *func, double start, double stop, int64_t num,
                              bool endpoint, bool log, double base, ga_dtype dtype)
{
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (num < 0) {
        ga__error(GA_ERROR_VALUE, func, "Number of samples, %lld, must be non-negative.", (long long)num);
        return NULL;
    }
    ga__linspace_params p;
    memset(&p, 0, sizeof p);
    double div = endpoint ? (double)(num - 1) : (double)num;
    p.start = start;
    p.stop = stop;
    p.delta = stop - start;
    p.base = base;
    p.endpoint = endpoint;
    p.log = log;
    if (div > 0) {
        p.step = p.delta / div;
        p.div = div;
        p.step_zero = p.step == 0;
    } else { /* one sample with endpoint: y = 0 * delta + start */
        p.div = 1;
        p.step_zero = 1;
    }
    ga_array *a = ga__new_on_current(func, 1, &num, dtype);
    if (!a || num == 0) return ga__ret(a);
    CUfunction f = ga__kernel(func, GA__FAMILY_CREATION, &ga__creation_kernels.linspace[dtype], "linspace",
                              ga__dtype_names[dtype], NULL, NULL);
    void *out = (void *)(uintptr_t)a->data;
    void *args[] = {&out, &num, &p};
    if (ga__launch(func, f, a->device, num, args) != GA_OK) {
        ga_release(a);
        return NULL;
    }
    return ga__ret(a);
}

GPUARR_API ga_array *ga_linspace(double start, double stop, int64_t num, bool endpoint, ga_dtype dtype)
{
    return ga__linspace("ga_linspace", start, stop, num, endpoint, false, 10.0, dtype);
}

GPUARR_API ga_array *ga_logspace(double start, double stop, int64_t num, bool endpoint, double base,
                                 ga_dtype dtype)
{
    return ga__linspace("ga_logspace", start, stop, num, endpoint, true, base, dtype);
}

static ga_array *ga__eye(const char *func, int64_t n, int64_t m, int64_t k, ga_dtype dtype)
{
    if (m < 0) m = n;
    int64_t shape[2] = {n, m};
    ga__value16 one;
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    ga__int_to_element(1, false, dtype, &one);
    ga_array *a = ga__new_on_current(func, 2, shape, dtype);
    if (!a || a->size == 0) return a;
    int c = ga__size_class(ga__dtype_sizes[dtype]);
    CUfunction f = ga__kernel(func, GA__FAMILY_CREATION, &ga__creation_kernels.eye[c], "eye", ga__size_names[c], NULL, NULL);
    void *out = (void *)(uintptr_t)a->data;
    void *args[] = {&out, &n, &m, &k, &one};
    if (ga__launch(func, f, a->device, a->size, args) != GA_OK) {
        ga_release(a);
        return NULL;
    }
    return a;
}

GPUARR_API ga_array *ga_eye(int64_t n, int64_t m, int64_t k, ga_dtype dtype)
{
    return ga__ret(ga__eye("ga_eye", n, m, k, dtype));
}

GPUARR_API ga_array *ga_identity(int64_t n, ga_dtype dtype)
{
    return ga__ret(ga__eye("ga_identity", n, n, 0, dtype));
}

static void ga__creation_shutdown(void) { memset(&ga__creation_kernels, 0, sizeof ga__creation_kernels); }

/* >>transfer */
/* ------------------------------------------------------------------------ */
/* 13. Transfers and casting                                                 */
/* ------------------------------------------------------------------------ */

/* The section's kernels: astype [from][to][variant], transpose by item size. */
enum { GA__COPY_CONTIG, GA__COPY_STRIDED32, GA__COPY_STRIDED64, GA__COPY_NUM_VARIANTS };
static struct {
    CUkernel astype[GA_NUM_DTYPES][GA_NUM_DTYPES][GA__COPY_NUM_VARIANTS];
    CUkernel transpose[5];
} ga__transfer_kernels;

/* Whether a collapsed same-dtype copy is a (batched) transpose: the output
   contiguous along one dim, the input along another, at most one batch dim
   outside both. Fills `layout` as the transpose kernel reads it: shape
   (batch, rows, cols), the output contiguous along cols, the input along
   rows. */
static bool ga__transpose_layout(int nd, const int64_t *shape, int64_t (*st)[GA_MAXDIMS], int64_t itemsize,
                                 ga__copy_layout *layout)
{
    int rows, cols;
    if (nd == 2 && st[0][1] == itemsize && st[1][0] == itemsize) rows = 0, cols = 1;
    else if (nd == 2 && st[0][0] == itemsize && st[1][1] == itemsize) rows = 1, cols = 0;
    else if (nd == 3 && st[0][2] == itemsize && st[1][1] == itemsize) rows = 1, cols = 2;
    else if (nd == 3 && st[0][1] == itemsize && st[1][2] == itemsize) rows = 2, cols = 1;
    else return false;
    int batch = nd == 3 ? 0 : -1;
    layout->ndim = 3;
    layout->size = 1;
    for (int d = 0; d < nd; d++) layout->size *= shape[d];
    layout->shape[0] = batch < 0 ? 1 : shape[batch];
    layout->out_strides[0] = batch < 0 ? 0 : st[0][batch];
    layout->in_strides[0] = batch < 0 ? 0 : st[1][batch];
    layout->shape[1] = shape[rows];
    layout->out_strides[1] = st[0][rows];
    layout->in_strides[1] = st[1][rows];
    layout->shape[2] = shape[cols];
    layout->out_strides[2] = st[0][cols];
    layout->in_strides[2] = st[1][cols];
    return true;
}

/* out[...] = (to) in[...] elementwise over `shape`, both strided, on the
   current stream of `device` (bound). */
static ga_status ga__copy_cast(const char *func, int device, ga_dtype to, uint64_t out,
                               const int64_t *out_strides, ga_dtype from, uint64_t in,
                               const int64_t *in_strides, int ndim, const int64_t *shape)
{
    int64_t sh[GA_MAXDIMS], st[2][GA_MAXDIMS], size = 1;
    for (int d = 0; d < ndim; d++) {
        sh[d] = shape[d];
        st[0][d] = out_strides[d];
        st[1][d] = in_strides[d];
        size *= shape[d];
    }
    if (size == 0) return GA_OK;
    int nd = ga__collapse(ndim, sh, 2, st);
    int64_t isz = (int64_t)ga__dtype_sizes[from], osz = (int64_t)ga__dtype_sizes[to];
    CUstream stream = ga__stream_of(device);
    if (nd == 0 || (nd == 1 && st[0][0] == osz && st[1][0] == isz)) {
        if (from == to) {
            GA__CHECK_CU(func, GA__CU.MemcpyDtoDAsync((CUdeviceptr)out, (CUdeviceptr)in, (size_t)(size * isz), stream),
                         "cuMemcpyDtoDAsync");
            return GA_OK;
        }
        CUfunction f = ga__kernel(func, GA__FAMILY_COPY, &ga__transfer_kernels.astype[from][to][GA__COPY_CONTIG],
                                  "astype", ga__dtype_names[from], ga__dtype_names[to], "contig");
        void *o = (void *)(uintptr_t)out, *i = (void *)(uintptr_t)in;
        void *args[] = {&o, &i, &size};
        const int64_t per_thread = 16 / GA__MAX(isz, osz); /* the kernel's vector of the wider dtype */
        return ga__launch_flat(func, f, device, (size + per_thread - 1) / per_thread, args);
    }
    ga__copy_layout layout;
    memset(&layout, 0, offsetof(ga__copy_layout, shape));
    if (from == to && ga__transpose_layout(nd, sh, st, osz, &layout)) {
        int c = ga__size_class((size_t)osz);
        CUfunction f = ga__kernel(func, GA__FAMILY_COPY, &ga__transfer_kernels.transpose[c], "transpose", ga__size_names[c], NULL, NULL);
        void *o = (void *)(uintptr_t)out, *i = (void *)(uintptr_t)in;
        void *args[] = {&o, &i, &layout};
        int64_t t = osz <= 4 ? 64 : 32; /* the kernel's tile side */
        int64_t tiles = layout.shape[0] * ((layout.shape[1] + t - 1) / t) * ((layout.shape[2] + t - 1) / t);
        return ga__launch(func, f, device, tiles * 256, args);
    }
    layout.ndim = nd;
    layout.size = size;
    for (int d = 0; d < nd; d++) {
        layout.shape[d] = sh[d];
        layout.out_strides[d] = st[0][d];
        layout.in_strides[d] = st[1][d];
    }
    int variant = size < INT32_MAX && ga__fits_int32(nd, sh, st[0]) && ga__fits_int32(nd, sh, st[1])
                      ? GA__COPY_STRIDED32 : GA__COPY_STRIDED64;
    CUfunction f = ga__kernel(func, GA__FAMILY_COPY, &ga__transfer_kernels.astype[from][to][variant], "astype",
                              ga__dtype_names[from], ga__dtype_names[to],
                              variant == GA__COPY_STRIDED32 ? "strided32" : "strided64");
    void *o = (void *)(uintptr_t)out, *i = (void *)(uintptr_t)in;
    void *args[] = {&o, &i, &layout};
    return ga__launch(func, f, device, size, args);
}

/* A new C-contiguous array of `dtype` with a's values (bound to a's device). */
static ga_array *ga__contiguous_copy(const char *func, const ga_array *a, ga_dtype dtype)
{
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *c = ga__array_new(func, a->device, a->ndim, a->shape, dtype);
    if (c && ga__copy_cast(func, a->device, dtype, c->data, c->strides, a->dtype, a->data, a->strides,
                           a->ndim, a->shape) != GA_OK) {
        ga_release(c);
        return NULL;
    }
    return c;
}

GPUARR_API ga_array *ga_copy(const ga_array *a)
{
    if (!a) { ga__null_input("ga_copy", "a"); return NULL; }
    return ga__ret(ga__contiguous_copy("ga_copy", a, a->dtype));
}

GPUARR_API ga_array *ga_astype(const ga_array *a, ga_dtype dtype)
{
    static const char func[] = "ga_astype";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    return ga__ret(ga__contiguous_copy(func, a, dtype));
}

/* x as Python's repr of a float writes it (errors quoting NumPy's): the
   shortest digits that read back as x, "1.0" for whole numbers, exponents
   below 1e-4 and from 1e16. */
static void ga__format_float(char *out, size_t n, double x)
{
    if (isnan(x) || isinf(x)) {
        snprintf(out, n, isnan(x) ? "nan" : x < 0 ? "-inf" : "inf");
        return;
    }
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(out, n, "%.*e", digits - 1, x);
        if (strtod(out, NULL) == x) break;
    }
    snprintf(out, n, "%.*e", digits - 1, x);
    const char *e = strchr(out, 'e');
    int exponent = e ? atoi(e + 1) : 0;
    if (exponent < -4 || exponent >= 16) return;
    snprintf(out, n, "%.*f", digits - 1 - exponent > 0 ? digits - 1 - exponent : 0, x);
    if (!strchr(out, '.')) {
        size_t len = strlen(out);
        if (len + 2 < n) memcpy(out + len, ".0", 3);
    }
}

static ga_array *ga__to_device(const char *func, const ga_array *a, int device);

/* numpy.copyto for `func` (errors name it). */
static ga_status ga__copyto(const char *func, ga_array *dst, const ga_array *src, ga_casting casting)
{
    if (!dst) return ga__null_input(func, "dst");
    if (!src) return ga__null_input(func, "src");
    if (!(dst->flags & GA_WRITEABLE))
        return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    if (!ga_can_cast(src->dtype, dst->dtype, casting))
        return ga__error(GA_ERROR_TYPE, func,
                         "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'",
                         ga__dtype_names[src->dtype], ga__dtype_names[dst->dtype], ga__casting_name(casting));
    /* src's strides broadcast to dst's shape (aligned at the last dim) */
    int64_t strides[GA_MAXDIMS];
    bool ok = src->ndim <= dst->ndim;
    for (int d = 0; ok && d < dst->ndim; d++) {
        int sd = d - (dst->ndim - src->ndim);
        if (sd < 0) strides[d] = 0;
        else if (src->shape[sd] == dst->shape[d]) strides[d] = src->strides[sd];
        else if (src->shape[sd] == 1) strides[d] = 0;
        else ok = false;
    }
    if (!ok) {
        char a[200], b[200];
        ga__format_shape(a, sizeof a, src->ndim, src->shape);
        ga__format_shape(b, sizeof b, dst->ndim, dst->shape);
        return ga__error(GA_ERROR_SHAPE, func, "could not broadcast input array from shape %s into shape %s", a, b);
    }
    if (dst->size == 0) return GA_OK;
    ga_status st = ga__bind(func, dst->device);
    if (st != GA_OK) return st;
    ga_array *tmp = NULL;
    const ga_array *from = src;
    if (src->device != dst->device) {
        from = tmp = ga__to_device(func, src, dst->device);
    } else if (src->buffer == dst->buffer) {
        uint64_t slo, shi, dlo, dhi;
        ga__extent(src, &slo, &shi);
        ga__extent(dst, &dlo, &dhi);
        if (slo < dhi && dlo < shi) from = tmp = ga__contiguous_copy(func, src, src->dtype);
    }
    if (!from) return ga__t.error;
    if (from != src) ga__broadcast_strides(from, dst->ndim, strides); /* of the temporary */
    st = ga__bind(func, dst->device);
    if (st == GA_OK)
        st = ga__copy_cast(func, dst->device, dst->dtype, dst->data, dst->strides, from->dtype, from->data,
                           strides, dst->ndim, dst->shape);
    ga_release(tmp);
    return st;
}

GPUARR_API ga_status ga_copyto(ga_array *dst, const ga_array *src, ga_casting casting)
{
    return ga__copyto("ga_copyto", dst, src, casting);
}

/* Whether host memory at `p` is page-locked (registered with the driver). */
static bool ga__host_is_pinned(const void *p)
{
    /* The plural form answers "not CUDA memory" (type 0) for a pageable
       pointer instead of failing, so that no API call fails by design. */
    unsigned int type = 0;
    CUpointer_attribute attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void *data = &type;
    return GA__CU.PointerGetAttributes(1, &attribute, &data, (CUdeviceptr)(uintptr_t)p) == CUDA_SUCCESS &&
           type == CU_MEMORYTYPE_HOST;
}

/* Copies C-ordered host bytes into the C-contiguous `a`. `wait`: return only
   once `src` may be reused (pageable memory is staged by the driver before
   the copy call returns; page-locked memory needs the stream to finish). */
static ga_status ga__upload(const char *func, ga_array *a, const void *src, bool wait)
{
    size_t nbytes = ga_nbytes(a);
    if (nbytes == 0) return GA_OK;
    CUstream stream = ga__stream_of(a->device);
    GA__CHECK_CU(func, GA__CU.MemcpyHtoDAsync((CUdeviceptr)a->data, src, nbytes, stream), "cuMemcpyHtoDAsync");
    if (wait && ga__host_is_pinned(src))
        GA__CHECK_CU(func, GA__CU.StreamSynchronize(stream), "cuStreamSynchronize");
    return GA_OK;
}

static ga_array *ga__from_host(const char *func, const void *data, int ndim, const int64_t *shape,
                               ga_dtype dtype, bool wait)
{
    ga_array *a = ga__new_on_current(func, ndim, shape, dtype);
    if (!a) return NULL;
    if (a->size && !data) {
        ga__null_input(func, "data");
        ga_release(a);
        return NULL;
    }
    if (ga__upload(func, a, data, wait) != GA_OK) {
        ga_release(a);
        return NULL;
    }
    return ga__ret(a);
}

GPUARR_API ga_array *ga_from_host(const void *data, int ndim, const int64_t *shape, ga_dtype dtype)
{
    return ga__from_host("ga_from_host", data, ndim, shape, dtype, true);
}

GPUARR_API ga_array *ga_from_host_async(const void *data, int ndim, const int64_t *shape, ga_dtype dtype)
{
    return ga__from_host("ga_from_host_async", data, ndim, shape, dtype, false);
}

static ga_status ga__to_host(const char *func, const ga_array *a, void *dst, size_t dst_bytes, bool wait)
{
    if (!a) return ga__null_input(func, "a");
    size_t nbytes = ga_nbytes(a);
    if (dst_bytes < nbytes)
        return ga__error(GA_ERROR_VALUE, func, "the destination holds %zu bytes; the array needs %zu",
                         dst_bytes, nbytes);
    if (nbytes == 0) return GA_OK;
    if (!dst) return ga__null_input(func, "dst");
    ga_status st = ga__bind(func, a->device);
    if (st != GA_OK) return st;
    ga_array *tmp = NULL;
    if (!(a->flags & GA_C_CONTIGUOUS)) {
        tmp = ga__contiguous_copy(func, a, a->dtype);
        if (!tmp) return ga__t.error;
    }
    CUstream stream = ga__stream_of(a->device);
    CUresult r = GA__CU.MemcpyDtoHAsync(dst, (CUdeviceptr)(tmp ? tmp : a)->data, nbytes, stream);
    ga_release(tmp); /* stream-ordered: its memory is reused only after the copy */
    if (r != CUDA_SUCCESS) return ga__cuda_error(func, r, "cuMemcpyDtoHAsync");
    if (wait) GA__CHECK_CU(func, GA__CU.StreamSynchronize(stream), "cuStreamSynchronize");
    return GA_OK;
}

GPUARR_API ga_status ga_to_host(const ga_array *a, void *dst, size_t dst_bytes)
{
    return ga__to_host("ga_to_host", a, dst, dst_bytes, true);
}

GPUARR_API ga_status ga_to_host_async(const ga_array *a, void *dst, size_t dst_bytes)
{
    return ga__to_host("ga_to_host_async", a, dst, dst_bytes, false);
}

static ga_status ga__copy_from_host(const char *func, ga_array *dst, const void *src, size_t src_bytes, bool wait)
{
    if (!dst) return ga__null_input(func, "dst");
    size_t nbytes = ga_nbytes(dst);
    if (src_bytes != nbytes)
        return ga__error(GA_ERROR_VALUE, func, "the source holds %zu bytes; the array needs %zu", src_bytes, nbytes);
    if (!(dst->flags & GA_WRITEABLE))
        return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    if (nbytes == 0) return GA_OK;
    if (!src) return ga__null_input(func, "src");
    ga_status st = ga__bind(func, dst->device);
    if (st != GA_OK) return st;
    if (dst->flags & GA_C_CONTIGUOUS) return ga__upload(func, dst, src, wait);
    ga_array *tmp = ga__array_new(func, dst->device, dst->ndim, dst->shape, dst->dtype);
    if (!tmp) return ga__t.error;
    st = ga__upload(func, tmp, src, wait);
    if (st == GA_OK)
        st = ga__copy_cast(func, dst->device, dst->dtype, dst->data, dst->strides, tmp->dtype, tmp->data,
                           tmp->strides, dst->ndim, dst->shape);
    ga_release(tmp);
    return st;
}

GPUARR_API ga_status ga_copy_from_host(ga_array *dst, const void *src, size_t src_bytes)
{
    return ga__copy_from_host("ga_copy_from_host", dst, src, src_bytes, true);
}

GPUARR_API ga_status ga_copy_from_host_async(ga_array *dst, const void *src, size_t src_bytes)
{
    return ga__copy_from_host("ga_copy_from_host_async", dst, src, src_bytes, false);
}

/* A C-contiguous copy of `a` on `device`; not tracked by scopes. */
static ga_array *ga__to_device(const char *func, const ga_array *a, int device)
{
    if (device == a->device) return ga__contiguous_copy(func, a, a->dtype);
    ga_array *src = (ga_array *)a;
    if (!(a->flags & GA_C_CONTIGUOUS)) {
        src = ga__contiguous_copy(func, a, a->dtype);
        if (!src) return NULL;
    } else {
        ga_retain(src);
    }
    /* the source must be complete before the other device's stream reads it */
    ga_status st = ga__bind(func, a->device);
    if (st == GA_OK && GA__CU.StreamSynchronize(ga__stream_of(a->device)) != CUDA_SUCCESS)
        st = ga__error(GA_ERROR_CUDA, func, "cuStreamSynchronize failed");
    ga_array *out = NULL;
    if (st == GA_OK && ga__bind(func, device) == GA_OK)
        out = ga__array_new(func, device, a->ndim, a->shape, a->dtype);
    if (out && out->size) {
        CUresult r = GA__CU.MemcpyPeerAsync((CUdeviceptr)out->data, ga__g.devices[device].context,
                                            (CUdeviceptr)src->data, ga__g.devices[a->device].context,
                                            ga_nbytes(out), ga__stream_of(device));
        if (r != CUDA_SUCCESS) {
            ga__cuda_error(func, r, "cuMemcpyPeerAsync");
            ga_release(out);
            out = NULL;
        }
    }
    ga_release(src);
    return out;
}

GPUARR_API ga_array *ga_to_device(const ga_array *a, int device)
{
    if (!a) { ga__null_input("ga_to_device", "a"); return NULL; }
    return ga__ret(ga__to_device("ga_to_device", a, device));
}

static void ga__transfer_shutdown(void) { memset(&ga__transfer_kernels, 0, sizeof ga__transfer_kernels); }

/* >>ufunc */
/* ------------------------------------------------------------------------ */
/* 14. Elementwise functions (ufuncs)                                        */
/* ------------------------------------------------------------------------ */

/* How a loop's output dtypes follow from its dtype L (the lists' `result`). */
enum {
    GA__RESULT_SAME,    /* every output is L */
    GA__RESULT_BOOL,    /* bool */
    GA__RESULT_COMPARE, /* bool; int64 against uint64 has its own loops */
    GA__RESULT_ABS,     /* L, or its real dtype when L is complex */
    GA__RESULT_DIVIDE,  /* L; integer and bool inputs take the float64 loop */
    GA__RESULT_LDEXP,   /* L from input 0; input 1 is an integer (int64) */
    GA__RESULT_FREXP,   /* L and int32 */
    GA__RESULT_WHERE,   /* L from inputs 1 and 2; input 0 is bool */
    GA__RESULT_ISCLOSE, /* bool; L from a and result_type(b, 1.0) */
    GA__RESULT_SINC     /* L from result_type(a, 1.0) */
};

/* Loops beyond the dtypes: the comparisons of int64 with uint64. */
enum { GA__LOOP_INT64_UINT64 = GA_NUM_DTYPES, GA__LOOP_UINT64_INT64, GA__NUM_LOOPS };
enum { GA__UFUNC_CONTIG, GA__UFUNC_STRIDED };

/* The section's kernels: loops [ufunc][loop][contig, strided]. */
static struct {
    CUkernel loops[GA_NUM_UFUNCS][GA__NUM_LOOPS][2];
    CUkernel all_true;
} ga__ufunc_kernels;

#define GA__FAMILY_OF_arith GA__FAMILY_ARITH
#define GA__FAMILY_OF_math GA__FAMILY_MATH

typedef struct ga__ufunc_info {
    const char *name;
    int nin, nout;
    uint32_t loops; /* bit d: a loop of dtype d */
    int result;
    ga__family family;
} ga__ufunc_info;

#define GA__LOOP_BIT(A, name, E) | (1u << GA_##E)
#define GA__UFUNC_INFO_1(E, name, loops, result, family) \
    {#name, 1, 1, 0 GA_LOOPS_##loops(GA__LOOP_BIT, ~), GA__RESULT_##result, GA__FAMILY_OF_##family},
#define GA__UFUNC_INFO_2(E, name, loops, result, family) \
    {#name, 2, 1, 0 GA_LOOPS_##loops(GA__LOOP_BIT, ~), GA__RESULT_##result, GA__FAMILY_OF_##family},
#define GA__UFUNC_INFO_N(E, name, nin, nout, loops, result, family) \
    {#name, nin, nout, 0 GA_LOOPS_##loops(GA__LOOP_BIT, ~), GA__RESULT_##result, GA__FAMILY_OF_##family},
static const ga__ufunc_info ga__ufuncs[GA_NUM_UFUNCS] = {
    GA_UFUNC_UNARY_LIST(GA__UFUNC_INFO_1)
    GA_UFUNC_BINARY_LIST(GA__UFUNC_INFO_2)
    GA_UFUNC_OTHER_LIST(GA__UFUNC_INFO_N)
};
#undef GA__UFUNC_INFO_1
#undef GA__UFUNC_INFO_2
#undef GA__UFUNC_INFO_N
#undef GA__LOOP_BIT

/* NumPy's loop order: bool, then integers by size (signed first), floats,
   complex. */
static const ga_dtype ga__loop_order[GA_NUM_DTYPES] = {
    GA_BOOL, GA_INT8, GA_UINT8, GA_INT16, GA_UINT16, GA_INT32, GA_UINT32, GA_INT64, GA_UINT64,
    GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};

/* A resolved loop: its table index and the dtypes its kernels read and
   write. */
typedef struct ga__loop {
    int index; /* a dtype, or GA__LOOP_INT64_UINT64 / GA__LOOP_UINT64_INT64 */
    ga_dtype in[3], out[2];
} ga__loop;

GPUARR_API const char *ga_ufunc_name(ga_ufunc u)
{
    return u >= 0 && u < GA_NUM_UFUNCS ? ga__ufuncs[u].name : NULL;
}
GPUARR_API int ga_ufunc_nin(ga_ufunc u) { return u >= 0 && u < GA_NUM_UFUNCS ? ga__ufuncs[u].nin : -1; }
GPUARR_API int ga_ufunc_nout(ga_ufunc u) { return u >= 0 && u < GA_NUM_UFUNCS ? ga__ufuncs[u].nout : -1; }

static bool ga__is_signed_int(ga_dtype d) { return ga__dtype_kinds[d] == 'i'; }

static bool ga__is_complex(ga_dtype d) { return ga__dtype_kinds[d] == 'c'; }

/* The ufuncs NumPy refuses for bool alone (it would not promote to int8). */
static ga_status ga__ufunc_no_bool_loop(const char *func, ga_ufunc u)
{
    if (u == GA_UFUNC_SUBTRACT)
        return ga__error(GA_ERROR_TYPE, func,
                         "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                         "operator, or the logical_xor function instead.");
    if (u == GA_UFUNC_NEGATIVE)
        return ga__error(GA_ERROR_TYPE, func,
                         "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                         "logical_not function instead.");
    return ga__error(GA_ERROR_TYPE, func, "ufunc '%s' did not contain a loop with signature matching types bool",
                     ga__ufuncs[u].name);
}

/* Chooses the loop of ufunc `u` for inputs of dtypes dt[k] (GA_DTYPE_INVALID:
   the weak scalar sc[k]), as NumPy 2 does. */
static ga_status ga__ufunc_resolve(const char *func, ga_ufunc u, const ga_dtype *dt, const ga_scalar *sc,
                                   ga__loop *loop)
{
    const ga__ufunc_info *info = &ga__ufuncs[u];
    ga_dtype arrays[3];
    ga_scalar scalars[4];
    int na = 0, ns = 0;
    for (int k = 0; k < info->nin; k++) {
        if ((info->result == GA__RESULT_WHERE && k == 0) || (info->result == GA__RESULT_LDEXP && k == 1)) continue;
        if (info->result == GA__RESULT_ISCLOSE && k == 1) {
            /* NumPy's isclose converts b to result_type(b, 1.0) first */
            ga_scalar one = ga_float(1.0);
            ga_dtype b = dt[1] != GA_DTYPE_INVALID ? ga_result_type(1, &dt[1], 1, &one) : GA_DTYPE_INVALID;
            if (b != GA_DTYPE_INVALID) arrays[na++] = b;
            else scalars[ns++] = sc[1].kind == GA_SCALAR_COMPLEX ? sc[1] : one;
            continue;
        }
        if (dt[k] != GA_DTYPE_INVALID) arrays[na++] = dt[k];
        else scalars[ns++] = sc[k];
    }
    if (info->result == GA__RESULT_SINC) scalars[ns++] = ga_float(1.0);
    ga_dtype common = ga_result_type(na, arrays, ns, scalars);
    if (u == GA_UFUNC_ANGLE && !ga__is_complex(common)) { /* NumPy: arctan2(0, a) */
        scalars[ns++] = ga_int(0);
        common = ga_result_type(na, arrays, ns, scalars);
    }
    if (common == GA_DTYPE_INVALID)
        return ga__error(GA_ERROR_TYPE, func, "ufunc '%s': the inputs have no common dtype", info->name);
    if (common == GA_BOOL && (u == GA_UFUNC_SUBTRACT || u == GA_UFUNC_NEGATIVE || u == GA_UFUNC_POSITIVE ||
                              u == GA_UFUNC_SIGN || u == GA_UFUNC_GCD || u == GA_UFUNC_LCM))
        return ga__ufunc_no_bool_loop(func, u);
    if (u == GA_UFUNC_ROUND && common == GA_BOOL) common = GA_FLOAT16; /* NumPy rounds bools with rint */
    /* integers and bools divide in float64 (NumPy's true_divide) */
    bool int_divide = info->result == GA__RESULT_DIVIDE && ga__scalar_rank(common) < 2;
    if (int_divide) common = GA_FLOAT64;
    /* int64 against uint64: NumPy's exact qQ / Qq loops */
    if (info->result == GA__RESULT_COMPARE && dt[0] != GA_DTYPE_INVALID && dt[1] != GA_DTYPE_INVALID &&
        ((ga__is_signed_int(dt[0]) && dt[1] == GA_UINT64) || (dt[0] == GA_UINT64 && ga__is_signed_int(dt[1])))) {
        loop->index = dt[0] == GA_UINT64 ? GA__LOOP_UINT64_INT64 : GA__LOOP_INT64_UINT64;
        loop->in[0] = dt[0] == GA_UINT64 ? GA_UINT64 : GA_INT64;
        loop->in[1] = dt[0] == GA_UINT64 ? GA_INT64 : GA_UINT64;
        loop->in[2] = loop->in[1];
        loop->out[0] = loop->out[1] = GA_BOOL;
        return GA_OK;
    }
    /* NumPy's linear search: the first loop every input casts to safely. A
       weak scalar of a kind no higher than the arrays' takes any loop of its
       kind or above; a higher one counts as its default dtype (NEP 50). The
       functions built from arithmetic (where, isclose, sinc, angle) and
       integer division search with the common dtype alone. */
    bool by_common = info->result == GA__RESULT_WHERE || info->result == GA__RESULT_ISCLOSE ||
                     info->result == GA__RESULT_SINC || u == GA_UFUNC_ANGLE || u == GA_UFUNC_ROUND || int_divide;
    int array_rank = -1;
    for (int i = 0; i < na; i++) array_rank = GA__MAX(array_rank, ga__scalar_rank(arrays[i]));
    if (info->result == GA__RESULT_LDEXP && dt[1] != GA_DTYPE_INVALID) /* ldexp(1, int8 array) is float16 */
        array_rank = GA__MAX(array_rank, ga__scalar_rank(dt[1]));
    ga_dtype chosen = GA_DTYPE_INVALID;
    for (int i = 0; i < GA_NUM_DTYPES && chosen == GA_DTYPE_INVALID; i++) {
        ga_dtype cand = ga__loop_order[i];
        if (!(info->loops >> cand & 1)) continue;
        bool ok = true;
        if (by_common) {
            ok = ga_can_cast(common, cand, GA_CASTING_SAFE);
        } else {
            for (int j = 0; j < na && ok; j++) ok = ga_can_cast(arrays[j], cand, GA_CASTING_SAFE);
            for (int j = 0; j < ns && ok; j++) {
                int rank = ga__weak_rank(scalars[j]);
                ok = rank <= array_rank ? rank <= ga__scalar_rank(cand)
                                        : ga_can_cast(ga_result_type(na, arrays, 1, &scalars[j]), cand,
                                                      GA_CASTING_SAFE);
            }
        }
        if (ok) chosen = cand;
    }
    if (info->result == GA__RESULT_LDEXP) { /* the exponent: any integer (a weak one converts later) */
        bool ok = dt[1] != GA_DTYPE_INVALID ? ga_can_cast(dt[1], GA_INT64, GA_CASTING_SAFE)
                                            : sc[1].kind == GA_SCALAR_BOOL || sc[1].kind == GA_SCALAR_INT ||
                                                  sc[1].kind == GA_SCALAR_UINT;
        if (!ok) chosen = GA_DTYPE_INVALID;
    }
    if (chosen == GA_DTYPE_INVALID) {
        char types[128];
        size_t len = 0;
        for (int k = 0; k < info->nin; k++) {
            const char *name = dt[k] != GA_DTYPE_INVALID ? ga__dtype_names[dt[k]]
                               : sc[k].kind == GA_SCALAR_BOOL    ? "bool (Python)"
                               : sc[k].kind == GA_SCALAR_FLOAT   ? "float (Python)"
                               : sc[k].kind == GA_SCALAR_COMPLEX ? "complex (Python)"
                                                                 : "int (Python)";
            len += (size_t)snprintf(types + len, sizeof types - len, "%s%s", k ? ", " : "", name);
            if (len >= sizeof types) break;
        }
        return ga__error(GA_ERROR_TYPE, func,
                         "ufunc '%s' not supported for the input types (%s), and the inputs could not be safely "
                         "coerced to any supported types according to the casting rule ''safe''",
                         info->name, types);
    }
    loop->index = (int)chosen;
    loop->in[0] = loop->in[1] = loop->in[2] = chosen;
    loop->out[0] = loop->out[1] = chosen;
    switch (info->result) {
    case GA__RESULT_BOOL:
    case GA__RESULT_COMPARE:
    case GA__RESULT_ISCLOSE: loop->out[0] = GA_BOOL; break;
    case GA__RESULT_ABS: loop->out[0] = ga__is_complex(chosen) ? ga__real_of(chosen) : chosen; break;
    case GA__RESULT_LDEXP: loop->in[1] = GA_INT64; break;
    case GA__RESULT_FREXP: loop->out[1] = GA_INT32; break;
    case GA__RESULT_WHERE: loop->in[0] = GA_BOOL; break;
    default: break;
    }
    return GA_OK;
}

GPUARR_API ga_status ga_ufunc_resolve_dtypes(ga_ufunc u, const ga_dtype *in_dtypes, const ga_scalar *in_scalars,
                                             ga_dtype *out_dtypes)
{
    static const char func[] = "ga_ufunc_resolve_dtypes";
    if (u < 0 || u >= GA_NUM_UFUNCS) return ga__error(GA_ERROR_VALUE, func, "invalid ufunc %d", (int)u);
    if (!in_dtypes) return ga__null_input(func, "in_dtypes");
    if (!out_dtypes) return ga__null_input(func, "out_dtypes");
    ga_scalar sc[3];
    for (int k = 0; k < ga__ufuncs[u].nin; k++) {
        if (in_dtypes[k] == GA_DTYPE_INVALID && !in_scalars) return ga__null_input(func, "in_scalars");
        if (in_dtypes[k] != GA_DTYPE_INVALID && !ga__dtype_valid(in_dtypes[k]))
            return ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)in_dtypes[k]);
        sc[k] = in_dtypes[k] == GA_DTYPE_INVALID ? in_scalars[k] : ga_int(0);
    }
    ga__loop loop;
    ga_status st = ga__ufunc_resolve(func, u, in_dtypes, sc, &loop);
    if (st != GA_OK) return st;
    for (int k = 0; k < ga__ufuncs[u].nout; k++) out_dtypes[k] = loop.out[k];
    return GA_OK;
}

/* A comparison with a Python int outside the integer loop's range has the
   same answer everywhere (NumPy 2): 1 or 0, or -1 when the int is in
   range. `k` is the scalar's input position. */
static int ga__compare_out_of_range(ga_ufunc u, ga_scalar s, ga_dtype loop, int k, ga_dtype array)
{
    char kind = ga__dtype_kinds[loop];
    if (array == GA_BOOL) return -1; /* bool against an int compares in int64: NumPy converts the int */
    if ((kind != 'i' && kind != 'u') || (s.kind != GA_SCALAR_INT && s.kind != GA_SCALAR_UINT)) return -1;
    unsigned nbits = 8u * (unsigned)ga__dtype_sizes[loop];
    bool above, below;
    if (s.kind == GA_SCALAR_UINT) {
        above = kind == 'i' ? s.value.u > (nbits == 64 ? (uint64_t)INT64_MAX : (1ull << (nbits - 1)) - 1)
                            : nbits < 64 && s.value.u >> nbits;
        below = false;
    } else if (kind == 'u') {
        below = s.value.i < 0;
        above = nbits < 64 && s.value.i > 0 && (uint64_t)s.value.i >> nbits;
    } else {
        int64_t hi = nbits == 64 ? INT64_MAX : (int64_t)((1ull << (nbits - 1)) - 1);
        above = s.value.i > hi;
        below = s.value.i < -hi - 1;
    }
    if (!above && !below) return -1;
    /* the array side `x` compared with the scalar `s`: x < s when s is above */
    bool x_less = above;
    switch (u) {
    case GA_UFUNC_EQUAL: return 0;
    case GA_UFUNC_NOT_EQUAL: return 1;
    case GA_UFUNC_LESS: return k == 1 ? x_less : !x_less;
    case GA_UFUNC_LESS_EQUAL: return k == 1 ? x_less : !x_less;
    case GA_UFUNC_GREATER: return k == 1 ? !x_less : x_less;
    case GA_UFUNC_GREATER_EQUAL: return k == 1 ? !x_less : x_less;
    default: return -1;
    }
}

/* A new output of `shape` for the ufunc, in the axis order NumPy gives it
   (order K) for the nops operands' strides (broadcast to `shape`): C order
   unless they lay the axes out otherwise. */
static ga_array *ga__ufunc_new_output(const char *func, int device, int ndim, const int64_t *shape, ga_dtype dtype,
                                      int nops, int64_t (*strides)[GA_MAXDIMS])
{
    int perm[GA_MAXDIMS], inverse[GA_MAXDIMS];
    int64_t permuted[GA_MAXDIMS];
    bool c_order = true;
    ga__k_order(ndim, nops, strides, perm);
    for (int d = 0; d < ndim; d++) c_order = c_order && perm[d] == d;
    if (c_order) return ga__array_new(func, device, ndim, shape, dtype);
    for (int d = 0; d < ndim; d++) {
        permuted[d] = shape[perm[d]];
        inverse[perm[d]] = d;
    }
    ga_array *c = ga__array_new(func, device, ndim, permuted, dtype);
    if (!c) return NULL;
    ga_array *v = ga__permuted(func, c, inverse);
    ga_release(c);
    if (v) v->flags |= GA_OWNDATA;
    return v;
}

/* The dtype whose mixtures with loop dtype d the contiguous kernels convert
   in registers (kernels/ufunc.cuh, ga_companion), or GA_DTYPE_INVALID. */
static ga_dtype ga__ufunc_companion(ga_dtype d)
{
    switch (d) {
    case GA_FLOAT64: return GA_FLOAT32;
    case GA_COMPLEX128: return GA_COMPLEX64;
    case GA_COMPLEX64: return GA_FLOAT32;
    case GA_FLOAT32: return GA_FLOAT16;
    default: return GA_DTYPE_INVALID;
    }
}

/* Launches the loop over `ndim`/`shape` for outputs `outs` (of the loop's
   output dtypes) and inputs `ins` (arrays, with broadcast `in_strides`, or
   scalars already converted into `scalar_values`). */
static ga_status ga__ufunc_launch(const char *func, ga_ufunc u, const ga__loop *loop, int ndim, const int64_t *shape,
                                  ga_array *const *outs, const ga_array *const *ins,
                                  int64_t (*in_strides)[GA_MAXDIMS], const ga__value16 *scalar_values,
                                  const double *param, int device)
{
    const ga__ufunc_info *info = &ga__ufuncs[u];
    const int nin = info->nin, nout = info->nout, nops = nin + nout;
    ga__ufunc_args args;
    memset(&args, 0, sizeof args);
    /* dims in the first output's memory order (largest stride first), so
       that transposed operands collapse as well as C-ordered ones */
    int64_t sh[GA_MAXDIMS], st[GA__UFUNC_MAXOPS][GA_MAXDIMS], size = 1;
    int order[GA_MAXDIMS];
    ga__order_by_stride(ndim, outs[0]->strides, order);
    for (int d = 0; d < ndim; d++) {
        sh[d] = shape[order[d]];
        size *= shape[d];
    }
    if (size == 0) return GA_OK;
    for (int k = 0; k < nout; k++) {
        args.ptr[k] = outs[k]->data;
        for (int d = 0; d < ndim; d++) st[k][d] = outs[k]->strides[order[d]];
    }
    for (int k = 0; k < nin; k++) {
        if (ins[k]) {
            args.ptr[nout + k] = ins[k]->data;
            args.dtype[nout + k] = ins[k]->dtype;
        } else {
            args.scalar_mask |= 1 << k;
            args.scalar[k] = scalar_values[k];
            args.dtype[nout + k] = loop->in[k];
        }
        for (int d = 0; d < ndim; d++) st[nout + k][d] = ins[k] ? in_strides[k][order[d]] : 0;
    }
    for (int i = 0; i < 4; i++) args.param[i] = param ? param[i] : 0;
    args.size = size;
    args.rows = 1;
    int nd = ga__collapse(ndim, sh, nops, st);
    /* The contiguous loop takes inputs of the loop's dtypes in one dim, or
       two whose inner one is contiguous in every operand (the outer steps
       are free: 0 for a broadcast row). */
    bool contig_ok = nd <= 2;
    int companions = 0; /* inputs of the loop dtype's companion (the kernels' ga_companion) */
    for (int k = 0; k < nin; k++)
        if (ins[k] && ins[k]->dtype != loop->in[k]) {
            if (nin == 2 && nout == 1 && loop->in[k] == loop->index &&
                ins[k]->dtype == ga__ufunc_companion((ga_dtype)loop->index))
                companions++;
            else
                contig_ok = false;
        }
    if (companions > 1) contig_ok = false;
    for (int k = 0; k < nops && contig_ok && nd > 0; k++) {
        bool is_scalar = k >= nout && !ins[k - nout];
        int64_t itemsize = (int64_t)ga__dtype_sizes[k < nout ? loop->out[k] : ins[k - nout] ? ins[k - nout]->dtype
                                                                                          : loop->in[k - nout]];
        if (!is_scalar && st[k][nd - 1] != itemsize) contig_ok = false;
        if (contig_ok && nd == 2) args.row_step[k] = is_scalar ? 0 : st[k][0];
    }
    if (nd == 2) {
        /* rows go to blocks (blockIdx.y): only long ones */
        if (sh[1] < 2048) contig_ok = false;
        args.rows = sh[0];
    }
    if (nin == 3 && args.scalar_mask) contig_ok = false; /* the contiguous loop takes scalars for 1 or 2 inputs */
    if (loop->index >= GA_NUM_DTYPES) contig_ok = false;  /* int64 against uint64: strided only */
    static const char *const variants[2] = {"contig", "strided"};
    int variant = contig_ok ? GA__UFUNC_CONTIG : GA__UFUNC_STRIDED;
    const char *loop_name = loop->index == GA__LOOP_INT64_UINT64   ? "int64_uint64"
                            : loop->index == GA__LOOP_UINT64_INT64 ? "uint64_int64"
                                                                   : ga__dtype_names[loop->index];
    CUfunction f = ga__kernel(func, info->family, &ga__ufunc_kernels.loops[u][loop->index][variant], info->name,
                              loop_name, NULL, variants[variant]);
    if (variant == GA__UFUNC_CONTIG) {
        void *kargs[] = {&args};
        if (args.rows == 1) { /* a thread per group (ufunc.cuh): 32 bytes of the widest dtype, 16 of 1 or 2 bytes */
            size_t widest = 1;
            for (int k = 0; k < nin; k++) widest = GA__MAX(widest, ga__dtype_sizes[loop->in[k]]);
            for (int k = 0; k < nout; k++) widest = GA__MAX(widest, ga__dtype_sizes[loop->out[k]]);
            int64_t per_thread = (int64_t)((widest >= 4 ? 32 : 16) / widest);
            return ga__launch_flat(func, f, device, (size + per_thread - 1) / per_thread, kargs);
        }
        /* a row's threads take a few vectors each (16 elements), to keep loads in flight */
        return ga__launch_rows(func, f, device, (size / args.rows + 15) / 16, args.rows, kargs);
    }
    ga__ufunc_layout layout;
    layout.ndim = nd;
    layout.unused = 0;
    for (int d = 0; d < nd; d++) {
        layout.shape[d] = sh[d];
        for (int k = 0; k < nops; k++) layout.strides[k][d] = st[k][d];
    }
    /* only the used part of the layout needs to be defined; the rest is zeroed
       so that the launch copies defined bytes */
    for (int d = nd; d < GA_MAXDIMS; d++) {
        layout.shape[d] = 0;
        for (int k = 0; k < GA__UFUNC_MAXOPS; k++) layout.strides[k][d] = 0;
    }
    for (int k = nops; k < GA__UFUNC_MAXOPS; k++)
        for (int d = 0; d < nd; d++) layout.strides[k][d] = 0;
    void *kargs[] = {&args, &layout};
    return ga__launch(func, f, device, size, kargs);
}

/* One ufunc call as its steps fill it in: the checks (inputs, loop,
   shape), the weak scalars, the operands, then the launch. */
typedef struct ga__ufunc_plan {
    const ga__ufunc_info *info;
    ga_dtype dtypes[3];              /* the inputs' dtypes; GA_DTYPE_INVALID: a weak scalar */
    ga_scalar scalars[3];            /* the weak scalars (where dtypes[k] is invalid) */
    int device;                      /* the inputs' */
    ga__loop loop;
    int ndim;                        /* the broadcast shape of the inputs and the given outputs */
    int64_t shape[GA_MAXDIMS];
    ga__value16 values[3];           /* the weak scalars in the loop's dtypes */
    int constant;                    /* >= 0: a comparison's answer everywhere (see the hook) */
    ga_array *made[2];               /* outputs made here: returned through out[k] */
    ga_array *targets[2];            /* what the loop writes: out[k], made[k] or a temporary */
    const ga_array *ins[3];          /* what the loop reads: the inputs or their copies; NULL: scalar */
    int64_t strides[3][GA_MAXDIMS];  /* their broadcast strides */
    ga__temps temps;                 /* outputs of other dtypes, input copies */
    bool power_flag;                 /* integer power of a signed exponent array: the kernel flags a
                                        negative exponent (ga__ufunc_negative_powers) */
} ga__ufunc_plan;

/* The inputs: arrays or valid weak scalars, at least one array, the
   arrays on one device. */
static ga_status ga__ufunc_check_inputs(const char *func, const ga_operand *in, ga__ufunc_plan *p)
{
    const ga_array *first = NULL;
    for (int k = 0; k < p->info->nin; k++) {
        const ga_array *a = in[k].array;
        p->dtypes[k] = a ? a->dtype : GA_DTYPE_INVALID;
        p->scalars[k] = in[k].scalar;
        if (!a && (int)p->scalars[k].kind == -1) { /* ga_operand_array(NULL) */
            char what[16];
            snprintf(what, sizeof what, "input %d", k);
            return ga__null_input(func, what);
        }
        if (!a && (p->scalars[k].kind < GA_SCALAR_BOOL || p->scalars[k].kind > GA_SCALAR_COMPLEX))
            return ga__error(GA_ERROR_VALUE, func, "input %d: invalid scalar kind %d", k, (int)p->scalars[k].kind);
        if (a && !first) first = a;
        if (a && first->device != a->device)
            return ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", first->device,
                             a->device);
    }
    if (!first) return ga__error(GA_ERROR_VALUE, func, "ufunc '%s' needs at least one array input", p->info->name);
    p->device = first->device;
    return GA_OK;
}

/* A given output `o` (out[k]): writeable, on the inputs' device, and the
   loop's output casts to it (same_kind). */
static ga_status ga__ufunc_check_output(const char *func, const ga__ufunc_plan *p, int k, const ga_array *o)
{
    if (!(o->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "output array is read-only");
    if (o->device != p->device)
        return ga__error(GA_ERROR_DEVICE, func, "the output is on device %d, the inputs on device %d", o->device,
                         p->device);
    if (!ga_can_cast(p->loop.out[k], o->dtype, GA_CASTING_SAME_KIND))
        return ga__error(GA_ERROR_TYPE, func,
                         "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule "
                         "'same_kind'",
                         p->info->name, ga__dtype_names[p->loop.out[k]], ga__dtype_names[o->dtype]);
    return GA_OK;
}

/* The broadcast shape of the inputs, then of the inputs and the given
   outputs (checked on the way), which the outputs must have. */
static ga_status ga__ufunc_check_shape(const char *func, const ga_operand *in, ga_array *const *out,
                                       ga__ufunc_plan *p)
{
    int ndims[5], nshapes = 0, bad = 0;
    const int64_t *shapes[5];
    for (int k = 0; k < p->info->nin; k++)
        if (in[k].array) {
            ndims[nshapes] = in[k].array->ndim;
            shapes[nshapes++] = in[k].array->shape;
        }
    int ninputs_shaped = nshapes;
    if (!ga__broadcast_shapes(nshapes, ndims, shapes, &p->ndim, p->shape, &bad))
        return ga__broadcast_error(func, nshapes, ndims, shapes);
    for (int k = 0; k < p->info->nout; k++) {
        if (!out[k]) continue;
        ga_status st = ga__ufunc_check_output(func, p, k, out[k]);
        if (st != GA_OK) return st;
        ndims[nshapes] = out[k]->ndim;
        shapes[nshapes++] = out[k]->shape;
    }
    if (nshapes == ninputs_shaped) return GA_OK;
    int64_t full[GA_MAXDIMS];
    int full_ndim = 0;
    if (!ga__broadcast_shapes(nshapes, ndims, shapes, &full_ndim, full, &bad))
        return ga__broadcast_error(func, nshapes, ndims, shapes);
    bool ok = true;
    for (int k = 0; k < p->info->nout && ok; k++) {
        const ga_array *o = out[k];
        if (!o) continue;
        ok = o->ndim == full_ndim;
        for (int d = 0; ok && d < full_ndim; d++) ok = o->shape[d] == full[d];
    }
    if (!ok) {
        const ga_array *o = out[0] ? out[0] : out[1];
        char a[200], b[200];
        ga__format_shape(a, sizeof a, o->ndim, o->shape);
        ga__format_shape(b, sizeof b, p->ndim, p->shape);
        return ga__error(GA_ERROR_SHAPE, func,
                         "non-broadcastable output operand with shape %s doesn't match the broadcast shape %s", a, b);
    }
    p->ndim = full_ndim;
    memcpy(p->shape, full, sizeof(int64_t) * (size_t)full_ndim);
    return GA_OK;
}

/* The checks before anything is made: the inputs, the loop, the shape
   and the given outputs. */
static ga_status ga__ufunc_check(const char *func, ga_ufunc u, const ga_operand *in, ga_array *const *out,
                                 ga__ufunc_plan *p)
{
    ga_status st = ga__ufunc_check_inputs(func, in, p);
    if (st == GA_OK) st = ga__ufunc_resolve(func, u, p->dtypes, p->scalars, &p->loop);
    if (st == GA_OK) st = ga__ufunc_check_shape(func, in, out, p);
    return st;
}

/* A Python int bound of clip (k = 1 the lower, 2 the upper): NumPy's
   np.clip drops a bound at or beyond the end of an integer `a`'s range on
   its own side (a lower one at or below its minimum, an upper one at or
   above its maximum); here it becomes the loop dtype's own end, which
   clips nothing. Other bounds (of a bool or inexact `a` too) go to the
   conversion, which refuses those out of the loop's range (OverflowError). */
static ga_scalar ga__clip_bound(ga_scalar s, ga_dtype a, ga_dtype loop, int k)
{
    char kind = ga__dtype_kinds[a];
    if ((kind != 'i' && kind != 'u') || (s.kind != GA_SCALAR_INT && s.kind != GA_SCALAR_UINT)) return s;
    unsigned nbits = 8u * (unsigned)ga__dtype_sizes[a];
    uint64_t umax = nbits == 64 ? UINT64_MAX : (1ull << nbits) - 1;
    int64_t imax = nbits == 64 ? INT64_MAX : (int64_t)((1ull << (nbits - 1)) - 1);
    int64_t lowest = kind == 'u' ? 0 : -imax - 1;
    bool neg = s.kind == GA_SCALAR_INT && s.value.i < 0;
    bool drop = k == 1 ? s.kind == GA_SCALAR_INT && s.value.i <= lowest
                       : !neg && s.value.u >= (kind == 'u' ? umax : (uint64_t)imax);
    if (!drop) return s;
    char lk = ga__dtype_kinds[loop];
    if (lk == 'f' || lk == 'c') return ga_float(k == 1 ? -INFINITY : INFINITY);
    unsigned lbits = 8u * (unsigned)ga__dtype_sizes[loop];
    int64_t lmax = lbits == 64 ? INT64_MAX : (int64_t)((1ull << (lbits - 1)) - 1);
    if (lk == 'u') return k == 1 ? ga_int(0) : ga_uint(lbits == 64 ? UINT64_MAX : (1ull << lbits) - 1);
    return k == 1 ? ga_int(-lmax - 1) : ga_int(lmax);
}

/* The hook for weak scalars: input k of ufunc `u`, the weak scalar `s`,
   into `value` in the loop's dtype, with NumPy's quirks of some ufuncs:
   - comparisons: a Python int beyond the integer loop's range gives one
     answer everywhere: *constant becomes it (0 or 1), `value` is unset;
   - logical_and, _or, _xor: only a scalar's truth counts (a float or
     complex one too: 5e-324 is true though float16 rounds it to 0), and
     an int beyond int64 is an OverflowError (NumPy converts it through a
     C long);
   - ldexp: an int exponent goes through NumPy's int32 loop ("Python
     integer 2147483648 out of bounds for int32"), but of a bool x through
     its int64 one;
   - clip: a bound beyond an integer a's range on its own side clips
     nothing (ga__clip_bound).
   `dtypes`: the inputs' dtypes. */
static ga_status ga__ufunc_weak_scalar(const char *func, ga_ufunc u, const ga__loop *loop, int k, ga_scalar s,
                                       const ga_dtype *dtypes, ga__value16 *value, int *constant)
{
    if (ga__ufuncs[u].result == GA__RESULT_COMPARE) {
        *constant = ga__compare_out_of_range(u, s, loop->in[k], k, dtypes[1 - k]);
        if (*constant >= 0) return GA_OK;
    }
    bool logical = u == GA_UFUNC_LOGICAL_AND || u == GA_UFUNC_LOGICAL_OR || u == GA_UFUNC_LOGICAL_XOR;
    if (logical && s.kind == GA_SCALAR_UINT) /* NumPy converts it through a C long */
        return ga__error(GA_ERROR_OVERFLOW, func, "Python int too large to convert to C long");
    if (u == GA_UFUNC_CLIP && dtypes[0] != GA_DTYPE_INVALID) s = ga__clip_bound(s, dtypes[0], loop->in[k], k);
    if (logical && s.kind == GA_SCALAR_INT)
        s = ga_int(s.value.i != 0); /* only its truth counts (NumPy takes any int64 here) */
    if (logical && s.kind == GA_SCALAR_FLOAT) s = ga_float(s.value.f != 0); /* NaN is true */
    if (logical && s.kind == GA_SCALAR_COMPLEX) s = ga_complex(s.value.c.re != 0 || s.value.c.im != 0, 0);
    if (u == GA_UFUNC_LDEXP && k == 1 && s.kind == GA_SCALAR_UINT) /* through a C long */
        return ga__error(GA_ERROR_OVERFLOW, func, "Python int too large to convert to C long");
    if (u == GA_UFUNC_LDEXP && k == 1 && s.kind == GA_SCALAR_INT && dtypes[0] != GA_BOOL &&
        (s.value.i < INT32_MIN || s.value.i > INT32_MAX))
        return ga__error(GA_ERROR_OVERFLOW, func, "Python integer %lld out of bounds for int32", (long long)s.value.i);
    return ga__scalar_to_element(func, s, loop->in[k], value);
}

/* Every weak scalar input through the hook, until a comparison turns
   constant. */
static ga_status ga__ufunc_scalars(const char *func, ga_ufunc u, ga__ufunc_plan *p)
{
    for (int k = 0; k < p->info->nin; k++) {
        if (p->dtypes[k] != GA_DTYPE_INVALID) continue;
        ga_status st = ga__ufunc_weak_scalar(func, u, &p->loop, k, p->scalars[k], p->dtypes, &p->values[k],
                                             &p->constant);
        if (st != GA_OK) return st;
        if (p->constant >= 0) break;
    }
    return GA_OK;
}

/* Integer power: NumPy refuses negative exponents ("Integers to negative
   integer powers are not allowed."), when there is an element to compute.
   A weak scalar exponent is checked here; an array exponent of a signed
   dtype by the kernel, which sets a flag word that ga__ufunc_run reads
   back (p->power_flag: this waits for the stream). */
static ga_status ga__ufunc_negative_powers(const char *func, ga_ufunc u, ga__ufunc_plan *p)
{
    char kind = ga__dtype_kinds[p->loop.index < GA_NUM_DTYPES ? p->loop.index : GA_INT64];
    if (u != GA_UFUNC_POWER || (kind != 'i' && kind != 'u')) return GA_OK;
    int64_t size = 1;
    for (int d = 0; d < p->ndim; d++) size *= p->shape[d];
    if (size == 0) return GA_OK;
    if (p->dtypes[1] == GA_DTYPE_INVALID) {
        if (p->scalars[1].kind == GA_SCALAR_INT && p->scalars[1].value.i < 0)
            return ga__error(GA_ERROR_VALUE, func, "Integers to negative integer powers are not allowed.");
        return GA_OK;
    }
    p->power_flag = ga__dtype_kinds[p->dtypes[1]] == 'i';
    return GA_OK;
}

/* The targets: out[k] itself, an output made here, or a temporary when the
   given one has another dtype (cast into it after the launch), or when the
   kernel may still find an error (p->power_flag: nothing is written then). */
static ga_status ga__ufunc_outputs(const char *func, const ga_operand *in, ga_array *const *out, ga__ufunc_plan *p)
{
    int64_t strides[3][GA_MAXDIMS]; /* the inputs', for order K */
    int nops = 0;
    for (int k = 0; k < p->info->nin; k++)
        if (in[k].array) ga__broadcast_strides(in[k].array, p->ndim, strides[nops++]);
    for (int k = 0; k < p->info->nout; k++) {
        if (out[k] && out[k]->dtype == p->loop.out[k] && !p->power_flag) {
            p->targets[k] = out[k];
            continue;
        }
        int64_t given[1][GA_MAXDIMS]; /* a temporary for out[k]: its layout */
        if (out[k]) ga__broadcast_strides(out[k], p->ndim, given[0]);
        ga_array *t = out[k] ? ga__ufunc_new_output(func, p->device, p->ndim, p->shape, p->loop.out[k], 1, given)
                             : ga__ufunc_new_output(func, p->device, p->ndim, p->shape, p->loop.out[k], nops, strides);
        if (!t) return ga__t.error;
        if (out[k]) p->targets[k] = ga__temp(&p->temps, t);
        else p->targets[k] = p->made[k] = t;
    }
    return GA_OK;
}

/* The inputs as the loop reads them: broadcast strides; copies of those a
   given output overlaps; where's condition as bool. */
static ga_status ga__ufunc_inputs(const char *func, const ga_operand *in, ga_array *const *out, ga__ufunc_plan *p)
{
    const bool where = p->info->result == GA__RESULT_WHERE;
    for (int k = 0; k < p->info->nin; k++) {
        const ga_array *a = in[k].array;
        if (!a) continue;
        ga__broadcast_strides(a, p->ndim, p->strides[k]);
        bool copy = where && k == 0 && a->dtype != GA_BOOL;
        for (int j = 0; j < p->info->nout && !copy; j++)
            if (out[j] && p->targets[j] == out[j]) copy = ga__overlaps_unsafely(a, p->strides[k], p->ndim, out[j]);
        if (copy) {
            ga_dtype to = where && k == 0 ? GA_BOOL : a->dtype;
            a = ga__temp(&p->temps, ga__contiguous_copy(func, a, to));
            if (!a) return ga__t.error;
            ga__broadcast_strides(a, p->ndim, p->strides[k]);
        }
        p->ins[k] = a;
    }
    return GA_OK;
}

/* A comparison's constant answer (p->constant) into its bool target. */
static ga_status ga__ufunc_fill_constant(const char *func, const ga__ufunc_plan *p)
{
    ga__value16 v;
    memset(&v, 0, sizeof v);
    ((uint8_t *)&v)[0] = (uint8_t)p->constant;
    ga_array *one = ga__array_new(func, p->device, 0, p->shape, GA_BOOL);
    ga_status st = one ? ga__fill(func, one, &v) : ga__t.error;
    if (st == GA_OK) {
        int64_t zero[GA_MAXDIMS] = {0};
        st = ga__copy_cast(func, p->device, GA_BOOL, p->targets[0]->data, p->targets[0]->strides, GA_BOOL, one->data,
                           zero, p->ndim, p->shape);
    }
    ga_release(one);
    return st;
}

/* The rounding code of isclose's tolerance (kernels/ufunc.cuh,
   ga_op_isclose): 1 double, 2 float16, 3 bfloat16, 4 float32, by dtype d's
   real part. */
static int ga__isclose_format(ga_dtype d)
{
    return d == GA_FLOAT16 ? 2 : d == GA_BFLOAT16 ? 3 : d == GA_FLOAT32 || d == GA_COMPLEX64 ? 4 : 1;
}

/* A double rounded to the real dtype of d as NumPy's cast does. */
static double ga__round_to_real(double x, ga_dtype d)
{
    switch (ga__isclose_format(d)) {
    case 2: return ga__half_to_double(ga__double_to_half(x));
    case 3: {
        uint32_t bits = (uint32_t)ga__float_to_bfloat16((float)x) << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    case 4: return (float)x;
    default: return x;
    }
}

/* The loop's extra arguments (ga__ufunc_args.param) from the caller's
   `param` and what the loop must know of its operands:
   - isclose: the format NumPy computes atol + rtol |b| in, b's dtype; for
     a Python scalar b, NumPy computes that tolerance and b's finiteness in
     Python floats (double), the tolerance then cast to the loop's dtype by
     the comparison: param {finite, tolerance, equal_nan, format + 8};
   - float32 and float64 power: 1 in param[1] where the exponent is one
     value for every element (a scalar, or an array of zero strides), which
     NumPy's loop takes as sqrt when it is 0.5 (so power(-inf, 0.5) is nan
     and power(-0.0, 0.5) is -0.0, as sqrt's). */
static void ga__ufunc_params(ga_ufunc u, const double *param, const ga__ufunc_plan *p, double pp[4])
{
    for (int i = 0; i < 4; i++) pp[i] = param ? param[i] : 0;
    if (u == GA_UFUNC_ISCLOSE && p->ins[1]) {
        pp[3] = ga__isclose_format(p->ins[1]->dtype);
    } else if (u == GA_UFUNC_ISCLOSE) {
        ga_scalar b = p->scalars[1];
        double re = b.kind == GA_SCALAR_COMPLEX ? b.value.c.re
                    : b.kind == GA_SCALAR_FLOAT  ? b.value.f
                    : b.kind == GA_SCALAR_INT    ? (double)b.value.i
                    : b.kind == GA_SCALAR_UINT   ? (double)b.value.u
                                                 : (double)b.value.b;
        double im = b.kind == GA_SCALAR_COMPLEX ? b.value.c.im : 0;
        pp[1] = pp[1] + pp[0] * hypot(re, im);
        pp[1] = ga__round_to_real(pp[1], p->loop.in[0]);
        pp[0] = isfinite(re) && isfinite(im) ? 1 : 0;
        pp[3] = ga__isclose_format(p->loop.in[0]) + 8;
    } else if (u == GA_UFUNC_POWER && (p->loop.index == GA_FLOAT32 || p->loop.index == GA_FLOAT64)) {
        bool one_value = true;
        for (int d = 0; d < p->ndim && p->ins[1]; d++) one_value = one_value && p->strides[1][d] == 0;
        pp[1] = one_value ? 1 : 0;
    }
}

/* The loop of integer power with a flag word for negative exponents (the
   bits of its device address in param[0]), then the flag read back: an
   error if it was set. */
static ga_status ga__ufunc_launch_flagged(const char *func, ga_ufunc u, const double *param, ga__ufunc_plan *p)
{
    int32_t flag = 0;
    ga__block *word = ga__device_alloc(func, p->device, sizeof flag, false);
    if (!word) return ga__t.error;
    CUstream stream = ga__stream_of(p->device);
    double pp[4];
    memcpy(pp, param, sizeof pp);
    uint64_t address = word->ptr;
    memcpy(&pp[0], &address, sizeof address);
    ga_status st = GA_OK;
    CUresult r = GA__CU.MemsetD8Async((CUdeviceptr)word->ptr, 0, sizeof flag, stream);
    if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemsetD8Async");
    if (st == GA_OK)
        st = ga__ufunc_launch(func, u, &p->loop, p->ndim, p->shape, p->targets, p->ins, p->strides, p->values, pp,
                              p->device);
    if (st == GA_OK) {
        r = GA__CU.MemcpyDtoHAsync(&flag, (CUdeviceptr)word->ptr, sizeof flag, stream);
        if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
        if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemcpyDtoHAsync");
    }
    ga__pool_free(ga__g.devices[p->device].pool, word);
    if (st == GA_OK && flag)
        st = ga__error(GA_ERROR_VALUE, func, "Integers to negative integer powers are not allowed.");
    return st;
}

/* The loop (or the constant), then the temporary targets cast into the
   given outputs. */
static ga_status ga__ufunc_run(const char *func, ga_ufunc u, ga_array *const *out, const double *param,
                               ga__ufunc_plan *p)
{
    double pp[4];
    ga__ufunc_params(u, param, p, pp);
    ga_status st = p->constant >= 0 ? ga__ufunc_fill_constant(func, p)
                   : p->power_flag  ? ga__ufunc_launch_flagged(func, u, pp, p)
                                    : ga__ufunc_launch(func, u, &p->loop, p->ndim, p->shape, p->targets, p->ins,
                                                       p->strides, p->values, pp, p->device);
    for (int k = 0; k < p->info->nout && st == GA_OK; k++)
        if (out[k] && p->targets[k] != out[k])
            st = ga__copy_cast(func, p->device, out[k]->dtype, out[k]->data, out[k]->strides, p->targets[k]->dtype,
                               p->targets[k]->data, p->targets[k]->strides, p->ndim, p->shape);
    return st;
}

/* The work of every ufunc call, in the steps of CuPy's ufunc.__call__:
   checks, weak scalars, operands (out[k] given, or made and stored there
   on success), launch and write-back. */
static ga_status ga__ufunc(const char *func, ga_ufunc u, const ga_operand *in, ga_array **out, const double *param)
{
    ga__ufunc_plan p;
    memset(&p, 0, sizeof p);
    p.info = &ga__ufuncs[u];
    p.constant = -1;
    ga_status st = ga__ufunc_check(func, u, in, out, &p);
    if (st == GA_OK) st = ga__ufunc_scalars(func, u, &p);
    if (st == GA_OK) st = ga__ufunc_negative_powers(func, u, &p);
    if (st == GA_OK) st = ga__bind(func, p.device);
    if (st != GA_OK) return st;
    st = ga__ufunc_outputs(func, in, out, &p);
    if (st == GA_OK) st = ga__ufunc_inputs(func, in, out, &p);
    if (st == GA_OK) st = ga__ufunc_run(func, u, out, param, &p);
    ga__temps_release(&p.temps);
    if (st != GA_OK) {
        ga_release(p.made[0]);
        ga_release(p.made[1]);
        return st;
    }
    for (int k = 0; k < p.info->nout; k++)
        if (p.made[k]) out[k] = p.made[k];
    return GA_OK;
}

GPUARR_API ga_status ga_ufunc_call(ga_ufunc u, const ga_operand *in, ga_array **out)
{
    static const char func[] = "ga_ufunc_call";
    if (u < 0 || u >= GA_NUM_UFUNCS) return ga__error(GA_ERROR_VALUE, func, "invalid ufunc %d", (int)u);
    if (!in) return ga__null_input(func, "in");
    if (!out) return ga__null_input(func, "out");
    bool had[2] = {out[0] != NULL, ga__ufuncs[u].nout > 1 && out[1] != NULL};
    double param[4] = {0, 0, 0, 0};
    switch (u) {
    case GA_UFUNC_ISCLOSE: param[0] = 1e-5, param[1] = 1e-8; break;
    case GA_UFUNC_ROUND: param[1] = 1; break;
    case GA_UFUNC_NAN_TO_NUM: {
        const ga_array *a = in[0].array;
        ga_dtype d = a ? (ga__is_complex(a->dtype) ? ga__real_of(a->dtype) : a->dtype) : GA_FLOAT64;
        double big = d == GA_FLOAT16 ? 65504.0 : d == GA_BFLOAT16 ? 3.3895313892515355e38
                   : d == GA_FLOAT32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
        param[1] = big, param[2] = -big;
        break;
    }
    default: break;
    }
    ga_status st = ga__ufunc(func, u, in, out, param);
    for (int k = 0; k < ga__ufuncs[u].nout && st == GA_OK; k++)
        if (!had[k]) ga__ret(out[k]);
    return st;
}

/* The named forms: new result or out=, arrays or weak scalars. */
static ga_array *ga__ufunc_new(const char *func, ga_ufunc u, const ga_operand *in, const double *param)
{
    ga_array *out[2] = {NULL, NULL};
    if (ga__ufunc(func, u, in, out, param) != GA_OK) return NULL;
    return ga__ret(out[0]);
}
static ga_status ga__ufunc_into(const char *func, ga_ufunc u, const ga_operand *in, ga_array *out)
{
    if (!out) return ga__null_input(func, "out");
    ga_array *outs[2] = {out, NULL};
    return ga__ufunc(func, u, in, outs, NULL);
}

#define GA__DEFINE_UNARY(E, name, loops, result, family)                                     \
    GPUARR_API ga_array *ga_##name(const ga_array *a)                                        \
    {                                                                                        \
        if (!a) { ga__null_input("ga_" #name, "a"); return NULL; }                           \
        ga_operand in[1] = {ga_operand_array(a)};                                            \
        return ga__ufunc_new("ga_" #name, GA_UFUNC_##E, in, NULL);                           \
    }                                                                                        \
    GPUARR_API ga_status ga_##name##_out(const ga_array *a, ga_array *out)                   \
    {                                                                                        \
        if (!a) return ga__null_input("ga_" #name "_out", "a");                              \
        ga_operand in[1] = {ga_operand_array(a)};                                            \
        return ga__ufunc_into("ga_" #name "_out", GA_UFUNC_##E, in, out);                    \
    }
#define GA__DEFINE_BINARY(E, name, loops, result, family)                                    \
    GPUARR_API ga_array *ga_##name(const ga_array *a, const ga_array *b)                     \
    {                                                                                        \
        if (!a || !b) { ga__null_input("ga_" #name, a ? "b" : "a"); return NULL; }           \
        ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};                       \
        return ga__ufunc_new("ga_" #name, GA_UFUNC_##E, in, NULL);                           \
    }                                                                                        \
    GPUARR_API ga_status ga_##name##_out(const ga_array *a, const ga_array *b, ga_array *out) \
    {                                                                                        \
        if (!a || !b) return ga__null_input("ga_" #name "_out", a ? "b" : "a");              \
        ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};                       \
        return ga__ufunc_into("ga_" #name "_out", GA_UFUNC_##E, in, out);                    \
    }                                                                                        \
    GPUARR_API ga_array *ga_##name##_scalar(const ga_array *a, ga_scalar b)                  \
    {                                                                                        \
        if (!a) { ga__null_input("ga_" #name "_scalar", "a"); return NULL; }                 \
        ga_operand in[2] = {ga_operand_array(a), ga_operand_scalar(b)};                      \
        return ga__ufunc_new("ga_" #name "_scalar", GA_UFUNC_##E, in, NULL);                 \
    }                                                                                        \
    GPUARR_API ga_array *ga_##name##_rscalar(ga_scalar a, const ga_array *b)                 \
    {                                                                                        \
        if (!b) { ga__null_input("ga_" #name "_rscalar", "b"); return NULL; }                \
        ga_operand in[2] = {ga_operand_scalar(a), ga_operand_array(b)};                      \
        return ga__ufunc_new("ga_" #name "_rscalar", GA_UFUNC_##E, in, NULL);                \
    }
GA_UFUNC_UNARY_LIST(GA__DEFINE_UNARY)
GA_UFUNC_BINARY_LIST(GA__DEFINE_BINARY)
#undef GA__DEFINE_UNARY
#undef GA__DEFINE_BINARY

/* The functions with two outputs. */
static ga_status ga__ufunc_pair(const char *func, ga_ufunc u, const ga_array *a, const ga_array *b,
                                ga_array **first, ga_array **second)
{
    if (!a) return ga__null_input(func, "a");
    if (ga__ufuncs[u].nin == 2 && !b) return ga__null_input(func, "b");
    if (!first || !second) return ga__null_input(func, first ? "second output" : "first output");
    *first = *second = NULL;
    ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};
    ga_array *out[2] = {NULL, NULL};
    ga_status st = ga__ufunc(func, u, in, out, NULL);
    if (st != GA_OK) return st;
    *first = ga__ret(out[0]);
    *second = ga__ret(out[1]);
    return GA_OK;
}

GPUARR_API ga_status ga_divmod(const ga_array *a, const ga_array *b, ga_array **quotient, ga_array **remainder)
{
    return ga__ufunc_pair("ga_divmod", GA_UFUNC_DIVMOD, a, b, quotient, remainder);
}

GPUARR_API ga_status ga_modf(const ga_array *a, ga_array **fraction, ga_array **integral)
{
    return ga__ufunc_pair("ga_modf", GA_UFUNC_MODF, a, NULL, fraction, integral);
}

GPUARR_API ga_status ga_frexp(const ga_array *a, ga_array **mantissa, ga_array **exponent)
{
    return ga__ufunc_pair("ga_frexp", GA_UFUNC_FREXP, a, NULL, mantissa, exponent);
}

GPUARR_API ga_array *ga_where(const ga_array *cond, const ga_array *x, const ga_array *y)
{
    static const char func[] = "ga_where";
    if (!cond || !x || !y) {
        ga__null_input(func, !cond ? "cond" : !x ? "x" : "y");
        return NULL;
    }
    ga_operand in[3] = {ga_operand_array(cond), ga_operand_array(x), ga_operand_array(y)};
    return ga__ufunc_new(func, GA_UFUNC_WHERE, in, NULL);
}

/* clip with a missing bound is maximum or minimum. */
static ga_array *ga__clip(const char *func, const ga_array *a, ga_operand lo, ga_operand hi, bool has_lo, bool has_hi)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (!has_lo && !has_hi) {
        ga__error(GA_ERROR_VALUE, func, "One of max or min must be given");
        return NULL;
    }
    if (!has_lo || !has_hi) {
        ga_operand in[2] = {ga_operand_array(a), has_lo ? lo : hi};
        return ga__ufunc_new(func, has_lo ? GA_UFUNC_MAXIMUM : GA_UFUNC_MINIMUM, in, NULL);
    }
    ga_operand in[3] = {ga_operand_array(a), lo, hi};
    return ga__ufunc_new(func, GA_UFUNC_CLIP, in, NULL);
}

GPUARR_API ga_array *ga_clip(const ga_array *a, const ga_array *lo, const ga_array *hi)
{
    return ga__clip("ga_clip", a, ga_operand_array(lo), ga_operand_array(hi), lo != NULL, hi != NULL);
}

GPUARR_API ga_array *ga_clip_scalar(const ga_array *a, ga_scalar lo, ga_scalar hi)
{
    return ga__clip("ga_clip_scalar", a, ga_operand_scalar(lo), ga_operand_scalar(hi), true, true);
}

GPUARR_API ga_array *ga_isclose(const ga_array *a, const ga_array *b, double rtol, double atol, bool equal_nan)
{
    static const char func[] = "ga_isclose";
    if (!a || !b) {
        ga__null_input(func, a ? "b" : "a");
        return NULL;
    }
    ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};
    double param[4] = {rtol, atol, equal_nan ? 1.0 : 0.0, 0};
    return ga__ufunc_new(func, GA_UFUNC_ISCLOSE, in, param);
}

GPUARR_API ga_status ga_allclose(const ga_array *a, const ga_array *b, double rtol, double atol, bool equal_nan,
                                 bool *result)
{
    static const char func[] = "ga_allclose";
    if (!result) return ga__null_input(func, "result");
    if (!a || !b) return ga__null_input(func, a ? "b" : "a");
    ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};
    double param[4] = {rtol, atol, equal_nan ? 1.0 : 0.0, 0};
    ga_array *out[2] = {NULL, NULL};
    ga_status st = ga__ufunc(func, GA_UFUNC_ISCLOSE, in, out, param);
    if (st != GA_OK) return st;
    ga_array *close = out[0];
    int64_t n = close->size;
    int32_t flag = 1;
    ga__block *flag_block = n ? ga__device_alloc(func, close->device, sizeof flag, false) : NULL;
    if (n && !flag_block) st = ga__t.error;
    CUstream stream = ga__stream_of(close->device);
    if (st == GA_OK && n) {
        CUresult r = GA__CU.MemcpyHtoDAsync((CUdeviceptr)flag_block->ptr, &flag, sizeof flag, stream);
        CUfunction f = r == CUDA_SUCCESS ? ga__kernel(func, GA__FAMILY_ARITH, &ga__ufunc_kernels.all_true, "all_true", NULL, NULL, NULL)
                                         : NULL;
        if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemcpyHtoDAsync");
        else {
            void *p = (void *)(uintptr_t)close->data, *fp = (void *)(uintptr_t)flag_block->ptr;
            void *kargs[] = {&p, &n, &fp};
            st = ga__launch(func, f, close->device, n / 16 + 1, kargs);
        }
        if (st == GA_OK) {
            r = GA__CU.MemcpyDtoHAsync(&flag, (CUdeviceptr)flag_block->ptr, sizeof flag, stream);
            if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
            if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemcpyDtoHAsync");
        }
    }
    if (flag_block) ga__pool_free(ga__g.devices[close->device].pool, flag_block);
    ga_release(close);
    if (st == GA_OK) *result = flag != 0;
    return st;
}

GPUARR_API ga_array *ga_round(const ga_array *a, int decimals)
{
    static const char func[] = "ga_round";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (a->dtype == GA_BOOL && decimals != 0) { /* NumPy multiplies by 10.0**decimals in place */
        ga__error(GA_ERROR_TYPE, func,
                  "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with casting rule "
                  "'same_kind'");
        return NULL;
    }
    ga_operand in[1] = {ga_operand_array(a)};
    double param[4] = {(double)decimals, pow(10.0, decimals < 0 ? -decimals : decimals), 0, 0};
    return ga__ufunc_new(func, GA_UFUNC_ROUND, in, param);
}

GPUARR_API ga_array *ga_nan_to_num_values(const ga_array *a, double nan, double posinf, double neginf)
{
    static const char func[] = "ga_nan_to_num_values";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    ga_operand in[1] = {ga_operand_array(a)};
    double param[4] = {nan, posinf, neginf, 0};
    return ga__ufunc_new(func, GA_UFUNC_NAN_TO_NUM, in, param);
}

GPUARR_API ga_array *ga_nan_to_num(const ga_array *a)
{
    if (!a) {
        ga__null_input("ga_nan_to_num", "a");
        return NULL;
    }
    ga_operand in[1] = {ga_operand_array(a)};
    ga_array *out[2] = {NULL, NULL};
    ga_status st = ga_ufunc_call(GA_UFUNC_NAN_TO_NUM, in, out);
    return st == GA_OK ? out[0] : NULL;
}

GPUARR_API ga_array *ga_angle(const ga_array *a, bool deg)
{
    static const char func[] = "ga_angle";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    ga_operand in[1] = {ga_operand_array(a)};
    double param[4] = {deg ? 1.0 : 0.0, 0, 0, 0};
    return ga__ufunc_new(func, GA_UFUNC_ANGLE, in, param);
}

/* A view of the real (part 0) or imaginary (part 1) floats of a complex array. */
static ga_array *ga__complex_part(const char *func, const ga_array *a, int part)
{
    ga_dtype r = ga__real_of(a->dtype);
    GA__ATOMIC_ADD(&a->buffer->refcount, 1);
    ga_array *v = ga__array_wrap(func, a->buffer, r, a->ndim, a->shape, a->strides,
                                 a->data + (uint64_t)part * ga__dtype_sizes[r]);
    if (v && !(a->flags & GA_WRITEABLE)) v->flags &= ~GA_WRITEABLE;
    return v;
}

GPUARR_API ga_array *ga_real(const ga_array *a)
{
    if (!a) {
        ga__null_input("ga_real", "a");
        return NULL;
    }
    if (ga__is_complex(a->dtype)) return ga__ret(ga__complex_part("ga_real", a, 0));
    ga_retain((ga_array *)a);
    return ga__ret((ga_array *)a);
}

GPUARR_API ga_array *ga_imag(const ga_array *a)
{
    static const char func[] = "ga_imag";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (ga__is_complex(a->dtype)) return ga__ret(ga__complex_part(func, a, 1));
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    return ga__ret(ga__full_on(func, a->device, a->ndim, a->shape, ga_int(0), a->dtype));
}

static void ga__ufunc_shutdown(void) { memset(&ga__ufunc_kernels, 0, sizeof ga__ufunc_kernels); }

/* >>manip */
/* ------------------------------------------------------------------------ */
/* 15. Shape manipulation                                                    */
/* ------------------------------------------------------------------------ */
/* Views are computed on the host as layouts (shape, byte strides, byte
   offset of the first element from the base's) and need no GPU; copies go
   through ga__copy_cast. */

/* The section's kernels: tri by item size. */
static struct {
    CUkernel tri[5];
} ga__manip_kernels;

/* A requested shape as NumPy prints it: -1 is "newaxis", dropped when
   leading. */
static void ga__format_requested_shape(char *out, size_t n, int ndim, const int64_t *shape)
{
    int d = 0;
    while (d < ndim && shape[d] < 0) d++;
    if (d == ndim) {
        snprintf(out, n, "()");
        return;
    }
    size_t len = (size_t)snprintf(out, n, "(%lld", (long long)shape[d++]);
    for (; d < ndim && len < n; d++) {
        if (shape[d] < 0) len += (size_t)snprintf(out + len, n - len, ",newaxis");
        else len += (size_t)snprintf(out + len, n - len, ",%lld", (long long)shape[d]);
    }
    if (len < n) snprintf(out + len, n - len, ndim == 1 ? ",)" : ")");
}

/* NumPy's reshape without copying, in C order: strides for `shape` over
   a's memory, or false when a copy is needed. */
static bool ga__reshape_strides(const ga_array *a, int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t olddims[GA_MAXDIMS], oldstrides[GA_MAXDIMS];
    int oldnd = 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != 1) {
            olddims[oldnd] = a->shape[d];
            oldstrides[oldnd++] = a->strides[d];
        }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < ndim && oi < oldnd) {
        int64_t np = shape[ni], op = olddims[oi], next; /* the products stay within a's size */
        while (np != op) {
            if (np < op) {
                if (nj >= ndim || ga__mul_overflow(np, shape[nj++], &np)) return false;
            } else if (oj >= oldnd || ga__mul_overflow(op, olddims[oj++], &op)) {
                return false;
            }
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (ga__mul_overflow(olddims[ok + 1], oldstrides[ok + 1], &next) || oldstrides[ok] != next) return false;
        strides[nj - 1] = oldstrides[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--)
            if (ga__mul_overflow(strides[nk], shape[nk], &strides[nk - 1])) return false;
        ni = nj++;
        oi = oj++;
    }
    int64_t last = ni >= 1 ? strides[ni - 1] : (int64_t)ga__dtype_sizes[a->dtype];
    for (int nk = ni; nk < ndim; nk++) strides[nk] = last;
    return true;
}

/* reshape for `func`; not tracked by scopes. */
static ga_array *ga__reshape(const char *func, const ga_array *a, int ndim, const int64_t *shape)
{
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (ndim < 0 || ndim > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "ndim %d is out of range (0 to %d)", ndim, GA_MAXDIMS);
        return NULL;
    }
    if (ndim > 0 && !shape) { ga__null_input(func, "shape"); return NULL; }
    ga__layout l;
    l.ndim = ndim;
    l.offset = 0;
    int unknown = -1;
    int64_t known = 1; /* the product of the given dims; -1: beyond int64, which no size matches */
    for (int d = 0; d < ndim; d++) {
        l.shape[d] = shape[d];
        if (shape[d] < 0) {
            if (unknown >= 0) {
                ga__error(GA_ERROR_VALUE, func, "can only specify one unknown dimension");
                return NULL;
            }
            unknown = d;
        } else if (ga__mul_overflow(known, shape[d], &known)) {
            known = -1; /* as NumPy's _fix_unknown_dimension: at once the size mismatch below */
            break;
        }
    }
    if (unknown >= 0 && known > 0 && a->size % known == 0) l.shape[unknown] = a->size / known;
    else if (unknown >= 0) known = -1; /* no fit: the message below */
    if (known < 0 || (unknown < 0 && known != a->size)) {
        char text[400];
        ga__format_requested_shape(text, sizeof text, ndim, shape);
        ga__error(GA_ERROR_VALUE, func, "cannot reshape array of size %lld into shape %s", (long long)a->size, text);
        return NULL;
    }
    bool same = ndim == a->ndim;
    for (int d = 0; same && d < ndim; d++) same = l.shape[d] == a->shape[d];
    if (same) {
        for (int d = 0; d < ndim; d++) l.strides[d] = a->strides[d];
        return ga__view(func, a, &l, true);
    }
    if (a->flags & GA_C_CONTIGUOUS) {
        ga__fill_c_strides(&l, (int64_t)ga__dtype_sizes[a->dtype]);
        return ga__view(func, a, &l, true);
    }
    if (a->size > 0 && ga__reshape_strides(a, ndim, l.shape, l.strides))
        return ga__view(func, a, &l, true);
    ga_array *c = ga__contiguous_copy(func, a, a->dtype);
    if (!c) return NULL;
    ga__fill_c_strides(&l, (int64_t)ga__dtype_sizes[a->dtype]);
    ga_array *v = ga__view(func, c, &l, true);
    if (v) v->flags |= GA_OWNDATA; /* the copy is the view's alone */
    ga_release(c);
    return v;
}

GPUARR_API ga_array *ga_reshape(const ga_array *a, int ndim, const int64_t *shape)
{
    return ga__ret(ga__reshape("ga_reshape", a, ndim, shape));
}

GPUARR_API ga_array *ga_ravel(const ga_array *a)
{
    if (!a) { ga__null_input("ga_ravel", "a"); return NULL; }
    int64_t n = a->size;
    return ga__ret(ga__reshape("ga_ravel", a, 1, &n)); /* a view exactly when a is C-contiguous */
}

GPUARR_API ga_array *ga_flatten(const ga_array *a)
{
    static const char func[] = "ga_flatten";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *c = ga__contiguous_copy(func, a, a->dtype);
    if (!c) return NULL;
    ga__layout l;
    l.ndim = 1;
    l.offset = 0;
    l.shape[0] = a->size;
    l.strides[0] = (int64_t)ga__dtype_sizes[a->dtype];
    ga_array *v = ga__view(func, c, &l, true);
    if (v) v->flags |= GA_OWNDATA;
    ga_release(c);
    return ga__ret(v);
}

static ga_array *ga__squeeze(const char *func, const ga_array *a, int naxes, const int *axes)
{
    bool drop[GA_MAXDIMS] = {false};
    if (naxes == 0 && !axes) {
        for (int d = 0; d < a->ndim; d++) drop[d] = a->shape[d] == 1;
    } else {
        int ax[GA_MAXDIMS + 1]; /* a repeat or a bad axis stops the walk by ndim + 1 entries */
        if (ga__normalize_axes(func, "duplicate value in 'axis'", naxes, axes, a->ndim, ax) != GA_OK) return NULL;
        for (int i = 0; i < naxes; i++) {
            if (a->shape[ax[i]] != 1) {
                ga__error(GA_ERROR_VALUE, func, "cannot select an axis to squeeze out which has size not equal to one");
                return NULL;
            }
            drop[ax[i]] = true;
        }
    }
    ga__layout l;
    l.ndim = 0;
    l.offset = 0;
    for (int d = 0; d < a->ndim; d++)
        if (!drop[d]) {
            l.shape[l.ndim] = a->shape[d];
            l.strides[l.ndim++] = a->strides[d];
        }
    return ga__view(func, a, &l, true);
}

GPUARR_API ga_array *ga_squeeze(const ga_array *a, int naxes, const int *axes)
{
    if (!a) { ga__null_input("ga_squeeze", "a"); return NULL; }
    if (naxes > 0 && !axes) { ga__null_input("ga_squeeze", "axes"); return NULL; }
    return ga__ret(ga__squeeze("ga_squeeze", a, naxes, axes));
}

/* a's layout with unit axes inserted at the given positions of the result. */
/* a with unit axes at the given positions of the result: a reshape, as in
   NumPy (which gives the new axes the strides reshape would). */
static ga_array *ga__expand_dims(const char *func, const ga_array *a, int naxes, const int *axes)
{
    int ax[GA_MAXDIMS + 1];
    if (naxes < 0 || naxes > GA_MAXDIMS - a->ndim) {
        ga__error(GA_ERROR_VALUE, func, "the result would have %lld dimensions (at most %d)",
                  (long long)a->ndim + naxes, GA_MAXDIMS);
        return NULL;
    }
    int ndim = a->ndim + naxes;
    if (ga__normalize_axes(func, "repeated axis", naxes, axes, ndim, ax) != GA_OK) return NULL;
    bool added[GA_MAXDIMS] = {false};
    for (int i = 0; i < naxes; i++) added[ax[i]] = true;
    int64_t shape[GA_MAXDIMS];
    for (int d = 0, src = 0; d < ndim; d++) shape[d] = added[d] ? 1 : a->shape[src++];
    return ga__reshape(func, a, ndim, shape);
}

GPUARR_API ga_array *ga_expand_dims(const ga_array *a, int naxes, const int *axes)
{
    if (!a) { ga__null_input("ga_expand_dims", "a"); return NULL; }
    if (naxes > 0 && !axes) { ga__null_input("ga_expand_dims", "axes"); return NULL; }
    return ga__ret(ga__expand_dims("ga_expand_dims", a, naxes, axes));
}

static ga_array *ga__transpose(const char *func, const ga_array *a, const int *axes)
{
    int perm[GA_MAXDIMS];
    if (!axes) {
        for (int d = 0; d < a->ndim; d++) perm[d] = a->ndim - 1 - d;
    } else if (ga__normalize_axes(func, "repeated axis in transpose", a->ndim, axes, a->ndim, perm) != GA_OK) {
        return NULL;
    }
    return ga__permuted(func, a, perm);
}

GPUARR_API ga_array *ga_transpose(const ga_array *a, const int *axes)
{
    if (!a) { ga__null_input("ga_transpose", "a"); return NULL; }
    return ga__ret(ga__transpose("ga_transpose", a, axes));
}

GPUARR_API ga_array *ga_permute_dims(const ga_array *a, const int *axes)
{
    if (!a) { ga__null_input("ga_permute_dims", "a"); return NULL; }
    if (!axes) { ga__null_input("ga_permute_dims", "axes"); return NULL; }
    return ga__ret(ga__transpose("ga_permute_dims", a, axes));
}

GPUARR_API ga_array *ga_swapaxes(const ga_array *a, int axis1, int axis2)
{
    static const char func[] = "ga_swapaxes";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (ga__normalize_axis(func, "axis1: ", &axis1, a->ndim) != GA_OK ||
        ga__normalize_axis(func, "axis2: ", &axis2, a->ndim) != GA_OK)
        return NULL;
    int perm[GA_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) perm[d] = d;
    perm[axis1] = axis2;
    perm[axis2] = axis1;
    return ga__ret(ga__permuted(func, a, perm));
}

GPUARR_API ga_array *ga_moveaxis(const ga_array *a, int n, const int *source, const int *destination)
{
    static const char func[] = "ga_moveaxis";
    int src[GA_MAXDIMS], dst[GA_MAXDIMS], perm[GA_MAXDIMS];
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (n > 0 && (!source || !destination)) { ga__null_input(func, "source or destination"); return NULL; }
    if (n < 0 || n > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "`source` and `destination` arguments must have the same number of elements");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        src[i] = source[i];
        dst[i] = destination[i];
        if (ga__normalize_axis(func, "source: ", &src[i], a->ndim) != GA_OK) return NULL;
        for (int j = 0; j < i; j++)
            if (src[j] == src[i]) {
                ga__error(GA_ERROR_VALUE, func, "repeated axis in `source` argument");
                return NULL;
            }
    }
    for (int i = 0; i < n; i++) {
        if (ga__normalize_axis(func, "destination: ", &dst[i], a->ndim) != GA_OK) return NULL;
        for (int j = 0; j < i; j++)
            if (dst[j] == dst[i]) {
                ga__error(GA_ERROR_VALUE, func, "repeated axis in `destination` argument");
                return NULL;
            }
    }
    /* NumPy: the other axes in order, then each source inserted at its destination (ascending) */
    int order[GA_MAXDIMS], k = 0;
    bool moved[GA_MAXDIMS] = {false};
    for (int i = 0; i < n; i++) moved[src[i]] = true;
    for (int d = 0; d < a->ndim; d++)
        if (!moved[d]) order[k++] = d;
    for (int step = 0; step < n; step++) { /* insert by ascending destination */
        int best = -1;
        for (int i = 0; i < n; i++)
            if (dst[i] >= 0 && (best < 0 || dst[i] < dst[best])) best = i;
        for (int j = k; j > dst[best]; j--) order[j] = order[j - 1];
        order[dst[best]] = src[best];
        k++;
        dst[best] = -1;
    }
    for (int d = 0; d < a->ndim; d++) perm[d] = order[d];
    return ga__ret(ga__permuted(func, a, perm));
}

GPUARR_API ga_array *ga_broadcast_to(const ga_array *a, int ndim, const int64_t *shape)
{
    static const char func[] = "ga_broadcast_to";
    int64_t size;
    if (!a) { ga__null_input(func, "a"); return NULL; }
    for (int d = 0; d < ndim && shape; d++)
        if (shape[d] < 0) {
            ga__error(GA_ERROR_VALUE, func, "all elements of broadcast shape must be non-negative");
            return NULL;
        }
    if (ga__check_shape(func, ndim, shape, (int64_t)ga__dtype_sizes[a->dtype], &size) != GA_OK) return NULL;
    ga_array *v = ga__broadcast_view(func, a, ndim, shape);
    if (!v && ga__t.error == GA_OK) {
        char from[200], to[200];
        ga__format_shape(from, sizeof from, a->ndim, a->shape);
        ga__format_shape(to, sizeof to, ndim, shape);
        ga__error(GA_ERROR_SHAPE, func,
                  "operands could not be broadcast together with remapped shapes [original->remapped]: %s  and requested shape %s",
                  from, to);
    }
    return ga__ret(v);
}

GPUARR_API ga_status ga_broadcast_arrays(int n, const ga_array *const *in, ga_array **out)
{
    static const char func[] = "ga_broadcast_arrays";
    int ndims[64] = {0}, nd = 0, bad = 0;
    const int64_t *shapes[64] = {0};
    int64_t shape[GA_MAXDIMS];
    if (n < 0 || n > 64) return ga__error(GA_ERROR_VALUE, func, "between 0 and 64 arrays, not %d", n);
    if (n > 0 && (!in || !out)) return ga__null_input(func, "in or out");
    for (int i = 0; i < n; i++) {
        if (!in[i]) return ga__null_input(func, "an input array");
        ndims[i] = in[i]->ndim;
        shapes[i] = in[i]->shape;
    }
    if (!ga__broadcast_shapes(n, ndims, shapes, &nd, shape, &bad)) {
        int first = 0;
        for (int i = 0; i < bad; i++) { /* NumPy names the first input the bad one disagrees with */
            int tmp_nd, tmp_bad;
            int64_t tmp[GA_MAXDIMS];
            const int64_t *pair[2] = {shapes[i], shapes[bad]};
            int pnd[2] = {ndims[i], ndims[bad]};
            if (!ga__broadcast_shapes(2, pnd, pair, &tmp_nd, tmp, &tmp_bad)) {
                first = i;
                break;
            }
        }
        char a[200], b[200];
        ga__format_shape(a, sizeof a, ndims[first], shapes[first]);
        ga__format_shape(b, sizeof b, ndims[bad], shapes[bad]);
        return ga__error(GA_ERROR_SHAPE, func,
                         "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg %d with shape %s and arg %d with shape %s.",
                         first, a, bad, b);
    }
    for (int i = 0; i < n; i++) {
        out[i] = ga__broadcast_view(func, in[i], nd, shape);
        if (!out[i]) {
            for (int j = 0; j < i; j++) ga_release(out[j]);
            return ga__t.error;
        }
    }
    for (int i = 0; i < n; i++) ga__ret(out[i]);
    return GA_OK;
}

/* atleast_nd: unit axes where NumPy puts them (1-d: (N,); 2-d: (1, N);
   3-d: (1, N, 1) and (M, N, 1)). */
static ga_array *ga__atleast(const char *func, const ga_array *a, int want)
{
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (a->ndim >= want) return ga_retain((ga_array *)a);
    if (a->ndim == 0) {
        int64_t ones[3] = {1, 1, 1};
        return ga__reshape(func, a, want, ones);
    }
    ga__layout l;
    l.ndim = want;
    l.offset = 0;
    int64_t shape[3] = {1, 1, 1}, strides[3] = {0, 0, 0};
    if (a->ndim == 1) { /* (1, N) and (1, N, 1) */
        shape[1] = a->shape[0];
        strides[1] = a->strides[0];
    } else if (a->ndim == 2) { /* (M, N, 1) */
        shape[0] = a->shape[0];
        strides[0] = a->strides[0];
        shape[1] = a->shape[1];
        strides[1] = a->strides[1];
    }
    for (int d = 0; d < want; d++) {
        l.shape[d] = shape[d];
        l.strides[d] = strides[d];
    }
    return ga__view(func, a, &l, true);
}

GPUARR_API ga_array *ga_atleast_1d(const ga_array *a) { return ga__ret(ga__atleast("ga_atleast_1d", a, 1)); }
GPUARR_API ga_array *ga_atleast_2d(const ga_array *a) { return ga__ret(ga__atleast("ga_atleast_2d", a, 2)); }
GPUARR_API ga_array *ga_atleast_3d(const ga_array *a) { return ga__ret(ga__atleast("ga_atleast_3d", a, 3)); }

/* A copy of `a` in C or Fortran order (at least 1-d). */
static ga_array *ga__ordered_copy(const char *func, const ga_array *a, bool fortran)
{
    int flag = fortran ? GA_F_CONTIGUOUS : GA_C_CONTIGUOUS;
    if (a->ndim >= 1 && (a->flags & flag)) return ga_retain((ga_array *)a);
    int ndim = a->ndim ? a->ndim : 1;
    int64_t one = 1;
    const int64_t *shape = a->ndim ? a->shape : &one;
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *c = ga__array_new(func, a->device, ndim, shape, a->dtype);
    if (!c) return NULL;
    if (fortran) { /* F strides over the new buffer */
        int64_t step = (int64_t)ga__dtype_sizes[a->dtype];
        for (int d = 0; d < ndim; d++) {
            c->strides[d] = step;
            step *= shape[d] ? shape[d] : 1;
        }
        c->flags = ga__contiguity(ndim, c->shape, c->strides, (int64_t)ga__dtype_sizes[a->dtype]) | GA_WRITEABLE |
                   GA_OWNDATA;
    }
    int64_t src_strides[GA_MAXDIMS] = {0};
    for (int d = 0; d < a->ndim; d++) src_strides[d] = a->strides[d];
    if (ga__copy_cast(func, a->device, a->dtype, c->data, c->strides, a->dtype, a->data, src_strides, ndim,
                      shape) != GA_OK) {
        ga_release(c);
        return NULL;
    }
    return c;
}

GPUARR_API ga_array *ga_ascontiguousarray(const ga_array *a)
{
    if (!a) { ga__null_input("ga_ascontiguousarray", "a"); return NULL; }
    return ga__ret(ga__ordered_copy("ga_ascontiguousarray", a, false));
}

GPUARR_API ga_array *ga_asfortranarray(const ga_array *a)
{
    if (!a) { ga__null_input("ga_asfortranarray", "a"); return NULL; }
    return ga__ret(ga__ordered_copy("ga_asfortranarray", a, true));
}

/* a reversed along the marked axes. */
static ga_array *ga__flipped(const char *func, const ga_array *a, const bool *flip)
{
    ga__layout l;
    ga__layout_of(a, &l);
    bool empty = a->size == 0, beyond = false;
    for (int d = 0; d < a->ndim; d++)
        if (flip[d] && a->shape[d] > 0) { /* an empty axis stays as it is, as NumPy's [::-1] */
            int64_t span;
            if (!empty)
                beyond = beyond || ga__mul_overflow(a->shape[d] - 1, a->strides[d], &span) ||
                         ga__add_overflow(l.offset, span, &l.offset);
            /* negated as NumPy's C does: INT64_MIN (on a unit axis, where it addresses nothing) stays */
            l.strides[d] = (int64_t)(0 - (uint64_t)a->strides[d]);
        }
    if (beyond) { /* not for an array inside its buffer */
        ga__too_big(func);
        return NULL;
    }
    return ga__view(func, a, &l, true);
}

GPUARR_API ga_array *ga_flip(const ga_array *a, int naxes, const int *axes)
{
    static const char func[] = "ga_flip";
    bool flip[GA_MAXDIMS] = {false};
    int ax[GA_MAXDIMS + 1];
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (naxes == 0 && !axes) {
        for (int d = 0; d < a->ndim; d++) flip[d] = true;
    } else {
        if (!axes) { ga__null_input(func, "axes"); return NULL; }
        if (ga__normalize_axes(func, "repeated axis", naxes, axes, a->ndim, ax) != GA_OK) return NULL;
        for (int i = 0; i < naxes; i++) flip[ax[i]] = true;
    }
    return ga__ret(ga__flipped(func, a, flip));
}

/* a flipped along one axis, which must exist: fliplr's 1, flipud's 0. */
static ga_array *ga__flip_axis(const char *func, const ga_array *a, int axis, const char *too_few)
{
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (a->ndim <= axis) {
        ga__error(GA_ERROR_VALUE, func, "%s", too_few);
        return NULL;
    }
    bool flip[GA_MAXDIMS] = {false};
    flip[axis] = true;
    return ga__ret(ga__flipped(func, a, flip));
}

GPUARR_API ga_array *ga_fliplr(const ga_array *a) { return ga__flip_axis("ga_fliplr", a, 1, "Input must be >= 2-d."); }
GPUARR_API ga_array *ga_flipud(const ga_array *a) { return ga__flip_axis("ga_flipud", a, 0, "Input must be >= 1-d."); }

GPUARR_API ga_array *ga_rot90(const ga_array *a, int k, int axis1, int axis2)
{
    static const char func[] = "ga_rot90";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    const int64_t apart = (int64_t)axis1 - axis2; /* in int64: INT_MIN - 1 is no int */
    if (axis1 == axis2 || apart == a->ndim || -apart == a->ndim) {
        ga__error(GA_ERROR_VALUE, func, "Axes must be different.");
        return NULL;
    }
    if (axis1 < -a->ndim || axis1 >= a->ndim || axis2 < -a->ndim || axis2 >= a->ndim) {
        ga__error(GA_ERROR_VALUE, func, "Axes=(%d, %d) out of range for array of ndim=%d.", axis1, axis2, a->ndim);
        return NULL;
    }
    int a1 = axis1 < 0 ? axis1 + a->ndim : axis1, a2 = axis2 < 0 ? axis2 + a->ndim : axis2;
    k = ((k % 4) + 4) % 4;
    bool flip[GA_MAXDIMS] = {false};
    int perm[GA_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) perm[d] = d;
    perm[a1] = a2;
    perm[a2] = a1;
    if (k == 0) return ga__ret(ga__flipped(func, a, flip)); /* a[:] */
    if (k == 2) {
        flip[a1] = flip[a2] = true;
        return ga__ret(ga__flipped(func, a, flip));
    }
    /* k == 1: transpose(flip(a, axis2)); k == 3: flip(transpose(a), axis2) */
    ga_array *t;
    if (k == 1) {
        flip[a2] = true;
        ga_array *f = ga__flipped(func, a, flip);
        if (!f) return NULL;
        t = ga__permuted(func, f, perm);
        ga_release(f);
    } else {
        ga_array *p = ga__permuted(func, a, perm);
        if (!p) return NULL;
        flip[a2] = true;
        t = ga__flipped(func, p, flip);
        ga_release(p);
    }
    return ga__ret(t);
}

/* numpy.diagonal for `func`; not tracked by scopes. */
static ga_array *ga__diagonal(const char *func, const ga_array *a, int64_t offset, int axis1, int axis2)
{
    if (a->ndim < 2) {
        ga__error(GA_ERROR_VALUE, func, "diag requires an array of at least two dimensions");
        return NULL;
    }
    if (ga__normalize_axis(func, "axis1: ", &axis1, a->ndim) != GA_OK ||
        ga__normalize_axis(func, "axis2: ", &axis2, a->ndim) != GA_OK)
        return NULL;
    if (axis1 == axis2) {
        ga__error(GA_ERROR_VALUE, func, "axis1 and axis2 cannot be the same");
        return NULL;
    }
    ga__layout l;
    l.ndim = 0;
    l.offset = 0;
    int64_t n1 = a->shape[axis1], n2 = a->shape[axis2], len, stride;
    bool beyond = false; /* the offset overflowed: only an empty view's may (its strides address nothing) */
    if (offset >= 0) {
        len = GA__MAX(0, (n2 - offset < n1 ? n2 - offset : n1));
        if (len > 0) beyond = ga__mul_overflow(offset, a->strides[axis2], &l.offset);
    } else {
        len = GA__MAX(0, (n1 + offset < n2 ? n1 + offset : n2));
        if (len > 0) beyond = ga__mul_overflow(-offset, a->strides[axis1], &l.offset); /* -offset < n1 */
    }
    for (int d = 0; d < a->ndim; d++)
        if (d != axis1 && d != axis2) {
            l.shape[l.ndim] = a->shape[d];
            l.strides[l.ndim++] = a->strides[d];
        }
    /* a diagonal of two or more elements has a stride within the buffer;
       a shorter one's addresses nothing and is NumPy's C sum, wrapped */
    if (ga__add_overflow(a->strides[axis1], a->strides[axis2], &stride) && len > 1) beyond = true;
    l.shape[l.ndim] = len;
    l.strides[l.ndim++] = stride;
    bool empty = false;
    for (int d = 0; d < l.ndim; d++) empty = empty || l.shape[d] == 0;
    if (empty) l.offset = 0;
    else if (beyond) { /* not for an array inside its buffer */
        ga__too_big(func);
        return NULL;
    }
    return ga__view(func, a, &l, false);
}

GPUARR_API ga_array *ga_diagonal(const ga_array *a, int64_t offset, int axis1, int axis2)
{
    if (!a) { ga__null_input("ga_diagonal", "a"); return NULL; }
    return ga__ret(ga__diagonal("ga_diagonal", a, offset, axis1, axis2));
}

/* The view a[..., start:start + length, ...] along `axis` (bounds checked
   by the caller). */
static ga_array *ga__axis_slice(const char *func, const ga_array *a, int axis, int64_t start, int64_t length)
{
    ga__layout l;
    ga__layout_of(a, &l);
    l.shape[axis] = length;
    l.offset = length > 0 && a->size > 0 ? start * a->strides[axis] : 0;
    return ga__view(func, a, &l, true);
}

/* numpy.diag for `func`; not tracked by scopes. */
static ga_array *ga__diag(const char *func, const ga_array *a, int64_t k)
{
    if (a->ndim == 2) return ga__diagonal(func, a, k, 0, 1);
    if (a->ndim != 1) {
        ga__error(GA_ERROR_VALUE, func, "Input must be 1- or 2-d.");
        return NULL;
    }
    int64_t n, shape[2];
    if (k == INT64_MIN || ga__add_overflow(a->shape[0], k < 0 ? -k : k, &n)) {
        ga__too_big(func);
        return NULL;
    }
    shape[0] = shape[1] = n;
    ga_array *out = ga__full_on(func, a->device, 2, shape, ga_int(0), a->dtype);
    if (!out) return NULL;
    ga__layout l; /* out's diagonal k */
    l.ndim = 1;
    l.shape[0] = a->shape[0];
    l.strides[0] = out->strides[0] + out->strides[1];
    l.offset = a->shape[0] == 0 ? 0 : k >= 0 ? k * out->strides[1] : -k * out->strides[0];
    ga_array *diag = ga__view(func, out, &l, true);
    ga_status st = diag ? ga__copyto(func, diag, a, GA_CASTING_NO) : ga__t.error;
    ga_release(diag);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

GPUARR_API ga_array *ga_diag(const ga_array *a, int64_t k)
{
    if (!a) { ga__null_input("ga_diag", "a"); return NULL; }
    return ga__ret(ga__diag("ga_diag", a, k));
}

GPUARR_API ga_array *ga_diagflat(const ga_array *a, int64_t k)
{
    static const char func[] = "ga_diagflat";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    int64_t size = a->size;
    ga_array *flat = ga__reshape(func, a, 1, &size);
    ga_array *d = flat ? ga__diag(func, flat, k) : NULL;
    ga_release(flat);
    return ga__ret(d);
}

GPUARR_API ga_status ga_fill_diagonal(ga_array *a, ga_scalar value, bool wrap)
{
    static const char func[] = "ga_fill_diagonal";
    if (!a) return ga__null_input(func, "a");
    if (a->ndim < 2) return ga__error(GA_ERROR_VALUE, func, "array must be at least 2-d");
    if (a->ndim > 2)
        for (int d = 1; d < a->ndim; d++)
            if (a->shape[d] != a->shape[0])
                return ga__error(GA_ERROR_VALUE, func, "All dimensions of input must be of equal length");
    ga_array *v = ga__full_on(func, a->device, 0, NULL, value, a->dtype);
    if (!v) return ga__t.error;
    /* the diagonal (i, i, ...); for a tall 2-d matrix with wrap, again from
       every (cols + 1)-th row, as NumPy's flat stepping gives */
    int64_t rows = a->shape[0], cols = a->ndim == 2 ? a->shape[1] : a->shape[0], step = 0;
    for (int d = 0; d < a->ndim; d++)
        if (ga__add_overflow(step, a->strides[d], &step)) step = 0; /* only when the diagonal is one element long */
    ga_status st = GA_OK;
    for (int64_t row = 0; st == GA_OK && row < rows; row = rows - row - 1 <= cols ? rows : row + cols + 1) {
        ga__layout l;
        l.ndim = 1;
        l.shape[0] = GA__MIN(rows - row, cols);
        l.strides[0] = step;
        l.offset = row * a->strides[0];
        ga_array *diag = ga__view(func, a, &l, true);
        st = diag ? ga__copyto(func, diag, v, GA_CASTING_UNSAFE) : ga__t.error;
        ga_release(diag);
        if (!wrap || a->ndim > 2) break;
    }
    ga_release(v);
    return st;
}

/* tril / triu of `a` (or tri, from a broadcast 1) into a new array. */
static ga_array *ga__triangle(const char *func, const ga_array *a, int64_t k, bool lower)
{
    if (a->ndim == 0) {
        ga__error(GA_ERROR_VALUE, func, "the input must be at least 1-d");
        return NULL;
    }
    /* (batch, rows, cols) over a; a 1-d input repeats its row */
    int64_t rows = a->ndim == 1 ? a->shape[0] : a->shape[a->ndim - 2], cols = a->shape[a->ndim - 1];
    int ndim = a->ndim == 1 ? 2 : a->ndim;
    int64_t shape[GA_MAXDIMS];
    for (int d = 0; d < ndim - 2; d++) shape[d] = a->shape[d];
    shape[ndim - 2] = rows;
    shape[ndim - 1] = cols;
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *out = ga__array_new(func, a->device, ndim, shape, a->dtype);
    if (!out || out->size == 0) return out;
    /* the leading axes collapse into one batch axis when the input allows;
       otherwise one launch per leading index */
    int64_t batch = out->size / (rows * cols);
    ga__copy_layout layout;
    memset(&layout, 0, sizeof layout);
    layout.ndim = 3;
    layout.size = out->size;
    layout.shape[0] = batch;
    layout.shape[1] = rows;
    layout.shape[2] = cols;
    layout.out_strides[0] = rows * cols * (int64_t)ga__dtype_sizes[a->dtype];
    layout.out_strides[1] = out->strides[ndim - 2];
    layout.out_strides[2] = out->strides[ndim - 1];
    layout.in_strides[1] = a->ndim == 1 ? 0 : a->strides[a->ndim - 2];
    layout.in_strides[2] = a->strides[a->ndim - 1];
    bool one_batch_stride = true; /* do the leading axes of a collapse into one? */
    int64_t expect = 0;
    for (int d = a->ndim - 3; d >= 0; d--) {
        if (a->shape[d] == 1) continue;
        if (expect && a->strides[d] != expect) one_batch_stride = false;
        if (!expect) layout.in_strides[0] = a->strides[d];
        expect = a->strides[d] * a->shape[d];
    }
    int c = ga__size_class(ga__dtype_sizes[a->dtype]);
    CUfunction f = ga__kernel(func, GA__FAMILY_COPY, &ga__manip_kernels.tri[c], "tri", ga__size_names[c], NULL, NULL);
    int32_t lo = lower;
    ga_status st = GA_OK;
    if (one_batch_stride) {
        void *o = (void *)(uintptr_t)out->data, *i = (void *)(uintptr_t)a->data;
        void *args[] = {&o, &i, &layout, &k, &lo};
        st = ga__launch(func, f, a->device, layout.size, args);
    } else { /* one plane at a time */
        layout.shape[0] = 1;
        layout.size = rows * cols;
        for (int64_t b = 0; st == GA_OK && b < batch; b++) {
            int64_t offset = 0, rest = b;
            for (int d = a->ndim - 3; d >= 0; d--) {
                offset += rest % a->shape[d] * a->strides[d];
                rest /= a->shape[d];
            }
            void *o = (void *)(uintptr_t)(out->data + (uint64_t)(b * layout.out_strides[0]));
            void *i = (void *)(uintptr_t)(a->data + (uint64_t)offset);
            void *args[] = {&o, &i, &layout, &k, &lo};
            st = ga__launch(func, f, a->device, layout.size, args);
        }
    }
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

GPUARR_API ga_array *ga_tril(const ga_array *a, int64_t k)
{
    if (!a) { ga__null_input("ga_tril", "a"); return NULL; }
    return ga__ret(ga__triangle("ga_tril", a, k, true));
}

GPUARR_API ga_array *ga_triu(const ga_array *a, int64_t k)
{
    if (!a) { ga__null_input("ga_triu", "a"); return NULL; }
    return ga__ret(ga__triangle("ga_triu", a, k, false));
}

GPUARR_API ga_array *ga_tri(int64_t n, int64_t m, int64_t k, ga_dtype dtype)
{
    static const char func[] = "ga_tri";
    if (m < 0) m = n;
    if (n < 0) {
        ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
        return NULL;
    }
    ga_array *one = ga__full_on(func, ga__t.device, 0, NULL, ga_int(1), dtype);
    if (!one) return NULL;
    int64_t shape[2] = {n, m};
    ga_array *ones = ga__broadcast_view(func, one, 2, shape); /* stride 0: no memory per element */
    ga_array *t = ones ? ga__triangle(func, ones, k, true) : NULL;
    ga_release(ones);
    ga_release(one);
    return ga__ret(t);
}

GPUARR_API ga_array *ga_indices(int ndim, const int64_t *dims, ga_dtype dtype)
{
    static const char func[] = "ga_indices";
    int64_t size, shape[GA_MAXDIMS];
    if (ndim < 0 || ndim > GA_MAXDIMS - 1) {
        ga__error(GA_ERROR_VALUE, func, "ndim %d is out of range (0 to %d)", ndim, GA_MAXDIMS - 1);
        return NULL;
    }
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (ga__check_shape(func, ndim, dims, (int64_t)ga__dtype_sizes[dtype], &size) != GA_OK) return NULL;
    shape[0] = ndim;
    for (int d = 0; d < ndim; d++) shape[d + 1] = dims[d];
    if (ga__bind(func, ga__t.device) != GA_OK) return NULL;
    ga_array *out = ga__array_new(func, ga__t.device, ndim + 1, shape, dtype);
    for (int i = 0; out && i < ndim && size > 0; i++) {
        ga_array *range = ga__arange_int(func, 0, dims[i], 1, dtype);
        ga_array *slab = range ? ga__axis_slice(func, out, 0, i, 1) : NULL;
        ga_status st = GA_ERROR_VALUE;
        if (slab) { /* slab (1, *dims) takes range along axis i + 1 */
            int64_t strides[GA_MAXDIMS] = {0};
            strides[i + 1] = range->strides[0];
            st = ga__copy_cast(func, out->device, dtype, slab->data, slab->strides, dtype, range->data, strides,
                               slab->ndim, slab->shape);
        }
        ga_release(slab);
        ga_release(range);
        if (st != GA_OK) {
            ga_release(out);
            out = NULL;
        }
    }
    return ga__ret(out);
}

/* numpy.concatenate for `func`; not tracked by scopes. */
static ga_array *ga__concatenate(const char *func, int n, const ga_array *const *arrays, int axis)
{
    if (n <= 0) {
        ga__error(GA_ERROR_VALUE, func, "need at least one array to concatenate");
        return NULL;
    }
    if (!arrays) { ga__null_input(func, "arrays"); return NULL; }
    for (int i = 0; i < n; i++)
        if (!arrays[i]) { ga__null_input(func, "an input array"); return NULL; }
    if (axis == GA_AXIS_NONE) { /* flatten every input, then join them along axis 0 */
        ga_array *flat[64] = {0};
        if (n > 64) {
            ga__error(GA_ERROR_VALUE, func, "at most 64 arrays with axis=None");
            return NULL;
        }
        int made = 0;
        for (; made < n; made++) {
            int64_t size = arrays[made]->size;
            flat[made] = ga__reshape(func, arrays[made], 1, &size);
            if (!flat[made]) break;
        }
        ga_array *r = made == n ? ga__concatenate(func, n, (const ga_array *const *)flat, 0) : NULL;
        for (int i = 0; i < made; i++) ga_release(flat[i]);
        return r;
    }
    const ga_array *first = arrays[0];
    if (first->ndim == 0) {
        ga__error(GA_ERROR_VALUE, func, "zero-dimensional arrays cannot be concatenated");
        return NULL;
    }
    if (ga__normalize_axis(func, "", &axis, first->ndim) != GA_OK) return NULL;
    int64_t shape[GA_MAXDIMS];
    ga_dtype dtype = first->dtype;
    for (int d = 0; d < first->ndim; d++) shape[d] = first->shape[d];
    for (int i = 1; i < n; i++) {
        const ga_array *x = arrays[i];
        if (x->ndim != first->ndim) {
            ga__error(GA_ERROR_VALUE, func,
                      "all the input arrays must have same number of dimensions, but the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)",
                      first->ndim, i, x->ndim);
            return NULL;
        }
        for (int d = 0; d < first->ndim; d++) {
            if (d == axis) continue;
            if (x->shape[d] != first->shape[d]) {
                ga__error(GA_ERROR_VALUE, func,
                          "all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %lld and the array at index %d has size %lld",
                          d, (long long)first->shape[d], i, (long long)x->shape[d]);
                return NULL;
            }
        }
        if (ga__add_overflow(shape[axis], x->shape[axis], &shape[axis])) {
            ga__too_big(func);
            return NULL;
        }
        dtype = ga_promote_types(dtype, x->dtype);
    }
    if (ga__bind(func, first->device) != GA_OK) return NULL;
    ga_array *out = ga__array_new(func, first->device, first->ndim, shape, dtype);
    int64_t at = 0;
    for (int i = 0; out && i < n; i++) {
        int64_t len = arrays[i]->shape[axis];
        ga_array *part = ga__axis_slice(func, out, axis, at, len);
        ga_status st = part ? ga__copyto(func, part, arrays[i], GA_CASTING_SAME_KIND) : ga__t.error;
        ga_release(part);
        if (st != GA_OK) {
            ga_release(out);
            out = NULL;
        }
        at += len;
    }
    return out;
}

GPUARR_API ga_array *ga_concatenate(int n, const ga_array *const *arrays, int axis)
{
    return ga__ret(ga__concatenate("ga_concatenate", n, arrays, axis));
}

/* Applies `fn` (a view maker that may fail) to every input, then joins the
   results along `axis`. */
typedef ga_array *(*ga__view_fn)(const char *func, const ga_array *a, int arg);

static ga_array *ga__expand_one(const char *func, const ga_array *a, int axis)
{
    return ga__expand_dims(func, a, 1, &axis);
}

static ga_array *ga__column(const char *func, const ga_array *a, int unused)
{
    (void)unused;
    if (a->ndim >= 2) return ga_retain((ga_array *)a);
    ga__layout l; /* 0-d and 1-d become columns (N, 1) */
    l.ndim = 2;
    l.offset = 0;
    l.shape[0] = a->ndim ? a->shape[0] : 1;
    l.strides[0] = a->ndim ? a->strides[0] : 0;
    l.shape[1] = 1;
    l.strides[1] = 0;
    return ga__view(func, a, &l, true);
}

static ga_array *ga__join(const char *func, int n, const ga_array *const *arrays, ga__view_fn fn, int arg, int axis)
{
    ga_array *views[256] = {0};
    if (n <= 0) {
        ga__error(GA_ERROR_VALUE, func, "need at least one array to concatenate");
        return NULL;
    }
    if (!arrays) { ga__null_input(func, "arrays"); return NULL; }
    if (n > 256) {
        ga__error(GA_ERROR_VALUE, func, "at most 256 arrays");
        return NULL;
    }
    int made = 0;
    for (; made < n; made++) {
        if (!arrays[made]) { ga__null_input(func, "an input array"); break; }
        views[made] = fn(func, arrays[made], arg);
        if (!views[made]) break;
    }
    ga_array *r = made == n ? ga__concatenate(func, n, (const ga_array *const *)views, axis) : NULL;
    for (int i = 0; i < made; i++) ga_release(views[i]);
    return r;
}

GPUARR_API ga_array *ga_stack(int n, const ga_array *const *arrays, int axis)
{
    static const char func[] = "ga_stack";
    if (n <= 0) {
        ga__error(GA_ERROR_VALUE, func, "need at least one array to stack");
        return NULL;
    }
    if (!arrays || !arrays[0]) { ga__null_input(func, "arrays"); return NULL; }
    for (int i = 1; i < n; i++) {
        if (!arrays[i]) { ga__null_input(func, "an input array"); return NULL; }
        bool same = arrays[i]->ndim == arrays[0]->ndim;
        for (int d = 0; same && d < arrays[0]->ndim; d++) same = arrays[i]->shape[d] == arrays[0]->shape[d];
        if (!same) {
            ga__error(GA_ERROR_VALUE, func, "all input arrays must have the same shape");
            return NULL;
        }
    }
    if (ga__normalize_axis(func, "", &axis, arrays[0]->ndim + 1) != GA_OK) return NULL;
    return ga__ret(ga__join(func, n, arrays, ga__expand_one, axis, axis));
}

GPUARR_API ga_array *ga_hstack(int n, const ga_array *const *arrays)
{
    int axis = n > 0 && arrays && arrays[0] && arrays[0]->ndim <= 1 ? 0 : 1;
    return ga__ret(ga__join("ga_hstack", n, arrays, ga__atleast, 1, axis));
}

GPUARR_API ga_array *ga_vstack(int n, const ga_array *const *arrays)
{
    return ga__ret(ga__join("ga_vstack", n, arrays, ga__atleast, 2, 0));
}

GPUARR_API ga_array *ga_dstack(int n, const ga_array *const *arrays)
{
    return ga__ret(ga__join("ga_dstack", n, arrays, ga__atleast, 3, 2));
}

GPUARR_API ga_array *ga_column_stack(int n, const ga_array *const *arrays)
{
    return ga__ret(ga__join("ga_column_stack", n, arrays, ga__column, 0, 1));
}

/* Splits `a` along `axis` before each of the n `starts` (Python slice
   bounds: negative counts from the end, beyond the end clips). */
static ga_status ga__split_at(const char *func, const ga_array *a, int n, const int64_t *starts, int axis,
                              ga_array **out)
{
    int64_t len = a->shape[axis];
    for (int64_t i = 0; i <= n; i++) { /* int64: n may be INT_MAX */
        int64_t first, count;
        /* Python's a[lo:hi], the numbers as given (INT64_MIN included), the last piece to the end */
        int64_t lo = i == 0 ? 0 : starts[i - 1], hi = i == n ? INT64_MAX : starts[i];
        ga__slice_adjust(lo, hi, 1, len, &first, &count);
        out[i] = ga__axis_slice(func, a, axis, first, count);
        if (!out[i]) {
            for (int64_t j = 0; j < i; j++) ga_release(out[j]);
            return ga__t.error;
        }
    }
    for (int64_t i = 0; i <= n; i++) ga__ret(out[i]);
    return GA_OK;
}

static ga_status ga__split_sections(const char *func, const ga_array *a, int64_t sections, int axis, bool equal,
                                    ga_array **out)
{
    if (!a) return ga__null_input(func, "a");
    if (!out) return ga__null_input(func, "out");
    if (axis != GA_AXIS_NONE && a->ndim == 0)
        return ga__error(GA_ERROR_AXIS, func, "axis %d is out of bounds for array of dimension 0", axis);
    ga_status st = ga__normalize_axis(func, "", &axis, a->ndim);
    if (st != GA_OK) return st;
    if (sections <= 0)
        return ga__error(GA_ERROR_VALUE, func, equal ? "integer modulo by zero" : "number sections must be larger than 0.");
    if (sections > 4096) return ga__error(GA_ERROR_VALUE, func, "at most 4096 sections");
    int64_t len = a->shape[axis], each = len / sections, extra = len % sections;
    if (equal && extra) return ga__error(GA_ERROR_VALUE, func, "array split does not result in an equal division");
    int64_t starts[4096];
    for (int64_t i = 1, at = 0; i < sections; i++) {
        at += each + (i - 1 < extra ? 1 : 0);
        starts[i - 1] = at;
    }
    return ga__split_at(func, a, (int)sections - 1, starts, axis, out);
}

GPUARR_API ga_status ga_split(const ga_array *a, int64_t sections, int axis, ga_array **out)
{
    return ga__split_sections("ga_split", a, sections, axis, true, out);
}

GPUARR_API ga_status ga_array_split(const ga_array *a, int64_t sections, int axis, ga_array **out)
{
    return ga__split_sections("ga_array_split", a, sections, axis, false, out);
}

GPUARR_API ga_status ga_split_at(const ga_array *a, int n, const int64_t *indices, int axis, ga_array **out)
{
    static const char func[] = "ga_split_at";
    if (!a) return ga__null_input(func, "a");
    if (!out || (n > 0 && !indices)) return ga__null_input(func, "out or indices");
    if (n < 0) return ga__error(GA_ERROR_VALUE, func, "negative number of indices");
    ga_status st = ga__normalize_axis(func, "", &axis, a->ndim);
    if (st != GA_OK) return st;
    return ga__split_at(func, a, n, indices, axis, out);
}

GPUARR_API ga_status ga_hsplit(const ga_array *a, int64_t sections, ga_array **out)
{
    if (!a) return ga__null_input("ga_hsplit", "a");
    if (a->ndim == 0)
        return ga__error(GA_ERROR_VALUE, "ga_hsplit", "hsplit only works on arrays of 1 or more dimensions");
    return ga__split_sections("ga_hsplit", a, sections, a->ndim > 1 ? 1 : 0, true, out);
}

GPUARR_API ga_status ga_vsplit(const ga_array *a, int64_t sections, ga_array **out)
{
    if (!a) return ga__null_input("ga_vsplit", "a");
    if (a->ndim < 2)
        return ga__error(GA_ERROR_VALUE, "ga_vsplit", "vsplit only works on arrays of 2 or more dimensions");
    return ga__split_sections("ga_vsplit", a, sections, 0, true, out);
}

/* Copies the view (in_shape, in_strides over a's memory) into a new
   C-contiguous array of shape (ndim, shape) with the same element count: the
   engine of tile, repeat and meshgrid, whose sources are broadcast views. */
static ga_array *ga__materialize(const char *func, const ga_array *a, int view_ndim, const int64_t *view_shape,
                                 const int64_t *view_strides, int ndim, const int64_t *shape)
{
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *out = ga__array_new(func, a->device, ndim, shape, a->dtype);
    if (!out || out->size == 0) return out;
    ga__layout ol;
    ol.ndim = view_ndim;
    ol.offset = 0;
    for (int d = 0; d < view_ndim; d++) ol.shape[d] = view_shape[d];
    ga__fill_c_strides(&ol, (int64_t)ga__dtype_sizes[a->dtype]);
    if (ga__copy_cast(func, a->device, a->dtype, out->data, ol.strides, a->dtype, a->data, view_strides, view_ndim,
                      view_shape) != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

/* The part of `out` that padding axis d works on: axes before d at full
   extent, axis d over [start, start + len), axes after d at their centre. */
static ga_array *ga__pad_region(const char *func, const ga_array *out, int d, int64_t start, int64_t len,
                                const int64_t *before, const int64_t *inner)
{
    ga__layout l;
    ga__layout_of(out, &l);
    bool empty = len == 0;
    for (int k = d + 1; k < out->ndim; k++) {
        l.offset += before[k] * out->strides[k];
        l.shape[k] = inner[k];
        empty = empty || inner[k] == 0;
    }
    l.offset += start * out->strides[d];
    l.shape[d] = len;
    for (int k = 0; k < out->ndim; k++) empty = empty || l.shape[k] == 0;
    if (empty) l.offset = 0;
    return ga__view(func, out, &l, true);
}

/* Copies onto [dst, dst + len) of axis d the source run starting at src:
   forward (direction > 0), backward (< 0), or the one slice at src
   repeated (0). */
static ga_status ga__pad_copy(const char *func, ga_array *out, int d, int64_t dst, int64_t src, int64_t len,
                              int direction, const int64_t *before, const int64_t *inner)
{
    ga_array *to = ga__pad_region(func, out, d, dst, len, before, inner);
    ga_array *from = ga__pad_region(func, out, d, direction < 0 ? src - len + 1 : src, direction ? len : 1, before,
                                    inner);
    ga_array *rev = NULL;
    if (from && direction < 0) {
        bool flip[GA_MAXDIMS] = {false};
        flip[d] = true;
        rev = ga__flipped(func, from, flip);
    }
    ga_status st = to && from && (direction >= 0 || rev) ? ga__copyto(func, to, rev ? rev : from, GA_CASTING_NO)
                                                         : ga__t.error;
    ga_release(to);
    ga_release(from);
    ga_release(rev);
    return st;
}

/* Where padded position p of axis d (centre [b, b + n)) reads from, and
   in which direction the source runs: wrap repeats the centre, reflect
   mirrors it without repeating the edge, edge repeats the edge. */
static int64_t ga__pad_source(ga_pad_mode mode, int64_t p, int64_t b, int64_t n, int *direction)
{
    int64_t r = p - b;
    *direction = 0;
    if (mode == GA_PAD_EDGE || n == 1) return b + (r < 0 ? 0 : n - 1);
    if (mode == GA_PAD_WRAP) {
        *direction = 1;
        return b + ((r % n) + n) % n;
    }
    int64_t period = 2 * (n - 1), m = ((r % period) + period) % period;
    *direction = m < n - 1 ? 1 : -1;
    return b + (m < n ? m : period - m);
}

GPUARR_API ga_array *ga_pad(const ga_array *a, const int64_t *widths, ga_pad_mode mode, ga_scalar constant)
{
    static const char func[] = "ga_pad";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (a->ndim > 0 && !widths) { ga__null_input(func, "widths"); return NULL; }
    if ((unsigned)mode > GA_PAD_WRAP) {
        ga__error(GA_ERROR_VALUE, func, "invalid mode %d", (int)mode);
        return NULL;
    }
    int64_t shape[GA_MAXDIMS], before[GA_MAXDIMS], inner[GA_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) {
        if (widths[2 * d] < 0 || widths[2 * d + 1] < 0) {
            ga__error(GA_ERROR_VALUE, func, "index can't contain negative values");
            return NULL;
        }
        if (mode != GA_PAD_CONSTANT && a->shape[d] == 0 && (widths[2 * d] || widths[2 * d + 1])) {
            ga__error(GA_ERROR_VALUE, func, "can't extend empty axis %d using modes other than 'constant' or 'empty'", d);
            return NULL;
        }
        before[d] = widths[2 * d];
        inner[d] = a->shape[d];
        if (ga__add_overflow(before[d], a->shape[d], &shape[d]) ||
            ga__add_overflow(shape[d], widths[2 * d + 1], &shape[d])) {
            ga__too_big(func);
            return NULL;
        }
    }
    ga_array *out = mode == GA_PAD_CONSTANT ? ga__full_on(func, a->device, a->ndim, shape, constant, a->dtype)
                                            : (ga__bind(func, a->device) == GA_OK
                                                   ? ga__array_new(func, a->device, a->ndim, shape, a->dtype)
                                                   : NULL);
    if (!out) return NULL;
    ga_status st = GA_OK;
    { /* the centre */
        ga__layout l;
        ga__layout_of(out, &l);
        for (int d = 0; d < a->ndim; d++) {
            l.offset += before[d] * out->strides[d];
            l.shape[d] = a->shape[d];
        }
        if (a->size == 0) l.offset = 0;
        ga_array *centre = ga__view(func, out, &l, true);
        st = centre ? ga__copyto(func, centre, a, GA_CASTING_NO) : ga__t.error;
        ga_release(centre);
    }
    /* each axis in turn, reading what the earlier axes already padded */
    for (int d = 0; st == GA_OK && mode != GA_PAD_CONSTANT && d < a->ndim; d++) {
        int64_t b = before[d], n = a->shape[d];
        for (int64_t p = 0; st == GA_OK && p < shape[d];) {
            if (p == b) { /* skip the centre */
                p += n;
                continue;
            }
            int dir;
            int64_t s = ga__pad_source(mode, p, b, n, &dir), end = p < b ? b : shape[d], len = 1;
            while (p + len < end) { /* extend the run while the source moves in step */
                int next_dir;
                int64_t t = ga__pad_source(mode, p + len, b, n, &next_dir);
                if (t != s + dir * len) break;
                len++;
            }
            st = ga__pad_copy(func, out, d, p, s, len, dir, before, inner);
            p += len;
        }
        inner[d] = shape[d];
        before[d] = 0;
    }
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return ga__ret(out);
}

GPUARR_API ga_array *ga_tile(const ga_array *a, int n, const int64_t *reps)
{
    static const char func[] = "ga_tile";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (n > 0 && !reps) { ga__null_input(func, "reps"); return NULL; }
    int nd = GA__MAX(n, a->ndim);
    if (n < 0 || nd > GA_MAXDIMS / 2) {
        ga__error(GA_ERROR_VALUE, func, "tile supports at most %d dimensions", GA_MAXDIMS / 2);
        return NULL;
    }
    int64_t vshape[GA_MAXDIMS], vstrides[GA_MAXDIMS], shape[GA_MAXDIMS];
    for (int d = 0; d < nd; d++) {
        int ad = d - (nd - a->ndim), rd = d - (nd - n);
        int64_t r = rd >= 0 ? reps[rd] : 1, s = ad >= 0 ? a->shape[ad] : 1;
        if (r < 0) {
            ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
            return NULL;
        }
        vshape[2 * d] = r; /* (reps, size) pairs: the repeat axis is a broadcast */
        vstrides[2 * d] = 0;
        vshape[2 * d + 1] = s;
        vstrides[2 * d + 1] = ad >= 0 ? a->strides[ad] : 0;
        if (ga__mul_overflow(r, s, &shape[d])) {
            ga__too_big(func);
            return NULL;
        }
    }
    return ga__ret(ga__materialize(func, a, 2 * nd, vshape, vstrides, nd, shape));
}

GPUARR_API ga_array *ga_repeat(const ga_array *a, int64_t repeats, int axis)
{
    static const char func[] = "ga_repeat";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (repeats < 0) {
        ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
        return NULL;
    }
    ga_array *src = NULL;
    if (axis == GA_AXIS_NONE) {
        int64_t size = a->size;
        src = ga__reshape(func, a, 1, &size);
        axis = 0;
    } else {
        if (ga__normalize_axis(func, "", &axis, a->ndim) != GA_OK) return NULL;
        src = ga_retain((ga_array *)a);
    }
    if (!src) return NULL;
    if (src->ndim + 1 > GA_MAXDIMS) {
        ga_release(src);
        ga__error(GA_ERROR_VALUE, func, "repeat supports at most %d dimensions", GA_MAXDIMS - 1);
        return NULL;
    }
    int64_t vshape[GA_MAXDIMS], vstrides[GA_MAXDIMS], shape[GA_MAXDIMS];
    for (int d = 0, v = 0; d < src->ndim; d++) {
        vshape[v] = src->shape[d];
        vstrides[v++] = src->strides[d];
        shape[d] = src->shape[d];
        if (d == axis) { /* each element, `repeats` times */
            vshape[v] = repeats;
            vstrides[v++] = 0;
            if (ga__mul_overflow(shape[d], repeats, &shape[d])) {
                ga_release(src);
                ga__too_big(func);
                return NULL;
            }
        }
    }
    ga_array *r = ga__materialize(func, src, src->ndim + 1, vshape, vstrides, src->ndim, shape);
    ga_release(src);
    return ga__ret(r);
}

static ga_array *ga__roll(const char *func, const ga_array *a, int64_t shift, int axis)
{
    if (axis == GA_AXIS_NONE) {
        int64_t size = a->size;
        ga_array *flat = ga__reshape(func, a, 1, &size);
        ga_array *rolled = flat ? ga__roll(func, flat, shift, 0) : NULL;
        ga_array *r = rolled ? ga__reshape(func, rolled, a->ndim, a->shape) : NULL;
        ga_release(flat);
        ga_release(rolled);
        return r;
    }
    if (ga__normalize_axis(func, "", &axis, a->ndim) != GA_OK) return NULL;
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *out = ga__array_new(func, a->device, a->ndim, a->shape, a->dtype);
    if (!out) return NULL;
    int64_t n = a->shape[axis], k = n ? shift % n : 0;
    if (k < 0) k += n;
    /* out[k:] = a[:n-k]; out[:k] = a[n-k:] */
    ga_array *parts[4] = {ga__axis_slice(func, out, axis, k, n - k), ga__axis_slice(func, a, axis, 0, n - k),
                          ga__axis_slice(func, out, axis, 0, k), ga__axis_slice(func, a, axis, n - k, k)};
    ga_status st = parts[0] && parts[1] && parts[2] && parts[3] ? GA_OK : ga__t.error;
    if (st == GA_OK) st = ga__copyto(func, parts[0], parts[1], GA_CASTING_NO);
    if (st == GA_OK) st = ga__copyto(func, parts[2], parts[3], GA_CASTING_NO);
    for (int i = 0; i < 4; i++) ga_release(parts[i]);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

GPUARR_API ga_array *ga_roll(const ga_array *a, int64_t shift, int axis)
{
    if (!a) { ga__null_input("ga_roll", "a"); return NULL; }
    return ga__ret(ga__roll("ga_roll", a, shift, axis));
}

GPUARR_API ga_status ga_meshgrid(int n, const ga_array *const *xi, bool ij, ga_array **out)
{
    static const char func[] = "ga_meshgrid";
    if (n < 0 || n > GA_MAXDIMS) return ga__error(GA_ERROR_VALUE, func, "between 0 and %d inputs", GA_MAXDIMS);
    if (n > 0 && (!xi || !out)) return ga__null_input(func, "xi or out");
    int64_t shape[GA_MAXDIMS];
    for (int i = 0; i < n; i++) {
        if (!xi[i]) return ga__null_input(func, "an input array");
        int at = !ij && n >= 2 && i < 2 ? 1 - i : i; /* "xy" swaps the first two axes */
        shape[at] = xi[i]->size;
    }
    for (int i = 0; i < n; i++) {
        int at = !ij && n >= 2 && i < 2 ? 1 - i : i;
        int64_t size = xi[i]->size;
        ga_array *flat = ga__reshape(func, xi[i], 1, &size);
        int64_t strides[GA_MAXDIMS] = {0};
        if (flat) strides[at] = flat->strides[0];
        out[i] = flat ? ga__materialize(func, flat, n, shape, strides, n, shape) : NULL;
        ga_release(flat);
        if (!out[i]) {
            for (int j = 0; j < i; j++) ga_release(out[j]);
            return ga__t.error;
        }
    }
    for (int i = 0; i < n; i++) ga__ret(out[i]);
    return GA_OK;
}


static void ga__manip_shutdown(void) { memset(&ga__manip_kernels, 0, sizeof ga__manip_kernels); }

/* >>index */
/* ------------------------------------------------------------------------ */
/* 16. Indexing: basic, gathers and scatters, advanced, masks, nonzero       */
/* ------------------------------------------------------------------------ */
/* Basic indexing makes views (>>shape's layouts); gathers, scatters and
   advanced indexing launch the index family's kernels. */

/* The section's kernels: take and put by item size, add (add_at) by dtype. */
static struct {
    CUkernel take[5], put[5], check_bounds, add_at[GA_NUM_DTYPES];
} ga__index_kernels;

/* --- basic indexing -------------------------------------------------------- */

/* a's view under basic index items: its layout in *out. `as_written`: the
   text path, whose slice bounds and steps are the numbers written (omitted
   ones already Python's values, see ga__parse_index); otherwise ga_slice's
   items, where GA_NONE omits a part. */
static ga_status ga__index_layout(const char *func, const ga_array *a, int n, const ga_index_item *items,
                                  bool as_written, ga__layout *out)
{
    int consumed = 0, ellipses = 0, integers = 0, added = 0;
    if (n < 0) return ga__error(GA_ERROR_VALUE, func, "a negative number of index items (%d)", n);
    for (int i = 0; i < n; i++) {
        if (items[i].kind == GA_INDEX_INTEGER || items[i].kind == GA_INDEX_SLICE) consumed++;
        else if (items[i].kind == GA_INDEX_ELLIPSIS) ellipses++;
        else if (items[i].kind == GA_INDEX_NEWAXIS) added++;
        else return ga__error(GA_ERROR_VALUE, func, "invalid index kind %d", (int)items[i].kind);
        integers += items[i].kind == GA_INDEX_INTEGER;
    }
    if (ellipses > 1) return ga__error(GA_ERROR_INDEX, func, "an index can only have a single ellipsis ('...')");
    if (consumed > a->ndim)
        return ga__error(GA_ERROR_INDEX, func, "too many indices for array: array is %d-dimensional, but %d were indexed",
                         a->ndim, consumed);
    /* every axis of a stays but those given an integer; each newaxis adds one */
    const int64_t result_ndim = (int64_t)a->ndim - integers + added;
    if (result_ndim > GA_MAXDIMS)
        return ga__error(GA_ERROR_INDEX, func,
                         "number of dimensions must be within [0, %d], indexing result would have %lld", GA_MAXDIMS,
                         (long long)result_ndim);
    int d = 0;
    out->ndim = 0;
    out->offset = 0;
    bool empty = false, beyond = false; /* beyond: the offset overflowed int64 (only an empty view may) */
    for (int i = 0; i <= n; i++) {
        if (i == n || items[i].kind == GA_INDEX_ELLIPSIS) { /* full slices: to the end, or as many as fit */
            int upto = i == n ? a->ndim : d + (a->ndim - consumed);
            for (; d < upto; d++) {
                out->shape[out->ndim] = a->shape[d];
                out->strides[out->ndim++] = a->strides[d];
                empty = empty || a->shape[d] == 0;
            }
            continue;
        }
        const ga_index_item *it = &items[i];
        int64_t move = 0;
        if (it->kind == GA_INDEX_NEWAXIS) {
            out->shape[out->ndim] = 1;
            out->strides[out->ndim++] = 0;
        } else if (it->kind == GA_INDEX_INTEGER) {
            int64_t k = it->start, size = a->shape[d];
            if (k < -size || k >= size)
                return ga__error(GA_ERROR_INDEX, func, "index %lld is out of bounds for axis %d with size %lld",
                                 (long long)k, d, (long long)size);
            if (k < 0) k += size;
            beyond = beyond || ga__mul_overflow(k, a->strides[d], &move);
            d++;
        } else {
            int64_t step = it->step, first, length, stride;
            if (!as_written && step == GA_NONE) step = 1;
            if (step == 0) return ga__error(GA_ERROR_VALUE, func, "slice step cannot be zero");
            if (as_written) ga__slice_adjust(it->start, it->stop, step, a->shape[d], &first, &length);
            else ga__slice_indices(it->start, it->stop, step, a->shape[d], &first, &length);
            if (length > 0) beyond = beyond || ga__mul_overflow(first, a->strides[d], &move);
            empty = empty || length == 0;
            /* NumPy: an empty slice is 0:0:1; a one-element slice's stride
               addresses nothing and is NumPy's C product, wrapped */
            if (length == 0) stride = a->strides[d];
            else if (ga__mul_overflow(a->strides[d], step, &stride) && length > 1) beyond = true;
            out->shape[out->ndim] = length;
            out->strides[out->ndim++] = stride;
            d++;
        }
        beyond = beyond || ga__add_overflow(out->offset, move, &out->offset);
    }
    if (empty) out->offset = 0; /* NumPy keeps an empty view at its base */
    else if (beyond) return ga__too_big(func); /* not for a view inside its buffer */
    return GA_OK;
}

/* Parses one integer of an index text and advances *p; a value beyond
   int64 is clamped to it, with *clamped set (Python's ints have no bound:
   a slice clamps them, an integer index is an error). */
static bool ga__parse_int(const char **p, int64_t *value, bool *clamped)
{
    const char *s = *p;
    while (*s == ' ') s++;
    bool negative = *s == '-';
    if (*s == '-' || *s == '+') s++;
    while (*s == ' ') s++;
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0, limit = (uint64_t)INT64_MAX + negative;
    *clamped = false;
    while (*s >= '0' && *s <= '9') {
        unsigned digit = (unsigned)(*s++ - '0');
        if (*clamped || v > (limit - digit) / 10) *clamped = true;
        else v = v * 10 + digit;
    }
    if (*clamped) v = limit;
    *value = negative ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return true;
}

/* Parses "1:5, ::-1, ..., None" into at most 2 * GA_MAXDIMS items. The
   slices come out as written (ga__index_layout's as_written): an omitted
   step is 1, an omitted start or stop takes Python's value for it (start
   0, stop INT64_MAX; with a negative step INT64_MAX and INT64_MIN), so that
   no number a user writes, INT64_MIN included, reads as "omitted". Steps
   below -INT64_MAX are -INT64_MAX, as in Python. */
static ga_status ga__parse_index(const char *func, const char *text, ga_index_item *items, int *n)
{
    *n = 0;
    const char *s = text;
    while (*s == ' ') s++;
    if (!*s) return GA_OK; /* a[()] */
    for (;;) {
        const char *start = s;
        const char *end = s;
        while (*end && *end != ',') end++;
        size_t len = (size_t)(end - start);
        while (len && start[len - 1] == ' ') len--;
        while (len && *start == ' ') start++, len--;
        if (*n == 2 * GA_MAXDIMS) return ga__error(GA_ERROR_INDEX, func, "too many indices");
        ga_index_item *it = &items[(*n)++];
        if (len == 3 && strncmp(start, "...", 3) == 0) {
            *it = ga_ellipsis();
        } else if ((len == 4 && strncmp(start, "None", 4) == 0) || (len == 7 && strncmp(start, "newaxis", 7) == 0)) {
            *it = ga_newaxis();
        } else if (memchr(start, ':', len)) {
            int64_t parts[3] = {0, 0, 1};
            bool given[3] = {false, false, false}, clamped;
            const char *q = start;
            int part = 0;
            for (;;) {
                while (q < start + len && *q == ' ') q++;
                if (q < start + len && *q != ':') {
                    if (!ga__parse_int(&q, &parts[part], &clamped)) goto invalid;
                    given[part] = true;
                }
                while (q < start + len && *q == ' ') q++;
                if (q >= start + len) break;
                if (*q != ':' || ++part > 2) goto invalid;
                q++;
            }
            int64_t step = given[2] ? GA__MAX(parts[2], -INT64_MAX) : 1;
            if (!given[0]) parts[0] = step < 0 ? INT64_MAX : 0;
            if (!given[1]) parts[1] = step < 0 ? INT64_MIN : INT64_MAX;
            *it = ga_slice(parts[0], parts[1], step);
        } else {
            const char *q = start;
            int64_t v;
            bool clamped;
            if (len == 0 || !ga__parse_int(&q, &v, &clamped) || q != start + len) goto invalid;
            if (clamped) return ga__error(GA_ERROR_INDEX, func, "cannot fit 'int' into an index-sized integer");
            *it = ga_at(v);
        }
        if (!*end) break;
        s = end + 1;
        while (*s == ' ') s++;
        if (!*s) break; /* a trailing comma, as in a[1,] */
    }
    return GA_OK;
invalid:
    return ga__error(GA_ERROR_VALUE, func, "invalid index '%s'", text);
}

/* Advanced indexing (further down). */
static bool ga__has_array_item(int n, const ga_index_item *items);
static ga_array *ga__advanced_get(const char *func, const ga_array *a, int n, const ga_index_item *items);

GPUARR_API ga_array *ga_index_items(const ga_array *a, int n, const ga_index_item *items)
{
    static const char func[] = "ga_index_items";
    ga__layout l;
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (n > 0 && !items) { ga__null_input(func, "items"); return NULL; }
    if (ga__has_array_item(n, items)) return ga__ret(ga__advanced_get(func, a, n, items));
    if (ga__index_layout(func, a, n, items, false, &l) != GA_OK) return NULL;
    return ga__ret(ga__view(func, a, &l, true));
}

GPUARR_API ga_array *ga_index(const ga_array *a, const char *index)
{
    static const char func[] = "ga_index";
    ga_index_item items[2 * GA_MAXDIMS];
    ga__layout l;
    int n;
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!index) { ga__null_input(func, "index"); return NULL; }
    if (ga__parse_index(func, index, items, &n) != GA_OK || ga__index_layout(func, a, n, items, true, &l) != GA_OK)
        return NULL;
    return ga__ret(ga__view(func, a, &l, true));
}

/* How many of value's leading unit dims go beyond ndim: NumPy's
   assignment drops them. */
static int ga__extra_unit_dims(const ga_array *value, int ndim)
{
    int skip = 0;
    while (value->ndim - skip > ndim && value->shape[skip] == 1) skip++;
    return skip;
}

/* view = value, for a[index] = value: value's leading unit dims beyond
   the view's are dropped first, as NumPy's assignment does (copyto keeps
   them, and refuses). */
static ga_status ga__assign_view(const char *func, ga_array *view, const ga_array *value)
{
    int skip = ga__extra_unit_dims(value, view->ndim), nd = 0, bad = 0;
    int64_t shape[GA_MAXDIMS];
    const int ndims[2] = {value->ndim - skip, view->ndim};
    const int64_t *shapes[2] = {value->shape + skip, view->shape};
    bool fits = skip && ga__broadcast_shapes(2, ndims, shapes, &nd, shape, &bad) && nd == view->ndim;
    for (int d = 0; fits && d < nd; d++) fits = shape[d] == view->shape[d];
    if (!fits) skip = 0; /* copyto's error names the value's own shape */
    if (!skip) return ga__copyto(func, view, value, GA_CASTING_UNSAFE);
    ga_array *v = ga__reshape(func, value, value->ndim - skip, value->shape + skip);
    if (!v) return ga__t.error;
    ga_status st = ga__copyto(func, view, v, GA_CASTING_UNSAFE);
    ga_release(v);
    return st;
}

/* NumPy 2 assigns to one element (every axis given an integer, or a[()]
   of a 0-d a) a scalar only: a value of ndim > 0, even of size 1, is its
   "setting an array element with a sequence." (a[...] is a view: any),
   but for a bool element, whose assignment takes a one-element array's
   truth. */
static ga_status ga__check_element_value(const char *func, const ga_array *a, int n, const ga_index_item *items,
                                         const ga_array *value)
{
    bool element = n == a->ndim;
    for (int i = 0; i < n && element; i++) element = items[i].kind == GA_INDEX_INTEGER;
    bool truth = a->dtype == GA_BOOL && value->size == 1;
    if (element && value->ndim > 0 && !truth)
        return ga__error(GA_ERROR_VALUE, func, "setting an array element with a sequence.");
    return GA_OK;
}

static ga_status ga__setitem(const char *func, ga_array *a, const char *index, const ga_array *value)
{
    ga_index_item items[2 * GA_MAXDIMS];
    ga__layout l;
    int n;
    if (!a) return ga__null_input(func, "a");
    if (!index) return ga__null_input(func, "index");
    if (!value) return ga__null_input(func, "value");
    ga_status st = ga__parse_index(func, index, items, &n);
    if (st == GA_OK) st = ga__index_layout(func, a, n, items, true, &l);
    if (st == GA_OK) st = ga__check_element_value(func, a, n, items, value);
    if (st != GA_OK) return st;
    ga_array *view = ga__view(func, a, &l, true);
    if (!view) return ga__t.error;
    st = ga__assign_view(func, view, value);
    ga_release(view);
    return st;
}

GPUARR_API ga_status ga_setitem(ga_array *a, const char *index, const ga_array *value)
{
    return ga__setitem("ga_setitem", a, index, value);
}

GPUARR_API ga_status ga_setitem_scalar(ga_array *a, const char *index, ga_scalar value)
{
    static const char func[] = "ga_setitem_scalar";
    if (!a) return ga__null_input(func, "a");
    if (ga__assigned_scalar(func, value, a->dtype, &value) != GA_OK) return ga__t.error;
    ga_array *v = ga__full_on(func, a->device, 0, NULL, value, a->dtype);
    if (!v) return ga__t.error;
    ga_status st = ga__setitem(func, a, index, v);
    ga_release(v);
    return st;
}

/* --- gathers by index ------------------------------------------------------ */

/* NumPy's TypeError when indices of `dtype` do not convert to int64 under
   `casting`. */
static ga_status ga__check_index_dtype(const char *func, ga_dtype dtype, ga_casting casting)
{
    if (ga_can_cast(dtype, GA_INT64, casting)) return GA_OK;
    return ga__error(GA_ERROR_TYPE, func, "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule '%s'",
                     ga__dtype_names[dtype], casting == GA_CASTING_SAFE ? "safe" : "same_kind");
}

/* Indices as a C-contiguous int64 array (a new reference), converted under
   `casting` as NumPy converts them: same_kind for take and the along-axis
   forms (uint64 indices wrap), safe for put. */
static ga_array *ga__int64_indices(const char *func, const ga_array *idx, ga_casting casting)
{
    if (ga__check_index_dtype(func, idx->dtype, casting) != GA_OK) return NULL;
    if (idx->dtype == GA_INT64 && (idx->flags & GA_C_CONTIGUOUS)) return ga_retain((ga_array *)idx);
    return ga__contiguous_copy(func, idx, GA_INT64);
}

/* NumPy's IndexError for the first index outside [-limit, limit), if any
   (this waits for the stream: raise mode must know before it writes). */
/* A 0-d array's value as int64 or float64 (waits). */
static ga_status ga__read_scalar(const char *func, const ga_array *x, ga_dtype as, void *value)
{
    ga_array *c = ga__contiguous_copy(func, x, as);
    ga_status st = c ? ga__to_host(func, c, value, 8, true) : ga__t.error;
    ga_release(c);
    return st;
}

static ga_status ga__check_indices(const char *func, const ga_array *idx, int64_t limit, int axis)
{
    if (idx->size == 0) return GA_OK;
    ga__block *flag = ga__device_alloc(func, idx->device, 8, false);
    if (!flag) return ga__t.error;
    CUstream stream = ga__stream_of(idx->device);
    unsigned long long first = 0;
    ga_status st = GA_OK;
    CUfunction f = ga__kernel(func, GA__FAMILY_INDEX, &ga__index_kernels.check_bounds, "check_bounds", NULL, NULL, NULL);
    void *ip = (void *)(uintptr_t)idx->data, *fp = (void *)(uintptr_t)flag->ptr;
    int64_t n = idx->size;
    void *args[] = {&ip, &n, &limit, &fp};
    if (GA__CU.MemsetD8Async((CUdeviceptr)flag->ptr, 0xFF, 8, stream) != CUDA_SUCCESS)
        st = ga__error(GA_ERROR_CUDA, func, "cuMemsetD8Async failed");
    if (st == GA_OK) st = ga__launch(func, f, idx->device, n, args);
    if (st == GA_OK && (GA__CU.MemcpyDtoHAsync(&first, (CUdeviceptr)flag->ptr, 8, stream) != CUDA_SUCCESS ||
                        GA__CU.StreamSynchronize(stream) != CUDA_SUCCESS))
        st = ga__error(GA_ERROR_CUDA, func, "reading the bounds check back failed");
    if (st == GA_OK && first != ~0ull) {
        int64_t bad = 0;
        if (GA__CU.MemcpyDtoHAsync(&bad, (CUdeviceptr)(idx->data + first * 8), 8, stream) == CUDA_SUCCESS &&
            GA__CU.StreamSynchronize(stream) == CUDA_SUCCESS)
            st = ga__error(GA_ERROR_INDEX, func, "index %lld is out of bounds for axis %d with size %lld", (long long)bad,
                           axis, (long long)limit);
        else
            st = ga__error(GA_ERROR_CUDA, func, "reading the bad index back failed");
    }
    ga__pool_free(ga__g.devices[idx->device].pool, flag);
    return st;
}

/* The parameters of a gather from or scatter into `a` (which collapses to
   (outer, axis, inner)) along `axis`, for `count` indices per (outer,
   inner) position with element strides idx_strides. */
static void ga__index_params(const ga_array *a, int axis, int64_t count, const int64_t idx_strides[3],
                             ga_index_mode mode, ga__take_params *p)
{
    memset(p, 0, sizeof *p);
    p->outer = 1;
    for (int d = 0; d < axis; d++) p->outer *= a->shape[d];
    p->inner = 1;
    for (int d = axis + 1; d < a->ndim; d++) p->inner *= a->shape[d];
    p->count = count;
    p->axis_len = a->shape[axis];
    p->a_axis = a->strides[axis];
    ga__collapse_range(a->shape, a->strides, 0, axis, &p->a_outer);
    ga__collapse_range(a->shape, a->strides, axis + 1, a->ndim, &p->a_inner);
    p->idx_outer = idx_strides[0];
    p->idx_count = idx_strides[1];
    p->idx_inner = idx_strides[2];
    p->nvalues = 1;
    p->mode = (int32_t)mode;
}

/* Runs the take (`values` NULL: out = a[idx]) or put (a[idx] = values)
   kernel described by p, after raise mode's bounds check. */
static ga_status ga__index_launch(const char *func, const ga_array *a, ga_array *out, const ga_array *values,
                                  const ga_array *idx, int axis, ga__take_params *p)
{
    int64_t total;
    if (ga__mul_overflow(p->outer, p->count, &total) || ga__mul_overflow(total, p->inner, &total))
        return ga__too_big(func);
    if (total != 0 && p->axis_len == 0)
        return ga__error(GA_ERROR_INDEX, func, "cannot do a non-empty take from an empty axes.");
    /* NumPy checks the indices once per outer position, even when the
       inner dims are empty */
    if (p->mode == GA_INDEX_RAISE && p->outer > 0 && p->count > 0) {
        ga_status st = ga__check_indices(func, idx, p->axis_len, axis);
        if (st != GA_OK) return st;
    }
    if (total == 0) return GA_OK;
    int c = ga__size_class(ga__dtype_sizes[a->dtype]);
    void *ap = (void *)(uintptr_t)a->data, *ip = (void *)(uintptr_t)idx->data;
    if (!values) {
        CUfunction f = ga__kernel(func, GA__FAMILY_INDEX, &ga__index_kernels.take[c], "take", ga__size_names[c], NULL, NULL);
        void *op = (void *)(uintptr_t)out->data;
        void *args[] = {&op, &ap, &ip, p};
        return ga__launch(func, f, a->device, total, args);
    }
    CUfunction f;
    if (p->add) { /* add.at: one kernel per dtype, the unsigned integers by their signed ones */
        static const ga_dtype kernel_of[GA_NUM_DTYPES] = {GA_BOOL, GA_INT8, GA_INT16, GA_INT32, GA_INT64, GA_INT8,
                                                          GA_INT16, GA_INT32, GA_INT64, GA_FLOAT16, GA_BFLOAT16,
                                                          GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
        ga_dtype k = kernel_of[a->dtype];
        f = ga__kernel(func, GA__FAMILY_INDEX, &ga__index_kernels.add_at[k], "add", ga__dtype_names[k], NULL, NULL);
    } else {
        f = ga__kernel(func, GA__FAMILY_INDEX, &ga__index_kernels.put[c], "put", ga__size_names[c], NULL, NULL);
    }
    void *vp = (void *)(uintptr_t)values->data;
    void *args[] = {&ap, &vp, &ip, p};
    if (p->add || ga__dtype_sizes[a->dtype] != 16) return ga__launch(func, f, a->device, total, args);
    /* 16-byte elements: the last value at a repeated index lands whole, in
       four steps over the indices with a byte per element (index.cu) */
    ga__block *won = ga__device_alloc(func, a->device, (size_t)total, false);
    if (!won) return ga__t.error;
    p->won = won->ptr;
    ga_status st = GA_OK;
    for (p->phase = 0; p->phase < 4 && st == GA_OK; p->phase++) st = ga__launch(func, f, a->device, total, args);
    ga__pool_free(ga__g.devices[a->device].pool, won); /* stream-ordered */
    return st;
}

/* out (C-contiguous, (outer, count, inner)) = src gathered along `axis` by
   idx (int64, contiguous) with element strides idx_strides. */
static ga_status ga__gather(const char *func, ga_array *out, const ga_array *src, int axis, const ga_array *idx,
                            const int64_t idx_strides[3], ga_index_mode mode)
{
    ga__take_params p;
    int64_t rest = 1;
    for (int d = 0; d < src->ndim; d++) rest *= d == axis ? 1 : src->shape[d];
    /* with the other dims empty, an index shared by every position still
       counts (raise mode checks it, as NumPy) */
    const bool shared = idx_strides[0] == 0 && idx_strides[2] == 0;
    ga__index_params(src, axis, rest ? out->size / rest : shared ? idx->size : 0, idx_strides, mode, &p);
    return ga__index_launch(func, src, out, NULL, idx, axis, &p);
}

/* src itself when it collapses to (outer, axis, inner), else a C copy. */
static ga_array *ga__gatherable(const char *func, const ga_array *src, int axis)
{
    int64_t unused;
    if (ga__collapse_range(src->shape, src->strides, 0, axis, &unused) &&
        ga__collapse_range(src->shape, src->strides, axis + 1, src->ndim, &unused))
        return ga_retain((ga_array *)src);
    return ga__contiguous_copy(func, src, src->dtype);
}

GPUARR_API ga_array *ga_take(const ga_array *a, const ga_array *indices, int axis, ga_index_mode mode)
{
    static const char func[] = "ga_take";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!indices) { ga__null_input(func, "indices"); return NULL; }
    if ((unsigned)mode > GA_INDEX_CLIP) {
        ga__error(GA_ERROR_VALUE, func, "invalid mode %d", (int)mode);
        return NULL;
    }
    ga_array *src;
    if (axis == GA_AXIS_NONE) {
        int64_t size = a->size;
        src = ga__reshape(func, a, 1, &size);
        axis = 0;
    } else {
        if (ga__normalize_axis(func, "", &axis, a->ndim) != GA_OK) return NULL;
        src = ga__gatherable(func, a, axis);
    }
    if (!src) return NULL;
    int ndim = src->ndim - 1 + indices->ndim;
    ga_array *idx = ndim <= GA_MAXDIMS ? ga__int64_indices(func, indices, GA_CASTING_SAME_KIND) : NULL;
    ga_array *out = NULL;
    if (ndim > GA_MAXDIMS) ga__error(GA_ERROR_VALUE, func, "the result would have %d dimensions", ndim);
    if (idx) {
        int64_t shape[GA_MAXDIMS];
        int n = 0;
        for (int d = 0; d < axis; d++) shape[n++] = src->shape[d];
        for (int d = 0; d < indices->ndim; d++) shape[n++] = indices->shape[d];
        for (int d = axis + 1; d < src->ndim; d++) shape[n++] = src->shape[d];
        if (ga__bind(func, src->device) == GA_OK) out = ga__array_new(func, src->device, ndim, shape, src->dtype);
        const int64_t idx_strides[3] = {0, 1, 0};
        if (out && ga__gather(func, out, src, axis, idx, idx_strides, mode) != GA_OK) {
            ga_release(out);
            out = NULL;
        }
    }
    ga_release(idx);
    ga_release(src);
    return ga__ret(out);
}

/* x broadcast to (ndim, shape) as a new C-contiguous array, or NULL with
   NumPy's error when the shapes do not broadcast. */
static ga_array *ga__broadcast_copy(const char *func, const ga_array *x, int ndim, const int64_t *shape)
{
    ga_array *b = ga__broadcast_view(func, x, ndim, shape);
    if (!b) {
        char from[200], to[200];
        ga__format_shape(from, sizeof from, x->ndim, x->shape);
        ga__format_shape(to, sizeof to, ndim, shape);
        ga__error(GA_ERROR_SHAPE, func, "shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s",
                  from, to);
        return NULL;
    }
    ga_array *c = ga__materialize(func, b, b->ndim, b->shape, b->strides, b->ndim, b->shape);
    ga_release(b);
    return c;
}

/* The shapes of an along-axis operation (numpy.take_along_axis and
   put_along_axis): `shape` is the indices broadcast against a in the other
   axes, `ashape` the same with a's own length along `axis` (normalised
   here). Errors with NumPy's words. */
static ga_status ga__along_axis_shapes(const char *func, const ga_array *a, const ga_array *indices, int *axis,
                                       int64_t *shape, int64_t *ashape)
{
    if (indices->ndim != a->ndim)
        return ga__error(GA_ERROR_VALUE, func, "`indices` and `arr` must have the same number of dimensions");
    ga_status st = ga__normalize_axis(func, "", axis, a->ndim);
    if (st != GA_OK) return st;
    for (int d = 0; d < a->ndim; d++) {
        int64_t x = a->shape[d], y = indices->shape[d];
        if (d != *axis && x != y && x != 1 && y != 1) {
            char s1[200], s2[200];
            int64_t as[GA_MAXDIMS]; /* NumPy shows a's shape with the indexed axis as 1 */
            for (int k = 0; k < a->ndim; k++) as[k] = k == *axis ? 1 : a->shape[k];
            ga__format_shape(s1, sizeof s1, a->ndim, as);
            ga__format_shape(s2, sizeof s2, indices->ndim, indices->shape);
            return ga__error(GA_ERROR_INDEX, func,
                             "shape mismatch: indexing arrays could not be broadcast together with shapes %s %s ", s1, s2);
        }
        shape[d] = d == *axis ? y : (x == 1 ? y : x);
        ashape[d] = d == *axis ? x : shape[d];
    }
    return GA_OK;
}

GPUARR_API ga_array *ga_take_along_axis(const ga_array *a, const ga_array *indices, int axis)
{
    static const char func[] = "ga_take_along_axis";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!indices) { ga__null_input(func, "indices"); return NULL; }
    ga_array *flat = NULL;
    if (axis == GA_AXIS_NONE) { /* a flattened, indices 1-d */
        if (indices->ndim != 1) {
            ga__error(GA_ERROR_VALUE, func, "when axis=None, `indices` must have a single dimension.");
            return NULL;
        }
        int64_t size = a->size;
        a = flat = ga__reshape(func, a, 1, &size);
        if (!a) return NULL;
        axis = 0;
    }
    ga_array *idx = NULL, *idx_full = NULL, *src = NULL, *out = NULL;
    int64_t shape[GA_MAXDIMS], ashape[GA_MAXDIMS];
    if (ga__along_axis_shapes(func, a, indices, &axis, shape, ashape) != GA_OK) goto done;
    idx = ga__int64_indices(func, indices, GA_CASTING_SAME_KIND);
    if (!idx) goto done;
    { /* the indices, broadcast to the result's shape and laid out contiguously */
        bool full = true;
        for (int d = 0; d < a->ndim; d++) full = full && idx->shape[d] == shape[d];
        idx_full = full ? ga_retain(idx) : ga__broadcast_copy(func, idx, a->ndim, shape);
    }
    if (!idx_full) goto done;
    { /* a, broadcast in the other axes */
        ga_array *b = ga__broadcast_view(func, a, a->ndim, ashape);
        src = b ? ga__gatherable(func, b, axis) : NULL;
        ga_release(b);
    }
    if (!src || ga__bind(func, a->device) != GA_OK) goto done;
    out = ga__array_new(func, a->device, a->ndim, shape, a->dtype);
    if (out) {
        int64_t inner = 1;
        for (int d = axis + 1; d < a->ndim; d++) inner *= shape[d];
        const int64_t idx_strides[3] = {shape[axis] * inner, inner, 1};
        if (ga__gather(func, out, src, axis, idx_full, idx_strides, GA_INDEX_RAISE) != GA_OK) {
            ga_release(out);
            out = NULL;
        }
    }
done:
    ga_release(idx);
    ga_release(idx_full);
    ga_release(src);
    ga_release(flat);
    return ga__ret(out);
}

/* Scatters into `a` through p: directly when a collapses to (outer, axis,
   inner), else into a contiguous copy that is written back. */
static ga_status ga__scatter(const char *func, ga_array *a, const ga_array *values, const ga_array *idx, int axis,
                             const int64_t idx_strides[3], int64_t count, ga_index_mode mode, const int64_t *a_shape,
                             bool add)
{
    ga_array *view = ga__broadcast_view(func, a, a->ndim, a_shape); /* a, broadcast in the other axes */
    ga_array *target = view ? ga__gatherable(func, view, axis) : NULL;
    ga_status st = target ? GA_OK : ga__t.error;
    if (st == GA_OK) {
        ga__take_params p;
        ga__index_params(target, axis, count, idx_strides, mode, &p);
        p.nvalues = values->size;
        p.add = add;
        st = ga__index_launch(func, target, NULL, values, idx, axis, &p);
        if (st == GA_OK && target != view) st = ga__copyto(func, a, target, GA_CASTING_NO);
    }
    ga_release(target);
    ga_release(view);
    return st;
}

/* The arguments every put needs: all present, the target writeable. */
static ga_status ga__check_put(const char *func, const ga_array *a, const ga_array *indices, const ga_array *values)
{
    if (!a) return ga__null_input(func, "a");
    if (!indices || !values) return ga__null_input(func, "indices or values");
    if (!(a->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    return GA_OK;
}

/* a.flat[indices] = values, errors named by func (ga_put, ga_place). */
static ga_status ga__put(const char *func, ga_array *a, const ga_array *indices, const ga_array *values,
                         ga_index_mode mode)
{
    ga_status st = ga__check_put(func, a, indices, values);
    if (st != GA_OK) return st;
    if ((unsigned)mode > GA_INDEX_CLIP) return ga__error(GA_ERROR_VALUE, func, "invalid mode %d", (int)mode);
    /* NumPy's order: the indices' dtype, an empty a, then nothing to put */
    if (ga__check_index_dtype(func, indices->dtype, GA_CASTING_SAFE) != GA_OK) return ga__t.error;
    if (indices->size > 0 && a->size == 0)
        return ga__error(GA_ERROR_INDEX, func, "cannot replace elements of an empty array");
    if (indices->size == 0 || values->size == 0) return GA_OK;
    int64_t size = a->size;
    ga_array *flat = ga__reshape(func, a, 1, &size); /* a.flat: a view, or a copy written back below */
    ga_array *idx = flat ? ga__int64_indices(func, indices, GA_CASTING_SAFE) : NULL;
    ga_array *vals = idx ? ga__contiguous_copy(func, values, a->dtype) : NULL;
    st = vals ? GA_OK : ga__t.error;
    if (st == GA_OK && vals->device != a->device) st = ga__error(GA_ERROR_DEVICE, func, "values are on another device");
    if (st == GA_OK) {
        const int64_t idx_strides[3] = {0, 1, 0};
        st = ga__scatter(func, flat, vals, idx, 0, idx_strides, idx->size, mode, flat->shape, false);
        if (st == GA_OK && flat->buffer != a->buffer) { /* the copy, back into a's layout */
            ga_array *shaped = ga__reshape(func, flat, a->ndim, a->shape);
            st = shaped ? ga__copyto(func, a, shaped, GA_CASTING_NO) : ga__t.error;
            ga_release(shaped);
        }
    }
    ga_release(vals);
    ga_release(idx);
    ga_release(flat);
    return st;
}

GPUARR_API ga_status ga_put(ga_array *a, const ga_array *indices, const ga_array *values, ga_index_mode mode)
{
    return ga__put("ga_put", a, indices, values, mode);
}

GPUARR_API ga_status ga_put_along_axis(ga_array *a, const ga_array *indices, const ga_array *values, int axis)
{
    static const char func[] = "ga_put_along_axis";
    ga_status st = ga__check_put(func, a, indices, values);
    if (st != GA_OK) return st;
    int64_t shape[GA_MAXDIMS], ashape[GA_MAXDIMS];
    st = ga__along_axis_shapes(func, a, indices, &axis, shape, ashape);
    if (st != GA_OK) return st;
    ga_array *idx = ga__int64_indices(func, indices, GA_CASTING_SAME_KIND), *idx_full = NULL, *vals = NULL;
    /* indices and values laid out contiguously over the broadcast shape;
       values' leading unit dims beyond it dropped, as NumPy's assignment */
    if (idx) idx_full = ga__broadcast_copy(func, idx, a->ndim, shape);
    if (idx_full) {
        ga_array *v = ga__contiguous_copy(func, values, a->dtype);
        int skip = v ? ga__extra_unit_dims(v, a->ndim) : 0;
        ga_array *w = skip ? ga__reshape(func, v, v->ndim - skip, v->shape + skip) : ga_retain(v);
        vals = w ? ga__broadcast_copy(func, w, a->ndim, shape) : NULL;
        ga_release(w);
        ga_release(v);
    }
    st = vals ? GA_OK : ga__t.error;
    if (st == GA_OK) {
        int64_t inner = 1;
        for (int d = axis + 1; d < a->ndim; d++) inner *= shape[d];
        const int64_t idx_strides[3] = {shape[axis] * inner, inner, 1};
        st = ga__scatter(func, a, vals, idx_full, axis, idx_strides, shape[axis], GA_INDEX_RAISE, ashape, false);
    }
    ga_release(vals);
    ga_release(idx_full);
    ga_release(idx);
    return st;
}

/* --- advanced indexing, masks, nonzero --------------------------------------- */

/* `a` as C-contiguous bool truth values: a itself (a new reference) when
   it already is. */
static ga_array *ga__truth_flags(const char *func, const ga_array *a)
{
    if (a->dtype == GA_BOOL && (a->flags & GA_C_CONTIGUOUS)) return ga_retain((ga_array *)a);
    return ga__contiguous_copy(func, a, GA_BOOL);
}

/* The items of n whose bool byte at `flags` (contiguous) is nonzero,
   compacted in order into a new array made once their count is known: the
   items of `in` (item_bytes each, contiguous) as `dtype`, or, with in 0,
   their int64 positions. The result is (count,), or with `matrix` (rows,
   count), the selection in its last row. The count is read back (a wait). */
static ga_array *ga__select_flagged(const char *func, int device, uint64_t in, int item_bytes, uint64_t flags,
                                    int64_t n, int rows, bool matrix, ga_dtype dtype)
{
    CUstream stream = ga__stream_of(device);
    const void *inp = (const void *)(uintptr_t)in, *fp = (const void *)(uintptr_t)flags;
    size_t count_bytes = 0, select_bytes = 0;
    int64_t count = 0;
    ga__block *count_block = NULL, *temp_block = NULL;
    ga_status st = GA_OK;
    if (n > 0) {
        int e = ga__cub_count_flags(NULL, &count_bytes, fp, n, NULL, stream);
        if (!e) e = ga__cub_select_flagged(NULL, &select_bytes, inp, fp, NULL, NULL, item_bytes, n, stream);
        if (e) {
            ga__cub_failed(func, e, "cub select (temp storage query)");
            return NULL;
        }
        size_t temp_bytes = GA__MAX(count_bytes, select_bytes);
        count_block = ga__device_alloc(func, device, 8, false);
        temp_block = count_block ? ga__device_alloc(func, device, temp_bytes ? temp_bytes : 1, false) : NULL;
        if (!temp_block) st = ga__t.error;
    }
    int64_t *dcount = count_block ? (int64_t *)(uintptr_t)count_block->ptr : NULL;
    void *temp = temp_block ? (void *)(uintptr_t)temp_block->ptr : NULL;
    if (st == GA_OK && n > 0) {
        int e = ga__cub_count_flags(temp, &count_bytes, fp, n, dcount, stream);
        if (e) st = ga__cub_failed(func, e, "cub count");
        else if (GA__CU.MemcpyDtoHAsync(&count, (CUdeviceptr)count_block->ptr, 8, stream) != CUDA_SUCCESS ||
                 GA__CU.StreamSynchronize(stream) != CUDA_SUCCESS)
            st = ga__error(GA_ERROR_CUDA, func, "reading the count of selected elements back failed");
    }
    ga_array *out = NULL;
    if (st == GA_OK) {
        int64_t shape[2] = {rows, count};
        out = ga__array_new(func, device, matrix ? 2 : 1, matrix ? shape : shape + 1, dtype);
        if (!out) st = ga__t.error;
    }
    if (st == GA_OK && count > 0) {
        void *o = (void *)(uintptr_t)(out->data + (uint64_t)((rows - 1) * count) * ga__dtype_sizes[dtype]);
        int e = ga__cub_select_flagged(temp, &select_bytes, inp, fp, o, dcount, item_bytes, n, stream);
        if (e) st = ga__cub_failed(func, e, "cub select");
    }
    if (count_block) ga__pool_free(ga__g.devices[device].pool, count_block);
    if (temp_block) ga__pool_free(ga__g.devices[device].pool, temp_block);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

/* The int64 positions of the nonzero elements of `a` (C order), as in
   flatnonzero: (count,); or with `coords`, their coordinates, (ndim,
   count) with row d along axis d. */
static ga_array *ga__nonzero_positions(const char *func, const ga_array *a, bool coords)
{
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *flags = ga__truth_flags(func, a);
    int rows = coords ? a->ndim : 1;
    ga_array *out = flags ? ga__select_flagged(func, a->device, 0, 8, flags->data, a->size, rows, coords, GA_INT64)
                          : NULL;
    ga_release(flags);
    if (out && coords && a->ndim > 1) {
        int e = ga__cub_unravel((int64_t *)(uintptr_t)out->data, out->shape[1], a->ndim, a->shape,
                                ga__stream_of(a->device));
        if (e) {
            ga__cub_failed(func, e, "unravelling the positions");
            ga_release(out);
            return NULL;
        }
    }
    return out;
}

/* One array item of an advanced index, resolved. */
typedef struct ga__index_array {
    const ga_array *array;
    int axis;         /* the first axis of `a` it indexes (for messages) */
    int view_axis;    /* the first axis of the basic view it indexes */
    int naxes;        /* how many (a bool array: its ndim; a 0-d bool: one new axis) */
    ga_array *linear; /* int64, C-contiguous: positions over those axes, in C order */
} ga__index_array;

/* An index with array items, resolved against `a`: target is a view of a
   (or, where the strides do not allow one, a C copy of `base`, a view of
   a) whose axis `axis` stands for all the indexed axes; `linear` (int64,
   C-contiguous, the index arrays' broadcast shape) holds the positions
   along it, all in range (negatives made positive by WRAP mode); `shape`
   is the result's. */
typedef struct ga__advanced {
    ga_array *target, *base, *linear;
    int axis;
    int ndim;
    int64_t shape[GA_MAXDIMS];
    int64_t count; /* linear's size */
} ga__advanced;

static void ga__advanced_release(ga__advanced *adv)
{
    ga_release(adv->target);
    ga_release(adv->base);
    ga_release(adv->linear);
    memset(adv, 0, sizeof *adv);
}

static bool ga__has_array_item(int n, const ga_index_item *items)
{
    for (int i = 0; i < n; i++)
        if (items[i].kind == GA_INDEX_ARRAY) return true;
    return false;
}

/* The linear positions: sum over the index arrays of (index mod length) *
   (the lengths of the later ones), broadcast; or the one array itself. */
static ga_array *ga__linear_positions(const char *func, const ga__index_array *arrays, int narrays,
                                      const int64_t *lengths, int ndim, const int64_t *shape, int device)
{
    int64_t size = 0;
    if (narrays == 1) return ga_retain(arrays[0].linear);
    if (!ga__shape_size(ndim, shape, 8, &size)) {
        ga__too_big(func);
        return NULL;
    }
    if (size == 0) return ga__array_new(func, device, ndim, shape, GA_INT64);
    ga_array *sum = NULL;
    int64_t mult = 1;
    for (int m = narrays - 1; m >= 0; m--) {
        ga_array *term = NULL, *scaled = NULL, *next = NULL;
        ga_operand rin[2] = {ga_operand_array(arrays[m].linear), ga_operand_scalar(ga_int(lengths[m]))};
        ga_status st = ga__ufunc(func, GA_UFUNC_REMAINDER, rin, &term, NULL);
        if (st == GA_OK && mult != 1) {
            ga_operand min[2] = {ga_operand_array(term), ga_operand_scalar(ga_int(mult))};
            st = ga__ufunc(func, GA_UFUNC_MULTIPLY, min, &scaled, NULL);
        } else if (st == GA_OK) {
            scaled = ga_retain(term);
        }
        if (st == GA_OK && sum) {
            ga_operand ain[2] = {ga_operand_array(sum), ga_operand_array(scaled)};
            st = ga__ufunc(func, GA_UFUNC_ADD, ain, &next, NULL);
        } else if (st == GA_OK) {
            next = ga_retain(scaled);
        }
        ga_release(term);
        ga_release(scaled);
        ga_release(sum);
        sum = next;
        if (st != GA_OK) {
            ga_release(sum);
            return NULL;
        }
        mult *= lengths[m];
    }
    return sum; /* the terms broadcast to (ndim, shape) as they are added */
}

/* The items of an advanced index, parsed against `a` (ga__advanced_parse),
   then with the index arrays' positions (ga__advanced_index_arrays). */
typedef struct ga__advanced_items {
    ga_index_item basic[3 * GA_MAXDIMS]; /* the basic part: array items as full slices, a 0-d bool a new axis */
    int nbasic;
    ga__index_array arrays[GA_MAXDIMS];   /* the array items, a bool mask over its axes */
    int64_t lengths[GA_MAXDIMS];          /* the length of the axes each array indexes (multiplied) */
    int narrays;
    bool adjacent;                        /* the array and integer items are next to each other */
    int index_ndim;                       /* the index arrays' broadcast shape */
    int64_t index_shape[GA_MAXDIMS];
} ga__advanced_items;

static void ga__advanced_items_release(ga__advanced_items *p)
{
    for (int m = 0; m < p->narrays; m++) ga_release(p->arrays[m].linear);
}

/* The items checked one by one (index arrays: of integers or bools, on a's
   device), then together: one ellipsis at most, and no more axes indexed
   than `a` has (*consumed: how many). */
static ga_status ga__advanced_check_items(const char *func, const ga_array *a, int n, const ga_index_item *items,
                                          int *consumed)
{
    int ellipses = 0;
    *consumed = 0;
    for (int i = 0; i < n; i++) {
        const ga_index_item *it = &items[i];
        if (it->kind == GA_INDEX_INTEGER || it->kind == GA_INDEX_SLICE) (*consumed)++;
        else if (it->kind == GA_INDEX_ELLIPSIS) ellipses++;
        else if (it->kind == GA_INDEX_ARRAY) {
            const ga_array *arr = ga_index_item_array(*it);
            if (!arr) return ga__null_input(func, "an index array");
            char kind = ga__dtype_kinds[arr->dtype];
            if (kind != 'b' && kind != 'i' && kind != 'u')
                return ga__error(GA_ERROR_INDEX, func, "arrays used as indices must be of integer (or boolean) type");
            if (arr->device != a->device) return ga__error(GA_ERROR_DEVICE, func, "the index array is on another device");
            *consumed += kind == 'b' ? arr->ndim : 1;
        } else if (it->kind != GA_INDEX_NEWAXIS)
            return ga__error(GA_ERROR_VALUE, func, "invalid index kind %d", (int)it->kind);
    }
    if (ellipses > 1) return ga__error(GA_ERROR_INDEX, func, "an index can only have a single ellipsis ('...')");
    if (*consumed > a->ndim)
        return ga__error(GA_ERROR_INDEX, func, "too many indices for array: array is %d-dimensional, but %d were indexed",
                         a->ndim, *consumed);
    return GA_OK;
}

/* The items parsed: which are arrays (a bool mask over its axes), and
   the basic part, where array items become full slices (a 0-d bool a new
   axis). As NumPy, integers and bool shapes are checked here, in order;
   then (ga__advanced_index_arrays) the arrays broadcast, then their bounds
   are checked. */
static ga_status ga__advanced_parse(const char *func, const ga_array *a, int n, const ga_index_item *items,
                                    ga__advanced_items *p)
{
    p->nbasic = p->narrays = 0;
    int consumed = 0;
    ga_status st = ga__advanced_check_items(func, a, n, items, &consumed);
    if (st != GA_OK) return st;
    int axis = 0, view_axis = 0; /* the next axis of `a`, and of the basic view */
    int first_adv = -1, last_adv = -1, nadv = 0;
    for (int i = 0; i < n; i++) {
        const ga_index_item *it = &items[i];
        if (it->kind == GA_INDEX_INTEGER || it->kind == GA_INDEX_ARRAY) {
            if (first_adv < 0) first_adv = i;
            last_adv = i;
            nadv++;
        }
        /* NumPy checks the integers and 0-d integer arrays here, in the
           order of the axes, before the arrays broadcast */
        int64_t at = it->start;
        bool scalar = it->kind == GA_INDEX_INTEGER;
        if (it->kind == GA_INDEX_ARRAY && ga_index_item_array(*it)->ndim == 0 &&
            ga_index_item_array(*it)->dtype != GA_BOOL) {
            st = ga__read_scalar(func, ga_index_item_array(*it), GA_INT64, &at);
            if (st != GA_OK) return st;
            scalar = true;
        }
        if (scalar && (at < -a->shape[axis] || at >= a->shape[axis]))
            return ga__error(GA_ERROR_INDEX, func, "index %lld is out of bounds for axis %d with size %lld",
                             (long long)at, axis, (long long)a->shape[axis]);
        if (it->kind == GA_INDEX_ARRAY) {
            const ga_array *arr = ga_index_item_array(*it);
            bool mask = arr->dtype == GA_BOOL;
            int axes_of_a = mask ? arr->ndim : 1;
            if (p->narrays == GA_MAXDIMS) return ga__error(GA_ERROR_INDEX, func, "too many index arrays");
            if (mask)
                for (int j = 0; j < axes_of_a; j++)
                    if (arr->shape[j] != a->shape[axis + j])
                        return ga__error(GA_ERROR_INDEX, func,
                                         "boolean index did not match indexed array along axis %d; size of axis is %lld "
                                         "but size of corresponding boolean axis is %lld",
                                         axis + j, (long long)a->shape[axis + j], (long long)arr->shape[j]);
            ga__index_array *e = &p->arrays[p->narrays];
            e->array = arr;
            e->axis = axis;
            e->view_axis = view_axis;
            e->naxes = axes_of_a ? axes_of_a : 1;
            e->linear = NULL;
            p->lengths[p->narrays] = 1;
            for (int j = 0; j < axes_of_a; j++) p->lengths[p->narrays] *= a->shape[axis + j];
            p->narrays++;
            if (axes_of_a == 0) {
                p->basic[p->nbasic++] = ga_newaxis();
            } else {
                for (int j = 0; j < axes_of_a; j++) p->basic[p->nbasic++] = ga_slice(GA_NONE, GA_NONE, GA_NONE);
            }
            axis += axes_of_a;
            view_axis += e->naxes;
            continue;
        }
        p->basic[p->nbasic++] = *it;
        if (it->kind == GA_INDEX_INTEGER) axis++;
        else if (it->kind == GA_INDEX_SLICE) axis++, view_axis++;
        else if (it->kind == GA_INDEX_NEWAXIS) view_axis++;
        else axis += a->ndim - consumed, view_axis += a->ndim - consumed; /* the ellipsis */
    }
    p->adjacent = last_adv - first_adv + 1 == nadv;
    return GA_OK;
}

/* NumPy's message for index arrays that do not broadcast: their shapes (a
   bool array's nonzero() arrays, one per axis). */
static ga_status ga__advanced_broadcast_error(const char *func, const ga__advanced_items *p)
{
    char text[GA_MAXDIMS * 24 + 16];
    size_t len = 0;
    for (int m = 0; m < p->narrays && len < sizeof text; m++) {
        char one[200];
        ga__format_shape(one, sizeof one, p->arrays[m].linear->ndim, p->arrays[m].linear->shape);
        const ga_array *arr = p->arrays[m].array;
        int copies = arr->dtype == GA_BOOL && arr->ndim > 1 ? arr->ndim : 1;
        for (int c = 0; c < copies && len < sizeof text; c++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s ", one);
    }
    return ga__error(GA_ERROR_INDEX, func, "shape mismatch: indexing arrays could not be broadcast together with shapes %s",
                     text);
}

/* Each index array's positions (int64, C-contiguous), then, as NumPy, their
   broadcast shape, then their bounds. */
static ga_status ga__advanced_index_arrays(const char *func, const ga_array *a, ga__advanced_items *p)
{
    int ndims[GA_MAXDIMS];
    const int64_t *shapes[GA_MAXDIMS];
    for (int m = 0; m < p->narrays; m++) {
        ga__index_array *e = &p->arrays[m];
        if (e->array->dtype == GA_BOOL)
            e->linear = ga__nonzero_positions(func, e->array, false);
        else
            /* a copy when it shares a's memory: a scatter into a must not
               overwrite indices it has yet to read */
            e->linear = e->array->dtype == GA_INT64 && (e->array->flags & GA_C_CONTIGUOUS) &&
                                e->array->buffer != a->buffer
                            ? ga_retain((ga_array *)e->array)
                            : ga__contiguous_copy(func, e->array, GA_INT64);
        if (!e->linear) return ga__t.error;
        ndims[m] = e->linear->ndim, shapes[m] = e->linear->shape;
    }
    int bad = 0;
    p->index_ndim = 0;
    if (!ga__broadcast_shapes(p->narrays, ndims, shapes, &p->index_ndim, p->index_shape, &bad))
        return ga__advanced_broadcast_error(func, p);
    for (int m = 0; m < p->narrays; m++)
        if (p->arrays[m].array->dtype != GA_BOOL) {
            ga_status st = ga__check_indices(func, p->arrays[m].linear, p->lengths[m], p->arrays[m].axis);
            if (st != GA_OK) return st;
        }
    return GA_OK;
}

/* Where the indexed axes of the basic view go, as NumPy: together at the
   first one's place when the array (and integer) items are adjacent, else
   first. Fills `perm` (the view's axes in that order) and *naxes (how many
   indexed axes); returns where they start. */
static int ga__advanced_place(const ga__advanced_items *p, int view_ndim, int *perm, int *naxes)
{
    bool indexed[GA_MAXDIMS] = {false};
    int k = 0;
    *naxes = 0;
    for (int m = 0; m < p->narrays; m++) {
        *naxes += p->arrays[m].naxes;
        for (int j = 0; j < p->arrays[m].naxes; j++) indexed[p->arrays[m].view_axis + j] = true;
    }
    if (!p->adjacent)
        for (int m = 0; m < p->narrays; m++)
            for (int j = 0; j < p->arrays[m].naxes; j++) perm[k++] = p->arrays[m].view_axis + j;
    for (int v = 0; v < view_ndim; v++)
        if (p->adjacent || !indexed[v]) perm[k++] = v;
    return p->adjacent ? p->arrays[0].view_axis : 0;
}

/* What the gather or scatter works on: the basic view, its indexed axes
   placed (ga__advanced_place) and collapsed into one, adv->axis; a copy
   of it (adv->base the view) where the strides allow no reshape; and the
   result's shape, the index shape at adv->axis. */
static ga_status ga__advanced_target(const char *func, const ga_array *a, const ga__advanced_items *p,
                                     ga__advanced *adv)
{
    ga__layout l;
    ga_status st = ga__index_layout(func, a, p->nbasic, p->basic, false, &l);
    if (st != GA_OK) return st;
    ga__temps t = {{NULL}, 0};
    ga_array *view = ga__temp(&t, ga__view(func, a, &l, true));
    if (!view) return ga__temps_fail(&t);
    int perm[GA_MAXDIMS], naxes = 0;
    int axis = ga__advanced_place(p, view->ndim, perm, &naxes);
    ga_array *moved = ga__temp(&t, ga__permuted(func, view, perm));
    if (!moved) return ga__temps_fail(&t);
    /* collapse the indexed axes into one */
    int64_t tshape[GA_MAXDIMS], combined = 1;
    int tndim = 0;
    for (int v = 0; v < axis; v++) tshape[tndim++] = moved->shape[v];
    for (int v = axis; v < axis + naxes; v++) combined *= moved->shape[v];
    tshape[tndim++] = combined;
    for (int v = axis + naxes; v < moved->ndim; v++) tshape[tndim++] = moved->shape[v];
    if (tndim - 1 + p->index_ndim > GA_MAXDIMS) {
        ga__error(GA_ERROR_INDEX, func, "the result would have more than %d dimensions", GA_MAXDIMS);
        return ga__temps_fail(&t);
    }
    adv->target = ga__reshape(func, moved, tndim, tshape);
    if (!adv->target) return ga__temps_fail(&t);
    if (adv->target->buffer != moved->buffer) adv->base = ga_retain(moved);
    adv->axis = axis;
    adv->ndim = 0;
    for (int v = 0; v < axis; v++) adv->shape[adv->ndim++] = tshape[v];
    for (int b = 0; b < p->index_ndim; b++) adv->shape[adv->ndim++] = p->index_shape[b];
    for (int v = axis + 1; v < tndim; v++) adv->shape[adv->ndim++] = tshape[v];
    ga__temps_release(&t);
    return GA_OK;
}

/* An index with array items resolved: parse, the index arrays' positions,
   the target, then the linear positions along its axis. */
static ga_status ga__advanced_resolve(const char *func, const ga_array *a, int n, const ga_index_item *items,
                                      ga__advanced *adv)
{
    memset(adv, 0, sizeof *adv);
    if (n > 2 * GA_MAXDIMS) return ga__error(GA_ERROR_INDEX, func, "too many indices");
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    ga__advanced_items p;
    ga_status st = ga__advanced_parse(func, a, n, items, &p);
    if (st == GA_OK) st = ga__advanced_index_arrays(func, a, &p);
    if (st == GA_OK) st = ga__advanced_target(func, a, &p, adv);
    if (st == GA_OK) {
        adv->linear = ga__linear_positions(func, p.arrays, p.narrays, p.lengths, p.index_ndim, p.index_shape,
                                           a->device);
        if (!adv->linear) st = ga__t.error;
        else adv->count = adv->linear->size;
    }
    ga__advanced_items_release(&p);
    if (st != GA_OK) ga__advanced_release(adv);
    return st;
}

/* a[items] with array items: the gather. */
static ga_array *ga__advanced_get(const char *func, const ga_array *a, int n, const ga_index_item *items)
{
    ga__advanced adv;
    if (ga__advanced_resolve(func, a, n, items, &adv) != GA_OK) return NULL;
    ga_array *src = ga__gatherable(func, adv.target, adv.axis), *out = NULL;
    if (src && ga__bind(func, a->device) == GA_OK) out = ga__array_new(func, a->device, adv.ndim, adv.shape, a->dtype);
    const int64_t idx_strides[3] = {0, 1, 0};
    if (out && ga__gather(func, out, src, adv.axis, adv.linear, idx_strides, GA_INDEX_WRAP) != GA_OK) {
        ga_release(out);
        out = NULL;
    }
    ga_release(src);
    ga__advanced_release(&adv);
    return out;
}

/* a[items] = value (add: += unbuffered, numpy.add.at) with array items. */
static ga_status ga__advanced_set(const char *func, ga_array *a, int n, const ga_index_item *items,
                                  const ga_array *value, bool add)
{
    if (!(a->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    if (value->device != a->device) return ga__error(GA_ERROR_DEVICE, func, "the value is on another device");
    ga__advanced adv;
    ga_status st = ga__advanced_resolve(func, a, n, items, &adv);
    if (st != GA_OK) return st;
    /* the values over the result's shape (one value: repeated by the
       kernel), leading unit dims beyond it dropped as NumPy does */
    const ga_array *mask = n == 1 ? ga_index_item_array(items[0]) : NULL;
    const bool one_mask = mask && mask->dtype == GA_BOOL && mask->ndim == a->ndim;
    const int skip = ga__extra_unit_dims(value, adv.ndim);
    int64_t vshape[GA_MAXDIMS];
    int vndim = 0, bad = 0;
    const int ndims[2] = {value->ndim - skip, adv.ndim};
    const int64_t *shapes[2] = {value->shape + skip, adv.shape};
    bool fits = ga__broadcast_shapes(2, ndims, shapes, &vndim, vshape, &bad) && vndim == adv.ndim;
    for (int d = 0; fits && d < vndim; d++) fits = vshape[d] == adv.shape[d];
    ga_array *vals = NULL;
    if (one_mask && value->ndim >= 2) { /* NumPy's boolean assignment takes 0-d and 1-d values only */
        st = ga__error(GA_ERROR_TYPE, func,
                       "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has %d "
                       "dimensions",
                       value->ndim);
    } else if (!fits) {
        char from[200], to[200];
        ga__format_shape(from, sizeof from, value->ndim, value->shape);
        ga__format_shape(to, sizeof to, adv.ndim, adv.shape);
        if (one_mask)
            st = ga__error(GA_ERROR_VALUE, func,
                           "NumPy boolean array indexing assignment cannot assign %lld input values to the %lld output "
                           "values where the mask is true",
                           (long long)value->size, (long long)adv.count);
        else
            st = ga__error(GA_ERROR_VALUE, func,
                           "shape mismatch: value array of shape %s could not be broadcast to indexing result of shape %s",
                           from, to);
    } else {
        bool same = value->ndim - skip == adv.ndim;
        for (int d = 0; same && d < adv.ndim; d++) same = value->shape[skip + d] == adv.shape[d];
        ga_array *cast = ga__contiguous_copy(func, value, a->dtype);
        ga_array *flat = cast && skip ? ga__reshape(func, cast, value->ndim - skip, value->shape + skip) : ga_retain(cast);
        vals = flat && !same && value->size != 1 ? ga__broadcast_copy(func, flat, adv.ndim, adv.shape) : ga_retain(flat);
        ga_release(flat);
        ga_release(cast);
        if (!vals) st = ga__t.error;
    }
    if (st == GA_OK) {
        const int64_t idx_strides[3] = {0, 1, 0};
        st = ga__scatter(func, adv.target, vals, adv.linear, adv.axis, idx_strides, adv.count, GA_INDEX_WRAP,
                         adv.target->shape, add);
        if (st == GA_OK && adv.base) { /* the indexed copy, back into a */
            ga_array *back = ga__reshape(func, adv.target, adv.base->ndim, adv.base->shape);
            st = back ? ga__copyto(func, adv.base, back, GA_CASTING_NO) : ga__t.error;
            ga_release(back);
        }
    }
    ga_release(vals);
    ga__advanced_release(&adv);
    return st;
}

static ga_status ga__setitem_items(const char *func, ga_array *a, int n, const ga_index_item *items,
                                   const ga_array *value)
{
    if (!a) return ga__null_input(func, "a");
    if (n > 0 && !items) return ga__null_input(func, "items");
    if (!value) return ga__null_input(func, "value");
    if (ga__has_array_item(n, items)) return ga__advanced_set(func, a, n, items, value, false);
    ga__layout l;
    ga_status st = ga__index_layout(func, a, n, items, false, &l);
    if (st == GA_OK) st = ga__check_element_value(func, a, n, items, value);
    if (st != GA_OK) return st;
    ga_array *view = ga__view(func, a, &l, true);
    if (!view) return ga__t.error;
    st = ga__assign_view(func, view, value);
    ga_release(view);
    return st;
}

GPUARR_API ga_status ga_setitem_items(ga_array *a, int n, const ga_index_item *items, const ga_array *value)
{
    return ga__setitem_items("ga_setitem_items", a, n, items, value);
}

GPUARR_API ga_status ga_setitem_items_scalar(ga_array *a, int n, const ga_index_item *items, ga_scalar value)
{
    static const char func[] = "ga_setitem_items_scalar";
    if (!a) return ga__null_input(func, "a");
    if (ga__assigned_scalar(func, value, a->dtype, &value) != GA_OK) return ga__t.error;
    ga_array *v = ga__full_on(func, a->device, 0, NULL, value, a->dtype);
    if (!v) return ga__t.error;
    ga_status st = ga__setitem_items(func, a, n, items, v);
    ga_release(v);
    return st;
}

/* a[mask]'s checks: a bool mask matching a's leading axes. */
static ga_status ga__check_mask(const char *func, const ga_array *a, const ga_array *mask)
{
    if (!a) return ga__null_input(func, "a");
    if (!mask) return ga__null_input(func, "mask");
    if (mask->dtype != GA_BOOL)
        return ga__error(GA_ERROR_TYPE, func, "the mask must be a bool array, not %s", ga__dtype_names[mask->dtype]);
    return GA_OK;
}

GPUARR_API ga_array *ga_index_mask(const ga_array *a, const ga_array *mask)
{
    static const char func[] = "ga_index_mask";
    if (ga__check_mask(func, a, mask) != GA_OK) return NULL;
    bool same = mask->ndim == a->ndim;
    for (int d = 0; same && d < a->ndim; d++) same = mask->shape[d] == a->shape[d];
    if (!same || !(a->flags & GA_C_CONTIGUOUS) || mask->device != a->device) {
        ga_index_item item = ga_array_index(mask);
        return ga__ret(ga__advanced_get(func, a, 1, &item));
    }
    /* a mask over all of a contiguous `a`: one select of the values */
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *flags = ga__truth_flags(func, mask), *out = NULL;
    if (flags)
        out = ga__select_flagged(func, a->device, a->data, (int)ga__dtype_sizes[a->dtype], flags->data, a->size, 1,
                                 false, a->dtype);
    ga_release(flags);
    return ga__ret(out);
}

GPUARR_API ga_status ga_setitem_mask(ga_array *a, const ga_array *mask, const ga_array *value)
{
    static const char func[] = "ga_setitem_mask";
    ga_status st = ga__check_mask(func, a, mask);
    if (st != GA_OK) return st;
    if (!value) return ga__null_input(func, "value");
    ga_index_item item = ga_array_index(mask);
    return ga__advanced_set(func, a, 1, &item, value, false);
}

GPUARR_API ga_status ga_setitem_mask_scalar(ga_array *a, const ga_array *mask, ga_scalar value)
{
    static const char func[] = "ga_setitem_mask_scalar";
    ga_status st = ga__check_mask(func, a, mask);
    if (st != GA_OK) return st;
    if (ga__assigned_scalar(func, value, a->dtype, &value) != GA_OK) return ga__t.error;
    ga_array *v = ga__full_on(func, a->device, 0, NULL, value, a->dtype);
    if (!v) return ga__t.error;
    ga_index_item item = ga_array_index(mask);
    st = ga__advanced_set(func, a, 1, &item, v, false);
    ga_release(v);
    return st;
}

GPUARR_API ga_status ga_nonzero(const ga_array *a, ga_array **out)
{
    static const char func[] = "ga_nonzero";
    if (!a) return ga__null_input(func, "a");
    if (!out) return ga__null_input(func, "out");
    if (a->ndim == 0) /* NumPy 2's words; for a bool, a hint too */
        return ga__error(GA_ERROR_VALUE, func,
                         "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.%s",
                         a->dtype == GA_BOOL ? " If the context of this error is of the form `arr[nonzero(cond)]`, just "
                                               "use `arr[cond]`."
                                             : "");
    ga_array *coords = ga__nonzero_positions(func, a, true);
    if (!coords) return ga__t.error;
    for (int d = 0; d < a->ndim; d++) {
        ga__layout l;
        l.ndim = 1;
        l.shape[0] = coords->shape[1];
        l.strides[0] = 8;
        l.offset = coords->shape[1] ? (int64_t)d * coords->shape[1] * 8 : 0;
        out[d] = ga__view(func, coords, &l, true);
        if (!out[d]) {
            for (int j = 0; j < d; j++) ga_release(out[j]);
            ga_release(coords);
            return ga__t.error;
        }
    }
    ga_release(coords);
    for (int d = 0; d < a->ndim; d++) ga__ret(out[d]);
    return GA_OK;
}

GPUARR_API ga_array *ga_argwhere(const ga_array *a)
{
    static const char func[] = "ga_argwhere";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (a->ndim == 0) { /* NumPy: argwhere(atleast_1d(a))[:, :0] */
        ga_array *pos = ga__nonzero_positions(func, a, false), *out = NULL;
        int64_t shape[2] = {pos ? pos->size : 0, 0};
        if (pos) out = ga__array_new(func, a->device, 2, shape, GA_INT64);
        ga_release(pos);
        return ga__ret(out);
    }
    ga_array *coords = ga__nonzero_positions(func, a, true);
    if (!coords) return NULL;
    static const int swap[2] = {1, 0};
    ga_array *out = ga__permuted(func, coords, swap);
    ga_release(coords);
    return ga__ret(out);
}

GPUARR_API ga_array *ga_flatnonzero(const ga_array *a)
{
    static const char func[] = "ga_flatnonzero";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    return ga__ret(ga__nonzero_positions(func, a, false));
}

/* out = src gathered along `axis` at the nonzero positions of `condition`
   (raise mode: a true element past the axis is NumPy's IndexError). */
static ga_array *ga__take_where(const char *func, const ga_array *src, int axis, const ga_array *condition)
{
    ga_array *pos = ga__nonzero_positions(func, condition, false);
    ga_array *from = pos ? ga__gatherable(func, src, axis) : NULL, *out = NULL;
    if (from) {
        int64_t shape[GA_MAXDIMS];
        for (int d = 0; d < src->ndim; d++) shape[d] = d == axis ? pos->size : src->shape[d];
        out = ga__array_new(func, src->device, src->ndim, shape, src->dtype);
        const int64_t idx_strides[3] = {0, 1, 0};
        if (out && ga__gather(func, out, from, axis, pos, idx_strides, GA_INDEX_RAISE) != GA_OK) {
            ga_release(out);
            out = NULL;
        }
    }
    ga_release(from);
    ga_release(pos);
    return out;
}

GPUARR_API ga_array *ga_compress(const ga_array *condition, const ga_array *a, int axis)
{
    static const char func[] = "ga_compress";
    if (!condition) { ga__null_input(func, "condition"); return NULL; }
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (condition->ndim != 1) {
        ga__error(GA_ERROR_VALUE, func, "condition must be a 1-d array");
        return NULL;
    }
    if (condition->device != a->device) {
        ga__error(GA_ERROR_DEVICE, func, "condition is on another device");
        return NULL;
    }
    ga_array *flat = NULL, *out = NULL;
    if (axis == GA_AXIS_NONE) {
        int64_t size = a->size;
        a = flat = ga__reshape(func, a, 1, &size);
        axis = 0;
    }
    if (a && ga__normalize_axis(func, "", &axis, a->ndim) == GA_OK) out = ga__take_where(func, a, axis, condition);
    ga_release(flat);
    return ga__ret(out);
}

GPUARR_API ga_array *ga_extract(const ga_array *condition, const ga_array *a)
{
    static const char func[] = "ga_extract";
    if (!condition) { ga__null_input(func, "condition"); return NULL; }
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (condition->device != a->device) {
        ga__error(GA_ERROR_DEVICE, func, "condition is on another device");
        return NULL;
    }
    int64_t size = a->size;
    ga_array *flat = ga__reshape(func, a, 1, &size);
    ga_array *out = flat ? ga__take_where(func, flat, 0, condition) : NULL;
    ga_release(flat);
    return ga__ret(out);
}

GPUARR_API ga_status ga_place(ga_array *a, const ga_array *mask, const ga_array *vals)
{
    static const char func[] = "ga_place";
    if (!a) return ga__null_input(func, "a");
    if (!mask || !vals) return ga__null_input(func, "mask or vals");
    if (!(a->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    if (mask->size != a->size) return ga__error(GA_ERROR_VALUE, func, "place: mask and data must be the same size");
    if (mask->device != a->device || vals->device != a->device)
        return ga__error(GA_ERROR_DEVICE, func, "mask or vals is on another device");
    ga_array *pos = ga__nonzero_positions(func, mask, false);
    if (!pos) return ga__t.error;
    ga_status st = GA_OK;
    if (pos->size > 0 && vals->size == 0) st = ga__error(GA_ERROR_VALUE, func, "Cannot insert from an empty array!");
    else if (pos->size > 0) st = ga__put(func, a, pos, vals, GA_INDEX_RAISE);
    ga_release(pos);
    return st;
}

GPUARR_API ga_status ga_add_at(ga_array *a, int n, const ga_index_item *items, const ga_array *values)
{
    static const char func[] = "ga_add_at";
    if (!a) return ga__null_input(func, "a");
    if (n > 0 && !items) return ga__null_input(func, "items");
    if (!values) return ga__null_input(func, "values");
    if (ga__has_array_item(n, items)) return ga__advanced_set(func, a, n, items, values, true);
    /* a basic index: no element repeats, so a[items] = a[items] + values,
       added in the promoted dtype and cast back unsafely, as NumPy */
    if (!(a->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "assignment destination is read-only");
    ga__layout l;
    ga_status st = ga__index_layout(func, a, n, items, false, &l);
    if (st != GA_OK) return st;
    ga_array *view = ga__view(func, a, &l, true);
    if (!view) return ga__t.error;
    ga_operand in[2] = {ga_operand_array(view), ga_operand_array(values)};
    ga_array *sum[2] = {NULL, NULL};
    st = ga__ufunc(func, GA_UFUNC_ADD, in, sum, NULL);
    if (st == GA_OK) st = ga__copyto(func, view, sum[0], GA_CASTING_UNSAFE);
    ga_release(sum[0]);
    ga_release(view);
    return st;
}

static void ga__index_shutdown(void) { memset(&ga__index_kernels, 0, sizeof ga__index_kernels); }

/* >>reduce */
/* ------------------------------------------------------------------------ */
/* 17. Reductions and statistics                                             */
/* ------------------------------------------------------------------------ */
/* A reduction is planned on the host: the array's dims are split into kept
   and reduced ones, unit dims dropped, negative strides of reduced dims
   flipped (order does not matter to them; argmin / argmax keep theirs),
   each group sorted by stride and merged where contiguous. The kernel is
   chosen by which dim is fastest in memory (inner: a reduced one, outer: a
   kept one), the group size and chunks by the shape alone, so that the
   order of the additions never depends on the GPU. Work items longer than
   a chunk leave partial states, reduced by combine passes (the same kernels
   reading states). where= is applied by substituting the identity (or the
   mean, for the variance's second pass) with ufunc where; dtypes the loads
   cannot convert to are made by astype first. */

/* The kernels' operators, input kinds and layouts by number, and their
   names in the kernels' symbols: from the Kernel ABI's lists. */
enum {
#define GA__ROP_ENUM(A, E, name, ins, packed) GA__ROP_##E,
    GA__REDUCE_OP_LIST(GA__ROP_ENUM, 0)
#undef GA__ROP_ENUM
    GA__NUM_ROPS
};
static const char *const ga__rop_names[GA__NUM_ROPS] = {
#define GA__ROP_NAME(A, E, name, ins, packed) #name,
    GA__REDUCE_OP_LIST(GA__ROP_NAME, 0)
#undef GA__ROP_NAME
};
enum {
#define GA__RIN_ENUM(E, name) GA__RIN_##E,
    GA__REDUCE_IN_LIST(GA__RIN_ENUM)
#undef GA__RIN_ENUM
    GA__NUM_RINS
};
static const char *const ga__rin_names[GA__NUM_RINS] = {
#define GA__RIN_NAME(E, name) #name,
    GA__REDUCE_IN_LIST(GA__RIN_NAME)
#undef GA__RIN_NAME
};
enum {
#define GA__RLAYOUT_ENUM(E, name) GA__R##E,
    GA__REDUCE_LAYOUT_LIST(GA__RLAYOUT_ENUM)
#undef GA__RLAYOUT_ENUM
    GA__NUM_RLAYOUTS
};
static const char *const ga__rlayout_names[GA__NUM_RLAYOUTS] = {
#define GA__RLAYOUT_NAME(E, name) #name,
    GA__REDUCE_LAYOUT_LIST(GA__RLAYOUT_NAME)
#undef GA__RLAYOUT_NAME
};

/* The section's state: its kernels ([op][input][layout]; gram and corr by
   float64 / complex128) and, per device, the address of the reduce fatbin's
   warning word with the library it was read from. */
static struct {
    CUkernel reduce[GA__NUM_ROPS][GA__NUM_RINS][GA__NUM_RLAYOUTS], gram[2], corr[2];
} ga__reduce_kernels;
static struct {
    CUlibrary lib[GA_MAX_DEVICES];
    uint64_t word[GA_MAX_DEVICES];
} ga__reduce_warning;

static const char *const ga__reduction_names[GA_NUM_REDUCTIONS] = {
#define GA__REDUCTION_NAME(E, name) #name,
    GA_REDUCTION_LIST(GA__REDUCTION_NAME)
#undef GA__REDUCTION_NAME
};

GPUARR_API const char *ga_reduction_name(ga_reduction r)
{
    return (int)r >= 0 && r < GA_NUM_REDUCTIONS ? ga__reduction_names[r] : NULL;
}

/* NumPy's ufunc behind a reduction, for its messages. */
static const char *ga__reduction_ufunc(ga_reduction r)
{
    switch (r) {
    case GA_REDUCE_PROD: case GA_REDUCE_NANPROD: return "multiply";
    case GA_REDUCE_MIN: return "minimum";
    case GA_REDUCE_MAX: case GA_REDUCE_PTP: return "maximum";
    case GA_REDUCE_NANMIN: return "fmin";
    case GA_REDUCE_NANMAX: return "fmax";
    case GA_REDUCE_ALL: return "logical_and";
    case GA_REDUCE_ANY: return "logical_or";
    default: return "add";
    }
}

static bool ga__is_inexact(ga_dtype t) { return ga__dtype_kinds[t] == 'f' || ga__dtype_kinds[t] == 'c'; }
static bool ga__is_exact(ga_dtype t) { return !ga__is_inexact(t); }

/* The value type the kernels compute in for elements of dtype t: int64
   (uint64 for ordering unsigned ones and bool), float32 for the 16-bit
   floats, else t. */
static ga_dtype ga__rvalue(ga_dtype t, bool ordered)
{
    switch (ga__dtype_kinds[t]) {
    case 'b': return ordered ? GA_UINT64 : GA_INT64;
    case 'i': return GA_INT64;
    case 'u': return ordered ? GA_UINT64 : GA_INT64;
    default: return t == GA_FLOAT16 || t == GA_BFLOAT16 ? GA_FLOAT32 : t;
    }
}

/* Whether the loads convert elements of dtype `in` to `value` (else the
   host converts first). */
static bool ga__rloadable(ga_dtype value, ga_dtype in)
{
    char k = ga__dtype_kinds[in];
    switch (value) {
    case GA_INT64: case GA_UINT64: return k == 'b' || k == 'i' || k == 'u';
    case GA_FLOAT32: return in == GA_FLOAT16 || in == GA_BFLOAT16 || in == GA_FLOAT32;
    case GA_FLOAT64: return k != 'c';
    default: return in == value;
    }
}

static int ga__rin_for(ga_dtype value, ga_dtype in)
{
    switch (value) {
    case GA_INT64: return GA__RIN_TO_INT64;
    case GA_UINT64: return GA__RIN_TO_UINT64;
    case GA_FLOAT32: return in == GA_FLOAT32 ? GA__RIN_FLOAT32 : GA__RIN_TO_FLOAT32;
    case GA_FLOAT64: return in == GA_FLOAT64 ? GA__RIN_FLOAT64 : GA__RIN_TO_FLOAT64;
    case GA_COMPLEX64: return GA__RIN_COMPLEX64;
    default: return GA__RIN_COMPLEX128;
    }
}

/* One reduction job: a over red[] into out (any layout and dtype; its
   ndim a->ndim, or the number of kept axes). */
typedef struct ga__rjob {
    const char *func;
    const ga_array *a;
    const bool *red;
    ga_array *out;
    int op, flags, fin;
    ga_dtype value;                 /* the value type (GA__RIN_ANY ops: GA_BOOL) */
    const ga_array *center, *count; /* C-contiguous over the kept axes, or NULL */
    double divisor, ddof;
    bool has_initial;
    ga__value16 initial;            /* of dtype initial_dtype */
    ga_dtype initial_dtype;
    uint64_t flag;                  /* 0: the device's warning word */
} ga__rjob;

/* The partial state's size and the combine pass's kernel of an op. */
static size_t ga__rstate_size(int op, ga_dtype value)
{
    switch (op) {
    case GA__ROP_ARG: case GA__ROP_ARGCOMBINE: case GA__ROP_MINMAXCOMBINE: return value == GA_COMPLEX128 ? 32 : 16;
    case GA__ROP_MINMAX: /* complex: argmin / argmax's states (the value and its index) */
        return value == GA_COMPLEX128 ? 32 : value == GA_COMPLEX64 ? 16 : ga__dtype_sizes[value];
    case GA__ROP_SUMSQ: return value == GA_FLOAT32 || value == GA_COMPLEX64 ? 4 : 8;
    case GA__ROP_COUNT: return 8;
    case GA__ROP_LOGIC: return 1;
    case GA__ROP_PROD: case GA__ROP_PRODCOMBINE:
        if (value == GA_COMPLEX64) return GA__CPROD_STATE_SIZE_COMPLEX64;
        if (value == GA_COMPLEX128) return GA__CPROD_STATE_SIZE_COMPLEX128;
        return ga__dtype_sizes[value];
    default: return ga__dtype_sizes[value];
    }
}

static void ga__rcombine_of(int op, int flags, ga_dtype value, int *cop, int *cin, int *cflags, ga_dtype *cdtype)
{
    *cflags = flags & ~GA__RF_NAN;
    switch (op) {
    case GA__ROP_SUMSQ:
        *cop = GA__ROP_SUM;
        *cdtype = value == GA_FLOAT32 || value == GA_COMPLEX64 ? GA_FLOAT32 : GA_FLOAT64;
        *cin = ga__rin_for(*cdtype, *cdtype);
        return;
    case GA__ROP_COUNT:
        *cop = GA__ROP_SUM;
        *cdtype = GA_INT64;
        *cin = GA__RIN_TO_INT64;
        return;
    case GA__ROP_LOGIC:
        *cop = GA__ROP_LOGIC;
        *cdtype = GA_BOOL;
        *cin = GA__RIN_ANY;
        return;
    case GA__ROP_ARG: case GA__ROP_ARGCOMBINE:
        *cflags = flags; /* a partial with no index of nanargmin is an all-NaN chunk: the final pass reports the row */
        *cop = GA__ROP_ARGCOMBINE;
        *cdtype = value;
        *cin = value == GA_INT64 ? GA__RIN_INT64 : value == GA_UINT64 ? GA__RIN_UINT64 : ga__rin_for(value, value);
        return;
    case GA__ROP_PROD: case GA__ROP_PRODCOMBINE:
        if (value == GA_COMPLEX64 || value == GA_COMPLEX128) { /* complex: states of their own */
            *cop = GA__ROP_PRODCOMBINE;
            *cdtype = value;
            *cin = ga__rin_for(value, value);
            return;
        }
        *cop = op;
        *cdtype = value;
        *cin = ga__rin_for(value, value);
        return;
    case GA__ROP_MINMAX: case GA__ROP_MINMAXCOMBINE:
        *cflags = flags; /* a NaN partial of nanmin is an all-NaN chunk */
        if (value == GA_COMPLEX64 || value == GA_COMPLEX128) { /* complex: states of their own */
            *cop = GA__ROP_MINMAXCOMBINE;
            *cdtype = value;
            *cin = ga__rin_for(value, value);
            return;
        }
        /* fall through */
    default:
        *cop = op;
        *cdtype = value;
        *cin = ga__rin_for(value, value);
        return;
    }
}

static CUfunction ga__reduce_kernel(const char *func, int op, int in, int layout)
{
    return ga__kernel(func, GA__FAMILY_REDUCE, &ga__reduce_kernels.reduce[op][in][layout], ga__rop_names[op],
                      ga__rin_names[in], NULL, ga__rlayout_names[layout]);
}

/* The device's warning word (a global of the reduce fatbin), or 0. */
static uint64_t ga__reduce_warning_word(const char *func, int device)
{
    CUlibrary lib = GA__ATOMIC_LOAD(&ga__libraries[GA__FAMILY_REDUCE]);
    if (!lib) return 0;
    if (GA__ATOMIC_LOAD(&ga__reduce_warning.lib[device]) != lib) {
        CUdeviceptr p = 0;
        size_t bytes = 0;
        if (GA__CU.LibraryGetGlobal(&p, &bytes, lib, "ga_reduce_warning_word") != CUDA_SUCCESS) {
            ga__error(GA_ERROR_KERNELS_MISSING, func, "the reduce fatbin has no warning word; rebuild with `make fatbins`");
            return 0;
        }
        GA__ATOMIC_STORE(&ga__reduce_warning.word[device], (uint64_t)p);
        GA__ATOMIC_STORE(&ga__reduce_warning.lib[device], lib);
    }
    return GA__ATOMIC_LOAD(&ga__reduce_warning.word[device]);
}

GPUARR_API int ga_reduce_warnings(void)
{
    static const char func[] = "ga_reduce_warnings";
    int device = ga__t.device;
    if (!GA__ATOMIC_LOAD(&ga__g.initialized) || ga__bind(func, device) != GA_OK) return 0;
    uint64_t word = ga__reduce_warning_word(func, device);
    if (!word) return 0;
    unsigned int bits = 0;
    CUstream stream = ga__stream_of(device);
    if (GA__CU.MemcpyDtoHAsync(&bits, (CUdeviceptr)word, sizeof bits, stream) != CUDA_SUCCESS ||
        GA__CU.StreamSynchronize(stream) != CUDA_SUCCESS ||
        GA__CU.MemsetD8Async((CUdeviceptr)word, 0, sizeof bits, stream) != CUDA_SUCCESS) {
        ga__error(GA_ERROR_CUDA, func, "reading the warning word failed");
        return 0;
    }
    return (int)bits;
}

/* A job's dims, collapsed (see ga__reduce_args): the kept dims, one per
   result, and the reduced dims, each reduced into every result. Unit dims
   are dropped; negative strides are flipped, the offsets moving to the
   dim's last element (reduced ones but for argmin / argmax: see
   ga__rdims_build); each group is ordered by decreasing stride and merged
   where contiguous. */
typedef struct ga__rdims {
    int kept_ndim, red_ndim;
    int64_t kept_shape[GA_MAXDIMS];
    int64_t kept_in[GA_MAXDIMS];   /* byte strides in the input */
    int64_t kept_out[GA_MAXDIMS];  /* byte strides in the output */
    int64_t kept_aux[GA_MAXDIMS];  /* element strides in the aux arrays (center, count) */
    int64_t red_shape[GA_MAXDIMS];
    int64_t red_in[GA_MAXDIMS];    /* byte strides in the input */
    int64_t in_offset, out_offset; /* bytes from element 0 to the first element read or written */
    int64_t aux_offset;            /* the same in the aux arrays, in elements */
    int64_t rows, length;          /* the results, and the elements each reduces */
} ga__rdims;

/* Orders n dims by decreasing key (stable) into out_shape and the nops rows
   of out_strides, then merges neighbours contiguous in every row
   (ga__collapse). Returns the number of dims left. */
static int ga__rdims_order_merge(int n, const int64_t *key, const int64_t *shape, int nops,
                                 int64_t (*strides)[GA_MAXDIMS], int64_t *out_shape, int64_t (*out_strides)[GA_MAXDIMS])
{
    int perm[GA_MAXDIMS];
    ga__order_by_stride(n, key, perm);
    for (int i = 0; i < n; i++) {
        out_shape[i] = shape[perm[i]];
        for (int k = 0; k < nops; k++) out_strides[k][i] = strides[k][perm[i]];
    }
    return ga__collapse(n, out_shape, nops, out_strides);
}

/* The rows of ga__rdims_build's kept strides. */
enum { GA__RK_IN, GA__RK_OUT, GA__RK_AUX };

/* The dims of job j. flip_red: reduced dims with negative strides are read
   forwards (their order does not matter to the op); argmin and argmax keep
   theirs. */
static void ga__rdims_build(const ga__rjob *j, bool flip_red, ga__rdims *L)
{
    const ga_array *a = j->a, *o = j->out;
    int64_t aux[GA_MAXDIMS], step = 1;
    for (int d = a->ndim - 1; d >= 0; d--)
        if (!j->red[d]) {
            aux[d] = step;
            step *= a->shape[d];
        }
    memset(L, 0, sizeof *L);
    L->rows = L->length = 1;
    int64_t kshape[GA_MAXDIMS], kstrides[3][GA_MAXDIMS], rshape[GA_MAXDIMS], rstrides[1][GA_MAXDIMS];
    int nk = 0, nr = 0;
    for (int d = 0, k = 0; d < a->ndim; d++) {
        int64_t n = a->shape[d], s = a->strides[d];
        if (j->red[d]) {
            L->length *= n;
            if (n == 1) continue;
            if (flip_red && s < 0) {
                L->in_offset += s * (n - 1);
                s = -s;
            }
            rshape[nr] = n;
            rstrides[0][nr++] = s;
            continue;
        }
        int64_t os = o->ndim == a->ndim ? o->strides[d] : o->strides[k];
        int64_t x = aux[d];
        k++;
        L->rows *= n;
        if (n == 1) continue;
        if (s < 0) {
            L->in_offset += s * (n - 1);
            L->out_offset += os * (n - 1);
            L->aux_offset += x * (n - 1);
            s = -s, os = -os, x = -x;
        }
        kshape[nk] = n;
        kstrides[GA__RK_IN][nk] = s;
        kstrides[GA__RK_OUT][nk] = os;
        kstrides[GA__RK_AUX][nk++] = x;
    }
    /* reduced dims by decreasing signed stride (argmin / argmax's negative
       ones last): ga__order_by_stride orders by magnitude, so the keys are
       the strides less the lowest (a stride is below 2^62: it spans memory) */
    int64_t lowest = 0, key[GA_MAXDIMS] = {0};
    for (int i = 0; i < nr; i++) lowest = GA__MIN(lowest, rstrides[0][i]);
    for (int i = 0; i < nr; i++) key[i] = rstrides[0][i] - lowest;
    L->red_ndim = ga__rdims_order_merge(nr, key, rshape, 1, rstrides, L->red_shape, &L->red_in);
    /* kept dims by decreasing input stride (all >= 0), merged where
       contiguous in the input, the output and the aux arrays alike */
    int64_t merged[3][GA_MAXDIMS];
    L->kept_ndim = ga__rdims_order_merge(nk, kstrides[GA__RK_IN], kshape, 3, kstrides, L->kept_shape, merged);
    for (int i = 0; i < L->kept_ndim; i++) {
        L->kept_in[i] = merged[GA__RK_IN][i];
        L->kept_out[i] = merged[GA__RK_OUT][i];
        L->kept_aux[i] = merged[GA__RK_AUX][i];
    }
}

/* --- planning: the passes of a job and their launch geometry ------------- */

/* The most passes of a plan. Each pass but the last cuts the row length K
   to its chunk count: inner passes by 4096 at least (65536 after the
   first), outer ones to at most 2048, then 32, then 1. */
#define GA__RMAX_PASSES 8

/* One pass of a planned job: its kernel and launch. */
typedef struct ga__rpass {
    int op, in;             /* the kernel: ga_reduce_<op>_<in>_<layout> (GA__ROP_*, GA__RIN_*) */
    int layout;             /* GA__RINNER, GA__ROUTER or GA__RPACKED */
    int flags;              /* GA__RF_*: the op's, and ROWS, TILES, PACKED or ALIGNED as planned */
    ga_dtype in_dtype;      /* what the loads read: a's dtype, then the partial states' */
    int32_t group, vec;     /* ga__reduce_args.group and .vec */
    int64_t length;         /* the elements (then partial states) each row reduces */
    int64_t chunk, nchunks; /* elements per work item, work items per row (1: the final pass) */
    int64_t blocks;         /* the grid, of blocks of 256 threads */
} ga__rpass;

/* A job's plan (ga__reduce_plan): every pass but the last leaves nchunks
   partial states per row, which the next pass reduces. */
typedef struct ga__rplan {
    int layout;   /* GA__RINNER (a's fastest dim is reduced) or GA__ROUTER (it is kept) */
    size_t state; /* bytes of one partial state */
    int npasses;
    ga__rpass pass[GA__RMAX_PASSES];
} ga__rplan;

static int64_t ga__pow2_at_least(int64_t x)
{
    int64_t p = 1;
    while (p < x) p *= 2;
    return p;
}

/* An inner pass over dims L: a thread per row of up to 16 elements, a warp
   per row of up to 2048 (65536 when there are rows enough to fill the GPU),
   else blocks over chunks: chosen by the shape only. Rows along one dim, of
   one dim each, take fewer threads when they are many (about 16 elements per
   thread, 2^18 threads in all), and short contiguous ones go through shared
   memory in tiles (first pass only), or, of 2 or 4 values read as stored,
   whole rows in each 16-byte vector: a thread per vector, an elementwise
   grid. P comes with its op, in and flags; `aligned`: the input starts
   16-byte aligned. */
static void ga__reduce_plan_inner(const ga__rdims *L, ga__rpass *P, size_t in_size, bool aligned, bool first,
                                  int64_t sms)
{
    const int64_t K = L->length, M = L->rows;
    P->layout = GA__RINNER;
    P->group = K <= 16 ? 1 : K <= 2048 || (K <= 65536 && M >= 2048) ? 32 : 256;
    const bool rows = L->kept_ndim == 1 && L->red_ndim == 1 && P->group <= 32;
    if (rows && P->group == 32) {
        int64_t g = GA__MAX(ga__pow2_at_least((K + 15) / 16), ga__pow2_at_least(((int64_t)1 << 18) / GA__MAX(M, 1)));
        P->group = (int32_t)GA__MIN(g, 32);
    }
    const int64_t row_bytes = K > INT64_MAX / (int64_t)in_size ? INT64_MAX : K * (int64_t)in_size;
    if (rows) P->flags |= GA__RF_ROWS;
    if (rows && first && P->group == 1 && row_bytes <= 64 && L->red_in[0] == (int64_t)in_size &&
        L->kept_in[0] == row_bytes && aligned)
        P->flags |= GA__RF_TILES;
    P->chunk = K > 0 ? K : 1;
    if (P->group == 256) {
        /* argmin / argmax read each winning vector again at the end of a
           work item: theirs are longer */
        const int64_t most = P->op == GA__ROP_ARG ? (int64_t)1 << 18 : 65536;
        int64_t chunk = first ? ga__pow2_at_least(M * K / (P->op == GA__ROP_ARG ? 1024 : 8192)) : 65536;
        chunk = GA__MAX(chunk, 4096);
        chunk = GA__MIN(chunk, most);
        if (K > chunk) P->chunk = chunk;
    }
    P->nchunks = (K + P->chunk - 1) / P->chunk;
    if (P->nchunks < 1) P->nchunks = 1;
    const int64_t groups = 256 / P->group;
    P->blocks = (M * P->nchunks + groups - 1) / groups;
    const bool native = P->in == GA__RIN_FLOAT32 || P->in == GA__RIN_FLOAT64 || P->in == GA__RIN_COMPLEX64 ||
                        P->in == GA__RIN_COMPLEX128;
    const bool packed = (P->flags & GA__RF_TILES) && native && in_size <= 8 && (K == 2 || (K == 4 && in_size == 4)) &&
                        P->op != GA__ROP_ARGCOMBINE;
    if (packed) {
        const int64_t nvec = M / (16 / row_bytes), loads = GA__RPACKED_LOADS;
        P->flags = (P->flags & ~GA__RF_TILES) | GA__RF_PACKED;
        P->layout = GA__RPACKED;
        P->blocks = ((nvec + loads - 1) / loads + 255) / 256;
    } else if (P->flags & GA__RF_TILES) {
        const int64_t tile_rows = (16384 / row_bytes) & ~(int64_t)15;
        P->blocks = GA__MIN((M + tile_rows - 1) / tile_rows, sms * 4);
    }
}

/* An outer pass over dims L: threads across the fastest kept dim, each a
   16-byte vector of columns of a type read as stored (at most 32 bytes of
   states), the reduced elements split into chunks when there are few
   outputs (at least 8 elements per thread). P comes with its op, in and
   flags; `aligned`: the input starts 16-byte aligned. */
static void ga__reduce_plan_outer(const ga__rdims *L, ga__rpass *P, size_t in_size, size_t state, bool aligned)
{
    const int64_t K = L->length, M = L->rows;
    P->layout = GA__ROUTER;
    const bool native = P->in == GA__RIN_FLOAT32 || P->in == GA__RIN_FLOAT64 || P->in == GA__RIN_COMPLEX64 ||
                        P->in == GA__RIN_COMPLEX128;
    int64_t vm = 1;
    if (native) vm = GA__MIN((int64_t)(16 / in_size), (int64_t)(32 / state));
    if (vm < 1) vm = 1;
    const int64_t N = L->kept_shape[L->kept_ndim - 1];
    const int64_t tx = GA__MIN(32, ga__pow2_at_least((N + vm - 1) / vm)), ty = 256 / tx;
    P->group = (int32_t)tx;
    P->vec = (int32_t)vm;
    aligned = aligned && vm == (int64_t)(16 / in_size) && L->kept_in[L->kept_ndim - 1] == (int64_t)in_size;
    for (int d = 0; d < L->red_ndim; d++) aligned = aligned && L->red_in[d] % 16 == 0;
    for (int d = 0; d + 1 < L->kept_ndim; d++) aligned = aligned && L->kept_in[d] % 16 == 0;
    if (aligned) P->flags |= GA__RF_ALIGNED;
    const int64_t tiles = M / N * ((N + tx * vm - 1) / (tx * vm));
    const int64_t most = (K + ty * 8 - 1) / (ty * 8);
    int64_t n = GA__MIN((2048 + tiles - 1) / tiles, most);
    if (n < 1) n = 1;
    P->chunk = K > 0 ? (K + n - 1) / n : 1;
    P->nchunks = K > 0 ? (K + P->chunk - 1) / P->chunk : 1;
    P->blocks = tiles * P->nchunks;
}

/* Dims L become those of the next pass, which reduces the nchunks partial
   states of each row (state bytes each, inner: a row's states together;
   outer: a chunk's states of every row together). */
static void ga__rdims_to_states(ga__rdims *L, int layout, int64_t nchunks, size_t state)
{
    const int64_t s = (int64_t)state;
    int64_t row = layout == GA__RINNER ? nchunks * s : s;
    for (int d = L->kept_ndim - 1; d >= 0; d--) {
        L->kept_in[d] = row;
        row *= L->kept_shape[d];
    }
    L->red_ndim = 1;
    L->red_shape[0] = nchunks;
    L->red_in[0] = layout == GA__RINNER ? s : L->rows * s;
    L->length = nchunks;
}

/* The passes of job j over its dims L (ga__rdims_build; L->rows > 0) on a
   device of `sms` multiprocessors. The kernel's layout is chosen by which
   dim is fastest in memory, the group size and the chunks by the shape
   alone, so that the order of the additions never depends on the GPU; the
   grid (a wave of blocks at most, or the work items) by the device. Makes
   no CUDA calls. */
static void ga__reduce_plan(const ga__rjob *j, const ga__rdims *dims, int64_t sms, ga__rplan *plan)
{
    const ga_array *a = j->a;
    ga__rdims L = *dims;
    int op = j->op, flags = j->flags;
    int in = op == GA__ROP_COUNT || op == GA__ROP_LOGIC ? GA__RIN_ANY : ga__rin_for(j->value, a->dtype);
    ga_dtype in_dtype = a->dtype;
    size_t in_size = ga__dtype_sizes[a->dtype];
    bool aligned = (a->data + (uint64_t)L.in_offset) % 16 == 0;
    memset(plan, 0, sizeof *plan);
    int64_t rmin = L.red_ndim > 0 ? L.red_in[L.red_ndim - 1] : 0;
    if (rmin < 0) rmin = -rmin; /* argmin / argmax keep a negative stride */
    plan->layout = L.red_ndim > 0 && L.kept_ndim > 0 && L.kept_in[L.kept_ndim - 1] < rmin ? GA__ROUTER : GA__RINNER;
    plan->state = ga__rstate_size(op, j->value);
    int cop, cin, cflags;
    ga_dtype cdtype;
    ga__rcombine_of(op, flags, j->value, &cop, &cin, &cflags, &cdtype);
    for (int p = 0; p < GA__RMAX_PASSES; p++) {
        ga__rpass *P = &plan->pass[p];
        P->op = op, P->in = in, P->flags = flags, P->in_dtype = in_dtype, P->length = L.length;
        if (plan->layout == GA__RINNER) ga__reduce_plan_inner(&L, P, in_size, aligned, p == 0, sms);
        else ga__reduce_plan_outer(&L, P, in_size, plan->state, aligned);
        /* work items are spread over the blocks of one wave (grid-stride);
           rows of a thread or a warp each take blocks as they come */
        if (plan->layout == GA__ROUTER || P->group == 256) P->blocks = GA__MIN(P->blocks, sms * 4);
        P->blocks = GA__MAX(GA__MIN(P->blocks, (int64_t)INT32_MAX), 1);
        plan->npasses = p + 1;
        if (P->nchunks == 1) return;
        ga__rdims_to_states(&L, plan->layout, P->nchunks, plan->state);
        op = cop, in = cin, flags = cflags, in_dtype = cdtype, in_size = plan->state;
        aligned = true; /* the partial states: pool blocks, 256-byte aligned */
    }
    GPUARR_ASSERT(!"a reduction plan needs more than GA__RMAX_PASSES passes");
}

/* --- running a job ------------------------------------------------------- */

/* The arguments every pass of job j over dims L shares. */
static void ga__reduce_args_init(const ga__rjob *j, const ga__rdims *L, ga__reduce_args *A)
{
    memset(A, 0, sizeof *A);
    A->in = j->a->data + (uint64_t)L->in_offset;
    A->out = j->out->data + (uint64_t)L->out_offset;
    if (j->center)
        A->center = j->center->data + (uint64_t)(L->aux_offset * (int64_t)ga__dtype_sizes[j->center->dtype]);
    if (j->count) A->count = j->count->data + (uint64_t)(L->aux_offset * 8);
    A->initial = j->initial;
    A->has_initial = j->has_initial;
    A->initial_dtype = j->initial_dtype;
    A->divisor = j->divisor;
    A->ddof = j->ddof;
    A->finalize = j->fin;
    A->out_dtype = j->out->dtype;
    A->rows = L->rows;
    A->kept_ndim = L->kept_ndim;
    for (int d = 0; d < L->kept_ndim; d++) {
        A->kept_shape[d] = L->kept_shape[d];
        A->kept_out[d] = L->kept_out[d];
        A->kept_aux[d] = L->kept_aux[d];
    }
}

/* The arguments of pass P over dims L (the pass's own: ga__rdims_to_states
   after the first). */
static void ga__reduce_args_pass(ga__reduce_args *A, const ga__rdims *L, const ga__rpass *P)
{
    A->flags = P->flags;
    A->in_dtype = P->in_dtype;
    A->length = P->length;
    A->red_ndim = L->red_ndim;
    for (int d = 0; d < L->red_ndim; d++) {
        A->red_shape[d] = L->red_shape[d];
        A->red_in[d] = L->red_in[d];
    }
    for (int d = 0; d < L->kept_ndim; d++) A->kept_in[d] = L->kept_in[d];
    A->group = P->group;
    A->vec = P->vec;
    A->chunk = P->chunk;
    A->nchunks = P->nchunks;
    A->final_pass = P->nchunks == 1;
}

/* Runs every pass of a job on the current stream of a's device (bound). */
static ga_status ga__reduce_run(const ga__rjob *j)
{
    const char *func = j->func;
    const int device = j->a->device;
    ga__rdims L;
    /* argmin / argmax, and complex prod, min and max, read the elements in
       their order (as NumPy's reductions do: see reduce.cu) */
    const bool ordered = j->op == GA__ROP_ARG || ((j->op == GA__ROP_PROD || j->op == GA__ROP_MINMAX) &&
                                                  (j->value == GA_COMPLEX64 || j->value == GA_COMPLEX128));
    ga__rdims_build(j, !ordered, &L);
    if (L.rows == 0) return GA_OK;
    ga__rplan plan;
    ga__reduce_plan(j, &L, ga__g.devices[device].multiprocessor_count, &plan);
    ga__reduce_args A;
    ga__reduce_args_init(j, &L, &A);
    uint64_t flag = j->flag;
    ga__block *parts = NULL; /* the partial states the pass reads */
    ga_status st = GA_OK;
    for (int p = 0; p < plan.npasses; p++) {
        const ga__rpass *P = &plan.pass[p];
        ga__reduce_args_pass(&A, &L, P);
        ga__block *next = NULL;
        if (A.final_pass) {
            A.out = j->out->data + (uint64_t)L.out_offset;
        } else {
            next = ga__device_alloc(func, device, (size_t)(L.rows * P->nchunks) * plan.state, false);
            if (!next) {
                st = ga__t.error;
                break;
            }
            GPUARR_ASSERT(next->ptr % 16 == 0); /* as ga__reduce_plan takes it */
            A.out = next->ptr;
            A.part_row = plan.layout == GA__RINNER ? P->nchunks : 1;
            A.part_chunk = plan.layout == GA__RINNER ? 1 : L.rows;
        }
        CUfunction f = ga__reduce_kernel(func, P->op, P->in, P->layout);
        if (f && A.final_pass) {
            if (!flag) flag = ga__reduce_warning_word(func, device); /* the fatbin is loaded now */
            A.flag = flag;
        }
        if (!f) st = ga__t.error;
        else {
            void *args[] = {&A};
            CUresult r = GA__CU.LaunchKernel(f, (unsigned)P->blocks, 1, 1, 256, 1, 1, 0, ga__stream_of(device), args,
                                             NULL);
            if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuLaunchKernel");
        }
        if (parts) ga__pool_free(ga__g.devices[device].pool, parts); /* stream-ordered */
        parts = next;
        if (st != GA_OK || A.final_pass) break;
        /* the next pass reduces the partial states */
        A.in = next->ptr;
        A.center = 0;
        ga__rdims_to_states(&L, plan.layout, P->nchunks, plan.state);
    }
    if (parts) ga__pool_free(ga__g.devices[device].pool, parts);
    return st;
}

/* --- arguments --------------------------------------------------------------- */

/* red[d] for the axes (naxes 0 and axes NULL: all; naxes 0 and axes not
   NULL: none, NumPy's axis=()), with NumPy's errors. */
static ga_status ga__reduce_axes(const char *func, const ga_array *a, int naxes, const int *axes, bool *red)
{
    if (naxes < 0 || naxes > GA_MAXDIMS) return ga__error(GA_ERROR_VALUE, func, "naxes %d is out of range", naxes);
    if (naxes > 0 && !axes) return ga__null_input(func, "axes");
    for (int d = 0; d < a->ndim; d++) red[d] = naxes == 0 && !axes;
    for (int i = 0; i < naxes; i++) {
        int ax = axes[i];
        ga_status st = ga__normalize_axis(func, "", &ax, a->ndim);
        if (st != GA_OK) return st;
        if (red[ax]) return ga__error(GA_ERROR_VALUE, func, "duplicate value in 'axis'");
        red[ax] = true;
    }
    return GA_OK;
}

/* The result's shape: a's without the reduced axes, or with them as 1. */
static int ga__reduce_shape(const ga_array *a, const bool *red, bool keepdims, int64_t *shape)
{
    int n = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!red[d]) shape[n++] = a->shape[d];
        else if (keepdims) shape[n++] = 1;
    }
    return n;
}

/* A new result: the kept axes in a's memory order (NumPy's order K), C
   order when a is C-contiguous or repeats elements. */
static ga_array *ga__reduce_new(const char *func, const ga_array *a, const bool *red, bool keepdims, ga_dtype dtype)
{
    int64_t shape[GA_MAXDIMS];
    int ndim = ga__reduce_shape(a, red, keepdims, shape);
    bool c_order = (a->flags & GA_C_CONTIGUOUS) != 0;
    for (int d = 0; d < a->ndim; d++) c_order = c_order || (!red[d] && a->strides[d] == 0 && a->shape[d] > 1);
    if (c_order || ndim < 2) return ga__array_new(func, a->device, ndim, shape, dtype);
    /* positions of a's axes in the result, ordered by a's |stride| */
    int pos[GA_MAXDIMS], dims[GA_MAXDIMS], perm[GA_MAXDIMS], order[GA_MAXDIMS], n = 0;
    int64_t dim_strides[GA_MAXDIMS] = {0};
    for (int d = 0, k = 0; d < a->ndim; d++) {
        pos[d] = !red[d] || keepdims ? k++ : -1;
        if (pos[d] >= 0) dims[n] = d, dim_strides[n++] = a->strides[d];
    }
    ga__order_by_stride(n, dim_strides, perm);
    for (int i = 0; i < n; i++) order[i] = dims[perm[i]];
    int64_t strides[GA_MAXDIMS], step = (int64_t)ga__dtype_sizes[dtype];
    for (int i = n - 1; i >= 0; i--) {
        strides[pos[order[i]]] = step;
        step *= shape[pos[order[i]]] ? shape[pos[order[i]]] : 1;
    }
    ga_array *c = ga__array_new(func, a->device, ndim, shape, dtype);
    if (!c) return NULL;
    GA__ATOMIC_ADD(&c->buffer->refcount, 1);
    ga_array *v = ga__array_wrap(func, c->buffer, dtype, ndim, shape, strides, c->buffer->ptr);
    ga_release(c);
    if (v) v->flags |= GA_OWNDATA;
    return v;
}

/* NumPy's checks of out= for a reduction of a over red[]. */
static ga_status ga__reduce_check_out(const char *func, const char *ufunc, bool arg, const ga_array *a,
                                      const bool *red, bool keepdims, const ga_array *out)
{
    if (!(out->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "output array is read-only");
    if (out->device != a->device)
        return ga__error(GA_ERROR_DEVICE, func, "the output is on device %d, the input on device %d", out->device,
                         a->device);
    int64_t shape[GA_MAXDIMS];
    int ndim = ga__reduce_shape(a, red, keepdims, shape);
    bool same = out->ndim == ndim;
    for (int d = 0; same && d < ndim; d++) same = out->shape[d] == shape[d];
    if (same) return GA_OK;
    if (arg) return ga__error(GA_ERROR_SHAPE, func, "output array does not match result of np.%s.", ufunc);
    if (out->ndim != ndim)
        return ga__error(GA_ERROR_SHAPE, func,
                         "output parameter for reduction operation %s has the wrong number of dimensions: Found %d "
                         "but expected %d%s",
                         ufunc, out->ndim, ndim, keepdims ? " (must match the operand's when keepdims=True)" : "");
    /* a dim of 1 where the result has more: NumPy's reduction message */
    for (int d = 0; d < ndim; d++)
        if (out->shape[d] == 1 && shape[d] != 1)
            return ga__error(GA_ERROR_SHAPE, func,
                             "output operand requires a reduction along dimension %d, but the reduction is not "
                             "enabled. The dimension size of 1 does not match the expected output shape.",
                             d);
    /* out's dims with newaxis where a's are reduced, leading ones dropped */
    char o[200], r[400], s[200];
    ga__format_shape(o, sizeof o, out->ndim, out->shape);
    ga__format_shape(s, sizeof s, a->ndim, a->shape);
    size_t len = (size_t)snprintf(r, sizeof r, "(");
    bool started = false;
    for (int d = 0, k = 0; d < a->ndim && len < sizeof r; d++) {
        if (red[d] && !keepdims) {
            if (started) len += (size_t)snprintf(r + len, sizeof r - len, ",newaxis");
            continue;
        }
        int64_t n = k < out->ndim ? out->shape[k] : 1;
        k++;
        len += (size_t)snprintf(r + len, sizeof r - len, started ? ",%lld" : "%lld", (long long)n);
        started = true;
    }
    if (len < sizeof r) snprintf(r + len, sizeof r - len, ")");
    return ga__error(GA_ERROR_SHAPE, func,
                     "operands could not be broadcast together with remapped shapes [original->remapped]: %s->%s %s",
                     o, r, s);
}

/* A view of the kept axes of a result (dropping keepdims' unit axes). */
static ga_array *ga__reduce_kept_view(const char *func, const ga_array *target, const ga_array *a, const bool *red)
{
    ga__layout l;
    l.ndim = 0;
    l.offset = 0;
    for (int d = 0, k = 0; d < a->ndim; d++) {
        if (red[d] && target->ndim != a->ndim) continue;
        int t = target->ndim == a->ndim ? d : k++;
        if (red[d]) continue;
        l.shape[l.ndim] = target->shape[t];
        l.strides[l.ndim++] = target->strides[t];
    }
    return ga__view(func, target, &l, true);
}

/* where(mask, a, value) as a new array of a's dtype (mask: bool,
   broadcastable to a). */
static ga_array *ga__reduce_masked(const char *func, const ga_array *a, const ga_array *mask, const ga_array *value)
{
    ga_array *t = ga__array_new(func, a->device, a->ndim, a->shape, a->dtype);
    if (!t) return NULL;
    ga_operand in[3] = {ga_operand_array(mask), ga_operand_array(a), ga_operand_array(value)};
    ga_array *out[2] = {t, NULL};
    if (ga_ufunc_call(GA_UFUNC_WHERE, in, out) != GA_OK) {
        ga_release(t);
        return NULL;
    }
    return t;
}

/* where(mask, a, scalar value) (the value converted to a's dtype). */
static ga_array *ga__reduce_masked_scalar(const char *func, const ga_array *a, const ga_array *mask, ga_scalar value)
{
    ga_array *v = ga__full_on(func, a->device, 0, NULL, value, a->dtype);
    ga_array *t = v ? ga__reduce_masked(func, a, mask, v) : NULL;
    ga_release(v);
    return t;
}

/* The kept axes' shape without keepdims, for aux arrays. */
static ga_array *ga__reduce_aux_new(const char *func, const ga_array *a, const bool *red, ga_dtype dtype)
{
    int64_t shape[GA_MAXDIMS];
    int ndim = ga__reduce_shape(a, red, false, shape);
    return ga__array_new(func, a->device, ndim, shape, dtype);
}

static ga_status ga__reduce_count(const char *func, const ga_array *a, const bool *red, bool notnan, ga_array **count)
{
    *count = ga__reduce_aux_new(func, a, red, GA_INT64);
    if (!*count) return ga__t.error;
    ga__rjob j;
    memset(&j, 0, sizeof j);
    j.func = func, j.a = a, j.red = red, j.out = *count, j.op = GA__ROP_COUNT;
    j.flags = notnan ? GA__RF_NOTNAN : 0;
    j.value = GA_INT64;
    ga_status st = ga__reduce_run(&j);
    if (st != GA_OK) {
        ga_release(*count);
        *count = NULL;
    }
    return st;
}

/* How many elements each result of a mean or variance takes: those of
   `src` that are not NaN (skip_nan: src already holds NaN where `where` is
   false), else those `where` (broadcast to a's shape) selects. */
static ga_status ga__reduce_selected(const char *func, const ga_array *a, const ga_array *src, const ga_array *where,
                                     const bool *red, bool skip_nan, ga_array **count)
{
    if (skip_nan) return ga__reduce_count(func, src, red, true, count);
    ga_array *m = ga__broadcast_view(func, where, a->ndim, a->shape);
    if (!m) return ga__t.error;
    ga_status st = ga__reduce_count(func, m, red, false, count);
    ga_release(m);
    return st;
}

/* The default dtype of sum and prod. */
static ga_dtype ga__sum_dtype(ga_dtype t)
{
    char k = ga__dtype_kinds[t];
    return k == 'b' || k == 'i' ? GA_INT64 : k == 'u' ? GA_UINT64 : t;
}

/* One call of ga__reduce_into, as each kind's function below reads it. */
typedef struct ga__rcall {
    const char *func;
    ga_reduction r;
    const ga_array *a;
    const bool *red;
    ga_dtype dtype;           /* sums, means: the accumulator's dtype; var, std: dtype= or GA_DTYPE_INVALID */
    ga_array *target;         /* the result's dtype and shape */
    const ga_array *where;    /* where=, or NULL */
    const ga_scalar *initial; /* initial=, or NULL */
    double ddof;
    int64_t count_k;          /* the elements each result reduces, where= aside */
    bool skip_nan;            /* a nan form over a floating or complex dtype */
} ga__rcall;

static ga_status ga__reduce_into(const char *func, ga_reduction r, const ga_array *a, const bool *red, ga_dtype dtype,
                                 ga_array *target, const ga_reduce_options *opt, int64_t count_k);

/* A job of the call into its target, the rest zero. */
static void ga__rjob_init(ga__rjob *j, const ga__rcall *c)
{
    memset(j, 0, sizeof *j);
    j->func = c->func, j->red = c->red, j->out = c->target;
}

/* Releases the temporaries and returns st. */
static ga_status ga__reduce_done(ga__temps *t, ga_status st)
{
    ga__temps_release(t);
    return st;
}

/* sum, prod, nansum, nanprod: where= substitutes the identity; elements the
   loads cannot read as the accumulator's value type are converted first. */
static ga_status ga__reduce_sum_prod(const ga__rcall *c)
{
    const bool prod = c->r == GA_REDUCE_PROD || c->r == GA_REDUCE_NANPROD;
    const ga_dtype acc = c->dtype;
    ga__temps t = {{NULL}, 0};
    const ga_array *src = c->a;
    if (c->where && !(src = ga__temp(&t, ga__reduce_masked_scalar(c->func, c->a, c->where, ga_int(prod ? 1 : 0)))))
        return ga__temps_fail(&t);
    ga__rjob j;
    ga__rjob_init(&j, c);
    j.value = ga__rvalue(acc, false);
    if ((acc == GA_BOOL && src->dtype != GA_BOOL) || !ga__rloadable(j.value, src->dtype) ||
        ((acc == GA_FLOAT16 || acc == GA_BFLOAT16) && src->dtype != acc)) {
        src = ga__temp(&t, ga__contiguous_copy(c->func, src, acc)); /* the elements as dtype= first */
        if (!src) return ga__temps_fail(&t);
    }
    j.a = src;
    j.op = prod ? GA__ROP_PROD : GA__ROP_SUM;
    j.flags = c->skip_nan ? GA__RF_NAN : 0;
    if (c->initial) {
        ga_scalar v;
        ga_status st = ga__assigned_scalar(c->func, *c->initial, acc, &v);
        if (st == GA_OK) st = ga__scalar_to_element(c->func, v, acc, &j.initial);
        if (st != GA_OK) return ga__reduce_done(&t, st);
        j.has_initial = true;
        j.initial_dtype = acc;
    }
    return ga__reduce_done(&t, ga__reduce_run(&j));
}

/* where(mask, a, value), value an element of a's dtype. */
static ga_array *ga__reduce_masked_element(const char *func, const ga_array *a, const ga_array *mask,
                                           const ga__value16 *value)
{
    ga_array *v = ga__array_new(func, a->device, 0, NULL, a->dtype);
    ga_array *t = v && ga__fill(func, v, value) == GA_OK ? ga__reduce_masked(func, a, mask, v) : NULL;
    ga_release(v);
    return t;
}

/* min, max, nanmin, nanmax: where= substitutes the initial value (NaN for
   the nan forms). */
static ga_status ga__reduce_min_max(const ga__rcall *c)
{
    const ga_array *a = c->a;
    ga__rjob j;
    ga__rjob_init(&j, c);
    if (c->initial) {
        ga_scalar v;
        ga_status st = ga__assigned_scalar(c->func, *c->initial, a->dtype, &v);
        if (st == GA_OK) st = ga__scalar_to_element(c->func, v, a->dtype, &j.initial);
        if (st != GA_OK) return st;
        j.has_initial = true;
        j.initial_dtype = a->dtype;
    }
    ga__temps t = {{NULL}, 0};
    const ga_array *src = a;
    if (c->where) {
        ga__value16 nan;
        ga__double_to_element(NAN, NAN, a->dtype, &nan);
        src = ga__temp(&t, ga__reduce_masked_element(c->func, a, c->where, c->skip_nan ? &nan : &j.initial));
        if (!src) return ga__temps_fail(&t);
    }
    j.a = src;
    j.op = GA__ROP_MINMAX;
    j.value = ga__rvalue(a->dtype, true);
    j.flags = (c->r == GA_REDUCE_MAX || c->r == GA_REDUCE_NANMAX ? GA__RF_MAX : 0) | (c->skip_nan ? GA__RF_NAN : 0);
    return ga__reduce_done(&t, ga__reduce_run(&j));
}

/* argmin, argmax, nanargmin, nanargmax. The nan forms give the job a
   warning word of its own and read it back: an all-NaN slice is an error. */
static ga_status ga__reduce_arg(const ga__rcall *c)
{
    const char *func = c->func;
    const ga_array *a = c->a;
    ga__rjob j;
    ga__rjob_init(&j, c);
    j.a = a;
    j.op = GA__ROP_ARG;
    j.value = ga__rvalue(a->dtype, true);
    j.flags = (c->r == GA_REDUCE_ARGMAX || c->r == GA_REDUCE_NANARGMAX ? GA__RF_MAX : 0) |
              (c->skip_nan ? GA__RF_NAN : 0);
    if (!c->skip_nan) return ga__reduce_run(&j);
    uint32_t found = 0;
    CUstream stream = ga__stream_of(a->device);
    ga__block *flag = ga__device_alloc(func, a->device, sizeof found, false);
    if (!flag) return ga__t.error;
    j.flag = flag->ptr;
    CUresult cr = GA__CU.MemsetD8Async((CUdeviceptr)flag->ptr, 0, sizeof found, stream);
    ga_status st = cr == CUDA_SUCCESS ? GA_OK : ga__cuda_error(func, cr, "cuMemsetD8Async");
    if (st == GA_OK) st = ga__reduce_run(&j);
    if (st == GA_OK) {
        cr = GA__CU.MemcpyDtoHAsync(&found, (CUdeviceptr)flag->ptr, sizeof found, stream);
        if (cr == CUDA_SUCCESS) cr = GA__CU.StreamSynchronize(stream);
        if (cr != CUDA_SUCCESS) st = ga__cuda_error(func, cr, "cuMemcpyDtoHAsync");
        else if (found & GA_WARNING_ALL_NAN) st = ga__error(GA_ERROR_VALUE, func, "All-NaN slice encountered");
    }
    ga__pool_free(ga__g.devices[a->device].pool, flag);
    return st;
}

/* The job of a mean: the sum of src (in value type `value`) into out,
   divided by each result's count (count NULL: by count_k). */
static void ga__rjob_mean(ga__rjob *j, const ga__rcall *c, const ga_array *src, const ga_array *count, ga_dtype value,
                          ga_array *out)
{
    ga__rjob_init(j, c);
    j->a = src;
    j->out = out;
    j->op = GA__ROP_SUM;
    j->value = value;
    j->flags = c->skip_nan ? GA__RF_NAN : 0;
    j->fin = GA__FIN_MEAN;
    j->count = count;
    j->divisor = (double)c->count_k;
}

/* What mean and var reduce: `base` (a, or a converted) with the elements
   where= leaves out made 0 (NaN for the nan forms, which skip NaN) in *src,
   and in *count how many elements each result takes (NULL when every
   result takes count_k). Both are `base` / NULL or temporaries of t. */
static ga_status ga__reduce_selection(const ga__rcall *c, ga__temps *t, const ga_array *base, const ga_array **src,
                                      const ga_array **count)
{
    *src = base;
    *count = NULL;
    if (c->where &&
        !(*src = ga__temp(t, ga__reduce_masked_scalar(c->func, base, c->where,
                                                      c->skip_nan ? ga_float(NAN) : ga_int(0)))))
        return ga__t.error;
    if (!c->where && !c->skip_nan) return GA_OK;
    ga_array *n = NULL;
    ga_status st = ga__reduce_selected(c->func, c->a, *src, c->where, c->red, c->skip_nan, &n);
    if (st == GA_OK) *count = ga__temp(t, n);
    return st;
}

/* mean of an integer dtype=: the sum of src in acc, divided by the count in
   float64, cast back into the target. */
static ga_status ga__reduce_mean_exact(const ga__rcall *c, const ga_array *src, const ga_array *count, ga_dtype acc)
{
    const char *func = c->func;
    const ga_array *a = c->a;
    ga__temps t = {{NULL}, 0};
    ga_array *s = ga__temp(&t, ga__reduce_aux_new(func, a, c->red, acc));
    if (!s) return ga__temps_fail(&t);
    ga_reduce_options o = {NULL, NULL, 0};
    ga_status st = ga__reduce_into(func, GA_REDUCE_SUM, src, c->red, acc, s, &o, 0);
    if (st != GA_OK) return ga__reduce_done(&t, st);
    ga_array *q = ga__temp(&t, ga__reduce_aux_new(func, a, c->red, GA_FLOAT64));
    if (!q) return ga__temps_fail(&t);
    ga_operand in[2] = {ga_operand_array(s),
                        count ? ga_operand_array(count) : ga_operand_scalar(ga_float((double)c->count_k))};
    ga_array *outs[2] = {q, NULL};
    st = ga_ufunc_call(GA_UFUNC_DIVIDE, in, outs);
    if (st == GA_OK) {
        ga_array *v = ga__reduce_kept_view(func, c->target, a, c->red);
        st = v ? ga__copy_cast(func, a->device, v->dtype, v->data, v->strides, GA_FLOAT64, q->data, q->strides, v->ndim,
                               v->shape)
               : ga__t.error;
        ga_release(v);
    }
    return ga__reduce_done(&t, st);
}

/* mean, nanmean: sum / count in float64 (NumPy divides by an intp count). */
static ga_status ga__reduce_mean(const ga__rcall *c)
{
    ga__temps t = {{NULL}, 0};
    const ga_array *src, *count;
    ga_status st = ga__reduce_selection(c, &t, c->a, &src, &count);
    if (st != GA_OK) return ga__reduce_done(&t, st);
    ga_dtype acc = c->dtype == GA_FLOAT16 || c->dtype == GA_BFLOAT16 ? GA_FLOAT32 : c->dtype;
    /* dtype= float16 / bfloat16: the elements as it first (a sum's), then float32 */
    if (acc != c->dtype && src->dtype != c->dtype && !(src = ga__temp(&t, ga__contiguous_copy(c->func, src, c->dtype))))
        return ga__temps_fail(&t);
    if (ga__is_exact(acc)) return ga__reduce_done(&t, ga__reduce_mean_exact(c, src, count, acc));
    if (!ga__rloadable(acc, src->dtype) && !(src = ga__temp(&t, ga__contiguous_copy(c->func, src, acc))))
        return ga__temps_fail(&t);
    ga__rjob j;
    ga__rjob_mean(&j, c, src, count, acc, c->target);
    return ga__reduce_done(&t, ga__reduce_run(&j));
}

/* var's second pass under where= (not the nan forms): `base` with the
   elements where= leaves out replaced by their result's mean, so that they
   add 0; a temporary of t, stored in *src. */
static ga_status ga__reduce_mask_with_mean(const ga__rcall *c, ga__temps *t, const ga_array *base, const ga_array *center,
                                      ga_dtype value, const ga_array **src)
{
    const ga_array *a = c->a;
    int64_t kd[GA_MAXDIMS];
    ga__reduce_shape(a, c->red, true, kd);
    ga_array *ck = ga__reshape(c->func, center, a->ndim, kd);
    ga_array *m = ck ? ga__temp(t, ga__array_new(c->func, a->device, a->ndim, a->shape,
                                                 ga_promote_types(base->dtype, value)))
                     : NULL;
    ga_status st;
    if (m) {
        ga_operand in[3] = {ga_operand_array(c->where), ga_operand_array(base), ga_operand_array(ck)};
        ga_array *outs[2] = {m, NULL};
        st = ga_ufunc_call(GA_UFUNC_WHERE, in, outs);
    } else {
        st = ga__t.error;
    }
    ga_release(ck);
    *src = m;
    return st;
}

/* var, std, nanvar, nanstd: the mean (into `center`), then the sum of
   |x - mean|^2, in the working dtype (dtype=, or NumPy's default). */
static ga_status ga__reduce_var(const ga__rcall *c)
{
    const char *func = c->func;
    const ga_array *a = c->a;
    ga_dtype w = c->dtype;
    if (w == GA_DTYPE_INVALID) w = ga__is_exact(a->dtype) ? GA_FLOAT64 : a->dtype;
    const ga_dtype value = ga__rvalue(w, false);
    ga__temps t = {{NULL}, 0};
    const ga_array *base = a, *src, *count;
    if (!(a->dtype == w || (w == GA_FLOAT64 && !ga__is_complex(a->dtype))) &&
        !(base = ga__temp(&t, ga__contiguous_copy(func, a, w))))
        return ga__temps_fail(&t);
    ga_status st = ga__reduce_selection(c, &t, base, &src, &count);
    if (st != GA_OK) return ga__reduce_done(&t, st);
    ga_array *center = ga__temp(&t, ga__reduce_aux_new(func, a, c->red, value));
    if (!center) return ga__temps_fail(&t);
    ga__rjob j;
    ga__rjob_mean(&j, c, src, count, value, center);
    st = ga__reduce_run(&j);
    if (st == GA_OK && c->where && !c->skip_nan) st = ga__reduce_mask_with_mean(c, &t, base, center, value, &src);
    if (st != GA_OK) return ga__reduce_done(&t, st);
    ga__rjob_init(&j, c);
    j.a = src;
    j.op = GA__ROP_SUMSQ;
    j.value = value;
    j.center = center;
    j.count = count;
    j.divisor = (double)c->count_k;
    j.ddof = c->ddof;
    j.flags = (c->skip_nan ? GA__RF_NAN | GA__RF_NANVAR : 0);
    j.fin = c->r == GA_REDUCE_STD || c->r == GA_REDUCE_NANSTD ? GA__FIN_STD : GA__FIN_VAR;
    return ga__reduce_done(&t, ga__reduce_run(&j));
}

/* all, any, count_nonzero: where= substitutes the identity. */
static ga_status ga__reduce_logic(const ga__rcall *c)
{
    const bool any = c->r == GA_REDUCE_ANY, count = c->r == GA_REDUCE_COUNT_NONZERO;
    ga__temps t = {{NULL}, 0};
    const ga_array *src = c->a;
    if (c->where && !(src = ga__temp(&t, ga__reduce_masked_scalar(c->func, c->a, c->where, ga_bool(!any)))))
        return ga__temps_fail(&t);
    ga__rjob j;
    ga__rjob_init(&j, c);
    j.a = src;
    j.op = count ? GA__ROP_COUNT : GA__ROP_LOGIC;
    j.value = count ? GA_INT64 : GA_BOOL;
    j.flags = any ? GA__RF_ANY : 0;
    return ga__reduce_done(&t, ga__reduce_run(&j));
}

/* ptp: max - min in a's dtype, subtracted into the target. */
static ga_status ga__reduce_ptp(const ga__rcall *c)
{
    const char *func = c->func;
    const ga_array *a = c->a;
    ga__temps t = {{NULL}, 0};
    ga_array *mx = ga__temp(&t, ga__reduce_aux_new(func, a, c->red, a->dtype));
    ga_array *mn = mx ? ga__temp(&t, ga__reduce_aux_new(func, a, c->red, a->dtype)) : NULL;
    if (!mn) return ga__temps_fail(&t);
    ga_status st = ga__reduce_into(func, GA_REDUCE_MAX, a, c->red, a->dtype, mx, NULL, 0);
    if (st == GA_OK) st = ga__reduce_into(func, GA_REDUCE_MIN, a, c->red, a->dtype, mn, NULL, 0);
    if (st != GA_OK) return ga__reduce_done(&t, st);
    ga_array *v = ga__temp(&t, ga__reduce_kept_view(func, c->target, a, c->red));
    if (!v) return ga__temps_fail(&t);
    ga_operand in[2] = {ga_operand_array(mx), ga_operand_array(mn)};
    ga_array *outs[2] = {v, NULL};
    return ga__reduce_done(&t, ga_ufunc_call(GA_UFUNC_SUBTRACT, in, outs));
}

/* The reduction of `a` over red[] into `target` (the result's dtype and
   shape): every kind, after the argument checks. `dtype`: the accumulator
   of sums and means, dtype= (or GA_DTYPE_INVALID) of var and std; count_k:
   the elements each result reduces. */
static ga_status ga__reduce_into(const char *func, ga_reduction r, const ga_array *a, const bool *red, ga_dtype dtype,
                                 ga_array *target, const ga_reduce_options *opt, int64_t count_k)
{
    const bool nan_form = r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANPROD || r == GA_REDUCE_NANMIN ||
                          r == GA_REDUCE_NANMAX || r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANVAR ||
                          r == GA_REDUCE_NANSTD || r == GA_REDUCE_NANARGMIN || r == GA_REDUCE_NANARGMAX;
    const ga__rcall c = {func, r, a, red, dtype, target, opt ? opt->where : NULL, opt ? opt->initial : NULL,
                         opt ? opt->ddof : 0, count_k, nan_form && ga__is_inexact(a->dtype)};
    switch (r) {
    case GA_REDUCE_SUM: case GA_REDUCE_NANSUM: case GA_REDUCE_PROD: case GA_REDUCE_NANPROD:
        return ga__reduce_sum_prod(&c);
    case GA_REDUCE_MIN: case GA_REDUCE_MAX: case GA_REDUCE_NANMIN: case GA_REDUCE_NANMAX:
        return ga__reduce_min_max(&c);
    case GA_REDUCE_ARGMIN: case GA_REDUCE_ARGMAX: case GA_REDUCE_NANARGMIN: case GA_REDUCE_NANARGMAX:
        return ga__reduce_arg(&c);
    case GA_REDUCE_MEAN: case GA_REDUCE_NANMEAN: return ga__reduce_mean(&c);
    case GA_REDUCE_VAR: case GA_REDUCE_STD: case GA_REDUCE_NANVAR: case GA_REDUCE_NANSTD: return ga__reduce_var(&c);
    case GA_REDUCE_ALL: case GA_REDUCE_ANY: case GA_REDUCE_COUNT_NONZERO: return ga__reduce_logic(&c);
    case GA_REDUCE_PTP: return ga__reduce_ptp(&c);
    default: return ga__error(GA_ERROR_VALUE, func, "invalid reduction %d", (int)r);
    }
}

/* Every reduction: the checks, the result (out given or new), the work. */
static ga_status ga__reduce(const char *func, ga_reduction r, const ga_array *a, int naxes, const int *axes,
                            ga_dtype dtype, ga_array **out, bool keepdims, const ga_reduce_options *opt)
{
    if ((int)r < 0 || r >= GA_NUM_REDUCTIONS) return ga__error(GA_ERROR_VALUE, func, "invalid reduction %d", (int)r);
    if (!a) return ga__null_input(func, "a");
    if (!out) return ga__null_input(func, "out");
    const char *name = ga__reduction_names[r], *ufunc = ga__reduction_ufunc(r);
    const bool arg = r == GA_REDUCE_ARGMIN || r == GA_REDUCE_ARGMAX || r == GA_REDUCE_NANARGMIN ||
                     r == GA_REDUCE_NANARGMAX;
    const bool takes_dtype = r == GA_REDUCE_SUM || r == GA_REDUCE_PROD || r == GA_REDUCE_MEAN || r == GA_REDUCE_VAR ||
                             r == GA_REDUCE_STD || r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANPROD ||
                             r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD;
    const ga_array *where = opt ? opt->where : NULL;
    if (dtype != GA_DTYPE_INVALID && !takes_dtype)
        return ga__error(GA_ERROR_TYPE, func, "%s takes no dtype (NumPy's %s has no dtype argument)", name, name);
    if (dtype != GA_DTYPE_INVALID && !ga__dtype_valid(dtype))
        return ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
    if (opt && opt->initial &&
        !(r == GA_REDUCE_SUM || r == GA_REDUCE_PROD || r == GA_REDUCE_MIN || r == GA_REDUCE_MAX ||
          r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANPROD || r == GA_REDUCE_NANMIN || r == GA_REDUCE_NANMAX))
        return ga__error(GA_ERROR_VALUE, func, "%s takes no initial value", name);
    if (where && (arg || r == GA_REDUCE_PTP || r == GA_REDUCE_COUNT_NONZERO))
        return ga__error(GA_ERROR_VALUE, func, "%s takes no where mask", name);
    if (where) {
        if (where->dtype != GA_BOOL)
            return ga__error(GA_ERROR_TYPE, func,
                             "Cannot cast array data from dtype('%s') to dtype('bool') according to the rule 'safe'",
                             ga__dtype_names[where->dtype]);
        if (where->device != a->device)
            return ga__error(GA_ERROR_DEVICE, func, "where is on device %d, a on device %d", where->device, a->device);
        bool ok = where->ndim <= a->ndim;
        for (int d = 0; ok && d < where->ndim; d++) {
            int64_t n = where->shape[d], m = a->shape[d + a->ndim - where->ndim];
            ok = n == m || n == 1;
        }
        if (!ok) {
            int nd[2] = {a->ndim, where->ndim};
            const int64_t *sh[2] = {a->shape, where->shape};
            return ga__broadcast_error(func, 2, nd, sh);
        }
    }
    bool red[GA_MAXDIMS];
    const ga_array *src = a;
    ga_array *flat = NULL;
    if (arg && (naxes > 1 || (naxes == 0 && axes)))
        return ga__error(GA_ERROR_TYPE, func, "%s takes one axis or none ('tuple' object cannot be interpreted as an "
                                              "integer)", name);
    ga_status st = ga__reduce_axes(func, a, naxes, axes, red);
    if (st != GA_OK) return st;
    int64_t k = 1;
    for (int d = 0; d < a->ndim; d++)
        if (red[d]) k *= a->shape[d];
    /* errors of empty slices */
    if (k == 0 && (arg || ((r == GA_REDUCE_MIN || r == GA_REDUCE_MAX || r == GA_REDUCE_NANMIN ||
                            r == GA_REDUCE_NANMAX || r == GA_REDUCE_PTP) && !(opt && opt->initial)))) {
        if (arg)
            return ga__error(GA_ERROR_VALUE, func, "attempt to get %s of an empty sequence",
                             r == GA_REDUCE_ARGMIN || r == GA_REDUCE_NANARGMIN ? "argmin" : "argmax");
        return ga__error(GA_ERROR_VALUE, func, "zero-size array to reduction operation %s which has no identity",
                         ufunc);
    }
    if (where && !(opt && opt->initial) &&
        (r == GA_REDUCE_MIN || r == GA_REDUCE_MAX || r == GA_REDUCE_NANMIN || r == GA_REDUCE_NANMAX))
        return ga__error(GA_ERROR_VALUE, func,
                         "reduction operation '%s' does not have an identity, so to use a where mask one has to "
                         "specify 'initial'",
                         ufunc);
    if (r == GA_REDUCE_PTP && a->dtype == GA_BOOL)
        return ga__error(GA_ERROR_TYPE, func,
                         "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                         "operator, or the logical_xor function instead.");
    /* the result's dtype */
    ga_dtype res;
    switch (r) {
    case GA_REDUCE_SUM: case GA_REDUCE_PROD: case GA_REDUCE_NANSUM: case GA_REDUCE_NANPROD:
        res = dtype != GA_DTYPE_INVALID ? dtype : ga__sum_dtype(a->dtype);
        break;
    case GA_REDUCE_MEAN: case GA_REDUCE_NANMEAN:
        if (r == GA_REDUCE_NANMEAN && ga__is_inexact(a->dtype) && dtype != GA_DTYPE_INVALID && ga__is_exact(dtype))
            return ga__error(GA_ERROR_TYPE, func, "If a is inexact, then dtype must be inexact");
        res = dtype != GA_DTYPE_INVALID ? dtype : ga__is_exact(a->dtype) ? GA_FLOAT64 : a->dtype;
        break;
    case GA_REDUCE_VAR: case GA_REDUCE_STD: case GA_REDUCE_NANVAR: case GA_REDUCE_NANSTD:
        if (dtype != GA_DTYPE_INVALID && ga__is_exact(dtype))
            return ga__error(GA_ERROR_TYPE, func,
                             (r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD) && ga__is_inexact(a->dtype)
                                 ? "If a is inexact, then dtype must be inexact"
                                 : "%s: dtype must be a floating or complex dtype", name);
        res = dtype != GA_DTYPE_INVALID ? dtype
              : ga__is_exact(a->dtype)  ? GA_FLOAT64
              : ga__is_complex(a->dtype) ? ga__real_of(a->dtype)
                                         : a->dtype;
        break;
    case GA_REDUCE_ALL: case GA_REDUCE_ANY: res = GA_BOOL; break;
    case GA_REDUCE_COUNT_NONZERO: case GA_REDUCE_ARGMIN: case GA_REDUCE_ARGMAX: case GA_REDUCE_NANARGMIN:
    case GA_REDUCE_NANARGMAX: res = GA_INT64; break;
    default: res = a->dtype; break;
    }
    /* the accumulator dtype of the sums (dtype=, or the default) */
    ga_dtype acc = dtype;
    if (acc == GA_DTYPE_INVALID) {
        if (r == GA_REDUCE_SUM || r == GA_REDUCE_PROD || r == GA_REDUCE_NANSUM || r == GA_REDUCE_NANPROD) acc = res;
        else if (r == GA_REDUCE_MEAN || r == GA_REDUCE_NANMEAN) acc = res == GA_FLOAT16 ? GA_FLOAT32 : res;
    }
    ga_array *given = *out;
    if (given) {
        st = ga__reduce_check_out(func, arg ? name : ufunc, arg, a, red, keepdims, given);
        if (st != GA_OK) return st;
        if (arg && !ga_can_cast(given->dtype, GA_INT64, GA_CASTING_SAFE))
            return ga__error(GA_ERROR_TYPE, func,
                             "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                             ga__dtype_names[given->dtype]);
        if (r == GA_REDUCE_NANMEAN && ga__is_inexact(a->dtype) && ga__is_exact(given->dtype))
            return ga__error(GA_ERROR_TYPE, func, "If a is inexact, then out must be inexact");
    }
    st = ga__bind(func, a->device);
    if (st != GA_OK) return st;
    /* argmin / argmax of the flattened array: C order */
    if (arg && naxes == 0 && a->ndim > 1 && !(a->flags & GA_C_CONTIGUOUS)) {
        flat = ga__contiguous_copy(func, a, a->dtype);
        if (!flat) return ga__t.error;
        src = flat;
    }
    /* the result: out itself, a new array, or (out overlapping an input)
       a temporary copied into out */
    ga_array *target = given, *made = NULL;
    bool overlap = false;
    if (given) {
        uint64_t lo, hi, olo, ohi;
        ga__extent(given, &olo, &ohi);
        const ga_array *ins[2] = {a, where};
        for (int i = 0; i < 2; i++)
            if (ins[i] && ins[i]->buffer == given->buffer && ins[i]->size && given->size) {
                ga__extent(ins[i], &lo, &hi);
                overlap = overlap || (lo < ohi && olo < hi);
            }
    }
    if (!given || overlap) {
        made = ga__reduce_new(func, a, red, keepdims, given ? given->dtype : res);
        if (!made) {
            ga_release(flat);
            return ga__t.error;
        }
        target = made;
    }
    const bool variance = r == GA_REDUCE_VAR || r == GA_REDUCE_STD || r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD;
    st = ga__reduce_into(func, r, src, red, variance ? dtype : acc != GA_DTYPE_INVALID ? acc : res, target, opt, k);
    if (st == GA_OK && overlap)
        st = ga__copy_cast(func, a->device, given->dtype, given->data, given->strides, made->dtype, made->data,
                           made->strides, given->ndim, given->shape);
    ga_release(flat);
    if (st != GA_OK || overlap) {
        ga_release(made);
        return st;
    }
    if (made) *out = made;
    return GA_OK;
}

/* NumPy lets a 0-d array take axis 0 or -1 in the reductions (its int
   axis=, as if the array were 1-d): the whole array. Not mean, var and
   std, which count the elements per axis first (AxisError), nor their nan
   forms of integers and bool, which are they; but these too where a where=
   mask is given, whose count is a sum over the axis. */
static void ga__reduce_0d_axis(ga_reduction r, const ga_array *a, const ga_reduce_options *options, int *naxes,
                               const int **axes)
{
    bool counted = r == GA_REDUCE_MEAN || r == GA_REDUCE_VAR || r == GA_REDUCE_STD ||
                   ((r == GA_REDUCE_NANMEAN || r == GA_REDUCE_NANVAR || r == GA_REDUCE_NANSTD) && a && ga__is_exact(a->dtype));
    if (options && options->where) counted = false;
    if (a && !counted && a->ndim == 0 && *naxes == 1 && *axes && ((*axes)[0] == 0 || (*axes)[0] == -1)) {
        *naxes = 0;
        *axes = NULL;
    }
}

GPUARR_API ga_status ga_reduce(ga_reduction r, const ga_array *a, int naxes, const int *axes, ga_dtype dtype,
                               ga_array **out, bool keepdims, const ga_reduce_options *options)
{
    bool had = out && *out;
    ga__reduce_0d_axis(r, a, options, &naxes, &axes);
    ga_status st = ga__reduce("ga_reduce", r, a, naxes, axes, dtype, out, keepdims, options);
    if (st == GA_OK && !had) ga__ret(*out);
    return st;
}

static ga_array *ga__reduce_new_result(const char *func, ga_reduction r, const ga_array *a, int naxes, const int *axes,
                                       bool keepdims, double ddof)
{
    ga_array *out = NULL;
    ga_reduce_options o = {NULL, NULL, ddof};
    ga__reduce_0d_axis(r, a, &o, &naxes, &axes);
    if (ga__reduce(func, r, a, naxes, axes, GA_DTYPE_INVALID, &out, keepdims, &o) != GA_OK) return NULL;
    return ga__ret(out);
}

#define GA__DEFINE_REDUCTION(name, R)                                                        \
    GPUARR_API ga_array *ga_##name(const ga_array *a, int naxes, const int *axes, bool keepdims) \
    {                                                                                        \
        return ga__reduce_new_result("ga_" #name, R, a, naxes, axes, keepdims, 0);           \
    }
GA__DEFINE_REDUCTION(sum, GA_REDUCE_SUM)
GA__DEFINE_REDUCTION(prod, GA_REDUCE_PROD)
GA__DEFINE_REDUCTION(min, GA_REDUCE_MIN)
GA__DEFINE_REDUCTION(max, GA_REDUCE_MAX)
GA__DEFINE_REDUCTION(ptp, GA_REDUCE_PTP)
GA__DEFINE_REDUCTION(mean, GA_REDUCE_MEAN)
GA__DEFINE_REDUCTION(all, GA_REDUCE_ALL)
GA__DEFINE_REDUCTION(any, GA_REDUCE_ANY)
GA__DEFINE_REDUCTION(count_nonzero, GA_REDUCE_COUNT_NONZERO)
GA__DEFINE_REDUCTION(nansum, GA_REDUCE_NANSUM)
GA__DEFINE_REDUCTION(nanprod, GA_REDUCE_NANPROD)
GA__DEFINE_REDUCTION(nanmin, GA_REDUCE_NANMIN)
GA__DEFINE_REDUCTION(nanmax, GA_REDUCE_NANMAX)
GA__DEFINE_REDUCTION(nanmean, GA_REDUCE_NANMEAN)
#undef GA__DEFINE_REDUCTION

#define GA__DEFINE_VARIANCE(name, R)                                                                     \
    GPUARR_API ga_array *ga_##name(const ga_array *a, int naxes, const int *axes, double ddof, bool keepdims) \
    {                                                                                                    \
        return ga__reduce_new_result("ga_" #name, R, a, naxes, axes, keepdims, ddof);                    \
    }
GA__DEFINE_VARIANCE(var, GA_REDUCE_VAR)
GA__DEFINE_VARIANCE(std, GA_REDUCE_STD)
GA__DEFINE_VARIANCE(nanvar, GA_REDUCE_NANVAR)
GA__DEFINE_VARIANCE(nanstd, GA_REDUCE_NANSTD)
#undef GA__DEFINE_VARIANCE

#define GA__DEFINE_ARG(name, R)                                                           \
    GPUARR_API ga_array *ga_##name(const ga_array *a, int axis, bool keepdims)            \
    {                                                                                     \
        return axis == GA_AXIS_NONE ? ga__reduce_new_result("ga_" #name, R, a, 0, NULL, keepdims, 0) \
                                    : ga__reduce_new_result("ga_" #name, R, a, 1, &axis, keepdims, 0); \
    }
GA__DEFINE_ARG(argmin, GA_REDUCE_ARGMIN)
GA__DEFINE_ARG(argmax, GA_REDUCE_ARGMAX)
GA__DEFINE_ARG(nanargmin, GA_REDUCE_NANARGMIN)
GA__DEFINE_ARG(nanargmax, GA_REDUCE_NANARGMAX)
#undef GA__DEFINE_ARG

/* --- average, cov, corrcoef ---------------------------------------------------- */

GPUARR_API ga_array *ga_trace(const ga_array *a, int64_t offset, int axis1, int axis2, ga_dtype dtype)
{
    static const char func[] = "ga_trace";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *diagonal = ga__diagonal(func, a, offset, axis1, axis2), *out = NULL;
    const int last = -1;
    if (diagonal && ga__reduce(func, GA_REDUCE_SUM, diagonal, 1, &last, dtype, &out, false, NULL) != GA_OK) out = NULL;
    ga_release(diagonal);
    return ga__ret(out);
}

/* A new array of `r` over the axes (unscoped). */
static ga_array *ga__reduce_tmp(const char *func, ga_reduction r, const ga_array *a, int naxes, const int *axes,
                                ga_dtype dtype, bool keepdims)
{
    ga_array *out = NULL;
    return ga__reduce(func, r, a, naxes, axes, dtype, &out, keepdims, NULL) == GA_OK ? out : NULL;
}

/* x op y through the ufunc into a new array of dtype `dtype` and the
   broadcast shape (unscoped). */
static ga_array *ga__reduce_ufunc(const char *func, ga_ufunc u, const ga_array *x, const ga_array *y, ga_dtype dtype)
{
    int nd[2] = {x->ndim, y ? y->ndim : 0}, ndim = 0, bad = 0;
    const int64_t *sh[2] = {x->shape, y ? y->shape : x->shape};
    int64_t shape[GA_MAXDIMS];
    if (!ga__broadcast_shapes(y ? 2 : 1, nd, sh, &ndim, shape, &bad)) {
        ga__broadcast_error(func, 2, nd, sh);
        return NULL;
    }
    ga_array *t = ga__array_new(func, x->device, ndim, shape, dtype);
    if (!t) return NULL;
    ga_operand in[2] = {ga_operand_array(x), ga_operand_array(y)};
    ga_array *outs[2] = {t, NULL};
    if (ga_ufunc_call(u, in, outs) != GA_OK) {
        ga_release(t);
        return NULL;
    }
    return t;
}

/* numpy.average; the results are not scoped. */
static ga_array *ga__average(const char *func, const ga_array *a, int naxes, const int *axes, const ga_array *weights,
                             bool keepdims, ga_array **sum_of_weights)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (sum_of_weights) *sum_of_weights = NULL;
    if (!weights) {
        ga_array *avg = ga__reduce_tmp(func, GA_REDUCE_MEAN, a, naxes, axes, GA_DTYPE_INVALID, keepdims);
        if (avg && sum_of_weights) {
            /* the count, as the result's dtype */
            int64_t n = avg->size ? a->size / avg->size : 0;
            *sum_of_weights = ga__full_on(func, a->device, avg->ndim, avg->shape, ga_int(n), avg->dtype);
            if (!*sum_of_weights) {
                ga_release(avg);
                return NULL;
            }
        }
        return avg;
    }
    if (weights->device != a->device) {
        ga__error(GA_ERROR_DEVICE, func, "weights are on device %d, a on device %d", weights->device, a->device);
        return NULL;
    }
    bool red[GA_MAXDIMS];
    if (ga__reduce_axes(func, a, naxes, axes, red) != GA_OK) return NULL;
    ga_dtype wd[3] = {a->dtype, weights->dtype, GA_FLOAT64};
    ga_dtype rd = ga_result_type(ga__is_exact(a->dtype) ? 3 : 2, wd, 0, NULL);
    ga_array *w = NULL;
    bool same = weights->ndim == a->ndim;
    for (int d = 0; same && d < a->ndim; d++) same = weights->shape[d] == a->shape[d];
    if (same) {
        w = ga_retain((ga_array *)weights);
    } else {
        if (naxes == 0 && !axes) {
            ga__error(GA_ERROR_TYPE, func, "Axis must be specified when shapes of a and weights differ.");
            return NULL;
        }
        /* weights along the axes, in increasing axis order: reshaped with 1 elsewhere */
        int64_t shape[GA_MAXDIMS];
        bool ok = weights->ndim == naxes;
        /* NumPy requires weights.shape == tuple(a.shape[ax] for ax in axis) (axis order as given) */
        for (int i = 0; ok && i < naxes; i++) {
            int ax = axes[i] < 0 ? axes[i] + a->ndim : axes[i];
            ok = weights->shape[i] == a->shape[ax];
        }
        for (int i = 1; ok && i < naxes; i++) ok = (axes[i] < 0 ? axes[i] + a->ndim : axes[i]) >
                                                  (axes[i - 1] < 0 ? axes[i - 1] + a->ndim : axes[i - 1]);
        if (!ok && weights->ndim == naxes) {
            /* axes not in increasing order: weights transposed to it, as NumPy */
            ok = true;
            for (int i = 0; ok && i < naxes; i++) {
                int ax = axes[i] < 0 ? axes[i] + a->ndim : axes[i];
                ok = weights->shape[i] == a->shape[ax];
            }
            if (ok) {
                ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "weights along axes not in increasing order");
                return NULL;
            }
        }
        if (!ok) {
            ga__error(GA_ERROR_VALUE, func, "Shape of weights must be consistent with shape of a along specified axis.");
            return NULL;
        }
        for (int d = 0; d < a->ndim; d++) shape[d] = red[d] ? a->shape[d] : 1;
        w = ga__reshape(func, weights, a->ndim, shape);
        if (!w) return NULL;
    }
    ga_array *ac = NULL, *wc = NULL, *prod = NULL, *num = NULL, *scl = NULL, *avg = NULL;
    ac = ga__contiguous_copy(func, a, rd);
    wc = ac ? ga__contiguous_copy(func, w, rd) : NULL;
    prod = wc ? ga__reduce_ufunc(func, GA_UFUNC_MULTIPLY, ac, wc, rd) : NULL;
    num = prod ? ga__reduce_tmp(func, GA_REDUCE_SUM, prod, naxes, axes, rd, keepdims) : NULL;
    scl = num ? ga__reduce_tmp(func, GA_REDUCE_SUM, wc, naxes, axes, rd, keepdims) : NULL;
    ga_status st = scl ? GA_OK : ga__t.error;
    if (st == GA_OK) {
        /* NumPy: "Weights sum to zero" when any sum is zero (waits) */
        ga_array *zero = ga__full_on(func, a->device, 0, NULL, ga_int(0), rd);
        ga_array *iz = zero ? ga__reduce_ufunc(func, GA_UFUNC_EQUAL, scl, zero, GA_BOOL) : NULL;
        ga_array *anyz = iz ? ga__reduce_tmp(func, GA_REDUCE_ANY, iz, 0, NULL, GA_DTYPE_INVALID, false) : NULL;
        bool bad = false;
        st = anyz ? ga__to_host(func, anyz, &bad, 1, true) : ga__t.error;
        if (st == GA_OK && bad) st = ga__error(GA_ERROR_VALUE, func, "Weights sum to zero, can't be normalized");
        ga_release(zero);
        ga_release(iz);
        ga_release(anyz);
    }
    if (st == GA_OK) {
        avg = ga__reduce_ufunc(func, GA_UFUNC_DIVIDE, num, scl, rd);
        if (!avg) st = ga__t.error;
    }
    if (st == GA_OK && sum_of_weights) {
        *sum_of_weights = ga__array_new(func, a->device, avg->ndim, avg->shape, rd);
        if (!*sum_of_weights) st = ga__t.error;
        else {
            int64_t bs[GA_MAXDIMS];
            ga__broadcast_strides(scl, avg->ndim, bs);
            st = ga__copy_cast(func, a->device, rd, (*sum_of_weights)->data, (*sum_of_weights)->strides, rd, scl->data,
                               bs, avg->ndim, avg->shape);
        }
        if (st != GA_OK) {
            ga_release(*sum_of_weights);
            *sum_of_weights = NULL;
        }
    }
    ga_release(w);
    ga_release(ac);
    ga_release(wc);
    ga_release(prod);
    ga_release(num);
    ga_release(scl);
    if (st != GA_OK) {
        ga_release(avg);
        return NULL;
    }
    return avg;
}

GPUARR_API ga_array *ga_average(const ga_array *a, int naxes, const int *axes, const ga_array *weights, bool keepdims,
                                ga_array **sum_of_weights)
{
    ga_array *avg = ga__average("ga_average", a, naxes, axes, weights, keepdims, sum_of_weights);
    if (avg && sum_of_weights) ga__ret(*sum_of_weights);
    return ga__ret(avg);
}

/* X for cov: m (and y) as variables x observations, in the compute dtype
   (float64 or complex128), C-contiguous. */
static ga_array *ga__cov_matrix(const char *func, const ga_array *m, const ga_array *y, bool rowvar, ga_dtype cd)
{
    const ga_array *parts[2] = {m, y};
    ga_array *conv[2] = {NULL, NULL};
    int64_t nobs = -1, nv = 0;
    for (int i = 0; i < 2; i++) {
        const ga_array *p = parts[i];
        if (!p) continue;
        /* array(p, ndmin=2): a 1-d array is one row */
        int64_t rows = p->ndim == 2 ? p->shape[0] : 1, cols = p->ndim == 2 ? p->shape[1] : p->ndim == 1 ? p->shape[0] : 1;
        int64_t strides[2] = {p->ndim == 2 ? p->strides[0] : 0, p->ndim == 2 ? p->strides[1] : p->ndim == 1 ? p->strides[0] : 0};
        bool transpose = !rowvar && (i == 0 ? p->ndim == 2 : rows != 1);
        int64_t sh[2] = {transpose ? cols : rows, transpose ? rows : cols};
        int64_t st[2] = {transpose ? strides[1] : strides[0], transpose ? strides[0] : strides[1]};
        if (nobs >= 0 && sh[1] != nobs) {
            ga__error(GA_ERROR_SHAPE, func,
                      "all the input array dimensions except for the concatenation axis must match exactly, but along "
                      "dimension 1, the array at index 0 has size %lld and the array at index 1 has size %lld",
                      (long long)nobs, (long long)sh[1]);
            ga_release(conv[0]);
            return NULL;
        }
        nobs = sh[1];
        nv += sh[0];
        ga_array *c = ga__array_new(func, p->device, 2, sh, cd);
        if (!c || ga__copy_cast(func, p->device, cd, c->data, c->strides, p->dtype, p->data, st, 2, sh) != GA_OK) {
            ga_release(c);
            ga_release(conv[0]);
            return NULL;
        }
        conv[i] = c;
    }
    if (!conv[1]) return conv[0];
    int64_t sh[2] = {nv, nobs};
    ga_array *x = ga__array_new(func, m->device, 2, sh, cd);
    ga_status st = x ? GA_OK : ga__t.error;
    size_t first = (size_t)ga_nbytes(conv[0]);
    CUstream stream = ga__stream_of(m->device);
    CUresult r = CUDA_SUCCESS;
    if (st == GA_OK && first) r = GA__CU.MemcpyDtoDAsync((CUdeviceptr)x->data, (CUdeviceptr)conv[0]->data, first, stream);
    if (st == GA_OK && r == CUDA_SUCCESS && ga_nbytes(conv[1]))
        r = GA__CU.MemcpyDtoDAsync((CUdeviceptr)(x->data + first), (CUdeviceptr)conv[1]->data, ga_nbytes(conv[1]),
                                   stream);
    ga_release(conv[0]);
    ga_release(conv[1]);
    if (r != CUDA_SUCCESS) {
        ga__cuda_error(func, r, "cuMemcpyDtoDAsync");
        ga_release(x);
        return NULL;
    }
    return x;
}

/* The covariance (nv x nv, compute dtype cd), before squeezing; *fact_out
   the normalisation. */
static ga_array *ga__cov(const char *func, const ga_array *m, const ga_array *y, bool rowvar, bool bias, int64_t ddof,
                         const ga_array *fweights, const ga_array *aweights, ga_dtype cd)
{
    if (m->ndim > 2) {
        ga__error(GA_ERROR_VALUE, func, "m has more than 2 dimensions");
        return NULL;
    }
    if (y && y->ndim > 2) {
        ga__error(GA_ERROR_VALUE, func, "y has more than 2 dimensions");
        return NULL;
    }
    if (y && y->device != m->device) {
        ga__error(GA_ERROR_DEVICE, func, "y is on device %d, m on device %d", y->device, m->device);
        return NULL;
    }
    if (ga__bind(func, m->device) != GA_OK) return NULL;
    ga_array *x = ga__cov_matrix(func, m, y, rowvar, cd);
    if (!x) return NULL;
    const int64_t nv = x->shape[0], nobs = x->shape[1];
    if (nv == 0) { /* np.array([]).reshape(0, 0) */
        ga_release(x);
        const int64_t empty[2] = {0, 0};
        return ga__array_new(func, m->device, 2, empty, cd);
    }
    if (ddof == GA_NONE) ddof = bias ? 0 : 1;
    /* w = fweights * aweights (float64), validated as NumPy */
    ga_array *w = NULL;
    const ga_array *ws[2] = {fweights, aweights};
    const char *wn[2] = {"fweights", "aweights"};
    for (int i = 0; i < 2; i++) {
        const ga_array *v = ws[i];
        if (!v) continue;
        ga_status st = GA_OK;
        if (i == 0 && !(ga__dtype_kinds[v->dtype] == 'i' || ga__dtype_kinds[v->dtype] == 'u' || v->dtype == GA_BOOL))
            st = ga__error(GA_ERROR_TYPE, func, "fweights must be integer");
        else if (v->ndim > 1) st = ga__error(GA_ERROR_SHAPE, func, "cannot handle multidimensional %s", wn[i]);
        else if (v->ndim == 0 || v->shape[0] != nobs)
            st = ga__error(GA_ERROR_SHAPE, func, "incompatible numbers of samples and %s", wn[i]);
        else if (v->device != m->device) st = ga__error(GA_ERROR_DEVICE, func, "%s are on another device", wn[i]);
        ga_array *vd = st == GA_OK ? ga__contiguous_copy(func, v, GA_FLOAT64) : NULL;
        if (st == GA_OK && !vd) st = ga__t.error;
        if (st == GA_OK) { /* negative weights: NumPy's error (waits) */
            ga_array *mn = ga__reduce_tmp(func, GA_REDUCE_MIN, vd, 0, NULL, GA_DTYPE_INVALID, false);
            double low = 0;
            st = mn ? ga__to_host(func, mn, &low, sizeof low, true) : ga__t.error;
            ga_release(mn);
            if (st == GA_OK && low < 0) st = ga__error(GA_ERROR_VALUE, func, "%s cannot be negative", wn[i]);
        }
        if (st == GA_OK && w) {
            ga_array *p = ga__reduce_ufunc(func, GA_UFUNC_MULTIPLY, w, vd, GA_FLOAT64);
            ga_release(w);
            ga_release(vd);
            w = p;
            if (!w) st = ga__t.error;
        } else if (st == GA_OK) {
            w = vd;
        } else {
            ga_release(vd);
        }
        if (st != GA_OK) {
            ga_release(w);
            ga_release(x);
            return NULL;
        }
    }
    /* the averages, then X - avg */
    int axis1 = 1;
    ga_array *wsum = NULL;
    ga_array *avg = ga__average(func, x, 1, &axis1, w, true, w ? &wsum : NULL);
    ga_status st = avg ? GA_OK : ga__t.error;
    double fact = 0, w_sum = (double)nobs;
    if (st == GA_OK && w) { /* NumPy's w_sum[0]: every row has the same sum */
        ga_array *s0 = ga__reduce_tmp(func, GA_REDUCE_SUM, w, 0, NULL, GA_DTYPE_INVALID, false);
        st = s0 ? ga__to_host(func, s0, &w_sum, sizeof w_sum, true) : ga__t.error;
        ga_release(s0);
    }
    if (st == GA_OK) {
        if (!w) fact = (double)(nobs - ddof);
        else if (ddof == 0) fact = w_sum;
        else if (!aweights) fact = w_sum - (double)ddof;
        else {
            /* w_sum - ddof * sum(w * aweights) / w_sum */
            ga_array *aw = ga__contiguous_copy(func, aweights, GA_FLOAT64);
            ga_array *p = aw ? ga__reduce_ufunc(func, GA_UFUNC_MULTIPLY, w, aw, GA_FLOAT64) : NULL;
            ga_array *s = p ? ga__reduce_tmp(func, GA_REDUCE_SUM, p, 0, NULL, GA_DTYPE_INVALID, false) : NULL;
            double sw = 0;
            st = s ? ga__to_host(func, s, &sw, sizeof sw, true) : ga__t.error;
            fact = w_sum - (double)ddof * sw / w_sum;
            ga_release(aw);
            ga_release(p);
            ga_release(s);
        }
        if (fact <= 0) fact = 0; /* NumPy warns "Degrees of freedom <= 0 for slice" */
    }
    ga_array *xc = st == GA_OK ? ga__reduce_ufunc(func, GA_UFUNC_SUBTRACT, x, avg, cd) : NULL;
    if (st == GA_OK && !xc) st = ga__t.error;
    ga_release(avg);
    ga_release(wsum);
    ga_release(x);
    ga_array *c = NULL;
    if (st == GA_OK) {
        /* the Gram matrix in chunks of observations, then their sums */
        const int64_t chunk = 8192, nchunks = nobs > 0 ? (nobs + chunk - 1) / chunk : 1;
        const int64_t isz = (int64_t)ga__dtype_sizes[cd];
        const int device = m->device;
        const int64_t pshape[3] = {nv, nv, nchunks};
        ga_array *parts = ga__array_new(func, device, 3, pshape, cd);
        st = parts ? GA_OK : ga__t.error;
        if (st == GA_OK && nobs > 0) {
            ga__gram_args g;
            memset(&g, 0, sizeof g);
            g.x = xc->data;
            g.w = w ? w->data : 0;
            g.out = parts->data;
            g.nv = nv, g.nobs = nobs, g.chunk = chunk, g.nchunks = nchunks;
            int c2 = cd == GA_COMPLEX128;
            CUfunction f = ga__kernel(func, GA__FAMILY_REDUCE, &ga__reduce_kernels.gram[c2], "gram",
                                      ga__dtype_names[cd], NULL, NULL);
            void *args[] = {&g};
            int64_t items = nv * nv * nchunks, blocks = GA__MIN(items, (int64_t)ga__g.devices[device].multiprocessor_count * 4);
            if (!f) st = ga__t.error;
            else {
                CUresult r = GA__CU.LaunchKernel(f, (unsigned)blocks, 1, 1, 256, 1, 1, 0, ga__stream_of(device), args, NULL);
                if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuLaunchKernel");
            }
        } else if (st == GA_OK) {
            ga__value16 zero;
            memset(&zero, 0, sizeof zero);
            st = ga__fill(func, parts, &zero);
        }
        int axis2 = 2;
        ga_array *g = st == GA_OK ? ga__reduce_tmp(func, GA_REDUCE_SUM, parts, 1, &axis2, GA_DTYPE_INVALID, false) : NULL;
        if (st == GA_OK && !g) st = ga__t.error;
        /* c *= 1 / fact, as NumPy */
        if (st == GA_OK) {
            ga_operand in[2] = {ga_operand_array(g), ga_operand_scalar(ga_float(1.0 / fact))};
            ga_array *outs[2] = {g, NULL};
            st = ga_ufunc_call(GA_UFUNC_MULTIPLY, in, outs);
        }
        if (st == GA_OK) c = ga_retain(g);
        ga_release(g);
        ga_release(parts);
        (void)isz;
    }
    ga_release(xc);
    ga_release(w);
    return c;
}

/* The squeezed result in `dtype`. */
static ga_array *ga__cov_result(const char *func, ga_array *c, ga_dtype dtype)
{
    int64_t shape[2];
    int n = 0;
    for (int d = 0; d < c->ndim; d++)
        if (c->shape[d] != 1) shape[n++] = c->shape[d];
    ga_array *r = ga__array_new(func, c->device, n, shape, dtype);
    if (r && ga__copy_cast(func, c->device, dtype, r->data, r->strides, c->dtype, c->data, c->strides, n, shape) !=
                 GA_OK) {
        ga_release(r);
        r = NULL;
    }
    return r;
}

/* cov's dtypes: the result's (dtype=, or result_type(m, y, float64)) and
   the compute dtype. */
static ga_status ga__cov_dtypes(const char *func, const ga_array *m, const ga_array *y, ga_dtype dtype, ga_dtype *res,
                                ga_dtype *cd)
{
    if (dtype == GA_DTYPE_INVALID) {
        ga_dtype d[3] = {m->dtype, y ? y->dtype : GA_FLOAT64, GA_FLOAT64};
        dtype = ga_result_type(3, d, 0, NULL);
    } else if (!ga__dtype_valid(dtype)) {
        return ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
    }
    *res = dtype;
    bool cplx = ga__is_complex(dtype) || ga__is_complex(m->dtype) || (y && ga__is_complex(y->dtype));
    *cd = cplx ? GA_COMPLEX128 : GA_FLOAT64;
    return GA_OK;
}

GPUARR_API ga_array *ga_cov(const ga_array *m, const ga_array *y, bool rowvar, bool bias, int64_t ddof,
                            const ga_array *fweights, const ga_array *aweights, ga_dtype dtype)
{
    static const char func[] = "ga_cov";
    if (!m) {
        ga__null_input(func, "m");
        return NULL;
    }
    ga_dtype res = GA_DTYPE_INVALID, cd = GA_DTYPE_INVALID; /* (set by ga__cov_dtypes where it succeeds) */
    if (ga__cov_dtypes(func, m, y, dtype, &res, &cd) != GA_OK) return NULL;
    ga_array *c = ga__cov(func, m, y, rowvar, bias, ddof, fweights, aweights, cd);
    if (!c) return NULL;
    ga_array *r = ga__cov_result(func, c, res);
    ga_release(c);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_corrcoef(const ga_array *x, const ga_array *y, bool rowvar, ga_dtype dtype)
{
    static const char func[] = "ga_corrcoef";
    if (!x) {
        ga__null_input(func, "x");
        return NULL;
    }
    ga_dtype res = GA_DTYPE_INVALID, cd = GA_DTYPE_INVALID; /* (set by ga__cov_dtypes where it succeeds) */
    if (ga__cov_dtypes(func, x, y, dtype, &res, &cd) != GA_OK) return NULL;
    ga_array *c = ga__cov(func, x, y, rowvar, false, GA_NONE, NULL, NULL, cd);
    if (!c) return NULL;
    const int64_t nv = c->shape[0];
    ga_array *n = ga__array_new(func, x->device, 2, c->shape, cd);
    ga_status st = n ? GA_OK : ga__t.error;
    if (st == GA_OK && nv > 0) {
        int c2 = cd == GA_COMPLEX128;
        CUfunction f = ga__kernel(func, GA__FAMILY_REDUCE, &ga__reduce_kernels.corr[c2], "corr",
                                  ga__dtype_names[cd], NULL, NULL);
        void *o = (void *)(uintptr_t)n->data, *i = (void *)(uintptr_t)c->data;
        int64_t nvv = nv;
        int32_t selfdiv = nv == 1; /* one variable: NumPy returns c / c */
        void *args[] = {&o, &i, &nvv, &selfdiv};
        st = ga__launch(func, f, x->device, nv * nv, args);
    }
    ga_release(c);
    ga_array *r = st == GA_OK ? ga__cov_result(func, n, res) : NULL;
    ga_release(n);
    return ga__ret(r);
}

/* --- quantile, percentile, median and their nan forms ---------------------- */
/* Each slice (the reduced axes moved last, (kept..., k)) is sorted, NaN
   last; c, the count of elements each slice's statistic is taken over (k,
   or those not NaN), gives NumPy's virtual indices, computed with NumPy's
   formulas and in its dtype through the ufuncs; the neighbours are taken
   along the last axis and interpolated with NumPy's _lerp. */

/* NumPy's alpha and beta of the continuous methods. */
static bool ga__quantile_alpha_beta(ga_quantile_method m, double *alpha, double *beta)
{
    switch (m) {
    case GA_QUANTILE_INTERPOLATED_INVERTED_CDF: *alpha = 0, *beta = 1; return true;
    case GA_QUANTILE_HAZEN: *alpha = 0.5, *beta = 0.5; return true;
    case GA_QUANTILE_WEIBULL: *alpha = 0, *beta = 0; return true;
    case GA_QUANTILE_MEDIAN_UNBIASED: *alpha = 1 / 3.0, *beta = 1 / 3.0; return true;
    case GA_QUANTILE_NORMAL_UNBIASED: *alpha = 3 / 8.0, *beta = 3 / 8.0; return true;
    default: return false;
    }
}

/* The methods that pick one element (no interpolation, a's dtype). */
static bool ga__quantile_picks(ga_quantile_method m)
{
    return m == GA_QUANTILE_LOWER || m == GA_QUANTILE_HIGHER || m == GA_QUANTILE_NEAREST ||
           m == GA_QUANTILE_INVERTED_CDF || m == GA_QUANTILE_CLOSEST_OBSERVATION;
}

static const int ga__last_axis[1] = {-1}, ga__first_axis[1] = {0};

/* where(cond, scalar, y) through the ufunc (scoped). */
static ga_array *ga__where_scalar(const ga_array *cond, ga_scalar x, const ga_array *y)
{
    if (!cond || !y) return NULL;
    ga_operand in[3] = {ga_operand_array(cond), ga_operand_scalar(x), ga_operand_array(y)};
    ga_array *outs[1] = {NULL};
    return ga_ufunc_call(GA_UFUNC_WHERE, in, outs) == GA_OK ? outs[0] : NULL;
}

/* Picking methods: int64 indices into each slice (scoped), from the
   counts cD and cD - 1 and q, float64. */
static ga_array *ga__quantile_pick_index(ga_quantile_method m, const ga_array *cD, const ga_array *cm1D,
                                         const ga_array *Q)
{
    ga_array *idx;
    switch (m) {
    case GA_QUANTILE_LOWER: idx = ga_floor(ga_multiply(cm1D, Q)); break;
    case GA_QUANTILE_HIGHER: idx = ga_ceil(ga_multiply(cm1D, Q)); break;
    case GA_QUANTILE_NEAREST: idx = ga_rint(ga_multiply(cm1D, Q)); break;
    default: {
        /* _discrete_interpolation_to_boundaries: previous where the
           condition holds, else previous + 1 */
        ga_array *index = ga_subtract_scalar(ga_multiply(cD, Q), ga_int(1));
        if (m == GA_QUANTILE_CLOSEST_OBSERVATION) index = ga_subtract_scalar(index, ga_float(0.5));
        ga_array *prev = ga_floor(index), *next = ga_add_scalar(prev, ga_int(1));
        ga_array *cond = ga_equal_scalar(ga_subtract(index, prev), ga_int(0));
        if (m == GA_QUANTILE_CLOSEST_OBSERVATION)
            cond = ga_logical_and(cond, ga_equal_scalar(ga_remainder_scalar(prev, ga_int(2)), ga_int(1)));
        idx = ga_where(cond, prev, next);
        break;
    }
    }
    return ga_astype(idx, GA_INT64);
}

/* The statistic of each sorted slice S (kept..., k): (kept..., nq) in
   the result's dtype, or NULL (scoped). c: int64 counts (kept..., 1) or
   (1, ..., 1); Q: the q values, float64. As NumPy 2 does for a Python
   float q, the virtual indices and gamma are float64 and the interpolation
   runs in W (float64 for integers, else a's dtype), gamma and 1 - gamma
   converted to it. */
static ga_array *ga__quantile_sorted(const ga_array *S, const ga_array *c, const ga_array *Q, ga_dtype W,
                                     ga_quantile_method m)
{
    ga_array *cD = ga_astype(c, GA_FLOAT64), *cm1 = ga_subtract_scalar(c, ga_int(1)), *cm1D = ga_astype(cm1, GA_FLOAT64);
    if (ga__quantile_picks(m)) {
        ga_array *idx = ga__quantile_pick_index(m, cD, cm1D, Q);
        idx = ga_maximum_scalar(ga_minimum(idx, cm1), ga_int(0));
        return ga_take_along_axis(S, idx, -1);
    }
    double alpha, beta;
    ga_array *v;
    if (ga__quantile_alpha_beta(m, &alpha, &beta)) {
        ga_array *corr = ga_add_rscalar(ga_float(alpha), ga_multiply_scalar(Q, ga_float(1 - alpha - beta)));
        v = ga_subtract_scalar(ga_add(ga_multiply(cD, Q), corr), ga_int(1));
    } else if (m == GA_QUANTILE_AVERAGED_INVERTED_CDF) {
        v = ga_subtract_scalar(ga_multiply(cD, Q), ga_int(1));
    } else if (m == GA_QUANTILE_MIDPOINT) {
        ga_array *w = ga_multiply(cm1D, Q);
        v = ga_multiply_rscalar(ga_float(0.5), ga_add(ga_floor(w), ga_ceil(w)));
    } else {
        v = ga_multiply(cm1D, Q);
    }
    /* _get_indexes: the last element above the bounds, the first below */
    ga_array *prev = ga_floor(v), *above = ga_greater_equal(v, cm1D), *below = ga_less_scalar(v, ga_int(0));
    ga_array *prev_i = ga_astype(prev, GA_INT64);
    ga_array *next_i = ga_add_scalar(prev_i, ga_int(1));
    prev_i = ga__where_scalar(below, ga_int(0), ga_where(above, cm1, prev_i));
    next_i = ga__where_scalar(below, ga_int(0), ga_where(above, cm1, next_i));
    ga_array *g = ga_subtract(v, prev);
    if (m == GA_QUANTILE_MIDPOINT)
        g = ga__where_scalar(ga_equal_scalar(ga_remainder_scalar(v, ga_int(1)), ga_int(0)), ga_float(0),
                             ga_full_like(v, ga_float(0.5)));
    else if (m == GA_QUANTILE_AVERAGED_INVERTED_CDF)
        g = ga__where_scalar(ga_equal_scalar(g, ga_int(0)), ga_float(0.5), ga_full_like(v, ga_float(1)));
    ga_array *lo = ga_astype(ga_take_along_axis(S, prev_i, -1), W);
    ga_array *hi = ga_astype(ga_take_along_axis(S, next_i, -1), W);
    /* _lerp(lo, hi, g) */
    ga_array *d = ga_subtract(hi, lo);
    ga_array *r1 = ga_add(lo, ga_multiply(d, ga_astype(g, W)));
    ga_array *r2 = ga_subtract(hi, ga_multiply(d, ga_astype(ga_subtract_rscalar(ga_int(1), g), W)));
    return ga_where(ga_greater_equal_scalar(g, ga_float(0.5)), r2, r1);
}

/* median of each sorted slice: the mean of the middle one or two (scoped). */
static ga_array *ga__median_sorted(const ga_array *S, const ga_array *c, ga_dtype rd)
{
    ga_array *lo_i = ga_maximum_scalar(ga_floor_divide_scalar(ga_subtract_scalar(c, ga_int(1)), ga_int(2)), ga_int(0));
    ga_array *hi_i = ga_floor_divide_scalar(c, ga_int(2));
    ga_array *lo = ga_take_along_axis(S, lo_i, -1), *hi = ga_take_along_axis(S, hi_i, -1);
    const ga_array *pair[2] = {lo, hi};
    ga_array *mean = ga_mean(ga_concatenate(2, pair, -1), 1, ga__last_axis, true);
    ga_array *odd = ga_equal_scalar(ga_remainder_scalar(c, ga_int(2)), ga_int(1));
    return ga_where(odd, ga_astype(lo, rd), mean);
}

static ga_array *ga__order_stat(const char *func, const ga_array *a, int nq, const double *q, double scale,
                                int naxes, const int *axes, ga_quantile_method m, bool keepdims, bool nan, bool median)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    ga_dtype t = a->dtype;
    int count = nq < 0 ? 1 : nq;
    if (!median) {
        if ((int)m < GA_QUANTILE_LINEAR || (int)m > GA_QUANTILE_NORMAL_UNBIASED) {
            ga__error(GA_ERROR_VALUE, func, "invalid quantile method %d", (int)m);
            return NULL;
        }
        if (count > 0 && !q) {
            ga__null_input(func, "q");
            return NULL;
        }
        if (ga__is_complex(t)) { /* NumPy's first check */
            ga__error(GA_ERROR_TYPE, func, "a must be an array of real numbers");
            return NULL;
        }
        for (int i = 0; i < count; i++)
            if (!(q[i] / scale >= 0 && q[i] / scale <= 1)) {
                ga__error(GA_ERROR_VALUE, func, scale == 1 ? "Quantiles must be in the range [0, 1]"
                                                           : "Percentiles must be in the range [0, 100]");
                return NULL;
            }
        if (t == GA_BOOL && !ga__quantile_picks(m)) {
            ga__error(GA_ERROR_TYPE, func,
                      "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                      "operator, or the logical_xor function instead.");
            return NULL;
        }
    }
    bool red[GA_MAXDIMS];
    if (ga__reduce_axes(func, a, naxes, axes, red) != GA_OK) return NULL;
    bool nan_form = nan;
    nan = nan && ga__is_inexact(t);
    /* the result's dtype; the dtype NumPy computes the indices in */
    ga_dtype W = ga__is_exact(t) ? GA_FLOAT64 : t;
    ga_dtype rd = !median && ga__quantile_picks(m) ? t : W;
    int perm[GA_MAXDIMS], nk = 0;
    int64_t k = 1, shape[GA_MAXDIMS + 1], ones[GA_MAXDIMS + 1], final_shape[GA_MAXDIMS + 1];
    int final_ndim = 0;
    if (nq >= 0) final_shape[final_ndim++] = nq;
    for (int d = 0; d < a->ndim; d++) {
        if (red[d]) {
            k *= a->shape[d];
            if (keepdims) final_shape[final_ndim++] = 1;
        } else {
            ones[nk] = 1;
            final_shape[final_ndim++] = a->shape[d];
            shape[nk] = a->shape[d];
            perm[nk++] = d;
        }
    }
    for (int d = 0, j = nk; d < a->ndim; d++)
        if (red[d]) perm[j++] = d;
    shape[nk] = k;
    ones[nk] = 1;
    if (k == 0 && !nan_form && !median) {
        ga__error(GA_ERROR_INDEX, func, "index -1 is out of bounds for axis 0 with size 0");
        return NULL;
    }
    if (ga_device_push(a->device) != GA_OK) return NULL;
    ga_scope_begin();
    ga_array *r;
    if (nan_form && a->size == 0) { /* NumPy's nanmean of a: NaN, without q's axis */
        const int qaxis = nq >= 0 ? 1 : 0;
        r = ga_full(final_ndim - qaxis, final_shape + qaxis, ga_float(NAN), W);
    } else if (k == 0) { /* NaN, as NumPy's mean of an empty slice */
        r = ga_full(final_ndim, final_shape, ga_float(NAN), W);
    } else {
        ga_array *S = ga_sort(ga_reshape(ga_permute_dims(a, perm), nk + 1, shape), -1);
        ga_array *c = nan ? ga_subtract_rscalar(ga_int(k), ga_sum(ga_isnan(S), 1, ga__last_axis, true))
                          : ga_full(nk + 1, ones, ga_int(k), GA_INT64);
        if (median) {
            r = ga__median_sorted(S, c, rd);
        } else {
            double *qs = (double *)GPUARR_MALLOC(sizeof(double) * (size_t)(count ? count : 1));
            if (!qs) ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
            for (int i = 0; qs && i < count; i++) qs[i] = q[i] / scale;
            int64_t n1 = count;
            ga_array *Q = qs ? ga_from_host(qs, 1, &n1, GA_FLOAT64) : NULL;
            GPUARR_FREE(qs);
            r = ga__quantile_sorted(S, c, Q, W, m);
        }
        if (nan) { /* a slice of NaN only gives NaN */
            r = ga__where_scalar(ga_equal_scalar(c, ga_int(0)), ga_float(NAN), r);
        } else if (ga__is_inexact(t)) { /* a slice with NaN: its last element */
            ga_array *last = ga_index(S, "..., -1:");
            r = ga_where(ga_isnan(last), last, r);
        }
        if (r && nq >= 0) r = ga_moveaxis(r, 1, ga__last_axis, ga__first_axis);
        r = ga_reshape(r, final_ndim, final_shape);
        if (r && !(r->flags & GA_C_CONTIGUOUS)) r = ga__ret(ga__contiguous_copy(func, r, r->dtype));
    }
    r = ga_retain(r);
    ga_scope_end();
    ga_device_pop();
    return r;
}

GPUARR_API ga_array *ga_quantile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                 ga_quantile_method method, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_quantile", a, nq, q, 1, naxes, axes, method, keepdims, false, false));
}

GPUARR_API ga_array *ga_percentile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                   ga_quantile_method method, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_percentile", a, nq, q, 100, naxes, axes, method, keepdims, false, false));
}

GPUARR_API ga_array *ga_median(const ga_array *a, int naxes, const int *axes, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_median", a, GA_Q_SCALAR, NULL, 1, naxes, axes, GA_QUANTILE_LINEAR, keepdims,
                                  false, true));
}

GPUARR_API ga_array *ga_nanquantile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                    ga_quantile_method method, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_nanquantile", a, nq, q, 1, naxes, axes, method, keepdims, true, false));
}

GPUARR_API ga_array *ga_nanpercentile(const ga_array *a, int nq, const double *q, int naxes, const int *axes,
                                      ga_quantile_method method, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_nanpercentile", a, nq, q, 100, naxes, axes, method, keepdims, true, false));
}

GPUARR_API ga_array *ga_nanmedian(const ga_array *a, int naxes, const int *axes, bool keepdims)
{
    return ga__ret(ga__order_stat("ga_nanmedian", a, GA_Q_SCALAR, NULL, 1, naxes, axes, GA_QUANTILE_LINEAR, keepdims,
                                  true, true));
}

static void ga__reduce_shutdown(void)
{
    memset(&ga__reduce_kernels, 0, sizeof ga__reduce_kernels);
    memset(&ga__reduce_warning, 0, sizeof ga__reduce_warning);
}

/* >>sort */
/* ------------------------------------------------------------------------ */
/* 18. Sorting, searching, scans and sets                                    */
/* ------------------------------------------------------------------------ */
/* The work is CUB's, through the glue archive (see "CUB glue" in section
   15). An axis is handled by moving it last: the operand becomes (rows,
   length) C-contiguous in pool memory (a copy only when the array is not
   already so), CUB works on equal segments of `length` (rows of 129 to 2048
   keys are sorted one block each, ga__sort_rows), and the result is
   written back through the same permutation. Complex sorting, lexsort,
   diff and the order statistics are composed of these and of the ufuncs,
   inside a scope. */


/* The permutation that moves `axis` last, and the view of `a` through it. */
static ga_array *ga__axis_last(const char *func, const ga_array *a, int axis)
{
    int perm[GA_MAXDIMS], k = 0;
    for (int d = 0; d < a->ndim; d++)
        if (d != axis) perm[k++] = d;
    perm[k] = axis;
    return ga__permuted(func, a, perm);
}

/* Pool blocks of one call, freed together (stream-ordered). */
typedef struct ga__scratch {
    int device;
    int count;
    ga__block *blocks[6];
} ga__scratch;

static uint64_t ga__scratch_alloc(const char *func, ga__scratch *s, size_t bytes)
{
    ga__block *b = ga__device_alloc(func, s->device, bytes ? bytes : 1, false);
    if (!b) return 0;
    s->blocks[s->count++] = b;
    return b->ptr;
}

static void ga__scratch_free(ga__scratch *s)
{
    for (int i = 0; i < s->count; i++) ga__pool_free(ga__g.devices[s->device].pool, s->blocks[i]);
    s->count = 0;
}

static ga_array *ga__sort_complex_keys(const char *func, const ga_array *a, int axis, bool arg);

/* Rows of GA__CUB_SORT_ROWS_MAX keys or fewer, one block each with the key
   transform fused: from the (rows, length) view when C-contiguous, else
   from a copy; into out's view when C-contiguous, else through a copy. */
static ga_status ga__sort_rows(const char *func, const ga_array *view, const ga_array *outv, ga_dtype dt,
                               int64_t length, bool arg, ga__scratch *s, CUstream stream)
{
    int64_t n = view->size, isz = (int64_t)ga__dtype_sizes[dt], osz = arg ? 8 : isz, cs[GA_MAXDIMS];
    uint64_t in = view->data, out = outv->data;
    ga_status st;
    if (!(view->flags & GA_C_CONTIGUOUS)) {
        ga__c_strides(view->ndim, view->shape, isz, cs);
        if (!(in = ga__scratch_alloc(func, s, (size_t)(n * isz)))) return ga__t.error;
        st = ga__copy_cast(func, s->device, dt, in, cs, dt, view->data, view->strides, view->ndim, view->shape);
        if (st != GA_OK) return st;
    }
    bool direct = (outv->flags & GA_C_CONTIGUOUS) != 0;
    if (!direct && !(out = ga__scratch_alloc(func, s, (size_t)(n * osz)))) return ga__t.error;
    int e = ga__cub_sort_rows((const void *)(uintptr_t)in, arg ? NULL : (void *)(uintptr_t)out,
                              arg ? (int64_t *)(uintptr_t)out : NULL, (int)dt, n / length, length, arg, stream);
    if (e) return ga__cub_failed(func, e, arg ? "the row argsort" : "the row sort");
    if (direct) return GA_OK;
    ga_dtype od = arg ? GA_INT64 : dt;
    ga__c_strides(outv->ndim, outv->shape, osz, cs);
    return ga__copy_cast(func, s->device, od, outv->data, outv->strides, od, out, cs, outv->ndim, outv->shape);
}

/* The values of a view of one lane (every dim but the last of length 1)
   sorted into outv (the same lane of a new array: contiguous), with CUB's
   sort of keys as stored (from a copy when the view is not contiguous). */
static ga_status ga__sort_values(const char *func, const ga_array *view, const ga_array *outv, ga_dtype dt,
                                 ga__scratch *s, CUstream stream)
{
    int64_t n = view->size, isz = (int64_t)ga__dtype_sizes[dt];
    uint64_t in = view->data, temp;
    GPUARR_ASSERT(outv->flags & GA_C_CONTIGUOUS);
    if (!(view->flags & GA_C_CONTIGUOUS)) {
        if (!(in = ga__scratch_alloc(func, s, (size_t)(n * isz)))) return ga__t.error;
        ga_status st = ga__copy_cast(func, s->device, dt, in, &isz, dt, view->data, &view->strides[view->ndim - 1], 1,
                                     &n);
        if (st != GA_OK) return st;
    }
    size_t temp_bytes = 0;
    const void *src = (const void *)(uintptr_t)in;
    void *dst = (void *)(uintptr_t)outv->data;
    int e = ga__cub_sort_values(NULL, &temp_bytes, src, dst, (int)dt, n, stream);
    if (e) return ga__cub_failed(func, e, "cub sort (temp storage query)");
    if (!(temp = ga__scratch_alloc(func, s, temp_bytes))) return ga__t.error;
    e = ga__cub_sort_values((void *)(uintptr_t)temp, &temp_bytes, src, dst, (int)dt, n, stream);
    return e ? ga__cub_failed(func, e, "cub sort") : GA_OK;
}

/* sort (arg false) and argsort (arg true) along a normalised axis. */
static ga_array *ga__sort(const char *func, const ga_array *a, int axis, bool arg)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (axis == GA_AXIS_NONE) {
        int64_t size = a->size;
        ga_array *flat = ga__reshape(func, a, 1, &size);
        ga_array *r = flat ? ga__sort(func, flat, 0, arg) : NULL;
        ga_release(flat);
        return r;
    }
    if (ga__normalize_axis(func, "", &axis, a->ndim) != GA_OK) return NULL;
    ga_dtype dt = a->dtype;
    char kind = ga__dtype_kinds[dt];
    if (kind == 'c') return ga__sort_complex_keys(func, a, axis, arg);
    int64_t n = a->size, length = a->shape[axis];
    if (arg && length > (int64_t)UINT32_MAX) {
        ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "an axis of more than 4294967295 elements is not supported");
        return NULL;
    }
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    int device = a->device;
    ga_array *out = ga__array_new(func, device, a->ndim, a->shape, arg ? GA_INT64 : dt);
    if (!out || n == 0) return out;
    ga_array *view = ga__axis_last(func, a, axis), *outv = ga__axis_last(func, out, axis);
    ga__scratch s = {device, 0, {NULL}};
    CUstream stream = ga__stream_of(device);
    int64_t isz = (int64_t)ga__dtype_sizes[dt], cs[GA_MAXDIMS], cs4[GA_MAXDIMS];
    bool transform = kind == 'i' || kind == 'f';
    ga_status st = view && outv ? GA_OK : ga__t.error;
    /* rows that fit a block: one kernel; one whole sort of values: keys as
       stored; else CUB's device-wide sorts of orderable keys */
    bool rows = length > 128 && length <= GA__CUB_SORT_ROWS_MAX;
    if (st == GA_OK && rows) st = ga__sort_rows(func, view, outv, dt, length, arg, &s, stream);
    if (st == GA_OK && !rows && !arg && length == n) {
        st = ga__sort_values(func, view, outv, dt, &s, stream);
        rows = true; /* done */
    }
    uint64_t keys = 0, alt = 0, vals = 0, valt = 0, temp = 0;
    if (st == GA_OK && !rows) {
        ga__c_strides(view->ndim, view->shape, isz, cs);
        ga__c_strides(view->ndim, view->shape, 4, cs4);
        keys = ga__scratch_alloc(func, &s, (size_t)(n * isz));
        alt = keys ? ga__scratch_alloc(func, &s, (size_t)(n * isz)) : 0;
        if (arg && alt) {
            vals = ga__scratch_alloc(func, &s, (size_t)n * 4);
            valt = vals ? ga__scratch_alloc(func, &s, (size_t)n * 4) : 0;
        }
        if (!alt || (arg && !valt)) st = ga__t.error;
    }
    /* the keys, (rows, length) C-contiguous, as orderable bits */
    if (st == GA_OK && !rows) {
        int e = 0;
        if (transform && (view->flags & GA_C_CONTIGUOUS)) {
            e = ga__cub_order_keys((void *)(uintptr_t)keys, (const void *)(uintptr_t)view->data, n, (int)dt, 0, arg,
                                   stream);
        } else {
            st = ga__copy_cast(func, device, dt, keys, cs, dt, view->data, view->strides, view->ndim, view->shape);
            if (st == GA_OK && transform)
                e = ga__cub_order_keys((void *)(uintptr_t)keys, (const void *)(uintptr_t)keys, n, (int)dt, 0, arg,
                                       stream);
        }
        if (e) st = ga__cub_failed(func, e, "the key transform");
    }
    int selector = 0;
    if (st == GA_OK && !rows) {
        size_t temp_bytes = 0;
        int e = ga__cub_sort(NULL, &temp_bytes, (void *)(uintptr_t)keys, (void *)(uintptr_t)alt,
                             (void *)(uintptr_t)vals, (void *)(uintptr_t)valt, (int)isz, n, length, &selector, stream);
        if (e) st = ga__cub_failed(func, e, "cub sort (temp storage query)");
        if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s, temp_bytes))) st = ga__t.error;
        if (st == GA_OK) {
            e = ga__cub_sort((void *)(uintptr_t)temp, &temp_bytes, (void *)(uintptr_t)keys, (void *)(uintptr_t)alt,
                             (void *)(uintptr_t)vals, (void *)(uintptr_t)valt, (int)isz, n, length, &selector, stream);
            if (e) st = ga__cub_failed(func, e, arg ? "cub argsort" : "cub sort");
        }
    }
    /* the result, back through the permutation */
    if (st == GA_OK && !rows && arg) {
        uint64_t v = selector ? valt : vals;
        st = ga__copy_cast(func, device, GA_INT64, outv->data, outv->strides, GA_UINT32, v, cs4, outv->ndim,
                           outv->shape);
    } else if (st == GA_OK && !rows) {
        uint64_t k = selector ? alt : keys;
        bool direct = (outv->flags & GA_C_CONTIGUOUS) != 0;
        if (transform) {
            int e = ga__cub_order_keys((void *)(uintptr_t)(direct ? outv->data : k), (const void *)(uintptr_t)k, n,
                                       (int)dt, 1, 0, stream);
            if (e) st = ga__cub_failed(func, e, "the key transform");
        }
        if (st == GA_OK && (!direct || !transform))
            st = ga__copy_cast(func, device, dt, outv->data, outv->strides, dt, k, cs, outv->ndim, outv->shape);
    }
    ga__scratch_free(&s);
    ga_release(view);
    ga_release(outv);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

GPUARR_API ga_array *ga_sort(const ga_array *a, int axis) { return ga__ret(ga__sort("ga_sort", a, axis, false)); }

/* NumPy's argsort, argpartition and scans see a 0-d array raveled when
   given an axis (its PyArray_CheckAxis): *a becomes a (1,) view, *flat,
   for the caller to release, which takes axis 0 or -1 and refuses others
   "for array of dimension 1". sort and partition refuse every axis of a
   0-d array, as NumPy. */
static ga_status ga__ravel_0d(const char *func, const ga_array **a, ga_array **flat, int axis)
{
    *flat = NULL;
    if (!*a || (*a)->ndim != 0 || axis == GA_AXIS_NONE) return GA_OK;
    int64_t one = 1;
    *flat = ga__reshape(func, *a, 1, &one);
    if (!*flat) return ga__t.error;
    *a = *flat;
    return GA_OK;
}

GPUARR_API ga_array *ga_argsort(const ga_array *a, int axis)
{
    static const char func[] = "ga_argsort";
    ga_array *flat;
    ga_array *r = ga__ravel_0d(func, &a, &flat, axis) == GA_OK ? ga__sort(func, a, axis, true) : NULL;
    ga_release(flat);
    return ga__ret(r);
}

/* The scans of ga_scan into *out (given, or a new array stored there). */
static ga_status ga__scan(const char *func, ga_scan_op op, const ga_array *a, int axis, ga_dtype dtype,
                          ga_array **out)
{
    if (!out) return ga__null_input(func, "out");
    if (!a) return ga__null_input(func, "a");
    if ((int)op < GA_SCAN_CUMSUM || (int)op > GA_SCAN_NANCUMPROD)
        return ga__error(GA_ERROR_VALUE, func, "invalid scan %d", (int)op);
    if (dtype != GA_DTYPE_INVALID && !ga__dtype_valid(dtype))
        return ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
    if (axis == GA_AXIS_NONE || a->ndim == 0) { /* raveled; a 0-d array's axis checked against (1,) */
        int64_t size = a->size;
        ga_array *flat = ga__reshape(func, a, 1, &size);
        ga_status st = flat ? ga__scan(func, op, flat, axis == GA_AXIS_NONE ? 0 : axis, dtype, out) : ga__t.error;
        ga_release(flat);
        return st;
    }
    ga_status st = ga__normalize_axis(func, "", &axis, a->ndim);
    if (st != GA_OK) return st;
    ga_array *given = *out;
    if (given) {
        if (!(given->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "output array is read-only");
        if (given->device != a->device)
            return ga__error(GA_ERROR_DEVICE, func, "the output is on device %d, the input on device %d",
                             given->device, a->device);
        bool same = given->ndim == a->ndim;
        for (int d = 0; same && d < a->ndim; d++) same = given->shape[d] == a->shape[d];
        if (!same) return ga__error(GA_ERROR_SHAPE, func, "provided out is the wrong size for the accumulation.");
    }
    bool prod = op == GA_SCAN_CUMPROD || op == GA_SCAN_NANCUMPROD;
    bool nan = (op == GA_SCAN_NANCUMSUM || op == GA_SCAN_NANCUMPROD) && ga__is_inexact(a->dtype);
    ga_dtype rd = dtype != GA_DTYPE_INVALID ? dtype : given ? given->dtype : ga__sum_dtype(a->dtype);
    char rk = ga__dtype_kinds[rd];
    /* the dtype the scan runs in: integers as int64 bits (sums and
       products wrap alike in any width), float16 / bfloat16 in float32 */
    ga_dtype sd = rk == 'b' || rk == 'i' ? GA_INT64 : rk == 'u' ? GA_UINT64
                : rd == GA_FLOAT16 || rd == GA_BFLOAT16 ? GA_FLOAT32 : rd;
    if ((st = ga__bind(func, a->device)) != GA_OK) return st;
    int device = a->device;
    ga_array *made = NULL, *clean = NULL;
    if (!given && !(made = ga__array_new(func, device, a->ndim, a->shape, rd))) return ga__t.error;
    ga_array *target = given ? given : made;
    if (a->size == 0) {
        if (made) *out = made;
        return GA_OK;
    }
    /* the nan forms replace NaN in a's dtype when the scan's dtype would
       lose it (integers) or a part of it (complex to real) */
    const ga_array *src = a;
    if (nan && (ga__is_exact(sd) || (ga__is_complex(a->dtype) && !ga__is_complex(sd)))) {
        ga_array *isnan = ga__reduce_ufunc(func, GA_UFUNC_ISNAN, a, NULL, GA_BOOL);
        if (isnan) {
            clean = ga__array_new(func, device, a->ndim, a->shape, a->dtype);
            ga_operand in[3] = {ga_operand_array(isnan), ga_operand_scalar(ga_int(prod ? 1 : 0)), ga_operand_array(a)};
            ga_array *outs[1] = {clean};
            if (clean && ga_ufunc_call(GA_UFUNC_WHERE, in, outs) != GA_OK) {
                ga_release(clean);
                clean = NULL;
            }
        }
        ga_release(isnan);
        if (!clean) {
            ga_release(made);
            return ga__t.error;
        }
        src = clean;
        nan = false;
    }
    int cub_op = nan ? (prod ? GA__CUB_SCAN_NANPROD : GA__CUB_SCAN_NANSUM) : prod ? GA__CUB_SCAN_PROD : GA__CUB_SCAN_SUM;
    int64_t n = a->size, length = a->shape[axis], ssz = (int64_t)ga__dtype_sizes[sd], cs[GA_MAXDIMS];
    ga_array *view = ga__axis_last(func, src, axis), *outv = ga__axis_last(func, target, axis);
    ga_array *conv = NULL;
    ga__scratch s = {device, 0, {NULL}};
    st = view && outv ? GA_OK : ga__t.error;
    uint64_t in = 0, res = 0, temp = 0;
    /* an out overlapping a: a is copied before anything is written */
    bool overlap = false;
    if (given && given->buffer == a->buffer) {
        uint64_t lo, hi, olo, ohi;
        ga__extent(a, &lo, &hi);
        ga__extent(given, &olo, &ohi);
        overlap = lo < ohi && olo < hi;
    }
    if (st == GA_OK) {
        ga__c_strides(view->ndim, view->shape, ssz, cs);
        if (src->dtype == sd && (view->flags & GA_C_CONTIGUOUS) && !(overlap && src == a)) {
            in = view->data;
        } else {
            /* a non-integer a converts to an integer rd (or a wider float
               to float16) first, as NumPy casts to dtype= before adding */
            const ga_array *from = view;
            if (src->dtype != rd && rd != sd) {
                from = conv = ga__contiguous_copy(func, view, rd);
                if (!conv) st = ga__t.error;
            }
            if (st == GA_OK && !(in = ga__scratch_alloc(func, &s, (size_t)(n * ssz)))) st = ga__t.error;
            if (st == GA_OK)
                st = ga__copy_cast(func, device, sd, in, cs, from->dtype, from->data, from->strides, from->ndim,
                                   from->shape);
        }
    }
    ga_dtype od = target->dtype;
    bool direct = od == sd && rd == sd && outv && (outv->flags & GA_C_CONTIGUOUS);
    if (st == GA_OK) {
        res = direct ? outv->data : ga__scratch_alloc(func, &s, (size_t)(n * ssz));
        if (!res) st = ga__t.error;
    }
    CUstream stream = ga__stream_of(device);
    if (st == GA_OK) {
        size_t temp_bytes = 0;
        int e = ga__cub_scan(NULL, &temp_bytes, (const void *)(uintptr_t)in, (void *)(uintptr_t)res, (int)sd, cub_op,
                             n, length, stream);
        if (e) st = ga__cub_failed(func, e, "cub scan (temp storage query)");
        if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s, temp_bytes))) st = ga__t.error;
        if (st == GA_OK) {
            e = ga__cub_scan((void *)(uintptr_t)temp, &temp_bytes, (const void *)(uintptr_t)in, (void *)(uintptr_t)res,
                             (int)sd, cub_op, n, length, stream);
            if (e) st = ga__cub_failed(func, e, "cub scan");
        }
    }
    /* the results in rd (rounded or wrapped there), then in out's dtype */
    if (st == GA_OK && !direct) {
        uint64_t from = res;
        if (rd != sd && rd != od) {
            int64_t rcs[GA_MAXDIMS];
            ga__c_strides(view->ndim, view->shape, (int64_t)ga__dtype_sizes[rd], rcs);
            from = ga__scratch_alloc(func, &s, (size_t)n * ga__dtype_sizes[rd]);
            st = from ? ga__copy_cast(func, device, rd, from, rcs, sd, res, cs, view->ndim, view->shape) : ga__t.error;
            if (st == GA_OK)
                st = ga__copy_cast(func, device, od, outv->data, outv->strides, rd, from, rcs, outv->ndim, outv->shape);
        } else {
            st = ga__copy_cast(func, device, od, outv->data, outv->strides, sd, from, cs, outv->ndim, outv->shape);
        }
    }
    ga__scratch_free(&s);
    ga_release(conv);
    ga_release(clean);
    ga_release(view);
    ga_release(outv);
    if (st != GA_OK) {
        ga_release(made);
        return st;
    }
    if (made) *out = made;
    return GA_OK;
}

GPUARR_API ga_status ga_scan(ga_scan_op op, const ga_array *a, int axis, ga_dtype dtype, ga_array **out)
{
    bool had = out && *out;
    ga_status st = ga__scan("ga_scan", op, a, axis, dtype, out);
    if (st == GA_OK && !had) ga__ret(*out);
    return st;
}

static ga_array *ga__scan_new(const char *func, ga_scan_op op, const ga_array *a, int axis, ga_dtype dtype)
{
    ga_array *out = NULL;
    return ga__scan(func, op, a, axis, dtype, &out) == GA_OK ? ga__ret(out) : NULL;
}

GPUARR_API ga_array *ga_cumsum(const ga_array *a, int axis, ga_dtype dtype)
{
    return ga__scan_new("ga_cumsum", GA_SCAN_CUMSUM, a, axis, dtype);
}

GPUARR_API ga_array *ga_cumprod(const ga_array *a, int axis, ga_dtype dtype)
{
    return ga__scan_new("ga_cumprod", GA_SCAN_CUMPROD, a, axis, dtype);
}

GPUARR_API ga_array *ga_nancumsum(const ga_array *a, int axis, ga_dtype dtype)
{
    return ga__scan_new("ga_nancumsum", GA_SCAN_NANCUMSUM, a, axis, dtype);
}

GPUARR_API ga_array *ga_nancumprod(const ga_array *a, int axis, ga_dtype dtype)
{
    return ga__scan_new("ga_nancumprod", GA_SCAN_NANCUMPROD, a, axis, dtype);
}

/* --- diff, ediff1d ----------------------------------------------------------- */
/* Composed of views, ufuncs and concatenate inside a scope; the result is
   retained out of it and handed back through ga__ret. */

GPUARR_API ga_array *ga_diff(const ga_array *a, int n, int axis, const ga_array *prepend, const ga_array *append)
{
    static const char func[] = "ga_diff";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (n == 0) return ga__ret(ga_retain((ga_array *)a));
    if (n < 0) {
        ga__error(GA_ERROR_VALUE, func, "order must be non-negative but got %d", n);
        return NULL;
    }
    if (a->ndim == 0) {
        ga__error(GA_ERROR_VALUE, func, "diff requires input that is at least one dimensional");
        return NULL;
    }
    if (ga__normalize_axis(func, "", &axis, a->ndim) != GA_OK) return NULL;
    ga_scope_begin();
    const ga_array *x = a;
    if (prepend || append) {
        int64_t shape[GA_MAXDIMS];
        memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
        shape[axis] = 1;
        const ga_array *parts[3];
        int count = 0;
        if (prepend) parts[count++] = prepend->ndim == 0 ? ga_broadcast_to(prepend, a->ndim, shape) : prepend;
        parts[count++] = a;
        if (append) parts[count++] = append->ndim == 0 ? ga_broadcast_to(append, a->ndim, shape) : append;
        x = ga_concatenate(count, parts, axis);
    }
    for (int i = 0; i < n && x; i++) {
        int64_t len = x->shape[axis] > 0 ? x->shape[axis] - 1 : 0;
        ga_array *hi = ga__ret(ga__axis_slice(func, x, axis, 1, len));
        ga_array *lo = ga__ret(ga__axis_slice(func, x, axis, 0, len));
        x = x->dtype == GA_BOOL ? ga_not_equal(hi, lo) : ga_subtract(hi, lo);
    }
    ga_array *r = ga_retain((ga_array *)x);
    ga_scope_end();
    return ga__ret(r);
}

GPUARR_API ga_array *ga_ediff1d(const ga_array *ary, const ga_array *to_end, const ga_array *to_begin)
{
    static const char func[] = "ga_ediff1d";
    if (!ary) {
        ga__null_input(func, "ary");
        return NULL;
    }
    ga_dtype dt = ary->dtype;
    if (dt == GA_BOOL) { /* NumPy's subtract message, under this function's name */
        ga__error(GA_ERROR_TYPE, func,
                  "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                  "operator, or the logical_xor function instead.");
        return NULL;
    }
    const ga_array *ends[2] = {to_begin, to_end};
    const char *names[2] = {"to_begin", "to_end"};
    for (int i = 0; i < 2; i++)
        if (ends[i] && !ga_can_cast(ends[i]->dtype, dt, GA_CASTING_SAME_KIND)) {
            ga__error(GA_ERROR_TYPE, func,
                      "dtype of `%s` must be compatible with input `ary` under the `same_kind` rule.", names[i]);
            return NULL;
        }
    ga_scope_begin();
    ga_array *flat = ga_ravel(ary);
    ga_array *r = ga_subtract(ga_index(flat, "1:"), ga_index(flat, ":-1"));
    if (r && (to_begin || to_end)) {
        const ga_array *parts[3];
        int count = 0;
        if (to_begin) parts[count++] = ga_astype(ga_ravel(to_begin), dt);
        parts[count++] = r;
        if (to_end) parts[count++] = ga_astype(ga_ravel(to_end), dt);
        r = ga_concatenate(count, parts, 0);
    }
    r = ga_retain(r);
    ga_scope_end();
    return ga__ret(r);
}

/* --- complex sorting, lexsort, partition ------------------------------------ */

/* lexsort: stable argsorts from the least significant key (keys[0]) to
   the primary one (the last), each of the key permuted by the order so
   far; unscoped result. */
static ga_array *ga__lexsort(const char *func, int nkeys, const ga_array *const *keys, int axis)
{
    if (nkeys <= 0 || !keys) {
        ga__error(GA_ERROR_TYPE, func, "need sequence of keys with len > 0 in lexsort");
        return NULL;
    }
    for (int i = 0; i < nkeys; i++)
        if (!keys[i]) {
            ga__null_input(func, "a key");
            return NULL;
        }
    const ga_array *k0 = keys[0];
    for (int i = 1; i < nkeys; i++) {
        bool same = keys[i]->ndim == k0->ndim;
        for (int d = 0; same && d < k0->ndim; d++) same = keys[i]->shape[d] == k0->shape[d];
        if (!same) {
            ga__error(GA_ERROR_SHAPE, func, "all keys need to be the same shape");
            return NULL;
        }
        if (keys[i]->device != k0->device) {
            ga__error(GA_ERROR_DEVICE, func, "key %d is on device %d, key 0 on device %d", i, keys[i]->device,
                      k0->device);
            return NULL;
        }
    }
    if (axis != GA_AXIS_NONE && ga__normalize_axis(func, "", &axis, k0->ndim) != GA_OK) return NULL;
    int ax = axis == GA_AXIS_NONE ? 0 : axis;
    ga_scope_begin();
    ga_array *order = NULL;
    for (int i = 0; i < nkeys; i++) {
        ga_array *k = axis == GA_AXIS_NONE ? ga_ravel(keys[i]) : (ga_array *)keys[i];
        if (i == 0) order = ga_argsort(k, ax);
        else order = ga_take_along_axis(order, ga_argsort(ga_take_along_axis(k, order, ax), ax), ax);
        if (!order) break;
    }
    ga_array *r = ga_retain(order);
    ga_scope_end();
    return r;
}

GPUARR_API ga_array *ga_lexsort(int nkeys, const ga_array *const *keys, int axis)
{
    return ga__ret(ga__lexsort("ga_lexsort", nkeys, keys, axis));
}

/* sort / argsort of complex numbers along a normalised axis: lexsort by
   the imaginary part, the real part, whether the imaginary part is NaN and
   whether the real part is NaN (the primary key); unscoped result. */
static ga_array *ga__sort_complex_keys(const char *func, const ga_array *a, int axis, bool arg)
{
    ga_scope_begin();
    ga_array *re = ga_real(a), *im = ga_imag(a);
    const ga_array *keys[4] = {im, re, ga_isnan(im), ga_isnan(re)};
    ga_array *order = ga__lexsort(func, 4, keys, axis), *r = order;
    if (!arg) {
        r = order ? ga_retain(ga_take_along_axis(a, order, axis)) : NULL;
        ga_release(order);
    }
    ga_scope_end();
    return r;
}

GPUARR_API ga_array *ga_sort_complex(const ga_array *a)
{
    static const char func[] = "ga_sort_complex";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    ga_dtype t = a->dtype;
    ga_dtype cd = ga__is_complex(t) ? t
                  : t == GA_INT8 || t == GA_UINT8 || t == GA_INT16 || t == GA_UINT16 ? GA_COMPLEX64
                                                                                   : GA_COMPLEX128;
    ga_array *s = ga__sort(func, a, -1, false);
    if (!s || cd == t) return ga__ret(s);
    ga_array *r = ga__contiguous_copy(func, s, cd);
    ga_release(s);
    return ga__ret(r);
}

/* partition / argpartition: kth checked, then the stable sort. */
static ga_array *ga__partition(const char *func, const ga_array *a, int nkth, const int64_t *kth, int axis, bool arg)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (nkth < 0) {
        ga__error(GA_ERROR_VALUE, func, "nkth must not be negative (got %d)", nkth);
        return NULL;
    }
    if (nkth > 0 && !kth) {
        ga__null_input(func, "kth");
        return NULL;
    }
    int64_t length = a->size;
    if (axis != GA_AXIS_NONE) {
        int ax = axis;
        if (ga__normalize_axis(func, "", &ax, a->ndim) != GA_OK) return NULL;
        length = a->shape[ax];
    }
    for (int i = 0; i < nkth && a->size != 0; i++) { /* NumPy checks kth of non-empty arrays only */
        int64_t k = kth[i] < 0 ? kth[i] + length : kth[i];
        if (k < 0 || k >= length) {
            ga__error(GA_ERROR_VALUE, func, "kth(=%lld) out of bounds (%lld)", (long long)k, (long long)length);
            return NULL;
        }
    }
    return ga__sort(func, a, axis, arg);
}

GPUARR_API ga_array *ga_partition(const ga_array *a, int nkth, const int64_t *kth, int axis)
{
    return ga__ret(ga__partition("ga_partition", a, nkth, kth, axis, false));
}

GPUARR_API ga_array *ga_argpartition(const ga_array *a, int nkth, const int64_t *kth, int axis)
{
    static const char func[] = "ga_argpartition";
    ga_array *flat;
    ga_array *r = ga__ravel_0d(func, &a, &flat, axis) == GA_OK ? ga__partition(func, a, nkth, kth, axis, true) : NULL;
    ga_release(flat);
    return ga__ret(r);
}

/* --- searching, sets, histograms -------------------------------------------- */
/* Elements become the orderable keys of ga__cub_order_keys (-0.0 merged with
   +0.0; bool and unsigned integers as they are; a complex number one key of
   twice its part's width), so that sorting, runs of equal values and
   binary searches compare unsigned numbers. */

static bool ga__keys_transformed(ga_dtype dt)
{
    char kind = ga__dtype_kinds[dt];
    return kind == 'i' || kind == 'f' || kind == 'c';
}

/* The promoted dtype of two inputs on one device. */
static ga_status ga__set_pair(const char *func, const ga_array *a, const char *an, const ga_array *b, const char *bn,
                              ga_dtype *dt)
{
    if (!a) return ga__null_input(func, an);
    if (!b) return ga__null_input(func, bn);
    if (a->device != b->device)
        return ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device,
                         b->device);
    ga_dtype d[2] = {a->dtype, b->dtype};
    *dt = ga_result_type(2, d, 0, NULL);
    return GA_OK;
}

/* The elements of `narrays` arrays, each flattened in C order, one after
   the other, converted to dt, as keys at `keys`. */
static ga_status ga__load_keys(const char *func, int device, ga_dtype dt, int narrays, const ga_array *const *arrays,
                               uint64_t keys)
{
    int64_t isz = (int64_t)ga__dtype_sizes[dt], off = 0, cs[GA_MAXDIMS];
    bool transform = ga__keys_transformed(dt);
    CUstream stream = ga__stream_of(device);
    for (int i = 0; i < narrays; i++) {
        const ga_array *x = arrays[i];
        if (x->size == 0) continue;
        uint64_t dst = keys + (uint64_t)(off * isz);
        const void *src = (const void *)(uintptr_t)dst;
        if (x->dtype == dt && (x->flags & GA_C_CONTIGUOUS) && transform) {
            src = (const void *)(uintptr_t)x->data;
        } else {
            ga__c_strides(x->ndim, x->shape, isz, cs);
            ga_status st = ga__copy_cast(func, device, dt, dst, cs, x->dtype, x->data, x->strides, x->ndim, x->shape);
            if (st != GA_OK) return st;
        }
        if (transform) {
            int e = ga__cub_order_keys((void *)(uintptr_t)dst, src, x->size, (int)dt, 0, 1, stream);
            if (e) return ga__cub_failed(func, e, "the key transform");
        }
        off += x->size;
    }
    return GA_OK;
}

/* An integer array's elements as C-contiguous int64 (uint64 wraps, as
   NumPy's same-kind cast; a new reference). */
static ga_array *ga__as_int64(const char *func, const ga_array *x)
{
    if (x->dtype == GA_INT64 && (x->flags & GA_C_CONTIGUOUS)) return ga_retain((ga_array *)x);
    return ga__contiguous_copy(func, x, GA_INT64);
}

/* An int64 the device wrote, read back (waits for the stream). */
static ga_status ga__read_count(const char *func, int device, uint64_t ptr, int64_t *value)
{
    CUstream stream = ga__stream_of(device);
    if (GA__CU.MemcpyDtoHAsync(value, (CUdeviceptr)ptr, 8, stream) != CUDA_SUCCESS ||
        GA__CU.StreamSynchronize(stream) != CUDA_SUCCESS)
        return ga__error(GA_ERROR_CUDA, func, "reading a count back failed");
    return GA_OK;
}

/* min or max of `a` (not empty) as float64 or int64 (waits). */
static ga_status ga__read_extreme(const char *func, const ga_array *a, ga_reduction r, ga_dtype as, void *value)
{
    ga_array *m = ga__reduce_tmp(func, r, a, 0, NULL, GA_DTYPE_INVALID, false);
    ga_status st = m ? ga__read_scalar(func, m, as, value) : ga__t.error;
    ga_release(m);
    return st;
}

/* Sorts n keys (stable, with the permutation when vals is non-zero); the
   sorted keys (and indices, uint32) end in *keys (*vals). */
static ga_status ga__sort_keys(const char *func, int device, int64_t isz, int64_t n, uint64_t *keys, uint64_t alt,
                               uint64_t *vals, uint64_t valt)
{
    ga__scratch s = {device, 0, {NULL}};
    CUstream stream = ga__stream_of(device);
    size_t temp_bytes = 0;
    int selector = 0;
    void *k = (void *)(uintptr_t)*keys, *ka = (void *)(uintptr_t)alt;
    void *v = vals ? (void *)(uintptr_t)*vals : NULL, *va = vals ? (void *)(uintptr_t)valt : NULL;
    ga_status st = GA_OK;
    int e = ga__cub_sort(NULL, &temp_bytes, k, ka, v, va, (int)isz, n, n, &selector, stream);
    if (e) st = ga__cub_failed(func, e, "cub sort (temp storage query)");
    uint64_t temp = st == GA_OK ? ga__scratch_alloc(func, &s, temp_bytes) : 0;
    if (st == GA_OK && !temp) st = ga__t.error;
    if (st == GA_OK) {
        e = ga__cub_sort((void *)(uintptr_t)temp, &temp_bytes, k, ka, v, va, (int)isz, n, n, &selector, stream);
        if (e) st = ga__cub_failed(func, e, "cub sort");
    }
    ga__scratch_free(&s);
    if (st == GA_OK && selector) {
        *keys = alt;
        if (vals) *vals = valt;
    }
    return st;
}

/* Keys of the arrays, sorted, in scratch `s` (two blocks, four with the
   permutation). */
static ga_status ga__sorted_keys(const char *func, ga__scratch *s, ga_dtype dt, int narrays,
                                 const ga_array *const *arrays, int64_t n, uint64_t *keys, uint64_t *perm)
{
    int64_t isz = (int64_t)ga__dtype_sizes[dt];
    uint64_t alt = 0, valt = 0;
    *keys = ga__scratch_alloc(func, s, (size_t)(n * isz));
    if (*keys) alt = ga__scratch_alloc(func, s, (size_t)(n * isz));
    if (alt && perm) {
        *perm = ga__scratch_alloc(func, s, (size_t)n * 4);
        if (*perm) valt = ga__scratch_alloc(func, s, (size_t)n * 4);
    }
    if (!alt || (perm && !valt)) return ga__t.error;
    ga_status st = ga__load_keys(func, s->device, dt, narrays, arrays, *keys);
    if (st == GA_OK) st = ga__sort_keys(func, s->device, isz, n, keys, alt, perm, valt);
    return st;
}

/* n keys back to values of dt at dst (which may be keys). */
static ga_status ga__keys_to_values(const char *func, int device, ga_dtype dt, uint64_t dst, uint64_t keys, int64_t n)
{
    if (n == 0) return GA_OK;
    if (!ga__keys_transformed(dt)) {
        int64_t cs = (int64_t)ga__dtype_sizes[dt];
        return dst == keys ? GA_OK : ga__copy_cast(func, device, dt, dst, &cs, dt, keys, &cs, 1, &n);
    }
    int e = ga__cub_order_keys((void *)(uintptr_t)dst, (const void *)(uintptr_t)keys, n, (int)dt, 1, 0,
                               ga__stream_of(device));
    return e ? ga__cub_failed(func, e, "the key transform") : GA_OK;
}

/* unique over the concatenation of `narrays` flattened arrays in dtype dt
   (unscoped results; inverse has arrays[0]'s shape). */
static ga_array *ga__unique(const char *func, int narrays, const ga_array *const *arrays, ga_dtype dt, bool equal_nan,
                            ga_array **index, ga_array **inverse, ga_array **counts)
{
    int device = arrays[0]->device;
    int64_t n = 0, isz = (int64_t)ga__dtype_sizes[dt];
    for (int i = 0; i < narrays; i++) n += arrays[i]->size;
    bool want_perm = index || inverse;
    if (want_perm && n > (int64_t)UINT32_MAX) {
        ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "indices of more than 4294967295 elements are not supported");
        return NULL;
    }
    if (ga__bind(func, device) != GA_OK) return NULL;
    ga_array *values = NULL, *idx = NULL, *inv = NULL, *cnt = NULL;
    ga__scratch s = {device, 0, {NULL}}, s2 = {device, 0, {NULL}};
    uint64_t keys = 0, perm = 0, starts = 0, num = 0, temp = 0;
    int64_t k = 0;
    CUstream stream = ga__stream_of(device);
    ga_status st = GA_OK;
    if (n > 0) {
        st = ga__sorted_keys(func, &s, dt, narrays, arrays, n, &keys, want_perm ? &perm : NULL);
        if (st == GA_OK) {
            starts = ga__scratch_alloc(func, &s2, (size_t)n * 8);
            num = starts ? ga__scratch_alloc(func, &s2, 8) : 0;
            if (!num) st = ga__t.error;
        }
        if (st == GA_OK) {
            size_t temp_bytes = 0;
            int e = ga__cub_run_starts(NULL, &temp_bytes, (const void *)(uintptr_t)keys, (int)dt, equal_nan, n,
                                       (int64_t *)(uintptr_t)starts, (int64_t *)(uintptr_t)num, stream);
            if (e) st = ga__cub_failed(func, e, "cub select (temp storage query)");
            if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s2, temp_bytes))) st = ga__t.error;
            if (st == GA_OK) {
                e = ga__cub_run_starts((void *)(uintptr_t)temp, &temp_bytes, (const void *)(uintptr_t)keys, (int)dt,
                                       equal_nan, n, (int64_t *)(uintptr_t)starts, (int64_t *)(uintptr_t)num,
                                       stream);
                if (e) st = ga__cub_failed(func, e, "cub select");
            }
        }
        if (st == GA_OK) st = ga__read_count(func, device, num, &k);
    }
    if (st == GA_OK) {
        values = ga__array_new(func, device, 1, &k, dt);
        if (values && index) idx = ga__array_new(func, device, 1, &k, GA_INT64);
        if (values && counts) cnt = ga__array_new(func, device, 1, &k, GA_INT64);
        if (values && inverse) inv = ga__array_new(func, device, arrays[0]->ndim, arrays[0]->shape, GA_INT64);
        if (!values || (index && !idx) || (counts && !cnt) || (inverse && !inv)) st = ga__t.error;
    }
    if (st == GA_OK && n > 0) {
        int e = ga__cub_runs((const void *)(uintptr_t)keys, (int)isz, (const int64_t *)(uintptr_t)starts, k, n,
                             (const uint32_t *)(uintptr_t)perm, (void *)(uintptr_t)values->data,
                             cnt ? (int64_t *)(uintptr_t)cnt->data : NULL, idx ? (int64_t *)(uintptr_t)idx->data : NULL,
                             stream);
        if (!e && inv)
            e = ga__cub_run_ids((const int64_t *)(uintptr_t)starts, k, n, (const uint32_t *)(uintptr_t)perm,
                                (int64_t *)(uintptr_t)inv->data, stream);
        st = e ? ga__cub_failed(func, e, "the runs")
               : ga__keys_to_values(func, device, dt, values->data, values->data, k);
    }
    ga__scratch_free(&s2);
    ga__scratch_free(&s);
    if (st != GA_OK) {
        ga_release(values);
        ga_release(idx);
        ga_release(inv);
        ga_release(cnt);
        return NULL;
    }
    if (index) *index = idx;
    if (inverse) *inverse = inv;
    if (counts) *counts = cnt;
    return values;
}

/* The public forms: checks, then ga__unique, results scoped. */
static ga_array *ga__unique_of(const char *func, const ga_array *a, bool equal_nan, ga_array **index,
                               ga_array **inverse, ga_array **counts)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    ga_array *i = NULL, *v = NULL, *c = NULL;
    ga_array *r = ga__unique(func, 1, &a, a->dtype, equal_nan, index ? &i : NULL, inverse ? &v : NULL,
                             counts ? &c : NULL);
    if (!r) return NULL;
    if (index) *index = ga__ret(i);
    if (inverse) *inverse = ga__ret(v);
    if (counts) *counts = ga__ret(c);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_unique(const ga_array *a, ga_array **index, ga_array **inverse, ga_array **counts,
                               bool equal_nan)
{
    return ga__unique_of("ga_unique", a, equal_nan, index, inverse, counts);
}

GPUARR_API ga_array *ga_unique_values(const ga_array *x)
{
    return ga__unique_of("ga_unique_values", x, false, NULL, NULL, NULL);
}

GPUARR_API ga_array *ga_unique_counts(const ga_array *x, ga_array **counts)
{
    return ga__unique_of("ga_unique_counts", x, false, NULL, NULL, counts);
}

GPUARR_API ga_array *ga_unique_inverse(const ga_array *x, ga_array **inverse_indices)
{
    return ga__unique_of("ga_unique_inverse", x, false, NULL, inverse_indices, NULL);
}

GPUARR_API ga_array *ga_unique_all(const ga_array *x, ga_array **indices, ga_array **inverse_indices,
                                   ga_array **counts)
{
    return ga__unique_of("ga_unique_all", x, false, indices, inverse_indices, counts);
}

/* Binary search of v's elements (as keys of dt) in the 1-d `a`, which is
   sorted first when sort_a; `mode` is ga__cub_search's. A new int64 (or
   bool for FOUND / NOT_FOUND) array of v's shape (unscoped). */
static ga_array *ga__search(const char *func, const ga_array *a, const ga_array *v, ga_dtype dt, int mode,
                            bool sort_a)
{
    int device = v->device;
    if (ga__bind(func, device) != GA_OK) return NULL;
    bool found = mode == GA__CUB_SEARCH_FOUND || mode == GA__CUB_SEARCH_NOT_FOUND;
    ga_array *out = ga__array_new(func, device, v->ndim, v->shape, found ? GA_BOOL : GA_INT64);
    if (!out || v->size == 0) return out;
    int64_t n = a->size, m = v->size, isz = (int64_t)ga__dtype_sizes[dt];
    ga__scratch s = {device, 0, {NULL}};
    uint64_t akeys = 0, vkeys = 0;
    ga_status st = GA_OK;
    if (sort_a && n > 0) {
        st = ga__sorted_keys(func, &s, dt, 1, &a, n, &akeys, NULL);
    } else {
        akeys = ga__scratch_alloc(func, &s, (size_t)(n * isz));
        st = akeys ? ga__load_keys(func, device, dt, 1, &a, akeys) : ga__t.error;
    }
    if (st == GA_OK && !(vkeys = ga__scratch_alloc(func, &s, (size_t)(m * isz)))) st = ga__t.error;
    if (st == GA_OK) st = ga__load_keys(func, device, dt, 1, &v, vkeys);
    if (st == GA_OK) {
        int e = ga__cub_search((const void *)(uintptr_t)akeys, n, (const void *)(uintptr_t)vkeys, m, (int)dt, mode,
                               (void *)(uintptr_t)out->data, ga__stream_of(device));
        if (e) st = ga__cub_failed(func, e, "the binary search");
    }
    ga__scratch_free(&s);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

/* NumPy's error for an array that must be 1-d. */
static ga_status ga__need_1d(const char *func, const ga_array *a)
{
    if (a->ndim == 0) return ga__error(GA_ERROR_VALUE, func, "object of too small depth for desired array");
    if (a->ndim > 1) return ga__error(GA_ERROR_VALUE, func, "object too deep for desired array");
    return GA_OK;
}

GPUARR_API ga_array *ga_searchsorted(const ga_array *a, const ga_array *v, ga_side side, const ga_array *sorter)
{
    static const char func[] = "ga_searchsorted";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, a, "a", v, "v", &dt) != GA_OK || ga__need_1d(func, a) != GA_OK) return NULL;
    if (side != GA_SIDE_LEFT && side != GA_SIDE_RIGHT) {
        ga__error(GA_ERROR_VALUE, func, "side must be GA_SIDE_LEFT or GA_SIDE_RIGHT, got %d", (int)side);
        return NULL;
    }
    ga_array *sorted = NULL;
    if (sorter) {
        if (ga__bind(func, a->device) != GA_OK) return NULL;
        char kind = ga__dtype_kinds[sorter->dtype];
        if (sorter->ndim != 1) { /* NumPy reads sorter as a 1-d intp array */
            ga__error(GA_ERROR_TYPE, func, "could not parse sorter argument");
            return NULL;
        }
        if (kind != 'i' && kind != 'u') {
            ga__error(GA_ERROR_TYPE, func, "sorter must only contain integers");
            return NULL;
        }
        if (sorter->size != a->size) {
            ga__error(GA_ERROR_VALUE, func, "sorter.size must equal a.size");
            return NULL;
        }
        if (sorter->device != a->device) {
            ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device,
                      sorter->device);
            return NULL;
        }
        int64_t lo = 0, hi = 0, size = sorter->size;
        if (size > 0 && (ga__read_extreme(func, sorter, GA_REDUCE_MIN, GA_INT64, &lo) != GA_OK ||
                         ga__read_extreme(func, sorter, GA_REDUCE_MAX, GA_INT64, &hi) != GA_OK))
            return NULL;
        if (size > 0 && (lo < 0 || hi < 0 || hi >= a->size)) {
            ga__error(GA_ERROR_VALUE, func, "Sorter index out of range.");
            return NULL;
        }
        ga_array *flat = ga__reshape(func, sorter, 1, &size);
        ga_array *idx = flat ? ga__as_int64(func, flat) : NULL;
        if (idx) sorted = ga__array_new(func, a->device, 1, &size, a->dtype);
        const int64_t idx_strides[3] = {0, 1, 0};
        ga_array *src = sorted ? ga__gatherable(func, a, 0) : NULL;
        if (src && size > 0 && ga__gather(func, sorted, src, 0, idx, idx_strides, GA_INDEX_WRAP) != GA_OK) {
            ga_release(sorted);
            sorted = NULL;
        }
        ga_release(src);
        ga_release(idx);
        ga_release(flat);
        if (!sorted) return NULL;
    }
    ga_array *r = ga__search(func, sorted ? sorted : a, v, dt,
                             side == GA_SIDE_RIGHT ? GA__CUB_SEARCH_RIGHT : GA__CUB_SEARCH_LEFT, false);
    ga_release(sorted);
    return ga__ret(r);
}

/* A 1-d array's elements as float64 on the host (malloc'd; waits). */
static double *ga__host_doubles(const char *func, const ga_array *a)
{
    double *h = (double *)GPUARR_MALLOC(sizeof(double) * (size_t)(a->size ? a->size : 1));
    if (!h) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    ga_array *c = a->size ? ga__contiguous_copy(func, a, GA_FLOAT64) : NULL;
    if (a->size && (!c || ga__to_host(func, c, h, sizeof(double) * (size_t)a->size, true) != GA_OK)) {
        GPUARR_FREE(h);
        h = NULL;
    }
    ga_release(c);
    return h;
}

/* NumPy's _monotonicity (check_array_monotonic): 1 increasing, -1
   decreasing (also when NaN makes the first two distinct values
   unordered), 0 neither. */
static int ga__monotonicity(const double *b, int64_t n)
{
    if (n == 0) return 1;
    int64_t i = 1;
    double last = b[0];
    while (i < n && b[i] == last) i++;
    if (i == n) return 1;
    double next = b[i];
    if (last < next) {
        for (i++; i < n; i++) {
            last = next;
            next = b[i];
            if (last > next) return 0;
        }
        return 1;
    }
    for (i++; i < n; i++) { /* decreasing (or NaN among the first two distinct values) */
        last = next;
        next = b[i];
        if (last < next) return 0;
    }
    return -1;
}

GPUARR_API ga_array *ga_digitize(const ga_array *x, const ga_array *bins, bool right)
{
    static const char func[] = "ga_digitize";
    if (!x) {
        ga__null_input(func, "x");
        return NULL;
    }
    if (ga__is_complex(x->dtype)) {
        ga__error(GA_ERROR_TYPE, func, "x may not be complex");
        return NULL;
    }
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, x, "x", bins, "bins", &dt) != GA_OK) return NULL;
    if (ga__is_complex(bins->dtype)) { /* NumPy reads bins as float64 */
        ga__error(GA_ERROR_TYPE, func,
                  "Cannot cast array data from dtype('%s') to dtype('float64') according to the rule 'safe'",
                  ga__dtype_names[bins->dtype]);
        return NULL;
    }
    if (ga__need_1d(func, bins) != GA_OK) return NULL;
    if (ga__bind(func, bins->device) != GA_OK) return NULL;
    double *h = ga__host_doubles(func, bins);
    if (!h) return NULL;
    int mono = ga__monotonicity(h, bins->size);
    GPUARR_FREE(h);
    if (mono == 0) {
        ga__error(GA_ERROR_VALUE, func, "bins must be monotonically increasing or decreasing");
        return NULL;
    }
    /* NumPy: searchsorted(bins, x, side), or for decreasing bins
       len(bins) - searchsorted(bins[::-1], x, side) */
    const bool flip[1] = {true};
    ga_array *rev = mono < 0 ? ga__flipped(func, bins, flip) : NULL;
    if (mono < 0 && !rev) return NULL;
    int mode = mono > 0 ? (right ? GA__CUB_SEARCH_LEFT : GA__CUB_SEARCH_RIGHT)
                        : (right ? GA__CUB_SEARCH_LEFT_FROM_END : GA__CUB_SEARCH_RIGHT_FROM_END);
    ga_array *r = ga__search(func, rev ? rev : bins, x, dt, mode, false);
    ga_release(rev);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_isin(const ga_array *element, const ga_array *test_elements, bool invert)
{
    static const char func[] = "ga_isin";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, element, "element", test_elements, "test_elements", &dt) != GA_OK) return NULL;
    return ga__ret(ga__search(func, test_elements, element, dt,
                              invert ? GA__CUB_SEARCH_NOT_FOUND : GA__CUB_SEARCH_FOUND, true));
}

/* x[mask] for a 1-d x and a bool mask of its length (unscoped). */
static ga_array *ga__compress(const char *func, const ga_array *x, const ga_array *mask)
{
    int device = x->device;
    int64_t n = x->size, k = 0;
    if (n == 0) return ga__array_new(func, device, 1, &k, x->dtype);
    ga_array *pos = ga__array_new(func, device, 1, &n, GA_INT64), *out = NULL;
    ga__scratch s = {device, 0, {NULL}};
    CUstream stream = ga__stream_of(device);
    uint64_t num = pos ? ga__scratch_alloc(func, &s, 8) : 0, temp = 0;
    ga_status st = num ? GA_OK : ga__t.error;
    if (st == GA_OK) {
        size_t temp_bytes = 0;
        int e = ga__cub_select_flagged(NULL, &temp_bytes, NULL, (const void *)(uintptr_t)mask->data,
                                       (void *)(uintptr_t)pos->data, (int64_t *)(uintptr_t)num, 8, n, stream);
        if (e) st = ga__cub_failed(func, e, "cub select (temp storage query)");
        if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s, temp_bytes))) st = ga__t.error;
        if (st == GA_OK) {
            e = ga__cub_select_flagged((void *)(uintptr_t)temp, &temp_bytes, NULL, (const void *)(uintptr_t)mask->data,
                                       (void *)(uintptr_t)pos->data, (int64_t *)(uintptr_t)num, 8, n, stream);
            if (e) st = ga__cub_failed(func, e, "cub select");
        }
    }
    if (st == GA_OK) st = ga__read_count(func, device, num, &k);
    if (st == GA_OK && !(out = ga__array_new(func, device, 1, &k, x->dtype))) st = ga__t.error;
    if (st == GA_OK && k > 0) {
        const int64_t idx_strides[3] = {0, 1, 0};
        ga_array *src = ga__gatherable(func, x, 0);
        st = src ? ga__gather(func, out, src, 0, pos, idx_strides, GA_INDEX_WRAP) : ga__t.error;
        ga_release(src);
    }
    ga__scratch_free(&s);
    ga_release(pos);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

/* x[idx] for 1-d x and int64 idx (unscoped). */
static ga_array *ga__take_1d(const char *func, const ga_array *x, const ga_array *idx)
{
    ga_array *out = ga__array_new(func, x->device, 1, &idx->size, x->dtype);
    if (!out || idx->size == 0) return out;
    const int64_t idx_strides[3] = {0, 1, 0};
    ga_array *src = ga__gatherable(func, x, 0);
    if (!src || ga__gather(func, out, src, 0, idx, idx_strides, GA_INDEX_WRAP) != GA_OK) {
        ga_release(out);
        out = NULL;
    }
    ga_release(src);
    return out;
}

/* The 1-d concatenation of the flattened x and y in dt, sorted (a new
   array), with: its stable sorting permutation as int64 (order non-NULL),
   and bool masks of the elements equal to the next one (next) and to the
   one before (prev non-NULL), NaN equal to nothing. Unscoped results. */
static ga_status ga__sorted_neighbours(const char *func, const ga_array *x, const ga_array *y, ga_dtype dt,
                                       ga_array **sorted, ga_array **order, ga_array **next, ga_array **prev)
{
    int device = x->device;
    int64_t n = x->size + y->size;
    if (order && n > (int64_t)UINT32_MAX)
        return ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "indices of more than 4294967295 elements are not supported");
    ga_status st = ga__bind(func, device);
    if (st != GA_OK) return st;
    ga_array *values = ga__array_new(func, device, 1, &n, dt), *nx = ga__array_new(func, device, 1, &n, GA_BOOL);
    ga_array *ord = order ? ga__array_new(func, device, 1, &n, GA_INT64) : NULL;
    ga_array *pv = prev ? ga__array_new(func, device, 1, &n, GA_BOOL) : NULL;
    if (!values || !nx || (order && !ord) || (prev && !pv)) st = ga__t.error;
    ga__scratch s = {device, 0, {NULL}};
    uint64_t keys = 0, perm = 0;
    const ga_array *both[2] = {x, y};
    if (st == GA_OK && n > 0) st = ga__sorted_keys(func, &s, dt, 2, both, n, &keys, order ? &perm : NULL);
    if (st == GA_OK && n > 0) {
        int e = ga__cub_equal_neighbours((const void *)(uintptr_t)keys, (int)dt, n, (uint8_t *)(uintptr_t)nx->data,
                                         pv ? (uint8_t *)(uintptr_t)pv->data : NULL, ga__stream_of(device));
        st = e ? ga__cub_failed(func, e, "the neighbour comparison")
               : ga__keys_to_values(func, device, dt, values->data, keys, n);
    }
    if (st == GA_OK && ord && n > 0) {
        int64_t cs8 = 8, cs4 = 4;
        st = ga__copy_cast(func, device, GA_INT64, ord->data, &cs8, GA_UINT32, perm, &cs4, 1, &n);
    }
    ga__scratch_free(&s);
    if (st != GA_OK) {
        ga_release(values);
        ga_release(nx);
        ga_release(ord);
        ga_release(pv);
        return st;
    }
    *sorted = values;
    *next = nx;
    if (order) *order = ord;
    if (prev) *prev = pv;
    return GA_OK;
}

/* intersect1d's indices: order[mask] less `offset`, looked up in `first`
   (an input's first indices, NULL with assume_unique) where NumPy does,
   a negative position counting from the end as in Python (unscoped). */
static ga_array *ga__intersect_indices(const char *func, const ga_array *order, const ga_array *mask, int64_t offset,
                                       const ga_array *first)
{
    ga_array *pos = ga__compress(func, order, mask);
    if (pos && offset && pos->size > 0) {
        ga_operand in[2] = {ga_operand_array(pos), ga_operand_scalar(ga_int(offset))};
        ga_array *outs[2] = {pos, NULL};
        if (ga_ufunc_call(GA_UFUNC_SUBTRACT, in, outs) != GA_OK) {
            ga_release(pos);
            return NULL;
        }
    }
    if (!pos || !first) return pos;
    ga_array *r = ga__take_1d(func, first, pos);
    ga_release(pos);
    return r;
}

/* intersect1d by NumPy's steps on x and y (made unique, or as given):
   every element equal to the next one in their sorted concatenation in
   dt to *r; with r1 / r2 non-NULL, its position and the next one's (less
   x's size), through first_x / first_y (the unique inputs' first indices;
   NULL: as they are). Unscoped results; false on failure. */
static bool ga__intersect_merged(const char *func, const ga_array *x, const ga_array *first_x, const ga_array *y,
                                 const ga_array *first_y, ga_dtype dt, ga_array **r, ga_array **r1, ga_array **r2)
{
    ga_array *sorted = NULL, *order = NULL, *next = NULL, *prev = NULL;
    bool ok = ga__sorted_neighbours(func, x, y, dt, &sorted, r1 || r2 ? &order : NULL, &next, r2 ? &prev : NULL) ==
              GA_OK;
    if (ok) ok = (*r = ga__compress(func, sorted, next)) != NULL;
    if (ok && r1) ok = (*r1 = ga__intersect_indices(func, order, next, 0, first_x)) != NULL;
    if (ok && r2) ok = (*r2 = ga__intersect_indices(func, order, prev, x->size, first_y)) != NULL;
    ga_release(sorted);
    ga_release(order);
    ga_release(next);
    ga_release(prev);
    return ok;
}

/* ga__intersect_merged's results for x and y unique and of dt both: then
   NumPy's steps come to the elements of x found in y, which a binary
   search finds without sorting the two together. */
static bool ga__intersect_unique(const char *func, const ga_array *x, const ga_array *first_x, const ga_array *y,
                                 const ga_array *first_y, ga_dtype dt, ga_array **r, ga_array **r1, ga_array **r2)
{
    ga_array *found = ga__search(func, y, x, dt, GA__CUB_SEARCH_FOUND, false), *pos = NULL, *sel = NULL;
    bool ok = found && (*r = ga__compress(func, x, found)) != NULL;
    if (ok && r1) ok = (*r1 = ga__compress(func, first_x, found)) != NULL;
    if (ok && r2) {
        pos = ga__search(func, y, x, dt, GA__CUB_SEARCH_LEFT, false);
        sel = pos ? ga__compress(func, pos, found) : NULL;
        ok = sel && (*r2 = ga__take_1d(func, first_y, sel)) != NULL;
    }
    ga_release(found);
    ga_release(pos);
    ga_release(sel);
    return ok;
}

GPUARR_API ga_array *ga_intersect1d(const ga_array *a, const ga_array *b, bool assume_unique, ga_array **indices1,
                                    ga_array **indices2)
{
    static const char func[] = "ga_intersect1d";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, a, "a", b, "b", &dt) != GA_OK) return NULL;
    /* NumPy's: each input made unique in its own dtype, unless
       assume_unique, then ga__intersect_merged */
    ga_array *ia = NULL, *ib = NULL, *r = NULL, *r1 = NULL, *r2 = NULL;
    ga_array *ua = assume_unique ? ga_retain((ga_array *)a)
                                 : ga__unique(func, 1, &a, a->dtype, true, indices1 ? &ia : NULL, NULL, NULL);
    ga_array *ub = !ua ? NULL
                 : assume_unique ? ga_retain((ga_array *)b)
                                 : ga__unique(func, 1, &b, b->dtype, true, indices2 ? &ib : NULL, NULL, NULL);
    bool ok = ub != NULL;
    if (ok && !assume_unique && a->dtype == dt && b->dtype == dt)
        ok = ga__intersect_unique(func, ua, ia, ub, ib, dt, &r, indices1 ? &r1 : NULL, indices2 ? &r2 : NULL);
    else if (ok)
        ok = ga__intersect_merged(func, ua, ia, ub, ib, dt, &r, indices1 ? &r1 : NULL, indices2 ? &r2 : NULL);
    ga_release(ua);
    ga_release(ub);
    ga_release(ia);
    ga_release(ib);
    if (!ok) {
        ga_release(r);
        ga_release(r1);
        return NULL;
    }
    if (indices1) *indices1 = ga__ret(r1);
    if (indices2) *indices2 = ga__ret(r2);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_union1d(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_union1d";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, a, "a", b, "b", &dt) != GA_OK) return NULL;
    const ga_array *both[2] = {a, b};
    return ga__ret(ga__unique(func, 2, both, dt, true, NULL, NULL, NULL));
}

GPUARR_API ga_array *ga_setdiff1d(const ga_array *a, const ga_array *b, bool assume_unique)
{
    static const char func[] = "ga_setdiff1d";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, a, "a", b, "b", &dt) != GA_OK) return NULL;
    ga_array *ua;
    if (assume_unique) {
        int64_t size = a->size;
        ga_array *flat = ga__reshape(func, a, 1, &size);
        ua = flat && !(flat->flags & GA_C_CONTIGUOUS) ? ga__contiguous_copy(func, flat, a->dtype)
                                                      : (flat ? ga_retain(flat) : NULL);
        ga_release(flat);
    } else {
        ua = ga__unique(func, 1, &a, a->dtype, true, NULL, NULL, NULL);
    }
    ga_array *keep = ua ? ga__search(func, b, ua, dt, GA__CUB_SEARCH_NOT_FOUND, true) : NULL;
    ga_array *r = keep ? ga__compress(func, ua, keep) : NULL;
    ga_release(keep);
    ga_release(ua);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_setxor1d(const ga_array *a, const ga_array *b, bool assume_unique)
{
    static const char func[] = "ga_setxor1d";
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__set_pair(func, a, "a", b, "b", &dt) != GA_OK) return NULL;
    /* the values that occur once among unique(a) and unique(b), each NaN
       apart (NumPy compares neighbours with !=) */
    ga_array *ua = assume_unique ? ga_retain((ga_array *)a) : ga__unique(func, 1, &a, a->dtype, true, NULL, NULL, NULL);
    ga_array *ub = !ua ? NULL
                 : assume_unique ? ga_retain((ga_array *)b) : ga__unique(func, 1, &b, b->dtype, true, NULL, NULL, NULL);
    ga_array *counts = NULL, *values = NULL, *once = NULL, *r = NULL;
    if (ub) {
        const ga_array *both[2] = {ua, ub};
        values = ga__unique(func, 2, both, dt, false, NULL, NULL, &counts);
    }
    if (values && (once = ga__array_new(func, values->device, 1, &values->size, GA_BOOL))) {
        ga_operand in[2] = {ga_operand_array(counts), ga_operand_scalar(ga_int(1))};
        ga_array *outs[2] = {once, NULL};
        if (ga_ufunc_call(GA_UFUNC_EQUAL, in, outs) == GA_OK) r = ga__compress(func, values, once);
    }
    ga_release(ua);
    ga_release(ub);
    ga_release(counts);
    ga_release(values);
    ga_release(once);
    return ga__ret(r);
}

/* --- histograms --------------------------------------------------------------- */

/* The histograms take real input only. */
static ga_status ga__histogram_dtype(const char *func, const ga_array *a)
{
    if (ga__is_complex(a->dtype))
        return ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "%s input is not supported", ga__dtype_names[a->dtype]);
    return GA_OK;
}

GPUARR_API ga_array *ga_bincount(const ga_array *x, const ga_array *weights, int64_t minlength)
{
    static const char func[] = "ga_bincount";
    if (!x) {
        ga__null_input(func, "x");
        return NULL;
    }
    char kind = ga__dtype_kinds[x->dtype];
    if (kind != 'b' && kind != 'i' && kind != 'u') {
        ga__error(GA_ERROR_TYPE, func,
                  "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                  ga__dtype_names[x->dtype]);
        return NULL;
    }
    if (ga__need_1d(func, x) != GA_OK) return NULL;
    if (minlength < 0) {
        ga__error(GA_ERROR_VALUE, func, "'minlength' must not be negative");
        return NULL;
    }
    if (weights) {
        if (weights->device != x->device) {
            ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", x->device,
                      weights->device);
            return NULL;
        }
        if (ga__is_complex(weights->dtype)) {
            ga__error(GA_ERROR_TYPE, func,
                      "Cannot cast array data from dtype('%s') to dtype('float64') according to the rule 'safe'",
                      ga__dtype_names[weights->dtype]);
            return NULL;
        }
    }
    int device = x->device;
    if (ga__bind(func, device) != GA_OK) return NULL;
    int64_t n = x->size, lo = 0, hi = -1;
    ga_array *xi = ga__as_int64(func, x);
    if (!xi) return NULL;
    ga_status st = GA_OK;
    if (n > 0) {
        st = ga__read_extreme(func, xi, GA_REDUCE_MIN, GA_INT64, &lo);
        if (st == GA_OK) st = ga__read_extreme(func, xi, GA_REDUCE_MAX, GA_INT64, &hi);
        if (st == GA_OK && lo < 0) st = ga__error(GA_ERROR_VALUE, func, "'list' argument must have no negative elements");
    }
    /* after the values' check, in NumPy's order */
    if (st == GA_OK && weights && (weights->ndim != 1 || weights->size != x->size))
        st = ga__error(GA_ERROR_VALUE, func, "The weights and list don't have the same length.");
    if (st == GA_OK && hi == INT64_MAX)
        st = ga__error(GA_ERROR_VALUE, func, "the largest value, %lld, leaves no room for its bin", (long long)hi);
    int64_t nbins = st == GA_OK && hi + 1 > minlength ? hi + 1 : minlength;
    if (st == GA_OK && weights && (nbins >= (int64_t)UINT32_MAX || n > (int64_t)UINT32_MAX))
        st = ga__error(GA_ERROR_NOT_IMPLEMENTED, func,
                       "weighted counts of more than 4294967295 elements or of values above 4294967294 are not "
                       "supported");
    ga_array *out = st == GA_OK ? ga__array_new(func, device, 1, &nbins, weights ? GA_FLOAT64 : GA_INT64) : NULL;
    if (!out) st = ga__t.error;
    CUstream stream = ga__stream_of(device);
    if (st == GA_OK && nbins > 0 && GA__CU.MemsetD8Async((CUdeviceptr)out->data, 0, (size_t)nbins * 8, stream) !=
                                        CUDA_SUCCESS)
        st = ga__error(GA_ERROR_CUDA, func, "cuMemsetD8Async failed");
    if (st == GA_OK && n > 0 && !weights) {
        int e = ga__cub_bincount((const int64_t *)(uintptr_t)xi->data, n, nbins, (void *)(uintptr_t)out->data, stream);
        if (e) st = ga__cub_failed(func, e, "the counts");
    } else if (st == GA_OK && n > 0) {
        /* the weights summed per value: ids sorted with their positions,
           then a segmented sum (deterministic) */
        ga__scratch s = {device, 0, {NULL}};
        int64_t one[1] = {4}, d8[1] = {8};
        uint64_t ids = ga__scratch_alloc(func, &s, (size_t)n * 4), perm = 0, w = 0, temp = 0;
        if (ids) perm = ga__scratch_alloc(func, &s, (size_t)n * 4);
        if (perm) w = ga__scratch_alloc(func, &s, (size_t)n * 8);
        if (!w) st = ga__t.error;
        if (st == GA_OK) st = ga__copy_cast(func, device, GA_UINT32, ids, one, GA_INT64, xi->data, d8, 1, &n);
        if (st == GA_OK)
            st = ga__copy_cast(func, device, GA_FLOAT64, w, d8, weights->dtype, weights->data, weights->strides, 1,
                               &n);
        ga__scratch s2 = {device, 0, {NULL}};
        uint64_t ids_alt = st == GA_OK ? ga__scratch_alloc(func, &s2, (size_t)n * 4) : 0;
        uint64_t perm_alt = ids_alt ? ga__scratch_alloc(func, &s2, (size_t)n * 4) : 0;
        if (st == GA_OK && !perm_alt) st = ga__t.error;
        if (st == GA_OK) st = ga__sort_keys(func, device, 4, n, &ids, ids_alt, &perm, perm_alt);
        if (st == GA_OK) {
            size_t temp_bytes = 0;
            int e = ga__cub_weighted_bins(NULL, &temp_bytes, NULL, NULL, NULL, n, nbins, NULL, stream);
            if (e) st = ga__cub_failed(func, e, "cub segmented reduce (temp storage query)");
            if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s2, temp_bytes))) st = ga__t.error;
            if (st == GA_OK) {
                e = ga__cub_weighted_bins((void *)(uintptr_t)temp, &temp_bytes, (const uint32_t *)(uintptr_t)ids,
                                          (const uint32_t *)(uintptr_t)perm, (const double *)(uintptr_t)w, n, nbins,
                                          (double *)(uintptr_t)out->data, stream);
                if (e) st = ga__cub_failed(func, e, "cub segmented reduce");
            }
        }
        ga__scratch_free(&s2);
        ga__scratch_free(&s);
    }
    ga_release(xi);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return ga__ret(out);
}

/* x rounded to a floating dtype (float64 stays). */
static double ga__round_to(double x, ga_dtype t)
{
    switch (t) {
    case GA_FLOAT32: return (double)(float)x;
    case GA_FLOAT16: return ga__half_to_double(ga__double_to_half(x));
    case GA_BFLOAT16: {
        uint32_t bits = (uint32_t)ga__float_to_bfloat16((float)x) << 16;
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    default: return x;
    }
}

/* numpy.linspace(first, last, bins + 1) as NumPy computes it in dtype ct
   (float64, or a float dtype whose every operation is rounded to it), then
   rounded to dtype `to`, into edges (bins + 1). */
static void ga__linspace_edges(double first, double last, int64_t bins, ga_dtype ct, ga_dtype to, double *edges)
{
    double delta = ga__round_to(last - first, ct), step = ga__round_to(delta / (double)bins, ct);
    for (int64_t i = 0; i <= bins; i++) {
        double x = ga__round_to((double)i, ct), y;
        if (step == 0) y = ga__round_to(ga__round_to(x / (double)bins, ct) * delta, ct);
        else y = ga__round_to(x * step, ct);
        y = ga__round_to(y + first, ct);
        edges[i] = ga__round_to(i == bins ? last : y, to);
    }
}

/* A histogram's edges: `bins` equal bins over range (or a's min and max)
   in NumPy's linspace, rounded to the bin dtype (a's float dtype, else
   float64), or the given bin_edges (checked); host copies as float64. */
typedef struct ga__hist_edges {
    int64_t nbins;
    ga_dtype dtype;  /* of the edges */
    double *host;    /* nbins + 1, malloc'd */
    bool uniform;
} ga__hist_edges;

static ga_status ga__histogram_edges(const char *func, const ga_array *a, int64_t bins, const ga_array *bin_edges,
                                     const double *range, ga__hist_edges *h)
{
    memset(h, 0, sizeof *h);
    if (bin_edges) {
        if (bin_edges->device != a->device)
            return ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device,
                             bin_edges->device);
        if (bin_edges->ndim != 1) return ga__error(GA_ERROR_VALUE, func, "`bins` must be 1d, when an array");
        if (ga__is_complex(bin_edges->dtype))
            return ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "complex bins are not supported");
        if (!(h->host = ga__host_doubles(func, bin_edges))) return ga__t.error;
        for (int64_t i = 0; i + 1 < bin_edges->size; i++)
            if (h->host[i] > h->host[i + 1]) {
                GPUARR_FREE(h->host);
                h->host = NULL;
                return ga__error(GA_ERROR_VALUE, func, "`bins` must increase monotonically, when an array");
            }
        h->nbins = bin_edges->size > 0 ? bin_edges->size - 1 : 0;
        h->dtype = bin_edges->dtype;
        return GA_OK;
    }
    if (bins <= 0) return ga__error(GA_ERROR_VALUE, func, "`bins` must be positive, when an integer");
    if (bins >= INT64_MAX / 16) return ga__error(GA_ERROR_VALUE, func, "too many bins: %lld", (long long)bins);
    double first = 0, last = 1;
    if (range) {
        first = range[0];
        last = range[1];
        if (first > last) return ga__error(GA_ERROR_VALUE, func, "max must be larger than min in range parameter.");
    } else if (a->size > 0) {
        if (ga__read_extreme(func, a, GA_REDUCE_MIN, GA_FLOAT64, &first) != GA_OK ||
            ga__read_extreme(func, a, GA_REDUCE_MAX, GA_FLOAT64, &last) != GA_OK)
            return ga__t.error;
    }
    if (!isfinite(first) || !isfinite(last)) {
        char lo_text[32], hi_text[32];
        ga__format_float(lo_text, sizeof lo_text, first);
        ga__format_float(hi_text, sizeof hi_text, last);
        return ga__error(GA_ERROR_VALUE, func, "%s range of [%s, %s] is not finite", range ? "supplied" : "autodetected",
                         lo_text, hi_text);
    }
    /* numpy.linspace(first, last, bins + 1) then astype(bin dtype), as
       NumPy: in float64 for a given range or integers, else in a's float
       dtype (its min and max are scalars of that dtype), each operation
       rounded to it */
    ga_dtype ct = !range && a->size > 0 && ga__dtype_kinds[a->dtype] == 'f' ? a->dtype : GA_FLOAT64;
    if (first == last) {
        first = ga__round_to(first - 0.5, ct);
        last = ga__round_to(last + 0.5, ct);
    }
    ga_scalar f = ga_float(0);
    ga_dtype dt = a->dtype;
    h->dtype = ga_result_type(1, &dt, 1, &f);
    h->nbins = bins;
    h->uniform = true;
    h->host = (double *)GPUARR_MALLOC(sizeof(double) * (size_t)(bins + 1));
    if (!h->host) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    ga__linspace_edges(first, last, bins, ct, h->dtype, h->host);
    for (int64_t i = 0; i < bins; i++)
        if (!(h->host[i] < h->host[i + 1])) {
            GPUARR_FREE(h->host);
            h->host = NULL;
            return ga__error(GA_ERROR_VALUE, func,
                             "Too many bins for data range. Cannot create %lld finite-sized bins.", (long long)bins);
        }
    return GA_OK;
}

/* The edges as a new device array of their dtype (unscoped). */
static ga_array *ga__histogram_edges_array(const char *func, int device, const ga__hist_edges *h)
{
    int64_t ne = h->nbins + 1;
    size_t isz = ga__dtype_sizes[h->dtype];
    unsigned char *buf = (unsigned char *)GPUARR_MALLOC(isz * (size_t)ne);
    if (!buf) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    for (int64_t i = 0; i < ne; i++) {
        ga__value16 v;
        ga__double_to_element(h->host[i], 0, h->dtype, &v);
        memcpy(buf + (size_t)i * isz, &v, isz);
    }
    ga_array *e = ga__array_new(func, device, 1, &ne, h->dtype);
    if (e && ga__upload(func, e, buf, true) != GA_OK) {
        ga_release(e);
        e = NULL;
    }
    GPUARR_FREE(buf);
    return e;
}

GPUARR_API ga_array *ga_histogram_bin_edges(const ga_array *a, int64_t bins, const double *range)
{
    static const char func[] = "ga_histogram_bin_edges";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (ga__histogram_dtype(func, a) != GA_OK || ga__bind(func, a->device) != GA_OK) return NULL;
    ga__hist_edges h;
    if (ga__histogram_edges(func, a, bins, NULL, range, &h) != GA_OK) return NULL;
    ga_array *e = ga__histogram_edges_array(func, a->device, &h);
    GPUARR_FREE(h.host);
    return ga__ret(e);
}

/* The counts (int64) or the weights' sums (float64) of a's elements in the
   bins (unscoped). */
static ga_array *ga__histogram_counts(const char *func, const ga_array *a, const ga__hist_edges *h,
                                      const ga_array *weights)
{
    int device = a->device;
    int64_t nb = h->nbins, n = a->size;
    ga_array *out = ga__array_new(func, device, 1, &nb, weights ? GA_FLOAT64 : GA_INT64);
    if (!out || nb == 0) return out;
    CUstream stream = ga__stream_of(device);
    ga_status st = GA_OK;
    if (GA__CU.MemsetD8Async((CUdeviceptr)out->data, 0, (size_t)nb * 8, stream) != CUDA_SUCCESS)
        st = ga__error(GA_ERROR_CUDA, func, "cuMemsetD8Async failed");
    if (st != GA_OK || n == 0) {
        if (st != GA_OK) ga_release(out);
        return st == GA_OK ? out : NULL;
    }
    /* elements and edges compare in float32 when that is exact for both */
    ga_dtype ed = h->dtype, d2[2] = {a->dtype, ed};
    ga_dtype ct = ga_result_type(2, d2, 0, NULL);
    ga_dtype kt = ct == GA_FLOAT16 || ct == GA_BFLOAT16 || ct == GA_FLOAT32 ? GA_FLOAT32 : GA_FLOAT64;
    int64_t ksz = (int64_t)ga__dtype_sizes[kt], cs[GA_MAXDIMS];
    ga__scratch s = {device, 0, {NULL}};
    uint64_t in = a->data, edges = ga__scratch_alloc(func, &s, (size_t)((nb + 1) * ksz)), ids = 0;
    if (!edges) st = ga__t.error;
    if (st == GA_OK && !(a->dtype == kt && (a->flags & GA_C_CONTIGUOUS))) {
        in = ga__scratch_alloc(func, &s, (size_t)(n * ksz));
        ga__c_strides(a->ndim, a->shape, ksz, cs);
        st = in ? ga__copy_cast(func, device, kt, in, cs, a->dtype, a->data, a->strides, a->ndim, a->shape)
                : ga__t.error;
    }
    if (st == GA_OK) {
        void *host = GPUARR_MALLOC((size_t)((nb + 1) * ksz));
        if (!host) {
            st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        } else {
            for (int64_t i = 0; i <= nb; i++) {
                if (kt == GA_FLOAT32) ((float *)host)[i] = (float)h->host[i];
                else ((double *)host)[i] = h->host[i];
            }
            if (GA__CU.MemcpyHtoDAsync((CUdeviceptr)edges, host, (size_t)((nb + 1) * ksz), stream) != CUDA_SUCCESS)
                st = ga__error(GA_ERROR_CUDA, func, "cuMemcpyHtoDAsync failed");
            GPUARR_FREE(host);
        }
    }
    double lo = h->host[0], scale = (double)nb / (h->host[nb] - h->host[0]);
    if (st == GA_OK && weights && !(ids = ga__scratch_alloc(func, &s, (size_t)n * 4))) st = ga__t.error;
    if (st == GA_OK) {
        int e = ga__cub_histogram((const void *)(uintptr_t)in, (int)kt, n, (const void *)(uintptr_t)edges, nb,
                                  h->uniform, lo, scale, (void *)(uintptr_t)out->data, (uint32_t *)(uintptr_t)ids,
                                  stream);
        if (e) st = ga__cub_failed(func, e, "the histogram");
    }
    if (st == GA_OK && weights) {
        ga__scratch s2 = {device, 0, {NULL}};
        uint64_t perm = ga__scratch_alloc(func, &s2, (size_t)n * 4), temp = 0;
        uint64_t ids_alt = perm ? ga__scratch_alloc(func, &s2, (size_t)n * 4) : 0;
        uint64_t perm_alt = ids_alt ? ga__scratch_alloc(func, &s2, (size_t)n * 4) : 0;
        uint64_t w = perm_alt ? ga__scratch_alloc(func, &s2, (size_t)n * 8) : 0;
        if (!w) st = ga__t.error;
        if (st == GA_OK) {
            ga__c_strides(weights->ndim, weights->shape, 8, cs);
            st = ga__copy_cast(func, device, GA_FLOAT64, w, cs, weights->dtype, weights->data, weights->strides,
                               weights->ndim, weights->shape);
        }
        if (st == GA_OK) st = ga__sort_keys(func, device, 4, n, &ids, ids_alt, &perm, perm_alt);
        if (st == GA_OK) {
            size_t temp_bytes = 0;
            int e = ga__cub_weighted_bins(NULL, &temp_bytes, NULL, NULL, NULL, n, nb, NULL, stream);
            if (e) st = ga__cub_failed(func, e, "cub segmented reduce (temp storage query)");
            if (st == GA_OK && !(temp = ga__scratch_alloc(func, &s2, temp_bytes))) st = ga__t.error;
            if (st == GA_OK) {
                e = ga__cub_weighted_bins((void *)(uintptr_t)temp, &temp_bytes, (const uint32_t *)(uintptr_t)ids,
                                          (const uint32_t *)(uintptr_t)perm, (const double *)(uintptr_t)w, n, nb,
                                          (double *)(uintptr_t)out->data, stream);
                if (e) st = ga__cub_failed(func, e, "cub segmented reduce");
            }
        }
        ga__scratch_free(&s2);
    }
    ga__scratch_free(&s);
    if (st != GA_OK) {
        ga_release(out);
        return NULL;
    }
    return out;
}

/* The sums of complex weights: those of the real and of the imaginary
   parts, each as ga__histogram_counts makes them, into one complex128. */
static ga_array *ga__histogram_complex(const char *func, const ga_array *a, const ga__hist_edges *h,
                                       const ga_array *weights)
{
    ga_array *parts[2] = {NULL, NULL}, *out = ga__array_new(func, a->device, 1, &h->nbins, GA_COMPLEX128);
    ga_status st = out ? GA_OK : ga__t.error;
    for (int p = 0; p < 2 && st == GA_OK; p++) {
        ga_array *w = ga__complex_part(func, weights, p), *dst = w ? ga__complex_part(func, out, p) : NULL;
        parts[p] = dst ? ga__histogram_counts(func, a, h, w) : NULL;
        if (!parts[p]) st = ga__t.error;
        else st = ga__copy_cast(func, a->device, GA_FLOAT64, dst->data, dst->strides, GA_FLOAT64, parts[p]->data,
                                parts[p]->strides, 1, &h->nbins);
        ga_release(w);
        ga_release(dst);
        ga_release(parts[p]);
    }
    if (st == GA_OK) return out;
    ga_release(out);
    return NULL;
}

GPUARR_API ga_array *ga_histogram(const ga_array *a, int64_t bins, const ga_array *bin_edges, const double *range,
                                  bool density, const ga_array *weights, ga_array **edges)
{
    static const char func[] = "ga_histogram";
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if (ga__histogram_dtype(func, a) != GA_OK) return NULL;
    if (weights) {
        if (weights->device != a->device) {
            ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device,
                      weights->device);
            return NULL;
        }
        bool same = weights->ndim == a->ndim;
        for (int d = 0; same && d < a->ndim; d++) same = weights->shape[d] == a->shape[d];
        if (!same) {
            ga__error(GA_ERROR_VALUE, func, "weights should have the same shape as a.");
            return NULL;
        }
    }
    if (weights && a->size > (int64_t)UINT32_MAX) {
        ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "weighted histograms of more than 4294967295 elements are not supported");
        return NULL;
    }
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga__hist_edges h;
    if (ga__histogram_edges(func, a, bins, bin_edges, range, &h) != GA_OK) return NULL;
    ga_array *hist = weights && ga__is_complex(weights->dtype) ? ga__histogram_complex(func, a, &h, weights)
                                                               : ga__histogram_counts(func, a, &h, weights);
    ga_array *e = NULL, *r = NULL;
    if (hist && edges)
        e = bin_edges ? ga_retain((ga_array *)bin_edges) : ga__histogram_edges_array(func, a->device, &h);
    if (hist && (!edges || e)) {
        if (density) {
            /* NumPy: hist / diff(edges).astype(float) / hist.sum() */
            int64_t nb = h.nbins;
            double *db = (double *)GPUARR_MALLOC(sizeof(double) * (size_t)(nb ? nb : 1));
            ga_array *widths = db ? ga__array_new(func, a->device, 1, &nb, GA_FLOAT64) : NULL, *q = NULL;
            ga_array *total = widths ? ga__reduce_tmp(func, GA_REDUCE_SUM, hist, 0, NULL, GA_DTYPE_INVALID, false)
                                     : NULL;
            if (!db) ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
            if (total) {
                bool exact = ga__dtype_kinds[h.dtype] != 'f';
                for (int64_t i = 0; i < nb; i++)
                    db[i] = exact ? h.host[i + 1] - h.host[i] : ga__round_to(h.host[i + 1] - h.host[i], h.dtype);
            }
            ga_dtype qt = hist->dtype == GA_COMPLEX128 ? GA_COMPLEX128 : GA_FLOAT64;
            if (total && ga__upload(func, widths, db, true) == GA_OK &&
                (q = ga__reduce_ufunc(func, GA_UFUNC_DIVIDE, hist, widths, qt)))
                r = ga__reduce_ufunc(func, GA_UFUNC_DIVIDE, q, total, qt);
            GPUARR_FREE(db);
            ga_release(widths);
            ga_release(total);
            ga_release(q);
        } else if (weights && weights->dtype != hist->dtype) {
            r = ga__contiguous_copy(func, hist, weights->dtype);
        } else {
            r = ga_retain(hist);
        }
    }
    ga_release(hist);
    GPUARR_FREE(h.host);
    if (!r) {
        ga_release(e);
        return NULL;
    }
    if (edges) *edges = ga__ret(e);
    return ga__ret(r);
}

/* >>linalg */
/* ------------------------------------------------------------------------ */
/* 19. Linear algebra: products                                             */
/* ------------------------------------------------------------------------ */
#ifndef GPUARR_NO_LINALG

/* One operand of a batched product: a matrix of rows x cols (element
   strides rs, cs) and the byte strides of the batch dims (0: broadcast). */
typedef struct ga__gemm_operand {
    uint64_t data;
    int64_t rows, cols, rs, cs;
    int64_t batch[GA_MAXDIMS];
} ga__gemm_operand;

/* cuBLAS's types for a float or complex dtype: the data, the computation
   (float32 for the half types, as NumPy accumulates them) and the scale. */
static bool ga__cublas_types(ga_dtype dt, cudaDataType *data, cublasComputeType_t *compute)
{
    *data = CUDA_R_64F, *compute = CUBLAS_COMPUTE_64F; /* (for none) */
    switch (dt) {
    case GA_FLOAT16: *data = CUDA_R_16F; *compute = CUBLAS_COMPUTE_32F; return true;
    case GA_BFLOAT16: *data = CUDA_R_16BF; *compute = CUBLAS_COMPUTE_32F; return true;
    case GA_FLOAT32: *data = CUDA_R_32F; *compute = CUBLAS_COMPUTE_32F; return true;
    case GA_FLOAT64: *data = CUDA_R_64F; *compute = CUBLAS_COMPUTE_64F; return true;
    case GA_COMPLEX64: *data = CUDA_C_32F; *compute = CUBLAS_COMPUTE_32F; return true;
    case GA_COMPLEX128: *data = CUDA_C_64F; *compute = CUBLAS_COMPUTE_64F; return true;
    default: return false;
    }
}

/* How cuBLAS (column-major) reads matrix x: as stored (CUBLAS_OP_N, columns
   ld apart) when its rows are adjacent, or as the transpose of a stored
   cols x rows matrix (CUBLAS_OP_T) when its columns are; false for
   neither. A dim of 1 takes any stride. */
static bool ga__blas_view(const ga__gemm_operand *x, cublasOperation_t *op, int64_t *ld)
{
    if ((x->rs == 1 || x->rows == 1) && (x->cols == 1 || x->cs >= GA__MAX(x->rows, 1))) {
        *op = CUBLAS_OP_N;
        *ld = x->cols == 1 ? GA__MAX(x->rows, 1) : x->cs;
        return true;
    }
    if ((x->cs == 1 || x->cols == 1) && (x->rows == 1 || x->rs >= GA__MAX(x->cols, 1))) {
        *op = CUBLAS_OP_T;
        *ld = x->rows == 1 ? GA__MAX(x->cols, 1) : x->rs;
        return true;
    }
    return false;
}

/* Whether array x can be read in place as a product's operand of dtype dt
   (matrix dims m0, m1: -1 for none), batch strides `batch` over nb dims: its
   dtype, element-aligned strides, batch strides >= 0, a BLAS layout. */
static bool ga__gemm_readable(const ga_array *x, ga_dtype dt, const ga__gemm_operand *o, int nb)
{
    const int64_t isz = (int64_t)ga__dtype_sizes[dt];
    if (x->dtype != dt || x->data % (uint64_t)isz) return false;
    for (int d = 0; d < x->ndim; d++)
        if (x->strides[d] % isz) return false;
    for (int d = 0; d < nb; d++)
        if (o->batch[d] < 0) return false;
    cublasOperation_t op;
    int64_t ld;
    return ga__blas_view(o, &op, &ld);
}

/* The operand of array x (already broadcastable to the batch `bshape` of nb
   dims) whose matrix is dims r, c of x (-1: a dim of 1 that x lacks). */
static void ga__gemm_operand_of(const ga_array *x, int r, int c, int nb, ga__gemm_operand *o)
{
    const int64_t isz = (int64_t)ga__dtype_sizes[x->dtype];
    const int xb = x->ndim - (r >= 0) - (c >= 0); /* x's batch dims */
    o->data = x->data;
    o->rows = r >= 0 ? x->shape[r] : 1;
    o->cols = c >= 0 ? x->shape[c] : 1;
    o->rs = r >= 0 ? x->strides[r] / isz : 0;
    o->cs = c >= 0 ? x->strides[c] / isz : 0;
    for (int d = 0; d < nb; d++) {
        int sd = d - (nb - xb);
        o->batch[d] = sd < 0 || x->shape[sd] == 1 ? 0 : x->strides[sd];
    }
}

/* The batch of a product of operands x, y, z: its dims collapsed, the last
   one the call's own (count matrices, step bytes apart in each operand),
   the others walked one call at a time by ga__gemm_batch_next. */
typedef struct ga__gemm_batch {
    int nd;                                  /* walked dims */
    int64_t shape[GA_MAXDIMS], strides[3][GA_MAXDIMS], idx[GA_MAXDIMS];
    int64_t count, step[3], calls;
} ga__gemm_batch;

static void ga__gemm_batch_plan(int nb, const int64_t *bshape, const ga__gemm_operand *x, const ga__gemm_operand *y,
                                const ga__gemm_operand *z, ga__gemm_batch *b)
{
    for (int d = 0; d < nb; d++) {
        b->shape[d] = bshape[d];
        b->strides[0][d] = x->batch[d], b->strides[1][d] = y->batch[d], b->strides[2][d] = z->batch[d];
        b->idx[d] = 0;
    }
    b->nd = ga__collapse(nb, b->shape, 3, b->strides);
    b->count = 1, b->step[0] = b->step[1] = b->step[2] = 0;
    if (b->nd > 0) {
        b->nd--;
        b->count = b->shape[b->nd];
        for (int o = 0; o < 3; o++) b->step[o] = b->strides[o][b->nd];
    }
    b->calls = 1;
    for (int d = 0; d < b->nd; d++) b->calls *= b->shape[d];
}

/* The three operands' addresses for the next call (from x, y, z's data). */
static void ga__gemm_batch_next(ga__gemm_batch *b, const uint64_t base[3], uint64_t at[3])
{
    for (int o = 0; o < 3; o++) {
        at[o] = base[o];
        for (int d = 0; d < b->nd; d++) at[o] += (uint64_t)(b->idx[d] * b->strides[o][d]);
    }
    for (int d = b->nd - 1; d >= 0 && ++b->idx[d] == b->shape[d]; d--) b->idx[d] = 0;
}

/* The section's kernels (kernels/linalg.cu), resolved at first use. */
static struct {
    CUkernel matmul[GA_NUM_DTYPES], dot[GA_NUM_DTYPES], dotsum[GA_NUM_DTYPES], poison[GA_NUM_DTYPES];
    CUkernel cholesky[GA_NUM_DTYPES][3], inv[GA_NUM_DTYPES][3]; /* by ga__small_variant */
} ga__linalg_kernels;

/* c = a b by our kernel (integers and bool, which cuBLAS has no type for:
   NumPy's wrap-around sums; and small products, where cuBLAS's host work
   would be most of the cost), over the batch dims bshape (nb), the batch
   walked as ga__gemm walks it. */
static ga_status ga__gemm_kernel(const char *func, int device, ga_dtype dt, int nb, const int64_t *bshape,
                                 const ga__gemm_operand *a, const ga__gemm_operand *b, const ga__gemm_operand *c)
{
    const int64_t isz = (int64_t)ga__dtype_sizes[dt];
    ga__gemm_batch bt;
    ga__gemm_batch_plan(nb, bshape, a, b, c, &bt);
    ga__matmul_params p;
    p.count = bt.count, p.m = c->rows, p.n = c->cols, p.k = a->cols;
    p.a[0] = bt.step[0] / isz, p.b[0] = bt.step[1] / isz, p.c[0] = bt.step[2] / isz;
    p.a[1] = a->rs, p.a[2] = a->cs, p.b[1] = b->rs, p.b[2] = b->cs, p.c[1] = c->rs, p.c[2] = c->cs;
    CUfunction f = ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.matmul[dt], "matmul", ga__dtype_names[dt], NULL, NULL);
    if (!f) return ga__t.error;
    const uint64_t base[3] = {a->data, b->data, c->data};
    for (int64_t i = 0; i < bt.calls; i++) {
        uint64_t at[3];
        ga__gemm_batch_next(&bt, base, at);
        void *va = (void *)(uintptr_t)at[0], *vb = (void *)(uintptr_t)at[1], *vc = (void *)(uintptr_t)at[2];
        void *args[] = {&vc, &va, &vb, &p};
        if (ga__launch(func, f, device, p.count * p.m * p.n, args) != GA_OK) return ga__t.error;
    }
    return GA_OK;
}

/* c (one element) = the dot product of a's one row and b's one column, k
   elements each, by the dot kernels: a pass of per-chunk partial sums, then
   one block that adds them (deterministic), at the memory's speed. */
static ga_status ga__gemm_dot(const char *func, int device, ga_dtype dt, const ga__gemm_operand *a, const ga__gemm_operand *b,
                              const ga__gemm_operand *c)
{
    const int64_t k = a->cols, per = 256 * (int64_t)GA__DOT_PER_THREAD(ga__dtype_sizes[dt]);
    ga__dot_params p = {k, a->cs, b->rs, (k + per - 1) / per};
    const char *name = ga__dtype_names[dt];
    CUfunction f = ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.dot[dt], "dot", name, NULL, NULL);
    CUfunction g = f ? ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.dotsum[dt], "dotsum", name, NULL, NULL) : NULL;
    ga__block *part = g ? ga__device_alloc(func, device, (size_t)p.parts * 16, false) : NULL; /* (16: the widest sum) */
    if (!part) return ga__t.error;
    void *vp = (void *)(uintptr_t)part->ptr, *vx = (void *)(uintptr_t)a->data, *vy = (void *)(uintptr_t)b->data;
    void *vc = (void *)(uintptr_t)c->data;
    void *args[] = {&vp, &vx, &vy, &p}, *sum_args[] = {&vc, &vp, &p};
    ga_status st = ga__launch_flat(func, f, device, p.parts * 256, args);
    if (st == GA_OK) st = ga__launch_flat(func, g, device, 256, sum_args);
    ga__pool_free(ga__g.devices[device].pool, part);
    return st;
}

/* c = a b over the batch dims bshape (nb), each of dtype dt, through
   cublasGemmStridedBatchedEx: the batch dims collapsed, the last as
   cuBLAS's batch, the others a loop. The product is column-major: a
   row-major c is computed as c^T = b^T a^T. Integers and bool (no cuBLAS
   type) and small products go to our kernel (ga__gemm_kernel), a single
   long dot product to the dot kernels. */
#define GA__GEMM_DOT_MIN 4096              /* k from which one dot product is the dot kernels' */
#define GA__GEMM_KERNEL_MAX_K 256          /* small products: k at most this, */
#define GA__GEMM_KERNEL_MAX_MACS (1 << 18) /* and at most this many multiply-adds (a 64^3 product) */
static ga_status ga__gemm(const char *func, int device, ga_dtype dt, int nb, const int64_t *bshape,
                          const ga__gemm_operand *a, const ga__gemm_operand *b, const ga__gemm_operand *c)
{
    const int64_t isz = (int64_t)ga__dtype_sizes[dt], m = c->rows, n = c->cols, k = a->cols;
    int64_t batch = 1;
    for (int d = 0; d < nb; d++) batch *= bshape[d];
    if (m == 1 && n == 1 && batch == 1 && k >= GA__GEMM_DOT_MIN) return ga__gemm_dot(func, device, dt, a, b, c);
    cudaDataType type;
    cublasComputeType_t compute;
    if (!ga__cublas_types(dt, &type, &compute) || (k <= GA__GEMM_KERNEL_MAX_K && (double)m * (double)n * (double)k * (double)batch <= GA__GEMM_KERNEL_MAX_MACS))
        return ga__gemm_kernel(func, device, dt, nb, bshape, a, b, c);
    /* column-major: c stored with adjacent rows; else c^T = b^T a^T */
    ga__gemm_operand x = *a, y = *b, z = *c;
    cublasOperation_t opz;
    int64_t ldc;
    if (!ga__blas_view(&z, &opz, &ldc)) return ga__error(GA_ERROR_STATE, func, "no BLAS layout for the result");
    if (opz == CUBLAS_OP_T) {
        x = *b, y = *a;
        int64_t t = x.rows; x.rows = x.cols; x.cols = t; t = x.rs; x.rs = x.cs; x.cs = t;
        t = y.rows; y.rows = y.cols; y.cols = t; t = y.rs; y.rs = y.cs; y.cs = t;
    }
    cublasOperation_t opx, opy;
    int64_t ldx, ldy;
    if (!ga__blas_view(&x, &opx, &ldx) || !ga__blas_view(&y, &opy, &ldy))
        return ga__error(GA_ERROR_STATE, func, "no BLAS layout for an operand");
    const int64_t mm = opz == CUBLAS_OP_T ? n : m, nn = opz == CUBLAS_OP_T ? m : n;
    /* the batch: collapsed, the last dim cuBLAS's own */
    ga__gemm_batch bt;
    ga__gemm_batch_plan(nb, bshape, &x, &y, &z, &bt);
    const int64_t count = bt.count, sx = bt.step[0] / isz, sy = bt.step[1] / isz, sz = bt.step[2] / isz;
    union { float f[2]; double d[2]; } one, zero;
    memset(&zero, 0, sizeof zero);
    memset(&one, 0, sizeof one);
    if (compute == CUBLAS_COMPUTE_64F) one.d[0] = 1;
    else one.f[0] = 1;
    ga__block *ws;
    cublasHandle_t h = ga__cublas_bound(func, device, &ws);
    if (!h) return ga__t.error;
    ga_status st = GA_OK;
    const uint64_t base[3] = {x.data, y.data, z.data};
    for (int64_t i = 0; i < bt.calls && st == GA_OK; i++) {
        uint64_t at[3];
        ga__gemm_batch_next(&bt, base, at);
        cublasStatus_t r = ga__cublas.cublasGemmStridedBatchedEx_64(
            h, opx, opy, mm, nn, k, &one, (const void *)(uintptr_t)at[0], type, ldx, sx, (const void *)(uintptr_t)at[1], type,
            ldy, sy, &zero, (void *)(uintptr_t)at[2], type, ldc, sz, count, compute, CUBLAS_GEMM_DEFAULT);
        if (r != CUBLAS_STATUS_SUCCESS) st = ga__cublas_error(func, r, "cublasGemmStridedBatchedEx");
    }
    ga__pool_free(ga__g.devices[device].pool, ws);
    return st;
}

/* The dtype of a product of a and b: promote_types (float and complex
   through cuBLAS, integers and bool through ga__gemm_kernel). */
static ga_status ga__product_dtype(const char *func, const ga_array *a, const ga_array *b, ga_dtype *dt)
{
    *dt = ga_promote_types(a->dtype, b->dtype);
    if (*dt == GA_DTYPE_INVALID || !ga__dtype_valid(*dt))
        return ga__error(GA_ERROR_TYPE, func, "no common dtype for %s and %s", ga__dtype_names[a->dtype],
                         ga__dtype_names[b->dtype]);
    if (a->device != b->device)
        return ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device, b->device);
    return GA_OK;
}

/* Operand x of a product, readable in place or else copied (C-contiguous,
   dtype dt) into temps: *o describes it (matrix dims r, c of x, -1 for a
   missing one; nb batch dims). */
static ga_status ga__gemm_input(const char *func, const ga_array *x, ga_dtype dt, int r, int c, int nb, ga__temps *t,
                                ga__gemm_operand *o)
{
    ga__gemm_operand_of(x, r, c, nb, o);
    if (ga__gemm_readable(x, dt, o, nb)) return GA_OK;
    ga_array *copy = ga__temp(t, ga__contiguous_copy(func, x, dt));
    if (!copy) return ga__t.error;
    ga__gemm_operand_of(copy, r, c, nb, o);
    return GA_OK;
}

/* The product of the shapes of the job: out = a b into `out` (given) or a
   new C-contiguous result of shape rshape (rnd dims). Matrix dims: a's
   (ar, ac), b's (br, bc), the result's (zr, zc), -1 where missing; nb batch
   dims of shape bshape. */
typedef struct ga__product {
    const ga_array *a, *b;
    int ar, ac, br, bc, zr, zc;
    int nb;
    int64_t bshape[GA_MAXDIMS];
    int rnd;
    int64_t rshape[GA_MAXDIMS];
    ga_dtype dt;
} ga__product;

/* Whether `out` can be written in place: the product's dtype, a BLAS
   layout, and no byte shared with an input. */
static bool ga__product_writes_in_place(const ga__product *p, const ga_array *out, const ga__gemm_operand *z, int64_t k)
{
    if (k == 0 || !ga__gemm_readable(out, p->dt, z, p->nb)) return false;
    for (int d = 0; d < p->nb; d++)
        if (z->batch[d] == 0 && p->bshape[d] > 1) return false; /* written twice */
    if (z->rs == 0 && z->rows > 1) return false;
    if (z->cs == 0 && z->cols > 1) return false;
    const ga_array *in[2] = {p->a, p->b};
    for (int i = 0; i < 2; i++)
        if (in[i]->buffer == out->buffer && in[i]->size && out->size) {
            uint64_t alo, ahi, olo, ohi;
            ga__extent(in[i], &alo, &ahi);
            ga__extent(out, &olo, &ohi);
            if (alo < ohi && olo < ahi) return false;
        }
    return true;
}

/* Runs product p into `out` (checked by the caller) or a new array
   (*result). */
static ga_status ga__product_run(const char *func, const ga__product *p, ga_array *out, ga_array **result)
{
    const ga_array *a = p->a, *b = p->b;
    int device = a->device;
    if (ga__bind(func, device) != GA_OK) return ga__t.error;
    ga__temps t = {{NULL}, 0};
    const int64_t k = p->ac >= 0 ? a->shape[p->ac] : 1;
    ga__gemm_operand x, y, z;
    if (ga__gemm_input(func, a, p->dt, p->ar, p->ac, p->nb, &t, &x) != GA_OK ||
        ga__gemm_input(func, b, p->dt, p->br, p->bc, p->nb, &t, &y) != GA_OK)
        return ga__temps_fail(&t);
    ga_array *target = NULL;
    if (out) ga__gemm_operand_of(out, p->zr, p->zc, p->nb, &z);
    if (out && ga__product_writes_in_place(p, out, &z, k)) {
        target = out;
    } else {
        target = ga__temp(&t, ga__array_new(func, device, p->rnd, p->rshape, p->dt));
        if (!target) return ga__temps_fail(&t);
        ga__gemm_operand_of(target, p->zr, p->zc, p->nb, &z);
    }
    ga_status st = GA_OK;
    if (target->size > 0) {
        if (k == 0) {
            ga__value16 zero = {{0, 0}};
            st = ga__fill(func, target, &zero);
        } else {
            st = ga__gemm(func, device, p->dt, p->nb, p->bshape, &x, &y, &z);
        }
    }
    if (st == GA_OK && out && target != out) st = ga__copyto(func, out, target, GA_CASTING_UNSAFE);
    if (st == GA_OK && result) *result = ga_retain(target);
    ga__temps_release(&t);
    return st;
}

/* --- matmul ---------------------------------------------------------------- */

static const char ga__matmul_signature[] = "(n?,k),(k,m?)->(n?,m?)";

/* A shape as NumPy's gufunc errors remap it: the batch dims, then
   "newaxis" for each core dim. */
static void ga__remapped_shape(char *out, size_t n, int nbatch, int ndim, const int64_t *shape)
{
    size_t len = (size_t)snprintf(out, n, "(");
    for (int d = 0; d < ndim && len < n; d++) {
        if (d < nbatch) len += (size_t)snprintf(out + len, n - len, d ? ",%lld" : "%lld", (long long)shape[d]);
        else len += (size_t)snprintf(out + len, n - len, d ? ",newaxis" : "newaxis");
    }
    if (len < n) snprintf(out + len, n - len, ")");
}

/* matmul's job for a and b (and out's shape, when given), with NumPy's
   errors. */
static ga_status ga__matmul_plan(const char *func, const ga_array *a, const ga_array *b, const ga_array *out,
                                 ga__product *p)
{
    memset(p, 0, sizeof *p);
    p->a = a, p->b = b;
    const ga_array *in[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (in[i]->ndim == 0)
            return ga__error(GA_ERROR_VALUE, func,
                             "matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with "
                             "signature %s requires 1)", i, ga__matmul_signature);
    if (ga__product_dtype(func, a, b, &p->dt) != GA_OK) return ga__t.error;
    const int an = a->ndim, bn = b->ndim;
    p->ar = an >= 2 ? an - 2 : -1, p->ac = an - 1;
    p->br = bn - (bn >= 2 ? 2 : 1), p->bc = bn >= 2 ? bn - 1 : -1;
    const int64_t ka = a->shape[p->ac], kb = b->shape[p->br];
    if (ka != kb)
        return ga__error(GA_ERROR_VALUE, func,
                         "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature %s "
                         "(size %lld is different from %lld)", ga__matmul_signature, (long long)kb, (long long)ka);
    /* the batch: a's and b's dims before their matrices, broadcast */
    int ndims[3] = {an - 1 - (p->ar >= 0), bn - 1 - (p->bc >= 0), 0}, bad = 0;
    const int64_t *shapes[3] = {a->shape, b->shape, NULL};
    if (!ga__broadcast_shapes(2, ndims, shapes, &p->nb, p->bshape, &bad)) {
        char sa[256], sb[256], ra[256], rb[256], req[64];
        ga__format_shape(sa, sizeof sa, an, a->shape);
        ga__format_shape(sb, sizeof sb, bn, b->shape);
        ga__remapped_shape(ra, sizeof ra, ndims[0], an, a->shape);
        ga__remapped_shape(rb, sizeof rb, ndims[1], bn, b->shape);
        int64_t core[2];
        int nc = 0;
        if (p->ar >= 0) core[nc++] = a->shape[p->ar];
        if (p->bc >= 0) core[nc++] = b->shape[p->bc];
        ga__format_shape(req, sizeof req, nc, core);
        return ga__error(GA_ERROR_SHAPE, func,
                         "operands could not be broadcast together with remapped shapes [original->remapped]: "
                         "%s->%s %s->%s  and requested shape %s", sa, ra, sb, rb, req);
    }
    /* the result: batch, then a's rows and b's columns where they exist */
    const int rcore = (p->ar >= 0) + (p->bc >= 0);
    if (out) {
        int on = out->ndim - rcore;
        int64_t both[GA_MAXDIMS];
        int nd = 0;
        ndims[0] = p->nb, ndims[1] = on;
        shapes[0] = p->bshape, shapes[1] = out->shape;
        if (on < 0)
            return ga__error(GA_ERROR_VALUE, func,
                             "matmul: Output operand 0 does not have enough dimensions (has %d, gufunc core with "
                             "signature %s requires %d)", out->ndim, ga__matmul_signature, rcore);
        if (!ga__broadcast_shapes(2, ndims, shapes, &nd, both, &bad) || nd != on ||
            memcmp(both, out->shape, sizeof(int64_t) * (size_t)on) != 0) {
            char so[256], sw[256];
            ga__format_shape(so, sizeof so, out->ndim, out->shape);
            ga__format_shape(sw, sizeof sw, p->nb, p->bshape);
            return ga__error(GA_ERROR_VALUE, func,
                             "non-broadcastable output operand with shape %s doesn't match the broadcast shape %s",
                             so, sw);
        }
        p->nb = on;
        memcpy(p->bshape, out->shape, sizeof(int64_t) * (size_t)on);
        int64_t want[2] = {0, 0};
        int nw = 0;
        if (p->ar >= 0) want[nw++] = a->shape[p->ar];
        if (p->bc >= 0) want[nw++] = b->shape[p->bc];
        for (int i = 0; i < rcore; i++)
            if (out->shape[on + i] != want[i])
                return ga__error(GA_ERROR_VALUE, func,
                                 "matmul: Output operand 0 has a mismatch in its core dimension %d, with gufunc "
                                 "signature %s (size %lld is different from %lld)", i, ga__matmul_signature,
                                 (long long)out->shape[on + i], (long long)want[i]);
    }
    p->rnd = p->nb + rcore;
    memcpy(p->rshape, p->bshape, sizeof(int64_t) * (size_t)p->nb);
    if (p->ar >= 0) p->rshape[p->nb] = a->shape[p->ar];
    if (p->bc >= 0) p->rshape[p->rnd - 1] = b->shape[p->bc];
    p->zr = p->ar >= 0 ? p->nb : -1;
    p->zc = p->bc >= 0 ? p->rnd - 1 : -1;
    return GA_OK;
}

/* A given output: writeable, on the inputs' device, the product's dtype
   casts to it under same_kind. */
static ga_status ga__product_check_out(const char *func, const char *name, const ga__product *p, const ga_array *out)
{
    if (!(out->flags & GA_WRITEABLE)) return ga__error(GA_ERROR_VALUE, func, "output array is read-only");
    if (out->device != p->a->device)
        return ga__error(GA_ERROR_DEVICE, func, "the output is on device %d, the inputs on device %d", out->device,
                         p->a->device);
    if (!ga_can_cast(p->dt, out->dtype, GA_CASTING_SAME_KIND))
        return ga__error(GA_ERROR_TYPE, func,
                         "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule 'same_kind'",
                         name, ga__dtype_names[p->dt], ga__dtype_names[out->dtype]);
    return GA_OK;
}

/* matmul of a and b as an unscoped new array, errors naming func. */
static ga_array *ga__matmul_new(const char *func, const ga_array *a, const ga_array *b)
{
    ga__product p;
    ga_array *r = NULL;
    if (ga__matmul_plan(func, a, b, NULL, &p) != GA_OK || ga__product_run(func, &p, NULL, &r) != GA_OK) return NULL;
    return r;
}

GPUARR_API ga_array *ga_matmul(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_matmul";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    return ga__ret(ga__matmul_new(func, a, b));
}

GPUARR_API ga_status ga_matmul_out(const ga_array *a, const ga_array *b, ga_array *out)
{
    static const char func[] = "ga_matmul_out";
    if (!a) return ga__null_input(func, "a");
    if (!b) return ga__null_input(func, "b");
    if (!out) return ga__null_input(func, "out");
    ga__product p;
    if (ga__matmul_plan(func, a, b, out, &p) != GA_OK || ga__product_check_out(func, "matmul", &p, out) != GA_OK)
        return ga__t.error;
    return ga__product_run(func, &p, out, NULL);
}

/* ufunc u of a (and b) as an unscoped temporary. */
static ga_array *ga__linalg_ufunc(const char *func, ga_ufunc u, ga_operand a, ga_operand b)
{
    ga_operand in[2] = {a, b};
    ga_array *out[2] = {NULL, NULL};
    return ga__ufunc(func, u, in, out, NULL) == GA_OK ? out[0] : NULL;
}

/* where(c, x, y) (x and y arrays or scalars), unscoped. */
static ga_array *ga__where(const char *func, const ga_array *c, ga_operand x, ga_operand y)
{
    ga_operand in[3] = {ga_operand_array(c), x, y};
    ga_array *out[1] = {NULL};
    return ga__ufunc(func, GA_UFUNC_WHERE, in, out, NULL) == GA_OK ? out[0] : NULL;
}

/* --- einsum: the subscripts ------------------------------------------------ */

/* numpy.einsum's subscripts, parsed against the operands' shapes. Labels:
   0-51 the letters in ASCII order (A-Z, a-z); GA__EINSUM_LETTERS + k the
   k-th dim the ellipsis stands for (k = 0 the outermost). */
#define GA__EINSUM_MAX_OPERANDS 32
#define GA__EINSUM_LETTERS 52
#define GA__EINSUM_LABELS (GA__EINSUM_LETTERS + GA_MAXDIMS)
typedef struct ga__einsum {
    int n;                                               /* operands */
    int ndim[GA__EINSUM_MAX_OPERANDS];
    uint8_t label[GA__EINSUM_MAX_OPERANDS][GA_MAXDIMS];  /* each operand dim's label */
    int out_ndim;
    uint8_t out[GA__EINSUM_LABELS];                      /* the result's labels, in order */
    int nbroadcast;                                      /* dims the ellipsis stands for */
    int64_t size[GA__EINSUM_LABELS];                     /* each label's extent, broadcast */
    int count[GA__EINSUM_LABELS];                        /* each label's dims, over the operands */
} ga__einsum;

static int ga__einsum_letter(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
    return -1;
}
static char ga__einsum_char(int label) { return (char)(label < 26 ? 'A' + label : 'a' + (label - 26)); }

/* Whether [p, end) holds a whole ellipsis at p. */
static bool ga__einsum_ellipsis_at(const char *p, const char *end)
{
    return end - p >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '.';
}

static ga_status ga__einsum_invalid(const char *func, char c)
{
    return ga__error(GA_ERROR_VALUE, func, "invalid subscript '%c' in einstein sum subscripts string, subscripts must be letters",
                     c);
}

/* Operand i's term [p, end), character by character as NumPy reads it, into
   its labels: the ellipsis's dims as GA__EINSUM_LABELS + j until the
   ellipsis's length over every operand is known (*nb of them here). */
static ga_status ga__einsum_operand(const char *func, ga__einsum *e, int i, const char *p, const char *end, int ndim,
                                    int *nb)
{
    int t[GA_MAXDIMS], nt = 0, at = -1; /* letters, and where the ellipsis is among them */
    for (; p < end; p++) {
        int l = ga__einsum_letter(*p);
        if (l >= 0) {
            if (nt >= ndim)
                return ga__error(GA_ERROR_VALUE, func,
                                 "einstein sum subscripts string contains too many subscripts for operand %d", i);
            t[nt++] = l;
        } else if (*p == '.') {
            if (at >= 0 || !ga__einsum_ellipsis_at(p, end))
                return ga__error(GA_ERROR_VALUE, func,
                                 "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') "
                                 "in operand %d", i);
            at = nt;
            p += 2;
        } else if (*p != ' ') {
            return ga__einsum_invalid(func, *p);
        }
    }
    if (at < 0 && nt != ndim)
        return ga__error(GA_ERROR_VALUE, func,
                         "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                         "provided to broadcast the extra dimensions.");
    *nb = ndim - nt;
    e->ndim[i] = ndim;
    for (int k = 0, d = 0; k <= nt; k++) {
        if (k == at)
            for (int j = 0; j < *nb; j++) e->label[i][d++] = (uint8_t)(GA__EINSUM_LABELS + j);
        if (k < nt) e->label[i][d++] = (uint8_t)t[k];
    }
    return GA_OK;
}

/* The output term [p, end) as NumPy reads it: each letter once and used by
   an input, the ellipsis at most once (and needed where the inputs'
   ellipses stand for dims). */
static ga_status ga__einsum_output(const char *func, ga__einsum *e, const char *p, const char *end)
{
    bool ellipsis = false;
    for (; p < end; p++) {
        int l = ga__einsum_letter(*p);
        if (l >= 0) {
            if (memchr(p + 1, *p, (size_t)(end - p - 1)))
                return ga__error(GA_ERROR_VALUE, func,
                                 "einstein sum subscripts string includes output subscript '%c' multiple times", *p);
            if (!e->count[l])
                return ga__error(GA_ERROR_VALUE, func,
                                 "einstein sum subscripts string included output subscript '%c' which never appeared in an "
                                 "input", *p);
            e->out[e->out_ndim++] = (uint8_t)l;
        } else if (*p == '.') {
            if (ellipsis || !ga__einsum_ellipsis_at(p, end))
                return ga__error(GA_ERROR_VALUE, func,
                                 "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') "
                                 "in the output");
            ellipsis = true;
            for (int b = 0; b < e->nbroadcast; b++) e->out[e->out_ndim++] = (uint8_t)(GA__EINSUM_LETTERS + b);
            p += 2;
        } else if (*p != ' ') {
            return ga__einsum_invalid(func, *p);
        }
    }
    if (!ellipsis && e->nbroadcast > 0)
        return ga__error(GA_ERROR_VALUE, func,
                         "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                         "provided to broadcast the extra dimensions.");
    return GA_OK;
}

/* NumPy's message for labels whose extents do not broadcast: each operand's
   shape (a repeated label once) and that shape over the result's labels and
   then the others in ASCII order, "newaxis" where it has none (leading ones
   left out). */
static ga_status ga__einsum_mismatch(const char *func, const ga__einsum *e, const int64_t *const *shapes)
{
    uint8_t order[GA__EINSUM_LABELS];
    bool in_out[GA__EINSUM_LABELS] = {false};
    int no = 0;
    for (int k = 0; k < e->out_ndim; k++) in_out[order[no++] = e->out[k]] = true;
    for (int l = 0; l < GA__EINSUM_LETTERS; l++)
        if (e->count[l] && !in_out[l]) order[no++] = (uint8_t)l;
    char text[1024];
    size_t len = 0;
    for (int i = 0; i < e->n && len < sizeof text; i++) {
        int64_t of[GA__EINSUM_LABELS], orig[GA_MAXDIMS];
        bool has[GA__EINSUM_LABELS] = {false};
        int nd = 0;
        for (int d = 0; d < e->ndim[i]; d++)
            if (!has[e->label[i][d]]) {
                has[e->label[i][d]] = true;
                of[e->label[i][d]] = orig[nd++] = shapes[i][d];
            }
        char a[256], b[512];
        ga__format_shape(a, sizeof a, nd, orig);
        size_t bl = (size_t)snprintf(b, sizeof b, "(");
        int first = 0, shown = 0;
        while (first < no && !has[order[first]]) first++;
        for (int k = first; k < no && bl < sizeof b; k++, shown++) {
            if (has[order[k]]) bl += (size_t)snprintf(b + bl, sizeof b - bl, shown ? ",%lld" : "%lld", (long long)of[order[k]]);
            else bl += (size_t)snprintf(b + bl, sizeof b - bl, shown ? ",newaxis" : "newaxis");
        }
        if (bl < sizeof b) snprintf(b + bl, sizeof b - bl, shown == 1 ? ",)" : ")");
        len += (size_t)snprintf(text + len, sizeof text - len, "%s->%s ", a, b);
    }
    return ga__error(GA_ERROR_SHAPE, func, "operands could not be broadcast together with remapped shapes [original->remapped]: %s",
                     text);
}

/* The labels' extents: a repeated label's dims within an operand equal,
   then each label broadcast over the operands (1 stretches). */
static ga_status ga__einsum_extents(const char *func, ga__einsum *e, const int64_t *const *shapes)
{
    for (int l = 0; l < GA__EINSUM_LABELS; l++) e->size[l] = e->count[l] ? 1 : -1;
    bool mismatch = false;
    for (int i = 0; i < e->n; i++) {
        int64_t mine[GA__EINSUM_LABELS];
        bool has[GA__EINSUM_LABELS] = {false};
        for (int d = 0; d < e->ndim[i]; d++) {
            int l = e->label[i][d];
            if (has[l] && mine[l] != shapes[i][d]) {
                char which[32];
                bool view = e->n == 1; /* (NumPy's words where one operand makes a view: nothing summed) */
                for (int k = 0; k < e->ndim[0] && view; k++) view = memchr(e->out, e->label[0][k], (size_t)e->out_ndim) != NULL;
                if (view) snprintf(which, sizeof which, "single operand");
                else snprintf(which, sizeof which, "operand %d", i);
                return ga__error(GA_ERROR_VALUE, func, "dimensions in %s for collapsing index '%c' don't match (%lld != %lld)",
                                 which, ga__einsum_char(l), (long long)mine[l], (long long)shapes[i][d]);
            }
            has[l] = true;
            mine[l] = shapes[i][d];
        }
        for (int l = 0; l < GA__EINSUM_LABELS; l++) {
            if (!has[l] || mine[l] == e->size[l] || mine[l] == 1) continue;
            if (e->size[l] == 1) e->size[l] = mine[l];
            else mismatch = true;
        }
    }
    return mismatch ? ga__einsum_mismatch(func, e, shapes) : GA_OK;
}

/* Parses `subs` for n operands of ndims[i] dims and shapes[i] into e, in
   NumPy's order and words: each operand's term, the output's (or NumPy's
   implicit one: the ellipsis's dims, then the letters used once, in ASCII
   order), the extents. Host only: no arrays, no GPU. */
static ga_status ga__einsum_parse(const char *func, const char *subs, int n, const int *ndims, const int64_t *const *shapes,
                                  ga__einsum *e)
{
    memset(e, 0, sizeof *e);
    if (!subs) return ga__null_input(func, "subscripts");
    if (n < 1 || n > GA__EINSUM_MAX_OPERANDS)
        return ga__error(GA_ERROR_VALUE, func, "einsum takes 1 to %d operands, not %d", GA__EINSUM_MAX_OPERANDS, n);
    e->n = n;
    int nb[GA__EINSUM_MAX_OPERANDS];
    const char *p = subs, *end = subs + strlen(subs);
    for (int i = 0; i < n; i++) {
        if (ndims[i] < 0 || ndims[i] > GA_MAXDIMS) return ga__error(GA_ERROR_VALUE, func, "operand %d has %d dims", i, ndims[i]);
        const char *q = p + strcspn(p, ",-");
        /* (NumPy's words, the other way round) */
        if (i == n - 1 && *q == ',')
            return ga__error(GA_ERROR_VALUE, func, "more operands provided to einstein sum function than specified in the subscripts string");
        if (i < n - 1 && *q != ',')
            return ga__error(GA_ERROR_VALUE, func, "fewer operands provided to einstein sum function than specified in the subscripts string");
        if (ga__einsum_operand(func, e, i, p, q, ndims[i], &nb[i]) != GA_OK) return ga__t.error;
        e->nbroadcast = GA__MAX(e->nbroadcast, nb[i]);
        p = i < n - 1 ? q + 1 : q;
    }
    /* the ellipses' dims aligned at the last */
    for (int i = 0; i < n; i++)
        for (int d = 0; d < e->ndim[i]; d++) {
            int l = e->label[i][d];
            if (l >= GA__EINSUM_LABELS) l = e->label[i][d] = (uint8_t)(GA__EINSUM_LETTERS + e->nbroadcast - nb[i] + (l - GA__EINSUM_LABELS));
            e->count[l]++;
        }
    if (*p == 0) {
        for (int k = 0; k < e->nbroadcast; k++) e->out[e->out_ndim++] = (uint8_t)(GA__EINSUM_LETTERS + k);
        for (int l = 0; l < GA__EINSUM_LETTERS; l++)
            if (e->count[l] == 1) e->out[e->out_ndim++] = (uint8_t)l;
    } else if (p[0] != '-' || p[1] != '>') {
        return ga__error(GA_ERROR_VALUE, func, "einstein sum subscript string does not contain proper '->' output specified");
    } else if (ga__einsum_output(func, e, p + 2, end) != GA_OK) {
        return ga__t.error;
    }
    return ga__einsum_extents(func, e, shapes);
}

/* --- einsum: the contractions --------------------------------------------- */

/* An operand of the contraction: an array whose dims carry distinct labels. */
typedef struct ga__eterm {
    ga_array *a; /* owned */
    int nl;
    uint8_t label[GA__EINSUM_LABELS];
} ga__eterm;

/* Whether label l is needed beyond terms p and q of the n terms: by the
   result or by another term. */
static bool ga__eterm_needed(const ga__einsum *e, const ga__eterm *t, int n, int p, int q, int l)
{
    if (memchr(e->out, l, (size_t)e->out_ndim)) return true;
    for (int i = 0; i < n; i++)
        if (i != p && i != q && t[i].a && memchr(t[i].label, l, (size_t)t[i].nl)) return true;
    return false;
}

/* Term i of the parse, as a view: a repeated label's dims become one (the
   diagonal: their strides added), in the order of first appearance; and
   in dtype dt. */
static ga_status ga__eterm_of(const char *func, const ga__einsum *e, int i, const ga_array *x, ga_dtype dt, ga__eterm *t)
{
    ga__layout l;
    l.ndim = 0;
    l.offset = 0;
    t->nl = 0;
    for (int d = 0; d < x->ndim; d++) {
        const uint8_t *at = (const uint8_t *)memchr(t->label, e->label[i][d], (size_t)t->nl);
        if (at) {
            l.strides[at - t->label] += x->strides[d];
            continue;
        }
        t->label[t->nl++] = e->label[i][d];
        l.shape[l.ndim] = x->shape[d];
        l.strides[l.ndim++] = x->strides[d];
    }
    ga_array *v = ga__view(func, x, &l, false);
    t->a = v && v->dtype != dt ? ga__contiguous_copy(func, v, dt) : v;
    if (t->a != v) ga_release(v);
    return t->a ? GA_OK : ga__t.error;
}

/* Sums term `self`'s labels that nothing else needs (with NumPy's
   dtype: dt's own sum). */
static ga_status ga__eterm_sum_unneeded(const char *func, const ga__einsum *e, ga__eterm *t, int n, int self, ga_dtype dt)
{
    ga__eterm *x = &t[self];
    int axes[GA_MAXDIMS], naxes = 0, kept = 0;
    for (int d = 0; d < x->nl; d++) {
        if (ga__eterm_needed(e, t, n, self, self, x->label[d])) x->label[kept++] = x->label[d];
        else axes[naxes++] = d;
    }
    if (!naxes) return GA_OK;
    ga_array *s = NULL;
    if (ga__reduce(func, GA_REDUCE_SUM, x->a, naxes, axes, dt, &s, false, NULL) != GA_OK) return ga__t.error;
    ga_release(x->a);
    x->a = s;
    x->nl = kept;
    return GA_OK;
}

/* Term x's dims in the order `want` (labels x holds), broadcast to the
   extents e gives each label where `stretch` says, as a view. */
static ga_array *ga__eterm_arranged(const char *func, const ga__einsum *e, const ga__eterm *x, const uint8_t *want, int nw,
                                    const bool *stretch)
{
    int perm[GA_MAXDIMS];
    int64_t shape[GA_MAXDIMS];
    if (nw > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "einsum: a result of %d dims (at most %d)", nw, GA_MAXDIMS);
        return NULL;
    }
    if (nw != x->nl) {
        ga__error(GA_ERROR_STATE, func, "einsum: a term of %d labels arranged as %d", x->nl, nw);
        return NULL;
    }
    for (int k = 0; k < nw; k++) {
        const uint8_t *at = (const uint8_t *)memchr(x->label, want[k], (size_t)x->nl);
        if (!at) {
            ga__error(GA_ERROR_STATE, func, "einsum: a term lacks label %d", want[k]);
            return NULL;
        }
        perm[k] = (int)(at - x->label);
        shape[k] = stretch[k] ? e->size[want[k]] : x->a->shape[perm[k]];
    }
    ga_array *p = ga__permuted(func, x->a, perm);
    ga_array *b = p ? ga__broadcast_view(func, p, nw, shape) : NULL;
    if (p && !b) ga__error(GA_ERROR_STATE, func, "einsum: a label's extents do not broadcast");
    ga_release(p);
    return b;
}

/* Contracts terms i and j into i (j emptied): the labels both hold and
   something else needs are the batch, those both hold and nothing else
   needs are summed (a GEMM's k), the others are a's rows and b's columns:
   a (batch, rows, k) @ b (batch, k, columns), each reshaped once. */
static ga_status ga__eterm_contract(const char *func, const ga__einsum *e, ga__eterm *t, int n, int i, int j)
{
    ga__eterm *x = &t[i], *y = &t[j];
    uint8_t batch[GA__EINSUM_LABELS], rows[GA__EINSUM_LABELS], cols[GA__EINSUM_LABELS], sum[GA__EINSUM_LABELS];
    int nb = 0, nr = 0, nc = 0, ns = 0;
    for (int d = 0; d < x->nl; d++) {
        int l = x->label[d];
        bool both = memchr(y->label, l, (size_t)y->nl) != NULL;
        if (!both) rows[nr++] = (uint8_t)l;
        else if (ga__eterm_needed(e, t, n, i, j, l)) batch[nb++] = (uint8_t)l;
        else sum[ns++] = (uint8_t)l;
    }
    for (int d = 0; d < y->nl; d++)
        if (!memchr(x->label, y->label[d], (size_t)x->nl)) cols[nc++] = y->label[d];
    /* a as (batch..., rows, k) and b as (batch..., k, columns) */
    uint8_t wa[GA__EINSUM_LABELS], wb[GA__EINSUM_LABELS];
    bool sa[GA__EINSUM_LABELS], sb[GA__EINSUM_LABELS];
    int na = 0, nbb = 0;
    for (int k = 0; k < nb; k++) wa[na] = wb[nbb] = batch[k], sa[na++] = false, sb[nbb++] = false;
    for (int k = 0; k < nr; k++) wa[na] = rows[k], sa[na++] = false;
    for (int k = 0; k < ns; k++) wa[na] = wb[nbb] = sum[k], sa[na++] = true, sb[nbb++] = true;
    for (int k = 0; k < nc; k++) wb[nbb] = cols[k], sb[nbb++] = false;
    ga__temps tt = {{NULL}, 0};
    ga_array *av = ga__temp(&tt, ga__eterm_arranged(func, e, x, wa, na, sa));
    ga_array *bv = av ? ga__temp(&tt, ga__eterm_arranged(func, e, y, wb, nbb, sb)) : NULL;
    if (!bv) return ga__temps_fail(&tt);
    int64_t s3a[GA_MAXDIMS + 2], s3b[GA_MAXDIMS + 2], m = 1, k = 1, c = 1;
    for (int q = 0; q < nb; q++) s3a[q] = av->shape[q], s3b[q] = bv->shape[q];
    for (int q = 0; q < nr; q++) m *= av->shape[nb + q];
    for (int q = 0; q < ns; q++) k *= av->shape[nb + nr + q];
    for (int q = 0; q < nc; q++) c *= bv->shape[nb + ns + q];
    s3a[nb] = m, s3a[nb + 1] = k, s3b[nb] = k, s3b[nb + 1] = c;
    ga_array *a3 = ga__temp(&tt, ga__reshape(func, av, nb + 2, s3a));
    ga_array *b3 = a3 ? ga__temp(&tt, ga__reshape(func, bv, nb + 2, s3b)) : NULL;
    ga_array *r = b3 ? ga__matmul_new(func, a3, b3) : NULL;
    if (!r) return ga__temps_fail(&tt);
    /* (batch..., rows..., columns...) */
    int64_t shape[GA__EINSUM_LABELS];
    int nd = 0;
    for (int q = 0; q < nb; q++) shape[nd++] = r->shape[q];
    for (int q = 0; q < nr; q++) shape[nd++] = av->shape[nb + q];
    for (int q = 0; q < nc; q++) shape[nd++] = bv->shape[nb + ns + q];
    ga_array *out = nd <= GA_MAXDIMS ? ga__reshape(func, r, nd, shape) : NULL;
    if (nd > GA_MAXDIMS) ga__error(GA_ERROR_VALUE, func, "einsum: an intermediate result of %d dims (at most %d)", nd, GA_MAXDIMS);
    ga_release(r);
    ga__temps_release(&tt);
    if (!out) return ga__t.error;
    ga_release(x->a);
    ga_release(y->a);
    y->a = NULL;
    x->a = out;
    x->nl = 0;
    for (int q = 0; q < nb; q++) x->label[x->nl++] = batch[q];
    for (int q = 0; q < nr; q++) x->label[x->nl++] = rows[q];
    for (int q = 0; q < nc; q++) x->label[x->nl++] = cols[q];
    return GA_OK;
}

/* The elements of the result of contracting terms i and j (for the
   greedy order: the smallest first). */
static double ga__eterm_pair_size(const ga__einsum *e, const ga__eterm *t, int n, int i, int j)
{
    double size = 1;
    bool seen[GA__EINSUM_LABELS] = {false};
    const ga__eterm *two[2] = {&t[i], &t[j]};
    for (int s = 0; s < 2; s++)
        for (int d = 0; d < two[s]->nl; d++) {
            int l = two[s]->label[d];
            bool both = memchr(two[1 - s]->label, l, (size_t)two[1 - s]->nl) != NULL;
            if (seen[l] || (both && !ga__eterm_needed(e, t, n, i, j, l))) continue;
            seen[l] = true;
            size *= (double)two[s]->a->shape[d];
        }
    return size;
}

/* The terms of parse e over operands x, contracted pairwise in a greedy
   order (the pair with the smallest result first), each label summed as
   soon as nothing else needs it; the last term arranged in the result's
   order and extents, copied into a new array. */
static ga_array *ga__einsum_run(const char *func, const ga__einsum *e, const ga_array *const *x, ga_dtype dt)
{
    ga__eterm t[GA__EINSUM_MAX_OPERANDS];
    memset(t, 0, sizeof t);
    ga_status st = GA_OK;
    for (int i = 0; i < e->n && st == GA_OK; i++) st = ga__eterm_of(func, e, i, x[i], dt, &t[i]);
    for (int i = 0; i < e->n && st == GA_OK; i++) st = ga__eterm_sum_unneeded(func, e, t, e->n, i, dt);
    for (int live = e->n; live > 1 && st == GA_OK; live--) {
        int bi = -1, bj = -1;
        double best = 0;
        for (int i = 0; i < e->n; i++)
            for (int j = i + 1; j < e->n; j++) {
                if (!t[i].a || !t[j].a) continue;
                double s = ga__eterm_pair_size(e, t, e->n, i, j);
                if (bi < 0 || s < best) bi = i, bj = j, best = s;
            }
        st = ga__eterm_contract(func, e, t, e->n, bi, bj);
        if (st == GA_OK) st = ga__eterm_sum_unneeded(func, e, t, e->n, bi, dt);
    }
    ga_array *r = NULL;
    if (st == GA_OK) {
        int f = 0;
        while (!t[f].a) f++;
        bool stretch[GA__EINSUM_LABELS];
        for (int k = 0; k < e->out_ndim; k++) stretch[k] = true;
        ga_array *v = ga__eterm_arranged(func, e, &t[f], e->out, e->out_ndim, stretch);
        r = v ? ga__contiguous_copy(func, v, dt) : NULL;
        ga_release(v);
    }
    for (int i = 0; i < e->n; i++) ga_release(t[i].a);
    return r;
}

GPUARR_API ga_array *ga_einsum(const char *subscripts, int n, const ga_array *const *operands)
{
    static const char func[] = "ga_einsum";
    if (!operands && n > 0) { ga__null_input(func, "operands"); return NULL; }
    int ndims[GA__EINSUM_MAX_OPERANDS];
    const int64_t *shapes[GA__EINSUM_MAX_OPERANDS];
    ga_dtype dt = GA_DTYPE_INVALID;
    for (int i = 0; i < n && i < GA__EINSUM_MAX_OPERANDS; i++) {
        if (!operands[i]) {
            char what[24];
            snprintf(what, sizeof what, "operand %d", i);
            ga__null_input(func, what);
            return NULL;
        }
        ndims[i] = operands[i]->ndim;
        shapes[i] = operands[i]->shape;
        dt = i ? ga_promote_types(dt, operands[i]->dtype) : operands[i]->dtype;
        if (operands[i]->device != operands[0]->device) {
            ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", operands[0]->device,
                      operands[i]->device);
            return NULL;
        }
    }
    ga__einsum e;
    if (ga__einsum_parse(func, subscripts, n, ndims, shapes, &e) != GA_OK) return NULL;
    if (e.out_ndim > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "einsum: a result of %d dims (at most %d)", e.out_ndim, GA_MAXDIMS);
        return NULL;
    }
    if (dt == GA_DTYPE_INVALID || !ga__dtype_valid(dt)) {
        ga__error(GA_ERROR_TYPE, func, "einsum: the operands have no common dtype");
        return NULL;
    }
    if (ga__bind(func, operands[0]->device) != GA_OK) return NULL;
    return ga__ret(ga__einsum_run(func, &e, operands, dt));
}

/* --- dot, vdot, inner, outer ------------------------------------------------- */

/* NumPy's "shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)". */
static ga_status ga__not_aligned(const char *func, const ga_array *a, int da, const ga_array *b, int db)
{
    char sa[256], sb[256];
    ga__format_shape(sa, sizeof sa, a->ndim, a->shape);
    ga__format_shape(sb, sizeof sb, b->ndim, b->shape);
    return ga__error(GA_ERROR_VALUE, func, "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)", sa, sb,
                     (long long)a->shape[da], da, (long long)b->shape[db], db);
}

/* x as a 2-d (rows, cols) array: a view where its dims allow, else a copy
   (ga_reshape's rule); rows -1 for all but cols. */
static ga_array *ga__as_matrix(const char *func, ga__temps *t, const ga_array *x, int64_t cols)
{
    const int64_t shape[2] = {-1, cols};
    if (cols == 0) { /* reshape cannot infer -1 beside 0 */
        int64_t rows = 1;
        for (int d = 0; d + 1 < x->ndim; d++) rows *= x->shape[d];
        const int64_t s[2] = {rows, 0};
        return ga__temp(t, ga__reshape(func, x, 2, s));
    }
    return ga__temp(t, ga__reshape(func, x, 2, shape));
}

/* dot of an N-d a and an M-d b (N, M >= 2): a as (P, k) times each of
   b's Q matrices (k, n), into a result (P, Q, n): matrix q is rows P,
   Q n elements apart, at n q. Its shape is a.shape[:-1] + b.shape[:-2] +
   (n,). */
static ga_array *ga__dot_nd(const char *func, const ga_array *a, const ga_array *b, ga_dtype dt)
{
    const int64_t k = a->shape[a->ndim - 1], n = b->shape[b->ndim - 1];
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga__temps t = {{NULL}, 0};
    int64_t q = 1;
    for (int d = 0; d + 2 < b->ndim; d++) q *= b->shape[d];
    const int64_t s3[3] = {q, k, n};
    ga_array *a2 = ga__as_matrix(func, &t, a, k);
    ga_array *b3 = a2 ? ga__temp(&t, ga__reshape(func, b, 3, s3)) : NULL;
    ga__gemm_operand x, y, z;
    if (!b3 || ga__gemm_input(func, a2, dt, 0, 1, 1, &t, &x) != GA_OK ||
        ga__gemm_input(func, b3, dt, 1, 2, 1, &t, &y) != GA_OK) {
        ga__temps_fail(&t);
        return NULL;
    }
    const int64_t r3[3] = {a2->shape[0], q, n};
    ga_array *c = ga__temp(&t, ga__array_new(func, a->device, 3, r3, dt));
    if (!c) { ga__temps_fail(&t); return NULL; }
    memset(&z, 0, sizeof z);
    z.data = c->data, z.rows = r3[0], z.cols = n, z.rs = q * n, z.cs = 1;
    z.batch[0] = n * (int64_t)ga__dtype_sizes[dt];
    ga_status st = GA_OK;
    if (c->size > 0) {
        ga__value16 zero = {{0, 0}};
        st = k == 0 ? ga__fill(func, c, &zero) : ga__gemm(func, a->device, dt, 1, &q, &x, &y, &z);
    }
    int64_t shape[GA_MAXDIMS * 2];
    int nd = 0;
    for (int d = 0; d + 1 < a->ndim; d++) shape[nd++] = a->shape[d];
    for (int d = 0; d + 2 < b->ndim; d++) shape[nd++] = b->shape[d];
    shape[nd++] = n;
    ga_array *r = st == GA_OK ? ga__reshape(func, c, nd, shape) : NULL; /* (more than 32 dims: its error) */
    ga__temps_release(&t);
    return r;
}

/* numpy.multiply of a and b, errors naming `func` (dot, inner or outer
   with a 0-d input). */
static ga_array *ga__product_multiply(const char *func, const ga_array *a, const ga_array *b)
{
    ga_operand in[2] = {ga_operand_array(a), ga_operand_array(b)};
    return ga__ufunc_new(func, GA_UFUNC_MULTIPLY, in, NULL);
}

GPUARR_API ga_array *ga_dot(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_dot";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    if (a->ndim == 0 || b->ndim == 0) return ga__product_multiply(func, a, b);
    const int da = a->ndim - 1, db = b->ndim >= 2 ? b->ndim - 2 : 0;
    if (a->shape[da] != b->shape[db]) { ga__not_aligned(func, a, da, b, db); return NULL; }
    ga_dtype dt;
    if (ga__product_dtype(func, a, b, &dt) != GA_OK) return NULL;
    if (a->ndim == 1 || b->ndim == 1) { /* matmul's 1-d rules are dot's */
        return ga__ret(ga__matmul_new(func, a, b));
    }
    return ga__ret(ga__dot_nd(func, a, b, dt));
}

GPUARR_API ga_array *ga_inner(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_inner";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    if (a->ndim == 0 || b->ndim == 0) return ga__product_multiply(func, a, b);
    const int64_t k = a->shape[a->ndim - 1];
    if (k != b->shape[b->ndim - 1]) { ga__not_aligned(func, a, a->ndim - 1, b, b->ndim - 1); return NULL; }
    ga_dtype dt;
    if (ga__product_dtype(func, a, b, &dt) != GA_OK) return NULL;
    /* (P, k) times the transpose of (Q, k), as a product of 2-d arrays */
    ga__temps t = {{NULL}, 0};
    ga_array *a2 = ga__as_matrix(func, &t, a, k), *b2 = a2 ? ga__as_matrix(func, &t, b, k) : NULL;
    ga_array *bt = b2 ? ga__temp(&t, ga__transpose(func, b2, NULL)) : NULL;
    if (!bt) { ga__temps_fail(&t); return NULL; }
    ga_array *r = ga__matmul_new(func, a2, bt);
    if (!r) {
        ga__temps_fail(&t);
        return NULL;
    }
    int64_t shape[GA_MAXDIMS * 2];
    int nd = 0;
    for (int d = 0; d + 1 < a->ndim; d++) shape[nd++] = a->shape[d];
    for (int d = 0; d + 1 < b->ndim; d++) shape[nd++] = b->shape[d];
    ga_array *out = ga__reshape(func, r, nd, shape);
    ga_release(r);
    ga__temps_release(&t);
    return ga__ret(out);
}

GPUARR_API ga_array *ga_vdot(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_vdot";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    if (a->size != b->size) {
        ga__error(GA_ERROR_VALUE, func, "cannot reshape array of size %lld into shape (%lld,)", (long long)b->size,
                  (long long)a->size);
        return NULL;
    }
    ga_dtype dt;
    if (ga__product_dtype(func, a, b, &dt) != GA_OK) return NULL;
    const int64_t n = a->size;
    ga__temps t = {{NULL}, 0};
    ga_array *x = ga__temp(&t, ga__reshape(func, a, 1, &n));
    ga_array *y = x ? ga__temp(&t, ga__reshape(func, b, 1, &n)) : NULL;
    if (y && ga_dtype_kind(x->dtype) == 'c')
        x = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(x), ga_operand_array(NULL)));
    ga_array *r = x && y ? ga__matmul_new(func, x, y) : NULL;
    ga__temps_release(&t);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_outer(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_outer";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    const int64_t sa[2] = {a->size, 1}, sb[2] = {1, b->size};
    ga__temps t = {{NULL}, 0};
    ga_array *x = ga__temp(&t, ga__reshape(func, a, 2, sa));
    ga_array *y = x ? ga__temp(&t, ga__reshape(func, b, 2, sb)) : NULL;
    ga_array *r = y ? ga__product_multiply(func, x, y) : NULL;
    ga__temps_release(&t);
    return r;
}

static ga_array *ga__inv(const char *func, const ga_array *a); /* (below, with the solvers) */

/* --- products built on matmul: tensordot, vecdot, matvec, vecmat, multi_dot,
       matrix_power ---------------------------------------------------------- */

/* a's dims in the order perm, reshaped to the 2-d (rows, cols) whose rows
   are the first `split` of them: a view where the layout allows. */
static ga_array *ga__as_2d(const char *func, const ga_array *a, const int *perm, int split)
{
    int64_t s2[2] = {1, 1};
    for (int d = 0; d < a->ndim; d++) s2[d < split ? 0 : 1] *= a->shape[perm[d]];
    ga_array *p = ga__permuted(func, a, perm);
    ga_array *r = p ? ga__reshape(func, p, 2, s2) : NULL;
    ga_release(p);
    return r;
}

GPUARR_API ga_array *ga_tensordot_axes(const ga_array *a, const ga_array *b, int n, const int *a_axes, const int *b_axes)
{
    static const char func[] = "ga_tensordot";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    if (n < 0 || n > a->ndim || n > b->ndim || (n > 0 && (!a_axes || !b_axes))) {
        ga__error(GA_ERROR_VALUE, func, "shape-mismatch for sum");
        return NULL;
    }
    bool ra[GA_MAXDIMS] = {false}, rb[GA_MAXDIMS] = {false};
    int pa[GA_MAXDIMS], pb[GA_MAXDIMS], xa[GA_MAXDIMS], xb[GA_MAXDIMS], na = 0, nb = 0;
    for (int k = 0; k < n; k++) {
        xa[k] = a_axes[k], xb[k] = b_axes[k];
        if (ga__normalize_axis(func, "", &xa[k], a->ndim) != GA_OK || ga__normalize_axis(func, "", &xb[k], b->ndim) != GA_OK)
            return NULL;
        if (ra[xa[k]] || rb[xb[k]] || a->shape[xa[k]] != b->shape[xb[k]]) {
            ga__error(GA_ERROR_VALUE, func, "shape-mismatch for sum");
            return NULL;
        }
        ra[xa[k]] = rb[xb[k]] = true;
    }
    /* a as (its other dims, the summed ones in the order given); b as (the
       summed ones, its other dims) */
    for (int d = 0; d < a->ndim; d++)
        if (!ra[d]) pa[na++] = d;
    for (int k = 0; k < n; k++) pa[na + k] = xa[k], pb[k] = xb[k];
    for (int d = 0; d < b->ndim; d++)
        if (!rb[d]) pb[n + nb++] = d;
    ga_dtype dt;
    if (ga__product_dtype(func, a, b, &dt) != GA_OK) return NULL;
    ga__temps t = {{NULL}, 0};
    ga_array *a2 = ga__temp(&t, ga__as_2d(func, a, pa, na)), *b2 = a2 ? ga__temp(&t, ga__as_2d(func, b, pb, n)) : NULL;
    ga_array *r = b2 ? ga__matmul_new(func, a2, b2) : NULL;
    if (!r) {
        ga__temps_fail(&t);
        return NULL;
    }
    int64_t shape[GA_MAXDIMS * 2];
    int nd = 0;
    for (int k = 0; k < na; k++) shape[nd++] = a->shape[pa[k]];
    for (int k = 0; k < nb; k++) shape[nd++] = b->shape[pb[n + k]];
    ga_array *out = nd <= GA_MAXDIMS ? ga__reshape(func, r, nd, shape) : NULL;
    if (nd > GA_MAXDIMS) ga__error(GA_ERROR_VALUE, func, "the result would have %d dims (at most %d)", nd, GA_MAXDIMS);
    ga_release(r);
    ga__temps_release(&t);
    return ga__ret(out);
}

GPUARR_API ga_array *ga_tensordot(const ga_array *a, const ga_array *b, int n)
{
    int xa[GA_MAXDIMS], xb[GA_MAXDIMS];
    if (!a || !b || n < 0 || n > a->ndim || n > b->ndim) /* its errors */
        return ga_tensordot_axes(a, b, n < 0 ? n : GA_MAXDIMS + 1, NULL, NULL);
    for (int k = 0; k < n; k++) xa[k] = a->ndim - n + k, xb[k] = k;
    return ga_tensordot_axes(a, b, n, xa, xb);
}

/* A view of a with a dim of 1 inserted before its dim `at` (0 <= at <=
   ndim). */
static ga_array *ga__unit_dim(const char *func, const ga_array *a, int at)
{
    ga__layout l;
    l.ndim = a->ndim + 1;
    l.offset = 0;
    for (int d = 0, s = 0; d < l.ndim; d++) {
        bool unit = d == at;
        l.shape[d] = unit ? 1 : a->shape[s];
        l.strides[d] = unit ? 0 : a->strides[s];
        if (!unit) s++;
    }
    return ga__view(func, a, &l, false);
}

/* The gufuncs whose core is a product of a vector: vecdot (n),(n)->() with
   a conjugated, matvec (m,n),(n)->(m), vecmat (n),(n,m)->(m) with a
   conjugated. a_vec / b_vec: that operand's core is a vector (its last
   dim); the others' is a matrix (their last two). One matmul, a vector
   being a row (1, n) or a column (n, 1); NumPy's gufunc errors. */
static ga_array *ga__vector_product(const char *func, const char *name, const char *signature, const ga_array *a,
                                    const ga_array *b, bool a_vec, bool b_vec)
{
    const ga_array *in[2] = {a, b};
    const int core[2] = {a_vec ? 1 : 2, b_vec ? 1 : 2};
    for (int i = 0; i < 2; i++)
        if (in[i]->ndim < core[i]) {
            ga__error(GA_ERROR_VALUE, func, "%s: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                      "signature %s requires %d)", name, i, in[i]->ndim, signature, core[i]);
            return NULL;
        }
    const int64_t n = a->shape[a->ndim - 1], nb = b->shape[b->ndim - (b_vec ? 1 : 2)];
    if (n != nb) {
        ga__error(GA_ERROR_VALUE, func, "%s: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature %s "
                  "(size %lld is different from %lld)", name, signature, (long long)nb, (long long)n);
        return NULL;
    }
    int ndims[2] = {a->ndim - core[0], b->ndim - core[1]}, nd = 0, bad = 0;
    const int64_t *shapes[2] = {a->shape, b->shape};
    int64_t loop[GA_MAXDIMS];
    if (!ga__broadcast_shapes(2, ndims, shapes, &nd, loop, &bad)) {
        /* NumPy's words: each operand's loop dims, then "newaxis" for the
           result's core dim (matvec, vecmat), and that core's extent */
        char sa[256], sb[256], la[300], lb[300], req[64] = "()";
        const int out_core = a_vec && b_vec ? 0 : 1;
        const int64_t m = a_vec ? b->shape[b->ndim - 1] : a->shape[a->ndim - 2];
        ga__format_shape(sa, sizeof sa, a->ndim, a->shape);
        ga__format_shape(sb, sizeof sb, b->ndim, b->shape);
        ga__remapped_shape(la, sizeof la, ndims[0], ndims[0] + out_core, a->shape);
        ga__remapped_shape(lb, sizeof lb, ndims[1], ndims[1] + out_core, b->shape);
        if (out_core) snprintf(req, sizeof req, "(%lld)", (long long)m);
        else {
            if (ndims[0] == 1) snprintf(la + strlen(la) - 1, sizeof la - strlen(la) + 1, ",)");
            if (ndims[1] == 1) snprintf(lb + strlen(lb) - 1, sizeof lb - strlen(lb) + 1, ",)");
        }
        ga__error(GA_ERROR_SHAPE, func, "operands could not be broadcast together with remapped shapes [original->remapped]: "
                  "%s->%s %s->%s  and requested shape %s", sa, la, sb, lb, req);
        return NULL;
    }
    ga_dtype dt;
    if (ga__product_dtype(func, a, b, &dt) != GA_OK) return NULL;
    ga__temps t = {{NULL}, 0};
    if (a_vec && ga_dtype_kind(a->dtype) == 'c')
        a = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(a), ga_operand_array(NULL)));
    ga_array *x = a && a_vec ? ga__temp(&t, ga__unit_dim(func, a, a->ndim - 1)) : (ga_array *)a;
    ga_array *y = x && b_vec ? ga__temp(&t, ga__unit_dim(func, b, b->ndim)) : (ga_array *)b;
    ga_array *r = x && y ? ga__matmul_new(func, x, y) : NULL;
    if (!r) {
        ga__temps_fail(&t);
        return NULL;
    }
    /* the result without the unit dims of the vectors */
    int64_t shape[GA_MAXDIMS];
    int rn = 0;
    for (int d = 0; d < r->ndim; d++) {
        bool row_unit = a_vec && d == r->ndim - 2, col_unit = b_vec && d == r->ndim - 1;
        if (!row_unit && !col_unit) shape[rn++] = r->shape[d];
    }
    ga_array *out = ga__reshape(func, r, rn, shape);
    ga_release(r);
    ga__temps_release(&t);
    return out;
}

GPUARR_API ga_array *ga_vecdot(const ga_array *a, const ga_array *b, int axis)
{
    static const char func[] = "ga_vecdot";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    const ga_array *in[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (in[i]->ndim == 0) {
            ga__error(GA_ERROR_VALUE, func, "vecdot: Input operand %d does not have enough dimensions (has 0, gufunc core "
                      "with signature (n),(n)->() requires 1)", i);
            return NULL;
        }
    int xa = axis, xb = axis; /* (the axis of each: NumPy's gufunc axis) */
    if (ga__normalize_axis(func, "", &xa, a->ndim) != GA_OK || ga__normalize_axis(func, "", &xb, b->ndim) != GA_OK)
        return NULL;
    ga_array *x = ga__axis_last(func, a, xa), *y = x ? ga__axis_last(func, b, xb) : NULL;
    ga_array *r = y ? ga__vector_product(func, "vecdot", "(n),(n)->()", x, y, true, true) : NULL;
    ga_release(x), ga_release(y);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_linalg_vecdot(const ga_array *a, const ga_array *b, int axis)
{
    return ga_vecdot(a, b, axis);
}

GPUARR_API ga_array *ga_matvec(const ga_array *a, const ga_array *x)
{
    static const char func[] = "ga_matvec";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!x) { ga__null_input(func, "x"); return NULL; }
    return ga__ret(ga__vector_product(func, "matvec", "(m,n),(n)->(m)", a, x, false, true));
}

GPUARR_API ga_array *ga_vecmat(const ga_array *x, const ga_array *a)
{
    static const char func[] = "ga_vecmat";
    if (!x) { ga__null_input(func, "x"); return NULL; }
    if (!a) { ga__null_input(func, "a"); return NULL; }
    return ga__ret(ga__vector_product(func, "vecmat", "(n),(n,m)->(m)", x, a, true, false));
}

/* numpy.linalg.LinAlgError where a stack of square matrices is needed. */
static ga_status ga__linalg_square(const char *func, const ga_array *a)
{
    if (a->ndim < 2)
        return ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be at least two-dimensional",
                         a->ndim);
    if (a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
        return ga__error(GA_ERROR_LINALG, func, "Last 2 dimensions of the array must be square");
    return GA_OK;
}

GPUARR_API ga_array *ga_linalg_matrix_power(const ga_array *a, int64_t n)
{
    static const char func[] = "ga_linalg_matrix_power";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (ga__linalg_square(func, a) != GA_OK) return NULL;
    ga_array *inverse = NULL;
    if (n < 0) { /* inv(a) to the power -n */
        if (n == INT64_MIN) {
            ga__error(GA_ERROR_VALUE, func, "the power %lld is out of range", (long long)n);
            return NULL;
        }
        inverse = ga__inv(func, a);
        if (!inverse) return NULL;
        a = inverse;
        n = -n;
    }
    if (n == 0) { /* the identity in a's dtype, over the stack (NumPy's result[...] = eye) */
        const int64_t m = a->shape[a->ndim - 1];
        ga_array *e = ga__eye(func, m, m, 0, a->dtype);
        ga_array *b = e ? ga__broadcast_view(func, e, a->ndim, a->shape) : NULL;
        ga_array *r = b ? ga__contiguous_copy(func, b, a->dtype) : NULL;
        ga_release(b), ga_release(e);
        return ga__ret(r);
    }
    /* binary powers: square, multiply where the bit is set */
    ga_array *result = NULL, *z = ga_retain((ga_array *)a);
    while (z) {
        if (n & 1) {
            ga_array *next = result ? ga__matmul_new(func, result, z) : ga_retain(z);
            ga_release(result);
            result = next;
            if (!result) break;
        }
        n >>= 1;
        if (!n) break;
        ga_array *sq = ga__matmul_new(func, z, z);
        ga_release(z);
        z = sq;
    }
    if (!z && n) { /* a squaring failed: no partial product */
        ga_release(result);
        result = NULL;
    }
    ga_release(z);
    if (result && result == a && !inverse) { /* n == 1: a copy */
        ga_array *c = ga__contiguous_copy(func, result, result->dtype);
        ga_release(result);
        result = c;
    }
    ga_release(inverse);
    return ga__ret(result);
}

/* --- multi_dot, kron ----------------------------------------------------------- */

/* The product of arrays[i..j] in the order `split` gives (the matrix-chain
   order), unscoped. */
static ga_array *ga__chain_product(const char *func, ga_array *const *m, const int *split, int n, int i, int j)
{
    if (i == j) return ga_retain(m[i]);
    int k = split[i * n + j];
    ga_array *l = ga__chain_product(func, m, split, n, i, k);
    ga_array *r = l ? ga__chain_product(func, m, split, n, k + 1, j) : NULL;
    ga_array *p = r ? ga__matmul_new(func, l, r) : NULL;
    ga_release(l), ga_release(r);
    return p;
}

GPUARR_API ga_array *ga_linalg_multi_dot(int n, const ga_array *const *arrays)
{
    static const char func[] = "ga_linalg_multi_dot";
    if (n < 2) {
        ga__error(GA_ERROR_VALUE, func, "Expecting at least two arrays.");
        return NULL;
    }
    if (!arrays) { ga__null_input(func, "arrays"); return NULL; }
    for (int i = 0; i < n; i++)
        if (!arrays[i]) {
            char what[24];
            snprintf(what, sizeof what, "arrays[%d]", i);
            ga__null_input(func, what);
            return NULL;
        }
    if (n == 2) return ga_dot(arrays[0], arrays[1]); /* as NumPy */
    ga_array **m = (ga_array **)GPUARR_MALLOC(sizeof *m * (size_t)n);
    int64_t *cost = (int64_t *)GPUARR_MALLOC(sizeof *cost * (size_t)n * (size_t)n);
    int *split = (int *)GPUARR_MALLOC(sizeof *split * (size_t)n * (size_t)n);
    int64_t *p = (int64_t *)GPUARR_MALLOC(sizeof *p * (size_t)(n + 1));
    ga_array *r = NULL;
    int made = 0;
    if (!m || !cost || !split || !p) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        goto done;
    }
    /* a 1-d first array is a row, a 1-d last one a column; the rest 2-d */
    for (; made < n; made++) {
        const ga_array *x = arrays[made];
        bool first = made == 0, last = made == n - 1;
        if (x->ndim == 1 && (first || last)) m[made] = ga__unit_dim(func, x, first ? 0 : 1);
        else if (x->ndim == 2) m[made] = ga_retain((ga_array *)x);
        else {
            ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be two-dimensional", x->ndim);
            goto done;
        }
        if (!m[made]) goto done;
        p[made] = m[made]->shape[0];
        if (made > 0 && m[made - 1]->shape[1] != m[made]->shape[0]) {
            ga__not_aligned(func, m[made - 1], 1, m[made], 0);
            made++;
            goto done;
        }
    }
    p[n] = m[n - 1]->shape[1];
    /* the matrix-chain order: the fewest multiplications */
    for (int i = 0; i < n; i++) cost[i * n + i] = 0;
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len - 1 < n; i++) {
            int j = i + len - 1;
            cost[i * n + j] = INT64_MAX;
            for (int k = i; k < j; k++) {
                double c = (double)cost[i * n + k] + (double)cost[(k + 1) * n + j] + (double)p[i] * (double)p[k + 1] * (double)p[j + 1];
                int64_t ci = c > 9.0e18 ? INT64_MAX - 1 : (int64_t)c;
                if (ci < cost[i * n + j]) cost[i * n + j] = ci, split[i * n + j] = k;
            }
        }
    r = ga__chain_product(func, m, split, n, 0, n - 1);
    if (r && (arrays[0]->ndim == 1 || arrays[n - 1]->ndim == 1)) { /* the unit dims away */
        int64_t shape[2];
        int nd = 0;
        if (arrays[0]->ndim != 1) shape[nd++] = r->shape[0];
        if (arrays[n - 1]->ndim != 1) shape[nd++] = r->shape[1];
        ga_array *q = ga__reshape(func, r, nd, shape);
        ga_release(r);
        r = q;
    }
done:
    for (int i = 0; m && i < made; i++) ga_release(m[i]);
    GPUARR_FREE(m), GPUARR_FREE(cost), GPUARR_FREE(split), GPUARR_FREE(p);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_kron(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_kron";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    /* a as (a0, 1, a1, 1, ...) and b as (1, b0, 1, b1, ...), both with the
       larger ndim (leading dims of 1), multiplied and merged pairwise */
    const int nd = GA__MAX(a->ndim, b->ndim);
    if (2 * nd > GA_MAXDIMS) {
        ga__error(GA_ERROR_VALUE, func, "kron of %d-dimensional arrays would need %d dims (at most %d)", nd, 2 * nd, GA_MAXDIMS);
        return NULL;
    }
    ga__layout la, lb;
    la.ndim = lb.ndim = 2 * nd;
    la.offset = lb.offset = 0;
    int64_t shape[GA_MAXDIMS];
    for (int d = 0; d < nd; d++) {
        int da = d - (nd - a->ndim), db = d - (nd - b->ndim);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        la.shape[2 * d] = sa, la.strides[2 * d] = da >= 0 ? a->strides[da] : 0;
        la.shape[2 * d + 1] = 1, la.strides[2 * d + 1] = 0;
        lb.shape[2 * d] = 1, lb.strides[2 * d] = 0;
        lb.shape[2 * d + 1] = sb, lb.strides[2 * d + 1] = db >= 0 ? b->strides[db] : 0;
        if (ga__mul_overflow(sa, sb, &shape[d])) {
            ga__error(GA_ERROR_VALUE, func, "array is too big");
            return NULL;
        }
    }
    ga_array *va = ga__view(func, a, &la, false), *vb = va ? ga__view(func, b, &lb, false) : NULL;
    ga_array *p = vb ? ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(va), ga_operand_array(vb)) : NULL;
    ga_array *r = p ? ga__reshape(func, p, nd, shape) : NULL;
    ga_release(va), ga_release(vb), ga_release(p);
    return ga__ret(r);
}

/* --- cross ---------------------------------------------------------------------- */

/* Component k of x's vectors along its last dim (a view without that dim). */
static ga_array *ga__component(const char *func, const ga_array *x, int64_t k, bool writeable)
{
    ga__layout l;
    ga__layout_of(x, &l);
    l.ndim = x->ndim - 1;
    l.offset = k * x->strides[x->ndim - 1];
    return ga__view(func, x, &l, writeable);
}

/* a1 b2 - a2 b1 for components i, j (unscoped). */
static ga_array *ga__cross_term(const char *func, const ga_array *a, const ga_array *b, int i, int j)
{
    ga_array *ai = ga__component(func, a, i, false), *bj = ga__component(func, b, j, false);
    ga_array *aj = ga__component(func, a, j, false), *bi = ga__component(func, b, i, false);
    ga_array *p = ai && bj ? ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(ai), ga_operand_array(bj)) : NULL;
    ga_array *q = aj && bi ? ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(aj), ga_operand_array(bi)) : NULL;
    ga_array *r = p && q ? ga__linalg_ufunc(func, GA_UFUNC_SUBTRACT, ga_operand_array(p), ga_operand_array(q)) : NULL;
    ga_release(ai), ga_release(bj), ga_release(aj), ga_release(bi), ga_release(p), ga_release(q);
    return r;
}

/* numpy.cross and numpy.linalg.cross (NumPy 2.5: 3-vectors only, both). */
static ga_array *ga__cross(const char *func, const ga_array *a, const ga_array *b, int axis)
{
    int xa = axis, xb = axis;
    if (a->ndim == 0 || b->ndim == 0 || ga__normalize_axis(func, "axisa: ", &xa, a->ndim) != GA_OK ||
        ga__normalize_axis(func, "axisb: ", &xb, b->ndim) != GA_OK) {
        if (ga__t.error == GA_OK) ga__error(GA_ERROR_AXIS, func, "axisa: axis %d is out of bounds for array of dimension 0", axis);
        return NULL;
    }
    const int64_t na = a->shape[xa], nb = b->shape[xb];
    if (na != 3 || nb != 3) {
        ga__error(GA_ERROR_VALUE, func, "Both input arrays must be (arrays of) 3-dimensional vectors, but they are %lld and %lld "
                  "dimensional instead.", (long long)na, (long long)nb);
        return NULL;
    }
    if (a->device != b->device) {
        ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device, b->device);
        return NULL;
    }
    ga__temps t = {{NULL}, 0};
    ga_array *x = ga__temp(&t, ga__axis_last(func, a, xa)), *y = x ? ga__temp(&t, ga__axis_last(func, b, xb)) : NULL;
    if (!y) {
        ga__temps_fail(&t);
        return NULL;
    }
    ga_array *c[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) c[k] = ga__temp(&t, ga__cross_term(func, x, y, (k + 1) % 3, (k + 2) % 3));
    if (!c[0] || !c[1] || !c[2]) {
        ga__temps_release(&t);
        return NULL;
    }
    /* stacked along a new last dim, moved to `axis` of the result */
    int64_t shape[GA_MAXDIMS];
    const int nd = c[0]->ndim + 1;
    memcpy(shape, c[0]->shape, sizeof(int64_t) * (size_t)c[0]->ndim);
    shape[nd - 1] = 3;
    ga_array *r = ga__array_new(func, a->device, nd, shape, c[0]->dtype);
    ga_status st = r ? GA_OK : ga__t.error;
    for (int k = 0; st == GA_OK && k < 3; k++) {
        ga_array *slot = ga__component(func, r, k, true);
        st = slot ? ga__copyto(func, slot, c[k], GA_CASTING_UNSAFE) : ga__t.error;
        ga_release(slot);
    }
    ga__temps_release(&t);
    int xc = axis;
    if (st == GA_OK) st = ga__normalize_axis(func, "axisc: ", &xc, nd);
    ga_array *out = NULL;
    if (st == GA_OK) { /* last dim to xc */
        int perm[GA_MAXDIMS];
        for (int d = 0, s = 0; d < nd; d++) perm[d] = d == xc ? nd - 1 : s++;
        out = ga__permuted(func, r, perm);
    }
    ga_release(r);
    return out;
}

GPUARR_API ga_array *ga_cross(const ga_array *a, const ga_array *b, int axis)
{
    static const char func[] = "ga_cross";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    return ga__ret(ga__cross(func, a, b, axis));
}

GPUARR_API ga_array *ga_linalg_cross(const ga_array *a, const ga_array *b, int axis)
{
    static const char func[] = "ga_linalg_cross";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    return ga__ret(ga__cross(func, a, b, axis));
}

/* --- norms ------------------------------------------------------------------- */

static ga_status ga__svd(const char *func, const ga_array *a, bool full, bool uv, ga_array **u, ga_array **s, ga_array **vh);

/* |x| (complex: its magnitude) in x's inexact dtype (float64 for bool and
   integers, as NumPy converts them), unscoped. */
static ga_array *ga__norm_abs(const char *func, const ga_array *x)
{
    ga_array *f = ga_dtype_kind(x->dtype) == 'f' || ga_dtype_kind(x->dtype) == 'c' ? ga_retain((ga_array *)x)
                                                                                     : ga__contiguous_copy(func, x, GA_FLOAT64);
    ga_array *y = f ? ga__linalg_ufunc(func, GA_UFUNC_ABSOLUTE, ga_operand_array(f), ga_operand_array(NULL)) : NULL;
    ga_release(f);
    return y;
}

/* sqrt(sum |x|^2) over x's axes in one pass (the reductions' sumsq op, as
   std's second pass with no center and a divisor of 1): NumPy's 2-norm and
   Frobenius norm, in x's real dtype (float64 for bool and integers, which
   NumPy converts first), unscoped. */
static ga_array *ga__norm2(const char *func, const ga_array *x, int naxes, const int *axes, bool keepdims)
{
    bool red[GA_MAXDIMS];
    if (ga__reduce_axes(func, x, naxes, axes, red) != GA_OK) return NULL;
    const ga_dtype w = ga__is_exact(x->dtype) ? GA_FLOAT64 : x->dtype;
    int64_t shape[GA_MAXDIMS];
    const int nd = ga__reduce_shape(x, red, keepdims, shape);
    ga_array *r = ga__array_new(func, x->device, nd, shape, ga__is_complex(w) ? ga__real_of(w) : w);
    if (!r) return NULL;
    ga__rjob j;
    memset(&j, 0, sizeof j);
    j.func = func, j.a = x, j.red = red, j.out = r;
    j.op = GA__ROP_SUMSQ, j.value = ga__rvalue(w, false), j.divisor = 1, j.fin = GA__FIN_STD;
    if (ga__reduce_run(&j) != GA_OK) {
        ga_release(r);
        return NULL;
    }
    return r;
}

/* reduction r of y over its axes, into y's dtype; y released. */
static ga_array *ga__norm_reduce(const char *func, ga_reduction r, ga_array *y, int naxes, const int *axes, bool keepdims)
{
    ga_array *s = NULL;
    /* (a sum in y's dtype; max and min take no dtype) */
    ga_dtype dt = r == GA_REDUCE_SUM ? y ? y->dtype : GA_DTYPE_INVALID : GA_DTYPE_INVALID;
    if (y && ga__reduce(func, r, y, naxes, axes, dt, &s, keepdims, NULL) != GA_OK) s = NULL;
    ga_release(y);
    return s;
}

GPUARR_API ga_array *ga_linalg_vector_norm(const ga_array *x, double ord, int naxes, const int *axes, bool keepdims)
{
    static const char func[] = "ga_linalg_vector_norm";
    if (!x) { ga__null_input(func, "x"); return NULL; }
    if (isnan(ord)) {
        ga__error(GA_ERROR_VALUE, func, "Invalid norm order 'nan' for vectors");
        return NULL;
    }
    if (ord == 2) return ga__ret(ga__norm2(func, x, naxes, axes, keepdims));
    ga_array *y = ga__norm_abs(func, x), *r = NULL;
    if (!y) return NULL;
    if (isinf(ord)) {
        r = ga__norm_reduce(func, ord > 0 ? GA_REDUCE_MAX : GA_REDUCE_MIN, y, naxes, axes, keepdims);
    } else if (ord == 0) { /* the count of nonzero elements, in y's dtype */
        ga_array *c = NULL;
        if (ga__reduce(func, GA_REDUCE_COUNT_NONZERO, y, naxes, axes, GA_DTYPE_INVALID, &c, keepdims, NULL) == GA_OK)
            r = ga__contiguous_copy(func, c, y->dtype);
        ga_release(c), ga_release(y);
    } else if (ord == 1) {
        r = ga__norm_reduce(func, GA_REDUCE_SUM, y, naxes, axes, keepdims);
    } else { /* (sum |x|^ord)^(1/ord) */
        ga_array *p = ga__linalg_ufunc(func, GA_UFUNC_POWER, ga_operand_array(y), ga_operand_scalar(ga_float(ord)));
        ga_release(y);
        ga_array *s = ga__norm_reduce(func, GA_REDUCE_SUM, p, naxes, axes, keepdims);
        r = s ? ga__linalg_ufunc(func, GA_UFUNC_POWER, ga_operand_array(s), ga_operand_scalar(ga_float(1.0 / ord))) : NULL;
        ga_release(s);
    }
    return ga__ret(r);
}

/* matrix_norm for `func`, unscoped. */
static ga_array *ga__matrix_norm(const char *func, const ga_array *x, ga_norm_ord ord, bool keepdims)
{
    if (x->ndim < 2) {
        ga__error(GA_ERROR_AXIS, func, "axis -2 is out of bounds for array of dimension %d", x->ndim);
        return NULL;
    }
    if ((int)ord < 0 || ord > GA_NORM_MINUS_INF) {
        ga__error(GA_ERROR_VALUE, func, "Invalid norm order for matrices.");
        return NULL;
    }
    if (ord == GA_NORM_2 || ord == GA_NORM_MINUS_2 || ord == GA_NORM_NUC) { /* of the singular values */
        ga_array *sv = NULL;
        const int last = -1;
        if (ga__svd(func, x, false, false, NULL, &sv, NULL) != GA_OK) return NULL;
        ga_array *r = ga__norm_reduce(func, ord == GA_NORM_2 ? GA_REDUCE_MAX : ord == GA_NORM_MINUS_2 ? GA_REDUCE_MIN : GA_REDUCE_SUM,
                                      sv, 1, &last, false);
        if (r && keepdims) { /* the two reduced dims back as 1s */
            int64_t shape[GA_MAXDIMS];
            for (int d = 0; d < r->ndim; d++) shape[d] = r->shape[d];
            shape[r->ndim] = shape[r->ndim + 1] = 1;
            ga_array *q = ga__reshape(func, r, r->ndim + 2, shape);
            ga_release(r);
            r = q;
        }
        return r;
    }
    const int both[2] = {-2, -1};
    if (ord == GA_NORM_FRO) return ga__norm2(func, x, 2, both, keepdims); /* sqrt(sum |x|^2) over the last two dims */
    /* 1 / -1: the largest / smallest column sum of |x|; inf / -inf: of the row sums */
    bool cols = ord == GA_NORM_1 || ord == GA_NORM_MINUS_1;
    bool largest = ord == GA_NORM_1 || ord == GA_NORM_INF;
    int first = cols ? -2 : -1;
    ga_array *s = ga__norm_reduce(func, GA_REDUCE_SUM, ga__norm_abs(func, x), 1, &first, true);
    int last = cols ? -1 : -2;
    ga_array *r = s ? ga__norm_reduce(func, largest ? GA_REDUCE_MAX : GA_REDUCE_MIN, s, 1, &last, true) : NULL;
    if (r && !keepdims) {
        ga_array *q = ga__reshape(func, r, r->ndim - 2, r->shape);
        ga_release(r);
        r = q;
    }
    return r;
}

GPUARR_API ga_array *ga_linalg_matrix_norm(const ga_array *x, ga_norm_ord ord, bool keepdims)
{
    static const char func[] = "ga_linalg_matrix_norm";
    if (!x) { ga__null_input(func, "x"); return NULL; }
    return ga__ret(ga__matrix_norm(func, x, ord, keepdims));
}

/* a's matrices transposed (its last two dims swapped), as a view. */
static ga_array *ga__matrix_transposed(const char *func, const ga_array *a)
{
    int perm[GA_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) perm[d] = d;
    perm[a->ndim - 2] = a->ndim - 1, perm[a->ndim - 1] = a->ndim - 2;
    return ga__permuted(func, a, perm);
}

/* --- cuSOLVER: cholesky, solve, inv, det, slogdet, eigh -------------------------
   cuSOLVER reads column-major matrices: the C-contiguous buffer of a matrix
   A is A^T to it. Each function below states how it turns that around. */

/* The dtype NumPy's linalg computes a in: float32, float64, complex64 and
   complex128 as they are, bool and integers in float64; float16 and
   bfloat16 are refused, as NumPy refuses float16. */
static ga_status ga__linalg_dtype(const char *func, const ga_array *a, ga_dtype *dt)
{
    char k = ga_dtype_kind(a->dtype);
    if (a->dtype == GA_FLOAT16 || a->dtype == GA_BFLOAT16)
        return ga__error(GA_ERROR_TYPE, func, "array type %s is unsupported in linalg", ga__dtype_names[a->dtype]);
    *dt = k == 'f' || k == 'c' ? a->dtype : GA_FLOAT64;
    return GA_OK;
}

/* A solver call's scratch: per-matrix info words, pivots (int64, or int32
   from the batched LU), the workspaces (device from the pool, host from
   GPUARR_MALLOC), and for the batched routines the matrices' addresses and
   cuBLAS's workspace; freed stream-ordered. */
typedef struct ga__solver_scratch {
    int device;
    ga__block *info, *ipiv, *work;
    void *host;
    size_t work_bytes, host_bytes;
    int pivot_size;             /* bytes per pivot: 8 (cuSOLVER's generic API) or 4 (batched) */
    ga_array *pointers;         /* the batched routines' matrix addresses */
    cublasHandle_t cublas;      /* bound, with cublas_workspace */
    ga__block *cublas_workspace;
} ga__solver_scratch;
#define GA__SOLVER_SCRATCH(device) {(device), NULL, NULL, NULL, NULL, 0, 0, 8, NULL, NULL, NULL}

static ga_status ga__solver_scratch_get(const char *func, ga__solver_scratch *s, int64_t count, int64_t pivots,
                                        size_t work, size_t host)
{
    s->info = ga__device_alloc(func, s->device, (size_t)(count + 1) * sizeof(int), false); /* (+1: getrs's own) */
    if (s->info && pivots) s->ipiv = ga__device_alloc(func, s->device, (size_t)(pivots * count * s->pivot_size), false);
    if (s->info && (!pivots || s->ipiv) && work) s->work = ga__device_alloc(func, s->device, work, false);
    s->work_bytes = work;
    if (host) s->host = GPUARR_MALLOC(host);
    s->host_bytes = host;
    if (!s->info || (pivots && !s->ipiv) || (work && !s->work)) return ga__t.error;
    if (host && !s->host) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    return GA_OK;
}

static void ga__solver_scratch_free(ga__solver_scratch *s)
{
    ga__pool *p = ga__g.devices[s->device].pool;
    if (s->host) GA__CU.StreamSynchronize(ga__stream_of(s->device)); /* the calls that use it are done */
    if (s->info) ga__pool_free(p, s->info);
    if (s->ipiv) ga__pool_free(p, s->ipiv);
    if (s->work) ga__pool_free(p, s->work);
    if (s->cublas_workspace) ga__pool_free(p, s->cublas_workspace);
    ga_release(s->pointers);
    GPUARR_FREE(s->host);
}

/* The calling thread's ga_linalg_err. */
static GA__TLS ga_linalg_err ga__linalg_err;

GPUARR_API ga_linalg_err ga_linalg_seterr(ga_linalg_err mode)
{
    ga_linalg_err old = ga__linalg_err;
    ga__linalg_err = mode == GA_LINALG_IGNORE ? GA_LINALG_IGNORE : GA_LINALG_RAISE;
    return old;
}

GPUARR_API ga_linalg_err ga_linalg_geterr(void) { return ga__linalg_err; }

/* The first matrix whose info word is positive (waits for the device):
   GA_ERROR_LINALG with `what` ("Singular matrix"), as NumPy raises; under
   GA_LINALG_IGNORE, nothing (ga__solver_poison marks the failures). */
static ga_status ga__solver_check(const char *func, const ga__solver_scratch *s, int64_t count, const char *what)
{
    if (count == 0 || ga__linalg_err == GA_LINALG_IGNORE) return GA_OK;
    int *h = (int *)GPUARR_MALLOC((size_t)count * sizeof(int));
    if (!h) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    CUstream stream = ga__stream_of(s->device);
    CUresult r = GA__CU.MemcpyDtoHAsync(h, (CUdeviceptr)s->info->ptr, (size_t)count * sizeof(int), stream);
    if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
    ga_status st = r == CUDA_SUCCESS ? GA_OK : ga__cuda_error(func, r, "cuMemcpyDtoHAsync");
    for (int64_t i = 0; st == GA_OK && i < count; i++)
        if (h[i] > 0) st = ga__error(GA_ERROR_LINALG, func, "%s", what);
    GPUARR_FREE(h);
    return st;
}

/* Under GA_LINALG_IGNORE, each matrix of x (a C-contiguous stack of `count`,
   float or complex) whose info word in s is nonzero becomes NaN, without
   waiting for the device; nothing under GA_LINALG_RAISE (ga__solver_check
   raised). */
static ga_status ga__solver_poison(const char *func, const ga__solver_scratch *s, int64_t count, ga_array *x)
{
    if (ga__linalg_err != GA_LINALG_IGNORE || !x || x->size == 0 || count == 0 || !s->info) return GA_OK;
    CUfunction f = ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.poison[x->dtype], "poison", ga__dtype_names[x->dtype],
                              NULL, NULL);
    void *vx = (void *)(uintptr_t)x->data, *vi = (void *)(uintptr_t)s->info->ptr;
    int64_t per = x->size / count;
    void *args[] = {&vx, &vi, &count, &per};
    return ga__launch(func, f, x->device, x->size, args);
}

/* The matrices of the C-contiguous stack x: count of n x n (or rows x cols). */
static int64_t ga__stack_count(const ga_array *x)
{
    int64_t c = 1;
    for (int d = 0; d + 2 < x->ndim; d++) c *= x->shape[d];
    return c;
}

/* --- stacks of small matrices: one batched call for the whole stack ------------
   A stack of at least two matrices of at most GA__BATCHED_N rows goes
   through the batched routines (cuBLAS's getrf/getrs, cuSOLVER's syevj;
   our kernels for cholesky and inv), one call for every matrix instead of
   one call each. */
#define GA__BATCHED_N 32

static bool ga__batched(int64_t n, int64_t count)
{
    return count > 1 && n >= 1 && n <= GA__BATCHED_N && count <= INT_MAX;
}

/* The addresses of x's `count` matrices (`bytes` apart) as a device array
   (arange's kernel): the batched routines' arrays of pointers. */
static ga_array *ga__matrix_pointers(const char *func, const ga_array *x, int64_t count, size_t bytes)
{
    const int64_t base = (int64_t)x->data;
    return ga__arange_int(func, base, base + count * (int64_t)bytes, (int64_t)bytes, GA_INT64);
}

/* The typed batched calls, by x's dtype (float32, float64, complex64, complex128). */
#define GA__TYPED_PTRS(T, p) ((T *const *)(uintptr_t)(p))
static cublasStatus_t ga__getrf_batched(cublasHandle_t h, ga_dtype dt, int n, uint64_t a, uint64_t ipiv, uint64_t info,
                                        int count)
{
    int *p = (int *)(uintptr_t)ipiv, *i = (int *)(uintptr_t)info;
    switch (dt) {
    case GA_FLOAT32: return ga__cublas.cublasSgetrfBatched(h, n, GA__TYPED_PTRS(float, a), n, p, i, count);
    case GA_FLOAT64: return ga__cublas.cublasDgetrfBatched(h, n, GA__TYPED_PTRS(double, a), n, p, i, count);
    case GA_COMPLEX64: return ga__cublas.cublasCgetrfBatched(h, n, GA__TYPED_PTRS(cuComplex, a), n, p, i, count);
    default: return ga__cublas.cublasZgetrfBatched(h, n, GA__TYPED_PTRS(cuDoubleComplex, a), n, p, i, count);
    }
}

/* op(A) X = B (A's LU from ga__getrf_batched), X over B. */
static cublasStatus_t ga__getrs_batched(cublasHandle_t h, cublasOperation_t T, ga_dtype dt, int n, int k, uint64_t a, uint64_t ipiv,
                                        uint64_t b, int count)
{
    const int *p = (const int *)(uintptr_t)ipiv;
    int info = 0; /* (the arguments' check: nothing of the matrices) */
    switch (dt) {
    case GA_FLOAT32:
        return ga__cublas.cublasSgetrsBatched(h, T, n, k, (const float *const *)(uintptr_t)a, n, p, GA__TYPED_PTRS(float, b), n,
                                             &info, count);
    case GA_FLOAT64:
        return ga__cublas.cublasDgetrsBatched(h, T, n, k, (const double *const *)(uintptr_t)a, n, p, GA__TYPED_PTRS(double, b),
                                             n, &info, count);
    case GA_COMPLEX64:
        return ga__cublas.cublasCgetrsBatched(h, T, n, k, (const cuComplex *const *)(uintptr_t)a, n, p,
                                             GA__TYPED_PTRS(cuComplex, b), n, &info, count);
    default:
        return ga__cublas.cublasZgetrsBatched(h, T, n, k, (const cuDoubleComplex *const *)(uintptr_t)a, n, p,
                                             GA__TYPED_PTRS(cuDoubleComplex, b), n, &info, count);
    }
}

/* Jacobi's eigensolver over a C-contiguous stack (work == 0: *lwork, the
   work's length in elements, is asked for). */
static cusolverStatus_t ga__syevj_batched(cusolverDnHandle_t h, ga_dtype dt, cusolverEigMode_t jobz, cublasFillMode_t fill, int n,
                                          uint64_t a, uint64_t w, uint64_t work, int *lwork, uint64_t info, syevjInfo_t params,
                                          int count)
{
    int *i = (int *)(uintptr_t)info;
#define GA__SYEVJ(T, E, t, r)                                                                                          \
    (work ? ga__cusolver.cusolverDn##T##E##Batched(h, jobz, fill, n, (t *)(uintptr_t)a, n, (r *)(uintptr_t)w,         \
                                                   (t *)(uintptr_t)work, *lwork, i, params, count)                    \
          : ga__cusolver.cusolverDn##T##E##Batched_bufferSize(h, jobz, fill, n, (const t *)(uintptr_t)a, n,             \
                                                              (const r *)(uintptr_t)w, lwork, params, count))
    switch (dt) {
    case GA_FLOAT32: return GA__SYEVJ(S, syevj, float, float);
    case GA_FLOAT64: return GA__SYEVJ(D, syevj, double, double);
    case GA_COMPLEX64: return GA__SYEVJ(C, heevj, cuComplex, float);
    default: return GA__SYEVJ(Z, heevj, cuDoubleComplex, double);
    }
#undef GA__SYEVJ
}
#undef GA__TYPED_PTRS

/* The batched solvers' kernels for n x n matrices (n <= GA__BATCHED_N):
   the variant of the smallest shared array that holds one. */
static const char *ga__small_variant(int64_t n, int *v)
{
    *v = n <= 8 ? 0 : n <= 16 ? 1 : 2;
    static const char *const names[3] = {"n8", "n16", "n32"};
    return names[*v];
}

/* Launches a kernel of one warp (32 threads) per matrix, `count` of them. */
static ga_status ga__launch_warps(const char *func, CUfunction f, int device, int64_t count, void **args)
{
    if (!f) return ga__t.error;
    const unsigned blocks = (unsigned)GA__MAX(GA__MIN(count, (int64_t)INT32_MAX), 1);
    GA__CHECK_CU(func, GA__CU.LaunchKernel(f, blocks, 1, 1, 32, 1, 1, 0, ga__stream_of(device), args, NULL), "cuLaunchKernel");
    return GA_OK;
}

/* Cholesky of a stack of small matrices in one launch of our kernel (see
   ga__potrf_stack; cuSOLVER's potrfBatched measured 166 us for 10000 8 x 8
   float32 matrices on an H200). */
static ga_status ga__potrf_stack_batched(const char *func, ga_array *r, const char *what)
{
    int64_t n = r->shape[r->ndim - 1], count = ga__stack_count(r);
    ga__solver_scratch s = GA__SOLVER_SCRATCH(r->device);
    ga_status st = ga__solver_scratch_get(func, &s, count, 0, 0, 0);
    if (st == GA_OK) {
        int v;
        const char *variant = ga__small_variant(n, &v);
        CUfunction f = ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.cholesky[r->dtype][v], "cholesky",
                                  ga__dtype_names[r->dtype], NULL, variant);
        void *va = (void *)(uintptr_t)r->data, *vi = (void *)(uintptr_t)s.info->ptr;
        void *args[] = {&va, &vi, &count, &n};
        st = ga__launch_warps(func, f, r->device, count, args);
    }
    if (st == GA_OK) st = ga__solver_check(func, &s, count, what);
    if (st == GA_OK) st = ga__solver_poison(func, &s, count, r);
    ga__solver_scratch_free(&s);
    return st;
}

/* Cholesky factors every matrix of the C-contiguous stack r in place:
   potrf of the upper triangle of r^T (column-major), which is r's lower
   triangle as stored, leaves L (A = L L^H) in r's lower triangle. */
static ga_status ga__potrf_stack(const char *func, ga_array *r, const char *what)
{
    const int64_t n = r->shape[r->ndim - 1], count = ga__stack_count(r);
    if (n == 0 || count == 0) return GA_OK;
    cudaDataType type;
    cublasComputeType_t compute;
    ga__cublas_types(r->dtype, &type, &compute);
    if (ga__batched(n, count)) return ga__potrf_stack_batched(func, r, what);
    ga__cusolver_handle *c = ga__cusolver_bound(func, r->device);
    if (!c) return ga__t.error;
    size_t work = 0, host = 0;
    cusolverStatus_t cs = ga__cusolver.cusolverDnXpotrf_bufferSize(c->handle, c->params, CUBLAS_FILL_MODE_UPPER, n, type,
                                                                   (const void *)(uintptr_t)r->data, n, type, &work, &host);
    if (cs != CUSOLVER_STATUS_SUCCESS) return ga__cusolver_error(func, cs, "cusolverDnXpotrf_bufferSize");
    ga__solver_scratch s = GA__SOLVER_SCRATCH(r->device);
    ga_status st = ga__solver_scratch_get(func, &s, count, 0, work, host);
    const size_t bytes = (size_t)(n * n) * ga__dtype_sizes[r->dtype];
    for (int64_t i = 0; st == GA_OK && i < count; i++) {
        cs = ga__cusolver.cusolverDnXpotrf(c->handle, c->params, CUBLAS_FILL_MODE_UPPER, n, type,
                                          (void *)(uintptr_t)(r->data + (uint64_t)i * bytes), n, type,
                                          s.work ? (void *)(uintptr_t)s.work->ptr : NULL, work, s.host, host,
                                          (int *)(uintptr_t)(s.info->ptr + (uint64_t)i * sizeof(int)));
        if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXpotrf");
    }
    if (st == GA_OK) st = ga__solver_check(func, &s, count, what);
    if (st == GA_OK) st = ga__solver_poison(func, &s, count, r);
    ga__solver_scratch_free(&s);
    return st;
}

/* A C-contiguous copy of a in dt, bound: the buffer a solver overwrites. */
static ga_array *ga__solver_copy(const char *func, const ga_array *a, ga_dtype dt)
{
    return ga__contiguous_copy(func, a, dt);
}

GPUARR_API ga_array *ga_linalg_cholesky(const ga_array *a, bool upper)
{
    static const char func[] = "ga_linalg_cholesky";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &dt) != GA_OK) return NULL;
    ga_array *r = ga__solver_copy(func, a, dt);
    if (!r || ga__potrf_stack(func, r, "Matrix is not positive definite") != GA_OK) {
        ga_release(r);
        return NULL;
    }
    ga_array *l = ga__triangle(func, r, 0, true); /* L, the other triangle zero */
    ga_release(r);
    if (l && upper) { /* L^H */
        ga_array *t = ga__matrix_transposed(func, l);
        ga_array *u = !t ? NULL
                      : ga_dtype_kind(dt) == 'c' ? ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(t), ga_operand_array(NULL))
                                                 : ga__contiguous_copy(func, t, dt);
        ga_release(t), ga_release(l);
        l = u;
    }
    return ga__ret(l);
}

/* LU factors every matrix of the C-contiguous n x n stack r in place (of
   r^T, column-major: getrf of A^T), pivots into s->ipiv (1-based, n per
   matrix), info into s->info. */
static ga_status ga__getrf_stack(const char *func, ga_array *r, ga__cusolver_handle *c, ga__solver_scratch *s, bool batch_ok)
{
    const int64_t n = r->shape[r->ndim - 1], count = ga__stack_count(r);
    if (batch_ok && ga__batched(n, count)) { /* cuBLAS's batched LU: int32 pivots, the addresses kept for getrs */
        s->pivot_size = 4;
        ga_status st = ga__solver_scratch_get(func, s, count, n, 0, 0);
        cublasHandle_t h = st == GA_OK ? ga__cublas_bound(func, r->device, &s->cublas_workspace) : NULL;
        if (h && !(s->pointers = ga__matrix_pointers(func, r, count, (size_t)(n * n) * ga__dtype_sizes[r->dtype]))) h = NULL;
        if (!h) return ga__t.error;
        s->cublas = h;
        cublasStatus_t b = ga__getrf_batched(h, r->dtype, (int)n, s->pointers->data, s->ipiv->ptr, s->info->ptr, (int)count);
        return b == CUBLAS_STATUS_SUCCESS ? GA_OK : ga__cublas_error(func, b, "cublasXgetrfBatched");
    }
    cudaDataType type;
    cublasComputeType_t compute;
    ga__cublas_types(r->dtype, &type, &compute);
    size_t work = 0, host = 0;
    cusolverStatus_t cs = ga__cusolver.cusolverDnXgetrf_bufferSize(c->handle, c->params, n, n, type,
                                                                   (const void *)(uintptr_t)r->data, n, type, &work, &host);
    if (cs != CUSOLVER_STATUS_SUCCESS) return ga__cusolver_error(func, cs, "cusolverDnXgetrf_bufferSize");
    ga_status st = ga__solver_scratch_get(func, s, count, n, work, host);
    const size_t bytes = (size_t)(n * n) * ga__dtype_sizes[r->dtype];
    for (int64_t i = 0; st == GA_OK && i < count; i++) {
        cs = ga__cusolver.cusolverDnXgetrf(c->handle, c->params, n, n, type, (void *)(uintptr_t)(r->data + (uint64_t)i * bytes),
                                          n, (int64_t *)(uintptr_t)(s->ipiv->ptr + (uint64_t)(i * n) * sizeof(int64_t)), type,
                                          s->work ? (void *)(uintptr_t)s->work->ptr : NULL, work, s->host, host,
                                          (int *)(uintptr_t)(s->info->ptr + (uint64_t)i * sizeof(int)));
        if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgetrf");
    }
    return st;
}

/* x = a^-1 b for the stacks a (..., n, n) and b (..., n, k), both C-contiguous
   in dt with the same batch (broadcast by the caller): LU of a^T, then
   getrs with op T (a = (a^T)^T) on b^T's columns, b transposed to
   column-major first; the solution comes back transposed. `inverse`: b
   is the identity, owned by the caller, and solved in place with op N: a^T's
   inverse column-major is a's row-major, with no transposes. */
static ga_array *ga__lu_solve(const char *func, ga_array *a, ga_array *b, bool inverse)
{
    const int64_t n = a->shape[a->ndim - 1], k = b->shape[b->ndim - 1], count = ga__stack_count(a);
    const cublasOperation_t op = inverse ? CUBLAS_OP_N : CUBLAS_OP_T;
    ga_array *x = NULL;
    if (inverse) {
        x = ga_retain(b);
    } else { /* b's matrices column-major: its transpose, C-contiguous */
        ga_array *bt = ga__matrix_transposed(func, b);
        x = bt ? ga__contiguous_copy(func, bt, a->dtype) : NULL; /* (..., k, n): column-major (n, k) */
        ga_release(bt);
    }
    if (!x) return NULL;
    if (n > 0 && k > 0 && count > 0) {
        bool count_done = false; /* the batched getrs solved them all */
        ga__cusolver_handle *c = ga__cusolver_bound(func, a->device);
        if (!c) { ga_release(x); return NULL; }
        ga__solver_scratch s = GA__SOLVER_SCRATCH(a->device);
        ga_status st = ga__getrf_stack(func, a, c, &s, k <= INT_MAX); /* (batched getrs takes an int count of columns) */
        if (st == GA_OK) st = ga__solver_check(func, &s, count, "Singular matrix");
        if (st == GA_OK && s.pivot_size == 4) { /* batched: getrs of every matrix in one call */
            ga_array *xp = ga__matrix_pointers(func, x, count, (size_t)(n * k) * ga__dtype_sizes[a->dtype]);
            cublasStatus_t b = xp ? ga__getrs_batched(s.cublas, op, a->dtype, (int)n, (int)k, s.pointers->data, s.ipiv->ptr,
                                                      xp->data, (int)count)
                                  : CUBLAS_STATUS_SUCCESS;
            if (!xp) st = ga__t.error;
            else if (b != CUBLAS_STATUS_SUCCESS) st = ga__cublas_error(func, b, "cublasXgetrsBatched");
            ga_release(xp);
            count_done = true;
        }
        cudaDataType type;
        cublasComputeType_t compute;
        ga__cublas_types(a->dtype, &type, &compute);
        const size_t abytes = (size_t)(n * n) * ga__dtype_sizes[a->dtype], xbytes = (size_t)(n * k) * ga__dtype_sizes[a->dtype];
        for (int64_t i = 0; st == GA_OK && !count_done && i < count; i++) {
            cusolverStatus_t cs = ga__cusolver.cusolverDnXgetrs(
                c->handle, c->params, op, n, k, type, (const void *)(uintptr_t)(a->data + (uint64_t)i * abytes), n,
                (const int64_t *)(uintptr_t)(s.ipiv->ptr + (uint64_t)(i * n) * sizeof(int64_t)), type,
                (void *)(uintptr_t)(x->data + (uint64_t)i * xbytes), n, (int *)(uintptr_t)(s.info->ptr + (uint64_t)count * sizeof(int)));
            if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgetrs");
        }
        if (st == GA_OK) st = ga__solver_poison(func, &s, count, x);
        ga__solver_scratch_free(&s);
        if (st != GA_OK) { ga_release(x); return NULL; }
    }
    if (inverse) return x;
    /* x holds each solution's transpose: view it back */
    ga_array *v = ga__matrix_transposed(func, x);
    ga_array *r = v ? ga__contiguous_copy(func, v, a->dtype) : NULL;
    ga_release(v), ga_release(x);
    return r;
}

/* a and b broadcast over their batch dims (b's matrices (n, k)), as
   C-contiguous copies in dt. */
static ga_status ga__solve_operands(const char *func, const ga_array *a, const ga_array *b, ga_dtype dt, ga_array **ac,
                                    ga_array **bc)
{
    int ndims[2] = {a->ndim - 2, b->ndim - 2}, nb = 0, bad = 0;
    const int64_t *shapes[2] = {a->shape, b->shape};
    int64_t batch[GA_MAXDIMS + 2];
    if (!ga__broadcast_shapes(2, ndims, shapes, &nb, batch, &bad)) return ga__broadcast_error(func, 2, ndims, shapes);
    int64_t sa[GA_MAXDIMS + 2], sb[GA_MAXDIMS + 2];
    memcpy(sa, batch, sizeof(int64_t) * (size_t)nb), memcpy(sb, batch, sizeof(int64_t) * (size_t)nb);
    sa[nb] = sa[nb + 1] = a->shape[a->ndim - 1];
    sb[nb] = b->shape[b->ndim - 2], sb[nb + 1] = b->shape[b->ndim - 1];
    if (nb + 2 > GA_MAXDIMS) return ga__error(GA_ERROR_VALUE, func, "too many dims");
    ga_array *va = ga__broadcast_view(func, a, nb + 2, sa), *vb = va ? ga__broadcast_view(func, b, nb + 2, sb) : NULL;
    *ac = vb ? ga__contiguous_copy(func, va, dt) : NULL;
    *bc = *ac ? ga__contiguous_copy(func, vb, dt) : NULL;
    ga_release(va), ga_release(vb);
    if (!*bc) {
        ga_release(*ac);
        *ac = NULL;
        return ga__t.error;
    }
    return GA_OK;
}

/* solve for `func`, unscoped. */
static ga_array *ga__solve(const char *func, const ga_array *a, const ga_array *b)
{
    ga_dtype da = GA_DTYPE_INVALID, dbt = GA_DTYPE_INVALID;
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &da) != GA_OK ||
        ga__linalg_dtype(func, b, &dbt) != GA_OK)
        return NULL;
    if (a->device != b->device) {
        ga__error(GA_ERROR_DEVICE, func, "the inputs are on different devices (%d and %d)", a->device, b->device);
        return NULL;
    }
    const ga_dtype dt = ga_promote_types(da, dbt);
    const int64_t n = a->shape[a->ndim - 1];
    /* NumPy 2: a 1-d b is one vector; otherwise b is a stack of (n, k) */
    bool vector = b->ndim == 1;
    if (b->ndim == 0) {
        ga__error(GA_ERROR_VALUE, func, "solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
                  "signature (m,m),(m,n)->(m,n) requires 2)");
        return NULL;
    }
    if (b->shape[b->ndim - (vector ? 1 : 2)] != n) {
        ga__error(GA_ERROR_VALUE, func, "%s: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                  "signature %s (size %lld is different from %lld)", vector ? "solve1" : "solve",
                  vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)", (long long)b->shape[b->ndim - (vector ? 1 : 2)],
                  (long long)n);
        return NULL;
    }
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga_array *bm = vector ? ga__unit_dim(func, b, 1) : ga_retain((ga_array *)b), *ac = NULL, *bc = NULL;
    if (!bm || ga__solve_operands(func, a, bm, dt, &ac, &bc) != GA_OK) {
        ga_release(bm);
        return NULL;
    }
    ga_release(bm);
    ga_array *x = ga__lu_solve(func, ac, bc, false);
    ga_release(ac), ga_release(bc);
    if (x && vector) { /* the vector back */
        ga_array *v = ga__reshape(func, x, x->ndim - 1, x->shape);
        ga_release(x);
        x = v;
    }
    return x;
}

GPUARR_API ga_array *ga_linalg_solve(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_linalg_solve";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    return ga__ret(ga__solve(func, a, b));
}

/* inv of a stack of small matrices: one launch of our kernel (Gauss-Jordan
   in shared memory, a warp per matrix; cuBLAS's matinvBatched measured 85
   us for 10000 8 x 8 float32 matrices on an H200). */
static ga_array *ga__inv_batched(const char *func, const ga_array *a, ga_dtype dt)
{
    int64_t n = a->shape[a->ndim - 1], count = ga__stack_count(a);
    ga_array *ac = (a->flags & GA_C_CONTIGUOUS) && a->dtype == dt ? ga_retain((ga_array *)a) : ga__solver_copy(func, a, dt);
    ga_array *r = ac ? ga__array_new(func, a->device, a->ndim, a->shape, dt) : NULL;
    ga__solver_scratch s = GA__SOLVER_SCRATCH(a->device);
    ga_status st = r ? ga__solver_scratch_get(func, &s, count, 0, 0, 0) : ga__t.error;
    if (st == GA_OK) {
        int v;
        const char *variant = ga__small_variant(n, &v);
        CUfunction f = ga__kernel(func, GA__FAMILY_LINALG, &ga__linalg_kernels.inv[dt][v], "inv", ga__dtype_names[dt], NULL, variant);
        void *vr = (void *)(uintptr_t)r->data, *va = (void *)(uintptr_t)ac->data, *vi = (void *)(uintptr_t)s.info->ptr;
        void *args[] = {&vr, &va, &vi, &count, &n};
        st = ga__launch_warps(func, f, a->device, count, args);
    }
    if (st == GA_OK) st = ga__solver_check(func, &s, count, "Singular matrix");
    if (st == GA_OK) st = ga__solver_poison(func, &s, count, r);
    ga__solver_scratch_free(&s);
    ga_release(ac);
    if (st != GA_OK) {
        ga_release(r);
        return NULL;
    }
    return r;
}

/* inv for `func`, unscoped. */
static ga_array *ga__inv(const char *func, const ga_array *a)
{
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &dt) != GA_OK) return NULL;
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    const int64_t n = a->shape[a->ndim - 1];
    if (ga__batched(n, ga__stack_count(a))) return ga__inv_batched(func, a, dt);
    ga_array *e = ga__eye(func, n, n, 0, dt), *ac = NULL, *bc = NULL;
    if (!e || ga__solve_operands(func, a, e, dt, &ac, &bc) != GA_OK) {
        ga_release(e);
        return NULL;
    }
    ga_release(e);
    ga_array *x = ga__lu_solve(func, ac, bc, true);
    ga_release(ac), ga_release(bc);
    return x;
}

GPUARR_API ga_array *ga_linalg_inv(const ga_array *a)
{
    static const char func[] = "ga_linalg_inv";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    return ga__ret(ga__inv(func, a));
}

/* log|det| and the sign (or det) of each matrix from its LU: the diagonal
   of U, and the pivots' parity (a row swap where ipiv[i] != i + 1). */
static ga_status ga__lu_det(const char *func, const ga_array *a, ga_array **sign, ga_array **logabs, ga_array **det)
{
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &dt) != GA_OK) return ga__t.error;
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const int64_t n = a->shape[a->ndim - 1], count = ga__stack_count(a);
    ga__temps t = {{NULL}, 0};
    ga_array *lu = ga__temp(&t, ga__solver_copy(func, a, dt));
    if (!lu) return ga__temps_fail(&t);
    ga__solver_scratch s = GA__SOLVER_SCRATCH(a->device);
    ga_status st = GA_OK;
    ga_array *piv = NULL, *info = NULL;
    if (n > 0 && count > 0) {
        ga__cusolver_handle *c = ga__cusolver_bound(func, a->device);
        st = c ? ga__getrf_stack(func, lu, c, &s, true) : ga__t.error;
        /* the info words (batch...): a zero pivot makes a matrix singular, whatever
           the LU left on its diagonal after it (the batched LU divides by it) */
        if (st == GA_OK) {
            info = ga__temp(&t, ga__array_new(func, a->device, a->ndim - 2, a->shape, GA_INT32));
            CUresult cr = info ? GA__CU.MemcpyDtoDAsync((CUdeviceptr)info->data, (CUdeviceptr)s.info->ptr, (size_t)count * sizeof(int),
                                                        ga__stream_of(a->device))
                               : CUDA_SUCCESS;
            if (!info) st = ga__t.error;
            else if (cr != CUDA_SUCCESS) st = ga__cuda_error(func, cr, "cuMemcpyDtoDAsync");
        }
        /* the pivots as an int64 (or batched: int32) array (batch..., n) over the scratch */
        if (st == GA_OK) {
            int64_t ps[GA_MAXDIMS];
            for (int d = 0; d + 2 < a->ndim; d++) ps[d] = a->shape[d];
            ps[a->ndim - 2] = n;
            piv = ga__temp(&t, ga__array_new(func, a->device, a->ndim - 1, ps, s.pivot_size == 4 ? GA_INT32 : GA_INT64));
            if (!piv) st = ga__t.error;
            else {
                CUresult cr = GA__CU.MemcpyDtoDAsync((CUdeviceptr)piv->data, (CUdeviceptr)s.ipiv->ptr,
                                                     (size_t)(n * count * s.pivot_size), ga__stream_of(a->device));
                if (cr != CUDA_SUCCESS) st = ga__cuda_error(func, cr, "cuMemcpyDtoDAsync");
            }
        }
    }
    ga__solver_scratch_free(&s);
    if (st != GA_OK) return ga__temps_fail(&t);
    /* the diagonal of U (the same read row- or column-major) */
    ga_array *d = ga__temp(&t, ga__diagonal(func, lu, 0, -2, -1));
    /* swaps: count of ipiv != 1..n, per matrix; parity -> -1 or 1 */
    ga_array *sgn_swaps = NULL;
    if (d && piv) {
        ga_array *idx = ga__temp(&t, ga__arange_int(func, 1, n + 1, 1, GA_INT64));
        ga_array *ne = idx ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_NOT_EQUAL, ga_operand_array(piv), ga_operand_array(idx))) : NULL;
        ga_array *cnt = NULL;
        const int last = -1;
        if (ne && ga__reduce(func, GA_REDUCE_SUM, ne, 1, &last, GA_INT64, &cnt, false, NULL) == GA_OK) {
            ga__temp(&t, cnt);
            ga_array *odd = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_BITWISE_AND, ga_operand_array(cnt), ga_operand_scalar(ga_int(1))));
            ga_array *two = odd ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(odd), ga_operand_scalar(ga_int(-2)))) : NULL;
            ga_array *pm = two ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_ADD, ga_operand_array(two), ga_operand_scalar(ga_int(1)))) : NULL;
            sgn_swaps = pm ? ga__temp(&t, ga__contiguous_copy(func, pm, dt)) : NULL; /* +-1 in dt: no promotion */
        }
    }
    if (!d || (piv && !sgn_swaps)) return ga__temps_fail(&t);
    const int last = -1;
    /* sign = prod(sign(d)) * (+-1) (0 for a singular matrix); logabs =
       sum(log|d|) (-inf), real; det = sign * exp(logabs), as NumPy
       computes it (so that it overflows and underflows alike) */
    ga_array *ad = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_ABSOLUTE, ga_operand_array(d), ga_operand_array(NULL)));
    ga_array *lg = ad ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_LOG, ga_operand_array(ad), ga_operand_array(NULL))) : NULL;
    ga_array *un = ad ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_SIGN, ga_operand_array(d), ga_operand_array(NULL))) : NULL;
    ga_array *ps = NULL, *la = NULL;
    if (!lg || !un || ga__reduce(func, GA_REDUCE_SUM, lg, 1, &last, lg->dtype, &la, false, NULL) != GA_OK)
        return ga__temps_fail(&t);
    ga__temp(&t, la);
    if (ga__reduce(func, GA_REDUCE_PROD, un, 1, &last, dt, &ps, false, NULL) != GA_OK) return ga__temps_fail(&t);
    ga__temp(&t, ps);
    ga_array *sg = sgn_swaps ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(ps), ga_operand_array(sgn_swaps)))
                             : ps;
    if (!sg) return ga__temps_fail(&t);
    if (info) { /* singular (a positive info word): sign 0, logabs -inf, as NumPy */
        ga_array *bad = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(info), ga_operand_scalar(ga_int(0))));
        sg = bad ? ga__temp(&t, ga__where(func, bad, ga_operand_scalar(ga_int(0)), ga_operand_array(sg))) : NULL;
        la = sg ? ga__temp(&t, ga__where(func, bad, ga_operand_scalar(ga_float(-INFINITY)), ga_operand_array(la))) : NULL;
        if (!la) return ga__temps_fail(&t);
    }
    if (det) {
        ga_array *e = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_EXP, ga_operand_array(la), ga_operand_array(NULL)));
        if (!e || !(*det = ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(sg), ga_operand_array(e))))
            return ga__temps_fail(&t);
    }
    if (sign && logabs) *sign = ga_retain(sg), *logabs = ga_retain(la);
    ga__temps_release(&t);
    return GA_OK;
}

GPUARR_API ga_array *ga_linalg_det(const ga_array *a)
{
    static const char func[] = "ga_linalg_det";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *det = NULL;
    return ga__lu_det(func, a, NULL, NULL, &det) == GA_OK ? ga__ret(det) : NULL;
}

GPUARR_API ga_status ga_linalg_slogdet(const ga_array *a, ga_array **sign, ga_array **logabsdet)
{
    static const char func[] = "ga_linalg_slogdet";
    if (!a) return ga__null_input(func, "a");
    if (!sign || !logabsdet) return ga__null_input(func, !sign ? "sign" : "logabsdet");
    ga_array *s = NULL, *l = NULL;
    ga_status st = ga__lu_det(func, a, &s, &l, NULL);
    if (st != GA_OK) {
        ga_release(s), ga_release(l);
        return st;
    }
    *sign = ga__ret(s);
    *logabsdet = ga__ret(l);
    return GA_OK;
}

/* eigh of a stack of small matrices in one call: Jacobi's method
   (syevj; eigenvalues ascending, as syevd's), over r and vals as ga__eigh
   lays them out. (cuSOLVER's generic batched Xsyev was slower: 474 us
   against 273 for 10000 8x8 float32 matrices on an H200.) */
static ga_status ga__syevj_stack(const char *func, ga_array *r, ga_array *vals, cusolverEigMode_t jobz, cublasFillMode_t fill,
                                 ga__cusolver_handle *c)
{
    const int n = (int)r->shape[r->ndim - 1], count = (int)ga__stack_count(r);
    syevjInfo_t params = NULL;
    cusolverStatus_t cs = ga__cusolver.cusolverDnCreateSyevjInfo(&params);
    if (cs != CUSOLVER_STATUS_SUCCESS) return ga__cusolver_error(func, cs, "cusolverDnCreateSyevjInfo");
    int lwork = 0;
    cs = ga__syevj_batched(c->handle, r->dtype, jobz, fill, n, r->data, vals->data, 0, &lwork, 0, params, count);
    ga_status st = cs == CUSOLVER_STATUS_SUCCESS ? GA_OK : ga__cusolver_error(func, cs, "cusolverDnXsyevjBatched_bufferSize");
    ga__solver_scratch s = GA__SOLVER_SCRATCH(r->device);
    lwork = GA__MAX(lwork, 1);
    if (st == GA_OK) st = ga__solver_scratch_get(func, &s, count, 0, (size_t)lwork * ga__dtype_sizes[r->dtype], 0);
    if (st == GA_OK) {
        cs = ga__syevj_batched(c->handle, r->dtype, jobz, fill, n, r->data, vals->data, s.work->ptr, &lwork, s.info->ptr, params,
                               count);
        if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXsyevjBatched");
    }
    if (st == GA_OK) st = ga__solver_check(func, &s, count, "Eigenvalues did not converge");
    if (st == GA_OK) st = ga__solver_poison(func, &s, count, vals);
    if (st == GA_OK && jobz == CUSOLVER_EIG_MODE_VECTOR) st = ga__solver_poison(func, &s, count, r);
    ga__solver_scratch_free(&s);
    ga__cusolver.cusolverDnDestroySyevjInfo(params);
    return st;
}

/* eigh / eigvalsh: syevd of each matrix of a copy. NumPy's UPLO 'L' reads
   a's lower triangle, which is the upper one of the column-major view
   (a^T = conj(a)); its eigenvectors are the conjugates of the columns
   syevd leaves, which read as stored are their transposes. */
static ga_status ga__eigh(const char *func, const ga_array *a, char uplo, ga_array **w, ga_array **v)
{
    ga_dtype dt = GA_DTYPE_INVALID;
    if (uplo == 'l' || uplo == 'u') uplo = (char)(uplo - 'a' + 'A'); /* NumPy upper-cases it */
    if (uplo != 'L' && uplo != 'U') return ga__error(GA_ERROR_VALUE, func, "UPLO argument must be 'L' or 'U'");
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &dt) != GA_OK) return ga__t.error;
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const ga_dtype real = dt == GA_COMPLEX64 || dt == GA_FLOAT32 ? GA_FLOAT32 : GA_FLOAT64;
    const int64_t n = a->shape[a->ndim - 1], count = ga__stack_count(a);
    ga_array *r = ga__solver_copy(func, a, dt);
    ga_array *vals = r ? ga__array_new(func, a->device, a->ndim - 1, a->shape, real) : NULL;
    ga_status st = vals ? GA_OK : ga__t.error;
    if (st == GA_OK && n > 0 && count > 0) {
        cudaDataType type, wtype;
        cublasComputeType_t compute;
        ga__cublas_types(dt, &type, &compute);
        ga__cublas_types(real, &wtype, &compute);
        const cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        const cublasFillMode_t fill = uplo == 'L' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        ga__cusolver_handle *c = ga__cusolver_bound(func, a->device);
        size_t work = 0, host = 0;
        cusolverStatus_t cs = CUSOLVER_STATUS_SUCCESS;
        if (!c) st = ga__t.error;
        else if (ga__batched(n, count)) st = ga__syevj_stack(func, r, vals, jobz, fill, c);
        else cs = ga__cusolver.cusolverDnXsyevd_bufferSize(c->handle, c->params, jobz, fill, n, type, (const void *)(uintptr_t)r->data,
                                                          n, wtype, (const void *)(uintptr_t)vals->data, type, &work, &host);
        if (st == GA_OK && cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXsyevd_bufferSize");
        const bool batched = ga__batched(n, count); /* (done above) */
        ga__solver_scratch s = GA__SOLVER_SCRATCH(a->device);
        if (st == GA_OK && !batched) st = ga__solver_scratch_get(func, &s, count, 0, work, host);
        const size_t abytes = (size_t)(n * n) * ga__dtype_sizes[dt], wbytes = (size_t)n * ga__dtype_sizes[real];
        for (int64_t i = 0; st == GA_OK && !batched && i < count; i++) {
            cs = ga__cusolver.cusolverDnXsyevd(c->handle, c->params, jobz, fill, n, type, (void *)(uintptr_t)(r->data + (uint64_t)i * abytes),
                                              n, wtype, (void *)(uintptr_t)(vals->data + (uint64_t)i * wbytes), type,
                                              s.work ? (void *)(uintptr_t)s.work->ptr : NULL, work, s.host, host,
                                              (int *)(uintptr_t)(s.info->ptr + (uint64_t)i * sizeof(int)));
            if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXsyevd");
        }
        if (st == GA_OK && !batched) st = ga__solver_check(func, &s, count, "Eigenvalues did not converge");
        if (st == GA_OK && !batched) st = ga__solver_poison(func, &s, count, vals);
        if (st == GA_OK && !batched && v) st = ga__solver_poison(func, &s, count, r);
        ga__solver_scratch_free(&s);
    }
    if (st == GA_OK && v) { /* conj(r^T) */
        ga_array *tr = ga__matrix_transposed(func, r);
        *v = !tr ? NULL
             : ga_dtype_kind(dt) == 'c' ? ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(tr), ga_operand_array(NULL))
                                        : ga__contiguous_copy(func, tr, dt);
        ga_release(tr);
        if (!*v) st = ga__t.error;
    }
    ga_release(r);
    if (st != GA_OK) {
        ga_release(vals);
        return st;
    }
    *w = vals;
    return GA_OK;
}

GPUARR_API ga_status ga_linalg_eigh(const ga_array *a, char uplo, ga_array **eigenvalues, ga_array **eigenvectors)
{
    static const char func[] = "ga_linalg_eigh";
    if (!a) return ga__null_input(func, "a");
    if (!eigenvalues || !eigenvectors) return ga__null_input(func, !eigenvalues ? "eigenvalues" : "eigenvectors");
    ga_array *w = NULL, *v = NULL;
    ga_status st = ga__eigh(func, a, uplo, &w, &v);
    if (st != GA_OK) return st;
    *eigenvalues = ga__ret(w);
    *eigenvectors = ga__ret(v);
    return GA_OK;
}

GPUARR_API ga_array *ga_linalg_eigvalsh(const ga_array *a, char uplo)
{
    static const char func[] = "ga_linalg_eigvalsh";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *w = NULL;
    return ga__eigh(func, a, uplo, &w, NULL) == GA_OK ? ga__ret(w) : NULL;
}

/* svd / svdvals: gesvd (which wants a column-major matrix of no more
   columns than rows) of X: a's matrices as stored (X = a^T) where m <= n,
   else a transposed copy (X = a). With X = Ux S VTx:
     m <= n: a = X^T, so u = VTx^T and vh = Ux^T: both are what gesvd
             leaves, read as stored (C order);
     m > n:  a = X, so u = Ux and vh = VTx: their transposes as stored.
   s is descending, in the real dtype, as NumPy's. */
static ga_status ga__svd(const char *func, const ga_array *a, bool full, bool uv, ga_array **u, ga_array **s, ga_array **vh)
{
    ga_dtype dt = GA_DTYPE_INVALID;
    if (a->ndim < 2)
        return ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be at least two-dimensional", a->ndim);
    if (ga__linalg_dtype(func, a, &dt) != GA_OK || ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const ga_dtype real = dt == GA_COMPLEX64 || dt == GA_FLOAT32 ? GA_FLOAT32 : GA_FLOAT64;
    const int nd = a->ndim;
    const int64_t m = a->shape[nd - 2], n = a->shape[nd - 1], k = GA__MIN(m, n), count = ga__stack_count(a);
    const bool wide = m <= n; /* X = a^T */
    const int64_t r = wide ? n : m, c = wide ? m : n, ucols = full ? r : c; /* X is r x c, Ux r x ucols */
    ga__temps t = {{NULL}, 0};
    ga_array *x = NULL;
    if (wide) x = ga__temp(&t, ga__contiguous_copy(func, a, dt));
    else {
        ga_array *at = ga__temp(&t, ga__matrix_transposed(func, a));
        x = at ? ga__temp(&t, ga__contiguous_copy(func, at, dt)) : NULL;
    }
    /* the outputs of gesvd, stacked: S (k), Ux (ucols columns of r: stored as ucols x r), VTx (c x c) */
    int64_t shape[GA_MAXDIMS];
    for (int d = 0; d < nd - 2; d++) shape[d] = a->shape[d];
    shape[nd - 2] = k;
    ga_array *sv = x ? ga__array_new(func, a->device, nd - 1, shape, real) : NULL;
    shape[nd - 2] = ucols, shape[nd - 1] = r;
    ga_array *ux = sv && uv ? ga__temp(&t, ga__array_new(func, a->device, nd, shape, dt)) : NULL;
    shape[nd - 2] = c, shape[nd - 1] = c;
    ga_array *vtx = ux ? ga__temp(&t, ga__array_new(func, a->device, nd, shape, dt)) : NULL;
    ga_status st = !sv || (uv && !vtx) ? ga__t.error : GA_OK;
    if (st == GA_OK && k > 0 && count > 0) {
        cudaDataType type, stype;
        cublasComputeType_t compute;
        ga__cublas_types(dt, &type, &compute);
        ga__cublas_types(real, &stype, &compute);
        const signed char job = uv ? (full ? 'A' : 'S') : 'N';
        ga__cusolver_handle *h = ga__cusolver_bound(func, a->device);
        size_t work = 0, host = 0;
        cusolverStatus_t cs = CUSOLVER_STATUS_SUCCESS;
        if (!h) st = ga__t.error;
        else cs = ga__cusolver.cusolverDnXgesvd_bufferSize(h->handle, h->params, job, job, r, c, type, (const void *)(uintptr_t)x->data,
                                                          r, stype, (const void *)(uintptr_t)sv->data, type,
                                                          uv ? (const void *)(uintptr_t)ux->data : NULL, r, type,
                                                          uv ? (const void *)(uintptr_t)vtx->data : NULL, c, type, &work, &host);
        if (st == GA_OK && cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgesvd_bufferSize");
        ga__solver_scratch sc = GA__SOLVER_SCRATCH(a->device);
        if (st == GA_OK) st = ga__solver_scratch_get(func, &sc, count, 0, work, host);
        const size_t isz = ga__dtype_sizes[dt], rsz = ga__dtype_sizes[real];
        for (int64_t i = 0; st == GA_OK && i < count; i++) {
            cs = ga__cusolver.cusolverDnXgesvd(
                h->handle, h->params, job, job, r, c, type, (void *)(uintptr_t)(x->data + (uint64_t)(i * r * c) * isz), r, stype,
                (void *)(uintptr_t)(sv->data + (uint64_t)(i * k) * rsz), type,
                uv ? (void *)(uintptr_t)(ux->data + (uint64_t)(i * r * ucols) * isz) : NULL, r, type,
                uv ? (void *)(uintptr_t)(vtx->data + (uint64_t)(i * c * c) * isz) : NULL, c, type,
                sc.work ? (void *)(uintptr_t)sc.work->ptr : NULL, work, sc.host, host,
                (int *)(uintptr_t)(sc.info->ptr + (uint64_t)i * sizeof(int)));
            if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgesvd");
        }
        if (st == GA_OK) st = ga__solver_check(func, &sc, count, "SVD did not converge");
        if (st == GA_OK) st = ga__solver_poison(func, &sc, count, sv);
        if (st == GA_OK && uv) st = ga__solver_poison(func, &sc, count, ux);
        if (st == GA_OK && uv) st = ga__solver_poison(func, &sc, count, vtx);
        ga__solver_scratch_free(&sc);
    } else if (st == GA_OK && uv && count > 0) { /* an empty matrix: identities of its sizes */
        ga__value16 zero = {{0, 0}};
        if (ux->size) st = ga__fill(func, ux, &zero);
        if (st == GA_OK && vtx->size) st = ga__fill(func, vtx, &zero);
        /* (gesvd would give identities; with k = 0 every u and vh column is arbitrary: NumPy returns identities) */
        ga_array *e1 = st == GA_OK ? ga__eye(func, ucols, r, 0, dt) : NULL, *e2 = e1 ? ga__eye(func, c, c, 0, dt) : NULL;
        ga_array *b1 = e2 ? ga__broadcast_view(func, e1, nd, ux->shape) : NULL, *b2 = b1 ? ga__broadcast_view(func, e2, nd, vtx->shape) : NULL;
        if (!b2 || (ux->size && ga__copyto(func, ux, b1, GA_CASTING_UNSAFE) != GA_OK) ||
            (vtx->size && ga__copyto(func, vtx, b2, GA_CASTING_UNSAFE) != GA_OK))
            st = ga__t.error;
        ga_release(e1), ga_release(e2), ga_release(b1), ga_release(b2);
    }
    if (st == GA_OK && uv) {
        if (wide) { /* u = VTx as stored, vh = Ux as stored */
            *u = ga_retain(vtx), *vh = ga_retain(ux);
        } else { /* their transposes */
            ga_array *tu = ga__matrix_transposed(func, ux), *tv = tu ? ga__matrix_transposed(func, vtx) : NULL;
            *u = tv ? ga__contiguous_copy(func, tu, dt) : NULL;
            *vh = *u ? ga__contiguous_copy(func, tv, dt) : NULL;
            ga_release(tu), ga_release(tv);
            if (!*vh) {
                ga_release(*u);
                *u = NULL;
                st = ga__t.error;
            }
        }
    }
    ga__temps_release(&t);
    if (st != GA_OK) {
        ga_release(sv);
        return st;
    }
    *s = sv;
    return GA_OK;
}

GPUARR_API ga_status ga_linalg_svd(const ga_array *a, bool full_matrices, ga_array **u, ga_array **s, ga_array **vh)
{
    static const char func[] = "ga_linalg_svd";
    if (!a) return ga__null_input(func, "a");
    if (!u || !s || !vh) return ga__null_input(func, !u ? "u" : !s ? "s" : "vh");
    ga_array *x = NULL, *y = NULL, *z = NULL;
    ga_status st = ga__svd(func, a, full_matrices, true, &x, &y, &z);
    if (st != GA_OK) return st;
    *u = ga__ret(x), *s = ga__ret(y), *vh = ga__ret(z);
    return GA_OK;
}

GPUARR_API ga_array *ga_linalg_svdvals(const ga_array *a)
{
    static const char func[] = "ga_linalg_svdvals";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *s = NULL;
    return ga__svd(func, a, false, false, NULL, &s, NULL) == GA_OK ? ga__ret(s) : NULL;
}

/* --- on svd, solve and inv: matrix_rank, cond, pinv, tensorsolve, tensorinv -- */

/* The eps of the real dtype of a linalg result. */
static double ga__linalg_eps(ga_dtype real) { return real == GA_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16; }

/* s > tol, counted along the last dim, where tol is `tol` or (NaN) the
   largest of s times max(m, n) times eps, or rtol times the largest. */
GPUARR_API ga_array *ga_linalg_matrix_rank(const ga_array *a, double tol, double rtol)
{
    static const char func[] = "ga_linalg_matrix_rank";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    const int last = -1;
    if (a->ndim < 2) { /* NumPy: int(not all(a == 0)) */
        ga_array *nz = NULL, *r = NULL;
        if (ga__reduce(func, GA_REDUCE_ANY, a, GA_ALL_AXES, GA_DTYPE_INVALID, &nz, false, NULL) == GA_OK)
            r = ga__contiguous_copy(func, nz, GA_INT64);
        ga_release(nz);
        return ga__ret(r);
    }
    ga_array *s = NULL;
    if (ga__svd(func, a, false, false, NULL, &s, NULL) != GA_OK) return NULL;
    ga__temps t = {{NULL}, 0};
    ga__temp(&t, s);
    ga_array *cut = NULL;
    if (isnan(tol)) {
        ga_array *mx = NULL;
        if (ga__reduce(func, GA_REDUCE_MAX, s, 1, &last, GA_DTYPE_INVALID, &mx, true, NULL) != GA_OK) {
            ga__temps_fail(&t);
            return NULL;
        }
        ga__temp(&t, mx);
        const double f = isnan(rtol) ? (double)GA__MAX(a->shape[a->ndim - 1], a->shape[a->ndim - 2]) * ga__linalg_eps(s->dtype) : rtol;
        cut = ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(mx), ga_operand_scalar(ga_float(f))));
    }
    ga_array *big = cut ? ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(s), ga_operand_array(cut))
                        : isnan(tol) ? NULL : ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(s), ga_operand_scalar(ga_float(tol)));
    ga_array *r = NULL;
    if (big && ga__reduce(func, GA_REDUCE_COUNT_NONZERO, big, 1, &last, GA_DTYPE_INVALID, &r, false, NULL) != GA_OK) r = NULL;
    ga_release(big);
    ga__temps_release(&t);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_linalg_cond(const ga_array *x, ga_norm_ord p)
{
    static const char func[] = "ga_linalg_cond";
    if (!x) { ga__null_input(func, "x"); return NULL; }
    if ((int)p < 0 || p > GA_NORM_MINUS_INF) {
        ga__error(GA_ERROR_VALUE, func, "Invalid norm order for matrices.");
        return NULL;
    }
    ga_array *r = NULL;
    if (p == GA_NORM_2 || p == GA_NORM_MINUS_2) { /* the ratio of the extreme singular values */
        ga_array *s = NULL, *mx = NULL, *mn = NULL;
        const int last = -1;
        if (x->ndim >= 2 && ga__svd(func, x, false, false, NULL, &s, NULL) != GA_OK) return NULL;
        if (x->ndim < 2) {
            ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be at least two-dimensional", x->ndim);
            return NULL;
        }
        if (ga__reduce(func, GA_REDUCE_MAX, s, 1, &last, GA_DTYPE_INVALID, &mx, false, NULL) == GA_OK &&
            ga__reduce(func, GA_REDUCE_MIN, s, 1, &last, GA_DTYPE_INVALID, &mn, false, NULL) == GA_OK)
            r = p == GA_NORM_2 ? ga__linalg_ufunc(func, GA_UFUNC_DIVIDE, ga_operand_array(mx), ga_operand_array(mn))
                               : ga__linalg_ufunc(func, GA_UFUNC_DIVIDE, ga_operand_array(mn), ga_operand_array(mx));
        ga_release(s), ga_release(mx), ga_release(mn);
        return ga__ret(r);
    }
    /* norm(x, p) * norm(inv(x), p) (inv's LinAlgError for a singular x) */
    ga_array *inv = ga__inv(func, x);
    ga_array *n1 = inv ? ga__matrix_norm(func, x, p, false) : NULL, *n2 = n1 ? ga__matrix_norm(func, inv, p, false) : NULL;
    r = n2 ? ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(n1), ga_operand_array(n2)) : NULL;
    ga_release(inv), ga_release(n1), ga_release(n2);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_linalg_pinv(const ga_array *a, double rtol)
{
    static const char func[] = "ga_linalg_pinv";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    /* NumPy's: the svd of conj(a), 1/s where s > rtol max(s) (else 0),
       then vh^T (s^-1 u^T) */
    ga_array *u = NULL, *s = NULL, *vh = NULL;
    ga__temps t = {{NULL}, 0};
    ga_array *c = ga_dtype_kind(a->dtype) == 'c'
                      ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(a), ga_operand_array(NULL)))
                      : (ga_array *)a;
    if (!c || ga__svd(func, c, false, true, &u, &s, &vh) != GA_OK) {
        ga__temps_fail(&t);
        return NULL;
    }
    ga__temp(&t, u), ga__temp(&t, s), ga__temp(&t, vh);
    const int last = -1;
    const double f = isnan(rtol) ? (double)GA__MAX(a->shape[a->ndim - 1], a->shape[a->ndim - 2]) * ga__linalg_eps(s->dtype) : rtol;
    ga_array *mx = NULL;
    if (ga__reduce(func, GA_REDUCE_MAX, s, 1, &last, GA_DTYPE_INVALID, &mx, true, NULL) != GA_OK) mx = NULL;
    ga__temp(&t, mx);
    ga_array *cut = mx ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(mx), ga_operand_scalar(ga_float(f)))) : NULL;
    ga_array *big = cut ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(s), ga_operand_array(cut))) : NULL;
    /* 1/s where big, 0 elsewhere: big / (s + !big), s >= 0 */
    ga_array *small = big ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_LOGICAL_NOT, ga_operand_array(big), ga_operand_array(NULL))) : NULL;
    ga_array *den = small ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_ADD, ga_operand_array(s), ga_operand_array(small))) : NULL;
    ga_array *sinv = den ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_DIVIDE, ga_operand_array(big), ga_operand_array(den))) : NULL;
    /* u^T scaled by rows: (s^-1)[..., :, None] * u^T; then vh^T @ that */
    ga_array *ut = sinv ? ga__temp(&t, ga__matrix_transposed(func, u)) : NULL;
    ga_array *sc = ut ? ga__temp(&t, ga__unit_dim(func, sinv, sinv->ndim)) : NULL;
    ga_array *su = sc ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(sc), ga_operand_array(ut))) : NULL;
    ga_array *vt = su ? ga__temp(&t, ga__matrix_transposed(func, vh)) : NULL;
    ga_array *r = vt ? ga__matmul_new(func, vt, su) : NULL;
    ga__temps_release(&t);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_linalg_tensorinv(const ga_array *a, int ind)
{
    static const char func[] = "ga_linalg_tensorinv";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (ind <= 0 || ind > a->ndim) {
        ga__error(GA_ERROR_VALUE, func, "Invalid ind argument.");
        return NULL;
    }
    int64_t rows = 1, cols = 1;
    for (int d = 0; d < a->ndim; d++) *(d < ind ? &rows : &cols) *= a->shape[d];
    if (rows != cols) {
        ga__error(GA_ERROR_LINALG, func, "Last 2 dimensions of the array must be square");
        return NULL;
    }
    const int64_t s2[2] = {rows, cols};
    ga_array *m = ga__reshape(func, a, 2, s2), *i = m ? ga__inv(func, m) : NULL;
    int64_t shape[GA_MAXDIMS];
    int nd = 0;
    for (int d = ind; d < a->ndim; d++) shape[nd++] = a->shape[d];
    for (int d = 0; d < ind; d++) shape[nd++] = a->shape[d];
    ga_array *r = i ? ga__reshape(func, i, nd, shape) : NULL;
    ga_release(m), ga_release(i);
    return ga__ret(r);
}

GPUARR_API ga_array *ga_linalg_tensorsolve(const ga_array *a, const ga_array *b)
{
    static const char func[] = "ga_linalg_tensorsolve";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    if (!b) { ga__null_input(func, "b"); return NULL; }
    /* a (b.shape + x.shape) as (prod(b.shape), prod(x.shape)); NumPy's
       message keeps the run of spaces of its source's line break */
    if (b->ndim > a->ndim) {
        ga__error(GA_ERROR_LINALG, func, "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
        return NULL;
    }
    int64_t rows = 1, cols = 1;
    for (int d = 0; d < a->ndim; d++) *(d < b->ndim ? &rows : &cols) *= a->shape[d];
    if (rows != cols) {
        ga__error(GA_ERROR_LINALG, func, "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
        return NULL;
    }
    const int64_t s2[2] = {rows, cols}, s1[1] = {rows};
    ga_array *m = ga__reshape(func, a, 2, s2), *v = m ? ga__reshape(func, b, 1, s1) : NULL;
    ga_array *x = v ? ga__solve(func, m, v) : NULL;
    ga_array *r = x ? ga__reshape(func, x, a->ndim - b->ndim, a->shape + b->ndim) : NULL;
    ga_release(m), ga_release(v), ga_release(x);
    return ga__ret(r);
}

/* qr: geqrf of a's matrices column-major, which is a transposed copy (X,
   m x n, stored as (n, m)); R is the upper triangle of X's first rows,
   read back transposed; Q comes from orgqr / ungqr over the reflectors
   (in X, or copied into an m x m buffer for the complete Q), also read
   back transposed. 'raw' returns X as stored, which is NumPy's h, and tau. */
static ga_status ga__orgqr(const char *func, int device, ga__cusolver_handle *h, ga_dtype dt, int64_t m, int64_t cols,
                           int64_t k, uint64_t a, uint64_t tau, ga__block **work, int *info)
{
    if (m > INT32_MAX || cols > INT32_MAX)
        return ga__error(GA_ERROR_VALUE, func, "a matrix of %lld rows is too large for cuSOLVER's orgqr", (long long)m);
    const int im = (int)m, in = (int)cols, ik = (int)k;
    int lwork = 0;
    cusolverStatus_t cs;
    void *A = (void *)(uintptr_t)a;
    const void *T = (const void *)(uintptr_t)tau;
    switch (dt) {
    case GA_FLOAT32: cs = ga__cusolver.cusolverDnSorgqr_bufferSize(h->handle, im, in, ik, (const float *)A, im, (const float *)T, &lwork); break;
    case GA_FLOAT64: cs = ga__cusolver.cusolverDnDorgqr_bufferSize(h->handle, im, in, ik, (const double *)A, im, (const double *)T, &lwork); break;
    case GA_COMPLEX64: cs = ga__cusolver.cusolverDnCungqr_bufferSize(h->handle, im, in, ik, (const cuComplex *)A, im, (const cuComplex *)T, &lwork); break;
    default: cs = ga__cusolver.cusolverDnZungqr_bufferSize(h->handle, im, in, ik, (const cuDoubleComplex *)A, im, (const cuDoubleComplex *)T, &lwork); break;
    }
    if (cs != CUSOLVER_STATUS_SUCCESS) return ga__cusolver_error(func, cs, "cusolverDn<t>orgqr_bufferSize");
    const size_t bytes = (size_t)GA__MAX(lwork, 1) * ga__dtype_sizes[dt];
    if (!*work || (*work)->size < bytes) {
        if (*work) ga__pool_free(ga__g.devices[device].pool, *work);
        *work = ga__device_alloc(func, device, bytes, false);
        if (!*work) return ga__t.error;
    }
    void *W = (void *)(uintptr_t)(*work)->ptr;
    switch (dt) {
    case GA_FLOAT32: cs = ga__cusolver.cusolverDnSorgqr(h->handle, im, in, ik, (float *)A, im, (const float *)T, (float *)W, lwork, info); break;
    case GA_FLOAT64: cs = ga__cusolver.cusolverDnDorgqr(h->handle, im, in, ik, (double *)A, im, (const double *)T, (double *)W, lwork, info); break;
    case GA_COMPLEX64: cs = ga__cusolver.cusolverDnCungqr(h->handle, im, in, ik, (cuComplex *)A, im, (const cuComplex *)T, (cuComplex *)W, lwork, info); break;
    default: cs = ga__cusolver.cusolverDnZungqr(h->handle, im, in, ik, (cuDoubleComplex *)A, im, (const cuDoubleComplex *)T, (cuDoubleComplex *)W, lwork, info); break;
    }
    return cs == CUSOLVER_STATUS_SUCCESS ? GA_OK : ga__cusolver_error(func, cs, "cusolverDn<t>orgqr");
}

/* The column-major rows x cols matrix at the start of each stored matrix
   of the C-contiguous stack x (its leading dim: x's last extent), as a
   view: the transpose of x's first cols stored rows, cut to rows. */
static ga_array *ga__colmajor_view(const char *func, const ga_array *x, int64_t rows, int64_t cols)
{
    ga__layout l;
    ga__layout_of(x, &l);
    const int nd = x->ndim;
    const int64_t es = (int64_t)ga__dtype_sizes[x->dtype];
    l.shape[nd - 2] = rows, l.shape[nd - 1] = cols;
    l.strides[nd - 2] = es, l.strides[nd - 1] = x->shape[nd - 1] * es;
    l.offset = 0;
    return ga__view(func, x, &l, false);
}

GPUARR_API ga_status ga_linalg_qr(const ga_array *a, ga_qr_mode mode, ga_array **q, ga_array **r)
{
    static const char func[] = "ga_linalg_qr";
    if (!a) return ga__null_input(func, "a");
    if (!r || (mode != GA_QR_R && !q)) return ga__null_input(func, !r ? "r" : "q");
    if ((int)mode < 0 || mode > GA_QR_RAW) return ga__error(GA_ERROR_VALUE, func, "Unrecognized mode '%d'", (int)mode);
    if (a->ndim < 2)
        return ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be at least two-dimensional", a->ndim);
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__linalg_dtype(func, a, &dt) != GA_OK || ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const int nd = a->ndim;
    const int64_t m = a->shape[nd - 2], n = a->shape[nd - 1], k = GA__MIN(m, n), count = ga__stack_count(a);
    ga__temps t = {{NULL}, 0};
    ga_array *at = ga__temp(&t, ga__matrix_transposed(func, a));
    ga_array *x = at ? ga__temp(&t, ga__contiguous_copy(func, at, dt)) : NULL; /* (…, n, m): X column-major */
    int64_t shape[GA_MAXDIMS];
    for (int d = 0; d < nd - 2; d++) shape[d] = a->shape[d];
    shape[nd - 2] = k;
    ga_array *tau = x ? ga__temp(&t, ga__array_new(func, a->device, nd - 1, shape, dt)) : NULL;
    if (!tau) return ga__temps_fail(&t);
    ga__cusolver_handle *h = NULL;
    ga__solver_scratch sc = GA__SOLVER_SCRATCH(a->device);
    ga_status st = GA_OK;
    const size_t isz = ga__dtype_sizes[dt];
    if (k > 0 && count > 0) {
        cudaDataType type;
        cublasComputeType_t compute;
        ga__cublas_types(dt, &type, &compute);
        size_t work = 0, host = 0;
        h = ga__cusolver_bound(func, a->device);
        cusolverStatus_t cs = CUSOLVER_STATUS_SUCCESS;
        if (!h) st = ga__t.error;
        else cs = ga__cusolver.cusolverDnXgeqrf_bufferSize(h->handle, h->params, m, n, type, (const void *)(uintptr_t)x->data, m,
                                                          type, (const void *)(uintptr_t)tau->data, type, &work, &host);
        if (st == GA_OK && cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgeqrf_bufferSize");
        if (st == GA_OK) st = ga__solver_scratch_get(func, &sc, count, 0, work, host);
        for (int64_t i = 0; st == GA_OK && i < count; i++) {
            cs = ga__cusolver.cusolverDnXgeqrf(h->handle, h->params, m, n, type, (void *)(uintptr_t)(x->data + (uint64_t)(i * m * n) * isz), m,
                                              type, (void *)(uintptr_t)(tau->data + (uint64_t)(i * k) * isz), type,
                                              sc.work ? (void *)(uintptr_t)sc.work->ptr : NULL, work, sc.host, host,
                                              (int *)(uintptr_t)sc.info->ptr);
            if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgeqrf");
        }
    }
    if (st != GA_OK) {
        ga__solver_scratch_free(&sc);
        return ga__temps_fail(&t);
    }
    if (mode == GA_QR_RAW) { /* h = X as stored, tau */
        ga__solver_scratch_free(&sc);
        ga_array *hh = ga_retain(x), *tt = ga_retain(tau);
        ga__temps_release(&t);
        *q = ga__ret(hh);
        *r = ga__ret(tt);
        return GA_OK;
    }
    /* R: the upper triangle of X's first k rows (m for the complete form), transposed back */
    const int64_t rrows = mode == GA_QR_COMPLETE ? m : k;
    ga_array *xv = ga__temp(&t, ga__colmajor_view(func, x, rrows, n));
    ga_array *rr = xv ? ga__triangle(func, xv, 0, false) : NULL;
    ga_array *qq = NULL;
    if (rr && mode != GA_QR_R) {
        /* Q: orgqr over k reflectors into m x qcols, in X (reduced) or in an m x m copy (complete) */
        const int64_t qcols = mode == GA_QR_COMPLETE ? m : k;
        ga_array *y = x;
        if (mode == GA_QR_COMPLETE && n != m) {
            shape[nd - 2] = m, shape[nd - 1] = m;
            y = ga__temp(&t, ga__array_new(func, a->device, nd, shape, dt));
            ga__value16 zero = {{0, 0}};
            if (y && y->size) st = ga__fill(func, y, &zero);
            /* its first min(n, m) stored rows take X's */
            ga__layout l;
            if (y && st == GA_OK) {
                ga__layout_of(y, &l);
                l.shape[nd - 2] = GA__MIN(n, m);
                l.offset = 0;
                ga_array *top = ga__view(func, y, &l, true);
                ga__layout_of(x, &l);
                l.shape[nd - 2] = GA__MIN(n, m);
                l.offset = 0;
                ga_array *src = top ? ga__view(func, x, &l, false) : NULL;
                st = src ? ga__copyto(func, top, src, GA_CASTING_UNSAFE) : ga__t.error;
                ga_release(top), ga_release(src);
            }
            if (!y) st = ga__t.error;
        }
        ga__block *work = NULL;
        if (st == GA_OK && k > 0 && count > 0)
            for (int64_t i = 0; st == GA_OK && i < count; i++)
                st = ga__orgqr(func, a->device, h, dt, m, qcols, k, y->data + (uint64_t)(i * m * (y == x ? n : m)) * isz,
                               tau->data + (uint64_t)(i * k) * isz, &work, (int *)(uintptr_t)sc.info->ptr);
        if (work) ga__pool_free(ga__g.devices[a->device].pool, work);
        if (st == GA_OK && k == 0 && mode == GA_QR_COMPLETE) { /* no reflectors: the identity */
            ga_array *e = ga__eye(func, m, m, 0, dt), *b = e ? ga__broadcast_view(func, e, nd, y->shape) : NULL;
            st = b ? ga__copyto(func, y, b, GA_CASTING_UNSAFE) : ga__t.error;
            ga_release(e), ga_release(b);
        }
        ga_array *yv = st == GA_OK ? ga__colmajor_view(func, y, m, qcols) : NULL;
        qq = yv ? ga__contiguous_copy(func, yv, dt) : NULL;
        ga_release(yv);
        if (!qq) st = ga__t.error;
    }
    ga__solver_scratch_free(&sc);
    ga__temps_release(&t);
    if (!rr || st != GA_OK) {
        ga_release(rr), ga_release(qq);
        return ga__t.error ? ga__t.error : GA_ERROR_STATE;
    }
    if (q) *q = ga__ret(qq);
    *r = ga__ret(rr);
    return GA_OK;
}

GPUARR_API ga_status ga_linalg_lstsq(const ga_array *a, const ga_array *b, double rcond, ga_array **x, ga_array **residuals,
                                     ga_array **rank, ga_array **s)
{
    static const char func[] = "ga_linalg_lstsq";
    if (!a) return ga__null_input(func, "a");
    if (!b) return ga__null_input(func, "b");
    if (!x || !residuals || !rank || !s) return ga__null_input(func, "an output");
    if (a->ndim != 2)
        return ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be two-dimensional", a->ndim);
    if (b->ndim != 1 && b->ndim != 2)
        return ga__error(GA_ERROR_LINALG, func, "%d-dimensional array given. Array must be one or two-dimensional", b->ndim);
    const int64_t m = a->shape[0], n = a->shape[1];
    if (b->shape[0] != m) return ga__error(GA_ERROR_LINALG, func, "Incompatible dimensions");
    ga_dtype da = GA_DTYPE_INVALID, dbt = GA_DTYPE_INVALID;
    if (ga__linalg_dtype(func, a, &da) != GA_OK || ga__linalg_dtype(func, b, &dbt) != GA_OK) return ga__t.error;
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const ga_dtype dt = ga_promote_types(da, dbt);
    /* x = vh^H diag(s+) u^H b, s+ = 1/s above rcond max(s), else 0 (NumPy's gelsd's minimum-norm answer) */
    ga__temps t = {{NULL}, 0};
    ga_array *ac = ga__temp(&t, ga__contiguous_copy(func, a, dt));
    ga_array *b2 = ac ? ga__temp(&t, b->ndim == 1 ? ga__unit_dim(func, b, 1) : ga_retain((ga_array *)b)) : NULL;
    ga_array *u = NULL, *sv = NULL, *vh = NULL;
    if (!b2 || ga__svd(func, ac, false, true, &u, &sv, &vh) != GA_OK) return ga__temps_fail(&t);
    ga__temp(&t, u), ga__temp(&t, vh);
    const int last = -1;
    const double f = isnan(rcond) ? (double)GA__MAX(m, n) * ga__linalg_eps(sv->dtype) : rcond;
    ga_array *mx = NULL, *cut = NULL, *big = NULL, *cnt = NULL;
    /* (no singular values: no cutoff, and no max to take) */
    ga_status st = sv->size ? ga__reduce(func, GA_REDUCE_MAX, sv, 1, &last, GA_DTYPE_INVALID, &mx, true, NULL) : GA_OK;
    if (st == GA_OK) {
        if (mx) ga__temp(&t, mx);
        cut = mx ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(mx), ga_operand_scalar(ga_float(f)))) : NULL;
        big = ga__temp(&t, cut ? ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(sv), ga_operand_array(cut))
                               : ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(sv), ga_operand_scalar(ga_float(0))));
        if (!big || ga__reduce(func, GA_REDUCE_COUNT_NONZERO, big, GA_ALL_AXES, GA_DTYPE_INVALID, &cnt, false, NULL) != GA_OK)
            st = ga__t.error;
    }
    ga_array *small = st == GA_OK ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_LOGICAL_NOT, ga_operand_array(big), ga_operand_array(NULL))) : NULL;
    ga_array *den = small ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_ADD, ga_operand_array(sv), ga_operand_array(small))) : NULL;
    ga_array *sinv = den ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_DIVIDE, ga_operand_array(big), ga_operand_array(den))) : NULL;
    ga_array *ut = sinv ? ga__temp(&t, ga__matrix_transposed(func, u)) : NULL;
    ga_array *uh = ut && ga_dtype_kind(dt) == 'c'
                       ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(ut), ga_operand_array(NULL)))
                       : ut;
    ga_array *ub = uh ? ga__temp(&t, ga__matmul_new(func, uh, b2)) : NULL;
    ga_array *sc = ub ? ga__temp(&t, ga__unit_dim(func, sinv, 1)) : NULL;
    ga_array *sub = sc ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_MULTIPLY, ga_operand_array(sc), ga_operand_array(ub))) : NULL;
    ga_array *vt = sub ? ga__temp(&t, ga__matrix_transposed(func, vh)) : NULL;
    ga_array *v = vt && ga_dtype_kind(dt) == 'c'
                      ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_CONJUGATE, ga_operand_array(vt), ga_operand_array(NULL)))
                      : vt;
    ga_array *xs = v ? ga__matmul_new(func, v, sub) : NULL; /* (n, K) */
    /* residuals: |b - a x|^2 summed per column where the rank is n < m; else none */
    int64_t r = 0;
    ga_array *res = NULL;
    if (xs && cnt && ga__read_scalar(func, cnt, GA_INT64, &r) == GA_OK) {
        const ga_dtype real = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? GA_FLOAT32 : GA_FLOAT64;
        if (r == n && m > n) {
            ga_array *ax = ga__temp(&t, ga__matmul_new(func, ac, xs));
            ga_array *d = ax ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_SUBTRACT, ga_operand_array(b2), ga_operand_array(ax))) : NULL;
            ga_array *ad = d ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_ABSOLUTE, ga_operand_array(d), ga_operand_array(NULL))) : NULL;
            ga_array *sq = ad ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_SQUARE, ga_operand_array(ad), ga_operand_array(NULL))) : NULL;
            const int first = 0;
            if (sq && ga__reduce(func, GA_REDUCE_SUM, sq, 1, &first, real, &res, false, NULL) != GA_OK) res = NULL;
        } else {
            const int64_t zero = 0;
            res = ga__array_new(func, a->device, 1, &zero, real);
        }
    }
    if (!res) {
        ga_release(xs), ga_release(cnt);
        ga_release(sv);
        return ga__temps_fail(&t);
    }
    if (b->ndim == 1) { /* x back to (n,); the residuals stay (1,) */
        ga_array *x1 = ga__reshape(func, xs, 1, &n);
        ga_release(xs);
        xs = x1;
    }
    ga__temps_release(&t);
    if (!xs) {
        ga_release(res), ga_release(cnt), ga_release(sv);
        return ga__t.error;
    }
    *x = ga__ret(xs), *residuals = ga__ret(res), *rank = ga__ret(cnt), *s = ga__ret(sv);
    return GA_OK;
}

/* A real matrix's complex right eigenvectors (as columns, in ct) from
   geev's real ones in LAPACK's form: for a pair w_j, w_j+1 = conj(w_j)
   (Im w_j > 0), VR's columns j and j+1 are the real and imaginary parts of
   v_j, and v_j+1 = conj(v_j). r holds VR's columns as its rows
   (column-major, as stored); w the eigenvalues. */
static ga_array *ga__eig_real_vectors(const char *func, const ga_array *r, const ga_array *w, ga_dtype ct)
{
    const int nd = r->ndim;
    ga__temps t = {{NULL}, 0};
    ga_array *wi = ga__temp(&t, ga__complex_part(func, w, 1));
    ga_array *wc = wi ? ga__temp(&t, ga__unit_dim(func, wi, nd - 1)) : NULL; /* (..., n, 1): per row of r */
    ga_array *pos = wc ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_GREATER, ga_operand_array(wc), ga_operand_scalar(ga_float(0)))) : NULL;
    ga_array *neg = pos ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_LESS, ga_operand_array(wc), ga_operand_scalar(ga_float(0)))) : NULL;
    /* the rows after and before each (the wrapped ends are never taken) */
    ga_array *next = neg ? ga__temp(&t, ga__roll(func, r, -1, nd - 2)) : NULL;
    ga_array *prev = next ? ga__temp(&t, ga__roll(func, r, 1, nd - 2)) : NULL;
    ga_array *minus = prev ? ga__temp(&t, ga__linalg_ufunc(func, GA_UFUNC_NEGATIVE, ga_operand_array(r), ga_operand_array(NULL))) : NULL;
    ga_array *re = minus ? ga__temp(&t, ga__where(func, neg, ga_operand_array(prev), ga_operand_array(r))) : NULL;
    ga_array *im0 = re ? ga__temp(&t, ga__where(func, neg, ga_operand_array(minus), ga_operand_scalar(ga_float(0)))) : NULL;
    ga_array *im = im0 ? ga__temp(&t, ga__where(func, pos, ga_operand_array(next), ga_operand_array(im0))) : NULL;
    ga_array *z = im ? ga__temp(&t, ga__array_new(func, r->device, nd, r->shape, ct)) : NULL;
    ga_status st = z ? GA_OK : ga__t.error;
    for (int part = 0; st == GA_OK && part < 2; part++) {
        ga_array *slot = ga__complex_part(func, z, part);
        st = slot ? ga__copyto(func, slot, part ? im : re, GA_CASTING_UNSAFE) : ga__t.error;
        ga_release(slot);
    }
    ga_array *zt = st == GA_OK ? ga__temp(&t, ga__matrix_transposed(func, z)) : NULL;
    ga_array *vv = zt ? ga__contiguous_copy(func, zt, ct) : NULL;
    if (!vv) {
        ga__temps_fail(&t);
        return NULL;
    }
    ga__temps_release(&t);
    return vv;
}

/* eig / eigvals: geev of a transposed copy (column-major a): a complex a
   in complex arithmetic, a real one in real arithmetic (complex
   eigenvalues; the eigenvectors made complex by ga__eig_real_vectors), as
   NumPy's LAPACK call does. */
static ga_status ga__eig(const char *func, const ga_array *a, ga_array **w, ga_array **v)
{
    ga_dtype dt = GA_DTYPE_INVALID;
    if (ga__linalg_square(func, a) != GA_OK || ga__linalg_dtype(func, a, &dt) != GA_OK) return ga__t.error;
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    const ga_dtype ct = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? GA_COMPLEX64 : GA_COMPLEX128;
    const int nd = a->ndim;
    const int64_t n = a->shape[nd - 1], count = ga__stack_count(a);
    ga__temps t = {{NULL}, 0};
    ga_array *at = ga__temp(&t, ga__matrix_transposed(func, a));
    ga_array *x = at ? ga__temp(&t, ga__contiguous_copy(func, at, dt)) : NULL;
    ga_array *wv = x ? ga__array_new(func, a->device, nd - 1, a->shape, ct) : NULL;
    ga_array *vr = wv && v ? ga__temp(&t, ga__array_new(func, a->device, nd, a->shape, dt)) : NULL;
    ga_status st = !wv || (v && !vr) ? ga__t.error : GA_OK;
    if (st == GA_OK && n > 0 && count > 0) {
        cudaDataType type, wtype;
        cublasComputeType_t compute;
        ga__cublas_types(ct, &wtype, &compute);
        ga__cublas_types(dt, &type, &compute);
        const cusolverEigMode_t jobvr = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        ga__cusolver_handle *h = ga__cusolver_bound(func, a->device);
        size_t work = 0, host = 0;
        cusolverStatus_t cs = CUSOLVER_STATUS_SUCCESS;
        if (!h) st = ga__t.error;
        else cs = ga__cusolver.cusolverDnXgeev_bufferSize(h->handle, h->params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type,
                                                         (const void *)(uintptr_t)x->data, n, wtype, (const void *)(uintptr_t)wv->data,
                                                         type, NULL, 1, type, v ? (const void *)(uintptr_t)vr->data : NULL, n, type,
                                                         &work, &host);
        if (st == GA_OK && cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgeev_bufferSize");
        ga__solver_scratch sc = GA__SOLVER_SCRATCH(a->device);
        if (st == GA_OK) st = ga__solver_scratch_get(func, &sc, count, 0, work, host);
        const size_t isz = ga__dtype_sizes[dt], wsz = ga__dtype_sizes[ct];
        for (int64_t i = 0; st == GA_OK && i < count; i++) {
            cs = ga__cusolver.cusolverDnXgeev(h->handle, h->params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type,
                                             (void *)(uintptr_t)(x->data + (uint64_t)(i * n * n) * isz), n, wtype,
                                             (void *)(uintptr_t)(wv->data + (uint64_t)(i * n) * wsz), type, NULL, 1, type,
                                             v ? (void *)(uintptr_t)(vr->data + (uint64_t)(i * n * n) * isz) : NULL, n, type,
                                             sc.work ? (void *)(uintptr_t)sc.work->ptr : NULL, work, sc.host, host,
                                             (int *)(uintptr_t)(sc.info->ptr + (uint64_t)i * sizeof(int)));
            if (cs != CUSOLVER_STATUS_SUCCESS) st = ga__cusolver_error(func, cs, "cusolverDnXgeev");
        }
        if (st == GA_OK) st = ga__solver_check(func, &sc, count, "Eigenvalues did not converge");
        if (st == GA_OK) st = ga__solver_poison(func, &sc, count, wv);
        if (st == GA_OK && v) st = ga__solver_poison(func, &sc, count, vr);
        ga__solver_scratch_free(&sc);
    }
    ga_array *vv = NULL;
    if (st == GA_OK && v && dt != ct) { /* real: pairs of columns to complex vectors */
        if (!(vv = ga__eig_real_vectors(func, vr, wv, ct))) st = ga__t.error;
    } else if (st == GA_OK && v) { /* VR's columns: its transpose as stored */
        ga_array *tv = ga__matrix_transposed(func, vr);
        vv = tv ? ga__contiguous_copy(func, tv, ct) : NULL;
        ga_release(tv);
        if (!vv) st = ga__t.error;
    }
    ga__temps_release(&t);
    if (st != GA_OK) {
        ga_release(wv), ga_release(vv);
        return st;
    }
    *w = wv;
    if (v) *v = vv;
    return GA_OK;
}

GPUARR_API ga_status ga_linalg_eig(const ga_array *a, ga_array **eigenvalues, ga_array **eigenvectors)
{
    static const char func[] = "ga_linalg_eig";
    if (!a) return ga__null_input(func, "a");
    if (!eigenvalues || !eigenvectors) return ga__null_input(func, !eigenvalues ? "eigenvalues" : "eigenvectors");
    ga_array *w = NULL, *v = NULL;
    ga_status st = ga__eig(func, a, &w, &v);
    if (st != GA_OK) return st;
    *eigenvalues = ga__ret(w), *eigenvectors = ga__ret(v);
    return GA_OK;
}

GPUARR_API ga_array *ga_linalg_eigvals(const ga_array *a)
{
    static const char func[] = "ga_linalg_eigvals";
    if (!a) { ga__null_input(func, "a"); return NULL; }
    ga_array *w = NULL;
    return ga__eig(func, a, &w, NULL) == GA_OK ? ga__ret(w) : NULL;
}

static void ga__linalg_shutdown(void) { memset(&ga__linalg_kernels, 0, sizeof ga__linalg_kernels); }

#else
static void ga__linalg_shutdown(void) {}
#endif /* GPUARR_NO_LINALG */

/* >>io */
/* ------------------------------------------------------------------------ */
/* 20. Files and printing: NumPy's .npy format, array2string               */
/* ------------------------------------------------------------------------ */

/* The .npy format (numpy.lib.format): the magic "\x93NUMPY", the version
   (1.0: a 2-byte little-endian header length; 2.0 and 3.0: 4 bytes), then
   the header, a Python dict literal such as
       {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
   padded with spaces and a newline so that the data starts 64-byte
   aligned. Reading takes any literal ast.literal_eval takes of the kinds
   NumPy's headers hold (strings, integers, True / False / None, tuples,
   lists, dicts; floats as text), and NumPy's checks of it, with its words. */

#define GA__NPY_MAGIC "\x93NUMPY"
#define GA__NPY_MAX_HEADER 10000 /* NumPy's _MAX_HEADER_SIZE, without allow_pickle */
#define GA__NPY_CHUNK ((size_t)8 << 20) /* bytes per pinned staging buffer */

/* A parsed .npy header. */
typedef struct ga__npy_header {
    ga_dtype dtype;
    bool swap;    /* big-endian data: each value's bytes (each part's) reversed */
    bool fortran; /* fortran_order */
    int ndim;
    int64_t shape[GA_MAXDIMS];
    size_t data_offset; /* the preamble and the header */
} ga__npy_header;

/* CRC-32 (zip's, reflected 0xEDB88320), its table made once. */
static uint32_t ga__crc_table[256];
static pthread_once_t ga__crc_once = PTHREAD_ONCE_INIT;

static void ga__crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        ga__crc_table[i] = c;
    }
}

static uint32_t ga__crc32(uint32_t crc, const void *data, size_t n)
{
    pthread_once(&ga__crc_once, ga__crc_init);
    const unsigned char *p = (const unsigned char *)data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = ga__crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static uint16_t ga__le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t ga__le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t ga__le64(const unsigned char *p) { return (uint64_t)ga__le32(p) | (uint64_t)ga__le32(p + 4) << 32; }
static void ga__put16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8); }
static void ga__put32(unsigned char *p, uint32_t v) { ga__put16(p, v & 0xffff), ga__put16(p + 2, v >> 16); }
static void ga__put64(unsigned char *p, uint64_t v) { ga__put32(p, (uint32_t)v), ga__put32(p + 4, (uint32_t)(v >> 32)); }


/* A growing string; `oom` once an allocation failed (then it stays as it was). */
typedef struct ga__sb {
    char *p;
    size_t n, cap;
    bool oom;
} ga__sb;

static void ga__sb_add(ga__sb *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = GA__MAX(b->cap * 2, b->n + n + 64);
        char *q = (char *)GPUARR_MALLOC(cap);
        if (!q) {
            b->oom = true;
            return;
        }
        if (b->n) memcpy(q, b->p, b->n);
        GPUARR_FREE(b->p);
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void ga__sb_str(ga__sb *b, const char *s) { ga__sb_add(b, s, strlen(s)); }

static void ga__sb_spaces(ga__sb *b, int n)
{
    for (int i = 0; i < n; i++) ga__sb_add(b, " ", 1);
}

/* A Python literal value, as parsed: its kind, a repr of it as Python
   prints it (normalised spacing; cut at the buffer's end), and for strings
   their text, for integers their value, for tuples of integers the items. */
typedef enum { GA__PY_STR, GA__PY_INT, GA__PY_FLOAT, GA__PY_TRUE, GA__PY_FALSE, GA__PY_NONE, GA__PY_TUPLE, GA__PY_LIST,
               GA__PY_DICT } ga__py_kind;
typedef struct ga__py_value {
    ga__py_kind kind;
    char repr[160];
    size_t repr_len;
    char text[64];      /* a string's (cut at 63 bytes), for descr */
    bool text_cut;
    int64_t value;      /* an integer's */
    bool big;           /* an integer beyond int64 */
    int nitems;         /* a tuple's or a list's */
    bool all_ints;      /* a tuple's items are all integers that fit */
    int64_t items[GA_MAXDIMS + 1];
} ga__py_value;

typedef struct ga__py_parser {
    const char *p, *end;
    int depth;
    bool filter_longs; /* versions 1.0 and 2.0: Python 2's 1L integers (NumPy's _filter_header) */
} ga__py_parser;

static void ga__py_repr_add(ga__py_value *v, const char *s, size_t n)
{
    size_t room = sizeof v->repr - 1 - v->repr_len;
    if (n > room) n = room;
    memcpy(v->repr + v->repr_len, s, n);
    v->repr_len += n;
    v->repr[v->repr_len] = 0;
}

static void ga__py_skip(ga__py_parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\f'))
        ps->p++;
}

static bool ga__py_word(ga__py_parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0) return false;
    const char *after = ps->p + n;
    if (after < ps->end && (isalnum((unsigned char)*after) || *after == '_')) return false;
    ps->p = after;
    return true;
}

/* Python's repr of the (Latin-1) string s[0, n), or of the bytes s[0, n)
   (`bytes`, without the b): quoted with ' unless they hold a ' and no ",
   \\, the quote, \n, \r, \t escaped, other control and non-printable
   characters (bytes: every byte from 0x7f) as \xNN, the rest as UTF-8. */
static void ga__py_repr_text(ga__py_value *v, const char *s, size_t n, bool bytes)
{
    bool sq = memchr(s, '\'', n) != NULL, dq = memchr(s, '"', n) != NULL;
    const char q = sq && !dq ? '"' : '\'';
    ga__py_repr_add(v, &q, 1);
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        char buf[8];
        if (c == '\\' || c == (unsigned char)q) buf[0] = '\\', buf[1] = (char)c, ga__py_repr_add(v, buf, 2);
        else if (c == '\n') ga__py_repr_add(v, "\\n", 2);
        else if (c == '\r') ga__py_repr_add(v, "\\r", 2);
        else if (c == '\t') ga__py_repr_add(v, "\\t", 2);
        else if (c < 0x20 || (c >= 0x7f && (bytes || c <= 0xa0 || c == 0xad))) snprintf(buf, sizeof buf, "\\x%02x", c), ga__py_repr_add(v, buf, 4);
        else if (c < 0x80) ga__py_repr_add(v, (const char *)&c, 1);
        else buf[0] = (char)(0xc0 | (c >> 6)), buf[1] = (char)(0x80 | (c & 0x3f)), ga__py_repr_add(v, buf, 2);
    }
    ga__py_repr_add(v, &q, 1);
}

static bool ga__py_value_parse(ga__py_parser *ps, ga__py_value *v);

/* A string literal (with an optional u prefix): its text unescaped for the
   simple escapes; false for anything else. */
static bool ga__py_string(ga__py_parser *ps, ga__py_value *v)
{
    if (ps->p < ps->end && (*ps->p == 'u' || *ps->p == 'U')) ps->p++;
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"')) return false;
    const char q = *ps->p++;
    char text[GA__NPY_MAX_HEADER];
    size_t n = 0;
    while (ps->p < ps->end && *ps->p != q) {
        char c = *ps->p++;
        if (c == '\n') return false;
        if (c == '\\') {
            if (ps->p >= ps->end) return false;
            c = *ps->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '\\': case '\'': case '"': break;
            default: return false; /* (escapes NumPy's headers never hold) */
            }
        }
        if (n < sizeof text) text[n++] = c;
    }
    if (ps->p >= ps->end) return false;
    ps->p++;
    v->kind = GA__PY_STR;
    v->text_cut = n >= sizeof v->text;
    memcpy(v->text, text, GA__MIN(n, sizeof v->text - 1));
    v->text[GA__MIN(n, sizeof v->text - 1)] = 0;
    ga__py_repr_text(v, text, n, false);
    return true;
}

/* A number: an integer (decimal, with an optional sign) or, with a '.' or
   an exponent, a float kept as text. */
static bool ga__py_number(ga__py_parser *ps, ga__py_value *v)
{
    const char *s = ps->p;
    bool neg = false;
    if (ps->p < ps->end && (*ps->p == '-' || *ps->p == '+')) neg = *ps->p++ == '-';
    ga__py_skip(ps);
    const char *digits = ps->p;
    uint64_t mag = 0;
    bool big = false;
    while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) {
        unsigned d = (unsigned)(*ps->p++ - '0');
        if (mag > (UINT64_MAX - d) / 10) big = true;
        else mag = mag * 10 + d;
    }
    if (ps->p == digits) return false;
    if (ps->p < ps->end && (*ps->p == '.' || *ps->p == 'e' || *ps->p == 'E')) { /* a float */
        while (ps->p < ps->end && (isdigit((unsigned char)*ps->p) || *ps->p == '.' || *ps->p == 'e' || *ps->p == 'E' ||
                                   ((*ps->p == '-' || *ps->p == '+') && (ps->p[-1] == 'e' || ps->p[-1] == 'E'))))
            ps->p++;
        v->kind = GA__PY_FLOAT;
        ga__py_repr_add(v, s, (size_t)(ps->p - s));
        return true;
    }
    if (ps->filter_longs && ps->p < ps->end && (*ps->p == 'L' || *ps->p == 'l')) ps->p++;
    v->kind = GA__PY_INT;
    v->big = big || mag > (uint64_t)INT64_MAX + (neg ? 1u : 0u);
    v->value = v->big ? 0 : neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (neg) ga__py_repr_add(v, "-", 1);
    ga__py_repr_add(v, digits, (size_t)(ps->p - digits) - (ps->p[-1] == 'L' || ps->p[-1] == 'l'));
    return true;
}

/* The items of a tuple, a list or a dict up to `close`; a tuple of one item
   without a comma is that item (parentheses). */
static bool ga__py_items(ga__py_parser *ps, ga__py_value *v, char close, bool *unwrapped)
{
    *unwrapped = false;
    const bool tuple = close == ')', dict = close == '}';
    bool comma = false;
    v->nitems = 0;
    v->all_ints = true;
    ga__py_value *item = (ga__py_value *)GPUARR_MALLOC(2 * sizeof *item);
    if (!item) return false;
    ga__py_value first;
    memset(&first, 0, sizeof first);
    bool ok = true;
    for (;;) {
        ga__py_skip(ps);
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            break;
        }
        if (v->nitems > 0 && !comma) { ok = false; break; }
        memset(&item[0], 0, sizeof item[0]);
        if (!ga__py_value_parse(ps, &item[0])) { ok = false; break; }
        if (v->nitems > 0) ga__py_repr_add(v, ", ", 2);
        ga__py_repr_add(v, item[0].repr, item[0].repr_len);
        if (dict) {
            ga__py_skip(ps);
            if (ps->p >= ps->end || *ps->p != ':') { ok = false; break; }
            ps->p++;
            memset(&item[1], 0, sizeof item[1]);
            if (!ga__py_value_parse(ps, &item[1])) { ok = false; break; }
            ga__py_repr_add(v, ": ", 2);
            ga__py_repr_add(v, item[1].repr, item[1].repr_len);
        }
        if (v->nitems == 0) first = item[0];
        if (item[0].kind != GA__PY_INT || item[0].big) v->all_ints = false;
        else if (v->nitems <= GA_MAXDIMS) v->items[v->nitems] = item[0].value;
        v->nitems++;
        ga__py_skip(ps);
        comma = ps->p < ps->end && *ps->p == ',';
        if (comma) ps->p++;
    }
    GPUARR_FREE(item);
    if (!ok) return false;
    if (tuple && v->nitems == 1 && !comma) { /* (x) is x */
        *v = first;
        *unwrapped = true;
        return true;
    }
    if (tuple && v->nitems == 1) ga__py_repr_add(v, ",", 1);
    return true;
}

static bool ga__py_value_parse(ga__py_parser *ps, ga__py_value *v)
{
    ga__py_skip(ps);
    if (ps->p >= ps->end || ps->depth >= 32) return false;
    const char c = *ps->p;
    if (c == '(' || c == '[' || c == '{') {
        const char close = c == '(' ? ')' : c == '[' ? ']' : '}';
        ps->p++;
        ps->depth++;
        v->kind = c == '(' ? GA__PY_TUPLE : c == '[' ? GA__PY_LIST : GA__PY_DICT;
        ga__py_repr_add(v, &c, 1);
        bool unwrapped;
        bool ok = ga__py_items(ps, v, close, &unwrapped);
        ps->depth--;
        if (ok && !unwrapped) ga__py_repr_add(v, &close, 1);
        return ok;
    }
    if (c == '\'' || c == '"' || ((c == 'u' || c == 'U') && ps->p + 1 < ps->end && (ps->p[1] == '\'' || ps->p[1] == '"')))
        return ga__py_string(ps, v);
    if (c == '-' || c == '+' || isdigit((unsigned char)c)) return ga__py_number(ps, v);
    if (ga__py_word(ps, "True")) { v->kind = GA__PY_TRUE; ga__py_repr_add(v, "True", 4); return true; }
    if (ga__py_word(ps, "False")) { v->kind = GA__PY_FALSE; ga__py_repr_add(v, "False", 5); return true; }
    if (ga__py_word(ps, "None")) { v->kind = GA__PY_NONE; ga__py_repr_add(v, "None", 4); return true; }
    return false;
}

/* NumPy's descr of dtype t ('<f8', '|b1', ...); NULL for bfloat16. */
static const char *ga__npy_descr(ga_dtype t)
{
    switch (t) {
    case GA_BOOL: return "|b1";
    case GA_INT8: return "|i1";
    case GA_INT16: return "<i2";
    case GA_INT32: return "<i4";
    case GA_INT64: return "<i8";
    case GA_UINT8: return "|u1";
    case GA_UINT16: return "<u2";
    case GA_UINT32: return "<u4";
    case GA_UINT64: return "<u8";
    case GA_FLOAT16: return "<f2";
    case GA_FLOAT32: return "<f4";
    case GA_FLOAT64: return "<f8";
    case GA_COMPLEX64: return "<c8";
    case GA_COMPLEX128: return "<c16";
    default: return NULL;
    }
}

/* The dtype of a descr string: GA_OK with *t and *swap (big-endian), or
   the error: an object dtype, one NumPy has that gpuarr lacks, or text
   that is no dtype at all (NumPy's "descr is not a valid dtype
   descriptor"). */
static ga_status ga__npy_dtype_of(const char *func, const ga__py_value *d, ga_dtype *t, bool *swap)
{
    const char *s = d->text;
    char order = '=';
    if (*s == '<' || *s == '>' || *s == '|' || *s == '=') order = *s++;
    *swap = order == '>';
    if (!d->text_cut && (strcmp(s, "O") == 0 || strcmp(s, "O8") == 0 || strcmp(s, "O4") == 0))
        return ga__error(GA_ERROR_VALUE, func, "Object arrays cannot be loaded when allow_pickle=False");
    static const struct { const char *code; ga_dtype t; } codes[] = {
        {"b1", GA_BOOL},       {"?", GA_BOOL},        {"i1", GA_INT8},       {"i2", GA_INT16},    {"i4", GA_INT32},
        {"i8", GA_INT64},      {"u1", GA_UINT8},      {"u2", GA_UINT16},     {"u4", GA_UINT32},   {"u8", GA_UINT64},
        {"f2", GA_FLOAT16},    {"f4", GA_FLOAT32},    {"f8", GA_FLOAT64},    {"c8", GA_COMPLEX64}, {"c16", GA_COMPLEX128},
        {"b", GA_INT8},        {"B", GA_UINT8},       {"h", GA_INT16},       {"H", GA_UINT16},    {"e", GA_FLOAT16},
        {"f", GA_FLOAT32},     {"d", GA_FLOAT64},     {"F", GA_COMPLEX64},   {"D", GA_COMPLEX128}};
    for (size_t i = 0; !d->text_cut && i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(s, codes[i].code) == 0) {
            *t = codes[i].t;
            if (ga__dtype_sizes[*t] == 1) *swap = false;
            return GA_OK;
        }
    /* NumPy's other kinds: strings, bytes, void, datetimes, long doubles, ... */
    if (*s && strchr("?bBhHiIlLqQnNpPeEfdgFDGSUVaMmcO", *s) && (s[1] == 0 || isdigit((unsigned char)s[1]) || s[1] == '['))
        return ga__error(GA_ERROR_TYPE, func, "dtype '%s' is not supported by gpuarr", d->text);
    return ga__error(GA_ERROR_VALUE, func, "descr is not a valid dtype descriptor: %s", d->repr);
}

/* A key of the header dict, for NumPy's sorted list of them. */
typedef struct ga__npy_key {
    char repr[64], text[64];
} ga__npy_key;

static int ga__npy_key_cmp(const void *a, const void *b)
{
    return strcmp(((const ga__npy_key *)a)->text, ((const ga__npy_key *)b)->text);
}

/* The header dict's text [p, end): its three keys, checked as NumPy's
   _read_array_header checks them, into *h. */
static ga_status ga__npy_dict(const char *func, const char *p, const char *end, bool py2, ga__npy_header *h)
{
    ga__py_parser ps = {p, end, 0, py2};
    ga__py_value *v = (ga__py_value *)GPUARR_MALLOC(4 * sizeof *v); /* the dict, descr, fortran_order, shape */
    if (!v) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    memset(v, 0, 4 * sizeof *v);
    ga_status st = GA_OK;
    bool parsed = ga__py_value_parse(&ps, &v[0]);
    if (parsed) ga__py_skip(&ps);
    if (!parsed || ps.p != end) {
        ga__py_value q;
        memset(&q, 0, sizeof q);
        ga__py_repr_text(&q, p, (size_t)(end - p), false);
        st = ga__error(GA_ERROR_VALUE, func, "Cannot parse header: %s", q.repr);
    } else if (v[0].kind != GA__PY_DICT) {
        st = ga__error(GA_ERROR_VALUE, func, "Header is not a dictionary: %s", v[0].repr);
    } else { /* the keys, once more: each key and value */
        static const char *const want[3] = {"descr", "fortran_order", "shape"};
        bool seen[3] = {false, false, false}, other = false;
        ga__npy_key keys[16];
        int nkeys = 0;
        ga__py_parser kp = {p, end, 0, py2};
        ga__py_skip(&kp);
        kp.p++; /* { */
        ga__py_value key, scratch;
        for (;;) {
            ga__py_skip(&kp);
            if (kp.p >= end || *kp.p == '}') break;
            memset(&key, 0, sizeof key);
            ga__py_value_parse(&kp, &key);
            ga__py_skip(&kp);
            kp.p++; /* : */
            int k = -1;
            for (int i = 0; i < 3 && key.kind == GA__PY_STR && !key.text_cut; i++)
                if (strcmp(key.text, want[i]) == 0) k = i;
            bool again = false; /* (a repeated key: the last value counts, as in a dict) */
            for (int i = 0; i < nkeys; i++) again = again || strcmp(keys[i].repr, key.repr) == 0;
            if (!again && nkeys < 16) {
                const char *t = key.kind == GA__PY_STR ? key.text : key.repr;
                memcpy(keys[nkeys].repr, key.repr, GA__MIN(strlen(key.repr) + 1, sizeof keys[nkeys].repr));
                memcpy(keys[nkeys].text, t, GA__MIN(strlen(t) + 1, sizeof keys[nkeys].text));
                keys[nkeys].repr[sizeof keys[nkeys].repr - 1] = keys[nkeys].text[sizeof keys[nkeys].text - 1] = 0;
                nkeys++;
            }
            if (k < 0) other = true;
            else seen[k] = true;
            ga__py_value *slot = k >= 0 ? &v[1 + k] : &scratch;
            memset(slot, 0, sizeof *slot);
            ga__py_value_parse(&kp, slot);
            ga__py_skip(&kp);
            if (kp.p < end && *kp.p == ',') kp.p++;
        }
        if (other || !seen[0] || !seen[1] || !seen[2]) { /* NumPy lists sorted(keys) */
            qsort(keys, (size_t)nkeys, sizeof keys[0], ga__npy_key_cmp);
            char list[16 * 72 + 4];
            size_t n = 0;
            list[n++] = '[';
            for (int i = 0; i < nkeys; i++) n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", keys[i].repr);
            list[n++] = ']', list[n] = 0;
            st = ga__error(GA_ERROR_VALUE, func, "Header does not contain the correct keys: %s", list);
        } else if (v[3].kind != GA__PY_TUPLE || !v[3].all_ints) {
            st = ga__error(GA_ERROR_VALUE, func, "shape is not valid: %s", v[3].repr);
        } else if (v[2].kind != GA__PY_TRUE && v[2].kind != GA__PY_FALSE) {
            st = ga__error(GA_ERROR_VALUE, func, "fortran_order is not a valid bool: %s", v[2].repr);
        } else if (v[1].kind == GA__PY_LIST) {
            st = ga__error(GA_ERROR_TYPE, func, "structured dtypes are not supported by gpuarr: %s", v[1].repr);
        } else if (v[1].kind != GA__PY_STR) {
            st = ga__error(GA_ERROR_VALUE, func, "descr is not a valid dtype descriptor: %s", v[1].repr);
        } else if ((st = ga__npy_dtype_of(func, &v[1], &h->dtype, &h->swap)) == GA_OK) {
            h->fortran = v[2].kind == GA__PY_TRUE;
            if (v[3].nitems > GA_MAXDIMS)
                st = ga__error(GA_ERROR_VALUE, func, "maximum supported dimension for an ndarray is %d, found %d", GA_MAXDIMS,
                               v[3].nitems);
            h->ndim = v[3].nitems;
            int64_t elems = 1;
            for (int d = 0; st == GA_OK && d < h->ndim; d++) {
                h->shape[d] = v[3].items[d];
                if (h->shape[d] < 0) st = ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
                else if (h->shape[d] && elems > INT64_MAX / h->shape[d]) st = ga__error(GA_ERROR_VALUE, func, "array is too big.");
                else elems *= h->shape[d];
            }
            if (st == GA_OK && elems > INT64_MAX / (int64_t)ga__dtype_sizes[h->dtype])
                st = ga__error(GA_ERROR_VALUE, func, "array is too big.");
        }
    }
    GPUARR_FREE(v);
    return st;
}

/* The header of the .npy bytes buf[0, len) (at least the preamble and the
   header; the data may follow): into *h with h->data_offset, or NumPy's
   error. */
static ga_status ga__npy_parse(const char *func, const unsigned char *buf, size_t len, ga__npy_header *h)
{
    memset(h, 0, sizeof *h);
    if (len < 8)
        return ga__error(GA_ERROR_VALUE, func, "EOF: reading magic string, expected 8 bytes got %zu", len);
    if (memcmp(buf, GA__NPY_MAGIC, 6) != 0) {
        ga__py_value q;
        memset(&q, 0, sizeof q);
        ga__py_repr_text(&q, (const char *)buf, 6, true);
        return ga__error(GA_ERROR_VALUE, func, "the magic string is not correct; expected b'\\x93NUMPY', got b%s", q.repr);
    }
    const int major = buf[6], minor = buf[7];
    if (!((major == 1 || major == 2 || major == 3) && minor == 0))
        return ga__error(GA_ERROR_VALUE, func, "we only support format version (1,0), (2,0), and (3,0), not (%d, %d)", major, minor);
    const size_t lenbytes = major == 1 ? 2 : 4;
    if (len < 8 + lenbytes)
        return ga__error(GA_ERROR_VALUE, func, "EOF: reading array header length, expected %zu bytes got %zu", lenbytes, len - 8);
    size_t hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    if (major > 1) hlen |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    const size_t start = 8 + lenbytes;
    if (hlen > GA__NPY_MAX_HEADER) /* (checked first: ga_load reads no more than this) */
        return ga__error(GA_ERROR_VALUE, func, "Header info length (%zu) is large and may not be safe to load securely.", hlen);
    if (len - start < hlen)
        return ga__error(GA_ERROR_VALUE, func, "EOF: reading array header, expected %zu bytes got %zu", hlen, len - start);
    h->data_offset = start + hlen;
    return ga__npy_dict(func, (const char *)buf + start, (const char *)buf + start + hlen, major < 3, h);
}

/* NumPy's header for an array of dtype t and shape (ndim), C or Fortran
   order: the preamble, the dict with its growth padding, spaces and a
   newline to a multiple of 64 bytes. Written into out (cap bytes; NULL to
   ask): its length. */
static size_t ga__npy_header_write(char *out, size_t cap, ga_dtype t, int ndim, const int64_t *shape, bool fortran)
{
    char dict[64 + GA_MAXDIMS * 24], sh[GA_MAXDIMS * 24];
    size_t n = 0;
    sh[n++] = '(';
    for (int d = 0; d < ndim; d++) n += (size_t)snprintf(sh + n, sizeof sh - n, d ? ", %lld" : "%lld", (long long)shape[d]);
    if (ndim == 1) sh[n++] = ',';
    sh[n++] = ')', sh[n] = 0;
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", ga__npy_descr(t),
                       fortran ? "True" : "False", sh);
    if (ndim > 0) { /* NumPy's room for the growth axis's digits to grow */
        char digits[24];
        const int g = snprintf(digits, sizeof digits, "%lld", (long long)shape[fortran ? ndim - 1 : 0]);
        for (int i = g; i < 21; i++) dict[len++] = ' ';
        dict[len] = 0;
    }
    const size_t lenbytes = (size_t)len + 1 + 10 < 65536 + 10 ? 2 : 4; /* version 1.0 while the length fits 2 bytes */
    size_t total = 6 + 2 + lenbytes + (size_t)len + 1;
    total += 64 - total % 64; /* (NumPy's padding: 64 spaces where none are needed) */
    if (!out || cap < total) return total;
    const size_t hlen = total - 8 - lenbytes;
    memcpy(out, GA__NPY_MAGIC, 6);
    out[6] = (char)(lenbytes == 2 ? 1 : 2), out[7] = 0;
    for (size_t i = 0; i < lenbytes; i++) out[8 + i] = (char)((hlen >> (8 * i)) & 0xff);
    memcpy(out + 8 + lenbytes, dict, (size_t)len);
    memset(out + 8 + lenbytes + len, ' ', total - 8 - lenbytes - (size_t)len - 1);
    out[total - 1] = '\n';
    return total;
}

/* Reverses the bytes of each of the n values of `size` bytes at p (complex:
   each part). */
static void ga__npy_swap(unsigned char *p, size_t n, size_t size, bool complex)
{
    const size_t part = complex ? size / 2 : size;
    for (size_t i = 0; i < n * size; i += part)
        for (size_t a = 0, b = part - 1; a < b; a++, b--) {
            unsigned char t = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = t;
        }
}

/* The file's name as NumPy's save makes it: ".npy" appended unless there. */
static char *ga__npy_name(const char *file)
{
    const size_t n = strlen(file);
    const bool has = n >= 4 && strcmp(file + n - 4, ".npy") == 0;
    char *name = (char *)GPUARR_MALLOC(n + 5);
    if (name) snprintf(name, n + 5, "%s%s", file, has ? "" : ".npy");
    return name;
}

/* --- the bytes of .npy files and .npz members: stored or deflated ----------- */
/* A .npy file's bytes go to and come from a file through these two: as
   they are (.npy files, ga_tofile, ga_fromfile, numpy.savez's stored
   members) or through zlib's raw deflate (numpy.savez_compressed's
   members, zipfile's ZIP_DEFLATED: windowBits -15, zlib's default level
   6), a chunk at a time, their CRC-32 kept. zlib is opened (>>libs) only
   when a stream deflates or inflates. */

#define GA__ZIP_CHUNK ((size_t)1 << 20) /* compressed bytes per read or write */

/* zlib's failure `r` while `what` ("decompressing data") in the words of
   Python's zlib module, as zipfile passes them on ("Error -3 while
   decompressing data: invalid stored block lengths"). */
static ga_status ga__zlib_error(const char *func, int r, const ga__z_stream *z, const char *what)
{
    if (r == GA__Z_MEM_ERROR) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "Out of memory while %s", what);
    const char *msg = r == GA__Z_VERSION_ERROR ? "library version mismatch" : z->msg;
    if (!msg)
        msg = r == GA__Z_BUF_ERROR      ? "incomplete or truncated stream"
              : r == GA__Z_STREAM_ERROR ? "inconsistent stream state"
              : r == GA__Z_DATA_ERROR   ? "invalid input data"
                                        : NULL;
    const ga_status code = r == GA__Z_VERSION_ERROR ? GA_ERROR_LIBRARY : GA_ERROR_VALUE;
    return msg ? ga__error(code, func, "Error %d while %s: %.200s", r, what, msg) : ga__error(code, func, "Error %d while %s", r, what);
}

/* Where the bytes a writer gives go: f from its position, as they are or
   deflated; `crc` is the CRC-32 of the bytes given (kept for an archive
   member), `written` the bytes put in f. */
typedef struct ga__npy_out {
    FILE *f;
    const char *file;
    uint32_t crc;
    uint64_t written;
    bool member, deflating;
    ga__z_stream z;
    unsigned char *zbuf; /* deflate's output, GA__ZIP_CHUNK bytes */
} ga__npy_out;

/* *out over f (named `file` in errors), deflating or not, an archive
   member or not; ga__npy_out_close a deflating one, also after a failure
   (a stored one holds nothing). */
static ga_status ga__npy_out_open(const char *func, ga__npy_out *out, FILE *f, const char *file, bool member, bool deflate)
{
    memset(out, 0, sizeof *out);
    out->f = f, out->file = file, out->member = member;
    if (!deflate) return GA_OK;
    if (ga__library_open(func, GA__LIB_ZLIB) != GA_OK) return ga__t.error;
    out->zbuf = (unsigned char *)GPUARR_MALLOC(GA__ZIP_CHUNK);
    if (!out->zbuf) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    /* zipfile's compressobj(Z_DEFAULT_COMPRESSION, DEFLATED, -15): memLevel 8, the default strategy */
    const int r = ga__zlib.deflateInit2_(&out->z, GA__Z_DEFAULT_COMPRESSION, GA__Z_DEFLATED, -15, 8, GA__Z_DEFAULT_STRATEGY,
                                         GA__ZLIB_VERSION, (int)sizeof out->z);
    if (r != GA__Z_OK) return ga__zlib_error(func, r, &out->z, "creating compression object");
    out->deflating = true;
    return GA_OK;
}

/* Runs deflate over the input set in out->z with `flush`, writing what it
   makes: until the input is taken (Z_NO_FLUSH) or the stream ends
   (Z_FINISH). */
static ga_status ga__npy_deflate(const char *func, ga__npy_out *out, int flush)
{
    for (;;) {
        out->z.next_out = out->zbuf;
        out->z.avail_out = (unsigned)GA__ZIP_CHUNK;
        const int r = ga__zlib.deflate(&out->z, flush);
        if (r != GA__Z_OK && r != GA__Z_STREAM_END && r != GA__Z_BUF_ERROR) return ga__zlib_error(func, r, &out->z, "compressing data");
        const size_t k = GA__ZIP_CHUNK - out->z.avail_out;
        if (k && fwrite(out->zbuf, 1, k, out->f) != k) return ga__error(GA_ERROR_IO, func, "could not write %s: %s", out->file, strerror(errno));
        out->written += k;
        if (flush == GA__Z_FINISH ? r == GA__Z_STREAM_END : out->z.avail_out != 0) return GA_OK;
    }
}

/* The n bytes at p, written or deflated. */
static ga_status ga__npy_out_write(const char *func, ga__npy_out *out, const void *p, size_t n)
{
    if (out->member) out->crc = ga__crc32(out->crc, p, n);
    if (!out->deflating) {
        if (n && fwrite(p, 1, n, out->f) != n) return ga__error(GA_ERROR_IO, func, "could not write %s: %s", out->file, strerror(errno));
        out->written += n;
        return GA_OK;
    }
    for (size_t at = 0; at < n;) {
        const size_t k = GA__MIN(n - at, (size_t)1 << 30);
        out->z.next_in = (unsigned char *)p + at; /* (zlib only reads it) */
        out->z.avail_in = (unsigned)k;
        const ga_status st = ga__npy_deflate(func, out, GA__Z_NO_FLUSH);
        if (st != GA_OK) return st;
        at += k;
    }
    return GA_OK;
}

/* The end of the bytes: deflate's last block written. */
static ga_status ga__npy_out_finish(const char *func, ga__npy_out *out)
{
    if (!out->deflating) return GA_OK;
    out->z.next_in = NULL;
    out->z.avail_in = 0;
    return ga__npy_deflate(func, out, GA__Z_FINISH);
}

static void ga__npy_out_close(ga__npy_out *out)
{
    if (out->deflating) ga__zlib.deflateEnd(&out->z);
    out->deflating = false;
    GPUARR_FREE(out->zbuf);
    out->zbuf = NULL;
}

/* Where the bytes a loader reads come from: f from its position, at most
   `left` bytes of it (an archive member's; UINT64_MAX: to the file's
   end), as they are or inflated. For an archive member (`member` not
   NULL) `crc` is the CRC-32 of the bytes given, checked against
   `want_crc` when its bytes end, as zipfile checks it ("Bad CRC-32 for
   file 'x.npy'"); `ended` says they did. A deflated member whose compressed
   bytes end before its stream gives what they hold, as zipfile does. */
typedef struct ga__npy_in {
    FILE *f;
    const char *file, *member;
    uint64_t left;
    uint32_t crc, want_crc;
    bool ended, inflating;
    ga__z_stream z;
    unsigned char *zbuf; /* compressed bytes read, GA__ZIP_CHUNK */
} ga__npy_in;

/* *in over f (named `file` in errors): `size` bytes stored (method 0) or
   deflated (8), zipfile's NotImplementedError for another method; a
   member's name and CRC-32 (NULL: not a member). ga__npy_in_close it, also
   after a failure. */
static ga_status ga__npy_in_open(const char *func, ga__npy_in *in, FILE *f, const char *file, uint64_t size, int method,
                                 const char *member, uint32_t crc)
{
    memset(in, 0, sizeof *in);
    in->f = f, in->file = file, in->left = size, in->member = member, in->want_crc = crc;
    if (method == 0) return GA_OK;
    if (method != 8) return ga__error(GA_ERROR_NOT_IMPLEMENTED, func, "That compression method is not supported");
    if (ga__library_open(func, GA__LIB_ZLIB) != GA_OK) return ga__t.error;
    in->zbuf = (unsigned char *)GPUARR_MALLOC(GA__ZIP_CHUNK);
    if (!in->zbuf) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    const int r = ga__zlib.inflateInit2_(&in->z, -15, GA__ZLIB_VERSION, (int)sizeof in->z);
    if (r != GA__Z_OK) return ga__zlib_error(func, r, &in->z, "creating decompression object");
    in->inflating = true;
    return GA_OK;
}

/* Up to n bytes into dst, *got of them: fewer only where the bytes end.
   GA_OK, or the error: the file unreadable, zlib's, a member's bad CRC. */
static ga_status ga__npy_in_read(const char *func, ga__npy_in *in, void *dst, size_t n, size_t *got)
{
    unsigned char *out = (unsigned char *)dst;
    *got = 0;
    if (!in->inflating) {
        const size_t want = (size_t)GA__MIN((uint64_t)n, in->left);
        const size_t k = want ? fread(out, 1, want, in->f) : 0;
        if (k < want && ferror(in->f)) return ga__error(GA_ERROR_IO, func, "could not read %s: %s", in->file, strerror(errno));
        in->left = k < want ? 0 : in->left - k;
        if (in->member) in->crc = ga__crc32(in->crc, out, k);
        *got = k;
        in->ended = in->left == 0;
    }
    while (in->inflating && *got < n && !in->ended) {
        if (in->z.avail_in == 0 && in->left > 0) {
            const size_t want = (size_t)GA__MIN((uint64_t)GA__ZIP_CHUNK, in->left);
            const size_t k = fread(in->zbuf, 1, want, in->f);
            if (k < want && ferror(in->f)) return ga__error(GA_ERROR_IO, func, "could not read %s: %s", in->file, strerror(errno));
            in->left = k < want ? 0 : in->left - k;
            in->z.next_in = in->zbuf;
            in->z.avail_in = (unsigned)k;
        }
        const size_t room = GA__MIN(n - *got, (size_t)1 << 30);
        in->z.next_out = out + *got;
        in->z.avail_out = (unsigned)room;
        const int r = ga__zlib.inflate(&in->z, GA__Z_NO_FLUSH);
        const size_t made = room - in->z.avail_out;
        if (in->member) in->crc = ga__crc32(in->crc, out + *got, made);
        *got += made;
        if (r == GA__Z_STREAM_END || (r == GA__Z_BUF_ERROR && in->z.avail_in == 0 && in->left == 0)) in->ended = true;
        else if (r != GA__Z_OK) return ga__zlib_error(func, r, &in->z, "decompressing data");
    }
    if (in->ended && in->member && in->crc != in->want_crc) {
        const char *member = in->member;
        in->member = NULL; /* (said once) */
        return ga__error(GA_ERROR_VALUE, func, "Bad CRC-32 for file '%s'", member);
    }
    return GA_OK;
}

static void ga__npy_in_close(ga__npy_in *in)
{
    if (in->inflating) ga__zlib.inflateEnd(&in->z);
    in->inflating = false;
    GPUARR_FREE(in->zbuf);
    in->zbuf = NULL;
}

/* Copies the C-contiguous bytes of device array c to out through pinned
   staging buffers, a chunk at a time. */
static ga_status ga__npy_write_data(const char *func, ga__npy_out *out, const ga_array *c)
{
    const size_t total = ga_nbytes(c), chunk = GA__MIN(total, GA__NPY_CHUNK);
    if (total == 0) return GA_OK;
    unsigned char *buf = (unsigned char *)ga_pinned_alloc(chunk);
    if (!buf) return ga__t.error;
    CUstream stream = ga__stream_of(c->device);
    ga_status st = GA_OK;
    for (size_t at = 0; st == GA_OK && at < total; at += chunk) {
        const size_t n = GA__MIN(chunk, total - at);
        CUresult r = GA__CU.MemcpyDtoHAsync(buf, (CUdeviceptr)(c->data + at), n, stream);
        if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
        st = r != CUDA_SUCCESS ? ga__cuda_error(func, r, "cuMemcpyDtoHAsync") : ga__npy_out_write(func, out, buf, n);
    }
    ga_pinned_free(buf);
    return st;
}

/* What ga_save and ga_savez write of arr: its .npy header into header (cap
   bytes; *hbytes its length) and the array whose bytes follow it, C order
   or, for an F-contiguous array that is not C-contiguous, F order as it is
   stored (NumPy's fortran_order); NULL with the error (bfloat16 has no
   .npy form). Release it. */
static ga_array *ga__npy_prepare(const char *func, const ga_array *arr, char *header, size_t cap, size_t *hbytes)
{
    if (!ga__npy_descr(arr->dtype)) {
        ga__error(GA_ERROR_TYPE, func, "dtype %s has no .npy format (NumPy stores no bfloat16)", ga__dtype_names[arr->dtype]);
        return NULL;
    }
    if (ga__bind(func, arr->device) != GA_OK) return NULL;
    const bool fortran = (arr->flags & GA_F_CONTIGUOUS) && !(arr->flags & GA_C_CONTIGUOUS);
    ga_array *c = fortran || (arr->flags & GA_C_CONTIGUOUS) ? ga_retain((ga_array *)arr) : ga__contiguous_copy(func, arr, arr->dtype);
    if (c) *hbytes = ga__npy_header_write(header, cap, arr->dtype, arr->ndim, arr->shape, fortran);
    return c;
}

GPUARR_API ga_status ga_save(const char *file, const ga_array *arr)
{
    static const char func[] = "ga_save";
    if (!file) return ga__null_input(func, "file");
    if (!arr) return ga__null_input(func, "arr");
    char header[64 + 128 + GA_MAXDIMS * 48];
    size_t hbytes = 0;
    ga_array *c = ga__npy_prepare(func, arr, header, sizeof header, &hbytes);
    if (!c) return ga__t.error;
    char *name = ga__npy_name(file);
    FILE *f = name ? fopen(name, "wb") : NULL;
    ga_status st = GA_OK;
    if (!name) st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    else if (!f) st = ga__error(GA_ERROR_IO, func, "could not open %s for writing: %s", name, strerror(errno));
    ga__npy_out out;
    if (st == GA_OK) st = ga__npy_out_open(func, &out, f, name, false, false);
    if (st == GA_OK) st = ga__npy_out_write(func, &out, header, hbytes);
    if (st == GA_OK) st = ga__npy_write_data(func, &out, c);
    if (f && fclose(f) != 0 && st == GA_OK) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", name, strerror(errno));
    GPUARR_FREE(name);
    ga_release(c);
    return st;
}

/* Reads the data of header h from in into the C-contiguous `a` (h's shape,
   reversed for Fortran order) through pinned staging buffers, swapping
   big-endian values; NumPy's error where the bytes end first. */
static ga_status ga__npy_read_data(const char *func, ga__npy_in *in, ga_array *a, const ga__npy_header *h)
{
    const size_t total = ga_nbytes(a), isz = ga__dtype_sizes[a->dtype], chunk = GA__MIN(total, GA__NPY_CHUNK / isz * isz);
    if (total == 0) return GA_OK;
    unsigned char *buf = (unsigned char *)ga_pinned_alloc(chunk);
    if (!buf) return ga__t.error;
    CUstream stream = ga__stream_of(a->device);
    ga_status st = GA_OK;
    size_t at = 0;
    while (st == GA_OK && at < total) {
        const size_t want = GA__MIN(chunk, total - at);
        size_t got = 0;
        st = ga__npy_in_read(func, in, buf, want, &got);
        if (st != GA_OK) break;
        if (h->swap) ga__npy_swap(buf, got / isz, isz, ga__is_complex(a->dtype));
        CUresult r = GA__CU.MemcpyHtoDAsync((CUdeviceptr)(a->data + at), buf, got, stream);
        if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream); /* (buf is reused) */
        if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemcpyHtoDAsync");
        at += got;
        if (st == GA_OK && got < want) {
            char sh[GA_MAXDIMS * 24];
            ga__format_shape(sh, sizeof sh, h->ndim, h->shape);
            st = ga__error(GA_ERROR_VALUE, func,
                           "Failed to read all data for array. Expected %s = %lld elements, could only read %lld elements. "
                           "(file seems not fully written?)",
                           sh, (long long)a->size, (long long)(at / isz));
        }
    }
    ga_pinned_free(buf);
    return st;
}

/* The .npy file whose bytes `in` gives, as a new array (unscoped). The
   preamble, the header length and the header are read in turn, no byte
   past the header: the data follows. */
static ga_array *ga__npy_load(const char *func, ga__npy_in *in)
{
    unsigned char pre[12 + GA__NPY_MAX_HEADER];
    size_t got = 0, more = 0;
    ga_status st = ga__npy_in_read(func, in, pre, 10, &got);
    const size_t need = got >= 8 && memcmp(pre, GA__NPY_MAGIC, 6) == 0 && pre[6] >= 2 ? 12 : 10;
    if (st == GA_OK && got == 10 && need == 12) st = ga__npy_in_read(func, in, pre + got, 2, &more), got += more;
    const size_t hlen = got >= 10 ? ((size_t)pre[8] | (size_t)pre[9] << 8 | (need == 12 && got >= 12 ? (size_t)pre[10] << 16 | (size_t)pre[11] << 24 : 0)) : 0;
    if (st == GA_OK && got == need && hlen <= GA__NPY_MAX_HEADER) st = ga__npy_in_read(func, in, pre + got, hlen, &more), got += more;
    ga__npy_header h;
    if (st == GA_OK) st = ga__npy_parse(func, pre, got, &h);
    ga_array *a = NULL, *r = NULL;
    if (st == GA_OK) {
        int64_t shape[GA_MAXDIMS];
        for (int d = 0; d < h.ndim; d++) shape[d] = h.shape[h.fortran ? h.ndim - 1 - d : d];
        a = ga__new_on_current(func, h.ndim, shape, h.dtype);
        if (!a || ga__npy_read_data(func, in, a, &h) != GA_OK) st = ga__t.error ? ga__t.error : GA_ERROR_STATE;
    }
    if (st == GA_OK) r = h.fortran ? ga__transpose(func, a, NULL) : ga_retain(a);
    ga_release(a);
    return r;
}

GPUARR_API ga_array *ga_load(const char *file)
{
    static const char func[] = "ga_load";
    if (!file) { ga__null_input(func, "file"); return NULL; }
    FILE *f = fopen(file, "rb");
    if (!f) {
        ga__error(GA_ERROR_IO, func, "[Errno %d] %s: '%s'", errno, strerror(errno), file);
        return NULL;
    }
    ga__npy_in in;
    ga_array *r = ga__npy_in_open(func, &in, f, file, UINT64_MAX, 0, NULL, 0) == GA_OK ? ga__npy_load(func, &in) : NULL;
    ga__npy_in_close(&in);
    fclose(f);
    return ga__ret(r);
}

/* The text modes of tofile and fromfile (with the printing code, below). */
static ga_status ga__text_write_data(const char *func, FILE *out, const ga_array *c, const char *name, const char *sep,
                                     const char *format);
static ga_array *ga__fromfile_text(const char *func, FILE *f, const char *file, ga_dtype dtype, int64_t count, const char *sep);

GPUARR_API ga_status ga_tofile(const ga_array *a, const char *file, const char *sep, const char *format)
{
    static const char func[] = "ga_tofile";
    if (!a) return ga__null_input(func, "a");
    if (!file) return ga__null_input(func, "file");
    if (ga__bind(func, a->device) != GA_OK) return ga__t.error;
    ga_array *c = (a->flags & GA_C_CONTIGUOUS) ? ga_retain((ga_array *)a) : ga__contiguous_copy(func, a, a->dtype);
    if (!c) return ga__t.error;
    FILE *f = fopen(file, "wb");
    ga_status st = GA_OK;
    if (!f) {
        st = ga__error(GA_ERROR_IO, func, "could not open %s for writing: %s", file, strerror(errno));
    } else if (sep && *sep) {
        st = ga__text_write_data(func, f, c, file, sep, format);
    } else {
        ga__npy_out out;
        st = ga__npy_out_open(func, &out, f, file, false, false);
        if (st == GA_OK) st = ga__npy_write_data(func, &out, c);
    }
    if (f && fclose(f) != 0 && st == GA_OK) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", file, strerror(errno));
    ga_release(c);
    return st;
}

GPUARR_API ga_array *ga_fromfile(const char *file, ga_dtype dtype, int64_t count, const char *sep, int64_t offset)
{
    static const char func[] = "ga_fromfile";
    const bool text = sep && *sep;
    if (!file) { ga__null_input(func, "file"); return NULL; }
    if (!ga__dtype_valid(dtype)) { ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype); return NULL; }
    if (text && offset != 0) { ga__error(GA_ERROR_TYPE, func, "'offset' argument only permitted for binary files"); return NULL; }
    if (offset < 0) { ga__error(GA_ERROR_VALUE, func, "offset must be non-negative"); return NULL; }
    FILE *f = fopen(file, "rb");
    if (!f) {
        ga__error(GA_ERROR_IO, func, "[Errno %d] %s: '%s'", errno, strerror(errno), file);
        return NULL;
    }
    if (text) {
        ga_array *t = ga__fromfile_text(func, f, file, dtype, count, sep);
        fclose(f);
        return ga__ret(t);
    }
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    ga_array *a = NULL;
    if (end < 0) {
        ga__error(GA_ERROR_IO, func, "could not read %s: %s", file, strerror(errno));
    } else if (offset > end) {
        ga__error(GA_ERROR_VALUE, func, "negative dimensions are not allowed");
    } else {
        const uint64_t avail = (uint64_t)(end - offset);
        int64_t n = (int64_t)(avail / ga__dtype_sizes[dtype]);
        if (count >= 0 && count < n) n = count;
        ga__npy_header h;
        memset(&h, 0, sizeof h);
        h.dtype = dtype, h.ndim = 1, h.shape[0] = n;
        a = fseek(f, (long)offset, SEEK_SET) == 0 ? ga__new_on_current(func, 1, &n, dtype) : NULL;
        if (!a && !ga__t.error) ga__error(GA_ERROR_IO, func, "could not read %s: %s", file, strerror(errno));
        ga__npy_in in;
        ga__npy_in_open(func, &in, f, file, avail, 0, NULL, 0); /* (stored: nothing to fail) */
        if (a && ga__npy_read_data(func, &in, a, &h) != GA_OK) {
            ga_release(a);
            a = NULL;
        }
        ga__npy_in_close(&in);
    }
    fclose(f);
    return ga__ret(a);
}

/* --- .npz: zip archives of .npy members ------------------------------------------ */

/* Python's zipfile writes zip64 fields for sizes and offsets past this
   (its ZIP64_LIMIT), and zip64 end records past it or 65535 members. */
#define GA__ZIP64_LIMIT 0x7fffffffu

/* A member of a zip archive, from its central directory. */
typedef struct ga__zip_entry {
    char *name;
    uint32_t crc;
    uint16_t method;
    uint64_t csize, usize, offset; /* the local header's */
} ga__zip_entry;

/* Where the central directory is: from the end of central directory record
   (and zip64's) found in `tail`, the last tail_len bytes of a file of
   `size` bytes. NumPy's words where zipfile's: "File is not a zip file". */
static ga_status ga__zip_eocd(const char *func, const unsigned char *tail, size_t tail_len, uint64_t size, uint64_t *cd_offset,
                              uint64_t *cd_size, uint64_t *count)
{
    if (tail_len < 22) return ga__error(GA_ERROR_VALUE, func, "File is not a zip file");
    size_t at = tail_len - 22 + 1;
    while (at-- > 0)
        if (ga__le32(tail + at) == 0x06054b50u && at + 22 + ga__le16(tail + at + 20) == tail_len) break;
    if (at == (size_t)-1) return ga__error(GA_ERROR_VALUE, func, "File is not a zip file");
    *count = ga__le16(tail + at + 10), *cd_size = ga__le32(tail + at + 12), *cd_offset = ga__le32(tail + at + 16);
    if (at >= 20 && ga__le32(tail + at - 20) == 0x07064b50u) { /* zip64: its record, where the locator says */
        const uint64_t rec = ga__le64(tail + at - 20 + 8);
        const uint64_t tail_start = size - tail_len;
        if (rec < tail_start || rec - tail_start > tail_len || tail_len - (rec - tail_start) < 56 ||
            ga__le32(tail + (rec - tail_start)) != 0x06064b50u)
            return ga__error(GA_ERROR_VALUE, func, "Corrupt zip64 end of central directory locator");
        const unsigned char *r = tail + (rec - tail_start);
        *count = ga__le64(r + 32), *cd_size = ga__le64(r + 40), *cd_offset = ga__le64(r + 48);
    }
    if (*cd_offset > size || *cd_size > size - *cd_offset) return ga__error(GA_ERROR_VALUE, func, "Bad offset for central directory");
    return GA_OK;
}

/* The count entries of the central directory cd[0, len) into *out (each
   name GPUARR_MALLOC'd; free with ga__zip_free). */
static ga_status ga__zip_central(const char *func, const unsigned char *cd, size_t len, uint64_t count, ga__zip_entry **out, int *n)
{
    *out = NULL, *n = 0;
    if (count > len / 46 || count > INT_MAX) return ga__error(GA_ERROR_VALUE, func, "Truncated central directory");
    ga__zip_entry *e = (ga__zip_entry *)GPUARR_MALLOC(sizeof *e * (size_t)GA__MAX(count, 1));
    if (!e) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    size_t at = 0;
    int k = 0;
    ga_status st = GA_OK;
    for (; st == GA_OK && (uint64_t)k < count; k++) {
        if (len - at < 46 || ga__le32(cd + at) != 0x02014b50u) { st = ga__error(GA_ERROR_VALUE, func, "Bad magic number for central directory"); break; }
        const size_t nl = ga__le16(cd + at + 28), xl = ga__le16(cd + at + 30), cl = ga__le16(cd + at + 32);
        if (len - at - 46 < nl + xl + cl) { st = ga__error(GA_ERROR_VALUE, func, "Truncated central directory"); break; }
        ga__zip_entry *z = &e[k];
        z->method = ga__le16(cd + at + 10), z->crc = ga__le32(cd + at + 16);
        z->csize = ga__le32(cd + at + 20), z->usize = ga__le32(cd + at + 24), z->offset = ga__le32(cd + at + 42);
        z->name = (char *)GPUARR_MALLOC(nl + 1);
        if (!z->name) { st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory"); break; }
        memcpy(z->name, cd + at + 46, nl), z->name[nl] = 0;
        /* zip64: the fields that read 0xFFFFFFFF are in extra field 1, in this order */
        for (size_t x = at + 46 + nl, end = x + xl; x + 4 <= end;) {
            const uint16_t id = ga__le16(cd + x), sz = ga__le16(cd + x + 2);
            if (x + 4 + sz > end) break;
            if (id == 1) {
                size_t q = x + 4;
                if (z->usize == 0xffffffffu && q + 8 <= x + 4 + sz) z->usize = ga__le64(cd + q), q += 8;
                if (z->csize == 0xffffffffu && q + 8 <= x + 4 + sz) z->csize = ga__le64(cd + q), q += 8;
                if (z->offset == 0xffffffffu && q + 8 <= x + 4 + sz) z->offset = ga__le64(cd + q), q += 8;
            }
            x += 4 + sz;
        }
        at += 46 + nl + xl + cl;
    }
    if (st != GA_OK) {
        for (int i = 0; i < k; i++) GPUARR_FREE(e[i].name);
        GPUARR_FREE(e);
        return st;
    }
    *out = e, *n = k;
    return GA_OK;
}

static void ga__zip_free(ga__zip_entry *e, int n)
{
    for (int i = 0; i < n; i++) GPUARR_FREE(e[i].name);
    GPUARR_FREE(e);
}

/* An opened .npz archive (numpy.lib.npyio.NpzFile). */
struct ga_npz {
    FILE *f;
    char *file;
    ga__zip_entry *entries;
    int count;
    char **keys; /* the members' names less ".npy", as NpzFile.files */
};

GPUARR_API void ga_npz_close(ga_npz *z)
{
    if (!z) return;
    if (z->f) fclose(z->f);
    for (int i = 0; z->keys && i < z->count; i++) GPUARR_FREE(z->keys[i]);
    GPUARR_FREE(z->keys);
    ga__zip_free(z->entries, z->count);
    GPUARR_FREE(z->file);
    GPUARR_FREE(z);
}

/* The archive's directory: its tail read for the end records, then the
   central directory. */
static ga_status ga__npz_directory(const char *func, ga_npz *z)
{
    if (fseek(z->f, 0, SEEK_END) != 0) return ga__error(GA_ERROR_IO, func, "could not read %s: %s", z->file, strerror(errno));
    const long end = ftell(z->f);
    if (end < 0) return ga__error(GA_ERROR_IO, func, "could not read %s: %s", z->file, strerror(errno));
    const size_t tail_len = (size_t)GA__MIN((int64_t)end, (int64_t)(65535 + 22 + 20 + 56));
    unsigned char *tail = (unsigned char *)GPUARR_MALLOC(GA__MAX(tail_len, 1));
    if (!tail) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    uint64_t cd_offset = 0, cd_size = 0, count = 0;
    ga_status st = fseek(z->f, end - (long)tail_len, SEEK_SET) == 0 && fread(tail, 1, tail_len, z->f) == tail_len
                       ? ga__zip_eocd(func, tail, tail_len, (uint64_t)end, &cd_offset, &cd_size, &count)
                       : ga__error(GA_ERROR_IO, func, "could not read %s: %s", z->file, strerror(errno));
    GPUARR_FREE(tail);
    if (st != GA_OK) return st;
    unsigned char *cd = (unsigned char *)GPUARR_MALLOC((size_t)GA__MAX(cd_size, 1));
    if (!cd) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    st = fseek(z->f, (long)cd_offset, SEEK_SET) == 0 && fread(cd, 1, (size_t)cd_size, z->f) == cd_size
             ? ga__zip_central(func, cd, (size_t)cd_size, count, &z->entries, &z->count)
             : ga__error(GA_ERROR_IO, func, "could not read %s: %s", z->file, strerror(errno));
    GPUARR_FREE(cd);
    return st;
}

GPUARR_API ga_npz *ga_load_npz(const char *file)
{
    static const char func[] = "ga_load_npz";
    if (!file) { ga__null_input(func, "file"); return NULL; }
    ga_npz *z = (ga_npz *)GPUARR_MALLOC(sizeof *z);
    if (!z) { ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory"); return NULL; }
    memset(z, 0, sizeof *z);
    const size_t n = strlen(file);
    z->file = (char *)GPUARR_MALLOC(n + 1);
    if (z->file) memcpy(z->file, file, n + 1);
    z->f = z->file ? fopen(file, "rb") : NULL;
    ga_status st = GA_OK;
    if (!z->file) st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    else if (!z->f) st = ga__error(GA_ERROR_IO, func, "[Errno %d] %s: '%s'", errno, strerror(errno), file);
    else st = ga__npz_directory(func, z);
    if (st == GA_OK) {
        z->keys = (char **)GPUARR_MALLOC(sizeof *z->keys * (size_t)GA__MAX(z->count, 1));
        if (!z->keys) st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        for (int i = 0; st == GA_OK && i < z->count; i++) {
            const char *m = z->entries[i].name;
            size_t len = strlen(m);
            if (len >= 4 && strcmp(m + len - 4, ".npy") == 0) len -= 4;
            z->keys[i] = (char *)GPUARR_MALLOC(len + 1);
            if (!z->keys[i]) {
                for (int j = 0; j < i; j++) GPUARR_FREE(z->keys[j]);
                GPUARR_FREE(z->keys), z->keys = NULL;
                st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
                break;
            }
            memcpy(z->keys[i], m, len), z->keys[i][len] = 0;
        }
    }
    if (st != GA_OK) {
        ga_npz_close(z);
        return NULL;
    }
    return z;
}

/* Member e of the archive f (named `file` in errors) opened for reading:
   its local header read, *in at its first byte, stored or inflated. Close
   *in also after a failure. */
static ga_status ga__npz_open_member(const char *func, FILE *f, const char *file, const ga__zip_entry *e, ga__npy_in *in)
{
    memset(in, 0, sizeof *in);
    unsigned char lh[30];
    if (fseek(f, (long)e->offset, SEEK_SET) != 0 || fread(lh, 1, 30, f) != 30 || ga__le32(lh) != 0x04034b50u)
        return ga__error(GA_ERROR_VALUE, func, "Bad magic number for file header");
    if (fseek(f, (long)(e->offset + 30 + ga__le16(lh + 26) + ga__le16(lh + 28)), SEEK_SET) != 0)
        return ga__error(GA_ERROR_IO, func, "could not read %s: %s", file, strerror(errno));
    return ga__npy_in_open(func, in, f, file, e->csize, e->method, e->name, e->crc);
}

GPUARR_API ga_array *ga_npz_get(ga_npz *z, const char *name)
{
    static const char func[] = "ga_npz_get";
    if (!z) { ga__null_input(func, "z"); return NULL; }
    if (!name) { ga__null_input(func, "name"); return NULL; }
    int k = -1;
    for (int i = 0; i < z->count && k < 0; i++)
        if (strcmp(z->entries[i].name, name) == 0 || strcmp(z->keys[i], name) == 0) k = i;
    if (k < 0) {
        ga__error(GA_ERROR_VALUE, func, "%s is not a file in the archive", name);
        return NULL;
    }
    const ga__zip_entry *e = &z->entries[k];
    ga__npy_in in;
    ga_array *a = ga__npz_open_member(func, z->f, z->file, e, &in) == GA_OK ? ga__npy_load(func, &in) : NULL;
    /* (a member read to its end had its CRC-32 checked then, as zipfile
       checks it; one whose bytes go on past the array's is checked here) */
    if (a && !in.ended && in.crc != e->crc) {
        ga_release(a);
        a = NULL;
        ga__error(GA_ERROR_VALUE, func, "Bad CRC-32 for file '%s'", e->name);
    }
    ga__npy_in_close(&in);
    return ga__ret(a);
}

/* Member i of a savez or savez_compressed: its local header (zip64's
   extra field, as zipfile writes with force_zip64), the .npy header and
   data, stored or deflated, then the local header written again with the
   CRC-32 and the sizes (as zipfile's close does); its central directory
   entry into cd. zipfile's fields: version 45 (zip64) to make and to
   extract, no flags, method 0 or 8, 1980-01-01 00:00, mode 0600. */
static ga_status ga__npz_member(const char *func, FILE *f, const char *fname, const char *member, const ga_array *arr,
                                bool compress, ga__sb *cd)
{
    char header[64 + 128 + GA_MAXDIMS * 48];
    size_t hbytes = 0;
    ga_array *c = ga__npy_prepare(func, arr, header, sizeof header, &hbytes);
    if (!c) return ga__t.error;
    const uint64_t size = hbytes + ga_nbytes(c);
    const uint32_t method = compress ? 8 : 0;
    const size_t nl = strlen(member);
    const long offset = ftell(f);
    unsigned char lh[30 + 20];
    memset(lh, 0, sizeof lh);
    ga__put32(lh, 0x04034b50u), ga__put16(lh + 4, 45), ga__put16(lh + 8, method), ga__put16(lh + 12, 0x21); /* 1980-01-01 00:00 */
    ga__put32(lh + 18, 0xffffffffu), ga__put32(lh + 22, 0xffffffffu), ga__put16(lh + 26, (uint32_t)nl), ga__put16(lh + 28, 20);
    ga__put16(lh + 30, 1), ga__put16(lh + 32, 16), ga__put64(lh + 34, size), ga__put64(lh + 42, compress ? 0 : size);
    ga_status st = GA_OK;
    if (offset < 0 || fwrite(lh, 1, 30, f) != 30 || fwrite(member, 1, nl, f) != nl || fwrite(lh + 30, 1, 20, f) != 20)
        st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    ga__npy_out out;
    memset(&out, 0, sizeof out);
    if (st == GA_OK) st = ga__npy_out_open(func, &out, f, fname, true, compress);
    if (st == GA_OK) st = ga__npy_out_write(func, &out, header, hbytes);
    if (st == GA_OK) st = ga__npy_write_data(func, &out, c);
    if (st == GA_OK) st = ga__npy_out_finish(func, &out);
    ga__npy_out_close(&out);
    ga_release(c);
    if (st != GA_OK) return st;
    const uint32_t crc = out.crc;
    const uint64_t csize = out.written;
    const long end = ftell(f);
    ga__put32(lh + 14, crc), ga__put64(lh + 42, csize);
    if (end < 0 || fseek(f, offset, SEEK_SET) != 0 || fwrite(lh, 1, 30, f) != 30 || fseek(f, (long)nl, SEEK_CUR) != 0 ||
        fwrite(lh + 30, 1, 20, f) != 20 || fseek(f, end, SEEK_SET) != 0)
        return ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    /* the central directory entry, zip64 fields where zipfile puts them
       (values past its ZIP64_LIMIT) */
    const bool big = size > GA__ZIP64_LIMIT || csize > GA__ZIP64_LIMIT, far = (uint64_t)offset > GA__ZIP64_LIMIT;
    unsigned char ce[46];
    memset(ce, 0, sizeof ce);
    ga__put32(ce, 0x02014b50u), ga__put16(ce + 4, 3u << 8 | 45), ga__put16(ce + 6, 45), ga__put16(ce + 10, method);
    ga__put16(ce + 14, 0x21), ga__put32(ce + 16, crc);
    ga__put32(ce + 20, big ? 0xffffffffu : (uint32_t)csize), ga__put32(ce + 24, big ? 0xffffffffu : (uint32_t)size);
    ga__put16(ce + 28, (uint32_t)nl), ga__put32(ce + 38, 0600u << 16), ga__put32(ce + 42, far ? 0xffffffffu : (uint32_t)offset);
    size_t x = 0;
    unsigned char extra[28];
    if (big || far) { /* zipfile's order: the size, the compressed size, the offset */
        ga__put16(extra, 1), x = 4;
        if (big) ga__put64(extra + x, size), ga__put64(extra + x + 8, csize), x += 16;
        if (far) ga__put64(extra + x, (uint64_t)offset), x += 8;
        ga__put16(extra + 2, (uint32_t)(x - 4));
    }
    ga__put16(ce + 30, (uint32_t)x);
    ga__sb_add(cd, (const char *)ce, 46), ga__sb_add(cd, member, nl), ga__sb_add(cd, (const char *)extra, x);
    return cd->oom ? ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory") : GA_OK;
}

/* numpy.savez (stored members) and savez_compressed (deflated): one
   writer. */
static ga_status ga__savez(const char *func, const char *file, int n, const char *const *names, const ga_array *const *arrays,
                           bool compress)
{
    if (!file) return ga__null_input(func, "file");
    if (n < 0) return ga__error(GA_ERROR_VALUE, func, "negative number of arrays");
    if (n > 0 && !arrays) return ga__null_input(func, "arrays");
    for (int i = 0; i < n; i++)
        if (!arrays[i]) return ga__null_input(func, "an array");
    /* (zlib first: no file is made where it cannot be loaded) */
    if (compress && ga__library_open(func, GA__LIB_ZLIB) != GA_OK) return ga__t.error;
    const size_t len = strlen(file);
    const bool has = len >= 4 && strcmp(file + len - 4, ".npz") == 0;
    char *fname = (char *)GPUARR_MALLOC(len + 5);
    if (!fname) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    snprintf(fname, len + 5, "%s%s", file, has ? "" : ".npz");
    FILE *f = fopen(fname, "wb");
    ga_status st = f ? GA_OK : ga__error(GA_ERROR_IO, func, "could not open %s for writing: %s", fname, strerror(errno));
    ga__sb cd = {NULL, 0, 0, false};
    for (int i = 0; st == GA_OK && i < n; i++) {
        char member[512];
        if (names && names[i]) snprintf(member, sizeof member, "%s.npy", names[i]);
        else snprintf(member, sizeof member, "arr_%d.npy", i);
        st = ga__npz_member(func, f, fname, member, arrays[i], compress, &cd);
    }
    /* the central directory and its end records (zip64's where needed) */
    const long cd_offset = st == GA_OK ? ftell(f) : -1;
    if (st == GA_OK && cd_offset < 0) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    if (st == GA_OK && cd.n && fwrite(cd.p, 1, cd.n, f) != cd.n) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    if (st == GA_OK) {
        unsigned char end[56 + 20 + 22];
        size_t e = 0;
        const bool z64 = (uint64_t)cd_offset > GA__ZIP64_LIMIT || n > 0xffff || cd.n > GA__ZIP64_LIMIT;
        if (z64) {
            memset(end, 0, 76);
            ga__put32(end, 0x06064b50u), ga__put64(end + 4, 44), ga__put16(end + 12, 45), ga__put16(end + 14, 45);
            ga__put64(end + 24, (uint64_t)n), ga__put64(end + 32, (uint64_t)n), ga__put64(end + 40, cd.n), ga__put64(end + 48, (uint64_t)cd_offset);
            ga__put32(end + 56, 0x07064b50u), ga__put64(end + 64, (uint64_t)cd_offset + cd.n), ga__put32(end + 72, 1);
            e = 76;
        }
        memset(end + e, 0, 22);
        ga__put32(end + e, 0x06054b50u);
        /* (past the 16 and 32 bits: the most they hold, as zipfile writes) */
        ga__put16(end + e + 8, (uint32_t)GA__MIN(n, 0xffff)), ga__put16(end + e + 10, (uint32_t)GA__MIN(n, 0xffff));
        ga__put32(end + e + 12, (uint32_t)GA__MIN((uint64_t)cd.n, 0xffffffffu));
        ga__put32(end + e + 16, (uint32_t)GA__MIN((uint64_t)cd_offset, 0xffffffffu));
        e += 22;
        if (fwrite(end, 1, e, f) != e) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    }
    if (f && fclose(f) != 0 && st == GA_OK) st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", fname, strerror(errno));
    GPUARR_FREE(cd.p);
    GPUARR_FREE(fname);
    return st;
}

GPUARR_API ga_status ga_savez(const char *file, int n, const char *const *names, const ga_array *const *arrays)
{
    return ga__savez("ga_savez", file, n, names, arrays, false);
}

GPUARR_API ga_status ga_savez_compressed(const char *file, int n, const char *const *names, const ga_array *const *arrays)
{
    return ga__savez("ga_savez_compressed", file, n, names, arrays, true);
}

GPUARR_API int ga_npz_count(const ga_npz *z) { return z ? z->count : 0; }

GPUARR_API const char *ga_npz_name(const ga_npz *z, int i) { return z && i >= 0 && i < z->count ? z->keys[i] : NULL; }

/* --- printing: NumPy's array2string ----------------------------------------- */

/* The calling thread's print options (numpy.set_printoptions). */
static GA__TLS ga_printoptions ga__printopts;
static GA__TLS bool ga__printopts_set;

static ga_printoptions ga__print_defaults(void)
{
    ga_printoptions o = {8, 1000, 3, 75, false};
    return o;
}

GPUARR_API ga_printoptions ga_get_printoptions(void)
{
    return ga__printopts_set ? ga__printopts : ga__print_defaults();
}

GPUARR_API ga_status ga_set_printoptions(const ga_printoptions *options)
{
    static const char func[] = "ga_set_printoptions";
    if (!options) {
        ga__printopts_set = false;
        return GA_OK;
    }
    if (options->precision < 0 || options->precision > 100)
        return ga__error(GA_ERROR_VALUE, func, "precision must be between 0 and 100, not %d", options->precision);
    if (options->threshold < 0) return ga__error(GA_ERROR_VALUE, func, "threshold must be non-negative");
    if (options->edgeitems < 0) return ga__error(GA_ERROR_VALUE, func, "edgeitems must be non-negative");
    if (options->linewidth < 1) return ga__error(GA_ERROR_VALUE, func, "linewidth must be positive");
    ga__printopts = *options;
    ga__printopts_set = true;
    return GA_OK;
}

/* The precision of a float dtype's values for the shortest round trip:
   0 float64, 1 float32, 2 float16. */
static bool ga__round_trips(double x, const char *text, int kind)
{
    if (kind == 1) return strtof(text, NULL) == (float)x;
    double y = strtod(text, NULL);
    if (kind == 2) return ga__double_to_half(y) == ga__double_to_half(x);
    return y == x;
}

/* The digits of "%e" text s into dig (d1 d2 ... dn: s is d1.d2...dn e*e). Returns n. */
static int ga__e_digits(const char *s, char *dig, int *e)
{
    int n = 0;
    const char *c = s;
    for (; *c && *c != 'e'; c++)
        if (isdigit((unsigned char)*c)) dig[n++] = *c;
    *e = atoi(c + 1);
    return n;
}

/* The n digits dig (exponent *e) one unit up in their last place, into s
   as "%e" text ("9.9e1" becomes "1.0e2"). */
static void ga__e_digits_up(char *dig, int n, int *e, char *s, size_t size)
{
    int i = n - 1;
    while (i >= 0 && dig[i] == '9') dig[i--] = '0';
    if (i >= 0) dig[i]++;
    else dig[0] = '1', ++*e; /* (all nines: 1 and zeros) */
    snprintf(s, size, "%c.%.*se%d", dig[0], n - 1, dig + 1, *e);
}

/* The shortest decimal digits of |x| (finite, > 0) that read back as x in
   its dtype (Dragon4's unique mode): digits d1 d2 ... dn (no trailing
   zeros) with |x| ~ d1.d2...dn 10^e. Returns n. Of each length, the
   nearest digits are tried, and where they fall below x the next ones up:
   above a power of two the gap to the next value is twice the gap below,
   so those may read back where the nearest do not (2^-1017: 16 digits,
   7.120236347223045e-307, not 17). */
static int ga__shortest_digits(double x, int kind, char *dig, int *e)
{
    char buf[48];
    x = fabs(x);
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, x);
        int n = ga__e_digits(buf, dig, e);
        bool ok = p == 17 || ga__round_trips(x, buf, kind);
        if (!ok && strtod(buf, NULL) < x) {
            ga__e_digits_up(dig, n, e, buf, sizeof buf);
            ok = ga__round_trips(x, buf, kind);
        }
        if (!ok) continue;
        while (n > 1 && dig[n - 1] == '0') n--;
        dig[n] = 0;
        return n;
    }
    return 0;
}

/* How one float (part) is printed (NumPy's FloatingFormat after fillFormat). */
typedef struct ga__ffmt {
    bool exp;         /* scientific */
    int precision, min_digits, pad_left, pad_right, exp_size;
    bool plus;        /* sign '+' (a complex number's imaginary part) */
    int kind;         /* 0 float64, 1 float32, 2 float16 */
} ga__ffmt;

/* x (finite) as NumPy's dragon4_positional / dragon4_scientific print it
   with unique digits, at most `precision` fractional (mantissa) digits,
   trailing zeros trimmed then padded to min_digits: the integer part into
   ip, the fraction into fp (without the '.'), the exponent into ep. */
static void ga__float_parts(double x, const ga__ffmt *f, bool exp, int precision, int min_digits, char *ip, char *fp, char *ep)
{
    char dig[40], buf[400];
    int e = 0, n = x == 0 ? 1 : ga__shortest_digits(x, f->kind, dig, &e);
    if (x == 0) dig[0] = '0', dig[1] = 0, e = 0;
    const bool neg = signbit(x);
    char *o = ip;
    if (neg) *o++ = '-';
    else if (f->plus) *o++ = '+';
    if (exp) {
        if (n - 1 > precision || n - 1 < min_digits) { /* rounded to `precision` digits; or more digits of x itself */
            snprintf(buf, sizeof buf, "%.*e", n - 1 > precision ? precision : min_digits, fabs(x));
            n = ga__e_digits(buf, dig, &e);
            while (n - 1 > min_digits && dig[n - 1] == '0') n--;
        }
        *o++ = dig[0], *o = 0;
        int k = 0;
        for (int i = 1; i < n; i++) fp[k++] = dig[i];
        while (k < min_digits) fp[k++] = '0';
        fp[k] = 0;
        int mag = e < 0 ? -e : e, nd = mag >= 100 ? 3 : 2; /* (|e| <= 324) */
        nd = GA__MAX(nd, GA__MIN(f->exp_size, 4));
        ep[0] = 'e', ep[1] = e < 0 ? '-' : '+';
        for (int i = nd - 1; i >= 0; i--) ep[2 + i] = (char)('0' + mag % 10), mag /= 10;
        ep[2 + nd] = 0;
        return;
    }
    ep[0] = 0;
    if (n - 1 - e > precision || GA__MAX(n - 1 - e, 0) < min_digits) { /* rounded there; or more digits of x itself */
        snprintf(buf, sizeof buf, "%.*f", n - 1 - e > precision ? precision : min_digits, fabs(x));
        char *dot = strchr(buf, '.');
        if (dot) *dot = 0;
        strcpy(o, buf);
        int k = 0;
        if (dot)
            for (const char *c = dot + 1; *c; c++) fp[k++] = *c;
        while (k > min_digits && fp[k - 1] == '0') k--;
        while (k < min_digits) fp[k++] = '0';
        fp[k] = 0;
        return;
    }
    /* the digits placed around the point */
    int k = 0;
    if (e < 0) {
        *o++ = '0';
        for (int i = 0; i < -e - 1; i++) fp[k++] = '0';
        for (int i = 0; i < n; i++) fp[k++] = dig[i];
    } else {
        for (int i = 0; i <= e; i++) *o++ = i < n ? dig[i] : '0';
        for (int i = e + 1; i < n; i++) fp[k++] = dig[i];
    }
    *o = 0;
    while (k < min_digits) fp[k++] = '0';
    fp[k] = 0;
}

/* fillFormat over the n values of v (one part of each element). */
static void ga__ffmt_fill(ga__ffmt *f, const double *v, int64_t n, const ga_printoptions *o)
{
    double mx = 0, mn = INFINITY;
    bool any = false, finite_any = false, nonfinite = false, neginf = f->plus;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            nonfinite = true;
            if (isinf(v[i]) && v[i] < 0) neginf = true;
            continue;
        }
        finite_any = true;
        double a = fabs(v[i]);
        if (a != 0) any = true, mx = GA__MAX(mx, a), mn = GA__MIN(mn, a);
    }
    f->exp = false;
    if (any) {
        double ratio = mx / mn;
        if (f->kind == 1) ratio = (double)((float)mx / (float)mn);
        /* (NumPy 2.3+: the cutoff is 10^min(8, finfo.precision): 1e3 for float16, 1e6 for float32) */
        const double cutoff = f->kind == 2 ? 1e3 : f->kind == 1 ? 1e6 : 1e8;
        if (mx >= cutoff || (!o->suppress && (mn < 0.0001 || ratio > 1000.))) f->exp = true;
    }
    f->pad_left = f->pad_right = 0, f->exp_size = -1, f->min_digits = 0;
    f->precision = o->precision;
    if (finite_any) {
        char ip[400], fp[400], ep[16];
        int maxi = 0, maxf = 0, maxe = 0;
        ga__ffmt probe = *f;
        probe.exp_size = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!isfinite(v[i])) continue;
            ga__float_parts(v[i], &probe, f->exp, o->precision, 0, ip, fp, ep);
            maxi = GA__MAX(maxi, (int)strlen(ip)), maxf = GA__MAX(maxf, (int)strlen(fp));
            if (f->exp) maxe = GA__MAX(maxe, (int)strlen(ep) - 2);
        }
        f->pad_left = maxi;
        if (f->exp) {
            f->exp_size = maxe;
            f->precision = f->min_digits = maxf;
            f->pad_right = f->exp_size + 2 + f->precision;
        } else {
            f->pad_right = maxf;
        }
    }
    if (nonfinite) {
        const int offset = f->pad_right + 1;
        f->pad_left = GA__MAX(f->pad_left, GA__MAX(3 - offset, 3 + (neginf ? 1 : 0) - offset));
    }
}

/* One float (part) as the format prints it. */
static void ga__ffmt_put(ga__sb *b, const ga__ffmt *f, double x)
{
    char ip[400], fp[400], ep[16], out[900];
    if (!isfinite(x)) {
        const char *r = isnan(x) ? (f->plus ? "+nan" : "nan") : x < 0 ? "-inf" : f->plus ? "+inf" : "inf";
        ga__sb_spaces(b, f->pad_left + f->pad_right + 1 - (int)strlen(r));
        ga__sb_str(b, r);
        return;
    }
    ga__float_parts(x, f, f->exp, f->precision, f->min_digits, ip, fp, ep);
    ga__sb_spaces(b, f->pad_left - (int)strlen(ip));
    snprintf(out, sizeof out, "%s.%s%s", ip, fp, ep);
    ga__sb_str(b, out);
    if (!f->exp) ga__sb_spaces(b, f->pad_right - (int)strlen(fp));
}

/* A float scalar as NumPy's str prints it (numpy.float64's str: the
   shortest digits, positional from 1e-4 to 1e16 (float32: 1e6, float16:
   1e3) with at least one fractional digit, scientific otherwise,
   "1e-05"). `part`: a complex number's part (no ".0" kept). */
static void ga__scalar_float(ga__sb *b, double x, int kind, bool part)
{
    if (isnan(x)) { ga__sb_str(b, "nan"); return; }
    if (isinf(x)) { ga__sb_str(b, x < 0 ? "-inf" : "inf"); return; }
    char dig[40], out[400];
    int e = 0, n = x == 0 ? 1 : ga__shortest_digits(x, kind, dig, &e);
    if (x == 0) dig[0] = '0', dig[1] = 0, e = 0;
    const double a = fabs(x);
    size_t k = 0;
    if (signbit(x)) out[k++] = '-';
    const double upper = kind == 2 ? 1e3 : kind == 1 ? 1e6 : 1e16; /* (NumPy's cutoffs per type) */
    if (x != 0 && (a < 1e-4 || a >= upper)) {
        out[k++] = dig[0];
        if (n > 1) {
            out[k++] = '.';
            for (int i = 1; i < n; i++) out[k++] = dig[i];
        }
        k += (size_t)snprintf(out + k, sizeof out - k, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else {
        if (e < 0) {
            out[k++] = '0', out[k++] = '.';
            for (int i = 0; i < -e - 1; i++) out[k++] = '0';
            for (int i = 0; i < n; i++) out[k++] = dig[i];
        } else {
            for (int i = 0; i <= e; i++) out[k++] = i < n ? dig[i] : '0';
            out[k++] = '.';
            if (n > e + 1)
                for (int i = e + 1; i < n; i++) out[k++] = dig[i];
            else if (part)
                k--; /* "2", not "2." */
            else
                out[k++] = '0';
        }
    }
    out[k] = 0;
    ga__sb_str(b, out);
}

/* How the elements of one array print (NumPy's _get_format_function). */
typedef struct ga__pfmt {
    ga_dtype t;
    int width;  /* integers: the widest */
    ga__ffmt re, im;
    bool zero_d;
} ga__pfmt;

/* bfloat16 bits as a double (exactly: the upper half of a float32). */
static double ga__bfloat16_to_double(uint16_t h)
{
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Element i of host data of dtype t: its real (and imaginary) part as a double. */
static void ga__print_value(const void *data, ga_dtype t, int64_t i, double *re, double *im)
{
    const unsigned char *p = (const unsigned char *)data + (size_t)i * ga__dtype_sizes[t];
    *im = 0;
    switch (t) {
    case GA_FLOAT16: { uint16_t h; memcpy(&h, p, 2); *re = ga__half_to_double(h); break; }
    case GA_BFLOAT16: { uint16_t h; memcpy(&h, p, 2); *re = ga__bfloat16_to_double(h); break; }
    case GA_FLOAT32: { float f; memcpy(&f, p, 4); *re = f; break; }
    case GA_FLOAT64: memcpy(re, p, 8); break;
    case GA_COMPLEX64: { float f[2]; memcpy(f, p, 8); *re = f[0], *im = f[1]; break; }
    case GA_COMPLEX128: { double d[2]; memcpy(d, p, 16); *re = d[0], *im = d[1]; break; }
    default: *re = 0; break;
    }
}

/* Element i of an integer dtype as text. */
static int ga__print_int(const void *data, ga_dtype t, int64_t i, char *out, size_t n)
{
    const unsigned char *p = (const unsigned char *)data + (size_t)i * ga__dtype_sizes[t];
    int64_t s = 0;
    uint64_t u = 0;
    switch (t) {
    case GA_INT8: { int8_t v; memcpy(&v, p, 1); s = v; break; }
    case GA_INT16: { int16_t v; memcpy(&v, p, 2); s = v; break; }
    case GA_INT32: { int32_t v; memcpy(&v, p, 4); s = v; break; }
    case GA_INT64: memcpy(&s, p, 8); break;
    case GA_UINT8: u = p[0]; return snprintf(out, n, "%llu", (unsigned long long)u);
    case GA_UINT16: { uint16_t v; memcpy(&v, p, 2); return snprintf(out, n, "%u", (unsigned)v); }
    case GA_UINT32: { uint32_t v; memcpy(&v, p, 4); return snprintf(out, n, "%lu", (unsigned long)v); }
    case GA_UINT64: memcpy(&u, p, 8); return snprintf(out, n, "%llu", (unsigned long long)u);
    default: break;
    }
    return snprintf(out, n, "%lld", (long long)s);
}

static int ga__float_kind(ga_dtype t) { return t == GA_FLOAT16 ? 2 : (t == GA_FLOAT32 || t == GA_COMPLEX64) ? 1 : 0; }

/* A bfloat16 value as ml_dtypes' repr (and str) of its scalar prints it:
   C++'s stream output of the float, printf's "%g" (6 significant digits:
   3.140625 is "3.14062", 0.1 "0.100098"), NaN without its sign. NumPy's
   array2string knows no float formatting for this dtype (its kind is 'V')
   and prints each element with repr(), unpadded. */
static void ga__bfloat16_repr(ga__sb *b, double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%g", isnan(x) ? fabs(x) : x);
    ga__sb_str(b, buf);
}

/* The format of the count printed elements of data (NumPy's formatters'
   fill pass over the printed data only). False when out of memory. */
static bool ga__pfmt_fill(ga__pfmt *f, const void *data, ga_dtype t, int64_t count, bool zero_d, const ga_printoptions *o)
{
    memset(f, 0, sizeof *f);
    f->t = t, f->zero_d = zero_d;
    const char k = ga__dtype_kinds[t];
    if (k == 'i' || k == 'u') {
        char buf[32];
        for (int64_t i = 0; i < count; i++) f->width = GA__MAX(f->width, ga__print_int(data, t, i, buf, sizeof buf));
        return true;
    }
    if ((k != 'f' && k != 'c') || t == GA_BFLOAT16) return true; /* (bfloat16: each element's repr, unpadded) */
    double *re = (double *)GPUARR_MALLOC(sizeof(double) * (size_t)GA__MAX(count, 1) * 2), *im = re + GA__MAX(count, 1);
    if (!re) return false;
    for (int64_t i = 0; i < count; i++) ga__print_value(data, t, i, &re[i], &im[i]);
    f->re.kind = f->im.kind = ga__float_kind(t);
    ga__ffmt_fill(&f->re, re, count, o);
    if (k == 'c') {
        f->im.plus = true;
        ga__ffmt_fill(&f->im, im, count, o);
    }
    GPUARR_FREE(re);
    return true;
}

static void ga__pfmt_put(ga__sb *b, const ga__pfmt *f, const void *data, int64_t i)
{
    const char k = ga__dtype_kinds[f->t];
    if (k == 'b') {
        const bool v = ((const unsigned char *)data)[i] != 0;
        ga__sb_str(b, v ? (f->zero_d ? "True" : " True") : "False");
    } else if (k == 'i' || k == 'u') {
        char buf[32];
        int n = ga__print_int(data, f->t, i, buf, sizeof buf);
        ga__sb_spaces(b, f->width - n);
        ga__sb_str(b, buf);
    } else {
        double re, im;
        ga__print_value(data, f->t, i, &re, &im);
        if (f->t == GA_BFLOAT16) {
            ga__bfloat16_repr(b, re);
            return;
        }
        ga__ffmt_put(b, &f->re, re);
        if (k == 'c') { /* the imaginary part with its 'j' before any padding */
            ga__sb part = {NULL, 0, 0, false};
            ga__ffmt_put(&part, &f->im, im);
            size_t n = part.n;
            while (n > 0 && part.p[n - 1] == ' ') n--;
            ga__sb_add(b, part.p ? part.p : "", n);
            ga__sb_str(b, "j");
            if (part.p) ga__sb_add(b, part.p + n, part.n - n);
            b->oom = b->oom || part.oom;
            GPUARR_FREE(part.p);
        }
    }
}

/* The printing of one array: its printed data (C order, each summarised
   axis cut to its edge items), the original shape. */
typedef struct ga__pctx {
    const void *data;
    int ndim;
    const int64_t *shape, *cut;
    bool summary;
    int edge;
    const char *sep;
    ga__pfmt f;
} ga__pctx;

/* NumPy's _extendLine: word onto line, or line into s and a new line. */
static void ga__extend_line(ga__sb *s, ga__sb *line, const char *word, size_t wlen, int width, const char *prefix)
{
    const size_t plen = strlen(prefix);
    bool wrap = line->n + wlen > (size_t)width;
    if (line->n <= plen) wrap = false;
    if (wrap) {
        size_t n = line->n;
        while (n > 0 && line->p[n - 1] == ' ') n--;
        ga__sb_add(s, line->p, n);
        ga__sb_str(s, "\n");
        line->n = 0;
        ga__sb_str(line, prefix);
    }
    ga__sb_add(line, word, wlen);
}

/* NumPy's _formatArray's recurser over axis `axis` of the subarray at
   element `off` of the printed data, into out. */
static void ga__format_axis(const ga__pctx *c, int axis, int64_t off, const char *hang, int width, ga__sb *out)
{
    if (axis == c->ndim) {
        ga__pfmt_put(out, &c->f, c->data, off);
        return;
    }
    char next_hang[512];
    snprintf(next_hang, sizeof next_hang, "%s ", hang);
    const int next_width = width - 1, left = c->ndim - axis;
    const int64_t len = c->cut[axis];
    int64_t stride = 1;
    for (int d = axis + 1; d < c->ndim; d++) stride *= c->cut[d];
    const bool summary = c->summary && 2 * (int64_t)c->edge < c->shape[axis];
    const int64_t leading = summary ? c->edge : 0, trailing = summary ? c->edge : len;
    ga__sb s = {NULL, 0, 0, false}, word = {NULL, 0, 0, false};
    ga__sb_str(&s, "");
    const size_t seplen = strlen(c->sep);
    size_t sep_trim = seplen;
    while (sep_trim > 0 && c->sep[sep_trim - 1] == ' ') sep_trim--;
    if (left == 1) {
        const int elem_width = width - (int)GA__MAX(sep_trim, 1);
        ga__sb line = {NULL, 0, 0, false};
        ga__sb_str(&line, hang);
        for (int64_t j = 0; j < len; j++) {
            const bool last = j == len - 1;
            if (summary && j == leading) {
                ga__extend_line(&s, &line, "...", 3, elem_width, hang);
                ga__sb_add(&line, c->sep, seplen);
            }
            if (summary && j >= leading && j < len - trailing) continue;
            word.n = 0;
            ga__sb_str(&word, "");
            ga__format_axis(c, axis + 1, off + j * stride, next_hang, next_width, &word);
            ga__extend_line(&s, &line, word.p, word.n, elem_width, hang);
            if (!last) ga__sb_add(&line, c->sep, seplen);
        }
        ga__sb_add(&s, line.p, line.n);
        s.oom = s.oom || line.oom;
        GPUARR_FREE(line.p);
    } else {
        char line_sep[64];
        size_t ls = 0;
        memcpy(line_sep, c->sep, sep_trim), ls = sep_trim;
        for (int i = 0; i < left - 1 && ls < sizeof line_sep - 1; i++) line_sep[ls++] = '\n';
        line_sep[ls] = 0;
        for (int64_t j = 0; j < len; j++) {
            if (summary && j == leading) {
                ga__sb_str(&s, hang);
                ga__sb_str(&s, "...");
                ga__sb_str(&s, line_sep);
            }
            if (summary && j >= leading && j < len - trailing) continue;
            ga__sb_str(&s, hang);
            ga__format_axis(c, axis + 1, off + j * stride, next_hang, next_width, &s);
            if (j < len - 1) ga__sb_str(&s, line_sep);
        }
    }
    const size_t hl = strlen(hang);
    ga__sb_str(out, "[");
    if (s.p && s.n >= hl) ga__sb_add(out, s.p + hl, s.n - hl);
    ga__sb_str(out, "]");
    out->oom = out->oom || s.oom || word.oom;
    GPUARR_FREE(s.p), GPUARR_FREE(word.p);
}

/* NumPy's repr (repr true) or str of an array whose printed data is given
   (host, C order; each summarised axis cut to 2 edgeitems), into b. */
static void ga__format(ga__sb *b, const void *data, ga_dtype t, int ndim, const int64_t *shape, const int64_t *cut, bool repr,
                       const ga_printoptions *o)
{
    int64_t size = 1, printed = 1;
    for (int d = 0; d < ndim; d++) size *= shape[d], printed *= cut[d];
    const bool summary = size > o->threshold;
    if (!repr && ndim == 0) { /* str of a 0-d array: the scalar's str */
        const char k = ga__dtype_kinds[t];
        if (k == 'f' && t != GA_BFLOAT16) { /* (bfloat16's str is its repr: below) */
            double re, im;
            ga__print_value(data, t, 0, &re, &im);
            ga__scalar_float(b, re, ga__float_kind(t), false);
        } else if (k == 'c') {
            double re, im;
            ga__print_value(data, t, 0, &re, &im);
            if (re == 0 && !signbit(re)) {
                ga__scalar_float(b, im, ga__float_kind(t), true);
                ga__sb_str(b, "j");
            } else {
                ga__sb_str(b, "(");
                ga__scalar_float(b, re, ga__float_kind(t), true);
                if (!(im < 0) && !(isnan(im) && signbit(im))) ga__sb_str(b, "+");
                ga__scalar_float(b, im, ga__float_kind(t), true);
                ga__sb_str(b, "j)");
            }
        } else {
            ga__pfmt f;
            if (!ga__pfmt_fill(&f, data, t, 1, true, o)) b->oom = true;
            ga__pfmt_put(b, &f, data, 0);
        }
        return;
    }
    const char *prefix = repr ? "array(" : "";
    ga__sb lst = {NULL, 0, 0, false};
    if (size == 0) {
        ga__sb_str(&lst, "[]");
    } else {
        ga__pctx c;
        memset(&c, 0, sizeof c);
        c.data = data, c.ndim = ndim, c.shape = shape, c.cut = cut, c.summary = summary, c.edge = o->edgeitems;
        c.sep = repr ? ", " : " ";
        if (!ga__pfmt_fill(&c.f, data, t, printed, ndim == 0, o)) lst.oom = true;
        char hang[64];
        snprintf(hang, sizeof hang, " %s", repr ? "      " : "");
        ga__format_axis(&c, 0, 0, hang, o->linewidth - (repr ? 1 : 0), &lst);
    }
    if (!repr) {
        ga__sb_add(b, lst.p ? lst.p : "", lst.n);
        b->oom = b->oom || lst.oom;
        GPUARR_FREE(lst.p);
        return;
    }
    const bool implied = t == GA_INT64 || t == GA_FLOAT64 || t == GA_COMPLEX128 || t == GA_BOOL;
    char extras[600];
    size_t en = 0;
    extras[0] = 0;
    if ((size == 0 && !(ndim == 1 && shape[0] == 0)) || size > o->threshold) { /* Python's repr of the shape */
        en += (size_t)snprintf(extras + en, sizeof extras - en, "shape=(");
        for (int d = 0; d < ndim && en < sizeof extras - 32; d++)
            en += (size_t)snprintf(extras + en, sizeof extras - en, d ? ", %lld" : "%lld", (long long)shape[d]);
        en += (size_t)snprintf(extras + en, sizeof extras - en, ndim == 1 ? ",)" : ")");
    }
    if (!implied || size == 0) en += (size_t)snprintf(extras + en, sizeof extras - en, "%sdtype=%s", en ? ", " : "", ga__dtype_names[t]);
    ga__sb_str(b, prefix);
    ga__sb_add(b, lst.p ? lst.p : "", lst.n);
    b->oom = b->oom || lst.oom;
    GPUARR_FREE(lst.p);
    if (!en) {
        ga__sb_str(b, ")");
        return;
    }
    ga__sb_str(b, ",");
    size_t last = 0;
    for (size_t i = 0; b->p && i < b->n; i++)
        if (b->p[i] == '\n') last = i + 1;
    if (b->p && (b->n - last) + en + 1 + 1 > (size_t)o->linewidth) {
        ga__sb_str(b, "\n");
        ga__sb_spaces(b, (int)strlen(prefix));
    } else {
        ga__sb_str(b, " ");
    }
    ga__sb_add(b, extras, en);
    ga__sb_str(b, ")");
}

/* The elements a prints, on the host (C order): all of a, or where it has
   more than `threshold` elements each axis longer than 2 edgeitems cut to
   its first and last edgeitems (NumPy's _leading_trailing), shape in cut.
   GPUARR_FREE it. (The public calls inside run in a scope of their own, so
   that none of their arrays lands in the caller's.) */
static void *ga__print_data(const char *func, const ga_array *a, const ga_printoptions *o, int64_t *cut)
{
    const bool summary = a->size > o->threshold;
    void *h = NULL;
    ga_scope_begin();
    const ga_array *x = a;
    for (int d = 0; x && d < a->ndim; d++) {
        cut[d] = a->shape[d];
        if (!summary || a->shape[d] <= 2 * (int64_t)o->edgeitems) continue;
        const int64_t k = o->edgeitems, n = 2 * k;
        int64_t *idx = (int64_t *)GPUARR_MALLOC(sizeof(int64_t) * (size_t)n);
        if (!idx) {
            ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
            x = NULL;
            break;
        }
        for (int64_t i = 0; i < k; i++) idx[i] = i, idx[k + i] = a->shape[d] - k + i;
        ga_array *ia = ga_from_host(idx, 1, &n, GA_INT64);
        GPUARR_FREE(idx);
        x = ga_take(x, ia, d, GA_INDEX_RAISE);
        cut[d] = n;
    }
    if (x) {
        const size_t bytes = ga_nbytes(x);
        h = GPUARR_MALLOC(bytes ? bytes : 1);
        if (!h) ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        else if (bytes && ga__to_host(func, x, h, bytes, true) != GA_OK) GPUARR_FREE(h), h = NULL;
    }
    ga_scope_end();
    return h;
}

/* repr or str of a into buf (size bytes, NUL-terminated, cut to fit):
   the length of the whole text, or -1 with the error. */
static int64_t ga__print_to(const char *func, const ga_array *a, char *buf, size_t size, bool repr)
{
    if (!a) { ga__null_input(func, "a"); return -1; }
    if (!buf && size) { ga__null_input(func, "buf"); return -1; }
    const ga_printoptions o = ga_get_printoptions();
    int64_t cut[GA_MAXDIMS];
    void *data = ga__print_data(func, a, &o, cut);
    if (!data) return -1;
    ga__sb b = {NULL, 0, 0, false};
    ga__format(&b, data, a->dtype, a->ndim, a->shape, cut, repr, &o);
    GPUARR_FREE(data);
    if (b.oom) {
        GPUARR_FREE(b.p);
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return -1;
    }
    const int64_t n = (int64_t)b.n;
    if (size) {
        const size_t k = GA__MIN(b.n, size - 1);
        if (k) memcpy(buf, b.p, k);
        buf[k] = 0;
    }
    GPUARR_FREE(b.p);
    return n;
}

GPUARR_API int64_t ga_array_repr(const ga_array *a, char *buf, size_t size) { return ga__print_to("ga_array_repr", a, buf, size, true); }

GPUARR_API int64_t ga_array_str(const ga_array *a, char *buf, size_t size) { return ga__print_to("ga_array_str", a, buf, size, false); }

GPUARR_API ga_status ga_print(const ga_array *a)
{
    static const char func[] = "ga_print";
    const int64_t n = ga__print_to(func, a, NULL, 0, false);
    if (n < 0) return ga__t.error;
    char *s = (char *)GPUARR_MALLOC((size_t)n + 1);
    if (!s) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    ga_status st = ga__print_to(func, a, s, (size_t)n + 1, false) < 0 ? ga__t.error : GA_OK;
    if (st == GA_OK) printf("%s\n", s);
    GPUARR_FREE(s);
    return st;
}

/* --- text files: ndarray.tofile and numpy.fromfile with a separator --------- */

/* Writing. NumPy's tofile writes each element as str(item), or as
   `format % item` where a format is given, of the Python scalar that its
   getitem makes of the element: a bool, an int, a float (every float dtype
   widened to float64, so float32 0.1 is 0.10000000149011612) or a
   complex. */

#define GA__TEXT_RUN 65536 /* elements formatted before each write */

/* Element i of host data (dtype t) as that Python scalar. */
static ga_scalar ga__py_item(const void *data, ga_dtype t, int64_t i)
{
    const unsigned char *p = (const unsigned char *)data + (size_t)i * ga__dtype_sizes[t];
    ga_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = GA_SCALAR_INT;
    switch (t) {
    case GA_BOOL: s.kind = GA_SCALAR_BOOL, s.value.b = p[0] != 0; break;
    case GA_INT8: { int8_t v; memcpy(&v, p, 1); s.value.i = v; break; }
    case GA_INT16: { int16_t v; memcpy(&v, p, 2); s.value.i = v; break; }
    case GA_INT32: { int32_t v; memcpy(&v, p, 4); s.value.i = v; break; }
    case GA_INT64: memcpy(&s.value.i, p, 8); break;
    case GA_UINT8: s.value.i = p[0]; break;
    case GA_UINT16: { uint16_t v; memcpy(&v, p, 2); s.value.i = v; break; }
    case GA_UINT32: { uint32_t v; memcpy(&v, p, 4); s.value.i = v; break; }
    case GA_UINT64:
        memcpy(&s.value.u, p, 8);
        if (s.value.u > (uint64_t)INT64_MAX) s.kind = GA_SCALAR_UINT;
        break;
    default: {
        double re, im;
        ga__print_value(data, t, i, &re, &im);
        if (ga__dtype_kinds[t] == 'c') s.kind = GA_SCALAR_COMPLEX, s.value.c.re = re, s.value.c.im = im;
        else s.kind = GA_SCALAR_FLOAT, s.value.f = re;
        break;
    }
    }
    return s;
}

/* An int's (a bool's) magnitude, and its sign in *neg. */
static uint64_t ga__py_int_mag(ga_scalar s, bool *neg)
{
    *neg = s.kind == GA_SCALAR_INT && s.value.i < 0;
    if (s.kind == GA_SCALAR_BOOL) return s.value.b;
    if (s.kind == GA_SCALAR_UINT) return s.value.u;
    return *neg ? 0 - (uint64_t)s.value.i : (uint64_t)s.value.i;
}

/* Python's repr of a complex: "(1+2j)", "(nan-infj)", just "2j" where the
   real part is +0; each part as repr(float) without ".0", a NaN unsigned. */
static void ga__py_complex_repr(ga__sb *b, double re, double im)
{
    const bool bare = re == 0 && !signbit(re);
    if (!bare) {
        ga__sb_str(b, "(");
        ga__scalar_float(b, re, 0, true);
        if (!signbit(im) || isnan(im)) ga__sb_str(b, "+");
    }
    ga__scalar_float(b, im, 0, true);
    ga__sb_str(b, bare ? "j" : "j)");
}

/* str(s): Python's, "True", "-3", "0.1" (repr: the shortest digits), "(1+2j)". */
static void ga__py_str(ga__sb *b, ga_scalar s)
{
    char buf[32];
    switch (s.kind) {
    case GA_SCALAR_BOOL: ga__sb_str(b, s.value.b ? "True" : "False"); return;
    case GA_SCALAR_FLOAT: ga__scalar_float(b, s.value.f, 0, false); return;
    case GA_SCALAR_COMPLEX: ga__py_complex_repr(b, s.value.c.re, s.value.c.im); return;
    case GA_SCALAR_UINT: snprintf(buf, sizeof buf, "%llu", (unsigned long long)s.value.u); break;
    default: snprintf(buf, sizeof buf, "%lld", (long long)s.value.i); break;
    }
    ga__sb_str(b, buf);
}

/* A format compiled: Python's `format % item` of one item, as the literal
   text before and after its one conversion ("%%" made "%") and the
   conversion. conv 0: no format (str(item)). */
typedef struct ga__pyfmt {
    ga__sb pre, post;
    char conv;
    bool minus, plus, space, alt, zero; /* the flags - + ' ' # 0 */
    int width, prec;                    /* prec -1: none */
} ga__pyfmt;

static void ga__pyfmt_free(ga__pyfmt *f) { GPUARR_FREE(f->pre.p), GPUARR_FREE(f->post.p); }

/* Digits at *p (a width or a precision) into *v; false past INT_MAX. */
static bool ga__pyfmt_number(const char **p, int *v)
{
    for (*v = 0; **p >= '0' && **p <= '9'; ++*p) {
        if (*v > (INT_MAX - (**p - '0')) / 10) return false;
        *v = *v * 10 + (**p - '0');
    }
    return true;
}

/* Conversion c's TypeError for items of kind k (NumPy's getitem: 'b' and
   the integers are ints, 'f' floats, 'c' complexes), or GA_OK. */
static ga_status ga__pyfmt_type(const char *func, char c, char k)
{
    const char *type = k == 'c' ? "complex" : "float";
    if (k != 'f' && k != 'c') return GA_OK;
    if (strchr("oxX", c)) return ga__error(GA_ERROR_TYPE, func, "%%%c format: an integer is required, not %s", c, type);
    if (c == 'c') return ga__error(GA_ERROR_TYPE, func, "%%c requires int or char");
    if (k == 'f') return GA_OK;
    if (strchr("idu", c)) return ga__error(GA_ERROR_TYPE, func, "%%%c format: a real number is required, not complex", c);
    if (strchr("eEfFgG", c)) return ga__error(GA_ERROR_TYPE, func, "must be real number, not complex");
    return GA_OK;
}

/* Compiles format (NULL or "": none) for items of dtype t, with Python's
   errors in Python's order: the text read from the left, a conversion's
   type checked where it stands; one conversion of "sraiduoxXeEfFgGc",
   flags "-+ #0", a width, a precision ('*' takes an item: it leaves none
   for the conversion), a length h, l or L (ignored). The literal text must
   be ASCII (NumPy writes ASCII). ga__pyfmt_free f after, error or not. */
static ga_status ga__pyfmt_compile(const char *func, const char *format, ga_dtype t, ga__pyfmt *f)
{
    memset(f, 0, sizeof *f);
    f->prec = -1;
    const char k = ga__dtype_kinds[t];
    ga__sb *lit = &f->pre;
    bool used = false;
    for (const char *p = format; p && *p;) {
        const char *q = strchr(p, '%');
        ga__sb_add(lit, p, q ? (size_t)(q - p) : strlen(p));
        if (!q) break;
        p = q + 1;
        if (*p == '%') {
            ga__sb_add(lit, "%", 1), p++;
            continue;
        }
        if (*p == '(') return ga__error(GA_ERROR_TYPE, func, "format requires a mapping");
        for (;; p++) {
            if (*p == '-') f->minus = true;
            else if (*p == '+') f->plus = true;
            else if (*p == ' ') f->space = true;
            else if (*p == '#') f->alt = true;
            else if (*p == '0') f->zero = true;
            else break;
        }
        bool starved = false; /* a '*' took the item */
        for (int part = 0; part < 2; part++) { /* the width, then the precision */
            if (part == 1 && *p != '.') break;
            if (part == 1) p++, f->prec = 0;
            if (*p == '*') {
                if (used || k == 'f' || k == 'c')
                    return ga__error(GA_ERROR_TYPE, func, used ? "not enough arguments for format string" : "* wants int");
                starved = true, p++;
            } else if (!ga__pyfmt_number(&p, part ? &f->prec : &f->width)) {
                return ga__error(GA_ERROR_VALUE, func, part ? "precision too big" : "width too big");
            }
        }
        if (*p == 'h' || *p == 'l' || *p == 'L') p++;
        if (!*p) return ga__error(GA_ERROR_VALUE, func, "incomplete format");
        if (used || starved) return ga__error(GA_ERROR_TYPE, func, "not enough arguments for format string");
        if (!strchr("sraiduoxXeEfFgGc", *p))
            return ga__error(GA_ERROR_VALUE, func, "unsupported format character '%c' (0x%x) at index %d", *p, (unsigned char)*p,
                             (int)(p - format));
        if (ga__pyfmt_type(func, *p, k) != GA_OK) return ga__t.error;
        f->conv = *p++, used = true, lit = &f->post;
    }
    if (format && *format && !used) return ga__error(GA_ERROR_TYPE, func, "not all arguments converted during string formatting");
    for (const char *p = format; p && *p; p++)
        if ((unsigned char)*p >= 0x80)
            return ga__error(GA_ERROR_VALUE, func, "'ascii' codec can't encode the format's byte 0x%02x: ordinal not in range(128)",
                             (unsigned char)*p);
    if (f->pre.oom || f->post.oom) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    return GA_OK;
}

static void ga__sb_repeat(ga__sb *b, char c, size_t n)
{
    for (size_t i = 0; i < n; i++) ga__sb_add(b, &c, 1);
}

/* head (a sign, "0x") and body into b, padded to f's width as Python
   pads: spaces before them (after them: flag '-'), or for a number with
   flag '0' zeros between them. */
static void ga__py_pad(ga__sb *b, const ga__pyfmt *f, const char *head, const char *body, size_t blen, bool number)
{
    const size_t n = strlen(head) + blen, pad = (size_t)f->width > n ? (size_t)f->width - n : 0;
    const bool zeros = number && f->zero && !f->minus;
    if (!f->minus && !zeros) ga__sb_repeat(b, ' ', pad);
    ga__sb_str(b, head);
    if (zeros) ga__sb_repeat(b, '0', pad);
    ga__sb_add(b, body ? body : "", blen);
    if (f->minus) ga__sb_repeat(b, ' ', pad);
}

/* A conversion d i u o x X: Python's int(s) for a float (NaN and the
   infinities its errors), its digits in the conversion's base, at least
   the precision's many, "0o", "0x" or "0X" before them with flag '#'. */
static ga_status ga__py_format_int(const char *func, ga__sb *b, const ga__pyfmt *f, ga_scalar s)
{
    char digits[400], head[4];
    bool neg = false;
    if (s.kind == GA_SCALAR_FLOAT) { /* (d i u only) */
        const double x = trunc(s.value.f);
        if (isnan(x)) return ga__error(GA_ERROR_VALUE, func, "cannot convert float NaN to integer");
        if (isinf(x)) return ga__error(GA_ERROR_OVERFLOW, func, "cannot convert float infinity to integer");
        neg = x < 0;
        snprintf(digits, sizeof digits, "%.0f", fabs(x));
    } else {
        const unsigned long long m = ga__py_int_mag(s, &neg);
        if (f->conv == 'o') snprintf(digits, sizeof digits, "%llo", m);
        else if (f->conv == 'x') snprintf(digits, sizeof digits, "%llx", m);
        else if (f->conv == 'X') snprintf(digits, sizeof digits, "%llX", m);
        else snprintf(digits, sizeof digits, "%llu", m);
    }
    size_t h = 0;
    if (neg || f->plus || f->space) head[h++] = neg ? '-' : f->plus ? '+' : ' ';
    if (f->alt && strchr("oxX", f->conv)) head[h++] = '0', head[h++] = f->conv;
    head[h] = 0;
    const size_t nd = strlen(digits);
    ga__sb body = {NULL, 0, 0, false};
    ga__sb_repeat(&body, '0', f->prec > 0 && (size_t)f->prec > nd ? (size_t)f->prec - nd : 0);
    ga__sb_add(&body, digits, nd);
    ga__py_pad(b, f, head, body.p, body.n, true);
    b->oom = b->oom || body.oom;
    GPUARR_FREE(body.p);
    return GA_OK;
}

/* Finite x as C's printf prints it under conversion c (e E f F g G),
   precision prec, flag '#' (alt), sign 0, '+' or ' ' (Python's are the
   same): GPUARR_FREE the text; NULL without memory. %g is made from %e
   and %f by its definition (C11 7.21.6.1): glibc's own %#g drops a digit
   where rounding carries to a new power of ten (999.6 as %#.3g "1.e+03",
   Python "1.00e+03"). */
static char *ga__c_float(double x, char c, int prec, bool alt, char sign)
{
    const bool g = c == 'g' || c == 'G';
    int p = prec;
    if (g) { /* the exponent x has at p significant digits picks %e or %f (rounding at 41 digits never carries) */
        char probe[64];
        p = prec ? prec : 1;
        snprintf(probe, sizeof probe, "%.*e", GA__MIN(p - 1, 40), x);
        const int e = atoi(strchr(probe, 'e') + 1);
        c = p > e && e >= -4 ? 'f' : c == 'G' ? 'E' : 'e';
        p = c == 'f' ? p - 1 - e : p - 1;
    }
    char spec[8];
    size_t k = 0;
    spec[k++] = '%';
    if (alt) spec[k++] = '#';
    if (sign) spec[k++] = sign;
    spec[k++] = '.', spec[k++] = '*', spec[k++] = c, spec[k] = 0;
    const int n = snprintf(NULL, 0, spec, p, x);
    char *text = n >= 0 ? (char *)GPUARR_MALLOC((size_t)n + 1) : NULL;
    if (!text) return NULL;
    snprintf(text, (size_t)n + 1, spec, p, x);
    char *dot = strchr(text, '.');
    if (g && !alt && dot) { /* %g's trailing zeros go, and a point left last */
        char *exp = dot + strcspn(dot, "eE"), *cut = exp;
        while (cut[-1] == '0') cut--;
        if (cut[-1] == '.') cut--;
        memmove(cut, exp, strlen(exp) + 1);
    }
    return text;
}

/* A conversion e E f F g G of x: C's printf for a finite x; "nan", "inf"
   (upper case for E F G), a NaN unsigned, padded with zeros too under
   flag '0', as Python writes them. */
static void ga__py_format_float(ga__sb *b, const ga__pyfmt *f, double x)
{
    char head[2] = {0, 0};
    if (!isfinite(x)) {
        const bool upper = f->conv == 'E' || f->conv == 'F' || f->conv == 'G';
        head[0] = isinf(x) && x < 0 ? '-' : f->plus ? '+' : f->space ? ' ' : 0;
        ga__py_pad(b, f, head, isnan(x) ? (upper ? "NAN" : "nan") : upper ? "INF" : "inf", 3, true);
        return;
    }
    char *text = ga__c_float(x, f->conv, f->prec < 0 ? 6 : f->prec, f->alt, f->plus ? '+' : f->space ? ' ' : 0);
    if (!text) {
        b->oom = true;
        return;
    }
    const bool sign = text[0] == '-' || text[0] == '+' || text[0] == ' ';
    head[0] = sign ? text[0] : 0;
    ga__py_pad(b, f, head, text + sign, strlen(text) - sign, true);
    GPUARR_FREE(text);
}

/* A conversion c: the character of an int, Python's chr(); NumPy's ASCII
   text takes the first 128 only (UnicodeEncodeError). */
static ga_status ga__py_format_char(const char *func, ga__sb *b, const ga__pyfmt *f, ga_scalar s)
{
    bool neg;
    const uint64_t m = ga__py_int_mag(s, &neg);
    if (neg || m >= 0x110000) return ga__error(GA_ERROR_OVERFLOW, func, "%%c arg not in range(0x110000)");
    if (m >= 128) {
        const size_t at = f->pre.n + (!f->minus && f->width > 1 ? (size_t)f->width - 1 : 0);
        const char *esc = m < 0x100 ? "\\x%02x" : m < 0x10000 ? "\\u%04x" : "\\U%08x";
        char ch[16];
        snprintf(ch, sizeof ch, esc, (unsigned)m);
        return ga__error(GA_ERROR_VALUE, func, "'ascii' codec can't encode character '%s' in position %zu: ordinal not in range(128)", ch,
                         at);
    }
    const char c = (char)m;
    ga__py_pad(b, f, "", &c, 1, false);
    return GA_OK;
}

/* One element as tofile writes it into b: str(s), or format % s; on an
   error (a value the format cannot take) b as it was. */
static ga_status ga__text_put(const char *func, ga__sb *b, const ga__pyfmt *f, ga_scalar s)
{
    if (!f->conv) {
        ga__py_str(b, s);
        return GA_OK;
    }
    const size_t start = b->n;
    ga__sb_add(b, f->pre.p ? f->pre.p : "", f->pre.n);
    ga_status st = GA_OK;
    if (strchr("sra", f->conv)) {
        ga__sb text = {NULL, 0, 0, false};
        ga__py_str(&text, s);
        ga__py_pad(b, f, "", text.p, f->prec >= 0 && text.n > (size_t)f->prec ? (size_t)f->prec : text.n, false);
        b->oom = b->oom || text.oom;
        GPUARR_FREE(text.p);
    } else if (f->conv == 'c') {
        st = ga__py_format_char(func, b, f, s);
    } else if (strchr("iduoxX", f->conv)) {
        st = ga__py_format_int(func, b, f, s);
    } else {
        bool neg;
        const uint64_t m = s.kind == GA_SCALAR_FLOAT ? 0 : ga__py_int_mag(s, &neg);
        ga__py_format_float(b, f, s.kind == GA_SCALAR_FLOAT ? s.value.f : neg ? -(double)m : (double)m);
    }
    if (st != GA_OK) {
        b->n = start;
        if (b->p) b->p[start] = 0;
        return st;
    }
    ga__sb_add(b, f->post.p ? f->post.p : "", f->post.n);
    return GA_OK;
}

/* The n elements of host data (dtype t) as tofile's text into b, sep after
   each but the array's last (`ends`: this run holds it). Stops at an
   element the format cannot take, b holding the text before it. */
static ga_status ga__text_format(const char *func, ga__sb *b, const void *data, ga_dtype t, int64_t n, bool ends, const char *sep,
                                 const ga__pyfmt *f)
{
    const size_t seplen = strlen(sep);
    for (int64_t i = 0; i < n; i++) {
        if (ga__text_put(func, b, f, ga__py_item(data, t, i)) != GA_OK) return ga__t.error;
        if (i < n - 1 || !ends) ga__sb_add(b, sep, seplen);
    }
    return GA_OK;
}

/* tofile's text of the C-contiguous device array c into out (the file
   `name`): the elements through a pinned staging buffer, formatted and
   written GA__TEXT_RUN at a time. An element the format cannot take ends
   it with the elements before it written, as NumPy. */
static ga_status ga__text_write_data(const char *func, FILE *out, const ga_array *c, const char *name, const char *sep,
                                     const char *format)
{
    if (c->size == 0) return GA_OK; /* (NumPy reads no format then) */
    ga__pyfmt fmt;
    ga_status st = ga__pyfmt_compile(func, format, c->dtype, &fmt);
    const size_t isz = ga__dtype_sizes[c->dtype], total = ga_nbytes(c), chunk = GA__MIN(total, GA__NPY_CHUNK / isz * isz);
    unsigned char *buf = st == GA_OK ? (unsigned char *)ga_pinned_alloc(chunk) : NULL;
    if (st == GA_OK && !buf) st = ga__t.error;
    CUstream stream = ga__stream_of(c->device);
    ga__sb text = {NULL, 0, 0, false};
    for (size_t at = 0; st == GA_OK && at < total; at += chunk) {
        const size_t nb = GA__MIN(chunk, total - at);
        CUresult r = GA__CU.MemcpyDtoHAsync(buf, (CUdeviceptr)(c->data + at), nb, stream);
        if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
        if (r != CUDA_SUCCESS) st = ga__cuda_error(func, r, "cuMemcpyDtoHAsync");
        for (size_t i = 0; st == GA_OK && i < nb / isz; i += GA__TEXT_RUN) {
            const size_t m = GA__MIN((size_t)GA__TEXT_RUN, nb / isz - i);
            st = ga__text_format(func, &text, buf + i * isz, c->dtype, (int64_t)m, at + (i + m) * isz == total, sep, &fmt);
            if (text.n && !text.oom && fwrite(text.p, 1, text.n, out) != text.n && st == GA_OK)
                st = ga__error(GA_ERROR_IO, func, "could not write %s: %s", name, strerror(errno));
            if (text.oom && st == GA_OK) st = ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
            text.n = 0;
        }
    }
    GPUARR_FREE(text.p);
    if (buf) ga_pinned_free(buf);
    ga__pyfmt_free(&fmt);
    return st;
}

/* Reading: NumPy's text reader (ctors.c's array_from_text and
   fromfile_skip_separator, arraytypes.c.src's *_scan, numpyos.c's
   read_numberlike_string), over a buffered file or a text in memory with
   the one character of look-ahead that its getc and ungetc give. */

#define GA__TEXT_BUF ((size_t)1 << 16)
#define GA__NUMBER_TEXT 120 /* NumPy's FLOAT_FORMATBUFLEN: the longest number text read */

typedef struct ga__tin {
    FILE *f;                /* NULL: no more to read into buf (a text in memory, or f's end) */
    const unsigned char *p; /* the text: p[pos .. len) unread */
    size_t pos, len;
    unsigned char *buf;     /* f's buffer */
    int back;               /* a character pushed back, or EOF */
    bool failed;            /* f could not be read */
} ga__tin;

static int ga__tin_getc(ga__tin *in)
{
    if (in->back != EOF) {
        const int c = in->back;
        in->back = EOF;
        return c;
    }
    if (in->pos == in->len && in->f) {
        in->len = fread(in->buf, 1, GA__TEXT_BUF, in->f), in->pos = 0;
        if (in->len == 0) in->failed = ferror(in->f) != 0, in->f = NULL;
    }
    return in->pos < in->len ? in->p[in->pos++] : EOF;
}

/* C's ungetc: c is read next (EOF: nothing is). */
static void ga__tin_ungetc(ga__tin *in, int c) { in->back = c; }

/* isspace in the C locale. */
static bool ga__text_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

/* An integer as glibc's fscanf "%lld" / "%llu" reads it (NumPy's integer
   *_scan): blanks skipped, a sign, decimal digits, the value saturated at
   64 bits as strtoll / strtoull give it ("-1" as uint64: 2^64 - 1), then
   wrapped to the dtype (int8 "300": 44), as NumPy's C cast of it. 1, 0 (no
   digits) or EOF (the text ended first). */
static int ga__scan_int(ga__tin *in, ga_dtype t, unsigned char *out)
{
    int c = ga__tin_getc(in);
    while (ga__text_space(c)) c = ga__tin_getc(in);
    if (c == EOF) return EOF;
    const bool neg = c == '-';
    if (c == '-' || c == '+') c = ga__tin_getc(in);
    uint64_t mag = 0;
    bool any = false, over = false;
    for (; c >= '0' && c <= '9'; c = ga__tin_getc(in), any = true) {
        over = over || mag > (UINT64_MAX - (uint64_t)(c - '0')) / 10;
        if (!over) mag = mag * 10 + (uint64_t)(c - '0');
    }
    ga__tin_ungetc(in, c);
    if (!any) return 0;
    uint64_t v;
    if (ga__dtype_kinds[t] == 'u') v = over ? UINT64_MAX : neg ? 0 - mag : mag;
    else if (neg) v = over || mag > (uint64_t)INT64_MAX + 1 ? (uint64_t)INT64_MIN : 0 - mag;
    else v = over || mag > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : mag;
    switch (ga__dtype_sizes[t]) {
    case 1: { uint8_t w = (uint8_t)v; memcpy(out, &w, 1); break; }
    case 2: { uint16_t w = (uint16_t)v; memcpy(out, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)v; memcpy(out, &w, 4); break; }
    default: memcpy(out, &v, 8); break;
    }
    return 1;
}

/* read_numberlike_string's NEXT_CHAR: c kept, the next read into c; false
   (the match ends) at the text's end or with GA__NUMBER_TEXT kept. */
static bool ga__num_take(ga__tin *in, char *buf, size_t *n, int *c)
{
    if (*c == EOF || *n >= GA__NUMBER_TEXT) return false;
    buf[(*n)++] = (char)*c;
    *c = ga__tin_getc(in);
    return true;
}

/* The letters of w (lower case) in any case, kept; false where one differs. */
static bool ga__num_word(ga__tin *in, char *buf, size_t *n, int *c, const char *w)
{
    for (; *w; w++)
        if ((*c != *w && *c + ('a' - 'A') != *w) || !ga__num_take(in, buf, n, c)) return false;
    return true;
}

/* read_numberlike_string's match from *c on: a sign, then nan, nan(...),
   inf or infinity, or digits, '.' and digits, an exponent; the longest
   start of one kept. */
static void ga__num_match(ga__tin *in, char *buf, size_t *n, int *c)
{
    if ((*c == '+' || *c == '-') && !ga__num_take(in, buf, n, c)) return;
    if (*c == 'n' || *c == 'N') {
        if (!ga__num_take(in, buf, n, c) || !ga__num_word(in, buf, n, c, "an") || *c != '(' || !ga__num_take(in, buf, n, c)) return;
        while ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_')
            if (!ga__num_take(in, buf, n, c)) return;
        if (*c == ')') ga__num_take(in, buf, n, c);
        return;
    }
    if (*c == 'i' || *c == 'I') {
        if (ga__num_take(in, buf, n, c)) ga__num_word(in, buf, n, c, "nfinity");
        return;
    }
    while (*c >= '0' && *c <= '9')
        if (!ga__num_take(in, buf, n, c)) return;
    for (int part = 0; part < 2; part++) { /* ".digits", then "e", a sign, digits */
        if (part == 0 ? *c != '.' : *c != 'e' && *c != 'E') continue;
        if (!ga__num_take(in, buf, n, c)) return;
        if (part == 1 && (*c == '+' || *c == '-') && !ga__num_take(in, buf, n, c)) return;
        if (!(*c >= '0' && *c <= '9')) return;
        while (*c >= '0' && *c <= '9')
            if (!ga__num_take(in, buf, n, c)) return;
    }
}

/* NumPy's NumPyOS_ascii_ftolf: blanks skipped, the matched text read as
   a number (NumPyOS_ascii_strtod: nan and inf by NumPy, an unsigned NaN;
   the rest as strtod reads it), the text after that number dropped ("1e"
   reads 1). 1, 0 (no number, blanks only too) or EOF (nothing at all). */
static int ga__scan_double(ga__tin *in, double *value)
{
    char buf[GA__NUMBER_TEXT + 1];
    size_t n = 0;
    int c = ga__tin_getc(in);
    if (c == EOF) return EOF;
    while (ga__text_space(c)) c = ga__tin_getc(in);
    ga__num_match(in, buf, &n, &c);
    ga__tin_ungetc(in, c);
    buf[n] = 0;
    const char *p = buf + (buf[0] == '+' || buf[0] == '-');
    if (n == 0) return 0;
    if (strlen(p) >= 3 && strchr("nNiI", p[0])) { /* (the match kept "nan" or "inf" in some case) */
        *value = p[0] == 'n' || p[0] == 'N' ? NAN : buf[0] == '-' ? -INFINITY : INFINITY;
        return 1;
    }
    char *end;
    *value = strtod(buf, &end);
    return end != buf;
}

/* A complex as NumPy's CDOUBLE_scan reads it: a number, then "+y" or "-y"
   and 'j' ("1+2j"), or 'j' ("2j"), or neither ("1"). Where the imaginary
   part is not a number followed by 'j', NumPy keeps the real part and
   pushes back an 'a', which no separator matches ("1+2" reads 1 when it is
   the last element asked for, else is unmatched). */
static int ga__scan_complex(ga__tin *in, double *re, double *im)
{
    double x = 0, y = 0;
    const int r = ga__scan_double(in, &x);
    int next = ga__tin_getc(in);
    *re = x, *im = 0;
    if (next == '+' || next == '-') {
        ga__tin_ungetc(in, next);
        const int ri = ga__scan_double(in, &y);
        next = ga__tin_getc(in);
        if (ri == 1 && next == 'j') *im = y;
        else ga__tin_ungetc(in, 'a');
    } else if (next == 'j') {
        *re = 0, *im = x;
    } else {
        ga__tin_ungetc(in, next);
    }
    return r;
}

/* One element of dtype t (not bfloat16: NumPy has no reader of it) into
   out, as NumPy's *_scan reads it: integers as fscanf, floats as a
   double rounded to the dtype, bool a double's truth (nonzero: "True" is
   not read), complex as above. 1, 0 (no number) or EOF. */
static int ga__scan_element(ga__tin *in, ga_dtype t, unsigned char *out)
{
    const char k = ga__dtype_kinds[t];
    if (k == 'i' || k == 'u') return ga__scan_int(in, t, out);
    double re = 0, im = 0;
    const int r = k == 'c' ? ga__scan_complex(in, &re, &im) : ga__scan_double(in, &re);
    ga__value16 v;
    ga__double_to_element(re, im, t, &v);
    memcpy(out, &v, ga__dtype_sizes[t]);
    return r;
}

/* The separator as NumPy's reader matches it (swab_separator): each run of
   blanks made one ' ', a ' ' put in front where sep starts otherwise, one
   more at the end where it ends with one. GPUARR_FREE it; NULL: no memory. */
static char *ga__text_sep(const char *sep)
{
    char *s = (char *)GPUARR_MALLOC(strlen(sep) + 3), *o = s;
    if (!s) return NULL;
    if (*sep && !ga__text_space((unsigned char)*sep)) *o++ = ' ';
    for (bool blank = false; *sep; sep++) {
        const bool space = ga__text_space((unsigned char)*sep);
        if (!space || !blank) *o++ = space ? ' ' : *sep;
        blank = space;
    }
    if (o != s && o[-1] == ' ') *o++ = ' ';
    *o = 0;
    return s;
}

/* NumPy's fromfile_skip_separator over the text with sep from
   ga__text_sep: 0 matched, -1 the text ended (in the separator too), -2
   not matched. A ' ' matches any run of blanks, none too, except that a
   separator of blanks only needs one. */
static int ga__text_skip_sep(ga__tin *in, const char *sep)
{
    int i = 0, start = 0; /* (start: NumPy's sep_start, one before sep once a blank is met) */
    for (;;) {
        const int c = ga__tin_getc(in);
        if (c == EOF) return -1;
        if (!sep[i]) {
            ga__tin_ungetc(in, c);
            return i != start ? 0 : -2;
        }
        if (sep[i] == ' ') {
            if (!ga__text_space(c)) i++, start++, ga__tin_ungetc(in, c);
            else if (i == start) start--;
        } else if ((unsigned char)sep[i] != c) {
            ga__tin_ungetc(in, c);
            return -2;
        } else {
            i++;
        }
    }
}

/* NumPy's array_from_text as a reader that gives its elements a run at a
   time: count (negative: all) elements of dtype, a separator after each
   (optional after the last one asked for). */
typedef struct ga__text_reader {
    ga__tin in;
    ga_dtype dtype;
    char *sep;             /* ga__text_sep's */
    int64_t count, read;   /* elements asked for and read */
    int stop;              /* 0 reading, -1 the end, -2 unmatched text (NumPy's ValueError) */
} ga__text_reader;

/* A reader of file f (buffered), or where f is NULL of the len bytes of
   text. GA_ERROR_HOST_OUT_OF_MEMORY; ga__text_reader_free it either way. */
static ga_status ga__text_reader_init(const char *func, ga__text_reader *r, FILE *f, const char *text, size_t len, ga_dtype dtype,
                                      int64_t count, const char *sep)
{
    memset(r, 0, sizeof *r);
    r->in.f = f, r->in.back = EOF, r->dtype = dtype, r->count = count;
    r->in.buf = f ? (unsigned char *)GPUARR_MALLOC(GA__TEXT_BUF) : NULL;
    r->in.p = f ? r->in.buf : (const unsigned char *)text, r->in.len = f ? 0 : len;
    r->sep = ga__text_sep(sep);
    if (!r->sep || (f && !r->in.buf)) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    return GA_OK;
}

static void ga__text_reader_free(ga__text_reader *r) { GPUARR_FREE(r->in.buf), GPUARR_FREE(r->sep); }

/* Whether r has read all it will. */
static bool ga__text_done(const ga__text_reader *r) { return r->stop != 0 || (r->count >= 0 && r->read >= r->count); }

/* Up to n more elements into out: the number read. */
static int64_t ga__text_read(ga__text_reader *r, unsigned char *out, int64_t n)
{
    const size_t isz = ga__dtype_sizes[r->dtype];
    int64_t k = 0;
    while (k < n && !ga__text_done(r)) {
        const int s = ga__scan_element(&r->in, r->dtype, out + (size_t)k * isz);
        if (s != 1) {
            r->stop = s == 0 ? -2 : -1;
            break;
        }
        k++, r->read++;
        const int m = ga__text_skip_sep(&r->in, r->sep);
        if (m < 0) r->stop = r->read == r->count ? -1 : m;
    }
    return k;
}

/* The n elements at stage uploaded into a new device array, appended to
   the *nfull of *full. */
static ga_status ga__text_stash(const char *func, ga_array ***full, int *nfull, const void *stage, int64_t n, ga_dtype dtype)
{
    ga_array **grown = (ga_array **)GPUARR_MALLOC(sizeof *grown * (size_t)(*nfull + 1));
    if (!grown) return ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
    if (*nfull) memcpy(grown, *full, sizeof *grown * (size_t)*nfull);
    GPUARR_FREE(*full);
    *full = grown;
    ga_array *c = ga__new_on_current(func, 1, &n, dtype);
    if (!c) return ga__t.error;
    (*full)[(*nfull)++] = c;
    return ga__upload(func, c, stage, true); /* (waits: stage is reused) */
}

/* The nfull stashed arrays (each `per` elements) then the tail elements
   at stage, as one new array. */
static ga_array *ga__text_gather(const char *func, ga_array *const *full, int nfull, int64_t per, const void *stage, int64_t tail,
                                 ga_dtype dtype)
{
    const int64_t n = (int64_t)nfull * per + tail;
    const size_t run = (size_t)per * ga__dtype_sizes[dtype];
    ga_array *a = ga__new_on_current(func, 1, &n, dtype);
    if (!a) return NULL;
    CUstream stream = ga__stream_of(a->device);
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; r == CUDA_SUCCESS && i < nfull; i++)
        r = GA__CU.MemcpyDtoDAsync((CUdeviceptr)(a->data + (size_t)i * run), (CUdeviceptr)full[i]->data, run, stream);
    if (r == CUDA_SUCCESS && tail)
        r = GA__CU.MemcpyHtoDAsync((CUdeviceptr)(a->data + (size_t)nfull * run), stage, (size_t)tail * ga__dtype_sizes[dtype], stream);
    if (r == CUDA_SUCCESS) r = GA__CU.StreamSynchronize(stream);
    if (r != CUDA_SUCCESS) {
        ga__cuda_error(func, r, "cuMemcpyAsync");
        ga_release(a);
        return NULL;
    }
    return a;
}

/* numpy.fromfile's text mode: f (the file `file`) read to its end, or to
   count elements, as a new 1-d array on the current device. The elements
   are parsed into a pinned staging buffer; each time it fills, it goes to
   a device array of its own (ga__text_stash), and at the end those and
   the last run make the result, of the size read (ga__text_gather). */
static ga_array *ga__fromfile_text(const char *func, FILE *f, const char *file, ga_dtype dtype, int64_t count, const char *sep)
{
    if (dtype == GA_BFLOAT16) { /* (ml_dtypes gives NumPy no scanfunc for it) */
        ga__error(GA_ERROR_VALUE, func, "Unable to read character files of that array type");
        return NULL;
    }
    const size_t isz = ga__dtype_sizes[dtype];
    const int64_t per = (int64_t)(GA__NPY_CHUNK / isz);
    ga__text_reader r;
    ga_status st = ga__text_reader_init(func, &r, f, NULL, 0, dtype, count, sep);
    unsigned char *stage = st == GA_OK ? (unsigned char *)ga_pinned_alloc((size_t)per * isz) : NULL;
    if (st == GA_OK && !stage) st = ga__t.error;
    ga_array **full = NULL, *a = NULL;
    int nfull = 0;
    int64_t tail = 0;
    while (st == GA_OK) {
        tail = ga__text_read(&r, stage, per);
        if (r.in.failed) st = ga__error(GA_ERROR_IO, func, "could not read %s: %s", file, strerror(errno));
        else if (r.stop == -2) st = ga__error(GA_ERROR_VALUE, func, "string or file could not be read to its end due to unmatched data");
        else if (tail == per && !ga__text_done(&r)) st = ga__text_stash(func, &full, &nfull, stage, per, dtype);
        else break;
    }
    if (st == GA_OK) a = ga__text_gather(func, full, nfull, per, stage, tail, dtype);
    for (int i = 0; i < nfull; i++) ga_release(full[i]);
    GPUARR_FREE(full);
    if (stage) ga_pinned_free(stage);
    ga__text_reader_free(&r);
    return a;
}

/* >>interop */
/* ------------------------------------------------------------------------ */
/* 21. Interop: DLPack, memory allocated elsewhere                          */
/* ------------------------------------------------------------------------ */

#if DLPACK_MAJOR_VERSION != 1
#error "gpuarr speaks DLPack 1.x: the dlpack.h included before gpuarr.h has another major version"
#endif

/* gpuarr's dtype as DLPack's (lanes 1), and back (GA_DTYPE_INVALID for a
   type gpuarr lacks) */
static DLDataType ga__dlpack_dtype(ga_dtype t)
{
    const char kind = ga__dtype_kinds[t];
    DLDataType d;
    d.code = (uint8_t)(t == GA_BFLOAT16 ? kDLBfloat
                       : kind == 'b'    ? kDLBool
                       : kind == 'i'    ? kDLInt
                       : kind == 'u'    ? kDLUInt
                       : kind == 'f'    ? kDLFloat
                                        : kDLComplex);
    d.bits = (uint8_t)(8 * ga__dtype_sizes[t]);
    d.lanes = 1;
    return d;
}

static ga_dtype ga__dtype_from_dlpack(DLDataType d)
{
    for (int t = 0; t < GA_NUM_DTYPES && d.lanes == 1; t++) {
        const DLDataType g = ga__dlpack_dtype((ga_dtype)t);
        if (g.code == d.code && g.bits == d.bits) return (ga_dtype)t;
    }
    return GA_DTYPE_INVALID;
}

/* A DLPack stream number as a driver handle (0 and 1: the legacy default
   stream, which is the NULL handle in gpuarr's legacy mode; 2 is
   CU_STREAM_PER_THREAD's own value) */
static CUstream ga__dlpack_stream(intptr_t stream) { return stream == 0 || stream == 1 ? NULL : (CUstream)stream; }

/* Work queued on `waiter` from now on waits for the work queued so far on
   `producer` (same device, bound): an event recorded on one, waited for on
   the other. Nothing when they are the same stream. */
static ga_status ga__stream_handover(const char *func, CUstream producer, CUstream waiter)
{
    if (producer == waiter) return GA_OK;
    CUevent event = NULL;
    GA__CHECK_CU(func, GA__CU.EventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    CUresult r = GA__CU.EventRecord(event, producer);
    const char *what = "cuEventRecord";
    if (r == CUDA_SUCCESS) r = GA__CU.StreamWaitEvent(waiter, event, 0), what = "cuStreamWaitEvent";
    GA__CU.EventDestroy(event); /* (the driver keeps it until the wait is done) */
    return r == CUDA_SUCCESS ? GA_OK : ga__cuda_error(func, r, what);
}

/* An array over memory gpuarr does not own on `device` (bound): element 0
   at `ptr`, byte strides. `release(release_data)` is set only once the
   array exists, so a failure leaves the memory to the caller. */
static ga_array *ga__array_external(const char *func, int device, uint64_t ptr, ga_dtype dtype, int ndim,
                                    const int64_t *shape, const int64_t *strides, void (*release)(void *),
                                    void *release_data)
{
    const int64_t itemsize = (int64_t)ga__dtype_sizes[dtype], align = itemsize < 8 ? itemsize : 8;
    int64_t size = 0, first = 0, end = 0;
    if (ga__check_shape(func, ndim, shape, itemsize, &size) != GA_OK) return NULL;
    bool aligned = ptr % (uint64_t)align == 0; /* kernels access whole, aligned elements */
    for (int d = 0; d < ndim; d++) aligned = aligned && (shape[d] <= 1 || strides[d] % align == 0);
    if (size > 0 && !aligned) {
        ga__error(GA_ERROR_VALUE, func, "the address and the strides must be multiples of %lld bytes for %s",
                  (long long)align, ga__dtype_names[dtype]);
        return NULL;
    }
    if (size > 0 && !ga__reach(0, ndim, shape, strides, itemsize, &first, &end)) {
        ga__error(GA_ERROR_VALUE, func, "the layout reaches byte offsets beyond int64");
        return NULL;
    }
    ga__buffer *buf = (ga__buffer *)GPUARR_MALLOC(sizeof *buf);
    if (!buf) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    buf->refcount = 1;
    buf->device = device;
    buf->ptr = ptr + (uint64_t)first; /* the lowest byte any element reaches */
    buf->nbytes = (size_t)(end - first);
    buf->block = NULL;
    buf->release = NULL;
    buf->release_data = NULL;
    ga_array *a = ga__array_wrap(func, buf, dtype, ndim, shape, strides, ptr);
    if (a) buf->release = release, buf->release_data = release_data;
    return a;
}

/* --- export ------------------------------------------------------------- */

/* What a DLPack tensor of ours holds: the array whose memory it shows (a
   reference), and its shape and strides in elements. */
typedef struct ga__dlpack_export {
    union {
        DLManagedTensorVersioned versioned;
        DLManagedTensor legacy;
    } tensor;
    ga_array *array;
    int64_t shape[GA_MAXDIMS], strides[GA_MAXDIMS];
} ga__dlpack_export;

static void ga__dlpack_export_free(ga__dlpack_export *e)
{
    ga_release(e->array);
    GPUARR_FREE(e);
}

static void ga__dlpack_deleter(DLManagedTensorVersioned *t)
{
    if (t) ga__dlpack_export_free((ga__dlpack_export *)t->manager_ctx);
}

static void ga__dlpack_deleter_legacy(DLManagedTensor *t)
{
    if (t) ga__dlpack_export_free((ga__dlpack_export *)t->manager_ctx);
}

/* Whether DLPack can state a's layout: element strides, so byte strides
   that are multiples of the item size (only complex128 views, whose
   strides need only be multiples of 8, can fail). */
static bool ga__dlpack_expressible(const ga_array *a)
{
    const int64_t itemsize = (int64_t)ga__dtype_sizes[a->dtype];
    for (int d = 0; d < a->ndim; d++)
        if (a->size > 0 && a->shape[d] > 1 && a->strides[d] % itemsize != 0) return false;
    return true;
}

/* The export of `a` (or of its C-order copy where `copy` or the layout asks
   for one: *copied), its DLTensor filled, the consumer's stream made to
   wait for gpuarr's. */
static ga__dlpack_export *ga__dlpack_export_new(const char *func, const ga_array *a, intptr_t stream,
                                                ga_copy_mode copy, bool *copied)
{
    if (!a) {
        ga__null_input(func, "a");
        return NULL;
    }
    if ((unsigned)copy > (unsigned)GA_COPY_NEVER) {
        ga__error(GA_ERROR_VALUE, func, "copy must be GA_COPY_IF_NEEDED, GA_COPY_ALWAYS or GA_COPY_NEVER, not %d", (int)copy);
        return NULL;
    }
    const bool expressible = ga__dlpack_expressible(a);
    if (!expressible && copy == GA_COPY_NEVER) {
        ga__error(GA_ERROR_VALUE, func, "DLPack strides count elements: this %s view's byte strides are not multiples "
                  "of 16, and copy is GA_COPY_NEVER", ga__dtype_names[a->dtype]);
        return NULL;
    }
    if (ga__bind(func, a->device) != GA_OK) return NULL;
    ga__dlpack_export *e = (ga__dlpack_export *)GPUARR_MALLOC(sizeof *e);
    if (!e) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        return NULL;
    }
    *copied = copy == GA_COPY_ALWAYS || !expressible;
    e->array = *copied ? ga__contiguous_copy(func, a, a->dtype) : ga_retain((ga_array *)(uintptr_t)a);
    if (!e->array || (stream != -1 && ga__stream_handover(func, ga__stream_of(a->device), ga__dlpack_stream(stream)) != GA_OK)) {
        ga_release(e->array);
        GPUARR_FREE(e);
        return NULL;
    }
    return e;
}

static void ga__dlpack_fill(ga__dlpack_export *e, DLTensor *t)
{
    const ga_array *x = e->array;
    const int64_t itemsize = (int64_t)ga__dtype_sizes[x->dtype];
    int64_t c = 1; /* a dim of one element or an empty array: any stride; C order's */
    for (int d = x->ndim - 1; d >= 0; d--) {
        e->shape[d] = x->shape[d];
        e->strides[d] = x->size > 0 && x->shape[d] > 1 ? x->strides[d] / itemsize : c;
        c *= x->shape[d] > 1 ? x->shape[d] : 1;
    }
    t->data = x->size > 0 ? (void *)(uintptr_t)x->data : NULL;
    t->device.device_type = kDLCUDA;
    t->device.device_id = x->device;
    t->ndim = x->ndim;
    t->dtype = ga__dlpack_dtype(x->dtype);
    t->shape = e->shape;
    t->strides = e->strides;
    t->byte_offset = 0;
}

GPUARR_API DLManagedTensorVersioned *ga_to_dlpack(const ga_array *a, intptr_t stream, ga_copy_mode copy)
{
    bool copied = false;
    ga__dlpack_export *e = ga__dlpack_export_new("ga_to_dlpack", a, stream, copy, &copied);
    if (!e) return NULL;
    DLManagedTensorVersioned *t = &e->tensor.versioned;
    t->version.major = DLPACK_MAJOR_VERSION;
    t->version.minor = DLPACK_MINOR_VERSION;
    t->manager_ctx = e;
    t->deleter = ga__dlpack_deleter;
    t->flags = (copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0) |
               (e->array->flags & GA_WRITEABLE ? 0 : DLPACK_FLAG_BITMASK_READ_ONLY);
    ga__dlpack_fill(e, &t->dl_tensor);
    return t;
}

GPUARR_API DLManagedTensor *ga_to_dlpack_legacy(const ga_array *a, intptr_t stream, ga_copy_mode copy)
{
    static const char func[] = "ga_to_dlpack_legacy";
    if (a && !(a->flags & GA_WRITEABLE) && copy != GA_COPY_ALWAYS) {
        ga__error(GA_ERROR_VALUE, func, "Cannot export readonly array since signalling readonly is unsupported by "
                  "DLPack (supported by newer DLPack version).");
        return NULL;
    }
    bool copied = false;
    ga__dlpack_export *e = ga__dlpack_export_new(func, a, stream, copy, &copied);
    if (!e) return NULL;
    DLManagedTensor *t = &e->tensor.legacy;
    t->manager_ctx = e;
    t->deleter = ga__dlpack_deleter_legacy;
    ga__dlpack_fill(e, &t->dl_tensor);
    return t;
}

/* --- import ------------------------------------------------------------- */

static void ga__dlpack_give_back(void *tensor)
{
    DLManagedTensorVersioned *t = (DLManagedTensorVersioned *)tensor;
    if (t->deleter) t->deleter(t);
}

static void ga__dlpack_give_back_legacy(void *tensor)
{
    DLManagedTensor *t = (DLManagedTensor *)tensor;
    if (t->deleter) t->deleter(t);
}

/* A DLPack tensor as gpuarr reads it: dtype, shape, byte strides, the
   first element's address. */
typedef struct ga__dlpack_layout {
    ga_dtype dtype;
    int ndim;
    int64_t shape[GA_MAXDIMS], strides[GA_MAXDIMS];
    uint64_t ptr;
} ga__dlpack_layout;

static ga_status ga__dlpack_read(const char *func, const DLTensor *t, ga__dlpack_layout *l)
{
    l->dtype = ga__dtype_from_dlpack(t->dtype);
    if (l->dtype == GA_DTYPE_INVALID)
        return ga__error(GA_ERROR_TYPE, func, "unsupported DLPack dtype (code %u, %u bits, %u lanes)",
                         (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes);
    if (t->ndim < 0 || t->ndim > GA_MAXDIMS)
        return ga__error(GA_ERROR_VALUE, func, "ndim %d is out of range (0 to %d)", (int)t->ndim, GA_MAXDIMS);
    if (t->ndim > 0 && !t->shape) return ga__null_input(func, "the tensor's shape");
    l->ndim = (int)t->ndim;
    const int64_t itemsize = (int64_t)ga__dtype_sizes[l->dtype];
    int64_t size = 0, c = itemsize;
    if (ga__check_shape(func, l->ndim, t->shape, itemsize, &size) != GA_OK) return ga__t.error;
    for (int d = l->ndim - 1; d >= 0; d--) {
        l->shape[d] = t->shape[d];
        l->strides[d] = c; /* no strides (legacy tensors): C order */
        if (t->strides && ga__mul_overflow(t->strides[d], itemsize, &l->strides[d]))
            return ga__error(GA_ERROR_VALUE, func, "a stride of %lld elements overflows int64 in bytes",
                             (long long)t->strides[d]);
        c *= t->shape[d] > 1 ? t->shape[d] : 1;
    }
    l->ptr = (uint64_t)(uintptr_t)t->data + t->byte_offset;
    if (size > 0 && !t->data) return ga__null_input(func, "the tensor's data");
    return GA_OK;
}

/* Copies host elements laid out as l into C order at dst. */
static void ga__host_gather(unsigned char *dst, const ga__dlpack_layout *l, int64_t size)
{
    const size_t itemsize = ga__dtype_sizes[l->dtype];
    const unsigned char *p = (const unsigned char *)(uintptr_t)l->ptr;
    int64_t idx[GA_MAXDIMS] = {0};
    for (int64_t i = 0; i < size; i++) {
        memcpy(dst + (size_t)i * itemsize, p, itemsize);
        for (int d = l->ndim - 1; d >= 0; d--) {
            p += l->strides[d];
            if (++idx[d] < l->shape[d]) break;
            p -= l->strides[d] * l->shape[d];
            idx[d] = 0;
        }
    }
}

/* A host tensor (kDLCPU, kDLCUDAHost) copied to a new array on the current
   device; the upload is finished when this returns. */
static ga_array *ga__dlpack_upload(const char *func, const ga__dlpack_layout *l)
{
    ga_array *a = ga__new_on_current(func, l->ndim, l->shape, l->dtype);
    if (!a) return NULL;
    bool c_order = true;
    for (int d = 0; d < a->ndim; d++) c_order = c_order && (a->shape[d] <= 1 || a->strides[d] == l->strides[d]);
    unsigned char *tmp = NULL;
    if (!c_order && a->size > 0 && !(tmp = (unsigned char *)GPUARR_MALLOC(ga_nbytes(a)))) {
        ga__error(GA_ERROR_HOST_OUT_OF_MEMORY, func, "out of host memory");
        ga_release(a);
        return NULL;
    }
    if (tmp) ga__host_gather(tmp, l, a->size);
    ga_status st = ga__upload(func, a, tmp ? tmp : (const void *)(uintptr_t)l->ptr, true); /* (done with the host data) */
    GPUARR_FREE(tmp);
    if (st != GA_OK) ga_release(a), a = NULL;
    return a;
}

/* What ga_from_dlpack and its legacy form share. The tensor is gpuarr's
   from the start: give_back(tensor) on every path but success's, where it
   waits in the array's buffer for the last release. */
static ga_array *ga__dlpack_import(const char *func, const DLTensor *t, bool read_only, intptr_t stream,
                                   ga_copy_mode copy, void (*give_back)(void *), void *tensor)
{
    ga__dlpack_layout l;
    ga_array *a = NULL;
    const int type = (int)t->device.device_type;
    if ((unsigned)copy > (unsigned)GA_COPY_NEVER)
        ga__error(GA_ERROR_VALUE, func, "copy must be GA_COPY_IF_NEEDED, GA_COPY_ALWAYS or GA_COPY_NEVER, not %d", (int)copy);
    else if (ga__dlpack_read(func, t, &l) != GA_OK) {
    } else if (type == kDLCPU || type == kDLCUDAHost) {
        if (copy == GA_COPY_NEVER)
            ga__error(GA_ERROR_VALUE, func, "the tensor is in host memory (%s): it can only be copied to the device, "
                      "and copy is GA_COPY_NEVER", type == kDLCPU ? "kDLCPU" : "kDLCUDAHost");
        else
            a = ga__dlpack_upload(func, &l);
    } else if (type == kDLCUDA || type == kDLCUDAManaged) {
        const int device = type == kDLCUDA ? (int)t->device.device_id : ga__t.device;
        if (ga__bind(func, device) == GA_OK &&
            (stream == -1 || ga__stream_handover(func, ga__dlpack_stream(stream), ga__stream_of(device)) == GA_OK))
            a = ga__array_external(func, device, l.ptr, l.dtype, l.ndim, l.shape, l.strides, give_back, tensor);
        if (a && read_only) a->flags &= ~GA_WRITEABLE;
        if (a && copy == GA_COPY_ALWAYS) {
            ga_array *c = ga__contiguous_copy(func, a, a->dtype);
            ga_release(a); /* gives the tensor back once the copy is done */
            return ga__ret(c);
        }
        if (a) return ga__ret(a);
    } else {
        ga__error(GA_ERROR_DEVICE, func, "unsupported DLPack device type %d (gpuarr takes kDLCUDA, kDLCUDAManaged, "
                  "kDLCPU and kDLCUDAHost)", type);
    }
    give_back(tensor);
    return ga__ret(a);
}

GPUARR_API ga_array *ga_from_dlpack(DLManagedTensorVersioned *tensor, intptr_t stream, ga_copy_mode copy)
{
    static const char func[] = "ga_from_dlpack";
    if (!tensor) {
        ga__null_input(func, "tensor");
        return NULL;
    }
    if (tensor->version.major != DLPACK_MAJOR_VERSION) { /* (only the deleter may be read: DLPack's rule) */
        ga__error(GA_ERROR_VALUE, func, "DLPack version %u.%u is not supported (gpuarr reads %d.x)",
                  (unsigned)tensor->version.major, (unsigned)tensor->version.minor, DLPACK_MAJOR_VERSION);
        ga__dlpack_give_back(tensor);
        return NULL;
    }
    return ga__dlpack_import(func, &tensor->dl_tensor, (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0, stream,
                             copy, ga__dlpack_give_back, tensor);
}

GPUARR_API ga_array *ga_from_dlpack_legacy(DLManagedTensor *tensor, intptr_t stream, ga_copy_mode copy)
{
    static const char func[] = "ga_from_dlpack_legacy";
    if (!tensor) {
        ga__null_input(func, "tensor");
        return NULL;
    }
    return ga__dlpack_import(func, &tensor->dl_tensor, false, stream, copy, ga__dlpack_give_back_legacy, tensor);
}

/* --- memory allocated elsewhere ------------------------------------------ */

/* The device that holds `ptr` as the driver knows it (-1 for page-locked
   host memory, which every device may address): GA_OK, or GA_ERROR_VALUE
   for memory the driver does not know. */
static ga_status ga__pointer_device(const char *func, uint64_t ptr, int *device)
{
    unsigned int type = 0;
    int ordinal = -1;
    CUpointer_attribute attributes[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *data[2] = {&type, &ordinal};
    CUresult r = GA__CU.PointerGetAttributes(2, attributes, data, (CUdeviceptr)ptr);
    if (r != CUDA_SUCCESS) return ga__cuda_error(func, r, "cuPointerGetAttributes");
    if (type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_HOST && type != CU_MEMORYTYPE_UNIFIED)
        return ga__error(GA_ERROR_VALUE, func, "0x%llx is not memory the CUDA driver knows (pageable host memory?)",
                         (unsigned long long)ptr);
    *device = type == CU_MEMORYTYPE_HOST ? -1 : ordinal;
    return GA_OK;
}

GPUARR_API ga_array *ga_from_device_ptr(void *ptr, ga_dtype dtype, int ndim, const int64_t *shape,
                                        const int64_t *strides, int device, void (*release)(void *user_data),
                                        void *user_data)
{
    static const char func[] = "ga_from_device_ptr";
    int64_t size = 0, c_strides[GA_MAXDIMS];
    if (!ga__dtype_valid(dtype)) {
        ga__error(GA_ERROR_TYPE, func, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (ndim > 0 && !shape) {
        ga__null_input(func, "shape");
        return NULL;
    }
    if (ga__check_shape(func, ndim, shape, (int64_t)ga__dtype_sizes[dtype], &size) != GA_OK) return NULL;
    if (size > 0 && !ptr) {
        ga__null_input(func, "ptr");
        return NULL;
    }
    if (ga__bind(func, device >= 0 ? device : ga__t.device) != GA_OK) return NULL;
    int owner = -1;
    if (size > 0 && ga__pointer_device(func, (uint64_t)(uintptr_t)ptr, &owner) != GA_OK) return NULL;
    if (device >= 0 && owner >= 0 && owner != device) {
        ga__error(GA_ERROR_DEVICE, func, "the memory is on device %d, not on device %d", owner, device);
        return NULL;
    }
    if (device < 0) device = owner >= 0 ? owner : ga__t.device;
    if (ga__bind(func, device) != GA_OK) return NULL;
    if (!strides) ga__c_strides(ndim, shape, (int64_t)ga__dtype_sizes[dtype], c_strides), strides = c_strides;
    return ga__ret(ga__array_external(func, device, (uint64_t)(uintptr_t)ptr, dtype, ndim, shape, strides, release,
                                      user_data));
}

/* >>abi */
/* ------------------------------------------------------------------------ */
/* 22. Kernel ABI: implemented by the kernels and the CUB glue              */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
}
#endif

#endif /* GPUARR_IMPLEMENTATION */
