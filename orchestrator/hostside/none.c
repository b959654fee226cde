/* none.c: a host whose URI has no shell transport (qemu+tcp, qemu+tls):
 * what libvirt does not offer cannot be done there. Its figures are
 * absent (HOSTSIDE_ABSENT, quietly: the samples simply lack them); a
 * page-cache drop that was asked for says so (see ops.h). */
#include "hostside/ops.h"
#include "hostside/hostside.h"

#include "util/log.h"

static int drop_caches(struct hostside *h)
{
    log_warn("drop_caches: host '%s' has no shell transport: its page cache was not dropped",
             h->u.label);
    return HOSTSIDE_ABSENT;
}

static long long resident(struct hostside *h, const char *path)
{
    (void)h, (void)path;
    return HOSTSIDE_ABSENT;
}

static int meminfo_text(struct hostside *h, char **text)
{
    (void)h;
    *text = NULL;
    return HOSTSIDE_ABSENT;
}

static int diskstats(struct hostside *h, const char *path, unsigned *major, unsigned *minor, char **text)
{
    (void)h, (void)path, (void)major, (void)minor;
    *text = NULL;
    return HOSTSIDE_ABSENT;
}

static int proc_stat(struct hostside *h, struct cpu_times *c)
{
    (void)h, (void)c;
    return HOSTSIDE_ABSENT;
}

/* asked by doctor and the host checks: the answer is an error there */
static int unavailable(const struct hostside *h, const char *what)
{
    log_error("Cannot %s on host '%s': its URI has no shell transport (only ssh URIs do).", what,
              h->u.label);
    return -1;
}

static int version(struct hostside *h, char *buf, size_t len, bool *drop)
{
    (void)buf, (void)len, (void)drop;
    return unavailable(h, "ask the helper's version");
}

static int boot_id(struct hostside *h, char *buf, size_t len)
{
    (void)h, (void)buf, (void)len;
    return -1;
}

static long long free_bytes(struct hostside *h, const char *path)
{
    (void)path;
    return unavailable(h, "measure free space");
}

const struct hostside_ops hostside_none_ops = {
    .drop_caches = drop_caches,
    .resident = resident,
    .meminfo_text = meminfo_text,
    .diskstats = diskstats,
    .proc_stat = proc_stat,
    .version = version,
    .boot_id = boot_id,
    .free_bytes = free_bytes,
};
