/* accel.c: probe KVM by booting a kernel under it and reading its console
 * (see accel.h). */
#include "virt/accel.h"

#include "virt/domain.h"
#include "virt/hypervisor.h"
#include "scenario/keys.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/paths.h"
#include "results/session.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "virt/storage.h"
#include "util/textfile.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum accel_verdict accel_console_verdict(const char *console)
{
    if (!console)
        return ACCEL_TCG_ONLY;
    return strstr(console, "Kernel panic - not syncing") ||
                   strstr(console, "VFS: Unable to mount root fs")
               ? ACCEL_KVM_WORKS
               : ACCEL_TCG_ONLY;
}

static void boot_id(char *buf, size_t len)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    buf[0] = '\0';
    if (f) {
        if (fgets(buf, (int)len, f))
            buf[strcspn(buf, "\n")] = '\0';
        fclose(f);
    }
}

static void cache_path(char *buf, size_t len)
{
    path_join(buf, len, paths_cache_dir(), "accel.json");
}

enum accel_verdict accel_cache_get(const char *key)
{
    char path[PATH_MAX], boot[64];
    cache_path(path, sizeof(path));
    boot_id(boot, sizeof(boot));
    json_object *root = json_object_from_file(path), *entry, *v;
    enum accel_verdict verdict = ACCEL_UNKNOWN;
    if (root && json_object_object_get_ex(root, key, &entry) &&
        json_object_object_get_ex(entry, "boot_id", &v) &&
        strcmp(json_object_get_string(v), boot) == 0 &&
        json_object_object_get_ex(entry, "kvm_works", &v))
        verdict = json_object_get_boolean(v) ? ACCEL_KVM_WORKS : ACCEL_TCG_ONLY;
    json_object_put(root);
    return verdict;
}

void accel_cache_put(const char *key, enum accel_verdict verdict)
{
    char path[PATH_MAX], boot[64];
    cache_path(path, sizeof(path));
    boot_id(boot, sizeof(boot));
    if (paths_mkdirs(paths_cache_dir(), 0755) < 0)
        return;
    json_object *root = json_object_from_file(path);
    if (!root || !json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        root = json_object_new_object();
    }
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "boot_id", json_object_new_string(boot));
    json_object_object_add(entry, "kvm_works", json_object_new_boolean(verdict == ACCEL_KVM_WORKS));
    json_object_object_add(root, key, entry);
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
    if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY) == 0)
        rename(tmp, path);
    json_object_put(root);
}

int accel_host_kernel(char *buf, unsigned long len)
{
    glob_t g;
    if (glob("/boot/vmlinuz-*", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        globfree(&g);
        return -1;
    }
    /* glob sorts: the last is the newest version by name */
    snprintf(buf, len, "%s", g.gl_pathv[g.gl_pathc - 1]);
    globfree(&g);
    return 0;
}

enum accel_verdict accel_local_kvm(const char *kernel)
{
    if (access("/dev/kvm", R_OK | W_OK) != 0)
        return ACCEL_TCG_ONLY;
    enum accel_verdict cached = accel_cache_get("local");
    if (cached != ACCEL_UNKNOWN)
        return cached;
    char k[PATH_MAX];
    if (!kernel) {
        if (accel_host_kernel(k, sizeof(k)) < 0)
            return ACCEL_UNKNOWN;
        kernel = k;
    }
    char dir[] = "/tmp/vbed-probe-XXXXXX", console[64], serial[80];
    if (!mkdtemp(dir)) {
        log_warn("Cannot make a directory for the KVM probe's console: %s", strerror(errno));
        return ACCEL_UNKNOWN;
    }
    snprintf(console, sizeof(console), "%s/console.log", dir);
    snprintf(serial, sizeof(serial), "file:%s", console);
    const char *argv[] = {"qemu-system-x86_64", "-machine", "accel=kvm", "-cpu", "host", "-m", "256",
                          "-display", "none", "-nodefaults", "-no-reboot", "-serial", serial,
                          "-kernel", kernel, "-append", DOMAIN_PROBE_CMDLINE, NULL};
    /* quiet: a timeout or a crash is an answer, not an error; the console decides */
    struct spawn_opts o = {.timeout = ACCEL_PROBE_SECONDS, .quiet = 1};
    log_info("checking that KVM can boot a kernel here (once per boot)");
    int rc = spawn_run(argv, &o);
    char *text = textfile_read(console);
    enum accel_verdict v = accel_console_verdict(text);
    free(text);
    unlink(console);
    rmdir(dir);
    if (rc == SPAWN_INTERRUPTED)
        return ACCEL_UNKNOWN;
    if (v == ACCEL_TCG_ONLY)
        log_warn("/dev/kvm is present but a kernel does not boot under KVM here (no panic on its "
                 "console within %d s); using TCG (software emulation).",
                 ACCEL_PROBE_SECONDS);
    accel_cache_put("local", v);
    return v;
}

/* The pool holding the kernel volume (its console goes there too); NULL if
 * the kernel is no volume of a pool. */
static struct storage *pool_of(struct hv *hv, const char *kernel)
{
    virStorageVolPtr vol = virStorageVolLookupByPath(hv_conn(hv), kernel);
    virStoragePoolPtr pool = vol ? virStoragePoolLookupByVolume(vol) : NULL;
    struct storage *st = NULL;
    if (pool) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", kernel);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        st = storage_open(hv, virStoragePoolGetName(pool), dir);
    }
    if (pool)
        virStoragePoolFree(pool);
    if (vol)
        virStorageVolFree(vol);
    return st;
}

/* The probe's console text (malloc'd) through the pool, then its volume
 * deleted; NULL if there is none. */
static char *read_console(struct storage *st, const char *vol)
{
    char dir[] = "/tmp/vbed-probe-XXXXXX", local[64];
    if (storage_refresh(st) < 0 || !mkdtemp(dir))
        return NULL;
    snprintf(local, sizeof(local), "%s/console.log", dir);
    char *text = NULL;
    if (storage_download(st, vol, local) == 0)
        text = textfile_read(local);
    unlink(local);
    rmdir(dir);
    storage_delete(st, vol);
    return text;
}

enum accel_verdict accel_probe_libvirt(struct hv *hv, const char *kernel, char **console_text)
{
    if (console_text)
        *console_text = NULL;
    struct storage *st = pool_of(hv, kernel);
    if (!st) {
        log_warn("The KVM probe's kernel '%s' is no volume of a storage pool: its console "
                 "cannot be read; using TCG.",
                 kernel);
        return ACCEL_TCG_ONLY;
    }
    char name[64], vol[96], console[PATH_MAX];
    session_probe_name(name, sizeof(name));
    snprintf(vol, sizeof(vol), "%s-console.log", name);
    path_join(console, sizeof(console), storage_path(st), vol);
    char *xml = domain_probe_xml(name, VIRT_KVM, kernel, console, session_machine());
    if (!xml) {
        storage_close(st);
        return ACCEL_UNKNOWN;
    }
    log_info("checking that a kernel boots under KVM at %s (once per boot)", hv_get_info(hv)->uri);
    virDomainPtr dom = virDomainCreateXML(hv_conn(hv), xml, VIR_DOMAIN_START_AUTODESTROY);
    free(xml);
    if (!dom) {
        log_info("the KVM probe did not start: %s", hv_last_error());
        storage_refresh(st);
        storage_delete(st, vol);
        storage_close(st);
        return ACCEL_TCG_ONLY;
    }
    /* until the domain stops (panic=-1 reboots, and a reboot ends it) or
     * the limit; then only the console decides: a stop without the panic,
     * or a hang, is not a working KVM */
    bool interrupted = false;
    for (double deadline = monotime_s() + ACCEL_PROBE_SECONDS; monotime_s() < deadline;) {
        if (hv_is_running(dom) == 0)
            break;
        if (signals_sleep_ms(250)) {
            interrupted = true;
            break;
        }
    }
    hv_destroy(dom);
    char *text = read_console(st, vol);
    storage_close(st);
    enum accel_verdict v = accel_console_verdict(text);
    if (v == ACCEL_TCG_ONLY)
        log_info("the KVM probe's console shows no kernel panic within %d s (%zu bytes of console)",
                 ACCEL_PROBE_SECONDS, text ? strlen(text) : (size_t)0);
    if (console_text)
        *console_text = text;
    else
        free(text);
    return interrupted ? ACCEL_UNKNOWN : v;
}

/* ---- the choice for a connection ---- */

static void probe_key(struct hv *hv, char *buf, size_t len)
{
    /* the URI without its query: a keyfile= or no_verify= names no other
     * host; a remote host's boot id: its reboot makes the verdict stale
     * (the cache itself is keyed by this machine's boot) */
    snprintf(buf, len, "libvirt %.*s %s%s%s", (int)strcspn(hv_get_info(hv)->uri, "?"), hv_get_info(hv)->uri,
             hv_get_info(hv)->hostname, hv_host_boot_id(hv)[0] ? " boot " : "", hv_host_boot_id(hv));
}

int accel_kvm_probed(struct hv *hv)
{
    char key[600];
    probe_key(hv, key, sizeof(key));
    return (int)accel_cache_get(key);
}

int accel_choose_virt_type(struct hv *hv, int requested, const char *kernel, const char **why)
{
    if (requested == VIRT_KVM) {
        *why = "virt_type = kvm";
        return VIRT_KVM;
    }
    if (requested == VIRT_QEMU) {
        *why = "virt_type = qemu";
        return VIRT_QEMU;
    }
    if (!hv_get_info(hv)->kvm_offered) {
        *why = "libvirt offers no kvm domains here";
        return VIRT_QEMU;
    }
    char key[600];
    probe_key(hv, key, sizeof(key));
    enum accel_verdict v = accel_cache_get(key);
    if (v == ACCEL_UNKNOWN) {
        v = accel_probe_libvirt(hv, kernel, NULL);
        if (v == ACCEL_UNKNOWN) {
            *why = "the KVM probe was interrupted";
            return VIRT_QEMU;
        }
        accel_cache_put(key, v);
    }
    if (v == ACCEL_KVM_WORKS) {
        *why = "libvirt offers kvm and a kernel boots under it";
        return VIRT_KVM;
    }
    *why = "libvirt offers kvm, but a kernel does not boot under it here (broken nested "
           "virtualization?)";
    return VIRT_QEMU;
}
