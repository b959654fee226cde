/* leftovers.h: what a crashed or killed vbed left behind, and its removal:
 * domains and pool volumes named vbed-<session>-..., KVM probes
 * (vbed-probe-<machine>-<pid>), and host arms (mariadbd, datadir, cgroup).
 *
 * Only what THIS machine's sessions made is removed, and only once their
 * vbed no longer runs (session.h): a domain whose owner metadata names
 * another machine, or a name whose session this machine never recorded, is
 * foreign and left alone (a libvirt may serve several machines) unless
 * `foreign` is set; even then a running domain, and the volumes of a
 * session with a running domain, stay. Base images go only with `images`,
 * and only when no session of this machine is alive or unknown and no
 * other session's domain or volume (whose disks they may back) remains;
 * under the same rule what the image cache keeps beside the images (saved
 * ready guests, tables kept for copying) goes with `derived`. */
#ifndef VBED_LEFTOVERS_H
#define VBED_LEFTOVERS_H

#include "hostside/hostside.h"
#include "virt/hypervisor.h"

#include <json-c/json.h>

#include <stdbool.h>

struct leftovers_opts {
    const char *pool;
    bool images;   /* also the base images uploaded into the pool */
    bool derived;  /* with images: also this machine's image cache's saved ready
                      guests and kept tables (image_remove_derived) */
    bool foreign;  /* also leftovers no session of this machine recorded */
    bool dry_run;  /* list only */
    const char *session; /* only this session's things (NULL: every session's);
                            others, and probes, are left alone and counted */
};

struct leftovers {
    int removed;  /* things removed (or, dry run, that would be) */
    int failed;   /* things that could not be removed */
    int kept;     /* a live (or unknown) session's things left alone */
    int foreign;  /* other machines' or unrecorded sessions' things left alone */
    int images_kept; /* base images left because something may still use them */
    int others;   /* with o->session: other sessions' things and probes left alone */
};

/* Domains, then volumes of o->pool. Prints one line per thing removed. */
void leftovers_clean_libvirt(struct hv *hv, const struct leftovers_opts *o, struct leftovers *out);
/* Host arms of this machine's dead sessions under <pool_dir>/../host on
 * this machine (with o->foreign also those of sessions it never recorded:
 * another machine may use this one as its ssh host), each stopped and
 * removed as `vbed host arm-stop` does. o->pool and o->images unused. */
void leftovers_clean_host(const char *pool_dir, const struct leftovers_opts *o, struct leftovers *out);
/* The same on the ssh host hs (pool_dir a path there), through `vbed host
 * arm-list` and `arm-stop`. */
void leftovers_clean_remote_host(struct hostside *hs, const char *pool_dir,
                                 const struct leftovers_opts *o, struct leftovers *out);

/* The arm names of a remote `vbed host arm-list` reply (hostile: it decides
 * what vbed clean asks that host to stop and remove): each a string of at
 * most 255 bytes, no '/', that session_of_name reads (vbed-<session>-...);
 * at most LEFTOVERS_ARMS_MAX of the list looked at. *n of them (malloc'd;
 * NULL and 0 when the reply has no list "arms"). */
#define LEFTOVERS_ARMS_MAX 10000
char (*leftovers_arm_names(json_object *reply, size_t *n))[256];

#endif
