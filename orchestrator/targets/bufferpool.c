/* bufferpool.c: the memory a target leaves InnoDB (see bufferpool.h). */
#include "targets/bufferpool.h"

#include "util/log.h"
#include "util/procfs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the pool's pages in use, bytes; -1 unknown */
static double pool_in_use(struct target *t)
{
    struct sql_result r = {0};
    if (sql_query(t->sql,
                  "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_total', "
                  "'Innodb_buffer_pool_pages_free', 'Innodb_page_size')",
                  &r) < 0)
        return -1;
    double total = sql_status(&r, "Innodb_buffer_pool_pages_total");
    double free_pages = sql_status(&r, "Innodb_buffer_pool_pages_free");
    double page = sql_status(&r, "Innodb_page_size");
    sql_result_free(&r);
    if (!(total >= 0 && free_pages >= 0 && free_pages <= total && page > 0))
        return -1;
    return (total - free_pages) * page;
}

int bufferpool_measure(struct target *t, const struct run_config *cfg, struct ws_pool *out,
                       char *why, size_t len)
{
    double in_use = pool_in_use(t), outside = NAN;
    if (in_use < 0) {
        snprintf(why, len, "InnoDB's buffer pool pages cannot be read");
        return -1;
    }
    if (t->own_kernel) {
        char *text = target_read_text(t, "/proc/meminfo");
        double avail;
        if (text && procfs_parse_meminfo(text, "MemAvailable", &avail) == 0)
            outside = (double)cfg->memory - avail - in_use;
        free(text);
        if (isnan(outside)) {
            snprintf(why, len, "its /proc/meminfo (MemAvailable) cannot be read");
            return -1;
        }
    } else {
        struct target_status st;
        if (target_status(t, &st) == 0 && isfinite(st.server_rss_bytes))
            outside = st.server_rss_bytes - in_use;
        if (isnan(outside)) {
            snprintf(why, len, "its mariadbd's resident memory is not known here");
            return -1;
        }
    }
    ws_pool_auto(cfg->memory, outside < 0 ? 0 : (long long)outside, cfg->threads, out);
    return 0;
}

long long bufferpool_size(struct target *t)
{
    struct sql_result r = {0};
    long long v = -1;
    if (sql_query(t->sql, "SELECT @@innodb_buffer_pool_size", &r) == 0 && r.rows == 1) {
        double d = sql_number(&r, 0, 0);
        v = d > 0 ? (long long)d : -1;
    }
    sql_result_free(&r);
    return v;
}

int bufferpool_resize(struct target *t, long long bytes, long timeout, long long *actual)
{
    char q[128];
    snprintf(q, sizeof(q), "SET GLOBAL innodb_buffer_pool_size = %lld", bytes);
    struct sql_result r = {0};
    int rc = sql_query(t->sql, q, &r);
    sql_result_free(&r);
    if (rc < 0) {
        log_error("%s: cannot set innodb_buffer_pool_size to %lld bytes", t->name, bytes);
        return -1;
    }
    /* InnoDB resizes in the background: done when its status says so (or
     * says nothing: a resize that finished leaves it empty in 10.11) */
    for (long waited = 0;; waited++) {
        const char *s = "";
        rc = sql_query(t->sql, "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'", &r);
        if (rc == 0 && r.rows == 1)
            s = sql_cell(&r, 0, 1);
        bool done = rc == 0 && (!*s || strstr(s, "Completed") || strstr(s, "did not change"));
        sql_result_free(&r);
        if (done)
            break;
        if (waited >= timeout) {
            log_error("%s: InnoDB did not finish resizing its buffer pool within %ld s", t->name,
                      timeout);
            return -1;
        }
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    *actual = bufferpool_size(t);
    return *actual > 0 ? 0 : -1;
}
