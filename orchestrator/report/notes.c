/* notes.c: the notes of a report (notes.h): sentences about what makes a
 * figure doubtful or missing -- TPS that drifts or never became steady in
 * warm-up, a noisy machine, guests that started measuring apart, runs that
 * failed or did not run, data that fits in the buffer pool, layer counters
 * that do not fit together, an arm compared with a host arm on another
 * host, guests that shared unpinned CPUs, a consolidation efficiency above
 * 1, skipped lines of samples.jsonl.
 * Owns r->notes and their order. */
#include "report/notes.h"
#include "report/cells.h"
#include "report/report.h"
#include "util/xalloc.h"

#include "results/verdicts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        n->text = xasprintf("run %d (%s, repeat %d)%s: TPS drifts by %+.3f over the measure phase, "
                            "more than its noise can make: it had not reached a steady state.",
                            s->seq, s->arm, s->repeat, who, s->value);
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
        bool pool_auto = true;
        struct mean_acc ws = {0}, bpb = {0};
        for (size_t v = 0; v < rd->n_variants; v++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            if (strcmp(c->fits, "buffer_pool") != 0)
                continue;
            acc_add(&ws, c->working_set_bytes);
            acc_add(&bpb, c->buffer_pool_bytes);
            pool_auto &= c->pool_auto;
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
        if (pool_auto)
            note->text = xasprintf("arm %s, variant%s %s: the working set fits in its buffer pool%s, "
                                   "which buffer_pool = auto gave it: reads stop reaching the disk, "
                                   "which is what this arm shows.",
                                   rd->arms[a].name, n == 1 ? "" : "s", list, sizes);
        else
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

/* Arms compared with a host arm that ran on another host, one note per arm. */
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
                            rd->arms[a].name, report_arm_host(rd, rd->arms[a].name),
                            rd->arms[c->host_ref].name, report_arm_host(rd, rd->arms[c->host_ref].name));
    }
}

/* buffer_pool = auto: what each such arm gave InnoDB, and why, one note
 * per arm and variant. */
static void notes_pool_auto(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    for (size_t v = 0; v < rd->n_variants; v++)
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            if (!c->pool_auto || !isfinite(c->pool_auto_bytes))
                continue;
            struct report_note *n = add_note(r, cap, NOTE_POOL_AUTO, INT_MAX);
            n->arm = c->arm->name;
            const double M = 1048576;
            if (isfinite(c->pool_memory_bytes) && isfinite(c->pool_overhead_bytes) &&
                isfinite(c->pool_sysbench_bytes) && isfinite(c->pool_margin_bytes))
                n->text = xasprintf(
                    "arm %s, variant %d: buffer_pool = auto gave InnoDB %.0f MiB: %.0f MiB of memory, "
                    "less %.0f MiB resident outside the pool (measured once the server ran: the "
                    "guest's kernel and processes, mariadbd outside its pool), %.0f MiB for sysbench "
                    "and a %.0f MiB margin.",
                    c->arm->name, r->variants[v].variant->index, c->pool_auto_bytes / M,
                    c->pool_memory_bytes / M, c->pool_overhead_bytes / M, c->pool_sysbench_bytes / M,
                    c->pool_margin_bytes / M);
            else
                n->text = xasprintf("arm %s, variant %d: buffer_pool = auto gave InnoDB %.0f MiB.",
                                    c->arm->name, r->variants[v].variant->index,
                                    c->pool_auto_bytes / M);
        }
}

/* this machine's CPU speed, when it moved between the runs more than
 * VERDICT_SPEED_SPREAD */
static void note_speed(struct report *r, size_t *cap)
{
    if (r->speed_runs < 2 || !(r->speed_index_hi - r->speed_index_lo > VERDICT_SPEED_SPREAD))
        return;
    struct report_note *n = add_note(r, cap, NOTE_SPEED, INT_MAX);
    n->value = r->speed_index_hi - r->speed_index_lo;
    n->limit = VERDICT_SPEED_SPREAD;
    n->text = xasprintf("this machine's CPU ran at %.2f to %.2f of its median speed over the %zu "
                        "runs (the CPU speed column): a ratio between two arms carries up to %.0f %% "
                        "of the machine's besides their configurations'%s",
                        r->speed_index_lo, r->speed_index_hi, r->speed_runs,
                        100 * (r->speed_index_hi / r->speed_index_lo - 1),
                        results_is_tcg(r->rd)
                            ? "; guests under TCG several times that (docs/method.md, The machine's speed)."
                            : ".");
}

/* Arms compared from one repeat each (a variant with two arms or more, none
 * of them repeated): their ratios, the gap's parts and the tuned arms'
 * predictions are this run's alone. Under TCG here one arm's TPS per guest
 * moved by up to 80 % between runs minutes apart while the guests of one run
 * agreed within a few % and the speed gauges moved by 10-30 % (docs/method.md,
 * Prediction): nothing within one run measures that spread. */
static void note_one_repeat(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    for (size_t v = 0; v < rd->n_variants; v++) {
        size_t once = 0, more = 0;
        for (size_t a = 0; a < rd->n_arms; a++) {
            size_t n = r->variants[v].cells[a].tps_stats.n;
            once += n == 1;
            more += n > 1;
        }
        if (once < 2 || more)
            continue;
        struct report_note *n = add_note(r, cap, NOTE_ONE_REPEAT, INT_MAX);
        n->text = xstrdup(
            "every arm ran once: the ratios, the parts of each gap and the tuned arms' predictions "
            "are this run's; how far they move from one run to the next is not measured (under "
            "TCG one arm's TPS has moved by tens of % between runs minutes apart). repeats = 3 or "
            "more measure it; a prediction is judged only then.");
        return; /* one note says it for every variant */
    }
}

/* Guest arms whose several guests ran with their vCPUs unpinned (or a
 * pinning not applied): one note per arm, from the first variant that
 * did (placement.h says why it matters). */
static void notes_shared_cpus(struct report *r, size_t *cap)
{
    const struct results_data *rd = r->rd;
    for (size_t a = 0; a < rd->n_arms; a++)
        for (size_t v = 0; v < rd->n_variants; v++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            if (strcmp(c->arm->kind, "guest") != 0 || c->guests < 2 || !c->tps_stats.n ||
                (strcmp(c->pin, "none") != 0 && strcmp(c->pin, "not pinned") != 0 &&
                 strcmp(c->pin, "mixed") != 0))
                continue;
            const struct results_run *run = results_find_run(rd, c->tps_seq[0]);
            struct report_note *n = add_note(r, cap, NOTE_SHARED_CPUS, INT_MAX);
            n->arm = c->arm->name;
            n->text = xasprintf(
                "arm %s, variant %d: its %d guests ran with their vCPUs %s, sharing the host's "
                "CPUs (%s); unpinned guests have taken a third more vCPU time per transaction "
                "here: read its ratios to pinned arms with care (docs/method.md, Placement).",
                c->arm->name, r->variants[v].variant->index, c->guests,
                !strcmp(c->pin, "mixed") ? "pinned in some runs only" : "not pinned",
                run && *run->pin_reason ? run->pin_reason : "no reason recorded");
            break;
        }
}

/* A scaling cell whose efficiency lies above VERDICT_EFFICIENCY_ABOVE: N
 * guests together cannot do more than N times one guest alone on the same
 * host, so the runs differed in something besides the number of guests --
 * under TCG here, the machine's speed (two 10-s runs a minute apart: 1.13
 * with CPU speeds 0.94 and 1.07; 1.41 in a CI run). Says so with both runs'
 * CPU speeds, once per cell. */
static void notes_superlinear(struct report *r, size_t *cap)
{
    for (size_t i = 0; i < r->n_scaling; i++) {
        const struct report_scaling *sc = &r->scaling[i];
        const struct report_cell *one = &r->variants[sc->variants[0]].cells[sc->arm];
        for (size_t k = 1; k < sc->n; k++) {
            const struct report_cell *c = &r->variants[sc->variants[k]].cells[sc->arm];
            if (!(c->efficiency > VERDICT_EFFICIENCY_ABOVE))
                continue;
            char speeds[160] = "";
            if (one->speed_index > 0 && c->speed_index > 0)
                snprintf(speeds, sizeof(speeds),
                         "; the machine's CPU ran at %.2f of its median speed with 1 guest and %.2f "
                         "with %d (x%.2f)",
                         one->speed_index, c->speed_index, c->guests,
                         c->speed_index / one->speed_index);
            struct report_note *n = add_note(r, cap, NOTE_SUPERLINEAR, INT_MAX);
            n->arm = c->arm->name;
            n->value = c->efficiency;
            n->limit = VERDICT_EFFICIENCY_ABOVE;
            n->text = xasprintf(
                "arm %s, %d guests: consolidation efficiency %.3f, above 1: %d guests together did "
                "more than %d times one guest alone, which sharing a host cannot do%s. The efficiency "
                "measures the machine as much as consolidation; repeats = 3 and order = shuffle "
                "measure how far it moves.",
                c->arm->name, c->guests, c->efficiency, c->guests, c->guests, speeds);
        }
    }
}

void report_collect_notes(struct report *r)
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
    notes_pool_auto(r, &cap);
    note_not_run(r, &cap);
    notes_layers(r, &cap);
    note_host_elsewhere(r, &cap);
    note_speed(r, &cap);
    note_one_repeat(r, &cap);
    notes_shared_cpus(r, &cap);
    notes_superlinear(r, &cap);
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
