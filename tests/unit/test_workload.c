/* test_workload.c: sysbench command lines (golden) and sysbench's output,
 * parsed from outputs captured from real runs (tests/data/sysbench/), and
 * the common measure window of guests measured together. */
#include "testutil.h"
#include "scenario/keys.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_read_write),  cmocka_unit_test(guest_under_tcg),
        cmocka_unit_test(incomplete_output), cmocka_unit_test(command_lines),
        cmocka_unit_test(command_line_too_long),
        cmocka_unit_test(common_window),    cmocka_unit_test(drift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
