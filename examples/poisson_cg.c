/* poisson_cg.c - solve the Poisson problem -(u_xx + u_yy) = 1 on the unit
   square, u = 0 on its edges, on an m x m grid of interior points with the
   five-point stencil, by conjugate gradients over a sparse matrix. The same
   in SciPy:

       I = sp.identity(m); T = sp.diags([-1, 2, -1], [-1, 0, 1], (m, m))
       A = sp.kron(I, T) + sp.kron(T, I)           # h^2 times the Laplacian
       u, info = scipy.sparse.linalg.cg(A, np.full(m * m, h * h), rtol=1e-8)

   The matrix is made directly as its five diagonals (ga_sparse_diags),
   in CSR. u at the centre converges to 0.0736713... as the grid refines.

   Build and run:  make && ./build/examples/poisson_cg [m] */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const int64_t m = argc > 1 ? atoll(argv[1]) : 127, n = m * m;
    if (m < 1 || m > 4096) {
        fprintf(stderr, "poisson_cg: a grid of 1 to 4096 points a side, please\n");
        return 2;
    }
    if (ga_init() != GA_OK) {
        fprintf(stderr, "poisson_cg: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    /* the diagonals: 4 on the main one, -1 to the grid neighbours (none
       across the end of a grid row: zeros there, which diags drops) */
    double *side = malloc(sizeof(double) * (size_t)n);
    if (!side) {
        fprintf(stderr, "poisson_cg: out of host memory\n");
        return 1;
    }
    for (int64_t i = 0; i + 1 < n; i++) side[i] = (i + 1) % m == 0 ? 0 : -1;
    const double h = 1.0 / (double)(m + 1);

    ga_scope_begin();
    ga_array *d0 = ga_full(GA_SHAPE(n), ga_float(4), GA_FLOAT64);
    ga_array *d1 = ga_from_host(side, GA_SHAPE(n > 1 ? n - 1 : 0), GA_FLOAT64);
    ga_array *dm = ga_full(GA_SHAPE(n > m ? n - m : 0), ga_float(-1), GA_FLOAT64);
    const ga_array *diagonals[5] = {dm, d1, d0, d1, dm};
    const int64_t offsets[5] = {-m, -1, 0, 1, m};
    ga_sparse *a = ga_sparse_diags(m > 1 ? 5 : 1, m > 1 ? diagonals : diagonals + 2, m > 1 ? offsets : offsets + 2, NULL,
                                   GA_SPARSE_CSR, GA_FLOAT64);
    ga_array *f = ga_full(GA_SHAPE(n), ga_float(h * h), GA_FLOAT64);
    int64_t info = -1;
    ga_array *u = ga_sparse_linalg_cg(a, f, NULL, 1e-8, 0, -1, &info);
    ga_array *r = ga_subtract(f, ga_sparse_matmul(a, u));   /* f - A u */
    double *host = malloc(sizeof(double) * (size_t)n), *res = malloc(sizeof(double) * (size_t)n);
    if (!u || !r || !host || !res || ga_to_host(u, host, sizeof(double) * (size_t)n) != GA_OK ||
        ga_to_host(r, res, sizeof(double) * (size_t)n) != GA_OK) {
        fprintf(stderr, "poisson_cg: %s\n", ga_last_error_message());
        return 1;
    }
    double rr = 0, ff = (double)n * h * h * h * h;
    for (int64_t i = 0; i < n; i++) rr += res[i] * res[i];
    const int64_t c = m / 2;
    printf("poisson_cg: %lld unknowns, %lld stored entries, cg info %lld\n", (long long)n, (long long)ga_sparse_nnz(a),
           (long long)info);
    printf("  relative residual %.3g\n", sqrt(rr / ff));
    printf("  u(1/2, 1/2) = %.6f (the continuous problem: 0.073671)\n", host[c * m + c]);
    ga_scope_end();
    free(side), free(host), free(res);
    return info == 0 ? 0 : 1;
}
