/* cmd_help.c: `vbed help [COMMAND|TOPIC]`: a command's help, or a topic:
 * the scenario keys, exit codes, environment, files, and the man page and
 * bash completion generated from the same tables (help_man.c,
 * help_completion.c). */
#include "cli/cli.h"
#include "util/exitcode.h"
#include "scenario/keys.h"
#include "util/log.h"

#include <string.h>

static int topic_keys(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    if (argc > 2 && strcmp(argv[2], "--markdown") == 0)
        keys_print_markdown(stdout);
    else
        keys_print_help(stdout);
    return EXIT_OK;
}

static int topic_exit_codes(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx, (void)argc, (void)argv;
    cli_print_exit_codes(stdout);
    return EXIT_OK;
}

static int topic_environment(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx, (void)argc, (void)argv;
    cli_print_docs(stdout, "Environment", cli_environment);
    return EXIT_OK;
}

static int topic_files(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx, (void)argc, (void)argv;
    cli_print_docs(stdout, "Files", cli_files);
    return EXIT_OK;
}

static int topic_man(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    help_man_print(stdout, ctx);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILED;
}

static int topic_completion(const struct cli_ctx *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    help_completion_print(stdout, ctx);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILED;
}

const struct cli_help_topic cmd_help_topics[] = {
    {"keys", "[--markdown]", "every scenario key (--markdown: docs/keys.md's table)",
     topic_keys},
    {"exit-codes", "", "vbed's exit codes", topic_exit_codes},
    {"environment", "", "the environment variables vbed reads", topic_environment},
    {"files", "", "the files and directories vbed uses", topic_files},
    {"man", "", "the vbed(1) man page, in roff (make writes it to build/vbed.1)", topic_man},
    {"bash-completion", "", "vbed's bash completion (make writes it to build/vbed.bash-completion)",
     topic_completion},
    {NULL, NULL, NULL, NULL},
};

void cmd_help_usage(FILE *out)
{
    fprintf(out, "usage: vbed help [COMMAND | TOPIC]\n\n"
                 "Without an argument: the list of commands. With a command: its help. Topics:\n");
    for (const struct cli_help_topic *t = cmd_help_topics; t->name; t++) {
        char name[48];
        snprintf(name, sizeof(name), "%s%s%s", t->name, *t->args ? " " : "", t->args);
        fprintf(out, "  %-24s %s\n", name, t->summary);
    }
}

int cmd_help(struct cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) {
        cli_print_usage(stdout, ctx->commands);
        return EXIT_OK;
    }
    for (const struct cli_help_topic *t = ctx->topics; t->name; t++)
        if (strcmp(argv[1], t->name) == 0)
            return t->show(ctx, argc, argv);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        cli_print_command_help(stdout, cli_find(ctx->commands, "help"));
        return EXIT_OK;
    }
    const struct cmd_entry *cmd = cli_find(ctx->commands, argv[1]);
    if (!cmd) {
        log_error("No help on '%s' (try: vbed help, vbed help keys, vbed help exit-codes).", argv[1]);
        return EXIT_USAGE;
    }
    cli_print_command_help(stdout, cmd);
    return EXIT_OK;
}
