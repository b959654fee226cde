/* hostprepare.h: the guests' tables loaded natively on this machine, once,
 * before the first run (workloads/prepared.h).
 *
 * Loading sysbench's tables is the longest step before a guest measures
 * anything (100,000 compressed rows: 67-120 s in a guest under TCG, 5 s in
 * a private mariadbd here). Where this machine's MariaDB and sysbench are
 * the image's (their package versions, checked), the tables a guest arm
 * will copy (prepare = copy, or auto from PREPARED_HOST_ROWS rows) and the
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

/* prepare = auto: tables of fewer rows than this are not loaded here (a
 * guest loads them in a few seconds even under TCG: 2,000 rows in 1.3-2.3
 * s; the host in well under PREPARED_PAYS_HOST_S, so its copy would not be
 * taken) */
#define PREPARED_HOST_ROWS 20000

/* At most this many sets of tables are loaded here before a run (a plan
 * that sweeps more table sizes loads the others in its first guests) */
#define HOSTPREPARE_MAX 8

/* Every set of tables the plan's guest arms will copy, loaded here unless
 * the cache holds it. */
void hostprepare_run(struct runner *r);

/* `sysbench --version`'s first line ("sysbench 1.0.20") names the upstream
 * version of the package version ("1.0.20+ds-5"; an epoch "N:" before, a
 * Debian suffix after '+', '-' or '~'). */
bool hostprepare_same_sysbench(const char *says, const char *package);

/* The server's VERSION() from `mariadbd --version`'s first line
 * ("mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu ...")
 * into buf: printable, no space. 0, or -1 if it names none that fits. */
int hostprepare_mariadbd_version(const char *says, char *buf, size_t len);

#endif
