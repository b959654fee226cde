/* fuzz_versions.c: what host-prepare reads of this machine's packages
 * (experiment/hostprepare.h): `mariadbd --version`'s line, and `sysbench
 * --version`'s against a package version (split at the first newline of
 * the input). */
#include "workloads/hostload.h"
#include "fuzz.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char version[128];
    hostload_mariadbd_version(text, version, sizeof(version));
    char *nl = strchr(text, '\n');
    if (nl) {
        *nl = '\0';
        hostload_same_sysbench(text, nl + 1);
    }
    free(text);
    return 0;
}
