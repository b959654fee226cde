/* io.c: what the raw I/O workloads share (see io.h). */
#include "workloads/io.h"

#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>

int io_run(struct wl_job *j, const char *const argv[], const char *out_name, const char *what)
{
    int exitcode = -1;
    long limit = (long)j->cfg->timeout_prepare;
    if (target_start(j->t, argv, NULL, out_name) < 0 || target_wait(j->t, limit, 200, &exitcode) < 0)
        return wl_fail(j, "%s did not complete in %s within %ld s (timeout_prepare)", what, j->t->name,
                       limit);
    if (exitcode != 0)
        return wl_fail(j, "%s failed in %s (exit %d); see %s", what, j->t->name, exitcode, j->t->out_path);
    return 0;
}

int io_record_arm(struct wl_run *r, int rc, double *headline)
{
    double sum = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct io_result *res = r->jobs[i].state;
        if (!res)
            return rc == 0 ? wl_run_fail(r, "%s has no result", r->jobs[i].t->name) : rc;
        sum += res->mb_s;
    }
    if (rc == 0) {
        *headline = sum;
        samples_add(r->jobs[0].samples, "mbps_arm", sum, "MB/s", 0, NULL, 0, NULL);
        log_info("measured %.1f MB/s in %zu target%s", sum, r->n, r->n == 1 ? "" : "s");
    }
    return rc;
}

void io_free_state(struct wl_job *j)
{
    free(j->state);
    j->state = NULL;
}
