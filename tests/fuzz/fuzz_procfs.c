/* fuzz_procfs.c: text from /proc (the host's, and a guest's read through
 * its agent: hostile input) through vbed's parsers: /proc/stat and
 * /proc/<pid>/stat (noise.c), /proc/diskstats, /proc/meminfo and fincore's
 * output (layers.c), a thread's schedstat, its stat's start time and
 * delayacct_blkio_ticks, /proc/uptime (the chain probe). The first byte
 * picks the parser. */
#include "fuzz.h"
#include "probes/layers.h"
#include "hostside/noise.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    struct cpu_times ct;
    struct diskstat d;
    double v, w;
    long long a, b;
    switch (data[0] % 8) {
    case 0:
        procfs_parse_stat(text, 100, &ct);
        break;
    case 1:
        procfs_parse_pid_stat(text, 100);
        if (procfs_parse_children_cpu(text, 100) < -1)
            abort();
        break;
    case 2:
        procfs_parse_diskstats(text, "vda", 0, 0, &d);
        procfs_parse_diskstats(text, NULL, 254, 0, &d);
        break;
    case 3:
        procfs_parse_meminfo(text, "Cached", &v);
        procfs_parse_meminfo(text, "Dirty", &v);
        break;
    case 4:
        layers_parse_fincore(text, &v);
        break;
    case 5:
        if (procfs_parse_schedstat(text, &v, &w) == 0 && (v < 0 || w < 0))
            abort();
        break;
    case 6:
        if (procfs_parse_task_stat(text, &a, &b) == 0 && (a < 0 || b < 0))
            abort();
        break;
    default:
        if (procfs_parse_uptime(text, &v) == 0 && !(v >= 0))
            abort();
        break;
    }
    free(text);
    return 0;
}
