/* window.h: the common measure window of guests measured together.
 *
 * Guest i's measure phase starts at start[i] (host clock) and its sysbench
 * reports TPS per interval. The arm's throughput is the sum over guests of
 * each guest's mean TPS over the intervals that lie wholly inside the
 * window in which ALL of them were measuring: [max start, min end]. That
 * is the contention the arm is about. */
#ifndef VBED_WINDOW_H
#define VBED_WINDOW_H

#include "workloads/sysbench.h"

#include <stdbool.h>
#include <stddef.h>

struct window_guest {
    double start;                          /* UNIX time its measure phase began */
    const struct sysbench_interval *iv;    /* its interval lines */
    size_t n;
};

struct window_result {
    double tps_sum;     /* the arm's TPS */
    double window_s;    /* length of the common window */
    double skew_s;      /* latest start - earliest start */
    size_t intervals;   /* intervals used, over all guests */
};

/* interval: --report-interval; duration: the measure phase's length.
 * Returns -1 when a guest has no interval inside the window. */
int window_common(const struct window_guest *g, size_t n, double interval, double duration,
                  struct window_result *out);

/* Relative drift of TPS over a phase: the least-squares line's change from
 * the first to the last interval divided by the mean TPS. 0 with fewer than
 * three intervals. */
double window_drift(const struct sysbench_interval *iv, size_t n);
/* The same, and its standard error (from the fit's slope variance) in *se:
 * how much of the drift the intervals' noise alone could make. */
double window_drift_se(const struct sysbench_interval *iv, size_t n, double *se);

/* Batch means: interval TPS is autocorrelated (a slow second follows a slow
 * second), so its noise is judged on the means of consecutive batches of
 * WINDOW_BATCH_S seconds, which are nearly independent. per: intervals in
 * a batch (WINDOW_BATCH_S / --report-interval, at least 1). */
#define WINDOW_BATCH_S 5.0
size_t window_batch_len(double interval);
/* The mean TPS of the intervals and the 95 % CI half-width of that mean
 * from their batch means (t of n-1 batches); NAN half-width with fewer
 * than 3 batches. */
double window_ci_half(const struct sysbench_interval *iv, size_t n, size_t per, double *mean);
/* window_drift's drift, and in *half the 95 % CI half-width of that drift
 * from the least-squares line through the batch means (NAN with fewer than
 * 4 batches): a drift inside it is one the noise alone could make. */
double window_drift_ci(const struct sysbench_interval *iv, size_t n, size_t per, double *half);
/* duration = auto: how long to measure so that the arm's TPS -- the sum
 * over its targets' means -- has a 95 % CI half-width within `target` (a
 * share of it), judged on each target's pilot intervals (the warm-up's
 * last ones) by batch means: the batches needed, times WINDOW_BATCH_S,
 * within [lo, hi] seconds. hi when a pilot has fewer than 3 batches. */
double window_duration_for(const struct sysbench_interval *const iv[], const size_t n[], size_t targets,
                           size_t per, double target, double lo, double hi);

#endif
