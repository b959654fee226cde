/* usage.c: vbed's own options and usage, a command's help, and finding a
 * command in the table (see cli.h). */
#include "cli/cli.h"

#include <string.h>

const char cli_description[] =
    "vbed measures MariaDB (sysbench OLTP) in KVM/QEMU guests against the bare host.";

const struct cli_option cli_global_options[] = {
    {"connect", 'c', "URI", CLI_VALUE_URI, NULL,
     "libvirt URI (default: $LIBVIRT_DEFAULT_URI, else libvirt's default)"},
    {"cache-dir", CLI_LONG_ONLY('C'), "DIR", CLI_VALUE_DIR, NULL,
     "image cache (default: $VBED_CACHE_DIR or /var/cache/vbed)"},
    {"verbose", 'v', NULL, CLI_VALUE_NONE, NULL, "more detail"},
    {"quiet", 'q', NULL, CLI_VALUE_NONE, NULL, "errors and warnings only"},
    {"version", 'V', NULL, CLI_VALUE_NONE, NULL, "print the version"},
    {"help", 'h', NULL, CLI_VALUE_NONE, NULL, "this help; 'vbed COMMAND --help' for a command"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

const struct cmd_entry *cli_find(const struct cmd_entry *commands, const char *name)
{
    for (const struct cmd_entry *c = commands; c->name; c++)
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

void cli_print_usage(FILE *out, const struct cmd_entry *commands)
{
    fprintf(out, "usage: vbed [-c URI] [-v|-q] COMMAND [options]\n\n%s\n\nCommands:\n",
            cli_description);
    for (const struct cmd_entry *c = commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    cli_options_print(out, "Global options", cli_global_options);
    fputc('\n', out);
    cli_print_exit_codes(out);
}

void cli_print_command_help(FILE *out, const struct cmd_entry *cmd)
{
    cmd->usage(out);
    cli_options_print(out, "Options", cmd->options);
}
