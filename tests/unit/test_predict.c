/* test_predict.c: a tuned guest arm's TPS predicted from the untuned guest's
 * budget and the tuned arm's configuration (predict.h), on a hand-made
 * results directory whose figures are worked out below: the tuned arm
 * (O_DIRECT, cache=none, the same 8 MiB pool) reads from the device; the
 * tuned_memory arm (buffer_pool = auto) gets a pool that holds the data.
 * An arm with another number of guests is not predicted. Each tuned arm
 * also splits against the untuned guest (what its tuning won or lost). */
#include "testutil.h"
#include "report/format.h"
#include "model/predict.h"
#include "report/report.h"
#include "report/table.h"

#include <math.h>

static const char meta[] =
    "{\"status\": \"complete\", \"accel\": \"tcg\", \"scenario\": {\"name\": \"predict\"},\n"
    " \"variants\": [{\"index\": 1, \"label\": \"one\"}],\n"
    " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}, {\"name\": \"guest\", \"kind\": \"guest\"},\n"
    "          {\"name\": \"tuned\", \"kind\": \"guest\"}, {\"name\": \"tuned_memory\", \"kind\": "
    "\"guest\"},\n"
    "          {\"name\": \"one\", \"kind\": \"guest\"}],\n"
    " \"runs\": [\n"
    "  {\"seq\": 1, \"arm\": \"host\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"compression\": \"row-zlib\", \"buffer_pool\": \"8M\", \"memory\": \"1G\"}},\n"
    "  {\"seq\": 2, \"arm\": \"guest\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"compression\": \"row-zlib\", \"guests\": \"2\", \"buffer_pool\": \"8M\", \"memory\": "
    "\"1G\",\n"
    "              \"disk_cache\": \"writeback\", \"flush_method\": \"fsync\"}},\n"
    "  {\"seq\": 3, \"arm\": \"tuned\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"compression\": \"row-zlib\", \"guests\": \"2\", \"buffer_pool\": \"8M\", \"memory\": "
    "\"1G\",\n"
    "              \"disk_cache\": \"none\", \"flush_method\": \"O_DIRECT\"}},\n"
    "  {\"seq\": 4, \"arm\": \"tuned_memory\", \"repeat\": 1, \"variants\": [1], \"status\": "
    "\"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"compression\": \"row-zlib\", \"guests\": \"2\", \"buffer_pool\": \"auto\", \"memory\": "
    "\"1G\",\n"
    "              \"disk_cache\": \"none\", \"flush_method\": \"O_DIRECT\"}},\n"
    "  {\"seq\": 5, \"arm\": \"one\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"compression\": \"row-zlib\", \"guests\": \"1\", \"buffer_pool\": \"8M\", \"memory\": "
    "\"1G\",\n"
    "              \"disk_cache\": \"none\", \"flush_method\": \"O_DIRECT\"}}]}\n";

static void sample(FILE *f, const char *metric, double value, const char *arm, int seq, int guest,
                   const char *layer)
{
    fprintf(f,
            "{\"metric\":\"%s\",\"value\":%.10g,\"labels\":{\"arm\":\"%s\",\"seq\":%d,"
            "\"guest\":%d,\"variants\":[1]%s%s%s}}\n",
            metric, value, arm, seq, guest, layer ? ",\"layer\":\"" : "", layer ? layer : "",
            layer ? "\"" : "");
}

/* A guest's vCPU time and its wait for a host CPU (libvirt's), and its
 * own user and system CPU (its /proc/stat), over the measure phase */
static void guest_cpu(FILE *f, const char *arm, int seq, int guest, double vcpu, double delay,
                      double user, double system)
{
    sample(f, "qemu_vcpu_s", vcpu, arm, seq, guest, "hypervisor");
    sample(f, "qemu_vcpu_delay_s", delay, arm, seq, guest, "hypervisor");
    sample(f, "guest_cpu_user_s", user, arm, seq, guest, "guest");
    sample(f, "guest_cpu_system_s", system, arm, seq, guest, "guest");
}

/* A target whose budget closes: T transactions in 30 s, one thread; its
 * chain over 20 s, on CPU the whole statement time but its reads'. */
static void target(FILE *f, const char *arm, int seq, int guest, double T, double reads_20s,
                   double read_wait_20s)
{
    sample(f, "transactions", T, arm, seq, guest, "workload");
    sample(f, "measure_s", 30, arm, seq, guest, "workload");
    sample(f, "chain_interval_s", 20, arm, seq, guest, "workload");
    sample(f, "chain_client_threads", 1, arm, seq, guest, "workload");
    sample(f, "chain_server_threads", 1, arm, seq, guest, "workload");
    sample(f, "chain_client_cpu_s", 1.0, arm, seq, guest, "workload");
    sample(f, "chain_server_cpu_s", 18 - read_wait_20s, arm, seq, guest, "workload");
    sample(f, "chain_server_runq_s", 0, arm, seq, guest, "workload");
    sample(f, "chain_server_blkio_s", read_wait_20s, arm, seq, guest, "workload");
    sample(f, "ps_interval_s", 20, arm, seq, guest, "innodb");
    sample(f, "ps_threads", 1, arm, seq, guest, "innodb");
    sample(f, "ps_statement_s", 18, arm, seq, guest, "innodb");
    sample(f, "ps_read_wait_s", read_wait_20s, arm, seq, guest, "innodb");
    sample(f, "ps_reads", reads_20s, arm, seq, guest, "innodb");
    sample(f, "ps_commit_s", 0, arm, seq, guest, "innodb");
    sample(f, "ps_synch_wait_s", 0, arm, seq, guest, "innodb");
    sample(f, "working_set_bytes", 16 << 20, arm, seq, guest, NULL);
    sample(f, "guest_memory_bytes", 1 << 30, arm, seq, guest, NULL);
    sample(f, "memory_overhead_bytes", 180 << 20, arm, seq, guest, NULL);
}

/* The untuned guest (two alike): T 300 in 30 s, w = 100 ms. Its reads: 2000
 * in 20 s, 10 per transaction, 4.0 s of them, 20 ms per transaction (2 ms a
 * read, mostly the guest page cache); its 8 MiB pool against a 16 MiB
 * working set misses half. Its layers: guest block reads 5 per transaction
 * at 3 ms, QEMU's 5 at 2 ms, the host device's (shared by the two guests:
 * 300 reads, 1500 ms) 0.5 per transaction at 5 ms.
 *
 * tuned (O_DIRECT, cache=none, 8 MiB): 10 reads per transaction at 5 + (3 -
 * 2) = 6 ms: w = 100 - 20 + 60 = 140 ms, 7.142857 TPS per guest; measured
 * 14.0 for 2 guests: 7.0, error -2.04 %: it holds.
 * Its decompressions (INNODB_CMP, 3 s for 300 transactions): 10 ms per
 * transaction, all CPU (no run queue) -- one per miss.
 *
 * tuned (O_DIRECT, cache=none, 8 MiB): 10 reads per transaction at 5 + (3 -
 * 2) = 6 ms, as many decompressions: w = 100 - 20 + 60 = 140 ms, 7.142857
 * TPS per guest; measured 14.0 for 2 guests: 7.0, error -2.04 %: it holds.
 * tuned_memory (auto): 1024 - 180 - 13 - 51.2 = 779 MiB, more than the
 * working set: no reads, no decompressions, w = 100 - 20 - 10 = 70 ms,
 * 14.285714 TPS per guest; measured 10.0: error -42.9 %: it does not
 * hold.
 *
 * With the miss-cost probe (probe true): the untuned guest's InnoDB data
 * reads, 4500 per 300 transactions, are 15 misses per transaction; its
 * probe's cold lookups took 3.5 s and 600 misses against the hot ones' 0.5
 * s and 0: a miss costs 5 ms, 3 ms beyond its 2 ms read. tuned misses as
 * often (same pool): still 140 ms. tuned_memory misses never: w = 100 - 20
 * - 15 x 3 = 35 ms, 28.571429 TPS per guest.
 *
 * With the read probe too (readprobe true): in the untuned guest a 16 KiB
 * read of the table's file took 0.1 ms from its page cache, 1.1 ms with
 * O_DIRECT: the virtual disk adds x = 1 ms to every miss on an O_DIRECT
 * path. tuned (cache=none) waits for the device alone, 5 ms a foreground
 * read: w = 100 - 20 + 10 x 5 - 0 + 15 x 1 = 145 ms, 6.896552 TPS per
 * guest; a miss there costs 5 - 2 + 1 + 5 = 9 ms. tuned_memory misses
 * never: 35 ms as without it. */
/* The guest's CPU by task over the tasks probe's 20 s (tasks true): for the
 * untuned guest 18.4 s busy, 92 ms a transaction -- its other tasks' 17 ms
 * beside the chain's 70 + 5 --, of it InnoDB's background 10 ms (page
 * cleaner 5, task pool 3, mariadbd's other threads 2) */
/* split false: performance_schema off, mariadbd's threads not told apart
 * (probes/tasks.h): its CPU whole, no group of it */
static bool split = true;
/* cpuprobe: the I/O probe's CPU figures (readcost.h) in the untuned guest,
 * and its InnoDB data writes: 1500 in 300 transactions, 5 a transaction */
static bool cpuprobe = false;
/* hostprobe: and the host's CPU of the guest's process per request (a read
 * 1.0 ms more through the virtual disk, a page write 1.2 ms more) */
static bool hostprobe = false;
/* repeated: guest, tuned and tuned_memory ran a second repeat (seq 6, 7,
 * 8), all under the host's speed gauge (with speed true) */
static bool repeated = false;
/* with repeated: a third repeat of the guest arms (seqs 9-11) like the
 * second, the untuned guest's cold lookups there taking third_cold s */
static bool third = false;
static double third_cold = 3.5;

static void tasks(FILE *f, const char *arm, int seq, int guest)
{
    static const struct {
        const char *metric;
        double s;
    } t[] = {
        {"tasks_interval_s", 20},          {"tasks_busy_s", 18.4},
        {"tasks_page_cleaner_cpu_s", 1.0}, {"tasks_innodb_pool_cpu_s", 0.6},
        {"tasks_connections_cpu_s", 14.2}, {"tasks_mariadbd_other_cpu_s", 0.4},
        {"tasks_sysbench_cpu_s", 1.2},     {"tasks_kernel_cpu_s", 0.2},
        {"tasks_rest_cpu_s", 0.2},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (split || strstr("tasks_page_cleaner_cpu_s tasks_innodb_pool_cpu_s "
                            "tasks_connections_cpu_s tasks_mariadbd_other_cpu_s",
                            t[i].metric) == NULL)
            sample(f, t[i].metric, t[i].s, arm, seq, guest, "guest");
    sample(f, "tasks_mariadbd_cpu_s", 16.2, arm, seq, guest, "guest");
}

/* the samples of a run of guest, tuned and tuned_memory (seqs sg, st, sm),
 * alike in every repeat but their TPS */
static void guest_runs(FILE *f, bool probe, bool readprobe, bool with_tasks, int sg, int st, int sm)
{
    for (int g = 1; g <= 2; g++) {
        target(f, "guest", sg, g, 300, 2000, 4.0);
        sample(f, "cmp_compress_time_s", 6, "guest", sg, g, "innodb");
        sample(f, "cmp_uncompress_time_s", 3, "guest", sg, g, "innodb");
        sample(f, "buffer_pool_bytes", 8 << 20, "guest", sg, g, NULL);
        sample(f, "guest_disk_reads", 1500, "guest", sg, g, "guest");
        sample(f, "guest_disk_read_ms", 4500, "guest", sg, g, "guest");
        sample(f, "qemu_rd_reqs", 1500, "guest", sg, g, "hypervisor");
        sample(f, "qemu_rd_time_s", 3.0, "guest", sg, g, "hypervisor");
        sample(f, "hostdev_reads", 300, "guest", sg, g, "host");
        sample(f, "hostdev_read_ms", 1500, "guest", sg, g, "host");
        if (probe) {
            sample(f, "innodb_data_reads", 4500, "guest", sg, g, "innodb");
            sample(f, "miss_probe_hot_s", 0.5, "guest", sg, g, NULL);
            sample(f, "miss_probe_hot_reads", 0, "guest", sg, g, NULL);
            sample(f, "miss_probe_cold_s", sg == 9 ? third_cold : 3.5, "guest", sg, g, NULL);
            sample(f, "miss_probe_cold_reads", 600, "guest", sg, g, NULL);
            /* its vCPU waited a tenth of the time, tuned_memory's never;
             * the guests' CPU over the 30 s: 27 s, and 30 s */
            guest_cpu(f, "guest", sg, g, 18, 2, 20, 7);
            guest_cpu(f, "tuned_memory", sm, g, 20, 0, 24, 6);
        }
        if (with_tasks)
            tasks(f, "guest", sg, g);
        if (readprobe) {
            sample(f, "read_probe_cached_ms", 0.1, "guest", sg, g, NULL);
            sample(f, "read_probe_direct_ms", 1.1, "guest", sg, g, NULL);
        }
        if (cpuprobe) {
            sample(f, "read_probe_cached_cpu_ms", 0.05, "guest", sg, g, NULL);
            sample(f, "read_probe_direct_cpu_ms", 0.55, "guest", sg, g, NULL);
            sample(f, "write_probe_cached_cpu_ms", 0.1, "guest", sg, g, NULL);
            sample(f, "write_probe_direct_cpu_ms", 0.9, "guest", sg, g, NULL);
        }
        if (cpuprobe || hostprobe)
            sample(f, "innodb_data_writes", 1500, "guest", sg, g, "innodb");
        if (hostprobe) {
            sample(f, "read_probe_cached_host_ms", 0.3, "guest", sg, g, NULL);
            sample(f, "read_probe_direct_host_ms", 1.3, "guest", sg, g, NULL);
            sample(f, "write_probe_cached_host_ms", 0.4, "guest", sg, g, NULL);
            sample(f, "write_probe_direct_host_ms", 1.6, "guest", sg, g, NULL);
        }
        target(f, "tuned", st, g, 210, 2000, 12.0);
        sample(f, "buffer_pool_bytes", 8 << 20, "tuned", st, g, NULL);
        target(f, "tuned_memory", sm, g, 300, 0, 0);
        sample(f, "buffer_pool_bytes", 779 << 20, "tuned_memory", sm, g, NULL);
    }
}

static char *make_results(bool probe, bool readprobe, bool speed, bool with_tasks)
{
    char *dir = strdup("/tmp/vbed-test-predict.XXXXXX");
    assert_non_null(mkdtemp(dir));
    if (repeated) { /* the runs of a second repeat of the guest arms */
        char *m = NULL;
        size_t ml = 0;
        FILE *mf = open_memstream(&m, &ml);
        fprintf(mf, "%.*s", (int)(strlen(meta) - 3), meta);
        for (int k = 0; k < (third ? 6 : 3); k++)
            fprintf(mf,
                    ",\n  {\"seq\": %d, \"arm\": \"%s\", \"repeat\": %d, \"variants\": [1], "
                    "\"status\": \"ok\",\n   \"config\": {\"threads\": \"1\", \"compression\": "
                    "\"row-zlib\", \"guests\": \"2\", \"buffer_pool\": \"%s\", \"memory\": "
                    "\"1G\", \"disk_cache\": \"%s\", \"flush_method\": \"%s\"}}",
                    6 + k, (const char *[]){"guest", "tuned", "tuned_memory"}[k % 3], 2 + k / 3,
                    k % 3 == 2 ? "auto" : "8M", k % 3 ? "none" : "writeback",
                    k % 3 ? "O_DIRECT" : "fsync");
        fprintf(mf, "]}\n");
        fclose(mf);
        test_write_file(dir, "meta.json", m);
        free(m);
    } else {
        test_write_file(dir, "meta.json", meta);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sample(f, "tps_arm", 200, "host", 1, 0, NULL);
    target(f, "host", 1, 0, 6000, 1000, 0.5);
    sample(f, "buffer_pool_bytes", 8 << 20, "host", 1, 0, NULL);
    sample(f, "tps_arm", 20, "guest", 2, 0, NULL);
    /* repeated: tuned ran as slow as its gauge (12 against guest's 10) says,
     * TPS ~ gauge^-3 */
    sample(f, "tps_arm", repeated ? 14 / 1.728 : 14, "tuned", 3, 0, NULL);
    if (repeated) { /* the second repeat: guest at its gauge again, the tuned arms at 13.2 */
        sample(f, "tps_arm", 20, "guest", 6, 0, NULL);
        sample(f, "tps_arm", 14 / 1.728 / 1.331, "tuned", 7, 0, NULL);
        sample(f, "tps_arm", 20 / 1.331, "tuned_memory", 8, 0, NULL);
        sample(f, "host_speed_unit_ms", 10, "guest", 6, 0, NULL);
        sample(f, "host_speed_unit_ms", 13.2, "tuned", 7, 0, NULL);
        sample(f, "host_speed_unit_ms", 13.2, "tuned_memory", 8, 0, NULL);
    }
    if (third) { /* the third repeat: the second's TPS and gauges, but guest's
                  * machine 10 % slower, its TPS as gauge^-3 says */
        sample(f, "tps_arm", 20 / 1.331, "guest", 9, 0, NULL);
        sample(f, "tps_arm", 14 / 1.728 / 1.331, "tuned", 10, 0, NULL);
        sample(f, "tps_arm", 20 / 1.331, "tuned_memory", 11, 0, NULL);
        sample(f, "host_speed_unit_ms", 11, "guest", 9, 0, NULL);
        sample(f, "host_speed_unit_ms", 13.2, "tuned", 10, 0, NULL);
        sample(f, "host_speed_unit_ms", 13.2, "tuned_memory", 11, 0, NULL);
    }
    sample(f, "tps_arm", 20, "tuned_memory", 4, 0, NULL);
    sample(f, "tps_arm", 8, "one", 5, 0, NULL);
    guest_runs(f, probe, readprobe, with_tasks, 2, 3, 4);
    if (repeated)
        guest_runs(f, probe, readprobe, with_tasks, 6, 7, 8);
    if (third)
        guest_runs(f, probe, readprobe, with_tasks, 9, 10, 11);
    target(f, "one", 5, 1, 240, 2000, 12.0);
    if (speed) { /* the speed probe's CPU ms per unit, one per run */
        static const double unit[] = {11, 10, 12, 12, 10};
        static const char *const arm[] = {"host", "guest", "tuned", "tuned_memory", "one"};
        for (int k = 0; k < 5; k++)
            sample(f, "host_speed_unit_ms", unit[k], arm[k], k + 1, 0, NULL);
        /* the guests' own speed job: guest's and tuned_memory's (tuned has
         * none: the host's speed stands for it) */
        for (int g = 1; g <= 2; g++) {
            sample(f, "guest_speed_unit_ms", 500, "guest", 2, g, NULL);
            sample(f, "guest_speed_unit_ms", 540 + 20 * (g - 1), "tuned_memory", 4, g, NULL);
        }
    }
    fclose(f);
    test_write_file(dir, "samples.jsonl", text);
    free(text);
    return dir;
}

/* As if every arm had run twice, each with a 95 % CI of +-5 % of its TPS:
 * a prediction is judged only where both arms ran more than one repeat, and
 * its tolerance is the difference's CI, sqrt(5^2 + 5^2) = 7.07 %. */
static void as_repeated(struct report *r)
{
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        struct report_cell *c = &r->variants[0].cells[a];
        if (c->tps_stats.n == 1) {
            c->tps_stats.n = c->per_guest_stats.n = 2;
            c->tps_stats.ci95_half = 0.05 * c->tps_stats.mean;
            c->per_guest_stats.ci95_half = 0.05 * c->per_guest_stats.mean;
        }
    }
}

static void predicted_and_checked(void **state)
{
    (void)state;
    char *dir = make_results(false, false, false, false);
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    assert_int_equal(rd->bad_lines, 0);
    struct report *r = report_build(rd);
    assert_int_equal(r->first_guest_arm, 1);

    struct prediction p;
    predict_arm(r, 0, 2, &p);
    assert_true(isnan(p.miss_cost)); /* no probe: the decompressions alone */
    predict_arm(r, 0, 1, &p); /* the untuned guest itself */
    assert_false(p.valid);
    predict_arm(r, 0, 0, &p); /* the host arm */
    assert_false(p.valid);

    predict_arm(r, 0, 2, &p);
    assert_true(p.valid);
    assert_near(p.reads_g, 10, 1e-9);
    assert_near(p.lat_g, 0.002, 1e-12);
    assert_near(p.pool_a, 8 << 20, 0);
    assert_near(p.reads_a, 10, 1e-9);
    assert_string_equal(p.path, "device");
    assert_near(p.lat_a, 0.006, 1e-12);
    assert_near(p.decomp_g, 0.010, 1e-12);
    assert_near(p.decomp_a, 0.010, 1e-12);
    assert_near(p.w_a, 0.140, 1e-12);
    assert_near(p.predicted, 1 / 0.140, 1e-9);
    assert_near(p.measured, 7.0, 1e-12);
    assert_near(p.error, (7.0 - 1 / 0.140) / 7.0, 1e-9);
    /* one repeat of each arm: the run-to-run spread is unknown, not 0 --
     * under TCG here one arm's TPS moved by tens of % between runs, and
     * against 15 % one repeat held or failed by chance */
    assert_true(p.single_repeat);
    assert_false(p.judged);
    assert_false(p.agrees);
    char text[4096];
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "measured 7.00: -2.0 % -- not judged: one repeat of tuned leaves "
                                 "its run-to-run spread unknown"));
    /* and the report says so once, for the whole run */
    size_t said = 0;
    for (size_t i = 0; i < r->n_notes; i++)
        if (r->notes[i].kind == NOTE_ONE_REPEAT) {
            said++;
            assert_non_null(strstr(r->notes[i].text, "every arm ran once"));
            assert_non_null(strstr(r->notes[i].text, "a prediction is judged only then"));
        }
    assert_int_equal(said, 1);
    as_repeated(r);
    predict_arm(r, 0, 2, &p);
    assert_false(p.single_repeat);
    assert_true(p.judged);
    assert_true(p.agrees);
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "measured 7.00: -2.0 %; no change would be off by -42.9 %; tolerance "
                                 "+-7.1 % (the difference's 95 % CI) -- the prediction agrees, and no "
                                 "change does not."));

    predict_arm(r, 0, 3, &p);
    assert_true(p.valid);
    assert_true(p.pool_auto);
    assert_near(p.pool_a, 779LL << 20, 0);
    assert_near(p.reads_a, 0, 0);
    assert_near(p.decomp_a, 0, 0);
    assert_near(p.w_a, 0.070, 1e-12);
    assert_near(p.predicted, 1 / 0.070, 1e-9);
    assert_near(p.error, (10 - 1 / 0.070) / 10, 1e-9);
    assert_true(p.judged);
    assert_false(p.agrees);

    predict_arm(r, 0, 4, &p); /* one guest against two */
    assert_false(p.valid);
    assert_string_equal(p.why, "it runs 1 guest, the untuned guest arm 2: their CPU and contention "
                               "do not carry over");

    /* what each tuning won (or lost) against the untuned guest, part by part */
    const struct gap_split *vs = &r->variants[0].cells[2].gap_guest;
    assert_true(vs->valid && vs->vs_guest);
    assert_near(vs->loss, 0.3, 1e-12);
    assert_false(r->variants[0].cells[1].gap_guest.valid);
    report_gap_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "\ntuned loses 30.0 % of guest's TPS per guest; one run, no CI: "));
    assert_non_null(strstr(text, " points foreground reads"));
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "tuned: predicted 7.14 TPS per guest from guest's budget (10.00 "
                                 "foreground reads per transaction at 6.000 ms, through the "
                                 "device; decompression 10.00 ms per transaction, guest's 10.00; "
                                 "no miss cost measured), measured 7.00: -2.0 %; no change would be off by -42.9 %; tolerance "
                                 "+-7.1 % (the difference's 95 % CI) -- the prediction agrees, and no change does not. "
                                 "Its CPU contention held at guest's (guest's CPU by task is not known).\n"));
    assert_non_null(strstr(text, "tuned_memory: predicted 14.29 TPS per guest from guest's budget "
                                 "(0.00 foreground reads per transaction"));
    assert_non_null(strstr(text, "decompression 0.00 ms per transaction, guest's 10.00"));
    assert_non_null(strstr(text, "-42.9 %; no change would be off by +0.0 %; tolerance +-7.1 % (the "
                                 "difference's 95 % CI) -- it does not agree"));
    assert_non_null(strstr(text, "one: no prediction from guest: it runs 1 guest"));
    assert_null(strstr(text, "What a buffer-pool miss adds")); /* no probe: not said */
    report_free(r);
    results_data_free(rd);
    test_remove_dir(dir);
    free(dir);
}

/* The report of make_results(probe, readprobe, speed), and what to free after. */
struct built {
    char *dir;
    struct results_data *rd;
    struct report *r;
};

static struct built build(bool probe, bool readprobe, bool speed, bool with_tasks)
{
    struct built b = {.dir = make_results(probe, readprobe, speed, with_tasks)};
    b.rd = results_read(b.dir);
    assert_non_null(b.rd);
    assert_int_equal(b.rd->bad_lines, 0);
    b.r = report_build(b.rd);
    as_repeated(b.r);
    return b;
}

static void unbuild(struct built *b)
{
    report_free(b->r);
    results_data_free(b->rd);
    test_remove_dir(b->dir);
    free(b->dir);
}

/* The misses a larger pool saves cost what the probe measured, beyond
 * their read (already moved by the reads' terms). */
static void predicted_from_the_miss_cost(void **state)
{
    (void)state;
    struct built b = build(true, false, false, false);
    struct report *r = b.r;
    struct prediction p;
    predict_arm(r, 0, 2, &p);
    assert_true(p.valid);
    assert_near(p.miss_cost, 0.005, 1e-12);
    assert_near(p.misses_g, 15, 1e-9);
    assert_near(p.misses_a, 15, 1e-9);
    assert_near(p.w_a, 0.140, 1e-12);
    assert_true(p.agrees);
    assert_true(isnan(p.implied_miss_cost)); /* it saves no miss: nothing to solve for */
    predict_arm(r, 0, 3, &p);
    assert_true(p.valid);
    assert_near(p.misses_a, 0, 0);
    /* the chain's own misses are its 10 foreground reads of the 15: the
     * other 5 (read by other threads) save the chain nothing at the probe's
     * price -- priced there too, w would be 35 ms */
    assert_near(p.own_g, 10, 1e-9);
    assert_near(p.own_a, 0, 0);
    assert_near(p.w_a, 0.050, 1e-12);
    assert_near(p.predicted, 1 / 0.050, 1e-9);
    assert_false(p.agrees);
    /* measured 10 TPS, w' = 100 ms: 2 + (100 - 20 + 0 - 100) / 10 ms one of
     * the chain's misses */
    assert_near(p.implied_miss_cost, 0.002 + (0.100 - 0.020 - 0.100) / 10, 1e-12);
    /* and where its budget gave it back, per miss saved: guest's on-CPU
     * 14 s of 200 transactions' chain, 70 ms a transaction, its vCPU
     * preempted a tenth of it: CPU 63 ms, contention 7 ms; tuned_memory's
     * 18 s (it waits for no read), never preempted: 90 ms and 0 */
    assert_near(p.saved_cpu, (0.063 - 0.090) / 10, 1e-12);
    assert_near(p.saved_contention, 0.007 / 10, 1e-12);
    /* the guests' other threads: guest's CPU 0.9 x 100 ms in a transaction
     * less its chain's 70 ms on-CPU and 5 ms of sysbench: 15 ms;
     * tuned_memory's 100 - 90 - 5 = 5 ms */
    assert_near(r->variants[0].cells[1].layers.guest_other, 0.015, 1e-12);
    assert_near(r->variants[0].cells[3].layers.guest_other, 0.005, 1e-12);
    assert_true(isnan(r->variants[0].cells[0].layers.guest_other)); /* the host arm has none */
    assert_near(p.saved_other, 0.010 / 10, 1e-12);
    char text[4096];
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "probe's 5.00 ms. Against guest's budget, per such miss saved, its "
                                 "CPU fell by -2.70 ms and its CPU contention by 0.70 ms"));
    assert_non_null(strstr(text, "contention by 0.70 ms (as measured, each at its own speed), the "
                                 "model's by none (held at guest's); the CPU of the guest's other "
                                 "tasks (its busy CPU less the chain's) fell by 1.00 ms.\n"));
    assert_non_null(strstr(text, "tuned_memory: predicted 20.00 TPS per guest from guest's budget "
                                 "(0.00 foreground reads per transaction at 6.000 ms, through the "
                                 "device; 0.00 buffer-pool misses per transaction, guest's 15.00, "
                                 "of them the chain's own 0.00 and 10.00, each costing 5.00 ms "
                                 "there), measured 10.00: -100.0 %"));
    assert_non_null(strstr(text, "(the difference's 95 % CI) -- it does not agree. Its CPU contention held at "
                                 "guest's (guest's CPU by task is not known). Its measured TPS says each of the 10.00 "
                                 "misses of the chain's own per transaction it saved was worth "));
    /* 2 + (100 - 20 - 100) / 10 = 0 ms, printed 0.00 or -0.00 */
    assert_non_null(strstr(text, "0.00 ms, against the probe's 5.00 ms."));
    assert_non_null(strstr(text, "\nWhat a buffer-pool miss adds to a statement, measured after "
                                 "each measure phase (lookups on pages outside the pool against "
                                 "the same lookups again; n/a: the pool holds the table): host "
                                 "n/a, guest 5.00 ms, tuned n/a, tuned_memory n/a, one n/a."));
    unbuild(&b);
}

static void predicted_from_the_read_probe(void **state)
{
    (void)state;
    struct built b = build(true, true, false, false);
    struct report *r = b.r;
    struct prediction p;
    predict_arm(r, 0, 2, &p);
    assert_true(p.valid);
    assert_near(p.read_extra, 0.001, 1e-12);
    assert_near(p.lat_a, 0.005, 1e-12);
    assert_near(p.path_cost, 0.009, 1e-12);
    assert_near(p.w_a, 0.145, 1e-12);
    assert_near(p.predicted, 1 / 0.145, 1e-9);
    predict_arm(r, 0, 3, &p);
    assert_true(p.valid);
    assert_near(p.w_a, 0.050, 1e-12);
    char text[4096];
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "tuned: predicted 6.90 TPS per guest from guest's budget (10.00 "
                                 "foreground reads per transaction at 5.000 ms, through the device; "
                                 "15.00 buffer-pool misses per transaction, guest's 15.00, of them "
                                 "the chain's own 10.00 and 10.00, each costing 5.00 ms there and "
                                 "9.00 ms on its path: a read through "
                                 "guest's virtual disk costs 1.000 ms more than from its page "
                                 "cache), measured 7.00: +1.5 %"));
    unbuild(&b);
}

/* With the guest's tasks read, contention goes with the CPU of the guest's
 * other tasks and its client: tuned_memory saves every miss, and with them
 * InnoDB's background (10 of the other tasks' 17 ms): q_A = 7 x (7 + 5) /
 * (17 + 5) ms, w = 35 - (7 - q_A) ms. tuned misses as often as the guest:
 * its contention stays. */
static void contention_from_the_guests_tasks(void **state)
{
    (void)state;
    struct built b = build(true, false, false, true);
    struct report *r = b.r;
    const struct gap_arm *g = &r->variants[0].cells[1].layers;
    assert_near(g->tasks[GAP_TASK_PAGE_CLEANER], 0.005, 1e-12);
    assert_near(g->tasks[GAP_TASK_CONNECTIONS], 0.071, 1e-12);
    assert_near(g->tasks[GAP_TASK_UNATTRIBUTED], 0.092 - 0.089, 1e-12);
    /* from the tasks probe's busy CPU, not /proc/stat over the measure
     * phase (15 ms, above) */
    assert_near(g->guest_other, 0.017, 1e-12);
    assert_true(isnan(r->variants[0].cells[3].layers.tasks[GAP_TASK_KERNEL])); /* not read */
    struct prediction p;
    predict_arm(r, 0, 3, &p);
    assert_true(p.valid && p.contention_scaled);
    assert_near(p.contention_g, 0.007, 1e-12);
    assert_near(p.others_g, 0.017, 1e-12);
    assert_near(p.background_g, 0.010, 1e-12);
    assert_near(p.client_g, 0.005, 1e-12);
    assert_near(p.others_a, 0.007, 1e-12);
    double q = 0.007 * 12 / 22;
    assert_near(p.contention_a, q, 1e-12);
    assert_near(p.w_a, 0.050 - (0.007 - q), 1e-12);
    assert_near(p.predicted, 1 / (0.050 - (0.007 - q)), 1e-9);
    assert_near(p.saved_contention_model, (0.007 - q) / 10, 1e-12);
    /* the implied miss cost gives the contention term its due */
    assert_near(p.implied_miss_cost, 0.002 + (0.100 - 0.020 - (0.007 - q) - 0.100) / 10, 1e-12);
    predict_arm(r, 0, 2, &p);
    assert_true(p.contention_scaled);
    assert_near(p.contention_a, 0.007, 1e-12);
    assert_near(p.w_a, 0.140, 1e-12);
    char text[4096];
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, " Its CPU contention 3.82 ms per transaction against guest's 7.00: "
                                 "the chain waits while its guest's other tasks (17.00 ms of CPU "
                                 "per transaction in guest, of it 10.00 InnoDB's background, which "
                                 "goes with the misses: 7.00 predicted) or its client (5.00 ms) "
                                 "run."));
    assert_non_null(strstr(text, "the model's by 0.32 ms; the CPU of the guest's other tasks"));
    /* the table of the guest's CPU by task: the guest arm only */
    struct report_table *t = report_tasks_table(r, 0);
    assert_int_equal(t->nrows, 1);
    assert_string_equal(t->cells[t->ncols], "guest");
    assert_string_equal(t->cells[t->ncols + 1], "75.00");
    assert_string_equal(t->cells[t->ncols + 2], "5.00");
    assert_string_equal(t->cells[2 * t->ncols - 1], "17.00");
    report_table_free(t);
    unbuild(&b);

    /* mariadbd's threads not told apart: the guest's other CPU is still
     * the tasks probe's, the contention is held, and no table row */
    split = false;
    b = build(true, false, false, true);
    split = true;
    r = b.r;
    assert_near(r->variants[0].cells[1].layers.guest_other, 0.017, 1e-12);
    assert_true(isnan(r->variants[0].cells[1].layers.tasks[GAP_TASK_UNATTRIBUTED]));
    predict_arm(r, 0, 3, &p);
    assert_true(p.valid && !p.contention_scaled);
    assert_near(p.contention_a, 0.007, 1e-12);
    assert_near(p.w_a, 0.050, 1e-12);
    t = report_tasks_table(r, 0);
    assert_int_equal(t->nrows, 0);
    report_table_free(t);
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "Its CPU contention held at guest's (guest's CPU by task is not known)."));
    unbuild(&b);
}

/* With the I/O probe's CPU figures (a read through the virtual disk takes
 * 0.5 ms more of the guest's CPU than one from its page cache, a page
 * write 0.8 ms more than one into it) and the guest's tasks: on tuned's
 * O_DIRECT path the 5 misses a transaction read by other threads and the 5
 * page writes become requests, 5 x 0.5 + 5 x 0.8 = 6.5 ms of the guest's
 * other tasks' CPU: O_A = 17 + 6.5 ms, q_A = 7 x (23.5 + 5) / (17 + 5) ms;
 * the chain pays x only for its own 10 misses: w = 100 - 20 + 10 x 5 + 10
 * x 1 + (q_A - 7) = 140 + q_A - 7 ms (145 without the CPU figures, every
 * miss paying x). tuned_memory misses and writes nothing: as before. */
static void background_requests_as_cpu(void **state)
{
    (void)state;
    cpuprobe = true;
    struct built b = build(true, true, false, true);
    cpuprobe = false;
    struct report *r = b.r;
    struct prediction p;
    predict_arm(r, 0, 2, &p);
    assert_true(p.valid && p.io_priced && p.contention_scaled);
    assert_near(p.read_cpu_extra, 0.0005, 1e-12);
    assert_near(p.write_cpu_extra, 0.0008, 1e-12);
    assert_near(p.writes_g, 5, 1e-9);
    assert_near(p.writes_a, 5, 1e-9);
    assert_near(p.bg_reads_a, 5, 1e-9);
    assert_near(p.io_cpu_a, 0.0065, 1e-12);
    assert_near(p.others_a, 0.0235, 1e-12);
    double q = 0.007 * 28.5 / 22;
    assert_near(p.contention_a, q, 1e-12);
    assert_near(p.w_a, 0.140 + q - 0.007, 1e-12);
    assert_near(p.predicted, 1 / (0.140 + q - 0.007), 1e-9);
    char text[4096];
    report_prediction_text(r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "which goes with the misses; on its O_DIRECT path the background's "
                                 "requests through the virtual disk add 6.50 ms: 5.00 reads by "
                                 "other threads at 0.500 ms and 5.00 page writes at 0.800 ms of "
                                 "fio's CPU in the guest each, beyond the page cache's: 23.50 "
                                 "predicted)"));
    /* and in the JSON report, beside the prediction */
    char *json = NULL;
    size_t json_len = 0;
    FILE *f = open_memstream(&json, &json_len);
    report_print_json(r, f);
    fclose(f);
    assert_non_null(strstr(json, "\"untuned_direct_read_cpu_extra_ms\": 0.5,"));
    assert_non_null(strstr(json, "\"untuned_direct_write_cpu_extra_ms\": 0.8,"));
    assert_non_null(strstr(json, "\"background_io_cpu_ms_per_tx\": 6.5,"));
    assert_non_null(strstr(json, "\"background_io_clock\": \"fio\""));
    free(json);
    predict_arm(r, 0, 3, &p);
    assert_true(p.valid && p.io_priced);
    assert_near(p.io_cpu_a, 0, 0);
    assert_near(p.w_a, 0.050 - (0.007 - 0.007 * 12 / 22), 1e-12);
    unbuild(&b);

    /* both clocks read: the guest's own prices them -- the vCPU time a
     * request takes, what competes with the chain -- not the QEMU
     * process's whole, whose other threads run on another host CPU */
    cpuprobe = hostprobe = true;
    b = build(true, true, false, true);
    cpuprobe = hostprobe = false;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid && p.io_priced && !p.io_host);
    assert_near(p.io_cpu_a, 0.0065, 1e-12);
    unbuild(&b);

    /* the host's clock only where the guest's is unknown: 5 x 1.0 + 5 x
     * 1.2 = 11 ms */
    hostprobe = true;
    b = build(true, true, false, true);
    hostprobe = false;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid && p.io_priced && p.io_host);
    assert_near(p.io_cpu_a, 0.011, 1e-12);
    q = 0.007 * 33 / 22;
    assert_near(p.w_a, 0.140 + q - 0.007, 1e-12);
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "5.00 page writes at 1.200 ms of the guest's process's CPU on the "
                                 "host each"));
    unbuild(&b);

    /* without the guest's tasks there is no contention term to carry
     * them: every miss pays x in the chain, as without the CPU figures */
    cpuprobe = true;
    b = build(true, true, false, false);
    cpuprobe = false;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid && !p.io_priced);
    assert_near(p.w_a, 0.145, 1e-12);
    unbuild(&b);
}

/* The machine's speed per run (host_speed_unit_ms: 11, 10, 12, 12, 10 ms
 * for runs 1-5, median 11): each arm's index is 11 / its unit, the note
 * gives the extremes 11/12 and 11/10, and the tuned arm's prediction at its
 * run's speed stretches guest's CPU-bound share (CPU 70 ms + client 10 ms
 * of w_G = 100 ms) by 12 / 10: w = 140 x (1 + 0.8 x 0.2) = 162.4 ms. The
 * verdict stays the prediction's own. tuned_memory's measured 100 ms at
 * guest's speed is 100 / 1.08 ms, and the miss it saved was worth 2 + (80 -
 * 100 / 1.08) / 10 ms (10 misses of the chain's own). Without the samples:
 * nothing of it. */
static void machine_speed(void **state)
{
    (void)state;
    struct built b = build(true, false, true, false);
    const struct report_cell *c = b.r->variants[0].cells;
    assert_near(c[0].speed_index, 1, 1e-12);
    assert_near(c[1].speed_index, 1.1, 1e-12);
    assert_near(c[2].speed_index, 11.0 / 12, 1e-12);
    assert_int_equal(b.r->speed_runs, 5);
    assert_near(b.r->speed_median_ms, 11, 1e-12);
    assert_near(b.r->speed_index_lo, 11.0 / 12, 1e-12);
    assert_near(b.r->speed_index_hi, 1.1, 1e-12);
    bool noted = false;
    for (size_t i = 0; i < b.r->n_notes; i++)
        if (b.r->notes[i].kind == NOTE_SPEED) {
            noted = true;
            assert_non_null(strstr(b.r->notes[i].text, "this machine's CPU ran at 0.92 to 1.10 of "
                                                        "its median speed over the 5 runs"));
            assert_non_null(strstr(b.r->notes[i].text, "up to 20 % of the machine's"));
            /* the fixture's guests ran under TCG, which amplifies the machine's speed */
            assert_non_null(strstr(b.r->notes[i].text, "; guests under TCG several times that"));
        }
    assert_true(noted);

    struct prediction p;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid);
    assert_near(p.w_a, 0.140, 1e-12);
    assert_near(p.cpu_share, 0.8, 1e-9);
    assert_near(p.predicted_at_speed, 1 / (0.140 * 1.16), 1e-9);
    assert_near(p.error_at_speed, (7.0 - 1 / (0.140 * 1.16)) / 7.0, 1e-9);
    assert_true(p.agrees); /* the verdict is the prediction's (-2.0 %), not the stretched one's */
    assert_false(p.speed_of_guests);
    /* tuned_memory against guest: the guests' own speed job, 550 ms (the
     * mean of 540 and 560) against 500: stretched 1 + 0.8 x 0.1 */
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.speed_of_guests);
    assert_near(p.unit_a_ms, 550, 1e-9);
    assert_near(p.unit_g_ms, 500, 1e-9);
    assert_near(p.predicted_at_speed, 1 / (0.050 * 1.08), 1e-9);
    assert_near(p.implied_miss_cost, 0.002 + (0.080 - 0.100 / 1.08) / 10, 1e-12);
    char text[4096];
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_non_null(strstr(text, " Its guests took 550 ms of their CPU for the speed job (gzip in "
                                 "each guest after its measure phase), guest's 500 ms (+10 %): at "
                                 "that speed, with guest's CPU-bound share of 80 %, the prediction "
                                 "is 18.52 (-85.2 %; not in the verdict)."));
    assert_non_null(strstr(text, "This machine's CPU took 12.00 ms for the speed probe's job while "
                                 "it measured, 10.00 ms while guest did (+20 %): at that speed, "
                                 "with guest's CPU-bound share of 80 %, the prediction is 6.16 "
                                 "(+12.0 %; not in the verdict)."));
    unbuild(&b);

    b = build(true, false, false, false);
    assert_true(isnan(b.r->variants[0].cells[2].speed_index));
    assert_int_equal(b.r->speed_runs, 0);
    for (size_t i = 0; i < b.r->n_notes; i++)
        assert_int_not_equal(b.r->notes[i].kind, NOTE_SPEED);
    predict_arm(b.r, 0, 2, &p);
    assert_true(isnan(p.predicted_at_speed));
    predict_arm(b.r, 0, 3, &p); /* not brought to guest's speed: 2 + (80 - 100) / 10 ms */
    assert_near(p.implied_miss_cost, 0.002 + (0.080 - 0.100) / 10, 1e-12);
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_null(strstr(text, "speed probe"));
    unbuild(&b);
}

/* An arm that differs from the untuned guest in what the model leaves
 * alone (here its threads; a filesystem, tmpfs, a commit setting alike) is
 * not predicted, and the reason names the key and both values. */
static void not_predicted_across_uncovered_keys(void **state)
{
    (void)state;
    struct built b = build(true, false, false, false);
    struct prediction p;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid);
    struct results_run *run = NULL;
    for (size_t i = 0; i < b.rd->n_runs; i++)
        if (b.rd->runs[i].seq == 3)
            run = &b.rd->runs[i];
    assert_non_null(run);
    bool changed = false;
    for (size_t i = 0; i < run->n_config; i++)
        if (!strcmp(run->config[i].key, "threads")) {
            free(run->config[i].value);
            run->config[i].value = strdup("4");
            changed = true;
        }
    assert_true(changed);
    predict_arm(b.r, 0, 2, &p);
    assert_false(p.valid);
    assert_string_equal(p.why, "it differs in threads (4 against 1), which the model does not cover");
    /* what it may change (its pool, cache mode, flush method) it still is */
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.valid);
    unbuild(&b);
}

/* The tolerance is the difference's own 95 % CI, sqrt(a^2 + g^2) -- no
 * floor, not twice it -- and beyond 50 % it judges nothing: arm 2's
 * prediction (7.14 TPS against 7.0 measured, -2 %) agrees within
 * sqrt(5^2 + 5^2) = 7.1 %, where "no change" (guest's 10, -42.9 %) does
 * not; with two repeats whose CI is +-4 TPS (57 %) it is shown, not judged
 * -- neither "agrees" nor "does not agree" -- and the sentence says why. */
static void too_uncertain_to_judge(void **state)
{
    (void)state;
    struct built b = build(true, false, false, false);
    struct prediction p;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.judged);
    assert_true(p.agrees);
    assert_false(p.cannot_tell);
    /* and the inputs' part: the device latency's resolution (0.05 %) */
    assert_near(p.tolerance, sqrt(0.05 * 0.05 * 2 + p.input_rel * p.input_rel), 1e-9);
    assert_true(p.input_rel > 0 && p.input_rel < 0.001);
    assert_near(p.null_error, (7.0 - 10.0) / 7.0, 1e-9);
    struct report_cell *c = &b.r->variants[0].cells[2];
    c->per_guest_stats.n = 2;
    c->per_guest_stats.ci95_half = 4.0;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid);
    assert_near(p.tolerance, sqrt(4.0 / 7.0 * 4.0 / 7.0 + 0.05 * 0.05 + p.input_rel * p.input_rel), 1e-9);
    assert_false(p.judged);
    assert_false(p.agrees);
    char text[4096];
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "no change would be off by -42.9 %; tolerance +-57.4 % (the difference's "
                                 "95 % CI) -- not judged: above 50 %, more repeats narrow it."));
    /* a CI that leaves the tolerance within 50 % is judged */
    c->per_guest_stats.ci95_half = 1.0;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.judged);
    assert_true(p.agrees);
    /* the untuned guest's own spread widens it: sqrt(a^2 + g^2) */
    double a = 1.0 / p.measured;
    struct report_cell *g = &b.r->variants[0].cells[b.r->first_guest_arm];
    g->per_guest_stats.n = 2;
    g->per_guest_stats.ci95_half = 0.2 * g->per_guest_stats.mean;
    predict_arm(b.r, 0, 2, &p);
    double in = p.input_rel;
    assert_near(p.predicted_ci, p.predicted * sqrt(0.04 + in * in), 1e-9);
    assert_near(p.tolerance, sqrt(a * a + 0.04 + in * in), 1e-9);
    unbuild(&b);
}

/* "Agrees" must say more than "no change" would: tuned_memory measured
 * guest's own 10 TPS per guest. Its prediction (14.29, -42.9 %) does not
 * agree within 7.1 %; widen guest's CI until the model's error fits
 * (45 %) and "no change" (0 %) fits too: the verdict is "cannot tell",
 * never "agrees". The same data with the tuned arm measuring guest's TPS
 * exactly: a prediction of no change would agree, one of +43 % cannot. */
static void no_change_is_the_null_model(void **state)
{
    (void)state;
    struct built b = build(false, false, false, false);
    struct prediction p;
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.judged);
    assert_near(p.null_error, 0, 1e-9);
    assert_false(p.agrees);
    assert_false(p.cannot_tell);
    struct report_cell *g = &b.r->variants[0].cells[b.r->first_guest_arm];
    g->per_guest_stats.ci95_half = 0.45 * g->per_guest_stats.mean;
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.judged);
    assert_true(fabs(p.error) <= p.tolerance);
    assert_true(p.cannot_tell);
    assert_false(p.agrees);
    char text[4096];
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "no change would be off by +0.0 %"));
    assert_non_null(strstr(text, "-- cannot tell from no change"));
    struct report_table *tb = report_prediction_table(b.r, 0);
    char *tt = NULL;
    size_t tl = 0;
    FILE *tf = open_memstream(&tt, &tl);
    report_table_print(tb, REPORT_TABLE, tf, "");
    fclose(tf);
    assert_non_null(strstr(tt, "cannot tell"));
    assert_null(strstr(tt, " agrees"));
    free(tt);
    report_table_free(tb);
    unbuild(&b);
}

/* The predicted side carries its inputs' spread over the untuned guest's
 * runs: the gain w_G / w_A left out one run at a time (a jackknife). Three
 * alike repeats: no spread. The third's miss cost 10 ms instead of 5
 * (cold lookups 6.5 s for 600 misses against the hot 0.5 s): tuned_memory
 * saves the chain's 10 reads a transaction x (miss cost - its 2 ms read),
 * w_A = 100 - 20 - 10 (c - 2): left out the third, c 5 ms, w_A 50 ms, gain
 * 2; left out either other, c 7.5, w_A 25, gain 4; all three: c 6.67, w_A
 * 33.3, gain 3. Jackknife SE sqrt(2/3 x ((2 - 10/3)^2 + 2 (4 - 10/3)^2)) =
 * 4/3, x t(0.975, 2) = 4.3027 / 3 = 191 % of the gain: not judged. With two
 * repeats there is no spread to give (NAN), none is claimed. */
static void gain_spread_over_runs(void **state)
{
    (void)state;
    repeated = third = true;
    third_cold = 3.5;
    struct built b = build(true, false, true, false);
    struct prediction p;
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.valid);
    assert_int_equal(p.gain_runs, 3);
    assert_near(p.gain_rel, 0, 1e-12);
    double tol_alike = p.tolerance;
    assert_true(p.judged);
    unbuild(&b);

    third_cold = 6.5;
    b = build(true, false, true, false);
    predict_arm(b.r, 0, 3, &p);
    repeated = third = false;
    third_cold = 3.5;
    assert_true(p.valid);
    assert_near(p.w_a, 0.1 / 3, 1e-9);
    assert_int_equal(p.gain_runs, 3);
    print_message("gain +- %.4f, tolerance %.4f (alike %.4f)\n", p.gain_rel, p.tolerance, tol_alike);
    assert_near(p.gain_rel, 4.302652729749464 * (4.0 / 3) / 3, 1e-6);
    assert_true(p.tolerance >= p.gain_rel && p.tolerance > tol_alike);
    assert_false(p.judged);
    unbuild(&b);

    repeated = true;
    b = build(true, false, true, false);
    repeated = false;
    predict_arm(b.r, 0, 3, &p);
    assert_int_equal(p.gain_runs, 2);
    assert_true(isnan(p.gain_rel));
    unbuild(&b);
}

/* Three repeats under the speed gauge: tuned ran on a slower machine (12,
 * 13.2 and 13.2 against guest's 10, 10 and 11), each as slow as TPS ~
 * gauge^-3 says. Its mean TPS per guest (3.36) is half the prediction
 * (7.14); brought to one speed it is 0.7 of guest's, the model's w_G / w_A
 * = 100 / 140: -2.0 %, judged -- where the ratio of means is off by 90 % --
 * against the fit's own 95 % CI. The elasticity that judges tuned is fitted
 * without tuned's runs (guest's, tuned_memory's and one's: e = -3 exactly,
 * no residual, 7 runs in 3 arms, df 3); with only two repeats that fit has
 * df 1 and nothing is judged at one speed. */
static void judged_at_one_speed(void **state)
{
    (void)state;
    repeated = third = true;
    struct built b = build(true, false, true, false);
    repeated = third = false;
    struct prediction p;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid);
    assert_true(p.speed_fitted);
    assert_near(p.elasticity, -3, 1e-6); /* the samples carry 10 digits */
    assert_near(p.speed_half, 0, 1e-6);
    assert_int_equal(p.speed_runs, 7); /* guest 3, tuned_memory 3, one 1; not tuned, not the host */
    assert_near(p.speed_df, 3, 0);
    assert_near(p.unit_a_ms, cbrt(12 * 13.2 * 13.2), 1e-9);
    assert_near(p.unit_g_ms, cbrt(10 * 10 * 11), 1e-9);
    assert_near(p.measured, (7 / 1.728) * (1 + 2 / 1.331) / 3, 1e-9);
    assert_true(p.error < -0.9);
    assert_near(p.error_at_speed, 1 - (0.100 / 0.140) / 0.7, 1e-6);
    /* a perfect fit (no residual) leaves the inputs' part alone -- the
     * device latency's resolution, 1 ms per target over the reads it rests
     * on -- a tolerance of 0.05 %: -2 % is then an error the model makes,
     * not noise (three alike runs: the gain's jackknife adds 0) */
    const struct gap_arm *gl = &b.r->variants[0].cells[b.r->first_guest_arm].layers;
    assert_true(gl->sum_host_reads > 0);
    assert_near(p.lat_a_res, 0.001 * (double)gl->targets / gl->sum_host_reads, 1e-15);
    assert_near(p.input_rel, p.reads_a * p.lat_a_res / p.w_a, 1e-15);
    assert_near(p.gain_rel, 0, 1e-12);
    assert_near(p.tolerance, p.input_rel, 1e-6);
    assert_true(p.tolerance < 0.001);
    assert_true(p.judged);
    assert_false(p.agrees);
    assert_near(p.null_error_at_speed, 1 - 1 / 0.7, 1e-6);
    assert_near(p.predicted_at_speed, p.measured * (1 - p.error_at_speed), 1e-9);
    char text[8192];
    report_prediction_text(b.r, 0, text, sizeof(text));
    assert_non_null(strstr(text, "; at one machine speed -2.0 %; no change would be off by -42.9 %; tolerance "
                                 "+-0.0 % (the difference's 95 % CI) -- it does not agree."));
    assert_non_null(strstr(text, "over the run's 7 guest runs TPS per guest went as the gauge to the "
                                 "power -3.00 +- 0.00"));
    /* tuned_memory (w_A 50 ms with the probe): 2.0 against 0.7 x 2 = 1.4
     * at one speed: measured 20 x 1.2^3 / 20 = 1.728 of guest's, by the fit
     * without tuned_memory (guest's, tuned's and one's) */
    predict_arm(b.r, 0, 3, &p);
    assert_true(p.speed_fitted);
    assert_int_equal(p.speed_runs, 7);
    assert_near(p.error_at_speed, 1 - (0.100 / p.w_a) / 1.728, 1e-6);
    assert_true(p.judged);
    assert_false(p.agrees);
    unbuild(&b);
    /* two repeats: without tuned's, 5 runs in 3 arms (df 1): no fit judges it */
    repeated = true;
    b = build(true, false, true, false);
    repeated = false;
    predict_arm(b.r, 0, 2, &p);
    assert_true(p.valid);
    assert_false(p.speed_fitted);
    unbuild(&b);
    repeated = third = true;
    b = build(true, false, true, false);
    repeated = third = false;
    /* its JSON */
    char *json = NULL;
    size_t jl = 0;
    FILE *jf = open_memstream(&json, &jl);
    report_print(b.r, REPORT_JSON, jf);
    fclose(jf);
    assert_non_null(strstr(json, "\"speed_fitted\": true"));
    assert_non_null(strstr(json, "\"speed_elasticity\": -"));
    assert_non_null(strstr(json, "\"speed_runs\": 7"));
    free(json);
    unbuild(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(predicted_and_checked),
        cmocka_unit_test(predicted_from_the_miss_cost),
        cmocka_unit_test(predicted_from_the_read_probe),
        cmocka_unit_test(contention_from_the_guests_tasks),
        cmocka_unit_test(background_requests_as_cpu),
        cmocka_unit_test(machine_speed),
        cmocka_unit_test(judged_at_one_speed),
        cmocka_unit_test(gain_spread_over_runs),
        cmocka_unit_test(no_change_is_the_null_model),
        cmocka_unit_test(too_uncertain_to_judge),
        cmocka_unit_test(not_predicted_across_uncovered_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
