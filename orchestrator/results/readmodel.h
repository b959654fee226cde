/* readmodel.h: what the model of a results directory (resultsread.c) lends
 * the files that fill it (readdir.c, readmeta.c, readsamples.c). Internal
 * to results/. (This header includes no resultsread.h: resultsread.c
 * includes this one.) */
#ifndef VBED_RESULTS_READMODEL_H
#define VBED_RESULTS_READMODEL_H

struct results_data;
struct results_sample;

/* Free what s holds (not s itself). */
void results_sample_free(struct results_sample *s);

/* Add an arm (name and kind copied) unless rd has one of that name. */
void results_add_arm(struct results_data *rd, const char *name, const char *kind);

#endif
