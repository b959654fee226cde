/* accel.c: probe KVM by booting a kernel under it (see accel.h). */
#include "accel.h"

#include "log.h"
#include "paths.h"
#include "spawn.h"

#include <glob.h>
#include <limits.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
    const char *argv[] = {"qemu-system-x86_64", "-machine", "accel=kvm", "-cpu", "host", "-m", "256",
                          "-display", "none", "-nodefaults", "-no-reboot", "-serial", "none",
                          "-kernel", kernel, "-append", "panic=-1 root=/dev/vbed-probe-no-such-disk",
                          NULL};
    /* quiet: a timeout or a crash is the answer, not an error */
    struct spawn_opts o = {.timeout = 30, .quiet = 1};
    log_info("checking that KVM can boot a kernel here (once per boot)");
    int rc = spawn_run(argv, &o);
    enum accel_verdict v = rc == 0 ? ACCEL_KVM_WORKS : ACCEL_TCG_ONLY;
    if (rc == SPAWN_INTERRUPTED)
        return ACCEL_UNKNOWN;
    if (v == ACCEL_TCG_ONLY)
        log_warn("/dev/kvm is present but a kernel does not boot under KVM here; using TCG "
                 "(software emulation).");
    accel_cache_put("local", v);
    return v;
}
