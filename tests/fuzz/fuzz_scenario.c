/* fuzz_scenario.c: a scenario's text through the INI reader, the key checks
 * and the plan's expansion into variants and runs (scenario.c, inifile.c,
 * keys.c, units.c, plan.c). */
#include "fuzz.h"
#include "scenario/plan.h"
#include "scenario/scenario.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct diag d = {0};
    struct scenario *s = scenario_parse("fuzz.ini", text, &d);
    if (s) {
        struct plan *p = plan_build(s, &d);
        if (p) {
            char buf[256];
            for (size_t i = 0; i < p->n_specs; i++)
                plan_spec_variants(p, i, buf, sizeof(buf));
        }
        plan_free(p);
    }
    scenario_free(s);
    diag_clear(&d);
    free(text);
    return 0;
}
