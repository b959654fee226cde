/* disklayout.c: the facts of each data-disk layout (see disklayout.h). */
#include "scenario/disklayout.h"

/* indexed by enum disk_layout */
static const struct disklayout_info layouts[] = {
    [LAYOUT_SINGLE] = {DL_TOOL_NONE, 1, -1, false},
    [LAYOUT_MD_RAID0] = {DL_TOOL_MD, 2, 0, false},
    [LAYOUT_MD_RAID1] = {DL_TOOL_MD, 2, 1, true},
    [LAYOUT_MD_RAID10] = {DL_TOOL_MD, 4, 10, true},
    [LAYOUT_MD_RAID5] = {DL_TOOL_MD, 3, 5, true},
    [LAYOUT_MD_RAID6] = {DL_TOOL_MD, 4, 6, true},
    [LAYOUT_LVM_STRIPE] = {DL_TOOL_LVM, 2, -1, false},
    [LAYOUT_BTRFS_RAID0] = {DL_TOOL_BTRFS, 2, 0, false},
    [LAYOUT_BTRFS_RAID1] = {DL_TOOL_BTRFS, 2, 1, true},
    [LAYOUT_BTRFS_RAID10] = {DL_TOOL_BTRFS, 4, 10, true},
    [LAYOUT_BTRFS_RAID5] = {DL_TOOL_BTRFS, 2, 5, true},
    [LAYOUT_BTRFS_RAID6] = {DL_TOOL_BTRFS, 3, 6, true},
};

const struct disklayout_info *disklayout_info(int layout)
{
    if (layout < 0 || (size_t)layout >= sizeof(layouts) / sizeof(layouts[0]))
        return &layouts[LAYOUT_SINGLE];
    return &layouts[layout];
}

long long disklayout_usable_bytes(int layout, long long n, long long disk_size)
{
    const struct disklayout_info *d = disklayout_info(layout);
    switch (d->level) {
    case 1: /* md: an n-way mirror; btrfs: two copies spread over n disks */
        return d->tool == DL_TOOL_BTRFS ? n * disk_size / 2 : disk_size;
    case 10:
        return n / 2 * disk_size;
    case 5:
        return (n - 1) * disk_size;
    case 6:
        return (n - 2) * disk_size;
    default: /* single, raid0, lvm-stripe */
        return n * disk_size;
    }
}

bool disklayout_waits_resync(const struct run_config *cfg)
{
    const struct disklayout_info *d = disklayout_info(cfg->layout);
    return d->tool == DL_TOOL_MD && d->redundant && !cfg->assume_clean;
}
