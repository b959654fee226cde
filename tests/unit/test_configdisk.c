/* test_configdisk.c: the configuration disk is a tar archive whose run.env
 * and my.cnf vbed-setup can read, sized in whole 512-byte sectors. */
#include "testutil.h"
#include "virt/configdisk.h"
#include "scenario/keys.h"

#include <archive.h>
#include <archive_entry.h>

static void archive_contents(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.filesystem = FS_XFS;
    cfg.memory = 1LL << 30;
    void *buf;
    size_t len;
    const char *mycnf = "[mariadbd]\ninnodb_buffer_pool_size = 64M\n";
    assert_int_equal(configdisk_build(&cfg, "vbed-ab12cd-001-guest-1", mycnf, &buf, &len), 0);
    assert_int_equal(len % 512, 0);

    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    assert_int_equal(archive_read_open_memory(a, buf, len), ARCHIVE_OK);
    struct archive_entry *e;
    int seen = 0;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        char content[1024] = "";
        la_ssize_t n = archive_read_data(a, content, sizeof(content) - 1);
        assert_true(n >= 0);
        content[n] = '\0';
        if (strcmp(archive_entry_pathname(e), "run.env") == 0) {
            assert_string_equal(content, "FILESYSTEM=xfs\nHOSTNAME=vbed-ab12cd-001-guest-1\n"
                                         "TMPFS_SIZE=536870912\n");
            seen |= 1;
        } else if (strcmp(archive_entry_pathname(e), "my.cnf") == 0) {
            assert_string_equal(content, mycnf);
            seen |= 2;
        } else {
            fail_msg("unexpected entry %s", archive_entry_pathname(e));
        }
    }
    assert_int_equal(seen, 3);
    archive_read_free(a);
    free(buf);
}

/* several disks or raw I/O: vbed-setup is told the layout and where to mount */
static void layout_env(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.workload = WL_SEQ_WRITE;
    cfg.data_disks = 4;
    cfg.layout = LAYOUT_MD_RAID6;
    cfg.memory = 1LL << 30;
    void *buf;
    size_t len;
    assert_int_equal(configdisk_build(&cfg, "vbed-x-001-md_raid6-1", "", &buf, &len), 0);
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    assert_int_equal(archive_read_open_memory(a, buf, len), ARCHIVE_OK);
    struct archive_entry *e;
    assert_int_equal(archive_read_next_header(a, &e), ARCHIVE_OK);
    assert_string_equal(archive_entry_pathname(e), "run.env");
    char content[1024] = "";
    la_ssize_t n = archive_read_data(a, content, sizeof(content) - 1);
    assert_true(n > 0);
    content[n] = '\0';
    /* an arm name's '_' is no hostname's: '-' */
    assert_string_equal(content, "FILESYSTEM=ext4\nHOSTNAME=vbed-x-001-md-raid6-1\nTMPFS_SIZE=536870912\nDATA_DISKS=4\n"
                                 "LAYOUT=md-raid6\nASSUME_CLEAN=no\nRESYNC_TIMEOUT=3600\n"
                                 "IO_DIR=/srv/vbed-io\n");
    archive_read_free(a);
    free(buf);
}

/* run.env's names are the ones vbed-setup reads (its `get NAME;` calls, one
 * at the start of a line each), no more and no fewer: a name one side adds
 * and the other ignores fails here.
 * (Run from the source tree, as tests/run-tests.sh does.) */
static void names_vbed_setup_reads(void **state)
{
    (void)state;
    char *script = NULL;
    FILE *f = fopen("guest-images/debian-mariadb/files/usr/local/sbin/vbed-setup", "r");
    assert_non_null(f);
    size_t cap = 0;
    ssize_t n = getdelim(&script, &cap, '\0', f);
    fclose(f);
    assert_true(n > 0);

    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.workload = WL_SEQ_WRITE; /* every optional name */
    cfg.data_disks = 2;
    cfg.layout = LAYOUT_MD_RAID1;
    void *buf;
    size_t len;
    assert_int_equal(configdisk_build(&cfg, "h", "", &buf, &len), 0);
    /* the archive's first entry is run.env: names up to '=' at line starts */
    char env[1024];
    memcpy(env, (char *)buf + 512, sizeof(env) - 1); /* ustar: data after the 512-byte header */
    env[sizeof(env) - 1] = '\0';
    env[strcspn(env, "\0")] = '\0';
    int names = 0;
    for (char *line = env; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0')) {
        char name[64], call[80];
        size_t k = strcspn(line, "=");
        assert_true(k > 0 && k < sizeof(name));
        snprintf(name, sizeof(name), "%.*s", (int)k, line);
        snprintf(call, sizeof(call), "\nget %s;", name);
        if (!strstr(script, call))
            fail_msg("run.env has %s, which vbed-setup never reads", name);
        names++;
    }
    /* and every name the script reads is one run.env can hold */
    int gets = 0;
    for (const char *p = script; (p = strstr(p, "\nget ")); p++) {
        char name[64];
        assert_int_equal(sscanf(p + 5, "%63[A-Z_]", name), 1);
        char line[80];
        snprintf(line, sizeof(line), "%s=", name);
        if (strncmp(env, line, strlen(line)) != 0 && !strstr(env, line))
            fail_msg("vbed-setup reads %s, which run.env never holds", name);
        gets++;
    }
    assert_int_equal(names, 8);
    assert_true(gets >= names);
    free(buf);
    free(script);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(archive_contents),
                                       cmocka_unit_test(layout_env),
                                       cmocka_unit_test(names_vbed_setup_reads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
