/* inifile.c: libinih, one line at a time (see inifile.h). */
#include "util/inifile.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

struct state {
    const char *pos;
    int line;
    inifile_section_fn on_section;
    inifile_value_fn on_value;
    void *user;
    int too_long; /* the number of a line longer than INIFILE_MAX_LINE */
};

static char *reader(char *buf, int size, void *opaque)
{
    struct state *st = opaque;
    if (!*st->pos)
        return NULL;
    const char *nl = strchr(st->pos, '\n');
    size_t len = nl ? (size_t)(nl - st->pos) + 1 : strlen(st->pos);
    size_t chars = len - (nl ? 1 : 0);
    if (chars > 0 && st->pos[chars - 1] == '\r')
        chars--;
    st->line++;
    /* libinih would cut the line and parse the rest as the next line */
    if (chars > INIFILE_MAX_LINE || len + 1 > (size_t)size) {
        st->too_long = st->line;
        return NULL; /* ends the parse */
    }
    memcpy(buf, st->pos, len);
    buf[len] = '\0';
    st->pos += len;

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
                  void *user, const char **why)
{
    struct state st = {.pos = text, .on_section = on_section, .on_value = on_value, .user = user};
    ini_use_stack = false;
    /* one heap buffer for the longest line: its characters, "\r\n" and the
     * NUL (without ini_initial_alloc the buffer was 200 bytes) */
    ini_initial_alloc = INIFILE_MAX_LINE + 3;
    ini_max_line = INIFILE_MAX_LINE + 3;
    ini_allow_realloc = false;
    ini_allow_multiline = false;
    ini_inline_comment_prefixes = ";#";
    int rc = ini_parse_stream(reader, &st, handler, &st);
    if (st.too_long && (rc == 0 || rc > st.too_long)) {
        *why = "line longer than " STR(INIFILE_MAX_LINE) " characters";
        return st.too_long;
    }
    *why = "syntax error (expected '[section]', 'key = value' or a comment)";
    return rc;
}
