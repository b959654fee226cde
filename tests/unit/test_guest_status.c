/* test_guest_status.c: what vbed makes of vbed-setup's status file. The
 * guest writes it in place (`printf '%s\n' WORD > status`: truncated, then
 * written), so vbed's look may land between the two and read nothing or
 * part of a word: that is a step to wait on, never ready or failed. Ready
 * is the whole word on its own line; failed is the word with its reason;
 * anything else (a step, a part of a word, a line the guest made up) is a
 * step, shown escaped. */
#include "testutil.h"
#include "virt/guest.h"

static enum guest_status parse(const char *text, size_t len, char *shown)
{
    return guest_status_parse(text, len, shown, GUEST_STATUS_SHOWN);
}

static void look(const char *text, enum guest_status want, const char *want_shown)
{
    char shown[GUEST_STATUS_SHOWN];
    enum guest_status got = parse(text, strlen(text), shown);
    if (got != want)
        fail_msg("status \"%s\": got %d, expected %d", text, (int)got, (int)want);
    if (want_shown)
        assert_string_equal(shown, want_shown);
}

/* the file between its truncation and the end of printf's write */
static void partial_writes_are_steps(void **state)
{
    (void)state;
    look("", GUEST_STATUS_STEP, "");
    look("\n", GUEST_STATUS_STEP, "");
    /* every proper prefix of ready and failed, as a reader may see it */
    const char *words[] = {"ready", "failed", NULL};
    for (size_t w = 0; words[w]; w++)
        for (size_t i = 0; i < strlen(words[w]); i++) {
            char part[8];
            snprintf(part, sizeof(part), "%.*s", (int)i, words[w]);
            look(part, GUEST_STATUS_STEP, part);
        }
}

static void whole_words(void **state)
{
    (void)state;
    look("ready\n", GUEST_STATUS_READY, "ready");
    look("ready", GUEST_STATUS_READY, "ready"); /* the newline not written yet */
    look("failed: cannot copy the seed datadir\n", GUEST_STATUS_FAILED,
         "failed: cannot copy the seed datadir");
    look("failed: cann", GUEST_STATUS_FAILED, "failed: cann"); /* its reason cut short */
    look("hold\n", GUEST_STATUS_STEP, "hold");
    look("datadir\n", GUEST_STATUS_STEP, "datadir");
    /* only the first line counts */
    look("datadir\nready\n", GUEST_STATUS_STEP, "datadir");
}

/* near misses of ready are steps: vbed must not ask MariaDB before
 * vbed-setup is done */
static void near_misses(void **state)
{
    (void)state;
    look("readyx\n", GUEST_STATUS_STEP, NULL);
    look(" ready\n", GUEST_STATUS_STEP, NULL);
    look("ready \n", GUEST_STATUS_STEP, NULL);
    look("READY\n", GUEST_STATUS_STEP, NULL);
    look("fail\n", GUEST_STATUS_STEP, "fail");
    char shown[GUEST_STATUS_SHOWN];
    /* a NUL ends the word: "ready" before it is ready, "rea" is not */
    assert_int_equal(parse("ready\0junk", 10, shown), GUEST_STATUS_READY);
    assert_int_equal(parse("rea\0dy", 6, shown), GUEST_STATUS_STEP);
    assert_string_equal(shown, "rea");
}

/* the guest's words reach the terminal escaped and short */
static void shown_is_safe(void **state)
{
    (void)state;
    char shown[GUEST_STATUS_SHOWN];
    assert_int_equal(parse("\x1b[2Jdisk\r", 10, shown), GUEST_STATUS_STEP);
    assert_null(strchr(shown, '\x1b'));
    assert_null(strchr(shown, '\r'));
    char longline[4096];
    memset(longline, 'a', sizeof(longline));
    assert_int_equal(parse(longline, sizeof(longline), shown), GUEST_STATUS_STEP);
    assert_true(strlen(shown) < GUEST_STATUS_SHOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(partial_writes_are_steps),
        cmocka_unit_test(whole_words),
        cmocka_unit_test(near_misses),
        cmocka_unit_test(shown_is_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
