/* report.c: the cells of a report (see report.h): per (variant, arm) the
 * TPS of each counted run with its statistics, the figures that explain
 * them (where the data fits, warm-up, steady state, noise, pinning), the
 * ratios between arms and the host arm each arm is compared with; the
 * sentences that define them, the TCG warning, a cell's noise verdict and
 * the ratios as text. report_build() and report_free() are build.c's; the
 * notes notes.c's, the scaling scaling.c's, the formats format_*.c's. */
#include "report/report.h"
#include "report/cells.h"
#include "util/xalloc.h"

#include "results/verdicts.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

const char report_other_rule[] =
    "A headline in another unit is the workload's own figure per repeat (its raw logs say how it "
    "is measured): the sum over the arm's targets of what each measured, started together; "
    "per guest it is divided by the run's number of guests; ratios as for TPS.";

bool report_headline_sample(const struct results_sample *s)
{
    if (!strcmp(s->metric, "tps_arm") || !strcmp(s->metric, "mbps_arm"))
        return true;
    size_t n = strlen(s->metric), u = strlen(s->unit);
    if (n < 5 || strcmp(s->metric + n - 4, "_arm") != 0 || u == 0 || u > 8)
        return false;
    return strspn(s->unit, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/%") == u;
}

const char *report_headline_unit(const struct results_sample *s)
{
    return !strcmp(s->metric, "tps_arm") ? "tx/s" : !strcmp(s->metric, "mbps_arm") ? "MB/s" : s->unit;
}

const char report_figures_rule[] =
    "Figures are means over guests and repeats. host cache after: the guest's data disk in the "
    "host page cache after the measure phase. drifting: guests whose TPS drifted over the measure "
    "phase beyond its own 95 % CI (batch means) and +-0.05 (results of an older vbed: beyond "
    "+-0.1), of those checked. steady: yes where every run's targets were shown steady (the "
    "drift's 95 % CI within +-5 %), not shown where none drifted but some CI was wider, no where "
    "one drifted or a warm-up reached its cap. skew max: the largest gap between the starts of "
    "the guests' measure phases. fits in: the smallest cache that holds the working set (the "
    "largest over the targets). warm-up: the longest a target needed, mean over repeats. noise: "
    "the largest over the runs of the host's steal time and of the CPU of processes outside the "
    "run (% of the host's CPUs), and of steal time inside a guest; n/a when not recorded. CPU "
    "speed: this machine's while the arm measured (a fixed zlib job once a second, timed by its "
    "own CPU clock), the median over all runs divided by the arm's mean: below 1, the machine "
    "was slower than usual; - when not measured (a remote host, results of an older vbed).";

const char report_scaling_rule[] =
    "efficiency = TPS of N guests together / (N x TPS of 1 guest alone) in the same settings: "
    "1 when consolidating costs nothing.";

const char report_prediction_rule[] =
    "Prediction: each tuned guest arm's TPS per guest from the untuned guest's budget and the tuned "
    "arm's configuration alone: its pool (buffer_pool, or auto's from the untuned guest's memory "
    "outside the pool), foreground reads per transaction r_A = r_G x miss(pool_A) / miss(pool_G) "
    "with miss(b) = max(0, 1 - b / working set), a read's latency on its path (the guest page cache: "
    "the untuned guest's; O_DIRECT over the host page cache: its guest block read latency; "
    "cache=none: the host device's plus the virtual disk's own), the misses m_A = m_G x "
    "miss(pool_A) / miss(pool_G) (m_G: the untuned guest's InnoDB data reads per transaction, "
    "every thread's), what a miss adds to a statement in the untuned guest c_G (measured after "
    "its measure phase: lookups on pages outside the pool against the same lookups again, the "
    "pages then in it), of the misses the chain's own f_G = min(r_G, m_G) (the reads its "
    "connection thread waited for; the others reach it only through the vCPU they take, in the "
    "contention term) and f_A = f_G x miss(pool_A) / miss(pool_G), w_A = "
    "w_G - the untuned guest's read time + r_A x latency - (f_G - f_A) x (c_G - its read "
    "latency), TPS = k / w_A. An O_DIRECT arm, where the untuned guest also read the table's "
    "file with fio after its measure phase (random 16 KiB reads, through its page cache and "
    "with O_DIRECT): every miss also pays x = direct - cached read (what the virtual disk adds), "
    "a foreground read waits only for the host device (its read latency, under cache=none; else "
    "0), and w_A gains m_A x x (a miss costs c_A = c_G - its read latency + x + that wait "
    "there). Contention: the chain waits while the guest's other tasks or its client run; with "
    "the untuned guest's tasks read (O_G: its other tasks' CPU per transaction, B_G of it InnoDB's "
    "background -- page cleaner, task pool, mariadbd's other threads --, C_G: its client's), "
    "O_A = O_G - B_G x (1 - m_A / m_G), q_A = q_G x (O_A + C_G) / (O_G + C_G) and w_A loses q_G - "
    "q_A; without them contention is held at the untuned guest's. With them and the same probe's "
    "CPU figures (what a request costs, direct against cached, for reads and for random 16 KiB "
    "writes into a scratch file: y_r, y_w -- the CPU of the guest's QEMU process on the host "
    "around each job where the probe read it, else fio's thread's), an O_DIRECT arm's misses read "
    "by other threads "
    "and its page writes (W_A = the untuned guest's InnoDB data writes per transaction x "
    "miss(pool_A) / miss(pool_G)) are requests other tasks submit: O_A gains (m_A - f_A) x y_r + "
    "W_A x y_w, and only the chain's own misses pay x (w_A gains f_A x x, not m_A x x). "
    "Results without "
    "the miss-cost probe take only the misses' "
    "decompressions (INNODB_CMP uncompress time, CPU share) as what they cost. The machine's speed "
    "moves between runs, and a guest under emulation several times as much: where the run's guest "
    "arms were repeated with the host's speed gauge (host_speed_unit_ms), log TPS per guest is "
    "fitted as an intercept per arm plus e x log gauge, one e for every guest arm, over how each "
    "arm's repeats moved with the gauge (s the residual sd, df = runs - arms - 1 >= 2). Then the "
    "tuned arm against the untuned one at one speed, log(A / G) = (y_A - y_G) - e (x_A - x_G) "
    "(means over their runs of log TPS per guest and log gauge), is set against the predicted "
    "ratio w_G / w_A; the tolerance is h = t(0.975, df) x s x sqrt(1 / n_A + 1 / n_G + (x_A - "
    "x_G)^2 / Sxx), Sxx the within-arm sum of squares of log gauge. Without such a fit the "
    "tolerance is sqrt(a^2 + g^2), a and g the relative 95 % CIs of the measured TPS and of the "
    "prediction (the untuned guest's relative CI: the prediction scales with its budget): the "
    "difference's own 95 % CI, no floor. Beside the model stands the null model, \"the tuning "
    "changes nothing\" (A measures G's TPS per guest; at one speed a ratio of 1). The prediction "
    "agrees when its error is within the tolerance and the null model's is not; where both are "
    "within it the verdict is \"cannot tell\"; where only the null model's is, it does not agree. "
    "Where the tolerance exceeds 50 % (few repeats that differ), or where either arm ran one repeat (its "
    "run-to-run spread unknown), it is not judged.";

const char report_method_pointer[] =
    "Every figure is defined in docs/method.md of vbed's source (the figures; where the time goes; "
    "the prediction); `vbed report --explain` prints the definitions and each prediction's "
    "arithmetic here. Every +- is a 95 % CI; with one run there is none (\"n/a\", or no +-).";

const char report_gap_rule[] =
    "Where the time goes: per target, a chain -- a sysbench thread and the connection thread "
    "serving it -- spends w = k x I / N seconds per transaction (k threads, I the interval the "
    "counters were read over, N the transactions the server counted for the benchmark's "
    "connections in it; k x W / T over the whole phase where N is absent), "
    "split from the connection thread's states read twice during the measure phase "
    "(on-CPU and run queue from schedstat, block I/O from delay accounting) and performance_schema's "
    "sums for the benchmark's connections: CPU = on-CPU x (1 - p), of which the server's compression (INNODB_CMP "
    "times: server-wide, its page cleaner's too, per transaction); CPU contention = run queue + on-CPU x p (p: the share of its time a guest's vCPU waited "
    "for a host CPU, from libvirt; 0 on the host arm); commit I/O and foreground reads share the "
    "block I/O: the commit stage's time (the redo log's write and flush) and the data files' "
    "reads' time, the reads' at most the reads that reached a device (the guest's block layer, "
    "the host arm's device: their share of InnoDB's data reads) x that device's time per read -- "
    "a read a page cache served never waits for a device; each gets its time or, where the block "
    "I/O was less than both, the block I/O in their proportion (without the devices' counters: "
    "the commit first, the reads what is left); "
    "locks = synch waits; client = w - statement time; none is capped by what the others leave, so "
    "a wrong counter shows as unattributed time; a part whose counter is absent is n/a; "
    "unattributed (other) = w - the parts. An arm's budget closes only when every target has one, "
    "sysbench's transactions equal the server's commits and rollbacks over the phase within 2 % "
    "(older results: their rates within 15 %), the thread's states (on-CPU + run queue + block "
    "I/O) exceed their interval by at most 2 % (a wait that spans a reading counts whole), and other lies within +-10 % of w. Each figure "
    "carries a 95 % CI over the runs (a run's targets averaged first: its guests are not independent), "
    "with the counters' resolution; one run has none. A guest "
    "arm's difference from the host arm splits into the parts' differences (CPU: the "
    "virtualization/emulation CPU) and a residual (other_G - other_H); points of loss = part / "
    "difference x loss x 100, where loss = 1 - TPS per guest / host TPS; a part is named in a "
    "sentence only when its 95 % CI excludes 0 (one run: the parts are listed, none named). The model explains a run when both budgets close and the "
    "residual is within 10 % of the difference. n/a: a counter vbed could not read (never 0); its "
    "time is in other. Layers: requests per transaction at each layer and the hit ratio of the "
    "cache above it; copies: the data held at once in the buffer pool, the guest page cache and "
    "the host page cache, in working sets.";

/* ---- the cells ---- */

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

static const char *pin_state(const struct results_run *run)
{
    if (!run || !*run->pin)
        return "";
    if (!strcmp(run->pin, "none"))
        return "none";
    if (run->pin_applied != 1)
        return "not pinned";
    /* placement.h: the emulators float when the host had no CPU for them */
    for (size_t k = 0; k < run->n_pins; k++)
        if (!*run->pins[k].emulator)
            return "vCPUs pinned";
    return "pinned";
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

void report_fill_cell(const struct results_data *rd, int variant, struct report_cell *c)
{
    struct mean_acc cr = {0}, bp = {0}, hc = {0}, p95 = {0}, ws = {0}, bpb = {0}, wu = {0}, pa = {0},
                    psb = {0}, pmb = {0}, pob = {0}, pmem = {0}, spd = {0}, gspd = {0};
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
        /* the headline: tps_arm, mbps_arm for a raw I/O workload, ... */
        if (!report_headline_sample(s) || !isfinite(s->value) ||
            strcmp(s->arm, c->arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !run_counts(rd, s->seq))
            continue;
        const struct results_run *run = results_find_run(rd, s->seq);
        int g = run && run->guests > 0 ? run->guests : c->guests;
        const char *unit = report_headline_unit(s);
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
         *unsteady = xcalloc(n_tps + 1, sizeof(bool)), *unshown = xcalloc(n_tps + 1, sizeof(bool));
    double *warm = xcalloc(n_tps + 1, sizeof(double));
    for (size_t k = 0; k < n_tps; k++)
        warm[k] = NAN;
    int fits = -1;
    const char *basis = "";
    /* ps_on_off_ratio: one figure per run and pair, the mean over the
     * run's targets (they switched at the same moment: one pair of theirs
     * is not independent of another's) */
    double *ps = xcalloc(rd->n_samples + 1, sizeof(double));
    int *ps_n = xcalloc(rd->n_samples + 1, sizeof(int)), *ps_seq = xcalloc(rd->n_samples + 1, sizeof(int)),
        *ps_pair = xcalloc(rd->n_samples + 1, sizeof(int));
    size_t n_ps = 0;
    c->speed_run_ms = xcalloc(n_tps + 1, sizeof(double));
    c->speed_run_host = xcalloc(n_tps + 1, sizeof(char *));
    for (size_t k = 0; k < n_tps + 1; k++)
        c->speed_run_ms[k] = NAN;
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
            if (k != SIZE_MAX && !strcmp(s->steady, "unshown"))
                unshown[k] = true;
        } else if (!strcmp(s->metric, "working_set_bytes")) {
            acc_add(&ws, s->value);
            int rank = fits_rank(s->fits);
            if (rank > fits)
                fits = rank;
            if (*s->basis)
                basis = !*basis || !strcmp(basis, s->basis) ? s->basis : "mixed";
        } else if (!strcmp(s->metric, "buffer_pool_bytes")) {
            acc_add(&bpb, s->value);
        } else if (!strcmp(s->metric, "buffer_pool_auto_bytes")) {
            acc_add(&pa, s->value);
        } else if (!strcmp(s->metric, "buffer_pool_auto_sysbench_bytes")) {
            acc_add(&psb, s->value);
        } else if (!strcmp(s->metric, "buffer_pool_auto_margin_bytes")) {
            acc_add(&pmb, s->value);
        } else if (!strcmp(s->metric, "memory_overhead_bytes")) {
            acc_add(&pob, s->value);
        } else if (!strcmp(s->metric, "host_speed_unit_ms") && k != SIZE_MAX && s->value > 0 &&
                   isfinite(s->value)) {
            acc_add(&spd, s->value);
            if (isnan(c->speed_run_ms[k])) {
                c->speed_run_ms[k] = s->value;
                c->speed_run_host[k] = s->host ? s->host : "";
            }
        } else if (!strcmp(s->metric, "guest_speed_unit_ms") && k != SIZE_MAX && s->value > 0) {
            acc_add(&gspd, s->value);
        } else if (!strcmp(s->metric, "guest_memory_bytes")) {
            acc_add(&pmem, s->value);
        } else if (!strcmp(s->metric, "ps_on_off_ratio") && k != SIZE_MAX && isfinite(s->value) &&
                   s->value > 0 && s->pair > 0) {
            size_t g = 0;
            while (g < n_ps && !(ps_seq[g] == s->seq && ps_pair[g] == s->pair))
                g++;
            if (g == n_ps) {
                ps_seq[n_ps] = s->seq;
                ps_pair[n_ps++] = s->pair;
            }
            ps[g] += s->value;
            ps_n[g]++;
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
        c->runs_unshown += unshown[k] && !drifted[k];
        c->noisy_runs += noisy[k];
        c->warmup_not_steady += unsteady[k];
        acc_add(&wu, warm[k]);
        const char *pin = pin_state(results_find_run(rd, c->tps_seq[k]));
        if (k == 0)
            snprintf(c->pin, sizeof(c->pin), "%s", pin);
        else if (strcmp(c->pin, pin) != 0)
            snprintf(c->pin, sizeof(c->pin), "mixed");
    }
    for (size_t g = 0; g < n_ps; g++)
        ps[g] /= ps_n[g];
    stats_summarize(ps, n_ps, &c->ps_on_off);
    free(ps);
    free(ps_n);
    free(ps_seq);
    free(ps_pair);
    free(drifted);
    free(noisy);
    free(unsteady);
    free(unshown);
    free(warm);
    c->fits = fits >= 0 ? fits_order[fits] : "";
    c->fits_basis = basis;
    if (!c->warmup_mode)
        c->warmup_mode = "";
    c->warmup_s = acc_mean(&wu);
    c->speed_unit_ms = acc_mean(&spd);
    c->guest_speed_unit_ms = acc_mean(&gspd);
    c->speed_index = NAN; /* the report's median is known once every cell is (build.c) */
    c->working_set_bytes = acc_mean(&ws);
    c->buffer_pool_bytes = acc_mean(&bpb);
    c->pool_auto = n_tps > 0;
    for (size_t k = 0; k < n_tps; k++) {
        const struct results_run *run = results_find_run(rd, c->tps_seq[k]);
        c->pool_auto &= run && !strcmp(results_run_config(run, "buffer_pool"), "auto");
    }
    c->pool_auto_bytes = acc_mean(&pa);
    c->pool_overhead_bytes = acc_mean(&pob);
    c->pool_sysbench_bytes = acc_mean(&psb);
    c->pool_margin_bytes = acc_mean(&pmb);
    c->pool_memory_bytes = acc_mean(&pmem);
    c->compression_ratio = acc_mean(&cr);
    c->bp_hit_ratio = acc_mean(&bp);
    c->host_cache_after_bytes = acc_mean(&hc);
    c->latency_p95_ms = acc_mean(&p95);
}

double report_ratio_of(const struct report_cell *num, const struct report_cell *den, bool *per)
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

const char *report_arm_host(const struct results_data *rd, const char *arm)
{
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (report_headline_sample(s) && !strcmp(s->arm, arm))
            return s->host;
    }
    return "";
}

/* Each arm's host arm to compare with: one on the same host if any ran there. */
void report_choose_host_refs(struct report *r, int *ref, bool *elsewhere)
{
    const struct results_data *rd = r->rd;
    const char **host = xcalloc(rd->n_arms + 1, sizeof(*host));
    for (size_t a = 0; a < rd->n_arms; a++)
        host[a] = report_arm_host(rd, rd->arms[a].name);
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

const char *report_accel_warning(const struct report *r)
{
    if (!results_is_tcg(r->rd))
        return NULL;
    return "These figures come from QEMU software emulation (TCG), not KVM: they are not "
           "comparable with KVM figures.";
}

const char *report_noise_verdict(const struct report_cell *c)
{
    if (isnan(c->host_steal_max) && isnan(c->host_other_max) && isnan(c->guest_steal_max))
        return "n/a";
    return c->noisy_runs ? "noisy" : "quiet";
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
