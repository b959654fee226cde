/* hostarm.c: the host arm's private mariadbd (see hostarm.h). */
#include "hostarm.h"
#include "xalloc.h"

#include "cgroup.h"
#include "log.h"
#include "placement.h"
#include "paths.h"
#include "signals.h"
#include "textfile.h"

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

static int install_db(struct hostarm *h, const struct run_config *cfg)
{
    char defaults[PATH_MAX + 32], datadir[PATH_MAX + 16], log[PATH_MAX];
    snprintf(defaults, sizeof(defaults), "--defaults-file=%s", h->mycnf);
    snprintf(datadir, sizeof(datadir), "--datadir=%s", h->datadir);
    path_join(log, sizeof(log), h->dir, "install-db.log");
    const char *argv[] = {"mariadb-install-db", defaults, "--user=mysql", datadir,
                          "--skip-test-db", "--skip-name-resolve", NULL};
    struct spawn_opts o = {.log_path = log, .timeout = cfg->timeout_db};
    int rc = spawn_run(argv, &o);
    if (rc != 0) {
        if (rc > 0)
            log_error("mariadb-install-db failed for the host arm (exit %d); see %s", rc, log);
        return -1;
    }
    return 0;
}

static int start_server(struct hostarm *h, const struct run_config *cfg)
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
        if (waited >= cfg->timeout_db * 10 || signals_interrupted()) {
            if (!signals_interrupted())
                log_error("The host arm's mariadbd did not answer within %lld s (timeout_db); "
                          "see %s",
                          cfg->timeout_db, h->errlog);
            return -1;
        }
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
    h->sql = sql_open_socket(h->socket, 30);
    return h->sql ? 0 : -1;
}

struct hostarm *hostarm_start(const struct run_config *cfg, const char *mycnf, const char *base,
                              const char *name)
{
    struct hostarm *h = xcalloc(1, sizeof(*h));
    h->pid = -1;
    path_join(h->dir, sizeof(h->dir), base, name);
    path_join(h->datadir, sizeof(h->datadir), h->dir, "data");
    path_join(h->socket, sizeof(h->socket), h->dir, "mysqld.sock");
    path_join(h->pidfile, sizeof(h->pidfile), h->dir, "mysqld.pid");
    path_join(h->mycnf, sizeof(h->mycnf), h->dir, "my.cnf");
    path_join(h->errlog, sizeof(h->errlog), h->dir, "mysqld.err");

    paths_remove_tree(h->dir);
    if (paths_mkdirs(h->datadir, 0750) < 0 || own_by_mysql(h->dir) < 0 ||
        own_by_mysql(h->datadir) < 0 || textfile_write_text(h->mycnf, mycnf) < 0)
        goto fail;
    chmod(h->dir, 0755);
    if (cfg->host_match == HOST_MATCH_GUEST) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        placement_host_cpus(cfg, online, h->cpus, sizeof(h->cpus));
        if (cfg->vcpus > online)
            log_warn("The host has %ld CPUs, fewer than a guest's %lld vCPUs: the host arm gets "
                     "all of them.",
                     online, cfg->vcpus);
        h->cg = cgroup_create(name, h->cpus, cfg->memory);
        if (!h->cg)
            goto fail;
    }
    if (install_db(h, cfg) < 0 || start_server(h, cfg) < 0)
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

void hostarm_stop(struct hostarm *h, const char *keep_log)
{
    if (!h)
        return;
    if (h->sql && h->pid > 0) {
        struct sql_result r = {0};
        /* a clean shutdown; SIGTERM does the same when there is no connection */
        h->sql_shutdown_sent = sql_query(h->sql, "SHUTDOWN", &r) == 0;
        sql_result_free(&r);
    }
    sql_close(h->sql);
    h->sql = NULL;
    if (h->pid > 0) {
        /* SHUTDOWN was sent (or the connection is gone): give it a minute */
        if (!h->sql_shutdown_sent)
            kill(h->pid, SIGTERM);
        spawn_reap(h->pid, 60);
        h->pid = -1;
    }
    cgroup_destroy(h->cg);
    h->cg = NULL;
    if (keep_log && access(h->errlog, R_OK) == 0)
        copy_file(h->errlog, keep_log);
    paths_remove_tree(h->dir);
    free(h);
}
