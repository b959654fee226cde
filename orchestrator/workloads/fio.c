/* workloads/fio.c: fio's command line and JSON report (see fio.h). */
#include "workloads/fio.h"
#include "util/strstore.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c->store holds the strings of c->argv */
#define keep(c, used, ...) strstore_printf((c)->store, sizeof((c)->store), (used), __VA_ARGS__)

/* JSON output, the end of argv; -1 (and c cleared) when a string did not
 * fit the store */
static int finish(struct fio_cmdline *c, size_t i, size_t used)
{
    c->argv[i++] = "--output-format=json";
    c->argv[i] = NULL;
    if (strstore_overflowed(used, sizeof(c->store))) {
        memset(c, 0, sizeof(*c));
        return -1;
    }
    return 0;
}

int fio_cmdline(struct fio_cmdline *c, const struct run_config *cfg, bool write, const char *file)
{
    size_t used = 0, i = 0;
    memset(c, 0, sizeof(*c));
    c->argv[i++] = "fio";
    c->argv[i++] = "--name=vbed";
    c->argv[i++] = keep(c, &used, "--filename=%s", file);
    c->argv[i++] = write ? "--rw=write" : "--rw=read";
    c->argv[i++] = keep(c, &used, "--bs=%lld", cfg->block_size);
    c->argv[i++] = keep(c, &used, "--size=%lld", cfg->io_size);
    c->argv[i++] = "--ioengine=psync";
    c->argv[i++] = cfg->direct ? "--direct=1" : "--direct=0";
    if (write)
        c->argv[i++] = "--end_fsync=1";
    return finish(c, i, used);
}

int fio_randread_cmdline(struct fio_cmdline *c, const char *file, long long bs, bool direct, int n)
{
    size_t used = 0, i = 0;
    memset(c, 0, sizeof(*c));
    c->argv[i++] = "fio";
    c->argv[i++] = "--name=vbed";
    c->argv[i++] = keep(c, &used, "--filename=%s", file);
    c->argv[i++] = "--readonly";
    c->argv[i++] = "--rw=randread";
    c->argv[i++] = keep(c, &used, "--bs=%lld", bs);
    c->argv[i++] = keep(c, &used, "--number_ios=%d", n);
    c->argv[i++] = "--ioengine=psync";
    c->argv[i++] = direct ? "--direct=1" : "--direct=0";
    c->argv[i++] = "--invalidate=0";
    c->argv[i++] = "--randrepeat=1";
    return finish(c, i, used);
}

int fio_randwrite_cmdline(struct fio_cmdline *c, const char *file, long long bs, long long size,
                          bool direct, int n, bool unlink)
{
    size_t used = 0, i = 0;
    memset(c, 0, sizeof(*c));
    c->argv[i++] = "fio";
    c->argv[i++] = "--name=vbed";
    c->argv[i++] = keep(c, &used, "--filename=%s", file);
    c->argv[i++] = "--rw=randwrite";
    c->argv[i++] = keep(c, &used, "--bs=%lld", bs);
    c->argv[i++] = keep(c, &used, "--size=%lld", size);
    c->argv[i++] = n > 0 ? keep(c, &used, "--number_ios=%d", n) : "--create_only=1";
    c->argv[i++] = "--ioengine=psync";
    c->argv[i++] = direct ? "--direct=1" : "--direct=0";
    c->argv[i++] = "--randrepeat=1";
    if (unlink)
        c->argv[i++] = "--unlink=1";
    return finish(c, i, used);
}

/* a number member of o, or NAN */
static double num(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return NAN;
    json_type t = json_object_get_type(v);
    if (t != json_type_int && t != json_type_double)
        return NAN;
    return json_object_get_double(v);
}

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v) || json_object_get_type(v) != json_type_object)
        return NULL;
    return v;
}

static bool sane(double v) { return isfinite(v) && v >= 0 && v <= 1e18; }

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* fio's JSON object in text: from the first '{' that opens a line */
static const char *json_start(const char *text)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n')) {
        if (*p == '\n')
            p++;
        if (*p == '{')
            return p;
    }
    return NULL;
}

static int parse_job(json_object *job, struct fio_result *out, char *err, size_t errlen)
{
    double error = num(job, "error");
    if (!isfinite(error))
        return fail(err, errlen, "fio's job has no error field");
    if (error != 0 && error > 0 && error < 4096 && error == (int)error)
        return fail(err, errlen, "fio reported error %d (%s)", (int)error, strerror((int)error));
    if (error != 0) /* not an errno: a malformed report (found by fuzz_fio) */
        return fail(err, errlen, "fio reported error %g", error);
    json_object *rd = member(job, "read"), *wr = member(job, "write");
    if (!rd || !wr)
        return fail(err, errlen, "fio's job lacks its read or write figures");
    double rbytes = num(rd, "io_bytes"), wbytes = num(wr, "io_bytes");
    if (!sane(rbytes) || !sane(wbytes))
        return fail(err, errlen, "fio's io_bytes is missing or impossible");
    out->write = wbytes > 0;
    json_object *op = out->write ? wr : rd;
    double bytes = out->write ? wbytes : rbytes;
    if (bytes <= 0)
        return fail(err, errlen, "fio moved no bytes");
    double runtime_ms = num(op, "runtime"), bw = num(op, "bw_bytes"), iops = num(op, "iops");
    json_object *lat = member(op, "lat_ns");
    double lat_mean = num(lat, "mean");
    if (!sane(runtime_ms) || !sane(bw) || !sane(iops) || !sane(lat_mean))
        return fail(err, errlen, "fio's %s figures are missing or impossible",
                    out->write ? "write" : "read");
    out->io_bytes = (long long)bytes;
    out->runtime_s = runtime_ms / 1000;
    out->mb_s = bw / 1e6;
    out->iops = iops;
    out->lat_mean_ms = lat_mean / 1e6;
    /* percentages of the job's runtime (job_runtime, fio 3.x; the
     * direction's where it is absent); one thread is never on two CPUs */
    double usr = num(job, "usr_cpu"), sys = num(job, "sys_cpu"), job_ms = num(job, "job_runtime");
    if (!sane(job_ms) || job_ms <= 0)
        job_ms = runtime_ms;
    out->cpu_ms = sane(usr) && sane(sys) && usr + sys <= 100.5 ? (usr + sys) / 100 * job_ms : NAN;
    json_object *pct = member(member(op, "clat_ns"), "percentile");
    double p50 = num(pct, "50.000000"), p95 = num(pct, "95.000000"), p99 = num(pct, "99.000000"),
           p999 = num(pct, "99.900000");
    if (pct && sane(p50) && sane(p95) && sane(p99) && sane(p999)) {
        out->clat_p50_ms = p50 / 1e6;
        out->clat_p95_ms = p95 / 1e6;
        out->clat_p99_ms = p99 / 1e6;
        out->clat_p999_ms = p999 / 1e6;
        out->have_percentiles = true;
    }
    return 0;
}

int fio_parse(const char *text, struct fio_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    const char *start = json_start(text);
    if (!start)
        return fail(err, errlen, "no JSON report in fio's output");
    json_tokener *tok = json_tokener_new();
    json_object *root = json_tokener_parse_ex(tok, start, (int)strnlen(start, 64 << 20));
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (!root || jerr != json_tokener_success) {
        json_object_put(root);
        return fail(err, errlen, "fio's JSON report is malformed: %s", json_tokener_error_desc(jerr));
    }
    int rc = -1;
    json_object *jobs = NULL, *version = NULL;
    if (json_object_get_type(root) != json_type_object ||
        !json_object_object_get_ex(root, "jobs", &jobs) ||
        json_object_get_type(jobs) != json_type_array || json_object_array_length(jobs) != 1) {
        fail(err, errlen, "fio's JSON report does not hold exactly one job");
        goto cleanup;
    }
    if (json_object_object_get_ex(root, "fio version", &version) &&
        json_object_get_type(version) == json_type_string)
        snprintf(out->version, sizeof(out->version), "%s", json_object_get_string(version));
    json_object *job = json_object_array_get_idx(jobs, 0);
    if (json_object_get_type(job) != json_type_object) {
        fail(err, errlen, "fio's job is not an object");
        goto cleanup;
    }
    rc = parse_job(job, out, err, errlen);
cleanup:
    json_object_put(root);
    return rc;
}

