/* plot.h: the report's plots, drawn by gnuplot's svg terminal (run with an
 * argv through spawn.h): TPS per variant and arm as grouped bars with 95% CI
 * error bars; when guests is a variant axis, TPS (total and per guest) and
 * consolidation efficiency against the number of guests; TPS over time per
 * guest, one plot per distinct run of an arm, warm-up shaded; host
 * page-cache residency of the guests' data disks after the measure phase,
 * per cache mode; where the time goes (gap.h), per variant with layer
 * counters: each arm's time per transaction as a stacked bar
 * (gap-<variant>.svg).
 *
 * The script holds only vbed's own words, numbers and fixed relative file
 * names: every name from a results directory (arms, variant labels) reaches
 * gnuplot as data (xtic(), columnheader), so nothing in a results directory
 * can become a gnuplot command. gnuplot runs in a private temporary
 * directory (mkdtemp) with the data files and the script and writes the
 * SVG files there; the page inlines them from there (html.h) and
 * plot_write copies them into the output directory through its descriptor
 * (outfile.h); plot_set_clear removes the temporary directory. */
#ifndef VBED_PLOT_H
#define VBED_PLOT_H

#include "report/report.h"

#include <limits.h>

struct plot {
    char *file;  /* "tps-bars.svg", in the output directory */
    char *title; /* what it shows, a sentence */
};

struct plot_set {
    struct plot *plots;
    size_t n;
    char dir[PATH_MAX]; /* the private directory the SVGs are in ("" none: a caller's) */
    int dirfd;          /* the directory the SVGs are read from (0: none) */
};

/* the largest SVG file read back */
#define PLOT_SVG_MAX (16 << 20)

/* Draw every plot of r into a private temporary directory and list them in
 * set (cleared first). 0 on success; -1 if gnuplot failed, -2 if it could
 * not be started (not installed); both reported, and set is then empty. */
int plot_draw(const struct report *r, struct plot_set *set);
/* Each SVG of set copied into the directory dirfd (out_dir names it in
 * messages), never through a link planted there. -1 reported. */
int plot_write(const struct plot_set *set, int dirfd, const char *out_dir);
/* The plots forgotten, the private directory and its SVGs removed. */
void plot_set_clear(struct plot_set *set);

#endif
