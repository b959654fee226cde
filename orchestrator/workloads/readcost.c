/* readcost.c: a cached and a direct read of the table's file in a guest
 * (see readcost.h). */
#include "workloads/readcost.h"

#include "util/log.h"
#include "workloads/fio.h"
#include "workloads/workload.h"

#include <stdbool.h>
#include <stdlib.h>

/* one fio job of n reads; its result into *out. -1 said */
static int one(struct wl_job *j, bool direct, struct fio_result *out)
{
    const char *what = direct ? "direct" : "cached";
    struct fio_cmdline c;
    if (fio_randread_cmdline(&c, READCOST_FILE, READCOST_BS, direct, READCOST_IOS) < 0)
        return -1;
    int exitcode = -1;
    if (target_start(j->t, c.argv, NULL, direct ? "read-probe-direct.json" : "read-probe-cached.json") < 0 ||
        target_wait(j->t, 120, 200, &exitcode) < 0 || exitcode != 0) {
        log_warn("%s: the read probe's %s reads did not complete (exit %d): no read cost", j->t->name, what,
                 exitcode);
        return -1;
    }
    char *text = target_output(j->t), err[256];
    int rc = text ? fio_parse(text, out, err, sizeof(err)) : -1;
    bool usable = rc == 0 && !out->write && out->lat_mean_ms > 0;
    if (!usable)
        log_warn("%s: the read probe's %s report is not usable (%s): no read cost", j->t->name, what,
                 !text ? "no output" : rc < 0 ? err : "not a read, or no latency");
    free(text);
    return usable ? 0 : -1;
}

int readcost_probe(struct wl_job *j)
{
    if (!j->t->own_kernel || !j->t->sql)
        return 0;
    /* cached first: where the page cache holds the table, the direct reads
     * that follow leave it as it was */
    struct fio_result cached, direct;
    if (one(j, false, &cached) < 0 || one(j, true, &direct) < 0)
        return 0;
    struct samples *s = j->samples;
    int g = j->t->guest;
    samples_add(s, "read_probe_cached_ms", cached.lat_mean_ms, "ms", g, NULL, 0, NULL);
    samples_add(s, "read_probe_direct_ms", direct.lat_mean_ms, "ms", g, NULL, 0, NULL);
    samples_add(s, "read_probe_ios", (double)(direct.io_bytes / READCOST_BS), "count", g, NULL, 0, NULL);
    log_info("%s: a %d KiB read costs %.3f ms from the page cache, %.3f ms through the virtual disk",
             j->t->name, READCOST_BS / 1024, cached.lat_mean_ms, direct.lat_mean_ms);
    return 0;
}
