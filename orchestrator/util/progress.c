/* progress.c: live status lines (see progress.h). */
#include "util/progress.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct line {
    char name[64];
    char state[160];
};

struct progress {
    size_t n;
    struct line *lines;
    bool tty;
    bool drawn;
    double t0;
    pthread_mutex_t lock;
};

struct progress *progress_new(size_t n, const char *const names[])
{
    struct progress *p = xcalloc(1, sizeof(*p));
    if (!p || !(p->lines = xcalloc(n ? n : 1, sizeof(struct line))))
        abort();
    p->n = n;
    p->tty = isatty(STDERR_FILENO) && getenv("TERM") && strcmp(getenv("TERM"), "dumb") != 0;
    p->t0 = monotime_s();
    pthread_mutex_init(&p->lock, NULL);
    for (size_t i = 0; i < n; i++)
        snprintf(p->lines[i].name, sizeof(p->lines[i].name), "%s", names[i]);
    return p;
}

/* with the lock held */
static void redraw(struct progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\033[%zuA", p->n);
    double el = monotime_s() - p->t0;
    for (size_t i = 0; i < p->n; i++)
        fprintf(stderr, "\r\033[K  %-28s %4.0fs  %s\n", p->lines[i].name, el, p->lines[i].state);
    fflush(stderr);
    p->drawn = true;
}

void progress_set(struct progress *p, size_t i, const char *fmt, ...)
{
    char raw[160], state[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    /* it may quote a guest's words (its status file): made safe, one line */
    log_sanitize(raw, strlen(raw), state, sizeof(state));
    pthread_mutex_lock(&p->lock);
    if (i < p->n && strcmp(p->lines[i].state, state) != 0) {
        snprintf(p->lines[i].state, sizeof(p->lines[i].state), "%s", state);
        if (p->tty) {
            redraw(p);
        } else {
            time_t t = time(NULL);
            char hms[16];
            strftime(hms, sizeof(hms), "%H:%M:%S", localtime(&t));
            fprintf(stderr, "%s %s: %s (%.0f s)\n", hms, p->lines[i].name, state, monotime_s() - p->t0);
            fflush(stderr);
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_tick(struct progress *p)
{
    if (!p->tty)
        return;
    pthread_mutex_lock(&p->lock);
    redraw(p);
    pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
    if (!p)
        return;
    progress_tick(p);
    pthread_mutex_destroy(&p->lock);
    free(p->lines);
    free(p);
}
