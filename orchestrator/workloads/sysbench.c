/* sysbench.c: build sysbench's command line, parse its output (see sysbench.h). */
#include "workloads/sysbench.h"
#include "util/strstore.h"
#include "util/xalloc.h"

#include "scenario/mycnf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c->store holds the strings of c->argv */
#define keep(c, used, ...) strstore_printf((c)->store, sizeof((c)->store), (used), __VA_ARGS__)

int workload_cmdline(struct workload_cmdline *c, const struct run_config *cfg, enum workload_cmd cmd,
                     long long seconds, const char *lua, const char *socket)
{
    size_t used = 0, i = 0;
    memset(c, 0, sizeof(*c));
    char opts[128];
    c->argv[i++] = "sysbench";
    c->argv[i++] = keep(c, &used, "%s", lua);
    c->argv[i++] = "--db-driver=mysql";
    c->argv[i++] = keep(c, &used, "--mysql-socket=%s", socket);
    c->argv[i++] = "--mysql-user=root";
    c->argv[i++] = "--mysql-db=sbtest";
    c->argv[i++] = keep(c, &used, "--tables=%lld", cfg->tables);
    c->argv[i++] = keep(c, &used, "--table-size=%lld", cfg->table_size);
    c->argv[i++] = keep(c, &used, "--threads=%lld", cfg->threads);
    c->argv[i++] = keep(c, &used, "--rand-type=%s", key_choice("rand_type", cfg->rand_type));
    if (cmd == WORKLOAD_RUN) {
        c->argv[i++] = keep(c, &used, "--time=%lld", seconds);
        c->argv[i++] = "--events=0";
        c->argv[i++] = keep(c, &used, "--report-interval=%lld", cfg->report_interval);
        c->argv[i++] = "--percentile=95";
        c->argv[i++] = "--histogram=off";
        c->argv[i++] = "run";
    } else {
        c->argv[i++] = "prepare";
    }
    c->argv[i] = NULL;
    c->env[0] = keep(c, &used, "VBED_WORKLOAD=%s", key_choice("workload", cfg->workload));
    c->env[1] = keep(c, &used, "VBED_TABLE_OPTIONS=%s", mycnf_table_options(cfg, opts, sizeof(opts)));
    c->env[2] = NULL;
    if (strstore_overflowed(used, sizeof(c->store))) {
        memset(c, 0, sizeof(*c));
        return -1;
    }
    return 0;
}

/* "[ 12s ] thds: 2 tps: 221.73 qps: 4468.49 (r/w/o: 3132.14/890.90/445.45)
 *  lat (ms,95%): 13.22 err/s: 0.00 reconn/s: 0.00" */
static int parse_interval(const char *line, struct sysbench_interval *iv)
{
    memset(iv, 0, sizeof(*iv));
    int n = sscanf(line, "[ %lfs ] thds: %d tps: %lf qps: %lf (r/w/o: %lf/%lf/%lf)", &iv->t,
                   &iv->threads, &iv->tps, &iv->qps, &iv->qps_read, &iv->qps_write, &iv->qps_other);
    if (n != 7)
        return -1;
    const char *p = strstr(line, "lat (ms,95%):");
    if (p)
        iv->lat_p95_ms = strtod(p + strlen("lat (ms,95%):"), NULL);
    if ((p = strstr(line, "err/s:")))
        iv->errors_per_s = strtod(p + 6, NULL);
    if ((p = strstr(line, "reconn/s:")))
        iv->reconnects_per_s = strtod(p + 9, NULL);
    return 0;
}

/* The number after "label" on its line, e.g. "transactions:  1149 (229.57 per sec.)" */
static int field(const char *text, const char *label, double *first, double *per_sec)
{
    const char *p = strstr(text, label);
    if (!p)
        return -1;
    p += strlen(label);
    char *end;
    double v = strtod(p, &end);
    if (end == p)
        return -1;
    if (first)
        *first = v;
    if (per_sec) {
        const char *paren = strchr(end, '(');
        const char *eol = strchr(end, '\n');
        if (!paren || (eol && paren > eol))
            return -1;
        *per_sec = strtod(paren + 1, NULL);
    }
    return 0;
}

int sysbench_parse(const char *text, struct sysbench_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    size_t cap = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        if (line[0] == '[') {
            struct sysbench_interval iv;
            char buf[512];
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
            if (parse_interval(buf, &iv) == 0) {
                if (out->n_intervals == cap) {
                    cap = cap ? cap * 2 : 64;
                    struct sysbench_interval *grown = xrealloc(out->intervals, cap * sizeof(iv));
                    out->intervals = grown;
                }
                out->intervals[out->n_intervals++] = iv;
            }
        }
        line = nl ? nl + 1 : NULL;
    }

    const char *sql = strstr(text, "SQL statistics:");
    if (!sql) {
        snprintf(err, errlen, "no final report ('SQL statistics:') in sysbench's output");
        return -1;
    }
    double read = 0, write = 0, other = 0, trx = 0, dummy;
    if (field(sql, "read:", &read, NULL) < 0 || field(sql, "write:", &write, NULL) < 0 ||
        field(sql, "other:", &other, NULL) < 0 ||
        field(sql, "transactions:", &trx, &out->tps) < 0 ||
        field(sql, "queries:", &dummy, &out->qps) < 0 ||
        field(sql, "ignored errors:", &dummy, &out->errors_per_s) < 0 ||
        field(sql, "reconnects:", &dummy, &out->reconnects_per_s) < 0 ||
        field(sql, "total time:", &out->total_time_s, NULL) < 0) {
        snprintf(err, errlen, "sysbench's final report lacks a figure (SQL or general statistics)");
        return -1;
    }
    const char *lat = strstr(sql, "Latency (ms):");
    if (!lat || field(lat, "min:", &out->lat_min_ms, NULL) < 0 ||
        field(lat, "avg:", &out->lat_avg_ms, NULL) < 0 ||
        field(lat, "max:", &out->lat_max_ms, NULL) < 0 ||
        field(lat, "95th percentile:", &out->lat_p95_ms, NULL) < 0) {
        snprintf(err, errlen, "sysbench's final report lacks its latency figures");
        return -1;
    }
    /* input from a program in a guest: a figure must be a number a run can
     * produce (and the count must fit its integer) */
    const double figures[] = {read, write, other, trx, out->tps, out->qps, out->total_time_s,
                              out->lat_min_ms, out->lat_avg_ms, out->lat_max_ms, out->lat_p95_ms};
    for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
        if (!isfinite(figures[i]) || figures[i] < 0 || figures[i] > 1e18) {
            snprintf(err, errlen, "sysbench's final report holds an impossible figure (%g)",
                     figures[i]);
            return -1;
        }
    }
    out->transactions = (long long)trx;
    if (out->total_time_s > 0) {
        out->qps_read = read / out->total_time_s;
        out->qps_write = write / out->total_time_s;
        out->qps_other = other / out->total_time_s;
    }
    return 0;
}

void sysbench_report_free(struct sysbench_report *r)
{
    if (!r)
        return;
    free(r->intervals);
    r->intervals = NULL;
    r->n_intervals = 0;
}
