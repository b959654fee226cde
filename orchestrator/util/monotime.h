/* monotime.h: seconds on the monotonic clock, for durations and deadlines
 * (never a date: CLOCK_MONOTONIC starts at an arbitrary point). */
#ifndef VBED_UTIL_MONOTIME_H
#define VBED_UTIL_MONOTIME_H

/* Seconds, with nanoseconds as the fraction. */
double monotime_s(void);

#endif
