/* main.c: vbed's entry point: global options, then one command from the
 * command table (cli.h), virsh/git style: vbed [-c URI] COMMAND [options]. */
#include "cli/cli.h"
#include "util/exitcode.h"
#include "virt/hypervisor.h"
#include "util/log.h"
#include "util/paths.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#ifndef VBED_VERSION
#define VBED_VERSION "0.1"
#endif

const struct cmd_entry cmd_table[] = {
    {"run", "[options] SCENARIO", "run a scenario: guests, host arm, sysbench, results", cmd_run,
     cmd_run_usage},
    {"image", "build|list|rm|path|verify|push [options]", "build and manage cached guest images", cmd_image,
     cmd_image_usage},
    {"report", "[options] RESULTS_DIR", "tables, plots and report.html of a results directory",
     cmd_report, cmd_report_usage},
    {"compare", "[options] RESULTS_A RESULTS_B", "two results directories side by side",
     cmd_compare, cmd_compare_usage},
    {"doctor", "[options]", "what this host offers: libvirt, kvm or tcg, packages, disk",
     cmd_doctor, cmd_doctor_usage},
    {"clean", "[options]", "remove domains, disks and processes left by a crashed vbed", cmd_clean,
     cmd_clean_usage},
    {"host", "version|drop-caches|meminfo|resident|diskstats|df|arm-... ARGS",
     "the helper vbed runs on a hypervisor host over ssh (JSON out)", cmd_host, cmd_host_usage},
    {"help", "[COMMAND|keys|exit-codes]", "help on a command, the scenario keys or exit codes",
     cmd_help, cmd_help_usage},
    {NULL, NULL, NULL, NULL, NULL},
};

const struct cmd_entry *cmd_find(const char *name)
{
    for (const struct cmd_entry *c = cmd_table; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

void cli_print_exit_codes(FILE *out)
{
    fprintf(out, "Exit codes:\n"
                 "  0    everything asked for was done\n"
                 "  1    a run, build or check failed (results measured so far are kept)\n"
                 "  2    bad command line or scenario; nothing was started\n"
                 "  3    the host lacks something: libvirt, an image, a package, permission\n"
                 "  129  its terminal was closed: SIGHUP (everything started was cleaned up)\n"
                 "  130  interrupted by SIGINT (everything started was cleaned up)\n"
                 "  143  terminated by SIGTERM (everything started was cleaned up)\n");
}

void cli_print_usage(FILE *out)
{
    fprintf(out, "usage: vbed [-c URI] [-v|-q] COMMAND [options]\n\n"
                 "vbed measures MariaDB (sysbench OLTP) in KVM/QEMU guests against the bare host.\n\n"
                 "Commands:\n");
    for (const struct cmd_entry *c = cmd_table; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fprintf(out, "\nGlobal options:\n"
                 "  -c, --connect URI   libvirt URI (default: $LIBVIRT_DEFAULT_URI, else libvirt's default)\n"
                 "      --cache-dir DIR image cache (default: $VBED_CACHE_DIR or /var/cache/vbed)\n"
                 "  -v, --verbose       more detail\n"
                 "  -q, --quiet         errors and warnings only\n"
                 "  -V, --version       print the version\n"
                 "  -h, --help          this help; 'vbed COMMAND --help' for a command\n\n");
    cli_print_exit_codes(out);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"connect", required_argument, NULL, 'c'}, {"cache-dir", required_argument, NULL, 'C'},
        {"verbose", no_argument, NULL, 'v'},       {"quiet", no_argument, NULL, 'q'},
        {"version", no_argument, NULL, 'V'},       {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct cli_ctx ctx = {.uri = NULL};
    int c;
    /* '+': stop at the command name; its options are its own */
    while ((c = getopt_long(argc, argv, "+c:vqVh", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            ctx.uri = optarg;
            break;
        case 'C':
            paths_set_cache_dir(optarg);
            break;
        case 'v':
            log_set_level(LOG_VERBOSE);
            break;
        case 'q':
            log_set_level(LOG_QUIET);
            break;
        case 'V':
            printf("vbed %s\n", VBED_VERSION);
            return EXIT_OK;
        case 'h':
            cli_print_usage(stdout);
            return EXIT_OK;
        default:
            fprintf(stderr, "Try 'vbed --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        cli_print_usage(stderr);
        return EXIT_USAGE;
    }
    if (!ctx.uri) {
        const char *env = getenv("LIBVIRT_DEFAULT_URI");
        ctx.uri = env && *env ? env : NULL;
    }

    const struct cmd_entry *cmd = cmd_find(argv[optind]);
    if (!cmd) {
        log_error("'%s' is not a vbed command (commands: run, image, report, compare, doctor, "
                  "clean, host, help).",
                  argv[optind]);
        return EXIT_USAGE;
    }
    int sub_argc = argc - optind;
    char **sub_argv = argv + optind;
    if (cli_wants_help(sub_argc, sub_argv) && cmd->exec != cmd_help) {
        cmd->usage(stdout);
        return EXIT_OK;
    }
    hv_init();
    optind = 0; /* let the command's getopt start afresh (0 also resets GNU state) */
    return cmd->exec(&ctx, sub_argc, sub_argv);
}
