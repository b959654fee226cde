/* measure.h: what frames a measure phase besides the workload (see
 * experiment.h): the host page cache's hold on each target's data before
 * and after, and the noise of each host of the run's targets over the
 * phase -- steal time and other processes' CPU (hostside/noise.h) with
 * their warnings. Internal to experiment/; functions take the run's
 * targets, never the experiment. */
#ifndef VBED_EXPERIMENT_MEASURE_H
#define VBED_EXPERIMENT_MEASURE_H

#include "hostside/noise.h"
#include "results/samples.h"
#include "targets/target.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* Target i is the first of the n targets on its host. */
bool measure_first_of_host(const struct target *t, size_t i);
/* extra (or a new object) with label "host" = t's host, when it has one. */
json_object *measure_host_label(const struct target *t, json_object *extra);

/* host_cache_data_bytes of each target (when: "before", "after"), and
 * host_cached_bytes, host_dirty_bytes of each host. */
void measure_residency(struct target *t, size_t n, struct samples *s, const char *when);

/* The noise of each host over the measure phase: its CPU times
 * (/proc/stat, read there) and the CPU of the run's part on it (its
 * targets' servers; vbed and its children where vbed runs), before and
 * after. One per host, indexed by its first target. */
struct host_noise {
    size_t target;        /* the first target on that host */
    bool ok;              /* both readings of /proc/stat */
    struct cpu_times c0, c1;
    double run0, run1;    /* -1 unknown */
};
/* Fill noise (room for n) with the readings before; the count. */
size_t measure_noise_begin(struct target *t, size_t n, struct host_noise *noise);
void measure_noise_end(struct target *t, size_t n, struct host_noise *noise, size_t n_noise);
void measure_noise_samples(const struct target *t, struct samples *s, const struct host_noise *noise,
                           size_t n_noise);

/* The machine's CPU speed over the measure phase (hostside/speed.h): a
 * unit every MEASURE_SPEED_PERIOD_S, on this machine only -- a remote
 * host's is not measured. */
#define MEASURE_SPEED_PERIOD_S 1.0
#define MEASURE_SPEED_MIN_UNITS 3
/* the first target on this machine, n if none */
size_t measure_local_target(const struct target *t, size_t n);
/* host_speed_unit_ms (the median CPU ms of a unit, labelled with t's host
 * and the number of units), when at least MEASURE_SPEED_MIN_UNITS ran; and
 * host_memory_unit_ms (the memory unit's, hostside/speed.h) where mem_s is
 * known */
void measure_speed_sample(const struct target *t, struct samples *s, double unit_s, double mem_s,
                          size_t units);

#endif
