/* compare.h: two results directories side by side, for "did my change
 * help?" questions: variants matched by label, arms by name; for each pair
 * the mean TPS of A and of B, the difference in % of A, and Welch's t-test
 * on the TPS of the repeats with a verdict; when either side has layer
 * counters (gap.h), how each part of a guest arm's gap to the host arm
 * moved from A to B. */
#ifndef VBED_COMPARE_H
#define VBED_COMPARE_H

#include "report/report.h"

enum compare_verdict {
    VERDICT_SIGNIFICANT,     /* p < 0.05 */
    VERDICT_NOT_SIGNIFICANT, /* p >= 0.05 */
    VERDICT_TOO_FEW,         /* a side has fewer than 2 repeats */
    VERDICT_ONLY_A,          /* the (variant, arm) is only in A */
    VERDICT_ONLY_B,
};

struct compare_row {
    const char *variant; /* the label */
    const char *arm;
    const struct report_cell *a, *b; /* NULL on the side that lacks it */
    double diff_pct;                 /* (mean B - mean A) / mean A * 100; NAN if unknown */
    struct stats_welch welch;        /* when verdict is (not) significant */
    enum compare_verdict verdict;
};

struct comparison {
    const struct report *a, *b;
    struct compare_row *rows;
    size_t n_rows;
};

/* Match a's and b's cells (both reports must outlive it). Never fails. */
struct comparison *compare_build(const struct report *a, const struct report *b);
void compare_free(struct comparison *c);

/* "significant", "not significant", "too few repeats", "only in A" ... */
const char *compare_verdict_name(enum compare_verdict v);

/* Print in a format (csv: one row per pair; json: the same with context). */
void compare_print(const struct comparison *c, enum report_format f, FILE *out);

#endif
