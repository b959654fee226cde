/* hostrun.h: one run of the host arm (hostrun.c): its private mariadbd on
 * its host, the experiment on it, then stopped and removed whatever
 * happened. */
#ifndef VBED_EXPERIMENT_HOSTRUN_H
#define VBED_EXPERIMENT_HOSTRUN_H

#include "experiment/run.h"

/* 0 if the run completed, -1 if it failed (said why). */
int hostrun_execute(struct run *run);

#endif
