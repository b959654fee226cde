/* format_csv.c: the report as csv -- summary.csv's table, one row per
 * (variant, arm) with every figure of the cell in machine form ("" for
 * none) -- and writing summary.csv into a results directory. */
#include "report/format.h"
#include "report/report.h"

#include "util/log.h"
#include "util/outfile.h"
#include "util/paths.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SUMMARY_COLS 42

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
        "guest_steal_pct_max", "noisy_runs", "pin", "unit", "cpu_speed_index"};
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
                report_number(b[37], 32, c->guest_steal_max), b[38], c->pin, c->unit,
                report_number(b[41], 32, c->speed_index)};
            report_table_add(t, row);
        }
    }
    return t;
}

void report_print_csv(const struct report *r, FILE *out)
{
    struct report_table *t = report_summary_table(r);
    report_table_print(t, REPORT_CSV, out, "");
    report_table_free(t);
}

/* ---- summary.csv ---- */

int report_write_summary_to(const struct report *r, int dirfd, const char *dir)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, "summary.csv");
    FILE *f;
    struct outfile *of = outfile_begin(dirfd, "summary.csv", path, &f);
    if (!of)
        return -1;
    report_print_csv(r, f);
    return outfile_commit(of);
}

int report_write_summary(const char *results_dir)
{
    struct results_data *rd = results_read(results_dir);
    if (!rd)
        return -1;
    struct report *r = report_build(rd);
    int fd = outfile_open_dir(results_dir, NULL, NULL, 0);
    int rc = fd >= 0 ? report_write_summary_to(r, fd, results_dir) : -1;
    if (fd >= 0)
        close(fd);
    report_free(r);
    results_data_free(rd);
    return rc;
}
