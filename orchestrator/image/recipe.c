/* recipe.c: load a guest image recipe and compute its cache key. */
#include "image/recipe.h"
#include "util/xalloc.h"

#include "util/hash.h"
#include "util/inifile.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/textfile.h"
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <fts.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void recipe_dir_for(const char *name, char *buf, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(buf, len, "%s", name);
        return;
    }
    char images[PATH_MAX];
    path_join(images, sizeof(images), paths_data_dir(), "guest-images");
    path_join(buf, len, images, name);
}

static void strlist_add_items(struct strlist *l, const char *value)
{
    char *copy = xstrdup(value);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*item))
            item++;
        char *e = item + strlen(item);
        while (e > item && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (!*item)
            continue;
        char **grown = xrealloc(l->v, (l->n + 1) * sizeof(char *));
        l->v = grown;
        l->v[l->n++] = xstrdup(item);
    }
    free(copy);
}

static void strlist_free(struct strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

struct load_state {
    struct recipe *r;
    const char *path;
    int errors;
};

static void bad(struct load_state *st, int line, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof(msg), fmt, a, b);
    log_plain("%s:%d: %s", st->path, line, msg);
    st->errors++;
}

static bool safe_word(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._-+@:", *s))
            return false;
    return true;
}

/* a [build] run item: an absolute program in the tree and words, split on
 * blanks (no shell), each a safe word or a path of them */
static bool run_command_ok(const char *s)
{
    if (s[0] != '/')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._-+@:/= ", *s))
            return false;
    return true;
}

static void set_text(struct load_state *st, char *dst, size_t len, const char *name,
                     const char *value, int line, bool word)
{
    if (strlen(value) >= len || (word && !safe_word(value))) {
        bad(st, line, "%s: '%s' is not accepted", name, value);
        return;
    }
    snprintf(dst, len, "%s", value);
}

static void on_value(void *opaque, const char *section, const char *name, const char *value,
                     int line)
{
    struct load_state *st = opaque;
    struct recipe *r = st->r;
    struct strlist *list = NULL;

    if (!strcmp(section, "image")) {
        if (!strcmp(name, "description"))
            set_text(st, r->description, sizeof(r->description), name, value, line, false);
        else if (!strcmp(name, "suite"))
            set_text(st, r->suite, sizeof(r->suite), name, value, line, true);
        else if (!strcmp(name, "variant"))
            set_text(st, r->variant, sizeof(r->variant), name, value, line, true);
        else if (!strcmp(name, "arch"))
            set_text(st, r->arch, sizeof(r->arch), name, value, line, true);
        else if (!strcmp(name, "cmdline"))
            set_text(st, r->cmdline, sizeof(r->cmdline), name, value, line, false);
        else if (!strcmp(name, "root_size")) {
            if (parse_size(value, &r->root_size) < 0 || r->root_size < (256LL << 20))
                bad(st, line, "%s: '%s' is not a size of at least 256M", name, value);
        } else
            bad(st, line, "unknown key '%s' in [%s] (accepted: description, suite, variant, arch, "
                          "root_size, cmdline)", name, section);
        return;
    }
    if (!strcmp(section, "packages") && !strcmp(name, "install"))
        list = &r->packages;
    else if (!strcmp(section, "services") && !strcmp(name, "enable"))
        list = &r->enable;
    else if (!strcmp(section, "services") && !strcmp(name, "mask"))
        list = &r->mask;
    else if (!strcmp(section, "build") && !strcmp(name, "run"))
        list = &r->run;
    else if (!strcmp(section, "verify") && !strcmp(name, "path"))
        list = &r->verify_paths;
    else if (!strcmp(section, "verify") && !strcmp(name, "package"))
        list = &r->verify_packages;
    if (!list) {
        bad(st, line, "unknown key '%s' in [%s] (sections: [image], [packages] install, [services] "
                      "enable/mask, [build] run, [verify] path/package)", name, section);
        return;
    }
    size_t before = list->n;
    strlist_add_items(list, value);
    for (size_t i = before; i < list->n; i++) {
        const char *v = list->v[i];
        bool ok = list == &r->verify_paths ? v[0] == '/'
                  : list == &r->run        ? run_command_ok(v)
                                           : safe_word(v);
        if (!ok && list == &r->run)
            bad(st, line, "%s: '%s' is not accepted (an absolute program in the image and words "
                          "of letters, digits and ._-+@:/=)", name, v);
        else if (!ok)
            bad(st, line, "%s: '%s' is not accepted", name, v);
    }
}

struct recipe *recipe_load(const char *dir)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, "recipe.ini");
    char *text = textfile_read(path);
    if (!text) {
        log_error("Cannot read the image recipe '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct recipe *r = xcalloc(1, sizeof(*r));
    snprintf(r->dir, sizeof(r->dir), "%s", dir);
    const char *base = strrchr(dir, '/');
    snprintf(r->name, sizeof(r->name), "%s", base && base[1] ? base + 1 : dir);
    snprintf(r->variant, sizeof(r->variant), "minbase");
    snprintf(r->arch, sizeof(r->arch), "amd64");
    r->root_size = 3LL << 30;

    struct load_state st = {.r = r, .path = path};
    const char *why = NULL;
    int err = inifile_parse(text, NULL, on_value, &st, &why);
    free(text);
    if (err > 0) {
        log_plain("%s:%d: %s", path, err, why);
        st.errors++;
    }
    if (!r->suite[0]) {
        log_plain("%s: [image] has no suite (e.g. suite = bookworm)", path);
        st.errors++;
    }
    if (!r->cmdline[0]) {
        log_plain("%s: [image] has no cmdline (the guest kernel's command line)", path);
        st.errors++;
    }
    if (r->packages.n == 0) {
        log_plain("%s: [packages] installs nothing", path);
        st.errors++;
    }
    if (st.errors) {
        log_error("The image recipe '%s' has %d problem%s.", path, st.errors, st.errors == 1 ? "" : "s");
        recipe_free(r);
        return NULL;
    }
    return r;
}

void recipe_free(struct recipe *r)
{
    if (!r)
        return;
    strlist_free(&r->packages);
    strlist_free(&r->enable);
    strlist_free(&r->mask);
    strlist_free(&r->run);
    strlist_free(&r->verify_paths);
    strlist_free(&r->verify_packages);
    free(r);
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
    return strcmp((*a)->fts_name, (*b)->fts_name);
}

/* Every entry under files/, in a fixed order: path, type, mode, content. */
static int hash_files(struct hasher *h, const char *files_dir)
{
    struct stat st;
    if (stat(files_dir, &st) < 0)
        return errno == ENOENT ? 0 : -1;
    char *roots[] = {(char *)files_dir, NULL};
    FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, by_name);
    if (!fts) {
        log_error("Cannot list '%s': %s", files_dir, strerror(errno));
        return -1;
    }
    size_t skip = strlen(files_dir);
    int rc = 0;
    FTSENT *e;
    while (rc == 0 && (e = fts_read(fts))) {
        const char *rel = e->fts_path + skip;
        switch (e->fts_info) {
        /* modes as git keeps them: executable or not (a checkout's umask must
         * not change the key) */
        case FTS_D:
            hasher_addf(h, "D %s\n", rel);
            break;
        case FTS_F:
            hasher_addf(h, "F %s %c %lld\n", rel, (e->fts_statp->st_mode & 0111) ? 'x' : '-',
                        (long long)e->fts_statp->st_size);
            rc = hasher_add_file(h, e->fts_path);
            break;
        case FTS_SL: {
            char target[PATH_MAX];
            ssize_t n = readlink(e->fts_path, target, sizeof(target) - 1);
            target[n > 0 ? n : 0] = '\0';
            hasher_addf(h, "L %s %s\n", rel, target);
            break;
        }
        case FTS_DP:
            break;
        default:
            log_error("Cannot read '%s' for the image's cache key.", e->fts_path);
            rc = -1;
        }
    }
    fts_close(fts);
    return rc;
}

int recipe_hash(const struct recipe *r, const struct apt_sources *src, char hex[65])
{
    struct hasher *h = hasher_new();
    char path[PATH_MAX];
    hasher_addf(h, "vbed image builder %d\narch %s\n", RECIPE_BUILDER_VERSION, r->arch);
    for (size_t i = 0; i < src->n; i++)
        hasher_addf(h, "apt %s %s\n", src->e[i].suite, src->e[i].components);
    path_join(path, sizeof(path), r->dir, "recipe.ini");
    if (hasher_add_file(h, path) < 0)
        goto fail;
    path_join(path, sizeof(path), r->dir, "files");
    if (hash_files(h, path) < 0)
        goto fail;
    hasher_final(h, hex);
    return 0;
fail:
    hasher_free(h);
    return -1;
}

void recipe_image_id(const struct recipe *r, const char *hex, char *buf, size_t len)
{
    snprintf(buf, len, "%s-%.12s", r->name, hex);
}
