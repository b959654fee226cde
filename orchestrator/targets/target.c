/* target.c: what every kind of target shares (see target.h): where a
 * program's output goes, when it started, and the calls passed on to the
 * target's ops. */
#include "targets/target.h"

#include "util/paths.h"
#include "util/textfile.h"

#include <stdio.h>
#include <sys/time.h>

static double unix_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

bool target_is_local(const struct target *t) { return !t->hs || hostside_is_local(t->hs); }

void target_close(struct target *t)
{
    if (t->ops && t->ops->close)
        t->ops->close(t);
    t->sql = NULL;
    t->impl = NULL;
}

int target_start(struct target *t, const char *const argv[], const char *const env[],
                 const char *out_name)
{
    path_join(t->out_path, sizeof(t->out_path), t->dir, out_name);
    int rc = t->ops->start(t, argv, env);
    /* the program exists now: this is when its run started */
    t->started = unix_now();
    long long pid = rc < 0 ? -1 : t->ops->program_pid ? t->ops->program_pid(t) : -1;
    __atomic_store_n(&t->program_pid, pid, __ATOMIC_RELEASE);
    return rc;
}

int target_wait(struct target *t, long timeout, long first_ms, int *exitcode)
{
    int rc = t->ops->wait(t, timeout, first_ms, exitcode);
    __atomic_store_n(&t->program_pid, -1LL, __ATOMIC_RELEASE);
    return rc;
}

long long target_program_pid(const struct target *t)
{
    return __atomic_load_n(&t->program_pid, __ATOMIC_ACQUIRE);
}

char *target_output(const struct target *t) { return textfile_read(t->out_path); }

bool target_can_capture(const struct target *t) { return t->ops && t->ops->capture; }

int target_capture(struct target *t, const char *const argv[], long timeout, char **out, int *exitcode)
{
    *out = NULL;
    return t->ops->capture ? t->ops->capture(t, argv, timeout, out, exitcode) : -1;
}

char *target_sh(struct target *t, const char *script, long timeout)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    char *out = NULL;
    int exitcode = -1;
    if (target_capture(t, argv, timeout, &out, &exitcode) < 0 || exitcode != 0) {
        free(out);
        return NULL;
    }
    return out;
}

char *target_read_text(struct target *t, const char *path) { return t->ops->read_text(t, path); }

bool target_can_copy_files(const struct target *t)
{
    return t->ops && t->ops->get_file && t->ops->put_file;
}

int target_get_file(struct target *t, const char *path, size_t max, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    return t->ops->get_file ? t->ops->get_file(t, path, max, data, len) : -1;
}

bool target_can_put_tar(const struct target *t)
{
    return t->ops && t->ops->put_tar;
}

int target_put_tar(struct target *t, const char *tar, const char *dir)
{
    return target_can_put_tar(t) ? t->ops->put_tar(t, tar, dir) : -1;
}

bool target_can_export_tables(const struct target *t)
{
    return t->ops && t->ops->export_tables;
}

int target_export_tables(struct target *t, long long tables, const char *dest, size_t max,
                         double *bytes)
{
    return target_can_export_tables(t) ? t->ops->export_tables(t, tables, dest, max, bytes) : -1;
}

bool target_can_import_tables(const struct target *t)
{
    return t->ops && t->ops->import_tables;
}

int target_import_tables(struct target *t, long long tables, const char *src)
{
    return target_can_import_tables(t) ? t->ops->import_tables(t, tables, src) : -1;
}

int target_put_file(struct target *t, const char *path, const char *data, size_t len)
{
    return t->ops->put_file ? t->ops->put_file(t, path, data, len) : -1;
}

double target_cpu_s(struct target *t) { return t->ops->cpu_s(t); }

int target_status(struct target *t, struct target_status *st)
{
    return t->ops->status ? t->ops->status(t, st) : -1;
}

int target_fetch_log(struct target *t, const char *name)
{
    char dest[PATH_MAX];
    path_join(dest, sizeof(dest), t->dir, name);
    return t->ops->fetch_log(t, dest);
}

int target_archive(struct target *t, bool make, char *buf, size_t len)
{
    return t->ops->archive(t, make, buf, len);
}
