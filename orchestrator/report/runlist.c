/* runlist.c: the list of past runs (runlist.h): find results directories,
 * read each through the hostile-input reader, sum it up from its report,
 * and print the list as a table, csv or json. */
#include "report/runlist.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/termtext.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* column limits of the table */
#define COLS_DIR 48
#define COLS_SCENARIO 32
#define COLS_ARMS 120
#define COLS_MESSAGE 300

bool runlist_valid_time(const char *s)
{
    static const char pattern[] = "dddd-dd-ddTdd:dd:dd";
    for (size_t i = 0; pattern[i]; i++)
        if (pattern[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pattern[i])
            return false;
    s += sizeof(pattern) - 1;
    if (*s == '.' && isdigit((unsigned char)s[1]))
        for (s++; isdigit((unsigned char)*s); s++)
            ;
    return !strcmp(s, "Z") || !*s;
}

/* ---- one directory ---- */

static const char *state_of(const struct runlist_entry *e)
{
    static const char *const same[] = {"complete", "interrupted", "running"};
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(e->status, same[i]))
            return same[i];
    if (strcmp(e->status, "failed"))
        return "unknown";
    for (size_t i = 0; i < e->n_cells; i++)
        if (e->cells[i].n)
            return "partial";
    return "failed";
}

void runlist_entry_fill(struct runlist_entry *e, const struct results_data *rd,
                        const struct report *r)
{
    e->started_at = xstrdup(rd->started_at);
    e->scenario = xstrdup(rd->scenario_name);
    e->status = xstrdup(rd->status);
    e->accel = xstrdup(rd->accel);
    e->n_variants = rd->n_variants;
    e->skipped_lines = rd->bad_lines;
    e->cells = xcalloc(rd->n_variants * rd->n_arms, sizeof(*e->cells));
    bool noisy = false, quiet = false;
    for (size_t v = 0; v < rd->n_variants; v++)
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            struct runlist_cell *out = &e->cells[e->n_cells++];
            out->variant = xstrdup(rd->variants[v].label);
            out->arm = xstrdup(rd->arms[a].name);
            out->kind = xstrdup(rd->arms[a].kind);
            out->unit = xstrdup(c->unit);
            out->n = c->tps_stats.n;
            out->mean = out->n ? c->tps_stats.mean : NAN;
            const char *verdict = report_noise_verdict(c);
            noisy |= !strcmp(verdict, "noisy");
            quiet |= !strcmp(verdict, "quiet");
        }
    e->noise = noisy ? "noisy" : quiet ? "quiet" : "n/a";
    /* the counted runs beyond a noise limit, each once */
    for (size_t i = 0; i < r->n_notes; i++) {
        const struct report_note *n = &r->notes[i];
        bool first = n->kind == NOTE_NOISE && results_run_ok(rd, n->seq);
        for (size_t j = 0; j < i && first; j++)
            first = !(r->notes[j].kind == NOTE_NOISE && r->notes[j].seq == n->seq);
        e->noisy_runs += first;
    }
    e->state = state_of(e);
}

/* The reader's messages while it reads one directory: the first error. */
struct captured {
    char *first_error;
    char *first;
};

static void capture(const char *line, void *opaque)
{
    struct captured *c = opaque;
    static const char prefix[] = "vbed: error: ";
    if (!c->first)
        c->first = xstrdup(line);
    if (!c->first_error && !strncmp(line, prefix, sizeof(prefix) - 1))
        c->first_error = xstrdup(line + sizeof(prefix) - 1);
}

static struct runlist_entry *add_entry(struct runlist *l, const char *dir)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
    }
    struct runlist_entry *e = &l->v[l->n++];
    memset(e, 0, sizeof(*e));
    e->dir = xstrdup(dir);
    return e;
}

static void read_one(struct runlist *l, const char *dir)
{
    struct captured c = {NULL, NULL};
    log_set_sink(capture, &c);
    struct results_data *rd = results_read(dir);
    log_set_sink(NULL, NULL);
    struct runlist_entry *e = add_entry(l, dir);
    if (!rd) {
        e->error = xstrdup(c.first_error ? c.first_error : c.first ? c.first : "unreadable");
        free(c.first);
        free(c.first_error);
        e->started_at = xstrdup("");
        e->scenario = xstrdup("");
        e->status = xstrdup("");
        e->accel = xstrdup("");
        e->noise = "n/a";
        e->state = "unreadable";
        char *shown = termtext_escape_message(e->error, COLS_MESSAGE);
        log_warn("%s", shown);
        free(shown);
        return;
    }
    free(c.first);
    free(c.first_error);
    struct report *r = report_build(rd);
    runlist_entry_fill(e, rd, r);
    report_free(r);
    results_data_free(rd);
    if (e->skipped_lines) {
        char *shown = termtext_escape(dir, COLS_MESSAGE);
        log_warn("%s: %zu line%s of samples.jsonl skipped ('vbed report' names them).", shown,
                 e->skipped_lines, e->skipped_lines == 1 ? "" : "s");
        free(shown);
    }
}

/* ---- finding directories ---- */

static bool holds_meta(const char *dir)
{
    char meta[PATH_MAX];
    struct stat st;
    return path_join(meta, sizeof(meta), dir, "meta.json") == 0 && lstat(meta, &st) == 0 &&
           S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The results directories path stands for, sorted by name (malloc'd). */
static int find_dirs(const char *path, char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (holds_meta(path)) {
        *out = xcalloc(1, sizeof(char *));
        (*out)[(*n)++] = xstrdup(path);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d) {
        char *shown = termtext_escape(path, COLS_MESSAGE);
        log_error("Cannot read the results folder '%s': %s", shown, strerror(errno));
        free(shown);
        return -1;
    }
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) && *n < RUNLIST_MAX) {
        char child[PATH_MAX];
        struct stat st;
        if (de->d_name[0] == '.' || path_join(child, sizeof(child), path, de->d_name) < 0 ||
            lstat(child, &st) < 0 || !S_ISDIR(st.st_mode) || !holds_meta(child))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            *out = xrealloc(*out, cap * sizeof(char *));
        }
        (*out)[(*n)++] = xstrdup(child);
    }
    closedir(d);
    if (*n)
        qsort(*out, *n, sizeof(char *), by_name);
    return 0;
}

int runlist_scan(struct runlist *l, const char *path)
{
    char **dirs;
    size_t n;
    if (find_dirs(path, &dirs, &n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (l->n < RUNLIST_MAX)
            read_one(l, dirs[i]);
        free(dirs[i]);
    }
    free(dirs);
    return 0;
}

int runlist_scan_uris(const char *path, char ***uris, size_t *n)
{
    char **dirs;
    size_t nd;
    if (find_dirs(path, &dirs, &nd) < 0)
        return -1;
    for (size_t i = 0; i < nd; i++) {
        struct captured c = {NULL, NULL};
        log_set_sink(capture, &c); /* an unreadable directory offers no URI: no news */
        struct results_data *rd = results_read_meta(dirs[i]);
        log_set_sink(NULL, NULL);
        free(c.first);
        free(c.first_error);
        for (size_t k = 0; rd && k < rd->n_uris; k++) {
            bool seen = false;
            for (size_t j = 0; j < *n && !seen; j++)
                seen = !strcmp((*uris)[j], rd->uris[k]);
            if (!seen) {
                *uris = xrealloc(*uris, (*n + 1) * sizeof(char *));
                (*uris)[(*n)++] = xstrdup(rd->uris[k]);
            }
        }
        results_data_free(rd);
        free(dirs[i]);
    }
    free(dirs);
    return 0;
}

static int newest_first(const void *pa, const void *pb)
{
    const struct runlist_entry *a = pa, *b = pb;
    bool ta = runlist_valid_time(a->started_at), tb = runlist_valid_time(b->started_at);
    if (ta != tb)
        return ta ? -1 : 1;
    int c = ta ? strcmp(b->started_at, a->started_at) : 0;
    return c ? c : strcmp(a->dir, b->dir);
}

void runlist_sort(struct runlist *l)
{
    if (l->n)
        qsort(l->v, l->n, sizeof(*l->v), newest_first);
}

/* ---- printing ---- */

/* a figure for people: 3 significant digits or so */
static void human(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fabs(v) >= 100 ? "%.0f" : fabs(v) >= 10 ? "%.1f" : "%.2f", v);
}

/* "host 604 tx/s, guest 18.2-29.8 tx/s": each arm's figure, as the range
 * over the variants where the arm has one (per unit) */
static char *arms_summary(const struct runlist_entry *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        abort();
    for (size_t i = 0; i < e->n_cells; i++) {
        const struct runlist_cell *c = &e->cells[i];
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(e->cells[j].arm, c->arm) != 0;
        if (!first)
            continue;
        fprintf(out, "%s%s", ftell(out) ? ", " : "", c->arm);
        bool any = false;
        /* one range per unit, in the order the units appear */
        for (size_t k = i; k < e->n_cells; k++) {
            const struct runlist_cell *u = &e->cells[k];
            bool new_unit = !strcmp(u->arm, c->arm) && u->n;
            for (size_t j = i; j < k && new_unit; j++)
                new_unit = !(!strcmp(e->cells[j].arm, c->arm) && e->cells[j].n &&
                             !strcmp(e->cells[j].unit, u->unit));
            if (!new_unit)
                continue;
            double lo = INFINITY, hi = -INFINITY;
            for (size_t j = k; j < e->n_cells; j++)
                if (!strcmp(e->cells[j].arm, c->arm) && e->cells[j].n &&
                    !strcmp(e->cells[j].unit, u->unit)) {
                    lo = fmin(lo, e->cells[j].mean);
                    hi = fmax(hi, e->cells[j].mean);
                }
            char a[32], b[32];
            human(a, sizeof(a), lo);
            human(b, sizeof(b), hi);
            if (strcmp(a, b))
                fprintf(out, "%s %s-%s %s", any ? " /" : "", a, b, u->unit);
            else
                fprintf(out, "%s %s %s", any ? " /" : "", a, u->unit);
            any = true;
        }
        if (!any)
            fprintf(out, " -");
    }
    fclose(out);
    return buf;
}

/* "2026-11-30 01:00" from a valid time, else the escaped text */
static char *when_of(const char *t)
{
    if (!runlist_valid_time(t))
        return termtext_escape(*t ? t : "-", 20);
    char *s = xasprintf("%.16s", t);
    s[10] = ' ';
    return s;
}

static void print_table(const struct runlist *l, enum report_format f, FILE *out)
{
    static const char *const head[] = {"started (UTC)", "directory", "scenario", "state",
                                       "accel",         "variants",  "noise",    "arms"};
    struct report_table *t = report_table_new(8, head, 1u << 5);
    for (size_t i = 0; i < l->n; i++) {
        const struct runlist_entry *e = &l->v[i];
        char variants[24], noise[48];
        snprintf(variants, sizeof(variants), "%zu", e->n_variants);
        if (e->noisy_runs)
            snprintf(noise, sizeof(noise), "%s (%zu run%s)", e->noise, e->noisy_runs,
                     e->noisy_runs == 1 ? "" : "s");
        else
            snprintf(noise, sizeof(noise), "%s", e->noise);
        char *arms = e->error ? xstrdup("-") : arms_summary(e);
        char *cells[] = {when_of(e->started_at),
                         termtext_escape(e->dir, COLS_DIR),
                         termtext_escape(*e->scenario ? e->scenario : "-", COLS_SCENARIO),
                         xstrdup(e->state),
                         xstrdup(*e->accel ? e->accel : "-"),
                         xstrdup(e->error ? "-" : variants),
                         xstrdup(e->error ? "-" : noise),
                         termtext_escape(arms, COLS_ARMS)};
        report_table_add(t, (const char *const *)cells);
        for (size_t c = 0; c < 8; c++)
            free(cells[c]);
        free(arms);
    }
    report_table_print(t, f, out, "");
    report_table_free(t);
}

static void print_csv(const struct runlist *l, FILE *out)
{
    static const char *const head[] = {"started_at", "directory", "scenario", "state",
                                       "accel",      "noise",     "variant",  "arm",
                                       "kind",       "figure",    "n",        "unit"};
    struct report_table *t = report_table_new(12, head, 0);
    for (size_t i = 0; i < l->n; i++) {
        const struct runlist_entry *e = &l->v[i];
        for (size_t k = 0; k < (e->n_cells ? e->n_cells : 1); k++) {
            const struct runlist_cell *c = e->n_cells ? &e->cells[k] : NULL;
            char figure[32] = "", n[24] = "";
            if (c) {
                report_number(figure, sizeof(figure), c->mean);
                snprintf(n, sizeof(n), "%zu", c->n);
            }
            char *cells[] = {termtext_escape(e->started_at, 0),
                             termtext_escape(e->dir, 0),
                             termtext_escape(e->scenario, 0),
                             xstrdup(e->state),
                             xstrdup(e->accel),
                             xstrdup(e->noise),
                             termtext_escape(c ? c->variant : "", 0),
                             termtext_escape(c ? c->arm : "", 0),
                             xstrdup(c ? c->kind : ""),
                             xstrdup(figure),
                             xstrdup(n),
                             termtext_escape(c ? c->unit : "", 0)};
            report_table_add(t, (const char *const *)cells);
            for (size_t j = 0; j < 12; j++)
                free(cells[j]);
        }
    }
    report_table_print(t, REPORT_CSV, out, "");
    report_table_free(t);
}

/* a string member, escaped (valid UTF-8, no control characters) */
static void add_text(json_object *o, const char *key, const char *value)
{
    char *s = termtext_escape(value, 0);
    json_object_object_add(o, key, json_object_new_string(s));
    free(s);
}

static void print_json(const struct runlist *l, FILE *out)
{
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < l->n; i++) {
        const struct runlist_entry *e = &l->v[i];
        json_object *o = json_object_new_object();
        add_text(o, "directory", e->dir);
        add_text(o, "started_at", e->started_at);
        add_text(o, "scenario", e->scenario);
        add_text(o, "state", e->state);
        add_text(o, "status", e->status);
        add_text(o, "accel", e->accel);
        json_object_object_add(o, "variants", json_object_new_int64((int64_t)e->n_variants));
        add_text(o, "noise", e->noise);
        json_object_object_add(o, "noisy_runs", json_object_new_int64((int64_t)e->noisy_runs));
        json_object_object_add(o, "skipped_lines",
                               json_object_new_int64((int64_t)e->skipped_lines));
        json_object *cells = json_object_new_array();
        for (size_t k = 0; k < e->n_cells; k++) {
            const struct runlist_cell *c = &e->cells[k];
            json_object *co = json_object_new_object();
            add_text(co, "variant", c->variant);
            add_text(co, "arm", c->arm);
            add_text(co, "kind", c->kind);
            char figure[32];
            json_object_object_add(co, "figure",
                                   c->n ? json_object_new_double_s(c->mean, report_number(figure, sizeof(figure), c->mean))
                                        : NULL);
            json_object_object_add(co, "n", json_object_new_int64((int64_t)c->n));
            add_text(co, "unit", c->unit);
            json_object_array_add(cells, co);
        }
        json_object_object_add(o, "cells", cells);
        if (e->error)
            add_text(o, "error", e->error);
        json_object_array_add(arr, o);
    }
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                     JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(arr);
}

void runlist_print(const struct runlist *l, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON)
        print_json(l, out);
    else if (f == REPORT_CSV)
        print_csv(l, out);
    else
        print_table(l, f, out);
}

void runlist_free(struct runlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        struct runlist_entry *e = &l->v[i];
        for (size_t k = 0; k < e->n_cells; k++) {
            free(e->cells[k].variant);
            free(e->cells[k].arm);
            free(e->cells[k].kind);
            free(e->cells[k].unit);
        }
        free(e->cells);
        free(e->dir);
        free(e->started_at);
        free(e->scenario);
        free(e->status);
        free(e->accel);
        free(e->error);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
