/* layout.h: names and places of everything a run creates.
 *
 * Domains are named vbed-<runid>-<arm>-<n>, where runid is
 * <session>-<sequence>; every per-guest volume starts with its domain's name,
 * so `vbed clean` finds leftovers by the "vbed-" prefix alone. The base
 * image, kernel and initrd are volumes of the same pool, named after the
 * image's content hash, so one path serves local and remote hosts. */
#ifndef VBED_LAYOUT_H
#define VBED_LAYOUT_H

#include "virt/domain.h"
#include "scenario/keys.h"

#include <limits.h>

#define LAYOUT_NAME_MAX 96
/* a guest's root overlay volume: its name and this (every one is backed by
 * the pool's base image) */
#define LAYOUT_ROOT_SUFFIX "-root.qcow2"
#define LAYOUT_DOMNAME_MAX 64
#define LAYOUT_PREFIX "vbed-"
#define LAYOUT_MAX_DATA_DISKS 16 /* the data_disks key's maximum */

struct image_layout {
    char base_vol[LAYOUT_NAME_MAX];   /* vbed-image-<id>.qcow2 */
    char kernel_vol[LAYOUT_NAME_MAX]; /* vbed-image-<id>.vmlinuz */
    char initrd_vol[LAYOUT_NAME_MAX]; /* vbed-image-<id>.initrd */
    char base_path[PATH_MAX];
    char kernel_path[PATH_MAX];
    char initrd_path[PATH_MAX];
};

struct guest_layout {
    char name[LAYOUT_DOMNAME_MAX];     /* domain name */
    char session[LAYOUT_DOMNAME_MAX];  /* the session of runid (its owner metadata) */
    char root_vol[LAYOUT_NAME_MAX];    /* <name> LAYOUT_ROOT_SUFFIX */
    char data_vol[LAYOUT_NAME_MAX];    /* <name>-data.qcow2|raw; "" for tmpfs (data disk 1) */
    char config_vol[LAYOUT_NAME_MAX];  /* <name>-config.tar */
    char console_vol[LAYOUT_NAME_MAX]; /* <name>-console.log */
    char tables_vol[LAYOUT_NAME_MAX];  /* <name>-tables.tar: prepared tables, plugged in
                                          when a workload copies them (workloads/prepared.h) */
    char root_path[PATH_MAX];
    char data_path[PATH_MAX];
    char config_path[PATH_MAX];
    char console_path[PATH_MAX];
    char tables_path[PATH_MAX];
    /* data disks 2..data_disks: <name>-data<k>.qcow2|raw (k from 2) */
    int n_more_data;
    char more_data_vol[LAYOUT_MAX_DATA_DISKS - 1][LAYOUT_NAME_MAX];
    char more_data_path[LAYOUT_MAX_DATA_DISKS - 1][PATH_MAX];
};

/* image_id: "<recipe>-<hash12>" */
void layout_image(struct image_layout *im, const char *pool_path, const char *image_id);
void layout_guest(struct guest_layout *g, const char *pool_path, const char *runid,
                  const char *arm, int n, const struct run_config *cfg);
/* runid of the seq-th run (1-based) of a session */
void layout_runid(char *buf, unsigned long len, const char *session, unsigned seq);
/* Fill spec (pointers into g, im and cmdline) for a guest of a run; its
 * owner metadata names g's session and this machine (session.h). */
void layout_domain_spec(struct domain_spec *spec, const struct guest_layout *g,
                        const struct image_layout *im, const struct run_config *cfg,
                        int virt_type, const char *cmdline);

#endif
