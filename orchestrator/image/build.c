/* build.c: image_build(): a guest image from a recipe, into the cache
 * (image.c).
 *
 * Steps (each a child program with an argv, logged to build.log):
 * debootstrap the suite into a tree; lay the recipe's files/ into it; point
 * its apt at every suite the host uses; apt-get install the packages inside
 * the tree (a private mount namespace holds /proc, /sys and /dev, so nothing
 * stays mounted); enable and mask services; run the recipe's [build] run
 * commands in the tree; read the installed versions;
 * take the kernel and initrd out; mkfs.ext4 -d the tree into a raw image and
 * convert it to qcow2; write manifest.json; rename into place. */
#include "image/image.h"
#include "image/archive.h"
#include "image/cache.h"
#include "util/monotime.h"
#include "util/version.h"
#include "util/xalloc.h"

#include "image/aptsources.h"
#include "util/log.h"
#include "util/paths.h"
#include "image/recipe.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "util/textfile.h"
#include "util/units.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <glob.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct build {
    const struct recipe *r;
    const struct apt_sources *src;
    char tmp[PATH_MAX];  /* .build-<id>-<pid> */
    char tree[PATH_MAX];
    char log[PATH_MAX];
    long timeout;
};

static int step(struct build *b, const char *what, const char *const argv[], bool in_tree,
                char **capture)
{
    static const char *const env[] = {"DEBIAN_FRONTEND=noninteractive", "LC_ALL=C.UTF-8",
                                      "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
    log_info("image: %s", what);
    FILE *lf = fopen(b->log, "a");
    if (lf) {
        char desc[1024];
        spawn_describe(argv, desc, sizeof(desc));
        fprintf(lf, "\n==> %s\n$ %s%s\n", what, in_tree ? "(in the tree) " : "", desc);
        fclose(lf);
    }
    struct spawn_opts o = {.chroot = in_tree ? b->tree : NULL,
                           .env = env,
                           .log_path = b->log,
                           .capture = capture,
                           .timeout = b->timeout,
                           .private_mounts = 1};
    int rc = spawn_run(argv, &o);
    if (rc == 0)
        return 0;
    if (rc > 0)
        log_error("Image build step '%s' failed with exit code %d; see %s", what, rc, b->log);
    else if (rc == SPAWN_INTERRUPTED)
        log_error("Image build interrupted during '%s'.", what);
    return -1;
}

static int write_text(const char *path, const char *text, mode_t mode)
{
    if (textfile_write_text(path, text) < 0)
        return -1;
    chmod(path, mode);
    return 0;
}

static int tree_file(struct build *b, const char *rel, char *buf, size_t len)
{
    return path_join(buf, len, b->tree, rel);
}

static int do_debootstrap(struct build *b)
{
    const char *mirror = apt_sources_mirror(b->src, b->r->suite);
    char variant[64], arch[64], comps[160];
    snprintf(variant, sizeof(variant), "--variant=%s", b->r->variant);
    snprintf(arch, sizeof(arch), "--arch=%s", b->r->arch);
    const char *c = "main";
    for (size_t i = 0; i < b->src->n; i++)
        if (strcmp(b->src->e[i].suite, b->r->suite) == 0)
            c = b->src->e[i].components;
    snprintf(comps, sizeof(comps), "--components=%s", c);
    for (char *p = comps; *p; p++)
        if (*p == ' ')
            *p = ',';
    const char *argv[] = {"debootstrap", variant, arch, comps, b->r->suite, b->tree, mirror, NULL};
    char what[600];
    snprintf(what, sizeof(what), "debootstrap %s from %s", b->r->suite, mirror);
    return step(b, what, argv, false, NULL);
}

static int prepare_apt(struct build *b)
{
    char path[PATH_MAX], text[8192];
    apt_sources_format(b->src, text, sizeof(text));
    tree_file(b, "etc/apt/sources.list", path, sizeof(path));
    if (write_text(path, text, 0644) < 0)
        return -1;
    /* nothing may start a service inside the tree */
    tree_file(b, "usr/sbin/policy-rc.d", path, sizeof(path));
    return write_text(path, "#!/bin/sh\nexit 101\n", 0755);
}

static int lay_files(struct build *b)
{
    char files[PATH_MAX], src[PATH_MAX + 2];
    path_join(files, sizeof(files), b->r->dir, "files");
    if (access(files, F_OK) != 0)
        return 0;
    snprintf(src, sizeof(src), "%s/.", files);
    /* no --preserve of ownership: root owns what we lay in; modes follow the
     * checkout under umask 022 (0644, or 0755 for executables) */
    const char *argv[] = {"cp", "-R", "--preserve=timestamps", src, b->tree, NULL};
    mode_t old = umask(022);
    int rc = step(b, "lay the recipe's files into the tree", argv, false, NULL);
    umask(old);
    return rc;
}

static int install_packages(struct build *b)
{
    const char *update[] = {"apt-get", "-q", "update", NULL};
    if (step(b, "apt-get update (every suite the host uses)", update, true, NULL) < 0)
        return -1;
    size_t n = b->r->packages.n;
    const char **argv = xcalloc(n + 10, sizeof(char *));
    size_t i = 0;
    argv[i++] = "apt-get";
    argv[i++] = "-q";
    argv[i++] = "-y";
    argv[i++] = "--no-install-recommends";
    argv[i++] = "-o";
    argv[i++] = "Dpkg::Options::=--force-confold"; /* the recipe's files win */
    argv[i++] = "install";
    for (size_t k = 0; k < n; k++)
        argv[i++] = b->r->packages.v[k];
    argv[i] = NULL;
    char what[64];
    snprintf(what, sizeof(what), "apt-get install %zu packages", n);
    int rc = step(b, what, argv, true, NULL);
    free(argv);
    return rc;
}

static int configure_services(struct build *b)
{
    for (size_t i = 0; i < b->r->enable.n; i++) {
        const char *argv[] = {"systemctl", "enable", b->r->enable.v[i], NULL};
        char what[160];
        snprintf(what, sizeof(what), "enable %s", b->r->enable.v[i]);
        if (step(b, what, argv, true, NULL) < 0)
            return -1;
    }
    if (b->r->mask.n) {
        const char **argv = xcalloc(b->r->mask.n + 3, sizeof(char *));
        argv[0] = "systemctl";
        argv[1] = "mask";
        for (size_t i = 0; i < b->r->mask.n; i++)
            argv[i + 2] = b->r->mask.v[i];
        int rc = step(b, "mask timers, jobs and logins", argv, true, NULL);
        free(argv);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* the recipe's [build] run commands, in order, inside the tree: what the
 * image should hold made once at build (debian-mariadb: the seed datadir
 * every guest copies), not at every boot */
static int run_commands(struct build *b)
{
    for (size_t i = 0; i < b->r->run.n; i++) {
        char *words = xstrdup(b->r->run.v[i]);
        const char *argv[32];
        size_t n = 0;
        char *save = NULL;
        char *w = strtok_r(words, " ", &save);
        for (; w && n < 31; w = strtok_r(NULL, " ", &save))
            argv[n++] = w;
        argv[n] = NULL;
        if (w) {
            log_error("The recipe's [build] run '%s' has more than 31 words.", b->r->run.v[i]);
            free(words);
            return -1;
        }
        char what[160];
        snprintf(what, sizeof(what), "run %s", b->r->run.v[i]);
        int rc = step(b, what, argv, true, NULL); /* recipe.c: n >= 1, argv[0] absolute */
        free(words);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int finish_tree(struct build *b)
{
    char path[PATH_MAX];
    tree_file(b, "usr/sbin/policy-rc.d", path, sizeof(path));
    unlink(path);
    const char *clean[] = {"apt-get", "clean", NULL};
    if (step(b, "apt-get clean", clean, true, NULL) < 0)
        return -1;
    /* a fresh machine id on every boot: the root is a new overlay each run */
    tree_file(b, "etc/machine-id", path, sizeof(path));
    return write_text(path, "", 0444);
}

/* tar_extract's fixed archive (workloads/archive.h), made in the tree. */
static int lay_archive(struct build *b, long long *bytes)
{
    char path[PATH_MAX];
    tree_file(b, &ARCHIVE_GUEST_PATH[1] /* without its leading slash */, path, sizeof(path));
    log_info("image: write the tar_extract archive (%d files)", ARCHIVE_FILES);
    if (archive_write_fixed(path, bytes) < 0)
        return -1;
    log_info("image: %s is %lld bytes (%lld of file contents)", ARCHIVE_GUEST_PATH, *bytes,
             archive_content_bytes());
    return 0;
}

/* The one file matching tree/pattern, copied to dest. */
static int take_out(struct build *b, const char *pattern, const char *dest, long long *size)
{
    char pat[PATH_MAX];
    tree_file(b, pattern, pat, sizeof(pat));
    glob_t g;
    if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc != 1) {
        log_error("Expected one file matching '%s' in the image tree, found %zu.", pat,
                  g.gl_pathc);
        globfree(&g);
        return -1;
    }
    const char *argv[] = {"cp", g.gl_pathv[0], dest, NULL};
    char what[PATH_MAX + 32];
    snprintf(what, sizeof(what), "take out %s", g.gl_pathv[0] + strlen(b->tree));
    int rc = step(b, what, argv, false, NULL);
    globfree(&g);
    struct stat st;
    if (rc == 0 && stat(dest, &st) == 0)
        *size = (long long)st.st_size;
    return rc;
}

static long long tree_bytes(const char *tree)
{
    char *roots[] = {(char *)tree, NULL};
    FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV, NULL);
    long long total = 0;
    FTSENT *e;
    while (fts && (e = fts_read(fts)))
        if (e->fts_info == FTS_F)
            total += (long long)e->fts_statp->st_blocks * 512;
    if (fts)
        fts_close(fts);
    return total;
}

static long long allocated_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_blocks * 512 : 0;
}

static int make_root_image(struct build *b)
{
    char raw[PATH_MAX], size[32], qcow2[PATH_MAX];
    path_join(raw, sizeof(raw), b->tmp, "root.raw");
    path_join(qcow2, sizeof(qcow2), b->tmp, "root.qcow2");
    format_size(b->r->root_size, size, sizeof(size));
    /* no lazy initialisation: the guest kernel would zero the inode tables in
     * the background on first mount, writing ~50 MB into every overlay and
     * disturbing the measurement; zeroed here, qemu-img convert skips them */
    const char *mkfs[] = {"mkfs.ext4", "-q", "-F", "-L", "vbed-root",
                          "-E", "lazy_itable_init=0,lazy_journal_init=0", "-d", b->tree, raw, size,
                          NULL};
    if (step(b, "make the root filesystem (mkfs.ext4 -d)", mkfs, false, NULL) < 0)
        return -1;
    const char *conv[] = {"qemu-img", "convert", "-O", "qcow2", raw, qcow2, NULL};
    if (step(b, "convert it to qcow2", conv, false, NULL) < 0)
        return -1;
    unlink(raw);
    return 0;
}

static json_object *installed_versions(struct build *b, json_object **all_out)
{
    char *out = NULL;
    const char *argv[] = {"dpkg-query", "-W", "-f=${Package}\\t${Version}\\n", NULL};
    if (step(b, "list the installed packages", argv, true, &out) < 0) {
        free(out);
        return NULL;
    }
    json_object *all = json_object_new_object();
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        json_object_object_add(all, line, json_object_new_string(tab + 1));
    }
    free(out);
    json_object *key = json_object_new_object();
    for (size_t i = 0; i < b->r->verify_packages.n; i++) {
        json_object *v = NULL;
        const char *name = b->r->verify_packages.v[i];
        if (!json_object_object_get_ex(all, name, &v)) {
            log_error("Package '%s' (the recipe's [verify] list) is not installed in the image.", name);
            json_object_put(all);
            json_object_put(key);
            return NULL;
        }
        json_object_object_add(key, name, json_object_get(v));
    }
    *all_out = all;
    return key;
}

static int write_manifest(struct build *b, const struct image_info *info, json_object *key_pkgs,
                          json_object *all_pkgs, long long sizes[5], double seconds)
{
    json_object *m = json_object_new_object();
    char when[64];
    time_t t = time(NULL);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    json_object_object_add(m, "id", json_object_new_string(info->id));
    json_object_object_add(m, "recipe", json_object_new_string(b->r->name));
    json_object_object_add(m, "hash", json_object_new_string(info->hash));
    json_object_object_add(m, "description", json_object_new_string(b->r->description));
    json_object_object_add(m, "suite", json_object_new_string(b->r->suite));
    json_object_object_add(m, "arch", json_object_new_string(b->r->arch));
    json_object_object_add(m, "cmdline", json_object_new_string(b->r->cmdline));
    json_object *apt = json_object_new_array();
    for (size_t i = 0; i < b->src->n; i++) {
        char line[800];
        snprintf(line, sizeof(line), "deb %s %s %s", b->src->e[i].uri, b->src->e[i].suite,
                 b->src->e[i].components);
        json_object_array_add(apt, json_object_new_string(line));
    }
    json_object_object_add(m, "apt_sources", apt);
    json_object_object_add(m, "built_at", json_object_new_string(when));
    /* this build's own name (image.h: the id names only its recipe) */
    unsigned char rnd[16];
    char build_id[33];
    if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
        log_error("Cannot draw the image's build id: %s", strerror(errno));
        json_object_put(m);
        json_object_put(key_pkgs);
        json_object_put(all_pkgs);
        return -1;
    }
    for (size_t i = 0; i < sizeof(rnd); i++)
        snprintf(build_id + 2 * i, 3, "%02x", rnd[i]);
    json_object_object_add(m, "build_id", json_object_new_string(build_id));
    json_object_object_add(m, "build_seconds", json_object_new_double(seconds));
    json_object_object_add(m, "builder_version", json_object_new_int(RECIPE_BUILDER_VERSION));
    json_object_object_add(m, "vbed_version", json_object_new_string(vbed_version()));
    json_object *sz = json_object_new_object();
    json_object_object_add(sz, "tree_bytes", json_object_new_int64(sizes[0]));
    json_object_object_add(sz, "root_qcow2_bytes", json_object_new_int64(sizes[1]));
    json_object_object_add(sz, "root_virtual_bytes", json_object_new_int64(b->r->root_size));
    json_object_object_add(sz, "kernel_bytes", json_object_new_int64(sizes[2]));
    json_object_object_add(sz, "initrd_bytes", json_object_new_int64(sizes[3]));
    json_object_object_add(sz, "extract_tar_bytes", json_object_new_int64(sizes[4]));
    json_object_object_add(m, "sizes", sz);
    json_object_object_add(m, "packages", key_pkgs);
    json_object_object_add(m, "all_packages", all_pkgs);
    char path[PATH_MAX];
    path_join(path, sizeof(path), b->tmp, "manifest.json");
    int rc = json_object_to_file_ext(path, m, JSON_C_TO_STRING_PRETTY) < 0 ? -1 : 0;
    if (rc < 0)
        log_error("Cannot write '%s': %s", path, json_util_get_last_err());
    json_object_put(m);
    return rc;
}

static int run_build(struct build *b, struct image_info *info)
{
    double t0 = monotime_s();
    long long sizes[5] = {0};
    json_object *all = NULL, *key = NULL;
    char kernel[PATH_MAX], initrd[PATH_MAX];
    path_join(kernel, sizeof(kernel), b->tmp, "vmlinuz");
    path_join(initrd, sizeof(initrd), b->tmp, "initrd.img");

    if (do_debootstrap(b) < 0 || prepare_apt(b) < 0 || lay_files(b) < 0 ||
        install_packages(b) < 0 || configure_services(b) < 0 || run_commands(b) < 0 ||
        finish_tree(b) < 0 ||
        lay_archive(b, &sizes[4]) < 0)
        return -1;
    if (!(key = installed_versions(b, &all)))
        return -1;
    if (take_out(b, "boot/vmlinuz-*", kernel, &sizes[2]) < 0 ||
        take_out(b, "boot/initrd.img-*", initrd, &sizes[3]) < 0)
        goto fail;
    sizes[0] = tree_bytes(b->tree);
    if (make_root_image(b) < 0)
        goto fail;
    char qcow2[PATH_MAX];
    path_join(qcow2, sizeof(qcow2), b->tmp, "root.qcow2");
    sizes[1] = allocated_bytes(qcow2);
    log_info("image: removing the tree");
    paths_remove_tree(b->tree);
    if (write_manifest(b, info, key, all, sizes, monotime_s() - t0) < 0)
        return -1; /* the manifest owns key and all now */
    if (rename(b->tmp, info->dir) < 0) {
        log_error("Cannot move the built image to '%s': %s", info->dir, strerror(errno));
        return -1;
    }
    char k[32], i[32];
    snprintf(k, sizeof(k), "%.1f MB", (double)sizes[2] / 1e6);
    snprintf(i, sizeof(i), "%.1f MB", (double)sizes[3] / 1e6);
    log_info("image: built %s in %.0f s: root.qcow2 %.0f MB on disk (tree %.0f MB), kernel %s, "
             "initrd %s",
             info->id, monotime_s() - t0, (double)sizes[1] / 1e6, (double)sizes[0] / 1e6, k, i);
    return 0;
fail:
    json_object_put(key);
    json_object_put(all);
    return -1;
}

int image_build(const char *name, const char *mirror, bool force, struct image_info *info)
{
    if (image_resolve(name, mirror, info) < 0)
        return -1;
    if (info->built && !force) {
        log_info("image %s is up to date (%s); nothing to do", info->id, info->dir);
        return 0;
    }
    if (geteuid() != 0) {
        log_error("Building an image needs root (debootstrap and chroot); run 'sudo vbed image "
                  "build'.");
        return -1;
    }
    char dir[PATH_MAX];
    image_cache_dir(dir, sizeof(dir));
    if (paths_mkdirs(dir, 0755) < 0)
        return -1;

    /* one build of an id at a time; a second vbed waits, then finds it built */
    char lockpath[PATH_MAX], leaf[128];
    snprintf(leaf, sizeof(leaf), ".lock-%s", info->id);
    path_join(lockpath, sizeof(lockpath), dir, leaf);
    int lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) < 0) {
        log_info("image: another vbed is building %s; waiting for it", info->id);
        while (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) < 0)
            if (signals_sleep_ms(1000)) {
                close(lock);
                return -1;
            }
    }
    image_remove_stale_builds(dir);
    image_fill_paths(info);
    if (info->built && !force) {
        log_info("image %s was built meanwhile; nothing to do", info->id);
        close(lock);
        return 0;
    }
    if (force && info->built)
        paths_remove_tree(info->dir);

    struct recipe *r = NULL;
    struct apt_sources src;
    struct build b = {.timeout = 3600};
    char rdir[PATH_MAX];
    recipe_dir_for(name, rdir, sizeof(rdir));
    r = recipe_load(rdir);
    int rc = -1;
    if (!r || image_read_sources(r, mirror, &src) < 0)
        goto cleanup;
    b.r = r;
    b.src = &src;
    snprintf(leaf, sizeof(leaf), ".build-%s-%d", info->id, (int)getpid());
    path_join(b.tmp, sizeof(b.tmp), dir, leaf);
    path_join(b.tree, sizeof(b.tree), b.tmp, "tree");
    path_join(b.log, sizeof(b.log), b.tmp, "build.log");
    if (paths_mkdirs(b.tree, 0755) < 0)
        goto cleanup;
    log_info("image: building %s from recipe %s (log: %s)", info->id, rdir, b.log);
    rc = run_build(&b, info);
    if (rc < 0) {
        char keep[PATH_MAX];
        snprintf(leaf, sizeof(leaf), "build-%s-failed.log", info->id);
        path_join(keep, sizeof(keep), dir, leaf);
        if (rename(b.log, keep) == 0)
            log_error("The image was not built; its log is kept at %s", keep);
        paths_remove_tree(b.tmp);
    }
    image_fill_paths(info);
cleanup:
    recipe_free(r);
    close(lock);
    unlink(lockpath);
    return rc;
}
