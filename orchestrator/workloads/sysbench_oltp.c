/* workloads/sysbench_oltp.c: sysbench OLTP (oltp_read_only, oltp_read_write,
 * oltp_write_only, oltp_point_select) as a workload. Its phases are the
 * experiment's own and unchanged (experiment.c: prepare with the
 * compression check, measure, the common window; warmup.c: warmup = auto);
 * the command lines and the parser are workload.c's. */
#include "workloads/workload.h"

#include "experiment/phase.h"

static const struct workload_metric metrics[] = {
    {"tps", "tx/s"},           {"qps", "q/s"},          {"latency_avg_ms", "ms"},
    {"latency_p95_ms", "ms"},  {"latency_max_ms", "ms"}, {"transactions", "count"},
    {"tps_interval", "tx/s"},  {NULL, NULL},
};

const struct workload_ops workload_sysbench_oltp = {
    .name = "sysbench-oltp",
    .headline = "tps_arm",
    .headline_unit = "tx/s",
    .metrics = metrics,
    .needs_db = true,
    .prepare = phase_sysbench_prepare,
    .warmup = phase_warmup,
    .measure = phase_sysbench_measure,
    .record = phase_sysbench_record,
    .free_state = NULL, /* experiment.c frees the sysbench reports */
};
