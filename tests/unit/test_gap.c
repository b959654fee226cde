/* test_gap.c: the model of where a transaction's time goes (gap.c), on a
 * hand-made results directory whose expected figures are computed by hand
 * below: per-target means, the split of a guest arm against the host arm
 * (a residual above 15 % of the difference: "not explained"), a counter
 * that is absent (n/a, its time in the residual, never 0), the layers'
 * hit ratios and copies, a host device shared by two guests, the
 * consistency checks; and gap_split on figures given directly (explained,
 * compression none, no TPS). */
#include "testutil.h"
#include "report/gap.h"
#include "util/log.h"
#include "report/report.h"

#include <math.h>

#define assert_near(actual, expected, eps)                                                        \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (!(fabs(a_ - e_) <= (eps)))                                                             \
            fail_msg("%s = %.10g, expected %.10g", #actual, a_, e_);                               \
    } while (0)

/* Variant 1 and 2: the same runs (host seq 1/3, guest seq 2/4), but in
 * variant 2 guest 2 has no guest_disk_flush_ms and guest 1 reads far more
 * blocks than InnoDB asked for. */
static const char meta[] =
    "{\"status\": \"complete\", \"accel\": \"tcg\", \"scenario\": {\"name\": \"gap\"},\n"
    " \"variants\": [{\"index\": 1, \"label\": \"one\"}, {\"index\": 2, \"label\": \"two\"}],\n"
    " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}, {\"name\": \"guest\", \"kind\": "
    "\"guest\"}],\n"
    " \"runs\": [\n"
    "  {\"seq\": 1, \"arm\": \"host\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"2\", \"compression\": \"row-zlib\"}},\n"
    "  {\"seq\": 2, \"arm\": \"guest\", \"repeat\": 1, \"variants\": [1], \"status\": \"ok\",\n"
    "   \"hypervisor_fields\": \"block.1.rd.reqs,cpu.time\",\n"
    "   \"config\": {\"threads\": \"1\", \"guests\": \"2\", \"compression\": \"row-zlib\",\n"
    "              \"disk_cache\": \"writeback\"}},\n"
    "  {\"seq\": 3, \"arm\": \"host\", \"repeat\": 1, \"variants\": [2], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"2\", \"compression\": \"row-zlib\"}},\n"
    "  {\"seq\": 4, \"arm\": \"guest\", \"repeat\": 1, \"variants\": [2], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"guests\": \"2\", \"compression\": \"row-zlib\",\n"
    "              \"disk_cache\": \"writeback\"}},\n"
    "  {\"seq\": 5, \"arm\": \"guest\", \"repeat\": 2, \"variants\": [1], \"status\": \"failed\",\n"
    "   \"config\": {\"threads\": \"1\", \"guests\": \"2\", \"compression\": \"row-zlib\"}}]}\n";

static void sample(FILE *f, const char *metric, double value, const char *arm, int seq, int guest,
                   const char *extra)
{
    fprintf(f,
            "{\"metric\":\"%s\",\"value\":%.10g,\"labels\":{\"arm\":\"%s\",\"seq\":%d,\"guest\":%d,"
            "\"variants\":[%d]%s}}\n",
            metric, value, arm, seq, guest, seq >= 5 ? 1 : (seq + 1) / 2, extra);
}

/* One target's counters: T transactions over W seconds, CPU s, compression
 * s (compress + uncompress), read ms, write ms, flush ms (< 0: absent),
 * InnoDB data reads, block reads (guest, < 0 for the host arm), QEMU reads,
 * host device reads (the device's total). */
struct counters {
    double T, W, cpu, cmp, read_ms, write_ms, flush_ms, innodb_reads, guest_reads, qemu_reads,
        host_reads;
};

static void target(FILE *f, const char *arm, int seq, int guest, const struct counters *c,
                   bool named_device)
{
    sample(f, "transactions", c->T, arm, seq, guest, ",\"layer\":\"workload\"");
    sample(f, "measure_s", c->W, arm, seq, guest, ",\"layer\":\"workload\"");
    sample(f, "server_cpu_s", c->cpu, arm, seq, guest, ",\"layer\":\"workload\"");
    sample(f, "cmp_compress_time_s", c->cmp * 0.8, arm, seq, guest, "");
    sample(f, "cmp_uncompress_time_s", c->cmp * 0.2, arm, seq, guest, "");
    sample(f, "innodb_data_reads", c->innodb_reads, arm, seq, guest, ",\"layer\":\"innodb\"");
    sample(f, "bp_hit_ratio", 0.9, arm, seq, guest, "");
    sample(f, "buffer_pool_bytes", 8, arm, seq, guest, "");
    sample(f, "working_set_bytes", 16, arm, seq, guest, ",\"fits\":\"none\"");
    const char *dev = named_device ? ",\"layer\":\"host\",\"device\":\"vda1\"" : ",\"layer\":\"host\"";
    sample(f, "hostdev_reads", c->host_reads, arm, seq, guest, dev);
    if (guest == 0) {
        sample(f, "hostdev_read_ms", c->read_ms, arm, seq, guest, dev);
        sample(f, "hostdev_write_ms", c->write_ms, arm, seq, guest, dev);
        sample(f, "hostdev_flush_ms", c->flush_ms, arm, seq, guest, dev);
        return;
    }
    const char *g = ",\"layer\":\"guest\"";
    sample(f, "guest_disk_reads", c->guest_reads, arm, seq, guest, g);
    sample(f, "guest_disk_read_ms", c->read_ms, arm, seq, guest, g);
    sample(f, "guest_disk_write_ms", c->write_ms, arm, seq, guest, g);
    if (c->flush_ms >= 0)
        sample(f, "guest_disk_flush_ms", c->flush_ms, arm, seq, guest, g);
    sample(f, "qemu_rd_reqs", c->qemu_reads, arm, seq, guest, ",\"layer\":\"hypervisor\"");
    sample(f, "guest_datadir_cached_bytes", guest == 1 ? 12 : 14, arm, seq, guest, g);
    sample(f, "host_cache_data_bytes", guest == 1 ? 4 : 6, arm, seq, guest, ",\"when\":\"after\"");
    sample(f, "host_cache_data_bytes", 99, arm, seq, guest, ",\"when\":\"before\"");
}

/* Host arm, T 1000 over W 10 s with k = 2 threads: w = 2 x 10 / 1000 =
 * 20 ms; cpu 12 s -> 12 ms; cmp 1 s -> 1 ms; read wait 2000 ms -> 2 ms;
 * write 1000 + flush 500 ms -> 1.5 ms. Reads: InnoDB 500 (0.5/tx), device
 * 100 (0.1/tx): host page cache hit 1 - 0.1 / 0.5 = 0.8.
 *
 * Guest arm (k = 1, 2 guests sharing device vda1, 60 reads on it):
 *   guest 1: T 100, W 10 -> w 100 ms; cpu 6 s -> 60 ms; cmp 0.5 s -> 5 ms;
 *            read 1500 ms -> 15 ms; write 500 + flush 500 -> 10 ms;
 *            InnoDB 400 (4/tx), block 100 (1/tx), QEMU 100 (1/tx),
 *            device 60 / 2 guests = 30 (0.3/tx)
 *   guest 2: T 125, W 10 -> w 80 ms; cpu 5 s -> 40 ms; cmp 0.5 s -> 4 ms;
 *            read 1000 ms -> 8 ms; write 250 + flush 250 -> 4 ms;
 *            InnoDB 500 (4/tx), block 125 (1/tx), QEMU 125 (1/tx),
 *            device 30 (0.24/tx)
 *   means:   w 90 ms, cpu 50, cmp 4.5, rd 11.5, wr 7 ms; reads/tx InnoDB 4,
 *            block 1, QEMU 1, device 0.27: guest page cache hit 0.75,
 *            host page cache hit 1 - 0.27 = 0.73; copies (8 + 12 + 4) / 16
 *            = 1.5 and (8 + 14 + 6) / 16 = 1.75: 1.625.
 *
 * Split: delta = 90 - 20 = 70 ms; cpu_virt = (50 - 4.5) - (12 - 1) = 34.5;
 * cpu_cmp = 4.5 - 1 = 3.5; reads = 11.5 - 2 = 9.5; writes = 7 - 1.5 = 5.5;
 * residual = 70 - 53 = 17 ms: 24.3 % of delta, more than 15 %: not
 * explained. TPS: host tps_arm 100, guest 22.5 for 2 guests (11.25 per
 * guest): loss = 1 - 11.25 / 100 = 0.8875; points = ms / 70 x 88.75:
 * 43.7410714, 4.4375, 12.0446429, 6.9732143, residual 21.5535714 (sum
 * 88.75).
 *
 * Variant 2: the same, but guest 2 has no flush time: wr n/a, the writes
 * part n/a, residual = 70 - (34.5 + 3.5 + 9.5) = 22.5 ms; and guest 1 reads
 * 1200 blocks (QEMU still 100): 1325 > 1.25 x 900 + 2 x 64 = 1253 guest
 * block reads, and QEMU's 225 differ from 1325 by more than 10 %. Its
 * samples name no host device: the two guests of the run share one all
 * the same (0.27 device reads per transaction).
 *
 * Run 5 failed: its figures (a huge CPU) do not count. */
static char *make_results(void)
{
    char *dir = strdup("/tmp/vbed-test-gap.XXXXXX");
    assert_non_null(mkdtemp(dir));
    test_write_file(dir, "meta.json", meta);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int v = 1; v <= 2; v++) {
        int hs = 2 * v - 1, gs = 2 * v;
        sample(f, "tps_arm", 100, "host", hs, 0, "");
        sample(f, "tps_arm", 22.5, "guest", gs, 0, "");
        struct counters h = {1000, 10, 12, 1, 2000, 1000, 500, 500, -1, -1, 100};
        struct counters g1 = {100, 10, 6, 0.5, 1500, 500, 500, 400, 100, 100, 60};
        struct counters g2 = {125, 10, 5, 0.5, 1000, 250, 250, 500, 125, 125, 60};
        if (v == 2) {
            g2.flush_ms = -1;
            g1.guest_reads = 1200;
        }
        target(f, "host", hs, 0, &h, v == 1);
        target(f, "guest", gs, 1, &g1, v == 1);
        target(f, "guest", gs, 2, &g2, v == 1);
    }
    struct counters bad = {100, 10, 600, 0.5, 1500, 500, 500, 400, 100, 100, 60};
    target(f, "guest", 5, 1, &bad, true);
    fclose(f);
    test_write_file(dir, "samples.jsonl", text);
    free(text);
    return dir;
}

static void measured_and_split(void **state)
{
    (void)state;
    char *dir = make_results();
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    assert_int_equal(rd->bad_lines, 0);
    assert_string_equal(rd->runs[1].hypervisor_fields, "block.1.rd.reqs,cpu.time");
    struct report *r = report_build(rd);
    assert_true(r->has_layers);

    const struct report_cell *hc = &r->variants[0].cells[0], *gc = &r->variants[0].cells[1];
    const struct gap_arm *h = &hc->layers, *g = &gc->layers;
    assert_int_equal(h->targets, 1);
    assert_false(h->guest);
    assert_near(h->w, 0.020, 1e-12);
    assert_near(h->cpu, 0.012, 1e-12);
    assert_near(h->cmp, 0.001, 1e-12);
    assert_near(h->rd, 0.002, 1e-12);
    assert_near(h->wr, 0.0015, 1e-12);
    assert_near(h->layer[GAP_LAYER_HOST].hit, 0.8, 1e-12);
    assert_true(isnan(h->layer[GAP_LAYER_GUEST].reads)); /* not a layer of the host arm */

    assert_int_equal(g->targets, 2); /* run 5 failed: not counted */
    assert_true(g->guest);
    assert_near(g->w, 0.090, 1e-12);
    assert_near(g->cpu, 0.050, 1e-12);
    assert_near(g->cmp, 0.0045, 1e-12);
    assert_near(g->rd, 0.0115, 1e-12);
    assert_near(g->wr, 0.007, 1e-12);
    assert_near(g->tps, 11.25, 1e-12);
    assert_near(g->layer[GAP_LAYER_INNODB].reads, 4, 1e-12);
    assert_near(g->layer[GAP_LAYER_GUEST].reads, 1, 1e-12);
    assert_near(g->layer[GAP_LAYER_QEMU].reads, 1, 1e-12);
    assert_near(g->layer[GAP_LAYER_HOST].reads, 0.27, 1e-12);
    assert_near(g->layer[GAP_LAYER_INNODB].hit, 0.9, 1e-12);
    assert_near(g->layer[GAP_LAYER_GUEST].hit, 0.75, 1e-12);
    assert_near(g->layer[GAP_LAYER_HOST].hit, 0.73, 1e-12);
    assert_near(g->copies, 1.625, 1e-12);
    assert_int_equal(g->problems, 0);

    const struct gap_split *s = &gc->gap;
    assert_true(s->valid);
    assert_false(hc->gap.valid);
    assert_near(s->delta, 0.070, 1e-12);
    assert_near(s->loss, 0.8875, 1e-12);
    assert_near(s->part[GAP_CPU_VIRT], 0.0345, 1e-12);
    assert_near(s->part[GAP_CPU_CMP], 0.0035, 1e-12);
    assert_near(s->part[GAP_READS], 0.0095, 1e-12);
    assert_near(s->part[GAP_WRITES], 0.0055, 1e-12);
    assert_near(s->residual, 0.017, 1e-12);
    assert_false(s->explained);
    assert_near(gap_points(s, s->part[GAP_CPU_VIRT]), 43.7410714286, 1e-8);
    assert_near(gap_points(s, s->part[GAP_CPU_CMP]), 4.4375, 1e-9);
    assert_near(gap_points(s, s->part[GAP_READS]), 12.0446428571, 1e-8);
    assert_near(gap_points(s, s->part[GAP_WRITES]), 6.9732142857, 1e-8);
    assert_near(gap_points(s, s->residual), 21.5535714286, 1e-8);
    char text[2048];
    gap_sentence(s, "guest", "host", text, sizeof(text));
    assert_string_equal(text,
                        "guest loses 88.8 % of host's TPS per guest: 43.7 points CPU "
                        "(virtualization/emulation), 12.0 points reads a cache above would have "
                        "served, 7.0 points writes and flushes, 4.4 points compression CPU; "
                        "residual 21.6 points. The model does not explain this run: the residual "
                        "is 24 % of the difference (more than 15 %).");

    /* variant 2: a counter absent, counters that do not fit together */
    const struct gap_arm *g2 = &r->variants[1].cells[1].layers;
    const struct gap_split *s2 = &r->variants[1].cells[1].gap;
    assert_true(isnan(g2->wr));
    assert_near(g2->layer[GAP_LAYER_HOST].reads, 0.27, 1e-12);
    assert_true(isnan(s2->part[GAP_WRITES]));
    assert_near(s2->residual, 0.0225, 1e-12);
    gap_sentence(s2, "guest", "host", text, sizeof(text));
    assert_non_null(strstr(text, "residual 28.5 points (n/a, in the residual: writes and "
                                 "flushes)."));
    assert_int_equal(g2->problems, GAP_CHECK_GUEST_READS | GAP_CHECK_QEMU_READS);
    int notes = 0;
    for (size_t i = 0; i < r->n_notes; i++)
        if (r->notes[i].kind == NOTE_LAYERS) {
            notes++;
            assert_non_null(strstr(r->notes[i].text,
                                   "arm guest, variant 2: the layers' counters do not fit "
                                   "together: guest block reads (1325) exceed 1.25 x InnoDB data "
                                   "reads (900) + 64 per target for readahead. QEMU read "
                                   "requests (225) differ from guest block reads (1325)"));
        }
    assert_int_equal(notes, 1);

    /* every format shows it: n/a, never 0 */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_print(r, REPORT_TABLE, out);
    fclose(out);
    if (getenv("VBED_TEST_SHOW"))
        fputs(buf, stderr);
    assert_non_null(strstr(buf, "Where the time goes, per thread and transaction"));
    assert_non_null(strstr(buf, "  guest  host  88.8 %       70.00 ms  43.7 pts (34.50 ms)"));
    assert_non_null(strstr(buf, "12.0 pts (9.50 ms)     n/a  28.5 pts (22.50 ms)  no"));
    free(buf);
    report_free(r);
    results_data_free(rd);
    test_remove_dir(dir);
    free(dir);
}

/* gap_split on figures given directly. g: w 50 ms, cpu 40, cmp 2, rd 4, wr
 * 2, 20 TPS; h: w 4 ms, cpu 3, cmp 0.5, rd 0.3, wr 0.2, 250 TPS. delta 46;
 * cpu_virt (40 - 2) - (3 - 0.5) = 35.5; cpu_cmp 1.5; reads 3.7; writes
 * 1.8; residual 46 - 42.5 = 3.5 (7.6 %: explained). loss 1 - 20/250 =
 * 0.92; points x 92 / 46 = x 2: 71, 3, 7.4, 3.6, residual 7. */
static void split_by_hand(void **state)
{
    (void)state;
    struct gap_arm g = {.guest = true, .tps = 20, .w = 0.050, .cpu = 0.040, .cmp = 0.002,
                        .rd = 0.004, .wr = 0.002};
    struct gap_arm h = {.tps = 250, .w = 0.004, .cpu = 0.003, .cmp = 0.0005, .rd = 0.0003,
                        .wr = 0.0002};
    struct gap_split s;
    gap_split(&g, &h, &s);
    assert_true(s.valid);
    assert_true(s.explained);
    assert_near(s.delta, 0.046, 1e-12);
    assert_near(gap_points(&s, s.part[GAP_CPU_VIRT]), 71, 1e-9);
    assert_near(gap_points(&s, s.part[GAP_CPU_CMP]), 3, 1e-9);
    assert_near(gap_points(&s, s.part[GAP_READS]), 7.4, 1e-9);
    assert_near(gap_points(&s, s.part[GAP_WRITES]), 3.6, 1e-9);
    assert_near(gap_points(&s, s.residual), 7, 1e-9);
    assert_near(gap_other(&g), 0.004, 1e-12);
    char text[1024];
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_string_equal(text, "tuned loses 92.0 % of host's TPS per guest: 71.0 points CPU "
                              "(virtualization/emulation), 7.4 points reads a cache above would "
                              "have served, 3.6 points writes and flushes, 3.0 points compression "
                              "CPU; residual 7.0 points.");

    /* compression CPU not measured on one side: it stays in the CPU part */
    g.cmp = NAN;
    g.cmp_in_cpu = true;
    gap_split(&g, &h, &s);
    assert_true(isnan(s.part[GAP_CPU_CMP]));
    assert_near(s.part[GAP_CPU_VIRT], 0.037, 1e-12); /* 40 - 3 */
    assert_near(s.residual, 0.046 - 0.037 - 0.0037 - 0.0018, 1e-12);

    /* no TPS for the host arm, or no time per transaction: no split */
    g.cmp = 0.002;
    h.tps = NAN;
    gap_split(&g, &h, &s);
    assert_false(s.valid);
    assert_true(isnan(gap_points(&s, 0.01)));
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_string_equal(text, "");
    h.tps = 250;
    g.w = NAN;
    gap_split(&g, &h, &s);
    assert_false(s.valid);
}

/* Results without layer counters read as before: no layers, no split. */
static void without_layers(void **state)
{
    (void)state;
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), "results/quickstart-cache");
    struct results_data *rd = results_read(path);
    assert_non_null(rd);
    struct report *r = report_build(rd);
    assert_false(r->has_layers);
    for (size_t a = 0; a < rd->n_arms; a++) {
        assert_int_equal(r->variants[0].cells[a].layers.targets, 0);
        assert_false(r->variants[0].cells[a].gap.valid);
    }
    report_free(r);
    results_data_free(rd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(measured_and_split),
        cmocka_unit_test(split_by_hand),
        cmocka_unit_test(without_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
