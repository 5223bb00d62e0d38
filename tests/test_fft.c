/* Tests of the discrete Fourier transforms (gpuarr.h, >>fft): loading
   cuFFT (host tests: no GPU needed); on the GPU, every function of
   numpy.fft against a DFT computed on the host in long double, on fresh
   random data: lengths that are primes, powers of 2, 3, 5, 7 and odd
   products, every norm, float32/float64/complex64/complex128 and integer,
   bool, float16 and bfloat16 inputs (NumPy 2's result dtypes), n and s
   above and below the axis, every axis of 3-d arrays in contiguous,
   transposed, reversed (negative strides) and strided layouts, repeated
   and reordered axes, empty batches; round trips; the errors in NumPy's
   words; the plan cache's hits, eviction, limit and clear; one plan from
   two streams. */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include "host_array.h"
#include "cuda_library.h"
#include <errno.h>
#include <unistd.h> /* readlink */

#include <math.h>

static const ga_fft_norm norms[] = {GA_FFT_NORM_BACKWARD, GA_FFT_NORM_ORTHO, GA_FFT_NORM_FORWARD};
static const char *const norm_names[] = {"backward", "ortho", "forward"};

/* ---- loading cuFFT (host) ---------------------------------------------------- */

TEST(cufft_loading_errors_name_the_file)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    CHECK(ga_cuda_library_load("cufft") == GA_OK, "linked: %s", ga_last_error_message());
    return;
#endif
    char *saved = getenv("GPUARR_CUFFT_LIBRARY") ? strdup(getenv("GPUARR_CUFFT_LIBRARY")) : NULL;
    setenv("GPUARR_CUFFT_LIBRARY", "/nonexistent/libcufft.so.12", 1);
    ga_shutdown(); /* forgets an earlier load */
    CHECK_ERROR(ga_cuda_library_load("cufft") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: /nonexistent/libcufft.so.12 could not be loaded: ");
    ga_cuda_library_info info;
    CHECK(ga_cuda_library_get_info("cufft", &info) == GA_OK && info.state == -1 && !info.linked && info.handles == 0 &&
              strcmp(info.file, "/nonexistent/libcufft.so.12") == 0,
          "the failed library's info: state %d, file %s", info.state, info.file);
    ga_shutdown();
    CHECK(ga_cuda_library_get_info("cufft", &info) == GA_OK && info.state == 0, "after shutdown: state %d", info.state);
    bool listed = false;
    for (int i = 0; ga_cuda_library_name(i); i++) listed = listed || strcmp(ga_cuda_library_name(i), "cufft") == 0;
    CHECK(listed && !ga_cuda_library_name(-1), "cufft among ga_cuda_library_name's");
    CHECK_ERROR(ga_cuda_library_get_info("cuda", &info) != GA_OK, GA_ERROR_VALUE,
                "ga_cuda_library_get_info: 'cuda' is not a CUDA library gpuarr uses");
    CHECK_ERROR(ga_cuda_library_get_info("cufft", NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_cuda_library_get_info: info is NULL");
    setenv("GPUARR_CUFFT_LIBRARY", "libm.so.6", 1);
    CHECK_ERROR(ga_cuda_library_load("cufft") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: libm.so.6 has no cufftCreate");
    ga_shutdown();
    if (saved) setenv("GPUARR_CUFFT_LIBRARY", saved, 1);
    else unsetenv("GPUARR_CUFFT_LIBRARY");
    free(saved);
}

TEST(cufft_loads_every_entry_point)
{
    check_every_entry_point("cufft", "GPUARR_CUFFT_LIBRARY", "libcufft.so.12", ga__cufft_entry_points, &ga__cufft);
}

/* ---- host arrays and the reference DFT -------------------------------------- */

enum { K_C2C, K_R2C, K_C2R };

/* exp(sign 2 pi i jk / n) */
static void twiddle(int64_t jk, int64_t n, int sign, long double *c, long double *s)
{
    const long double pi = 3.141592653589793238462643383279502884L;
    long double a = 2 * pi * (long double)(jk % n) / (long double)n;
    *c = cosl(a);
    *s = sign * sinl(a);
}

/* One 1-d DFT of x along `axis` as NumPy defines it: the axis zero-padded
   or cut to n (c2r: to n / 2 + 1) first; c2c in direction `sign`, r2c
   forward (n / 2 + 1 outputs), c2r inverse (n real outputs, the spectrum
   completed by Hermitian symmetry, imaginary parts of the ends ignored).
   Unscaled. */
static host ref_step(const host *x, int axis, int64_t n, int kind, int sign)
{
    host y;
    int64_t shape[8];
    memcpy(shape, x->shape, sizeof shape);
    const int64_t m = x->shape[axis], need = kind == K_C2R ? n / 2 + 1 : n;
    shape[axis] = kind == K_R2C ? n / 2 + 1 : n;
    y = host_new(x->ndim, shape);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape[d];
    for (int d = axis + 1; d < x->ndim; d++) inner *= x->shape[d];
    long double *sr = calloc((size_t)n, sizeof(long double)), *si = calloc((size_t)n, sizeof(long double));
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            for (int64_t j = 0; j < n; j++) sr[j] = si[j] = 0;
            for (int64_t j = 0; j < need && j < m; j++) {
                sr[j] = x->re[(o * m + j) * inner + i];
                si[j] = kind == K_R2C ? 0 : x->im[(o * m + j) * inner + i];
            }
            if (kind == K_C2R) { /* the full spectrum from its first half */
                si[0] = 0;
                if (n % 2 == 0) si[n / 2] = 0;
                for (int64_t k = n / 2 + 1; k < n; k++) sr[k] = sr[n - k], si[k] = -si[n - k];
            }
            const int64_t outs = shape[axis];
            for (int64_t k = 0; k < outs; k++) {
                long double re = 0, im = 0;
                for (int64_t j = 0; j < n; j++) {
                    long double c, s;
                    twiddle(j * k, n, kind == K_C2C ? sign : kind == K_R2C ? -1 : 1, &c, &s);
                    re += sr[j] * c - si[j] * s;
                    im += sr[j] * s + si[j] * c;
                }
                y.re[(o * outs + k) * inner + i] = re;
                y.im[(o * outs + k) * inner + i] = kind == K_C2R ? 0 : im;
            }
        }
    free(sr);
    free(si);
    return y;
}

/* x replaced by its step (x freed). */
static void ref_apply(host *x, int axis, int64_t n, int kind, int sign)
{
    host y = ref_step(x, axis, n, kind, sign);
    host_free(x);
    *x = y;
}

static void ref_scale(host *x, long double f, bool conj)
{
    for (int64_t i = 0; i < x->size; i++) {
        x->re[i] *= f;
        x->im[i] *= conj ? -f : f;
    }
}

/* The factor of `norm` for `points` points in direction sign. */
static long double norm_factor(ga_fft_norm norm, long double points, int sign)
{
    if (norm == GA_FFT_NORM_ORTHO) return 1 / sqrtl(points);
    if ((norm == GA_FFT_NORM_BACKWARD) == (sign > 0)) return 1 / points;
    return 1;
}

static ga_fft_norm swapped(ga_fft_norm norm)
{
    return norm == GA_FFT_NORM_BACKWARD ? GA_FFT_NORM_FORWARD : norm == GA_FFT_NORM_FORWARD ? GA_FFT_NORM_BACKWARD : norm;
}

/* The working dtypes of NumPy 2. */
static bool single_of(ga_dtype t) { return t == GA_FLOAT16 || t == GA_BFLOAT16 || t == GA_FLOAT32 || t == GA_COMPLEX64; }
static ga_dtype complex_of(ga_dtype t) { return single_of(t) ? GA_COMPLEX64 : GA_COMPLEX128; }
static ga_dtype real_of(ga_dtype t) { return single_of(t) ? GA_FLOAT32 : GA_FLOAT64; }
/* The dtype of a c2r result (irfft, hfft): float16 stays float16, as in NumPy 2. */
static ga_dtype c2r_of(ga_dtype t) { return t == GA_FLOAT16 ? GA_FLOAT16 : real_of(t); }

/* Compares r (device) with the reference: dtype, shape, every element
   within tol; `what` names the case. */
static void check_result(ga_array *r, const host *ref, ga_dtype dtype, long double tol, const char *what)
{
    if (!r) {
        CHECK(false, "%s: failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    CHECK(ga_dtype_of(r) == dtype, "%s: dtype %s, expected %s", what, dname(ga_dtype_of(r)), dname(dtype));
    bool shape_ok = ga_ndim(r) == ref->ndim;
    for (int d = 0; shape_ok && d < ref->ndim; d++) shape_ok = ga_shape(r)[d] == ref->shape[d];
    CHECK(shape_ok, "%s: wrong shape", what);
    if (!shape_ok || ga_dtype_of(r) != dtype) return;
    unsigned char *m = malloc(ga_nbytes(r) ? ga_nbytes(r) : 1);
    if (download(r, m)) {
        long double worst = 0, got_re = 0, got_im = 0;
        int64_t at = -1;
        for (int64_t i = 0; i < ref->size; i++) {
            elem e = load(dtype, m + (size_t)i * isz(dtype));
            long double re = value_of(dtype, e), im = is_complex(dtype) ? (long double)e.im : 0;
            long double err = fabsl(re - ref->re[i]) + fabsl(im - (is_complex(dtype) ? ref->im[i] : 0));
            if (!(err <= worst)) worst = err, at = i, got_re = re, got_im = im;
        }
        CHECK(worst <= tol, "%s: element %lld off by %Lg (tolerance %Lg): got (%Lg, %Lg), expected (%Lg, %Lg)", what,
              (long long)at, worst, tol, got_re, got_im, at >= 0 ? ref->re[at] : 0.0L, at >= 0 ? ref->im[at] : 0.0L);
    }
    free(m);
}

/* The tolerance for a result of `points` points per output from inputs of
   magnitude up to `mag`, scaled by f, in working dtype t. */
static long double tolerance(ga_dtype t, long double points, long double mag, long double f)
{
    long double eps = single_of(t) ? 1.1920929e-7L : 2.220446049250313e-16L;
    return 16 * eps * (4 + log2l(points + 1)) * points * mag * f + 1e-30L;
}

/* The same for a result of dtype dt: a float16 result adds its rounding
   (half an ulp of the largest possible value). */
static long double result_tolerance(ga_dtype t, ga_dtype dt, long double points, long double mag, long double f)
{
    return tolerance(t, points, mag, f) + (dt == GA_FLOAT16 ? ldexpl(points * mag * f, -11) : 0);
}

/* The largest magnitude of the random inputs of dtype t. */
static long double mag_of(ga_dtype t) { return is_exact(t) ? 8 : 2; }

/* The tolerance of a round trip over n points (errors of a few ulps times
   log n, relative to the inputs' root mean square). */
static long double round_trip_tolerance(ga_dtype t, long double n)
{
    long double eps = single_of(t) ? 1.1920929e-7L : 2.220446049250313e-16L;
    return 16 * eps * (4 + log2l(n + 1)) * sqrtl(n) * 2;
}

/* ---- the 1-d functions -------------------------------------------------------- */

enum { F_FFT, F_IFFT, F_RFFT, F_IRFFT, F_HFFT, F_IHFFT, NUM_1D };
static const char *const names_1d[] = {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"};

static ga_array *call_1d(int f, const ga_array *a, int64_t n, int axis, ga_fft_norm norm)
{
    switch (f) {
    case F_FFT: return ga_fft_fft(a, n, axis, norm);
    case F_IFFT: return ga_fft_ifft(a, n, axis, norm);
    case F_RFFT: return ga_fft_rfft(a, n, axis, norm);
    case F_IRFFT: return ga_fft_irfft(a, n, axis, norm);
    case F_HFFT: return ga_fft_hfft(a, n, axis, norm);
    default: return ga_fft_ihfft(a, n, axis, norm);
    }
}

/* NumPy's result of function f on x (dtype t) along `axis` with n
   (GA_NONE: the default), its dtype in *dt and points in *points. */
static host ref_1d(int f, const host *x, ga_dtype t, int64_t n, int axis, ga_fft_norm norm, ga_dtype *dt,
                   long double *points, long double *factor)
{
    const bool c2r = f == F_IRFFT || f == F_HFFT;
    if (n == GA_NONE) n = c2r ? (x->shape[axis] - 1) * 2 : x->shape[axis];
    host y = host_new(x->ndim, x->shape);
    memcpy(y.re, x->re, sizeof(long double) * (size_t)x->size);
    memcpy(y.im, x->im, sizeof(long double) * (size_t)x->size);
    int kind = f == F_FFT || f == F_IFFT ? K_C2C : c2r ? K_C2R : K_R2C;
    int sign = f == F_IFFT || c2r ? 1 : -1;
    if (f == F_HFFT) ref_scale(&y, 1, true);
    ref_apply(&y, axis, n, kind, sign);
    ga_fft_norm nn = f == F_HFFT || f == F_IHFFT ? swapped(norm) : norm;
    *factor = norm_factor(nn, (long double)n, sign);
    ref_scale(&y, *factor, f == F_IHFFT);
    *dt = c2r ? c2r_of(t) : complex_of(t);
    *points = (long double)n;
    return y;
}

/* Function f on a random (dtype t, shape, layout) along every axis with
   each n in ns (GA_NONE included) and every norm. */
static void check_1d(int f, ga_dtype t, int ndim, const int64_t *shape, int layout, int nn, const int64_t *ns)
{
    host x = host_random(t, ndim, shape);
    ga_array *a = upload(&x, t, layout);
    CHECK(a != NULL, "upload: %s", ga_last_error_message());
    for (int axis = -ndim; a && axis < ndim; axis++)
        for (int k = 0; k < nn; k++)
            for (int q = 0; q < 3; q++) {
                const int ax = axis < 0 ? axis + ndim : axis;
                int64_t n = ns[k];
                if (n == GA_NONE && (f == F_IRFFT || f == F_HFFT) && shape[ax] < 2) continue;
                ga_dtype dt;
                long double points, factor;
                host ref = ref_1d(f, &x, t, n, ax, norms[q], &dt, &points, &factor);
                char what[200];
                snprintf(what, sizeof what, "%s of %s %s, axis %d, n %lld, norm %s", names_1d[f], dname(t),
                         layout_names[layout], axis, n == GA_NONE ? -1LL : (long long)n, norm_names[q]);
                poison_next((size_t)ref.size * isz(dt));
                ga_array *r = call_1d(f, a, n, axis, norms[q]);
                check_result(r, &ref, dt, result_tolerance(t, dt, points, mag_of(t), factor), what);
                ga_release(r);
                host_free(&ref);
            }
    ga_release(a);
    host_free(&x);
}

/* Lengths: primes, powers of 2, 3, 5, 7, odd products. */
static const int64_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 15, 16, 17, 21, 25, 27, 31, 32, 35, 45, 49, 64, 97, 105, 125, 128, 243, 256};
#define NUM_LENGTHS (int)(sizeof lengths / sizeof lengths[0])

DEVICE_TEST(fft_1d_lengths_every_norm)
{
    static const ga_dtype types[] = {GA_COMPLEX128, GA_COMPLEX64, GA_FLOAT64, GA_FLOAT32};
    for (int i = 0; i < NUM_LENGTHS; i++)
        for (int ti = 0; ti < 4; ti++) {
            int64_t shape[1] = {lengths[i]}, none = GA_NONE;
            check_1d(F_FFT, types[ti], 1, shape, L_CONTIGUOUS, 1, &none);
            check_1d(F_IFFT, types[ti], 1, shape, L_CONTIGUOUS, 1, &none);
            if (ti >= 2) check_1d(F_RFFT, types[ti], 1, shape, L_CONTIGUOUS, 1, &none);
            if (ti >= 2) check_1d(F_IHFFT, types[ti], 1, shape, L_CONTIGUOUS, 1, &none);
            /* the c2r ones, with an odd and an even output length */
            int64_t ns[2] = {2 * lengths[i] - 1, 2 * lengths[i] - 2 > 0 ? 2 * lengths[i] - 2 : 1};
            check_1d(F_IRFFT, types[ti], 1, shape, L_CONTIGUOUS, 2, ns);
            check_1d(F_HFFT, types[ti], 1, shape, L_CONTIGUOUS, 2, ns);
        }
}

/* Every function along every axis of 3-d arrays in every layout, n the
   axis, shorter and longer. */
DEVICE_TEST(fft_1d_every_axis_layout_and_n)
{
    static const int64_t shape[3] = {3, 5, 4};
    static const int64_t ns[] = {GA_NONE, 2, 7, 8};
    for (int f = 0; f < NUM_1D; f++)
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            ga_dtype t = f == F_RFFT || f == F_IHFFT ? GA_FLOAT64 : GA_COMPLEX128;
            check_1d(f, t, 3, shape, layout, 4, ns);
            check_1d(f, f == F_RFFT || f == F_IHFFT ? GA_FLOAT32 : GA_COMPLEX64, 3, shape, layout, 2, ns);
        }
}

/* Batches larger on either side of the axis (the batch and the loop of
   executions swap) and a 4-d array. */
DEVICE_TEST(fft_1d_batches)
{
    static const int64_t wide[3] = {2, 6, 33}, tall[3] = {33, 6, 2}, four[4] = {2, 3, 5, 7};
    static const int64_t ns[] = {GA_NONE, 9};
    for (int f = 0; f < NUM_1D; f++) {
        ga_dtype t = f == F_RFFT || f == F_IHFFT ? GA_FLOAT32 : GA_COMPLEX64;
        check_1d(f, t, 3, wide, L_CONTIGUOUS, 2, ns);
        check_1d(f, t, 3, tall, L_REVERSED, 2, ns);
        check_1d(f, t, 4, four, L_TRANSPOSED, 1, ns);
    }
}

/* Integer, bool, float16 and bfloat16 inputs: double for integers and
   bool, single for the 16-bit floats (NumPy 2). */
DEVICE_TEST(fft_1d_input_dtypes)
{
    static const ga_dtype types[] = {GA_BOOL, GA_INT8, GA_INT32, GA_INT64, GA_UINT8, GA_UINT64,
                                     GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
    static const int64_t shape[2] = {3, 10}, ns[] = {GA_NONE, 6};
    for (int ti = 0; ti < (int)(sizeof types / sizeof types[0]); ti++)
        for (int f = 0; f < NUM_1D; f++) {
            if ((f == F_RFFT || f == F_IHFFT) && is_complex(types[ti])) continue;
            check_1d(f, types[ti], 2, shape, ti % 2 ? L_STRIDED : L_CONTIGUOUS, 2, ns);
        }
}

/* ---- the n-d functions ------------------------------------------------------- */

enum { N_FFTN, N_IFFTN, N_RFFTN, N_IRFFTN, N_FFT2, N_IFFT2, N_RFFT2, N_IRFFT2, NUM_ND };
static const char *const names_nd[] = {"fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"};

static ga_array *call_nd(int f, const ga_array *a, int ns, const int64_t *s, int naxes, const int *axes, ga_fft_norm norm)
{
    switch (f) {
    case N_FFTN: return ga_fft_fftn(a, ns, s, naxes, axes, norm);
    case N_IFFTN: return ga_fft_ifftn(a, ns, s, naxes, axes, norm);
    case N_RFFTN: return ga_fft_rfftn(a, ns, s, naxes, axes, norm);
    case N_IRFFTN: return ga_fft_irfftn(a, ns, s, naxes, axes, norm);
    case N_FFT2: return ga_fft_fft2(a, ns, s, naxes, axes, norm);
    case N_IFFT2: return ga_fft_ifft2(a, ns, s, naxes, axes, norm);
    case N_RFFT2: return ga_fft_rfft2(a, ns, s, naxes, axes, norm);
    default: return ga_fft_irfft2(a, ns, s, naxes, axes, norm);
    }
}

/* NumPy's n-d result on the host: _cook_nd_args, then the 1-d steps in
   NumPy's order. */
static host ref_nd(int f, const host *x, ga_dtype t, int ns, const int64_t *s, int naxes, const int *axes,
                   ga_fft_norm norm, ga_dtype *dt, long double *points, long double *factor)
{
    const int base = f % 4;
    const bool two = f >= N_FFT2, c2r = base == N_IRFFTN;
    int count = axes ? naxes : two ? 2 : s ? ns : x->ndim, ax[16];
    int64_t len[16];
    for (int i = 0; i < count; i++) {
        ax[i] = axes ? axes[i] : i - count;
        if (ax[i] < 0) ax[i] += x->ndim;
    }
    for (int i = 0; i < count; i++) {
        len[i] = s && s[i] != -1 ? s[i] : x->shape[ax[i]];
        if (!s && c2r && i == count - 1) len[i] = (x->shape[ax[i]] - 1) * 2;
    }
    host y = host_new(x->ndim, x->shape);
    memcpy(y.re, x->re, sizeof(long double) * (size_t)x->size);
    memcpy(y.im, x->im, sizeof(long double) * (size_t)x->size);
    const int sign = base == N_IFFTN || c2r ? 1 : -1;
    *points = 1;
    if (c2r) {
        for (int i = 0; i < count - 1; i++) ref_apply(&y, ax[i], len[i], K_C2C, 1);
        ref_apply(&y, ax[count - 1], len[count - 1], K_C2R, 1);
    } else {
        for (int i = count - 1; i >= 0; i--)
            ref_apply(&y, ax[i], len[i], base == N_RFFTN && i == count - 1 ? K_R2C : K_C2C, sign);
    }
    for (int i = 0; i < count; i++) *points *= (long double)len[i];
    *factor = norm_factor(norm, *points, sign);
    ref_scale(&y, *factor, false);
    /* float16 stays float16 through one inverse real transform, not after complex steps (NumPy 2) */
    *dt = c2r ? (count == 1 ? c2r_of(t) : real_of(t)) : complex_of(t);
    return y;
}

typedef struct nd_case {
    int ns;
    int64_t s[4]; /* ns of them, or none (ns -1: s NULL) */
    int naxes;
    int axes[4];  /* naxes of them (naxes -1: axes NULL) */
} nd_case;

static void check_nd(int f, ga_dtype t, int ndim, const int64_t *shape, int layout, const nd_case *c)
{
    host x = host_random(t, ndim, shape);
    ga_array *a = upload(&x, t, layout);
    CHECK(a != NULL, "upload: %s", ga_last_error_message());
    const int64_t *s = c->ns >= 0 ? c->s : NULL;
    const int *axes = c->naxes >= 0 ? c->axes : NULL;
    for (int q = 0; a && q < 3; q++) {
        ga_dtype dt;
        long double points, factor;
        host ref = ref_nd(f, &x, t, c->ns, s, c->naxes, axes, norms[q], &dt, &points, &factor);
        char what[256];
        int len = snprintf(what, sizeof what, "%s of %s %s, norm %s, s", names_nd[f], dname(t), layout_names[layout],
                           norm_names[q]);
        for (int i = 0; s && i < c->ns; i++) len += snprintf(what + len, sizeof what - (size_t)len, " %lld", (long long)s[i]);
        len += snprintf(what + len, sizeof what - (size_t)len, "%s, axes", s ? "" : " None");
        for (int i = 0; axes && i < c->naxes; i++) len += snprintf(what + len, sizeof what - (size_t)len, " %d", axes[i]);
        if (!axes) snprintf(what + len, sizeof what - (size_t)len, " None");
        poison_next((size_t)ref.size * isz(dt));
        ga_array *r = call_nd(f, a, c->ns, s, c->naxes, axes, norms[q]);
        check_result(r, &ref, dt, result_tolerance(t, dt, points, mag_of(t), factor), what);
        ga_release(r);
        host_free(&ref);
    }
    ga_release(a);
    host_free(&x);
}

DEVICE_TEST(fft_nd_axes_s_and_orders)
{
    static const int64_t shape[3] = {4, 5, 6};
    static const nd_case cases[] = {
        {-1, {0}, -1, {0}},                 /* every axis */
        {-1, {0}, 2, {0, 2}},               /* two axes, s their lengths */
        {-1, {0}, 2, {2, 0}},               /* reordered */
        {-1, {0}, 2, {-1, -3}},             /* negative */
        {2, {3, 8}, -1, {0}},               /* s, the last two axes */
        {2, {7, -1}, 2, {0, 1}},            /* -1: the axis's length */
        {3, {2, 9, 5}, 3, {1, 2, 0}},       /* cut and padded */
        {2, {3, 8}, 2, {1, 1}},             /* a repeated axis, two lengths */
        {-1, {0}, 1, {1}},                  /* one axis */
    };
    for (int f = 0; f < 4; f++)
        for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
            ga_dtype t = f == N_RFFTN ? GA_FLOAT64 : GA_COMPLEX128;
            check_nd(f, t, 3, shape, i % NUM_LAYOUTS, &cases[i]);
            check_nd(f, f == N_RFFTN ? GA_FLOAT32 : GA_COMPLEX64, 3, shape, (i + 1) % NUM_LAYOUTS, &cases[i]);
        }
}

DEVICE_TEST(fft_2d_forms_default_axes)
{
    static const int64_t shape[3] = {3, 7, 6};
    static const nd_case cases[] = {
        {-1, {0}, -1, {0}},       /* axes (-2, -1) */
        {2, {5, 10}, -1, {0}},    /* s for the last two */
        {-1, {0}, 2, {0, 2}},     /* other axes */
    };
    for (int f = N_FFT2; f < NUM_ND; f++)
        for (int i = 0; i < 3; i++) {
            check_nd(f, f == N_RFFT2 ? GA_INT32 : GA_COMPLEX128, 3, shape, i, &cases[i]);
            check_nd(f, f == N_RFFT2 ? GA_FLOAT16 : GA_COMPLEX64, 3, shape, L_REVERSED, &cases[i]);
        }
}

/* fftn with no axes returns a copy of a, as NumPy returns a. */
DEVICE_TEST(fft_nd_no_axes_is_a_copy)
{
    int64_t shape[2] = {2, 3};
    host x = host_random(GA_FLOAT64, 2, shape);
    ga_array *a = upload(&x, GA_FLOAT64, L_CONTIGUOUS);
    ga_array *r = ga_fft_fftn(a, 0, NULL, 0, (const int[]){0}, GA_FFT_NORM_BACKWARD);
    CHECK(r && r != a && same_array(r, a), "fftn over no axes: %s", ga_last_error_message());
    ga_release(r);
    ga_release(a);
    host_free(&x);
}

/* ---- several axes: one plan of rank 2 or 3 ----------------------------------------- */

/* check_nd on a fresh plan cache, then the plans it made: `plans` (one
   per run of adjacent axes, one per other axis; the three norms share
   them). */
static void check_nd_plans(int f, ga_dtype t, int ndim, const int64_t *shape, int layout, const nd_case *c, int plans)
{
    CHECK_OK(ga_fft_plan_cache_clear());
    check_nd(f, t, ndim, shape, layout, c);
    ga_fft_plan_cache_info i;
    CHECK_OK(ga_fft_plan_cache_get_info(&i));
    CHECK(i.misses == (uint64_t)plans && i.size == plans, "%s of %s %s (case with %d axes): %llu plans made, %d cached, expected %d",
          names_nd[f], dname(t), layout_names[layout], c->naxes, (unsigned long long)i.misses, i.size, plans);
}

/* Runs of adjacent axes (the trailing ones, or inside the array with
   dims after them) go through one cuFFT plan each, against the host's
   axis-by-axis DFT in NumPy's order; the other cases keep one plan per
   axis. */
DEVICE_TEST(fft_nd_adjacent_axes_one_plan)
{
    static const nd_case every = {-1, {0}, -1, {0}}, first_two = {-1, {0}, 2, {0, 1}}, last_two = {-1, {0}, 2, {1, 2}},
                         apart = {-1, {0}, 2, {0, 2}}, cut_pad = {2, {3, 8}, 2, {1, 2}}, twice = {-1, {0}, 2, {2, 2}},
                         swapped_two = {-1, {0}, 2, {2, 1}}, last_three = {-1, {0}, 3, {1, 2, 3}},
                         first_two_inside = {-1, {0}, 2, {1, 2}};
    static const int64_t s3[3] = {4, 5, 6}, wide[3] = {3, 4, 50}, tall[3] = {40, 3, 4}, s4[4] = {2, 3, 4, 5},
                         odd[3] = {3, 97, 31}, mid[4] = {10, 3, 4, 2};
    for (int single = 0; single < 2; single++) {
        const ga_dtype c = single ? GA_COMPLEX64 : GA_COMPLEX128, r = single ? GA_FLOAT32 : GA_FLOAT64;
        for (int layout = 0; layout < NUM_LAYOUTS; layout++) {
            check_nd_plans(N_FFTN, c, 3, s3, layout, &every, 1);          /* rank 3, no batch */
            check_nd_plans(N_IFFTN, c, 3, s3, layout, &every, 1);
            check_nd_plans(N_FFT2, c, 3, s3, layout, &every, 1);          /* rank 2, batched before */
            check_nd_plans(N_FFTN, c, 3, wide, layout, &first_two, 1);    /* rank 2 over dims with 50 after */
            check_nd_plans(N_IFFTN, c, 3, tall, layout, &last_two, 1);    /* a batch of 40 before */
            check_nd_plans(N_FFTN, c, 3, tall, layout, &first_two, 1);    /* 4 after, 1 before */
            check_nd_plans(N_FFTN, c, 4, mid, layout, &first_two_inside, 1); /* 10 before, 2 after */
            check_nd_plans(N_FFTN, c, 3, s3, layout, &swapped_two, 1);    /* the order of the axes given */
            check_nd_plans(N_FFTN, c, 4, s4, layout, &every, 2);          /* the last three, then the first */
            check_nd_plans(N_IFFTN, c, 4, s4, layout, &last_three, 1);
            check_nd_plans(N_FFTN, c, 3, s3, layout, &cut_pad, 1);        /* s cuts one axis and pads the other */
            check_nd_plans(N_FFTN, c, 3, s3, layout, &apart, 2);          /* not adjacent: one plan each */
            check_nd_plans(N_FFTN, c, 3, s3, layout, &twice, 1);          /* a repeated axis: twice the same plan */
            check_nd_plans(N_RFFTN, r, 3, s3, layout, &every, 1);         /* r2c of rank 3 */
            check_nd_plans(N_RFFT2, r, 3, s3, layout, &every, 1);         /* r2c of rank 2, batched */
            check_nd_plans(N_RFFTN, r, 3, s3, layout, &cut_pad, 1);       /* the real axis padded to 8 */
            check_nd_plans(N_RFFTN, r, 3, s3, layout, &apart, 2);
            check_nd_plans(N_RFFTN, r, 3, wide, layout, &first_two, 2);   /* the real axis is not the last dim */
            check_nd_plans(N_IRFFTN, c, 3, s3, layout, &every, 2);        /* a c2c of rank 2 (dims after it), then c2r */
            check_nd_plans(N_IRFFT2, c, 3, s3, layout, &every, 2);        /* c2r stays 1-d */
        }
        check_nd_plans(N_FFT2, c, 3, odd, L_CONTIGUOUS, &every, 1);      /* prime lengths */
        check_nd_plans(N_RFFT2, r, 3, odd, L_STRIDED, &every, 1);
    }
    CHECK_OK(ga_fft_plan_cache_clear());
}

/* ---- out= ----------------------------------------------------------------------- */

enum { O_CONTIGUOUS, O_STRIDED, O_TRANSPOSED, O_REVERSED, O_MISALIGNED, NUM_OUT_LAYOUTS };
static const char *const out_layout_names[] = {"contiguous", "strided", "transposed", "reversed", "misaligned"};

/* An out= array of `shape` and `dtype` in `layout`, full of NaN (or 77):
   C-contiguous; every other element of a last dim twice as long (*base:
   the whole, to see that the others stay); F-contiguous; every stride
   negative; C-contiguous one element past the pool's alignment. */
static ga_array *make_out(int layout, ga_dtype dtype, int ndim, const int64_t *shape, ga_array **base)
{
    const ga_scalar fill = ga_dtype_kind(dtype) == 'f' || ga_dtype_kind(dtype) == 'c' ? ga_float(NAN) : ga_int(77);
    int64_t s[8], size = 1;
    for (int d = 0; d < ndim; d++) s[d] = shape[d], size *= shape[d];
    ga_array *b = NULL, *v = NULL;
    if (layout == O_STRIDED) {
        s[ndim - 1] *= 2;
        b = ga_full(ndim, s, fill, dtype);
        v = b ? ga_index(b, "..., ::2") : NULL;
    } else if (layout == O_TRANSPOSED) {
        for (int d = 0; d < ndim; d++) s[d] = shape[ndim - 1 - d];
        b = ga_full(ndim, s, fill, dtype);
        v = b ? ga_transpose(b, NULL) : NULL;
    } else if (layout == O_REVERSED) {
        b = ga_full(ndim, s, fill, dtype);
        v = b ? ga_flip(b, 0, NULL) : NULL;
    } else if (layout == O_MISALIGNED) {
        int64_t n = size + 1;
        b = ga_full(1, &n, fill, dtype);
        ga_array *tail = b ? ga_index(b, "1:") : NULL;
        v = tail ? ga_reshape(tail, ndim, shape) : NULL;
        ga_release(tail);
    } else {
        v = ga_full(ndim, s, fill, dtype);
    }
    if (base) *base = b;
    else ga_release(b);
    return v;
}

/* got and want hold the same values within tol of want's largest
   magnitude (both read as complex128). */
static void check_close(const ga_array *got, const ga_array *want, double tol, const char *what)
{
    if (!got || !want) {
        CHECK(false, "%s: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    bool shape_ok = ga_ndim(got) == ga_ndim(want);
    for (int d = 0; shape_ok && d < ga_ndim(got); d++) shape_ok = ga_shape(got)[d] == ga_shape(want)[d];
    CHECK(shape_ok, "%s: wrong shape", what);
    if (!shape_ok) return;
    const int64_t n = ga_size(got);
    ga_array *g = ga_astype(got, GA_COMPLEX128), *w = ga_astype(want, GA_COMPLEX128);
    double *hg = malloc((size_t)(n ? 2 * n : 1) * sizeof(double)), *hw = malloc((size_t)(n ? 2 * n : 1) * sizeof(double));
    if (g && w && download(g, hg) && download(w, hw)) {
        double big = 1, worst = 0;
        int64_t at = 0;
        for (int64_t i = 0; i < 2 * n; i++) big = fmax(big, fabs(hw[i]));
        for (int64_t i = 0; i < 2 * n; i++) {
            double e = fabs(hg[i] - hw[i]);
            if (!(e <= worst)) worst = e, at = i;
        }
        CHECK(worst <= tol * big, "%s: element %lld (%s part) is %g, expected %g", what, (long long)(at / 2),
              at % 2 ? "imaginary" : "real", hg[at], hw[at]);
    }
    free(hg), free(hw);
    ga_release(g), ga_release(w);
}

/* Whether every element of the strided out's base that out does not
   cover (the odd ones of its last dim) is still NaN. */
static bool gaps_untouched(ga_array *base)
{
    ga_array *gaps = ga_index(base, "..., 1::2"), *nan = gaps ? ga_isnan(gaps) : NULL;
    ga_array *all = nan ? ga_all(nan, 0, NULL, false) : NULL;
    bool v = false;
    bool ok = all && ga_to_host(all, &v, sizeof v) == GA_OK && v;
    ga_release(gaps), ga_release(nan), ga_release(all);
    return ok;
}

static ga_status call_1d_out(int f, const ga_array *a, int64_t n, int axis, ga_fft_norm norm, ga_array *out)
{
    switch (f) {
    case F_FFT: return ga_fft_fft_out(a, n, axis, norm, out);
    case F_IFFT: return ga_fft_ifft_out(a, n, axis, norm, out);
    case F_RFFT: return ga_fft_rfft_out(a, n, axis, norm, out);
    case F_IRFFT: return ga_fft_irfft_out(a, n, axis, norm, out);
    case F_HFFT: return ga_fft_hfft_out(a, n, axis, norm, out);
    default: return ga_fft_ihfft_out(a, n, axis, norm, out);
    }
}

static ga_status call_nd_out(int f, const ga_array *a, int ns, const int64_t *s, int naxes, const int *axes,
                             ga_fft_norm norm, ga_array *out)
{
    switch (f) {
    case N_FFTN: return ga_fft_fftn_out(a, ns, s, naxes, axes, norm, out);
    case N_IFFTN: return ga_fft_ifftn_out(a, ns, s, naxes, axes, norm, out);
    case N_RFFTN: return ga_fft_rfftn_out(a, ns, s, naxes, axes, norm, out);
    case N_IRFFTN: return ga_fft_irfftn_out(a, ns, s, naxes, axes, norm, out);
    case N_FFT2: return ga_fft_fft2_out(a, ns, s, naxes, axes, norm, out);
    case N_IFFT2: return ga_fft_ifft2_out(a, ns, s, naxes, axes, norm, out);
    case N_RFFT2: return ga_fft_rfft2_out(a, ns, s, naxes, axes, norm, out);
    default: return ga_fft_irfft2_out(a, ns, s, naxes, axes, norm, out);
    }
}

/* The dtypes an out= of a result of dtype dt is tried in: dt, and one it
   casts to under same_kind (complex128 -> complex64, a real result into a
   complex out, float32 -> float16). */
static int out_dtypes(ga_dtype dt, ga_dtype *to)
{
    to[0] = dt;
    to[1] = dt == GA_COMPLEX128 ? GA_COMPLEX64 : dt == GA_COMPLEX64 ? GA_COMPLEX128 : dt == GA_FLOAT64 ? GA_COMPLEX128 : GA_FLOAT16;
    return 2;
}

/* The tolerance between an out= of dtype `to` and the new result: cast
   to a single-precision or float16 out, a rounding of it. */
static double out_tolerance(ga_dtype dt, ga_dtype to)
{
    if (to == GA_FLOAT16 || dt == GA_FLOAT16) return 2e-3;
    return to == GA_COMPLEX64 || to == GA_FLOAT32 || single_of(dt) ? 1e-6 : 1e-14;
}

/* Every 1-d function with out= in every out layout, the result's dtype
   and another, equal to the same call's new result (the same plan: cast
   to out's dtype where it differs); the strided out's gaps untouched. */
DEVICE_TEST(fft_out_1d_every_layout_and_dtype)
{
    static const int64_t shape[2] = {4, 9};
    static const int64_t ns[] = {GA_NONE, 12, 5};
    for (int f = 0; f < NUM_1D; f++)
        for (int single = 0; single < 2; single++)
            for (int in_layout = 0; in_layout < 2; in_layout++) {
                const bool real_in = f == F_RFFT || f == F_IHFFT;
                ga_dtype t = real_in ? (single ? GA_FLOAT32 : GA_FLOAT64) : (single ? GA_COMPLEX64 : GA_COMPLEX128);
                host x = host_random(t, 2, shape);
                ga_array *a = upload(&x, t, in_layout ? L_STRIDED : L_CONTIGUOUS);
                for (int axis = -1; axis <= 0; axis++)
                    for (int k = 0; k < 3; k++) {
                        const ga_fft_norm norm = norms[(f + k) % 3];
                        ga_array *r = call_1d(f, a, ns[k], axis, norm);
                        CHECK(r != NULL, "%s: %s", names_1d[f], ga_last_error_message());
                        if (!r) { ga_clear_error(); continue; }
                        ga_dtype to[2];
                        int nto = out_dtypes(ga_dtype_of(r), to);
                        for (int ti = 0; ti < nto; ti++)
                            for (int ol = 0; ol < NUM_OUT_LAYOUTS; ol++) {
                                char what[200];
                                snprintf(what, sizeof what, "%s_out of %s %s, axis %d, n %lld, into %s %s", names_1d[f],
                                         dname(t), in_layout ? "strided" : "contiguous", axis,
                                         ns[k] == GA_NONE ? -1LL : (long long)ns[k], dname(to[ti]), out_layout_names[ol]);
                                ga_array *base = NULL, *out = make_out(ol, to[ti], ga_ndim(r), ga_shape(r), &base);
                                ga_status st = out ? call_1d_out(f, a, ns[k], axis, norm, out) : ga_last_error();
                                CHECK(st == GA_OK, "%s: %s", what, ga_last_error_message());
                                if (st == GA_OK) check_close(out, r, out_tolerance(ga_dtype_of(r), to[ti]), what);
                                if (st == GA_OK && ol == O_STRIDED) CHECK(gaps_untouched(base), "%s: wrote between out's elements", what);
                                ga_clear_error();
                                ga_release(out), ga_release(base);
                            }
                        ga_release(r);
                    }
                ga_release(a);
                host_free(&x);
            }
}

/* The n-d forms with out= (adjacent axes, apart, s cutting and padding;
   float16 and int inputs), against their new results. */
DEVICE_TEST(fft_out_nd_every_layout)
{
    static const int64_t shape[3] = {3, 4, 6};
    static const nd_case cases[] = {{-1, {0}, -1, {0}}, {-1, {0}, 2, {0, 2}}, {2, {5, 4}, 2, {1, 2}}, {2, {2, 9}, -1, {0}}};
    static const ga_dtype types[] = {GA_COMPLEX128, GA_COMPLEX64, GA_FLOAT16, GA_INT32};
    for (int f = 0; f < NUM_ND; f++)
        for (int ti = 0; ti < 4; ti++) {
            const ga_dtype t = types[ti];
            const bool real_only = f % 4 == N_RFFTN;
            if (real_only && is_complex(t)) continue;
            host x = host_random(t, 3, shape);
            ga_array *a = upload(&x, t, ti % NUM_LAYOUTS);
            for (int ci = 0; ci < 4; ci++) {
                const nd_case *c = &cases[ci];
                const int64_t *s = c->ns >= 0 ? c->s : NULL;
                const int *axes = c->naxes >= 0 ? c->axes : NULL;
                const ga_fft_norm norm = norms[(f + ci) % 3];
                ga_array *r = call_nd(f, a, c->ns, s, c->naxes, axes, norm);
                CHECK(r != NULL, "%s case %d: %s", names_nd[f], ci, ga_last_error_message());
                if (!r) { ga_clear_error(); continue; }
                for (int ol = 0; ol < NUM_OUT_LAYOUTS; ol++) {
                    char what[160];
                    snprintf(what, sizeof what, "%s_out of %s, case %d, into %s", names_nd[f], dname(t), ci, out_layout_names[ol]);
                    ga_array *out = make_out(ol, ga_dtype_of(r), ga_ndim(r), ga_shape(r), NULL);
                    ga_status st = out ? call_nd_out(f, a, c->ns, s, c->naxes, axes, norm, out) : ga_last_error();
                    CHECK(st == GA_OK, "%s: %s", what, ga_last_error_message());
                    if (st == GA_OK) check_close(out, r, out_tolerance(ga_dtype_of(r), ga_dtype_of(r)), what);
                    ga_clear_error();
                    ga_release(out);
                }
                ga_release(r);
            }
            ga_release(a);
            host_free(&x);
        }
}

/* out= the input: in place (a c2c along either axis, n the axis's
   length; fftn and ifft2 over every axis; a view in place; the hermitian
   forms' conjugations), and out= overlapping the input otherwise (its
   reverse; shifted by two): the input read before out is written, as
   NumPy's. */
DEVICE_TEST(fft_out_in_place_and_overlapping)
{
    static const int64_t shape[2] = {5, 8};
    for (int single = 0; single < 2; single++) {
        const ga_dtype c = single ? GA_COMPLEX64 : GA_COMPLEX128;
        const double tol = single ? 1e-6 : 1e-14;
        host x = host_random(c, 2, shape);
        for (int layout = 0; layout < NUM_LAYOUTS; layout++)
            for (int op = 0; op < 5; op++) {
                ga_array *a = upload(&x, c, layout), *want = NULL;
                ga_status st = GA_ERROR_VALUE;
                const char *name = "";
                switch (op) {
                case 0: name = "fft axis -1", want = ga_fft_fft(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD), st = ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, a); break;
                case 1: name = "ifft axis 0", want = ga_fft_ifft(a, 5, 0, GA_FFT_NORM_ORTHO), st = ga_fft_ifft_out(a, 5, 0, GA_FFT_NORM_ORTHO, a); break;
                case 2: name = "fftn", want = ga_fft_fftn(a, -1, NULL, -1, NULL, GA_FFT_NORM_FORWARD), st = ga_fft_fftn_out(a, -1, NULL, -1, NULL, GA_FFT_NORM_FORWARD, a); break;
                case 3: name = "ifft2", want = ga_fft_ifft2(a, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD), st = ga_fft_ifft2_out(a, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD, a); break;
                default: name = "fftn over (0, 0)", want = ga_fft_fftn(a, -1, NULL, 2, (const int[]){0, 0}, GA_FFT_NORM_BACKWARD),
                         st = ga_fft_fftn_out(a, -1, NULL, 2, (const int[]){0, 0}, GA_FFT_NORM_BACKWARD, a); break;
                }
                char what[120];
                snprintf(what, sizeof what, "%s in place, %s %s", name, dname(c), layout_names[layout]);
                CHECK(st == GA_OK, "%s: %s", what, ga_last_error_message());
                if (st == GA_OK) check_close(a, want, tol, what);
                ga_clear_error();
                ga_release(a), ga_release(want);
            }
        /* a view of a bigger array in place: rows 1..3, every column */
        ga_array *whole = upload(&x, c, L_CONTIGUOUS), *rows = ga_index(whole, "1:4");
        ga_array *row0 = ga_index(whole, "0"), *before = ga_copy(row0);
        ga_array *want = ga_fft_fft(rows, GA_NONE, -1, GA_FFT_NORM_BACKWARD);
        CHECK_OK(ga_fft_fft_out(rows, GA_NONE, -1, GA_FFT_NORM_BACKWARD, rows));
        check_close(rows, want, tol, "fft in place in rows 1..3");
        CHECK(same_array(row0, before), "fft in place in rows 1..3 wrote row 0");
        ga_release(row0), ga_release(before), ga_release(want), ga_release(rows), ga_release(whole);
        /* out= the input reversed: read whole before written */
        ga_array *a = upload(&x, c, L_CONTIGUOUS), *rev = ga_flip(a, 0, NULL);
        want = ga_fft_fft(a, GA_NONE, 0, GA_FFT_NORM_BACKWARD);
        ga_array *want_rev = ga_flip(want, 0, NULL);
        CHECK_OK(ga_fft_fft_out(a, GA_NONE, 0, GA_FFT_NORM_BACKWARD, rev));
        check_close(a, want_rev, tol, "fft into its own reverse");
        ga_release(want_rev), ga_release(want), ga_release(rev), ga_release(a);
        /* out= the input shifted by two columns, n padded */
        a = upload(&x, c, L_CONTIGUOUS);
        ga_array *left = ga_index(a, ":, :6"), *right = ga_index(a, ":, 2:");
        want = ga_fft_fft(left, 6, -1, GA_FFT_NORM_ORTHO);
        CHECK_OK(ga_fft_fft_out(left, 6, -1, GA_FFT_NORM_ORTHO, right));
        check_close(right, want, tol, "fft into its input shifted by two");
        ga_release(want), ga_release(left), ga_release(right), ga_release(a);
        host_free(&x);
    }
}

/* out='s errors in NumPy's words; nothing written. */
DEVICE_TEST(fft_out_errors_in_numpy_words)
{
    int64_t shape[2] = {3, 4};
    ga_array *a = ga_ones(2, shape, GA_FLOAT64), *c = ga_ones(2, shape, GA_COMPLEX128);
    ga_array *wrong_axis = ga_full(2, (const int64_t[]){3, 5}, ga_int(7), GA_COMPLEX128);
    ga_array *wrong_ndim = ga_full(1, (const int64_t[]){4}, ga_int(7), GA_COMPLEX128);
    ga_array *wrong_other = ga_full(2, (const int64_t[]){2, 4}, ga_int(7), GA_COMPLEX128);
    ga_array *real_out = ga_full(2, shape, ga_int(7), GA_FLOAT64), *int_out = ga_full(2, (const int64_t[]){3, 3}, ga_int(7), GA_INT32);
    ga_array *int64_out = ga_full(2, (const int64_t[]){3, 6}, ga_int(7), GA_INT64);
    ga_array *seven = ga_full(2, shape, ga_int(7), GA_COMPLEX128), *read_only = ga_broadcast_to(seven, 2, shape);
    CHECK_ERROR(ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, wrong_axis) != GA_OK, GA_ERROR_VALUE,
                "ga_fft_fft_out: output array has wrong shape.");
    CHECK_ERROR(ga_fft_ifft_out(a, GA_NONE, 0, GA_FFT_NORM_BACKWARD, wrong_ndim) != GA_OK, GA_ERROR_VALUE,
                "ga_fft_ifft_out: output array has wrong shape.");
    CHECK_ERROR(ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, wrong_other) != GA_OK, GA_ERROR_SHAPE,
                "ga_fft_fft_out: non-broadcastable output operand with shape (2,4) doesn't match the broadcast shape (3,4)");
    CHECK_ERROR(ga_fft_fft_out(a, 5, -1, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_VALUE, "output array has wrong shape.");
    CHECK_ERROR(ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, real_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_fft_out: Cannot cast ufunc 'fft' output from dtype('complex128') to dtype('float64') with casting rule 'same_kind'");
    CHECK_ERROR(ga_fft_ifft_out(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD, real_out) != GA_OK, GA_ERROR_TYPE,
                "Cannot cast ufunc 'ifft' output from dtype('complex128') to dtype('float64')");
    CHECK_ERROR(ga_fft_rfft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, int_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_rfft_out: Cannot cast ufunc 'rfft_n_even' output from dtype('complex128') to dtype('int32') with casting rule 'same_kind'");
    CHECK_ERROR(ga_fft_ihfft_out(a, 5, -1, GA_FFT_NORM_BACKWARD, int_out) != GA_OK, GA_ERROR_TYPE, "Cannot cast ufunc 'rfft_n_odd' output");
    CHECK_ERROR(ga_fft_irfft_out(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD, int64_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_irfft_out: Cannot cast ufunc 'irfft' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'");
    /* a complex64 input: NumPy names its single loop for the inverse transforms, its double one for fft */
    ga_array *c64 = ga_ones(2, shape, GA_COMPLEX64), *f32_out = ga_full(2, shape, ga_int(7), GA_FLOAT32);
    CHECK_ERROR(ga_fft_ifft_out(c64, GA_NONE, -1, GA_FFT_NORM_BACKWARD, f32_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_ifft_out: Cannot cast ufunc 'ifft' output from dtype('complex64') to dtype('float32')");
    CHECK_ERROR(ga_fft_fft_out(c64, GA_NONE, -1, GA_FFT_NORM_BACKWARD, f32_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_fft_out: Cannot cast ufunc 'fft' output from dtype('complex128') to dtype('float32')");
    CHECK_ERROR(ga_fft_irfft_out(c64, GA_NONE, -1, GA_FFT_NORM_BACKWARD, int64_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_irfft_out: Cannot cast ufunc 'irfft' output from dtype('float32') to dtype('int64')");
    CHECK_ERROR(ga_fft_hfft_out(c64, GA_NONE, -1, GA_FFT_NORM_BACKWARD, int64_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_hfft_out: Cannot cast ufunc 'irfft' output from dtype('float32') to dtype('int64')");
    ga_release(c64);
    ga_release(f32_out);
    CHECK_ERROR(ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, read_only) != GA_OK, GA_ERROR_VALUE,
                "ga_fft_fft_out: output array is read-only");
    CHECK_ERROR(ga_fft_fft_out(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD, NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_fft_fft_out: out is NULL");
    CHECK_ERROR(ga_fft_fft_out(NULL, GA_NONE, -1, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_NULL_INPUT, "ga_fft_fft_out: a is NULL");
    CHECK_ERROR(ga_fft_fft_out(a, 0, -1, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_VALUE, "Invalid number of FFT data points (0)");
    CHECK_ERROR(ga_fft_rfft_out(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_TYPE, "ga_fft_rfft_out: ");
    /* the n-d forms: out of a's shape when s changes it; of the result's shape with another dtype */
    CHECK_ERROR(ga_fft_fft2_out(a, 2, (const int64_t[]){2, 4}, -1, NULL, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_VALUE,
                "ga_fft_fft2_out: output array has wrong shape.");
    CHECK_ERROR(ga_fft_rfftn_out(a, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD, seven) != GA_OK, GA_ERROR_VALUE,
                "ga_fft_rfftn_out: output array has wrong shape.");
    CHECK_ERROR(ga_fft_irfftn_out(c, 2, (const int64_t[]){3, 6}, 2, (const int[]){0, 1}, GA_FFT_NORM_BACKWARD, int64_out) != GA_OK,
                GA_ERROR_TYPE, "ga_fft_irfftn_out: Cannot cast ufunc 'irfft' output from dtype('float64') to dtype('int64')");
    CHECK_ERROR(ga_fft_ifftn_out(c, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD, real_out) != GA_OK, GA_ERROR_TYPE,
                "ga_fft_ifftn_out: Cannot cast ufunc 'ifft' output from dtype('complex128') to dtype('float64')");
    /* nothing written */
    ga_array *sevens = ga_full(2, shape, ga_int(7), GA_COMPLEX128);
    CHECK(same_array(seven, sevens), "a failed out= call wrote its out");
    ga_array *r7 = ga_full(2, shape, ga_int(7), GA_FLOAT64);
    CHECK(same_array(real_out, r7), "a failed out= call wrote its out (float64)");
    ga_release(r7), ga_release(sevens);
    ga_release(a), ga_release(c), ga_release(wrong_axis), ga_release(wrong_ndim), ga_release(wrong_other);
    ga_release(real_out), ga_release(int_out), ga_release(int64_out), ga_release(seven), ga_release(read_only);
}

/* ---- round trips and empty batches --------------------------------------------- */

static long double max_diff(const ga_array *r, const host *x)
{
    ga_dtype t = ga_dtype_of(r);
    unsigned char *m = malloc(ga_nbytes(r) ? ga_nbytes(r) : 1);
    long double worst = 0;
    if (download(r, m))
        for (int64_t i = 0; i < x->size; i++) {
            elem e = load(t, m + (size_t)i * isz(t));
            long double d = fabsl(value_of(t, e) - x->re[i]) + (is_complex(t) ? fabsl((long double)e.im - x->im[i]) : 0);
            if (!(d <= worst)) worst = d;
        }
    free(m);
    return worst;
}

DEVICE_TEST(fft_round_trips)
{
    static const int64_t sizes[] = {1, 6, 7, 30, 101, 1024, 1000};
    for (int i = 0; i < 7; i++)
        for (int q = 0; q < 3; q++)
            for (int single = 0; single < 2; single++) {
                int64_t shape[2] = {3, sizes[i]};
                ga_dtype c = single ? GA_COMPLEX64 : GA_COMPLEX128, r = single ? GA_FLOAT32 : GA_FLOAT64;
                long double tol = round_trip_tolerance(c, (long double)sizes[i]);
                host x = host_random(c, 2, shape), y = host_random(r, 2, shape);
                ga_array *a = upload(&x, c, L_REVERSED), *b = upload(&y, r, L_STRIDED);
                ga_array *f = ga_fft_fft(a, GA_NONE, -1, norms[q]), *g = ga_fft_ifft(f, GA_NONE, 1, norms[q]);
                CHECK(g && max_diff(g, &x) <= tol, "ifft(fft(x)) of %lld, %s, %s: off by %Lg", (long long)sizes[i],
                      dname(c), norm_names[q], g ? max_diff(g, &x) : -1.0L);
                ga_array *h = ga_fft_rfft(b, GA_NONE, -1, norms[q]), *k = ga_fft_irfft(h, sizes[i], -1, norms[q]);
                CHECK(k && max_diff(k, &y) <= tol, "irfft(rfft(x), n) of %lld, %s, %s: off by %Lg", (long long)sizes[i],
                      dname(r), norm_names[q], k ? max_diff(k, &y) : -1.0L);
                ga_array *u = ga_fft_ihfft(b, GA_NONE, -1, norms[q]), *v = ga_fft_hfft(u, sizes[i], -1, norms[q]);
                CHECK(v && max_diff(v, &y) <= tol, "hfft(ihfft(x), n) of %lld, %s, %s: off by %Lg", (long long)sizes[i],
                      dname(r), norm_names[q], v ? max_diff(v, &y) : -1.0L);
                int64_t s[2] = {3, sizes[i]};
                ga_array *w = ga_fft_rfftn(b, -1, NULL, 0, NULL, norms[q]), *z = ga_fft_irfftn(w, 2, s, 2, (const int[]){0, 1}, norms[q]);
                CHECK(z && max_diff(z, &y) <= tol, "irfftn(rfftn(x), s) of %lld, %s, %s: off by %Lg", (long long)sizes[i],
                      dname(r), norm_names[q], z ? max_diff(z, &y) : -1.0L);
                ga_release(a), ga_release(b), ga_release(f), ga_release(g), ga_release(h), ga_release(k);
                ga_release(u), ga_release(v), ga_release(w), ga_release(z);
                host_free(&x), host_free(&y);
                ga_clear_error();
            }
}

DEVICE_TEST(fft_empty_batches_and_padding_of_nothing)
{
    int64_t shape[2] = {0, 4};
    ga_array *a = ga_zeros(2, shape, GA_COMPLEX64);
    ga_array *r = ga_fft_fft(a, GA_NONE, 1, GA_FFT_NORM_BACKWARD);
    CHECK(r && ga_ndim(r) == 2 && ga_shape(r)[0] == 0 && ga_shape(r)[1] == 4 && ga_dtype_of(r) == GA_COMPLEX64,
          "fft of (0, 4) along 1: %s", ga_last_error_message());
    ga_release(r);
    ga_array *re = ga_real(a);
    r = ga_fft_rfft(re, 6, 1, GA_FFT_NORM_BACKWARD);
    CHECK(r && ga_shape(r)[0] == 0 && ga_shape(r)[1] == 4 && ga_dtype_of(r) == GA_COMPLEX64, "rfft of (0, 4), n 6: %s",
          ga_last_error_message());
    ga_release(r);
    ga_release(re);
    /* an empty axis padded to 3: zeros */
    r = ga_fft_fft(a, 3, 0, GA_FFT_NORM_BACKWARD);
    host zero = host_new(2, (const int64_t[]){3, 4});
    check_result(r, &zero, GA_COMPLEX64, 0, "fft of an empty axis padded to 3");
    host_free(&zero);
    ga_release(r);
    ga_release(a);
    ga_clear_error();
}

/* The sum of |elements|^2 of r (downloaded), in long double. */
static long double energy(const ga_array *r)
{
    ga_dtype t = ga_dtype_of(r);
    unsigned char *m = malloc(ga_nbytes(r) ? ga_nbytes(r) : 1);
    long double sum = 0;
    if (download(r, m))
        for (int64_t i = 0; i < ga_size(r); i++) {
            elem e = load(t, m + (size_t)i * isz(t));
            long double re = value_of(t, e), im = is_complex(t) ? (long double)e.im : 0;
            sum += re * re + im * im;
        }
    free(m);
    return sum;
}

/* Parseval's identity on large sizes: sum |x|^2 = sum |X|^2 / n (for rfft
   the inner frequencies count twice), along the last axis and along the
   first. */
DEVICE_TEST(fft_parseval_large)
{
    static const int64_t sizes[] = {1 << 20, 3 * 5 * 7 * 11 * 13 * 17, 1000003};
    for (int i = 0; i < 3; i++)
        for (int single = 0; single < 2; single++) {
            const int64_t n = test_length(sizes[i]);
            ga_dtype c = single ? GA_COMPLEX64 : GA_COMPLEX128, r = single ? GA_FLOAT32 : GA_FLOAT64;
            host x = host_random(c, 1, &n), y = host_random(r, 1, &n);
            ga_array *a = upload(&x, c, L_CONTIGUOUS), *b = upload(&y, r, L_CONTIGUOUS);
            long double ex = 0, ey = 0;
            for (int64_t k = 0; k < n; k++) ex += x.re[k] * x.re[k] + x.im[k] * x.im[k], ey += y.re[k] * y.re[k];
            const long double tol = (single ? 1e-4L : 1e-11L) * (4 + log2l((long double)n));
            ga_array *f = ga_fft_fft(a, GA_NONE, 0, GA_FFT_NORM_ORTHO);
            long double ef = f ? energy(f) : -1;
            CHECK(fabsl(ef - ex) <= tol * ex, "fft of %lld %s: energy %Lg, expected %Lg", (long long)n, dname(c), ef, ex);
            ga_array *h = ga_fft_rfft(b, GA_NONE, 0, GA_FFT_NORM_ORTHO);
            long double eh = 0;
            if (h) { /* the inner frequencies twice: 2 sum - |X_0|^2 - (n even: |X_n/2|^2) */
                char ix[64];
                snprintf(ix, sizeof ix, n % 2 ? "0:1" : "0::%lld", (long long)(n / 2));
                ga_array *ends = ga_index(h, ix);
                eh = 2 * energy(h) - (ends ? energy(ends) : 0);
                ga_release(ends);
            }
            CHECK(fabsl(eh - ey) <= tol * ey, "rfft of %lld %s: energy %Lg, expected %Lg", (long long)n, dname(r), eh, ey);
            /* along the first axis of a (n / 8, 8) view */
            int64_t shape2[2] = {n / 8, 8};
            char ix[64];
            snprintf(ix, sizeof ix, ":%lld", (long long)(n / 8 * 8));
            ga_array *head = ga_index(a, ix), *a2 = head ? ga_reshape(head, 2, shape2) : NULL;
            ga_release(head);
            ga_array *f2 = a2 ? ga_fft_fft(a2, GA_NONE, 0, GA_FFT_NORM_ORTHO) : NULL;
            long double e2 = 0;
            for (int64_t k = 0; k < n / 8 * 8; k++) e2 += x.re[k] * x.re[k] + x.im[k] * x.im[k];
            long double ef2 = f2 ? energy(f2) : -1;
            CHECK(fabsl(ef2 - e2) <= tol * e2, "fft along axis 0 of (%lld, 8) %s: energy %Lg, expected %Lg",
                  (long long)(n / 8), dname(c), ef2, e2);
            ga_release(f2), ga_release(a2), ga_release(f), ga_release(h), ga_release(a), ga_release(b);
            host_free(&x), host_free(&y);
            ga_clear_error();
        }
}

/* The imaginary parts of the first and the n/2-th element do not change
   irfft's result (NumPy ignores them; cuFFT's C2R reads them at some
   lengths, 2^13 and 2^14 among them): bit for bit the result of the same
   input with them zeroed, along the last axis and the first. */
DEVICE_TEST(fft_irfft_ignores_imaginary_ends)
{
    static const int64_t ns[] = {8192, 16384, 1000, 999, 2};
    for (int i = 0; i < 5; i++)
        for (int single = 0; single < 2; single++)
            for (int axis = 0; axis < 2; axis++) {
                const int64_t n = ns[i], m = n / 2 + 1;
                int64_t shape[2] = {axis ? 3 : m, axis ? m : 3};
                ga_dtype c = single ? GA_COMPLEX64 : GA_COMPLEX128;
                host x = host_random(c, 2, shape), z = host_new(2, shape);
                for (int64_t k = 0; k < x.size; k++) {
                    z.re[k] = x.re[k], z.im[k] = x.im[k];
                    int64_t at = axis ? k % m : k / 3;
                    if (at == 0 || (n % 2 == 0 && at == n / 2)) z.im[k] = 0, x.im[k] = 1 + (long double)(k % 5);
                }
                ga_array *a = upload(&x, c, L_CONTIGUOUS), *b = upload(&z, c, L_CONTIGUOUS);
                ga_array *ra = ga_fft_irfft(a, n, axis, GA_FFT_NORM_BACKWARD), *rb = ga_fft_irfft(b, n, axis, GA_FFT_NORM_BACKWARD);
                CHECK(ra && rb && same_array(ra, rb), "irfft of %lld along axis %d (%s): the imaginary ends changed the result",
                      (long long)n, axis, dname(c));
                ga_array *ha = ga_fft_hfft(a, n, axis, GA_FFT_NORM_ORTHO), *hb = ga_fft_hfft(b, n, axis, GA_FFT_NORM_ORTHO);
                CHECK(ha && hb && same_array(ha, hb), "hfft of %lld along axis %d (%s): the imaginary ends changed the result",
                      (long long)n, axis, dname(c));
                ga_release(ra), ga_release(rb), ga_release(ha), ga_release(hb), ga_release(a), ga_release(b);
                host_free(&x), host_free(&z);
                ga_clear_error();
            }
}

/* ---- errors -------------------------------------------------------------------- */

DEVICE_TEST(fft_errors_in_numpy_words)
{
    int64_t shape[2] = {3, 4}, one[1] = {1};
    ga_array *a = ga_zeros(2, shape, GA_FLOAT64), *c = ga_zeros(2, shape, GA_COMPLEX128), *o = ga_zeros(1, one, GA_COMPLEX64);
    CHECK_ERROR(!ga_fft_fft(a, 0, -1, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE,
                "ga_fft_fft: Invalid number of FFT data points (0) specified.");
    CHECK_ERROR(!ga_fft_ifft(a, -1, -1, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE, "Invalid number of FFT data points (-1) specified.");
    CHECK_ERROR(!ga_fft_irfft(o, GA_NONE, 0, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE,
                "ga_fft_irfft: Invalid number of FFT data points (0) specified.");
    CHECK_ERROR(!ga_fft_hfft(o, GA_NONE, 0, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE, "Invalid number of FFT data points (0)");
    CHECK_ERROR(!ga_fft_fft(a, GA_NONE, 2, GA_FFT_NORM_BACKWARD), GA_ERROR_AXIS,
                "ga_fft_fft: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_fft_rfft(a, GA_NONE, -3, GA_FFT_NORM_BACKWARD), GA_ERROR_AXIS, "axis -3 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_fft_fft(a, GA_NONE, -1, (ga_fft_norm)7), GA_ERROR_VALUE,
                "ga_fft_fft: Invalid norm value 7; should be \"backward\",\"ortho\" or \"forward\".");
    CHECK_ERROR(!ga_fft_fftn(a, 1, (const int64_t[]){4}, -1, NULL, (ga_fft_norm)-1), GA_ERROR_VALUE, "Invalid norm value -1");
    CHECK_ERROR(!ga_fft_rfft(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD), GA_ERROR_TYPE, "ga_fft_rfft: ");
    CHECK_ERROR(!ga_fft_ihfft(c, GA_NONE, -1, GA_FFT_NORM_BACKWARD), GA_ERROR_TYPE, "ga_fft_ihfft: ");
    CHECK_ERROR(!ga_fft_fftn(a, 3, (const int64_t[]){2, 2, 2}, 2, (const int[]){0, 1}, GA_FFT_NORM_BACKWARD),
                GA_ERROR_VALUE, "ga_fft_fftn: Shape and axes have different lengths.");
    CHECK_ERROR(!ga_fft_fft2(a, 1, (const int64_t[]){2}, -1, NULL, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE,
                "ga_fft_fft2: Shape and axes have different lengths.");
    CHECK_ERROR(!ga_fft_irfftn(a, 2, (const int64_t[]){2, 0}, 2, (const int[]){0, 1}, GA_FFT_NORM_BACKWARD),
                GA_ERROR_VALUE, "Invalid number of FFT data points (0) specified.");
    CHECK_ERROR(!ga_fft_ifftn(a, -1, NULL, 2, (const int[]){0, 5}, GA_FFT_NORM_BACKWARD), GA_ERROR_AXIS,
                "ga_fft_ifftn: axis 5 is out of bounds for array of dimension 2");
    CHECK_ERROR(!ga_fft_rfftn(a, 0, NULL, 0, (const int[]){0}, GA_FFT_NORM_BACKWARD), GA_ERROR_VALUE, "ga_fft_rfftn: ");
    CHECK_ERROR(!ga_fft_fft(NULL, GA_NONE, 0, GA_FFT_NORM_BACKWARD), GA_ERROR_NULL_INPUT, "ga_fft_fft: a is NULL");
    CHECK_ERROR(!ga_fft_fftfreq(0, 1.0, GA_FLOAT64), GA_ERROR_VALUE, "ga_fft_fftfreq: float division by zero");
    CHECK_ERROR(!ga_fft_rfftfreq(4, 0.0, GA_FLOAT64), GA_ERROR_VALUE, "ga_fft_rfftfreq: float division by zero");
    CHECK_ERROR(!ga_fft_fftfreq(-2, 1.0, GA_FLOAT64), GA_ERROR_VALUE, "negative dimensions are not allowed");
    CHECK_ERROR(!ga_fft_fftfreq(4, 1.0, GA_INT32), GA_ERROR_TYPE, "ga_fft_fftfreq: ");
    CHECK_ERROR(!ga_fft_fftshift(a, 1, (const int[]){2}), GA_ERROR_AXIS, "ga_fft_fftshift: axis 2 is out of bounds");
    CHECK_ERROR(ga_fft_plan_cache_set_size(-1) != GA_OK, GA_ERROR_VALUE, "ga_fft_plan_cache_set_size: ");
    ga_release(a), ga_release(c), ga_release(o);
}

/* ---- frequencies and shifts ------------------------------------------------------ */

DEVICE_TEST(fft_fftfreq_and_rfftfreq)
{
    static const double ds[] = {1.0, 0.5, -0.1, 3.0};
    for (int64_t n = 1; n <= 12; n++)
        for (int di = 0; di < 4; di++)
            for (int rf = 0; rf < 2; rf++)
                for (int single = 0; single < 2; single++) {
                    ga_dtype t = single ? GA_FLOAT32 : GA_FLOAT64;
                    double d = ds[di], val = 1.0 / ((double)n * d);
                    int64_t m = rf ? n / 2 + 1 : n;
                    host ref = host_new(1, &m);
                    for (int64_t i = 0; i < m; i++) {
                        int64_t k = rf || i < (n - 1) / 2 + 1 ? i : i - n;
                        double v = (double)k * val; /* as NumPy: results * val in float64 */
                        ref.re[i] = single ? (long double)(float)v : (long double)v;
                    }
                    ga_array *r = rf ? ga_fft_rfftfreq(n, d, t) : ga_fft_fftfreq(n, d, t);
                    char what[120];
                    snprintf(what, sizeof what, "%s(%lld, %g) %s", rf ? "rfftfreq" : "fftfreq", (long long)n, d, dname(t));
                    check_result(r, &ref, t, 0, what);
                    ga_release(r);
                    host_free(&ref);
                }
}

/* numpy.roll of x by shift[d] along each axis d (host, C order, int values). */
static host host_roll(const host *x, const int64_t *shift)
{
    host y = host_new(x->ndim, x->shape);
    for (int64_t i = 0; i < x->size; i++) {
        int64_t rem = i, at = 0, stride = 1;
        for (int d = x->ndim - 1; d >= 0; d--) {
            int64_t idx = rem % x->shape[d];
            rem /= x->shape[d];
            int64_t to = ((idx + shift[d]) % x->shape[d] + x->shape[d]) % x->shape[d];
            at += to * stride;
            stride *= x->shape[d];
        }
        y.re[at] = x->re[i];
    }
    return y;
}

DEVICE_TEST(fft_fftshift_and_ifftshift)
{
    static const int64_t shape[3] = {4, 5, 7};
    static const struct { int naxes; int axes[3]; } cases[] = {{-1, {0}}, {1, {1}}, {2, {-1, 0}}, {2, {2, 2}}, {0, {0}}};
    for (int ci = 0; ci < 5; ci++)
        for (int inverse = 0; inverse < 2; inverse++) {
            host x = host_random(GA_INT32, 3, shape);
            ga_array *a = upload(&x, GA_INT32, ci % NUM_LAYOUTS);
            int64_t shift[3] = {0, 0, 0};
            const int *axes = cases[ci].naxes >= 0 ? cases[ci].axes : NULL;
            int count = axes ? cases[ci].naxes : 3;
            for (int i = 0; i < count; i++) {
                int ax = axes ? (axes[i] + 3) % 3 : i;
                shift[ax] += inverse ? -(shape[ax] / 2) : shape[ax] / 2;
            }
            host ref = host_roll(&x, shift);
            ga_array *r = inverse ? ga_fft_ifftshift(a, cases[ci].naxes, axes) : ga_fft_fftshift(a, cases[ci].naxes, axes);
            char what[80];
            snprintf(what, sizeof what, "%s, case %d", inverse ? "ifftshift" : "fftshift", ci);
            check_result(r, &ref, GA_INT32, 0, what);
            /* and back */
            ga_array *back = r ? (inverse ? ga_fft_fftshift(r, cases[ci].naxes, axes) : ga_fft_ifftshift(r, cases[ci].naxes, axes)) : NULL;
            check_result(back, &x, GA_INT32, 0, "the shift undone");
            ga_release(back), ga_release(r), ga_release(a);
            host_free(&ref), host_free(&x);
        }
}

/* ---- the plan cache --------------------------------------------------------------- */

static ga_fft_plan_cache_info cache_info(void)
{
    ga_fft_plan_cache_info info;
    memset(&info, 0xFF, sizeof info);
    CHECK_OK(ga_fft_plan_cache_get_info(&info));
    return info;
}

/* fft of length n (complex64, 1-d) checked against the host. */
static void fft_checked(int64_t n, const char *what)
{
    host x = host_random(GA_COMPLEX64, 1, &n);
    ga_array *a = upload(&x, GA_COMPLEX64, L_CONTIGUOUS);
    ga_dtype dt;
    long double points, factor;
    host ref = ref_1d(F_FFT, &x, GA_COMPLEX64, GA_NONE, 0, GA_FFT_NORM_BACKWARD, &dt, &points, &factor);
    ga_array *r = ga_fft_fft(a, GA_NONE, 0, GA_FFT_NORM_BACKWARD);
    check_result(r, &ref, dt, tolerance(GA_COMPLEX64, points, 2, 1), what);
    ga_release(r), ga_release(a);
    host_free(&ref), host_free(&x);
}

DEVICE_TEST(fft_plan_cache_hits_eviction_and_clear)
{
    CHECK_OK(ga_fft_plan_cache_clear());
    ga_fft_plan_cache_info i = cache_info();
    CHECK(i.size == 0 && i.hits == 0 && i.misses == 0 && i.max_size == 16 && i.work_bytes == 0,
          "after clear: size %d hits %llu misses %llu max %d work %zu", i.size, (unsigned long long)i.hits,
          (unsigned long long)i.misses, i.max_size, i.work_bytes);
    CHECK_OK(ga_fft_plan_cache_set_size(2));
    fft_checked(8, "first fft of 8");
    i = cache_info();
    CHECK(i.size == 1 && i.misses == 1 && i.hits == 0, "one miss: size %d misses %llu hits %llu", i.size,
          (unsigned long long)i.misses, (unsigned long long)i.hits);
    fft_checked(8, "second fft of 8");
    i = cache_info();
    CHECK(i.size == 1 && i.misses == 1 && i.hits == 1, "one hit: size %d misses %llu hits %llu", i.size,
          (unsigned long long)i.misses, (unsigned long long)i.hits);
    fft_checked(9, "fft of 9");
    fft_checked(8, "third fft of 8"); /* 8 is now the most recently used */
    fft_checked(10, "fft of 10");     /* evicts 9 */
    i = cache_info();
    CHECK(i.size == 2 && i.misses == 3 && i.hits == 2, "at the limit: size %d misses %llu hits %llu", i.size,
          (unsigned long long)i.misses, (unsigned long long)i.hits);
    fft_checked(8, "fourth fft of 8");
    fft_checked(9, "fft of 9 again");
    i = cache_info();
    CHECK(i.size == 2 && i.misses == 4 && i.hits == 3, "9 was evicted, 8 kept: size %d misses %llu hits %llu", i.size,
          (unsigned long long)i.misses, (unsigned long long)i.hits);
    /* shrinking drops the least recently used */
    CHECK_OK(ga_fft_plan_cache_set_size(1));
    i = cache_info();
    CHECK(i.size == 1 && i.max_size == 1, "shrunk: size %d max %d", i.size, i.max_size);
    fft_checked(9, "fft of 9, kept");
    i = cache_info();
    CHECK(i.hits == 4, "9 kept on shrinking: hits %llu", (unsigned long long)i.hits);
    /* no cache: plans made and dropped at each call, results still right */
    CHECK_OK(ga_fft_plan_cache_set_size(0));
    i = cache_info();
    CHECK(i.size == 0, "size 0 keeps nothing: %d", i.size);
    fft_checked(12, "fft of 12 without a cache");
    fft_checked(12, "fft of 12 without a cache, again");
    i = cache_info();
    CHECK(i.size == 0 && i.hits == 4 && i.misses == 6, "uncached: size %d hits %llu misses %llu", i.size,
          (unsigned long long)i.hits, (unsigned long long)i.misses);
    CHECK_OK(ga_fft_plan_cache_set_size(16));
    fft_checked(4096, "fft of 4096");
    i = cache_info();
    CHECK(i.size == 1, "cached again: size %d", i.size);
    CHECK_OK(ga_fft_plan_cache_clear());
    i = cache_info();
    CHECK(i.size == 0 && i.hits == 0 && i.misses == 0 && i.work_bytes == 0, "cleared: size %d hits %llu misses %llu",
          i.size, (unsigned long long)i.hits, (unsigned long long)i.misses);
}

/* One cached plan used on two streams in turn, each result right. */
DEVICE_TEST(fft_one_plan_two_streams)
{
    int64_t shape[2] = {64, 257};
    host x = host_random(GA_COMPLEX128, 2, shape), y = host_random(GA_COMPLEX128, 2, shape);
    ga_stream *s1 = ga_stream_create(true), *s2 = ga_stream_create(true);
    ga_array *a = upload(&x, GA_COMPLEX128, L_CONTIGUOUS), *b = upload(&y, GA_COMPLEX128, L_CONTIGUOUS);
    CHECK_OK(ga_device_synchronize());
    CHECK_OK(ga_stream_set_current(s1));
    ga_array *ra = ga_fft_fft(a, GA_NONE, -1, GA_FFT_NORM_ORTHO);
    CHECK_OK(ga_stream_set_current(s2));
    ga_array *rb = ga_fft_fft(b, GA_NONE, -1, GA_FFT_NORM_ORTHO);
    CHECK_OK(ga_stream_set_current(NULL));
    CHECK_OK(ga_device_synchronize());
    ga_dtype dt;
    long double points, factor;
    host refa = ref_1d(F_FFT, &x, GA_COMPLEX128, GA_NONE, 1, GA_FFT_NORM_ORTHO, &dt, &points, &factor);
    host refb = ref_1d(F_FFT, &y, GA_COMPLEX128, GA_NONE, 1, GA_FFT_NORM_ORTHO, &dt, &points, &factor);
    check_result(ra, &refa, dt, tolerance(GA_COMPLEX128, points, 2, factor), "fft on stream 1");
    check_result(rb, &refb, dt, tolerance(GA_COMPLEX128, points, 2, factor), "fft on stream 2");
    ga_release(ra), ga_release(rb), ga_release(a), ga_release(b);
    ga_stream_destroy(s1);
    ga_stream_destroy(s2);
    host_free(&refa), host_free(&refb), host_free(&x), host_free(&y);
}

/* A cuFFT that cannot be loaded (a missing file, a library without its
   entry points): each transform fails with GA_ERROR_LIBRARY naming itself
   and the file, the pool's bytes in use back where they were (the copy
   made before the plan is given back), and with cuFFT back the same
   calls work. A loaded library stays loaded (ga_shutdown forgets only a
   failed one), so the test runs alone in a new process of this program
   when an earlier test has loaded cuFFT. */
DEVICE_TEST(fft_without_cufft_fails_cleanly)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    return; /* linked: nothing is opened, GPUARR_CUFFT_LIBRARY is not read */
#endif
    if (ga__cuda_libraries[GA__LIB_CUFFT].state > 0) {
        char self[4096], command[4200];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        CHECK(len > 0, "this program's path: %s", strerror(errno));
        if (len <= 0) return;
        self[len] = 0;
        snprintf(command, sizeof command, "'%s' fft_without_cufft_fails_cleanly", self);
        int rc = system(command);
        CHECK(rc == 0, "the test alone in a new process (cuFFT not loaded there) failed: status %d", rc);
        return;
    }
    static const char *const files[2] = {"/nonexistent/libcufft.so.12", "libm.so.6"};
    static const char *const words[2] = {"/nonexistent/libcufft.so.12 could not be loaded", "libm.so.6 has no cufftCreate"};
    char *saved = getenv("GPUARR_CUFFT_LIBRARY") ? strdup(getenv("GPUARR_CUFFT_LIBRARY")) : NULL;
    int64_t shape[2] = {4, 6};
    for (int i = 0; i < 2; i++) {
        setenv("GPUARR_CUFFT_LIBRARY", files[i], 1);
        ga_shutdown(); /* forgets the loaded cuFFT */
        ga_array *a = ga_ones(2, shape, GA_FLOAT32), *out = ga_zeros(2, shape, GA_COMPLEX64);
        ga_memory_stats s0, s1;
        CHECK_OK(ga_device_synchronize());
        CHECK_OK(ga_memory_get_stats(0, &s0));
        char text[160];
        snprintf(text, sizeof text, "ga_fft_fft: %s", words[i]);
        CHECK_ERROR(ga_fft_fft(a, GA_NONE, -1, GA_FFT_NORM_BACKWARD) == NULL, GA_ERROR_LIBRARY, text);
        snprintf(text, sizeof text, "ga_fft_irfftn: %s", words[i]);
        CHECK_ERROR(ga_fft_irfftn(out, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD) == NULL, GA_ERROR_LIBRARY, text);
        snprintf(text, sizeof text, "ga_fft_fft2_out: %s", words[i]);
        CHECK_ERROR(ga_fft_fft2_out(a, -1, NULL, -1, NULL, GA_FFT_NORM_BACKWARD, out) != GA_OK, GA_ERROR_LIBRARY, text);
        CHECK_OK(ga_device_synchronize());
        CHECK_OK(ga_memory_get_stats(0, &s1));
        CHECK(s1.used_bytes == s0.used_bytes, "%s: the pool holds %zu bytes in use (%zu before)", files[i], s1.used_bytes,
              s0.used_bytes);
        ga_release(a), ga_release(out);
    }
    if (saved) setenv("GPUARR_CUFFT_LIBRARY", saved, 1);
    else unsetenv("GPUARR_CUFFT_LIBRARY");
    free(saved);
    ga_shutdown();
    fft_checked(12, "fft of 12 with cuFFT back");
    ga_fft_plan_cache_info i = cache_info();
    CHECK(i.size == 1 && i.misses == 1, "with cuFFT back: size %d misses %llu", i.size, (unsigned long long)i.misses);
}
