/* noise.h: how busy the machine was while a phase was measured.
 *
 * These machines are often shared VMs: another tenant's load shows up as
 * steal time (CPU the hypervisor gave to someone else), another process's
 * as CPU that no part of the run used. Snapshots of /proc/stat (the host's,
 * and each guest's read through its agent) before and after the measure
 * phase give, over the window:
 *
 *   steal %      d(steal) / d(all CPU time) x 100 (all CPUs' capacity)
 *   other CPU %  (d(busy) - CPU of the run's processes) / d(all) x 100,
 *                busy = user + nice + system + irq + softirq (guest time is
 *                inside user); the run's processes are the guests' QEMU,
 *                the host arm's mariadbd and sysbench, and vbed itself
 *
 * Limits are in verdicts.h. Parsers take text so that they can be fuzzed;
 * any thread. */
#ifndef VBED_NOISE_H
#define VBED_NOISE_H

#include "util/procfs.h"

#include <stdbool.h>
#include <sys/types.h>

/* vbed's own CPU and its waited-for children's, seconds; each alone. */
double noise_self_cpu_s(void);
double noise_cpu_self_s(void);
double noise_cpu_children_s(void);

/* steal % over [a, b]; NAN if no time passed */
double noise_steal_pct(const struct cpu_times *a, const struct cpu_times *b);
/* other CPU % over [a, b], given the run's CPU seconds in it; not below 0;
 * NAN if no time passed */
double noise_other_cpu_pct(const struct cpu_times *a, const struct cpu_times *b, double run_cpu_s);

#endif
