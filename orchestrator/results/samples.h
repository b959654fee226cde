/* samples.h: samples.jsonl, one measured figure per line (the format is in
 * results/README.md). A run's samples are buffered and written, flushed
 * and synced when the run finishes, so that an interrupted vbed leaves a
 * file whose every line parses.
 *
 * Threads: every function below may be called from any thread (the guests'
 * workers add samples while the runner's thread begins and ends runs); the
 * writer owns one lock that serialises them. samples_open and samples_close
 * are not: open before the threads start, close after they are joined. */
#ifndef VBED_SAMPLES_H
#define VBED_SAMPLES_H

#include <json-c/json.h>

struct samples;

struct samples *samples_open(const char *results_dir);
void samples_close(struct samples *s);

/* Labels every sample of the run carries (copied). */
void samples_begin_run(struct samples *s, json_object *labels);
/* The host (label "host") of guest n's samples in the current run; guest 0:
 * the run's own samples. Set after samples_begin_run (which forgets them). */
void samples_set_host(struct samples *s, int guest, const char *host);
/* One sample. guest: 1..n, 0 for the host arm or the whole run. source:
 * the raw log (absolute or relative to the results dir), may be NULL.
 * extra: more labels (consumed), may be NULL. timestamp 0: now. */
void samples_add(struct samples *s, const char *metric, double value, const char *unit, int guest,
                 const char *source, double timestamp, json_object *extra);
/* Write the run's samples; -1 reported. */
int samples_end_run(struct samples *s);
/* Drop the run's buffered samples (a failed run still writes what it measured:
 * call samples_end_run; this is for nothing measured at all). */
void samples_discard_run(struct samples *s);
/* Drop the run's buffered samples and go on with the same run: its labels
 * and hosts stay (a run repeated after its guests' disk stalled). */
void samples_restart_run(struct samples *s);

#endif
