/* results.c: the results directory (see results.h). */
#include "results/results.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int results_write(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, name);
    return textfile_write_text(path, text);
}

struct results *results_create(const char *root, const struct scenario *scn)
{
    struct results *r = xcalloc(1, sizeof(*r));
    char stamp[32], leaf[256];
    time_t t = time(NULL);
    strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&t));
    snprintf(leaf, sizeof(leaf), "%s-%s", stamp, scn->name);
    path_join(r->dir, sizeof(r->dir), root, leaf);
    /* two runs within a second: add a suffix */
    for (int i = 2; access(r->dir, F_OK) == 0 && i < 100; i++) {
        snprintf(leaf, sizeof(leaf), "%s-%s-%d", stamp, scn->name, i);
        path_join(r->dir, sizeof(r->dir), root, leaf);
    }
    if (paths_mkdirs(r->dir, 0755) < 0 || results_write(r->dir, "scenario.ini", scn->text) < 0) {
        free(r);
        return NULL;
    }
    return r;
}

void results_close(struct results *r) { free(r); }

int results_run_dir(const struct results *r, unsigned seq, const char *arm, const char *sub,
                    char *buf, size_t len)
{
    char leaf[128], runs[PATH_MAX], run[PATH_MAX];
    path_join(runs, sizeof(runs), r->dir, "runs");
    snprintf(leaf, sizeof(leaf), "%03u-%s", seq, arm);
    path_join(run, sizeof(run), runs, leaf);
    if (sub)
        path_join(buf, len, run, sub);
    else
        snprintf(buf, len, "%s", run);
    return paths_mkdirs(buf, 0755);
}
