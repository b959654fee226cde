/* test_tasks.c: the tasks probe's parsers and grouping (probes/tasks.h) --
 * one reading of a guest's tasks, performance_schema.threads' rows, and
 * the CPU each group ran between two readings -- on texts as Linux 6.x and
 * MariaDB 10.11.19 print them, and on the malformed ones a guest could
 * send. */
#include "testutil.h"
#include "probes/tasks.h"
#include "util/spawn.h"

#include <math.h>
#include <unistd.h>

/* stat lines: flags (field 9) 4194368 a user thread, 2129984 a kernel
 * thread (PF_KTHREAD); start time (field 22) 750425 */
#define USER_STAT(pid, comm, start)                                                              \
    pid " (" comm ") S 1 28102 28102 0 -1 4194368 1290 0 0 0 281 69 0 0 20 0 40 0 " start        \
        " 2066591744 48530 18446744073709551615 1 1 0 0 0 0 543239 4096 1536 0 0 0 -1 1 0 0 263 0 " \
        "0 0 0 0 0 0 0 0 0\n"
#define KERNEL_STAT(pid, comm, start)                                                            \
    pid " (" comm ") I 2 0 0 0 -1 2129984 0 0 0 0 0 1 0 0 20 0 1 0 " start                        \
        " 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

#define CPU_LINE "P cpu  1000 0 500 9000 10 0 20 0 0 0\n"
#define CPU_LINE2 "P cpu  1300 0 650 9100 10 0 30 0 0 0\n"

/* before: mariadbd (pid 700: main, page cleaner 701, task pool 702, a
 * connection 703), sysbench 900 and its worker 901, kworker 50, the
 * agent 400; a task that ended between its two lines (999) */
static const char reading_a[] =
    "U 100.00\n"
    "/proc/700/task/700/schedstat:100000000 0 5\n/proc/700/task/700/stat:" USER_STAT("700", "mariadbd", "1000")
    "/proc/700/task/701/schedstat:200000000 0 5\n/proc/700/task/701/stat:" USER_STAT("701", "mariadbd", "1000")
    "/proc/700/task/702/schedstat:300000000 0 5\n/proc/700/task/702/stat:" USER_STAT("702", "mariadbd", "1000")
    "/proc/700/task/703/schedstat:400000000 0 5\n/proc/700/task/703/stat:" USER_STAT("703", "mariadbd", "9000")
    "/proc/900/task/900/schedstat:10000000 0 5\n/proc/900/task/900/stat:" USER_STAT("900", "sysbench", "9000")
    "/proc/900/task/901/schedstat:20000000 0 5\n/proc/900/task/901/stat:" USER_STAT("901", "sysbench", "9000")
    "/proc/50/task/50/schedstat:50000000 0 5\n/proc/50/task/50/stat:" KERNEL_STAT("50", "kw/0:1) (x", "26")
    "/proc/400/task/400/schedstat:1000000 0 5\n/proc/400/task/400/stat:" USER_STAT("400", "qemu-ga", "30")
    "/proc/999/task/999/schedstat:1 0 5\n"
    "U 100.02\n" CPU_LINE;

/* after 3 s: each ran more; 702 is gone and tid 702 is a new task pool
 * thread (another start time); 704 is a new connection */
static const char reading_b[] =
    "U 103.00\n"
    "/proc/700/task/700/schedstat:110000000 0 5\n/proc/700/task/700/stat:" USER_STAT("700", "mariadbd", "1000")
    "/proc/700/task/701/schedstat:500000000 0 5\n/proc/700/task/701/stat:" USER_STAT("701", "mariadbd", "1000")
    "/proc/700/task/702/schedstat:70000000 0 5\n/proc/700/task/702/stat:" USER_STAT("702", "mariadbd", "10200")
    "/proc/700/task/703/schedstat:1400000000 0 5\n/proc/700/task/703/stat:" USER_STAT("703", "mariadbd", "9000")
    "/proc/700/task/704/schedstat:60000000 0 5\n/proc/700/task/704/stat:" USER_STAT("704", "mariadbd", "10100")
    "/proc/900/task/900/schedstat:30000000 0 5\n/proc/900/task/900/stat:" USER_STAT("900", "sysbench", "9000")
    "/proc/900/task/901/schedstat:420000000 0 5\n/proc/900/task/901/stat:" USER_STAT("901", "sysbench", "9000")
    "/proc/50/task/50/schedstat:250000000 0 5\n/proc/50/task/50/stat:" KERNEL_STAT("50", "kw/0:1) (x", "26")
    "/proc/400/task/400/schedstat:6000000 0 5\n/proc/400/task/400/stat:" USER_STAT("400", "qemu-ga", "30")
    "U 103.02\n" CPU_LINE2;

static void one_reading(void **state)
{
    (void)state;
    struct tasks_reading r;
    /* grep's order: every schedstat, then every stat */
    assert_int_equal(tasks_parse_reading("U 1.0\n/proc/1/task/2/schedstat:5000000 0 1\n"
                                         "/proc/1/task/1/schedstat:7000000 0 1\n"
                                         "/proc/1/task/1/stat:" USER_STAT("1", "a b", "9")
                                         "/proc/1/task/2/stat:" USER_STAT("2", "c", "9")
                                         "U 1.1\n" CPU_LINE, &r), 0);
    assert_int_equal(r.n, 2);
    assert_true(r.t[0].tid == 1 && fabs(r.t[0].oncpu_s - 0.007) < 1e-12);
    assert_string_equal(r.t[0].comm, "a b");
    assert_true(r.t[1].tid == 2 && fabs(r.t[1].oncpu_s - 0.005) < 1e-12);
    tasks_reading_free(&r);
    assert_int_equal(tasks_parse_reading(reading_a, &r), 0);
    /* 999 ended between its lines: left out */
    assert_int_equal(r.n, 8);
    /* sorted by tid: 50, 400, 700, 701, 702, 703, 900, 901 */
    assert_true(r.t[2].pid == 700 && r.t[2].tid == 700 && !r.t[2].kthread);
    assert_string_equal(r.t[2].comm, "mariadbd");
    assert_true(r.t[3].tid == 701 && fabs(r.t[3].oncpu_s - 0.2) < 1e-12 && r.t[3].start == 1000);
    /* a comm with ") (" is cut at the last ')' */
    assert_true(r.t[0].tid == 50 && r.t[0].kthread && r.t[0].start == 26);
    assert_string_equal(r.t[0].comm, "kw/0:1) (x");
    assert_true(fabs(r.uptime_first - 100.0) < 1e-9 && fabs(r.uptime_last - 100.02) < 1e-9);
    assert_true(fabs(r.cpu.user_s - 10.0) < 1e-9 && fabs(r.cpu.system_s - 5.2) < 1e-9);
    tasks_reading_free(&r);
}

/* task tid of pid 1: its schedstat and stat lines */
#define TASK(tid, sched, comm)                                                                    \
    "/proc/1/task/" tid "/schedstat:" sched "\n/proc/1/task/" tid "/stat:" USER_STAT(tid, comm, "1")

/* The probe's own program, run on this machine (a Linux kernel as a
 * guest's): it finds this test's own task, a kernel thread, and the tasks
 * account for nearly all this machine's tasks */
static void the_program_here(void **state)
{
    (void)state;
    const char *argv[] = {"/bin/sh", "-c", tasks_reading_script, NULL};
    char *text = NULL;
    struct spawn_opts o = {.capture = &text, .timeout = 30};
    assert_int_equal(spawn_run(argv, &o), 0);
    struct tasks_reading r;
    assert_int_equal(tasks_parse_reading(text, &r), 0);
    free(text);
    assert_true(r.n > 20);
    bool self = false, kthread = false;
    for (size_t i = 0; i < r.n; i++) {
        if (i)
            assert_true(r.t[i].tid > r.t[i - 1].tid);
        if (r.t[i].tid == (int)getpid()) {
            self = true;
            assert_string_equal(r.t[i].comm, "test_tasks");
            assert_false(r.t[i].kthread);
            assert_true(r.t[i].oncpu_s > 0);
        }
        kthread |= r.t[i].kthread && !strncmp(r.t[i].comm, "kworker", 7);
    }
    assert_true(self && kthread);
    assert_true(r.cpu.user_s > 0 && r.uptime_last >= r.uptime_first);
    tasks_reading_free(&r);
}

static void malformed_readings(void **state)
{
    (void)state;
    struct tasks_reading r;
    static const char *const bad[] = {
        /* no closing uptime */
        "U 1.0\n" TASK("1", "1 2 3", "a") CPU_LINE,
        /* no /proc/stat line */
        "U 1.0\nU 1.1\n",
        /* /proc/stat not last */
        "U 1.0\nU 1.1\n" CPU_LINE "U 1.2\n",
        /* a task twice */
        "U 1.0\n" TASK("1", "1 2 3", "a") TASK("1", "1 2 3", "a") "U 1.1\n" CPU_LINE,
        /* a tid of 0, one beyond 2^22, a path that is not a task's */
        "U 1.0\n" TASK("0", "1 2 3", "a") "U 1.1\n" CPU_LINE,
        "U 1.0\n" TASK("4194305", "1 2 3", "a") "U 1.1\n" CPU_LINE,
        "U 1.0\n/proc/1/stat:" USER_STAT("1", "a", "1") "U 1.1\n" CPU_LINE,
        "U 1.0\n/proc/1/task/1/status:Name: a\nU 1.1\n" CPU_LINE,
        /* an unknown line, a task outside the uptimes, time running back */
        "U 1.0\nX 1\nU 1.1\n" CPU_LINE,
        "U 1.0\nU 1.1\n" TASK("1", "1 2 3", "a") CPU_LINE,
        "U 2.0\nU 1.1\n" CPU_LINE,
        NULL,
    };
    for (int i = 0; bad[i]; i++) {
        if (tasks_parse_reading(bad[i], &r) == 0)
            fail_msg("malformed reading %d parsed", i);
        assert_true(r.n == 0 && r.t == NULL);
    }
    assert_int_equal(tasks_parse_reading(NULL, &r), -1);
    /* left out, the reading standing: a stat that does not parse, a
     * schedstat that does not, a comm longer than Linux's 16 bytes, a stat
     * without its schedstat (the task ended between them), a schedstat and
     * another task's stat */
    static const char *const left_out[] = {
        "U 1.0\n/proc/1/task/1/schedstat:1 2 3\n/proc/1/task/1/stat:1 (a) S 1 2\nU 1.1\n" CPU_LINE,
        "U 1.0\n" TASK("1", "1 2", "a") "U 1.1\n" CPU_LINE,
        "U 1.0\n" TASK("1", "1 2 3", "abcdefghijklmnopq") "U 1.1\n" CPU_LINE,
        "U 1.0\n/proc/1/task/1/stat:" USER_STAT("1", "a", "1") "U 1.1\n" CPU_LINE,
        "U 1.0\n/proc/1/task/1/schedstat:1 2 3\n/proc/1/task/2/stat:" USER_STAT("2", "a", "1")
        "U 1.1\n" CPU_LINE,
        NULL,
    };
    for (int i = 0; left_out[i]; i++) {
        if (tasks_parse_reading(left_out[i], &r) != 0)
            fail_msg("reading %d did not parse", i);
        if (r.n != 0)
            fail_msg("reading %d kept a task", i);
        tasks_reading_free(&r);
    }
}

static void ps_threads(void **state)
{
    (void)state;
    char *cells[] = {"14351", "thread/sql/main",
                     "14356", "thread/innodb/page_cleaner_thread",
                     "14357", "thread/innodb/thread_pool_thread",
                     "14365", "thread/sql/one_connection",
                     "NULL",  "thread/sql/one_connection"};
    struct sql_result r = {.rows = 5, .cols = 2, .cells = cells};
    int tids[8];
    enum task_group g[8];
    assert_int_equal(tasks_parse_ps_threads(&r, tids, g, 8), 4);
    assert_true(tids[0] == 14351 && g[0] == TG_MARIADBD_OTHER);
    assert_true(tids[1] == 14356 && g[1] == TG_PAGE_CLEANER);
    assert_true(tids[2] == 14357 && g[2] == TG_INNODB_POOL);
    assert_true(tids[3] == 14365 && g[3] == TG_CONNECTIONS);
    /* at most max kept, all counted as read */
    assert_int_equal(tasks_parse_ps_threads(&r, tids, g, 2), 2);
    char *bad[] = {"12x", "thread/sql/main"};
    struct sql_result rb = {.rows = 1, .cols = 2, .cells = bad};
    assert_int_equal(tasks_parse_ps_threads(&rb, tids, g, 8), -1);
    char *zero[] = {"0", "thread/sql/main"};
    rb.cells = zero;
    assert_int_equal(tasks_parse_ps_threads(&rb, tids, g, 8), -1);
    struct sql_result one_col = {.rows = 1, .cols = 1, .cells = bad};
    assert_int_equal(tasks_parse_ps_threads(&one_col, tids, g, 8), -1);
}

static void grouped(void **state)
{
    (void)state;
    struct tasks_reading a, b;
    assert_int_equal(tasks_parse_reading(reading_a, &a), 0);
    assert_int_equal(tasks_parse_reading(reading_b, &b), 0);
    int tids[] = {700, 701, 702, 703, 704};
    enum task_group g[] = {TG_MARIADBD_OTHER, TG_PAGE_CLEANER, TG_INNODB_POOL, TG_CONNECTIONS,
                           TG_CONNECTIONS};
    double cpu[TG_N];
    assert_int_equal(tasks_group_cpu(&a, &b, tids, g, 5, cpu), 0);
    assert_true(fabs(cpu[TG_PAGE_CLEANER] - 0.3) < 1e-9);
    /* 702 is another thread now (its start time): all it ran counts, not
     * the difference from the old one's (which would be negative) */
    assert_true(fabs(cpu[TG_INNODB_POOL] - 0.07) < 1e-9);
    assert_true(fabs(cpu[TG_CONNECTIONS] - (1.0 + 0.06)) < 1e-9);
    assert_true(fabs(cpu[TG_MARIADBD_OTHER] - 0.01) < 1e-9);
    assert_true(fabs(cpu[TG_SYSBENCH] - 0.42) < 1e-9);
    /* the kernel thread by its flag, whatever its comm */
    assert_true(fabs(cpu[TG_KERNEL] - 0.2) < 1e-9);
    assert_true(fabs(cpu[TG_REST] - 0.005) < 1e-9);
    /* without performance_schema's names: mariadbd's threads are all "other" */
    assert_int_equal(tasks_group_cpu(&a, &b, NULL, NULL, 0, cpu), 0);
    assert_true(fabs(cpu[TG_MARIADBD_OTHER] - (0.01 + 0.3 + 0.07 + 1.0 + 0.06)) < 1e-9);
    assert_true(cpu[TG_PAGE_CLEANER] == 0 && cpu[TG_CONNECTIONS] == 0);
    /* the readings in the wrong order */
    assert_int_equal(tasks_group_cpu(&b, &a, tids, g, 5, cpu), -1);
    tasks_reading_free(&a);
    tasks_reading_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_reading),
        cmocka_unit_test(the_program_here),
        cmocka_unit_test(malformed_readings),
        cmocka_unit_test(ps_threads),
        cmocka_unit_test(grouped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
