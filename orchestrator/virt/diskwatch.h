/* diskwatch.h: a guest whose disk stopped completing requests, told apart
 * from one that is busy computing or idle.
 *
 * While vbed waits on a program in a guest (sysbench prepare, warm-up, the
 * measure phase), the watch looks every DISKWATCH_LOOK_S at the requests
 * libvirt counts as done on each of the domain's disks (rd, wr and fl
 * requests). When a disk that was busy has completed none for a while, it
 * reads the guest's own /proc/diskstats through the agent (at most once a
 * third of timeout_stall): a virtio disk (vdX) with requests in flight
 * whose completions do not move is waiting for something. The host's disk
 * quiet and the guest's disk waiting with the same completions, both for
 * timeout_stall, and the disk has stalled (about 4/3 timeout_stall after
 * its last completion): the wait is
 * abandoned with that evidence (and the last hung-task line of its console
 * log, where that log is on this machine) instead of running into the
 * phase's own limit (timeout_prepare is an hour).
 *
 * Seen here (QEMU 7.2, TCG, a restored guest and a hot-plugged qcow2 disk,
 * cache=none): QEMU idle with nothing in flight, the guest's jbd2 and
 * mariadbd in D state for good, "blocked for more than 120 seconds" on its
 * console: a completion the guest never saw.
 *
 * A guest that computes without I/O (no request in flight) or that is idle
 * is never stalled. The judgement is diskwatch_judge, apart from libvirt
 * and the agent, for the unit tests. One thread per watch. */
#ifndef VBED_VIRT_DISKWATCH_H
#define VBED_VIRT_DISKWATCH_H

#include <libvirt/libvirt.h>
#include <stdbool.h>
#include <stddef.h>

/* how often the watch looks (seconds) */
#define DISKWATCH_LOOK_S 5.0

#define DISKWATCH_DISKS 24

/* One disk as libvirt counts it: its target name and the requests (rd, wr,
 * fl) it has completed. */
struct diskwatch_disk {
    char name[32];
    double done;
};

/* What the watch has seen so far (diskwatch_judge's state). */
struct diskwatch_state {
    double stall_s;                         /* timeout_stall */
    size_t n;                               /* the host's disks seen */
    struct diskwatch_disk host[DISKWATCH_DISKS];
    double t_moved[DISKWATCH_DISKS];        /* when each last completed a request */
    bool moved[DISKWATCH_DISKS];            /* it has completed one while watched */
    double t_asked;                         /* the guest was last asked; < 0 never */
    char disk[32];                          /* the guest's disk seen waiting ("" none) */
    double t_disk;                          /* since when, with the same completions */
    double disk_done;                       /* its completions then */
};

/* A new state: stalled after stall_s seconds. */
void diskwatch_state_init(struct diskwatch_state *s, double stall_s);
/* Is it time to read the guest's /proc/diskstats: a disk that completed
 * requests while watched has completed none for a third of stall_s (one
 * that never did: for stall_s), and the guest was not asked for a third of
 * stall_s? */
bool diskwatch_wants_guest(const struct diskwatch_state *s, double now);
/* One look: the host's disks (n of them; n = 0: libvirt gave nothing, which
 * judges nothing) and, when diskwatch_wants_guest said so, the guest's
 * /proc/diskstats text (NULL: not read). 1 if a disk has stalled -- a disk
 * of the guest has held requests without completing any for stall_s (four
 * looks at it) and a disk on the host has completed nothing for stall_s --
 * with the evidence in why; else 0. */
int diskwatch_judge(struct diskwatch_state *s, double now, const struct diskwatch_disk *host,
                    size_t n, const char *guest_diskstats, char *why, size_t len);

struct diskwatch;

/* A watch on dom (not owned), stalled after stall_s seconds; console: the
 * domain's console log on this machine, or NULL (a remote host's). */
struct diskwatch *diskwatch_new(virDomainPtr dom, double stall_s, const char *console);
/* Look if it is time to (call it as often as you like): 1 if the disk has
 * stalled, with the evidence in why; else 0. */
int diskwatch_check(struct diskwatch *w, char *why, size_t len);
void diskwatch_free(struct diskwatch *w);

#endif
