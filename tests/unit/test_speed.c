/* test_speed.c: the machine's CPU speed probe (hostside/speed.h) and the
 * median it reports (util/median.h). */
#include "testutil.h"

#include "hostside/noise.h"
#include "hostside/speed.h"
#include "util/median.h"
#include "util/monotime.h"

#include <math.h>
#include <unistd.h>

static void median_of_few(void **state)
{
    (void)state;
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2}, one[] = {7};
    assert_near(median_sort(odd, 3), 2, 0);
    assert_near(median_sort(even, 4), 2.5, 0);
    assert_near(median_sort(one, 1), 7, 0);
    assert_true(isnan(median_sort(NULL, 0)));
}

/* A unit costs CPU time, the same work each time: a second unit is within
 * a factor of 3 of the first (the machine's own drift is +-15 % here). */
static void a_unit_is_cpu_time(void **state)
{
    (void)state;
    double a = speed_unit_s(), b = speed_unit_s();
    assert_true(a > 0 && a < 2);
    assert_true(b > a / 3 && b < 3 * a);
}

/* The probe runs a unit per period while the phase lasts and stops when
 * told. How many units a phase holds is the CPU its thread got: beside
 * other programs fewer than the periods (2 of 6 beside a compile, 1 of 6 in
 * a CI run whose ASan suites had a third program beside them). So the
 * phase lasts until the process has used the CPU of the probe's tables
 * (built once, about 0.2 s here) and of ten units (the test's thread sleeps
 * meanwhile; at most 30 s): then the probe ran 3 or more units, and at
 * most one per period (+2): a probe that never sleeps between units runs
 * ten in five periods and fails (10 > 7); one that runs once, or never,
 * uses no more CPU and fails at 30 s. (Twenty units took 32 s of CI's
 * ASan phase, its longest unit test.) (The period is made at least twice a unit's
 * time: under ASan, or on a busy machine, a unit takes longer than the 0.1 s
 * it takes here.) Its median is a unit's CPU time, not the period it
 * slept. Without a probe: NAN and no unit. */
static void probe_samples_the_phase(void **state)
{
    (void)state;
    double unit = speed_unit_s(), c = noise_cpu_self_s(), first = speed_memory_unit_s();
    double tables = noise_cpu_self_s() - c - first; /* a memory unit's table, built before it runs */
    /* a period holds a zlib unit and a memory unit, twice over */
    double period = 2 * (unit + first) > 0.1 ? 2 * (unit + first) : 0.1;
    double cpu0 = noise_cpu_self_s();
    struct speed_probe *p = speed_start(period);
    assert_non_null(p);
    double t0 = monotime_s();
    while (noise_cpu_self_s() - cpu0 < tables + 10 * (unit + first) && monotime_s() - t0 < 30)
        usleep((useconds_t)(period / 2 * 1e6));
    double t1 = monotime_s();
    size_t n;
    double mem;
    double m = speed_stop(p, &n, &mem);
    assert_true(monotime_s() - t1 < 2); /* stop does not wait for a period */
    assert_in_range(n, 3, (size_t)((t1 - t0) / period) + 2);
    assert_true(m > unit / 3 && m < 3 * unit);
    assert_true(m < period || unit >= 0.03); /* not the sleep between units */
    /* the memory unit ran in every period: a CPU time, not the sleep */
    double one = speed_memory_unit_s();
    assert_true(one > 0 && one < 2);
    assert_true(mem > one / 3 && mem < 3 * one);
    assert_true(mem < period || one >= 0.03);
    assert_true(isnan(speed_stop(NULL, &n, &mem)));
    assert_int_equal(n, 0);
    assert_true(isnan(mem));
}

/* The memory unit waits for memory: its loads take longer each than a
 * cached load could (1 ns), far longer than as many loads that hit in a
 * cache would -- 100,000 loads in more than 2 ms, here about 18. */
static void a_memory_unit_misses(void **state)
{
    (void)state;
    double m = speed_memory_unit_s();
    assert_true(m > SPEED_CHASE_LOADS * 20e-9);
    assert_true(m < 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_of_few),
        cmocka_unit_test(a_unit_is_cpu_time),
        cmocka_unit_test(probe_samples_the_phase),
        cmocka_unit_test(a_memory_unit_misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
