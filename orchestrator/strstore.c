/* strstore.c: strings formatted into one fixed buffer (see strstore.h). */
#include "strstore.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *strstore_printf(char *store, size_t size, size_t *used, const char *fmt, ...)
{
    char *at = store + *used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(at, size - *used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size - *used)
        abort();
    *used += (size_t)n + 1;
    return at;
}
