/* workloads/tar_extract.c: extract the fixed archive (archive.h) into the
 * target's I/O directory and sync that filesystem; the seed's "tar x" of a
 * large tree, written to the layout under test.
 *
 *   prepare   the directory emptied; the host arm makes the archive in its
 *             private directory (a guest has it in its image)
 *   measure   sh times `tar -xf ARCHIVE -C DIR && sync -f DIR` itself (the
 *             guest agent's polling would add up to a second), all targets
 *             started together
 *
 * Samples per target: tar_seconds, mb_s (the archive's bytes / seconds,
 * decimal MB) and tar_archive_bytes. */
#include "workloads/workload.h"

#include "image/archive.h"
#include "workloads/io.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int prepare(struct wl_job *j)
{
    char tree[PATH_MAX + 16], archive[PATH_MAX];
    snprintf(tree, sizeof(tree), "%s/vbed-tree", j->t->io_dir);
    const char *mk[] = {"mkdir", "-p", j->t->io_dir, NULL};
    const char *rm[] = {"rm", "-rf", tree, NULL};
    if (io_run(j, mk, "io-prepare.out", "mkdir of the I/O directory") < 0 ||
        io_run(j, rm, "io-prepare.out", "removing an old tree") < 0)
        return -1;
    /* a guest has it in its image; the host arm makes it in its directory */
    if (target_archive(j->t, true, archive, sizeof(archive)) < 0)
        return wl_fail(j, "cannot make the archive '%s' for %s", archive, j->t->name);
    const char *check[] = {"test", "-f", archive, NULL};
    return io_run(j, check, "io-prepare.out", "looking for the archive (is the image current?)");
}

/* "vbed_tar_seconds START END" from the script below */
static int parse_times(const char *text, double *seconds)
{
    const char *p = text ? strstr(text, "vbed_tar_seconds ") : NULL;
    double a, b;
    if (!p || sscanf(p, "vbed_tar_seconds %lf %lf", &a, &b) != 2 || !isfinite(a) || !isfinite(b) ||
        b <= a || b - a > 1e7)
        return -1;
    *seconds = b - a;
    return 0;
}

/* MB/s of the archive's bytes in the time the script printed */
static int parse(const char *text, double *figure, char *err, size_t errlen)
{
    double seconds;
    if (parse_times(text, &seconds) < 0) {
        snprintf(err, errlen, "no valid 'vbed_tar_seconds START END' line");
        return -1;
    }
    *figure = (double)archive_content_bytes() / 1e6 / seconds;
    return 0;
}

static int measure(struct wl_job *j)
{
    char archive[PATH_MAX];
    const char *dir = j->t->io_dir;
    target_archive(j->t, false, archive, sizeof(archive));
    /* paths as arguments ($1, $2), never spliced into the script */
    const char *argv[] = {"sh", "-c",
                          "s=$(date +%s.%N); tar -xf \"$1\" -C \"$2\" && sync -f \"$2\"; rc=$?; "
                          "e=$(date +%s.%N); echo \"vbed_tar_seconds $s $e\"; exit $rc",
                          "vbed-tar", archive, dir, NULL};
    wl_together(j);
    if (io_run(j, argv, "tar.out", "tar's extraction") < 0)
        return -1;
    char *text = target_output(j->t);
    double seconds;
    int bad = parse_times(text, &seconds);
    free(text);
    if (bad)
        return wl_fail(j, "no time of the extraction in %s", j->t->out_path);
    long long bytes = archive_content_bytes();
    struct io_result *res = xcalloc(1, sizeof(*res));
    res->seconds = seconds;
    res->bytes = bytes;
    res->mb_s = (double)bytes / 1e6 / seconds;
    res->ts = j->t->started + seconds;
    j->state = res;
    struct samples *s = j->samples;
    int g = j->t->guest;
    samples_add(s, "tar_seconds", seconds, "s", g, j->t->out_path, res->ts, NULL);
    samples_add(s, "mb_s", res->mb_s, "MB/s", g, j->t->out_path, res->ts, NULL);
    samples_add(s, "tar_archive_bytes", (double)bytes, "bytes", g, NULL, res->ts, NULL);
    log_info("%s: extracted %lld bytes in %.2f s: %.1f MB/s", j->t->name, bytes, seconds, res->mb_s);
    return 0;
}

static const struct workload_metric metrics[] = {
    {"tar_seconds", "s"}, {"mb_s", "MB/s"}, {"tar_archive_bytes", "bytes"}, {NULL, NULL},
};

static const char *const values[] = {"tar_extract", NULL};

const struct workload_ops workload_tar_extract = {
    .name = "tar_extract",
    .values = values,
    .headline = "mbps_arm",
    .headline_unit = "MB/s",
    .metrics = metrics,
    .needs_db = false,
    .prepare = prepare,
    .warmup = NULL,
    .measure = measure,
    .record = io_record_arm,
    .free_state = io_free_state,
    .parse = parse,
};

WORKLOAD_REGISTER(workload_tar_extract)
