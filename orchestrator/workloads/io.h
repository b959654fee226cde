/* io.h: what the raw I/O workloads (seqio.c, tar_extract.c) share:
 * running one program on a target within the prepare limit, and the
 * arm's headline in MB/s. The directory they write in is the target's
 * io_dir (targets/target.h). Internal to workloads/. */
#ifndef VBED_WORKLOADS_IO_H
#define VBED_WORKLOADS_IO_H

#include "workloads/workload.h"

#include <stddef.h>

/* Run argv on the target (output to out_name) within timeout_prepare;
 * -1 after wl_fail (what names the step). */
int io_run(struct wl_job *j, const char *const argv[], const char *out_name, const char *what);

/* per-target result of a raw I/O workload (the job's state) */
struct io_result {
    double mb_s, seconds;
    long long bytes;
    double ts;     /* UNIX time the figure is of */
};
/* The headline: the sum over targets of their MB/s, as mbps_arm; a target
 * without a result fails the arm. */
int io_record_arm(struct wl_run *r, int rc, double *headline);
void io_free_state(struct wl_job *j);

#endif
