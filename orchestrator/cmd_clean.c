/* cmd_clean.c: `vbed clean`: remove what a crashed or killed vbed left:
 * domains and pool volumes named vbed-<session>-..., for sessions whose
 * vbed is no longer running, and says what it removed. */
#include "cli.h"
#include "exitcode.h"
#include "hypervisor.h"
#include "leftovers.h"
#include "keys.h"
#include "log.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

void cmd_clean_usage(FILE *out)
{
    fprintf(out,
            "usage: vbed [-c URI] clean [--pool NAME] [--pool-dir DIR] [--images] [--dry-run]\n\n"
            "Removes what an earlier vbed that crashed or was killed left behind: domains\n"
            "and volumes named vbed-<session>-..., and host arms (their mariadbd, datadir\n"
            "and cgroup, next to the pool's directory), of sessions whose vbed no longer\n"
            "runs (a running vbed's are left alone). --images also removes the base\n"
            "images uploaded into the pool (they are uploaded again when needed).\n"
            "--dry-run lists only.\n");
}

int cmd_clean(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option opts[] = {
        {"pool", required_argument, NULL, 'p'},
        {"pool-dir", required_argument, NULL, 'd'},
        {"images", no_argument, NULL, 'i'},
        {"dry-run", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    struct leftovers c = {0};
    const char *pool = key_find("pool")->def;
    const char *pool_dir = key_find("pool_dir")->def;
    bool images = false, dry_run = false;
    int opt;
    while ((opt = getopt_long(argc, argv, "p:d:in", opts, NULL)) != -1) {
        switch (opt) {
        case 'p':
            pool = optarg;
            break;
        case 'd':
            pool_dir = optarg;
            break;
        case 'i':
            images = true;
            break;
        case 'n':
            dry_run = true;
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
    /* host arms first: they need no libvirt */
    leftovers_clean_host(pool_dir, dry_run, &c);
    struct hv *hv = hv_open(ctx->uri);
    if (!hv)
        return EXIT_ENV;
    leftovers_clean_libvirt(hv, pool, images, dry_run, &c);
    hv_close(hv);
    if (!dry_run)
        printf("clean: removed %d, %d failed%s\n", c.removed, c.failed,
               c.kept ? ", left a running vbed's things alone" : "");
    return c.failed ? EXIT_FAILED : EXIT_OK;
}
