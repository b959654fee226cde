/* configdisk.h: the run configuration disk of a guest.
 *
 * A tar archive (written with libarchive) used as a raw, read-only disk
 * with serial vbed-config; the guest's vbed-setup extracts it at boot. It
 * holds run.env (NAME=value lines: FILESYSTEM, HOSTNAME, TMPFS_SIZE) and
 * my.cnf. Made in memory and uploaded into the pool, so it works the same
 * on a remote host. */
#ifndef VBED_CONFIGDISK_H
#define VBED_CONFIGDISK_H

#include "scenario/keys.h"

#include <stddef.h>

/* The archive for guest `hostname` of a run with settings cfg and my.cnf
 * text mycnf. 0, or -1 reported. *buf is malloc'd. */
/* Where a guest mounts its data disks for a raw I/O workload (vbed-setup,
 * told through run.env's IO_DIR); MariaDB's datadir then stays on the
 * root disk. */
#define IO_GUEST_DIR "/srv/vbed-io"

int configdisk_build(const struct run_config *cfg, const char *hostname, const char *mycnf,
                     void **buf, size_t *len);

#endif
