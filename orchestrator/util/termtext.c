/* termtext.c: escape and cut untrusted text for a terminal line (termtext.h). */
#include "util/termtext.h"

#include "util/xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at p (2..4 bytes) and its code
 * point, or 0 if p does not start one (overlong forms and surrogates are
 * not valid). */
static size_t utf8_sequence(const unsigned char *p, unsigned *cp)
{
    size_t n;
    unsigned min;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2, min = 0x80, *cp = p[0] & 0x1f;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3, min = 0x800, *cp = p[0] & 0x0f;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4, min = 0x10000, *cp = p[0] & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (p[i] & 0x3f);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n;
}

/* a code point to show as \u{XXXX}: C1 controls and invisible format characters */
static bool hidden(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) ||
           (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff;
}

/* the form of the character at p: its text into piece (escaped or as is),
 * its length in s into *used */
static void piece_of(const unsigned char *p, char *piece, size_t len, size_t *used,
                     bool backslash)
{
    unsigned cp;
    size_t n;
    *used = 1;
    if (*p == '\\' && backslash)
        snprintf(piece, len, "\\\\");
    else if (*p == '\t')
        snprintf(piece, len, "\\t");
    else if (*p == '\n')
        snprintf(piece, len, "\\n");
    else if (*p == '\r')
        snprintf(piece, len, "\\r");
    else if (*p == 0x1b)
        snprintf(piece, len, "\\e");
    else if (*p < 0x20 || *p == 0x7f)
        snprintf(piece, len, "\\x%02x", *p);
    else if (*p < 0x80)
        snprintf(piece, len, "%c", *p);
    else if ((n = utf8_sequence(p, &cp)) == 0)
        snprintf(piece, len, "\\x%02x", *p);
    else {
        *used = n;
        if (hidden(cp))
            snprintf(piece, len, "\\u{%04X}", cp);
        else
            snprintf(piece, len, "%.*s", (int)n, (const char *)p);
    }
}

/* columns of a piece: one per character */
static size_t columns(const char *piece)
{
    size_t n = 0;
    for (; *piece; piece++)
        n += ((unsigned char)*piece & 0xc0) != 0x80;
    return n;
}

static char *escape(const char *s, size_t max_cols, bool backslash)
{
    size_t cap = strlen(s) * 4 + 16, o = 0, cols = 0;
    char *out = xcalloc(cap, 1);
    const unsigned char *p = (const unsigned char *)s;
    /* when cut: the byte offset where "..." goes (3 columns before the limit) */
    size_t cut_at = 0;
    bool cut = false;
    while (*p) {
        char piece[16];
        size_t used;
        piece_of(p, piece, sizeof(piece), &used, backslash);
        size_t w = columns(piece), l = strlen(piece);
        if (max_cols && cols + w > max_cols) {
            cut = true;
            break;
        }
        if (max_cols >= 3 && cols + w <= max_cols - 3)
            cut_at = o + l;
        memcpy(out + o, piece, l);
        o += l;
        cols += w;
        p += used;
    }
    if (cut) {
        o = max_cols >= 3 ? cut_at : 0;
        memcpy(out + o, "...", max_cols >= 3 ? 3 : max_cols);
        o += max_cols >= 3 ? 3 : max_cols;
    }
    out[o] = '\0';
    return out;
}

char *termtext_escape(const char *s, size_t max_cols) { return escape(s, max_cols, true); }

char *termtext_escape_message(const char *s, size_t max_cols) { return escape(s, max_cols, false); }
