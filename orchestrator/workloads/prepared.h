/* prepared.h: sysbench's tables loaded once, copied into every other guest.
 *
 * `sysbench prepare` of compressed tables is the longest phase before a
 * guest measures anything (about 2 minutes for 100,000 rows under TCG).
 * The tables it makes depend only on tables, table_size, the table options
 * (compression, key_block_size), the MariaDB version and its page size, and
 * the image (sysbench and its Lua scripts): the key of a copy. The first
 * guest to load them leaves a copy in the image cache, taken with InnoDB's
 * transportable tablespaces (FLUSH TABLES ... FOR EXPORT: each table's
 * .ibd and .cfg, consistent while the lock is held):
 *
 *   <image dir>/prepared/<key>/{sbtest<i>.ibd, sbtest<i>.cfg, meta.json}
 *
 * A later guest with the same key gets the tables from sysbench itself with
 * no rows (the same CREATE TABLE and index), discards their tablespaces,
 * receives the files and imports them (ALTER TABLE ...
 * IMPORT TABLESPACE rewrites every page's space id and LSN): the same pages,
 * in its own filesystem on its own disk, in its arm's format and cache mode
 * -- no backing file shared between guests. A copy keeps the files' holes
 * (a page-compressed table's; util/extents.h): the copy made on this
 * machine, the tables disk's pax archive (its sparse map, which tar in the
 * guest restores), the host arm's import. Through a guest's agent only
 * bytes pass: a page-compressed copy taken that way gets its zero blocks
 * dug out again (fallocate --dig-holes), and a guest keeps no copy of
 * page-compressed tables. IMPORT TABLESPACE itself leaves such a table on
 * fewer blocks than its loading did (it rewrites and punches every page:
 * sbtest1 of 2 x 20,000 page-zlib rows: 3.4 MiB loaded, 2.3 MiB imported).
 *
 * The files reach a guest as one tar archive on a read-only disk of its own
 * (target_put_tar: uploaded into its pool, plugged in, extracted there;
 * about 1 s for 17 MB under TCG), or, where that fails, file by file
 * through its agent (10 s for the same 17 MB). meta.json's prepare entry
 * says which ("via").
 *
 * A host arm on this machine imports a copy the same way, but its files
 * are written into mysql's datadir by a child that is the mysql user
 * (target_import_tables, hostarm.h: root writes nothing there; "via"
 * local): the host arm's tables are then the guests' pages too. A remote
 * host arm loads (its host has no copy). Before the first run, where this machine's MariaDB and sysbench are the
 * image's, a private mariadbd loads the tables the guests will copy and
 * leaves the copy (experiment/hostprepare.h; target_export_tables: its
 * server holds the tables while root copies the files out of mysql's
 * datadir under hostarm.h's rules); then no guest loads. The files are
 * opaque bytes to vbed: read from one target (bounded by the tables'
 * size), kept in root's cache, written into another guest. */
#ifndef VBED_WORKLOADS_PREPARED_H
#define VBED_WORKLOADS_PREPARED_H

#include "workloads/workload.h"

#include <stddef.h>

/* The copy's key for the settings and what the target's server said
 * (its VERSION() and @@innodb_page_size): 64 hex digits into key. */
void prepared_key(const struct run_config *cfg, const char *version, const char *page_size,
                  char key[65]);

/* prepare = auto copies only tables whose loading took at least this long:
 * under TCG here a copy costs 3-4 s plus the transfer (0.6 MB: loaded in
 * 1.3-2.3 s, copied in 3.9-4.6 s through the agent; 17 MB: loaded in about
 * 2 minutes, copied in 5-6 s through the tables disk, 15 s through the agent) */
#define PREPARED_PAYS_S 10.0
/* the same for a copy the host arm loaded: its loading took far less than
 * a guest's will (5 s against 67-120 s under TCG here; on KVM guests load
 * faster, and copy faster too) */
#define PREPARED_PAYS_HOST_S 1.0

/* What the target's server said about itself (asked once per prepare,
 * checked: a guest's reply is hostile) and the copy's key from it; key ""
 * until asked. */
struct prepared_server {
    char version[128];
    char page_size[16];
    char datadir[512]; /* with its trailing '/' */
    char key[65];
    /* where the copy was loaded: "guest", "host arm"; "" not known */
    char from[16];
    /* the copy is in the shared cache (root's, made on this machine by a
     * server root runs), not in this vbed's private directory (a guest's) */
    bool shared;
    /* the bytes sbtest1's rows took in an uncompressed table where the copy
     * was made (innodb.h's compression check; meta.json's
     * sbtest1_reference_pages_bytes): a copy's check needs no table copy of its
     * own. 0: not known (a copy without it, or none found) */
    long long uncompressed;
};

/* Is there a copy for j's target? 0: yes (ps says which); 1: no (why
 * says why not: prepare = load, a target that cannot take files, none made
 * yet for the key, with prepare = auto one whose loading took less than
 * PREPARED_PAYS_S, the server's version unknown). */
int prepared_find(struct wl_job *j, struct prepared_server *ps, char *why, size_t whylen);

/* prepared_find once the server's facts and the key are in ps: the copy
 * in the shared cache that root made (loaded_in "host arm", every file's
 * SHA-256 as recorded), else, for a guest, one in this vbed's private
 * directory; 0 found (ps->shared, ps->from, ps->uncompressed -- root's
 * measurement only -- set), 1 not (why). */
int prepared_lookup(const struct target *t, const struct run_config *cfg, struct prepared_server *ps,
                    char *why, size_t whylen);

/* The copy prepared_find found (ps) into j's target, whose sbtest tables exist and are empty
 * (sysbench prepare with table_size 0 made them): their tablespaces
 * discarded, the files put in their place and imported. 0, or -1 with why
 * (the tables may be left discarded: the caller drops sbtest and loads). */
int prepared_import(struct wl_job *j, const struct prepared_server *ps, char *why, size_t whylen);

/* Whether a copy of tables that loaded in load_s seconds in a target that
 * loaded_in names ("host arm", else a guest) is worth keeping and taking:
 * with prepare = auto, from PREPARED_PAYS_HOST_S or PREPARED_PAYS_S of
 * loading (an unknown time never pays); with prepare = copy, always. */
bool prepared_pays(const struct run_config *cfg, const char *loaded_in, double load_s);

/* After j's target loaded the tables in load_s seconds (ps: what
 * prepared_find asked, or key "" to ask now): leave a copy for
 * the next guest, unless one is there (or, with prepare = auto, loading
 * took less than PREPARED_PAYS_S). A copy that cannot be made is a
 * warning: the run goes on. */
void prepared_save(struct wl_job *j, struct prepared_server *ps, double load_s);

/* This vbed's private directory of guest-made copies (beside the shared
 * cache: <prepared_dir>/PREPARED_PRIVATE_PREFIX<pid>) removed, at the end of
 * a run; a dead vbed's goes when the next one saves a copy. */
#define PREPARED_PRIVATE_PREFIX ".guests-"
void prepared_forget_private(const char *prepared_dir);

/* The copy ps names, made before vbed recorded sbtest1_reference_pages_bytes,
 * gains it (`bytes`, measured in j's target after the copy): the next
 * guest's check makes no table copy. A meta.json that cannot be rewritten
 * is left as it was. */
void prepared_note_uncompressed(struct wl_job *j, const struct prepared_server *ps, long long bytes);

#endif
