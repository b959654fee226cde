/* gap.h: where a transaction's time goes, layer by layer -- the model that
 * explains the gap between a guest arm and the host arm from the counters
 * vbed run reads at every layer (samples.jsonl, labels.layer: workload,
 * innodb, guest, hypervisor, host; see results/README.md). Pure: it reads a
 * struct results_data and computes; it prints nothing.
 *
 * The model. Per target (a guest, or the host arm's mariadbd) over the
 * measure phase: T transactions (sysbench), k threads (config.threads), W
 * seconds (sysbench's total time). A thread spends w = k W / T seconds per
 * transaction, made of CPU, I/O waits and the rest:
 *
 *   cpu = server_cpu_s / T        CPU of everything executing the workload
 *                                 (a guest: its QEMU process; the host arm:
 *                                 mariadbd + sysbench)
 *   cmp = (cmp_compress_time_s + cmp_uncompress_time_s) / T
 *                                 (0 when compression = none)
 *   rd  = read wait / T           the guest's data disk (/proc/diskstats
 *                                 in the guest); the host arm: the host
 *                                 block device under its datadir
 *   wr  = (write + flush wait) / T, at the same layer
 *
 * averaged over the arm's targets and repeats (per variant). For a guest
 * arm G against the host arm H of the same variant, the difference
 * delta = w_G - w_H splits into
 *
 *   cpu_virt = (cpu_G - cmp_G) - (cpu_H - cmp_H)   CPU: virtualization/emulation
 *   cpu_cmp  = cmp_G - cmp_H                       compression CPU
 *   reads    = rd_G - rd_H                         reads a cache above would have served
 *   writes   = wr_G - wr_H                         writes and flushes
 *   residual = delta - the parts                   the rest: the model's honesty
 *
 * which add up to delta by construction. loss = 1 - TPS_G / TPS_H (TPS per
 * guest); a part in points of loss = part / delta x loss x 100. The model
 * explains the run when |residual| <= 15 % of |delta|. A part whose inputs
 * are absent (a counter vbed could not read) is NAN ("n/a") and its time is
 * in the residual; a counter is never taken as 0. When compression is on but
 * no compression time was measured (page compression has no such counter),
 * cmp is n/a and the compression CPU stays inside cpu (cmp_in_cpu).
 *
 * Assumptions: threads are busy (closed loop: sysbench threads never idle
 * between transactions), so a thread's time is CPU + waits + other; CPU
 * time and wait time of one thread do not overlap; the CPU of a guest's
 * QEMU process (vCPUs and I/O threads) all serves the workload.
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

#define GAP_EXPLAINED_RESIDUAL 0.15 /* |residual| <= this share of |delta| */
#define GAP_GUEST_READS_LIMIT 1.25  /* guest block reads <= this x InnoDB data reads ... */
#define GAP_READAHEAD_ALLOWANCE 64  /* ... + this many reads per target (readahead, metadata) */
#define GAP_QEMU_READS_TOLERANCE 0.10    /* QEMU read requests vs guest block reads */
#define GAP_HOSTDEV_READS_TOLERANCE 0.25 /* cache=none: host device reads vs QEMU reads */

enum gap_part { GAP_CPU_VIRT, GAP_CPU_CMP, GAP_READS, GAP_WRITES, GAP_PARTS };

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
    GAP_CHECK_HOSTDEV_READS = 4 /* cache=none: host device reads differ from QEMU's by > 25 % */
};

/* One arm in one variant: means over its targets (guests x counted runs). */
struct gap_arm {
    size_t targets;  /* targets with a transactions count */
    bool guest;      /* a guest arm (else the host arm) */
    bool cache_none; /* every run of the arm has disk_cache = none */
    double tps;      /* TPS per guest: set by the caller (build.c), NAN unknown */
    double w;        /* per-thread seconds per transaction, k W / T */
    double cpu, cmp, rd, wr; /* seconds per transaction */
    bool cmp_in_cpu;         /* compression on, its CPU not measured: inside cpu */
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
    double loss;            /* 1 - TPS_G / TPS_H */
    double part[GAP_PARTS]; /* seconds; NAN: n/a (its time is in the residual) */
    double residual;        /* seconds */
    bool explained;         /* |residual| <= 15 % of |delta| */
};

/* Measure one arm of one variant from rd's samples (counted runs only). */
void gap_measure_arm(const struct results_data *rd, int variant, const struct results_arm *arm,
                     struct gap_arm *out);

/* Split g's time per transaction against h's. */
void gap_split(const struct gap_arm *g, const struct gap_arm *h, struct gap_split *out);
/* A split that does not apply: valid false, every figure NAN. */
void gap_split_clear(struct gap_split *out);

/* An arm's time per transaction outside CPU and I/O waits, w - cpu - rd -
 * wr (seconds; NAN when a term is unknown; may be negative). */
double gap_other(const struct gap_arm *a);

/* A part (or the residual, seconds) in points of loss; NAN when unknown. */
double gap_points(const struct gap_split *s, double seconds);

/* "CPU (virtualization/emulation)", "compression CPU", ... */
const char *gap_part_name(enum gap_part p);
/* "cpu_virt", "cpu_cmp", "reads", "writes" (json keys) */
const char *gap_part_key(enum gap_part p);
/* "InnoDB", "guest block", "QEMU", "host device" */
const char *gap_layer_name(enum gap_layer l);
/* "buffer pool", "guest page cache", "", "host page cache" */
const char *gap_layer_cache(enum gap_layer l);

/* One or two sentences on the split of guest arm g against host arm h:
 * "guest loses 95.2 % of host's TPS per guest: 80.1 points CPU
 * (virtualization/emulation), ...; residual 3.0 points." Parts named
 * biggest first; parts that are n/a said so; and whether the model
 * explains the run. "" when the split is not valid. */
void gap_sentence(const struct gap_split *s, const char *g, const char *h, char *buf, size_t len);

/* The consistency problems of an arm as one sentence each, appended to buf
 * ("" if none). */
void gap_problems_text(const struct gap_arm *a, char *buf, size_t len);

#endif
