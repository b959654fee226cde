/* cmd_report.c: `vbed report RESULTS_DIR` and `vbed compare A B`: read
 * results directories, print their tables in a format, write summary.csv
 * and report.html (with gnuplot's plots). */
#include "cli/cli.h"
#include "report/compare.h"
#include "util/exitcode.h"
#include "report/html.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "report/plot.h"
#include "report/report.h"
#include "results/resultsread.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void cmd_report_usage(FILE *out)
{
    fprintf(out, "usage: vbed report [--format=FORMAT] [--no-html] [--explain] [-o DIR] RESULTS_DIR\n\n"
                 "Starts with the answer: per variant, how much each guest arm loses against\n"
                 "the host per guest, the parts that explain most of it, what each tuning wins\n"
                 "against the untuned guest, the predictions' verdicts and the one caveat that\n"
                 "matters most. Then it reads on: a results directory of `vbed run` (meta.json, samples.jsonl) and prints,\n"
                 "per variant, the TPS of every arm (mean, 95%% confidence interval, n, sd, CV)\n"
                 "and per guest, the ratios of mean TPS (each arm / the host arm, each later\n"
                 "guest arm / the first guest arm: per guest when the arms run different\n"
                 "numbers of guests, aggregate when equal), how each arm was measured (where\n"
                 "its data fits, warm-up, steady state, noise, CPU pinning), the figures that\n"
                 "explain them (compression ratio, buffer pool hit ratio, host page-cache\n"
                 "residency, latency p95), with guests as a variant axis the scaling of each\n"
                 "arm (consolidation efficiency), and notes on runs that drift, never became\n"
                 "steady, ran on a noisy machine, started their guests apart, failed or did\n"
                 "not run. A TCG run says that its figures are not comparable with KVM.\n\n"
                 "When the results hold per-layer counters, it shows where a transaction's\n"
                 "time goes: per arm the requests and cache hit ratios at each layer (InnoDB,\n"
                 "guest block, QEMU, host device) and the copies of the data; its time per\n"
                 "transaction split into CPU, compression CPU, read and write waits and the\n"
                 "rest; and each guest arm's gap to the host arm in points of loss, with a\n"
                 "residual the model does not explain, in sentences and a stacked bar per\n"
                 "variant (see docs/method.md, \"Where the time goes\").\n\n"
                 "A results directory is checked as it is read: a name that is not one (an\n"
                 "arm, a variant label) makes vbed refuse it (exit 2), naming the file and the\n"
                 "value; a sample with a label out of its set is skipped.\n\n"
                 "It writes summary.csv (one row per variant and arm), report.html (one\n"
                 "self-contained page) and the plots as *.svg (drawn by gnuplot) into the\n"
                 "results directory, or into DIR -- only into a directory that no user but\n"
                 "root can change (owned by root, writable by no one else): a results\n"
                 "directory of another user's gets its report on stdout and no file (exit\n"
                 "1; name a directory of root's with -o DIR). Files are written under a\n"
                 "new temporary name and renamed into place, never through a link.\n"
                 "Every file of a results directory is read once, never through a link,\n"
                 "only if it is a regular file, and within a size limit.\n\n"
                 "A line of samples.jsonl that cannot be read (an interrupted run may cut\n"
                 "the last one short) is reported as FILE:LINE and skipped.\n"
                 "Exit code 2 for a bad command line or an unreadable results directory,\n"
                 "1 if a file could not be written, 3 if gnuplot is missing.\n");
}

void cmd_compare_usage(FILE *out)
{
    fprintf(out, "usage: vbed compare [--format=FORMAT] RESULTS_A RESULTS_B\n\n"
                 "Sets two results directories side by side: variants matched by label, arms\n"
                 "by name. For each, the mean TPS of A and of B, the difference in %% of A,\n"
                 "Welch's t-test on the TPS of the repeats (two-sided p) and a verdict:\n"
                 "significant (p < 0.05), not significant, or too few repeats (fewer than 2\n"
                 "on a side). With per-layer counters, how each part of a guest arm's gap to\n"
                 "the host arm moved from A to B, in points of loss.\n\n"
                 "Exit code 2 for a bad command line or an unreadable results directory.\n");
}

const struct cli_option cmd_report_options[] = {
    {"format", 'f', "FORMAT", CLI_VALUE_CHOICES, "table csv json markdown",
     "table (default), csv (= summary.csv), json, markdown"},
    {"no-html", CLI_LONG_ONLY('N'), NULL, CLI_VALUE_NONE, NULL,
     "write summary.csv only: no plots, no report.html"},
    {"explain", CLI_LONG_ONLY('E'), NULL, CLI_VALUE_NONE, NULL,
     "print the definitions of the figures and each prediction's arithmetic (docs/method.md)"},
    {"output", 'o', "DIR", CLI_VALUE_DIR, NULL,
     "write summary.csv, report.html and the plots into DIR (made if missing)"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

const struct cli_option cmd_compare_options[] = {
    {"format", 'f', "FORMAT", CLI_VALUE_CHOICES, "table csv json markdown",
     "table (default), csv, json, markdown"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

/* Options of report (all) and compare (--format only); returns the index
 * of the first operand or -1 (reported). */
static int parse_options(int argc, char **argv, const char *cmd, bool report,
                         enum report_format *format, bool *no_html, bool *explain,
                         const char **out_dir)
{
    struct cli_getopt g;
    cli_getopt_init(&g, report ? cmd_report_options : cmd_compare_options, "");
    int c;
    while ((c = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (c) {
        case 'f':
            if (report_format_parse(optarg, format) < 0) {
                log_error("--format: '%s' is not one of table, csv, json, markdown.", optarg);
                goto usage;
            }
            break;
        case CLI_LONG_ONLY('N'):
            *no_html = true;
            break;
        case CLI_LONG_ONLY('E'):
            *explain = true;
            break;
        case 'o':
            *out_dir = optarg;
            break;
        default:
            goto usage;
        }
    }
    return optind;
usage:
    fprintf(stderr, "Try 'vbed %s --help'.\n", cmd);
    return -1;
}

/* The directory the report's files go into, opened: -o DIR (made if
 * missing) or the results directory itself; -1 if it is not one root
 * alone can change (said, with what to do) or cannot be opened. */
static int output_dir(const char *dir, bool named)
{
    if (named && paths_mkdirs(dir, 0755) < 0)
        return -1;
    bool trusted;
    char why[128];
    int fd = outfile_open_dir(dir, &trusted, why, sizeof(why));
    if (fd >= 0 && !trusted) {
        log_error("vbed writes no file into '%s': %s, and vbed runs as root. The report is on "
                  "stdout above; for summary.csv, report.html and the plots, name a directory "
                  "of root's with -o DIR.",
                  dir, why);
        close(fd);
        return -1;
    }
    return fd;
}

int cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    enum report_format format = REPORT_TABLE;
    bool no_html = false, explain = false;
    const char *out_dir = NULL;
    int first = parse_options(argc, argv, "report", true, &format, &no_html, &explain, &out_dir);
    if (first < 0)
        return EXIT_USAGE;
    if (argc - first != 1) {
        log_error("report takes one results directory (try 'vbed report --help').");
        return EXIT_USAGE;
    }
    const char *dir = argv[first];
    struct results_data *rd = results_read(dir);
    if (!rd)
        return EXIT_USAGE;
    bool named = out_dir != NULL;
    if (!out_dir)
        out_dir = dir;
    struct report *r = report_build(rd);
    r->explain = explain;
    report_print(r, format, stdout);
    fflush(stdout);

    int rc = EXIT_OK;
    int fd = output_dir(out_dir, named);
    if (fd < 0 || report_write_summary_to(r, fd, out_dir) < 0)
        rc = EXIT_FAILED;
    if (!no_html && rc == EXIT_OK) {
        struct plot_set plots = {0};
        int drawn = plot_draw(r, &plots);
        const char *why = drawn == -2 ? "gnuplot is not installed (install gnuplot-nox)."
                          : drawn < 0 ? "gnuplot failed (see vbed's messages)."
                                      : "the results hold no TPS figures yet.";
        if (plot_write(&plots, fd, out_dir) < 0 ||
            html_write_report(r, &plots, fd, out_dir, why) < 0)
            rc = EXIT_FAILED;
        else if (drawn == -2)
            rc = EXIT_ENV;
        else if (drawn < 0)
            rc = EXIT_FAILED;
        else
            log_info("wrote %s/report.html and %zu plot%s", out_dir, plots.n,
                     plots.n == 1 ? "" : "s");
        plot_set_clear(&plots);
    }
    if (fd >= 0)
        close(fd);
    report_free(r);
    results_data_free(rd);
    return rc;
}

int cmd_compare(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    enum report_format format = REPORT_TABLE;
    bool no_html = false, explain = false;
    const char *out_dir = NULL;
    int first = parse_options(argc, argv, "compare", false, &format, &no_html, &explain, &out_dir);
    if (first < 0)
        return EXIT_USAGE;
    if (argc - first != 2) {
        log_error("compare takes two results directories (try 'vbed compare --help').");
        return EXIT_USAGE;
    }
    int rc = EXIT_USAGE;
    struct results_data *a = results_read(argv[first]);
    struct results_data *b = a ? results_read(argv[first + 1]) : NULL;
    struct report *ra = NULL, *rb = NULL;
    struct comparison *c = NULL;
    if (!a || !b)
        goto cleanup;
    ra = report_build(a);
    rb = report_build(b);
    c = compare_build(ra, rb);
    compare_print(c, format, stdout);
    rc = EXIT_OK;
cleanup:
    compare_free(c);
    report_free(ra);
    report_free(rb);
    results_data_free(a);
    results_data_free(b);
    return rc;
}
