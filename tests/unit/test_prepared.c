/* test_prepared.c: the key of a copy of sysbench's tables (prepared.h),
 * and which copies a target may take: the shared cache holds root's
 * copies only (a planted one -- a guest's, or root's with a file changed
 * since -- is refused, as issue 43's review planted it: loaded_in guest,
 * rows of the guest's choosing, uncompressed bytes 1000), a guest's copy is
 * its own vbed's later guests' alone, never a host arm's, and the
 * uncompressed size a check takes is root's measurement only.
 * Two guests may share a copy only when the tables would come out the
 * same: every setting that changes the files (tables, table_size, the
 * table options from compression and key_block_size, the MariaDB version,
 * the page size) changes the key; the settings that do not (the cache
 * mode, the pool, the workload run on them) leave it alone. */
#include "testutil.h"
#include "targets/target.h"
#include "util/hash.h"
#include "workloads/prepared.h"

#include <fcntl.h>
#include <math.h>

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

static char cache[] = "/tmp/vbed-test-prepared.XXXXXX";

/* a copy of 1 table at dir/key: its files with text, meta.json saying
 * loaded_in, uncompressed bytes and (digests) the files' SHA-256 */
static void plant(const char *base, const char *key, const char *loaded_in, bool digests,
                  long long uncompressed)
{
    char dir[1024], meta[8192];
    snprintf(dir, sizeof(dir), "%s/%s", base, key);
    assert_int_equal(mkdir(base, 0700) == 0 || errno == EEXIST, 1);
    assert_int_equal(mkdir(dir, 0700), 0);
    test_write_file(dir, "sbtest1.ibd", "the rows of whoever made it\n");
    test_write_file(dir, "sbtest1.cfg", "cfg\n");
    char hex[2][65];
    const char *texts[] = {"the rows of whoever made it\n", "cfg\n"};
    for (int i = 0; i < 2; i++) {
        struct hasher *h = hasher_new();
        hasher_add(h, texts[i], strlen(texts[i]));
        hasher_final(h, hex[i]);
    }
    if (digests)
        snprintf(meta, sizeof(meta),
                 "{\"key\": \"%s\", \"load_s\": 99, \"loaded_in\": \"%s\", "
                 "\"sbtest1_reference_pages_bytes\": %lld, \"files\": {"
                 "\"sbtest1.ibd\": {\"sha256\": \"%s\"}, \"sbtest1.cfg\": {\"sha256\": \"%s\"}}}",
                 key, loaded_in, uncompressed, hex[0], hex[1]);
    else
        snprintf(meta, sizeof(meta),
                 "{\"key\": \"%s\", \"load_s\": 99, \"loaded_in\": \"%s\", "
                 "\"sbtest1_reference_pages_bytes\": %lld}",
                 key, loaded_in, uncompressed);
    test_write_file(dir, "meta.json", meta);
}

static int export_stub(struct target *t, long long tables, const char *dest, size_t max, double *bytes)
{
    (void)t, (void)tables, (void)dest, (void)max, (void)bytes;
    return -1;
}

static const struct target_ops guest_ops = {.kind = "guest"};
static const struct target_ops host_ops = {.kind = "host arm", .export_tables = export_stub};

static void which_copies(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(cache));
    char shared[256], private_[512], why[512];
    snprintf(shared, sizeof(shared), "%s/prepared", cache);
    snprintf(private_, sizeof(private_), "%s/%s%ld", shared, PREPARED_PRIVATE_PREFIX, (long)getpid());
    struct run_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    key_apply_defaults(&cfg);
    cfg.tables = 1;
    cfg.table_size = 1000;
    cfg.prepare = PREPARE_COPY;
    struct target guest = {.ops = &guest_ops, .own_kernel = true}, host = {.ops = &host_ops};
    snprintf(guest.name, sizeof(guest.name), "vm-1");
    snprintf(host.name, sizeof(host.name), "host");
    snprintf(guest.prepared_dir, sizeof(guest.prepared_dir), "%s", shared);
    snprintf(host.prepared_dir, sizeof(host.prepared_dir), "%s", shared);
    struct prepared_server ps;
    memset(&ps, 0, sizeof(ps));

    /* the review's plant: a guest's copy in the shared cache -- refused by
     * both (c78420e imported it into the host arm and took 1000 bytes) */
    snprintf(ps.key, sizeof(ps.key), "%064d", 1);
    plant(shared, ps.key, "guest", true, 1000);
    assert_int_equal(prepared_lookup(&host, &cfg, &ps, why, sizeof(why)), 1);
    assert_int_equal(prepared_lookup(&guest, &cfg, &ps, why, sizeof(why)), 1);
    assert_int_equal(ps.uncompressed, 0);
    /* root's, without digests (an older vbed's): refused */
    snprintf(ps.key, sizeof(ps.key), "%064d", 2);
    plant(shared, ps.key, "host arm", false, 5000);
    assert_int_equal(prepared_lookup(&host, &cfg, &ps, why, sizeof(why)), 1);
    /* root's with digests: taken by both, its uncompressed size with it */
    snprintf(ps.key, sizeof(ps.key), "%064d", 3);
    plant(shared, ps.key, "host arm", true, 5000);
    assert_int_equal(prepared_lookup(&host, &cfg, &ps, why, sizeof(why)), 0);
    assert_true(ps.shared);
    assert_string_equal(ps.from, "host arm");
    assert_int_equal(ps.uncompressed, 5000);
    assert_int_equal(prepared_lookup(&guest, &cfg, &ps, why, sizeof(why)), 0);
    assert_true(ps.shared);
    /* ... until a byte of a file changes */
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/%s", shared, ps.key);
    test_write_file(dir, "sbtest1.ibd", "the rows of whoever made it!\n");
    assert_int_equal(prepared_lookup(&host, &cfg, &ps, why, sizeof(why)), 1);
    assert_int_equal(prepared_lookup(&guest, &cfg, &ps, why, sizeof(why)), 1);
    /* a guest's copy in this vbed's private directory: a later guest's,
     * never the host arm's, and its uncompressed size is no one's */
    snprintf(ps.key, sizeof(ps.key), "%064d", 4);
    plant(private_, ps.key, "guest", true, 1000);
    assert_int_equal(prepared_lookup(&host, &cfg, &ps, why, sizeof(why)), 1);
    assert_int_equal(prepared_lookup(&guest, &cfg, &ps, why, sizeof(why)), 0);
    assert_false(ps.shared);
    assert_string_equal(ps.from, "guest");
    assert_int_equal(ps.uncompressed, 0);
    /* and it goes with the run */
    prepared_forget_private(shared);
    assert_int_equal(access(private_, F_OK), -1);
    assert_int_equal(prepared_lookup(&guest, &cfg, &ps, why, sizeof(why)), 1);

    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
    assert_int_equal(system(cmd), 0);
}

/* prepare = auto keeps and takes a copy only where loading took long
 * enough that copying saves time: from PREPARED_PAYS_HOST_S in the host arm
 * (host-prepare's 40,000 rows: 0.4 s, and each guest then loads them in
 * 5.6 s), from PREPARED_PAYS_S in a guest; an unknown time never pays;
 * prepare = copy always copies */
static void pays(void **state)
{
    (void)state;
    struct run_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    key_apply_defaults(&cfg);
    cfg.prepare = PREPARE_AUTO;
    assert_false(prepared_pays(&cfg, "host arm", 0.4));
    assert_true(prepared_pays(&cfg, "host arm", PREPARED_PAYS_HOST_S));
    assert_false(prepared_pays(&cfg, "guest", 5.6));
    assert_false(prepared_pays(&cfg, "guest", PREPARED_PAYS_HOST_S));
    assert_true(prepared_pays(&cfg, "guest", PREPARED_PAYS_S));
    assert_false(prepared_pays(&cfg, "host arm", NAN));
    cfg.prepare = PREPARE_COPY;
    assert_true(prepared_pays(&cfg, "host arm", 0.4));
    assert_true(prepared_pays(&cfg, "guest", NAN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys),
        cmocka_unit_test(which_copies),
        cmocka_unit_test(pays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
