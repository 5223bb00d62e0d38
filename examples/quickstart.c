/* quickstart.c - the basics of gpuarr, after CuPy's "Basics of CuPy" page.
   Build and run:  make && ./build/examples/quickstart */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <stdio.h>

/* Prints an array as NumPy's print(a) does (a big one summarised with
   "...", only its printed edges read from the GPU). */
static void show(const char *name, const ga_array *a)
{
    printf("%s (%s):\n", name, ga_dtype_name(ga_dtype_of(a)));
    if (ga_print(a) != GA_OK) printf("%s\n", ga_last_error_message());
}

static void show_pool(const char *when)
{
    ga_memory_stats s;
    ga_memory_get_stats(0, &s);
    printf("pool %s: used %zu bytes, held %zu, free blocks %zu, peak %zu\n", when,
           s.used_bytes, s.held_bytes, s.free_blocks, s.peak_used_bytes);
}

/* 1 (and the message) if a call failed since the last ga_clear_error. */
static int failed(void)
{
    if (ga_last_error() != GA_OK) fprintf(stderr, "quickstart: %s\n", ga_last_error_message());
    return ga_last_error() != GA_OK;
}

int main(void)
{
    if (ga_init() != GA_OK) {
        fprintf(stderr, "quickstart: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    ga_device_properties gpu;
    ga_device_get_properties(0, &gpu);
    printf("gpuarr %s on %s\n\n", GPUARR_VERSION_STRING, gpu.name);

    /* Creation: numpy.arange, linspace, full, and asarray of host data. */
    ga_array *a = ga_arange(0, 6, 1, GA_FLOAT32);
    ga_array *b = ga_linspace(0, 1, 5, true, GA_FLOAT64);
    ga_array *c = ga_full(GA_SHAPE(2, 3), ga_int(7), GA_INT32);
    const float host[2][3] = {{1, 2, 3}, {4, 5, 6}};
    ga_array *d = ga_from_host(host, GA_SHAPE(2, 3), GA_FLOAT32);
    show("arange(0, 6)", a);
    show("linspace(0, 1, 5)", b);
    show("full((2, 3), 7)", c);
    show("from host", d);

    /* Attributes: strides are in bytes, as in NumPy. */
    printf("d: ndim %d, shape (%lld, %lld), dtype %s, strides (%lld, %lld), %zu bytes\n\n",
           ga_ndim(d), (long long)ga_shape(d)[0], (long long)ga_shape(d)[1],
           ga_dtype_name(ga_dtype_of(d)), (long long)ga_strides(d)[0],
           (long long)ga_strides(d)[1], ga_nbytes(d));

    /* astype: float to int truncates, as NumPy does. */
    ga_array *f = ga_linspace(-1.5, 1.5, 7, true, GA_FLOAT64);
    ga_array *g = ga_astype(f, GA_INT8);
    show("linspace(-1.5, 1.5, 7)", f);
    show(".astype(int8)", g);

    /* copyto broadcasts: a row of 4 int32 goes into each row of a 3x4 float64. */
    ga_array *m = ga_zeros(GA_SHAPE(3, 4), GA_FLOAT64);
    ga_array *row = ga_arange_int(10, 14, 1, GA_INT32);
    ga_copyto(m, row, GA_CASTING_SAME_KIND); /* NumPy's default casting */
    show("copyto(zeros((3, 4)), arange(10, 14))", m);

    /* Ufuncs broadcast and promote as NumPy: float32 (2, 3) * float64 (3,)
       is float64; a C scalar is a weak Python scalar (d * 2 stays float32). */
    ga_array *w = ga_from_host((const double[]){0.5, 1, 2}, GA_SHAPE(3), GA_FLOAT64);
    ga_array *dw = ga_multiply(d, w);
    ga_array *d2 = ga_multiply_scalar(d, ga_int(2));
    show("d * [0.5, 1, 2]", dw);
    show("d * 2", d2);
    ga_scope_begin(); /* releases the exp(d2) temporary at its end (scopes: below) */
    ga_array *e = ga_keep(ga_greater_scalar(ga_exp(d2), ga_float(100))); /* bool */
    ga_scope_end();
    show("exp(d * 2) > 100", e);
    ga_sqrt_out(d2, d2); /* in place, as np.sqrt(d2, out=d2) */
    show("sqrt(d2, out=d2)", d2);

    /* Scopes: arrays made inside are released at the end, except kept ones. */
    show_pool("before the scope");
    ga_scope_begin();
    ga_array *half = ga_keep(ga_astype(ga_ones(GA_SHAPE(1000, 1000), GA_FLOAT64), GA_FLOAT16));
    ga_scope_end(); /* the float64 temporary is back in the pool; `half` is ours */
    show_pool("after the scope");
    show("ones((1000, 1000)).astype(float16)", half); /* summarised: 36 values read */

    /* Errors: a failing call returns NULL (or a status) and records why;
       a NULL argument keeps the first error, so chains report their cause. */
    int status = failed(); /* 0 unless something above failed */
    ga_array *bad = ga_astype(ga_zeros(GA_SHAPE(2, -3), GA_FLOAT32), GA_INT8);
    printf("\nbad is %s: %s\n", bad ? "an array" : "NULL", ga_last_error_message());
    ga_status st = ga_copyto(m, b, GA_CASTING_SAME_KIND);
    printf("copyto((3, 4), (5,)) -> %s: %s\n\n", ga_status_string(st), ga_last_error_message());
    ga_clear_error();

    /* Streams: work between push and pop is queued on `s`, asynchronously. */
    ga_stream *s = ga_stream_create(true);
    ga_stream_push(s);
    ga_array *big = ga_arange_int(0, 1 << 20, 1, GA_INT32);
    int *last = ga_pinned_alloc(sizeof(int) << 20); /* page-locked host memory */
    st = ga_to_host_async(big, last, sizeof(int) << 20); /* returns at once */
    ga_stream_pop();
    if (st == GA_OK && ga_stream_synchronize(s) == GA_OK) /* now `last` is filled */
        printf("on a stream: big[%d] = %d\n", (1 << 20) - 1, last[(1 << 20) - 1]);
    ga_pinned_free(last);

    /* Every array is released once; then the pool's cache can be emptied. */
    ga_array *all[] = {a, b, c, d, f, g, m, row, w, dw, d2, e, half, big};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ga_release(all[i]);
    ga_stream_destroy(s);
    show_pool("at the end");
    ga_memory_free_all_blocks(0);
    show_pool("after free_all_blocks");

    status |= failed();
    ga_shutdown();
    return status;
}
