/* hostload.c: what host-prepare (experiment/hostprepare.h) needs to know
 * about sysbench's tables, so that the experiment names no workload: which
 * guest arms copy tables, whether this machine's MariaDB and sysbench are
 * the image's (so a load here makes the very files a guest would), and
 * whether the shared cache already holds root's copy (see hostload.h). */
#include "workloads/hostload.h"

#include "targets/target.h"
#include "workloads/prepared.h"
#include "workloads/workload.h"
#include "util/spawn.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A short command's first line of output (malloc'd), or NULL. */
static char *first_line(const char *const argv[])
{
    char *out = NULL;
    struct spawn_opts o = {.capture = &out, .timeout = 30};
    if (spawn_run(argv, &o) != 0 || !out) {
        free(out);
        return NULL;
    }
    out[strcspn(out, "\n")] = '\0';
    return out;
}

bool hostload_same_sysbench(const char *says, const char *package)
{
    const char *colon = strchr(package, ':');
    const char *upstream = colon ? colon + 1 : package;
    size_t n = strcspn(upstream, "+-~");
    return strncmp(says, "sysbench ", 9) == 0 && n > 0 && strlen(says + 9) == n &&
           strncmp(says + 9, upstream, n) == 0;
}

int hostload_mariadbd_version(const char *says, char *buf, size_t len)
{
    const char *at = strstr(says, " Ver ");
    if (!at)
        return -1;
    at += 5;
    size_t n = strcspn(at, " ");
    if (n == 0 || n >= len)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)at[i]))
            return -1;
    snprintf(buf, len, "%.*s", (int)n, at);
    return 0;
}

/* The image's package's version (its manifest.json), or NULL. */
static const char *image_package(json_object *manifest, const char *name)
{
    json_object *pk, *v;
    return manifest && json_object_object_get_ex(manifest, "packages", &pk) &&
                   json_object_object_get_ex(pk, name, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

/* This machine's MariaDB and sysbench are the image's (the mariadb-server
 * packages' versions agree, and sysbench's): its server's VERSION() into
 * version, the one the guests' copies are keyed by. Else false, why said. */
bool hostload_matches_image(const char *manifest, char *version, size_t len, char *why, size_t wlen)
{
    const char *dpkg[] = {"dpkg-query", "-W", "-f", "${Version}", "mariadb-server", NULL};
    const char *ver[] = {"mariadbd", "--version", NULL};
    const char *sb[] = {"sysbench", "--version", NULL};
    char *host = first_line(dpkg), *says = first_line(ver), *sysbench = first_line(sb);
    json_object *m = json_object_from_file(manifest);
    const char *image = image_package(m, "mariadb-server"), *image_sb = image_package(m, "sysbench");
    bool ok = false;
    if (!host || !image)
        snprintf(why, wlen, "the version of mariadb-server here or in the image is not known");
    else if (strcmp(host, image) != 0)
        snprintf(why, wlen, "this machine's mariadb-server is %s, the image's %s", host, image);
    else if (!sysbench || !image_sb || !hostload_same_sysbench(sysbench, image_sb))
        snprintf(why, wlen, "this machine's sysbench (%s) is not the image's (%s)", sysbench ? sysbench : "?",
                 image_sb ? image_sb : "?");
    else if (!says || hostload_mariadbd_version(says, version, len) < 0)
        snprintf(why, wlen, "`mariadbd --version` did not say its version");
    else
        ok = true;
    json_object_put(m);
    free(host);
    free(says);
    free(sysbench);
    return ok;
}

/* The guest arm's tables will be copied: a sysbench OLTP workload with
 * tables, prepare = copy, or auto with enough rows. */
bool hostload_wanted(const struct run_config *cfg)
{
    const struct workload_ops *ops = workload_ops_for(cfg->workload);
    return ops && strcmp(ops->name, "sysbench-oltp") == 0 && cfg->tables >= 1 && cfg->table_size >= 1 &&
           (cfg->prepare == PREPARE_COPY ||
            (cfg->prepare == PREPARE_AUTO && cfg->tables * cfg->table_size >= PREPARED_HOST_ROWS));
}


bool hostload_cached(const char *prepared_dir, const struct run_config *cfg, const char *version)
{
    static const struct target_ops host_ops = {.kind = "host-prepare"};
    struct target t = {.ops = &host_ops};
    snprintf(t.name, sizeof(t.name), "host-prepare");
    snprintf(t.prepared_dir, sizeof(t.prepared_dir), "%s", prepared_dir);
    struct prepared_server ps;
    memset(&ps, 0, sizeof(ps));
    /* the key a guest of the image will ask for (its page size: InnoDB's default) */
    prepared_key(cfg, version, "16384", ps.key);
    char why[512];
    struct run_config c = *cfg;
    c.prepare = PREPARE_COPY; /* valid, whatever auto would say of its load time */
    return prepared_lookup(&t, &c, &ps, why, sizeof(why)) == 0;
}

void hostload_versions(const char *manifest, json_object *into)
{
    const char *argv[] = {"sysbench", "--version", NULL};
    char *out = first_line(argv);
    if (out)
        json_object_object_add(into, "sysbench_host", json_object_new_string(out));
    free(out);
    json_object *m = manifest ? json_object_from_file(manifest) : NULL;
    const char *guest = image_package(m, "sysbench");
    if (guest)
        json_object_object_add(into, "sysbench_guest", json_object_new_string(guest));
    json_object_put(m);
}
