/* test_report_hostile.c: what a results directory holds is input from
 * whoever shared it.
 *
 * The reader (readmeta.c, readsamples.c) refuses names that are not names and skips
 * samples whose labels are out of their sets, non-finite values, numbers
 * out of range; a null value is kept as "not available". And whatever the
 * reader lets through, plot.c hands names to gnuplot as data: a report of
 * results built by hand with a newline and "!touch FILE" in every name, drawn
 * into an output directory whose name holds a quote and a newline, runs
 * nothing, and report.html escapes the names. Without gnuplot the drawing
 * part cannot be checked: the test then exits 77 after the rest passed. */
#include "testutil.h"
#include <fcntl.h>
#include "report/html.h"
#include "util/log.h"
#include "report/plot.h"
#include "report/report.h"

#include <math.h>

static char *make_tmpdir(void)
{
    char *dir = strdup("/tmp/vbed-test-hostile.XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_tree(const char *dir)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir); /* our own mkdtemp name: no quote */
    assert_int_equal(system(cmd), 0);
}

static const char meta_ok[] =
    "{\"status\": \"complete\", \"accel\": \"kvm\", \"scenario\": {\"name\": \"t\"},\n"
    " \"variants\": [{\"index\": 1, \"label\": \"default\"}],\n"
    " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}]}\n";

/* results_read(dir) with meta and samples; NULL expected: the log holds want. */
static void expect_refused(const char *meta, const char *samples, const char *want)
{
    char *dir = make_tmpdir();
    test_write_file(dir, "meta.json", meta);
    test_write_file(dir, "samples.jsonl", samples);
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    struct results_data *rd = results_read(dir);
    log_set_sink(NULL, NULL);
    if (rd)
        fail_msg("accepted a results directory that holds %s", want);
    if (!strstr(cap.text, want))
        fail_msg("'%s' not in:\n%s", want, cap.text);
    assert_non_null(strstr(cap.text, "refusing to report"));
    remove_tree(dir);
    free(dir);
}

static void names_refused(void **state)
{
    (void)state;
    const char *ok = "{\"metric\":\"tps_arm\",\"value\":1,\"labels\":{\"arm\":\"host\"}}\n";
    expect_refused("{\"arms\": [{\"name\": \"host\\n!touch /tmp/x\", \"kind\": \"host\"}]}", ok,
                   "meta.json: arms[0].name: 'host\\n!touch /tmp/x' is not an arm name");
    expect_refused("{\"arms\": [{\"name\": \"Host\", \"kind\": \"host\"}]}", ok,
                   "arms[0].name: 'Host' is not an arm name");
    expect_refused("{\"arms\": [{\"name\": \"a23456789012345678\", \"kind\": \"host\"}]}", ok,
                   "is not an arm name");
    expect_refused("{\"arms\": [{\"name\": \"host\", \"kind\": \"vm\"}]}", ok,
                   "arms[0].kind: 'vm' is not one of host, guest");
    expect_refused("{\"variants\": [{\"index\": 1, \"label\": \"a=1\\n!touch /tmp/x\"}]}", ok,
                   "variants[0].label: 'a=1\\n!touch /tmp/x' is not a variant label");
    expect_refused("{\"variants\": [{\"index\": 1, \"label\": \"\"}]}", ok,
                   "variants[0].label: '' is not a variant label");
    expect_refused("{\"variants\": [{\"index\": 1, \"label\": \"a='x'\"}]}", ok,
                   "is not a variant label");
    expect_refused("{\"variants\": [{\"index\": -3, \"label\": \"a\"}]}", ok,
                   "variants[0].index");
    expect_refused("{\"scenario\": {\"name\": \"q\\u001b[2J\"}}", ok, "scenario.name");
    expect_refused("{\"status\": \"done\\n!x\"}", ok, "status: 'done\\n!x' is not one of");
    expect_refused("{\"order\": {\"mode\": \"random\"}}", ok,
                   "order.mode: 'random' is not one of shuffle, fixed");
    expect_refused("{\"order\": {\"mode\": \"fixed\", \"seed\": -1}}", ok, "order.seed");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"host\", \"status\": \"pending\"}]}", ok,
                   "runs[0].status: 'pending' is not one of running, ok, failed, interrupted");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"x y\"}]}", ok, "runs[0].arm");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"dir\": \"../../etc\"}]}", ok,
                   "runs[0].dir");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"config\": {\"guests\": \"0\"}}]}",
                   ok, "runs[0].config.guests: '0' is not a number of guests");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"config\": "
                   "{\"disk_cache\": \"none\\n!x\"}}]}",
                   ok, "runs[0].config.disk_cache");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"placement\": {\"pin\": \"all\"}}]}",
                   ok, "runs[0].placement.pin: 'all' is not one of auto, none");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"placement\": {\"pin\": \"auto\", "
                   "\"guests\": [{\"guest\": 1, \"vcpus\": \"0;reboot\"}]}}]}",
                   ok, "a list of host CPUs");
    expect_refused("{\"runs\": [{\"seq\": 1, \"arm\": \"h\", \"hypervisor_fields\": "
                   "\"cpu.time,$(reboot)\"}]}",
                   ok, "runs[0].hypervisor_fields: 'cpu.time,$(reboot)' is not a list of libvirt "
                       "stat fields");
    expect_refused(meta_ok,
                   "{\"metric\":\"tps_arm\",\"value\":1,\"labels\":{\"arm\":\"host\\n!touch "
                   "/tmp/x\"}}\n",
                   "samples.jsonl:1: labels.arm: 'host\\n!touch /tmp/x' is not an arm name");
}

/* Lines with labels out of their sets, bad numbers: skipped, reported. */
static void labels_checked(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    test_write_file(dir, "meta.json", meta_ok);
#define S(metric, value, labels)                                                                   \
    "{\"metric\":\"" metric "\",\"value\":" value ",\"labels\":{\"arm\":\"host\",\"seq\":1" labels \
    "}}\n"
    test_write_file(dir, "samples.jsonl",
                    S("tps_arm", "100", "")                                     /* 1 */
                    S("working_set_bytes", "1", ",\"fits\":\"l2\\n!touch /tmp/x\"") /* 2 */
                    S("working_set_bytes", "1", ",\"basis\":\"guess\"")        /* 3 */
                    S("warmup_s", "1", ",\"steady\":\"maybe\"")                /* 4 */
                    S("warmup_s", "1", ",\"mode\":\"manual\"")                 /* 5 */
                    S("tps", "1", ",\"guest\":100000")                         /* 6 */
                    S("tps", "1", ",\"variants\":[0]")                         /* 7 */
                    S("tps", "NaN", "")                                        /* 8 */
                    S("tps", "1e999", "")                                      /* 9 */
                    S("tps", "1", ",\"t\":\"now\"")                            /* 10: t ignored */
                    "{\"metric\":\"tps\\n!x\",\"value\":1}\n"                  /* 11 */
                    S("host_steal_pct", "null", "")                            /* 12: n/a */
                    S("host_other_cpu_pct", "12.5", "")                        /* 13 */
                    S("tps", "1", ",\"phase\":\"warm up\"")                    /* 14 */
                    S("working_set_bytes", "1", ",\"fits\":\"buffer_pool\",\"basis\":\"estimate\"") /* 15 */
                    S("hostdev_reads", "1", ",\"layer\":\"disk\"")                /* 16 */
                    S("hostdev_reads", "1", ",\"device\":\"vda1;reboot\"")        /* 17 */
                    S("hostdev_reads", "1", ",\"device\":\"\"")                   /* 18: none */
                    S("hostdev_reads", "Infinity", ",\"layer\":\"host\"")          /* 19 */
                    S("hostdev_reads", "1", ",\"layer\":\"host\",\"device\":\"nvme0n1p2\"")); /* 20 */
#undef S
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    struct results_data *rd = results_read(dir);
    log_set_sink(NULL, NULL);
    assert_non_null(rd);
    static const char *const expect[] = {
        "samples.jsonl:2: labels.fits: 'l2\\n!touch /tmp/x' is not one of buffer_pool, "
        "guest_page_cache, host_page_cache, none; line skipped",
        "samples.jsonl:3: labels.basis: 'guess' is not one of estimate, on_disk",
        "samples.jsonl:4: labels.steady: 'maybe' is not one of yes, no",
        "samples.jsonl:5: labels.mode: 'manual' is not one of auto, fixed",
        "samples.jsonl:6: labels.guest is not a guest number",
        "samples.jsonl:7: labels.variants is not a list of variant numbers",
        "samples.jsonl:9: \"value\" is not a finite number",
        "samples.jsonl:11: \"metric\": 'tps\\n!x' is not a metric name",
        "samples.jsonl:14: labels.phase: 'warm up' is not a phase name",
        "samples.jsonl:16: labels.layer: 'disk' is not one of workload, innodb, guest, "
        "hypervisor, host",
        "samples.jsonl:17: labels.device: 'vda1;reboot' is not a block device name"};
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
        if (!strstr(cap.text, expect[i]))
            fail_msg("missing '%s' in:\n%s", expect[i], cap.text);
    /* NaN: json-c reads it as a number that is not finite, or not at all */
    assert_non_null(strstr(cap.text, "samples.jsonl:8: "));
    assert_non_null(strstr(cap.text, "samples.jsonl:19: "));
    assert_int_equal(rd->bad_lines, 13);
    assert_int_equal(rd->n_samples, 7); /* lines 1, 10, 12, 13, 15, 18, 20 */
    assert_string_equal(rd->samples[6].layer, "host");
    assert_string_equal(rd->samples[6].device, "nvme0n1p2");
    assert_true(isnan(rd->samples[2].value)); /* null: not available */
    struct report *r = report_build(rd);
    const struct report_cell *c = &r->variants[0].cells[0];
    assert_true(isnan(c->host_steal_max)); /* n/a, never 0 */
    assert_true(fabs(c->host_other_max - 12.5) < 1e-12);
    assert_int_equal(c->noisy_runs, 1);
    assert_string_equal(c->fits, "buffer_pool");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_print(r, REPORT_TABLE, out);
    fclose(out);
    if (getenv("VBED_TEST_SHOW"))
        fputs(buf, stderr);
    assert_non_null(strstr(buf, "  host  buffer pool        -  -              n/a    12.5% !            -  noisy          -  -\n"));
    assert_non_null(strstr(buf, "processes outside the run used 12.5% of the host's CPU during "
                                "the measure phase (limit 10%)"));
    assert_non_null(strstr(buf, "the disk cache mode cannot matter here."));
    free(buf);
    report_free(r);
    results_data_free(rd);
    remove_tree(dir);
    free(dir);
}

/* ---- plots: names are data ---- */

static const char *evil_name(const char *what, const char *pwned)
{
    static char buf[4][PATH_MAX + 64];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, sizeof(buf[0]), "%s'\n!touch %s\n\"<b>x</b>\\", what, pwned);
    return b;
}

static void add_sample(struct results_data *rd, size_t *cap, const char *metric, double value,
                       const char *arm, int seq, int guest, double t, bool has_t, const char *when)
{
    if (rd->n_samples == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        rd->samples = realloc(rd->samples, *cap * sizeof(*rd->samples));
    }
    struct results_sample *s = &rd->samples[rd->n_samples++];
    memset(s, 0, sizeof(*s));
    s->metric = strdup(metric);
    s->value = value;
    s->unit = strdup("");
    s->arm = strdup(arm);
    s->arm_kind = strdup("guest");
    s->phase = strdup("measure");
    s->when = strdup(when);
    s->accel = strdup("");
    s->fits = strdup("");
    s->basis = strdup("");
    s->steady = strdup("");
    s->mode = strdup("");
    s->source = strdup("");
    s->seq = seq;
    s->repeat = 1;
    s->guest = guest;
    s->t = t;
    s->has_t = has_t;
}

static bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void plots_take_names_as_data(void **state)
{
    (void)state;
    if (!have_gnuplot()) {
        printf("the drawing part needs gnuplot (make deps)\n");
        return; /* main() exits 77 */
    }
    char *dir = make_tmpdir();
    char pwned[PATH_MAX];
    snprintf(pwned, sizeof(pwned), "%s/pwned", dir);
    struct results_data *rd = calloc(1, sizeof(*rd));
    char **fields[] = {&rd->dir,        &rd->scenario_name, &rd->scenario_sha256,
                       &rd->status,     &rd->accel,         &rd->accel_reason,
                       &rd->started_at, &rd->ended_at,      &rd->order_mode};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        *fields[i] = strdup("");
    free(rd->scenario_name);
    rd->scenario_name = strdup(evil_name("scn", pwned));
    rd->n_variants = 2;
    rd->variants = calloc(2, sizeof(*rd->variants));
    for (int v = 0; v < 2; v++) {
        rd->variants[v].index = v + 1;
        rd->variants[v].label = strdup(evil_name(v ? "v2" : "v1", pwned));
    }
    rd->n_arms = 2;
    rd->arms = calloc(2, sizeof(*rd->arms));
    rd->arms[0].name = strdup(evil_name("a1", pwned));
    rd->arms[1].name = strdup(evil_name("a2", pwned));
    rd->arms[0].kind = strdup("guest");
    rd->arms[1].kind = strdup("guest");
    rd->n_runs = 2;
    rd->runs = calloc(2, sizeof(*rd->runs));
    for (int i = 0; i < 2; i++) {
        struct results_run *run = &rd->runs[i];
        run->seq = i + 1;
        run->repeat = 1;
        run->run = strdup("");
        run->arm = strdup(rd->arms[i].name);
        run->status = strdup("ok");
        run->dir = strdup("");
        run->disk_cache = strdup(evil_name("mode", pwned));
        run->pin = strdup("");
        run->pin_reason = strdup("");
        run->pin_host_cpus = strdup("");
        run->guests = 1;
        run->config = calloc(1, sizeof(*run->config));
        run->config[0].key = strdup("threads");
        run->config[0].value = strdup("1");
        run->n_config = 1;
    }
    size_t cap = 0;
    for (int a = 0; a < 2; a++) {
        add_sample(rd, &cap, "tps_arm", 10 + a, rd->arms[a].name, a + 1, 0, 0, false, "");
        add_sample(rd, &cap, "host_cache_data_bytes", 1 << 20, rd->arms[a].name, a + 1, 1, 0,
                   false, "after");
        for (int k = -2; k <= 3; k++)
            add_sample(rd, &cap, "tps_interval", 10 + k, rd->arms[a].name, a + 1, 1, k, true, "");
        /* where the time goes: a stacked bar per variant, arm names as data */
        add_sample(rd, &cap, "transactions", 100, rd->arms[a].name, a + 1, 1, 0, false, "");
        add_sample(rd, &cap, "measure_s", 10, rd->arms[a].name, a + 1, 1, 0, false, "");
        add_sample(rd, &cap, "server_cpu_s", 5, rd->arms[a].name, a + 1, 1, 0, false, "");
    }
    struct report *r = report_build(rd);
    char out_dir[PATH_MAX + 64];
    /* a name without a slash: the shell expands $VBED_PWNED if it ever runs */
    setenv("VBED_PWNED", pwned, 1);
    snprintf(out_dir, sizeof(out_dir), "%s/out'\n!touch $VBED_PWNED\n", dir);
    assert_int_equal(mkdir(out_dir, 0755), 0);
    struct plot_set plots = {0};
    int rc = plot_draw(r, &plots);
    assert_int_equal(rc, 0);
    int out_fd = open(out_dir, O_RDONLY | O_DIRECTORY);
    assert_true(out_fd >= 0);
    assert_int_equal(plot_write(&plots, out_fd, out_dir), 0);
    assert_true(plots.n >= 6); /* bars, 2 x TPS over time, host cache, 2 x where the time goes */
    if (access(pwned, F_OK) == 0)
        fail_msg("a name from the results ran a command in gnuplot: %s exists", pwned);
    /* the names are in the plots, as text */
    char path[PATH_MAX * 3];
    snprintf(path, sizeof(path), "%s/tps-bars.svg", out_dir);
    char *svg = test_read_file(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "a1'?!touch"));
    assert_null(strstr(svg, "<b>x"));
    free(svg);
    snprintf(path, sizeof(path), "%s/gap-2.svg", out_dir);
    svg = test_read_file(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "a2'?!touch"));
    assert_null(strstr(svg, "<b>x"));
    free(svg);
    assert_int_equal(html_write_report(r, &plots, out_fd, out_dir, NULL), 0);
    close(out_fd);
    snprintf(path, sizeof(path), "%s/report.html", out_dir);
    char *html = test_read_file(path);
    assert_non_null(html);
    assert_null(strstr(html, "<b>x"));
    assert_non_null(strstr(html, "&lt;b&gt;x&lt;/b&gt;"));
    free(html);
    assert_int_equal(access(pwned, F_OK), -1);
    plot_set_clear(&plots);
    report_free(r);
    results_data_free(rd);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_refused),
        cmocka_unit_test(labels_checked),
        cmocka_unit_test(plots_take_names_as_data),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (failed == 0 && !have_gnuplot()) {
        printf("SKIP: the plot part of this test needs gnuplot (make deps)\n");
        return 77;
    }
    return failed;
}
