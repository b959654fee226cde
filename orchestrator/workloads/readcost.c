/* readcost.c: what a read and a page write through a guest's virtual disk
 * cost, beyond the same through its page cache (see readcost.h). */
#include "workloads/readcost.h"

#include "util/log.h"
#include "workloads/fio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* what one kind of request cost, per request: its mean latency, fio's
 * thread's CPU, and the guest's whole process on the host (QEMU: its
 * vCPUs, I/O threads and main loop), ms; NAN where not known */
struct cost {
    double lat, cpu, host;
    long long ios; /* requests made: at most the job's n, fewer where the file is smaller */
};

/* fio's argv in the guest, its output into out_name; -1 said (what: the
 * job, for the warning) */
static int run(struct wl_job *j, const struct fio_cmdline *c, const char *out_name, const char *what)
{
    int exitcode = -1;
    if (target_start(j->t, c->argv, NULL, out_name) < 0 || target_wait(j->t, 120, 200, &exitcode) < 0 ||
        exitcode != 0) {
        log_warn("%s: the I/O probe's %s did not complete (exit %d): no I/O cost", j->t->name, what,
                 exitcode);
        return -1;
    }
    return 0;
}

/* One kind of request: READCOST_IOS reads of the table or writes of the
 * scratch file, direct or cached, in one fio job (n requests: a warm-up
 * job's READCOST_WARM_IOS). -1 said */
static int kind(struct wl_job *j, bool write, bool direct, bool unlink_after, int n, struct cost *out)
{
    const char *what = write ? (direct ? "direct writes" : "cached writes")
                             : (direct ? "direct reads" : "cached reads");
    char out_name[64];
    snprintf(out_name, sizeof(out_name), "%s-probe-%s%s.json", write ? "write" : "read",
             direct ? "direct" : "cached", n == READCOST_IOS ? "" : "-warm");
    struct fio_cmdline c;
    int rc = write ? fio_randwrite_cmdline(&c, READCOST_WRITE_FILE, READCOST_BS, READCOST_WRITE_SIZE,
                                           direct, n, unlink_after)
                   : fio_randread_cmdline(&c, READCOST_FILE, READCOST_BS, direct, n);
    double host0 = target_cpu_s(j->t);
    if (rc < 0 || run(j, &c, out_name, what) < 0)
        return -1;
    double host1 = target_cpu_s(j->t);
    char *text = target_output(j->t), err[256];
    struct fio_result r;
    rc = text ? fio_parse(text, &r, err, sizeof(err)) : -1;
    free(text);
    if (rc < 0 || !(r.lat_mean_ms > 0)) {
        log_warn("%s: the I/O probe's %s report is not usable (%s): no I/O cost", j->t->name, what,
                 !text ? "no output" : rc < 0 ? err : "no latency");
        return -1;
    }
    /* fio stops at n requests or at the file's end, whichever comes first
     * (a test's small table has fewer pages than n) */
    out->ios = r.io_bytes / READCOST_BS;
    if (r.write != write || r.io_bytes % READCOST_BS || out->ios < 1 || out->ios > n) {
        log_warn("%s: the I/O probe's %s moved %lld bytes %s, not up to %d requests of %d: no I/O "
                 "cost",
                 j->t->name, what, r.io_bytes, r.write ? "written" : "read", n, READCOST_BS);
        return -1;
    }
    out->lat = r.lat_mean_ms;
    out->cpu = r.cpu_ms / (double)out->ios;
    out->host = host0 >= 0 && host1 >= host0 ? 1000 * (host1 - host0) / (double)out->ios : NAN;
    return 0;
}

/* reads: a few direct ones first (under emulation a code path's first run
 * is mostly its translation: fio's own and the kernel's direct path), then
 * cached (where the page cache holds the table, the direct reads that
 * follow leave it as it was), then direct */
static int reads(struct wl_job *j, struct cost k[2])
{
    struct cost warm;
    return kind(j, false, true, false, READCOST_WARM_IOS, &warm) < 0 ||
                   kind(j, false, false, false, READCOST_IOS, &k[0]) < 0 ||
                   kind(j, false, true, false, READCOST_IOS, &k[1]) < 0
               ? -1
               : 0;
}

/* the scratch file laid out, then direct writes (on clean pages), then
 * writes into the page cache, which remove it */
static int writes(struct wl_job *j, struct cost k[2])
{
    struct fio_cmdline c;
    if (fio_randwrite_cmdline(&c, READCOST_WRITE_FILE, READCOST_BS, READCOST_WRITE_SIZE, false, 0,
                              false) < 0)
        return -1;
    if (run(j, &c, "write-probe-layout.json", "layout of " READCOST_WRITE_FILE) < 0)
        return -1;
    return kind(j, true, true, false, READCOST_IOS, &k[1]) < 0 ||
                   kind(j, true, false, true, READCOST_IOS, &k[0]) < 0
               ? -1
               : 0;
}

/* one figure of a pair, cached and direct, as samples
 * prefix_{cached,direct}suffix, and said; not where either is unknown */
static void figure(struct wl_job *j, const char *prefix, const char *suffix, const char *said,
                   const char *noun, double cached, double direct)
{
    if (!isfinite(cached) || !isfinite(direct))
        return;
    char m[64];
    snprintf(m, sizeof(m), "%s_cached%s", prefix, suffix);
    samples_add(j->samples, m, cached, "ms", j->t->guest, NULL, 0, NULL);
    snprintf(m, sizeof(m), "%s_direct%s", prefix, suffix);
    samples_add(j->samples, m, direct, "ms", j->t->guest, NULL, 0, NULL);
    log_info("%s: %s %s: %.3f ms through the page cache, %.3f ms through the virtual disk",
             j->t->name, said, noun, cached, direct);
}

/* a pair's samples: its latencies, and its CPU figures where both jobs
 * made as many requests (the host's hold fio's start and exit: a pair's
 * difference cancels them only then) */
static void record(struct wl_job *j, const char *prefix, const char *noun, const struct cost k[2])
{
    figure(j, prefix, "_ms", "the latency of a 16 KiB", noun, k[0].lat, k[1].lat);
    if (k[0].ios != k[1].ios) {
        log_warn("%s: the I/O probe's %s jobs made %lld and %lld requests: no CPU figures",
                 j->t->name, noun, k[0].ios, k[1].ios);
        return;
    }
    figure(j, prefix, "_cpu_ms", "fio's CPU per", noun, k[0].cpu, k[1].cpu);
    figure(j, prefix, "_host_ms", "QEMU's CPU on the host per", noun, k[0].host, k[1].host);
}

int readcost_probe(struct wl_job *j)
{
    if (!j->t->own_kernel || !j->t->sql)
        return 0;
    struct cost k[2];
    if (reads(j, k) < 0)
        return 0;
    record(j, "read_probe", "read", k);
    samples_add(j->samples, "read_probe_ios", (double)k[1].ios, "count", j->t->guest, NULL, 0, NULL);
    if (writes(j, k) < 0) {
        char *gone = target_sh(j->t, "rm -f " READCOST_WRITE_FILE, 30);
        free(gone);
        return 0;
    }
    record(j, "write_probe", "page write", k);
    return 0;
}
