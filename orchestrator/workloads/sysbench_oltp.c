/* sysbench_oltp.c: sysbench OLTP (oltp_read_only, oltp_read_write,
 * oltp_write_only, oltp_point_select) as a workload (see workload.h):
 *
 *   prepare   the memory the target leaves InnoDB, measured
 *             (targets/bufferpool.h: memory_overhead_bytes), and with
 *             buffer_pool = auto the pool set to it; CREATE DATABASE
 *             sbtest; sysbench prepare (compressed tables through
 *             vbed_oltp.lua); compression checked (fails loudly), then
 *             where the data fits in the pool it got
 *             (scenario/workingset.h): working_set_bytes
 *   warm-up   warmup = auto: sysbench in VERDICT_SLICE_S slices in every
 *             target at once until each one's TPS is steady by the rule of
 *             steady.h, at most warmup_max; a fixed warm-up is one slice of
 *             its length. Either way warmup_s per target says what it
 *             needed, and its intervals are kept as phase=warmup
 *   measure   sysbench run for `duration` (auto: as long as the warm-up's
 *             last intervals say the arm's TPS needs for a 95 % CI within
 *             ci_target, window.h), started in every target at the same
 *             moment; its report parsed
 *   record    each target's report, its intervals and whether it was
 *             steady (its drift against its own CI); the arm's TPS over the
 *             common window (window.h) and the 95 % CI half-width it
 *             reached (batch means); then, the counters all read, what a
 *             buffer-pool miss costs each target (misscost.h)
 *
 * The command lines and the parser are sysbench.c's. */
#include "workloads/workload.h"

#include "results/steadyrule.h"
#include "results/verdicts.h"
#include "scenario/workingset.h"
#include "targets/bufferpool.h"
#include "targets/innodb.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/xalloc.h"
#include "workloads/guestspeed.h"
#include "workloads/misscost.h"
#include "workloads/readcost.h"
#include "workloads/prepared.h"
#include "workloads/pscost.h"
#include "workloads/steady.h"
#include "workloads/sysbench.h"
#include "workloads/window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* per target */
struct oltp {
    /* warm-up: the slice just run, and every slice's intervals so far */
    struct sysbench_report slice;
    struct sysbench_interval *warm;
    int *warm_slice; /* the slice (1-based) of each */
    size_t n_warm;
    int slices;
    /* measure */
    struct sysbench_report report;
    bool parsed;
    bool fits_pool; /* its data fits its buffer pool (working_set): no miss to price */
};

static struct oltp *oltp_of(struct wl_job *j)
{
    if (!j->state)
        j->state = xcalloc(1, sizeof(struct oltp));
    return j->state;
}

static void free_state(struct wl_job *j)
{
    struct oltp *o = j->state;
    if (!o)
        return;
    sysbench_report_free(&o->slice);
    sysbench_report_free(&o->report);
    free(o->warm);
    free(o->warm_slice);
    free(o);
    j->state = NULL;
}

/* duration = auto measures at least this long */
#define DURATION_AUTO_MIN_S 30.0

/* The time a sysbench run of `seconds` may overrun before it is given up. */
static long grace(long long seconds) { return (long)(seconds / 2 > 120 ? seconds / 2 : 120); }

/* workload_cmdline refused the target's paths */
static int cmdline_too_long(struct wl_job *j)
{
    return wl_fail(j, "sysbench's command line in %s does not fit: its script path (%zu bytes) "
                      "or socket path (%zu bytes) is too long",
                   j->t->name, strlen(j->t->lua), strlen(j->t->socket));
}

/* sysbench with settings cfg on one target, its output in t->out_path; -1
 * said why. */
static int run_sysbench_as(struct wl_job *j, const struct run_config *cfg, enum workload_cmd cmd,
                           long long seconds, const char *out, long timeout, long first_ms)
{
    struct workload_cmdline c;
    const char *what = cmd == WORKLOAD_RUN ? "sysbench run" : "sysbench prepare";
    if (workload_cmdline(&c, cfg, cmd, seconds, j->t->lua, j->t->socket) < 0)
        return cmdline_too_long(j);
    return wl_run_program(j, c.argv, c.env, out, timeout, first_ms, what);
}

static int run_sysbench(struct wl_job *j, enum workload_cmd cmd, long long seconds, const char *out,
                        long timeout, long first_ms)
{
    return run_sysbench_as(j, j->cfg, cmd, seconds, out, timeout, first_ms);
}

/* tps_interval samples of a phase (slice: each interval's warm-up slice, or NULL). */
static void intervals(struct wl_job *j, const struct sysbench_interval *iv, const int *slice, size_t n,
                      const char *phase, double start, double offset)
{
    for (size_t i = 0; i < n; i++) {
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "phase", json_object_new_string(phase));
        json_object_object_add(extra, "t", json_object_new_double(iv[i].t + offset));
        if (slice)
            json_object_object_add(extra, "slice", json_object_new_int(slice[i]));
        samples_add(j->samples, "tps_interval", iv[i].tps, "tx/s", j->t->guest, j->t->out_path,
                    start + iv[i].t, extra);
    }
}

/* ---- prepare ---- */

/* Where the data just prepared fits (workingset.h), as samples and a line
 * in the log; a warning when it never leaves the buffer pool. */
static void working_set(struct wl_job *j)
{
    /* the pool it got (buffer_pool = auto: what the prepare set) */
    struct run_config got = *j->cfg;
    long long pool = bufferpool_size(j->t);
    bool pool_auto = got.buffer_pool < 0;
    if (pool > 0)
        got.buffer_pool = pool;
    const struct run_config *cfg = &got;
    double pool_bytes = pool > 0 ? (double)pool : (double)ws_buffer_pool(cfg);
    int kind = j->t->arm_kind;
    long long bytes;
    bool estimate = innodb_data_bytes(j->t->sql, j->cfg, &bytes) < 0;
    if (estimate)
        bytes = ws_estimate_bytes(cfg);
    long long host_mem = j->t->host_memory;
    enum ws_fit fit = ws_classify(cfg, kind, bytes, host_mem);
    oltp_of(j)->fits_pool = fit == WS_BUFFER_POOL;
    json_object *extra = json_object_new_object();
    json_object_object_add(extra, "fits", json_object_new_string(ws_fit_name(fit)));
    json_object_object_add(extra, "basis", json_object_new_string(estimate ? "estimate" : "pool_frames"));
    struct samples *s = j->samples;
    int g = j->t->guest;
    samples_add(s, "working_set_bytes", (double)bytes, "bytes", g, j->t->out_path, 0, extra);
    samples_add(s, "buffer_pool_bytes", pool_bytes, "bytes", g, NULL, 0, NULL);
    if (kind == ARM_GUEST)
        samples_add(s, "guest_memory_bytes", (double)cfg->memory, "bytes", g, NULL, 0, NULL);
    char text[512];
    ws_describe_pool(cfg, kind, bytes, estimate, host_mem, pool_auto, text, sizeof(text));
    if (j->run->prepare_only)
        return;
    if (fit == WS_BUFFER_POOL && !pool_auto)
        log_warn("%s: %s", j->t->name, text);
    else
        log_info("%s: %s", j->t->name, text);
}

/* The memory the target leaves InnoDB (every target states it: a tuned
 * arm's prediction uses the untuned guest's); buffer_pool = auto sets the
 * pool to it. -1 after wl_fail. */
static int memory_for_pool(struct wl_job *j)
{
    struct ws_pool m;
    char why[256];
    struct samples *s = j->samples;
    int g = j->t->guest;
    bool measured = bufferpool_measure(j->t, j->cfg, &m, why, sizeof(why)) == 0;
    if (measured)
        samples_add(s, "memory_overhead_bytes", (double)m.overhead, "bytes", g, NULL, 0, NULL);
    if (j->cfg->buffer_pool >= 0)
        return 0;
    if (!measured)
        return wl_fail(j, "buffer_pool = auto: cannot measure the memory %s leaves InnoDB: %s",
                       j->t->name, why);
    long long got;
    if (bufferpool_resize(j->t, m.pool, j->cfg->timeout_db, &got) < 0)
        return wl_fail(j, "buffer_pool = auto: cannot set %s's buffer pool to %lld MiB", j->t->name,
                       m.pool >> 20);
    samples_add(s, "buffer_pool_auto_bytes", (double)got, "bytes", g, NULL, 0, NULL);
    samples_add(s, "buffer_pool_auto_sysbench_bytes", (double)m.sysbench, "bytes", g, NULL, 0, NULL);
    samples_add(s, "buffer_pool_auto_margin_bytes", (double)m.margin, "bytes", g, NULL, 0, NULL);
    log_info("%s: buffer_pool = auto: %lld MiB = %lld MiB memory - %lld MiB resident outside the pool "
             "(measured) - %lld MiB sysbench - %lld MiB margin%s",
             j->t->name, got >> 20, m.memory >> 20, m.overhead >> 20, m.sysbench >> 20, m.margin >> 20,
             got != m.pool ? " (InnoDB rounded it)" : "");
    return 0;
}

/* The tables from a copy another guest left (prepared.h): sysbench makes
 * them empty, the copy's files fill them. 1 copied; 0 there was none, or
 * the copy failed and sbtest is empty again (said why); -1 after wl_fail
 * (sysbench could not make the tables: loading would fail as well). */
static int copy_tables(struct wl_job *j, struct prepared_server *ps)
{
    char why[512];
    if (prepared_find(j, ps, why, sizeof(why)) != 0) {
        log_info("%s: loads its tables: %s", j->t->name, why);
        return 0;
    }
    struct run_config empty = *j->cfg;
    empty.table_size = 0;
    if (run_sysbench_as(j, &empty, WORKLOAD_PREPARE, 0, "sysbench-prepare.out",
                        j->cfg->timeout_prepare, 200) < 0)
        return -1;
    if (prepared_import(j, ps, why, sizeof(why)) == 0) {
        snprintf(j->t->prepared_from, sizeof(j->t->prepared_from), "%s", ps->from);
        return 1;
    }
    log_warn("%s: the copy of its tables failed (%s); it loads them", j->t->name, why);
    struct sql_result r = {0};
    const char *again[] = {"DROP DATABASE IF EXISTS sbtest", "CREATE DATABASE sbtest", NULL};
    int rc = sql_run(j->t->sql, again, &r);
    sql_result_free(&r);
    return rc < 0 ? wl_fail(j, "cannot empty database sbtest in %s after a failed copy", j->t->name) : 0;
}

static int prepare(struct wl_job *j)
{
    struct sql_result r = {0};
    if (memory_for_pool(j) < 0)
        return -1;
    if (sql_query(j->t->sql, "CREATE DATABASE IF NOT EXISTS sbtest", &r) < 0)
        return wl_fail(j, "cannot create database sbtest in %s", j->t->name);
    sql_result_free(&r);
    double t0 = monotime_s();
    struct prepared_server ps = {0};
    int copied = copy_tables(j, &ps);
    if (copied < 0)
        return -1;
    if (!copied &&
        run_sysbench(j, WORKLOAD_PREPARE, 0, "sysbench-prepare.out", j->cfg->timeout_prepare, 200) < 0)
        return -1;
    double took = monotime_s() - t0;
    json_object *how = json_object_new_object();
    json_object_object_add(how, "prepare", json_object_new_string(copied ? "copied" : "loaded"));
    samples_add(j->samples, "prepare_s", took, "s", j->t->guest, NULL, 0, how);
    j->t->prepared = copied ? "copied" : "loaded";
    j->t->prepare_s = took;
    log_info("%s: tables %s in %.1f s", j->t->name, copied ? "copied" : "loaded", took);
    working_set(j);
    if (j->cfg->compression == COMP_NONE) {
        if (!copied)
            prepared_save(j, &ps, took);
        return 0;
    }

    /* copied tables are the prepared copy's files: their uncompressed
     * size as measured where they were loaded (no table copy here) */
    struct innodb_compression c;
    if (innodb_check_compression(j->t->sql, j->cfg, copied ? ps.uncompressed : 0, &c) < 0)
        return wl_fail(j, "cannot check the compression of the tables in %s", j->t->name);
    const char *src = j->t->out_path;
    struct samples *s = j->samples;
    samples_add(s, "table_bytes_allocated", (double)c.allocated, "bytes", j->t->guest, src, 0, NULL);
    json_object *whence = json_object_new_object();
    json_object_object_add(whence, "measured",
                           json_object_new_string(c.logical_recorded ? "prepared copy" : "here"));
    samples_add(s, "table_bytes_logical", (double)c.logical, "bytes", j->t->guest, src, 0, whence);
    samples_add(s, "compression_ratio", c.ratio, "ratio", j->t->guest, src, 0, NULL);
    if (isfinite(c.compress_ok_share)) /* the server's figure, all its tables */
        samples_add(s, "cmp_compress_ok_share", c.compress_ok_share, "ratio", j->t->guest, src, 0, NULL);
    if (j->cfg->compression == COMP_PAGE_LZ4)
        samples_add(s, "provider_lz4_loaded", c.provider_lz4, "bool", j->t->guest, src, 0, NULL);
    if (!c.took_effect)
        return wl_fail(j, "compression %s did not take effect in %s: %s",
                       key_choice("compression", j->cfg->compression), j->t->name, c.problem);
    log_info("%s: compression %s took effect: ratio %.2f by %s (%lld bytes for %lld uncompressed%s)",
             j->t->name, key_choice("compression", j->cfg->compression), c.ratio, c.basis, c.allocated,
             c.logical, c.logical_recorded ? ", the reference measured where the tables were loaded" : "");
    if (!copied) {
        ps.uncompressed = c.logical;
        prepared_save(j, &ps, took);
    } else if (!c.logical_recorded) {
        prepared_note_uncompressed(j, &ps, c.logical);
    }
    return 0;
}

/* ---- warm-up ---- */

/* One warm-up run of `seconds` in a target: its intervals appended to the
 * target's warm-up series (t counted from the warm-up's start). */
static int warm_slice(struct wl_job *j, long long seconds, const char *out)
{
    struct oltp *o = oltp_of(j);
    sysbench_report_free(&o->slice);
    if (run_sysbench(j, WORKLOAD_RUN, seconds, out, (long)seconds + grace(seconds), (long)seconds * 1000) < 0)
        return -1;
    char *text = target_output(j->t);
    char err[256];
    /* only the intervals matter here; a missing final report is no error */
    if (text)
        sysbench_parse(text, &o->slice, err, sizeof(err));
    free(text);
    double base = (double)o->slices * VERDICT_SLICE_S; /* a fixed warm-up is one slice */
    o->warm = xrealloc(o->warm, (o->n_warm + o->slice.n_intervals + 1) * sizeof(*o->warm));
    o->warm_slice = xrealloc(o->warm_slice, (o->n_warm + o->slice.n_intervals + 1) * sizeof(int));
    for (size_t i = 0; i < o->slice.n_intervals; i++) {
        o->warm_slice[o->n_warm] = o->slices + 1;
        o->warm[o->n_warm] = o->slice.intervals[i];
        o->warm[o->n_warm++].t += base;
    }
    o->slices++;
    return 0;
}

static int warmup_fixed_one(struct wl_job *j)
{
    return warm_slice(j, j->cfg->warmup, "sysbench-warmup.out");
}

static int warmup_slice_one(struct wl_job *j)
{
    char out[64];
    snprintf(out, sizeof(out), "sysbench-warmup-%02d.out", oltp_of(j)->slices + 1);
    return warm_slice(j, VERDICT_SLICE_S, out);
}

/* The rule of warmup = auto applied to the last two slice lengths of a
 * fixed warm-up: was it steady when it ended? */
static bool fixed_warmup_steady(const struct oltp *o, const struct run_config *cfg)
{
    size_t per = (size_t)(VERDICT_SLICE_S / cfg->report_interval);
    if (per < 3 || o->n_warm < 2 * per)
        return false;
    struct steady_tracker st;
    steady_init(&st, 1, VERDICT_SLICE_S, 1e12);
    const struct sysbench_interval *a = o->warm + o->n_warm - 2 * per, *b = o->warm + o->n_warm - per;
    steady_round(&st, &a, &per);
    steady_round(&st, &b, &per);
    bool steady = st.t[0].steady_now;
    steady_free(&st);
    return steady;
}

static void warmup_record(struct wl_run *r, double total_s, const struct steady_tracker *st, bool is_auto)
{
    samples_add(r->jobs[0].samples, "warmup_total_s", total_s, "s", 0, NULL, 0, NULL);
    for (size_t i = 0; i < r->n; i++) {
        struct wl_job *j = &r->jobs[i];
        struct oltp *o = oltp_of(j);
        /* steady: the rule held in the last slice, as the measure phase began
         * (a capped warm-up may have a target that held once and lost it) */
        bool steady = is_auto ? st->t[i].steady_now : fixed_warmup_steady(o, j->cfg);
        double needed = is_auto && steady ? st->t[i].steady_at : total_s;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "steady", json_object_new_string(steady ? "yes" : "no"));
        json_object_object_add(extra, "mode", json_object_new_string(is_auto ? "auto" : "fixed"));
        samples_add(j->samples, "warmup_s", needed, "s", j->t->guest, NULL, 0, extra);
        intervals(j, o->warm, o->warm_slice, o->n_warm, "warmup", 0, -total_s);
        if (!steady)
            log_warn("%s: TPS not shown steady after %.0f s of warm-up (rule: the drift over the "
                     "last two %d s slices within +-%.0f%% with its 95%% CI)",
                     j->t->name, total_s, VERDICT_SLICE_S, VERDICT_STEADY_EQUIV * 100);
    }
}

/* duration = auto: the measure phase's length from each target's last
 * warm-up intervals (at most two slices' worth), into r->measure_s. */
static void choose_duration(struct wl_run *r)
{
    const struct run_config *cfg = r->jobs[0].cfg;
    if (cfg->duration >= 0)
        return;
    size_t per = window_batch_len((double)cfg->report_interval);
    size_t pilot = (size_t)(2 * VERDICT_SLICE_S / (double)cfg->report_interval);
    const struct sysbench_interval **iv = xcalloc(r->n, sizeof(*iv));
    size_t *n = xcalloc(r->n, sizeof(*n));
    for (size_t i = 0; i < r->n; i++) {
        struct oltp *o = oltp_of(&r->jobs[i]);
        size_t take = o->n_warm < pilot ? o->n_warm : pilot;
        iv[i] = o->warm + (o->n_warm - take);
        n[i] = take;
    }
    double target = (double)cfg->ci_target / 100;
    r->measure_s = window_duration_for(iv, n, r->n, per, target, DURATION_AUTO_MIN_S,
                                       (double)cfg->duration_max);
    free(iv);
    free(n);
    samples_add(r->jobs[0].samples, "measure_planned_s", r->measure_s, "s", 0, NULL, 0, NULL);
    log_info("duration = auto: %.0f s to measure (the warm-up's last intervals, in %g s batches, ask "
             "that much for a 95 %% CI within %lld %% of the arm's TPS; at least %.0f s, at most "
             "%lld s)",
             r->measure_s, WINDOW_BATCH_S, cfg->ci_target, DURATION_AUTO_MIN_S, cfg->duration_max);
}

static int warmup(struct wl_run *r)
{
    const struct run_config *cfg = r->jobs[0].cfg;
    if (cfg->warmup == 0) {
        choose_duration(r); /* no pilot: duration_max */
        return 0;
    }
    if (cfg->warmup > 0) {
        log_info("warm-up: %llds", cfg->warmup);
        int rc = wl_each(r, warmup_fixed_one, false);
        if (rc == 0) {
            warmup_record(r, (double)cfg->warmup, NULL, false);
            choose_duration(r);
        }
        return rc;
    }
    log_info("warm-up: until every target's TPS is steady (%d s slices, at most %llds)",
             VERDICT_SLICE_S, cfg->warmup_max);
    struct steady_tracker st;
    steady_init(&st, r->n, VERDICT_SLICE_S, (double)cfg->warmup_max);
    const struct sysbench_interval **iv = xcalloc(r->n, sizeof(*iv));
    size_t *count = xcalloc(r->n, sizeof(*count));
    int rc;
    enum steady_next next = STEADY_CONTINUE;
    while ((rc = wl_each(r, warmup_slice_one, false)) == 0) {
        for (size_t i = 0; i < r->n; i++) {
            struct oltp *o = oltp_of(&r->jobs[i]);
            iv[i] = o->slice.intervals;
            count[i] = o->slice.n_intervals;
        }
        next = steady_round(&st, iv, count);
        for (size_t i = 0; i < r->n; i++) {
            char drift[96] = "first slice";
            if (isfinite(st.t[i].half))
                snprintf(drift, sizeof(drift), "%.1f%% from the slice before, drift over both %+.1f%% +- %.1f%%",
                         100 * st.t[i].delta, 100 * st.t[i].drift, 100 * st.t[i].half);
            log_info("warm-up %3.0f s: %s %.1f tx/s, %s%s", st.elapsed_s, r->jobs[i].t->name,
                     steady_mean(iv[i], count[i]), drift, st.t[i].steady_now ? " (shown steady)" : "");
        }
        if (next != STEADY_CONTINUE)
            break;
    }
    if (rc == 0) {
        warmup_record(r, st.elapsed_s, &st, true);
        choose_duration(r);
    }
    free(iv);
    free(count);
    steady_free(&st);
    return rc;
}

/* ---- measure ---- */

static int measure(struct wl_job *j)
{
    struct oltp *o = oltp_of(j);
    long long d = (long long)j->run->measure_s;
    struct workload_cmdline c;
    int fits = workload_cmdline(&c, j->cfg, WORKLOAD_RUN, d, j->t->lua, j->t->socket);
    /* every target starts the moment the last one is ready to (also one
     * about to fail: the others wait for it here) */
    wl_together(j);
    if (fits < 0)
        return cmdline_too_long(j);
    int exitcode = -1;
    if (target_start(j->t, c.argv, c.env, "sysbench-measure.out") < 0)
        return wl_fail(j, "cannot start sysbench in %s", j->t->name);
    /* nothing to do until it ends: vbed stays off the CPU while it measures */
    if (target_wait(j->t, (long)d + grace(d), (long)d * 1000, &exitcode) < 0)
        return wl_fail(j, "sysbench run did not complete in %s", j->t->name);
    if (exitcode != 0)
        return wl_fail(j, "sysbench run failed in %s (exit %d); see %s", j->t->name, exitcode,
                       j->t->out_path);
    char *text = target_output(j->t);
    char err[256];
    int rc = 0;
    if (!text || sysbench_parse(text, &o->report, err, sizeof(err)) < 0)
        rc = wl_fail(j, "cannot read sysbench's report from %s: %s", j->t->out_path,
                     text ? err : "no output");
    else
        o->parsed = true;
    free(text);
    return rc;
}

/* ---- record ---- */

/* One target's report: its figures, and whether its TPS was steady. */
static void report_samples(struct wl_job *j, const struct sysbench_report *r)
{
    struct samples *s = j->samples;
    const char *src = j->t->out_path;
    int g = j->t->guest;
    double ts = j->t->started + r->total_time_s;
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
    samples_add(s, "reconnects_per_s", r->reconnects_per_s, "1/s", g, src, ts, NULL);
    /* drifted where the drift lies beyond its own 95 % CI and the floor;
     * steady only where its CI lies within +-VERDICT_STEADY_EQUIV; else
     * not shown steady (verdicts.h) */
    size_t per = window_batch_len((double)j->cfg->report_interval);
    double half;
    double drift = window_drift_ci(r->intervals, r->n_intervals, per, &half);
    const char *verdict = steady_label(drift, half);
    bool steady = strcmp(verdict, "no") != 0;
    json_object *label = json_object_new_object();
    json_object_object_add(label, "steady", json_object_new_string(verdict));
    if (!strcmp(verdict, "unshown"))
        log_info("%s: TPS drifted by %+.1f%% over the measure phase, 95%% CI +-%.1f%%: not shown steady "
                 "(that needs the CI within +-%.0f%%)",
                 j->t->name, drift * 100, isfinite(half) ? half * 100 : NAN, VERDICT_STEADY_EQUIV * 100);
    samples_add(s, "steady_state_drift", drift, "ratio", g, src, ts, label);
    if (isfinite(half))
        samples_add(s, "steady_state_drift_ci", half, "ratio", g, src, ts, NULL);
    if (!steady)
        log_warn("%s: TPS still drifts by %+.0f%% over the measure phase, beyond its own 95%% CI "
                 "(+-%.0f%%): not in a steady state; a longer warm-up may help",
                 j->t->name, drift * 100, half * 100);
    double mean, ci = window_ci_half(r->intervals, r->n_intervals, per, &mean);
    if (isfinite(ci) && mean > 0)
        samples_add(s, "tps_ci95_half_pct", 100 * ci / mean, "percent", g, src, ts, NULL);
}

/* The 95 % CI half-width of the arm's TPS (the sum of its targets'
 * means: their half-widths in quadrature) by batch means, in percent; said
 * when duration = auto could not reach ci_target. */
static void arm_ci(struct wl_run *r, const struct run_config *cfg)
{
    size_t per = window_batch_len((double)cfg->report_interval);
    double var = 0, sum = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct oltp *o = oltp_of(&r->jobs[i]);
        double mean, half = window_ci_half(o->report.intervals, o->report.n_intervals, per, &mean);
        if (!isfinite(half) || !isfinite(mean))
            return;
        var += half * half;
        sum += mean;
    }
    if (!(sum > 0))
        return;
    double pct = 100 * sqrt(var) / sum;
    samples_add(r->jobs[0].samples, "tps_arm_ci95_half_pct", pct, "percent", 0, NULL, 0, NULL);
    if (cfg->duration < 0 && pct > (double)cfg->ci_target)
        log_warn("duration = auto: the arm's TPS has a 95%% CI of +-%.1f%% after %.0f s, more than "
                 "ci_target (%lld%%)%s",
                 pct, r->measure_s, cfg->ci_target,
                 r->measure_s >= (double)cfg->duration_max ? ": duration_max cut it short" : "");
}

/* pscost.h's slice: sysbench for `seconds` with the run's settings; a
 * slice that fails is the probe's, never the run's */
static int ps_slice(struct wl_job *j, long long seconds, const char *out, double *tps)
{
    struct workload_cmdline c;
    int exitcode = -1;
    if (workload_cmdline(&c, j->cfg, WORKLOAD_RUN, seconds, j->t->lua, j->t->socket) < 0 ||
        target_start(j->t, c.argv, c.env, out) < 0 ||
        target_wait(j->t, (long)seconds + grace(seconds), (long)seconds * 1000, &exitcode) < 0 ||
        exitcode != 0)
        return -1;
    char *text = target_output(j->t);
    struct sysbench_report rep = {0};
    char err[256];
    int rc = text ? sysbench_parse(text, &rep, err, sizeof(err)) : -1;
    free(text);
    *tps = rep.tps;
    sysbench_report_free(&rep);
    return rc;
}

/* a target that measured, with post_probes: a guest times its speed job (guestspeed.h, in
 * every guest of the run at once: first), then prices a buffer-pool miss
 * (misscost.h) and, a guest, a read through its virtual disk (readcost.h);
 * last, with ps_cost = yes, performance_schema's instruments off and on
 * (pscost.h) */
static int after_measure(struct wl_job *j)
{
    struct oltp *o = oltp_of(j);
    if (!o->parsed)
        return 0;
    if (!j->cfg->post_probes)
        return pscost_probe(j, ps_slice);
    guestspeed_probe(j);
    /* where the pool holds the data, nothing misses: the probes would only
     * say n/a, a few seconds later (many tests' tiny tables) */
    if (o->fits_pool) {
        log_info("%s: its data fits its buffer pool: no miss to price (no miss-cost or read probe)",
                 j->t->name);
    } else {
        misscost_probe(j);
        readcost_probe(j);
    }
    return pscost_probe(j, ps_slice);
}

/* each target's report and intervals, and the arm's TPS over the common
 * window (window.h); then, every counter read, what a miss costs */
static int record(struct wl_run *r, int rc, double *headline)
{
    struct window_guest *wg = xcalloc(r->n, sizeof(*wg));
    size_t parsed = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct wl_job *j = &r->jobs[i];
        struct oltp *o = oltp_of(j);
        if (!o->parsed)
            continue;
        /* a target that measured keeps its figures, whatever happened to
         * the others (the run's status in meta.json says it failed) */
        report_samples(j, &o->report);
        intervals(j, o->report.intervals, NULL, o->report.n_intervals, "measure", j->t->started, 0);
        wg[parsed++] = (struct window_guest){j->t->started, o->report.intervals, o->report.n_intervals};
    }
    if (rc == 0 && parsed == r->n) {
        const struct run_config *cfg = r->jobs[0].cfg;
        struct samples *s = r->jobs[0].samples;
        struct window_result w;
        if (window_common(wg, parsed, (double)cfg->report_interval, r->measure_s, &w) < 0)
            rc = wl_run_fail(r, "a target reported no TPS inside the common measure window (%.1f s long, "
                                "start skew %.2f s)",
                             w.window_s, w.skew_s);
        *headline = w.tps_sum;
        samples_add(s, "tps_arm", w.tps_sum, "tx/s", 0, NULL, 0, NULL);
        arm_ci(r, cfg);
        samples_add(s, "measure_window_s", w.window_s, "s", 0, NULL, 0, NULL);
        samples_add(s, "measure_start_skew_s", w.skew_s, "s", 0, NULL, 0, NULL);
        log_info("measured %.1f tx/s over a common window of %.1f s (start skew %.3f s)", w.tps_sum,
                 w.window_s, w.skew_s);
    }
    free(wg);
    if (parsed)
        wl_each(r, after_measure, false);
    return rc;
}

static int parse(const char *text, double *figure, char *err, size_t errlen)
{
    struct sysbench_report r = {0};
    int rc = sysbench_parse(text, &r, err, errlen);
    if (rc == 0)
        *figure = r.tps;
    sysbench_report_free(&r);
    return rc;
}

static const struct workload_metric metrics[] = {
    {"tps", "tx/s"},           {"qps", "q/s"},          {"latency_avg_ms", "ms"},
    {"latency_p95_ms", "ms"},  {"latency_max_ms", "ms"}, {"transactions", "count"},
    {"tps_interval", "tx/s"},  {NULL, NULL},
};

static const char *const values[] = {"oltp_read_only", "oltp_read_write", "oltp_write_only",
                                     "oltp_point_select", NULL};

const struct workload_ops workload_sysbench_oltp = {
    .name = "sysbench-oltp",
    .values = values,
    .headline = "tps_arm",
    .headline_unit = "tx/s",
    .metrics = metrics,
    .needs_db = true,
    .prepare = prepare,
    .warmup = warmup,
    .measure = measure,
    .record = record,
    .free_state = free_state,
    .parse = parse,
};

WORKLOAD_REGISTER(workload_sysbench_oltp)
