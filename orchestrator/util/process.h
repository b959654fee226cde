/* process.h: what a running process is, read from /proc before vbed
 * signals it. A pid from a file (a stale mysqld.pid after a reboot, a
 * session's pid file) may since belong to an unrelated process: vbed
 * signals only the process it started, recognised by its executable and
 * its arguments. */
#ifndef VBED_PROCESS_H
#define VBED_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* True if pid runs mariadbd (or mysqld) with --datadir=datadir. */
bool process_is_mariadbd_of(pid_t pid, const char *datadir);
/* The base name of pid's executable into buf; -1 if unknown (gone, or no
 * permission to look). */
int process_exe_name(pid_t pid, char *buf, size_t len);

/* pid's start time (clock ticks after boot, /proc/<pid>/stat field 22):
 * with the pid and the boot id, it names one process for good. -1 if gone. */
long long process_start_time(pid_t pid);
/* pid exists and is not a zombie (an orphan that no init reaps is one). */
bool process_running(pid_t pid);
/* kill(-pgid, sig), refused (-1, EINVAL) for pgid <= 1: never kill(-1),
 * which signals every process, nor kill(0), vbed's own group. */
int process_signal_group(pid_t pgid, int sig);
/* Whether pid runs a program named vbed (a KVM probe's owner): 1 yes, 0 no
 * (gone, or another program), -1 cannot tell (no permission to look). */
int process_is_vbed(pid_t pid);

#endif
