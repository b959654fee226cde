/* experiment.c: a run's phases on its targets (see experiment.h): the
 * workload's prepare, warm-up and measure, framed by the hosts' caches,
 * the probes' counters and the machine's noise (measure.h). */
#include "experiment/experiment.h"

#include "experiment/measure.h"
#include "hostside/hostside.h"
#include "hostside/noise.h"
#include "hostside/speed.h"
#include "probes/probe.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/signals.h"
#include "util/xalloc.h"
#include "workloads/workload.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* MemTotal of every target's host (the working set's "fits"), a sample per host */
static void host_memory(struct experiment *e)
{
    for (size_t i = 0; i < e->n; i++) {
        e->t[i].host_memory = -1;
        if (!measure_first_of_host(e->t, i)) {
            for (size_t k = 0; k < i; k++)
                if (e->t[k].hs == e->t[i].hs)
                    e->t[i].host_memory = e->t[k].host_memory;
            continue;
        }
        long long total, cached, dirty;
        if (!e->t[i].hs || hostside_meminfo(e->t[i].hs, &total, &cached, &dirty) < 0)
            continue;
        e->t[i].host_memory = total;
        samples_add(e->samples, "host_memory_bytes", (double)total, "bytes", 0, "/proc/meminfo", 0,
                    e->t[i].host_label[0] ? measure_host_label(&e->t[i], NULL) : NULL);
    }
}

/* drop_caches: on every host of the run's targets that can */
static int drop_caches(struct experiment *e, struct wl_run *r)
{
    for (size_t i = 0; i < e->n; i++) {
        if (!measure_first_of_host(e->t, i) || !e->t[i].hs)
            continue;
        /* the host's page cache before and after, as samples: that the drop
         * dropped something is a figure, not a belief */
        long long total, before = -1, after = -1, dirty;
        if (hostside_meminfo(e->t[i].hs, &total, &before, &dirty) < 0)
            before = -1;
        /* a host without a shell transport says so itself, and is no failure */
        if (hostside_drop_caches(e->t[i].hs) == -1)
            return wl_run_fail(r, "cannot drop the page cache of host %s",
                               e->t[i].host_label[0] ? e->t[i].host_label : "here");
        if (before >= 0 && hostside_meminfo(e->t[i].hs, &total, &after, &dirty) == 0) {
            bool named = e->t[i].host_label[0];
            samples_add(e->samples, "host_cached_before_drop_bytes", (double)before, "bytes", 0,
                        "/proc/meminfo", 0, named ? measure_host_label(&e->t[i], NULL) : NULL);
            samples_add(e->samples, "host_cached_after_drop_bytes", (double)after, "bytes", 0,
                        "/proc/meminfo", 0, named ? measure_host_label(&e->t[i], NULL) : NULL);
        }
    }
    return 0;
}

/* ---- the measure phase ---- */

/* the probes of one target (the job's frame), before and after */
static int probes_before_one(struct wl_job *j)
{
    struct probe_target *pt = j->frame;
    return probes_before(pt) < 0 ? wl_fail(j, "%s", pt->why) : 0;
}

static int probes_after_one(struct wl_job *j)
{
    struct probe_target *pt = j->frame;
    return probes_after(pt) < 0 ? wl_fail(j, "%s", pt->why) : 0;
}

/* The readings inside the measure phase (probes_during): a thread per
 * target waits until its measured program started, then sleeps until
 * instant 0, a little after that start, and instant 1, a little before it
 * ends -- each EXPERIMENT_DURING after the start or before the end (at
 * least 5 s: a guest's program starts through its agent, and its threads
 * and connections need a moment) -- and reads the target's probes if its
 * program still runs. The instants count from the target's own start, not
 * from the phase's: counted from the phase's, a guest whose program had not
 * started by the first instant lost its readings without a word (CI: one
 * of quickstart's seven servers, its start 0.38 s after its neighbour's).
 * A reading not taken says why. The probes
 * that need nothing of the workload's connections (the tasks scan) read
 * instant 0 EXPERIMENT_DURING_AHEAD_S earlier (at most half the margin),
 * so that their work falls before the chain's interval without taking the
 * time out of it. The workload's own threads meanwhile wait in its
 * measure; the common start (wl_together) is theirs alone. */
#define EXPERIMENT_DURING_SHARE 0.1
#define EXPERIMENT_DURING_MIN_S 5.0
#define EXPERIMENT_DURING_AHEAD_S 2.5

struct during {
    struct probe_target *pt;
    double ahead, at[2]; /* seconds after the target's program started */
    double measure_s;
    int *stop;           /* set (atomically) when the measure phase ended */
    pthread_t th;
    bool started;
};

static bool during_over(const struct during *d)
{
    return __atomic_load_n(d->stop, __ATOMIC_ACQUIRE) || signals_interrupted();
}

static void during_nap(void)
{
    struct timespec ts = {0, 50 * 1000000L};
    nanosleep(&ts, NULL);
}

/* a reading that will not be taken, and why (not when the phase is over:
 * the target's own failure, or the interruption, says enough) */
static void during_missed(const struct during *d, const char *which, const char *why)
{
    if (!during_over(d))
        log_warn("%s: the readings during the measure phase (the chain's states, "
                 "performance_schema) stop before %s: %s",
                 d->pt->t->name, which, why);
}

/* sleep until monotonic time t; false if the phase ended or vbed is
 * interrupted first, or the target's program no longer runs */
static bool during_wait(const struct during *d, double t, const char *which)
{
    while (monotime_s() < t) {
        if (during_over(d))
            return false;
        during_nap();
    }
    if (target_program_pid(d->pt->t) > 0)
        return true;
    during_missed(d, which, "its program no longer runs");
    return false;
}

static void *during_main(void *arg)
{
    struct during *d = arg;
    /* its program's start (the pid known), at most half the phase late */
    double t0 = monotime_s();
    while (target_program_pid(d->pt->t) <= 0) {
        if (during_over(d))
            return NULL;
        if (monotime_s() - t0 > d->measure_s / 2) {
            during_missed(d, "instant 0", "its program did not run in the phase's first half");
            return NULL;
        }
        during_nap();
    }
    double base = monotime_s();
    if (base - t0 > 1)
        log_info("%s: its program started %.1f s into the measure phase: the readings count from "
                 "there",
                 d->pt->t->name, base - t0);
    if (!during_wait(d, base + d->ahead, "instant 0"))
        return NULL;
    probes_during_ahead(d->pt);
    for (int k = 0; k < 2; k++) {
        if (!during_wait(d, base + d->at[k], k ? "instant 1" : "instant 0"))
            return NULL;
        probes_during(d->pt, k);
    }
    return NULL;
}

/* One during thread per target, for a phase of measure_s seconds from now. */
static struct during *during_start(struct probe_target *pt, size_t n, double measure_s, int *stop)
{
    double margin = fmax(EXPERIMENT_DURING_MIN_S, EXPERIMENT_DURING_SHARE * measure_s);
    if (measure_s - 2 * margin < EXPERIMENT_DURING_MIN_S) {
        log_info("measure: %.0f s is too short for readings during the phase (the chain's states, "
                 "performance_schema): at least %.0f s",
                 measure_s, 3 * EXPERIMENT_DURING_MIN_S);
        return NULL;
    }
    struct during *d = xcalloc(n, sizeof(*d));
    for (size_t i = 0; i < n; i++) {
        d[i] = (struct during){.pt = &pt[i], .measure_s = measure_s,
                               .ahead = margin - fmin(EXPERIMENT_DURING_AHEAD_S, margin / 2),
                               .at = {margin, measure_s - margin}, .stop = stop};
        d[i].started = pthread_create(&d[i].th, NULL, during_main, &d[i]) == 0;
    }
    return d;
}

static void during_join(struct during *d, size_t n, int *stop)
{
    __atomic_store_n(stop, 1, __ATOMIC_RELEASE);
    for (size_t i = 0; d && i < n; i++)
        if (d[i].started)
            pthread_join(d[i].th, NULL);
    free(d);
}

static int measure(struct experiment *e, struct wl_run *r)
{
    struct probe_run probes;
    probe_run_init(&probes);
    struct probe_target *pt = xcalloc(e->n, sizeof(*pt));
    for (size_t i = 0; i < e->n; i++) {
        pt[i] = (struct probe_target){.t = &e->t[i], .cfg = e->cfg, .needs_db = e->ops->needs_db,
                                      .first = i == 0, .run = &probes};
        r->jobs[i].frame = &pt[i];
    }
    int rc = wl_each(r, probes_before_one, false);
    if (rc == 0) {
        measure_residency(e->t, e->n, e->samples, "before");
        struct host_noise *noise = xcalloc(e->n, sizeof(*noise));
        size_t n_noise = measure_noise_begin(e->t, e->n, noise);
        double cpu0 = noise_cpu_self_s();
        int stop = 0;
        struct during *during = during_start(pt, e->n, r->measure_s, &stop);
        size_t local = measure_local_target(e->t, e->n);
        struct speed_probe *speed = local < e->n ? speed_start(MEASURE_SPEED_PERIOD_S) : NULL;
        rc = wl_each(r, e->ops->measure, true);
        size_t units;
        double mem_s;
        double unit_s = speed_stop(speed, &units, &mem_s);
        during_join(during, e->n, &stop);
        /* which targets measured: their counters are written below */
        bool *measured = xcalloc(e->n, sizeof(bool));
        for (size_t i = 0; i < e->n; i++)
            measured[i] = r->jobs[i].rc == 0;
        e->cpu_measure_s = noise_cpu_self_s() - cpu0;
        measure_noise_end(e->t, e->n, noise, n_noise);
        samples_add(e->samples, "vbed_cpu_s", e->cpu_measure_s, "s", 0, NULL, 0, NULL);
        measure_residency(e->t, e->n, e->samples, "after");
        /* also when a target failed: the others' counters are still theirs */
        if (!signals_interrupted() && wl_each(r, probes_after_one, false) < 0)
            rc = -1;
        measure_noise_samples(e->t, e->samples, noise, n_noise);
        if (local < e->n)
            measure_speed_sample(&e->t[local], e->samples, unit_s, mem_s, units);
        free(noise);
        double headline = e->headline;
        rc = e->ops->record(r, rc, &headline);
        e->headline = headline;
        /* a target that measured keeps its counters, whatever happened to
         * the others (the run's status in meta.json says it failed); a
         * workload without a database records no layers (as before) */
        for (size_t i = 0; i < e->n; i++)
            probes_record(&pt[i], e->samples, measured[i] && e->ops->needs_db);
        free(measured);
    }
    snprintf(e->hv_fields, sizeof(e->hv_fields), "%s", probes.hypervisor_fields);
    for (size_t i = 0; i < e->n; i++) {
        probes_free(&pt[i]);
        r->jobs[i].frame = NULL;
    }
    free(pt);
    probe_run_free(&probes);
    return rc;
}

static int collect_one(struct wl_job *j)
{
    target_fetch_log(j->t, "mysqld.err");
    return 0;
}

/* meta.json's "prepare": [{"guest": n, "how": "loaded" | "copied", "s": ...,
 * and with a copy "via": "disk" | "agent" and "from": where it was loaded,
 * "guest" | "host arm"}],
 * the targets whose workload prepared data */
static void record_prepare(const struct experiment *e)
{
    if (!e->meta_run)
        return;
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < e->n; i++) {
        if (!e->t[i].prepared)
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "guest", json_object_new_int(e->t[i].guest));
        json_object_object_add(o, "how", json_object_new_string(e->t[i].prepared));
        json_object_object_add(o, "s", json_object_new_double(e->t[i].prepare_s));
        if (e->t[i].prepared_via)
            json_object_object_add(o, "via", json_object_new_string(e->t[i].prepared_via));
        if (e->t[i].prepared_from[0])
            json_object_object_add(o, "from", json_object_new_string(e->t[i].prepared_from));
        json_object_array_add(a, o);
    }
    if (json_object_array_length(a))
        json_object_object_add(e->meta_run, "prepare", a);
    else
        json_object_put(a);
}

int experiment_run(struct experiment *e)
{
    if (!e->ops)
        e->ops = workload_ops_for(e->cfg->workload);
    const struct workload_ops *ops = e->ops;
    host_memory(e);
    struct wl_run r;
    wl_run_init(&r, e->cfg, e->t, e->n, e->samples);
    r.prepare_only = e->prepare_only;
    r.phase = "prepare";
    if (ops->needs_db)
        log_info("prepare: %lld table%s of %lld rows in %zu target%s", e->cfg->tables,
                 e->cfg->tables == 1 ? "" : "s", e->cfg->table_size, e->n, e->n == 1 ? "" : "s");
    else
        log_info("prepare: %s in %zu target%s", ops->name, e->n, e->n == 1 ? "" : "s");
    int rc = wl_each(&r, ops->prepare, false);
    record_prepare(e);
    if (rc == 0 && !e->prepare_only && e->cfg->drop_caches)
        rc = drop_caches(e, &r);
    r.phase = "warm-up";
    if (rc == 0 && !e->prepare_only && ops->warmup)
        rc = ops->warmup(&r);
    if (rc == 0 && !e->prepare_only) {
        r.phase = "measure";
        if (ops->needs_db)
            log_info("measure: %.0fs in %zu target%s at once", r.measure_s, e->n,
                     e->n == 1 ? "" : "s");
        else
            log_info("measure: %s in %zu target%s at once", ops->name, e->n, e->n == 1 ? "" : "s");
        rc = measure(e, &r);
    }
    wl_each(&r, collect_one, false);
    snprintf(e->error, sizeof(e->error), "%s", r.error);
    wl_run_free(&r, ops->free_state);
    return rc;
}
