/* report.h: the report layer -- what a results directory says: statistics
 * (stats.h), cells and ratios (this file), the time budget and its model
 * (gap.h), tables and text formats (report_format.c, table.h), plots
 * (plot.h), the html page (html.h), compare (compare.h) and vbed list
 * (runlist.h). It may call results/, scenario/ and util/.
 *
 * What a results directory says, as numbers and tables.
 *
 * report_build() turns the samples of a results directory (resultsread.h)
 * into one cell per (variant, arm): the arm's TPS per repeat (the tps_arm
 * sample of each run: the sum over its guests of their mean interval TPS
 * over the common measure window, warm-up excluded) with mean, sd, n, 95%
 * CI and CV, and the same per guest (tps_arm / the run's guests); ratios of
 * mean TPS per guest (every non-host arm / the host arm, every guest arm
 * after the first / the first guest arm), which are aggregate ratios when
 * both arms have the same number of guests, and say which; when guests is
 * a variant axis, the scaling of each arm (consolidation efficiency); the
 * conditions of each cell (where the data fits, warm-up, steady state,
 * noise, CPU pinning); and the figures that explain them (means over guests
 * and repeats). It also collects notes: runs whose TPS still drifts or that
 * never became steady in warm-up, runs measured on a noisy machine, cells
 * whose data fits in the buffer pool, runs whose guests started measuring
 * far apart, runs that failed or did not run, layer counters that do not
 * fit together. When the results hold per-layer counters (gap.h), each
 * cell has its layers and, for a guest arm, the split of its gap to the
 * host arm: where a transaction's time goes.
 *
 * Every output format (table, csv = summary.csv, json, markdown, and the
 * html page in html.c) is fed from the same struct report. A cell of fewer
 * than 2 repeats has a mean but no sd, CI or CV: "-" in tables, empty in
 * csv, null in json.
 *
 * The files: build.c puts a report together from the cells (report.c),
 * the scaling (scaling.c) and the notes (notes.c); format_text.c (table,
 * markdown), format_csv.c (csv, summary.csv) and format_json.c print it,
 * report_hosts.c adds the per-host table. */
#ifndef VBED_REPORT_H
#define VBED_REPORT_H

#include "model/gap.h"
#include "results/resultsread.h"
#include "model/stats.h"
#include "report/table.h"

#include <stdio.h>

#define REPORT_SKEW_LIMIT 0.1 /* measure start skew above this share of the window */
/* the steady-state and noise limits are verdicts.h's */

struct report_cell {
    const struct results_arm *arm;
    double *tps;       /* tps_arm of each run, in run order */
    double *per_guest; /* tps_arm / the run's guests, in run order */
    int *tps_seq;      /* the run (seq) of each */
    struct stats_summary tps_stats, per_guest_stats;
    const char *unit; /* of tps*: "tx/s" (tps_arm) or "MB/s" (mbps_arm); "" if no run counted */
    int guests; /* the runs' config.guests (1 for a host arm); else the guests seen; 0 unknown */
    /* ratios of mean TPS per guest (equal to the aggregate ratio when both
     * arms have the same number of guests: then *_per_guest is false) */
    /* the host arm it is compared with: the first one that ran on its host,
     * else the first host arm (host_ref_elsewhere); -1 if none */
    int host_ref;
    bool host_ref_elsewhere;
    double ratio_host;        /* / that host arm; NAN if not applicable */
    bool ratio_host_per_guest;
    double ratio_first_guest; /* / the first guest arm; NAN if not applicable */
    bool ratio_first_guest_per_guest;
    /* guests as a variant axis: TPS / (guests x TPS of 1 guest alone) in the
     * same settings; NAN when not applicable */
    double efficiency;
    /* explaining figures, means over guests and repeats; NAN when absent */
    double compression_ratio, bp_hit_ratio, host_cache_after_bytes, latency_p95_ms;
    double skew_max_s;           /* measure_start_skew_s, the largest; NAN when absent */
    int drifting, drift_samples; /* steady_state_drift beyond the limit, of all */
    int runs_drifted;            /* counted runs with a target beyond the drift limit */
    int runs_unshown;            /* ... and with a target not shown steady (none drifted) */
    /* where the data fits: the largest cache level any target needed
     * ("buffer_pool" < "guest_page_cache" < "host_page_cache" < "none"), "" unknown */
    const char *fits, *fits_basis;
    double working_set_bytes, buffer_pool_bytes; /* means over targets and runs */
    /* buffer_pool = auto (every counted run): the pool it got and the
     * memory resident outside it (memory_overhead_bytes), sysbench's and
     * the margin (buffer_pool_auto_bytes' labels), means; NAN unknown */
    bool pool_auto;
    double pool_auto_bytes, pool_overhead_bytes, pool_sysbench_bytes, pool_margin_bytes,
        pool_memory_bytes;
    /* warm-up: mean over runs of the longest a target needed; NAN unknown */
    double warmup_s;
    const char *warmup_mode; /* "auto", "fixed", "mixed" or "" */
    int warmup_not_steady;   /* runs in which a target reached warmup_max unsteady */
    /* noise: the largest figure over the counted runs; NAN: not available */
    double host_steal_max, host_other_max, guest_steal_max;
    int noisy_runs;
    /* this machine's CPU speed over the measure phases (hostside/speed.h):
     * host_speed_unit_ms, the mean over the counted runs, and the report's
     * median over all counted runs divided by it (> 1: faster); NAN */
    double speed_unit_ms, speed_index;
    /* and of each counted run, in the order of tps[] (NAN where it has
     * none), with the host it was read on ("" unknown) */
    double *speed_run_ms;
    const char **speed_run_host;
    /* a guest arm's own speed: guest_speed_unit_ms (workloads/guestspeed.h),
     * the mean over its guests and counted runs; NAN */
    double guest_speed_unit_ms;
    /* performance_schema's instruments switched off and on in the running
     * server (workloads/pscost.h): TPS on / off of each pair (the mean
     * over the run's targets, which switched together), over the pairs of
     * the counted runs; n 0: not measured */
    struct stats_summary ps_on_off;
    char pin[24]; /* "pinned", "vCPUs pinned", "not pinned", "none", "mixed" or "" */
    /* where the time goes (gap.h): the arm's layers, and for a guest arm
     * its split against the host arm (valid false when not applicable) */
    struct gap_arm layers;
    struct gap_split gap;
    /* a guest arm after the first against the first (the untuned guest):
     * what its tuning won, part by part (valid false when not applicable) */
    struct gap_split gap_guest;
};

struct report_variant {
    const struct results_variant *variant;
    struct report_cell *cells; /* one per arm, in rd->arms order */
};

enum report_note_kind {
    NOTE_DRIFT,
    NOTE_WARMUP,
    NOTE_NOISE,
    NOTE_SKEW,
    NOTE_RUN_STATUS,
    NOTE_FITS,
    NOTE_NOT_RUN,
    NOTE_SKIPPED_LINES,
    NOTE_LAYERS, /* counters of an arm's layers that do not fit together */
    NOTE_HOST_ELSEWHERE, /* an arm compared with a host arm that ran on another host */
    NOTE_POOL_AUTO,     /* buffer_pool = auto: what InnoDB got, and why */
    NOTE_SPEED,         /* this machine's CPU speed moved between the runs */
    NOTE_ONE_REPEAT,    /* arms compared from one repeat each: their run-to-run spread unknown */
    NOTE_SHARED_CPUS,   /* guests that ran with unpinned vCPUs on shared CPUs */
    NOTE_SUPERLINEAR    /* N guests did more than N times one's work: the machine's speed moved */
};

struct report_note {
    enum report_note_kind kind;
    int seq, repeat, guest;
    const char *arm;
    const char *figure; /* NOTE_NOISE: the metric */
    double value, limit, window;
    const char *status;
    char *text; /* the note as a sentence */
};

/* guests as a variant axis: one arm in one setting of the other axes */
struct report_scaling {
    size_t arm;               /* index into rd->arms */
    char *group;              /* the variant label without its guests item; "" if none */
    size_t *variants;         /* indexes into report.variants, by guests */
    size_t n;
};

struct report {
    const struct results_data *rd;
    struct report_variant *variants; /* rd->n_variants of them */
    int host_arm, first_guest_arm;   /* index into rd->arms, -1 if none */
    struct report_note *notes;
    size_t n_notes;
    struct report_scaling *scaling;
    size_t n_scaling;
    bool has_layers; /* some arm has per-layer counters (gap.h): show them */
    /* print the method's paragraphs and each prediction's arithmetic
     * (vbed report --explain); else a line that names docs/method.md and
     * one line per prediction */
    bool explain;
    /* host_speed_unit_ms over every counted run: the median, and the
     * slowest and fastest run as indices (median / the run's); NAN without */
    double speed_median_ms, speed_index_lo, speed_index_hi;
    size_t speed_runs;
    /* the headline figure of every cell (workloads/workload.h): the one
     * sample of a run whose metric ends in "_arm" (report_headline_sample):
     * "TPS" from tps_arm (tx/s, sysbench-oltp), else its unit -- "MB/s"
     * from mbps_arm (seq_write, seq_read, tar_extract), "q/s" from qps_arm
     * (mariadb_slap) -- and "TPS or MB/s" when a scenario mixes them; the
     * cells' tps* fields and the csv/json tps_* names hold it whatever its
     * unit */
    const char *headline;
    char headline_buf[64];
    bool headline_other; /* some headline is neither tx/s nor MB/s */
};

/* s is a run's headline: tps_arm (tx/s), mbps_arm (MB/s), or another
 * metric "<name>_arm" whose unit is a short word of letters, digits, '/'
 * and '%' (the reader let it through as text; it becomes a column title, a
 * plot label). */
bool report_headline_sample(const struct results_sample *s);
/* Its unit: tx/s and MB/s by the metric's name, as vbed writes them; the
 * sample's own for any other headline. */
const char *report_headline_unit(const struct results_sample *s);

/* Build the report of rd (which must outlive it). Never fails. */
struct report *report_build(const struct results_data *rd);
void report_free(struct report *r);

/* Print the whole report in a format. */
void report_print(const struct report *r, enum report_format f, FILE *out);

/* How TPS and the explaining figures are defined, as sentences. */
extern const char report_tps_rule[];
extern const char report_mbps_rule[];
/* for a headline that is neither */
extern const char report_other_rule[];
extern const char report_figures_rule[];
extern const char report_scaling_rule[];

/* A cell's noise: "noisy" (a counted run beyond a limit of verdicts.h),
 * "quiet", or "n/a" when no noise figure was recorded. */
const char *report_noise_verdict(const struct report_cell *c);

/* The TCG warning sentence, or NULL for KVM (and unknown) runs. */
const char *report_accel_warning(const struct report *r);
/* "guest/host 0.024 per guest, tuned/host 0.040 aggregate, ..." or "" */
void report_ratios_text(const struct report *r, size_t variant, char *buf, size_t len);

/* Arms whose guests ran on several hosts: per (arm, host) guests, TPS per
 * guest and boot-to-ready (report_hosts.c); NULL when no arm did. */
struct report_table *report_hosts_table(const struct report *r);

/* The tables of one variant (human formatting), and summary.csv's. */
struct report_table *report_tps_table(const struct report *r, size_t variant);
struct report_table *report_figures_table(const struct report *r, size_t variant);
struct report_table *report_summary_table(const struct report *r);
/* How each cell was measured: fits in, warm-up, steady state, noise, pin. */
struct report_table *report_conditions_table(const struct report *r, size_t variant);
/* Per layer of every arm: requests, waits and cache hit ratios per
 * transaction, copies of the data (gap.h). */
struct report_table *report_layers_table(const struct report *r, size_t variant);
/* Where the time goes: per arm its time per transaction split into the
 * budget's parts (gap.h) with their 95 % CI, the rest, whether the budget
 * closes, and copies of the data. */
struct report_table *report_time_table(const struct report *r, size_t variant);
/* Per guest arm the guest's CPU in a chain's transaction by the tasks that
 * ran it (gap.h's gap_task; the connections and sysbench hold the chain's
 * own), beside the chain's own CPU and the guest's CPU besides it; no rows
 * where the tasks probe was not read. */
struct report_table *report_tasks_table(const struct report *r, size_t variant);
/* Per guest arm the split of its difference from the host arm, one row per
 * part: ms +- its 95 % CI, points of loss, whether the CI excludes 0 (no rows
 * when no split applies). */
struct report_table *report_gap_table(const struct report *r, size_t variant);
/* Each arm's budget in a sentence (closes or not, and why), one per line. */
void report_budget_text(const struct report *r, size_t variant, char *buf, size_t len);
/* Each tuned guest arm's TPS predicted from the untuned guest's budget
 * (predict.h) against what it measured (no rows when none applies). */
struct report_table *report_prediction_table(const struct report *r, size_t variant);
/* The same as sentences, one per line. */
void report_prediction_text(const struct report *r, size_t variant, char *buf, size_t len);
/* The same, one short line per tuned arm: predicted, measured, the errors
 * of the model and of "no change", the tolerance and the verdict. */
void report_prediction_brief(const struct report *r, size_t variant, char *buf, size_t len);
/* The report's line that names where its figures are defined. */
extern const char report_method_pointer[];
/* What performance_schema's instruments cost each arm that measured it
 * (ps_cost), one sentence; "" when none did. */
void report_pscost_text(const struct report *r, size_t variant, char *buf, size_t len);
extern const char report_prediction_rule[];
/* The generated sentences of a variant (one per guest arm), one per line. */
void report_gap_text(const struct report *r, size_t variant, char *buf, size_t len);
extern const char report_gap_rule[];
/* guests as an axis: one row per (arm, setting, guests); NULL when none. */
struct report_table *report_scaling_table(const struct report *r);

/* Write summary.csv (one row per variant x arm) into the directory dirfd
 * (dir names it in messages), never through a link planted there
 * (outfile.h). -1 reported. */
int report_write_summary_to(const struct report *r, int dirfd, const char *dir);
/* Read results_dir and write its summary.csv into it (whoever's it is: the
 * caller has checked). -1 reported. */
int report_write_summary(const char *results_dir);

#endif
