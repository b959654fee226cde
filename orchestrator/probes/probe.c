/* probe.c: what the probes share (see probe.h): a failure's reason, and
 * the state of a run's probes. */
#include "probes/probe.h"


#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int probe_fail(struct probe_target *pt, const char *fmt, ...)
{
    if (!pt->why[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pt->why, sizeof(pt->why), fmt, ap);
        va_end(ap);
    }
    return -1;
}

void probe_run_init(struct probe_run *r)
{
    *r = (struct probe_run){0};
    pthread_mutex_init(&r->lock, NULL);
}

void probe_run_free(struct probe_run *r)
{
    free(r->readings);
    r->readings = NULL;
    r->n_readings = 0;
    pthread_mutex_destroy(&r->lock);
}
