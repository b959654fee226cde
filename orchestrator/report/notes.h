/* notes.h: the notes of a report (see report.h). Internal to report/:
 * build.c calls it once the cells and the scaling are built. */
#ifndef VBED_REPORT_NOTES_H
#define VBED_REPORT_NOTES_H

struct report;

/* r->notes: from the samples (drift, warm-up, noise, skew), the runs
 * (status, not run), the cells (fits, layers, a host arm elsewhere) and the
 * skipped lines; sorted by run, then kind. */
void report_collect_notes(struct report *r);

#endif
