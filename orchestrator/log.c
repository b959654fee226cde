/* log.c: the one place where vbed's messages are formatted and written.
 * Thread-safe: guest workers report from their own threads. */
#include "log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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

static void emit(const char *prefix, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    pthread_mutex_lock(&lock);
    if (sink) {
        char line[4200];
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
