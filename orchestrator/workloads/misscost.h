/* misscost.h: what one buffer-pool miss costs a statement on a target's
 * own path, measured once the measure phase is over.
 *
 * A miss is more than its read: on a compressed table it decompresses the
 * page, it takes a free frame from the LRU (flushing a dirty one first),
 * and under emulation every step of the guest kernel's read path is CPU.
 * The budget (model/gap.c) cannot see that cost -- it is CPU and run-queue
 * time like any other -- so a prediction that only moves the read's wait
 * misses most of what a larger pool wins back. This probe measures it
 * directly, in one client session on the target's server, in
 * MISSCOST_PASSES passes of two lookups of sbtest1's rows:
 *
 *   cold  SELECT ... WHERE id IN (n ids spread over the whole table, new
 *         each pass): n lookups, most of them on pages the pool does not
 *         hold
 *   hot   the same query again at once: the same pages, now in the pool
 *
 * each timed (SYSDATE(6)) and counted (Innodb_buffer_pool_reads) inside the
 * session, so neither the client's start nor the transport is in the
 * figures, and both touch the same pages in the same order (under
 * emulation touching scattered memory costs on its own). n pages fit in
 * the LRU's old sublist of any pool the scenarios use (100 x 16 KiB + their
 * compressed frames), so the hot lookups hit. A miss costs (cold s - hot
 * s) / (cold reads - hot reads); where the pool holds the table (fewer than
 * GAP_MISS_PROBE_MIN extra misses: model/gap.h, which reads the samples)
 * the cost is not known. A target whose data fits its buffer pool (the
 * working set as prepare measured it) runs neither this probe nor the read
 * probe (readcost.h): there is no miss to price. */
#ifndef VBED_WORKLOADS_MISSCOST_H
#define VBED_WORKLOADS_MISSCOST_H

#include "targets/sql.h"

#include <stddef.h>

struct wl_job;

#define MISSCOST_PASSES 12
#define MISSCOST_IDS 100

struct misscost {
    double hot_s, cold_s;         /* seconds, summed over the passes */
    double hot_reads, cold_reads; /* Innodb_buffer_pool_reads, summed */
    long lookups;                 /* rows looked up per kind, summed */
};

/* The probe's statements for a table of table_size rows (>= 1), seed
 * choosing the cold ids; NULL-terminated, free with misscost_free. */
char **misscost_statements(long long table_size, unsigned seed);
void misscost_free(char **stmts);

/* The one row the statements return: four non-negative finite numbers
 * (hot s, hot reads, cold s, cold reads). 0, or -1 with the reason in err:
 * the server's reply is outside input (tests/fuzz/fuzz_misscost.c). */
int misscost_parse(const struct sql_result *r, struct misscost *out, char *err, size_t errlen);

/* Seconds per miss; NAN when the cold passes missed too little (the
 * report's rule). */
double misscost_per_miss(const struct misscost *m);

/* Run it on the job's target (sysbench's tables exist) and record
 * miss_probe_{hot,cold}_{s,reads} and miss_probe_lookups. A probe that
 * fails is said and records nothing: it never fails the run (0). */
int misscost_probe(struct wl_job *j);

#endif
