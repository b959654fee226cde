/* fuzz_procfs.c: text from /proc (the host's, and a guest's read through
 * its agent: hostile input) through vbed's parsers: /proc/stat and
 * /proc/<pid>/stat (noise.c), /proc/diskstats, /proc/meminfo and fincore's
 * output (layers.c). The first byte picks the parser. */
#include "fuzz.h"
#include "probes/layers.h"
#include "hostside/noise.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    struct cpu_times ct;
    struct diskstat d;
    double v;
    switch (data[0] % 5) {
    case 0:
        procfs_parse_stat(text, 100, &ct);
        break;
    case 1:
        procfs_parse_pid_stat(text, 100);
        break;
    case 2:
        procfs_parse_diskstats(text, "vda", 0, 0, &d);
        procfs_parse_diskstats(text, NULL, 254, 0, &d);
        break;
    case 3:
        procfs_parse_meminfo(text, "Cached", &v);
        procfs_parse_meminfo(text, "Dirty", &v);
        break;
    default:
        layers_parse_fincore(text, &v);
        break;
    }
    free(text);
    return 0;
}
