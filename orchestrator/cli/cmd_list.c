/* cmd_list.c: `vbed list [--format=F] [--uris] [DIR...]`: past runs at a
 * glance, one line per results directory, newest first (runlist.h). */
#include "cli/cli.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "report/runlist.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const struct cli_option cmd_list_options[] = {
    {"format", 'f', "FORMAT", CLI_VALUE_CHOICES, "table csv json markdown",
     "table (default; one line per directory), csv (one row per variant and arm), json, "
     "markdown"},
    {"uris", CLI_LONG_ONLY('U'), NULL, CLI_VALUE_NONE, NULL,
     "print only the libvirt URIs the directories' meta.json name, one a line (for the shell "
     "completion of -c)"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

void cmd_list_usage(FILE *out)
{
    fprintf(out,
            "usage: vbed list [--format=FORMAT] [DIR...]\n"
            "       vbed list --uris [DIR...]\n\n"
            "Lists past runs, newest first: one line per results directory with when it\n"
            "started (UTC), its scenario, its state, the accelerator (kvm, tcg, or none for\n"
            "a host arm alone), the number of variants, the noise verdict (quiet, noisy with\n"
            "the runs beyond a limit, n/a when not recorded) and each arm's headline figure\n"
            "with its unit (tx/s or MB/s): the mean over its repeats as vbed report shows\n"
            "it, as a range when it differs between variants. A DIR is a results directory\n"
            "or a folder of them (default: results).\n\n"
            "The state is meta.json's status: complete, failed (no arm has a figure),\n"
            "partial (failed, but some arms have figures), interrupted, or running (vbed\n"
            "still runs, or was killed); unreadable when the directory is refused as\n"
            "vbed report would refuse it (the reason is printed). Names are read as\n"
            "untrusted input: control characters are shown escaped and long names cut.\n");
}

int cmd_list(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    enum report_format format = REPORT_TABLE;
    bool uris_only = false;
    struct cli_getopt g;
    cli_getopt_init(&g, cmd_list_options, "");
    int c;
    while ((c = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (c) {
        case 'f':
            if (report_format_parse(optarg, &format) < 0) {
                log_error("--format: '%s' is not one of table, csv, json, markdown.", optarg);
                return EXIT_USAGE;
            }
            break;
        case CLI_LONG_ONLY('U'):
            uris_only = true;
            break;
        default:
            fprintf(stderr, "Try 'vbed list --help'.\n");
            return EXIT_USAGE;
        }
    }
    static char default_dir[] = "results";
    char *fallback[] = {default_dir};
    char **dirs = optind < argc ? argv + optind : fallback;
    int n = optind < argc ? argc - optind : 1;
    bool defaulted = optind >= argc;
    struct stat st;
    /* no results/ here yet: an empty list, not an error */
    if (defaulted && stat(default_dir, &st) < 0 && errno == ENOENT)
        n = 0;

    int rc = EXIT_OK;
    if (uris_only) {
        char **uris = NULL;
        size_t nu = 0;
        for (int i = 0; i < n; i++)
            if (runlist_scan_uris(dirs[i], &uris, &nu) < 0)
                rc = EXIT_USAGE;
        for (size_t i = 0; i < nu; i++) {
            printf("%s\n", uris[i]);
            free(uris[i]);
        }
        free(uris);
        return rc;
    }
    struct runlist l = {0};
    for (int i = 0; i < n; i++)
        if (runlist_scan(&l, dirs[i]) < 0)
            rc = EXIT_USAGE;
    runlist_sort(&l);
    if (l.n == 0 && (format == REPORT_TABLE || format == REPORT_MARKDOWN)) {
        if (rc == EXIT_OK)
            log_info("No results directories (vbed run writes them under results/).");
    } else {
        runlist_print(&l, format, stdout);
    }
    runlist_free(&l);
    if (fflush(stdout) != 0)
        rc = EXIT_FAILED;
    return rc;
}
