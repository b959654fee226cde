/* report.h: the report layer -- what a results directory says, as tables
 * and text: the report built from its samples (build.c, report.c: the
 * cells and ratios of model/model.h's struct report), tables and text
 * formats (format_text.c, format_csv.c, format_json.c, table.h), plots
 * (plot.h), the html page (html.h), compare (compare.h) and vbed list
 * (runlist.h). The figures it formats are the model's (model/):
 * statistics, the time budget and its split, the prediction, the speed
 * fit, consolidation efficiency. It may call model/, results/, scenario/
 * and util/.
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
 * the scaling (model/scaling.c) and the notes (notes.c); format_text.c
 * (table, markdown), format_csv.c (csv, summary.csv) and format_json.c
 * print it, report_hosts.c adds the per-host table. */
#ifndef VBED_REPORT_H
#define VBED_REPORT_H

#include "model/model.h"
#include "report/table.h"
#include "results/resultsread.h"

#include <stdio.h>

#define REPORT_SKEW_LIMIT 0.1 /* measure start skew above this share of the window */
/* the steady-state and noise limits are verdicts.h's */

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
