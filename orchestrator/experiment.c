/* experiment.c: prepare, warm-up, measure, collect (see experiment.h). */
#include "experiment.h"
#include "xalloc.h"

#include "hostcache.h"
#include "innodb.h"
#include "layers.h"
#include "log.h"
#include "noise.h"
#include "signals.h"
#include "steady.h"
#include "verdicts.h"
#include "window.h"
#include "workingset.h"
#include "workload.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
};

struct job {
    struct experiment *e;
    struct target *t;
    struct measured *m;
    int (*fn)(struct job *);
    pthread_barrier_t *barrier;
    int rc;
};

static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

static int fail(struct experiment *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct experiment *e, const char *fmt, ...)
{
    pthread_mutex_lock(&error_lock);
    if (!e->error[0]) {
        /* the reason names the phase; the message names the target */
        int n = snprintf(e->error, sizeof(e->error), "in phase %s: ", e->phase ? e->phase : "setup");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->error + n, sizeof(e->error) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&error_lock);
    return -1;
}

static void *job_thread(void *arg)
{
    struct job *j = arg;
    j->rc = j->fn(j);
    return NULL;
}

/* fn on every target at once; -1 if any failed */
static int each(struct experiment *e, struct measured *m, int (*fn)(struct job *), bool barrier)
{
    struct job *jobs = xcalloc(e->n, sizeof(*jobs));
    pthread_t *th = xcalloc(e->n, sizeof(*th));
    pthread_barrier_t bar;
    if (barrier)
        pthread_barrier_init(&bar, NULL, (unsigned)e->n);
    for (size_t i = 0; i < e->n; i++) {
        jobs[i] = (struct job){.e = e, .t = &e->t[i], .m = m ? &m[i] : NULL, .fn = fn,
                               .barrier = barrier ? &bar : NULL};
        pthread_create(&th[i], NULL, job_thread, &jobs[i]);
    }
    int rc = 0;
    for (size_t i = 0; i < e->n; i++) {
        pthread_join(th[i], NULL);
        if (jobs[i].rc < 0)
            rc = -1;
    }
    if (barrier)
        pthread_barrier_destroy(&bar);
    free(jobs);
    free(th);
    if (rc == 0 && signals_interrupted())
        rc = fail(e, "interrupted by %s", signals_name());
    return rc;
}

/* run sysbench on one target; its output in t->out_path */
static int sysbench(struct job *j, enum workload_cmd cmd, long long seconds, const char *out,
                    long timeout, long first_ms)
{
    struct workload_cmdline c;
    workload_cmdline(&c, j->e->cfg, cmd, seconds, j->t->lua, j->t->socket);
    int exitcode = -1;
    if (target_start(j->t, c.argv, c.env, out) < 0 ||
        target_wait(j->t, timeout, first_ms, &exitcode) < 0)
        return fail(j->e, "sysbench %s did not complete in %s", cmd == WORKLOAD_RUN ? "run" : "prepare",
                    j->t->name);
    if (exitcode != 0)
        return fail(j->e, "sysbench %s failed in %s (exit %d); see %s",
                    cmd == WORKLOAD_RUN ? "run" : "prepare", j->t->name, exitcode, j->t->out_path);
    return 0;
}

/* ---- prepare ---- */

/* Where the data just prepared fits (workingset.h), as samples and a line
 * in the log; a warning when it never leaves the buffer pool. */
static void working_set(struct job *j)
{
    const struct run_config *cfg = j->e->cfg;
    int kind = j->t->host ? ARM_HOST : ARM_GUEST;
    long long bytes;
    bool estimate = innodb_data_bytes(j->t->sql, &bytes) < 0;
    if (estimate)
        bytes = ws_estimate_bytes(cfg);
    long long host_mem = j->e->host_memory;
    enum ws_fit fit = ws_classify(cfg, kind, bytes, host_mem);
    json_object *extra = json_object_new_object();
    json_object_object_add(extra, "fits", json_object_new_string(ws_fit_name(fit)));
    json_object_object_add(extra, "basis", json_object_new_string(estimate ? "estimate" : "on_disk"));
    struct samples *s = j->e->samples;
    int g = j->t->guest;
    samples_add(s, "working_set_bytes", (double)bytes, "bytes", g, j->t->out_path, 0, extra);
    samples_add(s, "buffer_pool_bytes", (double)cfg->buffer_pool, "bytes", g, NULL, 0, NULL);
    if (kind == ARM_GUEST)
        samples_add(s, "guest_memory_bytes", (double)cfg->memory, "bytes", g, NULL, 0, NULL);
    char text[512];
    ws_describe(cfg, kind, bytes, estimate, host_mem, text, sizeof(text));
    if (fit == WS_BUFFER_POOL)
        log_warn("%s: %s", j->t->name, text);
    else
        log_info("%s: %s", j->t->name, text);
}

static int prepare_one(struct job *j)
{
    struct sql_result r = {0};
    if (sql_query(j->t->sql, "CREATE DATABASE IF NOT EXISTS sbtest", &r) < 0)
        return fail(j->e, "cannot create database sbtest in %s", j->t->name);
    sql_result_free(&r);
    if (sysbench(j, WORKLOAD_PREPARE, 0, "sysbench-prepare.out", j->e->cfg->timeout_prepare, 200) < 0)
        return -1;
    working_set(j);
    if (j->e->cfg->compression == COMP_NONE)
        return 0;

    struct innodb_compression c;
    if (innodb_check_compression(j->t->sql, j->e->cfg, &c) < 0)
        return fail(j->e, "cannot check the compression of the tables in %s", j->t->name);
    const char *src = j->t->out_path;
    struct samples *s = j->e->samples;
    samples_add(s, "table_bytes_allocated", (double)c.allocated, "bytes", j->t->guest, src, 0, NULL);
    samples_add(s, "table_bytes_logical", (double)c.logical, "bytes", j->t->guest, src, 0, NULL);
    samples_add(s, "compression_ratio", c.ratio, "ratio", j->t->guest, src, 0, NULL);
    if (j->e->cfg->compression == COMP_PAGE_LZ4)
        samples_add(s, "provider_lz4_loaded", c.provider_lz4, "bool", j->t->guest, src, 0, NULL);
    if (!c.took_effect)
        return fail(j->e, "compression %s did not take effect in %s: %s",
                    key_choice("compression", j->e->cfg->compression), j->t->name, c.problem);
    log_info("%s: compression %s took effect: ratio %.2f (%lld bytes on disk for %lld uncompressed)",
             j->t->name, key_choice("compression", j->e->cfg->compression), c.ratio, c.allocated,
             c.logical);
    return 0;
}

/* ---- warm-up ---- */

/* slice: the warm-up slice (1-based) of each interval, or NULL */
static void interval_samples(struct experiment *e, const struct target *t,
                             const struct sysbench_interval *iv, const int *slice, size_t n,
                             const char *phase, double start, double offset)
{
    for (size_t i = 0; i < n; i++) {
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "phase", json_object_new_string(phase));
        json_object_object_add(extra, "t", json_object_new_double(iv[i].t + offset));
        if (slice)
            json_object_object_add(extra, "slice", json_object_new_int(slice[i]));
        samples_add(e->samples, "tps_interval", iv[i].tps, "tx/s", t->guest, t->out_path,
                    start + iv[i].t, extra);
    }
}

static long grace(long long seconds) { return (long)(seconds / 2 > 120 ? seconds / 2 : 120); }

/* One warm-up run of `seconds` in a target: its intervals appended to the
 * target's warm-up series (t counted from the warm-up's start). */
static int warm_slice(struct job *j, long long seconds, const char *out)
{
    struct measured *m = j->m;
    sysbench_report_free(&m->slice);
    m->slice_parsed = false;
    if (sysbench(j, WORKLOAD_RUN, seconds, out, (long)seconds + grace(seconds), (long)seconds * 1000) < 0)
        return -1;
    char *text = target_output(j->t);
    char err[256];
    if (text) {
        /* only the intervals matter here; a missing final report is no error */
        sysbench_parse(text, &m->slice, err, sizeof(err));
        m->slice_parsed = true;
    }
    free(text);
    double base = (double)m->slices * VERDICT_SLICE_S; /* a fixed warm-up is one slice */
    m->warm = xrealloc(m->warm, (m->n_warm + m->slice.n_intervals + 1) * sizeof(*m->warm));
    m->warm_slice = xrealloc(m->warm_slice, (m->n_warm + m->slice.n_intervals + 1) * sizeof(int));
    for (size_t i = 0; i < m->slice.n_intervals; i++) {
        m->warm_slice[m->n_warm] = m->slices + 1;
        m->warm[m->n_warm] = m->slice.intervals[i];
        m->warm[m->n_warm++].t += base;
    }
    m->slices++;
    return 0;
}

static int warmup_fixed_one(struct job *j)
{
    return warm_slice(j, j->e->cfg->warmup, "sysbench-warmup.out");
}

static int warmup_slice_one(struct job *j)
{
    char out[64];
    snprintf(out, sizeof(out), "sysbench-warmup-%02d.out", j->m->slices + 1);
    return warm_slice(j, VERDICT_SLICE_S, out);
}

/* The rule of warmup = auto applied to the last two slice lengths of a
 * fixed warm-up: was it steady when it ended? */
static bool fixed_warmup_steady(const struct measured *m, const struct run_config *cfg)
{
    size_t per = (size_t)(VERDICT_SLICE_S / cfg->report_interval);
    if (per < 3 || m->n_warm < 2 * per)
        return false;
    struct steady_tracker st;
    steady_init(&st, 1, VERDICT_SLICE_S, 1e12);
    const struct sysbench_interval *a = m->warm + m->n_warm - 2 * per, *b = m->warm + m->n_warm - per;
    steady_round(&st, &a, &per);
    steady_round(&st, &b, &per);
    bool steady = st.t[0].steady_now;
    steady_free(&st);
    return steady;
}

static void warmup_record(struct experiment *e, struct measured *m, double total_s,
                          const struct steady_tracker *st, bool is_auto)
{
    samples_add(e->samples, "warmup_total_s", total_s, "s", 0, NULL, 0, NULL);
    for (size_t i = 0; i < e->n; i++) {
        struct target *t = &e->t[i];
        /* steady: the rule held in the last slice, as the measure phase began
         * (a capped warm-up may have a target that held once and lost it) */
        bool steady = is_auto ? st->t[i].steady_now : fixed_warmup_steady(&m[i], e->cfg);
        double needed = is_auto && steady ? st->t[i].steady_at : total_s;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "steady", json_object_new_string(steady ? "yes" : "no"));
        json_object_object_add(extra, "mode", json_object_new_string(is_auto ? "auto" : "fixed"));
        samples_add(e->samples, "warmup_s", needed, "s", t->guest, NULL, 0, extra);
        interval_samples(e, t, m[i].warm, m[i].warm_slice, m[i].n_warm, "warmup", 0, -total_s);
        if (!steady)
            log_warn("%s: TPS not steady after %.0f s of warm-up (rule: two consecutive %d s "
                     "slices within %.0f%% and drift within +-%.2f, or within their noise)",
                     t->name, total_s, VERDICT_SLICE_S, VERDICT_SLICE_DELTA * 100, VERDICT_SLICE_DRIFT);
    }
}

static int warmup(struct experiment *e, struct measured *m)
{
    const struct run_config *cfg = e->cfg;
    if (cfg->warmup == 0)
        return 0;
    if (cfg->warmup > 0) {
        log_info("warm-up: %llds", cfg->warmup);
        int rc = each(e, m, warmup_fixed_one, false);
        if (rc == 0)
            warmup_record(e, m, (double)cfg->warmup, NULL, false);
        return rc;
    }
    log_info("warm-up: until every target's TPS is steady (%d s slices, at most %llds)",
             VERDICT_SLICE_S, cfg->warmup_max);
    struct steady_tracker st;
    steady_init(&st, e->n, VERDICT_SLICE_S, (double)cfg->warmup_max);
    const struct sysbench_interval **iv = xcalloc(e->n, sizeof(*iv));
    size_t *count = xcalloc(e->n, sizeof(*count));
    int rc;
    enum steady_next next = STEADY_CONTINUE;
    while ((rc = each(e, m, warmup_slice_one, false)) == 0) {
        for (size_t i = 0; i < e->n; i++) {
            iv[i] = m[i].slice.intervals;
            count[i] = m[i].slice.n_intervals;
        }
        next = steady_round(&st, iv, count);
        for (size_t i = 0; i < e->n; i++) {
            char delta[64] = "first slice";
            if (!isnan(st.t[i].delta))
                snprintf(delta, sizeof(delta), "%.1f%% from the slice before (limit %.1f%%)",
                         100 * st.t[i].delta, 100 * st.t[i].delta_limit);
            log_info("warm-up %3.0f s: %s %.1f tx/s, %s, drift %+.3f (limit +-%.3f)%s",
                     st.elapsed_s, e->t[i].name, steady_mean(iv[i], count[i]), delta,
                     st.t[i].drift, st.t[i].drift_limit, st.t[i].steady_now ? " (steady)" : "");
        }
        if (next != STEADY_CONTINUE)
            break;
    }
    if (rc == 0)
        warmup_record(e, m, st.elapsed_s, &st, true);
    free(iv);
    free(count);
    steady_free(&st);
    return rc;
}

/* ---- measure ---- */

/* a guest's own CPU times (its steal time); the host arm has none of its own */
static bool guest_cpu_times(struct job *j, struct cpu_times *out)
{
    if (j->t->host)
        return false;
    char *text = target_read_text(j->t, "/proc/stat");
    bool ok = noise_parse_proc_stat(text, 100, out) == 0; /* USER_HZ is 100 on Linux guests */
    free(text);
    return ok;
}

/* One snapshot of every layer of a target's path (layers.h). */
static void snapshot_layers(struct job *j, struct layer_snapshot *s)
{
    struct target *t = j->t;
    memset(s, 0, sizeof(*s));
    layers_innodb(t->sql, s);
    if (t->dom) {
        layers_guest(t, j->m->guest_dev, s);
        /* the first guest says which stats this libvirt offers */
        layers_hypervisor(t->dom, "vdb", s, t == &j->e->t[0] ? j->e->hv_fields : NULL,
                          sizeof(j->e->hv_fields));
    }
    if (j->e->host_local)
        layers_host(t->host ? t->host->datadir : t->data_file[0] ? t->data_file : NULL,
                    t->host ? t->host->pid : 0, s);
    /* the CPU that executes the workload: a guest's QEMU; the host arm's
     * mariadbd and its sysbench (vbed's only child while it measures) */
    double cpu = target_cpu_s(t);
    if (cpu >= 0 && t->host)
        cpu += noise_cpu_children_s();
    if (cpu >= 0)
        layers_set(s, "workload", "server_cpu_s", "s", false, cpu);
}

static int counters_before(struct job *j)
{
    if (innodb_counters(j->t->sql, &j->m->before) < 0)
        return fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
    if (j->t->dom && layers_guest_data_dev(j->t, j->m->guest_dev, sizeof(j->m->guest_dev)) < 0)
        log_warn("%s: cannot find its data disk in the guest (/sys/block/vd*/serial); its block "
                 "counters are not recorded",
                 j->t->name);
    snapshot_layers(j, &j->m->layers_before);
    j->m->guest_before_ok = guest_cpu_times(j, &j->m->guest_before);
    return 0;
}

static int counters_after(struct job *j)
{
    j->m->guest_after_ok = guest_cpu_times(j, &j->m->guest_after);
    snapshot_layers(j, &j->m->layers_after);
    if (innodb_counters(j->t->sql, &j->m->after) < 0)
        return fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
    j->m->after_ok = true;
    return 0;
}

static int measure_one(struct job *j)
{
    long long d = j->e->cfg->duration;
    struct workload_cmdline c;
    workload_cmdline(&c, j->e->cfg, WORKLOAD_RUN, d, j->t->lua, j->t->socket);
    /* every target starts the moment the last one is ready to */
    pthread_barrier_wait(j->barrier);
    int exitcode = -1;
    if (target_start(j->t, c.argv, c.env, "sysbench-measure.out") < 0)
        return fail(j->e, "cannot start sysbench in %s", j->t->name);
    /* nothing to do until it ends: vbed stays off the CPU while it measures */
    if (target_wait(j->t, (long)d + grace(d), (long)d * 1000, &exitcode) < 0)
        return fail(j->e, "sysbench run did not complete in %s", j->t->name);
    if (exitcode != 0)
        return fail(j->e, "sysbench run failed in %s (exit %d); see %s", j->t->name, exitcode,
                    j->t->out_path);
    char *text = target_output(j->t);
    char err[256];
    int rc = 0;
    if (!text || sysbench_parse(text, &j->m->report, err, sizeof(err)) < 0)
        rc = fail(j->e, "cannot read sysbench's report from %s: %s", j->t->out_path,
                  text ? err : "no output");
    else
        j->m->parsed = true;
    free(text);
    return rc;
}

/* Bytes of the host arm's tables (sbtest*.ibd in its datadir) in the host
 * page cache; -1 if none could be measured. */
static long long host_arm_resident(const struct hostarm *h)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/sbtest", h->datadir);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long long sum = -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "sbtest", 6) != 0 || len < 5 || strcmp(de->d_name + len - 4, ".ibd") != 0)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        long long b = hostcache_resident(path);
        if (b >= 0)
            sum = (sum < 0 ? 0 : sum) + b;
    }
    closedir(d);
    return sum;
}

static void residency(struct experiment *e, const char *when)
{
    for (size_t i = 0; i < e->n; i++) {
        long long bytes = -1;
        if (e->t[i].host)
            bytes = host_arm_resident(e->t[i].host); /* its datadir is the host's */
        else if (e->t[i].data_file[0])
            bytes = hostcache_resident(e->t[i].data_file);
        if (bytes < 0)
            continue;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "when", json_object_new_string(when));
        samples_add(e->samples, "host_cache_data_bytes", (double)bytes, "bytes", e->t[i].guest, NULL,
                    0, extra);
    }
    long long cached, dirty;
    if (hostcache_meminfo(&cached, &dirty) == 0) {
        json_object *a = json_object_new_object(), *b = json_object_new_object();
        json_object_object_add(a, "when", json_object_new_string(when));
        json_object_object_add(b, "when", json_object_new_string(when));
        samples_add(e->samples, "host_cached_bytes", (double)cached, "bytes", 0, NULL, 0, a);
        samples_add(e->samples, "host_dirty_bytes", (double)dirty, "bytes", 0, NULL, 0, b);
    }
}

/* CPU seconds of everything that is part of the run: the targets' servers
 * (guests' QEMU, the host arm's mariadbd), vbed and its children (the host
 * arm's sysbench); -1 if a target's is unknown */
static double run_cpu_s(const struct experiment *e)
{
    double sum = noise_self_cpu_s();
    for (size_t i = 0; i < e->n; i++) {
        double c = target_cpu_s(&e->t[i]);
        if (c < 0)
            return -1;
        sum += c;
    }
    return sum;
}

/* Steal and other processes' CPU over the measure phase, and each guest's
 * steal: samples, and a warning beyond the limits of verdicts.h. */
static void noise_samples(struct experiment *e, const struct measured *m, bool host_ok,
                          const struct cpu_times *h0, const struct cpu_times *h1, double run0,
                          double run1)
{
    struct samples *s = e->samples;
    if (host_ok) {
        double steal = noise_steal_pct(h0, h1);
        if (!isnan(steal)) {
            samples_add(s, "host_steal_pct", steal, "percent", 0, "/proc/stat", 0, NULL);
            if (steal > VERDICT_HOST_STEAL_PCT)
                log_warn("the host's CPUs lost %.1f%% of their time to steal during the measure "
                         "phase (limit %.0f%%): another tenant of this machine was busy",
                         steal, VERDICT_HOST_STEAL_PCT);
        }
        if (run0 >= 0 && run1 >= 0) {
            double other = noise_other_cpu_pct(h0, h1, run1 - run0);
            samples_add(s, "run_cpu_s", run1 - run0, "s", 0, NULL, 0, NULL);
            if (!isnan(other)) {
                samples_add(s, "host_other_cpu_pct", other, "percent", 0, "/proc/stat", 0, NULL);
                if (other > VERDICT_HOST_OTHER_CPU_PCT)
                    log_warn("processes that are not part of the run used %.1f%% of the host's "
                             "CPU during the measure phase (limit %.0f%%)",
                             other, VERDICT_HOST_OTHER_CPU_PCT);
            }
        }
    }
    for (size_t i = 0; i < e->n; i++) {
        if (!m[i].guest_before_ok || !m[i].guest_after_ok)
            continue;
        double steal = noise_steal_pct(&m[i].guest_before, &m[i].guest_after);
        if (isnan(steal))
            continue;
        samples_add(s, "guest_steal_pct", steal, "percent", e->t[i].guest, NULL, 0, NULL);
        if (steal > VERDICT_GUEST_STEAL_PCT)
            log_warn("%s: its vCPUs lost %.1f%% of their time to steal during the measure phase "
                     "(limit %.0f%%)",
                     e->t[i].name, steal, VERDICT_GUEST_STEAL_PCT);
    }
}

/* a counter's sample, unless the server did not have it (NAN) */
static void add_measured(struct samples *s, const char *metric, double value, const char *unit,
                         int guest, const char *source, double ts, json_object *extra)
{
    if (isnan(value) || isinf(value)) {
        json_object_put(extra);
        return;
    }
    samples_add(s, metric, value, unit, guest, source, ts, extra);
}

static void report_samples(struct experiment *e, const struct target *t, const struct measured *m)
{
    const struct sysbench_report *r = &m->report;
    struct samples *s = e->samples;
    const char *src = t->out_path;
    int g = t->guest;
    double ts = t->started + r->total_time_s;
    samples_add(s, "tps", r->tps, "tx/s", g, src, ts, NULL);
    samples_add(s, "qps", r->qps, "q/s", g, src, ts, NULL);
    samples_add(s, "qps_read", r->qps_read, "q/s", g, src, ts, NULL);
    samples_add(s, "qps_write", r->qps_write, "q/s", g, src, ts, NULL);
    samples_add(s, "qps_other", r->qps_other, "q/s", g, src, ts, NULL);
    samples_add(s, "latency_avg_ms", r->lat_avg_ms, "ms", g, src, ts, NULL);
    samples_add(s, "latency_p95_ms", r->lat_p95_ms, "ms", g, src, ts, NULL);
    samples_add(s, "latency_max_ms", r->lat_max_ms, "ms", g, src, ts, NULL);
    samples_add(s, "errors_per_s", r->errors_per_s, "1/s", g, src, ts, NULL);
    json_object *wl = json_object_new_object();
    json_object_object_add(wl, "layer", json_object_new_string("workload"));
    samples_add(s, "transactions", (double)r->transactions, "count", g, src, ts, wl);
    wl = json_object_new_object();
    json_object_object_add(wl, "layer", json_object_new_string("workload"));
    samples_add(s, "measure_s", r->total_time_s, "s", g, src, ts, wl);
    if (m->after_ok)
        layers_samples(&m->layers_before, &m->layers_after, s, g);
    samples_add(s, "reconnects_per_s", r->reconnects_per_s, "1/s", g, src, ts, NULL);
    double drift = window_drift(r->intervals, r->n_intervals);
    json_object *steady = json_object_new_object();
    json_object_object_add(steady, "steady",
                           json_object_new_string(fabs(drift) <= VERDICT_DRIFT_LIMIT ? "yes" : "no"));
    samples_add(s, "steady_state_drift", drift, "ratio", g, src, ts, steady);
    if (fabs(drift) > VERDICT_DRIFT_LIMIT)
        log_warn("%s: TPS still drifts by %+.0f%% over the measure phase (not in a steady "
                 "state; a longer warmup may help)",
                 t->name, drift * 100);

    if (!m->after_ok)
        return; /* no counters after the phase: no deltas */
    struct innodb_counters d;
    innodb_counters_delta(&m->before, &m->after, &d);
    add_measured(s, "bp_read_requests", d.bp_read_requests, "count", g, NULL, ts, NULL);
    add_measured(s, "bp_reads", d.bp_reads, "count", g, NULL, ts, NULL);
    if (d.bp_read_requests > 0)
        add_measured(s, "bp_hit_ratio", 1 - d.bp_reads / d.bp_read_requests, "ratio", g, NULL, ts,
                    NULL);
    if (e->cfg->compression == COMP_ROW_ZLIB) {
        add_measured(s, "cmp_compress_ops", d.cmp_compress_ops, "count", g, NULL, ts, NULL);
        add_measured(s, "cmp_compress_ops_ok", d.cmp_compress_ops_ok, "count", g, NULL, ts, NULL);
        add_measured(s, "cmp_compress_time_s", d.cmp_compress_time, "s", g, NULL, ts, NULL);
        add_measured(s, "cmp_uncompress_ops", d.cmp_uncompress_ops, "count", g, NULL, ts, NULL);
        add_measured(s, "cmp_uncompress_time_s", d.cmp_uncompress_time, "s", g, NULL, ts, NULL);
    } else if (e->cfg->compression != COMP_NONE) {
        add_measured(s, "page_compression_saved_bytes", d.page_compression_saved, "bytes", g, NULL,
                    ts, NULL);
        add_measured(s, "pages_page_compressed", d.pages_page_compressed, "count", g, NULL, ts, NULL);
        add_measured(s, "pages_page_decompressed", d.pages_page_decompressed, "count", g, NULL, ts,
                    NULL);
    }
}

static int measure(struct experiment *e, struct measured *m)
{
    int rc = each(e, m, counters_before, false);
    if (rc == 0) {
        residency(e, "before");
        struct cpu_times h0, h1;
        bool host_ok = e->host_local && noise_read_host(&h0) == 0;
        double run0 = run_cpu_s(e);
        double cpu0 = noise_cpu_self_s();
        rc = each(e, m, measure_one, true);
        e->cpu_measure_s = noise_cpu_self_s() - cpu0;
        double run1 = run_cpu_s(e);
        host_ok = host_ok && noise_read_host(&h1) == 0;
        samples_add(e->samples, "vbed_cpu_s", e->cpu_measure_s, "s", 0, NULL, 0, NULL);
        residency(e, "after");
        /* also when a target failed: the others' counters are still theirs */
        if (!signals_interrupted() && each(e, m, counters_after, false) < 0)
            rc = -1;
        noise_samples(e, m, host_ok, &h0, &h1, run0, run1);
    }

    struct window_guest *wg = xcalloc(e->n, sizeof(*wg));
    size_t parsed = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (!m[i].parsed)
            continue;
        /* a target that measured keeps its figures, whatever happened to
         * the others (the run's status in meta.json says it failed) */
        report_samples(e, &e->t[i], &m[i]);
        interval_samples(e, &e->t[i], m[i].report.intervals, NULL, m[i].report.n_intervals,
                         "measure", e->t[i].started, 0);
        wg[parsed++] = (struct window_guest){e->t[i].started, m[i].report.intervals,
                                             m[i].report.n_intervals};
    }
    if (rc == 0 && parsed == e->n) {
        struct window_result w;
        if (window_common(wg, parsed, (double)e->cfg->report_interval, (double)e->cfg->duration, &w) < 0)
            rc = fail(e, "a target reported no TPS inside the common measure window (%.1f s long, "
                         "start skew %.2f s)", w.window_s, w.skew_s);
        e->tps_arm = w.tps_sum;
        samples_add(e->samples, "tps_arm", w.tps_sum, "tx/s", 0, NULL, 0, NULL);
        samples_add(e->samples, "measure_window_s", w.window_s, "s", 0, NULL, 0, NULL);
        samples_add(e->samples, "measure_start_skew_s", w.skew_s, "s", 0, NULL, 0, NULL);
        log_info("measured %.1f tx/s over a common window of %.1f s (start skew %.3f s)", w.tps_sum,
                 w.window_s, w.skew_s);
    }
    free(wg);
    return rc;
}

static int collect_one(struct job *j)
{
    const char *log = j->t->host ? j->t->host->errlog : "/var/log/mysql/error.log";
    target_fetch(j->t, log, "mysqld.err");
    return 0;
}

int experiment_run(struct experiment *e)
{
    e->host_memory = e->host_local ? ws_host_memory() : -1;
    if (e->host_memory > 0)
        samples_add(e->samples, "host_memory_bytes", (double)e->host_memory, "bytes", 0,
                    "/proc/meminfo", 0, NULL);
    struct measured *m = xcalloc(e->n, sizeof(*m));
    e->phase = "prepare";
    log_info("prepare: %lld table%s of %lld rows in %zu target%s", e->cfg->tables,
             e->cfg->tables == 1 ? "" : "s", e->cfg->table_size, e->n, e->n == 1 ? "" : "s");
    int rc = each(e, m, prepare_one, false);
    if (rc == 0 && e->cfg->drop_caches && hostcache_drop() < 0)
        rc = fail(e, "cannot drop the host's page cache");
    e->phase = "warm-up";
    if (rc == 0)
        rc = warmup(e, m);
    if (rc == 0) {
        e->phase = "measure";
        log_info("measure: %llds in %zu target%s at once", e->cfg->duration, e->n, e->n == 1 ? "" : "s");
        rc = measure(e, m);
    }
    each(e, NULL, collect_one, false);
    for (size_t i = 0; i < e->n; i++) {
        sysbench_report_free(&m[i].report);
        sysbench_report_free(&m[i].slice);
        free(m[i].warm);
        free(m[i].warm_slice);
    }
    free(m);
    return rc;
}
