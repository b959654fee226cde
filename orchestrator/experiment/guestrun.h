/* guestrun.h: one run of a guest arm (guestrun.c): its guests' disks and
 * domains, started together and waited for in parallel, the experiment in
 * all of them at once, then taken down whatever happened. */
#ifndef VBED_EXPERIMENT_GUESTRUN_H
#define VBED_EXPERIMENT_GUESTRUN_H

#include "experiment/run.h"

/* 0 if the run completed, -1 if it failed (said why). */
int guestrun_execute(struct run *run);

#endif
