/* warmup.c: the warm-up phase (see experiment.h, phase.h): warmup = auto
 * runs sysbench in VERDICT_SLICE_S slices in every target at once until
 * each one's TPS is steady by the rule of steady.h, at most warmup_max; a
 * fixed warm-up is one slice of its length. Either way warmup_s per target
 * says what it needed, and its intervals are kept as phase=warmup. */
#include "experiment/phase.h"

#include "util/log.h"
#include "experiment/steady.h"
#include "results/verdicts.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One warm-up run of `seconds` in a target: its intervals appended to the
 * target's warm-up series (t counted from the warm-up's start). */
static int warm_slice(struct job *j, long long seconds, const char *out)
{
    struct measured *m = j->m;
    sysbench_report_free(&m->slice);
    m->slice_parsed = false;
    if (phase_sysbench(j, WORKLOAD_RUN, seconds, out, (long)seconds + phase_grace(seconds),
                       (long)seconds * 1000) < 0)
        return -1;
    char *text = target_output(j->t);
    char err[256];
    if (text) {
        /* only the intervals matter here; a missing final report is no error */
        sysbench_parse(text, &m->slice, err, sizeof(err));
        m->slice_parsed = true;
    }
    free(text);
    double base = (double)m->slices * VERDICT_SLICE_S; /* a fixed warm-up is one slice */
    m->warm = xrealloc(m->warm, (m->n_warm + m->slice.n_intervals + 1) * sizeof(*m->warm));
    m->warm_slice = xrealloc(m->warm_slice, (m->n_warm + m->slice.n_intervals + 1) * sizeof(int));
    for (size_t i = 0; i < m->slice.n_intervals; i++) {
        m->warm_slice[m->n_warm] = m->slices + 1;
        m->warm[m->n_warm] = m->slice.intervals[i];
        m->warm[m->n_warm++].t += base;
    }
    m->slices++;
    return 0;
}

static int warmup_fixed_one(struct job *j)
{
    return warm_slice(j, j->e->cfg->warmup, "sysbench-warmup.out");
}

static int warmup_slice_one(struct job *j)
{
    char out[64];
    snprintf(out, sizeof(out), "sysbench-warmup-%02d.out", j->m->slices + 1);
    return warm_slice(j, VERDICT_SLICE_S, out);
}

/* The rule of warmup = auto applied to the last two slice lengths of a
 * fixed warm-up: was it steady when it ended? */
static bool fixed_warmup_steady(const struct measured *m, const struct run_config *cfg)
{
    size_t per = (size_t)(VERDICT_SLICE_S / cfg->report_interval);
    if (per < 3 || m->n_warm < 2 * per)
        return false;
    struct steady_tracker st;
    steady_init(&st, 1, VERDICT_SLICE_S, 1e12);
    const struct sysbench_interval *a = m->warm + m->n_warm - 2 * per, *b = m->warm + m->n_warm - per;
    steady_round(&st, &a, &per);
    steady_round(&st, &b, &per);
    bool steady = st.t[0].steady_now;
    steady_free(&st);
    return steady;
}

static void warmup_record(struct experiment *e, struct measured *m, double total_s,
                          const struct steady_tracker *st, bool is_auto)
{
    samples_add(e->samples, "warmup_total_s", total_s, "s", 0, NULL, 0, NULL);
    for (size_t i = 0; i < e->n; i++) {
        struct target *t = &e->t[i];
        /* steady: the rule held in the last slice, as the measure phase began
         * (a capped warm-up may have a target that held once and lost it) */
        bool steady = is_auto ? st->t[i].steady_now : fixed_warmup_steady(&m[i], e->cfg);
        double needed = is_auto && steady ? st->t[i].steady_at : total_s;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "steady", json_object_new_string(steady ? "yes" : "no"));
        json_object_object_add(extra, "mode", json_object_new_string(is_auto ? "auto" : "fixed"));
        samples_add(e->samples, "warmup_s", needed, "s", t->guest, NULL, 0, extra);
        phase_intervals(e, t, m[i].warm, m[i].warm_slice, m[i].n_warm, "warmup", 0, -total_s);
        if (!steady)
            log_warn("%s: TPS not steady after %.0f s of warm-up (rule: two consecutive %d s "
                     "slices within %.0f%% and drift within +-%.2f, or within their noise)",
                     t->name, total_s, VERDICT_SLICE_S, VERDICT_SLICE_DELTA * 100, VERDICT_SLICE_DRIFT);
    }
}

int phase_warmup(struct experiment *e, struct measured *m)
{
    const struct run_config *cfg = e->cfg;
    if (cfg->warmup == 0)
        return 0;
    if (cfg->warmup > 0) {
        log_info("warm-up: %llds", cfg->warmup);
        int rc = phase_each(e, m, warmup_fixed_one, false);
        if (rc == 0)
            warmup_record(e, m, (double)cfg->warmup, NULL, false);
        return rc;
    }
    log_info("warm-up: until every target's TPS is steady (%d s slices, at most %llds)",
             VERDICT_SLICE_S, cfg->warmup_max);
    struct steady_tracker st;
    steady_init(&st, e->n, VERDICT_SLICE_S, (double)cfg->warmup_max);
    const struct sysbench_interval **iv = xcalloc(e->n, sizeof(*iv));
    size_t *count = xcalloc(e->n, sizeof(*count));
    int rc;
    enum steady_next next = STEADY_CONTINUE;
    while ((rc = phase_each(e, m, warmup_slice_one, false)) == 0) {
        for (size_t i = 0; i < e->n; i++) {
            iv[i] = m[i].slice.intervals;
            count[i] = m[i].slice.n_intervals;
        }
        next = steady_round(&st, iv, count);
        for (size_t i = 0; i < e->n; i++) {
            char delta[64] = "first slice";
            if (!isnan(st.t[i].delta))
                snprintf(delta, sizeof(delta), "%.1f%% from the slice before (limit %.1f%%)",
                         100 * st.t[i].delta, 100 * st.t[i].delta_limit);
            log_info("warm-up %3.0f s: %s %.1f tx/s, %s, drift %+.3f (limit +-%.3f)%s",
                     st.elapsed_s, e->t[i].name, steady_mean(iv[i], count[i]), delta,
                     st.t[i].drift, st.t[i].drift_limit, st.t[i].steady_now ? " (steady)" : "");
        }
        if (next != STEADY_CONTINUE)
            break;
    }
    if (rc == 0)
        warmup_record(e, m, st.elapsed_s, &st, true);
    free(iv);
    free(count);
    steady_free(&st);
    return rc;
}

