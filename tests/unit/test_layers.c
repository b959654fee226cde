/* test_layers.c: the parsers of the per-layer counters (layers.h) on text
 * captured from real /proc files (tests/data/procfs/, this development
 * machine), and the rule that an absent counter gives no sample. */
#include "testutil.h"

#include "probes/layers.h"

#include <math.h>

static char *data(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/procfs/%s", TESTS_DATA_DIR, name);
    char *text = test_read_file(path);
    assert_non_null(text);
    return text;
}

static void diskstats(void **state)
{
    (void)state;
    /* a 5.5+ kernel's line: 20 fields, flushes last */
    const char *line = " 254       0 vda 138704 22471 13010548 41229 548881 30759 36409592 164817 0 "
                       "46860 222443 74769 61 10183856 5980 105704 10415\n";
    struct diskstat d;
    assert_int_equal(procfs_parse_diskstats(line, "vda", 0, 0, &d), 0);
    assert_true(d.reads == 138704 && d.read_sectors == 13010548 && d.read_ms == 41229);
    assert_true(d.writes == 548881 && d.write_sectors == 36409592 && d.write_ms == 164817);
    assert_true(d.flushes == 105704 && d.flush_ms == 10415);
    assert_int_equal(procfs_parse_diskstats(line, NULL, 254, 0, &d), 0);
    assert_int_equal(procfs_parse_diskstats(line, "vdb", 0, 0, &d), -1);
    assert_int_equal(procfs_parse_diskstats(line, NULL, 254, 1, &d), -1);
    /* an old kernel's 14 fields: no flush counters -- absent, not 0 */
    assert_int_equal(procfs_parse_diskstats(" 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", "sda", 0, 0, &d), 0);
    assert_true(isnan(d.flushes) && isnan(d.flush_ms));
    assert_int_equal(procfs_parse_diskstats(" 8 0 sda 1 2 3\n", "sda", 0, 0, &d), -1);

    char *text = data("host-diskstats.txt");
    assert_int_equal(procfs_parse_diskstats(text, "vda", 0, 0, &d), 0);
    assert_true(d.reads > 0 && d.major == 254);
    free(text);
}

static void meminfo_fincore(void **state)
{
    (void)state;
    char *text = data("host-meminfo.txt");
    double v = -1;
    assert_int_equal(procfs_parse_meminfo(text, "Cached", &v), 0);
    assert_true(v > 0 && fmod(v, 1024) == 0);
    double swap;
    /* "SwapCached" must not be taken for "Cached" */
    assert_int_equal(procfs_parse_meminfo("SwapCached: 7 kB\nCached: 3 kB\n", "Cached", &swap), 0);
    assert_true(swap == 3072);
    assert_int_equal(procfs_parse_meminfo("Buffers: 1 kB\n", "Cached", &v), -1);
    free(text);

    text = data("fincore.txt");
    assert_int_equal(layers_parse_fincore(text, &v), 0);
    assert_true(v == 16777216.0 + 8392704.0);
    free(text);
    assert_int_equal(layers_parse_fincore("fincore: cannot open x\n", &v), -1);
}

static void deltas_and_absence(void **state)
{
    (void)state;
    struct layer_snapshot a = {0}, b = {0};
    layers_set(&a, "guest", "guest_disk_reads", "count", false, 100);
    layers_set(&a, "guest", "guest_cached_bytes", "bytes", true, 5);
    layers_set(&a, "innodb", "innodb_data_reads", "count", false, NAN); /* not read */
    assert_int_equal(a.n, 2);
    assert_true(isnan(layers_get(&a, "innodb_data_reads")));
    layers_set(&b, "guest", "guest_disk_reads", "count", false, 160);
    layers_set(&b, "guest", "guest_cached_bytes", "bytes", true, 9);
    layers_set(&b, "innodb", "innodb_data_reads", "count", false, 40); /* after only */
    layers_set(&b, "guest", "guest_disk_reads", "count", false, 170);   /* replaced */
    struct diskstat d0 = {.reads = 10, .flushes = NAN, .flush_ms = NAN}, d1 = {.reads = 15, .flushes = NAN, .flush_ms = NAN};
    snprintf(d0.name, sizeof(d0.name), "vda");
    snprintf(d1.name, sizeof(d1.name), "vda");
    layers_add_diskstat(&a, "host", "hostdev", &d0);
    layers_add_diskstat(&b, "host", "hostdev", &d1);
    assert_int_equal(b.n, 9); /* 3 + hostdev's 6 (no flush counters on this kernel) */
    assert_true(layers_get(&b, "guest_disk_reads") == 170);

    char dir[] = "/tmp/vbed-test-layers-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct samples *s = samples_open(dir);
    json_object *labels = json_object_new_object();
    samples_begin_run(s, labels);
    json_object_put(labels);
    layers_samples(&a, &b, s, 2);
    assert_int_equal(samples_end_run(s), 0);
    samples_close(s);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/samples.jsonl", dir);
    char *text = test_read_file(path);
    assert_non_null(text);
    /* the counter as a delta, the gauge as its value after; the counter read
     * once only gives no sample at all */
    assert_non_null(strstr(text, "\"metric\":\"guest_disk_reads\",\"value\":70"));
    assert_non_null(strstr(text, "\"metric\":\"guest_cached_bytes\",\"value\":9"));
    assert_null(strstr(text, "innodb_data_reads"));
    assert_non_null(strstr(text, "\"layer\":\"guest\""));
    /* the host device's counters name the device */
    assert_non_null(strstr(text, "\"metric\":\"hostdev_reads\",\"value\":5"));
    assert_non_null(strstr(text, "\"device\":\"vda\""));
    assert_null(strstr(text, "hostdev_flushes"));
    free(text);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diskstats),
        cmocka_unit_test(meminfo_fincore),
        cmocka_unit_test(deltas_and_absence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
