/* experiment.h: the experiment layer -- a run's phases on its targets
 * (the guests of a guest arm, or the host arm), the same code for every
 * kind of target, and the runs of a plan (runner.h; guestrun.c and
 * hostrun.c provide an arm's targets and take them down again; leftovers.h
 * removes what a killed vbed left). It may call every layer below: report/,
 * model/, workloads/, probes/, targets/, virt/, image/, hostside/,
 * results/, scenario/ and util/. It names no workload and never asks which kind a
 * target is or how its host is reached.
 *
 * One run, for every target at once:
 *
 *   prepare   the workload's (workloads/workload.h); how each target's data
 *             came (loaded or copied) and how long it took into meta.json
 *   caches    drop_caches = yes: sync and drop the page cache of every host
 *             a target runs on (hostside.h: over ssh for a remote host; a
 *             host without a shell transport is named in a warning)
 *   warm-up   the workload's, if it has one
 *   measure   the probes' counters (probes/probe.h), /proc/stat of every
 *             host and the host page cache's hold on each target's data
 *             (measure.h) before; the workload's measure, released in every
 *             target at the same moment; the same after: steal and other
 *             processes' CPU, and every layer's counters as deltas over the
 *             phase; then the workload records its figures and the arm's
 *             headline
 *   collect   MariaDB's error log of every target
 *
 * Targets work in parallel, a thread each. Every figure goes to samples as
 * soon as it is known, so a failure later in the run loses nothing. */
#ifndef VBED_EXPERIMENT_H
#define VBED_EXPERIMENT_H

#include "results/samples.h"
#include "scenario/keys.h"
#include "targets/target.h"

struct workload_ops;

struct experiment {
    const struct run_config *cfg;
    const struct workload_ops *ops; /* NULL: the one cfg->workload names (workloads/workload.h) */
    struct target *t;
    size_t n;
    struct samples *samples;
    json_object *meta_run;    /* the run's meta.json entry (not owned), or NULL: after the
                                 prepare phase, "prepare" says how each target's data came */
    char error[512];          /* the first failure: "in phase P: what, naming the target" */
    double headline;          /* the result: the arm's headline figure (TPS over the common
                                 window for sysbench-oltp; MB/s for a raw I/O workload) */
    double cpu_measure_s;     /* vbed's own CPU time during the measure phase */
    bool prepare_only;        /* the prepare phase alone (hostprepare.h): no caches dropped,
                                 no warm-up, nothing measured */
    char hv_fields[512];      /* libvirt's domain stats offered (probes/), for meta.json */
};

/* 0, or -1 with e->error set (also when interrupted). */
int experiment_run(struct experiment *e);

#endif
