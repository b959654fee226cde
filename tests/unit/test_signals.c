/* test_signals.c: SIGHUP (a closed terminal) is handled like SIGTERM: it
 * sets the flag every wait loop checks instead of killing vbed, which would
 * leave the host arm's mariadbd (its own process group) behind. Without a
 * handler the raise below ends this test with "Hangup". */
#include "testutil.h"
#include "util/signals.h"

#include <signal.h>

static void sighup_sets_the_flag(void **state)
{
    (void)state;
    signals_install();
    assert_false(signals_interrupted());
    assert_int_equal(signals_exit_code(), 0);
    assert_int_equal(raise(SIGHUP), 0);
    assert_true(signals_interrupted());
    assert_int_equal(signals_exit_code(), 129);
    assert_string_equal(signals_name(), "SIGHUP");
    assert_true(signals_sleep_ms(10000)); /* returns at once */
    /* a second signal keeps the first one's code */
    assert_int_equal(raise(SIGTERM), 0);
    assert_int_equal(signals_exit_code(), 129);
    assert_string_equal(signals_name(), "SIGHUP");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sighup_sets_the_flag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
