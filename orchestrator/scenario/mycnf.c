/* mycnf.c: render my.cnf for a run (see mycnf.h). */
#include "scenario/mycnf.h"

#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* performance_schema as the time budget reads it (probes/perfschema.h):
 * every instrument off but the data files' I/O, synch waits, the commit
 * stage, statements and transactions, summed per thread; no history, no
 * digests */
const char *const mycnf_ps_instruments[] = {
    "wait/io/file/innodb/innodb_data_file",
    "wait/synch/%",
    "stage/sql/Commit",
    "stage/sql/Commit implicit",
    "statement/%",
    "transaction",
    NULL,
};

static void perfschema_on(char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "performance_schema = ON\n"
                                             "performance_schema_instrument = '%%=OFF'\n");
    for (size_t i = 0; mycnf_ps_instruments[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "performance_schema_instrument = '%s=ON'\n",
                                 mycnf_ps_instruments[i]);
    if (used < len)
        snprintf(buf + used, len - used,
                 "performance_schema_consumer_events_statements_current = OFF\n"
                 "performance_schema_consumer_statements_digest = OFF\n");
}

char *mycnf_render(const struct run_config *c)
{
    char bp[32], log[32];
    /* buffer_pool = auto: a start, resized online once the target's memory
     * outside the pool is measured (targets/bufferpool.h) */
    long long pool = c->buffer_pool >= 0 ? c->buffer_pool
                     : c->memory / 4 < (128LL << 20) ? c->memory / 4 : 128LL << 20;
    format_size(pool, bp, sizeof(bp));
    format_size(c->log_file_size, log, sizeof(log));
    const char *algo = c->compression == COMP_PAGE_LZ4 ? "lz4"
                       : c->compression == COMP_PAGE_ZLIB ? "zlib"
                                                          : "none";
    long long conns = c->threads * 2 + 20;
    if (conns < 151)
        conns = 151;
    char ps[1024];
    if (c->performance_schema)
        perfschema_on(ps, sizeof(ps));
    else
        snprintf(ps, sizeof(ps), "performance_schema = OFF\n");
    char *out = NULL;
    if (asprintf(&out,
                 "# my.cnf written by vbed from the scenario's keys: the whole server\n"
                 "# configuration, the same for every arm (guests: /etc/mysql/my.cnf; the host\n"
                 "# arm: --defaults-file, with datadir, socket, pid file and error log on its\n"
                 "# command line)\n"
                 "[mariadbd]\n"
                 "character_set_server = utf8mb4\n"
                 "collation_server = utf8mb4_general_ci\n"
                 "innodb_buffer_pool_size = %s\n"
                 "innodb_flush_method = %s\n"
                 "innodb_log_file_size = %s\n"
                 "innodb_flush_log_at_trx_commit = %d\n"
                 "innodb_doublewrite = %s\n"
                 "innodb_file_per_table = ON\n"
                 "innodb_compression_algorithm = %s\n"
                 "max_connections = %lld\n"
                 "skip_name_resolve = ON\n"
                 "log_error = " MYCNF_GUEST_ERROR_LOG "\n"
                 "%s%s",
                 bp, key_choice("flush_method", c->flush_method), log,
                 run_config_flush_log_at_trx_commit(c), c->doublewrite ? "ON" : "OFF", algo,
                 conns,
                 c->compression == COMP_PAGE_LZ4 ? "plugin_load_add = provider_lz4\n" : "",
                 ps) < 0)
        abort();
    return out;
}

const char *mycnf_table_options(const struct run_config *c, char *buf, unsigned long len)
{
    switch (c->compression) {
    case COMP_ROW_ZLIB:
        snprintf(buf, len, "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%d", run_config_key_block_size(c));
        break;
    case COMP_PAGE_ZLIB:
    case COMP_PAGE_LZ4:
        snprintf(buf, len, "PAGE_COMPRESSED=1");
        break;
    default:
        buf[0] = '\0';
    }
    return buf;
}
