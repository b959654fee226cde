/* format.h: what the files of the report's formats share (format_text.c,
 * format_csv.c, format_json.c): the csv and json printers that
 * report_print() (format_text.c) dispatches to, and two small tests the
 * formats make alike. Internal to report/. */
#ifndef VBED_REPORT_FORMAT_H
#define VBED_REPORT_FORMAT_H

#include "report/report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

/* report_print() in each format (csv: summary.csv's table). */
void report_print_csv(const struct report *r, FILE *out);
void report_print_json(const struct report *r, FILE *out);

/* A ratio's basis for machines: "per_guest", "aggregate", "" when none. */
static inline const char *basis_name(double ratio, bool per_guest)
{
    return isnan(ratio) ? "" : per_guest ? "per_guest" : "aggregate";
}

/* the layers of an arm that it has (a host arm has no guest and QEMU) */
static inline bool arm_has_layer(const struct gap_arm *g, int l)
{
    return g->guest || l == GAP_LAYER_INNODB || l == GAP_LAYER_HOST;
}

#endif
