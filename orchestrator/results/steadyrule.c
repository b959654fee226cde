/* steadyrule.c: the steady-state verdict (see steadyrule.h). */
#include "results/steadyrule.h"
#include "results/verdicts.h"

#include <math.h>

/* the drift not shown beyond its CI (nor beyond the floor) */
static bool not_drifting(double drift, double half)
{
    return isnan(half) ? fabs(drift) <= VERDICT_DRIFT_LIMIT /* too short for batches */
                       : fabs(drift) <= VERDICT_DRIFT_FLOOR || fabs(drift) <= half;
}

bool steady_shown(double drift, double half)
{
    return not_drifting(drift, half) && isfinite(half) && fabs(drift) + half <= VERDICT_STEADY_EQUIV;
}

const char *steady_label(double drift, double half)
{
    if (!not_drifting(drift, half))
        return "no";
    return steady_shown(drift, half) ? "yes" : "unshown";
}
