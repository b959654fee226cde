/* hostdev.c: the host-device probe (see probe.h): /proc/diskstats of the
 * block device under a target's data (a guest's data disk file, the host
 * arm's datadir) on the target's own host -- in-process here, through
 * `vbed host diskstats` on an ssh host, absent on a host without a shell
 * transport. The guests of a run keep their data disks in one pool
 * directory: the device is read once per host and directory for every
 * reading, not once per target (probe_run's readings). */
#include "probes/probe.h"

#include "util/procfs.h"
#include "util/xalloc.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device under path on hs at this reading: read by the first target
 * that asks, kept for the others of the same host and directory. */
static bool reading(struct probe_target *pt, const char *path, struct diskstat *d)
{
    char copy[PATH_MAX], dir[PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", path);
    snprintf(dir, sizeof(dir), "%s", dirname(copy));
    struct probe_run *r = pt->run;
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < r->n_readings; i++) {
        struct probe_host_reading *h = &r->readings[i];
        if (h->hs == pt->t->hs && h->when == pt->when && strcmp(h->dir, dir) == 0) {
            bool ok = h->ok;
            *d = h->d;
            pthread_mutex_unlock(&r->lock);
            return ok;
        }
    }
    struct probe_host_reading h = {.hs = pt->t->hs, .when = pt->when};
    snprintf(h.dir, sizeof(h.dir), "%s", dir);
    unsigned ma, mi;
    char *text = NULL;
    h.ok = hostside_diskstats(pt->t->hs, path, &ma, &mi, &text) == 0 &&
           procfs_parse_diskstats(text, NULL, ma, mi, &h.d) == 0;
    free(text);
    r->readings = xrealloc(r->readings, (r->n_readings + 1) * sizeof(*r->readings));
    r->readings[r->n_readings++] = h;
    *d = h.d;
    pthread_mutex_unlock(&r->lock);
    return h.ok;
}

static void read_one(struct probe_target *pt, struct layer_snapshot *s)
{
    struct diskstat d;
    if (reading(pt, pt->t->data_path, &d))
        layers_add_diskstat(s, "host", "hostdev", &d);
}

static int before(struct probe_target *pt, void **state)
{
    if (!pt->t->data_path[0] || !pt->t->hs)
        return 0;
    struct layer_pair *p = xcalloc(1, sizeof(*p));
    *state = p;
    read_one(pt, &p->before);
    return 0;
}

static int after(struct probe_target *pt, void *state)
{
    struct layer_pair *p = state;
    if (p)
        read_one(pt, &p->after);
    return 0;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct layer_pair *p = state;
    if (p && layers)
        layers_samples(&p->before, &p->after, s, pt->t->guest);
}

const struct probe probe_hostdev = {
    .name = "hostdev",
    .before = before,
    .after = after,
    .record = record,
    .free = free,
};
