/* cmd_clean.c: `vbed clean`: remove what a crashed or killed vbed of THIS
 * machine left (leftovers.h), and say what it removed and what it left. */
#include "cli/cli.h"
#include "util/exitcode.h"
#include "scenario/hosturi.h"
#include "virt/hypervisor.h"
#include "experiment/leftovers.h"
#include "scenario/keys.h"
#include "util/log.h"
#include "results/session.h"

#include <stdio.h>

void cmd_clean_usage(FILE *out)
{
    fprintf(out,
            "usage: vbed [-c URI] clean [--pool NAME] [--pool-dir DIR] [--images] [--foreign]\n"
            "                          [--session ID] [--dry-run]\n\n"
            "Removes what an earlier vbed of this machine that crashed or was killed left\n"
            "behind: domains and volumes named vbed-<session>-..., KVM probes, and host\n"
            "arms (their mariadbd, datadir and cgroup, next to the pool's directory), of\n"
            "sessions whose vbed no longer runs. A running vbed's things are left alone,\n"
            "and so are other machines' (a libvirt may serve several): a domain whose\n"
            "metadata names another machine, or a name whose session this machine never\n"
            "recorded (records: $VBED_SESSION_DIR, default /var/lib/vbed/sessions).\n");
}

const struct cli_option cmd_clean_options[] = {
    {"pool", 'p', "NAME", CLI_VALUE_TEXT, NULL,
     "the libvirt storage pool to clean (default: the scenario key pool's)"},
    {"pool-dir", 'd', "DIR", CLI_VALUE_DIR, NULL,
     "its directory, next to which host arms live (default: the scenario key pool_dir's)"},
    {"images", 'i', NULL, CLI_VALUE_NONE, NULL,
     "also remove the base images uploaded into the pool (uploaded again when needed) and, for "
     "this machine's libvirt, the image cache's saved ready guests and prepared tables (made "
     "again when needed), unless a session of this machine runs or another session's domain or "
     "volume remains"},
    {"foreign", 'f', NULL, CLI_VALUE_NONE, NULL,
     "also remove leftovers no session of this machine recorded (another machine's, or from an "
     "older vbed); never a running domain, nor the volumes of a session with a running domain"},
    {"session", 's', "ID", CLI_VALUE_TEXT, NULL,
     "only what the dead session ID (vbed run --id) left; every other session's things, and "
     "KVM probes, are left alone (not with --images)"},
    {"dry-run", 'n', NULL, CLI_VALUE_NONE, NULL, "list only"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

int cmd_clean(struct cli_ctx *ctx, int argc, char **argv)
{
    struct leftovers c = {0};
    struct leftovers_opts o = {.pool = key_find("pool")->def};
    const char *pool_dir = key_find("pool_dir")->def;
    struct cli_getopt g;
    cli_getopt_init(&g, cmd_clean_options, "");
    int opt;
    while ((opt = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (opt) {
        case 'p':
            o.pool = optarg;
            break;
        case 'd':
            pool_dir = optarg;
            break;
        case 'i':
            o.images = true;
            break;
        case 'f':
            o.foreign = true;
            break;
        case 'n':
            o.dry_run = true;
            break;
        case 's':
            o.session = optarg;
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
    if (o.session && !session_id_ok(o.session)) {
        log_error("--session '%s': use 1 to 12 lower-case letters or digits (vbed run --id).",
                  o.session);
        return EXIT_USAGE;
    }
    /* base images serve every session: they are not one session's to remove */
    if (o.session && o.images) {
        log_error("--session and --images do not go together: base images serve every session.");
        return EXIT_USAGE;
    }
    /* host arms first: they need no libvirt. On an ssh host through its
     * helper; a host without a shell transport has none (vbed refuses them) */
    struct hostside *hs = hostside_new(ctx->uri);
    if (!hs)
        return EXIT_USAGE;
    /* the image cache is this machine's: only a local libvirt's clean
     * touches it */
    o.derived = hostside_uri(hs)->transport == HT_LOCAL;
    if (hostside_uri(hs)->transport == HT_SSH)
        leftovers_clean_remote_host(hs, pool_dir, &o, &c);
    else if (hostside_uri(hs)->transport == HT_LOCAL)
        leftovers_clean_host(pool_dir, &o, &c);
    hostside_free(hs);
    struct hv *hv = hv_open(ctx->uri);
    if (!hv)
        return EXIT_ENV;
    leftovers_clean_libvirt(hv, &o, &c);
    hv_close(hv);
    /* a dead session's record goes once its leftovers are gone */
    if (!o.dry_run && c.failed == 0) {
        if (o.session)
            session_forget_if_dead(o.session);
        else
            session_forget_dead();
    }
    printf("clean: %s %d, %d failed", o.dry_run ? "would remove" : "removed", c.removed, c.failed);
    if (c.kept)
        printf("; left %d thing%s of running (or unknown) vbed sessions alone", c.kept,
               c.kept == 1 ? "" : "s");
    if (c.others)
        printf("; left %d thing%s of other sessions (or probes) alone (--session %s)", c.others,
               c.others == 1 ? "" : "s", o.session);
    if (c.foreign)
        printf("; left %d thing%s of other machines or unrecorded sessions alone%s", c.foreign,
               c.foreign == 1 ? "" : "s", o.foreign ? " (running)" : " (--foreign removes them)");
    printf("\n");
    return c.failed ? EXIT_FAILED : EXIT_OK;
}
