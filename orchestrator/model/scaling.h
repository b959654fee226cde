/* scaling.h: guests as a variant axis (see model.h): report/build.c
 * calls it once the cells are built. */
#ifndef VBED_MODEL_SCALING_H
#define VBED_MODEL_SCALING_H

struct report;

/* r->scaling: per guest arm, the variants that differ only in guests, by
 * guests; and each cell's efficiency against the 1-guest cell of its group. */
void report_build_scaling(struct report *r);

#endif
