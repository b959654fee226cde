/* hostcache.h: the host's page cache: drop it, and measure how much of a
 * file it holds (mmap + mincore, as util-linux's fincore does). */
#ifndef VBED_HOSTCACHE_H
#define VBED_HOSTCACHE_H

/* sync, then drop page cache, dentries and inodes (echo 3 >
 * /proc/sys/vm/drop_caches). -1 reported (needs root). */
int hostcache_drop(void);
/* Bytes of path resident in the page cache; -1 reported. */
long long hostcache_resident(const char *path);
/* Cached and Dirty from /proc/meminfo, in bytes; -1 reported. */
int hostcache_meminfo(long long *cached, long long *dirty);

#endif
