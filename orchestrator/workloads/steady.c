/* steady.c: the steady-state rule of warmup = auto (see steady.h). */
#include "workloads/steady.h"

#include "results/verdicts.h"
#include "workloads/window.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>

void steady_init(struct steady_tracker *s, size_t n, double slice_s, double max_s)
{
    *s = (struct steady_tracker){.n = n, .slice_s = slice_s, .max_s = max_s};
    s->t = xcalloc(n ? n : 1, sizeof(*s->t));
    for (size_t i = 0; i < n; i++)
        s->t[i] = (struct steady_target){.prev_mean = -1, .delta = NAN, .steady_at = -1,
                                         .delta_limit = VERDICT_SLICE_DELTA,
                                         .drift_limit = VERDICT_SLICE_DRIFT};
}

void steady_free(struct steady_tracker *s)
{
    free(s->t);
    s->t = NULL;
}

double steady_mean(const struct sysbench_interval *iv, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += iv[i].tps;
    return n ? sum / (double)n : 0;
}

/* standard error of the mean interval TPS */
static double mean_se(const struct sysbench_interval *iv, size_t n, double mean)
{
    if (n < 2)
        return 0;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (iv[i].tps - mean) * (iv[i].tps - mean);
    return sqrt(ss / (double)(n - 1) / (double)n);
}

enum steady_next steady_round(struct steady_tracker *s, const struct sysbench_interval *const slice[],
                              const size_t count[])
{
    s->rounds++;
    s->elapsed_s += s->slice_s;
    bool all = true;
    for (size_t i = 0; i < s->n; i++) {
        struct steady_target *t = &s->t[i];
        double mean = steady_mean(slice[i], count[i]);
        double se = mean_se(slice[i], count[i], mean), drift_se;
        t->drift = window_drift_se(slice[i], count[i], &drift_se);
        t->delta = t->prev_mean > 0 ? fabs(mean - t->prev_mean) / t->prev_mean : NAN;
        /* the limits, or the noise of the intervals when that is larger:
         * a difference two standard errors could make is no evidence of a
         * trend (at a few transactions per second, as under TCG, a 10 s
         * slice's mean is only known to ~10 %) */
        double se_delta = t->prev_mean > 0 ? sqrt(se * se + t->prev_se * t->prev_se) / t->prev_mean : 0;
        t->delta_limit = fmax(VERDICT_SLICE_DELTA, 2 * se_delta);
        t->drift_limit = fmax(VERDICT_SLICE_DRIFT, 2 * drift_se);
        /* a slice without intervals, or with no throughput, is never steady */
        t->steady_now = count[i] >= 3 && mean > 0 && !isnan(t->delta) &&
                        t->delta <= t->delta_limit && fabs(t->drift) <= t->drift_limit;
        t->prev_se = se;
        if (t->steady_now && t->steady_at < 0)
            t->steady_at = s->elapsed_s;
        t->prev_mean = mean;
        all &= t->steady_now;
    }
    if (all)
        return STEADY_DONE;
    if (s->elapsed_s + s->slice_s > s->max_s)
        return STEADY_CAPPED;
    return STEADY_CONTINUE;
}
