/* runner.h: execute a plan: image, pool, every run, cleanup on any exit.
 *
 * Runs go one after another, repeat by repeat; the guests of one run are
 * started together and waited for in parallel (a thread each). Whatever
 * happens -- a failed guest, a timeout, SIGINT or SIGTERM -- every domain
 * of the run is destroyed and its volumes deleted (unless --keep) before
 * the next run or the exit. */
#ifndef VBED_RUNNER_H
#define VBED_RUNNER_H

#include "experiment/run.h"
#include "scenario/plan.h"

#include <stdbool.h>

/* An exit code (exitcode.h). */
int runner_execute(const struct plan *p, const struct runner_opts *o);

#endif
