/* gap.h: where a transaction's time goes -- a budget per arm that closes,
 * from states of the foreground chain that cannot overlap, and the split of
 * the gap between a guest arm and the host arm into parts, each with its
 * uncertainty; and the layers of each arm's I/O path (requests and cache
 * hit ratios). Pure: it reads a struct results_data and computes; it
 * prints nothing.
 *
 * The budget. Per target (a guest, or the host arm's mariadbd) over the
 * measure phase: T transactions (sysbench), k threads (config.threads), W
 * seconds (sysbench's total time). A chain -- a sysbench thread and the
 * connection thread that serves it -- spends w = k W / T seconds per
 * transaction. Its states come from the readings during the phase
 * (probes/chain.h, probes/perfschema.h), each turned into a share of the
 * interval it was read over and then into seconds per transaction (x w),
 * so that every figure below is the chain's own -- never a process's or a
 * device's total, never background work (the page cleaner, guest
 * writeback, QEMU's emulator and I/O threads enter only through the
 * foreground waits they cause):
 *
 *   oncpu  the connection thread on a CPU        chain_server_cpu_s
 *   runq   ... runnable, waiting for a CPU       chain_server_runq_s
 *   io     ... blocked on block I/O              chain_server_blkio_s
 *   stmt   ... inside a statement                ps_statement_s
 *   the connection thread's states partition its time: oncpu + runq + io
 *   + blocked = w, and blocked = (w - stmt) + the waits inside statements
 *   p      a guest's vCPU preempted: vcpu.delay / (vcpu.time + vcpu.delay)
 *          over the phase (libvirt); 0 for the host arm
 *
 * and the parts, which cannot overlap and add up to w with `other`:
 *
 *   cpu         oncpu x (1 - p)     the transaction's CPU in the server
 *                                   (its on-CPU time while the vCPU ran)
 *     of which  compression         (INNODB_CMP compress + uncompress time) / T,
 *                                   wall-clock time in zlib: x cpu / (cpu +
 *                                   contention), its share that was on a CPU
 *   contention  runq + oncpu x p    waiting for a CPU, in the target or
 *                                   behind the host's other work
 *   commit      min(commit stage, io)          the commit stage's block I/O
 *                                              (the redo log's write and flush)
 *               + min(commit stage - io,       and, where the stage lasted
 *                 blocked inside statements)   longer, its sleep on a log
 *                                              flush another thread issued
 *   reads       min(data-file reads, io - commit)  buffer-pool misses' block I/O
 *   locks       min(synch waits,               performance_schema wait/synch/%,
 *               blocked inside statements      as far as it was blocked time
 *               left)                          (stmt - oncpu - runq - io, less
 *                                              the commit's sleep): an
 *                                              uncontended latch's "wait" is
 *                                              CPU
 *   client      w - stmt, at most   sysbench's turn: the connection thread
 *               blocked             blocked between statements (its run-
 *                                   queue wait and CPU there are already
 *                                   contention's and CPU's); blocked = w -
 *                                   oncpu - runq - io
 *   other       w - the parts       the rest: I/O outside reads and
 *                                   commit, waits no counter names
 *
 * A part whose counter is absent is NAN ("n/a", never 0) and its time is
 * in `other`; no other part takes it. A part whose cap needs an absent
 * counter is n/a too (the client and locks need on-CPU, run queue and
 * block I/O; locks the statement time and the commit stage; the commit,
 * where its stage outlasted its block I/O, what the locks need; reads the
 * commit stage): its time
 * goes to other as well -- so dropping a counter only ever makes other
 * grow. The budget closes when other lies
 * between GAP_CLOSE_LOW and GAP_CLOSE_HIGH of w: below, counters overlap
 * (a part counted twice); above, the parts miss time.
 *
 * Uncertainty: each part carries a 95 % CI half-width (ci), with the run
 * as the unit: each run's figure is the mean of its targets (the guests of
 * one run share its host and its moment: not independent), and ci =
 * t(0.975, runs - 1) x the standard error over the runs, in quadrature
 * with the counters' resolution (delay accounting's 1/100 s ticks per
 * thread and reading; /proc/uptime's 1/100 s and the time a reading
 * took; INNODB_CMP's whole seconds). One run: ci is NAN ("n/a"), never
 * the guests' agreement and never 0.
 *
 * The split. A guest arm G against the host arm H of the same variant:
 * delta = w_G - w_H = the sum over parts of (part_G - part_H) + residual,
 * residual = other_G - other_H; each part's ci is the two arms' in
 * quadrature (a Welch-like half-width). loss = 1 - TPS_G / TPS_H (TPS per guest); a part in points
 * of loss = part / delta x |loss| x 100 (for a gain, points of the gain:
 * a part that shrank is positive, one that grew negative). A tuned guest
 * arm against the untuned one splits the same way (what the tuning won). The CPU part of the split is the
 * virtualization/emulation CPU: the guest's transaction CPU (vCPU delay
 * removed) minus the host arm's. A part is named in a sentence only when
 * its 95 % CI excludes 0 (gap_beyond_ci); with one run nothing is. The split is explained when both arms' budgets close
 * and |residual| <= GAP_RESIDUAL_LIMIT x |delta|: dropping a part can only
 * make `other` grow, so it never makes a run look explained.
 *
 * The layers of each arm (means of per-transaction figures): requests at
 * each layer (InnoDB data reads -> guest block reads -> QEMU read requests
 * -> host device reads) and the hit ratio of the cache between two layers:
 * buffer pool (bp_hit_ratio), guest page cache (1 - guest block reads /
 * InnoDB data reads), host page cache (1 - host device reads / QEMU reads;
 * the host arm: 1 - host device reads / InnoDB data reads), clamped to
 * [0, 1]; and the copies of the data held at once: (min(buffer pool,
 * working set) + min(the tables in the guest page cache, working set) +
 * min(the data disk in the host page cache, working set)) / working set, at
 * most 3 (a cache holding more than the working set holds other files). The host device is shared by the guests
 * of one run that name the same device (labels.device; without it, the
 * guests of a run): its counters are divided between them. Consistency
 * checks (gap_arm.problems) flag counters that do not fit together. */
#ifndef VBED_GAP_H
#define VBED_GAP_H

#include "results/resultsread.h"

#include <stdbool.h>
#include <stddef.h>

#define GAP_CLOSE_LOW (-0.10)      /* a budget closes when other / w lies between these */
#define GAP_CLOSE_HIGH 0.10
#define GAP_TPS_COUNT_LIMIT 0.02   /* sysbench's transactions against the server's: at most 2 % apart */
#define GAP_TPS_RATE_LIMIT 0.15    /* ... their rates over the phase and over the readings (older results) */
/* The thread's states may exceed their interval by this much: delay
 * accounting and schedstat add a wait when it ends, so a wait that spans
 * the first reading counts whole in the difference (a host arm's fsync on a
 * busy disk: 204 ms of a 20 s interval, 1.0 %, in a recorded run); more
 * means readings that do not cover the same time. */
#define GAP_STATES_OVER_LIMIT 0.02

/* how the headline's transactions were checked against the server's own */
enum { GAP_TPS_NONE, GAP_TPS_COUNT, GAP_TPS_RATE };
#define GAP_RESIDUAL_LIMIT 0.10    /* |residual| <= this share of |delta|, both budgets closed */
#define GAP_NAMED_MIN_POINTS 0.05  /* a part named must have |points| >= this (prints as 0.1 or more) */
#define GAP_GUEST_READS_LIMIT 1.25  /* guest block reads <= this x InnoDB data reads ... */
#define GAP_READAHEAD_ALLOWANCE 64  /* ... + this many reads per target (readahead, metadata) */
#define GAP_QEMU_READS_TOLERANCE 0.10    /* QEMU read requests vs guest block reads */
#define GAP_HOSTDEV_READS_TOLERANCE 0.25 /* cache=none: host device reads vs QEMU reads */
#define GAP_MISS_PROBE_MIN 20 /* fewer extra misses in the miss-cost probe: its cost n/a */

/* What a buffer-pool miss adds to a statement, from the miss-cost probe's
 * sums (workloads/misscost.h): (cold s - hot s) / (cold reads - hot
 * reads); NAN below GAP_MISS_PROBE_MIN extra misses or a figure absent. */
double gap_miss_cost(double hot_s, double hot_reads, double cold_s, double cold_reads);

/* the parts of a budget, in the order they are shown */
enum gap_part { GAP_CPU, GAP_CONTENTION, GAP_READS, GAP_COMMIT, GAP_LOCKS, GAP_CLIENT, GAP_PARTS };

/* a guest's CPU by the tasks that ran it (probes/tasks.h's groups, in
 * their order), and the busy time no task was charged for */
enum gap_task {
    GAP_TASK_PAGE_CLEANER,
    GAP_TASK_INNODB_POOL,
    GAP_TASK_CONNECTIONS,
    GAP_TASK_MARIADBD_OTHER,
    GAP_TASK_SYSBENCH,
    GAP_TASK_KERNEL,
    GAP_TASK_REST,
    GAP_TASK_UNATTRIBUTED,
    GAP_TASKS
};

enum gap_layer { GAP_LAYER_INNODB, GAP_LAYER_GUEST, GAP_LAYER_QEMU, GAP_LAYER_HOST, GAP_LAYERS };

/* One layer of an arm: per transaction, NAN when absent (or not a layer of
 * this arm: a host arm has no guest and QEMU layers). */
struct gap_layer_figures {
    double reads, writes, flushes; /* requests */
    double read_ms, write_ms;      /* waits; write_ms includes flushes */
    double hit;                    /* the cache above this layer, [0, 1] */
};

/* consistency checks (bits of gap_arm.problems) */
enum {
    GAP_CHECK_GUEST_READS = 1,  /* guest block reads > 1.25 x InnoDB data reads + readahead */
    GAP_CHECK_QEMU_READS = 2,   /* QEMU read requests differ from guest block reads by > 10 % */
    GAP_CHECK_HOSTDEV_READS = 4 /* cache=none: host device reads < 75 % of QEMU's */
};

/* One arm in one variant: means over its targets (guests x counted runs). */
struct gap_arm {
    size_t targets;  /* targets with a transactions count */
    size_t budgets;  /* of them, targets whose chain was read (the budget's basis) */
    bool guest;      /* a guest arm (else the host arm) */
    bool cache_none; /* every run of the arm has disk_cache = none */
    bool direct;     /* every run's flush_method is O_DIRECT or O_DIRECT_NO_FSYNC */
    double tps;      /* TPS per guest: set by the caller (build.c), NAN unknown */
    double w;        /* seconds per transaction of a chain over the readings' interval,
                        k x its interval / the transactions the server counted in it;
                        k W / T (the whole phase) where that is not known */
    double w_ci;     /* 95 % CI half-width of w over the runs; NAN with one run */
    int tps_check;   /* GAP_TPS_*: how sysbench's count was checked (the weakest of the targets) */
    double tps_diff; /* the largest relative difference between sysbench's and the server's */
    double states_over; /* the largest (on-CPU + run queue + block I/O) / interval - 1 */
    /* the budget (seconds per transaction; NAN: n/a) */
    double part[GAP_PARTS], ci[GAP_PARTS]; /* ci: 95 % CI half-widths (see above) */
    double other, other_ci; /* w - the known parts */
    double cpu;                /* = part[GAP_CPU] */
    double cmp, cmp_ci;     /* of which compression (INNODB_CMP) */
    bool cmp_in_cpu;           /* compression on, its CPU not measured: inside cpu */
    double uncmp, uncmp_ci; /* of cmp, the decompressions (0 without compression; NAN unknown) */
    double client_cpu;         /* of the client part, sysbench's CPU */
    /* the states behind it */
    double oncpu, runq, io, stmt, preempt; /* preempt: p, the vCPU's share waiting */
    double read_wait, commit_wait;         /* performance_schema's, per transaction */
    double reads_per_tx;                   /* foreground data-file reads (ps_reads) */
    double guest_other; /* a guest's CPU in a chain's w less the chain's own (on-CPU and
                         * client): its other threads' (/proc/stat's user + system, read by
                         * the tasks probe, x w over its interval; results without it: over
                         * the measure phase x w / W); NAN on the host arm or unknown */
    double tasks[GAP_TASKS]; /* a guest's CPU in a chain's w by task (tasks_*_cpu_s x w over
                              * the tasks probe's interval); NAN on the host arm or unknown */
    bool closes;    /* every target has a budget, sysbench's count is the server's, the
                       states fit their interval, other / w within the limits */
    /* what a prediction needs (model/predict.h): means over targets, NAN unknown */
    int threads;              /* config.threads (0 unknown or mixed) */
    double ws_bytes, bp_bytes; /* working_set_bytes, buffer_pool_bytes */
    double memory_bytes;      /* guest_memory_bytes */
    double overhead_bytes;    /* memory_overhead_bytes: a guest's memory outside the pool */
    double miss_cost;         /* seconds a buffer-pool miss adds to a statement (the
                                 miss_probe_* samples, workloads/misscost.h); NAN n/a */
    double read_extra;        /* seconds a read through the virtual disk costs beyond one
                                 from the guest page cache (read_probe_*_ms,
                                 workloads/readcost.h); NAN n/a */
    double read_cpu_extra;    /* the guest's CPU seconds such a read takes beyond one from
                                 its page cache (read_probe_*_cpu_ms); NAN n/a */
    double write_cpu_extra;   /* and a page write with O_DIRECT beyond one into its page
                                 cache (write_probe_*_cpu_ms); NAN n/a */
    double read_host_extra;   /* the same, as the CPU of the guest's whole QEMU process on
                                 the host (read_probe_*_host_ms); NAN n/a */
    double write_host_extra;  /* (write_probe_*_host_ms); NAN n/a */
    struct gap_layer_figures layer[GAP_LAYERS];
    double copies; /* copies of the data held at once; NAN unknown */
    const char *hypervisor_fields; /* the first run's meta.json hypervisor_fields, "" if none */
    /* read requests at each layer, totals over the targets (for the checks;
     * host device reads divided between the guests that share the device) */
    double sum_innodb_reads, sum_guest_reads, sum_qemu_reads, sum_host_reads;
    unsigned problems; /* GAP_CHECK_* */
};

/* A guest arm against the host arm. */
struct gap_split {
    bool valid;             /* both w and TPS known: delta and loss are */
    double delta;           /* w_G - w_H, seconds */
    double delta_ci;        /* 95 % CI half-widths here: the arms' in quadrature */
    double loss;            /* 1 - TPS_G / TPS_H */
    double part[GAP_PARTS]; /* seconds; NAN: n/a (its time is in the residual) */
    double ci[GAP_PARTS];
    double cmp, cmp_ci;  /* of which compression CPU */
    double residual;        /* seconds: other_G - other_H */
    double residual_ci;
    bool closes_g, closes_h; /* each arm's budget closes */
    bool vs_guest;           /* h is a guest arm (a tuned arm against the untuned one) */
    bool explained;          /* both close, |residual| <= GAP_RESIDUAL_LIMIT x |delta| */
};

/* Measure one arm of one variant from rd's samples (counted runs only). */
void gap_measure_arm(const struct results_data *rd, int variant, const struct results_arm *arm,
                     struct gap_arm *out);
/* The same without run skip_seq (a jackknife's replicate; -1: every run). */
void gap_measure_arm_without(const struct results_data *rd, int variant, const struct results_arm *arm,
                             int skip_seq, struct gap_arm *out);

/* Split g's time per transaction against h's. */
void gap_split(const struct gap_arm *g, const struct gap_arm *h, struct gap_split *out);
/* A split that does not apply: valid false, every figure NAN. */
void gap_split_clear(struct gap_split *out);

/* An arm's part p, seconds per transaction (NAN: n/a). */
double gap_arm_part(const struct gap_arm *a, enum gap_part p);
/* An arm's time per transaction that no part names: w - the known parts
 * (seconds; NAN without a budget; negative when counters overlap). */
double gap_other(const struct gap_arm *a);
/* other / w, NAN unknown */
double gap_other_share(const struct gap_arm *a);

/* A part (or the residual, seconds) in points of loss; NAN when unknown. */
double gap_points(const struct gap_split *s, double seconds);
/* Is compression's cmp an "of which" of the CPU part cpu: the same sign,
 * and no larger? (Where it is not, the rest of the CPU moved against it.) */
bool gap_cmp_within_cpu(double cmp, double cpu);

/* "CPU", "CPU contention", "foreground reads", ... (an arm's budget) */
const char *gap_part_name(enum gap_part p);
/* the same in a split: "CPU (virtualization/emulation)", ... */
const char *gap_split_part_name(enum gap_part p);
/* "page cleaner", "InnoDB task pool", ... (a task group of gap_arm.tasks) */
const char *gap_task_name(enum gap_task k);
/* "page_cleaner", "innodb_pool", ... (json keys) */
const char *gap_task_key(enum gap_task k);
/* "cpu", "contention", "reads", "commit", "locks", "client" (json keys) */
const char *gap_part_key(enum gap_part p);
/* "InnoDB", "guest block", "QEMU", "host device" */
const char *gap_layer_name(enum gap_layer l);
/* "buffer pool", "guest page cache", "", "host page cache" */
const char *gap_layer_cache(enum gap_layer l);

/* One or two sentences on the split of guest arm g against host arm h (or
 * of a tuned guest arm against the untuned one: "tuned_memory gains 80.0 %
 * over guest's TPS per guest: 75.0 points foreground reads, ..."):
 * "guest loses 95.2 % of host's TPS per guest: 80.1 +- 2.0 points CPU
 * (virtualization/emulation), ...; residual 3.0 +- 1.1 points." Parts
 * named biggest first, and only those whose 95 % CI excludes 0 and
 * beyond GAP_NAMED_MIN_POINTS (the others counted: CI holding 0, or under
 * 0.05 points); with one run (no CI) the parts are listed by size under
 * "one run, no CI" and none is named; compression as an "of which" of the CPU, or where it moved
 * more than the CPU did, beside the rest of the CPU; parts that are n/a said so; and
 * whether the budgets close and the model explains the run. "" when the
 * split is not valid. */
void gap_sentence(const struct gap_split *s, const char *g, const char *h, char *buf, size_t len);
/* x differs from 0 beyond its 95 % CI half-width ci; false where ci is
 * unknown (one run): nothing is named without a CI */
bool gap_beyond_ci(double x, double ci);
/* One sentence on an arm's budget: whether it closes ("the budget of
 * guest closes: other 3.1 % of its thread time") or not, and why. "" when
 * it has no budget. */
void gap_budget_sentence(const struct gap_arm *a, const char *name, char *buf, size_t len);

/* Under cache=none every read QEMU issues for a data disk reaches the host
 * device: its reads fit when they are at least 1 - GAP_HOSTDEV_READS_TOLERANCE
 * of QEMU's. More is not a misfit: the device also serves the host and the
 * guests' system disks (281 device reads against QEMU's 0 over a 20 s
 * phase of two guests whose data fit their pools, CI here). */
bool gap_hostdev_reads_fit(double host, double qemu);

/* The consistency problems of an arm as one sentence each, appended to buf
 * ("" if none). */
void gap_problems_text(const struct gap_arm *a, char *buf, size_t len);

#endif
