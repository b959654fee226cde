/* hostprepare.h: the guests' tables loaded natively on this machine, once,
 * before the first run (workloads/prepared.h).
 *
 * Loading sysbench's tables is the longest step before a guest measures
 * anything (100,000 compressed rows: 67-120 s in a guest under TCG, 5 s in
 * a private mariadbd here). Where this machine's MariaDB and sysbench are
 * the image's (their package versions, checked), the tables a guest arm
 * will copy (workloads/hostload.h: prepare = copy, or auto from enough rows) and the
 * cache does not hold yet are loaded by a private mariadbd -- the host
 * arm's machinery (targets/hostarm.h), the whole host, not confined, the
 * arm's my.cnf with a fixed pool -- which leaves the copy in the image
 * cache and is stopped and removed. Then no guest loads; the experiment's
 * order (shuffled) does not decide which arm pays for the load.
 *
 * It measures nothing: its raw logs and the prepare's own samples go to
 * host-prepare/ in the results directory, what it did to meta.json's
 * "host_prepare". A failure is a warning (the first guest loads then). */
#ifndef VBED_EXPERIMENT_HOSTPREPARE_H
#define VBED_EXPERIMENT_HOSTPREPARE_H

#include "experiment/run.h"

#include <stdbool.h>
#include <stddef.h>


/* At most this many sets of tables are loaded here before a run (a plan
 * that sweeps more table sizes loads the others in its first guests) */
#define HOSTPREPARE_MAX 8

/* Every set of tables the plan's guest arms will copy, loaded here unless
 * the cache holds it. */
void hostprepare_run(struct runner *r);

#endif
