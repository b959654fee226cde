/* inifile.c: libinih, one line at a time (see inifile.h). */
#include "inifile.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct state {
    const char *pos;
    int line;
    inifile_section_fn on_section;
    inifile_value_fn on_value;
    void *user;
};

static char *reader(char *buf, int size, void *opaque)
{
    struct state *st = opaque;
    if (!*st->pos)
        return NULL;
    const char *nl = strchr(st->pos, '\n');
    size_t len = nl ? (size_t)(nl - st->pos) + 1 : strlen(st->pos);
    size_t copy = len < (size_t)size - 1 ? len : (size_t)size - 1;
    memcpy(buf, st->pos, copy);
    buf[copy] = '\0';
    st->pos += len;
    st->line++;

    /* a section header: "[name]" possibly surrounded by blanks */
    const char *p = buf;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '[' && st->on_section) {
        const char *close = strchr(p, ']');
        if (close) {
            char name[256];
            const char *b = p + 1, *e = close;
            while (b < e && isspace((unsigned char)*b))
                b++;
            while (e > b && isspace((unsigned char)e[-1]))
                e--;
            snprintf(name, sizeof(name), "%.*s", (int)(e - b), b);
            st->on_section(st->user, name, st->line);
        }
    }
    return buf;
}

static int handler(void *opaque, const char *section, const char *name, const char *value)
{
    struct state *st = opaque;
    st->on_value(st->user, section, name, value, st->line);
    return 1;
}

int inifile_parse(const char *text, inifile_section_fn on_section, inifile_value_fn on_value,
                  void *user)
{
    struct state st = {.pos = text, .on_section = on_section, .on_value = on_value, .user = user};
    ini_use_stack = false;
    ini_max_line = 4096;
    ini_allow_multiline = false;
    ini_inline_comment_prefixes = ";#";
    return ini_parse_stream(reader, &st, handler, &st);
}
