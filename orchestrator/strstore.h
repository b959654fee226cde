/* strstore.h: strings formatted one after another into one fixed buffer --
 * the arguments of a generated command line live as long as its struct. */
#ifndef VBED_STRSTORE_H
#define VBED_STRSTORE_H

#include <stddef.h>

/* fmt formatted at store + *used (store has size bytes), *used advanced past
 * its NUL; returns the string. Aborts when it does not fit: callers size the
 * store for their longest command line, so that is a bug, not input. */
const char *strstore_printf(char *store, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
