/* test_report.c: `vbed report` on the results-directory fixtures under
 * tests/data/results (see make-fixtures.py there): golden files for the
 * table, csv (= summary.csv), json and markdown outputs, the facts behind
 * them checked independently, summary.csv written by report_write_summary,
 * and samples.jsonl read line by line: a cut-short last line, and every
 * other kind of bad line, reported as FILE:LINE and skipped. */
#include "testutil.h"
#include "util/log.h"
#include "report/report.h"
#include "results/resultsread.h"

#include <dirent.h>
#include <math.h>
#include <unistd.h>

static struct results_data *load(const char *name)
{
    char rel[128], path[PATH_MAX];
    snprintf(rel, sizeof(rel), "results/%s", name);
    test_data_path(path, sizeof(path), rel);
    struct results_data *rd = results_read(path);
    assert_non_null(rd);
    return rd;
}

static char *render(const struct report *r, enum report_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    report_print(r, f, out);
    fclose(out);
    return buf;
}

static char *make_tmpdir(void)
{
    char *dir = strdup("/tmp/vbed-test-report.XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_tmpdir(char *dir)
{
    test_remove_dir(dir);
    free(dir);
}

static void golden_outputs(void **state)
{
    (void)state;
    struct results_data *rd = load("quickstart-cache");
    struct report *r = report_build(rd);
    static const struct {
        enum report_format f;
        const char *file;
    } outs[] = {
        {REPORT_TABLE, "report/quickstart-cache.table"},
        {REPORT_CSV, "report/quickstart-cache.summary.csv"},
        {REPORT_JSON, "report/quickstart-cache.json"},
        {REPORT_MARKDOWN, "report/quickstart-cache.md"},
    };
    for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        char *text = render(r, outs[i].f);
        golden_check(outs[i].file, text);
        free(text);
    }
    report_free(r);
    results_data_free(rd);
}

/* The numbers, checked without the golden files (in case one was
 * regenerated blindly). tps_arm of the host runs 1, 5, 9: 592.565,
 * 615.717, 604.793; mean 604.358333, sd 11.582119, CI half 28.771578
 * (mpmath, see test_stats.c). */
/* Host arms on two hosts (two-hosts-layers: quickstart-layers with host
 * and guest on hostb, tuned and a second host arm bare_a on this machine):
 * each guest arm is compared with the host arm of its own host. */
static void host_arm_of_the_same_host(void **state)
{
    (void)state;
    struct results_data *rd = load("two-hosts-layers");
    struct report *r = report_build(rd);
    assert_int_equal(rd->n_arms, 4);
    assert_string_equal(rd->arms[3].name, "bare_a");
    const struct report_cell *host = &r->variants[0].cells[0], *guest = &r->variants[0].cells[1],
                             *tuned = &r->variants[0].cells[2], *bare = &r->variants[0].cells[3];
    assert_int_equal(guest->host_ref, 0);
    assert_int_equal(tuned->host_ref, 3);
    assert_false(guest->host_ref_elsewhere);
    assert_false(tuned->host_ref_elsewhere);
    assert_near(tuned->ratio_host, tuned->tps_stats.mean / bare->tps_stats.mean, 1e-9);
    assert_near(guest->ratio_host, guest->per_guest_stats.mean / host->tps_stats.mean, 1e-9);
    /* host arms on different hosts are not put in a ratio */
    assert_true(isnan(bare->ratio_host));
    assert_true(isnan(host->ratio_host));
    assert_true(tuned->gap.valid);
    for (size_t i = 0; i < r->n_notes; i++)
        assert_int_not_equal(r->notes[i].kind, NOTE_HOST_ELSEWHERE);
    char *table = render(r, REPORT_TABLE);
    assert_non_null(strstr(table, "tuned/bare_a"));
    assert_null(strstr(table, "tuned/host "));
    free(table);
    report_free(r);
    results_data_free(rd);
}

static void facts(void **state)
{
    (void)state;
    struct results_data *rd = load("quickstart-cache");
    assert_int_equal(rd->bad_lines, 0);
    assert_int_equal(rd->n_variants, 2);
    assert_int_equal(rd->n_arms, 3);
    assert_string_equal(rd->accel, "tcg");
    struct report *r = report_build(rd);
    assert_int_equal(r->host_arm, 0);
    assert_int_equal(r->first_guest_arm, 1);
    for (size_t v = 0; v < 2; v++) {
        const struct report_cell *host = &r->variants[v].cells[0];
        /* the host run serves both variants */
        assert_int_equal(host->tps_stats.n, 3);
        assert_near(host->tps_stats.mean, 604.358333333, 1e-6);
        assert_near(host->tps_stats.sd, 11.582118862, 1e-6);
        assert_near(host->tps_stats.ci95_half, 28.7715782471, 1e-6);
        assert_true(isnan(host->ratio_host));
        assert_true(isnan(host->host_cache_after_bytes));
    }
    const struct report_cell *guest = &r->variants[0].cells[1], *tuned = &r->variants[0].cells[2];
    assert_int_equal(guest->guests, 2);
    assert_int_equal(tuned->guests, 1);
    /* guest runs 2, 6, 10: 29.381, 30.005, 29.886 */
    assert_near(guest->tps_stats.mean, (29.381 + 30.005 + 29.886) / 3, 1e-9);
    /* 2 guests against the host arm's one mariadbd, and the 1-guest tuned arm
     * against the 2-guest arm: per guest */
    assert_near(guest->per_guest_stats.mean, guest->tps_stats.mean / 2, 1e-9);
    assert_near(guest->ratio_host, guest->tps_stats.mean / 2 / 604.358333333, 1e-9);
    assert_true(guest->ratio_host_per_guest);
    assert_true(isnan(guest->ratio_first_guest));
    assert_near(tuned->ratio_first_guest, tuned->tps_stats.mean / (guest->tps_stats.mean / 2),
                1e-12);
    assert_true(tuned->ratio_first_guest_per_guest);
    assert_near(tuned->ratio_host, tuned->tps_stats.mean / 604.358333333, 1e-9);
    assert_false(tuned->ratio_host_per_guest);
    assert_int_equal(guest->drifting, 1);
    assert_int_equal(guest->drift_samples, 6);
    assert_true(guest->host_cache_after_bytes > 20e6 && guest->host_cache_after_bytes < 23e6);
    assert_near(tuned->host_cache_after_bytes, 0, 0);
    /* variant 2's guest arm is another run: writethrough, slower */
    assert_true(r->variants[1].cells[1].tps_stats.mean < 20);
    assert_near(r->variants[1].cells[1].skew_max_s, 3.5, 1e-9);
    /* notes: run 6 drifts, run 8 started its guests 3.5 s apart */
    assert_int_equal(r->n_notes, 2);
    assert_int_equal(r->notes[0].kind, NOTE_DRIFT);
    assert_int_equal(r->notes[0].seq, 6);
    assert_int_equal(r->notes[0].guest, 1);
    assert_int_equal(r->notes[1].kind, NOTE_SKEW);
    assert_int_equal(r->notes[1].seq, 8);
    char *table = render(r, REPORT_TABLE);
    assert_non_null(strstr(table, "not comparable with KVM"));
    assert_non_null(strstr(table, "guest/host 0.025 per guest, tuned/host 0.040 aggregate, "
                                  "tuned/guest 1.614 per guest"));
    free(table);
    report_free(r);
    results_data_free(rd);
}

/* Every ratio between arms of every fixture: per guest when the arms run
 * different numbers of guests, aggregate only when the numbers are equal,
 * and the text says which. The recorded run's tuned arm (1 guest) against
 * its guest arm (2 guests) once read "tuned/guest 0.562": a 2-guest sum
 * against one guest. */
static void check_ratio(const struct report_cell *num, const struct report_cell *den, double ratio,
                        bool per_guest)
{
    if (isnan(ratio))
        return;
    assert_true(num->guests > 0 && den->guests > 0);
    if (num->guests != den->guests) {
        assert_true(per_guest);
        assert_near(ratio, num->per_guest_stats.mean / den->per_guest_stats.mean, 1e-12);
    } else {
        assert_false(per_guest);
        assert_near(ratio, num->tps_stats.mean / den->tps_stats.mean, 1e-12);
    }
}

static void fair_ratios(void **state)
{
    (void)state;
    static const char *const fixtures[] = {"quickstart-cache", "quickstart-tcg-recorded",
                                           "quickstart-trx2-interrupted", "quickstart-guests"};
    size_t checked = 0, per_guest = 0;
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
        struct captured cap = {{0}};
        log_set_sink(capture_sink, &cap);
        struct results_data *rd = load(fixtures[i]);
        log_set_sink(NULL, NULL);
        struct report *r = report_build(rd);
        for (size_t v = 0; v < rd->n_variants; v++) {
            const struct report_cell *cells = r->variants[v].cells;
            char text[1024];
            report_ratios_text(r, v, text, sizeof(text));
            for (size_t a = 0; a < rd->n_arms; a++) {
                const struct report_cell *c = &cells[a];
                if (r->host_arm >= 0)
                    check_ratio(c, &cells[r->host_arm], c->ratio_host, c->ratio_host_per_guest);
                if (r->first_guest_arm >= 0)
                    check_ratio(c, &cells[r->first_guest_arm], c->ratio_first_guest,
                                c->ratio_first_guest_per_guest);
                for (int pass = 0; pass < 2; pass++) {
                    int ref = pass ? r->first_guest_arm : r->host_arm;
                    double ratio = pass ? c->ratio_first_guest : c->ratio_host;
                    if (ref < 0 || isnan(ratio))
                        continue;
                    char want[128];
                    bool per = cells[ref].guests != c->guests;
                    snprintf(want, sizeof(want), "%s/%s %.3f %s", c->arm->name,
                             rd->arms[ref].name, ratio, per ? "per guest" : "aggregate");
                    if (!strstr(text, want))
                        fail_msg("%s variant %zu: '%s' not in '%s'", fixtures[i], v + 1, want,
                                 text);
                    checked++;
                    per_guest += per;
                }
            }
        }
        if (!strcmp(fixtures[i], "quickstart-tcg-recorded")) {
            char text[1024];
            report_ratios_text(r, 0, text, sizeof(text));
            assert_null(strstr(text, "tuned/guest 0.562"));
            assert_non_null(strstr(text, "tuned/guest 1.124 per guest"));
        }
        report_free(r);
        results_data_free(rd);
    }
    assert_true(checked >= 20);
    assert_true(per_guest >= 8);
}

static void summary_written(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char src[PATH_MAX];
    static const char *const files[] = {"meta.json", "samples.jsonl", "scenario.ini"};
    for (size_t i = 0; i < 3; i++) {
        char rel[128];
        snprintf(rel, sizeof(rel), "results/quickstart-cache/%s", files[i]);
        test_data_path(src, sizeof(src), rel);
        char *text = test_read_file(src);
        assert_non_null(text);
        test_write_file(dir, files[i], text);
        free(text);
    }
    assert_int_equal(report_write_summary(dir), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/summary.csv", dir);
    char *csv = test_read_file(path);
    assert_non_null(csv);
    golden_check("report/quickstart-cache.summary.csv", csv);
    /* one header and one row per variant x arm */
    size_t lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 2 * 3);
    assert_non_null(strstr(csv, "1,guest.disk_cache=writeback,host,host,none,1,3,604.3583333"));
    free(csv);
    remove_tmpdir(dir);
    /* a directory that is not there: reported, -1 */
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    assert_int_equal(report_write_summary("/nonexistent/vbed-results"), -1);
    log_set_sink(NULL, NULL);
    assert_non_null(strstr(cap.text, "/nonexistent/vbed-results"));
}

/* Killed while writing run 7: the last line of samples.jsonl is cut short. */
static void interrupted_run(void **state)
{
    (void)state;
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    struct results_data *rd = load("quickstart-trx2-interrupted");
    log_set_sink(NULL, NULL);
    assert_int_equal(rd->bad_lines, 1);
    assert_int_equal(rd->n_samples, 644); /* every other line */
    assert_non_null(strstr(cap.text, "quickstart-trx2-interrupted/samples.jsonl:645: the line ends "
                                     "inside its JSON object (cut short); line skipped"));
    assert_string_equal(rd->status, "interrupted");
    struct report *r = report_build(rd);
    /* host runs 1 and 5, guest runs 2 and 6; tuned run 3 only (7 was cut) */
    assert_int_equal(r->variants[0].cells[0].tps_stats.n, 2);
    assert_int_equal(r->variants[0].cells[1].tps_stats.n, 2);
    assert_int_equal(r->variants[0].cells[2].tps_stats.n, 1);
    assert_int_equal(r->variants[1].cells[1].tps_stats.n, 1);
    char *table = render(r, REPORT_TABLE);
    golden_check("report/quickstart-trx2-interrupted.table", table);
    assert_non_null(
        strstr(table, "run 7 (tuned, repeat 2): interrupted; its figures are not counted."));
    assert_non_null(strstr(table, "5 planned runs did not run: 8, 9, 10, 11, 12."));
    assert_non_null(strstr(table, "1 line of samples.jsonl could not be read and was skipped."));
    free(table);
    report_free(r);
    results_data_free(rd);
}

/* Every kind of bad line is reported with its number; the good ones count. */
static void bad_lines(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    test_write_file(dir, "meta.json",
               "{\"status\": \"complete\", \"accel\": \"kvm\", \"scenario\": {\"name\": \"t\"},\n"
               " \"variants\": [{\"index\": 1, \"label\": \"default\"}],\n"
               " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}]}\n");
#define OK(v) "{\"metric\":\"tps_arm\",\"value\":" v ",\"labels\":{\"arm\":\"host\",\"seq\":1}}\n"
    test_write_file(dir, "samples.jsonl",
               OK("100")                                            /* 1 */
               "not json at all\n"                                  /* 2 */
               "[1, 2, 3]\n"                                        /* 3 */
               "\n"                                                 /* 4: blank, ignored */
               "{\"value\": 3}\n"                                   /* 5 */
               "{\"metric\": \"tps_arm\", \"value\": \"fast\"}\n"   /* 6 */
               OK("110")                                            /* 7 */
               "{\"metric\": \"tps_arm\", \"value\": 1} trailing\n" /* 8 */
               "{\"metric\":\"tps_arm\",\"value\":120,\"labels\":{\"arm\":\"host\"}}\r\n" /* 9 */
               "{\"metric\":\"tps_arm\",\"val"); /* 10, cut short */
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    struct results_data *rd = results_read(dir);
    log_set_sink(NULL, NULL);
    assert_non_null(rd);
    assert_int_equal(rd->n_samples, 3);
    assert_int_equal(rd->bad_lines, 6);
    assert_int_equal(rd->samples[0].line, 1);
    assert_int_equal(rd->samples[1].line, 7);
    assert_int_equal(rd->samples[2].line, 9);
    static const char *const expect[] = {
        "samples.jsonl:2: not valid JSON",
        "samples.jsonl:3: not a JSON object",
        "samples.jsonl:5: no \"metric\" string",
        "samples.jsonl:6: no numeric \"value\"",
        "samples.jsonl:8: text after the JSON object",
        "samples.jsonl:10: the line ends inside its JSON object (cut short); line skipped (the "
        "last line of an interrupted run)"};
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
        if (!strstr(cap.text, expect[i]))
            fail_msg("missing '%s' in:\n%s", expect[i], cap.text);
    assert_null(strstr(cap.text, "samples.jsonl:4:"));
    assert_null(strstr(cap.text, "samples.jsonl:9:"));
    struct report *r = report_build(rd);
    assert_int_equal(r->variants[0].cells[0].tps_stats.n, 3);
    assert_near(r->variants[0].cells[0].tps_stats.mean, 110, 1e-9);
    assert_null(report_accel_warning(r)); /* kvm */
    report_free(r);
    results_data_free(rd);
    remove_tmpdir(dir);
}

/* ps_cost's pairs (workloads/pscost.h): the targets of one run switched
 * together, so a pair's figure is their mean, and the CI is over pairs --
 * two guests' 4 ratios in 2 pairs are 2 figures, not 4; a ratio without a
 * pair, or of a run that does not count, is no figure; the text says which
 * way the interval points */
static void ps_cost_pairs(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    test_write_file(dir, "meta.json",
               "{\"status\": \"complete\", \"accel\": \"tcg\", \"scenario\": {\"name\": \"t\"},\n"
               " \"variants\": [{\"index\": 1, \"label\": \"default\"}],\n"
               " \"arms\": [{\"name\": \"guest\", \"kind\": \"guest\"}]}\n");
#define PS(g, p, v) "{\"metric\":\"ps_on_off_ratio\",\"value\":" v ",\"labels\":{\"arm\":\"guest\",\"seq\":1,\"guest\":" g ",\"pair\":" p "}}\n"
    test_write_file(dir, "samples.jsonl",
               "{\"metric\":\"tps_arm\",\"value\":10,\"labels\":{\"arm\":\"guest\",\"seq\":1}}\n"
               PS("1", "1", "0.90") PS("2", "1", "0.94") PS("1", "2", "0.88") PS("2", "2", "0.90")
               PS("1", "3", "0.91") PS("2", "3", "0.93")
               /* no pair: not one of the probe's */
               "{\"metric\":\"ps_on_off_ratio\",\"value\":5,\"labels\":{\"arm\":\"guest\",\"seq\":1,\"guest\":1}}\n"
               /* run 2 measured nothing that counts */
               "{\"metric\":\"ps_on_off_ratio\",\"value\":5,\"labels\":{\"arm\":\"guest\",\"seq\":2,\"guest\":1,\"pair\":1}}\n");
#undef PS
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    struct report *r = report_build(rd);
    const struct stats_summary *p = &r->variants[0].cells[0].ps_on_off;
    assert_int_equal(p->n, 3);
    assert_near(p->mean, (0.92 + 0.89 + 0.92) / 3, 1e-9);
    assert_true(p->ci95_half > 0 && p->mean + p->ci95_half < 1);
    char text[2048];
    report_pscost_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "guest 0.910 +- "));
    assert_non_null(strstr(text, "(3 pairs: a cost)"));
    report_free(r);
    results_data_free(rd);
    remove_tmpdir(dir);
}

static void unreadable_dirs(void **state)
{
    (void)state;
    struct captured cap = {{0}};
    char *dir = make_tmpdir();
    log_set_sink(capture_sink, &cap);
    assert_null(results_read("/nonexistent/vbed-results"));
    assert_null(results_read(dir)); /* no meta.json */
    test_write_file(dir, "meta.json", "{\"status\": ");
    assert_null(results_read(dir)); /* meta.json cut short */
    test_write_file(dir, "meta.json", "[]");
    assert_null(results_read(dir));
    log_set_sink(NULL, NULL);
    assert_non_null(
        strstr(cap.text, "Cannot read the results directory '/nonexistent/vbed-results'"));
    assert_non_null(strstr(cap.text, "meta.json"));
    assert_non_null(strstr(cap.text, "is not a JSON object"));

    /* meta.json but no samples yet: a warning, an empty report */
    test_write_file(dir, "meta.json",
               "{\"status\": \"running\", \"accel\": \"tcg\", \"arms\": "
               "[{\"name\": \"guest\", \"kind\": \"guest\"}]}");
    memset(&cap, 0, sizeof(cap));
    log_set_sink(capture_sink, &cap);
    struct results_data *rd = results_read(dir);
    log_set_sink(NULL, NULL);
    assert_non_null(rd);
    assert_non_null(strstr(cap.text, "no samples.jsonl"));
    assert_int_equal(rd->n_samples, 0);
    assert_int_equal(rd->n_variants, 1);
    struct report *r = report_build(rd);
    assert_int_equal(r->variants[0].cells[0].tps_stats.n, 0);
    char *text = render(r, REPORT_TABLE);
    assert_non_null(strstr(text, "Variant 1: default"));
    assert_non_null(strstr(text, "not comparable with KVM"));
    free(text);
    text = render(r, REPORT_JSON);
    assert_non_null(strstr(text, "\"mean\": null"));
    free(text);
    report_free(r);
    results_data_free(rd);
    remove_tmpdir(dir);
}

static void formats(void **state)
{
    (void)state;
    enum report_format f;
    assert_int_equal(report_format_parse("table", &f), 0);
    assert_int_equal(f, REPORT_TABLE);
    assert_int_equal(report_format_parse("md", &f), 0);
    assert_int_equal(f, REPORT_MARKDOWN);
    assert_int_equal(report_format_parse("json", &f), 0);
    assert_int_equal(f, REPORT_JSON);
    assert_int_equal(report_format_parse("xml", &f), -1);

    /* csv quoting and markdown pipes */
    static const char *const head[] = {"a", "b"};
    struct report_table *t = report_table_new(2, head, 0x2);
    static const char *const row[] = {"x,\"y\"|z", "1"};
    report_table_add(t, row);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_table_print(t, REPORT_CSV, out, "");
    report_table_print(t, REPORT_MARKDOWN, out, "");
    fclose(out);
    assert_string_equal(buf,
                        "a,b\n\"x,\"\"y\"\"|z\",1\n| a | b |\n|---|---:|\n| x,\"y\"\\|z | 1 |\n");
    free(buf);
    report_table_free(t);
}

/* A ratio needs one unit: an arm that measured MB/s (raw I/O) against one
 * that measured TPS gives no ratio, and each cell says its unit. */
static void no_ratio_across_units(void **state)
{
    (void)state;
    char *dir = make_tmpdir(), src[PATH_MAX], cmd[3 * PATH_MAX];
    test_data_path(src, sizeof(src), "results/quickstart-tcg-recorded");
    snprintf(cmd, sizeof(cmd),
             "cp -r '%s'/. '%s' && sed -i '/\"arm\":\"host\"/s/\"tps_arm\"/\"mbps_arm\"/' "
             "'%s'/samples.jsonl",
             src, dir, dir);
    assert_int_equal(system(cmd), 0);
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    struct report *r = report_build(rd);
    assert_true(r->host_arm >= 0);
    size_t checked = 0;
    for (size_t v = 0; v < rd->n_variants; v++) {
        const struct report_cell *cells = r->variants[v].cells;
        assert_string_equal(cells[r->host_arm].unit, "MB/s");
        for (size_t a = 0; a < rd->n_arms; a++) {
            if ((int)a == r->host_arm)
                continue;
            assert_string_equal(cells[a].unit, "tx/s");
            assert_true(isnan(cells[a].ratio_host));
            checked++;
        }
    }
    assert_true(checked >= 2);
    report_free(r);
    results_data_free(rd);
    remove_tmpdir(dir);
}

/* Any workload's headline: a metric "<name>_arm" with its unit becomes the
 * cell's figure, titled by its unit, with its own rule and no ratio to a
 * TPS arm; a unit that is no short word (it would reach a plot's script)
 * makes no headline at all. */
static void other_headlines(void **state)
{
    (void)state;
    char *dir = make_tmpdir(), src[PATH_MAX], cmd[3 * PATH_MAX];
    test_data_path(src, sizeof(src), "results/quickstart-tcg-recorded");
    snprintf(cmd, sizeof(cmd),
             "cp -r '%s'/. '%s' && sed -i '/\"arm\":\"host\"/{s/\"tps_arm\"/\"qps_arm\"/;"
             "s/\"unit\":\"tx\\/s\"/\"unit\":\"q\\/s\"/}' '%s'/samples.jsonl",
             src, dir, dir);
    assert_int_equal(system(cmd), 0);
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    struct report *r = report_build(rd);
    assert_true(r->host_arm >= 0);
    assert_string_equal(r->headline, "q/s or TPS");
    assert_true(r->headline_other);
    const struct report_cell *host = &r->variants[0].cells[r->host_arm];
    assert_string_equal(host->unit, "q/s");
    assert_true(host->tps_stats.n >= 1 && host->tps_stats.mean > 0);
    for (size_t a = 0; a < rd->n_arms; a++)
        if ((int)a != r->host_arm)
            assert_true(isnan(r->variants[0].cells[a].ratio_host));
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_print(r, REPORT_TABLE, out);
    fclose(out);
    /* the rule only with --explain; the report names where it is */
    assert_null(strstr(buf, report_other_rule));
    assert_non_null(strstr(buf, "Every figure is defined in docs/method.md"));
    assert_non_null(strstr(buf, "q/s or TPS mean"));
    free(buf);
    r->explain = true;
    out = open_memstream(&buf, &len);
    report_print(r, REPORT_TABLE, out);
    fclose(out);
    assert_non_null(strstr(buf, report_other_rule));
    free(buf);
    report_free(r);
    results_data_free(rd);
    /* a unit with a quote is no headline: the host arm has no figure */
    snprintf(cmd, sizeof(cmd), "sed -i 's/\"unit\":\"q\\/s\"/\"unit\":\"q'\"'\"'s\"/' '%s'/samples.jsonl", dir);
    assert_int_equal(system(cmd), 0);
    rd = results_read(dir);
    assert_non_null(rd);
    r = report_build(rd);
    assert_int_equal(r->variants[0].cells[r->host_arm].tps_stats.n, 0);
    assert_string_equal(r->headline, "TPS");
    report_free(r);
    results_data_free(rd);
    remove_tmpdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_outputs),  cmocka_unit_test(facts),
        cmocka_unit_test(host_arm_of_the_same_host),
        cmocka_unit_test(summary_written), cmocka_unit_test(interrupted_run),
        cmocka_unit_test(bad_lines),       cmocka_unit_test(ps_cost_pairs),
        cmocka_unit_test(unreadable_dirs),
        cmocka_unit_test(formats),         cmocka_unit_test(fair_ratios), cmocka_unit_test(no_ratio_across_units),
        cmocka_unit_test(other_headlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
