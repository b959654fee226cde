/* steadyrule.h: whether a measure phase's TPS was steady, from its drift
 * and the drift's 95 % half-width (verdicts.h's rule). One place for it:
 * vbed run labels the drift's sample by it, warmup = auto stops on it, and
 * the results reader re-derives the label from the two numbers in
 * samples.jsonl instead of trusting the label written next to them. */
#ifndef VBED_RESULTS_STEADYRULE_H
#define VBED_RESULTS_STEADYRULE_H

#include <stdbool.h>

/* "no" where the drift lies beyond its CI and VERDICT_DRIFT_FLOOR, "yes"
 * only where the CI lies within +-VERDICT_STEADY_EQUIV, else "unshown".
 * half NAN: a phase too short for batches, judged by VERDICT_DRIFT_LIMIT
 * alone and never shown steady. */
const char *steady_label(double drift, double half);
/* The label's "yes": shown steady. */
bool steady_shown(double drift, double half);

#endif
