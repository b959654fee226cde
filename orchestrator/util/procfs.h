/* procfs.h: the /proc texts vbed reads -- /proc/stat, /proc/<pid>/stat,
 * /proc/diskstats, /proc/meminfo -- parsed from text (so that the fuzz
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
/* Of a live process of this machine; -1 if it cannot be read. */
double procfs_pid_cpu_s(pid_t pid);

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
