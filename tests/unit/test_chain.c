/* test_chain.c: the parsers behind the chain and perfschema probes -- a
 * thread's schedstat and stat (its start time, delayacct_blkio_ticks),
 * /proc/uptime, one reading of the chain's threads, the delay-accounting
 * switch's answer, PROCESSLIST's TIDs, performance_schema's thread ids and
 * sums -- on real texts (taken on MariaDB 10.11.19, Linux 6.x) and on the
 * malformed ones a guest could send; and the reading's program itself, run
 * here against a process in state D 95 % of the time: read settled, it
 * finds it out of D every time; read as it is, hardly ever. */
#include "testutil.h"
#include "probes/chain.h"
#include "probes/perfschema.h"
#include "util/procfs.h"
#include "util/spawn.h"

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* a thread's stat as Linux 6.x prints it: comm with a space and a ')' */
static const char task_stat[] =
    "29858 (one) two)) S 1 28102 28102 0 -1 4194368 1290 0 0 0 281 69 0 0 20 0 40 0 750425 "
    "2066591744 48530 18446744073709551615 1 1 0 0 0 0 543239 4096 1536 0 0 0 -1 1 0 0 263 0 0 0 "
    "0 0 0 0 0 0 0\n";

static void procfs_texts(void **state)
{
    (void)state;
    double on, rq, up;
    assert_int_equal(procfs_parse_schedstat("639547383 1018621418 12424\n", &on, &rq), 0);
    assert_true(fabs(on - 0.639547383) < 1e-12 && fabs(rq - 1.018621418) < 1e-12);
    assert_int_equal(procfs_parse_schedstat("1 2\n", &on, &rq), -1);
    assert_int_equal(procfs_parse_schedstat("1 2 3 4\n", &on, &rq), -1);
    assert_int_equal(procfs_parse_schedstat("-1 2 3\n", &on, &rq), -1);
    assert_int_equal(procfs_parse_schedstat("99999999999999999999999 2 3\n", &on, &rq), -1);
    long long start, blkio;
    assert_int_equal(procfs_parse_task_stat(task_stat, &start, &blkio), 0);
    assert_true(start == 750425 && blkio == 263);
    assert_int_equal(procfs_parse_task_stat("29858 (x) S 1 2 3\n", &start, &blkio), -1);
    assert_int_equal(procfs_parse_task_stat("29858 x S 1 2 3\n", &start, &blkio), -1);
    char cut[sizeof(task_stat)];
    snprintf(cut, sizeof(cut), "%.*s", (int)(strstr(task_stat, " 263 ") - task_stat), task_stat);
    assert_int_equal(procfs_parse_task_stat(cut, &start, &blkio), -1);
    /* cutime (16) 0, cstime (17) 0 in task_stat; a shell that waited for gzip */
    assert_true(procfs_parse_children_cpu(task_stat, 100) == 0);
    assert_true(fabs(procfs_parse_children_cpu("7 (sh) S 1 7 7 0 -1 4194304 90 200 0 0 0 0 87 "
                                               "4 20 0 1 0 100 2 3 4\n",
                                               100) -
                     0.91) < 1e-12);
    assert_true(procfs_parse_children_cpu("7 (sh) S 1 7 7 0 -1 4194304 90 200 0 0 0 0 -87 4\n", 100) == -1);
    assert_true(procfs_parse_children_cpu("7 (sh) S 1 7 7 0 -1 4194304 90 200 0 0 0 0 87\n", 100) == -1);
    assert_int_equal(procfs_parse_uptime("7303.75 4170.36\n", &up), 0);
    assert_true(fabs(up - 7303.75) < 1e-9);
    assert_int_equal(procfs_parse_uptime("nan 1\n", &up), -1);
    assert_int_equal(procfs_parse_uptime("-3 1\n", &up), -1);
    assert_int_equal(procfs_parse_uptime("", &up), -1);
}

static void one_reading(void **state)
{
    (void)state;
    static struct chain_reading r;
    char text[4096];
    snprintf(text, sizeof(text),
             "U 7303.75\nC 32264 168730253 146323201 9327\nS %sC 32265 1 2 3\n"
             "D 29858 639547383 1018621418 12424\nS %sU 7303.76\n",
             task_stat, task_stat);
    assert_int_equal(chain_parse_reading(text, &r), 0);
    /* thread 32265 ended between its two lines: left out */
    assert_int_equal(r.n, 2);
    assert_true(r.th[0].kind == 'C' && r.th[0].tid == 32264 && r.th[0].blkio_ticks == 263);
    assert_true(r.th[1].kind == 'D' && r.th[1].tid == 29858 && r.th[1].start == 750425);
    assert_true(fabs(r.uptime_first - 7303.75) < 1e-9 && fabs(r.uptime_last - 7303.76) < 1e-9);
    /* the state it was read in, and no moment of its own told */
    assert_true(r.th[0].state == 'S' && isnan(r.th[0].uptime) && isnan(r.th[1].uptime));
    /* each thread's own moment, within the reading's */
    snprintf(text, sizeof(text), "U 7303.75\nD 29858 639547383 1018621418 12424\nS %sT 7303.80\nU 7303.90\n",
             task_stat);
    assert_int_equal(chain_parse_reading(text, &r), 0);
    assert_true(r.n == 1 && fabs(r.th[0].uptime - 7303.80) < 1e-9);
    /* a moment before the reading began, after it ended, or not a number */
    snprintf(text, sizeof(text), "U 7303.75\nD 29858 1 2 3\nS %sT 7303.70\nU 7303.90\n", task_stat);
    assert_int_equal(chain_parse_reading(text, &r), -1);
    snprintf(text, sizeof(text), "U 7303.75\nD 29858 1 2 3\nS %sT 7304\nU 7303.90\n", task_stat);
    assert_int_equal(chain_parse_reading(text, &r), -1);
    snprintf(text, sizeof(text), "U 7303.75\nD 29858 1 2 3\nS %sT x\nU 7303.90\n", task_stat);
    assert_int_equal(chain_parse_reading(text, &r), -1);
    /* malformed: no closing uptime, a thread twice, an unknown line, a tid of 0 */
    assert_int_equal(chain_parse_reading("U 1\nC 5 1 2 3\n", &r), -1);
    snprintf(text, sizeof(text), "U 1\nC 5 1 2 3\nS %sC 5 1 2 3\nS %sU 2\n", task_stat, task_stat);
    assert_int_equal(chain_parse_reading(text, &r), -1);
    assert_int_equal(chain_parse_reading("U 1\nX 5 1 2 3\nU 2\n", &r), -1);
    assert_int_equal(chain_parse_reading("U 1\nC 0 1 2 3\nU 2\n", &r), -1);
    assert_int_equal(chain_parse_reading("U 2\nU 1\n", &r), -1);

    int old, now;
    double since;
    assert_int_equal(chain_parse_delayacct("old 0\nnow 1\nU 612.34\n", &old, &now, &since), 0);
    assert_true(old == 0 && now == 1 && since == 612.34);
    /* on before the switch: every thread accounts */
    assert_int_equal(chain_parse_delayacct("old 1\nnow 1\nU 612.34\n", &old, &now, &since), 0);
    assert_true(old == 1 && now == 1 && since == 0);
    assert_int_equal(chain_parse_delayacct("none\nU 5.00\n", &old, &now, &since), 0);
    assert_true(old == -1 && now == 1 && since == 0);
    assert_int_equal(chain_parse_delayacct("old 7\nnow 1\nU 1\n", &old, &now, &since), -1);
    assert_int_equal(chain_parse_delayacct("old 0\nnow 1\n", &old, &now, &since), -1); /* no uptime */
    assert_int_equal(chain_parse_delayacct("old 0\nnow 1\nU 1\nU 2\n", &old, &now, &since), -1);
    assert_int_equal(chain_parse_delayacct("old 01\nnow 1\nU 1\n", &old, &now, &since), -1);
}

/* A connection thread the server kept from before delay accounting went on
 * (seen in guests: the measured connection got the thread that had served
 * prepare) accounts no block I/O: it is found by its start time. */
static void thread_older_than_the_switch(void **state)
{
    (void)state;
    static struct chain_reading r;
    r.n = 2;
    r.th[0] = (struct chain_thread){.kind = 'C', .tid = 700, .start = 61250};
    r.th[1] = (struct chain_thread){.kind = 'D', .tid = 538, .start = 5928};
    assert_ptr_equal(chain_older_than(&r, 612.0), &r.th[1]);
    r.th[1].start = 61240;
    assert_null(chain_older_than(&r, 612.0));
    assert_null(chain_older_than(&r, 0));
    /* the uptime 1024.13 times 100 is 102413.00000000001 as a double: a
     * thread of that tick is not older (CI lost the host arm's block I/O) */
    r.th[0].start = r.th[1].start = 102413;
    assert_null(chain_older_than(&r, 1024.13));
    r.th[1].start = 102412;
    assert_ptr_equal(chain_older_than(&r, 1024.13), &r.th[1]);
}

static void server_rows(void **state)
{
    (void)state;
    char *pl[] = {"6", "29241", "7", "29858"};
    struct sql_result r = {.rows = 2, .cols = 2, .cells = pl};
    int tids[4];
    assert_int_equal(chain_parse_processlist(&r, tids, 4), 2);
    assert_true(tids[0] == 29241 && tids[1] == 29858);
    pl[3] = "NULL";
    assert_int_equal(chain_parse_processlist(&r, tids, 4), -1);
    pl[3] = "4194305"; /* past pid_max's limit */
    assert_int_equal(chain_parse_processlist(&r, tids, 4), -1);

    char *ids[] = {"16", "17"};
    unsigned long long id[2];
    struct sql_result t = {.rows = 2, .cols = 1, .cells = ids};
    assert_int_equal(perfschema_parse_threads(&t, id, 2), 2);
    assert_true(id[0] == 16 && id[1] == 17);
    ids[1] = "-1";
    assert_int_equal(perfschema_parse_threads(&t, id, 2), -1);

    char *sums[] = {"read", "3820", "451710176104", "synch", "819543", "775598612400",
                    "commit", "46473", "6156413183000", "statement", "48919", "29235315835000",
                    "transaction", "2446", "29529478484000", "now", "1", "1733072400123456"};
    struct sql_result s = {.rows = 6, .cols = 3, .cells = sums};
    struct ps_reading ps;
    assert_int_equal(perfschema_parse_sums(&s, &ps), 0);
    assert_true(ps.count[PS_READ] == 3820 && fabs(ps.wait_s[PS_READ] - 0.451710176104) < 1e-12);
    assert_true(fabs(ps.wait_s[PS_COMMIT] - 6.156413183) < 1e-9);
    assert_true(ps.threads == 1 && fabs(ps.now_s - 1733072400.123456) < 1e-3);
    s.rows = 5; /* no "now" row */
    assert_int_equal(perfschema_parse_sums(&s, &ps), -1);
    s.rows = 6;
    sums[0] = "synch"; /* a kind twice, another missing */
    assert_int_equal(perfschema_parse_sums(&s, &ps), -1);
    sums[0] = "read";
    sums[4] = "1e9"; /* not a whole number */
    assert_int_equal(perfschema_parse_sums(&s, &ps), -1);
}

/* The child of in_d_95: 19 ms asleep, then gone -- its parent waits for
 * it in state D (a vfork's wait) all that time. */
static int sleep_19ms(void *arg)
{
    (void)arg;
    nanosleep(&(struct timespec){0, 19000000L}, NULL);
    return 0;
}

/* A process in state D 95 % of the time, as the host arm's connection
 * thread in a stalled fsync: each round a child that shares its memory
 * (CLONE_VM | CLONE_VFORK) sleeps 19 ms while it waits in D, then it
 * sleeps 1 ms (S). It dies with the test (a failed assertion leaves before
 * the kill) and after 60 s in any case. */
static pid_t in_d_95(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        alarm(60);
        static char stack[64 * 1024] __attribute__((aligned(16)));
        for (;;) {
            pid_t c = clone(sleep_19ms, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
            if (c < 0)
                _exit(1);
            waitpid(c, NULL, 0);
            nanosleep(&(struct timespec){0, 1000000L}, NULL);
        }
    }
    return pid;
}

/* How many of n readings of the server thread tid, each with at most
 * retries further tries, found it out of state D; every reading must
 * parse, with one 'D' thread and its moment within the reading. */
static int out_of_d_in(int tid, int retries, int n)
{
    char *prog = chain_reading_program(0, NULL, 0, &tid, 1, retries);
    static struct chain_reading r;
    int out = 0;
    for (int i = 0; i < n; i++) {
        /* as target_sh runs it on the host arm's host */
        const char *argv[] = {"/bin/sh", "-c", prog, NULL};
        char *text = NULL;
        assert_int_equal(spawn_run(argv, &(struct spawn_opts){.capture = &text, .timeout = 30}), 0);
        assert_int_equal(chain_parse_reading(text, &r), 0);
        free(text);
        assert_int_equal(r.n, 1);
        assert_int_equal(r.th[0].kind, 'D');
        assert_int_equal(r.th[0].tid, tid);
        assert_true(r.th[0].uptime >= r.uptime_first && r.th[0].uptime <= r.uptime_last);
        out += r.th[0].state != 'D';
    }
    free(prog);
    return out;
}

static void settled_reading(void **state)
{
    (void)state;
    pid_t blocked = in_d_95();
    assert_true(blocked > 0);
    int settled = out_of_d_in((int)blocked, CHAIN_SETTLE_RETRIES, 10);
    int as_is = out_of_d_in((int)blocked, 0, 20);
    kill(blocked, SIGKILL);
    waitpid(blocked, NULL, 0);
    print_message("out of D: %d of 10 readings settled, %d of 20 read as they were\n", settled, as_is);
    /* a loop that did not wait for the wait's end would find it so 1 time in 20 */
    assert_int_equal(settled, 10);
    assert_true(as_is < 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(procfs_texts),
        cmocka_unit_test(one_reading),
        cmocka_unit_test(thread_older_than_the_switch),
        cmocka_unit_test(server_rows),
        cmocka_unit_test(settled_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
