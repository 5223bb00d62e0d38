/* nccl_sum.c - one process driving every GPU of the machine: a data-parallel
   sum of a large array. Each GPU sums its part (in float64), NCCL adds the
   partial sums across the GPUs (an all_reduce, in place), and every GPU's
   total is checked against the host's. The same with CuPy and NCCL:

       comms = cupy.cuda.nccl.NcclCommunicator.initAll(n)
       for i in range(n):
           with cupy.cuda.Device(i):
               s[i] = cupy.asarray(x[parts[i]]).astype(cupy.float64).sum()
       nccl.groupStart()
       for i in range(n):
           comms[i].allReduce(s[i].data.ptr, s[i].data.ptr, 1, nccl.NCCL_FLOAT64, nccl.NCCL_SUM, stream)
       nccl.groupEnd()

   The elements are multiples of 1/8 below 8, so every partial sum and the
   total are exact in float64: the GPUs must agree with the host bit for bit.
   NVLink multicast stays off (NCCL_NVLS_ENABLE=0 unless set otherwise).

   Build and run:  make && ./build/examples/nccl_sum [elements] */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* x[i] = k / 8 for a fixed LCG's k in [0, 64): the same run each time. */
static double fill(float *x, int64_t n)
{
    uint64_t s = 2026;
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)(s >> 58) / 8;
        sum += x[i];
    }
    return sum;
}

/* Device i's part of x (len elements from lo), summed there in float64:
   a new 0-d array on device i. */
static ga_array *part_sum(int device, const float *x, int64_t lo, int64_t len)
{
    ga_device_set(device);
    ga_array *part = ga_from_host(x + lo, 1, &len, GA_FLOAT32), *wide = ga_astype(part, GA_FLOAT64);
    ga_array *sum = ga_sum(wide, 0, NULL, false);
    ga_release(part), ga_release(wide);
    return sum;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 27;
    if (n < 1) {
        fprintf(stderr, "nccl_sum: at least 1 element, please\n");
        return 2;
    }
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* before any NCCL call */
    if (ga_init() != GA_OK) {
        fprintf(stderr, "nccl_sum: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    int ndev = ga_device_count();
    if (ndev > GA_MAX_DEVICES) ndev = GA_MAX_DEVICES;
    float *x = malloc((size_t)n * sizeof *x);
    if (!x) {
        fprintf(stderr, "nccl_sum: out of host memory\n");
        return 1;
    }
    const double want = fill(x, n);
    ga_nccl_comm *comms[GA_MAX_DEVICES];
    ga_array *sums[GA_MAX_DEVICES] = {NULL};
    if (ga_nccl_comm_init_all(ndev, NULL, comms) != GA_OK) {
        fprintf(stderr, "nccl_sum: %s\n", ga_last_error_message());
        free(x);
        return 1;
    }
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    for (int i = 0; i < ndev; i++) { /* device i: elements [n i / ndev, n (i + 1) / ndev) */
        const int64_t lo = n * i / ndev, hi = n * (i + 1) / ndev;
        sums[i] = part_sum(i, x, lo, hi - lo);
    }
    ga_nccl_group_start(); /* one thread, every device: their calls in one group */
    for (int i = 0; i < ndev; i++) ga_nccl_all_reduce(comms[i], sums[i], sums[i], GA_NCCL_SUM);
    ga_status st = ga_nccl_group_end();
    for (int i = 0; st == GA_OK && i < ndev; i++) st = ga_nccl_comm_wait(comms[i], 60);
    ga_device_set(0);
    timespec_get(&t1, TIME_UTC);
    const double ms = 1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec);
    int agree = 0;
    for (int i = 0; st == GA_OK && i < ndev; i++) {
        double got = 0;
        st = ga_to_host(sums[i], &got, sizeof got);
        agree += st == GA_OK && got == want;
        if (st == GA_OK && got != want) printf("  GPU %d: %.17g, the host %.17g\n", i, got, want);
    }
    if (st == GA_OK) {
        printf("sum of %lld float32 over %d GPU%s: %.17g (%.1f ms, the uploads included)\n", (long long)n, ndev,
               ndev == 1 ? "" : "s", want, ms);
        printf("%d of %d GPUs match the host\n", agree, ndev);
    } else {
        fprintf(stderr, "nccl_sum: %s\n", ga_last_error_message());
    }
    for (int i = 0; i < ndev; i++) {
        ga_release(sums[i]);
        ga_nccl_comm_destroy(comms[i]);
    }
    free(x);
    return st == GA_OK && agree == ndev ? 0 : 1;
}
