/* readystate.h: saved ready guests -- a guest booted once to the point
 * where its agent answers and vbed-setup holds for its configuration disk
 * (kernel command line word vbed.hold), saved with virDomainSaveFlags, so
 * that a run restores a copy in about a second instead of booting it.
 *
 * One per key: the image (its content hash), vCPUs, memory, the domain
 * type (kvm or qemu), the hypervisor's QEMU and libvirt versions and the
 * kernel command line; another QEMU or accelerator is another key, so a
 * stale state is never used (it stays until `vbed image rm`). Kept in the
 * image's cache directory: <image>/ready/<key>/{state.save, root.qcow2,
 * meta.json} -- root.qcow2 is the template's root overlay as it was when
 * saved (each restored guest gets a copy as its own root volume). Made when
 * a run first needs it (a boot, ~45 s under TCG), under a lock, so two
 * sessions never make one twice. A remote host's guests restore a state
 * this machine saved with that host's QEMU and libvirt versions (the key
 * names them), uploaded into its pool, if that host's image has the path
 * the saved root overlay is backed by; none is made for a remote host
 * (its boot would be this machine's): its guests boot, and the run says
 * why. */
#ifndef VBED_READYSTATE_H
#define VBED_READYSTATE_H

#include "image/image.h"
#include "scenario/keys.h"
#include "virt/hypervisor.h"
#include "virt/layout.h"

#include <limits.h>

/* The kernel command line word that holds vbed-setup (guest-images'
 * vbed-setup) until the configuration disk is plugged in. */
#define READYSTATE_HOLD " vbed.hold"

struct ready_state {
    char key[17];          /* 16 hex digits of the key's SHA-256 */
    char dir[PATH_MAX];    /* <cache>/images/<image id>/ready/<key> */
    char state[PATH_MAX];  /* its save image */
    char root[PATH_MAX];   /* its root overlay, as saved */
    char base[PATH_MAX];   /* that overlay's backing image ("" if not recorded) */
    char cmdline[1100];    /* the kernel command line it booted with */
    long long state_bytes; /* the save image's size */
    double build_s;        /* seconds it took to make now; 0 if it was there */
};

/* The saved ready guest for guests of cfg (vcpus, memory) under virt_type
 * at hv, made now if there is none and hv is this machine's libvirt (a
 * remote hv: found or not, see above). The guest booted to make it keeps
 * to host CPUs cpuset (placement_guest_cpuset: vbed's window; NULL or ""
 * any), as the run's guests do. 0, or -1 with
 * the reason in why (reported when making it failed; the caller boots
 * cold). */
int readystate_get(struct hv *hv, const struct image_info *img, const struct image_layout *im,
                   const struct run_config *cfg, int virt_type, const char *cpuset,
                   struct ready_state *rs, char *why, size_t whylen);

#endif
