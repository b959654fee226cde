/* xalloc.h: allocation that never returns NULL. vbed cannot do anything
 * useful without memory, so running out aborts (with a core to look at)
 * rather than threading an "out of memory" path through every caller. */
#ifndef VBED_XALLOC_H
#define VBED_XALLOC_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);   /* n may be 0: one byte */
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);           /* NULL -> "" */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
