/* hostarm_remote.c: a host arm on an ssh host through `vbed host arm-...`
 * (see hostarm_remote.h). */
#include "targets/hostarm_remote.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hostarm_remote_read_start(json_object *reply, const char *dir, struct hostarm *h, char *why,
                              size_t len)
{
    /* each path must be the arm's own: the directory asked for plus its
     * fixed name (hostarm_paths), nothing longer, nothing elsewhere */
    static const struct {
        const char *key;
        size_t off;
    } paths[] = {{"dir", offsetof(struct hostarm, dir)},
                 {"datadir", offsetof(struct hostarm, datadir)},
                 {"socket", offsetof(struct hostarm, socket)},
                 {"errlog", offsetof(struct hostarm, errlog)},
                 {"lua", offsetof(struct hostarm, lua)}};
    char check[256];
    if (hostarm_dir_check(dir, check, sizeof(check)) < 0) {
        snprintf(why, len, "'%.100s' is not an arm directory (%s)", dir, check);
        return -1;
    }
    struct hostarm want = {0};
    hostarm_paths(&want, dir);
    /* read into a copy: dir may be h->dir itself (hostarm_remote_start
     * passes it), and a refused reply leaves h as it was */
    struct hostarm got = *h;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        char *field = (char *)&got + paths[i].off;
        const char *expected = (const char *)&want + paths[i].off;
        if (hostside_reply_string(reply, paths[i].key, field, PATH_MAX) < 0 || field[0] != '/') {
            snprintf(why, len, "no valid '%s' (an absolute path)", paths[i].key);
            return -1;
        }
        if (strcmp(field, expected) != 0) {
            if (i == 0)
                snprintf(why, len, "it names another directory than '%s'", dir);
            else
                snprintf(why, len, "its '%s' is not the arm's own '%s'", paths[i].key, expected);
            return -1;
        }
    }
    long long pid, online;
    json_object *c;
    if (hostside_reply_uint(reply, "pid", &pid) < 0 || pid < 1 || pid > 4194304) {
        snprintf(why, len, "no valid 'pid'");
        return -1;
    }
    if (hostside_reply_uint(reply, "online_cpus", &online) < 0 || online < 1 || online > 65536) {
        snprintf(why, len, "no valid 'online_cpus'");
        return -1;
    }
    if (hostside_reply_string(reply, "cpus", got.cpus, sizeof(got.cpus)) < 0 ||
        strspn(got.cpus, "0123456789,-") != strlen(got.cpus)) {
        snprintf(why, len, "no valid 'cpus' (a cpuset list or \"\")");
        return -1;
    }
    if (!json_object_object_get_ex(reply, "confined", &c) || !json_object_is_type(c, json_type_boolean)) {
        snprintf(why, len, "no valid 'confined' (true or false)");
        return -1;
    }
    got.pid = (pid_t)pid;
    got.online_cpus = (long)online;
    got.confined = json_object_get_boolean(c);
    *h = got;
    return 0;
}

struct hostarm *hostarm_remote_start(struct hostside *hs, const struct hostarm_limits *l,
                                     const char *mycnf, const char *lua, const char *base,
                                     const char *name)
{
    char *script = textfile_read(lua);
    if (!script) {
        log_error("Cannot read '%s' for the host arm on '%s'.", lua, hostside_uri(hs)->label);
        return NULL;
    }
    struct hostarm *h = xcalloc(1, sizeof(*h));
    h->pid = -1;
    h->remote = hs;
    char why[256];
    if (path_join(h->dir, sizeof(h->dir), base, name) < 0 || hostarm_dir_check(h->dir, why, sizeof(why)) < 0) {
        log_error("'%s/%s' on '%s' cannot be a host arm directory: %s.", base, name, hostside_uri(hs)->label,
                  why);
        free(script);
        free(h);
        return NULL;
    }
    char timeout[32], vcpus[32], memory[32];
    snprintf(timeout, sizeof(timeout), "%lld", l->timeout_db);
    snprintf(vcpus, sizeof(vcpus), "%lld", l->vcpus);
    snprintf(memory, sizeof(memory), "%lld", l->memory);
    const char *args[16] = {"arm-start", "--timeout", timeout, "--mycnf", mycnf, "--lua", script};
    size_t n = 7;
    if (l->confine) {
        args[n++] = "--confine";
        args[n++] = vcpus;
        args[n++] = memory;
    }
    args[n++] = "--";
    args[n++] = h->dir;
    args[n] = NULL;
    /* install, then start: each within timeout_db on that host */
    json_object *r = hostside_call(hs, args, 2 * l->timeout_db + 60);
    free(script);
    if (r && hostarm_remote_read_start(r, h->dir, h, why, sizeof(why)) < 0) {
        log_error("The reply of vbed host arm-start on '%s' is not usable: %s.", hostside_uri(hs)->label,
                  why);
        json_object_put(r);
        r = NULL;
    }
    json_object_put(r);
    if (r)
        h->sql = sql_open_remote(hs, h->dir);
    if (!r || !h->sql) {
        /* whatever half of it was made there goes again */
        hostarm_remote_stop(h, NULL);
        return NULL;
    }
    return h;
}

void hostarm_remote_stop(struct hostarm *h, const char *keep_log)
{
    if (keep_log)
        hostarm_remote_fetch(h, "mysqld.err", keep_log);
    sql_close(h->sql);
    const char *args[] = {"arm-stop", "--", h->dir, NULL};
    json_object_put(hostside_call(h->remote, args, 180));
    free(h);
}

pid_t hostarm_remote_exec_start(struct hostarm *h, const char *const argv[], const char *const env[],
                                const char *out_path)
{
    size_t na = 0, ne = 0;
    while (argv[na])
        na++;
    while (env && env[ne])
        ne++;
    const char **args = xcalloc(2 * ne + na + 4, sizeof(*args));
    size_t n = 0;
    args[n++] = "arm-exec";
    for (size_t i = 0; i < ne; i++) {
        args[n++] = "--env";
        args[n++] = env[i];
    }
    args[n++] = "--";
    args[n++] = h->dir;
    for (size_t i = 0; i < na; i++)
        args[n++] = argv[i];
    remove(out_path);
    pid_t pid = hostside_spawn(h->remote, args, out_path);
    free(args);
    return pid;
}

void hostarm_remote_read_status(json_object *r, struct hostarm_status *st)
{
    long long v;
    st->server_cpu_s = hostside_reply_uint(r, "server_cpu_us", &v) == 0 ? (double)v / 1e6 : -1;
    st->programs_cpu_s = hostside_reply_uint(r, "programs_cpu_us", &v) == 0 ? (double)v / 1e6 : 0;
    st->read_bytes = hostside_reply_uint(r, "read_bytes", &v) == 0 ? (double)v : NAN;
    st->write_bytes = hostside_reply_uint(r, "write_bytes", &v) == 0 ? (double)v : NAN;
    st->resident_bytes = hostside_reply_uint(r, "resident_bytes", &v) == 0 ? v : -1;
    st->server_rss_bytes = hostside_reply_uint(r, "server_rss_bytes", &v) == 0 ? (double)v : NAN;
}

int hostarm_remote_status(struct hostarm *h, struct hostarm_status *st)
{
    const char *args[] = {"arm-status", "--", h->dir, NULL};
    json_object *r = hostside_call(h->remote, args, 60);
    if (!r)
        return -1;
    hostarm_remote_read_status(r, st);
    json_object_put(r);
    return 0;
}

int hostarm_remote_fetch(struct hostarm *h, const char *name, const char *dest)
{
    const char *args[] = {"arm-file", "--", h->dir, name, NULL};
    json_object *r = hostside_call(h->remote, args, 120);
    char *text = r ? hostside_reply_text(r, "text") : NULL;
    if (r && !text)
        log_error("The reply of vbed host arm-file on '%s' holds no text.", hostside_uri(h->remote)->label);
    json_object_put(r);
    if (!text)
        return -1;
    int rc = textfile_write(dest, text, strlen(text));
    free(text);
    return rc;
}

int hostarm_remote_make_archive(struct hostarm *h, long long *bytes)
{
    const char *args[] = {"arm-archive", "--", h->dir, NULL};
    json_object *r = hostside_call(h->remote, args, 600);
    int rc = r ? hostside_reply_uint(r, "bytes", bytes) : -1;
    if (r && rc < 0)
        log_error("The reply of vbed host arm-archive on '%s' has no valid 'bytes'.",
                  hostside_uri(h->remote)->label);
    json_object_put(r);
    return rc;
}
