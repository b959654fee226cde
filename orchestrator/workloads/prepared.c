/* prepared.c: sysbench's tables loaded once, copied into every other guest
 * (see prepared.h). */
#include "workloads/prepared.h"

#include "scenario/mycnf.h"
#include "targets/innodb.h"
#include "targets/sql.h"
#include "util/extents.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/paths.h"
#include "util/safefile.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* where the exporting guest puts the files while its tables are locked */
#define EXPORT_DIR "/var/tmp/vbed-export"
/* meta.json's field for prepared_server.uncompressed: the uncompressed
 * reference's pages in use (targets/innodb.h; a copy of an older vbed, which
 * recorded the reference's file allocation, has none and is measured anew) */
#define UNCOMPRESSED "sbtest1_reference_pages_bytes"

/* where a copy was loaded (meta.json's "loaded_in"), and from what loading
 * time it pays (prepare = auto) */
static const char *loaded_in(const struct target *t)
{
    return t->own_kernel ? "guest" : "host arm";
}

static double pays_from(const char *loaded)
{
    return strcmp(loaded, "host arm") == 0 ? PREPARED_PAYS_HOST_S : PREPARED_PAYS_S;
}

bool prepared_pays(const struct run_config *cfg, const char *loaded_in, double load_s)
{
    return cfg->prepare != PREPARE_AUTO || load_s >= pays_from(loaded_in);
}

void prepared_key(const struct run_config *cfg, const char *version, const char *page_size,
                  char key[65])
{
    char opts[256];
    struct hasher *h = hasher_new();
    hasher_addf(h, "vbed prepared tables 1\ntables %lld\ntable_size %lld\noptions %s\n", cfg->tables,
                cfg->table_size, mycnf_table_options(cfg, opts, sizeof(opts)));
    hasher_addf(h, "version %s\npage_size %s\n", version, page_size);
    hasher_final(h, key);
}

/* A guest's reply is hostile: the version goes into a hash and meta.json
 * only, the datadir into paths in the guest, so it must look like one. */
static bool plain_path(const char *p)
{
    if (p[0] != '/' || strstr(p, ".."))
        return false;
    for (; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("/_.-", *p))
            return false;
    return true;
}

static bool printable(const char *s)
{
    for (; *s; s++)
        if (!isprint((unsigned char)*s))
            return false;
    return true;
}

static int server_facts(struct target *t, struct prepared_server *f, char *why, size_t whylen)
{
    struct sql_result r = {0};
    if (sql_query(t->sql, "SELECT VERSION(), @@innodb_page_size, @@datadir", &r) < 0 || r.rows != 1 ||
        r.cols != 3) {
        sql_result_free(&r);
        snprintf(why, whylen, "cannot ask %s's server for its version and datadir", t->name);
        return -1;
    }
    const char *v = sql_cell(&r, 0, 0), *p = sql_cell(&r, 0, 1), *d = sql_cell(&r, 0, 2);
    size_t dl = strlen(d);
    bool ok = strlen(v) < sizeof(f->version) && printable(v) && strlen(p) > 0 &&
              strlen(p) < sizeof(f->page_size) && strspn(p, "0123456789") == strlen(p) && dl > 1 &&
              dl + 1 < sizeof(f->datadir) && plain_path(d);
    if (ok) {
        snprintf(f->version, sizeof(f->version), "%s", v);
        snprintf(f->page_size, sizeof(f->page_size), "%s", p);
        snprintf(f->datadir, sizeof(f->datadir), "%s%s", d, d[dl - 1] == '/' ? "" : "/");
        f->key[0] = '\0';
    } else {
        snprintf(why, whylen, "%s's server gave a version, page size or datadir vbed does not take",
                 t->name);
    }
    sql_result_free(&r);
    return ok ? 0 : -1;
}

/* A table file is at most this large (1 KiB a row is several times what
 * sysbench's rows take, compressed or not) */
static size_t file_max(const struct run_config *cfg)
{
    long long rows = cfg->table_size > 0 ? cfg->table_size : 0;
    return (size_t)rows * 1024 + (64u << 20);
}

/* Copies root made on this machine from a server root runs (host-prepare,
 * the host arm here: they export their own tables) go to the shared cache;
 * a guest's (its tables could be anything its root wanted) only to this
 * vbed's own directory beside it, for its later guests, removed at its end
 * (prepared_forget_private). */
static bool makes_shared(const struct target *t) { return target_can_export_tables(t); }

static void private_dir(const struct target *t, char *buf, size_t len)
{
    char name[64];
    snprintf(name, sizeof(name), PREPARED_PRIVATE_PREFIX "%ld", (long)getpid());
    path_join(buf, len, t->prepared_dir, name);
}

static void entry_dir(const struct target *t, const char *key, bool shared, char *buf, size_t len)
{
    char base[PATH_MAX];
    if (shared)
        snprintf(base, sizeof(base), "%s", t->prepared_dir);
    else
        private_dir(t, base, sizeof(base));
    path_join(buf, len, base, key);
}

/* SHA-256 of name in dirfd (a regular file, never through a link, at most
 * max bytes) into hex, its size into *bytes. 0, or -1 with errno set. */
static int file_digest(int dirfd, const char *name, size_t max, char hex[65], long long *bytes)
{
    int fd = safefile_open_read(dirfd, name);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0 || (size_t)st.st_size > max) {
        close(fd);
        errno = EFBIG;
        return -1;
    }
    struct hasher *h = hasher_new();
    static __thread char buf[1 << 16];
    ssize_t got;
    long long total = 0;
    while ((got = read(fd, buf, sizeof(buf))) > 0) {
        hasher_add(h, buf, (size_t)got);
        total += got;
    }
    int err = got < 0 ? errno : 0;
    close(fd);
    if (err) {
        hasher_free(h);
        errno = err;
        return -1;
    }
    hasher_final(h, hex);
    *bytes = total;
    return 0;
}

/* The copy in dir as its meta.json ("files") says root made it: every
 * table's .ibd and .cfg there with the bytes and SHA-256 recorded. 0, or
 * -1 with why. */
static int check_files(const char *dir, json_object *m, const struct run_config *cfg, char *why,
                       size_t whylen)
{
    json_object *files, *one, *v;
    int dirfd = safefile_open_dir(AT_FDCWD, dir);
    int rc = dirfd >= 0 && json_object_object_get_ex(m, "files", &files) &&
                     json_object_is_type(files, json_type_object)
                 ? 0
                 : -1;
    if (rc < 0)
        snprintf(why, whylen, "the copy in %s records no digest of its files", dir);
    for (long long i = 1; rc == 0 && i <= cfg->tables; i++)
        for (size_t e = 0; rc == 0 && e < 2; e++) {
            char name[64], hex[65];
            long long bytes = -1;
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, e ? "cfg" : "ibd");
            if (!json_object_object_get_ex(files, name, &one) ||
                !json_object_object_get_ex(one, "sha256", &v) || !json_object_is_type(v, json_type_string) ||
                file_digest(dirfd, name, file_max(cfg), hex, &bytes) < 0 ||
                strcmp(hex, json_object_get_string(v)) != 0) {
                snprintf(why, whylen, "%s of the copy in %s is not the file root kept", name, dir);
                rc = -1;
            }
        }
    if (dirfd >= 0)
        close(dirfd);
    return rc;
}

/* The copy's meta.json of key (root's file in root's cache), whole; NULL if
 * none. */
static json_object *read_meta(const struct target *t, const char *key, bool shared)
{
    char dir[PATH_MAX];
    entry_dir(t, key, shared, dir, sizeof(dir));
    int dirfd = safefile_open_dir(AT_FDCWD, dir);
    char *text = dirfd >= 0 ? safefile_read_small(dirfd, "meta.json", 1 << 20) : NULL;
    if (dirfd >= 0)
        close(dirfd);
    json_object *m = text ? json_tokener_parse(text) : NULL;
    free(text);
    if (m && !json_object_is_type(m, json_type_object)) {
        json_object_put(m);
        m = NULL;
    }
    return m;
}

int prepared_find(struct wl_job *j, struct prepared_server *ps, char *why, size_t whylen)
{
    struct target *t = j->t;
    if (j->cfg->prepare == PREPARE_LOAD) {
        snprintf(why, whylen, "prepare = load");
        return 1;
    }
    if (!t->prepared_dir[0] || !(target_can_copy_files(t) || target_can_import_tables(t))) {
        snprintf(why, whylen, "a %s loads its own tables", t->ops->kind);
        return 1;
    }
    if (server_facts(t, ps, why, whylen) < 0)
        return 1;
    prepared_key(j->cfg, ps->version, ps->page_size, ps->key);
    return prepared_lookup(t, j->cfg, ps, why, whylen);
}

int prepared_lookup(const struct target *t, const struct run_config *cfg, struct prepared_server *ps,
                    char *why, size_t whylen)
{
    /* the shared cache holds root's copies only: one a guest made (an older
     * vbed's), or whose files changed since, is not used; a guest may also
     * take what a guest of this same vbed left (its private directory) */
    json_object *m = read_meta(t, ps->key, true), *v;
    ps->shared = true;
    if (m && !(json_object_object_get_ex(m, "loaded_in", &v) && json_object_is_type(v, json_type_string) &&
               strcmp(json_object_get_string(v), "host arm") == 0)) {
        log_info("%s: the cached copy %.12s was made in a guest (an older vbed): not used", t->name,
                 ps->key);
        json_object_put(m);
        m = NULL;
    }
    char dir[PATH_MAX];
    entry_dir(t, ps->key, true, dir, sizeof(dir));
    if (m && check_files(dir, m, cfg, why, whylen) < 0) {
        log_warn("%s: the cached copy is not used: %s", t->name, why);
        json_object_put(m);
        m = NULL;
    }
    if (!m && t->own_kernel) {
        m = read_meta(t, ps->key, false);
        ps->shared = false;
        entry_dir(t, ps->key, false, dir, sizeof(dir));
        if (m && check_files(dir, m, cfg, why, whylen) < 0) {
            json_object_put(m);
            m = NULL;
        }
    }
    if (!m) {
        snprintf(why, whylen, "no copy of these tables yet (key %.12s)", ps->key);
        return 1;
    }
    double load_s = json_object_object_get_ex(m, "load_s", &v) ? json_object_get_double(v) : 0;
    snprintf(ps->from, sizeof(ps->from), "%s", ps->shared ? "host arm" : "guest");
    /* the uncompressed size a compression check takes from the copy: root's
     * measurement only, never a guest's */
    ps->uncompressed = 0;
    if (ps->shared && json_object_object_get_ex(m, UNCOMPRESSED, &v) &&
        json_object_is_type(v, json_type_int) && json_object_get_int64(v) > 0)
        ps->uncompressed = json_object_get_int64(v);
    json_object_put(m);
    if (!prepared_pays(cfg, ps->from, load_s)) {
        snprintf(why, whylen, "they loaded in %.1f s in the %s, a copy pays from %.0f s there "
                 "(prepare = auto)", load_s, ps->from, pays_from(ps->from));
        return 1;
    }
    return 0;
}

/* A whole file of the cache (root's) into *data. */
static int read_file(const char *path, size_t max, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f)
        return -1;
    if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
        fclose(f);
        return -1;
    }
    *len = (size_t)st.st_size;
    *data = xcalloc(1, *len + 1);
    size_t got = fread(*data, 1, *len, f);
    fclose(f);
    if (got != *len) {
        free(*data);
        *data = NULL;
        return -1;
    }
    return 0;
}

/* argv0 (and arg1, if not NULL) followed by dir/sbtest<i>.<ext> for every
 * table and ext, run on the target: its exit code, or -1. */
static int on_files(struct target *t, long long tables, const char *dir, const char *const exts[],
                    const char *argv0, const char *arg1)
{
    size_t n = 0, cap = (size_t)tables * 2 + 3;
    char **argv = xcalloc(cap, sizeof(char *));
    argv[n++] = xstrdup(argv0);
    if (arg1)
        argv[n++] = xstrdup(arg1);
    for (long long i = 1; i <= tables; i++)
        for (size_t e = 0; exts[e]; e++) {
            argv[n] = xcalloc(1, PATH_MAX);
            snprintf(argv[n++], PATH_MAX, "%ssbtest%lld.%s", dir, i, exts[e]);
        }
    char *out = NULL;
    int exitcode = -1;
    int rc = target_capture(t, (const char *const *)argv, 600, &out, &exitcode);
    free(out);
    for (size_t i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
    return rc < 0 ? -1 : exitcode;
}

static const char *const both[] = {"ibd", "cfg", NULL};

/* PAGE_COMPRESSED tables: sparse files (util/extents.h) */
static bool page_compressed(const struct run_config *cfg)
{
    return cfg->compression == COMP_PAGE_ZLIB || cfg->compression == COMP_PAGE_LZ4;
}
static const char *const cfg_only[] = {"cfg", NULL};

/* .tmp-<pid>-... (a copy being saved) and .tar-<pid>-... (an archive for a
 * tables disk) left by a vbed that died */
static void remove_stale(const char *prepared_dir)
{
    DIR *d = opendir(prepared_dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        long pid = 0;
        if ((sscanf(de->d_name, ".tmp-%ld-", &pid) != 1 && sscanf(de->d_name, ".tar-%ld-", &pid) != 1 &&
             sscanf(de->d_name, PREPARED_PRIVATE_PREFIX "%ld", &pid) != 1) ||
            pid <= 1 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[PATH_MAX];
        path_join(path, sizeof(path), prepared_dir, de->d_name);
        paths_remove_tree(path);
    }
    closedir(d);
}

/* name in the copy's directory dirfd (safefile_open_read: never through a
 * link, a regular file), whole, into the archive a, read through buf. 0, or
 * -1 reported (src names it). */
static int tar_add(struct archive *a, int dirfd, const char *name, const char *src, size_t max,
                   char *buf, size_t bufsize)
{
    int fd = safefile_open_read(dirfd, name);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || (size_t)st.st_size > max) {
        log_error("Cannot read '%s' for the tables disk: %s", src,
                  fd < 0 ? safefile_why(errno) : "larger than the tables can be");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_size(e, (la_int64_t)st.st_size);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0640);
    archive_entry_set_mtime(e, st.st_mtime, 0);
    /* a sparse file's data extents: pax records them, tar in the guest
     * leaves the rest holes (extents.h); archive_write_data then takes the
     * whole file and writes the extents alone */
    off_t at = 0, start, end;
    int more, extents = 0;
    bool sparse = false;
    while ((more = extents_next(fd, at, st.st_size, &start, &end)) == 0) {
        sparse |= start > at;
        archive_entry_sparse_add_entry(e, start, end - start);
        extents++;
        at = end;
    }
    sparse |= at < st.st_size;
    if (!sparse)
        archive_entry_sparse_clear(e);
    else if (extents == 0) /* all hole: an empty extent says so */
        archive_entry_sparse_add_entry(e, 0, 0);
    int rc = more < 0 || lseek(fd, 0, SEEK_SET) != 0 || archive_write_header(a, e) != ARCHIVE_OK ? -1 : 0;
    archive_entry_free(e);
    off_t left = st.st_size;
    while (rc == 0 && left > 0) {
        ssize_t got = read(fd, buf, bufsize);
        if (got <= 0 || archive_write_data(a, buf, (size_t)got) != (la_ssize_t)got)
            rc = -1;
        else
            left -= got;
    }
    close(fd);
    if (rc < 0)
        log_error("Cannot archive '%s' for the tables disk: %s", src, archive_error_string(a));
    return rc;
}

/* Every table's .ibd and .cfg from the copy in dir, as one tar archive in
 * the new file path. 0, or -1 reported (path removed). */
static int write_tar(const char *dir, const struct run_config *cfg, const char *path)
{
    int dirfd = safefile_open_dir(AT_FDCWD, dir);
    if (dirfd < 0) {
        log_error("Cannot open the copy '%s': %s", dir, safefile_why(errno));
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        log_error("Cannot create '%s': %s", path, strerror(errno));
        close(dirfd);
        return -1;
    }
    struct archive *a = archive_write_new();
    /* pax: no size limit per file (ustar stops at 8 GiB) */
    int rc = archive_write_set_format_pax_restricted(a) == ARCHIVE_OK &&
                     archive_write_open_fd(a, fd) == ARCHIVE_OK
                 ? 0
                 : -1;
    size_t bufsize = 1 << 20;
    char *buf = xcalloc(1, bufsize); /* not static: targets prepare at once, one thread each */
    for (long long i = 1; rc == 0 && i <= cfg->tables; i++)
        for (size_t e = 0; rc == 0 && both[e]; e++) {
            char name[64], src[PATH_MAX];
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, both[e]);
            path_join(src, sizeof(src), dir, name);
            rc = tar_add(a, dirfd, name, src, file_max(cfg), buf, bufsize);
        }
    free(buf);
    if (archive_write_close(a) != ARCHIVE_OK)
        rc = -1;
    archive_write_free(a);
    if (close(fd) < 0)
        rc = -1;
    close(dirfd);
    if (rc < 0)
        unlink(path);
    return rc;
}

/* The copy in dir into the target's directory db through an archive on a
 * disk of its own, where the target takes one (a guest: 17 MB in about a
 * second, against 10 s through its agent). 0, or -1: the agent then. */
static int put_as_disk(struct target *t, const struct run_config *cfg, const char *dir, const char *db)
{
    if (!target_can_put_tar(t))
        return -1;
    char tar[PATH_MAX], name[128];
    remove_stale(t->prepared_dir); /* a killed vbed's archive */
    snprintf(name, sizeof(name), ".tar-%ld-%s", (long)getpid(), t->name);
    path_join(tar, sizeof(tar), t->prepared_dir, name);
    if (write_tar(dir, cfg, tar) < 0)
        return -1;
    int rc = target_put_tar(t, tar, db);
    unlink(tar);
    if (rc < 0)
        log_warn("%s: the tables disk did not work; its tables' files go through its agent", t->name);
    return rc;
}

/* The copy in dir into the target's directory db, file by file through
 * its agent. 0, or -1 with why. */
static int put_by_agent(struct target *t, const struct run_config *cfg, const char *dir, const char *db,
                        char *why, size_t whylen)
{
    for (long long i = 1; i <= cfg->tables; i++)
        for (size_t e = 0; both[e]; e++) {
            char name[64], src[PATH_MAX], dest[PATH_MAX];
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, both[e]);
            path_join(src, sizeof(src), dir, name);
            snprintf(dest, sizeof(dest), "%s%s", db, name);
            char *data = NULL;
            size_t len = 0;
            if (read_file(src, file_max(cfg), &data, &len) < 0) {
                snprintf(why, whylen, "cannot read %s", src);
                return -1;
            }
            int rc = target_put_file(t, dest, data, len);
            free(data);
            if (rc < 0) {
                snprintf(why, whylen, "cannot write %s in %s", dest, t->name);
                return -1;
            }
        }
    return 0;
}

int prepared_import(struct wl_job *j, const struct prepared_server *ps, char *why, size_t whylen)
{
    struct target *t = j->t;
    const struct run_config *cfg = j->cfg;
    char db[640], dir[PATH_MAX];
    snprintf(db, sizeof(db), "%ssbtest/", ps->datadir);
    entry_dir(t, ps->key, ps->shared, dir, sizeof(dir));
    if (!ps->shared && !t->own_kernel) {
        snprintf(why, whylen, "a guest's copy is never imported by a host arm");
        return -1;
    }
    double t0 = monotime_s();
    if (target_can_import_tables(t)) {
        /* a host arm: its server's own user writes the files on this machine */
        if (target_import_tables(t, cfg->tables, dir) < 0) {
            snprintf(why, whylen, "%s's server did not import the copy", t->name);
            return -1;
        }
        log_info("%s: its tables' files were written by its server's user in %.1f s", t->name,
                 monotime_s() - t0);
        t->prepared_via = "local";
        return 0;
    }
    if (innodb_each_table(t->sql, cfg->tables, INNODB_DISCARD_TABLESPACE) < 0) {
        snprintf(why, whylen, "cannot discard the empty tables' tablespaces");
        return -1;
    }
    t0 = monotime_s();
    bool by_disk = put_as_disk(t, cfg, dir, db) == 0;
    if (!by_disk && put_by_agent(t, cfg, dir, db, why, whylen) < 0)
        return -1;
    log_info("%s: its tables' files came through %s in %.1f s", t->name,
             by_disk ? "a disk" : "its agent", monotime_s() - t0);
    t->prepared_via = by_disk ? "disk" : "agent";
    if (on_files(t, cfg->tables, db, both, "/bin/chown", "mysql:mysql") != 0) {
        snprintf(why, whylen, "cannot give the copied files to mysql in %s", t->name);
        return -1;
    }
    /* the tables disk's archive kept the files' holes (tar_add); through
     * the agent every byte was written: a page-compressed table's holes
     * again, wherever a block is zeros (fallocate takes one file at a time) */
    for (long long i = 1; !by_disk && page_compressed(cfg) && i <= cfg->tables; i++) {
        char file[700];
        snprintf(file, sizeof(file), "%ssbtest%lld.ibd", db, i);
        const char *argv[] = {"/usr/bin/fallocate", "--dig-holes", file, NULL};
        char *out = NULL;
        int exitcode = -1;
        int rc = target_capture(t, argv, 600, &out, &exitcode);
        free(out);
        if (rc < 0 || exitcode != 0) {
            snprintf(why, whylen, "cannot make the copied page-compressed file %s sparse in %s", file,
                     t->name);
            return -1;
        }
    }
    if (innodb_each_table(t->sql, cfg->tables, INNODB_IMPORT_TABLESPACE) < 0) {
        snprintf(why, whylen, "InnoDB did not import the copied tables");
        return -1;
    }
    on_files(t, cfg->tables, db, cfg_only, "/bin/rm", "-f");
    return 0;
}


/* The exported files from the guest into tmp (this machine); bytes in all. */
static int fetch_files(struct target *t, const struct run_config *cfg, const char *tmp,
                       double *bytes)
{
    for (long long i = 1; i <= cfg->tables; i++)
        for (size_t e = 0; both[e]; e++) {
            char name[64], src[PATH_MAX], dest[PATH_MAX];
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, both[e]);
            snprintf(src, sizeof(src), "%s/%s", EXPORT_DIR, name);
            path_join(dest, sizeof(dest), tmp, name);
            char *data = NULL;
            size_t len = 0;
            if (target_get_file(t, src, file_max(cfg), &data, &len) < 0)
                return -1;
            int rc = textfile_write(dest, data, len);
            free(data);
            if (rc < 0)
                return -1;
            *bytes += (double)len;
        }
    return 0;
}

static int write_meta(const char *tmp, const struct run_config *cfg, const struct prepared_server *f,
                      const char *from, const char *loaded, double bytes, double load_s)
{
    char opts[256], when[32], path[PATH_MAX];
    time_t now = time(NULL);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_object *o = json_object_new_object();
    json_object_object_add(o, "key", json_object_new_string(f->key));
    json_object_object_add(o, "tables", json_object_new_int64(cfg->tables));
    json_object_object_add(o, "table_size", json_object_new_int64(cfg->table_size));
    json_object_object_add(o, "table_options",
                           json_object_new_string(mycnf_table_options(cfg, opts, sizeof(opts))));
    json_object_object_add(o, "mariadb_version", json_object_new_string(f->version));
    json_object_object_add(o, "page_size", json_object_new_string(f->page_size));
    json_object_object_add(o, "bytes", json_object_new_double(bytes));
    json_object_object_add(o, "load_s", json_object_new_double(load_s));
    json_object_object_add(o, "made", json_object_new_string(when));
    json_object_object_add(o, "from", json_object_new_string(from));
    json_object_object_add(o, "loaded_in", json_object_new_string(loaded));
    if (f->uncompressed > 0)
        json_object_object_add(o, UNCOMPRESSED, json_object_new_int64(f->uncompressed));
    /* what root kept: each file's bytes and SHA-256, checked before use */
    json_object *files = json_object_new_object();
    int dirfd = safefile_open_dir(AT_FDCWD, tmp);
    int rc = dirfd >= 0 ? 0 : -1;
    for (long long i = 1; rc == 0 && i <= cfg->tables; i++)
        for (size_t e = 0; rc == 0 && both[e]; e++) {
            char name[64], hex[65];
            long long n = 0;
            snprintf(name, sizeof(name), "sbtest%lld.%s", i, both[e]);
            rc = file_digest(dirfd, name, file_max(cfg), hex, &n);
            json_object *one = json_object_new_object();
            json_object_object_add(one, "bytes", json_object_new_int64(n));
            json_object_object_add(one, "sha256", json_object_new_string(rc == 0 ? hex : ""));
            json_object_object_add(files, name, one);
        }
    if (dirfd >= 0)
        close(dirfd);
    json_object_object_add(o, "files", files);
    if (rc < 0) {
        json_object_put(o);
        return -1;
    }
    path_join(path, sizeof(path), tmp, "meta.json");
    rc = textfile_write_text(path, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
    json_object_put(o);
    return rc;
}

/* The guest's way (tmp exists): its server's client copies the files
 * while the tables are locked, in one session, and its agent brings them
 * here. 0, or -1. */
static int export_by_client(struct target *t, const struct run_config *cfg,
                            const struct prepared_server *ps, const char *tmp, double *bytes)
{
    const char *mk[] = {"/bin/sh", "-c", "rm -rf " EXPORT_DIR " && mkdir -m 0700 " EXPORT_DIR, NULL};
    char *out = NULL;
    int exitcode = -1;
    int rc = target_capture(t, mk, 60, &out, &exitcode);
    free(out);
    size_t clen = 64 + (size_t)cfg->tables * 2 * 600;
    char *flush = innodb_flush_for_export(cfg->tables), *copy = xcalloc(1, clen);
    snprintf(copy, clen, "system cp --sparse=always");
    for (long long i = 1; i <= cfg->tables; i++)
        snprintf(copy + strlen(copy), clen - strlen(copy), " %ssbtest/sbtest%lld.ibd %ssbtest/sbtest%lld.cfg",
                 ps->datadir, i, ps->datadir, i);
    snprintf(copy + strlen(copy), clen - strlen(copy), " %s/", EXPORT_DIR);
    const char *stmts[] = {flush, copy, "UNLOCK TABLES", NULL};
    struct sql_result r = {0};
    if (rc == 0 && exitcode == 0)
        rc = sql_run(t->sql, stmts, &r);
    else
        rc = -1;
    sql_result_free(&r);
    free(flush);
    free(copy);
    if (rc == 0)
        rc = fetch_files(t, cfg, tmp, bytes);
    const char *rm[] = {"/bin/rm", "-rf", EXPORT_DIR, NULL};
    if (target_capture(t, rm, 60, &out, &exitcode) == 0)
        free(out);
    return rc;
}

void prepared_save(struct wl_job *j, struct prepared_server *ps, double load_s)
{
    struct target *t = j->t;
    const struct run_config *cfg = j->cfg;
    bool by_server = target_can_export_tables(t);
    if (!t->prepared_dir[0] || !(by_server || target_can_copy_files(t)) || cfg->tables < 1 ||
        !prepared_pays(cfg, loaded_in(t), load_s))
        return;
    /* a guest's files come through its agent byte by byte: a page-compressed
     * table would lose its holes (extents.h), and its copies would not be
     * the table it loaded */
    if (!by_server && page_compressed(cfg)) {
        log_info("%s: no copy of its page-compressed tables kept: through its agent their holes would "
                 "be lost (a copy is made on this machine where its MariaDB is the image's)",
                 t->name);
        return;
    }
    char why[256], dir[PATH_MAX];
    if (!ps->key[0]) {
        if (server_facts(t, ps, why, sizeof(why)) < 0) {
            log_warn("%s: no copy of its tables kept: %s", t->name, why);
            return;
        }
        prepared_key(cfg, ps->version, ps->page_size, ps->key);
    }
    bool shared = makes_shared(t);
    entry_dir(t, ps->key, shared, dir, sizeof(dir));
    if (access(dir, F_OK) == 0) {
        /* root's valid copy stays; anything else there (a guest's of an
         * older vbed, files changed since) makes way for this one */
        json_object *m = read_meta(t, ps->key, shared), *v;
        bool valid = m && (!shared || (json_object_object_get_ex(m, "loaded_in", &v) &&
                                       json_object_is_type(v, json_type_string) &&
                                       !strcmp(json_object_get_string(v), "host arm"))) &&
                     check_files(dir, m, cfg, why, sizeof(why)) == 0;
        json_object_put(m);
        if (valid)
            return;
        paths_remove_tree(dir);
    }
    double t0 = monotime_s();
    char tmp[PATH_MAX], name[96], base[PATH_MAX];
    double bytes = 0;
    if (shared)
        snprintf(base, sizeof(base), "%s", t->prepared_dir);
    else
        private_dir(t, base, sizeof(base));
    snprintf(name, sizeof(name), ".tmp-%ld-%s", (long)getpid(), t->name);
    path_join(tmp, sizeof(tmp), base, name);
    paths_mkdirs(base, 0700);
    remove_stale(t->prepared_dir);
    if (!shared) /* a guest's figure goes with its copy to no one */
        ps->uncompressed = 0;
    paths_remove_tree(tmp);
    int rc = mkdir(tmp, 0700) == 0 ? 0 : -1;
    if (rc == 0)
        rc = by_server ? target_export_tables(t, cfg->tables, tmp, file_max(cfg), &bytes)
                       : export_by_client(t, cfg, ps, tmp, &bytes);
    if (rc == 0)
        rc = write_meta(tmp, cfg, ps, t->name, loaded_in(t), bytes, load_s);
    /* another target that loaded the same tables may have been first */
    if (rc == 0 && rename(tmp, dir) < 0 && errno != EEXIST && errno != ENOTEMPTY)
        rc = -1;
    paths_remove_tree(tmp);
    if (rc < 0)
        log_warn("%s: no copy of its tables kept for the guests (it could not be made)", t->name);
    else
        log_info("%s: a copy of its tables kept for %s: %.1f MB in %.1f s (key %.12s)", t->name,
                 shared ? "the guests" : "this run's later guests", bytes / 1e6, monotime_s() - t0,
                 ps->key);
}

void prepared_forget_private(const char *prepared_dir)
{
    if (!prepared_dir[0])
        return;
    char dir[PATH_MAX], name[64];
    snprintf(name, sizeof(name), PREPARED_PRIVATE_PREFIX "%ld", (long)getpid());
    path_join(dir, sizeof(dir), prepared_dir, name);
    paths_remove_tree(dir);
}

void prepared_note_uncompressed(struct wl_job *j, const struct prepared_server *ps, long long bytes)
{
    char dir[PATH_MAX], meta[PATH_MAX], tmp[PATH_MAX], name[64];
    /* a shared entry takes root's own measurement only: a host arm's here */
    if (!ps->key[0] || bytes <= 0 || ps->uncompressed > 0 || !ps->shared || !makes_shared(j->t))
        return;
    entry_dir(j->t, ps->key, true, dir, sizeof(dir));
    path_join(meta, sizeof(meta), dir, "meta.json");
    snprintf(name, sizeof(name), ".meta-%ld.json", (long)getpid());
    path_join(tmp, sizeof(tmp), dir, name);
    json_object *m = json_object_from_file(meta);
    if (!m || !json_object_is_type(m, json_type_object)) {
        json_object_put(m);
        return;
    }
    json_object_object_add(m, UNCOMPRESSED, json_object_new_int64(bytes));
    if (textfile_write_text(tmp, json_object_to_json_string_ext(m, JSON_C_TO_STRING_PRETTY)) < 0 ||
        rename(tmp, meta) < 0)
        unlink(tmp);
    json_object_put(m);
}
