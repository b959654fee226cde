/* stats.h: the statistics of a benchmark report: summary of repeats (mean,
 * sample standard deviation, Student-t 95% confidence interval, coefficient
 * of variation), Welch's t-test between two sets of repeats, and the
 * least-squares slope of a series. The distributions come from GSL. */
#ifndef VBED_STATS_H
#define VBED_STATS_H

#include <stddef.h>

struct stats_summary {
    size_t n;
    double mean, sd, ci95_low, ci95_high, ci95_half, cv;
};

/* Summarize n values. sd is the sample standard deviation (n - 1); the 95%
 * confidence interval of the mean is mean +- t(0.975, n - 1) * sd / sqrt(n).
 * n < 2: sd = 0 and the interval is mean +- 0 (a single repeat says nothing
 * about spread); n = 0: every field is 0. cv = sd / mean (0 when sd is 0,
 * NAN when the mean is 0 and sd is not). */
void stats_summarize(const double *v, size_t n, struct stats_summary *out);

struct stats_welch {
    double t, df, p;
    int significant; /* p < 0.05, two-sided */
};

/* Welch's unequal-variance t-test of mean(a) - mean(b): t, the
 * Welch-Satterthwaite degrees of freedom, and the two-sided p value.
 * Returns -1 (nothing reported: "too few repeats" is an answer, not an
 * error) if a side has fewer than 2 values. If both sides have no spread
 * at all, t is 0 (equal means, p = 1) or +-INFINITY (p = 0). */
int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
                     struct stats_welch *out);

/* Least-squares slope of y over x; 0 if n < 2 or every x is the same. */
double stats_slope(const double *x, const double *y, size_t n);

#endif
