/* test_keys.c: the key table is consistent and parses what it documents. */
#include "testutil.h"
#include "scenario/keys.h"
#include "scenario/workingset.h"

/* Every default parses (key_apply_defaults aborts otherwise), every enum has
 * choices, names are unique, and numeric defaults lie within their range. */
static void table_is_consistent(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    for (size_t i = 0; i < key_count; i++) {
        const struct key_def *k = &key_table[i];
        assert_non_null(k->help);
        assert_true(strlen(k->help) > 10);
        if (k->type == KT_ENUM)
            assert_non_null(k->choices);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(k->name, key_table[j].name);
        assert_ptr_equal(key_find(k->name), k);
    }
}

static void required_keys(void **state)
{
    (void)state;
    /* the list of keys, all present */
    static const char *const must[] = {"arm", "guests", "vcpus", "memory", "disk_cache",
        "disk_format", "disk_io", "disk_size", "filesystem", "workload", "tables", "table_size",
        "threads", "duration", "warmup", "repeats", "compression", "key_block_size", "buffer_pool",
        "flush_method", "drop_caches", "virt_type", "timeout_boot", NULL};
    for (size_t i = 0; must[i]; i++)
        assert_non_null(key_find(must[i]));
    assert_null(key_find("disk_cahce"));
}

static void parse_values(void **state)
{
    (void)state;
    struct run_config cfg;
    char err[512];
    key_apply_defaults(&cfg);

    assert_int_equal(key_parse_item(key_find("disk_cache"), "directsync", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.disk_cache, CACHE_DIRECTSYNC);
    assert_int_equal(key_parse_item(key_find("disk_cache"), "nonee", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'nonee' is not one of: none, writeback, writethrough, directsync, unsafe");

    assert_int_equal(key_parse_item(key_find("memory"), "2G", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.memory, 2LL << 30);
    assert_int_equal(key_parse_item(key_find("memory"), "12Q", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'12Q' is not a size (use a number with K, M, G or T, e.g. 512M)");
    assert_int_equal(key_parse_item(key_find("memory"), "1M", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'1M' is out of range (accepted: a size from 256M to 1T (K, M, G, T suffixes))");

    assert_int_equal(key_parse_item(key_find("guests"), "0", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'0' is out of range (accepted: 1 to 64)");
    assert_int_equal(key_parse_item(key_find("guests"), "two", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'two' is not a whole number (accepted: 1 to 64)");

    assert_int_equal(key_parse_item(key_find("repeats"), "auto", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.repeats, -1);
    assert_int_equal(key_parse_item(key_find("guests"), "auto", &cfg, err, sizeof(err)), -1);

    assert_int_equal(key_parse_item(key_find("duration"), "2m", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.duration, 120);
    assert_int_equal(key_parse_item(key_find("drop_caches"), "no", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.drop_caches, 0);
    assert_int_equal(key_parse_item(key_find("drop_caches"), "maybe", &cfg, err, sizeof(err)), -1);

    assert_int_equal(key_parse_item(key_find("key_block_size"), "4", &cfg, err, sizeof(err)), 0);
    assert_int_equal(run_config_key_block_size(&cfg), 4);
    assert_int_equal(key_parse_item(key_find("key_block_size"), "3", &cfg, err, sizeof(err)), -1);

    /* buffer_pool = auto: a size key that also takes "auto" (memory does not) */
    assert_int_equal(key_parse_item(key_find("buffer_pool"), "auto", &cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg.buffer_pool, -1);
    char text[64];
    key_format_value(key_find("buffer_pool"), &cfg, text, sizeof(text));
    assert_string_equal(text, "auto");
    assert_int_equal(key_parse_item(key_find("buffer_pool"), "big", &cfg, err, sizeof(err)), -1);
    assert_string_equal(err, "'big' is not a size (use auto or a number with K, M, G or T, e.g. 512M)");
    assert_int_equal(key_parse_item(key_find("memory"), "auto", &cfg, err, sizeof(err)), -1);
    /* a 1 GiB guest with 180 MiB resident outside the pool and one sysbench
     * thread: 1024 - 180 - 13 - 51.2 (5 %) = 779.8, whole MiB: 779 */
    struct ws_pool p;
    ws_pool_auto(1LL << 30, 180LL << 20, 1, &p);
    assert_int_equal(p.sysbench, 13LL << 20);
    assert_int_equal(p.margin, (long long)(0.05 * (double)(1LL << 30)));
    assert_int_equal(p.pool, 779LL << 20);
    ws_pool_auto(256LL << 20, 250LL << 20, 8, &p); /* nothing left: the floor */
    assert_int_equal(p.pool, 8LL << 20);
    assert_int_equal(p.margin, 32LL << 20);
    /* before a run measures it: memory - 256 MiB */
    assert_int_equal(ws_buffer_pool(&cfg), cfg.memory - (256LL << 20));

    assert_int_equal(key_parse_item(key_find("pool"), "my pool", &cfg, err, sizeof(err)), -1);
    assert_int_equal(key_parse_item(key_find("pool"), "mypool", &cfg, err, sizeof(err)), 0);
    assert_string_equal(cfg.pool, "mypool");
}

static void format_round_trip(void **state)
{
    (void)state;
    struct run_config a, b;
    key_apply_defaults(&a);
    for (size_t i = 0; i < key_count; i++) {
        char text[256], err[512];
        if (!key_table[i].def)
            continue;
        key_format_value(&key_table[i], &a, text, sizeof(text));
        key_apply_defaults(&b);
        assert_int_equal(key_parse_item(&key_table[i], text, &b, err, sizeof(err)), 0);
        char again[256];
        key_format_value(&key_table[i], &b, again, sizeof(again));
        assert_string_equal(text, again);
    }
}

static void suggestions(void **state)
{
    (void)state;
    assert_string_equal(key_suggest("disk_cahce")->name, "disk_cache");
    assert_string_equal(key_suggest("buffer_pool_size")->name, "buffer_pool");
    assert_string_equal(key_suggest("guest")->name, "guests");
    assert_string_equal(key_suggest("Memory")->name, "memory");
    assert_null(key_suggest("frobnicate"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_consistent),
        cmocka_unit_test(required_keys),
        cmocka_unit_test(parse_values),
        cmocka_unit_test(format_round_trip),
        cmocka_unit_test(suggestions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
