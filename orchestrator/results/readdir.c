/* readdir.c: results_read() and results_read_meta(): a results directory
 * read into a new struct results_data (resultsread.h) -- meta.json
 * (readmeta.c), then samples.jsonl (readsamples.c) and the scenario.ini
 * copy; the arms only the samples name join meta.json's, and a meta.json
 * without accel takes the samples'. The caller frees the result with
 * results_data_free(). */
#include "results/readmeta.h"
#include "results/readmodel.h"
#include "results/readsamples.h"
#include "results/resultsread.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *read_text(const char *dir, const char *name)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        fwrite(chunk, 1, n, mem);
    fclose(mem);
    fclose(f);
    return buf;
}

static struct results_data *read_dir(const char *dir, bool samples)
{
    struct stat st;
    if (stat(dir, &st) < 0) {
        log_error("Cannot read the results directory '%s': %s", dir, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        log_error("'%s' is not a results directory (not a directory).", dir);
        return NULL;
    }
    struct results_data *rd = xcalloc(1, sizeof(*rd));
    rd->dir = xstrdup(dir);
    if (results_load_meta(rd) < 0 || (samples && results_load_samples(rd) < 0)) {
        results_data_free(rd);
        return NULL;
    }
    if (!samples)
        return rd;
    /* arms that only the samples name join meta.json's */
    for (size_t i = 0; i < rd->n_samples; i++)
        if (*rd->samples[i].arm)
            results_add_arm(rd, rd->samples[i].arm, rd->samples[i].arm_kind);
    rd->scenario_text = read_text(dir, "scenario.ini");
    /* a meta.json without accel: the guests' samples carry it */
    for (size_t i = 0; i < rd->n_samples && !*rd->accel; i++)
        if (*rd->samples[i].accel) {
            free(rd->accel);
            rd->accel = xstrdup(rd->samples[i].accel);
        }
    return rd;
}

struct results_data *results_read(const char *dir) { return read_dir(dir, true); }

struct results_data *results_read_meta(const char *dir) { return read_dir(dir, false); }
