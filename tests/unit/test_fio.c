/* test_fio.c: fio's command line and its JSON report (workloads/fio.h) on
 * real fio 3.33 outputs captured on the development machine
 * (tests/data/fio/), the fixed tar_extract archive (workloads/archive.h),
 * and the workload registry. */
#include "testutil.h"
#include "scenario/keys.h"
#include "image/archive.h"
#include "util/shquote.h"
#include "workloads/fio.h"
#include "workloads/workload.h"

#include <json-c/json.h>
#include <math.h>
#include <sys/stat.h>

static struct fio_result parse_fixture(const char *name, int want_rc, char *err, size_t errlen)
{
    char path[PATH_MAX], rel[128];
    snprintf(rel, sizeof(rel), "fio/%s", name);
    test_data_path(path, sizeof(path), rel);
    char *text = test_read_file(path);
    assert_non_null(text);
    struct fio_result r;
    assert_int_equal(fio_parse(text, &r, err, errlen), want_rc);
    free(text);
    return r;
}

static void assert_rel_near(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12)
        fail_msg("%.12g is not %.12g", got, want);
}

static void real_outputs(void **state)
{
    (void)state;
    char err[256];
    /* 64 MiB written in 1 MiB blocks through the page cache, fsync at the end */
    struct fio_result r = parse_fixture("seq-write-1M-buffered-64M.json", 0, err, sizeof(err));
    assert_true(r.write);
    assert_int_equal(r.io_bytes, 67108864);
    assert_rel_near(r.mb_s, 1766.022736);
    assert_rel_near(r.runtime_s, 0.038);
    assert_rel_near(r.iops, 1684.210526);
    assert_rel_near(r.lat_mean_ms, 0.1010220625);
    assert_true(r.have_percentiles);
    assert_rel_near(r.clat_p50_ms, 0.091648);
    assert_rel_near(r.clat_p95_ms, 0.124416);
    assert_rel_near(r.clat_p99_ms, 0.199680);
    assert_rel_near(r.clat_p999_ms, 0.199680);
    assert_string_equal(r.version, "fio-3.33");
    /* 512 MiB: the final fsync is in the runtime (687 ms against 67 ms without) */
    r = parse_fixture("seq-write-1M-buffered-512M.json", 0, err, sizeof(err));
    assert_int_equal(r.io_bytes, 536870912);
    assert_rel_near(r.mb_s, 781.471487);
    assert_rel_near(r.runtime_s, 0.687);
    /* O_DIRECT */
    r = parse_fixture("seq-write-1M-direct-64M.json", 0, err, sizeof(err));
    assert_true(r.write);
    assert_rel_near(r.mb_s, 2917.776695);
    assert_rel_near(r.clat_p999_ms, 0.724992);
    /* reads */
    r = parse_fixture("seq-read-1M-buffered-64M.json", 0, err, sizeof(err));
    assert_false(r.write);
    assert_int_equal(r.io_bytes, 67108864);
    assert_rel_near(r.mb_s, 2684.354560);
    assert_rel_near(r.clat_p95_ms, 2.088960);
    r = parse_fixture("seq-read-4k-direct-16M.json", 0, err, sizeof(err));
    assert_false(r.write);
    assert_int_equal(r.io_bytes, 16777216);
    assert_rel_near(r.mb_s, 75.234152);
    assert_rel_near(r.iops, 18367.713004);
    assert_rel_near(r.clat_p99_ms, 0.193536);
    /* its thread's CPU: sys_cpu 32.432432 % of job_runtime 222 ms */
    assert_rel_near(r.cpu_ms, 0.32432432 * 222);

    /* the I/O probe's direct page writes in a guest under TCG (1000 of 16
     * KiB): usr_cpu 5.236486 + sys_cpu 70.777027 % of 592 ms */
    r = parse_fixture("randwrite-16k-direct-guest.json", 0, err, sizeof(err));
    assert_true(r.write);
    assert_int_equal(r.io_bytes, 16384000);
    assert_rel_near(r.lat_mean_ms, 0.566111469);
    assert_rel_near(r.cpu_ms, (0.05236486 + 0.70777027) * 592);
}

/* fio could not open its file (ENOENT): its JSON says error 2 */
static void error_report(void **state)
{
    (void)state;
    char err[256];
    parse_fixture("seq-write-error.json", -1, err, sizeof(err));
    assert_string_equal(err, "fio reported error 2 (No such file or directory)");
}

static void malformed(void **state)
{
    (void)state;
    /* fuzz_fio found an error code that is no errno (undefined behaviour in
     * the int conversion for strerror): its input, kept as a reproducer */
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), "../fuzz/crashes/fio-huge-error");
    char *crash = test_read_file(path);
    assert_non_null(crash);
    struct fio_result cr;
    char cerr[256];
    assert_int_equal(fio_parse(crash, &cr, cerr, sizeof(cerr)), -1);
    assert_string_equal(cerr, "fio reported error 1.84467e+19");
    free(crash);
    static const struct {
        const char *text, *err;
    } cases[] = {
        {"", "no JSON report in fio's output"},
        {"fio: some warning\n", "no JSON report in fio's output"},
        {"{\n \"jobs\" : [", "fio's JSON report is malformed: continue"},
        {"{\"jobs\": []}", "fio's JSON report does not hold exactly one job"},
        {"{\"jobs\": [1]}", "fio's job is not an object"},
        {"{\"jobs\": [{}]}", "fio's job has no error field"},
        {"{\"jobs\": [{\"error\": 0}]}", "fio's job lacks its read or write figures"},
        {"{\"jobs\": [{\"error\": 0, \"read\": {\"io_bytes\": 0}, \"write\": {\"io_bytes\": 0}}]}",
         "fio moved no bytes"},
        {"{\"jobs\": [{\"error\": 0, \"read\": {\"io_bytes\": 0}, \"write\": {\"io_bytes\": -5}}]}",
         "fio's io_bytes is missing or impossible"},
        {"{\"jobs\": [{\"error\": 0, \"read\": {\"io_bytes\": 0}, \"write\": {\"io_bytes\": 5, "
         "\"runtime\": 1, \"bw_bytes\": 1e300, \"iops\": 1, \"lat_ns\": {\"mean\": 1}}}]}",
         "fio's write figures are missing or impossible"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct fio_result r;
        char err[256] = "";
        assert_int_equal(fio_parse(cases[i].text, &r, err, sizeof(err)), -1);
        if (strcmp(err, cases[i].err) != 0)
            fail_msg("case %zu: '%s', expected '%s'", i, err, cases[i].err);
    }
    /* fio's warnings before its report (stderr appended after stdout by
     * the agent, or interleaved on the host) do not hide it */
    test_data_path(path, sizeof(path), "fio/seq-read-4k-direct-16M.json");
    char *json = test_read_file(path);
    char *text;
    assert_true(asprintf(&text, "fio: warning: something\n%s\nfio: trailing text\n", json) > 0);
    struct fio_result r;
    char err[256];
    assert_int_equal(fio_parse(text, &r, err, sizeof(err)), 0);
    assert_int_equal(r.io_bytes, 16777216);
    free(text);
    free(json);
}

static void cmdline(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.io_size = 64LL << 20;
    cfg.block_size = 1 << 20;
    cfg.direct = 1;
    struct fio_cmdline c;
    fio_cmdline(&c, &cfg, true, "/srv/vbed-io/vbed-fio.dat");
    static const char *const want_w[] = {"fio", "--name=vbed", "--filename=/srv/vbed-io/vbed-fio.dat",
                                         "--rw=write", "--bs=1048576", "--size=67108864",
                                         "--ioengine=psync", "--direct=1", "--end_fsync=1",
                                         "--output-format=json", NULL};
    for (size_t i = 0; want_w[i]; i++)
        assert_string_equal(c.argv[i], want_w[i]);
    assert_null(c.argv[10]);
    cfg.direct = 0;
    fio_cmdline(&c, &cfg, false, "/x");
    static const char *const want_r[] = {"fio", "--name=vbed", "--filename=/x", "--rw=read",
                                         "--bs=1048576", "--size=67108864", "--ioengine=psync",
                                         "--direct=0", "--output-format=json", NULL};
    for (size_t i = 0; want_r[i]; i++)
        assert_string_equal(c.argv[i], want_r[i]);
    assert_null(c.argv[9]);
    /* the read probe's (workloads/readcost.h): a cached job must not drop
     * the page cache it is to read from (fio invalidates by default), and
     * both jobs read the same offsets */
    assert_int_equal(fio_randread_cmdline(&c, "/var/lib/mysql/sbtest/sbtest1.ibd", 16384, false, 300), 0);
    static const char *const want_p[] = {
        "fio",          "--name=vbed", "--filename=/var/lib/mysql/sbtest/sbtest1.ibd", "--readonly",
        "--rw=randread", "--bs=16384", "--number_ios=300", "--ioengine=psync", "--direct=0",
        "--invalidate=0", "--randrepeat=1", "--output-format=json", NULL};
    for (size_t i = 0; want_p[i]; i++)
        assert_string_equal(c.argv[i], want_p[i]);
    assert_null(c.argv[12]);
    assert_int_equal(fio_randread_cmdline(&c, "/f", 8192, true, 5), 0);
    assert_string_equal(c.argv[8], "--direct=1");
    char longname[6000];
    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    assert_int_equal(fio_randread_cmdline(&c, longname, 8192, true, 5), -1);
}

/* the same bytes every time, 900 files, the documented size */
static void archive_fixed(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-archive-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[PATH_MAX], b[PATH_MAX], cmd[PATH_MAX * 2 + 64];
    snprintf(a, sizeof(a), "%s/a.tar", dir);
    snprintf(b, sizeof(b), "%s/b.tar", dir);
    long long size_a = 0, size_b = 0;
    assert_int_equal(archive_write_fixed(a, &size_a), 0);
    assert_int_equal(archive_write_fixed(b, &size_b), 0);
    assert_int_equal(size_a, size_b);
    assert_true(size_a > archive_content_bytes());
    assert_int_equal(archive_content_bytes(), 68462110);
    snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
    assert_int_equal(system(cmd), 0);
    /* GNU tar reads it: 900 files and 31 directories */
    snprintf(cmd, sizeof(cmd), "test \"$(tar -tf %s | wc -l)\" = %d", a,
             ARCHIVE_FILES + ARCHIVE_DIRS + 1);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void registry(void **state)
{
    (void)state;
    for (int w = WL_OLTP_READ_ONLY; w <= WL_OLTP_POINT_SELECT; w++) {
        assert_ptr_equal(workload_ops_for(w), &workload_sysbench_oltp);
        assert_false(key_workload_is_io(w));
    }
    assert_string_equal(workload_ops_for(WL_SEQ_WRITE)->name, "seq_write");
    assert_string_equal(workload_ops_for(WL_SEQ_READ)->name, "seq_read");
    assert_string_equal(workload_ops_for(WL_TAR_EXTRACT)->name, "tar_extract");
    assert_string_equal(workload_sysbench_oltp.headline, "tps_arm");
    assert_string_equal(workload_seq_write.headline_unit, "MB/s");
    for (int w = WL_SEQ_WRITE; w <= WL_TAR_EXTRACT; w++)
        assert_true(key_workload_is_io(w));
    /* every value of the key has exactly one implementation, registered by
     * its own file; every implementation has every phase but the optional
     * warm-up, a headline and its metrics */
    const struct key_def *k = key_find("workload");
    for (int w = 0; k->choices[w]; w++) {
        int found = 0;
        for (size_t i = 0; i < workload_count(); i++)
            for (const char *const *v = workload_at(i)->values; *v; v++)
                found += strcmp(*v, k->choices[w]) == 0;
        if (found != 1)
            fail_msg("workload = %s has %d implementations", k->choices[w], found);
        assert_non_null(workload_ops_for(w));
    }
    assert_true(workload_count() >= 4);
    for (size_t i = 0; i < workload_count(); i++) {
        const struct workload_ops *o = workload_at(i);
        assert_non_null(o->prepare);
        assert_non_null(o->measure);
        assert_non_null(o->record);
        assert_non_null(o->headline);
        assert_non_null(o->headline_unit);
        assert_non_null(o->metrics[0].name);
        assert_non_null(o->parse);
        /* nothing is no output of any program */
        double f;
        char err[256];
        assert_int_equal(o->parse("", &f, err, sizeof(err)), -1);
        assert_int_equal(o->parse("garbage\n", &f, err, sizeof(err)), -1);
    }
}

/* each workload's parse reads its program's real output as the figure its
 * headline adds up */
static void parse_ops(void **state)
{
    (void)state;
    static const struct {
        int workload;
        const char *file;
    } cases[] = {
        {WL_SEQ_WRITE, "fio/seq-write-1M-buffered-64M.json"},
        {WL_OLTP_READ_WRITE, "sysbench/guest-tcg-read-write.out"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char path[PATH_MAX];
        test_data_path(path, sizeof(path), cases[i].file);
        char *text = test_read_file(path);
        assert_non_null(text);
        double f = -1;
        char err[256];
        assert_int_equal(workload_ops_for(cases[i].workload)->parse(text, &f, err, sizeof(err)), 0);
        assert_true(f > 0 && isfinite(f));
        free(text);
    }
    /* mariadb-slap: 2 clients x 100 queries in 0.067 s on average */
    const struct key_def *k = key_find("workload");
    int slap = -1;
    for (int w = 0; k->choices[w]; w++)
        if (!strcmp(k->choices[w], "mariadb_slap"))
            slap = w;
    assert_true(slap >= 0);
    const struct workload_ops *o = workload_ops_for(slap);
    assert_string_equal(o->headline, "qps_arm");
    assert_string_equal(o->headline_unit, "q/s");
    assert_true(o->needs_db);
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), "slap/mixed-2-clients.out");
    char *slap_out = test_read_file(path);
    assert_non_null(slap_out);
    double q;
    char e[256];
    assert_int_equal(o->parse(slap_out, &q, e, sizeof(e)), 0);
    assert_true(fabs(q - 2 * 100 / 0.067) < 1e-6);
    /* a report that does not add up, or a line missing, is refused */
    char *bad = strdup(slap_out);
    *strstr(bad, "Minimum number of seconds to run all queries: 0.062") = 'X';
    assert_int_equal(o->parse(bad, &q, e, sizeof(e)), -1);
    free(bad);
    bad = strdup(slap_out);
    memcpy(strstr(bad, "0.072"), "0.001", 5); /* max below the average */
    assert_int_equal(o->parse(bad, &q, e, sizeof(e)), -1);
    free(bad);
    free(slap_out);
    /* tar: 68462110 bytes in 3.5 s */
    double f;
    char err[256];
    assert_int_equal(workload_ops_for(WL_TAR_EXTRACT)->parse("x\nvbed_tar_seconds 100.0 103.5\n", &f, err,
                                                             sizeof(err)),
                     0);
    assert_true(fabs(f - 68462110 / 1e6 / 3.5) < 1e-6);
    assert_int_equal(workload_ops_for(WL_TAR_EXTRACT)->parse("vbed_tar_seconds 103.5 100.0\n", &f, err,
                                                             sizeof(err)),
                     -1);
}

/* the I/O probe's writes (workloads/readcost.h): laid out once, then
 * random writes on the same offsets without an fsync, the file removed by
 * the last job */
static void randwrite_cmdline(void **state)
{
    (void)state;
    struct fio_cmdline c;
    assert_int_equal(fio_randwrite_cmdline(&c, "/d/f", 16384, 16 << 20, true, 1000, false), 0);
    static const char *const want[] = {
        "fio", "--name=vbed", "--filename=/d/f", "--rw=randwrite", "--bs=16384", "--size=16777216",
        "--number_ios=1000", "--ioengine=psync", "--direct=1", "--randrepeat=1",
        "--output-format=json", NULL};
    for (size_t i = 0; want[i]; i++)
        assert_string_equal(c.argv[i], want[i]);
    assert_null(c.argv[11]);
    assert_int_equal(fio_randwrite_cmdline(&c, "/d/f", 16384, 16 << 20, false, 0, true), 0);
    assert_string_equal(c.argv[6], "--create_only=1");
    assert_string_equal(c.argv[8], "--direct=0");
    assert_string_equal(c.argv[10], "--unlink=1");
    for (size_t i = 0; c.argv[i]; i++)
        assert_null(strstr(c.argv[i], "fsync"));
}

/* fio's output of argv, run by this machine's fio into dir/out (read back,
 * malloc'd); its exit status 0 asserted */
static char *run_fio(const char *const argv[], const char *dir)
{
    char *cmd = shquote_argv(argv), *line = NULL, out[128];
    snprintf(out, sizeof(out), "%s/out", dir);
    assert_true(asprintf(&line, "%s > %s", cmd, out) > 0);
    assert_int_equal(system(line), 0);
    free(cmd);
    free(line);
    char *text = test_read_file(out);
    assert_non_null(text);
    assert_int_equal(unlink(out), 0);
    return text;
}

/* The I/O probe's write jobs run for real: laid out, then 200 writes
 * that parse as writes of 200 blocks with their thread's CPU, the file
 * removed by the job that says so. The job takes 10-40 ms here, and the
 * kernel accounts CPU in ticks: 3 in 20 such jobs reported usr + sys above
 * 100 % of one thread, which the parser calls unknown (NAN), as it must. */
static void randwrite_for_real(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-fio-XXXXXX", file[64];
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/f", dir);
    struct fio_cmdline c;
    struct stat st;
    assert_int_equal(fio_randwrite_cmdline(&c, file, 4096, 1 << 20, false, 0, false), 0);
    free(run_fio(c.argv, dir));
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_size, 1 << 20);
    assert_int_equal(fio_randwrite_cmdline(&c, file, 4096, 1 << 20, false, 200, true), 0);
    char *text = run_fio(c.argv, dir), err[256];
    struct fio_result r;
    assert_int_equal(fio_parse(text, &r, err, sizeof(err)), 0);
    json_object *all = json_tokener_parse(text), *jobs, *job, *usr, *sys;
    assert_true(json_object_object_get_ex(all, "jobs", &jobs));
    job = json_object_array_get_idx(jobs, 0);
    assert_true(json_object_object_get_ex(job, "usr_cpu", &usr) &&
                json_object_object_get_ex(job, "sys_cpu", &sys));
    double share = json_object_get_double(usr) + json_object_get_double(sys);
    json_object_put(all);
    free(text);
    assert_true(r.write);
    assert_int_equal(r.io_bytes, 200 * 4096);
    if (share <= 100.5) {
        assert_true(isfinite(r.cpu_ms) && r.cpu_ms >= 0);
        assert_true(r.cpu_ms <= 1000 * r.runtime_s + 1);
    } else {
        assert_true(isnan(r.cpu_ms));
    }
    assert_int_equal(stat(file, &st), -1); /* --unlink=1 */
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_outputs), cmocka_unit_test(error_report), cmocka_unit_test(malformed),
        cmocka_unit_test(cmdline),      cmocka_unit_test(randwrite_cmdline),
        cmocka_unit_test(randwrite_for_real),
        cmocka_unit_test(archive_fixed), cmocka_unit_test(registry), cmocka_unit_test(parse_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
