/* cmd_stubs.c: commands whose issues have not landed yet say so plainly. */
#include "cli.h"
#include "exitcode.h"
#include "log.h"

void cmd_report_usage(FILE *out) { fprintf(out, "usage: vbed report RESULTS_DIR\n"); }
void cmd_compare_usage(FILE *out) { fprintf(out, "usage: vbed compare RESULTS_A RESULTS_B\n"); }

static int not_yet(const char *what, int issue)
{
    log_error("'vbed %s' is not implemented yet (issue %d).", what, issue);
    return EXIT_FAILED;
}

int cmd_report(struct cli_ctx *c, int argc, char **argv) { (void)c; (void)argc; (void)argv; return not_yet("report", 6); }
int cmd_compare(struct cli_ctx *c, int argc, char **argv) { (void)c; (void)argc; (void)argv; return not_yet("compare", 6); }
