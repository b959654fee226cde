/* hostarm.h: the host arm's private mariadbd, on this machine or on the
 * hypervisor host an ssh URI names.
 *
 * Its directory <base>/<name>/ (base is next to the pool's directory, so on
 * the same filesystem as the guests' disks), no TCP port, the run's my.cnf
 * as --defaults-file, started as the mysql user.
 *
 * Trust boundary: root (vbed, the `vbed host` helper) never acts on what
 * the mysql user can write. The arm's directory, and base and every
 * directory above it, are root's and writable by no one else (checked on
 * every request; an arm is refused otherwise); root's files are there: the
 * mark, my.cnf, the workload script, install-db.log, the pid records of
 * mariadbd and of arm-exec's program, programs-cpu, extract.tar and the
 * I/O directory io/. mysql gets one directory of its own, mysql/: the
 * datadir, socket, pid file and error log. Root reads there only the end
 * of the error log, the tables' page-cache residency and, to leave the
 * guests a copy of the tables (hostarm_export_tables), the exported
 * tables' files -- never through a link, never a FIFO or device, never
 * more than it asked for, a copied file only if mysql owns it and it has
 * no other link; it runs and
 * extracts nothing from there, and writes or removes nothing there itself
 * (a prepared copy's files are written by a child that is the mysql user,
 * hostarm_import_tables), and signals only the pids of its own
 * records, after checking each is still the process it started.
 *
 * With host_match = guest it runs in a cgroup whose cpuset holds as
 * many CPUs as a guest has vCPUs (the first ones: those guest 1's vCPUs get
 * when pin = auto pins them, placement.h) and whose memory is capped at a
 * guest's (page cache included; on cgroup v1 swap is not limited); the
 * membership and CPU affinity of mariadbd are checked after start, and a
 * mariadbd that is not confined fails the run. sysbench runs in the same
 * cgroup, as it runs inside the guest in the guest arms. Never the system's
 * MariaDB. Stopped and removed on every exit path; `vbed clean` removes what
 * a killed vbed left.
 *
 * The functions here act on this machine. On a remote host (remote set)
 * every operation is one `vbed host arm-...` request over the URI's ssh
 * instead (hostarm_remote.h; the helper's side is cli's cmd_host_arm.c,
 * which runs the functions here on that host); target_hostarm.c chooses:
 * queries through `arm-sql`, programs through `arm-exec` (their output
 * streams back into the raw log), figures through `arm-status`, the error
 * log through `arm-file`. The paths in a remote arm are paths on that host. */
#ifndef VBED_HOSTARM_H
#define VBED_HOSTARM_H

#include "hostside/hostside.h"
#include "scenario/keys.h"
#include "util/spawn.h"
#include "targets/sql.h"

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* What the arm is allowed: the run's host_match, vcpus, memory, timeout_db. */
struct hostarm_limits {
    bool confine;          /* host_match = guest: a cgroup of one guest's size */
    long long vcpus;       /* a guest's vCPUs */
    long long memory;      /* a guest's memory, bytes */
    long long timeout_db;  /* seconds to wait for mariadbd to answer */
};

struct hostarm {
    char dir[PATH_MAX];
    char datadir[PATH_MAX];
    char socket[PATH_MAX];
    char pidfile[PATH_MAX];
    char mycnf[PATH_MAX];
    char errlog[PATH_MAX];
    char lua[PATH_MAX];     /* vbed_oltp.lua where sysbench runs (never in mysql/) */
    struct cgroup *cg;
    char cpus[32];          /* its cpuset ("0", "0-3"); "" with host_match = none */
    long online_cpus;       /* CPUs of the host it runs on */
    bool confined;          /* checked after start: in the cgroup, on those CPUs only */
    pid_t pid;              /* its mariadbd (a pid on its host) */
    struct sql *sql;
    bool sql_shutdown_sent;
    bool child;             /* mariadbd is this process's child (not attached) */
    struct hostside *remote; /* NULL: this machine; else the ssh host it runs on (not owned) */
};

/* What a measure phase reads of an arm. */
struct hostarm_status {
    double server_cpu_s;     /* its mariadbd's CPU seconds; -1 unknown */
    double programs_cpu_s;   /* CPU seconds of the programs it ran (sysbench ...) */
    double read_bytes;       /* mariadbd's /proc/<pid>/io; NAN unknown */
    double write_bytes;
    long long resident_bytes; /* its tables (sbtest*.ibd) in the page cache; -1 unknown */
    double server_rss_bytes;  /* its mariadbd's resident memory (VmRSS); NAN unknown */
};

void hostarm_limits_of(const struct run_config *cfg, struct hostarm_limits *l);

/* The directory host arms live in: <pool_dir>/../host */
void hostarm_base(const char *pool_dir, char *buf, size_t len);

/* The arm's layout (see the trust boundary above). */
#define HOSTARM_MYSQL_DIR "mysql"           /* the mysql user's one directory */
#define HOSTARM_SCRIPT "vbed_oltp.lua"      /* the workload script a remote arm runs */
#define HOSTARM_SERVER_RECORD "mariadbd.pid" /* root's record of mariadbd: "pid start-time" */
/* An arm directory's longest path: its socket DIR/mysql/mysqld.sock must
 * fit a unix socket address (107 bytes). */
#define HOSTARM_DIR_MAX 89
/* The most of a log (mysqld.err, install-db.log) read: its end. */
#define HOSTARM_LOG_MAX ((size_t)1 << 20)
/* h's paths for the arm directory dir: datadir, socket, pid file and error
 * log in dir/mysql/, my.cnf and the workload script in dir. */
void hostarm_paths(struct hostarm *h, const char *dir);

/* Start an arm named name under base on this machine: make the datadir,
 * start mariadbd, wait until it answers (timeout_db). lua is
 * vbed_oltp.lua, used where it is. NULL after reporting (whatever was
 * started is stopped again). On an ssh host: hostarm_remote_start. */
struct hostarm *hostarm_start(const struct hostarm_limits *l, const char *mycnf, const char *lua,
                              const char *base, const char *name);
/* The helper's arm-start: an arm on this machine whose workload script
 * (lua_text) is written into its directory, root's file, before anything
 * runs as mysql. NULL reported. */
struct hostarm *hostarm_start_with_script(const struct hostarm_limits *l, const char *mycnf,
                                          const char *lua_text, const char *base, const char *name);
/* Stop mariadbd and any program still running in the arm, remove the
 * cgroup and the directory; NULL-safe. The error log is copied to keep_log
 * (a path on this machine) first if given. */
void hostarm_stop(struct hostarm *h, const char *keep_log);

/* Start argv with env in the arm (in its cgroup), its output appended to
 * out_path; the pid of a child of this process to wait for (spawn_wait),
 * whose exit code is the program's. -1 reported. */
pid_t hostarm_exec_start(struct hostarm *h, const char *const argv[], const char *const env[],
                         const char *out_path);
/* 0, or -1 reported. Fields it cannot read are left unknown. */
int hostarm_status(struct hostarm *h, struct hostarm_status *st);
/* The arm's file name (mysqld.err, install-db.log) copied to dest on this
 * machine; -1 if it cannot be read. */
int hostarm_fetch(struct hostarm *h, const char *name, const char *dest);
/* The last HOSTARM_LOG_MAX bytes of the arm's log name (mysqld.err,
 * install-db.log) on this machine, malloc'd; NULL reported. */
char *hostarm_read_log(const struct hostarm *h, const char *name);
/* tar_extract's fixed archive written to the arm's extract.tar; its bytes. */
int hostarm_make_archive(struct hostarm *h, long long *bytes);

/* The arm's tables for other targets (workloads/prepared.h): every
 * sbtest<i>.ibd and .cfg of its datadir copied into dest, a directory of
 * root's on this machine, while FLUSH TABLES ... FOR EXPORT holds them in
 * the arm's session (UNLOCK TABLES after, whatever happened); *bytes in
 * all. The files are mysql's: each is opened as the residency reading
 * opens them, and copied only if it is a regular file owned by the mysql
 * user with one link and at most max bytes. 0, or -1 reported. */
int hostarm_export_tables(struct hostarm *h, long long tables, const char *dest, size_t max,
                          double *bytes);

/* A prepared copy's sbtest<i>.ibd and .cfg in src -- a directory only root
 * can change (safefile_trusted_dir), its files regular, opened without
 * following a link -- into the arm's server, whose sbtest tables exist
 * empty: ALTER TABLE ... DISCARD TABLESPACE, the files written into
 * mysql's sbtest directory by a child that is the mysql user
 * (util/asuser.h: root writes nothing there; the files' holes kept),
 * ALTER TABLE ... IMPORT TABLESPACE, the .cfg removed the same way. 0, or
 * -1 reported. */
int hostarm_import_tables(struct hostarm *h, long long tables, const char *src);

/* ---- on the host the arm runs on (this machine; `vbed host` requests) ---- */

/* The file in every arm directory that says it is one: only a directory
 * holding it is ever attached to, stopped or removed by a request. */
#define HOSTARM_MARK "vbed-hostarm"
/* An arm directory's path is acceptable: absolute, at most
 * HOSTARM_DIR_MAX bytes, no "." or ".." component, its name
 * "vbed-<session>-..." and its parent named "host". 0, or -1 with the
 * reason in why. */
int hostarm_dir_check(const char *dir, char *why, size_t len);
/* A running arm that a previous process started (dir holds the mark, and
 * it and the directories above it are root's alone): its paths, its
 * mariadbd (pid -1 if none runs), its cgroup if any. NULL reported. */
struct hostarm *hostarm_attach(const char *dir);
/* The pid in root's record dir/mariadbd.pid if that process is still the
 * one started then (its start time) and the arm's own mariadbd (its
 * executable, and --datadir=<dir>/mysql/data); -1 otherwise: after a
 * reboot the pid may belong to anything, which must not be signalled.
 * (mysql's own mysqld.pid is never read.) */
pid_t hostarm_mariadbd(const char *dir);
/* Let go of an arm without stopping it (a request's end). */
void hostarm_detach(struct hostarm *h);
/* Options that run a child in the arm's cgroup. */
void hostarm_spawn_opts(const struct hostarm *h, struct spawn_opts *o);
/* A program the arm runs (arm-exec), for hostarm_stop to end it; and its
 * CPU time once it ended, added to programs_cpu_s. */
void hostarm_program_started(const struct hostarm *h, pid_t pid);
void hostarm_program_ended(const struct hostarm *h, double cpu_s);

#endif
