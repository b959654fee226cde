/* hostside.c: a hypervisor host, the transport that reaches it, and the
 * requests passed on to it (see hostside.h, ops.h). */
#include "hostside/hostside.h"
#include "hostside/ops.h"

#include "util/log.h"
#include "util/procfs.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hostside *hostside_new(const char *uri)
{
    struct hostside *h = xcalloc(1, sizeof(*h));
    if (!uri || !*uri) {
        h->u.transport = HT_LOCAL;
        snprintf(h->u.label, sizeof(h->u.label), "local");
    } else {
        char err[600];
        if (host_uri_parse(uri, &h->u, err, sizeof(err)) < 0) {
            log_error("%s", err);
            free(h);
            return NULL;
        }
    }
    h->ops = h->u.transport == HT_LOCAL ? &hostside_local_ops
             : h->u.transport == HT_NONE ? &hostside_none_ops
                                         : &hostside_ssh_ops;
    return h;
}

void hostside_free(struct hostside *h) { free(h); }
const struct host_uri *hostside_uri(const struct hostside *h) { return &h->u; }
bool hostside_available(const struct hostside *h) { return h->u.transport != HT_NONE; }
bool hostside_is_local(const struct hostside *h) { return h->u.transport == HT_LOCAL; }

int hostside_drop_caches(struct hostside *h) { return h->ops->drop_caches(h); }

long long hostside_resident(struct hostside *h, const char *path) { return h->ops->resident(h, path); }

int hostside_meminfo(struct hostside *h, long long *total, long long *cached, long long *dirty)
{
    char *text = NULL;
    int rc = h->ops->meminfo_text(h, &text);
    if (rc < 0)
        return rc;
    double t, c, d;
    if (procfs_parse_meminfo(text, "MemTotal", &t) < 0 || procfs_parse_meminfo(text, "Cached", &c) < 0 ||
        procfs_parse_meminfo(text, "Dirty", &d) < 0) {
        log_error("/proc/meminfo of host '%s' lacks MemTotal, Cached or Dirty.", h->u.label);
        rc = -1;
    } else {
        *total = (long long)t, *cached = (long long)c, *dirty = (long long)d;
    }
    free(text);
    return rc;
}

int hostside_diskstats(struct hostside *h, const char *path, unsigned *major, unsigned *minor,
                       char **diskstats)
{
    *diskstats = NULL;
    return h->ops->diskstats(h, path, major, minor, diskstats);
}

int hostside_proc_stat(struct hostside *h, struct cpu_times *c) { return h->ops->proc_stat(h, c); }

int hostside_version(struct hostside *h, char *buf, size_t len, bool *drop_caches)
{
    return h->ops->version(h, buf, len, drop_caches);
}

int hostside_boot_id(struct hostside *h, char *buf, size_t len)
{
    return (h ? h->ops : &hostside_local_ops)->boot_id(h, buf, len);
}

long long hostside_free_bytes(struct hostside *h, const char *path) { return h->ops->free_bytes(h, path); }
