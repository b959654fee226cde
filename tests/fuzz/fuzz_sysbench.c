/* fuzz_sysbench.c: sysbench's output (interval lines and the final
 * report) through sysbench_parse (workload.c). The output comes from a
 * program in a guest: any text is possible. */
#include "fuzz.h"
#include "workloads/sysbench.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct sysbench_report r;
    char err[256];
    memset(&r, 0, sizeof(r));
    sysbench_parse(text, &r, err, sizeof(err));
    sysbench_report_free(&r);
    free(text);
    return 0;
}
