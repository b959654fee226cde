/* workloads/seqio.c: seq_write and seq_read, fio 3.33 sequential I/O on one
 * file in the target's I/O directory (io.h), fio.h's command line and
 * parser.
 *
 *   prepare   seq_write: the directory, no old file. seq_read: the file
 *             written once with the same job (fio-prepare.json), then a
 *             guest's own page cache dropped (the host's is dropped by the
 *             experiment when drop_caches = yes) so the reads reach the disk
 *             unless the host caches them
 *   measure   one fio job per target, all started together; fio.json
 *
 * Samples per target: mb_s, io_bytes, io_runtime_s, iops, latency_avg_ms,
 * clat_p50_ms, clat_p95_ms, clat_p99_ms, clat_p999_ms. */
#include "workloads/workload.h"

#include "workloads/fio.h"
#include "workloads/io.h"
#include "util/log.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

static void data_file(const struct target *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s/vbed-fio.dat", t->io_dir);
}

static int prepare_dir(struct wl_job *j)
{
    char file[PATH_MAX + 16];
    data_file(j->t, file, sizeof(file));
    const char *mk[] = {"mkdir", "-p", j->t->io_dir, NULL};
    const char *rm[] = {"rm", "-f", file, NULL};
    if (io_run(j, mk, "io-prepare.out", "mkdir of the I/O directory") < 0 ||
        io_run(j, rm, "io-prepare.out", "removing an old data file") < 0)
        return -1;
    return 0;
}

static int prepare_write(struct wl_job *j) { return prepare_dir(j); }

static int prepare_read(struct wl_job *j)
{
    if (prepare_dir(j) < 0)
        return -1;
    char file[PATH_MAX + 16];
    data_file(j->t, file, sizeof(file));
    struct fio_cmdline c;
    if (fio_cmdline(&c, j->cfg, true, file) < 0)
        return wl_fail(j, "fio's command line for '%.200s' in %s does not fit", file, j->t->name);
    if (io_run(j, c.argv, "fio-prepare.json", "fio's write of the file to read") < 0)
        return -1;
    if (j->t->own_kernel) {
        const char *drop[] = {"sh", "-c", "sync && echo 3 > /proc/sys/vm/drop_caches", NULL};
        if (io_run(j, drop, "io-prepare.out", "dropping the guest's page cache") < 0)
            return -1;
    }
    return 0;
}

static void add(struct wl_job *j, const char *metric, double v, const char *unit, double ts)
{
    samples_add(j->samples, metric, v, unit, j->t->guest, j->t->out_path, ts, NULL);
}

static int measure(struct wl_job *j, bool write)
{
    char file[PATH_MAX + 16];
    data_file(j->t, file, sizeof(file));
    struct fio_cmdline c;
    int fits = fio_cmdline(&c, j->cfg, write, file);
    /* released with the others even when failing: they wait for it */
    wl_together(j);
    if (fits < 0)
        return wl_fail(j, "fio's command line for '%.200s' in %s does not fit", file, j->t->name);
    if (io_run(j, c.argv, "fio.json", write ? "fio's sequential write" : "fio's sequential read") < 0)
        return -1;
    char *text = target_output(j->t);
    char err[256];
    struct fio_result r;
    if (!text || fio_parse(text, &r, err, sizeof(err)) < 0) {
        free(text);
        return wl_fail(j, "cannot read fio's report from %s: %s", j->t->out_path,
                          text ? err : "no output");
    }
    free(text);
    if (r.write != write)
        return wl_fail(j, "fio's report in %s is of a %s, not a %s", j->t->out_path,
                          r.write ? "write" : "read", write ? "write" : "read");
    struct io_result *res = xcalloc(1, sizeof(*res));
    res->mb_s = r.mb_s;
    res->seconds = r.runtime_s;
    res->bytes = r.io_bytes;
    res->ts = j->t->started + r.runtime_s;
    j->state = res;
    const struct target *t = j->t;
    add(j, "mb_s", r.mb_s, "MB/s", res->ts);
    add(j, "io_bytes", (double)r.io_bytes, "bytes", res->ts);
    add(j, "io_runtime_s", r.runtime_s, "s", res->ts);
    add(j, "iops", r.iops, "1/s", res->ts);
    add(j, "latency_avg_ms", r.lat_mean_ms, "ms", res->ts);
    if (r.have_percentiles) {
        add(j, "clat_p50_ms", r.clat_p50_ms, "ms", res->ts);
        add(j, "clat_p95_ms", r.clat_p95_ms, "ms", res->ts);
        add(j, "clat_p99_ms", r.clat_p99_ms, "ms", res->ts);
        add(j, "clat_p999_ms", r.clat_p999_ms, "ms", res->ts);
    }
    log_info("%s: %s %.1f MB/s (%lld bytes in %.2f s, %s)", t->name, write ? "wrote" : "read",
             r.mb_s, r.io_bytes, r.runtime_s, r.version);
    return 0;
}

static int measure_write(struct wl_job *j) { return measure(j, true); }
static int measure_read(struct wl_job *j) { return measure(j, false); }

static int parse(const char *text, double *figure, char *err, size_t errlen)
{
    struct fio_result r;
    if (fio_parse(text, &r, err, errlen) < 0)
        return -1;
    *figure = r.mb_s;
    return 0;
}

static const struct workload_metric metrics[] = {
    {"mb_s", "MB/s"},          {"io_bytes", "bytes"},   {"io_runtime_s", "s"},
    {"iops", "1/s"},           {"latency_avg_ms", "ms"}, {"clat_p50_ms", "ms"},
    {"clat_p95_ms", "ms"},     {"clat_p99_ms", "ms"},   {"clat_p999_ms", "ms"},
    {NULL, NULL},
};

static const char *const write_values[] = {"seq_write", NULL};
static const char *const read_values[] = {"seq_read", NULL};

const struct workload_ops workload_seq_write = {
    .name = "seq_write",
    .values = write_values,
    .headline = "mbps_arm",
    .headline_unit = "MB/s",
    .metrics = metrics,
    .needs_db = false,
    .prepare = prepare_write,
    .warmup = NULL,
    .measure = measure_write,
    .record = io_record_arm,
    .free_state = io_free_state,
    .parse = parse,
};

const struct workload_ops workload_seq_read = {
    .name = "seq_read",
    .values = read_values,
    .headline = "mbps_arm",
    .headline_unit = "MB/s",
    .metrics = metrics,
    .needs_db = false,
    .prepare = prepare_read,
    .warmup = NULL,
    .measure = measure_read,
    .record = io_record_arm,
    .free_state = io_free_state,
    .parse = parse,
};

WORKLOAD_REGISTER(workload_seq_write)
WORKLOAD_REGISTER(workload_seq_read)
