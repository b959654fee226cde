/* test_report_compare.c: `vbed compare` of the two fixtures under
 * tests/data/results: quickstart-cache (A: 3 repeats) against
 * quickstart-trx2-interrupted (B: flush_log_at_trx_commit = 2, interrupted
 * in repeat 2). Golden files for every format, and the verdicts and Welch
 * figures checked against mpmath (see test_stats.c for how). */
#include "testutil.h"
#include "report/compare.h"
#include "util/log.h"

#include <math.h>

struct fixture {
    struct results_data *a, *b;
    struct report *ra, *rb;
    struct comparison *c;
};

static struct results_data *load(const char *name)
{
    char rel[128], path[PATH_MAX];
    snprintf(rel, sizeof(rel), "results/%s", name);
    test_data_path(path, sizeof(path), rel);
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap); /* B's cut line is test_report.c's business */
    struct results_data *rd = results_read(path);
    log_set_sink(NULL, NULL);
    assert_non_null(rd);
    return rd;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    f->a = load("quickstart-cache");
    f->b = load("quickstart-trx2-interrupted");
    f->ra = report_build(f->a);
    f->rb = report_build(f->b);
    f->c = compare_build(f->ra, f->rb);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    compare_free(f->c);
    report_free(f->ra);
    report_free(f->rb);
    results_data_free(f->a);
    results_data_free(f->b);
    free(f);
    return 0;
}

static void golden_outputs(void **state)
{
    struct fixture *f = *state;
    static const struct {
        enum report_format f;
        const char *file;
    } outs[] = {
        {REPORT_TABLE, "report/compare.table"},
        {REPORT_CSV, "report/compare.csv"},
        {REPORT_JSON, "report/compare.json"},
        {REPORT_MARKDOWN, "report/compare.md"},
    };
    for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        compare_print(f->c, outs[i].f, out);
        fclose(out);
        golden_check(outs[i].file, buf);
        if (outs[i].f == REPORT_TABLE) {
            assert_non_null(strstr(buf, "not comparable with KVM"));
            assert_non_null(strstr(buf, "The scenario files differ"));
        }
        free(buf);
    }
}

/* Welch (B vs A), mpmath on the tps_arm values of the fixtures:
 *   host:  A 592.565 615.717 604.793, B 623.433 619.375 (runs 1, 5)
 *          t = 2.43928044936, df = 2.34546277402, p = 0.116337869723
 *   guest: A 29.381 30.005 29.886, B 34.126 33.982
 *          t = 21.0230334661, df = 2.50628129752, p = 0.000696137216127 */
static void verdicts(void **state)
{
    struct fixture *f = *state;
    const struct comparison *c = f->c;
    assert_int_equal(c->n_rows, 6); /* 2 variants x 3 arms, all on both sides */
    static const struct {
        const char *variant, *arm;
        enum compare_verdict v;
    } want[] = {
        {"guest.disk_cache=writeback", "host", VERDICT_NOT_SIGNIFICANT},
        {"guest.disk_cache=writeback", "guest", VERDICT_SIGNIFICANT},
        {"guest.disk_cache=writeback", "tuned", VERDICT_TOO_FEW},
        {"guest.disk_cache=writethrough", "host", VERDICT_NOT_SIGNIFICANT},
        {"guest.disk_cache=writethrough", "guest", VERDICT_TOO_FEW},
        {"guest.disk_cache=writethrough", "tuned", VERDICT_TOO_FEW},
    };
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(c->rows[i].variant, want[i].variant);
        assert_string_equal(c->rows[i].arm, want[i].arm);
        assert_int_equal(c->rows[i].verdict, want[i].v);
    }
    const struct compare_row *host = &c->rows[0], *guest = &c->rows[1];
    assert_near(host->welch.t, 2.43928044936, 1e-8);
    assert_near(host->welch.df, 2.34546277402, 1e-8);
    assert_near(host->welch.p, 0.116337869723, 1e-8);
    assert_near(guest->welch.t, 21.0230334661, 1e-7);
    assert_near(guest->welch.df, 2.50628129752, 1e-8);
    assert_near(guest->welch.p, 0.000696137216127, 1e-9);
    /* B is faster: (mean B - mean A) / mean A */
    assert_near(guest->diff_pct,
                ((34.126 + 33.982) / 2 / ((29.381 + 30.005 + 29.886) / 3) - 1) * 100, 1e-9);
    assert_string_equal(compare_verdict_name(VERDICT_TOO_FEW), "too few repeats");
}

/* A results directory compared with itself: every difference 0, nothing
 * significant; and variants or arms present on one side only. */
static void self_and_missing(void **state)
{
    struct fixture *f = *state;
    struct comparison *self = compare_build(f->ra, f->ra);
    for (size_t i = 0; i < self->n_rows; i++) {
        assert_near(self->rows[i].diff_pct, 0, 1e-12);
        assert_int_equal(self->rows[i].verdict, VERDICT_NOT_SIGNIFICANT);
        assert_near(self->rows[i].welch.p, 1, 1e-12);
    }
    compare_free(self);

    /* rename B's second variant and its tuned arm: they no longer match */
    char *label = f->b->variants[1].label, *arm = f->b->arms[2].name;
    f->b->variants[1].label = "guest.disk_cache=unsafe";
    f->b->arms[2].name = "tuned2";
    struct comparison *c = compare_build(f->ra, f->rb);
    size_t only_a = 0, only_b = 0;
    for (size_t i = 0; i < c->n_rows; i++) {
        only_a += c->rows[i].verdict == VERDICT_ONLY_A;
        only_b += c->rows[i].verdict == VERDICT_ONLY_B;
    }
    /* A: writethrough x 3 arms + writeback/tuned; B: unsafe x 3 arms + writeback/tuned2 */
    assert_int_equal(only_a, 4);
    assert_int_equal(only_b, 4);
    assert_int_equal(c->n_rows, 2 + 4 + 4);
    compare_free(c);
    f->b->variants[1].label = label;
    f->b->arms[2].name = arm;
}

/* results_data made by hand: labels results_read() would refuse ("") or
 * that a plan may repeat, no samples. */
static struct results_data *handmade(const char *const *labels, size_t nv,
                                     const char *const *arms, size_t na)
{
    struct results_data *rd = calloc(1, sizeof(*rd));
    rd->variants = calloc(nv, sizeof(*rd->variants));
    for (size_t v = 0; v < nv; v++) {
        rd->variants[v].index = (int)v + 1;
        rd->variants[v].label = strdup(labels[v]);
    }
    rd->n_variants = nv;
    rd->arms = calloc(na, sizeof(*rd->arms));
    for (size_t a = 0; a < na; a++) {
        rd->arms[a].name = strdup(arms[a]);
        rd->arms[a].kind = strdup(a ? "guest" : "host");
    }
    rd->n_arms = na;
    static const char *const fields[] = {"dir", "scenario_name", "scenario_sha256", "status",
                                         "accel", "accel_reason", "started_at", "ended_at"};
    char **f[] = {&rd->dir,   &rd->scenario_name, &rd->scenario_sha256, &rd->status,
                  &rd->accel, &rd->accel_reason,  &rd->started_at,      &rd->ended_at};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        *f[i] = strdup("");
    return rd;
}

/* Repeated and empty variant labels: rows were allocated as variants x arms
 * per side, but B-only rows were added once per matching A variant, past
 * the end of the array (a heap overflow under ASan). Each (label, arm) now
 * comes once. */
static void repeated_and_empty_labels(void **state)
{
    (void)state;
    static const char *const la[] = {"x", "x", "x", "x", "", ""}, *const lb[] = {"x", ""};
    static const char *const aa[] = {"host"}, *const ab[] = {"host", "b1", "b2", "b3", "b4"};
    struct results_data *a = handmade(la, 6, aa, 1), *b = handmade(lb, 2, ab, 5);
    struct report *ra = report_build(a), *rb = report_build(b);
    struct comparison *c = compare_build(ra, rb);
    /* A: 6 host rows (one per A variant); B only: b1..b4 for "x" and for "" */
    assert_int_equal(c->n_rows, 6 + 4 + 4);
    size_t only_b = 0;
    for (size_t i = 0; i < c->n_rows; i++) {
        if (c->rows[i].verdict != VERDICT_ONLY_B)
            continue;
        only_b++;
        for (size_t k = 0; k < i; k++)
            if (c->rows[k].verdict == VERDICT_ONLY_B)
                assert_false(!strcmp(c->rows[k].variant, c->rows[i].variant) &&
                             !strcmp(c->rows[k].arm, c->rows[i].arm));
    }
    assert_int_equal(only_b, 8);
    /* and the other way round, and each side against itself */
    struct comparison *d = compare_build(rb, ra), *e = compare_build(ra, ra);
    assert_true(d->n_rows >= 10);
    assert_int_equal(e->n_rows, 6);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    for (int f = REPORT_TABLE; f <= REPORT_MARKDOWN; f++)
        compare_print(c, (enum report_format)f, out);
    fclose(out);
    free(buf);
    compare_free(c);
    compare_free(d);
    compare_free(e);
    report_free(ra);
    report_free(rb);
    results_data_free(a);
    results_data_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_outputs),
        cmocka_unit_test(verdicts),
        cmocka_unit_test(self_and_missing),
        cmocka_unit_test(repeated_and_empty_labels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
