/* window.c: common measure window and drift (see window.h). */
#include "workloads/window.h"

#include <math.h>
#include "util/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <stdbool.h>
#include <stdlib.h>

int window_common(const struct window_guest *g, size_t n, double interval, double duration,
                  struct window_result *out)
{
    out->tps_sum = out->window_s = out->skew_s = 0;
    out->intervals = 0;
    if (n == 0)
        return -1;
    double first = g[0].start, last = g[0].start;
    for (size_t i = 1; i < n; i++) {
        if (g[i].start < first)
            first = g[i].start;
        if (g[i].start > last)
            last = g[i].start;
    }
    double wstart = last, wend = first + duration;
    out->skew_s = last - first;
    out->window_s = wend > wstart ? wend - wstart : 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        size_t used = 0;
        for (size_t k = 0; k < g[i].n; k++) {
            double end = g[i].start + g[i].iv[k].t;
            double begin = end - interval;
            /* a hundredth of a second of slack for clock rounding */
            if (begin >= wstart - 0.01 && end <= wend + 0.01) {
                sum += g[i].iv[k].tps;
                used++;
            }
        }
        if (!used) {
            rc = -1;
            continue;
        }
        out->tps_sum += sum / (double)used;
        out->intervals += used;
    }
    return rc;
}

double window_drift(const struct sysbench_interval *iv, size_t n)
{
    double se;
    return window_drift_se(iv, n, &se);
}

double window_drift_se(const struct sysbench_interval *iv, size_t n, double *se)
{
    *se = 0;
    if (n < 3)
        return 0;
    double *x = xcalloc(n, sizeof(double)), *y = xcalloc(n, sizeof(double));
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = iv[i].t;
        y[i] = iv[i].tps;
        mean += iv[i].tps;
    }
    mean /= (double)n;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    double drift = mean > 0 ? c1 * (x[n - 1] - x[0]) / mean : 0;
    *se = mean > 0 ? sqrt(cov11) * (x[n - 1] - x[0]) / mean : 0;
    free(x);
    free(y);
    return drift;
}

size_t window_batch_len(double interval)
{
    size_t per = interval > 0 ? (size_t)(WINDOW_BATCH_S / interval + 0.5) : 1;
    return per ? per : 1;
}

/* the means of whole batches of per intervals into b (n / per of them) */
static size_t batches(const struct sysbench_interval *iv, size_t n, size_t per, double *b, double *t)
{
    size_t nb = per ? n / per : 0;
    for (size_t k = 0; k < nb; k++) {
        double sum = 0, ts = 0;
        for (size_t i = 0; i < per; i++) {
            sum += iv[k * per + i].tps;
            ts += iv[k * per + i].t;
        }
        b[k] = sum / (double)per;
        if (t)
            t[k] = ts / (double)per;
    }
    return nb;
}

/* mean and sample sd of b[0..nb) */
static void mean_sd(const double *b, size_t nb, double *mean, double *sd)
{
    double m = 0, v = 0;
    for (size_t k = 0; k < nb; k++)
        m += b[k];
    m /= (double)nb;
    for (size_t k = 0; k < nb; k++)
        v += (b[k] - m) * (b[k] - m);
    *mean = m;
    *sd = nb > 1 ? sqrt(v / (double)(nb - 1)) : 0;
}

double window_ci_half(const struct sysbench_interval *iv, size_t n, size_t per, double *mean)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += iv[i].tps;
    *mean = n ? sum / (double)n : NAN;
    double *b = xcalloc(n / (per ? per : 1) + 1, sizeof(double));
    size_t nb = batches(iv, n, per, b, NULL);
    double half = NAN;
    if (nb >= 3) {
        double m, sd;
        mean_sd(b, nb, &m, &sd);
        half = gsl_cdf_tdist_Pinv(0.975, (double)(nb - 1)) * sd / sqrt((double)nb);
    }
    free(b);
    return half;
}

double window_drift_ci(const struct sysbench_interval *iv, size_t n, size_t per, double *half)
{
    double drift = window_drift(iv, n);
    *half = NAN;
    size_t cap = n / (per ? per : 1) + 1;
    double *b = xcalloc(cap, sizeof(double)), *t = xcalloc(cap, sizeof(double));
    size_t nb = batches(iv, n, per, b, t);
    if (nb >= 4 && n >= 3) {
        double m, sd, c0, c1, cov00, cov01, cov11, sumsq;
        mean_sd(b, nb, &m, &sd);
        gsl_fit_linear(t, 1, b, 1, nb, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
        double span = iv[n - 1].t - iv[0].t;
        if (m > 0)
            *half = gsl_cdf_tdist_Pinv(0.975, (double)(nb - 2)) * sqrt(cov11) * span / m;
    }
    free(b);
    free(t);
    return drift;
}

double window_duration_for(const struct sysbench_interval *const iv[], const size_t n[], size_t targets,
                           size_t per, double target, double lo, double hi)
{
    double var = 0, sum = 0;
    for (size_t i = 0; i < targets; i++) {
        double *b = xcalloc(n[i] / (per ? per : 1) + 1, sizeof(double));
        size_t nb = batches(iv[i], n[i], per, b, NULL);
        double m = 0, sd = 0;
        if (nb >= 3)
            mean_sd(b, nb, &m, &sd);
        free(b);
        if (nb < 3)
            return hi;
        var += sd * sd;
        sum += m;
    }
    if (!(sum > 0) || !(target > 0))
        return hi;
    /* the fewest batches k with t(0.975, k-1) sqrt(var / k) <= target x sum */
    double k = 3;
    while (k * WINDOW_BATCH_S < hi &&
           gsl_cdf_tdist_Pinv(0.975, k - 1) * sqrt(var / k) > target * sum)
        k++;
    double s = k * WINDOW_BATCH_S;
    return s < lo ? lo : s > hi ? hi : s;
}
