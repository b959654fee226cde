/* cli.h: the command table. Each command lives in its own cmd_*.c file,
 * parses its own options and returns an exit code (exitcode.h). */
#ifndef VBED_CLI_H
#define VBED_CLI_H

#include "cli_docs.h"
#include "cli_options.h"

#include <stdio.h>

struct cli_ctx {
    const char *uri; /* -c/--connect, else $LIBVIRT_DEFAULT_URI, else NULL */
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

extern const struct cmd_entry cmd_table[];
const struct cmd_entry *cmd_find(const char *name);

/* The option tables of the commands (in their cmd_*.c) and vbed's own. */
extern const struct cli_option cli_global_options[], cmd_run_options[], cmd_image_options[],
    cmd_report_options[], cmd_compare_options[], cmd_clean_options[], cmd_list_options[];
extern const struct cli_word cmd_image_words[], cmd_host_words[];

/* `vbed help TOPIC`: the topics besides the commands (cmd_help.c). */
struct cli_help_topic {
    const char *name, *args, *summary; /* NULL name ends the table */
    int (*show)(int argc, char **argv);  /* argv[1] is the topic */
};
extern const struct cli_help_topic cmd_help_topics[];

/* The man page, in roff (help_man.c), and the bash completion script
 * (help_completion.c). */
void help_man_print(FILE *out);
void help_completion_print(FILE *out);

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
void cli_print_usage(FILE *out);
/* `vbed COMMAND --help`: its usage, then its options from its table. */
void cli_print_command_help(FILE *out, const struct cmd_entry *cmd);
/* What vbed is, in one sentence (--help, the man page's NAME). */
extern const char cli_description[];

/* True if argv holds -h or --help before any "--". */
int cli_wants_help(int argc, char **argv);

#endif
