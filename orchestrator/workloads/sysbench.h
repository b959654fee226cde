/* sysbench.h: sysbench 1.0.20 command lines and what sysbench prints.
 *
 * sysbench runs vbed_oltp.lua (shipped in the guest image recipe), which
 * takes the bundled OLTP script and the table options from the
 * environment: VBED_WORKLOAD and VBED_TABLE_OPTIONS (see mycnf.h) -- the
 * route by which compressed tables are created by sysbench's own prepare.
 * Golden/real outputs: tests/data/sysbench/. */
#ifndef VBED_WORKLOADS_SYSBENCH_H
#define VBED_WORKLOADS_SYSBENCH_H

#include "scenario/keys.h"

#include <stddef.h>

enum workload_cmd { WORKLOAD_PREPARE, WORKLOAD_RUN };

#define WORKLOAD_ARGV_MAX 24
#define WORKLOAD_ENV_MAX 3

/* sysbench's argv for cmd, run length seconds (WORKLOAD_RUN), the lua
 * wrapper's path and the server's socket on the machine that runs it.
 * Strings live in store (keep it alive while argv is used): room for two
 * paths of PATH_MAX and the rest. 0, or -1 if they do not fit (a path from
 * a remote host's reply, say): the caller reports it. */
struct workload_cmdline {
    const char *argv[WORKLOAD_ARGV_MAX];
    const char *env[WORKLOAD_ENV_MAX];
    char store[2 * 4096 + 1024];
};
int workload_cmdline(struct workload_cmdline *c, const struct run_config *cfg, enum workload_cmd cmd,
                     long long seconds, const char *lua, const char *socket);

struct sysbench_interval {
    double t;          /* end of the interval, seconds since the run started */
    int threads;
    double tps, qps, qps_read, qps_write, qps_other;
    double lat_p95_ms; /* 0 when sysbench printed none */
    double errors_per_s, reconnects_per_s;
};

struct sysbench_report {
    double tps, qps, qps_read, qps_write, qps_other;
    double errors_per_s, reconnects_per_s;
    double lat_min_ms, lat_avg_ms, lat_max_ms, lat_p95_ms;
    double total_time_s;
    long long transactions;
    struct sysbench_interval *intervals;
    size_t n_intervals;
};

/* Parse sysbench's output of a run. -1 (with a reason in err) when the
 * final report is missing or malformed; the intervals are kept anyway. */
int sysbench_parse(const char *text, struct sysbench_report *out, char *err, size_t errlen);
void sysbench_report_free(struct sysbench_report *r);

#endif
