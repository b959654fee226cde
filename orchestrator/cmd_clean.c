/* cmd_clean.c: `vbed clean`: remove what a crashed or killed vbed left:
 * domains and pool volumes named vbed-<session>-..., for sessions whose
 * vbed is no longer running, and says what it removed. */
#include "cli.h"
#include "exitcode.h"
#include "hypervisor.h"
#include "keys.h"
#include "log.h"
#include "session.h"
#include "storage.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

void cmd_clean_usage(FILE *out)
{
    fprintf(out,
            "usage: vbed [-c URI] clean [--pool NAME] [--images] [--dry-run]\n\n"
            "Removes what an earlier vbed that crashed or was killed left behind: domains\n"
            "and volumes named vbed-<session>-... whose vbed no longer runs (a running\n"
            "vbed's are left alone). --images also removes the base images uploaded into\n"
            "the pool (they are uploaded again when needed). --dry-run lists only.\n");
}

struct clean {
    struct hv *hv;
    int dry_run;
    int removed, failed, kept;
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
        c->kept++;
        return 0;
    }
    return 1;
}

static void clean_domains(struct clean *c)
{
    char **names;
    size_t n;
    if (hv_list_domains(c->hv, "vbed-", &names, &n) < 0) {
        c->failed++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_orphan(c, names[i]))
            continue;
        if (c->dry_run) {
            printf("would remove domain %s\n", names[i]);
        } else if (hv_remove_domain(c->hv, names[i]) == 0) {
            printf("removed domain %s\n", names[i]);
            c->removed++;
        } else {
            c->failed++;
        }
    }
    storage_free_names(names, n);
}

static void clean_volumes(struct clean *c, const char *pool, int images)
{
    virStoragePoolPtr p = virStoragePoolLookupByName(hv_conn(c->hv), pool);
    if (!p) {
        log_info("no storage pool '%s': no volumes to remove", pool);
        return;
    }
    virStoragePoolFree(p);
    struct storage *st = storage_open(c->hv, pool, "/nonexistent");
    if (!st) {
        c->failed++;
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
                c->removed++;
            } else {
                c->failed++;
            }
        }
        storage_free_names(names, n);
    }
    storage_close(st);
}

int cmd_clean(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option opts[] = {
        {"pool", required_argument, NULL, 'p'},
        {"images", no_argument, NULL, 'i'},
        {"dry-run", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    struct clean c = {0};
    const char *pool = key_find("pool")->def;
    int images = 0, opt;
    while ((opt = getopt_long(argc, argv, "p:in", opts, NULL)) != -1) {
        switch (opt) {
        case 'p':
            pool = optarg;
            break;
        case 'i':
            images = 1;
            break;
        case 'n':
            c.dry_run = 1;
            break;
        default:
            fprintf(stderr, "Try 'vbed clean --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind != argc) {
        log_error("clean takes no arguments (try 'vbed clean --help').");
        return EXIT_USAGE;
    }
    c.hv = hv_open(ctx->uri);
    if (!c.hv)
        return EXIT_ENV;
    clean_domains(&c);
    clean_volumes(&c, pool, images);
    hv_close(c.hv);
    if (!c.dry_run)
        printf("clean: removed %d, %d failed%s\n", c.removed, c.failed,
               c.kept ? ", left a running vbed's things alone" : "");
    return c.failed ? EXIT_FAILED : EXIT_OK;
}
