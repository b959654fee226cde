/* log.c: the one place where vbed's messages are formatted and written.
 * Thread-safe: guest workers report from their own threads. */
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum log_level level = LOG_NORMAL;
static log_sink_fn sink;
static void *sink_opaque;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void log_set_level(enum log_level l) { level = l; }
enum log_level log_get_level(void) { return level; }

void log_set_sink(log_sink_fn fn, void *opaque)
{
    pthread_mutex_lock(&lock);
    sink = fn;
    sink_opaque = opaque;
    pthread_mutex_unlock(&lock);
}

/* The length of the printable UTF-8 character at s (at most n bytes), 0 if
 * there is none: overlong forms, surrogates and C1 controls are not. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    if (s[0] == 0xC2 && s[1] < 0xA0)
        return 0; /* U+0080..U+009F: C1 controls (0x9B is a CSI) */
    /* the invisible format characters that reorder or hide text: U+200B..
     * U+200F, U+2028..U+202E, U+2060..U+206F, U+FEFF (as termtext.h) */
    if (len == 3) {
        unsigned cp = (unsigned)(s[0] & 0x0F) << 12 | (unsigned)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
            (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF)
            return 0;
    }
    return len;
}

void log_sanitize(const char *text, size_t len, char *buf, size_t buflen)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        size_t u = s[i] >= 0x80 ? utf8_printable(s + i, len - i) : 0;
        size_t need = (s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\t' ? 1 : u ? u : 4;
        if (o + need >= buflen)
            break;
        if (need == 4 && !u)
            snprintf((char *)buf + o, 5, "\\x%02x", s[i]);
        else
            memcpy(buf + o, s + i, need);
        o += need;
        i += u ? u : 1;
    }
    buf[o] = '\0';
}

/* Every message is made safe for a terminal, whatever it quotes (a guest's
 * status file, a server's error, a remote helper's words): each line
 * through log_sanitize, the line breaks kept (multi-line messages). */
static void sanitize_lines(const char *raw, char *msg, size_t len)
{
    size_t o = 0;
    for (const char *p = raw; o + 1 < len;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        log_sanitize(p, n, msg + o, len - o);
        o += strlen(msg + o);
        if (!nl || o + 2 >= len)
            break;
        msg[o++] = '\n';
        msg[o] = '\0';
        p = nl + 1;
    }
    msg[o < len ? o : len - 1] = '\0';
}

static void emit(const char *prefix, const char *fmt, va_list ap)
{
    char raw[4096], msg[4096 * 4];
    vsnprintf(raw, sizeof(raw), fmt, ap);
    sanitize_lines(raw, msg, sizeof(msg));
    pthread_mutex_lock(&lock);
    if (sink) {
        char line[4096 * 4 + 64];
        snprintf(line, sizeof(line), "%s%s", prefix, msg);
        sink(line, sink_opaque);
    } else {
        fprintf(stderr, "%s%s\n", prefix, msg);
        fflush(stderr);
    }
    pthread_mutex_unlock(&lock);
}

#define LOG_FN(name, prefix, cond)                                             \
    void name(const char *fmt, ...)                                            \
    {                                                                          \
        if (!(cond))                                                           \
            return;                                                            \
        va_list ap;                                                            \
        va_start(ap, fmt);                                                     \
        emit(prefix, fmt, ap);                                                 \
        va_end(ap);                                                            \
    }

LOG_FN(log_error, "vbed: error: ", true)
LOG_FN(log_warn, "vbed: warning: ", true)
LOG_FN(log_info, "vbed: ", level >= LOG_NORMAL)
LOG_FN(log_debug, "vbed: debug: ", level >= LOG_VERBOSE)
LOG_FN(log_plain, "", true)

void log_remote_text(const char *who, const char *text, size_t len)
{
    size_t shown = 0, lines = 0;
    while (shown < len && lines < LOG_REMOTE_LINES) {
        const char *nl = memchr(text + shown, '\n', len - shown);
        size_t n = nl ? (size_t)(nl - (text + shown)) : len - shown;
        char line[2048];
        log_sanitize(text + shown, n < 512 ? n : 512, line, sizeof(line));
        log_plain("%s: %s%s", who, line, n > 512 ? " [...]" : "");
        shown += n + (nl ? 1 : 0);
        lines++;
    }
    if (shown < len)
        log_plain("%s: [%zu more bytes not shown]", who, len - shown);
}
