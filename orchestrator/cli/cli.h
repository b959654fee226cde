/* cli.h: the cli layer -- vbed's command line: the command table (main.c),
 * each command in its own cmd_*.c file parsing its own options (declared
 * once, in a table: cli_options.h) and returning an exit code
 * (util/exitcode.h); the help, the man page and the bash completion made
 * from those tables (cmd_help.c, usage.c, help_man.c, help_completion.c,
 * cli_docs.h); the helper `vbed host` that runs on a hypervisor host
 * (cmd_host.c, cmd_host_arm.c). It may call every layer below: experiment/,
 * workloads/, probes/, targets/, virt/, image/, hostside/, report/,
 * model/, results/, scenario/ and util/.
 *
 * The command table reaches the help through cli_ctx (help lists the
 * commands and is one of them): no file but main.c names it. */
#ifndef VBED_CLI_H
#define VBED_CLI_H

#include "cli/cli_docs.h"
#include "cli/cli_options.h"

#include <stdio.h>

struct cmd_entry;
struct cli_help_topic;

struct cli_ctx {
    const char *uri; /* -c/--connect, else $LIBVIRT_DEFAULT_URI, else NULL */
    const struct cmd_entry *commands;    /* the command table */
    const struct cli_help_topic *topics; /* help's topics besides the commands */
};

struct cmd_entry {
    const char *name;
    const char *args;    /* "[options] SCENARIO" */
    const char *summary; /* one line */
    int (*exec)(struct cli_ctx *ctx, int argc, char **argv); /* argv[0] is the name */
    void (*usage)(FILE *out); /* synopsis and prose; the options come from .options */
    const struct cli_option *options; /* NULL: none */
    const struct cli_word *words;     /* its subcommands (first operand), NULL: none */
    enum cli_value operand;           /* what its operands are (without subcommands) */
};

/* The entry of commands named name; NULL if none. */
const struct cmd_entry *cli_find(const struct cmd_entry *commands, const char *name);

/* The option tables of the commands (in their cmd_*.c) and vbed's own. */
extern const struct cli_option cli_global_options[], cmd_run_options[], cmd_image_options[],
    cmd_report_options[], cmd_compare_options[], cmd_clean_options[], cmd_list_options[];
extern const struct cli_word cmd_image_words[], cmd_host_words[];

/* `vbed help TOPIC`: the topics besides the commands (cmd_help.c). */
struct cli_help_topic {
    const char *name, *args, *summary; /* NULL name ends the table */
    int (*show)(const struct cli_ctx *ctx, int argc, char **argv); /* argv[1] is the topic */
};
extern const struct cli_help_topic cmd_help_topics[];

/* The man page, in roff (help_man.c), and the bash completion script
 * (help_completion.c). */
void help_man_print(FILE *out, const struct cli_ctx *ctx);
void help_completion_print(FILE *out, const struct cli_ctx *ctx);

int cmd_run(struct cli_ctx *ctx, int argc, char **argv);
void cmd_run_usage(FILE *out);
int cmd_image(struct cli_ctx *ctx, int argc, char **argv);
void cmd_image_usage(FILE *out);
int cmd_report(struct cli_ctx *ctx, int argc, char **argv);
void cmd_report_usage(FILE *out);
int cmd_compare(struct cli_ctx *ctx, int argc, char **argv);
void cmd_compare_usage(FILE *out);
int cmd_doctor(struct cli_ctx *ctx, int argc, char **argv);
void cmd_doctor_usage(FILE *out);
int cmd_clean(struct cli_ctx *ctx, int argc, char **argv);
void cmd_clean_usage(FILE *out);
int cmd_host(struct cli_ctx *ctx, int argc, char **argv);
void cmd_host_usage(FILE *out);
int cmd_list(struct cli_ctx *ctx, int argc, char **argv);
void cmd_list_usage(FILE *out);
int cmd_help(struct cli_ctx *ctx, int argc, char **argv);
void cmd_help_usage(FILE *out);

/* `vbed --help` */
void cli_print_usage(FILE *out, const struct cmd_entry *commands);
/* `vbed COMMAND --help`: its usage, then its options from its table. */
void cli_print_command_help(FILE *out, const struct cmd_entry *cmd);
/* What vbed is, in one sentence (--help, the man page's NAME). */
extern const char cli_description[];

/* True if argv holds -h or --help before any "--". */
int cli_wants_help(int argc, char **argv);

#endif
