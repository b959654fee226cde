/* table.c: the tables every report format prints (see table.h). */
#include "report/table.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int report_format_parse(const char *name, enum report_format *out)
{
    static const struct {
        const char *name;
        enum report_format f;
    } formats[] = {
        {"table", REPORT_TABLE},       {"csv", REPORT_CSV},     {"json", REPORT_JSON},
        {"markdown", REPORT_MARKDOWN}, {"md", REPORT_MARKDOWN},
    };
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (strcmp(name, formats[i].name) == 0) {
            *out = formats[i].f;
            return 0;
        }
    return -1;
}


struct report_table *report_table_new(size_t ncols, const char *const *header,
                                      unsigned long numeric)
{
    struct report_table *t = xcalloc(1, sizeof(*t));
    t->ncols = ncols;
    t->numeric = numeric;
    t->cells = xcalloc(ncols, sizeof(char *));
    for (size_t c = 0; c < ncols; c++)
        t->cells[c] = xstrdup(header[c]);
    return t;
}

void report_table_add(struct report_table *t, const char *const *cells)
{
    size_t row = t->nrows + 1; /* after the header and the rows so far */
    t->cells = xrealloc(t->cells, (row + 1) * t->ncols * sizeof(char *));
    for (size_t c = 0; c < t->ncols; c++)
        t->cells[row * t->ncols + c] = xstrdup(cells[c]);
    t->nrows++;
}

void report_table_free(struct report_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

/* Width on a terminal: UTF-8 continuation bytes take no column. */
static size_t columns_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void print_csv_cell(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void report_table_print(const struct report_table *t, enum report_format f, FILE *out,
                        const char *indent)
{
    size_t *width = xcalloc(t->ncols, sizeof(size_t));
    for (size_t r = 0; r <= t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t w = columns_of(t->cells[r * t->ncols + c]);
            width[c] = w > width[c] ? w : width[c];
        }
    for (size_t r = 0; r <= t->nrows; r++) {
        if (f != REPORT_CSV && f != REPORT_JSON)
            fputs(indent, out);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            bool num = t->numeric & (1UL << c);
            if (f == REPORT_CSV || f == REPORT_JSON) {
                fputs(c ? "," : "", out);
                print_csv_cell(out, cell);
            } else if (f == REPORT_MARKDOWN) {
                fputs("| ", out);
                for (const char *p = cell; *p; p++)
                    fprintf(out, "%s%c", *p == '|' ? "\\" : "", *p);
                fputs(" ", out);
            } else {
                size_t pad = width[c] - columns_of(cell);
                bool last = c + 1 == t->ncols;
                fprintf(out, "%*s%s%*s%s", num ? (int)pad : 0, "", cell, num || last ? 0 : (int)pad,
                        "", last ? "" : "  ");
            }
        }
        fputs(f == REPORT_MARKDOWN ? "|\n" : "\n", out);
        if (r == 0 && f == REPORT_MARKDOWN) {
            fputs(indent, out);
            for (size_t c = 0; c < t->ncols; c++)
                fputs(t->numeric & (1UL << c) ? "|---:" : "|---", out);
            fputs("|\n", out);
        }
    }
    free(width);
}


const char *report_human(char *buf, size_t len, const char *format, double v)
{
    if (isnan(v) || isinf(v))
        return "-";
    snprintf(buf, len, format, v);
    return buf;
}

const char *report_number(char *buf, size_t len, double v)
{
    if (isnan(v) || isinf(v))
        return "";
    snprintf(buf, len, "%.10g", v);
    return buf;
}
