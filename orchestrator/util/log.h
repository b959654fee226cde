/* log.h: the util layer -- what every other layer uses and that knows
 * nothing of vbed's experiment: this file (how vbed talks to its user),
 * allocation (xalloc.h), paths, text files and files root opens safely
 * (paths.h, textfile.h, safefile.h), processes and signals (spawn.h,
 * process.h, signals.h), /proc parsers (procfs.h), quoting and escaping
 * (shquote.h, termtext.h, xmlout.h), INI files (inifile.h), units, hashes,
 * progress lines and exit codes. It calls no other layer.
 *
 * How vbed talks to its user: errors, warnings, notes.
 *
 * Every failure is reported once, where it happens, as a whole sentence.
 * Messages go to stderr; the prefix is "vbed: " unless the message already
 * names an input file (scenario errors print "FILE:LINE: ..."). Whatever a
 * message quotes -- a guest's status file, a server's or a guest
 * program's error, a helper's reply -- reaches the terminal through
 * log_sanitize, line by line: no escape sequence of another's acts on it. */
#ifndef VBED_LOG_H
#define VBED_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

enum log_level { LOG_QUIET = 0, LOG_NORMAL = 1, LOG_VERBOSE = 2 };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

/* "vbed: error: ..." */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "vbed: warning: ..." */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "vbed: ..." unless quiet */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "vbed: ..." only with --verbose */
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A message without prefix, for input errors that start with FILE:LINE. */
void log_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Text of outside origin (a remote helper's stderr) shown to the user:
 * line by line as "<who>: <line>", with control characters and escape
 * sequences shown as \xNN (log_sanitize), at most LOG_REMOTE_LINES lines of
 * at most 512 bytes; what is left out is counted. */
#define LOG_REMOTE_LINES 20
void log_remote_text(const char *who, const char *text, size_t len);
/* len bytes of text into buf (buflen > 0, always NUL-terminated) with every
 * byte that is not printable ASCII, a tab or part of a printable UTF-8
 * character (C1 controls and the invisible characters that reorder or hide
 * text are not) written as \xNN; a character that does not fit whole is
 * left out. */
void log_sanitize(const char *text, size_t len, char *buf, size_t buflen);

/* Redirect all messages (tests capture them); NULL restores stderr. */
typedef void (*log_sink_fn)(const char *line, void *opaque);
void log_set_sink(log_sink_fn sink, void *opaque);

#endif
