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
/* The same for a regular file already open (what names it in messages). */
long long hostcache_resident_fd(int fd, const char *what);
/* Cached and Dirty from /proc/meminfo, in bytes; -1 reported. */
int hostcache_meminfo(long long *cached, long long *dirty);

#endif
