/* ssh.c: hostside.h's requests for an ssh host: `vbed host ...` run there
 * over the URI's ssh, one command line quoted by shquote.h, the reply read
 * as hostile input (protocol.c); the ssh implementation of ops.h. */
#include "hostside/ops.h"
#include "hostside/hostside.h"

#include "util/log.h"
#include "util/procfs.h"
#include "util/shquote.h"
#include "util/spawn.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* `vbed host ARGS...` as one command line for the remote shell (malloc'd). */
static char *helper_command(const char *const args[])
{
    const char *helper = getenv("VBED_REMOTE_VBED");
    size_t n = 0;
    while (args[n])
        n++;
    const char **argv = xcalloc(n + 3, sizeof(*argv));
    argv[0] = helper && *helper ? helper : "vbed";
    argv[1] = "host";
    for (size_t i = 0; i < n; i++)
        argv[i + 2] = args[i];
    char *cmd = shquote_argv(argv);
    free(argv);
    return cmd;
}

json_object *hostside_call(struct hostside *h, const char *const args[], long timeout)
{
    char *cmd = helper_command(args);
    char **ssh = host_uri_ssh_argv(&h->u, cmd);
    char *out = NULL, *errtext = NULL;
    size_t out_len = 0;
    /* quiet: each outcome is reported below, naming the request and host */
    struct spawn_opts o = {.capture = &out, .capture_len = &out_len, .capture_err = &errtext,
                           .capture_max = HOSTSIDE_REPLY_MAX, .timeout = timeout, .quiet = 1,
                           .cleanup = 1};
    int rc = spawn_run((const char *const *)ssh, &o);
    host_uri_free_argv(ssh);
    json_object *reply = NULL;
    char err[256] = "";
    /* the command line may hold a whole file (arm-start's my.cnf): name the request */
    char what[128], who[600];
    snprintf(what, sizeof(what), "vbed host %s", args[0]);
    snprintf(who, sizeof(who), "host '%s'", h->u.label);
    /* what the helper said on stderr: its own errors, made safe for a terminal */
    if (errtext && errtext[0])
        log_remote_text(who, errtext, strlen(errtext));
    if (rc == SPAWN_FAILED)
        ; /* reported where it failed */
    else if (rc == SPAWN_TOO_LARGE)
        log_error("The reply of '%s' on host '%s' is larger than %zu MiB: ssh was stopped and the "
                  "reply refused.",
                  what, h->u.label, (size_t)HOSTSIDE_REPLY_MAX >> 20);
    else if (rc == SPAWN_TIMEOUT)
        log_error("'%s' on host '%s' did not answer within %ld s: ssh was stopped.", what, h->u.label,
                  timeout);
    else if (rc < 0)
        log_error("ssh to host '%s' for '%s' did not end normally (%s).", h->u.label, what,
                  rc == SPAWN_SIGNALED ? "killed by a signal" : "interrupted");
    else if (rc == 255)
        log_error("Cannot reach host '%s' over ssh to run '%s' (ssh exit 255).", h->u.label, what);
    else if (rc != 0)
        log_error("'%s' failed on host '%s' (exit %d).", what, h->u.label, rc);
    else if (!(reply = hostside_reply_read(out ? out : "", out_len, HOSTSIDE_REPLY_MAX, err, sizeof(err))))
        log_error("The reply of '%s' on host '%s' is %s.", what, h->u.label, err);
    free(out);
    free(errtext);
    free(cmd);
    return reply;
}

pid_t hostside_spawn(struct hostside *h, const char *const args[], const char *log_path)
{
    char *cmd = helper_command(args);
    char **ssh = host_uri_ssh_argv(&h->u, cmd);
    /* ssh writes nothing but the remote output (and known_hosts): the log
     * it appends to stops growing at HOSTSIDE_STREAM_MAX */
    struct spawn_opts o = {.log_path = log_path, .output_max = HOSTSIDE_STREAM_MAX};
    pid_t pid = spawn_start((const char *const *)ssh, &o);
    host_uri_free_argv(ssh);
    free(cmd);
    return pid;
}

int hostside_spawn_wait(struct hostside *h, pid_t pid, long timeout, const char *what,
                        const char *log_path)
{
    int rc = spawn_wait(pid, timeout, what);
    struct stat st;
    if (rc != SPAWN_TOO_LARGE && !(stat(log_path, &st) == 0 && st.st_size >= HOSTSIDE_STREAM_MAX))
        return rc;
    /* cut: the remote program (or a hostile host) printed more than a log
     * may hold; ssh died of SIGXFSZ, or whatever it ran did */
    FILE *f = fopen(log_path, "a");
    if (f) {
        fprintf(f, "\n[vbed: output cut here: more than %lld MiB came from host '%s'; ssh was "
                   "stopped]\n",
                HOSTSIDE_STREAM_MAX >> 20, h->u.label);
        fclose(f);
    }
    log_error("%s: the output of its program on host '%s' passed %lld MiB; it was cut there in '%s' "
              "and ssh stopped.",
              what, h->u.label, HOSTSIDE_STREAM_MAX >> 20, log_path);
    return SPAWN_TOO_LARGE;
}

/* `vbed host REQUEST -- path` whose reply is one count (key); -1 reported */
static long long remote_count(struct hostside *h, const char *request, const char *path,
                              const char *key)
{
    const char *args[] = {request, "--", path, NULL};
    json_object *r = hostside_call(h, args, 120);
    long long v = -1;
    if (r && hostside_reply_uint(r, key, &v) < 0) {
        log_error("The reply of vbed host %s on '%s' has no valid '%s'.", request, h->u.label, key);
        v = -1;
    }
    json_object_put(r);
    return v;
}

static int drop_caches(struct hostside *h)
{
    const char *args[] = {"drop-caches", NULL};
    json_object *r = hostside_call(h, args, 120);
    json_object_put(r);
    return r ? 0 : -1;
}

static long long resident(struct hostside *h, const char *path)
{
    return remote_count(h, "resident", path, "bytes");
}

static int meminfo_text(struct hostside *h, char **text)
{
    const char *args[] = {"meminfo", NULL};
    json_object *r = hostside_call(h, args, 120);
    *text = r ? hostside_reply_text(r, "meminfo") : NULL;
    json_object_put(r);
    if (!*text) {
        log_error("The reply of vbed host meminfo on '%s' holds no /proc/meminfo.", h->u.label);
        return -1;
    }
    return 0;
}

static int diskstats(struct hostside *h, const char *path, unsigned *major_, unsigned *minor_,
                     char **text)
{
    const char *args[] = {"diskstats", "--", path, NULL};
    json_object *r = hostside_call(h, args, 120);
    long long ma, mi;
    int rc = -1;
    if (r && hostside_reply_uint(r, "major", &ma) == 0 && hostside_reply_uint(r, "minor", &mi) == 0 &&
        ma <= 0xfff && mi <= 0xfffff && (*text = hostside_reply_text(r, "diskstats"))) {
        *major_ = (unsigned)ma, *minor_ = (unsigned)mi;
        rc = 0;
    } else if (r) {
        log_error("The reply of vbed host diskstats on '%s' is incomplete.", h->u.label);
    }
    json_object_put(r);
    return rc;
}

int hostside_parse_stat_reply(json_object *r, struct cpu_times *c)
{
    long long tck;
    char *text = hostside_reply_text(r, "stat");
    int rc = text && hostside_reply_uint(r, "clk_tck", &tck) == 0 && tck > 0 && tck <= 1000000
                 ? procfs_parse_stat(text, (long)tck, c)
                 : -1;
    free(text);
    return rc;
}

int hostside_read_version(json_object *r, char *ver, size_t vlen, bool *drop, char *boot,
                          size_t blen)
{
    int rc = hostside_reply_string(r, "version", ver, vlen);
    json_object *dc;
    if (drop)
        *drop = json_object_object_get_ex(r, "drop_caches", &dc) &&
                json_object_is_type(dc, json_type_boolean) && json_object_get_boolean(dc);
    if (hostside_reply_string(r, "boot_id", boot, blen) < 0 || !boot[0] ||
        strspn(boot, "0123456789abcdef-") != strlen(boot))
        boot[0] = '\0';
    return rc;
}

static int proc_stat(struct hostside *h, struct cpu_times *c)
{
    const char *args[] = {"stat", NULL};
    json_object *r = hostside_call(h, args, 60);
    int rc = r ? hostside_parse_stat_reply(r, c) : -1;
    if (r && rc < 0)
        log_error("The reply of vbed host stat on '%s' holds no valid /proc/stat.", h->u.label);
    json_object_put(r);
    return rc;
}

static int version(struct hostside *h, char *buf, size_t len, bool *drop)
{
    const char *args[] = {"version", NULL};
    json_object *r = hostside_call(h, args, 120);
    char boot[64];
    int rc = r ? hostside_read_version(r, buf, len, drop, boot, sizeof(boot)) : -1;
    if (r && rc < 0)
        log_error("The reply of vbed host version on '%s' has no valid 'version'.", h->u.label);
    if (!r && drop)
        *drop = false;
    json_object_put(r);
    return rc;
}

static int boot_id(struct hostside *h, char *buf, size_t len)
{
    const char *args[] = {"version", NULL};
    json_object *r = hostside_call(h, args, 120);
    char ver[128];
    bool drop;
    int rc = r && hostside_read_version(r, ver, sizeof(ver), &drop, buf, len) == 0 && buf[0] ? 0 : -1;
    if (r && rc < 0)
        log_warn("The reply of vbed host version on '%s' has no valid 'boot_id' (an older helper?).",
                 h->u.label);
    json_object_put(r);
    return rc;
}

static long long free_bytes(struct hostside *h, const char *path)
{
    return remote_count(h, "df", path, "free_bytes");
}

const struct hostside_ops hostside_ssh_ops = {
    .drop_caches = drop_caches,
    .resident = resident,
    .meminfo_text = meminfo_text,
    .diskstats = diskstats,
    .proc_stat = proc_stat,
    .version = version,
    .boot_id = boot_id,
    .free_bytes = free_bytes,
};
