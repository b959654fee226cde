/* cli_docs.h: what vbed's help says about its surroundings, declared once:
 * its exit codes, the environment variables it reads and the files it
 * uses. `vbed --help`, `vbed help exit-codes|environment|files` and the man
 * page (help_man.c) print these tables; tests/cli/help-docs.sh checks that
 * every getenv() of the source is in the environment table. */
#ifndef VBED_CLI_DOCS_H
#define VBED_CLI_DOCS_H

#include <stdio.h>

struct cli_exit_code {
    int code; /* -1 ends the table */
    const char *meaning;
};

/* An environment variable or a file: its name and what it is for. */
struct cli_doc {
    const char *name; /* NULL ends a table */
    const char *help;
};

extern const struct cli_exit_code cli_exit_codes[];
extern const struct cli_doc cli_environment[];
extern const struct cli_doc cli_files[];

/* "Exit codes:" and one line per code. */
void cli_print_exit_codes(FILE *out);
/* "Environment:" / "Files:" and one entry per item, its help wrapped. */
void cli_print_docs(FILE *out, const char *title, const struct cli_doc *docs);

#endif
