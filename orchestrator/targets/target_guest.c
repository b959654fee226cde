/* target_guest.c: a guest as a target (see target.h): programs run through
 * its guest agent, queries through the mariadb client there, files read
 * through the agent, its CPU as libvirt counts it (the whole QEMU). */
#include "targets/target.h"

#include "image/archive.h"
#include "scenario/keys.h"
#include "scenario/mycnf.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/textfile.h"
#include "util/xalloc.h"
#include "virt/agent.h"
#include "virt/configdisk.h"
#include "virt/diskwatch.h"
#include "virt/domain.h"
#include "virt/guest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct guest_impl {
    struct storage *st;
    const struct guest_layout *lay;
    bool tables_plugged;
    struct diskwatch *watch; /* while vbed waits on its programs (t->stall_s > 0) */
};

static int start(struct target *t, const char *const argv[], const char *const env[])
{
    return agent_exec_start(t->dom, argv, env, &t->agent_pid);
}

/* guest-exec's pid is the program's own in the guest */
static long long program_pid(const struct target *t) { return t->agent_pid; }

/* the wait's look at the guest's disks (diskwatch.h): non-zero stops it,
 * with the evidence in t->stalled */
static int stalled(void *arg)
{
    struct target *t = arg;
    struct guest_impl *g = t->impl;
    if (!g->watch || diskwatch_check(g->watch, t->stalled, sizeof(t->stalled)) == 0)
        return 0;
    log_error("%s: %s.", t->name, t->stalled);
    return 1;
}

static int wait_for(struct target *t, long timeout, long first_ms, int *exitcode)
{
    struct agent_result r = {0};
    struct guest_impl *g = t->impl;
    if (t->stall_s > 0 && !g->watch)
        g->watch = diskwatch_new(t->dom, t->stall_s, target_is_local(t) ? g->lay->console_path : NULL);
    if (agent_exec_wait_watched(t->dom, t->agent_pid, timeout, first_ms, 250, &r, stalled, t) < 0) {
        agent_result_free(&r);
        return -1;
    }
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

static int capture(struct target *t, const char *const argv[], long timeout, char **out, int *exitcode)
{
    struct agent_result r = {0};
    if (agent_exec(t->dom, argv, NULL, timeout, &r) < 0) {
        agent_result_free(&r);
        return -1;
    }
    *out = xcalloc(r.out_len + 1, 1);
    memcpy(*out, r.out ? r.out : "", r.out_len);
    *exitcode = r.exitcode;
    agent_result_free(&r);
    return 0;
}

static char *read_text(struct target *t, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    if (agent_read_file(t->dom, path, 1 << 20, &data, &len, true) < 0)
        return NULL;
    char *text = xcalloc(len + 1, 1);
    memcpy(text, data, len);
    free(data);
    return text;
}

/* agent_read_file stops at max: max + 1 bytes read is a file too large */
static int get_file(struct target *t, const char *path, size_t max, char **data, size_t *len)
{
    if (agent_read_file(t->dom, path, max + 1, data, len, false) < 0)
        return -1;
    if (*len > max) {
        log_error("'%s' in guest '%s' is larger than %zu bytes.", path, t->name, max);
        free(*data);
        *data = NULL;
        *len = 0;
        return -1;
    }
    return 0;
}

static int put_file(struct target *t, const char *path, const char *data, size_t len)
{
    return agent_write_file(t->dom, path, data, len);
}

/* what a guest target holds besides its domain: where its volumes are */
/* The archive's disk appears as /dev/disk/by-id/virtio-<serial> once the
 * guest's udev has seen it (hot-plug under TCG: a second or two); tar reads
 * the disk itself ($1: the directory). */
static const char put_tar_script[] =
    "d=/dev/disk/by-id/virtio-" DOMAIN_SERIAL_TABLES "; i=0\n"
    "while [ ! -b \"$d\" ]; do\n"
    "  i=$((i + 1)); [ $i -gt 600 ] && { echo \"no disk $d after 60 s\" >&2; exit 3; }\n"
    "  sleep 0.1\n"
    "done\n"
    "cd \"$1\" && exec tar -x -f \"$d\" --no-same-owner --no-same-permissions\n";

static int put_tar(struct target *t, const char *tar, const char *dir)
{
    struct guest_impl *g = t->impl;
    if (g->tables_plugged) {
        log_error("%s: its tables disk is plugged in already (one archive per guest).", t->name);
        return -1;
    }
    if (guest_plug_tables(t->dom, g->st, g->lay, tar) < 0)
        return -1;
    g->tables_plugged = true;
    const char *argv[] = {"/bin/sh", "-c", put_tar_script, "sh", dir, NULL};
    char *out = NULL;
    int exitcode = -1;
    if (capture(t, argv, 600, &out, &exitcode) < 0)
        return -1;
    free(out);
    if (exitcode != 0) {
        log_error("%s: the tables disk's archive was not extracted into %s (exit %d).", t->name, dir,
                  exitcode);
        return -1;
    }
    return 0;
}

static double cpu_s(struct target *t)
{
    virDomainInfo info;
    if (virDomainGetInfo(t->dom, &info) < 0)
        return -1;
    return (double)info.cpuTime / 1e9;
}

static int fetch_log(struct target *t, const char *dest)
{
    char *data = NULL;
    size_t len = 0;
    if (agent_read_file(t->dom, t->errlog, 64 << 20, &data, &len, true) < 0)
        return -1;
    int rc = textfile_write(dest, data, len);
    free(data);
    return rc;
}

static int archive(struct target *t, bool make, char *buf, size_t len)
{
    (void)t, (void)make;
    snprintf(buf, len, "%s", ARCHIVE_GUEST_PATH); /* in the image */
    return 0;
}

static void close_guest(struct target *t)
{
    sql_close(t->sql);
    struct guest_impl *g = t->impl;
    if (g)
        diskwatch_free(g->watch);
    free(t->impl);
    t->impl = NULL;
}

static const struct target_ops guest_ops = {
    .kind = "guest",
    .start = start,
    .program_pid = program_pid,
    .wait = wait_for,
    .capture = capture,
    .read_text = read_text,
    .cpu_s = cpu_s,
    .status = NULL,
    .fetch_log = fetch_log,
    .archive = archive,
    .get_file = get_file,
    .put_file = put_file,
    .put_tar = put_tar,
    .close = close_guest,
};

void target_open_guest(struct target *t, int n, virDomainPtr dom, struct hostside *hs,
                       struct storage *st, const struct guest_layout *lay, const char *host_label,
                       const char *data_file, const char *dir)
{
    memset(t, 0, sizeof(*t));
    t->ops = &guest_ops;
    struct guest_impl *g = xcalloc(1, sizeof(*g));
    g->st = st;
    g->lay = lay;
    t->impl = g;
    snprintf(t->name, sizeof(t->name), "%s", virDomainGetName(dom));
    t->guest = n;
    t->arm_kind = ARM_GUEST;
    t->own_kernel = true;
    t->dom = dom;
    t->sql = sql_open_agent(dom);
    snprintf(t->lua, sizeof(t->lua), "/usr/local/share/vbed/vbed_oltp.lua");
    snprintf(t->socket, sizeof(t->socket), "/run/mysqld/mysqld.sock");
    snprintf(t->errlog, sizeof(t->errlog), "%s", MYCNF_GUEST_ERROR_LOG);
    snprintf(t->io_dir, sizeof(t->io_dir), "%s", IO_GUEST_DIR);
    snprintf(t->data_path, sizeof(t->data_path), "%s", data_file ? data_file : "");
    t->hs = hs;
    snprintf(t->host_label, sizeof(t->host_label), "%s", host_label);
    snprintf(t->dir, sizeof(t->dir), "%s", dir);
    t->local_pid = -1;
    t->program_pid = -1;
}
