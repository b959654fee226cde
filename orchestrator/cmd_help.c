/* cmd_help.c: `vbed help [COMMAND|keys|exit-codes]`. */
#include "cli.h"
#include "exitcode.h"
#include "keys.h"
#include "log.h"

#include <string.h>

void cmd_help_usage(FILE *out)
{
    fprintf(out, "usage: vbed help [COMMAND | keys [--markdown] | exit-codes]\n\n"
                 "Without an argument: the list of commands. 'keys' lists every scenario key\n"
                 "with its values, default and meaning (--markdown: the README's table).\n");
}

int cmd_help(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    if (argc < 2) {
        cli_print_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "keys") == 0) {
        if (argc > 2 && strcmp(argv[2], "--markdown") == 0)
            keys_print_markdown(stdout);
        else
            keys_print_help(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "exit-codes") == 0) {
        cli_print_exit_codes(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        cmd_help_usage(stdout);
        return EXIT_OK;
    }
    const struct cmd_entry *cmd = cmd_find(argv[1]);
    if (!cmd) {
        log_error("No help on '%s' (try: vbed help, vbed help keys, vbed help exit-codes).", argv[1]);
        return EXIT_USAGE;
    }
    cli_print_command_help(stdout, cmd);
    return EXIT_OK;
}
