/* experiment.h: the phases of one run on its targets (guests of a guest
 * arm, or the host arm), the same code for both. What each phase runs is
 * the workload's (workloads/workload.h); for sysbench-oltp:
 *
 *   prepare   CREATE DATABASE sbtest; sysbench prepare (compressed tables
 *             through vbed_oltp.lua); compression checked (fails loudly)
 *             then where the data fits (workingset.h): working_set_bytes
 *   caches    drop_caches = yes: sync and drop the page cache of every host
 *             a target runs on (hostside.h: over ssh for a remote host;
 *             a host without a shell transport is named in a warning)
 *   warm-up   warmup = auto: sysbench in slices in every target until all
 *             are steady (steady.h), at most warmup_max; or a fixed length.
 *             warmup_s per target; TPS intervals kept as phase=warmup
 *   measure   counters, /proc/stat (host and guests) and host page-cache
 *             residency before; sysbench run for `duration`, started in
 *             every target at the same moment (threads released together);
 *             the same after: steal and other processes' CPU (noise.h),
 *             and the counters of every layer of each target's path
 *             (layers.h) as deltas over the phase
 *   collect   MariaDB's error log of every target
 * A raw I/O workload (seq_write, seq_read, tar_extract) has no warm-up and
 * no InnoDB counters; the rest of the measure frame (noise, layers, host
 * page cache) is the same.
 *
 * Targets work in parallel, a thread each. Every figure goes to samples as
 * soon as it is known, so a failure later in the run loses nothing. */
#ifndef VBED_EXPERIMENT_H
#define VBED_EXPERIMENT_H

#include "scenario/keys.h"
#include "results/samples.h"
#include "targets/target.h"

struct workload_ops;

struct experiment {
    const struct run_config *cfg;
    const struct workload_ops *ops; /* NULL: the one cfg->workload names (workloads/workload.h) */
    struct target *t;
    size_t n;
    struct samples *samples;
    char error[512];          /* the first failure: "in phase P: what, naming the target" */
    const char *phase;        /* the phase running (for error) */
    double tps_arm;           /* the result: the arm's headline figure (TPS over the common
                                 window for sysbench-oltp; MB/s for a raw I/O workload) */
    double cpu_measure_s;     /* vbed's own CPU time during the measure phase */
    char hv_fields[512];      /* libvirt's domain stats offered (layers.h), for meta.json */
};

/* 0, or -1 with e->error set (also when interrupted). */
int experiment_run(struct experiment *e);

#endif
