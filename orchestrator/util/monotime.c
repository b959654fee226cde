/* monotime.c: seconds on the monotonic clock (see monotime.h). */
#include "util/monotime.h"

#include <time.h>

double monotime_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
