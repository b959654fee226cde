/* hostcache.h: the host's page cache: drop it, and measure how much of a
 * file it holds (mmap + mincore, as util-linux's fincore does). */
#ifndef VBED_HOSTCACHE_H
#define VBED_HOSTCACHE_H

/* sync, then drop page cache, dentries and inodes (echo 3 >
 * /proc/sys/vm/drop_caches). -1 reported (needs root). */
int hostcache_drop(void);
/* Bytes of path resident in the page cache; -1 reported. path must be a
 * regular file, opened without following a symbolic link and without
 * blocking: a FIFO or a link put in its place is refused, not waited on
 * nor measured in another file's stead. */
long long hostcache_resident(const char *path);
/* The same for a regular file already open (what names it in messages).
 * Only its data extents are looked at (SEEK_DATA/SEEK_HOLE), each widened
 * to whole HOSTCACHE_ALIGN blocks: the cost follows the data, not the size
 * (a 16 TiB sparse file another user made is a few system calls). Ends
 * with -1 and errno EINTR, unreported, when vbed is interrupted. */
#define HOSTCACHE_ALIGN (64 * 1024)
long long hostcache_resident_fd(int fd, const char *what);
/* Cached and Dirty from /proc/meminfo, in bytes; -1 reported. */
int hostcache_meminfo(long long *cached, long long *dirty);

#endif
