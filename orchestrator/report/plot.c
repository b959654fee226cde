/* plot.c: gnuplot scripts and data files for the report's plots (see plot.h). */
#include "report/plot.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/outfile.h"
#include "util/safefile.h"
#include "util/paths.h"
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* one colour per arm, in the order of meta.json's arms (colour-blind safe) */
static const char *const palette[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
                                      "#66a61e", "#e6ab02", "#a6761d", "#666666"};
#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

struct drawing {
    const struct report *r;
    char tmp[PATH_MAX];
    FILE *gp;           /* the script */
    char **files;       /* made in tmp, removed at the end */
    size_t n_files;
    struct plot_set *set;
};

/* A string of vbed's own (a constant, numbers, a fixed file name) as a
 * gnuplot single-quoted string. Nothing read from a results directory ever
 * goes through here: names reach gnuplot as data (data_label). Anything
 * but printable ASCII, and the quote itself, becomes '?' all the same. */
static void gp_const(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        fputc(*s >= ' ' && *s <= '~' && *s != '\'' ? *s : '?', f);
    fputc('\'', f);
}

/* A string in a data file, double-quoted: gnuplot reads it as a column's
 * text (xtic(), columnheader), never as script. A quote, a backslash or a
 * control character (a line break would end the record) becomes '?'. */
static void data_label(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc((unsigned char)*s < ' ' || *s == '"' || *s == '\\' || *s == 0x7f ? '?' : *s, f);
    fputc('"', f);
}

/* Open tmp/name for a data file (or the script); gnuplot runs in tmp and
 * names it by that relative name. */
static FILE *data_file(struct drawing *d, const char *name)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), d->tmp, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    d->files = xrealloc(d->files, (d->n_files + 1) * sizeof(char *));
    d->files[d->n_files++] = xstrdup(path);
    return f;
}

/* A plot: file (made in tmp, copied to the output directory), the gnuplot
 * title gp_title (vbed's words and numbers only) and the caption for the
 * page (may name arms and variants: html.c escapes it). */
static void add_plot(struct drawing *d, const char *file, const char *gp_title, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));
static void add_plot(struct drawing *d, const char *file, const char *gp_title, const char *fmt,
                     ...)
{
    struct plot_set *s = d->set;
    s->plots = xrealloc(s->plots, (s->n + 1) * sizeof(*s->plots));
    struct plot *p = &s->plots[s->n++];
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&p->title, fmt, ap) < 0)
        abort();
    va_end(ap);
    p->file = xstrdup(file);
    fprintf(d->gp, "\nreset\nset output ");
    gp_const(d->gp, file);
    fprintf(d->gp, "\nset title ");
    gp_const(d->gp, gp_title);
    fprintf(d->gp, "\nset grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\n");
}

/* Grouped bars: one group per variant, one bar per arm, CI error bars; a
 * log scale when the arms differ by more than 20 times (host vs TCG guest).
 * The variant labels (xtic) and arm names (columnheader) are data. */
static int plot_tps_bars(struct drawing *d)
{
    const struct results_data *rd = d->r->rd;
    double lo = INFINITY, hi = 0;
    for (size_t v = 0; v < rd->n_variants; v++)
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct stats_summary *s = &d->r->variants[v].cells[a].tps_stats;
            if (s->n > 0 && s->mean > 0) {
                lo = s->mean < lo ? s->mean : lo;
                hi = s->mean > hi ? s->mean : hi;
            }
        }
    if (hi == 0)
        return 0; /* no TPS to draw */
    bool log_y = hi / lo > 20;
    double floor_y = log_y ? pow(10, floor(log10(lo / 2))) : 0;
    FILE *f = data_file(d, "tps-bars.dat");
    if (!f)
        return -1;
    data_label(f, "variant");
    for (size_t a = 0; a < rd->n_arms; a++) {
        fputc(' ', f);
        data_label(f, rd->arms[a].name);
        fputs(" \"low\" \"high\"", f);
    }
    fputc('\n', f);
    for (size_t v = 0; v < rd->n_variants; v++) {
        data_label(f, d->r->variants[v].variant->label);
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct stats_summary *s = &d->r->variants[v].cells[a].tps_stats;
            if (s->n == 0 || (log_y && s->mean <= 0))
                fputs(" - - -", f);
            else
                fprintf(f, " %.6g %.6g %.6g", s->mean, fmax(s->ci95_low, floor_y), s->ci95_high);
        }
        fputc('\n', f);
    }
    fclose(f);
    /* the headline is "TPS" or units of letters, digits, '/' and '%'
     * (report_headline_sample), never free text */
    const char *h = d->r->headline;
    char gp_title[128];
    snprintf(gp_title, sizeof(gp_title), "%s per variant and arm (mean; error bars: 95%% CI)%s", h,
             log_y ? ", log scale" : "");
    add_plot(d, "tps-bars.svg", gp_title, "%s per variant and arm (mean; error bars: 95%% CI)%s", h,
             log_y ? ", log scale" : "");
    fprintf(d->gp,
            "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
            "set style fill solid 1.0 border -1\nset boxwidth 0.9\n"
            "set datafile missing '-'\nset key outside right top noenhanced\nset ylabel '%s'\n"
            "set xtics noenhanced\nset xrange [-0.6:%g]\n",
            h, (double)rd->n_variants - 0.4);
    if (log_y)
        fprintf(d->gp, "set logscale y\nset yrange [%g:*]\n", floor_y);
    else
        fputs("set yrange [0:*]\n", d->gp);
    fputs("plot ", d->gp);
    for (size_t a = 0; a < rd->n_arms; a++) {
        fputs(a ? ", ''" : "'tps-bars.dat'", d->gp);
        fprintf(d->gp, " using %zu:%zu:%zu%s title columnheader(%zu) lc rgb '%s'", 2 + 3 * a,
                3 + 3 * a, 4 + 3 * a, a == 0 ? ":xtic(1)" : "", 2 + 3 * a, palette[a % PALETTE_N]);
    }
    fputs("\n", d->gp);
    return 0;
}

/* The distinct runs of an arm: same arm, same variants (repeats differ). */
static bool same_spec(const struct results_sample *x, const struct results_sample *y)
{
    if (strcmp(x->arm, y->arm) != 0 || x->n_variants != y->n_variants)
        return false;
    return x->n_variants == 0 || !memcmp(x->variants, y->variants, x->n_variants * sizeof(int));
}

static int by_series_then_t(const void *a, const void *b)
{
    const struct results_sample *x = *(const struct results_sample *const *)a,
                                *y = *(const struct results_sample *const *)b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->guest != y->guest)
        return x->guest < y->guest ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* TPS over time of every guest and repeat of one distinct run: one data
 * file per (run, guest), its series title ("guest: guest 1, repeat 2") in
 * its header line. */
static int plot_tps_time(struct drawing *d, const struct results_sample *first, size_t number)
{
    const struct results_data *rd = d->r->rd;
    const struct results_sample **pts = xcalloc(rd->n_samples + 1, sizeof(*pts));
    size_t n = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (!strcmp(s->metric, "tps_interval") && s->has_t && isfinite(s->value) &&
            same_spec(s, first))
            pts[n++] = s;
    }
    qsort(pts, n, sizeof(*pts), by_series_then_t);
    char svg[64], variants[256] = "";
    snprintf(svg, sizeof(svg), "tps-time-%zu.svg", number);
    char *cmd = NULL;
    size_t cmd_len = 0, series = 0;
    FILE *plot = open_memstream(&cmd, &cmd_len), *f = NULL;
    if (!plot)
        abort();
    bool warmup = false;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const struct results_sample *s = pts[i];
        bool starts = i == 0 || s->seq != pts[i - 1]->seq || s->guest != pts[i - 1]->guest;
        if (starts) {
            char name[64], title[128];
            if (f)
                fclose(f);
            snprintf(name, sizeof(name), "tps-time-%zu-%zu.dat", number, series + 1);
            if (!(f = data_file(d, name))) {
                rc = -1;
                break;
            }
            if (s->guest > 0)
                snprintf(title, sizeof(title), "%s: guest %d, repeat %d", s->arm, s->guest,
                         s->repeat);
            else
                snprintf(title, sizeof(title), "%s: repeat %d", s->arm, s->repeat);
            data_label(f, "t");
            fputc(' ', f);
            data_label(f, title);
            fputc('\n', f);
            fputs(series ? ", " : "plot ", plot);
            gp_const(plot, name);
            fprintf(plot, " using 1:2 with lines lw 1.5 lc rgb '%s' dt %d title columnheader(2)",
                    palette[(size_t)s->guest % PALETTE_N],
                    1 + (s->repeat > 0 ? s->repeat - 1 : 0) % 5);
            series++;
        }
        fprintf(f, "%.6g %.6g\n", s->t, s->value);
        warmup |= s->t < 0;
    }
    if (f)
        fclose(f);
    fclose(plot);
    free(pts);
    if (rc == 0) {
        for (size_t i = 0; i < first->n_variants; i++)
            snprintf(variants + strlen(variants), sizeof(variants) - strlen(variants), "%s%d",
                     i ? ", " : "", first->variants[i]);
        add_plot(d, svg, "TPS over time, per guest and repeat", "TPS over time: arm %s, variant%s %s",
                 first->arm, first->n_variants == 1 ? "" : "s",
                 first->n_variants ? variants : "all");
        if (warmup)
            fputs("set object 1 rectangle from graph 0, graph 0 to first 0, graph 1 behind "
                  "fillcolor rgb '#e4e4e4' fillstyle solid 1.0 noborder\n"
                  "set label 1 'warm-up' at graph 0.01, graph 0.95 left textcolor rgb '#555555'\n",
                  d->gp);
        fprintf(d->gp,
                "set xlabel 'seconds since the measure phase started'\nset ylabel 'TPS "
                "(per report interval)'\nset yrange [0:*]\nset key outside right top noenhanced\n"
                "%s\n",
                cmd);
    }
    free(cmd);
    return rc;
}

static int plot_tps_times(struct drawing *d)
{
    const struct results_data *rd = d->r->rd;
    const struct results_sample **firsts = xcalloc(rd->n_samples + 1, sizeof(*firsts));
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (strcmp(s->metric, "tps_interval") != 0 || !s->has_t)
            continue;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = same_spec(firsts[k], s);
        if (!seen)
            firsts[n++] = s;
    }
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = plot_tps_time(d, firsts[k], k + 1);
    free(firsts);
    return rc;
}

/* Host page cache holding each guest's data disk after the measure phase,
 * per (cache mode, arm). */
static int plot_host_cache(struct drawing *d)
{
    const struct results_data *rd = d->r->rd;
    size_t n = rd->n_samples;
    const char **mode = xcalloc(n + 1, sizeof(char *)), **arm = xcalloc(n + 1, sizeof(char *));
    double *vals = xcalloc(n + 1, sizeof(double));
    size_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (strcmp(s->metric, "host_cache_data_bytes") != 0 || strcmp(s->when, "after") != 0 ||
            !isfinite(s->value))
            continue;
        const struct results_run *run = results_find_run(rd, s->seq);
        const char *m = run && *run->disk_cache ? run->disk_cache : "unknown";
        bool seen = false;
        for (size_t g = 0; g < groups && !seen; g++)
            seen = !strcmp(mode[g], m) && !strcmp(arm[g], s->arm);
        if (!seen) {
            mode[groups] = m;
            arm[groups++] = s->arm;
        }
    }
    int rc = 0;
    FILE *f = groups ? data_file(d, "host-cache.dat") : NULL;
    if (groups && !f)
        rc = -1;
    for (size_t g = 0; f && g < groups; g++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const struct results_sample *s = &rd->samples[i];
            const struct results_run *run = results_find_run(rd, s->seq);
            const char *m = run && *run->disk_cache ? run->disk_cache : "unknown";
            if (!strcmp(s->metric, "host_cache_data_bytes") && !strcmp(s->when, "after") &&
                isfinite(s->value) && !strcmp(m, mode[g]) && !strcmp(s->arm, arm[g]))
                vals[k++] = s->value / 1048576;
        }
        struct stats_summary st;
        stats_summarize(vals, k, &st);
        char label[160];
        snprintf(label, sizeof(label), "%s (%s)", mode[g], arm[g]);
        data_label(f, label);
        fprintf(f, " %.6g %.6g %.6g\n", st.mean, st.ci95_low, st.ci95_high);
    }
    if (f) {
        fclose(f);
        add_plot(d, "host-cache.svg",
                 "Host page cache holding a guest's data disk after the measure phase, per cache "
                 "mode (mean per guest; error bars: 95% CI)",
                 "Host page cache holding a guest's data disk after the measure phase, per cache "
                 "mode (mean per guest; error bars: 95%% CI)");
        fputs("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
              "set style fill solid 1.0 border -1\nset yrange [0:*]\nset ylabel 'MiB'\n"
              "set xlabel 'disk cache mode (arm)'\nset xtics noenhanced\n"
              "plot 'host-cache.dat' using 2:3:4:xtic(1) notitle lc rgb '#4477aa', '' using "
              "0:2:(sprintf('%.1f', $2)) with labels offset 0,0.8 notitle\n",
              d->gp);
    }
    free(mode);
    free(arm);
    free(vals);
    return rc;
}

/* guests as a variant axis: aggregate and per-guest TPS against the number
 * of guests (left axis), consolidation efficiency (right axis); one data
 * file per (arm, setting), its series titles in its header line. */
static int plot_scaling(struct drawing *d)
{
    const struct report *r = d->r;
    if (!r->n_scaling)
        return 0;
    char *cmd = NULL;
    size_t cmd_len = 0;
    FILE *plot = open_memstream(&cmd, &cmd_len);
    if (!plot)
        abort();
    int max_guests = 1, rc = 0;
    for (size_t i = 0; i < r->n_scaling && rc == 0; i++) {
        const struct report_scaling *sc = &r->scaling[i];
        char name[64], title[3][RESULTS_LABEL_MAX + 64];
        snprintf(name, sizeof(name), "scaling-%zu.dat", i + 1);
        FILE *f = data_file(d, name);
        if (!f) {
            rc = -1;
            break;
        }
        const char *arm = r->rd->arms[sc->arm].name;
        const char *sep = *sc->group ? ", " : "";
        snprintf(title[0], sizeof(title[0]), "%s%s%s: total", arm, sep, sc->group);
        snprintf(title[1], sizeof(title[1]), "%s%s%s: per guest", arm, sep, sc->group);
        snprintf(title[2], sizeof(title[2]), "%s%s%s: efficiency", arm, sep, sc->group);
        data_label(f, "guests");
        for (int k = 0; k < 3; k++) {
            fputc(' ', f);
            data_label(f, title[k]);
        }
        fputc('\n', f);
        for (size_t k = 0; k < sc->n; k++) {
            const struct report_cell *c = &r->variants[sc->variants[k]].cells[sc->arm];
            if (!c->tps_stats.n)
                continue;
            max_guests = c->guests > max_guests ? c->guests : max_guests;
            fprintf(f, "%d %.6g %.6g ", c->guests, c->tps_stats.mean, c->per_guest_stats.mean);
            if (isnan(c->efficiency))
                fputs("-\n", f);
            else
                fprintf(f, "%.6g\n", c->efficiency);
        }
        fclose(f);
        const char *colour = palette[sc->arm % PALETTE_N];
        fputs(i ? ", " : "plot ", plot);
        gp_const(plot, name);
        fprintf(plot,
                " using 1:2 with linespoints lw 2 pt 7 lc rgb '%s' title columnheader(2), '' "
                "using 1:3 with linespoints lw 2 pt 5 dt 2 lc rgb '%s' title columnheader(3), '' "
                "using 1:4 axes x1y2 with linespoints lw 1 pt 4 dt 3 lc rgb '%s' "
                "title columnheader(4)",
                colour, colour, colour);
    }
    fclose(plot);
    if (rc == 0) {
        add_plot(d, "scaling.svg",
                 "TPS against the number of guests: total, per guest, consolidation efficiency",
                 "TPS against the number of guests: total (solid), per guest (dashed) and "
                 "consolidation efficiency (dotted, right axis)");
        fprintf(d->gp,
                "set datafile missing '-'\nset key outside right top noenhanced\n"
                "set xlabel 'guests'\nset ylabel 'TPS'\nset y2label 'efficiency'\n"
                "set xrange [0.5:%g]\nset xtics 1\nset yrange [0:*]\nset y2range [0:1.2]\n"
                "set y2tics 0.2\n%s\n",
                max_guests + 0.5, cmd);
    }
    free(cmd);
    return rc;
}

/* Where the time goes, one plot per variant with layer counters: each
 * arm's time per transaction of a chain as a stacked bar of the budget's
 * parts (gap.h) and the rest; its total on top. A part that is n/a is
 * drawn in "other" (the bar stays the measured total); a negative rest is
 * drawn as 0. */
static const char *const gap_colours[] = {"#4477aa", "#66ccee", "#228833", "#ccbb44",
                                          "#ee6677", "#aa3377", "#bbbbbb"};

static int plot_gap(struct drawing *d, size_t v)
{
    const struct report *r = d->r;
    const struct results_data *rd = r->rd;
    bool any = false;
    for (size_t a = 0; a < rd->n_arms; a++)
        any |= isfinite(r->variants[v].cells[a].layers.w);
    if (!any)
        return 0;
    char name[64], svg[64], title[128];
    int index = r->variants[v].variant->index;
    snprintf(name, sizeof(name), "gap-%d.dat", index);
    snprintf(svg, sizeof(svg), "gap-%d.svg", index);
    FILE *f = data_file(d, name);
    if (!f)
        return -1;
    static const char *const head[] = {"arm",   "CPU",    "contention", "reads", "commit I/O",
                                       "locks", "client", "other",      "total"};
    for (size_t k = 0; k < 9; k++) {
        fputs(k ? " " : "", f);
        data_label(f, head[k]);
    }
    fputc('\n', f);
    for (size_t a = 0; a < rd->n_arms; a++) {
        const struct gap_arm *g = &r->variants[v].cells[a].layers;
        if (!isfinite(g->w))
            continue;
        double known = 0;
        data_label(f, rd->arms[a].name);
        for (int k = 0; k < GAP_PARTS; k++) {
            double x = isfinite(g->part[k]) ? fmax(g->part[k], 0) : 0;
            known += x;
            fprintf(f, " %.6g", 1000 * x);
        }
        fprintf(f, " %.6g %.6g\n", 1000 * fmax(g->w - known, 0), 1000 * g->w);
    }
    fclose(f);
    snprintf(title, sizeof(title),
             "Where the time goes, variant %d: time per transaction of a chain (ms)", index);
    add_plot(d, svg, title,
             "Where the time goes, variant %d (%s): each arm's time per transaction of a chain "
             "(sysbench thread and connection thread), split into the transaction's CPU, CPU "
             "contention, foreground reads, commit I/O, locks, the client's turn, and the rest",
             index, r->variants[v].variant->label);
    fputs("set style data histograms\nset style histogram rowstacked gap 1\n"
          "set style fill solid 1.0 border -1\nset boxwidth 0.6\nset yrange [0:*]\n"
          "set ylabel 'ms per transaction (per chain)'\nset xtics noenhanced\n"
          "set key outside right top noenhanced\n"
          "# the header line is a header for every element, the labels too ($0 from 0)\n"
          "set key autotitle columnheader\n",
          d->gp);
    fputs("plot ", d->gp);
    for (int k = 0; k < GAP_PARTS + 1; k++) {
        gp_const(d->gp, k ? "" : name);
        fprintf(d->gp, " using %d%s title columnheader(%d) lc rgb '%s', ", k + 2,
                k ? "" : ":xtic(1)", k + 2, gap_colours[k]);
    }
    fputs("'' using 0:9:(sprintf('%.1f', $9)) with labels offset 0,0.8 notitle\n", d->gp);
    return 0;
}

static int run_gnuplot(struct drawing *d, const char *script)
{
    char log_path[PATH_MAX];
    path_join(log_path, sizeof(log_path), d->tmp, "gnuplot.log");
    d->files = xrealloc(d->files, (d->n_files + 1) * sizeof(char *));
    d->files[d->n_files++] = xstrdup(log_path);
    const char *argv[] = {"gnuplot", script, NULL};
    struct spawn_opts o = {.log_path = log_path, .timeout = 300, .cwd = d->tmp};
    int rc = spawn_run(argv, &o);
    if (rc == SPAWN_FAILED) {
        log_error("Cannot draw the plots without gnuplot: install gnuplot-nox (make deps).");
        return -2;
    }
    if (rc != 0) {
        char msg[4096] = "";
        FILE *f = fopen(log_path, "r");
        if (f) {
            size_t n = fread(msg, 1, sizeof(msg) - 1, f);
            msg[n] = '\0';
            fclose(f);
        }
        if (rc > 0)
            log_error("gnuplot failed (exit code %d) on the report's plots:\n%s", rc, msg);
        return -1;
    }
    return 0;
}

int plot_draw(const struct report *r, struct plot_set *set)
{
    struct drawing d = {.r = r, .set = set};
    int rc = -1;
    plot_set_clear(set);
    const char *tmpdir = getenv("TMPDIR");
    snprintf(d.tmp, sizeof(d.tmp), "%s/vbed-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(d.tmp)) {
        log_error("Cannot make a temporary directory '%s': %s", d.tmp, strerror(errno));
        return -1;
    }
    d.gp = data_file(&d, "plots.gp");
    if (!d.gp)
        goto cleanup;
    fputs("# vbed report: the plots of one results directory. gnuplot runs in the directory\n"
          "# of this script; every name from the results directory is in the data files.\n"
          "set terminal svg size 900,420 fixed font 'sans,11' noenhanced background rgb 'white'\n",
          d.gp);
    rc = plot_tps_bars(&d);
    if (rc == 0)
        rc = plot_scaling(&d);
    if (rc == 0)
        rc = plot_tps_times(&d);
    if (rc == 0)
        rc = plot_host_cache(&d);
    for (size_t v = 0; rc == 0 && v < r->rd->n_variants; v++)
        rc = plot_gap(&d, v);
    if (fclose(d.gp) != 0 && rc == 0) {
        log_error("Cannot write the gnuplot script in '%s': %s", d.tmp, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && set->n > 0)
        rc = run_gnuplot(&d, "plots.gp");
cleanup:
    /* the script, data and log go; the SVGs stay in the private directory
     * (set->dir) until plot_set_clear */
    for (size_t i = 0; i < d.n_files; i++) {
        unlink(d.files[i]);
        free(d.files[i]);
    }
    free(d.files);
    if (rc == 0) {
        snprintf(set->dir, sizeof(set->dir), "%s", d.tmp);
        set->dirfd = open(d.tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (set->dirfd < 0) {
            log_error("Cannot open '%s': %s", d.tmp, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0) {
        for (size_t i = 0; i < set->n; i++) {
            char made[PATH_MAX];
            path_join(made, sizeof(made), d.tmp, set->plots[i].file);
            unlink(made);
        }
        rmdir(d.tmp);
        set->dir[0] = '\0';
        plot_set_clear(set);
    }
    return rc;
}

int plot_write(const struct plot_set *set, int dirfd, const char *out_dir)
{
    for (size_t i = 0; i < set->n; i++) {
        char to[PATH_MAX];
        path_join(to, sizeof(to), out_dir, set->plots[i].file);
        char *svg = safefile_read_small(set->dirfd, set->plots[i].file, PLOT_SVG_MAX);
        if (!svg) {
            log_error("Cannot read the plot '%s/%s': %s", set->dir, set->plots[i].file,
                      safefile_why(errno));
            return -1;
        }
        int rc = outfile_write(dirfd, set->plots[i].file, to, svg, strlen(svg));
        free(svg);
        if (rc < 0)
            return -1;
    }
    return 0;
}

void plot_set_clear(struct plot_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        if (set->dir[0] && set->dirfd > 0)
            unlinkat(set->dirfd, set->plots[i].file, 0);
        free(set->plots[i].file);
        free(set->plots[i].title);
    }
    if (set->dir[0])
        rmdir(set->dir);
    if (set->dirfd > 0)
        close(set->dirfd);
    free(set->plots);
    memset(set, 0, sizeof(*set));
}
