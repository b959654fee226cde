/* compare.c: two results directories side by side (see compare.h). */
#include "report/compare.h"
#include "util/xalloc.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *compare_verdict_name(enum compare_verdict v)
{
    static const char *const names[] = {"significant", "not significant", "too few repeats",
                                        "only in A", "only in B"};
    return names[v];
}

static const struct report_cell *find_cell(const struct report *r, const char *variant,
                                           const char *arm)
{
    for (size_t v = 0; v < r->rd->n_variants; v++) {
        if (strcmp(r->variants[v].variant->label, variant) != 0)
            continue;
        for (size_t a = 0; a < r->rd->n_arms; a++)
            if (!strcmp(r->variants[v].cells[a].arm->name, arm))
                return &r->variants[v].cells[a];
    }
    return NULL;
}

static bool has_variant(const struct report *r, const char *label)
{
    for (size_t v = 0; v < r->rd->n_variants; v++)
        if (!strcmp(r->variants[v].variant->label, label))
            return true;
    return false;
}

/* Rows grow as they come: repeated or empty labels on either side can make
 * more rows than variants x arms (one B-only row per matching A variant). */
static void add_row(struct comparison *c, size_t *cap, const char *variant,
                    const struct report_cell *a, const struct report_cell *b)
{
    if (c->n_rows == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        c->rows = xrealloc(c->rows, *cap * sizeof(*c->rows));
    }
    struct compare_row *row = &c->rows[c->n_rows++];
    memset(row, 0, sizeof(*row));
    row->variant = variant;
    row->arm = a ? a->arm->name : b->arm->name;
    row->a = a;
    row->b = b;
    row->diff_pct = NAN;
    if (!a || !b) {
        row->verdict = a ? VERDICT_ONLY_A : VERDICT_ONLY_B;
        return;
    }
    if (a->tps_stats.n > 0 && b->tps_stats.n > 0 && a->tps_stats.mean != 0)
        row->diff_pct = (b->tps_stats.mean - a->tps_stats.mean) / a->tps_stats.mean * 100;
    /* B - A: a positive t means B is faster */
    if (stats_welch_test(b->tps, b->tps_stats.n, a->tps, a->tps_stats.n, &row->welch) < 0)
        row->verdict = VERDICT_TOO_FEW;
    else
        row->verdict = row->welch.significant ? VERDICT_SIGNIFICANT : VERDICT_NOT_SIGNIFICANT;
}

struct comparison *compare_build(const struct report *a, const struct report *b)
{
    struct comparison *c = xcalloc(1, sizeof(*c));
    size_t cap = 0;
    c->a = a;
    c->b = b;
    /* A's order first, then what only B has */
    for (size_t v = 0; v < a->rd->n_variants; v++) {
        const char *label = a->variants[v].variant->label;
        for (size_t i = 0; i < a->rd->n_arms; i++) {
            const struct report_cell *ca = &a->variants[v].cells[i];
            add_row(c, &cap, label, ca, find_cell(b, label, ca->arm->name));
        }
        bool repeated = false; /* a label A repeats: its B-only rows are there already */
        for (size_t w = 0; w < v && !repeated; w++)
            repeated = !strcmp(a->variants[w].variant->label, label);
        for (size_t i = 0; i < b->rd->n_arms && !repeated; i++)
            if (!find_cell(a, label, b->rd->arms[i].name)) {
                const struct report_cell *cb = find_cell(b, label, b->rd->arms[i].name);
                if (cb)
                    add_row(c, &cap, label, NULL, cb);
            }
    }
    for (size_t v = 0; v < b->rd->n_variants; v++) {
        const char *label = b->variants[v].variant->label;
        if (has_variant(a, label))
            continue;
        for (size_t i = 0; i < b->rd->n_arms; i++)
            add_row(c, &cap, label, NULL, &b->variants[v].cells[i]);
    }
    return c;
}

void compare_free(struct comparison *c)
{
    if (!c)
        return;
    free(c->rows);
    free(c);
}

/* The mean TPS of a side, NAN when it lacks the cell or has no repeat. */
static double cell_mean(const struct report_cell *cell)
{
    return cell && cell->tps_stats.n ? cell->tps_stats.mean : NAN;
}

static struct report_table *human_table(const struct comparison *c)
{
    /* TPS, or MB/s for raw I/O: the headline of side A (report.h) */
    char ha[32], hb[32];
    snprintf(ha, sizeof(ha), "%s A", c->a->headline);
    snprintf(hb, sizeof(hb), "%s B", c->a->headline);
    const char *const head[] = {"variant", "arm", "n A", ha, "n B", hb, "difference", "p", "verdict"};
    struct report_table *t = report_table_new(9, head, 0xFC);
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct compare_row *r = &c->rows[i];
        char na[16] = "-", nb[16] = "-", ma[32], mb[32], d[32], p[32];
        if (r->a)
            snprintf(na, sizeof(na), "%zu", r->a->tps_stats.n);
        if (r->b)
            snprintf(nb, sizeof(nb), "%zu", r->b->tps_stats.n);
        bool tested = r->verdict <= VERDICT_NOT_SIGNIFICANT;
        const char *row[] = {
            r->variant, r->arm, na, report_human(ma, sizeof(ma), "%.2f", cell_mean(r->a)), nb,
            report_human(mb, sizeof(mb), "%.2f", cell_mean(r->b)),
            report_human(d, sizeof(d), "%+.1f%%", r->diff_pct),
            report_human(p, sizeof(p), r->welch.p < 0.0001 ? "%.1e" : "%.4f",
                         tested ? r->welch.p : NAN),
            compare_verdict_name(r->verdict)};
        report_table_add(t, row);
    }
    return t;
}

static struct report_table *machine_table(const struct comparison *c)
{
    static const char *const head[] = {"variant_label", "arm",        "n_a",      "tps_mean_a",
                                       "n_b",           "tps_mean_b", "diff_pct", "welch_t",
                                       "welch_df",      "welch_p",    "verdict"};
    struct report_table *t = report_table_new(11, head, 0);
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct compare_row *r = &c->rows[i];
        char b[11][32] = {{0}};
        bool tested = r->verdict <= VERDICT_NOT_SIGNIFICANT;
        if (r->a)
            snprintf(b[2], 32, "%zu", r->a->tps_stats.n);
        if (r->b)
            snprintf(b[4], 32, "%zu", r->b->tps_stats.n);
        const char *row[] = {r->variant, r->arm, b[2], report_number(b[3], 32, cell_mean(r->a)),
                             b[4], report_number(b[5], 32, cell_mean(r->b)),
                             report_number(b[6], 32, r->diff_pct),
                             report_number(b[7], 32, tested ? r->welch.t : NAN),
                             report_number(b[8], 32, tested ? r->welch.df : NAN),
                             report_number(b[9], 32, tested ? r->welch.p : NAN),
                             compare_verdict_name(r->verdict)};
        report_table_add(t, row);
    }
    return t;
}

/* ---- where the time goes, A vs B ---- */

static const struct gap_split *split_of(const struct report_cell *c)
{
    return c && c->gap.valid ? &c->gap : NULL;
}

static bool has_gap(const struct compare_row *r) { return split_of(r->a) || split_of(r->b); }

/* The seconds of figure k of a split: the parts, then the residual. */
static double gap_figure(const struct gap_split *s, int k)
{
    return !s ? NAN : k < GAP_PARTS ? s->part[k] : s->residual;
}

static const char *gap_figure_name(int k) { return k < GAP_PARTS ? gap_split_part_name(k) : "residual"; }

/* "76.1 pts (63.12 ms)", "n/a", "-" (no split on that side) */
static const char *gap_cell(char *buf, size_t len, const struct gap_split *s, int k)
{
    if (!s)
        return "-";
    double sec = gap_figure(s, k), pts = gap_points(s, sec);
    if (isnan(sec))
        return "n/a";
    if (isnan(pts))
        snprintf(buf, len, "%.2f ms", 1000 * sec);
    else
        snprintf(buf, len, "%.1f pts (%.2f ms)", pts, 1000 * sec);
    return buf;
}

static struct report_table *gap_table(const struct comparison *c)
{
    static const char *const head[] = {"variant", "arm", "figure", "A", "B", "moved"};
    struct report_table *t = report_table_new(6, head, 0x38);
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct compare_row *r = &c->rows[i];
        if (!has_gap(r))
            continue;
        const struct gap_split *a = split_of(r->a), *b = split_of(r->b);
        char la[32], lb[32], lm[32];
        const char *loss[] = {r->variant, r->arm, "loss",
                              a ? report_human(la, sizeof(la), "%.1f %%", 100 * a->loss) : "-",
                              b ? report_human(lb, sizeof(lb), "%.1f %%", 100 * b->loss) : "-",
                              a && b ? report_human(lm, sizeof(lm), "%+.1f pts",
                                                    100 * (b->loss - a->loss))
                                     : "-"};
        report_table_add(t, loss);
        for (int k = 0; k <= GAP_PARTS; k++) {
            char ca[64], cb[64], m[32];
            double pa = a ? gap_points(a, gap_figure(a, k)) : NAN,
                   pb = b ? gap_points(b, gap_figure(b, k)) : NAN;
            double moved = fabs(pb - pa) < 0.05 ? 0 : pb - pa; /* no "-0.0" */
            const char *row[] = {r->variant,
                                 r->arm,
                                 gap_figure_name(k),
                                 gap_cell(ca, sizeof(ca), a, k),
                                 gap_cell(cb, sizeof(cb), b, k),
                                 report_human(m, sizeof(m), "%+.1f pts", moved)};
            report_table_add(t, row);
        }
    }
    return t;
}

static struct json_object *jnum(double v);

/* a side's split: loss, and per figure ms per transaction and points */
static struct json_object *jsplit(const struct gap_split *s)
{
    if (!s)
        return NULL;
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "loss", jnum(s->loss));
    json_object_object_add(o, "difference_ms_per_tx", jnum(1000 * s->delta));
    for (int k = 0; k <= GAP_PARTS; k++) {
        struct json_object *p = json_object_new_object();
        double sec = gap_figure(s, k);
        json_object_object_add(p, "ms_per_tx", jnum(1000 * sec));
        json_object_object_add(p, "points", jnum(gap_points(s, sec)));
        json_object_object_add(o, k < GAP_PARTS ? gap_part_key(k) : "residual", p);
    }
    json_object_object_add(o, "explained", json_object_new_boolean(s->explained));
    return o;
}

static bool any_gap(const struct comparison *c)
{
    for (size_t i = 0; i < c->n_rows; i++)
        if (has_gap(&c->rows[i]))
            return true;
    return false;
}

static struct json_object *jside(const struct report *r)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "scenario", json_object_new_string(r->rd->scenario_name));
    json_object_object_add(o, "scenario_sha256", json_object_new_string(r->rd->scenario_sha256));
    json_object_object_add(o, "status", json_object_new_string(r->rd->status));
    json_object_object_add(o, "started_at", json_object_new_string(r->rd->started_at));
    json_object_object_add(o, "accel", json_object_new_string(r->rd->accel));
    return o;
}

static struct json_object *jnum(double v)
{
    char buf[32];
    return isnan(v) || isinf(v) ? NULL
                                : json_object_new_double_s(v, report_number(buf, sizeof(buf), v));
}

static void print_json(const struct comparison *c, FILE *out)
{
    struct json_object *o = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(o, "a", jside(c->a));
    json_object_object_add(o, "b", jside(c->b));
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct compare_row *r = &c->rows[i];
        bool tested = r->verdict <= VERDICT_NOT_SIGNIFICANT;
        struct json_object *row = json_object_new_object();
        json_object_object_add(row, "variant_label", json_object_new_string(r->variant));
        json_object_object_add(row, "arm", json_object_new_string(r->arm));
        json_object_object_add(row, "n_a",
                               r->a ? json_object_new_int64((int64_t)r->a->tps_stats.n) : NULL);
        json_object_object_add(row, "tps_mean_a", jnum(cell_mean(r->a)));
        json_object_object_add(row, "n_b",
                               r->b ? json_object_new_int64((int64_t)r->b->tps_stats.n) : NULL);
        json_object_object_add(row, "tps_mean_b", jnum(cell_mean(r->b)));
        json_object_object_add(row, "diff_pct", jnum(r->diff_pct));
        json_object_object_add(row, "welch_t", jnum(tested ? r->welch.t : NAN));
        json_object_object_add(row, "welch_df", jnum(tested ? r->welch.df : NAN));
        json_object_object_add(row, "welch_p", jnum(tested ? r->welch.p : NAN));
        json_object_object_add(row, "verdict",
                               json_object_new_string(compare_verdict_name(r->verdict)));
        if (has_gap(r)) {
            struct json_object *g = json_object_new_object();
            json_object_object_add(g, "a", jsplit(split_of(r->a)));
            json_object_object_add(g, "b", jsplit(split_of(r->b)));
            json_object_object_add(row, "gap", g);
        }
        json_object_array_add(rows, row);
    }
    json_object_object_add(o, "rows", rows);
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

static void print_side(const char *name, const struct report *r, bool md, FILE *out)
{
    fprintf(out, "%s%s: %s (%s), %s, accel %s\n", md ? "- " : "", name, r->rd->scenario_name,
            *r->rd->status ? r->rd->status : "status unknown", r->rd->started_at,
            *r->rd->accel ? r->rd->accel : "unknown");
}

/* The answer first: the pairs that moved beyond noise, largest first, and
 * how many did not (or could not be told). */
static void print_answer(const struct comparison *c, bool md, FILE *out)
{
    size_t moved = 0, quiet = 0, few = 0;
    size_t *order = xcalloc(c->n_rows + 1, sizeof(size_t));
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct compare_row *r = &c->rows[i];
        if (r->verdict == VERDICT_SIGNIFICANT)
            order[moved++] = i;
        else if (r->verdict == VERDICT_NOT_SIGNIFICANT)
            quiet++;
        else if (r->verdict == VERDICT_TOO_FEW)
            few++;
    }
    for (size_t i = 1; i < moved; i++)
        for (size_t k = i; k > 0 && fabs(c->rows[order[k]].diff_pct) > fabs(c->rows[order[k - 1]].diff_pct); k--) {
            size_t t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    fprintf(out, "%sAnswer\n%s", md ? "\n## " : "\n", md ? "\n" : "");
    if (!moved)
        fprintf(out, "%sNo arm moved beyond noise (Welch's t-test, p < 0.05).\n", md ? "- " : "  ");
    for (size_t i = 0; i < moved; i++) {
        const struct compare_row *r = &c->rows[order[i]];
        fprintf(out, "%s%s, %s: %s %+.1f %% from A to B (p = %.3g).\n", md ? "- " : "  ", r->arm, r->variant,
                c->a->headline, r->diff_pct, r->welch.p);
    }
    if (quiet || few)
        fprintf(out, "%s%zu other pair%s within noise, %zu with too few repeats to tell.\n", md ? "- " : "  ",
                quiet, quiet == 1 ? "" : "s", few);
    free(order);
}

void compare_print(const struct comparison *c, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        print_json(c, out);
        return;
    }
    struct report_table *t = f == REPORT_CSV ? machine_table(c) : human_table(c);
    if (f == REPORT_CSV) {
        report_table_print(t, f, out, "");
        report_table_free(t);
        return;
    }
    bool md = f == REPORT_MARKDOWN;
    fprintf(out, "%svbed compare\n%s", md ? "# " : "", md ? "\n" : "");
    print_side("A", c->a, md, out);
    print_side("B", c->b, md, out);
    const struct results_data *a = c->a->rd, *b = c->b->rd;
    fputs("\n", out);
    if (strcmp(a->accel, b->accel) != 0)
        fprintf(out, "%sWARNING: A ran under %s, B under %s.%s Their figures are not comparable.\n",
                md ? "> **" : "", *a->accel ? a->accel : "unknown",
                *b->accel ? b->accel : "unknown", md ? "**" : "");
    else if (report_accel_warning(c->a))
        fprintf(out, "%sWARNING: accel is tcg.%s %s\n", md ? "> **" : "", md ? "**" : "",
                report_accel_warning(c->a));
    if (*a->scenario_sha256 && strcmp(a->scenario_sha256, b->scenario_sha256) != 0)
        fprintf(out, "%sThe scenario files differ: variants are matched by label, arms by name.\n",
                md ? "\n" : "");
    print_answer(c, md, out);
    const char *h = c->a->headline;
    fputs("\n", out);
    fprintf(out,
            "%sDifference: (%s B - %s A) / %s A. Welch's t-test on the %s of each repeat, "
            "two-sided: significant when p < 0.05.\n\n",
            md ? "\n" : "", h, h, h, h);
    report_table_print(t, f, out, md ? "" : "  ");
    report_table_free(t);
    if (!any_gap(c))
        return;
    fprintf(out,
            "\n%sWhere the time goes, A vs B: each part of a guest arm's gap to the host arm in "
            "points of loss (and ms per transaction); moved = B - A.\n\n",
            md ? "## " : "");
    t = gap_table(c);
    report_table_print(t, f, out, md ? "" : "  ");
    report_table_free(t);
}
