/* test_jobs.c: a phase on every target at once (workloads/job.c): every
 * job runs in its own thread, the first failure of many racing threads is
 * the one kept (whole, naming the phase), wl_together releases the jobs
 * only when the last one got there, an interruption fails the phase, and
 * the workload's per-target state is freed. Run under ThreadSanitizer too
 * (make check-tsan). */
#include "testutil.h"
#include "util/signals.h"
#include "workloads/workload.h"

#include <pthread.h>
#include <stdatomic.h>

#define N 8

static atomic_int arrived, after_barrier_saw_all;

static int together(struct wl_job *j)
{
    atomic_fetch_add(&arrived, 1);
    wl_together(j);
    /* nobody passes the barrier before every job has arrived */
    if (atomic_load(&arrived) == N)
        atomic_fetch_add(&after_barrier_saw_all, 1);
    return 0;
}

static int fail_odd(struct wl_job *j)
{
    if (j->t->guest % 2)
        return wl_fail(j, "target %d of %d failed on purpose", j->t->guest, N);
    return 0;
}

static int keep_state(struct wl_job *j)
{
    j->state = strdup(j->t->name);
    return 0;
}

static int freed;
static void free_state(struct wl_job *j)
{
    free(j->state);
    j->state = NULL;
    freed++;
}

static void phases(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    struct target t[N];
    memset(t, 0, sizeof(t));
    for (int i = 0; i < N; i++) {
        t[i].guest = i + 1;
        snprintf(t[i].name, sizeof(t[i].name), "t%d", i + 1);
    }
    struct wl_run r;
    wl_run_init(&r, &cfg, t, N, NULL);
    r.phase = "measure";
    assert_int_equal(wl_each(&r, together, true), 0);
    assert_int_equal(atomic_load(&after_barrier_saw_all), N);
    assert_string_equal(r.error, "");
    assert_int_equal(wl_each(&r, fail_odd, false), -1);
    /* one of the odd targets' messages, whole, after the phase */
    assert_true(strncmp(r.error, "in phase measure: target ", 25) == 0);
    assert_non_null(strstr(r.error, "of 8 failed on purpose"));
    int which = atoi(r.error + 25);
    assert_true(which % 2 == 1 && which <= N);
    /* the first failure stays: later ones do not replace it */
    char first[sizeof(r.error)];
    snprintf(first, sizeof(first), "%s", r.error);
    r.phase = "collect";
    assert_int_equal(wl_each(&r, fail_odd, false), -1);
    assert_string_equal(r.error, first);
    assert_int_equal(wl_each(&r, keep_state, false), 0);
    wl_run_free(&r, free_state);
    assert_int_equal(freed, N);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(phases)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
