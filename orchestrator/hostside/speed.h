/* speed.h: how fast this machine's CPU ran while a phase was measured.
 *
 * These machines are shared VMs whose speed changes by the minute (another
 * tenant on the same physical core, its clock): a fixed zlib job took
 * 0.255 to 0.344 s of its own CPU time, two seconds apart, on an idle
 * machine here. Steal time and other processes' CPU (noise.h) cannot see
 * it: nothing else ran. Two runs compared on such a machine differ by that
 * much before their configurations differ at all.
 *
 * The probe: a thread that, every period, compresses the same 256 KiB
 * (zlib, level 6: branchy, memory-bound work like an emulated guest's and
 * InnoDB's compression) and times it by its own CPU clock -- waiting for a
 * CPU does not count, a slower CPU does. Its figure is the median over the
 * phase: the CPU seconds of one unit (smaller is faster); 16-20 ms per
 * period of 1 s here, 2 % of one CPU. It measures the machine vbed runs on
 * only.
 *
 * Beside it, each period, a memory unit: SPEED_CHASE_LOADS dependent loads
 * through a 64 MiB table (each load's address is the value the one before
 * read), timed the same way -- what a cache miss costs, which a database
 * that lives in memory, and an emulated guest, feel and a zlib job on 256
 * KiB hardly does. Beside a host arm's mariadbd here (240 s in 10 s bins,
 * 162-237 TPS) log TPS followed it with r = -0.85 (slope -2.1), the zlib
 * unit with r = -0.71 (slope -1.05); the two gauges correlated at 0.64.
 * About 18 ms per period here, and 64 MiB while the probe runs. */
#ifndef VBED_SPEED_H
#define VBED_SPEED_H

#include <stddef.h>

struct speed_probe;

/* dependent loads in a memory unit */
#define SPEED_CHASE_LOADS 100000

/* CPU seconds of one unit, timed in the calling thread; NAN on failure */
double speed_unit_s(void);

/* CPU seconds of one memory unit (its table built first, not timed); NAN
 * on failure */
double speed_memory_unit_s(void);

/* Starts the probe thread: a unit every period_s seconds. NULL if it cannot
 * (the phase goes on without it). */
struct speed_probe *speed_start(double period_s);

/* Stops it; the median CPU seconds of a unit over the phase (NAN without a
 * unit), and in *n how many units ran; in *mem_s (unless NULL) the median
 * of the memory unit, NAN unless it ran with every unit. p may be NULL. */
double speed_stop(struct speed_probe *p, size_t *n, double *mem_s);

#endif
