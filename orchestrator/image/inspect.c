/* inspect.c: libguestfs, read-only (see inspect.h). */
#include "image/inspect.h"
#include "util/monotime.h"
#include "util/xalloc.h"

#include "util/log.h"

#include <errno.h>
#include <guestfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct inspect {
    guestfs_h *g;
    double launch_seconds;
};

static const char *last_error(guestfs_h *g)
{
    const char *e = guestfs_last_error(g);
    return e ? e : "unknown error";
}

struct inspect *inspect_open(const char *const *disks, const char *const *formats, size_t n,
                             bool kvm_works)
{
    guestfs_h *g = guestfs_create();
    if (!g) {
        log_error("Cannot create a libguestfs handle: %s", strerror(errno));
        return NULL;
    }
    guestfs_set_error_handler(g, NULL, NULL);

    /* the appliance would run under KVM if /dev/kvm exists, working or not */
    const char *env = getenv("LIBGUESTFS_BACKEND_SETTINGS");
    if (!(env && *env) && access("/dev/kvm", F_OK) == 0 && !kvm_works) {
        char *settings[] = {(char *)"force_tcg", NULL};
        guestfs_set_backend_settings(g, settings);
    }
    for (size_t i = 0; i < n; i++) {
        if (guestfs_add_drive_opts(g, disks[i], GUESTFS_ADD_DRIVE_OPTS_READONLY, 1,
                                   GUESTFS_ADD_DRIVE_OPTS_FORMAT, formats[i], -1) < 0) {
            log_error("Cannot add disk '%s' to libguestfs: %s", disks[i], last_error(g));
            guestfs_close(g);
            return NULL;
        }
    }
    double t0 = monotime_s();
    if (guestfs_launch(g) < 0) {
        log_error("Cannot launch the libguestfs appliance: %s", last_error(g));
        guestfs_close(g);
        return NULL;
    }
    struct inspect *in = xcalloc(1, sizeof(*in));
    in->g = g;
    in->launch_seconds = monotime_s() - t0;
    log_debug("libguestfs appliance launched in %.1f s", in->launch_seconds);
    return in;
}

void inspect_close(struct inspect *in)
{
    if (!in)
        return;
    guestfs_shutdown(in->g);
    guestfs_close(in->g);
    free(in);
}

double inspect_launch_seconds(const struct inspect *in) { return in->launch_seconds; }

int inspect_mount(struct inspect *in, const char *device, const char *mountpoint)
{
    if (strcmp(mountpoint, "/") != 0 && guestfs_is_dir(in->g, mountpoint) != 1) {
        log_error("Cannot mount '%s': '%s' is not a directory in the guest's root.", device,
                  mountpoint);
        return -1;
    }
    if (guestfs_mount_ro(in->g, device, mountpoint) < 0) {
        log_error("Cannot mount '%s' at '%s': %s", device, mountpoint, last_error(in->g));
        return -1;
    }
    return 0;
}

int inspect_is_file(struct inspect *in, const char *path)
{
    /* /sbin/lvcreate is a link to lvm: what a program path names counts */
    int r = guestfs_is_file_opts(in->g, path, GUESTFS_IS_FILE_OPTS_FOLLOWSYMLINKS, 1, -1);
    if (r < 0)
        log_error("Cannot look at '%s' in the guest disk: %s", path, last_error(in->g));
    return r;
}

int inspect_is_dir(struct inspect *in, const char *path)
{
    int r = guestfs_is_dir_opts(in->g, path, -1);
    if (r < 0)
        log_error("Cannot look at '%s' in the guest disk: %s", path, last_error(in->g));
    return r;
}

int inspect_copy_file(struct inspect *in, const char *guest_path, const char *host_path)
{
    if (guestfs_download(in->g, guest_path, host_path) < 0) {
        log_error("Cannot copy '%s' out of the guest disk: %s", guest_path, last_error(in->g));
        return -1;
    }
    return 0;
}

static const char *field(const struct guestfs_xattr_list *l, const char *name, size_t *len)
{
    for (uint32_t i = 0; i < l->len; i++) {
        if (strcmp(l->val[i].attrname, name) == 0) {
            *len = l->val[i].attrval_len;
            return l->val[i].attrval;
        }
    }
    *len = 0;
    return NULL;
}

int inspect_journal_text(struct inspect *in, const char *journal_dir, const char *host_path)
{
    FILE *out = fopen(host_path, "w");
    if (!out) {
        log_error("Cannot write '%s': %s", host_path, strerror(errno));
        return -1;
    }
    int rc = -1;
    if (guestfs_journal_open(in->g, journal_dir) < 0) {
        log_error("Cannot open the guest's journal '%s': %s", journal_dir, last_error(in->g));
        goto cleanup;
    }
    for (;;) {
        int more = guestfs_journal_next(in->g);
        if (more < 0) {
            log_error("Cannot read the guest's journal: %s", last_error(in->g));
            break;
        }
        if (!more) {
            rc = 0;
            break;
        }
        struct guestfs_xattr_list *l = guestfs_journal_get(in->g);
        if (!l)
            continue;
        int64_t usec = guestfs_journal_get_realtime_usec(in->g);
        time_t secs = (time_t)(usec / 1000000);
        char when[32];
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", gmtime(&secs));
        size_t ilen, mlen;
        const char *ident = field(l, "SYSLOG_IDENTIFIER", &ilen);
        const char *msg = field(l, "MESSAGE", &mlen);
        fprintf(out, "%s.%06lld %.*s: %.*s\n", when, (long long)(usec % 1000000), (int)ilen,
                ident ? ident : "", (int)mlen, msg ? msg : "");
        guestfs_free_xattr_list(l);
    }
    guestfs_journal_close(in->g);
cleanup:
    if (fclose(out) != 0)
        rc = -1;
    return rc;
}
