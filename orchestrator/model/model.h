/* model.h: the model layer -- what a results directory's figures mean,
 * computed, never printed: the statistics of repeats (stats.h); where a
 * transaction's time goes, each arm's budget and the split of a guest
 * arm's gap to the host arm (gap.h); a tuned guest arm's TPS predicted
 * from the untuned guest's budget (predict.h); the machine's speed as a
 * covariate (speedfit.h); guests as a variant axis and each cell's
 * consolidation efficiency (scaling.h). It may call results/, scenario/
 * and util/; never report/, which builds the struct report below from a
 * results directory and formats what this layer computes.
 *
 * This file: the report's data, which the model reads and fills -- one
 * cell per (variant, arm), the variants, the scaling groups and the report
 * that holds them. report/report.h says how report_build fills them. */
#ifndef VBED_MODEL_H
#define VBED_MODEL_H

#include "model/gap.h"
#include "model/stats.h"
#include "results/resultsread.h"

#include <stdbool.h>
#include <stddef.h>

struct report_note; /* report/report.h */

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
     * sample of a run whose metric ends in "_arm" (report/report.h's
     * report_headline_sample): "TPS" from tps_arm (tx/s, sysbench-oltp),
     * else its unit -- "MB/s" from mbps_arm (seq_write, seq_read,
     * tar_extract), "q/s" from qps_arm (mariadb_slap) -- and "TPS or MB/s"
     * when a scenario mixes them; the cells' tps* fields and the csv/json
     * tps_* names hold it whatever its unit */
    const char *headline;
    char headline_buf[64];
    bool headline_other; /* some headline is neither tx/s nor MB/s */
};

#endif
