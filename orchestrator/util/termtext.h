/* termtext.h: text of outside origin (a results directory's names, a
 * directory's own name) made safe for one line of a terminal or a table.
 *
 * termtext_escape() keeps printable ASCII and valid UTF-8, and writes
 * everything a terminal could act on or that would break a line as a
 * visible escape: C0 controls and DEL as \t, \n, \r, \e or \xNN, C1
 * controls (U+0080..U+009F) and the invisible format characters that can
 * reorder or hide text (U+200B..U+200F, U+2028..U+202E, U+2060..U+206F,
 * U+FEFF) as \u{XXXX}, a byte that is not valid UTF-8 as \xNN, and a
 * backslash as \\. With max_cols > 0 the result is cut to at most max_cols
 * columns (one per character), its last three being "..." when cut. The
 * result is always valid UTF-8 without control characters. */
#ifndef VBED_TERMTEXT_H
#define VBED_TERMTEXT_H

#include <stddef.h>

/* s escaped (see above), malloc'd; never NULL. */
char *termtext_escape(const char *s, size_t max_cols);

/* The same for one of vbed's own messages that quotes values already
 * escaped (results/readcheck.c): a backslash stays as it is. */
char *termtext_escape_message(const char *s, size_t max_cols);

#endif
