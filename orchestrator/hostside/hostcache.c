/* hostcache.c: page-cache control and residency (see hostcache.h). */
#include "hostside/hostcache.h"

#include "util/procfs.h"
#include "util/textfile.h"

#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int hostcache_drop(void)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "3\n", 2) != 2) {
        log_error("Cannot drop the host's page cache (/proc/sys/vm/drop_caches): %s; run vbed as "
                  "root or set drop_caches = no.",
                  strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

long long hostcache_resident(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        log_error("Cannot open '%s' to measure its page-cache residency: %s", path,
                  errno == ELOOP ? "it is a symbolic link (not followed)" : strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        log_error("Cannot measure the page-cache residency of '%s': it is not a regular file.", path);
        close(fd);
        return -1;
    }
    long long total = hostcache_resident_fd(fd, path);
    close(fd);
    return total;
}

long long hostcache_resident_fd(int fd, const char *what)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        log_error("Cannot measure the page-cache residency of '%s': it is not a regular file.", what);
        return -1;
    }
    if (st.st_size == 0)
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    long long total = 0;
    /* in windows of 1 GiB: mapping a large disk image at once is not needed */
    const off_t window = 1LL << 30;
    for (off_t off = 0; off < st.st_size; off += window) {
        size_t len = (size_t)(st.st_size - off < window ? st.st_size - off : window);
        void *map = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, off);
        if (map == MAP_FAILED) {
            log_error("Cannot map '%s': %s", what, strerror(errno));
            return -1;
        }
        size_t pages = (len + (size_t)page - 1) / (size_t)page;
        unsigned char *vec = malloc(pages);
        if (!vec || mincore(map, len, vec) < 0) {
            log_error("mincore on '%s' failed: %s", what, strerror(errno));
            free(vec);
            munmap(map, len);
            return -1;
        }
        for (size_t i = 0; i < pages; i++)
            if (vec[i] & 1)
                total += page;
        free(vec);
        munmap(map, len);
    }
    return total;
}

int hostcache_meminfo(long long *cached, long long *dirty)
{
    char *text = textfile_read("/proc/meminfo");
    if (!text) {
        log_error("Cannot read /proc/meminfo: %s", strerror(errno));
        return -1;
    }
    double c, d;
    int rc = procfs_parse_meminfo(text, "Cached", &c) == 0 && procfs_parse_meminfo(text, "Dirty", &d) == 0
                 ? 0
                 : -1;
    free(text);
    if (rc == 0)
        *cached = (long long)c, *dirty = (long long)d;
    return rc;
}
