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

double speed_unit_s(void)
{
    unsigned char *in = xcalloc(1, SPEED_UNIT_BYTES);
    uLongf cap = compressBound(SPEED_UNIT_BYTES), len = cap;
    unsigned char *out = xcalloc(1, cap);
    fill(in, SPEED_UNIT_BYTES);
    double t0 = thread_cpu_s();
    int rc = compress2(out, &len, in, SPEED_UNIT_BYTES, 6);
    double t = thread_cpu_s() - t0;
    free(in);
    free(out);
    return rc == Z_OK && t > 0 ? t : NAN;
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
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        pthread_mutex_unlock(&p->lock);
        double u = speed_unit_s();
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
