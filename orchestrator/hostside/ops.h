/* ops.h: how hostside.h's requests reach a host -- one implementation per
 * transport (local.c in-process, ssh.c through the helper, none.c for a
 * URI without a shell transport). Internal to hostside/. */
#ifndef VBED_HOSTSIDE_OPS_H
#define VBED_HOSTSIDE_OPS_H

#include "scenario/hosturi.h"
#include "util/procfs.h"

#include <stdbool.h>
#include <stddef.h>

struct hostside {
    struct host_uri u;
    const struct hostside_ops *ops;
};

/* Each as its hostside.h wrapper says; HOSTSIDE_ABSENT where the
 * transport cannot. (This header includes no hostside.h: the wrappers
 * there are its users.) */
struct hostside_ops {
    int (*drop_caches)(struct hostside *h);
    long long (*resident)(struct hostside *h, const char *path);
    int (*meminfo_text)(struct hostside *h, char **text);
    int (*diskstats)(struct hostside *h, const char *path, unsigned *major, unsigned *minor,
                     char **diskstats);
    int (*proc_stat)(struct hostside *h, struct cpu_times *c);
    int (*version)(struct hostside *h, char *buf, size_t len, bool *drop_caches);
    int (*boot_id)(struct hostside *h, char *buf, size_t len);
    long long (*free_bytes)(struct hostside *h, const char *path);
};

extern const struct hostside_ops hostside_local_ops;
extern const struct hostside_ops hostside_ssh_ops;
extern const struct hostside_ops hostside_none_ops;

#endif
