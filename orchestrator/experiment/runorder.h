/* runorder.h: the order of the runs within a repeat.
 *
 * order = shuffle runs a repeat's runs in a seeded random order, a new one
 * per repeat, so that the machine's drift over an experiment (a neighbour
 * getting busy, a page cache filling up) does not land on one arm; the seed
 * goes to meta.json so that the order can be repeated (order_seed). The
 * permutation is Fisher-Yates driven by erand48 on (seed, repeat): the same
 * on every glibc. Pure; any thread. */
#ifndef VBED_RUNORDER_H
#define VBED_RUNORDER_H

#include <stddef.h>

/* out[0..n-1]: a permutation of 0..n-1 for this seed and repeat (1-based).
 * shuffle 0: 0, 1, ..., n-1. */
void runorder_permute(size_t n, int shuffle, unsigned long seed, long long repeat, size_t *out);

/* A seed from the clock, for order_seed = auto. */
unsigned long runorder_seed_from_clock(void);

#endif
