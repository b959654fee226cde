/* pscost.h: what performance_schema's instruments cost, measured in the
 * running server of each target at the same moment (scenario key
 * ps_cost = the length of a slice), once the measure phase and its probes
 * are over.
 *
 * TPS of two runs, one with performance_schema and one without, cannot
 * resolve a cost of a few percent here: under emulation a guest's speed
 * moves by a third between runs (scenarios/ps-cost.ini's four pairs of
 * runs gave the guests 0.93 +- 0.28). So the comparison is made inside one
 * server: sysbench runs on in PSCOST_PAIRS pairs of slices of ps_cost
 * seconds, one slice with the instruments performance_schema = yes turns on
 * (scenario/mycnf.h's mycnf_ps_instruments) switched off in
 * setup_instruments (ENABLED and TIMED 'NO'), the other with them on again,
 * the order alternating pair by pair (off-on, on-off, ...) so that a drift
 * over the probe cancels. Every target of the run does the same at once.
 *
 * What it measures is the instruments' cost: a server started with
 * performance_schema = OFF also skips the instrumentation's hooks, which
 * switched-off instruments still pass through (a check each); that rest
 * only the two runs of ps-cost.ini compare.
 *
 * Samples ps_on_tps and ps_off_tps (tx/s of one slice), ps_on_off_ratio
 * (their ratio), and ps_on_statements and ps_off_statements (the statements
 * performance_schema counted over each slice: the proof that the switch
 * took), labelled pair 1..PSCOST_PAIRS. The instruments are on again at the end,
 * whatever happened. A probe that fails is said and records nothing of
 * that pair on: it never fails the run. */
#ifndef VBED_WORKLOADS_PSCOST_H
#define VBED_WORKLOADS_PSCOST_H

#include <stdbool.h>

struct wl_job;

#define PSCOST_PAIRS 4
/* A slice with the instruments off counts no statement of sysbench's: at
 * most the probe's own (its count and switch); a pair whose off slice
 * counted more, or whose on slice no more, is left out (the switch did not
 * take) */
#define PSCOST_OFF_STATEMENTS 10

/* One slice of the workload on j's target for `seconds`, its output in
 * `out`: its TPS into *tps; -1 when it did not run or said nothing (never
 * failing the run). */
typedef int (*pscost_slice_fn)(struct wl_job *j, long long seconds, const char *out, double *tps);

/* The probe on j's target (ps_cost > 0 and performance_schema = yes; else
 * nothing). Always 0. */
int pscost_probe(struct wl_job *j, pscost_slice_fn slice);

/* The statement that turns the instruments on (true) or off: malloc'd. */
char *pscost_statement(bool on);

#endif
