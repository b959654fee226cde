/* main.c: vbed's entry point: global options, then one command from the
 * command table (cli.h), virsh/git style: vbed [-c URI] COMMAND [options]. */
#include "cli/cli.h"
#include "util/exitcode.h"
#include "virt/hypervisor.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/version.h"

#include <stdlib.h>
#include <string.h>

static const struct cmd_entry cmd_table[] = {
    {"run", "[options] SCENARIO", "run a scenario: guests, host arm, sysbench, results", cmd_run,
     cmd_run_usage, cmd_run_options, NULL, CLI_VALUE_SCENARIO},
    {"image", "build|list|rm|path|verify|push [options]", "build and manage cached guest images", cmd_image,
     cmd_image_usage, cmd_image_options, cmd_image_words, CLI_VALUE_NONE},
    {"report", "[options] RESULTS_DIR", "tables, plots and report.html of a results directory",
     cmd_report, cmd_report_usage, cmd_report_options, NULL, CLI_VALUE_RESULTS},
    {"compare", "[options] RESULTS_A RESULTS_B", "two results directories side by side",
     cmd_compare, cmd_compare_usage, cmd_compare_options, NULL, CLI_VALUE_RESULTS},
    {"list", "[options] [DIR...]", "past runs at a glance: one line per results directory, newest first",
     cmd_list, cmd_list_usage, cmd_list_options, NULL, CLI_VALUE_RESULTS},
    {"doctor", "[options]", "what this host offers: libvirt, kvm or tcg, packages, disk",
     cmd_doctor, cmd_doctor_usage, NULL, NULL, CLI_VALUE_NONE},
    {"clean", "[options]", "remove domains, disks and processes left by a crashed vbed", cmd_clean,
     cmd_clean_usage, cmd_clean_options, NULL, CLI_VALUE_NONE},
    {"host", "version|drop-caches|meminfo|resident|diskstats|df|arm-... ARGS",
     "the helper vbed runs on a hypervisor host over ssh (JSON out)", cmd_host, cmd_host_usage,
     NULL, cmd_host_words, CLI_VALUE_NONE},
    {"help", "[COMMAND|TOPIC]", "help on a command, the scenario keys, exit codes, environment, files",
     cmd_help, cmd_help_usage, NULL, NULL, CLI_VALUE_HELP},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, CLI_VALUE_NONE},
};

int main(int argc, char **argv)
{
    struct cli_ctx ctx = {.uri = NULL, .commands = cmd_table, .topics = cmd_help_topics};
    struct cli_getopt g;
    /* '+': stop at the command name; its options are its own */
    cli_getopt_init(&g, cli_global_options, "+");
    int c;
    while ((c = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (c) {
        case 'c':
            ctx.uri = optarg;
            break;
        case CLI_LONG_ONLY('C'):
            paths_set_cache_dir(optarg);
            break;
        case 'v':
            log_set_level(LOG_VERBOSE);
            break;
        case 'q':
            log_set_level(LOG_QUIET);
            break;
        case 'V':
            printf("vbed %s\n", vbed_version());
            return EXIT_OK;
        case 'h':
            cli_print_usage(stdout, cmd_table);
            return EXIT_OK;
        default:
            fprintf(stderr, "Try 'vbed --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        cli_print_usage(stderr, cmd_table);
        return EXIT_USAGE;
    }
    if (!ctx.uri) {
        const char *env = getenv("LIBVIRT_DEFAULT_URI");
        ctx.uri = env && *env ? env : NULL;
    }

    const struct cmd_entry *cmd = cli_find(cmd_table, argv[optind]);
    if (!cmd) {
        char names[256] = "";
        size_t used = 0;
        for (const struct cmd_entry *c = cmd_table; c->name && used < sizeof(names); c++)
            used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
                                     c == cmd_table ? "" : ", ", c->name);
        log_error("'%s' is not a vbed command (commands: %s).", argv[optind], names);
        return EXIT_USAGE;
    }
    int sub_argc = argc - optind;
    char **sub_argv = argv + optind;
    if (cli_wants_help(sub_argc, sub_argv) && cmd->exec != cmd_help) {
        cli_print_command_help(stdout, cmd);
        return EXIT_OK;
    }
    hv_init();
    optind = 0; /* let the command's getopt start afresh (0 also resets GNU state) */
    return cmd->exec(&ctx, sub_argc, sub_argv);
}
