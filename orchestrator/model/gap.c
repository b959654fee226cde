/* gap.c: where a transaction's time goes, layer by layer (see gap.h). */
#include "model/gap.h"
#include "util/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the counters of one target ---- */

enum gap_metric {
    M_TRANSACTIONS,
    M_MEASURE_S,
    M_CMP_COMPRESS,
    M_CMP_UNCOMPRESS,
    M_BP_HIT,
    M_BP_BYTES,
    M_WS_BYTES,
    M_INNODB_READS,
    M_INNODB_WRITES,
    M_INNODB_FSYNCS,
    M_GUEST_READS,
    M_GUEST_READ_MS,
    M_GUEST_WRITES,
    M_GUEST_WRITE_MS,
    M_GUEST_FLUSHES,
    M_GUEST_FLUSH_MS,
    M_GUEST_DATADIR_CACHED,
    M_QEMU_RD_REQS,
    M_QEMU_RD_TIME,
    M_QEMU_WR_REQS,
    M_QEMU_WR_TIME,
    M_QEMU_FL_REQS,
    M_QEMU_FL_TIME,
    M_HOST_READS,
    M_HOST_READ_MS,
    M_HOST_WRITES,
    M_HOST_WRITE_MS,
    M_HOST_FLUSHES,
    M_HOST_FLUSH_MS,
    M_HOST_CACHE_AFTER,
    M_VCPU,
    M_VCPU_DELAY,
    M_VCPU_INNER,
    M_VCPU_DELAY_INNER,
    M_CHAIN_INTERVAL,
    M_CHAIN_SPREAD,
    M_CHAIN_CLIENT_THREADS,
    M_CHAIN_SERVER_THREADS,
    M_CHAIN_CLIENT_CPU,
    M_CHAIN_SERVER_CPU,
    M_CHAIN_SERVER_RUNQ,
    M_CHAIN_SERVER_BLKIO,
    M_PS_INTERVAL,
    M_PS_THREADS,
    M_PS_STATEMENT,
    M_PS_READ,
    M_PS_READS,
    M_PS_COMMIT,
    M_PS_SYNCH,
    M_MEMORY,
    M_OVERHEAD,
    M_PROBE_HOT_S,
    M_PROBE_HOT_READS,
    M_PROBE_COLD_S,
    M_PROBE_COLD_READS,
    M_READ_CACHED,
    M_READ_DIRECT,
    M_READ_CACHED_CPU,
    M_READ_DIRECT_CPU,
    M_WRITE_CACHED_CPU,
    M_WRITE_DIRECT_CPU,
    M_READ_CACHED_HOST,
    M_READ_DIRECT_HOST,
    M_WRITE_CACHED_HOST,
    M_WRITE_DIRECT_HOST,
    M_GUEST_CPU_USER,
    M_GUEST_CPU_SYSTEM,
    M_TASKS_INTERVAL,
    M_TASKS_BUSY,
    M_PS_TRANSACTIONS,
    M_SERVER_COMMITS,
    M_SERVER_ROLLBACKS,
    M_TASKS_0, /* GAP_TASK_UNATTRIBUTED groups from here on, in enum gap_task's order */
    M_N = M_TASKS_0 + GAP_TASK_UNATTRIBUTED
};

static const char *const metric_names[M_N] = {
    [M_TRANSACTIONS] = "transactions",
    [M_MEASURE_S] = "measure_s",
    [M_CMP_COMPRESS] = "cmp_compress_time_s",
    [M_CMP_UNCOMPRESS] = "cmp_uncompress_time_s",
    [M_BP_HIT] = "bp_hit_ratio",
    [M_BP_BYTES] = "buffer_pool_bytes",
    [M_WS_BYTES] = "working_set_bytes",
    [M_INNODB_READS] = "innodb_data_reads",
    [M_INNODB_WRITES] = "innodb_data_writes",
    [M_INNODB_FSYNCS] = "innodb_data_fsyncs",
    [M_GUEST_READS] = "guest_disk_reads",
    [M_GUEST_READ_MS] = "guest_disk_read_ms",
    [M_GUEST_WRITES] = "guest_disk_writes",
    [M_GUEST_WRITE_MS] = "guest_disk_write_ms",
    [M_GUEST_FLUSHES] = "guest_disk_flushes",
    [M_GUEST_FLUSH_MS] = "guest_disk_flush_ms",
    [M_GUEST_DATADIR_CACHED] = "guest_datadir_cached_bytes",
    [M_QEMU_RD_REQS] = "qemu_rd_reqs",
    [M_QEMU_RD_TIME] = "qemu_rd_time_s",
    [M_QEMU_WR_REQS] = "qemu_wr_reqs",
    [M_QEMU_WR_TIME] = "qemu_wr_time_s",
    [M_QEMU_FL_REQS] = "qemu_fl_reqs",
    [M_QEMU_FL_TIME] = "qemu_fl_time_s",
    [M_HOST_READS] = "hostdev_reads",
    [M_HOST_READ_MS] = "hostdev_read_ms",
    [M_HOST_WRITES] = "hostdev_writes",
    [M_HOST_WRITE_MS] = "hostdev_write_ms",
    [M_HOST_FLUSHES] = "hostdev_flushes",
    [M_HOST_FLUSH_MS] = "hostdev_flush_ms",
    [M_HOST_CACHE_AFTER] = "host_cache_data_bytes", /* labels.when = after */
    [M_VCPU] = "qemu_vcpu_s",
    [M_VCPU_DELAY] = "qemu_vcpu_delay_s",
    [M_VCPU_INNER] = "qemu_vcpu_inner_s",
    [M_VCPU_DELAY_INNER] = "qemu_vcpu_delay_inner_s",
    [M_CHAIN_INTERVAL] = "chain_interval_s",
    [M_CHAIN_SPREAD] = "chain_read_spread_s",
    [M_CHAIN_CLIENT_THREADS] = "chain_client_threads",
    [M_CHAIN_SERVER_THREADS] = "chain_server_threads",
    [M_CHAIN_CLIENT_CPU] = "chain_client_cpu_s",
    [M_CHAIN_SERVER_CPU] = "chain_server_cpu_s",
    [M_CHAIN_SERVER_RUNQ] = "chain_server_runq_s",
    [M_CHAIN_SERVER_BLKIO] = "chain_server_blkio_s",
    [M_PS_INTERVAL] = "ps_interval_s",
    [M_PS_THREADS] = "ps_threads",
    [M_PS_STATEMENT] = "ps_statement_s",
    [M_PS_READ] = "ps_read_wait_s",
    [M_PS_READS] = "ps_reads",
    [M_PS_COMMIT] = "ps_commit_s",
    [M_PS_SYNCH] = "ps_synch_wait_s",
    [M_MEMORY] = "guest_memory_bytes",
    [M_OVERHEAD] = "memory_overhead_bytes",
    [M_PROBE_HOT_S] = "miss_probe_hot_s",
    [M_PROBE_HOT_READS] = "miss_probe_hot_reads",
    [M_PROBE_COLD_S] = "miss_probe_cold_s",
    [M_PROBE_COLD_READS] = "miss_probe_cold_reads",
    [M_READ_CACHED] = "read_probe_cached_ms",
    [M_READ_DIRECT] = "read_probe_direct_ms",
    [M_READ_CACHED_CPU] = "read_probe_cached_cpu_ms",
    [M_READ_DIRECT_CPU] = "read_probe_direct_cpu_ms",
    [M_WRITE_CACHED_CPU] = "write_probe_cached_cpu_ms",
    [M_WRITE_DIRECT_CPU] = "write_probe_direct_cpu_ms",
    [M_READ_CACHED_HOST] = "read_probe_cached_host_ms",
    [M_READ_DIRECT_HOST] = "read_probe_direct_host_ms",
    [M_WRITE_CACHED_HOST] = "write_probe_cached_host_ms",
    [M_WRITE_DIRECT_HOST] = "write_probe_direct_host_ms",
    [M_GUEST_CPU_USER] = "guest_cpu_user_s",
    [M_GUEST_CPU_SYSTEM] = "guest_cpu_system_s",
    [M_TASKS_INTERVAL] = "tasks_interval_s",
    [M_TASKS_BUSY] = "tasks_busy_s",
    [M_PS_TRANSACTIONS] = "ps_transactions",
    [M_SERVER_COMMITS] = "server_commits",
    [M_SERVER_ROLLBACKS] = "server_rollbacks",
    [M_TASKS_0 + GAP_TASK_PAGE_CLEANER] = "tasks_page_cleaner_cpu_s",
    [M_TASKS_0 + GAP_TASK_INNODB_POOL] = "tasks_innodb_pool_cpu_s",
    [M_TASKS_0 + GAP_TASK_CONNECTIONS] = "tasks_connections_cpu_s",
    [M_TASKS_0 + GAP_TASK_MARIADBD_OTHER] = "tasks_mariadbd_other_cpu_s",
    [M_TASKS_0 + GAP_TASK_SYSBENCH] = "tasks_sysbench_cpu_s",
    [M_TASKS_0 + GAP_TASK_KERNEL] = "tasks_kernel_cpu_s",
    [M_TASKS_0 + GAP_TASK_REST] = "tasks_rest_cpu_s",
};

struct target {
    int seq, guest;
    double v[M_N]; /* NAN: absent */
    const char *device;
    int threads;      /* config.threads of its run, 0 unknown */
    bool no_compression;
    bool guest_arm;   /* of a guest arm */
    double host_share; /* 1 / the targets of its run on the same host device */
};

static int metric_of(const struct results_sample *s)
{
    for (int m = 0; m < M_N; m++)
        if (!strcmp(s->metric, metric_names[m]))
            return m == M_HOST_CACHE_AFTER && strcmp(s->when, "after") != 0 ? -1 : m;
    return -1;
}

static struct target *find_target(struct target **ts, size_t *n, size_t *cap, int seq, int guest)
{
    for (size_t i = 0; i < *n; i++)
        if ((*ts)[i].seq == seq && (*ts)[i].guest == guest)
            return &(*ts)[i];
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *ts = xrealloc(*ts, *cap * sizeof(**ts));
    }
    struct target *t = &(*ts)[(*n)++];
    memset(t, 0, sizeof(*t));
    t->seq = seq;
    t->guest = guest;
    t->device = "";
    t->host_share = 1;
    for (int m = 0; m < M_N; m++)
        t->v[m] = NAN;
    return t;
}

/* ---- per target, then the arm's means ---- */

/* x / T, NAN when either is absent */
static double per_tx(const struct target *t, double x)
{
    double T = t->v[M_TRANSACTIONS];
    return isfinite(x) && T > 0 ? x / T : NAN;
}

static double clamp01(double x) { return isnan(x) ? NAN : x < 0 ? 0 : x > 1 ? 1 : x; }

/* 1 - below / above, clamped; NAN unless both are known and above > 0 */
static double hit_ratio(double below, double above)
{
    return isfinite(below) && isfinite(above) && above > 0 ? clamp01(1 - below / above) : NAN;
}

/* ---- one target's budget (gap.h) ---- */

/* Resolution of the readings: /proc/uptime's 1/100 s and delay accounting's
 * 1/100 s ticks (probes/chain.h), each read twice: a difference of two
 * readings truncated to a tick is off by a uniform error of up to a tick,
 * sd tick / sqrt(6). INNODB_CMP counts whole seconds. */
#define TICK_S 0.01
#define CMP_TICK_S 1.0

struct budget {
    bool have;                                  /* the chain was read */
    double w;                                   /* the interval's time per transaction */
    int tps_check;                              /* GAP_TPS_* */
    double tps_diff;                            /* sysbench's count against the server's, relative */
    double states_over;                         /* (on-CPU + run queue + block I/O) / w - 1 */
    double part[GAP_PARTS], res[GAP_PARTS];     /* seconds per transaction; res: resolution */
    double other, other_res, cmp, cmp_res, uncmp, uncmp_res, client_cpu, guest_other;
    double tasks[GAP_TASKS];
    double oncpu, runq, io, stmt, p, read_wait, commit_wait, reads_per_tx;
};

static double fmin_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmin(a, b); }

/* The share of InnoDB's data-file reads that reached a device -- a guest's
 * block layer, the host arm's device (its share of it) -- and that
 * device's time per read, from the run's counters; NAN when they are not
 * known. The rest were served by a page cache: their time was a copy,
 * never block I/O. */
static double device_share(const struct target *t, double *latency)
{
    const double *v = t->v;
    double reads = t->guest_arm ? v[M_GUEST_READS] : v[M_HOST_READS];
    double ms = t->guest_arm ? v[M_GUEST_READ_MS] : v[M_HOST_READ_MS];
    *latency = isfinite(reads) && reads > 0 && ms >= 0 ? ms / 1000 / reads : NAN;
    double dev = t->guest_arm ? reads : reads * t->host_share;
    return isfinite(dev) && v[M_INNODB_READS] > 0 ? clamp01(dev / v[M_INNODB_READS]) : NAN;
}

static void target_budget(const struct target *t, double w, struct budget *b)
{
    const double *v = t->v;
    for (int p = 0; p < GAP_PARTS; p++)
        b->part[p] = b->res[p] = NAN;
    b->other = b->other_res = b->client_cpu = b->guest_other = NAN;
    for (int k = 0; k < GAP_TASKS; k++)
        b->tasks[k] = NAN;
    b->oncpu = b->runq = b->io = b->stmt = b->p = b->read_wait = b->commit_wait = NAN;
    b->reads_per_tx = NAN;
    /* compression: INNODB_CMP's time, global (the foreground compresses) */
    double T = v[M_TRANSACTIONS];
    b->cmp = t->no_compression && T > 0 ? 0 : per_tx(t, v[M_CMP_COMPRESS] + v[M_CMP_UNCOMPRESS]);
    b->cmp_res = t->no_compression ? 0 : isfinite(b->cmp) ? CMP_TICK_S * sqrt(2.0 / 6) / T : NAN;
    b->uncmp = t->no_compression && T > 0 ? 0 : per_tx(t, v[M_CMP_UNCOMPRESS]);
    b->uncmp_res = t->no_compression ? 0 : isfinite(b->uncmp) ? CMP_TICK_S * sqrt(1.0 / 6) / T : NAN;
    double ci = v[M_CHAIN_INTERVAL], ns = v[M_CHAIN_SERVER_THREADS], nc = v[M_CHAIN_CLIENT_THREADS];
    /* the time per transaction of the interval the readings cover, from the
     * transactions the server counted for the benchmark's connections in
     * it (performance_schema), not the whole phase's: the phase's start and
     * end, and any drift, are not in the readings */
    double pi0 = v[M_PS_INTERVAL], tps_n = v[M_PS_TRANSACTIONS];
    if (t->threads > 0 && pi0 > 0 && tps_n > 0)
        w = t->threads * pi0 / tps_n;
    b->w = w;
    /* the headline's count against the server's own: the transactions
     * sysbench reported over the measure phase and the commits (and
     * rollbacks) the server counted from before it to after it; or, from
     * results without that count, sysbench's rate over the phase against
     * the server's over the readings' interval (drift allowed) */
    double srv = v[M_SERVER_COMMITS] + (isfinite(v[M_SERVER_ROLLBACKS]) ? v[M_SERVER_ROLLBACKS] : 0);
    b->tps_check = GAP_TPS_NONE;
    b->tps_diff = NAN;
    if (T > 0 && srv > 0) {
        b->tps_check = GAP_TPS_COUNT;
        b->tps_diff = T / srv - 1;
    } else if (T > 0 && v[M_MEASURE_S] > 0 && pi0 > 0 && tps_n > 0) {
        b->tps_check = GAP_TPS_RATE;
        b->tps_diff = (T / v[M_MEASURE_S]) / (tps_n / pi0) - 1;
    }
    b->have = isfinite(w) && ci > 0 && ns >= 1;
    if (!b->have)
        return;
    double per = w / (ns * ci); /* a server thread-second, in seconds per transaction */
    double spread = isfinite(v[M_CHAIN_SPREAD]) ? v[M_CHAIN_SPREAD] : 0;
    double rel = sqrt(TICK_S * TICK_S / 6 + spread * spread / 12) / ci;
    double io_res = TICK_S * sqrt(ns / 6) * per;
    b->oncpu = v[M_CHAIN_SERVER_CPU] * per;
    b->runq = v[M_CHAIN_SERVER_RUNQ] * per;
    b->io = v[M_CHAIN_SERVER_BLKIO] * per;
    b->client_cpu = nc >= 1 ? v[M_CHAIN_CLIENT_CPU] / (nc * ci) * w : NAN;
    /* the guest's CPU (its /proc/stat over the measure phase) in a chain's
     * w, less the chain's own: what its other threads ran meanwhile */
    double W = v[M_MEASURE_S], gcpu = v[M_GUEST_CPU_USER] + v[M_GUEST_CPU_SYSTEM];
    b->guest_other = t->guest_arm && W > 0 && gcpu >= 0
                         ? gcpu / W * w - b->oncpu - b->client_cpu
                         : NAN;
    /* the guest's CPU by task (probes/tasks.h), over the tasks probe's own
     * interval, in a chain's w; what no task was charged for from the
     * guest's busy time in the same readings */
    double ti = v[M_TASKS_INTERVAL];
    if (t->guest_arm && ti > 0 && v[M_TASKS_BUSY] >= 0) {
        double busy = v[M_TASKS_BUSY] / ti * w, sum = 0;
        for (int k = 0; k < GAP_TASK_UNATTRIBUTED; k++) {
            b->tasks[k] = v[M_TASKS_0 + k] / ti * w;
            sum += b->tasks[k];
        }
        b->tasks[GAP_TASK_UNATTRIBUTED] = busy - sum;
        /* the same readings' interval as the chain's (the measure phase's
         * W also holds sysbench's start and end) */
        b->guest_other = busy - b->oncpu - b->client_cpu;
    }
    /* the vCPU's preempted share: the guest's clock ran, its vCPU did not;
     * over the chain's interval (read next to it), over the whole phase in
     * runs recorded before those readings */
    bool inner = v[M_VCPU_INNER] >= 0 && v[M_VCPU_DELAY_INNER] >= 0;
    double vt = inner ? v[M_VCPU_INNER] : v[M_VCPU], vd = inner ? v[M_VCPU_DELAY_INNER] : v[M_VCPU_DELAY];
    b->p = !t->guest_arm ? 0 : vt >= 0 && vd >= 0 && vt + vd > 0 ? vd / (vt + vd) : NAN;
    /* performance_schema, over its own interval */
    double pi = v[M_PS_INTERVAL], np = v[M_PS_THREADS];
    double pper = pi > 0 && np >= 1 ? w / (np * pi) : NAN;
    b->stmt = v[M_PS_STATEMENT] * pper;
    b->read_wait = v[M_PS_READ] * pper;
    b->commit_wait = v[M_PS_COMMIT] * pper;
    b->reads_per_tx = v[M_PS_READS] * pper;
    double synch = v[M_PS_SYNCH] * pper;

    b->part[GAP_CPU] = b->oncpu * (1 - b->p);
    b->res[GAP_CPU] = b->part[GAP_CPU] * rel;
    /* (no preempted share: the CPU's counter is not needed) */
    b->part[GAP_CONTENTION] = b->runq + (b->p == 0 ? 0 : b->oncpu * b->p);
    b->res[GAP_CONTENTION] = b->part[GAP_CONTENTION] * rel;
    /* INNODB_CMP times are wall-clock time in zlib: under contention they
     * hold run-queue waits too, taken out in the CPU's proportion (after
     * the contention is known: before, it was NaN and nothing was taken) */
    double busy = b->part[GAP_CPU] + b->part[GAP_CONTENTION];
    if (isfinite(b->cmp) && b->cmp > 0 && busy > 0) {
        b->cmp *= b->part[GAP_CPU] / busy;
        b->cmp_res *= b->part[GAP_CPU] / busy;
        b->uncmp *= b->part[GAP_CPU] / busy;
        b->uncmp_res *= b->part[GAP_CPU] / busy;
    }
    /* the block I/O between the commit stage (its time is mostly the redo
     * log's flush) and the data files' reads: only reads that reached a
     * device can have waited in it, each about the device's time per read.
     * Where that is known, each gets its time (the reads': at most their
     * reads that reached a device x that time) and, when the block I/O was
     * less than both, the block I/O in proportion to them; where it is
     * not, the commit first and the reads what is left */
    double latency, reach = device_share(t, &latency);
    double read_io = reach == 0 ? 0 : fmin_nan(b->read_wait, b->reads_per_tx * reach * latency);
    if (isnan(reach)) {
        read_io = b->read_wait;
        b->part[GAP_COMMIT] = fmin_nan(b->commit_wait, b->io);
        b->part[GAP_READS] = fmin_nan(b->read_wait, b->io - b->part[GAP_COMMIT]);
    } else if (isnan(read_io) || isnan(b->commit_wait) || isnan(b->io)) {
        b->part[GAP_COMMIT] = b->part[GAP_READS] = NAN;
    } else if (b->io >= b->commit_wait + read_io) {
        b->part[GAP_COMMIT] = b->commit_wait;
        b->part[GAP_READS] = read_io;
    } else {
        b->part[GAP_COMMIT] = b->io * b->commit_wait / (b->commit_wait + read_io);
        b->part[GAP_READS] = b->io * read_io / (b->commit_wait + read_io);
    }
    b->res[GAP_COMMIT] = isfinite(b->part[GAP_COMMIT])
                             ? (b->part[GAP_COMMIT] < b->commit_wait ? io_res : 0) + b->part[GAP_COMMIT] * rel
                             : NAN;
    b->res[GAP_READS] = isfinite(b->part[GAP_READS])
                            ? (b->part[GAP_READS] < read_io ? io_res : 0) + b->part[GAP_READS] * rel
                            : NAN;
    /* what the connection thread's own states leave of the interval: they
     * partition it (on a CPU, runnable, in block I/O, asleep), so more than
     * the interval means readings that do not cover the same time -- said,
     * never clamped away */
    b->states_over = (b->oncpu + b->runq + b->io) / w - 1;
    /* the causes of its sleep, each from a counter of its own, none capped
     * by what is left (a wrong counter shows as unattributed time, positive
     * or negative, never as a part that fits): the client's turn, the time
     * between statements (performance_schema); locks, the synch waits.
     * A wait no counter names -- a commit asleep on another thread's redo
     * flush among them -- stays unattributed. */
    b->part[GAP_CLIENT] = w - b->stmt;
    b->res[GAP_CLIENT] = isfinite(b->part[GAP_CLIENT]) ? b->part[GAP_CLIENT] * rel : NAN;
    b->part[GAP_LOCKS] = synch;
    b->res[GAP_LOCKS] = isfinite(synch) ? 0 : NAN;
    double sum = 0, res2 = 0;
    for (int p = 0; p < GAP_PARTS; p++)
        if (isfinite(b->part[p])) {
            sum += b->part[p];
            res2 += b->res[p] * b->res[p];
        }
    b->other = w - sum;
    b->other_res = sqrt(res2 + w * rel * w * rel);
}

/* ---- one target's layers ---- */

/* Figures of one target, in the order of the fields averaged below. */
enum {
    F_W, F_BP_HIT, F_COPIES, F_WS, F_BP, F_MEM, F_OVERHEAD, F_MISS_COST, F_READ_EXTRA,
    F_READ_CPU_EXTRA, F_WRITE_CPU_EXTRA, F_READ_HOST_EXTRA, F_WRITE_HOST_EXTRA, F_LAYER0,
    F_N = F_LAYER0 + 5 * GAP_LAYERS
};

double gap_miss_cost(double hot_s, double hot_reads, double cold_s, double cold_reads)
{
    double extra = cold_reads - hot_reads;
    return extra >= GAP_MISS_PROBE_MIN ? (cold_s - hot_s) / extra : NAN;
}

static void target_figures(const struct target *t, bool guest_arm, double *f)
{
    const double *v = t->v;
    double T = v[M_TRANSACTIONS];
    f[F_W] = t->threads > 0 && v[M_MEASURE_S] > 0 && T > 0 ? t->threads * v[M_MEASURE_S] / T : NAN;
    double hr = v[M_HOST_READS] * t->host_share, hrms = v[M_HOST_READ_MS] * t->host_share;
    double hw = v[M_HOST_WRITES] * t->host_share, hf = v[M_HOST_FLUSHES] * t->host_share;
    double hwms = (v[M_HOST_WRITE_MS] + v[M_HOST_FLUSH_MS]) * t->host_share;
    double gwms = v[M_GUEST_WRITE_MS] + v[M_GUEST_FLUSH_MS];
    f[F_BP_HIT] = v[M_BP_HIT];
    f[F_WS] = v[M_WS_BYTES];
    f[F_BP] = v[M_BP_BYTES];
    f[F_MEM] = v[M_MEMORY];
    f[F_OVERHEAD] = v[M_OVERHEAD];
    f[F_MISS_COST] = gap_miss_cost(v[M_PROBE_HOT_S], v[M_PROBE_HOT_READS], v[M_PROBE_COLD_S],
                                   v[M_PROBE_COLD_READS]);
    /* what a read through the virtual disk costs beyond one from the page
     * cache (workloads/readcost.h), seconds */
    f[F_READ_EXTRA] = (v[M_READ_DIRECT] - v[M_READ_CACHED]) / 1000;
    /* and the guest's CPU a read and a page write take through it beyond
     * the same through the page cache, seconds */
    f[F_READ_CPU_EXTRA] = (v[M_READ_DIRECT_CPU] - v[M_READ_CACHED_CPU]) / 1000;
    f[F_WRITE_CPU_EXTRA] = (v[M_WRITE_DIRECT_CPU] - v[M_WRITE_CACHED_CPU]) / 1000;
    /* and the guest's whole process on the host (QEMU) */
    f[F_READ_HOST_EXTRA] = (v[M_READ_DIRECT_HOST] - v[M_READ_CACHED_HOST]) / 1000;
    f[F_WRITE_HOST_EXTRA] = (v[M_WRITE_DIRECT_HOST] - v[M_WRITE_CACHED_HOST]) / 1000;
    /* copies: the buffer pool's share of the working set, the guest page
     * cache's (a guest) and the host page cache's -- each at most one copy:
     * a cache that holds more than the working set holds other files too
     * (the redo log, the system tablespace share the data disk) */
    double ws = v[M_WS_BYTES], in_bp = fmin(v[M_BP_BYTES], ws);
    double in_guest = guest_arm ? fmin(v[M_GUEST_DATADIR_CACHED], ws) : 0;
    f[F_COPIES] = ws > 0 && isfinite(in_bp)
                      ? (in_bp + in_guest + fmin(v[M_HOST_CACHE_AFTER], ws)) / ws
                      : NAN;
    const double rows[GAP_LAYERS][5] = {
        [GAP_LAYER_INNODB] = {v[M_INNODB_READS], v[M_INNODB_WRITES], v[M_INNODB_FSYNCS], NAN, NAN},
        [GAP_LAYER_GUEST] = {v[M_GUEST_READS], v[M_GUEST_WRITES], v[M_GUEST_FLUSHES],
                             v[M_GUEST_READ_MS], gwms},
        [GAP_LAYER_QEMU] = {v[M_QEMU_RD_REQS], v[M_QEMU_WR_REQS], v[M_QEMU_FL_REQS],
                            v[M_QEMU_RD_TIME] * 1000, (v[M_QEMU_WR_TIME] + v[M_QEMU_FL_TIME]) * 1000},
        [GAP_LAYER_HOST] = {hr, hw, hf, hrms, hwms},
    };
    for (int l = 0; l < GAP_LAYERS; l++)
        for (int k = 0; k < 5; k++)
            f[F_LAYER0 + 5 * l + k] = per_tx(t, rows[l][k]);
}

/* The host's device is shared by the targets of one run that name it;
 * without labels.device the targets of a run are taken to share one (vbed
 * puts every disk of a run in one pool). */
static void share_host_devices(struct target *ts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (isnan(ts[i].v[M_HOST_READS]))
            continue;
        int same = 0;
        for (size_t j = 0; j < n; j++)
            same += ts[j].seq == ts[i].seq && !isnan(ts[j].v[M_HOST_READS]) &&
                    !strcmp(ts[j].device, ts[i].device);
        ts[i].host_share = 1.0 / same;
    }
}

/* ---- means over an arm's targets ---- */

/* mean and spread of one figure over the targets (NAN if any lacks it),
 * the targets grouped by their run: the guests of one run share its host,
 * its moment and its order, so the run, not the target, is the unit */
struct spread {
    double *x, *res;
    int *seq;
    size_t n, cap;
    bool absent;
};

static void spread_add(struct spread *s, int seq, double x, double res)
{
    if (isnan(x)) {
        s->absent = true;
        return;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->x = xrealloc(s->x, s->cap * sizeof(*s->x));
        s->res = xrealloc(s->res, s->cap * sizeof(*s->res));
        s->seq = xrealloc(s->seq, s->cap * sizeof(*s->seq));
    }
    s->x[s->n] = x;
    s->res[s->n] = isfinite(res) ? res : 0;
    s->seq[s->n++] = seq;
}

/* The mean over runs (each run the mean of its targets) and the 95 % CI
 * half-width of that mean: t(0.975, runs - 1) x (the runs' standard error
 * and their resolution in quadrature). One run: the CI is NAN -- its
 * guests' agreement says nothing about the next run's. Frees s. */
static double spread_mean(struct spread *s, double *ci)
{
    double mean = NAN;
    *ci = NAN;
    if (!s->absent && s->n) {
        double sum = 0, sum2 = 0, res2 = 0;
        size_t runs = 0;
        for (size_t i = 0; i < s->n; i++) {
            bool seen = false;
            for (size_t k = 0; k < i && !seen; k++)
                seen = s->seq[k] == s->seq[i];
            if (seen)
                continue;
            double x = 0, r2 = 0;
            size_t m = 0;
            for (size_t k = i; k < s->n; k++)
                if (s->seq[k] == s->seq[i])
                    x += s->x[k], r2 += s->res[k] * s->res[k], m++;
            x /= (double)m;
            sum += x, sum2 += x * x, res2 += r2 / ((double)m * (double)m);
            runs++;
        }
        double n = (double)runs;
        mean = sum / n;
        if (runs > 1) {
            double var = fmax(0, (sum2 - n * mean * mean) / (n - 1));
            *ci = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(res2 / (n * n) + var / n);
        }
    }
    free(s->x), free(s->res), free(s->seq);
    memset(s, 0, sizeof(*s));
    return mean;
}

static void measure_budget(struct gap_arm *out, const struct target *ts, size_t n)
{
    struct spread w = {0}, part[GAP_PARTS] = {{0}}, other = {0}, cmp = {0}, uncmp = {0}, client = {0}, oncpu = {0},
                  runq = {0}, io = {0}, stmt = {0}, p = {0}, rw = {0}, cw = {0}, rpt = {0},
                  gother = {0}, tasks[GAP_TASKS] = {{0}};
    bool cmp_absent = false;
    for (size_t i = 0; i < n; i++) {
        double f[F_N];
        target_figures(&ts[i], out->guest, f);
        struct budget b;
        target_budget(&ts[i], f[F_W], &b);
        spread_add(&w, ts[i].seq, b.w, 0);
        /* the weakest check of sysbench's count, the worst difference */
        if (i == 0 || b.tps_check == GAP_TPS_NONE ||
            (b.tps_check == GAP_TPS_RATE && out->tps_check == GAP_TPS_COUNT))
            out->tps_check = b.tps_check;
        if (isfinite(b.tps_diff) && !(fabs(b.tps_diff) <= fabs(out->tps_diff)))
            out->tps_diff = b.tps_diff;
        spread_add(&cmp, ts[i].seq, b.cmp, b.cmp_res);
        spread_add(&uncmp, ts[i].seq, b.uncmp, b.uncmp_res);
        cmp_absent |= isnan(b.cmp);
        if (!b.have)
            continue;
        out->budgets++;
        if (!(b.states_over <= out->states_over))
            out->states_over = b.states_over;
        for (int k = 0; k < GAP_PARTS; k++)
            spread_add(&part[k], ts[i].seq, b.part[k], b.res[k]);
        spread_add(&other, ts[i].seq, b.other, b.other_res);
        spread_add(&client, ts[i].seq, b.client_cpu, 0);
        spread_add(&oncpu, ts[i].seq, b.oncpu, 0);
        spread_add(&runq, ts[i].seq, b.runq, 0);
        spread_add(&io, ts[i].seq, b.io, 0);
        spread_add(&stmt, ts[i].seq, b.stmt, 0);
        spread_add(&p, ts[i].seq, b.p, 0);
        spread_add(&rw, ts[i].seq, b.read_wait, 0);
        spread_add(&cw, ts[i].seq, b.commit_wait, 0);
        spread_add(&rpt, ts[i].seq, b.reads_per_tx, 0);
        spread_add(&gother, ts[i].seq, b.guest_other, 0);
        for (int k = 0; k < GAP_TASKS; k++)
            spread_add(&tasks[k], ts[i].seq, b.tasks[k], 0);
    }
    out->w = spread_mean(&w, &out->w_ci);
    out->cmp = spread_mean(&cmp, &out->cmp_ci);
    out->uncmp = spread_mean(&uncmp, &out->uncmp_ci);
    out->cmp_in_cpu = n > 0 && cmp_absent;
    double unused;
    for (int k = 0; k < GAP_PARTS; k++)
        out->part[k] = spread_mean(&part[k], &out->ci[k]);
    out->other = spread_mean(&other, &out->other_ci);
    out->client_cpu = spread_mean(&client, &unused);
    out->oncpu = spread_mean(&oncpu, &unused);
    out->runq = spread_mean(&runq, &unused);
    out->io = spread_mean(&io, &unused);
    out->stmt = spread_mean(&stmt, &unused);
    out->preempt = spread_mean(&p, &unused);
    out->read_wait = spread_mean(&rw, &unused);
    out->commit_wait = spread_mean(&cw, &unused);
    out->reads_per_tx = spread_mean(&rpt, &unused);
    out->guest_other = spread_mean(&gother, &unused);
    for (int k = 0; k < GAP_TASKS; k++)
        out->tasks[k] = spread_mean(&tasks[k], &unused);
    bool all = out->budgets > 0 && out->budgets == n; /* a budget of some targets only is none */
    if (!all) {
        for (int k = 0; k < GAP_PARTS; k++)
            out->part[k] = out->ci[k] = NAN;
        out->other = out->other_ci = NAN;
        out->client_cpu = out->oncpu = out->runq = out->io = out->stmt = out->preempt = NAN;
        out->read_wait = out->commit_wait = out->reads_per_tx = out->guest_other = NAN;
        for (int k = 0; k < GAP_TASKS; k++)
            out->tasks[k] = NAN;
    }
    out->cpu = out->part[GAP_CPU];
    double share = gap_other_share(out);
    double limit = out->tps_check == GAP_TPS_COUNT ? GAP_TPS_COUNT_LIMIT : GAP_TPS_RATE_LIMIT;
    out->closes = all && share >= GAP_CLOSE_LOW && share <= GAP_CLOSE_HIGH &&
                  out->tps_check != GAP_TPS_NONE && fabs(out->tps_diff) <= limit &&
                  out->states_over <= GAP_STATES_OVER_LIMIT;
}

void gap_measure_arm(const struct results_data *rd, int variant, const struct results_arm *arm,
                     struct gap_arm *out)
{
    gap_measure_arm_without(rd, variant, arm, -1, out);
}

void gap_measure_arm_without(const struct results_data *rd, int variant, const struct results_arm *arm,
                             int skip_seq, struct gap_arm *out)
{
    memset(out, 0, sizeof(*out));
    out->tps_diff = out->states_over = NAN;
    out->guest = !strcmp(arm->kind, "guest");
    out->tps = NAN;
    struct target *ts = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        int m = metric_of(s);
        if (m < 0 || strcmp(s->arm, arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !results_run_ok(rd, s->seq) || (out->guest && s->guest == 0) || s->seq == skip_seq)
            continue;
        struct target *t = find_target(&ts, &n, &cap, s->seq, s->guest);
        t->v[m] = s->value;
        if (s->device && *s->device && m >= M_HOST_READS && m <= M_HOST_FLUSH_MS)
            t->device = s->device;
    }
    /* targets are those with a transactions count */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (ts[i].v[M_TRANSACTIONS] > 0)
            ts[kept++] = ts[i];
    n = kept;
    out->targets = n;
    share_host_devices(ts, n);
    out->cache_none = out->guest && n > 0;
    out->direct = n > 0;
    out->hypervisor_fields = "";
    for (size_t i = 0; i < n; i++) {
        const struct results_run *run = results_find_run(rd, ts[i].seq);
        const char *threads = run ? results_run_config(run, "threads") : "";
        char *end;
        long k = strtol(threads, &end, 10);
        ts[i].threads = *threads && !*end && k > 0 && k < 100000 ? (int)k : 0;
        ts[i].no_compression = run && !strcmp(results_run_config(run, "compression"), "none");
        ts[i].guest_arm = out->guest;
        out->cache_none &= run && !strcmp(run->disk_cache, "none");
        out->direct &= run && !strncmp(results_run_config(run, "flush_method"), "O_DIRECT", 8);
        if (run && run->hypervisor_fields && !*out->hypervisor_fields)
            out->hypervisor_fields = run->hypervisor_fields;
        out->threads = i == 0 || out->threads == ts[i].threads ? ts[i].threads : 0;
    }
    measure_budget(out, ts, n);
    /* the layers' means: NAN when any target lacks the figure (n/a, never 0) */
    double sum[F_N] = {0};
    bool absent[F_N] = {0};
    for (size_t i = 0; i < n; i++) {
        double f[F_N];
        target_figures(&ts[i], out->guest, f);
        for (int k = 0; k < F_N; k++) {
            if (isnan(f[k]))
                absent[k] = true;
            else
                sum[k] += f[k];
        }
        /* totals for the checks: used only when no target lacks them */
        const double *v = ts[i].v;
        out->sum_innodb_reads += isfinite(v[M_INNODB_READS]) ? v[M_INNODB_READS] : 0;
        out->sum_guest_reads += isfinite(v[M_GUEST_READS]) ? v[M_GUEST_READS] : 0;
        out->sum_qemu_reads += isfinite(v[M_QEMU_RD_REQS]) ? v[M_QEMU_RD_REQS] : 0;
        out->sum_host_reads += isfinite(v[M_HOST_READS]) ? v[M_HOST_READS] * ts[i].host_share : 0;
    }
    double mean[F_N];
    for (int k = 0; k < F_N; k++)
        mean[k] = n && !absent[k] ? sum[k] / (double)n : NAN;
    out->copies = mean[F_COPIES];
    out->ws_bytes = mean[F_WS];
    out->bp_bytes = mean[F_BP];
    out->memory_bytes = mean[F_MEM];
    out->overhead_bytes = mean[F_OVERHEAD];
    out->miss_cost = mean[F_MISS_COST];
    out->read_extra = mean[F_READ_EXTRA];
    out->read_cpu_extra = mean[F_READ_CPU_EXTRA];
    out->write_cpu_extra = mean[F_WRITE_CPU_EXTRA];
    out->read_host_extra = mean[F_READ_HOST_EXTRA];
    out->write_host_extra = mean[F_WRITE_HOST_EXTRA];
    for (int l = 0; l < GAP_LAYERS; l++) {
        struct gap_layer_figures *g = &out->layer[l];
        const double *x = &mean[F_LAYER0 + 5 * l];
        bool mine = out->guest || l == GAP_LAYER_INNODB || l == GAP_LAYER_HOST;
        g->reads = mine ? x[0] : NAN;
        g->writes = mine ? x[1] : NAN;
        g->flushes = mine ? x[2] : NAN;
        g->read_ms = mine ? x[3] : NAN;
        g->write_ms = mine ? x[4] : NAN;
        g->hit = NAN;
    }
    struct gap_layer_figures *L = out->layer;
    L[GAP_LAYER_INNODB].hit = clamp01(mean[F_BP_HIT]);
    if (out->guest) {
        L[GAP_LAYER_GUEST].hit = hit_ratio(L[GAP_LAYER_GUEST].reads, L[GAP_LAYER_INNODB].reads);
        L[GAP_LAYER_HOST].hit = hit_ratio(L[GAP_LAYER_HOST].reads, L[GAP_LAYER_QEMU].reads);
    } else {
        L[GAP_LAYER_HOST].hit = hit_ratio(L[GAP_LAYER_HOST].reads, L[GAP_LAYER_INNODB].reads);
    }
    /* the checks, on totals over the targets */
    if (out->guest && !absent[F_LAYER0 + 5 * GAP_LAYER_INNODB] &&
        !absent[F_LAYER0 + 5 * GAP_LAYER_GUEST] && n &&
        out->sum_guest_reads >
            GAP_GUEST_READS_LIMIT * out->sum_innodb_reads + GAP_READAHEAD_ALLOWANCE * (double)n)
        out->problems |= GAP_CHECK_GUEST_READS;
    if (out->guest && n && !absent[F_LAYER0 + 5 * GAP_LAYER_GUEST] &&
        !absent[F_LAYER0 + 5 * GAP_LAYER_QEMU] &&
        fabs(out->sum_qemu_reads - out->sum_guest_reads) >
            GAP_QEMU_READS_TOLERANCE * out->sum_guest_reads)
        out->problems |= GAP_CHECK_QEMU_READS;
    if (out->guest && out->cache_none && !absent[F_LAYER0 + 5 * GAP_LAYER_QEMU] &&
        !absent[F_LAYER0 + 5 * GAP_LAYER_HOST] &&
        !gap_hostdev_reads_fit(out->sum_host_reads, out->sum_qemu_reads))
        out->problems |= GAP_CHECK_HOSTDEV_READS;
    free(ts);
}

bool gap_hostdev_reads_fit(double host, double qemu)
{
    return host >= (1 - GAP_HOSTDEV_READS_TOLERANCE) * qemu;
}

/* ---- the split ---- */

void gap_split_clear(struct gap_split *out)
{
    memset(out, 0, sizeof(*out));
    for (int p = 0; p < GAP_PARTS; p++)
        out->part[p] = out->ci[p] = NAN;
    out->delta = out->delta_ci = out->loss = out->residual = out->residual_ci = NAN;
    out->cmp = out->cmp_ci = NAN;
    out->vs_guest = false;
}

static double quad(double a, double b) { return sqrt(a * a + b * b); }

void gap_split(const struct gap_arm *g, const struct gap_arm *h, struct gap_split *out)
{
    gap_split_clear(out);
    if (!isfinite(g->w) || !isfinite(h->w) || !(g->tps >= 0) || !(h->tps > 0))
        return;
    out->valid = true;
    out->delta = g->w - h->w;
    out->delta_ci = quad(g->w_ci, h->w_ci);
    out->loss = 1 - g->tps / h->tps;
    double sum = 0;
    for (int p = 0; p < GAP_PARTS; p++) {
        out->part[p] = g->part[p] - h->part[p];
        out->ci[p] = quad(g->ci[p], h->ci[p]);
        if (isfinite(out->part[p]))
            sum += out->part[p];
        else
            out->part[p] = out->ci[p] = NAN;
    }
    bool cmp_known = isfinite(g->cmp) && isfinite(h->cmp);
    out->cmp = cmp_known ? g->cmp - h->cmp : NAN;
    out->cmp_ci = cmp_known ? quad(g->cmp_ci, h->cmp_ci) : NAN;
    /* = other_G - other_H when both arms know the same parts */
    out->residual = out->delta - sum;
    out->residual_ci = isfinite(g->other_ci) && isfinite(h->other_ci)
                              ? quad(g->other_ci, h->other_ci)
                              : out->delta_ci;
    out->closes_g = g->closes;
    out->closes_h = h->closes;
    out->vs_guest = h->guest;
    out->explained = g->closes && h->closes &&
                     fabs(out->residual) <= GAP_RESIDUAL_LIMIT * fabs(out->delta);
}

double gap_arm_part(const struct gap_arm *a, enum gap_part p) { return a->part[p]; }

double gap_other(const struct gap_arm *a) { return a->budgets ? a->other : NAN; }

double gap_other_share(const struct gap_arm *a)
{
    double o = gap_other(a);
    return isfinite(o) && a->w > 0 ? o / a->w : NAN;
}

double gap_points(const struct gap_split *s, double seconds)
{
    if (!s->valid || !isfinite(seconds) || s->delta == 0)
        return NAN;
    return seconds / s->delta * fabs(s->loss) * 100;
}

const char *gap_part_name(enum gap_part p)
{
    static const char *const names[] = {"CPU", "CPU contention", "foreground reads", "commit I/O",
                                        "locks", "client and hand-off"};
    return names[p];
}

const char *gap_split_part_name(enum gap_part p)
{
    return p == GAP_CPU ? "CPU (virtualization/emulation)" : gap_part_name(p);
}

const char *gap_part_key(enum gap_part p)
{
    static const char *const keys[] = {"cpu", "contention", "reads", "commit", "locks", "client"};
    return keys[p];
}

const char *gap_task_name(enum gap_task k)
{
    static const char *const names[GAP_TASKS] = {
        "page cleaner", "InnoDB task pool", "connections", "mariadbd other",
        "sysbench",     "kernel threads",   "rest",        "unattributed"};
    return names[k];
}

const char *gap_task_key(enum gap_task k)
{
    static const char *const keys[GAP_TASKS] = {"page_cleaner", "innodb_pool", "connections",
                                                "mariadbd_other", "sysbench", "kernel",
                                                "rest", "unattributed"};
    return keys[k];
}

const char *gap_layer_name(enum gap_layer l)
{
    static const char *const names[] = {"InnoDB", "guest block", "QEMU", "host device"};
    return names[l];
}

const char *gap_layer_cache(enum gap_layer l)
{
    static const char *const names[] = {"buffer pool", "guest page cache", "", "host page cache"};
    return names[l];
}

static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* "12.3 +- 1.0 points" (no "+-" when the CI is unknown) */
static void append_points(char *buf, size_t len, const struct gap_split *s, double sec, double ci)
{
    double pts = gap_points(s, sec), cpts = fabs(gap_points(s, ci));
    if (isfinite(cpts))
        append(buf, len, "%.1f +- %.1f points", pts, cpts);
    else
        append(buf, len, "%.1f point%s", pts, fabs(pts) == 1.0 ? "" : "s");
}

bool gap_cmp_within_cpu(double cmp, double cpu)
{
    return cmp * cpu > 0 && fabs(cmp) <= fabs(cpu);
}

bool gap_beyond_ci(double x, double ci)
{
    return isfinite(x) && x != 0 && isfinite(ci) && fabs(x) > ci;
}

void gap_sentence(const struct gap_split *s, const char *g, const char *h, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s->valid)
        return;
    int order[GAP_PARTS], n = 0, quiet = 0, tiny = 0;
    /* one run: no CI; the parts listed by size, none named */
    bool no_ci = !isfinite(s->delta_ci);
    for (int p = 0; p < GAP_PARTS; p++) {
        bool shown = no_ci ? isfinite(s->part[p]) && s->part[p] != 0 : gap_beyond_ci(s->part[p], s->ci[p]);
        /* a part that would print as 0.0 points is no reason the gap is
         * what it is, however sure its sign */
        if (shown && fabs(gap_points(s, s->part[p])) < GAP_NAMED_MIN_POINTS)
            tiny++;
        else if (shown)
            order[n++] = p;
        else if (isfinite(s->part[p]) && s->part[p] != 0)
            quiet++;
    }
    /* biggest first (by magnitude) */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && fabs(s->part[order[k]]) > fabs(s->part[order[k - 1]]); k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    append(buf, len, "%s %s %.1f %% %s %s's TPS per guest", g, s->loss >= 0 ? "loses" : "gains",
           fabs(s->loss) * 100, s->loss >= 0 ? "of" : "over", h);
    if (s->delta == 0) {
        append(buf, len, ": the same time per transaction.");
        return;
    }
    if (no_ci && n)
        append(buf, len, "; one run, no CI");
    for (int i = 0; i < n; i++) {
        int p = order[i];
        append(buf, len, "%s", i ? ", " : ": ");
        append_points(buf, len, s, s->part[p], s->ci[p]);
        append(buf, len, " %s", s->vs_guest ? gap_part_name(p) : gap_split_part_name(p));
        if (p == GAP_CPU && (no_ci ? isfinite(s->cmp) && s->cmp != 0 : gap_beyond_ci(s->cmp, s->cmp_ci))) {
            /* an "of which" never larger than its whole: where compression
             * moved more than the CPU (or the other way), the rest of the
             * CPU moved against it, and the sentence says by how much */
            bool within = gap_cmp_within_cpu(s->cmp, s->part[p]);
            append(buf, len, within ? " (of which the server's compression " : " (the server's compression ");
            append_points(buf, len, s, s->cmp, s->cmp_ci);
            if (!within) {
                append(buf, len, ", the rest of the CPU ");
                append_points(buf, len, s, s->part[p] - s->cmp,
                              sqrt(s->ci[p] * s->ci[p] + s->cmp_ci * s->cmp_ci));
            }
            append(buf, len, ")");
        }
    }
    append(buf, len, "%sresidual ", n ? "; " : ": ");
    append_points(buf, len, s, s->residual, s->residual_ci);
    bool first = true;
    for (int p = 0; p < GAP_PARTS; p++)
        if (isnan(s->part[p])) {
            append(buf, len, "%s%s", first ? " (n/a, in the residual: " : ", ",
                   s->vs_guest ? gap_part_name(p) : gap_split_part_name(p));
            first = false;
        }
    append(buf, len, "%s.", first ? "" : ")");
    if (quiet)
        append(buf, len, " %d other part%s a 95 %% CI that holds 0.", quiet, quiet == 1 ? " has" : "s have");
    if (tiny)
        append(buf, len, " %d other part%s under %.2f points.", tiny, tiny == 1 ? " is" : "s are",
               GAP_NAMED_MIN_POINTS);
    if (!s->closes_g && !s->closes_h)
        append(buf, len, " The model does not explain this run: neither arm's budget closes.");
    else if (!s->closes_g || !s->closes_h)
        append(buf, len, " The model does not explain this run: the budget of %s does not close.",
               !s->closes_g ? g : h);
    else if (!s->explained)
        append(buf, len, " The model does not explain this run: the residual is %.0f %% of the "
                         "difference (more than %.0f %%).",
               fabs(s->residual / s->delta) * 100, GAP_RESIDUAL_LIMIT * 100);
}

void gap_budget_sentence(const struct gap_arm *a, const char *name, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!a->targets)
        return;
    if (!a->budgets || !isfinite(a->other)) {
        append(buf, len, "%s has no budget: the chain of %s was not read (probes/chain.h).", name,
               a->budgets ? "some of its targets" : "its targets");
        return;
    }
    double share = gap_other_share(a);
    append(buf, len, "The budget of %s %s: %.1f %% of its thread time waiting, unattributed "
                     "(%.2f of %.2f ms per transaction; limits +-%.0f %%)",
           name, a->closes ? "closes" : "does not close", share * 100, a->other * 1000, a->w * 1000,
           GAP_CLOSE_HIGH * 100);
    /* why not, each reason that holds */
    double limit = a->tps_check == GAP_TPS_COUNT ? GAP_TPS_COUNT_LIMIT : GAP_TPS_RATE_LIMIT;
    if (a->tps_check == GAP_TPS_NONE)
        append(buf, len, "; sysbench's transactions could not be checked against the server's");
    else if (!(fabs(a->tps_diff) <= limit))
        append(buf, len, "; sysbench's transactions are %+.1f %% of the server's %s (limit %.0f %%)",
               a->tps_diff * 100, a->tps_check == GAP_TPS_COUNT ? "count" : "rate", limit * 100);
    if (a->states_over > GAP_STATES_OVER_LIMIT)
        append(buf, len, "; its thread's states exceed their interval by %.1f %% (limit %.0f %%)",
               a->states_over * 100, GAP_STATES_OVER_LIMIT * 100);
    if (share < GAP_CLOSE_LOW)
        append(buf, len, "; the causes exceed the waits: a counter overlaps another or reads high");
    else if (share > GAP_CLOSE_HIGH)
        append(buf, len, "; waits no counter names");
    append(buf, len, ".");
}

void gap_problems_text(const struct gap_arm *a, char *buf, size_t len)
{
    buf[0] = '\0';
    if (a->problems & GAP_CHECK_GUEST_READS)
        append(buf, len,
               "%sguest block reads (%.0f) exceed %.2f x InnoDB data reads (%.0f) + %d per "
               "target for readahead.",
               *buf ? " " : "", a->sum_guest_reads, GAP_GUEST_READS_LIMIT, a->sum_innodb_reads,
               GAP_READAHEAD_ALLOWANCE);
    if (a->problems & GAP_CHECK_QEMU_READS)
        append(buf, len, "%sQEMU read requests (%.0f) differ from guest block reads (%.0f) by more "
                         "than %.0f %%.",
               *buf ? " " : "", a->sum_qemu_reads, a->sum_guest_reads,
               GAP_QEMU_READS_TOLERANCE * 100);
    if (a->problems & GAP_CHECK_HOSTDEV_READS)
        append(buf, len, "%shost device reads (%.0f) fall short of QEMU read requests (%.0f) by more "
                         "than %.0f %% under cache=none.",
               *buf ? " " : "", a->sum_host_reads, a->sum_qemu_reads,
               GAP_HOSTDEV_READS_TOLERANCE * 100);
}
