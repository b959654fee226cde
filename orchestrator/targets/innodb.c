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

/* sbtest1's allocated bytes, and those of the same rows in an uncompressed
 * copy made here -- or, logical > 0, recorded where the tables were loaded
 * (no copy made) */
static int measure_ratio(struct sql *s, long long logical, struct innodb_compression *out)
{
    static const char *const copy[] = {
        "DROP TABLE IF EXISTS sbtest.vbed_ref",
        "CREATE TABLE sbtest.vbed_ref LIKE sbtest.sbtest1",
        "ALTER TABLE sbtest.vbed_ref ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0 PAGE_COMPRESSED=0",
        "INSERT INTO sbtest.vbed_ref SELECT * FROM sbtest.sbtest1",
        "FLUSH TABLES sbtest.sbtest1, sbtest.vbed_ref FOR EXPORT",
        "SELECT NAME, ALLOCATED_SIZE FROM information_schema.INNODB_SYS_TABLESPACES "
        "WHERE NAME IN ('sbtest/sbtest1', 'sbtest/vbed_ref') ORDER BY NAME",
        "UNLOCK TABLES",
        "DROP TABLE sbtest.vbed_ref",
        NULL,
    };
    static const char *const own[] = {
        "FLUSH TABLES sbtest.sbtest1 FOR EXPORT",
        "SELECT NAME, ALLOCATED_SIZE FROM information_schema.INNODB_SYS_TABLESPACES "
        "WHERE NAME = 'sbtest/sbtest1'",
        "UNLOCK TABLES",
        NULL,
    };
    bool recorded = logical > 0;
    struct sql_result r = {0};
    if (sql_run(s, recorded ? own : copy, &r) < 0)
        return -1;
    if (r.rows != (recorded ? 1u : 2u)) {
        log_error("Cannot read the tablespace sizes of sbtest1%s.",
                  recorded ? "" : " and its uncompressed copy");
        sql_result_free(&r);
        return -1;
    }
    out->allocated = bytes_cell(&r, 0, 1); /* sbtest/sbtest1 sorts first */
    out->logical = recorded ? logical : bytes_cell(&r, 1, 1);
    out->logical_recorded = recorded;
    out->ratio = out->allocated > 0 ? (double)out->logical / (double)out->allocated : 0;
    sql_result_free(&r);
    return 0;
}

int innodb_check_compression(struct sql *s, const struct run_config *cfg, long long logical,
                             struct innodb_compression *out)
{
    memset(out, 0, sizeof(*out));
    if (check_formats(s, cfg, out) < 0 || check_algorithm(s, cfg, out) < 0 ||
        measure_ratio(s, logical, out) < 0)
        return -1;
    if (!out->problem[0] && (out->allocated <= 0 || out->logical <= 0))
        snprintf(out->problem, sizeof(out->problem),
                 "the server gave no size for sbtest1 or its uncompressed copy");
    /* sysbench's rows compress about 2:1; 5% is no compression at all */
    if (!out->problem[0] && out->ratio < 1.05)
        snprintf(out->problem, sizeof(out->problem),
                 "the compressed table takes %lld bytes, its uncompressed copy %lld (ratio %.2f)",
                 out->allocated, out->logical, out->ratio);
    out->took_effect = out->problem[0] == '\0';
    return 0;
}

int innodb_data_bytes(struct sql *s, long long *bytes)
{
    struct sql_result r = {0};
    if (sql_query(s,
                  "SELECT COUNT(*), COALESCE(SUM(FILE_SIZE), 0) FROM "
                  "information_schema.INNODB_SYS_TABLESPACES WHERE NAME LIKE 'sbtest/sbtest%'",
                  &r) < 0)
        return -1;
    int rc = 0;
    if (r.rows != 1 || sql_number(&r, 0, 0) < 1) {
        log_error("Cannot read the size of the sbtest tablespaces (no sbtest table found).");
        rc = -1;
    } else {
        *bytes = (long long)sql_number(&r, 0, 1);
    }
    sql_result_free(&r);
    return rc;
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
