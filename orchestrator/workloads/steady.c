/* steady.c: the steady-state rule of warmup = auto (see steady.h). */
#include "workloads/steady.h"

#include "results/steadyrule.h"
#include "workloads/window.h"
#include "util/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void steady_init(struct steady_tracker *s, size_t n, double slice_s, double max_s)
{
    *s = (struct steady_tracker){.n = n, .slice_s = slice_s, .max_s = max_s};
    s->t = xcalloc(n ? n : 1, sizeof(*s->t));
    for (size_t i = 0; i < n; i++)
        s->t[i] = (struct steady_target){.prev_mean = -1, .delta = NAN, .half = NAN, .steady_at = -1};
}

void steady_free(struct steady_tracker *s)
{
    for (size_t i = 0; s->t && i < s->n; i++)
        free(s->t[i].prev);
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

/* The drift of target t's last slice and this one (cur, n), this one's
 * clock continued from the last's where it restarted (shifted by a slice,
 * slice_s, as the warm-up's recorded intervals are; a fixed warm-up's
 * last two slices' already runs on), and its 95 % CI half-width in *half
 * (NAN without a slice before, or too few intervals). */
static double two_slice_drift(const struct steady_target *t, const struct sysbench_interval *cur, size_t n,
                              double slice_s, double *half)
{
    *half = NAN;
    if (!t->prev || t->n_prev == 0)
        return window_drift(cur, n);
    size_t m = t->n_prev + n;
    struct sysbench_interval *iv = xcalloc(m, sizeof(*iv));
    memcpy(iv, t->prev, t->n_prev * sizeof(*iv));
    double shift = n && cur[0].t <= t->prev[t->n_prev - 1].t ? slice_s : 0;
    for (size_t i = 0; i < n; i++) {
        iv[t->n_prev + i] = cur[i];
        iv[t->n_prev + i].t += shift;
    }
    double se, drift = window_drift_se(iv, m, &se);
    free(iv);
    if (m >= 6)
        *half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 2)) * se;
    return drift;
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
        t->delta = t->prev_mean > 0 ? fabs(mean - t->prev_mean) / t->prev_mean : NAN;
        t->drift = two_slice_drift(t, slice[i], count[i], s->slice_s, &t->half);
        /* shown steady by the measure phase's own rule (steadyrule.h); a
         * slice without intervals, or with no throughput, never is */
        t->steady_now = count[i] >= 3 && mean > 0 && t->prev_mean > 0 &&
                        steady_shown(t->drift, t->half);
        if (t->steady_now && t->steady_at < 0)
            t->steady_at = s->elapsed_s;
        t->prev_mean = mean;
        free(t->prev);
        t->prev = count[i] ? xcalloc(count[i], sizeof(*t->prev)) : NULL;
        if (count[i])
            memcpy(t->prev, slice[i], count[i] * sizeof(*t->prev));
        t->n_prev = count[i];
        all &= t->steady_now;
    }
    if (all)
        return STEADY_DONE;
    if (s->elapsed_s + s->slice_s > s->max_s)
        return STEADY_CAPPED;
    return STEADY_CONTINUE;
}
