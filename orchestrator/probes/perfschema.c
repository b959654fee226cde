/* perfschema.c: the performance_schema probe (see perfschema.h and
 * probe.h): per-thread sums for the benchmark's connections, read twice
 * during the measure phase. */
#include "probes/perfschema.h"
#include "probes/probe.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsers (hostile input) ---- */

int perfschema_parse_threads(const struct sql_result *r, unsigned long long *ids, size_t max)
{
    if (r->rows && r->cols < 1)
        return -1;
    size_t n = 0;
    for (size_t row = 0; row < r->rows; row++) {
        const char *c = sql_cell(r, row, 0);
        if (!*c || strspn(c, "0123456789") != strlen(c) || strlen(c) > 19)
            return -1;
        if (n < max)
            ids[n++] = strtoull(c, NULL, 10);
    }
    return (int)n;
}

static const char *const kind_names[PS_KINDS] = {"read", "synch", "commit", "statement", "transaction"};

int perfschema_parse_sums(const struct sql_result *r, struct ps_reading *out)
{
    memset(out, 0, sizeof(*out));
    if (r->cols < 3)
        return -1;
    unsigned seen = 0;
    for (size_t row = 0; row < r->rows; row++) {
        const char *kind = sql_cell(r, row, 0);
        double a, b;
        if (sql_decimal(sql_cell(r, row, 1), &a) < 0 || sql_decimal(sql_cell(r, row, 2), &b) < 0)
            return -1;
        int k;
        for (k = 0; k < PS_KINDS && strcmp(kind, kind_names[k]) != 0; k++)
            ;
        if (k < PS_KINDS) {
            if (seen & (1u << k))
                return -1;
            seen |= 1u << k;
            out->count[k] = a;
            out->wait_s[k] = b / 1e12;
        } else if (!strcmp(kind, "now")) {
            if (seen & (1u << PS_KINDS))
                return -1;
            seen |= 1u << PS_KINDS;
            out->threads = a;
            out->now_s = b / 1e6;
        } else {
            return -1;
        }
    }
    return seen == (1u << (PS_KINDS + 1)) - 1 ? 0 : -1;
}

/* ---- the probe ---- */

struct state {
    bool on;                /* performance_schema is on in the server */
    unsigned long long ids[PERFSCHEMA_THREADS_MAX];
    size_t n;
    struct ps_reading r[2];
    bool ok[2];
};

static int before(struct probe_target *pt, void **state)
{
    if (!pt->needs_db)
        return 0;
    struct state *st = xcalloc(1, sizeof(*st));
    *state = st;
    struct sql_result r = {0};
    st->on = sql_query(pt->t->sql, "SELECT @@performance_schema", &r) == 0 && r.rows == 1 &&
             !strcmp(sql_cell(&r, 0, 0), "1");
    sql_result_free(&r);
    return 0;
}

static int after(struct probe_target *pt, void *state)
{
    (void)pt, (void)state;
    return 0;
}

/* The sums query over the chosen threads (malloc'd). */
static char *sums_query(const struct state *st)
{
    char *list = xcalloc(st->n * 21 + 1, 1);
    size_t used = 0;
    for (size_t i = 0; i < st->n; i++)
        used += (size_t)snprintf(list + used, st->n * 21 + 1 - used, "%s%llu", i ? "," : "", st->ids[i]);
    static const char *const parts[] = {
        "read", "events_waits_summary_by_thread_by_event_name",
        "EVENT_NAME = 'wait/io/file/innodb/innodb_data_file'",
        "synch", "events_waits_summary_by_thread_by_event_name", "EVENT_NAME LIKE 'wait/synch/%'",
        "commit", "events_stages_summary_by_thread_by_event_name",
        "EVENT_NAME IN ('stage/sql/Commit', 'stage/sql/Commit implicit')",
        "statement", "events_statements_summary_by_thread_by_event_name", "1",
        "transaction", "events_transactions_summary_by_thread_by_event_name", "1",
    };
    char *q = NULL;
    size_t qlen = 0;
    FILE *f = open_memstream(&q, &qlen);
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i += 3)
        fprintf(f,
                "SELECT '%s', COALESCE(SUM(COUNT_STAR), 0), COALESCE(SUM(SUM_TIMER_WAIT), 0) FROM "
                "performance_schema.%s WHERE THREAD_ID IN (%s) AND %s UNION ALL ",
                parts[i], parts[i + 1], list, parts[i + 2]);
    fprintf(f,
            "SELECT 'now', (SELECT COUNT(*) FROM performance_schema.threads WHERE THREAD_ID IN (%s)), "
            "ROUND(UNIX_TIMESTAMP(SYSDATE(6)) * 1000000)",
            list);
    fclose(f);
    free(list);
    return q;
}

static void during(struct probe_target *pt, void *state, int k)
{
    struct state *st = state;
    if (!st || !st->on || k < 0 || k > 1 || (k == 1 && !st->ok[0]))
        return;
    struct sql_result r = {0};
    if (k == 0) {
        int n = -1;
        if (sql_query(pt->t->sql,
                      "SELECT THREAD_ID FROM performance_schema.threads WHERE PROCESSLIST_DB = "
                      "'sbtest' AND PROCESSLIST_ID <> CONNECTION_ID() AND TYPE = 'FOREGROUND'",
                      &r) == 0)
            n = perfschema_parse_threads(&r, st->ids, PERFSCHEMA_THREADS_MAX);
        sql_result_free(&r);
        if (n <= 0) {
            log_warn("%s: performance_schema shows no connection of the benchmark: its waits are "
                     "not recorded",
                     pt->t->name);
            return;
        }
        st->n = (size_t)n;
    }
    char *q = sums_query(st);
    st->ok[k] = sql_query(pt->t->sql, q, &r) == 0 && perfschema_parse_sums(&r, &st->r[k]) == 0;
    sql_result_free(&r);
    free(q);
    if (!st->ok[k])
        log_warn("%s: cannot read performance_schema's sums (instant %d): not recorded", pt->t->name, k);
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st || !layers || !st->ok[0] || !st->ok[1])
        return;
    const struct ps_reading *a = &st->r[0], *b = &st->r[1];
    if (b->threads != (double)st->n || a->threads != (double)st->n) {
        log_warn("%s: a connection of the benchmark went away between the readings: "
                 "performance_schema's sums are not recorded",
                 pt->t->name);
        return;
    }
    double interval = b->now_s - a->now_s;
    if (!(interval > 0))
        return;
    static const char *const wait_names[PS_KINDS] = {"ps_read_wait_s", "ps_synch_wait_s", "ps_commit_s",
                                                     "ps_statement_s", "ps_transaction_s"};
    static const char *const count_names[PS_KINDS] = {"ps_reads", "ps_synch_waits", "ps_commits",
                                                      "ps_statements", "ps_transactions"};
    struct figure {
        const char *name, *unit;
        double v;
    } out[2 + 2 * PS_KINDS] = {{"ps_interval_s", "s", interval}, {"ps_threads", "count", (double)st->n}};
    size_t n = 2;
    for (int k = 0; k < PS_KINDS; k++) {
        if (b->wait_s[k] < a->wait_s[k] || b->count[k] < a->count[k])
            continue; /* a sum that went down is not a sum of these threads */
        out[n++] = (struct figure){wait_names[k], "s", b->wait_s[k] - a->wait_s[k]};
        out[n++] = (struct figure){count_names[k], "count", b->count[k] - a->count[k]};
    }
    for (size_t i = 0; i < n; i++) {
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "layer", json_object_new_string("innodb"));
        samples_add(s, out[i].name, out[i].v, out[i].unit, pt->t->guest, NULL, 0, extra);
    }
}

const struct probe probe_perfschema = {
    .name = "perfschema",
    .before = before,
    .after = after,
    .during = during,
    .record = record,
    .free = free,
};
