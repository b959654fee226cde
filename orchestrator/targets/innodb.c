/* innodb.c: compression checks and counters (see innodb.h). */
#include "targets/innodb.h"

#include "util/log.h"

#include <stdio.h>
#include <string.h>

int innodb_counters(struct sql *s, struct innodb_counters *out)
{
    memset(out, 0, sizeof(*out));
    struct sql_result st = {0}, cmp = {0};
    int rc = -1;
    if (sql_query(s,
                  "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_read_requests', "
                  "'Innodb_buffer_pool_reads', 'Innodb_page_compression_saved', "
                  "'Innodb_num_pages_page_compressed', 'Innodb_num_pages_page_decompressed')",
                  &st) < 0)
        goto cleanup;
    out->bp_read_requests = sql_status(&st, "Innodb_buffer_pool_read_requests");
    out->bp_reads = sql_status(&st, "Innodb_buffer_pool_reads");
    out->page_compression_saved = sql_status(&st, "Innodb_page_compression_saved");
    out->pages_page_compressed = sql_status(&st, "Innodb_num_pages_page_compressed");
    out->pages_page_decompressed = sql_status(&st, "Innodb_num_pages_page_decompressed");
    if (sql_query(s,
                  "SELECT SUM(compress_ops), SUM(compress_ops_ok), SUM(compress_time), "
                  "SUM(uncompress_ops), SUM(uncompress_time) FROM information_schema.INNODB_CMP",
                  &cmp) < 0)
        goto cleanup;
    out->cmp_compress_ops = sql_number(&cmp, 0, 0);
    out->cmp_compress_ops_ok = sql_number(&cmp, 0, 1);
    out->cmp_compress_time = sql_number(&cmp, 0, 2);
    out->cmp_uncompress_ops = sql_number(&cmp, 0, 3);
    out->cmp_uncompress_time = sql_number(&cmp, 0, 4);
    rc = 0;
cleanup:
    sql_result_free(&st);
    sql_result_free(&cmp);
    return rc;
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

/* The same rows as sbtest1 in an uncompressed copy: allocated bytes of both. */
static int measure_ratio(struct sql *s, struct innodb_compression *out)
{
    static const char *const stmts[] = {
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
    struct sql_result r = {0};
    if (sql_run(s, stmts, &r) < 0)
        return -1;
    if (r.rows != 2) {
        log_error("Cannot read the tablespace sizes of sbtest1 and its uncompressed copy.");
        sql_result_free(&r);
        return -1;
    }
    out->allocated = (long long)sql_number(&r, 0, 1); /* sbtest/sbtest1 sorts first */
    out->logical = (long long)sql_number(&r, 1, 1);
    out->ratio = out->allocated > 0 ? (double)out->logical / (double)out->allocated : 0;
    sql_result_free(&r);
    return 0;
}

int innodb_check_compression(struct sql *s, const struct run_config *cfg,
                             struct innodb_compression *out)
{
    memset(out, 0, sizeof(*out));
    if (check_formats(s, cfg, out) < 0 || check_algorithm(s, cfg, out) < 0 ||
        measure_ratio(s, out) < 0)
        return -1;
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
