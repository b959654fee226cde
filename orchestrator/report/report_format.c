/* report_format.c: the report's tables (per variant: TPS, conditions,
 * figures; scaling; summary.csv's) and its text formats (table, markdown,
 * json, csv), all fed from one struct report (see report.h). */
#include "report/report.h"

#include "results/verdicts.h"
#include "util/log.h"
#include "util/paths.h"

#include <errno.h>

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
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

/* "yes", "no (1 of 3 runs)" or "-" (nothing recorded) */
static const char *steady_human(char *buf, size_t len, const struct report_cell *c)
{
    int bad = c->runs_drifted > c->warmup_not_steady ? c->runs_drifted : c->warmup_not_steady;
    if (c->drift_samples == 0 && isnan(c->warmup_s))
        return "-";
    if (bad == 0)
        return "yes";
    snprintf(buf, len, "no (%d of %zu runs)", bad, c->tps_stats.n);
    return buf;
}

const char *report_noise_verdict(const struct report_cell *c)
{
    if (isnan(c->host_steal_max) && isnan(c->host_other_max) && isnan(c->guest_steal_max))
        return "n/a";
    return c->noisy_runs ? "noisy" : "quiet";
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
            spread ? report_human(ci, sizeof(ci), "± %.2f", s->ci95_half) : "-",
            report_human(sd, sizeof(sd), "%.2f", spread ? s->sd : NAN),
            report_human(cv, sizeof(cv), "%.1f%%", spread ? 100 * s->cv : NAN),
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
                                       "pin"};
    struct report_table *t = report_table_new(9, head, 0x74);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        char warm[48], steady[48], hs[32], ho[32], gs[32];
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

const char report_gap_rule[] =
    "Where the time goes: per target, a thread spends k x W / T seconds per transaction (k "
    "threads, W seconds measured, T transactions): CPU (a guest's QEMU process; the host arm's "
    "mariadbd and sysbench) per transaction, of which compression CPU (INNODB_CMP times), read "
    "wait and write + flush wait (the guest's data disk; the host arm's block device), and other "
    "(the rest); means over targets and repeats. A guest arm's difference from the host arm splits "
    "into CPU (virtualization/emulation), compression CPU, reads a cache above would have served, "
    "writes and flushes, and a residual; points of loss = part / difference x loss x 100, where "
    "loss = 1 - TPS per guest / host TPS. The model explains a run when the residual is within 15 % "
    "of the difference. n/a: a counter vbed could not read (never 0); its time is in the residual. "
    "Layers: requests per transaction at each layer and the hit ratio of the cache above it; "
    "copies: the data held at once in the buffer pool, the guest page cache and the host page "
    "cache, in working sets.";

/* a figure, "n/a" when it could not be measured */
static const char *na_human(char *buf, size_t len, const char *format, double v)
{
    if (isnan(v) || isinf(v))
        return "n/a";
    snprintf(buf, len, format, v);
    return buf;
}

/* the layers of an arm that it has (a host arm has no guest and QEMU) */
static bool arm_has_layer(const struct gap_arm *g, int l)
{
    return g->guest || l == GAP_LAYER_INNODB || l == GAP_LAYER_HOST;
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

/* Per arm: the time per transaction and its parts, ms. */
struct report_table *report_time_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",    "n",      "thread time/tx", "CPU",  "of which compression",
                                       "reads",  "writes", "other",          "copies"};
    struct report_table *t = report_table_new(9, head, 0x1FE);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct gap_arm *g = &r->variants[variant].cells[a].layers;
        if (!g->targets)
            continue;
        char n[24], w[32], cpu[32], cmp[48], rd[32], wr[32], other[32], copies[32];
        snprintf(n, sizeof(n), "%zu", g->targets);
        const char *row[] = {r->rd->arms[a].name,
                             n,
                             na_human(w, sizeof(w), "%.2f ms", 1000 * g->w),
                             na_human(cpu, sizeof(cpu), "%.2f ms", 1000 * g->cpu),
                             g->cmp_in_cpu ? "n/a (in CPU)"
                                           : na_human(cmp, sizeof(cmp), "%.2f ms", 1000 * g->cmp),
                             na_human(rd, sizeof(rd), "%.2f ms", 1000 * g->rd),
                             na_human(wr, sizeof(wr), "%.2f ms", 1000 * g->wr),
                             na_human(other, sizeof(other), "%.2f ms", 1000 * gap_other(g)),
                             na_human(copies, sizeof(copies), "%.2f", g->copies)};
        report_table_add(t, row);
    }
    return t;
}

/* "77.2 pts (64.30 ms)", "n/a" */
static const char *part_human(char *buf, size_t len, const struct gap_split *s, double seconds)
{
    double pts = gap_points(s, seconds);
    if (isnan(seconds))
        return "n/a";
    if (isnan(pts))
        snprintf(buf, len, "%.2f ms", 1000 * seconds);
    else
        snprintf(buf, len, "%.1f pts (%.2f ms)", pts, 1000 * seconds);
    return buf;
}

struct report_table *report_gap_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",   "vs",    "loss",   "difference/tx", "CPU virt.",
                                       "compression CPU", "reads", "writes", "residual",
                                       "explained"};
    struct report_table *t = report_table_new(10, head, 0x1FC);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        const struct gap_split *s = &c->gap;
        if (!s->valid)
            continue;
        char loss[32], d[32], p[GAP_PARTS][64], res[64];
        const char *row[] = {
            c->arm->name,
            r->rd->arms[c->host_ref].name,
            na_human(loss, sizeof(loss), "%.1f %%", 100 * s->loss),
            na_human(d, sizeof(d), "%.2f ms", 1000 * s->delta),
            part_human(p[GAP_CPU_VIRT], 64, s, s->part[GAP_CPU_VIRT]),
            part_human(p[GAP_CPU_CMP], 64, s, s->part[GAP_CPU_CMP]),
            part_human(p[GAP_READS], 64, s, s->part[GAP_READS]),
            part_human(p[GAP_WRITES], 64, s, s->part[GAP_WRITES]),
            part_human(res, sizeof(res), s, s->residual),
            s->explained ? "yes" : "no"};
        report_table_add(t, row);
    }
    return t;
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
}

static const char *basis_name(double ratio, bool per_guest)
{
    return isnan(ratio) ? "" : per_guest ? "per_guest" : "aggregate";
}

#define SUMMARY_COLS 41

struct report_table *report_summary_table(const struct report *r)
{
    static const char *const head[SUMMARY_COLS] = {
        "variant", "variant_label", "arm", "arm_kind", "accel", "guests", "n", "tps_mean",
        "tps_sd", "tps_ci95_low", "tps_ci95_high", "tps_ci95_half", "tps_cv", "ratio_vs_host",
        "ratio_vs_first_guest", "compression_ratio", "bp_hit_ratio", "host_cache_data_bytes_after",
        "latency_p95_ms", "drift_flagged", "drift_checked", "measure_start_skew_max_s",
        "tps_per_guest_mean", "tps_per_guest_ci95_half", "ratio_vs_host_basis",
        "ratio_vs_first_guest_basis", "consolidation_efficiency", "runs_drifted", "fits",
        "fits_basis", "working_set_bytes", "buffer_pool_bytes", "warmup_s", "warmup_mode",
        "warmup_not_steady", "host_steal_pct_max", "host_other_cpu_pct_max",
        "guest_steal_pct_max", "noisy_runs", "pin", "unit"};
    struct report_table *t = report_table_new(SUMMARY_COLS, head, 0);
    for (size_t v = 0; v < r->rd->n_variants; v++) {
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            const struct stats_summary *s = &c->tps_stats;
            bool any = s->n > 0, spread = s->n >= 2;
            char b[SUMMARY_COLS][32];
            snprintf(b[0], 32, "%d", r->variants[v].variant->index);
            snprintf(b[5], 32, "%d", c->guests);
            snprintf(b[6], 32, "%zu", s->n);
            snprintf(b[19], 32, "%d", c->drifting);
            snprintf(b[20], 32, "%d", c->drift_samples);
            snprintf(b[27], 32, "%d", c->runs_drifted);
            snprintf(b[34], 32, "%d", c->warmup_not_steady);
            snprintf(b[38], 32, "%d", c->noisy_runs);
            const char *row[SUMMARY_COLS] = {
                /* the host arm runs on the bare host whatever the guests ran under */
                b[0], r->variants[v].variant->label, c->arm->name, c->arm->kind,
                strcmp(c->arm->kind, "host") == 0 ? "none" : r->rd->accel,
                b[5], b[6], report_number(b[7], 32, any ? s->mean : NAN),
                report_number(b[8], 32, spread ? s->sd : NAN),
                report_number(b[9], 32, spread ? s->ci95_low : NAN),
                report_number(b[10], 32, spread ? s->ci95_high : NAN),
                report_number(b[11], 32, spread ? s->ci95_half : NAN),
                report_number(b[12], 32, spread ? s->cv : NAN),
                report_number(b[13], 32, c->ratio_host),
                report_number(b[14], 32, c->ratio_first_guest),
                report_number(b[15], 32, c->compression_ratio),
                report_number(b[16], 32, c->bp_hit_ratio),
                report_number(b[17], 32, c->host_cache_after_bytes),
                report_number(b[18], 32, c->latency_p95_ms), b[19], b[20],
                report_number(b[21], 32, c->skew_max_s),
                report_number(b[22], 32, any ? c->per_guest_stats.mean : NAN),
                report_number(b[23], 32, spread ? c->per_guest_stats.ci95_half : NAN),
                basis_name(c->ratio_host, c->ratio_host_per_guest),
                basis_name(c->ratio_first_guest, c->ratio_first_guest_per_guest),
                report_number(b[26], 32, c->efficiency), b[27], c->fits, c->fits_basis,
                report_number(b[30], 32, c->working_set_bytes),
                report_number(b[31], 32, c->buffer_pool_bytes),
                report_number(b[32], 32, c->warmup_s), c->warmup_mode, b[34],
                report_number(b[35], 32, c->host_steal_max),
                report_number(b[36], 32, c->host_other_max),
                report_number(b[37], 32, c->guest_steal_max), b[38], c->pin, c->unit};
            report_table_add(t, row);
        }
    }
    return t;
}

/* ---- the formats ---- */

static struct json_object *jnum(double v)
{
    char buf[32];
    if (isnan(v) || isinf(v))
        return NULL;
    return json_object_new_double_s(v, report_number(buf, sizeof(buf), v));
}

/* a string, null when empty (not known) */
static struct json_object *jstr(const char *s) { return *s ? json_object_new_string(s) : NULL; }

static struct json_object *jcell(const struct report_cell *c)
{
    const struct stats_summary *s = &c->tps_stats;
    bool any = s->n > 0, spread = s->n >= 2;
    struct json_object *o = json_object_new_object(), *tps = json_object_new_object(),
                       *values = json_object_new_array(), *runs = json_object_new_array();
    json_object_object_add(o, "name", json_object_new_string(c->arm->name));
    json_object_object_add(o, "kind", json_object_new_string(c->arm->kind));
    json_object_object_add(o, "guests", json_object_new_int(c->guests));
    json_object_object_add(tps, "n", json_object_new_int64((int64_t)s->n));
    json_object_object_add(tps, "mean", jnum(any ? s->mean : NAN));
    json_object_object_add(tps, "sd", jnum(spread ? s->sd : NAN));
    json_object_object_add(tps, "ci95_low", jnum(spread ? s->ci95_low : NAN));
    json_object_object_add(tps, "ci95_high", jnum(spread ? s->ci95_high : NAN));
    json_object_object_add(tps, "ci95_half", jnum(spread ? s->ci95_half : NAN));
    json_object_object_add(tps, "cv", jnum(spread ? s->cv : NAN));
    for (size_t i = 0; i < s->n; i++) {
        json_object_array_add(values, jnum(c->tps[i]));
        json_object_array_add(runs, json_object_new_int(c->tps_seq[i]));
    }
    json_object_object_add(tps, "values", values);
    json_object_object_add(tps, "runs", runs);
    json_object_object_add(tps, "unit", jstr(c->unit)); /* tx/s, or MB/s for raw I/O */
    json_object_object_add(o, "tps", tps);
    struct json_object *pg = json_object_new_object(), *pgv = json_object_new_array();
    const struct stats_summary *p = &c->per_guest_stats;
    json_object_object_add(pg, "mean", jnum(any ? p->mean : NAN));
    json_object_object_add(pg, "ci95_half", jnum(spread ? p->ci95_half : NAN));
    for (size_t i = 0; i < s->n; i++)
        json_object_array_add(pgv, jnum(c->per_guest[i]));
    json_object_object_add(pg, "values", pgv);
    json_object_object_add(o, "tps_per_guest", pg);
    json_object_object_add(o, "ratio_vs_host", jnum(c->ratio_host));
    json_object_object_add(o, "ratio_vs_host_basis", jstr(basis_name(c->ratio_host,
                                                                      c->ratio_host_per_guest)));
    json_object_object_add(o, "ratio_vs_first_guest", jnum(c->ratio_first_guest));
    json_object_object_add(o, "ratio_vs_first_guest_basis",
                           jstr(basis_name(c->ratio_first_guest, c->ratio_first_guest_per_guest)));
    json_object_object_add(o, "consolidation_efficiency", jnum(c->efficiency));
    json_object_object_add(o, "runs_drifted", json_object_new_int(c->runs_drifted));
    json_object_object_add(o, "fits", jstr(c->fits));
    json_object_object_add(o, "fits_basis", jstr(c->fits_basis));
    json_object_object_add(o, "working_set_bytes", jnum(c->working_set_bytes));
    json_object_object_add(o, "buffer_pool_bytes", jnum(c->buffer_pool_bytes));
    json_object_object_add(o, "warmup_s", jnum(c->warmup_s));
    json_object_object_add(o, "warmup_mode", jstr(c->warmup_mode));
    json_object_object_add(o, "warmup_not_steady", json_object_new_int(c->warmup_not_steady));
    json_object_object_add(o, "host_steal_pct_max", jnum(c->host_steal_max));
    json_object_object_add(o, "host_other_cpu_pct_max", jnum(c->host_other_max));
    json_object_object_add(o, "guest_steal_pct_max", jnum(c->guest_steal_max));
    json_object_object_add(o, "noise", json_object_new_string(report_noise_verdict(c)));
    json_object_object_add(o, "noisy_runs", json_object_new_int(c->noisy_runs));
    json_object_object_add(o, "pin", jstr(c->pin));
    json_object_object_add(o, "compression_ratio", jnum(c->compression_ratio));
    json_object_object_add(o, "bp_hit_ratio", jnum(c->bp_hit_ratio));
    json_object_object_add(o, "host_cache_data_bytes_after", jnum(c->host_cache_after_bytes));
    json_object_object_add(o, "latency_p95_ms", jnum(c->latency_p95_ms));
    json_object_object_add(o, "drift_flagged", json_object_new_int(c->drifting));
    json_object_object_add(o, "drift_checked", json_object_new_int(c->drift_samples));
    json_object_object_add(o, "measure_start_skew_max_s", jnum(c->skew_max_s));
    return o;
}

/* ms per transaction */
static struct json_object *jms(double seconds) { return jnum(1000 * seconds); }

static struct json_object *jlayers(const struct gap_arm *g)
{
    static const char *const keys[] = {"innodb", "guest", "qemu", "host_device"};
    struct json_object *o = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(o, "targets", json_object_new_int64((int64_t)g->targets));
    json_object_object_add(o, "thread_ms_per_tx", jms(g->w));
    json_object_object_add(o, "cpu_ms_per_tx", jms(g->cpu));
    json_object_object_add(o, "compression_cpu_ms_per_tx", jms(g->cmp));
    json_object_object_add(o, "compression_cpu_in_cpu", json_object_new_boolean(g->cmp_in_cpu));
    json_object_object_add(o, "read_wait_ms_per_tx", jms(g->rd));
    json_object_object_add(o, "write_wait_ms_per_tx", jms(g->wr));
    json_object_object_add(o, "other_ms_per_tx", jms(gap_other(g)));
    json_object_object_add(o, "copies", jnum(g->copies));
    for (int l = 0; l < GAP_LAYERS; l++) {
        if (!arm_has_layer(g, l))
            continue;
        const struct gap_layer_figures *f = &g->layer[l];
        struct json_object *jl = json_object_new_object();
        json_object_object_add(jl, "layer", json_object_new_string(keys[l]));
        json_object_object_add(jl, "reads_per_tx", jnum(f->reads));
        json_object_object_add(jl, "writes_per_tx", jnum(f->writes));
        json_object_object_add(jl, "flushes_per_tx", jnum(f->flushes));
        json_object_object_add(jl, "read_wait_ms_per_tx", jnum(f->read_ms));
        json_object_object_add(jl, "write_wait_ms_per_tx", jnum(f->write_ms));
        json_object_object_add(jl, "cache_above", jstr(gap_layer_cache(l)));
        json_object_object_add(jl, "hit_ratio", jnum(f->hit));
        json_object_array_add(rows, jl);
    }
    json_object_object_add(o, "per_layer", rows);
    json_object_object_add(o, "hypervisor_fields", jstr(g->hypervisor_fields));
    char text[1024];
    gap_problems_text(g, text, sizeof(text));
    json_object_object_add(o, "problems", jstr(text));
    return o;
}

static struct json_object *jpart(const struct gap_split *s, double seconds)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "ms_per_tx", jms(seconds));
    json_object_object_add(o, "points", jnum(gap_points(s, seconds)));
    return o;
}

/* a guest arm's split against the host arm, null when none */
static struct json_object *jgap(const struct report *r, const struct report_cell *c)
{
    const struct gap_split *s = &c->gap;
    if (!s->valid)
        return NULL;
    struct json_object *o = json_object_new_object(), *parts = json_object_new_object();
    const char *host = r->rd->arms[c->host_ref].name;
    json_object_object_add(o, "vs", json_object_new_string(host));
    json_object_object_add(o, "loss", jnum(s->loss));
    json_object_object_add(o, "difference_ms_per_tx", jms(s->delta));
    for (int p = 0; p < GAP_PARTS; p++)
        json_object_object_add(parts, gap_part_key(p), jpart(s, s->part[p]));
    json_object_object_add(o, "parts", parts);
    json_object_object_add(o, "residual", jpart(s, s->residual));
    json_object_object_add(o, "explained", json_object_new_boolean(s->explained));
    char text[2048];
    gap_sentence(s, c->arm->name, host, text, sizeof(text));
    json_object_object_add(o, "text", json_object_new_string(text));
    return o;
}

static void print_json(const struct report *r, FILE *out)
{
    const struct results_data *rd = r->rd;
    static const char *const kinds[] = {"drift",   "warmup",        "noise", "skew",
                                        "run_status", "fits", "not_run", "skipped_lines",
                                        "layers", "host_elsewhere"};
    struct json_object *o = json_object_new_object(), *vars = json_object_new_array(),
                       *notes = json_object_new_array();
    const char *warn = report_accel_warning(r);
    json_object_object_add(o, "scenario", json_object_new_string(rd->scenario_name));
    json_object_object_add(o, "status", json_object_new_string(rd->status));
    json_object_object_add(o, "started_at", json_object_new_string(rd->started_at));
    json_object_object_add(o, "ended_at", json_object_new_string(rd->ended_at));
    json_object_object_add(o, "accel", json_object_new_string(rd->accel));
    json_object_object_add(o, "accel_warning", warn ? json_object_new_string(warn) : NULL);
    struct json_object *order = NULL;
    if (*rd->order_mode) {
        order = json_object_new_object();
        json_object_object_add(order, "mode", json_object_new_string(rd->order_mode));
        json_object_object_add(order, "seed",
                               rd->has_order_seed ? json_object_new_int64(rd->order_seed) : NULL);
    }
    json_object_object_add(o, "order", order);
    json_object_object_add(o, "tps_rule", json_object_new_string(report_tps_rule));
    json_object_object_add(o, "figures_rule", json_object_new_string(report_figures_rule));
    if (r->has_layers)
        json_object_object_add(o, "gap_rule", json_object_new_string(report_gap_rule));
    for (size_t v = 0; v < rd->n_variants; v++) {
        struct json_object *jv = json_object_new_object(), *arms = json_object_new_array(),
                           *ratios = json_object_new_array();
        json_object_object_add(jv, "index", json_object_new_int(r->variants[v].variant->index));
        json_object_object_add(jv, "label", json_object_new_string(r->variants[v].variant->label));
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            struct json_object *jc = jcell(c);
            if (r->has_layers) {
                json_object_object_add(jc, "layers", jlayers(&c->layers));
                json_object_object_add(jc, "gap", jgap(r, c));
            }
            json_object_array_add(arms, jc);
            for (int pass = 0; pass < 2; pass++) {
                int ref = pass == 0 ? c->host_ref : r->first_guest_arm;
                double val = pass == 0 ? c->ratio_host : c->ratio_first_guest;
                if (isnan(val))
                    continue;
                struct json_object *jr = json_object_new_object();
                char name[80];
                snprintf(name, sizeof(name), "%s/%s", c->arm->name, rd->arms[ref].name);
                json_object_object_add(jr, "name", json_object_new_string(name));
                json_object_object_add(jr, "value", jnum(val));
                json_object_object_add(
                    jr, "basis",
                    json_object_new_string(basis_name(val, pass == 0 ? c->ratio_host_per_guest
                                                                     : c->ratio_first_guest_per_guest)));
                json_object_array_add(ratios, jr);
            }
        }
        json_object_object_add(jv, "arms", arms);
        json_object_object_add(jv, "ratios", ratios);
        json_object_array_add(vars, jv);
    }
    json_object_object_add(o, "variants", vars);
    struct json_object *scaling = json_object_new_array();
    for (size_t i = 0; i < r->n_scaling; i++) {
        const struct report_scaling *sc = &r->scaling[i];
        struct json_object *js = json_object_new_object(), *pts = json_object_new_array();
        json_object_object_add(js, "arm", json_object_new_string(rd->arms[sc->arm].name));
        json_object_object_add(js, "setting", json_object_new_string(sc->group));
        for (size_t k = 0; k < sc->n; k++) {
            const struct report_cell *c = &r->variants[sc->variants[k]].cells[sc->arm];
            struct json_object *pt = json_object_new_object();
            json_object_object_add(pt, "variant",
                                   json_object_new_int(r->variants[sc->variants[k]].variant->index));
            json_object_object_add(pt, "guests", json_object_new_int(c->guests));
            json_object_object_add(pt, "n", json_object_new_int64((int64_t)c->tps_stats.n));
            json_object_object_add(pt, "tps_mean",
                                   jnum(c->tps_stats.n ? c->tps_stats.mean : NAN));
            json_object_object_add(pt, "tps_per_guest_mean",
                                   jnum(c->tps_stats.n ? c->per_guest_stats.mean : NAN));
            json_object_object_add(pt, "consolidation_efficiency", jnum(c->efficiency));
            json_object_array_add(pts, pt);
        }
        json_object_object_add(js, "points", pts);
        json_object_array_add(scaling, js);
    }
    json_object_object_add(o, "scaling", scaling);
    for (size_t i = 0; i < r->n_notes; i++) {
        const struct report_note *n = &r->notes[i];
        struct json_object *jn = json_object_new_object();
        json_object_object_add(jn, "kind", json_object_new_string(kinds[n->kind]));
        if (n->seq != INT_MAX)
            json_object_object_add(jn, "seq", json_object_new_int(n->seq));
        if (n->kind == NOTE_NOISE)
            json_object_object_add(jn, "figure", json_object_new_string(n->figure));
        if (n->kind == NOTE_DRIFT || n->kind == NOTE_SKEW || n->kind == NOTE_NOISE ||
            n->kind == NOTE_WARMUP)
            json_object_object_add(jn, "value", jnum(n->value));
        if (n->kind == NOTE_DRIFT || n->kind == NOTE_SKEW || n->kind == NOTE_NOISE)
            json_object_object_add(jn, "limit", jnum(n->limit));
        json_object_object_add(jn, "text", json_object_new_string(n->text));
        json_object_array_add(notes, jn);
    }
    json_object_object_add(o, "notes", notes);
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
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
        for (char *line = text, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            fprintf(out, "%s%s\n", md ? "- " : ind, line);
        }
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
    if (*rd->order_mode && rd->has_order_seed)
        fprintf(out, "%srun order: %s (seed %lld)\n", md ? "\n" : "", rd->order_mode,
                (long long)rd->order_seed);
    else if (*rd->order_mode)
        fprintf(out, "%srun order: %s\n", md ? "\n" : "", rd->order_mode);
    if (strcmp(r->headline, "TPS") != 0)
        fprintf(out, "%s%s\n", md ? "\n" : "", report_mbps_rule);
    if (strcmp(r->headline, "MB/s") != 0)
        fprintf(out, "%s%s\n", md ? "\n" : "", report_tps_rule);
    for (size_t v = 0; v < rd->n_variants; v++) {
        char ratios[1024];
        fprintf(out, "\n%sVariant %d: %s\n\n", md ? "## " : "", r->variants[v].variant->index,
                r->variants[v].variant->label);
        struct report_table *t = report_tps_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        report_ratios_text(r, v, ratios, sizeof(ratios));
        if (*ratios)
            fprintf(out, "\n%sRatios of mean %s: %s\n", md ? "" : "  ", r->headline, ratios);
        fputs("\n", out);
        t = report_conditions_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        fputs("\n", out);
        t = report_figures_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        if (r->has_layers)
            print_gap_text(r, v, f, out);
    }
    struct report_table *sc = report_scaling_table(r);
    if (sc) {
        fprintf(out, "\n%sScaling with the number of guests\n\n", md ? "## " : "");
        report_table_print(sc, f, out, md ? "" : "  ");
        report_table_free(sc);
        fprintf(out, "\n%s%s\n", md ? "" : "  ", report_scaling_rule);
    }
    struct report_table *ht = report_hosts_table(r);
    if (ht) {
        fprintf(out, "\n%sBy hypervisor host (arms whose guests ran on several hosts)\n\n", md ? "## " : "");
        report_table_print(ht, f, out, md ? "" : "  ");
        report_table_free(ht);
    }
    fprintf(out, "\n%s\n", report_figures_rule);
    if (r->has_layers)
        fprintf(out, "\n%s\n", report_gap_rule);
    if (r->n_notes) {
        fprintf(out, "\n%sNotes\n%s", md ? "## " : "", md ? "\n" : "");
        for (size_t i = 0; i < r->n_notes; i++)
            fprintf(out, "%s%s\n", md ? "- " : "  - ", r->notes[i].text);
    }
}

void report_print(const struct report *r, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        print_json(r, out);
    } else if (f == REPORT_CSV) {
        struct report_table *t = report_summary_table(r);
        report_table_print(t, REPORT_CSV, out, "");
        report_table_free(t);
    } else {
        print_text(r, f, out);
    }
}

/* ---- summary.csv ---- */

int report_write_summary_to(const struct report *r, const char *dir)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, "summary.csv");
    FILE *f = fopen(path, "w");
    if (!f) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    report_print(r, REPORT_CSV, f);
    if (fclose(f) != 0) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int report_write_summary(const char *results_dir)
{
    struct results_data *rd = results_read(results_dir);
    if (!rd)
        return -1;
    struct report *r = report_build(rd);
    int rc = report_write_summary_to(r, results_dir);
    report_free(r);
    results_data_free(rd);
    return rc;
}
