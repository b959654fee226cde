/* hostcache.c: page-cache control and residency (see hostcache.h). */
#include "hostside/hostcache.h"

#include "util/procfs.h"
#include "util/textfile.h"

#include "util/log.h"
#include "util/signals.h"

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

/* The resident bytes of [off, off + len) of fd, mapped a window at a time;
 * -1 reported (or on interruption, errno EINTR) */
static long long resident_range(int fd, const char *what, off_t off, off_t len, long page)
{
    long long total = 0;
    /* in windows of 1 GiB: mapping a large disk image at once is not needed */
    const off_t window = 1LL << 30;
    for (off_t end = off + len; off < end; off += window) {
        if (signals_interrupted()) {
            errno = EINTR;
            return -1;
        }
        size_t n = (size_t)(end - off < window ? end - off : window);
        void *map = mmap(NULL, n, PROT_NONE, MAP_SHARED, fd, off);
        if (map == MAP_FAILED) {
            log_error("Cannot map '%s': %s", what, strerror(errno));
            return -1;
        }
        size_t pages = (n + (size_t)page - 1) / (size_t)page;
        unsigned char *vec = malloc(pages);
        if (!vec || mincore(map, n, vec) < 0) {
            log_error("mincore on '%s' failed: %s", what, strerror(errno));
            free(vec);
            munmap(map, n);
            return -1;
        }
        for (size_t i = 0; i < pages; i++)
            if (vec[i] & 1)
                total += page;
        free(vec);
        munmap(map, n);
    }
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
    /* The file's data extents only, each widened to whole HOSTCACHE_ALIGN
     * blocks (a page-compressed InnoDB page is its data, then a hole the
     * server reads as zeros: cached too): a sparse file of terabytes that
     * another user made costs what its data costs, not its size. */
    off_t size = st.st_size, pos = 0;
    long long total = 0;
    for (;;) {
        off_t data = lseek(fd, pos, SEEK_DATA);
        if (data < 0 && errno == ENXIO)
            break; /* no data past pos */
        if (data < 0) { /* no SEEK_DATA here: the whole file */
            return resident_range(fd, what, 0, size, page);
        }
        off_t hole = lseek(fd, data, SEEK_HOLE);
        if (hole < 0)
            hole = size;
        off_t from = data / HOSTCACHE_ALIGN * HOSTCACHE_ALIGN;
        off_t to = (hole + HOSTCACHE_ALIGN - 1) / HOSTCACHE_ALIGN * HOSTCACHE_ALIGN;
        if (from < pos)
            from = pos;
        if (to > size)
            to = size;
        if (to > from) {
            long long r = resident_range(fd, what, from, to - from, page);
            if (r < 0)
                return -1;
            total += r;
        }
        if (to >= size)
            break;
        pos = to;
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
