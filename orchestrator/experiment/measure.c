/* measure.c: the host page cache and the machine's noise around a
 * measure phase (see measure.h). */
#include "experiment/measure.h"
#include "hostside/speed.h"

#include "hostside/hostside.h"
#include "results/verdicts.h"
#include "util/log.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

bool measure_first_of_host(const struct target *t, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (t[k].hs == t[i].hs)
            return false;
    return true;
}

json_object *measure_host_label(const struct target *t, json_object *extra)
{
    if (!extra)
        extra = json_object_new_object();
    if (t->host_label[0])
        json_object_object_add(extra, "host", json_object_new_string(t->host_label));
    return extra;
}

void measure_residency(struct target *t, size_t n, struct samples *s, const char *when)
{
    for (size_t i = 0; i < n; i++) {
        long long bytes = -1;
        struct target_status st;
        if (target_status(&t[i], &st) == 0)
            /* a server that measures its own tables, on the host it runs on */
            bytes = st.resident_bytes;
        else if (t[i].data_path[0] && t[i].hs)
            /* the data disk's file on the guest's own host */
            bytes = hostside_resident(t[i].hs, t[i].data_path);
        if (bytes < 0)
            continue;
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "when", json_object_new_string(when));
        samples_add(s, "host_cache_data_bytes", (double)bytes, "bytes", t[i].guest, NULL, 0, extra);
    }
    /* Cached and Dirty of every host of the run's targets */
    for (size_t i = 0; i < n; i++) {
        long long total, cached, dirty;
        if (!measure_first_of_host(t, i) || !t[i].hs || hostside_meminfo(t[i].hs, &total, &cached, &dirty) < 0)
            continue;
        json_object *a = json_object_new_object(), *b = json_object_new_object();
        json_object_object_add(a, "when", json_object_new_string(when));
        json_object_object_add(b, "when", json_object_new_string(when));
        samples_add(s, "host_cached_bytes", (double)cached, "bytes", 0, NULL, 0, measure_host_label(&t[i], a));
        samples_add(s, "host_dirty_bytes", (double)dirty, "bytes", 0, NULL, 0, measure_host_label(&t[i], b));
    }
}

/* CPU seconds of the run's part on the host of target `first`: the servers
 * of its targets (guests' QEMU, the host arm's mariadbd -- and on a remote
 * host the programs the arm ran), and where vbed runs, vbed and its
 * children (the local host arm's sysbench); -1 if a target's is unknown */
static double run_cpu_s(struct target *t, size_t n, size_t first)
{
    const struct target *t0 = &t[first];
    double sum = target_is_local(t0) ? noise_self_cpu_s() : 0;
    for (size_t i = first; i < n; i++) {
        if (t[i].hs != t0->hs)
            continue;
        double c = target_cpu_s(&t[i]);
        if (c < 0)
            return -1;
        sum += c;
    }
    return sum;
}

/* this machine's /proc/stat when the host has no hostside (a unit test's target) */
static int host_cpu_times(const struct target *t, struct cpu_times *c)
{
    return t->hs ? hostside_proc_stat(t->hs, c) : procfs_read_stat(c);
}

size_t measure_noise_begin(struct target *t, size_t n, struct host_noise *noise)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!measure_first_of_host(t, i))
            continue;
        struct host_noise *h = &noise[k++];
        h->target = i;
        h->ok = host_cpu_times(&t[i], &h->c0) == 0;
        h->run0 = run_cpu_s(t, n, i);
    }
    return k;
}

void measure_noise_end(struct target *t, size_t n, struct host_noise *noise, size_t n_noise)
{
    /* the other way round: each host's window holds its run CPU readings */
    for (size_t k = 0; k < n_noise; k++) {
        struct host_noise *h = &noise[k];
        h->run1 = run_cpu_s(t, n, h->target);
        h->ok = h->ok && host_cpu_times(&t[h->target], &h->c1) == 0;
    }
}

/* Steal and other processes' CPU over the measure phase on each host of the
 * run: samples, and a warning beyond the limits of verdicts.h (a guest's
 * own steal is the guest probe's). */
void measure_noise_samples(const struct target *targets, struct samples *s, const struct host_noise *noise,
                           size_t n_noise)
{
    for (size_t k = 0; k < n_noise; k++) {
        const struct host_noise *h = &noise[k];
        const struct target *t = &targets[h->target];
        if (!h->ok)
            continue;
        const char *on = target_is_local(t) ? "" : t->host_label;
        double steal = noise_steal_pct(&h->c0, &h->c1);
        if (!isnan(steal)) {
            samples_add(s, "host_steal_pct", steal, "percent", 0, "/proc/stat", 0,
                        measure_host_label(t, NULL));
            if (steal > VERDICT_HOST_STEAL_PCT)
                log_warn("the host's CPUs%s%s lost %.1f%% of their time to steal during the measure "
                         "phase (limit %.0f%%): another tenant of that machine was busy",
                         *on ? " on " : "", on, steal, VERDICT_HOST_STEAL_PCT);
        }
        if (h->run0 < 0 || h->run1 < 0)
            continue;
        double other = noise_other_cpu_pct(&h->c0, &h->c1, h->run1 - h->run0);
        samples_add(s, "run_cpu_s", h->run1 - h->run0, "s", 0, NULL, 0, measure_host_label(t, NULL));
        if (!isnan(other)) {
            samples_add(s, "host_other_cpu_pct", other, "percent", 0, "/proc/stat", 0,
                        measure_host_label(t, NULL));
            if (other > VERDICT_HOST_OTHER_CPU_PCT)
                log_warn("processes that are not part of the run used %.1f%% of the host's CPU%s%s "
                         "during the measure phase (limit %.0f%%)",
                         other, *on ? " on " : "", on, VERDICT_HOST_OTHER_CPU_PCT);
        }
    }
}

size_t measure_local_target(const struct target *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (target_is_local(&t[i]))
            return i;
    return n;
}

void measure_speed_sample(const struct target *t, struct samples *s, double unit_s, double mem_s,
                          size_t units)
{
    if (units < MEASURE_SPEED_MIN_UNITS || !(unit_s > 0)) {
        log_info("the machine's CPU speed over the measure phase: not measured (%zu unit%s of the "
                 "probe ran)",
                 units, units == 1 ? "" : "s");
        return;
    }
    json_object *l = measure_host_label(t, NULL);
    json_object_object_add(l, "units", json_object_new_int64((int64_t)units));
    samples_add(s, "host_speed_unit_ms", 1000 * unit_s, "ms", 0, "zlib, thread CPU time", 0, l);
    log_info("the machine's CPU speed over the measure phase: %.2f ms of CPU per unit (median of %zu)",
             1000 * unit_s, units);
    if (!(mem_s > 0))
        return;
    l = measure_host_label(t, NULL);
    json_object_object_add(l, "units", json_object_new_int64((int64_t)units));
    json_object_object_add(l, "loads", json_object_new_int64(SPEED_CHASE_LOADS));
    samples_add(s, "host_memory_unit_ms", 1000 * mem_s, "ms", 0,
                "dependent loads over 64 MiB, thread CPU time", 0, l);
    log_info("the machine's memory over the measure phase: %.2f ms of CPU per %d dependent loads "
             "(median of %zu)",
             1000 * mem_s, SPEED_CHASE_LOADS, units);
}
