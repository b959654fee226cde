/* target_hostarm.c: the host arm as a target (see target.h): on this
 * machine through hostarm.h, on an ssh host through hostarm_remote.h --
 * two tables of ops over one struct hostarm. */
#include "targets/target.h"

#include "targets/hostarm.h"
#include "targets/hostarm_remote.h"
#include "scenario/keys.h"
#include "util/paths.h"
#include "util/spawn.h"
#include "util/textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct hostarm *arm(const struct target *t) { return t->impl; }

static void status_of(const struct hostarm_status *a, struct target_status *st)
{
    st->server_cpu_s = a->server_cpu_s;
    st->programs_cpu_s = a->programs_cpu_s;
    st->read_bytes = a->read_bytes;
    st->write_bytes = a->write_bytes;
    st->resident_bytes = a->resident_bytes;
    st->server_rss_bytes = a->server_rss_bytes;
}

/* ---- on this machine ---- */

static int local_start(struct target *t, const char *const argv[], const char *const env[])
{
    t->local_pid = hostarm_exec_start(arm(t), argv, env, t->out_path);
    return t->local_pid > 0 ? 0 : -1;
}

/* spawn starts the program itself (no shell between) */
static long long local_program_pid(const struct target *t) { return t->local_pid; }

static int local_wait(struct target *t, long timeout, long first_ms, int *exitcode)
{
    (void)first_ms;
    int rc = spawn_wait(t->local_pid, timeout, t->name);
    t->local_pid = -1;
    if (rc < 0)
        return -1;
    *exitcode = rc;
    return 0;
}

/* A short program on this machine as root (the chain probe's readings of
 * /proc; nothing of the mysql user's): its stdout. It also runs while vbed
 * is being interrupted: what a probe changed is restored then. */
static int local_capture(struct target *t, const char *const argv[], long timeout, char **out,
                         int *exitcode)
{
    (void)t;
    size_t len = 0;
    struct spawn_opts o = {.capture = out, .capture_len = &len, .capture_max = (size_t)4 << 20,
                           .timeout = timeout, .cleanup = 1};
    int rc = spawn_run(argv, &o);
    if (rc < 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    *exitcode = rc;
    return 0;
}

static char *local_read_text(struct target *t, const char *path)
{
    (void)t;
    return textfile_read(path);
}

static int local_status(struct target *t, struct target_status *st)
{
    struct hostarm_status a;
    if (hostarm_status(arm(t), &a) < 0)
        return -1;
    status_of(&a, st);
    return 0;
}

/* its mariadbd: the programs it runs are vbed's children, counted with vbed */
static double local_cpu_s(struct target *t)
{
    struct hostarm_status a;
    if (hostarm_status(arm(t), &a) < 0 || a.server_cpu_s < 0)
        return -1;
    return a.server_cpu_s;
}

static int local_fetch_log(struct target *t, const char *dest)
{
    return hostarm_fetch(arm(t), "mysqld.err", dest);
}

static int local_archive(struct target *t, bool make, char *buf, size_t len)
{
    long long bytes;
    path_join(buf, len, arm(t)->dir, "extract.tar");
    return !make ? 0 : hostarm_make_archive(arm(t), &bytes);
}

static int local_export_tables(struct target *t, long long tables, const char *dest, size_t max,
                               double *bytes)
{
    return hostarm_export_tables(arm(t), tables, dest, max, bytes);
}

static int local_import_tables(struct target *t, long long tables, const char *src)
{
    return hostarm_import_tables(arm(t), tables, src);
}

static void local_close(struct target *t) { hostarm_stop(arm(t), NULL); }

static const struct target_ops local_ops = {
    .kind = "host arm",
    .start = local_start,
    .program_pid = local_program_pid,
    .wait = local_wait,
    .capture = local_capture,
    .read_text = local_read_text,
    .cpu_s = local_cpu_s,
    .status = local_status,
    .fetch_log = local_fetch_log,
    .archive = local_archive,
    .export_tables = local_export_tables,
    .import_tables = local_import_tables,
    .close = local_close,
};

/* ---- on an ssh host ---- */

static int remote_start(struct target *t, const char *const argv[], const char *const env[])
{
    t->local_pid = hostarm_remote_exec_start(arm(t), argv, env, t->out_path);
    return t->local_pid > 0 ? 0 : -1;
}

static int remote_wait(struct target *t, long timeout, long first_ms, int *exitcode)
{
    (void)first_ms;
    /* its output is cut (and said so) at HOSTSIDE_STREAM_MAX */
    int rc = hostside_spawn_wait(arm(t)->remote, t->local_pid, timeout, t->name, t->out_path);
    t->local_pid = -1;
    if (rc < 0)
        return -1;
    *exitcode = rc;
    return 0;
}

/* its figures come through arm-status; its files are not read one by one */
static char *remote_read_text(struct target *t, const char *path)
{
    (void)t, (void)path;
    return NULL;
}

static int remote_status(struct target *t, struct target_status *st)
{
    struct hostarm_status a;
    if (hostarm_remote_status(arm(t), &a) < 0)
        return -1;
    status_of(&a, st);
    return 0;
}

/* its mariadbd and the programs it ran there: they are no children of vbed */
static double remote_cpu_s(struct target *t)
{
    struct hostarm_status a;
    if (hostarm_remote_status(arm(t), &a) < 0 || a.server_cpu_s < 0)
        return -1;
    return a.server_cpu_s + a.programs_cpu_s;
}

static int remote_fetch_log(struct target *t, const char *dest)
{
    return hostarm_remote_fetch(arm(t), "mysqld.err", dest);
}

static int remote_archive(struct target *t, bool make, char *buf, size_t len)
{
    long long bytes;
    path_join(buf, len, arm(t)->dir, "extract.tar");
    return !make ? 0 : hostarm_remote_make_archive(arm(t), &bytes);
}

static void remote_close(struct target *t) { hostarm_remote_stop(arm(t), NULL); }

static const struct target_ops remote_ops = {
    .kind = "remote host arm",
    .start = remote_start,
    .wait = remote_wait,
    .capture = NULL,
    .read_text = remote_read_text,
    .cpu_s = remote_cpu_s,
    .status = remote_status,
    .fetch_log = remote_fetch_log,
    .archive = remote_archive,
    .close = remote_close,
};

int target_open_host_arm(struct target *t, struct hostside *hs, const struct hostarm_limits *l,
                         const char *mycnf, const char *lua, const char *base, const char *name,
                         const char *dir)
{
    memset(t, 0, sizeof(*t));
    bool here = !hs || hostside_is_local(hs);
    struct hostarm *h = here ? hostarm_start(l, mycnf, lua, base, name)
                             : hostarm_remote_start(hs, l, mycnf, lua, base, name);
    if (!h)
        return -1;
    t->ops = here ? &local_ops : &remote_ops;
    t->impl = h;
    snprintf(t->name, sizeof(t->name), "host");
    t->guest = 0;
    t->arm_kind = ARM_HOST;
    t->own_kernel = false;
    t->sql = h->sql;
    snprintf(t->lua, sizeof(t->lua), "%s", h->lua);
    snprintf(t->socket, sizeof(t->socket), "%s", h->socket);
    snprintf(t->errlog, sizeof(t->errlog), "%s", h->errlog);
    path_join(t->io_dir, sizeof(t->io_dir), h->dir, "io");
    snprintf(t->data_path, sizeof(t->data_path), "%s", h->datadir);
    t->hs = hs;
    snprintf(t->host_label, sizeof(t->host_label), "%s", hs ? hostside_uri(hs)->label : "local");
    snprintf(t->dir, sizeof(t->dir), "%s", dir);
    t->local_pid = -1;
    t->program_pid = -1;
    return 0;
}

const char *target_host_arm_cpus(const struct target *t, bool *confined)
{
    bool arm_target = t->ops == &local_ops || t->ops == &remote_ops;
    *confined = arm_target && arm(t)->confined;
    return arm_target ? arm(t)->cpus : "";
}
