/* hostarm.c: the host arm's private mariadbd on this machine (see
 * hostarm.h; a remote host's is hostarm_remote.c's). */
#include "targets/hostarm.h"
#include "targets/innodb.h"
#include "util/xalloc.h"

#include "hostside/cgroup.h"
#include "hostside/hostcache.h"
#include "util/log.h"
#include "hostside/noise.h"
#include "util/cpuwindow.h"
#include "virt/placement.h"
#include "util/paths.h"
#include "util/process.h"
#include "util/procfs.h"
#include "util/asuser.h"
#include "util/safefile.h"
#include "results/session.h"
#include "util/signals.h"
#include "util/textfile.h"
#include "image/archive.h"

#include <dirent.h>
#include <math.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void hostarm_limits_of(const struct run_config *cfg, struct hostarm_limits *l)
{
    l->confine = cfg->host_match == HOST_MATCH_GUEST;
    l->vcpus = cfg->vcpus;
    l->memory = cfg->memory;
    l->timeout_db = cfg->timeout_db;
}

void hostarm_base(const char *pool_dir, char *buf, size_t len)
{
    char parent[PATH_MAX];
    snprintf(parent, sizeof(parent), "%s", pool_dir);
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/')
        parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent)
        *slash = '\0';
    else
        snprintf(parent, sizeof(parent), "/");
    path_join(buf, len, parent, "host");
}

/* the unix socket's path must fit sockaddr_un (HOSTARM_DIR_MAX's reason) */
_Static_assert(HOSTARM_DIR_MAX + sizeof("/" HOSTARM_MYSQL_DIR "/mysqld.sock") - 1 <
                   sizeof(((struct sockaddr_un *)0)->sun_path),
               "an arm's socket path must fit a unix socket address");

/* The directory fd (path names it) given to the mysql user: the one
 * place of the arm that is not root's. */
static int own_by_mysql(int fd, const char *path)
{
    struct passwd *pw = getpwnam("mysql");
    if (!pw) {
        log_error("There is no 'mysql' user on this host (is mariadb-server installed? make deps).");
        return -1;
    }
    if (fchown(fd, pw->pw_uid, pw->pw_gid) < 0 || fchmod(fd, 0750) < 0) {
        log_error("Cannot give '%s' to the mysql user: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* dir opened for root's own work in it: dir and every directory above it
 * can be changed by root alone (safefile_trusted_dir). An fd, or -1
 * reported. */
static int open_trusted(const char *dir)
{
    char why[PATH_MAX + 128];
    if (safefile_trusted_dir(dir, why, sizeof(why)) < 0) {
        log_error("Refusing the host arm directory '%s': %s. Only root may write there (chown root:, "
                  "chmod go-w; an arm of an older vbed belongs to mysql: remove it by hand).",
                  dir, why);
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        log_error("Cannot open the host arm directory '%s': %s", dir, strerror(errno));
    return fd;
}

static int install_db(struct hostarm *h, const struct hostarm_limits *l)
{
    char defaults[PATH_MAX + 32], datadir[PATH_MAX + 16], log[PATH_MAX];
    snprintf(defaults, sizeof(defaults), "--defaults-file=%s", h->mycnf);
    snprintf(datadir, sizeof(datadir), "--datadir=%s", h->datadir);
    path_join(log, sizeof(log), h->dir, "install-db.log");
    const char *argv[] = {"mariadb-install-db", defaults, "--user=mysql", datadir,
                          "--skip-test-db", "--skip-name-resolve", NULL};
    struct spawn_opts o = {.log_path = log, .timeout = l->timeout_db};
    int rc = spawn_run(argv, &o);
    if (rc != 0) {
        if (rc > 0)
            log_error("mariadb-install-db failed for the host arm (exit %d); see %s", rc, log);
        return -1;
    }
    return 0;
}

/* mariadbd started: its pid and start time in root's record, the only
 * place a later request (or vbed clean) takes a pid to signal from */
static int record_server(const struct hostarm *h, int dirfd)
{
    char path[PATH_MAX], text[64];
    path_join(path, sizeof(path), h->dir, HOSTARM_SERVER_RECORD);
    snprintf(text, sizeof(text), "%d %lld\n", (int)h->pid, process_start_time(h->pid));
    return safefile_write(dirfd, HOSTARM_SERVER_RECORD, path, text, strlen(text));
}

static int start_server(struct hostarm *h, const struct hostarm_limits *l, int dirfd)
{
    char defaults[PATH_MAX + 32], datadir[PATH_MAX + 16], sock[PATH_MAX + 16], pid[PATH_MAX + 16],
        err[PATH_MAX + 16];
    snprintf(defaults, sizeof(defaults), "--defaults-file=%s", h->mycnf);
    snprintf(datadir, sizeof(datadir), "--datadir=%s", h->datadir);
    snprintf(sock, sizeof(sock), "--socket=%s", h->socket);
    snprintf(pid, sizeof(pid), "--pid-file=%s", h->pidfile);
    snprintf(err, sizeof(err), "--log-error=%s", h->errlog);
    const char *argv[] = {"mariadbd", defaults, "--user=mysql", datadir, sock, pid, err,
                          "--skip-networking", NULL};
    struct spawn_opts o = {0};
    hostarm_spawn_opts(h, &o);
    h->pid = spawn_start(argv, &o);
    if (h->pid < 0)
        return -1;
    h->child = true;
    if (record_server(h, dirfd) < 0)
        return -1;

    /* the socket appears when the server accepts connections */
    for (long waited = 0;; waited++) {
        int status;
        if (waitpid(h->pid, &status, WNOHANG) == h->pid) {
            h->pid = -1;
            log_error("The host arm's mariadbd exited during start-up; see %s", h->errlog);
            return -1;
        }
        if (access(h->socket, F_OK) == 0)
            break;
        if (waited >= l->timeout_db * 10 || signals_interrupted()) {
            if (!signals_interrupted())
                log_error("The host arm's mariadbd did not answer within %lld s (timeout_db); "
                          "see %s",
                          l->timeout_db, h->errlog);
            return -1;
        }
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
    h->sql = sql_open_socket(h->socket, 30);
    /* the socket is in mysql's directory: whatever answers there must be
     * the arm's own mariadbd, as the kernel says (SO_PEERCRED) */
    long long peer = sql_peer_pid(h->sql);
    if (h->sql && h->pid > 0 && peer != (long long)h->pid) {
        log_error("The socket %s is answered by pid %lld, not by the host arm's mariadbd %d: "
                  "refused.",
                  h->socket, peer, (int)h->pid);
        sql_close(h->sql);
        h->sql = NULL;
    }
    return h->sql ? 0 : -1;
}

void hostarm_paths(struct hostarm *h, const char *dir)
{
    snprintf(h->dir, sizeof(h->dir), "%s", dir);
    path_join(h->datadir, sizeof(h->datadir), h->dir, HOSTARM_MYSQL_DIR "/data");
    path_join(h->socket, sizeof(h->socket), h->dir, HOSTARM_MYSQL_DIR "/mysqld.sock");
    path_join(h->pidfile, sizeof(h->pidfile), h->dir, HOSTARM_MYSQL_DIR "/mysqld.pid");
    path_join(h->errlog, sizeof(h->errlog), h->dir, HOSTARM_MYSQL_DIR "/mysqld.err");
    path_join(h->mycnf, sizeof(h->mycnf), h->dir, "my.cnf");
    path_join(h->lua, sizeof(h->lua), h->dir, HOSTARM_SCRIPT);
}

/* An existing dir where an arm is to start: a stopped arm of that name goes
 * (it holds the mark, its mariadbd no longer runs); anything else stays
 * and the start is refused. 0, or -1 reported. */
static int replace_stopped(int basefd, const char *name, const char *dir)
{
    struct stat st;
    int fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    bool marked = fd >= 0 && fstatat(fd, HOSTARM_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    if (fd >= 0)
        close(fd);
    if (!marked) {
        log_error("'%s' exists and is not a host arm (no %s in it): left alone, the arm not started.",
                  dir, HOSTARM_MARK);
        return -1;
    }
    pid_t pid = hostarm_mariadbd(dir);
    if (pid > 0) {
        log_error("'%s' is a running host arm (its mariadbd is pid %d): not started again; stop it first "
                  "(vbed host arm-stop, or vbed clean).",
                  dir, (int)pid);
        return -1;
    }
    log_info("removing the stopped host arm '%s' to start it again", dir);
    paths_remove_tree(dir);
    if (fstatat(basefd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        log_error("Cannot remove the stopped host arm '%s'.", dir);
        return -1;
    }
    return 0;
}

/* The arm's files are made in an order that leaves mysql nothing to race:
 * the directory and root's files in it (mark, my.cnf, the workload script)
 * first; mysql/ and its datadir while still root's, so that
 * mariadb-install-db's chown of the datadir cannot be redirected; mysql/
 * given to mysql only then, before mariadbd starts as mysql. lua_text (the
 * helper's arm-start) is written into the arm; otherwise lua_path (a file
 * of vbed's own) is used where it is. */
static struct hostarm *start_here(const struct hostarm_limits *l, const char *mycnf, const char *lua_path,
                                  const char *lua_text, const char *base, const char *name)
{
    struct hostarm *h = NULL;
    int basefd = -1, fd = -1, myfd = -1;
    bool ok = false;
    char dir[PATH_MAX], why[256], path[PATH_MAX];
    if (path_join(dir, sizeof(dir), base, name) < 0 || hostarm_dir_check(dir, why, sizeof(why)) < 0) {
        log_error("'%s/%s' cannot be a host arm directory: %s.", base, name, why);
        return NULL;
    }
    if (paths_mkdirs(base, 0755) < 0 || (basefd = open_trusted(base)) < 0)
        goto cleanup;
    int made = mkdirat(basefd, name, 0755);
    if (made < 0 && errno == EEXIST) {
        if (replace_stopped(basefd, name, dir) < 0)
            goto cleanup;
        made = mkdirat(basefd, name, 0755);
    }
    if (made < 0) {
        log_error("Cannot create the host arm directory '%s': %s", dir, strerror(errno));
        goto cleanup;
    }
    /* from here on the directory is this arm's: a failure removes it */
    h = xcalloc(1, sizeof(*h));
    h->pid = -1;
    hostarm_paths(h, dir);
    h->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (!lua_text)
        snprintf(h->lua, sizeof(h->lua), "%s", lua_path);
    fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || fchmod(fd, 0755) < 0) {
        log_error("Cannot open the host arm directory '%s': %s", dir, strerror(errno));
        goto cleanup;
    }
    static const char mark_text[] = "a vbed host arm: `vbed host arm-stop` removes it\n";
    path_join(path, sizeof(path), dir, HOSTARM_MARK);
    if (safefile_write(fd, HOSTARM_MARK, path, mark_text, strlen(mark_text)) < 0 ||
        safefile_write(fd, "my.cnf", h->mycnf, mycnf, strlen(mycnf)) < 0 ||
        (lua_text && safefile_write(fd, HOSTARM_SCRIPT, h->lua, lua_text, strlen(lua_text)) < 0))
        goto cleanup;
    path_join(path, sizeof(path), dir, HOSTARM_MYSQL_DIR);
    /* 0755 while root's: mariadb-install-db's server (mysql) must reach data/ */
    if (mkdirat(fd, HOSTARM_MYSQL_DIR, 0755) < 0 ||
        (myfd = openat(fd, HOSTARM_MYSQL_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
        mkdirat(myfd, "data", 0750) < 0) {
        log_error("Cannot create '%s' and its datadir: %s", path, strerror(errno));
        goto cleanup;
    }
    if (l->confine) {
        /* the CPUs this helper may run on (vbed's, inherited; util/cpuwindow.h) */
        struct cpuwindow win = cpuwindow_of_self(h->online_cpus);
        long online = win.count;
        placement_host_cpus(l->vcpus, win.first, online, h->cpus, sizeof(h->cpus));
        if (l->vcpus > online)
            log_warn("The host has %ld CPUs, fewer than a guest's %lld vCPUs: the host arm gets "
                     "all of them.",
                     online, l->vcpus);
        h->cg = cgroup_create(name, h->cpus, l->memory);
        if (!h->cg)
            goto cleanup;
    }
    if (install_db(h, l) < 0 || own_by_mysql(myfd, path) < 0 || start_server(h, l, fd) < 0)
        goto cleanup;
    if (h->cg) {
        /* never claim a confinement that is not there */
        if (cgroup_check_member(h->cg, h->pid, h->cpus, why, sizeof(why)) < 0) {
            log_error("The host arm's mariadbd is not confined to its cgroup: %s.", why);
            goto cleanup;
        }
        h->confined = true;
    }
    ok = true;
cleanup:
    if (myfd >= 0)
        close(myfd);
    if (fd >= 0)
        close(fd);
    if (basefd >= 0)
        close(basefd);
    if (!ok) {
        hostarm_stop(h, NULL);
        h = NULL;
    }
    return h;
}

struct hostarm *hostarm_start(const struct hostarm_limits *l, const char *mycnf, const char *lua,
                              const char *base, const char *name)
{
    return start_here(l, mycnf, lua, NULL, base, name);
}

struct hostarm *hostarm_start_with_script(const struct hostarm_limits *l, const char *mycnf,
                                          const char *lua_text, const char *base, const char *name)
{
    return start_here(l, mycnf, NULL, lua_text, base, name);
}

int hostarm_dir_check(const char *dir, char *why, size_t len)
{
    char id[SESSION_ID_MAX], parent[PATH_MAX];
    const char *slash = strrchr(dir, '/');
    if (dir[0] != '/' || !slash || strlen(dir) > HOSTARM_DIR_MAX) {
        snprintf(why, len,
                 "not an absolute path of at most %d bytes (its socket, DIR/%s/mysqld.sock, must fit a "
                 "unix socket address)",
                 HOSTARM_DIR_MAX, HOSTARM_MYSQL_DIR);
        return -1;
    }
    if (strstr(dir, "/./") || strstr(dir, "/../") || strstr(dir, "//") ||
        strcmp(slash, "/.") == 0 || strcmp(slash, "/..") == 0) {
        snprintf(why, len, "has a '.', '..' or empty component");
        return -1;
    }
    if (session_of_name(slash + 1, id) < 0) {
        snprintf(why, len, "its name is not vbed-<session>-...");
        return -1;
    }
    snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
    const char *p = strrchr(parent, '/');
    if (!p || strcmp(p, "/host") != 0) {
        snprintf(why, len, "its parent directory is not named 'host'");
        return -1;
    }
    return 0;
}

pid_t hostarm_mariadbd(const char *dir)
{
    char record[PATH_MAX], datadir[PATH_MAX];
    path_join(record, sizeof(record), dir, HOSTARM_SERVER_RECORD);
    path_join(datadir, sizeof(datadir), dir, HOSTARM_MYSQL_DIR "/data");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    char *text = fd >= 0 ? safefile_read_small(fd, HOSTARM_SERVER_RECORD, 64) : NULL;
    if (fd >= 0)
        close(fd);
    int pid = 0;
    long long started = -1;
    if (!text || sscanf(text, "%d %lld", &pid, &started) != 2)
        pid = 0;
    free(text);
    if (pid <= 1 || process_start_time(pid) != started)
        return -1; /* none recorded, or it ended (after a reboot the pid is another process's) */
    if (!process_is_mariadbd_of(pid, datadir)) {
        char exe[256] = "?";
        process_exe_name(pid, exe, sizeof(exe));
        log_warn("'%s' names pid %d, but that is '%s', not the mariadbd of '%s': not signalled.",
                 record, pid, exe, datadir);
        return -1;
    }
    return (pid_t)pid;
}

struct hostarm *hostarm_attach(const char *dir)
{
    char why[256], mark[PATH_MAX];
    if (hostarm_dir_check(dir, why, sizeof(why)) < 0) {
        log_error("'%s' is not a host arm directory: %s.", dir, why);
        return NULL;
    }
    path_join(mark, sizeof(mark), dir, HOSTARM_MARK);
    int fd = open_trusted(dir);
    if (fd < 0)
        return NULL;
    struct stat st;
    bool marked = fstatat(fd, HOSTARM_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    close(fd);
    if (!marked) {
        log_error("'%s' is not a host arm directory: it has no %s.", dir, HOSTARM_MARK);
        return NULL;
    }
    struct hostarm *h = xcalloc(1, sizeof(*h));
    hostarm_paths(h, dir);
    h->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    h->pid = hostarm_mariadbd(dir);
    h->cg = cgroup_open(strrchr(dir, '/') + 1);
    return h;
}

void hostarm_spawn_opts(const struct hostarm *h, struct spawn_opts *o)
{
    if (!h->cg)
        return;
    const char *const *files = cgroup_procs_files(h->cg);
    for (int i = 0; i < 3 && files[i]; i++)
        o->cgroup_procs[i] = files[i];
}

/* A pid this process did not start: SIGTERM, up to grace seconds, SIGKILL.
 * A zombie (its parent gone, and no init that reaps) counts as gone. */
static void stop_foreign(pid_t pid, long grace, bool term)
{
    if (term)
        kill(pid, SIGTERM);
    for (long i = 0; i < grace * 10 && process_running(pid); i++) {
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (process_running(pid))
        kill(pid, SIGKILL);
}

/* ---- the programs an arm runs for `vbed host arm-exec` ---- */

/* Their records are root's files in the arm's directory: program.pid ("pid
 * start-time" of the program arm-exec runs) and programs-cpu (the CPU
 * seconds of those that ended). */
#define PROGRAM_RECORD "program.pid"
#define PROGRAMS_CPU "programs-cpu"

void hostarm_program_started(const struct hostarm *h, pid_t pid)
{
    char path[PATH_MAX], text[64];
    path_join(path, sizeof(path), h->dir, PROGRAM_RECORD);
    snprintf(text, sizeof(text), "%d %lld\n", (int)pid, process_start_time(pid));
    int fd = open_trusted(h->dir);
    if (fd < 0)
        return;
    safefile_write(fd, PROGRAM_RECORD, path, text, strlen(text));
    close(fd);
}

static double programs_cpu(int dirfd)
{
    char *text = safefile_read_small(dirfd, PROGRAMS_CPU, 64);
    double s = text ? strtod(text, NULL) : 0;
    free(text);
    return isfinite(s) && s >= 0 ? s : 0;
}

void hostarm_program_ended(const struct hostarm *h, double cpu_s)
{
    char path[PATH_MAX], text[64];
    int fd = open_trusted(h->dir);
    if (fd < 0)
        return;
    /* gone: arm-stop took it, the arm is going away */
    if (unlinkat(fd, PROGRAM_RECORD, 0) == 0) {
        path_join(path, sizeof(path), h->dir, PROGRAMS_CPU);
        snprintf(text, sizeof(text), "%.6f\n", programs_cpu(fd) + cpu_s);
        safefile_write(fd, PROGRAMS_CPU, path, text, strlen(text));
    }
    close(fd);
}

/* The program arm-exec still runs (the caller went away): its process
 * group, if the record names the group arm-exec started -- a pid above 1,
 * of the process that started then, leading its own group (spawn starts
 * every program so) -- and nothing else. */
static void stop_program(const struct hostarm *h)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), h->dir, PROGRAM_RECORD);
    int fd = open_trusted(h->dir);
    if (fd < 0)
        return;
    char *text = safefile_read_small(fd, PROGRAM_RECORD, 64);
    unlinkat(fd, PROGRAM_RECORD, 0); /* arm-exec then records nothing more in a directory going away */
    close(fd);
    int pid = 0;
    long long started = -1;
    bool recorded = text && sscanf(text, "%d %lld", &pid, &started) == 2;
    free(text);
    if (!recorded || process_start_time(pid) != started)
        return; /* none, or it ended */
    if (pid <= 1 || pid == getpid() || pid == getpgrp()) {
        log_warn("'%s' names pid %d, which is no program of the arm: not signalled.", path, pid);
        return;
    }
    if (getpgid(pid) != pid) {
        log_warn("'%s' names pid %d, which leads no process group of its own (an arm's program "
                 "does): not signalled.",
                 path, pid);
        return;
    }
    log_info("stopping the program %d the host arm still runs", pid);
    process_signal_group(pid, SIGTERM);
    stop_foreign(pid, 10, true);
    process_signal_group(pid, SIGKILL);
}

void hostarm_stop(struct hostarm *h, const char *keep_log)
{
    if (!h)
        return;
    if (!h->child)
        stop_program(h);
    if (h->sql && h->pid > 0) {
        struct sql_result r = {0};
        /* a clean shutdown; SIGTERM does the same when there is no connection */
        h->sql_shutdown_sent = sql_query(h->sql, "SHUTDOWN", &r) == 0;
        sql_result_free(&r);
    }
    sql_close(h->sql);
    h->sql = NULL;
    if (h->pid > 0 && h->child) {
        /* SHUTDOWN was sent (or the connection is gone): give it a minute */
        if (!h->sql_shutdown_sent)
            kill(h->pid, SIGTERM);
        spawn_reap(h->pid, 60);
    } else if (h->pid > 0) {
        stop_foreign(h->pid, 60, !h->sql_shutdown_sent);
    }
    h->pid = -1;
    cgroup_destroy(h->cg);
    h->cg = NULL;
    if (keep_log) {
        char *text = hostarm_read_log(h, "mysqld.err");
        if (text)
            textfile_write_text(keep_log, text);
        free(text);
    }
    paths_remove_tree(h->dir);
    free(h);
}

void hostarm_detach(struct hostarm *h)
{
    if (!h)
        return;
    sql_close(h->sql);
    cgroup_free(h->cg);
    free(h);
}

pid_t hostarm_exec_start(struct hostarm *h, const char *const argv[], const char *const env[],
                         const char *out_path)
{
    remove(out_path);
    struct spawn_opts o = {.env = env, .log_path = out_path};
    hostarm_spawn_opts(h, &o);
    return spawn_start(argv, &o);
}

/* mysql's sbtest directory in the arm, opened from root's arm directory
 * without following a link at any step (safefile_open_dir); -1, said
 * (report) where it is not there */
static int open_tables_dir(const struct hostarm *h, bool report)
{
    int fd = open_trusted(h->dir);
    int sfd = fd >= 0 ? safefile_open_dir(fd, HOSTARM_MYSQL_DIR "/data/sbtest") : -1;
    if (fd >= 0 && sfd < 0 && report)
        log_error("Cannot open '%s/sbtest': %s", h->datadir, safefile_why(errno));
    if (fd >= 0)
        close(fd);
    return sfd;
}

/* Bytes of the arm's tables (sbtest*.ibd in its datadir) in the page cache;
 * -1 if none could be measured. The datadir is mysql's: each step is
 * opened without following a link, and only regular files are measured
 * (a FIFO there would otherwise hold the helper for ever). */
static long long tables_resident(const struct hostarm *h)
{
    int sfd = open_tables_dir(h, false);
    DIR *d = sfd >= 0 ? fdopendir(sfd) : NULL;
    if (!d) {
        if (sfd >= 0)
            close(sfd);
        return -1;
    }
    long long sum = -1;
    struct dirent *de;
    /* a table is at most one file of a few names: a directory of millions
     * is not the arm's, and is not read to its end */
    for (int seen = 0; seen < 100000 && !signals_interrupted() && (de = readdir(d)); seen++) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "sbtest", 6) != 0 || len < 5 || strcmp(de->d_name + len - 4, ".ibd") != 0)
            continue;
        int f = safefile_open_read(dirfd(d), de->d_name);
        if (f < 0)
            continue; /* a link, a FIFO: not a table */
        char what[PATH_MAX + 300];
        snprintf(what, sizeof(what), "%s/sbtest/%s", h->datadir, de->d_name);
        long long b = hostcache_resident_fd(f, what);
        close(f);
        if (b >= 0)
            sum = (sum < 0 ? 0 : sum) + b;
    }
    closedir(d);
    return sum;
}

int hostarm_status(struct hostarm *h, struct hostarm_status *st)
{
    st->server_cpu_s = h->pid > 0 ? procfs_pid_cpu_s(h->pid) : -1;
    /* vbed's own children when it runs the arm itself; arm-exec's record otherwise */
    if (h->child) {
        st->programs_cpu_s = noise_cpu_children_s();
    } else {
        int fd = open_trusted(h->dir);
        st->programs_cpu_s = fd >= 0 ? programs_cpu(fd) : 0;
        if (fd >= 0)
            close(fd);
    }
    st->read_bytes = st->write_bytes = st->server_rss_bytes = NAN;
    st->resident_bytes = tables_resident(h);
    char p[64];
    snprintf(p, sizeof(p), "/proc/%d/io", (int)h->pid);
    char *text = h->pid > 0 ? textfile_read(p) : NULL;
    if (text) {
        const char *rb = strstr(text, "\nread_bytes:"), *wb = strstr(text, "\nwrite_bytes:");
        if (rb)
            st->read_bytes = strtod(rb + 12, NULL);
        if (wb)
            st->write_bytes = strtod(wb + 13, NULL);
        free(text);
    }
    snprintf(p, sizeof(p), "/proc/%d/status", (int)h->pid);
    text = h->pid > 0 ? textfile_read(p) : NULL;
    double rss;
    if (text && procfs_parse_meminfo(text, "VmRSS", &rss) == 0)
        st->server_rss_bytes = rss;
    free(text);
    return 0;
}

char *hostarm_read_log(const struct hostarm *h, const char *name)
{
    bool mysqls = strcmp(name, "mysqld.err") == 0;
    if (!mysqls && strcmp(name, "install-db.log") != 0) {
        log_error("'%s' is not a log of the host arm (mysqld.err, install-db.log).", name);
        return NULL;
    }
    char path[PATH_MAX];
    path_join(path, sizeof(path), h->dir, mysqls ? HOSTARM_MYSQL_DIR "/mysqld.err" : name);
    int fd = open_trusted(h->dir);
    int at = fd >= 0 && mysqls ? safefile_open_dir(fd, HOSTARM_MYSQL_DIR) : fd;
    char *text = at >= 0 ? safefile_read_tail(at, name, HOSTARM_LOG_MAX, NULL) : NULL;
    if (!text && fd >= 0)
        log_error("Cannot read '%s': %s", path, safefile_why(errno));
    if (at >= 0 && at != fd)
        close(at);
    if (fd >= 0)
        close(fd);
    return text;
}

int hostarm_fetch(struct hostarm *h, const char *name, const char *dest)
{
    char *text = hostarm_read_log(h, name);
    if (!text)
        return -1;
    int rc = textfile_write(dest, text, strlen(text));
    free(text);
    return rc;
}

int hostarm_make_archive(struct hostarm *h, long long *bytes)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), h->dir, "extract.tar");
    int fd = open_trusted(h->dir);
    int afd = fd >= 0 ? safefile_create(fd, "extract.tar", path) : -1;
    int rc = afd >= 0 ? archive_write_fixed_fd(afd, path, bytes) : -1;
    if (afd >= 0 && close(afd) < 0 && rc == 0) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        rc = -1;
    }
    if (fd >= 0)
        close(fd);
    return rc;
}

int hostarm_export_tables(struct hostarm *h, long long tables, const char *dest, size_t max,
                          double *bytes)
{
    struct passwd *pw = getpwnam("mysql");
    if (!pw || tables < 1) {
        log_error("The host arm's tables cannot be exported: %s", pw ? "no tables" : "no mysql user");
        return -1;
    }
    uid_t owner = pw->pw_uid;
    char *flush = innodb_flush_for_export(tables);
    struct sql_result r = {0};
    int rc = sql_query(h->sql, flush, &r);
    sql_result_free(&r);
    free(flush);
    if (rc < 0) {
        log_error("The host arm's server did not export its tables");
        return -1;
    }
    /* the tables are held (and their .cfg written) until UNLOCK TABLES in this session */
    int sfd = open_tables_dir(h, true);
    int dfd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        log_error("Cannot open '%s': %s", dest, strerror(errno));
    rc = sfd >= 0 && dfd >= 0 ? 0 : -1;
    static const char *const ext[] = {"ibd", "cfg"};
    for (long long i = 1; rc == 0 && i <= tables; i++)
        for (size_t e = 0; rc == 0 && e < 2; e++) {
            char name[64];
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, ext[e]);
            long long got = safefile_copy_owned(sfd, name, owner, max, dfd);
            if (got < 0) {
                log_error("Cannot copy '%s/sbtest/%s' for the guests: %s", h->datadir, name,
                          safefile_why(errno));
                rc = -1;
            } else {
                *bytes += (double)got;
            }
        }
    if (sfd >= 0)
        close(sfd);
    if (dfd >= 0)
        close(dfd);
    if (sql_query(h->sql, "UNLOCK TABLES", &r) < 0)
        rc = -1;
    sql_result_free(&r);
    return rc;
}

/* the copy's file names: sbtest<i>.ibd and .cfg for every table (malloc'd) */
static char (*copy_names(long long tables))[32]
{
    char(*names)[32] = xcalloc((size_t)tables * 2, sizeof(*names));
    for (long long i = 0; i < tables; i++) {
        snprintf(names[2 * i], sizeof(names[0]), "sbtest%lld.ibd", i + 1);
        snprintf(names[2 * i + 1], sizeof(names[0]), "sbtest%lld.cfg", i + 1);
    }
    return names;
}

int hostarm_import_tables(struct hostarm *h, long long tables, const char *src)
{
    struct passwd *pw = getpwnam("mysql");
    char why[PATH_MAX + 128];
    if (!pw || tables < 1 || tables > 100000) {
        log_error("The host arm cannot import %lld prepared tables: %s", tables,
                  pw ? "not a number of tables a scenario has" : "there is no mysql user");
        return -1;
    }
    if (safefile_trusted_dir(src, why, sizeof(why)) < 0) {
        log_error("Refusing the prepared tables in '%s' for the host arm: %s", src, why);
        return -1;
    }
    size_t n = (size_t)tables * 2;
    char(*names)[32] = copy_names(tables);
    struct asuser_copy *files = xcalloc(n, sizeof(*files));
    for (size_t i = 0; i < n; i++)
        files[i] = (struct asuser_copy){.src_fd = -1, .name = names[i]};
    int rc = -1, sfd = -1, srcfd = open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (srcfd < 0) {
        log_error("Cannot open the prepared tables '%s': %s", src, strerror(errno));
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if ((files[i].src_fd = safefile_open_read(srcfd, names[i])) < 0) {
            log_error("Cannot read '%s/%s': %s", src, names[i], safefile_why(errno));
            goto out;
        }
    sfd = open_tables_dir(h, true);
    if (sfd < 0 || innodb_each_table(h->sql, tables, INNODB_DISCARD_TABLESPACE) < 0)
        goto out;
    size_t failed;
    if (asuser_copy_in(pw->pw_uid, pw->pw_gid, sfd, files, n, &failed) < 0) {
        if (!signals_interrupted())
            log_error("The mysql user could not write '%s/sbtest/%s': %s", h->datadir,
                      failed < n ? names[failed] : "(no file yet)", strerror(errno));
        goto out;
    }
    if (innodb_each_table(h->sql, tables, INNODB_IMPORT_TABLESPACE) < 0)
        goto out;
    const char **cfgs = xcalloc((size_t)tables, sizeof(*cfgs));
    for (long long i = 0; i < tables; i++)
        cfgs[i] = names[2 * i + 1];
    rc = asuser_unlink(pw->pw_uid, pw->pw_gid, sfd, cfgs, (size_t)tables, &failed);
    if (rc < 0 && !signals_interrupted())
        log_error("The mysql user could not remove '%s/sbtest/%s': %s", h->datadir,
                  failed < (size_t)tables ? cfgs[failed] : "(no file yet)", strerror(errno));
    free(cfgs);
out:
    for (size_t i = 0; i < n; i++)
        if (files[i].src_fd >= 0)
            close(files[i].src_fd);
    if (srcfd >= 0)
        close(srcfd);
    if (sfd >= 0)
        close(sfd);
    free(files);
    free(names);
    return rc;
}
