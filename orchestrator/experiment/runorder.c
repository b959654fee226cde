/* runorder.c: the order of the runs within a repeat (see runorder.h). */
#include "experiment/runorder.h"

#include <stdlib.h>
#include <time.h>

void runorder_permute(size_t n, int shuffle, unsigned long seed, long long repeat, size_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = i;
    if (!shuffle || n < 2)
        return;
    unsigned long long mix = (unsigned long long)seed * 1000003ULL + (unsigned long long)repeat;
    unsigned short xsubi[3] = {(unsigned short)(mix & 0xffff), (unsigned short)((mix >> 16) & 0xffff),
                               (unsigned short)((mix >> 32) & 0xffff)};
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(erand48(xsubi) * (double)(i + 1));
        if (j > i)
            j = i;
        size_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

unsigned long runorder_seed_from_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned long)((ts.tv_sec ^ ts.tv_nsec) & 0x7fffffff);
}
