/* report.c: per (variant, arm) statistics of a results directory, its notes,
 * and the report in every text format (see report.h). */
#include "report.h"
#include "xalloc.h"

#include "log.h"
#include "paths.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char report_tps_rule[] =
    "TPS is the arm's throughput per repeat: the sum over its guests of their mean TPS over the "
    "common window in which all of them were measuring; warm-up intervals are excluded.";

const char report_figures_rule[] =
    "Figures are means over guests and repeats. host cache after: the guest's data disk in the "
    "host page cache after the measure phase. drifting: guests whose TPS drifts by more than 0.1 "
    "over the measure phase, of those checked. skew max: the largest gap between the starts of "
    "the guests' measure phases.";

/* ---- building the report ---- */

struct mean_acc {
    double sum;
    int n;
};

static void acc_add(struct mean_acc *a, double v)
{
    a->sum += v;
    a->n++;
}

static double acc_mean(const struct mean_acc *a) { return a->n ? a->sum / a->n : NAN; }

/* A run's figures count unless meta.json says the run did not end well. */
static bool run_counts(const struct results_data *rd, int seq)
{
    const struct results_run *run = results_find_run(rd, seq);
    return !run || !*run->status || !strcmp(run->status, "ok");
}

static void fill_cell(const struct results_data *rd, int variant, struct report_cell *c)
{
    struct mean_acc cr = {0}, bp = {0}, hc = {0}, p95 = {0};
    size_t n_tps = 0;
    c->tps = xcalloc(rd->n_samples, sizeof(double));
    c->tps_seq = xcalloc(rd->n_samples, sizeof(int));
    c->skew_max_s = NAN;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (strcmp(s->arm, c->arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !run_counts(rd, s->seq))
            continue;
        if (!strcmp(s->metric, "tps_arm")) {
            c->tps_seq[n_tps] = s->seq;
            c->tps[n_tps++] = s->value;
        } else if (!strcmp(s->metric, "tps") && s->guest > c->guests) {
            c->guests = s->guest;
        } else if (!strcmp(s->metric, "compression_ratio")) {
            acc_add(&cr, s->value);
        } else if (!strcmp(s->metric, "bp_hit_ratio")) {
            acc_add(&bp, s->value);
        } else if (!strcmp(s->metric, "host_cache_data_bytes") && !strcmp(s->when, "after")) {
            acc_add(&hc, s->value);
        } else if (!strcmp(s->metric, "latency_p95_ms")) {
            acc_add(&p95, s->value);
        } else if (!strcmp(s->metric, "measure_start_skew_s")) {
            if (isnan(c->skew_max_s) || s->value > c->skew_max_s)
                c->skew_max_s = s->value;
        } else if (!strcmp(s->metric, "steady_state_drift")) {
            c->drift_samples++;
            c->drifting += fabs(s->value) > REPORT_DRIFT_LIMIT;
        }
    }
    stats_summarize(c->tps, n_tps, &c->tps_stats);
    c->compression_ratio = acc_mean(&cr);
    c->bp_hit_ratio = acc_mean(&bp);
    c->host_cache_after_bytes = acc_mean(&hc);
    c->latency_p95_ms = acc_mean(&p95);
}

static double ratio_of(const struct report_cell *num, const struct report_cell *den)
{
    if (num == den || num->tps_stats.n == 0 || den->tps_stats.n == 0 || den->tps_stats.mean == 0)
        return NAN;
    return num->tps_stats.mean / den->tps_stats.mean;
}

static struct report_note *add_note(struct report *r, size_t *cap, enum report_note_kind kind,
                                    int seq)
{
    if (r->n_notes == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        r->notes = xrealloc(r->notes, *cap * sizeof(*r->notes));
    }
    struct report_note *n = &r->notes[r->n_notes++];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->seq = seq;
    n->arm = "";
    n->status = "";
    return n;
}

static void note_from_sample(struct report *r, size_t *cap, const struct results_sample *s)
{
    const struct results_data *rd = r->rd;
    if (!strcmp(s->metric, "steady_state_drift") && fabs(s->value) > REPORT_DRIFT_LIMIT) {
        struct report_note *n = add_note(r, cap, NOTE_DRIFT, s->seq);
        n->arm = s->arm, n->repeat = s->repeat, n->guest = s->guest;
        n->value = s->value, n->limit = REPORT_DRIFT_LIMIT;
        char who[64] = "";
        if (s->guest > 0)
            snprintf(who, sizeof(who), ", guest %d", s->guest);
        n->text = xasprintf("run %d (%s, repeat %d)%s: TPS drifts by %+.3f over the measure phase "
                            "(beyond +-%.1f): it had not reached a steady state.",
                            s->seq, s->arm, s->repeat, who, s->value, REPORT_DRIFT_LIMIT);
    } else if (!strcmp(s->metric, "measure_start_skew_s")) {
        double window = NAN;
        for (size_t j = 0; j < rd->n_samples; j++)
            if (rd->samples[j].seq == s->seq && !strcmp(rd->samples[j].metric, "measure_window_s"))
                window = rd->samples[j].value;
        if (!(window > 0) || s->value <= REPORT_SKEW_LIMIT * window)
            return;
        struct report_note *n = add_note(r, cap, NOTE_SKEW, s->seq);
        n->arm = s->arm, n->repeat = s->repeat;
        n->value = s->value, n->limit = REPORT_SKEW_LIMIT, n->window = window;
        n->text = xasprintf("run %d (%s, repeat %d): its guests started measuring %.2f s apart, "
                            "%.0f%% of their %.2f s common window (more than %.0f%%).",
                            s->seq, s->arm, s->repeat, s->value, 100 * s->value / window, window,
                            100 * REPORT_SKEW_LIMIT);
    }
}

static int note_order(const void *a, const void *b)
{
    const struct report_note *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->guest - y->guest;
}

static void collect_notes(struct report *r)
{
    const struct results_data *rd = r->rd;
    size_t cap = 0;
    for (size_t i = 0; i < rd->n_samples; i++)
        note_from_sample(r, &cap, &rd->samples[i]);
    char *pending = NULL;
    size_t n_pending = 0;
    for (size_t i = 0; i < rd->n_runs; i++) {
        const struct results_run *run = &rd->runs[i];
        if (!strcmp(run->status, "pending")) {
            char *more = xasprintf("%s%s%d", pending ? pending : "", pending ? ", " : "", run->seq);
            free(pending);
            pending = more;
            n_pending++;
        } else if (*run->status && strcmp(run->status, "ok") != 0) {
            struct report_note *n = add_note(r, &cap, NOTE_RUN_STATUS, run->seq);
            n->arm = run->arm, n->repeat = run->repeat, n->status = run->status;
            n->text = xasprintf("run %d (%s, repeat %d): %s; its figures are not counted.",
                                run->seq, run->arm, run->repeat, run->status);
        }
    }
    if (n_pending) {
        struct report_note *n = add_note(r, &cap, NOTE_NOT_RUN, INT_MAX);
        n->value = (double)n_pending;
        n->text = xasprintf("%zu planned run%s did not run: %s.", n_pending,
                            n_pending == 1 ? "" : "s", pending);
    }
    free(pending);
    if (rd->bad_lines) {
        struct report_note *n = add_note(r, &cap, NOTE_SKIPPED_LINES, INT_MAX);
        n->value = (double)rd->bad_lines;
        n->text = xasprintf("%zu line%s of samples.jsonl could not be read and %s skipped.",
                            rd->bad_lines, rd->bad_lines == 1 ? "" : "s",
                            rd->bad_lines == 1 ? "was" : "were");
    }
    if (r->n_notes)
        qsort(r->notes, r->n_notes, sizeof(*r->notes), note_order);
}

struct report *report_build(const struct results_data *rd)
{
    struct report *r = xcalloc(1, sizeof(*r));
    r->rd = rd;
    r->host_arm = r->first_guest_arm = -1;
    for (size_t a = 0; a < rd->n_arms; a++) {
        if (r->host_arm < 0 && !strcmp(rd->arms[a].kind, "host"))
            r->host_arm = (int)a;
        if (r->first_guest_arm < 0 && !strcmp(rd->arms[a].kind, "guest"))
            r->first_guest_arm = (int)a;
    }
    r->variants = xcalloc(rd->n_variants, sizeof(*r->variants));
    for (size_t v = 0; v < rd->n_variants; v++) {
        struct report_variant *rv = &r->variants[v];
        rv->variant = &rd->variants[v];
        rv->cells = xcalloc(rd->n_arms, sizeof(*rv->cells));
        for (size_t a = 0; a < rd->n_arms; a++) {
            rv->cells[a].arm = &rd->arms[a];
            fill_cell(rd, rv->variant->index, &rv->cells[a]);
        }
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            c->ratio_host = r->host_arm < 0 ? NAN : ratio_of(c, &rv->cells[r->host_arm]);
            c->ratio_first_guest = NAN;
            if (r->first_guest_arm >= 0 && (int)a > r->first_guest_arm &&
                !strcmp(c->arm->kind, "guest"))
                c->ratio_first_guest = ratio_of(c, &rv->cells[r->first_guest_arm]);
        }
    }
    collect_notes(r);
    return r;
}

void report_free(struct report *r)
{
    if (!r)
        return;
    for (size_t v = 0; r->variants && v < r->rd->n_variants; v++) {
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            free(r->variants[v].cells[a].tps);
            free(r->variants[v].cells[a].tps_seq);
        }
        free(r->variants[v].cells);
    }
    free(r->variants);
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i].text);
    free(r->notes);
    free(r);
}

const char *report_accel_warning(const struct report *r)
{
    if (!results_is_tcg(r->rd))
        return NULL;
    return "These figures come from QEMU software emulation (TCG), not KVM: they are not "
           "comparable with KVM figures.";
}

void report_ratios_text(const struct report *r, size_t variant, char *buf, size_t len)
{
    const struct report_variant *rv = &r->variants[variant];
    size_t used = 0;
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        int ref = pass == 0 ? r->host_arm : r->first_guest_arm;
        for (size_t a = 0; ref >= 0 && a < r->rd->n_arms; a++) {
            double v = pass == 0 ? rv->cells[a].ratio_host : rv->cells[a].ratio_first_guest;
            if (isnan(v) || used >= len)
                continue;
            used += (size_t)snprintf(buf + used, len - used, "%s%s/%s %.3f", used ? ", " : "",
                                     rv->cells[a].arm->name, r->rd->arms[ref].name, v);
        }
    }
}

/* ---- the tables ---- */


struct report_table *report_tps_table(const struct report *r, size_t variant)
{
    static const char *const head[] = {"arm",      "kind",   "guests", "n",
                                       "TPS mean", "95% CI", "sd",     "CV"};
    struct report_table *t = report_table_new(8, head, 0xFC);
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[variant].cells[a];
        const struct stats_summary *s = &c->tps_stats;
        char guests[16], n[16], mean[32], ci[40], sd[32], cv[32];
        snprintf(guests, sizeof(guests), "%d", c->guests);
        snprintf(n, sizeof(n), "%zu", s->n);
        bool spread = s->n >= 2;
        const char *row[] = {c->arm->name,
                             c->arm->kind,
                             strcmp(c->arm->kind, "guest") ? "-" : guests,
                             n,
                             report_human(mean, sizeof(mean), "%.2f", s->n ? s->mean : NAN),
                             spread ? report_human(ci, sizeof(ci), "± %.2f", s->ci95_half) : "-",
                             report_human(sd, sizeof(sd), "%.2f", spread ? s->sd : NAN),
                             report_human(cv, sizeof(cv), "%.1f%%", spread ? 100 * s->cv : NAN)};
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


struct report_table *report_summary_table(const struct report *r)
{
    static const char *const head[] = {
        "variant", "variant_label", "arm", "arm_kind", "accel", "guests", "n", "tps_mean",
        "tps_sd", "tps_ci95_low", "tps_ci95_high", "tps_ci95_half", "tps_cv", "ratio_vs_host",
        "ratio_vs_first_guest", "compression_ratio", "bp_hit_ratio", "host_cache_data_bytes_after",
        "latency_p95_ms", "drift_flagged", "drift_checked", "measure_start_skew_max_s"};
    struct report_table *t = report_table_new(22, head, 0);
    for (size_t v = 0; v < r->rd->n_variants; v++) {
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            const struct stats_summary *s = &c->tps_stats;
            bool any = s->n > 0, spread = s->n >= 2;
            char b[22][32];
            snprintf(b[0], 32, "%d", r->variants[v].variant->index);
            snprintf(b[5], 32, "%d", c->guests);
            snprintf(b[6], 32, "%zu", s->n);
            snprintf(b[19], 32, "%d", c->drifting);
            snprintf(b[20], 32, "%d", c->drift_samples);
            const char *row[] = {
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
                report_number(b[21], 32, c->skew_max_s)};
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
    json_object_object_add(o, "tps", tps);
    json_object_object_add(o, "ratio_vs_host", jnum(c->ratio_host));
    json_object_object_add(o, "ratio_vs_first_guest", jnum(c->ratio_first_guest));
    json_object_object_add(o, "compression_ratio", jnum(c->compression_ratio));
    json_object_object_add(o, "bp_hit_ratio", jnum(c->bp_hit_ratio));
    json_object_object_add(o, "host_cache_data_bytes_after", jnum(c->host_cache_after_bytes));
    json_object_object_add(o, "latency_p95_ms", jnum(c->latency_p95_ms));
    json_object_object_add(o, "drift_flagged", json_object_new_int(c->drifting));
    json_object_object_add(o, "drift_checked", json_object_new_int(c->drift_samples));
    json_object_object_add(o, "measure_start_skew_max_s", jnum(c->skew_max_s));
    return o;
}

static void print_json(const struct report *r, FILE *out)
{
    const struct results_data *rd = r->rd;
    static const char *const kinds[] = {"drift", "skew", "run_status", "not_run", "skipped_lines"};
    struct json_object *o = json_object_new_object(), *vars = json_object_new_array(),
                       *notes = json_object_new_array();
    const char *warn = report_accel_warning(r);
    json_object_object_add(o, "scenario", json_object_new_string(rd->scenario_name));
    json_object_object_add(o, "status", json_object_new_string(rd->status));
    json_object_object_add(o, "started_at", json_object_new_string(rd->started_at));
    json_object_object_add(o, "ended_at", json_object_new_string(rd->ended_at));
    json_object_object_add(o, "accel", json_object_new_string(rd->accel));
    json_object_object_add(o, "accel_warning", warn ? json_object_new_string(warn) : NULL);
    json_object_object_add(o, "tps_rule", json_object_new_string(report_tps_rule));
    json_object_object_add(o, "figures_rule", json_object_new_string(report_figures_rule));
    for (size_t v = 0; v < rd->n_variants; v++) {
        struct json_object *jv = json_object_new_object(), *arms = json_object_new_array(),
                           *ratios = json_object_new_array();
        json_object_object_add(jv, "index", json_object_new_int(r->variants[v].variant->index));
        json_object_object_add(jv, "label", json_object_new_string(r->variants[v].variant->label));
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            json_object_array_add(arms, jcell(c));
            for (int pass = 0; pass < 2; pass++) {
                int ref = pass == 0 ? r->host_arm : r->first_guest_arm;
                double val = pass == 0 ? c->ratio_host : c->ratio_first_guest;
                if (isnan(val))
                    continue;
                struct json_object *jr = json_object_new_object();
                char name[80];
                snprintf(name, sizeof(name), "%s/%s", c->arm->name, rd->arms[ref].name);
                json_object_object_add(jr, "name", json_object_new_string(name));
                json_object_object_add(jr, "value", jnum(val));
                json_object_array_add(ratios, jr);
            }
        }
        json_object_object_add(jv, "arms", arms);
        json_object_object_add(jv, "ratios", ratios);
        json_object_array_add(vars, jv);
    }
    json_object_object_add(o, "variants", vars);
    for (size_t i = 0; i < r->n_notes; i++) {
        const struct report_note *n = &r->notes[i];
        struct json_object *jn = json_object_new_object();
        json_object_object_add(jn, "kind", json_object_new_string(kinds[n->kind]));
        if (n->seq != INT_MAX)
            json_object_object_add(jn, "seq", json_object_new_int(n->seq));
        if (n->kind == NOTE_DRIFT || n->kind == NOTE_SKEW)
            json_object_object_add(jn, "value", jnum(n->value));
        json_object_object_add(jn, "text", json_object_new_string(n->text));
        json_object_array_add(notes, jn);
    }
    json_object_object_add(o, "notes", notes);
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
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
            fprintf(out, "\n%sRatios of mean TPS: %s\n", md ? "" : "  ", ratios);
        fputs("\n", out);
        t = report_figures_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
    }
    fprintf(out, "\n%s\n", report_figures_rule);
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
