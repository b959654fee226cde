/* test_sysbench_input.c: sysbench's output is input from a program in a
 * guest. A final report with an impossible figure (a transaction count
 * beyond long long, found by fuzz_sysbench: converting it was undefined
 * behaviour; nan; a negative time) is refused with a reason, and the real
 * outputs under tests/data/sysbench still parse. The fuzzer's reproducers
 * live in tests/fuzz/crashes/. */
#include "testutil.h"
#include "workloads/sysbench.h"

static char *read_rel(const char *rel)
{
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), rel);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    return text;
}

static void refused(const char *text, const char *why)
{
    struct sysbench_report r;
    char err[256] = "";
    if (sysbench_parse(text, &r, err, sizeof(err)) != -1)
        fail_msg("accepted (%s)", why);
    assert_non_null(strstr(err, "impossible figure"));
    sysbench_report_free(&r);
}

/* the real report with one figure replaced */
static char *with(const char *orig, const char *from, const char *to)
{
    const char *at = strstr(orig, from);
    assert_non_null(at);
    size_t n = strlen(orig) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - orig), orig, to, at + strlen(from));
    return out;
}

static void impossible_figures(void **state)
{
    (void)state;
    char *crash = read_rel("../fuzz/crashes/sysbench-huge-transactions");
    refused(crash, "fuzzer's input");
    free(crash);

    char *real = read_rel("sysbench/host-read-only-1thread.out");
    struct sysbench_report r;
    char err[256];
    assert_int_equal(sysbench_parse(real, &r, err, sizeof(err)), 0);
    assert_true(r.transactions > 0);
    char line[128];
    snprintf(line, sizeof(line), "transactions:                        %lld", r.transactions);
    sysbench_report_free(&r);

    char *t = with(real, line, "transactions:                        99999999999999999999999");
    refused(t, "huge count");
    free(t);
    t = with(real, line, "transactions:                        nan");
    refused(t, "nan");
    free(t);
    t = with(real, line, "transactions:                        -5");
    refused(t, "negative");
    free(t);
    free(real);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(impossible_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
