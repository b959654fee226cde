/* keys.h: every scenario key, declared once.
 *
 * The table in keys.c (name, type, allowed values or range, default, unit,
 * which arms it affects, help) is the single source for parsing, validation,
 * `vbed help keys` and the README's key reference. A parsed value lands in
 * struct run_config at the key's offset, fio-style. */
#ifndef VBED_KEYS_H
#define VBED_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum key_type {
    KT_ENUM,     /* one of a fixed list of words, stored as its index (int) */
    KT_INT,      /* integer in [min, max] (long long); "auto" if KF_AUTO -> -1 */
    KT_SIZE,     /* bytes, with K/M/G/T suffixes (binary) (long long) */
    KT_DURATION, /* seconds, with s/m/h suffixes (long long) */
    KT_BOOL,     /* yes/no (int 0/1) */
    KT_STRING,   /* free text up to KEY_STRING_MAX-1 bytes (char[]) */
    KT_HOSTS,    /* libvirt URIs, comma-separated: ONE value (a placement, never an
                    axis), stored joined by ',' (char[KEY_HOSTS_MAX]); "" = the -c URI */
};

enum key_flags {
    KF_LIST = 1 << 0,        /* may be a comma-separated list: a variant axis */
    KF_ARM_ONLY = 1 << 1,    /* only inside an arm section */
    KF_GLOBAL_ONLY = 1 << 2, /* only in [global] */
    KF_AUTO = 1 << 3,        /* KT_INT, KT_SIZE, KT_DURATION also take "auto", stored as -1 */
};

/* Which kinds of arm a key affects (a key set in an arm section that it does
 * not affect is an error; set in [global] it is simply ignored there). */
#define KEY_HOST (1u << 0)
#define KEY_GUEST (1u << 1)
#define KEY_BOTH (KEY_HOST | KEY_GUEST)

#define KEY_STRING_MAX 128
#define KEY_HOSTS_MAX 1024
#define KEY_HOSTS_COUNT_MAX 8

struct key_def {
    const char *name;
    enum key_type type;
    const char *const *choices; /* KT_ENUM: NULL-terminated */
    long long min, max;         /* KT_INT, KT_SIZE, KT_DURATION */
    const char *def;            /* default as text; NULL: the key is required */
    const char *unit;           /* shown in help, e.g. "bytes" */
    unsigned arms;              /* KEY_HOST, KEY_GUEST or KEY_BOTH */
    unsigned flags;             /* enum key_flags */
    size_t offset;              /* into struct run_config */
    const char *help;
};

/* Enumerations: the order matches the choices lists in keys.c. */
enum arm_kind { ARM_HOST, ARM_GUEST };
enum disk_cache { CACHE_NONE, CACHE_WRITEBACK, CACHE_WRITETHROUGH, CACHE_DIRECTSYNC, CACHE_UNSAFE };
enum disk_format { FORMAT_QCOW2, FORMAT_RAW };
enum disk_io { IO_THREADS, IO_NATIVE, IO_URING };
enum qcow2_prealloc { PREALLOC_OFF, PREALLOC_METADATA, PREALLOC_FULL };
enum filesystem { FS_EXT4, FS_XFS, FS_BTRFS, FS_TMPFS };
enum workload {
    WL_OLTP_READ_ONLY, WL_OLTP_READ_WRITE, WL_OLTP_WRITE_ONLY, WL_OLTP_POINT_SELECT, /* sysbench-oltp */
    WL_SEQ_WRITE, WL_SEQ_READ, WL_TAR_EXTRACT /* raw I/O: workloads/ */
};
/* how a guest's data disks are combined (disklayout.h) */
enum disk_layout {
    LAYOUT_SINGLE, LAYOUT_MD_RAID0, LAYOUT_MD_RAID1, LAYOUT_MD_RAID10, LAYOUT_MD_RAID5,
    LAYOUT_MD_RAID6, LAYOUT_LVM_STRIPE, LAYOUT_BTRFS_RAID0, LAYOUT_BTRFS_RAID1,
    LAYOUT_BTRFS_RAID10, LAYOUT_BTRFS_RAID5, LAYOUT_BTRFS_RAID6
};
enum compression { COMP_NONE, COMP_ROW_ZLIB, COMP_PAGE_ZLIB, COMP_PAGE_LZ4 };
enum flush_method { FLUSH_FSYNC, FLUSH_O_DIRECT, FLUSH_O_DIRECT_NO_FSYNC };
enum virt_type { VIRT_AUTO, VIRT_KVM, VIRT_QEMU };
/* how a guest gets going: restored from a saved ready guest, or booted */
enum guest_start { START_RESTORE, START_COLD };
/* how a guest gets its tables: imported from the image cache where that
 * pays (auto), always, or loaded */
enum prepare_mode { PREPARE_AUTO, PREPARE_COPY, PREPARE_LOAD };
enum host_match { HOST_MATCH_GUEST, HOST_MATCH_NONE };
enum rand_type { RAND_SPECIAL, RAND_UNIFORM, RAND_GAUSSIAN, RAND_PARETO };
enum pin_mode { PIN_AUTO, PIN_NONE };
enum run_order { ORDER_SHUFFLE, ORDER_FIXED };

/* One run's fully resolved settings. Plain data: copy it by assignment. */
struct run_config {
    int arm;
    long long guests;
    long long vcpus;
    long long memory;
    int host_match;
    int disk_cache;
    int disk_format;
    int disk_io;
    long long disk_size;
    long long qcow2_cluster_size;
    int qcow2_preallocation;
    int filesystem;
    long long data_disks;
    int layout;           /* enum disk_layout */
    int assume_clean;
    long long timeout_resync;
    int workload;
    long long io_size;    /* seq_write, seq_read */
    long long block_size;
    int direct;
    long long tables;
    long long table_size;
    int rand_type;
    long long threads;
    long long duration;   /* -1: auto */
    long long duration_max;
    long long ci_target;  /* percent */
    long long warmup;     /* -1: auto */
    long long warmup_max;
    long long report_interval;
    long long repeats;    /* -1: auto */
    long long repeats_max;
    long long cv_target;  /* percent */
    int compression;
    int key_block_size;   /* index into "1,2,4,8,16" */
    long long buffer_pool; /* -1: auto (targets/bufferpool.h) */
    int flush_method;
    long long log_file_size;
    int flush_log_at_trx_commit; /* index into "0,1,2" */
    int doublewrite;
    int performance_schema;
    int post_probes;      /* the speed, miss-cost and read probes after measuring */
    long long ps_cost;    /* seconds a slice of workloads/pscost.h's probe; 0: none */
    int drop_caches;
    int virt_type;
    int start;
    int prepare;          /* enum prepare_mode */
    int pin;
    int order;
    long long order_seed; /* -1: auto (from the clock) */
    long long timeout_boot;
    long long timeout_setup;
    long long timeout_db;
    long long timeout_agent;
    long long timeout_prepare;
    long long timeout_stall; /* 0: not watched (virt/diskwatch.h) */
    int stall_retry;
    char image[KEY_STRING_MAX];
    char pool[KEY_STRING_MAX];
    char pool_dir[KEY_STRING_MAX];
    char hosts[KEY_HOSTS_MAX];    /* "" : the -c URI */
};

extern const struct key_def key_table[];
extern const size_t key_count;

const struct key_def *key_find(const char *name);
/* The known key closest to a misspelt name, or NULL when nothing is close. */
const struct key_def *key_suggest(const char *name);

/* Parse one scalar item (already trimmed) into *cfg at key->offset.
 * On failure returns -1 and writes a sentence fragment such as
 * "'nonee' is not one of: none, writeback" into err. */
int key_parse_item(const struct key_def *key, const char *item, struct run_config *cfg,
                   char *err, size_t errlen);

/* Fill cfg with every key's default (required keys are left zero). */
void key_apply_defaults(struct run_config *cfg);

/* The value of key in cfg, formatted as a user would write it ("512M", "30s"). */
void key_format_value(const struct key_def *key, const struct run_config *cfg, char *buf,
                      size_t len);

/* Accepted values of a key as text: "none, writeback, ..." or "1 to 64". */
void key_describe_accepted(const struct key_def *key, char *buf, size_t len);

/* seq_write, seq_read, tar_extract: raw I/O on the data disks, no database */
bool key_workload_is_io(int workload);

/* Name of an enum value, e.g. key_choice("disk_cache", CACHE_NONE) -> "none". */
const char *key_choice(const char *key_name, int index);

/* key_block_size and flush_log_at_trx_commit as numbers */
int run_config_key_block_size(const struct run_config *cfg);
int run_config_flush_log_at_trx_commit(const struct run_config *cfg);

/* Keys that say where an arm runs (hosts, pool, pool_dir): printed with the
 * placement, not among a run's settings. */
bool key_is_placement(const struct key_def *key);

/* hosts: how many URIs cfg->hosts holds (0: the -c URI), and the i-th into
 * buf (NULL-terminated; "" when there are none). */
size_t run_config_host_count(const struct run_config *cfg);
void run_config_host(const struct run_config *cfg, size_t i, char *buf, size_t len);
/* The host guest n (1-based) of a guest arm runs on: round-robin over hosts. */
size_t run_config_guest_host(const struct run_config *cfg, int n);

/* Where a key may be set: "arm sections", "[global]", "[global], guest arms" ... */
const char *key_where(const struct key_def *key);

/* The key reference: `vbed help keys` (text) and README (markdown); the
 * man page's (help_man.c) comes from the same table. */
void keys_print_help(FILE *out);
void keys_print_markdown(FILE *out);

#endif
