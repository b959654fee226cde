/* local.c: hostside.h's requests for this machine, in-process (see ops.h). */
#include "hostside/ops.h"
#include "hostside/hostside.h"

#include "hostside/hostcache.h"
#include "util/log.h"
#include "util/procfs.h"
#include "util/textfile.h"
#include "util/version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int drop_caches(struct hostside *h)
{
    (void)h;
    return hostcache_drop();
}

static long long resident(struct hostside *h, const char *path)
{
    (void)h;
    return hostcache_resident(path);
}

static int meminfo_text(struct hostside *h, char **text)
{
    (void)h;
    *text = textfile_read("/proc/meminfo");
    if (!*text) {
        log_error("Cannot read /proc/meminfo: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int diskstats(struct hostside *h, const char *path, unsigned *major_, unsigned *minor_,
                     char **text)
{
    (void)h;
    struct stat st;
    if (stat(path, &st) < 0) {
        log_error("Cannot stat '%s': %s", path, strerror(errno));
        return -1;
    }
    *major_ = major(st.st_dev), *minor_ = minor(st.st_dev);
    *text = textfile_read("/proc/diskstats");
    return *text ? 0 : -1;
}

static int proc_stat(struct hostside *h, struct cpu_times *c)
{
    (void)h;
    return procfs_read_stat(c);
}

static int version(struct hostside *h, char *buf, size_t len, bool *drop)
{
    (void)h;
    snprintf(buf, len, "%s", vbed_version());
    if (drop)
        *drop = access("/proc/sys/vm/drop_caches", W_OK) == 0;
    return 0;
}

static int boot_id(struct hostside *h, char *buf, size_t len)
{
    (void)h;
    char *text = textfile_read("/proc/sys/kernel/random/boot_id");
    int rc = -1;
    if (text) {
        text[strcspn(text, "\n")] = '\0';
        rc = text[0] && strlen(text) < len ? 0 : -1;
        if (rc == 0)
            snprintf(buf, len, "%s", text);
    }
    free(text);
    return rc;
}

static long long free_bytes(struct hostside *h, const char *path)
{
    (void)h, (void)path;
    log_error("hostside_free_bytes: for remote hosts only (doctor checks this machine itself).");
    return -1;
}

const struct hostside_ops hostside_local_ops = {
    .drop_caches = drop_caches,
    .resident = resident,
    .meminfo_text = meminfo_text,
    .diskstats = diskstats,
    .proc_stat = proc_stat,
    .version = version,
    .boot_id = boot_id,
    .free_bytes = free_bytes,
};
