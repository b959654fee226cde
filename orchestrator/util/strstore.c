/* strstore.c: strings formatted into one fixed buffer (see strstore.h). */
#include "util/strstore.h"

#include <stdarg.h>
#include <stdio.h>

const char *strstore_printf(char *store, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used >= size) {
        *used = size + 1;
        return NULL;
    }
    char *at = store + *used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(at, size - *used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size - *used) {
        *at = '\0';
        *used = size + 1;
        return NULL;
    }
    *used += (size_t)n + 1;
    return at;
}
