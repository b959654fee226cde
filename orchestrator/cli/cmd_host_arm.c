/* cmd_host_arm.c: `vbed host arm-...`: a host arm on the host this helper
 * runs on, for a vbed elsewhere (hostarm_remote.c). Each request names the
 * arm by its directory; only a directory that hostarm_dir_check accepts
 * (…/host/vbed-<session>-…) and that holds the arm's mark is touched.
 * Arguments only; a reply is one JSON object on stdout, except arm-exec,
 * whose stdout and stderr are the program's and whose exit code is its.
 *
 *   arm-start [--timeout S] --mycnf TEXT --lua TEXT [--confine VCPUS MEMORY] -- DIR
 *        make and start it (hostarm.h); {"dir","datadir","socket","errlog",
 *        "lua","pid","cpus","confined","online_cpus"}; mariadbd stays
 *        running after the helper exits. Refused when DIR exists and is not
 *        a stopped arm (no mark, or its mariadbd runs), and when DIR or a
 *        directory above it may be written by another user than root
 *   arm-sql -- DIR STMT...     one session; {"rows":[["cell",...],...]}
 *   arm-exec [--env NAME=VALUE]... -- DIR PROGRAM ARG...   in the arm's cgroup
 *   arm-status -- DIR          {"server_cpu_us","programs_cpu_us","read_bytes",
 *                              "write_bytes","resident_bytes","server_rss_bytes"}
 *                              (absent: unknown)
 *   arm-file -- DIR NAME       {"text"}: the last MiB of mysqld.err or install-db.log
 *                              (read from its end, never through a link)
 *   arm-archive -- DIR         {"bytes"}: tar_extract's archive in DIR/extract.tar
 *   arm-stop -- DIR            {"stopped":true|false} (false: there was no such arm)
 *   arm-list -- BASE           {"arms":["vbed-...",...]}: the arms under BASE
 * The arguments are read and checked by host_request.c. */
#include "cli/cmd_host_arm.h"
#include "cli/host_request.h"

#include "util/exitcode.h"
#include "targets/hostarm.h"
#include "util/log.h"
#include "hostside/noise.h"
#include "util/paths.h"
#include "results/session.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a reply on stdout (hostside's protocol); an exit code */
static int reply(json_object *o) { return hostside_reply_print(o) == 0 ? EXIT_OK : EXIT_FAILED; }

static void add_str(json_object *o, const char *key, const char *v)
{
    json_object_object_add(o, key, json_object_new_string(v));
}

static void add_count(json_object *o, const char *key, double v)
{
    if (isfinite(v) && v >= 0 && v < 9007199254740992.0)
        json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

static int arm_start(const struct host_request *rq)
{
    struct hostarm_limits l = {.timeout_db = rq->timeout_db, .confine = rq->confine,
                               .vcpus = rq->vcpus, .memory = rq->memory};
    const char *mycnf = rq->mycnf, *lua = rq->lua;
    const char *dir = rq->dir;
    char why[256], base[PATH_MAX];
    if (hostarm_dir_check(dir, why, sizeof(why)) < 0) {
        log_error("vbed host arm-start: '%s' is not a host arm directory: %s.", dir, why);
        return EXIT_USAGE;
    }
    const char *slash = strrchr(dir, '/');
    snprintf(base, sizeof(base), "%.*s", (int)(slash - dir), dir);
    /* the script is written into the arm before anything runs as mysql */
    struct hostarm *h = hostarm_start_with_script(&l, mycnf, lua, base, slash + 1);
    if (!h)
        return EXIT_FAILED;
    json_object *o = hostside_reply_new();
    add_str(o, "dir", h->dir);
    add_str(o, "datadir", h->datadir);
    add_str(o, "socket", h->socket);
    add_str(o, "errlog", h->errlog);
    add_str(o, "lua", h->lua);
    add_count(o, "pid", h->pid);
    add_str(o, "cpus", h->cpus);
    json_object_object_add(o, "confined", json_object_new_boolean(h->confined));
    add_count(o, "online_cpus", (double)h->online_cpus);
    /* mariadbd runs on without this process: let go of it, stop nothing */
    hostarm_detach(h);
    return reply(o);
}

static int arm_sql(const char *dir, int n, char **stmts)
{
    if (n < 1) {
        log_error("vbed host arm-sql: no statement");
        return EXIT_USAGE;
    }
    struct hostarm *h = hostarm_attach(dir);
    if (!h)
        return EXIT_FAILED;
    struct sql *s = sql_open_socket(h->socket, 30);
    /* whatever answers in mysql's directory must be the arm's mariadbd */
    if (s && h->pid > 0 && sql_peer_pid(s) != (long long)h->pid) {
        log_error("The socket %s is answered by pid %lld, not by the arm's mariadbd %d: refused.",
                  h->socket, sql_peer_pid(s), (int)h->pid);
        sql_close(s);
        s = NULL;
    }
    hostarm_detach(h);
    if (!s)
        return EXIT_FAILED;
    const char **list = xcalloc((size_t)n + 1, sizeof(*list));
    for (int k = 0; k < n; k++)
        list[k] = stmts[k];
    struct sql_result r = {0};
    int rc = sql_run(s, list, &r);
    free(list);
    sql_close(s);
    if (rc < 0)
        return EXIT_FAILED;
    json_object *rows = json_object_new_array();
    for (size_t i = 0; i < r.rows; i++) {
        json_object *row = json_object_new_array();
        for (size_t c = 0; c < r.cols; c++)
            json_object_array_add(row, json_object_new_string(sql_cell(&r, i, c)));
        json_object_array_add(rows, row);
    }
    sql_result_free(&r);
    json_object *o = hostside_reply_new();
    json_object_object_add(o, "rows", rows);
    return reply(o);
}

/* exit codes of arm-exec when the program did not exit on its own */
#define ARM_EXEC_NOT_RUN 125

static int arm_exec(const char *dir, int n, char **prog, const char *const *env)
{
    if (n < 1) {
        log_error("vbed host arm-exec: no program");
        return EXIT_USAGE;
    }
    struct hostarm *h = hostarm_attach(dir);
    if (!h)
        return ARM_EXEC_NOT_RUN;
    struct spawn_opts o = {.env = env, .inherit_output = 1};
    hostarm_spawn_opts(h, &o);
    pid_t pid = spawn_start((const char *const *)prog, &o);
    if (pid < 0) {
        hostarm_detach(h);
        return ARM_EXEC_NOT_RUN;
    }
    hostarm_program_started(h, pid);
    double cpu0 = noise_cpu_children_s();
    int rc = spawn_wait(pid, 0, prog[0]);
    hostarm_program_ended(h, noise_cpu_children_s() - cpu0);
    hostarm_detach(h);
    return rc >= 0 ? rc : ARM_EXEC_NOT_RUN;
}

static int arm_status(const char *dir)
{
    struct hostarm *h = hostarm_attach(dir);
    if (!h)
        return EXIT_FAILED;
    struct hostarm_status st;
    hostarm_status(h, &st);
    hostarm_detach(h);
    json_object *o = hostside_reply_new();
    if (st.server_cpu_s >= 0)
        add_count(o, "server_cpu_us", st.server_cpu_s * 1e6);
    add_count(o, "programs_cpu_us", st.programs_cpu_s * 1e6);
    add_count(o, "read_bytes", st.read_bytes);
    add_count(o, "write_bytes", st.write_bytes);
    if (st.resident_bytes >= 0)
        add_count(o, "resident_bytes", (double)st.resident_bytes);
    add_count(o, "server_rss_bytes", st.server_rss_bytes);
    return reply(o);
}

static int arm_file(const char *dir, const char *name)
{
    if (strcmp(name, "mysqld.err") != 0 && strcmp(name, "install-db.log") != 0) {
        log_error("vbed host arm-file: '%s' is not one of mysqld.err, install-db.log", name);
        return EXIT_USAGE;
    }
    struct hostarm *h = hostarm_attach(dir);
    if (!h)
        return EXIT_FAILED;
    char *text = hostarm_read_log(h, name);
    hostarm_detach(h);
    if (!text)
        return EXIT_FAILED;
    json_object *o = hostside_reply_new();
    add_str(o, "text", text);
    free(text);
    return reply(o);
}

static int arm_archive(const char *dir)
{
    struct hostarm *h = hostarm_attach(dir);
    if (!h)
        return EXIT_FAILED;
    long long bytes;
    int rc = hostarm_make_archive(h, &bytes);
    hostarm_detach(h);
    if (rc < 0)
        return EXIT_FAILED;
    json_object *o = hostside_reply_new();
    add_count(o, "bytes", (double)bytes);
    return reply(o);
}

static int arm_stop(const char *dir)
{
    char why[256];
    if (hostarm_dir_check(dir, why, sizeof(why)) < 0) {
        log_error("vbed host arm-stop: '%s' is not a host arm directory: %s.", dir, why);
        return EXIT_USAGE;
    }
    bool there = access(dir, F_OK) == 0;
    if (there) {
        struct hostarm *h = hostarm_attach(dir);
        if (!h)
            return EXIT_FAILED;
        hostarm_stop(h, NULL);
        if (access(dir, F_OK) == 0) {
            log_error("'%s' is still there after the arm was stopped.", dir);
            return EXIT_FAILED;
        }
    }
    json_object *o = hostside_reply_new();
    json_object_object_add(o, "stopped", json_object_new_boolean(there));
    return reply(o);
}

static int arm_list(const char *base)
{
    json_object *arms = json_object_new_array();
    DIR *d = opendir(base);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char id[SESSION_ID_MAX], dir[PATH_MAX], why[256];
        path_join(dir, sizeof(dir), base, de->d_name);
        if (session_of_name(de->d_name, id) < 0 || hostarm_dir_check(dir, why, sizeof(why)) < 0)
            continue;
        json_object_array_add(arms, json_object_new_string(de->d_name));
    }
    if (d)
        closedir(d);
    json_object *o = hostside_reply_new();
    json_object_object_add(o, "arms", arms);
    return reply(o);
}

int cmd_host_arm(const char *what, int argc, char **argv)
{
    /* argv[0] is the request; options up to "--", then DIR and the rest */
    struct host_request rq;
    char why[256];
    if (host_request_parse(argc, argv, &rq, why, sizeof(why)) < 0) {
        log_error("vbed host %s: %s", what, why);
        return EXIT_USAGE;
    }
    int rc;
    switch (rq.kind) {
    case HR_START:
        rc = arm_start(&rq);
        break;
    case HR_EXEC:
        rc = arm_exec(rq.dir, rq.n_rest, rq.rest, rq.env);
        break;
    case HR_SQL:
        rc = arm_sql(rq.dir, rq.n_rest, rq.rest);
        break;
    case HR_FILE:
        rc = arm_file(rq.dir, rq.rest[0]);
        break;
    case HR_STATUS:
        rc = arm_status(rq.dir);
        break;
    case HR_ARCHIVE:
        rc = arm_archive(rq.dir);
        break;
    case HR_STOP:
        rc = arm_stop(rq.dir);
        break;
    case HR_LIST:
    default:
        rc = arm_list(rq.dir);
        break;
    }
    host_request_free(&rq);
    return rc;
}
