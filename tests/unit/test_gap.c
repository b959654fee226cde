/* test_gap.c: the layers of where a transaction's time goes (gap.c), on a
 * hand-made results directory whose expected figures are computed by hand
 * below: per-target means of the thread time, the layers' hit ratios and
 * copies, a host device shared by two guests, the consistency checks; a
 * results directory without the chain's counters has no budget (every
 * part n/a, never 0: the difference is all residual, not explained); and
 * gap_split and its sentence on figures given directly (parts beyond 2
 * sigma named, the others counted; compression as an "of which"; a budget
 * that does not close; no TPS). test_budget.c checks the budget itself. */
#include "testutil.h"
#include "model/gap.h"
#include "util/log.h"
#include "util/xalloc.h"
#include "report/report.h"

#include <math.h>

/* Variant 1 and 2: the same runs (host seq 1/3, guest seq 2/4), but in
 * variant 2 guest 2 has no guest_disk_flush_ms and guest 1 reads far more
 * blocks than InnoDB asked for. */
/* meta.json, the guest runs' disk_cache left to fill in (%s twice) */
static const char meta_fmt[] =
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
    "              \"disk_cache\": \"%s\"}},\n"
    "  {\"seq\": 3, \"arm\": \"host\", \"repeat\": 1, \"variants\": [2], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"2\", \"compression\": \"row-zlib\"}},\n"
    "  {\"seq\": 4, \"arm\": \"guest\", \"repeat\": 1, \"variants\": [2], \"status\": \"ok\",\n"
    "   \"config\": {\"threads\": \"1\", \"guests\": \"2\", \"compression\": \"row-zlib\",\n"
    "              \"disk_cache\": \"%s\"}},\n"
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
static char *make_results_with(const char *disk_cache, double device_reads)
{
    char *dir = strdup("/tmp/vbed-test-gap.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *m = xasprintf(meta_fmt, disk_cache, disk_cache);
    test_write_file(dir, "meta.json", m);
    free(m);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int v = 1; v <= 2; v++) {
        int hs = 2 * v - 1, gs = 2 * v;
        sample(f, "tps_arm", 100, "host", hs, 0, "");
        sample(f, "tps_arm", 22.5, "guest", gs, 0, "");
        struct counters h = {1000, 10, 12, 1, 2000, 1000, 500, 500, -1, -1, 100};
        struct counters g1 = {100, 10, 6, 0.5, 1500, 500, 500, 400, 100, 100, device_reads};
        struct counters g2 = {125, 10, 5, 0.5, 1000, 250, 250, 500, 125, 125, device_reads};
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

static char *make_results(void)
{
    return make_results_with("writeback", 60);
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
    assert_int_equal(h->budgets, 0); /* no chain counters: no budget */
    assert_true(isnan(h->cpu));
    assert_true(isnan(gap_other(h)));
    assert_near(h->cmp, 0.001, 1e-12);
    assert_near(h->layer[GAP_LAYER_HOST].hit, 0.8, 1e-12);
    assert_true(isnan(h->layer[GAP_LAYER_GUEST].reads)); /* not a layer of the host arm */

    assert_int_equal(g->targets, 2); /* run 5 failed: not counted */
    assert_true(g->guest);
    assert_near(g->w, 0.090, 1e-12);
    /* 100 and 80 ms, but the two guests of one run: no CI (not independent) */
    assert_true(isnan(g->w_ci));
    assert_near(g->cmp, 0.0045, 1e-12);
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

    /* no budget on either side: every part n/a, the difference all residual */
    const struct gap_split *s = &gc->gap;
    assert_true(s->valid);
    assert_false(hc->gap.valid);
    assert_near(s->delta, 0.070, 1e-12);
    assert_near(s->loss, 0.8875, 1e-12);
    for (int p = 0; p < GAP_PARTS; p++)
        assert_true(isnan(s->part[p]));
    assert_near(s->residual, 0.070, 1e-12);
    assert_near(s->cmp, 0.0035, 1e-12);
    assert_false(s->explained);
    char text[2048];
    gap_sentence(s, "guest", "host", text, sizeof(text));
    /* one run: no +- */
    assert_non_null(strstr(text, "guest loses 88.8 % of host's TPS per guest: residual 88.8 points (n/a"));
    assert_non_null(strstr(text, "(n/a, in the residual: CPU (virtualization/emulation), CPU "
                                 "contention, foreground reads, commit I/O, locks, client and "
                                 "hand-off). The model does not explain this run: neither arm's "
                                 "budget closes."));
    gap_budget_sentence(g, "guest", text, sizeof(text));
    assert_string_equal(text, "guest has no budget: the chain of its targets was not read "
                              "(probes/chain.h).");

    /* variant 2: counters that do not fit together */
    const struct gap_arm *g2 = &r->variants[1].cells[1].layers;
    assert_near(g2->layer[GAP_LAYER_HOST].reads, 0.27, 1e-12);
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
    assert_non_null(strstr(buf, "  guest  host  88.8 %  difference                      70.00    88.8"));
    assert_non_null(strstr(buf, "CPU (virtualization/emulation)    n/a     n/a            n/a\n"));
    assert_non_null(strstr(buf, "  guest has no budget: the chain of its targets was not read"));
    free(buf);
    report_free(r);
    results_data_free(rd);
    test_remove_dir(dir);
    free(dir);
}

/* gap_split on figures given directly. g: w 50 ms, CPU 40 +- 1 (of which
 * compression 2 +- 1), contention 3 +- 0.5, reads 2 +- 0.2, commit 1.5 +-
 * 0.1, locks 0.2 +- 0.5, client 2 +- 0.1, other 1.3; h: w 4 ms, CPU 3,
 * contention 0.2, reads 0.2, commit 0.3, locks 0.1, client 0.1, other 0.1
 * (sigma 0.1 each, compression 0.5 +- 0.5). delta 46 ms; the parts'
 * differences 37, 2.8, 1.8, 1.2, 0.1, 1.9 (42.8 + residual 1.2, 2.6 %:
 * explained); loss 1 - 20 / 250 = 0.92: points = ms x 2. Locks (0.1 +-
 * 0.51) are within their noise and not named; compression (1.5 +- 1.12)
 * neither. */
static void arm(struct gap_arm *a, double w, const double part[GAP_PARTS], const double sigma[GAP_PARTS],
                double other, double cmp, double cmp_ci)
{
    a->w = w;
    a->w_ci = 0;
    for (int p = 0; p < GAP_PARTS; p++) {
        a->part[p] = part[p];
        a->ci[p] = sigma[p];
    }
    a->other = other;
    a->other_ci = 0.0001;
    a->cmp = cmp;
    a->cmp_ci = cmp_ci;
    a->targets = a->budgets = 1;
    a->closes = true;
}

/* The run is the unit: the same four targets (guest 1: 100 ms a
 * transaction, guest 2: 80 ms) as two runs of {1, 2} agree run to run (CI
 * 0: w has no resolution term), as runs {1, 1} and {2, 2} they differ by 20
 * ms: CI = t(0.975, 1) x 20 / 2 ms = 127.06 ms. By target both would be
 * t(0.975, 3) x 11.55 / 2 = 18.4 ms. */
static void ci_by_run(void **state)
{
    (void)state;
    struct counters g1 = {100, 10, 6, 0.5, 1500, 500, 500, 400, 100, 100, 60};
    struct counters g2 = {125, 10, 5, 0.5, 1000, 250, 250, 500, 125, 125, 60};
    for (int mixed = 0; mixed <= 1; mixed++) {
        char *dir = strdup("/tmp/vbed-test-gap.XXXXXX");
        assert_non_null(mkdtemp(dir));
        char *m = xasprintf(meta_fmt, "writeback", "writeback");
        char *failed = strstr(m, "\"failed\"");
        memcpy(failed, "\"ok\"    ", 8); /* run 5: a second repeat of the guest arm */
        test_write_file(dir, "meta.json", m);
        free(m);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        sample(f, "tps_arm", 22.5, "guest", 2, 0, "");
        sample(f, "tps_arm", 22.5, "guest", 5, 0, "");
        target(f, "guest", 2, 1, &g1, true);
        target(f, "guest", 2, 2, mixed ? &g2 : &g1, true);
        target(f, "guest", 5, 1, mixed ? &g1 : &g2, true);
        target(f, "guest", 5, 2, &g2, true);
        fclose(f);
        test_write_file(dir, "samples.jsonl", text);
        free(text);
        struct results_data *rd = results_read(dir);
        assert_non_null(rd);
        struct gap_arm g;
        gap_measure_arm(rd, 1, &rd->arms[1], &g);
        assert_int_equal(g.targets, 4);
        assert_near(g.w, 0.090, 1e-12);
        if (mixed)
            assert_near(g.w_ci, 0, 1e-9);
        else
            assert_near(g.w_ci, 12.7062047 * 0.010, 1e-7);
        results_data_free(rd);
        test_remove_dir(dir);
        free(dir);
    }
}

static void split_by_hand(void **state)
{
    (void)state;
    struct gap_arm g = {.guest = true, .tps = 20}, h = {.tps = 250};
    arm(&g, 0.050, (const double[]){0.040, 0.003, 0.002, 0.0015, 0.0002, 0.002},
        (const double[]){0.001, 0.0005, 0.0002, 0.0001, 0.0005, 0.0001}, 0.0013, 0.002, 0.001);
    arm(&h, 0.004, (const double[]){0.003, 0.0002, 0.0002, 0.0003, 0.0001, 0.0001},
        (const double[]){0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001}, 0.0001, 0.0005, 0.0005);
    struct gap_split s;
    gap_split(&g, &h, &s);
    assert_true(s.valid);
    assert_true(s.explained);
    assert_near(s.delta, 0.046, 1e-12);
    assert_near(s.part[GAP_CPU], 0.037, 1e-12);
    assert_near(s.ci[GAP_CPU], sqrt(0.001 * 0.001 + 0.0001 * 0.0001), 1e-12);
    assert_near(s.residual, 0.0012, 1e-12);
    assert_near(gap_points(&s, s.part[GAP_CPU]), 74, 1e-9);
    assert_near(gap_points(&s, s.residual), 2.4, 1e-9);
    assert_near(gap_other(&g), 0.0013, 1e-12);
    char text[1024];
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_string_equal(text, "tuned loses 92.0 % of host's TPS per guest: 74.0 +- 2.0 points CPU "
                              "(virtualization/emulation) (of which the server's compression 3.0 +- 2.2 "
                              "points), 5.6 +- 1.0 points CPU contention, 3.8 "
                              "+- 0.3 points client and hand-off, 3.6 +- 0.4 points foreground "
                              "reads, 2.4 +- 0.3 points commit I/O; residual 2.4 +- 0.3 points. 1 "
                              "other part has a 95 % CI that holds 0.");

    /* compression beyond its noise: named as an "of which" of CPU */
    g.cmp_ci = 0.0001;
    h.cmp_ci = 0.0001;
    gap_split(&g, &h, &s);
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_non_null(strstr(text, "74.0 +- 2.0 points CPU (virtualization/emulation) (of which "
                                 "the server's compression 3.0 +- 0.3 points), "));
    /* compression moved more than the CPU (40 ms against 37): no "of
     * which" larger than its whole, but the rest of the CPU beside it */
    double cmp = g.cmp;
    g.cmp = 0.0405;
    gap_split(&g, &h, &s);
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_non_null(strstr(text, "74.0 +- 2.0 points CPU (virtualization/emulation) (the server's "
                                 "compression 80.0 +- 0.3 points, the rest of the CPU -6.0 +- 2.0 "
                                 "points), "));
    g.cmp = cmp;
    /* a part sure of its sign but under 0.05 points (locks: 0.024 ms, 0.048
     * points, sigma 1.4 us) is counted, not named as "0.0 points" */
    double locks[2] = {g.part[GAP_LOCKS], g.ci[GAP_LOCKS]}, hl = h.ci[GAP_LOCKS];
    g.part[GAP_LOCKS] = h.part[GAP_LOCKS] + 0.000024;
    g.ci[GAP_LOCKS] = h.ci[GAP_LOCKS] = 0.000001;
    gap_split(&g, &h, &s);
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_null(strstr(text, "locks"));
    assert_non_null(strstr(text, " 1 other part is under 0.05 points."));
    assert_null(strstr(text, "CI that holds 0"));
    g.part[GAP_LOCKS] = locks[0], g.ci[GAP_LOCKS] = locks[1], h.ci[GAP_LOCKS] = hl;

    /* a budget that does not close: never explained, whatever the residual */
    g.closes = false;
    gap_split(&g, &h, &s);
    assert_false(s.explained);
    gap_sentence(&s, "tuned", "host", text, sizeof(text));
    assert_non_null(strstr(text, " The model does not explain this run: the budget of tuned does "
                                 "not close."));
    g.other = -0.006; /* -12 % of w: the causes exceed the waits */
    g.tps_check = GAP_TPS_COUNT;
    g.tps_diff = 0.001;
    g.states_over = 0;
    gap_budget_sentence(&g, "tuned", text, sizeof(text));
    assert_string_equal(text, "The budget of tuned does not close: -12.0 % of its thread time waiting, "
                              "unattributed (-6.00 of 50.00 ms per transaction; limits +-10 %); the "
                              "causes exceed the waits: a counter overlaps another or reads high.");
    /* each reason it does not close is said: a TPS 20 % off the server's
     * count, states over their interval */
    g.other = 0.001;
    g.tps_diff = 0.2;
    g.states_over = 0.03;
    gap_budget_sentence(&g, "tuned", text, sizeof(text));
    assert_string_equal(text, "The budget of tuned does not close: 2.0 % of its thread time waiting, "
                              "unattributed (1.00 of 50.00 ms per transaction; limits +-10 %); "
                              "sysbench's transactions are +20.0 % of the server's count (limit 2 %); "
                              "its thread's states exceed their interval by 3.0 % (limit 2 %).");
    g.tps_check = GAP_TPS_NONE;
    g.states_over = 0;
    gap_budget_sentence(&g, "tuned", text, sizeof(text));
    assert_non_null(strstr(text, "; sysbench's transactions could not be checked against the server's."));
    g.other = -0.006;

    /* no TPS for the host arm, or no time per transaction: no split */
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

/* cache=none: a read QEMU issued that never reached the host device is a
 * misfit; device reads beyond QEMU's are the device's other users (CI saw
 * 281 against 0 with the data in the pool) */
static void hostdev_reads_fit(void **state)
{
    (void)state;
    assert_true(gap_hostdev_reads_fit(281, 0));
    assert_true(gap_hostdev_reads_fit(0, 0));
    assert_true(gap_hostdev_reads_fit(1000, 800));
    assert_true(gap_hostdev_reads_fit(750, 1000));
    assert_false(gap_hostdev_reads_fit(749, 1000));
    assert_false(gap_hostdev_reads_fit(0, 100));
}

/* The same check through gap_measure_arm, on the fixture with its guests
 * under cache=none: the two guests' QEMU issued 225 reads; the device they
 * share served 60 (a misfit: below 75 %), then 281 (its other users) */
static void cache_none_device_reads(void **state)
{
    (void)state;
    static const struct {
        const char *cache;
        double device;
        bool misfit;
    } cases[] = {{"none", 60, true}, {"none", 281, false}, {"writeback", 60, false}};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char *dir = make_results_with(cases[k].cache, cases[k].device);
        struct results_data *rd = results_read(dir);
        assert_non_null(rd);
        struct report *r = report_build(rd);
        const struct gap_arm *g = &r->variants[0].cells[1].layers;
        assert_int_equal(g->cache_none, !strcmp(cases[k].cache, "none"));
        assert_near(g->sum_qemu_reads, 225, 1e-9);
        assert_near(g->sum_host_reads, cases[k].device, 1e-9);
        assert_int_equal(!!(g->problems & GAP_CHECK_HOSTDEV_READS), cases[k].misfit);
        if (cases[k].misfit) {
            char text[1024];
            gap_problems_text(g, text, sizeof(text));
            assert_non_null(strstr(text, "host device reads"));
        }
        report_free(r);
        results_data_free(rd);
        test_remove_dir(dir);
        free(dir);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(measured_and_split),
        cmocka_unit_test(ci_by_run),
        cmocka_unit_test(split_by_hand),
        cmocka_unit_test(without_layers),
        cmocka_unit_test(hostdev_reads_fit),
        cmocka_unit_test(cache_none_device_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
