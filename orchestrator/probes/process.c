/* process.c: the process probe (see probe.h): the CPU that executes the
 * workload -- a guest's whole QEMU as libvirt counts it; the host arm's
 * mariadbd and the programs it ran (sysbench) -- as the workload layer's
 * server_cpu_s, and the host arm's mariadbd I/O (/proc/<pid>/io) as the
 * host layer's hostarm_read_bytes and hostarm_write_bytes. */
#include "probes/probe.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>

static void read_one(struct probe_target *pt, struct layer_snapshot *s)
{
    /* a server that tells its own figures (the host arm: on this machine
     * vbed's only child while it measures is its sysbench; on a remote host
     * what arm-exec recorded); else the target's CPU (a guest's QEMU) */
    struct target_status st;
    double cpu = -1;
    if (target_status(pt->t, &st) == 0) {
        if (!isnan(st.read_bytes))
            layers_set(s, "host", "hostarm_read_bytes", "bytes", false, st.read_bytes);
        if (!isnan(st.write_bytes))
            layers_set(s, "host", "hostarm_write_bytes", "bytes", false, st.write_bytes);
        if (st.server_cpu_s >= 0)
            cpu = st.server_cpu_s + st.programs_cpu_s;
    } else {
        cpu = target_cpu_s(pt->t);
    }
    if (cpu >= 0)
        layers_set(s, "workload", "server_cpu_s", "s", false, cpu);
}

static int before(struct probe_target *pt, void **state)
{
    struct layer_pair *p = xcalloc(1, sizeof(*p));
    *state = p;
    read_one(pt, &p->before);
    return 0;
}

static int after(struct probe_target *pt, void *state)
{
    read_one(pt, &((struct layer_pair *)state)->after);
    return 0;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct layer_pair *p = state;
    if (layers)
        layers_samples(&p->before, &p->after, s, pt->t->guest);
}

const struct probe probe_process = {
    .name = "process",
    .before = before,
    .after = after,
    .record = record,
    .free = free,
};
