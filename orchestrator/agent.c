/* agent.c: guest-ping, guest-exec, guest-exec-status and guest-file-* */
#include "agent.h"
#include "xalloc.h"

#include "hypervisor.h"
#include "log.h"
#include "signals.h"

#include <json-c/json.h>
#include <libvirt/libvirt-qemu.h>
#include <openssl/evp.h>
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

/* Send a command; the parsed "return" member (caller puts it) or NULL. */
static json_object *command(virDomainPtr dom, json_object *cmd, int timeout, bool quiet)
{
    const char *text = json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN);
    char *reply = virDomainQemuAgentCommand(dom, text, timeout, 0);
    if (!reply) {
        if (!quiet)
            log_error("Guest agent of '%s' did not answer %s: %s", virDomainGetName(dom),
                      json_object_get_string(json_object_object_get(cmd, "execute")),
                      hv_last_error());
        return NULL;
    }
    json_object *root = json_tokener_parse(reply), *ret = NULL;
    free(reply);
    if (!root || !json_object_object_get_ex(root, "return", &ret)) {
        if (!quiet)
            log_error("Guest agent of '%s' sent a reply without 'return'.", virDomainGetName(dom));
        json_object_put(root);
        return NULL;
    }
    json_object_get(ret);
    json_object_put(root);
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

static int base64_decode(const char *in, char **out, size_t *out_len)
{
    size_t n = strlen(in);
    unsigned char *buf = xcalloc(1, n / 4 * 3 + 4);
    if (!buf)
        return -1;
    int len = n ? EVP_DecodeBlock(buf, (const unsigned char *)in, (int)n) : 0;
    if (len < 0) {
        free(buf);
        return -1;
    }
    /* EVP_DecodeBlock counts the padding as zero bytes */
    while (n > 0 && in[n - 1] == '=') {
        len--;
        n--;
    }
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

static int take_data(json_object *ret, const char *key, char **out, size_t *len)
{
    json_object *v;
    if (!json_object_object_get_ex(ret, key, &v)) {
        *out = xcalloc(1, 1);
        *len = 0;
        return *out ? 0 : -1;
    }
    return base64_decode(json_object_get_string(v), out, len);
}

int agent_exec_poll(virDomainPtr dom, long long pid, bool *exited, struct agent_result *res)
{
    json_object *args;
    json_object *cmd = new_command("guest-exec-status", &args);
    json_object_object_add(args, "pid", json_object_new_int64(pid));
    json_object *ret = command(dom, cmd, 30, false);
    json_object_put(cmd);
    if (!ret)
        return -1;
    json_object *v;
    *exited = json_object_object_get_ex(ret, "exited", &v) && json_object_get_boolean(v);
    int rc = 0;
    if (*exited) {
        memset(res, 0, sizeof(*res));
        res->exitcode = json_object_object_get_ex(ret, "exitcode", &v) ? json_object_get_int(v) : -1;
        res->signal = json_object_object_get_ex(ret, "signal", &v) ? json_object_get_int(v) : 0;
        if (take_data(ret, "out-data", &res->out, &res->out_len) < 0 ||
            take_data(ret, "err-data", &res->err, &res->err_len) < 0) {
            log_error("Guest agent of '%s' sent undecodable output.", virDomainGetName(dom));
            agent_result_free(res);
            rc = -1;
        }
    }
    json_object_put(ret);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int agent_exec_wait(virDomainPtr dom, long long pid, long timeout, long first_ms, long poll_ms,
                    struct agent_result *res)
{
    double deadline = now() + (double)timeout;
    if (signals_sleep_ms(first_ms))
        return -1;
    for (;;) {
        bool exited = false;
        if (agent_exec_poll(dom, pid, &exited, res) < 0)
            return -1;
        if (exited)
            return 0;
        if (now() >= deadline) {
            log_error("A program in guest '%s' did not finish within %ld s.", virDomainGetName(dom),
                      timeout);
            return -1;
        }
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
    return agent_exec_wait(dom, pid, timeout, 50, 250, res);
}

int agent_read_file(virDomainPtr dom, const char *path, size_t max, char **data, size_t *len,
                    bool quiet)
{
    json_object *args;
    json_object *cmd = new_command("guest-file-open", &args);
    json_object_object_add(args, "path", json_object_new_string(path));
    json_object_object_add(args, "mode", json_object_new_string("r"));
    json_object *ret = command(dom, cmd, 30, quiet);
    json_object_put(cmd);
    if (!ret)
        return -1;
    long long handle = json_object_get_int64(ret);
    json_object_put(ret);

    char *buf = NULL;
    size_t used = 0;
    int rc = -1;
    for (;;) {
        cmd = new_command("guest-file-read", &args);
        json_object_object_add(args, "handle", json_object_new_int64(handle));
        json_object_object_add(args, "count", json_object_new_int(1 << 20));
        ret = command(dom, cmd, 30, quiet);
        json_object_put(cmd);
        if (!ret)
            break;
        json_object *v;
        char *chunk = NULL;
        size_t clen = 0;
        if (take_data(ret, "buf-b64", &chunk, &clen) < 0) {
            json_object_put(ret);
            break;
        }
        bool eof = json_object_object_get_ex(ret, "eof", &v) && json_object_get_boolean(v);
        json_object_put(ret);
        char *grown = xrealloc(buf, used + clen + 1);
        if (!grown) {
            free(chunk);
            break;
        }
        buf = grown;
        memcpy(buf + used, chunk, clen);
        used += clen;
        buf[used] = '\0';
        free(chunk);
        if (eof || clen == 0 || used >= max) {
            rc = 0;
            break;
        }
    }
    cmd = new_command("guest-file-close", &args);
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    json_object_put(command(dom, cmd, 30, true));
    json_object_put(cmd);
    if (rc < 0) {
        free(buf);
        return -1;
    }
    *data = buf ? buf : xcalloc(1, 1);
    *len = used;
    return 0;
}
