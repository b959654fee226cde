/* textfile.c: read and write whole small files (see textfile.h). */
#include "util/textfile.h"
#include "util/xalloc.h"

#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *textfile_read(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0, n;
    char buf[4096];
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = xrealloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            text = grown;
        }
        memcpy(text + len, buf, n);
        len += n;
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {
        free(text);
        errno = err;
        return NULL;
    }
    if (!text && !(text = xcalloc(1, 1)))
        return NULL;
    text[len] = '\0';
    if (strlen(text) != len) {
        free(text);
        errno = EINVAL;
        return NULL;
    }
    return text;
}

int textfile_write(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

int textfile_write_text(const char *path, const char *text)
{
    return textfile_write(path, text, strlen(text));
}

int textfile_next_line(const char **p, char *buf, size_t len)
{
    if (!**p)
        return -1;
    const char *nl = strchr(*p, '\n');
    size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
    if (n >= len)
        n = len - 1;
    memcpy(buf, *p, n);
    buf[n] = '\0';
    *p = nl ? nl + 1 : *p + strlen(*p);
    return 0;
}
