/* test_plan.c: scenario files into variants and runs: inheritance, list
 * expansion order, sharing of runs, cross-key rules. */
#include "testutil.h"
#include "util/log.h"
#include "scenario/plan.h"
#include "scenario/scenario.h"

#include <unistd.h>

static char tmp_path[64];

static const char *write_tmp(const char *text)
{
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/vbed-test-XXXXXX.ini");
    int fd = mkstemps(tmp_path, 4);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return tmp_path;
}

static struct plan *load(const char *text, struct scenario **scn, struct diag *d)
{
    *scn = scenario_load(write_tmp(text), d);
    unlink(tmp_path);
    return *scn ? plan_build(*scn, d) : NULL;
}

static void inheritance(void **state)
{
    (void)state;
    struct diag d = {0};
    struct scenario *scn;
    struct plan *p = load("[global]\nworkload = oltp_read_only\nmemory = 2G\n"
                          "[host]\narm = host\n"
                          "[guest]\narm = guest\nmemory = 1G\nguests = 3\n",
                          &scn, &d);
    assert_non_null(p);
    assert_int_equal(p->n_arms, 2);
    assert_int_equal(p->n_variants, 1);
    assert_string_equal(p->variants[0].label, "default");
    assert_int_equal(p->n_specs, 2);
    assert_int_equal(p->specs[0].cfg.arm, ARM_HOST);
    assert_int_equal(p->specs[0].cfg.memory, 2LL << 30);   /* from [global] */
    assert_int_equal(p->specs[1].cfg.memory, 1LL << 30);   /* the arm's own */
    assert_int_equal(p->specs[1].cfg.guests, 3);
    assert_int_equal(p->specs[1].cfg.workload, WL_OLTP_READ_ONLY);
    assert_int_equal(p->specs[1].cfg.disk_cache, CACHE_WRITEBACK); /* default */
    plan_free(p);
    scenario_free(scn);
    diag_clear(&d);
}

/* 2 x 2 lists: 4 variants in odometer order, first axis slowest */
static void expansion_order(void **state)
{
    (void)state;
    struct diag d = {0};
    struct scenario *scn;
    struct plan *p = load("[global]\nworkload = oltp_read_only\n"
                          "disk_cache = none, writeback\ndisk_format = qcow2, raw\n"
                          "[guest]\narm = guest\nguests = 2\n",
                          &scn, &d);
    assert_non_null(p);
    assert_int_equal(p->n_variants, 4);
    assert_string_equal(p->variants[0].label, "disk_cache=none disk_format=qcow2");
    assert_string_equal(p->variants[1].label, "disk_cache=none disk_format=raw");
    assert_string_equal(p->variants[2].label, "disk_cache=writeback disk_format=qcow2");
    assert_string_equal(p->variants[3].label, "disk_cache=writeback disk_format=raw");
    assert_int_equal(p->n_specs, 4);
    assert_int_equal(p->specs[1].cfg.disk_cache, CACHE_NONE);
    assert_int_equal(p->specs[1].cfg.disk_format, FORMAT_RAW);
    assert_int_equal(p->specs[2].cfg.disk_cache, CACHE_WRITEBACK);
    plan_free(p);
    scenario_free(scn);
    diag_clear(&d);
}

/* The host arm does not care about disk_cache: one host run serves both
 * variants; an arm's own list is an axis named after the arm. */
static void sharing_and_arm_axes(void **state)
{
    (void)state;
    struct diag d = {0};
    struct scenario *scn;
    struct plan *p = load("[global]\nworkload = oltp_read_write\n"
                          "[host]\narm = host\n"
                          "[guest]\narm = guest\ndisk_cache = none, writeback, unsafe\n",
                          &scn, &d);
    assert_non_null(p);
    assert_int_equal(p->n_variants, 3);
    assert_string_equal(p->variants[2].label, "guest.disk_cache=unsafe");
    assert_int_equal(p->n_specs, 4); /* 1 host + 3 guest */
    for (size_t v = 0; v < 3; v++)
        assert_int_equal(p->variants[v].spec_of_arm[0], 0);
    char buf[64];
    plan_spec_variants(p, 0, buf, sizeof(buf));
    assert_string_equal(buf, "1,2,3");
    plan_free(p);
    scenario_free(scn);
    diag_clear(&d);
}

static void global_settings(void **state)
{
    (void)state;
    struct diag d = {0};
    struct scenario *scn;
    struct plan *p = load("[global]\nworkload = oltp_read_write\nrepeats = auto\nrepeats_max = 7\n"
                          "pool = testpool\n[g]\narm = guest\n",
                          &scn, &d);
    assert_non_null(p);
    assert_int_equal(p->global.repeats, -1);
    assert_int_equal(p->global.repeats_max, 7);
    assert_string_equal(p->global.pool, "testpool");
    assert_int_equal(strncmp(scn->name, "vbed-test-", 10), 0); /* no directory, no .ini */
    assert_null(strstr(scn->name, ".ini"));
    plan_free(p);
    scenario_free(scn);
    diag_clear(&d);
}

/* One message per problem, in the documented form. */
static void errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *message; /* after "FILE:" */
    } cases[] = {
        {"[global]\nworkload = oltp_read_only\n[g]\narm = guest\ndisk_cache = nonee\n",
         "5: disk_cache: 'nonee' is not one of: none, writeback, writethrough, directsync, unsafe"},
        {"[global]\nworkload = oltp_read_only\ndisk_cahce = none\n[g]\narm = guest\n",
         "3: unknown key 'disk_cahce' (did you mean 'disk_cache'?)"},
        {"[global]\nworkload = oltp_read_only\n[g]\narm = guest\nguests = 0\n",
         "5: guests: '0' is out of range (accepted: 1 to 64)"},
        {"[global]\nworkload = oltp_read_only\n[g]\narm = guest\ndisk_io = native\n",
         "5: disk_io: 'native' needs disk_cache none or directsync, but arm [g] has disk_cache "
         "'writeback' (the default)"},
        {"[global]\n[g]\narm = guest\n",
         "2: arm [g] has no workload: set workload = one of: oltp_read_only, oltp_read_write, "
         "oltp_write_only, oltp_point_select, seq_write, seq_read, tar_extract, mariadb_slap (in [global] or [g])"},
        /* data disks and their layout: each layout's minimum, and what it needs */
        {"[global]\nworkload = seq_write\n[g]\narm = guest\nlayout = md-raid6\ndata_disks = 3\n",
         "5: layout: 'md-raid6' needs at least 4 data disks, but arm [g] has data_disks 3 (line 6)"},
        {"[global]\nworkload = seq_write\n[g]\narm = guest\nlayout = md-raid10\ndata_disks = 3\n",
         "5: layout: 'md-raid10' needs at least 4 data disks, but arm [g] has data_disks 3 (line 6)"},
        {"[global]\nworkload = seq_write\n[g]\narm = guest\nlayout = md-raid5\ndata_disks = 2\n",
         "5: layout: 'md-raid5' needs at least 3 data disks, but arm [g] has data_disks 2 (line 6)"},
        {"[global]\nworkload = seq_write\nfilesystem = btrfs\n[g]\narm = guest\nlayout = btrfs-raid6\n"
         "data_disks = 2\n",
         "6: layout: 'btrfs-raid6' needs at least 3 data disks, but arm [g] has data_disks 2 (line 7)"},
        {"[global]\nworkload = seq_write\nfilesystem = btrfs\n[g]\narm = guest\nlayout = btrfs-raid10\n",
         "6: layout: 'btrfs-raid10' needs at least 4 data disks, but arm [g] has data_disks 1 (the "
         "default)"},
        {"[global]\nworkload = seq_write\n[g]\narm = guest\nlayout = lvm-stripe\n",
         "5: layout: 'lvm-stripe' needs at least 2 data disks, but arm [g] has data_disks 1 (the "
         "default)"},
        {"[global]\nworkload = tar_extract\ndata_disks = 4\n[g]\narm = guest\nlayout = btrfs-raid5\n",
         "6: layout: 'btrfs-raid5' is btrfs's own RAID and needs filesystem btrfs, but arm [g] has "
         "filesystem 'ext4' (the default)"},
        {"[global]\nworkload = seq_write\n[g]\narm = guest\ndata_disks = 2\n",
         "5: data_disks: 2 disks need a layout that combines them, but arm [g] has layout 'single' "
         "(the default)"},
        {"[global]\nworkload = seq_write\n[g]\narm = guest\ndata_disks = 17\n",
         "5: data_disks: '17' is out of range (accepted: 1 to 16)"},
        {"[global]\nworkload = seq_write\nio_size = 1G\ndisk_size = 256M\n[g]\narm = guest\n"
         "layout = md-raid5\ndata_disks = 4\n",
         "3: io_size: '1G' does not fit on arm [g]'s data disks (layout 'md-raid5' of 4 disks: 768M "
         "usable, of which io_size may take 90%)"},
        {"[global]\nworkload = seq_read\nfilesystem = tmpfs\n[g]\narm = guest\n",
         "2: workload: 'seq_read' writes to the data disks, but arm [g] has filesystem 'tmpfs' "
         "(line 3)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct diag d = {0};
        struct scenario *scn;
        struct plan *p = load(cases[i].text, &scn, &d);
        assert_null(p);
        assert_int_equal(d.n, 1);
        char expected[1024];
        snprintf(expected, sizeof(expected), "%s:%s", tmp_path, cases[i].message);
        assert_string_equal(d.lines[0], expected);
        plan_free(p);
        scenario_free(scn);
        diag_clear(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inheritance),
        cmocka_unit_test(expansion_order),
        cmocka_unit_test(sharing_and_arm_axes),
        cmocka_unit_test(global_settings),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
