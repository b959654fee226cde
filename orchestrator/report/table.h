/* table.h: a small table of text cells, printed aligned for a terminal,
 * as a markdown pipe table or as RFC 4180 csv: every report format (and
 * compare, and the html page) prints its tables through it. */
#ifndef VBED_TABLE_H
#define VBED_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON, REPORT_MARKDOWN };

/* "table", "csv", "json", "markdown" (or "md"); -1 if none of them. */
int report_format_parse(const char *name, enum report_format *out);

struct report_table {
    size_t ncols, nrows;   /* rows without the header */
    char **cells;          /* (nrows + 1) * ncols, header first */
    unsigned long numeric; /* bit i: column i holds numbers (right-aligned) */
};

struct report_table *report_table_new(size_t ncols, const char *const *header,
                                      unsigned long numeric);
/* Append one row of ncols cells (copied). */
void report_table_add(struct report_table *t, const char *const *cells);
/* table: aligned columns; markdown: pipe table; csv: RFC 4180; json: not a
 * table format (prints csv). indent: prefix of every text line. */
void report_table_print(const struct report_table *t, enum report_format f, FILE *out,
                        const char *indent);
void report_table_free(struct report_table *t);

/* A number for people (format, "-" for none: NAN or infinite) and for
 * machines ("%.10g", "" for none). Return buf or the constant. */
const char *report_human(char *buf, size_t len, const char *format, double v);
const char *report_number(char *buf, size_t len, double v);

#endif
