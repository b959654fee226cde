/* workingset.h: where an arm's data fits -- buffer pool, guest page cache,
 * host page cache, or none of them (every miss goes to the device).
 *
 * The question decides what a run can show: data that fits in the buffer
 * pool never reaches the disk, so the disk cache mode, the image format and
 * the host page cache cannot matter. Before a run vbed estimates the data
 * from the table sizes; after prepare it uses the tablespace files' real
 * size. The rule (the smallest cache that holds the data, among the caches
 * on the arm's read path):
 *
 *   buffer_pool       data <= innodb_buffer_pool_size (buffer_pool = auto:
 *                     ws_buffer_pool's estimate before a run, the pool it
 *                     got after)
 *   guest_page_cache  a guest arm whose InnoDB reads go through the guest's
 *                     page cache (flush_method = fsync, or a tmpfs datadir),
 *                     and data <= guest memory - buffer pool - 256 MiB
 *   host_page_cache   a guest arm whose disk uses the host page cache
 *                     (disk_cache writeback, writethrough, unsafe), or a
 *                     host arm with flush_method = fsync; data <= the host
 *                     memory available to it (a host arm with host_match =
 *                     guest: its cgroup's memory - buffer pool)
 *   none              otherwise: misses are read from the device
 *
 * "data" is what each cache holds: the tablespace files (for row-zlib the
 * compressed pages, which is also what the buffer pool must hold to avoid
 * reads). Pure functions; any thread. */
#ifndef VBED_WORKINGSET_H
#define VBED_WORKINGSET_H

#include "scenario/keys.h"

#include <stdbool.h>
#include <stddef.h>

enum ws_fit { WS_BUFFER_POOL, WS_GUEST_PAGE_CACHE, WS_HOST_PAGE_CACHE, WS_NONE };

/* Bytes a guest's OS and MariaDB need besides the buffer pool. */
#define WS_GUEST_RESERVED (256LL * 1024 * 1024)

/* The buffer pool cfg asks for; with buffer_pool = auto, before a run
 * measures it: memory - WS_GUEST_RESERVED (at least 8 MiB). */
long long ws_buffer_pool(const struct run_config *cfg);

/* buffer_pool = auto (targets/bufferpool.h measures the overhead): the
 * pool a target of `memory` bytes gets when `overhead` bytes of it are
 * resident outside the pool, with sysbench's threads beside it:
 *
 *   sysbench  12 MiB + 1 MiB per thread (sysbench 1.0.20's resident memory,
 *             measured: 12.2 MB with 1 thread, 16.4 MB with 8)
 *   margin    5 % of memory, at least 32 MiB (the redo log's and the
 *             binaries' pages, the pool's own growth)
 *   pool      memory - overhead - sysbench - margin, in whole MiB, at
 *             least 8 MiB */
#define WS_POOL_SYSBENCH_BASE (12LL << 20)
#define WS_POOL_SYSBENCH_PER_THREAD (1LL << 20)
#define WS_POOL_MARGIN_SHARE 0.05
#define WS_POOL_MARGIN_MIN (32LL << 20)
#define WS_POOL_MIN (8LL << 20)
struct ws_pool {
    long long memory, overhead, sysbench, margin, pool;
};
void ws_pool_auto(long long memory, long long overhead, long long threads, struct ws_pool *out);

/* The data's estimated size on disk: rows x 336 bytes (measured for
 * sysbench's rows), halved for row-zlib at KEY_BLOCK_SIZE <= 8. */
long long ws_estimate_bytes(const struct run_config *cfg);

/* Where data_bytes fit for an arm of kind (enum arm_kind) with cfg;
 * host_memory: the host memory its caches may use (bytes). */
enum ws_fit ws_classify(const struct run_config *cfg, int kind, long long data_bytes,
                        long long host_memory);

/* "buffer_pool", "guest_page_cache", "host_page_cache", "none" */
const char *ws_fit_name(enum ws_fit f);

/* One sentence for a person: where the data fits and what follows, e.g.
 * "data 24.4 MiB (estimate) > buffer pool 16.0 MiB: fits in the guest page
 * cache (1.0 GiB guest)". */
void ws_describe(const struct run_config *cfg, int kind, long long data_bytes, bool estimate,
                 long long host_memory, char *buf, size_t len);
/* The same for an arm whose buffer pool is buffer_pool = auto's (cfg's is
 * the pool it got, or -1 before the run measured it): fitting is what such
 * an arm is about, and its sentence says so. */
void ws_describe_pool(const struct run_config *cfg, int kind, long long data_bytes, bool estimate,
                      long long host_memory, bool pool_auto, char *buf, size_t len);

/* The host's memory as the page cache sees it: MemTotal, bytes; -1 if
 * /proc/meminfo cannot be read. */
long long ws_host_memory(void);

#endif
