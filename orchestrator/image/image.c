/* image.c: the cache of guest images (see image.h): where the image of a
 * recipe lives (its id from the recipe's files and the host's apt sources,
 * so a changed recipe or mirror is another image) and whether it is built;
 * listing and removing cached images; clearing away the builds of a vbed
 * that died. Building an image is build.c's. */
#include "image/image.h"
#include "image/cache.h"

#include "image/aptsources.h"
#include "util/log.h"
#include "util/paths.h"
#include "image/recipe.h"

#include <dirent.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void image_cache_dir(char *buf, size_t len)
{
    path_join(buf, len, paths_cache_dir(), "images");
}

static json_object *load_manifest(const char *dir)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, "manifest.json");
    return json_object_from_file(path);
}

void image_fill_paths(struct image_info *info)
{
    char dir[PATH_MAX];
    image_cache_dir(dir, sizeof(dir));
    path_join(info->dir, sizeof(info->dir), dir, info->id);
    path_join(info->root, sizeof(info->root), info->dir, "root.qcow2");
    path_join(info->kernel, sizeof(info->kernel), info->dir, "vmlinuz");
    path_join(info->initrd, sizeof(info->initrd), info->dir, "initrd.img");
    path_join(info->manifest, sizeof(info->manifest), info->dir, "manifest.json");
    info->built = access(info->manifest, R_OK) == 0;
    info->build[0] = '\0';
    json_object *m = info->built ? load_manifest(info->dir) : NULL, *b;
    if (m && (json_object_object_get_ex(m, "build_id", &b) || json_object_object_get_ex(m, "built_at", &b)) &&
        json_object_is_type(b, json_type_string))
        snprintf(info->build, sizeof(info->build), "%s", json_object_get_string(b));
    json_object_put(m);
}

int image_read_sources(const struct recipe *r, const char *mirror, struct apt_sources *src)
{
    apt_sources_read("", r->suite, src);
    if (mirror)
        apt_sources_override_mirror(src, r->suite, mirror);
    if (!apt_sources_mirror(src, r->suite)) {
        log_error("The host's apt sources (/etc/apt) name no mirror for suite '%s'; give one with "
                  "'vbed image build --mirror URL'.",
                  r->suite);
        return -1;
    }
    return 0;
}

int image_resolve(const char *name, const char *mirror, struct image_info *info)
{
    memset(info, 0, sizeof(*info));
    char dir[PATH_MAX];
    recipe_dir_for(name, dir, sizeof(dir));
    struct recipe *r = recipe_load(dir);
    if (!r)
        return -1;
    struct apt_sources src;
    int rc = -1;
    if (image_read_sources(r, mirror, &src) < 0 || recipe_hash(r, &src, info->hash) < 0)
        goto cleanup;
    recipe_image_id(r, info->hash, info->id, sizeof(info->id));
    snprintf(info->recipe, sizeof(info->recipe), "%s", r->name);
    snprintf(info->cmdline, sizeof(info->cmdline), "%s", r->cmdline);
    image_fill_paths(info);
    rc = 0;
cleanup:
    recipe_free(r);
    return rc;
}

/* ---- unfinished builds ---- */

/* Builds left by a vbed that died: .build-<id>-<pid> whose pid is gone. */
void image_remove_stale_builds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, ".build-", 7) != 0)
            continue;
        const char *dash = strrchr(de->d_name, '-');
        long pid = dash ? strtol(dash + 1, NULL, 10) : 0;
        if (pid > 0 && kill((pid_t)pid, 0) == 0)
            continue;
        char path[PATH_MAX];
        path_join(path, sizeof(path), dir, de->d_name);
        log_info("image: removing an unfinished build %s", path);
        paths_remove_tree(path);
    }
    closedir(d);
}

/* ---- listing and removing ---- */

static const char *jstr(json_object *o, const char *k1, const char *k2)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, k1, &v))
        return "?";
    if (k2 && !json_object_object_get_ex(v, k2, &v))
        return "?";
    const char *s = json_object_get_string(v); /* NULL for a JSON null */
    return s ? s : "?";
}

/* The saved ready guests of image dir sub (virt/readystate.h keeps them in
 * <image>/ready/<key>/): a line each, under the image's. */
static void list_ready(const char *sub)
{
    char ready[PATH_MAX];
    path_join(ready, sizeof(ready), sub, "ready");
    DIR *d = opendir(ready);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
            continue; /* the lock; a state being made */
        char dir[PATH_MAX], meta[PATH_MAX], state[PATH_MAX];
        path_join(dir, sizeof(dir), ready, de->d_name);
        path_join(meta, sizeof(meta), dir, "meta.json");
        path_join(state, sizeof(state), dir, "state.save");
        json_object *m = json_object_from_file(meta), *v;
        struct stat st;
        if (!m || stat(state, &st) < 0) {
            json_object_put(m);
            continue;
        }
        long long mem = json_object_object_get_ex(m, "memory_bytes", &v) ? json_object_get_int64(v) : 0;
        printf("  + saved ready guest %s: %s vCPU, %lld MiB, %s, %.0f MB\n", de->d_name,
               jstr(m, "vcpus", NULL), mem >> 20, jstr(m, "virt_type", NULL), (double)st.st_size / 1e6);
        json_object_put(m);
    }
    if (d)
        closedir(d);
}

/* The tables kept for copying (workloads/prepared.h keeps them in
 * <image>/prepared/<key>/): a line each, under the image's. */
static void list_prepared(const char *sub)
{
    char prepared[PATH_MAX];
    path_join(prepared, sizeof(prepared), sub, "prepared");
    DIR *d = opendir(prepared);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue; /* a copy being made */
        char meta[PATH_MAX], dir[PATH_MAX];
        path_join(dir, sizeof(dir), prepared, de->d_name);
        path_join(meta, sizeof(meta), dir, "meta.json");
        json_object *m = json_object_from_file(meta), *v;
        if (!m)
            continue;
        long long tables = json_object_object_get_ex(m, "tables", &v) ? json_object_get_int64(v) : 0;
        long long rows = json_object_object_get_ex(m, "table_size", &v) ? json_object_get_int64(v) : 0;
        double bytes = json_object_object_get_ex(m, "bytes", &v) ? json_object_get_double(v) : 0;
        const char *options = jstr(m, "table_options", NULL);
        /* loaded by a private mariadbd here (experiment/hostprepare.h), not in a guest */
        bool here = strcmp(jstr(m, "loaded_in", NULL), "host arm") == 0;
        printf("  + prepared tables %.12s: %lld x %lld rows, %s, %.0f MB%s\n", de->d_name, tables, rows,
               *options ? options : "no table options", bytes / 1e6, here ? ", loaded on this machine" : "");
        json_object_put(m);
    }
    if (d)
        closedir(d);
}

int image_list(void)
{
    char dir[PATH_MAX];
    image_cache_dir(dir, sizeof(dir));
    DIR *d = opendir(dir);
    if (!d) {
        printf("no images in %s\n", dir);
        return 0;
    }
    printf("%-32s %-20s %9s  %s\n", "ID", "BUILT", "SIZE", "MARIADB / SYSBENCH");
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        path_join(sub, sizeof(sub), dir, de->d_name);
        json_object *m = load_manifest(sub);
        if (!m)
            continue;
        json_object *sz = NULL, *q = NULL;
        double mb = 0;
        if (json_object_object_get_ex(m, "sizes", &sz) &&
            json_object_object_get_ex(sz, "root_qcow2_bytes", &q))
            mb = (double)json_object_get_int64(q) / 1e6;
        printf("%-32s %-20s %6.0f MB  %s / %s\n", de->d_name, jstr(m, "built_at", NULL), mb,
               jstr(m, "packages", "mariadb-server"), jstr(m, "packages", "sysbench"));
        json_object_put(m);
        list_ready(sub);
        list_prepared(sub);
        n++;
    }
    closedir(d);
    if (!n)
        printf("(none; build one with 'vbed image build')\n");
    return 0;
}

/* every entry of dir/sub (a saved state or a kept copy, finished or being
 * made), removed or listed */
static int remove_entries(const char *dir, const char *sub, const char *what, bool dry_run,
                          int *failed)
{
    char parent[PATH_MAX];
    path_join(parent, sizeof(parent), dir, sub);
    DIR *d = opendir(parent);
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[PATH_MAX];
        path_join(path, sizeof(path), parent, de->d_name);
        if (!dry_run)
            paths_remove_tree(path);
        if (!dry_run && access(path, F_OK) == 0) {
            log_error("Cannot remove %s '%s'.", what, path);
            (*failed)++;
            continue;
        }
        printf("%s %s %s\n", dry_run ? "would remove" : "removed", what, path);
        n++;
    }
    if (d)
        closedir(d);
    return n;
}

int image_remove_derived(bool dry_run, int *failed)
{
    char dir[PATH_MAX];
    image_cache_dir(dir, sizeof(dir));
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        path_join(sub, sizeof(sub), dir, de->d_name);
        n += remove_entries(sub, "ready", "saved ready guest", dry_run, failed);
        n += remove_entries(sub, "prepared", "prepared tables", dry_run, failed);
    }
    if (d)
        closedir(d);
    return n;
}

int image_remove(const char *id)
{
    char dir[PATH_MAX];
    image_cache_dir(dir, sizeof(dir));
    DIR *d = opendir(dir);
    char match[256] = "";
    int matches = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] != '.' && strncmp(de->d_name, id, strlen(id)) == 0) {
            snprintf(match, sizeof(match), "%s", de->d_name);
            matches++;
        }
    }
    if (d)
        closedir(d);
    if (matches != 1) {
        log_error(matches ? "'%s' matches %d images; give more of the id." :
                            "No cached image matches '%s' (see 'vbed image list').%.0d",
                  id, matches);
        return -1;
    }
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, match);
    paths_remove_tree(path);
    if (access(path, F_OK) == 0) {
        log_error("Cannot remove '%s'.", path);
        return -1;
    }
    log_info("removed image %s", match);
    return 0;
}
