/* fuzz_workloads.c: the output of every registered workload's program (the
 * text a guest or a remote host sends back) through its parse op
 * (workloads/workload.h): a workload added later is fuzzed without a
 * target of its own. Seeds: real outputs of each, in tests/fuzz/workloads/. */
#include "fuzz.h"
#include "workloads/workload.h"

#include <math.h>

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    for (size_t i = 0; i < workload_count(); i++) {
        double figure = NAN;
        char err[256];
        if (workload_at(i)->parse(text, &figure, err, sizeof(err)) == 0 && !isfinite(figure))
            abort(); /* an accepted output has a finite figure */
    }
    free(text);
    return 0;
}
