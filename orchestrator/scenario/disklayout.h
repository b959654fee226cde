/* disklayout.h: what each `layout` of a guest's data disks is -- which tool
 * makes it, how many disks it needs, how much of them it can hold, whether
 * it must resync before it is measured. The facts the plan validates with
 * and the guest's vbed-setup acts on (it receives the layout by name).
 *
 * Minimum disk counts are the tools' own where those make a distinct
 * layout, stricter where the tool's minimum degenerates into another one:
 *   md-raid0 2, md-raid1 2, md-raid6 4      mdadm's minimum
 *   md-raid10 4   mdadm accepts 2 (near=2 over 2 disks is a mirror); a
 *                 stripe of mirrors, as in the seed's study, needs 4
 *   md-raid5 3    mdadm accepts 2 (a mirror with parity maths); 3 is RAID 5
 *   lvm-stripe 2  lvcreate -i 1 is no stripe
 *   btrfs-raid0 2, btrfs-raid1 2, btrfs-raid10 4, btrfs-raid5 2,
 *   btrfs-raid6 3  btrfs's devs_min (kernel 6.1, btrfs-progs 6.2), except
 *                 raid0 whose devs_min of 1 is no stripe */
#ifndef VBED_DISKLAYOUT_H
#define VBED_DISKLAYOUT_H

#include "scenario/keys.h"

#include <stdbool.h>

enum disklayout_tool { DL_TOOL_NONE, DL_TOOL_MD, DL_TOOL_LVM, DL_TOOL_BTRFS };

struct disklayout_info {
    enum disklayout_tool tool;
    int min_disks;
    int level;          /* RAID level (0, 1, 10, 5, 6); -1 for single and lvm-stripe */
    bool redundant;     /* keeps a copy or parity: an md array of it resyncs first */
};

const struct disklayout_info *disklayout_info(int layout);
/* Bytes a layout of n disks of disk_size each can hold (before the
 * filesystem's own overhead). */
long long disklayout_usable_bytes(int layout, long long n, long long disk_size);
/* md-raid1/10/5/6 without assume_clean: its initial resync is waited for. */
bool disklayout_waits_resync(const struct run_config *cfg);

#endif
