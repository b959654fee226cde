/* speed.c: the machine's CPU speed over a phase (see speed.h). */
#include "hostside/speed.h"

#include "util/median.h"
#include "util/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

#define SPEED_UNIT_BYTES (256 * 1024)
/* the memory unit's table: 2^24 entries of 4 bytes, 64 MiB, far beyond a
 * CPU's caches */
#define SPEED_CHASE_BITS 24
#define SPEED_CHASE_ENTRIES (1u << SPEED_CHASE_BITS)

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

/* The memory unit's table: entry i holds the next index, (a x i + c) mod
 * 2^24 with a = 1 mod 4 and c odd -- one cycle through every entry
 * (Hull-Dobell), its steps scattered over the 64 MiB, so each load depends
 * on the one before and no prefetcher guesses it. */
struct chase {
    uint32_t *next;
    uint32_t at; /* where the last unit stopped: each unit goes on, never
                    revisiting what a cache may still hold */
};

static int chase_init(struct chase *c)
{
    c->next = malloc((size_t)SPEED_CHASE_ENTRIES * sizeof(*c->next));
    if (!c->next)
        return -1;
    for (uint32_t i = 0; i < SPEED_CHASE_ENTRIES; i++)
        c->next[i] = (uint32_t)((2891336453u * i + 12345u) & (SPEED_CHASE_ENTRIES - 1));
    c->at = 0;
    return 0;
}

/* where the chase ended, kept so that no compiler drops the loads */
static volatile uint32_t chase_sink;

/* SPEED_CHASE_LOADS dependent loads, timed by the thread's CPU clock */
static double chase_unit(struct chase *c)
{
    if (!c->next)
        return NAN;
    uint32_t i = c->at;
    double t0 = thread_cpu_s();
    for (unsigned k = 0; k < SPEED_CHASE_LOADS; k++)
        i = c->next[i];
    chase_sink = i;
    double t = thread_cpu_s() - t0;
    c->at = i;
    return t > 0 ? t : NAN;
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

double speed_memory_unit_s(void)
{
    struct chase c;
    if (chase_init(&c) < 0)
        return NAN;
    double t = chase_unit(&c);
    free(c.next);
    return t;
}

struct speed_probe {
    pthread_t th;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
    double period_s;
    double *v, *mem; /* each period's units; mem NAN where it could not run */
    size_t n, cap;
};

static void *probe_main(void *arg)
{
    struct speed_probe *p = arg;
    struct unit_buf b; /* filled once: each period runs the jobs alone */
    buf_init(&b);
    struct chase c = {0};
    if (chase_init(&c) < 0)
        c.next = NULL; /* no memory unit: the zlib unit alone */
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        pthread_mutex_unlock(&p->lock);
        double u = unit(&b), m = chase_unit(&c);
        pthread_mutex_lock(&p->lock);
        if (isfinite(u)) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 64;
                p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
                p->mem = xrealloc(p->mem, p->cap * sizeof(*p->mem));
            }
            p->mem[p->n] = m;
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
    free(c.next);
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

double speed_stop(struct speed_probe *p, size_t *n, double *mem_s)
{
    *n = 0;
    if (mem_s)
        *mem_s = NAN;
    if (!p)
        return NAN;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->th, NULL);
    *n = p->n;
    double m = median_sort(p->v, p->n);
    /* the memory unit's median where every period ran it */
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        k += isfinite(p->mem[i]);
    if (mem_s && k == p->n && k)
        *mem_s = median_sort(p->mem, p->n);
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
    free(p->v);
    free(p->mem);
    free(p);
    return m;
}
