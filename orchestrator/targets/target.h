/* target.h: the targets layer -- where a workload runs, behind one
 * interface: a guest (programs through its guest agent, queries through
 * the mariadb client there; target_guest.c), the host arm on this machine
 * (child processes in its cgroup, queries through libmariadb; hostarm.c)
 * and the host arm on an ssh host (`vbed host arm-...` requests;
 * hostarm_remote.c); target_hostarm.c puts the two host arms behind the
 * interface. Also here: SQL to a target's server (sql.h) and what vbed
 * asks InnoDB (innodb.h). The experiment and the workloads never ask which
 * kind a target is: what differs is in the ops below or in the data a
 * target carries (its paths, its host). It may call virt/, image/,
 * hostside/, report/, model/, results/, scenario/ and util/.
 *
 * Threads: each target is driven by one thread at a time (the
 * experiment's thread for it); different targets in parallel. One
 * exception: while that thread waits for the target's program
 * (target_wait), a second thread -- the experiment's readings during the
 * measure phase (probes/probe.h) -- may call target_program_pid,
 * target_capture, target_read_text and query t->sql. */
#ifndef VBED_TARGET_H
#define VBED_TARGET_H

#include "hostside/hostside.h"
#include "targets/sql.h"

#include <libvirt/libvirt.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct target;
struct hostarm_limits;
struct storage;
struct guest_layout;

/* What a target's server process did, as far as it can tell (a host arm;
 * a guest tells nothing here: libvirt counts its CPU, target_cpu_s). */
struct target_status {
    double server_cpu_s;      /* its mariadbd's CPU seconds; -1 unknown */
    double programs_cpu_s;    /* CPU seconds of the programs it ran (sysbench ...) */
    double read_bytes;        /* mariadbd's /proc/<pid>/io; NAN unknown */
    double write_bytes;
    long long resident_bytes; /* its tables (sbtest*.ibd) in its host's page cache; -1 unknown */
    double server_rss_bytes;  /* its mariadbd's resident memory; NAN unknown */
};

struct target_ops {
    const char *kind; /* "guest", "host arm", "remote host arm": for messages */
    /* start argv with env, its output in t->out_path; the pid (or the
     * agent's) is kept in t. -1 reported. */
    int (*start)(struct target *t, const char *const argv[], const char *const env[]);
    /* the pid of the program just started, on the target's own system; -1
     * unknown (NULL: unknown) */
    long long (*program_pid)(const struct target *t);
    /* wait for it (first look after first_ms); its exit code. -1 reported */
    int (*wait)(struct target *t, long timeout, long first_ms, int *exitcode);
    /* a short program's stdout (malloc'd, NUL-terminated) and exit code;
     * -1 if it could not run here. It also runs while vbed is being
     * interrupted (a probe restores what it changed). */
    int (*capture)(struct target *t, const char *const argv[], long timeout, char **out,
                   int *exitcode);
    /* a small text file of the target's own system; NULL if unreadable */
    char *(*read_text)(struct target *t, const char *path);
    /* CPU seconds its server has used (target_cpu_s); -1 unknown */
    double (*cpu_s)(struct target *t);
    /* its server's figures; -1 if it has none to give */
    int (*status)(struct target *t, struct target_status *st);
    /* MariaDB's error log copied to dest on this machine; -1 if unreadable */
    int (*fetch_log)(struct target *t, const char *dest);
    /* tar_extract's fixed archive there: its path into buf; with make, made
     * first where the image does not hold it. -1 reported */
    int (*archive)(struct target *t, bool make, char *buf, size_t len);
    /* a file of the target's own system, whole, into *data (malloc'd);
     * larger than max is an error. -1 reported. NULL: files cannot be
     * moved there (target_can_copy_files) */
    int (*get_file)(struct target *t, const char *path, size_t max, char **data, size_t *len);
    /* data[0..len) to path on the target's system (created or truncated).
     * -1 reported. NULL with get_file. */
    int (*put_file)(struct target *t, const char *path, const char *data, size_t len);
    /* the tar archive tar (a file on this machine) extracted into dir on
     * the target's system, owned by root (a guest: through a
     * read-only disk, far faster than its agent; once per target). -1
     * reported. NULL: not this way (put_file) */
    int (*put_tar)(struct target *t, const char *tar, const char *dir);
    /* every sbtest<i>.ibd and .cfg of its server, consistent (held by
     * FLUSH TABLES ... FOR EXPORT while they are copied), into dest, a
     * directory on this machine; *bytes in all, no file larger than max.
     * -1 reported. NULL: not this way (a guest's server client copies
     * them while they are held, get_file brings them here) */
    int (*export_tables)(struct target *t, long long tables, const char *dest, size_t max,
                         double *bytes);
    /* a prepared copy's sbtest<i>.ibd and .cfg in src (a directory of
     * root's on this machine) imported into its server's sbtest tables,
     * which exist empty: their tablespaces discarded, the files written by
     * the server's own user (their holes kept), imported, the .cfg
     * removed. -1 reported. NULL: not this way (a guest takes the files
     * through put_tar or put_file, its root gives them to mysql) */
    int (*import_tables)(struct target *t, long long tables, const char *src);
    /* let go of what the target holds (a host arm: stopped and removed) */
    void (*close)(struct target *t);
};

struct target {
    const struct target_ops *ops;
    void *impl;               /* the implementation's own (a struct hostarm) */
    char name[64];            /* domain name, or "host" */
    int guest;                /* 1..n; 0 for the host arm: the samples' "guest" label */
    int arm_kind;             /* ARM_GUEST or ARM_HOST (keys.h): the working-set model's */
    bool own_kernel;          /* it has a kernel and page cache of its own (a guest) */
    virDomainPtr dom;         /* a guest's domain, for libvirt's stats (probes); else NULL */
    struct sql *sql;          /* its server */
    char lua[PATH_MAX];       /* vbed_oltp.lua on the target */
    char socket[PATH_MAX];    /* the server's socket on the target */
    char errlog[PATH_MAX];    /* the server's error log on the target */
    char io_dir[PATH_MAX];    /* where a raw I/O workload writes on the target */
    char data_path[PATH_MAX]; /* where its data lives on its host: a guest's data disk file,
                                 the host arm's datadir; "" if none */
    struct hostside *hs;      /* its host (hostside.h); not owned */
    char prepared_dir[PATH_MAX]; /* where tables prepared for its image are kept on this
                                    machine (workloads/prepared.h); "": it loads its own */
    char host_label[512];     /* that host's label in samples */
    const char *prepared;     /* how its workload's data came: "loaded", "copied"; NULL none
                                 (set by the workload's prepare) */
    double prepare_s;         /* and how long that took */
    const char *prepared_via; /* a copy's files came through: "disk", "agent"; NULL (loaded) */
    char prepared_from[16];   /* and where the copy was loaded: "guest", "host arm"; "" */
    long long host_memory;    /* MemTotal of its host; -1 unknown (set by the experiment) */
    char dir[PATH_MAX];       /* where its raw logs go, on this machine */
    double stall_s;           /* a guest: timeout_stall, how long its disk may hold requests
                                 while vbed waits on its program (0: not watched) */
    char stalled[640];        /* a guest whose disk stalled: the evidence; "" otherwise */
    /* the running program, between target_start and target_wait */
    long long agent_pid;
    pid_t local_pid;
    long long program_pid;    /* its pid on the target's own system, -1 none or unknown
                                 (target_program_pid: read from any thread) */
    char out_path[PATH_MAX];
    double started;           /* UNIX time the program was started */
};

/* A guest target (after its domain is ready): its data disk's file on
 * host hs (data_file, "" if none), raw logs into dir; its volumes lay in st
 * (both not owned: target_put_tar plugs a disk in). */
void target_open_guest(struct target *t, int n, virDomainPtr dom, struct hostside *hs,
                       struct storage *st, const struct guest_layout *lay, const char *host_label,
                       const char *data_file, const char *dir);
/* The host arm, started on hs's host (this machine or an ssh host) as
 * hostarm.h says: its private mariadbd under base/name with my.cnf text
 * mycnf and the workload script lua (a file here). -1 reported; on success
 * target_close stops and removes it. */
int target_open_host_arm(struct target *t, struct hostside *hs, const struct hostarm_limits *l,
                         const char *mycnf, const char *lua, const char *base, const char *name,
                         const char *dir);
/* Its CPU set and whether it is confined, for the records (a host arm:
 * hostarm.h; "" and false otherwise). */
const char *target_host_arm_cpus(const struct target *t, bool *confined);
void target_close(struct target *t);

/* The target runs on the machine vbed runs on. */
bool target_is_local(const struct target *t);

/* Start argv with env; its output goes to dir/out_name. -1 reported. */
int target_start(struct target *t, const char *const argv[], const char *const env[],
                 const char *out_name);
/* Wait for it; its exit code into *exitcode. -1 reported (timeout, agent
 * failure, interruption). */
int target_wait(struct target *t, long timeout, long first_ms, int *exitcode);
/* The pid, on the target's own system (the guest's kernel, the host arm's
 * host), of the program target_start started and target_wait has not yet
 * waited for; -1 if none, or if it cannot be known there (a remote host
 * arm's program runs under ssh). Any thread. */
long long target_program_pid(const struct target *t);
/* The whole output file of the last program (malloc'd), or NULL. */
char *target_output(const struct target *t);
/* The target can run a short program and give its output (target_capture):
 * a guest, the host arm on this machine. */
bool target_can_capture(const struct target *t);
/* See struct target_ops. */
int target_capture(struct target *t, const char *const argv[], long timeout, char **out, int *exitcode);
/* A short shell program (/bin/sh -c script) on the target: its output
 * (malloc'd), or NULL when it could not run or exited non-zero (not
 * reported: the caller says what is missing). */
char *target_sh(struct target *t, const char *script, long timeout);
char *target_read_text(struct target *t, const char *path);
double target_cpu_s(struct target *t);
int target_status(struct target *t, struct target_status *st);
/* MariaDB's error log into dir/name. */
int target_fetch_log(struct target *t, const char *name);
/* Files can be moved between this machine and the target (a guest, by its
 * agent): target_get_file, target_put_file. */
bool target_can_copy_files(const struct target *t);
int target_get_file(struct target *t, const char *path, size_t max, char **data, size_t *len);
int target_put_file(struct target *t, const char *path, const char *data, size_t len);
/* See struct target_ops: put_tar; -1 (not reported) where the target has none. */
bool target_can_put_tar(const struct target *t);
int target_put_tar(struct target *t, const char *tar, const char *dir);
int target_archive(struct target *t, bool make, char *buf, size_t len);
/* See struct target_ops: export_tables; -1 (not reported) where the target has none. */
bool target_can_export_tables(const struct target *t);
int target_export_tables(struct target *t, long long tables, const char *dest, size_t max,
                         double *bytes);
/* See struct target_ops: import_tables; -1 (not reported) where the target has none. */
bool target_can_import_tables(const struct target *t);
int target_import_tables(struct target *t, long long tables, const char *src);

#endif
