/* test_workload.c: sysbench command lines (golden) and sysbench's output,
 * parsed from outputs captured from real runs (tests/data/sysbench/), and
 * the common measure window of guests measured together. */
#include "testutil.h"
#include "scenario/keys.h"
#include "results/steadyrule.h"
#include "workloads/window.h"
#include "workloads/sysbench.h"

#include <math.h>

static char *data(const char *rel)
{
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), rel);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("missing test data %s", path);
    return text;
}

static void host_read_write(void **state)
{
    (void)state;
    char *text = data("sysbench/host-read-write-2threads.out"), err[256];
    struct sysbench_report r;
    assert_int_equal(sysbench_parse(text, &r, err, sizeof(err)), 0);
    assert_true(fabs(r.tps - 229.57) < 1e-9);
    assert_true(fabs(r.qps - 4591.38) < 1e-9);
    assert_int_equal(r.transactions, 1149);
    assert_true(fabs(r.total_time_s - 5.0045) < 1e-9);
    assert_true(fabs(r.qps_read - 16086 / 5.0045) < 1e-6);
    assert_true(fabs(r.qps_write - 4596 / 5.0045) < 1e-6);
    assert_true(fabs(r.qps_other - 2298 / 5.0045) < 1e-6);
    assert_true(fabs(r.lat_min_ms - 4.85) < 1e-9);
    assert_true(fabs(r.lat_avg_ms - 8.70) < 1e-9);
    assert_true(fabs(r.lat_max_ms - 22.86) < 1e-9);
    assert_true(fabs(r.lat_p95_ms - 11.87) < 1e-9);
    assert_true(r.errors_per_s == 0 && r.reconnects_per_s == 0);
    assert_int_equal(r.n_intervals, 5);
    assert_true(fabs(r.intervals[0].t - 1) < 1e-9);
    assert_int_equal(r.intervals[0].threads, 2);
    assert_true(fabs(r.intervals[0].tps - 221.73) < 1e-9);
    assert_true(fabs(r.intervals[3].qps_write - 963.13) < 1e-9);
    assert_true(fabs(r.intervals[4].lat_p95_ms - 11.87) < 1e-9);
    sysbench_report_free(&r);
    free(text);
}

static void guest_under_tcg(void **state)
{
    (void)state;
    char *text = data("sysbench/guest-tcg-read-write.out"), err[256];
    struct sysbench_report r;
    assert_int_equal(sysbench_parse(text, &r, err, sizeof(err)), 0);
    assert_int_equal(r.n_intervals, 30);
    assert_true(r.tps > 0 && r.tps < 100);
    assert_true(fabs(r.intervals[0].tps - 4.87) < 1e-9);
    assert_true(r.intervals[29].t == 30);
    sysbench_report_free(&r);
    free(text);
}

static void incomplete_output(void **state)
{
    (void)state;
    char *text = data("sysbench/host-read-write-2threads.out"), err[256];
    struct sysbench_report r;
    /* cut before the final report, as when sysbench is killed */
    *strstr(text, "SQL statistics:") = '\0';
    assert_int_equal(sysbench_parse(text, &r, err, sizeof(err)), -1);
    assert_string_equal(err, "no final report ('SQL statistics:') in sysbench's output");
    assert_int_equal(r.n_intervals, 5); /* the intervals are kept */
    sysbench_report_free(&r);
    free(text);

    text = data("sysbench/host-read-write-2threads.out");
    *strstr(text, "Latency (ms):") = '\0';
    assert_int_equal(sysbench_parse(text, &r, err, sizeof(err)), -1);
    assert_string_equal(err, "sysbench's final report lacks its latency figures");
    sysbench_report_free(&r);
    free(text);

    assert_int_equal(sysbench_parse("", &r, err, sizeof(err)), -1);
    sysbench_report_free(&r);
}

static void command_lines(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.workload = WL_OLTP_READ_ONLY;
    cfg.compression = COMP_ROW_ZLIB;
    cfg.tables = 2;
    cfg.table_size = 5000;
    cfg.threads = 3;
    char text[4096] = "";
    struct workload_cmdline c;
    static const char *const names[] = {"prepare", "run"};
    for (int cmd = WORKLOAD_PREPARE; cmd <= WORKLOAD_RUN; cmd++) {
        workload_cmdline(&c, &cfg, cmd, 45, "/usr/local/share/vbed/vbed_oltp.lua",
                         "/run/mysqld/mysqld.sock");
        size_t used = strlen(text);
        used += (size_t)snprintf(text + used, sizeof(text) - used, "%s:", names[cmd]);
        for (size_t i = 0; c.env[i]; i++)
            used += (size_t)snprintf(text + used, sizeof(text) - used, " %s", c.env[i]);
        for (size_t i = 0; c.argv[i]; i++)
            used += (size_t)snprintf(text + used, sizeof(text) - used, " %s", c.argv[i]);
        snprintf(text + used, sizeof(text) - used, "\n");
    }
    cfg.compression = COMP_PAGE_LZ4;
    workload_cmdline(&c, &cfg, WORKLOAD_PREPARE, 0, "x.lua", "/s");
    assert_string_equal(c.env[1], "VBED_TABLE_OPTIONS=PAGE_COMPRESSED=1");
    cfg.compression = COMP_NONE;
    workload_cmdline(&c, &cfg, WORKLOAD_PREPARE, 0, "x.lua", "/s");
    assert_string_equal(c.env[1], "VBED_TABLE_OPTIONS=");
    golden_check("sysbench/cmdlines.txt", text);
}

/* paths from a remote host's reply, or an arm directory longer than any
 * store: an error the caller reports, never an abort (main aborted, exit
 * 134, at ~2048 bytes) */
static void command_line_too_long(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.workload = WL_OLTP_READ_ONLY;
    char *lua = malloc(PATH_MAX), *socket = malloc(3 * PATH_MAX);
    assert_non_null(lua);
    assert_non_null(socket);
    memset(lua, 'l', PATH_MAX - 1);
    lua[0] = '/', lua[PATH_MAX - 1] = '\0';
    memset(socket, 's', 3 * PATH_MAX - 1);
    socket[0] = '/', socket[PATH_MAX - 1] = '\0';
    struct workload_cmdline c;
    /* two paths of PATH_MAX - 1 bytes (what struct target holds): they fit */
    assert_int_equal(workload_cmdline(&c, &cfg, WORKLOAD_RUN, 30, lua, socket), 0);
    assert_int_equal(strlen(c.argv[1]), PATH_MAX - 1);
    /* a 3000-byte socket (the reply issue 18 names) with a short script: fits */
    socket[3000] = '\0';
    assert_int_equal(workload_cmdline(&c, &cfg, WORKLOAD_PREPARE, 0, "/x.lua", socket), 0);
    /* longer than the store: refused, nothing half-made */
    socket[3000] = 's', socket[PATH_MAX - 1] = 's', socket[3 * PATH_MAX - 1] = '\0';
    assert_int_equal(workload_cmdline(&c, &cfg, WORKLOAD_RUN, 30, lua, socket), -1);
    assert_null(c.argv[0]);
    free(lua);
    free(socket);
}

/* two guests, 10 one-second intervals each, the second starting 0.5 s later */
static void common_window(void **state)
{
    (void)state;
    struct sysbench_interval a[10], b[10];
    for (int i = 0; i < 10; i++) {
        memset(&a[i], 0, sizeof(a[i]));
        memset(&b[i], 0, sizeof(b[i]));
        a[i].t = b[i].t = i + 1;
        a[i].tps = 100;          /* steady */
        b[i].tps = 10 * (i + 1); /* 10 .. 100 */
    }
    struct window_guest g[2] = {{1000.0, a, 10}, {1000.5, b, 10}};
    struct window_result w;
    assert_int_equal(window_common(g, 2, 1, 10, &w), 0);
    assert_true(fabs(w.skew_s - 0.5) < 1e-9);
    assert_true(fabs(w.window_s - 9.5) < 1e-9);   /* [1000.5, 1010] */
    /* a: intervals ending 1002..1010 (9 of them); b: ending 1001.5..1009.5 (9) */
    assert_int_equal(w.intervals, 18);
    assert_true(fabs(w.tps_sum - (100 + 50)) < 1e-9); /* b: mean of 10..90 */

    /* one guest alone: its whole run */
    assert_int_equal(window_common(g, 1, 1, 10, &w), 0);
    assert_true(fabs(w.tps_sum - 100) < 1e-9);
    assert_true(w.skew_s == 0 && fabs(w.window_s - 10) < 1e-9);

    /* guests that never overlapped */
    struct window_guest apart[2] = {{1000.0, a, 10}, {1020.0, b, 10}};
    assert_int_equal(window_common(apart, 2, 1, 10, &w), -1);
}

static void drift(void **state)
{
    (void)state;
    struct sysbench_interval iv[10];
    memset(iv, 0, sizeof(iv));
    for (int i = 0; i < 10; i++) {
        iv[i].t = i + 1;
        iv[i].tps = 100;
    }
    assert_true(fabs(window_drift(iv, 10)) < 1e-12);
    for (int i = 0; i < 10; i++)
        iv[i].tps = 50 + 10 * i; /* 50..140, mean 95, line rises 90 over 9 s */
    assert_true(fabs(window_drift(iv, 10) - 90.0 / 95.0) < 1e-9);
    assert_true(window_drift(iv, 2) == 0);
}

/* Batch means: the CI of the mean TPS, the drift's own CI, and duration =
 * auto's length, on series whose answers are worked out by hand. */
static void batch_means(void **state)
{
    (void)state;
    struct sysbench_interval iv[60];
    memset(iv, 0, sizeof(iv));
    /* 20 intervals of 1 s alternating 4 and 6 tx/s: 4 batches of 5, means
     * 5.2, 4.8, 5.2, 4.8 (sd 0.2309): half-width t(0.975, 3) 3.1824 x 0.2309
     * / 2 = 0.3675 */
    for (int i = 0; i < 20; i++) {
        iv[i].t = i + 1;
        iv[i].tps = i % 2 ? 6 : 4;
    }
    assert_int_equal(window_batch_len(1), 5);
    assert_int_equal(window_batch_len(10), 1);
    double mean, half = window_ci_half(iv, 20, 5, &mean);
    assert_true(fabs(mean - 5) < 1e-12);
    assert_true(fabs(half - 3.182446305 * sqrt(0.16 / 3) / 2) < 1e-6);
    assert_true(isnan(window_ci_half(iv, 14, 5, &mean))); /* 2 batches */
    /* no trend: the drift (+0.03, the noise's) lies inside its CI */
    double dhalf, d = window_drift_ci(iv, 20, 5, &dhalf);
    assert_true(fabs(d) < dhalf);
    /* a steady rise of 50 % over 60 s with the same noise: far beyond it */
    for (int i = 0; i < 60; i++) {
        iv[i].t = i + 1;
        iv[i].tps = 4 + 4.0 * i / 59 + (i % 2 ? 1 : -1);
    }
    d = window_drift_ci(iv, 60, 5, &dhalf);
    assert_true(d > 0.5 && d > 5 * dhalf); /* 0.683 against +-0.079 */
    assert_string_equal(steady_label(d, dhalf), "no");
    /* steady only where shown: a drift of 1 % with a CI of +-3 % is steady;
     * +11.6 % with a CI of +-50 % rejects nothing and shows nothing: not
     * shown -- it was "steady" before; +-4.5 % around 1 % reaches 5.5 % */
    assert_string_equal(steady_label(0.01, 0.03), "yes");
    assert_string_equal(steady_label(0.116, 0.50), "unshown");
    assert_string_equal(steady_label(0.01, 0.045), "unshown");
    assert_string_equal(steady_label(0.03, NAN), "unshown"); /* too short: no CI */
    assert_string_equal(steady_label(0.2, NAN), "no");
    /* duration = auto: two targets like the first series; each batch sd
     * 0.2309, the arm's sum 10: the fewest k batches with t(k-1) x sqrt(2 x
     * 0.0533 / k) <= 0.05 x 10: k = 4 gives t(3) 3.182 x 0.1633 = 0.520, k =
     * 5 gives t(4) 2.776 x 0.1461 = 0.406: 5 x 5 s = 25 s, at least 30 */
    for (int i = 0; i < 20; i++) {
        iv[i].t = i + 1;
        iv[i].tps = i % 2 ? 6 : 4;
    }
    const struct sysbench_interval *both[] = {iv, iv};
    size_t n[] = {20, 20};
    assert_true(fabs(window_duration_for(both, n, 2, 5, 0.05, 30, 600) - 30) < 1e-9);
    assert_true(fabs(window_duration_for(both, n, 2, 5, 0.05, 10, 600) - 25) < 1e-9);
    /* a 1 % target needs (t x 0.3266 / 0.1)^2 batches: about 44 (t 2.017),
     * so about 220 s; capped at 120 */
    double s1 = window_duration_for(both, n, 2, 5, 0.01, 10, 600);
    assert_true(s1 >= 200 && s1 <= 250);
    assert_true(fabs(window_duration_for(both, n, 2, 5, 0.01, 10, 120) - 120) < 1e-9);
    /* a pilot of fewer than 3 batches: the cap */
    size_t short_n[] = {12, 20};
    assert_true(fabs(window_duration_for(both, short_n, 2, 5, 0.05, 30, 600) - 600) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_read_write),  cmocka_unit_test(guest_under_tcg),
        cmocka_unit_test(incomplete_output), cmocka_unit_test(command_lines),
        cmocka_unit_test(command_line_too_long),
        cmocka_unit_test(common_window),    cmocka_unit_test(drift),
        cmocka_unit_test(batch_means),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
