/* steady.h: when a warm-up may stop -- the steady-state rule of
 * warmup = auto, as a tracker fed one round of slices at a time.
 *
 * Every target warms up in slices of VERDICT_SLICE_S seconds (verdicts.h),
 * all targets at once. A target is steady after a slice when that slice's
 * mean interval TPS is within VERDICT_SLICE_DELTA of the previous slice's
 * AND the slice's own drift (window_drift) is within VERDICT_SLICE_DRIFT --
 * or, where the intervals are noisier than that, within two standard
 * errors (of the difference of the two means, of the drift): a change the
 * noise alone could make is not taken for a trend.
 * The warm-up stops after the first round in which EVERY target is steady
 * (then all start measuring at the same moment), or when another round
 * would pass warmup_max. Pure: no I/O; one thread. */
#ifndef VBED_STEADY_H
#define VBED_STEADY_H

#include "workloads/sysbench.h"

#include <stdbool.h>
#include <stddef.h>

struct steady_target {
    double prev_mean;  /* mean TPS of its last slice; <0 before the first */
    double delta;      /* |mean - prev_mean| / prev_mean of the last round; NAN at first */
    double drift;      /* drift of its last slice */
    double delta_limit, drift_limit; /* the limits applied in the last round */
    double prev_se;    /* standard error of the last slice's mean */
    bool steady_now;   /* the rule held in the last round */
    double steady_at;  /* warm-up seconds when the rule first held; <0 never */
};

struct steady_tracker {
    size_t n;
    struct steady_target *t;
    double slice_s, max_s;
    double elapsed_s; /* warm-up so far */
    int rounds;
};

enum steady_next { STEADY_CONTINUE, STEADY_DONE, STEADY_CAPPED };

/* n targets, slices of slice_s seconds, at most max_s of warm-up. */
void steady_init(struct steady_tracker *s, size_t n, double slice_s, double max_s);
void steady_free(struct steady_tracker *s);

/* One round: slice[i] holds target i's interval lines of this round's
 * slice. What to do next. */
enum steady_next steady_round(struct steady_tracker *s, const struct sysbench_interval *const slice[],
                              const size_t count[]);

/* Mean TPS of interval lines; 0 for none. */
double steady_mean(const struct sysbench_interval *iv, size_t n);

#endif
