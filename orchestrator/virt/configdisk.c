/* configdisk.c: a tar archive in memory with libarchive (see configdisk.h). */
#include "virt/configdisk.h"
#include "util/xalloc.h"

#include "util/log.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct archive *a, const char *name, const char *text)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_size(e, (la_int64_t)strlen(text));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, 0, 0); /* reproducible */
    int rc = archive_write_header(a, e) == ARCHIVE_OK &&
                     archive_write_data(a, text, strlen(text)) == (la_ssize_t)strlen(text)
                 ? 0
                 : -1;
    archive_entry_free(e);
    return rc;
}

int configdisk_build(const struct run_config *cfg, const char *hostname, const char *mycnf,
                     void **buf, size_t *len)
{
    /* an arm name may hold '_', which no hostname may (the guest's
     * `hostname` refuses it and vbed-setup stops): '-' instead */
    char host[128];
    snprintf(host, sizeof(host), "%s", hostname);
    for (char *p = host; *p; p++)
        if (*p == '_')
            *p = '-';
    char env[1024];
    int n = snprintf(env, sizeof(env), "FILESYSTEM=%s\nHOSTNAME=%s\nTMPFS_SIZE=%lld\n",
                     key_choice("filesystem", cfg->filesystem), host, cfg->memory / 2);
    /* several disks, a layout or raw I/O: vbed-setup's defaults (one disk,
     * single, the datadir on it) otherwise, so a one-disk run's run.env is
     * what it always was */
    if (cfg->data_disks > 1 || cfg->layout != LAYOUT_SINGLE || key_workload_is_io(cfg->workload))
        snprintf(env + n, sizeof(env) - (size_t)n,
                 "DATA_DISKS=%lld\nLAYOUT=%s\nASSUME_CLEAN=%s\nRESYNC_TIMEOUT=%lld\nIO_DIR=%s\n",
                 cfg->data_disks, key_choice("layout", cfg->layout), cfg->assume_clean ? "yes" : "no",
                 cfg->timeout_resync, key_workload_is_io(cfg->workload) ? IO_GUEST_DIR : "");

    /* an archive is a few blocks of 10 KiB; leave ample room */
    size_t cap = 64 * 1024 + strlen(mycnf) * 2;
    void *mem = xcalloc(1, cap);
    size_t used = 0;
    struct archive *a = archive_write_new();
    if (!mem || !a || archive_write_set_format_ustar(a) != ARCHIVE_OK ||
        archive_write_open_memory(a, mem, cap, &used) != ARCHIVE_OK || add(a, "run.env", env) < 0 ||
        add(a, "my.cnf", mycnf) < 0 || archive_write_close(a) != ARCHIVE_OK) {
        log_error("Cannot make the configuration archive for guest '%s': %s", hostname,
                  a ? archive_error_string(a) : "out of memory");
        if (a)
            archive_write_free(a);
        free(mem);
        return -1;
    }
    archive_write_free(a);
    *buf = mem;
    *len = used;
    return 0;
}
