/* workloads/io.c: what the raw I/O workloads share (see io.h). */
#include "workloads/io.h"

#include "util/log.h"
#include "util/paths.h"
#include "virt/configdisk.h"

#include <stdio.h>
#include <stdlib.h>

void io_dir(const struct target *t, char *buf, size_t len)
{
    if (t->host)
        path_join(buf, len, t->host->dir, "io");
    else
        snprintf(buf, len, "%s", IO_GUEST_DIR);
}

int io_run(struct job *j, const char *const argv[], const char *out_name, const char *what)
{
    int exitcode = -1;
    long limit = (long)j->e->cfg->timeout_prepare;
    if (target_start(j->t, argv, NULL, out_name) < 0 ||
        target_wait(j->t, limit, 200, &exitcode) < 0)
        return phase_fail(j->e, "%s did not complete in %s within %ld s (timeout_prepare)", what,
                          j->t->name, limit);
    if (exitcode != 0)
        return phase_fail(j->e, "%s failed in %s (exit %d); see %s", what, j->t->name, exitcode,
                          j->t->out_path);
    return 0;
}

int io_record_arm(struct experiment *e, struct measured *m, int rc)
{
    double sum = 0;
    for (size_t i = 0; i < e->n; i++) {
        const struct io_result *r = m[i].result;
        if (!r)
            return rc == 0 ? phase_fail(e, "%s has no result", e->t[i].name) : rc;
        sum += r->mb_s;
    }
    if (rc == 0) {
        e->tps_arm = sum;
        samples_add(e->samples, "mbps_arm", sum, "MB/s", 0, NULL, 0, NULL);
        log_info("measured %.1f MB/s in %zu target%s", sum, e->n, e->n == 1 ? "" : "s");
    }
    return rc;
}

void io_free_state(struct measured *m)
{
    free(m->result);
    m->result = NULL;
}
