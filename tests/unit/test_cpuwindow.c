/* test_cpuwindow.c: the CPUs vbed may run on, as the window placement
 * uses: the first allowed CPU and the run that follows it; the whole host
 * only where the affinity is the whole host; and this process's own
 * affinity read back after sched_setaffinity narrowed it. */
#include "testutil.h"
#include "util/cpuwindow.h"

#include <sched.h>
#include <unistd.h>

static struct cpuwindow of(const char *bits, long online)
{
    unsigned char map[16] = {0};
    long n = (long)strlen(bits);
    for (long c = 0; c < n; c++)
        if (bits[c] == '1')
            map[c / 8] |= (unsigned char)(1u << (c % 8));
    return cpuwindow_of_map(map, n, online);
}

static void windows(void **state)
{
    (void)state;
    char t[32];
    struct cpuwindow w = of("1111", 4); /* the whole host */
    assert_true(w.all);
    assert_int_equal(w.first, 0);
    assert_int_equal(w.count, 4);
    cpuwindow_text(&w, t, sizeof(t));
    assert_string_equal(t, "");
    w = of("0011", 4); /* taskset -c 2-3 */
    assert_false(w.all);
    assert_int_equal(w.first, 2);
    assert_int_equal(w.count, 2);
    cpuwindow_text(&w, t, sizeof(t));
    assert_string_equal(t, "2-3");
    w = of("0100", 4); /* taskset -c 1 */
    assert_false(w.all);
    assert_int_equal(w.first, 1);
    assert_int_equal(w.count, 1);
    cpuwindow_text(&w, t, sizeof(t));
    assert_string_equal(t, "1");
    w = of("1000", 4); /* taskset -c 0: not the whole host either */
    assert_false(w.all);
    assert_int_equal(w.count, 1);
    cpuwindow_text(&w, t, sizeof(t));
    assert_string_equal(t, "0");
    w = of("1101", 4); /* a gap: the first run of CPUs */
    assert_false(w.all);
    assert_int_equal(w.first, 0);
    assert_int_equal(w.count, 2);
    w = of("0000", 4); /* nothing allowed is no affinity to honour */
    assert_true(w.all);
    assert_int_equal(w.count, 4);
}

static void of_self(void **state)
{
    (void)state;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t old;
    assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
    struct cpuwindow w = cpuwindow_of_self(online);
    assert_true(w.count >= 1);
    /* narrowed to its last allowed CPU, the process sees that one alone */
    int last = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &old))
            last = c;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(last, &one);
    assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
    w = cpuwindow_of_self(online);
    assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
    assert_int_equal(w.first, last);
    assert_int_equal(w.count, 1);
    assert_true(online == 1 ? w.all : !w.all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(windows),
        cmocka_unit_test(of_self),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
