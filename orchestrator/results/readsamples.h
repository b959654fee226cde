/* readsamples.h: samples.jsonl of a results directory into its struct
 * results_data (see resultsread.h for what is checked). Internal to
 * results/: readdir.c calls it. */
#ifndef VBED_RESULTS_READSAMPLES_H
#define VBED_RESULTS_READSAMPLES_H

struct results_data;

/* Read rd->dir/samples.jsonl into rd->samples: a line that fails its
 * checks is reported as FILE:LINE and skipped (rd->bad_lines), a missing
 * file is a warning. -1 (reported) if the file cannot be read or a line
 * names an arm that is no arm name (the directory is refused). */
int results_load_samples(struct results_data *rd);

#endif
