/* guest.c: the guest probe (see probe.h): what the guest kernel counts,
 * read through the target (its agent) -- the data disk's /proc/diskstats,
 * /proc/stat (user, system, iowait, steal), /proc/meminfo (Cached, Dirty)
 * and fincore of the tables -- and from its /proc/stat the guest's steal
 * time over the phase, with a warning beyond verdicts.h's limit. Only a
 * target with a kernel of its own has it. */
#include "probes/probe.h"

#include "results/verdicts.h"
#include "hostside/noise.h"
#include "util/log.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The data disk's name in the guest ("vdb"), from its serial. */
static int data_dev(struct target *t, char *dev, size_t len)
{
    for (char c = 'a'; c <= 'h'; c++) {
        char path[64];
        snprintf(path, sizeof(path), "/sys/block/vd%c/serial", c);
        char *serial = target_read_text(t, path);
        bool found = serial && strncmp(serial, "vbed-data", 9) == 0;
        free(serial);
        if (found) {
            snprintf(dev, len, "vd%c", c);
            return 0;
        }
    }
    return -1;
}

/* One reading; cpu, cpu_ok: the guest's /proc/stat as read (for its steal
 * time), and whether it could be. guest_dev "" skips the disk. */
static void snapshot(struct target *t, const char *guest_dev, struct layer_snapshot *s,
                     struct cpu_times *cpu, bool *cpu_ok)
{
    char *text;
    if (guest_dev[0] && (text = target_read_text(t, "/proc/diskstats"))) {
        struct diskstat d;
        if (procfs_parse_diskstats(text, guest_dev, 0, 0, &d) == 0)
            layers_add_diskstat(s, "guest", "guest_disk", &d);
        free(text);
    }
    if (cpu)
        cpu_ok[0] = false;
    if ((text = target_read_text(t, "/proc/stat"))) {
        struct cpu_times c;
        if (procfs_parse_stat(text, 100, &c) == 0) { /* USER_HZ is 100 on Linux guests */
            layers_set(s, "guest", "guest_cpu_user_s", "s", false, c.user_s);
            layers_set(s, "guest", "guest_cpu_system_s", "s", false, c.system_s);
            layers_set(s, "guest", "guest_cpu_iowait_s", "s", false, c.iowait_s);
            layers_set(s, "guest", "guest_cpu_steal_s", "s", false, c.steal_s);
            if (cpu) {
                *cpu = c;
                cpu_ok[0] = true;
            }
        }
        free(text);
    }
    if ((text = target_read_text(t, "/proc/meminfo"))) {
        double v;
        if (procfs_parse_meminfo(text, "Cached", &v) == 0)
            layers_set(s, "guest", "guest_cached_bytes", "bytes", true, v);
        if (procfs_parse_meminfo(text, "Dirty", &v) == 0)
            layers_set(s, "guest", "guest_dirty_bytes", "bytes", true, v);
        free(text);
    }
    /* the datadir's files in the guest page cache (util-linux fincore) */
    const char *argv[] = {"/bin/sh", "-c",
                          "fincore --bytes --noheadings --raw --output RES "
                          "/var/lib/mysql/sbtest/sbtest*.ibd",
                          NULL};
    char *out = NULL;
    int exitcode = -1;
    if (target_capture(t, argv, 60, &out, &exitcode) == 0 && exitcode == 0) {
        double v;
        if (layers_parse_fincore(out, &v) == 0)
            layers_set(s, "guest", "guest_datadir_cached_bytes", "bytes", true, v);
    }
    free(out);
}

struct state {
    struct layer_pair layers;
    char dev[16];                    /* the data disk in the guest; "" unknown */
    struct cpu_times cpu[2];         /* /proc/stat before, after */
    bool cpu_ok[2];
};

static int before(struct probe_target *pt, void **state)
{
    if (!pt->t->own_kernel)
        return 0;
    struct state *st = xcalloc(1, sizeof(*st));
    *state = st;
    if (data_dev(pt->t, st->dev, sizeof(st->dev)) < 0)
        log_warn("%s: cannot find its data disk in the guest (/sys/block/vd*/serial); its block "
                 "counters are not recorded",
                 pt->t->name);
    snapshot(pt->t, st->dev, &st->layers.before, &st->cpu[0], &st->cpu_ok[0]);
    return 0;
}

static int after(struct probe_target *pt, void *state)
{
    struct state *st = state;
    if (st)
        snapshot(pt->t, st->dev, &st->layers.after, &st->cpu[1], &st->cpu_ok[1]);
    return 0;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st)
        return;
    if (layers)
        layers_samples(&st->layers.before, &st->layers.after, s, pt->t->guest);
    if (!st->cpu_ok[0] || !st->cpu_ok[1])
        return;
    double steal = noise_steal_pct(&st->cpu[0], &st->cpu[1]);
    if (isnan(steal))
        return;
    samples_add(s, "guest_steal_pct", steal, "percent", pt->t->guest, NULL, 0, NULL);
    if (steal > VERDICT_GUEST_STEAL_PCT)
        log_warn("%s: its vCPUs lost %.1f%% of their time to steal during the measure phase "
                 "(limit %.0f%%)",
                 pt->t->name, steal, VERDICT_GUEST_STEAL_PCT);
}

const struct probe probe_guest = {
    .name = "guest",
    .before = before,
    .after = after,
    .record = record,
    .free = free,
};
