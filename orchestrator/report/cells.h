/* cells.h: what report.c (the cells) lends the files that build the rest
 * of a report: build.c (a cell's figures and ratios, the host arm each arm
 * is compared with) and notes.c (the same tests of a figure, an arm's host).
 * Internal to report/. (This header includes no report.h: report.c
 * includes this one.) */
#ifndef VBED_REPORT_CELLS_H
#define VBED_REPORT_CELLS_H

#include "results/resultsread.h"
#include "results/verdicts.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

struct report;
struct report_cell;

/* the mean of the finite values added; NAN when none */
struct mean_acc {
    double sum;
    int n;
};

static inline void acc_add(struct mean_acc *a, double v)
{
    if (!isfinite(v))
        return;
    a->sum += v;
    a->n++;
}

static inline double acc_mean(const struct mean_acc *a) { return a->n ? a->sum / a->n : NAN; }

/* A target whose TPS was not steady over its measure phase: its label
 * says so (the drift judged against its own CI, results/steadyrule.h --
 * by the reader again from the two figures); without a label, a drift
 * beyond VERDICT_DRIFT_LIMIT. */
static inline bool drift_beyond(const struct results_sample *s)
{
    if (*s->steady)
        return !strcmp(s->steady, "no");
    return fabs(s->value) > VERDICT_DRIFT_LIMIT;
}

/* The noise limit of a metric, NAN if it is not a noise figure. */
static inline double noise_limit(const char *metric)
{
    if (!strcmp(metric, "host_steal_pct"))
        return VERDICT_HOST_STEAL_PCT;
    if (!strcmp(metric, "host_other_cpu_pct"))
        return VERDICT_HOST_OTHER_CPU_PCT;
    if (!strcmp(metric, "guest_steal_pct"))
        return VERDICT_GUEST_STEAL_PCT;
    return NAN;
}


/* Fill c (c->arm set) from the samples of variant: its TPS per counted
 * run, their statistics and the figures that explain them. */
void report_fill_cell(const struct results_data *rd, int variant, struct report_cell *c);

/* num / den of mean TPS: per guest when their guest counts differ (*per
 * true), aggregate when equal; NAN when not applicable or a count is
 * unknown (a ratio of unknown bases is not given). */
double report_ratio_of(const struct report_cell *num, const struct report_cell *den, bool *per);

/* The host an arm ran on: labels.host of its headline samples ("" if none
 * or unlabelled; "a,b" for a guest arm spread over hosts). */
const char *report_arm_host(const struct results_data *rd, const char *arm);

/* Each arm's host arm to compare with (ref[a], an index into rd->arms, or
 * -1): one on the same host if any ran there, else r->host_arm
 * (elsewhere[a] when that one ran on another host). */
void report_choose_host_refs(struct report *r, int *ref, bool *elsewhere);

#endif
