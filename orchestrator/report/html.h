/* html.h: report.html, one self-contained page (no scripts, no external
 * files: the plots are inline SVG) with what `vbed report` prints -- the TCG
 * warning, the tables of every variant, ratios, notes -- and the plots, the
 * run's context (host, versions, image) and the scenario as it ran. */
#ifndef VBED_HTML_H
#define VBED_HTML_H

#include "report/plot.h"
#include "report/report.h"

/* Write report.html into the directory dirfd (out_dir names it in
 * messages; outfile.h: never through a link planted there), the plots
 * inlined from their own directory (plots->dirfd). When set is empty the
 * page says why, in no_plots_reason. -1 reported, and then nothing at
 * report.html has changed. */
int html_write_report(const struct report *r, const struct plot_set *plots, int dirfd,
                      const char *out_dir, const char *no_plots_reason);

#endif
