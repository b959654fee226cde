/* results.h: the results layer -- what a run leaves on disk and how it is
 * read back: the results directory (this file), samples.jsonl (samples.h),
 * meta.json (meta.h), the hostile-input reader of a results directory
 * (resultsread.h), this machine's sessions (session.h) and the limits by
 * which a measurement is judged (verdicts.h). It may call scenario/ and
 * util/.
 *
 * The results directory of one `vbed run`.
 *
 *   <root>/<UTC time>-<scenario>/
 *     scenario.ini          the scenario as it ran
 *     runs/<seq>-<arm>/     one directory per run (a shared run is
 *                           listed under every variant it serves)
 *       my.cnf, guest-<n>/{domain.xml, console.log, ...}, host/...
 */
#ifndef VBED_RESULTS_H
#define VBED_RESULTS_H

#include "scenario/scenario.h"

#include <limits.h>
#include <stddef.h>

struct results {
    char dir[PATH_MAX];
    int dirfd; /* the directory, opened once */
};

/* Create the directory and copy the scenario into it. NULL reported.
 *
 * vbed runs as root, and the results root may be shared (a 1777
 * directory): the run's directory is always a new one, made here with
 * mkdir (a name that exists -- made by anyone, a link included -- means
 * the next name, <stamp>-<scenario>-2 ... -99), opened without following
 * a link and checked to be root's. scenario.ini, meta.json and
 * samples.jsonl are written through that descriptor; the raw logs under
 * runs/ by path, which is sound because the run refuses a directory that
 * anyone but root can change: every directory above it must be root's (or
 * sticky, as /tmp is) and writable by no one else (safefile_trusted_dir),
 * so no other user can put a link anywhere on the way. */
struct results *results_create(const char *root, const struct scenario *scn);
void results_close(struct results *r);

/* runs/<seq>-<arm>[/<sub>] created; its path into buf. */
int results_run_dir(const struct results *r, unsigned seq, const char *arm, const char *sub,
                    char *buf, size_t len);
/* Write text to dir/name (a directory of the run's: see results_create).
 * -1 reported. */
int results_write(const char *dir, const char *name, const char *text);

#endif
