/* verdicts.h: the limits by which vbed calls a measurement trustworthy.
 *
 * One place for the rules that both `vbed run` (warnings while it runs,
 * marks in the samples) and `vbed report` (notes and flags) apply, so the
 * two never disagree. Each limit is stated in the report next to the figure
 * it judges. */
#ifndef VBED_VERDICTS_H
#define VBED_VERDICTS_H

/* steady state: a measure phase's drift of interval TPS (window_drift: the
 * least-squares line's change from first to last interval / mean TPS) is
 * judged against its own 95 % confidence interval (window_drift_ci, from
 * batch means): steady unless |drift| lies beyond it AND beyond
 * VERDICT_DRIFT_FLOOR (a drift that small is never worth a flag). Results
 * written before that rule carry a label set by VERDICT_DRIFT_LIMIT. */
#define VERDICT_DRIFT_FLOOR 0.05
#define VERDICT_DRIFT_LIMIT 0.1
/* ... and steady only where it is shown: the drift's 95 % CI lies within
 * +-VERDICT_STEADY_EQUIV (|drift| + its half-width, an equivalence test).
 * A drift neither beyond its CI nor shown within the margin is "not shown
 * steady" (label steady = unshown): a CI of +-50 % rejects no drift and
 * proves no steadiness. */
#define VERDICT_STEADY_EQUIV 0.05

/* warmup = auto: slices of this length; steady when shown steady over the
 * last two slices by the rule above (VERDICT_STEADY_EQUIV; steady.h) */
#define VERDICT_SLICE_S 10

/* noise during a measure phase, in percent of the host's CPU capacity
 * (all online CPUs x window): steal time, and CPU of processes that are
 * not part of the run */
#define VERDICT_HOST_STEAL_PCT 5.0
#define VERDICT_HOST_OTHER_CPU_PCT 10.0
/* steal inside a guest, percent of its vCPUs' capacity */
#define VERDICT_GUEST_STEAL_PCT 5.0
/* this machine's CPU speed (hostside/speed.h): the report says how far it
 * moved when its slowest and fastest runs lie further apart than this
 * (indices against the median) */
#define VERDICT_SPEED_SPREAD 0.05
/* consolidation efficiency (TPS of N guests / N x TPS of one alone): above
 * this, N guests did more than N times one's work, which sharing a host
 * cannot do: the report says the runs measured the machine's speed too */
#define VERDICT_EFFICIENCY_ABOVE 1.05

#endif
