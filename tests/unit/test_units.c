/* test_units.c: sizes and durations as users write them. */
#include "testutil.h"
#include "util/units.h"

static void sizes(void **state)
{
    (void)state;
    long long v;
    assert_int_equal(parse_size("512M", &v), 0);
    assert_int_equal(v, 512LL << 20);
    assert_int_equal(parse_size("1G", &v), 0);
    assert_int_equal(v, 1LL << 30);
    assert_int_equal(parse_size("64k", &v), 0);
    assert_int_equal(v, 65536);
    assert_int_equal(parse_size("2GiB", &v), 0);
    assert_int_equal(v, 2LL << 30);
    assert_int_equal(parse_size("4096", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(parse_size("1T", &v), 0);
    assert_int_equal(v, 1LL << 40);
    assert_int_equal(parse_size("12Q", &v), -1);
    assert_int_equal(parse_size("-1G", &v), -1);
    assert_int_equal(parse_size("1.5G", &v), -1);
    assert_int_equal(parse_size("", &v), -1);
    assert_int_equal(parse_size("G", &v), -1);
    assert_int_equal(parse_size("99999999999999999999", &v), -1);
    assert_int_equal(parse_size("9999999999999T", &v), -1); /* overflows */
}

static void durations(void **state)
{
    (void)state;
    long long v;
    assert_int_equal(parse_duration("90s", &v), 0);
    assert_int_equal(v, 90);
    assert_int_equal(parse_duration("2m", &v), 0);
    assert_int_equal(v, 120);
    assert_int_equal(parse_duration("1h", &v), 0);
    assert_int_equal(v, 3600);
    assert_int_equal(parse_duration("45", &v), 0);
    assert_int_equal(v, 45);
    assert_int_equal(parse_duration("5d", &v), -1);
    assert_int_equal(parse_duration("s", &v), -1);
}

static void formatting(void **state)
{
    (void)state;
    char buf[32];
    format_size(512LL << 20, buf, sizeof(buf));
    assert_string_equal(buf, "512M");
    format_size(1536LL << 20, buf, sizeof(buf));
    assert_string_equal(buf, "1536M");
    format_size(1000, buf, sizeof(buf));
    assert_string_equal(buf, "1000");
    format_size(1LL << 40, buf, sizeof(buf));
    assert_string_equal(buf, "1T");
    format_duration(120, buf, sizeof(buf));
    assert_string_equal(buf, "2m");
    format_duration(90, buf, sizeof(buf));
    assert_string_equal(buf, "90s");
    format_duration(7200, buf, sizeof(buf));
    assert_string_equal(buf, "2h");
    format_duration(0, buf, sizeof(buf));
    assert_string_equal(buf, "0s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(durations),
        cmocka_unit_test(formatting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
