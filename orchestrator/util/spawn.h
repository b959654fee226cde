/* spawn.h: run a program with an argv array (never a shell), with a time
 * limit, its output logged or captured (within a size limit: a program's
 * output may come from another host), optionally inside a chroot with
 * /proc, /sys and /dev mounted in a private mount namespace (the mounts die
 * with the child), optionally inside a cgroup. A wait ends early when vbed
 * is interrupted (signals.h): the child is killed and the caller cleans up. */
#ifndef VBED_SPAWN_H
#define VBED_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

struct spawn_opts {
    const char *chroot;          /* run inside this tree (needs root) */
    const char *const *env;      /* extra "NAME=value" entries, NULL-terminated */
    const char *log_path;        /* stdout+stderr appended here; NULL: /dev/null unless captured */
    char **capture;              /* if set: stdout into a malloc'd string (stderr to the log) */
    size_t *capture_len;         /* if set: the bytes captured (the string may hold a NUL) */
    char **capture_err;          /* if set: stderr into a malloc'd string instead */
    size_t capture_max;          /* past this many bytes of stdout or stderr captured the child is
                                  * stopped (SPAWN_TOO_LARGE); 0: SPAWN_CAPTURE_MAX */
    long long output_max;        /* > 0: no file the child writes (its log included) may grow past
                                  * this (RLIMIT_FSIZE): for a child that writes only its output */
    long timeout;                /* seconds; 0: none */
    const char *cgroup_procs[4]; /* files to write the child's pid into before exec */
    const char *cwd;
    int private_mounts;          /* own mount namespace: mounts made by the child die with it */
    int quiet;                   /* a timeout or a signal is the caller's answer: do not report */
    int cleanup;                 /* part of cleaning up: runs on when vbed is interrupted */
    int inherit_output;          /* stdout and stderr stay vbed's own (`vbed host arm-exec`) */
};

/* Status codes besides the program's own exit code (0-255): */
#define SPAWN_FAILED (-1)   /* could not start it (reported) */
#define SPAWN_TIMEOUT (-2)  /* killed after opts->timeout (reported) */
#define SPAWN_INTERRUPTED (-3) /* killed because vbed was interrupted */
#define SPAWN_SIGNALED (-4) /* died of a signal (reported) */
#define SPAWN_TOO_LARGE (-5) /* stopped: more output than capture_max (reported), or killed by
                              * SIGXFSZ at output_max (the caller reports: it knows the log) */

#define SPAWN_CAPTURE_MAX ((size_t)64 << 20)

int spawn_run(const char *const argv[], const struct spawn_opts *o);

/* Start in the background; returns the pid or -1 (reported). */
pid_t spawn_start(const char *const argv[], const struct spawn_opts *o);
/* Wait for a background child: as spawn_run's result; timeout 0 = forever.
 * An interruption of vbed ends the wait (the child is stopped). */
int spawn_wait(pid_t pid, long timeout, const char *what);
/* Wait up to timeout seconds for a child that was asked to stop, even when
 * vbed is interrupted (cleanup); then SIGTERM/SIGKILL. Reaps it. */
void spawn_reap(pid_t pid, long timeout);
/* SIGTERM, then SIGKILL after grace seconds; reaps it. */
void spawn_stop(pid_t pid, long grace);

/* "debootstrap --variant=minbase ..." for messages */
void spawn_describe(const char *const argv[], char *buf, size_t len);

#endif
