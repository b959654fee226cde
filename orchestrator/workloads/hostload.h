/* hostload.h: what host-prepare (experiment/hostprepare.h) asks of the
 * workload before it loads the guests' tables on this machine: which guest
 * arms will copy tables, whether this machine's MariaDB and sysbench are
 * the image's (their package versions: then a private mariadbd here makes
 * the very files a guest's would), and whether the shared cache holds
 * root's valid copy already (prepared.h). */
#ifndef VBED_WORKLOADS_HOSTLOAD_H
#define VBED_WORKLOADS_HOSTLOAD_H

#include "scenario/keys.h"

#include <json-c/json.h>

#include <stdbool.h>
#include <stddef.h>

/* prepare = auto: tables of fewer rows than this are not loaded here (a
 * guest loads them in a few seconds even under TCG: 2,000 rows in 1.3-2.3
 * s; the host in well under PREPARED_PAYS_HOST_S, so its copy would not be
 * taken) */
#define PREPARED_HOST_ROWS 20000

/* A guest arm of cfg copies sysbench's tables: a sysbench OLTP workload
 * with tables, prepare = copy, or auto from PREPARED_HOST_ROWS rows. */
bool hostload_wanted(const struct run_config *cfg);

/* This machine's MariaDB and sysbench are the image's (manifest: the
 * image's manifest.json; the mariadb-server packages' versions agree, and
 * sysbench's): its server's VERSION() into version, the one the guests'
 * copies are keyed by. Else false, why said. */
bool hostload_matches_image(const char *manifest, char *version, size_t len, char *why, size_t wlen);

/* `sysbench --version`'s first line ("sysbench 1.0.20") names the upstream
 * version of the package version ("1.0.20+ds-5"; an epoch "N:" before, a
 * Debian suffix after '+', '-' or '~'). */
bool hostload_same_sysbench(const char *says, const char *package);

/* The server's VERSION() from `mariadbd --version`'s first line
 * ("mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu ...")
 * into buf: printable, no space. 0, or -1 if it names none that fits. */
int hostload_mariadbd_version(const char *says, char *buf, size_t len);

/* The shared cache (prepared_dir) holds root's valid copy of cfg's
 * tables for a server of that version (prepared.h's checks). */
bool hostload_cached(const char *prepared_dir, const struct run_config *cfg, const char *version);

/* The versions of the workload's tools, here and (manifest, may be NULL) in
 * the image, into the object into: "sysbench_host", "sysbench_guest" (for
 * meta.json's "versions"); a version that cannot be read is left out. */
void hostload_versions(const char *manifest, json_object *into);

#endif
