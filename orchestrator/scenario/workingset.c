/* workingset.c: where an arm's data fits (see workingset.h). */
#include "scenario/workingset.h"

#include "util/procfs.h"
#include "util/textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sysbench's row (id INT, k INT, c CHAR(120), pad CHAR(60)) with InnoDB's
 * record overhead, the index on k and page fill, as measured: 100,000 rows
 * take 33,558,528 bytes uncompressed, 16,781,312 as row-zlib KEY_BLOCK_SIZE=8
 * (MariaDB 10.11). */
#define WS_BYTES_PER_ROW 336LL

long long ws_buffer_pool(const struct run_config *cfg)
{
    if (cfg->buffer_pool >= 0)
        return cfg->buffer_pool;
    long long pool = cfg->memory - WS_GUEST_RESERVED;
    return pool < (8LL << 20) ? 8LL << 20 : pool;
}

void ws_pool_auto(long long memory, long long overhead, long long threads, struct ws_pool *out)
{
    out->memory = memory;
    out->overhead = overhead;
    out->sysbench = WS_POOL_SYSBENCH_BASE + threads * WS_POOL_SYSBENCH_PER_THREAD;
    long long margin = (long long)(WS_POOL_MARGIN_SHARE * (double)memory);
    out->margin = margin < WS_POOL_MARGIN_MIN ? WS_POOL_MARGIN_MIN : margin;
    long long pool = (memory - overhead - out->sysbench - out->margin) & ~((1LL << 20) - 1);
    out->pool = pool < WS_POOL_MIN ? WS_POOL_MIN : pool;
}

long long ws_estimate_bytes(const struct run_config *cfg)
{
    long long bytes = cfg->tables * cfg->table_size * WS_BYTES_PER_ROW;
    if (cfg->compression == COMP_ROW_ZLIB && run_config_key_block_size(cfg) <= 8)
        bytes /= 2; /* measured: ratio 2.00 at KEY_BLOCK_SIZE=8 on sysbench's rows */
    return bytes;
}

static bool reads_via_guest_cache(const struct run_config *cfg)
{
    return cfg->filesystem == FS_TMPFS || cfg->flush_method == FLUSH_FSYNC;
}

static bool guest_disk_via_host_cache(const struct run_config *cfg)
{
    return cfg->disk_cache == CACHE_WRITEBACK || cfg->disk_cache == CACHE_WRITETHROUGH ||
           cfg->disk_cache == CACHE_UNSAFE;
}

/* the page cache a host arm's mariadbd may fill */
static long long host_arm_cache(const struct run_config *cfg, long long host_memory)
{
    long long limit = cfg->host_match == HOST_MATCH_GUEST ? cfg->memory : host_memory;
    return limit - ws_buffer_pool(cfg) - WS_GUEST_RESERVED / 4;
}

/* the host page cache guests' disks may fill: what their memory leaves */
static long long host_cache_for_guests(const struct run_config *cfg, long long host_memory)
{
    return host_memory - cfg->guests * cfg->memory - WS_GUEST_RESERVED;
}

enum ws_fit ws_classify(const struct run_config *cfg, int kind, long long data_bytes,
                        long long host_memory)
{
    if (data_bytes <= ws_buffer_pool(cfg))
        return WS_BUFFER_POOL;
    if (kind == ARM_HOST) {
        if (cfg->flush_method == FLUSH_FSYNC && data_bytes <= host_arm_cache(cfg, host_memory))
            return WS_HOST_PAGE_CACHE;
        return WS_NONE;
    }
    if (reads_via_guest_cache(cfg) &&
        data_bytes <= cfg->memory - ws_buffer_pool(cfg) - WS_GUEST_RESERVED)
        return WS_GUEST_PAGE_CACHE;
    if (cfg->filesystem != FS_TMPFS && guest_disk_via_host_cache(cfg) &&
        data_bytes <= host_cache_for_guests(cfg, host_memory))
        return WS_HOST_PAGE_CACHE;
    return WS_NONE;
}

const char *ws_fit_name(enum ws_fit f)
{
    static const char *const names[] = {"buffer_pool", "guest_page_cache", "host_page_cache",
                                        "none"};
    return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "none";
}

/* 25165824 -> "24.0 MiB" */
static void human(long long bytes, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    size_t u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

void ws_describe(const struct run_config *cfg, int kind, long long data_bytes, bool estimate,
                 long long host_memory, char *buf, size_t len)
{
    ws_describe_pool(cfg, kind, data_bytes, estimate, host_memory, cfg->buffer_pool < 0, buf, len);
}

void ws_describe_pool(const struct run_config *cfg, int kind, long long data_bytes, bool estimate,
                      long long host_memory, bool pool_auto, char *buf, size_t len)
{
    char data[32], bp[32], mem[32];
    human(data_bytes, data, sizeof(data));
    human(ws_buffer_pool(cfg), bp, sizeof(bp));
    human(kind == ARM_HOST && cfg->host_match == HOST_MATCH_NONE ? host_memory : cfg->memory, mem,
          sizeof(mem));
    const char *basis = estimate ? "estimated" : "pages in use";
    switch (ws_classify(cfg, kind, data_bytes, host_memory)) {
    case WS_BUFFER_POOL:
        if (pool_auto)
            snprintf(buf, len,
                     "data %s (%s) fits in its buffer pool (%s, buffer_pool = auto: the memory "
                     "given to InnoDB): reads stop reaching the disk, which is what this arm shows",
                     data, basis, bp);
        else
            snprintf(buf, len,
                     "data %s (%s) fits in the buffer pool (%s): reads never reach the disk, so the "
                     "disk cache mode, the image format and the host page cache cannot matter here",
                     data, basis, bp);
        break;
    case WS_GUEST_PAGE_CACHE:
        snprintf(buf, len,
                 "data %s (%s) exceeds the buffer pool (%s) and fits in the guest page cache (%s "
                 "guest): buffer-pool misses are served by the guest's kernel",
                 data, basis, bp, mem);
        break;
    case WS_HOST_PAGE_CACHE:
        snprintf(buf, len,
                 "data %s (%s) exceeds the buffer pool (%s) and fits in the host page cache: "
                 "buffer-pool misses are served from host memory",
                 data, basis, bp);
        break;
    case WS_NONE:
        snprintf(buf, len,
                 "data %s (%s) exceeds the buffer pool (%s) and no page cache on its path holds "
                 "it: buffer-pool misses are read from the device",
                 data, basis, bp);
        break;
    }
}

long long ws_host_memory(void)
{
    char *text = textfile_read("/proc/meminfo");
    double bytes;
    int rc = text ? procfs_parse_meminfo(text, "MemTotal", &bytes) : -1;
    free(text);
    return rc < 0 ? -1 : (long long)bytes;
}
