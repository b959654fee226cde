/* layers.h: a snapshot of counters at the layers of a target's I/O and CPU
 * path -- what every probe (probe.h) reads before and after the measure
 * phase, written as deltas over that window. The layers, and which probe
 * reads each:
 *
 *   innodb      SHOW GLOBAL STATUS: pages read/written, data reads/writes
 *               and their bytes, fsyncs, row lock waits (innodb.c)
 *   guest       the guest kernel, through its agent: /proc/diskstats of the
 *               data disk, /proc/stat (user, system, iowait, steal),
 *               /proc/meminfo (Cached, Dirty) and how much of the sysbench
 *               tables' files its page cache holds (fincore) (guest.c)
 *   hypervisor  libvirt's domain stats (virDomainListGetStats): the data
 *               disk's rd/wr/fl requests, bytes and times, cpu.time, the
 *               vCPUs' time and delay (waiting for a host CPU) (hypervisor.c)
 *   host        /proc/diskstats of the host block device under the disks
 *               (the pool's directory, the host arm's datadir), the host
 *               arm's mariadbd CPU and I/O (/proc/<pid>/stat, io)
 *               (hostdev.c, process.c)
 *   workload    the CPU that executes it (process.c)
 *
 * A snapshot is a list of named values; a counter that could not be read is
 * not in it, so the sample is absent -- never a 0 that was not measured.
 * Counters are written as after - before; gauges (Cached, Dirty, fincore)
 * as their value after the phase. Parsers take text (fuzz targets call
 * them). Snapshots are filled by one thread each. */
#ifndef VBED_LAYERS_H
#define VBED_LAYERS_H

#include "util/procfs.h"
#include "results/samples.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LAYERS_MAX 64
#define LAYERS_NAME_MAX 40

struct layer_value {
    char name[LAYERS_NAME_MAX]; /* the sample's metric, e.g. "guest_disk_reads" */
    const char *layer;          /* "innodb", "guest", "hypervisor", "host" */
    const char *unit;
    bool gauge;                 /* a level, not a counter: written as its value after */
    char device[32];            /* the block device it counts, as label "device"; "" none */
    double v;
};

struct layer_snapshot {
    struct layer_value v[LAYERS_MAX];
    size_t n;
};

/* Add (or replace) a value; NAN values are not added. */
void layers_set(struct layer_snapshot *s, const char *layer, const char *name, const char *unit,
                bool gauge, double v);
/* The value, or NAN when absent. */
double layers_get(const struct layer_snapshot *s, const char *name);

/* The sum of fincore's "RES" column (bytes, one number a line); -1 if no number. */
int layers_parse_fincore(const char *text, double *bytes);

/* diskstats of one device into the snapshot as <prefix>_reads, ... */
void layers_add_diskstat(struct layer_snapshot *s, const char *layer, const char *prefix,
                         const struct diskstat *d);

/* A probe's two readings */
struct layer_pair {
    struct layer_snapshot before, after;
};

/* Samples: after - before for counters present in both, after for gauges. */
void layers_samples(const struct layer_snapshot *before, const struct layer_snapshot *after,
                    struct samples *samples, int guest);

#endif
