/* hostprepare.c: the guests' tables loaded natively on this machine before
 * the first run (see hostprepare.h). */
#include "experiment/hostprepare.h"

#include "experiment/experiment.h"
#include "results/meta.h"
#include "results/results.h"
#include "scenario/mycnf.h"
#include "targets/hostarm.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/paths.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "virt/layout.h"
#include "workloads/prepared.h"
#include "workloads/workload.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

bool hostprepare_same_sysbench(const char *says, const char *package)
{
    const char *colon = strchr(package, ':');
    const char *upstream = colon ? colon + 1 : package;
    size_t n = strcspn(upstream, "+-~");
    return strncmp(says, "sysbench ", 9) == 0 && n > 0 && strlen(says + 9) == n &&
           strncmp(says + 9, upstream, n) == 0;
}

int hostprepare_mariadbd_version(const char *says, char *buf, size_t len)
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
static bool host_is_image(const struct runner *r, char *version, size_t len, char *why, size_t wlen)
{
    const char *dpkg[] = {"dpkg-query", "-W", "-f", "${Version}", "mariadb-server", NULL};
    const char *ver[] = {"mariadbd", "--version", NULL};
    const char *sb[] = {"sysbench", "--version", NULL};
    char *host = first_line(dpkg), *says = first_line(ver), *sysbench = first_line(sb);
    json_object *m = json_object_from_file(r->img.manifest);
    const char *image = image_package(m, "mariadb-server"), *image_sb = image_package(m, "sysbench");
    bool ok = false;
    if (!host || !image)
        snprintf(why, wlen, "the version of mariadb-server here or in the image is not known");
    else if (strcmp(host, image) != 0)
        snprintf(why, wlen, "this machine's mariadb-server is %s, the image's %s", host, image);
    else if (!sysbench || !image_sb || !hostprepare_same_sysbench(sysbench, image_sb))
        snprintf(why, wlen, "this machine's sysbench (%s) is not the image's (%s)", sysbench ? sysbench : "?",
                 image_sb ? image_sb : "?");
    else if (!says || hostprepare_mariadbd_version(says, version, len) < 0)
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
static bool copies_tables(const struct run_config *cfg)
{
    const struct workload_ops *ops = workload_ops_for(cfg->workload);
    return ops && strcmp(ops->name, "sysbench-oltp") == 0 && cfg->tables >= 1 && cfg->table_size >= 1 &&
           (cfg->prepare == PREPARE_COPY ||
            (cfg->prepare == PREPARE_AUTO && cfg->tables * cfg->table_size >= PREPARED_HOST_ROWS));
}

/* One private mariadbd that loads cfg's tables and leaves their copy in
 * the image cache (n: its number, for its name and directory). 0, or -1
 * (said why). */
static int load_here(struct runner *r, const struct run_config *arm_cfg, int n)
{
    struct run_config cfg = *arm_cfg;
    cfg.buffer_pool = 128LL << 20; /* the files do not depend on it; auto would size a guest's */
    cfg.host_match = HOST_MATCH_NONE;
    cfg.drop_caches = false;
    char runid[64], name[96], base[PATH_MAX], dir[PATH_MAX], sub[32];
    layout_runid(runid, sizeof(runid), r->session, 0);
    snprintf(name, sizeof(name), "vbed-%s-prepare%d", runid, n);
    snprintf(sub, sizeof(sub), "host-prepare/%d", n);
    path_join(dir, sizeof(dir), r->res->dir, sub);
    hostarm_base(cfg.pool_dir, base, sizeof(base));
    struct samples *s = paths_mkdirs(dir, 0755) == 0 ? samples_open(dir) : NULL;
    if (!s)
        return -1;
    char *mycnf = mycnf_render(&cfg);
    results_write(dir, "my.cnf", mycnf);
    struct hostarm_limits lim;
    hostarm_limits_of(&cfg, &lim);
    struct target t;
    int rc = target_open_host_arm(&t, r->local, &lim, mycnf, r->lua_host, base, name, dir);
    free(mycnf);
    if (rc < 0) {
        samples_close(s);
        return -1;
    }
    snprintf(t.name, sizeof(t.name), "host-prepare"); /* its messages, the copy's "from" */
    path_join(t.prepared_dir, sizeof(t.prepared_dir), r->img.dir, "prepared");
    json_object *labels = json_object_new_object();
    json_object_object_add(labels, "arm", json_object_new_string("host-prepare"));
    samples_begin_run(s, labels);
    json_object_put(labels);
    struct experiment e = {.cfg = &cfg, .t = &t, .n = 1, .samples = s, .prepare_only = true};
    rc = experiment_run(&e);
    if (rc < 0)
        log_warn("host-prepare: %s", e.error);
    samples_end_run(s);
    samples_close(s);
    target_close(&t); /* stops and removes it */
    return rc;
}

void hostprepare_run(struct runner *r)
{
    const struct plan *p = r->plan;
    char version[128], why[256], key[65], keys[HOSTPREPARE_MAX][65];
    int n = 0, want = 0;
    for (size_t s = 0; s < p->n_specs; s++)
        want += p->arms[p->specs[s].arm].kind == ARM_GUEST && copies_tables(&p->specs[s].cfg);
    if (!want || !r->img.dir[0] || r->o->boot_only)
        return;
    if (!host_is_image(r, version, sizeof(version), why, sizeof(why))) {
        log_info("host-prepare: the guests load their tables: %s", why);
        return;
    }
    json_object *done = json_object_new_array();
    for (size_t s = 0; s < p->n_specs && n < HOSTPREPARE_MAX && !signals_interrupted(); s++) {
        const struct run_config *cfg = &p->specs[s].cfg;
        if (p->arms[p->specs[s].arm].kind != ARM_GUEST || !copies_tables(cfg))
            continue;
        /* the key a guest of this image will ask for (its page size: InnoDB's default) */
        prepared_key(cfg, version, "16384", key);
        char meta[PATH_MAX], rel[96];
        snprintf(rel, sizeof(rel), "prepared/%s/meta.json", key);
        path_join(meta, sizeof(meta), r->img.dir, rel);
        bool seen = access(meta, F_OK) == 0;
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(keys[k], key) == 0;
        if (seen)
            continue;
        snprintf(keys[n++], sizeof(keys[0]), "%s", key);
        log_info("host-prepare: loading %lld table%s of %lld rows on this machine for the guests (MariaDB "
                 "%s, as in the image)", cfg->tables, cfg->tables == 1 ? "" : "s", cfg->table_size, version);
        double t0 = monotime_s();
        load_here(r, cfg, n);
        double took = monotime_s() - t0;
        bool kept = access(meta, F_OK) == 0;
        if (kept)
            log_info("host-prepare: the guests' tables are ready in %.1f s (key %.12s)", took, key);
        else if (!signals_interrupted())
            log_warn("host-prepare: no copy of the tables was kept; the first guest loads them");
        json_object *o = json_object_new_object();
        json_object_object_add(o, "key", json_object_new_string(key));
        json_object_object_add(o, "tables", json_object_new_int64(cfg->tables));
        json_object_object_add(o, "table_size", json_object_new_int64(cfg->table_size));
        json_object_object_add(o, "s", json_object_new_double(took));
        json_object_object_add(o, "kept", json_object_new_boolean(kept));
        json_object_array_add(done, o);
    }
    if (json_object_array_length(done))
        meta_set(r->meta, NULL, "host_prepare", done);
    else
        json_object_put(done);
    meta_write(r->meta);
}
