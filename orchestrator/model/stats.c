/* stats.c: summary statistics, Welch's t-test and slopes (see stats.h).
 * GSL provides means, deviations, the t distribution and the fit. */
#include "model/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

void stats_summarize(const double *v, size_t n, struct stats_summary *out)
{
    memset(out, 0, sizeof(*out));
    out->n = n;
    if (n == 0)
        return;
    out->mean = gsl_stats_mean(v, 1, n);
    out->ci95_low = out->ci95_high = out->mean;
    if (n < 2)
        return;
    out->sd = gsl_stats_sd_m(v, 1, n, out->mean);
    out->ci95_half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * out->sd / sqrt((double)n);
    out->ci95_low = out->mean - out->ci95_half;
    out->ci95_high = out->mean + out->ci95_half;
    if (out->sd == 0)
        out->cv = 0;
    else
        out->cv = out->mean != 0 ? out->sd / out->mean : NAN;
}

int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
                     struct stats_welch *out)
{
    memset(out, 0, sizeof(*out));
    if (na < 2 || nb < 2)
        return -1;
    double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
    double sa = gsl_stats_variance_m(a, 1, na, ma) / (double)na;
    double sb = gsl_stats_variance_m(b, 1, nb, mb) / (double)nb;
    double se2 = sa + sb;
    if (se2 == 0) {
        /* no spread on either side: the means are equal or they are not */
        out->df = (double)(na + nb - 2);
        out->t = ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
        out->p = ma == mb ? 1 : 0;
        out->significant = ma != mb;
        return 0;
    }
    out->t = (ma - mb) / sqrt(se2);
    out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
    out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    if (out->p > 1)
        out->p = 1;
    out->significant = out->p < 0.05;
    return 0;
}

double stats_slope(const double *x, const double *y, size_t n)
{
    if (n < 2 || gsl_stats_variance(x, 1, n) == 0)
        return 0;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    return c1;
}
