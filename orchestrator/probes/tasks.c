/* tasks.c: the tasks probe (see tasks.h and probe.h): a guest's CPU over
 * the measure phase, by the tasks that ran it. */
#include "probes/tasks.h"
#include "probes/probe.h"

#include "util/log.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const task_group_names[TG_N] = {
    [TG_PAGE_CLEANER] = "page_cleaner", [TG_INNODB_POOL] = "innodb_pool",
    [TG_CONNECTIONS] = "connections",   [TG_MARIADBD_OTHER] = "mariadbd_other",
    [TG_SYSBENCH] = "sysbench",         [TG_KERNEL] = "kernel",
    [TG_REST] = "rest",
};

#define PF_KTHREAD 0x00200000u

/* ---- parsers (hostile input) ---- */

/* a decimal in [0, max] at *p, which moves past it */
static int number(const char **p, unsigned long long max, unsigned long long *v)
{
    const char *s = *p;
    unsigned long long x = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        x = x * 10 + (unsigned long long)(*s - '0');
        if (x > max)
            return -1;
    }
    *v = x;
    *p = s;
    return 0;
}

/* a task id in (0, 2^22] at *p, followed by c */
static int task_id(const char **p, char c, int *id)
{
    unsigned long long v;
    if (number(p, 1ULL << 22, &v) < 0 || v == 0 || **p != c)
        return -1;
    (*p)++;
    *id = (int)v;
    return 0;
}

/* "pid (comm) state ppid ..." -- comm may hold spaces and ')': the fields
 * count from the last ')' on. Field 9, flags; field 22, the start time. */
static int task_stat(const char *text, struct task_cpu *t)
{
    const char *open = strchr(text, '('), *close = strrchr(text, ')');
    if (!open || !close || close < open || close[1] != ' ')
        return -1;
    size_t n = (size_t)(close - open - 1);
    if (n >= sizeof(t->comm))
        return -1;
    memcpy(t->comm, open + 1, n);
    t->comm[n] = '\0';
    const char *p = close + 2;
    unsigned long long flags = 0, start = 0;
    for (int field = 3; field <= 22; field++) {
        if (field == 9 || field == 22) {
            if (number(&p, field == 9 ? 0xffffffffULL : 1ULL << 62, field == 9 ? &flags : &start) < 0)
                return -1;
        } else {
            if (*p == ' ' || !*p)
                return -1;
            while (*p && *p != ' ')
                p++;
        }
        if (field < 22 && *p++ != ' ')
            return -1;
    }
    if (*p && *p != ' ')
        return -1;
    t->kthread = (flags & PF_KTHREAD) != 0;
    t->start = (long long)start;
    return 0;
}

void tasks_reading_free(struct tasks_reading *r)
{
    free(r->t);
    r->t = NULL;
    r->n = 0;
}

/* "/proc/<pid>/task/<tid>/<file>:" at *p, p moved past it: 1 schedstat, 2
 * stat, -1 anything else */
static int task_file(const char **p, int *pid, int *tid)
{
    const char *q = *p;
    if (strncmp(q, "/proc/", 6) != 0)
        return -1;
    q += 6;
    if (task_id(&q, '/', pid) < 0 || strncmp(q, "task/", 5) != 0)
        return -1;
    q += 5;
    if (task_id(&q, '/', tid) < 0)
        return -1;
    int kind = !strncmp(q, "schedstat:", 10) ? 1 : !strncmp(q, "stat:", 5) ? 2 : -1;
    if (kind > 0)
        *p = q + (kind == 1 ? 10 : 5);
    return kind;
}

static int by_tid(const void *a, const void *b)
{
    const struct task_cpu *x = a, *y = b;
    return (x->tid > y->tid) - (x->tid < y->tid);
}

/* one of a reading's two lists: t appended (dup: its tid already there is
 * found when sorted) */
struct list {
    struct task_cpu *t;
    size_t n, cap;
};

static int push(struct list *l, const struct task_cpu *t)
{
    if (l->n == TASKS_MAX)
        return -1;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->t = xrealloc(l->t, l->cap * sizeof(*l->t));
    }
    l->t[l->n++] = *t;
    return 0;
}

/* sorted by tid; -1 if a tid is there twice */
static int sort_unique(struct list *l)
{
    if (l->n)
        qsort(l->t, l->n, sizeof(*l->t), by_tid);
    for (size_t i = 1; i < l->n; i++)
        if (l->t[i].tid == l->t[i - 1].tid)
            return -1;
    return 0;
}

int tasks_parse_reading(const char *text, struct tasks_reading *out)
{
    memset(out, 0, sizeof(*out));
    out->uptime_first = out->uptime_last = NAN;
    if (!text)
        return -1;
    const char *p = text;
    char line[1024];
    int uptimes = 0;
    bool cpu = false;
    /* the schedstats (oncpu_s; those that do not parse: oncpu_s NAN), the
     * stats (the rest; those that do not parse: start -1) */
    struct list sched = {0}, stat = {0};
    while (textfile_next_line(&p, line, sizeof(line)) == 0) {
        if (cpu)
            goto bad; /* P is the last line */
        if (line[0] == 'U' && line[1] == ' ') {
            double u;
            if (procfs_parse_uptime(line + 2, &u) < 0 || uptimes >= 2)
                goto bad;
            if (uptimes++ == 0)
                out->uptime_first = u;
            else
                out->uptime_last = u;
            continue;
        }
        if (line[0] == 'P' && line[1] == ' ') {
            if (uptimes != 2 || procfs_parse_stat(line + 2, 100, &out->cpu) < 0)
                goto bad;
            cpu = true;
            continue;
        }
        const char *q = line;
        struct task_cpu t = {.oncpu_s = NAN};
        int kind = uptimes == 1 ? task_file(&q, &t.pid, &t.tid) : -1;
        if (kind < 0)
            goto bad;
        if (kind == 1) {
            double runq;
            if (procfs_parse_schedstat(q, &t.oncpu_s, &runq) < 0)
                t.oncpu_s = NAN;
            if (push(&sched, &t) < 0)
                goto bad;
        } else {
            if (task_stat(q, &t) < 0)
                t.start = -1;
            if (push(&stat, &t) < 0)
                goto bad;
        }
    }
    if (uptimes != 2 || !cpu || !(out->uptime_last >= out->uptime_first) || sort_unique(&sched) < 0 ||
        sort_unique(&stat) < 0)
        goto bad;
    /* a task is one whose schedstat and stat both parsed (one without the
     * other ended between grep's two reads: left out) */
    struct list all = {0};
    for (size_t i = 0, j = 0; i < sched.n && j < stat.n;) {
        if (sched.t[i].tid < stat.t[j].tid) {
            i++;
        } else if (sched.t[i].tid > stat.t[j].tid) {
            j++;
        } else {
            struct task_cpu t = stat.t[j];
            t.oncpu_s = sched.t[i].oncpu_s;
            if (sched.t[i].pid == t.pid && t.start >= 0 && isfinite(t.oncpu_s))
                push(&all, &t); /* never full: at most stat.n <= TASKS_MAX */
            i++, j++;
        }
    }
    free(sched.t);
    free(stat.t);
    out->t = all.t;
    out->n = all.n;
    return 0;
bad:
    free(sched.t);
    free(stat.t);
    tasks_reading_free(out);
    return -1;
}

int tasks_parse_ps_threads(const struct sql_result *r, int *tids, enum task_group *groups, size_t max)
{
    if (r->rows && r->cols < 2)
        return -1;
    static const struct {
        const char *name;
        enum task_group g;
    } known[] = {
        {"thread/innodb/page_cleaner_thread", TG_PAGE_CLEANER},
        {"thread/innodb/thread_pool_thread", TG_INNODB_POOL},
        {"thread/sql/one_connection", TG_CONNECTIONS},
    };
    size_t n = 0;
    for (size_t row = 0; row < r->rows; row++) {
        const char *id = sql_cell(r, row, 0), *name = sql_cell(r, row, 1);
        int tid;
        if (!strcmp(id, "NULL"))
            continue; /* a thread without an OS thread */
        if (task_id(&id, '\0', &tid) < 0)
            return -1;
        enum task_group g = TG_MARIADBD_OTHER;
        for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
            if (!strcmp(name, known[k].name))
                g = known[k].g;
        if (n < max) {
            tids[n] = tid;
            groups[n++] = g;
        }
    }
    return (int)n;
}

/* a reading's task by tid (a reading is sorted by tid) */
static const struct task_cpu *find(const struct tasks_reading *r, int tid)
{
    struct task_cpu key = {.tid = tid};
    return r->n ? bsearch(&key, r->t, r->n, sizeof(*r->t), by_tid) : NULL;
}

static bool is(const char *comm, const char *name) { return !strcmp(comm, name); }

static enum task_group group_of(const struct tasks_reading *b, const struct task_cpu *t,
                                const int *tids, const enum task_group *groups, size_t n)
{
    if (t->kthread)
        return TG_KERNEL;
    const struct task_cpu *leader = find(b, t->pid);
    const char *comm = leader ? leader->comm : t->comm;
    if (is(comm, "mariadbd") || is(comm, "mysqld")) {
        for (size_t i = 0; i < n; i++)
            if (tids[i] == t->tid)
                return groups[i];
        return TG_MARIADBD_OTHER;
    }
    return is(comm, "sysbench") ? TG_SYSBENCH : TG_REST;
}

int tasks_group_cpu(const struct tasks_reading *a, const struct tasks_reading *b, const int *tids,
                    const enum task_group *groups, size_t n, double cpu[TG_N])
{
    for (int g = 0; g < TG_N; g++)
        cpu[g] = 0;
    if (!(b->uptime_first >= a->uptime_last))
        return -1;
    for (size_t i = 0; i < b->n; i++) {
        const struct task_cpu *t = &b->t[i], *was = find(a, t->tid);
        /* the same task, or one created since (a tid reused counts anew) */
        double ran = was && was->start == t->start ? t->oncpu_s - was->oncpu_s : t->oncpu_s;
        if (ran > 0)
            cpu[group_of(b, t, tids, groups, n)] += ran;
    }
    return 0;
}

/* ---- the probe ---- */

/* one program, grep reading every file (a shell loop over the tasks took
 * 0.4-0.7 s of a TCG guest's only vCPU, inside the measure phase): every
 * schedstat, then every stat (a glob on the last name would list each
 * task's directory) */
const char tasks_reading_script[] =
    "u() { read a b < /proc/uptime; echo \"U $a\"; }; u; "
    "grep -H '' /proc/[0-9]*/task/[0-9]*/schedstat /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null; "
    "u; read -r c < /proc/stat; echo \"P $c\"";

struct state {
    struct tasks_reading r[2];
    bool ok[2];
    int tids[1024];
    enum task_group groups[1024];
    int n;
};

static int before(struct probe_target *pt, void **state)
{
    if (pt->t->own_kernel && pt->needs_db && target_can_capture(pt->t))
        *state = xcalloc(1, sizeof(struct state));
    return 0;
}

static void during(struct probe_target *pt, void *state, int k)
{
    struct state *st = state;
    if (!st || k < 0 || k > 1 || (k == 1 && !st->ok[0]))
        return;
    char *out = target_sh(pt->t, tasks_reading_script, 30);
    st->ok[k] = out && tasks_parse_reading(out, &st->r[k]) == 0;
    free(out);
    if (!st->ok[k]) {
        log_warn("%s: cannot read the guest's tasks (instant %d): its CPU by task is not recorded",
                 pt->t->name, k);
        return;
    }
    if (k == 0)
        return;
    struct sql_result r = {0};
    st->n = -1;
    if (sql_query(pt->t->sql,
                  "SELECT THREAD_OS_ID, NAME FROM performance_schema.threads "
                  "WHERE THREAD_OS_ID IS NOT NULL",
                  &r) == 0)
        st->n = tasks_parse_ps_threads(&r, st->tids, st->groups, sizeof(st->tids) / sizeof(st->tids[0]));
    sql_result_free(&r);
    if (st->n <= 0) /* performance_schema off: its tables are empty */
        log_info("%s: performance_schema.threads names no thread: mariadbd's CPU is not split by "
                 "thread (tasks_mariadbd_cpu_s)",
                 pt->t->name);
}

static int after(struct probe_target *pt, void *state)
{
    (void)pt;
    (void)state;
    return 0;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st || !layers || !st->ok[0] || !st->ok[1])
        return;
    const struct tasks_reading *a = &st->r[0], *b = &st->r[1];
    double cpu[TG_N];
    if (tasks_group_cpu(a, b, st->tids, st->groups, st->n > 0 ? (size_t)st->n : 0, cpu) < 0)
        return;
    double interval = (b->uptime_first + b->uptime_last) / 2 - (a->uptime_first + a->uptime_last) / 2;
    double busy = (b->cpu.user_s + b->cpu.system_s) - (a->cpu.user_s + a->cpu.system_s);
    double spread = fmax(a->uptime_last - a->uptime_first, b->uptime_last - b->uptime_first);
    if (!(interval > 0) || !(busy >= 0))
        return;
    int g = pt->t->guest;
    char name[64];
    samples_add(s, "tasks_interval_s", interval, "s", g, NULL, 0, NULL);
    samples_add(s, "tasks_busy_s", busy, "s", g, NULL, 0, NULL);
    samples_add(s, "tasks_read_spread_s", spread, "s", g, NULL, 0, NULL);
    /* without performance_schema's names every mariadbd thread would be
     * "other": its CPU is recorded whole instead, the split absent */
    bool split = st->n > 0;
    double mariadbd = 0;
    for (int k = 0; k < TG_N; k++) {
        bool of_mariadbd = k <= TG_MARIADBD_OTHER;
        if (of_mariadbd)
            mariadbd += cpu[k];
        if (of_mariadbd && !split)
            continue;
        snprintf(name, sizeof(name), "tasks_%s_cpu_s", task_group_names[k]);
        samples_add(s, name, cpu[k], "s", g, NULL, 0, NULL);
    }
    samples_add(s, "tasks_mariadbd_cpu_s", mariadbd, "s", g, NULL, 0, NULL);
}

static void free_state(void *state)
{
    struct state *st = state;
    if (st) {
        tasks_reading_free(&st->r[0]);
        tasks_reading_free(&st->r[1]);
    }
    free(st);
}

const struct probe probe_tasks = {
    .name = "tasks",
    .before = before,
    .after = after,
    .during = during,
    .ahead = true, /* /proc's tasks at instant 0; performance_schema's names at 1 */
    .record = record,
    .free = free_state,
};
