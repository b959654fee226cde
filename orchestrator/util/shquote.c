/* shquote.c: quoting for a POSIX shell (see shquote.h). */
#include "util/shquote.h"

#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

char *shquote_arg(const char *arg)
{
    size_t quotes = 0;
    for (const char *p = arg; *p; p++)
        quotes += *p == '\'';
    /* 'x' plus three more bytes for every quote ('\'') */
    char *out = xcalloc(1, strlen(arg) + 3 * quotes + 3);
    char *o = out;
    *o++ = '\'';
    for (const char *p = arg; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}

char *shquote_argv(const char *const argv[])
{
    size_t len = 1;
    char *out = xcalloc(1, len);
    for (size_t i = 0; argv[i]; i++) {
        char *q = shquote_arg(argv[i]);
        size_t ql = strlen(q);
        out = xrealloc(out, len + ql + 1);
        if (i)
            strcat(out, " ");
        strcat(out, q);
        len += ql + 1;
        free(q);
    }
    return out;
}
