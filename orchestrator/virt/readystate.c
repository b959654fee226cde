/* readystate.c: saved ready guests, found or made (see readystate.h). */
#include "virt/readystate.h"

#include "results/session.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/paths.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "util/xalloc.h"
#include "virt/agent.h"
#include "virt/domain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void fill_paths(struct ready_state *rs, const struct image_info *img)
{
    char ready[PATH_MAX];
    path_join(ready, sizeof(ready), img->dir, "ready");
    path_join(rs->dir, sizeof(rs->dir), ready, rs->key);
    path_join(rs->state, sizeof(rs->state), rs->dir, "state.save");
    path_join(rs->root, sizeof(rs->root), rs->dir, "root.qcow2");
}

/* Everything a saved guest depends on, hashed: another value is another state. */
static void make_key(struct hv *hv, const struct image_info *img, const struct run_config *cfg,
                     int virt_type, const char *cmdline, char key[17])
{
    const struct hv_info *in = hv_get_info(hv);
    struct hasher *h = hasher_new();
    /* the build too: a guest saved over one build's root does not fit another's */
    hasher_addf(h, "image %s\nbuild %s\nvcpus %lld\nmemory %lld\nvirt %d\nqemu %lu\nlibvirt %lu\ncmdline %s\n",
                img->hash, img->build, cfg->vcpus, cfg->memory, virt_type, in->hv_version, in->lib_version,
                cmdline);
    char hex[65];
    hasher_final(h, hex);
    snprintf(key, 17, "%.16s", hex);
}

/* A complete state: its files and its meta.json naming the same key. */
static bool complete(struct ready_state *rs)
{
    char meta[PATH_MAX];
    path_join(meta, sizeof(meta), rs->dir, "meta.json");
    struct stat st;
    if (stat(rs->state, &st) < 0 || !S_ISREG(st.st_mode) || access(rs->root, R_OK) != 0)
        return false;
    json_object *m = json_object_from_file(meta), *k, *b;
    bool ok = m && json_object_object_get_ex(m, "key", &k) && json_object_is_type(k, json_type_string) &&
              strcmp(json_object_get_string(k), rs->key) == 0;
    /* its root overlay's backing image (made by an older vbed: unknown, "") */
    rs->base[0] = '\0';
    if (ok && json_object_object_get_ex(m, "base", &b) && json_object_is_type(b, json_type_string))
        snprintf(rs->base, sizeof(rs->base), "%s", json_object_get_string(b));
    json_object_put(m);
    if (ok)
        rs->state_bytes = (long long)st.st_size;
    return ok;
}

/* Wait until the template's agent answers and vbed-setup holds; -1 with why. */
static int wait_hold(virDomainPtr dom, long long limit_s, char *why, size_t whylen)
{
    double deadline = monotime_s() + (double)limit_s;
    while (monotime_s() < deadline) {
        if (signals_interrupted()) {
            snprintf(why, whylen, "interrupted");
            return -1;
        }
        if (hv_is_running(dom) != 1) {
            snprintf(why, whylen, "the template guest stopped while it booted");
            return -1;
        }
        if (agent_ping(dom, 5) == 0) {
            char *status = NULL;
            size_t len = 0;
            bool hold = agent_read_file(dom, "/run/vbed/status", 256, &status, &len, true) == 0 &&
                        len >= 4 && strncmp(status, "hold", 4) == 0;
            free(status);
            if (hold)
                return 0;
        }
        signals_sleep_ms(1000);
    }
    snprintf(why, whylen, "the template guest did not hold for its disks within %lld s (timeout_boot)",
             limit_s);
    return -1;
}

/* Boot the template into tmp (its root overlay on the pool's base image),
 * wait for the hold, save it there. 0, or -1 with why. */
static int build(struct hv *hv, const struct image_layout *im, const struct run_config *cfg,
                 int virt_type, const char *cpuset, struct ready_state *rs, const char *tmp, char *why,
                 size_t whylen)
{
    char root[PATH_MAX], state[PATH_MAX], console[PATH_MAX], name[LAYOUT_DOMNAME_MAX];
    path_join(root, sizeof(root), tmp, "root.qcow2");
    path_join(state, sizeof(state), tmp, "state.save");
    path_join(console, sizeof(console), tmp, "console.log");
    snprintf(name, sizeof(name), "vbed-ready-%s", rs->key);
    const char *argv[] = {"qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b", im->base_path,
                          root, NULL};
    struct spawn_opts o = {.timeout = 60};
    if (spawn_run(argv, &o) != 0) {
        snprintf(why, whylen, "qemu-img could not make its root overlay");
        return -1;
    }
    struct domain_spec spec = {
        .name = name, .virt_type = virt_type, .memory = cfg->memory, .vcpus = cfg->vcpus,
        .kernel = im->kernel_path, .initrd = im->initrd_path, .cmdline = rs->cmdline,
        .root_path = root, .console_log = console, .emulator_pin = -1, .cpuset = cpuset,
        .machine = session_machine(), .plugged_later = true};
    char *xml = domain_xml(&spec);
    if (!xml) {
        snprintf(why, whylen, "its domain XML could not be made");
        return -1;
    }
    log_info("saving a ready guest for %lld vCPU%s and %lld MiB (once; a boot)", cfg->vcpus,
             cfg->vcpus == 1 ? "" : "s", cfg->memory >> 20);
    virDomainPtr dom = hv_start(hv, xml, name);
    free(xml);
    if (!dom) {
        snprintf(why, whylen, "libvirt did not start the template guest");
        return -1;
    }
    int rc = wait_hold(dom, cfg->timeout_boot, why, whylen);
    if (rc == 0 && virDomainSaveFlags(dom, state, NULL, VIR_DOMAIN_SAVE_RUNNING) < 0) {
        snprintf(why, whylen, "libvirt could not save it: %s", hv_last_error());
        rc = -1;
    }
    hv_destroy(dom); /* saved: already gone; failed: goes now */
    return rc;
}

static int write_meta(const struct ready_state *rs, const char *tmp, const struct image_info *img,
                      const struct image_layout *im, const struct run_config *cfg, int virt_type,
                      struct hv *hv)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), tmp, "meta.json");
    const struct hv_info *in = hv_get_info(hv);
    json_object *m = json_object_new_object();
    json_object_object_add(m, "key", json_object_new_string(rs->key));
    json_object_object_add(m, "image", json_object_new_string(img->id));
    json_object_object_add(m, "vcpus", json_object_new_int64(cfg->vcpus));
    json_object_object_add(m, "memory_bytes", json_object_new_int64(cfg->memory));
    json_object_object_add(m, "virt_type", json_object_new_string(virt_type == VIRT_KVM ? "kvm" : "qemu"));
    json_object_object_add(m, "qemu_version", json_object_new_int64((int64_t)in->hv_version));
    json_object_object_add(m, "libvirt_version", json_object_new_int64((int64_t)in->lib_version));
    json_object_object_add(m, "cmdline", json_object_new_string(rs->cmdline));
    json_object_object_add(m, "base", json_object_new_string(im->base_path));
    json_object_object_add(m, "build_s", json_object_new_double(rs->build_s));
    int rc = json_object_to_file_ext(path, m, JSON_C_TO_STRING_PRETTY);
    json_object_put(m);
    if (rc < 0)
        log_error("Cannot write '%s': %s", path, strerror(errno));
    return rc;
}

/* A remote host restores what this machine saved, uploaded there: the
 * state its key names (the same QEMU and libvirt versions, domain type,
 * vCPUs, memory, image and its build), whose root overlay's backing image
 * has the same path in that host's pool (where storage_ensure_image put this
 * build: the same path is the same bytes). It is never made for a remote host: its boot
 * would be this machine's. 0, or -1 with why. */
static int remote_use(struct hv *hv, const struct image_layout *im, const struct run_config *cfg,
                      int virt_type, struct ready_state *rs, char *why, size_t whylen)
{
    const struct hv_info *in = hv_get_info(hv);
    if (!complete(rs)) {
        snprintf(why, whylen,
                 "this machine has none saved for %lld vCPU%s, %lld MiB, %s, QEMU %lu and libvirt %lu "
                 "(that host's); a run here with the same versions saves one",
                 cfg->vcpus, cfg->vcpus == 1 ? "" : "s", cfg->memory >> 20,
                 virt_type == VIRT_KVM ? "kvm" : "qemu", in->hv_version, in->lib_version);
        return -1;
    }
    /* not recorded (an older vbed): tried -- a backing image QEMU cannot
     * open there fails the restore before a domain exists, and it boots */
    if (rs->base[0] && strcmp(rs->base, im->base_path) != 0) {
        snprintf(why, whylen, "the saved guest in '%s' is backed by '%s', that host's image is '%s'",
                 rs->dir, rs->base, im->base_path);
        return -1;
    }
    return 0;
}

int readystate_get(struct hv *hv, const struct image_info *img, const struct image_layout *im,
                   const struct run_config *cfg, int virt_type, const char *cpuset,
                   struct ready_state *rs, char *why, size_t whylen)
{
    memset(rs, 0, sizeof(*rs));
    snprintf(rs->cmdline, sizeof(rs->cmdline), "%s%s", img->cmdline, READYSTATE_HOLD);
    make_key(hv, img, cfg, virt_type, rs->cmdline, rs->key);
    fill_paths(rs, img);
    if (hv_get_info(hv)->remote)
        return remote_use(hv, im, cfg, virt_type, rs, why, whylen);
    if (complete(rs))
        return 0;

    /* one maker at a time: another session may be making this very state */
    char ready[PATH_MAX], lock[PATH_MAX], tmp[PATH_MAX + 32];
    path_join(ready, sizeof(ready), img->dir, "ready");
    if (paths_mkdirs(ready, 0755) < 0) {
        snprintf(why, whylen, "cannot make '%s'", ready);
        return -1;
    }
    path_join(lock, sizeof(lock), ready, ".lock");
    int lk = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lk < 0 || flock(lk, LOCK_EX) < 0) {
        snprintf(why, whylen, "cannot lock '%s': %s", lock, strerror(errno));
        if (lk >= 0)
            close(lk);
        return -1;
    }
    int rc = 0;
    if (!complete(rs)) {
        /* what a killed maker of this key left (none makes it but us now) */
        char prefix[64];
        snprintf(prefix, sizeof(prefix), "%s.build-", rs->key);
        DIR *d = opendir(ready);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (strncmp(de->d_name, prefix, strlen(prefix)) == 0) {
                path_join(tmp, sizeof(tmp), ready, de->d_name);
                paths_remove_tree(tmp);
            }
        if (d)
            closedir(d);
        snprintf(tmp, sizeof(tmp), "%s.build-%d", rs->dir, (int)getpid());
        paths_remove_tree(rs->dir); /* an incomplete one */
        double t0 = monotime_s();
        rc = paths_mkdirs(tmp, 0755) < 0 ? -1 : build(hv, im, cfg, virt_type, cpuset, rs, tmp, why, whylen);
        rs->build_s = monotime_s() - t0;
        if (rc == 0)
            rc = write_meta(rs, tmp, img, im, cfg, virt_type, hv);
        if (rc == 0 && rename(tmp, rs->dir) < 0) {
            snprintf(why, whylen, "cannot rename '%s': %s", tmp, strerror(errno));
            rc = -1;
        }
        if (rc < 0)
            paths_remove_tree(tmp);
        else if (!complete(rs)) {
            snprintf(why, whylen, "the saved guest in '%s' is incomplete", rs->dir);
            rc = -1;
        } else
            log_info("saved a ready guest in %.0f s: %s (%lld MiB)", rs->build_s, rs->dir,
                     rs->state_bytes >> 20);
    }
    flock(lk, LOCK_UN);
    close(lk);
    return rc;
}
