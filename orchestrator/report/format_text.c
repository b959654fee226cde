/* format_text.c: the report for people -- the tables of a variant (TPS,
 * conditions, figures; the layers, where the time goes and the gap; the
 * scaling), which report.html shows too, and the table and markdown
 * formats that lay them out with the notes; and report_print(), which
 * sends csv and json to format_csv.c and format_json.c. */
#include "report/answer.h"
#include "report/format.h"
#include "model/predict.h"
#include "model/speedfit.h"
#include "report/report.h"

#include "results/verdicts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tables ---- */

static const char *fits_human(const char *f)
{
    return !strcmp(f, "buffer_pool")        ? "buffer pool"
           : !strcmp(f, "guest_page_cache") ? "guest page cache"
           : !strcmp(f, "host_page_cache")  ? "host page cache"
           : !strcmp(f, "none")             ? "no cache"
                                            : "-";
}

/* "yes", "no (1 of 3 runs)", "not shown (2 of 3 runs)" or "-" (nothing
 * recorded): yes only where every run was shown steady */
static const char *steady_human(char *buf, size_t len, const struct report_cell *c)
{
    int bad = c->runs_drifted > c->warmup_not_steady ? c->runs_drifted : c->warmup_not_steady;
    if (c->drift_samples == 0 && isnan(c->warmup_s))
        return "-";
    if (bad > 0)
        snprintf(buf, len, "no (%d of %zu runs)", bad, c->tps_stats.n);
    else if (c->runs_unshown > 0)
        snprintf(buf, len, "not shown (%d of %zu runs)", c->runs_unshown, c->tps_stats.n);
    else
        return "yes";
    return buf;
}

/* a percentage, "n/a" when not recorded, "!" beyond its limit */
static const char *pct_human(char *buf, size_t len, double v, double limit)
{
    if (isnan(v))
        return "n/a";
    snprintf(buf, len, "%.1f%%%s", v, v > limit ? " !" : "");
    return buf;
}

struct report_table *report_tps_table(const struct report *r, size_t variant)
{
    char mean_h[32], pg_h[32];
    snprintf(mean_h, sizeof(mean_h), "%s mean", r->headline);
    snprintf(pg_h, sizeof(pg_h), "%s/guest", r->headline);
    const char *const head[] = {"arm", "kind", "guests", "n",  mean_h,
                                "95% CI", "sd", "CV",    pg_h, "drifted"};
    struct report_table *t = report_table_new(10, head, 0x3FC);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        const struct stats_summary *s = &c->tps_stats;
        char guests[16], n[16], mean[32], ci[40], sd[32], cv[32], pg[32], drifted[48];
        snprintf(guests, sizeof(guests), "%d", c->guests);
        snprintf(n, sizeof(n), "%zu", s->n);
        snprintf(drifted, sizeof(drifted), "%d of %zu", c->runs_drifted, s->n);
        bool spread = s->n >= 2;
        const char *row[] = {
            c->arm->name,
            c->arm->kind,
            strcmp(c->arm->kind, "guest") || c->guests <= 0 ? "-" : guests,
            n,
            report_human(mean, sizeof(mean), "%.2f", s->n ? s->mean : NAN),
            /* one repeat: no spread, and no CI -- "n/a", never +- 0.00 */
            !s->n ? "-" : spread ? report_human(ci, sizeof(ci), "+- %.2f", s->ci95_half) : "n/a",
            !s->n ? "-" : spread ? report_human(sd, sizeof(sd), "%.2f", s->sd) : "n/a",
            !s->n ? "-" : spread ? report_human(cv, sizeof(cv), "%.1f%%", 100 * s->cv) : "n/a",
            report_human(pg, sizeof(pg), "%.2f", s->n ? c->per_guest_stats.mean : NAN),
            c->drift_samples && s->n ? drifted : "-"};
        report_table_add(t, row);
    }
    return t;
}

struct report_table *report_conditions_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",        "fits in",      "warm-up",     "steady",
                                       "host steal", "other CPU",    "guest steal", "noise",
                                       "CPU speed",  "pin"};
    struct report_table *t = report_table_new(10, head, 0x174);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char warm[48], steady[48], hs[32], ho[32], gs[32], sp[32];
        if (isnan(c->warmup_s))
            snprintf(warm, sizeof(warm), "-");
        else
            snprintf(warm, sizeof(warm), "%.1f s%s%s%s", c->warmup_s, *c->warmup_mode ? " (" : "",
                     c->warmup_mode, *c->warmup_mode ? ")" : "");
        const char *row[] = {c->arm->name,
                             fits_human(c->fits),
                             warm,
                             steady_human(steady, sizeof(steady), c),
                             pct_human(hs, sizeof(hs), c->host_steal_max, VERDICT_HOST_STEAL_PCT),
                             pct_human(ho, sizeof(ho), c->host_other_max,
                                       VERDICT_HOST_OTHER_CPU_PCT),
                             strcmp(c->arm->kind, "guest")
                                 ? "-"
                                 : pct_human(gs, sizeof(gs), c->guest_steal_max,
                                             VERDICT_GUEST_STEAL_PCT),
                             report_noise_verdict(c),
                             report_human(sp, sizeof(sp), "%.2f", c->speed_index),
                             *c->pin ? c->pin : "-"};
        report_table_add(t, row);
    }
    return t;
}

struct report_table *report_figures_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",         "compression", "bp hit",  "host cache after",
                                       "latency p95", "drifting",    "skew max"};
    struct report_table *t = report_table_new(7, head, 0x7E);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char cr[32], bp[32], hc[32], p95[32], drift[32], skew[32];
        snprintf(drift, sizeof(drift), "%d of %d", c->drifting, c->drift_samples);
        const char *row[] = {
            c->arm->name,
            report_human(cr, sizeof(cr), "%.2f", c->compression_ratio),
            report_human(bp, sizeof(bp), "%.4f", c->bp_hit_ratio),
            report_human(hc, sizeof(hc), "%.1f MiB", c->host_cache_after_bytes / 1048576),
            report_human(p95, sizeof(p95), "%.2f ms", c->latency_p95_ms),
            c->drift_samples ? drift : "-",
            report_human(skew, sizeof(skew), "%.2f s", c->skew_max_s)};
        report_table_add(t, row);
    }
    return t;
}

struct report_table *report_scaling_table(const struct report *r)
{
    if (!r->n_scaling)
        return NULL;
    static const char *const head[] = {"arm",       "setting",   "guests",    "n",
                                       "TPS total", "TPS/guest", "efficiency"};
    struct report_table *t = report_table_new(7, head, 0x7C);
    for (size_t i = 0; i < r->n_scaling; i++) {
        const struct report_scaling *sc = &r->scaling[i];
        for (size_t k = 0; k < sc->n; k++) {
            const struct report_cell *c = &r->variants[sc->variants[k]].cells[sc->arm];
            char g[16], n[16], tot[32], pg[32], eff[32];
            snprintf(g, sizeof(g), "%d", c->guests);
            snprintf(n, sizeof(n), "%zu", c->tps_stats.n);
            const char *row[] = {
                c->arm->name, *sc->group ? sc->group : "-", g, n,
                report_human(tot, sizeof(tot), "%.2f", c->tps_stats.n ? c->tps_stats.mean : NAN),
                report_human(pg, sizeof(pg), "%.2f",
                             c->tps_stats.n ? c->per_guest_stats.mean : NAN),
                report_human(eff, sizeof(eff), "%.3f", c->efficiency)};
            report_table_add(t, row);
        }
    }
    return t;
}

/* ---- where the time goes (gap.h) ---- */

/* a figure, "n/a" when it could not be measured */
static const char *na_human(char *buf, size_t len, const char *format, double v)
{
    if (isnan(v) || isinf(v))
        return "n/a";
    snprintf(buf, len, format, v);
    return buf;
}

struct report_table *report_layers_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",          "layer",        "reads/tx",
                                       "writes/tx",    "flushes/tx",   "read wait/tx",
                                       "write wait/tx", "cache above", "hit ratio"};
    struct report_table *t = report_table_new(9, head, 0x1FC & ~0x80);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct gap_arm *g = &r->variants[variant].cells[a].layers;
        if (!g->targets)
            continue;
        for (int l = 0; l < GAP_LAYERS; l++) {
            if (!arm_has_layer(g, l))
                continue;
            const struct gap_layer_figures *f = &g->layer[l];
            char rd[32], wr[32], fl[32], rms[32], wms[32], hit[32];
            const char *cache = gap_layer_cache(l);
            const char *row[] = {r->rd->arms[a].name,
                                 gap_layer_name(l),
                                 na_human(rd, sizeof(rd), "%.2f", f->reads),
                                 na_human(wr, sizeof(wr), "%.2f", f->writes),
                                 na_human(fl, sizeof(fl), "%.2f", f->flushes),
                                 l == GAP_LAYER_INNODB ? "-"
                                                       : na_human(rms, sizeof(rms), "%.2f ms",
                                                                  f->read_ms),
                                 l == GAP_LAYER_INNODB ? "-"
                                                       : na_human(wms, sizeof(wms), "%.2f ms",
                                                                  f->write_ms),
                                 *cache ? cache : "-",
                                 *cache ? na_human(hit, sizeof(hit), "%.3f", f->hit) : "-"};
            report_table_add(t, row);
        }
    }
    return t;
}

/* "5.98 +- 0.12" (a 95 % CI), "5.98" (no CI: one run), "n/a" -- in ms */
static const char *ms_pm(char *buf, size_t len, double seconds, double ci)
{
    if (!isfinite(seconds))
        return "n/a";
    if (isfinite(ci))
        snprintf(buf, len, "%.2f +- %.2f", 1000 * seconds, 1000 * ci);
    else
        snprintf(buf, len, "%.2f", 1000 * seconds);
    return buf;
}

/* Per arm: the time per transaction and its parts, ms. */
struct report_table *report_time_table(const struct report *r, size_t variant)
{
    /* every time column in ms per transaction, said in each header */
    static const char *const head[] = {"arm",   "n",         "thread time/tx ms", "CPU ms",
                                       "server's compression ms", "contention ms", "reads ms",
                                       "commit I/O ms", "locks ms", "client ms", "other ms",
                                       "other %", "closes", "copies"};
    struct report_table *t = report_table_new(14, head, 0x2FFE);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct gap_arm *g = &r->variants[variant].cells[a].layers;
        if (!g->targets)
            continue;
        char n[24], w[48], p[GAP_PARTS][48], cmp[48], other[48], share[32], copies[32];
        snprintf(n, sizeof(n), "%zu", g->targets);
        bool budget = isfinite(gap_other(g));
        const char *row[] = {r->rd->arms[a].name,
                             n,
                             ms_pm(w, sizeof(w), g->w, g->w_ci),
                             ms_pm(p[GAP_CPU], 48, g->part[GAP_CPU], g->ci[GAP_CPU]),
                             g->cmp_in_cpu ? "n/a (in CPU)" : ms_pm(cmp, sizeof(cmp), g->cmp, g->cmp_ci),
                             ms_pm(p[GAP_CONTENTION], 48, g->part[GAP_CONTENTION], g->ci[GAP_CONTENTION]),
                             ms_pm(p[GAP_READS], 48, g->part[GAP_READS], g->ci[GAP_READS]),
                             ms_pm(p[GAP_COMMIT], 48, g->part[GAP_COMMIT], g->ci[GAP_COMMIT]),
                             ms_pm(p[GAP_LOCKS], 48, g->part[GAP_LOCKS], g->ci[GAP_LOCKS]),
                             ms_pm(p[GAP_CLIENT], 48, g->part[GAP_CLIENT], g->ci[GAP_CLIENT]),
                             ms_pm(other, sizeof(other), gap_other(g), g->other_ci),
                             na_human(share, sizeof(share), "%.1f %%", 100 * gap_other_share(g)),
                             !budget ? "n/a" : g->closes ? "yes" : "no",
                             na_human(copies, sizeof(copies), "%.2f", g->copies)};
        report_table_add(t, row);
    }
    return t;
}

struct report_table *report_tasks_table(const struct report *r, size_t variant)
{
    const char *head[2 + GAP_TASKS + 1] = {"arm", "chain's own"};
    for (int k = 0; k < GAP_TASKS; k++)
        head[2 + k] = gap_task_name(k);
    head[2 + GAP_TASKS] = "others, excluding the chain";
    struct report_table *t = report_table_new(3 + GAP_TASKS, head, ~1UL);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct gap_arm *g = &r->variants[variant].cells[a].layers;
        if (!g->guest || !g->targets || !isfinite(g->tasks[GAP_TASK_UNATTRIBUTED]))
            continue;
        char own[32], k[GAP_TASKS][32], other[32];
        const char *row[3 + GAP_TASKS] = {r->rd->arms[a].name,
                                          ms_pm(own, sizeof(own), g->oncpu + g->client_cpu, NAN)};
        for (int i = 0; i < GAP_TASKS; i++)
            row[2 + i] = ms_pm(k[i], sizeof(k[i]), g->tasks[i], NAN);
        row[2 + GAP_TASKS] = ms_pm(other, sizeof(other), g->guest_other, NAN);
        report_table_add(t, row);
    }
    return t;
}

/* "77.2" points, "n/a" */
static const char *points_human(char *buf, size_t len, const struct gap_split *s, double seconds)
{
    double pts = gap_points(s, seconds);
    if (isnan(pts))
        return "n/a";
    snprintf(buf, len, "%.1f", pts);
    return buf;
}

struct report_table *report_gap_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm", "vs", "loss", "part", "ms/tx", "points", "CI excludes 0"};
    struct report_table *t = report_table_new(7, head, 0x74);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        const struct gap_split *s = &c->gap;
        if (!s->valid)
            continue;
        char loss[32], ms[48], pts[32];
        const char *host = r->rd->arms[c->host_ref].name;
        na_human(loss, sizeof(loss), "%.1f %%", 100 * s->loss);
        const char *row0[] = {c->arm->name, host, loss, "difference",
                              ms_pm(ms, sizeof(ms), s->delta, s->delta_ci),
                              points_human(pts, sizeof(pts), s, s->delta), "-"};
        report_table_add(t, row0);
        for (int p = 0; p <= GAP_PARTS; p++) {
            bool res = p == GAP_PARTS;
            double v = res ? s->residual : s->part[p], sd = res ? s->residual_ci : s->ci[p];
            const char *row[] = {"", "", "", res ? "residual" : gap_split_part_name(p),
                                 ms_pm(ms, sizeof(ms), v, sd), points_human(pts, sizeof(pts), s, v),
                                 res ? (s->explained ? "explained" : "not explained")
                                 : !isfinite(v) || !isfinite(sd) ? "n/a"
                                 : gap_beyond_ci(v, sd) ? "yes" : "no"};
            report_table_add(t, row);
            if (p == GAP_CPU && isfinite(s->cmp) && (s->cmp != 0 || s->cmp_ci > 0)) {
                const char *crow[] = {"", "", "",
                                      gap_cmp_within_cpu(s->cmp, v) ? "  of which server's compression" : "  server's compression",
                                      ms_pm(ms, sizeof(ms), s->cmp, s->cmp_ci),
                                      points_human(pts, sizeof(pts), s, s->cmp),
                                      !isfinite(s->cmp_ci) ? "n/a" : gap_beyond_ci(s->cmp, s->cmp_ci) ? "yes" : "no"};
                report_table_add(t, crow);
            }
        }
    }
    return t;
}

struct report_table *report_prediction_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",       "from",      "pool",   "reads/tx",
                                       "read path", "read wait", "predicted TPS/guest",
                                       "measured TPS/guest",     "error",  "at one speed",
                                       "no change", "tolerance", "verdict"};
    struct report_table *t = report_table_new(13, head, 0x7EC);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        struct prediction p;
        predict_arm(r, variant, a, &p);
        if (!p.valid)
            continue;
        char pool[48], reads[32], lat[32], pred[32], meas[48], err[32], one[32], null[32], tol[32];
        snprintf(pool, sizeof(pool), "%.0f MiB%s", p.pool_a / 1048576, p.pool_auto ? " (auto)" : "");
        snprintf(reads, sizeof(reads), "%.2f", p.reads_a);
        /* on the device path, its resolution over the reads it rests on */
        if (isfinite(p.lat_a_res))
            snprintf(lat, sizeof(lat), "%.3f +- %.3f ms", 1000 * p.lat_a, 1000 * p.lat_a_res);
        else
            snprintf(lat, sizeof(lat), "%.3f ms", 1000 * p.lat_a);
        snprintf(pred, sizeof(pred), "%.2f", p.predicted);
        if (p.measured_ci > 0)
            snprintf(meas, sizeof(meas), "%.2f +- %.2f", p.measured, p.measured_ci);
        else
            na_human(meas, sizeof(meas), "%.2f", p.measured);
        const char *row[] = {r->rd->arms[a].name,
                             r->rd->arms[p.from].name,
                             pool,
                             reads,
                             p.path,
                             p.reads_a > 0 ? lat : "-",
                             pred,
                             isfinite(p.measured) ? meas : "n/a",
                             na_human(err, sizeof(err), "%+.1f %%", 100 * p.error),
                             p.speed_fitted
                                 ? na_human(one, sizeof(one), "%+.1f %%", 100 * p.error_at_speed)
                                 : "-",
                             na_human(null, sizeof(null), "%+.1f %%",
                                      100 * prediction_null_error(&p)),
                             p.single_repeat ? "n/a" : na_human(tol, sizeof(tol), "+-%.1f %%", 100 * p.tolerance),
                             !p.judged ? "not judged" : p.agrees ? "agrees" : p.cannot_tell ? "cannot tell" : "does not agree"};
        report_table_add(t, row);
    }
    return t;
}

/* What a buffer-pool miss adds to a statement in each arm (the miss-cost
 * probe), one sentence; "" when no arm has the figure */
static void miss_costs(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0, known = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        const struct gap_arm *g = &r->variants[variant].cells[a].layers;
        if (!g->targets)
            continue;
        known += isfinite(g->miss_cost);
        char v[32];
        if (isfinite(g->miss_cost))
            snprintf(v, sizeof(v), "%.2f ms", 1000 * g->miss_cost);
        else
            snprintf(v, sizeof(v), "n/a");
        used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "",
                                 r->rd->arms[a].name, v);
    }
    if (!known)
        buf[0] = '\0';
}

void report_prediction_brief(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        if (!r->variants[variant].cells[a].layers.guest || (int)a == r->first_guest_arm ||
            !r->variants[variant].cells[a].layers.targets)
            continue;
        struct prediction p;
        predict_arm(r, variant, a, &p);
        const char *name = r->rd->arms[a].name;
        const char *from = r->first_guest_arm >= 0 ? r->rd->arms[r->first_guest_arm].name : "";
        char line[512];
        if (!p.valid) {
            snprintf(line, sizeof(line), "%s: no prediction from %s: %s.", name, from, p.why);
        } else if (!isfinite(p.error)) {
            snprintf(line, sizeof(line), "%s: predicted %.2f TPS per guest from %s's budget.", name,
                     p.predicted, from);
        } else {
            char one[48] = "", tail[160];
            if (p.speed_fitted)
                snprintf(one, sizeof(one), "; at one machine speed %+.1f %%", 100 * p.error_at_speed);
            double null = prediction_null_error(&p);
            if (p.single_repeat)
                snprintf(tail, sizeof(tail), " -- not judged: one run, no CI");
            else
                snprintf(tail, sizeof(tail), "; no change %+.1f %%; tolerance +-%.1f %% -- %s", 100 * null,
                         100 * p.tolerance,
                         !p.judged ? "not judged (above 50 %)"
                         : p.agrees ? "agrees, and no change does not"
                         : p.cannot_tell ? "cannot tell from no change"
                                         : "does not agree");
            snprintf(line, sizeof(line), "%s: predicted %.2f TPS per guest from %s's budget, measured %.2f: "
                     "%+.1f %%%s%s.", name, p.predicted, from, p.measured, 100 * p.error, one, tail);
        }
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "\n" : "", line);
    }
}

void report_prediction_text(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        struct prediction p;
        predict_arm(r, variant, a, &p);
        if (!r->variants[variant].cells[a].layers.guest || (int)a == r->first_guest_arm ||
            !r->variants[variant].cells[a].layers.targets)
            continue;
        const char *name = r->rd->arms[a].name, *from = r->first_guest_arm >= 0
                                                             ? r->rd->arms[r->first_guest_arm].name
                                                             : "";
        if (!p.valid)
            used += (size_t)snprintf(buf + used, len - used, "%s%s: no prediction from %s: %s.",
                                     used ? "\n" : "", name, from, p.why);
        else if (!isfinite(p.error))
            used += (size_t)snprintf(buf + used, len - used,
                                     "%s%s: predicted %.2f TPS per guest from %s's budget.",
                                     used ? "\n" : "", name, p.predicted, from);
        else {
            char saved[420], dev_reads[120] = "";
            /* said where it moves the predicted side by 0.1 % or more */
            if (isfinite(p.lat_a_res) && p.input_rel >= 0.001)
                snprintf(dev_reads, sizeof(dev_reads),
                         " (+- %.3f ms: %.0f device reads; %.1f %% of the predicted side)",
                         1000 * p.lat_a_res, p.lat_a_reads, 100 * p.input_rel);
            if (isfinite(p.path_cost))
                snprintf(saved, sizeof(saved),
                         "%.2f buffer-pool misses per transaction, %s's %.2f, of them the chain's "
                         "own %.2f and %.2f, each costing %.2f ms there and %.2f ms on its path: a "
                         "read through %s's virtual disk costs %.3f ms more than from its page "
                         "cache",
                         p.misses_a, from, p.misses_g, p.own_a, p.own_g, 1000 * p.miss_cost,
                         1000 * p.path_cost, from, 1000 * p.read_extra);
            else if (isfinite(p.miss_cost))
                snprintf(saved, sizeof(saved),
                         "%.2f buffer-pool misses per transaction, %s's %.2f, of them the chain's "
                         "own %.2f and %.2f, each costing %.2f ms there",
                         p.misses_a, from, p.misses_g, p.own_a, p.own_g, 1000 * p.miss_cost);
            else
                snprintf(saved, sizeof(saved),
                         "decompression %.2f ms per transaction, %s's %.2f; no miss cost measured",
                         1000 * p.decomp_a, from, 1000 * p.decomp_g);
            char verdict[240], at_one[32];
            if (p.single_repeat)
                snprintf(verdict, sizeof(verdict),
                         " -- not judged: one repeat of %s leaves its run-to-run spread unknown (here "
                         "repeats of one arm have moved by tens of %%; 3 or more measure it)",
                         r->variants[variant].cells[a].per_guest_stats.n < 2 ? name : from);
            else
            {
                double err = p.speed_fitted ? p.error_at_speed : p.error;
                double null = prediction_null_error(&p);
                snprintf(verdict, sizeof(verdict), "%s%s; no change would be off by %+.1f %%; tolerance "
                         "+-%.1f %% (the difference's 95 %% CI)%s",
                         p.speed_fitted ? "; at one machine speed " : "",
                         p.speed_fitted ? na_human(at_one, sizeof(at_one), "%+.1f %%", 100 * err) : "",
                         100 * null, 100 * p.tolerance,
                         !p.judged ? " -- not judged: above 50 %, more repeats narrow it"
                         : p.agrees ? " -- the prediction agrees, and no change does not"
                         : p.cannot_tell ? " -- cannot tell from no change"
                                         : " -- it does not agree");
            }
            used += (size_t)snprintf(
                buf + used, len - used,
                "%s%s: predicted %.2f TPS per guest from %s's budget (%.2f foreground reads per "
                "transaction at %.3f ms, through the %s%s; %s), measured %.2f: %+.1f %%%s.",
                used ? "\n" : "", name, p.predicted, from, p.reads_a, 1000 * p.lat_a, p.path,
                dev_reads, saved, p.measured, 100 * p.error, verdict);
            char io[300] = "";
            if (p.io_priced)
                snprintf(io, sizeof(io),
                         "; on its O_DIRECT path the background's requests through the virtual "
                         "disk add %.2f ms: %.2f reads by other threads at %.3f ms and %.2f page "
                         "writes at %.3f ms of %s each, beyond the page cache's",
                         1000 * p.io_cpu_a, p.bg_reads_a, 1000 * p.read_cpu_extra, p.writes_a,
                         1000 * p.write_cpu_extra,
                         p.io_host ? "the guest's process's CPU on the host" : "fio's CPU in the guest");
            if (p.contention_scaled && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " Its CPU contention %.2f ms per transaction against %s's %.2f: the chain "
                    "waits while its guest's other tasks (%.2f ms of CPU per transaction in %s, "
                    "of it %.2f InnoDB's background, which goes with the misses%s: %.2f predicted) "
                    "or its client (%.2f ms) run.",
                    1000 * p.contention_a, from, 1000 * p.contention_g, 1000 * p.others_g, from,
                    1000 * p.background_g, io, 1000 * p.others_a, 1000 * p.client_g);
            else if (used + 1 < len)
                used += (size_t)snprintf(buf + used, len - used,
                                         " Its CPU contention held at %s's (%s's CPU by task is not known).",
                                         from, from);
            if (isfinite(p.gain_rel) && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " Its gain over %s (%s's time per transaction / the predicted) moves by +- %.1f "
                    "%% (95 %% CI) leaving out one of %s's %d runs at a time (its miss cost, probes, "
                    "reads and contention from the rest): part of the tolerance.",
                    from, from, 100 * p.gain_rel, from, p.gain_runs);
            if (!p.speed_fitted && *p.speed_why && used + 1 < len)
                used += (size_t)snprintf(buf + used, len - used,
                                         " Not judged at one machine speed: %s.", p.speed_why);
            if (p.speed_fitted && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " The machine's speed gauge (a zlib job's CPU ms a unit on the host) read %.2f "
                    "ms while it measured, %.2f ms while %s did (%+.1f %%); over the run's %zu guest "
                    "runs TPS per guest went as the gauge to the power %.2f +- %.2f (fitted within "
                    "each arm's repeats): at one speed it is %+.1f %% from the prediction (%.2f at "
                    "its speed), +- %.0f %% (95 %% CI).",
                    p.unit_a_ms, p.unit_g_ms, from, 100 * (p.unit_a_ms / p.unit_g_ms - 1),
                    p.speed_runs, p.elasticity, p.elasticity_half, 100 * p.error_at_speed,
                    p.predicted_at_speed, 100 * p.speed_half);
            else if (isfinite(p.error_at_speed) && p.speed_of_guests && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " Its guests took %.0f ms of their CPU for the speed job (gzip in each guest "
                    "after its measure phase), %s's %.0f ms (%+.0f %%): at that speed, with %s's "
                    "CPU-bound share of %.0f %%, the prediction is %.2f (%+.1f %%; not in the "
                    "verdict).",
                    p.unit_a_ms, from, p.unit_g_ms, 100 * (p.unit_a_ms / p.unit_g_ms - 1), from,
                    100 * p.cpu_share, p.predicted_at_speed, 100 * p.error_at_speed);
            else if (isfinite(p.error_at_speed) && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " This machine's CPU took %.2f ms for the speed probe's job while it measured, "
                    "%.2f ms while %s did (%+.0f %%): at that speed, with %s's CPU-bound share of "
                    "%.0f %%, the prediction is %.2f (%+.1f %%; not in the verdict).",
                    p.unit_a_ms, p.unit_g_ms, from, 100 * (p.unit_a_ms / p.unit_g_ms - 1), from,
                    100 * p.cpu_share, p.predicted_at_speed, 100 * p.error_at_speed);
            if (isfinite(p.implied_miss_cost) && used + 1 < len)
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " Its measured TPS%s%s%s says each of the %.2f misses of the chain's own "
                    "per transaction it saved was worth %.2f ms, against the probe's %.2f ms.",
                    isfinite(p.error_at_speed) ? " (at " : "", isfinite(p.error_at_speed) ? from : "",
                    isfinite(p.error_at_speed) ? "'s speed)" : "", p.own_g - p.own_a,
                    1000 * p.implied_miss_cost, 1000 * p.miss_cost);
            /* known only where the implied cost is (predict.h) */
            if (isfinite(p.saved_cpu) && isfinite(p.saved_contention) && used + 1 < len) {
                used += (size_t)snprintf(
                    buf + used, len - used,
                    " Against %s's budget, per such miss saved, its CPU fell by %.2f ms and its CPU "
                    "contention by %.2f ms (as measured, each at its own speed)",
                    from, 1000 * p.saved_cpu, 1000 * p.saved_contention);
                if (isfinite(p.saved_contention_model) && used + 1 < len)
                    used += (size_t)snprintf(buf + used, len - used, ", the model's by %.2f ms",
                                             1000 * p.saved_contention_model);
                else if (used + 1 < len)
                    used += (size_t)snprintf(buf + used, len - used,
                                             ", the model's by none (held at %s's)", from);
                if (isfinite(p.saved_other) && used + 1 < len)
                    used += (size_t)snprintf(buf + used, len - used,
                                             "; the CPU of the guest's other tasks (its busy CPU "
                                             "less the chain's) fell by %.2f ms",
                                             1000 * p.saved_other);
                if (used + 1 < len)
                    used += (size_t)snprintf(buf + used, len - used, ".");
            }
        }
    }
    char costs[1024];
    miss_costs(r, variant, costs, sizeof(costs));
    if (*costs && used + 1 < len)
        snprintf(buf + used, len - used,
                 "%sWhat a buffer-pool miss adds to a statement, measured after each measure phase "
                 "(lookups on pages outside the pool against the same lookups again; n/a: the pool "
                 "holds the table): %s.",
                 used ? "\n" : "", costs);
}

void report_pscost_text(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        const struct stats_summary *p = &r->variants[variant].cells[a].ps_on_off;
        if (!p->n)
            continue;
        used += (size_t)snprintf(buf + used, len - used,
                                 "%s%s %.3f +- %.3f (%zu pair%s: %s)", used ? "; " : "",
                                 r->rd->arms[a].name, p->mean, p->ci95_half, p->n,
                                 p->n == 1 ? "" : "s",
                                 p->n < 2 ? "no interval"
                                 : p->mean + p->ci95_half < 1 ? "a cost"
                                 : p->mean - p->ci95_half > 1 ? "faster with them on"
                                                              : "no cost resolved");
    }
    if (!used)
        return;
    char head[] = "performance_schema's instruments switched off and on in slices (ps_cost), TPS "
                  "on / off, mean +- 95 % CI over the pairs: ";
    size_t hl = strlen(head);
    if (used + hl + 2 < len) {
        memmove(buf + hl, buf, used + 1);
        memcpy(buf, head, hl);
        used += hl;
        snprintf(buf + used, len - used, ".");
    }
}

/* Each arm's budget: whether it closes, one sentence per arm. */
void report_budget_text(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char line[1024];
        gap_budget_sentence(&c->layers, c->arm->name, line, sizeof(line));
        if (*line)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "\n" : "", line);
    }
}

void report_gap_text(const struct report *r, size_t variant, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char line[2048];
        gap_sentence(&c->gap, c->arm->name, c->host_ref >= 0 ? r->rd->arms[c->host_ref].name : "",
                     line, sizeof(line));
        if (*line)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "\n" : "", line);
    }
    /* what each tuning won against the untuned guest */
    for (size_t a = 0; a < r->rd->n_arms && used + 1 < len; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char line[2048];
        if (r->first_guest_arm < 0)
            break;
        gap_sentence(&c->gap_guest, c->arm->name, r->rd->arms[r->first_guest_arm].name, line,
                     sizeof(line));
        if (*line)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "\n" : "", line);
    }
}

/* A line of prose no wider than REPORT_WIDTH: s after prefix, wrapped at
 * spaces, continuation lines indented four spaces past the prefix (a word longer than
 * the width stays whole). */
#define REPORT_WIDTH 150
static void print_wrapped(FILE *out, const char *s, const char *prefix)
{
    size_t indent = strlen(prefix), room = REPORT_WIDTH > indent + 20 ? REPORT_WIDTH - indent : 20;
    size_t pad_n = 0;
    bool first = true;
    while (*s) {
        size_t n = strlen(s), cut = n;
        size_t width = first ? room : room - 4;
        if (n > width) {
            cut = width;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0) { /* one long word: up to the next space */
                cut = width;
                while (s[cut] && s[cut] != ' ')
                    cut++;
            }
        }
        fprintf(out, "%s%*s%.*s\n", first ? prefix : "", (int)pad_n, "", (int)cut, s);
        pad_n = indent + 4;
        first = false;
        s += cut;
        while (*s == ' ')
            s++;
    }
}

/* each line of text (cut in place), after prefix, wrapped */
static void print_lines(FILE *out, char *text, const char *prefix)
{
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        print_wrapped(out, line, prefix);
    }
}

/* The layers and where the time goes, of one variant. */
static void print_gap_text(const struct report *r, size_t v, enum report_format f, FILE *out)
{
    bool md = f == REPORT_MARKDOWN;
    const char *ind = md ? "" : "  ";
    fprintf(out, "\n%sLayers, per transaction\n\n", md ? "### " : ind);
    struct report_table *t = report_layers_table(r, v);
    report_table_print(t, f, out, ind);
    report_table_free(t);
    fprintf(out, "\n%sWhere the time goes, per thread and transaction\n\n", md ? "### " : ind);
    t = report_time_table(r, v);
    report_table_print(t, f, out, ind);
    report_table_free(t);
    char budget[4096];
    report_budget_text(r, v, budget, sizeof(budget));
    if (*budget) {
        fputs("\n", out);
        print_lines(out, budget, md ? "- " : ind);
    }
    t = report_tasks_table(r, v);
    if (t->nrows) {
        fprintf(out, "\n%sA guest's CPU per transaction, by task, ms\n\n", md ? "### " : ind);
        report_table_print(t, f, out, ind);
    }
    report_table_free(t);
    t = report_gap_table(r, v);
    if (t->nrows) {
        fputs("\n", out);
        report_table_print(t, f, out, ind);
    }
    report_table_free(t);
    char text[8192];
    report_gap_text(r, v, text, sizeof(text));
    if (*text) {
        fputs("\n", out);
        print_lines(out, text, md ? "- " : ind);
    }
    t = report_prediction_table(r, v);
    if (r->explain)
        report_prediction_text(r, v, text, sizeof(text));
    else
        report_prediction_brief(r, v, text, sizeof(text));
    if (t->nrows || *text)
        fprintf(out, "\n%sPredicted from the untuned guest's budget\n", md ? "### " : ind);
    if (t->nrows) {
        fputs("\n", out);
        report_table_print(t, f, out, ind);
    }
    report_table_free(t);
    if (*text) {
        fputs("\n", out);
        print_lines(out, text, md ? "- " : ind);
    }
}

static void print_text(const struct report *r, enum report_format f, FILE *out)
{
    const struct results_data *rd = r->rd;
    bool md = f == REPORT_MARKDOWN;
    const char *warn = report_accel_warning(r);
    fprintf(out, "%svbed report: %s (%s)", md ? "# " : "", rd->scenario_name,
            *rd->status ? rd->status : "status unknown");
    if (*rd->started_at)
        fprintf(out, ", %s to %s", rd->started_at, *rd->ended_at ? rd->ended_at : "?");
    fputs("\n", out);
    if (md)
        fputs("\n", out);
    if (warn)
        fprintf(out, "%sWARNING: accel is tcg.%s %s\n", md ? "> **" : "", md ? "**" : "", warn);
    else
        fprintf(out, "accel: %s\n", *rd->accel ? rd->accel : "unknown");
    /* the answer first, per variant */
    for (size_t v = 0; v < rd->n_variants; v++) {
        char answer[4096];
        report_answer_text(r, v, answer, sizeof(answer));
        if (!*answer)
            continue;
        if (rd->n_variants > 1)
            fprintf(out, "%sAnswer, variant %d: %s\n%s", md ? "\n## " : "\n", r->variants[v].variant->index,
                    r->variants[v].variant->label, md ? "\n" : "");
        else
            fprintf(out, "%sAnswer\n%s", md ? "\n## " : "\n", md ? "\n" : "");
        print_lines(out, answer, md ? "- " : "  ");
    }
    if (*rd->order_mode && rd->has_order_seed)
        fprintf(out, "%srun order: %s (seed %lld)\n", md ? "\n" : "", rd->order_mode,
                (long long)rd->order_seed);
    else if (*rd->order_mode)
        fprintf(out, "%srun order: %s\n", md ? "\n" : "", rd->order_mode);
    if (r->explain && strstr(r->headline, "MB/s"))
        fprintf(out, "%s%s\n", md ? "\n" : "", report_mbps_rule);
    if (r->explain && strstr(r->headline, "TPS"))
        fprintf(out, "%s%s\n", md ? "\n" : "", report_tps_rule);
    if (r->explain && r->headline_other)
        fprintf(out, "%s%s\n", md ? "\n" : "", report_other_rule);
    for (size_t v = 0; v < rd->n_variants; v++) {
        char ratios[1024];
        fprintf(out, "\n%sVariant %d: %s\n\n", md ? "## " : "", r->variants[v].variant->index,
                r->variants[v].variant->label);
        struct report_table *t = report_tps_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        report_ratios_text(r, v, ratios, sizeof(ratios));
        if (*ratios)
        {
            char line[1200];
            snprintf(line, sizeof(line), "Ratios of mean %s: %s", r->headline, ratios);
            fputs("\n", out);
            print_wrapped(out, line, md ? "" : "  ");
        }
        speed_ratios_text(r, v, ratios, sizeof(ratios));
        if (*ratios) {
            if (md)
                fputs("\n", out);
            print_wrapped(out, ratios, md ? "" : "  ");
        }
        fputs("\n", out);
        t = report_conditions_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        fputs("\n", out);
        t = report_figures_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        char ps[2048];
        report_pscost_text(r, v, ps, sizeof(ps));
        if (*ps) {
            fputs("\n", out);
            print_wrapped(out, ps, md ? "" : "  ");
        }
        if (r->has_layers)
            print_gap_text(r, v, f, out);
    }
    struct report_table *sc = report_scaling_table(r);
    if (sc) {
        fprintf(out, "\n%sScaling with the number of guests\n\n", md ? "## " : "");
        report_table_print(sc, f, out, md ? "" : "  ");
        report_table_free(sc);
        if (r->explain)
            fprintf(out, "\n%s%s\n", md ? "" : "  ", report_scaling_rule);
    }
    struct report_table *ht = report_hosts_table(r);
    if (ht) {
        fprintf(out, "\n%sBy hypervisor host (arms whose guests ran on several hosts)\n\n", md ? "## " : "");
        report_table_print(ht, f, out, md ? "" : "  ");
        report_table_free(ht);
    }
    if (r->explain) {
        fprintf(out, "\n%s\n", report_figures_rule);
        if (r->has_layers)
            fprintf(out, "\n%s\n\n%s\n", report_gap_rule, report_prediction_rule);
    } else {
        fputs("\n", out);
        print_wrapped(out, report_method_pointer, "");
    }
    if (r->n_notes) {
        fprintf(out, "\n%sNotes\n%s", md ? "## " : "", md ? "\n" : "");
        for (size_t i = 0; i < r->n_notes; i++)
            print_wrapped(out, r->notes[i].text, md ? "- " : "  - ");
    }
}

void report_print(const struct report *r, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        report_print_json(r, out);
    } else if (f == REPORT_CSV) {
        report_print_csv(r, out);
    } else {
        print_text(r, f, out);
    }
}
