/* test_misscost.c: the miss-cost probe (workloads/misscost.h). Its
 * statements (a golden file for a small table): each pass looks up n
 * distinct ids, one in each of n equal strata of the table (cold), then
 * the same ids again (hot); the passes differ; the timers and counters
 * frame every lookup alike. Its reply: exactly one row of four non-negative
 * finite numbers, anything else refused with the reason. A miss's cost:
 * the cold passes' extra time over their extra misses, n/a below the
 * report's floor. */
#include "testutil.h"
#include "model/gap.h"
#include "workloads/misscost.h"

#include <math.h>

static size_t count(char **st)
{
    size_t n = 0;
    while (st[n])
        n++;
    return n;
}

/* the ids of "... WHERE id IN (a,b,...)" */
static size_t ids_of(const char *stmt, long long *ids, size_t cap)
{
    const char *p = strstr(stmt, "WHERE id IN (");
    assert_non_null(p);
    p += strlen("WHERE id IN (");
    size_t n = 0;
    while (*p && *p != ')') {
        char *end;
        long long v = strtoll(p, &end, 10);
        assert_true(end > p);
        assert_true(n < cap);
        ids[n++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    assert_int_equal(*p, ')');
    return n;
}

static void statements(void **state)
{
    (void)state;
    char **st = misscost_statements(100000, 1);
    assert_int_equal(count(st), 1 + 6 * MISSCOST_PASSES + 1);
    assert_string_equal(st[0], "SET @hs = 0, @hr = 0, @cs = 0, @cr = 0");
    static long long ids[MISSCOST_IDS + 1], first[MISSCOST_IDS];
    for (int p = 0; p < MISSCOST_PASSES; p++) {
        char **pass = st + 1 + 6 * p;
        assert_non_null(strstr(pass[0], "SET @t = "));
        assert_non_null(strstr(pass[2], "SET @cs = @cs + "));
        assert_non_null(strstr(pass[3], "SET @t = "));
        assert_string_equal(pass[4], pass[1]); /* hot: the same pages again */
        assert_non_null(strstr(pass[5], "SET @hs = @hs + "));
        assert_int_equal(ids_of(pass[1], ids, MISSCOST_IDS + 1), MISSCOST_IDS);
        long long stratum = 100000 / MISSCOST_IDS;
        bool same = true;
        for (size_t i = 0; i < MISSCOST_IDS; i++) {
            assert_true(ids[i] >= (long long)i * stratum + 1);
            assert_true(ids[i] <= (long long)(i + 1) * stratum);
            if (p == 0)
                first[i] = ids[i];
            else
                same &= first[i] == ids[i];
        }
        if (p > 0)
            assert_false(same); /* new pages each pass */
    }
    assert_string_equal(st[count(st) - 1], "SELECT @hs, @hr, @cs, @cr");
    misscost_free(st);

    /* a table smaller than n: every id once */
    st = misscost_statements(50, 1);
    assert_int_equal(ids_of(st[2], ids, MISSCOST_IDS + 1), 50);
    for (size_t i = 0; i < 50; i++)
        assert_int_equal(ids[i], (long long)i + 1);
    misscost_free(st);

    /* the whole text for a small table */
    st = misscost_statements(1000, 2);
    char *all = sql_script((const char *const *)st);
    golden_check("golden/misscost-1000.sql", all);
    free(all);
    misscost_free(st);
}

static int parse_row(const char *a, const char *b, const char *c, const char *d, struct misscost *m,
                     char *err)
{
    char *cells[] = {(char *)a, (char *)b, (char *)c, (char *)d};
    struct sql_result r = {.rows = 1, .cols = 4, .cells = cells};
    return misscost_parse(&r, m, err, 160);
}

static void reply(void **state)
{
    (void)state;
    struct misscost m;
    char err[160];
    assert_int_equal(parse_row("0.500000", "0", "3.5", "600", &m, err), 0);
    assert_near(m.hot_s, 0.5, 0);
    assert_near(m.hot_reads, 0, 0);
    assert_near(m.cold_s, 3.5, 0);
    assert_near(m.cold_reads, 600, 0);
    assert_near(misscost_per_miss(&m), 0.005, 1e-15);

    const char *bad[] = {"", "NULL", "-1", "nan", "inf", "1e400", "12abc", " 3", "0x10", "+1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse_row("1", "2", bad[i], "4", &m, err), -1);
        assert_non_null(strstr(err, "figure 3 is not a non-negative number"));
    }
    char *cells[] = {"1", "2", "3", "4", "5", "6", "7", "8"};
    struct sql_result two = {.rows = 2, .cols = 4, .cells = cells};
    assert_int_equal(misscost_parse(&two, &m, err, sizeof(err)), -1);
    assert_string_equal(err, "expected one row of 4 figures, got 2 rows of 4");
    struct sql_result narrow = {.rows = 1, .cols = 3, .cells = cells};
    assert_int_equal(misscost_parse(&narrow, &m, err, sizeof(err)), -1);
    struct sql_result none = {0};
    assert_int_equal(misscost_parse(&none, &m, err, sizeof(err)), -1);
    assert_string_equal(err, "expected one row of 4 figures, got 0 rows of 0");
}

static void cost(void **state)
{
    (void)state;
    /* below the floor: not known, never a cost from a handful of misses */
    struct misscost m = {.hot_s = 0.5, .cold_s = 0.9, .hot_reads = 3,
                         .cold_reads = 3 + GAP_MISS_PROBE_MIN - 1};
    assert_true(isnan(misscost_per_miss(&m)));
    m.cold_reads += 1;
    assert_near(misscost_per_miss(&m), 0.4 / GAP_MISS_PROBE_MIN, 1e-15);
    /* the pool holds everything: no misses either way */
    m = (struct misscost){.hot_s = 0.5, .cold_s = 0.6};
    assert_true(isnan(misscost_per_miss(&m)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(statements),
        cmocka_unit_test(reply),
        cmocka_unit_test(cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
