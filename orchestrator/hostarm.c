/* hostarm.c: the host arm's private mariadbd on this machine, and the
 * operations that go to a remote host's helper instead (see hostarm.h). */
#include "hostarm.h"
#include "hostarm_remote.h"
#include "xalloc.h"

#include "cgroup.h"
#include "hostcache.h"
#include "log.h"
#include "noise.h"
#include "placement.h"
#include "paths.h"
#include "process.h"
#include "session.h"
#include "signals.h"
#include "textfile.h"
#include "workloads/archive.h"

#include <dirent.h>
#include <math.h>

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static int own_by_mysql(const char *path)
{
    struct passwd *pw = getpwnam("mysql");
    if (!pw) {
        log_error("There is no 'mysql' user on this host (is mariadb-server installed? make deps).");
        return -1;
    }
    if (chown(path, pw->pw_uid, pw->pw_gid) < 0) {
        log_error("Cannot give '%s' to the mysql user: %s", path, strerror(errno));
        return -1;
    }
    return 0;
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

static int start_server(struct hostarm *h, const struct hostarm_limits *l)
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
    return h->sql ? 0 : -1;
}

static void set_paths(struct hostarm *h, const char *dir)
{
    snprintf(h->dir, sizeof(h->dir), "%s", dir);
    path_join(h->datadir, sizeof(h->datadir), h->dir, "data");
    path_join(h->socket, sizeof(h->socket), h->dir, "mysqld.sock");
    path_join(h->pidfile, sizeof(h->pidfile), h->dir, "mysqld.pid");
    path_join(h->mycnf, sizeof(h->mycnf), h->dir, "my.cnf");
    path_join(h->errlog, sizeof(h->errlog), h->dir, "mysqld.err");
    h->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

static struct hostarm *start_here(const struct hostarm_limits *l, const char *mycnf, const char *lua,
                                  const char *base, const char *name)
{
    struct hostarm *h = xcalloc(1, sizeof(*h));
    h->pid = -1;
    char dir[PATH_MAX], mark[PATH_MAX];
    path_join(dir, sizeof(dir), base, name);
    set_paths(h, dir);
    snprintf(h->lua, sizeof(h->lua), "%s", lua);
    path_join(mark, sizeof(mark), h->dir, HOSTARM_MARK);

    paths_remove_tree(h->dir);
    if (paths_mkdirs(base, 0755) < 0 || paths_mkdirs(h->datadir, 0750) < 0 || own_by_mysql(h->dir) < 0 ||
        own_by_mysql(h->datadir) < 0 || textfile_write_text(h->mycnf, mycnf) < 0 ||
        textfile_write_text(mark, "a vbed host arm: `vbed host arm-stop` removes it\n") < 0)
        goto fail;
    chmod(h->dir, 0755);
    if (l->confine) {
        long online = h->online_cpus;
        placement_host_cpus(l->vcpus, online, h->cpus, sizeof(h->cpus));
        if (l->vcpus > online)
            log_warn("The host has %ld CPUs, fewer than a guest's %lld vCPUs: the host arm gets "
                     "all of them.",
                     online, l->vcpus);
        h->cg = cgroup_create(name, h->cpus, l->memory);
        if (!h->cg)
            goto fail;
    }
    if (install_db(h, l) < 0 || start_server(h, l) < 0)
        goto fail;
    if (h->cg) {
        /* never claim a confinement that is not there */
        char why[512];
        if (cgroup_check_member(h->cg, h->pid, h->cpus, why, sizeof(why)) < 0) {
            log_error("The host arm's mariadbd is not confined to its cgroup: %s.", why);
            goto fail;
        }
        h->confined = true;
    }
    return h;
fail:
    hostarm_stop(h, NULL);
    return NULL;
}

struct hostarm *hostarm_start(struct hostside *hs, const struct hostarm_limits *l, const char *mycnf,
                              const char *lua, const char *base, const char *name)
{
    if (hs && hostside_uri(hs)->transport != HT_LOCAL)
        return hostarm_remote_start(hs, l, mycnf, lua, base, name);
    return start_here(l, mycnf, lua, base, name);
}

int hostarm_dir_check(const char *dir, char *why, size_t len)
{
    char id[SESSION_ID_MAX], parent[PATH_MAX];
    const char *slash = strrchr(dir, '/');
    if (dir[0] != '/' || !slash || strlen(dir) > PATH_MAX - 64) {
        snprintf(why, len, "not an absolute path of at most %d bytes", PATH_MAX - 64);
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
    char pidfile[PATH_MAX], datadir[PATH_MAX];
    path_join(pidfile, sizeof(pidfile), dir, "mysqld.pid");
    path_join(datadir, sizeof(datadir), dir, "data");
    FILE *f = fopen(pidfile, "r");
    int pid = 0;
    if (f) {
        if (fscanf(f, "%d", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    if (pid <= 0 || kill(pid, 0) != 0)
        return -1;
    if (!process_is_mariadbd_of(pid, datadir)) {
        char exe[256] = "?";
        process_exe_name(pid, exe, sizeof(exe));
        log_warn("'%s' names pid %d, but that is '%s', not the mariadbd of '%s': not signalled.",
                 pidfile, pid, exe, datadir);
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
    if (access(mark, F_OK) != 0) {
        log_error("'%s' is not a host arm directory: it has no %s.", dir, HOSTARM_MARK);
        return NULL;
    }
    struct hostarm *h = xcalloc(1, sizeof(*h));
    set_paths(h, dir);
    path_join(h->lua, sizeof(h->lua), dir, "vbed_oltp.lua");
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

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "r");
    FILE *out = in ? fopen(to, "w") : NULL;
    char buf[65536];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        fwrite(buf, 1, n, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
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

static void program_file(const struct hostarm *h, const char *name, char *buf, size_t len)
{
    path_join(buf, len, h->dir, name);
}

void hostarm_program_started(const struct hostarm *h, pid_t pid)
{
    char path[PATH_MAX], text[64];
    program_file(h, "program.pid", path, sizeof(path));
    snprintf(text, sizeof(text), "%d %lld\n", (int)pid, process_start_time(pid));
    textfile_write_text(path, text);
}

static double programs_cpu(const struct hostarm *h)
{
    char path[PATH_MAX];
    program_file(h, "programs-cpu", path, sizeof(path));
    char *text = textfile_read(path);
    double s = text ? strtod(text, NULL) : 0;
    free(text);
    return isfinite(s) && s >= 0 ? s : 0;
}

void hostarm_program_ended(const struct hostarm *h, double cpu_s)
{
    char path[PATH_MAX], text[64];
    program_file(h, "program.pid", path, sizeof(path));
    if (remove(path) < 0)
        return; /* arm-stop took it: the arm is going away */
    program_file(h, "programs-cpu", path, sizeof(path));
    snprintf(text, sizeof(text), "%.6f\n", programs_cpu(h) + cpu_s);
    textfile_write_text(path, text);
}

/* The program arm-exec still runs (the caller went away): its process
 * group, if the pid is still that process. */
static void stop_program(const struct hostarm *h)
{
    char path[PATH_MAX];
    program_file(h, "program.pid", path, sizeof(path));
    char *text = textfile_read(path);
    remove(path); /* arm-exec then records nothing more in a directory going away */
    int pid = 0;
    long long started = -1;
    if (text && sscanf(text, "%d %lld", &pid, &started) == 2 && pid > 0 &&
        process_start_time(pid) == started) {
        log_info("stopping the program %d the host arm still runs", pid);
        kill(-pid, SIGTERM);
        stop_foreign(pid, 10, true);
        kill(-pid, SIGKILL);
    }
    free(text);
}

void hostarm_stop(struct hostarm *h, const char *keep_log)
{
    if (!h)
        return;
    if (h->remote) {
        hostarm_remote_stop(h, keep_log);
        return;
    }
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
    if (keep_log && access(h->errlog, R_OK) == 0)
        copy_file(h->errlog, keep_log);
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
    if (h->remote)
        return hostarm_remote_exec_start(h, argv, env, out_path);
    remove(out_path);
    struct spawn_opts o = {.env = env, .log_path = out_path};
    hostarm_spawn_opts(h, &o);
    return spawn_start(argv, &o);
}

/* Bytes of the arm's tables (sbtest*.ibd in its datadir) in the page cache;
 * -1 if none could be measured. */
static long long tables_resident(const struct hostarm *h)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/sbtest", h->datadir);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long long sum = -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "sbtest", 6) != 0 || len < 5 || strcmp(de->d_name + len - 4, ".ibd") != 0)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        long long b = hostcache_resident(path);
        if (b >= 0)
            sum = (sum < 0 ? 0 : sum) + b;
    }
    closedir(d);
    return sum;
}

int hostarm_status(struct hostarm *h, struct hostarm_status *st)
{
    if (h->remote)
        return hostarm_remote_status(h, st);
    st->server_cpu_s = h->pid > 0 ? noise_pid_cpu_s(h->pid) : -1;
    /* vbed's own children when it runs the arm itself; arm-exec's record otherwise */
    st->programs_cpu_s = h->child ? noise_cpu_children_s() : programs_cpu(h);
    st->read_bytes = st->write_bytes = NAN;
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
    return 0;
}

int hostarm_fetch(struct hostarm *h, const char *name, const char *dest)
{
    if (h->remote)
        return hostarm_remote_fetch(h, name, dest);
    char path[PATH_MAX];
    path_join(path, sizeof(path), h->dir, name);
    char *text = textfile_read(path);
    if (!text)
        return -1;
    int rc = textfile_write(dest, text, strlen(text));
    free(text);
    return rc;
}

int hostarm_make_archive(struct hostarm *h, long long *bytes)
{
    if (h->remote)
        return hostarm_remote_make_archive(h, bytes);
    char path[PATH_MAX];
    path_join(path, sizeof(path), h->dir, "extract.tar");
    return archive_write_fixed(path, bytes);
}
