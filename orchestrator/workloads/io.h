/* workloads/io.h: what the raw I/O workloads (seqio.c, tar_extract.c)
 * share: where they write on a target, running one program there, and the
 * arm's headline in MB/s. Internal to workloads/. */
#ifndef VBED_WORKLOADS_IO_H
#define VBED_WORKLOADS_IO_H

#include "experiment/phase.h"

#include <stddef.h>

#include "workloads/workload.h"

/* The directory a target's I/O goes to: IO_GUEST_DIR in a guest, io/ in
 * the host arm's private directory. */
void io_dir(const struct target *t, char *buf, size_t len);
/* Run argv on the target (output to out_name) within the measure limit;
 * -1 after phase_fail (what names the step). */
int io_run(struct job *j, const char *const argv[], const char *out_name, const char *what);

/* per-target result of a raw I/O workload (struct measured's result) */
struct io_result {
    double mb_s, seconds;
    long long bytes;
    double ts;     /* UNIX time the figure is of */
};
/* The headline: the sum over targets of their MB/s, as mbps_arm and
 * e->tps_arm; a target without a result fails the arm. */
int io_record_arm(struct experiment *e, struct measured *m, int rc);
void io_free_state(struct measured *m);

#endif
