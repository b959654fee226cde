/* steady.h: when a warm-up may stop -- the steady-state rule of
 * warmup = auto, as a tracker fed one round of slices at a time.
 *
 * Every target warms up in slices of VERDICT_SLICE_S seconds (verdicts.h),
 * all targets at once. A target is steady after a slice when it is SHOWN
 * steady over its last two slices (the second's clock continued from the
 * first's): the least-squares drift of their interval TPS (window_drift_se)
 * and its 95 % CI half-width (t(0.975, n-2) x its standard error) lie within
 * +-VERDICT_STEADY_EQUIV together -- the equivalence test the measure phase
 * is judged by (results/steadyrule.h), with the CI from the intervals
 * themselves (20 s holds too few batches for batch means, which are
 * wider: this one is the less cautious of the two). Noise that hides a
 * trend of 5 % is no evidence of steadiness: under TCG, at a few
 * transactions per second, a warm-up is rarely shown steady in 20 s and
 * runs to warmup_max, and the run says so.
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
    double drift;      /* drift over its last two slices (its last slice alone at first) */
    double half;       /* the drift's 95 % CI half-width; NAN with fewer than two slices */
    bool steady_now;   /* the rule held in the last round */
    double steady_at;  /* warm-up seconds when the rule first held; <0 never */
    struct sysbench_interval *prev; /* its last slice's intervals */
    size_t n_prev;
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
