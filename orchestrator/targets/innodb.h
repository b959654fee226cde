/* innodb.h: what InnoDB says about the sysbench tables and its own work.
 *
 * Compression check after prepare: every sbtest table carries the run's
 * format (ROW_FORMAT=COMPRESSED with the KEY_BLOCK_SIZE, or
 * PAGE_COMPRESSED=1 with the algorithm, the lz4 provider ACTIVE), and the
 * ratio of sbtest1:
 *   ROW_FORMAT=COMPRESSED: by pages in use -- the bytes of the pages its
 *   indexes hold (DATA_LENGTH + INDEX_LENGTH after ANALYZE TABLE, at
 *   KEY_BLOCK_SIZE) against those of the same rows in an uncompressed table
 *   built as sysbench builds sbtest1 (primary-key order, the secondary
 *   index after the load). Not the files' allocation: a file grows by
 *   extents, by the order its rows came in (the same 100,000 rows read 2.00
 *   where loaded and 2.61 in every copy that way, 3.13 elsewhere, with
 *   KEY_BLOCK_SIZE=8 allowing 2 at most). A ratio above 16 /
 *   KEY_BLOCK_SIZE fails the check. INNODB_CMP's compress_ops_ok /
 *   compress_ops, server-wide, goes beside it.
 *   PAGE_COMPRESSED: sbtest1's file size against its allocated blocks
 *   (after FLUSH TABLES ... FOR EXPORT: its pages on disk), no reference.
 * The reference costs a read of every row and a write of them all again
 * (16 s a guest for 100,000 rows under TCG here); tables copied from a
 * prepared copy (workloads/prepared.h) are the same pages, so the
 * reference's size measured where they were loaded is taken from there. Counters (status variables, INNODB_CMP) are snapshots; the
 * measure phase's figures are the difference of two. */
#ifndef VBED_INNODB_H
#define VBED_INNODB_H

#include "scenario/keys.h"
#include "targets/sql.h"

#include <stdbool.h>

struct innodb_counters {
    double bp_read_requests, bp_reads;
    double cmp_compress_ops, cmp_compress_ops_ok, cmp_compress_time;
    double cmp_uncompress_ops, cmp_uncompress_time;
    double page_compression_saved, pages_page_compressed, pages_page_decompressed;
};

struct innodb_compression {
    bool took_effect;
    char problem[256];       /* why not, when !took_effect */
    long long allocated;     /* sbtest1: its pages in use (row), its allocated blocks (page) */
    long long logical;       /* the same rows uncompressed: the reference's pages in use
                                (row), sbtest1's file size (page) */
    bool logical_recorded;   /* logical is the prepared copy's, not measured here */
    double ratio;            /* logical / allocated */
    const char *basis;       /* "pages in use", "allocated" */
    double compress_ok_share; /* INNODB_CMP compress_ops_ok / compress_ops, server-wide; NAN */
    bool provider_lz4;       /* plugin ACTIVE */
};

/* The counters, NAN where the server has no such status variable, and the
 * status variables more[] (NULL-terminated, vbed's own names; NULL: none)
 * read in the same query -- one program in a guest: its rows (name, value)
 * into *rows (NULL: not wanted), freed by the caller (sql_status reads
 * them). */
int innodb_counters(struct sql *s, const char *const more[], struct innodb_counters *out,
                        struct sql_result *rows);
/* after - before, field by field */
void innodb_counters_delta(const struct innodb_counters *before, const struct innodb_counters *after,
                           struct innodb_counters *delta);

/* Check the tables of a run with compression != none; logical > 0: the
 * bytes the same rows took uncompressed, recorded where these tables were
 * prepared (no copy made), else 0. -1 only if a query failed (reported); a
 * compression that did not take effect returns 0 with took_effect false and
 * the problem said. */
int innodb_check_compression(struct sql *s, const struct run_config *cfg, long long logical,
                             struct innodb_compression *out);

/* The sysbench tables in the buffer pool's unit: their pages in use
 * (DATA_LENGTH + INDEX_LENGTH after ANALYZE TABLE, summed over sbtest*) as
 * 16 KiB frames -- a ROW_FORMAT=COMPRESSED page of KEY_BLOCK_SIZE takes a
 * whole frame uncompressed when it is read -- not the files' sizes: what
 * the pool must hold to hold the data. -1 reported. */
int innodb_data_bytes(struct sql *s, const struct run_config *cfg, long long *bytes);

/* "FLUSH TABLES sbtest.sbtest1, ... FOR EXPORT" for tables tables
 * (malloc'd): what holds sysbench's tables consistent while their files
 * are copied (workloads/prepared.h). */
char *innodb_flush_for_export(long long tables);

/* One statement per sysbench table, fmt with the table's number (%lld:
 * "ALTER TABLE sbtest.sbtest%lld DISCARD TABLESPACE"), run in one session.
 * 0, or -1 reported. */
int innodb_each_table(struct sql *s, long long tables, const char *fmt);
/* what a copy of a table's files goes in between (workloads/prepared.h) */
#define INNODB_DISCARD_TABLESPACE "ALTER TABLE sbtest.sbtest%lld DISCARD TABLESPACE"
#define INNODB_IMPORT_TABLESPACE "ALTER TABLE sbtest.sbtest%lld IMPORT TABLESPACE"

/* The server's version string. */
int innodb_version(struct sql *s, char *buf, unsigned long len);

#endif
