/* workloads/archive.c: the fixed tar_extract archive (see archive.h). */
#include "image/archive.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t file_size(unsigned k)
{
    return ((size_t)1 << (12 + k % 7)) + (size_t)(k * 37u % 4096u);
}

long long archive_content_bytes(void)
{
    long long sum = 0;
    for (unsigned k = 0; k < ARCHIVE_FILES; k++)
        sum += (long long)file_size(k);
    return sum;
}

static void fill(unsigned char *buf, size_t len, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < len; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t n = len - i < 8 ? len - i : 8;
        memcpy(buf + i, &x, n);
    }
}

static int add_entry(struct archive *a, const char *name, int type, const void *data, size_t len)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, (unsigned)type);
    archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
    archive_entry_set_size(e, (la_int64_t)len);
    archive_entry_set_uid(e, 0);
    archive_entry_set_gid(e, 0);
    archive_entry_set_mtime(e, 0, 0);
    int rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : -1;
    if (rc == 0 && len && archive_write_data(a, data, len) != (la_ssize_t)len)
        rc = -1;
    archive_entry_free(e);
    return rc;
}

int archive_write_fixed(const char *path, long long *bytes)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        log_error("Cannot write the tar_extract archive '%s': %s", path,
                  errno == ELOOP ? "it is a symbolic link (not followed)" : strerror(errno));
        return -1;
    }
    int rc = archive_write_fixed_fd(fd, path, bytes);
    if (close(fd) < 0 && rc == 0) {
        log_error("Cannot write the tar_extract archive '%s': %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

int archive_write_fixed_fd(int fd, const char *path, long long *bytes)
{
    struct archive *a = archive_write_new();
    unsigned char *buf = xcalloc(1, file_size(6) + 4096);
    int rc = -1;
    if (archive_write_set_format_ustar(a) != ARCHIVE_OK || archive_write_open_fd(a, fd) != ARCHIVE_OK)
        goto cleanup;
    if (add_entry(a, "vbed-tree/", AE_IFDIR, NULL, 0) < 0)
        goto cleanup;
    for (unsigned d = 0; d < ARCHIVE_DIRS; d++) {
        char name[64];
        snprintf(name, sizeof(name), "vbed-tree/d%02u/", d);
        if (add_entry(a, name, AE_IFDIR, NULL, 0) < 0)
            goto cleanup;
        for (unsigned k = d; k < ARCHIVE_FILES; k += ARCHIVE_DIRS) {
            size_t len = file_size(k);
            fill(buf, len, k);
            snprintf(name, sizeof(name), "vbed-tree/d%02u/f%04u", d, k);
            if (add_entry(a, name, AE_IFREG, buf, len) < 0)
                goto cleanup;
        }
    }
    if (archive_write_close(a) != ARCHIVE_OK)
        goto cleanup;
    struct stat st;
    if (fstat(fd, &st) < 0)
        goto cleanup;
    *bytes = (long long)st.st_size;
    rc = 0;
cleanup:
    if (rc < 0)
        log_error("Cannot write the tar_extract archive '%s': %s", path,
                  archive_error_string(a) ? archive_error_string(a) : "write failed");
    archive_write_free(a);
    free(buf);
    return rc;
}
