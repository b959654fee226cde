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

#endif
