/* samples.c: the samples.jsonl writer (see samples.h). */
#include "results/samples.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

struct samples {
    pthread_mutex_t lock; /* guards labels, pending and f */
    FILE *f;
    char dir[PATH_MAX];
    char path[PATH_MAX];
    json_object *labels;  /* of the current run */
    json_object *pending; /* array of samples of the current run */
    json_object *hosts;   /* of the current run: "<guest>" -> host label */
};

struct samples *samples_open(const char *results_dir)
{
    struct samples *s = xcalloc(1, sizeof(*s));
    snprintf(s->dir, sizeof(s->dir), "%s", results_dir);
    path_join(s->path, sizeof(s->path), results_dir, "samples.jsonl");
    /* appended to, never through a link (results.h: the run's own directory) */
    int fd = open(s->path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    s->f = fd >= 0 ? fdopen(fd, "a") : NULL;
    if (!s->f) {
        if (fd >= 0)
            close(fd);
        log_error("Cannot open '%s': %s", s->path, strerror(errno));
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

/* with the lock held */
static void discard_locked(struct samples *s)
{
    json_object_put(s->pending);
    json_object_put(s->labels);
    json_object_put(s->hosts);
    s->pending = s->labels = s->hosts = NULL;
}

void samples_discard_run(struct samples *s)
{
    pthread_mutex_lock(&s->lock);
    discard_locked(s);
    pthread_mutex_unlock(&s->lock);
}

void samples_restart_run(struct samples *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->pending) {
        json_object_put(s->pending);
        s->pending = json_object_new_array();
    }
    pthread_mutex_unlock(&s->lock);
}

void samples_close(struct samples *s)
{
    if (!s)
        return;
    discard_locked(s);
    fclose(s->f);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void samples_begin_run(struct samples *s, json_object *labels)
{
    json_object *copy = NULL;
    json_object_deep_copy(labels, &copy, NULL);
    pthread_mutex_lock(&s->lock);
    discard_locked(s);
    s->labels = copy;
    s->pending = json_object_new_array();
    pthread_mutex_unlock(&s->lock);
}

void samples_set_host(struct samples *s, int guest, const char *host)
{
    char key[16];
    snprintf(key, sizeof(key), "%d", guest);
    pthread_mutex_lock(&s->lock);
    if (s->pending) {
        if (!s->hosts)
            s->hosts = json_object_new_object();
        json_object_object_add(s->hosts, key, json_object_new_string(host));
    }
    pthread_mutex_unlock(&s->lock);
}

static double unix_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void samples_add(struct samples *s, const char *metric, double value, const char *unit, int guest,
                 const char *source, double timestamp, json_object *extra)
{
    pthread_mutex_lock(&s->lock);
    if (!s->pending) { /* no run begun: nothing to attach the sample to */
        pthread_mutex_unlock(&s->lock);
        json_object_put(extra);
        return;
    }
    json_object *labels = NULL;
    json_object_deep_copy(s->labels, &labels, NULL);
    json_object_object_add(labels, "guest", json_object_new_int(guest));
    char key[16];
    json_object *host;
    snprintf(key, sizeof(key), "%d", guest);
    if (s->hosts && json_object_object_get_ex(s->hosts, key, &host))
        json_object_object_add(labels, "host", json_object_get(host));
    if (extra) {
        json_object_object_foreach(extra, k, v) json_object_object_add(labels, k, json_object_get(v));
        json_object_put(extra);
    }
    json_object *o = json_object_new_object();
    json_object_object_add(o, "metric", json_object_new_string(metric));
    json_object_object_add(o, "value", json_object_new_double(value));
    json_object_object_add(o, "unit", json_object_new_string(unit));
    json_object_object_add(o, "labels", labels);
    json_object_object_add(o, "timestamp", json_object_new_double(timestamp > 0 ? timestamp : unix_now()));
    if (source) {
        size_t n = strlen(s->dir);
        const char *rel = strncmp(source, s->dir, n) == 0 && source[n] == '/' ? source + n + 1 : source;
        json_object_object_add(o, "source", json_object_new_string(rel));
    }
    json_object_array_add(s->pending, o);
    pthread_mutex_unlock(&s->lock);
}

int samples_end_run(struct samples *s)
{
    int rc = 0;
    pthread_mutex_lock(&s->lock);
    if (!s->pending)
        goto out;
    size_t n = json_object_array_length(s->pending);
    for (size_t i = 0; i < n; i++) {
        const char *line = json_object_to_json_string_ext(json_object_array_get_idx(s->pending, i),
                                                          JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        if (fprintf(s->f, "%s\n", line) < 0)
            break;
    }
    discard_locked(s);
    if (fflush(s->f) != 0 || fsync(fileno(s->f)) != 0) {
        log_error("Cannot write '%s': %s", s->path, strerror(errno));
        rc = -1;
    }
out:
    pthread_mutex_unlock(&s->lock);
    return rc;
}
