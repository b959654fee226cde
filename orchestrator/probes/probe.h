/* probe.h: the probes layer -- the counters at every layer of a target's
 * path, read just before and just after the measure phase and written as
 * samples of what changed over it; and the counters that exist only while
 * the workload runs (its threads, its connections), read at two instants
 * inside the measure phase ("during"). One file per source:
 *
 *   innodb.c      InnoDB's status variables and INNODB_CMP (a server)
 *   guest.c       the guest kernel through its agent: the data disk's
 *                 /proc/diskstats, /proc/stat (and so the guest's steal
 *                 time), /proc/meminfo, fincore of the tables
 *   hypervisor.c  libvirt's domain stats: the data disk's requests, bytes
 *                 and times, QEMU's CPU, the vCPUs' time and delay
 *   hostdev.c     the host block device under the target's data, on its
 *                 host (read once per host and directory, not per target)
 *   process.c     the CPU that executes the workload (a guest's QEMU; the
 *                 host arm's mariadbd and its programs) and the host arm's
 *                 mariadbd I/O
 *   chain.c       the foreground chain -- sysbench's worker threads and
 *                 their connection threads in mariadbd -- in exclusive
 *                 states: on-CPU, run queue, block I/O (schedstat, delay
 *                 accounting, which it turns on for the phase), read
 *                 during the phase on the target's own kernel
 *   perfschema.c  performance_schema's per-thread sums for the benchmark's
 *                 connections (reads of the data files, the commit stage,
 *                 synch waits, statements), read during the phase
 *   tasks.c       a guest's CPU by the tasks that ran it (page cleaner,
 *                 InnoDB's task pool, kernel threads ...), read during the
 *                 phase
 *
 * A probe decides itself whether a target has what it reads (a guest's
 * domain, a server); the experiment only calls probes_before, probes_after
 * and probes_record for every target, and probes_during twice per target
 * while the workload's program runs: at instant 0, a little after the
 * measured program started, and instant 1, a little before it ends
 * (experiment.c says when), from a thread of its own. Adding a source is a file and a line
 * in registry.c. Values that could not be read are absent -- never a 0 that
 * was not measured (layers.h). It may call targets/, virt/, image/,
 * hostside/, report/, model/, results/, scenario/ and util/.
 *
 * Threads: a probe_target is used by one thread at a time: the
 * experiment's thread for that target, and while the workload measures,
 * the during thread for that target (which alone calls probes_during; the
 * target's own thread is then in the workload's measure and touches no
 * probe). What probes share across targets (probe_run) has its own lock. */
#ifndef VBED_PROBES_PROBE_H
#define VBED_PROBES_PROBE_H

#include "probes/layers.h"
#include "results/samples.h"
#include "scenario/keys.h"
#include "targets/target.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>

#define PROBES_MAX 8

/* A block device's counters on a host, read once for every target that
 * keeps its data in dir there (hostdev.c). */
struct probe_host_reading {
    struct hostside *hs;
    char dir[PATH_MAX];
    int when;             /* 0 before, 1 after */
    bool ok;
    struct diskstat d;
};

/* What the probes of one run share: readings that are per host, not per
 * target; and what the run learns about its platform (for meta.json). */
struct probe_run {
    pthread_mutex_t lock;
    struct probe_host_reading *readings; /* hostdev.c's */
    size_t n_readings;
    char hypervisor_fields[512]; /* the stats libvirt offered, as the first guest saw them */
};

/* One target's probes over one measure phase. */
struct probe_target {
    struct target *t;
    const struct run_config *cfg;
    bool needs_db;         /* the workload runs on a database: InnoDB's counters are read */
    bool first;            /* the run's first target */
    struct probe_run *run;
    int when;              /* 0 before, 1 after the phase (while reading) */
    bool after_ok;         /* read after the phase: deltas can be given */
    bool read_ahead;       /* probes_during_ahead read its probes' instant 0 */
    char why[256];         /* the first failure (probe_fail) */
    void *state[PROBES_MAX];
};

struct probe {
    const char *name;
    /* read before the phase (may keep state); -1 fails the run (reported):
     * only for counters the run cannot do without */
    int (*before)(struct probe_target *pt, void **state);
    /* read after it */
    int (*after)(struct probe_target *pt, void *state);
    /* read at instant k (0, 1) inside the phase while the workload's
     * program runs (target_program_pid); NULL: nothing to read then.
     * Failures leave the figures absent. */
    void (*during)(struct probe_target *pt, void *state, int k);
    /* its instant-0 reading needs none of the workload's threads or
     * connections: it may be taken ahead (probes_during_ahead), so that
     * its work -- the tasks scan takes 0.4-2 s of a TCG guest's one vCPU --
     * falls before the intervals of the probes read at instant 0 */
    bool ahead;
    /* samples; layers: the layer counters too (the workload measured here) */
    void (*record)(struct probe_target *pt, void *state, struct samples *s, bool layers);
    void (*free)(void *state);
};

/* Keep the first reason a probe fails the run in pt->why; -1. */
int probe_fail(struct probe_target *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void probe_run_init(struct probe_run *r);
void probe_run_free(struct probe_run *r);

/* every probe, in registry order; -1 if one failed (the rest still read) */
int probes_before(struct probe_target *pt);
int probes_after(struct probe_target *pt);
/* instant k of the phase (see above). The readings nest: instant 0 reads
 * the registry backwards, instant 1 forwards, so each probe's interval
 * holds the intervals of the probes listed before it and none of their
 * readings' work: the chain's interval (the connection thread's states)
 * holds neither the tasks scan nor performance_schema's query at either
 * end, and the vCPUs' time and delay are read next to it, inside. */
void probes_during(struct probe_target *pt, int k);
/* instant 0 of the probes marked ahead, before probes_during(pt, 0) (which
 * then skips them) */
void probes_during_ahead(struct probe_target *pt);
/* The position in the registry of the j-th probe read at instant k of n:
 * instant 0 backwards, instant 1 forwards (nested intervals). */
size_t probes_during_index(int k, size_t j, size_t n);
/* The i-th probe's name in the registry, NULL past its end. */
const char *probes_name(size_t i);
void probes_record(struct probe_target *pt, struct samples *s, bool layers);
void probes_free(struct probe_target *pt);

/* the probes of registry.c */
extern const struct probe probe_innodb, probe_guest, probe_hypervisor, probe_hostdev, probe_process,
    probe_chain, probe_perfschema, probe_tasks;

#endif
