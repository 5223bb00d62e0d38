/* fft_convolution.c - filter a noisy signal by FFT convolution on the GPU,
   find its tone in the spectrum, and check the filtered signal against a
   direct convolution on the host. The same in NumPy:

       n, k = len(x), len(h)
       size = 1 << (n + k - 2).bit_length()        # a power of two >= n + k - 1
       y = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(h, size), size)[:n + k - 1]
       peak = np.fft.rfftfreq(n, 1 / rate)[np.argmax(np.abs(np.fft.rfft(x)))]

   x is a 440 Hz tone sampled at 8 kHz under white noise; h is a 255-tap
   low-pass filter (a Hann-windowed sinc, cut-off 1 kHz).

   Build and run:  make && ./build/examples/fft_convolution [samples] */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const double rate = 8000, tone = 440, cutoff = 1000;
enum { TAPS = 255, CHECKS = 2000 };

/* The low-pass filter's taps: a sinc of the cut-off under a Hann window,
   summing to 1. */
static void low_pass(double *h)
{
    const double pi = 3.14159265358979323846, fc = cutoff / rate;
    double sum = 0;
    for (int i = 0; i < TAPS; i++) {
        const double t = i - (TAPS - 1) / 2.0;
        const double sinc = t == 0 ? 2 * fc : sin(2 * pi * fc * t) / (pi * t);
        h[i] = sinc * (0.5 - 0.5 * cos(2 * pi * i / (TAPS - 1)));
        sum += h[i];
    }
    for (int i = 0; i < TAPS; i++) h[i] /= sum;
}

/* The tone under uniform noise in [-1, 1) (a fixed LCG: the same run each time). */
static void signal(double *x, int64_t n)
{
    uint64_t s = 2026;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = sin(2 * 3.14159265358979323846 * tone * (double)i / rate) + ((double)(s >> 11) / 4503599627370496.0 - 1);
    }
}

/* y = x * h by FFT (size points, a power of two >= n + TAPS - 1), the first
   n + TAPS - 1 points copied to the host; and the frequency of the
   largest bin of |rfft(x)|. */
static ga_status filter_on_gpu(const double *x, const double *h, int64_t n, double *y, double *peak_hz)
{
    const int64_t full = n + TAPS - 1;
    int64_t size = 1;
    while (size < full) size *= 2;
    ga_scope_begin();
    ga_array *dx = ga_from_host(x, 1, &n, GA_FLOAT64), *dh = ga_from_host(h, 1, (const int64_t[]){TAPS}, GA_FLOAT64);
    ga_array *spectrum = ga_multiply(ga_fft_rfft(dx, size, -1, GA_FFT_NORM_BACKWARD),
                                     ga_fft_rfft(dh, size, -1, GA_FFT_NORM_BACKWARD));
    ga_array *dy = ga_fft_irfft(spectrum, size, -1, GA_FFT_NORM_BACKWARD);
    char first[32];
    snprintf(first, sizeof first, ":%lld", (long long)full);
    ga_status st = ga_to_host(ga_index(dy, first), y, (size_t)full * sizeof *y);
    /* the spectrum of x alone: the frequency of its largest magnitude */
    ga_array *bin = ga_argmax(ga_absolute(ga_fft_rfft(dx, GA_NONE, -1, GA_FFT_NORM_BACKWARD)), GA_AXIS_NONE, false);
    ga_array *freqs = ga_fft_rfftfreq(n, 1 / rate, GA_FLOAT64);
    int64_t k = 0;
    if (st == GA_OK) st = ga_to_host(bin, &k, sizeof k);
    char at[32];
    snprintf(at, sizeof at, "%lld", (long long)k);
    if (st == GA_OK) st = ga_to_host(ga_index(freqs, at), peak_hz, sizeof *peak_hz);
    ga_scope_end();
    return st;
}

/* The direct convolution at output point i. */
static double direct(const double *x, const double *h, int64_t n, int64_t i)
{
    double s = 0;
    for (int64_t j = 0; j < TAPS; j++)
        if (i - j >= 0 && i - j < n) s += h[j] * x[i - j];
    return s;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 20;
    if (n < 1) {
        fprintf(stderr, "fft_convolution: at least one sample, please\n");
        return 2;
    }
    if (ga_init() != GA_OK) {
        fprintf(stderr, "fft_convolution: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    double h[TAPS], peak = 0;
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)(n + TAPS - 1) * sizeof *y);
    int status = 0;
    if (!x || !y) {
        fprintf(stderr, "fft_convolution: out of host memory\n");
        status = 1;
    } else {
        low_pass(h);
        signal(x, n);
        if (filter_on_gpu(x, h, n, y, &peak) != GA_OK) {
            fprintf(stderr, "fft_convolution: %s\n", ga_last_error_message());
            status = 1;
        }
    }
    if (status == 0) {
        /* the FFT's result against the direct sum at CHECKS points spread over the output */
        double worst = 0, largest = 0;
        const int64_t full = n + TAPS - 1;
        for (int c = 0; c < CHECKS; c++) {
            const int64_t i = (int64_t)((double)c / (CHECKS - 1) * (double)(full - 1));
            const double want = direct(x, h, n, i);
            worst = fmax(worst, fabs(y[i] - want));
            largest = fmax(largest, fabs(want));
        }
        printf("%lld samples at %.0f Hz: the largest bin of the spectrum is at %.2f Hz (the tone: %.0f Hz)\n",
               (long long)n, rate, peak, tone);
        printf("low-pass filtered by FFT convolution (%d taps): largest difference from the direct sum %.3g "
               "(of values up to %.3g) at %d points\n", TAPS, worst, largest, CHECKS);
        if (!(worst <= 1e-9 * fmax(1, largest)) || fabs(peak - tone) > rate / (double)n) {
            fprintf(stderr, "fft_convolution: the results disagree\n");
            status = 1;
        }
    }
    free(x), free(y);
    ga_shutdown();
    return status;
}
