/* test_termtext.c: untrusted text is escaped and cut for a terminal line. */
#include "testutil.h"
#include "util/termtext.h"

static void check(const char *in, size_t max, const char *want)
{
    char *got = termtext_escape(in, max);
    assert_string_equal(got, want);
    free(got);
}

static void escapes(void **state)
{
    (void)state;
    check("plain name_1", 0, "plain name_1");
    check("a\x1b[2Jb\nc\td\re", 0, "a\\e[2Jb\\nc\\td\\re");
    check("nul\x01 del\x7f back\\slash", 0, "nul\\x01 del\\x7f back\\\\slash");
    check("caf\xc3\xa9", 0, "caf\xc3\xa9");                 /* valid UTF-8 kept */
    check("bad\xc3(", 0, "bad\\xc3(");                       /* a broken sequence */
    check("over\xc0\xaflong", 0, "over\\xc0\\xaflong");      /* an overlong '/' */
    check("c1\xc2\x9b" "31m", 0, "c1\\u{009B}31m");          /* C1 CSI */
    check("rtl\xe2\x80\xae" "txt", 0, "rtl\\u{202E}txt");    /* right-to-left override */
    check("bom\xef\xbb\xbf", 0, "bom\\u{FEFF}");
}

static void cuts(void **state)
{
    (void)state;
    check("abcdef", 6, "abcdef");
    check("abcdefg", 6, "abc...");
    check("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4, "\xc3\xa9...");
    check("ab\ncdef", 6, "ab...");   /* an escape is not split */
    check("abcdef", 2, "..");
    char *big = malloc(5001);
    memset(big, 'x', 5000);
    big[5000] = '\0';
    char *got = termtext_escape(big, 40);
    assert_int_equal(strlen(got), 40);
    assert_string_equal(got + 37, "...");
    free(got);
    got = termtext_escape(big, 0);
    assert_int_equal(strlen(got), 5000);
    free(got);
    free(big);
}

static void messages(void **state)
{
    (void)state;
    char *got = termtext_escape_message("'a\\x1b' in /tmp/\x1b[2J", 0);
    assert_string_equal(got, "'a\\x1b' in /tmp/\\e[2J");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escapes),
        cmocka_unit_test(cuts),
        cmocka_unit_test(messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
