/* test_mycnf.c: my.cnf of several runs (golden files tests/data/mycnf/)
 * and the table options that make sysbench create compressed tables. */
#include "testutil.h"
#include "scenario/keys.h"
#include "scenario/mycnf.h"
#include "workloads/pscost.h"

static void check(const char *golden, const struct run_config *cfg)
{
    char *text = mycnf_render(cfg);
    golden_check(golden, text);
    free(text);
}

static void variants(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    check("mycnf/defaults.cnf", &cfg);

    /* the paper's untuned guest: fsync, row compression */
    cfg.flush_method = FLUSH_FSYNC;
    cfg.compression = COMP_ROW_ZLIB;
    check("mycnf/paper-guest-row-zlib.cnf", &cfg);

    cfg.compression = COMP_PAGE_LZ4;
    cfg.flush_method = FLUSH_O_DIRECT;
    cfg.buffer_pool = 1LL << 30;
    cfg.log_file_size = 256LL << 20;
    cfg.flush_log_at_trx_commit = 2; /* index of "2" */
    cfg.doublewrite = 0;
    cfg.threads = 200;
    check("mycnf/page-lz4-tuned.cnf", &cfg);

    char *text = mycnf_render(&cfg);
    assert_non_null(strstr(text, "plugin_load_add = provider_lz4\n"));
    assert_non_null(strstr(text, "innodb_compression_algorithm = lz4\n"));
    assert_non_null(strstr(text, "innodb_flush_log_at_trx_commit = 2\n"));
    assert_non_null(strstr(text, "innodb_doublewrite = OFF\n"));
    assert_non_null(strstr(text, "max_connections = 420\n"));
    free(text);

    cfg.compression = COMP_PAGE_ZLIB;
    text = mycnf_render(&cfg);
    assert_null(strstr(text, "provider_lz4"));
    assert_non_null(strstr(text, "innodb_compression_algorithm = zlib\n"));
    free(text);
}

static void table_options(void **state)
{
    (void)state;
    struct run_config cfg;
    char buf[128];
    key_apply_defaults(&cfg);
    assert_string_equal(mycnf_table_options(&cfg, buf, sizeof(buf)), "");
    cfg.compression = COMP_ROW_ZLIB;
    assert_string_equal(mycnf_table_options(&cfg, buf, sizeof(buf)),
                        "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8");
    cfg.key_block_size = 2; /* index of "4" */
    assert_string_equal(mycnf_table_options(&cfg, buf, sizeof(buf)),
                        "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4");
    cfg.compression = COMP_PAGE_ZLIB;
    assert_string_equal(mycnf_table_options(&cfg, buf, sizeof(buf)), "PAGE_COMPRESSED=1");
}

/* pscost.h switches off and on exactly what my.cnf turns on: every
 * instrument of the list in both, and nothing but that list's names in the
 * statement (a pattern added to one and not the other fails here) */
static void ps_instruments(void **state)
{
    (void)state;
    struct run_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    key_apply_defaults(&cfg);
    cfg.performance_schema = 1;
    char *cnf = mycnf_render(&cfg);
    char *off = pscost_statement(false), *on = pscost_statement(true);
    assert_non_null(strstr(off, "SET ENABLED = 'NO', TIMED = 'NO' WHERE "));
    assert_non_null(strstr(on, "SET ENABLED = 'YES', TIMED = 'YES' WHERE "));
    size_t n = 0, ons = 0;
    for (const char *p = cnf; (p = strstr(p, "=ON'\n")); p++)
        ons++;
    for (; mycnf_ps_instruments[n]; n++) {
        char line[160], cond[160];
        snprintf(line, sizeof(line), "performance_schema_instrument = '%s=ON'\n", mycnf_ps_instruments[n]);
        snprintf(cond, sizeof(cond), "NAME LIKE '%s'", mycnf_ps_instruments[n]);
        assert_non_null(strstr(cnf, line));
        assert_non_null(strstr(off, cond));
        assert_non_null(strstr(on, cond));
    }
    assert_int_equal(n, 6);
    assert_int_equal(ons, n); /* my.cnf turns on nothing else */
    size_t likes = 0;
    for (const char *p = off; (p = strstr(p, "NAME LIKE ")); p++)
        likes++;
    assert_int_equal(likes, n);
    free(cnf);
    free(off);
    free(on);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variants),
        cmocka_unit_test(table_options),
        cmocka_unit_test(ps_instruments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
