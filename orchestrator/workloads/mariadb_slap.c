/* mariadb_slap.c: mariadb-slap (MariaDB's client package; in the image and
 * on the host) as a workload: its auto-generated mixed load -- a table of
 * ints and varchars that its clients insert into and select from --
 * against the target's server (see workload.h).
 *
 *   prepare   a short run (threads clients, 10 queries each): the tool
 *             and the server answer before anything is measured
 *   measure   mariadb-slap --iterations=3 with threads clients and
 *             table_size queries in all, started in every target at the
 *             same moment; its report parsed. Half the queries insert rows,
 *             half scan the table they grow: the time per query grows with
 *             the count, so every target of every arm runs the same count
 *             (a rate calibrated per target would compare unlike loads)
 *   record    per target: slap_qps (all clients' queries over the mean
 *             time of an iteration), slap_avg_s, slap_min_s, slap_max_s,
 *             slap_clients, slap_queries_per_client; the arm's headline
 *             qps_arm (q/s): the sum over its targets
 *
 * The keys it reads: threads (--concurrency), table_size
 * (--number-of-queries), timeout_prepare (the limit of each run). It has no
 * warm-up: each iteration creates and drops its own schema (vbed_slap). */
#include "workloads/workload.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLAP_ITERATIONS 3
#define SLAP_CHECK_QUERIES 10 /* per client, in prepare */

/* mariadb-slap's report */
struct slap_report {
    double avg_s, min_s, max_s; /* seconds to run all queries, over the iterations */
    long long clients, queries_per_client;
};

/* per target */
struct slap {
    struct slap_report report;
    bool parsed;
    double ts; /* UNIX time the figures are of */
};

static struct slap *slap_of(struct wl_job *j)
{
    if (!j->state)
        j->state = xcalloc(1, sizeof(struct slap));
    return j->state;
}

static void free_state(struct wl_job *j)
{
    free(j->state);
    j->state = NULL;
}

/* "<label>: <number>" in text; -1 if absent or not a finite number >= 0 */
static int field(const char *text, const char *label, double *v)
{
    const char *p = strstr(text, label);
    if (!p)
        return -1;
    p += strlen(label);
    char *end;
    double x = strtod(p, &end);
    if (end == p || !isfinite(x) || x < 0 || x > 1e12)
        return -1;
    *v = x;
    return 0;
}

/* The "Benchmark" block mariadb-slap prints (tests/data/slap/). 0, or -1
 * with the reason in err. */
static int slap_parse(const char *text, struct slap_report *out, char *err, size_t errlen)
{
    double clients, qpc;
    if (!text || !strstr(text, "Benchmark")) {
        snprintf(err, errlen, "no 'Benchmark' report");
        return -1;
    }
    if (field(text, "Average number of seconds to run all queries:", &out->avg_s) < 0 ||
        field(text, "Minimum number of seconds to run all queries:", &out->min_s) < 0 ||
        field(text, "Maximum number of seconds to run all queries:", &out->max_s) < 0 ||
        field(text, "Number of clients running queries:", &clients) < 0 ||
        field(text, "Average number of queries per client:", &qpc) < 0) {
        snprintf(err, errlen, "a line of the report is missing or not a number");
        return -1;
    }
    if (clients < 1 || qpc < 1 || out->avg_s <= 0 || out->min_s > out->avg_s || out->max_s < out->avg_s) {
        snprintf(err, errlen, "the report does not add up (clients %g, queries %g, seconds %g/%g/%g)",
                 clients, qpc, out->min_s, out->avg_s, out->max_s);
        return -1;
    }
    out->clients = (long long)clients;
    out->queries_per_client = (long long)qpc;
    return 0;
}

/* queries per second of a report: every client's queries in the mean time */
static double report_qps(const struct slap_report *r)
{
    return (double)r->clients * (double)r->queries_per_client / r->avg_s;
}

/* mariadb-slap on the target with `queries` in all, `iterations` times */
static int run_slap(struct wl_job *j, long long queries, int iterations, const char *out,
                    bool together, struct slap_report *r)
{
    char socket[4200], concurrency[32], iters[32], number[48];
    snprintf(socket, sizeof(socket), "--socket=%s", j->t->socket);
    snprintf(concurrency, sizeof(concurrency), "--concurrency=%lld", j->cfg->threads);
    snprintf(iters, sizeof(iters), "--iterations=%d", iterations);
    snprintf(number, sizeof(number), "--number-of-queries=%lld", queries);
    const char *argv[] = {"mariadb-slap", socket, "--user=root", concurrency, iters, number,
                          "--auto-generate-sql", "--auto-generate-sql-load-type=mixed",
                          "--create-schema=vbed_slap", NULL};
    if (together)
        wl_together(j);
    if (strlen(j->t->socket) + 10 >= sizeof(socket))
        return wl_fail(j, "mariadb-slap's socket path in %s is too long", j->t->name);
    long limit = (long)j->cfg->timeout_prepare;
    if (wl_run_program(j, argv, NULL, out, limit, 1000, "mariadb-slap") < 0)
        return -1;
    char *text = target_output(j->t);
    char err[256];
    int rc = slap_parse(text, r, err, sizeof(err));
    free(text);
    if (rc < 0)
        return wl_fail(j, "cannot read mariadb-slap's report from %s: %s", j->t->out_path, err);
    return 0;
}

static int prepare(struct wl_job *j)
{
    struct slap_report r;
    return run_slap(j, j->cfg->threads * SLAP_CHECK_QUERIES, 1, "slap-prepare.out", false, &r);
}

static int measure(struct wl_job *j)
{
    struct slap *s = slap_of(j);
    if (run_slap(j, j->cfg->table_size, SLAP_ITERATIONS, "slap-measure.out", true, &s->report) < 0)
        return -1;
    s->parsed = true;
    s->ts = j->t->started + s->report.avg_s * SLAP_ITERATIONS;
    return 0;
}

/* the parse op: the target's queries per second */
static int parse(const char *text, double *figure, char *err, size_t errlen)
{
    struct slap_report r;
    if (slap_parse(text, &r, err, errlen) < 0)
        return -1;
    *figure = report_qps(&r);
    return 0;
}

static int record(struct wl_run *r, int rc, double *headline)
{
    double sum = 0;
    size_t parsed = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct wl_job *j = &r->jobs[i];
        struct slap *s = slap_of(j);
        if (!s->parsed)
            continue;
        parsed++;
        const struct slap_report *rep = &s->report;
        double qps = report_qps(rep);
        sum += qps;
        const char *src = j->t->out_path;
        int g = j->t->guest;
        samples_add(j->samples, "slap_qps", qps, "q/s", g, src, s->ts, NULL);
        samples_add(j->samples, "slap_avg_s", rep->avg_s, "s", g, src, s->ts, NULL);
        samples_add(j->samples, "slap_min_s", rep->min_s, "s", g, src, s->ts, NULL);
        samples_add(j->samples, "slap_max_s", rep->max_s, "s", g, src, s->ts, NULL);
        samples_add(j->samples, "slap_clients", (double)rep->clients, "count", g, src, s->ts, NULL);
        samples_add(j->samples, "slap_queries_per_client", (double)rep->queries_per_client, "count", g,
                    src, s->ts, NULL);
        log_info("%s: mariadb-slap %.0f q/s (%lld clients x %lld queries in %.3f s, %d iterations: "
                 "%.3f-%.3f s)",
                 j->t->name, qps, rep->clients, rep->queries_per_client, rep->avg_s, SLAP_ITERATIONS,
                 rep->min_s, rep->max_s);
    }
    if (rc == 0 && parsed == r->n) {
        *headline = sum;
        samples_add(r->jobs[0].samples, "qps_arm", sum, "q/s", 0, NULL, 0, NULL);
        log_info("measured %.0f q/s in %zu target%s", sum, r->n, r->n == 1 ? "" : "s");
    } else if (rc == 0) {
        rc = wl_run_fail(r, "a target has no mariadb-slap report");
    }
    return rc;
}

static const char *const values[] = {"mariadb_slap", NULL};

static const struct workload_metric metrics[] = {
    {"slap_qps", "q/s"},         {"slap_avg_s", "s"},         {"slap_min_s", "s"},
    {"slap_max_s", "s"},         {"slap_clients", "count"},   {"slap_queries_per_client", "count"},
    {NULL, NULL},
};

const struct workload_ops workload_mariadb_slap = {
    .name = "mariadb-slap",
    .values = values,
    .headline = "qps_arm",
    .headline_unit = "q/s",
    .metrics = metrics,
    .needs_db = true,
    .prepare = prepare,
    .warmup = NULL,
    .measure = measure,
    .record = record,
    .free_state = free_state,
    .parse = parse,
};

WORKLOAD_REGISTER(workload_mariadb_slap)
