/* Tests of the sparse matrices (gpuarr.h, >>sparse): loading cuSPARSE and
   the argument checks that need no GPU (host tests); on the GPU, against
   dense references computed on the host: CSR, CSC and COO of every dtype
   of scipy.sparse, built from arrays (sorted, unsorted, with duplicates,
   empty rows, empty and non-square matrices) and from dense arrays, eye,
   identity, diags, random (against the generator's own draws), kron,
   hstack, vstack, block_diag, tril and triu; elementwise multiply,
   maximum, minimum (sparse, dense, scalar) and the comparisons with
   scalars; mean, max, min, argmax, argmin, diagonal, trace, linalg.norm,
   spsolve_triangular, cg's preconditioner and callback, gmres, minres; capture
   refusals at the entry; CSR <-> CSC array for array against SciPy's
   counting sort (both of the section's conversions, every dtype and
   index dtype, digit edges, duplicates, unsorted input, explicit zeros);
   every conversion, toarray, astype, copy, conj,
   transpose, sum_duplicates, sort_indices, eliminate_zeros,
   count_nonzero; sparse @ dense (vectors, C- and F-ordered matrices) and
   dense @ sparse with SciPy's dtype promotion; the int64 index paths;
   malformed structures refused in SciPy's words with nothing leaked;
   scopes; a missing cuSPARSE named in the error; load_npz of files SciPy's
   save_npz wrote (tests/sparse_npz_cases.h) and save_npz writing the
   members SciPy writes, byte for byte, and SciPy's refusals. */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"
#include "harness.h"
#include "cuda_library.h"
#include "ref.h"
#include "sparse_npz_cases.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static const ga_dtype sparse_dtypes[] = {GA_BOOL,    GA_INT8,    GA_INT16,   GA_INT32,     GA_INT64,
                                         GA_UINT8,   GA_UINT16,  GA_UINT32,  GA_UINT64,    GA_FLOAT32,
                                         GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128};
#define NDTYPES ((int)(sizeof sparse_dtypes / sizeof sparse_dtypes[0]))
static const ga_sparse_format formats[] = {GA_SPARSE_CSR, GA_SPARSE_CSC, GA_SPARSE_COO};
static const char *const format_names[] = {"csr", "csc", "coo"};

/* The current device's pool: bytes handed out. */
static size_t used_bytes(void)
{
    ga_memory_stats st;
    return ga_memory_get_stats(ga_device_get(), &st) == GA_OK ? st.used_bytes : 0;
}

/* ---- loading cuSPARSE and the host-side checks ------------------------------- */

TEST(cusparse_loading_errors_name_the_file)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    CHECK(ga_cuda_library_load("cusparse") == GA_OK, "linked: %s", ga_last_error_message());
    return;
#endif
    char *saved = getenv("GPUARR_CUSPARSE_LIBRARY") ? strdup(getenv("GPUARR_CUSPARSE_LIBRARY")) : NULL;
    setenv("GPUARR_CUSPARSE_LIBRARY", "/nonexistent/libcusparse.so.12", 1);
    ga_shutdown();
    CHECK_ERROR(ga_cuda_library_load("cusparse") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: /nonexistent/libcusparse.so.12 could not be loaded: ");
    ga_shutdown();
    setenv("GPUARR_CUSPARSE_LIBRARY", "libm.so.6", 1);
    CHECK_ERROR(ga_cuda_library_load("cusparse") != GA_OK, GA_ERROR_LIBRARY,
                "ga_cuda_library_load: libm.so.6 has no cusparseCreate");
    ga_shutdown();
    if (saved) setenv("GPUARR_CUSPARSE_LIBRARY", saved, 1);
    else unsetenv("GPUARR_CUSPARSE_LIBRARY");
    free(saved);
}

/* (before any test loads cuSPARSE: a loaded library stays loaded until
   the process ends) */
DEVICE_TEST(missing_cusparse_is_an_error_naming_the_file)
{
#ifdef GPUARR_LINK_CUDA_LIBRARIES
    return;
#endif
    char *saved = getenv("GPUARR_CUSPARSE_LIBRARY") ? strdup(getenv("GPUARR_CUSPARSE_LIBRARY")) : NULL;
    setenv("GPUARR_CUSPARSE_LIBRARY", "/nonexistent/libcusparse.so.12", 1);
    ga_shutdown();
    ga_sparse *s = ga_sparse_eye(3, 3, 0, GA_FLOAT32, GA_SPARSE_CSR);
    ga_array *x = ga_ones(GA_SHAPE(3), GA_FLOAT32);
    CHECK(s && x, "eye and ones need no cuSPARSE: %s", ga_last_error_message());
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_matmul(s, x) == NULL, GA_ERROR_LIBRARY,
                "ga_sparse_matmul: /nonexistent/libcusparse.so.12 could not be loaded");
    CHECK(used_bytes() == before, "nothing left in use after the failure");
    ga_release(x);
    ga_sparse_release(s);
    ga_shutdown();
    if (saved) setenv("GPUARR_CUSPARSE_LIBRARY", saved, 1);
    else unsetenv("GPUARR_CUSPARSE_LIBRARY");
    free(saved);
    ga_init();
}

TEST(cusparse_loads_every_entry_point)
{
    check_every_entry_point("cusparse", "GPUARR_CUSPARSE_LIBRARY", "libcusparse.so.12", ga__cusparse_entry_points,
                            &ga__cusparse);
}

TEST(arguments_refused_before_the_device)
{
    CHECK_ERROR(ga_sparse_eye(-1, 3, 0, GA_FLOAT32, GA_SPARSE_CSR) == NULL, GA_ERROR_VALUE,
                "ga_sparse_eye: negative dimensions are not allowed");
    CHECK_ERROR(ga_sparse_identity(3, GA_FLOAT16, GA_SPARSE_CSR) == NULL, GA_ERROR_TYPE,
                "ga_sparse_identity: scipy.sparse does not support dtype float16");
    CHECK_ERROR(ga_sparse_eye(3, 3, 0, GA_BFLOAT16, GA_SPARSE_COO) == NULL, GA_ERROR_TYPE, "does not support dtype bfloat16");
    CHECK_ERROR(ga_sparse_eye(3, 3, 0, GA_FLOAT32, (ga_sparse_format)7) == NULL, GA_ERROR_VALUE, "Format 7 is unknown.");
    CHECK_ERROR(ga_sparse_csr_matrix(NULL, NULL, NULL, NULL) == NULL, GA_ERROR_NULL_INPUT,
                "ga_sparse_csr_matrix: data is NULL");
    CHECK_ERROR(ga_sparse_coo_matrix(NULL, NULL, NULL, NULL) == NULL, GA_ERROR_NULL_INPUT, "data is NULL");
    CHECK_ERROR(ga_sparse_diags(0, NULL, NULL, NULL, GA_SPARSE_CSR, GA_FLOAT32) == NULL, GA_ERROR_VALUE,
                "Different number of diagonals and offsets.");
    CHECK_ERROR(ga_sparse_tocsr(NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_tocsr: s is NULL");
    CHECK_ERROR(ga_sparse_matmul(NULL, NULL) == NULL, GA_ERROR_NULL_INPUT, "a is NULL");
    CHECK_ERROR(ga_sparse_sum_duplicates(NULL) != GA_OK, GA_ERROR_NULL_INPUT, "s is NULL");
    CHECK(ga_sparse_nnz(NULL) == -1 && ga_sparse_shape(NULL) == NULL && ga_sparse_dtype_of(NULL) == GA_DTYPE_INVALID &&
              !ga_sparse_has_canonical_format(NULL) && ga_sparse_count_nonzero(NULL) == -1,
          "attributes of NULL");
    ga_clear_error();
    ga_sparse_release(NULL);
    CHECK(ga_sparse_retain(NULL) == NULL && ga_sparse_keep(NULL) == NULL, "retain / keep of NULL");
}

/* ---- save_npz / load_npz: SciPy's files ---------------------------------------- */

/* A file of build/tests/sparse named for this process (shards run at once). */
static const char *npz_path(const char *name)
{
    static char path[200];
    mkdir("build", 0755), mkdir("build/tests", 0755), mkdir("build/tests/sparse", 0755);
    snprintf(path, sizeof path, "build/tests/sparse/%ld_%s", (long)getpid(), name);
    return path;
}

/* Case c's bytes as a file: its path. */
static const char *npz_case_file(const sparse_npz_case *c)
{
    const char *path = npz_path("case.npz");
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(c->bytes, 1, (size_t)c->len, f) == (size_t)c->len, "writing %s", path);
    if (f) fclose(f);
    return path;
}

/* The "format" member as text, and the refusals that need no device:
   no "format", an unknown one, a "format" that is not one string. */
TEST(load_npz_format_member_and_host_refusals)
{
    CHECK_ERROR(ga_sparse_load_npz(NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_load_npz: file is NULL");
    CHECK_ERROR(ga_sparse_save_npz("x.npz", NULL, true) != GA_OK, GA_ERROR_NULL_INPUT, "ga_sparse_save_npz: m is NULL");
    CHECK_ERROR(ga_sparse_save_npz(NULL, NULL, true) != GA_OK, GA_ERROR_NULL_INPUT, "ga_sparse_save_npz: file is NULL");
    CHECK_ERROR(ga_sparse_load_npz("/nonexistent.npz") == NULL, GA_ERROR_IO, "No such file or directory");
    int seen = 0;
    for (size_t i = 0; i < sizeof sparse_npz_cases / sizeof sparse_npz_cases[0]; i++) {
        const sparse_npz_case *c = &sparse_npz_cases[i];
        const char *path = npz_case_file(c);
        ga_npz *z = ga_load_npz(path);
        CHECK(z != NULL, "%s: ga_load_npz: %s", c->name, ga_last_error_message());
        if (!z) continue;
        char text[64] = "?";
        if (c->code == GA_OK) { /* every file SciPy reads: its format, as text */
            static const char *const names[] = {"csr", "csc", "coo"};
            ga_status st = ga__npz_get_text("t", z, "format", text, sizeof text);
            CHECK(st == GA_OK && strcmp(text, names[c->format]) == 0, "%s: format \"%s\" (%s)", c->name, text,
                  ga_last_error_message());
            /* cut to fit */
            char two[3];
            CHECK(ga__npz_get_text("t", z, "format", two, sizeof two) == GA_OK && strlen(two) == 2 &&
                      strncmp(two, names[c->format], 2) == 0,
                  "%s: format cut to 2: \"%s\"", c->name, two);
            /* a member of numbers is not a string */
            CHECK_ERROR(ga__npz_get_text("t", z, "data", text, sizeof text) != GA_OK, GA_ERROR_TYPE, "data.npy is not one string");
            CHECK_ERROR(ga__npz_get_text("t", z, "nothing", text, sizeof text) != GA_OK, GA_ERROR_VALUE,
                        "nothing is not a file in the archive");
            seen++;
        } else if (strstr(c->text, "does not contain") || strcmp(c->name, "unknown format") == 0) {
            char want[300];
            if (strstr(c->text, "does not contain")) snprintf(want, sizeof want, "The file %s %s", path, c->text);
            else snprintf(want, sizeof want, "%s", c->text);
            CHECK_ERROR(ga_sparse_load_npz(path) == NULL, c->code, want);
            seen++;
        }
        ga_npz_close(z);
        ga_clear_error();
    }
    CHECK(seen >= 14, "%d files checked", seen);
    /* the members save_npz writes from the host, "format" and "shape", the
       bytes SciPy's are (stored and deflated) */
    for (size_t i = 0; i < sizeof sparse_npz_cases / sizeof sparse_npz_cases[0]; i++) {
        const sparse_npz_case *c = &sparse_npz_cases[i];
        if (c->code != GA_OK || strstr(c->name, "format") || strstr(c->name, "coords")) continue;
        static const char *const names[] = {"csr", "csc", "coo"};
        unsigned char shape[16];
        ga__put64(shape, (uint64_t)c->m), ga__put64(shape + 8, (uint64_t)c->n);
        const ga__npz_raw fmt = {"|S3", 0, {0}, names[c->format], 3}, sh = {"<i8", 1, {2}, shape, 16};
        const ga__npz_raw *raws[2] = {&fmt, &sh};
        const char *member_names[2] = {"format", "shape"};
        const ga_array *arrays[2] = {NULL, NULL};
        const char *path = npz_path("raw.npz");
        CHECK(ga__savez("t", path, 2, member_names, arrays, raws, i % 2 == 1) == GA_OK, "%s: raw members: %s", c->name,
              ga_last_error_message());
        ga_npz *z = ga_load_npz(path);
        for (int k = 0; z && k < c->nmembers; k++) {
            const bool f = strcmp(c->members[k].name, "format.npy") == 0, h = strcmp(c->members[k].name, "shape.npy") == 0;
            if (!f && !h) continue;
            const int j = ga__npz_find(z, c->members[k].name);
            CHECK(j == (f ? 0 : 1) && z->entries[j].crc == c->members[k].crc && z->entries[j].usize == (uint64_t)c->members[k].size,
                  "%s: %s as SciPy's", c->name, c->members[k].name);
        }
        char text[8] = "?";
        CHECK(z && ga__npz_get_text("t", z, "format", text, sizeof text) == GA_OK && strcmp(text, names[c->format]) == 0,
              "%s: format read back: %s", c->name, text);
        ga_npz_close(z);
        ga_clear_error();
    }
}

/* ---- host references ---------------------------------------------------------------- */

/* A matrix on the host as COO triplets (in the order given), values exact
   in every dtype: small integers (complex: two of them). */
typedef struct triplets {
    int64_t m, n, nnz;
    int64_t *row, *col;
    long double *re, *im;
} triplets;

static triplets trip_new(int64_t m, int64_t n, int64_t nnz)
{
    triplets t = {m, n, nnz, calloc((size_t)nnz + 1, 8), calloc((size_t)nnz + 1, 8),
                  calloc((size_t)nnz + 1, sizeof(long double)), calloc((size_t)nnz + 1, sizeof(long double))};
    return t;
}

static void trip_free(triplets *t)
{
    free(t->row), free(t->col), free(t->re), free(t->im);
}

/* The value of a random entry for dtype t: integers in [-3, 3] (unsigned
   [0, 3], bool 0 or 1), some zeros. */
static void draw_value(ga_dtype t, long double *re, long double *im)
{
    int64_t lo = t == GA_BOOL ? 0 : ga_dtype_kind(t) == 'u' ? 0 : -3, hi = t == GA_BOOL ? 1 : 3;
    *re = (long double)(lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)));
    *im = is_complex(t) ? (long double)((int64_t)(rnd() % 7) - 3) : 0;
}

/* A random m x n matrix of about nnz entries: `dups` gives some duplicate
   coordinates; sorted by (row, col) unless `shuffled`. */
static triplets trip_random(ga_dtype t, int64_t m, int64_t n, int64_t nnz, bool dups, bool shuffled)
{
    if (m == 0 || n == 0) nnz = 0;
    triplets r = trip_new(m, n, nnz);
    for (int64_t j = 0; j < nnz; j++) {
        if (dups && j > 0 && rnd() % 4 == 0) {
            int64_t k = (int64_t)(rnd() % (uint64_t)j);
            r.row[j] = r.row[k], r.col[j] = r.col[k];
        } else {
            r.row[j] = (int64_t)(rnd() % (uint64_t)m);
            r.col[j] = (int64_t)(rnd() % (uint64_t)n);
        }
        draw_value(t, &r.re[j], &r.im[j]);
    }
    if (!shuffled || !dups) { /* sort by (row, col) (insertion: the sizes are small) */
        for (int64_t i = 1; i < nnz; i++)
            for (int64_t j = i; j > 0 && (r.row[j - 1] > r.row[j] || (r.row[j - 1] == r.row[j] && r.col[j - 1] > r.col[j])); j--) {
                int64_t a = r.row[j], b = r.col[j];
                long double c = r.re[j], d = r.im[j];
                r.row[j] = r.row[j - 1], r.col[j] = r.col[j - 1], r.re[j] = r.re[j - 1], r.im[j] = r.im[j - 1];
                r.row[j - 1] = a, r.col[j - 1] = b, r.re[j - 1] = c, r.im[j - 1] = d;
            }
    }
    if (!dups && nnz > 1) { /* drop repeated coordinates */
        int64_t w = 1;
        for (int64_t j = 1; j < nnz; j++)
            if (r.row[j] != r.row[w - 1] || r.col[j] != r.col[w - 1])
                r.row[w] = r.row[j], r.col[w] = r.col[j], r.re[w] = r.re[j], r.im[w] = r.im[j], w++;
        r.nnz = w;
        if (shuffled)
            for (int64_t j = w - 1; j > 0; j--) {
                int64_t k = (int64_t)(rnd() % (uint64_t)(j + 1));
                int64_t a = r.row[j], b = r.col[j];
                long double c = r.re[j], d = r.im[j];
                r.row[j] = r.row[k], r.col[j] = r.col[k], r.re[j] = r.re[k], r.im[j] = r.im[k];
                r.row[k] = a, r.col[k] = b, r.re[k] = c, r.im[k] = d;
            }
    }
    return r;
}

/* The dense m x n reference (duplicates summed; bool: or). */
static void trip_dense(const triplets *t, ga_dtype dt, long double *re, long double *im)
{
    for (int64_t i = 0; i < t->m * t->n; i++) re[i] = im[i] = 0;
    for (int64_t j = 0; j < t->nnz; j++) {
        int64_t at = t->row[j] * t->n + t->col[j];
        if (dt == GA_BOOL) re[at] = (re[at] != 0 || t->re[j] != 0) ? 1 : 0;
        else re[at] += t->re[j], im[at] += t->im[j];
    }
}

/* A 1-d device array of n int64 values as dtype it. */
static ga_array *upload_index(const int64_t *v, int64_t n, ga_dtype it)
{
    void *buf = malloc((size_t)(n ? n : 1) * 8);
    for (int64_t j = 0; j < n; j++) {
        if (it == GA_INT32) ((int32_t *)buf)[j] = (int32_t)v[j];
        else memcpy((char *)buf + j * 8, &v[j], 8);
    }
    ga_array *a = ga_from_host(buf, 1, &n, it);
    free(buf);
    return a;
}

static ga_array *upload_values(const long double *re, const long double *im, int64_t n, ga_dtype t)
{
    unsigned char *buf = malloc((size_t)(n ? n : 1) * isz(t));
    for (int64_t j = 0; j < n; j++) store(t, re[j], im[j], buf + (size_t)j * isz(t));
    ga_array *a = ga_from_host(buf, 1, &n, t);
    free(buf);
    return a;
}

/* The triplets (sorted by row then column when the format is compressed,
   or as given for COO) as a matrix of `format` (CSC from the triplets of
   the transpose). */
static ga_sparse *make_sparse(const triplets *t, ga_dtype dt, ga_sparse_format f, ga_dtype it)
{
    const int64_t shape[2] = {t->m, t->n};
    ga_array *data = upload_values(t->re, t->im, t->nnz, dt);
    if (f == GA_SPARSE_COO) {
        ga_array *row = upload_index(t->row, t->nnz, it), *col = upload_index(t->col, t->nnz, it);
        ga_sparse *s = ga_sparse_coo_matrix(data, row, col, shape);
        ga_release(data), ga_release(row), ga_release(col);
        return s;
    }
    /* compressed: counting sort by the major index, the order within kept */
    const bool csr = f == GA_SPARSE_CSR;
    const int64_t major = csr ? t->m : t->n;
    int64_t *ptr = calloc((size_t)major + 2, 8), *idx = malloc((size_t)t->nnz * 8 + 8), *perm = malloc((size_t)t->nnz * 8 + 8);
    for (int64_t j = 0; j < t->nnz; j++) ptr[(csr ? t->row[j] : t->col[j]) + 1]++;
    for (int64_t i = 0; i < major; i++) ptr[i + 1] += ptr[i];
    int64_t *fill = calloc((size_t)major + 1, 8);
    for (int64_t j = 0; j < t->nnz; j++) {
        int64_t r = csr ? t->row[j] : t->col[j], p = ptr[r] + fill[r]++;
        idx[p] = csr ? t->col[j] : t->row[j];
        perm[p] = j;
    }
    long double *re = malloc(sizeof(long double) * ((size_t)t->nnz + 1)), *im = malloc(sizeof(long double) * ((size_t)t->nnz + 1));
    for (int64_t p = 0; p < t->nnz; p++) re[p] = t->re[perm[p]], im[p] = t->im[perm[p]];
    ga_release(data);
    data = upload_values(re, im, t->nnz, dt);
    ga_array *indices = upload_index(idx, t->nnz, it), *indptr = upload_index(ptr, major + 1, it);
    ga_sparse *s = csr ? ga_sparse_csr_matrix(data, indices, indptr, shape) : ga_sparse_csc_matrix(data, indices, indptr, shape);
    ga_release(data), ga_release(indices), ga_release(indptr);
    free(ptr), free(idx), free(perm), free(fill), free(re), free(im);
    return s;
}

/* Compares a device 2-d (or 1-d) array with the reference (bool: truth). */
static void check_dense(const ga_array *a, const long double *re, const long double *im, int64_t size, ga_dtype dt,
                        long double tol, const char *what)
{
    if (!a) {
        CHECK(false, "%s: failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    CHECK(ga_dtype_of(a) == dt, "%s: dtype %s, expected %s", what, dname(ga_dtype_of(a)), dname(dt));
    CHECK(ga_size(a) == size, "%s: size %lld, expected %lld", what, (long long)ga_size(a), (long long)size);
    if (ga_dtype_of(a) != dt || ga_size(a) != size) return;
    unsigned char *m = malloc(ga_nbytes(a) ? ga_nbytes(a) : 1);
    ga_array *c = ga_ascontiguousarray(a);
    if (c && download(c, m)) {
        int bad = 0;
        for (int64_t i = 0; i < size && bad < 3; i++) {
            elem e = load(dt, m + (size_t)i * isz(dt));
            long double gr = value_of(dt, e), gi = is_complex(dt) ? e.im : 0;
            long double wr = re[i], wi = is_complex(dt) ? im[i] : 0;
            if (dt == GA_BOOL) wr = wr != 0;
            else if (is_exact(dt)) { /* wrap-around of the reference */
                uint64_t w = wrap(dt, (uint64_t)(int64_t)wr);
                wr = is_signed(dt) ? (long double)(int64_t)w : (long double)w;
            }
            const bool both_nan = isnan(gr) && isnan(wr); /* (SciPy's sqrt of a wrapped negative sum) */
            if (!both_nan && !(fabsl(gr - wr) + fabsl(gi - wi) <= tol)) {
                CHECK(false, "%s: element %lld is (%Lg, %Lg), expected (%Lg, %Lg)", what, (long long)i, gr, gi, wr, wi);
                bad++;
            }
        }
    }
    ga_release(c);
    free(m);
}

/* s as a dense array against the triplets' reference. */
static void check_sparse(const ga_sparse *s, const triplets *t, ga_dtype dt, const char *what)
{
    if (!s) {
        CHECK(false, "%s: failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return;
    }
    CHECK(ga_sparse_shape(s)[0] == t->m && ga_sparse_shape(s)[1] == t->n, "%s: shape (%lld, %lld)", what,
          (long long)ga_sparse_shape(s)[0], (long long)ga_sparse_shape(s)[1]);
    long double *re = malloc(sizeof(long double) * (size_t)(t->m * t->n + 1)), *im = malloc(sizeof(long double) * (size_t)(t->m * t->n + 1));
    trip_dense(t, dt, re, im);
    ga_array *d = ga_sparse_toarray(s);
    check_dense(d, re, im, t->m * t->n, dt, 0, what);
    ga_release(d);
    free(re), free(im);
}

/* The first n elements of 1-d x (a view). */
static ga_array *head_of(const ga_array *x, int64_t n)
{
    return ga_as_strided(x, 1, &n, ga_strides(x), 0);
}

/* ---- construction, conversions, toarray ---------------------------------------------- */

/* Every format from every format, each against the reference. */
static void check_conversions(const ga_sparse *s, const triplets *t, ga_dtype dt, const char *what)
{
    char w[256];
    for (int g = 0; g < 3; g++) {
        ga_sparse *c = ga_sparse_asformat(s, formats[g]);
        snprintf(w, sizeof w, "%s -> %s", what, format_names[g]);
        check_sparse(c, t, dt, w);
        if (c) CHECK(ga_sparse_format_of(c) == formats[g], "%s: format %d", w, (int)ga_sparse_format_of(c));
        if (c && ga_sparse_format_of(s) == GA_SPARSE_COO && formats[g] != GA_SPARSE_COO)
            CHECK(ga_sparse_has_canonical_format(c), "%s: COO -> compressed is canonical", w);
        ga_sparse_release(c);
    }
}

static void run_formats(ga_dtype it, int64_t m, int64_t n, int64_t nnz, bool dups, bool shuffled, const char *label)
{
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        for (int f = 0; f < 3; f++) {
            if (!test_sample(k * 3 + f, 3)) continue;
            triplets t = trip_random(dt, m, n, nnz, dups, shuffled);
            char what[160];
            snprintf(what, sizeof what, "%s %s %s (%lld x %lld, %lld entries, %s indices)", label, format_names[f], dname(dt),
                     (long long)m, (long long)n, (long long)t.nnz, dname(it));
            size_t before = used_bytes();
            ga_sparse *s = make_sparse(&t, dt, formats[f], it);
            check_sparse(s, &t, dt, what);
            if (s) {
                CHECK(ga_sparse_nnz(s) == t.nnz, "%s: nnz %lld", what, (long long)ga_sparse_nnz(s));
                CHECK(ga_sparse_dtype_of(s) == dt, "%s: dtype", what);
                CHECK(ga_sparse_index_dtype(s) == (ga__sparse_index_bits > 32 ? GA_INT64 : GA_INT32), "%s: index dtype %s",
                      what, dname(ga_sparse_index_dtype(s)));
                if (formats[f] != GA_SPARSE_COO && !dups && !shuffled)
                    CHECK(ga_sparse_has_canonical_format(s), "%s: sorted, unique: canonical", what);
                check_conversions(s, &t, dt, what);
            }
            ga_sparse_release(s);
            CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
            trip_free(&t);
        }
    }
}

DEVICE_TEST(every_format_and_dtype_against_dense)
{
    run_formats(GA_INT32, 37, 53, test_size(400, 120), false, false, "sorted");
    run_formats(GA_INT32, 64, 9, test_size(300, 80), false, true, "unsorted");
    run_formats(GA_INT32, 23, 31, test_size(300, 80), true, true, "duplicates");
}

DEVICE_TEST(empty_rows_empty_and_non_square_matrices)
{
    const int64_t shapes[][3] = {{0, 0, 0}, {0, 7, 0}, {7, 0, 0}, {5, 8, 0}, {1, 1, 1}, {200, 3, 5}, {3, 200, 5}, {1000, 1000, 7}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        run_formats(GA_INT32, shapes[i][0], shapes[i][1], shapes[i][2], i % 2 == 1, false, "sparse");
}

DEVICE_TEST(int64_indices)
{
    ga__sparse_index_bits = 64;
    run_formats(GA_INT64, 41, 29, test_size(300, 80), false, false, "sorted");
    run_formats(GA_INT64, 17, 33, test_size(300, 80), true, true, "duplicates");
    run_formats(GA_INT64, 0, 4, 0, false, false, "empty");
    ga__sparse_index_bits = 32;
}

DEVICE_TEST(indices_of_other_integer_dtypes_and_inferred_shapes)
{
    triplets t = trip_random(GA_FLOAT32, 6, 9, 20, false, false);
    /* CSR with int16 indices and uint8 indptr, shape inferred */
    int64_t *ptr = calloc(8, 8);
    for (int64_t j = 0; j < t.nnz; j++) ptr[t.row[j] + 1]++;
    for (int i = 0; i < 6; i++) ptr[i + 1] += ptr[i];
    ga_array *data = upload_values(t.re, t.im, t.nnz, GA_FLOAT32), *idx = upload_index(t.col, t.nnz, GA_INT64);
    ga_array *p = upload_index(ptr, 7, GA_INT64);
    ga_array *idx16 = ga_astype(idx, GA_INT16), *p8 = ga_astype(p, GA_UINT8);
    ga_sparse *s = ga_sparse_csr_matrix(data, idx16, p8, NULL);
    int64_t maxcol = 0;
    for (int64_t j = 0; j < t.nnz; j++) maxcol = t.col[j] + 1 > maxcol ? t.col[j] + 1 : maxcol;
    CHECK(s && ga_sparse_shape(s)[0] == 6 && ga_sparse_shape(s)[1] == maxcol, "inferred shape");
    CHECK(s && ga_sparse_index_dtype(s) == GA_INT32, "int32 indices");
    t.n = maxcol;
    if (s) check_sparse(s, &t, GA_FLOAT32, "int16 / uint8 index arrays");
    ga_sparse_release(s);
    ga_release(data), ga_release(idx), ga_release(p), ga_release(idx16), ga_release(p8);
    free(ptr);
    trip_free(&t);
}

DEVICE_TEST(from_dense)
{
    const int64_t shapes[][2] = {{0, 0}, {1, 7}, {13, 17}, {64, 3}};
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const int64_t m = shapes[i][0], n = shapes[i][1];
            long double *re = calloc((size_t)(m * n + 1), sizeof(long double)), *im = calloc((size_t)(m * n + 1), sizeof(long double));
            int64_t nz = 0;
            for (int64_t e = 0; e < m * n; e++) {
                if (rnd() % 3 == 0) draw_value(dt, &re[e], &im[e]);
                nz += re[e] != 0 || im[e] != 0;
            }
            int64_t shape[2] = {m, n};
            unsigned char *buf = malloc((size_t)(m * n + 1) * isz(dt));
            for (int64_t e = 0; e < m * n; e++) store(dt, re[e], im[e], buf + (size_t)e * isz(dt));
            ga_array *a = ga_from_host(buf, 2, shape, dt);
            ga_sparse *s[3] = {ga_sparse_csr_matrix_from_dense(a), ga_sparse_csc_matrix_from_dense(a),
                               ga_sparse_coo_matrix_from_dense(a)};
            for (int f = 0; f < 3; f++) {
                char what[120];
                snprintf(what, sizeof what, "%s from dense %s (%lld, %lld)", format_names[f], dname(dt), (long long)m,
                         (long long)n);
                CHECK(s[f] != NULL, "%s: %s", what, ga_last_error_message());
                if (!s[f]) continue;
                CHECK(ga_sparse_nnz(s[f]) == nz, "%s: nnz %lld, expected %lld", what, (long long)ga_sparse_nnz(s[f]),
                      (long long)nz);
                CHECK(ga_sparse_has_canonical_format(s[f]), "%s: canonical", what);
                CHECK(ga_sparse_count_nonzero(s[f]) == nz, "%s: count_nonzero", what);
                ga_array *d = ga_sparse_toarray(s[f]);
                check_dense(d, re, im, m * n, dt, 0, what);
                ga_release(d);
                ga_sparse_release(s[f]);
            }
            ga_clear_error();
            ga_release(a);
            free(buf), free(re), free(im);
        }
    }
}

DEVICE_TEST(eye_identity_diags)
{
    const int64_t cases[][3] = {{4, 4, 0}, {3, 5, 1}, {5, 3, -2}, {4, 4, 4}, {0, 3, 0}, {6, 2, -5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int f = 0; f < 3; f++) {
            const int64_t m = cases[i][0], n = cases[i][1], k = cases[i][2];
            ga_sparse *s = ga_sparse_eye(m, n, k, GA_FLOAT64, formats[f]);
            long double *re = calloc((size_t)(m * n + 1), sizeof(long double)), *im = calloc((size_t)(m * n + 1), sizeof(long double));
            for (int64_t r = 0; r < m; r++)
                if (r + k >= 0 && r + k < n) re[r * n + r + k] = 1;
            char what[100];
            snprintf(what, sizeof what, "eye(%lld, %lld, %lld) %s", (long long)m, (long long)n, (long long)k, format_names[f]);
            CHECK(s != NULL, "%s: %s", what, ga_last_error_message());
            ga_array *d = s ? ga_sparse_toarray(s) : NULL;
            if (s) check_dense(d, re, im, m * n, GA_FLOAT64, 0, what);
            ga_release(d);
            ga_sparse_release(s);
            free(re), free(im);
            ga_clear_error();
        }
    ga_sparse *id = ga_sparse_identity(5, GA_INT8, GA_SPARSE_CSR);
    CHECK(id && ga_sparse_nnz(id) == 5 && ga_sparse_dtype_of(id) == GA_INT8, "identity(5, int8)");
    ga_sparse_release(id);
    /* diags([[1, 2, 3, 4], [5, 6, 7], [0, 9]], [0, -1, 2]) of a 4 x 4 matrix: the zero dropped */
    const double d0[4] = {1, 2, 3, 4}, d1[3] = {5, 6, 7}, d2[3] = {0, 9, 100};
    ga_array *diag[3] = {ga_from_host(d0, GA_SHAPE(4), GA_FLOAT64), ga_from_host(d1, GA_SHAPE(3), GA_FLOAT64),
                         ga_from_host(d2, GA_SHAPE(3), GA_FLOAT64)};
    const int64_t offsets[3] = {0, -1, 2};
    for (int f = 0; f < 3; f++) {
        ga_sparse *s = ga_sparse_diags(3, (const ga_array *const *)diag, offsets, NULL, formats[f], GA_DTYPE_INVALID);
        long double re[16] = {0}, im[16] = {0};
        for (int i = 0; i < 4; i++) re[i * 4 + i] = d0[i];
        for (int i = 0; i < 3; i++) re[(i + 1) * 4 + i] = d1[i];
        re[0 * 4 + 2] = 0, re[1 * 4 + 3] = 9;
        CHECK(s != NULL, "diags %s: %s", format_names[f], ga_last_error_message());
        if (s) CHECK(ga_sparse_nnz(s) == 8, "diags %s: nnz %lld (the zero dropped)", format_names[f], (long long)ga_sparse_nnz(s));
        ga_array *d = s ? ga_sparse_toarray(s) : NULL;
        if (s) check_dense(d, re, im, 16, GA_FLOAT64, 0, "diags");
        ga_release(d);
        ga_sparse_release(s);
        ga_clear_error();
    }
    const int64_t bad[1] = {5}, shape[2] = {4, 4};
    CHECK_ERROR(ga_sparse_diags(1, (const ga_array *const *)diag, bad, shape, GA_SPARSE_CSR, GA_DTYPE_INVALID) == NULL,
                GA_ERROR_VALUE, "Offset 5 (index 0) out of bounds");
    const int64_t off2[2] = {0, 1};
    ga_array *two[2] = {diag[1], diag[1]};
    CHECK_ERROR(ga_sparse_diags(2, (const ga_array *const *)two, off2, shape, GA_SPARSE_CSR, GA_DTYPE_INVALID) == NULL,
                GA_ERROR_VALUE, "Diagonal length (index 0: 3 at offset 0) does not agree with array size (4, 4).");
    const int64_t same[2] = {1, 1};
    CHECK_ERROR(ga_sparse_diags(2, (const ga_array *const *)two, same, shape, GA_SPARSE_CSR, GA_DTYPE_INVALID) == NULL,
                GA_ERROR_VALUE, "duplicate");
    for (int i = 0; i < 3; i++) ga_release(diag[i]);
}

/* ---- methods ---------------------------------------------------------------------------- */

DEVICE_TEST(duplicates_sorting_zeros_and_counts)
{
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        for (int f = 0; f < 3; f++) {
            triplets t = trip_random(dt, 19, 23, 150, true, true);
            char what[100];
            snprintf(what, sizeof what, "%s %s with duplicates", format_names[f], dname(dt));
            ga_sparse *s = make_sparse(&t, dt, formats[f], GA_INT32);
            CHECK(s != NULL, "%s: %s", what, ga_last_error_message());
            if (!s) { trip_free(&t); ga_clear_error(); continue; }
            /* the reference's nonzero count after summing */
            long double *re = malloc(sizeof(long double) * 19 * 23), *im = malloc(sizeof(long double) * 19 * 23);
            trip_dense(&t, dt, re, im);
            int64_t nz = 0, coords = 0;
            for (int i = 0; i < 19 * 23; i++) {
                long double r = re[i];
                if (is_exact(dt) && dt != GA_BOOL) {
                    uint64_t w = wrap(dt, (uint64_t)(int64_t)r);
                    r = (long double)w;
                }
                nz += r != 0 || im[i] != 0;
            }
            for (int64_t j = 0; j < t.nnz; j++) {
                bool seen = false;
                for (int64_t i = 0; i < j && !seen; i++) seen = t.row[i] == t.row[j] && t.col[i] == t.col[j];
                coords += !seen;
            }
            CHECK(ga_sparse_count_nonzero(s) == nz, "%s: count_nonzero %lld, expected %lld", what,
                  (long long)ga_sparse_count_nonzero(s), (long long)nz);
            ga_array *before = ga_sparse_data(s);
            ga_sparse *c = ga_sparse_copy(s);
            CHECK_OK(ga_sparse_sort_indices(s));
            check_sparse(s, &t, dt, what);
            CHECK_OK(ga_sparse_sum_duplicates(s));
            CHECK(ga_sparse_has_canonical_format(s) && ga_sparse_nnz(s) == coords, "%s: summed: nnz %lld, expected %lld", what,
                  (long long)ga_sparse_nnz(s), (long long)coords);
            check_sparse(s, &t, dt, what);
            CHECK(before && ga_size(before) == t.nnz, "%s: the data taken before keeps its length", what);
            CHECK_OK(ga_sparse_eliminate_zeros(s));
            CHECK(ga_sparse_nnz(s) == nz, "%s: eliminate_zeros: nnz %lld, expected %lld", what, (long long)ga_sparse_nnz(s),
                  (long long)nz);
            check_sparse(s, &t, dt, what);
            check_sparse(c, &t, dt, "the copy");
            /* transpose, conj, astype */
            ga_sparse *tr = ga_sparse_transpose(s), *cj = ga_sparse_conj(s), *as = ga_sparse_astype(s, GA_COMPLEX128);
            triplets tt = t;
            tt.m = t.n, tt.n = t.m, tt.row = t.col, tt.col = t.row;
            check_sparse(tr, &tt, dt, "transpose");
            for (int64_t j = 0; j < t.nnz; j++) t.im[j] = -t.im[j];
            check_sparse(cj, &t, dt, "conj");
            for (int64_t j = 0; j < t.nnz; j++) t.im[j] = -t.im[j];
            if (dt != GA_BOOL) check_sparse(as, &t, GA_COMPLEX128, "astype complex128");
            ga_sparse_release(tr), ga_sparse_release(cj), ga_sparse_release(as), ga_sparse_release(c);
            ga_release(before);
            ga_sparse_release(s);
            free(re), free(im);
            trip_free(&t);
        }
    }
}

/* ---- products --------------------------------------------------------------------------- */

/* y = A x on the host (x dense n x k C order), in long double. */
static void ref_product(const triplets *t, ga_dtype dt, const long double *xr, const long double *xi, int64_t k,
                        long double *yr, long double *yi)
{
    for (int64_t i = 0; i < t->m * k; i++) yr[i] = yi[i] = 0;
    for (int64_t j = 0; j < t->nnz; j++)
        for (int64_t c = 0; c < k; c++) {
            long double ar = t->re[j], ai = t->im[j], br = xr[t->col[j] * k + c], bi = xi[t->col[j] * k + c];
            long double *pr = &yr[t->row[j] * k + c], *pi = &yi[t->row[j] * k + c];
            if (dt == GA_BOOL) *pr = (*pr != 0 || (ar != 0 && br != 0)) ? 1 : 0;
            else *pr += ar * br - ai * bi, *pi += ar * bi + ai * br;
        }
}

/* A @ x for the matrix of t (m x n) and x of shape (n) (k 0) or (n, k),
   C- or F-ordered (`fortran`). */
static void check_product_of(const triplets *tp, ga_dtype da, ga_dtype dx, ga_dtype it, ga_sparse_format f, int64_t k,
                             bool fortran, bool right)
{
    const triplets t = *tp;
    const int64_t kk = k ? k : 1, m = t.m, n = t.n;
    ga_sparse *s = make_sparse(&t, da, f, it);
    long double *xr = calloc((size_t)(n * kk + 1), sizeof(long double)), *xi = calloc((size_t)(n * kk + 1), sizeof(long double));
    long double *yr = calloc((size_t)(m * kk + 1), sizeof(long double)), *yi = calloc((size_t)(m * kk + 1), sizeof(long double));
    for (int64_t i = 0; i < n * kk; i++) draw_value(dx, &xr[i], &xi[i]);
    const ga_dtype dt = ga_promote_types(da, dx);
    ref_product(&t, dt, xr, xi, kk, yr, yi);
    ga_array *x;
    if (k == 0) x = upload_values(xr, xi, n, dx);
    else {
        unsigned char *buf = malloc((size_t)(n * kk) * isz(dx) + 1);
        for (int64_t i = 0; i < n * kk; i++) store(dx, xr[i], xi[i], buf + (size_t)i * isz(dx));
        const int64_t shape[2] = {n, k};
        x = fortran ? upload_transposed(buf, 2, shape, dx) : ga_from_host(buf, 2, shape, dx);
        free(buf);
    }
    char what[160];
    snprintf(what, sizeof what, "%s %s @ %s%s (%lld x %lld, k %lld, %s)", format_names[f], dname(da), dname(dx),
             fortran ? " F-ordered" : "", (long long)m, (long long)n, (long long)k, dname(it));
    ga_array *y = NULL;
    if (!right) {
        y = ga_sparse_matmul(s, x);
    } else { /* x^T @ A^T = (A x)^T: check through the transpose */
        ga_sparse *st = ga_sparse_transpose(s);
        ga_array *xt = k ? ga_transpose(x, NULL) : ga_retain(x);
        ga_array *yt = ga_sparse_rmatmul(xt, st);
        y = yt && k ? ga_transpose(yt, NULL) : ga_retain(yt);
        ga_release(yt), ga_release(xt);
        ga_sparse_release(st);
        strcat(what, " (rmatmul)");
    }
    const long double eps = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-5L : is_inexact(dt) ? 1e-12L : 0;
    check_dense(y, yr, yi, m * kk, dt, eps * 16 * (long double)n, what);
    if (y) CHECK(ga_ndim(y) == (k ? 2 : 1), "%s: ndim %d", what, ga_ndim(y));
    ga_release(y), ga_release(x);
    ga_sparse_release(s);
    free(xr), free(xi), free(yr), free(yi);
    ga_clear_error();
}

/* A @ x for a random m x n A. */
static void check_product(ga_dtype da, ga_dtype dx, ga_dtype it, ga_sparse_format f, int64_t m, int64_t n, int64_t k,
                          bool fortran, bool right)
{
    triplets t = trip_random(da, m, n, m * n / 5 + 1, true, true);
    check_product_of(&t, da, dx, it, f, k, fortran, right);
    trip_free(&t);
}

/* Rows of more than 4096 entries (the product kernel's long rows, a block
   each) beside short and empty ones: 4096 and 4097 (the edge), 9000, in
   every format, C- and F-ordered, both index dtypes. The values are small
   integers: every sum is exact in any order. */
DEVICE_TEST(products_long_rows)
{
    static const int64_t lengths[] = {3, 4096, 4097, 0, 9000, 1, 4500};
    const int64_t m = 7, n = 9000;
    int64_t nnz = 0;
    for (int64_t r = 0; r < m; r++) nnz += lengths[r];
    const ga_dtype ds[] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128, GA_INT32, GA_INT8, GA_UINT64, GA_BOOL};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        triplets t = trip_new(m, n, nnz);
        int64_t j = 0;
        for (int64_t r = 0; r < m; r++)
            for (int64_t c = 0; c < lengths[r]; c++, j++) { /* columns spread over n, in order */
                t.row[j] = r, t.col[j] = c * n / lengths[r];
                draw_value(ds[i], &t.re[j], &t.im[j]);
            }
        for (int bits = 32; bits <= 64; bits += 32) {
            ga__sparse_index_bits = bits;
            const ga_dtype it = bits == 64 ? GA_INT64 : GA_INT32;
            for (int f = 0; f < 3; f++) {
                check_product_of(&t, ds[i], ds[i], it, formats[f], 3, false, false);
                check_product_of(&t, ds[i], ds[i], it, formats[f], 1, false, false);
                check_product_of(&t, ds[i], ds[i], it, formats[f], 2, true, false);
            }
        }
        ga__sparse_index_bits = 32;
        trip_free(&t);
    }
}

DEVICE_TEST(products_every_dtype_and_format)
{
    for (int a = 0; a < NDTYPES; a++)
        for (int f = 0; f < 3; f++) {
            if (!test_sample(a * 3 + f, 2)) continue;
            const ga_dtype da = sparse_dtypes[a];
            check_product(da, da, GA_INT32, formats[f], 37, 29, 0, false, false);
            check_product(da, da, GA_INT32, formats[f], 37, 29, 5, false, false);
            check_product(da, da, GA_INT32, formats[f], 21, 40, 3, true, false);
            check_product(da, da, GA_INT32, formats[f], 21, 40, 3, false, true);
            check_product(da, da, GA_INT32, formats[f], 13, 8, 0, false, true);
        }
}

DEVICE_TEST(products_promote_as_scipy)
{
    const ga_dtype pairs[][2] = {{GA_FLOAT32, GA_FLOAT64}, {GA_INT64, GA_FLOAT32}, {GA_BOOL, GA_INT8},
                                 {GA_INT32, GA_COMPLEX64}, {GA_FLOAT64, GA_BOOL}, {GA_UINT8, GA_INT16}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        for (int f = 0; f < 3; f++) {
            check_product(pairs[i][0], pairs[i][1], GA_INT32, formats[f], 17, 19, 0, false, false);
            check_product(pairs[i][0], pairs[i][1], GA_INT32, formats[f], 17, 19, 4, false, false);
        }
}

DEVICE_TEST(products_int64_indices_and_empty)
{
    ga__sparse_index_bits = 64;
    const ga_dtype ds[] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128, GA_INT32, GA_BOOL};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        for (int f = 0; f < 3; f++) {
            check_product(ds[i], ds[i], GA_INT64, formats[f], 33, 27, 0, false, false);
            check_product(ds[i], ds[i], GA_INT64, formats[f], 33, 27, 6, i % 2 == 0, false);
        }
    ga__sparse_index_bits = 32;
    for (int f = 0; f < 3; f++) {
        check_product(GA_FLOAT32, GA_FLOAT32, GA_INT32, formats[f], 0, 5, 3, false, false);
        check_product(GA_FLOAT32, GA_FLOAT32, GA_INT32, formats[f], 6, 0, 3, false, false);
        check_product(GA_FLOAT64, GA_FLOAT64, GA_INT32, formats[f], 6, 4, 0, false, false);
    }
}

DEVICE_TEST(products_dimension_mismatch)
{
    ga_sparse *s = ga_sparse_eye(3, 4, 0, GA_FLOAT32, GA_SPARSE_CSR);
    ga_array *x = ga_zeros(GA_SHAPE(3), GA_FLOAT32), *x3 = ga_zeros(GA_SHAPE(4, 1, 1), GA_FLOAT32);
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_matmul(s, x) == NULL, GA_ERROR_SHAPE, "ga_sparse_matmul: dimension mismatch");
    CHECK_ERROR(ga_sparse_matmul(s, x3) == NULL, GA_ERROR_SHAPE, "dimension mismatch");
    ga_array *y = ga_zeros(GA_SHAPE(2, 4), GA_FLOAT32);
    CHECK_ERROR(ga_sparse_rmatmul(y, s) == NULL, GA_ERROR_SHAPE, "ga_sparse_rmatmul: dimension mismatch");
    ga_release(y);
    CHECK(used_bytes() == before, "nothing left in use after the refusals");
    /* a float16 dense operand is no refusal: SciPy promotes it with the matrix's float32 */
    ga_array *h = ga_zeros(GA_SHAPE(4), GA_FLOAT16), *p = ga_sparse_matmul(s, h);
    CHECK(p && ga_dtype_of(p) == GA_FLOAT32 && ga_size(p) == 3, "float32 matrix @ float16 vector: %s",
          p ? ga__dtype_names[ga_dtype_of(p)] : ga_last_error_message());
    ga_release(p), ga_release(h);
    CHECK(used_bytes() == before, "nothing left in use after the refusals");
    ga_release(x), ga_release(x3);
    ga_sparse_release(s);
}

/* ---- malformed structures ----------------------------------------------------------------- */

/* csr_matrix of the given host arrays must fail with `text`. */
static void refuse_csr(const int64_t *ptr, int64_t np, const int64_t *idx, int64_t ni, int64_t nd, const int64_t *shape,
                       bool csc, const char *text)
{
    long double re[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, im[16] = {0};
    ga_array *d = upload_values(re, im, nd, GA_FLOAT32), *i = upload_index(idx, ni, GA_INT32), *p = upload_index(ptr, np, GA_INT64);
    size_t before = used_bytes();
    ga_sparse *s = csc ? ga_sparse_csc_matrix(d, i, p, shape) : ga_sparse_csr_matrix(d, i, p, shape);
    CHECK_ERROR(s == NULL, GA_ERROR_VALUE, text);
    ga_sparse_release(s);
    CHECK(used_bytes() == before, "\"%s\": %zu bytes left in use", text, used_bytes() - before);
    ga_release(d), ga_release(i), ga_release(p);
}

DEVICE_TEST(malformed_structures_refused)
{
    const int64_t shape[2] = {3, 4};
    const int64_t ok_ptr[4] = {0, 1, 3, 4}, idx[4] = {0, 1, 3, 2};
    refuse_csr(ok_ptr, 3, idx, 4, 4, shape, false, "ga_sparse_csr_matrix: index pointer size (3) should be (4)");
    const int64_t ptr_start[4] = {1, 1, 3, 4};
    refuse_csr(ptr_start, 4, idx, 4, 4, shape, false, "index pointer should start with 0");
    refuse_csr(ok_ptr, 4, idx, 4, 3, shape, false, "indices and data should have the same size");
    const int64_t ptr_last[4] = {0, 1, 3, 5};
    refuse_csr(ptr_last, 4, idx, 4, 4, shape, false,
               "Last value of index pointer should be less than the size of index and data arrays");
    const int64_t idx_big[4] = {0, 1, 4, 2};
    refuse_csr(ok_ptr, 4, idx_big, 4, 4, shape, false, "column index values must be < 4");
    const int64_t cshape[2] = {4, 3};
    refuse_csr(ok_ptr, 4, idx_big, 4, 4, cshape, true, "ga_sparse_csc_matrix: row index values must be < 4");
    const int64_t idx_neg[4] = {0, -1, 3, 2};
    refuse_csr(ok_ptr, 4, idx_neg, 4, 4, shape, false, "column index values must be >= 0");
    const int64_t ptr_down[4] = {0, 3, 1, 4};
    refuse_csr(ptr_down, 4, idx, 4, 4, shape, false, "index pointer values must form a non-decreasing sequence");
    /* indptr[-1] below nnz: the first indptr[-1] entries (SciPy's prune) */
    const int64_t ptr_short[4] = {0, 1, 2, 2};
    long double re[4] = {1, 2, 3, 4}, im[4] = {0};
    ga_array *d = upload_values(re, im, 4, GA_FLOAT64), *i = upload_index(idx, 4, GA_INT32), *p = upload_index(ptr_short, 4, GA_INT32);
    ga_sparse *s = ga_sparse_csr_matrix(d, i, p, shape);
    CHECK(s && ga_sparse_nnz(s) == 2, "pruned to indptr[-1] entries");
    ga_sparse_release(s);
    /* COO */
    const int64_t row[3] = {0, 2, 1}, col[3] = {1, 3, 0}, row_big[3] = {0, 3, 1}, col_big[3] = {1, 4, 0};
    const int64_t row_neg[3] = {0, -2, 1}, col_neg[3] = {1, -3, 0};
    struct { const int64_t *r, *c; const char *text; } coo[] = {
        {row_big, col, "ga_sparse_coo_matrix: row index exceeds matrix dimensions"},
        {row, col_big, "column index exceeds matrix dimensions"},
        {row_neg, col, "negative row index found"},
        {row, col_neg, "negative column index found"}};
    for (size_t k = 0; k < sizeof coo / sizeof coo[0]; k++) {
        ga_array *r = upload_index(coo[k].r, 3, GA_INT64), *c = upload_index(coo[k].c, 3, GA_INT64), *dd = head_of(d, 3);
        size_t before = used_bytes();
        CHECK_ERROR(ga_sparse_coo_matrix(dd, r, c, shape) == NULL, GA_ERROR_VALUE, coo[k].text);
        CHECK(used_bytes() == before, "COO \"%s\": bytes left in use", coo[k].text);
        ga_release(r), ga_release(c), ga_release(dd);
    }
    ga_array *r = upload_index(row, 3, GA_INT32), *c = upload_index(col, 2, GA_INT32), *dd = head_of(d, 3);
    CHECK_ERROR(ga_sparse_coo_matrix(dd, r, c, shape) == NULL, GA_ERROR_VALUE,
                "row, column, and data array must all be the same length");
    ga_array *fl = ga_zeros(GA_SHAPE(3), GA_FLOAT32);
    CHECK_ERROR(ga_sparse_coo_matrix(dd, r, fl, shape) == NULL, GA_ERROR_TYPE, "col must be of an integer dtype");
    ga_array *m2 = ga_zeros(GA_SHAPE(3, 1), GA_INT32);
    CHECK_ERROR(ga_sparse_coo_matrix(dd, m2, r, shape) == NULL, GA_ERROR_VALUE, "row, column, and data arrays must be 1-D");
    ga_array *h = ga_zeros(GA_SHAPE(3), GA_FLOAT16);
    CHECK_ERROR(ga_sparse_coo_matrix(h, r, r, shape) == NULL, GA_ERROR_TYPE, "scipy.sparse does not support dtype float16");
    ga_release(r), ga_release(c), ga_release(dd), ga_release(fl), ga_release(m2), ga_release(h);
    ga_release(d), ga_release(i), ga_release(p);
}

/* ---- attributes, scopes, the missing library ---------------------------------------------- */

DEVICE_TEST(attributes_and_scopes)
{
    ga_sparse *s = ga_sparse_eye(4, 6, 1, GA_FLOAT32, GA_SPARSE_CSR);
    CHECK(s != NULL, "eye: %s", ga_last_error_message());
    if (!s) return;
    ga_array *ind = ga_sparse_indices(s), *ptr = ga_sparse_indptr(s), *dat = ga_sparse_data(s);
    CHECK(ind && ptr && dat && ga_size(ind) == 4 && ga_size(ptr) == 5 && ga_size(dat) == 4, "CSR attributes");
    CHECK_ERROR(ga_sparse_row(s) == NULL, GA_ERROR_VALUE, "'csr_matrix' object has no attribute 'row'");
    ga_sparse *coo = ga_sparse_tocoo(s);
    CHECK_ERROR(coo && ga_sparse_indptr(coo) == NULL, GA_ERROR_VALUE, "'coo_matrix' object has no attribute 'indptr'");
    ga_release(ind), ga_release(ptr), ga_release(dat);
    ga_sparse_release(coo);
    size_t before = used_bytes();
    ga_scope_begin();
    ga_sparse *a = ga_sparse_tocsc(s), *b = ga_sparse_keep(ga_sparse_copy(s));
    ga_array *d = ga_sparse_toarray(ga_sparse_tocoo(ga_sparse_transpose(a)));
    CHECK(a && b && d, "chained calls in a scope: %s", ga_last_error_message());
    ga_scope_end();
    CHECK(b && ga_sparse_nnz(b) == 4, "the kept matrix lives on");
    ga_sparse_release(b);
    CHECK(used_bytes() == before, "the scope released what it made: %zu bytes left", used_bytes() - before);
    ga_sparse_release(s);
}

/* ---- arithmetic and sums ------------------------------------------------------------------- */

DEVICE_TEST(scalar_operations)
{
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        triplets t = trip_random(dt, 11, 14, 60, true, true);
        ga_sparse *s = make_sparse(&t, dt, formats[k % 3], GA_INT32);
        ga_sparse *m = ga_sparse_multiply_scalar(s, ga_int(2));
        for (int64_t j = 0; j < t.nnz; j++) t.re[j] *= dt == GA_BOOL ? 1 : 2, t.im[j] *= 2;
        /* bool * 2: int64 (NumPy's weak int with bool) */
        const ga_dtype mt = dt == GA_BOOL ? GA_INT64 : dt;
        if (dt == GA_BOOL)
            for (int64_t j = 0; j < t.nnz; j++) t.re[j] = t.re[j] != 0 ? 2 : 0;
        char what[80];
        snprintf(what, sizeof what, "%s %s * 2", format_names[k % 3], dname(dt));
        if (dt != GA_BOOL) check_sparse(m, &t, mt, what);
        else CHECK(m && ga_sparse_dtype_of(m) == GA_INT64, "%s: dtype", what);
        ga_sparse *q = ga_sparse_divide_scalar(m, ga_int(2));
        CHECK(q && ga_sparse_dtype_of(q) == (is_complex(dt) ? dt : dt == GA_FLOAT32 ? GA_FLOAT32 : GA_FLOAT64),
              "%s / 2: dtype %s", what, q ? dname(ga_sparse_dtype_of(q)) : "-");
        ga_sparse *n = ga_sparse_negative(s);
        if (dt == GA_BOOL) CHECK_ERROR(n == NULL, GA_ERROR_TYPE, "boolean negative");
        else CHECK(n != NULL, "%s: negative: %s", what, ga_last_error_message());
        CHECK_ERROR(ga_sparse_power_scalar(s, ga_int(0)) == NULL, GA_ERROR_VALUE, "zero power is not supported");
        ga_sparse_release(m), ga_sparse_release(q), ga_sparse_release(n), ga_sparse_release(s);
        trip_free(&t);
        ga_clear_error();
    }
}

/* sa + sb (sa - sb with neg) of the triplets a and b against their dense
   reference: values, nnz (zeros dropped), canonical, the format of a
   compressed sa (CSR for COO), and no device memory left in use. */
static void check_add(const ga_sparse *sa, const ga_sparse *sb, const triplets *a, const triplets *b, ga_dtype dt,
                      bool neg, const char *what)
{
    const int64_t m = a->m, n = a->n;
    long double *ar = malloc(sizeof(long double) * (size_t)(m * n + 1)), *ai = malloc(sizeof(long double) * (size_t)(m * n + 1));
    long double *br = malloc(sizeof(long double) * (size_t)(m * n + 1)), *bi = malloc(sizeof(long double) * (size_t)(m * n + 1));
    long double *rr = malloc(sizeof(long double) * (size_t)(m * n + 1)), *ri = malloc(sizeof(long double) * (size_t)(m * n + 1));
    trip_dense(a, dt, ar, ai);
    trip_dense(b, dt, br, bi);
    int64_t nz = 0;
    for (int64_t i = 0; i < m * n; i++) {
        if (dt == GA_BOOL) rr[i] = ar[i] != 0 || br[i] != 0, ri[i] = 0;
        else rr[i] = neg ? ar[i] - br[i] : ar[i] + br[i], ri[i] = neg ? ai[i] - bi[i] : ai[i] + bi[i];
        long double w = rr[i];
        if (is_exact(dt) && dt != GA_BOOL) w = (long double)wrap(dt, (uint64_t)(int64_t)w);
        nz += w != 0 || ri[i] != 0;
    }
    const size_t before = used_bytes();
    ga_sparse *r = neg ? ga_sparse_subtract(sa, sb) : ga_sparse_add(sa, sb);
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        CHECK(ga_sparse_has_canonical_format(r) && ga_sparse_nnz(r) == nz, "%s: nnz %lld, expected %lld (zeros dropped)",
              what, (long long)ga_sparse_nnz(r), (long long)nz);
        const ga_sparse_format fa = ga_sparse_format_of(sa);
        CHECK(ga_sparse_format_of(r) == (fa == GA_SPARSE_CSC ? GA_SPARSE_CSC : GA_SPARSE_CSR), "%s: format", what);
        ga_array *d = ga_sparse_toarray(r);
        check_dense(d, rr, ri, m * n, dt, 0, what);
        ga_release(d);
    }
    ga_sparse_release(r);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(ar), free(ai), free(br), free(bi), free(rr), free(ri);
}

DEVICE_TEST(add_and_subtract)
{
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        for (int f = 0; f < 3; f++) {
            if (!test_sample(k * 3 + f, 2)) continue;
            const int64_t m = 17, n = 26;
            triplets a = trip_random(dt, m, n, 90, true, true), b = trip_random(dt, m, n, 70, f == 0, false);
            ga_sparse *sa = make_sparse(&a, dt, formats[f], GA_INT32), *sb = make_sparse(&b, dt, formats[(f + 1) % 3], GA_INT32);
            for (int neg = 0; neg < 2; neg++) {
                if (neg && dt == GA_BOOL) {
                    CHECK_ERROR(ga_sparse_subtract(sa, sb) == NULL, GA_ERROR_TYPE, "numpy boolean subtract");
                    continue;
                }
                char what[100];
                snprintf(what, sizeof what, "%s %s %s %s", format_names[f], dname(dt), neg ? "-" : "+",
                         format_names[(f + 1) % 3]);
                check_add(sa, sb, &a, &b, dt, neg, what);
            }
            ga_sparse_release(sa), ga_sparse_release(sb);
            trip_free(&a), trip_free(&b);
        }
    }
    ga_sparse *x = ga_sparse_eye(3, 4, 0, GA_FLOAT32, GA_SPARSE_CSR), *y = ga_sparse_eye(4, 3, 0, GA_FLOAT32, GA_SPARSE_CSR);
    CHECK_ERROR(ga_sparse_add(x, y) == NULL, GA_ERROR_SHAPE, "ga_sparse_add: inconsistent shapes");
    ga_sparse_release(x), ga_sparse_release(y);
}

/* A random value of dt that is not zero. */
static void draw_nonzero(ga_dtype dt, long double *re, long double *im)
{
    do draw_value(dt, re, im);
    while (*re == 0 && *im == 0);
}

/* Rows of many lengths (0 to 70 x s / 8 entries of A, as many again of B,
   which shares about half of A's columns), so that A + B and A - B take
   groups of 2 to 32 lanes a row by their average (s 4 to 128), rows of
   many rounds and empty rows. On rows r % 3 == 1 the values hold zeros and
   exact cancellations (a zero result: the row merged by one lane); on the
   others no result is zero (every entry placed by the lanes). */
static void check_add_rows(ga_dtype dt, ga_dtype it, ga_sparse_format fa, ga_sparse_format fb, int64_t m, int64_t n,
                           int64_t s)
{
    static const int64_t lens[] = {0, 1, 3, 7, 16, 2, 33, 70, 5};
    triplets a = trip_new(m, n, m * 70 * s / 8 + 1), b = trip_new(m, n, m * 140 * s / 8 + 1);
    a.nnz = b.nnz = 0;
    unsigned char *in_a = malloc((size_t)n), *in_b = malloc((size_t)n);
    for (int64_t r = 0; r < m; r++) {
        const bool dirty = r % 3 == 1;
        memset(in_a, 0, (size_t)n), memset(in_b, 0, (size_t)n);
        for (int64_t j = GA__MIN(n, lens[r % 9] * s / 8); j > 0;) {
            const int64_t c = (int64_t)(rnd() % (uint64_t)n);
            if (!in_a[c]) in_a[c] = 1, j--, in_b[c] = rnd() % 2;
        }
        for (int64_t j = GA__MIN(n / 2, lens[(r + 4) % 9] * s / 8); j > 0; j--) in_b[rnd() % (uint64_t)n] = 1;
        for (int64_t c = 0; c < n; c++) {
            long double xr = 0, xi = 0, yr, yi;
            if (in_a[c]) {
                if (dirty) draw_value(dt, &xr, &xi);
                else draw_nonzero(dt, &xr, &xi);
                a.row[a.nnz] = r, a.col[a.nnz] = c, a.re[a.nnz] = xr, a.im[a.nnz] = xi, a.nnz++;
            }
            if (!in_b[c]) continue;
            if (dirty && in_a[c] && rnd() % 2) { /* b = a or -a: a - b or a + b is zero */
                const bool minus = rnd() % 2 && ga_dtype_kind(dt) != 'u' && dt != GA_BOOL;
                yr = minus ? -xr : xr, yi = minus ? -xi : xi;
            } else if (dirty) {
                draw_value(dt, &yr, &yi);
            } else {
                do draw_nonzero(dt, &yr, &yi);
                while (in_a[c] && dt != GA_BOOL && ((xr + yr == 0 && xi + yi == 0) || (xr == yr && xi == yi)));
            }
            b.row[b.nnz] = r, b.col[b.nnz] = c, b.re[b.nnz] = yr, b.im[b.nnz] = yi, b.nnz++;
        }
    }
    free(in_a), free(in_b);
    ga_sparse *sa = make_sparse(&a, dt, fa, it), *sb = make_sparse(&b, dt, fb, it);
    for (int neg = 0; neg < (dt == GA_BOOL ? 1 : 2); neg++) {
        char what[160];
        snprintf(what, sizeof what, "%s %s %s %s %s (%lld x %lld, %lld and %lld entries)", format_names[fa], dname(dt),
                 neg ? "-" : "+", format_names[fb], dname(it), (long long)m, (long long)n, (long long)a.nnz,
                 (long long)b.nnz);
        check_add(sa, sb, &a, &b, dt, neg, what);
    }
    ga_sparse_release(sa), ga_sparse_release(sb);
    trip_free(&a), trip_free(&b);
}

DEVICE_TEST(add_and_subtract_lane_groups)
{
    static const int64_t scales[] = {4, 8, 16, 32, 128};
    for (int k = 0; k < NDTYPES; k++)
        for (int i = 0; i < 5; i++) {
            if (!test_sample(k * 5 + i, 2)) continue;
            const ga_dtype it = (k + i) % 2 ? GA_INT64 : GA_INT32;
            check_add_rows(sparse_dtypes[k], it, GA_SPARSE_CSR, GA_SPARSE_CSR, scales[i] == 128 ? 40 : 150,
                           scales[i] == 128 ? 2048 : 512, scales[i]);
        }
    check_add_rows(GA_FLOAT64, GA_INT32, GA_SPARSE_CSC, GA_SPARSE_CSC, 120, 300, 16);
    check_add_rows(GA_COMPLEX64, GA_INT64, GA_SPARSE_CSR, GA_SPARSE_COO, 90, 700, 32);
    check_add_rows(GA_INT8, GA_INT32, GA_SPARSE_COO, GA_SPARSE_CSR, 100, 1000, 8);
}

DEVICE_TEST(sums)
{
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype dt = sparse_dtypes[k];
        const ga_dtype st = ga_dtype_kind(dt) == 'u' ? GA_UINT64 : ga_dtype_kind(dt) == 'b' || ga_dtype_kind(dt) == 'i' ? GA_INT64 : dt;
        for (int f = 0; f < 3; f++) {
            const int64_t m = 21, n = 13;
            triplets t = trip_random(dt, m, n, 120, true, true);
            ga_sparse *s = make_sparse(&t, dt, formats[f], GA_INT32);
            long double re[21 * 13], im[21 * 13], rows_r[21] = {0}, rows_i[21] = {0}, cols_r[13] = {0}, cols_i[13] = {0};
            long double all_r = 0, all_i = 0;
            for (int64_t j = 0; j < t.nnz; j++) { /* sums of the stored values: bool counts */
                rows_r[t.row[j]] += t.re[j], rows_i[t.row[j]] += t.im[j];
                cols_r[t.col[j]] += t.re[j], cols_i[t.col[j]] += t.im[j];
                all_r += t.re[j], all_i += t.im[j];
            }
            (void)re, (void)im;
            char what[80];
            snprintf(what, sizeof what, "%s %s sum", format_names[f], dname(dt));
            ga_array *a = ga_sparse_sum(s, GA_AXIS_NONE), *r = ga_sparse_sum(s, 1), *c = ga_sparse_sum(s, 0);
            check_dense(a, &all_r, &all_i, 1, st, 1e-3L, what);
            check_dense(r, rows_r, rows_i, m, st, 1e-3L, what);
            check_dense(c, cols_r, cols_i, n, st, 1e-3L, what);
            CHECK(r && ga_ndim(r) == 2 && ga_shape(r)[0] == m && ga_shape(r)[1] == 1, "%s: axis 1 is (m, 1)", what);
            CHECK(c && ga_ndim(c) == 2 && ga_shape(c)[0] == 1 && ga_shape(c)[1] == n, "%s: axis 0 is (1, n)", what);
            ga_release(a), ga_release(r), ga_release(c);
            ga_sparse_release(s);
            trip_free(&t);
            ga_clear_error();
        }
    }
}

DEVICE_TEST(sparse_times_sparse)
{
    const ga_dtype ds[] = {GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128, GA_BOOL, GA_INT8, GA_UINT8, GA_INT16, GA_UINT16};
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++)
        for (int f = 0; f < 3; f++) {
            const ga_dtype dt = ds[k];
            const int64_t m = 19, n = 23, p = 15;
            triplets a = trip_random(dt, m, n, 80, true, true), b = trip_random(dt, n, p, 70, f == 1, false);
            ga_sparse *sa = make_sparse(&a, dt, formats[f], GA_INT32), *sb = make_sparse(&b, dt, formats[(f + 2) % 3], GA_INT32);
            long double *ar = malloc(sizeof(long double) * m * n), *ai = malloc(sizeof(long double) * m * n);
            long double *br = malloc(sizeof(long double) * n * p), *bi = malloc(sizeof(long double) * n * p);
            long double *cr = calloc((size_t)(m * p), sizeof(long double)), *ci = calloc((size_t)(m * p), sizeof(long double));
            trip_dense(&a, dt, ar, ai);
            trip_dense(&b, dt, br, bi);
            for (int64_t i = 0; i < m; i++)
                for (int64_t t = 0; t < n; t++)
                    for (int64_t j = 0; j < p; j++) {
                        cr[i * p + j] += ar[i * n + t] * br[t * p + j] - ai[i * n + t] * bi[t * p + j];
                        ci[i * p + j] += ar[i * n + t] * bi[t * p + j] + ai[i * n + t] * br[t * p + j];
                    }
            char what[100];
            snprintf(what, sizeof what, "%s %s @ %s", format_names[f], dname(dt), format_names[(f + 2) % 3]);
            ga_sparse *c = ga_sparse_matmul_sparse(sa, sb);
            CHECK(c != NULL, "%s: %s", what, ga_last_error_message());
            ga_array *d = c ? ga_sparse_toarray(c) : NULL;
            if (c) check_dense(d, cr, ci, m * p, dt, is_exact(dt) ? 0 : 1e-3L, what);
            ga_release(d);
            ga_sparse_release(c), ga_sparse_release(sa), ga_sparse_release(sb);
            free(ar), free(ai), free(br), free(bi), free(cr), free(ci);
            trip_free(&a), trip_free(&b);
            ga_clear_error();
        }
    ga_sparse *x = ga_sparse_eye(3, 4, 0, GA_FLOAT32, GA_SPARSE_CSR), *z = ga_sparse_eye(4, 4, 9, GA_FLOAT64, GA_SPARSE_CSC);
    ga_sparse *u8 = ga_sparse_eye(4, 4, 1, GA_UINT8, GA_SPARSE_CSR), *s8 = ga_sparse_eye(4, 4, -1, GA_INT8, GA_SPARSE_CSC);
    ga_sparse *mixed = u8 && s8 ? ga_sparse_matmul_sparse(u8, s8) : NULL;
    CHECK(mixed && ga_sparse_dtype_of(mixed) == GA_INT16, "uint8 @ int8: int16, %s", ga_last_error_message());
    ga_sparse_release(u8), ga_sparse_release(s8), ga_sparse_release(mixed);
    ga_sparse *e = ga_sparse_matmul_sparse(x, z);
    CHECK(e && ga_sparse_nnz(e) == 0 && ga_sparse_shape(e)[0] == 3 && ga_sparse_shape(e)[1] == 4 &&
              ga_sparse_dtype_of(e) == GA_FLOAT64,
          "an empty operand: an empty (3, 4) float64 result: %s", ga_last_error_message());
    CHECK_ERROR(ga_sparse_matmul_sparse(x, x) == NULL, GA_ERROR_SHAPE, "ga_sparse_matmul_sparse: dimension mismatch");
    ga_sparse *i8 = ga_sparse_identity(4, GA_INT32, GA_SPARSE_CSR);
    CHECK_ERROR(ga_sparse_matmul_sparse(i8, i8) == NULL, GA_ERROR_TYPE, "sparse @ sparse of int32 is not supported yet");
    /* int16 sums that wrap, as NumPy's: 300 * 300 = 90000 -> 90000 - 65536 */
    const int16_t v300[1] = {300};
    const int32_t zero_idx[1] = {0}, ptr01[2] = {0, 1};
    ga_array *dv = ga_from_host(v300, GA_SHAPE(1), GA_INT16), *di = ga_from_host(zero_idx, GA_SHAPE(1), GA_INT32);
    ga_array *dp = ga_from_host(ptr01, GA_SHAPE(2), GA_INT32);
    ga_sparse *w16 = ga_sparse_csr_matrix(dv, di, dp, NULL), *w2 = w16 ? ga_sparse_matmul_sparse(w16, w16) : NULL;
    ga_array *wd = w2 ? ga_sparse_toarray(w2) : NULL;
    int16_t got = 0;
    if (wd && download(wd, &got)) CHECK(got == (int16_t)(90000 - 65536), "int16 300 * 300 = %d", got);
    else CHECK(false, "int16 product: %s", ga_last_error_message());
    ga_release(dv), ga_release(di), ga_release(dp), ga_release(wd);
    ga_sparse_release(w16), ga_sparse_release(w2);
    ga_sparse_release(x), ga_sparse_release(z), ga_sparse_release(e), ga_sparse_release(i8);
}

/* ---- scipy.sparse.linalg.cg --------------------------------------------------------------- */

/* ||A x - b|| / ||b|| on the host, A the 1-d Poisson matrix tridiag(-1, 2 + shift, -1). */
static double poisson_residual(const ga_array *x, const double *b, int64_t n, double shift, ga_dtype dt)
{
    unsigned char *m = malloc((size_t)n * isz(dt));
    double num = 0, den = 0;
    if (ga_to_host(x, m, (size_t)n * isz(dt)) != GA_OK) { free(m); return INFINITY; }
    for (int64_t i = 0; i < n; i++) {
        long double ax = (2 + shift) * value_at(dt, m, i);
        if (i > 0) ax -= value_at(dt, m, i - 1);
        if (i + 1 < n) ax -= value_at(dt, m, i + 1);
        num += (double)((ax - b[i]) * (ax - b[i]));
        den += b[i] * b[i];
    }
    free(m);
    return sqrt(num / den);
}

DEVICE_TEST(cg_converges_on_poisson)
{
    const int64_t n = test_size(2000, 300);
    const ga_dtype ds[] = {GA_FLOAT64, GA_FLOAT32, GA_COMPLEX128};
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        const ga_dtype dt = ds[k];
        const double shift = 0.01, rtol = dt == GA_FLOAT32 ? 1e-4 : 1e-8;
        ga_array *d0 = ga_full(GA_SHAPE(n), ga_float(2 + shift), dt), *d1 = ga_full(GA_SHAPE(n - 1), ga_float(-1), dt);
        const ga_array *dg[3] = {d1, d0, d1};
        const int64_t off[3] = {-1, 0, 1};
        ga_sparse *a = ga_sparse_diags(3, dg, off, NULL, formats[k % 3], GA_DTYPE_INVALID);
        double *b = malloc(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < n; i++) b[i] = rnd_unit() - 0.5;
        ga_array *bd = ga_from_host(b, GA_SHAPE(n), GA_FLOAT64), *bt = ga_astype(bd, dt);
        int64_t info = -1;
        size_t before = used_bytes();
        ga_array *x = ga_sparse_linalg_cg(a, bt, NULL, rtol, 0, -1, &info);
        char what[60];
        snprintf(what, sizeof what, "cg %s (%s)", dname(dt), format_names[k % 3]);
        CHECK(x != NULL && info == 0, "%s: info %lld: %s", what, (long long)info, ga_last_error_message());
        if (x) {
            double res = poisson_residual(x, b, n, shift, dt);
            CHECK(res <= rtol * 1.5, "%s: relative residual %g, asked %g", what, res, rtol);
        }
        /* from x0 = x: converged at once */
        ga_array *x2 = x ? ga_sparse_linalg_cg(a, bt, x, rtol, 0, -1, &info) : NULL;
        CHECK(x2 && info == 0, "%s from its own solution", what);
        /* too few iterations: info = maxiter */
        ga_array *x3 = ga_sparse_linalg_cg(a, bt, NULL, 1e-14, 0, 3, &info);
        CHECK(x3 && info == 3, "%s: 3 iterations: info %lld", what, (long long)info);
        ga_release(x), ga_release(x2), ga_release(x3);
        CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
        ga_release(d0), ga_release(d1), ga_release(bd), ga_release(bt);
        ga_sparse_release(a);
        free(b);
        ga_clear_error();
    }
    ga_sparse *r = ga_sparse_eye(3, 4, 0, GA_FLOAT64, GA_SPARSE_CSR);
    ga_array *b = ga_ones(GA_SHAPE(3), GA_FLOAT64);
    CHECK_ERROR(ga_sparse_linalg_cg(r, b, NULL, 1e-5, 0, -1, NULL) == NULL, GA_ERROR_VALUE, "expected square matrix");
    ga_release(b);
    ga_sparse_release(r);
}

/* ---- wide shapes: 64-bit sort keys, several blocks ----------------------------------------- */

/* (row, col, value) for qsort by row, then column. */
typedef struct entry {
    int64_t row, col;
    double v;
} entry;
static int entry_cmp(const void *a, const void *b)
{
    const entry *x = (const entry *)a, *y = (const entry *)b;
    return x->row != y->row ? (x->row < y->row ? -1 : 1) : x->col != y->col ? (x->col < y->col ? -1 : 1) : 0;
}

/* A 100000 x 100000 float64 COO matrix with duplicates (its keys need 64
   bits) to canonical CSR and CSC, checked entry by entry against a host
   sort and sum; and A @ x against the host's product. */
DEVICE_TEST(wide_shapes_sort_with_64_bit_keys)
{
    const int64_t m = 100000, n = 100000, nnz = test_size(300000, 30000);
    entry *e = malloc(sizeof(entry) * (size_t)nnz);
    int64_t *row = malloc(8 * (size_t)nnz), *col = malloc(8 * (size_t)nnz);
    long double *re = malloc(sizeof(long double) * (size_t)nnz), *im = calloc((size_t)nnz, sizeof(long double));
    for (int64_t j = 0; j < nnz; j++) {
        if (j > 0 && rnd() % 5 == 0) row[j] = row[j - 1], col[j] = col[j - 1]; /* duplicates */
        else row[j] = (int64_t)(rnd() % (uint64_t)m), col[j] = (int64_t)(rnd() % (uint64_t)n);
        re[j] = (long double)((int64_t)(rnd() % 7) - 3);
        e[j].row = row[j], e[j].col = col[j], e[j].v = (double)re[j];
    }
    qsort(e, (size_t)nnz, sizeof *e, entry_cmp);
    int64_t u = 0; /* summed in place */
    for (int64_t j = 0; j < nnz; j++) {
        if (u > 0 && e[u - 1].row == e[j].row && e[u - 1].col == e[j].col) e[u - 1].v += e[j].v;
        else e[u++] = e[j];
    }
    const int64_t shape[2] = {m, n};
    ga_array *d = upload_values(re, im, nnz, GA_FLOAT64), *r = upload_index(row, nnz, GA_INT32), *c = upload_index(col, nnz, GA_INT32);
    ga_sparse *coo = ga_sparse_coo_matrix(d, r, c, shape);
    ga_sparse *csr = ga_sparse_tocsr(coo), *csc = csr ? ga_sparse_tocsc(csr) : NULL, *back = csc ? ga_sparse_tocsr(csc) : NULL;
    CHECK(csr && csc && back, "conversions: %s", ga_last_error_message());
    ga_sparse *each[2] = {csr, back};
    for (int k = 0; k < 2 && csr && back; k++) {
        const char *what = k ? "COO -> CSR -> CSC -> CSR" : "COO -> CSR";
        CHECK(ga_sparse_nnz(each[k]) == u && ga_sparse_has_canonical_format(each[k]), "%s: nnz %lld, expected %lld", what,
              (long long)ga_sparse_nnz(each[k]), (long long)u);
        if (ga_sparse_nnz(each[k]) != u) continue;
        int32_t *ptr = malloc(4 * (size_t)(m + 1)), *idx = malloc(4 * (size_t)u);
        double *val = malloc(8 * (size_t)u);
        ga_array *a1 = ga_sparse_indptr(each[k]), *a2 = ga_sparse_indices(each[k]), *a3 = ga_sparse_data(each[k]);
        if (download(a1, ptr) && download(a2, idx) && download(a3, val)) {
            int bad = 0;
            for (int64_t i = 0, j = 0; i < m && bad < 3; i++)
                for (; j < ptr[i + 1] && bad < 3; j++)
                    if (e[j].row != i || e[j].col != idx[j] || e[j].v != val[j]) {
                        CHECK(false, "%s: entry %lld is (%lld, %d, %g), expected (%lld, %lld, %g)", what, (long long)j,
                              (long long)i, idx[j], val[j], (long long)e[j].row, (long long)e[j].col, e[j].v);
                        bad++;
                    }
        }
        ga_release(a1), ga_release(a2), ga_release(a3);
        free(ptr), free(idx), free(val);
    }
    /* y = A x on the host and on the device (from COO, CSR and CSC) */
    double *x = malloc(8 * (size_t)n);
    long double *yr = calloc((size_t)m, sizeof(long double)), *yi = calloc((size_t)m, sizeof(long double));
    for (int64_t i = 0; i < n; i++) x[i] = rnd_unit() - 0.5;
    for (int64_t j = 0; j < nnz; j++) yr[row[j]] += re[j] * x[col[j]];
    ga_array *xd = ga_from_host(x, GA_SHAPE(n), GA_FLOAT64);
    ga_sparse *ops[3] = {coo, csr, csc};
    for (int k = 0; k < 3; k++) {
        ga_array *y = ops[k] ? ga_sparse_matmul(ops[k], xd) : NULL;
        check_dense(y, yr, yi, m, GA_FLOAT64, 1e-12L, format_names[(k + 2) % 3]);
        ga_release(y);
    }
    ga_release(xd);
    ga_sparse_release(coo), ga_sparse_release(csr), ga_sparse_release(csc), ga_sparse_release(back);
    ga_release(d), ga_release(r), ga_release(c);
    free(e), free(row), free(col), free(re), free(im), free(x), free(yr), free(yi);
}

/* ---- CSR <-> CSC exactly as SciPy's counting sort ------------------------------------ */

/* A compressed matrix on the host: major lines of indices into minor,
   values as raw items of `item` bytes. */
typedef struct host_compressed {
    int64_t major, minor, nnz;
    int64_t *ptr, *idx;
    unsigned char *val;
} host_compressed;

static void hc_free(host_compressed *h)
{
    free(h->ptr), free(h->idx), free(h->val);
}

/* A random major x minor matrix of about nnz entries (any count: with
   `dups`, more than major * minor too), every 5th line empty: indices in a
   random order within each line unless `sorted`; with `dups` an entry
   repeats an index of its line one time in three. Values: random bytes
   (bool 0 or 1), one in eight an explicit zero. */
static host_compressed hc_random(ga_dtype dt, int64_t major, int64_t minor, int64_t nnz, bool dups, bool sorted)
{
    const size_t item = isz(dt);
    host_compressed h = {major, minor, 0, calloc((size_t)major + 1, 8), NULL, NULL};
    if (minor == 0) nnz = 0;
    const int64_t avg = major ? nnz / major : 0;
    for (int64_t r = 0; r < major; r++) {
        int64_t len = r % 5 == 4 || minor == 0 ? 0 : (int64_t)(rnd() % (uint64_t)(2 * avg + 2));
        if (!dups && len > minor) len = minor;
        h.ptr[r + 1] = h.ptr[r] + len;
    }
    h.nnz = h.ptr[major];
    h.idx = malloc(8 * (size_t)(h.nnz + 1));
    h.val = calloc((size_t)(h.nnz + 1), item);
    int64_t *pool = malloc(8 * (size_t)(minor + 1));
    for (int64_t r = 0; r < major; r++) {
        const int64_t a = h.ptr[r], len = h.ptr[r + 1] - a;
        if (!dups && len * 8 <= minor) { /* len distinct indices, drawn again where repeated */
            for (int64_t i = 0; i < len; i++) {
                bool again = true;
                while (again) {
                    h.idx[a + i] = (int64_t)(rnd() % (uint64_t)minor);
                    again = false;
                    for (int64_t k = 0; k < i && !again; k++) again = h.idx[a + k] == h.idx[a + i];
                }
            }
        } else if (!dups) { /* a partial shuffle of [0, minor) */
            for (int64_t i = 0; i < minor; i++) pool[i] = i;
            for (int64_t i = 0; i < len; i++) {
                int64_t k = i + (int64_t)(rnd() % (uint64_t)(minor - i)), v = pool[k];
                pool[k] = pool[i], pool[i] = v;
                h.idx[a + i] = v;
            }
        } else {
            for (int64_t i = 0; i < len; i++)
                h.idx[a + i] = i > 0 && rnd() % 3 == 0 ? h.idx[a + (int64_t)(rnd() % (uint64_t)i)]
                                                       : (int64_t)(rnd() % (uint64_t)minor);
        }
        if (sorted) /* insertion sort (stable: duplicates keep their order, with their values) */
            for (int64_t i = a + 1; i < a + len; i++)
                for (int64_t j = i; j > a && h.idx[j - 1] > h.idx[j]; j--) {
                    int64_t v = h.idx[j];
                    h.idx[j] = h.idx[j - 1], h.idx[j - 1] = v;
                }
    }
    free(pool);
    for (int64_t j = 0; j < h.nnz; j++) {
        unsigned char *p = h.val + (size_t)j * item;
        if (rnd() % 8 == 0) continue; /* an explicit zero */
        if (dt == GA_BOOL) p[0] = 1;
        else
            for (size_t b = 0; b < item; b++) p[b] = (unsigned char)(rnd() >> 24);
    }
    return h;
}

/* SciPy's csr_tocsc: a stable counting sort of the entries by their minor
   index, lines in order. */
static host_compressed hc_swap(const host_compressed *h, size_t item)
{
    host_compressed o = {h->minor, h->major, h->nnz, calloc((size_t)h->minor + 1, 8), malloc(8 * (size_t)(h->nnz + 1)),
                         calloc((size_t)(h->nnz + 1), item)};
    for (int64_t j = 0; j < h->nnz; j++) o.ptr[h->idx[j] + 1]++;
    for (int64_t c = 0; c < h->minor; c++) o.ptr[c + 1] += o.ptr[c];
    int64_t *fill = calloc((size_t)h->minor + 1, 8);
    for (int64_t r = 0; r < h->major; r++)
        for (int64_t j = h->ptr[r]; j < h->ptr[r + 1]; j++) {
            const int64_t c = h->idx[j], p = o.ptr[c] + fill[c]++;
            o.idx[p] = r;
            memcpy(o.val + (size_t)p * item, h->val + (size_t)j * item, item);
        }
    free(fill);
    return o;
}

/* A 1-d device array of n items of dtype dt from raw bytes. */
static ga_array *upload_items(const unsigned char *v, int64_t n, ga_dtype dt)
{
    return ga_from_host(v, 1, &n, dt);
}

/* Compressed s (format f) against the host matrix, array by array, exactly. */
static bool hc_equal(const ga_sparse *s, const host_compressed *h, ga_dtype dt, ga_dtype it, ga_sparse_format f,
                     const char *what)
{
    if (!s) {
        CHECK(false, "%s: failed: %s", what, ga_last_error_message());
        ga_clear_error();
        return false;
    }
    const size_t item = isz(dt), ib = isz(it);
    bool ok = true;
    CHECK(ok &= ga_sparse_format_of(s) == f, "%s: format %d, expected %d", what, (int)ga_sparse_format_of(s), (int)f);
    CHECK(ok &= ga_sparse_nnz(s) == h->nnz, "%s: nnz %lld, expected %lld", what, (long long)ga_sparse_nnz(s),
          (long long)h->nnz);
    CHECK(ok &= ga_sparse_dtype_of(s) == dt && ga_sparse_index_dtype(s) == it, "%s: dtypes %s, %s", what,
          dname(ga_sparse_dtype_of(s)), dname(ga_sparse_index_dtype(s)));
    if (!ok) return false;
    ga_array *a[3] = {ga_sparse_indptr(s), ga_sparse_indices(s), ga_sparse_data(s)};
    unsigned char *ptr = malloc(ib * (size_t)(h->major + 1)), *idx = malloc(ib * (size_t)(h->nnz + 1));
    unsigned char *val = malloc(item * (size_t)(h->nnz + 1));
    CHECK(ok &= a[0] && a[1] && a[2] && ga_size(a[0]) == h->major + 1, "%s: arrays", what);
    if (ok && download(a[0], ptr) && download(a[1], idx) && download(a[2], val)) {
        int bad = 0;
        for (int64_t i = 0; i <= h->major && bad < 3; i++) {
            int64_t v = ib == 4 ? (int64_t)((int32_t *)ptr)[i] : ((int64_t *)ptr)[i];
            if (v != h->ptr[i]) {
                CHECK(false, "%s: indptr[%lld] is %lld, expected %lld", what, (long long)i, (long long)v, (long long)h->ptr[i]);
                bad++, ok = false;
            }
        }
        for (int64_t j = 0; j < h->nnz && bad < 3; j++) {
            int64_t v = ib == 4 ? (int64_t)((int32_t *)idx)[j] : ((int64_t *)idx)[j];
            if (v != h->idx[j] || memcmp(val + (size_t)j * item, h->val + (size_t)j * item, item) != 0) {
                CHECK(false, "%s: entry %lld has index %lld, expected %lld, or other value bytes", what, (long long)j,
                      (long long)v, (long long)h->idx[j]);
                bad++, ok = false;
            }
        }
    } else {
        ok = false;
    }
    for (int k = 0; k < 3; k++) ga_release(a[k]);
    free(ptr), free(idx), free(val);
    return ok;
}

/* A compressed matrix of format f converted to the other compressed format
   (tocsc / tocsr and asformat) and back, each against the counting sort,
   by each of the two conversions (ga__sparse_swap_path). */
static void check_swap_exact_by(int path, ga_dtype dt, ga_dtype it, ga_sparse_format f, int64_t major, int64_t minor,
                                int64_t nnz, bool dups, bool sorted)
{
    const bool csr = f == GA_SPARSE_CSR;
    const ga_sparse_format g = csr ? GA_SPARSE_CSC : GA_SPARSE_CSR;
    const size_t item = isz(dt);
    host_compressed h = hc_random(dt, major, minor, nnz, dups, sorted);
    host_compressed w = hc_swap(&h, item), back = hc_swap(&w, item);
    char what[200];
    snprintf(what, sizeof what, "%s %s %lld x %lld, %lld entries%s%s, %s indices, %s", csr ? "csr" : "csc", dname(dt),
             (long long)(csr ? major : minor), (long long)(csr ? minor : major), (long long)h.nnz, dups ? ", duplicates" : "",
             sorted ? "" : ", unsorted", dname(it), path == 2 ? "cub sort" : "digit passes");
    ga__sparse_index_bits = it == GA_INT64 ? 64 : 32;
    ga__sparse_swap_path = path;
    const size_t before = used_bytes();
    const int64_t shape[2] = {csr ? major : minor, csr ? minor : major};
    ga_array *data = upload_items(h.val, h.nnz, dt), *indices = upload_index(h.idx, h.nnz, it);
    ga_array *indptr = upload_index(h.ptr, major + 1, it);
    ga_sparse *s = csr ? ga_sparse_csr_matrix(data, indices, indptr, shape) : ga_sparse_csc_matrix(data, indices, indptr, shape);
    ga_release(data), ga_release(indices), ga_release(indptr);
    CHECK(s != NULL, "%s: construction: %s", what, ga_last_error_message());
    if (s) {
        bool increasing = true; /* (short lines may be so by chance) */
        for (int64_t r = 0; r < major; r++)
            for (int64_t j = h.ptr[r] + 1; j < h.ptr[r + 1]; j++) increasing &= h.idx[j - 1] < h.idx[j];
        const bool canonical = ga_sparse_has_canonical_format(s);
        CHECK(canonical == increasing, "%s: canonical %d", what, (int)canonical);
        ga_sparse *c = csr ? ga_sparse_tocsc(s) : ga_sparse_tocsr(s);
        char w2[240];
        snprintf(w2, sizeof w2, "%s -> %s", what, csr ? "csc" : "csr");
        if (hc_equal(c, &w, dt, it, g, w2)) {
            CHECK(ga_sparse_has_canonical_format(c) == canonical, "%s: canonical %d", w2, (int)ga_sparse_has_canonical_format(c));
            ga_sparse *b = csr ? ga_sparse_tocsr(c) : ga_sparse_tocsc(c);
            snprintf(w2, sizeof w2, "%s -> and back", what);
            hc_equal(b, &back, dt, it, f, w2);
            ga_sparse_release(b);
        }
        ga_sparse_release(c);
        c = ga_sparse_asformat(s, g);
        snprintf(w2, sizeof w2, "%s, asformat", what);
        hc_equal(c, &w, dt, it, g, w2);
        ga_sparse_release(c);
        ga_sparse *t = ga_sparse_transpose(s); /* the same arrays in the other format: no conversion */
        ga_sparse *tc = t ? ga_sparse_asformat(t, f) : NULL;
        snprintf(w2, sizeof w2, "%s, transpose then asformat", what);
        hc_equal(tc, &w, dt, it, f, w2);
        ga_sparse_release(tc), ga_sparse_release(t);
    }
    ga_sparse_release(s);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    ga__sparse_index_bits = 32;
    ga__sparse_swap_path = 0;
    hc_free(&h), hc_free(&w), hc_free(&back);
}

static void check_swap_exact(ga_dtype dt, ga_dtype it, ga_sparse_format f, int64_t major, int64_t minor, int64_t nnz,
                             bool dups, bool sorted)
{
    for (int path = 0; path <= 2; path += 2) check_swap_exact_by(path, dt, it, f, major, minor, nnz, dups, sorted);
}

/* tocsc / tocsr equal SciPy's counting sort array for array, by both
   conversions: every dtype, both index dtypes, odd, 1 x N, N x 1 and
   empty shapes, every 5th line empty, duplicates (more entries than
   places), unsorted input, explicit zeros; minor sizes at the digit edges
   (1, 2, 256, 257, 2048, 2049, 65536, 65537), 2**20 + 3 (two passes of
   11-bit digits, several chunks) and 2**23 + 5 (three). */
DEVICE_TEST(csr_csc_conversions_are_scipys_counting_sort)
{
    const int64_t shapes[][3] = {{0, 0, 0},    {0, 7, 0},      {7, 0, 0},     {1, 1, 1},      {1, 1, 9},
                                 {1, 37, 20},  {37, 1, 20},    {5, 2, 30},    {37, 53, 300},  {53, 37, 1500},
                                 {9, 256, 400}, {9, 257, 400}, {300, 301, 2000}, {40, 65536, 3000}, {40, 65537, 3000},
                                 {50, 2048, 5000}, {50, 2049, 5000}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int sh = 0; sh < nshapes; sh++)
            for (int mode = 0; mode < 3; mode++, i++) { /* sorted unique, unsorted unique, unsorted with duplicates */
                if (!test_sample(i, 4)) continue;
                const ga_sparse_format f = (i / 3) % 2 ? GA_SPARSE_CSC : GA_SPARSE_CSR;
                const ga_dtype it = i % 5 == 2 ? GA_INT64 : GA_INT32;
                check_swap_exact(sparse_dtypes[k], it, f, shapes[sh][0], shapes[sh][1], shapes[sh][2], mode == 2, mode == 0);
            }
    /* many digit passes, both index dtypes */
    const int64_t big_minor = (1 << 20) + 3, big_nnz = test_size(400000, 60000);
    check_swap_exact(GA_FLOAT32, GA_INT32, GA_SPARSE_CSR, 5000, big_minor, big_nnz, true, false);
    check_swap_exact(GA_COMPLEX128, GA_INT64, GA_SPARSE_CSC, 3000, big_minor, big_nnz / 4, false, true);
    check_swap_exact(GA_INT16, GA_INT32, GA_SPARSE_CSR, big_minor, 70000, big_nnz, true, false);
    check_swap_exact(GA_FLOAT64, GA_INT32, GA_SPARSE_CSR, 2000, (1 << 23) + 5, big_nnz / 8, true, false);
    check_swap_exact(GA_BOOL, GA_INT64, GA_SPARSE_CSC, 700, (1 << 23) + 5, big_nnz / 8, false, true);
}

/* ---- random, kron, hstack, vstack, block_diag, tril, triu ------------------------------- */

TEST(construction_arguments_refused_before_the_device)
{
    CHECK_ERROR(ga_sparse_random(3, 4, 1.5, GA_SPARSE_COO, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "ga_sparse_random: density expected to be 0 <= density <= 1");
    CHECK_ERROR(ga_sparse_random(3, 4, -0.1, GA_SPARSE_COO, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "density expected to be 0 <= density <= 1");
    CHECK_ERROR(ga_sparse_random(3, 4, NAN, GA_SPARSE_COO, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "density expected to be 0 <= density <= 1");
    CHECK_ERROR(ga_sparse_random(-3, 4, 0.5, GA_SPARSE_COO, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "ga_sparse_random: negative dimensions are not allowed");
    CHECK_ERROR(ga_sparse_random(3, 4, 0.5, GA_SPARSE_COO, GA_FLOAT16, NULL) == NULL, GA_ERROR_TYPE,
                "ga_sparse_random: scipy.sparse does not support dtype float16");
    CHECK_ERROR(ga_sparse_random(3, 4, 0.5, (ga_sparse_format)5, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "ga_sparse_random: Format 5 is unknown.");
    CHECK_ERROR(ga_sparse_random(INT64_MAX / 2, 4, 0.5, GA_SPARSE_COO, GA_FLOAT64, NULL) == NULL, GA_ERROR_VALUE,
                "the product of dimensions is greater than 9223372036854775807");
    CHECK_ERROR(ga_sparse_kron(NULL, NULL, GA_SPARSE_COO) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_kron: A is NULL");
    CHECK_ERROR(ga_sparse_hstack(0, NULL, GA_SPARSE_COO, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_sparse_hstack: blocks must not be empty");
    const ga_sparse *none[2] = {NULL, NULL};
    CHECK_ERROR(ga_sparse_vstack(2, none, GA_SPARSE_COO, GA_DTYPE_INVALID) == NULL, GA_ERROR_NULL_INPUT,
                "ga_sparse_vstack: blocks[i] is NULL");
    CHECK_ERROR(ga_sparse_block_diag(1, NULL, GA_SPARSE_COO, GA_DTYPE_INVALID) == NULL, GA_ERROR_NULL_INPUT,
                "ga_sparse_block_diag: blocks is NULL");
    CHECK_ERROR(ga_sparse_tril(NULL, 0, GA_SPARSE_COO) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_tril: A is NULL");
    CHECK_ERROR(ga_sparse_triu(NULL, 0, GA_SPARSE_COO) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_triu: A is NULL");
}

/* random(m, n, density, format, dtype, g) against the draws it is made of,
   taken from a generator of the same seed: g.choice(m n, k, replace=False)
   as column-major positions, then the values (SciPy's data_rvs). */
static void check_random(int64_t m, int64_t n, double density, ga_sparse_format f, ga_dtype dt, uint32_t seed)
{
    char what[160];
    snprintf(what, sizeof what, "random(%lld, %lld, %g, %s, %s)", (long long)m, (long long)n, density, format_names[f],
             dname(dt));
    size_t before = used_bytes();
    ga_generator *g = ga_random_default_rng(&seed, 1), *h = ga_random_default_rng(&seed, 1);
    ga_sparse *s = ga_sparse_random(m, n, density, f, dt, g);
    int64_t k = (int64_t)nearbyint(density * (double)m * (double)n);
    if (!s) {
        CHECK(false, "%s: %s", what, ga_last_error_message());
        ga_clear_error();
        ga_generator_release(g), ga_generator_release(h);
        return;
    }
    CHECK(ga_sparse_format_of(s) == f && ga_sparse_dtype_of(s) == dt && ga_sparse_nnz(s) == k &&
              ga_sparse_shape(s)[0] == m && ga_sparse_shape(s)[1] == n,
          "%s: format %d, dtype %s, nnz %lld (expected %lld)", what, (int)ga_sparse_format_of(s), dname(ga_sparse_dtype_of(s)),
          (long long)ga_sparse_nnz(s), (long long)k);
    /* the reference draws */
    ga_array *pos = ga_random_choice(h, m * n, 1, &k, false, NULL), *u = NULL, *v = NULL;
    const int bits = width(dt);
    if (is_integer(dt))
        u = ga_random_integers(h, is_signed(dt) ? ga_int(bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : ga_int(0),
                               is_signed(dt) ? ga_int(bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1)
                                             : ga_uint(bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1),
                               1, &k, dt, false);
    else u = ga_random_uniform(h, 0, 1, 1, &k);
    if (is_complex(dt)) v = ga_random_uniform(h, 0, 1, 1, &k);
    int64_t *p = malloc(8 * (size_t)(k + 1));
    unsigned char *vals = malloc(8 * (size_t)(k + 1)), *ims = calloc((size_t)(k + 1), 8);
    unsigned char *want = calloc((size_t)(m * n + 1), isz(dt)), *got = malloc((size_t)(m * n + 1) * isz(dt));
    ga_array *d = ga_sparse_toarray(s);
    if (pos && u && (!is_complex(dt) || v) && d && download(pos, p) && download(u, vals) && (!v || download(v, ims)) &&
        download(d, got)) {
        for (int64_t j = 0; j < k; j++) {
            const int64_t r = p[j] % m, c = p[j] / m;
            unsigned char *at = want + (size_t)(r * n + c) * isz(dt);
            if (is_integer(dt)) memcpy(at, vals + (size_t)j * isz(dt), isz(dt));
            else {
                double re, im = 0;
                memcpy(&re, vals + 8 * j, 8);
                if (v) memcpy(&im, ims + 8 * j, 8);
                store(dt, re, im, at);
                if (!is_complex(dt)) CHECK(re >= 0 && re < 1, "%s: value %g outside [0, 1)", what, re);
            }
        }
        CHECK(memcmp(want, got, (size_t)(m * n) * isz(dt)) == 0, "%s: the matrix differs from its draws", what);
    } else {
        CHECK(false, "%s: reference draws: %s", what, ga_last_error_message());
        ga_clear_error();
    }
    /* the generator moved past the same draws: the next values agree */
    ga_array *a1 = ga_random_random(g, GA_SHAPE(3), GA_FLOAT64), *a2 = ga_random_random(h, GA_SHAPE(3), GA_FLOAT64);
    CHECK(a1 && a2 && same_array(a1, a2), "%s: the generator left where the draws end", what);
    ga_release(a1), ga_release(a2), ga_release(pos), ga_release(u), ga_release(v), ga_release(d);
    free(p), free(vals), free(ims), free(want), free(got);
    ga_sparse_release(s);
    ga_generator_release(g), ga_generator_release(h);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
}

DEVICE_TEST(random_matrices_are_their_draws)
{
    const int64_t shapes[][2] = {{0, 0}, {0, 5}, {7, 0}, {1, 1}, {13, 17}, {40, 3}, {3, 101}};
    const double densities[] = {0, 0.1, 0.37, 1};
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++, i++)
                if (test_sample(i, 4))
                    check_random(shapes[s][0], shapes[s][1], densities[d], formats[i % 3], sparse_dtypes[k], 17u + (uint32_t)i);
    /* a large sparse one: the permutation path and the sequential one */
    check_random(1000, 999, 0.3, GA_SPARSE_CSR, GA_FLOAT32, 5);
    check_random(1000, 999, 0.01, GA_SPARSE_CSC, GA_COMPLEX128, 6);
    /* the same seed gives the same matrix; NULL draws from the global generator */
    uint32_t seed = 99;
    ga_generator *g1 = ga_random_default_rng(&seed, 1), *g2 = ga_random_default_rng(&seed, 1);
    ga_sparse *a = ga_sparse_random(50, 60, 0.2, GA_SPARSE_CSR, GA_FLOAT64, g1);
    ga_sparse *b = ga_sparse_random(50, 60, 0.2, GA_SPARSE_CSR, GA_FLOAT64, g2);
    ga_sparse *c = ga_sparse_random(50, 60, 0.2, GA_SPARSE_CSR, GA_DTYPE_INVALID, NULL);
    ga_array *da = a ? ga_sparse_toarray(a) : NULL, *db = b ? ga_sparse_toarray(b) : NULL;
    CHECK(da && db && same_array(da, db), "the same seed, the same matrix");
    CHECK(c && ga_sparse_dtype_of(c) == GA_FLOAT64 && ga_sparse_nnz(c) == 600 && ga_sparse_has_canonical_format(c),
          "the global generator: float64, 600 entries, canonical CSR");
    ga_release(da), ga_release(db);
    ga_sparse_release(a), ga_sparse_release(b), ga_sparse_release(c);
    ga_generator_release(g1), ga_generator_release(g2);
    uint32_t words[1] = {3};
    ga_generator *p64 = ga_random_philox(words, 1);
    CHECK_ERROR(ga_sparse_random(3, 3, 0.5, GA_SPARSE_COO, GA_FLOAT64, p64) == NULL, GA_ERROR_NOT_IMPLEMENTED,
                "ga_sparse_random: draws of the Philox (NumPy) bit generator");
    ga_generator_release(p64);
}

/* The product dtype's reference of a * b (bool: and). */
static void mul_values(ga_dtype dt, long double ar, long double ai, long double br, long double bi, long double *re,
                       long double *im)
{
    if (dt == GA_BOOL) *re = (ar != 0) && (br != 0), *im = 0;
    else *re = ar * br - ai * bi, *im = ar * bi + ai * br;
}

static void check_kron(ga_dtype da, ga_dtype db, ga_sparse_format fa, ga_sparse_format fb, ga_sparse_format fr,
                       const int64_t sa[2], const int64_t sb[2])
{
    triplets a = trip_random(da, sa[0], sa[1], 2 * (sa[0] + sa[1]), true, true);
    triplets b = trip_random(db, sb[0], sb[1], 2 * (sb[0] + sb[1]), true, true);
    const ga_dtype dt = ga_promote_types(da, db);
    triplets r = trip_new(sa[0] * sb[0], sa[1] * sb[1], a.nnz * b.nnz);
    for (int64_t i = 0; i < a.nnz; i++)
        for (int64_t j = 0; j < b.nnz; j++) {
            const int64_t e = i * b.nnz + j;
            r.row[e] = a.row[i] * sb[0] + b.row[j];
            r.col[e] = a.col[i] * sb[1] + b.col[j];
            mul_values(dt, a.re[i], a.im[i], b.re[j], b.im[j], &r.re[e], &r.im[e]);
        }
    char what[200];
    snprintf(what, sizeof what, "kron(%s %s (%lld, %lld), %s %s (%lld, %lld)) as %s", format_names[fa], dname(da),
             (long long)sa[0], (long long)sa[1], format_names[fb], dname(db), (long long)sb[0], (long long)sb[1],
             format_names[fr]);
    size_t before = used_bytes();
    ga_sparse *x = make_sparse(&a, da, fa, GA_INT32), *y = make_sparse(&b, db, fb, GA_INT32);
    ga_sparse *k = x && y ? ga_sparse_kron(x, y, fr) : NULL;
    check_sparse(k, &r, dt, what);
    if (k) {
        CHECK(ga_sparse_format_of(k) == fr && ga_sparse_dtype_of(k) == dt, "%s: format and dtype", what);
        if (fr == GA_SPARSE_COO) CHECK(ga_sparse_nnz(k) == r.nnz, "%s: nnz %lld, expected %lld (every pair kept)", what,
                                       (long long)ga_sparse_nnz(k), (long long)r.nnz);
    }
    ga_sparse_release(k), ga_sparse_release(x), ga_sparse_release(y);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    trip_free(&a), trip_free(&b), trip_free(&r);
}

DEVICE_TEST(kron_every_dtype_and_format)
{
    const int64_t s1[2] = {5, 7}, s2[2] = {3, 2}, s0[2] = {0, 4}, s11[2] = {1, 1};
    for (int k = 0; k < NDTYPES; k++)
        for (int f = 0; f < 3; f++)
            if (test_sample(k * 3 + f, 3))
                check_kron(sparse_dtypes[k], sparse_dtypes[k], formats[f], formats[(f + 1) % 3], formats[(k + f) % 3], s1, s2);
    const ga_dtype pairs[][2] = {{GA_BOOL, GA_FLOAT32}, {GA_INT8, GA_UINT8}, {GA_FLOAT32, GA_COMPLEX128},
                                 {GA_UINT64, GA_INT64}, {GA_BOOL, GA_BOOL}, {GA_INT16, GA_COMPLEX64}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        check_kron(pairs[i][0], pairs[i][1], formats[i % 3], formats[(i + 2) % 3], formats[(i + 1) % 3], s2, s1);
    check_kron(GA_FLOAT64, GA_FLOAT64, GA_SPARSE_CSR, GA_SPARSE_COO, GA_SPARSE_CSR, s0, s1);
    check_kron(GA_FLOAT64, GA_INT32, GA_SPARSE_COO, GA_SPARSE_CSC, GA_SPARSE_COO, s1, s0);
    check_kron(GA_COMPLEX64, GA_COMPLEX64, GA_SPARSE_CSC, GA_SPARSE_CSR, GA_SPARSE_CSC, s11, s1);
    ga__sparse_index_bits = 64;
    check_kron(GA_FLOAT32, GA_INT64, GA_SPARSE_CSR, GA_SPARSE_CSC, GA_SPARSE_CSR, s1, s2);
    ga__sparse_index_bits = 32;
    /* a product of 3000 x 3000 blocks: 9e6 rows, row and column indices past 2**16 */
    ga_sparse *e = ga_sparse_eye(3000, 3000, 1, GA_FLOAT32, GA_SPARSE_CSR), *k = e ? ga_sparse_kron(e, e, GA_SPARSE_CSR) : NULL;
    CHECK(k && ga_sparse_shape(k)[0] == 9000000 && ga_sparse_nnz(k) == 2999 * 2999, "kron of two eyes: %s",
          ga_last_error_message());
    if (k) { /* rows 0 and 1 hold one entry each; row 0's at (0 * 3000 + 1) * 3000 + 1 */
        ga_array *ip = ga_sparse_indptr(k), *ix = ga_sparse_indices(k);
        int32_t p[3] = {0, 0, 0}, c = -1;
        ga_array *hp = ip ? head_of(ip, 3) : NULL;
        if (hp && download(hp, p)) CHECK(p[0] == 0 && p[1] == 1 && p[2] == 2, "indptr starts 0, 1, 2");
        ga_array *hx = ix ? head_of(ix, 1) : NULL;
        if (hx && download(hx, &c)) CHECK(c == 3001, "the first entry at column 3001, got %d", c);
        ga_release(ip), ga_release(ix), ga_release(hp), ga_release(hx);
    }
    ga_sparse_release(e), ga_sparse_release(k);
    ga_clear_error();
}

/* hstack (0), vstack (1), block_diag (2) of three blocks. */
static void check_stack(int kind, const ga_dtype *dts, const int64_t (*shapes)[2], ga_sparse_format fr, ga_dtype dtype)
{
    static const char *const names[] = {"hstack", "vstack", "block_diag"};
    triplets t[3];
    ga_sparse *b[3];
    int64_t rows = 0, cols = 0, total = 0;
    for (int i = 0; i < 3; i++) {
        t[i] = trip_random(dts[i], shapes[i][0], shapes[i][1], shapes[i][0] * shapes[i][1] / 2 + 1, i != 1, i == 2);
        b[i] = make_sparse(&t[i], dts[i], formats[i], GA_INT32);
        total += t[i].nnz;
    }
    for (int i = 0; i < 3; i++) {
        rows = kind == 0 ? (shapes[i][0] ? shapes[i][0] : rows) : rows + shapes[i][0];
        cols = kind == 1 ? (shapes[i][1] ? shapes[i][1] : cols) : cols + shapes[i][1];
    }
    const ga_dtype dt = dtype != GA_DTYPE_INVALID ? dtype : ga_promote_types(ga_promote_types(dts[0], dts[1]), dts[2]);
    triplets r = trip_new(rows, cols, total);
    int64_t r0 = 0, c0 = 0, e = 0;
    for (int i = 0; i < 3; i++) {
        for (int64_t j = 0; j < t[i].nnz; j++, e++) {
            r.row[e] = t[i].row[j] + (kind == 0 ? 0 : r0);
            r.col[e] = t[i].col[j] + (kind == 1 ? 0 : c0);
            r.re[e] = dt == GA_BOOL ? t[i].re[j] != 0 || t[i].im[j] != 0 : t[i].re[j];
            r.im[e] = is_complex(dt) ? t[i].im[j] : 0;
        }
        r0 += shapes[i][0], c0 += shapes[i][1];
    }
    char what[200];
    snprintf(what, sizeof what, "%s of %s (%lld, %lld), %s, %s as %s %s", names[kind], dname(dts[0]), (long long)shapes[0][0],
             (long long)shapes[0][1], dname(dts[1]), dname(dts[2]), format_names[fr], dname(dt));
    size_t before = used_bytes();
    const ga_sparse *const blocks[3] = {b[0], b[1], b[2]};
    ga_sparse *s = kind == 0 ? ga_sparse_hstack(3, blocks, fr, dtype)
                 : kind == 1 ? ga_sparse_vstack(3, blocks, fr, dtype)
                             : ga_sparse_block_diag(3, blocks, fr, dtype);
    check_sparse(s, &r, dt, what);
    if (s) {
        CHECK(ga_sparse_format_of(s) == fr && ga_sparse_dtype_of(s) == dt, "%s: format and dtype", what);
        if (fr == GA_SPARSE_COO) CHECK(ga_sparse_nnz(s) == total, "%s: nnz %lld, expected %lld", what,
                                       (long long)ga_sparse_nnz(s), (long long)total);
        else CHECK(ga_sparse_has_canonical_format(s), "%s: canonical", what);
    }
    ga_sparse_release(s);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    for (int i = 0; i < 3; i++) ga_sparse_release(b[i]), trip_free(&t[i]);
    trip_free(&r);
}

DEVICE_TEST(hstack_vstack_block_diag)
{
    const int64_t hs[3][2] = {{6, 3}, {6, 1}, {6, 9}}, vs[3][2] = {{2, 7}, {5, 7}, {1, 7}}, ds[3][2] = {{3, 4}, {1, 1}, {5, 2}};
    const int64_t he[3][2] = {{0, 3}, {4, 0}, {4, 2}}, ve[3][2] = {{0, 0}, {3, 5}, {2, 5}}, de[3][2] = {{0, 0}, {0, 3}, {2, 0}};
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int kind = 0; kind < 3; kind++, i++) {
            if (!test_sample(i, 3)) continue;
            const ga_dtype d = sparse_dtypes[k], same[3] = {d, d, d};
            check_stack(kind, same, kind == 0 ? hs : kind == 1 ? vs : ds, formats[i % 3], GA_DTYPE_INVALID);
        }
    const ga_dtype mixed[][3] = {{GA_BOOL, GA_INT8, GA_UINT8}, {GA_FLOAT32, GA_INT64, GA_BOOL}, {GA_COMPLEX64, GA_FLOAT64, GA_INT16}};
    for (int kind = 0; kind < 3; kind++)
        for (int m = 0; m < 3; m++) {
            check_stack(kind, mixed[m], kind == 0 ? hs : kind == 1 ? vs : ds, formats[(kind + m) % 3], GA_DTYPE_INVALID);
            check_stack(kind, mixed[m], kind == 0 ? he : kind == 1 ? ve : de, formats[(kind + m + 1) % 3], GA_DTYPE_INVALID);
        }
    const ga_dtype ints[3] = {GA_INT8, GA_INT16, GA_INT32};
    check_stack(0, ints, hs, GA_SPARSE_CSR, GA_FLOAT32); /* dtype given */
    check_stack(2, ints, ds, GA_SPARSE_COO, GA_UINT8);   /* (negative values wrap) */
    /* SciPy's errors */
    ga_sparse *a = ga_sparse_eye(3, 4, 0, GA_FLOAT32, GA_SPARSE_CSR), *b = ga_sparse_eye(2, 5, 0, GA_FLOAT32, GA_SPARSE_COO);
    const ga_sparse *ab[2] = {a, b};
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_hstack(2, ab, GA_SPARSE_COO, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_sparse_hstack: blocks[0,:] has incompatible row dimensions. Got blocks[0,1].shape[0] == 2, expected 3.");
    CHECK_ERROR(ga_sparse_vstack(2, ab, GA_SPARSE_CSR, GA_DTYPE_INVALID) == NULL, GA_ERROR_VALUE,
                "ga_sparse_vstack: blocks[:,0] has incompatible column dimensions. Got blocks[1,0].shape[1] == 5, expected 4.");
    CHECK_ERROR(ga_sparse_block_diag(2, ab, GA_SPARSE_CSR, GA_FLOAT16) == NULL, GA_ERROR_TYPE, "does not support dtype float16");
    ga_sparse *d = ga_sparse_block_diag(2, ab, GA_SPARSE_CSC, GA_DTYPE_INVALID);
    CHECK(d && ga_sparse_shape(d)[0] == 5 && ga_sparse_shape(d)[1] == 9 && ga_sparse_nnz(d) == 5, "block_diag of two eyes");
    ga_sparse_release(d);
    CHECK(used_bytes() == before, "nothing left in use by the refusals");
    ga_sparse_release(a), ga_sparse_release(b);
}

static void check_triangle(ga_dtype dt, ga_sparse_format f, ga_sparse_format fr, int64_t m, int64_t n, int64_t k,
                           bool upper, bool dups)
{
    triplets t = trip_random(dt, m, n, m * n / 3 + 2, dups, dups);
    triplets r = trip_new(m, n, t.nnz);
    int64_t e = 0;
    for (int64_t j = 0; j < t.nnz; j++)
        if (upper ? t.col[j] - t.row[j] >= k : t.col[j] - t.row[j] <= k)
            r.row[e] = t.row[j], r.col[e] = t.col[j], r.re[e] = t.re[j], r.im[e] = t.im[j], e++;
    r.nnz = e;
    char what[160];
    snprintf(what, sizeof what, "%s(%s %s (%lld, %lld)%s, k=%lld) as %s", upper ? "triu" : "tril", format_names[f], dname(dt),
             (long long)m, (long long)n, dups ? " with duplicates" : "", (long long)k, format_names[fr]);
    size_t before = used_bytes();
    ga_sparse *s = make_sparse(&t, dt, f, GA_INT32);
    ga_sparse *x = s ? upper ? ga_sparse_triu(s, k, fr) : ga_sparse_tril(s, k, fr) : NULL;
    check_sparse(x, &r, dt, what);
    if (x) {
        CHECK(ga_sparse_format_of(x) == fr && ga_sparse_dtype_of(x) == dt, "%s: format and dtype", what);
        if (fr == f) CHECK(ga_sparse_nnz(x) == e, "%s: nnz %lld, expected %lld (stored entries kept)", what,
                           (long long)ga_sparse_nnz(x), (long long)e);
    }
    ga_sparse_release(x), ga_sparse_release(s);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    trip_free(&t), trip_free(&r);
}

DEVICE_TEST(tril_triu)
{
    const int64_t ks[] = {-3, -1, 0, 1, 2, 40, -40};
    int i = 0;
    for (int d = 0; d < NDTYPES; d++)
        for (int f = 0; f < 3; f++)
            for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++, i++)
                if (test_sample(i, 5)) {
                    check_triangle(sparse_dtypes[d], formats[f], formats[(f + k) % 3], 11, 8, ks[k], false, i % 2 == 0);
                    check_triangle(sparse_dtypes[d], formats[f], formats[(f + k + 1) % 3], 6, 13, ks[k], true, i % 2 == 1);
                }
    check_triangle(GA_FLOAT64, GA_SPARSE_CSR, GA_SPARSE_CSR, 0, 0, 0, false, false);
    check_triangle(GA_FLOAT32, GA_SPARSE_COO, GA_SPARSE_CSC, 0, 5, 1, true, false);
    check_triangle(GA_INT32, GA_SPARSE_CSC, GA_SPARSE_COO, 300, 200, -7, true, true);
    ga__sparse_index_bits = 64;
    check_triangle(GA_COMPLEX128, GA_SPARSE_CSR, GA_SPARSE_CSR, 40, 30, 2, false, true);
    check_triangle(GA_UINT16, GA_SPARSE_CSC, GA_SPARSE_COO, 30, 40, -2, true, false);
    ga__sparse_index_bits = 32;
}

/* ---- multiply, maximum, minimum, comparisons --------------------------------------------- */

/* v as a value of dtype dt (integers wrap, bool is truth). */
static long double in_dtype(ga_dtype dt, long double v)
{
    if (dt == GA_BOOL) return v != 0;
    if (!is_exact(dt)) return v;
    uint64_t w = wrap(dt, (uint64_t)(int64_t)v);
    return is_signed(dt) ? (long double)(int64_t)w : (long double)w;
}

/* a < b as SciPy's sparsetools order them (complex: real, then imaginary). */
static bool sp_less(long double ar, long double ai, long double br, long double bi)
{
    return ar < br || (ar == br && ai < bi);
}

/* The dense m x n reference of t in dt (values in dt) and where t stores an entry. */
static void trip_dense_stored(const triplets *t, ga_dtype dt, long double *re, long double *im, bool *stored)
{
    trip_dense(t, dt, re, im);
    for (int64_t i = 0; i < t->m * t->n; i++) re[i] = in_dtype(dt, re[i]), stored[i] = false;
    for (int64_t j = 0; j < t->nnz; j++) stored[t->row[j] * t->n + t->col[j]] = true;
}

static void check_merge_op(ga_dtype dt, ga_sparse_format fa, ga_sparse_format fb, int op, int64_t m, int64_t n)
{
    static const char *const names[] = {"multiply", "maximum", "minimum"};
    triplets a = trip_random(dt, m, n, m * n / 3 + 1, true, true), b = trip_random(dt, m, n, m * n / 3 + 1, fb != GA_SPARSE_COO, false);
    const int64_t size = m * n;
    long double *ar = malloc(sizeof(long double) * (size_t)(size + 1)), *ai = malloc(sizeof(long double) * (size_t)(size + 1));
    long double *br = malloc(sizeof(long double) * (size_t)(size + 1)), *bi = malloc(sizeof(long double) * (size_t)(size + 1));
    long double *rr = malloc(sizeof(long double) * (size_t)(size + 1)), *ri = malloc(sizeof(long double) * (size_t)(size + 1));
    bool *sa = malloc((size_t)size + 1), *sb = malloc((size_t)size + 1);
    trip_dense_stored(&a, dt, ar, ai, sa);
    trip_dense_stored(&b, dt, br, bi, sb);
    int64_t nz = 0;
    for (int64_t i = 0; i < size; i++) {
        if (op == 0) {
            if (dt == GA_BOOL) rr[i] = ar[i] != 0 && br[i] != 0, ri[i] = 0;
            else rr[i] = in_dtype(dt, ar[i] * br[i] - ai[i] * bi[i]), ri[i] = ar[i] * bi[i] + ai[i] * br[i];
        } else {
            const bool take_b = op == 1 ? sp_less(ar[i], ai[i], br[i], bi[i]) : sp_less(br[i], bi[i], ar[i], ai[i]);
            rr[i] = take_b ? br[i] : ar[i], ri[i] = take_b ? bi[i] : ai[i];
        }
        nz += (rr[i] != 0 || ri[i] != 0) && (sa[i] || sb[i]);
    }
    char what[160];
    snprintf(what, sizeof what, "%s(%s %s, %s) (%lld x %lld)", names[op], format_names[fa], dname(dt), format_names[fb],
             (long long)m, (long long)n);
    size_t before = used_bytes();
    ga_sparse *x = make_sparse(&a, dt, fa, GA_INT32), *y = make_sparse(&b, dt, fb, GA_INT32);
    ga_sparse *r = op == 0 ? ga_sparse_multiply(x, y) : op == 1 ? ga_sparse_maximum(x, y) : ga_sparse_minimum(x, y);
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        CHECK(ga_sparse_has_canonical_format(r) && ga_sparse_nnz(r) == nz, "%s: nnz %lld, expected %lld (zeros dropped)", what,
              (long long)ga_sparse_nnz(r), (long long)nz);
        CHECK(ga_sparse_format_of(r) == (fa == GA_SPARSE_CSC ? GA_SPARSE_CSC : GA_SPARSE_CSR), "%s: format", what);
        ga_array *d = ga_sparse_toarray(r);
        check_dense(d, rr, ri, size, dt, 0, what);
        ga_release(d);
    }
    ga_sparse_release(r), ga_sparse_release(x), ga_sparse_release(y);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(ar), free(ai), free(br), free(bi), free(rr), free(ri), free(sa), free(sb);
    trip_free(&a), trip_free(&b);
}

DEVICE_TEST(elementwise_multiply_maximum_minimum)
{
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int f = 0; f < 3; f++)
            for (int op = 0; op < 3; op++, i++)
                if (test_sample(i, 3)) {
                    check_merge_op(sparse_dtypes[k], formats[f], formats[(f + op + 1) % 3], op, 19, 23);
                    check_merge_op(sparse_dtypes[k], formats[(f + 2) % 3], formats[f], op, 1, 40);
                }
    check_merge_op(GA_FLOAT64, GA_SPARSE_CSR, GA_SPARSE_COO, 0, 0, 0);
    check_merge_op(GA_INT16, GA_SPARSE_CSC, GA_SPARSE_CSR, 1, 7, 0);
    /* NaN: std::max / std::min keep the first operand unless the second is larger */
    const double av[2] = {NAN, 1}, bv[2] = {1, NAN};
    const int32_t idx[2] = {0, 1}, ptr[3] = {0, 1, 2};
    ga_array *ad = ga_from_host(av, GA_SHAPE(2), GA_FLOAT64), *bd = ga_from_host(bv, GA_SHAPE(2), GA_FLOAT64);
    ga_array *ix = ga_from_host(idx, GA_SHAPE(2), GA_INT32), *pt = ga_from_host(ptr, GA_SHAPE(3), GA_INT32);
    ga_sparse *a = ga_sparse_csr_matrix(ad, ix, pt, NULL), *b = ga_sparse_csr_matrix(bd, ix, pt, NULL);
    ga_sparse *mx = ga_sparse_maximum(a, b), *mn = ga_sparse_minimum(a, b);
    ga_array *dx = mx ? ga_sparse_toarray(mx) : NULL, *dn = mn ? ga_sparse_toarray(mn) : NULL;
    double gx[4] = {0, 0, 0, 0}, gn[4] = {0, 0, 0, 0};
    if (dx && dn && download(dx, gx) && download(dn, gn))
        CHECK(isnan(gx[0]) && gx[3] == 1 && isnan(gn[0]) && gn[3] == 1, "maximum / minimum with NaN: %g %g, %g %g", gx[0],
              gx[3], gn[0], gn[3]);
    else CHECK(false, "NaN operands: %s", ga_last_error_message());
    ga_sparse *c = ga_sparse_eye(3, 4, 0, GA_FLOAT32, GA_SPARSE_CSR), *e = ga_sparse_eye(4, 3, 0, GA_FLOAT32, GA_SPARSE_CSR);
    CHECK_ERROR(ga_sparse_multiply(c, e) == NULL, GA_ERROR_SHAPE, "ga_sparse_multiply: inconsistent shapes");
    CHECK_ERROR(ga_sparse_maximum(c, NULL) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_maximum: b is NULL");
    ga_release(ad), ga_release(bd), ga_release(ix), ga_release(pt), ga_release(dx), ga_release(dn);
    ga_sparse_release(a), ga_sparse_release(b), ga_sparse_release(mx), ga_sparse_release(mn), ga_sparse_release(c),
        ga_sparse_release(e);
}

/* A (m, n) times a dense b of shape bs (bnd dims) broadcast as NumPy's. */
static void check_multiply_dense(ga_dtype da, ga_dtype db, ga_sparse_format f, int64_t m, int64_t n, int bnd,
                                 const int64_t *bs)
{
    const int64_t b0 = bnd == 2 ? bs[0] : 1, b1 = bnd == 2 ? bs[1] : bnd == 1 ? bs[0] : 1;
    const int64_t rm = m == 1 ? b0 : m, rn = n == 1 ? b1 : n, bsize = b0 * b1;
    triplets a = trip_random(da, m, n, m * n / 2 + 1, true, true);
    const ga_dtype dt = ga_promote_types(da, db);
    long double *ar = malloc(sizeof(long double) * (size_t)(m * n + 1)), *ai = malloc(sizeof(long double) * (size_t)(m * n + 1));
    long double *vr = malloc(sizeof(long double) * (size_t)(bsize + 1)), *vi = malloc(sizeof(long double) * (size_t)(bsize + 1));
    long double *rr = malloc(sizeof(long double) * (size_t)(rm * rn + 1)), *ri = malloc(sizeof(long double) * (size_t)(rm * rn + 1));
    bool *st = malloc((size_t)(m * n + 1));
    trip_dense_stored(&a, da, ar, ai, st);
    for (int64_t i = 0; i < bsize; i++) draw_value(db, &vr[i], &vi[i]);
    for (int64_t i = 0; i < rm; i++)
        for (int64_t j = 0; j < rn; j++) {
            const int64_t p = (m == 1 ? 0 : i) * n + (n == 1 ? 0 : j), q = (b0 == 1 ? 0 : i) * b1 + (b1 == 1 ? 0 : j);
            if (dt == GA_BOOL) rr[i * rn + j] = ar[p] != 0 && vr[q] != 0, ri[i * rn + j] = 0;
            else rr[i * rn + j] = ar[p] * vr[q] - ai[p] * vi[q], ri[i * rn + j] = ar[p] * vi[q] + ai[p] * vr[q];
        }
    char what[160];
    snprintf(what, sizeof what, "%s %s (%lld, %lld) * dense %s of %d dims (%lld, %lld)", format_names[f], dname(da), (long long)m,
             (long long)n, dname(db), bnd, (long long)b0, (long long)b1);
    size_t before = used_bytes();
    ga_sparse *x = make_sparse(&a, da, f, GA_INT32);
    ga_array *flat = upload_values(vr, vi, bsize, db);
    const int64_t scalar_shape[1] = {1};
    ga_array *b = flat ? ga_reshape(flat, bnd, bnd ? bs : scalar_shape) : NULL;
    ga_sparse *r = x && b ? ga_sparse_multiply_dense(x, b) : NULL;
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        CHECK(ga_sparse_format_of(r) == GA_SPARSE_COO && ga_sparse_dtype_of(r) == dt, "%s: COO of %s", what, dname(dt));
        CHECK(ga_sparse_shape(r)[0] == rm && ga_sparse_shape(r)[1] == rn, "%s: shape (%lld, %lld)", what,
              (long long)ga_sparse_shape(r)[0], (long long)ga_sparse_shape(r)[1]);
        CHECK(ga_sparse_nnz(r) == a.nnz * (rm / (m ? m : 1)) * (rn / (n ? n : 1)) || m == 0 || n == 0,
              "%s: nnz %lld (A's entries, repeated)", what, (long long)ga_sparse_nnz(r));
        ga_array *d = ga_sparse_toarray(r);
        check_dense(d, rr, ri, rm * rn, dt, 0, what);
        ga_release(d);
    }
    ga_sparse_release(r), ga_sparse_release(x);
    ga_release(flat), ga_release(b);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(ar), free(ai), free(vr), free(vi), free(rr), free(ri), free(st);
    trip_free(&a);
}

DEVICE_TEST(multiply_by_dense_broadcasts)
{
    const int64_t same[2] = {9, 14}, row[2] = {1, 14}, col[2] = {9, 1}, one[2] = {1, 1}, vec[1] = {14};
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int f = 0; f < 3; f++, i++)
            if (test_sample(i, 3)) {
                const ga_dtype d = sparse_dtypes[k];
                check_multiply_dense(d, d, formats[f], 9, 14, 2, same);
                check_multiply_dense(d, d, formats[f], 9, 14, 2, row);
                check_multiply_dense(d, d, formats[f], 9, 14, 2, col);
                check_multiply_dense(d, d, formats[f], 9, 14, 1, vec);
                check_multiply_dense(d, d, formats[f], 9, 14, 0, NULL);
            }
    const int64_t wide[2] = {6, 14}, tall[2] = {9, 5}, cols6[2] = {6, 1}, rows5[2] = {1, 5}, block[2] = {4, 3};
    check_multiply_dense(GA_FLOAT32, GA_FLOAT64, GA_SPARSE_CSR, 1, 14, 2, wide);  /* a sparse row repeated */
    check_multiply_dense(GA_INT8, GA_UINT8, GA_SPARSE_COO, 1, 14, 2, cols6);      /* (1, 14) * (6, 1) */
    check_multiply_dense(GA_COMPLEX64, GA_INT16, GA_SPARSE_CSC, 9, 1, 2, tall);   /* a sparse column repeated */
    check_multiply_dense(GA_BOOL, GA_BOOL, GA_SPARSE_CSR, 9, 1, 2, rows5);        /* (9, 1) * (1, 5) */
    check_multiply_dense(GA_FLOAT64, GA_COMPLEX128, GA_SPARSE_COO, 1, 1, 2, block); /* 1 x 1 (SciPy: dense) */
    check_multiply_dense(GA_INT64, GA_FLOAT32, GA_SPARSE_CSR, 9, 14, 2, one);
    check_multiply_dense(GA_FLOAT32, GA_FLOAT32, GA_SPARSE_CSR, 0, 14, 2, row);
    ga_sparse *a = ga_sparse_eye(3, 4, 0, GA_INT8, GA_SPARSE_CSR);
    ga_array *b = ga_ones(GA_SHAPE(3, 5), GA_FLOAT32), *c = ga_ones(GA_SHAPE(2, 3, 4), GA_FLOAT32), *h = ga_ones(GA_SHAPE(4), GA_FLOAT16);
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_multiply_dense(a, b) == NULL, GA_ERROR_SHAPE, "ga_sparse_multiply_dense: inconsistent shapes");
    CHECK_ERROR(ga_sparse_multiply_dense(a, c) == NULL, GA_ERROR_SHAPE, "inconsistent shapes");
    CHECK_ERROR(ga_sparse_multiply_dense(a, h) == NULL, GA_ERROR_TYPE, "does not support dtype float16");
    CHECK(used_bytes() == before, "nothing left in use by the refusals");
    ga_release(b), ga_release(c), ga_release(h);
    ga_sparse_release(a);
}

/* The ops with a scalar: 0 maximum, 1 minimum, then the comparisons ==,
   !=, <, <=, >, >=. */
static void check_scalar_op(ga_dtype dt, ga_sparse_format f, int op, ga_scalar v)
{
    static const char *const names[] = {"maximum", "minimum", "==", "!=", "<", "<=", ">", ">="};
    const int64_t m = 12, n = 17, size = m * n;
    triplets a = trip_random(dt, m, n, 90, true, true);
    long double *ar = malloc(sizeof(long double) * (size_t)size), *ai = malloc(sizeof(long double) * (size_t)size);
    long double *rr = malloc(sizeof(long double) * (size_t)size), *ri = malloc(sizeof(long double) * (size_t)size);
    bool *st = malloc((size_t)size);
    trip_dense_stored(&a, dt, ar, ai, st);
    const long double vr = v.kind == GA_SCALAR_INT ? (long double)v.value.i : v.kind == GA_SCALAR_FLOAT ? v.value.f : v.value.c.re;
    const long double vi = v.kind == GA_SCALAR_COMPLEX ? v.value.c.im : 0;
    const ga_dtype rt = op >= 2 ? GA_BOOL : ga_result_type(1, &dt, 1, &v);
    int64_t nz = 0;
    for (int64_t i = 0; i < size; i++) {
        const long double x = ar[i], y = ai[i];
        bool t = false;
        rr[i] = ri[i] = 0;
        switch (op) {
        case 0: case 1: {
            const bool take_v = op == 0 ? sp_less(x, y, vr, vi) || vr != vr : sp_less(vr, vi, x, y) || vr != vr;
            if (st[i]) rr[i] = take_v ? vr : x, ri[i] = take_v ? vi : y;
            nz += st[i];
            continue;
        }
        case 2: t = x == vr && y == vi; break;
        case 3: t = x != vr || y != vi; break;
        case 4: t = sp_less(x, y, vr, vi); break;
        case 5: t = sp_less(x, y, vr, vi) || (x == vr && y == vi); break;
        case 6: t = sp_less(vr, vi, x, y); break;
        default: t = sp_less(vr, vi, x, y) || (x == vr && y == vi); break;
        }
        t = t && st[i];
        rr[i] = t, nz += t;
    }
    char what[120];
    snprintf(what, sizeof what, "%s %s %s %Lg%+Lgj", format_names[f], dname(dt), names[op], vr, vi);
    size_t before = used_bytes();
    ga_sparse *s = make_sparse(&a, dt, f, GA_INT32);
    ga_sparse *(*const fns[])(const ga_sparse *, ga_scalar) = {ga_sparse_maximum_scalar, ga_sparse_minimum_scalar,
                                                               ga_sparse_equal_scalar,   ga_sparse_not_equal_scalar,
                                                               ga_sparse_less_scalar,    ga_sparse_less_equal_scalar,
                                                               ga_sparse_greater_scalar, ga_sparse_greater_equal_scalar};
    ga_sparse *r = s ? fns[op](s, v) : NULL;
    CHECK(r != NULL, "%s: %s", what, ga_last_error_message());
    if (r) {
        CHECK(ga_sparse_format_of(r) == (f == GA_SPARSE_CSC ? GA_SPARSE_CSC : GA_SPARSE_CSR) && ga_sparse_dtype_of(r) == rt &&
                  ga_sparse_has_canonical_format(r),
              "%s: canonical, format, dtype %s (expected %s)", what, dname(ga_sparse_dtype_of(r)), dname(rt));
        CHECK(ga_sparse_nnz(r) == nz, "%s: nnz %lld, expected %lld", what, (long long)ga_sparse_nnz(r), (long long)nz);
        ga_array *d = ga_sparse_toarray(r);
        check_dense(d, rr, ri, size, rt, 0, what);
        ga_release(d);
    }
    ga_sparse_release(r), ga_sparse_release(s);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(ar), free(ai), free(rr), free(ri), free(st);
    trip_free(&a);
}

DEVICE_TEST(maximum_minimum_and_comparisons_with_scalars)
{
    int i = 0;
    for (int k = 0; k < NDTYPES; k++) {
        const ga_dtype d = sparse_dtypes[k];
        const bool neg_ok = is_signed(d) || is_inexact(d); /* (NumPy refuses -1 as an unsigned value) */
        for (int f = 0; f < 3; f++, i++) {
            if (!test_sample(i, 2)) continue;
            check_scalar_op(d, formats[f], 0, neg_ok ? ga_int(-2) : ga_int(0));
            check_scalar_op(d, formats[f], 1, d == GA_BOOL ? ga_int(0) : ga_int(2));
            check_scalar_op(d, formats[f], 2, ga_int(2));
            check_scalar_op(d, formats[f], 2, ga_int(1));
            check_scalar_op(d, formats[f], 3, ga_int(0));
            check_scalar_op(d, formats[f], 6, ga_int(1));
            check_scalar_op(d, formats[f], 7, ga_int(2));
            if (neg_ok) {
                check_scalar_op(d, formats[f], 4, ga_int(-1));
                check_scalar_op(d, formats[f], 5, ga_int(-2));
                check_scalar_op(d, formats[f], 7, ga_int(3));
            }
            if (is_inexact(d)) {
                check_scalar_op(d, formats[f], 2, ga_float(NAN)); /* the empty matrix */
                check_scalar_op(d, formats[f], 4, ga_float(NAN));
                check_scalar_op(d, formats[f], 0, ga_float(-1.5));
            }
            if (is_complex(d)) {
                check_scalar_op(d, formats[f], 2, ga_complex(1, -2));
                check_scalar_op(d, formats[f], 0, ga_complex(0, -1)); /* below 0 in SciPy's order */
            }
        }
    }
    ga_sparse *s = ga_sparse_eye(4, 4, 0, GA_FLOAT64, GA_SPARSE_CSR);
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_maximum_scalar(s, ga_int(1)) == NULL, GA_ERROR_VALUE,
                "ga_sparse_maximum_scalar: Taking maximum (minimum) with > 0 (< 0) number results to a dense matrix.");
    CHECK_ERROR(ga_sparse_minimum_scalar(s, ga_float(-0.5)) == NULL, GA_ERROR_VALUE,
                "Taking maximum (minimum) with > 0 (< 0) number results to a dense matrix.");
    CHECK_ERROR(ga_sparse_maximum_scalar(s, ga_complex(0, 1)) == NULL, GA_ERROR_VALUE, "results to a dense matrix");
    CHECK_ERROR(ga_sparse_equal_scalar(s, ga_int(0)) == NULL, GA_ERROR_VALUE,
                "ga_sparse_equal_scalar: Comparing a sparse matrix with 0 using == is inefficient, try using != instead.");
    CHECK_ERROR(ga_sparse_not_equal_scalar(s, ga_float(NAN)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with nan using != is inefficient");
    CHECK_ERROR(ga_sparse_not_equal_scalar(s, ga_int(3)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with a nonzero scalar using != is inefficient, try using == instead.");
    CHECK_ERROR(ga_sparse_less_scalar(s, ga_int(3)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with a scalar greater than zero using < is inefficient, try using >= instead.");
    CHECK_ERROR(ga_sparse_less_equal_scalar(s, ga_int(3)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with a scalar greater than zero using <= is inefficient, try using > instead.");
    CHECK_ERROR(ga_sparse_greater_scalar(s, ga_int(-3)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with a scalar less than zero using > is inefficient, try using <= instead.");
    CHECK_ERROR(ga_sparse_greater_equal_scalar(s, ga_float(-0.1)) == NULL, GA_ERROR_VALUE,
                "Comparing a sparse matrix with a scalar less than zero using >= is inefficient, try using < instead.");
    CHECK_ERROR(ga_sparse_less_equal_scalar(s, ga_int(0)) == NULL, GA_ERROR_NOT_IMPLEMENTED, " >= and <= don't work with 0.");
    CHECK_ERROR(ga_sparse_greater_equal_scalar(s, ga_float(0)) == NULL, GA_ERROR_NOT_IMPLEMENTED, " >= and <= don't work with 0.");
    CHECK_ERROR(ga_sparse_less_scalar(s, ga_complex(-1, 1)) == NULL, GA_ERROR_TYPE,
                "'<' not supported between instances of 'int' and 'complex'");
    CHECK(used_bytes() == before, "nothing left in use by the refusals");
    ga_sparse_release(s);
}

/* ---- mean, max, min, argmax, argmin, diagonal, trace -------------------------------------- */

/* The first place of the largest (max) or smallest element of the `count`
   dense values at re/im + k * step (complex: by real part, then imaginary). */
static int64_t dense_arg(const long double *re, const long double *im, int64_t start, int64_t step, int64_t count, bool max)
{
    int64_t best = 0;
    for (int64_t k = 1; k < count; k++) {
        const int64_t a = start + k * step, b = start + best * step;
        if (max ? sp_less(re[b], im[b], re[a], im[a]) : sp_less(re[a], im[a], re[b], im[b])) best = k;
    }
    return best;
}

static void check_reductions(ga_dtype dt, ga_sparse_format f, int64_t m, int64_t n, int64_t nnz, bool dups)
{
    triplets t = trip_random(dt, m, n, nnz, dups, dups);
    const int64_t size = m * n;
    long double *re = malloc(sizeof(long double) * (size_t)(size + 1)), *im = malloc(sizeof(long double) * (size_t)(size + 1));
    bool *st = malloc((size_t)size + 1);
    trip_dense_stored(&t, dt, re, im, st);
    char what[160];
    snprintf(what, sizeof what, "%s %s (%lld x %lld, %lld entries%s)", format_names[f], dname(dt), (long long)m, (long long)n,
             (long long)t.nnz, dups ? ", duplicates" : "");
    size_t before = used_bytes();
    ga_sparse *s = make_sparse(&t, dt, f, GA_INT32);
    const int axes[3] = {GA_AXIS_NONE, 0, 1};
    const bool integral = is_exact(dt);
    const ga_dtype mean_dt = integral ? GA_FLOAT64 : dt;
    const long double tol = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-5L : 1e-12L;
    for (int a = 0; a < 3 && s; a++) {
        const int axis = axes[a];
        /* lines: None one of m n places, 0 n columns of m, 1 m rows of n */
        const int64_t lines = axis == GA_AXIS_NONE ? 1 : axis == 0 ? n : m, len = axis == GA_AXIS_NONE ? size : axis == 0 ? m : n;
        const int64_t step = axis == 0 ? n : 1;
        long double *vr = calloc((size_t)lines + 1, sizeof(long double)), *vi = calloc((size_t)lines + 1, sizeof(long double));
        long double *xr = calloc((size_t)lines + 1, sizeof(long double)), *xi = calloc((size_t)lines + 1, sizeof(long double));
        long double *nr = calloc((size_t)lines + 1, sizeof(long double)), *ni = calloc((size_t)lines + 1, sizeof(long double));
        long double *ax = calloc((size_t)lines + 1, sizeof(long double)), *an = calloc((size_t)lines + 1, sizeof(long double));
        for (int64_t j = 0; j < t.nnz && len > 0; j++) { /* mean: each stored value as float64 (bool: 1), duplicates too */
            const int64_t l = axis == GA_AXIS_NONE ? 0 : axis == 0 ? t.col[j] : t.row[j];
            vr[l] += (dt == GA_BOOL ? t.re[j] != 0 : in_dtype(dt, t.re[j])) / (long double)len;
            vi[l] += t.im[j] / (long double)len;
        }
        for (int64_t l = 0; l < lines; l++) {
            const int64_t start = axis == 0 ? l : l * len;
            if (len == 0) continue;
            const int64_t i = dense_arg(re, im, start, step, len, true), j = dense_arg(re, im, start, step, len, false);
            ax[l] = (long double)i, an[l] = (long double)j;
            xr[l] = re[start + i * step], xi[l] = im[start + i * step];
            nr[l] = re[start + j * step], ni[l] = im[start + j * step];
        }
        char w[220];
        const char *an_ = axis == GA_AXIS_NONE ? "None" : axis == 0 ? "0" : "1";
        if (len > 0 || axis == GA_AXIS_NONE) {
            snprintf(w, sizeof w, "%s: mean(axis=%s)", what, an_);
            ga_array *r = ga_sparse_mean(s, axis);
            check_dense(r, vr, vi, lines, mean_dt, tol, w);
            if (r) CHECK(ga_ndim(r) == (axis == GA_AXIS_NONE ? 0 : 2), "%s: ndim %d", w, ga_ndim(r));
            ga_release(r);
        } else {
            CHECK_ERROR(ga_sparse_mean(s, axis) == NULL, GA_ERROR_VALUE, "ga_sparse_mean: float division by zero");
        }
        if (len > 0) {
            ga_array *r[4] = {ga_sparse_max(s, axis), ga_sparse_min(s, axis), ga_sparse_argmax(s, axis), ga_sparse_argmin(s, axis)};
            const char *names[4] = {"max", "min", "argmax", "argmin"};
            for (int o = 0; o < 4; o++) {
                snprintf(w, sizeof w, "%s: %s(axis=%s)", what, names[o], an_);
                if (o == 0) check_dense(r[o], xr, xi, lines, dt, 0, w);
                else if (o == 1) check_dense(r[o], nr, ni, lines, dt, 0, w);
                else check_dense(r[o], o == 2 ? ax : an, vi, lines, GA_INT64, 0, w);
                if (r[o] && axis != GA_AXIS_NONE)
                    CHECK(ga_ndim(r[o]) == 2 && ga_shape(r[o])[axis] == 1, "%s: np.matrix's shape", w);
                ga_release(r[o]);
            }
        } else {
            CHECK_ERROR(ga_sparse_max(s, axis) == NULL, GA_ERROR_VALUE, "ga_sparse_max: zero-size array to reduction operation");
            CHECK_ERROR(ga_sparse_argmin(s, axis) == NULL, GA_ERROR_VALUE,
                        axis == GA_AXIS_NONE ? "ga_sparse_argmin: Cannot apply the operation to an empty matrix."
                                             : "Cannot apply the operation along a zero-sized dimension.");
        }
        free(vr), free(vi), free(xr), free(xi), free(nr), free(ni), free(ax), free(an);
    }
    /* diagonals and traces */
    const int64_t ks[] = {0, 1, -1, 3, -4, n - 1, -(m - 1), n, -m};
    for (size_t q = 0; q < sizeof ks / sizeof ks[0] && s; q++) {
        const int64_t k = ks[q], len = k <= -m || k >= n ? 0 : (m + (k < 0 ? k : 0) < n - (k > 0 ? k : 0) ? m + (k < 0 ? k : 0) : n - (k > 0 ? k : 0));
        long double *dr = calloc((size_t)len + 1, sizeof(long double)), *di = calloc((size_t)len + 1, sizeof(long double));
        long double tr[1] = {0}, ti[1] = {0};
        for (int64_t i = 0; i < len; i++) {
            const int64_t r = i + (k < 0 ? -k : 0), c = r + k;
            dr[i] = re[r * n + c], di[i] = im[r * n + c];
            tr[0] += dt == GA_BOOL ? dr[i] != 0 : dr[i], ti[0] += di[i];
        }
        char w[200];
        snprintf(w, sizeof w, "%s: diagonal(%lld)", what, (long long)k);
        ga_array *d = ga_sparse_diagonal(s, k), *tc = ga_sparse_trace(s, k);
        check_dense(d, dr, di, len, dt, 0, w);
        snprintf(w, sizeof w, "%s: trace(%lld)", what, (long long)k);
        const ga_dtype sum_dt = dt == GA_BOOL || is_signed(dt) ? GA_INT64 : ga_dtype_kind(dt) == 'u' ? GA_UINT64 : dt;
        check_dense(tc, tr, ti, 1, sum_dt, 0, w);
        if (tc) CHECK(ga_ndim(tc) == 0, "%s: 0-d", w);
        ga_release(d), ga_release(tc);
        free(dr), free(di);
    }
    ga_sparse_release(s);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(re), free(im), free(st);
    trip_free(&t);
}

DEVICE_TEST(mean_max_min_argmax_argmin_diagonal_trace)
{
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int f = 0; f < 3; f++, i++)
            if (test_sample(i, 3)) {
                check_reductions(sparse_dtypes[k], formats[f], 13, 9, 50, i % 2 == 0);  /* some full lines */
                check_reductions(sparse_dtypes[k], formats[f], 7, 29, 30, i % 2 == 1);
                check_reductions(sparse_dtypes[k], formats[(f + 1) % 3], 4, 4, 40, true); /* nearly full */
            }
    check_reductions(GA_FLOAT64, GA_SPARSE_CSR, 1, 1, 1, false);
    check_reductions(GA_FLOAT32, GA_SPARSE_CSC, 0, 5, 0, false);
    check_reductions(GA_INT32, GA_SPARSE_COO, 6, 0, 0, false);
    check_reductions(GA_COMPLEX128, GA_SPARSE_CSR, 300, 200, 900, true);
    ga__sparse_index_bits = 64;
    check_reductions(GA_INT16, GA_SPARSE_CSC, 31, 17, 100, true);
    ga__sparse_index_bits = 32;
    /* NaN, as SciPy takes it: the extreme, answered by the first implicit zero where the line has one */
    const double v[4] = {5, NAN, NAN, 5};
    const int32_t idx[4] = {0, 1, 0, 1}, ptr[3] = {0, 2, 4};
    ga_array *d = ga_from_host(v, GA_SHAPE(4), GA_FLOAT64), *x = ga_from_host(idx, GA_SHAPE(4), GA_INT32);
    ga_array *p = ga_from_host(ptr, GA_SHAPE(3), GA_INT32);
    const int64_t wide[2] = {2, 3}, full[2] = {2, 2};
    ga_sparse *sw = ga_sparse_csr_matrix(d, x, p, wide), *sf = ga_sparse_csr_matrix(d, x, p, full);
    ga_array *mw = sw ? ga_sparse_max(sw, 1) : NULL, *aw = sw ? ga_sparse_argmax(sw, 1) : NULL, *af = sf ? ga_sparse_argmax(sf, 1) : NULL;
    ga_array *an = sf ? ga_sparse_argmin(sf, GA_AXIS_NONE) : NULL;
    double gm[2] = {0, 0};
    int64_t gw[2] = {-1, -1}, gf[2] = {-1, -1}, gn = -1;
    if (mw && aw && af && an && download(mw, gm) && download(aw, gw) && download(af, gf) && download(an, &gn))
        CHECK(isnan(gm[0]) && isnan(gm[1]) && gw[0] == 2 && gw[1] == 2 && gf[0] == 1 && gf[1] == 0 && gn == 1,
              "NaN: max %g %g, argmax (2 x 3) %lld %lld, argmax (2 x 2) %lld %lld, argmin %lld", gm[0], gm[1], (long long)gw[0],
              (long long)gw[1], (long long)gf[0], (long long)gf[1], (long long)gn);
    else CHECK(false, "NaN rows: %s", ga_last_error_message());
    CHECK_ERROR(ga_sparse_max(sw, 2) == NULL, GA_ERROR_AXIS, "ga_sparse_max: axis 2 is out of bounds for array of dimension 2");
    CHECK_ERROR(ga_sparse_mean(NULL, 0) == NULL, GA_ERROR_NULL_INPUT, "ga_sparse_mean: s is NULL");
    ga_release(d), ga_release(x), ga_release(p), ga_release(mw), ga_release(aw), ga_release(af), ga_release(an);
    ga_sparse_release(sw), ga_sparse_release(sf);
}

/* ---- scipy.sparse.linalg.norm ---------------------------------------------------------------- */

static ga_dtype real_dtype(ga_dtype t) { return t == GA_COMPLEX64 ? GA_FLOAT32 : t == GA_COMPLEX128 ? GA_FLOAT64 : t; }
static ga_dtype sum_dtype(ga_dtype t)
{
    return t == GA_BOOL || is_signed(t) ? GA_INT64 : ga_dtype_kind(t) == 'u' ? GA_UINT64 : t;
}

/* SciPy's abs(x).power(2) of an integer dtype: the square wraps in that
   dtype (its vector 2-norm along an axis sums those). */
static long double dtype_square(long double x, ga_dtype dt)
{
    const char kind = ga_dtype_kind(dt);
    if (kind != 'i' && kind != 'u') return x * x;
    const int bits = (int)ga_dtype_itemsize(dt) * 8;
    uint64_t sq = (uint64_t)(int64_t)x * (uint64_t)(int64_t)x;
    if (bits < 64) sq &= ((uint64_t)1 << bits) - 1;
    if (kind == 'i' && bits < 64 && sq >= (uint64_t)1 << (bits - 1)) return (long double)sq - ldexpl(1, bits);
    return kind == 'i' ? (long double)(int64_t)sq : (long double)sq;
}

/* x (an integer's magnitude) to the power p in dtype dt, wrapping as
   NumPy's integer power does (bool and floats: exact powers). */
static long double dtype_power(long double x, int p, ga_dtype dt)
{
    const char kind = ga_dtype_kind(dt);
    if (kind != 'i' && kind != 'u') return powl(x, p);
    uint64_t v = 1;
    for (int i = 0; i < p; i++) v *= (uint64_t)(int64_t)x;
    v = wrap(dt, v);
    return kind == 'i' ? (long double)(int64_t)v : (long double)v;
}

static void check_norms(ga_dtype dt, ga_sparse_format f, int64_t m, int64_t n, int64_t nnz)
{
    triplets t = trip_random(dt, m, n, nnz, true, true);
    const int64_t size = m * n;
    long double *re = malloc(sizeof(long double) * (size_t)(size + 1)), *im = malloc(sizeof(long double) * (size_t)(size + 1));
    long double *mag = malloc(sizeof(long double) * (size_t)(size + 1));
    bool *st = malloc((size_t)size + 1);
    trip_dense_stored(&t, dt, re, im, st);
    for (int64_t i = 0; i < size; i++) mag[i] = sqrtl(re[i] * re[i] + im[i] * im[i]);
    char what[120];
    snprintf(what, sizeof what, "norm of %s %s (%lld x %lld)", format_names[f], dname(dt), (long long)m, (long long)n);
    size_t before = used_bytes();
    ga_sparse *s = make_sparse(&t, dt, f, GA_INT32);
    const ga_dtype adt = real_dtype(dt), root_dt = is_exact(dt) ? GA_FLOAT64 : adt;
    const long double tol = adt == GA_FLOAT32 ? 1e-4L : 1e-10L;
    /* the matrix norms */
    long double fro = 0, col_max = 0, col_min = 0, row_max = 0, row_min = 0;
    for (int64_t i = 0; i < size; i++) fro += mag[i] * mag[i];
    fro = sqrtl(fro);
    for (int64_t c = 0; c < n; c++) {
        long double sum = 0;
        for (int64_t r = 0; r < m; r++) sum += mag[r * n + c];
        col_max = c == 0 || sum > col_max ? sum : col_max, col_min = c == 0 || sum < col_min ? sum : col_min;
    }
    for (int64_t r = 0; r < m; r++) {
        long double sum = 0;
        for (int64_t c = 0; c < n; c++) sum += mag[r * n + c];
        row_max = r == 0 || sum > row_max ? sum : row_max, row_min = r == 0 || sum < row_min ? sum : row_min;
    }
    const ga_norm_ord ords[5] = {GA_NORM_FRO, GA_NORM_1, GA_NORM_MINUS_1, GA_NORM_INF, GA_NORM_MINUS_INF};
    const long double want[5] = {fro, col_max, col_min, row_max, row_min};
    for (int o = 0; o < 5 && s; o++) {
        if (o > 0 && (o < 3 ? n : m) == 0) continue;
        char w[160];
        snprintf(w, sizeof w, "%s, ord %d", what, (int)ords[o]);
        ga_array *r = ga_sparse_linalg_norm(s, ords[o]);
        long double zero[1] = {0};
        check_dense(r, &want[o], zero, 1, o == 0 ? root_dt : sum_dtype(adt), tol, w);
        if (r) CHECK(ga_ndim(r) == 0, "%s: 0-d", w);
        ga_release(r);
    }
    /* the vector norms along each axis */
    const double vords[7] = {INFINITY, -INFINITY, 0, 1, 2, 3, 0.5};
    for (int axis = 0; axis < 2 && s; axis++)
        for (int o = 0; o < 7; o++) {
            const int64_t lines = axis == 0 ? n : m, len = axis == 0 ? m : n;
            if (isinf(vords[o]) && len == 0) continue;
            long double *v = calloc((size_t)lines + 1, sizeof(long double)), *z = calloc((size_t)lines + 1, sizeof(long double));
            for (int64_t l = 0; l < lines; l++) {
                long double acc = 0, ext = 0;
                for (int64_t k = 0; k < len; k++) {
                    const long double x = mag[axis == 0 ? k * n + l : l * n + k];
                    if (isinf(vords[o])) ext = k == 0 || (vords[o] > 0 ? x > ext : x < ext) ? x : ext;
                    else if (vords[o] == 0) acc += x != 0;
                    else if (vords[o] == 2) acc += dtype_square(x, dt);
                    else if (vords[o] == 3) acc += dtype_power(x, 3, dt); /* (SciPy's norm(x, 3): an int power) */
                    else acc += powl(x, (long double)vords[o]);
                }
                v[l] = isinf(vords[o]) ? ext : vords[o] == 0 || vords[o] == 1 ? acc : powl(acc, 1 / (long double)vords[o]);
            }
            const ga_dtype want_dt = isinf(vords[o]) ? adt : vords[o] == 0 ? GA_INT64 : vords[o] == 1 ? sum_dtype(adt) : root_dt;
            char w[160];
            snprintf(w, sizeof w, "%s, ord %g, axis %d", what, vords[o], axis);
            ga_array *r = ga_sparse_linalg_norm_axis(s, vords[o], axis - 2 * (o % 2)); /* (-2 and -1 too) */
            check_dense(r, v, z, lines, want_dt, tol, w);
            if (r) CHECK(ga_ndim(r) == 1, "%s: 1-d", w);
            ga_release(r);
            free(v), free(z);
        }
    ga_sparse_release(s);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(re), free(im), free(mag), free(st);
    trip_free(&t);
}

DEVICE_TEST(linalg_norm)
{
    int i = 0;
    for (int k = 0; k < NDTYPES; k++)
        for (int f = 0; f < 3; f++, i++)
            if (test_sample(i, 3)) {
                check_norms(sparse_dtypes[k], formats[f], 9, 13, 45);
                check_norms(sparse_dtypes[k], formats[(f + 1) % 3], 3, 3, 12); /* full lines */
            }
    check_norms(GA_FLOAT64, GA_SPARSE_CSR, 0, 5, 0);
    check_norms(GA_COMPLEX64, GA_SPARSE_COO, 200, 150, 700);
    ga_sparse *s = ga_sparse_eye(3, 3, 0, GA_FLOAT64, GA_SPARSE_CSR);
    CHECK_ERROR(ga_sparse_linalg_norm(s, GA_NORM_NUC) == NULL, GA_ERROR_NOT_IMPLEMENTED, "ga_sparse_linalg_norm: ");
    CHECK_ERROR(ga_sparse_linalg_norm(s, GA_NORM_2) == NULL, GA_ERROR_NOT_IMPLEMENTED, "not implemented for sparse matrices");
    CHECK_ERROR(ga_sparse_linalg_norm_axis(s, NAN, 0) == NULL, GA_ERROR_VALUE,
                "ga_sparse_linalg_norm_axis: Invalid norm order for vectors.");
    CHECK_ERROR(ga_sparse_linalg_norm_axis(s, 2, 3) == NULL, GA_ERROR_AXIS, "axis 3 is out of bounds");
    CHECK_ERROR(ga_sparse_linalg_norm_axis(s, 2, GA_AXIS_NONE) == NULL, GA_ERROR_AXIS, "axis must be 0 or 1");
    ga_sparse_release(s);
}

/* Integer vector norms of orders 3, 4, 5 wrap their powers in the dtype as
   SciPy's norm(x, ord, axis) does (abs(-128) is -128 in int8; a negative
   sum's root is NaN): SciPy 1.17's results for one 3 x 4 matrix in each
   integer dtype and bool; negative integer orders refused in NumPy's
   words. */
DEVICE_TEST(linalg_norm_integer_orders_wrap_as_scipy)
{
    static const int64_t values[12] = {100, -7, 0, 55, 3, 0, -128, -1, 0, 127, -100, 9};
    static const struct {
        ga_dtype dt;
        double want[6][4]; /* ord 3 axis 0, ord 3 axis 1 (3 and a pad), ord 4 ..., ord 5 ... */
    } cases[] = {
        {GA_INT8, {{4.497941445275415, 5.981424029720885, 3.9999999999999996, NAN}, {5.0132979349645845, 3.0365889718756622, 5.336803297443889, 0}, {3.0, 3.1463462836457885, 0.0, NAN}, {1.189207115002721, 3.009216698434564, NAN, 0}, {NAN, 2.069935054081614, 0.0, NAN}, {NAN, NAN, 2.0912791051825463, 0}}},
        {GA_UINT8, {{4.497941445275415, 6.664443703291906, 5.768998281229633, 8.891706282839353}, {7.741753281255592, 6.557672186169711, 8.123096200891359, 0}, {3.0, 3.1463462836457885, 0.0, 4.239363248839551}, {4.007789715567548, 3.009216698434564, 3.5676213450081633, 0}, {3.0, 2.9301560515835217, 0.0, 3.563966136996308}, {2.9925557394776896, 3.4629471895995088, 3.1207454228486045, 0}}},
        {GA_INT16, {{25.70625998798988, 25.768155731951488, 25.692633154249467, NAN}, {NAN, 3.0365889718756622, 32.54030502446153, 0}, {NAN, 13.644287891350581, NAN, NAN}, {NAN, 3.009216698434564, 13.256423033493695, 0}, {NAN, NAN, NAN, NAN}, {NAN, 3.0024650813881837, NAN, 0}}},
        {GA_UINT16, {{25.70625998798988, 43.43774951118688, 36.48720387126178, 46.657078529021476}, {48.973190943581685, 40.322804588863775, 40.42709028392655, 0}, {15.497376897898084, 13.644287891350581, 15.491933384829668, 14.777157182074468}, {17.832466327750723, 3.009216698434564, 17.621364295093187, 0}, {8.986608584912922, 9.614057379638082, 5.903092646378209, 10.958211115860557}, {10.704159531951126, 9.19636358097509, 9.992468664337112, 0}}},
        {GA_INT32, {{100.0008999919001, 127.00708828521626, 145.76530755690902, 55.08032340788313}, {105.27420393730762, 128.00056965892304, 145.00772055601266, 0}, {100.00002024999385, 127.00029303500493, 138.54483965214376, 55.009857604974655}, {102.21366129238504, 128.00000977516063, 137.75939193127323, 0}, {67.58461850492625, NAN, 67.58461617552217, 55.001290561658415}, {71.83889396019185, 3.0024650813881837, 38.872193782417284, 0}}},
        {GA_UINT32, {{100.0008999919001, 1625.7570072613762, 2047.7538308853482, 1625.5197578713232}, {1625.6457650234236, 2047.8333218347552, 1625.6310174808755, 0}, {100.00002024999385, 127.00029303500493, 138.54483965214376, 55.009857604974655}, {102.21366129238504, 128.00000977516063, 137.75939193127323, 0}, {67.58461850492625, 93.81872841945192, 77.98771745313063, 86.34111912455434}, {90.90641742650257, 84.44850724111572, 89.85829328863532, 0}}},
        {GA_INT64, {{100.0008999919001, 127.00708828521626, 145.76530755690902, 55.08032340788313}, {105.27420393730762, 128.00056965892304, 145.00772055601266, 0}, {100.00002024999385, 127.00029303500493, 138.54483965214376, 55.009857604974655}, {102.21366129238504, 128.00000977516063, 137.75939193127323, 0}, {100.00000048600002, 127.0000129212707, 134.70936694350146, 55.001290561658415}, {100.98692859320863, 128.0000001817942, 133.89713390328737, 0}}},
        {GA_UINT64, {{100.0008999919001, 126.99291092345459, 2642245.949628983, 55.080103663637885}, {105.25356705600129, 2642245.9496290307, 101.61097490305943, 0}, {100.00002024999385, 127.00029303500493, 138.54483965214376, 55.009857604974655}, {102.21366129238504, 128.00000977516063, 137.75939193127323, 0}, {100.00000048600002, 126.99998707872412, 7131.550211091939, 55.001290517949656}, {100.98686395488389, 7131.550211865143, 118.16546549802614, 0}}},
        {GA_BOOL, {{1.2599210498948732, 1.2599210498948732, 1.2599210498948732, 1.4422495703074083}, {1.4422495703074083, 1.4422495703074083, 1.4422495703074083, 0}, {1.189207115002721, 1.189207115002721, 1.189207115002721, 1.3160740129524924}, {1.3160740129524924, 1.3160740129524924, 1.3160740129524924, 0}, {1.148698354997035, 1.148698354997035, 1.148698354997035, 1.2457309396155174}, {1.2457309396155174, 1.2457309396155174, 1.2457309396155174, 0}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const ga_dtype dt = cases[c].dt;
        unsigned char host[12 * 8];
        for (int i = 0; i < 12; i++) {
            const uint64_t w = wrap(dt, (uint64_t)values[i]);
            memcpy(host + (size_t)i * ga_dtype_itemsize(dt), &w, ga_dtype_itemsize(dt)); /* (little-endian) */
        }
        ga_array *d = ga_from_host(host, 2, (const int64_t[]){3, 4}, dt);
        for (int f = 0; f < 3; f++) {
            ga_sparse *s = f == 0 ? ga_sparse_csr_matrix_from_dense(d) : f == 1 ? ga_sparse_csc_matrix_from_dense(d)
                                                                                : ga_sparse_coo_matrix_from_dense(d);
            for (int k = 0; s && k < 6; k++) {
                const int ord = 3 + k / 2, axis = k % 2, lines = axis == 0 ? 4 : 3;
                ga_array *r = ga_sparse_linalg_norm_axis(s, ord, axis);
                double got[4] = {0};
                CHECK(r && ga_dtype_of(r) == GA_FLOAT64 && ga_size(r) == lines && ga_to_host(r, got, sizeof got) == GA_OK,
                      "%s %s ord %d axis %d: %s", dname(dt), format_names[f], ord, axis, ga_last_error_message());
                for (int i = 0; r && i < lines; i++) {
                    const double w = cases[c].want[k][i];
                    CHECK(isnan(w) ? isnan(got[i]) : fabs(got[i] - w) <= 1e-12 * fabs(w),
                          "%s %s ord %d axis %d [%d]: %.17g, SciPy's %.17g", dname(dt), format_names[f], ord, axis, i, got[i], w);
                }
                ga_release(r);
            }
            if (s && ga_dtype_kind(dt) == 'u')
                CHECK_ERROR(ga_sparse_linalg_norm_axis(s, -3, 1) == NULL, GA_ERROR_OVERFLOW, "Python integer -3 out of bounds for");
            else if (s)
                CHECK_ERROR(ga_sparse_linalg_norm_axis(s, -3, 1) == NULL, GA_ERROR_VALUE,
                            "Integers to negative integer powers are not allowed.");
            /* a float order that is not integral: a float power, no wrap */
            ga_array *r = s ? ga_sparse_linalg_norm_axis(s, 2.5, 0) : NULL;
            double got[4] = {0};
            CHECK(r && ga_to_host(r, got, sizeof got) == GA_OK, "%s ord 2.5: %s", dname(dt), ga_last_error_message());
            for (int col = 0; r && col < 4; col++) {
                long double acc = 0;
                for (int row = 0; row < 3; row++) {
                    const uint64_t w = wrap(dt, (uint64_t)values[row * 4 + col]);
                    long double x = ga_dtype_kind(dt) == 'i' ? (long double)(int64_t)w : (long double)w;
                    if (dt != GA_BOOL && ga_dtype_kind(dt) == 'i' && x < 0) x = (long double)(int64_t)wrap(dt, (uint64_t)-(int64_t)w);
                    acc += x < 0 ? NAN : powl(x, 2.5L); /* (int8's abs(-128) is -128: a NaN power) */
                }
                const long double want = powl(acc, 1 / 2.5L);
                CHECK(isnan(want) ? isnan(got[col]) : fabsl(got[col] - want) <= 1e-12L * want, "%s %s ord 2.5 column %d: %.17g, want %.17Lg",
                      dname(dt), format_names[f], col, got[col], want);
            }
            ga_release(r);
            ga_sparse_release(s);
            ga_clear_error();
        }
        ga_release(d);
    }
}

/* ---- scipy.sparse.linalg.spsolve_triangular ------------------------------------------------ */

/* A triangular n x n system (the other triangle holding entries too, which
   the solve ignores) against forward or back substitution on the host. */
static void check_spsolve(ga_dtype da, ga_dtype db, ga_sparse_format f, int64_t n, int64_t k, bool lower, bool unit,
                          bool dups)
{
    const int64_t per = 4; /* off-diagonal entries a row, about */
    triplets t = trip_new(n, n, n * (per + 2));
    int64_t e = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t deg = (int64_t)(rnd() % (uint64_t)(per + 1));
        for (int64_t q = 0; q < deg && n > 1; q++) {
            t.row[e] = i, t.col[e] = (int64_t)(rnd() % (uint64_t)n);
            if (t.col[e] == i) continue;
            t.re[e] = da == GA_BOOL || ga_dtype_kind(da) == 'u' ? (long double)(rnd() % 2)
                                                              : (long double)((int64_t)(rnd() % 3) - 1) / (is_exact(da) ? 1 : 2);
            t.im[e] = is_complex(da) ? (long double)((int64_t)(rnd() % 3) - 1) / 4 : 0;
            e++;
        }
        t.row[e] = t.col[e] = i; /* the diagonal: 1 to 3 (unit: anything, even 0) */
        t.re[e] = unit ? (long double)(rnd() % 3) : (long double)(1 + rnd() % 3);
        t.im[e] = 0;
        if (da == GA_BOOL) t.re[e] = unit ? (long double)(rnd() % 2) : 1;
        e++;
        if (dups && !unit && rnd() % 3 == 0) t.row[e] = t.col[e] = i, t.re[e] = da == GA_BOOL ? 1 : 1, t.im[e] = 0, e++;
    }
    t.nnz = e;
    /* the dense matrix (duplicates summed as the dtype does) and b */
    long double *ar = malloc(sizeof(long double) * (size_t)(n * n + 1)), *ai = malloc(sizeof(long double) * (size_t)(n * n + 1));
    bool *st = malloc((size_t)(n * n + 1));
    trip_dense_stored(&t, da, ar, ai, st);
    long double *br = malloc(sizeof(long double) * (size_t)(n * k + 1)), *bi = malloc(sizeof(long double) * (size_t)(n * k + 1));
    long double *xr = malloc(sizeof(long double) * (size_t)(n * k + 1)), *xi = malloc(sizeof(long double) * (size_t)(n * k + 1));
    for (int64_t i = 0; i < n * k; i++) draw_value(db, &br[i], &bi[i]);
    for (int64_t c = 0; c < k; c++) /* substitution, b (n, k) C-ordered */
        for (int64_t s = 0; s < n; s++) {
            const int64_t i = lower ? s : n - 1 - s;
            long double sr = br[i * k + c], si = bi[i * k + c];
            for (int64_t j = 0; j < n; j++) {
                if (lower ? j >= i : j <= i) continue;
                sr -= ar[i * n + j] * xr[j * k + c] - ai[i * n + j] * xi[j * k + c];
                si -= ar[i * n + j] * xi[j * k + c] + ai[i * n + j] * xr[j * k + c];
            }
            const long double dr = unit ? 1 : ar[i * n + i], di = unit ? 0 : ai[i * n + i], den = dr * dr + di * di;
            xr[i * k + c] = (sr * dr + si * di) / den, xi[i * k + c] = (si * dr - sr * di) / den;
        }
    const ga_dtype dt = ga_promote_types(ga_promote_types(da, GA_FLOAT32), db);
    char what[200];
    snprintf(what, sizeof what, "spsolve_triangular(%s %s %lld x %lld, b %s (%lld, %lld), lower=%d, unit=%d%s)", format_names[f],
             dname(da), (long long)n, (long long)n, dname(db), (long long)n, (long long)k, lower, unit, dups ? ", duplicates" : "");
    size_t before = used_bytes();
    ga_sparse *a = make_sparse(&t, da, f, GA_INT32);
    ga_array *flat = upload_values(br, bi, n * k, db);
    const int64_t bshape[2] = {n, k};
    ga_array *b = flat ? ga_reshape(flat, k == 1 && n % 2 ? 1 : 2, bshape) : NULL; /* (n,) or (n, k) */
    ga_array *x = a && b ? ga_sparse_linalg_spsolve_triangular(a, b, lower, unit) : NULL;
    long double scale = 1;
    for (int64_t i = 0; i < n * k; i++) scale = fmaxl(scale, fabsl(xr[i]) + fabsl(xi[i]));
    check_dense(x, xr, xi, n * k, dt, (dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-4L : 1e-10L) * scale, what);
    if (x) CHECK(ga_ndim(x) == ga_ndim(b), "%s: ndim %d", what, ga_ndim(x));
    ga_release(x), ga_release(b), ga_release(flat);
    ga_sparse_release(a);
    ga_clear_error();
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    free(ar), free(ai), free(st), free(br), free(bi), free(xr), free(xi);
    trip_free(&t);
}

DEVICE_TEST(spsolve_triangular)
{
    const ga_dtype pairs[][2] = {{GA_FLOAT64, GA_FLOAT64}, {GA_FLOAT32, GA_FLOAT32}, {GA_COMPLEX128, GA_COMPLEX128},
                                 {GA_COMPLEX64, GA_FLOAT32}, {GA_FLOAT32, GA_INT64}, {GA_INT16, GA_FLOAT32},
                                 {GA_BOOL, GA_FLOAT64},      {GA_FLOAT64, GA_COMPLEX64}, {GA_UINT8, GA_INT8}};
    int i = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (int f = 0; f < 3; f++)
            for (int lower = 0; lower < 2; lower++, i++) {
                if (!test_sample(i, 2)) continue;
                check_spsolve(pairs[p][0], pairs[p][1], formats[f], 37, 1, lower, false, i % 3 == 0);
                check_spsolve(pairs[p][0], pairs[p][1], formats[f], 20, 3, lower, i % 2 == 0, false);
            }
    check_spsolve(GA_FLOAT64, GA_FLOAT64, GA_SPARSE_CSR, 1, 1, true, false, false);
    check_spsolve(GA_FLOAT64, GA_FLOAT64, GA_SPARSE_CSR, 0, 1, true, false, false);
    check_spsolve(GA_FLOAT64, GA_FLOAT64, GA_SPARSE_CSC, 5, 0, false, false, false);
    check_spsolve(GA_FLOAT64, GA_FLOAT64, GA_SPARSE_CSR, 700, 2, true, false, true);
    ga__sparse_index_bits = 64;
    check_spsolve(GA_FLOAT64, GA_FLOAT32, GA_SPARSE_CSR, 50, 2, false, false, false);
    ga__sparse_index_bits = 32;
    ga_sparse *e = ga_sparse_eye(4, 4, 1, GA_FLOAT64, GA_SPARSE_CSR), *sq = ga_sparse_eye(3, 4, 0, GA_FLOAT64, GA_SPARSE_CSR);
    ga_array *b4 = ga_ones(GA_SHAPE(4), GA_FLOAT64), *b3 = ga_ones(GA_SHAPE(3), GA_FLOAT64), *bd = ga_ones(GA_SHAPE(4, 1, 1), GA_FLOAT64);
    /* lower, unit diagonal: the superdiagonal is not read, x = b */
    ga_array *xu = e ? ga_sparse_linalg_spsolve_triangular(e, b4, true, true) : NULL;
    double got[4] = {0, 0, 0, 0};
    if (xu && download(xu, got)) CHECK(got[0] == 1 && got[1] == 1 && got[2] == 1 && got[3] == 1, "the other triangle ignored");
    else CHECK(false, "the other triangle ignored: %s", ga_last_error_message());
    size_t before = used_bytes();
    CHECK_ERROR(ga_sparse_linalg_spsolve_triangular(e, b4, false, false) == NULL, GA_ERROR_LINALG,
                "ga_sparse_linalg_spsolve_triangular: A is singular: zero entry on diagonal.");
    CHECK_ERROR(ga_sparse_linalg_spsolve_triangular(sq, b3, true, false) == NULL, GA_ERROR_VALUE,
                "A must be a square matrix but its shape is (3, 4).");
    CHECK_ERROR(ga_sparse_linalg_spsolve_triangular(e, bd, true, false) == NULL, GA_ERROR_VALUE,
                "b must have 1 or 2 dims but its shape is (4, 1, 1).");
    CHECK_ERROR(ga_sparse_linalg_spsolve_triangular(e, b3, true, false) == NULL, GA_ERROR_VALUE,
                "The size of the dimensions of A and b do not match");
    CHECK(used_bytes() == before, "nothing left in use by the refusals");
    ga_release(xu), ga_release(b4), ga_release(b3), ga_release(bd);
    ga_sparse_release(e), ga_sparse_release(sq);
}

/* ---- cg's preconditioner and callback ---------------------------------------------------------- */

typedef struct cg_counts {
    int calls;
    int64_t n;
    const ga_array *inverse_diagonal;
    bool bad_shape;
} cg_counts;

static void count_iterations(const ga_array *xk, void *user)
{
    cg_counts *c = (cg_counts *)user;
    if (xk && ga_ndim(xk) == 1 && ga_shape(xk)[0] == c->n) c->calls++;
}

/* Jacobi as a callback: z = r / diag(A) (or a wrong shape). */
static ga_array *jacobi(const ga_array *r, void *user)
{
    cg_counts *c = (cg_counts *)user;
    if (c->bad_shape) return ga_ones(GA_SHAPE(c->n + 1), GA_FLOAT64);
    return ga_multiply(r, c->inverse_diagonal);
}

DEVICE_TEST(cg_preconditioner_and_callback)
{
    const int64_t n = test_size(3000, 400);
    const ga_dtype ds[] = {GA_FLOAT64, GA_COMPLEX128, GA_FLOAT32};
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        const ga_dtype dt = ds[k];
        /* A = D + a 1-d Laplacian, D from 1 to 1000: badly scaled, so Jacobi helps */
        double *dv = malloc(8 * (size_t)n), *inv = malloc(8 * (size_t)n), *b = malloc(8 * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            dv[i] = 2 + pow(10, 3 * rnd_unit());
            inv[i] = 1 / dv[i];
            b[i] = rnd_unit() - 0.5;
        }
        ga_array *d0h = ga_from_host(dv, GA_SHAPE(n), GA_FLOAT64), *d0 = ga_astype(d0h, dt);
        ga_array *d1 = ga_full(GA_SHAPE(n - 1), ga_float(-1), dt);
        const ga_array *dg[3] = {d1, d0, d1};
        const int64_t off[3] = {-1, 0, 1};
        ga_sparse *a = ga_sparse_diags(3, dg, off, NULL, formats[k % 3], GA_DTYPE_INVALID);
        const ga_array *invd[1] = {NULL};
        ga_array *ih = ga_from_host(inv, GA_SHAPE(n), GA_FLOAT64), *id = ga_astype(ih, dt);
        invd[0] = id;
        const int64_t zero[1] = {0};
        ga_sparse *m = ga_sparse_diags(1, invd, zero, NULL, GA_SPARSE_CSR, GA_DTYPE_INVALID);
        ga_array *bh = ga_from_host(b, GA_SHAPE(n), GA_FLOAT64), *bt = ga_astype(bh, dt);
        const double rtol = dt == GA_FLOAT32 ? 1e-4 : 1e-9;
        char what[80];
        snprintf(what, sizeof what, "preconditioned cg %s (%s)", dname(dt), format_names[k % 3]);
        size_t before = used_bytes();
        cg_counts plain = {0, n, id, false}, with_m = {0, n, id, false}, with_fn = {0, n, id, false};
        int64_t info0 = -1, info1 = -1, info2 = -1;
        ga_sparse_solver_options o0 = {NULL, NULL, NULL, count_iterations, &plain};
        ga_sparse_solver_options o1 = {m, NULL, NULL, count_iterations, &with_m};
        ga_sparse_solver_options o2 = {NULL, jacobi, &with_fn, count_iterations, &with_fn};
        ga_array *x0 = ga_sparse_linalg_cg_options(a, bt, NULL, rtol, 0, -1, &o0, &info0);
        ga_array *x1 = ga_sparse_linalg_cg_options(a, bt, NULL, rtol, 0, -1, &o1, &info1);
        ga_array *x2 = ga_sparse_linalg_cg_options(a, bt, NULL, rtol, 0, -1, &o2, &info2);
        CHECK(x0 && x1 && x2 && info0 == 0 && info1 == 0 && info2 == 0, "%s: converged (%lld %lld %lld): %s", what,
              (long long)info0, (long long)info1, (long long)info2, ga_last_error_message());
        /* the residual on the host, each solution */
        ga_array *xs[3] = {x0, x1, x2};
        for (int s = 0; s < 3; s++) {
            if (!xs[s]) continue;
            unsigned char *mem = malloc((size_t)n * isz(dt));
            double num = 0, den = 0;
            if (download(xs[s], mem)) {
                for (int64_t i = 0; i < n; i++) {
                    long double ax = dv[i] * value_at(dt, mem, i);
                    if (i > 0) ax -= value_at(dt, mem, i - 1);
                    if (i + 1 < n) ax -= value_at(dt, mem, i + 1);
                    num += (double)((ax - b[i]) * (ax - b[i]));
                    den += b[i] * b[i];
                }
                CHECK(sqrt(num / den) <= rtol * 2, "%s: solution %d: relative residual %g, asked %g", what, s, sqrt(num / den), rtol);
            }
            free(mem);
        }
        CHECK(plain.calls > 0 && with_m.calls > 0 && abs(with_m.calls - with_fn.calls) <= 1, "%s: callbacks %d, %d, %d", what, plain.calls,
              with_m.calls, with_fn.calls);
        CHECK(with_m.calls < plain.calls, "%s: Jacobi takes %d iterations, none %d", what, with_m.calls, plain.calls);
        /* maxiter: the callback once an iteration, info the count */
        cg_counts three = {0, n, id, false};
        ga_sparse_solver_options o3 = {m, NULL, NULL, count_iterations, &three};
        int64_t info3 = -1;
        ga_array *x3 = ga_sparse_linalg_cg_options(a, bt, NULL, 1e-15, 0, 3, &o3, &info3);
        CHECK(x3 && info3 == 3 && three.calls == 3, "%s: 3 iterations: info %lld, %d callbacks", what, (long long)info3, three.calls);
        ga_release(x0), ga_release(x1), ga_release(x2), ga_release(x3);
        /* M_matvec of the wrong shape, M of the wrong shape */
        cg_counts bad = {0, n, id, true};
        ga_sparse_solver_options ob = {NULL, jacobi, &bad, NULL, NULL};
        CHECK_ERROR(ga_sparse_linalg_cg_options(a, bt, NULL, rtol, 0, -1, &ob, NULL) == NULL, GA_ERROR_SHAPE,
                    "ga_sparse_linalg_cg_options: M_matvec returned an array of 1 dims");
        ga_sparse *m2 = ga_sparse_eye(n + 1, n + 1, 0, dt, GA_SPARSE_CSR);
        ga_sparse_solver_options om = {m2, NULL, NULL, NULL, NULL};
        CHECK_ERROR(ga_sparse_linalg_cg_options(a, bt, NULL, rtol, 0, -1, &om, NULL) == NULL, GA_ERROR_SHAPE,
                    "and M");
        ga_sparse_release(m2);
        CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
        ga_release(d0h), ga_release(d0), ga_release(d1), ga_release(ih), ga_release(id), ga_release(bh), ga_release(bt);
        ga_sparse_release(a), ga_sparse_release(m);
        free(dv), free(inv), free(b);
        ga_clear_error();
    }
}

/* ---- stream capture: refused at the entry, nothing enqueued --------------------------------- */

DEVICE_TEST(capture_refuses_reads_at_the_entry)
{
    ga_stream *st = ga_stream_create(true);
    ga_stream_set_current(st);
    triplets t = trip_random(GA_FLOAT64, 30, 20, 80, true, true);
    ga_sparse *coo = make_sparse(&t, GA_FLOAT64, GA_SPARSE_COO, GA_INT32); /* duplicates: not canonical */
    ga_sparse *csr = coo ? ga_sparse_tocsr(coo) : NULL;
    ga_array *x = ga_ones(GA_SHAPE(20), GA_FLOAT64);
    const ga_sparse *two[2] = {csr, csr};
    CHECK(coo && csr && x, "setup: %s", ga_last_error_message());
    ga_release(ga_sparse_matmul(csr, x)); /* warm-up: cuSPARSE's handle, the kernels */
    ga_release(ga_sparse_max(csr, 1));
    CHECK_OK(ga_graph_capture_begin(st, GA_CAPTURE_GLOBAL));
    /* each refused before it enqueues anything */
    CHECK_ERROR(ga_sparse_add(csr, csr) == NULL, GA_ERROR_STREAM_CAPTURE,
                "ga_sparse_add: cannot run while stream capture is active: it reads a size or a structure check");
    CHECK_ERROR(ga_sparse_tocsr(coo) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_tocsr: cannot run");
    CHECK_ERROR(ga_sparse_matmul(coo, x) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_matmul: cannot run");
    CHECK_ERROR(ga_sparse_count_nonzero(csr) == -1, GA_ERROR_STREAM_CAPTURE, "ga_sparse_count_nonzero: cannot run");
    CHECK_ERROR(ga_sparse_tril(csr, 0, GA_SPARSE_CSR) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_tril: cannot run");
    CHECK_ERROR(ga_sparse_vstack(2, two, GA_SPARSE_CSR, GA_DTYPE_INVALID) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_vstack");
    CHECK_ERROR(ga_sparse_greater_scalar(csr, ga_float(0.5)) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_greater_scalar");
    CHECK_ERROR(ga_sparse_diagonal(csr, 0) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_diagonal");
    CHECK_ERROR(ga_sparse_max(coo, 1) == NULL, GA_ERROR_STREAM_CAPTURE, "ga_sparse_max");
    ga_graph *empty = ga_graph_capture_end(st);
    CHECK(empty && ga_graph_node_count(empty) == 0, "the refused calls enqueued nothing: %lld nodes",
          (long long)(empty ? ga_graph_node_count(empty) : -1));
    ga_graph_release(empty);
    /* what needs no read is captured: A @ x of the canonical CSR, a scalar product, max of the canonical CSR */
    CHECK_OK(ga_graph_capture_begin(st, GA_CAPTURE_GLOBAL));
    ga_array *y = ga_sparse_matmul(csr, x);
    ga_sparse *h = ga_sparse_multiply_scalar(csr, ga_float(0.5));
    ga_array *m = ga_sparse_max(csr, 1);
    ga_graph *g = ga_graph_capture_end(st);
    CHECK(g && y && h && m && ga_graph_node_count(g) >= 3, "captured: %s", ga_last_error_message());
    if (g) CHECK_OK(ga_graph_launch(g, st));
    ga_array *want = ga_sparse_matmul(csr, x), *want_m = ga_sparse_max(csr, 1);
    CHECK(y && want && same_array(y, want), "the graph's A @ x");
    CHECK(m && want_m && same_array(m, want_m), "the graph's max(axis=1)");
    ga_release(y), ga_release(want), ga_release(m), ga_release(want_m);
    ga_sparse_release(h);
    ga_graph_release(g);
    ga_release(x);
    ga_sparse_release(coo), ga_sparse_release(csr);
    trip_free(&t);
    ga_clear_error();
    ga_stream_set_current(NULL);
    ga_stream_destroy(st);
}

/* ---- scipy.sparse.linalg.gmres ------------------------------------------------------------------ */

/* A nonsymmetric n x n system: diag d, sub-diagonal -1 - e, super-diagonal
   -1 + e, and a diagonal at offset 7 of 0.3 (complex: 0.3i); b random. */
static void check_gmres(ga_dtype dt, ga_sparse_format f, int64_t n, int64_t restart, bool jacobi)
{
    double *d = malloc(8 * (size_t)n), *b = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) d[i] = 3 + (jacobi ? pow(10, 2 * rnd_unit()) : rnd_unit()), b[i] = rnd_unit() - 0.5;
    const double e = 0.4;
    const bool cplx = is_complex(dt);
    ga_array *dh = ga_from_host(d, GA_SHAPE(n), GA_FLOAT64), *d0 = ga_astype(dh, dt);
    ga_array *dl = ga_full(GA_SHAPE(n - 1), ga_float(-1 - e), dt), *du = ga_full(GA_SHAPE(n - 1), ga_float(-1 + e), dt);
    ga_array *d7 = ga_full(GA_SHAPE(n - 7), cplx ? ga_complex(0, 0.3) : ga_float(0.3), dt);
    const ga_array *dg[4] = {dl, d0, du, d7};
    const int64_t off[4] = {-1, 0, 1, 7};
    ga_sparse *a = ga_sparse_diags(4, dg, off, NULL, f, GA_DTYPE_INVALID);
    ga_array *bh = ga_from_host(b, GA_SHAPE(n), GA_FLOAT64), *bt = ga_astype(bh, dt);
    double *inv = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) inv[i] = 1 / d[i];
    ga_array *ih = ga_from_host(inv, GA_SHAPE(n), GA_FLOAT64), *id = ga_astype(ih, dt);
    const ga_array *md[1] = {id};
    const int64_t zero[1] = {0};
    ga_sparse *m = ga_sparse_diags(1, md, zero, NULL, GA_SPARSE_CSR, GA_DTYPE_INVALID);
    const double rtol = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-4 : 1e-9;
    cg_counts cycles = {0, n, NULL, false};
    ga_sparse_solver_options o = {jacobi ? m : NULL, NULL, NULL, count_iterations, &cycles};
    char what[120];
    snprintf(what, sizeof what, "gmres %s (%s, n %lld, restart %lld%s)", dname(dt), format_names[f], (long long)n,
             (long long)restart, jacobi ? ", Jacobi" : "");
    size_t before = used_bytes();
    int64_t info = -1;
    ga_array *x = a && bt ? ga_sparse_linalg_gmres(a, bt, NULL, rtol, 0, restart, -1, &o, &info) : NULL;
    CHECK(x && info == 0, "%s: info %lld: %s", what, (long long)info, ga_last_error_message());
    if (x) { /* ||A x - b|| / ||b|| on the host */
        unsigned char *mem = malloc((size_t)n * isz(dt));
        if (download(x, mem)) {
            long double num = 0, den = 0;
            for (int64_t i = 0; i < n; i++) {
                const elem xi = load(dt, mem + (size_t)i * isz(dt));
                long double re = d[i] * value_of(dt, xi), im = cplx ? d[i] * xi.im : 0;
                if (i > 0) { const elem p = load(dt, mem + (size_t)(i - 1) * isz(dt)); re += (-1 - e) * value_of(dt, p), im += cplx ? (-1 - e) * p.im : 0; }
                if (i + 1 < n) { const elem q = load(dt, mem + (size_t)(i + 1) * isz(dt)); re += (-1 + e) * value_of(dt, q), im += cplx ? (-1 + e) * q.im : 0; }
                if (i + 7 < n) {
                    const elem q = load(dt, mem + (size_t)(i + 7) * isz(dt));
                    if (cplx) re -= 0.3L * q.im, im += 0.3L * value_of(dt, q);
                    else re += 0.3L * value_of(dt, q);
                }
                num += (re - b[i]) * (re - b[i]) + im * im, den += (long double)b[i] * b[i];
            }
            CHECK(sqrtl(num / den) <= rtol * 1.05, "%s: relative residual %Lg, asked %g", what, sqrtl(num / den), rtol);
        }
        free(mem);
        CHECK(cycles.calls >= 1, "%s: callback after each restart cycle: %d", what, cycles.calls);
    }
    /* one cycle of a small restart is not enough: info = maxiter */
    int64_t info1 = -1;
    ga_array *x1 = ga_sparse_linalg_gmres(a, bt, NULL, 1e-14, 0, 2, 1, NULL, &info1);
    CHECK(x1 && info1 == 1, "%s: one cycle of 2: info %lld", what, (long long)info1);
    /* from the solution: converged at once */
    int64_t info2 = -1;
    ga_array *x2 = x ? ga_sparse_linalg_gmres(a, bt, x, rtol * 10, 0, restart, -1, NULL, &info2) : NULL;
    CHECK(!x || (x2 && info2 == 0), "%s: from its solution: info %lld", what, (long long)info2);
    ga_release(x), ga_release(x1), ga_release(x2);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    ga_release(dh), ga_release(d0), ga_release(dl), ga_release(du), ga_release(d7), ga_release(bh), ga_release(bt), ga_release(ih),
        ga_release(id);
    ga_sparse_release(a), ga_sparse_release(m);
    free(d), free(b), free(inv);
    ga_clear_error();
}

DEVICE_TEST(gmres_converges_on_nonsymmetric)
{
    check_gmres(GA_FLOAT64, GA_SPARSE_CSR, test_size(1500, 300), 0, false);
    check_gmres(GA_FLOAT64, GA_SPARSE_CSC, 200, 5, false);
    check_gmres(GA_COMPLEX128, GA_SPARSE_COO, 300, 30, false);
    check_gmres(GA_FLOAT32, GA_SPARSE_CSR, 300, 0, false);
    check_gmres(GA_COMPLEX64, GA_SPARSE_CSR, 150, 10, false);
    check_gmres(GA_FLOAT64, GA_SPARSE_CSR, 400, 20, true);
    check_gmres(GA_FLOAT64, GA_SPARSE_CSR, 9, 50, false); /* restart above n: n */
    /* b = 0: x = 0 at once; errors as cg's */
    ga_sparse *e = ga_sparse_eye(5, 5, 0, GA_FLOAT64, GA_SPARSE_CSR), *r = ga_sparse_eye(3, 5, 0, GA_FLOAT64, GA_SPARSE_CSR);
    ga_array *z = ga_zeros(GA_SHAPE(5), GA_FLOAT64);
    int64_t info = -1;
    ga_array *x = ga_sparse_linalg_gmres(e, z, NULL, 1e-5, 0, 0, -1, NULL, &info);
    CHECK(x && info == 0 && same_array(x, z), "gmres of b = 0");
    CHECK_ERROR(ga_sparse_linalg_gmres(r, z, NULL, 1e-5, 0, 0, -1, NULL, NULL) == NULL, GA_ERROR_VALUE,
                "ga_sparse_linalg_gmres: expected square matrix");
    ga_release(x), ga_release(z);
    ga_sparse_release(e), ga_sparse_release(r);
}

/* ---- scipy.sparse.linalg.minres ----------------------------------------------------------------- */

/* A Hermitian, indefinite, diagonally dominant tridiagonal system: diag
   +-(3 to 4), super-diagonal -1 + 0.5i (real: -1), sub-diagonal its
   conjugate; (A - shift I) x = b checked on the host: the residual against
   SciPy's test ||r|| <= rtol ||A|| ||x||, and real x against the Thomas
   algorithm's solution. */
static void check_minres(ga_dtype dt, ga_sparse_format f, int64_t n, double shift, bool jacobi)
{
    const bool cplx = is_complex(dt);
    double *d = malloc(8 * (size_t)n), *b = malloc(8 * (size_t)n), *inv = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        d[i] = (rnd() % 2 ? 1 : -1) * (3 + rnd_unit()) * (jacobi ? pow(10, 2 * rnd_unit()) : 1);
        inv[i] = 1 / fabs(d[i] - shift);
        b[i] = rnd_unit() - 0.5;
    }
    const double oi = cplx ? 0.5 : 0;
    ga_array *dh = ga_from_host(d, GA_SHAPE(n), GA_FLOAT64), *d0 = ga_astype(dh, dt);
    ga_array *du = ga_full(GA_SHAPE(n - 1), cplx ? ga_complex(-1, oi) : ga_float(-1), dt);
    ga_array *dl = ga_full(GA_SHAPE(n - 1), cplx ? ga_complex(-1, -oi) : ga_float(-1), dt);
    const ga_array *dg[3] = {dl, d0, du};
    const int64_t off[3] = {-1, 0, 1}, zero[1] = {0};
    ga_sparse *a = ga_sparse_diags(3, dg, off, NULL, f, GA_DTYPE_INVALID);
    ga_array *ih = ga_from_host(inv, GA_SHAPE(n), GA_FLOAT64), *id = ga_astype(ih, dt);
    const ga_array *md[1] = {id};
    ga_sparse *m = ga_sparse_diags(1, md, zero, NULL, GA_SPARSE_CSR, GA_DTYPE_INVALID); /* positive definite */
    ga_array *bh = ga_from_host(b, GA_SHAPE(n), GA_FLOAT64), *bt = ga_astype(bh, dt);
    const double rtol = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-5 : 1e-11;
    cg_counts its = {0, n, NULL, false};
    ga_sparse_solver_options o = {jacobi ? m : NULL, NULL, NULL, count_iterations, &its};
    char what[120];
    snprintf(what, sizeof what, "minres %s (%s, n %lld, shift %g%s)", dname(dt), format_names[f], (long long)n, shift,
             jacobi ? ", Jacobi" : "");
    size_t before = used_bytes();
    int64_t info = -1;
    ga_array *x = ga_sparse_linalg_minres(a, bt, NULL, shift, rtol, -1, &o, &info);
    CHECK(x && info == 0 && its.calls > 0, "%s: info %lld, %d callbacks: %s", what, (long long)info, its.calls,
          ga_last_error_message());
    unsigned char *mem = malloc((size_t)n * isz(dt));
    if (x && download(x, mem)) {
        long double rr = 0, xx = 0, af = 0;
        for (int64_t i = 0; i < n; i++) {
            const elem xi = load(dt, mem + (size_t)i * isz(dt));
            long double re = (d[i] - shift) * value_of(dt, xi), im = cplx ? (d[i] - shift) * xi.im : 0;
            if (i > 0) { /* sub-diagonal (-1 - oi i) x[i-1] */
                const elem p = load(dt, mem + (size_t)(i - 1) * isz(dt));
                const long double pr = value_of(dt, p), pi = cplx ? p.im : 0;
                re += -pr + oi * pi, im += -pi - oi * pr;
            }
            if (i + 1 < n) { /* super-diagonal (-1 + oi i) x[i+1] */
                const elem q = load(dt, mem + (size_t)(i + 1) * isz(dt));
                const long double qr = value_of(dt, q), qi = cplx ? q.im : 0;
                re += -qr - oi * qi, im += -qi + oi * qr;
            }
            rr += (re - b[i]) * (re - b[i]) + im * im;
            xx += value_of(dt, xi) * value_of(dt, xi) + (cplx ? xi.im * xi.im : 0);
            af += (d[i] - shift) * (d[i] - shift) + 2 * (1 + oi * oi);
        }
        CHECK(sqrtl(rr) <= 10 * rtol * sqrtl(af) * sqrtl(xx), "%s: ||r|| %Lg, ||A|| ||x|| %Lg", what, sqrtl(rr), sqrtl(af * xx));
        if (!cplx && dt == GA_FLOAT64) { /* the Thomas algorithm */
            double *cp = malloc(8 * (size_t)n), *dp = malloc(8 * (size_t)n);
            for (int64_t i = 0; i < n; i++) {
                const double den = (d[i] - shift) - (i ? -1 * cp[i - 1] : 0);
                cp[i] = -1 / den;
                dp[i] = (b[i] - (i ? -1 * dp[i - 1] : 0)) / den;
            }
            long double err = 0, ref = 0;
            for (int64_t i = n - 1; i >= 0; i--) {
                if (i < n - 1) dp[i] -= cp[i] * dp[i + 1];
                const long double xi = value_of(dt, load(dt, mem + (size_t)i * 8));
                err += (xi - dp[i]) * (xi - dp[i]), ref += (long double)dp[i] * dp[i];
            }
            CHECK(sqrtl(err / ref) <= 1e-8, "%s: relative error %Lg against the Thomas algorithm", what, sqrtl(err / ref));
            free(cp), free(dp);
        }
    }
    free(mem);
    int64_t info3 = -1;
    ga_array *x3 = ga_sparse_linalg_minres(a, bt, NULL, shift, 1e-15, 3, NULL, &info3);
    CHECK(x3 && info3 == 3, "%s: 3 iterations: info %lld", what, (long long)info3);
    ga_release(x), ga_release(x3);
    CHECK(used_bytes() == before, "%s: %zu bytes left in use", what, used_bytes() - before);
    ga_release(dh), ga_release(d0), ga_release(du), ga_release(dl), ga_release(ih), ga_release(id), ga_release(bh), ga_release(bt);
    ga_sparse_release(a), ga_sparse_release(m);
    free(d), free(b), free(inv);
    ga_clear_error();
}

DEVICE_TEST(minres_on_hermitian_indefinite)
{
    check_minres(GA_FLOAT64, GA_SPARSE_CSR, test_size(2000, 300), 0, false);
    check_minres(GA_FLOAT64, GA_SPARSE_CSC, 500, 0.5, false);
    check_minres(GA_FLOAT64, GA_SPARSE_COO, 400, 0, true);
    check_minres(GA_COMPLEX128, GA_SPARSE_CSR, 300, 0, false);
    check_minres(GA_FLOAT32, GA_SPARSE_CSR, 300, 0, false);
    /* b = 0: x = 0 (beta1 = 0) */
    ga_sparse *e = ga_sparse_eye(4, 4, 0, GA_FLOAT64, GA_SPARSE_CSR);
    ga_array *z = ga_zeros(GA_SHAPE(4), GA_FLOAT64), *ones = ga_ones(GA_SHAPE(4), GA_FLOAT64);
    int64_t info = -1;
    ga_array *x = ga_sparse_linalg_minres(e, z, NULL, 0, 1e-5, -1, NULL, &info);
    CHECK(x && info == 0 && same_array(x, z), "minres of b = 0");
    /* an indefinite preconditioner: SciPy's refusal */
    ga_sparse *neg = ga_sparse_multiply_scalar(e, ga_float(-1));
    ga_sparse_solver_options o = {neg, NULL, NULL, NULL, NULL};
    CHECK_ERROR(ga_sparse_linalg_minres(e, ones, NULL, 0, 1e-5, -1, &o, NULL) == NULL, GA_ERROR_VALUE,
                "ga_sparse_linalg_minres: indefinite preconditioner");
    ga_release(x), ga_release(z), ga_release(ones);
    ga_sparse_release(e), ga_sparse_release(neg);
}

/* The members of the .npz at path as zipfile reads them: each of c's
   members (by name) of the same CRC-32 and size (the same .npy bytes). */
static void check_npz_members(const char *path, const sparse_npz_case *c, const char *what)
{
    ga_npz *z = ga_load_npz(path);
    CHECK(z != NULL, "%s: ga_load_npz: %s", what, ga_last_error_message());
    int members = 0;
    for (int k = 0; z && k < c->nmembers; k++) {
        if (strcmp(c->members[k].name, "_is_array.npy") == 0) continue; /* (SciPy's arrays: not written) */
        members++;
        const int i = ga__npz_find(z, c->members[k].name);
        CHECK(i >= 0 && i == members - 1, "%s: %s is member %d", what, c->members[k].name, i);
        if (i < 0) continue;
        CHECK(z->entries[i].crc == c->members[k].crc && z->entries[i].usize == (uint64_t)c->members[k].size,
              "%s: %s: crc %08x, %llu bytes; SciPy's %08x, %lld bytes", what, c->members[k].name, z->entries[i].crc,
              (unsigned long long)z->entries[i].usize, c->members[k].crc, (long long)c->members[k].size);
    }
    CHECK(!z || ga_npz_count(z) == members, "%s: %d members, SciPy's %d", what, z ? ga_npz_count(z) : -1, members);
    ga_npz_close(z);
}

/* s against case c: format, dtype, shape, stored entries, dense values. */
static void check_npz_matrix(const ga_sparse *s, const sparse_npz_case *c, const char *what)
{
    CHECK(s != NULL, "%s: %s", what, ga_last_error_message());
    if (!s) return;
    CHECK((int)ga_sparse_format_of(s) == c->format && ga_sparse_dtype_of(s) == c->dtype && ga_sparse_shape(s)[0] == c->m &&
              ga_sparse_shape(s)[1] == c->n && ga_sparse_nnz(s) == c->nnz,
          "%s: format %d, dtype %s, shape (%lld, %lld), nnz %lld", what, (int)ga_sparse_format_of(s),
          dname(ga_sparse_dtype_of(s)), (long long)ga_sparse_shape(s)[0], (long long)ga_sparse_shape(s)[1],
          (long long)ga_sparse_nnz(s));
    const int64_t size = c->m * c->n;
    long double *re = calloc((size_t)size + 1, sizeof *re), *im = calloc((size_t)size + 1, sizeof *im);
    for (int64_t i = 0; i < size; i++) re[i] = c->re[i], im[i] = c->im[i];
    ga_array *d = ga_sparse_toarray(s);
    check_dense(d, re, im, size, c->dtype, 0, what);
    ga_release(d);
    free(re), free(im);
}

/* Every file SciPy wrote, loaded; saved again stored and compressed, its
   members the same bytes as SciPy's (where gpuarr keeps SciPy's index
   dtype) and loaded back; SciPy's refusals in its words, nothing leaked. */
DEVICE_TEST(save_npz_load_npz_as_scipy)
{
    const size_t before = used_bytes();
    for (size_t i = 0; i < sizeof sparse_npz_cases / sizeof sparse_npz_cases[0]; i++) {
        const sparse_npz_case *c = &sparse_npz_cases[i];
        const char *path = npz_case_file(c);
        char what[200];
        if (c->code != GA_OK) {
            char want[300];
            if (strstr(c->text, "does not contain")) snprintf(want, sizeof want, "The file %s %s", path, c->text);
            else snprintf(want, sizeof want, "%s", c->text);
            CHECK_ERROR(ga_sparse_load_npz(path) == NULL, c->code, want);
            ga_clear_error();
            continue;
        }
        snprintf(what, sizeof what, "%s: loaded", c->name);
        ga_sparse *s = ga_sparse_load_npz(path);
        check_npz_matrix(s, c, what);
        if (!s) continue;
        const bool scipy_file = !strstr(c->name, "format") && !strstr(c->name, "coords");
        for (int compressed = 0; compressed < 2; compressed++) {
            /* a name without .npz gains it, as np.savez's */
            char base[200];
            snprintf(base, sizeof base, "%s", npz_path(compressed ? "saved_z" : "saved"));
            char file[210];
            snprintf(file, sizeof file, "%s.npz", base);
            remove(file);
            CHECK(ga_sparse_save_npz(base, s, compressed) == GA_OK, "%s: save_npz: %s", c->name, ga_last_error_message());
            snprintf(what, sizeof what, "%s: saved (%s)", c->name, compressed ? "compressed" : "stored");
            if (scipy_file && ga_sparse_index_dtype(s) == c->index_dtype) check_npz_members(file, c, what);
            ga_sparse *t = ga_sparse_load_npz(file);
            snprintf(what, sizeof what, "%s: saved (%s) and loaded", c->name, compressed ? "compressed" : "stored");
            check_npz_matrix(t, c, what);
            ga_sparse_release(t);
        }
        ga_sparse_release(s);
        ga_clear_error();
    }
    /* a matrix of gpuarr's: every format and a transposed one, through a file and back */
    triplets t = trip_new(37, 23, 90);
    for (int64_t k = 0; k < t.nnz; k++) t.row[k] = (k * 7) % 37, t.col[k] = (k * 5 + k / 9) % 23, t.re[k] = (long double)(k % 13) - 6;
    for (int f = 0; f < 3; f++) {
        ga_sparse *a = make_sparse(&t, GA_FLOAT64, formats[f], GA_INT32);
        ga_sparse *at = ga_sparse_transpose(a);
        const char *path = npz_path("mine.npz");
        CHECK(ga_sparse_save_npz(path, at, f == 1) == GA_OK, "%s: save_npz: %s", format_names[f], ga_last_error_message());
        ga_sparse *b = ga_sparse_load_npz(path);
        CHECK(b && ga_sparse_format_of(b) == ga_sparse_format_of(at) && ga_sparse_shape(b)[0] == 23 && ga_sparse_shape(b)[1] == 37 &&
                  ga_sparse_nnz(b) == ga_sparse_nnz(at),
              "%s: transposed, saved and loaded: %s", format_names[f], ga_last_error_message());
        ga_array *x = ga_sparse_toarray(at), *y = b ? ga_sparse_toarray(b) : NULL;
        CHECK(x && y && same_array(x, y), "%s: transposed, saved and loaded: the same values", format_names[f]);
        ga_release(x), ga_release(y);
        ga_sparse_release(a), ga_sparse_release(at), ga_sparse_release(b);
    }
    trip_free(&t);
    ga_clear_error();
    CHECK(used_bytes() == before, "%zu bytes left in use", used_bytes() - before);
}

/* CSR and CSC holding more stored entries than places (duplicates; nnz 7
   in 2 x 2), which cuSPARSE's descriptors refuse as they are: every path
   into cuSPARSE sums them first. A (CSR) = [[3, 0], [4, 4]]; the same
   arrays as CSC are A^T. A @ x and x @ A (SpMV, SpMM), A @ A (SpGEMM),
   spsolve_triangular (SpSV), sum over each axis. */
DEVICE_TEST(products_and_solves_of_more_entries_than_places)
{
    const double v[7] = {1, 1, 1, 1, 2, 3, 2};
    const int32_t idx[7] = {0, 0, 0, 0, 1, 0, 1}, ptr[3] = {0, 3, 7};
    ga_array *dv = ga_from_host(v, GA_SHAPE(7), GA_FLOAT64), *di = ga_from_host(idx, GA_SHAPE(7), GA_INT32);
    ga_array *dp = ga_from_host(ptr, GA_SHAPE(3), GA_INT32);
    const double x2[2] = {1, 2}, b[2] = {3, 8};
    ga_array *x = ga_from_host(x2, GA_SHAPE(2), GA_FLOAT64), *bb = ga_from_host(b, GA_SHAPE(2), GA_FLOAT64);
    for (int f = 0; f < 2; f++) {
        ga_sparse *s = f == 0 ? ga_sparse_csr_matrix(dv, di, dp, (const int64_t[]){2, 2})
                              : ga_sparse_csc_matrix(dv, di, dp, (const int64_t[]){2, 2});
        CHECK(s && ga_sparse_nnz(s) == 7, "%s of 7 entries: %s", format_names[f], ga_last_error_message());
        if (!s) continue;
        /* M: A for CSR, A^T for CSC */
        const double m[2][2] = {{f == 0 ? 3 : 3, f == 0 ? 0 : 4}, {f == 0 ? 4 : 0, 4}};
        double got[4] = {0};
        ga_array *y = ga_sparse_matmul(s, x); /* M x */
        CHECK(y && ga_to_host(y, got, 2 * 8) == GA_OK && got[0] == m[0][0] + 2 * m[0][1] && got[1] == m[1][0] + 2 * m[1][1],
              "%s: M @ x = (%g, %g): %s", format_names[f], got[0], got[1], ga_last_error_message());
        ga_release(y);
        y = ga_sparse_rmatmul(x, s); /* x M */
        CHECK(y && ga_to_host(y, got, 2 * 8) == GA_OK && got[0] == m[0][0] + 2 * m[1][0] && got[1] == m[0][1] + 2 * m[1][1],
              "%s: x @ M = (%g, %g): %s", format_names[f], got[0], got[1], ga_last_error_message());
        ga_release(y);
        ga_sparse *sq = ga_sparse_matmul_sparse(s, s); /* M M */
        ga_array *d = sq ? ga_sparse_toarray(sq) : NULL;
        CHECK(d && ga_to_host(d, got, 4 * 8) == GA_OK && got[0] == m[0][0] * m[0][0] + m[0][1] * m[1][0] &&
                  got[1] == m[0][0] * m[0][1] + m[0][1] * m[1][1] && got[2] == m[1][0] * m[0][0] + m[1][1] * m[1][0] &&
                  got[3] == m[1][0] * m[0][1] + m[1][1] * m[1][1],
              "%s: M @ M = [[%g, %g], [%g, %g]]: %s", format_names[f], got[0], got[1], got[2], got[3], ga_last_error_message());
        ga_release(d), ga_sparse_release(sq);
        /* M x = b: CSR lower (x = (1, 1)), CSC upper (x = (-5/3 ... )): checked as M x == b */
        ga_array *sol = ga_sparse_linalg_spsolve_triangular(s, bb, f == 0, false);
        CHECK(sol && ga_to_host(sol, got, 2 * 8) == GA_OK &&
                  fabs(m[0][0] * got[0] + m[0][1] * got[1] - b[0]) <= 1e-14 && fabs(m[1][0] * got[0] + m[1][1] * got[1] - b[1]) <= 1e-14,
              "%s: spsolve_triangular: (%g, %g): %s", format_names[f], got[0], got[1], ga_last_error_message());
        ga_release(sol);
        for (int axis = 0; axis < 2; axis++) {
            ga_array *sum = ga_sparse_sum(s, axis);
            const double w0 = axis == 0 ? m[0][0] + m[1][0] : m[0][0] + m[0][1], w1 = axis == 0 ? m[0][1] + m[1][1] : m[1][0] + m[1][1];
            CHECK(sum && ga_to_host(sum, got, 2 * 8) == GA_OK && got[0] == w0 && got[1] == w1, "%s: sum(axis=%d) = (%g, %g): %s",
                  format_names[f], axis, got[0], got[1], ga_last_error_message());
            ga_release(sum);
        }
        ga_sparse_release(s);
        ga_clear_error();
    }
    ga_release(dv), ga_release(di), ga_release(dp), ga_release(x), ga_release(bb);
}

/* Sums along the compressed axis (CSR axis 1, CSC axis 0) for rows of
   every average length, so every group width of the row-sum kernel (1 to
   32 lanes a row, and rows longer than a warp): each row's sum against
   the host's, empty rows and a row count that fills no warp evenly
   included, int32 and int64 indices. */
DEVICE_TEST(row_sums_of_every_row_length)
{
    static const int64_t avgs[] = {0, 1, 2, 3, 5, 8, 13, 31, 33, 120};
    static const ga_dtype dts[] = {GA_FLOAT64, GA_FLOAT32, GA_INT8, GA_UINT16, GA_COMPLEX64, GA_BOOL};
    int i = 0;
    for (size_t a = 0; a < sizeof avgs / sizeof avgs[0]; a++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            for (int f = 0; f < 2; f++, i++) {
                if (!test_sample(i, 2)) continue;
                const ga_dtype dt = dts[d], it = i % 3 == 0 ? GA_INT64 : GA_INT32;
                const int64_t major = 1 + (int64_t)(rnd() % 300), minor = 7 + avgs[a] * 2;
                int64_t *ptr = malloc(sizeof *ptr * (size_t)(major + 1)), nnz = 0;
                ptr[0] = 0;
                for (int64_t r = 0; r < major; r++) { /* lengths 0 .. 2 avg; every 7th row empty */
                    const int64_t len = r % 7 == 3 || avgs[a] == 0 ? 0 : (int64_t)(rnd() % (uint64_t)(2 * avgs[a] + 1));
                    ptr[r + 1] = ptr[r] + len, nnz += len;
                }
                int64_t *idx = malloc(sizeof *idx * (size_t)(nnz + 1));
                long double *re = calloc((size_t)nnz + 1, sizeof *re), *im = calloc((size_t)nnz + 1, sizeof *im);
                long double *sre = calloc((size_t)major + 1, sizeof *sre), *sim = calloc((size_t)major + 1, sizeof *sim);
                for (int64_t r = 0; r < major; r++)
                    for (int64_t j = ptr[r]; j < ptr[r + 1]; j++) {
                        idx[j] = (int64_t)(rnd() % (uint64_t)minor); /* (duplicates and any order: summed all the same) */
                        draw_value(dt, &re[j], &im[j]);
                        sre[r] += dt == GA_BOOL ? re[j] != 0 : re[j], sim[r] += im[j];
                    }
                ga_array *dv = upload_values(re, im, nnz, dt), *di = upload_index(idx, nnz, it), *dp = upload_index(ptr, major + 1, it);
                const int64_t shape[2] = {f == 0 ? major : minor, f == 0 ? minor : major};
                ga_sparse *s = f == 0 ? ga_sparse_csr_matrix(dv, di, dp, shape) : ga_sparse_csc_matrix(dv, di, dp, shape);
                ga_array *sum = s ? ga_sparse_sum(s, f == 0 ? 1 : 0) : NULL;
                char what[160];
                snprintf(what, sizeof what, "%s %s sum, %lld lines of about %lld (%s indices)", format_names[f], dname(dt),
                         (long long)major, (long long)avgs[a], dname(it));
                CHECK(sum && ga_ndim(sum) == 2 && ga_shape(sum)[f == 0 ? 0 : 1] == major && ga_shape(sum)[f == 0 ? 1 : 0] == 1,
                      "%s: shape: %s", what, ga_last_error_message());
                const long double tol = dt == GA_FLOAT32 || dt == GA_COMPLEX64 ? 1e-3L : 1e-9L; /* (small integers: exact but float32) */
                check_dense(sum, sre, sim, major, sum_dtype(dt), tol, what);
                ga_release(sum), ga_release(dv), ga_release(di), ga_release(dp);
                ga_sparse_release(s);
                free(ptr), free(idx), free(re), free(im), free(sre), free(sim);
                ga_clear_error();
            }
}
