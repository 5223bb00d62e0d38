/* option_price.c - price a European call option by Monte Carlo on the GPU
   and check it against the Black-Scholes formula. The terminal price of
   the stock under geometric Brownian motion is
       S_T = S_0 exp((r - sigma^2 / 2) T + sigma sqrt(T) Z),  Z ~ N(0, 1),
   and the option's price is exp(-r T) E[max(S_T - K, 0)]. The same in
   NumPy:

       rng = np.random.default_rng(seed)
       z = rng.standard_normal(paths)
       st = s0 * np.exp((r - sigma**2 / 2) * t + sigma * np.sqrt(t) * z)
       payoff = np.exp(-r * t) * np.maximum(st - k, 0)
       price, stderr = payoff.mean(), payoff.std() / np.sqrt(paths)

   The paths are drawn in batches (each its own draw of the same
   generator, so the whole run is reproducible from the seed), and the run
   is timed with device events.

   Build and run:  make && ./build/examples/option_price [paths] [seed] */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The market and the option. */
static const double s0 = 100, strike = 105, rate = 0.03, sigma = 0.25, years = 1.5;

/* Black-Scholes's price of the call. */
static double black_scholes(void)
{
    const double sd = sigma * sqrt(years);
    const double d1 = (log(s0 / strike) + (rate + sigma * sigma / 2) * years) / sd, d2 = d1 - sd;
    const double n1 = 0.5 * erfc(-d1 / sqrt(2.0)), n2 = 0.5 * erfc(-d2 / sqrt(2.0));
    return s0 * n1 - strike * exp(-rate * years) * n2;
}

/* The discounted payoffs of `n` paths and their sum and sum of squares,
   added to sums[0] and sums[1]. */
static ga_status batch(ga_generator *g, int64_t n, double sums[2])
{
    ga_scope_begin();
    ga_array *z = ga_random_standard_normal(g, 1, &n, GA_FLOAT64);
    ga_array *drift = ga_add_scalar(ga_multiply_scalar(z, ga_float(sigma * sqrt(years))),
                                    ga_float((rate - sigma * sigma / 2) * years));
    ga_array *st = ga_multiply_scalar(ga_exp(drift), ga_float(s0));
    ga_array *payoff = ga_multiply_scalar(ga_maximum_scalar(ga_subtract_scalar(st, ga_float(strike)), ga_float(0)),
                                          ga_float(exp(-rate * years)));
    ga_array *sum = ga_sum(payoff, GA_ALL_AXES, false);
    ga_array *sum2 = ga_sum(ga_square(payoff), GA_ALL_AXES, false);
    double s = 0, s2 = 0;
    ga_status status = ga_to_host(sum, &s, sizeof s);
    if (status == GA_OK) status = ga_to_host(sum2, &s2, sizeof s2);
    sums[0] += s, sums[1] += s2;
    ga_scope_end();
    return status;
}

int main(int argc, char **argv)
{
    const int64_t paths = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 26;
    const uint32_t seed = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 2026;
    if (paths < 2) {
        fprintf(stderr, "option_price: at least 2 paths, please\n");
        return 2;
    }
    if (ga_init() != GA_OK) {
        fprintf(stderr, "option_price: cannot use the GPU: %s\n", ga_last_error_message());
        return 1;
    }
    ga_generator *g = ga_random_default_rng(&seed, 1);
    ga_event *start = ga_event_create(true), *end = ga_event_create(true);
    double sums[2] = {0, 0};
    const int64_t per_batch = (int64_t)1 << 24;
    ga_status st = g && start && end ? ga_event_record(start, NULL) : GA_ERROR_HOST_OUT_OF_MEMORY;
    for (int64_t done = 0; st == GA_OK && done < paths; done += per_batch)
        st = batch(g, paths - done < per_batch ? paths - done : per_batch, sums);
    float ms = 0;
    if (st == GA_OK) st = ga_event_record(end, NULL);
    if (st == GA_OK) st = ga_event_synchronize(end);
    if (st == GA_OK) st = ga_event_elapsed_ms(start, end, &ms);
    int status = 0;
    if (st != GA_OK) {
        fprintf(stderr, "option_price: %s\n", ga_last_error_message());
        status = 1;
    } else {
        const double mean = sums[0] / (double)paths;
        const double var = (sums[1] - sums[0] * mean) / (double)(paths - 1), se = sqrt(var / (double)paths);
        const double exact = black_scholes();
        printf("European call: S0 %.0f, K %.0f, r %.2f, sigma %.2f, T %.1f years\n", s0, strike, rate, sigma, years);
        printf("  Monte Carlo  %.5f +- %.5f (%lld paths, %.1f ms, %.0f Mpaths/s)\n", mean, se, (long long)paths,
               ms, (double)paths / (ms * 1e3));
        printf("  Black-Scholes %.5f (%.2f standard errors away)\n", exact, fabs(mean - exact) / se);
    }
    ga_event_destroy(start), ga_event_destroy(end);
    ga_generator_release(g);
    ga_shutdown();
    return status;
}
