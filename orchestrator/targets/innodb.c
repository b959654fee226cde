/* innodb.c: compression checks and counters (see innodb.h). */
#include "targets/innodb.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const counter_status[] = {
    "Innodb_buffer_pool_read_requests", "Innodb_buffer_pool_reads", "Innodb_page_compression_saved",
    "Innodb_num_pages_page_compressed", "Innodb_num_pages_page_decompressed", NULL};
/* INNODB_CMP's columns, summed over its page sizes: rows "INNODB_CMP.<column>" */
static const char *const cmp_sums[] = {"compress_ops", "compress_ops_ok", "compress_time",
                                       "uncompress_ops", "uncompress_time", NULL};

/* The one query: name and value rows of the status variables (ours, then
 * more's) and of INNODB_CMP's sums. The names are vbed's own (no quote). */
static char *counters_query(const char *const more[])
{
    char *q = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&q, &len);
    if (!f)
        abort();
    fputs("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
          "WHERE VARIABLE_NAME IN (",
          f);
    for (size_t i = 0; counter_status[i]; i++)
        fprintf(f, "%s'%s'", i ? ", " : "", counter_status[i]);
    for (size_t i = 0; more && more[i]; i++)
        fprintf(f, ", '%s'", more[i]);
    fputs(")", f);
    for (size_t i = 0; cmp_sums[i]; i++)
        fprintf(f, " UNION ALL SELECT 'INNODB_CMP.%s', SUM(%s) FROM information_schema.INNODB_CMP",
                cmp_sums[i], cmp_sums[i]);
    if (fclose(f) != 0)
        abort();
    return q;
}

int innodb_counters(struct sql *s, const char *const more[], struct innodb_counters *out,
                        struct sql_result *rows)
{
    memset(out, 0, sizeof(*out));
    struct sql_result r = {0};
    char *q = counters_query(more);
    int rc = sql_query(s, q, &r);
    free(q);
    if (rc < 0) {
        sql_result_free(&r);
        return -1;
    }
    out->bp_read_requests = sql_status(&r, "Innodb_buffer_pool_read_requests");
    out->bp_reads = sql_status(&r, "Innodb_buffer_pool_reads");
    out->page_compression_saved = sql_status(&r, "Innodb_page_compression_saved");
    out->pages_page_compressed = sql_status(&r, "Innodb_num_pages_page_compressed");
    out->pages_page_decompressed = sql_status(&r, "Innodb_num_pages_page_decompressed");
    double *cmp[] = {&out->cmp_compress_ops, &out->cmp_compress_ops_ok, &out->cmp_compress_time,
                     &out->cmp_uncompress_ops, &out->cmp_uncompress_time};
    for (size_t i = 0; cmp_sums[i]; i++) {
        char name[64];
        snprintf(name, sizeof(name), "INNODB_CMP.%s", cmp_sums[i]);
        *cmp[i] = sql_status(&r, name);
    }
    if (rows)
        *rows = r;
    else
        sql_result_free(&r);
    return 0;
}

void innodb_counters_delta(const struct innodb_counters *b, const struct innodb_counters *a,
                           struct innodb_counters *d)
{
    d->bp_read_requests = a->bp_read_requests - b->bp_read_requests;
    d->bp_reads = a->bp_reads - b->bp_reads;
    d->cmp_compress_ops = a->cmp_compress_ops - b->cmp_compress_ops;
    d->cmp_compress_ops_ok = a->cmp_compress_ops_ok - b->cmp_compress_ops_ok;
    d->cmp_compress_time = a->cmp_compress_time - b->cmp_compress_time;
    d->cmp_uncompress_ops = a->cmp_uncompress_ops - b->cmp_uncompress_ops;
    d->cmp_uncompress_time = a->cmp_uncompress_time - b->cmp_uncompress_time;
    d->page_compression_saved = a->page_compression_saved - b->page_compression_saved;
    d->pages_page_compressed = a->pages_page_compressed - b->pages_page_compressed;
    d->pages_page_decompressed = a->pages_page_decompressed - b->pages_page_decompressed;
}

static int check_formats(struct sql *s, const struct run_config *cfg, struct innodb_compression *out)
{
    struct sql_result r = {0};
    if (sql_query(s,
                  "SELECT TABLE_NAME, ROW_FORMAT, CREATE_OPTIONS FROM information_schema.TABLES "
                  "WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME LIKE 'sbtest%' ORDER BY TABLE_NAME",
                  &r) < 0)
        return -1;
    if ((long long)r.rows != cfg->tables)
        snprintf(out->problem, sizeof(out->problem), "expected %lld sbtest tables, found %zu",
                 cfg->tables, r.rows);
    char kbs[32];
    snprintf(kbs, sizeof(kbs), "key_block_size=%d", run_config_key_block_size(cfg));
    for (size_t i = 0; i < r.rows && !out->problem[0]; i++) {
        const char *name = sql_cell(&r, i, 0), *format = sql_cell(&r, i, 1),
                   *options = sql_cell(&r, i, 2);
        if (cfg->compression == COMP_ROW_ZLIB &&
            (strcasecmp(format, "Compressed") != 0 || !strcasestr(options, kbs)))
            snprintf(out->problem, sizeof(out->problem),
                     "table %s is ROW_FORMAT=%s (%s), not COMPRESSED with %s", name, format, options,
                     kbs);
        if (cfg->compression != COMP_ROW_ZLIB && !strcasestr(options, "page_compressed`='1'"))
            snprintf(out->problem, sizeof(out->problem), "table %s is not PAGE_COMPRESSED (%s)",
                     name, options);
    }
    sql_result_free(&r);
    return 0;
}

static int check_algorithm(struct sql *s, const struct run_config *cfg, struct innodb_compression *out)
{
    struct sql_result r = {0};
    if (sql_query(s,
                  "SELECT @@innodb_compression_algorithm, (SELECT COUNT(*) FROM "
                  "information_schema.PLUGINS WHERE PLUGIN_NAME = 'provider_lz4' AND "
                  "PLUGIN_STATUS = 'ACTIVE')",
                  &r) < 0)
        return -1;
    out->provider_lz4 = sql_number(&r, 0, 1) > 0;
    const char *want = cfg->compression == COMP_PAGE_LZ4 ? "lz4" : "zlib";
    if (!out->problem[0] && cfg->compression != COMP_ROW_ZLIB &&
        strcmp(sql_cell(&r, 0, 0), want) != 0)
        snprintf(out->problem, sizeof(out->problem),
                 "innodb_compression_algorithm is '%s', not '%s'", sql_cell(&r, 0, 0), want);
    if (!out->problem[0] && cfg->compression == COMP_PAGE_LZ4 && !out->provider_lz4)
        snprintf(out->problem, sizeof(out->problem), "the provider_lz4 plugin is not ACTIVE");
    sql_result_free(&r);
    return 0;
}

/* A size in bytes from the server (a guest's reply is hostile: "nan" or
 * 1e300 must not reach a cast); -1 when it is none. */
static long long bytes_cell(const struct sql_result *r, size_t row, size_t col)
{
    double v = sql_number(r, row, col);
    return isfinite(v) && v >= 0 && v < 0x1p62 ? (long long)v : -1;
}

/* The bytes of the pages in use by table's indexes, as InnoDB counts them
 * (information_schema.TABLES' DATA_LENGTH + INDEX_LENGTH: the pages its
 * indexes' segments hold, at the table's physical page size), after ANALYZE
 * TABLE brought them up to date; -1 reported. DATA_FREE (free space inside
 * the tablespace) is not in it: a file's extents, grown by whatever order
 * the rows came in, are not compression. */
static long long pages_in_use(struct sql *s, const char *table)
{
    char analyze[128], query[256];
    snprintf(analyze, sizeof(analyze), "ANALYZE TABLE sbtest.%s", table);
    snprintf(query, sizeof(query),
             "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES "
             "WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = '%s'",
             table);
    struct sql_result r = {0};
    if (sql_query(s, analyze, &r) < 0)
        return -1;
    sql_result_free(&r);
    long long bytes = -1;
    if (sql_query(s, query, &r) == 0 && r.rows == 1)
        bytes = bytes_cell(&r, 0, 0);
    sql_result_free(&r);
    if (bytes <= 0)
        log_error("Cannot read the pages in use of sbtest.%s.", table);
    return bytes > 0 ? bytes : -1;
}

/* ROW_FORMAT=COMPRESSED: sbtest1's pages in use (at KEY_BLOCK_SIZE) against
 * those of the same rows in an uncompressed table built as sysbench builds
 * sbtest1 -- the rows inserted in primary-key order, the secondary index
 * made after the load -- or, logical > 0, the reference's recorded where
 * the tables were loaded (a copy holds the same pages). */
static int ratio_by_pages(struct sql *s, long long logical, struct innodb_compression *out)
{
    bool recorded = logical > 0;
    if (!recorded) {
        struct sql_result r = {0};
        if (sql_query(s,
                      "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'sbtest' "
                      "AND TABLE_NAME = 'sbtest1' AND INDEX_NAME = 'k_1'",
                      &r) < 0)
            return -1;
        bool k = sql_number(&r, 0, 0) > 0;
        sql_result_free(&r);
        const char *build[] = {
            "DROP TABLE IF EXISTS sbtest.vbed_ref",
            "CREATE TABLE sbtest.vbed_ref LIKE sbtest.sbtest1",
            k ? "ALTER TABLE sbtest.vbed_ref DROP INDEX k_1" : "DO 0",
            "ALTER TABLE sbtest.vbed_ref ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0 PAGE_COMPRESSED=0",
            "INSERT INTO sbtest.vbed_ref SELECT * FROM sbtest.sbtest1 ORDER BY id",
            k ? "ALTER TABLE sbtest.vbed_ref ADD INDEX k_1 (k)" : "DO 0",
            NULL,
        };
        if (sql_run(s, build, &r) < 0)
            return -1;
        sql_result_free(&r);
        logical = pages_in_use(s, "vbed_ref");
        if (sql_query(s, "DROP TABLE sbtest.vbed_ref", &r) == 0)
            sql_result_free(&r);
        if (logical < 0)
            return -1;
    }
    out->allocated = pages_in_use(s, "sbtest1");
    if (out->allocated < 0)
        return -1;
    out->logical = logical;
    out->logical_recorded = recorded;
    out->basis = "pages in use";
    return 0;
}

/* PAGE_COMPRESSED: each 16 KiB page written with its tail punched out --
 * sbtest1's file size against the blocks it holds (after FLUSH TABLES ...
 * FOR EXPORT, so that its pages are on disk); no reference table. */
static int ratio_by_allocation(struct sql *s, struct innodb_compression *out)
{
    static const char *const stmts[] = {
        "FLUSH TABLES sbtest.sbtest1 FOR EXPORT",
        "SELECT FILE_SIZE, ALLOCATED_SIZE FROM information_schema.INNODB_SYS_TABLESPACES "
        "WHERE NAME = 'sbtest/sbtest1'",
        "UNLOCK TABLES",
        NULL,
    };
    struct sql_result r = {0};
    if (sql_run(s, stmts, &r) < 0)
        return -1;
    int rc = r.rows == 1 ? 0 : -1;
    if (rc < 0)
        log_error("Cannot read the tablespace size of sbtest1.");
    out->logical = bytes_cell(&r, 0, 0);
    out->allocated = bytes_cell(&r, 0, 1);
    out->logical_recorded = false;
    out->basis = "allocated";
    sql_result_free(&r);
    return rc;
}

/* INNODB_CMP's compress_ops_ok / compress_ops, server-wide: how often a
 * page fitted its KEY_BLOCK_SIZE at the first try; NAN without any */
static double compress_ok_share(struct sql *s)
{
    struct sql_result r = {0};
    double v = NAN;
    if (sql_query(s, "SELECT SUM(compress_ops_ok), SUM(compress_ops) FROM information_schema.INNODB_CMP",
                  &r) == 0 && r.rows == 1 && sql_number(&r, 0, 1) > 0)
        v = sql_number(&r, 0, 0) / sql_number(&r, 0, 1);
    sql_result_free(&r);
    return v;
}

int innodb_check_compression(struct sql *s, const struct run_config *cfg, long long logical,
                             struct innodb_compression *out)
{
    memset(out, 0, sizeof(*out));
    out->compress_ok_share = NAN;
    bool row = cfg->compression == COMP_ROW_ZLIB;
    if (check_formats(s, cfg, out) < 0 || check_algorithm(s, cfg, out) < 0 ||
        (row ? ratio_by_pages(s, logical, out) : ratio_by_allocation(s, out)) < 0)
        return -1;
    out->ratio = out->allocated > 0 ? (double)out->logical / (double)out->allocated : 0;
    if (row)
        out->compress_ok_share = compress_ok_share(s);
    if (!out->problem[0] && (out->allocated <= 0 || out->logical <= 0))
        snprintf(out->problem, sizeof(out->problem),
                 "the server gave no size for sbtest1 or its uncompressed reference");
    /* sysbench's rows compress about 2:1; 5% is no compression at all */
    if (!out->problem[0] && out->ratio < 1.05)
        snprintf(out->problem, sizeof(out->problem),
                 "the compressed table takes %lld bytes, its uncompressed reference %lld (ratio %.2f, %s)",
                 out->allocated, out->logical, out->ratio, out->basis);
    /* pages of KEY_BLOCK_SIZE KiB hold at most one 16 KiB page each: a
     * larger ratio is a reference that is not the same rows as stored */
    double most = row ? 16.0 / run_config_key_block_size(cfg) : INFINITY;
    if (!out->problem[0] && out->ratio > most * 1.01)
        snprintf(out->problem, sizeof(out->problem),
                 "ratio %.2f by %s is more than KEY_BLOCK_SIZE=%d allows (%.1f): the reference is "
                 "not the rows as stored",
                 out->ratio, out->basis, run_config_key_block_size(cfg), most);
    out->took_effect = out->problem[0] == '\0';
    return 0;
}

int innodb_data_bytes(struct sql *s, const struct run_config *cfg, long long *bytes)
{
    struct sql_result r = {0};
    if (sql_query(s,
                  "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' "
                  "AND TABLE_NAME LIKE 'sbtest%'",
                  &r) < 0)
        return -1;
    if (r.rows < 1) {
        log_error("Cannot read the size of the sbtest tables (no sbtest table found).");
        sql_result_free(&r);
        return -1;
    }
    /* each table's statistics brought up to date, then the pages in use of
     * them all */
    long long sum = 0;
    for (size_t i = 0; i < r.rows && sum >= 0; i++) {
        const char *name = sql_cell(&r, i, 0);
        if (strspn(name, "sbtest0123456789") != strlen(name)) /* a guest's reply is hostile */
            continue;
        long long b = pages_in_use(s, name);
        sum = b < 0 ? -1 : sum + b;
    }
    sql_result_free(&r);
    if (sum < 0)
        return -1;
    /* a compressed page takes a whole 16 KiB frame in the pool when used */
    int physical = cfg->compression == COMP_ROW_ZLIB ? run_config_key_block_size(cfg) * 1024 : 16384;
    *bytes = sum / physical * 16384;
    return 0;
}

int innodb_version(struct sql *s, char *buf, unsigned long len)
{
    struct sql_result r = {0};
    if (sql_query(s, "SELECT VERSION()", &r) < 0)
        return -1;
    snprintf(buf, len, "%s", sql_cell(&r, 0, 0));
    sql_result_free(&r);
    return 0;
}

char *innodb_flush_for_export(long long tables)
{
    size_t len = 64 + (size_t)(tables > 0 ? tables : 0) * 24;
    char *flush = xcalloc(1, len);
    snprintf(flush, len, "FLUSH TABLES ");
    for (long long i = 1; i <= tables; i++)
        snprintf(flush + strlen(flush), len - strlen(flush), "%ssbtest.sbtest%lld", i > 1 ? ", " : "", i);
    snprintf(flush + strlen(flush), len - strlen(flush), " FOR EXPORT");
    return flush;
}

int innodb_each_table(struct sql *s, long long tables, const char *fmt)
{
    char **stmts = xcalloc((size_t)(tables > 0 ? tables : 0) + 1, sizeof(char *));
    for (long long i = 0; i < tables; i++) {
        stmts[i] = xcalloc(1, 128);
        snprintf(stmts[i], 128, fmt, i + 1);
    }
    struct sql_result r = {0};
    int rc = sql_run(s, (const char *const *)stmts, &r);
    sql_result_free(&r);
    for (long long i = 0; i < tables; i++)
        free(stmts[i]);
    free(stmts);
    return rc;
}
