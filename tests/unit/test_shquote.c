/* test_shquote.c: the one quoting function for a remote shell: exact
 * output, and hostile arguments that must reach a real sh unchanged. */
#include "testutil.h"
#include "util/shquote.h"

static void exact(void **state)
{
    (void)state;
    char *q = shquote_arg("");
    assert_string_equal(q, "''");
    free(q);
    q = shquote_arg("it's");
    assert_string_equal(q, "'it'\\''s'");
    free(q);
    q = shquote_arg("a b");
    assert_string_equal(q, "'a b'");
    free(q);
    const char *argv[] = {"vbed", "host", "resident", "/var/lib/vbed/pool/x y", NULL};
    q = shquote_argv(argv);
    assert_string_equal(q, "'vbed' 'host' 'resident' '/var/lib/vbed/pool/x y'");
    free(q);
    const char *none[] = {NULL};
    q = shquote_argv(none);
    assert_string_equal(q, "");
    free(q);
}

static const char *const hostile[] = {
    "",
    " ",
    "two words",
    "'",
    "''",
    "\"",
    "it's \"quoted\"",
    "$(touch /tmp/vbed-shquote-pwned)",
    "`touch /tmp/vbed-shquote-pwned`",
    "${HOME}",
    "$HOME",
    "a\nb",
    "\n",
    "tab\there",
    "back\\slash\\",
    "; touch /tmp/vbed-shquote-pwned",
    "| cat",
    "&& true",
    "*",
    "~",
    "#comment",
    "-n",
    "--",
    "'; touch /tmp/vbed-shquote-pwned; echo '",
    "\\'",
    "\x01\x7f\xc3\xa9",
    NULL,
};

/* What sh -c does with the quoted string (what the remote shell of ssh
 * does): printf prints each argument followed by a NUL. */
static void through_sh(void **state)
{
    (void)state;
    unlink("/tmp/vbed-shquote-pwned");
    size_t n = 0;
    while (hostile[n])
        n++;
    const char **argv = calloc(n + 3, sizeof(char *));
    argv[0] = "printf";
    argv[1] = "%s\\0";
    for (size_t i = 0; i < n; i++)
        argv[i + 2] = hostile[i];
    char *cmd = shquote_argv(argv);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char buf[8192];
    size_t got = fread(buf, 1, sizeof(buf), p);
    assert_int_equal(pclose(p), 0);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(off < got);
        size_t len = strnlen(buf + off, got - off);
        assert_true(off + len < got);
        if (strcmp(buf + off, hostile[i]) != 0)
            fail_msg("argument %zu came out as '%s', not '%s'", i, buf + off, hostile[i]);
        off += len + 1;
    }
    assert_int_equal(off, got);
    assert_int_not_equal(access("/tmp/vbed-shquote-pwned", F_OK), 0);
    free(cmd);
    free(argv);
}

/* Each hostile string alone, as the only argument of echo-like sh code. */
static void one_by_one(void **state)
{
    (void)state;
    for (size_t i = 0; hostile[i]; i++) {
        const char *argv[] = {"printf", "%s", hostile[i], NULL};
        char *cmd = shquote_argv(argv);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char buf[512];
        size_t got = fread(buf, 1, sizeof(buf) - 1, p);
        buf[got] = '\0';
        assert_int_equal(pclose(p), 0);
        assert_string_equal(buf, hostile[i]);
        free(cmd);
    }
    assert_int_not_equal(access("/tmp/vbed-shquote-pwned", F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact),
        cmocka_unit_test(through_sh),
        cmocka_unit_test(one_by_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
