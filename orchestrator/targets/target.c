/* target.c: guests and the host arm behind one interface (see target.h). */
#include "targets/target.h"

#include "virt/agent.h"
#include "util/log.h"
#include "hostside/noise.h"
#include "util/paths.h"
#include "util/spawn.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static double unix_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void target_for_guest(struct target *t, int n, virDomainPtr dom, const char *dir)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "%s", virDomainGetName(dom));
    t->guest = n;
    t->dom = dom;
    t->sql = sql_open_agent(dom);
    snprintf(t->lua, sizeof(t->lua), "/usr/local/share/vbed/vbed_oltp.lua");
    snprintf(t->socket, sizeof(t->socket), "/run/mysqld/mysqld.sock");
    snprintf(t->dir, sizeof(t->dir), "%s", dir);
    t->local_pid = -1;
}

void target_for_host(struct target *t, struct hostarm *h, const char *dir)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "host");
    t->host = h;
    t->sql = h->sql;
    snprintf(t->lua, sizeof(t->lua), "%s", h->lua);
    snprintf(t->socket, sizeof(t->socket), "%s", h->socket);
    snprintf(t->dir, sizeof(t->dir), "%s", dir);
    t->local_pid = -1;
}

bool target_is_local(const struct target *t)
{
    return !t->hs || hostside_uri(t->hs)->transport == HT_LOCAL;
}

void target_close(struct target *t)
{
    if (t->dom)
        sql_close(t->sql); /* the host arm's connection belongs to the host arm */
    t->sql = NULL;
}

int target_start(struct target *t, const char *const argv[], const char *const env[],
                 const char *out_name)
{
    path_join(t->out_path, sizeof(t->out_path), t->dir, out_name);
    int rc;
    if (t->dom) {
        rc = agent_exec_start(t->dom, argv, env, &t->agent_pid);
    } else {
        t->local_pid = hostarm_exec_start(t->host, argv, env, t->out_path);
        rc = t->local_pid > 0 ? 0 : -1;
    }
    /* the program exists now: this is when its run started */
    t->started = unix_now();
    return rc;
}

int target_wait(struct target *t, long timeout, long first_ms, int *exitcode)
{
    if (t->dom) {
        struct agent_result r = {0};
        if (agent_exec_wait(t->dom, t->agent_pid, timeout, first_ms, 1000, &r) < 0)
            return -1;
        /* stdout, then stderr: one raw log as a terminal would show it */
        int rc = textfile_write(t->out_path, r.out, r.out_len);
        if (rc == 0 && r.err_len) {
            FILE *f = fopen(t->out_path, "a");
            if (f) {
                fwrite(r.err, 1, r.err_len, f);
                fclose(f);
            }
        }
        *exitcode = r.exitcode;
        agent_result_free(&r);
        return rc;
    }
    /* a remote arm's output is cut (and said so) at HOSTSIDE_STREAM_MAX */
    int rc = t->host->remote
                 ? hostside_spawn_wait(t->host->remote, t->local_pid, timeout, t->name, t->out_path)
                 : spawn_wait(t->local_pid, timeout, t->name);
    t->local_pid = -1;
    if (rc < 0)
        return -1;
    *exitcode = rc;
    return 0;
}

char *target_output(const struct target *t)
{
    return textfile_read(t->out_path);
}

char *target_read_text(struct target *t, const char *path)
{
    if (t->host && t->host->remote) {
        log_error("target_read_text: not for a remote host arm ('%s')", path);
        return NULL;
    }
    if (t->host)
        return textfile_read(path);
    char *data = NULL;
    size_t len = 0;
    if (agent_read_file(t->dom, path, 1 << 20, &data, &len, true) < 0)
        return NULL;
    char *text = xcalloc(len + 1, 1);
    memcpy(text, data, len);
    text[len] = '\0';
    free(data);
    return text;
}

double target_cpu_s(const struct target *t)
{
    if (t->host) {
        struct hostarm_status st;
        if (hostarm_status(t->host, &st) < 0 || st.server_cpu_s < 0)
            return -1;
        /* a remote arm's programs are not vbed's children: vbed's rusage misses them */
        return st.server_cpu_s + (t->host->remote ? st.programs_cpu_s : 0);
    }
    virDomainInfo info;
    if (virDomainGetInfo(t->dom, &info) < 0)
        return -1;
    return (double)info.cpuTime / 1e9;
}

int target_fetch(struct target *t, const char *path, const char *name)
{
    char dest[PATH_MAX];
    path_join(dest, sizeof(dest), t->dir, name);
    if (t->host) {
        const char *slash = strrchr(path, '/');
        return hostarm_fetch(t->host, slash ? slash + 1 : path, dest);
    }
    char *data = NULL;
    size_t len = 0;
    if (agent_read_file(t->dom, path, 64 << 20, &data, &len, true) < 0)
        return -1;
    int rc = textfile_write(dest, data, len);
    free(data);
    return rc;
}
