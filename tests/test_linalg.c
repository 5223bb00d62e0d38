/* Tests of linear algebra (gpuarr.h, >>libs and >>linalg): the loading of
   the CUDA libraries (host tests: no GPU needed), and matmul, dot, vdot,
   inner and outer on the GPU against a host reference in long double, on
   fresh random data, every float and complex dtype, odd sizes, empty and
   1-d operands, batches that broadcast, and views that are transposed,
   reversed, strided or broadcast; out= in place and through a copy; every
   error, with nothing written to out. */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "ref.h"
#include "host_array.h"
#include "cuda_library.h"

#include <complex.h>
#include <math.h>

static const ga_dtype float_dtypes[] = {GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
#define N_FLOAT_DTYPES (int)(sizeof float_dtypes / sizeof float_dtypes[0])

/* ---- loading the libraries (host) ---------------------------------------- */

TEST(cuda_library_loading_errors_name_the_file)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    CHECK(ga_cuda_library_load("cublas") == GA_OK, "linked: %s", ga_last_error_message());
    return; /* linked: nothing is opened, GPUARR_CUBLAS_LIBRARY is not read */
#endif
    char *saved = getenv("GPUARR_CUBLAS_LIBRARY") ? strdup(getenv("GPUARR_CUBLAS_LIBRARY")) : NULL;
    /* a file that does not exist */
    setenv("GPUARR_CUBLAS_LIBRARY", "/nonexistent/libcublas.so.13", 1);
    ga_shutdown(); /* forgets an earlier failure */
    CHECK_ERROR(ga_cuda_library_load("cublas") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: /nonexistent/libcublas.so.13 could not be loaded: ");
    /* the failure is kept: the next call names it too, without a new dlopen */
    CHECK_ERROR(ga_cuda_library_load("cublas") != GA_OK, GA_ERROR_LIBRARY, "/nonexistent/libcublas.so.13");
    /* a library without cuBLAS's entry points */
    ga_shutdown();
    setenv("GPUARR_CUBLAS_LIBRARY", "libm.so.6", 1);
    CHECK_ERROR(ga_cuda_library_load("cublas") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: libm.so.6 has no cublasCreate_v2");
    CHECK_ERROR(ga_cuda_library_load("cufoo") != GA_OK, GA_ERROR_VALUE,
                "ga_cuda_library_load: 'cufoo' is not a CUDA library gpuarr uses");
    CHECK_ERROR(ga_cuda_library_load(NULL) != GA_OK, GA_ERROR_NULL_INPUT, "ga_cuda_library_load: name is NULL");
    ga_shutdown();
    if (saved) setenv("GPUARR_CUBLAS_LIBRARY", saved, 1);
    else unsetenv("GPUARR_CUBLAS_LIBRARY");
    free(saved);
}

TEST(cuda_library_loads_every_entry_point)
{
    check_every_entry_point("cublas", "GPUARR_CUBLAS_LIBRARY", "libcublas.so.13", ga__cublas_entry_points, &ga__cublas);
    check_every_entry_point("cusolver", "GPUARR_CUSOLVER_LIBRARY", "libcusolver.so.12", ga__cusolver_entry_points,
                            &ga__cusolver);
}

/* ---- host data and the reference ------------------------------------------- */

/* numpy.matmul of a and b on the host (1-d promoted, batch broadcast), into
   *r (allocated), in long double; *abs_sum gets each result's sum of
   |a_ik| |b_kj| (for the tolerance). */
static bool host_matmul(const host *a, const host *b, host *r, long double **abs_sum)
{
    int an = a->ndim, bn = b->ndim;
    int64_t m = an >= 2 ? a->shape[an - 2] : 1, k = a->shape[an - 1];
    int64_t kb = bn >= 2 ? b->shape[bn - 2] : b->shape[0], n = bn >= 2 ? b->shape[bn - 1] : 1;
    if (k != kb) return false;
    int na = an >= 2 ? an - 2 : 0, nbb = bn >= 2 ? bn - 2 : 0, nb = na > nbb ? na : nbb;
    int64_t bshape[8];
    for (int d = 0; d < nb; d++) {
        int da = d - (nb - na), db = d - (nb - nbb);
        int64_t x = da >= 0 ? a->shape[da] : 1, y = db >= 0 ? b->shape[db] : 1;
        if (x != y && x != 1 && y != 1) return false;
        bshape[d] = x == 1 ? y : x;
    }
    r->ndim = 0;
    for (int d = 0; d < nb; d++) r->shape[r->ndim++] = bshape[d];
    if (an >= 2) r->shape[r->ndim++] = m;
    if (bn >= 2) r->shape[r->ndim++] = n;
    int64_t batch = 1;
    for (int d = 0; d < nb; d++) batch *= bshape[d];
    r->size = batch * m * n;
    r->re = calloc((size_t)(r->size ? r->size : 1), sizeof(long double));
    r->im = calloc((size_t)(r->size ? r->size : 1), sizeof(long double));
    *abs_sum = calloc((size_t)(r->size ? r->size : 1), sizeof(long double));
    for (int64_t bi = 0; bi < batch; bi++) {
        /* the batch index, then each operand's (broadcast) matrix offset */
        int64_t idx[8], rest = bi, oa = 0, ob = 0, sa = 1, sb = 1;
        for (int d = nb - 1; d >= 0; d--) idx[d] = rest % bshape[d], rest /= bshape[d];
        for (int d = nb - 1; d >= 0; d--) {
            int da = d - (nb - na), db = d - (nb - nbb);
            if (da >= 0) {
                oa += (a->shape[da] == 1 ? 0 : idx[d]) * sa;
                sa *= a->shape[da];
            }
            if (db >= 0) {
                ob += (b->shape[db] == 1 ? 0 : idx[d]) * sb;
                sb *= b->shape[db];
            }
        }
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                long double re = 0, im = 0, s = 0;
                for (int64_t q = 0; q < k; q++) {
                    int64_t pa = oa * m * k + i * k + q, pb = ob * k * n + q * n + j;
                    re += a->re[pa] * b->re[pb] - a->im[pa] * b->im[pb];
                    im += a->re[pa] * b->im[pb] + a->im[pa] * b->re[pb];
                    s += (fabsl(a->re[pa]) + fabsl(a->im[pa])) * (fabsl(b->re[pb]) + fabsl(b->im[pb]));
                }
                int64_t o = bi * m * n + i * n + j;
                r->re[o] = re, r->im[o] = im, (*abs_sum)[o] = s;
            }
    }
    return true;
}

/* The rounding unit of the accumulation and of the result of dtype t. */
static long double eps_of(ga_dtype t) { return ldexpl(1, 1 - precision_of(part_of(t))); }
static long double accumulation_eps(ga_dtype t)
{
    return t == GA_FLOAT16 || t == GA_BFLOAT16 ? ldexpl(1, -23) : eps_of(t);
}

/* Checks the device result `got` (dtype t) against the reference. */
static void check_result(const char *what, ga_dtype t, const ga_array *got, const host *want, const long double *abs_sum,
                         int64_t k)
{
    CHECK(got != NULL, "%s: %s", what, ga_last_error_message());
    if (!got) return;
    CHECK(ga_dtype_of(got) == t, "%s: dtype %s, expected %s", what, dname(ga_dtype_of(got)), dname(t));
    CHECK(ga_ndim(got) == want->ndim, "%s: ndim %d, expected %d", what, ga_ndim(got), want->ndim);
    if (ga_ndim(got) != want->ndim || ga_dtype_of(got) != t) return;
    for (int d = 0; d < want->ndim; d++)
        CHECK(ga_shape(got)[d] == want->shape[d], "%s: dim %d is %lld, expected %lld", what, d,
              (long long)ga_shape(got)[d], (long long)want->shape[d]);
    unsigned char *m = malloc(ga_nbytes(got) ? ga_nbytes(got) : 1);
    if (!download(got, m)) {
        free(m);
        return;
    }
    int bad = 0;
    for (int64_t i = 0; i < want->size && bad < 3; i++) {
        elem e = load(t, m + (size_t)i * isz(t));
        long double tol = 4 * (long double)(k + 2) * accumulation_eps(t) * abs_sum[i] +
                          2 * eps_of(t) * (fabsl(want->re[i]) + fabsl(want->im[i]));
        long double dre = fabsl(e.re - want->re[i]), dim = fabsl(e.im - want->im[i]);
        if (!(dre <= tol && dim <= tol)) {
            CHECK(false, "%s: element %lld is %Lg%+Lgj, expected %Lg%+Lgj (tolerance %Lg)", what, (long long)i, e.re,
                  e.im, want->re[i], want->im[i], tol);
            bad++;
        }
    }
    free(m);
}

/* matmul of random a (shape sa) and b (shape sb) in dtype t, each in every
   layout, against the host. */
static void check_matmul(ga_dtype t, int an, const int64_t *sa, int bn, const int64_t *sb)
{
    host a = host_random(t, an, sa), b = host_random(t, bn, sb), r;
    long double *abs_sum = NULL;
    if (!host_matmul(&a, &b, &r, &abs_sum)) {
        CHECK(false, "bad case");
        return;
    }
    const int64_t k = sa[an - 1];
    for (int la = 0; la < NUM_LAYOUTS; la++)
        for (int lb = 0; lb < NUM_LAYOUTS; lb++) {
            if (la != lb && la != L_CONTIGUOUS && lb != L_CONTIGUOUS) continue;
            ga_array *x = upload(&a, t, la), *y = upload(&b, t, lb);
            char what[160], ssa[64], ssb[64];
            ga__format_shape(ssa, sizeof ssa, an, sa);
            ga__format_shape(ssb, sizeof ssb, bn, sb);
            snprintf(what, sizeof what, "matmul %s %s %s @ %s %s", dname(t), ssa, layout_names[la], ssb,
                     layout_names[lb]);
            ga_array *z = ga_matmul(x, y);
            check_result(what, t, z, &r, abs_sum, k);
            ga_release(z), ga_release(x), ga_release(y);
            ga_clear_error();
        }
    host_free(&a), host_free(&b), host_free(&r);
    free(abs_sum);
}

DEVICE_TEST(matmul_every_dtype_shape_and_layout)
{
    static const struct { int an; int64_t sa[4]; int bn; int64_t sb[4]; } cases[] = {
        {2, {1, 1}, 2, {1, 1}},           {2, {3, 5}, 2, {5, 7}},          {2, {17, 33}, 2, {33, 9}},
        {2, {64, 64}, 2, {64, 64}},       {2, {130, 70}, 2, {70, 129}},    {1, {5}, 2, {5, 3}},
        {2, {4, 5}, 1, {5}},              {1, {7}, 1, {7}},                {3, {3, 4, 5}, 2, {5, 6}},
        {4, {2, 3, 4, 5}, 3, {3, 5, 2}},  {3, {3, 1, 4}, 3, {1, 4, 2}},    {3, {2, 1, 3}, 4, {4, 1, 3, 5}},
        {2, {3, 0}, 2, {0, 4}},           {2, {0, 3}, 2, {3, 4}},          {3, {0, 2, 3}, 2, {3, 2}},
        {1, {0}, 1, {0}},                 {3, {5, 1, 8}, 1, {8}},
        {1, {10007}, 1, {10007}},         {2, {1, 5000}, 2, {5000, 1}}, /* the dot kernels */
    };
    for (int di = 0; di < N_FLOAT_DTYPES; di++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            if (!test_sample((int64_t)(di * 31 + (int)c), 3)) continue;
            check_matmul(float_dtypes[di], cases[c].an, cases[c].sa, cases[c].bn, cases[c].sb);
        }
}

/* The inputs of two dtypes promote; a broadcast batch (stride 0) is read in
   place. */
DEVICE_TEST(matmul_promotes_and_broadcasts)
{
    const int64_t sa[2] = {6, 5}, sb[3] = {4, 5, 3};
    host a = host_random(GA_FLOAT32, 2, sa), b = host_random(GA_FLOAT32, 3, sb), r;
    long double *abs_sum = NULL;
    host_matmul(&a, &b, &r, &abs_sum);
    ga_array *x = upload(&a, GA_FLOAT32, L_CONTIGUOUS), *y = upload(&b, GA_FLOAT64, L_CONTIGUOUS);
    ga_array *z = ga_matmul(x, y);
    check_result("float32 @ float64", GA_FLOAT64, z, &r, abs_sum, 5);
    ga_release(z);
    /* a (6, 5) broadcast to (4, 6, 5): stride 0 */
    const int64_t big[3] = {4, 6, 5};
    ga_array *xb = ga_broadcast_to(x, 3, big);
    z = ga_matmul(xb, y);
    check_result("broadcast_to(a) @ b", GA_FLOAT64, z, &r, abs_sum, 5);
    ga_release(z), ga_release(xb), ga_release(x), ga_release(y);
    host_free(&a), host_free(&b), host_free(&r);
    free(abs_sum);
}

/* out= of the result's dtype and a BLAS layout is written in place
   (C and F order); another dtype, an overlapping or a strided out goes
   through a copy; an out with more batch dims broadcasts the inputs. */
DEVICE_TEST(matmul_out_in_place_and_through_a_copy)
{
    const int64_t sa[2] = {9, 7}, sb[2] = {7, 11}, so[2] = {9, 11};
    host a = host_random(GA_FLOAT64, 2, sa), b = host_random(GA_FLOAT64, 2, sb), r;
    long double *abs_sum = NULL;
    host_matmul(&a, &b, &r, &abs_sum);
    ga_array *x = upload(&a, GA_FLOAT64, L_CONTIGUOUS), *y = upload(&b, GA_FLOAT64, L_CONTIGUOUS);
    host o = host_random(GA_FLOAT64, 2, so);
    for (int lo = 0; lo < NUM_LAYOUTS; lo++) {
        ga_array *out = upload(&o, GA_FLOAT64, lo);
        CHECK_OK(ga_matmul_out(x, y, out));
        char what[64];
        snprintf(what, sizeof what, "matmul_out into a %s out", layout_names[lo]);
        check_result(what, GA_FLOAT64, out, &r, abs_sum, 7);
        ga_release(out);
    }
    /* float64 into complex128 (same_kind) */
    ga_array *oc = ga_zeros(2, so, GA_COMPLEX128);
    CHECK_OK(ga_matmul_out(x, y, oc));
    ga_array *ocr = ga_real(oc);
    check_result("matmul_out into complex128 (real part)", GA_FLOAT64, ocr, &r, abs_sum, 7);
    ga_release(ocr), ga_release(oc);
    /* an out of more batch dims: the product broadcast */
    const int64_t s3[3] = {3, 9, 11};
    ga_array *o3 = ga_zeros(3, s3, GA_FLOAT64);
    CHECK_OK(ga_matmul_out(x, y, o3));
    for (int i = 0; i < 3; i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%d", i);
        ga_array *slice = ga_index(o3, idx);
        check_result("matmul_out into an out with a batch dim", GA_FLOAT64, slice, &r, abs_sum, 7);
        ga_release(slice);
    }
    ga_release(o3);
    /* in place on an input: a @ a into a (square) */
    const int64_t sq[2] = {8, 8};
    host s = host_random(GA_FLOAT32, 2, sq), ss;
    long double *ss_abs = NULL;
    host_matmul(&s, &s, &ss, &ss_abs);
    ga_array *sd = upload(&s, GA_FLOAT32, L_CONTIGUOUS);
    CHECK_OK(ga_matmul_out(sd, sd, sd));
    check_result("matmul_out(a, a, a)", GA_FLOAT32, sd, &ss, ss_abs, 8);
    ga_release(sd);
    host_free(&s), host_free(&ss), free(ss_abs);
    ga_release(x), ga_release(y);
    host_free(&a), host_free(&b), host_free(&r), host_free(&o);
    free(abs_sum);
    ga_clear_error();
}

/* Every error, in NumPy's words; out keeps its values. */
DEVICE_TEST(matmul_errors)
{
    const int64_t s23[2] = {2, 3}, s45[2] = {4, 5}, s234[3] = {2, 3, 4}, s542[3] = {5, 4, 2}, s24[2] = {2, 4},
                  s34[2] = {3, 4}, s25[2] = {2, 5};
    ga_array *a = ga_ones(2, s23, GA_FLOAT64), *b = ga_ones(2, s45, GA_FLOAT64), *c = ga_ones(2, s34, GA_FLOAT64);
    ga_array *z0 = ga_full(0, NULL, ga_float(2), GA_FLOAT64);
    CHECK_ERROR(ga_matmul(z0, a) == NULL, GA_ERROR_VALUE,
                "ga_matmul: matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                "signature (n?,k),(k,m?)->(n?,m?) requires 1)");
    CHECK_ERROR(ga_matmul(a, z0) == NULL, GA_ERROR_VALUE, "Input operand 1 does not have enough dimensions");
    CHECK_ERROR(ga_matmul(a, b) == NULL, GA_ERROR_VALUE,
                "ga_matmul: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                "(n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)");
    ga_array *p = ga_ones(3, s234, GA_FLOAT64), *q = ga_ones(3, s542, GA_FLOAT64);
    CHECK_ERROR(ga_matmul(p, q) == NULL, GA_ERROR_SHAPE,
                "ga_matmul: operands could not be broadcast together with remapped shapes [original->remapped]: "
                "(2,3,4)->(2,newaxis,newaxis) (5,4,2)->(5,newaxis,newaxis)  and requested shape (3,2)");
    ga_array *i32 = ga_ones(2, s34, GA_INT32);
    ga_array *mixed = ga_matmul(a, i32); /* float64 @ int32 is float64 */
    CHECK(mixed && ga_dtype_of(mixed) == GA_FLOAT64, "float64 @ int32: %s", ga_last_error_message());
    ga_release(mixed);
    ga_array *ia = ga_ones(2, s23, GA_INT32), *ip = ga_matmul(ia, i32); /* int32 @ int32: our kernel */
    int32_t hp[8] = {0};
    CHECK(ip && ga_dtype_of(ip) == GA_INT32 && download(ip, hp) && hp[0] == 3 && hp[7] == 3, "int32 @ int32: %d (%s)", hp[0],
          ga_last_error_message());
    ga_release(ip), ga_release(ia);
    CHECK_ERROR(ga_matmul(NULL, a) == NULL, GA_ERROR_NULL_INPUT, "ga_matmul: a is NULL");
    /* out: wrong core dim, too few dims, wrong batch, dtype, read-only; untouched */
    ga_array *o25 = ga_full(2, s25, ga_float(7), GA_FLOAT64), *o24i = ga_full(2, s24, ga_int(7), GA_INT32);
    CHECK_ERROR(ga_matmul_out(a, c, o25) != GA_OK, GA_ERROR_VALUE,
                "ga_matmul_out: matmul: Output operand 0 has a mismatch in its core dimension 1, with gufunc "
                "signature (n?,k),(k,m?)->(n?,m?) (size 5 is different from 4)");
    CHECK_ERROR(ga_matmul_out(a, c, o24i) != GA_OK, GA_ERROR_TYPE,
                "ga_matmul_out: Cannot cast ufunc 'matmul' output from dtype('float64') to dtype('int32') with "
                "casting rule 'same_kind'");
    const int64_t s4[1] = {4};
    ga_array *o4 = ga_full(1, s4, ga_float(7), GA_FLOAT64);
    /* (NumPy says "output operand requires a reduction along dimension -1,
       but the reduction is not enabled ..." here; this names the cause) */
    CHECK_ERROR(ga_matmul_out(a, c, o4) != GA_OK, GA_ERROR_VALUE,
                "ga_matmul_out: matmul: Output operand 0 does not have enough dimensions (has 1, gufunc core with "
                "signature (n?,k),(k,m?)->(n?,m?) requires 2)");
    ga_array *ob = ga_broadcast_to(o4, 2, s24); /* read-only */
    CHECK_ERROR(ga_matmul_out(a, c, ob) != GA_OK, GA_ERROR_VALUE, "ga_matmul_out: output array is read-only");
    double h25[10];
    int32_t h24[8];
    if (download(o25, h25) && download(o24i, h24)) {
        bool same = true;
        for (int i = 0; i < 10; i++) same = same && h25[i] == 7;
        for (int i = 0; i < 8; i++) same = same && h24[i] == 7;
        CHECK(same, "an out was written by a failed call");
    }
    ga_release(ob), ga_release(o4), ga_release(o25), ga_release(o24i), ga_release(i32);
    ga_release(p), ga_release(q), ga_release(z0), ga_release(a), ga_release(b), ga_release(c);
    ga_clear_error();
}

/* numpy.dot's three forms, inner, vdot and outer against the host. */
DEVICE_TEST(dot_inner_vdot_outer)
{
    for (int di = 0; di < N_FLOAT_DTYPES; di++) {
        ga_dtype t = float_dtypes[di];
        /* dot of an N-d a and an M-d b: (2, 3, 4) . (5, 4, 6) -> (2, 3, 5, 6) */
        const int64_t sa[3] = {2, 3, 4}, sb[3] = {5, 4, 6};
        host a = host_random(t, 3, sa), b = host_random(t, 3, sb);
        ga_array *x = upload(&a, t, L_CONTIGUOUS), *y = upload(&b, t, L_TRANSPOSED);
        ga_array *z = ga_dot(x, y);
        host r = {4, {2, 3, 5, 6}, 180, calloc(180, sizeof(long double)), calloc(180, sizeof(long double))};
        long double *abs_sum = calloc(180, sizeof(long double));
        for (int64_t i = 0; i < 6; i++)
            for (int64_t p = 0; p < 5; p++)
                for (int64_t j = 0; j < 6; j++) {
                    long double re = 0, im = 0, s = 0;
                    for (int64_t q = 0; q < 4; q++) {
                        int64_t pa = i * 4 + q, pb = p * 24 + q * 6 + j;
                        re += a.re[pa] * b.re[pb] - a.im[pa] * b.im[pb];
                        im += a.re[pa] * b.im[pb] + a.im[pa] * b.re[pb];
                        s += (fabsl(a.re[pa]) + fabsl(a.im[pa])) * (fabsl(b.re[pb]) + fabsl(b.im[pb]));
                    }
                    int64_t o = (i * 5 + p) * 6 + j;
                    r.re[o] = re, r.im[o] = im, abs_sum[o] = s;
                }
        char what[64];
        snprintf(what, sizeof what, "dot %s (2,3,4) . (5,4,6)", dname(t));
        check_result(what, t, z, &r, abs_sum, 4);
        ga_release(z);
        /* inner of (2, 3, 4) and (5, 4, 6) transposed to (5, 6, 4): sums over the last dims */
        const int axes[3] = {0, 2, 1};
        ga_array *yt = ga_transpose(y, axes);
        z = ga_inner(x, yt);
        snprintf(what, sizeof what, "inner %s", dname(t));
        check_result(what, t, z, &r, abs_sum, 4);
        ga_release(z), ga_release(yt);
        /* vdot: conj(a) . b over the first 24 elements of each */
        const int64_t n24[1] = {24};
        host v = host_random(t, 1, n24), w = host_random(t, 1, n24);
        ga_array *vd = upload(&v, t, L_REVERSED), *wd = upload(&w, t, L_STRIDED);
        z = ga_vdot(vd, wd);
        host rv = {0, {0}, 1, calloc(1, sizeof(long double)), calloc(1, sizeof(long double))};
        long double sv = 0;
        for (int q = 0; q < 24; q++) {
            rv.re[0] += v.re[q] * w.re[q] + v.im[q] * w.im[q];
            rv.im[0] += v.re[q] * w.im[q] - v.im[q] * w.re[q];
            sv += (fabsl(v.re[q]) + fabsl(v.im[q])) * (fabsl(w.re[q]) + fabsl(w.im[q]));
        }
        snprintf(what, sizeof what, "vdot %s", dname(t));
        check_result(what, t, z, &rv, &sv, 24);
        ga_release(z);
        /* outer of the two vectors */
        z = ga_outer(vd, wd);
        host ro = {2, {24, 24}, 576, calloc(576, sizeof(long double)), calloc(576, sizeof(long double))};
        long double *so = calloc(576, sizeof(long double));
        for (int i = 0; i < 24; i++)
            for (int j = 0; j < 24; j++) {
                ro.re[i * 24 + j] = v.re[i] * w.re[j] - v.im[i] * w.im[j];
                ro.im[i * 24 + j] = v.re[i] * w.im[j] + v.im[i] * w.re[j];
                so[i * 24 + j] = (fabsl(v.re[i]) + fabsl(v.im[i])) * (fabsl(w.re[j]) + fabsl(w.im[j]));
            }
        snprintf(what, sizeof what, "outer %s", dname(t));
        check_result(what, t, z, &ro, so, 1);
        ga_release(z), ga_release(vd), ga_release(wd);
        host_free(&v), host_free(&w), host_free(&rv), host_free(&ro), free(so);
        ga_release(x), ga_release(y);
        host_free(&a), host_free(&b), host_free(&r), free(abs_sum);
    }
    ga_clear_error();
}

DEVICE_TEST(dot_inner_vdot_errors_and_0d)
{
    const int64_t s3[1] = {3}, s4[1] = {4}, s23[2] = {2, 3}, s45[2] = {4, 5};
    ga_array *a = ga_ones(1, s3, GA_FLOAT32), *b = ga_ones(1, s4, GA_FLOAT32), *m = ga_ones(2, s23, GA_FLOAT32),
             *n = ga_ones(2, s45, GA_FLOAT32);
    CHECK_ERROR(ga_dot(a, b) == NULL, GA_ERROR_VALUE, "ga_dot: shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
    CHECK_ERROR(ga_dot(m, n) == NULL, GA_ERROR_VALUE,
                "ga_dot: shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)");
    CHECK_ERROR(ga_inner(a, b) == NULL, GA_ERROR_VALUE,
                "ga_inner: shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
    CHECK_ERROR(ga_vdot(a, b) == NULL, GA_ERROR_VALUE, "ga_vdot: cannot reshape array of size 4 into shape (3,)");
    /* a 0-d input multiplies */
    ga_array *two = ga_full(0, NULL, ga_float(2), GA_FLOAT64);
    ga_array *d = ga_dot(two, m), *i = ga_inner(m, two);
    CHECK(d && ga_ndim(d) == 2 && ga_dtype_of(d) == GA_FLOAT64, "dot(0-d, 2-d)");
    CHECK(i && ga_ndim(i) == 2, "inner(2-d, 0-d)");
    double hd[6] = {0};
    if (d && download(d, hd)) CHECK(hd[0] == 2 && hd[5] == 2, "dot(2.0, ones) is 2");
    /* dot(1-d, 1-d) is 0-d */
    ga_array *aa = ga_dot(a, a);
    CHECK(aa && ga_ndim(aa) == 0, "dot of two vectors is 0-d");
    float v = 0;
    if (aa && download(aa, &v)) CHECK(v == 3, "dot(ones(3), ones(3)) = %g", v);
    ga_release(aa), ga_release(d), ga_release(i), ga_release(two);
    ga_release(a), ga_release(b), ga_release(m), ga_release(n);
    ga_clear_error();
}

/* Integer and bool products as NumPy's: sums that wrap in the dtype, a
   broadcast batch against a transposed operand, bool's or of ands. */
DEVICE_TEST(integer_and_bool_products)
{
    /* int8: 3 products of 300 each wrap to 44, and 132 to -124 */
    ga_array *a8 = ga_full(2, (const int64_t[]){2, 3}, ga_int(100), GA_INT8), *b8 = ga_full(2, (const int64_t[]){3, 2}, ga_int(3), GA_INT8);
    ga_array *p8 = ga_matmul(a8, b8);
    int8_t h8[4] = {0};
    CHECK(p8 && ga_dtype_of(p8) == GA_INT8 && download(p8, h8) && h8[0] == -124 && h8[3] == -124, "int8 wrap-around: %d (%s)", h8[0],
          ga_last_error_message());
    /* uint64: (2^63 + 1) * 2 wraps to 2; two of them sum to 4 */
    ga_array *au = ga_full(2, (const int64_t[]){1, 2}, ga_uint(9223372036854775809ull), GA_UINT64);
    ga_array *bu = ga_full(2, (const int64_t[]){2, 1}, ga_int(2), GA_UINT64), *pu = ga_matmul(au, bu);
    uint64_t hu = 0;
    CHECK(pu && download(pu, &hu) && hu == 4, "uint64 wrap-around: %llu (%s)", (unsigned long long)hu, ga_last_error_message());
    /* bool: [[1, 0], [0, 0]] @ [[0, 1], [1, 0]] = [[0, 1], [0, 0]] */
    const uint8_t ba[4] = {1, 0, 0, 0}, bb[4] = {0, 1, 1, 0};
    ga_array *xa = ga_from_host(ba, 2, (const int64_t[]){2, 2}, GA_BOOL), *xb = ga_from_host(bb, 2, (const int64_t[]){2, 2}, GA_BOOL);
    ga_array *pb = ga_matmul(xa, xb);
    uint8_t hb[4] = {9, 9, 9, 9};
    CHECK(pb && ga_dtype_of(pb) == GA_BOOL && download(pb, hb) && hb[0] == 0 && hb[1] == 1 && hb[2] == 0 && hb[3] == 0,
          "bool matmul: %d %d %d %d", hb[0], hb[1], hb[2], hb[3]);
    /* int16 (2, 3, 4) arange @ the transpose of a (5, 4) arange, against the host */
    ga_array *ar0 = ga_arange_int(0, 24, 1, GA_INT16), *br0 = ga_arange_int(0, 20, 1, GA_INT16);
    ga_array *ar = ga_reshape(ar0, 3, (const int64_t[]){2, 3, 4}), *br = ga_reshape(br0, 2, (const int64_t[]){5, 4});
    ga_array *bt = br ? ga_transpose(br, NULL) : NULL, *pr = ar && bt ? ga_matmul(ar, bt) : NULL;
    int16_t hr[30] = {0};
    bool same = pr && ga_ndim(pr) == 3 && ga_shape(pr)[2] == 5 && download(pr, hr);
    for (int q = 0; same && q < 2; q++)
        for (int i = 0; same && i < 3; i++)
            for (int j = 0; same && j < 5; j++) {
                int s = 0;
                for (int t = 0; t < 4; t++) s += (q * 12 + i * 4 + t) * (j * 4 + t);
                same = hr[(q * 3 + i) * 5 + j] == (int16_t)s;
            }
    CHECK(same, "int16 batch @ transposed: %s", ga_last_error_message());
    ga_release(pr), ga_release(bt), ga_release(br), ga_release(ar), ga_release(br0), ga_release(ar0), ga_release(pb), ga_release(xa), ga_release(xb);
    ga_release(pu), ga_release(au), ga_release(bu), ga_release(p8), ga_release(a8), ga_release(b8);
    ga_clear_error();
}

/* The thread's cuBLAS handle follows the current stream. (Work on two
   streams is not ordered: a and r1 are finished before the other stream
   reads them, as a CuPy user would synchronize.) */
DEVICE_TEST(matmul_on_another_stream)
{
    const int64_t s[2] = {16, 16};
    ga_array *a = ga_ones(2, s, GA_FLOAT32);
    ga_array *r1 = ga_matmul(a, a);
    CHECK_OK(ga_stream_synchronize(NULL));
    ga_stream *st = ga_stream_create(true);
    ga_stream_set_current(st);
    ga_array *r2 = ga_matmul(a, a);
    float h1[256], h2[256];
    bool ok = r1 && r2 && download(r1, h1) && download(r2, h2);
    CHECK(ok && h1[0] == 16 && h2[255] == 16, "matmul on the default stream and on a new one");
    ga_stream_set_current(NULL);
    ga_release(r1), ga_release(r2), ga_release(a);
    ga_stream_destroy(st);
    ga_clear_error();
}

/* ---- einsum's subscripts (host) ---------------------------------------------- */

#include "einsum_cases.h"

/* The batch walk of the products (cuBLAS's and the integer kernel's): a
   contiguous batch collapses into one call; a broadcast inner dim leaves
   the outer one walked, each call at the right addresses. */
TEST(product_batch_walk)
{
    ga__gemm_operand x, y, z;
    memset(&x, 0, sizeof x), memset(&y, 0, sizeof y), memset(&z, 0, sizeof z);
    x.data = 1000, y.data = 2000, z.data = 3000;
    const int64_t bshape[2] = {2, 3};
    x.batch[0] = 3 * 64, x.batch[1] = 64; /* contiguous matrices of 64 bytes */
    z.batch[0] = 3 * 32, z.batch[1] = 32; /* y broadcast: 0, 0 */
    ga__gemm_batch b;
    ga__gemm_batch_plan(2, bshape, &x, &y, &z, &b);
    CHECK(b.calls == 1 && b.count == 6 && b.step[0] == 64 && b.step[1] == 0 && b.step[2] == 32, "collapsed: %lld calls of %lld",
          (long long)b.calls, (long long)b.count);
    /* x broadcast along the inner dim: 2 calls of 3, x's address moving by 64 per call */
    x.batch[0] = 64, x.batch[1] = 0;
    ga__gemm_batch_plan(2, bshape, &x, &y, &z, &b);
    const uint64_t base[3] = {x.data, y.data, z.data};
    uint64_t at0[3], at1[3];
    CHECK(b.calls == 2 && b.count == 3 && b.step[0] == 0 && b.step[2] == 32, "walked: %lld calls of %lld", (long long)b.calls,
          (long long)b.count);
    ga__gemm_batch_next(&b, base, at0);
    ga__gemm_batch_next(&b, base, at1);
    CHECK(at0[0] == 1000 && at0[1] == 2000 && at0[2] == 3000 && at1[0] == 1064 && at1[1] == 2000 && at1[2] == 3096,
          "addresses %llu %llu, %llu %llu", (unsigned long long)at0[0], (unsigned long long)at0[2], (unsigned long long)at1[0],
          (unsigned long long)at1[2]);
}

/* ga__einsum_parse against NumPy's answers (tests/einsum_cases.h): the
   result's shape, or the error in NumPy's words. */
TEST(einsum_subscripts_match_numpy)
{
    int bad = 0;
    for (size_t c = 0; c < sizeof einsum_cases / sizeof einsum_cases[0] && bad < 10; c++) {
        const einsum_case *k = &einsum_cases[c];
        const int64_t *shapes[4] = {k->shape[0], k->shape[1], k->shape[2], k->shape[3]};
        ga__einsum e;
        ga_status st = ga__einsum_parse("ga_einsum", k->subscripts, k->n, k->ndim, shapes, &e);
        if (k->out_ndim < 0) {
            char want[512];
            snprintf(want, sizeof want, "ga_einsum: %s", k->error);
            if (st == GA_OK || strcmp(ga_last_error_message(), want) != 0) {
                CHECK(false, "einsum('%s'): expected \"%s\", got %s", k->subscripts, want,
                      st == GA_OK ? "no error" : ga_last_error_message());
                bad++;
            }
        } else {
            bool same = st == GA_OK && e.out_ndim == k->out_ndim;
            for (int d = 0; same && d < k->out_ndim; d++) same = e.size[e.out[d]] == k->out[d];
            if (!same) {
                CHECK(false, "einsum('%s'): %s (ndim %d, expected %d)", k->subscripts,
                      st == GA_OK ? "another shape" : ga_last_error_message(), st == GA_OK ? e.out_ndim : -1,
                      k->out_ndim);
                bad++;
            }
        }
        ga_clear_error();
    }
}

/* ga_einsum against a host einsum (every assignment of the labels, in long
   double) over the valid cases of tests/einsum_cases.h, float32, float64
   and complex128, on fresh random data. */
DEVICE_TEST(einsum_matches_a_host_einsum)
{
    static const ga_dtype dts[] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX128};
    int bad = 0;
    for (size_t c = 0; c < sizeof einsum_cases / sizeof einsum_cases[0] && bad < 5; c++) {
        const einsum_case *k = &einsum_cases[c];
        if (k->out_ndim < 0 || !test_sample((int64_t)c, 2)) continue;
        ga_dtype t = dts[c % 3];
        const int64_t *shapes[4] = {k->shape[0], k->shape[1], k->shape[2], k->shape[3]};
        ga__einsum e;
        if (ga__einsum_parse("test", k->subscripts, k->n, k->ndim, shapes, &e) != GA_OK) continue;
        host h[4];
        ga_array *x[4] = {NULL, NULL, NULL, NULL};
        for (int i = 0; i < k->n; i++) {
            h[i] = host_random(t, k->ndim[i], k->shape[i]);
            x[i] = upload(&h[i], t, (int)(c % NUM_LAYOUTS));
        }
        /* the reference: every assignment of the used labels */
        int used[GA__EINSUM_LABELS], nu = 0;
        for (int l = 0; l < GA__EINSUM_LABELS; l++)
            if (e.count[l]) used[nu++] = l;
        int64_t out_size = 1, total = 1;
        for (int d = 0; d < e.out_ndim; d++) out_size *= e.size[e.out[d]];
        for (int q = 0; q < nu; q++) total *= e.size[used[q]];
        host r = {e.out_ndim, {0}, out_size, calloc((size_t)(out_size ? out_size : 1), sizeof(long double)),
                  calloc((size_t)(out_size ? out_size : 1), sizeof(long double))};
        for (int d = 0; d < e.out_ndim && d < 8; d++) r.shape[d] = e.size[e.out[d]];
        long double *abs_sum = calloc((size_t)(out_size ? out_size : 1), sizeof(long double));
        int64_t val[GA__EINSUM_LABELS] = {0};
        for (int64_t a = 0; a < total; a++) {
            int64_t rest = a;
            for (int q = nu - 1; q >= 0; q--) val[used[q]] = rest % e.size[used[q]], rest /= e.size[used[q]];
            long double re = 1, im = 0, mag = 1;
            for (int i = 0; i < k->n; i++) {
                int64_t off = 0;
                for (int d = 0; d < k->ndim[i]; d++) /* a label of extent 1 in this operand broadcasts */
                    off = off * k->shape[i][d] + (k->shape[i][d] == 1 ? 0 : val[e.label[i][d]]);
                long double pr = re * h[i].re[off] - im * h[i].im[off], pi = re * h[i].im[off] + im * h[i].re[off];
                re = pr, im = pi;
                mag *= fabsl(h[i].re[off]) + fabsl(h[i].im[off]);
            }
            int64_t o = 0;
            for (int d = 0; d < e.out_ndim; d++) o = o * e.size[e.out[d]] + val[e.out[d]];
            r.re[o] += re, r.im[o] += im, abs_sum[o] += mag;
        }
        ga_array *z = ga_einsum(k->subscripts, k->n, (const ga_array *const *)x);
        char what[160];
        snprintf(what, sizeof what, "einsum('%s') %s", k->subscripts, dname(t));
        int before = test_failures;
        check_result(what, t, z, &r, abs_sum, total / (out_size ? out_size : 1));
        if (test_failures != before) bad++;
        ga_release(z);
        for (int i = 0; i < k->n; i++) {
            ga_release(x[i]);
            host_free(&h[i]);
        }
        host_free(&r);
        free(abs_sum);
        ga_clear_error();
    }
}

DEVICE_TEST(einsum_errors)
{
    const int64_t s23[2] = {2, 3}, s34[2] = {3, 4};
    ga_array *a = ga_ones(2, s23, GA_FLOAT32), *b = ga_ones(2, s34, GA_FLOAT32), *i = ga_ones(2, s23, GA_INT32);
    const ga_array *ab[2] = {a, b}, *ai[2] = {a, NULL}, *ii[1] = {i};
    ga_array *r = ga_einsum("ij,kl->ik", 2, ab); /* j and l summed apart: 3 * 4 */
    float h[6] = {0};
    CHECK(r && ga_ndim(r) == 2 && ga_shape(r)[0] == 2 && ga_shape(r)[1] == 3 && download(r, h) && h[0] == 12 && h[5] == 12,
          "einsum('ij,kl->ik'): %s", ga_last_error_message());
    ga_release(r);
    CHECK_ERROR(ga_einsum("ij,ij->ij", 2, ab) == NULL, GA_ERROR_SHAPE,
                "ga_einsum: operands could not be broadcast together with remapped shapes [original->remapped]: "
                "(2,3)->(2,3) (3,4)->(3,4) ");
    CHECK_ERROR(ga_einsum("ij,jk->ik", 2, ai) == NULL, GA_ERROR_NULL_INPUT, "ga_einsum: operand 1 is NULL");
    CHECK_ERROR(ga_einsum(NULL, 2, ab) == NULL, GA_ERROR_NULL_INPUT, "ga_einsum: subscripts is NULL");
    ga_array *si = ga_einsum("ij->", 1, ii); /* integers: the sum in int32 */
    int32_t hs = 0;
    CHECK(si && ga_dtype_of(si) == GA_INT32 && download(si, &hs) && hs == 6, "einsum('ij->') of int32: %d (%s)", hs,
          ga_last_error_message());
    ga_release(si), ga_release(a), ga_release(b), ga_release(i);
}

/* tensordot, vecdot, matvec, vecmat, matrix_power and the norms on small
   exact cases (NumPy's answers, worked by hand); the conformance script
   checks them against NumPy over every float dtype. */
DEVICE_TEST(tensordot_vecdot_matvec_power_norms)
{
    const int64_t s23[2] = {2, 3}, s33[2] = {3, 3}, s3[1] = {3};
    ga_array *a = ga_arange_int(0, 6, 1, GA_FLOAT64), *a23 = a ? ga_reshape(a, 2, s23) : NULL;
    ga_array *o3 = ga_ones(1, s3, GA_FLOAT64), *o33 = ga_ones(2, s33, GA_FLOAT64);
    /* tensordot(a23, ones(3), 1) = row sums 3, 12 */
    ga_array *t = ga_tensordot(a23, o3, 1);
    double h[9] = {0};
    CHECK(t && ga_ndim(t) == 1 && download(t, h) && h[0] == 3 && h[1] == 12, "tensordot: %s", ga_last_error_message());
    /* vecdot over the last axis: the same */
    ga_array *v = ga_vecdot(a23, o3, -1);
    CHECK(v && ga_ndim(v) == 1 && download(v, h) && h[0] == 3 && h[1] == 12, "vecdot: %s", ga_last_error_message());
    ga_array *mv = ga_matvec(a23, o3), *vm = ga_vecmat(o3, o33);
    CHECK(mv && download(mv, h) && h[0] == 3 && h[1] == 12, "matvec: %s", ga_last_error_message());
    CHECK(vm && ga_ndim(vm) == 1 && download(vm, h) && h[0] == 3 && h[2] == 3, "vecmat: %s", ga_last_error_message());
    /* ones(3,3)^3 = 9 everywhere; ^0 the identity */
    ga_array *p3 = ga_linalg_matrix_power(o33, 3), *p0 = ga_linalg_matrix_power(o33, 0);
    CHECK(p3 && download(p3, h) && h[0] == 9 && h[8] == 9, "matrix_power 3: %s", ga_last_error_message());
    CHECK(p0 && download(p0, h) && h[0] == 1 && h[1] == 0 && h[4] == 1, "matrix_power 0: %s", ga_last_error_message());
    CHECK_ERROR(ga_linalg_matrix_power(a23, 2) == NULL, GA_ERROR_LINALG,
                "ga_linalg_matrix_power: Last 2 dimensions of the array must be square");
    CHECK_ERROR(ga_linalg_matrix_power(o3, 2) == NULL, GA_ERROR_LINALG,
                "ga_linalg_matrix_power: 1-dimensional array given. Array must be at least two-dimensional");
    /* norms of 0..5: 2-norm sqrt(55), inf 5, 1-norm 15; matrix 1: max col sum 7, inf: max row sum 12 */
    ga_array *n2 = ga_linalg_vector_norm(a23, 2, GA_ALL_AXES, false), *ni = ga_linalg_vector_norm(a23, INFINITY, GA_ALL_AXES, false);
    ga_array *m1 = ga_linalg_matrix_norm(a23, GA_NORM_1, false), *mi = ga_linalg_matrix_norm(a23, GA_NORM_INF, true);
    double x = 0;
    CHECK(n2 && download(n2, &x) && fabs(x - sqrt(55.0)) < 1e-12, "vector_norm 2: %g", x);
    CHECK(ni && download(ni, &x) && x == 5, "vector_norm inf: %g", x);
    CHECK(m1 && download(m1, &x) && x == 7, "matrix_norm 1: %g", x);
    CHECK(mi && ga_ndim(mi) == 2 && download(mi, &x) && x == 12, "matrix_norm inf keepdims: %g", x);
    CHECK_ERROR(ga_linalg_matrix_norm(o3, GA_NORM_FRO, false) == NULL, GA_ERROR_AXIS,
                "ga_linalg_matrix_norm: axis -2 is out of bounds for array of dimension 1");
    ga_release(n2), ga_release(ni), ga_release(m1), ga_release(mi), ga_release(p3), ga_release(p0);
    ga_release(mv), ga_release(vm), ga_release(v), ga_release(t), ga_release(o3), ga_release(o33);
    ga_release(a23), ga_release(a);
    ga_clear_error();
}

/* ---- decompositions and solvers (cuSOLVER) ------------------------------------ */

/* A random well-conditioned matrix stack (batch, n, n) as long double
   host values: diagonally dominant, Hermitian positive definite when
   `hpd` (then A = B B^H + n I). */
static host host_matrices(ga_dtype t, int64_t batch, int64_t n, bool hpd)
{
    const int64_t shape[3] = {batch, n, n};
    host b = host_random(t, 3, shape), a = host_random(t, 3, shape);
    for (int64_t q = 0; q < batch; q++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                int64_t o = (q * n + i) * n + j;
                if (hpd) {
                    long double re = 0, im = 0;
                    for (int64_t k = 0; k < n; k++) { /* (B B^H)_ij = sum B_ik conj(B_jk) */
                        int64_t x = (q * n + i) * n + k, y = (q * n + j) * n + k;
                        re += b.re[x] * b.re[y] + b.im[x] * b.im[y];
                        im += b.im[x] * b.re[y] - b.re[x] * b.im[y];
                    }
                    a.re[o] = re + (i == j ? n : 0), a.im[o] = i == j ? 0 : im;
                } else if (i == j) {
                    a.re[o] += 2 * n;
                }
            }
    host_free(&b);
    return a;
}

/* max |got - want| over max |want|, both C-order stacks on the host. */
static double rel_err(const ga_array *got, const host *want, ga_dtype t)
{
    unsigned char *m = malloc(ga_nbytes(got) ? ga_nbytes(got) : 1);
    if (!download(got, m)) {
        free(m);
        return INFINITY;
    }
    long double err = 0, mag = 0;
    for (int64_t i = 0; i < want->size; i++) {
        elem e = load(t, m + (size_t)i * isz(t));
        err = fmaxl(err, fabsl(e.re - want->re[i]) + fabsl(e.im - want->im[i]));
        mag = fmaxl(mag, fabsl(want->re[i]) + fabsl(want->im[i]));
    }
    free(m);
    return (double)(mag ? err / mag : err);
}

static const ga_dtype solver_dtypes[] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
static double solver_tol(ga_dtype t) { return t == GA_FLOAT32 || t == GA_COMPLEX64 ? 1e-4 : 1e-11; }

/* L L^H = A for cholesky, A^-1 A = I for inv, A x = b for solve, A v = v w
   for eigh (through matmul, checked against the host's A), every solver
   dtype, a batch of 3 of sizes that take each batched kernel (up to 8, 16
   and 32 rows) and the one-matrix calls (33). */
DEVICE_TEST(solvers_satisfy_their_identities)
{
    static const int64_t sizes[] = {1, 5, 9, 17, 32, 33};
    for (size_t di = 0; di < sizeof solver_dtypes / sizeof solver_dtypes[0]; di++) {
        ga_dtype t = solver_dtypes[di];
        for (size_t ni = 0; ni < sizeof sizes / sizeof sizes[0]; ni++) {
            const int64_t n = sizes[ni];
            char what[96];
            host a = host_matrices(t, 3, n, true);
            ga_array *da = upload(&a, t, L_CONTIGUOUS);
            /* cholesky: L L^H */
            ga_array *l = ga_linalg_cholesky(da, false), *u = ga_linalg_cholesky(da, true);
            ga_array *llh = l && u ? ga_matmul(l, u) : NULL;
            snprintf(what, sizeof what, "cholesky %s n=%lld: L L^H", dname(t), (long long)n);
            CHECK(llh && rel_err(llh, &a, t) < solver_tol(t), "%s: %s", what, ga_last_error_message());
            /* inv: A^-1 A = I */
            ga_array *ai = ga_linalg_inv(da), *id = ai ? ga_matmul(ai, da) : NULL;
            host eye = {3, {3, n, n}, 3 * n * n, calloc((size_t)(3 * n * n), sizeof(long double)),
                        calloc((size_t)(3 * n * n), sizeof(long double))};
            for (int64_t q = 0; q < 3; q++)
                for (int64_t i = 0; i < n; i++) eye.re[(q * n + i) * n + i] = 1;
            snprintf(what, sizeof what, "inv %s n=%lld: inv(A) A", dname(t), (long long)n);
            CHECK(id && rel_err(id, &eye, t) < solver_tol(t) * n, "%s: %s", what, ga_last_error_message());
            /* solve: A x = b for a (3, n, 2) b and a 1-d b */
            const int64_t sb[3] = {3, n, 2};
            host b = host_random(t, 3, sb);
            ga_array *db = upload(&b, t, L_TRANSPOSED), *x = ga_linalg_solve(da, db), *ax = x ? ga_matmul(da, x) : NULL;
            snprintf(what, sizeof what, "solve %s n=%lld: A x", dname(t), (long long)n);
            CHECK(ax && rel_err(ax, &b, t) < solver_tol(t) * n, "%s: %s", what, ga_last_error_message());
            /* eigh: A v = v diag(w) */
            ga_array *w = NULL, *v = NULL;
            ga_status st = ga_linalg_eigh(da, 'L', &w, &v);
            ga_array *av = st == GA_OK ? ga_matmul(da, v) : NULL;
            ga_array *w3 = w ? ga_expand_dims(w, 1, (const int[]){-2}) : NULL;
            ga_array *vw = v && w3 ? ga_multiply(v, w3) : NULL;
            ga_array *diff = av && vw ? ga_subtract(av, vw) : NULL;
            double dmax = 0, amax = 0;
            if (diff) {
                ga_array *nd = ga_linalg_matrix_norm(diff, GA_NORM_FRO, false), *na = ga_linalg_matrix_norm(da, GA_NORM_FRO, false);
                double hd[3] = {0}, ha[3] = {0};
                if (nd && na && download(nd, hd) && download(na, ha))
                    for (int q = 0; q < 3; q++) dmax = fmax(dmax, hd[q] / fmax(ha[q], 1e-300)), amax = 1;
                ga_release(nd), ga_release(na);
            }
            snprintf(what, sizeof what, "eigh %s n=%lld: A v - v w", dname(t), (long long)n);
            CHECK(amax == 1 && dmax < solver_tol(t) * n, "%s: %g (%s)", what, dmax, ga_last_error_message());
            ga_release(diff), ga_release(vw), ga_release(w3), ga_release(av), ga_release(w), ga_release(v);
            ga_release(ax), ga_release(x), ga_release(db), ga_release(id), ga_release(ai), ga_release(llh);
            ga_release(l), ga_release(u), ga_release(da);
            host_free(&a), host_free(&b), host_free(&eye);
            ga_clear_error();
        }
    }
}

/* det and slogdet of [[2, 1], [4, 3]] (2), a permutation (-1), a singular
   matrix (0; sign 0, log -inf); the errors in NumPy's words. */
DEVICE_TEST(det_slogdet_and_solver_errors)
{
    const double m[3][4] = {{2, 1, 4, 3}, {0, 1, 1, 0}, {1, 2, 2, 4}};
    const double want[3] = {2, -1, 0};
    const int64_t s322[3] = {3, 2, 2};
    ga_array *a = ga_from_host(m, 3, s322, GA_FLOAT64);
    ga_array *d = ga_linalg_det(a), *sign = NULL, *la = NULL;
    double h[3] = {0}, hs[3] = {0}, hl[3] = {0};
    CHECK(d && download(d, h) && fabs(h[0] - want[0]) < 1e-12 && fabs(h[1] - want[1]) < 1e-12 && h[2] == 0,
          "det: %g %g %g (%s)", h[0], h[1], h[2], ga_last_error_message());
    CHECK_OK(ga_linalg_slogdet(a, &sign, &la));
    if (sign && la && download(sign, hs) && download(la, hl))
        CHECK(hs[0] == 1 && hs[1] == -1 && hs[2] == 0 && fabs(hl[0] - log(2.0)) < 1e-12 && hl[1] == 0 && isinf(hl[2]) && hl[2] < 0,
              "slogdet: (%g, %g) (%g, %g) (%g, %g)", hs[0], hl[0], hs[1], hl[1], hs[2], hl[2]);
    CHECK_ERROR(ga_linalg_inv(a) == NULL, GA_ERROR_LINALG, "ga_linalg_inv: Singular matrix");
    const double npd[4] = {1, 2, 2, 1};
    ga_array *b = ga_from_host(npd, 2, (const int64_t[]){2, 2}, GA_FLOAT64);
    CHECK_ERROR(ga_linalg_cholesky(b, false) == NULL, GA_ERROR_LINALG, "ga_linalg_cholesky: Matrix is not positive definite");
    /* zero pivots before the last column (the batched LU divides by them):
       det 0, slogdet (0, -inf), as NumPy; an empty stack's inverse is empty */
    ga_array *z = ga_zeros(3, (const int64_t[]){2, 3, 3}, GA_FLOAT64), *dz = ga_linalg_det(z), *sz = NULL, *lz = NULL;
    double hz[2] = {1, 1}, hsz[2] = {1, 1}, hlz[2] = {0, 0};
    CHECK(dz && download(dz, hz) && hz[0] == 0 && hz[1] == 0, "det of zero matrices: %g %g (%s)", hz[0], hz[1], ga_last_error_message());
    CHECK_OK(ga_linalg_slogdet(z, &sz, &lz));
    CHECK(sz && lz && download(sz, hsz) && download(lz, hlz) && hsz[0] == 0 && hsz[1] == 0 && isinf(hlz[0]) && hlz[0] < 0 &&
              isinf(hlz[1]) && hlz[1] < 0,
          "slogdet of zero matrices: (%g, %g) (%g, %g)", hsz[0], hlz[0], hsz[1], hlz[1]);
    ga_array *e0 = ga_zeros(3, (const int64_t[]){2, 0, 0}, GA_FLOAT32), *ie = ga_linalg_inv(e0);
    CHECK(ie && ga_ndim(ie) == 3 && ga_shape(ie)[0] == 2 && ga_shape(ie)[1] == 0 && ga_size(ie) == 0, "inv of a (2, 0, 0) stack: %s",
          ga_last_error_message());
    ga_release(ie), ga_release(e0), ga_release(sz), ga_release(lz), ga_release(dz), ga_release(z);
    /* the same in a stack (one batched call): the second matrix fails */
    const double npd2[8] = {1, 0, 0, 1, 1, 2, 2, 1};
    ga_array *b2 = ga_from_host(npd2, 3, (const int64_t[]){2, 2, 2}, GA_FLOAT64);
    CHECK_ERROR(ga_linalg_cholesky(b2, false) == NULL, GA_ERROR_LINALG, "ga_linalg_cholesky: Matrix is not positive definite");
    ga_release(b2);
    ga_array *r = ga_ones(2, (const int64_t[]){2, 3}, GA_FLOAT64), *h16 = ga_ones(2, (const int64_t[]){2, 2}, GA_FLOAT16);
    CHECK_ERROR(ga_linalg_inv(r) == NULL, GA_ERROR_LINALG, "ga_linalg_inv: Last 2 dimensions of the array must be square");
    CHECK_ERROR(ga_linalg_det(h16) == NULL, GA_ERROR_TYPE, "ga_linalg_det: array type float16 is unsupported in linalg");
    ga_array *w = NULL, *v = NULL;
    CHECK_ERROR(ga_linalg_eigh(b, 'X', &w, &v) != GA_OK, GA_ERROR_VALUE, "ga_linalg_eigh: UPLO argument must be 'L' or 'U'");
    ga_release(r), ga_release(h16), ga_release(b), ga_release(sign), ga_release(la), ga_release(d), ga_release(a);
    ga_clear_error();
}

/* GA_LINALG_IGNORE: no error and no wait; the failed matrices of a stack
   come back as NaN, the others right. The batched calls (2 x 2 stacks)
   and the one-matrix calls (a 40 x 40 singular matrix). */
static bool all_nan(const double *h, int n)
{
    for (int i = 0; i < n; i++)
        if (!isnan(h[i])) return false;
    return true;
}

/* eigh reads the triangle UPLO names alone (NumPy's LAPACK contract): a
   Hermitian stack H and the same with random values in the other triangle
   (and, complex, in the diagonal's imaginary parts, which NumPy ignores)
   give the same ascending eigenvalues, and the second's eigenvectors
   satisfy H v = v w. A stack that takes our kernel (up to 8 rows), two
   that take syevj (13 and 29 rows) and one matrix of 40 rows (syevd),
   every solver dtype. */
DEVICE_TEST(eigh_reads_one_triangle)
{
    static const int64_t sizes[][2] = {{3, 6}, {2, 13}, {2, 29}, {1, 40}};
    for (size_t di = 0; di < sizeof solver_dtypes / sizeof solver_dtypes[0]; di++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            for (int up = 0; up < 2; up++) {
                const ga_dtype t = solver_dtypes[di];
                const int64_t batch = sizes[k][0], n = sizes[k][1], shape[3] = {batch, n, n};
                host h = host_matrices(t, batch, n, true), junk = host_random(t, 3, shape);
                for (int64_t q = 0; q < batch; q++) /* the other triangle and the diagonal's imaginary parts: junk */
                    for (int64_t i = 0; i < n; i++)
                        for (int64_t j = 0; j < n; j++) {
                            const int64_t o = (q * n + i) * n + j;
                            if (up ? i > j : i < j) junk.re[o] *= 3, junk.im[o] *= 3;
                            else junk.re[o] = h.re[o], junk.im[o] = i == j ? junk.im[o] : h.im[o];
                        }
                ga_array *dh = upload(&h, t, L_CONTIGUOUS), *dj = upload(&junk, t, L_CONTIGUOUS);
                ga_array *w0 = NULL, *v0 = NULL, *w = NULL, *v = NULL;
                const char uplo = up ? 'U' : 'L';
                const bool ok = dh && dj && ga_linalg_eigh(dh, uplo, &w0, &v0) == GA_OK && ga_linalg_eigh(dj, uplo, &w, &v) == GA_OK;
                char what[96];
                snprintf(what, sizeof what, "eigh %s (%lld, %lld, %lld) UPLO %c", dname(t), (long long)batch, (long long)n,
                         (long long)n, uplo);
                CHECK(ok, "%s: %s", what, ga_last_error_message());
                const ga_dtype real = t == GA_FLOAT32 || t == GA_COMPLEX64 ? GA_FLOAT32 : GA_FLOAT64;
                double *hw0 = malloc((size_t)(batch * n) * sizeof(double)), *hw = malloc((size_t)(batch * n) * sizeof(double));
                ga_array *w0d = ok ? ga_astype(w0, GA_FLOAT64) : NULL, *wd = ok ? ga_astype(w, GA_FLOAT64) : NULL;
                if (ok && hw0 && hw && w0d && wd && download(w0d, hw0) && download(wd, hw)) {
                    double err = 0, mag = 0;
                    bool ascending = true;
                    for (int64_t i = 0; i < batch * n; i++) {
                        err = fmax(err, fabs(hw[i] - hw0[i])), mag = fmax(mag, fabs(hw0[i]));
                        if (i % n && hw[i] < hw[i - 1]) ascending = false;
                    }
                    CHECK(ga_dtype_of(w) == real && ascending && err <= solver_tol(t) * (double)n * mag, "%s: eigenvalues %g apart%s",
                          what, err / mag, ascending ? "" : ", not ascending");
                    /* H v = v w */
                    ga_array *hv = ga_matmul(dh, v), *w3 = ga_expand_dims(w, 1, (const int[]){-2});
                    ga_array *vw = w3 ? ga_multiply(v, w3) : NULL, *diff = hv && vw ? ga_subtract(hv, vw) : NULL;
                    ga_array *nd = diff ? ga_linalg_matrix_norm(diff, GA_NORM_FRO, false) : NULL;
                    ga_array *ndd = nd ? ga_astype(nd, GA_FLOAT64) : NULL;
                    double hn[3] = {0};
                    CHECK(ndd && download(ndd, hn), "%s: H v - v w: %s", what, ga_last_error_message());
                    for (int64_t q = 0; q < batch; q++)
                        CHECK(hn[q] <= solver_tol(t) * (double)n * mag, "%s: |H v - v w| = %g in matrix %lld", what, hn[q] / mag,
                              (long long)q);
                    ga_release(ndd), ga_release(nd), ga_release(diff), ga_release(vw), ga_release(w3), ga_release(hv);
                }
                free(hw0), free(hw);
                ga_release(w0d), ga_release(wd), ga_release(w0), ga_release(v0), ga_release(w), ga_release(v);
                ga_release(dh), ga_release(dj);
                host_free(&h), host_free(&junk);
                ga_clear_error();
            }
}

/* A NaN or an infinity in a matrix of a stack of 2 x 2 matrices (our
   kernel): NaN eigenvalues and eigenvectors for it, no error (NumPy's
   LAPACK raises none either), the others right; and a stack of rank-one
   matrices converges. */
DEVICE_TEST(eigh_of_a_nan)
{
    const double m[3][4] = {{2, 1, 1, 2}, {NAN, 0, 0, 1}, {1, 0, INFINITY, 1}}; /* eigenvalues 1 and 3; NaN; inf (lower) */
    ga_array *a = ga_from_host(m, 3, (const int64_t[]){3, 2, 2}, GA_FLOAT64), *w = NULL, *v = NULL;
    double hw[6] = {0}, hv[12] = {0};
    CHECK(a && ga_linalg_eigh(a, 'L', &w, &v) == GA_OK && download(w, hw) && download(v, hv), "eigh: %s", ga_last_error_message());
    CHECK(fabs(hw[0] - 1) < 1e-12 && fabs(hw[1] - 3) < 1e-12 && fabs(fabs(hv[0]) - sqrt(0.5)) < 1e-12 && all_nan(hw + 2, 4) &&
              all_nan(hv + 4, 8),
          "eigh: w %g %g %g %g, v %g %g", hw[0], hw[1], hw[2], hw[4], hv[0], hv[4]);
    ga_release(w), ga_release(v), ga_release(a);
    /* a stack of 8 x 8 ones (eigenvalues 0, seven times, and 8) converges */
    ga_array *ones = ga_ones(3, (const int64_t[]){3, 8, 8}, GA_FLOAT64), *wo = ones ? ga_linalg_eigvalsh(ones, 'L') : NULL;
    double ho[24] = {0};
    CHECK(wo && download(wo, ho), "eigvalsh of ones: %s", ga_last_error_message());
    for (int i = 0; i < 24; i++) CHECK(fabs(ho[i] - (i % 8 == 7 ? 8 : 0)) < 1e-13, "eigvalsh of ones: w[%d] = %g", i, ho[i]);
    ga_release(wo), ga_release(ones);
    ga_clear_error();
}

DEVICE_TEST(ignored_failures_are_nan)
{
    CHECK(ga_linalg_geterr() == GA_LINALG_RAISE, "the default is GA_LINALG_RAISE");
    CHECK(ga_linalg_seterr(GA_LINALG_IGNORE) == GA_LINALG_RAISE && ga_linalg_geterr() == GA_LINALG_IGNORE, "seterr");
    /* [[2, 1], [4, 3]] (inverse [[1.5, -0.5], [-2, 1]]), a singular one, 2 I */
    const double m[3][4] = {{2, 1, 4, 3}, {1, 2, 2, 4}, {2, 0, 0, 2}};
    ga_array *a = ga_from_host(m, 3, (const int64_t[]){3, 2, 2}, GA_FLOAT64), *ia = ga_linalg_inv(a);
    double h[12] = {0};
    CHECK(ia && download(ia, h) && fabs(h[0] - 1.5) < 1e-12 && fabs(h[3] - 1) < 1e-12 && all_nan(h + 4, 4) &&
              fabs(h[8] - 0.5) < 1e-12 && fabs(h[11] - 0.5) < 1e-12,
          "inv: %g %g, %g, %g (%s)", h[0], h[3], h[4], h[8], ga_last_error_message());
    ga_array *b = ga_ones(3, (const int64_t[]){3, 2, 1}, GA_FLOAT64), *x = ga_linalg_solve(a, b);
    double hx[6] = {0};
    CHECK(x && download(x, hx) && fabs(hx[0] - 1) < 1e-12 && fabs(hx[1] + 1) < 1e-12 && all_nan(hx + 2, 2) &&
              fabs(hx[4] - 0.5) < 1e-12,
          "solve: %g %g, %g, %g (%s)", hx[0], hx[1], hx[2], hx[4], ga_last_error_message());
    /* cholesky: 4 I, then [[1, 2], [2, 1]] (not positive definite): its L is NaN */
    const double c[2][4] = {{4, 0, 0, 4}, {1, 2, 2, 1}};
    ga_array *ca = ga_from_host(c, 3, (const int64_t[]){2, 2, 2}, GA_FLOAT64), *l = ga_linalg_cholesky(ca, false);
    double hl[8] = {0};
    CHECK(l && download(l, hl) && hl[0] == 2 && hl[3] == 2 && isnan(hl[4]) && isnan(hl[6]) && isnan(hl[7]),
          "cholesky: %g %g, %g %g (%s)", hl[0], hl[3], hl[4], hl[7], ga_last_error_message());
    /* one matrix, one call each: a 40 x 40 matrix of ones */
    ga_array *o = ga_ones(2, (const int64_t[]){40, 40}, GA_FLOAT64), *io = ga_linalg_inv(o), *lo = ga_linalg_cholesky(o, false);
    double *ho = malloc(40 * 40 * sizeof *ho), *hlo = malloc(40 * 40 * sizeof *hlo);
    CHECK(io && lo && ho && hlo && download(io, ho) && download(lo, hlo) && all_nan(ho, 1600) && isnan(hlo[0]) && isnan(hlo[1599]),
          "one singular 40 x 40 matrix: %s", ga_last_error_message());
    free(ho), free(hlo);
    CHECK(ga_last_error() == GA_OK, "no error recorded: %s", ga_last_error_message());
    CHECK(ga_linalg_seterr(GA_LINALG_RAISE) == GA_LINALG_IGNORE, "seterr back");
    CHECK_ERROR(ga_linalg_inv(o) == NULL, GA_ERROR_LINALG, "ga_linalg_inv: Singular matrix");
    ga_release(io), ga_release(lo), ga_release(o), ga_release(l), ga_release(ca), ga_release(x), ga_release(b), ga_release(ia);
    ga_release(a);
    ga_clear_error();
}

/* multi_dot of a row, two matrices and a column (a 0-d result), and kron
   of [[1, 2]] and [[1], [10]]. */
DEVICE_TEST(multi_dot_and_kron)
{
    const int64_t s3[1] = {3}, s33[2] = {3, 3}, s12[2] = {1, 2}, s21[2] = {2, 1};
    ga_array *v = ga_ones(1, s3, GA_FLOAT64), *m = ga_ones(2, s33, GA_FLOAT64);
    const ga_array *chain[4] = {v, m, m, v};
    ga_array *r = ga_linalg_multi_dot(4, chain);
    double x = 0;
    CHECK(r && ga_ndim(r) == 0 && download(r, &x) && x == 27, "multi_dot: %g (%s)", x, ga_last_error_message());
    CHECK_ERROR(ga_linalg_multi_dot(1, chain) == NULL, GA_ERROR_VALUE, "ga_linalg_multi_dot: Expecting at least two arrays.");
    const double ha[2] = {1, 2}, hb[2] = {1, 10};
    ga_array *a = ga_from_host(ha, 2, s12, GA_FLOAT64), *b = ga_from_host(hb, 2, s21, GA_FLOAT64);
    ga_array *k = ga_kron(a, b);
    double hk[4] = {0};
    CHECK(k && ga_ndim(k) == 2 && ga_shape(k)[0] == 2 && ga_shape(k)[1] == 2 && download(k, hk) && hk[0] == 1 &&
              hk[1] == 2 && hk[2] == 10 && hk[3] == 20,
          "kron: %g %g %g %g (%s)", hk[0], hk[1], hk[2], hk[3], ga_last_error_message());
    ga_release(k), ga_release(a), ga_release(b), ga_release(r), ga_release(v), ga_release(m);
    ga_clear_error();
}

/* svd and svdvals of diag(3, 2) with a zero row below it (m > n) and its
   transpose (m < n): s = (3, 2), and u s vh = a; the 2 and nuclear norms. */
DEVICE_TEST(svd_of_a_worked_matrix)
{
    const double h[3][2] = {{3, 0}, {0, 2}, {0, 0}};
    ga_array *a = ga_from_host(h, 2, (const int64_t[]){3, 2}, GA_FLOAT64);
    ga_array *at = a ? ga_transpose(a, NULL) : NULL;
    const ga_array *both[2] = {a, at};
    for (int k = 0; k < 2; k++) {
        ga_array *u = NULL, *s = NULL, *vh = NULL;
        CHECK_OK(ga_linalg_svd(both[k], false, &u, &s, &vh));
        double hs[2] = {0};
        CHECK(s && download(s, hs) && fabs(hs[0] - 3) < 1e-12 && fabs(hs[1] - 2) < 1e-12, "svd %d: s = %g %g", k, hs[0], hs[1]);
        ga_array *us = u && s ? ga_multiply(u, s) : NULL, *back = us ? ga_matmul(us, vh) : NULL;
        double hb[6] = {0}, want[6];
        for (int i = 0; i < 6; i++) want[i] = k == 0 ? ((const double *)h)[i] : h[i % 3][i / 3];
        bool same = back && download(back, hb);
        for (int i = 0; same && i < 6; i++) same = fabs(hb[i] - want[i]) < 1e-12;
        CHECK(same, "svd %d: u s vh is not a (%s)", k, ga_last_error_message());
        ga_release(back), ga_release(us), ga_release(u), ga_release(s), ga_release(vh);
    }
    ga_array *n2 = ga_linalg_matrix_norm(a, GA_NORM_2, false), *nn = ga_linalg_matrix_norm(a, GA_NORM_NUC, true);
    double x = 0;
    CHECK(n2 && download(n2, &x) && fabs(x - 3) < 1e-12, "matrix_norm 2: %g", x);
    CHECK(nn && ga_ndim(nn) == 2 && download(nn, &x) && fabs(x - 5) < 1e-12, "matrix_norm nuc: %g", x);
    ga_release(n2), ga_release(nn), ga_release(at), ga_release(a);
    ga_clear_error();
}

/* One svd of a (float32 or complex64, m x n, stacked `count` times) in
   the path `gram` (the float64 Gram matrix, or gesvd), checked on the
   host: u s vh = a, u and vh orthonormal, s descending; s kept in sv. */
static void check_svd_path(const char *what, const ga_array *a, bool full, bool gram, double *sv)
{
    ga__svd_gram_min = gram ? 1 : INT64_MAX;
    const int nd = ga_ndim(a);
    const int64_t m = ga_shape(a)[nd - 2], n = ga_shape(a)[nd - 1], k = m < n ? m : n, count = ga_size(a) / (m * n);
    const int64_t uc = full ? m : k, vr = full ? n : k;
    ga_array *u = NULL, *s = NULL, *vh = NULL;
    CHECK_OK(ga_linalg_svd(a, full, &u, &s, &vh));
    ga_array *cu = u ? ga_astype(u, GA_COMPLEX128) : NULL, *cv = vh ? ga_astype(vh, GA_COMPLEX128) : NULL;
    ga_array *ca = ga_astype(a, GA_COMPLEX128), *cs = s ? ga_astype(s, GA_FLOAT64) : NULL;
    double complex *hu = malloc(sizeof *hu * (size_t)(count * m * uc)), *hv = malloc(sizeof *hv * (size_t)(count * vr * n));
    double complex *ha = malloc(sizeof *ha * (size_t)(count * m * n));
    double *hs = malloc(sizeof *hs * (size_t)(count * k));
    bool got = cu && cv && cs && ga_shape(u)[nd - 1] == uc && ga_shape(vh)[nd - 2] == vr && download(cu, hu) &&
               download(cv, hv) && download(ca, ha) && download(cs, hs);
    CHECK(got, "%s: svd's outputs (%s)", what, ga_last_error_message());
    double recon = 0, norm = 0, orth = 0;
    bool sorted = true;
    for (int64_t b = 0; got && b < count; b++) {
        const double complex *U = hu + b * m * uc, *V = hv + b * vr * n, *A = ha + b * m * n;
        const double *S = hs + b * k;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex x = 0;
                for (int64_t l = 0; l < k; l++) x += U[i * uc + l] * S[l] * V[l * n + j];
                recon = fmax(recon, cabs(x - A[i * n + j])), norm = fmax(norm, cabs(A[i * n + j]));
            }
        for (int64_t p = 0; p < uc; p++)
            for (int64_t q = 0; q < uc; q++) {
                double complex d = 0;
                for (int64_t i = 0; i < m; i++) d += conj(U[i * uc + p]) * U[i * uc + q];
                orth = fmax(orth, cabs(d - (p == q)));
            }
        for (int64_t p = 0; p < vr; p++)
            for (int64_t q = 0; q < vr; q++) {
                double complex d = 0;
                for (int64_t j = 0; j < n; j++) d += V[p * n + j] * conj(V[q * n + j]);
                orth = fmax(orth, cabs(d - (p == q)));
            }
        for (int64_t l = 1; l < k; l++) sorted = sorted && S[l] <= S[l - 1];
    }
    CHECK(!got || (recon <= 1e-5 * norm * (double)k && orth <= 1e-5 && sorted),
          "%s: |u s vh - a| %g (|a| %g), orthonormality %g, s descending %d", what, recon, norm, orth, sorted);
    if (got && sv) memcpy(sv, hs, sizeof *hs * (size_t)(count * k));
    free(hu), free(hv), free(ha), free(hs);
    ga_release(cu), ga_release(cv), ga_release(ca), ga_release(cs), ga_release(u), ga_release(s), ga_release(vh);
    ga__svd_gram_min = 256;
}

/* svd of float32 and complex64 through the float64 Gram matrix (forced
   for small matrices here): tall, wide, square, stacked, rank-deficient
   and strided inputs, full and reduced; its s against gesvd's; svdvals;
   which devices and inputs take it. */
DEVICE_TEST(svd_through_the_float64_gram_matrix)
{
    const int64_t shapes[][3] = {{1, 7, 5}, {1, 5, 7}, {1, 6, 6}, {3, 9, 4}, {2, 3, 8}, {1, 1, 5}, {1, 33, 33}};
    const ga_dtype dts[2] = {GA_FLOAT32, GA_COMPLEX64};
    for (int di = 0; di < 2; di++)
        for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++)
            for (int rankdef = 0; rankdef < 2; rankdef++) {
                const int64_t cnt = shapes[c][0], m = shapes[c][1], n = shapes[c][2], k = m < n ? m : n;
                const int64_t sh[3] = {cnt, m, n};
                /* rank-deficient: the outer product of m x 2 and 2 x n */
                double complex *h = malloc(sizeof *h * (size_t)(cnt * m * n));
                for (int64_t b = 0; b < cnt; b++)
                    for (int64_t i = 0; i < m; i++)
                        for (int64_t j = 0; j < n; j++) {
                            double complex x = 0;
                            if (rankdef)
                                for (int l = 0; l < 2; l++)
                                    x += (double)((i * 7 + l * 3 + b) % 5 - 2) * (double)((j * 5 + l * 11) % 7 - 3);
                            else x = rnd_unit() * 2 - 1 + (di ? (rnd_unit() * 2 - 1) * I : 0);
                            h[(b * m + i) * n + j] = x;
                        }
                ga_array *hc = ga_from_host(h, 3, sh, GA_COMPLEX128);
                ga_array *a = hc ? ga_astype(hc, dts[di]) : NULL;
                ga_array *view = a && m > 2 ? ga_index(a, "..., ::-1, :") : NULL; /* (negative row strides) */
                free(h);
                for (int full = 0; full < 2 && a; full++) {
                    char what[96];
                    double *sg = malloc(sizeof(double) * (size_t)(cnt * k)), *sr = malloc(sizeof(double) * (size_t)(cnt * k));
                    snprintf(what, sizeof what, "%s (%lld, %lld, %lld)%s%s", ga_dtype_name(dts[di]), (long long)cnt,
                             (long long)m, (long long)n, rankdef ? " rank 2" : "", full ? " full" : "");
                    check_svd_path(what, a, full, true, sg);
                    check_svd_path(what, a, full, false, sr);
                    double most = 0;
                    for (int64_t l = 0; l < cnt * k; l++) most = fmax(most, fabs(sg[l] - sr[l]));
                    CHECK(most <= 1e-5 * fmax(1, sr[0]) * (double)k, "%s: s through the Gram matrix differs from gesvd's by %g",
                          what, most);
                    if (view) check_svd_path(what, view, full, true, NULL);
                    free(sg), free(sr);
                }
                /* svdvals through the Gram matrix */
                ga__svd_gram_min = 1;
                ga_array *sv = a ? ga_linalg_svdvals(a) : NULL;
                ga__svd_gram_min = INT64_MAX;
                ga_array *sr = a ? ga_linalg_svdvals(a) : NULL;
                ga__svd_gram_min = 256;
                ga_array *d = sv && sr ? ga_subtract(sv, sr) : NULL, *ad = d ? ga_absolute(d) : NULL;
                ga_array *mx = ad ? ga_max(ad, GA_ALL_AXES, false) : NULL, *top = sr ? ga_max(sr, GA_ALL_AXES, false) : NULL;
                float x = 1, t = 0;
                CHECK(mx && top && download(mx, &x) && download(top, &t) && x <= 1e-5f * fmaxf(1, t) * (float)k,
                      "%s (%lld, %lld): svdvals %g apart (%s)", ga_dtype_name(dts[di]), (long long)m, (long long)n, x,
                      ga_last_error_message());
                ga_release(sv), ga_release(sr), ga_release(d), ga_release(ad), ga_release(mx), ga_release(top);
                ga_release(view), ga_release(a), ga_release(hc);
            }
    /* which take it: float32 / complex64 of at least ga__svd_gram_min on a
       device whose float64 rate is half its float32 rate or better, and
       finite; never float64 */
    int ratio = 0;
    GA__CU.DeviceGetAttribute(&ratio, CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, ga__g.devices[0].handle);
    const int64_t big[2] = {300, 260};
    ga_array *f = ga_ones(2, big, GA_FLOAT32), *f64 = ga_ones(2, big, GA_FLOAT64);
    bool gram = true;
    CHECK(f && ga__svd_gram_suits("test", f, GA_FLOAT32, 260, &gram) == GA_OK && gram == (ratio >= 1 && ratio <= 2),
          "a 300 x 260 float32 matrix on a device of float32 / float64 rate %d", ratio);
    CHECK(f64 && ga__svd_gram_suits("test", f64, GA_FLOAT64, 260, &gram) == GA_OK && !gram, "float64 takes gesvd");
    CHECK(f && ga__svd_gram_suits("test", f, GA_FLOAT32, 255, &gram) == GA_OK && !gram,
          "a smaller side of 255 takes gesvd");
    CHECK(f && ga_setitem_scalar(f, "3, 5", ga_float(NAN)) == GA_OK &&
              ga__svd_gram_suits("test", f, GA_FLOAT32, 260, &gram) == GA_OK && !gram,
          "a NaN takes gesvd");
    ga_release(f), ga_release(f64);
    ga_cuda_library_info info;
    CHECK(ga_cuda_library_get_info("cusolver", &info) == GA_OK && info.state == 1 && info.handles >= 1,
          "cuSOLVER's info after the svds: state %d, %d handles", info.state, info.handles);
    ga_clear_error();
}

/* matrix_rank, cond, pinv, tensorinv and tensorsolve on worked matrices. */
DEVICE_TEST(rank_cond_pinv_tensor_solvers)
{
    const double h[3][2] = {{3, 0}, {0, 2}, {0, 0}}, r1[2][2] = {{1, 2}, {2, 4}};
    ga_array *a = ga_from_host(h, 2, (const int64_t[]){3, 2}, GA_FLOAT64);
    ga_array *b = ga_from_host(r1, 2, (const int64_t[]){2, 2}, GA_FLOAT64);
    ga_array *ra = ga_linalg_matrix_rank(a, NAN, NAN), *rb = ga_linalg_matrix_rank(b, NAN, NAN);
    int64_t ka = 0, kb = 0;
    CHECK(ra && download(ra, &ka) && ka == 2, "rank of diag(3, 2) with a zero row: %lld", (long long)ka);
    CHECK(rb && download(rb, &kb) && kb == 1, "rank of [[1, 2], [2, 4]]: %lld", (long long)kb);
    /* pinv of a: [[1/3, 0, 0], [0, 1/2, 0]] */
    ga_array *p = ga_linalg_pinv(a, NAN);
    double hp[6] = {0};
    CHECK(p && ga_shape(p)[0] == 2 && ga_shape(p)[1] == 3 && download(p, hp) && fabs(hp[0] - 1.0 / 3) < 1e-12 &&
              fabs(hp[4] - 0.5) < 1e-12 && fabs(hp[1]) < 1e-12 && fabs(hp[5]) < 1e-12,
          "pinv: %g %g %g / %g %g %g (%s)", hp[0], hp[1], hp[2], hp[3], hp[4], hp[5], ga_last_error_message());
    /* cond of diag(4, 1) (a 2x2 view of a's square) is 4 for p = 2, 1, inf */
    const double d41[2][2] = {{4, 0}, {0, 1}};
    ga_array *d = ga_from_host(d41, 2, (const int64_t[]){2, 2}, GA_FLOAT64);
    const ga_norm_ord ps[3] = {GA_NORM_2, GA_NORM_1, GA_NORM_INF};
    for (int k = 0; k < 3; k++) {
        ga_array *c = ga_linalg_cond(d, ps[k]);
        double x = 0;
        CHECK(c && download(c, &x) && fabs(x - 4) < 1e-12, "cond %d: %g (%s)", (int)ps[k], x, ga_last_error_message());
        ga_release(c);
    }
    /* tensorinv of diag(4, 1) as (2, 2) with ind 1, and tensorsolve d x = (4, 1): x = (1, 1) */
    ga_array *ti = ga_linalg_tensorinv(d, 1);
    double hi[4] = {0};
    CHECK(ti && download(ti, hi) && fabs(hi[0] - 0.25) < 1e-12 && fabs(hi[3] - 1) < 1e-12, "tensorinv: %g %g", hi[0], hi[3]);
    const double rhs[2] = {4, 1};
    ga_array *v = ga_from_host(rhs, 1, (const int64_t[]){2}, GA_FLOAT64), *x = ga_linalg_tensorsolve(d, v);
    double hx[2] = {0};
    CHECK(x && download(x, hx) && fabs(hx[0] - 1) < 1e-12 && fabs(hx[1] - 1) < 1e-12, "tensorsolve: %g %g", hx[0], hx[1]);
    CHECK_ERROR(ga_linalg_tensorinv(d, 0) == NULL, GA_ERROR_VALUE, "ga_linalg_tensorinv: Invalid ind argument.");
    ga_release(x), ga_release(v), ga_release(ti), ga_release(d), ga_release(p), ga_release(ra), ga_release(rb);
    ga_release(a), ga_release(b);
    ga_clear_error();
}

/* qr of a (5, 3) and a (3, 5) matrix in every mode: the shapes, q r = a,
   q's orthonormal columns (q^H q = I). */
DEVICE_TEST(qr_every_mode)
{
    for (int tall = 0; tall < 2; tall++) {
        const int64_t sh[2] = {tall ? 5 : 3, tall ? 3 : 5}, m = sh[0], n = sh[1], k = m < n ? m : n;
        host a = host_random(GA_FLOAT64, 2, sh);
        ga_array *da = upload(&a, GA_FLOAT64, L_CONTIGUOUS);
        const ga_qr_mode modes[4] = {GA_QR_REDUCED, GA_QR_COMPLETE, GA_QR_R, GA_QR_RAW};
        const int64_t want_q[4][2] = {{m, k}, {m, m}, {0, 0}, {n, m}}, want_r[4][2] = {{k, n}, {m, n}, {k, n}, {k, 0}};
        for (int md = 0; md < 4; md++) {
            ga_array *q = NULL, *r = NULL;
            CHECK_OK(ga_linalg_qr(da, modes[md], &q, &r));
            if (!r) continue;
            CHECK(ga_shape(r)[0] == want_r[md][0] && (md == 3 || ga_shape(r)[1] == want_r[md][1]), "qr mode %d: r's shape", md);
            if (md != 3 && md != 2 && q) {
                CHECK(ga_shape(q)[0] == want_q[md][0] && ga_shape(q)[1] == want_q[md][1], "qr mode %d: q's shape", md);
                ga_array *qr = ga_matmul(q, r);
                long double *ones = calloc((size_t)(m * n), sizeof(long double));
                for (int64_t i = 0; i < m * n; i++) ones[i] = 10; /* (a generous tolerance: q r rounds) */
                char what[48];
                snprintf(what, sizeof what, "qr mode %d (%lld, %lld): q r", md, (long long)m, (long long)n);
                check_result(what, GA_FLOAT64, qr, &a, ones, n);
                free(ones);
                ga_release(qr);
            }
            ga_release(q), ga_release(r);
        }
        ga_release(da);
        host_free(&a);
    }
    ga_clear_error();
}

/* lstsq: the line through (0, 1), (1, 3), (2, 5) is y = 1 + 2 x, exactly
   (residual 0, rank 2); a 1-d b; the errors. */
DEVICE_TEST(lstsq_of_a_line)
{
    const double h[3][2] = {{1, 0}, {1, 1}, {1, 2}}, y[3] = {1, 3, 5};
    ga_array *a = ga_from_host(h, 2, (const int64_t[]){3, 2}, GA_FLOAT64), *b = ga_from_host(y, 1, (const int64_t[]){3}, GA_FLOAT64);
    ga_array *x = NULL, *res = NULL, *rank = NULL, *s = NULL;
    CHECK_OK(ga_linalg_lstsq(a, b, NAN, &x, &res, &rank, &s));
    double hx[2] = {0}, hr = 1;
    int64_t k = 0;
    CHECK(x && ga_ndim(x) == 1 && download(x, hx) && fabs(hx[0] - 1) < 1e-12 && fabs(hx[1] - 2) < 1e-12, "lstsq x: %g %g", hx[0], hx[1]);
    CHECK(res && ga_ndim(res) == 1 && ga_shape(res)[0] == 1 && download(res, &hr) && fabs(hr) < 1e-20, "lstsq residual: %g", hr);
    CHECK(rank && ga_ndim(rank) == 0 && download(rank, &k) && k == 2, "lstsq rank: %lld", (long long)k);
    CHECK(s && ga_shape(s)[0] == 2, "lstsq s");
    ga_release(x), ga_release(res), ga_release(rank), ga_release(s);
    ga_array *b4 = ga_ones(1, (const int64_t[]){4}, GA_FLOAT64);
    CHECK_ERROR(ga_linalg_lstsq(a, b4, NAN, &x, &res, &rank, &s) != GA_OK, GA_ERROR_LINALG, "ga_linalg_lstsq: Incompatible dimensions");
    ga_release(b4), ga_release(a), ga_release(b);
    ga_clear_error();
}

/* lstsq of tall matrices (m >= 2n: through a = QR and the svd of R), 50 x 6
   float64 of a fixed pseudo-random fill: a^T (a x - b) = 0, the rank, the
   residual |a x - b|^2 (full rank) or none (rank 5: the last column the sum
   of the first two; the minimum-norm x has no part along the null vector
   (1, 1, 0, 0, 0, -1)). */
DEVICE_TEST(lstsq_of_tall_matrices)
{
    enum { M = 50, N = 6 };
    double h[M][N], x0[N] = {1, -2, 0.5, 3, -1, 2}, y[M];
    uint64_t state = 12345;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            h[i][j] = (double)(state >> 11) / 9007199254740992.0 - 0.5;
        }
    for (int deficient = 0; deficient < 2; deficient++) {
        if (deficient)
            for (int i = 0; i < M; i++) h[i][N - 1] = h[i][0] + h[i][1];
        /* b = a x0 plus a wave that no column fits: checked through the
           normal equations */
        for (int i = 0; i < M; i++) {
            y[i] = 0;
            for (int j = 0; j < N; j++) y[i] += h[i][j] * x0[j];
            y[i] += 0.01 * sin(3.0 * i);
        }
        ga_array *a = ga_from_host(h, 2, (const int64_t[]){M, N}, GA_FLOAT64), *b = ga_from_host(y, 1, (const int64_t[]){M}, GA_FLOAT64);
        ga_array *x = NULL, *res = NULL, *rank = NULL, *s = NULL;
        CHECK_OK(ga_linalg_lstsq(a, b, NAN, &x, &res, &rank, &s));
        double hx[N] = {0}, hs[N] = {0}, hr = -1;
        int64_t k = 0;
        const bool got = x && s && rank && res && download(x, hx) && download(s, hs) && download(rank, &k);
        CHECK(got, "lstsq %s: %s", deficient ? "rank 5" : "full rank", ga_last_error_message());
        if (got) {
            /* the normal equations: a^T (a x - b) = 0 */
            double worst = 0, rr = 0;
            for (int j = 0; j < N; j++) {
                double g = 0;
                for (int i = 0; i < M; i++) {
                    double ri = -y[i];
                    for (int c = 0; c < N; c++) ri += h[i][c] * hx[c];
                    g += h[i][j] * ri;
                    if (j == 0) rr += ri * ri;
                }
                worst = fmax(worst, fabs(g));
            }
            CHECK(worst < 1e-12, "lstsq %s: a^T (a x - b) up to %g", deficient ? "rank 5" : "full rank", worst);
            CHECK(k == (deficient ? 5 : 6), "lstsq rank %lld", (long long)k);
            CHECK(hs[0] >= hs[N - 1] && (deficient ? hs[N - 1] < 1e-13 * hs[0] : hs[N - 1] > 1e-3), "lstsq s %g .. %g", hs[0], hs[N - 1]);
            if (deficient) {
                const double along = hx[0] + hx[1] - hx[N - 1];
                CHECK(fabs(along) < 1e-12, "lstsq rank 5: x along the null vector %g (the minimum norm has 0)", along);
                CHECK(ga_shape(res)[0] == 0, "lstsq rank 5: residuals of shape (%lld,), NumPy's (0,)", (long long)ga_shape(res)[0]);
            } else {
                CHECK(ga_shape(res)[0] == 1 && download(res, &hr) && fabs(hr - rr) < 1e-12 * (1 + rr), "lstsq residual %.17g, |a x - b|^2 %.17g", hr, rr);
            }
        }
        ga_release(x), ga_release(res), ga_release(rank), ga_release(s), ga_release(a), ga_release(b);
    }
    ga_clear_error();
}

/* eig of diag(2, 3) is real (2, 3); of the rotation [[0, -1], [1, 0]]
   complex (i, -i), with a v = v w. */
DEVICE_TEST(eig_real_and_complex)
{
    const double d[2][2] = {{2, 0}, {0, 3}}, rot[2][2] = {{0, -1}, {1, 0}};
    ga_array *a = ga_from_host(d, 2, (const int64_t[]){2, 2}, GA_FLOAT64), *b = ga_from_host(rot, 2, (const int64_t[]){2, 2}, GA_FLOAT64);
    ga_array *wa = ga_linalg_eigvals(a), *wb = NULL, *vb = NULL;
    double h[4] = {0};
    /* complex even where every eigenvalue is real (NumPy 2.5) */
    CHECK(wa && ga_dtype_of(wa) == GA_COMPLEX128 && download(wa, h) && h[1] == 0 && h[3] == 0 &&
              ((h[0] == 2 && h[2] == 3) || (h[0] == 3 && h[2] == 2)),
          "eigvals of diag(2, 3): %g%+gj %g%+gj (%s)", h[0], h[1], h[2], h[3], ga_last_error_message());
    CHECK_OK(ga_linalg_eig(b, &wb, &vb));
    CHECK(wb && ga_dtype_of(wb) == GA_COMPLEX128 && download(wb, h) && fabs(h[0]) < 1e-12 && fabs(fabs(h[1]) - 1) < 1e-12 &&
              fabs(h[3] + h[1]) < 1e-12,
          "eigvals of a rotation: %g%+gj %g%+gj", h[0], h[1], h[2], h[3]);
    ga_array *av = vb ? ga_matmul(b, vb) : NULL, *w2 = wb ? ga_expand_dims(wb, 1, (const int[]){0}) : NULL;
    ga_array *vw = vb && w2 ? ga_multiply(vb, w2) : NULL, *diff = av && vw ? ga_subtract(av, vw) : NULL;
    ga_array *nd = diff ? ga_linalg_matrix_norm(diff, GA_NORM_FRO, false) : NULL;
    double e = 1;
    CHECK(nd && download(nd, &e) && e < 1e-12, "eig of a rotation: |a v - v w| = %g", e);
    ga_array *r23 = ga_ones(2, (const int64_t[]){2, 3}, GA_FLOAT64);
    CHECK_ERROR(ga_linalg_eigvals(r23) == NULL, GA_ERROR_LINALG, "ga_linalg_eigvals: Last 2 dimensions of the array must be square");
    ga_release(r23), ga_release(nd), ga_release(diff), ga_release(vw), ga_release(w2), ga_release(av), ga_release(wb), ga_release(vb);
    ga_release(wa), ga_release(a), ga_release(b);
    ga_clear_error();
}

/* cross of x and y is z; 2-vectors are refused by both (NumPy 2.5). */
DEVICE_TEST(cross_products)
{
    const double x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, p[2] = {1, 2}, q[2] = {3, 4};
    ga_array *a = ga_from_host(x, 1, (const int64_t[]){3}, GA_FLOAT64), *b = ga_from_host(y, 1, (const int64_t[]){3}, GA_FLOAT64);
    ga_array *c = ga_cross(a, b, -1), *l = ga_linalg_cross(a, b, -1);
    double h[3] = {0};
    CHECK(c && download(c, h) && h[0] == 0 && h[1] == 0 && h[2] == 1, "cross(x, y): %g %g %g", h[0], h[1], h[2]);
    CHECK(l && download(l, h) && h[2] == 1, "linalg.cross(x, y): %g", h[2]);
    ga_array *u = ga_from_host(p, 1, (const int64_t[]){2}, GA_FLOAT64), *v = ga_from_host(q, 1, (const int64_t[]){2}, GA_FLOAT64);
    CHECK_ERROR(ga_cross(u, a, -1) == NULL, GA_ERROR_VALUE,
                "ga_cross: Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 3 dimensional instead.");
    CHECK_ERROR(ga_linalg_cross(u, v, -1) == NULL, GA_ERROR_VALUE,
                "ga_linalg_cross: Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 2 dimensional instead.");
    ga_release(u), ga_release(v), ga_release(c), ga_release(l), ga_release(a), ga_release(b);
    ga_clear_error();
}
