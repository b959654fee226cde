/* readmeta.h: meta.json of a results directory into its struct
 * results_data (see resultsread.h for what is checked). Internal to
 * results/: readdir.c calls it. */
#ifndef VBED_RESULTS_READMETA_H
#define VBED_RESULTS_READMETA_H

struct results_data;

/* Read rd->dir/meta.json into rd: the scenario, status and accel, the run
 * order, the context (every scalar outside the plan), variants, arms, runs
 * and the libvirt URIs it names. -1 (reported, naming the file, the field
 * and the value) if it cannot be read, is larger than RESULTS_META_MAX or a
 * value fails its check: the directory is refused. */
int results_load_meta(struct results_data *rd);

#endif
