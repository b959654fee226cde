/* test_cli_options.c: getopt's tables and the --help lines come from one
 * option table (cli_options.h). */
#include "testutil.h"
#include "cli/cli_options.h"

static const struct cli_option opts[] = {
    {"dry-run", 'n', NULL, CLI_VALUE_NONE, NULL, "check only"},
    {"results", 'o', "DIR", CLI_VALUE_DIR, NULL, "results root"},
    {"xml-dir", CLI_LONG_ONLY('X'), "DIR", CLI_VALUE_DIR, NULL,
     "a help long enough to be wrapped over two lines when it is printed next to its option, "
     "as --help does"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

static void getopt_tables(void **state)
{
    (void)state;
    struct cli_getopt g;
    cli_getopt_init(&g, opts, "+");
    assert_string_equal(g.shortopts, "+no:");
    assert_string_equal(g.longopts[2].name, "xml-dir");
    assert_int_equal(g.longopts[2].has_arg, required_argument);
    assert_int_equal(g.longopts[2].val, CLI_LONG_ONLY('X'));
    assert_null(g.longopts[3].name);
    assert_int_equal(cli_options_count(opts), 3);
    assert_int_equal(cli_options_count(NULL), 0);
}

static void parses(void **state)
{
    (void)state;
    char a0[] = "run", a1[] = "-n", a2[] = "--xml-dir=/tmp/x", a3[] = "-o", a4[] = "r", a5[] = "s.ini";
    char *argv[] = {a0, a1, a2, a3, a4, a5, NULL};
    struct cli_getopt g;
    cli_getopt_init(&g, opts, "");
    optind = 0;
    assert_int_equal(cli_getopt_next(&g, 6, argv), 'n');
    assert_int_equal(cli_getopt_next(&g, 6, argv), CLI_LONG_ONLY('X'));
    assert_string_equal(optarg, "/tmp/x");
    assert_int_equal(cli_getopt_next(&g, 6, argv), 'o');
    assert_string_equal(optarg, "r");
    assert_int_equal(cli_getopt_next(&g, 6, argv), -1);
    assert_int_equal(optind, 5);
    /* -X is not a short option of the table */
    char b1[] = "-X";
    char *bad[] = {a0, b1, NULL};
    optind = 0;
    opterr = 0;
    assert_int_equal(cli_getopt_next(&g, 2, bad), '?');
    opterr = 1;
}

/* wrapped at 79 columns, the help in a column of its own */
static void help_lines(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cli_options_print(out, "Options", opts);
    fclose(out);
    assert_string_equal(text,
                        "\nOptions:\n"
                        "  -n, --dry-run      check only\n"
                        "  -o, --results=DIR  results root\n"
                        "      --xml-dir=DIR  a help long enough to be wrapped over two lines when it is\n"
                        "                     printed next to its option, as --help does\n"
                        "  -h, --help         this help\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(getopt_tables),
        cmocka_unit_test(parses),
        cmocka_unit_test(help_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
