/* strstore.h: strings formatted one after another into one fixed buffer --
 * the arguments of a generated command line live as long as its struct. */
#ifndef VBED_STRSTORE_H
#define VBED_STRSTORE_H

#include <stddef.h>

/* fmt formatted at store + *used (store has size bytes), *used advanced past
 * its NUL; returns the string. NULL when it does not fit: *used is then
 * past size, and every later call returns NULL too, so that a caller checks
 * once, at the end (strstore_overflowed), and reports what did not fit --
 * a path from outside may be longer than any store. */
const char *strstore_printf(char *store, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Whether a string did not fit the store of size bytes. */
#define strstore_overflowed(used, size) ((used) > (size))

#endif
