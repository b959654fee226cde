/* results.c: the results directory (see results.h). */
#include "results/results.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/safefile.h"
#include "util/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
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

/* root/leaf made new (never one that exists) and opened; -1 with errno
 * (EEXIST: the name is taken) */
static int make_new(const char *root, const char *leaf, char *path, size_t len)
{
    path_join(path, len, root, leaf);
    if (mkdir(path, 0755) < 0)
        return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid())) {
        close(fd);
        errno = EPERM; /* swapped for another's between mkdir and open */
        return -1;
    }
    return fd;
}

struct results *results_create(const char *root, const struct scenario *scn)
{
    char stamp[32], leaf[256], why[512];
    time_t t = time(NULL);
    strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&t));
    if (paths_mkdirs(root, 0755) < 0)
        return NULL;
    struct results *r = xcalloc(1, sizeof(*r));
    r->dirfd = -1;
    snprintf(leaf, sizeof(leaf), "%s-%s", stamp, scn->name);
    r->dirfd = make_new(root, leaf, r->dir, sizeof(r->dir));
    /* two runs within a second, or a name someone made before: the next */
    for (int i = 2; r->dirfd < 0 && errno == EEXIST && i < 100; i++) {
        snprintf(leaf, sizeof(leaf), "%s-%s-%d", stamp, scn->name, i);
        r->dirfd = make_new(root, leaf, r->dir, sizeof(r->dir));
    }
    if (r->dirfd < 0) {
        log_error("Cannot make the results directory '%s': %s", r->dir,
                  errno == EEXIST ? "every name for this second is taken" : strerror(errno));
        free(r);
        return NULL;
    }
    /* the way to it: root's, or sticky (a shared 1777 root), all along */
    if (safefile_trusted_dir(r->dir, why, sizeof(why)) < 0) {
        log_error("Cannot keep results under '%s': %s. vbed runs as root and writes its results "
                  "only where no other user can change a directory on the way (-o DIR).",
                  root, why);
        rmdir(r->dir);
        results_close(r);
        return NULL;
    }
    char path[PATH_MAX];
    path_join(path, sizeof(path), r->dir, "scenario.ini");
    if (outfile_write(r->dirfd, "scenario.ini", path, scn->text, strlen(scn->text)) < 0) {
        results_close(r);
        return NULL;
    }
    return r;
}

void results_close(struct results *r)
{
    if (!r)
        return;
    if (r->dirfd >= 0)
        close(r->dirfd);
    free(r);
}

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
