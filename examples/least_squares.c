/* least_squares.c - fit a polynomial to noisy data on the GPU: build the
   Vandermonde matrix, solve the normal equations (A^T A) c = A^T y with
   matmul and linalg.solve, and report the coefficients and the residual.
   The same in NumPy:

       A = np.vander(x, degree + 1, increasing=True)
       c = np.linalg.solve(A.T @ A, A.T @ y)
       r = np.linalg.norm(A @ c - y)

   Build and run:  make && ./build/examples/least_squares [points] [degree] */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The data: y = 1 + 2 x - 3 x^2 + noise (uniform in [-0.01, 0.01]) at n
   points of [0, 1]; and the powers of x, the Vandermonde matrix (n, d + 1). */
static void make_data(int64_t n, int degree, double *x, double *y, double *vander)
{
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int64_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double noise = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 0.02;
        x[i] = n > 1 ? (double)i / (double)(n - 1) : 0;
        y[i] = 1 + 2 * x[i] - 3 * x[i] * x[i] + noise;
        double p = 1;
        for (int k = 0; k <= degree; k++, p *= x[i]) vander[i * (degree + 1) + k] = p;
    }
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 100000;
    const int degree = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 1 || degree < 0 || degree > 8) {
        fprintf(stderr, "least_squares: points >= 1 and a degree of 0 to 8, please\n");
        return 2;
    }
    if (ga_init() != GA_OK) {
        fprintf(stderr, "least_squares: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    double *v = malloc(sizeof(double) * (size_t)n * (size_t)(degree + 1));
    if (!x || !y || !v) {
        fprintf(stderr, "least_squares: out of host memory\n");
        return 1;
    }
    make_data(n, degree, x, y, v);

    /* Everything made inside the scope is released at its end. */
    ga_scope_begin();
    ga_array *a = ga_from_host(v, GA_SHAPE(n, degree + 1), GA_FLOAT64);
    ga_array *b = ga_from_host(y, GA_SHAPE(n), GA_FLOAT64);
    ga_array *at = ga_transpose(a, NULL);                    /* a view: no copy */
    ga_array *ata = ga_matmul(at, a);                        /* (d + 1, d + 1) */
    ga_array *atb = ga_matvec(at, b);                        /* (d + 1,) */
    ga_array *c = ga_linalg_solve(ata, atb);                 /* the coefficients */
    ga_array *fit = ga_matvec(a, c);
    ga_array *res = ga_linalg_vector_norm(ga_subtract(fit, b), 2, GA_ALL_AXES, false);
    double coef[9] = {0}, r = 0;
    int status = 0;
    if (ga_to_host(c, coef, sizeof(double) * (size_t)(degree + 1)) != GA_OK || ga_to_host(res, &r, sizeof r) != GA_OK) {
        /* the first failure of the chain is the one reported */
        fprintf(stderr, "least_squares: %s\n", ga_last_error_message());
        status = 1;
    } else {
        printf("fit of degree %d to %lld points (true: 1 + 2 x - 3 x^2):\n  y =", degree, (long long)n);
        for (int k = 0; k <= degree; k++) printf(" %+.4f x^%d", coef[k], k);
        printf("\n  residual norm %.4g (rms %.4g)\n", r, r / sqrt((double)n));
    }
    ga_scope_end();
    free(x), free(y), free(v);
    ga_shutdown();
    return status;
}
