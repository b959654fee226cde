/* tasks.h: the tasks probe -- where a guest's CPU goes while the workload
 * measures: every task's on-CPU time (its schedstat) at the two instants
 * of the measure phase the chain probe reads too (probe.h's during),
 * grouped by what the task works for:
 *
 *   page_cleaner   mariadbd's page cleaner (flushes dirty pages)
 *   innodb_pool    mariadbd's InnoDB task pool (asynchronous I/O
 *                  completions, read-ahead, purge and other background tasks)
 *   connections    mariadbd's connection threads (the chain's among them)
 *   mariadbd_other mariadbd's other threads
 *   sysbench       sysbench (the chain's client among them)
 *   kernel         kernel threads (writeback, the journal, block-I/O
 *                  completion, softirqs run in threads)
 *   rest           every other process (the agent, the shell reading this)
 *
 * mariadbd's threads are told apart by performance_schema.threads (NAME by
 * THREAD_OS_ID), read after the second reading; a task is a kernel thread
 * by its stat's PF_KTHREAD flag; a process by its main thread's comm. A
 * task counts what it ran between the readings; one created between them
 * all it ran; one that ended between them is lost, and so is interrupt
 * time no task is charged for: the guest's /proc/stat, read in the same
 * program, gives the busy time the groups leave unattributed.
 *
 * Samples (layer guest, per target): tasks_interval_s (the guest's clock
 * between the readings), tasks_busy_s (user + system of its /proc/stat),
 * tasks_<group>_cpu_s for each group, tasks_mariadbd_cpu_s (its four
 * groups' sum; with performance_schema off, whose tables are then empty,
 * the only one of mariadbd's: its threads are not told apart),
 * tasks_read_spread_s (how long the longer reading took: the probe's own
 * cost). Only a target with a kernel of its own (a guest) has them.
 *
 * The parsers take the guest's text (hostile input; fuzzed by
 * tests/fuzz/fuzz_chain.c). */
#ifndef VBED_PROBES_TASKS_H
#define VBED_PROBES_TASKS_H

#include "targets/sql.h"
#include "util/procfs.h"

#include <stdbool.h>
#include <stddef.h>

enum task_group { /* mariadbd's first, up to TG_MARIADBD_OTHER */
    TG_PAGE_CLEANER,
    TG_INNODB_POOL,
    TG_CONNECTIONS,
    TG_MARIADBD_OTHER,
    TG_SYSBENCH,
    TG_KERNEL,
    TG_REST,
    TG_N
};

/* "page_cleaner", ... as in the sample names */
extern const char *const task_group_names[TG_N];

#define TASKS_MAX 8192 /* tasks one reading holds */

struct task_cpu {
    int pid, tid;
    bool kthread;    /* PF_KTHREAD in its stat's flags */
    char comm[17];   /* its stat's comm (at most 16 bytes in Linux) */
    long long start; /* start time (ticks after boot): the same task at both readings */
    double oncpu_s;  /* schedstat */
};

struct tasks_reading {
    double uptime_first, uptime_last;
    struct cpu_times cpu; /* the guest's /proc/stat */
    size_t n;
    struct task_cpu *t; /* malloc'd, n of them */
};

/* The shell program of one reading (/bin/sh -c), run in the guest. */
extern const char tasks_reading_script[];

/* Its output (grep -H of every task's schedstat, then of every stat):
 *   U <uptime>                                   first line, and the line before the last
 *   /proc/<pid>/task/<tid>/schedstat:<its line>  a task's, in any order
 *   /proc/<pid>/task/<tid>/stat:<its line>
 *   P <the "cpu" line of /proc/stat>             the last line
 * A task whose two lines do not both parse is left out (it ended between
 * them); a task's line twice, or any other line, is malformed. 0, or -1 if
 * malformed (*out then empty); out->t sorted by tid. */
int tasks_parse_reading(const char *text, struct tasks_reading *out);
void tasks_reading_free(struct tasks_reading *r);

/* performance_schema.threads' rows (THREAD_OS_ID, NAME) of mariadbd: the
 * group of each of its threads, by tid; at most max into tids and groups.
 * Their count, or -1 if a row is malformed. */
int tasks_parse_ps_threads(const struct sql_result *r, int *tids, enum task_group *groups, size_t max);

/* The CPU each group ran between readings a and b (seconds, cpu[TG_N]),
 * mariadbd's threads by (tids, groups, n); -1 if b is not after a. */
int tasks_group_cpu(const struct tasks_reading *a, const struct tasks_reading *b, const int *tids,
                    const enum task_group *groups, size_t n, double cpu[TG_N]);

#endif
