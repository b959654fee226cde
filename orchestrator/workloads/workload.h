/* workload.h: the workloads layer -- what a workload is to the experiment:
 * one small ops struct per implementation, registered by the `workload`
 * key's value, the way fio's I/O engines are:
 *
 *   sysbench-oltp  oltp_read_only, oltp_read_write, oltp_write_only,
 *                  oltp_point_select (sysbench_oltp.c: prepare with the
 *                  compression check, warm-up until steady, measure over a
 *                  common window; sysbench.c's command lines and parser)
 *   seq_write      fio sequential writes, fsync at the end (seqio.c)
 *   seq_read       fio sequential reads of a file laid out in prepare
 *   tar_extract    the image's fixed archive extracted, then sync (tar_extract.c)
 *
 * A workload owns its phases. It sees a target (targets/target.h), the
 * run's settings and a sample sink -- never the experiment: the
 * experiment runs, for every target at once, prepare -> (host caches
 * dropped) -> warm-up -> measure (all targets released together:
 * wl_together) -> record, and frames the measure phase with its own
 * counters (probes/). A workload says which figure is the arm's headline
 * (the report's main column, and what repeats = auto looks at) and which
 * metrics it records per target, with their units. Also here, for those
 * phases: the jobs of a phase run in parallel (job.c) and the steady-state
 * and common-window rules over interval rates (steady.h, window.h). This
 * layer may call probes/, targets/, virt/, image/, hostside/, report/,
 * model/, results/, scenario/ and util/.
 *
 * Threads: a phase's functions run in a thread per target (wl_each);
 * wl_fail may be called from any of them; ops are constant. */
#ifndef VBED_WORKLOADS_WORKLOAD_H
#define VBED_WORKLOADS_WORKLOAD_H

#include "results/samples.h"
#include "scenario/keys.h"
#include "targets/target.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct wl_run;

/* One target's share of a run: what every phase function gets. */
struct wl_job {
    const struct run_config *cfg;
    struct target *t;
    struct samples *samples;
    void *state;         /* the workload's own per-target state (free_state frees it) */
    void *frame;         /* what the caller of the phases keeps per target (the
                            experiment: its probes); workloads leave it alone */
    struct wl_run *run;  /* the other jobs, the first failure */
    int rc;              /* the last phase function's */
};

/* The jobs of one run, one per target, and what the phases share. */
struct wl_run {
    struct wl_job *jobs;
    size_t n;
    const char *phase;   /* the phase running, for the reason of a failure */
    bool prepare_only;   /* nothing is measured after the prepare (experiment.h): no
                            advice on what a measurement will see */
    double measure_s;    /* the measure phase's length: cfg->duration, or what the
                            workload chose before it (duration = auto); the experiment
                            reads it to time its readings during the phase */
    char error[512];     /* the first failure: "in phase P: what, naming the target" */
    pthread_mutex_t lock;
    pthread_barrier_t barrier; /* wl_together's, while a phase has one */
};

/* Jobs for the n targets t[0..n) (samples: the sink); free with wl_run_free. */
void wl_run_init(struct wl_run *r, const struct run_config *cfg, struct target *t, size_t n,
                 struct samples *samples);
void wl_run_free(struct wl_run *r, void (*free_state)(struct wl_job *j));
/* fn on every job at once, a thread each (together: with a barrier for
 * wl_together); -1 if any failed or vbed was interrupted. */
int wl_each(struct wl_run *r, int (*fn)(struct wl_job *), bool together);
/* Keep the first failure of the run ("in phase P: ..."); -1. Any thread. */
int wl_fail(struct wl_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int wl_run_fail(struct wl_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Wait until every job of a `together` phase got here: the measured
 * programs start the moment the last target is ready to. Call it once in
 * every job, also one that is about to fail (the others wait for it). */
void wl_together(struct wl_job *j);
/* Run argv on the job's target, output to out_name, within timeout s
 * (first look after first_ms); -1 after wl_fail naming `what`, the target
 * and the log. */
int wl_run_program(struct wl_job *j, const char *const argv[], const char *const env[],
                   const char *out_name, long timeout, long first_ms, const char *what);

struct workload_metric {
    const char *name; /* sample metric */
    const char *unit;
};

struct workload_ops {
    const char *name;          /* "sysbench-oltp", "seq_write", ... */
    const char *const *values; /* the `workload` key's values it implements; NULL ends */
    const char *headline;      /* the arm's figure, one sample per run: "tps_arm", "mbps_arm" */
    const char *headline_unit; /* "tx/s", "MB/s" */
    const struct workload_metric *metrics; /* per target; {NULL} ends */
    bool needs_db;             /* a MariaDB server on every target (InnoDB counters) */
    /* one target; -1 after wl_fail */
    int (*prepare)(struct wl_job *j);
    /* every target; NULL: no warm-up (a raw I/O workload measures a cold start) */
    int (*warmup)(struct wl_run *r);
    /* one target, released with the others by wl_together; -1 after wl_fail */
    int (*measure)(struct wl_job *j);
    /* the measure phase's figures into samples, and the arm's headline into
     * *headline; rc: the measure phase's so far; returns the phase's rc */
    int (*record)(struct wl_run *r, int rc, double *headline);
    /* per-target state the workload keeps in j->state; NULL-safe */
    void (*free_state)(struct wl_job *j);
    /* its program's output of a measure phase as the target's figure in
     * headline_unit (what it adds to the arm's headline): 0, or -1 with the
     * reason in err. Output is hostile input: one fuzz target drives every
     * workload's parse (tests/fuzz/fuzz_workloads.c). */
    int (*parse)(const char *text, double *figure, char *err, size_t errlen);
};

/* The implementation behind a `workload` value (its index in the key's
 * choices); never NULL: a value without one is a bug, and aborts. */
const struct workload_ops *workload_ops_for(int workload);

/* Every workload's file makes itself known at start-up, the way fio's I/O
 * engines do: WORKLOAD_REGISTER(its ops) at file scope. The registry is
 * then the list of files that are linked in (the Makefile links the whole
 * library), and a new workload touches no other file. */
void workload_register(const struct workload_ops *ops);
#define WORKLOAD_REGISTER(ops)                                                                     \
    static void __attribute__((constructor)) register_##ops(void) { workload_register(&ops); }
/* The registered implementations, in no particular order (tests). */
size_t workload_count(void);
const struct workload_ops *workload_at(size_t i);

extern const struct workload_ops workload_sysbench_oltp;
extern const struct workload_ops workload_seq_write;
extern const struct workload_ops workload_seq_read;
extern const struct workload_ops workload_tar_extract;

#endif
