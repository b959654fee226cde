/* noise.c: steal time and other processes' CPU over a phase (see noise.h). */
#include "hostside/noise.h"

#include "util/log.h"
#include "util/textfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static double tv(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static double rusage_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return tv(ru.ru_utime) + tv(ru.ru_stime);
}

double noise_cpu_self_s(void) { return rusage_s(RUSAGE_SELF); }
double noise_cpu_children_s(void) { return rusage_s(RUSAGE_CHILDREN); }
double noise_self_cpu_s(void) { return noise_cpu_self_s() + noise_cpu_children_s(); }

double noise_steal_pct(const struct cpu_times *a, const struct cpu_times *b)
{
    double total = b->total_s - a->total_s;
    if (total <= 0)
        return NAN;
    return 100.0 * (b->steal_s - a->steal_s) / total;
}

double noise_other_cpu_pct(const struct cpu_times *a, const struct cpu_times *b, double run_cpu_s)
{
    double total = b->total_s - a->total_s;
    if (total <= 0)
        return NAN;
    double other = (b->busy_s - a->busy_s) - run_cpu_s;
    return other > 0 ? 100.0 * other / total : 0;
}
