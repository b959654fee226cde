/* procfs.h: the /proc texts vbed reads -- /proc/stat, /proc/<pid>/stat,
 * /proc/diskstats, /proc/meminfo, /proc/uptime, a thread's schedstat and
 * its stat's delay-accounting field -- parsed from text (so that the fuzz
 * targets can call the parsers and a remote host's or a guest's text goes
 * through the same code), and the two this machine's figures come from.
 * Any thread. */
#ifndef VBED_UTIL_PROCFS_H
#define VBED_UTIL_PROCFS_H

#include <sys/types.h>

/* CPU time of the whole machine, from the "cpu" line of /proc/stat */
struct cpu_times {
    double total_s; /* every field of the "cpu" line but guest, guest_nice */
    double busy_s;
    double steal_s;
    double user_s, system_s, iowait_s; /* user + nice; system + irq + softirq; iowait */
};

/* The aggregate "cpu" line of /proc/stat text. -1 if absent or malformed. */
int procfs_parse_stat(const char *text, long clk_tck, struct cpu_times *out);
/* This machine's /proc/stat now. -1 reported. */
int procfs_read_stat(struct cpu_times *out);
/* utime + stime of a /proc/<pid>/stat text, in seconds; -1 if malformed. */
double procfs_parse_pid_stat(const char *text, long clk_tck);
/* cutime + cstime of a /proc/<pid>/stat text (the CPU of the children it
 * waited for), in seconds; -1 if malformed. */
double procfs_parse_children_cpu(const char *text, long clk_tck);
/* Of a live process of this machine; -1 if it cannot be read. */
double procfs_pid_cpu_s(pid_t pid);

/* A thread's /proc/<pid>/task/<tid>/schedstat: "on-CPU run-queue slices",
 * the first two in nanoseconds, as seconds. -1 if malformed. */
int procfs_parse_schedstat(const char *text, double *oncpu_s, double *runq_s);
/* Of a /proc/<pid>/task/<tid>/stat text: field 22, the thread's start time
 * (clock ticks after boot: the same thread at two readings), and field 42,
 * delayacct_blkio_ticks, the clock ticks (USER_HZ) it waited for block I/O
 * (0 unless delay accounting is on: kernel.task_delayacct). -1 if
 * malformed. */
int procfs_parse_task_stat(const char *text, long long *start_ticks, long long *blkio_ticks);
/* The first figure of /proc/uptime, seconds. -1 if malformed. */
int procfs_parse_uptime(const char *text, double *s);

/* One line of /proc/diskstats. */
struct diskstat {
    unsigned major, minor;
    char name[32];
    double reads, read_sectors, read_ms, writes, write_sectors, write_ms, in_flight, io_ms;
    double flushes, flush_ms; /* NAN on kernels before 5.5 */
};
/* The line of device `name` (when name is not NULL) or of major:minor. -1
 * if absent or malformed. */
int procfs_parse_diskstats(const char *text, const char *name, unsigned major, unsigned minor,
                           struct diskstat *out);
/* A "Key: N kB" line of /proc/meminfo, in bytes; -1 if absent. */
int procfs_parse_meminfo(const char *text, const char *key, double *bytes);

#endif
