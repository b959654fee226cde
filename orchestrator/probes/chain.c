/* chain.c: the chain probe (see chain.h and probe.h): the foreground
 * chain's threads in exclusive states, read twice during the measure
 * phase on the target's own kernel. */
#include "probes/chain.h"
#include "probes/probe.h"

#include "util/log.h"
#include "util/procfs.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsers (hostile input) ---- */

/* a decimal tid in (0, 2^22] at s; the rest after it into *end */
static int parse_tid(const char *s, const char **end)
{
    long v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > (1L << 22))
            return -1;
    }
    *end = p;
    return v > 0 ? (int)v : -1;
}

int chain_parse_reading(const char *text, struct chain_reading *out)
{
    out->n = 0;
    out->uptime_first = out->uptime_last = NAN;
    if (!text)
        return -1;
    const char *p = text;
    char line[1024];
    int uptimes = 0;
    while (textfile_next_line(&p, line, sizeof(line)) == 0) {
        if (line[0] == 'U' && line[1] == ' ') {
            double u;
            if (procfs_parse_uptime(line + 2, &u) < 0 || uptimes >= 2)
                return -1;
            if (uptimes++ == 0)
                out->uptime_first = u;
            else
                out->uptime_last = u;
            continue;
        }
        if ((line[0] != 'C' && line[0] != 'D') || line[1] != ' ' || uptimes != 1)
            return -1;
        const char *rest;
        int tid = parse_tid(line + 2, &rest);
        if (tid < 0 || *rest != ' ')
            return -1;
        struct chain_thread th = {.kind = line[0], .tid = tid};
        bool ok = procfs_parse_schedstat(rest + 1, &th.oncpu_s, &th.runq_s) == 0;
        /* its stat line follows (or nothing, if the thread ended between the two) */
        char stat[1024];
        const char *save = p;
        if (textfile_next_line(&p, stat, sizeof(stat)) < 0 || stat[0] != 'S' || stat[1] != ' ') {
            p = save;
            continue;
        }
        ok = ok && procfs_parse_task_stat(stat + 2, &th.start, &th.blkio_ticks) == 0;
        if (!ok)
            continue;
        th.state = strrchr(stat, ')')[2]; /* the parser above found one, then a state */
        /* and the moment it was read, if told */
        th.uptime = NAN;
        save = p;
        if (textfile_next_line(&p, line, sizeof(line)) == 0 && line[0] == 'T' && line[1] == ' ') {
            if (procfs_parse_uptime(line + 2, &th.uptime) < 0 || th.uptime < out->uptime_first)
                return -1;
        } else {
            p = save;
        }
        for (size_t i = 0; i < out->n; i++)
            if (out->th[i].tid == tid && out->th[i].kind == th.kind)
                return -1; /* one thread twice */
        if (out->n == CHAIN_THREADS_MAX)
            return -1;
        out->th[out->n++] = th;
    }
    if (uptimes != 2 || out->uptime_last < out->uptime_first)
        return -1;
    for (size_t i = 0; i < out->n; i++)
        if (out->th[i].uptime > out->uptime_last)
            return -1;
    return 0;
}

int chain_parse_processlist(const struct sql_result *r, int *tids, size_t max)
{
    if (r->cols < 2)
        return r->rows ? -1 : 0;
    size_t n = 0;
    for (size_t row = 0; row < r->rows; row++) {
        const char *end, *id = sql_cell(r, row, 0);
        /* ID: the server's connection number, a whole number */
        if (!*id || strspn(id, "0123456789") != strlen(id) || strlen(id) > 20)
            return -1;
        int tid = parse_tid(sql_cell(r, row, 1), &end);
        if (tid < 0 || *end)
            return -1;
        if (n < max)
            tids[n++] = tid;
    }
    return (int)n;
}

int chain_parse_delayacct(const char *text, int *old, int *now, double *since)
{
    if (!text)
        return -1;
    char line[64];
    const char *p = text;
    int o = -1, n = 1;
    if (textfile_next_line(&p, line, sizeof(line)) < 0)
        return -1;
    if (strcmp(line, "none")) {
        char a[2], b[2], rest[2];
        if (sscanf(line, "old %1[01]%1s", a, rest) != 1 || textfile_next_line(&p, line, sizeof(line)) < 0 ||
            sscanf(line, "now %1[01]%1s", b, rest) != 1)
            return -1;
        o = a[0] - '0';
        n = b[0] - '0';
    }
    double up;
    if (textfile_next_line(&p, line, sizeof(line)) < 0 || line[0] != 'U' || line[1] != ' ' ||
        procfs_parse_uptime(line + 2, &up) < 0 || *p)
        return -1;
    *old = o;
    *now = n;
    /* already on (or on by default): every thread accounts its delays */
    *since = o == 0 ? up : 0;
    return 0;
}

const struct chain_thread *chain_older_than(const struct chain_reading *r, double since)
{
    /* in whole ticks: /proc/uptime's 1024.13 is 102413.00000000001 x 1/100
     * s as a double, and a thread started in that tick (102413) would be
     * taken for older than the switch */
    long long tick = llround(since * CHAIN_USER_HZ);
    for (size_t i = 0; i < r->n; i++)
        if (r->th[i].start < tick)
            return &r->th[i];
    return NULL;
}

/* ---- the probe ---- */

#define SYSCTL "/proc/sys/kernel/task_delayacct"

struct state {
    struct target *t;
    int delayacct_old;     /* to restore; -1: nothing */
    bool delayacct_on;
    double delayacct_since; /* the target's uptime when it went on (0: on before) */
    long long cache_old;    /* the server's thread_cache_size to restore; -1: nothing */
    long long pid;         /* sysbench at instant 0 */
    int client[CHAIN_THREADS_MAX / 2], server[CHAIN_THREADS_MAX / 2];
    size_t n_client, n_server;
    struct chain_reading r[2];
    bool ok[2];
};

static void delayacct_restore(struct state *st)
{
    if (st->delayacct_old != 0)
        return;
    char *out = target_sh(st->t, "echo 0 > " SYSCTL, 30);
    if (!out)
        log_warn("%s: cannot turn delay accounting off again (%s = 0)", st->t->name, SYSCTL);
    free(out);
    st->delayacct_old = -1;
}

/* The server's thread cache off for the phase: a connection thread that
 * served the warm-up exits instead of waiting in the cache for the measured
 * program's connection -- it was created before delay accounting went on
 * and accounts no delays. (FLUSH THREADS alone did not do it in guests:
 * the measured connection got the thread that had served prepare --
 * perhaps still finishing that connection when the cache was flushed.)
 * The measured program keeps its connections for the whole phase: no
 * thread is created meanwhile. */
static bool thread_cache_off(struct state *st)
{
    /* one session, one program in a guest: the size it had, then off */
    static const char *const stmts[] = {"SELECT @@thread_cache_size",
                                        "SET GLOBAL thread_cache_size = 0", "FLUSH THREADS", NULL};
    struct sql_result r = {0};
    double v = -1;
    bool ok = sql_run(st->t->sql, stmts, &r) == 0;
    if (ok && r.rows == 1)
        v = sql_number(&r, 0, 0);
    sql_result_free(&r);
    if (!ok)
        return false;
    if (!(v >= 0 && v <= 16384)) {
        log_warn("%s: thread_cache_size did not read as a size: it stays 0 after the phase",
                 st->t->name);
        return false;
    }
    st->cache_old = (long long)v;
    return true;
}

static void thread_cache_restore(struct state *st)
{
    if (st->cache_old < 0)
        return;
    char q[64];
    snprintf(q, sizeof(q), "SET GLOBAL thread_cache_size = %lld", st->cache_old);
    struct sql_result r = {0};
    if (sql_query(st->t->sql, q, &r) < 0)
        log_warn("%s: cannot set thread_cache_size back to %lld", st->t->name, st->cache_old);
    sql_result_free(&r);
    st->cache_old = -1;
}

static int before(struct probe_target *pt, void **state)
{
    if (!pt->needs_db || !target_can_capture(pt->t))
        return 0;
    struct state *st = xcalloc(1, sizeof(*st));
    *state = st;
    st->t = pt->t;
    st->delayacct_old = -1;
    st->cache_old = -1;
    /* the uptime read before the switch: a thread that started (in whole
     * ticks) before it was surely created before the switch; one created
     * in the same tick after it is never taken for older */
    char *out = target_sh(pt->t, "read a b < /proc/uptime; f=" SYSCTL "; if [ -e $f ]; then "
                              "read v < $f; echo \"old $v\"; echo 1 > $f; read v < $f; "
                              "echo \"now $v\"; else echo none; fi; echo \"U $a\"", 30);
    int old, now;
    double since;
    if (out && chain_parse_delayacct(out, &old, &now, &since) == 0) {
        st->delayacct_old = old;
        st->delayacct_on = now == 1;
        st->delayacct_since = since;
    }
    free(out);
    /* a thread accounts delays only if it was created with delay accounting
     * on: the warm-up's connection threads go, so that the measured
     * program's connections get new ones (record checks they did) */
    if (st->delayacct_on && !thread_cache_off(st))
        st->delayacct_on = false;
    if (!st->delayacct_on)
        log_warn("%s: cannot turn delay accounting on (%s, then the server's thread cache off): "
                 "the chain's block I/O is not recorded",
                 pt->t->name, SYSCTL);
    return 0;
}

char *chain_reading_program(long long pid, const int *client, size_t n_client, const int *server,
                            size_t n_server, int retries)
{
    size_t cap = 1024 + 16 * (n_client + n_server);
    char *s = xcalloc(cap, 1);
    size_t used = 0;
#define PUT(...) used += (size_t)snprintf(s + used, cap - used, __VA_ARGS__)
    /* the server's threads are read each when no block I/O of theirs is
     * under way (stat's state not D) and they did not run, block or switch
     * between their two schedstat reads: then their counters are exact at
     * that moment but for a run-queue wait under way (a scheduling latency,
     * milliseconds) and an on-CPU time up to a tick old. Read at any other
     * moment, a block I/O wait under way is counted whole when it ends --
     * in the interval if it began before it, not at all if it ends after:
     * one of the host arm's (an fsync stalled for most of a second) put its
     * states 4.7 % and 7.5 % over their interval in CI runs. Asleep (S) is
     * not asked: the host arm's thread is asleep 2 % of its time, and 300
     * tries did not find it so. b: the tries left in this reading, in all;
     * then as they are (their state says so). Each thread's own moment
     * follows it (T). */
    PUT("b=%d; r() { while :; do s=; t=; v=; read -r s < /proc/$2/schedstat && read -r t < /proc/$2/stat && "
        "read -r v < /proc/$2/schedstat || return 0; x=${t##*\") \"}; [ $3 = 0 ] || [ $b -le 0 ] || "
        "{ [ \"${x%%%% *}\" != D ] && [ \"$s\" = \"$v\" ]; } && break; b=$((b-1)); done; "
        "echo \"$1 $2 $s\"; echo \"S $t\"; read a b2 < /proc/uptime; echo \"T $a\"; }; "
        "u() { read a b2 < /proc/uptime; echo \"U $a\"; }; u; ",
        retries < 0 ? 0 : retries);
    if (pid > 0) {
        PUT("for d in /proc/%lld/task/[0-9]*; do r C ${d##*/} 0; done; ", pid);
    } else {
        PUT("for t in");
        for (size_t i = 0; i < n_client; i++)
            PUT(" %d", client[i]);
        PUT("; do r C $t 0; done; ");
    }
    PUT("for t in");
    for (size_t i = 0; i < n_server; i++)
        PUT(" %d", server[i]);
    PUT("; do r D $t 1; done; u");
#undef PUT
    return s;
}

/* The shell program of one reading (see chain.h): at instant 0 every
 * thread of sysbench, then the chosen ones. In a guest the server's
 * threads are read as they are, as sysbench's always are (only their CPU
 * counts): its reading shares the guest's vCPUs with the chain -- under
 * TCG a try costs milliseconds of the only vCPU, during which the thread
 * waited for cannot run, and trying took 1-3 s of it in every reading. */
static char *reading_script(const struct state *st, bool first)
{
    return chain_reading_program(first ? st->pid : 0, st->client, st->n_client, st->server,
                                 st->n_server, st->t->own_kernel ? 0 : CHAIN_SETTLE_RETRIES);
}

static int by_cpu_desc(const void *a, const void *b)
{
    const struct chain_thread *x = a, *y = b;
    return x->oncpu_s < y->oncpu_s ? 1 : x->oncpu_s > y->oncpu_s ? -1 : 0;
}

/* instant 0: the chain's threads are chosen, then read; instant 1: read */
static void during(struct probe_target *pt, void *state, int k)
{
    struct state *st = state;
    if (!st || k < 0 || k > 1 || (k == 1 && !st->ok[0]))
        return;
    if (k == 0) {
        st->pid = target_program_pid(pt->t);
        if (st->pid <= 0) {
            log_warn("%s: its program ended before the chain's first reading: not recorded",
                     pt->t->name);
            return;
        }
        struct sql_result r = {0};
        int n = -1;
        if (sql_query(pt->t->sql,
                      "SELECT ID, TID FROM information_schema.PROCESSLIST WHERE DB = 'sbtest' "
                      "AND ID <> CONNECTION_ID() AND COMMAND NOT IN ('Daemon', 'Killed')",
                      &r) == 0)
            n = chain_parse_processlist(&r, st->server, sizeof(st->server) / sizeof(st->server[0]));
        sql_result_free(&r);
        if (n <= 0) {
            log_warn("%s: no connection of the benchmark in PROCESSLIST: its chain is not recorded",
                     pt->t->name);
            return;
        }
        st->n_server = (size_t)n;
    }
    char *script = reading_script(st, k == 0);
    char *out = target_sh(pt->t, script, 30);
    free(script);
    st->ok[k] = out && chain_parse_reading(out, &st->r[k]) == 0;
    free(out);
    if (!st->ok[k]) {
        log_warn("%s: cannot read the chain's threads (instant %d): not recorded", pt->t->name, k);
        return;
    }
    if (k == 1)
        return;
    /* sysbench's k busiest threads are its workers (never its main thread) */
    struct chain_thread *c = xcalloc(st->r[0].n + 1, sizeof(*c));
    size_t nc = 0;
    for (size_t i = 0; i < st->r[0].n; i++)
        if (st->r[0].th[i].kind == 'C' && st->r[0].th[i].tid != st->pid)
            c[nc++] = st->r[0].th[i];
    qsort(c, nc, sizeof(*c), by_cpu_desc);
    size_t want = (size_t)pt->cfg->threads;
    st->n_client = nc < want ? nc : want;
    if (st->n_client > sizeof(st->client) / sizeof(st->client[0]))
        st->n_client = sizeof(st->client) / sizeof(st->client[0]);
    for (size_t i = 0; i < st->n_client; i++)
        st->client[i] = c[i].tid;
    free(c);
    if (st->n_client != want || st->n_server != want)
        log_warn("%s: the chain has %zu sysbench thread%s and %zu connection%s, not %zu of each",
                 pt->t->name, st->n_client, st->n_client == 1 ? "" : "s", st->n_server,
                 st->n_server == 1 ? "" : "s", want);
    if (!st->n_client)
        st->ok[0] = false;
}

static int after(struct probe_target *pt, void *state)
{
    (void)pt;
    struct state *st = state;
    if (st) {
        delayacct_restore(st);
        thread_cache_restore(st);
    }
    return 0;
}

static const struct chain_thread *find(const struct chain_reading *r, char kind, int tid)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->th[i].kind == kind && r->th[i].tid == tid)
            return &r->th[i];
    return NULL;
}

/* the sums over one side's threads; false if one is missing or not the same */
static bool side(const struct state *st, char kind, const int *tids, size_t n, double *cpu,
                 double *runq, double *blkio)
{
    *cpu = *runq = *blkio = 0;
    for (size_t i = 0; i < n; i++) {
        const struct chain_thread *a = find(&st->r[0], kind, tids[i]), *b = find(&st->r[1], kind, tids[i]);
        if (!a || !b || a->start != b->start || b->oncpu_s < a->oncpu_s || b->runq_s < a->runq_s ||
            b->blkio_ticks < a->blkio_ticks)
            return false;
        *cpu += b->oncpu_s - a->oncpu_s;
        *runq += b->runq_s - a->runq_s;
        *blkio += (double)(b->blkio_ticks - a->blkio_ticks) / CHAIN_USER_HZ;
    }
    return true;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st || !layers || !st->ok[0] || !st->ok[1])
        return;
    double ccpu, crunq, cblk, scpu, srunq, sblk;
    if (!side(st, 'C', st->client, st->n_client, &ccpu, &crunq, &cblk) ||
        !side(st, 'D', st->server, st->n_server, &scpu, &srunq, &sblk)) {
        log_warn("%s: a thread of the chain ended or changed between the two readings: not recorded",
                 pt->t->name);
        return;
    }
    const struct chain_reading *a = &st->r[0], *b = &st->r[1];
    for (size_t i = 0; i < st->n_server && !st->t->own_kernel; i++) { /* (a guest's: read as they are) */
        const struct chain_thread *x = find(a, 'D', st->server[i]), *y = find(b, 'D', st->server[i]);
        if (x->state == 'D' || y->state == 'D')
            log_warn("%s: the server's connection thread %d was in block I/O at %s reading when its "
                     "tries were spent (%d in a reading): that wait is counted whole or not at all",
                     pt->t->name, st->server[i], x->state == 'D' ? "the first" : "the second",
                     CHAIN_SETTLE_RETRIES + 1);
    }
    bool blkio = st->delayacct_on;
    const struct chain_thread *old = blkio ? chain_older_than(a, st->delayacct_since) : NULL;
    if (old) {
        log_warn("%s: %s thread %d was created before delay accounting went on (%.2f s before): "
                 "it accounts no block I/O, so the chain's is not recorded",
                 pt->t->name, old->kind == 'D' ? "the server's connection" : "sysbench's", old->tid,
                 st->delayacct_since - (double)old->start / CHAIN_USER_HZ);
        blkio = false;
    }
    /* the server's threads' own moments, where each reading says them:
     * their states partition exactly that interval (a reading of many
     * threads, each waited for until it sleeps, can span a second) */
    double own = 0;
    for (size_t i = 0; i < st->n_server && isfinite(own); i++)
        own += find(b, 'D', st->server[i])->uptime - find(a, 'D', st->server[i])->uptime;
    double interval = isfinite(own) && st->n_server > 0
                          ? own / (double)st->n_server
                          : (b->uptime_first + b->uptime_last) / 2 - (a->uptime_first + a->uptime_last) / 2;
    if (!(interval > 0)) {
        log_warn("%s: the chain's two readings are %.3f s apart in the target's own time: not recorded",
                 pt->t->name, interval);
        return;
    }
    double spread = fmax(a->uptime_last - a->uptime_first, b->uptime_last - b->uptime_first);
    const struct {
        const char *name, *unit;
        double v;
        bool blkio;
    } out[] = {
        {"chain_interval_s", "s", interval, false},
        {"chain_read_spread_s", "s", spread, false},
        {"chain_client_threads", "count", (double)st->n_client, false},
        {"chain_server_threads", "count", (double)st->n_server, false},
        {"chain_client_cpu_s", "s", ccpu, false},
        {"chain_client_runq_s", "s", crunq, false},
        {"chain_client_blkio_s", "s", cblk, true},
        {"chain_server_cpu_s", "s", scpu, false},
        {"chain_server_runq_s", "s", srunq, false},
        {"chain_server_blkio_s", "s", sblk, true},
    };
    for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
        if (out[i].blkio && !blkio)
            continue; /* 0 that was not measured */
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "layer", json_object_new_string("workload"));
        samples_add(s, out[i].name, out[i].v, out[i].unit, pt->t->guest, NULL, 0, extra);
    }
}

static void free_state(void *state)
{
    struct state *st = state;
    if (st) { /* also when the phase never reached after() */
        delayacct_restore(st);
        thread_cache_restore(st);
    }
    free(st);
}

const struct probe probe_chain = {
    .name = "chain",
    .before = before,
    .after = after,
    .during = during,
    .record = record,
    .free = free_state,
};
