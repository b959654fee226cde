/* cpuwindow.h: the host CPUs this process may run on, as one window.
 *
 * vbed places guests and the host arm on the CPUs it may run on itself:
 * under `taskset -c 2-3 vbed run ...`, or in a container whose cpuset is
 * 2-3, pin = auto pins to CPUs 2 and 3, never to 0 and 1 (which would fail
 * in a cpuset, and fight whoever owns them under taskset). The window is
 * the first CPU of the process's affinity and the CPUs that follow it
 * without a gap; an affinity with gaps gives its first run of CPUs. */
#ifndef VBED_UTIL_CPUWINDOW_H
#define VBED_UTIL_CPUWINDOW_H

#include <stdbool.h>

struct cpuwindow {
    long first; /* the window's first CPU */
    long count; /* CPUs in it (>= 1) */
    bool all;   /* it is every online CPU (no affinity narrower than the host) */
};

/* Every one of the `online` CPUs (a remote host's, or no affinity). */
struct cpuwindow cpuwindow_all(long online);

/* This process's window; on a machine of `online` CPUs. Where the
 * affinity cannot be read: every online CPU. */
struct cpuwindow cpuwindow_of_self(long online);

/* The window of a set of CPUs given as a bitmap of `ncpus` bits, one byte
 * per 8 CPUs (the pure part, tested alone). */
struct cpuwindow cpuwindow_of_map(const unsigned char *map, long ncpus, long online);

/* "2-3", "0", or "" for the whole host, for messages and meta.json (and
 * placement's cpusets: a window with all false) */
void cpuwindow_text(const struct cpuwindow *w, char *buf, unsigned long len);

#endif
