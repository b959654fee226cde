/* guestspeed.c: a fixed job timed in a guest (see guestspeed.h). */
#include "workloads/guestspeed.h"

#include "util/log.h"
#include "util/procfs.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>

#define INPUT "/tmp/vbed-speed-input"

int guestspeed_probe(struct wl_job *j)
{
    if (!j->t->own_kernel || !target_can_capture(j->t))
        return 0;
    /* one program in the guest (each costs a few tenths of a second under
     * TCG): the input in the page cache, and gzip run once on a part of it
     * (under emulation its code's first run is mostly translation: the same
     * job took 190-300 ms in the six guests of one run without it); then
     * the timed gzip in a shell of its own, whose children it waited for
     * are that gzip alone; the input removed whatever happened */
    char job[400];
    snprintf(job, sizeof(job),
             "head -c %d /usr/sbin/mariadbd > " INPUT " && head -c %d " INPUT
             " | gzip -1 > /dev/null && sh -c 'gzip -1 -c " INPUT
             " > /dev/null && cat /proc/$$/stat'; rc=$?; rm -f " INPUT "; exit $rc",
             GUESTSPEED_BYTES, GUESTSPEED_BYTES / 8);
    char *out = target_sh(j->t, job, 120);
    double s = out ? procfs_parse_children_cpu(out, 100) : -1; /* USER_HZ is 100 on Linux guests */
    free(out);
    if (!(s > 0)) {
        log_warn("%s: the guest's speed job did not run or said nothing usable: its speed is not "
                 "recorded",
                 j->t->name);
        return 0;
    }
    samples_add(j->samples, "guest_speed_unit_ms", 1000 * s, "ms", j->t->guest, "gzip -1, CPU time", 0,
                NULL);
    log_info("%s: the speed job (gzip -1 of %d KiB) took %.0f ms of the guest's CPU", j->t->name,
             GUESTSPEED_BYTES / 1024, 1000 * s);
    return 0;
}
