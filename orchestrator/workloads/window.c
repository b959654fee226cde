/* window.c: common measure window and drift (see window.h). */
#include "workloads/window.h"

#include <math.h>
#include "util/xalloc.h"

#include <gsl/gsl_fit.h>
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
