/* phase.h: what the phases of a run share, inside the experiment module
 * (experiment.c runs prepare, measure and collect; warmup.c the warm-up;
 * measured.c turns a measure phase's readings into samples). Not for use
 * outside those three files: experiment.h is the module's interface.
 *
 * A phase runs a function on every target at once, a thread each
 * (phase_each); the first failure is kept as the run's reason, naming the
 * phase and the target (phase_fail, any thread). */
#ifndef VBED_PHASE_H
#define VBED_PHASE_H

#include "experiment/experiment.h"
#include "targets/innodb.h"
#include "probes/layers.h"
#include "hostside/noise.h"
#include "workloads/sysbench.h"

#include <pthread.h>
#include <stdbool.h>

/* per-target state of the warm-up and the measure phase */
struct measured {
    /* warm-up: the slice just run, and every slice's intervals so far */
    struct sysbench_report slice;
    bool slice_parsed;
    struct sysbench_interval *warm;
    int *warm_slice;          /* the slice (1-based) of each */
    size_t n_warm;
    int slices;
    /* measure */
    struct innodb_counters before, after;
    struct layer_snapshot layers_before, layers_after;
    bool after_ok;            /* counters read after the phase: deltas can be given */
    char guest_dev[16];       /* the data disk's name in the guest */
    struct cpu_times guest_before, guest_after;
    bool guest_before_ok, guest_after_ok;
    struct sysbench_report report;
    bool parsed;
    /* a workload other than sysbench-oltp: its own parsed result (its
     * free_state frees it) */
    void *result;
};

struct job {
    struct experiment *e;
    struct target *t;
    struct measured *m;
    int (*fn)(struct job *);
    pthread_barrier_t *barrier;
    int rc;
};

/* Keep the first failure as e->error ("in phase P: ..."); -1. Any thread. */
int phase_fail(struct experiment *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fn on every target at once (m: per-target state, may be NULL; barrier:
 * release them together); -1 if any failed or vbed was interrupted. */
int phase_each(struct experiment *e, struct measured *m, int (*fn)(struct job *), bool barrier);
/* sysbench on one target, its output in t->out_path; -1 said why. */
int phase_sysbench(struct job *j, enum workload_cmd cmd, long long seconds, const char *out,
                   long timeout, long first_ms);
/* The time a sysbench run of `seconds` may overrun before it is given up. */
long phase_grace(long long seconds);
/* tps_interval samples of a phase (slice: each interval's warm-up slice, or NULL). */
void phase_intervals(struct experiment *e, const struct target *t, const struct sysbench_interval *iv,
                     const int *slice, size_t n, const char *phase, double start, double offset);

/* sysbench-oltp's phases (workloads/sysbench_oltp.c names them): prepare
 * and measure one target, record the arm's TPS over the common window. */
int phase_sysbench_prepare(struct job *j);
int phase_sysbench_measure(struct job *j);
int phase_sysbench_record(struct experiment *e, struct measured *m, int rc);

/* warmup.c: warmup = auto (slices until steady) or a fixed warm-up. */
int phase_warmup(struct experiment *e, struct measured *m);

/* measured.c: what a measure phase records. */
void phase_residency(struct experiment *e, const char *when);
/* The noise of each host of a run's targets over the measure phase: its
 * CPU times (/proc/stat, read there: hostside.h) and the CPU of the run's
 * part on it (its targets' servers; vbed and its children where vbed runs),
 * before and after. One per host, indexed by its first target. */
struct host_noise {
    size_t target;        /* the first target on that host */
    bool ok;              /* both readings of /proc/stat */
    struct cpu_times c0, c1;
    double run0, run1;    /* -1 unknown */
};
/* Fill noise (room for e->n) with the readings before; the count. */
size_t phase_noise_begin(struct experiment *e, struct host_noise *noise);
void phase_noise_end(struct experiment *e, struct host_noise *noise, size_t n);
void phase_noise_samples(struct experiment *e, const struct measured *m, const struct host_noise *noise,
                         size_t n);
void phase_report_samples(struct experiment *e, const struct target *t, const struct measured *m);

/* Target i is the first of the run's targets on its host. */
bool phase_first_of_host(const struct experiment *e, size_t i);
/* extra (or a new object) with label "host" = t's host, when it has one. */
json_object *phase_host_label(const struct target *t, json_object *extra);

#endif
