/* workloads/fio.h: fio 3.33's command line for one sequential job, and its
 * JSON output (--output-format=json) read with json-c.
 *
 * One job named "vbed" on one file: --rw=write|read, --bs=block_size,
 * --size=io_size, --ioengine=psync, --direct=0|1, and for writes
 * --end_fsync=1 (fio counts the final fsync in the job's runtime, so its
 * bandwidth is that of data on the disk). Real outputs captured on the
 * development machine: tests/data/fio/. */
#ifndef VBED_FIO_H
#define VBED_FIO_H

#include "scenario/keys.h"

#include <stdbool.h>
#include <stddef.h>

#define FIO_ARGV_MAX 16

struct fio_cmdline {
    const char *argv[FIO_ARGV_MAX];
    char store[1024 + 4096];
};

/* fio's argv (strings in c->store) for a sequential write or read of file.
 * 0, or -1 if file is too long for the store (the caller reports it). */
int fio_cmdline(struct fio_cmdline *c, const struct run_config *cfg, bool write, const char *file);

/* fio's argv for n random reads of bs bytes of an existing file, read-only,
 * direct (O_DIRECT) or through the page cache; never invalidating the page
 * cache first (--invalidate=0: a buffered job reads what is cached), the
 * same offsets every time (--randrepeat=1). 0, or -1 if file does not fit. */
int fio_randread_cmdline(struct fio_cmdline *c, const char *file, long long bs, bool direct, int n);

/* fio's argv for n random writes of bs bytes into file, direct (O_DIRECT)
 * or through the page cache, without an fsync (what a page write costs its
 * writer); fio lays out the file (size bytes) first where it is not yet
 * there, and n = 0 does only that (--create_only). unlink: the file is
 * removed after the job. The same offsets every time. 0, or -1 if file
 * does not fit. */
int fio_randwrite_cmdline(struct fio_cmdline *c, const char *file, long long bs, long long size,
                          bool direct, int n, bool unlink);

struct fio_result {
    bool write;                /* the direction that moved the bytes */
    long long io_bytes;
    double runtime_s;          /* the job's runtime (end fsync included) */
    double mb_s;               /* bw_bytes / 1e6: decimal megabytes a second */
    double iops;
    double lat_mean_ms;        /* total latency of one block: submission + completion */
    double cpu_ms;             /* the job thread's user + system CPU over its runtime (fio's
                                  usr_cpu and sys_cpu, % of it); NAN where not reported */
    double clat_p50_ms, clat_p95_ms, clat_p99_ms, clat_p999_ms; /* completion latency */
    bool have_percentiles;
    char version[32];          /* "fio-3.33" */
};

/* Parse fio's JSON report from text (leading and trailing non-JSON text,
 * such as fio's warnings, is skipped). -1 with a reason in err when it is
 * missing, malformed, holds an impossible figure, or reports an error. */
int fio_parse(const char *text, struct fio_result *out, char *err, size_t errlen);

#endif
