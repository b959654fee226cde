/* test_mycnf.c: my.cnf of several runs (golden files tests/data/mycnf/)
 * and the table options that make sysbench create compressed tables. */
#include "testutil.h"
#include "scenario/keys.h"
#include "scenario/mycnf.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variants),
        cmocka_unit_test(table_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
