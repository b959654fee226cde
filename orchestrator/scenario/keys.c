/* keys.c: the scenario key table, and parsing one value of one key.
 *
 * Add a key here and it is parsed, validated, listed by `vbed help keys`
 * and documented in docs/keys.md (make readme-keys) without another edit. */
#include "scenario/keys.h"

#include "scenario/hosturi.h"
#include "util/units.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const arm_choices[] = {"host", "guest", NULL};
static const char *const cache_choices[] = {"none",       "writeback", "writethrough",
                                            "directsync", "unsafe",    NULL};
static const char *const format_choices[] = {"qcow2", "raw", NULL};
static const char *const io_choices[] = {"threads", "native", "io_uring", NULL};
static const char *const prealloc_choices[] = {"off", "metadata", "full", NULL};
static const char *const start_choices[] = {"restore", "cold", NULL};
static const char *const prepare_choices[] = {"auto", "copy", "load", NULL};
static const char *const fs_choices[] = {"ext4", "xfs", "btrfs", "tmpfs", NULL};
static const char *const workload_choices[] = {"oltp_read_only", "oltp_read_write",
                                               "oltp_write_only", "oltp_point_select",
                                               "seq_write",      "seq_read",
                                               "tar_extract",    "mariadb_slap",
                                               NULL};
static const char *const layout_choices[] = {"single",      "md-raid0",     "md-raid1",
                                             "md-raid10",   "md-raid5",     "md-raid6",
                                             "lvm-stripe",  "btrfs-raid0",  "btrfs-raid1",
                                             "btrfs-raid10", "btrfs-raid5", "btrfs-raid6",
                                             NULL};
static const char *const compression_choices[] = {"none", "row-zlib", "page-zlib", "page-lz4",
                                                  NULL};
static const char *const kbs_choices[] = {"1", "2", "4", "8", "16", NULL};
static const char *const flush_choices[] = {"fsync", "O_DIRECT", "O_DIRECT_NO_FSYNC", NULL};
static const char *const trx_choices[] = {"0", "1", "2", NULL};
static const char *const virt_choices[] = {"auto", "kvm", "qemu", NULL};
static const char *const host_match_choices[] = {"guest", "none", NULL};
static const char *const rand_choices[] = {"special", "uniform", "gaussian", "pareto", NULL};
static const char *const pin_choices[] = {"auto", "none", NULL};
static const char *const order_choices[] = {"shuffle", "fixed", NULL};

#define OFF(field) offsetof(struct run_config, field)
#define KiB 1024LL
#define MiB (1024LL * KiB)
#define GiB (1024LL * MiB)
#define TiB (1024LL * GiB)

/* clang-format off */
const struct key_def key_table[] = {
    {"arm", KT_ENUM, arm_choices, 0, 0, NULL, NULL, KEY_BOTH, KF_ARM_ONLY, OFF(arm),
     "Where this arm's workload runs: on the bare host (a private mariadbd) or in guests."},
    {"guests", KT_INT, NULL, 1, 64, "1", NULL, KEY_GUEST, KF_LIST, OFF(guests),
     "Guests started together in this arm; they share the host's disk and are measured over a common window."},
    {"vcpus", KT_INT, NULL, 1, 256, "1", NULL, KEY_BOTH, KF_LIST, OFF(vcpus),
     "Virtual CPUs per guest; a host arm is pinned to as many host CPUs (see host_match)."},
    {"memory", KT_SIZE, NULL, 256 * MiB, TiB, "1G", "bytes", KEY_BOTH, KF_LIST, OFF(memory),
     "Memory per guest; a host arm's cgroup gets the same limit, page cache included (see host_match)."},
    {"host_match", KT_ENUM, host_match_choices, 0, 0, "guest", NULL, KEY_HOST, KF_LIST, OFF(host_match),
     "guest: limit the host arm to one guest's vcpus and memory; none: let it use the whole host."},
    {"disk_cache", KT_ENUM, cache_choices, 0, 0, "writeback", NULL, KEY_GUEST, KF_LIST, OFF(disk_cache),
     "QEMU cache mode of the data disk: writeback uses the host page cache; none opens it O_DIRECT."},
    {"disk_format", KT_ENUM, format_choices, 0, 0, "qcow2", NULL, KEY_GUEST, KF_LIST, OFF(disk_format),
     "Image format of the data disk (the disk under test)."},
    {"disk_io", KT_ENUM, io_choices, 0, 0, "threads", NULL, KEY_GUEST, KF_LIST, OFF(disk_io),
     "QEMU I/O mode of the data disk; native needs disk_cache none or directsync."},
    {"disk_size", KT_SIZE, NULL, 64 * MiB, 64 * TiB, "4G", "bytes", KEY_GUEST, KF_LIST, OFF(disk_size),
     "Virtual size of each guest's data disk."},
    {"qcow2_cluster_size", KT_SIZE, NULL, 512, 2 * MiB, "64K", "bytes", KEY_GUEST, KF_LIST, OFF(qcow2_cluster_size),
     "Cluster size of a qcow2 data disk (a power of two, 512 to 2M)."},
    {"qcow2_preallocation", KT_ENUM, prealloc_choices, 0, 0, "off", NULL, KEY_GUEST, KF_LIST, OFF(qcow2_preallocation),
     "Preallocation of a qcow2 data disk: off, metadata, or full (all clusters allocated)."},
    {"filesystem", KT_ENUM, fs_choices, 0, 0, "ext4", NULL, KEY_GUEST, KF_LIST, OFF(filesystem),
     "Filesystem the guest makes on its data disk for the MariaDB datadir; tmpfs keeps the datadir in guest RAM."},
    {"data_disks", KT_INT, NULL, 1, 16, "1", NULL, KEY_GUEST, KF_LIST, OFF(data_disks),
     "Data disks per guest, each its own volume of disk_size with the arm's disk_format, disk_cache and disk_io; layout combines them."},
    {"layout", KT_ENUM, layout_choices, 0, 0, "single", NULL, KEY_GUEST, KF_LIST, OFF(layout),
     "How the guest combines its data disks before the filesystem: single (one disk); md-raidN (mdadm, then filesystem); lvm-stripe (one LV striped over every disk); btrfs-raidN (btrfs's own RAID for data and metadata: needs filesystem = btrfs). Minimum disks: md-raid0 2, md-raid1 2, md-raid10 4, md-raid5 3, md-raid6 4, lvm-stripe 2, btrfs-raid0 2, btrfs-raid1 2, btrfs-raid10 4, btrfs-raid5 2, btrfs-raid6 3."},
    {"assume_clean", KT_BOOL, NULL, 0, 0, "no", NULL, KEY_GUEST, KF_LIST, OFF(assume_clean),
     "md-raid1/10/5/6: create the array with --assume-clean instead of waiting for its initial resync (whose length is recorded as md_resync_s)."},
    {"timeout_resync", KT_DURATION, NULL, 1, 7 * 86400, "1h", "seconds", KEY_GUEST, 0, OFF(timeout_resync),
     "Limit on the initial resync of a redundant md array (counted within timeout_setup's phase, on its own clock)."},
    {"workload", KT_ENUM, workload_choices, 0, 0, NULL, NULL, KEY_BOTH, KF_LIST, OFF(workload),
     "oltp_*: sysbench OLTP (sysbench 1.0.20's bundled scripts; the sysbench-oltp workload); seq_write, seq_read: fio sequential writes or reads of io_size in block_size blocks, fsync at the end (MB/s); tar_extract: extract the image's fixed archive onto the data disk and sync (MB/s); mariadb_slap: mariadb-slap's auto-generated mixed load (inserts and scans of the table they grow), `threads` clients, table_size queries in all, 3 iterations (q/s)."},
    {"io_size", KT_SIZE, NULL, MiB, 64 * TiB, "1G", "bytes", KEY_BOTH, KF_LIST, OFF(io_size),
     "seq_write, seq_read: bytes written or read by fio (one file)."},
    {"block_size", KT_SIZE, NULL, 512, 64 * MiB, "1M", "bytes", KEY_BOTH, KF_LIST, OFF(block_size),
     "seq_write, seq_read: fio's block size (--bs)."},
    {"direct", KT_BOOL, NULL, 0, 0, "no", NULL, KEY_BOTH, KF_LIST, OFF(direct),
     "seq_write, seq_read: O_DIRECT (fio --direct=1), bypassing the page cache of the machine that runs fio."},
    {"tables", KT_INT, NULL, 1, 1000, "4", NULL, KEY_BOTH, KF_LIST, OFF(tables),
     "sysbench --tables."},
    {"table_size", KT_INT, NULL, 1, 1000000000, "100000", "rows", KEY_BOTH, KF_LIST, OFF(table_size),
     "sysbench --table-size: rows per table."},
    {"rand_type", KT_ENUM, rand_choices, 0, 0, "special", NULL, KEY_BOTH, KF_LIST, OFF(rand_type),
     "sysbench --rand-type: which rows the queries touch. special (sysbench's default) sends 75% of them to 1% of the rows; uniform spreads them over all rows, so a table larger than the buffer pool really reaches the disk."},
    {"threads", KT_INT, NULL, 1, 1024, "4", NULL, KEY_BOTH, KF_LIST, OFF(threads),
     "sysbench --threads in each guest (and on the host arm)."},
    {"duration", KT_DURATION, NULL, 1, 7 * 86400, "60s", "seconds", KEY_BOTH, KF_LIST | KF_AUTO, OFF(duration),
     "Length of the measure phase. auto: long enough that the arm's TPS has a 95 % CI half-width within ci_target, judged by batch means (5 s batches) of the warm-up's last 20 s of intervals in every target; at least 30 s, at most duration_max. The CI the measure phase reached is recorded either way (tps_arm_ci95_half_pct)."},
    {"duration_max", KT_DURATION, NULL, 30, 7 * 86400, "10m", "seconds", KEY_BOTH, KF_LIST, OFF(duration_max),
     "Cap on duration = auto."},
    {"ci_target", KT_INT, NULL, 1, 50, "5", "percent", KEY_BOTH, KF_GLOBAL_ONLY, OFF(ci_target),
     "duration = auto: the 95 % CI half-width of the arm's TPS it aims for, in percent of the TPS."},
    {"warmup", KT_DURATION, NULL, 0, 7 * 86400, "auto", "seconds", KEY_BOTH, KF_LIST | KF_AUTO, OFF(warmup),
     "Warm-up before the measure phase (not measured). auto: 10 s slices in every target until each one's TPS is shown steady (the drift over its last two slices within +-5 % with its 95 % CI), at most warmup_max; a duration: exactly that long."},
    {"warmup_max", KT_DURATION, NULL, 10, 7 * 86400, "5m", "seconds", KEY_BOTH, KF_LIST, OFF(warmup_max),
     "Cap on warmup = auto; a target still unsteady then is recorded as such (warmup_s, steady = no) and measured anyway."},
    {"report_interval", KT_DURATION, NULL, 1, 3600, "1s", "seconds", KEY_BOTH, 0, OFF(report_interval),
     "sysbench --report-interval: one TPS sample per interval is kept as a time series."},
    {"repeats", KT_INT, NULL, 1, 100, "1", NULL, KEY_BOTH, KF_GLOBAL_ONLY | KF_AUTO, OFF(repeats),
     "Repeats of every run; auto repeats until the TPS CV is at most cv_target or repeats_max is reached."},
    {"repeats_max", KT_INT, NULL, 2, 100, "10", NULL, KEY_BOTH, KF_GLOBAL_ONLY, OFF(repeats_max),
     "Cap on repeats when repeats = auto."},
    {"cv_target", KT_INT, NULL, 1, 100, "5", "percent", KEY_BOTH, KF_GLOBAL_ONLY, OFF(cv_target),
     "Target coefficient of variation of TPS when repeats = auto."},
    {"compression", KT_ENUM, compression_choices, 0, 0, "none", NULL, KEY_BOTH, KF_LIST, OFF(compression),
     "InnoDB compression of the sysbench tables: row-zlib is ROW_FORMAT=COMPRESSED; page-* is PAGE_COMPRESSED=1 with that algorithm. Its effect is checked on sbtest1 only (compression_ratio: row-zlib by pages in use, against the same rows in an uncompressed table built as sysbench builds sbtest1, where the tables were loaded -- a guest that copied them takes that reference; at most 16 / key_block_size; page-*: file size against allocated blocks)."},
    {"key_block_size", KT_ENUM, kbs_choices, 0, 0, "8", "KiB", KEY_BOTH, KF_LIST, OFF(key_block_size),
     "KEY_BLOCK_SIZE of row-zlib tables (8 as in the reference paper)."},
    {"buffer_pool", KT_SIZE, NULL, 8 * MiB, TiB, "128M", "bytes", KEY_BOTH, KF_LIST | KF_AUTO, OFF(buffer_pool),
     "innodb_buffer_pool_size (128M as in the reference paper). auto: the target's memory minus what is resident outside the pool once the server runs (a guest's kernel and processes, mariadbd outside its pool; measured), minus sysbench's (12 MiB + 1 MiB per thread) and a margin (5 %, at least 32 MiB); set online before the tables are loaded, and stated in the report."},
    {"flush_method", KT_ENUM, flush_choices, 0, 0, "O_DIRECT", NULL, KEY_BOTH, KF_LIST, OFF(flush_method),
     "innodb_flush_method. MariaDB 10.11 defaults to O_DIRECT; fsync reproduces the paper's double caching."},
    {"log_file_size", KT_SIZE, NULL, 4 * MiB, 512 * GiB, "96M", "bytes", KEY_BOTH, KF_LIST, OFF(log_file_size),
     "innodb_log_file_size."},
    {"flush_log_at_trx_commit", KT_ENUM, trx_choices, 0, 0, "1", NULL, KEY_BOTH, KF_LIST, OFF(flush_log_at_trx_commit),
     "innodb_flush_log_at_trx_commit."},
    {"doublewrite", KT_BOOL, NULL, 0, 0, "yes", NULL, KEY_BOTH, KF_LIST, OFF(doublewrite),
     "innodb_doublewrite."},
    {"performance_schema", KT_BOOL, NULL, 0, 0, "yes", NULL, KEY_BOTH, KF_LIST, OFF(performance_schema),
     "performance_schema, the same in every arm: yes turns on only what the time budget reads per connection (the data files' I/O, synch waits, the commit stage, statements, transactions); no turns it off (to measure its cost: TPS with yes against no)."},
    {"post_probes", KT_BOOL, NULL, 0, 0, "yes", NULL, KEY_BOTH, 0, OFF(post_probes),
     "yes: after the measure phase, the probes the time split and the prediction read -- a guest's speed job, the cost of a buffer-pool miss, a read through the virtual disk (20-60 s a target under TCG); no: skipped, for runs whose split and prediction nobody reads (the report says they are missing)."},
    {"ps_cost", KT_DURATION, NULL, 0, 3600, "0s", "seconds", KEY_BOTH, 0, OFF(ps_cost),
     "0s: no probe. A duration: after the measure phase, sysbench runs on in 4 pairs of slices this long with performance_schema's instruments (those performance_schema = yes turns on) switched off and on again in the running server, the order alternating pair by pair, in every target at once: what the instruments cost, measured at the same moment (a guest's emulation speed moves between runs: the TPS of two runs cannot resolve a few percent). Needs performance_schema = yes; 15s takes about 2 minutes an arm."},
    {"drop_caches", KT_BOOL, NULL, 0, 0, "yes", NULL, KEY_BOTH, KF_LIST, OFF(drop_caches),
     "Sync and drop the host's page cache in every run after prepare (the tables are loaded) and before warm-up."},
    {"virt_type", KT_ENUM, virt_choices, 0, 0, "auto", NULL, KEY_GUEST, 0, OFF(virt_type),
     "Domain type: auto uses kvm where it works and falls back to qemu (TCG, much slower)."},
    {"start", KT_ENUM, start_choices, 0, 0, "restore", NULL, KEY_GUEST, KF_LIST, OFF(start),
     "How a guest gets going: restore copies a saved ready guest (booted once per image, vCPUs, memory and accelerator, then kept in the image cache; a run restores it in about a second and plugs in its disks), cold boots it. A remote host restores what this machine saved for its QEMU and libvirt versions (uploaded there); where nothing can be restored it boots, and the run says why. vbed run --cold forces cold."},
    {"prepare", KT_ENUM, prepare_choices, 0, 0, "auto", NULL, KEY_GUEST, KF_LIST, OFF(prepare),
     "How a guest gets its sysbench tables: copy imports them (InnoDB's transportable tablespaces) from a copy in the image cache, keyed by tables, table_size, the table options and the MariaDB version; load runs sysbench prepare in the guest. Before the first run a private mariadbd on this machine loads the tables the guests will copy and leaves the copy, where this machine's MariaDB and sysbench are the image's (with copy; with auto from 20,000 rows); else the first guest to load them leaves it. auto copies where loading took at least 10 s in a guest, or 1 s on this machine (a copy costs a few seconds: 17 MB in 5-6 s under TCG), else loads. A host arm on this machine takes the same copy (its files written into its datadir by the mysql user, never root); a remote host arm loads."},
    {"pin", KT_ENUM, pin_choices, 0, 0, "auto", NULL, KEY_BOTH, KF_GLOBAL_ONLY, OFF(pin),
     "auto: when the host has enough CPUs for every arm, give each guest's vCPUs and its emulator threads host CPUs of their own, and the host arm as many CPUs as a guest's vCPUs got; with a CPU for every vCPU but none left for the emulators, pin the vCPUs alone; with fewer CPUs than vCPUs (and with none) nothing is pinned. On this machine's hypervisor the host's CPUs are those vbed may run on (its affinity: under taskset -c 2-3, or a cpuset of 2-3, it places on CPUs 2 and 3, and whatever it does not pin to a CPU of its own, emulator threads or vCPUs too many to pin, stays on CPUs 2 and 3 too). The placement applied is checked after start and recorded in meta.json."},
    {"order", KT_ENUM, order_choices, 0, 0, "shuffle", NULL, KEY_BOTH, KF_GLOBAL_ONLY, OFF(order),
     "Order of the runs within a repeat: shuffle (seeded; the seed is in meta.json) keeps the machine's drift off any one arm; fixed runs them in scenario order."},
    {"order_seed", KT_INT, NULL, 0, 2147483647LL, "auto", NULL, KEY_BOTH, KF_GLOBAL_ONLY | KF_AUTO, OFF(order_seed),
     "Seed of order = shuffle; auto takes one from the clock (recorded in meta.json, so a run order can be repeated)."},
    {"timeout_boot", KT_DURATION, NULL, 1, 86400, "300s", "seconds", KEY_GUEST, 0, OFF(timeout_boot),
     "From domain start until its guest agent answers."},
    {"timeout_setup", KT_DURATION, NULL, 1, 86400, "300s", "seconds", KEY_GUEST, 0, OFF(timeout_setup),
     "From the agent's first answer until the data disk is made and mounted as the datadir."},
    {"timeout_agent", KT_DURATION, NULL, 5, 86400, "60s", "seconds", KEY_GUEST, 0, OFF(timeout_agent),
     "How long a guest agent that has answered may go silent while its guest gets ready (setup, MariaDB's start) before the guest fails as hung, instead of waiting out the phase's limit."},
    {"timeout_db", KT_DURATION, NULL, 1, 86400, "300s", "seconds", KEY_BOTH, 0, OFF(timeout_db),
     "Until MariaDB accepts queries."},
    {"timeout_prepare", KT_DURATION, NULL, 1, 7 * 86400, "1h", "seconds", KEY_BOTH, 0, OFF(timeout_prepare),
     "Limit on sysbench prepare (the measure and warm-up phases are limited by their length plus a grace)."},
    {"timeout_stall", KT_DURATION, NULL, 0, 86400, "120s", "seconds", KEY_GUEST, 0, OFF(timeout_stall),
     "How long a guest's disk may hold requests that do not complete (the guest waits on them, the host completes none on any of its disks) while vbed waits on a program in the guest -- prepare, warm-up, measure -- before the run stops as stalled, naming the disk and its console's hung-task line; 0s: not watched."},
    {"stall_retry", KT_BOOL, NULL, 0, 0, "yes", NULL, KEY_GUEST, 0, OFF(stall_retry),
     "yes: a run whose guest disk stalled (timeout_stall) is repeated once with its guests cold-booted, and meta.json says so (the stalled attempt's logs are kept beside); no: the run fails."},
    {"image", KT_STRING, NULL, 0, 0, "debian-mariadb", NULL, KEY_GUEST, KF_GLOBAL_ONLY, OFF(image),
     "Guest image recipe (a directory under guest-images/)."},
    {"pool", KT_STRING, NULL, 0, 0, "vbed", NULL, KEY_BOTH, 0, OFF(pool),
     "libvirt storage pool for images and per-guest disks, on each of the arm's hosts; created if missing. May differ per arm (an HDD pool and an SSD pool on one host)."},
    {"pool_dir", KT_STRING, NULL, 0, 0, "/var/lib/vbed/pool", NULL, KEY_BOTH, 0, OFF(pool_dir),
     "Directory of the pool when vbed creates it (on the arm's hosts); the host arm's datadir goes next to it."},
    {"hosts", KT_HOSTS, NULL, 0, 0, "the -c URI", NULL, KEY_BOTH, 0, OFF(hosts),
     "Where the arm runs: libvirt URIs of hypervisor hosts (qemu:///system, qemu+ssh://[user@]host[:port]/system?keyfile=..). A placement, not an axis: a guest arm's guests go round-robin over its hosts; a host arm runs on one host: a local URI or qemu+ssh:// (its private mariadbd is started there by `vbed host`)."},
};
/* clang-format on */

const size_t key_count = sizeof(key_table) / sizeof(key_table[0]);

const struct key_def *key_find(const char *name)
{
    for (size_t i = 0; i < key_count; i++)
        if (strcmp(key_table[i].name, name) == 0)
            return &key_table[i];
    return NULL;
}

/* Levenshtein distance of two short words. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 64;
    size_t prev[64], cur[64];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(size_t) * (lb + 1));
    }
    return prev[lb];
}

const struct key_def *key_suggest(const char *name)
{
    const struct key_def *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < key_count; i++) {
        size_t d = edit_distance(name, key_table[i].name);
        size_t limit = strlen(key_table[i].name) / 3 + 1;
        /* "buffer_pool_size" for buffer_pool, "innodb_flush_method" for flush_method */
        if (d > limit && strlen(key_table[i].name) >= 6 && strcasestr(name, key_table[i].name))
            d = limit;
        if (d <= limit && d < best_d) {
            best = &key_table[i];
            best_d = d;
        }
    }
    return best;
}

void key_describe_accepted(const struct key_def *key, char *buf, size_t len)
{
    char lo[32], hi[32];
    size_t used = 0;
    buf[0] = '\0';
    switch (key->type) {
    case KT_ENUM:
        for (size_t i = 0; key->choices[i]; i++)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     i ? ", " : "", key->choices[i]);
        break;
    case KT_BOOL:
        snprintf(buf, len, "yes, no");
        break;
    case KT_INT:
        snprintf(buf, len, "%s%lld to %lld", (key->flags & KF_AUTO) ? "auto or " : "", key->min,
                 key->max);
        break;
    case KT_SIZE:
        format_size(key->min, lo, sizeof(lo));
        format_size(key->max, hi, sizeof(hi));
        snprintf(buf, len, "%sa size from %s to %s (K, M, G, T suffixes)",
                 (key->flags & KF_AUTO) ? "auto or " : "", lo, hi);
        break;
    case KT_DURATION:
        format_duration(key->min, lo, sizeof(lo));
        format_duration(key->max, hi, sizeof(hi));
        snprintf(buf, len, "%sa duration from %s to %s (s, m, h suffixes)",
                 (key->flags & KF_AUTO) ? "auto or " : "", lo, hi);
        break;
    case KT_STRING:
        snprintf(buf, len, "letters, digits, '.', '_', '-' and '/' (at most %d)", KEY_STRING_MAX - 1);
        break;
    case KT_HOSTS:
        snprintf(buf, len, "1 to %d libvirt URIs, comma-separated", KEY_HOSTS_COUNT_MAX);
        break;
    }
}

/* A comma-separated list of URIs, each checked (hosturi.h), into field. */
static int parse_hosts(const char *item, char *field, char *err, size_t errlen)
{
    char *copy = strdup(item), *save = NULL;
    char out[KEY_HOSTS_MAX] = "";
    size_t used = 0, n = 0;
    int rc = 0;
    if (!copy)
        abort();
    for (char *p = strtok_r(copy, ",", &save); p && rc == 0; p = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*p))
            p++;
        size_t l = strlen(p);
        while (l && isspace((unsigned char)p[l - 1]))
            p[--l] = '\0';
        struct host_uri u;
        if (host_uri_parse(p, &u, err, errlen) < 0) {
            rc = -1;
        } else if (++n > KEY_HOSTS_COUNT_MAX) {
            snprintf(err, errlen, "more than %d hosts", KEY_HOSTS_COUNT_MAX);
            rc = -1;
        } else if (used + l + 2 > sizeof(out)) {
            snprintf(err, errlen, "the list of hosts is longer than %d bytes", KEY_HOSTS_MAX - 1);
            rc = -1;
        } else {
            used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", used ? "," : "", p);
        }
    }
    free(copy);
    /* no URI at all ("", as key_format_value writes the default): the -c URI */
    if (rc == 0)
        memcpy(field, out, used + 1);
    return rc;
}

bool key_is_placement(const struct key_def *key)
{
    return key->type == KT_HOSTS || key->offset == OFF(pool) || key->offset == OFF(pool_dir);
}

size_t run_config_host_count(const struct run_config *cfg)
{
    if (!cfg->hosts[0])
        return 0;
    size_t n = 1;
    for (const char *p = cfg->hosts; *p; p++)
        n += *p == ',';
    return n;
}

void run_config_host(const struct run_config *cfg, size_t i, char *buf, size_t len)
{
    const char *p = cfg->hosts;
    for (size_t k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    if (!p || !*p) {
        snprintf(buf, len, "%s", "");
        return;
    }
    snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
}

size_t run_config_guest_host(const struct run_config *cfg, int n)
{
    size_t count = run_config_host_count(cfg);
    return count ? (size_t)(n - 1) % count : 0;
}

static bool string_is_safe(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._-/", *s))
            return false;
    return true;
}

int key_parse_item(const struct key_def *key, const char *item, struct run_config *cfg, char *err,
                   size_t errlen)
{
    char *field = (char *)cfg + key->offset;
    char accepted[512];
    long long v = 0;

    switch (key->type) {
    case KT_ENUM:
        for (int i = 0; key->choices[i]; i++) {
            if (strcmp(item, key->choices[i]) == 0) {
                *(int *)field = i;
                return 0;
            }
        }
        key_describe_accepted(key, accepted, sizeof(accepted));
        snprintf(err, errlen, "'%s' is not one of: %s", item, accepted);
        return -1;
    case KT_BOOL:
        if (!strcasecmp(item, "yes") || !strcasecmp(item, "true") || !strcasecmp(item, "on") ||
            !strcmp(item, "1")) {
            *(int *)field = 1;
            return 0;
        }
        if (!strcasecmp(item, "no") || !strcasecmp(item, "false") || !strcasecmp(item, "off") ||
            !strcmp(item, "0")) {
            *(int *)field = 0;
            return 0;
        }
        snprintf(err, errlen, "'%s' is not one of: yes, no", item);
        return -1;
    case KT_INT: {
        if ((key->flags & KF_AUTO) && strcmp(item, "auto") == 0) {
            *(long long *)field = -1;
            return 0;
        }
        char *end;
        v = strtoll(item, &end, 10);
        if (!isdigit((unsigned char)item[item[0] == '-']) || *end) {
            key_describe_accepted(key, accepted, sizeof(accepted));
            snprintf(err, errlen, "'%s' is not a whole number (accepted: %s)", item, accepted);
            return -1;
        }
        break;
    }
    case KT_SIZE:
        if ((key->flags & KF_AUTO) && strcmp(item, "auto") == 0) {
            *(long long *)field = -1;
            return 0;
        }
        if (parse_size(item, &v) < 0) {
            snprintf(err, errlen, "'%s' is not a size (use %sa number with K, M, G or T, e.g. 512M)",
                     item, (key->flags & KF_AUTO) ? "auto or " : "");
            return -1;
        }
        break;
    case KT_DURATION:
        if ((key->flags & KF_AUTO) && strcmp(item, "auto") == 0) {
            *(long long *)field = -1;
            return 0;
        }
        if (parse_duration(item, &v) < 0) {
            snprintf(err, errlen, "'%s' is not a duration (use %sa number with s, m or h, e.g. 90s)",
                     item, (key->flags & KF_AUTO) ? "auto or " : "");
            return -1;
        }
        break;
    case KT_STRING:
        if (strlen(item) >= KEY_STRING_MAX || !string_is_safe(item)) {
            key_describe_accepted(key, accepted, sizeof(accepted));
            snprintf(err, errlen, "'%s' is not accepted (use %s)", item, accepted);
            return -1;
        }
        memcpy(field, item, strlen(item) + 1);
        return 0;
    case KT_HOSTS:
        return parse_hosts(item, field, err, errlen);
    }

    if (v < key->min || v > key->max) {
        key_describe_accepted(key, accepted, sizeof(accepted));
        snprintf(err, errlen, "'%s' is out of range (accepted: %s)", item, accepted);
        return -1;
    }
    *(long long *)field = v;
    return 0;
}

void key_apply_defaults(struct run_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    for (size_t i = 0; i < key_count; i++) {
        char err[256];
        if (key_table[i].type == KT_HOSTS)
            continue; /* "": the -c URI */
        if (key_table[i].def && key_parse_item(&key_table[i], key_table[i].def, cfg, err, sizeof(err)) < 0)
            abort(); /* a default that fails its own key is a bug in the table */
    }
}

void key_format_value(const struct key_def *key, const struct run_config *cfg, char *buf, size_t len)
{
    const char *field = (const char *)cfg + key->offset;
    switch (key->type) {
    case KT_ENUM:
        snprintf(buf, len, "%s", key->choices[*(const int *)field]);
        break;
    case KT_BOOL:
        snprintf(buf, len, "%s", *(const int *)field ? "yes" : "no");
        break;
    case KT_INT:
        if (*(const long long *)field == -1 && (key->flags & KF_AUTO))
            snprintf(buf, len, "auto");
        else
            snprintf(buf, len, "%lld", *(const long long *)field);
        break;
    case KT_SIZE:
        if (*(const long long *)field == -1 && (key->flags & KF_AUTO))
            snprintf(buf, len, "auto");
        else
            format_size(*(const long long *)field, buf, len);
        break;
    case KT_DURATION:
        if (*(const long long *)field == -1 && (key->flags & KF_AUTO))
            snprintf(buf, len, "auto");
        else
            format_duration(*(const long long *)field, buf, len);
        break;
    case KT_STRING:
        snprintf(buf, len, "%s", field);
        break;
    case KT_HOSTS:
        snprintf(buf, len, "%s", field); /* "": the -c URI */
        break;
    }
}

const char *key_choice(const char *key_name, int index)
{
    const struct key_def *key = key_find(key_name);
    if (!key || key->type != KT_ENUM || index < 0)
        return "?";
    for (int i = 0; key->choices[i]; i++)
        if (i == index)
            return key->choices[i];
    return "?";
}

int run_config_key_block_size(const struct run_config *cfg)
{
    return atoi(kbs_choices[cfg->key_block_size]);
}

int run_config_flush_log_at_trx_commit(const struct run_config *cfg)
{
    return atoi(trx_choices[cfg->flush_log_at_trx_commit]);
}

const char *key_where(const struct key_def *key)
{
    if (key->flags & KF_ARM_ONLY)
        return "arm sections";
    if (key->flags & KF_GLOBAL_ONLY)
        return "[global]";
    return key->arms == KEY_HOST ? "[global], host arms"
           : key->arms == KEY_GUEST ? "[global], guest arms"
                                    : "[global], any arm";
}

void keys_print_help(FILE *out)
{
    fprintf(out, "Scenario keys (a key in [global] applies to every arm unless the arm sets it;\n"
                 "keys marked 'list' take comma-separated values that expand into variants):\n\n");
    for (size_t i = 0; i < key_count; i++) {
        const struct key_def *k = &key_table[i];
        char accepted[512];
        key_describe_accepted(k, accepted, sizeof(accepted));
        fprintf(out, "  %-24s %s\n", k->name, k->help);
        fprintf(out, "  %-24s values: %s%s\n", "", accepted, (k->flags & KF_LIST) ? "; list" : "");
        fprintf(out, "  %-24s default: %s; in: %s\n\n", "", k->def ? k->def : "(required)",
                key_where(k));
    }
}

void keys_print_markdown(FILE *out)
{
    fprintf(out, "| key | values | default | list | where | meaning |\n");
    fprintf(out, "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < key_count; i++) {
        const struct key_def *k = &key_table[i];
        char accepted[512];
        key_describe_accepted(k, accepted, sizeof(accepted));
        fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", k->name, accepted,
                k->def ? k->def : "required", (k->flags & KF_LIST) ? "yes" : "no", key_where(k),
                k->help);
    }
}

bool key_workload_is_io(int workload)
{
    return workload == WL_SEQ_WRITE || workload == WL_SEQ_READ || workload == WL_TAR_EXTRACT;
}
