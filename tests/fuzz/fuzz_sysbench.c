/* fuzz_sysbench.c: sysbench's output (interval lines and the final
 * report) through sysbench_parse (workload.c), and its intervals on into
 * the warm-up's steady rule (steady.h) as two slices, as warmup = auto
 * feeds them. The output comes from a program in a guest: any text is
 * possible. */
#include "fuzz.h"
#include "workloads/steady.h"
#include "workloads/sysbench.h"

#include <math.h>

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct sysbench_report r;
    char err[256];
    memset(&r, 0, sizeof(r));
    sysbench_parse(text, &r, err, sizeof(err));
    if (r.n_intervals > 0) {
        struct steady_tracker st;
        steady_init(&st, 1, 10, 1e9);
        size_t half = r.n_intervals / 2, rest = r.n_intervals - half;
        const struct sysbench_interval *a = r.intervals, *b = r.intervals + half;
        steady_round(&st, &a, &half);
        steady_round(&st, &b, &rest);
        if (st.t[0].steady_now && !(fabs(st.t[0].drift) <= 0.05))
            __builtin_trap(); /* steady with a drift beyond the margin */
        steady_free(&st);
    }
    sysbench_report_free(&r);
    free(text);
    return 0;
}
