/* runlist.h: the list of past runs (`vbed list`): one entry per results
 * directory, newest first, with when it started, its scenario, its state,
 * the accelerator, each arm's headline figure (the mean of its repeats,
 * per variant, as `vbed report` computes it: report.h) and the noise
 * verdict.
 *
 * Results directories are hostile input: each is read by results_read()
 * (resultsread.h), whose messages are captured and shown escaped; one it
 * refuses is listed as "unreadable" with the reason. Every text printed
 * goes through termtext_escape(), and the table cuts long ones, so no name
 * can break the table or act on the terminal. */
#ifndef VBED_RUNLIST_H
#define VBED_RUNLIST_H

#include "report/report.h"
#include "results/resultsread.h"
#include "report/table.h"

#include <stdio.h>

#define RUNLIST_MAX 100000 /* results directories in one list */

/* One (variant, arm): the arm's headline figure in that variant. */
struct runlist_cell {
    char *variant, *arm, *kind, *unit; /* unit "" when no run counted */
    double mean;                       /* NAN when no run counted */
    size_t n;                          /* repeats counted */
};

struct runlist_entry {
    char *dir;        /* as given or found (raw: escape it to show it) */
    char *started_at; /* meta.json's, "" if absent */
    char *scenario, *status, *accel;
    /* complete, partial (failed, but some arm has figures), failed,
     * interrupted, running (vbed still runs, or was killed), unknown, or
     * unreadable (the reader refused the directory: error says why) */
    const char *state;
    size_t n_variants;
    struct runlist_cell *cells;
    size_t n_cells;
    const char *noise; /* "noisy", "quiet" or "n/a" */
    size_t noisy_runs; /* runs beyond a noise limit */
    size_t skipped_lines;
    char *error; /* the reader's first message when unreadable, else NULL */
};

struct runlist {
    struct runlist_entry *v;
    size_t n;
    size_t cap;
};

/* The entry of a directory rd that was read, from its report r. */
void runlist_entry_fill(struct runlist_entry *e, const struct results_data *rd,
                        const struct report *r);

/* Add path: a results directory (it holds meta.json), or a folder of them
 * (each subdirectory holding a meta.json; symbolic links are not
 * followed). 0, or -1 (reported) if path cannot be read. */
int runlist_scan(struct runlist *l, const char *path);

/* Newest first (started_at; entries without a valid time last), then by
 * directory. */
void runlist_sort(struct runlist *l);

/* table (one line per entry) or markdown; csv (one row per variant and
 * arm); json (one object per entry). */
void runlist_print(const struct runlist *l, enum report_format f, FILE *out);

/* The libvirt URIs that the meta.json of every results directory under
 * path names (results_read_meta), added to *uris once each. 0 or -1. */
int runlist_scan_uris(const char *path, char ***uris, size_t *n);

/* "2026-11-30T01:00:00Z" and the like: whether s is an ISO 8601 UTC time. */
bool runlist_valid_time(const char *s);

void runlist_free(struct runlist *l);

#endif
