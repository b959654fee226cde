/* report.c: per (variant, arm) statistics of a results directory, the
 * scaling of guests as an axis and the notes (see report.h;
 * the tables, text formats and summary.csv are report_format.c's). */
#include "report/report.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"
#include "results/verdicts.h"

#include <errno.h>
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

const char report_mbps_rule[] =
    "MB/s is the arm's throughput per repeat for a raw I/O workload: the sum over its targets of "
    "the MB/s (decimal, 1e6 bytes) each measured, started together -- fio's bandwidth with its final "
    "fsync included (seq_write, seq_read), or the archive's bytes over the time of tar -x and sync "
    "(tar_extract). MB/s/guest divides it by the run's number of guests; ratios as for TPS.";

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
static bool run_counts(const struct results_data *rd, int seq) { return results_run_ok(rd, seq); }

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
        if ((!strcmp(s->metric, "tps") || !strcmp(s->metric, "mb_s")) && !strcmp(s->arm, c->arm->name) &&
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
    c->unit = "";
    c->guests = cell_guests(rd, variant, c);
    /* first the runs that count: their tps_arm */
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        /* the headline: tps_arm, or mbps_arm for a raw I/O workload */
        if ((strcmp(s->metric, "tps_arm") != 0 && strcmp(s->metric, "mbps_arm") != 0) ||
            !isfinite(s->value) ||
            strcmp(s->arm, c->arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !run_counts(rd, s->seq))
            continue;
        const struct results_run *run = results_find_run(rd, s->seq);
        int g = run && run->guests > 0 ? run->guests : c->guests;
        const char *unit = strcmp(s->metric, "mbps_arm") == 0 ? "MB/s" : "tx/s";
        if (*c->unit && strcmp(c->unit, unit) != 0)
            continue; /* one arm, one workload per variant: a stray figure does not mix in */
        c->unit = unit;
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
        } else if (!strcmp(s->metric, "latency_p95_ms") || !strcmp(s->metric, "clat_p95_ms")) {
            /* sysbench: a transaction's; fio: one block's completion */
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
        den->guests <= 0 || strcmp(num->unit, den->unit) != 0) /* no TPS over MB/s */
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

/* Layer counters that do not fit together, one note per cell. */
static void notes_layers(struct report *r, size_t *cap)
{
    for (size_t v = 0; v < r->rd->n_variants; v++)
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            char text[1024];
            gap_problems_text(&c->layers, text, sizeof(text));
            if (!*text)
                continue;
            struct report_note *n = add_note(r, cap, NOTE_LAYERS, INT_MAX);
            n->arm = c->arm->name;
            n->text = xasprintf("arm %s, variant %d: the layers' counters do not fit together: %s",
                                c->arm->name, r->variants[v].variant->index, text);
        }
}

/* The host an arm ran on: labels.host of its headline samples ("" if none
 * or unlabelled; "a,b" for a guest arm spread over hosts). */
static const char *arm_host(const struct results_data *rd, const char *arm)
{
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if ((!strcmp(s->metric, "tps_arm") || !strcmp(s->metric, "mbps_arm")) && !strcmp(s->arm, arm))
            return s->host;
    }
    return "";
}

/* Each arm's host arm to compare with: one on the same host if any ran there. */
static void choose_host_refs(struct report *r, int *ref, bool *elsewhere)
{
    const struct results_data *rd = r->rd;
    const char **host = xcalloc(rd->n_arms + 1, sizeof(*host));
    for (size_t a = 0; a < rd->n_arms; a++)
        host[a] = arm_host(rd, rd->arms[a].name);
    for (size_t a = 0; a < rd->n_arms; a++) {
        ref[a] = r->host_arm;
        elsewhere[a] = false;
        if (r->host_arm < 0 || !*host[a])
            continue;
        bool found = false;
        for (size_t h = 0; h < rd->n_arms && !found; h++)
            if (!strcmp(rd->arms[h].kind, "host") && !strcmp(host[h], host[a])) {
                ref[a] = (int)h;
                found = true;
            }
        elsewhere[a] = !found && *host[ref[a]] && strcmp(host[ref[a]], host[a]) != 0;
    }
    free(host);
}

static void note_host_elsewhere(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    if (!rd->n_variants)
        return;
    for (size_t a = 0; a < rd->n_arms; a++) {
        const struct report_cell *c = &r->variants[0].cells[a];
        if (!c->host_ref_elsewhere || (int)a == c->host_ref)
            continue;
        struct report_note *n = add_note(r, cap, NOTE_HOST_ELSEWHERE, INT_MAX - 1);
        n->arm = rd->arms[a].name;
        n->text = xasprintf("arm %s ran on %s; no host arm ran there, so it is compared with host "
                            "arm %s on %s: its ratio and gap mix two hosts.",
                            rd->arms[a].name, arm_host(rd, rd->arms[a].name),
                            rd->arms[c->host_ref].name, arm_host(rd, rd->arms[c->host_ref].name));
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
    notes_layers(r, &cap);
    note_host_elsewhere(r, &cap);
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
    bool tps = false, mbps = false;
    for (size_t i = 0; i < rd->n_samples; i++) {
        tps = tps || !strcmp(rd->samples[i].metric, "tps_arm");
        mbps = mbps || !strcmp(rd->samples[i].metric, "mbps_arm");
    }
    r->headline = mbps && tps ? "TPS or MB/s" : mbps ? "MB/s" : "TPS";
    for (size_t a = 0; a < rd->n_arms; a++) {
        if (r->host_arm < 0 && !strcmp(rd->arms[a].kind, "host"))
            r->host_arm = (int)a;
        if (r->first_guest_arm < 0 && !strcmp(rd->arms[a].kind, "guest"))
            r->first_guest_arm = (int)a;
    }
    int *ref = xcalloc(rd->n_arms + 1, sizeof(*ref));
    bool *elsewhere = xcalloc(rd->n_arms + 1, sizeof(*elsewhere));
    choose_host_refs(r, ref, elsewhere);
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
            c->host_ref = ref[a];
            c->host_ref_elsewhere = elsewhere[a];
            c->ratio_host = c->host_ref < 0 || c->host_ref == (int)a
                                ? NAN
                                : ratio_of(c, &rv->cells[c->host_ref], &c->ratio_host_per_guest);
            c->ratio_first_guest = NAN;
            if (r->first_guest_arm >= 0 && (int)a > r->first_guest_arm &&
                !strcmp(c->arm->kind, "guest"))
                c->ratio_first_guest = ratio_of(c, &rv->cells[r->first_guest_arm],
                                                &c->ratio_first_guest_per_guest);
        }
        /* where the time goes */
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            gap_measure_arm(rd, rv->variant->index, c->arm, &c->layers);
            c->layers.tps = c->tps_stats.n ? c->per_guest_stats.mean : NAN;
            r->has_layers |= c->layers.targets > 0;
        }
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            if (c->host_ref >= 0 && c->layers.guest)
                gap_split(&c->layers, &rv->cells[c->host_ref].layers, &c->gap);
            else
                gap_split_clear(&c->gap);
        }
    }
    free(ref);
    free(elsewhere);
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
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            const struct report_cell *c = &rv->cells[a];
            int ref = pass == 0 ? c->host_ref : r->first_guest_arm;
            if (ref < 0)
                continue;
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
