/* report.h: what a results directory says, as numbers and tables.
 *
 * report_build() turns the samples of a results directory (resultsread.h)
 * into one cell per (variant, arm): the arm's TPS per repeat (the tps_arm
 * sample of each run: the sum over its guests of their mean interval TPS
 * over the common measure window, warm-up excluded) with mean, sd, n, 95%
 * CI and CV; ratios of mean TPS (every non-host arm / the host arm, every
 * guest arm after the first / the first guest arm); and the figures that
 * explain them (means over guests and repeats). It also collects notes:
 * runs whose TPS still drifts (|steady_state_drift| > 0.1), runs whose
 * guests started measuring far apart, runs that failed or did not run.
 *
 * Every output format (table, csv = summary.csv, json, markdown, and the
 * html page in html.c) is fed from the same struct report. A cell of fewer
 * than 2 repeats has a mean but no sd, CI or CV: "-" in tables, empty in
 * csv, null in json. */
#ifndef VBED_REPORT_H
#define VBED_REPORT_H

#include "resultsread.h"
#include "stats.h"
#include "table.h"

#include <stdio.h>

#define REPORT_DRIFT_LIMIT 0.1 /* |steady_state_drift| above this: not steady */
#define REPORT_SKEW_LIMIT 0.1  /* measure start skew above this share of the window */

struct report_cell {
    const struct results_arm *arm;
    double *tps;  /* tps_arm of each run, in run order */
    int *tps_seq; /* the run (seq) of each */
    struct stats_summary tps_stats;
    int guests;               /* distinct guests seen; 0 for a host arm */
    double ratio_host;        /* mean / the host arm's mean; NAN if not applicable */
    double ratio_first_guest; /* mean / the first guest arm's mean; NAN if not applicable */
    /* explaining figures, means over guests and repeats; NAN when absent */
    double compression_ratio, bp_hit_ratio, host_cache_after_bytes, latency_p95_ms;
    double skew_max_s;           /* measure_start_skew_s, the largest; NAN when absent */
    int drifting, drift_samples; /* steady_state_drift beyond the limit, of all */
};

struct report_variant {
    const struct results_variant *variant;
    struct report_cell *cells; /* one per arm, in rd->arms order */
};

enum report_note_kind { NOTE_DRIFT, NOTE_SKEW, NOTE_RUN_STATUS, NOTE_NOT_RUN, NOTE_SKIPPED_LINES };

struct report_note {
    enum report_note_kind kind;
    int seq, repeat, guest;
    const char *arm;
    double value, limit, window;
    const char *status;
    char *text; /* the note as a sentence */
};

struct report {
    const struct results_data *rd;
    struct report_variant *variants; /* rd->n_variants of them */
    int host_arm, first_guest_arm;   /* index into rd->arms, -1 if none */
    struct report_note *notes;
    size_t n_notes;
};

/* Build the report of rd (which must outlive it). Never fails. */
struct report *report_build(const struct results_data *rd);
void report_free(struct report *r);

/* Print the whole report in a format. */
void report_print(const struct report *r, enum report_format f, FILE *out);

/* How TPS and the explaining figures are defined, as sentences. */
extern const char report_tps_rule[];
extern const char report_figures_rule[];

/* The TCG warning sentence, or NULL for KVM (and unknown) runs. */
const char *report_accel_warning(const struct report *r);
/* "guest/host 0.049, tuned/host 0.040, tuned/guest 0.807" or "" */
void report_ratios_text(const struct report *r, size_t variant, char *buf, size_t len);

/* The tables of one variant (human formatting), and summary.csv's. */
struct report_table *report_tps_table(const struct report *r, size_t variant);
struct report_table *report_figures_table(const struct report *r, size_t variant);
struct report_table *report_summary_table(const struct report *r);

/* Write summary.csv (one row per variant x arm) into dir. -1 reported. */
int report_write_summary_to(const struct report *r, const char *dir);
/* Read results_dir and write its summary.csv (the runner calls this at the
 * end of a run). -1 reported. */
int report_write_summary(const char *results_dir);

#endif
