/* test_prepared.c: the key of a copy of sysbench's tables (prepared.h).
 * Two guests may share a copy only when the tables would come out the
 * same: every setting that changes the files (tables, table_size, the
 * table options from compression and key_block_size, the MariaDB version,
 * the page size) changes the key; the settings that do not (the cache
 * mode, the pool, the workload run on them) leave it alone. */
#include "testutil.h"
#include "workloads/prepared.h"

static void key_of(const struct run_config *cfg, const char *version, const char *page, char key[65])
{
    prepared_key(cfg, version, page, key);
    assert_int_equal(strlen(key), 64);
    assert_int_equal(strspn(key, "0123456789abcdef"), 64);
}

static void keys(void **state)
{
    (void)state;
    struct run_config base;
    memset(&base, 0, sizeof(base));
    key_apply_defaults(&base);
    base.tables = 1;
    base.table_size = 100000;
    base.compression = COMP_ROW_ZLIB;
    char k0[65], k[65];
    key_of(&base, "10.11.19-MariaDB-0+deb12u1", "16384", k0);

    /* the same settings: the same key */
    key_of(&base, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_equal(k0, k);
    /* what does not change the files */
    struct run_config c = base;
    c.disk_cache = !base.disk_cache;
    c.buffer_pool = -1;
    c.flush_method = FLUSH_O_DIRECT;
    c.workload = WL_OLTP_READ_ONLY;
    c.threads = 8;
    key_of(&c, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_equal(k0, k);

    /* what does */
    c = base;
    c.tables = 2;
    key_of(&c, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_not_equal(k0, k);
    c = base;
    c.table_size = 100001;
    key_of(&c, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_not_equal(k0, k);
    c = base;
    c.compression = COMP_PAGE_ZLIB;
    key_of(&c, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_not_equal(k0, k);
    c = base;
    c.key_block_size = (base.key_block_size + 1) % 5;
    key_of(&c, "10.11.19-MariaDB-0+deb12u1", "16384", k);
    assert_string_not_equal(k0, k);
    key_of(&base, "10.11.20-MariaDB-0+deb12u1", "16384", k);
    assert_string_not_equal(k0, k);
    key_of(&base, "10.11.19-MariaDB-0+deb12u1", "8192", k);
    assert_string_not_equal(k0, k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
