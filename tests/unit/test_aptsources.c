/* test_aptsources.c: the host's apt sources in both formats decide the
 * mirror and suites of an image build (fixtures in tests/data/apt/). */
#include "testutil.h"
#include "image/aptsources.h"

static void read_root(const char *name, struct apt_sources *s)
{
    char root[PATH_MAX], rel[64];
    snprintf(rel, sizeof(rel), "apt/%s", name);
    test_data_path(root, sizeof(root), rel);
    apt_sources_read(root, "bookworm", s);
}

static void deb822(void **state)
{
    (void)state;
    struct apt_sources s;
    read_root("deb822", &s);
    /* deb-src, disabled and foreign suites are left out; sorted by suite */
    assert_int_equal(s.n, 3);
    assert_string_equal(s.e[0].suite, "bookworm");
    assert_string_equal(s.e[1].suite, "bookworm-security");
    assert_string_equal(s.e[2].suite, "bookworm-updates");
    assert_string_equal(s.e[0].components, "main contrib");
    assert_string_equal(apt_sources_mirror(&s, "bookworm"), "http://mirror.example/debian");
    char text[1024];
    apt_sources_format(&s, text, sizeof(text));
    assert_string_equal(text, "deb http://mirror.example/debian bookworm main contrib\n"
                              "deb http://security.example/debian-security bookworm-security main\n"
                              "deb http://mirror.example/debian bookworm-updates main contrib\n");
}

static void one_line(void **state)
{
    (void)state;
    struct apt_sources s;
    read_root("oneline", &s);
    assert_int_equal(s.n, 3);
    /* options in brackets skipped, trailing slash dropped, cloud-sdk-bookworm ignored */
    assert_string_equal(apt_sources_mirror(&s, "bookworm"), "http://mirror.example/debian");
    assert_string_equal(s.e[2].suite, "bookworm-updates");
    assert_string_equal(s.e[2].uri, "http://mirror.example/debian");
}

static void override_and_missing(void **state)
{
    (void)state;
    struct apt_sources s;
    read_root("none", &s);
    assert_int_equal(s.n, 0);
    assert_null(apt_sources_mirror(&s, "bookworm"));
    apt_sources_override_mirror(&s, "bookworm", "http://given.example/debian");
    assert_string_equal(apt_sources_mirror(&s, "bookworm"), "http://given.example/debian");

    read_root("oneline", &s);
    apt_sources_override_mirror(&s, "bookworm", "http://given.example/debian");
    /* every entry of the old mirror moves; security stays */
    assert_string_equal(s.e[0].uri, "http://given.example/debian");
    assert_string_equal(s.e[1].uri, "http://security.example/debian-security");
    assert_string_equal(s.e[2].uri, "http://given.example/debian");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deb822),
        cmocka_unit_test(one_line),
        cmocka_unit_test(override_and_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
