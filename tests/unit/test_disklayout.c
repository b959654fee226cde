/* test_disklayout.c: the facts of each data-disk layout (disklayout.h):
 * minimum disks, usable capacity, which ones resync before they are
 * measured -- and that the key table's help says the same minimums. */
#include "testutil.h"
#include "scenario/disklayout.h"
#include "scenario/keys.h"

static void minimums(void **state)
{
    (void)state;
    static const struct {
        int layout, min;
    } want[] = {
        {LAYOUT_SINGLE, 1},       {LAYOUT_MD_RAID0, 2},     {LAYOUT_MD_RAID1, 2},
        {LAYOUT_MD_RAID10, 4},    {LAYOUT_MD_RAID5, 3},     {LAYOUT_MD_RAID6, 4},
        {LAYOUT_LVM_STRIPE, 2},   {LAYOUT_BTRFS_RAID0, 2},  {LAYOUT_BTRFS_RAID1, 2},
        {LAYOUT_BTRFS_RAID10, 4}, {LAYOUT_BTRFS_RAID5, 2},  {LAYOUT_BTRFS_RAID6, 3},
    };
    const struct key_def *k = key_find("layout");
    assert_non_null(k);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        assert_int_equal(disklayout_info(want[i].layout)->min_disks, want[i].min);
        /* the help text (README, vbed help keys) names the same number */
        char phrase[64];
        snprintf(phrase, sizeof(phrase), "%s %d", key_choice("layout", want[i].layout), want[i].min);
        if (want[i].layout != LAYOUT_SINGLE && !strstr(k->help, phrase))
            fail_msg("the layout key's help does not say '%s'", phrase);
    }
    /* every choice of the key has its facts */
    for (int i = 0; k->choices[i]; i++)
        assert_true(disklayout_info(i)->min_disks >= 1);
}

static void usable(void **state)
{
    (void)state;
    const long long G = 1LL << 30;
    assert_int_equal(disklayout_usable_bytes(LAYOUT_SINGLE, 1, G), G);
    assert_int_equal(disklayout_usable_bytes(LAYOUT_MD_RAID0, 6, G), 6 * G);
    assert_int_equal(disklayout_usable_bytes(LAYOUT_MD_RAID1, 3, G), G);     /* 3-way mirror */
    assert_int_equal(disklayout_usable_bytes(LAYOUT_BTRFS_RAID1, 3, G), 3 * G / 2); /* 2 copies */
    assert_int_equal(disklayout_usable_bytes(LAYOUT_MD_RAID10, 6, G), 3 * G);
    assert_int_equal(disklayout_usable_bytes(LAYOUT_MD_RAID5, 6, G), 5 * G);
    assert_int_equal(disklayout_usable_bytes(LAYOUT_MD_RAID6, 6, G), 4 * G);
    assert_int_equal(disklayout_usable_bytes(LAYOUT_LVM_STRIPE, 4, G), 4 * G);
}

static void resync(void **state)
{
    (void)state;
    struct run_config cfg;
    key_apply_defaults(&cfg);
    static const int waits[] = {LAYOUT_MD_RAID1, LAYOUT_MD_RAID10, LAYOUT_MD_RAID5, LAYOUT_MD_RAID6};
    static const int never[] = {LAYOUT_SINGLE, LAYOUT_MD_RAID0, LAYOUT_LVM_STRIPE, LAYOUT_BTRFS_RAID1,
                                LAYOUT_BTRFS_RAID5, LAYOUT_BTRFS_RAID6};
    for (size_t i = 0; i < 4; i++) {
        cfg.layout = waits[i];
        cfg.assume_clean = 0;
        assert_true(disklayout_waits_resync(&cfg));
        cfg.assume_clean = 1;
        assert_false(disklayout_waits_resync(&cfg));
    }
    cfg.assume_clean = 0;
    for (size_t i = 0; i < 6; i++) {
        cfg.layout = never[i];
        assert_false(disklayout_waits_resync(&cfg));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(minimums), cmocka_unit_test(usable),
                                       cmocka_unit_test(resync)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
