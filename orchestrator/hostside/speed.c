/* speed.c: the machine's CPU speed over a phase (see speed.h). */
#include "hostside/speed.h"

#include "util/median.h"
#include "util/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

#define SPEED_UNIT_BYTES (256 * 1024)

static double thread_cpu_s(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return NAN;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the same bytes every time: letters, compressible about 1.8:1 */
static void fill(unsigned char *b, size_t n)
{
    unsigned x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = (unsigned char)('a' + (x >> 24) % (i % 4 ? 8 : 26));
    }
}

/* the job's input and room for its output, made once */
struct unit_buf {
    unsigned char *in, *out;
    uLongf cap;
};

static void buf_init(struct unit_buf *b)
{
    b->in = xcalloc(1, SPEED_UNIT_BYTES);
    b->cap = compressBound(SPEED_UNIT_BYTES);
    b->out = xcalloc(1, b->cap);
    fill(b->in, SPEED_UNIT_BYTES);
}

static void buf_free(struct unit_buf *b)
{
    free(b->in);
    free(b->out);
}

/* one unit, timed by the thread's CPU clock */
static double unit(struct unit_buf *b)
{
    uLongf len = b->cap;
    double t0 = thread_cpu_s();
    int rc = compress2(b->out, &len, b->in, SPEED_UNIT_BYTES, 6);
    double t = thread_cpu_s() - t0;
    return rc == Z_OK && t > 0 ? t : NAN;
}

double speed_unit_s(void)
{
    struct unit_buf b;
    buf_init(&b);
    double t = unit(&b);
    buf_free(&b);
    return t;
}

struct speed_probe {
    pthread_t th;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
    double period_s;
    double *v;
    size_t n, cap;
};

static void *probe_main(void *arg)
{
    struct speed_probe *p = arg;
    struct unit_buf b; /* filled once: each period runs the job alone */
    buf_init(&b);
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        pthread_mutex_unlock(&p->lock);
        double u = unit(&b);
        pthread_mutex_lock(&p->lock);
        if (isfinite(u)) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 64;
                p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
            }
            p->v[p->n++] = u;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double s = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + p->period_s;
        until.tv_sec = (time_t)s;
        until.tv_nsec = (long)((s - (double)until.tv_sec) * 1e9);
        while (!p->stop && pthread_cond_timedwait(&p->cond, &p->lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&p->lock);
    buf_free(&b);
    return NULL;
}

struct speed_probe *speed_start(double period_s)
{
    struct speed_probe *p = xcalloc(1, sizeof(*p));
    p->period_s = period_s;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    if (pthread_create(&p->th, NULL, probe_main, p) != 0) {
        pthread_cond_destroy(&p->cond);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    return p;
}

double speed_stop(struct speed_probe *p, size_t *n)
{
    *n = 0;
    if (!p)
        return NAN;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->th, NULL);
    *n = p->n;
    double m = median_sort(p->v, p->n);
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
    free(p->v);
    free(p);
    return m;
}
