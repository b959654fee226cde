/* experiment.c: a run's phases on its targets (see experiment.h): the
 * machinery they share (phase.h), prepare, measure and collect; the warm-up
 * is in warmup.c, what a measure phase records in measured.c. */
#include "experiment/experiment.h"
#include "experiment/phase.h"
#include "util/xalloc.h"

#include "hostside/hostcache.h"
#include "hostside/hostside.h"
#include "targets/innodb.h"
#include "probes/layers.h"
#include "util/log.h"
#include "hostside/noise.h"
#include "util/signals.h"
#include "experiment/window.h"
#include "scenario/workingset.h"
#include "workloads/sysbench.h"
#include "workloads/workload.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

int phase_fail(struct experiment *e, const char *fmt, ...)
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

int phase_each(struct experiment *e, struct measured *m, int (*fn)(struct job *), bool barrier)
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
        rc = phase_fail(e, "interrupted by %s", signals_name());
    return rc;
}

/* workload_cmdline refused the target's paths */
static int cmdline_too_long(struct job *j)
{
    return phase_fail(j->e, "sysbench's command line in %s does not fit: its script path (%zu bytes) "
                            "or socket path (%zu bytes) is too long",
                      j->t->name, strlen(j->t->lua), strlen(j->t->socket));
}

int phase_sysbench(struct job *j, enum workload_cmd cmd, long long seconds, const char *out,
                    long timeout, long first_ms)
{
    struct workload_cmdline c;
    if (workload_cmdline(&c, j->e->cfg, cmd, seconds, j->t->lua, j->t->socket) < 0)
        return cmdline_too_long(j);
    int exitcode = -1;
    if (target_start(j->t, c.argv, c.env, out) < 0 ||
        target_wait(j->t, timeout, first_ms, &exitcode) < 0)
        return phase_fail(j->e, "sysbench %s did not complete in %s", cmd == WORKLOAD_RUN ? "run" : "prepare",
                    j->t->name);
    if (exitcode != 0)
        return phase_fail(j->e, "sysbench %s failed in %s (exit %d); see %s",
                    cmd == WORKLOAD_RUN ? "run" : "prepare", j->t->name, exitcode, j->t->out_path);
    return 0;
}

void phase_intervals(struct experiment *e, const struct target *t,
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

long phase_grace(long long seconds) { return (long)(seconds / 2 > 120 ? seconds / 2 : 120); }

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
    long long host_mem = j->t->host_memory;
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

int phase_sysbench_prepare(struct job *j)
{
    struct sql_result r = {0};
    if (sql_query(j->t->sql, "CREATE DATABASE IF NOT EXISTS sbtest", &r) < 0)
        return phase_fail(j->e, "cannot create database sbtest in %s", j->t->name);
    sql_result_free(&r);
    if (phase_sysbench(j, WORKLOAD_PREPARE, 0, "sysbench-prepare.out", j->e->cfg->timeout_prepare, 200) < 0)
        return -1;
    working_set(j);
    if (j->e->cfg->compression == COMP_NONE)
        return 0;

    struct innodb_compression c;
    if (innodb_check_compression(j->t->sql, j->e->cfg, &c) < 0)
        return phase_fail(j->e, "cannot check the compression of the tables in %s", j->t->name);
    const char *src = j->t->out_path;
    struct samples *s = j->e->samples;
    samples_add(s, "table_bytes_allocated", (double)c.allocated, "bytes", j->t->guest, src, 0, NULL);
    samples_add(s, "table_bytes_logical", (double)c.logical, "bytes", j->t->guest, src, 0, NULL);
    samples_add(s, "compression_ratio", c.ratio, "ratio", j->t->guest, src, 0, NULL);
    if (j->e->cfg->compression == COMP_PAGE_LZ4)
        samples_add(s, "provider_lz4_loaded", c.provider_lz4, "bool", j->t->guest, src, 0, NULL);
    if (!c.took_effect)
        return phase_fail(j->e, "compression %s did not take effect in %s: %s",
                    key_choice("compression", j->e->cfg->compression), j->t->name, c.problem);
    log_info("%s: compression %s took effect: ratio %.2f (%lld bytes on disk for %lld uncompressed)",
             j->t->name, key_choice("compression", j->e->cfg->compression), c.ratio, c.allocated,
             c.logical);
    return 0;
}

/* ---- measure ---- */

/* The host layer of a target: the block device under its data on its own
 * host -- read here for this machine, through `vbed host diskstats` for an
 * ssh host, absent for a host without a shell transport. */
static void layers_host_of(struct target *t, struct layer_snapshot *s)
{
    const char *path = t->host ? t->host->datadir : t->data_file[0] ? t->data_file : NULL;
    if (target_is_local(t)) {
        layers_host(path, s);
        return;
    }
    unsigned ma, mi;
    char *text = NULL;
    struct diskstat d;
    if (path && hostside_available(t->hs) && hostside_diskstats(t->hs, path, &ma, &mi, &text) == 0 &&
        procfs_parse_diskstats(text, NULL, ma, mi, &d) == 0)
        layers_add_diskstat(s, "host", "hostdev", &d);
    free(text);
}

/* One snapshot of every layer of a target's path (layers.h); a guest's
 * /proc/stat of it also gives its steal time (guest_cpu, guest_cpu_ok). */
static void snapshot_layers(struct job *j, struct layer_snapshot *s, struct cpu_times *guest_cpu,
                            bool *guest_cpu_ok)
{
    struct target *t = j->t;
    memset(s, 0, sizeof(*s));
    if (j->e->ops->needs_db)
        layers_innodb(t->sql, s);
    if (t->dom) {
        layers_guest(t, j->m->guest_dev, s, guest_cpu, guest_cpu_ok);
        /* the first guest says which stats this libvirt offers */
        layers_hypervisor(t->dom, "vdb", s, t == &j->e->t[0] ? j->e->hv_fields : NULL,
                          sizeof(j->e->hv_fields));
    }
    layers_host_of(t, s);
    /* the CPU that executes the workload: a guest's QEMU; the host arm's
     * mariadbd and its sysbench (on this machine vbed's only child while it
     * measures; on a remote host what arm-exec recorded) */
    double cpu = -1;
    struct hostarm_status st;
    if (!t->host)
        cpu = target_cpu_s(t);
    else if (hostarm_status(t->host, &st) == 0) {
        layers_host_arm_io(s, st.read_bytes, st.write_bytes);
        if (st.server_cpu_s >= 0)
            cpu = st.server_cpu_s + st.programs_cpu_s;
    }
    if (cpu >= 0)
        layers_set(s, "workload", "server_cpu_s", "s", false, cpu);
}

static int counters_before(struct job *j)
{
    if (j->e->ops->needs_db && innodb_counters(j->t->sql, &j->m->before) < 0)
        return phase_fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
    if (j->t->dom && layers_guest_data_dev(j->t, j->m->guest_dev, sizeof(j->m->guest_dev)) < 0)
        log_warn("%s: cannot find its data disk in the guest (/sys/block/vd*/serial); its block "
                 "counters are not recorded",
                 j->t->name);
    snapshot_layers(j, &j->m->layers_before, &j->m->guest_before, &j->m->guest_before_ok);
    return 0;
}

static int counters_after(struct job *j)
{
    snapshot_layers(j, &j->m->layers_after, &j->m->guest_after, &j->m->guest_after_ok);
    if (j->e->ops->needs_db && innodb_counters(j->t->sql, &j->m->after) < 0)
        return phase_fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
    j->m->after_ok = true;
    return 0;
}

int phase_sysbench_measure(struct job *j)
{
    long long d = j->e->cfg->duration;
    struct workload_cmdline c;
    int fits = workload_cmdline(&c, j->e->cfg, WORKLOAD_RUN, d, j->t->lua, j->t->socket);
    /* every target starts the moment the last one is ready to (a failing
     * one too: the others wait at the barrier) */
    pthread_barrier_wait(j->barrier);
    if (fits < 0)
        return cmdline_too_long(j);
    int exitcode = -1;
    if (target_start(j->t, c.argv, c.env, "sysbench-measure.out") < 0)
        return phase_fail(j->e, "cannot start sysbench in %s", j->t->name);
    /* nothing to do until it ends: vbed stays off the CPU while it measures */
    if (target_wait(j->t, (long)d + phase_grace(d), (long)d * 1000, &exitcode) < 0)
        return phase_fail(j->e, "sysbench run did not complete in %s", j->t->name);
    if (exitcode != 0)
        return phase_fail(j->e, "sysbench run failed in %s (exit %d); see %s", j->t->name, exitcode,
                    j->t->out_path);
    char *text = target_output(j->t);
    char err[256];
    int rc = 0;
    if (!text || sysbench_parse(text, &j->m->report, err, sizeof(err)) < 0)
        rc = phase_fail(j->e, "cannot read sysbench's report from %s: %s", j->t->out_path,
                  text ? err : "no output");
    else
        j->m->parsed = true;
    free(text);
    return rc;
}

static int measure(struct experiment *e, struct measured *m)
{
    int rc = phase_each(e, m, counters_before, false);
    if (rc == 0) {
        phase_residency(e, "before");
        struct host_noise *noise = xcalloc(e->n, sizeof(*noise));
        size_t n_noise = phase_noise_begin(e, noise);
        double cpu0 = noise_cpu_self_s();
        rc = phase_each(e, m, e->ops->measure, true);
        e->cpu_measure_s = noise_cpu_self_s() - cpu0;
        phase_noise_end(e, noise, n_noise);
        samples_add(e->samples, "vbed_cpu_s", e->cpu_measure_s, "s", 0, NULL, 0, NULL);
        phase_residency(e, "after");
        /* also when a target failed: the others' counters are still theirs */
        if (!signals_interrupted() && phase_each(e, m, counters_after, false) < 0)
            rc = -1;
        phase_noise_samples(e, m, noise, n_noise);
        free(noise);
    }

    return e->ops->record(e, m, rc);
}

/* sysbench-oltp: each target's report and intervals, and the arm's TPS over
 * the common window (window.h). */
int phase_sysbench_record(struct experiment *e, struct measured *m, int rc)
{
    struct window_guest *wg = xcalloc(e->n, sizeof(*wg));
    size_t parsed = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (!m[i].parsed)
            continue;
        /* a target that measured keeps its figures, whatever happened to
         * the others (the run's status in meta.json says it failed) */
        phase_report_samples(e, &e->t[i], &m[i]);
        phase_intervals(e, &e->t[i], m[i].report.intervals, NULL, m[i].report.n_intervals,
                         "measure", e->t[i].started, 0);
        wg[parsed++] = (struct window_guest){e->t[i].started, m[i].report.intervals,
                                             m[i].report.n_intervals};
    }
    if (rc == 0 && parsed == e->n) {
        struct window_result w;
        if (window_common(wg, parsed, (double)e->cfg->report_interval, (double)e->cfg->duration, &w) < 0)
            rc = phase_fail(e, "a target reported no TPS inside the common measure window (%.1f s long, "
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

bool phase_first_of_host(const struct experiment *e, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (e->t[k].hs == e->t[i].hs)
            return false;
    return true;
}

json_object *phase_host_label(const struct target *t, json_object *extra)
{
    if (!extra)
        extra = json_object_new_object();
    if (t->host_label[0])
        json_object_object_add(extra, "host", json_object_new_string(t->host_label));
    return extra;
}

/* MemTotal of every target's host (the working set's "fits"), a sample per host */
static void host_memory(struct experiment *e)
{
    for (size_t i = 0; i < e->n; i++) {
        e->t[i].host_memory = -1;
        if (!phase_first_of_host(e, i)) {
            for (size_t k = 0; k < i; k++)
                if (e->t[k].hs == e->t[i].hs)
                    e->t[i].host_memory = e->t[k].host_memory;
            continue;
        }
        long long total, cached, dirty;
        if (e->t[i].hs ? !hostside_available(e->t[i].hs) ||
                             hostside_meminfo(e->t[i].hs, &total, &cached, &dirty) < 0
                       : (total = ws_host_memory()) < 0)
            continue;
        e->t[i].host_memory = total;
        samples_add(e->samples, "host_memory_bytes", (double)total, "bytes", 0, "/proc/meminfo", 0,
                    e->t[i].host_label[0] ? phase_host_label(&e->t[i], NULL) : NULL);
    }
}

/* drop_caches: on every host of the run's targets that can */
static int drop_caches(struct experiment *e)
{
    for (size_t i = 0; i < e->n; i++) {
        if (!phase_first_of_host(e, i))
            continue;
        struct hostside *hs = e->t[i].hs;
        if (hs && !hostside_available(hs)) {
            log_warn("drop_caches: host '%s' has no shell transport: its page cache was not dropped",
                     e->t[i].host_label);
            continue;
        }
        if (hs ? hostside_drop_caches(hs) < 0 : hostcache_drop() < 0)
            return phase_fail(e, "cannot drop the page cache of host %s",
                              e->t[i].host_label[0] ? e->t[i].host_label : "here");
    }
    return 0;
}

int experiment_run(struct experiment *e)
{
    if (!e->ops)
        e->ops = workload_ops_for(e->cfg->workload);
    const struct workload_ops *ops = e->ops;
    host_memory(e);
    struct measured *m = xcalloc(e->n, sizeof(*m));
    e->phase = "prepare";
    if (ops->needs_db)
        log_info("prepare: %lld table%s of %lld rows in %zu target%s", e->cfg->tables,
                 e->cfg->tables == 1 ? "" : "s", e->cfg->table_size, e->n, e->n == 1 ? "" : "s");
    else
        log_info("prepare: %s in %zu target%s", ops->name, e->n, e->n == 1 ? "" : "s");
    int rc = phase_each(e, m, ops->prepare, false);
    if (rc == 0 && e->cfg->drop_caches)
        rc = drop_caches(e);
    e->phase = "warm-up";
    if (rc == 0 && ops->warmup)
        rc = ops->warmup(e, m);
    if (rc == 0) {
        e->phase = "measure";
        if (ops->needs_db)
            log_info("measure: %llds in %zu target%s at once", e->cfg->duration, e->n,
                     e->n == 1 ? "" : "s");
        else
            log_info("measure: %s in %zu target%s at once", ops->name, e->n, e->n == 1 ? "" : "s");
        rc = measure(e, m);
    }
    phase_each(e, NULL, collect_one, false);
    for (size_t i = 0; i < e->n; i++) {
        sysbench_report_free(&m[i].report);
        sysbench_report_free(&m[i].slice);
        free(m[i].warm);
        free(m[i].warm_slice);
        if (ops->free_state)
            ops->free_state(&m[i]);
    }
    free(m);
    return rc;
}
