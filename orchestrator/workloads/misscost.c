/* misscost.c: the cost of one buffer-pool miss, measured in the target's
 * server (see misscost.h). */
#include "workloads/misscost.h"

#include "model/gap.h"
#include "util/log.h"
#include "util/xalloc.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READS                                                                                      \
    "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "                                \
    "WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_READS')"
#define NOW "UNIX_TIMESTAMP(SYSDATE(6))"

/* "SELECT ... WHERE id IN (ids)" over n ids */
static char *lookup(const long long *ids, size_t n)
{
    size_t cap = 128 + n * 21, len = 0;
    char *s = xcalloc(1, cap);
    len += (size_t)snprintf(s, cap, "SELECT SQL_NO_CACHE SUM(LENGTH(c)) INTO @x "
                                    "FROM sbtest.sbtest1 WHERE id IN (");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s%lld", i ? "," : "", ids[i]);
    snprintf(s + len, cap - len, ")");
    return s;
}

/* xorshift32: the cold ids need only be spread, not unpredictable */
static unsigned next(unsigned *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* the lookups of each kind in one pass: one per row of a smaller table */
static size_t per_pass(long long table_size)
{
    return table_size < MISSCOST_IDS ? (size_t)(table_size > 0 ? table_size : 1) : MISSCOST_IDS;
}

char **misscost_statements(long long table_size, unsigned seed)
{
    size_t n = per_pass(table_size);
    long long *ids = xcalloc(n, sizeof(*ids));
    size_t k = 0;
    char **st = xcalloc(2 + 6 * MISSCOST_PASSES + 1, sizeof(*st));
    st[k++] = xstrdup("SET @hs = 0, @hr = 0, @cs = 0, @cr = 0");
    unsigned x = seed * 2654435761u + 1;
    long long stratum = table_size > (long long)n ? table_size / (long long)n : 1;
    for (int p = 0; p < MISSCOST_PASSES; p++) {
        /* one id in each of n equal strata of the table: distinct, spread */
        for (size_t i = 0; i < n; i++)
            ids[i] = (long long)i * stratum + 1 +
                     (stratum > 1 ? (long long)(next(&x) % (unsigned long long)stratum) : 0);
        char *q = lookup(ids, n);
        st[k++] = xstrdup("SET @t = " NOW ", @r = " READS);
        st[k++] = xstrdup(q); /* cold: most of these pages are not in the pool */
        st[k++] = xstrdup("SET @cs = @cs + " NOW " - @t, @cr = @cr + " READS " - @r");
        st[k++] = xstrdup("SET @t = " NOW ", @r = " READS);
        st[k++] = q; /* hot: the same pages, just read */
        st[k++] = xstrdup("SET @hs = @hs + " NOW " - @t, @hr = @hr + " READS " - @r");
    }
    st[k++] = xstrdup("SELECT @hs, @hr, @cs, @cr");
    st[k] = NULL;
    free(ids);
    return st;
}

void misscost_free(char **stmts)
{
    for (size_t i = 0; stmts && stmts[i]; i++)
        free(stmts[i]);
    free(stmts);
}

int misscost_parse(const struct sql_result *r, struct misscost *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (r->rows != 1 || r->cols != 4) {
        snprintf(err, errlen, "expected one row of 4 figures, got %zu row%s of %zu", r->rows,
                 r->rows == 1 ? "" : "s", r->cols);
        return -1;
    }
    double v[4];
    for (size_t c = 0; c < 4; c++)
        if (sql_decimal(sql_cell(r, 0, c), &v[c]) < 0) {
            snprintf(err, errlen, "figure %zu is not a non-negative number: '%.40s'", c + 1,
                     sql_cell(r, 0, c));
            return -1;
        }
    *out = (struct misscost){.hot_s = v[0], .hot_reads = v[1], .cold_s = v[2], .cold_reads = v[3]};
    return 0;
}

double misscost_per_miss(const struct misscost *m)
{
    return gap_miss_cost(m->hot_s, m->hot_reads, m->cold_s, m->cold_reads);
}

int misscost_probe(struct wl_job *j)
{
    long long size = j->cfg->table_size;
    if (size < 1 || !j->t->sql)
        return 0;
    char **st = misscost_statements(size, (unsigned)j->t->guest + 1);
    struct sql_result r = {0};
    struct misscost m;
    char err[160];
    int rc = sql_run(j->t->sql, (const char *const *)st, &r);
    if (rc == 0 && misscost_parse(&r, &m, err, sizeof(err)) < 0) {
        log_warn("%s: the miss-cost probe's reply is not usable (%s): no miss cost", j->t->name, err);
        rc = -1;
    } else if (rc < 0) {
        log_warn("%s: the miss-cost probe failed: no miss cost", j->t->name);
    }
    sql_result_free(&r);
    misscost_free(st);
    if (rc < 0)
        return 0;
    m.lookups = (long)per_pass(size) * MISSCOST_PASSES;
    struct samples *s = j->samples;
    int g = j->t->guest;
    samples_add(s, "miss_probe_hot_s", m.hot_s, "s", g, NULL, 0, NULL);
    samples_add(s, "miss_probe_hot_reads", m.hot_reads, "count", g, NULL, 0, NULL);
    samples_add(s, "miss_probe_cold_s", m.cold_s, "s", g, NULL, 0, NULL);
    samples_add(s, "miss_probe_cold_reads", m.cold_reads, "count", g, NULL, 0, NULL);
    samples_add(s, "miss_probe_lookups", (double)m.lookups, "count", g, NULL, 0, NULL);
    double c = misscost_per_miss(&m);
    if (isfinite(c))
        log_info("%s: a buffer-pool miss costs %.2f ms (%.0f extra misses in %ld lookups)", j->t->name,
                 c * 1000, m.cold_reads - m.hot_reads, m.lookups);
    else
        log_info("%s: too few misses outside the pool (%.0f in %ld lookups) to price one", j->t->name,
                 m.cold_reads - m.hot_reads, m.lookups);
    return 0;
}
