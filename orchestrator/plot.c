/* plot.c: gnuplot scripts and data files for the report's plots (see plot.h). */
#include "plot.h"
#include "xalloc.h"

#include "log.h"
#include "paths.h"
#include "spawn.h"

#include <errno.h>
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
    char out[PATH_MAX]; /* absolute */
    FILE *gp;           /* the script */
    char **files;       /* made in tmp, removed at the end */
    size_t n_files;
    struct plot_set *set;
};

/* A gnuplot single-quoted string: '' stands for one quote. */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* A label in a data file: double quotes, which it cannot contain. */
static void data_label(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : *s, f);
    fputc('"', f);
}

/* Open tmp/name for a data file; its path into path. */
static FILE *data_file(struct drawing *d, const char *name, char *path, size_t len)
{
    path_join(path, len, d->tmp, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    d->files = xrealloc(d->files, (d->n_files + 1) * sizeof(char *));
    if (!d->files || !(d->files[d->n_files++] = strdup(path)))
        abort();
    return f;
}

static void add_plot(struct drawing *d, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_plot(struct drawing *d, const char *file, const char *fmt, ...)
{
    struct plot_set *s = d->set;
    s->plots = xrealloc(s->plots, (s->n + 1) * sizeof(*s->plots));
    struct plot *p = &s->plots[s->n++];
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&p->title, fmt, ap) < 0 || !(p->file = strdup(file)))
        abort();
    va_end(ap);
    char path[PATH_MAX];
    path_join(path, sizeof(path), d->out, file);
    fprintf(d->gp, "\nreset\nset output ");
    gp_string(d->gp, path);
    fprintf(d->gp, "\nset title ");
    gp_string(d->gp, p->title);
    fprintf(d->gp, "\nset grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\n");
}

/* Grouped bars: one group per variant, one bar per arm, CI error bars; a
 * log scale when the arms differ by more than 20 times (host vs TCG guest). */
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
    char path[PATH_MAX];
    FILE *f = data_file(d, "tps-bars.dat", path, sizeof(path));
    if (!f)
        return -1;
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
    add_plot(d, "tps-bars.svg", "TPS per variant and arm (mean; error bars: 95%% CI)%s",
             log_y ? ", log scale" : "");
    fprintf(d->gp,
            "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
            "set style fill solid 1.0 border -1\nset boxwidth 0.9\n"
            "set datafile missing '-'\nset key outside right top\nset ylabel 'TPS'\n"
            "set xtics noenhanced\nset xrange [-0.6:%g]\n",
            (double)rd->n_variants - 0.4);
    if (log_y)
        fprintf(d->gp, "set logscale y\nset yrange [%g:*]\n", floor_y);
    else
        fputs("set yrange [0:*]\n", d->gp);
    fputs("plot ", d->gp);
    for (size_t a = 0; a < rd->n_arms; a++) {
        fputs(a ? ", '' " : "", d->gp);
        if (a == 0)
            gp_string(d->gp, path);
        fprintf(d->gp, " using %zu:%zu:%zu%s title ", 2 + 3 * a, 3 + 3 * a, 4 + 3 * a,
                a == 0 ? ":xtic(1)" : "");
        gp_string(d->gp, rd->arms[a].name);
        fprintf(d->gp, " lc rgb '%s'", palette[a % PALETTE_N]);
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

/* TPS over time of every guest and repeat of one distinct run. */
static int plot_tps_time(struct drawing *d, const struct results_sample *first, size_t number)
{
    const struct results_data *rd = d->r->rd;
    const struct results_sample **pts = xcalloc(rd->n_samples + 1, sizeof(*pts));
    size_t n = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (!strcmp(s->metric, "tps_interval") && s->has_t && same_spec(s, first))
            pts[n++] = s;
    }
    qsort(pts, n, sizeof(*pts), by_series_then_t);
    char name[64], path[PATH_MAX], svg[64], variants[256] = "";
    snprintf(name, sizeof(name), "tps-time-%zu.dat", number);
    snprintf(svg, sizeof(svg), "tps-time-%zu.svg", number);
    FILE *f = data_file(d, name, path, sizeof(path));
    if (!f) {
        free(pts);
        return -1;
    }
    /* one data block and one line per (seq, guest) */
    char *cmd = NULL;
    size_t cmd_len = 0, series = 0;
    FILE *plot = open_memstream(&cmd, &cmd_len);
    if (!plot)
        abort();
    bool warmup = false;
    for (size_t i = 0; i < n; i++) {
        const struct results_sample *s = pts[i];
        bool starts = i == 0 || s->seq != pts[i - 1]->seq || s->guest != pts[i - 1]->guest;
        if (starts && i > 0)
            fputs("\n\n", f);
        fprintf(f, "%.6g %.6g\n", s->t, s->value);
        warmup |= s->t < 0;
        if (!starts)
            continue;
        char title[96];
        if (s->guest > 0)
            snprintf(title, sizeof(title), "guest %d, repeat %d", s->guest, s->repeat);
        else
            snprintf(title, sizeof(title), "repeat %d", s->repeat);
        fputs(series ? ", ''" : "plot ", plot);
        if (!series)
            gp_string(plot, path);
        fprintf(plot, " index %zu using 1:2 with lines lw 1.5 lc rgb '%s' dt %d title ", series,
                palette[(size_t)s->guest % PALETTE_N], 1 + (s->repeat > 0 ? s->repeat - 1 : 0) % 5);
        gp_string(plot, title);
        series++;
    }
    fclose(plot);
    fclose(f);
    free(pts);
    for (size_t i = 0; i < first->n_variants; i++)
        snprintf(variants + strlen(variants), sizeof(variants) - strlen(variants), "%s%d",
                 i ? ", " : "", first->variants[i]);
    add_plot(d, svg, "TPS over time: arm %s, variant%s %s", first->arm,
             first->n_variants == 1 ? "" : "s", first->n_variants ? variants : "all");
    if (warmup)
        fputs("set object 1 rectangle from graph 0, graph 0 to first 0, graph 1 behind "
              "fillcolor rgb '#e4e4e4' fillstyle solid 1.0 noborder\n"
              "set label 1 'warm-up' at graph 0.01, graph 0.95 left textcolor rgb '#555555'\n",
              d->gp);
    fprintf(d->gp,
            "set xlabel 'seconds since the measure phase started'\nset ylabel 'TPS "
            "(per report interval)'\nset yrange [0:*]\nset key outside right top\n%s\n",
            cmd);
    free(cmd);
    return 0;
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
        if (strcmp(s->metric, "host_cache_data_bytes") != 0 || strcmp(s->when, "after") != 0)
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
    char path[PATH_MAX];
    FILE *f = groups ? data_file(d, "host-cache.dat", path, sizeof(path)) : NULL;
    if (groups && !f)
        rc = -1;
    for (size_t g = 0; f && g < groups; g++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const struct results_sample *s = &rd->samples[i];
            const struct results_run *run = results_find_run(rd, s->seq);
            const char *m = run && *run->disk_cache ? run->disk_cache : "unknown";
            if (!strcmp(s->metric, "host_cache_data_bytes") && !strcmp(s->when, "after") &&
                !strcmp(m, mode[g]) && !strcmp(s->arm, arm[g]))
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
                 "mode (mean per guest; error bars: 95%% CI)");
        fputs("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
              "set style fill solid 1.0 border -1\nset yrange [0:*]\nset ylabel 'MiB'\n"
              "set xlabel 'disk cache mode (arm)'\nset xtics noenhanced\nplot ",
              d->gp);
        gp_string(d->gp, path);
        fputs(" using 2:3:4:xtic(1) notitle lc rgb '#4477aa', '' using 0:2:(sprintf('%.1f', $2)) "
              "with labels offset 0,0.8 notitle\n",
              d->gp);
    }
    free(mode);
    free(arm);
    free(vals);
    return rc;
}

static int run_gnuplot(struct drawing *d, const char *script)
{
    char log_path[PATH_MAX];
    path_join(log_path, sizeof(log_path), d->tmp, "gnuplot.log");
    d->files = xrealloc(d->files, (d->n_files + 1) * sizeof(char *));
    if (!d->files || !(d->files[d->n_files++] = strdup(log_path)))
        abort();
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

int plot_draw(const struct report *r, const char *out_dir, struct plot_set *set)
{
    struct drawing d = {.r = r, .set = set};
    char script[PATH_MAX] = "";
    int rc = -1;
    plot_set_clear(set);
    const char *tmpdir = getenv("TMPDIR");
    snprintf(d.tmp, sizeof(d.tmp), "%s/vbed-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!realpath(out_dir, d.out)) {
        log_error("Cannot find the output directory '%s': %s", out_dir, strerror(errno));
        return -1;
    }
    if (!mkdtemp(d.tmp)) {
        log_error("Cannot make a temporary directory '%s': %s", d.tmp, strerror(errno));
        return -1;
    }
    d.gp = data_file(&d, "plots.gp", script, sizeof(script));
    if (!d.gp)
        goto cleanup;
    fputs("# vbed report: the plots of one results directory\n"
          "set terminal svg size 900,420 fixed font 'sans,11' noenhanced background rgb 'white'\n",
          d.gp);
    rc = plot_tps_bars(&d);
    if (rc == 0)
        rc = plot_tps_times(&d);
    if (rc == 0)
        rc = plot_host_cache(&d);
    if (fclose(d.gp) != 0 && rc == 0) {
        log_error("Cannot write '%s': %s", script, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && set->n > 0)
        rc = run_gnuplot(&d, script);
cleanup:
    for (size_t i = 0; i < d.n_files; i++) {
        unlink(d.files[i]);
        free(d.files[i]);
    }
    free(d.files);
    rmdir(d.tmp);
    if (rc != 0)
        plot_set_clear(set);
    return rc;
}

void plot_set_clear(struct plot_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->plots[i].file);
        free(set->plots[i].title);
    }
    free(set->plots);
    set->plots = NULL;
    set->n = 0;
}
