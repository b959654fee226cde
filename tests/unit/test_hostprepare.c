/* test_hostprepare.c: what host-prepare reads of this machine's packages
 * before it loads the guests' tables here (experiment/hostprepare.h): the
 * sysbench it runs is the image's only for the same upstream version, and
 * the server's VERSION() -- the copies' key -- comes whole out of
 * `mariadbd --version` or not at all. */
#include "testutil.h"

#include "workloads/hostload.h"

static void same_sysbench(void **state)
{
    (void)state;
    assert_true(hostload_same_sysbench("sysbench 1.0.20", "1.0.20+ds-5"));
    assert_true(hostload_same_sysbench("sysbench 1.0.20", "1:1.0.20-1"));
    assert_true(hostload_same_sysbench("sysbench 1.0.20", "1.0.20"));
    /* another version, a prefix of one, another program, nothing */
    assert_false(hostload_same_sysbench("sysbench 1.0.2", "1.0.20+ds-5"));
    assert_false(hostload_same_sysbench("sysbench 1.0.20", "1.0.2+ds-5"));
    assert_false(hostload_same_sysbench("sysbench 1.0.21", "1.0.20+ds-5"));
    assert_false(hostload_same_sysbench("fio 1.0.20", "1.0.20+ds-5"));
    assert_false(hostload_same_sysbench("sysbench ", "+ds-5"));
    assert_false(hostload_same_sysbench("", ""));
}

static void mariadbd_version(void **state)
{
    (void)state;
    char v[64];
    assert_int_equal(hostload_mariadbd_version("mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for "
                                                  "debian-linux-gnu on x86_64 (Debian 12)",
                                                  v, sizeof(v)),
                     0);
    assert_string_equal(v, "10.11.19-MariaDB-0+deb12u1");
    assert_int_equal(hostload_mariadbd_version("/usr/sbin/mariadbd  Ver 11.4.2-MariaDB", v, sizeof(v)), 0);
    assert_string_equal(v, "11.4.2-MariaDB");
    /* no version, an empty one, one that does not fit, a control character */
    assert_int_equal(hostload_mariadbd_version("mariadbd: command not found", v, sizeof(v)), -1);
    assert_int_equal(hostload_mariadbd_version("mariadbd  Ver  for x", v, sizeof(v)), -1);
    char small[8];
    assert_int_equal(hostload_mariadbd_version("mariadbd  Ver 10.11.19-MariaDB", small, sizeof(small)), -1);
    assert_int_equal(hostload_mariadbd_version("mariadbd  Ver 10.11\x01" "19", v, sizeof(v)), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_sysbench),
        cmocka_unit_test(mariadbd_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
