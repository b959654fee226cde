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
 *   buffer_pool       data <= innodb_buffer_pool_size
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

/* The host's memory as the page cache sees it: MemTotal, bytes; -1 if
 * /proc/meminfo cannot be read. */
long long ws_host_memory(void);

#endif
