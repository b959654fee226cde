/* html.c: report.html (see html.h). Every text goes through html_text()
 * (libxml2's escaping); the SVG files of gnuplot are parsed with libxml2,
 * their ids prefixed so that several plots can live in one page, and
 * inlined. */
#include "report/html.h"
#include "report/answer.h"
#include <math.h>
#include "model/predict.h"
#include "model/speedfit.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/outfile.h"
#include "util/safefile.h"
#include "util/paths.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char style[] =
    "body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}"
    "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ccc}"
    "h3{font-size:1.05em;margin-top:1.2em}"
    "table{border-collapse:collapse;margin:.6em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
    "th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".warning{background:#fff3cd;border:2px solid #d39e00;padding:.7em 1em;font-weight:bold}"
    ".muted{color:#666}figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
    "figcaption{color:#444;font-size:.95em}pre{background:#f7f7f7;padding:.8em;overflow:auto}"
    "#answer{background:#e8f4ea;border-left:6px solid #1b7837;padding:.2em 1em .6em}"
    "#answer ul{margin:.3em 0}details{margin:.6em 0}summary{cursor:pointer;font-weight:bold}"
    "@media print{details{display:block}}";

/* The one way text reaches the page. */
static void html_text(FILE *out, const char *s)
{
    xmlChar *esc = xmlEncodeSpecialChars(NULL, (const xmlChar *)(s ? s : ""));
    if (!esc)
        abort();
    fputs((const char *)esc, out);
    xmlFree(esc);
}

static void html_table(FILE *out, const struct report_table *t)
{
    fputs("<table>\n<thead><tr>", out);
    for (size_t c = 0; c < t->ncols; c++) {
        fputs("<th>", out);
        html_text(out, t->cells[c]);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t r = 1; r <= t->nrows; r++) {
        fputs("<tr>", out);
        for (size_t c = 0; c < t->ncols; c++) {
            fputs(t->numeric & (1UL << c) ? "<td class=\"num\">" : "<td>", out);
            html_text(out, t->cells[r * t->ncols + c]);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n", out);
}

/* "#id" (a whole href) and "url(#id)" references in an attribute value,
 * prefixed. */
static xmlChar *prefixed_refs(const xmlChar *value, const char *prefix, bool href)
{
    const char *v = (const char *)value;
    size_t plen = strlen(prefix), n = 0;
    for (const char *p = v; (p = strstr(p, "url(#")); p++)
        n++;
    char *out = xcalloc(1, strlen(v) + (n + 1) * plen + 1);
    char *o = out;
    if (href && v[0] == '#') {
        o += sprintf(o, "#%s", prefix);
        v++;
    }
    for (const char *p; (p = strstr(v, "url(#")); v = p + 5) {
        memcpy(o, v, (size_t)(p - v) + 5);
        o += p - v + 5;
        o += sprintf(o, "%s", prefix);
    }
    strcpy(o, v);
    return (xmlChar *)out;
}

static void prefix_ids(xmlNodePtr node, const char *prefix)
{
    for (; node; node = node->next) {
        if (node->type != XML_ELEMENT_NODE)
            continue;
        for (xmlAttrPtr a = node->properties; a; a = a->next) {
            xmlChar *value = xmlNodeGetContent((xmlNodePtr)a);
            if (!value)
                continue;
            xmlChar *fixed = NULL;
            bool href = xmlStrEqual(a->name, BAD_CAST "href");
            if (xmlStrEqual(a->name, BAD_CAST "id")) {
                fixed = xmlStrdup(BAD_CAST prefix);
                fixed = xmlStrcat(fixed, value);
            } else if ((href && value[0] == '#') || xmlStrstr(value, BAD_CAST "url(#")) {
                xmlChar *p = prefixed_refs(value, prefix, href);
                fixed = xmlStrdup(p);
                free(p);
            }
            if (fixed)
                xmlSetNsProp(node, a->ns, a->name, fixed);
            xmlFree(fixed);
            xmlFree(value);
        }
        prefix_ids(node->children, prefix);
    }
}

/* Inline one SVG file of the plots' directory. -1 reported. */
static int inline_svg(FILE *out, const struct plot_set *plots, const char *file, const char *prefix)
{
    char *text = plots->dirfd > 0 ? safefile_read_small(plots->dirfd, file, PLOT_SVG_MAX) : NULL;
    if (!text) {
        log_error("Cannot read the plot '%s/%s': %s", plots->dir, file,
                  plots->dirfd > 0 ? safefile_why(errno) : "no directory of plots");
        return -1;
    }
    xmlDocPtr doc = xmlReadMemory(text, (int)strlen(text), file, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(text);
    xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root || !xmlStrEqual(root->name, BAD_CAST "svg")) {
        const xmlError *e = doc ? NULL : xmlGetLastError();
        log_error("Cannot read the plot '%s/%s': %s", plots->dir, file,
                  e && e->message ? e->message : "not an SVG file");
        xmlFreeDoc(doc);
        return -1;
    }
    prefix_ids(root, prefix);
    xmlBufferPtr buf = xmlBufferCreate();
    if (!buf)
        abort();
    xmlNodeDump(buf, doc, root, 0, 0);
    fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), out);
    fputs("\n", out);
    xmlBufferFree(buf);
    xmlFreeDoc(doc);
    return 0;
}

static int figure(FILE *out, const struct plot_set *plots, size_t i)
{
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "p%zu-", i + 1);
    fputs("<figure>\n", out);
    int rc = inline_svg(out, plots, plots->plots[i].file, prefix);
    fputs("<figcaption>", out);
    html_text(out, plots->plots[i].title);
    fputs(" (", out);
    html_text(out, plots->plots[i].file);
    fputs(")</figcaption>\n</figure>\n", out);
    return rc;
}

static void header(FILE *out, const struct report *r)
{
    const struct results_data *rd = r->rd;
    const char *base = strrchr(rd->dir, '/');
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>vbed "
          "report: ",
          out);
    html_text(out, rd->scenario_name);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>vbed report: ", style);
    html_text(out, rd->scenario_name);
    fputs("</h1>\n<p class=\"muted\">", out);
    html_text(out, *rd->status ? rd->status : "status unknown");
    fputs(", ", out);
    html_text(out, rd->started_at);
    fputs(" to ", out);
    html_text(out, *rd->ended_at ? rd->ended_at : "?");
    fputs(", results directory ", out);
    html_text(out, base && base[1] ? base + 1 : rd->dir);
    fputs(", accel ", out);
    html_text(out, *rd->accel ? rd->accel : "unknown");
    if (*rd->order_mode) {
        char order[96];
        if (rd->has_order_seed)
            snprintf(order, sizeof(order), ", run order %s (seed %lld)", rd->order_mode,
                     (long long)rd->order_seed);
        else
            snprintf(order, sizeof(order), ", run order %s", rd->order_mode);
        html_text(out, order);
    }
    fputs("</p>\n", out);
    const char *warn = report_accel_warning(r);
    if (warn) {
        fputs("<p class=\"warning\">Software emulation (TCG). ", out);
        html_text(out, warn);
        fputs("</p>\n", out);
    }
}

static void html_lines(FILE *out, char *text);

/* Each variant's answer (answer.h) as a list, in the first screen */
static void answer(FILE *out, const struct report *r)
{
    bool any = false;
    for (size_t v = 0; v < r->rd->n_variants; v++) {
        char text[4096], title[512];
        report_answer_text(r, v, text, sizeof(text));
        if (!*text)
            continue;
        if (!any)
            fputs("<section id=\"answer\">\n<h2>Answer</h2>\n", out);
        any = true;
        if (r->rd->n_variants > 1) {
            snprintf(title, sizeof(title), "Variant %d: %s", r->variants[v].variant->index,
                     r->variants[v].variant->label);
            fputs("<h3>", out);
            html_text(out, title);
            fputs("</h3>\n", out);
        }
        html_lines(out, text);
    }
    if (any)
        fputs("</section>\n", out);
}

/* The plot of a variant's time split (plot.c's gap-<index>.svg), or -1. */
static long gap_plot(const struct plot_set *plots, int index)
{
    char file[64];
    snprintf(file, sizeof(file), "gap-%d.svg", index);
    for (size_t i = 0; i < plots->n; i++)
        if (!strcmp(plots->plots[i].file, file))
            return (long)i;
    return -1;
}

/* each line of text (cut in place) as an item of a "gap" list; nothing if empty */
static void html_lines(FILE *out, char *text)
{
    if (!*text)
        return;
    fputs("<ul class=\"gap\">\n", out);
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        fputs("<li>", out);
        html_text(out, line);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

/* Predicted against measured TPS per guest, one row per tuned arm, each
 * with its 95 % interval, and the untuned guest's TPS ("no change") as a
 * dashed line: drawn here as SVG (no gnuplot needed); nothing when no arm
 * has both figures. */
static void prediction_plot(FILE *out, const struct report *r, size_t v)
{
    struct prediction p[16];
    const char *names[16];
    size_t n = 0;
    double hi = 0, g_tps = NAN;
    if (r->first_guest_arm >= 0)
        g_tps = r->variants[v].cells[r->first_guest_arm].per_guest_stats.mean;
    for (size_t a = 0; a < r->rd->n_arms && n < 16; a++) {
        predict_arm(r, v, a, &p[n]);
        if (!p[n].valid || !isfinite(p[n].measured) || !isfinite(p[n].predicted))
            continue;
        double ci = isfinite(p[n].measured_ci) ? p[n].measured_ci : 0;
        hi = fmax(hi, fmax(p[n].predicted + p[n].predicted_ci, p[n].measured + ci));
        names[n++] = r->rd->arms[a].name;
    }
    if (!n || !(hi > 0))
        return;
    if (isfinite(g_tps))
        hi = fmax(hi, g_tps);
    hi *= 1.1;
    const int w = 640, left = 130, right = 20, row = 34, top = 24;
    int h = top + row * (int)n + 30;
    double scale = (w - left - right) / hi;
    fprintf(out, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            w, h, w, h);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", left, h - 24,
            w - right, h - 24);
    for (int k = 0; k <= 4; k++) {
        double x = left + scale * hi * k / 4;
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.3g</text>\n", x, h - 8,
                hi * k / 4);
    }
    if (isfinite(g_tps))
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
                     "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">no "
                     "change</text>\n",
                left + scale * g_tps, top - 6, left + scale * g_tps, h - 24, left + scale * g_tps, top - 10);
    for (size_t i = 0; i < n; i++) {
        double y = top + row * (double)i + row / 2.0;
        double mci = isfinite(p[i].measured_ci) ? p[i].measured_ci : 0;
        fputs("<text x=\"4\" y=\"", out);
        fprintf(out, "%.1f\">", y + 4);
        html_text(out, names[i]);
        fputs("</text>\n", out);
        /* predicted: hollow circle above, measured: filled square below */
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#7570b3\"/>"
                     "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"#7570b3\" "
                     "stroke-width=\"2\"/>\n",
                left + scale * (p[i].predicted - p[i].predicted_ci), y - 6,
                left + scale * (p[i].predicted + p[i].predicted_ci), y - 6, left + scale * p[i].predicted, y - 6);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d95f02\"/>"
                     "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"#d95f02\"/>\n",
                left + scale * fmax(0, p[i].measured - mci), y + 6, left + scale * (p[i].measured + mci), y + 6,
                left + scale * p[i].measured - 4.5, y + 1.5);
    }
    fputs("</svg>\n<figcaption>Predicted (circle) and measured (square) TPS per guest of each tuned arm, "
          "with their 95 % intervals (none from one run); dashed: the untuned guest's TPS per guest, what "
          "&quot;no change&quot; predicts.</figcaption>\n</figure>\n",
          out);
}

/* The layers and where the time goes, of one variant, its plot inline. */
static int gap_section(FILE *out, const struct report *r, size_t v, const struct plot_set *plots)
{
    int rc = 0;
    fputs("<details><summary>Layers, per transaction</summary>\n", out);
    struct report_table *t = report_layers_table(r, v);
    html_table(out, t);
    report_table_free(t);
    fputs("</details>\n<details><summary>Where the time goes, per thread and transaction (ms)</summary>\n", out);
    t = report_time_table(r, v);
    html_table(out, t);
    report_table_free(t);
    t = report_tasks_table(r, v);
    if (t->nrows) {
        fputs("<h3>A guest&apos;s CPU per transaction, by task, ms</h3>\n", out);
        html_table(out, t);
    }
    report_table_free(t);
    fputs("</details>\n", out);
    t = report_gap_table(r, v);
    if (t->nrows)
        html_table(out, t);
    report_table_free(t);
    char text[8192];
    report_gap_text(r, v, text, sizeof(text));
    html_lines(out, text);
    t = report_prediction_table(r, v);
    if (r->explain)
        report_prediction_text(r, v, text, sizeof(text));
    else
        report_prediction_brief(r, v, text, sizeof(text));
    if (t->nrows || *text)
        fputs("<h3>Predicted from the untuned guest&apos;s budget</h3>\n", out);
    if (t->nrows)
        html_table(out, t);
    report_table_free(t);
    html_lines(out, text);
    prediction_plot(out, r, v);
    long k = gap_plot(plots, r->variants[v].variant->index);
    if (k > 0) /* plot 0 heads the page */
        rc = figure(out, plots, (size_t)k);
    return rc;
}

static int variants(FILE *out, const struct report *r, const struct plot_set *plots)
{
    int rc = 0;
    for (size_t v = 0; v < r->rd->n_variants; v++) {
        char title[512], ratios[1024];
        snprintf(title, sizeof(title), "Variant %d: %s", r->variants[v].variant->index,
                 r->variants[v].variant->label);
        fputs("<h2>", out);
        html_text(out, title);
        fputs("</h2>\n", out);
        struct report_table *t = report_tps_table(r, v);
        html_table(out, t);
        report_table_free(t);
        report_ratios_text(r, v, ratios, sizeof(ratios));
        if (*ratios) {
            fprintf(out, "<p>Ratios of mean %s: ", r->headline);
            html_text(out, ratios);
            fputs("</p>\n", out);
        }
        speed_ratios_text(r, v, ratios, sizeof(ratios));
        if (*ratios) {
            fputs("<p>", out);
            html_text(out, ratios);
            fputs("</p>\n", out);
        }
        fputs("<details><summary>How each arm was measured, and the figures that explain it</summary>\n", out);
        t = report_conditions_table(r, v);
        html_table(out, t);
        report_table_free(t);
        t = report_figures_table(r, v);
        html_table(out, t);
        report_table_free(t);
        fputs("</details>\n", out);
        char ps[2048];
        report_pscost_text(r, v, ps, sizeof(ps));
        if (*ps) {
            fputs("<p>", out);
            html_text(out, ps);
            fputs("</p>\n", out);
        }
        if (r->has_layers)
            rc |= gap_section(out, r, v, plots);
    }
    struct report_table *sc = report_scaling_table(r);
    if (sc) {
        fputs("<h2>Scaling with the number of guests</h2>\n", out);
        html_table(out, sc);
        report_table_free(sc);
        if (r->explain) {
            fputs("<p class=\"muted\">", out);
            html_text(out, report_scaling_rule);
            fputs("</p>\n", out);
        }
    }
    fputs("<p class=\"muted\">", out);
    if (r->explain) {
        html_text(out, report_tps_rule);
        fputs(" ", out);
        html_text(out, report_figures_rule);
        if (r->has_layers) {
            fputs(" ", out);
            html_text(out, report_gap_rule);
            fputs(" ", out);
            html_text(out, report_prediction_rule);
        }
    } else {
        html_text(out, report_method_pointer);
    }
    fputs("</p>\n", out);
    return rc;
}

static void context(FILE *out, const struct report *r)
{
    const struct results_data *rd = r->rd;
    if (r->n_notes) {
        fputs("<h2>Notes</h2>\n<ul>\n", out);
        for (size_t i = 0; i < r->n_notes; i++) {
            fputs("<li>", out);
            html_text(out, r->notes[i].text);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    static const char *const head[] = {"what", "value"};
    struct report_table *t = report_table_new(2, head, 0);
    for (size_t i = 0; i < rd->n_context; i++) {
        const char *row[] = {rd->context[i].key, rd->context[i].value};
        report_table_add(t, row);
    }
    fputs("<h2>Context</h2>\n", out);
    html_table(out, t);
    report_table_free(t);
    if (rd->scenario_text) {
        fputs("<h2>Scenario</h2>\n<pre>", out);
        html_text(out, rd->scenario_text);
        fputs("</pre>\n", out);
    }
}

int html_write_report(const struct report *r, const struct plot_set *plots, int dirfd,
                      const char *out_dir, const char *no_plots_reason)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), out_dir, "report.html");
    FILE *out;
    struct outfile *of = outfile_begin(dirfd, "report.html", path, &out);
    if (!of)
        return -1;
    int rc = 0;
    header(out, r);
    /* the answer first, in words and then the bars; the tables below */
    answer(out, r);
    if (plots->n > 0)
        rc |= figure(out, plots, 0);
    else {
        fputs("<p class=\"warning\">No plots: ", out);
        html_text(out, no_plots_reason ? no_plots_reason : "gnuplot did not draw them.");
        fputs("</p>\n", out);
    }
    rc |= variants(out, r, plots);
    /* the rest of the plots (each variant's time split is in its section) */
    bool titled = false;
    for (size_t i = 1; i < plots->n; i++) {
        if (r->has_layers && !strncmp(plots->plots[i].file, "gap-", 4))
            continue;
        if (!titled)
            fputs("<h2>Plots</h2>\n", out);
        titled = true;
        rc |= figure(out, plots, i);
    }
    context(out, r);
    fputs("</body>\n</html>\n", out);
    if (rc != 0) {
        outfile_abort(of);
        return -1;
    }
    return outfile_commit(of);
}
