/* perfschema.h: performance_schema's view of the benchmark's connections
 * -- where the database knows best what its foreground threads waited for.
 *
 * performance_schema is on in every arm alike (scenario/mycnf.c: key
 * performance_schema), with only the instruments read here: the data
 * files' I/O (wait/io/file/innodb/innodb_data_file: buffer-pool misses;
 * MariaDB 10.11's redo log is no file instrument), every synch wait
 * (wait/synch/%: locks and latches), the commit stage (stage/sql/Commit,
 * stage/sql/Commit implicit: the redo log's write and flush happen in
 * it), statements and transactions. Its summaries are read per thread --
 * the threads of the connections of database sbtest, chosen at instant 0
 * of the measure phase (probe.h's during), read again at instant 1 -- so
 * they are the foreground's time, never a device's total. Both readings
 * carry the server's own clock (SYSDATE(6)).
 *
 * Samples, layer innodb, what changed between the instants, summed over
 * those threads: ps_interval_s, ps_threads, ps_read_wait_s and ps_reads,
 * ps_synch_wait_s and ps_synch_waits, ps_commit_s and ps_commits,
 * ps_statement_s and ps_statements, ps_transaction_s and ps_transactions
 * (performance_schema's timer: picoseconds). Nothing when
 * performance_schema is off or a thread went away between the instants.
 *
 * The parsers take the server's rows (hostile input: a guest's mariadb
 * client's output; fuzzed by tests/fuzz/fuzz_chain.c). */
#ifndef VBED_PROBES_PERFSCHEMA_H
#define VBED_PROBES_PERFSCHEMA_H

#include "targets/sql.h"

#include <stddef.h>

#define PERFSCHEMA_THREADS_MAX 1100

enum ps_kind { PS_READ, PS_SYNCH, PS_COMMIT, PS_STATEMENT, PS_TRANSACTION, PS_KINDS };

struct ps_reading {
    double count[PS_KINDS];
    double wait_s[PS_KINDS];
    double threads; /* of the chosen threads, those still there */
    double now_s;   /* the server's clock (UNIX time) */
};

/* The foreground threads' ids (performance_schema.threads.THREAD_ID) of
 * one column of rows into ids (at most max): their count, or -1 if a row
 * is malformed. */
int perfschema_parse_threads(const struct sql_result *r, unsigned long long *ids, size_t max);
/* The rows of the sums query: (kind, count, picoseconds) for read, synch,
 * commit, statement, transaction, and (now, threads, microseconds). 0, or
 * -1 if malformed or incomplete. */
int perfschema_parse_sums(const struct sql_result *r, struct ps_reading *out);

#endif
