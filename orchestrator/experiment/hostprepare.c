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
#include "workloads/hostload.h"
#include "workloads/prepared.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One private mariadbd that loads cfg's tables and leaves their copy in
 * the image cache (n: its number, for its name and directory); how long
 * the loading itself took into *load_s. 0, or -1 (said why). */
static int load_here(struct runner *r, const struct run_config *arm_cfg, int n, double *load_s)
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
    *load_s = t.prepare_s;
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
        want += p->arms[p->specs[s].arm].kind == ARM_GUEST && hostload_wanted(&p->specs[s].cfg);
    if (!want || !r->img.dir[0] || r->o->boot_only)
        return;
    if (!hostload_matches_image(r->img.manifest, version, sizeof(version), why, sizeof(why))) {
        log_info("host-prepare: the guests load their tables: %s", why);
        return;
    }
    json_object *done = json_object_new_array();
    for (size_t s = 0; s < p->n_specs && n < HOSTPREPARE_MAX && !signals_interrupted(); s++) {
        const struct run_config *cfg = &p->specs[s].cfg;
        if (p->arms[p->specs[s].arm].kind != ARM_GUEST || !hostload_wanted(cfg))
            continue;
        /* the key a guest of this image will ask for (its page size: InnoDB's default) */
        prepared_key(cfg, version, "16384", key);
        char prepared[PATH_MAX];
        path_join(prepared, sizeof(prepared), r->img.dir, "prepared");
        bool seen = hostload_cached(prepared, cfg, version);
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(keys[k], key) == 0;
        if (seen)
            continue;
        snprintf(keys[n++], sizeof(keys[0]), "%s", key);
        log_info("host-prepare: loading %lld table%s of %lld rows on this machine for the guests (MariaDB "
                 "%s, as in the image)", cfg->tables, cfg->tables == 1 ? "" : "s", cfg->table_size, version);
        double t0 = monotime_s(), load_s = 0;
        int loaded = load_here(r, cfg, n, &load_s);
        double took = monotime_s() - t0;
        bool kept = hostload_cached(prepared, cfg, version);
        if (kept)
            log_info("host-prepare: the guests' tables are ready in %.1f s (key %.12s)", took, key);
        else if (!signals_interrupted()) {
            /* below the rule's time, not a failure: every guest loads (and,
             * past PREPARED_PAYS_S, keeps a copy for the run's later guests) */
            if (loaded == 0 && !prepared_pays(cfg, "host arm", load_s))
                log_info("host-prepare: no copy kept: the tables loaded in %.1f s here, and prepare = "
                         "auto copies from %.0f s of loading; the guests load them",
                         load_s, PREPARED_PAYS_HOST_S);
            else
                log_warn("host-prepare: no copy of the tables was kept; the first guest loads them");
        }
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
