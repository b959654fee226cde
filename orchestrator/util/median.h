/* median.h: the median of a few numbers. */
#ifndef VBED_MEDIAN_H
#define VBED_MEDIAN_H

#include <stddef.h>

/* The median of v[0..n-1], sorting v in place; NAN if n is 0. */
double median_sort(double *v, size_t n);

#endif
