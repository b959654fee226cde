/* test_probeorder.c: the readings inside the measure phase nest. At
 * instant 0 the probes are read backwards, at instant 1 forwards, so the
 * chain's interval (the connection thread's states) holds neither the
 * tasks scan (0.3-0.4 s of a TCG guest's one vCPU, which it would count as
 * contention) nor performance_schema's query at either end, and the
 * vCPUs' time and delay (p, the preempted share) are read next to the
 * chain's readings, inside its interval. Before, every instant read the
 * registry forwards: the tasks scan ran inside the chain's interval at its
 * start and outside at its end. */
#include "testutil.h"
#include "probes/probe.h"

#include <string.h>

/* where probe NAME is read at instant k, counting from 0; fails if absent */
static size_t position(int k, const char *name)
{
    size_t n = 0;
    while (probes_name(n))
        n++;
    for (size_t j = 0; j < n; j++) {
        size_t i = probes_during_index(k, j, n);
        assert_true(i < n);
        if (!strcmp(probes_name(i), name))
            return j;
    }
    fail_msg("no probe named %s", name);
    return 0;
}

static void nested(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++)
        print_message("instant %d: tasks %zu, perfschema %zu, chain %zu, hypervisor %zu\n", k,
                      position(k, "tasks"), position(k, "perfschema"), position(k, "chain"),
                      position(k, "hypervisor"));
    /* outside the chain's interval at both ends */
    assert_true(position(0, "tasks") < position(0, "chain"));
    assert_true(position(1, "tasks") > position(1, "chain"));
    assert_true(position(0, "perfschema") < position(0, "chain"));
    assert_true(position(1, "perfschema") > position(1, "chain"));
    /* inside it, next to it */
    assert_true(position(0, "hypervisor") > position(0, "chain"));
    assert_true(position(1, "hypervisor") < position(1, "chain"));
}

/* each probe once per instant */
static void a_permutation(void **state)
{
    (void)state;
    size_t n = 0;
    while (probes_name(n))
        n++;
    assert_true(n >= 4);
    for (int k = 0; k < 2; k++) {
        bool seen[64] = {false};
        for (size_t j = 0; j < n; j++) {
            size_t i = probes_during_index(k, j, n);
            assert_true(i < n && !seen[i]);
            seen[i] = true;
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nested),
        cmocka_unit_test(a_permutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
