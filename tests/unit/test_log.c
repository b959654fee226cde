/* test_log.c: whatever a message quotes reaches the terminal made safe
 * (util/log.h, util/progress.h): a guest's status file with escape
 * sequences, a carriage return, C1 controls, a right-to-left override,
 * invalid UTF-8 and 5,000 bytes comes out with every control character
 * escaped, line breaks kept only where vbed made them, and bounded. */
#include "testutil.h"
#include "util/log.h"
#include "util/progress.h"

#include <fcntl.h>

static char captured[1 << 16];

static void sink(const char *line, void *opaque)
{
    (void)opaque;
    snprintf(captured, sizeof(captured), "%s", line);
}

/* no byte a terminal acts on: C0 but \n, DEL, C1 (as UTF-8 0xC2 0x80..0x9F
 * or a lone byte), U+202E */
static void assert_inert(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
            fail_msg("control byte 0x%02x reached the terminal in: %s", *p, s);
        if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
            fail_msg("a C1 control reached the terminal");
        if (*p >= 0x80 && *p <= 0x9F)
            fail_msg("a lone byte 0x%02x reached the terminal", *p);
    }
    assert_null(strstr(s, "\xe2\x80\xae"));
}

static const char evil[] = "db\x1b]0;owned\x07\x1b[2J\rfake vbed: error \xc2\x9b" "31m \xe2\x80\xae txt \xff\xfe end";

static void messages_are_inert(void **state)
{
    (void)state;
    log_set_sink(sink, NULL);
    log_error("vm-1: setup: %s", evil);
    assert_inert(captured);
    assert_non_null(strstr(captured, "\\x1b]0;owned\\x07\\x1b[2J\\x0dfake"));
    assert_non_null(strstr(captured, "\\xff\\xfe end"));
    /* a multi-line message of vbed's keeps its line breaks */
    log_error("gnuplot failed:\nline 2 %s\nline 3", evil);
    assert_inert(captured);
    assert_non_null(strstr(captured, "failed:\nline 2 db"));
    /* long: bounded */
    char big[5001];
    memset(big, 0x1b, sizeof(big) - 1);
    big[5000] = '\0';
    log_warn("%s", big);
    assert_inert(captured);
    assert_true(strlen(captured) < sizeof(captured));
    log_set_sink(NULL, NULL);
}

/* progress lines (not a terminal here: one line per change) */
static void progress_is_inert(void **state)
{
    (void)state;
    char path[] = "/tmp/vbed-test-log.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int saved = dup(STDERR_FILENO);
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    const char *names[] = {"vbed-x-001-guest-1"};
    struct progress *p = progress_new(1, names);
    progress_set(p, 0, "setup: %s", evil);
    progress_set(p, 0, "setup: %s\nvbed: forged line", "two");
    progress_end(p);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char *text = test_read_file(path);
    assert_non_null(text);
    assert_inert(text);
    assert_null(strstr(text, "\nvbed: forged line"));
    free(text);
    close(fd);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(messages_are_inert),
        cmocka_unit_test(progress_is_inert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
