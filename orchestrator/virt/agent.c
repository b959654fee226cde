/* agent.c: guest-ping, guest-exec, guest-exec-status and guest-file-* */
#include "virt/agent.h"
#include "util/monotime.h"
#include "util/xalloc.h"

#include "virt/hypervisor.h"
#include "util/log.h"
#include "util/signals.h"

#include <json-c/json.h>
#include <libvirt/libvirt-qemu.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void agent_result_free(struct agent_result *r)
{
    if (!r)
        return;
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
}

/* The "return" member of a reply (the caller puts it), or NULL. */
static json_object *reply_return(const char *reply)
{
    json_object *root = json_tokener_parse(reply), *ret = NULL;
    if (!root || !json_object_is_type(root, json_type_object) ||
        !json_object_object_get_ex(root, "return", &ret)) {
        json_object_put(root);
        return NULL;
    }
    json_object_get(ret);
    json_object_put(root);
    return ret;
}

/* Send a command; its reply's text (caller frees) or NULL. */
static char *command_text(virDomainPtr dom, json_object *cmd, int timeout, bool quiet)
{
    const char *text = json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN);
    char *reply = virDomainQemuAgentCommand(dom, text, timeout, 0);
    if (!reply && !quiet)
        log_error("Guest agent of '%s' did not answer %s: %s", virDomainGetName(dom),
                  json_object_get_string(json_object_object_get(cmd, "execute")), hv_last_error());
    return reply;
}

/* Send a command; the parsed "return" member (caller puts it) or NULL. */
static json_object *command(virDomainPtr dom, json_object *cmd, int timeout, bool quiet)
{
    char *reply = command_text(dom, cmd, timeout, quiet);
    if (!reply)
        return NULL;
    json_object *ret = reply_return(reply);
    free(reply);
    if (!ret && !quiet)
        log_error("Guest agent of '%s' sent a reply without 'return'.", virDomainGetName(dom));
    return ret;
}

static json_object *new_command(const char *execute, json_object **args)
{
    json_object *cmd = json_object_new_object();
    json_object_object_add(cmd, "execute", json_object_new_string(execute));
    if (args) {
        *args = json_object_new_object();
        json_object_object_add(cmd, "arguments", *args);
    }
    return cmd;
}

int agent_ping(virDomainPtr dom, int timeout)
{
    json_object *cmd = new_command("guest-ping", NULL);
    json_object *ret = command(dom, cmd, timeout, true);
    json_object_put(cmd);
    if (!ret)
        return -1;
    json_object_put(ret);
    return 0;
}

int agent_base64_decode(const char *in, size_t n, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    /* EVP_DecodeUpdate takes an int; its output is at most 3 bytes per 4 in */
    if (n > (size_t)INT_MAX / 2)
        return -1;
    unsigned char *buf = xcalloc(1, n / 4 * 3 + 4);
    EVP_ENCODE_CTX *ctx = EVP_ENCODE_CTX_new();
    if (!ctx) {
        free(buf);
        return -1;
    }
    int len = 0, tail = 0;
    EVP_DecodeInit(ctx);
    /* -1: a character outside the alphabet, or padding in the wrong place */
    int rc = EVP_DecodeUpdate(ctx, buf, &len, (const unsigned char *)in, (int)n);
    if (rc >= 0)
        rc = EVP_DecodeFinal(ctx, buf + len, &tail);
    EVP_ENCODE_CTX_free(ctx);
    if (rc < 0 || len < 0 || tail < 0) {
        free(buf);
        return -1;
    }
    len += tail;
    buf[len] = '\0';
    *out = (char *)buf;
    *out_len = (size_t)len;
    return 0;
}

int agent_exec_start(virDomainPtr dom, const char *const argv[], const char *const env[],
                     long long *pid)
{
    json_object *args;
    json_object *cmd = new_command("guest-exec", &args);
    json_object_object_add(args, "path", json_object_new_string(argv[0]));
    json_object *arg = json_object_new_array();
    for (size_t i = 1; argv[i]; i++)
        json_object_array_add(arg, json_object_new_string(argv[i]));
    json_object_object_add(args, "arg", arg);
    if (env) {
        json_object *e = json_object_new_array();
        for (size_t i = 0; env[i]; i++)
            json_object_array_add(e, json_object_new_string(env[i]));
        json_object_object_add(args, "env", e);
    }
    json_object_object_add(args, "capture-output", json_object_new_boolean(1));
    json_object *ret = command(dom, cmd, 30, false);
    json_object_put(cmd);
    json_object *p;
    if (!ret || !json_object_object_get_ex(ret, "pid", &p)) {
        if (ret)
            log_error("Guest agent of '%s' did not start '%s'.", virDomainGetName(dom), argv[0]);
        json_object_put(ret);
        return -1;
    }
    *pid = json_object_get_int64(p);
    json_object_put(ret);
    return 0;
}

/* The base64 member key of ret, decoded; absent: empty. */
static int take_data(json_object *ret, const char *key, char **out, size_t *len)
{
    json_object *v;
    if (!json_object_object_get_ex(ret, key, &v)) {
        *out = xcalloc(1, 1);
        *len = 0;
        return 0;
    }
    if (!json_object_is_type(v, json_type_string))
        return -1;
    return agent_base64_decode(json_object_get_string(v), (size_t)json_object_get_string_len(v),
                               out, len);
}

int agent_decode_exec_status(const char *reply, bool *exited, struct agent_result *res)
{
    memset(res, 0, sizeof(*res));
    *exited = false;
    json_object *ret = reply_return(reply), *v;
    if (!ret || !json_object_is_type(ret, json_type_object)) {
        json_object_put(ret);
        return -1;
    }
    *exited = json_object_object_get_ex(ret, "exited", &v) && json_object_get_boolean(v);
    int rc = 0;
    if (*exited) {
        res->exitcode = json_object_object_get_ex(ret, "exitcode", &v) ? json_object_get_int(v) : -1;
        res->signal = json_object_object_get_ex(ret, "signal", &v) ? json_object_get_int(v) : 0;
        if (take_data(ret, "out-data", &res->out, &res->out_len) < 0 ||
            take_data(ret, "err-data", &res->err, &res->err_len) < 0) {
            agent_result_free(res);
            rc = -1;
        }
    }
    json_object_put(ret);
    return rc;
}

int agent_decode_file_read(const char *reply, char **data, size_t *len, bool *eof)
{
    *data = NULL;
    *len = 0;
    *eof = false;
    json_object *ret = reply_return(reply), *v;
    if (!ret || !json_object_is_type(ret, json_type_object)) {
        json_object_put(ret);
        return -1;
    }
    int rc = take_data(ret, "buf-b64", data, len);
    *eof = json_object_object_get_ex(ret, "eof", &v) && json_object_get_boolean(v);
    json_object_put(ret);
    return rc;
}

int agent_decode_file_write(const char *reply, size_t *count)
{
    *count = 0;
    json_object *ret = reply_return(reply), *v;
    int rc = -1;
    if (ret && json_object_is_type(ret, json_type_object) &&
        json_object_object_get_ex(ret, "count", &v) && json_object_is_type(v, json_type_int)) {
        int64_t n = json_object_get_int64(v);
        if (n >= 0 && n <= INT_MAX) {
            *count = (size_t)n;
            rc = 0;
        }
    }
    json_object_put(ret);
    return rc;
}

int agent_exec_poll(virDomainPtr dom, long long pid, bool *exited, struct agent_result *res)
{
    json_object *args;
    json_object *cmd = new_command("guest-exec-status", &args);
    json_object_object_add(args, "pid", json_object_new_int64(pid));
    char *reply = command_text(dom, cmd, 30, false);
    json_object_put(cmd);
    if (!reply)
        return -1;
    int rc = agent_decode_exec_status(reply, exited, res);
    free(reply);
    if (rc < 0)
        log_error("Guest agent of '%s' sent an undecodable guest-exec-status reply.",
                  virDomainGetName(dom));
    return rc;
}

int agent_exec_wait(virDomainPtr dom, long long pid, long timeout, long first_ms, long poll_ms,
                    struct agent_result *res)
{
    return agent_exec_wait_watched(dom, pid, timeout, first_ms, poll_ms, res, NULL, NULL);
}

int agent_exec_wait_watched(virDomainPtr dom, long long pid, long timeout, long first_ms,
                            long poll_ms, struct agent_result *res, int (*look)(void *arg),
                            void *arg)
{
    double now = monotime_s(), deadline = now + (double)timeout, first = now + (double)first_ms / 1000;
    /* the first look at the program after first_ms, the watch's meanwhile
     * (a second apart: it decides itself how often it looks) */
    while ((now = monotime_s()) < first) {
        double left = first - now;
        if (signals_sleep_ms(look && left > 1 ? 1000 : (long)(left * 1000) + 1))
            return -1;
        if (look && look(arg))
            return -1;
    }
    for (;;) {
        bool exited = false;
        if (agent_exec_poll(dom, pid, &exited, res) < 0)
            return -1;
        if (exited)
            return 0;
        if (monotime_s() >= deadline) {
            log_error("A program in guest '%s' did not finish within %ld s.", virDomainGetName(dom),
                      timeout);
            return -1;
        }
        if (look && look(arg))
            return -1;
        if (signals_sleep_ms(poll_ms))
            return -1;
    }
}

int agent_exec(virDomainPtr dom, const char *const argv[], const char *const env[], long timeout,
               struct agent_result *res)
{
    long long pid;
    if (agent_exec_start(dom, argv, env, &pid) < 0)
        return -1;
    return agent_exec_wait(dom, pid, timeout, 50, 100, res);
}

/* guest-file-open path in mode; the handle, or -1 (reported unless quiet). */
static long long file_open(virDomainPtr dom, const char *path, const char *mode, bool quiet)
{
    json_object *args;
    json_object *cmd = new_command("guest-file-open", &args);
    json_object_object_add(args, "path", json_object_new_string(path));
    json_object_object_add(args, "mode", json_object_new_string(mode));
    json_object *ret = command(dom, cmd, 30, quiet);
    json_object_put(cmd);
    if (!ret)
        return -1;
    long long handle = json_object_is_type(ret, json_type_int) ? json_object_get_int64(ret) : -1;
    json_object_put(ret);
    return handle;
}

/* A guest-file-* command on an open file; its arguments in *args. */
static json_object *file_command(const char *execute, long long handle, json_object **args)
{
    json_object *cmd = new_command(execute, args);
    json_object_object_add(*args, "handle", json_object_new_int64(handle));
    return cmd;
}

static void file_close(virDomainPtr dom, long long handle)
{
    json_object *args;
    json_object *cmd = file_command("guest-file-close", handle, &args);
    json_object_put(command(dom, cmd, 30, true));
    json_object_put(cmd);
}

/* the bytes of one guest-file-write: under TCG the agent took longer than
 * the 60 s limit over one 1 MiB write (its JSON, base64 encoded); 48 KiB
 * pieces moved about 1 MB/s there */
#define WRITE_CHUNK (48 << 10)

int agent_write_file(virDomainPtr dom, const char *path, const char *data, size_t len)
{
    long long handle = file_open(dom, path, "w", false);
    if (handle < 0)
        return -1;
    char *b64 = xcalloc(1, WRITE_CHUNK / 3 * 4 + 8);
    size_t done = 0;
    int rc = 0;
    while (done < len && rc == 0) {
        size_t n = len - done < WRITE_CHUNK ? len - done : WRITE_CHUNK;
        EVP_EncodeBlock((unsigned char *)b64, (const unsigned char *)data + done, (int)n);
        json_object *args;
        json_object *cmd = file_command("guest-file-write", handle, &args);
        json_object_object_add(args, "buf-b64", json_object_new_string(b64));
        char *reply = command_text(dom, cmd, 60, false);
        json_object_put(cmd);
        size_t wrote = 0;
        if (!reply || agent_decode_file_write(reply, &wrote) < 0 || wrote == 0 || wrote > n) {
            log_error("Guest agent of '%s' did not write '%s' (%zu of %zu bytes written).",
                      virDomainGetName(dom), path, done, len);
            rc = -1;
        }
        free(reply);
        done += wrote;
    }
    free(b64);
    file_close(dom, handle);
    return rc;
}

int agent_read_file(virDomainPtr dom, const char *path, size_t max, char **data, size_t *len,
                    bool quiet)
{
    long long handle = file_open(dom, path, "r", quiet);
    if (handle < 0)
        return -1;
    json_object *args, *cmd;
    char *buf = NULL;
    size_t used = 0;
    int rc = -1;
    for (;;) {
        cmd = file_command("guest-file-read", handle, &args);
        /* never more than max: what is left of it, at most 1 MiB a read */
        size_t want = max - used < ((size_t)1 << 20) ? max - used : (size_t)1 << 20;
        json_object_object_add(args, "count", json_object_new_int((int)(want ? want : 1)));
        char *reply = command_text(dom, cmd, 30, quiet);
        json_object_put(cmd);
        if (!reply)
            break;
        char *chunk = NULL;
        size_t clen = 0;
        bool eof = false;
        int drc = agent_decode_file_read(reply, &chunk, &clen, &eof);
        free(reply);
        if (drc < 0) {
            if (!quiet)
                log_error("Guest agent of '%s' sent an undecodable reply reading '%s'.",
                          virDomainGetName(dom), path);
            free(chunk);
            break;
        }
        /* a guest may send more than it was asked for: the rest is dropped */
        if (clen > max - used)
            clen = max - used;
        buf = xrealloc(buf, used + clen + 1);
        memcpy(buf + used, chunk, clen);
        used += clen;
        buf[used] = '\0';
        free(chunk);
        if (eof || clen == 0 || used >= max) {
            rc = 0;
            break;
        }
    }
    file_close(dom, handle);
    if (rc < 0) {
        free(buf);
        return -1;
    }
    *data = buf ? buf : xcalloc(1, 1);
    *len = used;
    return 0;
}
