/* diskwatch.c: a guest disk that stopped completing requests (see
 * diskwatch.h): libvirt's block counts, the guest's /proc/diskstats
 * through its agent, and the judgement between them. */
#include "virt/diskwatch.h"

#include "util/monotime.h"
#include "util/procfs.h"
#include "util/safefile.h"
#include "util/termtext.h"
#include "util/xalloc.h"
#include "virt/agent.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the guest's virtio disks looked at: vda .. vdp */
#define GUEST_DISKS 16
/* the end of the console log searched for a hung-task line */
#define CONSOLE_TAIL (64 << 10)

void diskwatch_state_init(struct diskwatch_state *s, double stall_s)
{
    memset(s, 0, sizeof(*s));
    s->stall_s = stall_s;
    s->t_asked = -1;
}

/* a host disk quiet for at least its share of stall_s -- a third for one
 * that completed requests while watched (it was in use), the whole of it
 * for one that never did -- preferring one that was in use, then the
 * longest quiet; -1 if none. whole: only disks quiet for all of stall_s. */
static int quiet_disk(const struct diskwatch_state *s, double now, bool whole)
{
    int q = -1;
    for (size_t i = 0; i < s->n; i++) {
        double need = whole || !s->moved[i] ? s->stall_s : s->stall_s / 3;
        if (now - s->t_moved[i] < need)
            continue;
        if (q < 0 || (s->moved[i] && !s->moved[q]) ||
            (s->moved[i] == s->moved[q] && s->t_moved[i] < s->t_moved[q]))
            q = (int)i;
    }
    return q;
}

bool diskwatch_wants_guest(const struct diskwatch_state *s, double now)
{
    double third = s->stall_s / 3;
    return quiet_disk(s, now, false) >= 0 && (s->t_asked < 0 || now - s->t_asked >= third - 0.5);
}

/* the guest disk of text with requests in flight (the most of them): its
 * name, in flight and completions (reads + writes + flushes); false if none */
static bool waiting_disk(const char *text, char *name, size_t len, double *inflight, double *done)
{
    bool found = false;
    *inflight = 0;
    for (int i = 0; i < GUEST_DISKS; i++) {
        char dev[8];
        snprintf(dev, sizeof(dev), "vd%c", 'a' + i);
        struct diskstat d;
        if (procfs_parse_diskstats(text, dev, 0, 0, &d) < 0 || !isfinite(d.in_flight) ||
            d.in_flight < 1 || d.in_flight <= *inflight)
            continue;
        found = true;
        *inflight = d.in_flight;
        *done = d.reads + d.writes + (isfinite(d.flushes) ? d.flushes : 0);
        snprintf(name, len, "%s", dev);
    }
    return found;
}

/* the host's readings into s: a disk whose count moved (or that is new, or
 * whose count went back: another device under that name) restarts its clock */
static void host_look(struct diskwatch_state *s, double now, const struct diskwatch_disk *host,
                      size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = 0;
        while (i < s->n && strcmp(s->host[i].name, host[k].name) != 0)
            i++;
        if (i == s->n) {
            if (s->n == DISKWATCH_DISKS)
                continue;
            s->n++;
            s->host[i] = host[k];
            s->t_moved[i] = now;
            s->moved[i] = false;
            continue;
        }
        if (host[k].done != s->host[i].done) {
            s->moved[i] = host[k].done > s->host[i].done;
            s->host[i].done = host[k].done;
            s->t_moved[i] = now;
        }
    }
}

int diskwatch_judge(struct diskwatch_state *s, double now, const struct diskwatch_disk *host,
                    size_t n, const char *guest_diskstats, char *why, size_t len)
{
    if (n == 0) /* libvirt gave nothing this time: judge nothing */
        return 0;
    host_look(s, now, host, n);
    if (!guest_diskstats)
        return 0;
    s->t_asked = now;
    char dev[32];
    double inflight, done;
    if (!waiting_disk(guest_diskstats, dev, sizeof(dev), &inflight, &done)) {
        s->disk[0] = '\0'; /* nothing waits: computing, or idle */
        return 0;
    }
    if (strcmp(dev, s->disk) != 0 || done != s->disk_done) {
        snprintf(s->disk, sizeof(s->disk), "%s", dev);
        s->disk_done = done;
        s->t_disk = now;
    }
    int q = quiet_disk(s, now, true);
    if (q < 0 || now - s->t_disk < s->stall_s - 0.5)
        return 0;
    snprintf(why, len,
             "its disk has stalled: the guest's %s has held %.0f request%s for %.0f s without "
             "completing any, and its disk %s completed none on the host for %.0f s "
             "(timeout_stall)",
             s->disk, inflight, inflight == 1 ? "" : "s", now - s->t_disk, s->host[q].name,
             now - s->t_moved[q]);
    return 1;
}

struct diskwatch {
    virDomainPtr dom;
    struct diskwatch_state s;
    double t_look;
    char console[PATH_MAX];
};

struct diskwatch *diskwatch_new(virDomainPtr dom, double stall_s, const char *console)
{
    struct diskwatch *w = xcalloc(1, sizeof(*w));
    w->dom = dom;
    diskwatch_state_init(&w->s, stall_s);
    w->t_look = -1;
    snprintf(w->console, sizeof(w->console), "%s", console ? console : "");
    return w;
}

void diskwatch_free(struct diskwatch *w) { free(w); }

/* each disk of the domain with the requests libvirt counts as completed
 * on it, into disks; how many (0 if libvirt gives none) */
static size_t host_disks(virDomainPtr dom, struct diskwatch_disk *disks)
{
    virDomainPtr doms[] = {dom, NULL};
    virDomainStatsRecordPtr *recs = NULL;
    size_t got = 0;
    unsigned int n = 0;
    if (virDomainListGetStats(doms, VIR_DOMAIN_STATS_BLOCK, &recs, 0) >= 1 &&
        virTypedParamsGetUInt(recs[0]->params, recs[0]->nparams, "block.count", &n) == 1) {
        virTypedParameterPtr p = recs[0]->params;
        int np = recs[0]->nparams;
        for (unsigned int i = 0; i < n && got < DISKWATCH_DISKS; i++) {
            static const char *const fields[] = {"rd.reqs", "wr.reqs", "fl.reqs"};
            char key[64];
            const char *name = NULL;
            snprintf(key, sizeof(key), "block.%u.name", i);
            if (virTypedParamsGetString(p, np, key, &name) != 1)
                continue;
            struct diskwatch_disk *d = &disks[got++];
            snprintf(d->name, sizeof(d->name), "%s", name);
            d->done = 0;
            for (size_t k = 0; k < 3; k++) {
                unsigned long long v;
                snprintf(key, sizeof(key), "block.%u.%s", i, fields[k]);
                if (virTypedParamsGetULLong(p, np, key, &v) == 1)
                    d->done += (double)v;
            }
        }
    }
    virDomainStatsRecordListFree(recs);
    return got;
}

/* The last hung-task line ("... blocked for more than N seconds") of the
 * console log, escaped, into buf; "" if none or the log is not here. */
static void hung_task_line(const char *console, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!*console)
        return;
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", console);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return;
    *slash = '\0';
    int dfd = safefile_open_dir(AT_FDCWD, dir);
    char *text = dfd >= 0 ? safefile_read_tail(dfd, slash + 1, CONSOLE_TAIL, NULL) : NULL;
    if (dfd >= 0)
        close(dfd);
    const char *hit = NULL;
    for (const char *p = text; p && (p = strstr(p, "blocked for more than")); p++)
        hit = p;
    if (hit) {
        const char *start = hit;
        while (start > text && start[-1] != '\n')
            start--;
        const char *end = strchr(hit, '\n');
        size_t n = end ? (size_t)(end - start) : strlen(start);
        char *line = xasprintf("%.*s", (int)n, start);
        char *safe = termtext_escape(line, 160);
        snprintf(buf, len, "%s", safe);
        free(safe);
        free(line);
    }
    free(text);
}

int diskwatch_check(struct diskwatch *w, char *why, size_t len)
{
    double now = monotime_s();
    if (w->t_look >= 0 && now - w->t_look < DISKWATCH_LOOK_S)
        return 0;
    w->t_look = now;
    struct diskwatch_disk disks[DISKWATCH_DISKS];
    size_t n = host_disks(w->dom, disks);
    char *stats = NULL;
    size_t stats_len = 0;
    if (n > 0 && diskwatch_wants_guest(&w->s, now) &&
        agent_read_file(w->dom, "/proc/diskstats", 64 << 10, &stats, &stats_len, true) < 0) {
        free(stats);
        stats = NULL;
    }
    char judged[512];
    int stalled = diskwatch_judge(&w->s, now, disks, n, stats, judged, sizeof(judged));
    free(stats);
    if (!stalled)
        return 0;
    char hung[200];
    hung_task_line(w->console, hung, sizeof(hung));
    snprintf(why, len, "%s%s%s%s", judged, *hung ? "; its console: '" : "", hung, *hung ? "'" : "");
    return 1;
}
