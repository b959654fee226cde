/* workloads/workload.h: what a workload is to the experiment -- one small
 * ops struct per implementation, registered by the `workload` key's value,
 * the way fio's I/O engines are:
 *
 *   sysbench-oltp  oltp_read_only, oltp_read_write, oltp_write_only,
 *                  oltp_point_select (sysbench_oltp.c; the phases are
 *                  experiment.c's and warmup.c's, unchanged)
 *   seq_write      fio sequential writes, fsync at the end (seqio.c)
 *   seq_read       fio sequential reads of a file laid out in prepare
 *   tar_extract    the image's fixed archive extracted, then sync (tar_extract.c)
 *
 * The experiment (experiment.h) runs, for every target at once:
 * prepare -> (host caches dropped) -> warmup -> measure (all targets
 * released together) -> parse -> record. A workload says which figure is
 * the arm's headline (the report's main column, and what repeats = auto
 * looks at) and which metrics it records per target, with their units.
 *
 * Every function here may be called from any thread; ops are constant. */
#ifndef VBED_WORKLOADS_WORKLOAD_H
#define VBED_WORKLOADS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>


struct experiment;
struct measured;
struct job;

struct workload_metric {
    const char *name; /* sample metric */
    const char *unit;
};

struct workload_ops {
    const char *name;          /* "sysbench-oltp", "seq_write", ... */
    const char *headline;      /* the arm's figure, one sample per run: "tps_arm", "mbps_arm" */
    const char *headline_unit; /* "tx/s", "MB/s" */
    const struct workload_metric *metrics; /* per target; {NULL} ends */
    bool needs_db;             /* a MariaDB server on every target (InnoDB counters) */
    /* one target; -1 after phase_fail */
    int (*prepare)(struct job *j);
    /* every target; NULL: no warm-up (a raw I/O workload measures a cold start) */
    int (*warmup)(struct experiment *e, struct measured *m);
    /* one target, started together with the others; -1 after phase_fail */
    int (*measure)(struct job *j);
    /* the measure phase's figures into samples, and the arm's headline into
     * e->tps_arm (name kept: the headline whatever its unit); rc: the
     * measure phase's so far; returns the phase's rc */
    int (*record)(struct experiment *e, struct measured *m, int rc);
    /* per-target state the workload keeps in struct measured */
    void (*free_state)(struct measured *m);
};

/* The implementation behind a `workload` value (enum workload); never NULL. */
const struct workload_ops *workload_ops_for(int workload);

extern const struct workload_ops workload_sysbench_oltp;
extern const struct workload_ops workload_seq_write;
extern const struct workload_ops workload_seq_read;
extern const struct workload_ops workload_tar_extract;

#endif
