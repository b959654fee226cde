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
#include "util/safefile.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* scenario.ini as it ran, or NULL (said why, unless it is simply absent) */
static char *read_scenario(const struct results_data *rd)
{
    char *text = safefile_read_small(rd->dirfd, "scenario.ini", RESULTS_SCENARIO_MAX);
    if (!text && errno != ENOENT) {
        char path[PATH_MAX];
        path_join(path, sizeof(path), rd->dir, "scenario.ini");
        log_warn("'%s' is left out of the report: %s.", path, safefile_why(errno));
    }
    return text;
}

static struct results_data *read_dir(const char *dir, bool samples)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOTDIR)
            log_error("'%s' is not a results directory (not a directory).", dir);
        else
            log_error("Cannot read the results directory '%s': %s", dir, strerror(errno));
        return NULL;
    }
    struct results_data *rd = xcalloc(1, sizeof(*rd));
    rd->dir = xstrdup(dir);
    rd->dirfd = fd;
    if (results_load_meta(rd) < 0 || (samples && results_load_samples(rd) < 0)) {
        results_data_free(rd);
        return NULL;
    }
    if (!samples) {
        close(rd->dirfd);
        rd->dirfd = -1;
        return rd;
    }
    /* arms that only the samples name join meta.json's */
    for (size_t i = 0; i < rd->n_samples; i++)
        if (*rd->samples[i].arm)
            results_add_arm(rd, rd->samples[i].arm, rd->samples[i].arm_kind);
    rd->scenario_text = read_scenario(rd);
    close(rd->dirfd);
    rd->dirfd = -1;
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
