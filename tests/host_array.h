/* tests/host_array.h - long-double host arrays and their uploads, shared by
   the test programs that check against a host reference of their own
   (test_linalg, test_fft).

   Include after gpuarr.h (with GPUARR_IMPLEMENTATION), harness.h (rnd,
   upload_transposed) and ref.h (round_to, store, isz).

   host          C order, each element a long double pair (re, im)
   host_new      zeros of a shape; host_free
   host_random   values exact in a dtype: multiples of 1/8 in [-2, 2]
                 (integers in [-8, 8], unsigned [0, 8], bool 0 or 1)
   host_bytes    the elements stored as a dtype (C order)
   upload        on the device in one of the layouts L_CONTIGUOUS,
                 L_TRANSPOSED, L_REVERSED (every stride negative), L_STRIDED
                 (every other element of a last dim twice as long) */
#ifndef GPUARR_TESTS_HOST_ARRAY_H
#define GPUARR_TESTS_HOST_ARRAY_H

#include <stdlib.h>
#include <string.h>

/* A host array: C order, elements as long double pairs. */
typedef struct host {
    int ndim;
    int64_t shape[8], size;
    long double *re, *im;
} host;

static host host_new(int ndim, const int64_t *shape)
{
    host h = {ndim, {0}, 1, NULL, NULL};
    for (int d = 0; d < ndim; d++) h.shape[d] = shape[d], h.size *= shape[d];
    h.re = calloc((size_t)(h.size ? h.size : 1), sizeof(long double));
    h.im = calloc((size_t)(h.size ? h.size : 1), sizeof(long double));
    return h;
}

static void host_free(host *h)
{
    free(h->re);
    free(h->im);
    h->re = h->im = NULL;
}

/* Random values exact in dtype t: multiples of 1/8 in [-2, 2] (integers
   in [-8, 8], bool 0 or 1; unsigned: [0, 8]). */
static host host_random(ga_dtype t, int ndim, const int64_t *shape)
{
    host h = host_new(ndim, shape);
    for (int64_t i = 0; i < h.size; i++) {
        if (t == GA_BOOL) h.re[i] = (long double)(rnd() % 2);
        else if (is_integer(t)) h.re[i] = (long double)(is_signed(t) ? (int)(rnd() % 17) - 8 : (int)(rnd() % 9));
        else h.re[i] = round_to(t, (long double)((int)(rnd() % 33) - 16) / 8);
        h.im[i] = is_complex(t) ? round_to(t, (long double)((int)(rnd() % 33) - 16) / 8) : 0;
    }
    return h;
}

static void *host_bytes(const host *h, ga_dtype t)
{
    unsigned char *m = malloc((size_t)(h->size ? h->size : 1) * isz(t));
    for (int64_t i = 0; i < h->size; i++) store(t, h->re[i], h->im[i], m + (size_t)i * isz(t));
    return m;
}

enum { L_CONTIGUOUS, L_TRANSPOSED, L_REVERSED, L_STRIDED, NUM_LAYOUTS };
static const char *const layout_names[] = {"contiguous", "transposed", "reversed", "strided"};

/* h on the device as dtype t in `layout`, holding h's values. */
static ga_array *upload(const host *h, ga_dtype t, int layout)
{
    void *m = host_bytes(h, t);
    ga_array *r = NULL;
    const size_t s = isz(t);
    if (layout == L_TRANSPOSED && h->ndim >= 2) {
        r = upload_transposed(m, h->ndim, h->shape, t);
    } else if (layout == L_REVERSED && h->ndim >= 1) {
        /* stored backwards, read through a view with every stride negative */
        unsigned char *rev = malloc((size_t)(h->size ? h->size : 1) * s);
        for (int64_t i = 0; i < h->size; i++) memcpy(rev + (size_t)(h->size - 1 - i) * s, (unsigned char *)m + (size_t)i * s, s);
        ga_array *base = ga_from_host(rev, h->ndim, h->shape, t);
        free(rev);
        r = base ? ga_flip(base, 0, NULL) : NULL;
        ga_release(base);
    } else if (layout == L_STRIDED && h->ndim >= 1) {
        /* every other element of a last dim twice as long */
        int64_t shape2[8];
        memcpy(shape2, h->shape, sizeof shape2);
        shape2[h->ndim - 1] *= 2;
        unsigned char *wide = calloc((size_t)(h->size ? 2 * h->size : 1), s);
        for (int64_t i = 0; i < h->size; i++) memcpy(wide + (size_t)(2 * i) * s, (unsigned char *)m + (size_t)i * s, s);
        ga_array *base = ga_from_host(wide, h->ndim, shape2, t);
        free(wide);
        r = base ? ga_index(base, "..., ::2") : NULL;
        ga_release(base);
    } else {
        r = ga_from_host(m, h->ndim, h->shape, t);
    }
    free(m);
    return r;
}

#endif /* GPUARR_TESTS_HOST_ARRAY_H */
