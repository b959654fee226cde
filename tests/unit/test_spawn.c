/* test_spawn.c: a child's output from outside is bounded (spawn.h): a
 * capture past capture_max stops the child, whatever it keeps printing; a
 * log past output_max stops growing; stderr can be captured apart; and no
 * process group <= 1 is ever signalled (process_signal_group). */
#include "testutil.h"

#include "util/log.h"
#include "util/monotime.h"
#include "util/process.h"
#include "util/spawn.h"

#include <signal.h>
#include <sys/resource.h>
#include <time.h>

/* `yes` never stops: past the cap it is stopped at once, well before the
 * time limit, and what was captured stays within the cap */
static void capture_bounded(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    size_t len = 0;
    const char *argv[] = {"yes", "a line of output that never ends", NULL};
    struct spawn_opts o = {.capture = &out, .capture_len = &len, .capture_err = &err,
                           .capture_max = 1 << 20, .timeout = 60, .quiet = 1};
    double t0 = monotime_s();
    assert_int_equal(spawn_run(argv, &o), SPAWN_TOO_LARGE);
    assert_true(monotime_s() - t0 < 30);
    assert_true(len <= 1 << 20);
    assert_int_equal(strlen(out), len);
    free(out);
    free(err);

    /* the same on stderr */
    const char *noisy[] = {"sh", "-c", "yes >&2", NULL};
    struct spawn_opts e = {.capture = &out, .capture_err = &err, .capture_max = 1 << 20, .timeout = 60,
                           .quiet = 1};
    assert_int_equal(spawn_run(noisy, &e), SPAWN_TOO_LARGE);
    assert_true(strlen(err) <= 1 << 20);
    free(out);
    free(err);
}

static void capture_apart(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    size_t len = 0;
    const char *argv[] = {"sh", "-c", "printf 'reply\\0rest'; echo oops >&2; exit 3", NULL};
    struct spawn_opts o = {.capture = &out, .capture_len = &len, .capture_err = &err, .timeout = 60};
    assert_int_equal(spawn_run(argv, &o), 3);
    assert_int_equal(len, 10); /* the NUL is counted: a caller can refuse it */
    assert_string_equal(out, "reply");
    assert_string_equal(err, "oops\n");
    free(out);
    free(err);
}

/* a log stops growing at output_max: the child that writes past it dies of
 * SIGXFSZ (SPAWN_TOO_LARGE), or sees the write fail */
static void output_bounded(void **state)
{
    (void)state;
    char log[] = "/tmp/vbed-spawn-log.XXXXXX";
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    const char *argv[] = {"yes", NULL};
    struct spawn_opts o = {.log_path = log, .output_max = 1 << 20, .timeout = 60, .quiet = 1};
    assert_int_equal(spawn_run(argv, &o), SPAWN_TOO_LARGE);
    struct stat st;
    assert_int_equal(stat(log, &st), 0);
    assert_true(st.st_size <= 1 << 20);
    unlink(log);
}

/* a descriptor vbed holds without close-on-exec (one it inherited, say a
 * pipe its parent reads to its end) never reaches the program: a daemon
 * started so (mariadbd) would keep the pipe open while it ran; a program
 * that cannot start is still reported (its exec error comes through) */
static void descriptors_not_inherited(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0); /* no O_CLOEXEC: as inherited */
    char script[128];
    snprintf(script, sizeof(script), "ls /proc/self/fd/%d /proc/self/fd/%d 2>/dev/null; printf done", p[0], p[1]);
    char *out = NULL, *err = NULL;
    const char *argv[] = {"sh", "-c", script, NULL};
    struct spawn_opts o = {.capture = &out, .capture_err = &err, .timeout = 60};
    assert_int_equal(spawn_run(argv, &o), 0);
    assert_string_equal(out, "done"); /* neither end listed: not open in the child */
    free(out);
    free(err);
    const char *missing[] = {"/nonexistent/vbed-no-such-program", NULL};
    struct spawn_opts q = {.timeout = 60, .quiet = 1};
    /* SPAWN_FAILED, reported through err_pipe; a closed err_pipe would make
     * it a program that ran and exited 127 */
    assert_int_equal(spawn_run(missing, &q), SPAWN_FAILED);
    close(p[0]);
    close(p[1]);
}

static void no_group_of_one(void **state)
{
    (void)state;
    /* kill(-1) would signal every process, kill(0) our own group */
    for (pid_t p = -1; p <= 1; p++) {
        errno = 0;
        assert_int_equal(process_signal_group(p, 0), -1);
        assert_int_equal(errno, EINVAL);
    }
    /* (spawn_stop(1) is refused the same way; not called here: on a
     * regression it would signal every process of the machine) */
}

int main(void)
{
    log_set_level(LOG_QUIET);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capture_bounded),
        cmocka_unit_test(capture_apart),
        cmocka_unit_test(output_bounded),
        cmocka_unit_test(descriptors_not_inherited),
        cmocka_unit_test(no_group_of_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
