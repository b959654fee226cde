/* workloads/registry.c: the `workload` key's values and their
 * implementations (see workload.h). */
#include "workloads/workload.h"

#include "scenario/keys.h"

const struct workload_ops *workload_ops_for(int workload)
{
    switch (workload) {
    case WL_SEQ_WRITE:
        return &workload_seq_write;
    case WL_SEQ_READ:
        return &workload_seq_read;
    case WL_TAR_EXTRACT:
        return &workload_tar_extract;
    default:
        return &workload_sysbench_oltp;
    }
}
