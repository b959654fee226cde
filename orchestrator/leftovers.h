/* leftovers.h: what a crashed or killed vbed left behind, and its removal:
 * domains and pool volumes named vbed-<session>-..., and host arms
 * (mariadbd, datadir, cgroup), of sessions whose vbed no longer runs.
 * A running vbed's are left alone (session.h). */
#ifndef VBED_LEFTOVERS_H
#define VBED_LEFTOVERS_H

#include "hypervisor.h"

#include <stdbool.h>

struct leftovers {
    int removed;  /* things removed (or, dry run, that would be) */
    int failed;   /* things that could not be removed */
    int kept;     /* a live session's things left alone */
};

/* Domains, then volumes of pool (image volumes only with images). Prints
 * one line per thing removed. */
void leftovers_clean_libvirt(struct hv *hv, const char *pool, bool images, bool dry_run,
                             struct leftovers *out);
/* Host arms under <pool_dir>/../host. */
void leftovers_clean_host(const char *pool_dir, bool dry_run, struct leftovers *out);

#endif
