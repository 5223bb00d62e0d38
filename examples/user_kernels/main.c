/* examples/user_kernels/main.c - calling a project's own kernels, compiled
   offline by gpuarr's build rule and embedded in this program: a fused
   softplus, a normalise-and-clip with scalar parameters, a row-wise L2
   norm by a reduction kernel, sum((x - y)**2) fused into one pass, and an
   L2 norm by a raw kernel, each checked against gpuarr's built-ins.
   Build and run:  make -C examples/user_kernels && examples/user_kernels/build/user_kernels */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdio.h>

/* the module, linked in by the Makefile's $(call gpuarr_embed,user_kernels_image) */
extern const unsigned char user_kernels_image[], user_kernels_image_end[];

/* The largest |a - b|, as a double (0-d float64 read back). */
static double max_abs_diff(const ga_array *a, const ga_array *b)
{
    double m = -1;
    ga_scope_begin();
    ga_array *d = ga_astype(ga_max(ga_absolute(ga_subtract(a, b)), 0, NULL, false), GA_FLOAT64);
    if (d) ga_to_host(d, &m, sizeof m);
    ga_scope_end();
    return m;
}

int main(void)
{
    if (ga_init() != GA_OK) {
        fprintf(stderr, "user_kernels: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    ga_module *m = ga_module_load_data(user_kernels_image, (size_t)(user_kernels_image_end - user_kernels_image));
    ga_elementwise_kernel *softplus = m ? ga_module_elementwise(m, "softplus") : NULL;
    ga_elementwise_kernel *normalize = m ? ga_module_elementwise(m, "normalize_clip") : NULL;
    ga_reduction_kernel *l2norm = m ? ga_module_reduction(m, "l2norm") : NULL;
    ga_reduction_kernel *sumsq_diff = m ? ga_module_reduction(m, "sumsq_diff") : NULL;
    ga_raw_kernel *sumsq = m ? ga_module_raw_kernel(m, "sumsq_partials") : NULL;
    if (!softplus || !normalize || !l2norm || !sumsq_diff || !sumsq) {
        fprintf(stderr, "user_kernels: %s\n", ga_last_error_message());
        return 1;
    }
    int ok = 1;
    const int64_t n = 1 << 22;
    ga_generator *g = ga_random_default_rng((const uint32_t[]){21}, 1);
    ga_scope_begin();
    ga_array *x = ga_random_standard_normal(g, 1, &n, GA_FLOAT32);

    /* 1. softplus in one kernel against log1p(exp(x)) in two */
    ga_array *y = ga_elementwise(softplus, 1, (ga_operand[]){ga_operand_array(x)});
    double e1 = max_abs_diff(y, ga_log1p(ga_exp(x)));
    printf("softplus of %lld float32 values: max |fused - log1p(exp(x))| = %.3g\n", (long long)n, e1);
    ok &= e1 >= 0 && e1 < 4e-6; /* a few units in the last place of values up to about 5 */

    /* 2. normalise and clip, mean and 1/std as weak scalars (converted to float32) */
    ga_array *z = ga_elementwise(normalize, 3, (ga_operand[]){ga_operand_array(x), ga_operand_scalar(ga_float(0.25)),
                                                             ga_operand_scalar(ga_float(2.0))});
    ga_array *ref = ga_clip_scalar(ga_multiply_scalar(ga_subtract_scalar(x, ga_float(0.25)), ga_float(2.0)),
                                   ga_float(-3), ga_float(3));
    double e2 = max_abs_diff(z, ref);
    printf("normalize_clip: max |fused - clip((x - 0.25) * 2, -3, 3)| = %.3g\n", e2);
    ok &= e2 >= 0 && e2 < 1e-6;

    /* 3. the L2 norm of each row of x as (1024, n / 1024), by the reduction kernel */
    const int64_t rows2[2] = {1024, n / 1024};
    ga_array *x2 = ga_reshape(x, 2, rows2), *norms = NULL;
    ga_reduction_kernel_call(l2norm, 1, (ga_operand[]){ga_operand_array(x2)}, 1, (const int[]){1}, false, &norms);
    double e3 = max_abs_diff(norms, ga_linalg_vector_norm(x2, 2, 1, (const int[]){1}, false));
    printf("l2norm of 1024 rows: max |kernel - ga_linalg_vector_norm| = %.3g\n", e3);
    ok &= e3 >= 0 && e3 < 1e-4;

    /* 4. sum((x - y)**2) in one pass against subtract, square and sum */
    ga_array *y2 = ga_random_standard_normal(g, 1, &n, GA_FLOAT32), *ssd = NULL;
    ga_reduction_kernel_call(sumsq_diff, 2, (ga_operand[]){ga_operand_array(x), ga_operand_array(y2)}, 0, NULL, false,
                             &ssd);
    double fused = -1, three = -1;
    if (ssd) ga_to_host(ssd, &fused, sizeof fused);
    ga_array *s3 = ga_astype(ga_sum(ga_square(ga_subtract(x, y2)), 0, NULL, false), GA_FLOAT64);
    if (s3) ga_to_host(s3, &three, sizeof three);
    printf("sum((x - y)**2): fused %.9g, three calls %.9g\n", fused, three);
    ok &= fused >= 0 && fabs(fused - three) <= 1e-4 * three; /* the three calls sum float32 squares in float32 */

    /* 5. the L2 norm of every other element (a strided view) by the raw kernel */
    ga_array *every_other = ga_as_strided(x, 1, (const int64_t[]){n / 2}, (const int64_t[]){8}, 0);
    const int64_t blocks = 264;
    ga_array *partials = ga_empty(1, &blocks, GA_FLOAT64);
    ga_launch_arg args[2] = {ga_arg_view(every_other), ga_arg_pointer(partials)};
    double sum = -1, norm_ref = -1;
    if (ga_launch(sumsq, (const unsigned[]){(unsigned)blocks, 1, 1}, (const unsigned[]){256, 1, 1}, 0, 2, args) == GA_OK)
        ga_to_host(ga_sum(partials, 0, NULL, false), &sum, sizeof sum);
    ga_array *nr = ga_astype(ga_linalg_vector_norm(every_other, 2, 0, NULL, false), GA_FLOAT64);
    if (nr) ga_to_host(nr, &norm_ref, sizeof norm_ref);
    printf("L2 norm of x[::2]: raw kernel %.9g, ga_linalg_vector_norm %.9g\n", sqrt(sum), norm_ref);
    ok &= sum >= 0 && fabs(sqrt(sum) - norm_ref) <= 1e-5 * norm_ref;
    ga_scope_end();

    if (ga_last_error() != GA_OK) {
        fprintf(stderr, "user_kernels: %s\n", ga_last_error_message());
        ok = 0;
    }
    ga_generator_release(g);
    ga_module_release(m);
    ga_shutdown();
    printf("%s\n", ok ? "all five match gpuarr's built-ins" : "MISMATCH");
    return ok ? 0 : 1;
}
