/* answer.h: what a report says first -- per variant, a few short lines a
 * reader came for: how much each guest arm loses against the host per
 * guest (95 % CIs), the parts that explain most of the untuned guest's
 * loss, what each tuning wins or loses against the untuned guest (a 95 %
 * CI: at one machine speed where fitted, else Welch's over the runs), the
 * predictions with their verdicts, and the one caveat that changes the
 * reading most. Numbers are rounded to what their CI supports; every line
 * is under 160 characters for up to three guest arms. The definitions are
 * in docs/method.md, not here. */
#ifndef VBED_ANSWER_H
#define VBED_ANSWER_H

#include <stddef.h>

struct report;

/* Variant v's answer, one line per finding
 * ("" when the variant has nothing to compare). */
void report_answer_text(const struct report *r, size_t v, char *buf, size_t len);

#endif
