/* report.c: per (variant, arm) statistics of a results directory, its notes,
 * and the report in every text format (see report.h). */
#include "report.h"
#include "xalloc.h"

#include "log.h"
#include "paths.h"
#include "verdicts.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

const char report_tps_rule[] =
    "TPS is the arm's throughput per repeat: the sum over its guests of their mean TPS over the "
    "common window in which all of them were measuring; warm-up intervals are excluded. TPS/guest "
    "divides it by the run's number of guests. Ratios between arms are per guest when the arms "
    "run different numbers of guests, aggregate when the numbers are equal; each says which.";

const char report_figures_rule[] =
    "Figures are means over guests and repeats. host cache after: the guest's data disk in the "
    "host page cache after the measure phase. drifting: guests whose TPS drifts by more than 0.1 "
    "over the measure phase, of those checked. skew max: the largest gap between the starts of "
    "the guests' measure phases. fits in: the smallest cache that holds the working set (the "
    "largest over the targets). warm-up: the longest a target needed, mean over repeats. noise: "
    "the largest over the runs of the host's steal time and of the CPU of processes outside the "
    "run (% of the host's CPUs), and of steal time inside a guest; n/a when not recorded.";

const char report_scaling_rule[] =
    "efficiency = TPS of N guests together / (N x TPS of 1 guest alone) in the same settings: "
    "1 when consolidating costs nothing.";

/* ---- building the report ---- */

struct mean_acc {
    double sum;
    int n;
};

static void acc_add(struct mean_acc *a, double v)
{
    if (!isfinite(v))
        return;
    a->sum += v;
    a->n++;
}

static double acc_mean(const struct mean_acc *a) { return a->n ? a->sum / a->n : NAN; }

static void set_max(double *m, double v)
{
    if (isfinite(v) && (isnan(*m) || v > *m))
        *m = v;
}

/* A run's figures count unless meta.json says the run did not end well. */
static bool run_counts(const struct results_data *rd, int seq)
{
    const struct results_run *run = results_find_run(rd, seq);
    return !run || !*run->status || !strcmp(run->status, "ok");
}

/* where the data fits, smallest cache first */
static const char *const fits_order[] = {"buffer_pool", "guest_page_cache", "host_page_cache",
                                         "none"};

static int fits_rank(const char *f)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(f, fits_order[i]))
            return i;
    return -1;
}

static bool drift_beyond(const struct results_sample *s)
{
    return fabs(s->value) > VERDICT_DRIFT_LIMIT || !strcmp(s->steady, "no");
}

/* The noise limit of a metric, NAN if it is not a noise figure. */
static double noise_limit(const char *metric)
{
    if (!strcmp(metric, "host_steal_pct"))
        return VERDICT_HOST_STEAL_PCT;
    if (!strcmp(metric, "host_other_cpu_pct"))
        return VERDICT_HOST_OTHER_CPU_PCT;
    if (!strcmp(metric, "guest_steal_pct"))
        return VERDICT_GUEST_STEAL_PCT;
    return NAN;
}

static const char *pin_state(const struct results_run *run)
{
    if (!run || !*run->pin)
        return "";
    if (!strcmp(run->pin, "none"))
        return "none";
    return run->pin_applied == 1 ? "pinned" : "not pinned";
}

/* The guests of the cell's runs (config.guests), else those seen. */
static int cell_guests(const struct results_data *rd, int variant, const struct report_cell *c)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        if (!strcmp(rd->runs[i].arm, c->arm->name) && results_run_in_variant(&rd->runs[i], variant) &&
            rd->runs[i].guests > 0)
            return rd->runs[i].guests;
    if (!strcmp(c->arm->kind, "host"))
        return 1;
    int seen = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (!strcmp(s->metric, "tps") && !strcmp(s->arm, c->arm->name) &&
            results_sample_in_variant(s, variant) && s->guest > seen)
            seen = s->guest;
    }
    return seen;
}

static size_t run_index(const struct report_cell *c, int seq)
{
    for (size_t k = 0; k < c->tps_stats.n; k++)
        if (c->tps_seq[k] == seq)
            return k;
    return SIZE_MAX;
}

static void fill_cell(const struct results_data *rd, int variant, struct report_cell *c)
{
    struct mean_acc cr = {0}, bp = {0}, hc = {0}, p95 = {0}, ws = {0}, bpb = {0}, wu = {0};
    size_t n_tps = 0;
    c->tps = xcalloc(rd->n_samples, sizeof(double));
    c->per_guest = xcalloc(rd->n_samples, sizeof(double));
    c->tps_seq = xcalloc(rd->n_samples, sizeof(int));
    c->skew_max_s = c->host_steal_max = c->host_other_max = c->guest_steal_max = NAN;
    c->efficiency = NAN;
    c->guests = cell_guests(rd, variant, c);
    /* first the runs that count: their tps_arm */
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (strcmp(s->metric, "tps_arm") != 0 || !isfinite(s->value) ||
            strcmp(s->arm, c->arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !run_counts(rd, s->seq))
            continue;
        const struct results_run *run = results_find_run(rd, s->seq);
        int g = run && run->guests > 0 ? run->guests : c->guests;
        c->tps_seq[n_tps] = s->seq;
        c->per_guest[n_tps] = g > 0 ? s->value / g : NAN;
        c->tps[n_tps++] = s->value;
    }
    stats_summarize(c->tps, n_tps, &c->tps_stats);
    stats_summarize(c->per_guest, n_tps, &c->per_guest_stats);
    /* per run: drifted, warm-up (the longest target), noisy */
    bool *drifted = xcalloc(n_tps + 1, sizeof(bool)), *noisy = xcalloc(n_tps + 1, sizeof(bool)),
         *unsteady = xcalloc(n_tps + 1, sizeof(bool));
    double *warm = xcalloc(n_tps + 1, sizeof(double));
    for (size_t k = 0; k < n_tps; k++)
        warm[k] = NAN;
    int fits = -1;
    const char *basis = "";
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (strcmp(s->arm, c->arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !run_counts(rd, s->seq))
            continue;
        size_t k = run_index(c, s->seq);
        if (!strcmp(s->metric, "compression_ratio")) {
            acc_add(&cr, s->value);
        } else if (!strcmp(s->metric, "bp_hit_ratio")) {
            acc_add(&bp, s->value);
        } else if (!strcmp(s->metric, "host_cache_data_bytes") && !strcmp(s->when, "after")) {
            acc_add(&hc, s->value);
        } else if (!strcmp(s->metric, "latency_p95_ms")) {
            acc_add(&p95, s->value);
        } else if (!strcmp(s->metric, "measure_start_skew_s")) {
            set_max(&c->skew_max_s, s->value);
        } else if (!strcmp(s->metric, "steady_state_drift") && isfinite(s->value)) {
            c->drift_samples++;
            c->drifting += drift_beyond(s);
            if (k != SIZE_MAX && drift_beyond(s))
                drifted[k] = true;
        } else if (!strcmp(s->metric, "working_set_bytes")) {
            acc_add(&ws, s->value);
            int rank = fits_rank(s->fits);
            if (rank > fits)
                fits = rank;
            if (*s->basis)
                basis = !*basis || !strcmp(basis, s->basis) ? s->basis : "mixed";
        } else if (!strcmp(s->metric, "buffer_pool_bytes")) {
            acc_add(&bpb, s->value);
        } else if (!strcmp(s->metric, "warmup_s")) {
            if (k != SIZE_MAX)
                set_max(&warm[k], s->value);
            if (k != SIZE_MAX && !strcmp(s->steady, "no"))
                unsteady[k] = true;
            if (*s->mode)
                c->warmup_mode = !c->warmup_mode || !strcmp(c->warmup_mode, s->mode)
                                     ? (!strcmp(s->mode, "auto") ? "auto" : "fixed")
                                     : "mixed";
        } else if (!isnan(noise_limit(s->metric)) && isfinite(s->value)) {
            double *m = !strcmp(s->metric, "host_steal_pct")       ? &c->host_steal_max
                        : !strcmp(s->metric, "host_other_cpu_pct") ? &c->host_other_max
                                                                   : &c->guest_steal_max;
            set_max(m, s->value);
            if (k != SIZE_MAX && s->value > noise_limit(s->metric))
                noisy[k] = true;
        }
    }
    for (size_t k = 0; k < n_tps; k++) {
        c->runs_drifted += drifted[k];
        c->noisy_runs += noisy[k];
        c->warmup_not_steady += unsteady[k];
        acc_add(&wu, warm[k]);
        const char *pin = pin_state(results_find_run(rd, c->tps_seq[k]));
        if (k == 0)
            snprintf(c->pin, sizeof(c->pin), "%s", pin);
        else if (strcmp(c->pin, pin) != 0)
            snprintf(c->pin, sizeof(c->pin), "mixed");
    }
    free(drifted);
    free(noisy);
    free(unsteady);
    free(warm);
    c->fits = fits >= 0 ? fits_order[fits] : "";
    c->fits_basis = basis;
    if (!c->warmup_mode)
        c->warmup_mode = "";
    c->warmup_s = acc_mean(&wu);
    c->working_set_bytes = acc_mean(&ws);
    c->buffer_pool_bytes = acc_mean(&bpb);
    c->compression_ratio = acc_mean(&cr);
    c->bp_hit_ratio = acc_mean(&bp);
    c->host_cache_after_bytes = acc_mean(&hc);
    c->latency_p95_ms = acc_mean(&p95);
}

/* num / den of mean TPS: per guest when their guest counts differ (*per
 * true), aggregate when equal; NAN when not applicable or a count is
 * unknown (a ratio of unknown bases is not given). */
static double ratio_of(const struct report_cell *num, const struct report_cell *den, bool *per)
{
    *per = false;
    if (num == den || num->tps_stats.n == 0 || den->tps_stats.n == 0 || num->guests <= 0 ||
        den->guests <= 0)
        return NAN;
    if (num->guests == den->guests)
        return den->tps_stats.mean == 0 ? NAN : num->tps_stats.mean / den->tps_stats.mean;
    *per = true;
    return den->per_guest_stats.mean == 0 ? NAN
                                          : num->per_guest_stats.mean / den->per_guest_stats.mean;
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
    n->figure = "";
    return n;
}

static void note_noise(struct report *r, size_t *cap, const struct results_sample *s)
{
    double limit = noise_limit(s->metric);
    if (isnan(limit) || !isfinite(s->value) || s->value <= limit)
        return;
    struct report_note *n = add_note(r, cap, NOTE_NOISE, s->seq);
    n->arm = s->arm, n->repeat = s->repeat, n->guest = s->guest;
    n->figure = s->metric, n->value = s->value, n->limit = limit;
    if (!strcmp(s->metric, "host_steal_pct"))
        n->text = xasprintf("run %d (%s, repeat %d): the host lost %.1f%% of its CPU time to steal "
                            "during the measure phase (limit %.0f%%): a noisy machine.",
                            s->seq, s->arm, s->repeat, s->value, limit);
    else if (!strcmp(s->metric, "host_other_cpu_pct"))
        n->text = xasprintf("run %d (%s, repeat %d): processes outside the run used %.1f%% of the "
                            "host's CPU during the measure phase (limit %.0f%%): a busy machine.",
                            s->seq, s->arm, s->repeat, s->value, limit);
    else
        n->text = xasprintf("run %d (%s, repeat %d), guest %d: %.1f%% of the guest's CPU time was "
                            "stolen during the measure phase (limit %.0f%%).",
                            s->seq, s->arm, s->repeat, s->guest, s->value, limit);
}

static void note_from_sample(struct report *r, size_t *cap, const struct results_sample *s)
{
    const struct results_data *rd = r->rd;
    char who[64] = "";
    if (s->guest > 0)
        snprintf(who, sizeof(who), ", guest %d", s->guest);
    if (!strcmp(s->metric, "steady_state_drift") && isfinite(s->value) && drift_beyond(s)) {
        struct report_note *n = add_note(r, cap, NOTE_DRIFT, s->seq);
        n->arm = s->arm, n->repeat = s->repeat, n->guest = s->guest;
        n->value = s->value, n->limit = VERDICT_DRIFT_LIMIT;
        n->text = xasprintf("run %d (%s, repeat %d)%s: TPS drifts by %+.3f over the measure phase "
                            "(beyond +-%.1f): it had not reached a steady state.",
                            s->seq, s->arm, s->repeat, who, s->value, VERDICT_DRIFT_LIMIT);
    } else if (!strcmp(s->metric, "warmup_s") && !strcmp(s->steady, "no")) {
        struct report_note *n = add_note(r, cap, NOTE_WARMUP, s->seq);
        n->arm = s->arm, n->repeat = s->repeat, n->guest = s->guest;
        n->value = s->value;
        n->text = xasprintf("run %d (%s, repeat %d)%s: the warm-up reached its cap (%.0f s) before "
                            "TPS was steady.",
                            s->seq, s->arm, s->repeat, who, s->value);
    } else if (!isnan(noise_limit(s->metric))) {
        note_noise(r, cap, s);
    } else if (!strcmp(s->metric, "measure_start_skew_s")) {
        double window = NAN;
        for (size_t j = 0; j < rd->n_samples; j++)
            if (rd->samples[j].seq == s->seq && !strcmp(rd->samples[j].metric, "measure_window_s"))
                window = rd->samples[j].value;
        if (!(window > 0) || !(s->value > REPORT_SKEW_LIMIT * window))
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
    if (x->guest != y->guest)
        return x->guest - y->guest;
    return strcmp(x->figure, y->figure);
}

/* Cells whose data fits in the buffer pool, one note per arm. */
static void notes_fits(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    for (size_t a = 0; a < rd->n_arms; a++) {
        char list[256] = "";
        size_t used = 0, n = 0;
        struct mean_acc ws = {0}, bpb = {0};
        for (size_t v = 0; v < rd->n_variants; v++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            if (strcmp(c->fits, "buffer_pool") != 0)
                continue;
            acc_add(&ws, c->working_set_bytes);
            acc_add(&bpb, c->buffer_pool_bytes);
            if (used < sizeof(list))
                used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d", n ? ", " : "",
                                         r->variants[v].variant->index);
            n++;
        }
        if (!n)
            continue;
        char sizes[128] = "";
        if (ws.n && bpb.n)
            snprintf(sizes, sizeof(sizes), " (%.1f MiB in a %.1f MiB buffer pool)",
                     acc_mean(&ws) / 1048576, acc_mean(&bpb) / 1048576);
        struct report_note *note = add_note(r, cap, NOTE_FITS, INT_MAX);
        note->arm = rd->arms[a].name;
        note->text = xasprintf("arm %s, variant%s %s: the working set fits in the buffer pool%s: "
                               "the disk cache mode cannot matter here.",
                               rd->arms[a].name, n == 1 ? "" : "s", list, sizes);
    }
}

/* vbed adds a run to meta.json when it starts: runs that never started
 * are missing. Planned: every distinct run (arm and variants) x repeats. */
static void note_not_run(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    if (rd->n_runs == 0)
        return;
    long repeats = 0;
    int last = 0;
    for (size_t i = 0; i < rd->n_runs; i++) {
        char *end;
        const char *rs = results_run_config(&rd->runs[i], "repeats");
        long n = strtol(rs, &end, 10);
        if (*rs && !*end && n > 0 && n <= 1000000)
            repeats = n;
        last = rd->runs[i].seq > last ? rd->runs[i].seq : last;
    }
    size_t missing = 0, unseen_arms = 0;
    /* distinct runs seen: how many repeats each had */
    for (size_t i = 0; i < rd->n_runs; i++) {
        const struct results_run *x = &rd->runs[i];
        bool first = true;
        size_t count = 0;
        for (size_t j = 0; j < rd->n_runs; j++) {
            const struct results_run *y = &rd->runs[j];
            bool same = !strcmp(x->arm, y->arm) && x->n_variants == y->n_variants &&
                        (!x->n_variants ||
                         !memcmp(x->variants, y->variants, x->n_variants * sizeof(int)));
            if (same && j < i)
                first = false;
            count += same;
        }
        if (first && repeats > 0 && (size_t)repeats > count)
            missing += (size_t)repeats - count;
    }
    /* an arm with a variant no run served: at least one distinct run more */
    char unserved[256] = "";
    size_t used = 0;
    for (size_t a = 0; a < rd->n_arms; a++) {
        bool any = false;
        for (size_t v = 0; v < rd->n_variants && !any; v++) {
            bool served = false;
            for (size_t i = 0; i < rd->n_runs && !served; i++)
                served = !strcmp(rd->runs[i].arm, rd->arms[a].name) &&
                         results_run_in_variant(&rd->runs[i], rd->variants[v].index);
            any = !served;
        }
        if (any && used < sizeof(unserved))
            used += (size_t)snprintf(unserved + used, sizeof(unserved) - used, "%s%s",
                                     unseen_arms ? ", " : "", rd->arms[a].name);
        unseen_arms += any;
    }
    if (repeats > 0)
        missing += unseen_arms * (size_t)repeats;
    bool stopped = !strcmp(rd->status, "interrupted") || !strcmp(rd->status, "running");
    if (missing == 0 && !(unseen_arms && stopped))
        return;
    struct report_note *n = add_note(r, cap, NOTE_NOT_RUN, INT_MAX);
    n->value = (double)missing;
    if (repeats > 0 && !unseen_arms) {
        char *list = NULL;
        for (size_t k = 1; k <= missing; k++) {
            char *more = xasprintf("%s%s%zu", list ? list : "", list ? ", " : "", (size_t)last + k);
            free(list);
            list = more;
        }
        n->text = xasprintf("%zu planned run%s did not run: %s.", missing,
                            missing == 1 ? "" : "s", list);
        free(list);
    } else if (repeats > 0) {
        n->text = xasprintf("at least %zu planned runs did not run (from run %d on); no run of arm "
                            "%s served every variant.",
                            missing, last + 1, unserved);
    } else {
        n->text = xasprintf("the runs planned after run %d did not run; no run of arm %s served "
                            "every variant.",
                            last, unserved);
    }
}

static void collect_notes(struct report *r)
{
    const struct results_data *rd = r->rd;
    size_t cap = 0;
    for (size_t i = 0; i < rd->n_samples; i++)
        note_from_sample(r, &cap, &rd->samples[i]);
    for (size_t i = 0; i < rd->n_runs; i++) {
        const struct results_run *run = &rd->runs[i];
        if (*run->status && strcmp(run->status, "ok") != 0) {
            struct report_note *n = add_note(r, &cap, NOTE_RUN_STATUS, run->seq);
            n->arm = run->arm, n->repeat = run->repeat, n->status = run->status;
            n->text = xasprintf("run %d (%s, repeat %d): %s; its figures are not counted.",
                                run->seq, run->arm, run->repeat, run->status);
        }
    }
    notes_fits(r, &cap);
    note_not_run(r, &cap);
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

/* ---- guests as a variant axis ---- */

/* The first run of arm serving variant (its settings), NULL if none. */
static const struct results_run *cell_run(const struct results_data *rd, const char *arm,
                                          int variant)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        if (!strcmp(rd->runs[i].arm, arm) && results_run_in_variant(&rd->runs[i], variant) &&
            rd->runs[i].n_config > 0)
            return &rd->runs[i];
    return NULL;
}

/* Same settings but for guests? */
static bool same_but_guests(const struct results_run *x, const struct results_run *y)
{
    if (x->n_config != y->n_config)
        return false;
    for (size_t i = 0; i < x->n_config; i++)
        if (strcmp(x->config[i].key, "guests") != 0 &&
            strcmp(x->config[i].value, results_run_config(y, x->config[i].key)) != 0)
            return false;
    return true;
}

/* The variant label without its guests item ("guest.guests=2"). */
static char *label_without_guests(const char *label)
{
    char *out = xcalloc(1, strlen(label) + 1), *copy = xstrdup(label), *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char *eq = strchr(tok, '='), *dot = memchr(tok, '.', eq ? (size_t)(eq - tok) : 0);
        const char *key = dot ? dot + 1 : tok;
        if (eq && (size_t)(eq - key) == 6 && !strncmp(key, "guests", 6))
            continue;
        if (*out)
            strcat(out, " ");
        strcat(out, tok);
    }
    free(copy);
    return out;
}

static void build_scaling(struct report *r)
{
    const struct results_data *rd = r->rd;
    size_t nv = rd->n_variants;
    bool *used = xcalloc(nv + 1, sizeof(bool));
    for (size_t a = 0; a < rd->n_arms; a++) {
        if (strcmp(rd->arms[a].kind, "guest") != 0)
            continue;
        memset(used, 0, (nv + 1) * sizeof(bool));
        for (size_t v = 0; v < nv; v++) {
            const struct results_run *base = cell_run(rd, rd->arms[a].name, rd->variants[v].index);
            if (used[v] || !base)
                continue;
            size_t *members = xcalloc(nv, sizeof(size_t)), n = 0;
            bool distinct = false;
            for (size_t w = v; w < nv; w++) {
                const struct results_run *x = cell_run(rd, rd->arms[a].name, rd->variants[w].index);
                if (used[w] || !x || !same_but_guests(base, x))
                    continue;
                /* one member per guest count (shared runs serve several variants) */
                bool dup = false;
                for (size_t k = 0; k < n && !dup; k++)
                    dup = r->variants[members[k]].cells[a].guests ==
                          r->variants[w].cells[a].guests;
                used[w] = true;
                if (dup)
                    continue;
                distinct |= n > 0;
                members[n++] = w;
            }
            if (!distinct) {
                free(members);
                continue;
            }
            /* by guests */
            for (size_t i = 1; i < n; i++)
                for (size_t k = i; k > 0 && r->variants[members[k - 1]].cells[a].guests >
                                                r->variants[members[k]].cells[a].guests;
                     k--) {
                    size_t t = members[k];
                    members[k] = members[k - 1];
                    members[k - 1] = t;
                }
            r->scaling = xrealloc(r->scaling, (r->n_scaling + 1) * sizeof(*r->scaling));
            struct report_scaling *sc = &r->scaling[r->n_scaling++];
            sc->arm = a;
            sc->group = label_without_guests(rd->variants[v].label);
            sc->variants = members;
            sc->n = n;
            const struct report_cell *one = &r->variants[members[0]].cells[a];
            /* every variant of the group (shared guest counts too) */
            for (size_t w = 0; w < nv; w++) {
                const struct results_run *x = cell_run(rd, rd->arms[a].name, rd->variants[w].index);
                struct report_cell *c = &r->variants[w].cells[a];
                if (x && same_but_guests(base, x) && isnan(c->efficiency) && one->guests == 1 &&
                    one->tps_stats.n > 0 && one->tps_stats.mean > 0 && c->tps_stats.n > 0 &&
                    c->guests > 0)
                    c->efficiency = c->tps_stats.mean / (c->guests * one->tps_stats.mean);
            }
        }
    }
    free(used);
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
            c->ratio_host = r->host_arm < 0
                                ? NAN
                                : ratio_of(c, &rv->cells[r->host_arm], &c->ratio_host_per_guest);
            c->ratio_first_guest = NAN;
            if (r->first_guest_arm >= 0 && (int)a > r->first_guest_arm &&
                !strcmp(c->arm->kind, "guest"))
                c->ratio_first_guest = ratio_of(c, &rv->cells[r->first_guest_arm],
                                                &c->ratio_first_guest_per_guest);
        }
    }
    build_scaling(r);
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
            free(r->variants[v].cells[a].per_guest);
            free(r->variants[v].cells[a].tps_seq);
        }
        free(r->variants[v].cells);
    }
    free(r->variants);
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i].text);
    free(r->notes);
    for (size_t i = 0; i < r->n_scaling; i++) {
        free(r->scaling[i].group);
        free(r->scaling[i].variants);
    }
    free(r->scaling);
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
            const struct report_cell *c = &rv->cells[a];
            double v = pass == 0 ? c->ratio_host : c->ratio_first_guest;
            bool per = pass == 0 ? c->ratio_host_per_guest : c->ratio_first_guest_per_guest;
            if (isnan(v) || used >= len)
                continue;
            used += (size_t)snprintf(buf + used, len - used, "%s%s/%s %.3f %s", used ? ", " : "",
                                     c->arm->name, r->rd->arms[ref].name, v,
                                     per ? "per guest" : "aggregate");
        }
    }
}

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

static const char *noise_verdict(const struct report_cell *c)
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
    static const char *const head[] = {"arm", "kind", "guests", "n",         "TPS mean",
                                       "95% CI", "sd", "CV",    "TPS/guest", "drifted"};
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
                             noise_verdict(c),
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

static const char *basis_name(double ratio, bool per_guest)
{
    return isnan(ratio) ? "" : per_guest ? "per_guest" : "aggregate";
}

#define SUMMARY_COLS 40

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
        "guest_steal_pct_max", "noisy_runs", "pin"};
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
                report_number(b[37], 32, c->guest_steal_max), b[38], c->pin};
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
    json_object_object_add(o, "noise", json_object_new_string(noise_verdict(c)));
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

static void print_json(const struct report *r, FILE *out)
{
    const struct results_data *rd = r->rd;
    static const char *const kinds[] = {"drift", "warmup", "noise",   "skew",
                                        "run_status", "fits", "not_run", "skipped_lines"};
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
        t = report_conditions_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
        fputs("\n", out);
        t = report_figures_table(r, v);
        report_table_print(t, f, out, md ? "" : "  ");
        report_table_free(t);
    }
    struct report_table *sc = report_scaling_table(r);
    if (sc) {
        fprintf(out, "\n%sScaling with the number of guests\n\n", md ? "## " : "");
        report_table_print(sc, f, out, md ? "" : "  ");
        report_table_free(sc);
        fprintf(out, "\n%s%s\n", md ? "" : "  ", report_scaling_rule);
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
