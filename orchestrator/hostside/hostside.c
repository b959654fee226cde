/* hostside.c: host-side work on the host a URI names (see hostside.h). */
#include "hostside/hostside.h"

#include "hostside/hostcache.h"
#include "util/procfs.h"
#include "util/log.h"
#include "hostside/noise.h"
#include "util/shquote.h"
#include "util/spawn.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#ifndef VBED_VERSION
#define VBED_VERSION "0.1"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct hostside {
    struct host_uri u;
};

struct hostside *hostside_new(const char *uri)
{
    struct hostside *h = xcalloc(1, sizeof(*h));
    if (!uri || !*uri) {
        h->u.transport = HT_LOCAL;
        snprintf(h->u.label, sizeof(h->u.label), "local");
        return h;
    }
    char err[600];
    if (host_uri_parse(uri, &h->u, err, sizeof(err)) < 0) {
        log_error("%s", err);
        free(h);
        return NULL;
    }
    return h;
}

void hostside_free(struct hostside *h) { free(h); }
const struct host_uri *hostside_uri(const struct hostside *h) { return &h->u; }
bool hostside_available(const struct hostside *h) { return h->u.transport != HT_NONE; }

/* ---- the reply ---- */

json_object *hostside_reply_read(const char *text, size_t len, size_t max, char *err, size_t errlen)
{
    if (len > max) {
        snprintf(err, errlen, "larger than %zu bytes", max);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "not JSON (it holds a NUL byte)");
        return NULL;
    }
    return hostside_reply_parse(text, err, errlen);
}

json_object *hostside_reply_parse(const char *text, char *err, size_t errlen)
{
    enum json_tokener_error jerr = json_tokener_success;
    json_object *o = json_tokener_parse_verbose(text, &jerr);
    json_object *p;
    if (!o) {
        snprintf(err, errlen, "not JSON (%s)", json_tokener_error_desc(jerr));
        return NULL;
    }
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "vbed_host", &p) ||
        !json_object_is_type(p, json_type_int) || json_object_get_int64(p) != HOSTSIDE_PROTOCOL) {
        snprintf(err, errlen, "not a reply of vbed host (protocol %d)", HOSTSIDE_PROTOCOL);
        json_object_put(o);
        return NULL;
    }
    return o;
}

int hostside_reply_string(json_object *o, const char *key, char *buf, size_t max)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return -1;
    const char *s = json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v);
    if (len >= max || strlen(s) != len)
        return -1;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return -1;
    memcpy(buf, s, len + 1);
    return 0;
}

char *hostside_reply_text(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    size_t len = (size_t)json_object_get_string_len(v);
    const char *s = json_object_get_string(v);
    if (len > (1u << 20) || strlen(s) != len)
        return NULL;
    return xstrdup(s);
}

int hostside_reply_uint(json_object *o, const char *key, long long *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    errno = 0;
    int64_t x = json_object_get_int64(v);
    if (errno || x < 0 || x >= (1LL << 53))
        return -1;
    *out = (long long)x;
    return 0;
}

/* ---- over ssh ---- */

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

static int unavailable(const struct hostside *h, const char *what)
{
    log_error("Cannot %s on host '%s': its URI has no shell transport (only ssh URIs do).", what,
              h->u.label);
    return -1;
}

int hostside_drop_caches(struct hostside *h)
{
    if (h->u.transport == HT_LOCAL)
        return hostcache_drop();
    if (h->u.transport == HT_NONE)
        return unavailable(h, "drop the page cache");
    const char *args[] = {"drop-caches", NULL};
    json_object *r = hostside_call(h, args, 120);
    json_object_put(r);
    return r ? 0 : -1;
}

long long hostside_resident(struct hostside *h, const char *path)
{
    if (h->u.transport == HT_LOCAL)
        return hostcache_resident(path);
    if (h->u.transport == HT_NONE)
        return unavailable(h, "measure page-cache residency");
    return remote_count(h, "resident", path, "bytes");
}

static int meminfo_values(const char *text, long long *total, long long *cached, long long *dirty)
{
    double t, c, d;
    if (procfs_parse_meminfo(text, "MemTotal", &t) < 0 || procfs_parse_meminfo(text, "Cached", &c) < 0 ||
        procfs_parse_meminfo(text, "Dirty", &d) < 0)
        return -1;
    *total = (long long)t, *cached = (long long)c, *dirty = (long long)d;
    return 0;
}

int hostside_meminfo(struct hostside *h, long long *total, long long *cached, long long *dirty)
{
    char *text = NULL;
    if (h->u.transport == HT_LOCAL) {
        text = textfile_read("/proc/meminfo");
        if (!text) {
            log_error("Cannot read /proc/meminfo: %s", strerror(errno));
            return -1;
        }
    } else if (h->u.transport == HT_NONE) {
        return unavailable(h, "read /proc/meminfo");
    } else {
        const char *args[] = {"meminfo", NULL};
        json_object *r = hostside_call(h, args, 120);
        text = r ? hostside_reply_text(r, "meminfo") : NULL;
        json_object_put(r);
        if (!text) {
            log_error("The reply of vbed host meminfo on '%s' holds no /proc/meminfo.", h->u.label);
            return -1;
        }
    }
    int rc = meminfo_values(text, total, cached, dirty);
    if (rc < 0)
        log_error("/proc/meminfo of host '%s' lacks MemTotal, Cached or Dirty.", h->u.label);
    free(text);
    return rc;
}

int hostside_diskstats(struct hostside *h, const char *path, unsigned *major_, unsigned *minor_,
                       char **diskstats)
{
    *diskstats = NULL;
    if (h->u.transport == HT_LOCAL) {
        struct stat st;
        if (stat(path, &st) < 0) {
            log_error("Cannot stat '%s': %s", path, strerror(errno));
            return -1;
        }
        *major_ = major(st.st_dev), *minor_ = minor(st.st_dev);
        *diskstats = textfile_read("/proc/diskstats");
        return *diskstats ? 0 : -1;
    }
    if (h->u.transport == HT_NONE)
        return unavailable(h, "read /proc/diskstats");
    const char *args[] = {"diskstats", "--", path, NULL};
    json_object *r = hostside_call(h, args, 120);
    long long ma, mi;
    int rc = -1;
    if (r && hostside_reply_uint(r, "major", &ma) == 0 && hostside_reply_uint(r, "minor", &mi) == 0 &&
        ma <= 0xfff && mi <= 0xfffff && (*diskstats = hostside_reply_text(r, "diskstats"))) {
        *major_ = (unsigned)ma, *minor_ = (unsigned)mi;
        rc = 0;
    } else if (r) {
        log_error("The reply of vbed host diskstats on '%s' is incomplete.", h->u.label);
    }
    json_object_put(r);
    return rc;
}

int hostside_version(struct hostside *h, char *buf, size_t len, bool *drop_caches)
{
    if (h->u.transport == HT_LOCAL) {
        snprintf(buf, len, "%s", VBED_VERSION);
        if (drop_caches)
            *drop_caches = access("/proc/sys/vm/drop_caches", W_OK) == 0;
        return 0;
    }
    if (h->u.transport == HT_NONE)
        return unavailable(h, "ask the helper's version");
    const char *args[] = {"version", NULL};
    json_object *r = hostside_call(h, args, 120);
    int rc = r ? hostside_reply_string(r, "version", buf, len) : -1;
    if (r && rc < 0)
        log_error("The reply of vbed host version on '%s' has no valid 'version'.", h->u.label);
    json_object *dc;
    if (drop_caches)
        *drop_caches = r && json_object_object_get_ex(r, "drop_caches", &dc) &&
                       json_object_is_type(dc, json_type_boolean) && json_object_get_boolean(dc);
    json_object_put(r);
    return rc;
}

long long hostside_free_bytes(struct hostside *h, const char *path)
{
    if (h->u.transport == HT_NONE)
        return unavailable(h, "measure free space");
    if (h->u.transport == HT_LOCAL) {
        log_error("hostside_free_bytes: for remote hosts only (doctor checks this machine itself).");
        return -1;
    }
    return remote_count(h, "df", path, "free_bytes");
}

int hostside_boot_id(struct hostside *h, char *buf, size_t len)
{
    if (!h || h->u.transport == HT_LOCAL) {
        char *text = textfile_read("/proc/sys/kernel/random/boot_id");
        int rc = -1;
        if (text) {
            text[strcspn(text, "\n")] = '\0';
            rc = text[0] && strlen(text) < len ? 0 : -1;
            if (rc == 0)
                snprintf(buf, len, "%s", text);
        }
        free(text);
        return rc;
    }
    if (h->u.transport == HT_NONE)
        return -1;
    const char *args[] = {"version", NULL};
    json_object *r = hostside_call(h, args, 120);
    int rc = r ? hostside_reply_string(r, "boot_id", buf, len) : -1;
    if (r && (rc < 0 || !buf[0] || strspn(buf, "0123456789abcdef-") != strlen(buf))) {
        log_warn("The reply of vbed host version on '%s' has no valid 'boot_id' (an older helper?).",
                 h->u.label);
        rc = -1;
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

int hostside_proc_stat(struct hostside *h, struct cpu_times *c)
{
    if (h->u.transport == HT_LOCAL)
        return procfs_read_stat(c);
    if (h->u.transport == HT_NONE)
        return unavailable(h, "read /proc/stat");
    const char *args[] = {"stat", NULL};
    json_object *r = hostside_call(h, args, 60);
    int rc = r ? hostside_parse_stat_reply(r, c) : -1;
    if (r && rc < 0)
        log_error("The reply of vbed host stat on '%s' holds no valid /proc/stat.", h->u.label);
    json_object_put(r);
    return rc;
}
