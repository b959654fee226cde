/* fuzz_fio.c: fio's output (its JSON report, with whatever text a
 * program in a guest may print around it) through fio_parse
 * (workloads/fio.c). */
#include "fuzz.h"
#include "workloads/fio.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct fio_result r;
    char err[256];
    fio_parse(text, &r, err, sizeof(err));
    free(text);
    return 0;
}
