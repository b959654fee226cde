/* experiment.c: prepare, warm-up, measure, collect (see experiment.h). */
#include "experiment.h"
#include "xalloc.h"

#include "hostcache.h"
#include "innodb.h"
#include "log.h"
#include "signals.h"
#include "window.h"
#include "workload.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* per-target state of the measure phase */
struct measured {
    struct innodb_counters before, after;
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
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->error, sizeof(e->error), fmt, ap);
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

static int prepare_one(struct job *j)
{
    struct sql_result r = {0};
    if (sql_query(j->t->sql, "CREATE DATABASE IF NOT EXISTS sbtest", &r) < 0)
        return fail(j->e, "cannot create database sbtest in %s", j->t->name);
    sql_result_free(&r);
    if (sysbench(j, WORKLOAD_PREPARE, 0, "sysbench-prepare.out", j->e->cfg->timeout_prepare, 200) < 0)
        return -1;
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

static void interval_samples(struct job *j, const struct sysbench_report *rep, const char *phase,
                             double start, double offset)
{
    for (size_t i = 0; i < rep->n_intervals; i++) {
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "phase", json_object_new_string(phase));
        json_object_object_add(extra, "t", json_object_new_double(rep->intervals[i].t + offset));
        samples_add(j->e->samples, "tps_interval", rep->intervals[i].tps, "tx/s", j->t->guest,
                    j->t->out_path, start + rep->intervals[i].t, extra);
    }
}

static long grace(long long seconds) { return (long)(seconds / 2 > 120 ? seconds / 2 : 120); }

static int warmup_one(struct job *j)
{
    long long w = j->e->cfg->warmup;
    if (sysbench(j, WORKLOAD_RUN, w, "sysbench-warmup.out", (long)w + grace(w), (long)w * 1000) < 0)
        return -1;
    char *text = target_output(j->t);
    struct sysbench_report rep;
    char err[256];
    if (text) {
        sysbench_parse(text, &rep, err, sizeof(err)); /* only the intervals matter here */
        interval_samples(j, &rep, "warmup", j->t->started, -(double)w);
        sysbench_report_free(&rep);
    }
    free(text);
    return 0;
}

/* ---- measure ---- */

static int counters_before(struct job *j)
{
    if (innodb_counters(j->t->sql, &j->m->before) < 0)
        return fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
    return 0;
}

static int counters_after(struct job *j)
{
    if (innodb_counters(j->t->sql, &j->m->after) < 0)
        return fail(j->e, "cannot read InnoDB's counters in %s", j->t->name);
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

static void residency(struct experiment *e, const char *when)
{
    for (size_t i = 0; i < e->n; i++) {
        if (!e->t[i].data_file[0])
            continue;
        long long bytes = hostcache_resident(e->t[i].data_file);
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

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
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
    samples_add(s, "reconnects_per_s", r->reconnects_per_s, "1/s", g, src, ts, NULL);
    double drift = window_drift(r->intervals, r->n_intervals);
    samples_add(s, "steady_state_drift", drift, "ratio", g, src, ts, NULL);
    if (drift > 0.1 || drift < -0.1)
        log_warn("%s: TPS still drifts by %+.0f%% over the measure phase (not in a steady "
                 "state; a longer warmup may help)",
                 t->name, drift * 100);

    struct innodb_counters d;
    innodb_counters_delta(&m->before, &m->after, &d);
    samples_add(s, "bp_read_requests", d.bp_read_requests, "count", g, NULL, ts, NULL);
    samples_add(s, "bp_reads", d.bp_reads, "count", g, NULL, ts, NULL);
    if (d.bp_read_requests > 0)
        samples_add(s, "bp_hit_ratio", 1 - d.bp_reads / d.bp_read_requests, "ratio", g, NULL, ts,
                    NULL);
    if (e->cfg->compression == COMP_ROW_ZLIB) {
        samples_add(s, "cmp_compress_ops", d.cmp_compress_ops, "count", g, NULL, ts, NULL);
        samples_add(s, "cmp_compress_ops_ok", d.cmp_compress_ops_ok, "count", g, NULL, ts, NULL);
        samples_add(s, "cmp_compress_time_s", d.cmp_compress_time, "s", g, NULL, ts, NULL);
        samples_add(s, "cmp_uncompress_ops", d.cmp_uncompress_ops, "count", g, NULL, ts, NULL);
        samples_add(s, "cmp_uncompress_time_s", d.cmp_uncompress_time, "s", g, NULL, ts, NULL);
    } else if (e->cfg->compression != COMP_NONE) {
        samples_add(s, "page_compression_saved_bytes", d.page_compression_saved, "bytes", g, NULL,
                    ts, NULL);
        samples_add(s, "pages_page_compressed", d.pages_page_compressed, "count", g, NULL, ts, NULL);
        samples_add(s, "pages_page_decompressed", d.pages_page_decompressed, "count", g, NULL, ts,
                    NULL);
    }
}

static int measure(struct experiment *e)
{
    struct measured *m = xcalloc(e->n, sizeof(*m));
    int rc = each(e, m, counters_before, false);
    if (rc == 0) {
        residency(e, "before");
        double cpu0 = cpu_seconds();
        rc = each(e, m, measure_one, true);
        e->cpu_measure_s = cpu_seconds() - cpu0;
        samples_add(e->samples, "vbed_cpu_s", e->cpu_measure_s, "s", 0, NULL, 0, NULL);
        residency(e, "after");
    }
    if (rc == 0)
        rc = each(e, m, counters_after, false);

    struct window_guest *wg = xcalloc(e->n, sizeof(*wg));
    size_t parsed = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (!m[i].parsed)
            continue;
        if (rc == 0)
            report_samples(e, &e->t[i], &m[i]);
        interval_samples(&(struct job){.e = e, .t = &e->t[i]}, &m[i].report, "measure",
                         e->t[i].started, 0);
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
    for (size_t i = 0; i < e->n; i++)
        sysbench_report_free(&m[i].report);
    free(m);
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
    log_info("prepare: %lld table%s of %lld rows in %zu target%s", e->cfg->tables,
             e->cfg->tables == 1 ? "" : "s", e->cfg->table_size, e->n, e->n == 1 ? "" : "s");
    int rc = each(e, NULL, prepare_one, false);
    if (rc == 0 && e->cfg->drop_caches && hostcache_drop() < 0)
        rc = fail(e, "cannot drop the host's page cache");
    if (rc == 0 && e->cfg->warmup > 0) {
        log_info("warm-up: %llds", e->cfg->warmup);
        rc = each(e, NULL, warmup_one, false);
    }
    if (rc == 0) {
        log_info("measure: %llds in %zu target%s at once", e->cfg->duration, e->n, e->n == 1 ? "" : "s");
        rc = measure(e);
    }
    each(e, NULL, collect_one, false);
    return rc;
}
