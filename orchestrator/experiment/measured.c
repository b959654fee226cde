/* measured.c: what a measure phase records (see experiment.h, phase.h):
 * each target's sysbench figures, InnoDB's counters and every layer's
 * (layers.h) as deltas, the host page-cache residency of its data, and the
 * noise of the machine over the phase (noise.h) with its warnings. */
#include "experiment/phase.h"

#include "hostside/hostcache.h"
#include "hostside/hostside.h"
#include "util/log.h"
#include "results/verdicts.h"
#include "experiment/window.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void phase_residency(struct experiment *e, const char *when)
{
    for (size_t i = 0; i < e->n; i++) {
        long long bytes = -1;
        struct hostside *hs = e->t[i].hs;
        struct hostarm_status st;
        if (e->t[i].host)
            /* its tables, on the host it runs on */
            bytes = hostarm_status(e->t[i].host, &st) == 0 ? st.resident_bytes : -1;
        else if (e->t[i].data_file[0] && (!hs || hostside_available(hs)))
            /* the data disk's file on the guest's own host */
            bytes = hs ? hostside_resident(hs, e->t[i].data_file) : hostcache_resident(e->t[i].data_file);
        if (bytes < 0)
            continue;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "when", json_object_new_string(when));
        samples_add(e->samples, "host_cache_data_bytes", (double)bytes, "bytes", e->t[i].guest, NULL,
                    0, extra);
    }
    /* Cached and Dirty of every host of the run's targets */
    for (size_t i = 0; i < e->n; i++) {
        struct hostside *hs = e->t[i].hs;
        long long total, cached, dirty;
        if (!phase_first_of_host(e, i) || (hs && !hostside_available(hs)))
            continue;
        if (hs ? hostside_meminfo(hs, &total, &cached, &dirty) < 0 : hostcache_meminfo(&cached, &dirty) < 0)
            continue;
        json_object *a = json_object_new_object(), *b = json_object_new_object();
        json_object_object_add(a, "when", json_object_new_string(when));
        json_object_object_add(b, "when", json_object_new_string(when));
        samples_add(e->samples, "host_cached_bytes", (double)cached, "bytes", 0, NULL, 0,
                    phase_host_label(&e->t[i], a));
        samples_add(e->samples, "host_dirty_bytes", (double)dirty, "bytes", 0, NULL, 0,
                    phase_host_label(&e->t[i], b));
    }
}

/* CPU seconds of the run's part on the host of target `first`: the servers
 * of its targets (guests' QEMU, the host arm's mariadbd -- and on a remote
 * host the programs the arm ran), and where vbed runs, vbed and its
 * children (the local host arm's sysbench); -1 if a target's is unknown */
static double run_cpu_s(const struct experiment *e, size_t first)
{
    const struct target *t0 = &e->t[first];
    double sum = target_is_local(t0) ? noise_self_cpu_s() : 0;
    for (size_t i = first; i < e->n; i++) {
        if (e->t[i].hs != t0->hs)
            continue;
        double c = target_cpu_s(&e->t[i]);
        if (c < 0)
            return -1;
        sum += c;
    }
    return sum;
}

static int host_cpu_times(const struct target *t, struct cpu_times *c)
{
    if (target_is_local(t))
        return procfs_read_stat(c);
    return hostside_available(t->hs) ? hostside_proc_stat(t->hs, c) : -1;
}

size_t phase_noise_begin(struct experiment *e, struct host_noise *noise)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (!phase_first_of_host(e, i))
            continue;
        struct host_noise *h = &noise[n++];
        h->target = i;
        h->ok = host_cpu_times(&e->t[i], &h->c0) == 0;
        h->run0 = run_cpu_s(e, i);
    }
    return n;
}

void phase_noise_end(struct experiment *e, struct host_noise *noise, size_t n)
{
    /* the other way round: each host's window holds its run CPU readings */
    for (size_t k = 0; k < n; k++) {
        struct host_noise *h = &noise[k];
        h->run1 = run_cpu_s(e, h->target);
        h->ok = h->ok && host_cpu_times(&e->t[h->target], &h->c1) == 0;
    }
}

/* Steal and other processes' CPU over the measure phase on each host of the
 * run, and each guest's steal: samples, and a warning beyond the limits of
 * verdicts.h. */
void phase_noise_samples(struct experiment *e, const struct measured *m, const struct host_noise *noise,
                         size_t n)
{
    struct samples *s = e->samples;
    for (size_t k = 0; k < n; k++) {
        const struct host_noise *h = &noise[k];
        const struct target *t = &e->t[h->target];
        if (!h->ok)
            continue;
        const char *on = target_is_local(t) ? "" : t->host_label;
        double steal = noise_steal_pct(&h->c0, &h->c1);
        if (!isnan(steal)) {
            samples_add(s, "host_steal_pct", steal, "percent", 0, "/proc/stat", 0,
                        phase_host_label(t, NULL));
            if (steal > VERDICT_HOST_STEAL_PCT)
                log_warn("the host's CPUs%s%s lost %.1f%% of their time to steal during the measure "
                         "phase (limit %.0f%%): another tenant of that machine was busy",
                         *on ? " on " : "", on, steal, VERDICT_HOST_STEAL_PCT);
        }
        if (h->run0 < 0 || h->run1 < 0)
            continue;
        double other = noise_other_cpu_pct(&h->c0, &h->c1, h->run1 - h->run0);
        samples_add(s, "run_cpu_s", h->run1 - h->run0, "s", 0, NULL, 0, phase_host_label(t, NULL));
        if (!isnan(other)) {
            samples_add(s, "host_other_cpu_pct", other, "percent", 0, "/proc/stat", 0,
                        phase_host_label(t, NULL));
            if (other > VERDICT_HOST_OTHER_CPU_PCT)
                log_warn("processes that are not part of the run used %.1f%% of the host's CPU%s%s "
                         "during the measure phase (limit %.0f%%)",
                         other, *on ? " on " : "", on, VERDICT_HOST_OTHER_CPU_PCT);
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

void phase_report_samples(struct experiment *e, const struct target *t, const struct measured *m)
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

