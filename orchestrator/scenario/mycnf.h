/* mycnf.h: the MariaDB configuration of a run, rendered from its keys.
 *
 * The same text goes to every guest of the run and to the host arm's
 * private mariadbd (whose datadir, socket and pid file are given on its
 * command line, not here), so that the arms differ only where the scenario
 * says they do. Golden files: tests/data/mycnf/. */
#ifndef VBED_MYCNF_H
#define VBED_MYCNF_H

#include "scenario/keys.h"

/* Where a guest's server writes its error log (my.cnf's log_error) */
#define MYCNF_GUEST_ERROR_LOG "/var/log/mysql/error.log"

/* The instruments performance_schema = yes turns on (LIKE patterns; NULL
 * at the end); every other one is off, and no history or digest is kept */
extern const char *const mycnf_ps_instruments[];

/* malloc'd text */
char *mycnf_render(const struct run_config *cfg);

/* Table options that make sysbench create compressed tables ("" for none):
 * ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=n, or PAGE_COMPRESSED=1. */
const char *mycnf_table_options(const struct run_config *cfg, char *buf, unsigned long len);

#endif
