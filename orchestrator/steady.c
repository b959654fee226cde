/* steady.c: the steady-state rule of warmup = auto (see steady.h). */
#include "steady.h"

#include "verdicts.h"
#include "window.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>

void steady_init(struct steady_tracker *s, size_t n, double slice_s, double max_s)
{
    *s = (struct steady_tracker){.n = n, .slice_s = slice_s, .max_s = max_s};
    s->t = xcalloc(n ? n : 1, sizeof(*s->t));
    for (size_t i = 0; i < n; i++)
        s->t[i] = (struct steady_target){.prev_mean = -1, .delta = NAN, .steady_at = -1};
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

enum steady_next steady_round(struct steady_tracker *s, const struct sysbench_interval *const slice[],
                              const size_t count[])
{
    s->rounds++;
    s->elapsed_s += s->slice_s;
    bool all = true;
    for (size_t i = 0; i < s->n; i++) {
        struct steady_target *t = &s->t[i];
        double mean = steady_mean(slice[i], count[i]);
        t->drift = window_drift(slice[i], count[i]);
        t->delta = t->prev_mean > 0 ? fabs(mean - t->prev_mean) / t->prev_mean : NAN;
        /* a slice without intervals, or with no throughput, is never steady */
        t->steady_now = count[i] >= 3 && mean > 0 && !isnan(t->delta) &&
                        t->delta <= VERDICT_SLICE_DELTA && fabs(t->drift) <= VERDICT_SLICE_DRIFT;
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
