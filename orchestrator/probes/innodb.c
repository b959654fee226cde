/* innodb.c: the InnoDB probe (see probe.h): a server's status variables
 * as the innodb layer (pages, data reads and writes and their bytes,
 * fsyncs, row lock time), and the buffer pool's and compression's counters
 * (targets/innodb.h) -- read on targets whose workload runs on a database.
 * A server that cannot be asked fails the run: its figures are the run's
 * point. */
#include "probes/probe.h"

#include "targets/innodb.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static const struct {
    const char *status, *name, *unit;
} innodb_status[] = {
    {"Innodb_pages_read", "innodb_pages_read", "count"},
    {"Innodb_pages_written", "innodb_pages_written", "count"},
    {"Innodb_data_reads", "innodb_data_reads", "count"},
    {"Innodb_data_writes", "innodb_data_writes", "count"},
    {"Innodb_data_read", "innodb_data_read_bytes", "bytes"},
    {"Innodb_data_written", "innodb_data_written_bytes", "bytes"},
    {"Innodb_data_fsyncs", "innodb_data_fsyncs", "count"},
    {"Innodb_row_lock_time", "innodb_row_lock_time_ms", "ms"},
    /* the server's own count of the benchmark's transactions (sysbench's
     * BEGIN ... COMMIT), against which the headline's is checked (gap.h) */
    {"Com_commit", "server_commits", "count"},
    {"Com_rollback", "server_rollbacks", "count"},
};

#define N_STATUS (sizeof(innodb_status) / sizeof(innodb_status[0]))

/* the status variables' names, NULL-terminated */
static void status_names(const char *names[N_STATUS + 1])
{
    for (size_t i = 0; i < N_STATUS; i++)
        names[i] = innodb_status[i].status;
    names[N_STATUS] = NULL;
}

/* the innodb layer from the rows innodb_counters read */
static void status_layer(const struct sql_result *r, struct layer_snapshot *s)
{
    for (size_t i = 0; i < N_STATUS; i++) {
        double v = sql_status(r, innodb_status[i].status);
        if (!isnan(v))
            layers_set(s, "innodb", innodb_status[i].name, innodb_status[i].unit, false, v);
    }
}

/* the counters and the layer in one query (one program in a guest) */
static int read_all(struct probe_target *pt, struct innodb_counters *c, struct layer_snapshot *layer)
{
    const char *names[N_STATUS + 1];
    status_names(names);
    struct sql_result r = {0};
    if (innodb_counters(pt->t->sql, names, c, &r) < 0)
        return -1;
    status_layer(&r, layer);
    sql_result_free(&r);
    return 0;
}

struct state {
    struct layer_pair layers;
    struct innodb_counters before, after;
    double after_ts; /* UNIX time of the reading after */
};

static int before(struct probe_target *pt, void **state)
{
    if (!pt->needs_db)
        return 0;
    struct state *st = xcalloc(1, sizeof(*st));
    *state = st;
    if (read_all(pt, &st->before, &st->layers.before) < 0)
        return probe_fail(pt, "cannot read InnoDB's counters in %s", pt->t->name);
    return 0;
}

static int after(struct probe_target *pt, void *state)
{
    struct state *st = state;
    if (!st)
        return 0;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    st->after_ts = (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
    if (read_all(pt, &st->after, &st->layers.after) < 0)
        return probe_fail(pt, "cannot read InnoDB's counters in %s", pt->t->name);
    return 0;
}

/* a counter's sample, unless the server did not have it (NAN) */
static void add(struct samples *s, const char *metric, double value, const char *unit, int guest,
                double ts)
{
    if (!isnan(value) && !isinf(value))
        samples_add(s, metric, value, unit, guest, NULL, ts, NULL);
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st || !layers)
        return;
    int g = pt->t->guest;
    double ts = st->after_ts;
    layers_samples(&st->layers.before, &st->layers.after, s, g);
    struct innodb_counters d;
    innodb_counters_delta(&st->before, &st->after, &d);
    add(s, "bp_read_requests", d.bp_read_requests, "count", g, ts);
    add(s, "bp_reads", d.bp_reads, "count", g, ts);
    if (d.bp_read_requests > 0)
        add(s, "bp_hit_ratio", 1 - d.bp_reads / d.bp_read_requests, "ratio", g, ts);
    if (pt->cfg->compression == COMP_ROW_ZLIB) {
        add(s, "cmp_compress_ops", d.cmp_compress_ops, "count", g, ts);
        add(s, "cmp_compress_ops_ok", d.cmp_compress_ops_ok, "count", g, ts);
        add(s, "cmp_compress_time_s", d.cmp_compress_time, "s", g, ts);
        add(s, "cmp_uncompress_ops", d.cmp_uncompress_ops, "count", g, ts);
        add(s, "cmp_uncompress_time_s", d.cmp_uncompress_time, "s", g, ts);
    } else if (pt->cfg->compression != COMP_NONE) {
        add(s, "page_compression_saved_bytes", d.page_compression_saved, "bytes", g, ts);
        add(s, "pages_page_compressed", d.pages_page_compressed, "count", g, ts);
        add(s, "pages_page_decompressed", d.pages_page_decompressed, "count", g, ts);
    }
}

const struct probe probe_innodb = {
    .name = "innodb",
    .before = before,
    .after = after,
    .record = record,
    .free = free,
};
