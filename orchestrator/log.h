/* log.h: how vbed talks to its user: errors, warnings, notes.
 *
 * Every failure is reported once, where it happens, as a whole sentence.
 * Messages go to stderr; the prefix is "vbed: " unless the message already
 * names an input file (scenario errors print "FILE:LINE: ..."). */
#ifndef VBED_LOG_H
#define VBED_LOG_H

#include <stdarg.h>
#include <stdbool.h>

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

/* Redirect all messages (tests capture them); NULL restores stderr. */
typedef void (*log_sink_fn)(const char *line, void *opaque);
void log_set_sink(log_sink_fn sink, void *opaque);

#endif
