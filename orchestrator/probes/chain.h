/* chain.h: the foreground chain of a sysbench target -- each of sysbench's
 * worker threads and the connection thread in mariadbd that serves it --
 * in states that cannot overlap within a thread: on a CPU, runnable but
 * waiting for one (schedstat), blocked on block I/O (delay accounting's
 * delayacct_blkio_ticks, field 42 of the thread's stat; the probe turns
 * kernel.task_delayacct on for the measure phase and restores it, and
 * turns the server's thread cache off for the phase (thread_cache_size = 0,
 * FLUSH THREADS; restored after): only a thread created with delay
 * accounting on accounts its delays, and a thread older than the switch --
 * by its start time -- makes the chain's block I/O unrecorded, never 0),
 * and blocked on anything else (the rest of its time).
 *
 * The states of ONE thread never overlap; those of two threads may (a
 * thread waits in the run queue while the other runs). So the budget
 * (model/gap.h) partitions the chain's time by the connection thread's
 * states and performance_schema's statement time, and takes sysbench's
 * thread only for its CPU.
 *
 * Read on the target's own kernel -- a guest's through its agent, the host
 * arm's on its host -- at the two instants of the phase the experiment
 * gives (probe.h's during): sysbench's threads exist only while it runs.
 * At instant 0 the chain is chosen: sysbench's k busiest threads (never
 * its main thread) and the connections information_schema.PROCESSLIST
 * lists for database sbtest (its TID column is the OS thread id). Each
 * reading is one program on the target (target_capture: a shell that
 * prints /proc/uptime, then each thread's schedstat and stat, then
 * /proc/uptime again; the host arm's connection threads each at a moment
 * no block I/O of theirs is under way, CHAIN_SETTLE_RETRIES), so all are
 * read within a fraction of a second, each with its own moment. A thread
 * must be the same at both instants (its start time), or the chain is not
 * recorded.
 *
 * Samples, layer workload, sums over the chain's threads of what changed
 * between the instants: chain_interval_s (the target's clock; between the
 * moments the server's threads were read, their mean),
 * chain_client_threads, chain_server_threads, chain_client_cpu_s,
 * chain_client_runq_s, chain_server_cpu_s, chain_server_runq_s, and with
 * delay accounting on, chain_client_blkio_s and chain_server_blkio_s
 * (resolution: one tick, 1/CHAIN_USER_HZ s, per thread and reading);
 * chain_read_spread_s: how long the longer of the two readings took.
 *
 * The parsers below take the target's text (hostile input; fuzzed by
 * tests/fuzz/fuzz_chain.c). */
#ifndef VBED_PROBES_CHAIN_H
#define VBED_PROBES_CHAIN_H

#include "targets/sql.h"

#include <stdbool.h>
#include <stddef.h>

#define CHAIN_USER_HZ 100     /* USER_HZ of Linux: delayacct_blkio_ticks' unit */
#define CHAIN_THREADS_MAX 2100 /* threads one reading holds: sysbench's + connections */
/* The host arm's connection threads are each read at a moment no block I/O
 * of theirs is under way (stat's state not D, between two schedstat reads
 * that agree: it did not run, block or switch meanwhile) -- a block I/O
 * wait is counted whole when it ends, so one under way at the first
 * reading (an fsync stalled for 0.5 s) would count its time before the
 * interval in it. Asleep is not asked: that thread is asleep 2 % of the
 * time on the host arm, and 300 tries did not find it so. At most this
 * many further tries in one reading in all (about a millisecond each), then
 * as they are. A guest's are read as they are (trying would take its vCPU
 * from the chain). */
#define CHAIN_SETTLE_RETRIES 2000

struct chain_thread {
    char kind;              /* 'C' a thread of sysbench, 'D' a connection thread of mariadbd */
    int tid;
    long long start;        /* its start time (stat field 22): the same thread at both instants */
    double oncpu_s, runq_s; /* schedstat */
    long long blkio_ticks;  /* stat field 42 */
    char state;             /* stat field 3: not 'D' when read settled (see CHAIN_SETTLE_RETRIES) */
    double uptime;          /* the target's uptime when it was read; NAN if not told */
};

struct chain_reading {
    double uptime_first, uptime_last; /* /proc/uptime before and after the threads */
    size_t n;
    struct chain_thread th[CHAIN_THREADS_MAX];
};

/* The output of one reading (see above):
 *   U <uptime>                    first and last line
 *   C|D <tid> <schedstat line>    a thread, followed by
 *   S <its stat line>             and, optionally,
 *   T <uptime>                    the moment it was read (within the U lines)
 * A thread whose two lines do not parse is left out (it ended between
 * them); the rest must be well formed. 0, or -1 if malformed. */
int chain_parse_reading(const char *text, struct chain_reading *out);

/* The shell program (malloc'd) whose output chain_parse_reading reads:
 * every thread of process pid (pid > 0) or the n_client threads client as
 * 'C', then the n_server threads server as 'D', each of those read with
 * no block I/O under way (its stat's state not D, between two schedstat
 * reads that agree), trying again at most retries times in all, then as
 * it is (retries 0: as they are). */
char *chain_reading_program(long long pid, const int *client, size_t n_client, const int *server,
                            size_t n_server, int retries);

/* The connections PROCESSLIST lists: rows of (ID, TID). At most max of
 * their TIDs into tids (each > 0, at most 2^22); their count, or -1 if a
 * row is malformed. */
int chain_parse_processlist(const struct sql_result *r, int *tids, size_t max);

/* The delay-accounting switch's answer: "old N\nnow M\n" (the sysctl
 * exists: *old = N, *now = M, each 0 or 1) or "none\n" (a kernel before
 * 5.14, where it is on unless booted with nodelayacct: *old = -1, *now =
 * 1), then "U <the target's /proc/uptime>" read after the switch. *since:
 * that uptime if the switch turned it on (old 0), else 0 (every thread
 * accounts). 0, or -1 if malformed. */
int chain_parse_delayacct(const char *text, int *old, int *now, double *since);

/* The first thread of r created before the target's uptime since, both
 * in whole ticks (a thread of since's own tick is not older), or NULL. */
const struct chain_thread *chain_older_than(const struct chain_reading *r, double since);

#endif
