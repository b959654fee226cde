/* answer.c: the report's first lines -- what was found (see answer.h). */
#include "report/answer.h"

#include "model/gap.h"
#include "model/predict.h"
#include "report/report.h"
#include "model/speedfit.h"
#include "model/stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

/* v rounded to what its 95 % half-width supports: the half-width's first
 * significant digit sets the last one printed (n/a without a value) */
static const char *rounded(char *buf, size_t len, double v, double half)
{
    if (!isfinite(v))
        return "n/a";
    int decimals;
    if (isfinite(half) && half > 0) {
        decimals = (int)-floor(log10(half));
        decimals = decimals < 0 ? 0 : decimals > 3 ? 3 : decimals;
    } else {
        decimals = fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2;
    }
    snprintf(buf, len, "%.*f", decimals, v);
    return buf;
}

/* "7.0 +- 1.8" (95 % CI), or "7.0" of one run */
static const char *with_ci(char *buf, size_t len, const struct stats_summary *s)
{
    char a[32], b[32];
    if (s->n < 2)
        snprintf(buf, len, "%s", rounded(a, sizeof(a), s->mean, NAN));
    else
        snprintf(buf, len, "%s +- %s", rounded(a, sizeof(a), s->mean, s->ci95_half),
                 rounded(b, sizeof(b), s->ci95_half, s->ci95_half));
    return buf;
}

static bool is_guest(const struct report *r, size_t a)
{
    return !strcmp(r->rd->arms[a].kind, "guest");
}

/* a part as the split against the host names it */
static const char *part_name(int p)
{
    return p == GAP_CPU ? "CPU (virtualization/emulation)" : gap_part_name(p);
}

/* the first guest arm's loss against the host arm, its two largest parts */
static void why(const struct report_cell *c, const char *name, char *buf, size_t len, size_t *used)
{
    const struct gap_split *s = &c->gap;
    if (!s->valid || !(fabs(s->delta) > 0))
        return;
    int top[2] = {-1, -1};
    double pts[GAP_PARTS];
    for (int p = 0; p < GAP_PARTS; p++) {
        pts[p] = isfinite(s->part[p]) ? s->part[p] / s->delta * s->loss * 100 : NAN;
        /* named only where its 95 % CI excludes 0, as the split's sentence
         * does; with one run (no CI) the largest, said to be one run's */
        if (isfinite(s->delta_ci) ? !gap_beyond_ci(s->part[p], s->ci[p]) : !(isfinite(pts[p]) && pts[p] > 0))
            continue;
        if (top[0] < 0 || pts[p] > pts[top[0]]) {
            top[1] = top[0];
            top[0] = p;
        } else if (top[1] < 0 || pts[p] > pts[top[1]]) {
            top[1] = p;
        }
    }
    if (top[0] < 0)
        return;
    append(buf, len, used, "Why %s loses it: %s %.0f points", name, part_name(top[0]), pts[top[0]]);
    if (top[1] >= 0)
        append(buf, len, used, ", %s %.0f", part_name(top[1]), pts[top[1]]);
    append(buf, len, used, " of its %.0f %%%s; %s.\n", s->loss * 100,
           isfinite(s->delta_ci) ? "" : " (one run: no CI)",
           s->explained ? "the rest is explained" : "the budget does not explain all of it");
}

/* a tuned arm against the untuned guest: its change in TPS per guest and a
 * 95 % CI -- at one speed where fitted, else Welch's on the runs */
static void tuning(const struct report *r, size_t v, size_t a, char *buf, size_t len, size_t *used)
{
    const struct report_cell *c = &r->variants[v].cells[a];
    const struct report_cell *g = &r->variants[v].cells[r->first_guest_arm];
    const char *name = r->rd->arms[a].name;
    if (!(g->per_guest_stats.mean > 0) || !(c->per_guest_stats.n > 0))
        return;
    double change = c->per_guest_stats.mean / g->per_guest_stats.mean - 1;
    double ratio, lo, hi;
    append(buf, len, used, "%s against %s: %+.0f %% TPS per guest", name, r->rd->arms[r->first_guest_arm].name,
           change * 100);
    if (speed_ratio(r, v, a, &ratio, &lo, &hi)) {
        append(buf, len, used, "; at one machine speed %+.0f %%, 95 %% CI %+.0f to %+.0f %%: %s.\n",
               (ratio - 1) * 100, (lo - 1) * 100, (hi - 1) * 100,
               lo > 1 || hi < 1 ? "beyond noise" : "not beyond noise");
        return;
    }
    struct stats_welch w;
    if (stats_welch_test(c->per_guest, c->per_guest_stats.n, g->per_guest, g->per_guest_stats.n, &w) < 0 ||
        !isfinite(w.t) || w.t == 0) {
        append(buf, len, used, " (one run each: no CI).\n");
        return;
    }
    double diff = c->per_guest_stats.mean - g->per_guest_stats.mean;
    double half = gsl_cdf_tdist_Pinv(0.975, w.df) * fabs(diff / w.t) / g->per_guest_stats.mean;
    append(buf, len, used, ", 95 %% CI %+.0f to %+.0f %%: %s.\n", (change - half) * 100, (change + half) * 100,
           w.significant ? "beyond noise" : "not beyond noise");
}

/* the one caveat that changes the reading most, or "" */
static const char *caveat(const struct report *r, size_t v)
{
    bool one = true, drifted = false, unshown = false, noisy = false, open = false;
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[v].cells[a];
        if (c->tps_stats.n == 0)
            continue;
        one &= c->tps_stats.n < 2;
        drifted |= c->runs_drifted > 0;
        unshown |= c->runs_unshown > 0;
        noisy |= c->noisy_runs > 0;
        open |= isfinite(gap_other(&c->layers)) && !c->layers.closes;
    }
    if (one)
        return "every arm ran once: no run-to-run spread, no CI; repeats = 3 or more measure it.";
    if (drifted)
        return "some runs' TPS still drifted over the measure phase (the steady column).";
    if (unshown)
        return "some runs were not shown steady: their drift's 95 % CI is wider than +-5 %.";
    if (noisy)
        return "the machine was noisy during some runs (the noise column).";
    if (open)
        return "an arm's time budget does not close: its parts miss or overcount time.";
    return "";
}

void report_answer_text(const struct report *r, size_t v, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    int h = r->host_arm;
    const struct report_variant *rv = &r->variants[v];
    bool tps = strstr(r->headline, "TPS") != NULL;
    /* each guest arm against the host, per guest */
    if (h >= 0 && rv->cells[h].per_guest_stats.n > 0) {
        char hs[64], gs[64];
        with_ci(hs, sizeof(hs), &rv->cells[h].per_guest_stats);
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            const struct report_cell *c = &rv->cells[a];
            if (!is_guest(r, a) || c->per_guest_stats.n == 0 || !isfinite(c->ratio_host))
                continue;
            bool ci = c->per_guest_stats.n > 1 && rv->cells[h].per_guest_stats.n > 1;
            append(buf, len, &used, "%s %s %.0f %% of the host's %s per guest: %s against %s%s.\n",
                   r->rd->arms[a].name, c->ratio_host <= 1 ? "loses" : "gains",
                   fabs(1 - c->ratio_host) * 100, r->headline, with_ci(gs, sizeof(gs), &c->per_guest_stats),
                   hs, ci ? " (95 % CIs)" : " (one run each)");
        }
    }
    if (r->first_guest_arm >= 0 && tps)
        why(&rv->cells[r->first_guest_arm], r->rd->arms[r->first_guest_arm].name, buf, len, &used);
    /* what each tuning won against the untuned guest */
    for (size_t a = 0; r->first_guest_arm >= 0 && a < r->rd->n_arms; a++)
        if ((int)a != r->first_guest_arm && is_guest(r, a) && rv->cells[a].per_guest_stats.n > 0)
            tuning(r, v, a, buf, len, &used);
    /* the predictions and their verdicts */
    for (size_t a = 0; tps && a < r->rd->n_arms; a++) {
        struct prediction p;
        predict_arm(r, v, a, &p);
        if (!p.valid || !isfinite(p.measured))
            continue;
        double null = prediction_null_error(&p);
        append(buf, len, &used, "%s predicted %.3g TPS per guest, measured %.3g: %s", r->rd->arms[a].name,
               p.predicted, p.measured,
               p.single_repeat ? "not judged (one run)"
               : !p.judged     ? "not judged (CIs too wide)"
               : p.agrees      ? "the prediction agrees"
               : p.cannot_tell ? "cannot tell from no change"
                               : "the prediction does not agree");
        if (p.judged && isfinite(null))
            append(buf, len, &used, " (no change would be %+.0f %% off, tolerance +-%.0f %%)", null * 100,
                   p.tolerance * 100);
        append(buf, len, &used, ".\n");
    }
    const char *cv = caveat(r, v);
    if (*cv)
        append(buf, len, &used, "Caveat: %s\n", cv);
    if (used > 0 && buf[used - 1] == '\n')
        buf[used - 1] = '\0';
}
