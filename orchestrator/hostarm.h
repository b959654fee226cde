/* hostarm.h: the host arm's private mariadbd.
 *
 * Its own datadir, socket and pid file under <base>/<name>/ (base is next
 * to the pool's directory, so on the same filesystem as the guests' disks),
 * no TCP port, the run's my.cnf as --defaults-file, started as the mysql
 * user. With host_match = guest it runs in a cgroup whose cpuset holds as
 * many CPUs as a guest has vCPUs (the first ones: those guest 1's vCPUs get
 * when pin = auto pins them, placement.h) and whose memory is capped at a
 * guest's (page cache included; on cgroup v1 swap is not limited); the
 * membership and CPU affinity of mariadbd are checked after start, and a
 * mariadbd that is not confined fails the run. sysbench runs in the same
 * cgroup, as it runs inside the guest in the guest arms. Never the system's MariaDB. Stopped and removed on
 * every exit path; `vbed clean` removes what a killed vbed left. */
#ifndef VBED_HOSTARM_H
#define VBED_HOSTARM_H

#include "keys.h"
#include "spawn.h"
#include "sql.h"

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct hostarm {
    char dir[PATH_MAX];
    char datadir[PATH_MAX];
    char socket[PATH_MAX];
    char pidfile[PATH_MAX];
    char mycnf[PATH_MAX];
    char errlog[PATH_MAX];
    struct cgroup *cg;
    char cpus[32];          /* its cpuset ("0", "0-3"); "" with host_match = none */
    bool confined;          /* checked after start: in the cgroup, on those CPUs only */
    pid_t pid;
    struct sql *sql;
    bool sql_shutdown_sent;
};

/* The directory host arms live in: <pool_dir>/../host */
void hostarm_base(const char *pool_dir, char *buf, size_t len);

/* Make the datadir and start mariadbd; wait until it answers (timeout_db).
 * NULL after reporting (whatever was started is stopped again). */
struct hostarm *hostarm_start(const struct run_config *cfg, const char *mycnf, const char *base,
                              const char *name);
/* Options that run a child in the arm's cgroup (for sysbench). */
void hostarm_spawn_opts(const struct hostarm *h, struct spawn_opts *o);
/* Stop mariadbd, remove the cgroup and the directory; NULL-safe. The error
 * log is copied to keep_log first if given. */
void hostarm_stop(struct hostarm *h, const char *keep_log);

#endif
