/* gap.c: where a transaction's time goes, layer by layer (see gap.h). */
#include "report/gap.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the counters of one target ---- */

enum gap_metric {
    M_TRANSACTIONS,
    M_MEASURE_S,
    M_SERVER_CPU,
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
    M_N
};

static const char *const metric_names[M_N] = {
    [M_TRANSACTIONS] = "transactions",
    [M_MEASURE_S] = "measure_s",
    [M_SERVER_CPU] = "server_cpu_s",
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
};

struct target {
    int seq, guest;
    double v[M_N]; /* NAN: absent */
    const char *device;
    int threads;      /* config.threads of its run, 0 unknown */
    bool no_compression;
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

/* Figures of one target, in the order of the fields averaged below. */
enum { F_W, F_CPU, F_CMP, F_RD, F_WR, F_BP_HIT, F_COPIES, F_LAYER0, F_N = F_LAYER0 + 5 * GAP_LAYERS };

static void target_figures(const struct target *t, bool guest_arm, double *f)
{
    const double *v = t->v;
    double T = v[M_TRANSACTIONS];
    f[F_W] = t->threads > 0 && v[M_MEASURE_S] > 0 && T > 0 ? t->threads * v[M_MEASURE_S] / T : NAN;
    f[F_CPU] = per_tx(t, v[M_SERVER_CPU]);
    f[F_CMP] = t->no_compression && T > 0 ? 0 : per_tx(t, v[M_CMP_COMPRESS] + v[M_CMP_UNCOMPRESS]);
    double hr = v[M_HOST_READS] * t->host_share, hrms = v[M_HOST_READ_MS] * t->host_share;
    double hw = v[M_HOST_WRITES] * t->host_share, hf = v[M_HOST_FLUSHES] * t->host_share;
    double hwms = (v[M_HOST_WRITE_MS] + v[M_HOST_FLUSH_MS]) * t->host_share;
    double gwms = v[M_GUEST_WRITE_MS] + v[M_GUEST_FLUSH_MS];
    f[F_RD] = per_tx(t, (guest_arm ? v[M_GUEST_READ_MS] : hrms) / 1000);
    f[F_WR] = per_tx(t, (guest_arm ? gwms : hwms) / 1000);
    f[F_BP_HIT] = v[M_BP_HIT];
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

void gap_measure_arm(const struct results_data *rd, int variant, const struct results_arm *arm,
                     struct gap_arm *out)
{
    memset(out, 0, sizeof(*out));
    out->guest = !strcmp(arm->kind, "guest");
    out->tps = NAN;
    struct target *ts = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        int m = metric_of(s);
        if (m < 0 || strcmp(s->arm, arm->name) != 0 || !results_sample_in_variant(s, variant) ||
            !results_run_ok(rd, s->seq) || (out->guest && s->guest == 0))
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
    out->hypervisor_fields = "";
    for (size_t i = 0; i < n; i++) {
        const struct results_run *run = results_find_run(rd, ts[i].seq);
        const char *threads = run ? results_run_config(run, "threads") : "";
        char *end;
        long k = strtol(threads, &end, 10);
        ts[i].threads = *threads && !*end && k > 0 && k < 100000 ? (int)k : 0;
        ts[i].no_compression = run && !strcmp(results_run_config(run, "compression"), "none");
        out->cache_none &= run && !strcmp(run->disk_cache, "none");
        if (run && run->hypervisor_fields && !*out->hypervisor_fields)
            out->hypervisor_fields = run->hypervisor_fields;
    }
    /* the means: NAN when any target lacks the figure (n/a, never 0) */
    double sum[F_N] = {0};
    bool absent[F_N] = {0};
    bool cmp_absent = false;
    for (size_t i = 0; i < n; i++) {
        double f[F_N];
        target_figures(&ts[i], out->guest, f);
        for (int k = 0; k < F_N; k++) {
            if (isnan(f[k]))
                absent[k] = true;
            else
                sum[k] += f[k];
        }
        cmp_absent |= isnan(f[F_CMP]);
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
    out->w = mean[F_W];
    out->cpu = mean[F_CPU];
    out->cmp = mean[F_CMP];
    out->cmp_in_cpu = n > 0 && cmp_absent;
    out->rd = mean[F_RD];
    out->wr = mean[F_WR];
    out->copies = mean[F_COPIES];
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
        fabs(out->sum_host_reads - out->sum_qemu_reads) >
            GAP_HOSTDEV_READS_TOLERANCE * out->sum_qemu_reads)
        out->problems |= GAP_CHECK_HOSTDEV_READS;
    free(ts);
}

/* ---- the split ---- */

void gap_split_clear(struct gap_split *out)
{
    memset(out, 0, sizeof(*out));
    for (int p = 0; p < GAP_PARTS; p++)
        out->part[p] = NAN;
    out->delta = out->loss = out->residual = NAN;
}

void gap_split(const struct gap_arm *g, const struct gap_arm *h, struct gap_split *out)
{
    gap_split_clear(out);
    if (!isfinite(g->w) || !isfinite(h->w) || !(g->tps >= 0) || !(h->tps > 0))
        return;
    out->valid = true;
    out->delta = g->w - h->w;
    out->loss = 1 - g->tps / h->tps;
    /* compression CPU unmeasured on either side: it stays inside the CPU part */
    bool cmp_known = isfinite(g->cmp) && isfinite(h->cmp);
    out->part[GAP_CPU_VIRT] =
        cmp_known ? (g->cpu - g->cmp) - (h->cpu - h->cmp) : g->cpu - h->cpu;
    out->part[GAP_CPU_CMP] = cmp_known ? g->cmp - h->cmp : NAN;
    out->part[GAP_READS] = g->rd - h->rd;
    out->part[GAP_WRITES] = g->wr - h->wr;
    double sum = 0;
    for (int p = 0; p < GAP_PARTS; p++)
        if (isfinite(out->part[p]))
            sum += out->part[p];
        else
            out->part[p] = NAN;
    out->residual = out->delta - sum;
    out->explained = fabs(out->residual) <= GAP_EXPLAINED_RESIDUAL * fabs(out->delta);
}

double gap_other(const struct gap_arm *a)
{
    return a->w - a->cpu - a->rd - a->wr;
}

double gap_points(const struct gap_split *s, double seconds)
{
    if (!s->valid || !isfinite(seconds) || s->delta == 0)
        return NAN;
    return seconds / s->delta * s->loss * 100;
}

const char *gap_part_name(enum gap_part p)
{
    static const char *const names[] = {"CPU (virtualization/emulation)", "compression CPU",
                                        "reads a cache above would have served",
                                        "writes and flushes"};
    return names[p];
}

const char *gap_part_key(enum gap_part p)
{
    static const char *const keys[] = {"cpu_virt", "cpu_cmp", "reads", "writes"};
    return keys[p];
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

void gap_sentence(const struct gap_split *s, const char *g, const char *h, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s->valid)
        return;
    int order[GAP_PARTS], n = 0;
    for (int p = 0; p < GAP_PARTS; p++)
        if (isfinite(s->part[p]) && s->part[p] != 0) /* 0: compression = none on both sides */
            order[n++] = p;
    /* biggest first (by magnitude) */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && fabs(s->part[order[k]]) > fabs(s->part[order[k - 1]]); k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    append(buf, len, "%s %s %.1f %% of %s's TPS per guest", g, s->loss >= 0 ? "loses" : "gains",
           fabs(s->loss) * 100, h);
    if (s->delta == 0) {
        append(buf, len, ": the same time per transaction.");
        return;
    }
    for (int i = 0; i < n; i++) {
        double pts = gap_points(s, s->part[order[i]]);
        append(buf, len, "%s%.1f point%s %s", i ? ", " : ": ", pts,
               fabs(pts) == 1.0 ? "" : "s", gap_part_name(order[i]));
    }
    append(buf, len, "%sresidual %.1f points", n ? "; " : ": ", gap_points(s, s->residual));
    bool first = true;
    for (int p = 0; p < GAP_PARTS; p++)
        if (isnan(s->part[p])) {
            append(buf, len, "%s%s", first ? " (n/a, in the residual: " : ", ", gap_part_name(p));
            first = false;
        }
    append(buf, len, "%s.", first ? "" : ")");
    if (!s->explained)
        append(buf, len, " The model does not explain this run: the residual is %.0f %% of the "
                         "difference (more than %.0f %%).",
               fabs(s->residual / s->delta) * 100, GAP_EXPLAINED_RESIDUAL * 100);
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
        append(buf, len, "%shost device reads (%.0f) differ from QEMU read requests (%.0f) by more "
                         "than %.0f %% under cache=none.",
               *buf ? " " : "", a->sum_host_reads, a->sum_qemu_reads,
               GAP_HOSTDEV_READS_TOLERANCE * 100);
}
