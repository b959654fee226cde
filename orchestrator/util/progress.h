/* progress.h: one live line per guest on a terminal, plain timestamped
 * lines otherwise (logs, CI). Thread-safe: guest workers report their own
 * phase; the runner's loop calls progress_tick to redraw the clock. */
#ifndef VBED_PROGRESS_H
#define VBED_PROGRESS_H

#include <stddef.h>

struct progress;

struct progress *progress_new(size_t n, const char *const names[]);
/* The state of line i (e.g. "waiting for the guest agent"). */
void progress_set(struct progress *p, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void progress_tick(struct progress *p);
/* Final redraw; frees p. */
void progress_end(struct progress *p);

#endif
