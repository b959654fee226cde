/* cli_options.h: a command's options, declared once.
 *
 * Each command (cmd_*.c) lists its options in a table of struct cli_option
 * (long name, short letter, the value's name, what the value is, help),
 * fio-style; the command table (cli.h) points at it. getopt_long's tables,
 * the option lines of `vbed COMMAND --help`, the man page (help_man.c) and
 * the bash completion (help_completion.c) all come from that one table, so
 * an option cannot be parsed and undocumented, or documented and unknown. */
#ifndef VBED_CLI_OPTIONS_H
#define VBED_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* What a value (of an option, or a command's operand) is: what the shell
 * completion offers for it. */
enum cli_value {
    CLI_VALUE_NONE,     /* no value (a flag), or no operand */
    CLI_VALUE_TEXT,     /* free text: nothing to offer */
    CLI_VALUE_FILE,     /* any file */
    CLI_VALUE_DIR,      /* a directory */
    CLI_VALUE_SCENARIO, /* a scenario file (*.ini) */
    CLI_VALUE_RESULTS,  /* a results directory (or a folder of them) */
    CLI_VALUE_IMAGE,    /* a cached image (`vbed image list`) */
    CLI_VALUE_URI,      /* a libvirt URI (those seen in results directories) */
    CLI_VALUE_CHOICES,  /* one of the words in .choices */
    CLI_VALUE_HELP,     /* a help topic: a command or cmd_help.c's topics */
};

/* A short option letter is its key; an option without one has a key above
 * 255 (CLI_LONG_ONLY('X')), which getopt_long returns for it. */
#define CLI_LONG_ONLY(c) (0x100 + (c))

struct cli_option {
    const char *name;      /* long name, without "--"; NULL ends a table */
    int key;               /* short letter, or CLI_LONG_ONLY(...) */
    const char *arg;       /* the value's name ("DIR"), NULL for a flag */
    enum cli_value value;  /* what the value is (CLI_VALUE_NONE for a flag) */
    const char *choices;   /* CLI_VALUE_CHOICES: the words, space-separated */
    const char *help;      /* one or more sentences; wrapped when printed */
};

/* A command's first operand when it names a subcommand (`vbed image rm`),
 * and what that subcommand's operands are. */
struct cli_word {
    const char *name;      /* NULL ends a table */
    enum cli_value operand;
};

#define CLI_OPTIONS_MAX 32

/* getopt_long's tables, made from a cli_option table. */
struct cli_getopt {
    struct option longopts[CLI_OPTIONS_MAX + 1];
    char shortopts[2 * CLI_OPTIONS_MAX + 2];
};

/* Fill g from opts; prefix goes first in the short options ("+" to stop
 * at the first operand, "" otherwise). Aborts on a table longer than
 * CLI_OPTIONS_MAX (a programming error, caught by every test). */
void cli_getopt_init(struct cli_getopt *g, const struct cli_option *opts, const char *prefix);

/* getopt_long over g: the option's key, '?' for a bad one, -1 at the end. */
int cli_getopt_next(struct cli_getopt *g, int argc, char **argv);

/* "-f, --format=FORMAT", "    --xml-dir=DIR" into buf. */
const char *cli_option_label(const struct cli_option *o, char *buf, size_t len);

/* The option lines of --help: title ("Options"), one entry per option (help
 * wrapped), then -h, --help unless the table has it. A NULL table: -h only. */
void cli_options_print(FILE *out, const char *title, const struct cli_option *opts);

/* How many options opts holds (NULL: none). */
int cli_options_count(const struct cli_option *opts);

/* The image cache (paths_cache_dir: --cache-dir, $VBED_CACHE_DIR), made if
 * missing, can be changed by root alone, as the host arm's base must
 * (safefile_trusted_dir): a cache another user can write would hand root
 * images, saved guests and tables of theirs. 0, or -1 reported. */
int cli_check_cache_dir(void);

#endif
