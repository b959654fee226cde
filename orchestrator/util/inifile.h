/* inifile.h: libinih with line numbers.
 *
 * Debian's libinih does not pass line numbers to its handler; this wrapper
 * feeds libinih one line at a time, so it knows the number of the line being
 * handled, and it reports section headers even for sections without keys
 * (a duplicate or empty section is then still visible). Comments start with
 * ';' or '#', also after a value; values are one line, of at most
 * INIFILE_MAX_LINE characters (a longer line is an error, never cut). */
#ifndef VBED_INIFILE_H
#define VBED_INIFILE_H

typedef void (*inifile_section_fn)(void *user, const char *section, int line);
typedef void (*inifile_value_fn)(void *user, const char *section, const char *name,
                                 const char *value, int line);

#define INIFILE_MAX_LINE 4095

/* Parse text. Returns 0, or the number of the first line that is neither a
 * section header, a key = value pair, a comment nor blank, or that is too
 * long; *why then says which, as a message to print after "FILE:LINE: ".
 * -1 when out of memory. */
int inifile_parse(const char *text, inifile_section_fn on_section, inifile_value_fn on_value,
                  void *user, const char **why);


#endif
