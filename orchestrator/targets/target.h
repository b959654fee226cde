/* target.h: where a workload runs -- a guest (programs run through its
 * guest agent, queries through the mariadb client there) or the host arm
 * (child processes in its cgroup, queries through libmariadb). One
 * interface, so that the experiment's phases are written once. */
#ifndef VBED_TARGET_H
#define VBED_TARGET_H

#include "targets/hostarm.h"
#include "hostside/hostside.h"
#include "targets/sql.h"

#include <libvirt/libvirt.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct target {
    char name[64];            /* domain name, or "host" */
    int guest;                /* 1..n; 0 for the host arm */
    virDomainPtr dom;         /* guests */
    struct hostarm *host;     /* the host arm */
    struct sql *sql;
    char lua[PATH_MAX];       /* vbed_oltp.lua on the target */
    char socket[PATH_MAX];    /* the server's socket on the target */
    char data_file[PATH_MAX]; /* path of the data disk on its host, "" if none */
    struct hostside *hs;      /* its host, for host-side figures (hostside.h); not owned */
    char host_label[512];     /* that host's label in samples */
    long long host_memory;    /* MemTotal of its host; -1 unknown (set by experiment_run) */
    char dir[PATH_MAX];       /* where its raw logs go */
    /* the running program, between target_start and target_wait */
    long long agent_pid;
    pid_t local_pid;
    char out_path[PATH_MAX];
    double started;           /* UNIX time the program was started */
};

/* A guest target (after its domain is ready) / the host arm's. */
void target_for_guest(struct target *t, int n, virDomainPtr dom, const char *dir);
void target_for_host(struct target *t, struct hostarm *h, const char *dir);
void target_close(struct target *t);

/* The target runs on the machine vbed runs on (its host-side figures are
 * read here, not through `vbed host`). */
bool target_is_local(const struct target *t);

/* Start argv with env; its output goes to dir/out_name. -1 reported. */
int target_start(struct target *t, const char *const argv[], const char *const env[],
                 const char *out_name);
/* Wait for it (first look after first_ms); its exit code into *exitcode.
 * -1 reported (timeout, agent failure, interruption). */
int target_wait(struct target *t, long timeout, long first_ms, int *exitcode);
/* The whole output file of the last program (malloc'd), or NULL. */
char *target_output(const struct target *t);

/* A (small, text) file of the target, e.g. /proc/stat; NULL if unreadable
 * (reported for guests). malloc'd, NUL-terminated. Not for a remote host
 * arm (its figures come through hostarm_status). */
char *target_read_text(struct target *t, const char *path);
/* CPU seconds its server has used: a guest's QEMU (all its threads, as
 * libvirt counts them), the host arm's mariadbd (on a remote host, and the
 * programs it ran there); -1 if unknown. */
double target_cpu_s(const struct target *t);

/* A file of the target (e.g. MariaDB's error log) copied to dir/name; for
 * the host arm, a file of its directory (path's last component). */
int target_fetch(struct target *t, const char *path, const char *name);

#endif
