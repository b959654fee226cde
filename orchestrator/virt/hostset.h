/* hostset.h: the hypervisor hosts a plan runs on (the `hosts` key of every
 * guest arm; "" is the -c URI), one libvirt connection per distinct URI,
 * its host-side transport (hostside.h), and per (host, pool) -- pool and
 * pool_dir may differ per arm -- the pool and its copy of the image.
 *
 * Guests of a guest arm go round-robin over the arm's hosts
 * (run_config_guest_host). The image is uploaded into each host's pool once
 * per content hash (storage.h), to all hosts at once, a thread each, with a
 * progress line. Owns the connections: closing them destroys every
 * transient domain started through them (AUTODESTROY). */
#ifndef VBED_HOSTSET_H
#define VBED_HOSTSET_H

#include "hostside/hostside.h"
#include "virt/hypervisor.h"
#include "image/image.h"
#include "virt/layout.h"
#include "scenario/plan.h"
#include "virt/storage.h"

#include <stdio.h>

struct hostset_host {
    char uri[KEY_HOSTS_MAX];  /* as written in the scenario; "" = the -c URI */
    char label[HOST_URI_MAX]; /* how results name it: the URI without its query */
    char pool[KEY_STRING_MAX], pool_dir[KEY_STRING_MAX];
    char arms[128];           /* the arms placed on it, for messages */
    struct hv *hv;            /* shared by the entries of one URI ... */
    struct hostside *hs;
    bool owner;               /* ... this one closes them */
    struct storage *st;
    struct image_layout im;
    int virt_type;            /* virt_type = auto, decided once per host */
    bool virt_decided;
    double upload_s;          /* seconds the image upload took; 0 if it was there */
};

struct hostset {
    struct hostset_host *h;
    size_t n;
    const char *default_uri; /* -c, may be NULL (libvirt's default) */
};

/* One host (uri "" = default_uri) and pool; who names its user in messages
 * (an arm). A second add of the same is a no-op. set starts zeroed, with
 * default_uri set. */
void hostset_add(struct hostset *set, const char *uri, const char *pool, const char *pool_dir,
                 const char *who);
/* The distinct hosts of p's guest arms. */
void hostset_collect(struct hostset *set, const struct plan *p, const char *default_uri);
/* Index in set of the i-th host of cfg (i < count, or 0 for the -c URI). */
size_t hostset_index(const struct hostset *set, const struct run_config *cfg, size_t i);
/* The host guest n (1-based) of a guest arm run with cfg runs on. */
struct hostset_host *hostset_guest_host(struct hostset *set, const struct run_config *cfg, int n);

/* Connect to every host; -1 after naming each host that cannot be reached
 * (quiet: without libvirt's own error line). An ssh host's helper (`vbed
 * host version`) must answer too. */
int hostset_connect(struct hostset *set, bool check_helper);
/* The pools and the image on every host, in parallel; -1 reported. */
int hostset_prepare(struct hostset *set, const struct image_info *img);
void hostset_close(struct hostset *set);

/* Host arms: the host each runs on (its one `hosts` URI, else
 * default_uri; none: this machine) must be this machine or an ssh host
 * whose helper answers; -1 after naming each that is not. out (may be
 * NULL) gets a placement line for each host arm run on a remote host. */
int hostset_check_host_arms(const struct plan *p, const char *default_uri, FILE *out);

/* `vbed run --dry-run`: which guest on which host, per guest run whose
 * arm sets hosts. */
void hostset_print_placement(const struct plan *p, const struct hostset *set, FILE *out);

#endif
