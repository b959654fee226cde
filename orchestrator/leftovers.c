/* leftovers.c: find and remove what a dead vbed left (see leftovers.h). */
#include "leftovers.h"

#include "hostarm.h"
#include "log.h"
#include "session.h"
#include "storage.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

struct clean {
    struct hv *hv;
    bool dry_run;
    struct leftovers *out;
};

/* Whether a leftover belongs to a dead session (and so may go). */
static int is_orphan(struct clean *c, const char *name)
{
    char id[SESSION_ID_MAX];
    if (strncmp(name, "vbed-image-", 11) == 0 || strncmp(name, "vbed-probe-", 11) == 0)
        return 1;
    if (session_of_name(name, id) < 0)
        return 0;
    if (session_alive(id)) {
        c->out->kept++;
        return 0;
    }
    return 1;
}

static void clean_domains(struct clean *c)
{
    char **names;
    size_t n;
    if (hv_list_domains(c->hv, "vbed-", &names, &n) < 0) {
        c->out->failed++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_orphan(c, names[i]))
            continue;
        if (c->dry_run) {
            printf("would remove domain %s\n", names[i]);
        } else if (hv_remove_domain(c->hv, names[i]) == 0) {
            printf("removed domain %s\n", names[i]);
            c->out->removed++;
        } else {
            c->out->failed++;
        }
    }
    storage_free_names(names, n);
}

static void clean_volumes(struct clean *c, const char *pool, bool images)
{
    virStoragePoolPtr p = virStoragePoolLookupByName(hv_conn(c->hv), pool);
    if (!p) {
        log_info("no storage pool '%s': no volumes to remove", pool);
        return;
    }
    virStoragePoolFree(p);
    struct storage *st = storage_open(c->hv, pool, "/nonexistent");
    if (!st) {
        c->out->failed++;
        return;
    }
    char **names;
    size_t n;
    if (storage_list(st, "vbed-", &names, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            if (!images && strncmp(names[i], "vbed-image-", 11) == 0)
                continue;
            if (!is_orphan(c, names[i]))
                continue;
            if (c->dry_run) {
                printf("would remove volume %s/%s\n", storage_path(st), names[i]);
            } else if (storage_delete(st, names[i]) == 0) {
                printf("removed volume %s/%s\n", storage_path(st), names[i]);
                c->out->removed++;
            } else {
                c->out->failed++;
            }
        }
        storage_free_names(names, n);
    }
    storage_close(st);
}

void leftovers_clean_libvirt(struct hv *hv, const char *pool, bool images, bool dry_run,
                             struct leftovers *out)
{
    struct clean c = {.hv = hv, .dry_run = dry_run, .out = out};
    clean_domains(&c);
    clean_volumes(&c, pool, images);
}

void leftovers_clean_host(const char *pool_dir, bool dry_run, struct leftovers *out)
{
    char base[PATH_MAX];
    hostarm_base(pool_dir, base, sizeof(base));
    int n = hostarm_clean(base, dry_run);
    if (n > 0)
        out->removed += n;
}
