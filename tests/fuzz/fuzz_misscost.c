/* fuzz_misscost.c: the miss-cost probe's reply (workloads/misscost.h), as
 * the agent's mariadb client or a remote helper gives it: hostile rows of
 * tab-separated cells. An accepted reply is four non-negative finite
 * figures, and the cost it gives is finite or n/a. */
#include "fuzz.h"
#include "workloads/misscost.h"

#include <math.h>

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct sql_result r;
    fuzz_rows(text, &r);
    struct misscost m;
    char err[160];
    if (misscost_parse(&r, &m, err, sizeof(err)) == 0) {
        if (!(m.hot_s >= 0 && m.cold_s >= 0 && m.hot_reads >= 0 && m.cold_reads >= 0) ||
            !isfinite(m.hot_s + m.cold_s + m.hot_reads + m.cold_reads))
            abort();
        double c = misscost_per_miss(&m);
        if (!isnan(c) && !isfinite(c))
            abort();
    } else if (!*err) {
        abort(); /* refused without a reason */
    }
    sql_result_free(&r);
    free(text);
    return 0;
}
