/* job.c: a workload's phase on every target at once, a thread each, the
 * first failure kept as the run's reason (see workload.h). */
#include "workloads/workload.h"

#include "util/signals.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void wl_run_init(struct wl_run *r, const struct run_config *cfg, struct target *t, size_t n,
                 struct samples *samples)
{
    *r = (struct wl_run){.n = n, .measure_s = cfg->duration > 0 ? (double)cfg->duration : 0};
    pthread_mutex_init(&r->lock, NULL);
    r->jobs = xcalloc(n, sizeof(*r->jobs));
    for (size_t i = 0; i < n; i++)
        r->jobs[i] = (struct wl_job){.cfg = cfg, .t = &t[i], .samples = samples, .run = r};
}

void wl_run_free(struct wl_run *r, void (*free_state)(struct wl_job *j))
{
    for (size_t i = 0; free_state && i < r->n; i++)
        free_state(&r->jobs[i]);
    free(r->jobs);
    r->jobs = NULL;
    pthread_mutex_destroy(&r->lock);
}

static int vfail(struct wl_run *r, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&r->lock);
    if (!r->error[0]) {
        /* the reason names the phase; the message names the target */
        int n = snprintf(r->error, sizeof(r->error), "in phase %s: ", r->phase ? r->phase : "setup");
        vsnprintf(r->error + n, sizeof(r->error) - (size_t)n, fmt, ap);
    }
    pthread_mutex_unlock(&r->lock);
    return -1;
}

int wl_fail(struct wl_job *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j->run, fmt, ap);
    va_end(ap);
    return -1;
}

int wl_run_fail(struct wl_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    return -1;
}

struct thread_arg {
    struct wl_job *j;
    int (*fn)(struct wl_job *);
};

static void *job_thread(void *arg)
{
    struct thread_arg *a = arg;
    a->j->rc = a->fn(a->j);
    return NULL;
}

int wl_each(struct wl_run *r, int (*fn)(struct wl_job *), bool together)
{
    pthread_t *th = xcalloc(r->n, sizeof(*th));
    struct thread_arg *args = xcalloc(r->n, sizeof(*args));
    if (together)
        pthread_barrier_init(&r->barrier, NULL, (unsigned)r->n);
    for (size_t i = 0; i < r->n; i++) {
        args[i] = (struct thread_arg){&r->jobs[i], fn};
        pthread_create(&th[i], NULL, job_thread, &args[i]);
    }
    int rc = 0;
    for (size_t i = 0; i < r->n; i++) {
        pthread_join(th[i], NULL);
        if (r->jobs[i].rc < 0)
            rc = -1;
    }
    if (together)
        pthread_barrier_destroy(&r->barrier);
    free(args);
    free(th);
    if (rc == 0 && signals_interrupted())
        rc = wl_run_fail(r, "interrupted by %s", signals_name());
    return rc;
}

void wl_together(struct wl_job *j) { pthread_barrier_wait(&j->run->barrier); }

int wl_run_program(struct wl_job *j, const char *const argv[], const char *const env[],
                   const char *out_name, long timeout, long first_ms, const char *what)
{
    int exitcode = -1;
    if (target_start(j->t, argv, env, out_name) < 0 || target_wait(j->t, timeout, first_ms, &exitcode) < 0)
        return wl_fail(j, "%s did not complete in %s", what, j->t->name);
    if (exitcode != 0)
        return wl_fail(j, "%s failed in %s (exit %d); see %s", what, j->t->name, exitcode,
                       j->t->out_path);
    return 0;
}
