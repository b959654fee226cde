/* cpuwindow.c: the CPUs this process may run on (see cpuwindow.h). */
#include "util/cpuwindow.h"

#include <sched.h>
#include <stdio.h>

struct cpuwindow cpuwindow_all(long online)
{
    return (struct cpuwindow){.first = 0, .count = online > 0 ? online : 1, .all = true};
}

struct cpuwindow cpuwindow_of_map(const unsigned char *map, long ncpus, long online)
{
    struct cpuwindow w = cpuwindow_all(online);
    long first = -1, count = 0, set = 0;
    for (long c = 0; c < ncpus; c++) {
        bool on = (map[c / 8] >> (c % 8)) & 1;
        set += on;
        if (on && first < 0)
            first = c;
        if (first >= 0 && count == c - first && on)
            count++;
    }
    if (first < 0)
        return w; /* nothing allowed: not an affinity to honour */
    w.first = first;
    w.count = count;
    w.all = first == 0 && count >= online && set == count;
    if (w.all)
        w.count = online;
    return w;
}

struct cpuwindow cpuwindow_of_self(long online)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    unsigned char map[CPU_SETSIZE / 8] = {0};
    if (sched_getaffinity(0, sizeof(set), &set) < 0)
        return cpuwindow_of_map(map, 0, online);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            map[c / 8] |= (unsigned char)(1u << (c % 8));
    return cpuwindow_of_map(map, CPU_SETSIZE, online);
}

void cpuwindow_text(const struct cpuwindow *w, char *buf, unsigned long len)
{
    if (w->all)
        snprintf(buf, len, "%s", "");
    else if (w->count == 1)
        snprintf(buf, len, "%ld", w->first);
    else
        snprintf(buf, len, "%ld-%ld", w->first, w->first + w->count - 1);
}
